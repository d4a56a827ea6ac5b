//! Symbol tables and name resolution.
//!
//! [`check_module`] walks a parsed [`Module`] once and builds, per function, a
//! [`FunctionSymbols`]: the registers, parameters, body variables and labels it
//! declares, and a side table mapping the span of every name an operand uses to
//! its declaration ([`Resolved`]). The module-level table ([`ModuleSymbols`])
//! holds the variables and functions (and `.alias` names) of the module. The
//! syntax tree is not changed; nothing is copied but small declarations.
//!
//! # Names and where they are looked up
//!
//! - **Registers** (`%r1`, `%p`, `%rd12`): declared by `.reg` in the function
//!   body, in the `{ }` scope of the declaration and the scopes nested in it. A
//!   parameterized declaration `.reg .b32 %r<100>` declares `%r0` … `%r99`; it is
//!   kept as one entry (prefix and count), and a use `%r42` is matched by trying
//!   each split of its trailing digits into prefix and index (`%f12` may be
//!   `%f1` + `2` or `%f` + `12`), so no name is ever materialised. An index with
//!   a leading zero (`%r07`) names no register of a range.
//! - **Special registers** (`%tid`, `%laneid`, `%clock64`, `%envreg7`, …, the
//!   list of the PTX ISA's chapter "Special Registers") are known without
//!   declaration, as is the constant `WARP_SZ`.
//! - **Other names** (an operand that is not a register): first the variables
//!   of the body scopes (`.local`, `.shared`, `.param` for call arguments, …),
//!   then the labels, `.branchtargets` and `.callprototype` names of the body
//!   scopes ([`Scopes`]; these may be used before they are defined), then the
//!   function's parameters and return parameters, then the module's variables
//!   and functions. This is how `ld.param [p]`, `mov.u64 %rd1, smem`,
//!   `mov.u64 %rd1, $L_label`, `call (r), f, (a)` and `brx.idx %r, table`
//!   resolve. `_` is a sink and names nothing.
//! - **Branch targets** (`bra L`, the table of `brx.idx`, the labels of a
//!   `.branchtargets` list, the prototype or `.calltargets` of an indirect
//!   `call`) are looked up among labels only, and a direct `call` target among
//!   functions only.
//!
//! DWARF `.section` data and `.loc … function_name` are not resolved: they are
//! passed through to the assembler and name labels of other sections; reporting
//! them would only produce false positives on real compiler output.
//!
//! # Diagnostics
//!
//! `E0101 undeclared-register` (once per name and function, at the first use,
//! with a note counting further uses, and a secondary label at a range
//! declaration with the same prefix that is too short), `E0102
//! duplicate-label` (primary at the second definition, secondary "first
//! defined here"), `E0103 unknown-label` (branch targets, tables, prototypes,
//! call targets), `E0104 duplicate-declaration` (two declarations of one name
//! in one scope: registers, including overlapping ranges, body variables,
//! parameters, module variables that are not `.extern`, functions defined
//! twice), `E0105 undeclared-symbol` (any other name that resolves to
//! nothing). Declarations in nested scopes may shadow outer ones; that is not
//! reported. The diagnostics are sorted by position.
//!
//! # Cost
//!
//! Declarations are collected per scope first (so a name is visible in its
//! whole scope, before its statement too), then the body is walked once with
//! a stack of visible declarations per name: entering a `{ }` pushes the
//! scope's declarations, leaving pops them. A lookup is a hash probe per
//! split of the name's trailing digits (at most 20), whatever the nesting
//! depth, so resolution is linear in the size of the function.
//!
//! # Limits
//!
//! Types are not checked (an operand's type against the instruction's, the
//! state space of an address against the instruction's): the analysis reads
//! what it needs and ptxas is the authority. Use before declaration at module
//! level is accepted (ptxas requires declaration first for variables). A
//! `.calltargets` table's name lives in the label namespace (like a
//! `.branchtargets` table) and its entries resolve to functions.

use crate::diagnostic::{Diagnostic, FrontEndCode};
use crate::source::Span;
use crate::syntax::ast::{
    Body, Function, FunctionId, Ident, InitKind, InitValue, Instruction, ItemKind, Linkage, Module,
    Operand, OperandKind, StateSpace, StmtId, StmtKind, VarDecl,
};
use crate::util::FastMap as HashMap;

/// What a register name was declared as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegInfo<'src> {
    /// Element type without its dot (`u32`, `pred`, `b64`); empty if none was given.
    pub ty: &'src str,
    /// Vector width (`.v4` gives 4), 1 for scalars.
    pub vector: u32,
    /// The declarator's name (for `%r<100>`, the `%r`).
    pub span: Span,
    /// The scope of the declaration.
    pub scope: ScopeId,
    /// `Some(n)` for a range declaration `%r<n>`.
    pub range: Option<u32>,
}

/// A declared variable (module level or in a body): one declarator of a
/// [`VarDecl`].
#[derive(Clone, Debug)]
pub struct VarInfo<'src> {
    /// The whole declaration.
    pub decl: VarDecl<'src>,
    /// Which of its declarators.
    pub declarator: usize,
}

impl<'src> VarInfo<'src> {
    /// The variable's name.
    pub fn name(&self) -> Ident<'src> {
        self.decl.declarators[self.declarator].name
    }
    /// Its state space.
    pub fn space(&self) -> StateSpace {
        self.decl.space
    }
    /// Its declarator (dimensions, initializer).
    pub fn declarator(&self) -> &crate::syntax::ast::Declarator<'src> {
        &self.decl.declarators[self.declarator]
    }
}

/// What an operand's name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Def {
    /// A `.reg` of this function: index into [`FunctionSymbols::registers`].
    Register(RegId),
    /// A special register (`%tid`, `%laneid`, …) or `WARP_SZ`.
    Special,
    /// The function parameter with this index.
    Param(usize),
    /// The return parameter with this index.
    ReturnParam(usize),
    /// A variable declared in the body: index into [`FunctionSymbols::locals`].
    Local(usize),
    /// A label, `.branchtargets` or `.callprototype` statement.
    Label(StmtId),
    /// A module variable: index into [`ModuleSymbols::variables`].
    Global(usize),
    /// A function (or an `.alias` of one).
    Function(FunctionId),
}

/// Index of a register declaration in [`FunctionSymbols::registers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegId(pub u32);

/// A resolved name: what it refers to and where that was declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// What.
    pub def: Def,
    /// The declaration's name span; empty (`0..0`) for special registers.
    pub decl_span: Span,
}

/// The symbols of one function and the resolution of every name it uses.
#[derive(Clone, Debug, Default)]
pub struct FunctionSymbols<'src> {
    scopes: Scopes<'src>,
    regs: Vec<RegInfo<'src>>,
    reg_names: HashMap<(ScopeId, &'src str), RegId>,
    reg_ranges: HashMap<(ScopeId, &'src str), RegId>,
    locals: Vec<VarInfo<'src>>,
    local_names: HashMap<(ScopeId, &'src str), usize>,
    params: Vec<VarDecl<'src>>,
    returns: Vec<VarDecl<'src>>,
    /// Sorted by span start (then end).
    resolutions: Vec<(Span, Resolved)>,
}

impl<'src> FunctionSymbols<'src> {
    /// The `{ }` scopes and labels of the body.
    pub fn scopes(&self) -> &Scopes<'src> {
        &self.scopes
    }

    /// Every `.reg` declarator of the body, in source order.
    pub fn registers(&self) -> &[RegInfo<'src>] {
        &self.regs
    }

    /// A register declaration by id.
    pub fn reg(&self, id: RegId) -> &RegInfo<'src> {
        &self.regs[id.0 as usize]
    }

    /// The register called `name` declared in the body's outermost scope, else
    /// the first one declared in any nested scope (use [`Self::register_at`]
    /// for scoped lookup). Ranges are expanded: `%r42` is found in `%r<100>`.
    pub fn register(&self, name: &str) -> Option<RegInfo<'src>> {
        if let Some(id) = self.lookup_reg(ScopeId::ROOT, name) {
            return Some(*self.reg(id));
        }
        (1..self.scopes.len() as u32)
            .find_map(|s| self.lookup_reg(ScopeId(s), name).map(|id| *self.reg(id)))
    }

    /// The register called `name` as seen from statement `at` (innermost scope first).
    pub fn register_at(&self, at: StmtId, name: &str) -> Option<RegInfo<'src>> {
        self.resolve_reg(self.scopes.scope_of(at), name)
            .map(|id| *self.reg(id))
    }

    fn resolve_reg(&self, scope: ScopeId, name: &str) -> Option<RegId> {
        self.scopes
            .chain(scope)
            .find_map(|s| self.lookup_reg(s, name))
    }

    /// Lookup in one scope: a plain declaration, else a range whose prefix
    /// and index split the name.
    fn lookup_reg(&self, scope: ScopeId, name: &str) -> Option<RegId> {
        if let Some(&id) = self.reg_names.get(&(scope, name)) {
            return Some(id);
        }
        if self.reg_ranges.is_empty() {
            return None;
        }
        digit_splits(name).find_map(|(prefix, n)| {
            let id = *self.reg_ranges.get(&(scope, prefix))?;
            (n < u64::from(self.reg(id).range.unwrap_or(0))).then_some(id)
        })
    }

    /// The label (or `.branchtargets`/`.callprototype`) called `name` in the
    /// body's outermost scope, else the first one in a nested scope.
    pub fn label(&self, name: &str) -> Option<StmtId> {
        self.scopes.find_label(name)
    }

    /// The function parameter called `name`: its index and declaration.
    pub fn param(&self, name: &str) -> Option<(usize, &VarDecl<'src>)> {
        self.params
            .iter()
            .enumerate()
            .find(|(_, p)| p.declarators.iter().any(|d| d.name.text == name))
    }

    /// The return parameter (of a `.func`) called `name`.
    pub fn return_param(&self, name: &str) -> Option<(usize, &VarDecl<'src>)> {
        self.returns
            .iter()
            .enumerate()
            .find(|(_, p)| p.declarators.iter().any(|d| d.name.text == name))
    }

    /// Variables declared in the body (not registers), in source order.
    pub fn locals(&self) -> &[VarInfo<'src>] {
        &self.locals
    }

    /// What the name at exactly this span (an operand's register or symbol,
    /// or a guard's predicate) resolved to.
    pub fn resolve(&self, span: Span) -> Option<&Resolved> {
        let i = self
            .resolutions
            .partition_point(|(s, _)| (s.start, s.end) < (span.start, span.end));
        self.resolutions
            .get(i)
            .filter(|(s, _)| *s == span)
            .map(|(_, r)| r)
    }

    /// The innermost resolved name whose span contains `offset` (for
    /// go-to-definition).
    pub fn definition_at(&self, offset: u32) -> Option<(Span, &Resolved)> {
        find_at(&self.resolutions, offset)
    }

    /// Every resolved name: (use span, resolution), sorted by position.
    pub fn resolutions(&self) -> &[(Span, Resolved)] {
        &self.resolutions
    }
}

