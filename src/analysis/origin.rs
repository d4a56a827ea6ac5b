//! Where an address comes from: bounded walks backwards over the SSA form
//! through pointer arithmetic, for the facts the dataflow's values do not
//! carry (the driver's space resolution and the dataflow's depot inputs).
//!
//! **Domain.** No abstract values: a walk visits SSA values
//! ([`ArithWalk`]), each at most once, and asks of each definition it meets
//! whether it is the origin sought:
//!
//! - [`from_mapa`]: a `mapa` result, an address in another CTA's shared
//!   memory (the cluster's window);
//! - [`generic_base_param`]: an `ld.param` of a pointer (or 64-bit integer)
//!   parameter at offset 0, a 64-bit `ld.param` of a by-value struct's field,
//!   or a `.local` load from a depot every store of which stores such a value
//!   ([`depot_stores`]; a CUDA ABI assumption: pointer parameters and pointer
//!   members of struct parameters are generic addresses of global memory);
//! - [`local_depot`]: the one `.local` variable an address is an offset of.
//!
//! **Transfer.** Phis are expanded into their arguments; the register
//! sources of *pointer arithmetic* — `mov`, `cvt` (and `cvta`), `add`,
//! `sub`, `mad` ([`is_pointer_arith`]) — are followed, every source alike
//! (which one is the base and which the offset is not asked); any other
//! definition ends that path. [`local_depot`] does not follow a source
//! defined by a `mul` or `shl` (an index, not a base). A guarded
//! definition's value in the lanes where its guard is off (`merges`) is
//! not followed.
//!
//! [`Depots`] gathers once per function what every `.local` store stores, and
//! [`depot_fields`] the loads whose depot holds only `ld.param` values (read
//! by the dataflow as the join of those parameters' values).
//!
//! **Soundness.** [`from_mapa`] and [`generic_base_param`] answer with
//! the first origin found on any path: the other paths (entry values,
//! loads, other phi arguments) are assumed to be offsets or the same base,
//! which holds for the addresses compilers build (a base plus offsets) but
//! is not proven: a phi of a `mapa` result and a CTA-local address is taken
//! as the cluster's window. [`local_depot`] is stricter: every path must end
//! at constants or the one depot, any other source (a load, a parameter, an
//! entry value) answers nothing. Reading a depot is sound only under
//! [`depot_stores`]' conditions (no generic address of local memory, no
//! call, every local store into a known depot): then its `.local` stores
//! are all the writes.
//!
//! **Limits.** Each walk stops after a fixed number of values (256; 64 for
//! [`local_depot`]) and then answers nothing; depots are read through at most
//! four deep. Which slot of a depot a load reads is not asked: all its stores
//! are the candidates. Not following `merges` (above) means a depot address
//! chosen under a guard (`@p mov %rd, depotB`) is credited to the depot of
//! its unguarded definition only.

use super::model::{AccessOp, Space};
use super::transfer::AluOp;
use crate::cfg::Cfg;
use crate::ir::ssa::{Ssa, ValueDef, ValueId};
use crate::ir::{Function, MemKind, MemOp, OpId, OpKind, Src};
use crate::util::{FastMap, FastSet};
use std::collections::HashMap;

/// The most values one walk visits before it gives up.
const WALK_LIMIT: usize = 256;

/// The most values [`local_depot`]'s walk visits.
const DEPOT_WALK_LIMIT: usize = 64;

/// How deep [`pointer_origin`] reads through local depots.
const DEPOT_DEPTH: u32 = 4;

/// The ALU ops through which an address stays an offset of the same base.
fn is_pointer_arith(op: AluOp) -> bool {
    matches!(
        op,
        AluOp::Mov | AluOp::Cvt(_) | AluOp::Add | AluOp::Sub | AluOp::Mad(_)
    )
}

/// What [`ArithWalk::next`] gives: the next value's definition.
enum Step {
    /// A register's content at the function's start (no definition).
    Entry,
    /// The op that defines the value.
    Op(OpId),
    /// Every value has been visited.
    Done,
    /// The walk reached its limit: no answer.
    Exhausted,
}

