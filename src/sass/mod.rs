//! The SASS front end: listings printed by `cuobjdump -sass` and `nvdisasm`
//! (with or without `-g`/`-gi` line information, `-c`, `-hex`), for sm_70
//! through sm_120.
//!
//! [`parse`] reads a listing into a span-carrying tree ([`ast::Listing`]):
//! functions, their instructions with predicates, operands (registers of
//! every file, constant-bank and memory operands, label references,
//! relocations), encoding words and the scheduling bits they hold, labels,
//! line information and the `.nv.info` parameter facts when printed. Like
//! the PTX parser it never fails: a malformed line is one diagnostic
//! (`E0010`), and the line after it is read as usual. `grammar/sass.ebnf`
//! documents the syntax; `tests/sass_grammar.rs` tests every production.
//!
//! [`looks_like_sass`] tells a listing from PTX by content, for inputs
//! without the `.sass` extension.

pub mod ast;
mod parser;

pub use parser::{parse, parse_file, parse_int, register, MAX_DEPTH};

/// True when `text` reads as a SASS listing rather than PTX: among its first
/// lines is a `cuobjdump` header (`code for sm_`, `Function :`, `Fatbin elf
/// code:`), an `nvdisasm` header (`.headerflags`, `.elftype`) or an
/// instruction line (`/*0000*/`), before any PTX `.version` directive.
pub fn looks_like_sass(text: &str) -> bool {
    for line in text.lines().take(200) {
        let t = line.trim();
        if t.starts_with(".version") || t.starts_with(".target") && t.contains(',') {
            return false;
        }
        if t.starts_with("code for sm_")
            || t.starts_with("Function :")
            || t.starts_with("Fatbin elf code:")
            || t.starts_with(".headerflags")
            || t.starts_with(".elftype")
            || is_offset_comment(t)
        {
            return true;
        }
    }
    false
}

/// `/*0120*/` at the start of a line.
fn is_offset_comment(t: &str) -> bool {
    t.strip_prefix("/*")
        .and_then(|r| r.split_once("*/"))
        .is_some_and(|(h, _)| {
            !h.is_empty() && h.len() <= 16 && h.bytes().all(|b| b.is_ascii_hexdigit())
        })
}

/// True when the path names a SASS listing by extension (`.sass`).
pub fn has_sass_extension(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sass"))
}

/// Parse statistics of a listing, in the form `warpscope parse --stats`
/// prints for PTX: every function counts, kernels separately; statements are
/// the listing's lines; no SASS opcode is "unknown" (the opcode set changes
/// with every architecture and is not checked).
pub fn stats(
    bytes: usize,
    listing: &ast::Listing<'_>,
    diagnostics: usize,
) -> crate::syntax::stats::ParseStats {
    let mut s = crate::syntax::stats::ParseStats {
        files: 1,
        bytes: bytes as u64,
        diagnostics: diagnostics as u64,
        statements: listing.lines as u64,
        ..Default::default()
    };
    for f in &listing.functions {
        if f.entry {
            s.kernels += 1;
        } else {
            s.functions += 1;
        }
        s.instructions += f.instructions.len() as u64;
    }
    s
}

/// True when the file is read as SASS: by its `.sass` extension, else by
/// its content ([`looks_like_sass`]).
pub fn is_sass_file(file: &crate::source::SourceFile) -> bool {
    has_sass_extension(std::path::Path::new(file.name())) || looks_like_sass(file.text())
}

/// Parses a SASS listing and analyses every kernel in it, like
/// [`crate::analyze`] does for PTX: each function is lowered to the warp IR
/// ([`crate::lower::sass`]) and analysed; each access carries its SASS
/// offset ([`crate::Access::sass_offset`]) and, when the listing has line
/// information, its CUDA source line.
pub fn analyze(file: &crate::source::SourceFile, opts: &crate::Options) -> crate::Analysis {
    use rayon::prelude::*;
    let (listing, diagnostics) = parse_file(file);
    let kernels = listing
        .functions
        .par_iter()
        .filter(|f| f.entry && !f.instructions.is_empty())
        .filter(|f| match &opts.kernel_filter {
            Some(g) => crate::analysis::launch::kernel_matches(
                g,
                f.name.text,
                &crate::lower::demangle(f.name.text),
            ),
            None => true,
        })
        .map(|f| {
            let ir = crate::lower::sass::lower(f);
            let mut k = crate::analysis::analyze_function(file, &ir, opts);
            for a in &mut k.accesses {
                a.sass_offset = f
                    .instructions
                    .iter()
                    .find(|i| i.span == a.span)
                    .map(|i| i.offset);
            }
            k
        })
        .collect();
    crate::Analysis {
        kernels,
        diagnostics,
    }
}
