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
//! # The rule
//!
//! [`if_convertible`]: a forward PTX `bra` over at most [`IF_CONVERT_MAX`]
//! straight-line instructions (no label, branch, exit, call or barrier, no
//! instruction that ptxas expands with a slow-path call, [`slow_path_call`])
//! whose target is not an exit. [`if_converted_accesses`] lists the memory
//! instructions a warp issues with no lane when it skips such a block.
//! [`memory_free_block`] recognises the blocks without memory accesses that
//! the simulation may step over whatever their guard.
//!
//! # Soundness and limits
//!
//! This is a model of a compiler's heuristic, not a semantic property: it
//! is checked against the SASS ptxas emits and the H100's counts of the
//! held-out batches (`tests/hw/blind*`). A wrong answer changes request
//! counts (requests with no lane), never sectors or lines.

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

/// Instructions at most in a block that [`if_converted_accesses`] takes
/// ptxas to predicate. The measured blocks (`tests/hw/blind`: a guarded load
/// and its use, a halo load and its shared store) have 4 to 9.
const IF_CONVERT_MAX: usize = 12;

/// The memory instructions of the block that the conditional branch at `b`
/// skips, when ptxas if-converts it ([`if_convertible`]) and its guard is not
/// warp-uniform by construction (a uniform guard stays a branch, finding
/// 17). ptxas then emits the block's instructions under the guard's
/// predicate, so a warp in which every lane skips the block still issues
/// each access once, with no lane (measured on the H100: `cub_block_reduce`,
/// `block_scan_incl`, `conv1d_smem`, `im2col_k3`, `stencil2d_smem` in
/// `tests/hw/blind/measured.json`: every warp issues the guarded loads,
/// including warps where the guard is off in every lane).
pub(crate) fn if_converted_accesses(low: &Lowered<'_>, b: u32, t: u32) -> Vec<u32> {
    let Some(op) = low.ops.get(b as usize) else {
        return Vec::new();
    };
    let Some((g, _)) = op.guard else {
        return Vec::new();
    };
    if matches!(op.kind, OpKind::Branch { uniform: true, .. })
        || !if_convertible(low, b, t)
        || memops::uniform_by_construction(low, &Src::Reg(g, 0), 0)
    {
        return Vec::new();
    }
    (b + 1..t)
        .filter(|&i| {
            matches!(low.ops[i as usize].kind, OpKind::Mem { .. })
                && memops::guard_off_issues(low, i as usize)
        })
        .collect()
}

/// Whether ptxas if-converts the block a branch at `b` skips to `t`: a
/// forward branch over a short straight-line block (no label, branch, exit,
/// call or barrier, at most [`IF_CONVERT_MAX`] instructions) whose target
/// does not begin with `ret`/`exit` (`if (i >= n) return;` becomes
/// `@P EXIT`). PTX only: a SASS branch (`BRA`) is what ptxas kept, it runs
/// as a branch.
pub(crate) fn if_convertible(low: &Lowered<'_>, b: u32, t: u32) -> bool {
    let ptx_branch = low
        .mnemonics
        .get(b as usize)
        .is_some_and(|m| m.starts_with("bra"));
    if !ptx_branch || t <= b + 1 || t as usize > low.ops.len() {
        return false;
    }
    let mut count = 0usize;
    for (i, o) in low
        .ops
        .iter()
        .enumerate()
        .take(t as usize)
        .skip(b as usize + 1)
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
        count += 1;
        if count > IF_CONVERT_MAX {
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
    true
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
