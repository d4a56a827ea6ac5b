//! Fixture tests of the warp address analysis: every `tests/fixtures/analysis/*.ptx`
//! is analysed with the launch facts on its first line (`// warpscope: --block X,Y,Z
//! --grid X --param I=V --pointer-align N`) and the result is rendered as text
//! and kept as an insta snapshot (`tests/snapshots/analysis_fixtures__<name>.snap`).

use std::fmt::Write as _;
use warpscope::analysis::{Analysis, Options, ParamKey};
use warpscope::analyze;
use warpscope::source::SourceFile;

fn dim3(s: &str) -> [u32; 3] {
    let v: Vec<u32> = s
        .split(',')
        .map(|x| x.trim().parse().expect("dimension"))
        .collect();
    [
        v[0],
        v.get(1).copied().unwrap_or(1),
        v.get(2).copied().unwrap_or(1),
    ]
}

/// Options from the `// warpscope:` header line.
pub fn header_options(text: &str) -> Options {
    let mut o = Options::default();
    let Some(line) = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// warpscope:"))
    else {
        return o;
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 0;
    while i < words.len() {
        let arg = words.get(i + 1).copied().unwrap_or("");
        match words[i] {
            "--block" => o.launch.block = Some(dim3(arg)),
            "--grid" => o.launch.grid = Some(dim3(arg)),
            "--pointer-align" => o.pointer_align = arg.parse().expect("alignment"),
            "--kernel" => o.kernel_filter = Some(arg.to_string()),
            "--param" => {
                let (k, v) = arg.split_once('=').expect("I=V");
                let key = k
                    .parse()
                    .map(ParamKey::Index)
                    .unwrap_or_else(|_| ParamKey::Name(k.to_string()));
                o.launch
                    .params
                    .push((key, warpscope::ParamValue::Int(v.parse().expect("value"))));
            }
            w => panic!("unknown header word {w}"),
        }
        i += 2;
    }
    o
}

fn num(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// Renders an analysis as stable text.
pub fn render(a: &Analysis) -> String {
    let mut out = String::new();
    for k in &a.kernels {
        writeln!(out, "kernel {}", k.name).unwrap();
        if k.demangled != k.name {
            writeln!(out, "  demangled: {}", k.demangled).unwrap();
        }
        writeln!(
            out,
            "  block {}x{}x{}{}, grid {}",
            k.block[0],
            k.block[1],
            k.block[2],
            if k.block_assumed { " (assumed)" } else { "" },
            k.grid
                .map(|g| format!("{}x{}x{}", g[0], g[1], g[2]))
                .unwrap_or_else(|| "-".into())
        )
        .unwrap();
        for c in &k.caveats {
            writeln!(out, "  caveat: {c}").unwrap();
        }
        match (&k.totals, &k.totals_unavailable) {
            (Some(t), _) => writeln!(
                out,
                "  totals: ld {} req / {} sectors, st {} / {}, atom {} / {}, sectors {}..{}, bytes requested {}, moved {}, blocks {}/{}",
                t.load_requests,
                t.load_sectors,
                t.store_requests,
                t.store_sectors,
                t.atomic_requests,
                t.atomic_sectors,
                t.sectors_min,
                t.sectors_max,
                t.bytes_requested,
                t.bytes_moved,
                t.blocks_simulated,
                t.blocks_total
            )
            .and_then(|_| {
                if t.async_copy_requests + t.bulk_copies > 0 {
                    writeln!(
                        out,
                        "  totals: cp.async {} req / {} sectors, bulk copies {} / {} bytes{}",
                        t.async_copy_requests,
                        t.async_copy_sectors,
                        t.bulk_copies,
                        t.bulk_bytes.map(|b| b.to_string()).unwrap_or_else(|| "?".into()),
                        t.bulk_load_sectors
                            .map(|s| format!(", copy-engine load sectors {s}"))
                            .unwrap_or_default()
                    )
                } else {
                    Ok(())
                }
            })
            .unwrap(),
            (None, Some(why)) => writeln!(out, "  totals unavailable: {why}").unwrap(),
            (None, None) => writeln!(out, "  totals: -").unwrap(),
        }
        for x in &k.accesses {
            let src = x
                .source
                .as_ref()
                .map(|s| format!(" (src {}:{}:{})", s.file, s.line, s.column))
                .unwrap_or_default();
            writeln!(
                out,
                "  {}:{} {} {:?} {:?} {}b{}",
                x.ptx.line, x.ptx.column, x.instruction, x.op, x.space, x.bits, src
            )
            .unwrap();
            let p = &x.per_request;
            writeln!(
                out,
                "    {:?}{} | lanes {} | lines {} sectors {} ideal {} [{}..{}]{}{}",
                x.pattern,
                x.stride_bytes
                    .map(|s| format!(" stride {s}"))
                    .unwrap_or_default(),
                p.active_lanes.map(num).unwrap_or_else(|| "-".into()),
                num(p.l1_lines),
                num(p.sectors),
                num(p.ideal_sectors),
                num(p.sectors_min),
                num(p.sectors_max),
                x.requests
                    .map(|r| format!(" | requests {r}"))
                    .unwrap_or_default(),
                x.shared_wavefronts
                    .map(|w| format!(" | wavefronts {}", num(w)))
                    .unwrap_or_default(),
            )
            .unwrap();
            writeln!(out, "    address: {}", x.lane_pattern).unwrap();
            if !x.kind.is_plain() {
                writeln!(out, "    kind: {}", x.kind.as_str()).unwrap();
            }
            if let Some(n) = x.predicated_off_requests {
                writeln!(out, "    predicated off: {n} requests").unwrap();
            }
            if let Some(s) = &x.shared_side {
                writeln!(
                    out,
                    "    shared side: {}{} | wavefronts {} | address: {}",
                    s.pattern.map(|p| p.as_str()).unwrap_or("-"),
                    s.stride_bytes
                        .map(|b| format!(" stride {b}"))
                        .unwrap_or_default(),
                    s.wavefronts.map(num).unwrap_or_else(|| "-".into()),
                    s.lane_pattern
                )
                .unwrap();
            }
            if let Some(m) = &x.matrix {
                writeln!(
                    out,
                    "    matrix: {} x{} ({} rows of {} bytes each){}",
                    m.shape,
                    m.matrices,
                    m.rows_per_matrix,
                    m.row_bytes,
                    if m.trans { " trans" } else { "" }
                )
                .unwrap();
            }
            if let Some(b) = &x.bulk {
                writeln!(out, "    bulk: {b:?}").unwrap();
            }
            for d in &x.descriptors {
                writeln!(out, "    descriptor: {d:?}").unwrap();
            }
            for c in &x.caveats {
                writeln!(out, "    caveat: {c}").unwrap();
            }
        }
    }
    for d in &a.diagnostics {
        writeln!(out, "diagnostic {} {}: {}", d.code, d.name, d.message).unwrap();
    }
    out
}

#[test]
fn fixtures() {
    let mut names: Vec<_> = std::fs::read_dir("tests/fixtures/analysis")
        .expect("fixture folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    for path in names {
        let text = std::fs::read_to_string(&path).expect("fixture");
        let opts = header_options(&text);
        let file = SourceFile::from_text(path.display().to_string(), text);
        let a = analyze(&file, &opts);
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("name")
            .to_string();
        insta::assert_snapshot!(name, render(&a));
    }
}

#[test]
fn explain_register_for_hovers() {
    use warpscope::pipeline::explain_register;
    use warpscope::syntax::ast::{FunctionId, StmtId, StmtKind};
    let text = std::fs::read_to_string("tests/fixtures/analysis/patterns.ptx").expect("fixture");
    let file = SourceFile::from_text("patterns.ptx", text);
    let (m, _) = warpscope::syntax::parse_file(&file);
    let opts = header_options(file.text());
    let body = m.functions[0].body.as_ref().expect("body");
    // the statement `ld.global.f32 %f1, [%rd5];`
    let (at, _) = body
        .iter()
        .find(|(_, s)| matches!(&s.kind, StmtKind::Instruction(i) if i.mnemonic == "ld.global.f32"))
        .expect("load");
    let f = explain_register(&m, FunctionId(0), at, "%rd5", &opts).expect("facts");
    assert_eq!(f.kind, "exact per lane");
    assert_eq!(
        f.value,
        "4*lane + patterns_param_0 + 1024*ctaid.x + 4*tid0.x"
    );
    assert_eq!(f.active, u32::MAX);
    let n = explain_register(&m, FunctionId(0), at, "%r1", &opts).expect("facts");
    assert_eq!((n.kind, n.value.as_str()), ("uniform", "patterns_param_2"));
    let lane = explain_register(
        &m,
        FunctionId(0),
        StmtId(body.statements.len() as u32 - 2),
        "%r18",
        &opts,
    )
    .expect("facts");
    assert_eq!(lane.kind, "exact per lane");
    assert_eq!(lane.lanes.as_deref().map(|l| l[31]), Some(31));
    assert!(explain_register(&m, FunctionId(0), at, "%nope", &opts).is_none());
}

/// The JSON contract: the serde shape of `KernelAnalysis` (what `check
/// --format json` prints inside `{"version":1,"files":[{"path","kernels"}]}`).
#[test]
fn json_contract() {
    let text = std::fs::read_to_string("tests/fixtures/analysis/predicates.ptx").expect("fixture");
    let opts = header_options(&text);
    let file = SourceFile::from_text("predicates.ptx", text);
    let a = analyze(&file, &opts);
    let json = serde_json::to_string_pretty(&a.kernels).expect("serialises");
    insta::assert_snapshot!("json_contract", json);
}

/// `tests/fixtures/analysis/nested_scope_regs.ptx`: three registers named
/// `q` (one outer, two in sibling `{ }` blocks) are three registers. The
/// figures are derived by hand in the fixture's comment: were the names one
/// register, the store would run under the last block's `q` (odd lanes: 4
/// sectors per request) instead of the outer one (lanes 0-15: 2 sectors).
#[test]
fn nested_block_registers_are_distinct() {
    let path = "tests/fixtures/analysis/nested_scope_regs.ptx";
    let text = std::fs::read_to_string(path).expect("fixture");
    let opts = header_options(&text);
    let file = SourceFile::from_text(path, text);
    let a = analyze(&file, &opts);
    let k = &a.kernels[0];
    let figures: Vec<(String, Option<u64>, Option<f64>, f64)> = k
        .accesses
        .iter()
        .map(|x| {
            (
                x.instruction.clone(),
                x.requests,
                x.per_request.active_lanes,
                x.per_request.sectors,
            )
        })
        .collect();
    assert_eq!(
        figures,
        vec![
            ("ld.global.f32".to_string(), Some(2), Some(16.0), 2.0),
            ("ld.global.f32".to_string(), Some(2), Some(16.0), 4.0),
            ("st.global.f32".to_string(), Some(2), Some(16.0), 2.0),
        ],
        "{}",
        render(&a)
    );
}
