//! ptxas's unrolling of rolled loops, and what it does to a warp whose lanes
//! run different trip counts.
//!
//! # The question
//!
//! The launch simulation (`totals`) runs the PTX as written: a loop's
//! accesses issue once per trip of the warp, with the lanes still in the
//! loop, so a warp whose lanes run 4 and 3 trips issues 4 requests per
//! access. ptxas unrolls a small counted loop by 4 with a remainder
//! ladder (a loop of 4 copies of the body entered while at least 4 trips
//! remain, then a block of 2 copies when at least 2 remain, then one copy
//! when one remains, each under its own `BSSY`/`BSYNC`): a lane with `t`
//! trips runs `⌊t/4⌋` trips of the 4-copy loop, then the 2-copy block when
//! `t mod 4 ≥ 2`, then the last copy when `t` is odd, and the warp issues
//! each access along every path some lane takes: `4 · max⌊t/4⌋ + 2 ·
//! [some lane has t mod 4 ≥ 2] + [some lane has t odd]` requests, 4 + 2 + 1
//! = 7 for lanes of 4 and 3 trips (`tests/hw/blind10` `swa_softmax_w100`:
//! 13,887 requests measured, 7 a warp). A request of the 2-copy block holds
//! lanes at different trips of the PTX loop (each lane at its own `4⌊t/4⌋`,
//! `4⌊t/4⌋ + 1`), which is why the simulation cannot just count trips.
//!
//! # The rule (`tests/hw/unroll_probes/README.md`: probes compiled by ptxas)
//!
//! [`loops`] finds the loops ptxas unrolls so: a single-block loop (a
//! label, straight-line code, and a conditional branch back to the label),
//!
//! - counted: its back edge's predicate is a signed `setp.{lt,le,gt,ge}`
//!   of an induction variable (a register written once in the loop, by an
//!   `add` of an immediate: a step in a register keeps the loop rolled,
//!   `lt_bdim`, `lt_grid`) with a register the loop does not write or an
//!   immediate (ptxas needs the trip count before the loop to lay out the
//!   remainder; an exit on loaded data is not unrolled: `le_break`);
//! - not marked `.pragma "nounroll"` (nvcc's `#pragma unroll 1` and the
//!   remainder loops NVVM writes after its own unrolling: `le_nounroll`);
//! - with no cross-lane instruction (`shfl`, `vote`, `match`, `redux`…:
//!   `le_shfl`, `lt_shfl`), barrier (`le_sync`), atomic or reduction
//!   (`le_atom`, `le_red_used`), call or instruction ptxas expands into a
//!   slow-path call (IEEE division: `le_div`), and no memory kind other
//!   than plain accesses and `cp.async`;
//! - small: at most [`MAX_OPS`] PTX instructions and [`MAX_MEM`] memory
//!   instructions in the loop (`le_alu32`, 39 instructions, unrolled;
//!   `le_alu64`, 72, not; `lt_alu8`, 44, unrolled; `lt_alu16`, 76, not;
//!   `lt_sh2ld`, 12 accesses, unrolled; `lt_ld4`, 41 instructions with 16
//!   loads, not).
//!
//! ptxas unrolls NVVM's 4-copy body of `for (j = lane; j < n; j += 32)`
//! (the loop after a `nounroll` remainder loop, `after_remainder_loop`)
//! again by 4 (16 copies, then 8, then 4: `lt_ld1`, `lt_f4`, `lt_copy`),
//! which in trips of the PTX loop is the same ladder, but only when every
//! access addresses a pointer the loop steps by an immediate
//! (`pointer_addresses`: `lt_copy_base128` and `tests/hw/blind5`
//! `ln_bwd_fused`, whose addresses are recomputed from the counter each
//! trip, are not unrolled again). A loop NVVM left rolled is unrolled
//! whatever its addresses (`le_shared`, `le_idiv`, `tests/hw/blind5`
//! `cp_async_8b_c999`). [`next_pass`] lists, for
//! lanes of known trip counts, the passes over the loop body in the order
//! the unrolled code runs them and the lanes of each: the simulation runs
//! the body once per pass with those lanes, each lane at its own trip.
//!
//! # Soundness and limits
//!
//! This predicts a compiler's choice; it is not a property of the PTX.
//! `tests/unroll_probes.rs` holds [`loops`] to what ptxas did to each of
//! the 52 probes (`tests/hw/unroll_probes/probes.ptx` and `table.txt`);
//! the H100's counts of the held-out batches (`tests/hw/blind*`) check the
//! request counts. It only
//! regroups the lanes of a warp into requests: every lane still runs each
//! of its trips once, at the addresses the PTX gives, so the sectors and
//! lines summed over a launch change only through the grouping, and a warp
//! whose lanes all run the same trip count issues what the PTX loop
//! issues. Where a lane's trip count is not known before the loop (an
//! induction variable, bound or step that is loaded data or not given, a
//! lane that may not be on the path) the loop runs as written. Known
//! misses, listed in that test with the probes: unsigned back-edge
//! comparisons are not modelled, and ptxas unrolls such loops (`le_u32`,
//! with an extra copy for the wrap; NVVM's body of `c1000`, 33 copies;
//! `c1000_4`, 24 copies of 20 loads, not the ladder); NVVM's body of
//! `lt_vg2` (8 stores through stepped pointers, 20 instructions) is not
//! unrolled again although it is within the rule, and that of `lt_shared`
//! (shared loads whose addresses are recomputed from the counter) is,
//! although the pointer criterion says not: which of NVVM's bodies ptxas
//! unrolls again is not settled (`tests/hw/unroll_probes/README.md` lists
//! the held-out batches' loops of both kinds); a `shfl.sync` in NVVM's
//! body (`lt_shfl`) gets 3 more copies, not the ladder; the limits between
//! 44 and 72 instructions were not probed.

