//! Diagnostics: what the front end, the semantic checks and the lints report.
//!
//! A [`Diagnostic`] is plain data (code, name, severity, message, labelled
//! spans, notes, help). It is rendered by the CLI and the language server, never
//! printed by the library. [`Diagnostic::to_codespan`] converts it to a
//! `codespan-reporting` diagnostic for rustc-style rendering.

use crate::source::Span;
use codespan_reporting::diagnostic as cs;

/// How serious a diagnostic is.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Informational.
    Note,
    /// Worth fixing; does not fail `check` unless escalated.
    Warning,
    /// Fails `check` (exit code 1).
    Error,
}

impl Severity {
    /// Lower-case name as used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A labelled span of a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What to say there (may be empty).
    pub message: String,
    /// The primary label is the one the diagnostic is about.
    pub primary: bool,
}

/// One diagnostic about one source file.
///
/// # Example
///
/// ```
/// use warpscope::{analyze, Options, Severity, SourceFile};
///
/// let file = SourceFile::from_text("bad.ptx", ".version 8.0\n.target sm_90\n.visible .entry k() { bra NOWHERE; }\n");
/// let analysis = analyze(&file, &Options::default());
/// let d = &analysis.diagnostics[0];
/// assert_eq!((d.code, d.name, d.severity), ("E0103", "unknown-label", Severity::Error));
/// assert_eq!(file.slice(d.span()), "NOWHERE");
/// // Rendered rustc-style by the CLI:
/// let text = warpscope::diagnostic::render_plain(file.name(), file.text(), &analysis.diagnostics);
/// assert!(text.contains("error[E0103]"));
/// ```
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Diagnostic {
    /// Stable code, for example `E0001` or `W101`.
    pub code: &'static str,
    /// Stable kebab-case name, for example `syntax-error`.
    pub name: &'static str,
    /// Severity after configuration was applied.
    pub severity: Severity,
    /// One-line message.
    pub message: String,
    /// Labelled spans; the first primary label is the diagnostic's location.
    pub labels: Vec<Label>,
    /// `note:` lines.
    pub notes: Vec<String>,
    /// `help:` line.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A new diagnostic with a primary label at `span`.
    pub fn new(
        code: &'static str,
        name: &'static str,
        severity: Severity,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            code,
            name,
            severity,
            message: message.into(),
            labels: vec![Label {
                span,
                message: String::new(),
                primary: true,
            }],
            notes: Vec::new(),
            help: None,
        }
    }
    /// An error from the front end.
    pub fn error(code: FrontEndCode, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code.code(), code.name(), Severity::Error, span, message)
    }
    /// Sets the primary label's message.
    pub fn with_label(mut self, message: impl Into<String>) -> Diagnostic {
        if let Some(l) = self.labels.iter_mut().find(|l| l.primary) {
            l.message = message.into();
        }
        self
    }
    /// Adds a secondary label.
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: false,
        });
        self
    }
    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
    /// The primary span (the first primary label, else the first label).
    pub fn span(&self) -> Span {
        self.labels
            .iter()
            .find(|l| l.primary)
            .or(self.labels.first())
            .map(|l| l.span)
            .unwrap_or_default()
    }
    /// Converts to a codespan-reporting diagnostic over file id `file`.
    pub fn to_codespan<F: Copy>(&self, file: F) -> cs::Diagnostic<F> {
        let severity = match self.severity {
            Severity::Note => cs::Severity::Note,
            Severity::Warning => cs::Severity::Warning,
            Severity::Error => cs::Severity::Error,
        };
        let mut notes = self.notes.clone();
        if let Some(h) = &self.help {
            notes.push(format!("help: {h}"));
        }
        cs::Diagnostic::new(severity)
            .with_code(self.code)
            .with_message(&self.message)
            .with_labels(
                self.labels
                    .iter()
                    .map(|l| {
                        let style = if l.primary {
                            cs::LabelStyle::Primary
                        } else {
                            cs::LabelStyle::Secondary
                        };
                        cs::Label::new(style, file, l.span.range()).with_message(&l.message)
                    })
                    .collect(),
            )
            .with_notes(notes)
    }
}

macro_rules! front_end_codes {
    ($($variant:ident = $code:literal, $name:literal, $doc:literal;)*) => {
        /// Codes of the front end's diagnostics (syntax and semantics). Their
        /// explanations are in [`FrontEndCode::explain`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum FrontEndCode {
            $(#[doc = $doc] $variant,)*
        }
        impl FrontEndCode {
            /// Every front-end code.
            pub const ALL: &'static [FrontEndCode] = &[$(FrontEndCode::$variant,)*];
            /// Stable code.
            pub fn code(self) -> &'static str { match self { $(FrontEndCode::$variant => $code,)* } }
            /// Stable kebab-case name.
            pub fn name(self) -> &'static str { match self { $(FrontEndCode::$variant => $name,)* } }
            /// User-facing explanation.
            pub fn explain(self) -> &'static str { match self { $(FrontEndCode::$variant => $doc,)* } }
        }
    };
}

