//! Calls: `.func` bodies inlined into their callers at lowering.
//!
//! # What a call is in PTX
//!
//! `call{.uni} (r0, …), fname, (a0, …);` passes arguments and results
//! through `.param` space: the caller declares `.param` variables in a
//! `{ }` call sequence, stores the arguments into them (`st.param.b32
//! [param0+0], %r4`), calls, and loads the results (`ld.param.b32 %r5,
//! [retval0+0]`); the callee loads its parameters (`ld.param.u64 %rd1,
//! [f_param_0]`) and stores its results (`st.param.b32 [func_retval0+0],
//! %r3`) before `ret`. A list item may also be a register or an immediate.
//!
//! # The model: `.param` slots are registers
//!
//! Each `.param` name that is local to a body (the call sequence's own
//! declarations, the function's return parameters and, in an inlined body,
//! its parameters) at each byte offset is a *slot*, held in a register of
//! its own ([`Ctx::slot`]): `st.param` to a slot is a `mov` into it,
//! `ld.param` from it a `mov` out of it (a vector access an opaque op over
//! the slots of its elements). Kernel parameters stay `ld.param` of
//! [`OpKind::LdParam`], as before.
//!
//! # Inlining
//!
//! A body is lowered first (one op per statement, at `base`), collecting its
//! calls ([`PendingCall`]); then each direct call to a function of the
//! module with a body is expanded ([`expand`]) at the end of the op arena:
//!
//! ```text
//!   c:      call → Branch to E           (guard kept: a guarded call
//!                                         falls through when off)
//!   E:      label                        (span of the call)
//!           mov callee_param[off] ← caller slot or operand, per slot
//!   B…:     the callee's statements, one op each, with the callee's spans,
//!           `.loc` chains inlined at the call's location, fresh registers
//!           and variables; `ret` → Branch to R; labels at B + statement
//!   R:      label
//!           mov caller result slot ← callee return slot, per slot
//!           Branch to c + 1
//! ```
//!
//! Then the calls of the inlined body are expanded the same way, after it.
//! The function's own ops keep `OpId(stmt.0)`; if its last instruction can
//! fall through, an `Exit` is placed before the first instance. The result
//! is exact: the analysis sees the callee's code with the caller's values,
//! once per call site, and reports its accesses at the callee's spans.
//!
//! # Limits (the call stays [`OpKind::Call`], results unknown)
//!
//! Indirect calls (through a register, with `.calltargets` or a prototype),
//! callees without a body or not in the module, recursion (a callee already
//! on the inlining path), depth beyond [`MAX_INLINE_DEPTH`], and more than
//! [`MAX_INLINED_OPS`] inlined ops in one function. The analysis attaches a
//! kernel caveat for each such call ([`CallLimit`]). Vector `.param`
//! accesses move opaque values, and a slot read at an offset no one wrote
//! (a type pun across offsets) is unknown.

use super::{lower_body, symbol_name, Ctx, Out};
use crate::ir::alu::{Alu, AluOp, Ty};
use crate::ir::{
    CallInfo, CallLimit, Form, InlineSite, LocId, Op, OpId, OpKind, Src, Variable, MAX_INLINED_OPS,
    MAX_INLINE_DEPTH,
};
use crate::sema::Scopes;
use crate::syntax::ast::{Function, Module, Operand, OperandKind};
use crate::util::FastMap as HashMap;
use std::sync::OnceLock;

/// The functions of a module by name, for following calls. A name declared
/// more than once resolves to the declaration with a body.
pub struct Callees<'m, 'src> {
    module: &'m Module<'src>,
    by_name: HashMap<&'src str, usize>,
    /// For a module whose bodies were not kept ([`crate::syntax::parse_lazy`]).
    lazy: Option<LazyBodies<'m, 'src>>,
}

/// The bodies of a lazily parsed module, parsed again from the text when a
/// call first needs them, for one function's lowering.
struct LazyBodies<'m, 'src> {
    text: &'src str,
    /// The function being lowered (its module index and complete definition).
    own: (usize, &'m Function<'src>),
    /// Per module function, its definition with the body once parsed.
    parsed: Vec<OnceLock<Box<Function<'src>>>>,
}

impl<'m, 'src> Callees<'m, 'src> {
    /// Indexes the functions of `module`.
    pub fn new(module: &'m Module<'src>) -> Callees<'m, 'src> {
        let mut by_name: HashMap<&'src str, usize> = HashMap::default();
        for (i, f) in module.functions.iter().enumerate() {
            let e = by_name.entry(f.name.text).or_insert(i);
            if module.functions[*e].body.is_none() && f.body.is_some() {
                *e = i;
            }
        }
        Callees {
            module,
            by_name,
            lazy: None,
        }
    }