use crate::ir::alu::{AluOp, Cmp, Ty};
use crate::ir::{Form, FrontEnd, Function as Lowered, MemKind, OpKind, Reg, Src};
use std::collections::HashMap;

/// PTX instructions a loop may hold for ptxas to unroll it (`le_alu32`:
/// 39, unrolled; `lt_alu8`: 44, unrolled; `le_alu64`: 72, not).
pub const MAX_OPS: usize = 44;

/// Memory instructions a loop may hold for ptxas to unroll it (`le_ld8`,
/// `lt_copy`: 8, and `lt_sh2ld`: 12, unrolled; `lt_ld4`: 16, not).
pub const MAX_MEM: usize = 12;

/// Trip counts above this are not scheduled (the loop runs as written).
const MAX_TRIPS: i128 = 1 << 24;

/// Copies of the body per trip of the unrolled loop.
pub const FACTOR: u64 = 4;

/// A counted single-block loop that ptxas unrolls by [`FACTOR`].
#[derive(Clone, Debug, PartialEq)]
pub struct CountedLoop {
    /// The label op the back edge jumps to.
    pub head: u32,
    /// The back edge (a conditional `bra` to `head`).
    pub back: u32,
    /// The induction variable.
    pub iv: Reg,
    /// What is added to it each trip.
    pub step: Src,
    /// What it is compared with.
    pub bound: Src,
    /// The comparison, with the induction variable on the left (swapped
    /// when the PTX has it on the right).
    pub cmp: Cmp,
    /// The comparison's type (signed).
    pub ty: Ty,
    /// True when the `add` comes before the `setp` (the comparison sees
    /// the stepped value).
    pub stepped: bool,
    /// True when the back edge is taken when the comparison is false
    /// (`@!%p bra`).
    pub negated: bool,
}

/// The mnemonics of instructions that keep ptxas from unrolling a loop
/// (cross-lane exchanges, barriers: the `le_shfl`, `le_sync` probes).
fn blocks_unrolling(m: &str) -> bool {
    const PREFIXES: [&str; 10] = [
        "shfl",
        "vote",
        "match",
        "redux",
        "activemask",
        "elect",
        "bar",
        "mbarrier",
        "griddepcontrol",
        "nanosleep",
    ];
    PREFIXES.iter().any(|p| m.starts_with(p)) || super::ifconvert::slow_path_call(m)
}

