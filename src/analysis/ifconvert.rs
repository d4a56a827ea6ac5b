//! ptxas's if-conversion: which guarded PTX blocks ptxas predicates instead
//! of branching around, as read off its SASS.
//!
//! # The question
//!
//! A forward conditional `bra` over a block is, in the SASS, either a
//! branch (`@P BRA`: a warp whose lanes all skip the block issues none of
//! its instructions) or the block itself under the branch's predicate
//! (if-conversion: every warp issues the block's memory instructions, with
//! no lane where the guard is off, and Nsight counts each as a request).
//! The launch simulation (`totals`) asks this module which it is.
//!
//! # The rule (`tests/hw/ifconv/README.md`: 340 probes compiled by ptxas)
//!
//! [`if_convertible`]: a forward PTX `bra` over straight-line code (no
//! label, branch, exit, call or barrier; no instruction that ptxas expands
//! with a slow-path call, [`slow_path_call`]) whose target is not an exit,
//! and
//!
//! - whose cost, estimated in SASS instructions ([`sass_cost`]: `cvta`,
//!   register moves, `ld.param` and an immediate added to an address
//!   ([`folded_offset`]) cost nothing, 64-bit arithmetic two, the
//!   approximate `rcp`, `sqrt` and `ex2` without `.ftz` several), is at most
//!   [`IF_CONVERT_SMALL`] (about 8 SASS instructions: a shared tree level
//!   `if (tid < s) t[b] += t[a]` is predicated, `tree_*`) when the block
//!   has no long-latency access
//!   ([`long_latency`]: a global load or an atomic), or
//! - at most [`IF_CONVERT_MAX`] when it has one and another access can
//!   overlap its latency ([`overlapping_access`]: a load or barrier after
//!   it, a load before it that the guard does not read, the other blocks of
//!   a run of guarded blocks).
//!
//! An if/else diamond ([`diamond`]: the then-side ends with `bra` over the
//! else-side to the join, or, NVVM's other layout, the taken arm comes
//! first: `@p bra A; bra.uni B; A: ..; bra.uni J; B: ..; J:`) has both
//! sides predicated when each is straight-line, holds no global atomic and is
//! within [`IF_CONVERT_MAX`], whatever follows (an if-then laid out taken arm
//! first, `@p bra A; bra.uni B; A: ..; B:`, is the block `@!p` skips, under
//! the rule above, with an empty fall-through arm): a warp whose lanes all
//! take the branch issues the other arm with no lane
//! ([`if_converted_accesses`]), one whose lanes all fall through issues
//! the taken arm so ([`fall_through_accesses`]).
//!
//! Whatever the guard: a warp-uniform one is converted the same way (the
//! `seq*_uniform_*` probes; `moe_unpermute_reduce` in `tests/hw/blind4`,
//! whose remainder block is guarded by a parameter). [`if_converted_accesses`]
//! lists the memory instructions a warp issues with no lane when it skips
//! such a block; [`predicated_accesses`] all the accesses of a function the
//! rule predicates (what `tests/ifconv_probes.rs` compares with the SASS).
//! [`memory_free_block`] recognises the blocks without memory accesses that
//! the simulation may step over whatever their guard.
//!
//! # Soundness and limits
//!
//! This is a model of a compiler's heuristic, not a semantic property: it
//! is checked against the SASS ptxas emits for the probes (725 of 771
//! accesses agree, on the function with ptxas's merges applied:
//! `driver::as_compiled`) and the H100's counts of the held-out batches
//! (`tests/hw/blind*`). A wrong answer changes request counts (requests
//! with no lane), never sectors or lines. The cost estimate is one or two
//! SASS instructions off at the limit for some blocks (`seq*_wide7`); the
//! loops ptxas itself unrolls are `unroll`'s (`tests/hw/unroll_probes`). A diamond's arms are charged lane-less
//! requests where the simulation sees a whole warp take, or fall through,
//! its conditional branch ([`if_converted_accesses`],
//! [`fall_through_accesses`]); a diamond on a guard it does not know runs
//! as before (each lane on its own arm, no lane-less request). The
//! taken-arm-first layout keeps its branch one SASS instruction sooner
//! than the estimate says (`diamond_tf_16_16`, `known.txt`). Blocks of
//! parallel address chains (`blocks.py`, stop 32: cp.async, loads,
//! stores, in straight-line code and loops) keep the same limits (1,529 of
//! 1,556 accesses agree, `blocks_known.txt`). Not modelled: a lone global
//! load is also predicated when a store of another value follows the join
//! before the loaded value is read (`sb_*`; the IR does not keep a global
//! store's value), and the copies of a GEMM main loop are predicated
//! whatever their size (`cutlass_delta.txt`: the cause was not found).
//! Conversions (integer, f32, f64, f16, bf16) and FP64 arithmetic cost one
//! SASS instruction each and keep no branch by themselves (`convert.py`,
//! stop 33: 1,342 of 1,484 accesses agree, `convert_known.txt`). The last
//! block of an if/else arm that jumps over the other arm has nothing
//! before it to overlap, and the scan after a block follows such a jump
//! ([`overlapping_access`], the `arm_ff_*` probes). Not modelled: a lone
//! block before the kernel's exit, which ptxas predicates or branches by
//! details no rule fitted (hoisted addresses, the if/else around it:
//! `tests/hw/blind14` `thrust_counting_transform`, whose partial tile is
//! predicated without the if/else around it and branched in its
//! else-arm), and runs predicated in pairs (`arm_none_epi_b3`).
//! The
//! scans for overlapping accesses and the guard comparisons look at most
//! [`SCAN_MAX`] ops each way, so the rule costs a bounded amount per
//! skipped block.

use super::memops;
use crate::ir::{Function as Lowered, OpKind, Src};

