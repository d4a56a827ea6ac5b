//! Blocks whose fate a block-uniform guard decides before they run: the
//! blocks of a grid that leave at an early exit, found for every block
//! without simulating it, so that the sampler ([`super::sample`]) counts
//! them exactly and samples only among the blocks that work.
//!
//! # Why
//!
//! A triangular grid (SYRK / TRMM tiles above the diagonal, a causal
//! attention block past the diagonal: `if (blockIdx.x > blockIdx.y)
//! return;`), a persistent kernel whose last blocks find no tile, a grid
//! padded beyond the problem: whether a block works is decided by a guard
//! on `%ctaid`, `%nctaid`, `%ntid`, parameters and constants only. When
//! the grid is sampled, the nearest-neighbour estimate in block order sees
//! a change point at every row of a staircase, more than the bisection
//! finds in its budget (`tests/hw/blind11` `syrk_tile_*`: 707 working
//! blocks estimated for 528). The guard itself is cheap to evaluate for
//! every block.
//!
//! # Domain
//!
//! One scalar value per register, known (a block-uniform value: the
//! register was computed from `%ctaid`, `%nctaid`, `%ntid`,
//! `%cluster_ctarank`, parameters as the simulation reads them, shared
//! variables' synthetic addresses and constants, by the lane-wise
//! instructions the simulation evaluates exactly) or unknown (anything
//! that reads `%tid`, `%laneid`, a lane mask, loaded data, a cross-lane
//! instruction, an unknown parameter). A value known here is the same in
//! every thread of the block and equal to what every lane of the
//! simulation computes for it.
//!
//! Where a decision may lie ([`Plan`]) is found by a taint of the
//! registers that may hold such a value (flow-insensitive: every
//! definition of the register must qualify), refined per definition for a
//! guard whose register is written more than once: the SSA value the
//! guard reads ([`uniform_values`]). ptxas reuses its registers (`P0` is a
//! guard on `%ctaid` at the entry and a carry of a `%tid` sum in the loop,
//! `tests/hw/blind11` `syrk_tile_*` in SASS), and a PTX loop variable has
//! several definitions.
//!
//! # Transfer
//!
//! From the kernel's entry, one block at a time ([`Plan::fate`]), each op
//! in program order as the simulation runs it (`run_warp`): ALU,
//! predicate and `ld.param` ops compute their results ([`super::alu_value`],
//! the operands of `lane_src`), under a guard that is known false they do
//! nothing, under an unknown guard their results are unknown; a memory
//! access marks the block as having issued memory work (its results are
//! unknown data); a branch whose guard is known goes its one way (a branch
//! every lane takes over a block ptxas predicates, or falls through to a
//! diamond's predicated arm, issues requests: memory work, as the
//! simulation counts them); an exit whose guard is known true ends the
//! walk. The walk stops, the block *working*, at a branch or exit whose
//! guard is unknown (a guard on `%tid` or loaded data), a backward branch
//! (a loop), an indirect branch, a call, or where no block-uniform
//! decision lies ahead ([`Plan`]: from there the path is the same for
//! every block, so its end is read off the plan instead of walked).
//!
//! Fates ([`Fate`]): **idle** (the walk reached an exit, or the end of the
//! body, with no memory work on the way: every warp of the block issues no
//! request, so its delta is empty), **exits** (the same after memory work:
//! such a block is simulated, in an edge stratum of its own, see
//! [`super::sample`]), **works** (anything else).
//!
//! **Guard classes** ([`Fates::guard_class`], [`uniform_classes`]): the
//! walk stops at the first guard it cannot decide, often a bounds test on
//! `%tid`, and a block-uniform decision past it (a diagonal tile's
//! `if (bx != by)`) is then the sampler's to find among neighbours. So
//! every working block also evaluates the predicates of every branch
//! that are defined once from block-uniform values (through single
//! definitions only, not along a path), and the blocks whose values differ
//! from the majority's form classes that the sampler runs as strata of
//! their own (`tests/hw/blind18` `transpose_inplace_sq`: 63 diagonal
//! blocks of 2,016 working ones).
//!
//! # Soundness
//!
//! An idle block is exactly zero: every instruction that records
//! statistics in the simulation is a memory access or a branch whose
//! predicated block issues, and the walk met neither on the one path every
//! thread of the block takes (its guards are known and uniform). The
//! exits fate only moves a block into a stratum that is simulated like the
//! edge blocks: it never changes a block's figures, only which blocks
//! stand for which in an estimate; so do the guard classes (a value read
//! through single definitions is the value every thread computes, but a
//! class only groups blocks, it decides nothing).
//!
//! # Limits and cost
//!
//! The scan runs only when the plan finds a branch or exit on a
//! block-uniform guard ahead of an exit (a flow-insensitive taint over the
//! registers), for grids the sampler scans ([`super::sample::EDGE_SCAN_MAX`]
//! blocks), and stops, giving no fates, past [`SCAN_STEPS_PER_BUDGET`]
//! steps per warp instruction of the simulation's budget (each step is one
//! scalar op; a warp instruction of the simulation is 32 lanes). The
//! exits fate is kept only when some block works (a kernel every block of
//! which reaches an exit on its one uniform path, a straight-line body
//! after a block-0 branch, is left to the sampler as before). A guard that
//! reads a loaded value (`if (blockIdx.x * B >= *count) return;`) is not
//! decided: those blocks work. Blocks that exit at different exits, or
//! after different memory work, share one stratum (its mean when the
//! budget does not run them all).