/// The counted loops of `low` that ptxas unrolls, by their head (the label
/// op). Only PTX input: a SASS listing is already ptxas's code.
pub fn loops(low: &Lowered<'_>) -> HashMap<u32, CountedLoop> {
    let mut out = HashMap::new();
    if low.front_end != FrontEnd::Ptx {
        return out;
    }
    for (b, op) in low.ops.iter().enumerate() {
        let OpKind::Branch {
            target: Some(t), ..
        } = &op.kind
        else {
            continue;
        };
        let (head, back) = (t.0 as usize, b);
        if head >= back
            || !low
                .mnemonics
                .get(back)
                .is_some_and(|m| m.starts_with("bra"))
        {
            continue;
        }
        if let Some(l) = counted(low, head, back) {
            out.insert(head as u32, l);
        }
    }
    out
}

/// The loop from the label at `head` to the back edge at `back`, when it
/// is one [`loops`] describes.
fn counted(low: &Lowered<'_>, head: usize, back: usize) -> Option<CountedLoop> {
    let (guard, negated) = low.ops[back].guard?;
    let body = head + 1..back;
    let (mut n, mut mem) = (0usize, 0usize);
    for i in body.clone() {
        let op = &low.ops[i];
        let m = low.mnemonics.get(i).copied().unwrap_or("");
        if m.contains("nounroll") || op.form == Form::Label || blocks_unrolling(m) {
            return None;
        }
        match &op.kind {
            OpKind::Branch { .. } | OpKind::Exit | OpKind::Call { .. } => return None,
            OpKind::Mem { info, .. } => {
                if !matches!(info.kind, MemKind::Plain | MemKind::AsyncCopy) {
                    return None;
                }
                mem += 1;
            }
            _ => {}
        }
        if op.form == Form::Instruction {
            n += 1;
        }
    }
    // The back edge counts too.
    if n + 1 > MAX_OPS || mem > MAX_MEM {
        return None;
    }
    let writes = |r: Reg| {
        body.clone()
            .filter(|&i| low.ops[i].kind.dsts().contains(&r))
            .count()
    };
    if after_remainder_loop(low, head) && !pointer_addresses(low, body.clone(), &writes) {
        return None;
    }
    let invariant = |s: &Src| match s {
        Src::Imm(_) => true,
        Src::Reg(r, 0) => writes(*r) == 0,
        _ => false,
    };
    // The `setp` that writes the back edge's predicate (the last write).
    let s = body
        .clone()
        .rev()
        .find(|&i| low.ops[i].kind.dsts().contains(&guard))?;
    if low.ops[s].guard.is_some() || writes(guard) != 1 {
        return None;
    }
    let OpKind::Alu { alu, srcs, .. } = &low.ops[s].kind else {
        return None;
    };
    let AluOp::Setp(cmp, None) = alu.op else {
        return None;
    };
    if !alu.ty.signed || alu.ty.float || !matches!(cmp, Cmp::Lt | Cmp::Le | Cmp::Gt | Cmp::Ge) {
        return None;
    }
    let [a, c] = srcs.as_slice() else {
        return None;
    };
    // The induction variable: one side, written once in the loop by an
    // `add` of itself and an invariant step.
    let step_of = |r: Reg| -> Option<(Src, usize)> {
        if writes(r) != 1 {
            return None;
        }
        let i = body
            .clone()
            .find(|&i| low.ops[i].kind.dsts().contains(&r))?;
        let op = &low.ops[i];
        let OpKind::Alu {
            alu, srcs, dst2, ..
        } = &op.kind
        else {
            return None;
        };
        if op.guard.is_some() || dst2.is_some() || alu.op != AluOp::Add {
            return None;
        }
        match srcs.as_slice() {
            // An immediate step: a step in a register, even one the loop
            // does not write, keeps the loop rolled (`lt_bdim`, `lt_grid`:
            // `j += blockDim.x`).
            [Src::Reg(x, 0), st @ Src::Imm(_)] | [st @ Src::Imm(_), Src::Reg(x, 0)] if *x == r => {
                Some((st.clone(), i))
            }
            _ => None,
        }
    };
    let swap = |c: Cmp| match c {
        Cmp::Lt => Cmp::Gt,
        Cmp::Le => Cmp::Ge,
        Cmp::Gt => Cmp::Lt,
        Cmp::Ge => Cmp::Le,
        other => other,
    };
    let (iv, (step, at), bound, cmp) = match (a, c) {
        (Src::Reg(r, 0), b) if invariant(b) => (*r, step_of(*r)?, b.clone(), cmp),
        (b, Src::Reg(r, 0)) if invariant(b) => (*r, step_of(*r)?, b.clone(), swap(cmp)),
        _ => return None,
    };
    Some(CountedLoop {
        head: head as u32,
        back: back as u32,
        iv,
        step,
        bound,
        cmp,
        ty: alu.ty,
        stepped: at < s,
        negated,
    })
}

