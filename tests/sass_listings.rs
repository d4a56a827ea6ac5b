//! The SASS front end over real listings (tests/sass/, made by
//! scripts/sass-fixtures.sh with ptxas, nvdisasm and cuobjdump 13.5 from
//! NVIDIA's wheels): every listing parses without a diagnostic, the two
//! tools' listings of one cubin give the same instructions, and the
//! parameter layout read from a listing's `.nv.info` matches the cubin's.

use std::path::{Path, PathBuf};
use warpscope::sass::ast::{Flavor, Listing, OperandKind, RegFile};
use warpscope::source::SourceFile;

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sass");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "sass"))
        .collect();
    v.sort();
    v
}

fn load(name: &str) -> SourceFile {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sass")
        .join(name);
    SourceFile::new(name, std::fs::read(&p).unwrap()).unwrap()
}

#[test]
fn every_listing_parses_without_diagnostics() {
    let files = fixtures();
    assert!(files.len() >= 25, "fixtures missing: {}", files.len());
    for p in files {
        let f = SourceFile::new(p.display().to_string(), std::fs::read(&p).unwrap()).unwrap();
        assert!(warpscope::sass::is_sass_file(&f));
        assert!(
            warpscope::sass::looks_like_sass(f.text()),
            "{}: not recognised by content",
            p.display()
        );
        let (l, d) = warpscope::sass::parse_file(&f);
        assert!(
            d.is_empty(),
            "{}:\n{}",
            p.display(),
            warpscope::diagnostic::render_plain(f.name(), f.text(), &d)
        );
        assert!(!l.functions.is_empty(), "{}: no function", p.display());
        for func in &l.functions {
            assert!(
                func.arch.is_some(),
                "{}: {} without arch",
                p.display(),
                func.name.text
            );
            assert!(
                !func.instructions.is_empty(),
                "{}: {} empty",
                p.display(),
                func.name.text
            );
            // Volta and later: one instruction every 16 bytes, from 0.
            for (i, ins) in func.instructions.iter().enumerate() {
                assert_eq!(
                    ins.offset,
                    16 * i as u32,
                    "{}: {}",
                    p.display(),
                    func.name.text
                );
                assert!(!ins.opcode().is_empty());
                assert_eq!(
                    &f.text()[ins.span.range()]
                        .split(';')
                        .next()
                        .unwrap()
                        .trim_end(),
                    &f.text()[ins.span.range()].trim_end_matches(';').trim_end(),
                    "the span covers the instruction up to its `;`"
                );
            }
            // Every label reference names a label of the function.
            for ins in &func.instructions {
                for op in &ins.operands {
                    if let OperandKind::Label(t) = &op.kind {
                        let local = func.label_target(t.text).is_some();
                        let other = l.functions.iter().any(|g| g.name.text == t.text);
                        assert!(local || other, "{}: `{}` unresolved", p.display(), t.text);
                    }
                }
            }
        }
    }
}

/// The same cubin through nvdisasm and cuobjdump: same functions, and at
/// every offset the same instruction text (mnemonic and operands).
#[test]
fn nvdisasm_and_cuobjdump_agree_instruction_by_instruction() {
    for arch in [75, 80, 86, 89, 90, 100, 120] {
        let a = load(&format!("indirect.sm_{arch}.nvdisasm.sass"));
        let b = load(&format!("indirect.sm_{arch}.cuobjdump.sass"));
        let (la, da) = warpscope::sass::parse_file(&a);
        let (lb, db) = warpscope::sass::parse_file(&b);
        assert!(da.is_empty() && db.is_empty());
        assert_eq!(la.flavor, Flavor::Nvdisasm);
        assert_eq!(lb.flavor, Flavor::Cuobjdump);
        assert_eq!(la.functions.len(), 2);
        assert_eq!(lb.functions.len(), 2);
        for fa in &la.functions {
            let fb = lb
                .functions
                .iter()
                .find(|f| f.name.text == fa.name.text)
                .unwrap();
            assert_eq!(fa.sm(), Some(arch));
            assert_eq!(fb.sm(), Some(arch));
            assert!(fa.entry && fb.entry);
            assert_eq!(
                fa.instructions.len(),
                fb.instructions.len(),
                "sm_{arch} {}",
                fa.name.text
            );
            for (x, y) in fa.instructions.iter().zip(&fb.instructions) {
                assert_eq!(x.offset, y.offset);
                assert_eq!(
                    x.mnemonic.text, y.mnemonic.text,
                    "sm_{arch} at {:#x}",
                    x.offset
                );
                assert_eq!(
                    x.operands.len(),
                    y.operands.len(),
                    "sm_{arch} at {:#x}",
                    x.offset
                );
                assert_eq!(
                    x.guard.map(|g| (g.negated, g.reg.name.text)),
                    y.guard.map(|g| (g.negated, g.reg.name.text))
                );
                // nvdisasm prints labels where cuobjdump prints addresses:
                // compare everything else.
                for (p, q) in x.operands.iter().zip(&y.operands) {
                    if !matches!(p.kind, OperandKind::Label(_)) {
                        assert_eq!(&a.text()[p.span.range()], &b.text()[q.span.range()]);
                    }
                }
                // cuobjdump prints both encoding words; nvdisasm -g -c none.
                assert_eq!(y.encoding.len(), 2, "sm_{arch} at {:#x}", y.offset);
                assert!(x.encoding.is_empty());
            }
            // nvdisasm's line information: the kernel's first instruction
            // comes from the .cu file the PTX's .loc names.
            let li = fa.instructions[0].line.as_ref().expect("-g line info");
            assert!(li.file.text.ends_with("indirect.cu"), "{}", li.file.text);
            assert!(
                fb.instructions.iter().all(|i| i.line.is_none()),
                "cuobjdump prints none"
            );
        }
    }
}