use super::sample::Bits;
use super::{alu_value, cluster_rank, param_value, SimInputs, VAR_SHIFT};
use crate::analysis::ifconvert::Memo as IfConvMemo;
use crate::analysis::transfer::AluOp;
use crate::ir::{Function as Lowered, OpKind, Reg, Special, Src};

/// Scan steps allowed per warp instruction of the simulation's budget.
pub const SCAN_STEPS_PER_BUDGET: u64 = 1;

/// Ops the plan explores from the entry, at most.
const PLAN_OPS: usize = 1 << 14;

/// What a block does, decided before it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Goes on to work the walk cannot decide.
    Works,
    /// Leaves with no memory work: its delta is empty.
    Idle,
    /// Leaves after memory work on a path of uniform guards.
    Exits,
}

/// The blocks' fates: idle blocks and blocks that exit after memory work.
#[derive(Debug, Default)]
pub struct Fates {
    /// Idle blocks, by linear id.
    pub idle: Bits,
    /// Blocks that exit after memory work.
    pub exits: Bits,
    /// Idle blocks in the grid.
    pub idle_count: u64,
    /// Per block id, its guard class: `1..=`[`MAX_GUARD_CLASSES`] for a
    /// working block whose uniform guards decide otherwise than in most
    /// working blocks ([`uniform_classes`]), 0 for any other; empty when
    /// there is no class.
    pub guard_class: Vec<u8>,
}

/// Minority guard classes set apart at most.
pub const MAX_GUARD_CLASSES: usize = 4;

/// Uniform branch guards evaluated per block at most.
const MAX_GUARDS: usize = 16;

/// What the static pass found: per op of the explored region, whether a
/// block-uniform decision lies ahead, and, where none does, where the one
/// path leads.
pub struct Plan {
    /// A branch or exit on a uniform guard is reachable from the op.
    decides: Vec<bool>,
    /// Where no decision lies ahead: `Some(mem)` when the path ends at an
    /// exit (with memory work on the way when `mem`), `None` when it stops
    /// at work the walk cannot decide.
    tail: Vec<Option<bool>>,
    /// Branches that issue requests when every lane takes them (a
    /// predicated block skipped) or falls through them (a diamond's
    /// predicated taken arm).
    issues_taken: Vec<bool>,
    issues_fall: Vec<bool>,
}

fn cross_lane(op: AluOp) -> bool {
    matches!(op, AluOp::Shfl(_) | AluOp::Warp(_))
}

/// Whether a source is block-uniform when every register it reads is
/// (`reg` says which are): constants, shared variables' addresses and the
/// block's coordinates and shape are; parameters the simulation may not
/// know, other special registers and unknowns are not.
fn uniform_src(s: &Src, reg: impl Fn(Reg) -> bool) -> bool {
    match s {
        Src::Reg(r, _) | Src::NotPred(r) => reg(*r),
        Src::Imm(_) | Src::Var(..) => true,
        Src::Param(..) | Src::Unknown => false,
        Src::Special(sp) => matches!(
            sp,
            Special::Ntid(_) | Special::Ctaid(_) | Special::Nctaid(_) | Special::ClusterCtaRank
        ),
    }
}

/// Whether an op computes a block-uniform result from sources that
/// `src_ok` admits: a lane-wise ALU or predicate op, or a parameter load.
fn lane_wise_of(kind: &OpKind, src_ok: impl Fn(&Src) -> bool) -> bool {
    match kind {
        OpKind::Alu { alu, srcs, .. } => !cross_lane(alu.op) && srcs.iter().all(src_ok),
        OpKind::PredLogic { srcs, .. } => srcs.iter().all(src_ok),
        OpKind::LdParam { .. } => true,
        _ => false,
    }
}

