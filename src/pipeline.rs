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
/// are never all alive at once. It works one function at a time
/// ([`analyze_in_order`]): the whole syntax tree is never built; the
/// diagnostics and results are those of [`analyze_module_with_symbols`]
/// after a whole-module parse and
/// [`crate::sema::check_module_without_resolutions`]
/// (`tests/one_function.rs`).
pub fn analyze_each<R: Send>(
    file: &SourceFile,
    opts: &Options,
    each: impl Fn(KernelAnalysis) -> R + Sync,
) -> (Vec<R>, Vec<crate::diagnostic::Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut sema_diags = Vec::new();
    let mut kernels = Vec::new();
    analyze_in_order(file, opts, each, |event| match event {
        Event::Start { parse, scope, .. } => {
            diagnostics = parse;
            sema_diags = scope;
        }
        Event::Function {
            diagnostics,
            kernel,
            ..
        } => {
            sema_diags.extend(diagnostics);
            kernels.extend(kernel);
        }
    });
    crate::sema::sort_diagnostics(&mut sema_diags);
    diagnostics.extend(sema_diags);
    (kernels, diagnostics)
}

/// What [`analyze_settled`] hands over: the next stretch of the file.
#[derive(Debug)]
pub struct Stretch<R> {
    /// The source files the module's `.file` directives name, in order (in
    /// the first stretch only, before any diagnostic).
    pub files: Vec<String>,
    /// The file gets no more diagnostic below this position (`u32::MAX` in
    /// the last stretch): the module's own statements get theirs from the
    /// parser and the module scope, before any function; a function's name
    /// resolution reports inside its definition; a kernel's findings lie in
    /// its own definition or in the body of a function it inlines.
    pub limit: u32,
    /// The front end's diagnostics below `limit` not handed over before, in
    /// the order [`analyze_each`] gives them.
    pub diagnostics: Vec<crate::diagnostic::Diagnostic>,
    /// What `each` returned for the kernels done since the last stretch,
    /// in kernel order.
    pub kernels: Vec<R>,
}

/// [`analyze_each`] that hands the file over a stretch at a time, in order,
/// as soon as every function that could add a diagnostic to the stretch is
/// done: a caller can print the diagnostics of the file's beginning while
/// the rest is analysed (`check` does: `lints::check_file_parts`). The
/// stretches' diagnostics put end to end are [`analyze_each`]'s (a stable
/// sort by position restricted to a stretch is the whole sort's
/// restriction), and so are their kernels. Workers take the functions in
/// source order, so the functions done but not yet handed over are at most
/// those the other workers took after the one still running.
pub fn analyze_settled<R: Send>(
    file: &SourceFile,
    opts: &Options,
    each: impl Fn(KernelAnalysis) -> R + Sync,
    mut stretch: impl FnMut(Stretch<R>) + Send,
) {
    use crate::diagnostic::Diagnostic;
    /// What is found and not yet handed over.
    struct Pending<R> {
        layout: Layout,
        parse: Vec<Diagnostic>,
        sema: Vec<Diagnostic>,
        kernels: Vec<R>,
        settled: u32,
    }
    impl<R> Pending<R> {
        fn take_below(&mut self, limit: u32) -> Stretch<R> {
            let below = |d: &Diagnostic| d.span().start < limit;
            let (mut diagnostics, rest): (Vec<_>, Vec<_>) =
                std::mem::take(&mut self.parse).into_iter().partition(below);
            self.parse = rest;
            let (mut sema, rest): (Vec<_>, Vec<_>) =
                std::mem::take(&mut self.sema).into_iter().partition(below);
            self.sema = rest;
            crate::sema::sort_diagnostics(&mut sema);
            diagnostics.extend(sema);
            self.settled = limit;
            Stretch {
                files: Vec::new(),
                limit,
                diagnostics,
                kernels: std::mem::take(&mut self.kernels),
            }
        }
    }
    let mut pending: Option<Pending<R>> = None;
    analyze_in_order(file, opts, each, |event| match event {
        Event::Start {
            layout,
            parse,
            scope,
        } => {
            stretch(Stretch {
                files: layout.files.clone(),
                limit: 0,
                diagnostics: Vec::new(),
                kernels: Vec::new(),
            });
            pending = Some(Pending {
                layout,
                parse,
                sema: scope,
                kernels: Vec::new(),
                settled: 0,
            });
        }
        Event::Function {
            index,
            diagnostics,
            kernel,
        } => {
            let Some(p) = pending.as_mut() else {
                return;
            };
            p.sema.extend(diagnostics);
            p.kernels.extend(kernel);
            let limit = p.layout.settled(index + 1);
            if limit > p.settled && limit != u32::MAX {
                stretch(p.take_below(limit));
            }
        }
    });
    if let Some(mut p) = pending {
        stretch(p.take_below(u32::MAX));
    }
}

