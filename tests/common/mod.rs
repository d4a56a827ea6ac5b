//! Helpers shared by the integration tests (`mod common;` in each).

#![allow(dead_code)] // each test binary uses its own subset

use std::path::{Path, PathBuf};
use warpscope::source::SourceFile;

/// Every `*.ptx` file below `dir` (relative to the crate root, or absolute),
/// sorted. Python virtual environments (`venv`, inside the big corpus) are
/// skipped.
pub fn ptx_files(dir: impl AsRef<Path>) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() && !p.ends_with("venv") {
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

/// Reads a file into a [`SourceFile`] named by its path relative to the crate
/// root (so snapshots do not depend on where the checkout lives).
pub fn load(path: &Path) -> SourceFile {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string();
    SourceFile::new(name, bytes).unwrap()
}
