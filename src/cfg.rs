//! Control-flow graphs.
//!
//! # Blocks
//!
//! The CFG is built from the warp IR ([`crate::ir::Function`]), whose ops are
//! one per source statement: it never reads the syntax tree. A
//! [`BasicBlock`] is a contiguous range of ops of one function body
//! (labels, declarations, `.loc` lines and `{`/`}` markers included) that
//! control enters only at the top and leaves only at the bottom. The blocks of
//! a function partition its body: every statement belongs to exactly one
//! block, and [`Cfg::block_of`] finds it. Blocks live in an arena (a `Vec`
//! indexed by [`BlockId`], in source order, the entry block first); the
//! petgraph graph [`Cfg::graph`] holds only block ids as node weights and
//! [`EdgeKind`]s as edge weights, and node index `i` is always `BlockId(i)`.
//!
//! A new block begins
//! - right after a *terminator* ([`crate::ir::Op::is_terminator`]: `bra`,
//!   `brx.idx`, `ret`, `exit` or `trap`), guarded or not (a guarded terminator may or may not transfer control, so
//!   it ends its block as well);
//! - at a label, when the current block already holds an instruction.
//!   Consecutive labels, or declarations followed by a label, therefore name
//!   one block: a block is entered at one point no matter how many names it has.
//!
//! Statements that follow a terminator but are not instructions (a `.loc`, a
//! `}`) begin the next block, so a `.loc` stays with the instructions it
//! describes. A trailing run of such statements at the end of the body, with
//! no instruction and no label, is kept in the last block instead of forming an
//! empty block of its own. A function without a body, or with an empty one,
//! has a single empty block.
//!
//! # Edges
//!
//! Every edge has an [`EdgeKind`]:
//! - [`EdgeKind::Fallthrough`]: the block ends without a terminator (the next
//!   block begins with a label) and control runs on into the next block.
//! - [`EdgeKind::Jump`]: an unguarded `bra` to its target.
//! - [`EdgeKind::Taken`] / [`EdgeKind::NotTaken`]: a guarded terminator. A
//!   guarded `bra` has a `Taken` edge to its target and a `NotTaken` edge to
//!   the next block; a guarded `ret`, `exit` or `trap` has only the `NotTaken`
//!   edge (when taken it leaves the function). When the target of a guarded
//!   `bra` is the next block, both edges are present, one of each kind.
//! - [`EdgeKind::Indexed`]: `brx.idx` to every label of its `.branchtargets`
//!   table (once per distinct target block).
//!
//! An unguarded `ret`, `exit` or `trap` has no successor, and neither has the
//! last block when control falls off the end of the body. Labels were
//! resolved by the front end through the `{ }` scopes of the body (the IR's
//! branches name their target ops); a branch whose target cannot be resolved
//! contributes no edge (semantic analysis reports it as `E0103
//! unknown-label`), so the graph only contains edges that exist.
//!
//! # Order, dominators
//!
//! [`Cfg::reverse_post_order`] lists the blocks reachable from the entry in
//! reverse post-order of a depth-first search that visits successors in the
//! order of [`Cfg::successors`]; every block comes before its successors
//! except along retreating edges. Blocks that are not reachable from the entry
//! are left out of it, have no immediate dominator, and are in no loop
//! ([`Cfg::is_reachable`] tells them apart).
//!
//! Dominators come from petgraph's `algo::dominators::simple_fast` (Cooper,
//! Harvey and Kennedy's "A Simple, Fast Dominance Algorithm", which iterates
//! to a fixed point over the reverse post-order and terminates on every
//! graph, reducible or not). The dominator tree is then numbered by a
//! depth-first walk, so [`Cfg::dominates`] is two comparisons.
//!
//! # Loops
//!
//! A *back edge* is an edge `latch -> header` whose target dominates its
//! source. Each header with its back edges defines one natural loop: the
//! header plus every block that reaches one of its latches without passing
//! through the header (a backward walk from the latches that stops at the
//! header). Back edges to the same header are merged into one [`Loop`]. Two
//! natural loops with different headers are either disjoint or nested; a
//! loop's parent is the smallest other loop that contains its header, and its
//! depth counts the loops around it (1 for an outermost loop). Loops are
//! numbered in reverse post-order of their headers, so a parent always comes
//! before its children, and [`Cfg::loop_of`] gives the innermost loop of a
//! block.
//!
//! # Irreducible flow
//!
//! A cycle that can be entered at more than one block (e.g. a jump into the
//! middle of a loop) has a *retreating* edge (to a block still on the
//! depth-first stack) whose target does not dominate its source. Such a cycle
//! is not a natural loop, and we do not invent one: no [`Loop`] is made for it
//! and its blocks are not loop members through it. The retreating edges are
//! listed by [`Cfg::irreducible_edges`], and [`Cfg::in_cycle`] is true for
//! every block on any cycle (a non-trivial strongly connected component, or a
//! self-edge), so an analysis that must know whether a block can execute more
//! than once asks `in_cycle`, which is exact for irreducible flow too.
//!
//! Every computation here (depth-first search, dominators, loop bodies,
//! strongly connected components) is a finite walk over finitely many blocks
//! and edges, without recursion: building a CFG terminates, and does not
//! overflow the stack, on any input.

use crate::ir::{Form, Function, FunctionKind, Op, OpId, OpKind};
use crate::source::{SourceFile, Span};
use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::ops::Range;

/// Index of a block in [`Cfg::blocks`] (and of its node in [`Cfg::graph`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct BlockId(pub u32);

impl BlockId {
    /// The index into the block arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for BlockId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bb{}", self.0)
    }
}

/// Index of a loop in [`Cfg::loops`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct LoopId(pub u32);

impl LoopId {
    /// The index into the loop list.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for LoopId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "L{}", self.0)
    }
}

