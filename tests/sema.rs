//! Semantic checks on real PTX: the valid corpus and the example kernels
//! resolve without a single diagnostic; the fixtures and the invalid corpus
//! produce the diagnostics in their snapshots (rendered as the CLI renders them).

use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::NoColor};
use std::path::{Path, PathBuf};
use warpscope::diagnostic::Diagnostic;
use warpscope::source::SourceFile;

fn ptx_files(dir: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "ptx") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &mut out);
    out.sort();
    out
}

fn load(path: &Path) -> SourceFile {
    let bytes = std::fs::read(path).unwrap();
    let name = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string();
    SourceFile::new(name, bytes).unwrap()
}

fn render(file: &SourceFile, diags: &[Diagnostic]) -> String {
    let files = SimpleFile::new(file.name(), file.text());
    let mut buf = NoColor::new(Vec::new());
    let config = term::Config::default();
    for d in diags {
        term::emit(&mut buf, &config, &files, &d.to_codespan(())).unwrap();
    }
    String::from_utf8(buf.into_inner()).unwrap()
}

fn sema(file: &SourceFile) -> Vec<Diagnostic> {
    let (module, _) = warpscope::syntax::parse(file.text());
    warpscope::sema::check_module(&module).1
}

#[test]
fn valid_corpus_resolves_without_diagnostics() {
    let mut files: Vec<PathBuf> = ptx_files("tests/corpus")
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "invalid"))
        .collect();
    files.extend(ptx_files("examples"));
    files.extend(ptx_files("tests/fixtures/sema").into_iter().filter(|p| {
        p.file_name().is_some_and(|n| {
            n.to_string_lossy().starts_with("cfg_") || n.to_string_lossy().starts_with("ok_")
        })
    }));
    assert!(files.len() > 50, "corpus not found");
    let mut report = String::new();
    for path in &files {
        let file = load(path);
        let diags = sema(&file);
        if !diags.is_empty() {
            report.push_str(&render(&file, &diags));
        }
    }
    assert!(report.is_empty(), "false positives on valid PTX:\n{report}");
}
