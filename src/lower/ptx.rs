//! Lowering PTX (syntax tree + semantic tables) to the warp IR
//! ([`crate::ir`]): the end of the PTX front end.
//!
//! Every statement of the body gets an [`Op`] (labels, declarations and `.loc`
//! become [`OpKind::Nop`], with a [`Form`] saying what they were), so a
//! `StmtId` indexes the list directly (`OpId(stmt.0)`). What the analysis does
//! not model is kept as [`OpKind::Other`] with its destination registers,
//! which then receive "unknown" values: an unknown opcode never stops the
//! analysis. Memory instructions are classified here ([`MemOp`]): direction,
//! kind, declared state space, element bits, signedness and vector count,
//! cache qualifiers and the address operand. A `mov` with a vector operand
//! packs (`mov.b64 %rd, {%r1, %r2}`) or unpacks into two halves (`mov.b64
//! {%r1, %r2}, %rd`: the second destination receives the high half).
//!
//! Labels are resolved through the body's `{ }` scopes, with the same
//! [`LabelCursor`] walk for `bra` targets and `.branchtargets` tables, so the
//! CFG ([`crate::cfg`]) and the launch simulation see the same targets.
//!
//! `.loc` lines form inline chains: `.loc 3 92 13, … inlined_at 3 118 13`
//! is inlined into the most recent location at file 3, line 118, column 13,
//! itself possibly inlined elsewhere (nvcc writes the chain one `.loc` per
//! level, outermost first). [`Loc::inlined_at`] keeps the whole chain.
//! A `.loc` of line 0 (no source line) leaves the current location as it is.
//! How many frames of each op's chain ptxas's line table holds at its code
//! (where Nsight Compute lists the instruction) is modelled from the PTX
//! order ([`super::module::line_frames`], [`IrFunction::line_frames`]).

use super::module::{dims, line_frames, symbol_name, variables, LocChains};
pub use super::module::{module_files, module_globals};
use super::names::NameMap;
use crate::ir::alu::{decode, Ty};
use crate::ir::{
    AccessOp, CacheHints, Form, Function as IrFunction, FunctionKind as IrKind, LaunchDirectives,
    LocId, MemKind, MemOp, Op, OpId, OpKind, Param, SingleDefs, Space, Src, Variable,
};
use crate::sema::{LabelCursor, Scopes};
use crate::syntax::ast::{
    Function, FunctionKind, Instruction, Operand, OperandKind, StateSpace, StmtId, StmtKind,
};
use crate::util::FastMap as HashMap;

struct Ctx<'a, 'src> {
    cursor: LabelCursor<'a, 'src>,
    body: &'a [crate::syntax::ast::Statement<'src>],
    regs: NameMap<'src, u32>,
    names: Vec<&'src str>,
    params: HashMap<&'src str, u16>,
    vars: HashMap<&'src str, u32>,
    var_list: Vec<Variable<'src>>,
    /// `brx.idx` ops and the table statement they name.
    tables: Vec<(usize, Option<StmtId>)>,
    /// Names (or `%p<N>` range prefixes) of the `.pred` registers.
    preds: Vec<&'src str>,
    /// Registers declared without `%` (inline-assembly style, `.reg .pred q;`),
    /// which the parser reads as symbols.
    bare_regs: HashMap<&'src str, ()>,
    /// The op being lowered (the statement's index plus `base`).
    cur: usize,
    /// The op of the body's first statement: 0 for the function's own body,
    /// the start of an inlined instance's body otherwise.
    base: u32,
    /// Names whose `.param` slots are registers here: the body's own
    /// `.param` declarations (call arguments and results), the function's
    /// return parameters, and, in an inlined body, its parameters.
    slot_names: HashMap<&'src str, ()>,
    /// `.param` slots (name, byte offset) and the registers that hold them.
    slots: HashMap<(&'src str, i64), u32>,
    /// Registers holding the address of a kernel parameter (`mov.b64 %rd,
    /// NAME`), so that `ld.param [%rd+OFFSET]` reads a field of a by-value
    /// (struct) parameter: `LdParam { param: Some((index, OFFSET)) }`.
    param_addrs: HashMap<u32, u16>,
    /// The calls of this body, expanded once the body is lowered.
    pending: Vec<calls::PendingCall<'src>>,
    /// Where `ret` goes in an inlined body (the return moves).
    ret_to: Option<OpId>,
}

fn space_of(s: StateSpace) -> Space {
    match s {
        StateSpace::Global => Space::Global,
        StateSpace::Shared => Space::Shared,
        StateSpace::Local => Space::Local,
        StateSpace::Const => Space::Const,
        StateSpace::Param => Space::Param,
        _ => Space::Generic,
    }
}