/// How far before a loop's head the back edge of NVVM's remainder loop
/// may lie for the loop to count as NVVM's unrolled body (the remainder
/// loop's exit test and the body's pointer set-up lie between them).
const REMAINDER_GAP: usize = 48;

/// True when a `.pragma "nounroll"` loop ends shortly before `head`: the
/// loop at `head` is then the body NVVM unrolled by 4, whose remainder
/// loop it runs first (`for (j = lane; j < n; j += 32)` compiled by nvcc:
/// the `lt_*` probes).
fn after_remainder_loop(low: &Lowered<'_>, head: usize) -> bool {
    let from = head.saturating_sub(REMAINDER_GAP);
    (from..head).any(|b| {
        let OpKind::Branch {
            target: Some(t), ..
        } = &low.ops[b].kind
        else {
            return false;
        };
        let t = t.0 as usize;
        t < b && (t + 1..b).any(|i| low.mnemonics.get(i).is_some_and(|m| m.contains("nounroll")))
    })
}

/// True when every memory instruction of the loop body `body` addresses a
/// register the loop steps by an immediate (a pointer induction
/// variable) or does not write, plus an immediate. ptxas unrolls NVVM's
/// unrolled body again only then: `lt_copy_base128` and
/// `tests/hw/blind5` `ln_bwd_fused`'s zeroing loop (measured: 26,320
/// requests, the PTX loop's), whose addresses are recomputed from the
/// counter every trip, are not unrolled again; `lt_copy`, `lt_f4` and the
/// held-out batches' re-unrolled loops step pointers.
fn pointer_addresses(
    low: &Lowered<'_>,
    body: std::ops::Range<usize>,
    writes: &dyn Fn(Reg) -> usize,
) -> bool {
    let stepped = |r: Reg| {
        body.clone().any(|i| {
            let op = &low.ops[i];
            matches!(&op.kind, OpKind::Alu { alu, dst, srcs, .. }
                if *dst == r
                    && alu.op == AluOp::Add
                    && op.guard.is_none()
                    && matches!(srcs.as_slice(),
                        [Src::Reg(x, 0), Src::Imm(_)] | [Src::Imm(_), Src::Reg(x, 0)] if *x == r))
        }) && writes(r) == 1
    };
    body.clone().all(|i| {
        let OpKind::Mem { info, .. } = &low.ops[i].kind else {
            return true;
        };
        std::iter::once(&info.addr)
            .chain(info.aux(crate::ir::Aux::SharedDst))
            .all(|a| match a {
                Src::Reg(r, _) => writes(*r) == 0 || stepped(*r),
                Src::Var(..) | Src::Imm(_) => true,
                _ => false,
            })
    })
}

/// A register value of `bits` bits as a signed integer.
fn signed(v: i64, bits: u32) -> i128 {
    if bits >= 64 {
        v as i128
    } else {
        let sh = 64 - bits;
        ((v << sh) >> sh) as i128
    }
}

