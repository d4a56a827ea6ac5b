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
use serde::Serialize;

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

pub(super) fn render(reports: &[FileReport<'_>]) -> String {
    let mut out = Output {
        version: 1,
        files: Vec::new(),
        diagnostics: Vec::new(),
    };
    for r in reports {
        out.files.push(FileOut {
            path: r.file.name(),
            kernels: &r.result.analysis.kernels,
        });
        for (i, d) in r.result.diagnostics.iter().enumerate() {
            let (start, end) = range_of(r.file, d);
            out.diagnostics.push(DiagOut {
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
                source: r.result.cuda_locations.get(i).and_then(|l| l.as_ref()),
            });
        }
    }
    let mut s =
        serde_json::to_string_pretty(&out).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}
