//! The PTX pipeline: text → syntax tree → semantic tables → warp IR →
//! analysis. The entry points that take PTX (a file, a parsed module) live
//! here, on the front end's side of the seam; [`crate::analysis`] itself
//! only reads the IR.

use crate::analysis::{self, launch, Analysis, KernelAnalysis, Options, RegisterFacts};
use crate::ir;
use crate::lower::ptx;
use crate::source::SourceFile;
use crate::syntax::ast::{Function, FunctionId, FunctionKind, Module, StmtId};

/// Parses `file`, analyses every kernel and returns the result with the front
/// end's diagnostics.
///
/// # Example
///
/// ```
/// use warpscope::{analyze, LaunchConfig, Options, SourceFile};
/// # let ptx = r#"
/// # .version 8.0
/// # .target sm_90
/// # .address_size 64
/// # .visible .entry column(.param .u64 column_param_0, .param .u32 column_param_1)
/// # {
/// #     .reg .b32 %r<6>;
/// #     .reg .b64 %rd<6>;
/// #     .reg .f32 %f<2>;
/// #     ld.param.u64 %rd1, [column_param_0];
/// #     ld.param.u32 %r5, [column_param_1];
/// #     cvta.to.global.u64 %rd2, %rd1;
/// #     mov.u32 %r1, %ctaid.x;
/// #     mov.u32 %r2, %ntid.x;
/// #     mov.u32 %r3, %tid.x;
/// #     mad.lo.s32 %r4, %r1, %r2, %r3;
/// #     mul.lo.s32 %r4, %r4, 32;
/// #     mul.wide.s32 %rd3, %r4, 4;
/// #     add.s64 %rd4, %rd2, %rd3;
/// #     ld.global.f32 %f1, [%rd4];
/// #     st.global.f32 [%rd4], %f1;
/// #     ret;
/// # }
/// # "#;
/// let file = SourceFile::from_text("column.ptx", ptx);
/// let opts = Options {
///     launch: LaunchConfig { block: Some([128, 1, 1]), grid: Some([2, 1, 1]), params: vec![] },
///     ..Options::default()
/// };
/// let analysis = analyze(&file, &opts);
/// assert_eq!(analysis.kernels[0].accesses[0].per_request.sectors, 32.0);
/// ```
pub fn analyze(file: &SourceFile, opts: &Options) -> Analysis {
    let (kernels, diagnostics) = analyze_each(file, opts, |k| k);
    Analysis {
        kernels,
        diagnostics,
    }
}

/// [`analyze`] that hands each kernel's analysis to `each` in the worker
/// that computed it, as soon as it is done, and keeps only what `each`
/// returns (in kernel order), with the front end's diagnostics. `check`
/// lints a kernel there and drops its analysis, so that the file's kernels
/// are never all alive at once. It works one function at a time: the whole
/// syntax tree is never built (each worker parses, resolves, lowers and
/// analyses one function's body and drops it); the diagnostics and results
/// are those of [`analyze_module_with_symbols`] after a whole-module parse
/// and [`crate::sema::check_module_without_resolutions`]
/// (`tests/one_function.rs`).
pub fn analyze_each<R: Send>(
    file: &SourceFile,
    opts: &Options,
    each: impl Fn(KernelAnalysis) -> R + Sync,
) -> (Vec<R>, Vec<crate::diagnostic::Diagnostic>) {
    if crate::sass::is_sass_file(file) {
        let a = crate::sass::analyze(file, opts);
        return (a.kernels.into_iter().map(each).collect(), a.diagnostics);
    }
    // One function at a time: the module is parsed without keeping its
    // bodies (each is parsed, checked for the parser's diagnostics and
    // dropped), the module scope is resolved once, and then each worker
    // parses one function's body again, resolves it, lowers and analyses it
    // if it is a kernel, and drops it before taking the next. The whole
    // syntax tree never exists (on the largest cuBLAS file it is 4.6x the
    // text: BENCHMARKS.md, "Stop 20"); the diagnostics are the same, in the
    // same order, as parsing and checking the whole module.
    let (module, mut diagnostics) = crate::syntax::parse_file_lazy(file);
    let (scope, mut sema_diags) = crate::sema::check_module_scope(&module);
    let mut kernel = vec![false; module.functions.len()];
    for id in kernel_ids(&module, opts) {
        kernel[id.index()] = true;
    }
    let globals = ptx::module_globals(&module);
    let files = ptx::module_files(&module);
    let text = file.text();
    use rayon::prelude::*;
    let done: Vec<(Vec<crate::diagnostic::Diagnostic>, Option<R>)> = (0..module.functions.len())
        .into_par_iter()
        .map(|i| {
            let header = module.function(FunctionId(i as u32));
            let parsed;
            let func = match &header.body {
                Some(b) => {
                    parsed = Function {
                        body: Some(crate::syntax::parse_body(text, b.span)),
                        ..header.clone()
                    };
                    &parsed
                }
                None => header,
            };
            let (symbols, diags) = crate::sema::check_function_symbols(func, &scope);
            if !kernel[i] {
                return (diags, None);
            }
            let callees = ptx::Callees::lazy(&module, text, i, func);
            let ir = ptx::lower_in(func, Some(&callees), &globals, &files, symbols.scopes());
            drop(callees);
            drop(symbols);
            let analysis = analysis::analyze_function(file, &ir, opts);
            drop(ir);
            (diags, Some(each(analysis)))
        })
        .collect();
    let mut kernels = Vec::new();
    for (diags, result) in done {
        sema_diags.extend(diags);
        kernels.extend(result);
    }
    crate::sema::sort_diagnostics(&mut sema_diags);
    diagnostics.extend(sema_diags);
    (kernels, diagnostics)
}

