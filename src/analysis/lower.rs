//! Lowering: a kernel body as a flat list of the operations the analysis
//! understands, with registers interned to small integers.
//!
//! Every statement of the body gets an [`Op`] (labels, declarations and `.loc`
//! become [`OpKind::Nop`]), so a `StmtId` indexes the list directly. What the
//! analysis does not model is kept as [`OpKind::Other`] with its destination
//! registers, which then receive "unknown" values: an unknown opcode never
//! stops the analysis. Memory instructions are classified here
//! ([`MemInfo`]): operation, declared state space, bits per lane, element
//! type, and the address operand. A `mov` with a vector operand packs
//! (`mov.b64 %rd, {%r1, %r2}`) or unpacks into two halves (`mov.b64 {%r1,
//! %r2}, %rd`: the second destination receives the high half).

use super::domain::FastMap as HashMap;
use super::model::{AccessOp, Space};
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
    /// The element type (bounds the loaded values: `ld.u8` gives `[0, 255]`).
    pub elem: Option<super::transfer::Ty>,
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
        info: MemInfo,
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
        Src::Unknown
    }

    fn dsts(&mut self, op: &Operand<'src>) -> Vec<u32> {
        match &op.kind {
            OperandKind::Reg {
                name,
                component: None,
            } if !name.text.is_empty() => vec![self.reg(name.text)],
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

    fn var_decl(&mut self, d: &crate::syntax::ast::VarDecl<'src>) {
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
    for (sid, st) in body.iter() {
        cx.cur = sid;
        let op = match &st.kind {
            StmtKind::Instruction(ins) => {
                let writes_first = !matches!(
                    ins.opcode(),
                    "st" | "red" | "bra" | "brx" | "ret" | "exit" | "bar" | "barrier"
                );
                for (k, o) in ins.operands.iter().enumerate() {
                    if k > 0 || !writes_first {
                        collect_reads(o, &mut read);
                    }
                }
                if let Some(g) = &ins.guard {
                    read.insert(g.pred.text, ());
                }
                lower_instr(&mut cx, ins, &mut param_regs, &mut pointer_params)
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
    Lowered {
        ops,
        regs: cx.names,
        vars: cx.var_list,
        pointer_params,
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
                OpKind::Mem {
                    info: MemInfo {
                        op,
                        space,
                        bits,
                        addr,
                        no_result: is_store,
                        result_used: true,
                        elem: mods
                            .iter()
                            .rev()
                            .find_map(|m| super::transfer::Ty::parse(m)),
                    },
                    dsts,
                }
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

/// `mov.bN d, {p0, p1, …}` (packing) and `mov.bN {d0, d1}, s` (unpacking
/// into two halves); other unpackings write unknown values.
fn lower_pack<'src>(cx: &mut Ctx<'_, 'src>, mods: &[&str], ops: &[Operand<'src>]) -> OpKind {
    let ty = mods
        .iter()
        .find_map(|m| super::transfer::Ty::parse(m))
        .unwrap_or(super::transfer::Ty {
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
                    alu: super::transfer::Alu {
                        op: super::transfer::AluOp::Pack((ty.bits as usize / n) as u8),
                        ty,
                    },
                    dst: *dst,
                    dst2: None,
                    srcs,
                },
                _ => OpKind::Other { dsts, srcs },
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
                        } if !name.text.is_empty() => cx.reg(name.text),
                        _ => cx.reg("_"),
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let src = cx.src(s);
            OpKind::Alu {
                alu: super::transfer::Alu {
                    op: super::transfer::AluOp::Unpack(0, (ty.bits / 2) as u8),
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
            OpKind::Other { dsts, srcs }
        }
    }
}