/// A walk backwards from SSA values: each value at most once, phis expanded
/// into their arguments (not given to the caller), at most `left` values.
struct ArithWalk<'s> {
    ssa: &'s Ssa,
    seen: FastSet<ValueId>,
    work: Vec<ValueId>,
    left: usize,
}

impl<'s> ArithWalk<'s> {
    fn new(ssa: &'s Ssa, starts: impl IntoIterator<Item = ValueId>, left: usize) -> Self {
        ArithWalk {
            ssa,
            seen: FastSet::default(),
            work: starts.into_iter().collect(),
            left,
        }
    }

    fn next(&mut self) -> Step {
        while let Some(v) = self.work.pop() {
            if self.left == 0 {
                return Step::Exhausted;
            }
            if !self.seen.insert(v) {
                continue;
            }
            self.left -= 1;
            match self.ssa.value(v).def {
                ValueDef::Entry => return Step::Entry,
                ValueDef::Phi(ph) => {
                    let args = self.ssa.phi_args(ph).iter().map(|a| a.value);
                    self.work.extend(args);
                }
                ValueDef::Op { op, .. } => return Step::Op(op),
            }
        }
        Step::Done
    }

    /// Continues the walk through the register sources of op `d`.
    fn follow(&mut self, d: OpId, srcs: &[Src]) {
        for s in srcs {
            if let Src::Reg(q, _) = s {
                self.work.extend(self.ssa.use_of(d, *q));
            }
        }
    }
}

/// The SSA value memory op `op`'s address register reads.
fn address_value(ir: &Function<'_>, ssa: &Ssa, op: u32) -> Option<ValueId> {
    let OpKind::Mem { info, .. } = &ir.ops.get(op as usize)?.kind else {
        return None;
    };
    let Src::Reg(r, _) = info.addr else {
        return None;
    };
    ssa.use_of(OpId(op), r)
}

/// Whether the address of memory op `op` is computed from a `mapa` result
/// by pointer arithmetic alone: an address in another CTA's shared memory.
pub(crate) fn from_mapa(ir: &Function<'_>, ssa: &Ssa, op: u32) -> bool {
    let Some(start) = address_value(ir, ssa, op) else {
        return false;
    };
    let mut walk = ArithWalk::new(ssa, [start], WALK_LIMIT);
    loop {
        match walk.next() {
            Step::Done | Step::Exhausted => return false,
            Step::Entry => {}
            Step::Op(d) => match &ir.ops[d.index()].kind {
                OpKind::Alu { alu, .. } if alu.op == AluOp::Mapa => return true,
                OpKind::Alu { alu, srcs, .. } if is_pointer_arith(alu.op) => walk.follow(d, srcs),
                _ => {}
            },
        }
    }
}

/// [`generic_base_param`]'s origin: a field of a by-value parameter.
pub(crate) const ORIGIN_FIELD: u8 = 1;
/// [`generic_base_param`]'s origin: read back from a local depot.
pub(crate) const ORIGIN_LOCAL: u8 = 2;

/// The kernel parameter a generic address of memory op `op` is computed
/// from by pointer arithmetic alone, back to
///
/// - an `ld.param` at offset 0 of a pointer parameter or of a 64-bit
///   integer one, as the driver's second round marks;
/// - a 64-bit integer `ld.param` of a field of a by-value (aggregate)
///   parameter: a pointer in a struct passed by value (CUDA passes a
///   pointer parameter, and a pointer member of a struct parameter, as a
///   generic address of global memory: an assumption about the source
///   language, as for pointer parameters, not a PTX rule);
/// - a `.local` load from a local depot every one of whose stores stores
///   such a value ([`depot_stores`]: NVVM's copy of a by-value struct
///   indexed at run time, read back at `8 * ctaid.x`);
///
/// whatever value the launch gave it, with how ([`ORIGIN_FIELD`],
/// [`ORIGIN_LOCAL`]: the caveat says so). A value loaded from memory
/// otherwise, or computed otherwise, ends that path; a walk of more than
/// 256 values (all depots read through included) answers nothing.
pub(crate) fn generic_base_param(
    ir: &Function<'_>,
    ssa: &Ssa,
    depots: &Depots,
    pointer_params: &[bool],
    op: u32,
) -> Option<(usize, u8)> {
    let start = address_value(ir, ssa, op)?;
    let mut budget = WALK_LIMIT;
    pointer_origin(ir, ssa, depots, pointer_params, start, &mut budget, 0)
}

