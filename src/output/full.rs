//! `full`: rustc-style diagnostics rendered by codespan-reporting.

use super::{FileReport, RenderOptions};
use crate::config::ConfigError;
use crate::diagnostic::Diagnostic;
use codespan_reporting::diagnostic::{self as cs, LabelStyle};
use codespan_reporting::files::{self, SimpleFiles};
use codespan_reporting::term::{self, termcolor::Buffer};

/// The PTX file and the CUDA sources `.loc` names, as codespan's file
/// database: id 0 is the PTX file, read through its own line index
/// (codespan's `SimpleFile` would build another, 8 bytes a line, each time
/// a file or a part of one is printed: 17 MB and a pass over the text for
/// the largest cuBLAS file); the same lines and errors as `SimpleFile`.
struct Sources<'a> {
    ptx: &'a crate::source::SourceFile,
    cuda: SimpleFiles<String, &'a str>,
}

impl<'a> Sources<'a> {
    /// Adds a CUDA source; returns its id.
    fn add(&mut self, name: String, text: &'a str) -> usize {
        self.cuda.add(name, text) + 1
    }

    /// The text of CUDA source `id`.
    fn cuda_source(&self, id: usize) -> Option<&'a str> {
        let f = self.cuda.get(id.checked_sub(1)?).ok()?;
        Some(*f.source())
    }

    /// Where 0-based line `line` of the PTX file starts (its end for the
    /// line after the last), as `SimpleFile::line_start`.
    fn ptx_line_start(&self, line: usize) -> Result<usize, files::Error> {
        let lines = self.ptx.line_count();
        match line.cmp(&lines) {
            std::cmp::Ordering::Less => Ok(self.ptx.line_start(line).unwrap_or(0) as usize),
            std::cmp::Ordering::Equal => Ok(self.ptx.text().len()),
            std::cmp::Ordering::Greater => Err(files::Error::LineTooLarge {
                given: line,
                max: lines - 1,
            }),
        }
    }
}

impl<'f> files::Files<'f> for Sources<'_> {
    type FileId = usize;
    type Name = String;
    type Source = &'f str;

    fn name(&'f self, id: usize) -> Result<String, files::Error> {
        match id {
            0 => Ok(self.ptx.name().to_string()),
            _ => self.cuda.name(id - 1),
        }
    }

    fn source(&'f self, id: usize) -> Result<&'f str, files::Error> {
        match id {
            0 => Ok(self.ptx.text()),
            _ => self.cuda.source(id - 1),
        }
    }

    fn line_index(&'f self, id: usize, byte_index: usize) -> Result<usize, files::Error> {
        match id {
            0 => Ok(self
                .ptx
                .line_index(u32::try_from(byte_index).unwrap_or(u32::MAX))),
            _ => self.cuda.line_index(id - 1, byte_index),
        }
    }

    fn line_range(
        &'f self,
        id: usize,
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, files::Error> {
        match id {
            0 => Ok(self.ptx_line_start(line_index)?..self.ptx_line_start(line_index + 1)?),
            _ => self.cuda.line_range(id - 1, line_index),
        }
    }
}

fn config() -> term::Config {
    term::Config::default()
}

fn buffer(color: bool) -> Buffer {
    if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    }
}

/// Renders every diagnostic of one file; returns the text and the numbers
/// of errors and warnings (for the closing [`summary`]).
pub(super) fn render_file(r: &FileReport<'_>, opts: &RenderOptions) -> (String, usize, usize) {
    let mut out = Vec::new();
    // Writing into a vector does not fail.
    let (errors, warnings) =
        write_file(r, opts, &mut Default::default(), &mut out).unwrap_or_default();
    let out = match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    (out, errors, warnings)
}