/// Where a file's functions lie in its text, as [`analyze_in_order`] sees
/// them: what tells a caller which positions of the file can get no more
/// diagnostics once the first functions are done ([`Layout::settled`]).
#[derive(Clone, Debug, Default)]
struct Layout {
    /// Where each function's definition ends, in source order.
    ends: Vec<u32>,
    /// The last function analysed as a kernel.
    last_kernel: Option<usize>,
    /// Where the first function with a body that a kernel may inline
    /// starts (a kernel's accesses lie in its own body or in an inlined
    /// callee's).
    first_callee: Option<u32>,
    /// The source files the module's `.file` directives name, in order.
    files: Vec<String>,
}

impl Layout {
    /// A file whose diagnostics settle only when all of its `n` units are
    /// done (SASS listings).
    fn whole(n: usize) -> Layout {
        Layout {
            ends: vec![0; n],
            last_kernel: n.checked_sub(1),
            first_callee: Some(0),
            files: Vec::new(),
        }
    }

    /// The position below which no diagnostic can be added once functions
    /// `0..done` are done (`u32::MAX` once all are): the module's own
    /// statements get theirs from the parser and the module scope, before
    /// any function; function `i`'s name resolution reports inside its
    /// definition, after the end of function `i - 1`; a kernel's findings
    /// lie in its own definition or in the body of a function it inlines.
    fn settled(&self, done: usize) -> u32 {
        if done >= self.ends.len() {
            return u32::MAX;
        }
        let mut at = match done {
            0 => 0,
            _ => self.ends[done - 1],
        };
        if self.last_kernel.is_some_and(|k| k >= done) {
            at = at.min(self.first_callee.unwrap_or(u32::MAX));
        }
        at
    }
}

/// What [`analyze_in_order`] hands to its caller.
enum Event<R> {
    /// Before any function: the file's layout, the parser's diagnostics
    /// (in the parser's order) and the module scope's (unsorted; with every
    /// function's, they are sorted by [`crate::sema::sort_diagnostics`]).
    Start {
        /// Where the functions lie.
        layout: Layout,
        /// The parser's diagnostics.
        parse: Vec<crate::diagnostic::Diagnostic>,
        /// Name resolution's diagnostics of the module scope.
        scope: Vec<crate::diagnostic::Diagnostic>,
    },
    /// Function `index` (in source order) is done, and every function
    /// before it: its name resolution's diagnostics and, for a kernel, what
    /// `each` returned for its analysis.
    Function {
        /// The function's index in the module.
        index: usize,
        /// Its name resolution's diagnostics.
        diagnostics: Vec<crate::diagnostic::Diagnostic>,
        /// What `each` returned, for a kernel.
        kernel: Option<R>,
    },
}

