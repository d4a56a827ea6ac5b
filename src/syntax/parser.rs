//! The recovering PTX parser.
//!
//! Token-level productions (identifiers, numbers, strings, the mnemonic) are
//! nom parsers over `&str`; statement-level productions sequence them. Every
//! production records the byte span it consumed, computed from the distance
//! of its input to the end of the module text (all inputs are suffixes of the
//! source, so `offset = src.len() - rest.len()`).
//!
//! **Recovery.** A statement that fails to parse yields one diagnostic (what
//! was expected, at the offending token) and a [`StmtKind::Error`] /
//! [`ItemKind::Error`] node; the parser then skips to just after the next `;`,
//! or to the next `{`/`}`, and continues. Inside a function body `{` and `}`
//! are never skipped over, so scopes stay balanced. Every loop consumes at least
//! one byte per iteration, so parsing terminates on any input, and the only
//! allocations are nodes for text actually present, so memory is linear in the
//! input.

use super::ast::*;
use crate::diagnostic::{with_encoding_diagnostics, Diagnostic, FrontEndCode};
use crate::source::Span;
use nom::bytes::complete::{take_while, take_while1};

use nom::character::complete::{char, digit1};
use nom::combinator::{opt, recognize};
use nom::error::{ErrorKind, ParseError};
use nom::{IResult, Parser as _};

/// A parse error: where, and what was expected there.
#[derive(Debug, Clone)]
pub(crate) struct PErr<'a> {
    at: &'a str,
    expected: &'static str,
}

impl<'a> ParseError<&'a str> for PErr<'a> {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        PErr {
            at: input,
            expected: "",
        }
    }
    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }
}

const MISSING_SEMI: &str = "`;` at the end of the instruction";

type PResult<'a, T> = IResult<&'a str, T, PErr<'a>>;

fn fail<'a, T>(at: &'a str, expected: &'static str) -> PResult<'a, T> {
    Err(nom::Err::Error(PErr { at, expected }))
}

/// Attaches `what` to an error that has no expectation yet.
fn expect<'a, T>(r: PResult<'a, T>, what: &'static str) -> PResult<'a, T> {
    r.map_err(|e| {
        e.map(|mut p| {
            if p.expected.is_empty() {
                p.expected = what;
            }
            p
        })
    })
}

/// Parses a PTX module. Never fails: returns the module and its diagnostics.
pub fn parse(src: &str) -> (Module<'_>, Vec<Diagnostic>) {
    parse_with(src, false, None)
}

/// [`parse`] that keeps no function body: each body is parsed (its
/// diagnostics, the unknown-instruction ones included, are those of
/// [`parse`], in the same order) and then dropped, leaving a [`Body`] with
/// its span and no statements, so that no more than one body is ever alive.
/// [`parse_body`] parses one of them again from the text. `check` and
/// `report` work on such a module one function at a time
/// ([`crate::pipeline::analyze_each`]).
pub fn parse_lazy(src: &str) -> (Module<'_>, Vec<Diagnostic>) {
    parse_with(src, true, None)
}

/// [`parse_lazy`] that hands each function with a body to `on_body`, its
/// body complete, before dropping the body (`parse --stats` counts the
/// statements there).
pub fn parse_lazy_with<'a>(
    src: &'a str,
    on_body: &mut dyn FnMut(&Function<'a>),
) -> (Module<'a>, Vec<Diagnostic>) {
    parse_with(src, true, Some(on_body))
}

fn parse_with<'a>(
    src: &'a str,
    lazy: bool,
    on_body: Option<&mut dyn FnMut(&Function<'a>)>,
) -> (Module<'a>, Vec<Diagnostic>) {
    let mut p = Parser {
        lazy,
        on_body,
        ..Parser::new(src)
    };
    p.module_items();
    p.module_checks();
    (p.module, p.diags)
}

/// Parses again the body that [`parse_lazy`] (or [`parse`]) found at `span`
/// of `src` (from its `{` to the end of its `}`): the same statements as the
/// whole-module parse gives, spans absolute in `src`. Its diagnostics are
/// dropped (the module's parse reported them). A span that does not start at
/// a `{` of `src` gives an empty body.
pub fn parse_body(src: &str, span: Span) -> Body<'_> {
    let start = span.start as usize;
    let Some(at) = src.get(start..).filter(|r| r.starts_with('{')) else {
        return Body {
            span,
            statements: Vec::new(),
        };
    };
    let mut p = Parser::new(src);
    let (_, body) = p.body(at);
    debug_assert_eq!(body.span, span, "a body parses to the same extent twice");
    body
}

/// A module whose function bodies are found but not parsed: each [`Body`]
/// has its span (from its `{` to the end of its `}`, by a scan that skips
/// comments and strings and counts braces) and no statements. Module-level
/// items and diagnostics are those of [`parse_lazy`] when every body is
/// well formed; a body that does not parse to the same extent (a brace in
/// a place the scan reads differently, an unterminated body) can make them
/// differ, which [`parse_body_checked`] reports by returning another span.
/// For a caller that parses the bodies itself, in parallel
/// (`parse --stats`).
pub fn parse_skeleton(src: &str) -> (Module<'_>, Vec<Diagnostic>) {
    let mut p = Parser {
        skeleton: true,
        ..Parser::new(src)
    };
    p.module_items();
    p.module_checks();
    (p.module, p.diags)
}

/// [`parse_file`] with [`parse_skeleton`].
pub fn parse_file_skeleton(file: &crate::source::SourceFile) -> (Module<'_>, Vec<Diagnostic>) {
    with_encoding_diagnostics(file, parse_skeleton(file.text()))
}

/// Parses the body at `span` of `src` (a span of [`parse_skeleton`]) with
/// its diagnostics: the parser's and the body's checks of the module parse
/// (unknown opcodes, removed state spaces), in that order. The body's span
/// is the extent the parser found, which is `span` exactly when the
/// skeleton's scan agreed with the parser. `None` when `span` does not start
/// at a `{` of `src`.
pub fn parse_body_checked(src: &str, span: Span) -> Option<(Body<'_>, Vec<Diagnostic>)> {
    let at = src
        .get(span.start as usize..)
        .filter(|r| r.starts_with('{'))?;
    let mut p = Parser::new(src);
    let (_, body) = p.body(at);
    let mut found = Vec::new();
    p.check_body(&body, &mut found);
    p.diags.extend(found);
    Some((body, p.diags))
}

/// Parses a [`SourceFile`](crate::source::SourceFile): [`parse`] plus a
/// diagnostic for each invalid UTF-8 sequence of the original bytes.
pub fn parse_file(file: &crate::source::SourceFile) -> (Module<'_>, Vec<Diagnostic>) {
    with_encoding_diagnostics(file, parse(file.text()))
}

/// [`parse_file`] with [`parse_lazy`]: no function body is kept.
pub fn parse_file_lazy(file: &crate::source::SourceFile) -> (Module<'_>, Vec<Diagnostic>) {
    with_encoding_diagnostics(file, parse_lazy(file.text()))
}

/// [`parse_file`] with [`parse_lazy_with`].
pub fn parse_file_lazy_with<'a>(
    file: &'a crate::source::SourceFile,
    on_body: &mut dyn FnMut(&Function<'a>),
) -> (Module<'a>, Vec<Diagnostic>) {
    with_encoding_diagnostics(file, parse_lazy_with(file.text(), on_body))
}

struct Parser<'a, 'f> {
    src: &'a str,
    module: Module<'a>,
    diags: Vec<Diagnostic>,
    /// Depth of nested `{ }`, `( )`, `[ ]` in operands and initializers.
    nesting: u32,
    /// Operands of the instruction being parsed: each instruction's list is
    /// then allocated once at its exact length (most have one to three, and
    /// a growing `Vec` would reserve four).
    scratch: Vec<Operand<'a>>,
    /// Drop each function body once parsed ([`parse_lazy`]).
    lazy: bool,
    /// Do not parse function bodies: find each one's end by a scan of its
    /// braces, comments and strings ([`parse_skeleton`]).
    skeleton: bool,
    /// With `lazy`: the bodies' checks of [`Parser::module_checks`], made
    /// before each body was dropped, in function order.
    body_checks: Vec<Diagnostic>,
    /// With `lazy`: called with each function, its body complete, before
    /// the body is dropped ([`parse_lazy_with`]).
    on_body: Option<&'f mut dyn FnMut(&Function<'a>)>,
}

/// Deepest nesting of operand and initializer brackets accepted; real PTX
/// nests at most three deep. The limit keeps recursion off the stack's end.
const MAX_NESTING: u32 = 64;

#[inline]
fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'%'
}
#[inline]
fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