impl<'a, 'src> Ctx<'a, 'src> {
    fn new(
        scopes: &'a Scopes<'src>,
        body: &'a [crate::syntax::ast::Statement<'src>],
        names: Vec<&'src str>,
        var_list: Vec<Variable<'src>>,
        base: u32,
    ) -> Ctx<'a, 'src> {
        Ctx {
            cursor: LabelCursor::new(scopes),
            body,
            regs: NameMap::default(),
            names,
            params: HashMap::default(),
            vars: HashMap::default(),
            var_list,
            tables: Vec::new(),
            preds: Vec::new(),
            bare_regs: HashMap::default(),
            cur: 0,
            base,
            slot_names: HashMap::default(),
            slots: HashMap::default(),
            param_addrs: HashMap::default(),
            pending: Vec::new(),
            ret_to: None,
        }
    }

    /// The register of `.param` slot `name` at byte `off` (a fresh one the
    /// first time).
    fn slot(&mut self, name: &'src str, off: i64) -> u32 {
        if let Some(&r) = self.slots.get(&(name, off)) {
            return r;
        }
        let r = self.names.len() as u32;
        self.names.push(name);
        self.slots.insert((name, off), r);
        r
    }

    /// The slot a `.param` address operand names (`[param0+4]`), when its
    /// name is a slot name here.
    fn slot_ref(&self, op: &Operand<'src>) -> Option<(&'src str, i64)> {
        let (name, off) = match &op.kind {
            OperandKind::Address {
                base: Some(b),
                offset,
            } => (symbol_name(&b.kind)?, *offset + symbol_offset(&b.kind)),
            OperandKind::Symbol(_) | OperandKind::Offset { .. } => {
                (symbol_name(&op.kind)?, symbol_offset(&op.kind))
            }
            _ => return None,
        };
        self.slot_names.contains_key(name).then_some((name, off))
    }

    fn reg(&mut self, name: &'src str) -> u32 {
        if let Some(&i) = self.regs.get(name) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(name);
        self.regs.insert(name, i);
        i
    }

    fn src(&mut self, op: &Operand<'src>) -> Src {
        match &op.kind {
            OperandKind::Reg { name, component } => {
                if let Some(s) = crate::isa::special_value(name, component.map(|c| c.as_str())) {
                    return Src::Special(s);
                }
                Src::Reg(self.reg(name), 0)
            }
            OperandKind::Int(v) => Src::Imm(*v),
            OperandKind::Symbol(name) => self.symbol(name, 0),
            OperandKind::Offset { base, offset } => match self.src(base) {
                Src::Reg(r, o) => Src::Reg(r, o.wrapping_add(*offset)),
                Src::Var(v, o) => Src::Var(v, o.wrapping_add(*offset)),
                Src::Param(p, o) => Src::Param(p, o.wrapping_add(*offset)),
                _ => Src::Unknown,
            },
            OperandKind::Address { base, offset } => match base {
                None => Src::Imm(*offset),
                Some(b) => match self.src(b) {
                    Src::Reg(r, o) => Src::Reg(r, o.wrapping_add(*offset)),
                    Src::Var(v, o) => Src::Var(v, o.wrapping_add(*offset)),
                    Src::Param(p, o) => Src::Param(p, o.wrapping_add(*offset)),
                    Src::Imm(i) => Src::Imm(i.wrapping_add(*offset)),
                    _ => Src::Unknown,
                },
            },
            OperandKind::Not(inner) => match self.src(inner) {
                Src::Reg(r, 0) => Src::NotPred(r),
                _ => Src::Unknown,
            },
            _ => Src::Unknown,
        }
    }

    fn is_label(&self, s: StmtId) -> bool {
        matches!(
            self.body.get(s.index()).map(|s| &s.kind),
            Some(StmtKind::Label(_))
        )
    }

    fn symbol(&mut self, name: &'src str, off: i64) -> Src {
        if let Some(&p) = self.params.get(name) {
            return Src::Param(p, off);
        }
        if let Some(&v) = self.vars.get(name) {
            return Src::Var(v, off);
        }
        if self.bare_regs.contains_key(name) {
            return Src::Reg(self.reg(name), off);
        }
        Src::Unknown
    }

    /// True when `name` is declared `.reg .pred` (alone or in a `%p<N>` range).
    fn is_pred(&self, name: &str) -> bool {
        self.preds.iter().any(|p| {
            name == *p
                || name.strip_prefix(p).is_some_and(|rest| {
                    !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())
                })
        })
    }

    fn dsts(&mut self, op: &Operand<'src>) -> Vec<u32> {
        match &op.kind {
            OperandKind::Reg {
                name,
                component: None,
            } if !name.is_empty() => vec![self.reg(name)],
            OperandKind::Symbol(name) if self.bare_regs.contains_key(name) => {
                vec![self.reg(name)]
            }
            OperandKind::Vector(v) | OperandKind::List(v) => {
                v.iter().flat_map(|o| self.dsts(o)).collect()
            }
            OperandKind::PredPair(pair) => {
                let mut v = self.dsts(&pair[0]);
                v.extend(self.dsts(&pair[1]));
                v
            }
            _ => Vec::new(),
        }
    }

    fn var_decl(&mut self, d: &crate::syntax::ast::VarDecl<'src>) {
        if d.space == StateSpace::Reg {
            let pred = d.ty.is_some_and(|t| t.text == "pred");
            for decl in &d.declarators {
                if pred {
                    self.preds.push(decl.name.text);
                }
                if !decl.name.text.starts_with('%') {
                    self.bare_regs.insert(decl.name.text, ());
                }
            }
        }
        if d.space == StateSpace::Param {
            for decl in &d.declarators {
                self.slot_names.insert(decl.name.text, ());
            }
        }
        let space = space_of(d.space);
        if matches!(
            d.space,
            StateSpace::Reg | StateSpace::Sreg | StateSpace::Param
        ) {
            return;
        }
        for v in variables(d, space) {
            let i = self.var_list.len() as u32;
            self.vars.insert(v.name, i);
            self.var_list.push(v);
        }
    }
}

mod calls;
mod liveness;
mod mem;
mod wmma;

pub use calls::Callees;

/// The constant offset of `sym+off`.
fn symbol_offset(op: &OperandKind<'_>) -> i64 {
    match op {
        OperandKind::Offset { base, offset } => offset.wrapping_add(symbol_offset(&base.kind)),
        _ => 0,
    }
}