/// True when the code a branch at `b` to `t` skips is straight-line code
/// without memory accesses: `t` comes after `b`, and between them there is
/// no label (no other way in), branch, exit, call or memory access.
pub(crate) fn memory_free_block(low: &Lowered<'_>, b: u32, t: u32) -> bool {
    t > b
        && low.ops.get(b as usize + 1..t as usize).is_some_and(|ops| {
            ops.iter().all(|o| {
                o.form != crate::ir::Form::Label
                    && !matches!(
                        o.kind,
                        OpKind::Branch { .. }
                            | OpKind::Exit
                            | OpKind::Call { .. }
                            | OpKind::Mem { .. }
                    )
            })
        })
}

/// What a block may cost at most, in [`sass_cost`] units, for ptxas to
/// predicate it when its accesses can overlap others ([`overlapping_access`]):
/// `tests/hw/ifconv/README.md`: the blocks of `seq*_alu16`, `seqsh*_alu12`,
/// `seq2_stg_alu16` (20 units) are predicated, those of `seq*_alu17`,
/// `seqsh*_alu13`, `seq2_acc2_alu16` (21) branched.
const IF_CONVERT_MAX: usize = 20;

/// What a block without a long-latency access ([`long_latency`]) may cost
/// at most for ptxas to predicate it with nothing to overlap, about 8 SASS
/// instructions: the `tree_*` probes (shared tree levels: 8 units and 8
/// SASS instructions predicated, 9 branched), `st_alu*`, `c_shared_alu*`
/// and `c_stshared_alu*` (6 and 7 predicated, 10 branched).
const IF_CONVERT_SMALL: usize = 8;

/// An estimate of the SASS instructions op `i` of the block that the branch
/// at `b` skips to `t` becomes: 0 for what ptxas folds away (`cvta.to` of a
/// parameter, a `mov` of a register, symbol or immediate and the unpacking
/// of a register pair, `ld.param`, a truncating `cvt`, an integer `add` of
/// a product or shift computed in the block, which becomes one `IMAD.WIDE`
/// or `LEA` with it, an integer `add` of an immediate read only as
/// addresses, [`folded_offset`]), 3 for the address of a shared variable (the shared
/// window, `S2UR SR_CgaCtaId; UMOV; ULEA`, which ptxas hoists out of the
/// block only after deciding: `seqsh*`, `c_shared_alu*`; once per block, for
/// the first `mov` of a variable's address or access at a variable's
/// address, `sym_ld*`), 16 for a 32-bit
/// integer division or remainder (the `div_u32` probe: 23 SASS
/// instructions), 2 for 64-bit integer arithmetic (4 for a 64-bit
/// product), 10, 6 and 3 for `rcp`, `sqrt` and `ex2` `.approx` without
/// `.ftz` (`convert.py`'s `co1_*`: `MUFU` and the scaling of subnormals),
/// 1 otherwise (the `cvta*_alu*` probes; each conversion and FP64
/// instruction, `convert.py`).
fn sass_cost(low: &Lowered<'_>, b: u32, t: u32, i: usize) -> usize {
    let m = low.mnemonics.get(i).copied().unwrap_or("");
    let Some(op) = low.ops.get(i) else { return 0 };
    if matches!(op.kind, OpKind::LdParam { .. })
        || m.starts_with("cvta")
        || folded_offset(low, t, i)
    {
        return 0;
    }
    let srcs: &[Src] = match &op.kind {
        OpKind::Alu { srcs, .. } | OpKind::Other { srcs, .. } => srcs,
        _ => &[],
    };
    // The shared window (`S2UR SR_CgaCtaId; UMOV; ULEA`), once per block:
    // for the first `mov` of a shared variable's address (whatever came
    // before: `tests/hw/blind5` `fa2_fwd_tile`'s guarded tile stores, each
    // with its `mov` of `sQ`, are branched around), or the first access
    // addressing one directly (`ld.shared.f32 %f2, [part+4]`: the window
    // and an `LDS.128 [UR4]`, a block ptxas branches around at 9 SASS
    // instructions, stop 42) unless the window is computed before the block
    // ([`window_ready`]).
    let direct = matches!(&op.kind, OpKind::Mem { .. });
    let window = if uses_window(low, i)
        && !(b as usize + 1..i).any(|j| uses_window(low, j))
        && !(direct && window_ready(low, b))
    {
        3
    } else {
        0
    };
    if m.starts_with("mov") {
        if uses_window(low, i) {
            return window;
        }
        if !srcs.iter().any(|s| matches!(s, Src::Special(_))) {
            return 0;
        }
    }
    let mut parts = m.split('.');
    let head = parts.next().unwrap_or("");
    // The type suffixes (`s32`, `u64`, `f32`, `b64`), not the modifiers.
    let types: Vec<&str> = parts
        .filter(|t| {
            t.len() > 1
                && t.starts_with(['s', 'u', 'b', 'f'])
                && t[1..].bytes().all(|c| c.is_ascii_digit())
        })
        .collect();
    let int = |t: &&str| !t.starts_with('f');
    if head == "cvt" {
        if let [to, from] = types.as_slice() {
            if int(to) && int(from) && to.ends_with("32") && from.ends_with("64") {
                return 0;
            }
        }
    }
    if (head == "div" || head == "rem") && types.iter().any(|t| *t == "s32" || *t == "u32") {
        return 16;
    }
    // The approximate special functions without `.ftz`: `MUFU` with the
    // scaling of subnormal inputs and results around it (`convert.py`'s
    // `co1_*`: an `rcp.approx.f32` is about 8 SASS instructions, a
    // `sqrt.approx.f32` 6, an `ex2.approx.f32` 2 to 6).
    if m.contains(".approx") && !m.contains(".ftz") {
        match head {
            "rcp" => return 10,
            "sqrt" => return 6,
            "ex2" => return 3,
            _ => {}
        }
    }
    let wide = types.iter().any(|t| t.ends_with("64")) && types.iter().all(int);
    if head == "add" && types.iter().all(int) {
        // The first add of a product or shift computed in the block.
        let fused = srcs.iter().any(|s| {
            let Src::Reg(r, _) = s else { return false };
            (b as usize + 1..i).any(|j| {
                let pm = low.mnemonics.get(j).copied().unwrap_or("");
                (pm.starts_with("mul.wide") || pm.starts_with("mul.lo") || pm.starts_with("shl"))
                    && low.ops.get(j).is_some_and(|o| o.kind.dsts().contains(r))
                    && !(j + 1..i).any(|k| {
                        low.mnemonics.get(k).is_some_and(|m| m.starts_with("add"))
                            && reads(low, k, *r)
                    })
            })
        });
        if fused {
            return 0;
        }
    }
    window
        + match head {
            // 64-bit integer arithmetic is two 32-bit instructions, a 64-bit
            // product four (`IMAD.WIDE.U32`, two `IMAD`, an `IADD3` of the
            // high words: `stencil25d_r2` in `tests/hw/blind4`); `mul.wide`
            // is one `IMAD.WIDE`.
            "mul" if wide && !m.starts_with("mul.wide") => 4,
            "add" | "sub" | "shl" | "shr" | "and" | "or" | "xor" | "not" | "neg" | "min"
            | "max" | "mad"
                if wide =>
            {
                2
            }
            _ => 1,
        }
}