/// The trips a lane runs through the loop `l` entered with its induction
/// variable at `iv`, its step `step` and its bound `bound` (register
/// values, of the comparison's width): at least one (the loop is a
/// do-while; the PTX guards it before), then one more for each back edge
/// taken. `None` when the comparison would see the induction variable wrap
/// around before the loop ends, when the step is zero, or above
/// [`MAX_TRIPS`].
pub fn trips(l: &CountedLoop, iv: i64, step: i64, bound: i64) -> Option<u64> {
    let bits = l.ty.bits;
    if !(1..=64).contains(&bits) {
        // No compare of another width is an induction test ptxas counts.
        return None;
    }
    let (iv, step, bound) = (signed(iv, bits), signed(step, bits), signed(bound, bits));
    if step == 0 {
        return None;
    }
    let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1);
    // Does the back edge after trip k (0-based) go back? `None`: the value
    // compared leaves the type's range (wraps).
    let again = |k: i128| -> Option<bool> {
        let v = iv + (k + i128::from(l.stepped)) * step;
        if v < lo || v > hi {
            return None;
        }
        let c = match l.cmp {
            Cmp::Lt => v < bound,
            Cmp::Le => v <= bound,
            Cmp::Gt => v > bound,
            Cmp::Ge => v >= bound,
            _ => return None,
        };
        Some(c != l.negated)
    };
    // The comparison is monotone in k while nothing wraps: the first k at
    // which the loop stops, by doubling then bisection.
    if !again(0)? {
        return Some(1);
    }
    // The last k whose compared value is in range: the search never probes
    // past it, so a loop that stops before the wrap is counted.
    let in_range = if step > 0 {
        (hi - iv) / step
    } else {
        (iv - lo) / -step
    } - i128::from(l.stepped);
    let mut ok = 0i128; // again(ok) holds
    let mut stop = 1i128.min(in_range);
    while again(stop)? {
        if stop >= in_range {
            // Still going at the last value in range: the next one wraps.
            return None;
        }
        ok = stop;
        stop = (stop * 2).min(in_range);
        if stop > MAX_TRIPS {
            return None;
        }
    }
    while stop - ok > 1 {
        let mid = (ok + stop) / 2;
        if again(mid)? {
            ok = mid;
        } else {
            stop = mid;
        }
    }
    Some(stop as u64 + 1)
}