/// Registers that may hold a block-uniform value: every definition is a
/// lane-wise op of uniform operands under a uniform (or no) guard
/// (flow-insensitive: a register written from `%tid` anywhere is not).
fn uniform_regs(low: &Lowered<'_>) -> Vec<bool> {
    let mut uni = vec![true; low.regs.len()];
    let is_uni =
        |uni: &[bool], s: &Src| uniform_src(s, |r| uni.get(r as usize).copied().unwrap_or(false));
    // A worklist: an op is looked at again only when a register it reads
    // stops being uniform (each register flips once: linear in the ops).
    let mut readers: Vec<Vec<u32>> = vec![Vec::new(); uni.len()];
    for (i, op) in low.ops.iter().enumerate() {
        crate::ir::ssa::op_reads(op, |r| {
            if let Some(v) = readers.get_mut(r as usize) {
                v.push(i as u32);
            }
        });
    }
    let mut work: Vec<u32> = (0..low.ops.len() as u32).rev().collect();
    while let Some(i) = work.pop() {
        let op = &low.ops[i as usize];
        let guard = op.guard.is_none_or(|(r, _)| is_uni(&uni, &Src::Reg(r, 0)));
        let ok = guard && lane_wise_of(&op.kind, |s| is_uni(&uni, s));
        if !ok {
            for d in op.kind.dsts() {
                if let Some(u) = uni.get_mut(d as usize).filter(|u| **u) {
                    *u = false;
                    if let Some(rs) = readers.get(d as usize) {
                        work.extend(rs.iter().copied());
                    }
                }
            }
        }
    }
    uni
}

/// [`uniform_regs`] per definition: the SSA values that may hold a
/// block-uniform value. A value is not when its op is not a lane-wise op
/// of uniform operands ([`lane_wise_of`], as for [`uniform_regs`]), when it
/// is a register's content at the entry, or when it is computed from a
/// value that is not (an op's operands, guard and merged old value, a
/// phi's arguments). A phi of uniform values counts as uniform even after
/// a branch on a lane-varying guard: the plan only chooses where the walk
/// looks, and the walk ([`Plan::fate`]) evaluates every guard it meets,
/// stopping where one is unknown.
fn uniform_values(low: &Lowered<'_>, ssa: &crate::ir::ssa::Ssa) -> Vec<bool> {
    use crate::ir::ssa::{User, ValueDef, ValueId};
    // The registers an op reads are the SSA values' business (its uses).
    let op_ok = |i: usize| lane_wise_of(&low.ops[i].kind, |s| uniform_src(s, |_| true));
    let n = ssa.values().len();
    let mut uni = vec![true; n];
    let mut work = Vec::new();
    for (i, v) in ssa.values().iter().enumerate() {
        let bad = match v.def {
            ValueDef::Entry => true,
            ValueDef::Op { op, .. } => !op_ok(op.index()),
            ValueDef::Phi(_) => false,
        };
        if bad {
            uni[i] = false;
            work.push(i);
        }
    }
    while let Some(v) = work.pop() {
        for &u in ssa.users(ValueId(v as u32)) {
            let mut mark = |d: ValueId| {
                if uni[d.index()] {
                    uni[d.index()] = false;
                    work.push(d.index());
                }
            };
            match u {
                User::Op(op) => ssa.defs(op).iter().for_each(|&(_, d)| mark(d)),
                User::Phi(p) => mark(ssa.phi(p).value),
            }
        }
    }
    uni
}