/// Whether op `i`, before `t`, is an integer `add` (or `sub`) of a register
/// and an immediate whose result is read only as the address of memory
/// accesses up to `t` and not after it: ptxas folds the immediate into
/// each access's offset (`LDS R, [R0+-0x4]`) and the op disappears. NVVM
/// writes such an add before every access of a shared tree level
/// (`add.s32 %r49, %r23, -4`: blind8's `blelloch_nopad`, whose SASS has no
/// instruction for them); the `tree_*` probes of `tests/hw/ifconv`: the
/// three or four adds cost nothing, and the same add also read by a
/// `mul.lo` costs its `IADD3` (`tree_*_used_*`).
fn folded_offset(low: &Lowered<'_>, t: u32, i: usize) -> bool {
    let m = low.mnemonics.get(i).copied().unwrap_or("");
    if !(m.starts_with("add.") || m.starts_with("sub.")) || m.contains(".f") || m.contains(".cc") {
        return false;
    }
    let Some(OpKind::Alu { dst, srcs, .. }) = low.ops.get(i).map(|o| &o.kind) else {
        return false;
    };
    let r = *dst;
    // `imm - reg` is no offset.
    let add = m.starts_with("add.");
    let reg_imm = match srcs.as_slice() {
        [Src::Reg(x, _), Src::Imm(_)] => *x != r,
        [Src::Imm(_), Src::Reg(x, _)] => add && *x != r,
        _ => false,
    };
    if !reg_imm {
        return false;
    }
    let mut as_address = false;
    let end = (t as usize).saturating_add(SCAN_MAX).min(low.ops.len());
    for k in i + 1..end {
        let o = &low.ops[k];
        let in_block = k < t as usize;
        let read_as_value = match &o.kind {
            OpKind::Mem { info, .. } => {
                let at = matches!(info.addr, Src::Reg(x, _) if x == r);
                as_address |= at;
                // a value stored to local memory is read as a value
                let stored = info
                    .stored()
                    .any(|v| matches!(v, Src::Reg(x, _) if *x == r));
                (at && (!in_block || info.has_ext_facts())) || stored
            }
            OpKind::Alu { srcs, .. }
            | OpKind::Other { srcs, .. }
            | OpKind::PredLogic { srcs, .. } => srcs
                .iter()
                .any(|s| matches!(s, Src::Reg(x, _) | Src::NotPred(x) if *x == r)),
            OpKind::Call { call, .. } => call
                .args
                .iter()
                .any(|s| matches!(s, Src::Reg(x, _) if *x == r)),
            _ => false,
        };
        if read_as_value {
            return false;
        }
        // Written again: the value read later is another one.
        if o.kind.dsts().contains(&r) {
            break;
        }
    }
    as_address
}

/// Whether op `k` reads register `r`.
fn reads(low: &Lowered<'_>, k: usize, r: crate::ir::Reg) -> bool {
    let srcs: &[Src] = match low.ops.get(k).map(|o| &o.kind) {
        Some(OpKind::Alu { srcs, .. } | OpKind::Other { srcs, .. }) => srcs,
        _ => &[],
    };
    srcs.iter().any(|s| matches!(s, Src::Reg(x, _) if *x == r))
}

/// A load from global, local, constant or generic memory, or an atomic: an
/// access whose latency ptxas will not wait for in every warp unless other
/// accesses overlap it (`alu*`, `c_load2_*`, `c_atom_*`, `c_red_*`: alone
/// before the kernel's end, even the shortest such block stays a branch;
/// shared loads and stores do not: `c_shared_alu0`, `st_alu4`). A
/// `cp.async` (`LDGSTS`) reads global memory too: measured on the H100,
/// ptxas predicates the guarded copy of a pipeline's next stage
/// (`tests/hw/blind5`: `cp_async_pipe4_ca4`'s `if (nk < tiles)` copy issues
/// in every iteration, 31,296 requests; `cutlass_gemm_ms3`'s stage load,
/// `@!P LDGSTS`).
fn long_latency(kind: &OpKind) -> bool {
    match kind {
        OpKind::Mem { info, .. } if info.kind == crate::ir::MemKind::AsyncCopy => true,
        OpKind::Mem { info, .. } => {
            let per_lane = matches!(
                info.kind,
                crate::ir::MemKind::Plain
                    | crate::ir::MemKind::Atomic
                    | crate::ir::MemKind::Reduction
            );
            per_lane
                && match info.op {
                    crate::ir::AccessOp::Atomic => true,
                    crate::ir::AccessOp::Load => info.space != crate::ir::Space::Shared,
                    crate::ir::AccessOp::Store => false,
                }
        }
        _ => false,
    }
}

