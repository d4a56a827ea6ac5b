//! The SASS listing parser, then the SASS lowering and analysis.
#![no_main]
use libfuzzer_sys::fuzz_target;
use warpscope::{Options, SourceFile};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let _ = warpscope::sass::parse(&text);
    let file = SourceFile::from_text("fuzz.sass", text);
    let _ = warpscope::sass::analyze(&file, &Options::default());
});
