//! The committed corpus of real PTX (`tests/corpus/`): every valid file goes
//! through the front end (parser and name resolution) with zero diagnostics,
//! and its statistics are a snapshot; every file in `invalid/` is diagnosed,
//! and the rendered diagnostics are a snapshot.

use std::path::{Path, PathBuf};
use warpscope::source::SourceFile;
use warpscope::syntax::stats::ParseStats;

fn ptx_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        if p.is_dir() {
            ptx_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ptx") {
            out.push(p);
        }
    }
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

fn front_end(
    path: &Path,
) -> (
    SourceFile,
    ParseStats,
    Vec<warpscope::diagnostic::Diagnostic>,
) {
    let bytes = std::fs::read(path).unwrap();
    let rel = path.strip_prefix(corpus()).unwrap().display().to_string();
    let file = SourceFile::new(rel, bytes).unwrap();
    let (module, mut diags) = warpscope::syntax::parse_file(&file);
    let (_, sema) = warpscope::sema::check_module(&module);
    diags.extend(sema);
    let stats = ParseStats::of_module(file.text().len(), &module, diags.len());
    drop(module);
    (file, stats, diags)
}

#[test]
fn valid_corpus_has_no_diagnostics() {
    let mut files = Vec::new();
    for sub in ["handwritten", "nvcc", "triton"] {
        ptx_files(&corpus().join(sub), &mut files);
    }
    files.sort();
    assert!(
        files.len() >= 50,
        "the corpus should hold dozens of files, found {}",
        files.len()
    );
    let mut total = ParseStats::default();
    for path in &files {
        let (file, stats, diags) = front_end(path);
        assert!(
            diags.is_empty(),
            "{}",
            warpscope::diagnostic::render_plain(file.name(), file.text(), &diags)
        );
        total.add(&stats);
    }
    insta::assert_json_snapshot!("corpus_stats", total);
}

#[test]
fn invalid_corpus_is_diagnosed() {
    let mut files = Vec::new();
    ptx_files(&corpus().join("invalid"), &mut files);
    files.sort();
    assert!(!files.is_empty());
    let mut rendered = String::new();
    for path in &files {
        let (file, _, diags) = front_end(path);
        assert!(!diags.is_empty(), "{} should be diagnosed", file.name());
        rendered.push_str(&format!("==== {}\n", file.name()));
        rendered.push_str(&warpscope::diagnostic::render_plain(
            file.name(),
            file.text(),
            &diags,
        ));
    }
    insta::assert_snapshot!("invalid_corpus_diagnostics", rendered);
}