/// How control gets from one block to the next (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EdgeKind {
    /// No terminator: control runs on into the next block.
    Fallthrough,
    /// Unguarded `bra`.
    Jump,
    /// Guarded `bra`, predicate true.
    Taken,
    /// Guarded terminator, predicate false: on to the next block.
    NotTaken,
    /// `brx.idx` to one of its `.branchtargets`.
    Indexed,
}

impl EdgeKind {
    /// Kebab-case name, as printed by `warpscope cfg`.
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Fallthrough => "fallthrough",
            EdgeKind::Jump => "jump",
            EdgeKind::Taken => "taken",
            EdgeKind::NotTaken => "not-taken",
            EdgeKind::Indexed => "indexed",
        }
    }
}

/// A basic block: a contiguous range of ops (one per source statement).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BasicBlock {
    /// Op indices (equal to `StmtId` indices), contiguous, including labels,
    /// declarations and `.loc`.
    pub stmts: Range<u32>,
    /// From the first statement's start to the last one's end (the body's span
    /// for the empty block of an empty body).
    pub span: Span,
}

impl BasicBlock {
    /// The op ids of the block.
    pub fn op_ids(&self) -> impl DoubleEndedIterator<Item = OpId> + ExactSizeIterator + Clone {
        self.stmts.clone().map(OpId)
    }
}

/// A natural loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// The block every iteration enters through; it dominates the body.
    pub header: BlockId,
    /// Sources of the back edges to the header, in block order.
    pub latches: Vec<BlockId>,
    /// Every block of the loop, the header and nested loops included, in block order.
    pub body: Vec<BlockId>,
    /// The innermost loop around this one.
    pub parent: Option<LoopId>,
    /// 1 for an outermost loop, 2 for a loop inside it, …
    pub depth: u32,
}

impl Loop {
    /// True when `b` is in the loop (nested loops included).
    pub fn contains(&self, b: BlockId) -> bool {
        self.body.binary_search(&b).is_ok()
    }
}

const UNREACHED: u32 = u32::MAX;

/// The control-flow graph of one function, with its dominator tree and loops.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// The graph: node weights are block ids (node `i` is `BlockId(i)`), edge
    /// weights edge kinds. Parallel edges of different kinds may exist.
    pub graph: DiGraph<BlockId, EdgeKind>,
    blocks: Vec<BasicBlock>,
    succs: Vec<Vec<(BlockId, EdgeKind)>>,
    preds: Vec<Vec<(BlockId, EdgeKind)>>,
    rpo: Vec<BlockId>,
    idom: Vec<Option<BlockId>>,
    /// Pre- and post-order numbers in the dominator tree (`UNREACHED` when unreachable).
    dom_pre: Vec<u32>,
    dom_post: Vec<u32>,
    loops: Vec<Loop>,
    loop_of: Vec<Option<LoopId>>,
    back_edges: Vec<(BlockId, BlockId)>,
    irreducible: Vec<(BlockId, BlockId)>,
    cyclic: Vec<bool>,
}

impl Cfg {
    /// Builds the CFG of a function from its IR. A declaration (no body) or
    /// an empty body gets a single empty block. Branch targets the front end
    /// could not resolve are absent from the IR and make no edge.
    pub fn build(func: &Function<'_>) -> Cfg {
        let Some(body_span) = func.body_span else {
            return Cfg::from_parts(
                vec![BasicBlock {
                    stmts: 0..0,
                    span: func.span,
                }],
                Vec::new(),
            );
        };
        let ops = &func.ops;
        let spans = &func.spans;
        let n = ops.len() as u32;

        // 1. Leaders.
        let mut starts: Vec<u32> = vec![0];
        let mut has_instr = false;
        for (i, op) in ops.iter().enumerate() {
            let i = i as u32;
            match op.form {
                Form::Label if has_instr => {
                    starts.push(i);
                    has_instr = false;
                }
                Form::Instruction => {
                    has_instr = true;
                    if op.is_terminator() && i + 1 < n {
                        starts.push(i + 1);
                        has_instr = false;
                    }
                }
                _ => {}
            }
        }
        // A trailing block with neither instruction nor label joins the previous one.
        if starts.len() > 1 {
            let last = *starts.last().unwrap_or(&0);
            let empty = ops[last as usize..].iter().all(|o| o.form == Form::Other);
            if empty {
                starts.pop();
            }
        }
        let blocks: Vec<BasicBlock> = starts
            .iter()
            .enumerate()
            .map(|(b, &start)| {
                let end = starts.get(b + 1).copied().unwrap_or(n);
                let span = if start < end {
                    spans[start as usize].to(spans[end as usize - 1])
                } else {
                    body_span
                };
                BasicBlock {
                    stmts: start..end,
                    span,
                }
            })
            .collect();
        let block_of = |s: OpId| -> BlockId {
            BlockId((starts.partition_point(|&st| st <= s.0).max(1) - 1) as u32)
        };

        // 2. Edges, from the branch targets the IR names.
        let mut edges = Vec::new();
        let nblocks = blocks.len() as u32;
        for (b, block) in blocks.iter().enumerate() {
            let b = BlockId(b as u32);
            let next = (b.0 + 1 < nblocks).then_some(BlockId(b.0 + 1));
            let last = block
                .op_ids()
                .rev()
                .map(|id| &ops[id.index()])
                .find(|o| o.form == Form::Instruction);
            let Some(op) = last.filter(|o| o.is_terminator()) else {
                if let Some(nx) = next {
                    edges.push((b, nx, EdgeKind::Fallthrough));
                }
                continue;
            };
            let guarded = op.guard.is_some();
            if let OpKind::Branch {
                target, indexed, ..
            } = &op.kind
            {
                if let Some(t) = target {
                    let kind = if guarded {
                        EdgeKind::Taken
                    } else {
                        EdgeKind::Jump
                    };
                    edges.push((b, block_of(*t), kind));
                }
                let mut seen = HashSet::new();
                for &t in indexed {
                    let tb = block_of(t);
                    if seen.insert(tb) {
                        edges.push((b, tb, EdgeKind::Indexed));
                    }
                }
            }
            if guarded {
                if let Some(nx) = next {
                    edges.push((b, nx, EdgeKind::NotTaken));
                }
            }
        }
        Cfg::from_parts(blocks, edges)
    }