/// The first pass over the loop body at or after `from`, in the order
/// ptxas's unrolled code runs them, that some lane of `lanes` runs, and its
/// lanes; `trips[l]` is lane `l`'s trip count. Passes `0 .. 4Q` (`Q` the
/// largest `⌊t/4⌋`) are the copies of the 4-copy loop, the lanes with
/// `⌊t/4⌋` above the loop's trip `p / 4`; passes `4Q` and `4Q + 1` the
/// 2-copy block, the lanes with `t mod 4 ≥ 2`; pass `4Q + 2` the last
/// copy, the lanes with `t` odd. Each lane runs exactly `t` passes.
pub fn next_pass(trips: &[u64; 32], lanes: u32, from: u64) -> Option<(u64, u32)> {
    let each = |f: &dyn Fn(u64) -> bool| -> u32 {
        (0..32)
            .filter(|&l| lanes & (1 << l) != 0 && f(trips[l]))
            .fold(0u32, |m, l| m | (1 << l))
    };
    let q = (0..32)
        .filter(|&l| lanes & (1 << l) != 0)
        .map(|l| trips[l] / FACTOR)
        .max()?;
    let mut p = from;
    while p < FACTOR * q + 3 {
        let m = if p < FACTOR * q {
            let trip = p / FACTOR;
            each(&|t| t / FACTOR > trip)
        } else if p < FACTOR * q + 2 {
            each(&|t| t % FACTOR >= 2)
        } else {
            each(&|t| t % 2 == 1)
        };
        if m != 0 {
            return Some((p, m));
        }
        p += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Requests per access of a warp with these trip counts.
    fn passes(t: &[u64; 32]) -> Vec<u32> {
        let mut out = Vec::new();
        let mut p = 0;
        while let Some((q, m)) = next_pass(t, u32::MAX, p) {
            out.push(m);
            p = q + 1;
        }
        out
    }

    #[test]
    fn lanes_of_4_and_3_trips_issue_7_requests() {
        // blind10 swa_softmax_w100: lanes 0..3 take 4 trips, the others 3
        // (tests/hw/blind10/known.txt: 7 requests a warp measured).
        let t: [u64; 32] = std::array::from_fn(|l| if l < 4 { 4 } else { 3 });
        let p = passes(&t);
        assert_eq!(p.len(), 7);
        assert_eq!(&p[..4], &[0xf; 4]);
        assert_eq!(&p[4..6], &[!0xfu32; 2]);
        assert_eq!(p[6], !0xfu32);
        // Every lane runs each of its trips once.
        for (l, &tl) in t.iter().enumerate() {
            let runs = p.iter().filter(|m| *m & (1 << l) != 0).count() as u64;
            assert_eq!(runs, tl);
        }
    }

    #[test]
    fn equal_trips_issue_the_trip_count() {
        for t in 1..20u64 {
            let p = passes(&[t; 32]);
            assert_eq!(p.len() as u64, t);
            assert!(p.iter().all(|&m| m == u32::MAX));
        }
    }

    #[test]
    fn nvvm_unrolled_rows_of_2_and_1_trips() {
        // blind8 fp8_rowquant_e4m3: NVVM's 4-copy body runs 2 trips in
        // lanes 0..25 and 1 in 26..31: ptxas's 8-copy block (2 trips) and
        // 4-copy block (1 trip): 3 passes where the PTX loop has 2.
        let t: [u64; 32] = std::array::from_fn(|l| if l < 26 { 2 } else { 1 });
        assert_eq!(
            passes(&t),
            vec![(1 << 26) - 1, (1 << 26) - 1, !((1u32 << 26) - 1)]
        );
    }

    #[test]
    fn trip_counts_of_a_counted_loop() {
        let l = CountedLoop {
            head: 0,
            back: 1,
            iv: 0,
            step: Src::Imm(32),
            bound: Src::Imm(0),
            cmp: Cmp::Le,
            ty: Ty {
                bits: 32,
                signed: true,
                float: false,
            },
            stepped: true,
            negated: false,
        };
        // for (j = j0; j <= i; j += 32): ceil((i - j0 + 1) / 32) trips.
        for (j0, i) in [(0, 99), (3, 99), (4, 99), (31, 99), (99, 99), (0, 1000)] {
            let want = ((i - j0 + 1) as u64).div_ceil(32);
            assert_eq!(trips(&l, j0, 32, i), Some(want), "{j0} {i}");
        }
        // A bound at the top of the range: the induction variable would
        // wrap before the loop ends.
        assert_eq!(trips(&l, 0, 32, i32::MAX as i64), None);
        // Negative values in 32-bit registers (zero-extended).
        assert_eq!(trips(&l, (-64i32) as u32 as i64, 32, 0), Some(3));
        assert_eq!(trips(&l, 0, 0, 5), None);
        // 16 bits, step 1000, j <= 20000: 21 trips although the search's
        // doubling (32 trips: 33000) would leave the range; a bound the
        // values reach only past the range's last value wraps.
        let l16 = CountedLoop {
            ty: Ty { bits: 16, ..l.ty },
            ..l.clone()
        };
        assert_eq!(trips(&l16, 0, 1000, 20000), Some(21));
        assert_eq!(trips(&l16, 0, 1000, 32767), None);
        // Counting down: j >= -20000, j -= 1000.
        let down = CountedLoop {
            cmp: Cmp::Ge,
            ..l16.clone()
        };
        assert_eq!(trips(&down, 0, -1000, -20000), Some(21));
        // A width that is not a register's.
        let wide = CountedLoop {
            ty: Ty { bits: 128, ..l.ty },
            ..l.clone()
        };
        assert_eq!(trips(&wide, 0, 1, 5), None);
    }
}
