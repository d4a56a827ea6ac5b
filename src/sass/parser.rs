//! The recovering, line-oriented SASS listing parser.
//!
//! A listing is a sequence of lines and every line stands alone: a header of
//! `cuobjdump` (`code for sm_90`, `Function : k`, `arch = sm_90`), a
//! directive of `nvdisasm` (`.section`, `.target`, `.type`, …), a label
//! (`.L_x_0:`), a line-information comment (`//## File "k.cu", line 12`), an
//! instruction (`/*0120*/ @P0 LDG.E R2, desc[UR4][R2.64] ; /* 0x… */`), the
//! second encoding word of the previous instruction (`/* 0x000fe2… */`), or a
//! data line of an ELF section (`/*0004*/ .word 0x00000003`). A line that is
//! none of these gets one diagnostic and is skipped, so a damaged line never
//! hides the rest of the listing. Nothing here can panic on any input: every
//! loop advances, numbers are checked, and no recursion is deeper than one
//! brace list inside an operand (lists nest at most [`MAX_DEPTH`] deep).
//!
//! `grammar/sass.ebnf` is this parser's grammar, production by production.

use super::ast::*;
use crate::diagnostic::{Diagnostic, FrontEndCode};
use crate::source::Span;

/// How deep brace lists (`{...}`) may nest inside one operand.
pub const MAX_DEPTH: u32 = 8;

/// Parses a SASS listing. Never fails: malformed lines become diagnostics.
pub fn parse(src: &str) -> (Listing<'_>, Vec<Diagnostic>) {
    let mut p = Parser {
        src,
        listing: Listing::default(),
        diags: Vec::new(),
        arch: None,
        line_info: None,
        last_instruction: false,
        in_ptx: false,
        nv_info_fn: None,
        nv_attr: None,
        nv_values: Vec::new(),
        nv_infos: Vec::new(),
        section_is_text: false,
    };
    let mut start = 0usize;
    let bytes = src.as_bytes();
    let mut lines = 0u32;
    while start < src.len() {
        let end = memchr_newline(&bytes[start..]).map_or(src.len(), |i| start + i);
        let mut line_end = end;
        if line_end > start && bytes[line_end - 1] == b'\r' {
            line_end -= 1;
        }
        p.line(start, &src[start..line_end]);
        lines += 1;
        start = end + 1;
    }
    p.flush_nv_attr();
    p.listing.lines = lines;
    for f in &mut p.listing.functions {
        f.instructions.sort_by_key(|i| i.offset);
        if let Some((_, info)) = p.nv_infos.iter().find(|(n, _)| *n == f.name.text) {
            f.nv_info = info.clone();
        }
    }
    (p.listing, p.diags)
}

/// Parses the listing of a [`SourceFile`](crate::source::SourceFile), adding
/// one diagnostic per invalid UTF-8 byte.
pub fn parse_file(file: &crate::source::SourceFile) -> (Listing<'_>, Vec<Diagnostic>) {
    crate::diagnostic::with_encoding_diagnostics(file, parse(file.text()))
}

fn memchr_newline(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == b'\n')
}

struct Parser<'src> {
    src: &'src str,
    listing: Listing<'src>,
    diags: Vec<Diagnostic>,
    /// The architecture of the code being listed (`.target` / `code for`).
    arch: Option<Tok<'src>>,
    /// The `//## File` line information in effect.
    line_info: Option<LineInfo<'src>>,
    /// The previous non-blank line was an instruction (a bare `/* 0x… */`
    /// then continues its encoding).
    last_instruction: bool,
    /// Inside a cuobjdump `Fatbin ptx code:` block (PTX text, skipped).
    in_ptx: bool,
    /// The function whose `.nv.info.<name>` section is being listed.
    nv_info_fn: Option<&'src str>,
    /// The EIATTR record being listed and its numeric values.
    nv_attr: Option<&'src str>,
    nv_values: Vec<i64>,
    /// `.nv.info` facts by function name.
    nv_infos: Vec<(&'src str, NvInfo)>,
    /// The current section is a `.text.` section (instructions belong to
    /// the last function).
    section_is_text: bool,
}

/// Directives nvdisasm and cuobjdump print.
const DIRECTIVES: &[&str] = &[
    ".align",
    ".byte",
    ".dword",
    ".elftype",
    ".global",
    ".headerflags",
    ".local",
    ".other",
    ".quad",
    ".section",
    ".sectionflags",
    ".sectioninfo",
    ".sectionentsize",
    ".short",
    ".size",
    ".string",
    ".target",
    ".tkinfo",
    ".type",
    ".weak",
    ".word",
    ".zero",
];

/// `key = value` header lines of a cuobjdump fatbin entry.
const HEADER_KEYS: &[&str] = &[
    "arch",
    "code version",
    "host",
    "compile_size",
    "identifier",
    "producer",
    "ptxasOptions",
    "has debug info",
    "compressed",
];

