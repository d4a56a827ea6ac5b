//! The name index of one document version: every place a name is written,
//! what kind of name it is, and where it is declared.
//!
//! The syntax tree borrows the document's text, so it cannot outlive one
//! analysis pass; the server keeps this owned summary instead. It is built in
//! one walk over the tree right after parsing ([`NameIndex::build`]); the
//! declarations come from the library's semantic tables (see
//! [`super::backend::resolve`]), never from a second resolver written here.
//! Lookups by cursor offset are binary searches over occurrences sorted by
//! their start.

use warpscope::source::Span;
use warpscope::syntax::ast::{
    Function, FunctionKind, Module, Operand, OperandKind, StmtKind, VarDecl,
};

/// What kind of name an occurrence is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    /// A `.reg` register (`%r1`, `%rd<4>` members, `%p1`).
    Register,
    /// A special register (`%tid`, `%ctaid`, …): never declared.
    SpecialRegister,
    /// A label: branch target or label definition.
    Label,
    /// A kernel or function parameter.
    Param,
    /// A module- or function-level variable (`.global`, `.shared`, `.const`, …).
    Variable,
    /// A function or kernel name.
    Function,
    /// A name the walk could not classify (an operand symbol that is none of
    /// the above); resolution decides.
    Symbol,
}

/// One place a name is written.
#[derive(Clone, Debug)]
pub struct Occurrence {
    /// The name's span.
    pub span: Span,
    /// What it is.
    pub kind: NameKind,
    /// The function it is written in (index into `Module::functions`).
    pub func: Option<u32>,
    /// Where it is declared, once resolved.
    pub def: Option<Span>,
    /// True when this occurrence is the declaration itself.
    pub is_decl: bool,
    /// Index into [`NameIndex::decls`] for hover, once resolved.
    pub decl_info: Option<u32>,
}

/// What hover says about a declared name.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclInfo {
    /// `register`, `parameter`, `variable`, `label`, `function`.
    pub what: &'static str,
    /// The declared type (`u32`, `b64`, `pred`), when it has one.
    pub ty: Option<String>,
    /// Vector width (1 for scalars).
    pub vector: u32,
    /// The span of the whole declaration (shown as code in hover).
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
    /// Walks the tree and records every name occurrence (unresolved).
    pub fn build(module: &Module<'_>) -> NameIndex {
        let mut w = Walker { out: Vec::new() };
        for v in module.globals() {
            w.decl(v, None, NameKind::Variable);
        }
        for (fi, f) in module.functions.iter().enumerate() {
            w.function(fi as u32, f);
        }
        let mut occurrences = w.out;
        occurrences.sort_by_key(|o| (o.span.start, o.span.end));
        NameIndex {
            occurrences,
            decls: Vec::new(),
        }
    }

    /// The occurrence under byte `offset` (a cursor right after a name counts).
    pub fn at(&self, offset: u32) -> Option<&Occurrence> {
        let i = self.occurrences.partition_point(|o| o.span.start <= offset);
        // Candidates start at or before the cursor; the nearest one wins.
        self.occurrences[..i]
            .iter()
            .rev()
            .take(4)
            .find(|o| o.span.contains(offset))
    }

    /// Hover facts of an occurrence.
    pub fn decl_info(&self, o: &Occurrence) -> Option<&DeclInfo> {
        o.decl_info.and_then(|i| self.decls.get(i as usize))
    }
}

struct Walker {
    out: Vec<Occurrence>,
}

impl Walker {
    fn push(&mut self, span: Span, kind: NameKind, func: Option<u32>, is_decl: bool) {
        self.out.push(Occurrence {
            span,
            kind,
            func,
            def: if is_decl { Some(span) } else { None },
            is_decl,
            decl_info: None,
        });
    }

    fn decl(&mut self, v: &VarDecl<'_>, func: Option<u32>, kind: NameKind) {
        let kind = if v.space == warpscope::syntax::ast::StateSpace::Reg {
            NameKind::Register
        } else {
            kind
        };
        for d in &v.declarators {
            self.push(d.name.span, kind, func, true);
        }
    }