/// The symbols of a module: its variables and functions, and per function a
/// [`FunctionSymbols`].
#[derive(Clone, Debug, Default)]
pub struct ModuleSymbols<'src> {
    functions: Vec<FunctionSymbols<'src>>,
    variables: Vec<VarInfo<'src>>,
    variable_names: HashMap<&'src str, usize>,
    function_names: HashMap<&'src str, FunctionId>,
    function_spans: Vec<Span>,
    /// The whole span of each function (header and body).
    function_extents: Vec<Span>,
    /// Names in module-variable initializers, sorted by position.
    resolutions: Vec<(Span, Resolved)>,
}

/// The resolved name whose span contains `offset`. Names never overlap, so
/// it is the last one starting at or before `offset`.
fn find_at(resolutions: &[(Span, Resolved)], offset: u32) -> Option<(Span, &Resolved)> {
    let i = resolutions.partition_point(|(s, _)| s.start <= offset);
    let (s, r) = resolutions[..i].last()?;
    s.contains(offset).then_some((*s, r))
}

impl<'src> ModuleSymbols<'src> {
    /// The symbols of one function (same ids as [`Module::functions`]).
    pub fn function(&self, id: FunctionId) -> &FunctionSymbols<'src> {
        &self.functions[id.index()]
    }

    /// The module variable called `name`.
    pub fn variable(&self, name: &str) -> Option<&VarInfo<'src>> {
        self.variable_names.get(name).map(|&i| &self.variables[i])
    }

    /// Every module variable, in source order.
    pub fn variables(&self) -> &[VarInfo<'src>] {
        &self.variables
    }

    /// The resolved name at a byte offset anywhere in the module (an
    /// operand, a guard or an initializer): for go-to-definition.
    pub fn definition_at(&self, offset: u32) -> Option<(Span, &Resolved)> {
        if let Some(found) = find_at(&self.resolutions, offset) {
            return Some(found);
        }
        let f = self
            .function_extents
            .iter()
            .position(|s| s.contains(offset))?;
        self.functions.get(f)?.definition_at(offset)
    }

    /// Names used in module-variable initializers and what they resolved to.
    pub fn resolutions(&self) -> &[(Span, Resolved)] {
        &self.resolutions
    }

    /// The span of a function's name.
    pub fn function_span(&self, id: FunctionId) -> Span {
        self.function_spans
            .get(id.index())
            .copied()
            .unwrap_or_default()
    }

    /// The function called `name` (its definition if it has one, else its
    /// first declaration; `.alias` names included).
    pub fn function_named(&self, name: &str) -> Option<FunctionId> {
        self.function_names.get(name).copied()
    }
}

pub use crate::isa::is_special_register;

/// Builds the symbol tables of a module and reports what does not resolve.
pub fn check_module<'src>(module: &Module<'src>) -> (ModuleSymbols<'src>, Vec<Diagnostic>) {
    check_module_with(module, true)
}

/// [`check_module`] without the resolution of each name in function bodies
/// ([`FunctionSymbols::resolutions`] and the lookups by offset stay empty
/// for them): the same diagnostics, scopes and declarations, for callers
/// that only analyse (`check`, `report`). The table is one entry per name
/// used, several times the size of the body's text.
pub fn check_module_without_resolutions<'src>(
    module: &Module<'src>,
) -> (ModuleSymbols<'src>, Vec<Diagnostic>) {
    check_module_with(module, false)
}

fn check_module_with<'src>(
    module: &Module<'src>,
    resolutions: bool,
) -> (ModuleSymbols<'src>, Vec<Diagnostic>) {
    let (mut syms, mut diags) = check_module_scope(module);
    let mut functions = Vec::with_capacity(module.functions.len());
    for id in module.function_ids() {
        functions.push(check_function(
            module.function(id),
            &syms,
            &mut diags,
            resolutions,
        ));
    }
    syms.functions = functions;
    sort_diagnostics(&mut diags);
    (syms, diags)
}

/// The module scope of [`check_module`]: module variables, functions and
/// aliases, and the names in variable initializers, with their diagnostics
/// (unsorted); no function's symbols ([`ModuleSymbols::function`] has none
/// yet). It reads of each function only its header and whether it has a
/// body, so it takes a module from [`crate::syntax::parse_lazy`]. With
/// [`check_function_symbols`] on each function in module order, appending
/// their diagnostics to these and sorting them with [`sort_diagnostics`],
/// the diagnostics are exactly [`check_module_without_resolutions`]'s.
pub fn check_module_scope<'src>(module: &Module<'src>) -> (ModuleSymbols<'src>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut syms = ModuleSymbols::default();

    // Module variables.
    let mut first_var: HashMap<&'src str, (usize, bool)> = HashMap::default();
    for item in &module.items {
        let ItemKind::Var(decl) = &item.kind else {
            continue;
        };
        let is_extern = decl.linkage.contains(&Linkage::Extern);
        for (di, d) in decl.declarators.iter().enumerate() {
            let idx = syms.variables.len();
            syms.variables.push(VarInfo {
                decl: decl.clone(),
                declarator: di,
            });
            match first_var.get(d.name.text) {
                Some(&(prev, prev_extern)) => {
                    if !is_extern && !prev_extern {
                        diags.push(duplicate(
                            d.name,
                            syms.variables[prev].name().span,
                            "variable",
                        ));
                    } else if prev_extern && !is_extern {
                        // The definition takes over from the `.extern` declaration.
                        first_var.insert(d.name.text, (idx, false));
                        syms.variable_names.insert(d.name.text, idx);
                    }
                }
                None => {
                    first_var.insert(d.name.text, (idx, is_extern));
                    syms.variable_names.insert(d.name.text, idx);
                }
            }
        }
    }

    // Functions: a definition takes over from declarations; two definitions clash.
    syms.function_spans = module.functions.iter().map(|f| f.name.span).collect();
    for id in module.function_ids() {
        let f = module.function(id);
        match syms.function_names.get(f.name.text).copied() {
            Some(prev) => {
                let pf = module.function(prev);
                if pf.body.is_some() && f.body.is_some() {
                    diags.push(duplicate_with(
                        f.name,
                        pf.name.span,
                        format!("function `{}` is defined twice", f.name.text),
                    ));
                } else if pf.body.is_none() && f.body.is_some() {
                    syms.function_names.insert(f.name.text, id);
                }
            }
            None => {
                syms.function_names.insert(f.name.text, id);
            }
        }
    }
    for item in &module.items {
        if let ItemKind::Alias { alias, target } = &item.kind {
            match syms.function_names.get(target.text).copied() {
                Some(t) => {
                    syms.function_names.entry(alias.text).or_insert(t);
                }
                None => diags.push(
                    Diagnostic::error(
                        FrontEndCode::UnknownLabel,
                        target.span,
                        format!(
                            "`.alias` names `{}`, which is not a function of this module",
                            target.text
                        ),
                    )
                    .with_label("no such function"),
                ),
            }
        }
    }

    // Initializers of module variables.
    for v in 0..syms.variables.len() {
        if let Some(init) = &syms.variables[v].declarator().init {
            let mut names = Vec::new();
            init_symbols(init, &mut names);
            for n in names {
                if let Some(&gi) = syms.variable_names.get(n.text) {
                    let decl_span = syms.variables[gi].name().span;
                    syms.resolutions.push((
                        n.span,
                        Resolved {
                            def: Def::Global(gi),
                            decl_span,
                        },
                    ));
                } else if let Some(f) = syms.function_named(n.text) {
                    let decl_span = syms.function_span(f);
                    syms.resolutions.push((
                        n.span,
                        Resolved {
                            def: Def::Function(f),
                            decl_span,
                        },
                    ));
                } else {
                    diags.push(undeclared_symbol(n));
                }
            }
        }
    }

    syms.resolutions.sort_by_key(|(s, _)| (s.start, s.end));
    syms.function_extents = module.functions.iter().map(|f| f.span).collect();
    (syms, diags)
}