    /// The callees of function `own` (module index `id`, its body complete)
    /// of a module from [`crate::syntax::parse_lazy`] whose text is `text`:
    /// each callee's body is parsed again ([`crate::syntax::parse_body`])
    /// the first time a call needs it, and dropped with these callees.
    pub fn lazy(
        module: &'m Module<'src>,
        text: &'src str,
        id: usize,
        own: &'m Function<'src>,
    ) -> Callees<'m, 'src> {
        let mut c = Callees::new(module);
        c.lazy = Some(LazyBodies {
            text,
            own: (id, own),
            parsed: (0..module.functions.len())
                .map(|_| OnceLock::new())
                .collect(),
        });
        c
    }

    fn get(&self, name: &str) -> Option<(usize, &Function<'src>)> {
        let i = *self.by_name.get(name)?;
        let header = &self.module.functions[i];
        let Some(lazy) = &self.lazy else {
            return Some((i, header));
        };
        if i == lazy.own.0 {
            return Some((i, lazy.own.1));
        }
        let Some(body) = &header.body else {
            return Some((i, header));
        };
        let f = lazy.parsed[i].get_or_init(|| {
            Box::new(Function {
                body: Some(crate::syntax::parse_body(lazy.text, body.span)),
                ..header.clone()
            })
        });
        Some((i, f))
    }

    /// The index of `func` among the module's functions.
    pub(super) fn id_of(&self, func: &Function<'src>) -> Option<usize> {
        if let Some(lazy) = &self.lazy {
            return Some(lazy.own.0);
        }
        self.module
            .functions
            .iter()
            .position(|f| std::ptr::eq(f, func))
    }
}

/// A call argument: a `.param` slot of the caller or a plain operand.
enum Arg<'src> {
    Slot(&'src str),
    Value(Src),
}

/// Where a call result goes: a `.param` slot of the caller or a register.
enum Ret<'src> {
    Slot(&'src str),
    Reg(u32),
}

/// A call of a lowered body, expanded once the body is complete.
pub(in crate::lower) struct PendingCall<'src> {
    op: usize,
    /// The callee's name, or `Err(register)` for an indirect call.
    target: Result<&'src str, &'src str>,
    args: Vec<Arg<'src>>,
    rets: Vec<Ret<'src>>,
    uniform: bool,
}

/// Lowers a `call` statement: records it for [`expand`] and returns a
/// placeholder that `expand` always replaces.
pub(super) fn call_op<'src>(cx: &mut Ctx<'_, 'src>, at: usize, ops: &[Operand<'src>]) -> OpKind {
    let list = |o: &Operand<'src>| matches!(o.kind, OperandKind::List(_));
    let (rets_op, k) = match ops.first() {
        Some(o) if list(o) => (Some(o), 1),
        _ => (None, 0),
    };
    let target = match ops.get(k).map(|o| &o.kind) {
        Some(OperandKind::Reg { name, .. }) => Err(*name),
        Some(o) => symbol_name(o).ok_or(""),
        None => Err(""),
    };
    let mut rets = Vec::new();
    if let Some(OperandKind::List(items)) = rets_op.map(|o| &o.kind) {
        for o in items {
            match cx.slot_ref(o) {
                Some((name, _)) => rets.push(Ret::Slot(name)),
                None => rets.extend(cx.dsts(o).into_iter().map(Ret::Reg)),
            }
        }
    }
    let mut args = Vec::new();
    if let Some(OperandKind::List(items)) = ops.get(k + 1).map(|o| &o.kind) {
        for o in items {
            args.push(match cx.slot_ref(o) {
                Some((name, _)) => Arg::Slot(name),
                None => Arg::Value(cx.src(o)),
            });
        }
    }
    let uniform = cx.body.get(at - cx.base as usize).is_some_and(|st| {
        matches!(&st.kind, crate::syntax::ast::StmtKind::Instruction(i)
            if i.modifiers().any(|m| m == "uni"))
    });
    cx.pending.push(PendingCall {
        op: at,
        target,
        args,
        rets,
        uniform,
    });
    OpKind::Nop
}

/// A 64-bit copy: moves between slots keep the value as stored.
const COPY: Ty = Ty {
    bits: 64,
    signed: false,
    float: false,
};

fn mov(dst: u32, src: Src, ty: Ty) -> OpKind {
    OpKind::Alu {
        alu: Alu { op: AluOp::Mov, ty },
        dst,
        dst2: None,
        srcs: vec![src],
    }
}