/// Scheduling bits: a variable-latency producer sets a write scoreboard and
/// its first consumer waits on it (S2R at 0x10 writes R0; the IMAD at 0x50
/// reads it). Both words come from the cuobjdump listing.
#[test]
fn control_bits_link_producer_and_consumer() {
    let f = load("indirect.sm_90.cuobjdump.sass");
    let (l, _) = warpscope::sass::parse_file(&f);
    let k = &l.functions[0];
    let s2r = &k.instructions[k.at_offset(0x10).unwrap()];
    let imad = &k.instructions[k.at_offset(0x50).unwrap()];
    assert_eq!(s2r.opcode(), "S2R");
    assert_eq!(imad.opcode(), "IMAD");
    let sb = s2r
        .control()
        .unwrap()
        .write_barrier
        .expect("S2R sets a scoreboard");
    assert_ne!(imad.control().unwrap().wait_mask & (1 << sb), 0);
    // A fixed-latency ALU op sets none.
    assert_eq!(imad.control().unwrap().write_barrier, None);
}

/// `.nv.info` read from the full nvdisasm listing equals the attributes read
/// from the cubin's ELF sections (the same cubin: tests/binary/).
#[test]
fn parameter_layout_from_listing_matches_the_cubin() {
    let f = load("indirect.sm_90.nvdisasm-full.sass");
    let (l, d) = warpscope::sass::parse_file(&f);
    assert!(d.is_empty());
    let cubin = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/binary/indirect.sm_90.cubin"),
    )
    .unwrap();
    let from_elf = warpscope::binary::nv_info(&cubin);
    assert_eq!(from_elf.len(), 2);
    for func in &l.functions {
        let e = &from_elf[func.name.text];
        assert_eq!(&func.nv_info, e, "{}", func.name.text);
        // indirect(T*, const int*, size_t): three 8-byte parameters from
        // c[0x0][0x210], as nvdisasm prints EIATTR_PARAM_CBANK/KPARAM_INFO.
        assert_eq!(e.param_base, Some(0x210));
        assert_eq!(e.param_size, Some(0x18));
        assert_eq!(e.params, vec![(0, 0, 8), (1, 8, 8), (2, 16, 8)]);
    }
}

fn summary(l: &Listing<'_>, text: &str) -> String {
    let mut s = String::new();
    for f in &l.functions {
        s += &format!(
            "function {} entry={} arch={:?} labels={:?}\n",
            f.name.text,
            f.entry,
            f.arch.map(|a| a.text),
            f.labels
                .iter()
                .map(|(t, i)| format!("{}@{i}", t.text))
                .collect::<Vec<_>>()
        );
        for i in &f.instructions {
            let ops: Vec<String> = i
                .operands
                .iter()
                .map(|o| {
                    let k = match &o.kind {
                        OperandKind::Reg(r) => format!("{:?}", r.file),
                        OperandKind::Int(v) => format!("int {v}"),
                        OperandKind::Float(_) => "float".into(),
                        OperandKind::ConstBank { .. } => "cbank".into(),
                        OperandKind::Memory { desc, addr } => format!(
                            "mem{} off={}",
                            if desc.is_some() { "+desc" } else { "" },
                            addr.offset()
                        ),
                        OperandKind::Descriptor { kind, .. } => kind.text.to_string(),
                        OperandKind::Label(t) => format!("label {}", t.text),
                        OperandKind::Relocation { .. } => "reloc".into(),
                        OperandKind::List(v) => format!("list {}", v.len()),
                        OperandKind::Name(_) => "name".into(),
                    };
                    format!("{}:{k}", &text[o.span.range()])
                })
                .collect();
            s += &format!(
                "  {:04x} {}{} [{}] line={:?}\n",
                i.offset,
                i.guard
                    .map(|g| format!("@{}{} ", if g.negated { "!" } else { "" }, g.reg.name.text))
                    .unwrap_or_default(),
                i.mnemonic.text,
                ops.join(", "),
                i.line.as_ref().map(|li| li.line)
            );
        }
    }
    s
}

#[test]
fn indirect_sm90_tree() {
    let f = load("indirect.sm_90.nvdisasm.sass");
    let (l, _) = warpscope::sass::parse_file(&f);
    insta::assert_snapshot!(summary(&l, f.text()));
}

