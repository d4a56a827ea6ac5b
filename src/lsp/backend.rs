//! The server's one door into the library: everything the editor is told about
//! a document — diagnostics, accesses and their costs, declarations — comes
//! from the library calls in this file. The rest of `src/lsp/` only maps
//! positions, documents and protocol messages.
//!
//! One call, [`analyse`], turns a document's text into owned [`Facts`]: the
//! syntax tree borrows the text and dies at the end of the call; what the
//! requests need afterwards (diagnostics, kernel analyses, a name index,
//! document symbols) is kept.

use super::index::NameIndex;
use lsp_types::SymbolKind;
use std::path::Path;
use warpscope::analysis::{Access, Analysis, KernelAnalysis};
use warpscope::config::{Config, ConfigError};
use warpscope::diagnostic::Diagnostic;
use warpscope::incremental::KernelCache;
use warpscope::source::{SourceFile, Span};
use warpscope::syntax::ast::{FunctionKind, Module, StateSpace, StmtKind, VarDecl};

/// The configuration in force for one document, as discovered from its
/// directory.
#[derive(Clone, Debug, Default)]
pub struct LoadedConfig {
    /// The configuration (defaults when none was found or it was invalid).
    pub config: Config,
    /// Why the configuration file could not be used (shown as a diagnostic;
    /// defaults apply meanwhile).
    pub error: Option<ConfigError>,
}

/// Looks up the configuration for a document in `dir` and upwards through
/// [`warpscope::config::resolve`], the one call `warpscope check` and
/// `warpscope report` use for a file in that directory. A document that is
/// not a file on disk (an untitled buffer) gets the defaults.
pub fn discover_config(dir: Option<&Path>) -> LoadedConfig {
    let Some(dir) = dir else {
        return LoadedConfig::default();
    };
    use warpscope::config::{resolve, ConfigSource, Overrides, ResolveError};
    match resolve(&ConfigSource::Discover, dir, &Overrides::default()) {
        Ok(r) => LoadedConfig {
            config: r.config,
            error: None,
        },
        Err(ResolveError::File(e)) => LoadedConfig {
            config: Config::default(),
            error: Some(e),
        },
        // No overrides: nothing else can fail.
        Err(ResolveError::Override(_)) => LoadedConfig::default(),
    }
}

/// A document symbol (kernel, function, module variable) with its children.
#[derive(Clone, Debug)]
pub struct SymbolNode {
    /// Shown name (mangled, as written).
    pub name: String,
    /// Extra text (`.entry`, demangled name, type).
    pub detail: Option<String>,
    /// LSP symbol kind.
    pub kind: SymbolKind,
    /// The whole definition.
    pub span: Span,
    /// The name.
    pub selection: Span,
    /// Parameters, labels.
    pub children: Vec<SymbolNode>,
}

/// What the server knows about one version of one document.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// Diagnostics with configured levels, as `check` reports them.
    pub diagnostics: Vec<Diagnostic>,
    /// Every analysed kernel.
    pub kernels: Vec<KernelAnalysis>,
    /// Accesses by span: (start, end, kernel index, access index), sorted.
    pub accesses: Vec<(Span, u32, u32)>,
    /// Name occurrences and their declarations.
    pub names: NameIndex,
    /// Kernels, functions and module variables.
    pub symbols: Vec<SymbolNode>,
}

impl Facts {
    /// What to show when the library panicked on a document (a bug): one
    /// diagnostic saying so, at the start of the file.
    pub fn internal_error() -> Facts {
        let d = Diagnostic::new(
            "internal",
            "internal-error",
            warpscope::diagnostic::Severity::Error,
            Span::new(0, 0),
            "warpscope failed on this document (a bug: please report it with the file); edit or save to retry",
        );
        Facts {
            diagnostics: vec![d],
            ..Facts::default()
        }
    }

    /// The access whose instruction covers `offset` (the narrowest one).
    pub fn access_at(&self, offset: u32) -> Option<(&KernelAnalysis, &Access)> {
        let i = self.accesses.partition_point(|(s, _, _)| s.start <= offset);
        self.accesses[..i]
            .iter()
            .rev()
            .filter(|(s, _, _)| s.contains(offset))
            .min_by_key(|(s, _, _)| s.len())
            .and_then(|&(_, k, a)| {
                let k = self.kernels.get(k as usize)?;
                Some((k, k.accesses.get(a as usize)?))
            })
    }
}

