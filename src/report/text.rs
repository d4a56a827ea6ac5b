//! Plain-text rendering: aligned columns, for terminals and snapshots.

use super::format::{access_columns, access_rows, columns, count, dim3, fixed, percent, Align};
use super::{DiagnosticLine, FileReport, KernelReport, LaunchTotals, Report, Summary, Weighting};

/// Renders a report as aligned plain text (no colour, no trailing spaces,
/// ending with a newline).
///
/// Per file: its path as given, its diagnostics, then per kernel the launch,
/// the table of accesses, the launch's totals and a one-line summary.
///
/// ```
/// use warpscope::analyze;
/// use warpscope::analysis::Options;
/// use warpscope::report::{render_text, Report};
/// use warpscope::source::SourceFile;
///
/// # let ptx = r#"
/// # .version 8.0
/// # .target sm_90
/// # .address_size 64
/// # .visible .entry copy(.param .u64 copy_param_0, .param .u64 copy_param_1)
/// # {
/// #     .reg .b32 %r<5>;
/// #     .reg .b64 %rd<8>;
/// #     .reg .f32 %f<2>;
/// #     ld.param.u64 %rd1, [copy_param_0];
/// #     ld.param.u64 %rd2, [copy_param_1];
/// #     cvta.to.global.u64 %rd3, %rd1;
/// #     cvta.to.global.u64 %rd4, %rd2;
/// #     mov.u32 %r1, %ctaid.x;
/// #     mov.u32 %r2, %ntid.x;
/// #     mov.u32 %r3, %tid.x;
/// #     mad.lo.s32 %r4, %r1, %r2, %r3;
/// #     mul.wide.s32 %rd5, %r4, 4;
/// #     add.s64 %rd6, %rd3, %rd5;
/// #     ld.global.f32 %f1, [%rd6];
/// #     add.s64 %rd7, %rd4, %rd5;
/// #     st.global.f32 [%rd7], %f1;
/// #     ret;
/// # }
/// # "#;
/// let file = SourceFile::from_text("copy.ptx", ptx);
/// let text = render_text(&Report::from_analysis(&file, &analyze(&file, &Options::default())));
/// assert!(text.starts_with("warpscope report: copy.ptx\n"));
/// assert!(text.contains("ld.global.f32  global    32  coalesced"));
/// assert!(text.contains("summary: worst line"));
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
    file_head_text(out, &file.path, &file.diagnostics);
    if file.kernels.is_empty() {
        out.push_str("no kernels\n");
    }
    for k in &file.kernels {
        out.push('\n');
        kernel_text(out, k);
    }
}

/// A file's path and diagnostics: what comes before its kernels.
pub(crate) fn file_head_text(out: &mut String, path: &str, diagnostics: &[DiagnosticLine]) {
    out.push_str(&format!("warpscope report: {path}\n"));
    if diagnostics.is_empty() {
        out.push_str("diagnostics: none\n");
    } else {
        out.push_str(&format!("diagnostics: {}\n", diagnostics.len()));
        for d in diagnostics {
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
}

/// One kernel's part of [`render_text`] (after the blank line before it).
pub(crate) fn kernel_text(out: &mut String, k: &KernelReport) {
    if k.demangled != k.name {
        out.push_str(&format!("kernel {}  ({})\n", k.demangled, k.name));
    } else {
        out.push_str(&format!("kernel {}\n", k.name));
    }
    out.push_str(&format!("  launch: {}\n", launch_line(k)));
    for c in &k.caveats {
        out.push_str(&format!("  note: {c}\n"));
    }
    if k.accesses.is_empty() {
        out.push_str("  accesses: none\n");
    } else {
        out.push_str(&format!("  accesses: {}\n", k.accesses.len()));
        let rows = access_rows(&k.accesses);
        out.push_str(&columns("    ", &access_columns(&k.accesses), &rows));
        for a in &k.accesses {
            for d in &a.details {
                out.push_str(&format!("    line {}: {}\n", a.ptx_line, d));
            }
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
            for line in totals_notes(t) {
                out.push_str(&format!("    {line}\n"));
            }
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

/// What qualifies the totals: bounds and sampling.
pub(crate) fn totals_notes(t: &LaunchTotals) -> Vec<String> {
    let mut notes = Vec::new();
    if t.sectors_min != t.sectors_max {
        notes.push(format!(
            "sectors between {} and {} (some addresses or guards depend on loaded data or on parameters not given)",
            t.sectors_min, t.sectors_max
        ));
    }
    if t.blocks_simulated < t.blocks_total {
        notes.push(format!(
            "estimated from {} of {} blocks (the launch simulation's budget)",
            t.blocks_simulated, t.blocks_total
        ));
    }
    notes
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
            w.pattern.as_str(),
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