impl<'src> Parser<'src> {
    fn tok(&self, start: usize, text: &'src str) -> Tok<'src> {
        let off = text.as_ptr() as usize - self.src.as_ptr() as usize;
        debug_assert!(off >= start);
        Tok {
            text,
            span: Span::new(off as u32, (off + text.len()) as u32),
        }
    }

    fn span_of(&self, text: &str) -> Span {
        let off = text.as_ptr() as usize - self.src.as_ptr() as usize;
        Span::new(off as u32, (off + text.len()) as u32)
    }

    fn error(&mut self, span: Span, message: impl Into<String>, label: &str) {
        self.diags.push(
            Diagnostic::error(FrontEndCode::SassSyntaxError, span, message).with_label(label),
        );
        self.listing.errors.push(span);
    }

    fn line(&mut self, start: usize, raw: &'src str) {
        let trimmed = raw.trim_start();
        let t = trimmed.trim_end();
        if t.is_empty() {
            return;
        }
        let was_instruction = std::mem::replace(&mut self.last_instruction, false);
        if self.in_ptx {
            if t.starts_with("Fatbin ") {
                self.in_ptx = false;
            } else {
                return;
            }
        }
        if let Some(rest) = t.strip_prefix("//") {
            self.comment(start, t, rest);
        } else if t.starts_with("/*") {
            self.slash_star(start, t, was_instruction);
        } else if t.starts_with('.') {
            self.dot_line(start, t);
        } else {
            self.other(start, t);
        }
    }

    // ------------------------------------------------------------ comments

    fn comment(&mut self, _start: usize, t: &'src str, rest: &'src str) {
        if let Some(info) = rest.strip_prefix("##") {
            match self.line_info_comment(info.trim()) {
                Some(li) => self.line_info = Some(li),
                None => self.error(
                    self.span_of(t),
                    "malformed line information",
                    "expected `//## File \"name\", line N`",
                ),
            }
            return;
        }
        if let Some(attr) = rest.trim_start_matches('-').trim().strip_prefix("nvinfo :") {
            self.flush_nv_attr();
            self.nv_attr = Some(attr.trim());
        }
        // Any other comment (section banners, `....[0]....`) carries nothing.
    }

    /// `File "a.cu", line 12[, column 3][ inlined at "b.cu", line 4]*`
    fn line_info_comment(&self, s: &'src str) -> Option<LineInfo<'src>> {
        let (file, line, column, rest) = self.file_line(s.strip_prefix("File")?.trim_start())?;
        let mut inlined_at = Vec::new();
        let mut rest = rest.trim_start();
        while let Some(r) = rest.strip_prefix("inlined at") {
            let (f, l, _, r2) = self.file_line(r.trim_start())?;
            inlined_at.push((f, l));
            rest = r2.trim_start();
        }
        rest.is_empty().then_some(LineInfo {
            file,
            line,
            column,
            inlined_at,
        })
    }

    /// `"name", line N[, column C]` → (name, N, C, rest)
    fn file_line(&self, s: &'src str) -> Option<(Tok<'src>, u32, Option<u32>, &'src str)> {
        let s = s.strip_prefix('"')?;
        let close = s.find('"')?;
        let name = &s[..close];
        let rest = s[close + 1..].trim_start().strip_prefix(',')?.trim_start();
        let rest = rest.strip_prefix("line")?.trim_start();
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let line: u32 = rest[..digits].parse().ok()?;
        let mut rest = &rest[digits..];
        let mut column = None;
        if let Some(r) = rest.trim_start().strip_prefix(',') {
            let r = r.trim_start().strip_prefix("column")?.trim_start();
            let d = r.len() - r.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            column = Some(r[..d].parse().ok()?);
            rest = &r[d..];
        }
        Some((
            Tok {
                text: name,
                span: self.span_of(name),
            },
            line,
            column,
            rest,
        ))
    }

    // ------------------------------------------------ `/*...*/` lines

    fn slash_star(&mut self, start: usize, t: &'src str, was_instruction: bool) {
        let Some(close) = t[2..].find("*/").map(|i| i + 2) else {
            self.error(self.span_of(t), "unterminated `/*` comment", "never closed");
            return;
        };
        let inner = t[2..close].trim();
        let after = &t[close + 2..];
        if let Some(hex) = inner.strip_prefix("0x") {
            // The second encoding word of the previous instruction.
            if !after.trim().is_empty() {
                self.error(
                    self.span_of(after.trim()),
                    "unexpected text after an encoding word",
                    "expected the end of the line",
                );
                return;
            }
            match u64::from_str_radix(hex, 16) {
                Ok(w) if was_instruction => {
                    if let Some(i) = self
                        .listing
                        .functions
                        .last_mut()
                        .and_then(|f| f.instructions.last_mut())
                    {
                        i.encoding.push(w);
                    }
                    self.last_instruction = true;
                }
                Ok(_) => {} // an encoding word of a data line: nothing to keep
                Err(_) => self.error(
                    self.span_of(inner),
                    "malformed encoding word",
                    "expected a hexadecimal number",
                ),
            }
            return;
        }
        let Ok(offset) = u32::from_str_radix(inner, 16) else {
            self.error(
                self.span_of(&t[..close + 2]),
                "malformed instruction offset",
                "expected `/*` hexadecimal offset `*/`",
            );
            return;
        };
        let offset_span = self.span_of(&t[..close + 2]);
        let body = after.trim_start();
        if body.starts_with('.') {
            self.data_line(start, body);
            return;
        }
        if body.is_empty() {
            self.error(
                offset_span,
                "an offset without an instruction",
                "nothing follows",
            );
            return;
        }
        self.instruction(offset, offset_span, body);
    }

    /// `.byte 0x04, 0x66` / `.word index@(.nv.constant0.k)` inside a data
    /// section: kept only for the `.nv.info` records warpscope reads.
    fn data_line(&mut self, _start: usize, body: &'src str) {
        let name_end = body.find(|c: char| c.is_whitespace()).unwrap_or(body.len());
        let name = &body[..name_end];
        if !DIRECTIVES.contains(&name) {
            self.error(
                self.span_of(name),
                format!("unknown data directive `{name}`"),
                "not a directive nvdisasm prints",
            );
            return;
        }
        if self.nv_attr.is_some() {
            for v in body[name_end..].split(',') {
                if let Some(n) = parse_int(v.trim()) {
                    self.nv_values.push(n);
                }
            }
        }
    }

    fn flush_nv_attr(&mut self) {
        let (Some(attr), Some(func)) = (self.nv_attr.take(), self.nv_info_fn) else {
            self.nv_values.clear();
            return;
        };
        let v = std::mem::take(&mut self.nv_values);
        // The record's two header bytes (format, attribute) come first.
        let v = v.get(2..).unwrap_or(&[]);
        // `.nv.info.<name>` sections come before the `.text.<name>` ones:
        // keep the facts by name until the end.
        let i = match self.nv_infos.iter().position(|(n, _)| *n == func) {
            Some(i) => i,
            None => {
                self.nv_infos.push((func, NvInfo::default()));
                self.nv_infos.len() - 1
            }
        };
        let info = &mut self.nv_infos[i].1;
        match attr {
            "EIATTR_PARAM_CBANK" if v.len() >= 2 => {
                info.param_base = Some(v[0] as u32);
                info.param_size = Some(v[1] as u32);
            }
            "EIATTR_KPARAM_INFO" if v.len() >= 7 => {
                let word = u32::from_le_bytes([v[3] as u8, v[4] as u8, v[5] as u8, v[6] as u8]);
                let size = ((word >> 18) & 0x3fff) as u16;
                info.params.push((v[1] as u16, v[2] as u16, size));
                info.params.sort_unstable();
            }
            _ => {}
        }
    }

    // ------------------------------------------------------ dot lines

    fn dot_line(&mut self, start: usize, t: &'src str) {
        if t.bytes().all(|b| b == b'.') {
            return; // cuobjdump's end of a function: `..........`
        }
        if let Some(name) = t.strip_suffix(':') {
            if !name.contains(char::is_whitespace) {
                self.label(start, name);
                return;
            }
        }
        let name_end = t.find(char::is_whitespace).unwrap_or(t.len());
        let name = &t[..name_end];
        let args = t[name_end..].trim();
        if !DIRECTIVES.contains(&name) {
            self.error(
                self.span_of(name),
                format!("unknown directive `{name}`"),
                "not a directive cuobjdump or nvdisasm prints",
            );
            return;
        }
        match name {
            ".section" => {
                self.flush_nv_attr();
                let sec = args.split(',').next().unwrap_or("").trim();
                self.nv_info_fn = sec.strip_prefix(".nv.info.");
                self.section_is_text = false;
                if let Some(fname) = sec.strip_prefix(".text.") {
                    self.section_is_text = true;
                    self.listing.flavor = Flavor::Nvdisasm;
                    let name = self.tok(start, fname);
                    self.new_function(name, false, self.span_of(t));
                }
            }
            ".target" => {
                let a = args.split_whitespace().next().unwrap_or("");
                if a.is_empty() {
                    self.error(
                        self.span_of(t),
                        "`.target` without an architecture",
                        "expected `sm_XX`",
                    );
                } else {
                    self.arch = Some(self.tok(start, a));
                    if let Some(f) = self.listing.functions.last_mut() {
                        if f.arch.is_none() {
                            f.arch = self.arch;
                        }
                    }
                }
            }
            // `@"EF_CUDA_TEXMODE_UNIFIED … EF_CUDA_SM90
            // EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"`: nvdisasm prints no
            // `.target` for a cubin of the newer ELF layout (Triton's,
            // "switching to Old format"), and the flags are then the only
            // place that names the architecture. The first `EF_CUDA_SM<n>`
            // is the real one; a `.target` wins.
            ".headerflags" if self.arch.is_none() => {
                if let Some(a) = headerflags_sm(args) {
                    self.arch = Some(self.tok(start, a));
                    if let Some(f) = self.listing.functions.last_mut() {
                        if f.arch.is_none() {
                            f.arch = self.arch;
                        }
                    }
                }
            }
            ".other" => {
                if let Some((sym, flags)) = args.split_once(',') {
                    let sym = sym.trim();
                    if flags.contains("STO_CUDA_ENTRY") {
                        if let Some(f) = self
                            .listing
                            .functions
                            .iter_mut()
                            .rev()
                            .find(|f| f.name.text == sym)
                        {
                            f.entry = true;
                        }
                    }
                }
            }
            ".sectioninfo" => {
                if let Some(n) = args
                    .split("SHI_REGISTERS=")
                    .nth(1)
                    .and_then(|r| r.trim_end_matches('"').parse().ok())
                {
                    if let Some(f) = self.listing.functions.last_mut() {
                        f.registers = Some(n);
                    }
                }
            }
            _ => {}
        }
    }

    fn label(&mut self, start: usize, name: &'src str) {
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
        {
            self.error(
                self.span_of(name),
                "malformed label",
                "expected a name before `:`",
            );
            return;
        }
        let tok = self.tok(start, name);
        if let Some(f) = self.listing.functions.last_mut() {
            if self.section_is_text || self.listing.flavor == Flavor::Cuobjdump {
                let at = f.instructions.len();
                f.labels.push((tok, at));
            }
        }
    }

    fn new_function(&mut self, name: Tok<'src>, entry: bool, span: Span) {
        self.line_info = None;
        self.listing.functions.push(Function {
            name,
            entry,
            arch: self.arch,
            span,
            instructions: Vec::new(),
            labels: Vec::new(),
            registers: None,
            nv_info: NvInfo::default(),
        });
    }

    // ----------------------------------------------- cuobjdump headers

    fn other(&mut self, start: usize, t: &'src str) {
        if let Some(a) = t.strip_prefix("code for ") {
            self.arch = Some(self.tok(start, a.trim()));
            self.listing.flavor = Flavor::Cuobjdump;
            return;
        }
        if let Some(name) = t.strip_prefix("Function :") {
            let name = name.trim();
            if name.is_empty() {
                self.error(
                    self.span_of(t),
                    "`Function :` without a name",
                    "expected a name",
                );
                return;
            }
            self.listing.flavor = Flavor::Cuobjdump;
            self.section_is_text = true;
            let tok = self.tok(start, name);
            // cuobjdump lists every `.text` section; internal functions
            // (`$kernel$callee`) are not kernels.
            let entry = !name.starts_with('$');
            self.new_function(tok, entry, self.span_of(t));
            return;
        }
        // A tool's own message captured with the listing
        // (`nvdisasm warning : ...`, `cuobjdump info : ...`).
        if ["nvdisasm ", "cuobjdump "].iter().any(|p| t.starts_with(p))
            && t.split_once(':').is_some_and(|(h, _)| {
                h.trim_end().ends_with("warning") || h.trim_end().ends_with("info")
            })
        {
            return;
        }
        if t == "Fatbin elf code:" || t == "Fatbin ptx code:" {
            self.listing.flavor = Flavor::Cuobjdump;
            self.in_ptx = t == "Fatbin ptx code:";
            return;
        }
        if t.bytes().all(|b| b == b'=') || t.bytes().all(|b| b == b'.') {
            return;
        }
        if let Some((k, _)) = t.split_once('=') {
            if HEADER_KEYS.contains(&k.trim()) {
                return;
            }
        }
        // CUDA 13's cuobjdump prints a compressed entry's flag alone.
        if t == "compressed" {
            return;
        }
        if let Some(name) = t.strip_suffix(':') {
            if !name.contains(char::is_whitespace) {
                self.label(start, name);
                return;
            }
        }
        let end = t.find(char::is_whitespace).unwrap_or(t.len());
        self.error(
            self.span_of(&t[..end]),
            "not a line of a SASS listing",
            "expected an instruction (`/*offset*/ OPCODE ...;`), a directive, a label or a comment",
        );
    }

    // ---------------------------------------------------- instructions

    fn instruction(&mut self, offset: u32, offset_span: Span, body: &'src str) {
        let mut c = Cursor {
            src: self.src,
            s: body,
            pos: 0,
        };
        match c.instruction(&mut InstrParts::default()) {
            Ok(parts) => {
                let end = c.pos;
                // After `;`: an optional `/* 0x... */` encoding word.
                let tail = body[end..].trim();
                let mut encoding = Vec::new();
                if !tail.is_empty() {
                    let ok = tail
                        .strip_prefix("/*")
                        .and_then(|r| r.strip_suffix("*/"))
                        .and_then(|h| h.trim().strip_prefix("0x"))
                        .and_then(|h| u64::from_str_radix(h, 16).ok());
                    match ok {
                        Some(w) => encoding.push(w),
                        None => {
                            self.error(
                                self.span_of(tail),
                                "unexpected text after `;`",
                                "expected an encoding comment `/* 0x... */` or the end of the line",
                            );
                            return;
                        }
                    }
                }
                let span = self.span_of(&body[..end]);
                if self.listing.functions.is_empty() {
                    // Bare instructions (a pasted fragment): one anonymous function.
                    let name = Tok {
                        text: "",
                        span: Span::new(span.start, span.start),
                    };
                    self.new_function(name, true, span);
                }
                let ins = Instruction {
                    span,
                    offset,
                    offset_span,
                    guard: parts.guard,
                    mnemonic: parts.mnemonic.unwrap_or(Tok { text: "", span }),
                    operands: parts.operands,
                    annotations: parts.annotations,
                    encoding,
                    line: self.line_info.clone(),
                };
                let f = self.listing.functions.last_mut().expect("pushed above");
                f.span = f.span.to(span);
                f.instructions.push(ins);
                self.last_instruction = true;
            }
            Err((at, msg, label)) => {
                let p = (body.as_ptr() as usize - self.src.as_ptr() as usize + at) as u32;
                let end = (body.as_ptr() as usize - self.src.as_ptr() as usize + body.len()) as u32;
                self.error(Span::new(p, (p + 1).min(end).max(p)), msg, label);
            }
        }
    }
}

#[derive(Default)]
struct InstrParts<'src> {
    guard: Option<Guard<'src>>,
    mnemonic: Option<Tok<'src>>,
    operands: Vec<Operand<'src>>,
    annotations: Vec<Tok<'src>>,
}

type PResult<T> = Result<T, (usize, String, &'static str)>;

/// A cursor over one instruction's text.
struct Cursor<'src> {
    src: &'src str,
    s: &'src str,
    pos: usize,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$'
}
fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

impl<'src> Cursor<'src> {
    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.pos).copied()
    }
    fn rest(&self) -> &'src str {
        &self.s[self.pos..]
    }
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }
    fn eat(&mut self, t: &str) -> bool {
        if self.rest().starts_with(t) {
            self.pos += t.len();
            true
        } else {
            false
        }
    }
    fn tok(&self, from: usize, to: usize) -> Tok<'src> {
        let text = &self.s[from..to];
        let off = (text.as_ptr() as usize - self.src.as_ptr() as usize) as u32;
        Tok {
            text,
            span: Span::new(off, off + text.len() as u32),
        }
    }
    fn span(&self, from: usize, to: usize) -> Span {
        self.tok(from, to).span
    }
    fn err<T>(&self, msg: impl Into<String>, label: &'static str) -> PResult<T> {
        Err((self.pos, msg.into(), label))
    }
    /// `[A-Za-z_$][A-Za-z0-9_$]*`
    fn ident(&mut self) -> Option<(usize, usize)> {
        let from = self.pos;
        if !self.peek().is_some_and(is_ident_start) {
            return None;
        }
        while self.peek().is_some_and(is_ident_char) {
            self.pos += 1;
        }
        Some((from, self.pos))
    }
    /// A modifier after `.`: letters, digits, `_`.
    fn modifier(&mut self) -> Option<Tok<'src>> {
        let from = self.pos;
        while self.peek().is_some_and(is_ident_char) {
            self.pos += 1;
        }
        (self.pos > from).then(|| self.tok(from, self.pos))
    }

    fn instruction(&mut self, parts: &mut InstrParts<'src>) -> PResult<InstrParts<'src>> {
        self.ws();
        if self.eat("@") {
            let from = self.pos - 1;
            let negated = self.eat("!");
            let Some((a, b)) = self.ident() else {
                return self.err("expected a predicate after `@`", "predicate expected");
            };
            let Some(reg) = register(self.tok(a, b)) else {
                return Err((
                    a,
                    format!("`{}` is not a predicate register", &self.s[a..b]),
                    "not P0-P6, PT, UP0-UP6 or UPT",
                ));
            };
            if !matches!(reg.file, RegFile::P | RegFile::Up) {
                return Err((
                    a,
                    format!("`{}` is not a predicate register", &self.s[a..b]),
                    "not P0-P6, PT, UP0-UP6 or UPT",
                ));
            }
            parts.guard = Some(Guard {
                negated,
                reg,
                span: self.span(from, b),
            });
            self.ws();
        }
        let from = self.pos;
        if !self.peek().is_some_and(|c| c.is_ascii_uppercase()) {
            return self.err("expected an opcode", "opcode expected (upper case)");
        }
        while self.peek().is_some_and(|c| is_ident_char(c) || c == b'.') {
            self.pos += 1;
        }
        parts.mnemonic = Some(self.tok(from, self.pos));
        loop {
            self.ws();
            match self.peek() {
                None => {
                    return self.err("expected `;` at the end of the instruction", "missing `;`")
                }
                Some(b';') => {
                    self.pos += 1;
                    break;
                }
                Some(b',') if !parts.operands.is_empty() => {
                    self.pos += 1;
                    self.ws();
                    if matches!(self.peek(), Some(b';' | b',') | None) {
                        return self.err("expected an operand after `,`", "operand expected");
                    }
                }
                Some(b'(') if self.rest().starts_with("(*") => {
                    let Some(end) = self.rest()[2..].find("*)").map(|i| i + 2) else {
                        return self.err("unterminated `(*` annotation", "never closed");
                    };
                    let inner = &self.rest()[2..end];
                    let a = self.pos + 2;
                    self.pos += end + 2;
                    let inner_t = inner.trim();
                    let q = inner_t
                        .strip_prefix('"')
                        .and_then(|x| x.strip_suffix('"'))
                        .unwrap_or(inner_t);
                    let qa = a + (q.as_ptr() as usize - inner.as_ptr() as usize);
                    parts.annotations.push(self.tok(qa, qa + q.len()));
                }
                Some(_) => {
                    let op = self.operand(0)?;
                    parts.operands.push(op);
                }
            }
        }
        Ok(std::mem::take(parts))
    }

    fn operand(&mut self, depth: u32) -> PResult<Operand<'src>> {
        let from = self.pos;
        let mut op = Operand {
            kind: OperandKind::Name(self.tok(from, from)),
            negated: false,
            not: false,
            inverted: false,
            absolute: false,
            modifiers: Vec::new(),
            span: Span::default(),
        };
        // Prefix operators.
        loop {
            match self.peek() {
                Some(b'-')
                    if !self.rest()[1..].starts_with(|c: char| c.is_ascii_digit())
                        && !self.rest()[1..].starts_with("INF")
                        && !self.rest()[1..].starts_with("QNAN") =>
                {
                    op.negated = true;
                    self.pos += 1;
                }
                Some(b'!') => {
                    op.not = true;
                    self.pos += 1;
                }
                Some(b'~') => {
                    op.inverted = true;
                    self.pos += 1;
                }
                Some(b'|') if !op.absolute => {
                    op.absolute = true;
                    self.pos += 1;
                }
                _ => break,
            }
        }
        op.kind = self.atom(depth)?;
        self.modifiers(&mut op.modifiers);
        if op.absolute {
            if !self.eat("|") {
                return self.err("expected `|` closing the absolute value", "`|` expected");
            }
            self.modifiers(&mut op.modifiers);
        }
        op.span = self.span(from, self.pos);
        Ok(op)
    }

    fn modifiers(&mut self, out: &mut Vec<Tok<'src>>) {
        while self.peek() == Some(b'.')
            && self
                .s
                .as_bytes()
                .get(self.pos + 1)
                .is_some_and(|&c| is_ident_char(c))
        {
            self.pos += 1;
            if let Some(m) = self.modifier() {
                out.push(m);
            }
        }
    }

    fn atom(&mut self, depth: u32) -> PResult<OperandKind<'src>> {
        match self.peek() {
            Some(b'[') => {
                let addr = self.address()?;
                Ok(OperandKind::Memory { desc: None, addr })
            }
            Some(b'`') => {
                self.pos += 1;
                if !self.eat("(") {
                    return self.err("expected `(` after `` ` ``", "`(` expected");
                }
                let a = self.pos;
                let Some(end) = self.rest().find(')') else {
                    return self.err("unterminated label reference", "`)` expected");
                };
                self.pos += end + 1;
                let t = self.tok(a, a + end);
                if t.text.trim().is_empty() {
                    return Err((a, "empty label reference".into(), "label expected"));
                }
                Ok(OperandKind::Label(t))
            }
            Some(b'{') => {
                if depth >= MAX_DEPTH {
                    return self.err("brace lists nest too deeply", "too deep");
                }
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.ws();
                    if self.eat("}") {
                        break;
                    }
                    if self.peek().is_none() {
                        return self.err("expected `}`", "unclosed `{`");
                    }
                    items.push(self.operand(depth + 1)?);
                    self.ws();
                    if !self.eat(",") && self.peek() != Some(b'}') {
                        return self.err("expected `,` or `}`", "`,` or `}` expected");
                    }
                }
                Ok(OperandKind::List(items))
            }
            Some(c) if c.is_ascii_digit() || c == b'-' || c == b'+' => self.number_like(),
            Some(c) if is_ident_start(c) => {
                let (a, b) = self.ident().expect("checked start");
                let word = &self.s[a..b];
                if self.peek() == Some(b'[') {
                    return self.bracketed(a, b);
                }
                if matches!(word, "INF" | "QNAN" | "NAN") {
                    return Ok(OperandKind::Float(self.tok(a, b)));
                }
                if self.peek() == Some(b'@') {
                    return self.relocation(a);
                }
                // Special registers keep their `.X` component in the name.
                if word.starts_with("SR_") {
                    if let Some(r) = self.rest().strip_prefix('.') {
                        if r.starts_with(['X', 'Y', 'Z'])
                            && !r[1..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                        {
                            self.pos += 2;
                        }
                    }
                    let t = self.tok(a, self.pos);
                    return Ok(OperandKind::Reg(Register {
                        file: RegFile::Sr,
                        index: None,
                        name: t,
                    }));
                }
                let t = self.tok(a, b);
                match register(t) {
                    Some(r) => Ok(OperandKind::Reg(r)),
                    None if looks_like_register(word) => Err((
                        a,
                        format!("`{word}` is not a register of this file"),
                        "register number out of range",
                    )),
                    None => Ok(OperandKind::Name(t)),
                }
            }
            _ => self.err("expected an operand", "operand expected"),
        }
    }

    /// `c[..][..]`, `cx[..][..]`, `desc[..][..]`, `gdesc[..]`, `tmem[..]`.
    fn bracketed(&mut self, a: usize, b: usize) -> PResult<OperandKind<'src>> {
        let word = &self.s[a..b];
        match word {
            "c" | "cx" => {
                let first = self.address()?;
                let bank = match first.terms.as_slice() {
                    [AddrTerm::Imm(v)] => OperandKind::Int(*v),
                    [AddrTerm::Reg(r, _)] => OperandKind::Reg(*r),
                    _ => {
                        return Err((
                            a,
                            "malformed constant bank".into(),
                            "expected `c[bank][offset]`",
                        ))
                    }
                };
                if self.peek() != Some(b'[') {
                    return self.err(
                        "expected `[offset]` after the constant bank",
                        "`[` expected",
                    );
                }
                let addr = self.address()?;
                let bank = Operand {
                    kind: bank,
                    negated: false,
                    not: false,
                    inverted: false,
                    absolute: false,
                    modifiers: Vec::new(),
                    span: first.span,
                };
                Ok(OperandKind::ConstBank {
                    bank: Box::new(bank),
                    addr,
                })
            }
            "desc" => {
                let d = self.address()?;
                let desc = match d.terms.as_slice() {
                    [AddrTerm::Reg(r, _)] => *r,
                    _ => {
                        return Err((
                            a,
                            "malformed memory descriptor".into(),
                            "expected `desc[URn]`",
                        ))
                    }
                };
                if self.peek() != Some(b'[') {
                    return self.err("expected `[address]` after the descriptor", "`[` expected");
                }
                let addr = self.address()?;
                Ok(OperandKind::Memory {
                    desc: Some(desc),
                    addr,
                })
            }
            _ => {
                let kind = self.tok(a, b);
                let addr = self.address()?;
                Ok(OperandKind::Descriptor { kind, addr })
            }
        }
    }

    /// `[term (+|-) term ...]`
    fn address(&mut self) -> PResult<Address<'src>> {
        let from = self.pos;
        if !self.eat("[") {
            return self.err("expected `[`", "`[` expected");
        }
        let mut terms = Vec::new();
        let mut sign = 1i64;
        // After `+` or `-` a term must follow.
        let mut need_term = false;
        loop {
            self.ws();
            match self.peek() {
                Some(b']') if !terms.is_empty() && !need_term => {
                    self.pos += 1;
                    break;
                }
                Some(b'-') => {
                    sign = -sign;
                    need_term = true;
                    self.pos += 1;
                }
                Some(b'+') if !terms.is_empty() && !need_term => {
                    need_term = true;
                    self.pos += 1;
                }
                Some(c) if c.is_ascii_digit() => {
                    let a = self.pos;
                    while self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
                        self.pos += 1;
                    }
                    let Some(v) = parse_int(&self.s[a..self.pos]) else {
                        return Err((
                            a,
                            format!("`{}` is not an integer", &self.s[a..self.pos]),
                            "integer expected",
                        ));
                    };
                    terms.push(AddrTerm::Imm(v.wrapping_mul(sign)));
                    sign = 1;
                    need_term = false;
                    self.after_term()?;
                }
                Some(c) if is_ident_start(c) => {
                    let (a, b) = self.ident().expect("checked");
                    let Some(r) = register(self.tok(a, b)) else {
                        return Err((
                            a,
                            format!("`{}` is not a register", &self.s[a..b]),
                            "register expected",
                        ));
                    };
                    let mut mods = Vec::new();
                    self.modifiers(&mut mods);
                    terms.push(AddrTerm::Reg(r, mods));
                    sign = 1;
                    need_term = false;
                    self.after_term()?;
                }
                _ => {
                    return self.err(
                        "expected a register or an offset in the address",
                        "address term expected",
                    )
                }
            }
        }
        Ok(Address {
            terms,
            span: self.span(from, self.pos),
        })
    }

    fn after_term(&mut self) -> PResult<()> {
        self.ws();
        match self.peek() {
            Some(b']' | b'+' | b'-') => Ok(()),
            _ => self.err("expected `+`, `-` or `]`", "`]` expected"),
        }
    }

    /// Integers, floats, `+INF`, `-QNAN`, `2D` (a keyword), `32@lo(sym)`.
    fn number_like(&mut self) -> PResult<OperandKind<'src>> {
        let a = self.pos;
        if matches!(self.peek(), Some(b'-' | b'+')) {
            self.pos += 1;
        }
        if self.eat("INF") || self.eat("QNAN") || self.eat("NAN") {
            return Ok(OperandKind::Float(self.tok(a, self.pos)));
        }
        let digits_from = self.pos;
        let hex = self.eat("0x") || self.eat("0X");
        while self.peek().is_some_and(|c| {
            if hex {
                c.is_ascii_hexdigit()
            } else {
                c.is_ascii_digit()
            }
        }) {
            self.pos += 1;
        }
        if self.pos == digits_from {
            return self.err("expected a number", "number expected");
        }
        let mut float = false;
        if !hex
            && self.peek() == Some(b'.')
            && self
                .s
                .as_bytes()
                .get(self.pos + 1)
                .is_some_and(|c| c.is_ascii_digit())
        {
            float = true;
            self.pos += 1;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        if !hex
            && matches!(self.peek(), Some(b'e' | b'E'))
            && self
                .s
                .as_bytes()
                .get(self.pos + 1)
                .is_some_and(|c| c.is_ascii_digit() || *c == b'+' || *c == b'-')
        {
            float = true;
            self.pos += 2;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        if self.peek() == Some(b'@') {
            return self.relocation(a);
        }
        if !float && self.peek().is_some_and(is_ident_char) {
            // `2D`, `3D`, `1D_ARRAY`: a keyword that starts with a digit.
            while self.peek().is_some_and(is_ident_char) {
                self.pos += 1;
            }
            return Ok(OperandKind::Name(self.tok(a, self.pos)));
        }
        let t = self.tok(a, self.pos);
        if float {
            if self.peek() == Some(b'.') {
                return self.err("malformed floating-point number", "unexpected `.`");
            }
            return Ok(OperandKind::Float(t));
        }
        match parse_int(t.text) {
            Some(v) => Ok(OperandKind::Int(v)),
            None => Err((
                a,
                format!("`{}` does not fit in 64 bits", t.text),
                "integer too large",
            )),
        }
    }

    /// `32@lo(sym)`, `fn@srel`, `index@(sym)`.
    fn relocation(&mut self, a: usize) -> PResult<OperandKind<'src>> {
        self.pos += 1; // '@'
        while self.peek().is_some_and(is_ident_char) {
            self.pos += 1;
        }
        let kind = self.tok(a, self.pos);
        if self.eat("(") {
            let s = self.pos;
            let Some(end) = self.rest().find(')') else {
                return self.err("unterminated relocation", "`)` expected");
            };
            self.pos += end + 1;
            return Ok(OperandKind::Relocation {
                kind,
                symbol: self.tok(s, s + end),
            });
        }
        Ok(OperandKind::Relocation {
            kind,
            symbol: self.tok(a, a),
        })
    }
}