/// `st.param [slot+off], x` (a `mov` into the slot) or `ld.param d,
/// [slot+off]` (a `mov` out of it); vector forms move opaque values.
pub(super) fn slot_move<'src>(
    cx: &mut Ctx<'_, 'src>,
    param_regs: &mut HashMap<u32, u16>,
    store: bool,
    mods: &[&str],
    ops: &[Operand<'src>],
) -> OpKind {
    let ty = super::elem_ty(mods).unwrap_or(COPY);
    let step = i64::from((super::elem_bits(mods) / 8).max(1));
    let (slot_at, value_at) = if store { (0, 1) } else { (1, 0) };
    let Some((name, off)) = ops.get(slot_at).and_then(|o| cx.slot_ref(o)) else {
        return OpKind::Nop;
    };
    let Some(value) = ops.get(value_at) else {
        return OpKind::Nop;
    };
    let elems: Vec<&Operand<'src>> = match &value.kind {
        OperandKind::Vector(v) => v.iter().collect(),
        _ => vec![value],
    };
    let slots: Vec<u32> = (0..elems.len() as i64)
        .map(|k| cx.slot(name, off.wrapping_add(k * step)))
        .collect();
    if store {
        let srcs: Vec<Src> = elems.iter().map(|o| cx.src(o)).collect();
        match (slots.as_slice(), srcs.as_slice()) {
            ([d], [s]) => {
                copies_param(param_regs, *d, s);
                mov(*d, s.clone(), ty)
            }
            _ => OpKind::other(slots, srcs),
        }
    } else {
        let dsts = cx.dsts(value);
        match (dsts.as_slice(), slots.as_slice()) {
            ([d], [s]) => {
                copies_param(param_regs, *d, &Src::Reg(*s, 0));
                mov(*d, Src::Reg(*s, 0), ty)
            }
            _ => OpKind::other(dsts, slots.iter().map(|s| Src::Reg(*s, 0)).collect()),
        }
    }
}

/// Register `dst` receives a copy of `src`: when that is a kernel
/// parameter's value, so is `dst` (so that a pointer parameter used only in
/// a callee is still known as one).
fn copies_param(param_regs: &mut HashMap<u32, u16>, dst: u32, src: &Src) {
    match src {
        Src::Reg(r, 0) => match param_regs.get(r).copied() {
            Some(p) => {
                param_regs.insert(dst, p);
            }
            None => {
                param_regs.remove(&dst);
            }
        },
        _ => {
            param_regs.remove(&dst);
        }
    }
}

/// The caller's slots of `.param` name `name`, by offset.
fn slots_of(slots: &HashMap<(&str, i64), u32>, name: &str) -> Vec<(i64, u32)> {
    let mut v: Vec<(i64, u32)> = slots
        .iter()
        .filter(|((n, _), _)| *n == name)
        .map(|((_, off), r)| (*off, *r))
        .collect();
    v.sort_unstable();
    v
}

/// What the expansion of one body's calls needs from around it.
pub(super) struct Expansion<'c, 'm, 'src: 'c> {
    pub(super) callees: Option<&'c Callees<'m, 'src>>,
    pub(super) globals: &'c [Variable<'src>],
    /// Ops of the function's own body.
    pub(super) own: usize,
    /// The functions being inlined on the current path (module indices).
    pub(super) stack: Vec<usize>,
    /// Registers holding a kernel parameter's value, and that parameter.
    pub(super) param_regs: HashMap<u32, u16>,
    /// The kernel parameters used as pointers.
    pub(super) pointer_params: Vec<bool>,
    /// The registers (by name) and `.param` slots of each inlined callee,
    /// shared by all its instances (see [`inline`]).
    pub(super) callee_regs: CalleeRegs<'src>,
}

