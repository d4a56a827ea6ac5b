//! Binaries as input (tests/binary/, built by scripts/sass-fixtures.sh with
//! nvcc 13.5 from examples/kernels/indirect/indirect.cu for sm_80 and sm_90
//! with compute_90 PTX): the fatbin container in every compression mode, a
//! cubin, a shared library, the architecture selection, damaged input, and
//! the command line with and without `nvdisasm` on `PATH`.

use std::path::{Path, PathBuf};
use std::process::Command;
use warpscope::binary::{read_binary, BinaryKind};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/binary")
            .join(name),
    )
    .unwrap()
}

const FATBINS: &[(&str, &str, &str)] = &[
    // file, how the PTX entry is stored, how the cubins are stored
    ("indirect.fatbin", "zstd", "none"),
    ("indirect.lz4.fatbin", "lz4", "none"),
    ("indirect.zstd.fatbin", "zstd", "zstd"),
    ("indirect.none.fatbin", "none", "none"),
];

#[test]
fn every_compression_mode_gives_the_same_code() {
    let mut ptx_texts = Vec::new();
    let mut sm90 = Vec::new();
    for (name, _, _) in FATBINS {
        let c = read_binary(&fixture(name));
        assert_eq!(c.kind, BinaryKind::Fatbin, "{name}");
        assert!(c.problems.is_empty(), "{name}: {:?}", c.problems);
        assert_eq!(c.archs(), vec![80, 90], "{name}");
        assert_eq!(c.ptx.len(), 1, "{name}");
        assert_eq!(c.cubins.len(), 2, "{name}");
        assert_eq!(c.ptx[0].arch, 90);
        ptx_texts.push(c.ptx[0].text.clone());
        sm90.push(
            c.cubins
                .iter()
                .find(|x| x.arch == 90)
                .unwrap()
                .bytes
                .clone(),
        );
    }
    assert!(ptx_texts.windows(2).all(|w| w[0] == w[1]));
    assert!(sm90.windows(2).all(|w| w[0] == w[1]));
    let text = String::from_utf8(ptx_texts[0].clone()).unwrap();
    assert!(text.contains(".target sm_90"));
    assert!(text.contains(".entry _Z8indirectIfEvPT_PKim"));
    // The cubin inside is a cubin for sm_90.
    assert_eq!(warpscope::binary::cubin_arch(&sm90[0]), Some(90));
}

#[test]
fn compression_is_what_nvcc_was_asked_for() {
    // The flags nvcc wrote (0x2000 LZ4, 0x8000 zstd) are what the entries
    // report; checked through the fatbin module's own entry list.
    for (name, ptx, elf) in FATBINS {
        let (entries, errors) = warpscope::binary::fatbin::read_containers(&fixture(name), 0);
        assert!(errors.is_empty());
        for e in entries {
            let want = match e.kind {
                warpscope::binary::fatbin::EntryKind::Ptx => ptx,
                warpscope::binary::fatbin::EntryKind::Elf => elf,
            };
            assert_eq!(e.compression, *want, "{name} {:?} sm_{}", e.kind, e.arch);
        }
    }
}

#[test]
fn embedded_ptx_is_analysed_like_a_file() {
    let c = read_binary(&fixture("indirect.fatbin"));
    let file = warpscope::SourceFile::new("indirect#1.sm_90.ptx", c.ptx[0].text.clone()).unwrap();
    let a = warpscope::analyze(&file, &warpscope::Options::default());
    assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics);
    assert_eq!(a.kernels.len(), 2);
    // Per kernel: the index load, the data load and the data store.
    assert!(a.kernels.iter().all(|k| k.accesses.len() == 3));
}

#[test]
fn shared_library_and_cubin() {
    let so = read_binary(&fixture("libindirect.so"));
    assert_eq!(so.kind, BinaryKind::HostElf);
    assert!(so.problems.is_empty(), "{:?}", so.problems);
    assert_eq!(so.archs(), vec![80, 90]);
    let fat = read_binary(&fixture("indirect.fatbin"));
    assert_eq!(
        so.ptx[0].text, fat.ptx[0].text,
        "the .so embeds the same PTX"
    );
    let cubin = read_binary(&fixture("indirect.sm_90.cubin"));
    assert_eq!(cubin.kind, BinaryKind::Cubin);
    assert_eq!(cubin.archs(), vec![90]);
    assert!(cubin.ptx.is_empty());
}