fn collect_reads<'src>(o: &Operand<'src>, out: &mut Vec<&'src str>) {
    match &o.kind {
        OperandKind::Reg { name, .. } if !out.contains(name) => out.push(name),
        OperandKind::Address { base: Some(b), .. } => collect_reads(b, out),
        OperandKind::Offset { base, .. } | OperandKind::Not(base) => collect_reads(base, out),
        OperandKind::AddressList(v) | OperandKind::Vector(v) | OperandKind::List(v) => {
            v.iter().for_each(|x| collect_reads(x, out))
        }
        OperandKind::PredPair(pair) => pair.iter().for_each(|x| collect_reads(x, out)),
        _ => {}
    }
}

/// Bits of one element from the type modifiers (`u8` → 8, `b128` → 128).
fn elem_bits(mods: &[&str]) -> u32 {
    mods.iter()
        .rev()
        .find_map(|m| Ty::parse(m).map(|t| t.bits))
        .unwrap_or(32)
}

fn vector_width(mods: &[&str]) -> u32 {
    mods.iter()
        .find_map(|m| match *m {
            "v2" => Some(2),
            "v4" => Some(4),
            "v8" => Some(8),
            _ => None,
        })
        .unwrap_or(1)
}

fn mem_space(mods: &[&str]) -> Space {
    mods.iter()
        .find_map(|m| StateSpace::from_modifier(m).map(space_of))
        .unwrap_or(Space::Generic)
}

/// Lowers a function without the module around it (no module variables, no
/// `.file` names): for the CFG of one function and for tests.
pub fn lower_standalone<'src>(func: &Function<'src>) -> IrFunction<'src> {
    let empty = crate::syntax::ast::Body::default();
    let scopes = Scopes::build(func.body.as_ref().unwrap_or(&empty));
    lower(func, &[], &[], &scopes)
}

