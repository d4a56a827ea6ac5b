//! Where a divergent warp reconverges: the immediate post-dominator of the
//! branch that split it.
//!
//! # Model
//!
//! The hardware brackets a divergent region with a convergence barrier
//! (`BSSY` before the branch, `BSYNC` at the branch's immediate
//! post-dominator, the first block every path from the branch to the exit
//! passes through): lanes that arrive there wait until every lane of the
//! region that is still alive has arrived, and then run on together as one
//! request. For a loop whose lanes leave at different iterations the point
//! is the loop's exit block; for an `if` without `else` it is the join.
//!
//! The launch simulation (`totals`) keeps a stack of divergent regions
//! (the classic SIMT reconvergence stack): the top region's lanes run, a
//! divergent branch replaces the top by its reconvergence entry and pushes
//! the two paths, and a path whose lanes enter the reconvergence block is
//! popped. Post-dominators come from petgraph's `simple_fast` over the
//! reversed CFG with one virtual exit node that every exiting block
//! (`ret`/`exit`/`trap`, guarded or not, and blocks without successors)
//! leads to. A branch with no post-dominator but the exit (its paths end in
//! different `ret`s, or it is in an endless loop) has no reconvergence
//! point: its paths run one after the other until their lanes exit.
//!
//! # Joins before the post-dominator
//!
//! ptxas does not always wait at the post-dominator. A guarded forward
//! branch whose target `T` the fall-through side also reaches, though a
//! path of that side bypasses `T` (a `switch` whose cases fall through,
//! `case 3: a; case 2: b; case 1: c;` with the default jumping past them),
//! gets a convergence barrier at `T` inside the one at the post-dominator
//! (`tests/hw/blind19` `murmur3_string_column`: `BSSY B0` to the end,
//! `BSSY B1` to case 1's label, `BSSY B2` to case 2's; the lanes that
//! arrive at a label by the branch and by the fall-through issue its load
//! once together, and the default lanes wait at `BSYNC B0`). [`join`]
//! gives that `T` (its block): a target that is not the post-dominator,
//! comes after the branch and before the post-dominator in the reverse
//! post-order, lies in the same loops as the branch, and that the
//! fall-through side reaches by forward edges without passing the
//! post-dominator (searched over at most 256 blocks). The simulation then
//! waits at `T` inside the wait at the post-dominator, and a path that
//! reaches the post-dominator without passing `T` parks there (it leaves
//! the frames up to the one waiting at `T`), as the hardware's lanes wait
//! at the outer `BSYNC`; a branch inside such a region whose own
//! post-dominator is that parking block meets where its frame would have.
//!
//! [`join`]: Reconvergence::join
//!
//! # Which way a branch goes
//!
//! Whether a jump goes back (closes a loop) is a property of the CFG, not of
//! the code layout: a jump goes back when its target block comes no later
//! than its own block in the CFG's reverse post-order (a retreating edge;
//! in a reducible CFG exactly the back edges of its natural loops, whose
//! target dominates the source). LLVM may lay a loop's latch out above its
//! header (`t15_moe_permute_scatter` in `tests/hw/blind15`:
//! `$L__BB0_10: add; setp; @%p11 bra $L__BB0_2; bra.uni $L__BB0_11;
//! $L__BB0_2: ...`), so a jump from the body to the latch goes up in the
//! layout and forward in the CFG, and the back edge goes down in the layout.
//! [`Reconvergence::retreats`] answers by the reverse post-order (by the
//! layout only for an op the CFG does not reach), and
//! [`Reconvergence::closed_loop`] gives the ops of the loop a back edge
//! closes: its natural loop (the blocks that reach the latch without
//! passing through the header), or, for a retreating edge into an
//! irreducible cycle (no natural loop), the layout interval between target
//! and branch. A fall-through can be a back edge too (a loop's body laid
//! out just above its header: `persistent_atomic_tiles` in
//! `tests/hw/blind3`), so the simulation asks of both ways a path leaves a
//! block.
//!
//! # Limits
//!
//! `totals::exits` (the block-uniform exits evaluated before any block
//! runs) still takes a jump up the layout for a loop and stops its
//! evaluation there with `Fate::Works`, the fate of a block the walk
//! cannot decide (the block is then simulated like any other).
//!
//! Unstructured flow (a jump out of a region into another) is followed as
//! the stack allows: a path pops at the first arrival in its reconvergence
//! block. The hardware's barriers are placed by ptxas, which may choose an
//! earlier point for a warp-synchronous region (`bar.warp.sync`,
//! `__syncwarp`); the PTX carries no such placement.