/// Analyses one document: the diagnostics `warpscope check` reports for it
/// (same codes, levels and configuration), the kernels' accesses, the name
/// index and the outline.
///
/// `check` runs `lints::check_file(file, config)` and then applies the
/// suppression comments (`suppress::apply`); `check_file` is
/// `lints::lint_analysis(file, analysis::analyze(file, &config.options), config)`;
/// `pipeline::analyze` parses one function at a time (`syntax::parse_lazy`,
/// `sema::check_module_scope`, then each body again in the worker that
/// lowers it), which gives the same diagnostics and kernels as parsing the
/// whole module (`tests/one_function.rs`). The server parses the whole
/// module instead (`syntax::parse_file`, `sema::check_module`, then
/// `pipeline::analyze_module_with_symbols`), once, and keeps the tree and
/// the symbols for the name index and the outline. `tests/lsp_stdio.rs` checks, on every fixture, that
/// the diagnostics equal `check --format json`'s.
pub fn analyse(file: &SourceFile, config: &LoadedConfig, cache: &mut KernelCache) -> Facts {
    // Triton's metadata beside the document (its cache layout) gives launch
    // facts, as it does to `check`.
    let with_triton;
    let config = match crate::cli::common::triton_metadata(Path::new(file.name())) {
        Some(meta) => {
            let mut c = config.config.clone();
            meta.apply(&mut c.options, true);
            with_triton = c;
            &with_triton
        }
        None => &config.config,
    };
    // A SASS listing: the SASS front end's analysis (hover shows each
    // access's figures; there are no PTX names to index).
    let sass = warpscope::sass::is_sass_file(file);
    let (module, mut front_end) = if sass {
        warpscope::syntax::parse("")
    } else {
        warpscope::syntax::parse_file(file)
    };
    let (symbols, sema) = warpscope::sema::check_module(&module);
    front_end.extend(sema);
    let analysis = if sass {
        warpscope::sass::analyze(file, &config.options)
    } else {
        let kernels = warpscope::incremental::analyze_module_cached(
            file,
            &module,
            &symbols,
            &config.options,
            cache,
        );
        Analysis {
            kernels,
            diagnostics: front_end,
        }
    };
    let mut checked = warpscope::lints::lint_analysis(file, analysis, config);
    // Suppression comments in the sources `.loc` names, read as `check`
    // reads them (relative names next to the document, then the current
    // directory).
    let names = warpscope::suppress::files_to_read(&checked);
    if !names.is_empty() {
        let sources = crate::cli::common::read_sources(Path::new(file.name()), &names);
        warpscope::suppress::apply(file, &mut checked, &sources, config);
    }
    let names = NameIndex::build(&module, &symbols);
    let outline = document_symbols(&module);
    let kernels = checked.analysis.kernels;
    let mut accesses = Vec::new();
    for (ki, k) in kernels.iter().enumerate() {
        for (ai, a) in k.accesses.iter().enumerate() {
            accesses.push((a.span, ki as u32, ai as u32));
        }
    }
    accesses.sort_by_key(|(s, _, _)| (s.start, s.end));
    Facts {
        diagnostics: checked.findings.to_vec(),
        kernels,
        accesses,
        names,
        symbols: outline,
    }
}

/// What the analysis infers for a register at the cursor.
pub struct RegisterValue {
    /// The library's answer.
    pub facts: warpscope::analysis::RegisterFacts,
    /// True when the value is the one after the instruction (the register
    /// is its destination), false when before it.
    pub after: bool,
}