/// Lowers a function without its module's other functions: calls stay
/// unknown ([`crate::ir::CallLimit::NoModule`]). See [`lower_in`].
pub fn lower<'src>(
    func: &Function<'src>,
    globals: &[Variable<'src>],
    files: &[(u32, &'src str)],
    scopes: &Scopes<'src>,
) -> IrFunction<'src> {
    lower_in(func, None, globals, files, scopes)
}

/// Lowers a function (a declaration without body gets no ops). `callees`
/// are the module's functions, by name: direct calls to one with a body are
/// inlined (see [`calls`]); without them calls stay unknown. `globals` are
/// the module's variables ([`module_globals`]), visible unless shadowed;
/// `files` its `.file` table ([`module_files`]); `scopes` the body's label
/// scopes (from semantic analysis, or [`Scopes::build`]).
pub fn lower_in<'src>(
    func: &Function<'src>,
    callees: Option<&Callees<'_, 'src>>,
    globals: &[Variable<'src>],
    files: &[(u32, &'src str)],
    scopes: &Scopes<'src>,
) -> IrFunction<'src> {
    let statements: &[crate::syntax::ast::Statement<'src>] = match &func.body {
        Some(b) => &b.statements,
        None => &[],
    };
    let mut cx = Ctx::new(scopes, statements, Vec::new(), Vec::new(), 0);
    for (i, p) in func.params.iter().enumerate() {
        for d in &p.declarators {
            cx.params
                .insert(d.name.text, i.min(u16::MAX as usize) as u16);
        }
    }
    for r in &func.returns {
        for d in &r.declarators {
            cx.slot_names.insert(d.name.text, ());
        }
    }
    for v in globals {
        let i = cx.var_list.len() as u32;
        cx.var_list.push(v.clone());
        cx.vars.insert(v.name, i);
    }
    let mut pointer_params = vec![false; func.params.len()];
    for p in func.params.iter().enumerate() {
        if p.1.ptr.is_some() {
            pointer_params[p.0] = true;
        }
    }
    let mut param_regs: HashMap<u32, u16> = HashMap::default();
    let mut out = Out::default();
    out.reserve(statements.len());
    let mut chains = LocChains::default();
    lower_body(
        &mut cx,
        &mut out,
        &mut chains,
        None,
        &mut param_regs,
        &mut pointer_params,
    );
    out.loc_table = std::mem::take(&mut chains.locs);
    let pending = std::mem::take(&mut cx.pending);
    let slots = std::mem::take(&mut cx.slots);
    out.names = std::mem::take(&mut cx.names);
    out.var_list = std::mem::take(&mut cx.var_list);
    let own = out.ops.len();
    let mut ex = calls::Expansion {
        callees,
        globals,
        own: out.ops.len(),
        stack: callees.and_then(|c| c.id_of(func)).into_iter().collect(),
        param_regs,
        pointer_params,
        callee_regs: HashMap::default(),
    };
    calls::expand(&mut out, &mut ex, pending, &slots, 1);
    let wmma = std::mem::take(&mut out.wmma);
    wmma::expand(&mut out, wmma);
    mark_fusable(&mut out.ops);
    let mut pointer_params = ex.pointer_params;
    let single_defs = single_defs(&out.ops, std::mem::take(&mut out.packs));
    mem::mark_zero_fill(&mut out.ops, &single_defs);
    let layout_rank = calls::layout_rank(out.ops.len(), own, &out.inlined);
    let line_frames = line_frames(&out.ops, &out.locs, &out.loc_table, &layout_rank);
    let params: Vec<Param> = func
        .params
        .iter()
        .map(|p| {
            let ty = p.ty.map(|t| t.text);
            Param {
                name: p.declarators.first().map(|d| d.name.text).unwrap_or(""),
                ty,
                bits: ty.and_then(Ty::parse).map(|t| t.bits).unwrap_or(0),
                declared_pointer: p.ptr.is_some(),
                span: p.span,
            }
        })
        .collect();
    super::mark_pointer_flows(&out.ops, &params, &mut pointer_params);
    let branch_targets = crate::ir::branch_targets(&out.ops);
    IrFunction {
        name: func.name.text,
        demangled: super::demangle(func.name.text),
        front_end: crate::ir::FrontEnd::Ptx,
        kind: match func.kind {
            FunctionKind::Entry => IrKind::Kernel,
            FunctionKind::Func => IrKind::Device,
        },
        span: func.span,
        name_span: func.name.span,
        body_span: func.body.as_ref().map(|b| b.span),
        params,
        launch: LaunchDirectives {
            reqntid: dims(func, ".reqntid"),
            maxntid: dims(func, ".maxntid"),
            cluster_dim: dims(func, ".reqnctapercluster"),
            explicit_cluster: func.directive(".explicitcluster").is_some(),
        },
        ops: out.ops,
        spans: out.spans,
        locs: out.locs,
        mnemonics: out.mnemonics,
        loc_table: out.loc_table,
        files: files.to_vec(),
        labels: out.labels,
        regs: out.names,
        vars: out.var_list,
        pointer_params,
        expect_tx: out.expect_tx,
        single_defs,
        layout_rank,
        inlined: out.inlined,
        line_frames,
        sass_offsets: Vec::new(),
        branch_targets,
    }
}

/// What lowering accumulates over the function's own body and every
/// inlined instance.
#[derive(Default)]
struct Out<'src> {
    ops: Vec<Op>,
    spans: Vec<crate::source::Span>,
    mnemonics: Vec<&'src str>,
    locs: Vec<Option<LocId>>,
    loc_table: Vec<crate::ir::Loc>,
    labels: Vec<(OpId, &'src str)>,
    expect_tx: Vec<crate::ir::ExpectTx>,
    packs: HashMap<u32, (Src, Src, u32)>,
    inlined: Vec<crate::ir::InlineSite>,
    /// `wmma.load`/`wmma.store` ops, expanded into their requests at the end.
    wmma: wmma::Pending,
    names: Vec<&'src str>,
    var_list: Vec<Variable<'src>>,
}

impl<'src> Out<'src> {
    /// Room for `n` more ops (one per statement of a body).
    fn reserve(&mut self, n: usize) {
        self.ops.reserve(n);
        self.spans.reserve(n);
        self.mnemonics.reserve(n);
        self.locs.reserve(n);
    }

    fn push(&mut self, op: Op, span: crate::source::Span, mnemonic: &'src str, loc: Option<LocId>) {
        self.ops.push(op);
        self.spans.push(span);
        self.mnemonics.push(mnemonic);
        self.locs.push(loc);
    }
}

/// Lowers the statements of `cx.body` to ops `cx.base..` of `out`: one op
/// per statement, branch targets and tables resolved in the body's scopes,
/// the results of loads marked used or not.
fn lower_body<'src>(
    cx: &mut Ctx<'_, 'src>,
    out: &mut Out<'src>,
    loc_table: &mut LocChains,
    mut cur_loc: Option<LocId>,
    param_regs: &mut HashMap<u32, u16>,
    pointer_params: &mut [bool],
) {
    let statements = cx.body;
    for st in statements {
        if let StmtKind::Var(d) = &st.kind {
            cx.var_decl(d)
        }
    }
    let base = cx.base as usize;
    let mut table_entries: HashMap<u32, Vec<OpId>> = HashMap::default();
    // Per register name: how many instructions read it, and the last one.
    let mut readers: NameMap<'src, (u32, usize)> = NameMap::default();
    // The names one instruction reads, once each (reused: cleared by
    // draining; a few operands, so a list).
    let mut here: Vec<&'src str> = Vec::new();
    // Registers declared inside a `{ }` block: a fresh register per
    // declaration, shadowing the name until the block closes (nvcc's inline
    // asm declares `.reg .pred q;` in sibling blocks; they are distinct).
    // Per open block, the mappings it shadowed.
    let mut shadowed: Vec<Vec<(&'src str, Option<u32>)>> = Vec::new();
    // Which load results are used (`liveness`): each instruction's reads
    // and writes by register, and the names of the one at hand.
    let mut live = liveness::Liveness::default();
    let (mut names_read, mut names_written): (Vec<&'src str>, Vec<&'src str>) = Default::default();
    for (i, st) in statements.iter().enumerate() {
        let at = base + i;
        cx.cursor.step(&st.kind);
        cx.cur = at;
        match &st.kind {
            StmtKind::ScopeOpen => shadowed.push(Vec::new()),
            StmtKind::ScopeClose => {
                for (name, prev) in shadowed.pop().unwrap_or_default().into_iter().rev() {
                    match prev {
                        Some(r) => cx.regs.insert(name, r),
                        None => cx.regs.remove(name),
                    };
                }
            }
            StmtKind::Var(d) if d.space == StateSpace::Reg => {
                if let Some(frame) = shadowed.last_mut() {
                    for decl in d.declarators.iter().filter(|d| d.range.is_none()) {
                        let name = decl.name.text;
                        frame.push((name, cx.regs.get(name).copied()));
                        let r = cx.names.len() as u32;
                        cx.names.push(name);
                        cx.regs.insert(name, r);
                    }
                }
            }
            _ => {}
        }
        let mut mnemonic = "";
        let op = match &st.kind {
            StmtKind::Instruction(ins) => {
                mnemonic = ins.mnemonic;
                let mods: Vec<&str> = ins.modifiers().collect();
                if let Some(tx) = mem::expect_tx(cx, ins, &mods) {
                    out.expect_tx.push(tx);
                }
                if let Some((dst, pack)) = mem::pack(cx, ins, &mods) {
                    out.packs.insert(dst, pack);
                }
                let writes_first = crate::isa::writes_first_operand(ins.mnemonic);
                for (k, o) in ins.operands.iter().enumerate() {
                    if k > 0 || !writes_first {
                        collect_reads(o, &mut here);
                    }
                }
                if let Some(g) = &ins.guard {
                    if !here.contains(&g.pred) {
                        here.push(g.pred);
                    }
                }
                // (Registers named without `%`, such as inline asm's
                // scoped `.reg .b32 t;`, parse as symbols: both count.)
                names_read.clear();
                names_written.clear();
                for (k, o) in ins.operands.iter().enumerate() {
                    if k > 0 || !writes_first {
                        liveness::names(o, &mut names_read);
                    } else {
                        liveness::names(o, &mut names_written);
                    }
                }
                if let Some(g) = &ins.guard {
                    names_read.push(g.pred);
                }
                for name in here.drain(..) {
                    let e = readers.get_or_insert_with(name, || (0, at));
                    e.0 += 1;
                    e.1 = at;
                }
                let lowered = lower_instr(cx, at, ins, param_regs, pointer_params);
                if ins.opcode() == "wmma" {
                    if let Some(w) = wmma::of_instruction(cx, &mods, &ins.operands) {
                        out.wmma.push((at, w));
                    }
                }
                note_param_address(cx, &lowered.kind);
                let id = |n: &&'src str| {
                    (!crate::isa::is_special_register(n))
                        .then(|| cx.regs.get(n).copied())
                        .flatten()
                };
                if liveness::pure(ins.opcode(), ins.mnemonic) {
                    live.instruction(
                        true,
                        names_read.iter().filter_map(id),
                        names_written.iter().filter_map(id),
                    );
                } else {
                    let all = names_read.iter().chain(&names_written).filter_map(id);
                    live.instruction(false, all, []);
                }
                lowered
            }
            other => {
                match other {
                    StmtKind::Label(l) => out.labels.push((OpId(at as u32), l.text)),
                    StmtKind::BranchTargets { targets, .. } => {
                        let entries = targets
                            .iter()
                            .filter_map(|t| cx.cursor.resolve(t.text))
                            .filter(|t| cx.is_label(*t))
                            .map(|t| OpId(cx.base + t.0))
                            .collect();
                        table_entries.insert(at as u32, entries);
                    }
                    // Line 0 is "no source line" (DWARF): ptxas's line
                    // table keeps the previous row, and ncu puts such
                    // instructions at the line before (measured:
                    // `t7_softmax_online_2pass` in tests/hw/blind7/).
                    StmtKind::Loc(l) if l.line == 0 => {}
                    StmtKind::Loc(l) => cur_loc = Some(loc_table.push(l)),
                    // `.pragma "nounroll";` at a loop's head keeps ptxas
                    // from unrolling it (`analysis::unroll`): the pragma's
                    // text stands as the statement's mnemonic.
                    StmtKind::Pragma(p) => mnemonic = p.text,
                    _ => {}
                }
                Op {
                    guard: None,
                    kind: OpKind::Nop,
                    form: if matches!(other, StmtKind::Label(_)) {
                        Form::Label
                    } else {
                        Form::Other
                    },
                }
            }
        };
        out.push(op, st.span, mnemonic, cur_loc);
    }
    for (i, table) in std::mem::take(&mut cx.tables) {
        let entries = table
            .and_then(|t| table_entries.get(&(cx.base + t.0)))
            .cloned()
            .unwrap_or_default();
        if let OpKind::Branch { indexed, .. } = &mut out.ops[i].kind {
            *indexed = entries;
        }
    }
    let needed = live.needed(cx.names.len());
    for op in &mut out.ops[base..] {
        if let OpKind::Mem { info, dsts } = &mut op.kind {
            if !info.no_result {
                info.live_results = dsts
                    .iter()
                    .take(8)
                    .enumerate()
                    .filter(|(_, d)| needed.get(**d as usize).copied().unwrap_or(true))
                    .fold(0u8, |bits, (k, _)| bits | (1 << k));
                info.result_used = dsts.iter().any(|d| {
                    cx.names
                        .get(*d as usize)
                        .is_some_and(|n| readers.contains_key(n))
                });
                // The one instruction reading every result register.
                let mut sole = None;
                for d in dsts.iter() {
                    match cx.names.get(*d as usize).and_then(|n| readers.get(n)) {
                        Some(&(1, at)) if sole.is_none_or(|s| s == at) => sole = Some(at),
                        _ => {
                            sole = None;
                            break;
                        }
                    }
                }
                info.sole_reader = sole.map(|at| OpId(at as u32));
            }
            if (info.no_result || !info.result_used) && redux_op(info) {
                info.ext_mut().reduces_warp = true;
            }
        }
    }
}

/// An `atom`/`red` whose operation `redux.sync` also computes: a 32-bit
/// integer `add`, `min`, `max`, `and`, `or` or `xor` of one element
/// ([`crate::ir::MemExt::reduces_warp`] when its result is not read).
fn redux_op(info: &MemOp) -> bool {
    matches!(info.kind, MemKind::Atomic | MemKind::Reduction)
        && matches!(
            info.atomic_op(),
            Some("add" | "min" | "max" | "and" | "or" | "xor")
        )
        && info.elem_bits == 32
        && info.vector == 1
        && !info.elem_float
}

/// Registers defined once: their op, their value when it is a constant
/// (`mov` of an immediate), and the halves of the `mov.b64 {lo, hi}` among them.
fn single_defs(ops: &[Op], mut packs: HashMap<u32, (Src, Src, u32)>) -> SingleDefs {
    let mut ndefs: HashMap<u32, (u32, OpId)> = HashMap::default();
    for (i, op) in ops.iter().enumerate() {
        for d in op.kind.dsts() {
            ndefs.entry(d).or_insert((0, OpId(i as u32))).0 += 1;
        }
    }
    let def: HashMap<u32, OpId> = ndefs
        .iter()
        .filter(|(_, (n, _))| *n == 1)
        .map(|(r, (_, s))| (*r, *s))
        .collect();
    let mut consts = HashMap::default();
    for (r, s) in &def {
        if let Some(Op {
            guard: None,
            kind: OpKind::Alu { alu, srcs, .. },
            ..
        }) = ops.get(s.index())
        {
            if let (crate::analysis::transfer::AluOp::Mov, [Src::Imm(v)]) =
                (alu.op, srcs.as_slice())
            {
                consts.insert(*r, *v);
            }
        }
    }
    packs.retain(|r, _| def.contains_key(r));
    SingleDefs { def, consts, packs }
}

/// The PTX type name of a modifier, as a static string.
fn type_name(m: &str) -> Option<&'static str> {
    const TYPES: &[&str] = &[
        "b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
        "f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "e4m3", "e5m2", "tf32",
    ];
    TYPES.iter().copied().find(|t| *t == m)
}