/// Whether the block that the branch at `b` skips to `t` has an access to
/// overlap with, which is when ptxas predicates blocks of up to
/// [`IF_CONVERT_MAX`]: a load, an atomic or a barrier after the block
/// before the kernel's end (`one_then_load_*`, `one_then_bar_*`, every
/// block of `seq*` but the last; not stores or arithmetic:
/// `one_then_store_*`, `one_then_alu_*`), or a load before the branch, back
/// to the previous branch, whose value the guard does not depend on (the
/// last block of `seq*`, where the loads of the blocks before it overlap;
/// not `g_loaded_*`, whose guard is the loaded value). In an if/else arm
/// that ends with a jump over the other arm the scan after the block
/// follows the jump (the other arm's loads are not the lanes'), and the
/// arm's last block has no loads before it to overlap (`arm_ff_*` in
/// `tests/hw/ifconv/convert.txt`: `B`, `BB`, `PPB` where the same runs in
/// straight-line code are `B`, `PP`, `PPB`).
fn overlapping_access(low: &Lowered<'_>, b: u32, t: u32) -> bool {
    let loads = |o: &crate::ir::Op| match &o.kind {
        OpKind::Mem { info, .. } => info.op != crate::ir::AccessOp::Store,
        _ => false,
    };
    let mut i = t as usize;
    let end = (t as usize).saturating_add(SCAN_MAX);
    while let Some(o) = low.ops.get(i).filter(|_| i < end) {
        match o.kind {
            OpKind::Exit if o.guard.is_none() => break,
            OpKind::Nop if low.mnemonics.get(i).is_some_and(|m| m.starts_with("bar")) => {
                return true
            }
            // A block under the same guard: ptxas joins it to this one
            // (`seq*_same_*`), its loads are not overlapped.
            OpKind::Branch {
                target: Some(u), ..
            } if u.0 as usize > i && same_guard(low, b, i as u32) => {
                i = u.0 as usize;
                continue;
            }
            // The end of an if/else arm: the lanes go on at the join, the
            // other arm's accesses are not theirs (`arm_ff_*_b1`).
            OpKind::Branch {
                target: Some(u), ..
            } if o.guard.is_none() && u.0 as usize > i => {
                i = u.0 as usize;
                continue;
            }
            _ if loads(o) => return true,
            _ => {}
        }
        i += 1;
    }
    // The last block of an if/else arm that jumps over the other arm: the
    // loads before it do not count (`arm_ff_*`: its last block stays a
    // branch, as a run's last block before the kernel's exit does).
    if ends_arm(low, t) {
        return false;
    }
    // The registers the guard depends on, followed back through the
    // straight-line code before the branch.
    let mut needed: Vec<crate::ir::Reg> = low
        .ops
        .get(b as usize)
        .and_then(|o| o.guard)
        .map(|(g, _)| vec![g])
        .unwrap_or_default();
    let mut found = false;
    for i in (0..b as usize).rev().take(SCAN_MAX) {
        let o = &low.ops[i];
        if matches!(
            o.kind,
            OpKind::Branch { .. } | OpKind::Exit | OpKind::Call { .. }
        ) {
            // The loads found are in a block under the same guard
            // (`seq*_same_*`): not overlapped.
            return found && !same_guard(low, b, i as u32);
        }
        let dsts = o.kind.dsts();
        let feeds = dsts.iter().any(|d| needed.contains(d));
        found |= loads(o) && !feeds;
        if feeds && needed.len() < 64 {
            let srcs: &[Src] = match &o.kind {
                OpKind::Alu { srcs, .. }
                | OpKind::Other { srcs, .. }
                | OpKind::PredLogic { srcs, .. } => srcs,
                _ => &[],
            };
            for s in srcs {
                if let Src::Reg(r, _) | Src::NotPred(r) = s {
                    needed.push(*r);
                }
            }
        }
    }
    found
}

/// Whether the code at `t` (labels and directives skipped) is an
/// unconditional forward jump: the end of an if/else arm.
fn ends_arm(low: &Lowered<'_>, t: u32) -> bool {
    for (i, o) in low.ops.iter().enumerate().skip(t as usize) {
        match (&o.kind, o.form) {
            (_, crate::ir::Form::Label | crate::ir::Form::Other) => continue,
            (
                OpKind::Branch {
                    target: Some(u), ..
                },
                _,
            ) => return o.guard.is_none() && u.0 as usize > i,
            _ => return false,
        }
    }
    false
}

/// Ops at most that [`overlapping_access`] looks at on each side of a
/// block (it runs whenever the simulation sees a warp skip a block).
const SCAN_MAX: usize = 512;

/// Whether the shared window is computed before the branch at `b` on every
/// path to it: an unguarded `mov` of a shared variable's address or access
/// at one before `b` that no forward branch from before it skips to a
/// point up to `b` (so that it dominates `b`), within [`SCAN_MAX`] ops.
/// ptxas then keeps the window in a register for a guarded block's accesses
/// at a variable's address (`tests/hw/blind8` `st_async_peer`: `if (tid ==
/// 0) out[..] = counter` after `recv[tid]` is predicated; `tests/hw/blind10`
/// `bn_stats_nchw`), where `sym_ld4`, with no window before, is branched.
fn window_ready(low: &Lowered<'_>, b: u32) -> bool {
    let b = b as usize;
    let lo = b.saturating_sub(SCAN_MAX);
    // Forward branches within the scan that land after their source and
    // at or before `b`: what lies between may be skipped.
    let skips: Vec<(usize, usize)> = (lo..b)
        .filter_map(|k| match low.ops.get(k).map(|o| &o.kind) {
            Some(OpKind::Branch {
                target: Some(t), ..
            }) if (t.0 as usize) > k + 1 => Some((k, t.0 as usize)).filter(|&(_, t)| t <= b),
            _ => None,
        })
        .collect();
    (lo..b).rev().any(|j| {
        uses_window(low, j)
            && low.ops.get(j).is_some_and(|o| o.guard.is_none())
            && !skips.iter().any(|&(k, t)| k < j && j < t)
    })
}