/// [`generic_base_param`]'s walk from SSA value `start`; `budget` counts
/// the values visited over every nested walk, `depth` the local depots
/// read through.
fn pointer_origin(
    ir: &Function<'_>,
    ssa: &Ssa,
    depots: &Depots,
    pointer_params: &[bool],
    start: ValueId,
    budget: &mut usize,
    depth: u32,
) -> Option<(usize, u8)> {
    let mut walk = ArithWalk::new(ssa, [start], *budget);
    let found = loop {
        let d = match walk.next() {
            Step::Done | Step::Exhausted => break None,
            Step::Entry => continue,
            Step::Op(d) => d,
        };
        match &ir.ops[d.index()].kind {
            OpKind::LdParam {
                param: Some((k, off)),
                ..
            } => {
                let k = *k as usize;
                let wide = ir.params.get(k).is_some_and(|q| q.is_wide_integer());
                if *off == 0 && (pointer_params.get(k).copied().unwrap_or(false) || wide) {
                    break Some((k, 0));
                }
                // A 64-bit integer field of a by-value parameter.
                let aggregate = ir.params.get(k).is_some_and(|q| q.bits != 64);
                let mn = ir.mnemonics.get(d.index()).copied().unwrap_or("");
                let wide_load = [".u64", ".s64", ".b64"].iter().any(|t| mn.ends_with(t));
                // (each element of a vector read, `ld.param.v2.u64`, is
                // such a field too)
                if wide_load && (aggregate || *off != 0) {
                    break Some((k, ORIGIN_FIELD));
                }
            }
            OpKind::Mem { info, .. } if depth < DEPOT_DEPTH => {
                // every value the depot holds must come from a pointer
                let Some(stores) = depot_stores(depots, ir, ssa, d.0, info) else {
                    continue;
                };
                *budget = walk.left;
                let origins: Option<Vec<(usize, u8)>> = stores
                    .into_iter()
                    .map(|s| pointer_origin(ir, ssa, depots, pointer_params, s, budget, depth + 1))
                    .collect();
                walk.left = *budget;
                if let Some(&(k, how)) = origins.as_ref().and_then(|o| o.first()) {
                    break Some((k, how | ORIGIN_LOCAL));
                }
            }
            OpKind::Alu { alu, srcs, .. } if is_pointer_arith(alu.op) => walk.follow(d, srcs),
            _ => {}
        }
    };
    *budget = walk.left;
    found
}