use crate::cfg::{BlockId, Cfg};
use crate::ir::{Function as Lowered, OpId, OpKind};
use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};
use std::borrow::Cow;

/// Per op, its block; per block, its immediate post-dominator's first op,
/// its place in the reverse post-order and the natural loop it heads.
pub(super) struct Reconvergence {
    /// The block of each op.
    block_of: Vec<u32>,
    /// Per block: the immediate post-dominator (block, first op), `None`
    /// when it is the exit.
    ipdom: Vec<Option<(u32, u32)>>,
    /// Per block: its first op.
    starts: Vec<u32>,
    /// Per block: its position in the CFG's reverse post-order (`u32::MAX`
    /// when the entry does not reach it).
    order: Vec<u32>,
    /// The natural loops (`cfg::Loop`).
    loops: Vec<LoopOps>,
    /// Per block ending in a guarded branch: the join before its
    /// post-dominator (module documentation, "Joins before the
    /// post-dominator"): (block, first op).
    joins: Vec<Option<(u32, u32)>>,
}

/// The most blocks the search for a branch's join visits (a longer
/// stretch gets none: the post-dominator alone, as before).
const JOIN_SEARCH_MAX: usize = 256;

/// The ops of a loop, as the simulation steps over it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct LoopOps {
    /// Its header block (`u32::MAX` for a layout interval).
    header: u32,
    /// Its blocks, sorted.
    blocks: Vec<u32>,
    /// Its ops, in op order.
    pub(super) ops: Vec<u32>,
    /// Its first and last op by layout rank: the loop's key.
    pub(super) ranks: (u32, u32),
}

impl LoopOps {
    /// True when block `b` is in the loop (a layout interval: when its first
    /// op's rank is inside the interval).
    pub(super) fn contains(&self, low: &Lowered<'_>, recon: &Reconvergence, b: u32) -> bool {
        if self.header == u32::MAX {
            recon
                .start(b)
                .is_some_and(|s| (self.ranks.0..=self.ranks.1).contains(&low.rank(s)))
        } else {
            self.blocks.binary_search(&b).is_ok()
        }
    }

    /// The ops whose layout ranks lie in `lo..=hi`.
    fn interval(low: &Lowered<'_>, lo: u32, hi: u32) -> LoopOps {
        let ops = (0..low.ops.len() as u32)
            .filter(|&i| (lo..=hi).contains(&low.rank(i)))
            .collect();
        LoopOps {
            header: u32::MAX,
            blocks: Vec::new(),
            ops,
            ranks: (lo, hi),
        }
    }
}

impl Reconvergence {
    pub(super) fn new(low: &Lowered<'_>) -> Reconvergence {
        let cfg = Cfg::build(low);
        let nb = cfg.blocks().len();
        let mut g: DiGraph<(), ()> = DiGraph::with_capacity(nb + 1, nb * 2 + 1);
        for _ in 0..=nb {
            g.add_node(());
        }
        let exit = NodeIndex::new(nb);
        for b in cfg.block_ids() {
            let mut any = false;
            for (s, _) in cfg.successors(b) {
                any = true;
                g.add_edge(NodeIndex::new(s.index()), NodeIndex::new(b.index()), ());
            }
            let exits =
                matches!(cfg.terminator(low, b), Some((_, op)) if matches!(op.kind, OpKind::Exit));
            if exits || !any {
                g.add_edge(exit, NodeIndex::new(b.index()), ());
            }
        }
        let doms = simple_fast(&g, exit);
        let ipdom: Vec<Option<(u32, u32)>> = cfg
            .block_ids()
            .map(|b| {
                let p = doms.immediate_dominator(NodeIndex::new(b.index()))?;
                (p != exit).then(|| {
                    let start = cfg.block(BlockId(p.index() as u32)).stmts.start;
                    (p.index() as u32, start)
                })
            })
            .collect();
        let block_of = (0..low.ops.len() as u32)
            .map(|i| cfg.block_of(OpId(i)).0)
            .collect();
        let starts = cfg.blocks().iter().map(|b| b.stmts.start).collect();
        let mut order = vec![u32::MAX; nb];
        for (k, b) in cfg.reverse_post_order().iter().enumerate() {
            order[b.index()] = k as u32;
        }
        let loops: Vec<LoopOps> = cfg
            .loops()
            .iter()
            .map(|l| {
                let ops: Vec<u32> = l
                    .body
                    .iter()
                    .flat_map(|&b| cfg.block(b).stmts.clone())
                    .collect();
                let ranks = ops.iter().fold((u32::MAX, 0), |(lo, hi), &i| {
                    (lo.min(low.rank(i)), hi.max(low.rank(i)))
                });
                LoopOps {
                    header: l.header.0,
                    blocks: l.body.iter().map(|b| b.0).collect(),
                    ops,
                    ranks,
                }
            })
            .collect();
        let joins = cfg
            .block_ids()
            .map(|b| join_of(&cfg, b, &ipdom, &order, &loops))
            .collect();
        Reconvergence {
            block_of,
            ipdom,
            starts,
            order,
            loops,
            joins,
        }
    }