/// Whether op `j` needs the shared window: a `mov` of a shared variable's
/// address, or an access addressing one directly.
fn uses_window(low: &Lowered<'_>, j: usize) -> bool {
    let shared = |s: &Src| {
        matches!(s, Src::Var(v, _) if low
            .vars
            .get(*v as usize)
            .is_some_and(|v| v.space == crate::ir::Space::Shared))
    };
    match low.ops.get(j).map(|o| &o.kind) {
        Some(OpKind::Alu { srcs, .. } | OpKind::Other { srcs, .. }) => {
            low.mnemonics.get(j).is_some_and(|m| m.starts_with("mov")) && srcs.iter().any(shared)
        }
        Some(OpKind::Mem { info, .. }) => shared(&info.addr),
        _ => false,
    }
}

/// Whether the branches at `a` and `b` have guards of the same value: the
/// same predicate register and negation (the cheap test, enough for PTX
/// whose registers are written once), defined by the same computation.
fn same_guard(low: &Lowered<'_>, a: u32, b: u32) -> bool {
    let guard = |i: u32| low.ops.get(i as usize).and_then(|o| o.guard);
    match (guard(a), guard(b)) {
        (Some(x), Some(y)) if x == y => guard_key(low, a) == guard_key(low, b),
        _ => false,
    }
}

/// What the guard of the branch at `b` computes, as a key two guards with
/// the same value share: its negation and its definition, followed back
/// through the registers it reads (4 definitions deep). `None` without a
/// guard.
fn guard_key(low: &Lowered<'_>, b: u32) -> Option<(bool, String)> {
    let (g, neg) = low.ops.get(b as usize)?.guard?;
    Some((neg, value_key(low, g, b as usize, 4)))
}

/// The definition of register `r` last written before op `before`, as text.
fn value_key(low: &Lowered<'_>, r: crate::ir::Reg, before: usize, depth: u32) -> String {
    let def = (0..before.min(low.ops.len()))
        .rev()
        .take(SCAN_MAX)
        .find(|&j| low.ops[j].kind.dsts().contains(&r));
    let Some(j) = def.filter(|_| depth > 0) else {
        return format!("%{r}");
    };
    let srcs: &[Src] = match &low.ops[j].kind {
        OpKind::Alu { srcs, .. } | OpKind::Other { srcs, .. } | OpKind::PredLogic { srcs, .. } => {
            srcs
        }
        _ => return format!("%{r}@{j}"),
    };
    let args: Vec<String> = srcs
        .iter()
        .map(|s| match s {
            Src::Reg(x, off) => format!("{}+{off}", value_key(low, *x, j, depth - 1)),
            Src::NotPred(x) => format!("!{}", value_key(low, *x, j, depth - 1)),
            other => format!("{other:?}"),
        })
        .collect();
    format!(
        "{}({})",
        low.mnemonics.get(j).copied().unwrap_or(""),
        args.join(",")
    )
}

/// The memory instructions of the block that the conditional branch at `b`
/// skips, when ptxas if-converts it ([`if_convertible`]), whatever its guard
/// (finding 17's uniform guards that stay branches are guards of single
/// instructions, `memops::guard_off_issues`; a block under a uniform guard
/// is predicated like any other: the `seq*_uniform_*` probes, the third
/// remainder copy of `moe_unpermute_reduce` in `tests/hw/blind4`, whose
/// `topk`-based guard is `@P1 LDG`). ptxas then emits the block's instructions under the guard's
/// predicate, so a warp in which every lane skips the block still issues
/// each access once, with no lane (measured on the H100: `cub_block_reduce`,
/// `block_scan_incl`, `conv1d_smem`, `im2col_k3`, `stencil2d_smem` in
/// `tests/hw/blind/measured.json`: every warp issues the guarded loads,
/// including warps where the guard is off in every lane).
pub(crate) fn if_converted_accesses(low: &Lowered<'_>, b: u32, t: u32) -> Vec<u32> {
    let Some(op) = low.ops.get(b as usize) else {
        return Vec::new();
    };
    let accesses = |from: u32, to: u32| -> Vec<u32> {
        (from..to)
            .filter(|&i| {
                matches!(low.ops[i as usize].kind, OpKind::Mem { .. })
                    && memops::guard_off_issues(low, i as usize)
            })
            .collect()
    };
    if op.guard.is_none() {
        // Not the end of a diamond's then-side either: the lanes that jump
        // there over the else-side may be only a part of the warp, the
        // others running the else-side (then no request is lane-less).
        return Vec::new();
    }
    // Every lane of the warp takes a diamond's branch: the fall-through
    // arm's accesses issue with no lane.
    if let Some(d) = diamond(low, b, t) {
        return accesses(d.fall.0, d.fall.1);
    }
    let has_access = low
        .ops
        .get(b as usize + 1..t as usize)
        .is_some_and(|ops| ops.iter().any(|o| matches!(o.kind, OpKind::Mem { .. })));
    if !has_access
        || matches!(op.kind, OpKind::Branch { uniform: true, .. })
        || !if_convertible(low, b, t)
    {
        return Vec::new();
    }
    accesses(b + 1, t)
}

/// The memory instructions a warp issues with no lane when every lane falls
/// through the conditional branch at `b`: the taken arm's accesses of a
/// diamond ([`diamond`]: ptxas predicates both arms, so the warp issues the
/// arm its lanes do not run), none otherwise (a plain if-converted block is
/// run by the lanes that fall into it).
pub(crate) fn fall_through_accesses(low: &Lowered<'_>, b: u32) -> Vec<u32> {
    let Some(OpKind::Branch {
        target: Some(t), ..
    }) = low.ops.get(b as usize).map(|o| &o.kind)
    else {
        return Vec::new();
    };
    let Some(d) = diamond(low, b, t.0) else {
        return Vec::new();
    };
    (d.taken.0..d.taken.1)
        .filter(|&i| {
            matches!(low.ops[i as usize].kind, OpKind::Mem { .. })
                && memops::guard_off_issues(low, i as usize)
        })
        .collect()
}