/// The local variable (depot) an address is computed from by pointer
/// arithmetic alone: the one `.local` variable the walk meets, `None` when
/// it meets none or several, or another source than arithmetic and
/// constants (a load, a parameter). An index (the result of a `mul` or
/// `shl`) added to the base is no base: the walk does not follow it.
pub(crate) fn local_depot(ir: &Function<'_>, ssa: &Ssa, op: u32, addr: &Src) -> Option<u32> {
    let mut found: Option<u32> = None;
    let mut note = |v: u32| -> bool {
        let local = ir
            .vars
            .get(v as usize)
            .is_some_and(|x| x.space == Space::Local);
        match found {
            _ if !local => false,
            Some(f) if f != v => false,
            _ => {
                found = Some(v);
                true
            }
        }
    };
    let start = match addr {
        Src::Var(v, _) => return note(*v).then_some(*v),
        Src::Reg(r, _) => ssa.use_of(OpId(op), *r),
        _ => return None,
    };
    let is_index = |u: ValueId| match ssa.value(u).def {
        ValueDef::Op { op: e, .. } => matches!(
            &ir.ops[e.index()].kind,
            OpKind::Alu { alu, .. } if matches!(alu.op, AluOp::Mul(_) | AluOp::Shl)
        ),
        _ => false,
    };
    let mut walk = ArithWalk::new(ssa, start, DEPOT_WALK_LIMIT);
    loop {
        let d = match walk.next() {
            Step::Done => return found,
            Step::Exhausted | Step::Entry => return None,
            Step::Op(d) => d,
        };
        let OpKind::Alu { alu, srcs, .. } = &ir.ops[d.index()].kind else {
            return None;
        };
        if !is_pointer_arith(alu.op) {
            return None;
        }
        for s in srcs {
            match s {
                Src::Reg(q, _) => {
                    let u = ssa.use_of(d, *q)?;
                    if !is_index(u) {
                        walk.work.push(u);
                    }
                }
                Src::Var(x, _) => {
                    if !note(*x) {
                        return None;
                    }
                }
                Src::Imm(_) | Src::Special(_) => {}
                _ => return None,
            }
        }
    }
}

/// The stores into each local depot of a function, found once
/// ([`Depots::build`]) for [`depot_stores`].
#[derive(Default)]
pub(crate) struct Depots {
    /// False where nothing may be forwarded (see [`depot_stores`]).
    sealed: bool,
    /// By depot (the variable's index): the element width of each of its
    /// stores' values and the SSA value, or `None` where a store into it
    /// cannot be read (a value is not a register).
    stores: HashMap<u32, Option<Vec<(u32, ValueId)>>>,
}

impl Depots {
    /// The depots of `ir`, under [`depot_stores`]' conditions on the
    /// function: one walk per `.local` store.
    pub(crate) fn build(ir: &Function<'_>, ssa: &Ssa) -> Depots {
        let mut d = Depots::default();
        let generic_local = ir.mnemonics.iter().any(|m| m.starts_with("cvta.local"));
        let calls = ir.ops.iter().any(|o| matches!(o.kind, OpKind::Call { .. }));
        if generic_local || calls {
            return d;
        }
        for (i, o) in ir.ops.iter().enumerate() {
            let OpKind::Mem { info: s, .. } = &o.kind else {
                continue;
            };
            if s.space != Space::Local || s.op == AccessOp::Load {
                continue;
            }
            let Some(depot) = local_depot(ir, ssa, i as u32, &s.addr) else {
                // a store that may write any depot
                return Depots::default();
            };
            let stored: Option<Vec<_>> = s
                .stored()
                .map(|v| match v {
                    Src::Reg(r, _) => ssa.use_of(OpId(i as u32), *r),
                    _ => None,
                })
                .collect();
            let stored = stored.filter(|v| v.len() == s.vector as usize && !v.is_empty());
            let e = d.stores.entry(depot).or_insert_with(|| Some(Vec::new()));
            match (e.as_mut(), stored) {
                (Some(vals), Some(v)) => vals.extend(v.into_iter().map(|v| (s.elem_bits, v))),
                _ => *e = None,
            }
        }
        d.sealed = true;
        d
    }
}

