//! Architecture invariants that the compiler does not check.
//!
//! "Analysis never imports syntax or sema" (`ARCHITECTURE.md`): the analysis,
//! the CFG, the IR, the lints and the reports read the warp IR and analysis
//! results only, so that every front end (PTX today, SASS next) lowers into
//! the same core. This test reads their sources and fails on any path into
//! the PTX front end.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Paths into the PTX front end.
const FRONT_END: &[&str] = &[
    "crate::syntax",
    "crate::sema",
    "crate::lower",
    "crate::pipeline",
    "super::syntax",
    "super::sema",
    "warpscope::syntax",
    "warpscope::sema",
];

/// Paths into the analysis.
const ANALYSIS: &[&str] = &["crate::analysis", "super::analysis", "warpscope::analysis"];

/// The lines of `files` that name the PTX front end.
fn front_end_uses(files: &[PathBuf]) -> Vec<String> {
    uses_of(files, FRONT_END)
}

/// The lines of `files` (before their `#[cfg(test)]` module, outside
/// comments) that name one of the `forbidden` paths.
fn uses_of(files: &[PathBuf], forbidden: &[&str]) -> Vec<String> {
    let mut hits = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).expect("source file");
        for (i, line) in text.lines().enumerate() {
            // Unit tests (the `#[cfg(test)]` module at the end of a file)
            // may build their input with the front end.
            if line.trim() == "#[cfg(test)]" {
                break;
            }
            // Doc comments may name the front end (to explain the seam);
            // code may not.
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if forbidden.iter().any(|p| code.contains(p)) {
                hits.push(format!("{}:{}: {}", f.display(), i + 1, code));
            }
        }
    }
    hits
}

fn sources(dirs: &[&str], files: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in dirs {
        rust_files(Path::new(d), &mut out);
    }
    out.extend(files.iter().map(PathBuf::from));
    assert!(out.len() > 5, "no sources found");
    out
}

#[test]
fn analysis_never_imports_syntax_or_sema() {
    let files = sources(
        &["src/analysis", "src/ir", "src/lints", "src/report"],
        &["src/cfg.rs", "src/isa.rs"],
    );
    let hits = front_end_uses(&files);
    // `lints::check_file_with` (which `check_file` calls) and
    // `lints::check_file_parts` are the entry points that run the whole
    // pipeline on a file (front end included): they call `crate::pipeline`.
    let hits: Vec<_> = hits
        .into_iter()
        .filter(|h| {
            !(h.starts_with("src/lints/mod.rs")
                && (h.contains("crate::pipeline::analyze_each(")
                    || h.contains("crate::pipeline::analyze_settled(")))
        })
        .collect();
    assert!(
        hits.is_empty(),
        "the analysis side of the seam names the PTX front end:\n{}",
        hits.join("\n")
    );
}

/// "The IR does not import the analysis" (`ARCHITECTURE.md`): the IR (its
/// SSA form included), the CFG, the ISA table and the utilities sit below
/// the analysis, so a second front end and the analysis both build on them
/// without a cycle.
#[test]
fn ir_never_imports_the_analysis() {
    let files = sources(&["src/ir"], &["src/cfg.rs", "src/isa.rs", "src/util.rs"]);
    let hits = uses_of(&files, ANALYSIS);
    assert!(
        hits.is_empty(),
        "the IR names the analysis:\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_check_sees_a_violation() {
    let dir = std::env::temp_dir().join(format!("warpscope-arch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.rs");
    std::fs::write(
        &bad,
        "//! crate::syntax in a comment is fine\nuse crate::syntax::ast::Module;\n#[cfg(test)]\nuse crate::sema::Scopes;\n",
    )
    .expect("write");
    let hits = front_end_uses(&[bad]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!(hits[0].ends_with("use crate::syntax::ast::Module;"));
    let hits = uses_of(
        &[
            PathBuf::from("src/ir/alu.rs"),
            PathBuf::from("src/analysis/transfer.rs"),
        ],
        ANALYSIS,
    );
    assert!(hits.is_empty(), "{hits:?}");
    let hits = uses_of(
        &[PathBuf::from("src/lints/data_dependent_access.rs")],
        ANALYSIS,
    );
    assert!(!hits.is_empty(), "a lint names the analysis");
}