    fn function(&mut self, fi: u32, f: &Function<'_>) {
        let func = Some(fi);
        self.push(f.name.span, NameKind::Function, func, true);
        for p in f.returns.iter().chain(&f.params) {
            self.decl(p, func, NameKind::Param);
        }
        let Some(body) = &f.body else { return };
        for s in &body.statements {
            match &s.kind {
                StmtKind::Label(l) => self.push(l.span, NameKind::Label, func, true),
                StmtKind::Var(v) => self.decl(v, func, NameKind::Variable),
                StmtKind::Instruction(ins) => {
                    if let Some(g) = &ins.guard {
                        self.push(g.pred.span, NameKind::Register, func, false);
                    }
                    let is_branch = matches!(ins.opcode(), "bra" | "brx");
                    let is_call = ins.opcode() == "call";
                    for op in &ins.operands {
                        self.operand(op, func, is_branch, is_call);
                    }
                }
                StmtKind::BranchTargets { name, targets } => {
                    self.push(name.span, NameKind::Label, func, true);
                    for t in targets {
                        self.push(t.span, NameKind::Label, func, false);
                    }
                }
                StmtKind::CallPrototype { name, .. } => {
                    self.push(name.span, NameKind::Label, func, true)
                }
                _ => {}
            }
        }
    }

    fn operand(&mut self, op: &Operand<'_>, func: Option<u32>, is_branch: bool, is_call: bool) {
        match &op.kind {
            OperandKind::Reg { name, .. } => {
                let kind = if is_special_register(name.text) {
                    NameKind::SpecialRegister
                } else {
                    NameKind::Register
                };
                self.push(name.span, kind, func, false);
            }
            OperandKind::Symbol(id) => {
                // A call's callee and a branch's target are resolved by kind
                // later; here only branch targets are known to be labels.
                let kind = if is_branch && !is_call {
                    NameKind::Label
                } else {
                    NameKind::Symbol
                };
                self.push(id.span, kind, func, false);
            }
            OperandKind::Address { base: Some(b), .. } => self.operand(b, func, false, false),
            OperandKind::Offset { base, .. } | OperandKind::Not(base) => {
                self.operand(base, func, is_branch, is_call)
            }
            OperandKind::AddressList(v) | OperandKind::Vector(v) | OperandKind::List(v) => {
                for o in v {
                    self.operand(o, func, is_branch, is_call);
                }
            }
            OperandKind::PredPair(a, b) => {
                self.operand(a, func, false, false);
                self.operand(b, func, false, false);
            }
            _ => {}
        }
    }
}

/// PTX's predefined registers (PTX ISA §10): never declared with `.reg`.
pub fn is_special_register(name: &str) -> bool {
    let n = name.strip_prefix('%').unwrap_or(name);
    matches!(
        n,
        "tid"
            | "ntid"
            | "laneid"
            | "warpid"
            | "nwarpid"
            | "ctaid"
            | "nctaid"
            | "smid"
            | "nsmid"
            | "gridid"
            | "clusterid"
            | "nclusterid"
            | "cluster_ctaid"
            | "cluster_nctaid"
            | "cluster_ctarank"
            | "cluster_nctarank"
            | "is_explicit_cluster"
            | "lanemask_eq"
            | "lanemask_le"
            | "lanemask_lt"
            | "lanemask_ge"
            | "lanemask_gt"
            | "clock"
            | "clock_hi"
            | "clock64"
            | "globaltimer"
            | "globaltimer_lo"
            | "globaltimer_hi"
            | "total_smem_size"
            | "aggr_smem_size"
            | "dynamic_smem_size"
            | "reserved_smem_offset_begin"
            | "reserved_smem_offset_end"
            | "reserved_smem_offset_cap"
            | "current_graph_exec"
    ) || n.starts_with("envreg")
        || (n.starts_with("pm") && n[2..].starts_with(|c: char| c.is_ascii_digit()))
}

/// Kernels first-class: the kind of function for document symbols.
pub fn function_kind_label(k: FunctionKind) -> &'static str {
    match k {
        FunctionKind::Entry => ".entry",
        FunctionKind::Func => ".func",
    }
}
