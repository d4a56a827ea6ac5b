//! Rendering check results to text: `full` (rustc-style, codespan-reporting),
//! `concise` (one line per finding), `json` (the analysis contract plus
//! diagnostics), `sarif` (SARIF 2.1.0), `github` (workflow commands) and
//! `gitlab` (Code Quality JSON).
//!
//! Every function returns a `String` or writes into a writer the caller
//! gives ([`Emitter::write_file`]); the library prints nothing. The CUDA
//! source lines that `.loc` points at are not read here: the caller passes
//! their texts in [`FileReport::sources`] (the CLI reads them from disk).

use crate::diagnostic::Diagnostic;
use crate::lints::{CheckResult, Findings};
use crate::source::{LineCol, SourceFile};
use std::collections::BTreeMap;

pub mod baseline;
mod concise;
mod full;
mod github;
mod gitlab;
mod json;
mod sarif;

pub use baseline::Baseline;
pub use full::{render_config_error, render_diagnostics};

/// An output format of `warpscope check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// rustc-style diagnostics with source snippets.
    #[default]
    Full,
    /// One line per finding: `file:line:col: level[code] message`.
    Concise,
    /// The analysis and the diagnostics as JSON (`version: 1`).
    Json,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// GitLab Code Quality report.
    Gitlab,
}

/// One checked file, ready to render.
pub struct FileReport<'a> {
    /// The PTX file.
    pub file: &'a SourceFile,
    /// What `lints::check_file` found.
    pub result: &'a CheckResult,
    /// Texts of the CUDA sources named by `.file`, by the name `.file` gives
    /// (only those the caller could read; missing ones are named in a note).
    pub sources: &'a BTreeMap<String, String>,
}

/// Which location a finding is reported at by the one-location formats
/// (`concise`, `sarif`, `github`, `gitlab`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Locations {
    /// The PTX instruction.
    #[default]
    Ptx,
    /// The CUDA (or Triton) source line from `.loc`, when the instruction
    /// has one; the PTX instruction otherwise. For CI where the PTX is
    /// generated and only the sources are in the repository.
    Source,
}

/// Rendering options.
#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    /// ANSI colours (only the `full` and `concise` formats use them).
    pub color: bool,
    /// Where the one-location formats place a finding.
    pub locations: Locations,
    /// Prefix removed from `.file` paths when findings are placed at the
    /// source (for example the checkout's absolute path followed by `/`, so
    /// that nvcc's absolute `.file` names become repository-relative).
    pub strip_prefix: Option<String>,
}

/// Where a finding is reported: a path and a 1-based range.
pub(crate) struct Place {
    pub path: String,
    pub start: LineCol,
    pub end: LineCol,
}

/// The place of diagnostic `i` of a report under `opts.locations`.
pub(crate) fn place(r: &FileReport<'_>, i: usize, opts: &RenderOptions) -> Place {
    if opts.locations == Locations::Source {
        if let Some(loc) = r.result.findings.location(i) {
            let path = match &opts.strip_prefix {
                Some(p) => loc
                    .file
                    .strip_prefix(p.as_str())
                    .unwrap_or(&loc.file)
                    .to_string(),
                None => loc.file.clone(),
            };
            let at = LineCol {
                line: loc.line.max(1),
                column: loc.column.max(1),
            };
            return Place {
                path,
                start: at,
                end: at,
            };
        }
    }
    let (start, end) = span_range(r.file, r.result.findings.span(i));
    Place {
        path: r.file.name().to_string(),
        start,
        end,
    }
}

