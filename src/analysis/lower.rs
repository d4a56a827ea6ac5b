//! Lowering: a kernel body as a flat list of the operations the analysis
//! understands, with registers interned to small integers.
//!
//! Every statement of the body gets an [`Op`] (labels, declarations and `.loc`
//! become [`OpKind::Nop`]), so a `StmtId` indexes the list directly. What the
//! analysis does not model is kept as [`OpKind::Other`] with its destination
//! registers, which then receive "unknown" values: an unknown opcode never
//! stops the analysis. Memory instructions are classified here
//! ([`MemInfo`]): operation, declared state space, bits per lane, and the
//! address operand.

use super::domain::FastMap as HashMap;
use super::model::{AccessKind, AccessOp, BulkFacts, InstrFacts, MatrixFacts, Space};
use super::transfer::{decode, Alu};
use crate::syntax::ast::{
    Body, Function, Instruction, Operand, OperandKind, StateSpace, StmtId, StmtKind,
};

/// A special register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// `%tid.d`
    Tid(u8),
    /// `%ntid.d`
    Ntid(u8),
    /// `%ctaid.d`
    Ctaid(u8),
    /// `%nctaid.d`
    Nctaid(u8),
    /// `%laneid`
    LaneId,
    /// `%lanemask_lt` etc. (`lt`, `le`, `eq`, `ge`, `gt` as 0..5)
    LaneMask(u8),
    /// Anything else (`%clock`, `%smid`, `%warpid`, …): uniform per warp but unknown.
    OtherUniform,
    /// Unknown, possibly lane-varying.
    Other,
}

/// A source operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Src {
    /// A register (+ constant offset).
    Reg(u32, i64),
    /// An integer immediate.
    Imm(i64),
    /// A special register.
    Special(Special),
    /// The address of a variable (+ offset).
    Var(u32, i64),
    /// A kernel parameter's address (+ offset): only meaningful for `ld.param`.
    Param(u16, i64),
    /// `!%p` (a negated predicate register).
    NotPred(u32),
    /// Something else (float immediates, `_`, unresolved names).
    Unknown,
}

/// A memory instruction's facts.
#[derive(Clone, Debug, PartialEq)]
pub struct MemInfo {
    /// Load, store, atomic.
    pub op: AccessOp,
    /// Declared space (`Generic` without a space modifier).
    pub space: Space,
    /// Bits per lane (element bits × vector width).
    pub bits: u32,
    /// The address.
    pub addr: Src,
    /// `true` for `red` (no result) and `st`.
    pub no_result: bool,
    /// For loads and atomics: some instruction reads the result register.
    pub result_used: bool,
    /// Plain, atomic, async copy, matrix load, … (see `mem`).
    pub kind: AccessKind,
    /// Further operands the analysis evaluates beside the address.
    pub aux: Vec<(Aux, Src)>,
    /// `ldmatrix`/`stmatrix`: the matrices and their row addressing.
    pub matrix: Option<MatrixFacts>,
    /// Bulk and tensor copies.
    pub bulk: Option<BulkFacts>,
    /// Operand facts for the lints.
    pub facts: InstrFacts,
    /// A `multimem` access (to every GPU of a multicast group).
    pub multimem: bool,
}

impl MemInfo {
    /// A plain per-lane access.
    pub fn plain(op: AccessOp, space: Space, bits: u32, addr: Src, no_result: bool) -> MemInfo {
        MemInfo {
            op,
            space,
            bits,
            addr,
            no_result,
            result_used: true,
            kind: AccessKind::Plain,
            aux: Vec::new(),
            matrix: None,
            bulk: None,
            facts: InstrFacts::default(),
            multimem: false,
        }
    }
    /// The operand of role `a`, if the instruction has one.
    pub fn aux(&self, a: Aux) -> Option<&Src> {
        self.aux.iter().find(|(r, _)| *r == a).map(|(_, s)| s)
    }
}

/// The role of a further operand of a memory instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aux {
    /// `cp.async`: the shared-memory destination address.
    SharedDst,
    /// `cp.async`: `src-size` (bytes read from global; the rest is zero-filled).
    SrcSize,
    /// `cp.async`: the `ignore-src` predicate (true: read nothing, zero-fill).
    IgnoreSrc,
    /// Bulk copy: the second address (destination when the access's address
    /// is the source, or the reverse; see `mem`).
    OtherAddr,
    /// Bulk copy: `size` in bytes.
    Size,
    /// Bulk copy / `expect_tx`: the mbarrier address.
    Mbarrier,
    /// `wgmma`: the descriptor of matrix A (when A is in shared memory).
    DescA,
    /// `wgmma`: the descriptor of matrix B.
    DescB,
}

