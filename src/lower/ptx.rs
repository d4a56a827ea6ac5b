//! Lowering PTX (syntax tree + semantic tables) to the warp IR
//! ([`crate::ir`]): the end of the PTX front end.
//!
//! Every statement of the body gets an [`Op`] (labels, declarations and `.loc`
//! become [`OpKind::Nop`], with a [`Form`] saying what they were), so a
//! `StmtId` indexes the list directly (`OpId(stmt.0)`). What the analysis does
//! not model is kept as [`OpKind::Other`] with its destination registers,
//! which then receive "unknown" values: an unknown opcode never stops the
//! analysis. Memory instructions are classified here ([`MemOp`]): direction,
//! kind, declared state space, element bits and vector count, cache
//! qualifiers and the address operand.
//!
//! Labels are resolved through the body's `{ }` scopes, with the same
//! [`LabelCursor`] walk for `bra` targets and `.branchtargets` tables, so the
//! CFG ([`crate::cfg`]) and the launch simulation see the same targets.
//!
//! `.loc` lines form inline chains: `.loc 3 92 13, … inlined_at 3 118 13`
//! is inlined into the most recent location at file 3, line 118, column 13,
//! itself possibly inlined elsewhere (nvcc writes the chain one `.loc` per
//! level, outermost first). [`Loc::inlined_at`] keeps the whole chain.

use super::module::{dims, symbol_name, variables, LocChains};
pub use super::module::{module_files, module_globals};
use crate::ir::alu::{decode, Ty};
use crate::ir::{
    AccessOp, CacheHints, Form, Function as IrFunction, FunctionKind as IrKind, LaunchDirectives,
    LocId, MemKind, MemOp, Op, OpId, OpKind, Param, Space, Src, Variable,
};
use crate::sema::{LabelCursor, Scopes};
use crate::syntax::ast::{
    Function, FunctionKind, Instruction, Operand, OperandKind, StateSpace, StmtId, StmtKind,
};
use crate::util::FastMap as HashMap;

