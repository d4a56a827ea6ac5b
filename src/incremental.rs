//! Re-analysis of an edited document that reuses the kernels the edit did
//! not touch (the language server's cache).
//!
//! A kernel's analysis is a function of its own definition's text (the
//! `.entry` from its first directive to its closing brace), of the module
//! text outside every kernel (the `.func` bodies that calls inline, module
//! variables, the `.file` table, the target), and of the [`Options`]. It
//! depends on where the kernel sits in the document only through positions:
//! byte spans ([`KernelAnalysis::span`], [`Access::span`],
//! [`ExpectTx::span`]) and PTX line numbers ([`Access::ptx`],
//! [`ExpectTx::ptx`], and the line a stopped launch simulation names in
//! `totals_unavailable`). So a [`KernelCache`] keeps, per kernel name, the
//! definition's text, its first byte and line, and its analysis; when the
//! next version of the document has the same context text, the same options
//! and a kernel whose definition's text is equal, byte for byte, that
//! kernel's analysis is reused with its spans and lines moved by the
//! kernel's displacement, and only the other kernels are lowered and
//! analysed. The positions inside messages (`… (PTX line N)` in
//! `totals_unavailable`, the PTX lines a ptxas-merged access or a loop on
//! loaded data names in its caveats and lane pattern) are not rewritten: an
//! entry carrying one is reused only when the kernel's first line did not
//! move.
//!
//! Invariant: the reused analysis equals what [`crate::pipeline`] computes
//! for the new text (`tests` below compares both on edits before, inside and
//! after a kernel). The cache holds at most the current document's kernels
//! and one copy of their text.

use crate::analysis::{Access, ExpectTx, KernelAnalysis, Options};
use crate::pipeline;
use crate::sema::ModuleSymbols;
use crate::source::{LineCol, SourceFile, Span};
use crate::syntax::ast::{FunctionId, Module};
use std::collections::HashMap;

/// The analyses of the last version of one document, for reuse.
#[derive(Debug, Default)]
pub struct KernelCache {
    options: Option<Options>,
    context: String,
    entries: HashMap<String, Entry>,
    /// Kernels reused and analysed by the last call (for tests and benches).
    pub last: CacheStats,
}

/// What the last [`analyze_module_cached`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Kernels whose analysis was reused.
    pub reused: usize,
    /// Kernels lowered and analysed.
    pub analysed: usize,
}

#[derive(Debug)]
struct Entry {
    text: String,
    start: u32,
    line: u32,
    analysis: KernelAnalysis,
}

/// [`pipeline::analyze_module_with_symbols`] through `cache`: the same
/// kernels in the same order, equal results, with the kernels whose
/// definition and context did not change since the cached version reused.
pub fn analyze_module_cached(
    file: &SourceFile,
    module: &Module<'_>,
    symbols: &ModuleSymbols<'_>,
    opts: &Options,
    cache: &mut KernelCache,
) -> Vec<KernelAnalysis> {
    let text = file.text();
    let ids = pipeline::kernel_ids(module, opts);
    let context = context_text(text, module, &ids);
    if cache.options.as_ref() != Some(opts) || cache.context != context {
        cache.entries.clear();
        cache.options = Some(opts.clone());
        cache.context = context;
    }
    // Which kernels can be reused, and by how much they moved.
    let mut results: Vec<Option<KernelAnalysis>> = Vec::with_capacity(ids.len());
    let mut missing: Vec<FunctionId> = Vec::new();
    // Each kernel's name, definition text, first byte and first line.
    let placed: Vec<(&str, &str, u32, u32)> = ids
        .iter()
        .map(|&id| {
            let f = module.function(id);
            let line = file.line_col(f.span.start).line;
            (f.name.text, slice(text, f.span), f.span.start, line)
        })
        .collect();
    for (&id, &(name, def, start, line)) in ids.iter().zip(&placed) {
        let reused = cache.entries.get(name).and_then(|e| {
            if e.text != def {
                return None;
            }
            let lines = i64::from(line) - i64::from(e.line);
            let names_line = e
                .analysis
                .totals_unavailable
                .as_deref()
                .is_some_and(|s| s.contains("(PTX line "))
                || e.analysis.caveats.iter().any(|c| c.names_ptx_lines())
                || e.analysis
                    .accesses
                    .iter()
                    .any(|a| a.caveats.iter().any(|c| c.names_ptx_lines()));
            if lines != 0 && names_line {
                return None;
            }
            let mut k = e.analysis.clone();
            shift(&mut k, i64::from(start) - i64::from(e.start), lines);
            Some(k)
        });
        if reused.is_none() {
            missing.push(id);
        }
        results.push(reused);
    }
    cache.last = CacheStats {
        reused: ids.len() - missing.len(),
        analysed: missing.len(),
    };
    let mut fresh =
        pipeline::analyze_kernels(file, module, Some(symbols), opts, &missing).into_iter();
    let kernels: Vec<KernelAnalysis> = results
        .into_iter()
        .map(|r| r.or_else(|| fresh.next()))
        .collect::<Option<Vec<_>>>()
        .unwrap_or_default();
    // Keep exactly this version's kernels.
    cache.entries.clear();
    for (&(name, def, start, line), k) in placed.iter().zip(&kernels) {
        cache.entries.insert(
            name.to_string(),
            Entry {
                text: def.to_string(),
                start,
                line,
                analysis: k.clone(),
            },
        );
    }
    kernels
}