#[test]
fn architecture_selection() {
    let c = read_binary(&fixture("indirect.fatbin"));
    let newest = c.select(None);
    assert_eq!(newest.arch, Some(90));
    assert_eq!(newest.cubins.len(), 1);
    assert_eq!(newest.ptx.len(), 1);
    // sm_80: its cubin; the compute_90 PTX cannot run there.
    let s80 = c.select(Some(80));
    assert_eq!(
        s80.cubins.iter().map(|x| x.arch).collect::<Vec<_>>(),
        vec![80]
    );
    assert!(s80.ptx.is_empty());
    // sm_100: no cubin; the PTX is compiled for it just in time.
    let s100 = c.select(Some(100));
    assert!(s100.cubins.is_empty());
    assert_eq!(s100.ptx.len(), 1);
}

#[test]
fn damaged_binaries_are_reported_not_fatal() {
    let full = fixture("indirect.fatbin");
    // Every truncation: no panic, and a problem once the end is cut.
    for n in (0..full.len()).step_by(7) {
        let c = read_binary(&full[..n]);
        if n >= 16 {
            assert!(!c.problems.is_empty(), "cut at {n} went unnoticed");
        }
    }
    // Byte flips everywhere (deterministic): never a panic.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..3000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut b = full.clone();
        let i = (seed % b.len() as u64) as usize;
        b[i] ^= (seed >> 32) as u8 | 1;
        let _ = read_binary(&b);
    }
    // A hostile uncompressed size is refused, not allocated.
    let mut b = fixture("indirect.zstd.fatbin");
    b[16 + 56..16 + 64].copy_from_slice(&u64::MAX.to_le_bytes());
    let c = read_binary(&b);
    assert!(
        c.problems.iter().any(|p| p.contains("declares")),
        "{:?}",
        c.problems
    );
    // Not a binary at all.
    assert!(!read_binary(b"\x7fELF").problems.is_empty());
}

// ------------------------------------------------------------ command line

fn cuda_bin() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(".cuda/cu13/nvidia/cu13/bin");
    if p.join("nvdisasm").is_file() {
        return Some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find(|d| d.join("nvdisasm").is_file())
}

fn warpscope(args: &[&str], path: &str) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", path)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_a_shared_library_without_nvidia_tools() {
    let (code, out, err) = warpscope(
        &[
            "check",
            "--format",
            "concise",
            "tests/binary/libindirect.so",
        ],
        "/nonexistent",
    );
    assert!(code == 0 || code == 1, "{err}");
    assert!(
        err.contains("nvdisasm"),
        "says why the SASS is not analysed: {err}"
    );
    assert!(out.contains("libindirect.so#1.sm_90.ptx"), "{out}");
}

#[test]
fn parse_binaries_with_nvdisasm() {
    let Some(bin) = cuda_bin() else {
        assert!(
            std::env::var_os("WARPSCOPE_REQUIRE_CUDA_TOOLS").is_none(),
            "nvdisasm required (scripts/build-corpus.sh --tools-only)"
        );
        eprintln!("skipped: no nvdisasm (scripts/build-corpus.sh --tools-only installs it)");
        return;
    };
    let path = bin.display().to_string();
    for f in [
        "libindirect.so",
        "indirect.fatbin",
        "indirect.sm_90.cubin",
        "indirect.lz4.fatbin",
    ] {
        let (code, out, err) = warpscope(
            &["parse", "--stats", "--json", &format!("tests/binary/{f}")],
            &path,
        );
        assert_eq!(code, 0, "{f}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let files = if f.ends_with(".cubin") { 1 } else { 2 }; // PTX + SASS
        assert_eq!(v["files"], files, "{f}: {out}");
        assert_eq!(v["diagnostics"], 0, "{f}: {out}");
        assert_eq!(v["kernels"], 2 * files, "{f}: {out}");
    }
    // --arch sm_80: the sm_80 SASS only (no PTX at or below sm_80).
    let (code, out, err) = warpscope(
        &[
            "parse",
            "--stats",
            "--json",
            "--arch",
            "sm_80",
            "tests/binary/indirect.fatbin",
        ],
        &path,
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["files"], 1);
    assert_eq!(v["kernels"], 2);
}