    /// The join before the post-dominator of the branch at op `pc` (module
    /// documentation, "Joins before the post-dominator"): (block, its first
    /// op).
    pub(super) fn join(&self, pc: u32) -> Option<(u32, u32)> {
        self.joins.get(self.block(pc) as usize).copied().flatten()
    }

    /// True when the jump from op `from` to op `to` goes back: `to`'s block
    /// comes no later than `from`'s in the reverse post-order (module
    /// documentation, "Which way a branch goes"); by the layout when the
    /// CFG does not reach either.
    pub(super) fn retreats(&self, low: &Lowered<'_>, from: u32, to: u32) -> bool {
        let at = |pc: u32| {
            self.order
                .get(self.block(pc) as usize)
                .copied()
                .unwrap_or(u32::MAX)
        };
        match (at(from), at(to)) {
            (a, b) if a != u32::MAX && b != u32::MAX => b <= a,
            _ => low.rank(to) <= low.rank(from),
        }
    }

    /// The place of block `b` in the reverse post-order (`u32::MAX` when
    /// unreached).
    pub(super) fn order(&self, b: u32) -> u32 {
        self.order.get(b as usize).copied().unwrap_or(u32::MAX)
    }

    /// The loop that the jump from op `from` back to op `to` closes: the
    /// natural loop headed by `to`'s block that holds `from`'s block, else
    /// the layout interval between the two.
    pub(super) fn closed_loop(&self, low: &Lowered<'_>, from: u32, to: u32) -> Cow<'_, LoopOps> {
        let (bf, bt) = (self.block(from), self.block(to));
        match self
            .loops
            .iter()
            .find(|l| l.header == bt && l.blocks.binary_search(&bf).is_ok())
        {
            Some(l) => Cow::Borrowed(l),
            None => {
                let (a, b) = (low.rank(to), low.rank(from));
                Cow::Owned(LoopOps::interval(low, a.min(b), a.max(b)))
            }
        }
    }

    /// The block of op `pc` (`u32::MAX` past the end).
    pub(super) fn block(&self, pc: u32) -> u32 {
        self.block_of.get(pc as usize).copied().unwrap_or(u32::MAX)
    }

    /// The first op of block `b`.
    pub(super) fn start(&self, b: u32) -> Option<u32> {
        self.starts.get(b as usize).copied()
    }

    /// Where the lanes split by the branch at op `pc` meet again: (block,
    /// its first op), or `None` (only at the exit).
    pub(super) fn point(&self, pc: u32) -> Option<(u32, u32)> {
        self.ipdom.get(self.block(pc) as usize).copied().flatten()
    }
}

/// The join of block `b`'s guarded branch: its target `T` when `T` is not
/// the branch's post-dominator, comes after `b` and before the
/// post-dominator in the reverse post-order, lies in the same loops as `b`,
/// and the fall-through side reaches it by forward edges without passing
/// the post-dominator.
fn join_of(
    cfg: &Cfg,
    b: BlockId,
    ipdom: &[Option<(u32, u32)>],
    order: &[u32],
    loops: &[LoopOps],
) -> Option<(u32, u32)> {
    use crate::cfg::EdgeKind;
    let side = |k: EdgeKind| cfg.successors(b).find(|&(_, e)| e == k).map(|(s, _)| s);
    let (t, f) = (side(EdgeKind::Taken)?, side(EdgeKind::NotTaken)?);
    let p = ipdom[b.index()].map(|(p, _)| p);
    let at = |x: BlockId| order[x.index()];
    let (ob, ot) = (at(b), at(t));
    if t == f || p == Some(t.0) || ob == u32::MAX || ot == u32::MAX || ot <= ob {
        return None;
    }
    if p.is_some_and(|p| order[p as usize] <= ot) {
        return None;
    }
    let holds = |l: &LoopOps, x: BlockId| l.blocks.binary_search(&x.0).is_ok();
    if loops.iter().any(|l| holds(l, b) != holds(l, t)) {
        return None;
    }
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![f];
    while let Some(x) = work.pop() {
        if x == t {
            return Some((t.0, cfg.block(t).stmts.start));
        }
        if Some(x.0) == p || at(x) <= ob || at(x) >= ot || !seen.insert(x) {
            continue;
        }
        if seen.len() > JOIN_SEARCH_MAX {
            return None;
        }
        work.extend(cfg.successors(x).map(|(s, _)| s).filter(|&s| at(s) > at(x)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The branches of the first kernel of `latch_above_header.ptx`, in op
    /// order: (op, guarded, target op).
    fn branches(low: &Lowered<'_>) -> Vec<(u32, bool, u32)> {
        low.ops
            .iter()
            .enumerate()
            .filter_map(|(i, o)| match o.kind {
                OpKind::Branch {
                    target: Some(t), ..
                } => Some((i as u32, o.guard.is_some(), t.0)),
                _ => None,
            })
            .collect()
    }

    /// A loop whose latch LLVM laid out above its header (`tests/hw/blind15`
    /// `t15_moe_permute_scatter`): the body's jump up to the latch is
    /// forward in the CFG and reconverges there; the latch's jump down to
    /// the header closes the loop, whose ops are the header, the body and
    /// the latch, not the exit.
    #[test]
    fn a_latch_above_its_header_is_read_off_the_cfg() {
        let text = include_str!("../../tests/fixtures/analysis/latch_above_header.ptx");
        let fs = crate::pipeline::lower_text(text);
        let low = &fs[0];
        let r = Reconvergence::new(low);
        let b = branches(low);
        // bra.uni HEAD; @%p2 bra HEAD (latch); bra.uni EXIT; @%p1 bra LATCH
        // (body); bra.uni LATCH (the arm's end).
        assert_eq!(
            b.iter().map(|&(_, g, _)| g).collect::<Vec<_>>(),
            [false, true, false, true, false]
        );
        let (entry, latch, to_exit, body, arm) = (b[0], b[1], b[2], b[3], b[4]);
        // The layout says otherwise in both cases.
        assert!(low.rank(body.2) < low.rank(body.0));
        assert!(low.rank(latch.2) > low.rank(latch.0));
        assert!(!r.retreats(low, entry.0, entry.2));
        assert!(r.retreats(low, latch.0, latch.2));
        assert!(!r.retreats(low, to_exit.0, to_exit.2));
        assert!(!r.retreats(low, body.0, body.2));
        assert!(!r.retreats(low, arm.0, arm.2));
        // The body's branch reconverges at the latch.
        let latch_block = r.block(body.2);
        assert_eq!(r.point(body.0), Some((latch_block, body.2)));
        // The loop the back edge closes.
        let lp = r.closed_loop(low, latch.0, latch.2);
        for pc in [latch.0, latch.2, body.0, arm.0] {
            assert!(lp.ops.contains(&pc), "op {pc} in the loop");
            assert!(lp.contains(low, &r, r.block(pc)));
        }
        assert!(!lp.ops.contains(&to_exit.0));
        assert!(!lp.contains(low, &r, r.block(to_exit.2)));
        assert_eq!(lp.ranks, (low.rank(body.2), low.rank(arm.0)));
    }
}