front_end_codes! {
    SyntaxError = "E0001", "syntax-error",
        "The text is not PTX as the PTX ISA defines it: a statement could not be parsed. The parser reports what it expected, skips to the next `;` or `}` and goes on, so one mistake does not hide the rest of the file.";
    InvalidEncoding = "E0002", "invalid-encoding",
        "The file contains bytes that are not UTF-8. PTX is ASCII text; each invalid byte is read as `?` so positions stay exact.";
    UnterminatedComment = "E0003", "unterminated",
        "A block comment, string or brace-delimited body is not closed before the end of the file.";
    MissingVersion = "E0004", "missing-version",
        "The module does not begin with a `.version` directive. ptxas requires `.version` before any other directive (PTX ISA §11.3.1).";
    UnknownInstruction = "E0005", "unknown-instruction",
        "The opcode is not an instruction of the PTX ISA 9.x (for example `fmac`). The statement is kept in the tree with its operands; ptxas would reject it.";
    DeprecatedSyntax = "E0006", "deprecated-syntax",
        "The construct was removed from PTX (for example the `.tex` state space, removed in PTX ISA 1.5: declare `.global .texref` instead).";
    SassSyntaxError = "E0010", "sass-syntax-error",
        "A line of a SASS listing is none of the lines `cuobjdump -sass` or `nvdisasm` print: not an instruction (`/*0120*/ @P0 LDG.E R2, desc[UR4][R2.64] ;`), a directive, a label, a line-information comment or a header. The line is skipped and the rest of the listing is read.";
    UndeclaredRegister = "E0101", "undeclared-register",
        "An instruction uses a register that no `.reg` declaration in scope declares. ptxas rejects such a module.";
    DuplicateLabel = "E0102", "duplicate-label",
        "The same label is defined twice in one function. Branches to it are ambiguous; ptxas rejects the module.";
    UnknownLabel = "E0103", "unknown-label",
        "A branch, `brx.idx` table or call names a label or function that is not defined.";
    DuplicateDeclaration = "E0104", "duplicate-declaration",
        "A register, parameter or variable is declared twice in the same scope.";
    UndeclaredSymbol = "E0105", "undeclared-symbol",
        "An operand names a variable, parameter or function that is not declared in the module or function.";
}

/// A front end's result `(tree, diagnostics)` with one error added per
/// invalid UTF-8 byte of `file`, all sorted by position: what both parsers
/// (PTX and SASS) say about a file's encoding, written once.
pub fn with_encoding_diagnostics<T>(
    file: &crate::source::SourceFile,
    (tree, mut diags): (T, Vec<Diagnostic>),
) -> (T, Vec<Diagnostic>) {
    for &off in file.invalid_bytes() {
        diags.push(
            Diagnostic::error(
                FrontEndCode::InvalidEncoding,
                Span::new(off, off + 1),
                "invalid UTF-8 byte",
            )
            .with_label("not UTF-8 (read as `?`)"),
        );
    }
    diags.sort_by_key(|d| d.span().start);
    (tree, diags)
}

/// Renders diagnostics rustc-style (codespan-reporting), without colour, to a
/// string. `name` is the file name shown, `text` the file's text.
pub fn render_plain(name: &str, text: &str, diagnostics: &[Diagnostic]) -> String {
    use codespan_reporting::files::SimpleFile;
    use codespan_reporting::term::{self, termcolor::NoColor};
    let file = SimpleFile::new(name, text);
    let mut buf = NoColor::new(Vec::new());
    let config = term::Config::default();
    for d in diagnostics {
        // Rendering into memory only fails on spans outside the file; fall
        // back to a one-line form so nothing is lost.
        if term::emit(&mut buf, &config, &file, &d.to_codespan(())).is_err() {
            let line = format!(
                "{}[{}]: {} (at byte {})\n",
                d.severity.as_str(),
                d.code,
                d.message,
                d.span().start
            );
            buf.get_mut().extend_from_slice(line.as_bytes());
        }
    }
    String::from_utf8_lossy(&buf.into_inner()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_end_codes_are_unique() {
        let mut codes: Vec<_> = FrontEndCode::ALL.iter().map(|c| c.code()).collect();
        let mut names: Vec<_> = FrontEndCode::ALL.iter().map(|c| c.name()).collect();
        codes.sort();
        names.sort();
        let n = codes.len();
        codes.dedup();
        names.dedup();
        assert_eq!(codes.len(), n);
        assert_eq!(names.len(), n);
    }
}
