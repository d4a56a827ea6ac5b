//! Inputs the fuzzer found (`tests/fuzz_regressions/README.md`): each runs
//! through the pipeline as its fuzz target ran it, without a panic, and the
//! SASS ones with a bounded number of inferred parameters.

use warpscope::analysis::{LaunchConfig, Options};
use warpscope::source::SourceFile;

fn files(ext: &str) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir("tests/fuzz_regressions")
        .expect("tests/fuzz_regressions")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

#[test]
fn ptx_inputs_analyse_with_a_launch() {
    let found = files("ptx");
    assert!(!found.is_empty());
    for path in found {
        let bytes = std::fs::read(&path).expect("read");
        let file = SourceFile::from_text("fuzz.ptx", String::from_utf8_lossy(&bytes).into_owned());
        // The fuzz target's launch (fuzz/fuzz_targets/analyze.rs).
        let opts = Options {
            launch: LaunchConfig {
                block: Some([64, 2, 1]),
                grid: Some([2, 1, 1]),
                params: vec![],
            },
            ..Options::default()
        };
        let a = warpscope::analyze(&file, &opts);
        assert!(!a.kernels.is_empty(), "{}", path.display());
    }
}

#[test]
fn sass_inputs_infer_few_parameters() {
    let found = files("sass");
    assert!(!found.is_empty());
    for path in found {
        let bytes = std::fs::read(&path).expect("read");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let file = SourceFile::from_text("fuzz.sass", text);
        // The fuzz target's pipeline (fuzz/fuzz_targets/sass.rs): no panic.
        let _ = warpscope::sass::analyze(&file, &Options::default());
        // CUDA's limit: 32,764 bytes of parameters, at least 4 bytes each.
        let (listing, _) = warpscope::sass::parse(file.text());
        for f in listing
            .functions
            .iter()
            .filter(|f| !f.instructions.is_empty())
        {
            let ir = warpscope::lower::sass::lower(f);
            assert!(
                ir.params.len() <= 32_764 / 4,
                "{}: {} params",
                path.display(),
                ir.params.len()
            );
        }
    }
}