/// Reads a register name: `R12`, `RZ`, `UR4`, `URZ`, `P0`, `PT`, `UP1`,
/// `UPT`, `B3`, `SB0`, `SRZ`, `SR_LANEID`.
pub fn register(t: Tok<'_>) -> Option<Register<'_>> {
    let s = t.text;
    let num = |p: &str, max: u32| -> Option<Option<u32>> {
        let d = s.strip_prefix(p)?;
        if d.is_empty()
            || !d.bytes().all(|c| c.is_ascii_digit())
            || (d.len() > 1 && d.starts_with('0'))
        {
            return None;
        }
        let n: u32 = d.parse().ok()?;
        (n <= max).then_some(Some(n))
    };
    let (file, index) = match s {
        "RZ" => (RegFile::R, None),
        "URZ" => (RegFile::Ur, None),
        "PT" => (RegFile::P, None),
        "UPT" => (RegFile::Up, None),
        "SRZ" => (RegFile::Sr, None),
        _ if s.starts_with("SR_") => (RegFile::Sr, None),
        _ => {
            if let Some(i) = num("UR", 255) {
                (RegFile::Ur, i)
            } else if let Some(i) = num("UP", 7) {
                (RegFile::Up, i)
            } else if let Some(i) = num("SB", 7) {
                (RegFile::Sb, i)
            } else if let Some(i) = num("R", 255) {
                (RegFile::R, i)
            } else if let Some(i) = num("P", 7) {
                (RegFile::P, i)
            } else if let Some(i) = num("B", 15) {
                (RegFile::B, i)
            } else {
                return None;
            }
        }
    };
    Some(Register {
        file,
        index,
        name: t,
    })
}

/// `R999`, `UR300`, `P8`, `R012`: a register name with a number that no
/// register file has.
fn looks_like_register(w: &str) -> bool {
    ["UR", "UP", "SB", "R", "P", "B"].iter().any(|p| {
        w.strip_prefix(p)
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
    })
}

/// `0x1f`, `-0x160`, `12`, `-3` → the value (wrapping to 64 bits for hex
/// words such as `0xffffffffffffffff`).
pub fn parse_int(s: &str) -> Option<i64> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()? as i64
    } else {
        if body.is_empty() || !body.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        body.parse::<i64>().ok()?
    };
    Some(if neg { v.wrapping_neg() } else { v })
}

