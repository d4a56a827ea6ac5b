//! Unit tests of the derived figures and the layouts, over hand-built analyses.

use super::*;
use crate::analysis::{PerRequest, SourceLocation};
use crate::diagnostic::Diagnostic;
use crate::source::{LineCol, Span};

#[allow(clippy::too_many_arguments)]
fn access(
    line: u32,
    instruction: &str,
    op: AccessOp,
    bits: u32,
    pattern: Pattern,
    per_request: (f64, f64, f64, Option<f64>),
    requests: Option<u64>,
) -> Access {
    let (l1_lines, sectors, ideal_sectors, active_lanes) = per_request;
    Access {
        span: Span::default(),
        ptx: LineCol { line, column: 2 },
        source: Some(SourceLocation {
            file: "/home/someone/src/kernel.cu".into(),
            line: line / 2,
            column: 5,
            inlined_at: None,
        }),
        instruction: instruction.into(),
        op,
        space: Space::Global,
        bits,
        pattern,
        per_request: PerRequest {
            l1_lines,
            sectors,
            ideal_sectors,
            sectors_min: sectors,
            sectors_max: sectors,
            l1_lines_min: l1_lines,
            l1_lines_max: l1_lines,
            active_lanes,
        },
        requests,
        ..Default::default()
    }
}

fn kernel(accesses: Vec<Access>, totals: Option<Totals>) -> KernelAnalysis {
    KernelAnalysis {
        name: "_Z8indirectIfEvPT_PKim".into(),
        demangled: "void indirect<float>(float*, int const*, unsigned long)".into(),
        block: [128, 1, 1],
        block_assumed: false,
        grid: Some([79, 1, 1]),
        accesses,
        totals_unavailable: if totals.is_none() {
            Some("grid-stride loop bound unknown".into())
        } else {
            None
        },
        totals,
        caveats: vec![],
        expect_tx: Vec::new(),
        span: Span::default(),
    }
}

/// Seed 000, "Coalesced" table: 10,000 floats read by 313 warp requests (312
/// full, one of 16 lanes) touch 1,250 sectors and 313 L1 lines. Fed in as the
/// per-request averages an analysis reports, the row must give back the whole
/// launch's integers and an ideal efficiency.
#[test]
fn per_request_averages_give_back_the_launch_counts() {
    let r = 313.0;
    let a = access(
        40,
        "ld.global.u32",
        AccessOp::Load,
        32,
        Pattern::Coalesced,
        (1.0, 1250.0 / r, 1250.0 / r, Some(10_000.0 / r)),
        Some(313),
    );
    let row = AccessRow::new(&a);
    let l = row.launch.clone().unwrap();
    assert_eq!(
        (l.requests, l.l1_lines, l.sectors, l.ideal_sectors),
        (313, 313, 1250, 1250)
    );
    assert_eq!(l.bytes_requested, Some(40_000));
    assert_eq!(l.bytes_moved, 40_000);
    assert_eq!(row.efficiency, Some(1.0));
    assert_eq!(row.overhead, Some(1.0));
    // Seed 000's T_i/T_e in L1 lines would be 312.5/313; per request the L1
    // overhead is 128 B moved per 127.8 B requested.
    assert_eq!(row.l1_overhead, Some(1.0016));
    assert_eq!(
        row.cuda,
        Some(CudaLine {
            file: "kernel.cu".into(),
            line: 20,
            inlined_at: None
        })
    );
}

#[test]
fn missing_or_degenerate_figures_print_as_dashes() {
    let a = access(
        7,
        "ld.global.f32",
        AccessOp::Load,
        32,
        Pattern::Unknown,
        (0.0, 0.0, 0.0, None),
        None,
    );
    let b = access(
        8,
        "st.global.f32",
        AccessOp::Store,
        32,
        Pattern::Unknown,
        (f64::NAN, f64::INFINITY, 4.0, Some(-3.0)),
        None,
    );
    let row = AccessRow::new(&a);
    assert_eq!(
        (row.efficiency, row.overhead, row.l1_overhead),
        (None, None, None)
    );
    let report = Report::from_analysis(
        &SourceFile::from_text("k.ptx", ""),
        &Analysis {
            kernels: vec![kernel(vec![a, b], None)],
            diagnostics: vec![],
        },
    );
    let text = render_text(&report);
    assert!(
        text.contains("totals: unavailable (grid-stride loop bound unknown)"),
        "{text}"
    );
    // Still renders in every format.
    assert!(render_markdown(&report).contains("Totals unavailable"));
    assert!(serde_json::from_str::<serde_json::Value>(&render_json(&report)).is_ok());
}

#[test]
fn worst_access_is_the_first_of_equals() {
    let a = access(
        10,
        "ld.global.f32",
        AccessOp::Load,
        32,
        Pattern::Strided,
        (2.0, 8.0, 4.0, Some(32.0)),
        Some(10),
    );
    let b = access(
        11,
        "st.global.f32",
        AccessOp::Store,
        32,
        Pattern::Strided,
        (2.0, 8.0, 4.0, Some(32.0)),
        Some(10),
    );
    let s = Summary::new(&[AccessRow::new(&a), AccessRow::new(&b)]);
    assert_eq!(s.worst.unwrap().ptx_line, 10);
    assert_eq!(s.weighted_efficiency, Some(0.5));
}

#[test]
fn non_global_accesses_do_not_count_in_the_summary() {
    let mut a = access(
        10,
        "ld.shared.f32",
        AccessOp::Load,
        32,
        Pattern::Strided,
        (1.0, 1.0, 4.0, Some(32.0)),
        Some(10),
    );
    a.space = Space::Shared;
    a.shared_wavefronts = Some(32.0);
    let s = Summary::new(&[AccessRow::new(&a)]);
    assert_eq!(s.global_accesses, 0);
    assert!(s.worst.is_none());
    assert_eq!(super::text::summary_line(&s), "no global memory accesses");
}

