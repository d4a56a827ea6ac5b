//! Markdown rendering: headings and pipe tables, for pull requests and docs.

use super::format::{access_columns, access_rows, markdown_table};
use super::text::{
    bytes_line, launch_line, summary_line, totals_notes, totals_rows, TOTALS_COLUMNS,
};
use super::{DiagnosticLine, FileReport, KernelReport, Report};

/// Renders a report as GitHub-flavoured Markdown: a `##` heading per file,
/// `###` per kernel, pipe tables for the accesses and the totals, ending with a
/// newline.
///
/// ```
/// use warpscope::analyze;
/// use warpscope::analysis::Options;
/// use warpscope::report::{render_markdown, Report};
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
/// let md = render_markdown(&Report::from_analysis(&file, &analyze(&file, &Options::default())));
/// assert!(md.starts_with("## `copy.ptx`\n"));
/// assert!(md.contains("### `copy`"));
/// assert!(md.contains("| ld.global.f32 | global | 32 | coalesced |"));
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
    file_head_markdown(out, &file.path, &file.diagnostics);
    if file.kernels.is_empty() {
        out.push_str("\nNo kernels.\n");
    }
    for k in &file.kernels {
        out.push('\n');
        kernel_markdown(out, k);
    }
}

/// A file's heading and diagnostics: what comes before its kernels.
pub(crate) fn file_head_markdown(out: &mut String, path: &str, diagnostics: &[DiagnosticLine]) {
    out.push_str(&format!("## {}\n", code(path)));
    if !diagnostics.is_empty() {
        out.push_str("\nDiagnostics:\n\n");
        for d in diagnostics {
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
}

/// One kernel's part of [`render_markdown`] (after the blank line before it).
pub(crate) fn kernel_markdown(out: &mut String, k: &KernelReport) {
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
    for c in &k.caveats {
        out.push_str(&format!("> {c}\n\n"));
    }
    if k.accesses.is_empty() {
        out.push_str("No memory accesses.\n\n");
    } else {
        let rows = access_rows(&k.accesses);
        out.push_str(&markdown_table(&access_columns(&k.accesses), &rows));
        out.push('\n');
        let notes: Vec<String> = k
            .accesses
            .iter()
            .flat_map(|a| {
                a.details
                    .iter()
                    .chain(&a.caveats)
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
            for line in totals_notes(t) {
                out.push_str(&format!("{}.\n\n", capitalise(&line)));
            }
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
