//! Markdown rendering: headings and pipe tables, for pull requests and docs.

use super::format::{access_cells, markdown_table, ACCESS_COLUMNS};
use super::text::{bytes_line, launch_line, summary_line, totals_rows, TOTALS_COLUMNS};
use super::{FileReport, KernelReport, Report};

/// Renders a report as GitHub-flavoured Markdown: a `##` heading per file,
/// `###` per kernel, pipe tables for the accesses and the totals, ending with a
/// newline.
///
/// ```
/// use warpscope::analysis::{Analysis, KernelAnalysis};
/// use warpscope::report::{render_markdown, Report};
/// use warpscope::source::{SourceFile, Span};
///
/// let analysis = Analysis {
///     kernels: vec![KernelAnalysis {
///         name: "_Z4copyPf".into(), demangled: "copy(float*)".into(), block: [256, 1, 1],
///         block_assumed: false, grid: None, accesses: vec![], totals: None,
///         totals_unavailable: Some("grid not given".into()), span: Span::default(),
///     }],
///     diagnostics: vec![],
/// };
/// let md = render_markdown(&Report::from_analysis(&SourceFile::from_text("copy.ptx", ""), &analysis));
/// assert!(md.starts_with("## `copy.ptx`\n"));
/// assert!(md.contains("### `copy(float*)` (`_Z4copyPf`)"));
/// ```
pub fn render_markdown(report: &Report) -> String {
    let mut out = String::new();
    for (i, file) in report.files.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        file_markdown(&mut out, file);
    }
    out
}

fn code(s: &str) -> String {
    // A backtick inside would end the code span; PTX names never contain one.
    format!("`{}`", s.replace('`', "'"))
}

fn file_markdown(out: &mut String, file: &FileReport) {
    out.push_str(&format!("## {}\n", code(&file.path)));
    if !file.diagnostics.is_empty() {
        out.push_str("\nDiagnostics:\n\n");
        for d in &file.diagnostics {
            out.push_str(&format!(
                "- {} `{}` line {}, column {}: {}\n",
                d.severity.as_str(),
                d.code,
                d.line,
                d.column,
                d.message
            ));
        }
    }
    if file.kernels.is_empty() {
        out.push_str("\nNo kernels.\n");
    }
    for k in &file.kernels {
        out.push('\n');
        kernel_markdown(out, k);
    }
}

fn kernel_markdown(out: &mut String, k: &KernelReport) {
    if k.demangled != k.name {
        out.push_str(&format!(
            "### {} ({})\n\n",
            code(&k.demangled),
            code(&k.name)
        ));
    } else {
        out.push_str(&format!("### {}\n\n", code(&k.name)));
    }
    out.push_str(&format!("Launch: {}.\n\n", launch_line(k)));
    if k.accesses.is_empty() {
        out.push_str("No memory accesses.\n\n");
    } else {
        let rows: Vec<Vec<String>> = k.accesses.iter().map(access_cells).collect();
        out.push_str(&markdown_table(ACCESS_COLUMNS, &rows));
        out.push('\n');
        let notes: Vec<String> = k
            .accesses
            .iter()
            .flat_map(|a| {
                a.caveats
                    .iter()
                    .map(move |c| format!("- line {}: {}\n", a.ptx_line, c))
            })
            .collect();
        if !notes.is_empty() {
            out.push_str("Notes:\n\n");
            notes.iter().for_each(|n| out.push_str(n));
            out.push('\n');
        }
    }
    match (&k.totals, &k.totals_unavailable) {
        (Some(t), _) => {
            out.push_str("Totals (global memory, whole launch):\n\n");
            out.push_str(&markdown_table(TOTALS_COLUMNS, &totals_rows(t)));
            out.push_str(&format!("\n{}.\n\n", capitalise(&bytes_line(t))));
        }
        (None, Some(why)) => out.push_str(&format!("Totals unavailable: {why}.\n\n")),
        (None, None) => out.push_str("Totals unavailable.\n\n"),
    }
    out.push_str(&format!("**Summary:** {}.\n", summary_line(&k.summary)));
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