/// [`analyze_module`] for callers that already ran semantic analysis: labels
/// are resolved through the symbols' scopes instead of rebuilding them.
pub fn analyze_module_with_symbols(
    file: &SourceFile,
    module: &Module<'_>,
    symbols: &crate::sema::ModuleSymbols<'_>,
    opts: &Options,
) -> Vec<KernelAnalysis> {
    analyze_functions(file, module, Some(symbols), opts, |k| k)
}

/// Analyses every kernel (`.entry` with a body) of a parsed module.
pub fn analyze_module(
    file: &SourceFile,
    module: &Module<'_>,
    opts: &Options,
) -> Vec<KernelAnalysis> {
    analyze_functions(file, module, None, opts, |k| k)
}

fn analyze_functions<R: Send>(
    file: &SourceFile,
    module: &Module<'_>,
    symbols: Option<&crate::sema::ModuleSymbols<'_>>,
    opts: &Options,
    each: impl Fn(KernelAnalysis) -> R + Sync,
) -> Vec<R> {
    analyze_kernels_each(file, module, symbols, opts, &kernel_ids(module, opts), each)
}

/// The kernels [`analyze_module`] analyses, in source order: every `.entry`
/// with a body whose mangled or demangled name passes `opts.kernel_filter`.
pub fn kernel_ids(module: &Module<'_>, opts: &Options) -> Vec<FunctionId> {
    module
        .function_ids()
        .filter(|&id| {
            let f = module.function(id);
            if f.kind != FunctionKind::Entry || f.body.is_none() {
                return false;
            }
            match &opts.kernel_filter {
                Some(g) => {
                    let name = f.name.text;
                    launch::kernel_matches(g, name, &crate::lower::demangle(name))
                }
                None => true,
            }
        })
        .collect()
}

/// Lowers and analyses the kernels `ids` (from [`kernel_ids`]) of a parsed
/// module, in parallel; the results are in the order of `ids`. With
/// `symbols`, labels resolve through sema's scopes; without, they are
/// rebuilt per function.
pub fn analyze_kernels(
    file: &SourceFile,
    module: &Module<'_>,
    symbols: Option<&crate::sema::ModuleSymbols<'_>>,
    opts: &Options,
    ids: &[FunctionId],
) -> Vec<KernelAnalysis> {
    analyze_kernels_each(file, module, symbols, opts, ids, |k| k)
}

/// [`analyze_kernels`], handing each kernel's analysis to `each` in the
/// worker that computed it (its IR dropped first) and keeping only what
/// `each` returns.
fn analyze_kernels_each<R: Send>(
    file: &SourceFile,
    module: &Module<'_>,
    symbols: Option<&crate::sema::ModuleSymbols<'_>>,
    opts: &Options,
    ids: &[FunctionId],
    each: impl Fn(KernelAnalysis) -> R + Sync,
) -> Vec<R> {
    if ids.is_empty() {
        return Vec::new();
    }
    let globals = ptx::module_globals(module);
    let files = ptx::module_files(module);
    let callees = ptx::Callees::new(module);
    // Kernels are independent: analyse them in parallel (order is kept).
    use rayon::prelude::*;
    ids.par_iter()
        .filter_map(|&id| {
            let func = module.function(id);
            let body = func.body.as_ref()?;
            let built;
            let scopes = match symbols {
                Some(s) => s.function(id).scopes(),
                None => {
                    built = crate::sema::Scopes::build(body);
                    &built
                }
            };
            let ir = ptx::lower_in(func, Some(&callees), &globals, &files, scopes);
            let analysis = analysis::analyze_function(file, &ir, opts);
            drop(ir);
            Some(each(analysis))
        })
        .collect()
}

/// Lowers every function of a module given as text (no diagnostics): for
/// tests and tools that want the IR.
pub fn lower_text(text: &str) -> Vec<ir::Function<'_>> {
    let (module, _) = crate::syntax::parse(text);
    lower_module(&module)
}

/// Lowers every function of a parsed module (label scopes rebuilt).
pub fn lower_module<'src>(module: &Module<'src>) -> Vec<ir::Function<'src>> {
    let globals = ptx::module_globals(module);
    let files = ptx::module_files(module);
    let empty = crate::syntax::ast::Body::default();
    let callees = ptx::Callees::new(module);
    module
        .functions
        .iter()
        .map(|f| {
            let scopes = crate::sema::Scopes::build(f.body.as_ref().unwrap_or(&empty));
            ptx::lower_in(f, Some(&callees), &globals, &files, &scopes)
        })
        .collect()
}

/// What the analysis knows about register `reg` just before statement `stmt`
/// of kernel `kernel` (the launch facts of `opts` apply). `None` when the
/// function is not a kernel with a body, or `reg` is not one of its registers.
pub fn explain_register(
    module: &Module<'_>,
    kernel: FunctionId,
    stmt: StmtId,
    reg: &str,
    opts: &Options,
) -> Option<RegisterFacts> {
    let func = module.functions.get(kernel.index())?;
    if func.kind != FunctionKind::Entry {
        return None;
    }
    let body = func.body.as_ref()?;
    let scopes = crate::sema::Scopes::build(body);
    let ir = ptx::lower_in(
        func,
        Some(&ptx::Callees::new(module)),
        &ptx::module_globals(module),
        &ptx::module_files(module),
        &scopes,
    );
    analysis::explain_register(&ir, ir::OpId(stmt.0), reg, opts)
}