/// Registers and slots of inlined callees, by module index.
pub(super) type CalleeRegs<'src> = HashMap<
    usize,
    (
        super::super::names::NameMap<'src, u32>,
        HashMap<(&'src str, i64), u32>,
    ),
>;

/// Expands the calls `pending` of a body whose slots are `slots`: inlines
/// each that can be followed, and makes the others [`OpKind::Call`] with
/// their limit.
pub(super) fn expand<'src>(
    out: &mut Out<'src>,
    ex: &mut Expansion<'_, '_, 'src>,
    pending: Vec<PendingCall<'src>>,
    slots: &HashMap<(&'src str, i64), u32>,
    depth: u32,
) {
    for call in pending {
        let target = match (call.target, ex.callees) {
            (Err(_), _) => Err((CallLimit::Indirect, None)),
            (Ok(_), None) => Err((CallLimit::NoModule, None)),
            (Ok(name), Some(c)) => match c.get(name) {
                None => Err((CallLimit::Unknown, None)),
                Some((id, f)) => match &f.body {
                    None => Err((CallLimit::NoBody, Some(id))),
                    Some(_) if ex.stack.contains(&id) => Err((CallLimit::Recursive, Some(id))),
                    Some(_) if depth as usize > MAX_INLINE_DEPTH => {
                        Err((CallLimit::Depth, Some(id)))
                    }
                    Some(b)
                        if out.ops.len() + b.statements.len() + 2 * (call.args.len() + 8)
                            > ex.own + MAX_INLINED_OPS =>
                    {
                        Err((CallLimit::Size, Some(id)))
                    }
                    Some(_) => Ok((id, f)),
                },
            },
        };
        match target {
            Ok((id, f)) => inline(out, ex, call, slots, id, f, depth),
            Err((limit, function)) => {
                let mut dsts = Vec::new();
                for r in &call.rets {
                    match r {
                        Ret::Slot(n) => dsts.extend(slots_of(slots, n).into_iter().map(|s| s.1)),
                        Ret::Reg(r) => dsts.push(*r),
                    }
                }
                let args = call
                    .args
                    .iter()
                    .map(|a| match a {
                        Arg::Slot(n) => slots
                            .get(&(*n, 0))
                            .map_or(Src::Unknown, |r| Src::Reg(*r, 0)),
                        Arg::Value(s) => s.clone(),
                    })
                    .collect();
                let callee = match call.target {
                    Ok(n) | Err(n) => n.to_string(),
                };
                out.ops[call.op].kind = OpKind::Call {
                    dsts,
                    call: Box::new(CallInfo {
                        callee,
                        function: function.map(|i| i as u32),
                        args,
                        limit,
                    }),
                };
            }
        }
    }
}

fn first_name<'src>(d: &crate::syntax::ast::VarDecl<'src>) -> Option<&'src str> {
    d.declarators.first().map(|x| x.name.text)
}