    /// Builds the graph and every derived table from blocks and edges.
    fn from_parts(blocks: Vec<BasicBlock>, edges: Vec<(BlockId, BlockId, EdgeKind)>) -> Cfg {
        let n = blocks.len();
        let mut graph = DiGraph::with_capacity(n, edges.len());
        for b in 0..n {
            graph.add_node(BlockId(b as u32));
        }
        let mut succs = vec![Vec::new(); n];
        let mut preds = vec![Vec::new(); n];
        for &(from, to, kind) in &edges {
            graph.add_edge(
                NodeIndex::new(from.index()),
                NodeIndex::new(to.index()),
                kind,
            );
            succs[from.index()].push((to, kind));
            preds[to.index()].push((from, kind));
        }

        // Depth-first search from the entry: post-order and retreating edges.
        let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
        let mut post = Vec::with_capacity(n);
        let mut retreating = Vec::new();
        let mut stack: Vec<(usize, usize)> = Vec::new();
        if n > 0 {
            state[0] = 1;
            stack.push((0, 0));
        }
        while let Some(top) = stack.last_mut() {
            let (b, i) = *top;
            if let Some(&(s, _)) = succs[b].get(i) {
                top.1 += 1;
                match state[s.index()] {
                    0 => {
                        state[s.index()] = 1;
                        stack.push((s.index(), 0));
                    }
                    1 => retreating.push((BlockId(b as u32), s)),
                    _ => {}
                }
            } else {
                state[b] = 2;
                post.push(BlockId(b as u32));
                stack.pop();
            }
        }
        let rpo: Vec<BlockId> = post.into_iter().rev().collect();

        // Dominators.
        let mut idom = vec![None; n];
        if n > 0 {
            let doms = simple_fast(&graph, NodeIndex::new(0));
            for &b in &rpo {
                idom[b.index()] = doms
                    .immediate_dominator(NodeIndex::new(b.index()))
                    .map(|d| BlockId(d.index() as u32));
            }
        }
        let mut children = vec![Vec::new(); n];
        for &b in &rpo {
            if let Some(d) = idom[b.index()] {
                children[d.index()].push(b);
            }
        }
        let mut dom_pre = vec![UNREACHED; n];
        let mut dom_post = vec![UNREACHED; n];
        let (mut pre_n, mut post_n) = (0u32, 0u32);
        let mut stack: Vec<(BlockId, usize)> = Vec::new();
        if n > 0 {
            dom_pre[0] = pre_n;
            pre_n += 1;
            stack.push((BlockId(0), 0));
        }
        while let Some(top) = stack.last_mut() {
            let (b, i) = *top;
            if let Some(&c) = children[b.index()].get(i) {
                top.1 += 1;
                dom_pre[c.index()] = pre_n;
                pre_n += 1;
                stack.push((c, 0));
            } else {
                dom_post[b.index()] = post_n;
                post_n += 1;
                stack.pop();
            }
        }

        let mut cfg = Cfg {
            graph,
            blocks,
            succs,
            preds,
            rpo,
            idom,
            dom_pre,
            dom_post,
            loops: Vec::new(),
            loop_of: vec![None; n],
            back_edges: Vec::new(),
            irreducible: Vec::new(),
            cyclic: vec![false; n],
        };

        // Back edges and irreducible retreating edges.
        for &(from, to) in &retreating {
            if cfg.dominates(to, from) {
                cfg.back_edges.push((from, to));
            } else {
                cfg.irreducible.push((from, to));
            }
        }
        cfg.back_edges.sort();
        cfg.back_edges.dedup();
        cfg.irreducible.sort();
        cfg.irreducible.dedup();

        // Natural loops, by header in reverse post-order.
        let mut rpo_index = vec![UNREACHED; n];
        for (i, b) in cfg.rpo.iter().enumerate() {
            rpo_index[b.index()] = i as u32;
        }
        // Back edges grouped by header: (rpo index of header, header, latch).
        let mut by_header: Vec<(u32, BlockId, BlockId)> = cfg
            .back_edges
            .iter()
            .map(|&(l, h)| (rpo_index[h.index()], h, l))
            .collect();
        by_header.sort();
        let mut in_body = vec![false; n];
        for group in by_header.chunk_by(|a, b| a.1 == b.1) {
            let h = group[0].1;
            let latches: Vec<BlockId> = group.iter().map(|&(_, _, l)| l).collect();
            let mut body = vec![h];
            in_body[h.index()] = true;
            let mut work: Vec<BlockId> = Vec::new();
            for &l in &latches {
                if !in_body[l.index()] {
                    in_body[l.index()] = true;
                    body.push(l);
                    work.push(l);
                }
            }
            while let Some(b) = work.pop() {
                for &(p, _) in &cfg.preds[b.index()] {
                    if !in_body[p.index()] && rpo_index[p.index()] != UNREACHED {
                        in_body[p.index()] = true;
                        body.push(p);
                        work.push(p);
                    }
                }
            }
            for b in &body {
                in_body[b.index()] = false;
            }
            body.sort();
            cfg.loops.push(Loop {
                header: h,
                latches,
                body,
                parent: None,
                depth: 1,
            });
        }
        // Nesting: visit loops from the largest body down, so a loop's
        // enclosing loops (strictly larger bodies) are visited before it; the
        // innermost loop recorded for its header so far is then its parent.
        let mut by_size: Vec<usize> = (0..cfg.loops.len()).collect();
        by_size.sort_by_key(|&l| (std::cmp::Reverse(cfg.loops[l].body.len()), l));
        for l in by_size {
            let header = cfg.loops[l].header;
            if let Some(p) = cfg.loop_of[header.index()] {
                cfg.loops[l].parent = Some(p);
                cfg.loops[l].depth = cfg.loops[p.index()].depth + 1;
            }
            for i in 0..cfg.loops[l].body.len() {
                let b = cfg.loops[l].body[i];
                cfg.loop_of[b.index()] = Some(LoopId(l as u32));
            }
        }

        // Blocks on cycles.
        for scc in petgraph::algo::kosaraju_scc(&cfg.graph) {
            if scc.len() > 1 {
                for b in scc {
                    cfg.cyclic[b.index()] = true;
                }
            }
        }
        for (b, ss) in cfg.succs.iter().enumerate() {
            if ss.iter().any(|(s, _)| s.index() == b) {
                cfg.cyclic[b] = true;
            }
        }
        cfg
    }

