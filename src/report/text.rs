//! Plain-text rendering: aligned columns, for terminals and snapshots.

use super::format::{access_cells, columns, count, dim3, fixed, percent, Align, ACCESS_COLUMNS};
use super::{pattern_name, FileReport, KernelReport, LaunchTotals, Report, Summary, Weighting};

/// Renders a report as aligned plain text (no colour, no trailing spaces,
/// ending with a newline).
///
/// Per file: its path as given, its diagnostics, then per kernel the launch,
/// the table of accesses, the launch's totals and a one-line summary.
///
/// ```
/// use warpscope::analysis::{Access, AccessOp, Analysis, KernelAnalysis, Pattern, PerRequest, Space};
/// use warpscope::report::{render_text, Report};
/// use warpscope::source::{LineCol, SourceFile, Span};
///
/// let access = Access {
///     span: Span::default(), ptx: LineCol { line: 20, column: 2 }, source: None,
///     instruction: "ld.global.f32".into(), op: AccessOp::Load, space: Space::Global, bits: 32,
///     pattern: Pattern::Strided, stride_bytes: Some(8), lane_pattern: "base + 8*i".into(),
///     per_request: PerRequest { l1_lines: 2.0, sectors: 8.0, ideal_sectors: 4.0,
///         sectors_min: 8.0, sectors_max: 8.0, active_lanes: Some(32.0) },
///     requests: None, caveats: vec![],
/// };
/// let analysis = Analysis {
///     kernels: vec![KernelAnalysis {
///         name: "k".into(), demangled: "k".into(), block: [256, 1, 1], block_assumed: true,
///         grid: None, accesses: vec![access], totals: None,
///         totals_unavailable: Some("grid not given".into()), span: Span::default(),
///     }],
///     diagnostics: vec![],
/// };
/// let text = render_text(&Report::from_analysis(&SourceFile::from_text("k.ptx", ""), &analysis));
/// assert!(text.contains("strided 8B"));
/// assert!(text.contains("50.0%"));
/// assert!(text.contains("summary: worst line 20 ld.global.f32 (strided, 50.0%)"));
/// ```
pub fn render_text(report: &Report) -> String {
    let mut out = String::new();
    for (i, file) in report.files.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        file_text(&mut out, file);
    }
    out
}

fn file_text(out: &mut String, file: &FileReport) {
    out.push_str(&format!("warpscope report: {}\n", file.path));
    if file.diagnostics.is_empty() {
        out.push_str("diagnostics: none\n");
    } else {
        out.push_str(&format!("diagnostics: {}\n", file.diagnostics.len()));
        for d in &file.diagnostics {
            out.push_str(&format!(
                "  {}[{}] {}:{}: {}\n",
                d.severity.as_str(),
                d.code,
                d.line,
                d.column,
                d.message
            ));
        }
    }
    if file.kernels.is_empty() {
        out.push_str("no kernels\n");
    }
    for k in &file.kernels {
        out.push('\n');
        kernel_text(out, k);
    }
}

fn kernel_text(out: &mut String, k: &KernelReport) {
    if k.demangled != k.name {
        out.push_str(&format!("kernel {}  ({})\n", k.demangled, k.name));
    } else {
        out.push_str(&format!("kernel {}\n", k.name));
    }
    out.push_str(&format!("  launch: {}\n", launch_line(k)));
    if k.accesses.is_empty() {
        out.push_str("  accesses: none\n");
    } else {
        out.push_str(&format!("  accesses: {}\n", k.accesses.len()));
        let rows: Vec<Vec<String>> = k.accesses.iter().map(access_cells).collect();
        out.push_str(&columns("    ", ACCESS_COLUMNS, &rows));
        for a in &k.accesses {
            for c in &a.caveats {
                out.push_str(&format!("    note: line {}: {}\n", a.ptx_line, c));
            }
        }
    }
    match (&k.totals, &k.totals_unavailable) {
        (Some(t), _) => {
            out.push_str("  totals (global memory, whole launch):\n");
            out.push_str(&columns("    ", TOTALS_COLUMNS, &totals_rows(t)));
            out.push_str(&format!("    {}\n", bytes_line(t)));
        }
        (None, Some(why)) => out.push_str(&format!("  totals: unavailable ({why})\n")),
        (None, None) => out.push_str("  totals: unavailable\n"),
    }
    out.push_str(&format!("  summary: {}\n", summary_line(&k.summary)));
}

/// `block 128x1x1, grid 79x1x1 (10112 threads)`.
pub(crate) fn launch_line(k: &KernelReport) -> String {
    let l = &k.launch;
    let mut s = format!("block {}", dim3(l.block));
    if l.block_assumed {
        s.push_str(" (assumed)");
    }
    match l.grid {
        Some(g) => {
            s.push_str(&format!(", grid {}", dim3(g)));
            if let Some(t) = l.threads() {
                s.push_str(&format!(" ({t} threads)"));
            }
        }
        None => s.push_str(", grid not given"),
    }
    s
}

pub(crate) const TOTALS_COLUMNS: &[(&str, Align)] = &[
    ("operation", Align::Left),
    ("requests", Align::Right),
    ("sectors", Align::Right),
    ("sect/req", Align::Right),
];

/// Rows of the totals table: loads, stores, atomics, total.
pub(crate) fn totals_rows(t: &LaunchTotals) -> Vec<Vec<String>> {
    let per = |s: u64, r: u64| {
        if r == 0 {
            "-".to_string()
        } else {
            fixed(Some(s as f64 / r as f64), 2)
        }
    };
    [
        ("load", t.load_requests, t.load_sectors),
        ("store", t.store_requests, t.store_sectors),
        ("atomic", t.atomic_requests, t.atomic_sectors),
        ("total", t.requests, t.sectors),
    ]
    .iter()
    .map(|&(name, r, s)| vec![name.to_string(), r.to_string(), s.to_string(), per(s, r)])
    .collect()
}

/// `bytes requested 40000, moved 40000, overhead 1.00`.
pub(crate) fn bytes_line(t: &LaunchTotals) -> String {
    format!(
        "bytes requested {}, bytes moved {}, overhead {}",
        t.bytes_requested,
        t.bytes_moved,
        fixed(t.overhead, 2)
    )
}

/// The kernel's one-line verdict.
pub(crate) fn summary_line(s: &Summary) -> String {
    if s.global_accesses == 0 {
        return "no global memory accesses".to_string();
    }
    let worst = match &s.worst {
        Some(w) => format!(
            "worst line {} {} ({}, {})",
            w.ptx_line,
            w.instruction,
            pattern_name(w.pattern),
            percent(Some(w.efficiency))
        ),
        None => "worst -".to_string(),
    };
    let weighting = match s.weighting {
        Weighting::Requests => "weighted by requests",
        Weighting::PerRequest => "per request, executions unknown",
    };
    format!(
        "{worst}; efficiency {} over {} global access{} ({weighting})",
        percent(s.weighted_efficiency),
        count(Some(s.global_accesses as u64)),
        if s.global_accesses == 1 { "" } else { "es" }
    )
}