/// Keeps `Ctx::param_addrs` up to date after one op: a `mov` of a kernel
/// parameter's name makes its destination that parameter's address; any
/// other write to a register forgets it.
fn note_param_address(cx: &mut Ctx<'_, '_>, kind: &OpKind) {
    if let OpKind::Alu { alu, dst, srcs, .. } = kind {
        if let (crate::ir::alu::AluOp::Mov, [Src::Param(p, 0)]) = (alu.op, srcs.as_slice()) {
            cx.param_addrs.insert(*dst, *p);
            return;
        }
    }
    if !cx.param_addrs.is_empty() {
        for d in kind.dsts() {
            cx.param_addrs.remove(&d);
        }
    }
}

fn lower_instr<'src>(
    cx: &mut Ctx<'_, 'src>,
    at: usize,
    ins: &Instruction<'src>,
    param_regs: &mut HashMap<u32, u16>,
    pointer_params: &mut [bool],
) -> Op {
    let guard = ins.guard.as_ref().map(|g| (cx.reg(g.pred), g.negated));
    let opcode = ins.opcode();
    let mods: Vec<&str> = ins.modifiers().collect();
    let ops = &ins.operands;
    let mark_pointer = |src: &Src, pointer_params: &mut [bool], param_regs: &HashMap<u32, u16>| {
        if let Src::Reg(r, _) = src {
            if let Some(&p) = param_regs.get(r) {
                if let Some(slot) = pointer_params.get_mut(p as usize) {
                    *slot = true;
                }
            }
        }
    };
    if let Some(kind) = mem::lower(cx, opcode, &mods, ops) {
        if let OpKind::Mem { info, .. } = &kind {
            mark_pointer(&info.addr, pointer_params, param_regs);
        }
        return Op {
            guard,
            kind,
            form: Form::Instruction,
        };
    }
    let kind = match opcode {
        "bra" => {
            let target = ops
                .first()
                .and_then(|o| symbol_name(&o.kind))
                .and_then(|n| cx.cursor.resolve(n))
                .filter(|t| cx.is_label(*t))
                .map(|t| OpId(cx.base + t.0));
            OpKind::Branch {
                target,
                indexed: Vec::new(),
                uniform: mods.contains(&"uni"),
            }
        }
        // `brx.idx`: the table's labels are filled in once the whole body is
        // read (a table may follow its use).
        "brx" if mods.contains(&"idx") => {
            let table = ops
                .iter()
                .rev()
                .find_map(|o| symbol_name(&o.kind))
                .and_then(|n| cx.cursor.resolve(n))
                .filter(|t| {
                    matches!(
                        cx.body.get(t.index()).map(|s| &s.kind),
                        Some(StmtKind::BranchTargets { .. })
                    )
                });
            cx.tables.push((at, table));
            OpKind::Branch {
                target: None,
                indexed: Vec::new(),
                uniform: mods.contains(&"uni"),
            }
        }
        "brx" => OpKind::Nop,
        // `ret` of an inlined body goes to its return moves.
        "ret" if cx.ret_to.is_some() => OpKind::Branch {
            target: cx.ret_to,
            indexed: Vec::new(),
            uniform: mods.contains(&"uni"),
        },
        "ret" | "exit" | "trap" => OpKind::Exit,
        "call" => calls::call_op(cx, at, ops),
        "ld" | "st"
            if mem_space(&mods) == Space::Param
                && ops
                    .get(if opcode == "st" { 0 } else { 1 })
                    .is_some_and(|o| cx.slot_ref(o).is_some()) =>
        {
            calls::slot_move(cx, param_regs, opcode == "st", &mods, ops)
        }
        "ld" | "ldu" | "st" | "atom" | "red" if !ops.is_empty() => {
            let space = mem_space(&mods);
            let is_store = opcode == "st" || opcode == "red";
            let addr_idx = if is_store { 0 } else { 1 };
            let addr = ops.get(addr_idx).map(|o| cx.src(o)).unwrap_or(Src::Unknown);
            let dsts = if is_store {
                Vec::new()
            } else {
                ops.first().map(|o| cx.dsts(o)).unwrap_or_default()
            };
            if space == Space::Param && opcode == "ld" {
                let param = match addr {
                    Src::Param(p, o) => Some((p, o)),
                    Src::Reg(r, o) => cx.param_addrs.get(&r).map(|&p| (p, o)),
                    _ => None,
                };
                if let (Some((p, 0)), [d]) = (param, dsts.as_slice()) {
                    param_regs.insert(*d, p);
                }
                let elem_bytes = u8::try_from(elem_bits(&mods) / 8).unwrap_or(0);
                OpKind::LdParam {
                    dsts,
                    param,
                    elem_bytes,
                }
            } else {
                mark_pointer(&addr, pointer_params, param_regs);
                let (op, kind) = match opcode {
                    "ld" | "ldu" => (AccessOp::Load, MemKind::Plain),
                    "st" => (AccessOp::Store, MemKind::Plain),
                    "atom" => (AccessOp::Atomic, MemKind::Atomic),
                    _ => (AccessOp::Atomic, MemKind::Reduction),
                };
                let (elem_bits, vector) = (elem_bits(&mods), vector_width(&mods));
                let atomic_op = (kind != MemKind::Plain)
                    .then(|| mods.iter().find_map(|m| crate::ir::atomic_op_name(m)))
                    .flatten();
                let mut info = MemOp {
                    cache: CacheHints::from_modifiers(mods.iter().copied()),
                    elem_type: mods.iter().rev().find_map(|m| type_name(m)),
                    elem_signed: elem_ty(&mods).is_some_and(|t| t.signed && !t.float),
                    elem_float: elem_ty(&mods).is_some_and(|t| t.float),
                    ..MemOp::plain(op, kind, space, (elem_bits, vector), addr, is_store)
                };
                if is_store && kind == MemKind::Plain && space == Space::Local {
                    // The values stored to local memory (forwarded to its
                    // loads: `Aux::Stored`).
                    if let Some(o) = ops.get(1) {
                        let vals: Vec<Src> = match &o.kind {
                            OperandKind::Vector(v) => v.iter().map(|e| cx.src(e)).collect(),
                            _ => vec![cx.src(o)],
                        };
                        if vals.len() == vector as usize {
                            info.ext_mut()
                                .aux
                                .extend(vals.into_iter().map(|v| (crate::ir::Aux::Stored, v)));
                        }
                    }
                }
                if atomic_op.is_some() {
                    info.ext_mut().atomic_op = atomic_op;
                    // The value operand: `atom d, [a], b`, `red [a], b`.
                    let value = ops.get(addr_idx + 1).map(|o| cx.src(o));
                    if atomic_op == Some("add")
                        && elem_bits == 32
                        && !info.elem_float
                        && vector == 1
                        && value == Some(Src::Imm(1))
                    {
                        info.ext_mut().adds_one = true;
                    }
                }
                OpKind::Mem { info, dsts }
            }
        }
        "mov"
            if ops
                .iter()
                .take(2)
                .any(|o| matches!(o.kind, OperandKind::Vector(_))) =>
        {
            lower_pack(cx, &mods, ops)
        }
        _ => {
            // Barriers, fences, prefetches…: every operand is read (`bar.arrive
            // %r159, 160` names its barrier by a register it does not write).
            let writes = crate::isa::writes_first_operand(ins.mnemonic);
            let mut dst_ops = if writes {
                ops.first().map(|o| cx.dsts(o)).unwrap_or_default()
            } else {
                Vec::new()
            };
            // `elect.sync _|p, m`: the lane number's sink keeps its place, so
            // that the predicate stays the second destination.
            if opcode == "elect" {
                if let Some(OperandKind::PredPair(pair)) = ops.first().map(|o| &o.kind) {
                    if matches!(pair[0].kind, OperandKind::Sink) {
                        dst_ops.insert(0, cx.reg("_"));
                    }
                }
            }
            let srcs: Vec<Src> = ops
                .iter()
                .skip(usize::from(writes))
                .map(|o| cx.src(o))
                .collect();
            if opcode == "cvta" && mods.contains(&"to") {
                if let Some(s) = srcs.first() {
                    mark_pointer(s, pointer_params, param_regs);
                }
            }
            let is_pred = mods.contains(&"pred");
            if is_pred && matches!(opcode, "and" | "or" | "xor" | "not" | "mov") {
                match dst_ops.first() {
                    Some(&dst) => {
                        let op = match opcode {
                            "and" => "and",
                            "or" => "or",
                            "xor" => "xor",
                            "not" => "not",
                            _ => "mov",
                        };
                        OpKind::PredLogic { op, dst, srcs }
                    }
                    None => OpKind::Nop,
                }
            } else {
                match (decode(opcode, &mods), dst_ops.as_slice()) {
                    (Some(alu), [dst, rest @ ..]) => {
                        // `setp` writes `p|q`: the parser gives a PredPair.
                        let dst2 = rest.first().copied();
                        // A floating-point immediate is its bit pattern, as a
                        // register of the instruction's width holds it (PTX
                        // ISA, "Floating-Point Constants"): `setp.eq.f32 %p,
                        // %f, 0f00000000`, and `mov.b32 %r, 0f3F800000`, as
                        // Triton writes its float constants. A conversion's
                        // source has its own type; other widths stay unknown.
                        let src_ty = match alu.op {
                            crate::ir::alu::AluOp::Float(
                                crate::ir::alu::FloatOp::Cvt { src, .. },
                                _,
                            ) => src,
                            _ => alu.ty,
                        };
                        let mut srcs = srcs;
                        for (s, o) in srcs.iter_mut().zip(ops.iter().skip(1)) {
                            if let OperandKind::Float(v) = &o.kind {
                                let v = *v;
                                *s = match src_ty.bits {
                                    32 => Src::Imm(i64::from((v as f32).to_bits())),
                                    64 => Src::Imm(v.to_bits() as i64),
                                    _ => Src::Unknown,
                                };
                            }
                        }
                        // `selp`/`slct`: move the predicate/condition last (already last).
                        OpKind::Alu {
                            alu,
                            dst: *dst,
                            dst2,
                            srcs,
                        }
                    }
                    (_, []) => OpKind::Nop,
                    _ => OpKind::Other {
                        dsts: dst_ops,
                        srcs,
                        block_wide: crate::isa::is_barrier_reduction(ins.mnemonic),
                    },
                }
            }
        }
    };
    Op {
        guard,
        kind,
        form: Form::Instruction,
    }
}