/// An `mbarrier` transaction-count operation (`expect_tx`, or an `arrive`
/// with `expect_tx`).
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectTx {
    /// The statement.
    pub stmt: StmtId,
    /// The mbarrier's address.
    pub mbarrier: Src,
    /// The transaction count in bytes.
    pub bytes: Src,
}

/// What one statement does.
#[derive(Clone, Debug, PartialEq)]
pub enum OpKind {
    /// Labels, declarations, `.loc`, `bar.sync`, …
    Nop,
    /// Integer arithmetic (and `setp`): `dst = alu(srcs)`; a second
    /// destination for `setp`'s `|q` (the negation).
    Alu {
        /// The operation.
        alu: Alu,
        /// Destination.
        dst: u32,
        /// Second destination (`setp p|q`).
        dst2: Option<u32>,
        /// Sources.
        srcs: Vec<Src>,
    },
    /// `and/or/xor/not/mov` on predicates.
    PredLogic {
        /// `and`, `or`, `xor`, `not`, `mov`.
        op: &'static str,
        /// Destination.
        dst: u32,
        /// Sources.
        srcs: Vec<Src>,
    },
    /// `ld.param` of a kernel parameter.
    LdParam {
        /// Destination(s).
        dsts: Vec<u32>,
        /// Parameter index, offset.
        param: Option<(u16, i64)>,
    },
    /// A memory access (not `ld.param`).
    Mem {
        /// Facts.
        info: Box<MemInfo>,
        /// Registers written (load results).
        dsts: Vec<u32>,
    },
    /// `bra` to a statement.
    Branch {
        /// The target label's statement, when resolved.
        target: Option<StmtId>,
        /// `bra.uni`.
        uniform: bool,
    },
    /// `ret`, `exit`, `trap`.
    Exit,
    /// `call`.
    Call {
        /// Registers the call writes.
        dsts: Vec<u32>,
    },
    /// Anything else that writes registers.
    Other {
        /// Destinations.
        dsts: Vec<u32>,
        /// Sources (to propagate data dependence and uniformity).
        srcs: Vec<Src>,
    },
}

/// One lowered statement.
#[derive(Clone, Debug, PartialEq)]
pub struct Op {
    /// Guard: predicate register and negation.
    pub guard: Option<(u32, bool)>,
    /// What it does.
    pub kind: OpKind,
}

/// A lowered kernel body.
#[derive(Clone, Debug, Default)]
pub struct Lowered<'src> {
    /// One op per statement.
    pub ops: Vec<Op>,
    /// Register names by index.
    pub regs: Vec<&'src str>,
    /// Variables by index: name, space, alignment.
    pub vars: Vec<(&'src str, Space, u32)>,
    /// Parameters that are used as pointers.
    pub pointer_params: Vec<bool>,
    /// `mbarrier` `expect_tx` operations, in order.
    pub expect_tx: Vec<ExpectTx>,
    /// Registers with exactly one definition, which is a constant (`mov`
    /// of an immediate): the constant.
    pub consts: HashMap<u32, i64>,
    /// `mov.b64 %rd, {%lo, %hi}` (and `.b32` of two halves): destination
    /// register, halves, bits of one half. Only for registers with exactly
    /// one definition.
    pub packs: HashMap<u32, (Src, Src, u32)>,
    /// For each register with exactly one definition: its statement.
    pub single_def: HashMap<u32, StmtId>,
}