/// The rule's answers per branch and target, for the launch simulation,
/// which asks again for every warp that reaches the branch (each answer
/// scans up to [`SCAN_MAX`] ops each way).
#[derive(Default)]
pub(crate) struct Memo {
    convertible: std::collections::HashMap<(u32, u32), bool>,
    accesses: std::collections::HashMap<(u32, u32), Vec<u32>>,
    sunk: std::collections::HashMap<u32, Option<(crate::ir::Reg, bool)>>,
    fall: std::collections::HashMap<u32, Vec<u32>>,
    /// The loads whose requests the simulation records at a tail op
    /// ([`memops::sunk_deferred`]), by tail op; computed once.
    deferred: Option<std::collections::HashMap<u32, Vec<u32>>>,
}

impl Memo {
    /// [`if_convertible`], once per branch.
    pub(crate) fn convertible(&mut self, low: &Lowered<'_>, b: u32, t: u32) -> bool {
        *self
            .convertible
            .entry((b, t))
            .or_insert_with(|| if_convertible(low, b, t))
    }

    /// [`fall_through_accesses`], once per branch.
    pub(crate) fn fall_through(&mut self, low: &Lowered<'_>, b: u32) -> &[u32] {
        self.fall
            .entry(b)
            .or_insert_with(|| fall_through_accesses(low, b))
    }

    /// The guard ptxas gives the unguarded load `i`: the tail op's when it
    /// sinks below the tail exit ([`memops::sunk_guard`]), else the
    /// select's when a `selp` picks between it and an earlier load
    /// ([`memops::select_guard`]); once per load.
    pub(crate) fn sunk_guard(
        &mut self,
        low: &Lowered<'_>,
        i: u32,
    ) -> Option<(crate::ir::Reg, bool)> {
        *self.sunk.entry(i).or_insert_with(|| {
            memops::sunk_guard(low, i as usize).or_else(|| memops::select_guard(low, i as usize))
        })
    }

    /// The loads whose requests the simulation records when a warp
    /// reaches tail op `k` ([`memops::sunk_deferred`]), in PTX order.
    pub(crate) fn deferred_to(&mut self, low: &Lowered<'_>, k: u32) -> &[u32] {
        self.deferred_map(low).get(&k).map_or(&[], Vec::as_slice)
    }

    /// True when load `i`'s request is recorded at its tail op instead.
    pub(crate) fn is_deferred(&mut self, low: &Lowered<'_>, i: u32) -> bool {
        let Some(k) = low.ops.get(i as usize).and_then(|o| match &o.kind {
            OpKind::Mem { info, .. } => info.sole_reader,
            _ => None,
        }) else {
            return false;
        };
        self.deferred_to(low, k.0).contains(&i)
    }

    fn deferred_map(&mut self, low: &Lowered<'_>) -> &std::collections::HashMap<u32, Vec<u32>> {
        self.deferred.get_or_insert_with(|| {
            let mut m: std::collections::HashMap<u32, Vec<u32>> = Default::default();
            for (i, op) in low.ops.iter().enumerate() {
                if op.guard.is_none() && matches!(op.kind, OpKind::Mem { .. }) {
                    if let Some(k) = memops::sunk_deferred(low, i) {
                        m.entry(k as u32).or_default().push(i as u32);
                    }
                }
            }
            m
        })
    }

    /// [`if_converted_accesses`], once per branch.
    pub(crate) fn accesses(&mut self, low: &Lowered<'_>, b: u32, t: u32) -> &[u32] {
        self.accesses
            .entry((b, t))
            .or_insert_with(|| if_converted_accesses(low, b, t))
    }
}

/// An if/else diamond whose two arms ptxas predicates ([`diamond`]): the
/// op ranges (half-open) that the lanes falling through the conditional
/// branch run, and those the lanes taking it run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Diamond {
    /// The arm of the lanes that fall through the branch.
    pub fall: (u32, u32),
    /// The arm of the lanes that take it.
    pub taken: (u32, u32),
}

/// The next op after `i` (exclusive) that is not a declaration or `.loc`.
fn next_significant(low: &Lowered<'_>, i: u32) -> Option<u32> {
    (i + 1..low.ops.len() as u32).find(|&k| low.ops[k as usize].form != crate::ir::Form::Other)
}