/// Marks the float `add`/`sub` without a rounding modifier one of whose
/// register operands is written anywhere in the function by a `mul`
/// without one, possibly through `mov` and `neg`
/// ([`crate::ir::alu::FMode::fusable`]): the PTX ISA lets the
/// code generator fuse such a pair into an `fma`, whose result differs from
/// the two rounded steps, so the analysis does not evaluate it.
fn mark_fusable(ops: &mut [Op]) {
    use crate::ir::alu::{AluOp, FloatOp};
    let unmarked_mul = |op: &Op| match &op.kind {
        OpKind::Alu { alu, dst, .. } => match alu.op {
            AluOp::Float(FloatOp::Mul, m) if m.unmarked => Some(*dst),
            _ => None,
        },
        _ => None,
    };
    let mut products: HashMap<u32, ()> = ops
        .iter()
        .filter_map(unmarked_mul)
        .map(|r| (r, ()))
        .collect();
    if products.is_empty() {
        return;
    }
    // A product moved or negated on its way to the `add` may still be
    // fused (ptxas folds moves and negations into the `fma`'s operands):
    // follow `mov` and float `neg` from the products (a worklist, linear).
    let mut copies: HashMap<u32, Vec<u32>> = HashMap::default();
    for op in ops.iter() {
        if let OpKind::Alu { alu, dst, srcs, .. } = &op.kind {
            if matches!(alu.op, AluOp::Mov | AluOp::Float(FloatOp::Neg, _)) {
                if let Some(Src::Reg(r, _)) = srcs.first() {
                    copies.entry(*r).or_default().push(*dst);
                }
            }
        }
    }
    let mut work: Vec<u32> = products.keys().copied().collect();
    while let Some(r) = work.pop() {
        for &d in copies.get(&r).map(Vec::as_slice).unwrap_or(&[]) {
            if products.insert(d, ()).is_none() {
                work.push(d);
            }
        }
    }
    for op in ops.iter_mut() {
        if let OpKind::Alu { alu, srcs, .. } = &mut op.kind {
            if let AluOp::Float(FloatOp::Add | FloatOp::Sub, m) = &mut alu.op {
                let from_mul = srcs.iter().enumerate().fold(0u8, |bits, (i, s)| match s {
                    Src::Reg(r, _) if i < 8 && products.contains_key(r) => bits | 1 << i,
                    _ => bits,
                });
                if m.unmarked && from_mul != 0 {
                    m.fusable = true;
                    m.fused_operands = from_mul;
                }
            }
        }
    }
}