/// The symbols of one function (its body complete) against the module scope
/// of [`check_module_scope`], without resolutions, and its diagnostics.
pub fn check_function_symbols<'src>(
    f: &Function<'src>,
    module: &ModuleSymbols<'src>,
) -> (FunctionSymbols<'src>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let syms = check_function(f, module, &mut diags, false);
    (syms, diags)
}

/// Sorts sema's diagnostics by position (stable: those at one span keep
/// the order they were found in).
pub fn sort_diagnostics(diags: &mut [Diagnostic]) {
    diags.sort_by_key(|d| {
        let s = d.span();
        (s.start, s.end)
    });
}

/// Symbols named by an initializer.
fn init_symbols<'src>(init: &InitValue<'src>, out: &mut Vec<Ident<'src>>) {
    match &init.kind {
        InitKind::Symbol { name, minus, .. } => {
            out.push(*name);
            out.extend(minus.iter().copied());
        }
        InitKind::List(items) => items.iter().for_each(|i| init_symbols(i, out)),
        InitKind::Mask { value, .. } => init_symbols(value, out),
        // Sampler fields (`addr_mode_0 = wrap`) name enumerators, not symbols.
        InitKind::Field { .. } | InitKind::Int(_) | InitKind::Float(_) => {}
    }
}

fn duplicate(second: Ident<'_>, first: Span, what: &str) -> Diagnostic {
    duplicate_with(
        second,
        first,
        format!("{what} `{}` is declared twice", second.text),
    )
}

fn duplicate_with(second: Ident<'_>, first: Span, message: String) -> Diagnostic {
    Diagnostic::error(FrontEndCode::DuplicateDeclaration, second.span, message)
        .with_label("declared again here")
        .with_secondary(first, "first declared here")
}

/// Every split of a name's trailing decimal digits into a prefix and a
/// canonical index (`%f12` gives (`%f1`, 2) and (`%f`, 12)); at most 20.
fn digit_splits(name: &str) -> impl Iterator<Item = (&str, u64)> {
    digit_splits_where(name, |_| true)
}

/// [`digit_splits`] whose prefix `keep` accepts (the others not parsed).
fn digit_splits_where(
    name: &str,
    keep: impl Fn(&str) -> bool,
) -> impl Iterator<Item = (&str, u64)> {
    let digits = name
        .bytes()
        .rev()
        .take_while(u8::is_ascii_digit)
        .count()
        .min(20);
    (1..=digits).filter_map(move |k| {
        let (prefix, index) = name.split_at(name.len() - k);
        if (k > 1 && index.starts_with('0')) || !keep(prefix) {
            return None;
        }
        Some((prefix, index.parse().ok()?))
    })
}

fn undeclared_symbol(name: Ident<'_>) -> Diagnostic {
    Diagnostic::error(
        FrontEndCode::UndeclaredSymbol,
        name.span,
        format!("`{}` is not declared", name.text),
    )
    .with_label("not a variable, parameter, label or function in scope")
}

/// How a name is used, which decides where it is looked up.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Any operand: variables, labels, parameters, module symbols.
    Value,
    /// A branch target, `brx.idx` table, prototype or `.calltargets`: labels only.
    Label,
    /// A direct call target: functions only.
    Callee,
}

/// The declarations visible at the current statement of the resolution
/// pass: per name, a stack of declarations, innermost last. Entering a `{ }`
/// scope pushes all of its declarations (they are visible in the whole scope,
/// before and after their statement), leaving pops them, so a lookup costs
/// the same however deep the nesting.
#[derive(Default)]
struct Visible<'src> {
    plain: ScopedNames<'src, RegId>,
    ranges: ScopedNames<'src, RegId>,
    locals: ScopedNames<'src, usize>,
    labels: ScopedNames<'src, StmtId>,
    depth: Vec<u32>,
    /// The open scopes, innermost last.
    open: Vec<ScopeId>,
    /// The lengths of the range prefixes declared in any scope (bit
    /// `len.min(63)`), and whether one of them ends in a digit: a split of
    /// a register's name whose prefix cannot be one is not looked up.
    range_lens: u64,
    range_digit: bool,
}

/// The declarations of one kind of name (plain registers, register ranges,
/// body variables, labels) as scopes open and close. The four kinds are
/// entered and left alike; this is that one piece of bookkeeping.
struct ScopedNames<'src, T> {
    /// Per scope: what it declares, in a fixed order.
    declared: Vec<Vec<(&'src str, T)>>,
    /// Per name: the visible declarations, innermost last.
    stacks: HashMap<&'src str, Vec<T>>,
}

impl<T> Default for ScopedNames<'_, T> {
    fn default() -> Self {
        ScopedNames {
            declared: Vec::new(),
            stacks: HashMap::default(),
        }
    }
}

