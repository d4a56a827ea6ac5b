//! The PTX parser and semantic checks on arbitrary text.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (module, _) = warpscope::syntax::parse(&text);
    let _ = warpscope::sema::check_module(&module);
});
