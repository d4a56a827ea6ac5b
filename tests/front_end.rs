//! `warpscope parse` (`front::parse_stats`) tries a parallel way first (the
//! bodies found by `syntax::parse_skeleton`'s scan, each parsed and
//! resolved once, on any thread) and keeps it only for a clean file whose
//! bodies the parser reads to the scan's extent. These tests hold it to
//! the sequential way on every PTX file of the test tree and on every
//! prefix of a module whose comments and strings hold braces: the parallel
//! way either gives the sequential way's counts (no diagnostic) or gives
//! way, and `parse_stats` is always the sequential way's result.

use std::path::{Path, PathBuf};
use warpscope::front::{parse_stats, parse_stats_parallel, parse_stats_sequential};
use warpscope::SourceFile;

fn ptx_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            ptx_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "ptx") {
            out.push(p);
        }
    }
}

/// Holds both ways to each other on `text`; true when the parallel way
/// was kept.
fn same_both_ways(name: &str, text: &str) -> bool {
    let file = SourceFile::from_text(name, text);
    let (seq, seq_diags) = parse_stats_sequential(&file, false);
    assert_eq!(
        parse_stats(&file, false),
        (seq.clone(), seq_diags.clone()),
        "{name}: parse_stats is the sequential way's result"
    );
    let Some(par) = parse_stats_parallel(&file) else {
        return false;
    };
    assert!(
        seq_diags.is_empty(),
        "{name}: the parallel way was kept for a file with diagnostics: {seq_diags:?}"
    );
    assert_eq!(par, seq, "{name}: the counts");
    // The skeleton's module is the lazy parse's, item by item.
    let (skeleton, _) = warpscope::syntax::parse_file_skeleton(&file);
    let (lazy, _) = warpscope::syntax::parse_file_lazy(&file);
    assert_eq!(
        format!("{skeleton:?}"),
        format!("{lazy:?}"),
        "{name}: the skeleton"
    );
    true
}

#[test]
fn every_test_file_gets_the_same_counts_both_ways() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    ptx_files(&root, &mut files);
    assert!(files.len() > 50, "found only {} PTX files", files.len());
    let mut kept = 0;
    for f in &files {
        let bytes = std::fs::read(f).expect("a test file reads");
        let text = String::from_utf8_lossy(&bytes);
        kept += usize::from(same_both_ways(&f.display().to_string(), &text));
    }
    // Most test files are clean: the parallel way must have been taken.
    assert!(
        kept * 2 > files.len(),
        "the parallel way was kept for only {kept} of {} files",
        files.len()
    );
}

/// A clean module whose bodies hold braces in comments, a pragma string and
/// vector operands: the scan finds the parser's extents.
#[test]
fn braces_in_comments_strings_and_vectors_do_not_mislead_the_scan() {
    let text = "\
.version 8.5
.target sm_90
.address_size 64
// } a brace before the first function
.visible .entry k(.param .u64 p)
{
    // } a closing brace in a line comment
    /* { an opening one
       in a block comment } } */
    .reg .b32 %r<5>;
    .reg .b64 %rd<3>;
    .pragma \"nounroll\";
    ld.param.u64 %rd1, [p];
    {
        .reg .b32 %t;
        mov.u32 %t, 1;
    }
    ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1]; // {
    mov.b64 %rd2, {%r1, %r2};
    st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
    ret;
}
.func f()
{
    /* } */ ret;
}
";
    assert!(
        same_both_ways("braces.ptx", text),
        "a clean module takes the parallel way"
    );
}

/// Every prefix of a module with calls and braces in comments and strings:
/// bodies cut anywhere, comments and strings left open, one body that does
/// not parse cleanly (the parallel way must give way on each).
#[test]
fn every_prefix_of_a_module_is_the_same_both_ways() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let calls = std::fs::read_to_string(root.join("tests/corpus/handwritten/calls.ptx"))
        .expect("calls.ptx reads");
    let entry = calls.find(".entry").expect("calls.ptx has a kernel");
    let open = entry + calls[entry..].find('{').expect("a body");
    let text = format!(
        "{}\n  // }} a brace in a comment\n  /* {{ */\n  .reg .b32 %qq<2>;\n  \
         mov.u32 %qq0, 1; // }}\n  .pragma \"}}\";\n{}",
        &calls[..=open],
        &calls[open + 1..]
    );
    let mut cuts: Vec<usize> = (0..text.len()).step_by(5).collect();
    cuts.extend(
        text.match_indices(['{', '}', '"', '/', ';'])
            .map(|(i, _)| i),
    );
    cuts.extend(cuts.clone().iter().map(|i| i + 1));
    cuts.push(text.len());
    cuts.sort_unstable();
    cuts.dedup();
    let mut kept = 0;
    for cut in cuts {
        if let Some(prefix) = text.get(..cut) {
            kept += usize::from(same_both_ways(&format!("calls.ptx[..{cut}]"), prefix));
        }
    }
    assert!(kept > 0, "the whole module takes the parallel way");
}
