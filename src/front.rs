//! The front end alone (`warpscope parse`): a PTX file's parse and name
//! resolution, their diagnostics and counts ([`ParseStats`]), without
//! lowering or analysis. SASS listings are parsed by [`crate::sass`].
//!
//! Two ways to the same result. The *sequential* way parses the module
//! with [`syntax::parse_lazy_with`] (each body counted, checked and dropped
//! as it is parsed), builds the module scope, then parses each body again
//! to resolve its names: every body is parsed twice, on one thread. The
//! *parallel* way, tried first, finds the bodies without parsing them
//! ([`syntax::parse_skeleton`]), builds the module scope from that, then
//! parses, counts and resolves each body once, the bodies spread over the
//! threads. It is kept only when it proves itself equal to the sequential
//! way: every body parsed to the extent the skeleton's scan found, and no
//! diagnostic anywhere (a clean file: the order of diagnostics, which the
//! sequential way fixes, does not arise). Otherwise the sequential way
//! runs, so the diagnostics and counts are always the sequential way's
//! (`tests/front_end.rs` compares the two on the test corpus and on broken
//! inputs). Memory: at most one body per thread is alive at a time, as in
//! the sequential way's one.

use crate::diagnostic::Diagnostic;
use crate::sema;
use crate::source::SourceFile;
use crate::syntax::{self, ast::Function, stats::ParseStats};
use rayon::prelude::*;

/// The counts and diagnostics of `file` (PTX): its parse and, unless
/// `syntax_only`, its name resolution; diagnostics sorted by position.
pub fn parse_stats(file: &SourceFile, syntax_only: bool) -> (ParseStats, Vec<Diagnostic>) {
    if !syntax_only {
        if let Some(stats) = parse_stats_parallel(file) {
            return (stats, Vec::new());
        }
    }
    parse_stats_sequential(file, syntax_only)
}

/// The parallel way: the counts of a clean file, or `None` when the file
/// has a diagnostic or a body the skeleton's scan reads differently.
pub fn parse_stats_parallel(file: &SourceFile) -> Option<ParseStats> {
    let text = file.text();
    let (module, diags) = syntax::parse_file_skeleton(file);
    if !diags.is_empty() {
        return None;
    }
    let (scope, scope_diags) = sema::check_module_scope(&module);
    if !scope_diags.is_empty() {
        return None;
    }
    let bodies = module
        .functions
        .par_iter()
        .filter(|f| f.body.is_some())
        .map(|f| {
            let span = f.body.as_ref()?.span;
            let (body, diags) = syntax::parse_body_checked(text, span)?;
            if !diags.is_empty() || body.span != span {
                return None;
            }
            let mut counts = ParseStats::default();
            counts.add_body(&body);
            let f = Function {
                body: Some(body),
                ..f.clone()
            };
            let (_, diags) = sema::check_function_symbols(&f, &scope);
            diags.is_empty().then_some(counts)
        })
        .try_reduce(ParseStats::default, |mut a, b| {
            a.add(&b);
            Some(a)
        })?;
    let mut stats = ParseStats::of_module(text.len(), &module, 0);
    stats.add(&bodies);
    Some(stats)
}

/// The sequential way (see the module's documentation).
pub fn parse_stats_sequential(
    file: &SourceFile,
    syntax_only: bool,
) -> (ParseStats, Vec<Diagnostic>) {
    let text = file.text();
    // One body at a time: each is counted as it is parsed and dropped
    // (and parsed again for name resolution), so the whole tree never
    // exists; its bytes are still counted, body by body.
    let mut bodies = ParseStats::default();
    let (module, mut diags) = syntax::parse_file_lazy_with(file, &mut |f| {
        if let Some(b) = &f.body {
            bodies.add_body(b);
        }
    });
    if !syntax_only {
        let (scope, mut sema_diags) = sema::check_module_scope(&module);
        for f in &module.functions {
            let parsed;
            let f = match &f.body {
                Some(b) => {
                    parsed = Function {
                        body: Some(syntax::parse_body(text, b.span)),
                        ..f.clone()
                    };
                    &parsed
                }
                None => f,
            };
            sema_diags.extend(sema::check_function_symbols(f, &scope).1);
        }
        sema::sort_diagnostics(&mut sema_diags);
        diags.extend(sema_diags);
        diags.sort_by_key(|d| d.span().start);
    }
    let mut stats = ParseStats::of_module(text.len(), &module, diags.len());
    stats.add(&bodies);
    (stats, diags)
}