/// The architecture named by `.headerflags`' first `EF_CUDA_SM<n>` flag
/// (`SM90` of `@"EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 …"`), a slice of `args`.
fn headerflags_sm(args: &str) -> Option<&str> {
    let i = args.find("EF_CUDA_SM")? + "EF_CUDA_".len();
    let rest = &args[i..];
    let n = 2 + rest[2..]
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(rest.len() - 2);
    let a = &rest[..n];
    a[2..]
        .starts_with(|c: char| c.is_ascii_digit())
        .then_some(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// nvdisasm's listing of a Triton cubin has no `.target`: the
    /// architecture comes from `.headerflags` (the header of
    /// `tests/hw/blind3/raw/sass.tgz`'s `triton_td_transpose_batched`).
    #[test]
    fn architecture_from_headerflags() {
        let src = "nvdisasm warning : Disassembling Std Elf to Old format or Old Elf to Std format not supported yet, switching to Old format\n\t.headerflags\t@\"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_ACCELERATORS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n\t.elftype\t@\"ET_EXEC\"\n\n\t.section\t.text.k,\"ax\",@progbits\n        .global         k\nk:\n        /*0000*/                   EXIT ;\n";
        let (l, _) = parse(src);
        assert_eq!(l.functions.len(), 1);
        assert_eq!(l.functions[0].sm(), Some(90));
        assert_eq!(
            headerflags_sm("@\"EF_CUDA_SM100 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM100)\""),
            Some("SM100")
        );
        assert_eq!(headerflags_sm("@\"EF_CUDA_64BIT_ADDRESS\""), None);
        // a `.target` is kept
        let with_target = src.replace("\t.elftype", "\t.target\tsm_80\n\t.elftype");
        let (l, _) = parse(&with_target);
        assert_eq!(l.functions[0].sm(), Some(80));
    }
}
