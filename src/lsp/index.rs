//! The name index of one document version: every place a name is written,
//! what it refers to, and where that is declared.
//!
//! The syntax tree and the symbol tables borrow the document's text, so they
//! cannot outlive one analysis pass; the server keeps this owned summary
//! instead. It is a copy of the library's resolution side table
//! ([`FunctionSymbols::resolutions`](warpscope::sema::FunctionSymbols::resolutions)),
//! plus the declarations themselves (so that hover and go-to-definition also
//! work on a declaration), plus what hover shows about each declaration. No
//! name is resolved here. Lookups by cursor offset are binary searches over
//! occurrences sorted by their start.

use warpscope::sema::{Def, ModuleSymbols};
use warpscope::source::Span;
use warpscope::syntax::ast::{Body, FunctionId, Module, StateSpace, StmtKind, VarDecl};

/// What kind of name an occurrence is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    /// A `.reg` register.
    Register,
    /// A special register (`%tid`, `%laneid`, …) or `WARP_SZ`: never declared.
    SpecialRegister,
    /// A label, `.branchtargets` or `.callprototype` name.
    Label,
    /// A kernel or function parameter (or return parameter).
    Param,
    /// A body variable (`.shared`, `.local`, …).
    Local,
    /// A module variable.
    Global,
    /// A function or kernel name.
    Function,
}

/// One place a name is written.
#[derive(Clone, Debug)]
pub struct Occurrence {
    /// The name's span.
    pub span: Span,
    /// What it is.
    pub kind: NameKind,
    /// Where it is declared (the declaration's name); `None` for special registers.
    pub def: Option<Span>,
    /// Index into [`NameIndex::decls`].
    pub decl_info: Option<u32>,
}

/// What hover says about a declared name.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclInfo {
    /// `register`, `parameter`, `variable`, `label`, `function`.
    pub what: &'static str,
    /// The state space, for variables and parameters.
    pub space: Option<StateSpace>,
    /// The declared type (`u32`, `b64`, `pred`), when it has one.
    pub ty: Option<String>,
    /// Vector width (1 for scalars).
    pub vector: u32,
    /// The span of the whole declaration statement (shown as code in hover).
    pub decl_span: Span,
}

/// Every name occurrence of one document, sorted by start offset.
#[derive(Clone, Debug, Default)]
pub struct NameIndex {
    /// Occurrences, sorted by `span.start`.
    pub occurrences: Vec<Occurrence>,
    /// Declaration facts referenced by [`Occurrence::decl_info`].
    pub decls: Vec<DeclInfo>,
}

