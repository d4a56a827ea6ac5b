//! `json`: the analysis contract (`version: 1`) with the diagnostics.
//!
//! ```text
//! {"version": 1,
//!  "files": [{"path", "kernels": [KernelAnalysis...]}],
//!  "diagnostics": [{"path", "line", "column", "end_line", "end_column",
//!                   "code", "name", "severity", "message", "notes", "help", "source"}]}
//! ```
//! Kernels are the analysis model types serialised as they are; fields may be
//! added in later versions, none renamed.

use super::{range_of, FileReport};
use crate::analysis::model::{KernelAnalysis, SourceLocation};
use crate::diagnostic::Diagnostic;
use serde::Serialize;

/// The whole document (the pieces are checked against it in the tests).
#[cfg(test)]
#[derive(Serialize)]
struct Output<'a> {
    version: u32,
    files: Vec<FileOut<'a>>,
    diagnostics: Vec<DiagOut<'a>>,
}

#[derive(Serialize)]
struct FileOut<'a> {
    path: &'a str,
    kernels: &'a [KernelAnalysis],
}

#[derive(Serialize)]
struct DiagOut<'a> {
    path: &'a str,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    code: &'a str,
    name: &'a str,
    severity: &'a str,
    message: &'a str,
    notes: &'a [String],
    help: Option<&'a str>,
    source: Option<&'a SourceLocation>,
}

/// One file's entry of `files` (with the document's opening before the
/// first); its diagnostics are rendered into `diagnostics` for [`finish`].
/// The text is exactly what `serde_json`'s pretty printer gives for the
/// whole document, produced piece by piece.
pub(super) fn render_file(
    r: &FileReport<'_>,
    first: bool,
    diagnostics: &mut Vec<String>,
) -> String {
    let file = FileOut {
        path: r.file.name(),
        kernels: &r.result.analysis.kernels,
    };
    let mut out = String::new();
    out.push_str(if first {
        "{\n  \"version\": 1,\n  \"files\": [\n"
    } else {
        ",\n"
    });
    out.push_str(&indent(&pretty(&file), 4));
    for i in 0..r.result.findings.len() {
        let d = r.result.findings.get(i);
        diagnostics.push(pretty(&diag_out(r, i, &d)));
    }
    out
}

fn diag_out<'a>(r: &FileReport<'a>, i: usize, d: &'a Diagnostic) -> DiagOut<'a> {
    let (start, end) = range_of(r.file, d);
    DiagOut {
        path: r.file.name(),
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
        code: d.code,
        name: d.name,
        severity: d.severity.as_str(),
        message: &d.message,
        notes: &d.notes,
        help: d.help.as_deref(),
        source: r.result.findings.location(i),
    }
}

/// The document's closing: the end of `files`, then `diagnostics`.
pub(super) fn finish(files: usize, diagnostics: &[String]) -> String {
    let mut out = String::new();
    if files == 0 {
        out.push_str("{\n  \"version\": 1,\n  \"files\": [],\n");
    } else {
        out.push_str("\n  ],\n");
    }
    if diagnostics.is_empty() {
        out.push_str("  \"diagnostics\": []\n}\n");
        return out;
    }
    out.push_str("  \"diagnostics\": [\n");
    for (i, d) in diagnostics.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(&indent(d, 4));
    }
    out.push_str("\n  ]\n}\n");
    out
}

fn pretty<T: Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// Every line of `s` indented by `n` spaces (no trailing newline).
fn indent(s: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    s.lines()
        .map(|l| format!("{pad}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::lints::check_file;
    use crate::source::SourceFile;
    use std::collections::BTreeMap;

    /// The piecewise document equals the pretty-printed whole.
    #[test]
    fn pieces_make_the_pretty_document() {
        let texts = [
            "bogus;\n",
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<2>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 128;\nadd.s64 %rd2, %rd1, %rd2;\nld.global.f32 %r1, [%rd2];\nret;\n}\n",
        ];
        let files: Vec<SourceFile> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| SourceFile::from_text(format!("f{i}.ptx"), *t))
            .collect();
        let results: Vec<_> = files
            .iter()
            .map(|f| check_file(f, &Config::default()))
            .collect();
        let sources = BTreeMap::new();
        let reports: Vec<FileReport<'_>> = files
            .iter()
            .zip(&results)
            .map(|(file, result)| FileReport {
                file,
                result,
                sources: &sources,
            })
            .collect();
        let expanded: Vec<Vec<Diagnostic>> =
            reports.iter().map(|r| r.result.findings.to_vec()).collect();
        let whole = Output {
            version: 1,
            files: reports
                .iter()
                .map(|r| FileOut {
                    path: r.file.name(),
                    kernels: &r.result.analysis.kernels,
                })
                .collect(),
            diagnostics: reports
                .iter()
                .zip(&expanded)
                .flat_map(|(r, ds)| ds.iter().enumerate().map(move |(i, d)| diag_out(r, i, d)))
                .collect(),
        };
        let mut diags = Vec::new();
        let mut pieces = String::new();
        for (i, r) in reports.iter().enumerate() {
            pieces.push_str(&render_file(r, i == 0, &mut diags));
        }
        pieces.push_str(&finish(reports.len(), &diags));
        assert!(!diags.is_empty(), "the fixture has findings");
        assert_eq!(pieces, format!("{}\n", pretty(&whole)));
        let empty = Output {
            version: 1,
            files: Vec::new(),
            diagnostics: Vec::new(),
        };
        assert_eq!(finish(0, &[]), format!("{}\n", pretty(&empty)));
    }
}
