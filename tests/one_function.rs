//! `check` and `report` work one function at a time
//! (`pipeline::analyze_each`, `analyze_settled`, `analyze_streamed`): the module is parsed without keeping its
//! bodies (`syntax::parse_lazy`), each body is parsed again from its span
//! (`syntax::parse_body`) in the worker that resolves and analyses it. These
//! tests hold that path to the whole-module one on every PTX file of the
//! test tree, and on every prefix of a module with calls (malformed inputs:
//! cut bodies, comments and strings left open): the same syntax tree body by
//! body, the same diagnostics in the same order, the same kernel analyses.

use std::path::{Path, PathBuf};
use warpscope::diagnostic::Diagnostic;
use warpscope::syntax::ast::Module;
use warpscope::{Options, SourceFile};

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

/// The whole-module path as it was: parse, resolve, analyse every kernel.
fn eager(file: &SourceFile, opts: &Options) -> (Vec<String>, Vec<Diagnostic>) {
    let (module, mut diags) = warpscope::syntax::parse_file(file);
    let (symbols, sema) = warpscope::sema::check_module_without_resolutions(&module);
    diags.extend(sema);
    let kernels = warpscope::pipeline::analyze_module_with_symbols(file, &module, &symbols, opts);
    (kernels.iter().map(json).collect(), diags)
}

fn json(k: &warpscope::KernelAnalysis) -> String {
    serde_json::to_string(k).expect("a kernel analysis serialises")
}

/// Holds the lazy parse and the one-function pipeline to the eager ones on
/// `text`; returns the number of kernels compared and of parts of `check`
/// that held findings.
fn same_as_whole_module(name: &str, text: &str) -> (usize, usize) {
    let file = SourceFile::from_text(name, text);
    let (whole, whole_diags) = warpscope::syntax::parse_file(&file);
    let (lazy, lazy_diags) = warpscope::syntax::parse_file_lazy(&file);
    assert_eq!(whole_diags, lazy_diags, "{name}: the parser's diagnostics");
    same_bodies(name, file.text(), &whole, &lazy);

    let opts = Options::default();
    let (kernels, diags) = eager(&file, &opts);
    let (lazy_kernels, lazy_diags) = warpscope::pipeline::analyze_each(&file, &opts, |k| json(&k));
    assert_eq!(diags, lazy_diags, "{name}: the front end's diagnostics");
    assert_eq!(kernels, lazy_kernels, "{name}: the kernels' analyses");
    for from_bytes in [0, usize::MAX] {
        let (mut got_diags, mut got_kernels) = (None, Vec::new());
        warpscope::pipeline::analyze_streamed_from(
            &file,
            &opts,
            from_bytes,
            |k| json(&k),
            |s| match s {
                warpscope::pipeline::Streamed::Diagnostics(d) => {
                    assert!(got_diags.is_none() && got_kernels.is_empty());
                    got_diags = Some(d);
                }
                warpscope::pipeline::Streamed::Kernel(k) => {
                    assert!(got_diags.is_some(), "{name}: diagnostics first");
                    got_kernels.push(k);
                }
            },
        );
        assert_eq!(
            got_diags.as_ref(),
            Some(&diags),
            "{name}: streamed diagnostics ({from_bytes})"
        );
        assert_eq!(
            got_kernels, kernels,
            "{name}: streamed kernels ({from_bytes})"
        );
    }
    let parts = same_in_parts(name, &file);
    (kernels.len(), parts)
}

/// Parts of `check` handed over as the functions are done
/// (`lints::check_file_parts`) put end to end are the whole file's
/// findings and sites, and print the same bytes in the formats that print
/// in parts. Returns the number of parts that held findings.
fn same_in_parts(name: &str, file: &SourceFile) -> usize {
    use warpscope::output::{Emitter, FileReport, Format, RenderOptions};
    let config = warpscope::config::Config::default();
    let whole = warpscope::lints::check_file_with(file, &config, false);
    let mut parts = Vec::new();
    warpscope::lints::check_file_parts(file, &config, |p| parts.push(p));
    assert!(!parts.is_empty(), "{name}: a first part");
    let mut joined = warpscope::lints::Findings::new();
    let mut sites = warpscope::suppress::Sites::default();
    for p in &parts {
        joined.append(p.findings.clone());
        sites.merge(p.sites.clone());
    }
    let all = |f: &warpscope::lints::Findings| -> Vec<String> {
        (0..f.len())
            .map(|i| format!("{:?} {:?} {:?}", f.get(i), f.kernel(i), f.location(i)))
            .collect()
    };
    assert_eq!(
        all(&whole.findings),
        all(&joined),
        "{name}: findings in parts"
    );
    assert_eq!(
        format!("{:?}", whole.sites),
        format!("{sites:?}"),
        "{name}: sites"
    );
    let sources = Default::default();
    for format in [Format::Full, Format::Concise, Format::Github] {
        let mut e = Emitter::new(format, RenderOptions::default());
        let mut expected = Vec::new();
        let report = FileReport {
            file,
            result: &whole,
            sources: &sources,
        };
        e.write_file(&report, &mut expected).unwrap();
        let mut e = Emitter::new(format, RenderOptions::default());
        let mut got = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            let r = warpscope::lints::CheckResult {
                analysis: warpscope::Analysis {
                    kernels: Vec::new(),
                    diagnostics: Vec::new(),
                },
                findings: p.findings.clone(),
                sites: Default::default(),
            };
            let report = FileReport {
                file,
                result: &r,
                sources: &sources,
            };
            e.write_part(&report, i == 0, &mut got).unwrap();
        }
        assert_eq!(
            String::from_utf8_lossy(&expected),
            String::from_utf8_lossy(&got),
            "{name}: {format:?} in parts"
        );
    }
    parts.iter().filter(|p| !p.findings.is_empty()).count()
}