struct Ctx<'a, 'src> {
    cursor: LabelCursor<'a, 'src>,
    body: &'a [crate::syntax::ast::Statement<'src>],
    regs: HashMap<&'src str, u32>,
    names: Vec<&'src str>,
    params: HashMap<&'src str, u16>,
    vars: HashMap<&'src str, u32>,
    var_list: Vec<Variable<'src>>,
    /// `brx.idx` ops and the table statement they name.
    tables: Vec<(usize, Option<StmtId>)>,
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
                if let Some(s) = crate::isa::special_value(name.text, component.map(|c| c.text)) {
                    return Src::Special(s);
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
        for v in variables(d, space) {
            let i = self.var_list.len() as u32;
            self.vars.insert(v.name, i);
            self.var_list.push(v);
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

/// Lowers a function (a declaration without body gets no ops). `globals` are
/// the module's variables ([`module_globals`]), visible unless shadowed;
/// `files` its `.file` table ([`module_files`]); `scopes` the body's label
/// scopes (from semantic analysis, or [`Scopes::build`]).
pub fn lower<'src>(
    func: &Function<'src>,
    globals: &[Variable<'src>],
    files: &[(u32, &'src str)],
    scopes: &Scopes<'src>,
) -> IrFunction<'src> {
    let statements: &[crate::syntax::ast::Statement<'src>] = match &func.body {
        Some(b) => &b.statements,
        None => &[],
    };
    let mut cx = Ctx {
        cursor: LabelCursor::new(scopes),
        body: statements,
        regs: HashMap::default(),
        names: Vec::new(),
        params: HashMap::default(),
        vars: HashMap::default(),
        var_list: Vec::new(),
        tables: Vec::new(),
    };
    for (i, p) in func.params.iter().enumerate() {
        for d in &p.declarators {
            cx.params
                .insert(d.name.text, i.min(u16::MAX as usize) as u16);
        }
    }
    for v in globals {
        let i = cx.var_list.len() as u32;
        cx.var_list.push(v.clone());
        cx.vars.insert(v.name, i);
    }
    for st in statements {
        if let StmtKind::Var(d) = &st.kind {
            cx.var_decl(d)
        }
    }
    let mut pointer_params = vec![false; func.params.len()];
    for p in func.params.iter().enumerate() {
        if p.1.ptr.is_some() {
            pointer_params[p.0] = true;
        }
    }
    let n = statements.len();
    let mut param_regs: HashMap<u32, u16> = HashMap::default();
    let mut ops = Vec::with_capacity(n);
    let mut spans = Vec::with_capacity(n);
    let mut mnemonics = Vec::with_capacity(n);
    let mut locs = Vec::with_capacity(n);
    let mut loc_table = LocChains::default();
    let mut cur_loc: Option<LocId> = None;
    let mut labels = Vec::new();
    let mut table_entries: HashMap<u32, Vec<OpId>> = HashMap::default();
    let mut read: HashMap<&'src str, ()> = HashMap::default();
    for (i, st) in statements.iter().enumerate() {
        cx.cursor.step(&st.kind);
        let mut mnemonic = "";
        let op = match &st.kind {
            StmtKind::Instruction(ins) => {
                mnemonic = ins.mnemonic.text;
                let writes_first = crate::isa::writes_first_operand(ins.opcode());
                for (k, o) in ins.operands.iter().enumerate() {
                    if k > 0 || !writes_first {
                        collect_reads(o, &mut read);
                    }
                }
                if let Some(g) = &ins.guard {
                    read.insert(g.pred.text, ());
                }
                lower_instr(&mut cx, i, ins, &mut param_regs, &mut pointer_params)
            }
            other => {
                match other {
                    StmtKind::Label(l) => labels.push((OpId(i as u32), l.text)),
                    StmtKind::BranchTargets { targets, .. } => {
                        let entries = targets
                            .iter()
                            .filter_map(|t| cx.cursor.resolve(t.text))
                            .filter(|t| cx.is_label(*t))
                            .map(|t| OpId(t.0))
                            .collect();
                        table_entries.insert(i as u32, entries);
                    }
                    StmtKind::Loc(l) => cur_loc = Some(loc_table.push(l)),
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
        ops.push(op);
        spans.push(st.span);
        mnemonics.push(mnemonic);
        locs.push(cur_loc);
    }
    for (i, table) in std::mem::take(&mut cx.tables) {
        let entries = table
            .and_then(|t| table_entries.get(&t.0))
            .cloned()
            .unwrap_or_default();
        if let OpKind::Branch { indexed, .. } = &mut ops[i].kind {
            *indexed = entries;
        }
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
    let params = func
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
    IrFunction {
        name: func.name.text,
        demangled: super::demangle(func.name.text),
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
        ops,
        spans,
        locs,
        mnemonics,
        loc_table: loc_table.locs,
        files: files.to_vec(),
        labels,
        regs: cx.names,
        vars: cx.var_list,
        pointer_params,
    }
}

fn lower_instr<'src>(
    cx: &mut Ctx<'_, 'src>,
    at: usize,
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
        "bra" => {
            let target = ops
                .first()
                .and_then(|o| symbol_name(&o.kind))
                .and_then(|n| cx.cursor.resolve(n))
                .filter(|t| cx.is_label(*t))
                .map(|t| OpId(t.0));
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
                let (op, kind) = match opcode {
                    "ld" | "ldu" => (AccessOp::Load, MemKind::Plain),
                    "st" => (AccessOp::Store, MemKind::Plain),
                    "atom" => (AccessOp::Atomic, MemKind::Atomic),
                    _ => (AccessOp::Atomic, MemKind::Reduction),
                };
                let (elem_bits, vector) = (elem_bits(&mods), vector_width(&mods));
                OpKind::Mem {
                    info: MemOp {
                        op,
                        kind,
                        space,
                        elem_bits,
                        vector,
                        bits: elem_bits * vector,
                        addr,
                        cache: CacheHints::from_modifiers(mods.iter().copied()),
                        no_result: is_store,
                        result_used: true,
                    },
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
    Op {
        guard,
        kind,
        form: Form::Instruction,
    }
}