/// The element type of a memory instruction (its last type modifier).
fn elem_ty(mods: &[&str]) -> Option<Ty> {
    mods.iter().rev().find_map(|m| Ty::parse(m))
}

/// `mov.bN d, {p0, p1, …}` (packing) and `mov.bN {d0, d1}, s` (unpacking
/// into two halves); other unpackings write unknown values.
fn lower_pack<'src>(cx: &mut Ctx<'_, 'src>, mods: &[&str], ops: &[Operand<'src>]) -> OpKind {
    let ty = mods
        .iter()
        .find_map(|m| crate::analysis::transfer::Ty::parse(m))
        .unwrap_or(crate::analysis::transfer::Ty {
            bits: 64,
            signed: false,
            float: false,
        });
    let parts = |o: &Operand<'src>| match &o.kind {
        OperandKind::Vector(v) => Some(v.len()),
        _ => None,
    };
    let (Some(d), Some(s)) = (ops.first(), ops.get(1)) else {
        return OpKind::Nop;
    };
    match (parts(d), parts(s)) {
        (None, Some(n)) if n > 0 && (ty.bits as usize).is_multiple_of(n) => {
            let dsts = cx.dsts(d);
            let srcs: Vec<Src> = match &s.kind {
                OperandKind::Vector(v) => v.iter().map(|o| cx.src(o)).collect(),
                _ => Vec::new(),
            };
            match dsts.as_slice() {
                [dst] => OpKind::Alu {
                    alu: crate::analysis::transfer::Alu {
                        op: crate::analysis::transfer::AluOp::Pack((ty.bits as usize / n) as u8),
                        ty,
                    },
                    dst: *dst,
                    dst2: None,
                    srcs,
                },
                _ => OpKind::other(dsts, srcs),
            }
        }
        (Some(2), None) => {
            // Every position gets a register (`_` sinks included) so that
            // the halves keep their order.
            let regs: Vec<u32> = match &d.kind {
                OperandKind::Vector(v) => v
                    .iter()
                    .map(|o| match &o.kind {
                        OperandKind::Reg {
                            name,
                            component: None,
                        } if !name.is_empty() => cx.reg(name),
                        _ => cx.reg("_"),
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let src = cx.src(s);
            OpKind::Alu {
                alu: crate::analysis::transfer::Alu {
                    op: crate::analysis::transfer::AluOp::Unpack(0, (ty.bits / 2) as u8),
                    ty,
                },
                dst: regs[0],
                dst2: Some(regs[1]),
                srcs: vec![src],
            }
        }
        _ => {
            let dsts = cx.dsts(d);
            let srcs = vec![cx.src(s)];
            OpKind::other(dsts, srcs)
        }
    }
}
