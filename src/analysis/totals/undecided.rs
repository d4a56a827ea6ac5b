//! The simulation's undecided control flow: what a path records when a
//! branch on loaded data sends lanes both ways (the registers an
//! uncertain lane writes on one path, undone where the paths meet), and the
//! loops whose exit depends on loaded data, stepped over (see "Branches the
//! simulation cannot decide" and "Loops on loaded data" in [`super`]).
//!
//! Domain: per register, the lanes that wrote it while uncertain
//! (`Frame::dirty`); per loop, its ops (the natural loop of the back edge
//! where it was found, `reconverge::Reconvergence::closed_loop`), keyed by
//! their first and last layout rank, its memory ops and the registers it
//! writes. Transfer: a write by an uncertain lane marks the
//! register; at the meeting point the marked lanes' values become unknown
//! data; a stepped-over loop makes every register it writes unknown data in
//! the path's lanes and its accesses uncounted (their counts over the trips
//! simulated before the loop was found, a sample for the per-request
//! figures, move to `SimResult::loop_stats`). Soundness: a value the
//! simulation keeps known after either is one no path could have changed.
//! Limits: a retreating edge into an irreducible cycle has no natural loop:
//! its extent is the layout interval between its target and the branch.

use super::{Frame, Regs, SimResult};
use crate::analysis::reconverge::LoopOps;
use crate::ir::{Function as Lowered, OpKind};

/// A loop whose exit depends on loaded data: the simulation moves the lanes
/// that reach its back edge (or that would run it again without knowing
/// whether they should) to its exit, with every register the loop writes
/// unknown in them, and gives the accesses inside it no request count (the
/// trips it ran up to there are their per-request sample).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SkippedLoop {
    /// The branch at which the simulation found that the loop's exit
    /// depends on loaded data.
    pub branch: u32,
    /// The first and the last op of the loop by layout rank (its ops are
    /// those of its natural loop, which need not fill the interval).
    pub ranks: (u32, u32),
    /// The memory ops inside the loop.
    pub accesses: Vec<u32>,
    /// The registers written inside the loop.
    dsts: Vec<u32>,
}

/// Steps the `lanes` of a path over the loop `lp` (found at the branch
/// `branch`): every register the loop writes becomes unknown data in them,
/// and the loop is recorded so that none of its accesses is counted
/// ([`SkippedLoop`]).
pub(super) fn skip_loop(
    low: &Lowered<'_>,
    res: &mut SimResult,
    regs: &mut Regs,
    branch: u32,
    lp: &LoopOps,
    lanes: u32,
) {
    let ranks = lp.ranks;
    let k = match res.skipped_loops.iter().position(|s| s.ranks == ranks) {
        Some(k) => k,
        None => {
            let mut accesses = Vec::new();
            let mut dsts = Vec::new();
            for &i in &lp.ops {
                let o = &low.ops[i as usize];
                if matches!(o.kind, OpKind::Mem { .. }) {
                    accesses.push(i);
                }
                dsts.extend(o.kind.dsts());
            }
            dsts.sort_unstable();
            dsts.dedup();
            res.skipped_loops.push(SkippedLoop {
                branch,
                ranks,
                accesses,
                dsts,
            });
            res.skipped_loops.len() - 1
        }
    };
    // What the loop stores to local memory is unknown after it.
    let stores = res.skipped_loops[k].accesses.iter().any(|&i| {
        matches!(&low.ops[i as usize].kind, OpKind::Mem { info, .. }
            if info.op != crate::analysis::model::AccessOp::Load)
    });
    if stores {
        regs.local.clear(lanes);
    }
    for &d in &res.skipped_loops[k].dsts {
        let mut m = lanes;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            regs.set(d, l, None, true);
        }
    }
}

/// Moves the counts of the accesses inside loops the simulation stepped
/// over to `loop_stats`: they ran an unknown number of times, so their
/// counts are a sample of their requests (the trips simulated before the
/// back edge), not the launch's.
pub(super) fn strip_skipped(res: &mut SimResult) {
    for sl in &res.skipped_loops {
        for a in &sl.accesses {
            if let Some(st) = res.stats.remove(a) {
                res.loop_stats.insert(*a, st);
            }
        }
    }
    res.skipped_loops.sort_by_key(|s| s.ranks);
}

/// Notes that the `lanes` of an uncertain path wrote register `r`.
pub(super) fn mark_dirty(dirty: &mut Vec<(u32, u32)>, r: u32, lanes: u32) {
    // A loop on the path writes the same registers again: look back a
    // little before adding, and fold the list when it grows.
    if let Some(e) = dirty.iter_mut().rev().take(32).find(|e| e.0 == r) {
        e.1 |= lanes;
        return;
    }
    dirty.push((r, lanes));
    if dirty.len() >= 4096 && dirty.len().is_power_of_two() {
        dirty.sort_unstable_by_key(|e| e.0);
        dirty.dedup_by(|b, a| {
            if a.0 == b.0 {
                a.1 |= b.1;
                true
            } else {
                false
            }
        });
    }
}

/// A path `f` arrived where its split's paths meet: each register its own
/// uncertain lanes wrote is unknown data there (the lane may have taken the
/// other path); writes of lanes uncertain from an enclosing split go to the
/// frame that runs on from the meeting point, to be undone where that
/// split's paths meet.
pub(super) fn join_dirty(stack: &mut [Frame], regs: &mut Regs, f: Frame) {
    if f.dirty.is_empty() {
        return;
    }
    let mut cont = stack.iter_mut().rev().find(|g| g.rpc != f.rpc);
    for (r, lanes) in f.dirty {
        let mut own = lanes & f.own;
        while own != 0 {
            let l = own.trailing_zeros() as usize;
            own &= own - 1;
            regs.set(r, l, None, true);
        }
        let rest = lanes & !f.own;
        if let Some(c) = cont.as_deref_mut() {
            if rest & c.maybe != 0 {
                mark_dirty(&mut c.dirty, r, rest & c.maybe);
            }
        }
    }
}