fn same_bodies(name: &str, text: &str, whole: &Module<'_>, lazy: &Module<'_>) {
    assert_eq!(whole.functions.len(), lazy.functions.len(), "{name}");
    assert_eq!(whole.items.len(), lazy.items.len(), "{name}");
    for (w, l) in whole.functions.iter().zip(&lazy.functions) {
        assert_eq!(w.span, l.span, "{name}: function `{}`", w.name.text);
        match (&w.body, &l.body) {
            (None, None) => {}
            (Some(wb), Some(lb)) => {
                assert!(
                    lb.statements.is_empty(),
                    "{name}: a lazy body keeps nothing"
                );
                let again = warpscope::syntax::parse_body(text, lb.span);
                assert_eq!(
                    format!("{wb:?}"),
                    format!("{again:?}"),
                    "{name}: body of `{}` parsed again",
                    w.name.text
                );
            }
            _ => panic!("{name}: `{}` has a body in one parse only", w.name.text),
        }
    }
}

#[test]
fn every_test_file_is_the_same_one_function_at_a_time() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    ptx_files(&root, &mut files);
    assert!(files.len() > 50, "found only {} PTX files", files.len());
    let (mut kernels, mut split) = (0, 0);
    for f in &files {
        let bytes = std::fs::read(f).expect("a test file reads");
        let text = String::from_utf8_lossy(&bytes);
        let (k, parts) = same_as_whole_module(&f.display().to_string(), &text);
        kernels += k;
        split += usize::from(parts > 1);
    }
    assert!(kernels > 50, "compared only {kernels} kernels");
    assert!(
        split > 10,
        "only {split} files had findings in several parts"
    );
}

/// Every prefix of a module with calls, comments holding braces and a
/// statement that recovers into a comment: bodies cut anywhere, comments
/// and strings left open, a call to a function whose body is cut.
#[test]
fn every_prefix_of_a_module_with_calls_is_the_same() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let calls = std::fs::read_to_string(root.join("tests/corpus/handwritten/calls.ptx"))
        .expect("calls.ptx reads");
    let entry = calls.find(".entry").expect("calls.ptx has a kernel");
    let open = entry + calls[entry..].find('{').expect("a body");
    let text = format!(
        "{}\n  // }} a brace in a comment\n  /* {{ */\n  .reg .b32 %qq<2>;\n  \
         mov.u32 %qq0, 1 // }} no `;`, a brace in the comment\n  \
         add.u32 %qq1, %qq0, ; // }}\n  .pragma \"}}\";\n  frobnicate.u32 %qq0;\n{}",
        &calls[..=open],
        &calls[open + 1..]
    );
    let mut cuts: Vec<usize> = (0..text.len()).step_by(7).collect();
    cuts.extend(
        text.match_indices(['{', '}', '"', '/', ';'])
            .map(|(i, _)| i),
    );
    cuts.extend(cuts.clone().iter().map(|i| i + 1));
    cuts.push(text.len());
    cuts.sort_unstable();
    cuts.dedup();
    for cut in cuts {
        if let Some(prefix) = text.get(..cut) {
            same_as_whole_module(&format!("calls.ptx[..{cut}]"), prefix);
        }
    }
}

/// `parse --stats` counts the tree body by body; the figures are the
/// whole tree's.
#[test]
fn body_by_body_stats_are_the_whole_trees() {
    use warpscope::syntax::stats::ParseStats;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    ptx_files(&root, &mut files);
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).expect("reads")).into_owned();
        let (whole, d) = warpscope::syntax::parse(&text);
        let expected = ParseStats::of_module(text.len(), &whole, d.len());
        let mut bodies = ParseStats::default();
        let (lazy, d) = warpscope::syntax::parse_lazy_with(&text, &mut |f| {
            if let Some(b) = &f.body {
                bodies.add_body(b);
            }
        });
        let mut got = ParseStats::of_module(text.len(), &lazy, d.len());
        got.add(&bodies);
        assert_eq!(expected, got, "{}", f.display());
    }
}