#[test]
fn newer_memory_paths_tree() {
    // TMA, bulk copies, mbarriers (sm_90a) and tcgen05 (sm_100a).
    for name in [
        "tma_mbarrier.sm_90a.nvdisasm.sass",
        "tcgen05_sm100.sm_100a.nvdisasm.sass",
    ] {
        let f = load(name);
        let (l, d) = warpscope::sass::parse_file(&f);
        assert!(d.is_empty());
        insta::assert_snapshot!(name, summary(&l, f.text()));
    }
}

#[test]
fn registers_of_every_file_are_recognised() {
    let f = load("tma_mbarrier.sm_90a.nvdisasm.sass");
    let (l, _) = warpscope::sass::parse_file(&f);
    let mut files = std::collections::BTreeSet::new();
    for func in &l.functions {
        for i in &func.instructions {
            for o in &i.operands {
                if let Some(r) = o.reg() {
                    files.insert(format!("{:?}", r.file));
                }
            }
        }
    }
    for want in [
        RegFile::R,
        RegFile::Ur,
        RegFile::P,
        RegFile::Up,
        RegFile::Sr,
    ] {
        assert!(
            files.contains(&format!("{want:?}")),
            "{want:?} missing: {files:?}"
        );
    }
}

fn launch(block: u32, grid: u32, params: &[(usize, i64)]) -> warpscope::Options {
    warpscope::Options {
        launch: warpscope::LaunchConfig {
            block: Some([block, 1, 1]),
            grid: Some([grid, 1, 1]),
            params: params
                .iter()
                .map(|&(k, v)| (warpscope::ParamKey::Index(k), v.into()))
                .collect(),
        },
        ..warpscope::Options::default()
    }
}

/// The seeds' `indirect` launch (n = 10,000, block 128, grid 79) from the
/// SASS and from the PTX it was compiled from: the same accesses, the same
/// figures, the same totals; the SASS report shows offsets.
#[test]
fn sass_and_ptx_of_indirect_agree() {
    let opts = launch(128, 79, &[(2, 10_000)]);
    let sass = load("indirect.sm_90.nvdisasm.sass");
    let ptx_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kernels/indirect/indirect.ptx");
    let ptx = SourceFile::new("indirect.ptx", std::fs::read(ptx_path).unwrap()).unwrap();
    let a = warpscope::analyze(&sass, &opts);
    let b = warpscope::analyze(&ptx, &opts);
    assert!(a.diagnostics.is_empty() && b.diagnostics.is_empty());
    assert_eq!(a.kernels.len(), 2);
    for k in &a.kernels {
        let p = b.kernels.iter().find(|x| x.name == k.name).unwrap();
        assert_eq!(k.totals, p.totals, "{}", k.name);
        assert_eq!(k.accesses.len(), p.accesses.len());
        for (x, y) in k.accesses.iter().zip(&p.accesses) {
            assert_eq!(
                (x.op, x.space, x.bits, x.pattern),
                (y.op, y.space, y.bits, y.pattern)
            );
            assert_eq!(x.per_request, y.per_request);
            assert_eq!(x.requests, y.requests);
            assert_eq!(
                x.source.as_ref().map(|s| s.line),
                y.source.as_ref().map(|s| s.line)
            );
            assert!(x.sass_offset.is_some() && y.sass_offset.is_none());
        }
    }
    let report = warpscope::Report::from_analysis(&sass, &a);
    insta::assert_snapshot!("indirect_sass_report", warpscope::render_text(&report));
    let json = warpscope::render_json(&report);
    assert!(
        json.contains("\"sass_offset\": 304"),
        "offset 0x130 of the index load"
    );
}

/// Every prefix and thousands of byte mutations of real listings: the
/// parser, the lowering and the analysis never panic and always end.
#[test]
fn damaged_listings_never_panic() {
    let f = load("indirect.sm_90.cuobjdump.sass");
    let text = f.text();
    for n in (0..text.len()).step_by(97) {
        let cut = &text[..n];
        let _ = warpscope::sass::parse(cut);
        let file = SourceFile::from_text("cut.sass", cut.to_string());
        let _ = warpscope::analyze(&file, &warpscope::Options::default());
    }
    let bytes = load("tma_mbarrier.sm_90a.nvdisasm.sass")
        .text()
        .as_bytes()
        .to_vec();
    let alphabet = b"[]{}()`@!|-+.,;:/*0x1fRUPZ \n\t\"";
    // `(*)` and `/*/` once broke the parser (a close found before its open).
    for bad in [
        "/*/260*/ EXIT ;",
        "/*0000*/ EXIT (*) ;",
        "/*0000*/ EXIT (*;",
    ] {
        let _ = warpscope::sass::parse(bad);
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..600 {
        let mut b = bytes.clone();
        for _ in 0..4 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let i = (seed % b.len() as u64) as usize;
            b[i] = alphabet[(seed >> 40) as usize % alphabet.len()];
        }
        let file = SourceFile::new("m.sass", b).unwrap();
        let _ = warpscope::analyze(&file, &warpscope::Options::default());
    }
}