/// Inlines one call of `f` (module index `id`) at the end of `out`.
fn inline<'src>(
    out: &mut Out<'src>,
    ex: &mut Expansion<'_, '_, 'src>,
    call: PendingCall<'src>,
    slots: &HashMap<(&'src str, i64), u32>,
    id: usize,
    f: &Function<'src>,
    depth: u32,
) {
    let Some(body) = f.body.as_ref() else {
        return;
    };
    let call_span = out.spans[call.op];
    let call_loc: Option<LocId> = out.locs[call.op];
    // The function's own body must not fall through into the first instance.
    if out.ops.len() == ex.own {
        let ends = out
            .ops
            .iter()
            .rev()
            .find(|o| o.form == Form::Instruction)
            .is_some_and(|o| o.guard.is_none() && o.is_terminator());
        if !ends {
            let span = out.spans.last().copied().unwrap_or(call_span);
            out.push(
                Op {
                    guard: None,
                    kind: OpKind::Exit,
                    form: Form::Instruction,
                },
                span,
                "",
                None,
            );
        }
    }
    let entry = out.ops.len();
    let label = |out: &mut Out<'src>, span| {
        out.push(
            Op {
                guard: None,
                kind: OpKind::Nop,
                form: Form::Label,
            },
            span,
            "",
            call_loc,
        )
    };
    label(out, call_span);
    let scopes = Scopes::build(body);
    let names = std::mem::take(&mut out.names);
    let var_list = std::mem::take(&mut out.var_list);
    let mut cx = Ctx::new(&scopes, &body.statements, names, var_list, 0);
    // The instances of one callee share its registers: they never overlap
    // in time (a callee is never inlined inside itself), so the values of
    // one are dead when the next starts, and the register count grows with
    // the callees, not with the call sites (the dataflow's state is a value
    // per register per block).
    if let Some((regs, slots)) = ex.callee_regs.remove(&id) {
        cx.regs = regs;
        cx.slots = slots;
    }
    for (i, v) in ex.globals.iter().enumerate() {
        cx.vars.insert(v.name, i as u32);
    }
    for d in f.params.iter().chain(&f.returns) {
        for x in &d.declarators {
            cx.slot_names.insert(x.name.text, ());
        }
    }
    let instr = |kind| Op {
        guard: None,
        kind,
        form: Form::Instruction,
    };
    // Parameter moves.
    for (k, p) in f.params.iter().enumerate() {
        let Some(pname) = first_name(p) else { continue };
        match call.args.get(k) {
            Some(Arg::Slot(n)) => {
                for (off, r) in slots_of(slots, n) {
                    let d = cx.slot(pname, off);
                    copies_param(&mut ex.param_regs, d, &Src::Reg(r, 0));
                    out.push(instr(mov(d, Src::Reg(r, 0), COPY)), call_span, "", call_loc);
                }
            }
            Some(Arg::Value(s)) => {
                let d = cx.slot(pname, 0);
                copies_param(&mut ex.param_regs, d, s);
                out.push(instr(mov(d, s.clone(), COPY)), call_span, "", call_loc);
            }
            None => {}
        }
    }
    // The body.
    let base = out.ops.len();
    cx.base = base as u32;
    let ret_at = base + body.statements.len();
    cx.ret_to = Some(OpId(ret_at as u32));
    let mut chains = super::LocChains::inlined(out.loc_table.len() as u32, call_loc);
    lower_body(
        &mut cx,
        out,
        &mut chains,
        call_loc,
        &mut ex.param_regs,
        &mut ex.pointer_params,
    );
    out.loc_table.append(&mut chains.locs);
    // Return moves.
    let end_span = crate::source::Span::new(body.span.end.saturating_sub(1), body.span.end);
    label(out, end_span);
    for (j, r) in call.rets.iter().enumerate() {
        let rname = f.returns.get(j).and_then(first_name);
        let moves: Vec<(i64, u32)> = match r {
            Ret::Slot(n) => slots_of(slots, n),
            Ret::Reg(d) => vec![(0, *d)],
        };
        for (off, d) in moves {
            let src = rname.and_then(|n| cx.slots.get(&(n, off)).copied());
            let kind = match src {
                Some(s) => {
                    copies_param(&mut ex.param_regs, d, &Src::Reg(s, 0));
                    mov(d, Src::Reg(s, 0), COPY)
                }
                None => OpKind::other(vec![d], Vec::new()),
            };
            out.push(instr(kind), end_span, "", call_loc);
        }
    }
    out.push(
        instr(OpKind::Branch {
            target: Some(OpId(call.op as u32 + 1)),
            indexed: Vec::new(),
            uniform: true,
        }),
        end_span,
        "",
        call_loc,
    );
    out.ops[call.op].kind = OpKind::Branch {
        target: Some(OpId(entry as u32)),
        indexed: Vec::new(),
        uniform: call.uniform,
    };
    out.inlined.push(InlineSite {
        call: OpId(call.op as u32),
        callee: f.name.text.to_string(),
        ops: entry as u32..out.ops.len() as u32,
        body_start: OpId(base as u32),
        depth,
    });
    let pending = std::mem::take(&mut cx.pending);
    let inner = std::mem::take(&mut cx.slots);
    let regs = std::mem::take(&mut cx.regs);
    out.names = std::mem::take(&mut cx.names);
    out.var_list = std::mem::take(&mut cx.var_list);
    drop(cx);
    ex.stack.push(id);
    expand(out, ex, pending, &inner, depth + 1);
    ex.stack.pop();
    ex.callee_regs.insert(id, (regs, inner));
}

/// The layout rank of each op: the function's own ops in order, each
/// inlined instance spliced right after its call op (recursively); empty
/// when nothing was inlined.
pub(super) fn layout_rank(n: usize, own: usize, sites: &[InlineSite]) -> Vec<u32> {
    if sites.is_empty() {
        return Vec::new();
    }
    let by_call: HashMap<u32, std::ops::Range<u32>> =
        sites.iter().map(|s| (s.call.0, s.ops.clone())).collect();
    let mut rank = vec![u32::MAX; n];
    let mut next = 0u32;
    // An explicit stack of op ranges still to place (no recursion: the
    // nesting is bounded by MAX_INLINE_DEPTH, but stay iterative).
    let mut todo: Vec<std::ops::Range<u32>> = Vec::with_capacity(MAX_INLINE_DEPTH + 1);
    todo.push(0..own as u32);
    while let Some(mut r) = todo.pop() {
        let Some(i) = r.next() else { continue };
        rank[i as usize] = next;
        next += 1;
        todo.push(r);
        if let Some(inner) = by_call.get(&i) {
            todo.push(inner.clone());
        }
    }
    // Ops outside every range (the Exit placed before the first instance).
    for r in rank.iter_mut().filter(|r| **r == u32::MAX) {
        *r = next;
        next += 1;
    }
    rank
}