impl<'a> Parser<'a, '_> {
    /// A parser of `src` that parses bodies and keeps them, with no callback.
    fn new(src: &'a str) -> Self {
        Parser {
            src,
            module: Module::default(),
            diags: Vec::new(),
            nesting: 0,
            scratch: Vec::new(),
            lazy: false,
            skeleton: false,
            body_checks: Vec::new(),
            on_body: None,
        }
    }

    #[inline]
    fn off(&self, rest: &str) -> u32 {
        (self.src.len() - rest.len()) as u32
    }
    #[inline]
    fn span(&self, from: &str, to: &str) -> Span {
        Span::new(self.off(from), self.off(to))
    }

    /// Skips white space and comments. An unterminated block comment is
    /// reported and consumes the rest of the input.
    #[inline]
    fn ws(&mut self, i: &'a str) -> &'a str {
        // Fast path: most tokens are not preceded by anything to skip.
        match i.as_bytes().first() {
            Some(c) if c.is_ascii_whitespace() || *c == b'/' => self.ws_slow(i),
            _ => i,
        }
    }

    fn ws_slow(&mut self, i: &'a str) -> &'a str {
        let b = i.as_bytes();
        let mut k = 0;
        loop {
            while k < b.len() && b[k].is_ascii_whitespace() {
                k += 1;
            }
            if k + 1 < b.len() && b[k] == b'/' {
                if b[k + 1] == b'/' {
                    k += 2;
                    while k < b.len() && b[k] != b'\n' {
                        k += 1;
                    }
                    continue;
                } else if b[k + 1] == b'*' {
                    let start = k;
                    k += 2;
                    loop {
                        if k + 1 >= b.len() {
                            let at = self.off(&i[start..]);
                            self.diags.push(
                                Diagnostic::error(
                                    FrontEndCode::UnterminatedComment,
                                    Span::new(at, at + 2),
                                    "unterminated block comment",
                                )
                                .with_label("comment starts here and is never closed with `*/`"),
                            );
                            return &i[b.len()..];
                        }
                        if b[k] == b'*' && b[k + 1] == b'/' {
                            k += 2;
                            break;
                        }
                        k += 1;
                    }
                    continue;
                }
            }
            break;
        }
        &i[k..]
    }

    fn ident(&self, i: &'a str) -> PResult<'a, Ident<'a>> {
        let b = i.as_bytes();
        if b.is_empty() || !is_ident_start(b[0]) {
            // No expectation: the caller's context says what was wanted.
            return fail(i, "");
        }
        // [a-zA-Z][a-zA-Z0-9_$]* | [_$%][a-zA-Z0-9_$]+ (PTX ISA ch.4
        // Identifiers), scanned bytewise: this is the parser's hottest loop.
        let mut k = 1;
        while k < b.len() && is_ident_char(b[k]) {
            k += 1;
        }
        if k == 1 && (b[0] == b'%' || b[0] == b'$') {
            return fail(i, "");
        }
        let (text, rest) = i.split_at(k);
        Ok((
            rest,
            Ident {
                text,
                span: self.span(i, rest),
            },
        ))
    }

    /// A `.word` directive token (with its dot).
    fn dot_word(&self, i: &'a str) -> PResult<'a, Ident<'a>> {
        let (rest, text) = recognize((
            char('.'),
            take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_'),
        ))
        .parse(i)?;
        Ok((
            rest,
            Ident {
                text,
                span: self.span(i, rest),
            },
        ))
    }

    fn string(&self, i: &'a str) -> PResult<'a, Ident<'a>> {
        let (rest, _) = char('"').parse(i)?;
        match rest.find(['"', '\n']) {
            Some(k) if rest.as_bytes()[k] == b'"' => {
                let text = &rest[..k];
                let after = &rest[k + 1..];
                Ok((
                    after,
                    Ident {
                        text,
                        span: self.span(rest, &rest[k..]),
                    },
                ))
            }
            _ => fail(i, "a closing `\"`"),
        }
    }

    fn uint(&self, i: &'a str) -> PResult<'a, u64> {
        match self.number(i)? {
            (rest, Num::Int(v)) if v >= 0 => Ok((rest, v as u64)),
            (rest, Num::UInt(v)) => Ok((rest, v)),
            _ => fail(i, "a non-negative integer"),
        }
    }

    /// Integer and floating-point literals, with an optional leading `-`.
    fn number(&self, i: &'a str) -> PResult<'a, Num> {
        let (rest, neg) = opt(char('-')).parse(i)?;
        let neg = neg.is_some();
        let b = rest.as_bytes();
        if b.is_empty() || !b[0].is_ascii_digit() {
            return fail(i, "a number");
        }
        // 0f / 0d hexadecimal floats.
        if b.len() >= 2 && b[0] == b'0' && matches!(b[1], b'f' | b'F' | b'd' | b'D') {
            let digits = if matches!(b[1], b'f' | b'F') { 8 } else { 16 };
            let hex = &rest[2..];
            let n = hex.bytes().take_while(|c| c.is_ascii_hexdigit()).count();
            if n != digits {
                return fail(
                    &rest[2..],
                    if digits == 8 {
                        "8 hex digits after `0f`"
                    } else {
                        "16 hex digits after `0d`"
                    },
                );
            }
            let bits = u64::from_str_radix(&hex[..n], 16).unwrap_or(0);
            let v = if digits == 8 {
                f32::from_bits(bits as u32) as f64
            } else {
                f64::from_bits(bits)
            };
            return Ok((&hex[n..], Num::Float(if neg { -v } else { v })));
        }
        let (radix, body_start) = if b.len() >= 2 && b[0] == b'0' && matches!(b[1], b'x' | b'X') {
            (16, 2)
        } else if b.len() >= 2 && b[0] == b'0' && matches!(b[1], b'b' | b'B') {
            (2, 2)
        } else if b.len() >= 2 && b[0] == b'0' && b[1].is_ascii_digit() {
            (8, 1)
        } else {
            (10, 0)
        };
        if radix == 10 {
            // Decimal float?
            let (after_int, _) = digit1.parse(rest)?;
            let ab = after_int.as_bytes();
            let is_float =
                (!ab.is_empty() && ab[0] == b'.' && ab.get(1).is_some_and(|c| c.is_ascii_digit()))
                    || (!ab.is_empty()
                        && matches!(ab[0], b'e' | b'E')
                        && ab
                            .get(1)
                            .is_some_and(|c| c.is_ascii_digit() || *c == b'-' || *c == b'+'));
            if is_float {
                let (r, text) = recognize((
                    digit1,
                    opt((char('.'), take_while(|c: char| c.is_ascii_digit()))),
                    opt((
                        nom::character::complete::one_of("eE"),
                        opt(nom::character::complete::one_of("+-")),
                        digit1,
                    )),
                ))
                .parse(rest)?;
                let v: f64 = text.parse().unwrap_or(f64::NAN);
                return Ok((r, Num::Float(if neg { -v } else { v })));
            }
        }
        let digits = &rest[body_start..];
        let n = digits
            .bytes()
            .take_while(|c| match radix {
                16 => c.is_ascii_hexdigit(),
                2 => matches!(c, b'0' | b'1'),
                8 => (b'0'..=b'7').contains(c),
                _ => c.is_ascii_digit(),
            })
            .count();
        if n == 0 {
            return fail(digits, "digits");
        }
        let mut r = &digits[n..];
        let unsigned = r.starts_with('U');
        if unsigned {
            r = &r[1..];
        }
        if r.as_bytes().first().is_some_and(|&c| is_ident_char(c)) {
            return fail(r, "the end of the number");
        }
        let Ok(v) = u64::from_str_radix(&digits[..n], radix) else {
            return fail(rest, "an integer that fits in 64 bits");
        };
        let v = if neg {
            Num::Int((v as i64).wrapping_neg())
        } else if v > i64::MAX as u64 {
            Num::UInt(v)
        } else {
            Num::Int(v as i64)
        };
        Ok((r, v))
    }

    /// Reports an error and returns the input after recovery: just after the
    /// next `;`, or at the next `{`/`}` (not consumed), or at the end.
    fn recover(&mut self, e: nom::Err<PErr<'a>>, stmt_start: &'a str, what: &str) -> &'a str {
        let (at, expected) = match e {
            nom::Err::Error(p) | nom::Err::Failure(p) => (p.at, p.expected),
            nom::Err::Incomplete(_) => (&stmt_start[stmt_start.len()..], ""),
        };
        let at_off = self.off(at);
        let found = at.chars().next();
        let tok_len = at
            .bytes()
            .take_while(|&c| is_ident_char(c) || c == b'.' || c == b'%')
            .count()
            .max(found.map_or(0, |c| c.len_utf8()));
        if expected == MISSING_SEMI {
            self.diags.push(
                Diagnostic::error(
                    FrontEndCode::SyntaxError,
                    Span::new(at_off, at_off),
                    "missing `;` at the end of the instruction",
                )
                .with_label("expected `;` here")
                .with_note("the parser went on with the next line"),
            );
            // Resume at the next line's statement instead of swallowing it.
            let next = self.ws(at);
            if next.len() < at.len() {
                return next;
            }
        } else {
            let found_desc = match found {
                None => "end of file".to_string(),
                Some(c) if c.is_control() => format!("{c:?}"),
                Some(_) => format!("`{}`", &at[..tok_len]),
            };
            let expected = if expected.is_empty() {
                "valid syntax"
            } else {
                expected
            };
            let msg = format!("expected {expected} in {what}, found {found_desc}");
            let d = Diagnostic::error(
                FrontEndCode::SyntaxError,
                Span::new(at_off, at_off + tok_len as u32),
                msg,
            )
            .with_label(format!("expected {expected}"))
            .with_note("the parser skipped to the next `;` or `}` and went on");
            self.diags.push(d);
        }
        // Skip forward from the error position (never backwards).
        let from = if self.off(at) >= self.off(stmt_start) {
            at
        } else {
            stmt_start
        };
        let b = from.as_bytes();
        let mut k = 0;
        while k < b.len() {
            match b[k] {
                b';' => return &from[k + 1..],
                b'{' | b'}' => {
                    if k == 0 && self.off(from) == self.off(stmt_start) {
                        // Guarantee progress on a statement that is a lone brace.
                        return &from[1..];
                    }
                    return &from[k..];
                }
                _ => k += 1,
            }
        }
        &from[b.len()..]
    }

    // ----------------------------------------------------------------- module

    /// Checks that need the whole module: `.version` first, known opcodes,
    /// removed state spaces.
    fn module_checks(&mut self) {
        let first = self
            .module
            .items
            .iter()
            .find(|i| !matches!(i.kind, ItemKind::Error));
        if let Some(first) = first {
            if !matches!(first.kind, ItemKind::Version { .. }) {
                self.diags.push(
                    Diagnostic::error(
                        FrontEndCode::MissingVersion,
                        Span::new(first.span.start, first.span.start),
                        "missing `.version` directive",
                    )
                    .with_label("the module should start with `.version`")
                    .with_help("add a line such as `.version 8.5` before everything else"),
                );
            }
        }
        let mut found = Vec::new();
        for item in &self.module.items {
            if let ItemKind::Var(v) = &item.kind {
                if v.space == StateSpace::Tex {
                    found.push(tex_diag(v.span));
                }
            }
        }
        if self.lazy {
            found.append(&mut self.body_checks);
        } else {
            for f in &self.module.functions {
                let Some(body) = &f.body else { continue };
                self.check_body(body, &mut found);
            }
        }
        self.diags.extend(found);
    }

    /// The checks of [`Parser::module_checks`] on one body: unknown opcodes,
    /// removed state spaces.
    fn check_body(&self, body: &Body<'a>, found: &mut Vec<Diagnostic>) {
        for st in &body.statements {
            match &st.kind {
                StmtKind::Instruction(ins) if !super::opcodes::is_known(ins.opcode()) => {
                    let op = ins.opcode();
                    // The mnemonic is a slice of the source: its address
                    // less the source's is where it starts.
                    let start =
                        (ins.mnemonic.as_ptr() as usize - self.src.as_ptr() as usize) as u32;
                    let sp = Span::new(start, start + op.len() as u32);
                    let mut d = Diagnostic::new(
                        FrontEndCode::UnknownInstruction.code(),
                        FrontEndCode::UnknownInstruction.name(),
                        crate::diagnostic::Severity::Warning,
                        sp,
                        format!("`{op}` is not a PTX instruction"),
                    )
                    .with_label("unknown opcode");
                    if let Some(s) = super::opcodes::suggest(op) {
                        d = d.with_help(format!("did you mean `{s}`?"));
                    }
                    found.push(d);
                }
                StmtKind::Var(v) if v.space == StateSpace::Tex => found.push(tex_diag(v.span)),
                _ => {}
            }
        }
    }

    fn module_items(&mut self) {
        let mut i = self.src;
        loop {
            i = self.ws(i);
            if i.is_empty() {
                break;
            }
            let start = i;
            match self.item(i) {
                Ok((rest, Some(kind))) => {
                    let span = self.span(start, rest);
                    self.module.items.push(Item { span, kind });
                    i = rest;
                }
                Ok((rest, None)) => i = rest,
                Err(e) => {
                    let mut rest = self.recover(e, start, "a module-level statement");
                    // At top level a `{` starts a body we cannot attach: skip it whole.
                    if rest.starts_with('{') {
                        rest = skip_balanced(rest);
                    } else if rest.starts_with('}') {
                        rest = &rest[1..];
                    }
                    let span = self.span(start, rest);
                    self.module.items.push(Item {
                        span,
                        kind: ItemKind::Error,
                    });
                    i = rest;
                }
            }
        }
    }

    fn item(&mut self, i: &'a str) -> PResult<'a, Option<ItemKind<'a>>> {
        let (rest, word) = expect(
            self.dot_word(i),
            "a directive such as `.version`, `.entry` or `.global`",
        )?;
        match word.text {
            ".version" => {
                let r = self.ws(rest);
                let (r2, major) = expect(digit1.parse(r), "a version such as 8.5")?;
                let (r2, _) = expect(char('.').parse(r2), "`.` in the version")?;
                let (r2, minor) = expect(digit1.parse(r2), "a minor version")?;
                Ok((
                    r2,
                    Some(ItemKind::Version {
                        major: major.parse().unwrap_or(0),
                        minor: minor.parse().unwrap_or(0),
                    }),
                ))
            }
            ".target" => {
                let mut targets = Vec::new();
                let mut r = self.ws(rest);
                loop {
                    let (r2, t) = expect(self.ident(r), "a target such as sm_90")?;
                    targets.push(t);
                    r = self.ws(r2);
                    if let Some(r3) = r.strip_prefix(',') {
                        r = self.ws(r3);
                    } else {
                        break;
                    }
                }
                Ok((r, Some(ItemKind::Target(targets))))
            }
            ".address_size" => {
                let r = self.ws(rest);
                let (r, n) = expect(self.uint(r), "32 or 64")?;
                Ok((r, Some(ItemKind::AddressSize(n as u32))))
            }
            ".file" => {
                let r = self.ws(rest);
                let (r, index) = expect(self.uint(r), "a file number")?;
                let r = self.ws(r);
                let (mut r, name) = expect(self.string(r), "a quoted file name")?;
                let mut extra = Vec::new();
                loop {
                    let r2 = self.ws(r);
                    let Some(r3) = r2.strip_prefix(',') else {
                        break;
                    };
                    let r3 = self.ws(r3);
                    let (r4, v) = expect(self.uint(r3), "a timestamp or size")?;
                    extra.push(v);
                    r = r4;
                }
                Ok((
                    r,
                    Some(ItemKind::File(FileDecl {
                        index: index as u32,
                        name,
                        timestamp: extra.first().copied(),
                        size: extra.get(1).copied(),
                    })),
                ))
            }
            ".section" => self.section(rest),
            ".alias" => {
                let r = self.ws(rest);
                let (r, alias) = expect(self.ident(r), "the alias name")?;
                let r = self.ws(r);
                let (r, _) = expect(char(',').parse(r), "`,`")?;
                let r = self.ws(r);
                let (r, target) = expect(self.ident(r), "the aliased function")?;
                let r = self.ws(r);
                let (r, _) = expect(char(';').parse(r), "`;`")?;
                Ok((r, Some(ItemKind::Alias { alias, target })))
            }
            ".pragma" => {
                let r = self.ws(rest);
                let (r, s) = expect(self.string(r), "a quoted pragma")?;
                let r = self.ws(r);
                let (r, _) = expect(char(';').parse(r), "`;`")?;
                Ok((r, Some(ItemKind::Pragma(s))))
            }
            _ => {
                // Linkage, then a function or a variable.
                let mut linkage = Vec::new();
                let mut r = i;
                let mut w = word;
                let mut after = rest;
                loop {
                    let l = match w.text {
                        ".extern" => Linkage::Extern,
                        ".visible" => Linkage::Visible,
                        ".weak" => Linkage::Weak,
                        ".common" => Linkage::Common,
                        _ => break,
                    };
                    linkage.push(l);
                    r = self.ws(after);
                    let (a, w2) = expect(self.dot_word(r), "`.entry`, `.func` or a state space")?;
                    w = w2;
                    after = a;
                }
                match w.text {
                    ".entry" | ".func" => {
                        let kind = if w.text == ".entry" { FunctionKind::Entry } else { FunctionKind::Func };
                        let (rest, f) = self.function(i, after, kind, linkage)?;
                        let id = FunctionId(self.module.functions.len() as u32);
                        self.module.functions.push(f);
                        Ok((rest, Some(ItemKind::Function(id))))
                    }
                    _ if is_space(w.text) => {
                        let (rest, v) = self.var_decl(i, r, linkage, true)?;
                        Ok((rest, Some(ItemKind::Var(v))))
                    }
                    _ => fail(w_at(r), "a module-level directive (`.version`, `.target`, `.entry`, `.func`, `.global`, …)"),
                }
            }
        }
    }

    fn section(&mut self, i: &'a str) -> PResult<'a, Option<ItemKind<'a>>> {
        let r = self.ws(i);
        let (r, name) = expect(
            alt_ident_or_dotword(self, r),
            "a section name such as .debug_info",
        )?;
        let r = self.ws(r);
        let (mut r, _) = expect(char('{').parse(r), "`{` opening the section")?;
        let mut entries = Vec::new();
        loop {
            r = self.ws(r);
            if r.is_empty() {
                return fail(r, "`}` closing the section");
            }
            if let Some(r2) = r.strip_prefix('}') {
                return Ok((r2, Some(ItemKind::Section(Section { name, entries }))));
            }
            if let Some(r2) = r.strip_prefix(';') {
                r = r2;
                continue;
            }
            if r.starts_with('.') {
                let (r2, width) = self.dot_word(r)?;
                if !matches!(width.text, ".b8" | ".b16" | ".b32" | ".b64") {
                    return fail(r, "`.b8`, `.b16`, `.b32` or `.b64` in a section");
                }
                let mut values = Vec::new();
                let mut r3 = self.ws(r2);
                loop {
                    let (r4, v) = self.init_value(r3)?;
                    values.push(v);
                    let r5 = self.ws(r4);
                    if let Some(r6) = r5.strip_prefix(',') {
                        r3 = self.ws(r6);
                    } else {
                        r = r4;
                        break;
                    }
                }
                entries.push(SectionEntry::Data { width, values });
            } else {
                let (r2, l) = expect(self.ident(r), "a label or `.bN` data in a section")?;
                let r3 = self.ws(r2);
                let (r3, _) = expect(char(':').parse(r3), "`:` after the label")?;
                entries.push(SectionEntry::Label(l));
                r = r3;
            }
        }
    }

    // --------------------------------------------------------------- functions

    fn function(
        &mut self,
        start: &'a str,
        i: &'a str,
        kind: FunctionKind,
        linkage: Vec<Linkage>,
    ) -> PResult<'a, Function<'a>> {
        let mut r = self.ws(i);
        let mut returns = Vec::new();
        if kind == FunctionKind::Func && r.starts_with('(') {
            let (r2, ps) = self.param_list(r)?;
            returns = ps;
            r = self.ws(r2);
        }
        let (r2, name) = expect(self.ident(r), "the function name")?;
        r = self.ws(r2);
        let mut params = Vec::new();
        if r.starts_with('(') {
            let (r2, ps) = self.param_list(r)?;
            params = ps;
            r = self.ws(r2);
        }
        let mut directives = Vec::new();
        while r.starts_with('.') {
            let (r2, d) = self.dot_word(r)?;
            let mut values = Vec::new();
            let mut text = None;
            let mut r3 = self.ws(r2);
            if d.text == ".pragma" {
                let (r4, s) = expect(self.string(r3), "a quoted pragma")?;
                text = Some(s);
                r3 = self.ws(r4);
                if let Some(r5) = r3.strip_prefix(';') {
                    r3 = self.ws(r5);
                }
            } else if r3.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                loop {
                    let (r4, v) = expect(self.uint(r3), "an integer")?;
                    values.push(v);
                    let r5 = self.ws(r4);
                    if let Some(r6) = r5.strip_prefix(',') {
                        r3 = self.ws(r6);
                    } else {
                        r3 = r5;
                        break;
                    }
                }
            }
            let span = self.span(r, r3);
            let span = Span::new(
                span.start,
                span.start
                    .max(self.off(r3.trim_start_matches(|_: char| false)))
                    .min(span.end),
            );
            directives.push(FuncDirective {
                name: d,
                values,
                text,
                span,
            });
            r = r3;
        }
        let (r2, body) = if let Some(r2) = r.strip_prefix(';') {
            (r2, None)
        } else if r.starts_with('{') {
            let (r2, body) = self.body(r);
            (r2, Some(body))
        } else {
            return fail(r, "`{` opening the function body, or `;`");
        };
        let span = self.span(start, r2);
        let mut f = Function {
            span,
            kind,
            linkage,
            name,
            returns,
            params,
            directives,
            body,
        };
        // A declaration (`;`) has no body to check or hand on.
        if self.lazy && f.body.is_some() {
            if let Some(body) = &f.body {
                let mut found = std::mem::take(&mut self.body_checks);
                self.check_body(body, &mut found);
                self.body_checks = found;
            }
            if let Some(cb) = &mut self.on_body {
                cb(&f);
            }
            if let Some(body) = &mut f.body {
                body.statements = Vec::new();
            }
        }
        Ok((r2, f))
    }

    fn param_list(&mut self, i: &'a str) -> PResult<'a, Vec<VarDecl<'a>>> {
        let (mut r, _) = char('(').parse(i)?;
        let mut out = Vec::new();
        r = self.ws(r);
        if let Some(r2) = r.strip_prefix(')') {
            return Ok((r2, out));
        }
        loop {
            let (r2, v) = self.var_decl(r, r, Vec::new(), false)?;
            out.push(v);
            r = self.ws(r2);
            if let Some(r2) = r.strip_prefix(',') {
                r = self.ws(r2);
            } else if let Some(r2) = r.strip_prefix(')') {
                return Ok((r2, out));
            } else {
                return fail(r, "`,` or `)` in the parameter list");
            }
        }
    }

    /// Parses a body starting at `{`; always succeeds (errors are recovered).
    fn body(&mut self, i: &'a str) -> (&'a str, Body<'a>) {
        if self.skeleton {
            return self.skip_body(i);
        }
        let open = i;
        let mut r = &i[1..];
        let mut statements: Vec<Statement<'a>> = Vec::new();
        let mut depth = 0u32;
        loop {
            r = self.ws(r);
            if r.is_empty() {
                let at = self.off(open);
                self.diags.push(
                    Diagnostic::error(
                        FrontEndCode::UnterminatedComment,
                        Span::new(at, at + 1),
                        "unterminated function body",
                    )
                    .with_label("this `{` is never closed"),
                );
                break;
            }
            let start = r;
            if let Some(r2) = r.strip_prefix('}') {
                if depth == 0 {
                    r = r2;
                    break;
                }
                depth -= 1;
                statements.push(Statement {
                    span: self.span(start, r2),
                    kind: StmtKind::ScopeClose,
                });
                r = r2;
                continue;
            }
            if let Some(r2) = r.strip_prefix('{') {
                depth += 1;
                statements.push(Statement {
                    span: self.span(start, r2),
                    kind: StmtKind::ScopeOpen,
                });
                r = r2;
                continue;
            }
            match self.statement(r, &mut statements) {
                Ok(r2) => r = r2,
                Err(e) => {
                    let r2 = self.recover(e, start, "a statement");
                    statements.push(Statement {
                        span: self.span(start, r2),
                        kind: StmtKind::Error,
                    });
                    r = r2;
                }
            }
        }
        let span = self.span(open, r);
        (r, Body { span, statements })
    }

    /// [`Parser::body`] for [`parse_skeleton`]: finds the `}` that closes
    /// the body starting at `{` by counting braces outside comments and
    /// strings (a string ends at its `"` or at the line's end, as
    /// [`Parser::string`] reads it); an empty body with that span.
    fn skip_body(&mut self, i: &'a str) -> (&'a str, Body<'a>) {
        let b = i.as_bytes();
        let mut depth = 0usize;
        let mut k = 1;
        let end = loop {
            let Some(off) = b[k..]
                .iter()
                .position(|&c| matches!(c, b'{' | b'}' | b'/' | b'"'))
            else {
                break None;
            };
            k += off;
            match b[k] {
                b'{' => depth += 1,
                b'}' if depth == 0 => break Some(k + 1),
                b'}' => depth -= 1,
                b'"' => match b[k + 1..].iter().position(|&c| c == b'"' || c == b'\n') {
                    Some(n) => k += n + 1,
                    None => break None,
                },
                _ => match b.get(k + 1) {
                    Some(b'/') => match b[k..].iter().position(|&c| c == b'\n') {
                        Some(n) => k += n,
                        None => break None,
                    },
                    Some(b'*') => match i[k + 2..].find("*/") {
                        Some(n) => k += n + 3,
                        None => break None,
                    },
                    _ => {}
                },
            }
            k += 1;
        };
        let r = match end {
            Some(e) => &i[e..],
            None => {
                let at = self.off(i);
                self.diags.push(
                    Diagnostic::error(
                        FrontEndCode::UnterminatedComment,
                        Span::new(at, at + 1),
                        "unterminated function body",
                    )
                    .with_label("this `{` is never closed"),
                );
                &i[i.len()..]
            }
        };
        let span = self.span(i, r);
        (
            r,
            Body {
                span,
                statements: Vec::new(),
            },
        )
    }

    /// Parses one statement (or a label) and pushes it.
    fn statement(
        &mut self,
        i: &'a str,
        out: &mut Vec<Statement<'a>>,
    ) -> Result<&'a str, nom::Err<PErr<'a>>> {
        let b = i.as_bytes();
        if b[0] == b'@' {
            let (r, ins) = self.instruction(i)?;
            out.push(Statement {
                span: self.span(i, r),
                kind: StmtKind::Instruction(ins),
            });
            return Ok(r);
        }
        if b[0] == b'.' {
            let (r, w) = self.dot_word(i)?;
            return match w.text {
                ".loc" => {
                    let (r, loc) = self.loc(r)?;
                    out.push(Statement {
                        span: self.span(i, r),
                        kind: StmtKind::Loc(loc),
                    });
                    Ok(r)
                }
                ".pragma" => {
                    let r = self.ws(r);
                    let (r, s) = expect(self.string(r), "a quoted pragma")?;
                    let r = self.ws(r);
                    let (r, _) = expect(char(';').parse(r), "`;`")?;
                    out.push(Statement {
                        span: self.span(i, r),
                        kind: StmtKind::Pragma(s),
                    });
                    Ok(r)
                }
                t if is_space(t) || matches!(t, ".extern" | ".visible" | ".weak" | ".common") => {
                    let mut linkage = Vec::new();
                    let mut r0 = i;
                    let mut w = w;
                    let mut after = r;
                    while let Some(l) = linkage_of(w.text) {
                        linkage.push(l);
                        r0 = self.ws(after);
                        let (a, w2) = expect(self.dot_word(r0), "a state space")?;
                        w = w2;
                        after = a;
                    }
                    if !is_space(w.text) {
                        return Err(nom::Err::Error(PErr {
                            at: r0,
                            expected: "a state space such as `.reg` or `.shared`",
                        }));
                    }
                    let (r, v) = self.var_decl(i, r0, linkage, true)?;
                    out.push(Statement {
                        span: self.span(i, r),
                        kind: StmtKind::Var(Box::new(v)),
                    });
                    Ok(r)
                }
                _ => Err(nom::Err::Error(PErr {
                    at: i,
                    expected: "a declaration (`.reg`, `.shared`, `.local`, …), `.loc` or `.pragma`",
                })),
            };
        }
        // A label? Instructions (the common case) start with a letter and
        // reach a `.`, white space or `;` right after their opcode, so only a
        // name followed by something else can be a label.
        let maybe_label = match b[0] {
            b'$' | b'%' | b'_' => true,
            c if c.is_ascii_alphabetic() => {
                let n = b.iter().take_while(|&&c| is_ident_char(c)).count();
                !matches!(b.get(n), Some(b'.' | b';'))
            }
            _ => false,
        };
        if let Some(Ok((r, name))) = maybe_label.then(|| self.ident(i)) {
            let r1 = self.ws(r);
            if r1.starts_with(':') && !r1.starts_with("::") {
                let r2 = &r1[1..];
                // Label of a table or prototype?
                let r3 = self.ws(r2);
                if r3.starts_with(".branchtargets") || r3.starts_with(".calltargets") {
                    let (r4, w) = self.dot_word(r3)?;
                    let mut targets = Vec::new();
                    let mut r5 = self.ws(r4);
                    loop {
                        let (r6, t) = expect(self.ident(r5), "a label")?;
                        targets.push(t);
                        let r7 = self.ws(r6);
                        if let Some(r8) = r7.strip_prefix(',') {
                            r5 = self.ws(r8);
                        } else {
                            let (r8, _) = expect(char(';').parse(r7), "`,` or `;`")?;
                            let kind = if w.text == ".branchtargets" {
                                StmtKind::BranchTargets {
                                    name,
                                    targets: targets.into_boxed_slice(),
                                }
                            } else {
                                StmtKind::CallTargets {
                                    name,
                                    targets: targets.into_boxed_slice(),
                                }
                            };
                            out.push(Statement {
                                span: self.span(i, r8),
                                kind,
                            });
                            return Ok(r8);
                        }
                    }
                }
                if r3.starts_with(".callprototype") {
                    let (r4, _) = self.dot_word(r3)?;
                    let mut r5 = self.ws(r4);
                    let mut returns = Vec::new();
                    if r5.starts_with('(') {
                        let (r6, ps) = self.param_list(r5)?;
                        returns = ps;
                        r5 = self.ws(r6);
                    }
                    let (r6, _) = expect(self.ident(r5), "`_` (the prototype's placeholder name)")?;
                    let mut r6 = self.ws(r6);
                    let mut params = Vec::new();
                    if r6.starts_with('(') {
                        let (r7, ps) = self.param_list(r6)?;
                        params = ps;
                        r6 = self.ws(r7);
                    }
                    // Optional .noreturn / .abi_preserve etc.
                    while r6.starts_with('.') {
                        let (r7, _) = self.dot_word(r6)?;
                        r6 = self.ws(r7);
                        if r6.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                            let (r8, _) = self.uint(r6)?;
                            r6 = self.ws(r8);
                        }
                    }
                    let (r7, _) = expect(char(';').parse(r6), "`;`")?;
                    out.push(Statement {
                        span: self.span(i, r7),
                        kind: StmtKind::CallPrototype(Box::new(Prototype {
                            name,
                            returns,
                            params,
                        })),
                    });
                    return Ok(r7);
                }
                out.push(Statement {
                    span: name.span,
                    kind: StmtKind::Label(name),
                });
                return Ok(r2);
            }
        }
        let (r, ins) = self.instruction(i)?;
        out.push(Statement {
            span: self.span(i, r),
            kind: StmtKind::Instruction(ins),
        });
        Ok(r)
    }

    fn loc(&mut self, i: &'a str) -> PResult<'a, Loc<'a>> {
        let r = self.ws(i);
        let (r, file) = expect(self.uint(r), "a file number")?;
        let r = self.ws(r);
        let (r, line) = expect(self.uint(r), "a line number")?;
        let r = self.ws(r);
        let (mut r, column) = expect(self.uint(r), "a column number")?;
        let mut loc = Loc {
            file: file as u32,
            line: line as u32,
            column: column as u32,
            function_name: None,
            inlined_at: None,
        };
        loop {
            let r1 = skip_spaces(r);
            let Some(r2) = r1.strip_prefix(',') else {
                break;
            };
            let r2 = self.ws(r2);
            let (r3, key) = expect(self.ident(r2), "`function_name` or `inlined_at`")?;
            let r3 = self.ws(r3);
            match key.text {
                "function_name" => {
                    let (mut r4, f) = expect(self.ident(r3), "a label")?;
                    // `function_name $L__info_string0+12`
                    let r5 = skip_spaces(r4);
                    if let Some(r6) = r5.strip_prefix('+') {
                        let (r7, _) = self.uint(skip_spaces(r6))?;
                        r4 = r7;
                    }
                    loc.function_name = Some(Box::new(f));
                    r = r4;
                }
                "inlined_at" => {
                    let (r4, a) = expect(self.uint(r3), "a file number")?;
                    let r4 = self.ws(r4);
                    let (r4, b) = expect(self.uint(r4), "a line number")?;
                    let r4 = self.ws(r4);
                    let (r4, c) = expect(self.uint(r4), "a column number")?;
                    loc.inlined_at = Some((a as u32, b as u32, c as u32));
                    r = r4;
                }
                _ => return fail(r2, "`function_name` or `inlined_at`"),
            }
        }
        Ok((r, loc))
    }

    // ------------------------------------------------------------ declarations

    /// `[linkage] .space attrs… name[<N>][dims][= init] {, name…}` then `;`
    /// when `terminated`. `i` is the start of the declaration (for its span),
    /// `r` the state-space token.
    fn var_decl(
        &mut self,
        i: &'a str,
        r: &'a str,
        linkage: Vec<Linkage>,
        terminated: bool,
    ) -> PResult<'a, VarDecl<'a>> {
        let (mut r, sp) = expect(self.dot_word(r), "a state space such as `.param` or `.reg`")?;
        let space = StateSpace::from_modifier(&sp.text[1..]).ok_or(nom::Err::Error(PErr {
            at: r,
            expected: "a state space",
        }))?;
        let mut decl = VarDecl {
            span: Span::default(),
            linkage,
            space,
            align: None,
            vector: 1,
            ty: None,
            ptr: None,
            declarators: Vec::new(),
        };
        loop {
            r = self.ws(r);
            if !r.starts_with('.') {
                break;
            }
            let (r2, w) = self.dot_word(r)?;
            r = r2;
            match w.text {
                ".align" => {
                    let r3 = self.ws(r);
                    let (r3, n) = expect(self.uint(r3), "an alignment in bytes")?;
                    match &mut decl.ptr {
                        Some(p) => p.align = Some(n as u32),
                        None => decl.align = Some(n as u32),
                    }
                    r = r3;
                }
                ".v2" => decl.vector = 2,
                ".v4" => decl.vector = 4,
                ".v8" => decl.vector = 8,
                ".ptr" => {
                    decl.ptr = Some(PtrAttr {
                        space: None,
                        align: None,
                    })
                }
                t => {
                    if let (Some(p), Some(s)) = (&mut decl.ptr, StateSpace::from_modifier(&t[1..]))
                    {
                        p.space = Some(s);
                    } else if r.starts_with('(') {
                        // `.attribute(.managed)`, `.unified(a, b)`: kept out of the tree.
                        let k = r.find(')').ok_or(nom::Err::Error(PErr {
                            at: r,
                            expected: "`)`",
                        }))?;
                        r = &r[k + 1..];
                    } else {
                        decl.ty = Some(Ident {
                            text: &w.text[1..],
                            span: Span::new(w.span.start + 1, w.span.end),
                        });
                    }
                }
            }
        }
        loop {
            let (r2, name) = expect(self.ident(r), "a name to declare")?;
            r = r2;
            let mut d = Declarator {
                name,
                range: None,
                dims: Vec::new(),
                init: None,
            };
            let r1 = skip_spaces(r);
            if let Some(r2) = r1.strip_prefix('<') {
                let (r3, n) = expect(self.uint(skip_spaces(r2)), "a register count")?;
                let (r3, _) = expect(char('>').parse(skip_spaces(r3)), "`>`")?;
                d.range = Some(n.min(u32::MAX as u64) as u32);
                r = r3;
            }
            loop {
                let r1 = skip_spaces(r);
                let Some(r2) = r1.strip_prefix('[') else {
                    break;
                };
                let r2 = skip_spaces(r2);
                if let Some(r3) = r2.strip_prefix(']') {
                    d.dims.push(None);
                    r = r3;
                } else {
                    let (r3, n) = expect(self.uint(r2), "an array size")?;
                    let (r3, _) = expect(char(']').parse(skip_spaces(r3)), "`]`")?;
                    d.dims.push(Some(n));
                    r = r3;
                }
            }
            let r1 = self.ws(r);
            if let Some(r2) = r1.strip_prefix('=') {
                let r2 = self.ws(r2);
                let (r3, v) = self.init_value(r2)?;
                d.init = Some(v);
                r = r3;
            }
            decl.declarators.push(d);
            let r1 = self.ws(r);
            if terminated {
                if let Some(r2) = r1.strip_prefix(',') {
                    r = self.ws(r2);
                    continue;
                }
                let (r2, _) = expect(char(';').parse(r1), "`;` ending the declaration")?;
                decl.span = self.span(i, r2);
                return Ok((r2, decl));
            }
            decl.span = self.span(i, r);
            return Ok((r, decl));
        }
    }

    fn init_value(&mut self, i: &'a str) -> PResult<'a, InitValue<'a>> {
        self.nested(
            i,
            "less deeply nested braces (at most 64 levels)",
            Self::init_value_inner,
        )
    }

    fn init_value_inner(&mut self, i: &'a str) -> PResult<'a, InitValue<'a>> {
        if let Some(r) = i.strip_prefix('{') {
            let mut items = Vec::new();
            let mut r = self.ws(r);
            if let Some(r2) = r.strip_prefix('}') {
                return Ok((
                    r2,
                    InitValue {
                        span: self.span(i, r2),
                        kind: InitKind::List(items),
                    },
                ));
            }
            loop {
                let (r2, v) = self.init_value(r)?;
                items.push(v);
                let r3 = self.ws(r2);
                if let Some(r4) = r3.strip_prefix(',') {
                    r = self.ws(r4);
                } else if let Some(r4) = r3.strip_prefix('}') {
                    return Ok((
                        r4,
                        InitValue {
                            span: self.span(i, r4),
                            kind: InitKind::List(items),
                        },
                    ));
                } else {
                    return fail(r3, "`,` or `}` in the initializer");
                }
            }
        }
        if i.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '-' | '~' | '!' | '(')) {
            let (r, n) = self.const_expr(i)?;
            // Byte mask of an address: `0xff00(sym)`, `0xff(generic(sym)+4)`.
            if let Some(r2) = r.strip_prefix('(') {
                let r2 = self.ws(r2);
                let (r3, inner) = self.init_value(r2)?;
                let r3 = self.ws(r3);
                let (r4, _) = expect(char(')').parse(r3), "`)` closing the masked address")?;
                let kind = InitKind::Mask {
                    mask: n.as_i64(),
                    value: Box::new(inner),
                };
                return Ok((
                    r4,
                    InitValue {
                        span: self.span(i, r4),
                        kind,
                    },
                ));
            }
            let kind = match n {
                Num::Int(v) => InitKind::Int(v),
                Num::UInt(v) => InitKind::Int(v as i64),
                Num::Float(f) => InitKind::Float(f),
            };
            return Ok((
                r,
                InitValue {
                    span: self.span(i, r),
                    kind,
                },
            ));
        }
        // Section names (`.debug_abbrev`) are symbols inside DWARF sections.
        let (r, name) = expect(alt_ident_or_dotword(self, i), "an initializer value")?;
        // generic(sym)
        let (r, name, generic) = if name.text == "generic" && skip_spaces(r).starts_with('(') {
            let r2 = self.ws(&skip_spaces(r)[1..]);
            let (r3, inner) = expect(self.ident(r2), "a symbol")?;
            let (r3, _) = expect(char(')').parse(self.ws(r3)), "`)`")?;
            (r3, inner, true)
        } else {
            (r, name, false)
        };
        let r1 = skip_spaces(r);
        // field = value (sampler initializers)
        if !generic && r1.starts_with('=') {
            let r2 = self.ws(&r1[1..]);
            let (r3, v) = self.init_value(r2)?;
            return Ok((
                r3,
                InitValue {
                    span: self.span(i, r3),
                    kind: InitKind::Field {
                        name,
                        value: Box::new(v),
                    },
                },
            ));
        }
        let mut offset = 0i64;
        let mut minus = None;
        let mut r = r;
        if let Some(r2) = r1.strip_prefix('+') {
            let (r3, n) = expect(self.number(skip_spaces(r2)), "an offset")?;
            offset = n.as_i64();
            r = r3;
        } else if let Some(r2) = r1.strip_prefix('-') {
            let r2 = skip_spaces(r2);
            if let Ok((r3, n)) = self.number(r2) {
                offset = n.as_i64().wrapping_neg();
                r = r3;
            } else {
                let (r3, m) = expect(self.ident(r2), "a symbol or offset")?;
                minus = Some(m);
                r = r3;
            }
        }
        Ok((
            r,
            InitValue {
                span: self.span(i, r),
                kind: InitKind::Symbol {
                    name,
                    generic,
                    offset,
                    minus,
                },
            },
        ))
    }

    // ---------------------------------------------------- constant expressions

    /// A constant expression (PTX ISA §4.6.1): integer literals combined with
    /// `?: || && | ^ & == != < > <= >= << >> + - * / %`, unary `- ~ !`,
    /// casts `(.s64)`/`(.u64)` and parentheses, evaluated in 64 bits. A lone
    /// floating-point literal is also accepted; arithmetic on floats is not.
    fn const_expr(&mut self, i: &'a str) -> PResult<'a, Num> {
        self.nested(
            i,
            "a less deeply nested expression (at most 64 levels)",
            Self::ternary,
        )
    }

    fn ternary(&mut self, i: &'a str) -> PResult<'a, Num> {
        let (r, c) = self.binary(i, 0)?;
        let r1 = self.ws(r);
        let Some(r2) = r1.strip_prefix('?') else {
            return Ok((r, c));
        };
        let r2 = self.ws(r2);
        let (r3, a) = self.const_expr(r2)?;
        let r3 = self.ws(r3);
        let (r4, _) = expect(char(':').parse(r3), "`:` in a conditional expression")?;
        let r4 = self.ws(r4);
        let (r5, b) = self.const_expr(r4)?;
        Ok((r5, if int_of(c, i)? != 0 { a } else { b }))
    }

    /// Precedence climbing over binary operators of precedence `min` and up.
    fn binary(&mut self, i: &'a str, min: u8) -> PResult<'a, Num> {
        let (mut r, mut lhs) = self.unary(i)?;
        loop {
            let r1 = self.ws(r);
            let Some((op, prec, len)) = binary_op(r1) else {
                return Ok((r, lhs));
            };
            if prec < min {
                return Ok((r, lhs));
            }
            let r2 = self.ws(&r1[len..]);
            let (r3, rhs) = self.binary(r2, prec + 1)?;
            let a = int_of(lhs, i)?;
            let b = int_of(rhs, r2)?;
            let v = match op {
                "||" => ((a != 0) || (b != 0)) as i64,
                "&&" => ((a != 0) && (b != 0)) as i64,
                "|" => a | b,
                "^" => a ^ b,
                "&" => a & b,
                "==" => (a == b) as i64,
                "!=" => (a != b) as i64,
                "<" => (a < b) as i64,
                ">" => (a > b) as i64,
                "<=" => (a <= b) as i64,
                ">=" => (a >= b) as i64,
                "<<" => a.wrapping_shl(b as u32),
                ">>" => a.wrapping_shr(b as u32),
                "+" => a.wrapping_add(b),
                "-" => a.wrapping_sub(b),
                "*" => a.wrapping_mul(b),
                "/" | "%" if b == 0 => return fail(r2, "a non-zero divisor"),
                "/" => a.wrapping_div(b),
                _ => a.wrapping_rem(b),
            };
            lhs = Num::Int(v);
            r = r3;
        }
    }

    fn unary(&mut self, i: &'a str) -> PResult<'a, Num> {
        let Some(&c) = i.as_bytes().first() else {
            return fail(i, "an expression");
        };
        match c {
            b'-' | b'~' | b'!' => {
                // `-5` is a literal; `-(…)` and `- x` are negations.
                if c == b'-' && i.as_bytes().get(1).is_some_and(u8::is_ascii_digit) {
                    return self.number(i);
                }
                let r = self.ws(&i[1..]);
                let (r2, v) = self.unary_nested(r)?;
                let v = match (c, v) {
                    (b'-', Num::Float(f)) => Num::Float(-f),
                    (b'-', v) => Num::Int(int_of(v, r)?.wrapping_neg()),
                    (b'~', v) => Num::Int(!int_of(v, r)?),
                    (_, v) => Num::Int((int_of(v, r)? == 0) as i64),
                };
                Ok((r2, v))
            }
            b'(' => {
                let r = self.ws(&i[1..]);
                // Cast: (.s64) expr, (.u64) expr
                if let Some(r2) = r.strip_prefix(".s64").or_else(|| r.strip_prefix(".u64")) {
                    let r2 = self.ws(r2);
                    let (r3, _) = expect(char(')').parse(r2), "`)` closing the cast")?;
                    let r3 = self.ws(r3);
                    return self.unary_nested(r3);
                }
                let (r2, v) = self.const_expr(r)?;
                let r2 = self.ws(r2);
                let (r3, _) = expect(char(')').parse(r2), "`)`")?;
                Ok((r3, v))
            }
            _ => self.number(i),
        }
    }

    fn unary_nested(&mut self, i: &'a str) -> PResult<'a, Num> {
        self.nested(
            i,
            "a less deeply nested expression (at most 64 levels)",
            Self::unary,
        )
    }

    /// Runs `parse` one nesting level deeper, or fails expecting `expected`
    /// at the [`MAX_NESTING`]th level: the one guard of every recursive rule
    /// (initializer braces, constant expressions, operands), so that deep
    /// input cannot overflow the stack.
    fn nested<T>(
        &mut self,
        i: &'a str,
        expected: &'static str,
        parse: impl FnOnce(&mut Self, &'a str) -> PResult<'a, T>,
    ) -> PResult<'a, T> {
        if self.nesting >= MAX_NESTING {
            return fail(i, expected);
        }
        self.nesting += 1;
        let r = parse(self, i);
        self.nesting -= 1;
        r
    }

    // ------------------------------------------------------------ instructions

    fn instruction(&mut self, i: &'a str) -> PResult<'a, Instruction<'a>> {
        let start = self.scratch.len();
        let r = self.instruction_at(i, start);
        self.scratch.truncate(start);
        r
    }

    /// [`Self::instruction`], its operands gathered in `scratch[start..]`.
    fn instruction_at(&mut self, i: &'a str, start: usize) -> PResult<'a, Instruction<'a>> {
        let mut r = i;
        let mut guard = None;
        if let Some(r2) = r.strip_prefix('@') {
            let r2 = skip_spaces(r2);
            let (r2, negated) = match r2.strip_prefix('!') {
                Some(x) => (skip_spaces(x), true),
                None => (r2, false),
            };
            let (r3, pred) = expect(self.ident(r2), "a predicate register after `@`")?;
            guard = Some(Box::new(Guard {
                negated,
                pred: pred.text,
                span: self.span(i, r3),
            }));
            r = self.ws(r3);
        }
        let (r2, mnemonic) = expect(self.mnemonic(r), "an instruction")?;
        r = r2;
        let r1 = self.ws(r);
        if let Some(r2) = r1.strip_prefix(';') {
            return Ok((
                r2,
                Instruction {
                    guard,
                    mnemonic: mnemonic.text,
                    operands: Box::default(),
                },
            ));
        }
        if !(r1.len() < r.len() || r1.starts_with(['{', '[', '(', '-', '!'])) {
            return fail(r1, "white space or `;` after the instruction name");
        }
        r = r1;
        loop {
            let (r2, op) = self.operand(r)?;
            self.scratch.push(op);
            let r3 = self.ws(r2);
            if let Some(r4) = r3.strip_prefix(',') {
                r = self.ws(r4);
            } else if let Some(r4) = r3.strip_prefix(';') {
                return Ok((
                    r4,
                    Instruction {
                        guard,
                        mnemonic: mnemonic.text,
                        operands: self.scratch.drain(start..).collect(),
                    },
                ));
            } else if r2[..r2.len() - r3.len()].contains('\n') {
                // The next token is on a later line: the `;` is what is missing.
                return fail(r2, MISSING_SEMI);
            } else {
                return fail(r3, "`,` or `;` after an operand");
            }
        }
    }

    fn mnemonic(&self, i: &'a str) -> PResult<'a, Ident<'a>> {
        let b = i.as_bytes();
        if b.is_empty() || !(b[0].is_ascii_alphabetic() || b[0] == b'_') {
            return fail(i, "an instruction");
        }
        let mut k = 1;
        while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
            k += 1;
        }
        while k + 1 < b.len()
            && b[k] == b'.'
            && (b[k + 1].is_ascii_alphanumeric() || b[k + 1] == b'_')
        {
            k += 1;
            while k < b.len()
                && (b[k].is_ascii_alphanumeric()
                    || b[k] == b'_'
                    || (b[k] == b':' && b.get(k + 1) == Some(&b':')))
            {
                if b[k] == b':' {
                    k += 2;
                } else {
                    k += 1;
                }
            }
        }
        let rest = &i[k..];
        Ok((
            rest,
            Ident {
                text: &i[..k],
                span: self.span(i, rest),
            },
        ))
    }

    fn operand(&mut self, i: &'a str) -> PResult<'a, Operand<'a>> {
        if let Some(r) = i
            .strip_prefix('!')
            .filter(|r| !skip_spaces(r).starts_with(|c: char| c.is_ascii_digit() || c == '('))
        {
            let (r, inner) = self.operand_atom(skip_spaces(r))?;
            return Ok((
                r,
                Operand {
                    span: self.span(i, r),
                    kind: OperandKind::Not(Box::new(inner)),
                },
            ));
        }
        let (r, a) = self.operand_atom(i)?;
        let r1 = skip_spaces(r);
        if let Some(r2) = r1.strip_prefix('|') {
            let (r3, b) = self.operand_atom(skip_spaces(r2))?;
            return Ok((
                r3,
                Operand {
                    span: self.span(i, r3),
                    kind: OperandKind::PredPair(Box::new([a, b])),
                },
            ));
        }
        Ok((r, a))
    }

    fn operand_list(&mut self, i: &'a str, close: char) -> PResult<'a, Vec<Operand<'a>>> {
        let mut items = Vec::new();
        let mut r = self.ws(i);
        if let Some(r2) = r.strip_prefix(close) {
            return Ok((r2, items));
        }
        loop {
            let (r2, op) = self.operand(r)?;
            items.push(op);
            let r3 = self.ws(r2);
            if let Some(r4) = r3.strip_prefix(',') {
                r = self.ws(r4);
            } else if let Some(r4) = r3.strip_prefix(close) {
                return Ok((r4, items));
            } else {
                return fail(
                    r3,
                    if close == '}' {
                        "`,` or `}`"
                    } else if close == ')' {
                        "`,` or `)`"
                    } else {
                        "`,` or `]`"
                    },
                );
            }
        }
    }

    fn operand_atom(&mut self, i: &'a str) -> PResult<'a, Operand<'a>> {
        self.nested(
            i,
            "less deeply nested operands (at most 64 levels)",
            Self::operand_atom_inner,
        )
    }

    fn operand_atom_inner(&mut self, i: &'a str) -> PResult<'a, Operand<'a>> {
        let Some(&c) = i.as_bytes().first() else {
            return fail(i, "an operand");
        };
        match c {
            b'[' => {
                let r = self.ws(&i[1..]);
                // Simple address: [base], [base+off], [off]
                let simple = self.address_body(r);
                if let Err(nom::Err::Failure(e)) = simple {
                    return Err(nom::Err::Error(e));
                }
                if let Ok((r2, (base, offset))) = simple {
                    let r3 = self.ws(r2);
                    if let Some(r4) = r3.strip_prefix(']') {
                        return Ok((
                            r4,
                            Operand {
                                span: self.span(i, r4),
                                kind: OperandKind::Address {
                                    base: base.map(Box::new),
                                    offset,
                                },
                            },
                        ));
                    }
                }
                let (r2, items) = self.operand_list(&i[1..], ']')?;
                Ok((
                    r2,
                    Operand {
                        span: self.span(i, r2),
                        kind: OperandKind::AddressList(items.into_boxed_slice()),
                    },
                ))
            }
            b'{' => {
                let (r, items) = self.operand_list(&i[1..], '}')?;
                Ok((
                    r,
                    Operand {
                        span: self.span(i, r),
                        kind: OperandKind::Vector(items.into_boxed_slice()),
                    },
                ))
            }
            b'(' => {
                // A parenthesised constant expression, or a call's list.
                if let Ok((r, n)) = self.const_expr(i) {
                    if skip_spaces(r).starts_with([',', ';', '}', ')', ']']) {
                        return Ok((
                            r,
                            Operand {
                                span: self.span(i, r),
                                kind: num_operand(n),
                            },
                        ));
                    }
                }
                let (r, items) = self.operand_list(&i[1..], ')')?;
                Ok((
                    r,
                    Operand {
                        span: self.span(i, r),
                        kind: OperandKind::List(items.into_boxed_slice()),
                    },
                ))
            }
            b'!' | b'~' | b'-' | b'0'..=b'9' => {
                let (r, n) = self.const_expr(i)?;
                let kind = match n {
                    Num::Int(v) => OperandKind::Int(v),
                    Num::UInt(v) => OperandKind::Int(v as i64),
                    Num::Float(f) => OperandKind::Float(f),
                };
                Ok((
                    r,
                    Operand {
                        span: self.span(i, r),
                        kind,
                    },
                ))
            }
            _ => {
                let (r, name) = expect(
                    self.ident(i),
                    "an operand (register, immediate, address, label or `{…}`)",
                )?;
                if name.text == "_" {
                    return Ok((
                        r,
                        Operand {
                            span: name.span,
                            kind: OperandKind::Sink,
                        },
                    ));
                }
                // Component: %tid.x, %r1.y
                let comp_len = if name.text.starts_with('%') {
                    component_len(r.as_bytes())
                } else {
                    0
                };
                let (r, base) = if comp_len > 0 {
                    let comp = Component::parse(&r[1..1 + comp_len]);
                    let r2 = &r[1 + comp_len..];
                    let kind = OperandKind::Reg {
                        name: name.text,
                        component: comp,
                    };
                    (
                        r2,
                        Operand {
                            span: self.span(i, r2),
                            kind,
                        },
                    )
                } else {
                    (r, name_operand(name))
                };
                // sym+4 outside brackets
                let r1 = skip_spaces(r);
                if let Some(r2) = r1.strip_prefix('+') {
                    let (r3, n) = expect(self.number(skip_spaces(r2)), "an integer offset")?;
                    return Ok((
                        r3,
                        Operand {
                            span: self.span(i, r3),
                            kind: OperandKind::Offset {
                                base: Box::new(base),
                                offset: n.as_i64(),
                            },
                        },
                    ));
                }
                Ok((r, base))
            }
        }
    }

    /// Inside `[ ]`: `reg`, `sym`, `reg+off`, `reg-off`, `sym+off`, `off`.
    fn address_body(&mut self, i: &'a str) -> PResult<'a, (Option<Operand<'a>>, i64)> {
        if i.as_bytes()
            .first()
            .is_some_and(|c| c.is_ascii_digit() || *c == b'-')
        {
            let (r, n) = self.number(i)?;
            if matches!(n, Num::Float(_)) {
                return fail(i, "an integer address");
            }
            return Ok((r, (None, n.as_i64())));
        }
        let (r, name) = self.ident(i)?;
        let base = name_operand(name);
        let r1 = self.ws(r);
        let (r, offset) = if let Some(r2) = r1.strip_prefix('+') {
            let r2 = self.ws(r2);
            let (r3, n) = self.number(r2)?;
            (r3, n.as_i64())
        } else if r1.starts_with('-') {
            return Err(nom::Err::Failure(PErr {
                at: r1,
                expected: "`+` or `]` (PTX writes a negative offset as `[reg+-8]`)",
            }));
        } else {
            (r, 0)
        };
        Ok((r, (Some(base), offset)))
    }
}

fn tex_diag(span: Span) -> Diagnostic {
    Diagnostic::new(
        FrontEndCode::DeprecatedSyntax.code(),
        FrontEndCode::DeprecatedSyntax.name(),
        crate::diagnostic::Severity::Warning,
        span,
        "the `.tex` state space was removed in PTX ISA 1.5",
    )
    .with_label("declared in `.tex`")
    .with_help("declare it as `.global .texref NAME;`")
}

/// A bare name as an operand: a register when it starts with `%`, else a
/// symbol (sema tells `%`-less registers apart).
fn name_operand(name: Ident<'_>) -> Operand<'_> {
    let kind = if name.text.starts_with('%') {
        OperandKind::Reg {
            name: name.text,
            component: None,
        }
    } else {
        OperandKind::Symbol(name.text)
    };
    Operand {
        span: name.span,
        kind,
    }
}

fn num_operand<'a>(n: Num) -> OperandKind<'a> {
    match n {
        Num::Int(v) => OperandKind::Int(v),
        Num::UInt(v) => OperandKind::Int(v as i64),
        Num::Float(f) => OperandKind::Float(f),
    }
}

fn int_of(n: Num, at: &str) -> Result<i64, nom::Err<PErr<'_>>> {
    match n {
        Num::Int(v) => Ok(v),
        Num::UInt(v) => Ok(v as i64),
        Num::Float(_) => Err(nom::Err::Error(PErr {
            at,
            expected: "an integer (arithmetic on floating-point constants is not PTX)",
        })),
    }
}

/// The binary operator at the start of `i`: (operator, precedence, length).
fn binary_op(i: &str) -> Option<(&'static str, u8, usize)> {
    const OPS: &[(&str, u8)] = &[
        ("||", 1),
        ("&&", 2),
        ("<<", 8),
        (">>", 8),
        ("==", 6),
        ("!=", 6),
        ("<=", 7),
        (">=", 7),
        ("|", 3),
        ("^", 4),
        ("&", 5),
        ("<", 7),
        (">", 7),
        ("+", 9),
        ("-", 9),
        ("*", 10),
        ("/", 10),
        ("%", 10),
    ];
    OPS.iter()
        .find(|(op, _)| i.starts_with(op))
        .map(|&(op, p)| (op, p, op.len()))
}

#[derive(Clone, Copy, Debug)]
enum Num {
    Int(i64),
    UInt(u64),
    Float(f64),
}

impl Num {
    fn as_i64(self) -> i64 {
        match self {
            Num::Int(v) => v,
            Num::UInt(v) => v as i64,
            Num::Float(f) => f as i64,
        }
    }
}

/// Length of a register component after `.` (`x y z w r g b a`, byte
/// selectors `b0`..`b3`, half selectors `h0`/`h1`), 0 when there is none.
fn component_len(rb: &[u8]) -> usize {
    if rb.len() < 2 || rb[0] != b'.' {
        return 0;
    }
    let n = if matches!(rb[1], b'b' | b'h') && rb.get(2).is_some_and(u8::is_ascii_digit) {
        2
    } else {
        1
    };
    let ok = match n {
        1 => matches!(rb[1], b'x' | b'y' | b'z' | b'w' | b'r' | b'g' | b'b' | b'a'),
        _ => {
            (rb[1] == b'b' && (b'0'..=b'3').contains(&rb[2]))
                || (rb[1] == b'h' && (b'0'..=b'1').contains(&rb[2]))
        }
    };
    if ok && rb.get(1 + n).is_none_or(|&c| !is_ident_char(c)) {
        n
    } else {
        0
    }
}

fn is_space(t: &str) -> bool {
    matches!(
        t,
        ".reg" | ".sreg" | ".global" | ".shared" | ".const" | ".local" | ".param" | ".tex"
    )
}

fn linkage_of(t: &str) -> Option<Linkage> {
    Some(match t {
        ".extern" => Linkage::Extern,
        ".visible" => Linkage::Visible,
        ".weak" => Linkage::Weak,
        ".common" => Linkage::Common,
        _ => return None,
    })
}

fn w_at(r: &str) -> &str {
    r
}

#[inline]
fn skip_spaces(i: &str) -> &str {
    let n = i.bytes().take_while(|&c| c == b' ' || c == b'\t').count();
    &i[n..]
}

fn alt_ident_or_dotword<'a>(p: &Parser<'a, '_>, i: &'a str) -> PResult<'a, Ident<'a>> {
    if i.starts_with('.') {
        p.dot_word(i)
    } else {
        p.ident(i)
    }
}

/// Skips a balanced `{ … }` starting at `{`; returns the rest after it (or the
/// end of input).
fn skip_balanced(i: &str) -> &str {
    let mut depth = 0usize;
    for (k, c) in i.bytes().enumerate() {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return &i[k + 1..];
                }
            }
            _ => {}
        }
    }
    &i[i.len()..]
}