/// The if/else diamond that the conditional branch at `c` to the label at
/// `l` opens, when ptxas predicates both its arms. Two layouts:
///
/// * the fall-through arm first: `@p bra L; then; bra J; L: else; J:`
///   (the then-arm `c + 1 .. u` ends with an unconditional `bra` at `u` to
///   the join `J` after `L`);
/// * the taken arm first, NVVM's layout of a select between two loads
///   (`tests/hw/blind9` `dequant_q3_K`): `@p bra A; bra.uni B; A: taken;
///   bra.uni J; B: fall; J:` (`c + 1` is the `bra.uni` to `B`, `A` = `l`
///   follows it, the taken arm ends with a `bra` to `J` after `B`, and `B`
///   follows that);
/// * its degenerate form, an if-then laid out taken arm first: `@p bra A;
///   bra.uni B; A: taken; B:` (the taken arm runs into `B`): the fall-through
///   arm is empty, and the taken arm is predicated under the rule of a
///   block that a forward branch skips ([`block_convertible`], not the
///   looser one of two arms). Measured: `tests/hw/blind11`
///   `tma2d_prefetch_rowsum`'s `if (kt + 2 < ntiles)` around a
///   `cp.async.bulk.prefetch.tensor` is `@!UP0 UTMAPF.L2.2D`, issued with no
///   lane on the two last trips (2,048 requests, 1,920 thread instructions).
///
/// Both arms straight-line code without barriers, calls, global atomics or
/// slow-path instructions, each costing at most [`IF_CONVERT_MAX`]. The
/// `diamond_*` probes: ptxas predicates both arms, even 16 + 16 ALU
/// instructions with a global load on each (36 SASS instructions), with
/// nothing else to overlap and a warp-uniform guard alike; 20 + 20 (45)
/// keep the branch. The `diamond_tf_*` probes (taken arm first): the same
/// up to 12 + 12, on a uniform guard and with `ld.global.nc.u8` (SASS `@P0`
/// / `@!P0 LDG.E.U8.CONSTANT`); 16 + 16 (37 SASS instructions) keep the
/// branch, where the estimate says predicated (`known.txt`); an atomic on
/// an arm keeps the branch (`diamond_tf_red_0_0`).
pub(crate) fn diamond(low: &Lowered<'_>, c: u32, l: u32) -> Option<Diamond> {
    let ptx_branch = low
        .mnemonics
        .get(c as usize)
        .is_some_and(|m| m.starts_with("bra"));
    if !ptx_branch || low.ops.get(c as usize)?.guard.is_none() || l <= c + 1 {
        return None;
    }
    if low.ops.get(l as usize)?.form != crate::ir::Form::Label {
        return None;
    }
    // An unconditional forward `bra` at `u`: its target.
    let jump_at = |u: u32| -> Option<u32> {
        let op = low.ops.get(u as usize)?;
        match op.kind {
            OpKind::Branch {
                target: Some(j), ..
            } if op.guard.is_none() && op.form == crate::ir::Form::Instruction => Some(j.0),
            _ => None,
        }
    };
    let side = |from: u32, to: u32| -> bool {
        let mut cost = 0usize;
        for i in from..to {
            let o = &low.ops[i as usize];
            match (&o.kind, o.form) {
                (_, crate::ir::Form::Label) => return false,
                (_, crate::ir::Form::Other) => continue,
                (OpKind::Nop, _) => return false,
                (OpKind::Branch { .. } | OpKind::Exit | OpKind::Call { .. }, _) => return false,
                _ => {}
            }
            if global_atomic(&o.kind)
                || low
                    .mnemonics
                    .get(i as usize)
                    .is_some_and(|m| slow_path_call(m))
            {
                return false;
            }
            cost += sass_cost(low, from.saturating_sub(1), to, i as usize);
            if cost > IF_CONVERT_MAX {
                return false;
            }
        }
        true
    };
    let n = low.ops.len() as u32;
    let first = next_significant(low, c)?;
    if let Some(b) = jump_at(first).filter(|&b| b > l && b < n) {
        // Taken arm first: `c + 1` jumps to the fall-through lanes' arm.
        if next_significant(low, first)? != l {
            return None;
        }
        let u = (l + 1..b)
            .rev()
            .find(|&i| low.ops[i as usize].form == crate::ir::Form::Instruction)?;
        if low.ops.get(b as usize)?.form != crate::ir::Form::Label {
            return None;
        }
        let Some(j) = jump_at(u) else {
            // No jump at the end of the taken arm: it runs into `B`, an
            // if-then laid out taken arm first (`@p bra A; bra.uni B; A:
            // block; B:`): the block `@!p` skips, under the rule of a
            // forward branch over a block ([`block_convertible`]), with an
            // empty fall-through arm.
            return block_convertible(low, c, l + 1, b).then_some(Diamond {
                fall: (b, b),
                taken: (l + 1, b),
            });
        };
        if j <= b || j > n {
            return None;
        }
        if (u + 1..b).any(|i| low.ops[i as usize].form != crate::ir::Form::Other) {
            return None;
        }
        return (side(l + 1, u) && side(b + 1, j)).then_some(Diamond {
            fall: (b + 1, j),
            taken: (l + 1, u),
        });
    }
    // The then-arm's last instruction: an unconditional forward `bra`.
    let u = (c + 1..l)
        .rev()
        .find(|&i| low.ops[i as usize].form == crate::ir::Form::Instruction)?;
    let j = jump_at(u)?;
    if j <= l || j > n {
        return None;
    }
    (side(c + 1, u) && side(l + 1, j)).then_some(Diamond {
        fall: (c + 1, u),
        taken: (l + 1, j),
    })
}

