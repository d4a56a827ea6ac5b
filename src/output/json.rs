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

use super::{span_range, FileReport};
use crate::analysis::model::{KernelAnalysis, SourceLocation};
use crate::diagnostic::Diagnostic;
use crate::lints::Findings;
use crate::source::LineCol;
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

/// A file's diagnostics kept for the document's closing part: compact,
/// with their PTX ranges (the file itself is gone by then).
pub(super) struct Pending {
    path: String,
    findings: Findings,
    ranges: Vec<(LineCol, LineCol)>,
}

/// Writes one file's entry of `files` (with the document's opening before
/// the first) into `out`, kernel by kernel as `serde_json` serialises them;
/// its diagnostics are kept in `pending` for [`write_finish`]. The text is
/// exactly what `serde_json`'s pretty printer gives for the whole document,
/// produced piece by piece.
pub(super) fn write_file(
    r: &FileReport<'_>,
    first: bool,
    pending: &mut Vec<Pending>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let file = FileOut {
        path: r.file.name(),
        kernels: &r.result.analysis.kernels,
    };
    out.write_all(if first {
        b"{\n  \"version\": 1,\n  \"files\": [\n"
    } else {
        b",\n"
    })?;
    let mut w = Indented {
        out,
        pad: b"    ",
        line_start: true,
    };
    let mut ser = serde_json::Serializer::with_formatter(
        &mut w,
        serde_json::ser::PrettyFormatter::with_indent(b"  "),
    );
    file.serialize(&mut ser).map_err(std::io::Error::other)?;
    let findings = &r.result.findings;
    if !findings.is_empty() {
        pending.push(Pending {
            path: r.file.name().to_string(),
            findings: findings.clone(),
            ranges: (0..findings.len())
                .map(|i| span_range(r.file, findings.span(i)))
                .collect(),
        });
    }
    Ok(())
}

/// A writer that starts every line with `pad` (what [`indent`] does to a
/// whole text that does not end with a newline).
struct Indented<'a> {
    out: &'a mut dyn std::io::Write,
    pad: &'static [u8],
    line_start: bool,
}

impl std::io::Write for Indented<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for line in buf.split_inclusive(|&b| b == b'\n') {
            if self.line_start {
                self.out.write_all(self.pad)?;
            }
            self.out.write_all(line)?;
            self.line_start = line.ends_with(b"\n");
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

fn diag_out<'a>(
    path: &'a str,
    d: &'a Diagnostic,
    (start, end): (LineCol, LineCol),
    source: Option<&'a SourceLocation>,
) -> DiagOut<'a> {
    DiagOut {
        path,
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
        source,
    }
}

/// The document's closing: the end of `files`, then `diagnostics`, each
/// rendered as it is written.
pub(super) fn write_finish(
    files: usize,
    pending: &[Pending],
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    if files == 0 {
        out.write_all(b"{\n  \"version\": 1,\n  \"files\": [],\n")?;
    } else {
        out.write_all(b"\n  ],\n")?;
    }
    if pending.is_empty() {
        return out.write_all(b"  \"diagnostics\": []\n}\n");
    }
    out.write_all(b"  \"diagnostics\": [\n")?;
    let mut first = true;
    for p in pending {
        for (i, range) in p.ranges.iter().enumerate() {
            if !first {
                out.write_all(b",\n")?;
            }
            first = false;
            let d = p.findings.get(i);
            let text = pretty(&diag_out(&p.path, &d, *range, p.findings.location(i)));
            out.write_all(indent(&text, 4).as_bytes())?;
        }
    }
    out.write_all(b"\n  ]\n}\n")
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
    use crate::output::range_of;
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
                .flat_map(|(r, ds)| {
                    ds.iter().enumerate().map(move |(i, d)| {
                        diag_out(
                            r.file.name(),
                            d,
                            range_of(r.file, d),
                            r.result.findings.location(i),
                        )
                    })
                })
                .collect(),
        };
        let mut pending = Vec::new();
        let mut pieces = Vec::new();
        for (i, r) in reports.iter().enumerate() {
            write_file(r, i == 0, &mut pending, &mut pieces).unwrap();
        }
        write_finish(reports.len(), &pending, &mut pieces).unwrap();
        assert!(!pending.is_empty(), "the fixture has findings");
        assert!(
            !results[1].analysis.kernels.is_empty(),
            "the fixture has a kernel"
        );
        assert_eq!(
            String::from_utf8(pieces).unwrap(),
            format!("{}\n", pretty(&whole))
        );
        let empty = Output {
            version: 1,
            files: Vec::new(),
            diagnostics: Vec::new(),
        };
        let mut none = Vec::new();
        write_finish(0, &[], &mut none).unwrap();
        assert_eq!(
            String::from_utf8(none).unwrap(),
            format!("{}\n", pretty(&empty))
        );
    }
}