impl Plan {
    /// The plan of `low`, when some block-uniform decision lies ahead of an
    /// exit (else no block's fate differs from another's by such a guard).
    pub fn new(low: &Lowered<'_>, ifconv: &mut IfConvMemo) -> Option<Plan> {
        let n = low.ops.len();
        if n == 0 {
            return None;
        }
        let uni = uniform_regs(low);
        // A register written more than once (SASS reuses its registers; a
        // PTX loop variable) may be uniform where a guard reads it although
        // another of its definitions is not: asked of the SSA value the
        // guard reads, built at the first such question.
        let mut defs = vec![0u8; low.regs.len()];
        for op in &low.ops {
            for d in op.kind.dsts() {
                if let Some(n) = defs.get_mut(d as usize) {
                    *n = n.saturating_add(1);
                }
            }
        }
        let values: std::cell::OnceCell<(crate::ir::ssa::Ssa, Vec<bool>)> =
            std::cell::OnceCell::new();
        let guard_uni = |pc: usize, g: Option<(Reg, bool)>| {
            g.map(|(r, _)| {
                if uni.get(r as usize).copied().unwrap_or(false) {
                    return true;
                }
                if defs.get(r as usize).is_none_or(|&n| n < 2) {
                    return false;
                }
                let (ssa, vuni) = values.get_or_init(|| {
                    let cfg = crate::cfg::Cfg::build(low);
                    let ssa = crate::ir::ssa::Ssa::build(low, &cfg);
                    let vuni = uniform_values(low, &ssa);
                    (ssa, vuni)
                });
                ssa.use_of(crate::ir::OpId(pc as u32), r)
                    .is_some_and(|v| vuni[v.index()])
            })
        };
        let forward = |a: usize, b: u32| low.rank(b) > low.rank(a as u32);
        // The region: ops reachable from the entry through uniform
        // decisions, forward edges and memory work.
        let mut seen = vec![false; n];
        let mut stack = vec![0usize];
        let mut region = Vec::new();
        let mut any_exit = false;
        let mut any_decision = false;
        while let Some(pc) = stack.pop() {
            if pc >= n {
                any_exit = true;
                continue;
            }
            if seen[pc] {
                continue;
            }
            if region.len() >= PLAN_OPS {
                return None;
            }
            seen[pc] = true;
            region.push(pc);
            let op = &low.ops[pc];
            match &op.kind {
                OpKind::Branch {
                    target: Some(t),
                    indexed,
                    ..
                } if indexed.is_empty() && forward(pc, t.0) => match guard_uni(pc, op.guard) {
                    None => stack.push(t.0 as usize),
                    Some(true) => {
                        any_decision = true;
                        stack.push(t.0 as usize);
                        stack.push(pc + 1);
                    }
                    Some(false) => {}
                },
                OpKind::Branch { .. } | OpKind::Call { .. } => {}
                OpKind::Exit => match guard_uni(pc, op.guard) {
                    None => any_exit = true,
                    Some(true) => {
                        any_decision = true;
                        any_exit = true;
                        stack.push(pc + 1);
                    }
                    Some(false) => {}
                },
                _ => stack.push(pc + 1),
            }
        }
        if !(any_exit && any_decision) {
            return None;
        }
        let mut plan = Plan {
            decides: vec![false; n],
            tail: vec![None; n],
            issues_taken: vec![false; n],
            issues_fall: vec![false; n],
        };
        // Successors rank above their op: fill from the last in layout.
        region.sort_unstable_by_key(|&pc| std::cmp::Reverse(low.rank(pc as u32)));
        let at = |plan: &Plan, pc: usize| -> (bool, Option<bool>) {
            if pc >= n {
                (false, Some(false))
            } else {
                (plan.decides[pc], plan.tail[pc])
            }
        };
        for pc in region {
            let op = &low.ops[pc];
            let (decides, tail) = match &op.kind {
                OpKind::Branch {
                    target: Some(t),
                    indexed,
                    ..
                } if indexed.is_empty() && forward(pc, t.0) => {
                    let t = t.0;
                    plan.issues_taken[pc] = !ifconv.accesses(low, pc as u32, t).is_empty();
                    plan.issues_fall[pc] =
                        op.guard.is_some() && !ifconv.fall_through(low, pc as u32).is_empty();
                    match guard_uni(pc, op.guard) {
                        None => {
                            let (d, tl) = at(&plan, t as usize);
                            (d, tl.map(|m| m || plan.issues_taken[pc]))
                        }
                        Some(true) => (true, None),
                        Some(false) => (false, None),
                    }
                }
                OpKind::Branch { .. } | OpKind::Call { .. } => (false, None),
                OpKind::Exit => match guard_uni(pc, op.guard) {
                    None => (false, Some(false)),
                    Some(true) => (true, None),
                    Some(false) => (false, None),
                },
                OpKind::Mem { .. } => {
                    let (d, tl) = at(&plan, pc + 1);
                    (d, tl.map(|_| true))
                }
                _ => at(&plan, pc + 1),
            };
            plan.decides[pc] = decides;
            plan.tail[pc] = tail;
        }
        plan.decides[0].then_some(plan)
    }