    /// The entry block (always `BlockId(0)`).
    pub fn entry(&self) -> BlockId {
        BlockId(0)
    }

    /// Every block, in source order.
    pub fn blocks(&self) -> &[BasicBlock] {
        &self.blocks
    }

    /// One block.
    pub fn block(&self, b: BlockId) -> &BasicBlock {
        &self.blocks[b.index()]
    }

    /// Ids of every block, in source order.
    pub fn block_ids(
        &self,
    ) -> impl DoubleEndedIterator<Item = BlockId> + ExactSizeIterator + Clone {
        (0..self.blocks.len() as u32).map(BlockId)
    }

    /// The block holding an op (the last block for an id past the end).
    pub fn block_of(&self, stmt: OpId) -> BlockId {
        let i = self.blocks.partition_point(|b| b.stmts.start <= stmt.0);
        BlockId(i.max(1) as u32 - 1)
    }

    /// Successors with the kind of each edge: the taken or jump target first,
    /// then the fall-through (`NotTaken`/`Fallthrough`); `Indexed` in table order.
    pub fn successors(
        &self,
        b: BlockId,
    ) -> impl ExactSizeIterator<Item = (BlockId, EdgeKind)> + Clone + '_ {
        self.succs[b.index()].iter().copied()
    }

    /// Predecessors with the kind of each edge, in block order of the sources.
    pub fn predecessors(
        &self,
        b: BlockId,
    ) -> impl ExactSizeIterator<Item = (BlockId, EdgeKind)> + Clone + '_ {
        self.preds[b.index()].iter().copied()
    }

    /// The blocks reachable from the entry, in reverse post-order.
    pub fn reverse_post_order(&self) -> &[BlockId] {
        &self.rpo
    }

    /// True when the block is reachable from the entry.
    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.dom_pre[b.index()] != UNREACHED
    }

    /// The immediate dominator; `None` for the entry and unreachable blocks.
    pub fn idom(&self, b: BlockId) -> Option<BlockId> {
        self.idom[b.index()]
    }

    /// True when every path from the entry to `b` passes through `a` (a block
    /// dominates itself). False when either block is unreachable, unless `a == b`.
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        if a == b {
            return true;
        }
        let (pa, pb) = (self.dom_pre[a.index()], self.dom_pre[b.index()]);
        pa != UNREACHED
            && pb != UNREACHED
            && pa <= pb
            && self.dom_post[b.index()] <= self.dom_post[a.index()]
    }

    /// The natural loops, outer loops before the loops they contain.
    pub fn loops(&self) -> &[Loop] {
        &self.loops
    }

    /// One loop.
    pub fn loop_(&self, l: LoopId) -> &Loop {
        &self.loops[l.index()]
    }

    /// The innermost natural loop containing the block.
    pub fn loop_of(&self, b: BlockId) -> Option<LoopId> {
        self.loop_of[b.index()]
    }

    /// True when `from -> to` is an edge whose target dominates its source.
    pub fn is_back_edge(&self, from: BlockId, to: BlockId) -> bool {
        self.back_edges.binary_search(&(from, to)).is_ok()
    }

    /// Every back edge (latch, header), sorted.
    pub fn back_edges(&self) -> &[(BlockId, BlockId)] {
        &self.back_edges
    }

    /// Retreating edges whose target does not dominate their source: the
    /// entries of irreducible cycles. Empty for a reducible CFG.
    pub fn irreducible_edges(&self) -> &[(BlockId, BlockId)] {
        &self.irreducible
    }

    /// True when the block lies on a cycle (natural loop or irreducible), i.e.
    /// may execute more than once per thread.
    pub fn in_cycle(&self, b: BlockId) -> bool {
        self.cyclic[b.index()]
    }

    /// The last instruction of a block, if it is a terminator.
    pub fn terminator<'a>(&self, func: &'a Function<'_>, b: BlockId) -> Option<(OpId, &'a Op)> {
        let block = self.blocks.get(b.index())?;
        block
            .op_ids()
            .rev()
            .filter_map(|id| {
                func.ops
                    .get(id.index())
                    .filter(|o| o.form == Form::Instruction)
                    .map(|o| (id, o))
            })
            .next()
            .filter(|(_, o)| o.is_terminator())
    }

    /// Renders the CFG as text: one paragraph per block (line range, labels,
    /// first and last instruction, successors, immediate dominator, loop),
    /// then the loops. `func` must be the function the CFG was built from.
    pub fn render_text(&self, func: &Function<'_>, file: &SourceFile) -> String {
        let mut out = String::new();
        let kind = match func.kind {
            FunctionKind::Kernel => ".entry",
            FunctionKind::Device => ".func",
        };
        let _ = writeln!(
            out,
            "{kind} {} ({} block{}, {} loop{})",
            func.name,
            self.blocks.len(),
            plural(self.blocks.len()),
            self.loops.len(),
            plural(self.loops.len())
        );
        for b in self.block_ids() {
            let block = self.block(b);
            let mut labels = Vec::new();
            let mut instrs = Vec::new();
            for id in block.op_ids() {
                match func.ops.get(id.index()).map(|o| o.form) {
                    Some(Form::Label) => labels.extend(func.label_at(id)),
                    Some(Form::Instruction) => instrs.push(func.spans[id.index()]),
                    _ => {}
                }
            }
            let (l0, l1) = line_range(file, block.span);
            let _ = write!(out, "\n{b}");
            if !labels.is_empty() {
                let _ = write!(out, " ({})", labels.join(", "));
            }
            let _ = write!(out, "  lines {l0}");
            if l1 != l0 {
                let _ = write!(out, "-{l1}");
            }
            if b == self.entry() {
                out.push_str("  entry");
            }
            if !self.is_reachable(b) {
                out.push_str("  unreachable");
            }
            out.push('\n');
            match instrs.as_slice() {
                [] => out.push_str("  (no instructions)\n"),
                [one] => {
                    let _ = writeln!(out, "  only:  {}", one_line(file.slice(*one)));
                }
                [first, .., last] => {
                    let _ = writeln!(out, "  first: {}", one_line(file.slice(*first)));
                    let _ = writeln!(
                        out,
                        "  last:  {}  ({} instructions)",
                        one_line(file.slice(*last)),
                        instrs.len()
                    );
                }
            }
            let succ: Vec<String> = self
                .successors(b)
                .map(|(s, k)| format!("{s} ({})", k.as_str()))
                .collect();
            let _ = writeln!(
                out,
                "  succ:  {}",
                if succ.is_empty() {
                    "-".to_string()
                } else {
                    succ.join(", ")
                }
            );
            let _ = writeln!(
                out,
                "  idom:  {}",
                self.idom(b).map_or("-".to_string(), |d| d.to_string())
            );
            let mut lp = match self.loop_of(b) {
                Some(l) => {
                    let lo = self.loop_(l);
                    let role = if lo.header == b {
                        " header"
                    } else if lo.latches.contains(&b) {
                        " latch"
                    } else {
                        ""
                    };
                    format!("{l} (depth {}){role}", lo.depth)
                }
                None => "-".to_string(),
            };
            if self.in_cycle(b) && self.loop_of(b).is_none() {
                lp.push_str(" (on an irreducible cycle)");
            }
            let _ = writeln!(out, "  loop:  {lp}");
        }
        if !self.loops.is_empty() {
            out.push_str("\nloops:\n");
            for (i, l) in self.loops.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "  {}: header {}, latches [{}], body [{}], depth {}, parent {}",
                    LoopId(i as u32),
                    l.header,
                    join(&l.latches),
                    join(&l.body),
                    l.depth,
                    l.parent.map_or("-".to_string(), |p| p.to_string())
                );
            }
        }
        if !self.irreducible.is_empty() {
            let edges: Vec<String> = self
                .irreducible
                .iter()
                .map(|(f, t)| format!("{f} -> {t}"))
                .collect();
            let _ = writeln!(out, "\nirreducible edges: {}", edges.join(", "));
        }
        out
    }

    /// Renders the CFG as a Graphviz `digraph`: one node per block labelled
    /// with its id, labels and line range; edges labelled with their kind,
    /// back edges bold, unreachable blocks dashed.
    pub fn render_dot(&self, func: &Function<'_>, file: &SourceFile) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "digraph \"{}\" {{", dot_escape(func.name));
        out.push_str("  node [shape=box, fontname=\"monospace\"];\n");
        for b in self.block_ids() {
            let block = self.block(b);
            let labels: Vec<&str> = block.op_ids().filter_map(|id| func.label_at(id)).collect();
            let (l0, l1) = line_range(file, block.span);
            let mut text = b.to_string();
            if !labels.is_empty() {
                let _ = write!(text, " {}", labels.join(" "));
            }
            let _ = write!(text, "\\nlines {l0}-{l1}");
            if let Some(l) = self.loop_of(b) {
                let _ = write!(text, "\\n{l}");
            }
            let style = if self.is_reachable(b) {
                ""
            } else {
                ", style=dashed"
            };
            let _ = writeln!(
                out,
                "  {b} [label=\"{}\"{style}];",
                dot_escape(&text).replace("\\\\n", "\\n")
            );
        }
        for b in self.block_ids() {
            for (s, k) in self.successors(b) {
                let bold = if self.is_back_edge(b, s) {
                    ", style=bold"
                } else {
                    ""
                };
                let _ = writeln!(out, "  {b} -> {s} [label=\"{}\"{bold}];", k.as_str());
            }
        }
        out.push_str("}\n");
        out
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn join(ids: &[BlockId]) -> String {
    ids.iter()
        .map(|b| b.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn line_range(file: &SourceFile, span: Span) -> (u32, u32) {
    let l0 = file.line_col(span.start.min(file.text().len() as u32)).line;
    let end = span.end.max(span.start + 1) - 1;
    let l1 = file.line_col(end.min(file.text().len() as u32)).line;
    (l0, l1.max(l0))
}

/// Collapses runs of whitespace, so an instruction prints on one line.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::syntax::ast::{
        Body, FunctionKind, Guard, Ident, Instruction, Operand, OperandKind, Statement, StmtKind,
    };

    /// Builds a function from a tiny line language (one statement per line):
    /// `L:` a label, `{`/`}` scope markers, `.reg …` a declaration stand-in,
    /// `T: .branchtargets A, B` a table, anything else an instruction
    /// `[@[!]p] mnemonic op, op`. Spans are the lines' byte ranges.
    fn syntax_func(src: &'static str) -> crate::syntax::ast::Function<'static> {
        let mut statements = Vec::new();
        let mut off = 0u32;
        for raw in src.split_inclusive('\n') {
            let line = raw.trim_end_matches('\n');
            let lead = (line.len() - line.trim_start().len()) as u32;
            let text = line.trim().trim_end_matches(';');
            let start = off + lead;
            let span = Span::new(start, start + text.len() as u32);
            off += raw.len() as u32;
            let id = |t: &'static str| Ident { text: t, span };
            let kind = if text.is_empty() {
                continue;
            } else if text == "{" {
                StmtKind::ScopeOpen
            } else if text == "}" {
                StmtKind::ScopeClose
            } else if let Some((name, rest)) = text.split_once(": .branchtargets") {
                StmtKind::BranchTargets {
                    name: id(name),
                    targets: rest.split(',').map(|t| id(t.trim())).collect(),
                }
            } else if let Some(l) = text.strip_suffix(':') {
                StmtKind::Label(id(l))
            } else if text.starts_with(".reg") || text.starts_with(".loc") {
                StmtKind::Directive { name: id(text) }
            } else {
                let (guard, rest) = match text.strip_prefix('@') {
                    Some(r) => {
                        let (g, rest) = r.split_once(' ').unwrap();
                        let negated = g.starts_with('!');
                        let pred = g.trim_start_matches('!');
                        (
                            Some(Box::new(Guard {
                                negated,
                                pred,
                                span,
                            })),
                            rest.trim(),
                        )
                    }
                    None => (None, text),
                };
                let (mnemonic, ops) = rest.split_once(' ').unwrap_or((rest, ""));
                let operands = ops
                    .split(',')
                    .map(str::trim)
                    .filter(|o| !o.is_empty())
                    .map(|o| Operand {
                        span,
                        kind: if o.starts_with('%') {
                            OperandKind::Reg {
                                name: o,
                                component: None,
                            }
                        } else {
                            OperandKind::Symbol(o)
                        },
                    })
                    .collect();
                StmtKind::Instruction(Instruction {
                    guard,
                    mnemonic,
                    operands,
                })
            };
            statements.push(Statement { span, kind });
        }
        crate::syntax::ast::Function {
            span: Span::new(0, src.len() as u32),
            kind: FunctionKind::Entry,
            linkage: Vec::new(),
            name: Ident {
                text: "k",
                span: Span::default(),
            },
            returns: Vec::new(),
            params: Vec::new(),
            directives: Vec::new(),
            body: Some(Body {
                span: Span::new(0, src.len() as u32),
                statements,
            }),
        }
    }

    /// The IR of [`syntax_func`]'s function.
    fn func(src: &'static str) -> Function<'static> {
        crate::lower::ptx::lower_standalone(&syntax_func(src))
    }

    fn succ(cfg: &Cfg, b: u32) -> Vec<(u32, EdgeKind)> {
        cfg.successors(BlockId(b)).map(|(s, k)| (s.0, k)).collect()
    }

    fn ranges(cfg: &Cfg) -> Vec<Range<u32>> {
        cfg.blocks().iter().map(|b| b.stmts.clone()).collect()
    }

    use EdgeKind::*;

    #[test]
    fn straight_line_is_one_block() {
        let cfg = Cfg::build(&func(
            ".reg\nadd.s32 %r1, %r2, %r3\nst.global.u32 [%rd1], %r1\nret\n",
        ));
        assert_eq!(ranges(&cfg), vec![0..4]);
        assert_eq!(succ(&cfg, 0), vec![]);
        assert_eq!(cfg.reverse_post_order(), &[BlockId(0)]);
        assert_eq!(cfg.idom(BlockId(0)), None);
        assert!(cfg.loops().is_empty());
    }

    #[test]
    fn declaration_has_one_empty_block() {
        let mut f = func("ret\n");
        f.body_span = None;
        let cfg = Cfg::build(&f);
        assert_eq!(ranges(&cfg), vec![0..0]);
        assert_eq!(cfg.block(cfg.entry()).span, f.span);
        let f = func("");
        let cfg = Cfg::build(&f);
        assert_eq!(ranges(&cfg), vec![0..0]);
        assert!(cfg.is_reachable(BlockId(0)));
    }

    #[test]
    fn diamond() {
        let cfg = Cfg::build(&func(
            "setp.eq.s32 %p1, %r1, 0\n@%p1 bra ELSE\nmov.u32 %r2, 1\nbra END\nELSE:\nmov.u32 %r2, 2\nEND:\nret\n",
        ));
        assert_eq!(ranges(&cfg), vec![0..2, 2..4, 4..6, 6..8]);
        assert_eq!(succ(&cfg, 0), vec![(2, Taken), (1, NotTaken)]);
        assert_eq!(succ(&cfg, 1), vec![(3, Jump)]);
        assert_eq!(succ(&cfg, 2), vec![(3, Fallthrough)]);
        let preds: Vec<_> = cfg.predecessors(BlockId(3)).collect();
        assert_eq!(preds, vec![(BlockId(1), Jump), (BlockId(2), Fallthrough)]);
        for b in 1..4 {
            assert_eq!(cfg.idom(BlockId(b)), Some(BlockId(0)));
        }
        assert!(cfg.dominates(BlockId(0), BlockId(3)));
        assert!(!cfg.dominates(BlockId(1), BlockId(3)));
        assert!(cfg.loops().is_empty());
        assert_eq!(cfg.reverse_post_order()[0], BlockId(0));
        assert_eq!(
            *cfg.reverse_post_order().last().unwrap(),
            BlockId(3).min(BlockId(3))
        );
    }

    #[test]
    fn guarded_return_ends_block() {
        let cfg = Cfg::build(&func(
            "setp.ge.s32 %p1, %r1, %r2\n@%p1 ret\nadd.s32 %r1, %r1, 1\nret\n",
        ));
        assert_eq!(ranges(&cfg), vec![0..2, 2..4]);
        assert_eq!(succ(&cfg, 0), vec![(1, NotTaken)]);
        assert_eq!(succ(&cfg, 1), vec![]);
        let cfg = Cfg::build(&func("@!%p1 exit\n@%p2 trap\nret\n"));
        assert_eq!(ranges(&cfg), vec![0..1, 1..2, 2..3]);
        assert_eq!(succ(&cfg, 0), vec![(1, NotTaken)]);
        assert_eq!(succ(&cfg, 1), vec![(2, NotTaken)]);
    }

    #[test]
    fn guarded_branch_to_next_block_has_both_edges() {
        let cfg = Cfg::build(&func("@%p1 bra NEXT\nNEXT:\nret\n"));
        assert_eq!(succ(&cfg, 0), vec![(1, Taken), (1, NotTaken)]);
        assert_eq!(cfg.predecessors(BlockId(1)).count(), 2);
    }

    #[test]
    fn consecutive_labels_name_one_block() {
        let cfg = Cfg::build(&func("bra B\nA:\nB:\n.loc\nret\n"));
        assert_eq!(ranges(&cfg), vec![0..1, 1..5]);
        assert_eq!(succ(&cfg, 0), vec![(1, Jump)]);
        // Declarations before the first label: the label joins the entry block.
        let cfg = Cfg::build(&func(
            ".reg\nTOP:\nadd.s32 %r1, %r1, 1\n@%p1 bra TOP\nret\n",
        ));
        assert_eq!(ranges(&cfg), vec![0..4, 4..5]);
        assert_eq!(succ(&cfg, 0), vec![(0, Taken), (1, NotTaken)]);
        assert_eq!(cfg.loops().len(), 1);
        assert_eq!(cfg.loops()[0].header, BlockId(0));
        assert!(cfg.in_cycle(BlockId(0)));
        assert!(!cfg.in_cycle(BlockId(1)));
    }

    #[test]
    fn trailing_non_instructions_stay_in_last_block() {
        let cfg = Cfg::build(&func("{\nadd.s32 %r1, %r1, 1\nret\n}\n.loc\n"));
        assert_eq!(ranges(&cfg), vec![0..5]);
        // but a .loc after a terminator and before more code starts the next block
        let cfg = Cfg::build(&func("bra L\n.loc\nmov.u32 %r1, 0\nL:\nret\n"));
        assert_eq!(ranges(&cfg), vec![0..1, 1..3, 3..5]);
        assert!(!cfg.is_reachable(BlockId(1)));
    }

    #[test]
    fn unreachable_block() {
        let cfg = Cfg::build(&func("bra END\nmov.u32 %r1, 0\nEND:\nret\n"));
        assert_eq!(ranges(&cfg), vec![0..1, 1..2, 2..4]);
        assert_eq!(succ(&cfg, 1), vec![(2, Fallthrough)]);
        assert!(!cfg.is_reachable(BlockId(1)));
        assert_eq!(cfg.idom(BlockId(1)), None);
        assert_eq!(cfg.idom(BlockId(2)), Some(BlockId(0)));
        assert_eq!(cfg.reverse_post_order(), &[BlockId(0), BlockId(2)]);
        assert!(!cfg.dominates(BlockId(1), BlockId(2)));
        assert!(!cfg.dominates(BlockId(0), BlockId(1)));
        assert!(cfg.dominates(BlockId(1), BlockId(1)));
    }

    #[test]
    fn unknown_targets_are_ignored() {
        let cfg = Cfg::build(&func("@%p1 bra NOWHERE\nbra ALSO_NOWHERE\nret\n"));
        assert_eq!(succ(&cfg, 0), vec![(1, NotTaken)]);
        assert_eq!(succ(&cfg, 1), vec![]);
        assert!(!cfg.is_reachable(BlockId(2)));
    }

    #[test]
    fn nested_loops() {
        // for i { for j { body } }
        let cfg = Cfg::build(&func(
            "mov.u32 %r1, 0\nOUTER:\nmov.u32 %r2, 0\nINNER:\nadd.s32 %r2, %r2, 1\n@%p1 bra INNER\n\
             add.s32 %r1, %r1, 1\n@%p2 bra OUTER\nret\n",
        ));
        assert_eq!(ranges(&cfg), vec![0..1, 1..3, 3..6, 6..8, 8..9]);
        assert_eq!(cfg.loops().len(), 2);
        let outer = &cfg.loops()[0];
        let inner = &cfg.loops()[1];
        assert_eq!(
            (outer.header, outer.latches.clone()),
            (BlockId(1), vec![BlockId(3)])
        );
        assert_eq!(outer.body, vec![BlockId(1), BlockId(2), BlockId(3)]);
        assert_eq!((outer.parent, outer.depth), (None, 1));
        assert_eq!(
            (inner.header, inner.latches.clone()),
            (BlockId(2), vec![BlockId(2)])
        );
        assert_eq!(inner.body, vec![BlockId(2)]);
        assert_eq!((inner.parent, inner.depth), (Some(LoopId(0)), 2));
        assert_eq!(cfg.loop_of(BlockId(2)), Some(LoopId(1)));
        assert_eq!(cfg.loop_of(BlockId(3)), Some(LoopId(0)));
        assert_eq!(cfg.loop_of(BlockId(0)), None);
        assert_eq!(cfg.loop_of(BlockId(4)), None);
        assert!(cfg.is_back_edge(BlockId(2), BlockId(2)));
        assert!(cfg.is_back_edge(BlockId(3), BlockId(1)));
        assert!(!cfg.is_back_edge(BlockId(1), BlockId(2)));
        assert!(cfg.irreducible_edges().is_empty());
    }

    #[test]
    fn grid_stride_loop_as_nvcc_emits_it() {
        // if (i >= n) return; do { body; i += stride; } while (i < n);
        let cfg = Cfg::build(&func(
            "setp.ge.s32 %p1, %r1, %r2\n@%p1 bra DONE\nmul.lo.s32 %r3, %r4, %r5\n\
             LOOP:\nld.global.f32 %f1, [%rd1]\nst.global.f32 [%rd2], %f1\nadd.s32 %r1, %r1, %r3\n\
             setp.lt.s32 %p2, %r1, %r2\n@%p2 bra LOOP\nDONE:\nret\n",
        ));
        assert_eq!(ranges(&cfg), vec![0..2, 2..3, 3..9, 9..11]);
        assert_eq!(succ(&cfg, 0), vec![(3, Taken), (1, NotTaken)]);
        assert_eq!(succ(&cfg, 1), vec![(2, Fallthrough)]);
        assert_eq!(succ(&cfg, 2), vec![(2, Taken), (3, NotTaken)]);
        assert_eq!(cfg.loops().len(), 1);
        assert_eq!(cfg.loops()[0].body, vec![BlockId(2)]);
        assert_eq!(cfg.idom(BlockId(3)), Some(BlockId(0)));
        assert_eq!(cfg.idom(BlockId(2)), Some(BlockId(1)));
    }

    #[test]
    fn brx_idx_targets() {
        let cfg = Cfg::build(&func(
            "TBL: .branchtargets A, B, A\nbrx.idx %r1, TBL\nA:\nbra END\nB:\nbra END\nEND:\nret\n",
        ));
        assert_eq!(ranges(&cfg), vec![0..2, 2..4, 4..6, 6..8]);
        assert_eq!(succ(&cfg, 0), vec![(1, Indexed), (2, Indexed)]);
        let cfg = Cfg::build(&func(
            "TBL: .branchtargets A\n@%p1 brx.idx %r1, TBL\nret\nA:\nret\n",
        ));
        assert_eq!(succ(&cfg, 0), vec![(2, Indexed), (1, NotTaken)]);
    }

    #[test]
    fn table_may_follow_its_brx() {
        let cfg = Cfg::build(&func(
            "brx.idx %r1, TBL\nA:\nret\nB:\nTBL: .branchtargets B, A\nret\n",
        ));
        assert_eq!(ranges(&cfg), vec![0..1, 1..3, 3..6]);
        assert_eq!(succ(&cfg, 0), vec![(2, Indexed), (1, Indexed)]);
    }

    #[test]
    fn deep_scopes_resolve_outer_labels() {
        let mut src = String::from("TOP:\nadd.s32 %r1, %r1, 1\n");
        for _ in 0..3000 {
            src.push_str("{\nIN:\n@%p1 bra TOP\n");
        }
        src.push_str(&"}\n".repeat(3000));
        src.push_str("ret\n");
        let src: &'static str = Box::leak(src.into_boxed_str());
        let cfg = Cfg::build(&func(src));
        assert_eq!(cfg.blocks().len(), 3002);
        for b in 1..3001 {
            assert_eq!(succ(&cfg, b)[0], (0, Taken));
        }
        assert_eq!(cfg.loops().len(), 1);
        assert_eq!(cfg.loops()[0].latches.len(), 3000);
    }

    #[test]
    fn labels_resolve_through_scopes() {
        // Two copies of an inlined asm block, each with its own `WAIT` label.
        let cfg = Cfg::build(&func(
            "{\nWAIT:\nmbarrier.try_wait %p1\n@!%p1 bra WAIT\n}\n{\nWAIT:\nmbarrier.try_wait %p1\n@!%p1 bra WAIT\n}\nret\n",
        ));
        assert_eq!(ranges(&cfg), vec![0..4, 4..9, 9..11]);
        assert_eq!(succ(&cfg, 0), vec![(0, Taken), (1, NotTaken)]);
        assert_eq!(succ(&cfg, 1), vec![(1, Taken), (2, NotTaken)]);
        assert_eq!(cfg.loops().len(), 2);
        // An inner branch may reach an outer label; an outer one may not enter a scope.
        let cfg = Cfg::build(&func("{\n@%p1 bra OUT\nIN:\nret\n}\nbra IN\nOUT:\nret\n"));
        assert_eq!(succ(&cfg, 0), vec![(3, Taken), (1, NotTaken)]);
        assert_eq!(succ(&cfg, 2), vec![]);
    }

    #[test]
    fn irreducible_flow_makes_no_loop() {
        // entry branches into either A or B; A and B branch to each other.
        let cfg = Cfg::build(&func("@%p1 bra B\nA:\nadd.s32 %r1, %r1, 1\n@%p2 bra B\nret\nB:\nadd.s32 %r1, %r1, 2\n@%p3 bra A\nret\n"));
        assert_eq!(ranges(&cfg), vec![0..1, 1..4, 4..5, 5..8, 8..9]);
        assert!(cfg.loops().is_empty());
        assert_eq!(cfg.back_edges(), &[]);
        assert_eq!(cfg.irreducible_edges().len(), 1);
        assert!(cfg.in_cycle(BlockId(1)) && cfg.in_cycle(BlockId(3)));
        assert!(!cfg.in_cycle(BlockId(0)) && !cfg.in_cycle(BlockId(2)));
        assert_eq!(cfg.idom(BlockId(1)), Some(BlockId(0)));
        assert_eq!(cfg.idom(BlockId(3)), Some(BlockId(0)));
        assert_eq!(cfg.reverse_post_order().len(), 5);
    }

    #[test]
    fn deep_chain_does_not_overflow() {
        let mut src = String::new();
        for i in 0..20000 {
            src.push_str(&format!("L{i}:\nadd.s32 %r1, %r1, 1\n@%p1 bra L{i}\n"));
        }
        src.push_str("ret\n");
        let src: &'static str = Box::leak(src.into_boxed_str());
        let cfg = Cfg::build(&func(src));
        assert_eq!(cfg.blocks().len(), 20001);
        assert_eq!(cfg.loops().len(), 20000);
        assert_eq!(cfg.idom(BlockId(20000)), Some(BlockId(19999)));
        assert!(cfg.dominates(BlockId(0), BlockId(20000)));
    }

    #[test]
    fn block_of_maps_every_statement() {
        let cfg = Cfg::build(&func("@%p1 bra B\nmov.u32 %r1, 0\nB:\nret\n"));
        let got: Vec<u32> = (0..4).map(|s| cfg.block_of(OpId(s)).0).collect();
        assert_eq!(got, vec![0, 1, 2, 2]);
    }
}