/// Analyses a file one function at a time and hands each function's result
/// to `done` in source order, as soon as it and every function before it
/// are done, on whichever worker finished last: a caller can print the
/// diagnostics of the file's beginning while the rest is analysed
/// ([`Layout::settled`] says which). `each` runs in the worker that
/// analysed a kernel, as in [`analyze_each`].
///
/// The module is parsed without keeping its bodies (each is parsed,
/// checked for the parser's diagnostics and dropped), the module scope is
/// resolved once, and then each worker takes the next function in source
/// order, parses its body again, resolves it, lowers and analyses it if it
/// is a kernel, and drops it. The whole syntax tree never exists (on the
/// largest cuBLAS file it is 4.6x the text: BENCHMARKS.md, "Stop 20"), and
/// the functions done but not yet handed over are at most those the other
/// workers took after the one still running.
fn analyze_in_order<R: Send>(
    file: &SourceFile,
    opts: &Options,
    each: impl Fn(KernelAnalysis) -> R + Sync,
    mut done: impl FnMut(Event<R>) + Send,
) {
    if crate::sass::is_sass_file(file) {
        let a = crate::sass::analyze(file, opts);
        done(Event::Start {
            layout: Layout::whole(a.kernels.len()),
            parse: a.diagnostics,
            scope: Vec::new(),
        });
        for (index, k) in a.kernels.into_iter().enumerate() {
            done(Event::Function {
                index,
                diagnostics: Vec::new(),
                kernel: Some(each(k)),
            });
        }
        return;
    }
    let (module, diagnostics) = crate::syntax::parse_file_lazy(file);
    let (scope, sema_diags) = crate::sema::check_module_scope(&module);
    let kernel = kernel_flags(&module, opts);
    let layout = Layout {
        ends: module.functions.iter().map(|f| f.span.end).collect(),
        last_kernel: kernel.iter().rposition(|&k| k),
        first_callee: module
            .functions
            .iter()
            .find(|f| f.kind != FunctionKind::Entry && f.body.is_some())
            .map(|f| f.span.start),
        files: module.files().map(|f| f.name.text.to_string()).collect(),
    };
    done(Event::Start {
        layout,
        parse: diagnostics,
        scope: sema_diags,
    });
    each_function(file, &module, &scope, &kernel, opts, each, |index, d, k| {
        done(Event::Function {
            index,
            diagnostics: d,
            kernel: k,
        })
    });
}

/// Which of a module's functions [`kernel_ids`] analyses.
fn kernel_flags(module: &Module<'_>, opts: &Options) -> Vec<bool> {
    let mut kernel = vec![false; module.functions.len()];
    for id in kernel_ids(module, opts) {
        kernel[id.index()] = true;
    }
    kernel
}

/// The workers of [`analyze_in_order`]: each takes the next function of a
/// module from [`crate::syntax::parse_lazy`] in source order, parses its
/// body again, resolves it against the module scope, lowers and analyses
/// it if it is a kernel (`kernel[i]`), hands the analysis to `each` and
/// drops everything; `done` gets each function's name resolution
/// diagnostics and `each`'s result in source order.
fn each_function<R: Send>(
    file: &SourceFile,
    module: &Module<'_>,
    scope: &crate::sema::ModuleSymbols<'_>,
    kernel: &[bool],
    opts: &Options,
    each: impl Fn(KernelAnalysis) -> R + Sync,
    mut done: impl FnMut(usize, Vec<crate::diagnostic::Diagnostic>, Option<R>) + Send,
) {
    let globals = ptx::module_globals(module);
    let files = ptx::module_files(module);
    let text = file.text();
    in_order(
        module.functions.len(),
        |i| {
            let header = module.function(FunctionId(i as u32));
            let parsed = with_body(text, header);
            let func = parsed.as_ref().unwrap_or(header);
            let (symbols, diags) = crate::sema::check_function_symbols(func, scope);
            if !kernel[i] {
                return (diags, None);
            }
            let callees = ptx::Callees::lazy(module, text, i, func);
            let ir = ptx::lower_in(func, Some(&callees), &globals, &files, symbols.scopes());
            drop(callees);
            drop(symbols);
            let analysis = analysis::analyze_function(file, &ir, opts);
            drop(ir);
            (diags, Some(each(analysis)))
        },
        |index, (diagnostics, kernel)| done(index, diagnostics, kernel),
    );
}

/// A function of a module from [`crate::syntax::parse_lazy`] with its body
/// parsed again from its span (`None` for a declaration).
fn with_body<'src>(text: &'src str, header: &Function<'src>) -> Option<Function<'src>> {
    let b = header.body.as_ref()?;
    Some(Function {
        body: Some(crate::syntax::parse_body(text, b.span)),
        ..header.clone()
    })
}

/// What [`analyze_streamed`] hands over: the file's diagnostics once, then
/// each kernel's result in kernel order.
#[derive(Debug)]
pub enum Streamed<R> {
    /// The front end's diagnostics, all of them ([`analyze_each`]'s).
    Diagnostics(Vec<crate::diagnostic::Diagnostic>),
    /// What `each` returned for the next kernel.
    Kernel(R),
}

/// A file of at least this many bytes gets its diagnostics from a pass of
/// its own before its kernels are analysed in [`analyze_streamed`]; a
/// smaller one's kernel results wait for the end of its analysis.
pub const STREAMED_FROM_BYTES: usize = 1 << 20;

