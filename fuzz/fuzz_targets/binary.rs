//! The binary reader (ELF, fatbin, archives) and `.nv.info` attributes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let contents = warpscope::binary::read_binary(data);
    for c in &contents.cubins {
        let _ = warpscope::binary::nv_info(&c.bytes);
    }
    let _ = warpscope::binary::nv_info(data);
});