impl<'src, T: Copy + Ord> ScopedNames<'src, T> {
    /// The declarations `(scope, name) -> value(d)` of a function with
    /// `scopes` scopes, none visible yet. Sorted so that a scope's
    /// declarations stack up in a fixed order.
    fn new<D>(
        scopes: usize,
        decls: &HashMap<(ScopeId, &'src str), D>,
        value: impl Fn(&D) -> T,
    ) -> Self {
        let mut sorted: Vec<_> = decls
            .iter()
            .map(|(&(sc, name), d)| (sc, value(d), name))
            .collect();
        sorted.sort();
        let mut declared = vec![Vec::new(); scopes];
        for (sc, t, name) in sorted {
            declared[sc.index()].push((name, t));
        }
        ScopedNames {
            declared,
            stacks: HashMap::default(),
        }
    }

    /// Makes what scope `i` declares visible.
    fn enter(&mut self, i: usize) {
        for &(n, t) in &self.declared[i] {
            self.stacks.entry(n).or_default().push(t);
        }
    }

    /// Hides again what scope `i` declares.
    fn leave(&mut self, i: usize) {
        for &(n, _) in &self.declared[i] {
            self.stacks.get_mut(n).map(Vec::pop);
        }
    }

    /// Every visible declaration of `name`, innermost last.
    fn stack(&self, name: &str) -> Option<&[T]> {
        self.stacks.get(name).map(Vec::as_slice)
    }

    /// The innermost visible declaration of `name`.
    fn innermost(&self, name: &str) -> Option<T> {
        self.stack(name)?.last().copied()
    }
}

impl<'src> Visible<'src> {
    fn new(syms: &FunctionSymbols<'src>) -> Visible<'src> {
        let n = syms.scopes.len();
        let mut v = Visible {
            plain: ScopedNames::new(n, &syms.reg_names, |&r| r),
            ranges: ScopedNames::new(n, &syms.reg_ranges, |&r| r),
            locals: ScopedNames::new(n, &syms.local_names, |&l| l),
            labels: ScopedNames::new(n, &syms.scopes.labels, |&(st, _)| st),
            depth: vec![0; n],
            open: Vec::new(),
            range_lens: 0,
            range_digit: false,
        };
        for &(_, prefix) in syms.reg_ranges.keys() {
            v.range_lens |= 1 << prefix.len().min(63);
            v.range_digit |= prefix.ends_with(|c: char| c.is_ascii_digit());
        }
        for s in 1..n {
            // Parents have smaller ids than their children.
            let p = syms
                .scopes
                .parent(ScopeId(s as u32))
                .unwrap_or(ScopeId::ROOT);
            v.depth[s] = v.depth[p.index()] + 1;
        }
        v.enter(ScopeId::ROOT);
        v
    }

    fn enter(&mut self, s: ScopeId) {
        let i = s.index();
        self.plain.enter(i);
        self.ranges.enter(i);
        self.locals.enter(i);
        self.labels.enter(i);
        self.open.push(s);
    }

    fn leave(&mut self) {
        let Some(s) = self.open.pop() else { return };
        let i = s.index();
        self.plain.leave(i);
        self.ranges.leave(i);
        self.locals.leave(i);
        self.labels.leave(i);
    }

    fn current(&self) -> ScopeId {
        self.open.last().copied().unwrap_or(ScopeId::ROOT)
    }

    /// The visible register called `name`: the innermost scope wins; in one
    /// scope a plain declaration before a range.
    fn register(&self, syms: &FunctionSymbols<'src>, name: &str) -> Option<RegId> {
        let depth = |r: RegId| self.depth[syms.reg(r).scope.index()];
        let mut best = self.plain.innermost(name);
        // Only the splits whose prefix may be a declared range's (the
        // others have no stack): most names have one.
        let maybe = |prefix: &str| {
            self.range_lens & (1 << prefix.len().min(63)) != 0
                && (self.range_digit || !prefix.ends_with(|c: char| c.is_ascii_digit()))
        };
        for (prefix, n) in digit_splits_where(name, maybe) {
            let Some(stack) = self.ranges.stack(prefix) else {
                continue;
            };
            let found = stack
                .iter()
                .rev()
                .copied()
                .find(|&r| n < u64::from(syms.reg(r).range.unwrap_or(0)));
            if let Some(r) = found {
                if best.is_none_or(|b| depth(r) > depth(b)) {
                    best = Some(r);
                }
            }
        }
        best
    }
}

struct FnChecker<'a, 'src> {
    module: &'a ModuleSymbols<'src>,
    syms: FunctionSymbols<'src>,
    diags: &'a mut Vec<Diagnostic>,
    /// Undeclared registers: name -> (index of its diagnostic, further uses).
    undeclared: HashMap<&'src str, (usize, u32)>,
    /// The first plain register of each name, in any scope.
    any_scope_plain: HashMap<&'src str, RegId>,
    /// Register ranges by prefix, in any scope.
    any_scope_ranges: HashMap<&'src str, Vec<RegId>>,
    /// What is visible at the statement being resolved.
    visible: Visible<'src>,
    /// The scope of each body variable.
    local_scope: Vec<ScopeId>,
    /// Whether resolutions are recorded.
    keep_resolutions: bool,
}

fn check_function<'src>(
    f: &Function<'src>,
    module: &ModuleSymbols<'src>,
    diags: &mut Vec<Diagnostic>,
    keep_resolutions: bool,
) -> FunctionSymbols<'src> {
    let mut syms = FunctionSymbols {
        params: f.params.clone(),
        returns: f.returns.clone(),
        ..Default::default()
    };
    // Duplicate parameter names (returns and parameters share one scope).
    let mut seen: HashMap<&str, Span> = HashMap::default();
    for p in f.returns.iter().chain(&f.params) {
        for d in &p.declarators {
            if let Some(&first) = seen.get(d.name.text) {
                diags.push(duplicate(d.name, first, "parameter"));
            } else {
                seen.insert(d.name.text, d.name.span);
            }
        }
    }
    let Some(body) = &f.body else { return syms };
    syms.scopes = Scopes::build(body);
    for &(first, second) in syms.scopes.duplicate_labels() {
        let (Some(a), Some(b)) = (
            label_name(&body.stmt(first).kind),
            label_name(&body.stmt(second).kind),
        ) else {
            continue;
        };
        diags.push(
            Diagnostic::error(
                FrontEndCode::DuplicateLabel,
                b.span,
                format!("label `{}` is defined twice", b.text),
            )
            .with_label("defined again here")
            .with_secondary(a.span, "first defined here"),
        );
    }
    let mut c = FnChecker {
        module,
        syms,
        diags,
        undeclared: HashMap::default(),
        any_scope_plain: HashMap::default(),
        any_scope_ranges: HashMap::default(),
        visible: Visible::default(),
        local_scope: Vec::new(),
        keep_resolutions,
    };
    c.declare(body);
    c.resolve_body(body);
    let FnChecker {
        mut syms,
        diags,
        undeclared,
        ..
    } = c;
    for (_, (idx, more)) in undeclared {
        if more > 0 {
            let d = &mut diags[idx];
            d.notes.push(format!(
                "used {more} more time{} in this function",
                if more == 1 { "" } else { "s" }
            ));
        }
    }
    syms.resolutions.sort_by_key(|(s, _)| (s.start, s.end));
    syms.resolutions.dedup_by_key(|(s, _)| *s);
    syms
}