    /// The fate of the block `ctaid`, and the steps the walk took; `regs`
    /// is scratch space reused between blocks.
    pub fn fate(
        &self,
        low: &Lowered<'_>,
        inputs: &SimInputs,
        ctaid: [i64; 3],
        regs: &mut Scalars,
    ) -> (Fate, u64) {
        regs.next_block(low.regs.len());
        let n = low.ops.len();
        let cluster = low.launch.cluster_dim.map(|d| cluster_rank(ctaid, d));
        let src = |regs: &Scalars, s: &Src| -> Option<i64> {
            match s {
                Src::Reg(r, off) => regs.get(*r).map(|v| v.wrapping_add(*off)),
                Src::NotPred(r) => regs.get(*r).map(|v| (v == 0) as i64),
                Src::Imm(v) => Some(*v),
                Src::Var(v, off) => Some((((*v as i64) + 1) << VAR_SHIFT).wrapping_add(*off)),
                Src::Param(..) | Src::Unknown => None,
                Src::Special(sp) => {
                    let d = |x: u8| x.min(2) as usize;
                    match sp {
                        Special::Ntid(x) => Some(inputs.block.dims()[d(*x)] as i64),
                        Special::Ctaid(x) => Some(ctaid[d(*x)]),
                        Special::Nctaid(x) => Some(inputs.grid[d(*x)] as i64),
                        Special::ClusterCtaRank => cluster,
                        _ => None,
                    }
                }
            }
        };
        let mut pc = 0usize;
        let mut mem = false;
        let mut steps = 0u64;
        let end = |mem: bool| if mem { Fate::Exits } else { Fate::Idle };
        loop {
            if pc >= n {
                return (end(mem), steps);
            }
            if !self.decides[pc] {
                return match self.tail[pc] {
                    Some(m) => (end(mem || m), steps),
                    None => (Fate::Works, steps),
                };
            }
            steps += 1;
            if steps as usize > n {
                // More steps than ops: a path that does not reach its end
                // by falling forward; the block is run, not decided.
                return (Fate::Works, steps);
            }
            let op = &low.ops[pc];
            // `None`: no guard; `Some(None)`: a guard not known.
            let guard: Option<Option<bool>> = op
                .guard
                .map(|(r, neg)| regs.get(r).map(|v| (v != 0) != neg));
            let runs = guard.unwrap_or(Some(true));
            match &op.kind {
                OpKind::Nop => {}
                OpKind::Alu {
                    alu,
                    dst,
                    dst2,
                    srcs,
                } => {
                    if runs != Some(false) {
                        let mut buf = [0i64; 4];
                        let ns = srcs.len().min(4);
                        let mut known = runs == Some(true) && !cross_lane(alu.op);
                        for (b, s) in buf.iter_mut().zip(srcs.iter()) {
                            match src(regs, s) {
                                Some(v) => *b = v,
                                None => known = false,
                            }
                        }
                        let out = if known {
                            alu_value(*alu, &buf[..ns])
                        } else {
                            None
                        };
                        regs.set(*dst, out);
                        if let Some(d2) = dst2 {
                            let o2 = out.and_then(|_| {
                                crate::analysis::transfer::second_scalar(*alu, &buf[..ns], out)
                            });
                            regs.set(*d2, o2);
                        }
                    }
                }
                OpKind::PredLogic { op: lop, dst, srcs } => {
                    if runs != Some(false) {
                        let a = srcs.first().and_then(|s| src(regs, s));
                        let b = match srcs.get(1) {
                            Some(s) => src(regs, s),
                            None => Some(0),
                        };
                        let out = match (a, b, runs) {
                            (Some(a), Some(b), Some(true)) => {
                                let (a, b) = (a != 0, b != 0);
                                Some(match *lop {
                                    "and" => a && b,
                                    "or" => a || b,
                                    "xor" => a ^ b,
                                    "not" => !a,
                                    _ => a,
                                } as i64)
                            }
                            _ => None,
                        };
                        regs.set(*dst, out);
                    }
                }
                OpKind::LdParam {
                    dsts,
                    param,
                    elem_bytes,
                } => {
                    if runs != Some(false) {
                        for (k, d) in dsts.iter().enumerate() {
                            let loc = crate::ir::ld_param_element(*param, *elem_bytes, k);
                            let v = param_value(inputs, loc).filter(|_| runs == Some(true));
                            regs.set(*d, v);
                        }
                    }
                }
                OpKind::Mem { dsts, .. } => {
                    mem = true;
                    for d in dsts {
                        regs.set(*d, None);
                    }
                }
                OpKind::Other { dsts, .. } => {
                    for d in dsts {
                        regs.set(*d, None);
                    }
                }
                OpKind::Call { .. } => return (Fate::Works, steps),
                OpKind::Branch {
                    target: Some(t),
                    indexed,
                    ..
                } if indexed.is_empty() => match runs {
                    None => return (Fate::Works, steps),
                    Some(true) => {
                        if low.rank(t.0) <= low.rank(pc as u32) {
                            return (Fate::Works, steps);
                        }
                        mem |= self.issues_taken[pc];
                        pc = t.0 as usize;
                        continue;
                    }
                    Some(false) => mem |= self.issues_fall[pc],
                },
                OpKind::Branch { .. } => return (Fate::Works, steps),
                OpKind::Exit => match runs {
                    None => return (Fate::Works, steps),
                    Some(true) => return (end(mem), steps),
                    Some(false) => {}
                },
            }
            pc += 1;
        }
    }
}