/// [`render_file`] into `out`, one diagnostic at a time (the text of a
/// file with many findings can be several times the size of the file:
/// it is not held whole). Returns the numbers of errors and warnings.
/// `seen_codes` holds the rules whose explanation note the file has shown
/// (empty for a whole file; kept between the parts of one file, so that
/// its parts render as the whole does).
pub(super) fn write_file(
    r: &FileReport<'_>,
    opts: &RenderOptions,
    seen_codes: &mut std::collections::BTreeSet<&'static str>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<(usize, usize)> {
    let mut buf = buffer(opts.color);
    let cfg = config();
    let (mut errors, mut warnings) = (0usize, 0usize);
    {
        // The sources are borrowed, not copied: the PTX text may be large.
        let mut files = Sources {
            ptx: r.file,
            cuda: SimpleFiles::new(),
        };
        let ptx = 0;
        let mut cuda_ids = std::collections::BTreeMap::new();
        for (i, d) in r.result.findings.iter().enumerate() {
            match d.severity {
                crate::diagnostic::Severity::Error => errors += 1,
                crate::diagnostic::Severity::Warning => warnings += 1,
                crate::diagnostic::Severity::Note => {}
            }
            let mut cd = to_codespan(&d, ptx);
            if seen_codes.insert(d.code) {
                // Once per rule, before the help line.
                let at = cd.notes.len() - usize::from(d.help.is_some());
                cd.notes.insert(
                    at,
                    format!("note: `warpscope explain {}` explains `{}`", d.code, d.name),
                );
            }
            if let Some(loc) = r.result.findings.location(i) {
                let id = r.sources.get(&loc.file).map(|text| {
                    *cuda_ids
                        .entry(loc.file.clone())
                        .or_insert_with(|| files.add(loc.file.clone(), text.as_str()))
                });
                match id.and_then(|id| files.cuda_source(id).map(|text| (id, text))) {
                    Some((id, text)) => {
                        if let Some(range) = line_range(text, loc.line, loc.column) {
                            cd.labels.push(
                                cs::Label::new(LabelStyle::Secondary, id, range)
                                    .with_message("CUDA source (`.loc`)"),
                            );
                        } else {
                            cd.notes.insert(
                                0,
                                format!(
                                    "note: CUDA source: {}:{}:{} (past the end of the file)",
                                    loc.file, loc.line, loc.column
                                ),
                            );
                        }
                    }
                    None => cd.notes.insert(
                        0,
                        format!(
                            "note: CUDA source: {}:{}:{} (not readable here)",
                            loc.file, loc.line, loc.column
                        ),
                    ),
                }
            }
            if term::emit(&mut buf, &cfg, &files, &cd).is_err() {
                // A span codespan cannot place: never drop the finding.
                let (start, _) = super::range_of(r.file, &d);
                let line = format!(
                    "{}[{}]: {}\n  --> {}:{}:{}\n\n",
                    d.severity.as_str(),
                    d.code,
                    d.message,
                    r.file.name(),
                    start.line,
                    start.column
                );
                let _ = std::io::Write::write_all(&mut buf, line.as_bytes());
            }
            // Each diagnostic's text is whole UTF-8 pieces (codespan writes
            // `str`s): converting diagnostic by diagnostic gives the same
            // text as converting the file's whole output at once.
            out.write_all(String::from_utf8_lossy(buf.as_slice()).as_bytes())?;
            buf.clear();
        }
    }
    Ok((errors, warnings))
}

/// A codespan diagnostic in rustc's shape: `warning[W101]: message`, labels,
/// then `note:` lines and a `help:` line.
fn to_codespan(d: &Diagnostic, file: usize) -> cs::Diagnostic<usize> {
    let mut cd = d.to_codespan(file).with_code(d.code);
    cd.notes = d.notes.iter().map(|n| format!("note: {n}")).collect();
    if let Some(h) = &d.help {
        cd.notes.push(format!("help: {h}"));
    }
    cd
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// The closing line (`found 2 errors and 1 warning`), empty when nothing was found.
pub(super) fn summary(errors: usize, warnings: usize) -> String {
    match (errors, warnings) {
        (0, 0) => String::new(),
        (0, w) => format!("found {}\n", plural(w, "warning")),
        (e, 0) => format!("found {}\n", plural(e, "error")),
        (e, w) => format!(
            "found {} and {}\n",
            plural(e, "error"),
            plural(w, "warning")
        ),
    }
}

/// The byte range of a 1-based line (from a 1-based column when given,
/// trimmed of indentation and line end), or `None` if the line is not there.
fn line_range(text: &str, line: u32, column: u32) -> Option<std::ops::Range<usize>> {
    let start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line as usize - 2)
            .map(|(i, _)| i + 1)?
    };
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let body = text[start..end].trim_end();
    let indent = body.len() - body.trim_start().len();
    let from = if column > 0
        && (column as usize - 1) < body.len()
        && body.is_char_boundary(column as usize - 1)
    {
        (column as usize - 1).max(indent)
    } else {
        indent
    };
    let to = start + body.len();
    Some(start + from..to.max(start + from))
}

/// Renders a configuration error (unknown key, wrong type) with the file's
/// text and a label on the key, like any other diagnostic.
pub fn render_config_error(e: &ConfigError, color: bool) -> String {
    let mut buf = buffer(color);
    let mut files = SimpleFiles::new();
    let id = files.add(e.path.display().to_string(), e.text.clone());
    let d = match e.span {
        Some(span) if span.end as usize <= e.text.len() => cs::Diagnostic::error()
            .with_message(format!("invalid configuration: {}", e.message))
            .with_labels(vec![
                cs::Label::primary(id, span.range()).with_message(e.message.clone())
            ]),
        _ => cs::Diagnostic::error().with_message(format!(
            "cannot use configuration file {}: {}",
            e.path.display(),
            e.message
        )),
    };
    let _ = term::emit(&mut buf, &config(), &files, &d);
    String::from_utf8_lossy(buf.as_slice()).into_owned()
}

/// Renders diagnostics about one file without a check result (used by
/// callers that only have front-end diagnostics).
pub fn render_diagnostics(
    file: &crate::source::SourceFile,
    diags: &[Diagnostic],
    color: bool,
) -> String {
    let mut buf = buffer(color);
    let mut files = SimpleFiles::new();
    let id = files.add(file.name().to_string(), file.text().to_string());
    for d in diags {
        let _ = term::emit(&mut buf, &config(), &files, &to_codespan(d, id));
    }
    String::from_utf8_lossy(buf.as_slice()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_range_trims_and_honours_column() {
        let t = "a\n    out[x] = in[y];\n";
        assert_eq!(&t[line_range(t, 2, 0).unwrap()], "out[x] = in[y];");
        assert_eq!(&t[line_range(t, 2, 14).unwrap()], "in[y];");
        assert!(line_range(t, 9, 0).is_none());
    }
}