impl<'src> FnChecker<'_, 'src> {
    /// Enters every declaration of the body into its scope's table.
    fn declare(&mut self, body: &Body<'src>) {
        // Name -> span of its first declaration, per scope (registers and
        // variables share the namespace).
        let mut names: HashMap<(ScopeId, &'src str), Span> = HashMap::default();
        // Plain registers by each (prefix, index) split of their names, to
        // find those a later range declaration covers.
        let mut plain_by_prefix: HashMap<(ScopeId, &'src str), Vec<(u64, Span)>> =
            HashMap::default();
        for (id, stmt) in body.iter() {
            let StmtKind::Var(decl) = &stmt.kind else {
                continue;
            };
            let scope = self.syms.scopes.scope_of(id);
            for (di, d) in decl.declarators.iter().enumerate() {
                if decl.space == StateSpace::Reg {
                    let reg = RegInfo {
                        ty: decl.ty.map_or("", |t| t.text),
                        vector: decl.vector.max(1),
                        span: d.name.span,
                        scope,
                        range: d.range,
                    };
                    let clash = match d.range {
                        None => names.get(&(scope, d.name.text)).copied().or_else(|| {
                            self.syms
                                .lookup_reg(scope, d.name.text)
                                .map(|r| self.syms.reg(r).span)
                        }),
                        Some(n) => self
                            .syms
                            .reg_ranges
                            .get(&(scope, d.name.text))
                            .map(|&r| self.syms.reg(r).span)
                            .or_else(|| {
                                // A plain register of this scope inside the new range.
                                plain_by_prefix
                                    .get(&(scope, d.name.text))?
                                    .iter()
                                    .filter(|(i, _)| *i < u64::from(n))
                                    .map(|&(_, sp)| sp)
                                    .min_by_key(|sp| sp.start)
                            }),
                    };
                    if let Some(first) = clash {
                        let what = match d.range {
                            Some(n) => format!(
                                "register range `{}<{n}>` overlaps registers already declared",
                                d.name.text
                            ),
                            None => format!("register `{}` is declared twice", d.name.text),
                        };
                        self.diags.push(duplicate_with(d.name, first, what));
                        continue;
                    }
                    let rid = RegId(self.syms.regs.len() as u32);
                    self.syms.regs.push(reg);
                    match d.range {
                        None => {
                            self.syms.reg_names.insert((scope, d.name.text), rid);
                            self.any_scope_plain.entry(d.name.text).or_insert(rid);
                            names.insert((scope, d.name.text), d.name.span);
                            for (prefix, index) in digit_splits(d.name.text) {
                                plain_by_prefix
                                    .entry((scope, prefix))
                                    .or_default()
                                    .push((index, d.name.span));
                            }
                        }
                        Some(_) => {
                            self.syms.reg_ranges.insert((scope, d.name.text), rid);
                            self.any_scope_ranges
                                .entry(d.name.text)
                                .or_default()
                                .push(rid);
                        }
                    }
                } else {
                    let clash = names.get(&(scope, d.name.text)).copied().or_else(|| {
                        self.syms
                            .lookup_reg(scope, d.name.text)
                            .map(|r| self.syms.reg(r).span)
                    });
                    if let Some(first) = clash {
                        self.diags.push(duplicate(d.name, first, "variable"));
                        continue;
                    }
                    names.insert((scope, d.name.text), d.name.span);
                    let li = self.syms.locals.len();
                    self.local_scope.push(scope);
                    self.syms.locals.push(VarInfo {
                        decl: (**decl).clone(),
                        declarator: di,
                    });
                    self.syms.local_names.insert((scope, d.name.text), li);
                }
            }
        }
    }

    fn resolve_body(&mut self, body: &Body<'src>) {
        self.visible = Visible::new(&self.syms);
        let mut next_scope = 1u32;
        for (id, stmt) in body.iter() {
            match &stmt.kind {
                // Scope ids are handed out in the order `Scopes::build` uses.
                StmtKind::ScopeOpen => {
                    self.visible.enter(ScopeId(next_scope));
                    next_scope += 1;
                }
                // An unbalanced `}` does not close the body's scope.
                StmtKind::ScopeClose if self.visible.open.len() > 1 => self.visible.leave(),
                StmtKind::Instruction(instr) => self.instruction(id, instr),
                StmtKind::BranchTargets { targets, .. } => {
                    for t in targets {
                        self.name(id, *t, Role::Label);
                    }
                }
                StmtKind::CallTargets { targets, .. } => {
                    for t in targets {
                        self.name(id, *t, Role::Callee);
                    }
                }
                StmtKind::Var(decl) => {
                    for d in &decl.declarators {
                        if let Some(init) = &d.init {
                            let mut names = Vec::new();
                            init_symbols(init, &mut names);
                            for n in names {
                                self.name(id, n, Role::Value);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn instruction(&mut self, id: StmtId, instr: &Instruction<'src>) {
        if let Some(g) = &instr.guard {
            self.register(id, g.pred_ident());
        }
        let ops = &instr.operands;
        match instr.opcode() {
            "bra" => {
                for (i, op) in ops.iter().enumerate() {
                    self.operand(id, op, if i == 0 { Role::Label } else { Role::Value });
                }
            }
            "brx" => {
                let last = ops.len().saturating_sub(1);
                for (i, op) in ops.iter().enumerate() {
                    self.operand(
                        id,
                        op,
                        if i == last && i > 0 {
                            Role::Label
                        } else {
                            Role::Value
                        },
                    );
                }
            }
            "call" => {
                // call (rets), target, (args) [, prototype|targets]
                let target = ops
                    .iter()
                    .position(|o| !matches!(o.kind, OperandKind::List(_)));
                for (i, op) in ops.iter().enumerate() {
                    let role = match (Some(i) == target, &op.kind) {
                        (true, _) => Role::Callee,
                        (false, OperandKind::Symbol(_)) if target.is_some_and(|t| i > t) => {
                            Role::Label
                        }
                        _ => Role::Value,
                    };
                    self.operand(id, op, role);
                }
            }
            _ => {
                for op in ops {
                    self.operand(id, op, Role::Value);
                }
            }
        }
    }

    fn operand(&mut self, id: StmtId, op: &Operand<'src>, role: Role) {
        match &op.kind {
            OperandKind::Reg { .. } => {
                if let Some(name) = op.name() {
                    self.register(id, name);
                }
            }
            OperandKind::Symbol(_) => {
                if let Some(name) = op.name() {
                    self.name(id, name, role);
                }
            }
            OperandKind::Int(_) | OperandKind::Float(_) | OperandKind::Sink => {}
            OperandKind::Address { base, .. } => {
                if let Some(b) = base {
                    self.operand(id, b, Role::Value);
                }
            }
            OperandKind::AddressList(v) | OperandKind::Vector(v) | OperandKind::List(v) => {
                for o in v {
                    self.operand(id, o, Role::Value);
                }
            }
            OperandKind::Not(o) => self.operand(id, o, Role::Value),
            OperandKind::PredPair(pair) => {
                for o in pair.iter() {
                    self.operand(id, o, Role::Value);
                }
            }
            OperandKind::Offset { base, .. } => self.operand(id, base, role),
        }
    }

    fn record(&mut self, span: Span, def: Def, decl_span: Span) {
        if !self.keep_resolutions {
            return;
        }
        self.syms
            .resolutions
            .push((span, Resolved { def, decl_span }));
    }

    fn register(&mut self, id: StmtId, name: Ident<'src>) {
        if name.text == "_" {
            return;
        }
        if is_special_register(name.text) {
            self.record(name.span, Def::Special, Span::default());
            return;
        }
        debug_assert_eq!(self.visible.current(), self.syms.scopes.scope_of(id));
        if let Some(r) = self.visible.register(&self.syms, name.text) {
            let decl = self.syms.reg(r).span;
            self.record(name.span, Def::Register(r), decl);
            return;
        }
        // `%`-names may also be variables or parameters.
        if let Some((def, decl)) = self.value(id, name.text) {
            self.record(name.span, def, decl);
            return;
        }
        if let Some(e) = self.undeclared.get_mut(name.text) {
            e.1 += 1;
            return;
        }
        let mut d = Diagnostic::error(
            FrontEndCode::UndeclaredRegister,
            name.span,
            format!("register `{}` is not declared", name.text),
        )
        .with_label("no `.reg` declaration in scope");
        // Declared in a `{ }` block that does not enclose this use?
        // (Resolution through the enclosing scopes failed, so any
        // declaration of the name is in a scope that does not enclose it.)
        let elsewhere = self.any_scope_plain.get(name.text).copied().or_else(|| {
            digit_splits(name.text).find_map(|(prefix, n)| {
                self.any_scope_ranges
                    .get(prefix)?
                    .iter()
                    .copied()
                    .find(|&r| n < u64::from(self.syms.reg(r).range.unwrap_or(0)))
            })
        });
        // A range with the same prefix that is too short?
        let digits = name
            .text
            .bytes()
            .rev()
            .take_while(u8::is_ascii_digit)
            .count()
            .min(20);
        let near = (1..=digits).find_map(|k| {
            let prefix = &name.text[..name.text.len() - k];
            let r = self.visible.ranges.innermost(prefix)?;
            Some((prefix, r))
        });
        if let Some(r) = elsewhere {
            d = d.with_secondary(
                self.syms.reg(r).span,
                "declared here, in a `{ }` block that does not enclose this use",
            );
        } else if let Some((prefix, r)) = near {
            let n = self.syms.reg(r).range.unwrap_or(0);
            let last = if n == 0 {
                "no register".to_string()
            } else {
                format!("`{prefix}0` to `{prefix}{}`", n - 1)
            };
            d = d.with_secondary(
                self.syms.reg(r).span,
                format!("`{prefix}<{n}>` declares {last}"),
            );
            let index = &name.text[prefix.len()..];
            if index.len() > 1 && index.starts_with('0') {
                d = d.with_note("register indices have no leading zeros");
            }
        } else {
            d = d.with_help(format!(
                "declare it: `.reg .b32 {};` (with its type)",
                name.text
            ));
        }
        self.undeclared.insert(name.text, (self.diags.len(), 0));
        self.diags.push(d);
    }

    /// Resolves a non-register name used as a value.
    fn value(&self, id: StmtId, name: &str) -> Option<(Def, Span)> {
        let _ = id;
        let v = &self.visible;
        let local = v.locals.innermost(name);
        // Registers need not start with `%` (`.reg .pred complete;`).
        let reg = v.register(&self.syms, name);
        let local_depth = local.map(|l| v.depth[self.local_scope[l].index()]);
        let reg_depth = reg.map(|r| v.depth[self.syms.reg(r).scope.index()]);
        match (local, reg) {
            (Some(l), _) if local_depth >= reg_depth => {
                return Some((Def::Local(l), self.syms.locals[l].name().span));
            }
            (_, Some(r)) => return Some((Def::Register(r), self.syms.reg(r).span)),
            _ => {}
        }
        if let Some(l) = self.label(id, name) {
            return Some(l);
        }
        if let Some((i, p)) = self.syms.param(name) {
            return Some((Def::Param(i), decl_name_span(p, name)));
        }
        if let Some((i, p)) = self.syms.return_param(name) {
            return Some((Def::ReturnParam(i), decl_name_span(p, name)));
        }
        if let Some(&gi) = self.module.variable_names.get(name) {
            return Some((Def::Global(gi), self.module.variables[gi].name().span));
        }
        if let Some(f) = self.module.function_named(name) {
            return Some((Def::Function(f), self.module.function_span(f)));
        }
        if name == "WARP_SZ" {
            return Some((Def::Special, Span::default()));
        }
        None
    }

    fn label(&self, _id: StmtId, name: &str) -> Option<(Def, Span)> {
        let l = self.visible.labels.innermost(name)?;
        Some((
            Def::Label(l),
            self.syms.scopes.label_span(l).unwrap_or_default(),
        ))
    }

    fn name(&mut self, id: StmtId, name: Ident<'src>, role: Role) {
        if name.text == "_" {
            return;
        }
        let found = match role {
            Role::Value => self.value(id, name.text),
            Role::Label => self.label(id, name.text),
            Role::Callee => self
                .module
                .function_named(name.text)
                .map(|f| (Def::Function(f), self.module.function_span(f))),
        };
        match found {
            Some((def, decl)) => self.record(name.span, def, decl),
            None => {
                let d = match role {
                    Role::Value => undeclared_symbol(name),
                    Role::Label => Diagnostic::error(
                        FrontEndCode::UnknownLabel,
                        name.span,
                        format!("label `{}` is not defined in this function", name.text),
                    )
                    .with_label("no such label in scope"),
                    Role::Callee => Diagnostic::error(
                        FrontEndCode::UnknownLabel,
                        name.span,
                        format!("function `{}` is not declared in this module", name.text),
                    )
                    .with_label("no `.func` or `.entry` of this name")
                    .with_help("declare it: `.extern .func name(...);`"),
                };
                self.diags.push(d);
            }
        }
    }
}

fn decl_name_span(decl: &VarDecl<'_>, name: &str) -> Span {
    decl.declarators
        .iter()
        .find(|d| d.name.text == name)
        .map_or(decl.span, |d| d.name.span)
}

/// Index of a lexical scope in a [`Scopes`] tree: 0 is the function body,
/// every `{ … }` block inside it opens a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ScopeId(pub u32);

impl ScopeId {
    /// The function body's scope.
    pub const ROOT: ScopeId = ScopeId(0);
    /// The index into the scope arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The nested `{ }` scopes of one function body and the labels each defines.
///
/// Labels are scoped like registers: a label defined inside a `{ }` block is
/// visible in that block and the blocks nested in it, not outside. This is
/// what lets inline PTX from CUDA (`asm("{ … L: … bra L; }")`), inlined
/// several times into one function, reuse its label names. Labels may be used
/// before they are defined (forward branches), so a label is visible in its
/// whole scope, not only after its definition. `.branchtargets` and
/// `.callprototype` names are labels of the same namespace.
#[derive(Clone, Debug, Default)]
pub struct Scopes<'src> {
    /// Scope of each statement (a `{`/`}` marker belongs to the outer scope).
    stmt_scope: Vec<ScopeId>,
    /// Parent of each scope (`None` for the root).
    parent: Vec<Option<ScopeId>>,
    /// Labels by scope and name: the first definition and its name's span.
    labels: HashMap<(ScopeId, &'src str), (StmtId, Span)>,
    /// Labels defined twice in one scope: (first, second).
    duplicates: Vec<(StmtId, StmtId)>,
    /// The name span of every label statement.
    label_spans: HashMap<StmtId, Span>,
}

impl<'src> Scopes<'src> {
    /// Builds the scope tree of a body. Unbalanced `}` markers are ignored
    /// (the parser reports them); unclosed `{` end with the body.
    pub fn build(body: &Body<'src>) -> Scopes<'src> {
        let mut s = Scopes {
            parent: vec![None],
            ..Scopes::default()
        };
        let mut stack = vec![ScopeId::ROOT];
        for (id, stmt) in body.iter() {
            let cur = *stack.last().unwrap_or(&ScopeId::ROOT);
            s.stmt_scope.push(cur);
            match &stmt.kind {
                StmtKind::ScopeOpen => {
                    let new = ScopeId(s.parent.len() as u32);
                    s.parent.push(Some(cur));
                    stack.push(new);
                }
                StmtKind::ScopeClose => {
                    if stack.len() > 1 {
                        stack.pop();
                        // The `}` belongs to the scope it closes' parent.
                        let outer = *stack.last().unwrap_or(&ScopeId::ROOT);
                        s.stmt_scope[id.index()] = outer;
                    }
                }
                _ => {
                    if let Some(name) = label_name(&stmt.kind) {
                        s.label_spans.insert(id, name.span);
                        match s.labels.entry((cur, name.text)) {
                            std::collections::hash_map::Entry::Occupied(e) => {
                                s.duplicates.push((e.get().0, id))
                            }
                            std::collections::hash_map::Entry::Vacant(e) => {
                                e.insert((id, name.span));
                            }
                        }
                    }
                }
            }
        }
        s
    }

    /// The scope a statement belongs to (the root for an out-of-range id).
    pub fn scope_of(&self, stmt: StmtId) -> ScopeId {
        self.stmt_scope
            .get(stmt.index())
            .copied()
            .unwrap_or(ScopeId::ROOT)
    }

    /// The enclosing scope, `None` for the root.
    pub fn parent(&self, scope: ScopeId) -> Option<ScopeId> {
        self.parent.get(scope.index()).copied().flatten()
    }

    /// Number of scopes (at least 1).
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Always false: the root scope exists.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The scope and its ancestors, innermost first.
    pub fn chain(&self, scope: ScopeId) -> impl Iterator<Item = ScopeId> + '_ {
        std::iter::successors(Some(scope), move |s| self.parent(*s))
    }

    /// The label (or `.branchtargets`/`.callprototype` statement) called
    /// `name` as seen from statement `from`.
    pub fn resolve_label(&self, from: StmtId, name: &str) -> Option<StmtId> {
        self.chain(self.scope_of(from))
            .find_map(|s| self.labels.get(&(s, name)).map(|l| l.0))
    }

    /// The label called `name` in the root scope, else the first (in source
    /// order) in any nested scope.
    pub fn find_label(&self, name: &str) -> Option<StmtId> {
        if let Some(l) = self.labels.get(&(ScopeId::ROOT, name)) {
            return Some(l.0);
        }
        self.labels
            .iter()
            .filter(|((_, n), _)| *n == name)
            .map(|(_, l)| l.0)
            .min()
    }

    /// The span of the name a label statement defines.
    pub fn label_span(&self, stmt: StmtId) -> Option<Span> {
        self.label_spans.get(&stmt).copied()
    }

    /// Labels defined twice in one scope: (first definition, second).
    pub fn duplicate_labels(&self) -> &[(StmtId, StmtId)] {
        &self.duplicates
    }
}

/// Resolves labels while walking a body's statements in order, at a cost
/// independent of the nesting depth: it keeps, per label name, the stack of
/// visible definitions (innermost last). Call [`LabelCursor::step`] with every
/// statement, in order, then [`LabelCursor::resolve`] for the names that
/// statement uses.
pub struct LabelCursor<'a, 'src> {
    by_scope: Vec<Vec<(&'src str, StmtId)>>,
    stacks: HashMap<&'src str, Vec<StmtId>>,
    open: Vec<ScopeId>,
    next: u32,
    _scopes: std::marker::PhantomData<&'a Scopes<'src>>,
}

impl<'a, 'src> LabelCursor<'a, 'src> {
    /// A cursor before the first statement of the body `scopes` was built from.
    pub fn new(scopes: &'a Scopes<'src>) -> LabelCursor<'a, 'src> {
        let mut by_scope = vec![Vec::new(); scopes.len()];
        let mut labels: Vec<_> = scopes
            .labels
            .iter()
            .map(|(&(sc, name), &(st, _))| (sc, st, name))
            .collect();
        labels.sort();
        for (sc, st, name) in labels {
            by_scope[sc.index()].push((name, st));
        }
        let mut c = LabelCursor {
            by_scope,
            stacks: HashMap::default(),
            open: Vec::new(),
            next: 1,
            _scopes: std::marker::PhantomData,
        };
        c.enter(ScopeId::ROOT);
        c
    }

    fn enter(&mut self, s: ScopeId) {
        for &(n, st) in self.by_scope.get(s.index()).into_iter().flatten() {
            self.stacks.entry(n).or_default().push(st);
        }
        self.open.push(s);
    }

    /// Moves to the next statement (scope markers open and close scopes the
    /// way [`Scopes::build`] numbers them).
    pub fn step(&mut self, kind: &StmtKind<'src>) {
        match kind {
            StmtKind::ScopeOpen => {
                let s = ScopeId(self.next);
                self.next += 1;
                self.enter(s);
            }
            StmtKind::ScopeClose if self.open.len() > 1 => {
                if let Some(s) = self.open.pop() {
                    for &(n, _) in self.by_scope.get(s.index()).into_iter().flatten() {
                        self.stacks.get_mut(n).map(Vec::pop);
                    }
                }
            }
            _ => {}
        }
    }

    /// The label visible here called `name`.
    pub fn resolve(&self, name: &str) -> Option<StmtId> {
        self.stacks.get(name)?.last().copied()
    }
}

/// The name a statement defines in the label namespace, if any.
pub fn label_name<'a, 'src>(kind: &'a StmtKind<'src>) -> Option<&'a Ident<'src>> {
    match kind {
        StmtKind::Label(n) => Some(n),
        StmtKind::BranchTargets { name, .. } | StmtKind::CallTargets { name, .. } => Some(name),
        StmtKind::CallPrototype(p) => Some(&p.name),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse;

    const HEAD: &str = ".version 8.5\n.target sm_90\n.address_size 64\n";

    /// Parses `body` as the body of `.entry k(.param .u64 p)` after `module`.
    fn src(module: &str, body: &str) -> String {
        format!("{HEAD}{module}\n.visible .entry k(.param .u64 p)\n{{\n{body}\n}}\n")
    }

    fn check(text: &str) -> (Module<'_>, ModuleSymbols<'_>, Vec<Diagnostic>) {
        let (m, pd) = parse(text);
        assert!(pd.is_empty(), "parse: {pd:#?}");
        let (s, d) = check_module(&m);
        (m, s, d)
    }

    fn codes(d: &[Diagnostic]) -> Vec<&'static str> {
        d.iter().map(|d| d.code).collect()
    }

    #[test]
    fn without_resolutions_the_diagnostics_and_scopes_are_the_same() {
        let text = src(
            ".global .u32 g;",
            ".reg .b32 %r<3>;\n{\n.reg .b32 %q;\nmov.u32 %q, %r1;\n}\nmov.u32 %r2, %nope;\n$L: ld.global.u32 %r1, [g];\nbra $L;",
        );
        let (m, full, d1) = check(&text);
        let (lite, d2) = check_module_without_resolutions(&m);
        assert_eq!(codes(&d1), codes(&d2));
        assert_eq!(
            d1.iter().map(|d| d.span()).collect::<Vec<_>>(),
            d2.iter().map(|d| d.span()).collect::<Vec<_>>()
        );
        let k = last_fn(&m);
        let (f, l) = (full.function(k), lite.function(k));
        assert!(!f.resolutions().is_empty());
        assert!(l.resolutions().is_empty());
        assert_eq!(f.registers().len(), l.registers().len());
        assert_eq!(f.scopes().len(), l.scopes().len());
        let at = word(&text, "%r1", 1).start;
        assert!(f.definition_at(at).is_some());
        assert!(l.definition_at(at).is_none());
    }

    fn last_fn(m: &Module<'_>) -> FunctionId {
        FunctionId(m.functions.len() as u32 - 1)
    }

    /// The `nth` occurrence of `needle` as a whole name.
    fn word(text: &str, needle: &str, nth: usize) -> Span {
        let is_name = |c: char| c.is_ascii_alphanumeric() || "_$%".contains(c);
        let start = text
            .match_indices(needle)
            .filter(|(i, _)| {
                let before = text[..*i].chars().next_back().is_none_or(|c| !is_name(c));
                let after = text[i + needle.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !is_name(c));
                before && after
            })
            .nth(nth)
            .unwrap()
            .0 as u32;
        Span::new(start, start + needle.len() as u32)
    }

    fn at(text: &str, needle: &str, nth: usize) -> Span {
        let start = text.match_indices(needle).nth(nth).unwrap().0 as u32;
        Span::new(start, start + needle.len() as u32)
    }

    #[test]
    fn register_ranges_expand_without_materialising() {
        let t = src(
            "",
            ".reg .b32 %r<100>;\n.reg .f32 %f1<3>;\n.reg .v4 .f32 %v;\nret;",
        );
        let (m, s, d) = check(&t);
        assert!(d.is_empty());
        let f = s.function(last_fn(&m));
        assert_eq!(f.registers().len(), 3, "one entry per declarator");
        let r99 = f.register("%r99").unwrap();
        assert_eq!((r99.ty, r99.vector, r99.range), ("b32", 1, Some(100)));
        assert_eq!(r99.span, at(&t, "%r", 0));
        assert!(f.register("%r0").is_some());
        assert!(f.register("%r100").is_none());
        assert!(f.register("%r07").is_none(), "no leading zeros");
        assert!(f.register("%r").is_none());
        // `%f12` splits as `%f1` + `2` and as `%f` + `12`: the first matches.
        assert_eq!(f.register("%f12").unwrap().ty, "f32");
        assert!(f.register("%f13").is_none());
        assert_eq!(f.register("%v").unwrap().vector, 4);
    }

    #[test]
    fn uses_resolve_ranges_of_every_prefix_length() {
        // Resolution tries only the splits whose prefix may be a declared
        // range's (its length, a trailing digit): `%f1<3>` ends in a digit
        // and is found for `%f12`; `%rd<9>` and `%r<4>` differ in length.
        let t = src(
            "",
            ".reg .f32 %f1<3>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<9>;\n{\n.reg .b16 %h10<2>;\nmov.b16 %h101, 0;\n}\n\
             mov.f32 %f12, 0f00000000;\nmov.u32 %r3, 0;\nmov.u64 %rd8, 0;\nmov.u32 %r5, 0;\nret;",
        );
        let (m, s, d) = check(&t);
        assert_eq!(codes(&d), vec!["E0101"], "{d:#?}");
        assert_eq!(d[0].span(), at(&t, "%r5", 0));
        let f = s.function(last_fn(&m));
        for (name, decl) in [
            ("%f12", "%f1"),
            ("%r3", "%r"),
            ("%rd8", "%rd"),
            ("%h101", "%h10"),
        ] {
            let r = f.resolve(at(&t, name, 0)).unwrap();
            assert_eq!(r.decl_span, at(&t, decl, 0), "{name}");
        }
    }

    #[test]
    fn nested_scopes_shadow_and_end() {
        let t = src(
            "",
            ".reg .b32 %r<4>;\n{\n.reg .u16 %r<2>;\nmov.u16 %r1, 0;\n}\nmov.u32 %r1, 0;\nmov.u32 %r3, 0;\nret;",
        );
        let (m, s, d) = check(&t);
        assert!(d.is_empty(), "{d:#?}");
        let f = s.function(last_fn(&m));
        let inner_use = at(&t, "%r1", 0);
        let outer_use = at(&t, "%r1", 1);
        let inner = f.resolve(inner_use).unwrap();
        let outer = f.resolve(outer_use).unwrap();
        assert_eq!(inner.decl_span, at(&t, "%r", 1));
        assert_eq!(outer.decl_span, at(&t, "%r", 0));
        let Def::Register(r) = inner.def else {
            panic!()
        };
        assert_eq!(f.reg(r).ty, "u16");
        // Unscoped lookup prefers the outermost scope.
        assert_eq!(f.register("%r1").unwrap().ty, "b32");
    }

    #[test]
    fn e0101_undeclared_register_once_per_name() {
        let t = src(
            "",
            ".reg .b32 %r<2>;\nmov.u32 %r5, 0;\nadd.s32 %r5, %r5, %q;\nret;",
        );
        let (_, _, d) = check(&t);
        assert_eq!(codes(&d), vec!["E0101", "E0101"]);
        assert_eq!(d[0].span(), at(&t, "%r5", 0));
        assert_eq!(
            d[0].notes,
            vec!["used 2 more times in this function".to_string()]
        );
        assert_eq!(
            d[0].labels[1].span,
            at(&t, "%r", 0),
            "points at the short range"
        );
        assert_eq!(d[1].span(), at(&t, "%q", 0));
    }

    #[test]
    fn special_registers_need_no_declaration() {
        for r in [
            "%tid.x",
            "%ntid.y",
            "%laneid",
            "%warpid",
            "%nwarpid",
            "%ctaid.z",
            "%nctaid.x",
            "%smid",
            "%nsmid",
            "%gridid",
            "%lanemask_eq",
            "%lanemask_gt",
            "%clock",
            "%clock_hi",
            "%clock64",
            "%pm0",
            "%pm7",
            "%pm3_64",
            "%envreg0",
            "%envreg31",
            "%globaltimer",
            "%globaltimer_lo",
            "%total_smem_size",
            "%aggr_smem_size",
            "%dynamic_smem_size",
            "%reserved_smem_offset_begin",
            "%reserved_smem_offset_1",
            "%is_explicit_cluster",
            "%clusterid.x",
            "%cluster_ctarank",
            "%current_graph_exec",
        ] {
            let name = r.split('.').next().unwrap();
            assert!(is_special_register(name), "{name}");
        }
        for r in [
            "%pm8",
            "%envreg32",
            "%envreg01",
            "%tidx",
            "%reserved_smem_offset_2",
            "%pm8_64",
        ] {
            assert!(!is_special_register(r), "{r}");
        }
        let t = src(
            "",
            ".reg .b32 %r<3>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, WARP_SZ;\nret;",
        );
        let (m, s, d) = check(&t);
        assert!(d.is_empty());
        let f = s.function(last_fn(&m));
        assert_eq!(f.resolve(at(&t, "%tid", 0)).unwrap().def, Def::Special);
    }

    #[test]
    fn e0102_duplicate_label_has_both_locations() {
        let t = src("", "L1:\nret;\nL1:\nret;");
        let (_, _, d) = check(&t);
        assert_eq!(codes(&d), vec!["E0102"]);
        assert_eq!(d[0].span(), at(&t, "L1", 1));
        assert_eq!(d[0].labels[1].span, at(&t, "L1", 0));
        assert_eq!(d[0].labels[1].message, "first defined here");
        // The same label in sibling scopes is fine.
        let t = src(
            "",
            ".reg .pred %p;\n{\nW:\n@%p bra W;\n}\n{\nW:\n@%p bra W;\n}\nret;",
        );
        assert!(check(&t).2.is_empty());
    }

    #[test]
    fn e0103_unknown_targets() {
        let t = src(
            "",
            ".reg .b32 %r;\nbra NOWHERE;\nt: .branchtargets A, GONE;\nbrx.idx %r, t;\nbrx.idx %r, NOTABLE;\nA:\n{\n.param .b32 a;\ncall.uni nofunc, (a);\n}\nret;",
        );
        let (_, _, d) = check(&t);
        assert_eq!(codes(&d), vec!["E0103"; 4]);
        let spans: Vec<Span> = d.iter().map(|d| d.span()).collect();
        assert_eq!(
            spans,
            vec![
                at(&t, "NOWHERE", 0),
                at(&t, "GONE", 0),
                at(&t, "NOTABLE", 0),
                at(&t, "nofunc", 0)
            ]
        );
        // A label is not a call target, a function is not a branch target.
        let t = src(".func f()\n{\nret;\n}", "L:\ncall.uni L;\nbra f;\nret;");
        assert_eq!(codes(&check(&t).2), vec!["E0103", "E0103"]);
    }

    #[test]
    fn e0104_duplicate_declarations() {
        let t = src(
            ".global .u32 gdup;\n.global .u32 gdup;\n.extern .global .u32 edef;\n.global .u32 edef;",
            ".reg .b32 %r<4>;\n.reg .b32 %r2;\n.reg .b32 %x;\n.reg .b32 %x;\n.reg .b32 %y1;\n.reg .b32 %y<4>;\n.local .b8 buf[4];\n.shared .b8 buf[4];\n{\n.reg .b32 %r<4>;\n}\nret;",
        );
        let (_, s, d) = check(&t);
        assert_eq!(codes(&d), vec!["E0104"; 5], "{d:#?}");
        assert_eq!(d[0].span(), at(&t, "gdup", 1));
        assert_eq!(d[0].labels[1].span, at(&t, "gdup", 0));
        assert_eq!(d[1].span(), at(&t, "%r2", 0));
        assert_eq!(d[2].span(), at(&t, "%x", 1));
        assert_eq!(
            d[3].span(),
            at(&t, "%y", 1),
            "a range covering an earlier %y1"
        );
        assert_eq!(d[4].span(), at(&t, "buf", 1));
        // The definition after an `.extern` declaration is the variable.
        assert!(s.variable("edef").unwrap().decl.linkage.is_empty());
    }

    #[test]
    fn e0105_undeclared_symbols() {
        let t = src(
            ".global .u64 tbl[1] = {nothing};",
            ".reg .b64 %rd;\nld.param.u64 %rd, [q];\nmov.u64 %rd, missing;\nret;",
        );
        let (_, _, d) = check(&t);
        assert_eq!(codes(&d), vec!["E0105"; 3]);
        assert_eq!(d[0].span(), at(&t, "nothing", 0));
        assert_eq!(d[1].span(), at(&t, "q", 0));
        assert_eq!(d[2].span(), at(&t, "missing", 0));
    }

    #[test]
    fn operands_resolve_to_their_declarations() {
        let t = src(
            ".global .u32 gvar;\n.func (.param .b32 r) f(.param .b32 a)\n{\nst.param.b32 [r], 0;\nret;\n}",
            ".reg .b64 %rd<3>;\n.shared .b8 smbuf[16];\nld.param.u64 %rd1, [p];\nmov.u64 %rd2, smbuf;\nmov.u64 %rd2, gvar;\nmov.u64 %rd2, f;\nmov.u64 %rd2, LAB;\nLAB:\nret;",
        );
        let (m, s, d) = check(&t);
        assert!(d.is_empty(), "{d:#?}");
        let f = s.function(last_fn(&m));
        let r = |needle: &str, nth: usize| {
            f.resolve(word(&t, needle, nth))
                .copied()
                .unwrap_or_else(|| panic!("{needle} unresolved"))
        };
        assert_eq!(r("p", 1).def, Def::Param(0));
        assert_eq!(r("smbuf", 1).def, Def::Local(0));
        assert_eq!(r("smbuf", 1).decl_span, at(&t, "smbuf", 0));
        assert_eq!(r("gvar", 1).def, Def::Global(0));
        assert_eq!(r("gvar", 1).decl_span, at(&t, "gvar", 0));
        assert_eq!(r("f", 1).def, Def::Function(FunctionId(0)));
        let lab = r("LAB", 0);
        assert!(matches!(lab.def, Def::Label(_)));
        assert_eq!(lab.decl_span, at(&t, "LAB", 1));
        // go-to-definition by offset
        let use_ = at(&t, "%rd2", 0);
        let (span, res) = f.definition_at(use_.start + 2).unwrap();
        assert_eq!(span, use_);
        assert_eq!(res.decl_span, at(&t, "%rd", 0));
        // the .func's return parameter
        let ff = s.function(FunctionId(0));
        assert_eq!(
            ff.resolve(word(&t, "r", 1)).unwrap().def,
            Def::ReturnParam(0)
        );
        assert_eq!(f.param("p").unwrap().0, 0);
        assert!(f.param("q").is_none());
        assert_eq!(f.label("LAB"), Some(StmtId(7)));
        assert_eq!(s.variable("gvar").unwrap().space(), StateSpace::Global);
        assert_eq!(s.function_named("f"), Some(FunctionId(0)));
        // module-wide lookup, in a body and in an initializer
        assert_eq!(
            s.definition_at(use_.start).unwrap().1.decl_span,
            at(&t, "%rd", 0)
        );
        let t = src(".global .u32 a;\n.global .u64 pa = a;", "ret;");
        let (_, s, d) = check(&t);
        assert!(d.is_empty());
        let (span, r) = s.definition_at(word(&t, "a", 1).start).unwrap();
        assert_eq!(
            (span, r.def, r.decl_span),
            (word(&t, "a", 1), Def::Global(0), word(&t, "a", 0))
        );
        assert!(s.definition_at(0).is_none());
    }

    #[test]
    fn calls_prototypes_and_sinks() {
        let t = src(
            ".func (.param .b32 r) f(.param .b32 a)\n{\nret;\n}",
            ".reg .b32 %r<3>;\n.reg .b64 %rd;\n.reg .pred %p;\n{\n.param .b32 a0;\n.param .b32 r0;\nst.param.b32 [a0], %r1;\ncall.uni (r0), f, (a0);\nproto: .callprototype (.param .b32 _) _ (.param .b32 _);\ncall (r0), %rd, (a0), proto;\nld.param.b32 %r2, [r0];\n}\nshfl.sync.bfly.b32 %r1|%p, %r2, 1, 31, -1;\nmov.b32 {%r1, _}, %rd;\nret;",
        );
        let (_, _, d) = check(&t);
        assert!(d.is_empty(), "{d:#?}");
    }

    #[test]
    fn module_functions_alias_and_redefinition() {
        let t = format!(
            "{HEAD}.func g();\n.func g()\n{{\nret;\n}}\n.alias h, g;\n.alias z, nope;\n.visible .entry k()\n{{\ncall.uni h;\nret;\n}}\n"
        );
        let (m, s, d) = check(&t);
        assert_eq!(codes(&d), vec!["E0103"], "{d:#?}");
        assert_eq!(d[0].span(), at(&t, "nope", 0));
        assert_eq!(s.function_named("g"), Some(FunctionId(1)), "the definition");
        assert_eq!(s.function_named("h"), Some(FunctionId(1)));
        let _ = m;
    }

    #[test]
    fn deep_nesting_resolves_each_level() {
        // 2000 nested scopes, each shadowing `%s` and declaring its own range;
        // lookups go through the per-name stacks, not up the scope chain.
        let mut body = String::from(".reg .b32 %root;\n.reg .b32 %s;\n");
        for i in 0..2000 {
            body.push_str(&format!(
                "{{\n.reg .b32 %s;\n.reg .b32 %x{i}_<2>;\nadd.s32 %s, %root, %x{i}_1;\n"
            ));
        }
        body.push_str(&"}\n".repeat(2000));
        body.push_str("mov.u32 %s, %x5_1;\nret;");
        let t = src("", &body);
        let (m, s, d) = check(&t);
        assert_eq!(
            codes(&d),
            vec!["E0101"],
            "only the use after every scope closed"
        );
        assert_eq!(
            d[0].labels[1].message,
            "declared here, in a `{ }` block that does not enclose this use"
        );
        let f = s.function(last_fn(&m));
        // The 1000th `%s` use resolves to the 1000th nested declaration.
        let use_ = word(&t, "%s", 2 + 2 * 999);
        assert_eq!(
            f.resolve(use_).unwrap().decl_span,
            word(&t, "%s", 1 + 2 * 999)
        );
    }

    #[test]
    fn unbalanced_scopes_do_not_panic() {
        let body = Body {
            span: Span::default(),
            statements: vec![
                crate::syntax::ast::Statement {
                    span: Span::default(),
                    kind: StmtKind::ScopeClose,
                },
                crate::syntax::ast::Statement {
                    span: Span::default(),
                    kind: StmtKind::ScopeOpen,
                },
            ],
        };
        let s = Scopes::build(&body);
        assert_eq!(s.len(), 2);
        assert_eq!(s.scope_of(StmtId(0)), ScopeId::ROOT);
        assert_eq!(s.scope_of(StmtId(99)), ScopeId::ROOT);
    }
}