struct Ctx<'a, 'src> {
    scopes: &'a crate::sema::Scopes<'src>,
    cur: StmtId,
    regs: HashMap<&'src str, u32>,
    names: Vec<&'src str>,
    params: HashMap<&'src str, u16>,
    vars: HashMap<&'src str, u32>,
    var_list: Vec<(&'src str, Space, u32)>,
    labels: HashMap<&'src str, StmtId>,
    /// Names (or `%p<N>` range prefixes) of the `.pred` registers.
    preds: Vec<&'src str>,
    /// Registers declared without `%` (inline-assembly style, `.reg .pred q;`),
    /// which the parser reads as symbols.
    bare_regs: HashMap<&'src str, ()>,
    _f: std::marker::PhantomData<&'a ()>,
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

fn special(name: &str, comp: Option<&str>) -> Option<Special> {
    let d = match comp {
        Some("x") => 0,
        Some("y") => 1,
        Some("z") => 2,
        _ => 0,
    };
    Some(match name {
        "%tid" => Special::Tid(d),
        "%ntid" => Special::Ntid(d),
        "%ctaid" => Special::Ctaid(d),
        "%nctaid" => Special::Nctaid(d),
        "%laneid" => Special::LaneId,
        "%lanemask_lt" => Special::LaneMask(0),
        "%lanemask_le" => Special::LaneMask(1),
        "%lanemask_eq" => Special::LaneMask(2),
        "%lanemask_ge" => Special::LaneMask(3),
        "%lanemask_gt" => Special::LaneMask(4),
        "%warpid"
        | "%nwarpid"
        | "%smid"
        | "%nsmid"
        | "%gridid"
        | "%clock"
        | "%clock64"
        | "%globaltimer"
        | "%globaltimer_lo"
        | "%globaltimer_hi"
        | "%clusterid"
        | "%nclusterid"
        | "%cluster_ctaid"
        | "%cluster_nctaid"
        | "%cluster_ctarank"
        | "%cluster_nctarank"
        | "%is_explicit_cluster"
        | "%dynamic_smem_size"
        | "%total_smem_size"
        | "%aggr_smem_size" => Special::OtherUniform,
        n if n.starts_with("%envreg") || n.starts_with("%pm") => Special::OtherUniform,
        _ => return None,
    })
}

impl<'a, 'src> Ctx<'a, 'src> {
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
                if let Some(s) = special(name.text, component.map(|c| c.text)) {
                    return Src::Special(s);
                }
                if name.text.starts_with("%envreg") {
                    return Src::Special(Special::OtherUniform);
                }
                Src::Reg(self.reg(name.text), 0)
            }
            OperandKind::Int(v) => Src::Imm(*v),
            OperandKind::Symbol(id) => self.symbol(id.text, 0),
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

    fn dsts(&mut self, op: &Operand<'src>) -> Vec<u32> {
        match &op.kind {
            OperandKind::Reg {
                name,
                component: None,
            } if !name.text.is_empty() => vec![self.reg(name.text)],
            OperandKind::Symbol(id) if self.bare_regs.contains_key(id.text) => {
                vec![self.reg(id.text)]
            }
            OperandKind::Vector(v) | OperandKind::List(v) => {
                v.iter().flat_map(|o| self.dsts(o)).collect()
            }
            OperandKind::PredPair(a, b) => {
                let mut v = self.dsts(a);
                v.extend(self.dsts(b));
                v
            }
            _ => Vec::new(),
        }
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

    fn var_decl(&mut self, d: &crate::syntax::ast::VarDecl<'src>) {
        if d.space == StateSpace::Reg && d.ty.is_some_and(|t| t.text == "pred") {
            for decl in &d.declarators {
                self.preds.push(decl.name.text);
            }
        }
        if d.space == StateSpace::Reg {
            for decl in d
                .declarators
                .iter()
                .filter(|x| !x.name.text.starts_with('%'))
            {
                self.bare_regs.insert(decl.name.text, ());
            }
        }
        let space = space_of(d.space);
        if matches!(
            d.space,
            StateSpace::Reg | StateSpace::Sreg | StateSpace::Param
        ) {
            return;
        }
        let elem =
            d.ty.and_then(|t| super::transfer::Ty::parse(t.text))
                .map(|t| t.bits / 8)
                .unwrap_or(1);
        let align = d.align.unwrap_or(elem.max(1) * d.vector.max(1));
        for decl in &d.declarators {
            let i = self.var_list.len() as u32;
            self.var_list.push((decl.name.text, space, align));
            self.vars.insert(decl.name.text, i);
        }
    }
}

mod mem;

fn collect_reads<'src>(o: &Operand<'src>, out: &mut HashMap<&'src str, ()>) {
    match &o.kind {
        OperandKind::Reg { name, .. } => {
            out.insert(name.text, ());
        }
        OperandKind::Address { base: Some(b), .. } => collect_reads(b, out),
        OperandKind::Offset { base, .. } | OperandKind::Not(base) => collect_reads(base, out),
        OperandKind::AddressList(v) | OperandKind::Vector(v) | OperandKind::List(v) => {
            v.iter().for_each(|x| collect_reads(x, out))
        }
        OperandKind::PredPair(a, b) => {
            collect_reads(a, out);
            collect_reads(b, out);
        }
        _ => {}
    }
}

/// Bits of one element from the type modifiers (`u8` → 8, `b128` → 128).
fn elem_bits(mods: &[&str]) -> u32 {
    mods.iter()
        .rev()
        .find_map(|m| super::transfer::Ty::parse(m).map(|t| t.bits))
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

/// Lowers a kernel body. `globals` are module-level variables (name, space,
/// alignment), visible unless shadowed.
pub fn lower<'src>(
    func: &Function<'src>,
    body: &Body<'src>,
    globals: &[(&'src str, Space, u32)],
    scopes: &crate::sema::Scopes<'src>,
) -> Lowered<'src> {
    let mut cx = Ctx {
        scopes,
        cur: StmtId(0),
        regs: HashMap::default(),
        names: Vec::new(),
        params: HashMap::default(),
        vars: HashMap::default(),
        var_list: Vec::new(),
        labels: HashMap::default(),
        preds: Vec::new(),
        bare_regs: HashMap::default(),
        _f: std::marker::PhantomData,
    };
    for (i, p) in func.params.iter().enumerate() {
        for d in &p.declarators {
            cx.params
                .insert(d.name.text, i.min(u16::MAX as usize) as u16);
        }
    }
    for &(n, s, a) in globals {
        let i = cx.var_list.len() as u32;
        cx.var_list.push((n, s, a));
        cx.vars.insert(n, i);
    }
    for (id, st) in body.iter() {
        match &st.kind {
            StmtKind::Label(l) => {
                cx.labels.entry(l.text).or_insert(id);
            }
            StmtKind::Var(d) => cx.var_decl(d),
            _ => {}
        }
    }
    let mut pointer_params = vec![false; func.params.len()];
    for p in func.params.iter().enumerate() {
        if p.1.ptr.is_some() {
            pointer_params[p.0] = true;
        }
    }
    let mut param_regs: HashMap<u32, u16> = HashMap::default();
    let mut ops = Vec::with_capacity(body.statements.len());
    let mut read: HashMap<&'src str, ()> = HashMap::default();
    let mut label_region = 0u32;
    let mut seen_guard = false;
    let mut expect_tx = Vec::new();
    let mut packs: HashMap<u32, (Src, Src, u32)> = HashMap::default();
    for (sid, st) in body.iter() {
        cx.cur = sid;
        if let StmtKind::Label(_) = &st.kind {
            label_region += 1;
        }
        let op = match &st.kind {
            StmtKind::Instruction(ins) => {
                let mods: Vec<&str> = ins.modifiers().collect();
                if let Some(tx) = mem::expect_tx(&mut cx, ins, &mods) {
                    expect_tx.push(tx);
                }
                if let Some((dst, pack)) = mem::pack(&mut cx, ins, &mods) {
                    packs.insert(dst, pack);
                }
                let writes_first = !matches!(
                    ins.opcode(),
                    "st" | "red"
                        | "bra"
                        | "brx"
                        | "ret"
                        | "exit"
                        | "bar"
                        | "barrier"
                        | "cp"
                        | "stmatrix"
                );
                for (k, o) in ins.operands.iter().enumerate() {
                    if k > 0 || !writes_first {
                        collect_reads(o, &mut read);
                    }
                }
                if let Some(g) = &ins.guard {
                    read.insert(g.pred.text, ());
                }
                let mut op = lower_instr(&mut cx, ins, &mut param_regs, &mut pointer_params);
                if let OpKind::Mem { info, .. } = &mut op.kind {
                    info.facts = InstrFacts {
                        vector: vector_width(&mods),
                        element_bits: elem_bits(&mods),
                        element_type: mods
                            .iter()
                            .rev()
                            .find(|m| super::transfer::Ty::parse(m).is_some())
                            .map(|m| m.to_string()),
                        address: match &info.addr {
                            Src::Reg(r, o) => {
                                cx.names.get(*r as usize).map(|n| (n.to_string(), *o))
                            }
                            Src::Var(v, o) => {
                                cx.var_list.get(*v as usize).map(|n| (n.0.to_string(), *o))
                            }
                            _ => None,
                        },
                        guard: ins.guard.map(|g| (g.pred.text.to_string(), g.negated)),
                        after_guard: seen_guard,
                        label_region,
                    };
                }
                seen_guard |= ins.guard.is_some();
                op
            }
            _ => Op {
                guard: None,
                kind: OpKind::Nop,
            },
        };
        ops.push(op);
    }
    for op in &mut ops {
        if let OpKind::Mem { info, dsts } = &mut op.kind {
            if !info.no_result {
                info.result_used = dsts.iter().any(|d| {
                    cx.names
                        .get(*d as usize)
                        .is_some_and(|n| read.contains_key(n))
                });
            }
        }
    }
    // Registers defined once: their statement, and their value when it is a constant.
    let mut ndefs: HashMap<u32, (u32, StmtId)> = HashMap::default();
    for (i, op) in ops.iter().enumerate() {
        for d in op.kind.dsts() {
            let e = ndefs.entry(d).or_insert((0, StmtId(i as u32)));
            e.0 += 1;
        }
    }
    let single_def: HashMap<u32, StmtId> = ndefs
        .iter()
        .filter(|(_, (n, _))| *n == 1)
        .map(|(r, (_, s))| (*r, *s))
        .collect();
    let mut consts = HashMap::default();
    for (r, s) in &single_def {
        if let Some(Op {
            guard: None,
            kind: OpKind::Alu { alu, srcs, .. },
        }) = ops.get(s.0 as usize)
        {
            if let (super::transfer::AluOp::Mov, [Src::Imm(v)]) = (alu.op, srcs.as_slice()) {
                consts.insert(*r, *v);
            }
        }
    }
    packs.retain(|r, _| single_def.contains_key(r));
    Lowered {
        ops,
        regs: cx.names,
        vars: cx.var_list,
        pointer_params,
        expect_tx,
        consts,
        packs,
        single_def,
    }
}

impl OpKind {
    /// The registers this operation writes.
    pub fn dsts(&self) -> Vec<u32> {
        match self {
            OpKind::Alu { dst, dst2, .. } => std::iter::once(*dst).chain(*dst2).collect(),
            OpKind::PredLogic { dst, .. } => vec![*dst],
            OpKind::LdParam { dsts, .. }
            | OpKind::Mem { dsts, .. }
            | OpKind::Call { dsts }
            | OpKind::Other { dsts, .. } => dsts.clone(),
            OpKind::Nop | OpKind::Branch { .. } | OpKind::Exit => Vec::new(),
        }
    }
}

fn lower_instr<'src>(
    cx: &mut Ctx<'_, 'src>,
    ins: &Instruction<'src>,
    param_regs: &mut HashMap<u32, u16>,
    pointer_params: &mut [bool],
) -> Op {
    let guard = ins.guard.map(|g| (cx.reg(g.pred.text), g.negated));
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
    if let Some(kind) = mem::lower(cx, opcode, &mods, ops, &guard) {
        if let OpKind::Mem { info, .. } = &kind {
            mark_pointer(&info.addr, pointer_params, param_regs);
        }
        return Op { guard, kind };
    }
    let kind = match opcode {
        "bra" | "brx" => {
            let target = ops.first().and_then(|o| match &o.kind {
                OperandKind::Symbol(id) => cx
                    .scopes
                    .resolve_label(cx.cur, id.text)
                    .or_else(|| cx.labels.get(id.text).copied()),
                _ => None,
            });
            OpKind::Branch {
                target: if opcode == "brx" { None } else { target },
                uniform: mods.contains(&"uni"),
            }
        }
        "ret" | "exit" | "trap" => OpKind::Exit,
        "call" => {
            let dsts = ops.first().map(|o| match &o.kind {
                OperandKind::List(_) => cx.dsts(o),
                _ => Vec::new(),
            });
            OpKind::Call {
                dsts: dsts.unwrap_or_default(),
            }
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
                    _ => None,
                };
                if let (Some((p, 0)), [d]) = (param, dsts.as_slice()) {
                    param_regs.insert(*d, p);
                }
                OpKind::LdParam { dsts, param }
            } else {
                mark_pointer(&addr, pointer_params, param_regs);
                let op = match opcode {
                    "ld" | "ldu" => AccessOp::Load,
                    "st" => AccessOp::Store,
                    _ => AccessOp::Atomic,
                };
                let bits = elem_bits(&mods) * vector_width(&mods);
                let mut info = MemInfo::plain(op, space, bits, addr, is_store);
                info.kind = match opcode {
                    "atom" => AccessKind::Atomic,
                    "red" => AccessKind::Reduction,
                    _ => AccessKind::Plain,
                };
                OpKind::Mem {
                    info: Box::new(info),
                    dsts,
                }
            }
        }
        _ => {
            let dst_ops = ops.first().map(|o| cx.dsts(o)).unwrap_or_default();
            let srcs: Vec<Src> = ops.iter().skip(1).map(|o| cx.src(o)).collect();
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
                    },
                }
            }
        }
    };
    Op { guard, kind }
}
