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
//! # Limits
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

/// Per op, its block; per block, its immediate post-dominator's first op.
pub(super) struct Reconvergence {
    /// The block of each op.
    block_of: Vec<u32>,
    /// Per block: the immediate post-dominator (block, first op), `None`
    /// when it is the exit.
    ipdom: Vec<Option<(u32, u32)>>,
    /// Per block: its first op.
    starts: Vec<u32>,
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
        let ipdom = cfg
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
        Reconvergence {
            block_of,
            ipdom,
            starts,
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