/// The memory operations of `low` that ptxas issues under a predicate
/// because it if-converts the block holding them ([`if_convertible`]), in
/// op order (whatever the guard: `tests/hw/ifconv` compares this with
/// ptxas's SASS).
pub fn predicated_accesses(low: &Lowered<'_>) -> Vec<u32> {
    let mut out = Vec::new();
    for (b, op) in low.ops.iter().enumerate() {
        let OpKind::Branch {
            target: Some(t),
            uniform: false,
            ..
        } = op.kind
        else {
            continue;
        };
        if op.guard.is_none() {
            continue;
        }
        if let Some(d) = diamond(low, b as u32, t.0) {
            let (f, k) = (d.fall, d.taken);
            for i in (f.0 as usize..f.1 as usize).chain(k.0 as usize..k.1 as usize) {
                if matches!(low.ops[i].kind, OpKind::Mem { .. }) {
                    out.push(i as u32);
                }
            }
            continue;
        }
        if !if_convertible(low, b as u32, t.0) {
            continue;
        }
        for i in b + 1..t.0 as usize {
            if matches!(low.ops[i].kind, OpKind::Mem { .. }) {
                out.push(i as u32);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether ptxas if-converts the block a branch at `b` skips to `t`: a
/// forward branch over a straight-line block (no label, branch, exit, call
/// or barrier) whose target does not begin with `ret`/`exit` (`if (i >= n)
/// return;` becomes `@P EXIT`: `exit_alu*`), costing at most
/// [`IF_CONVERT_SMALL`] ([`sass_cost`]) without a long-latency access, or
/// at most [`IF_CONVERT_MAX`] with one and an access to overlap it
/// ([`overlapping_access`]). PTX only: a SASS branch (`BRA`) is what ptxas
/// kept, it runs as a branch.
pub(crate) fn if_convertible(low: &Lowered<'_>, b: u32, t: u32) -> bool {
    let ptx_branch = low
        .mnemonics
        .get(b as usize)
        .is_some_and(|m| m.starts_with("bra"));
    if !ptx_branch || t <= b + 1 || t as usize > low.ops.len() {
        return false;
    }
    block_convertible(low, b, b + 1, t)
}

/// [`if_convertible`]'s rule for the block `from..t` that the conditional
/// branch at `b` guards: `b + 1..t` for a forward branch over it, the taken
/// arm of an if-then laid out taken arm first ([`diamond`]).
fn block_convertible(low: &Lowered<'_>, b: u32, from: u32, t: u32) -> bool {
    if t <= from || t as usize > low.ops.len() {
        return false;
    }
    let mut cost = 0usize;
    let mut long = false;
    for (i, o) in low
        .ops
        .iter()
        .enumerate()
        .take(t as usize)
        .skip(from as usize)
    {
        match (&o.kind, o.form) {
            (_, crate::ir::Form::Label) => return false,
            (_, crate::ir::Form::Other) => continue,
            // `bar.sync`, fences and the like lower to `Nop`.
            (OpKind::Nop, _) => return false,
            (OpKind::Branch { .. } | OpKind::Exit | OpKind::Call { .. }, _) => return false,
            _ => {}
        }
        if low.mnemonics.get(i).is_some_and(|m| slow_path_call(m)) {
            return false;
        }
        if global_atomic(&o.kind) {
            return false;
        }
        long |= long_latency(&o.kind);
        cost += sass_cost(low, b, t, i);
        if cost > IF_CONVERT_MAX {
            return false;
        }
    }
    // What the block rejoins: an exit there makes the branch `@P EXIT`.
    for o in low.ops.iter().skip(t as usize) {
        match (&o.kind, o.form) {
            (_, crate::ir::Form::Label | crate::ir::Form::Other) => continue,
            (OpKind::Exit, _) => return false,
            _ => break,
        }
    }
    if long {
        overlapping_access(low, b, t)
    } else {
        cost <= IF_CONVERT_SMALL
    }
}

/// A global (or generic) atomic or reduction: ptxas keeps the branch around
/// it whatever follows (`tests/hw/ifconv/atomics.txt`: `ATOMG` and `REDG`
/// under `@P0 BRA` alone, before a barrier, before or after an independent
/// load; `c_atom_*`, `c_red_*`; an arm of a diamond: `diamond_tf_red_0_0`;
/// measured on the H100: `tests/hw/blind2` `lookback_scan`'s `if
/// (threadIdx.x == 0) tile_id = atomicAdd(ticket, 1u)` issues in warp 0
/// only, 256 requests for 256 blocks). ptxas branches around a shared
/// atomic alone in a block as well (`blk_s_atom_mid` in
/// `tests/hw/ifconv/guarded_ops.txt`), which is not modelled: under a
/// guard on unknown data the simulation costs a predicated block's lanes
/// by their expected participation, a branch's as all taking part
/// (`tests/hw/blind6` `hist_u8bins`' flush: 3.335 wavefronts a request
/// predicated, 4.000 branched, 3.622 and 1.878 measured), and the request
/// counts are the same.
fn global_atomic(kind: &OpKind) -> bool {
    matches!(kind, OpKind::Mem { info, .. }
        if matches!(info.kind, crate::ir::MemKind::Atomic | crate::ir::MemKind::Reduction)
            && info.space != crate::ir::Space::Shared)
}

/// Whether ptxas expands the PTX instruction `mnemonic` into code that calls
/// a slow-path subroutine (`CALL.REL.NOINC` in the SASS): IEEE-rounded
/// division, reciprocal and square root of `f32`/`f64` (`div.rn.f32`,
/// `rcp.rn.f64`, `sqrt.rn.f32`, …; not `.approx` or `div.full`) and 64-bit
/// integer division and remainder. Seen in the H100 builds of
/// `tests/hw/blind4` (`div.rn.f32`: `fused_add_rmsnorm_bf16`),
/// `tests/hw/blind2` (`sqrt.rn.f32`, `rcp.rn.f32`: `black_scholes`) and
/// `tests/hw/blind3` (`div.s64`: `kv_cache_append`). A block holding one is
/// not if-converted.
pub(crate) fn slow_path_call(mnemonic: &str) -> bool {
    let mut parts = mnemonic.split('.');
    let op = parts.next().unwrap_or("");
    let rest: Vec<&str> = parts.collect();
    let has = |m: &str| rest.contains(&m);
    let float = has("f32") || has("f64");
    let ieee = ["rn", "rz", "rm", "rp"].iter().any(|r| has(r));
    match op {
        "div" | "rcp" | "sqrt" if float => ieee,
        "div" | "rem" => has("s64") || has("u64"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_path_instructions_keep_their_branch() {
        // The SASS of tests/hw/blind4 (div.rn.f32), blind2 (sqrt.rn.f32,
        // rcp.rn.f32) and blind3 (div.s64) calls a slow-path subroutine.
        for m in [
            "div.rn.f32",
            "div.rn.ftz.f32",
            "div.rn.f64",
            "rcp.rn.f32",
            "rcp.rn.f64",
            "sqrt.rn.f32",
            "div.s64",
            "rem.u64",
        ] {
            assert!(slow_path_call(m), "{m}");
        }
        for m in [
            "div.full.f32",
            "div.approx.f32",
            "rcp.approx.ftz.f32",
            "sqrt.approx.f32",
            "div.s32",
            "rem.u32",
            "add.rn.f32",
            "st.shared.f32",
        ] {
            assert!(!slow_path_call(m), "{m}");
        }
    }
}
