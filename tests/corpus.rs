//! The committed corpus of real PTX (`tests/corpus/`): every valid file goes
//! through the front end (parser and name resolution) with zero diagnostics,
//! and its statistics are a snapshot; every file in `invalid/` is diagnosed,
//! and the rendered diagnostics are a snapshot.

use std::path::{Path, PathBuf};
use warpscope::source::SourceFile;
use warpscope::syntax::stats::ParseStats;

mod common;

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
    let files: Vec<PathBuf> = ["handwritten", "nvcc", "triton"]
        .iter()
        .flat_map(|sub| common::ptx_files(corpus().join(sub)))
        .collect();
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
    let files = common::ptx_files(corpus().join("invalid"));
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