/// The analysis's inferred value of register `reg`, written at `span`, via
/// `pipeline::explain_register` (with the document's launch configuration).
/// Parses the text again: the tree of the last analysis did not survive it,
/// and a hover is rare next to edits. `None` outside kernels.
pub fn register_value(
    text: &str,
    span: Span,
    reg: &str,
    config: &LoadedConfig,
) -> Option<RegisterValue> {
    use warpscope::syntax::ast::{FunctionId, OperandKind, StmtId};
    let (module, _) = warpscope::syntax::parse(text);
    let (fi, func) = module.functions.iter().enumerate().find(|(_, f)| {
        f.kind == FunctionKind::Entry && f.body.is_some() && f.span.contains(span.start)
    })?;
    let body = func.body.as_ref()?;
    let i = body
        .statements
        .partition_point(|s| s.span.start <= span.start);
    let si = i
        .checked_sub(1)
        .filter(|&j| body.statements[j].span.contains(span.start))?;
    // A destination (first operand of an instruction that writes it) is
    // shown as computed, i.e. before the next statement.
    let after = match &body.statements[si].kind {
        StmtKind::Instruction(ins) => {
            let writes = warpscope::isa::writes_first_operand(ins.mnemonic);
            let in_first = ins.operands.first().is_some_and(|o| {
                o.span.contains(span.start) && !matches!(o.kind, OperandKind::Address { .. })
            });
            writes && in_first && ins.operands.len() > 1 && si + 1 < body.statements.len()
        }
        _ => false,
    };
    let at = if after { si + 1 } else { si };
    let facts = warpscope::pipeline::explain_register(
        &module,
        FunctionId(fi as u32),
        StmtId(at as u32),
        reg,
        &config.config.options,
    )?;
    Some(RegisterValue { facts, after })
}

/// The explanation of a diagnostic code, as `warpscope explain CODE` prints it.
pub fn explain(code: &str) -> Option<&'static str> {
    warpscope::lints::explain(code)
}

fn document_symbols(module: &Module<'_>) -> Vec<SymbolNode> {
    let mut out = Vec::new();
    for v in module.globals() {
        out.extend(variable_symbols(v));
    }
    for f in &module.functions {
        let mut children = Vec::new();
        for p in f.returns.iter().chain(&f.params) {
            children.extend(variable_symbols(p));
        }
        if let Some(body) = &f.body {
            for s in &body.statements {
                match &s.kind {
                    StmtKind::Label(l) => children.push(SymbolNode {
                        name: l.text.to_string(),
                        detail: Some("label".into()),
                        kind: SymbolKind::KEY,
                        span: s.span,
                        selection: l.span,
                        children: Vec::new(),
                    }),
                    StmtKind::Var(v) if v.space != StateSpace::Reg => {
                        children.extend(variable_symbols(v));
                    }
                    _ => {}
                }
            }
        }
        let mut detail = match f.kind {
            FunctionKind::Entry => ".entry",
            FunctionKind::Func => ".func",
        }
        .to_string();
        if let Some(d) = demangle(f.name.text) {
            detail = format!("{detail} {d}");
        }
        if f.body.is_none() {
            detail.push_str(" (declaration)");
        }
        out.push(SymbolNode {
            name: f.name.text.to_string(),
            detail: Some(detail),
            kind: match f.kind {
                FunctionKind::Entry => SymbolKind::FUNCTION,
                FunctionKind::Func => SymbolKind::METHOD,
            },
            span: f.span,
            selection: f.name.span,
            children,
        });
    }
    out.sort_by_key(|s| s.span.start);
    out
}

/// One variable symbol per declarator of `v` (`.shared .f32 a, b;` declares
/// two): globals, parameters and body variables are listed alike.
fn variable_symbols<'v>(v: &'v VarDecl<'_>) -> impl Iterator<Item = SymbolNode> + 'v {
    v.declarators.iter().map(move |d| SymbolNode {
        name: d.name.text.to_string(),
        detail: Some(var_detail(v.space, v.ty.map(|t| t.text))),
        kind: SymbolKind::VARIABLE,
        span: v.span,
        selection: d.name.span,
        children: Vec::new(),
    })
}

fn var_detail(space: StateSpace, ty: Option<&str>) -> String {
    let space = space_directive(space);
    match ty {
        Some(t) => format!("{space} .{t}"),
        None => space.to_string(),
    }
}

/// The directive that names a state space (`.global`).
pub fn space_directive(space: StateSpace) -> &'static str {
    match space {
        StateSpace::Reg => ".reg",
        StateSpace::Sreg => ".sreg",
        StateSpace::Global => ".global",
        StateSpace::Shared => ".shared",
        StateSpace::Const => ".const",
        StateSpace::Local => ".local",
        StateSpace::Param => ".param",
        StateSpace::Tex => ".tex",
    }
}

/// The demangled C++ name, when `name` is a mangled one.
pub fn demangle(name: &str) -> Option<String> {
    let d = warpscope::lower::demangle(name);
    (d != name).then_some(d)
}