/// A scalar register file whose values are forgotten between blocks in
/// constant time (a generation stamp per register).
#[derive(Default)]
pub struct Scalars {
    v: Vec<i64>,
    stamp: Vec<u32>,
    generation: u32,
}

impl Scalars {
    fn next_block(&mut self, n: usize) {
        if self.v.len() < n {
            self.v.resize(n, 0);
            self.stamp.resize(n, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
    }

    fn get(&self, r: Reg) -> Option<i64> {
        let r = r as usize;
        (self.stamp.get(r) == Some(&self.generation)).then(|| self.v[r])
    }

    fn set(&mut self, r: Reg, v: Option<i64>) {
        let r = r as usize;
        if r >= self.v.len() {
            return;
        }
        match v {
            Some(x) => {
                self.v[r] = x;
                self.stamp[r] = self.generation;
            }
            None => self.stamp[r] = 0,
        }
    }
}

/// Decides every block of a grid of `nblocks` blocks (`ctaid` gives each
/// one's coordinates): the fates, or `None` when no block is idle and none
/// keeps the exits fate, or the scan ran past its steps
/// ([`SCAN_STEPS_PER_BUDGET`] times the budget).
pub fn scan(
    low: &Lowered<'_>,
    inputs: &SimInputs,
    ifconv: &mut IfConvMemo,
    nblocks: u64,
    ctaid: impl Fn(u64) -> [i64; 3],
) -> Option<Fates> {
    let plan = Plan::new(low, ifconv)?;
    let cap = inputs.budget.saturating_mul(SCAN_STEPS_PER_BUDGET);
    let mut regs = Scalars::default();
    let mut fates = Fates {
        idle: Bits::new(nblocks),
        exits: Bits::new(nblocks),
        idle_count: 0,
        guard_class: Default::default(),
    };
    let (mut steps, mut works, mut exits) = (0u64, false, false);
    for b in 0..nblocks {
        let (f, s) = plan.fate(low, inputs, ctaid(b), &mut regs);
        steps += s;
        if steps > cap {
            return None;
        }
        match f {
            Fate::Works => works = true,
            Fate::Idle => {
                fates.idle.set(b);
                fates.idle_count += 1;
            }
            Fate::Exits => {
                fates.exits.set(b);
                exits = true;
            }
        }
    }
    if exits && !works {
        // Every block leaves on its one path: nothing to set apart.
        fates.exits = Bits::new(0);
        exits = false;
    }
    if works {
        fates.guard_class = uniform_classes(low, inputs, nblocks, &ctaid, &fates, cap);
    }
    (fates.idle_count > 0 || exits || !fates.guard_class.is_empty()).then_some(fates)
}

/// The working blocks whose block-uniform branch guards decide otherwise
/// than in most working blocks: a diagonal tile (`if (bx != by)`), a
/// block whose row starts a segment, work the walk of [`Plan::fate`] does
/// not reach because a guard on `%tid` stops it first.
///
/// The guards are the predicates of branches that are defined once, by an
/// unguarded lane-wise op, from registers of the same kind down to
/// `%ctaid`, `%nctaid`, `%ntid`, parameters and constants
/// ([`uniform_regs`]), at most [`MAX_GUARDS`]; each block's *fingerprint*
/// is their values (true, false or unknown). The most common fingerprint
/// among working blocks is the majority; the [`MAX_GUARD_CLASSES`] most
/// common others, each of at most half the working blocks, are classes
/// `1..` (the sampler runs each as an edge stratum of its own: every block
/// of a class does the same block-uniform work, so its run blocks stand
/// for it). Empty when no guard qualifies, every block agrees, or the
/// evaluation runs past `cap` steps.
fn uniform_classes(
    low: &Lowered<'_>,
    inputs: &SimInputs,
    nblocks: u64,
    ctaid: &impl Fn(u64) -> [i64; 3],
    fates: &Fates,
    cap: u64,
) -> Vec<u8> {
    let none = Vec::new();
    let uni = uniform_regs(low);
    let mut guards: Vec<Reg> = Vec::new();
    for op in &low.ops {
        if let (OpKind::Branch { .. } | OpKind::Exit, Some((r, _))) = (&op.kind, op.guard) {
            if uni.get(r as usize).copied().unwrap_or(false)
                && low.single_defs.def.contains_key(&r)
                && !guards.contains(&r)
            {
                guards.push(r);
            }
        }
    }
    guards.truncate(MAX_GUARDS);
    if guards.is_empty() {
        return none;
    }
    let mut memo: crate::util::FastMap<Reg, Option<i64>> = Default::default();
    // Each block's fingerprint as an index into `distinct` (one byte a
    // block; `u8::MAX` for a block that does not work), and each
    // fingerprint's count.
    let mut distinct: Vec<(u32, u64)> = Vec::new();
    let mut index = vec![u8::MAX; usize::try_from(nblocks).unwrap_or(0)];
    let mut steps = 0u64;
    for b in 0..nblocks {
        if fates.idle.get(b) || fates.exits.get(b) {
            continue;
        }
        memo.clear();
        let c = ctaid(b);
        let mut code = 0u32;
        for (k, &g) in guards.iter().enumerate() {
            let v = block_value(low, inputs, c, g, &mut memo, 0, &mut steps);
            let bits = match v {
                None => 0,
                Some(0) => 1,
                Some(_) => 2,
            };
            code |= bits << (2 * k);
        }
        if steps > cap {
            return none;
        }
        let k = match distinct.iter().position(|d| d.0 == code) {
            Some(k) => k,
            None if distinct.len() + 1 < usize::from(u8::MAX) => {
                distinct.push((code, 0));
                distinct.len() - 1
            }
            // Too many fingerprints to be classes.
            None => return none,
        };
        distinct[k].1 += 1;
        index[b as usize] = k as u8;
    }
    let works: u64 = distinct.iter().map(|d| d.1).sum();
    let mut by_count: Vec<(u64, usize)> =
        distinct.iter().enumerate().map(|(k, d)| (d.1, k)).collect();
    by_count.sort_unstable_by(|a, b| b.cmp(a));
    // Per fingerprint index: its class (0: none).
    let mut class = vec![0u8; distinct.len()];
    let mut n = 0u8;
    for &(count, k) in by_count.iter().skip(1) {
        if 2 * count <= works && usize::from(n) < MAX_GUARD_CLASSES {
            n += 1;
            class[k] = n;
        }
    }
    if n == 0 {
        return none;
    }
    for k in index.iter_mut() {
        *k = class.get(usize::from(*k)).copied().unwrap_or(0);
    }
    index
}

/// The value of register `r` in block `ctaid`, from its one definition and
/// those of the registers it reads (see [`uniform_classes`]); `None` where
/// not known. `steps` counts the ops evaluated.
fn block_value(
    low: &Lowered<'_>,
    inputs: &SimInputs,
    ctaid: [i64; 3],
    r: Reg,
    memo: &mut crate::util::FastMap<Reg, Option<i64>>,
    depth: u32,
    steps: &mut u64,
) -> Option<i64> {
    if let Some(v) = memo.get(&r) {
        return *v;
    }
    if depth > 32 {
        return None;
    }
    *steps += 1;
    let v = (|| {
        let def = *low.single_defs.def.get(&r)?;
        let op = low.ops.get(def.index())?;
        if op.guard.is_some() {
            return None;
        }
        let mut src = |s: &Src, memo: &mut crate::util::FastMap<Reg, Option<i64>>| -> Option<i64> {
            match s {
                Src::Reg(q, off) => block_value(low, inputs, ctaid, *q, memo, depth + 1, steps)
                    .map(|v| v.wrapping_add(*off)),
                Src::NotPred(q) => block_value(low, inputs, ctaid, *q, memo, depth + 1, steps)
                    .map(|v| (v == 0) as i64),
                Src::Imm(v) => Some(*v),
                Src::Var(v, off) => Some((((*v as i64) + 1) << VAR_SHIFT).wrapping_add(*off)),
                Src::Param(..) | Src::Unknown => None,
                Src::Special(sp) => {
                    let d = |x: u8| x.min(2) as usize;
                    match sp {
                        Special::Ntid(x) => Some(inputs.block.dims()[d(*x)] as i64),
                        Special::Ctaid(x) => Some(ctaid[d(*x)]),
                        Special::Nctaid(x) => Some(inputs.grid[d(*x)] as i64),
                        _ => None,
                    }
                }
            }
        };
        match &op.kind {
            OpKind::Alu {
                alu,
                dst,
                dst2,
                srcs,
            } if !cross_lane(alu.op) && srcs.len() <= 4 => {
                let mut buf = [0i64; 4];
                for (b, s) in buf.iter_mut().zip(srcs.iter()) {
                    *b = src(s, memo)?;
                }
                let vals = &buf[..srcs.len()];
                let out = alu_value(*alu, vals)?;
                if *dst == r {
                    Some(out)
                } else if *dst2 == Some(r) {
                    crate::analysis::transfer::second_scalar(*alu, vals, Some(out))
                } else {
                    None
                }
            }
            OpKind::PredLogic { op: lop, srcs, .. } => {
                let a = src(srcs.first()?, memo)? != 0;
                let b = match srcs.get(1) {
                    Some(s) => src(s, memo)? != 0,
                    None => false,
                };
                Some(match *lop {
                    "and" => a && b,
                    "or" => a || b,
                    "xor" => a ^ b,
                    "not" => !a,
                    _ => a,
                } as i64)
            }
            OpKind::LdParam {
                dsts,
                param,
                elem_bytes,
            } => {
                let k = dsts.iter().position(|&d| d == r)?;
                let loc = crate::ir::ld_param_element(*param, *elem_bytes, k);
                param_value(inputs, loc)
            }
            _ => None,
        }
    })();
    memo.insert(r, v);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocks of `kernel` in tests/fixtures/analysis/staircase_exit.ptx
    /// (64 x 64 blocks of 256 threads) that [`scan`] decides idle.
    fn idle_blocks(kernel: &str) -> Option<u64> {
        let text = include_str!("../../../tests/fixtures/analysis/staircase_exit.ptx");
        let funcs = crate::pipeline::lower_text(text);
        let low = funcs.iter().find(|f| f.name == kernel).expect("the kernel");
        let inputs = SimInputs {
            block: crate::analysis::launch::BlockShape::Known([256, 1, 1]),
            grid: [64, 64, 1],
            params: vec![None],
            fields: Vec::new(),
            pointer_params: vec![true],
            budget: 3_000_000,
        };
        let mut ifconv = IfConvMemo::default();
        scan(low, &inputs, &mut ifconv, 64 * 64, |b| {
            [(b % 64) as i64, (b / 64) as i64, 0]
        })
        .map(|f| f.idle_count)
    }

    /// `tri_diag` (tests/fixtures/analysis/diagonal_class.ptx, 64 x 64
    /// blocks): the idle blocks, and the blocks of each guard class.
    #[test]
    fn the_diagonal_is_a_guard_class_behind_a_guard_on_tid() {
        let text = include_str!("../../../tests/fixtures/analysis/diagonal_class.ptx");
        let funcs = crate::pipeline::lower_text(text);
        let low = funcs
            .iter()
            .find(|f| f.name == "tri_diag")
            .expect("the kernel");
        let inputs = SimInputs {
            block: crate::analysis::launch::BlockShape::Known([256, 1, 1]),
            grid: [64, 64, 1],
            params: vec![None],
            fields: Vec::new(),
            pointer_params: vec![true],
            budget: 3_000_000,
        };
        let mut ifconv = IfConvMemo::default();
        let f = scan(low, &inputs, &mut ifconv, 64 * 64, |b| {
            [(b % 64) as i64, (b / 64) as i64, 0]
        })
        .expect("fates");
        assert_eq!(f.idle_count, 2016);
        // The 64 diagonal blocks, one class; no other block.
        assert_eq!(f.guard_class.len(), 64 * 64);
        for (b, &c) in f.guard_class.iter().enumerate() {
            assert_eq!(c, u8::from(b % 64 == b / 64), "block {b}");
        }
    }

    #[test]
    fn a_guard_register_written_again_from_tid_still_decides() {
        // ctaid.x > ctaid.y: 64 x 63 / 2 = 2,016 idle blocks.
        assert_eq!(idle_blocks("tri_idle"), Some(2016));
        // The guard's predicate written again by a bounds check on %tid
        // (as ptxas reuses P0): the definition the guard reads is uniform.
        assert_eq!(idle_blocks("tri_reused_predicate"), Some(2016));
    }
}