/// Renders every file's results in one format: an [`Emitter`] fed every
/// report, then finished.
pub fn render(format: Format, reports: &[FileReport<'_>], opts: RenderOptions) -> String {
    let mut e = Emitter::new(format, opts);
    let mut out = String::new();
    for r in reports {
        out.push_str(&e.file(r));
    }
    out.push_str(&e.finish());
    out
}

/// Renders results one file at a time, so that a caller can print each
/// file's part as soon as it is checked and drop the file's analysis.
///
/// [`Emitter::file`] returns the text to print now; [`Emitter::finish`] the
/// rest. The line formats (`full`, `concise`, `github`) print everything at
/// once (`full` keeps two counters for its closing summary). `sarif` and
/// `gitlab` are one document whose only growing part is one array (SARIF's
/// `runs[0].results` comes before its `tool`, keys being sorted): they print
/// the document's opening with the first finding and each finding as it
/// comes, and the rest after the last file ([`StreamedArray`]). `json`
/// prints its opening with the first file and each file's analysis as it
/// comes (serialised straight into the writer), and keeps each file's
/// compact findings for the closing part, rendered one at a time there,
/// never an analysis: memory grows with the number of findings, not of
/// files.
pub struct Emitter {
    format: Format,
    opts: RenderOptions,
    files: usize,
    errors: usize,
    warnings: usize,
    json_diagnostics: Vec<json::Pending>,
    array: StreamedArray,
    /// `full`: the rules whose explanation note the current file has shown.
    seen_codes: std::collections::BTreeSet<&'static str>,
}

/// An array written item by item inside a JSON document whose other parts
/// do not depend on the items, giving exactly the bytes `serde_json`'s
/// pretty printer gives for the whole document.
struct StreamedArray {
    /// The whole document with the array empty, once known.
    empty: Option<String>,
    /// Where the array's `[]` is in it.
    at: usize,
    /// The indentation of the array's items.
    indent: usize,
    /// Items written so far.
    items: usize,
}

impl StreamedArray {
    fn new() -> StreamedArray {
        StreamedArray {
            empty: None,
            at: 0,
            indent: 0,
            items: 0,
        }
    }

    /// Writes one item (its pretty JSON, not indented); `empty` gives the
    /// document with the array empty, and `marker` the text that ends with
    /// the array's `[]` in it.
    fn write(
        &mut self,
        item: &str,
        empty: impl FnOnce() -> String,
        marker: &str,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        if self.items == 0 {
            let doc = self.empty.get_or_insert_with(empty);
            self.at = doc.find(marker).map_or(0, |i| i + marker.len() - 2);
            let line_start = doc[..self.at].rfind('\n').map_or(0, |i| i + 1);
            let line = &doc[line_start..];
            self.indent = line.len() - line.trim_start().len() + 2;
            out.write_all(&doc.as_bytes()[..self.at])?;
            out.write_all(b"[\n")?;
        } else {
            out.write_all(b",\n")?;
        }
        self.items += 1;
        let pad = " ".repeat(self.indent);
        for (i, line) in item.lines().enumerate() {
            if i > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(pad.as_bytes())?;
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// The rest of the document after the last item (the whole document
    /// when there was none).
    fn finish(self, empty: impl FnOnce() -> String) -> String {
        match self.empty {
            Some(doc) if self.items > 0 => {
                format!("\n{}]{}", " ".repeat(self.indent - 2), &doc[self.at + 2..])
            }
            _ => empty(),
        }
    }
}

impl Emitter {
    /// An emitter for one format.
    pub fn new(format: Format, opts: RenderOptions) -> Emitter {
        Emitter {
            format,
            opts,
            files: 0,
            errors: 0,
            warnings: 0,
            json_diagnostics: Vec::new(),
            array: StreamedArray::new(),
            seen_codes: Default::default(),
        }
    }

    /// The text for one more file (files must come in output order).
    pub fn file(&mut self, r: &FileReport<'_>) -> String {
        let first = self.files == 0;
        self.files += 1;
        match self.format {
            Format::Full => {
                let (text, e, w) = full::render_file(r, &self.opts);
                self.errors += e;
                self.warnings += w;
                text
            }
            Format::Concise => concise::render_file(r, &self.opts),
            Format::Github => github::render_file(r, &self.opts),
            Format::Json => {
                let mut out = Vec::new();
                // Writing into a vector does not fail.
                let _ = json::write_file(r, first, &mut self.json_diagnostics, &mut out);
                String::from_utf8_lossy(&out).into_owned()
            }
            Format::Sarif | Format::Gitlab => {
                self.files -= 1;
                let mut out = Vec::new();
                // Writing into a vector does not fail.
                let _ = self.write_file(r, &mut out);
                String::from_utf8_lossy(&out).into_owned()
            }
        }
    }

    /// [`Emitter::file`] written into `out` (the same bytes). The `full`
    /// format writes one finding at a time instead of building the file's
    /// whole text: a large file with many findings renders to several
    /// times its own size.
    pub fn write_file(
        &mut self,
        r: &FileReport<'_>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        match self.format {
            Format::Full => {}
            Format::Sarif => {
                self.files += 1;
                let array = &mut self.array;
                return sarif::for_each_result(r, &self.opts, |res| {
                    array.write(&pretty(&res), sarif::empty, SARIF_RESULTS, out)
                });
            }
            Format::Gitlab => {
                self.files += 1;
                let array = &mut self.array;
                return gitlab::for_each_issue(r, &self.opts, |issue| {
                    array.write(&pretty(&issue), gitlab::empty, "[]", out)
                });
            }
            Format::Json => {
                let first = self.files == 0;
                self.files += 1;
                return json::write_file(r, first, &mut self.json_diagnostics, out);
            }
            _ => {
                let text = self.file(r);
                return out.write_all(text.as_bytes());
            }
        }
        self.write_part(r, true, out)
    }

    /// Whether this format can print a file in parts ([`Emitter::write_part`]):
    /// the formats that print finding by finding (`full`, `concise`,
    /// `github`). `json`, `sarif` and `gitlab` number or fingerprint a
    /// file's findings together.
    pub fn prints_parts(&self) -> bool {
        matches!(self.format, Format::Full | Format::Concise | Format::Github)
    }

    /// Writes one part of a file's findings: the file's parts given in
    /// order (`first` for its first) write the bytes that
    /// [`Emitter::write_file`] writes for the file whole, when each part
    /// holds a stretch of the file's sorted findings (as
    /// [`crate::lints::check_file_parts`] gives them). Only for the formats
    /// of [`Emitter::prints_parts`]; the others write the part as a file.
    pub fn write_part(
        &mut self,
        r: &FileReport<'_>,
        first: bool,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        if !self.prints_parts() {
            return self.write_file(r, out);
        }
        if first {
            self.files += 1;
            self.seen_codes.clear();
        }
        match self.format {
            Format::Full => {
                let (e, w) = full::write_file(r, &self.opts, &mut self.seen_codes, out)?;
                self.errors += e;
                self.warnings += w;
                Ok(())
            }
            Format::Concise => out.write_all(concise::render_file(r, &self.opts).as_bytes()),
            _ => out.write_all(github::render_file(r, &self.opts).as_bytes()),
        }
    }

    /// The closing text, after the last file.
    pub fn finish(self) -> String {
        let mut out = Vec::new();
        // Writing into a vector does not fail.
        let _ = self.write_finish(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// [`Emitter::finish`] written into `out` (the same bytes): `json`'s
    /// diagnostics are rendered one at a time as they are written.
    pub fn write_finish(self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let text = match self.format {
            Format::Full => full::summary(self.errors, self.warnings),
            Format::Concise | Format::Github => String::new(),
            Format::Json => return json::write_finish(self.files, &self.json_diagnostics, out),
            Format::Sarif => self.array.finish(sarif::empty),
            Format::Gitlab => self.array.finish(gitlab::empty),
        };
        out.write_all(text.as_bytes())
    }
}

/// The key of SARIF's results array in the document.
const SARIF_RESULTS: &str = "\"results\": []";

fn pretty<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// Start and end (1-based) of a diagnostic's primary span.
pub(crate) fn range_of(file: &SourceFile, d: &Diagnostic) -> (LineCol, LineCol) {
    span_range(file, d.span())
}

/// Start and end (1-based) of a span.
pub(crate) fn span_range(file: &SourceFile, span: crate::source::Span) -> (LineCol, LineCol) {
    let len = file.text().len() as u32;
    let start = file.line_col(span.start.min(len));
    let end = file.line_col(span.end.min(len).max(span.start.min(len)));
    (start, end)
}

/// Stable fingerprints of a file's diagnostics (same order), each surviving
/// edits elsewhere in the file (SARIF's `partialFingerprints`, GitLab's
/// `fingerprint` and `check --baseline` all use it): FNV-1a (64-bit) over the rule code, the path, the primary line's
/// text with whitespace collapsed, and the occurrence number of that triple.
/// FNV-1a is fixed by its definition, so fingerprints are stable across
/// toolchains (unlike `std`'s `DefaultHasher`).
pub fn fingerprints(path: &str, file: &SourceFile, findings: &Findings) -> Vec<String> {
    let mut seen: BTreeMap<(String, &str), u32> = BTreeMap::new();
    (0..findings.len())
        .map(|i| {
            let code = findings.code(i);
            let (start, _) = span_range(file, findings.span(i));
            let line: String = file
                .line_text(start.line)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let n = seen.entry((line.clone(), code)).or_insert(0);
            *n += 1;
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for part in [code, path, &line, &n.to_string()] {
                for b in part.bytes().chain(std::iter::once(0u8)) {
                    h ^= b as u64;
                    h = h.wrapping_mul(0x0000_0100_0000_01b3);
                }
            }
            format!("{h:016x}")
        })
        .collect()
}

/// The message, then its notes and help, one per line (for formats whose
/// message is the only free text).
pub(crate) fn long_message(
    d: &Diagnostic,
    cuda: Option<&crate::analysis::model::SourceLocation>,
) -> String {
    let mut s = d.message.clone();
    if let Some(loc) = cuda {
        s.push_str(&format!(
            "\nsource: {}:{}:{}",
            loc.file, loc.line, loc.column
        ));
    }
    for n in &d.notes {
        s.push_str("\nnote: ");
        s.push_str(n);
    }
    if let Some(h) = &d.help {
        s.push_str("\nhelp: ");
        s.push_str(h);
    }
    s
}
