//! A whole module through the pipeline: parse, sema, lowering (calls
//! inlined), CFG, SSA and the warp analysis of every kernel.
#![no_main]
use libfuzzer_sys::fuzz_target;
use warpscope::{LaunchConfig, Options, SourceFile};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let file = SourceFile::from_text("fuzz.ptx", text);
    let opts = Options {
        launch: LaunchConfig {
            block: Some([64, 2, 1]),
            grid: Some([2, 1, 1]),
            params: vec![],
        },
        ..Options::default()
    };
    let _ = warpscope::analyze(&file, &opts);
});