impl NameIndex {
    /// Copies the library's resolutions and declarations.
    pub fn build(module: &Module<'_>, symbols: &ModuleSymbols<'_>) -> NameIndex {
        let mut b = Builder {
            ix: NameIndex::default(),
            by_def: std::collections::HashMap::new(),
        };
        for (gi, v) in symbols.variables().iter().enumerate() {
            let info = b.var_info("variable", &v.decl);
            b.decl(v.name().span, NameKind::Global, info, DefKey::Global(gi));
        }
        for fid in module.function_ids() {
            let f = module.function(fid);
            let fs = symbols.function(fid);
            let finfo = DeclInfo {
                what: "function",
                space: None,
                ty: None,
                vector: 1,
                decl_span: f.span,
            };
            // A declaration and a definition of one function share one entry,
            // and both lead to the one the library names canonical.
            let canonical = symbols
                .function_named(f.name.text)
                .map_or(f.name.span, |g| symbols.function_span(g));
            b.decl_at(
                f.name.span,
                canonical,
                NameKind::Function,
                finfo,
                DefKey::Function(f.name.text.to_string()),
            );
            for (i, p) in f.params.iter().enumerate() {
                let info = b.var_info("parameter", p);
                for d in &p.declarators {
                    b.decl(
                        d.name.span,
                        NameKind::Param,
                        info.clone(),
                        DefKey::Param(fid, i, false),
                    );
                }
            }
            for (i, p) in f.returns.iter().enumerate() {
                let info = b.var_info("return parameter", p);
                for d in &p.declarators {
                    b.decl(
                        d.name.span,
                        NameKind::Param,
                        info.clone(),
                        DefKey::Param(fid, i, true),
                    );
                }
            }
            let Some(body) = &f.body else { continue };
            for (ri, r) in fs.registers().iter().enumerate() {
                let info = DeclInfo {
                    what: "register",
                    space: Some(StateSpace::Reg),
                    ty: (!r.ty.is_empty()).then(|| r.ty.to_string()),
                    vector: r.vector,
                    decl_span: statement_around(body, r.span),
                };
                b.decl(r.span, NameKind::Register, info, DefKey::Reg(fid, ri));
            }
            for (li, l) in fs.locals().iter().enumerate() {
                let info = b.var_info("variable", &l.decl);
                b.decl(l.name().span, NameKind::Local, info, DefKey::Local(fid, li));
            }
            for (si, s) in body.iter() {
                let name = match &s.kind {
                    StmtKind::Label(n) => n,
                    StmtKind::BranchTargets { name, .. } => name,
                    StmtKind::CallPrototype(p) => &p.name,
                    _ => continue,
                };
                let info = DeclInfo {
                    what: "label",
                    space: None,
                    ty: None,
                    vector: 1,
                    decl_span: s.span,
                };
                b.decl(name.span, NameKind::Label, info, DefKey::Label(fid, si.0));
            }
            for (span, r) in fs.resolutions() {
                let (kind, key) = match r.def {
                    Def::Register(id) => {
                        (NameKind::Register, Some(DefKey::Reg(fid, id.0 as usize)))
                    }
                    Def::Special => (NameKind::SpecialRegister, None),
                    Def::Param(i) => (NameKind::Param, Some(DefKey::Param(fid, i, false))),
                    Def::ReturnParam(i) => (NameKind::Param, Some(DefKey::Param(fid, i, true))),
                    Def::Local(i) => (NameKind::Local, Some(DefKey::Local(fid, i))),
                    Def::Label(s) => (NameKind::Label, Some(DefKey::Label(fid, s.0))),
                    Def::Global(i) => (NameKind::Global, Some(DefKey::Global(i))),
                    Def::Function(g) => (
                        NameKind::Function,
                        Some(DefKey::Function(module.function(g).name.text.to_string())),
                    ),
                };
                let decl_info = key.and_then(|k| b.by_def.get(&k).copied());
                let def = (!r.decl_span.is_empty()).then_some(r.decl_span);
                b.ix.occurrences.push(Occurrence {
                    span: *span,
                    kind,
                    def,
                    decl_info,
                });
            }
        }
        let mut ix = b.ix;
        ix.occurrences.sort_by_key(|o| (o.span.start, o.span.end));
        ix
    }

    /// The innermost occurrence under byte `offset` (a cursor right after a
    /// name counts).
    pub fn at(&self, offset: u32) -> Option<&Occurrence> {
        let i = self.occurrences.partition_point(|o| o.span.start <= offset);
        self.occurrences[..i]
            .iter()
            .rev()
            .take(8)
            .filter(|o| o.span.contains(offset))
            .min_by_key(|o| o.span.len())
    }

    /// Hover facts of an occurrence.
    pub fn decl_info(&self, o: &Occurrence) -> Option<&DeclInfo> {
        o.decl_info.and_then(|i| self.decls.get(i as usize))
    }
}

/// Identifies a declaration, to share one [`DeclInfo`] between the
/// declaration and its uses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum DefKey {
    Reg(FunctionId, usize),
    Param(FunctionId, usize, bool),
    Local(FunctionId, usize),
    Label(FunctionId, u32),
    Global(usize),
    Function(String),
}

struct Builder {
    ix: NameIndex,
    by_def: std::collections::HashMap<DefKey, u32>,
}

impl Builder {
    fn var_info(&self, what: &'static str, v: &VarDecl<'_>) -> DeclInfo {
        DeclInfo {
            what,
            space: Some(v.space),
            ty: v.ty.map(|t| t.text.to_string()),
            vector: v.vector,
            decl_span: v.span,
        }
    }

    /// A declaration's own name: its definition is itself.
    fn decl(&mut self, span: Span, kind: NameKind, info: DeclInfo, key: DefKey) {
        self.decl_at(span, span, kind, info, key)
    }

    fn decl_at(&mut self, span: Span, def: Span, kind: NameKind, info: DeclInfo, key: DefKey) {
        let i = *self.by_def.entry(key).or_insert_with(|| {
            self.ix.decls.push(info);
            self.ix.decls.len() as u32 - 1
        });
        self.ix.occurrences.push(Occurrence {
            span,
            kind,
            def: Some(def),
            decl_info: Some(i),
        });
    }
}

/// The span of the body statement that contains `span` (the declaration a
/// register's name stands in), or `span` itself.
fn statement_around(body: &Body<'_>, span: Span) -> Span {
    let i = body
        .statements
        .partition_point(|s| s.span.start <= span.start);
    body.statements[..i]
        .last()
        .filter(|s| s.span.contains(span.start))
        .map_or(span, |s| s.span)
}