/// The values stored to the local depot that the load `op` (`info`) reads
/// from, each as the SSA value its store reads: every `st.local` into that
/// depot (with the same element width), when
///
/// - `op` is a plain `.local` load whose address comes from one depot
///   ([`local_depot`]);
/// - no address of local memory is made generic (`cvta.local`, which
///   `%SP` holds): local memory is private to the thread and, without a
///   generic address of it, reachable only through `.local` accesses (PTX
///   ISA, *State spaces*), so the `.local` stores are all the writes;
/// - the function follows no call (a callee's `.local` frame is its own,
///   but an uninlined call is not read at all);
/// - every `.local` store's address comes from a known depot and gives
///   its stored values (`Aux::Stored`).
///
/// Which slot the load reads is not asked: every store into the depot of
/// the load's element width is returned (a load before any store reads
/// undefined memory, which the source languages do not do). Stores of
/// another width are other fields of the copied struct (NVVM copies a
/// by-value struct field by field, each at its own type: `CatMeta3`'s
/// three pointers by `st.local.u64`, its `int` arrays by
/// `st.local.v2.u32`) and are left out: a 64-bit load indexed into the
/// pointers reads one of them, as an index past the source's array would
/// be undefined behaviour. `None` otherwise, or when the depot has no
/// store of the load's width.
pub(crate) fn depot_stores(
    depots: &Depots,
    ir: &Function<'_>,
    ssa: &Ssa,
    op: u32,
    info: &MemOp,
) -> Option<Vec<ValueId>> {
    if !depots.sealed
        || info.op != AccessOp::Load
        || info.kind != MemKind::Plain
        || info.space != Space::Local
    {
        return None;
    }
    let depot = local_depot(ir, ssa, op, &info.addr)?;
    let vals: Vec<ValueId> = depots
        .stores
        .get(&depot)?
        .as_ref()?
        .iter()
        .filter(|&&(bits, _)| bits == info.elem_bits)
        .map(|&(_, v)| v)
        .collect();
    (!vals.is_empty()).then_some(vals)
}

