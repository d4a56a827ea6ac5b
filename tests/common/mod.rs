//! Helpers shared by the integration tests (`mod common;` in each).

#![allow(dead_code)] // each test binary uses its own subset

use serde_json::Value as J;
use std::path::{Path, PathBuf};
use warpscope::analysis::{LaunchConfig, Options, ParamKey, ParamValue};
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

/// The text of a measurement or probe file: `path` itself, or, where only
/// `path.gz` is committed (the `measured*.json` files and the large
/// generated probe modules of `tests/hw/ifconv` are stored gzipped to keep
/// the checkout small), its decompressed contents.
pub fn read_measurement(path: &str) -> String {
    use std::io::Read as _;
    if let Ok(t) = std::fs::read_to_string(path) {
        return t;
    }
    let gz = format!("{path}.gz");
    let f = std::fs::File::open(&gz).unwrap_or_else(|e| panic!("{path} (or {gz}): {e}"));
    let mut text = String::new();
    flate2::read::GzDecoder::new(f)
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("{gz}: {e}"));
    text
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

/// The analysis options of one launch of a `launches.json` (schema:
/// `tests/hw/README.md`): block, grid, and the parameters by index — a
/// pointer as a distinct base per buffer (`(k + 1) << 32` plus the offset, 0
/// mod 4096 as in the measured runs), a by-value struct's pointer and scalar
/// fields as `INDEX+BYTE`, a float by its value (launches.json gives its bits), a
/// tensor map not at all. Shared by `tests/hw_agreement.rs` and
/// `tests/sass_hw_blind.rs`.
pub fn launch_options(launch: &J, buffers: &[String]) -> Options {
    let dim = |k: &str| -> [u32; 3] {
        let v = launch[k].as_array().expect("dim");
        [0, 1, 2].map(|i| v[i].as_u64().expect("dim") as u32)
    };
    let mut params = Vec::new();
    for p in launch["params"].as_array().expect("params") {
        let idx = p["index"].as_u64().expect("index") as usize;
        // distinct bases, 0 mod 4096 as in the measured run
        let pointer = |p: &J| -> ParamValue {
            let b = p["buffer"].as_str().expect("buffer");
            let k = buffers.iter().position(|x| x == b).expect("known buffer") as i64;
            (((k + 1) << 32) + p["offset_bytes"].as_i64().expect("offset")).into()
        };
        if p["kind"] == "struct" {
            // a struct passed by value (`tests/hw/blind4`'s
            // `TensorListMetadata`, blind9's `CachePtrs`): its pointer
            // fields, by byte offset (`INDEX+OFFSET`); its scalar fields where `fields` lists them
            for f in p["pointers"].as_array().into_iter().flatten() {
                let byte = f["byte"].as_u64().expect("byte");
                params.push((ParamKey::Name(format!("{idx}+{byte}")), pointer(f)));
            }
            // its 32-bit scalar fields where the batch lists them
            // (`tests/hw/blind14`'s OffsetCalculator and cat metadata), by
            // value as the host wrote them
            for f in p["fields"].as_array().into_iter().flatten() {
                let byte = f["byte"].as_u64().expect("byte");
                let v = f["value"].as_i64().expect("value");
                params.push((ParamKey::Name(format!("{idx}+{byte}")), v.into()));
            }
            continue;
        }
        if p["kind"] == "tensormap" {
            // a CUtensorMap: no scalar value to give
            continue;
        }
        // `WS_NO_POINTERS=1`: pointer parameters not given, as a user of
        // `report --grid --block --param` runs it (the simulation then uses
        // its synthetic bases); the rows that differ are those whose
        // measured buffers start off the 256-byte grid (BENCHMARKS/README:
        // stop 43)
        if p["kind"] == "pointer" && std::env::var_os("WS_NO_POINTERS").is_some() {
            continue;
        }
        let v: ParamValue = if p["kind"] == "pointer" {
            pointer(p)
        } else {
            // launches.json gives a float parameter's bit pattern (what the
            // host passed); the library takes its value
            let bits = p["value"]
                .as_i64()
                .or_else(|| p["value"].as_u64().map(|u| u as i64))
                .expect("value");
            match p["type"].as_str() {
                Some("f32") => ParamValue::Float(f32::from_bits(bits as u32) as f64),
                Some("f64") => ParamValue::Float(f64::from_bits(bits as u64)),
                _ => bits.into(),
            }
        };
        params.push((ParamKey::Index(idx), v));
    }
    Options {
        launch: LaunchConfig {
            block: Some(dim("block")),
            grid: Some(dim("grid")),
            params,
        },
        kernel_filter: Some(launch["kernel"].as_str().expect("kernel").to_string()),
        ..Options::default()
    }
}