/// [`analyze_each`] for a caller that prints the file's diagnostics before
/// its kernels (`report`): the diagnostics first, then each kernel's result
/// as soon as it and the kernels before it are done, so that a large
/// file's results are never all alive. The diagnostics cover every
/// function, so on a file of [`STREAMED_FROM_BYTES`] or more they come
/// from a pass of their own (each function body parsed and resolved once
/// more, in parallel: the price of streaming, about 0.4 CPU-s on a 60 MB
/// file, BENCHMARKS.md "Stop 22"); a smaller file is analysed as by
/// [`analyze_each`] and its results handed over at the end. The
/// diagnostics and results are [`analyze_each`]'s (`tests/one_function.rs`).
pub fn analyze_streamed<R: Send>(
    file: &SourceFile,
    opts: &Options,
    each: impl Fn(KernelAnalysis) -> R + Sync,
    out: impl FnMut(Streamed<R>) + Send,
) {
    analyze_streamed_from(file, opts, STREAMED_FROM_BYTES, each, out)
}

/// [`analyze_streamed`] with the size from which a file's diagnostics get
/// a pass of their own (0: every PTX file's; tests hold both ways to
/// [`analyze_each`]).
pub fn analyze_streamed_from<R: Send>(
    file: &SourceFile,
    opts: &Options,
    from_bytes: usize,
    each: impl Fn(KernelAnalysis) -> R + Sync,
    mut out: impl FnMut(Streamed<R>) + Send,
) {
    if crate::sass::is_sass_file(file) || file.text().len() < from_bytes {
        let (kernels, diagnostics) = analyze_each(file, opts, each);
        out(Streamed::Diagnostics(diagnostics));
        kernels.into_iter().for_each(|k| out(Streamed::Kernel(k)));
        return;
    }
    let (module, mut diagnostics) = crate::syntax::parse_file_lazy(file);
    let (scope, mut sema_diags) = crate::sema::check_module_scope(&module);
    let text = file.text();
    {
        use rayon::prelude::*;
        let per_function: Vec<Vec<crate::diagnostic::Diagnostic>> = module
            .functions
            .par_iter()
            .map(|header| {
                let parsed = with_body(text, header);
                crate::sema::check_function_symbols(parsed.as_ref().unwrap_or(header), &scope).1
            })
            .collect();
        sema_diags.extend(per_function.into_iter().flatten());
    }
    crate::sema::sort_diagnostics(&mut sema_diags);
    diagnostics.extend(sema_diags);
    out(Streamed::Diagnostics(diagnostics));
    let kernel = kernel_flags(&module, opts);
    each_function(file, &module, &scope, &kernel, opts, each, |_, _, k| {
        if let Some(k) = k {
            out(Streamed::Kernel(k));
        }
    });
}

/// Runs `work` on `0..n` in parallel, each worker taking the next index in
/// order, and calls `deliver` with each result in index order as soon as it
/// and all before it are done (on the worker that completed the run). Only
/// the results finished ahead of a slower one wait: at most one per other
/// worker in steady state, not half the range as a split range would hold.
fn in_order<T: Send>(
    n: usize,
    work: impl Fn(usize) -> T + Sync,
    deliver: impl FnMut(usize, T) + Send,
) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    struct Ready<T, D> {
        next: usize,
        done: Vec<Option<T>>,
        deliver: D,
    }
    let next = AtomicUsize::new(0);
    let ready = Mutex::new(Ready {
        next: 0,
        done: (0..n).map(|_| None).collect(),
        deliver,
    });
    let worker = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= n {
            break;
        }
        let r = work(i);
        // A panic elsewhere (caught by the caller) poisons the lock; the
        // results are still whole.
        let mut guard = ready.lock().unwrap_or_else(|e| e.into_inner());
        let g = &mut *guard;
        g.done[i] = Some(r);
        while let Some(r) = g.done.get_mut(g.next).and_then(Option::take) {
            (g.deliver)(g.next, r);
            g.next += 1;
        }
    };
    let workers = rayon::current_num_threads().clamp(1, n.max(1));
    rayon::scope(|s| {
        for _ in 1..workers {
            s.spawn(|_| worker());
        }
        worker();
    });
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