/// The `.local` loads of `ir` whose depot holds only values loaded by
/// `ld.param` ([`depot_stores`], each stored value a chain of `mov`s
/// of one `ld.param` of known parameter and offset), with those (index,
/// byte offset): `dataflow::Inputs::depot_fields`, on `ssa` (built
/// here when not given). Empty without a `.local` load (no SSA form is
/// built then).
pub(crate) fn depot_fields(
    ir: &Function<'_>,
    cfg: &Cfg,
    ssa: Option<&Ssa>,
) -> FastMap<u32, Vec<(u16, i64)>> {
    let mut out = FastMap::default();
    let local_load = |o: &crate::ir::Op| {
        matches!(&o.kind, OpKind::Mem { info, .. }
            if info.space == Space::Local && info.op == AccessOp::Load)
    };
    if !ir.ops.iter().any(local_load) {
        return out;
    }
    let owned;
    let ssa = match ssa {
        Some(s) => s,
        None => {
            owned = Ssa::build(ir, cfg);
            &owned
        }
    };
    let depots = Depots::build(ir, ssa);
    'ops: for (i, o) in ir.ops.iter().enumerate() {
        let OpKind::Mem { info, .. } = &o.kind else {
            continue;
        };
        let Some(stores) = depot_stores(&depots, ir, ssa, i as u32, info) else {
            continue;
        };
        let mut fields = Vec::new();
        for mut v in stores {
            // through `mov`s of one register to its `ld.param`
            let field = loop {
                let ValueDef::Op {
                    op: d,
                    merges: None,
                } = ssa.value(v).def
                else {
                    continue 'ops;
                };
                match &ir.ops[d.index()].kind {
                    OpKind::LdParam {
                        param,
                        dsts,
                        elem_bytes,
                    } => {
                        let reg = ssa.value(v).reg;
                        let Some(k) = dsts.iter().position(|&d| d == reg) else {
                            continue 'ops;
                        };
                        match crate::ir::ld_param_element(*param, *elem_bytes, k) {
                            Some(field) => break field,
                            None => continue 'ops,
                        }
                    }
                    OpKind::Alu { alu, srcs, .. } if alu.op == AluOp::Mov && srcs.len() == 1 => {
                        let Src::Reg(q, 0) = srcs[0] else {
                            continue 'ops;
                        };
                        let Some(u) = ssa.use_of(d, q) else {
                            continue 'ops;
                        };
                        v = u;
                    }
                    _ => continue 'ops,
                }
            };
            fields.push(field);
        }
        out.insert(i as u32, fields);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::model::Options;
    use crate::source::SourceFile;

    /// A kernel that stores `a` and `b` to a 16-byte depot, reads slot
    /// `ctaid.x` back and loads a float through it with a generic `ld`.
    fn depot_kernel(a: &str, b: &str) -> String {
        format!(
            ".version 8.5\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .align 8 .b8 k_param_0[16], .param .u64 k_param_1)\n{{\n\
             \t.local .align 8 .b8 __local_depot0[16];\n\t.reg .b64 %SPL;\n\
             \t.reg .b32 %r<4>;\n\t.reg .f32 %f<2>;\n\t.reg .b64 %rd<12>;\n\
             \tmov.u64 %SPL, __local_depot0;\n\
             \tld.param.u64 %rd1, [k_param_0];\n\tld.param.u64 %rd2, [k_param_0+8];\n\
             \tld.param.u64 %rd9, [k_param_1];\n\tmov.u64 %rd10, 4096;\n\
             \tst.local.u64 [%SPL], {a};\n\tst.local.u64 [%SPL+8], {b};\n\
             \tmov.u32 %r1, %ctaid.x;\n\tmul.wide.u32 %rd3, %r1, 8;\n\
             \tadd.s64 %rd4, %SPL, %rd3;\n\tld.local.u64 %rd5, [%rd4];\n\
             \tmov.u32 %r2, %tid.x;\n\tmul.wide.u32 %rd6, %r2, 4;\n\
             \tadd.s64 %rd7, %rd5, %rd6;\n\tld.f32 %f1, [%rd7];\n\tret;\n}}\n"
        )
    }

    fn generic_load_space(text: &str) -> Space {
        let file = SourceFile::new("t.ptx", text.to_string()).unwrap();
        let a = crate::analyze(&file, &Options::default());
        a.kernels[0]
            .accesses
            .iter()
            .find(|x| x.op == AccessOp::Load && x.space != Space::Local)
            .expect("the generic load")
            .space
    }

    #[test]
    fn a_depot_of_struct_pointer_fields_gives_global_addresses() {
        // both slots hold 64-bit fields of the by-value struct
        assert_eq!(
            generic_load_space(&depot_kernel("%rd1", "%rd2")),
            Space::Global
        );
        // a pointer parameter and a field
        assert_eq!(
            generic_load_space(&depot_kernel("%rd9", "%rd2")),
            Space::Global
        );
    }

    #[test]
    fn stores_of_other_widths_are_other_fields() {
        // `aten_cat3_dim1` (tests/hw/blind14): the struct's `int` fields
        // are copied by 32-bit stores beside its pointers; the 64-bit load
        // reads one of the pointers
        let ints = depot_kernel("%rd1", "%rd2").replace(
            "\tmov.u32 %r1, %ctaid.x;",
            "\tld.param.v2.u32 {%r2, %r3}, [k_param_0+8];\n\
             \tst.local.v2.u32 [%SPL+8], {%r2, %r3};\n\tmov.u32 %r1, %ctaid.x;",
        );
        assert_eq!(generic_load_space(&ints), Space::Global);
        // but a 64-bit store of anything else still leaves it generic
        let other = depot_kernel("%rd1", "%rd10").replace(
            "\tmov.u32 %r1, %ctaid.x;",
            "\tld.param.v2.u32 {%r2, %r3}, [k_param_0+8];\n\
             \tst.local.v2.u32 [%SPL+8], {%r2, %r3};\n\tmov.u32 %r1, %ctaid.x;",
        );
        assert_eq!(generic_load_space(&other), Space::Generic);
    }

    #[test]
    fn a_depot_holding_anything_else_stays_generic() {
        // one slot holds a constant: the value read back may be it
        assert_eq!(
            generic_load_space(&depot_kernel("%rd1", "%rd10")),
            Space::Generic
        );
        // the depot's address made generic: a generic store may write it
        let escaped = depot_kernel("%rd1", "%rd2").replace(
            "\tmov.u32 %r1, %ctaid.x;",
            "\tcvta.local.u64 %rd11, %SPL;\n\tmov.u32 %r1, %ctaid.x;",
        );
        assert_eq!(generic_load_space(&escaped), Space::Generic);
    }
}