fn slice(text: &str, span: Span) -> &str {
    text.get(span.start as usize..span.end as usize)
        .unwrap_or_default()
}

/// The module's text with every analysed kernel's definition cut out (a
/// NUL marks each cut, so moving text across a kernel changes it).
fn context_text(text: &str, module: &Module<'_>, ids: &[FunctionId]) -> String {
    let mut spans: Vec<Span> = ids.iter().map(|&id| module.function(id).span).collect();
    spans.sort_by_key(|s| s.start);
    let mut out = String::with_capacity(text.len() / 8);
    let mut at = 0usize;
    for s in spans {
        let (start, end) = (s.start as usize, s.end as usize);
        if start < at || end > text.len() {
            continue;
        }
        out.push_str(text.get(at..start).unwrap_or_default());
        out.push('\0');
        at = end;
    }
    out.push_str(text.get(at..).unwrap_or_default());
    out
}

fn shift(k: &mut KernelAnalysis, bytes: i64, lines: i64) {
    if bytes == 0 && lines == 0 {
        return;
    }
    k.span = shift_span(k.span, bytes);
    for a in &mut k.accesses {
        let Access { span, ptx, .. } = a;
        *span = shift_span(*span, bytes);
        *ptx = shift_line(*ptx, lines);
    }
    for e in &mut k.expect_tx {
        let ExpectTx { span, ptx, .. } = e;
        *span = shift_span(*span, bytes);
        *ptx = shift_line(*ptx, lines);
    }
}

fn shift_span(s: Span, by: i64) -> Span {
    let move_ = |x: u32| u32::try_from(i64::from(x) + by).unwrap_or(0);
    Span {
        start: move_(s.start),
        end: move_(s.end),
    }
}

fn shift_line(lc: LineCol, by: i64) -> LineCol {
    LineCol {
        line: u32::try_from(i64::from(lc.line) + by).unwrap_or(1),
        column: lc.column,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNEL: &str = include_str!("../tests/nvim/fixtures/saxpy_strided.ptx");

    /// A module of three copies of the fixture's kernel under three names.
    fn three_kernels() -> String {
        let at = KERNEL.find(".visible .entry").unwrap();
        let (header, body) = KERNEL.split_at(at);
        let mut s = header.to_string();
        for i in 0..3 {
            s.push_str(&body.replace("_Z6stridePfS_i", &format!("_Z6stridePfS_i_{i}")));
        }
        s
    }

    fn analyse(text: &str, cache: &mut KernelCache) -> (Vec<KernelAnalysis>, CacheStats) {
        let file = SourceFile::from_text("t.ptx", text);
        let (module, _) = crate::syntax::parse_file(&file);
        let (symbols, _) = crate::sema::check_module(&module);
        let opts = Options::default();
        let cached = analyze_module_cached(&file, &module, &symbols, &opts, cache);
        let fresh = pipeline::analyze_module_with_symbols(&file, &module, &symbols, &opts);
        assert_eq!(
            cached, fresh,
            "the cache's result differs from a fresh analysis"
        );
        (cached, cache.last)
    }

    /// Offset of the `n`th occurrence of `pat`.
    fn nth(text: &str, pat: &str, n: usize) -> usize {
        text.match_indices(pat).nth(n).unwrap().0
    }

    #[test]
    fn an_edit_inside_one_kernel_reanalyses_only_it() {
        let mut cache = KernelCache::default();
        let text = three_kernels();
        let (first, stats) = analyse(&text, &mut cache);
        assert_eq!(first.len(), 3);
        assert_eq!(
            stats,
            CacheStats {
                reused: 0,
                analysed: 3
            }
        );
        // The same text again: everything reused.
        let (_, stats) = analyse(&text, &mut cache);
        assert_eq!(
            stats,
            CacheStats {
                reused: 3,
                analysed: 0
            }
        );
        // One more character in the second kernel's `.reg` line moves the
        // third kernel by one byte, not by a line.
        let at = nth(&text, ".reg .b32", 1);
        let mut edited = text.clone();
        edited.insert(at, ' ');
        let (_, stats) = analyse(&edited, &mut cache);
        assert_eq!(
            stats,
            CacheStats {
                reused: 2,
                analysed: 1
            }
        );
    }

    #[test]
    fn new_lines_above_a_kernel_move_its_lines() {
        let mut cache = KernelCache::default();
        let text = three_kernels();
        analyse(&text, &mut cache);
        let at = nth(&text, ".reg .b32", 0);
        let mut edited = text.clone();
        edited.insert_str(at, "\n\n");
        // The first kernel changed; the other two moved by two lines.
        let (_, stats) = analyse(&edited, &mut cache);
        assert_eq!(
            stats,
            CacheStats {
                reused: 2,
                analysed: 1
            }
        );
    }

    #[test]
    fn a_change_outside_the_kernels_reanalyses_all() {
        let mut cache = KernelCache::default();
        let text = three_kernels();
        analyse(&text, &mut cache);
        let edited = text.replacen(".address_size 64", ".address_size 64\n// note", 1);
        assert_ne!(edited, text);
        let (_, stats) = analyse(&edited, &mut cache);
        assert_eq!(
            stats,
            CacheStats {
                reused: 0,
                analysed: 3
            }
        );
    }
}