#[test]
fn negative_zero_is_printed_as_zero() {
    assert_eq!(format::fixed(Some(-0.0001), 2), "0.00");
    assert_eq!(format::fixed(Some(-1.5), 1), "-1.5");
    assert_eq!(format::percent(Some(0.125)), "12.5%");
    assert_eq!(format::fixed(None, 2), "-");
}

fn sample() -> Report {
    let r = 313.0;
    let accesses = vec![
        access(
            40,
            "ld.global.u32",
            AccessOp::Load,
            32,
            Pattern::Coalesced,
            (1.0, 1250.0 / r, 1250.0 / r, Some(10_000.0 / r)),
            Some(313),
        ),
        access(
            44,
            "ld.global.f32",
            AccessOp::Load,
            32,
            Pattern::Random,
            (30.5623, 31.6, 1250.0 / r, Some(10_000.0 / r)),
            Some(313),
        ),
        access(
            47,
            "st.global.f32",
            AccessOp::Store,
            32,
            Pattern::Random,
            (30.5623, 31.6, 1250.0 / r, Some(10_000.0 / r)),
            Some(313),
        ),
    ];
    let totals = Totals {
        load_requests: 626,
        load_sectors: 1250 + 9891,
        store_requests: 313,
        store_sectors: 9891,
        atomic_requests: 0,
        atomic_sectors: 0,
        bytes_requested: 120_000,
        bytes_moved: (1250 + 9891 + 9891) * 32,
        sectors_min: 1250 + 313 * 2,
        sectors_max: 1250 + 10_000 * 2,
        blocks_simulated: 20,
        blocks_total: 79,
        async_copy_requests: 0,
        async_copy_sectors: 0,
        bulk_copies: 0,
        bulk_bytes: None,
        bulk_load_sectors: None,
        bulk_store_sectors: None,
        bulk_reduction_sectors: None,
    };
    let mut with_caveat = kernel(accesses, Some(totals));
    with_caveat
        .caveats
        .push(crate::analysis::Caveat::BlockAssumed1D);
    // The store was inlined from a helper at line 23 into the kernel at line 30.
    if let Some(loc) = with_caveat.accesses[2].source.as_mut() {
        loc.inlined_at = Some(Box::new(SourceLocation {
            file: "/home/someone/src/kernel.cu".into(),
            line: 30,
            column: 1,
            inlined_at: None,
        }));
    }
    // A shared-memory column read (32-way bank conflict): shown, not summarised.
    let mut shared = access(
        50,
        "ld.shared.f32",
        AccessOp::Load,
        32,
        Pattern::Strided,
        (32.0, 32.0, 4.0, Some(32.0)),
        Some(313),
    );
    shared.space = Space::Shared;
    shared.stride_bytes = Some(128);
    shared.shared_wavefronts = Some(32.0);
    with_caveat.accesses.push(shared);
    with_caveat.accesses[1]
        .caveats
        .push(crate::analysis::Caveat::DataDependentAddress);
    let file = SourceFile::from_text("examples/kernels/indirect/indirect.ptx", "\n\n\n.bogus\n");
    let analysis = Analysis {
        kernels: vec![with_caveat, {
            let mut k = kernel(vec![], None);
            k.name = "empty".into();
            k.demangled = "empty".into();
            k.block_assumed = true;
            k.grid = None;
            k
        }],
        diagnostics: vec![Diagnostic::new(
            "W900",
            "made-up",
            Severity::Warning,
            Span::new(3, 9),
            "a diagnostic on line 4",
        )],
    };
    Report::from_analysis(&file, &analysis)
}

#[test]
fn text_layout() {
    insta::assert_snapshot!(render_text(&sample()));
}

#[test]
fn markdown_layout() {
    insta::assert_snapshot!(render_markdown(&sample()));
}

#[test]
fn json_layout() {
    insta::assert_snapshot!(render_json(&sample()));
}

/// Piece by piece, the emitter gives exactly the whole report's rendering.
#[test]
fn emitter_pieces_equal_the_whole_report() {
    use crate::analysis::Options;
    use crate::analyze;
    use crate::report::{ReportEmitter, ReportFormat};
    let texts = [
        "bogus;\n",
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<2>;\n.reg .f32 %f<2>;\nld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 128;\nadd.s64 %rd2, %rd1, %rd2;\nld.global.f32 %f1, [%rd2];\nret;\n}\n",
        "",
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry a(.param .u64 p)\n{\n.reg .b64 %rd<2>;\n.reg .f32 %f<2>;\nld.param.u64 %rd1, [p];\nld.global.f32 %f1, [%rd1];\nret;\n}\n.visible .entry b()\n{\nret;\n}\n",
    ];
    let files: Vec<SourceFile> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| SourceFile::from_text(format!("f{i}.ptx"), *t))
        .collect();
    let analyses: Vec<_> = files
        .iter()
        .map(|f| analyze(f, &Options::default()))
        .collect();
    for (format, render) in [
        (ReportFormat::Text, render_text as fn(&Report) -> String),
        (ReportFormat::Markdown, render_markdown),
        (ReportFormat::Json, render_json),
    ] {
        for n in [0, 1, 3, 4] {
            let mut e = ReportEmitter::new(format);
            let mut pieces = String::new();
            let mut part = Report::new();
            for (f, a) in files.iter().zip(&analyses).take(n) {
                pieces.push_str(&e.file(f, a));
                part.add(f, a);
            }
            pieces.push_str(&e.finish());
            assert_eq!(pieces, render(&part), "{format:?} over {n} files");
        }
    }
}
