//! SSA form of the warp IR, as a side structure.
//!
//! The IR ([`super::Function`]) keeps PTX's registers, which may be written
//! many times. [`Ssa::build`] gives every *definition* its own value, the way
//! cranelift and naga keep results beside the code they describe: the ops are
//! not rewritten; an [`Ssa`] holds values in an arena ([`ValueId`]), phis at
//! the joins, and side tables from each op's register reads and writes to
//! the values they are. Everything is keyed by [`OpId`], [`BlockId`] and
//! [`Reg`], so the IR, the CFG and the analysis share one set of ids.
//!
//! # Values
//!
//! A [`Value`] is one definition of one register, with the span of the source
//! it came from. It is one of
//! - [`ValueDef::Op`]: the write of a register by an op (an `Alu`
//!   destination, both of `setp p|q`, a load result, `ld.param`, a call's
//!   results, …); an op that writes two registers defines two values;
//! - [`ValueDef::Phi`]: a phi at the top of a join block, merging the values
//!   that reach it along each incoming edge ([`Phi`], [`PhiArg`]);
//! - [`ValueDef::Entry`]: what a register holds when the function starts.
//!   PTX does not initialise registers, so this is *undefined*; it is made
//!   only for registers that some path reads before writing. Kernel
//!   parameters and special registers are not registers in the IR
//!   ([`super::Src::Param`], [`super::Src::Special`]): they are read-only
//!   operands and need no value.
//!
//! Its span is the op's statement for an op's value, the join block's first
//! statement (its label) for a phi, and the function for an entry value.
//!
//! # Guarded definitions
//!
//! `@%p add.s32 %r1, %r1, 1` writes `%r1` only in the lanes where `%p`
//! holds; the other lanes keep the old value. Such a write defines a new
//! value that is a *select*: `v_new = %p ? add(...) : v_old`. Its def records
//! the merged value (`ValueDef::Op { merges: Some(v_old) }`), and the op's
//! reads include the register it writes (the read of `v_old`) and the guard,
//! so def-use chains and slices see both. This keeps one value per
//! definition and no phis for predication: the join is inside the op, as in
//! the hardware. An unguarded write replaces the register in every lane.
//!
//! # Construction
//!
//! The classical algorithm of Cytron et al., pruned by liveness:
//! 1. *Upward-exposed reads*: the blocks that read a register before any
//!    write in the same block (a guarded write's merge counts as a read).
//!    A register that has none (used only inside the blocks that write it)
//!    never gets a phi. From them, a backward walk that stops at the blocks
//!    writing the register gives the blocks where it is *live-in*.
//! 2. *Dominance frontiers* from the CFG's immediate dominators (Cooper,
//!    Harvey and Kennedy: from each predecessor of a join, walk up the
//!    dominator tree until the join's immediate dominator).
//! 3. *Phi placement*: for each register, the iterated dominance frontier
//!    of the blocks that write it (a worklist, each block entered once per
//!    register), keeping only the blocks where it is live-in: no phi is dead
//!    when placed (a phi whose only readers are dead phis cannot arise, since
//!    a live-in register is read on some path before any write).
//! 4. *Renaming*: one walk of the dominator tree (an explicit stack, no
//!    recursion) with a stack of values per register; each op's reads take
//!    the top (or the register's entry value), its writes push new values,
//!    and each successor's phis receive the top as the argument of this edge.
//!
//! The entry block may itself be a join (a loop back to the first
//! statement): its phis have an argument for the function's start
//! (`pred: None`, the register's entry value) besides one per predecessor.
//! A phi has one argument per *distinct reachable* predecessor block (a
//! guarded branch to the next block is two edges from one block carrying one
//! value). Blocks not reachable from the entry get no phis and are renamed
//! on their own, after the walk: their reads of registers not written
//! earlier in the same block take the entry value (dominance means nothing
//! there), and they contribute no phi arguments.
//!
//! Cost: steps 1 and 4 visit each op once; the liveness walks, the dominance
//! frontiers and the iterated frontiers are linear in practice (their worst
//! case is the number of blocks times the number of registers, as for every
//! Cytron-style construction). No recursion, so no input overflows the
//! stack.
//!
//! # Side tables
//!
//! - [`Ssa::uses`] — for an op, each register it reads with the value read
//!   (each register once: every read of one register inside one op sees the
//!   same value, so `(op, register)` names a use; [`Ssa::use_of`]).
//! - [`Ssa::defs`] — for an op, each register it writes with its new value
//!   ([`Ssa::def_of`]).
//! - [`Ssa::users`] — def-use chains: the ops and phis that read a value.
//! - [`Ssa::slice`] / [`Ssa::address_slice`] — backward slices: the values
//!   that flow into memory addresses, a memory op's further operands
//!   (`MemInfo::aux`: `cp.async` source sizes, bulk sizes, mbarriers,
//!   descriptors), guards and branch predicates, the only ones a sparse
//!   address analysis must compute (`analysis::dataflow` computes exactly
//!   the registers of this slice).
//! - [`Ssa::verify`] — the SSA invariants, checked against the CFG (each use
//!   dominated by its definition, phi arguments by their predecessor's end,
//!   one definition per value, every read and write of the IR mapped).
//!
//! # Limits
//!
//! The IR names only the operands the analysis reads: a store's data
//! register, a call's arguments and an indexed branch's index are not
//! operands of their ops ([`super::OpKind`]), so they are not uses here
//! either, and liveness is that of the registers the IR names.

use super::{Function, Op, OpId, OpKind, Reg, Src};
use crate::cfg::{BlockId, Cfg};
use crate::source::{SourceFile, Span};
use std::fmt::{self, Write as _};
use std::ops::Range;

/// Index of a value in [`Ssa::values`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ValueId(pub u32);

impl ValueId {
    /// The index into the value arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for ValueId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

/// Index of a phi in [`Ssa::phis`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PhiId(pub u32);

impl PhiId {
    /// The index into the phi arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a value is defined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// The register's (undefined) content at the function's start.
    Entry,
    /// Written by an op.
    Op {
        /// The op.
        op: OpId,
        /// For a guarded op: the value kept in the lanes where the guard is
        /// false (the value is `guard ? new : merges`).
        merges: Option<ValueId>,
    },
    /// A phi at the top of a join block.
    Phi(PhiId),
}

/// One definition of one register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    /// The register it is a version of.
    pub reg: Reg,
    /// Where it is defined.
    pub def: ValueDef,
    /// The source it came from (the op's statement, the join's first
    /// statement, or the function for an entry value).
    pub span: Span,
}

/// A phi: the value of a register at the top of a join block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phi {
    /// The join block.
    pub block: BlockId,
    /// The value it defines.
    pub value: ValueId,
    args: Range<u32>,
}

/// One incoming value of a phi.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhiArg {
    /// The predecessor block; `None` for the function's start (entry block only).
    pub pred: Option<BlockId>,
    /// The value that reaches the join along that edge.
    pub value: ValueId,
}

/// A reader of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum User {
    /// An op (through one of its operands, its guard, or a guarded write's merge).
    Op(OpId),
    /// A phi argument.
    Phi(PhiId),
}

/// The SSA form of one function: values, phis and the side tables that map
/// the IR's register reads and writes to them.
#[derive(Clone, Debug, Default)]
pub struct Ssa {
    values: Vec<Value>,
    phis: Vec<Phi>,
    phi_args: Vec<PhiArg>,
    block_phis: Vec<Range<u32>>,
    op_uses: Vec<Range<u32>>,
    uses: Vec<(Reg, ValueId)>,
    op_defs: Vec<Range<u32>>,
    defs: Vec<(Reg, ValueId)>,
    user_start: Vec<u32>,
    users: Vec<User>,
    entry_of: Vec<Option<ValueId>>,
}

/// Calls `f` with each register `op` reads as an operand or guard (repeats
/// kept), in operand order, the guard first. A guarded op's merge of the
/// registers it writes is not included (see [`op_writes`]).
pub fn op_reads(op: &Op, mut f: impl FnMut(Reg)) {
    if let Some((g, _)) = op.guard {
        f(g);
    }
    let mut src = |s: &Src| {
        if let Src::Reg(r, _) | Src::NotPred(r) = s {
            f(*r);
        }
    };
    match &op.kind {
        OpKind::Alu { srcs, .. } | OpKind::PredLogic { srcs, .. } | OpKind::Other { srcs, .. } => {
            srcs.iter().for_each(&mut src)
        }
        OpKind::Mem { info, .. } => {
            src(&info.addr);
            info.aux_operands().iter().for_each(|(_, a)| src(a));
        }
        OpKind::Nop
        | OpKind::LdParam { .. }
        | OpKind::Branch { .. }
        | OpKind::Exit
        | OpKind::Call { .. } => {}
    }
}

/// Calls `f` with each register `op` writes (repeats kept), in order.
pub fn op_writes(op: &Op, mut f: impl FnMut(Reg)) {
    match &op.kind {
        OpKind::Alu { dst, dst2, .. } => {
            f(*dst);
            if let Some(d) = dst2 {
                f(*d);
            }
        }
        OpKind::PredLogic { dst, .. } => f(*dst),
        OpKind::LdParam { dsts, .. }
        | OpKind::Mem { dsts, .. }
        | OpKind::Call { dsts, .. }
        | OpKind::Other { dsts, .. } => dsts.iter().for_each(|&d| f(d)),
        OpKind::Nop | OpKind::Branch { .. } | OpKind::Exit => {}
    }
}

/// The distinct predecessors of `b` that are reachable, in block order.
fn reachable_preds(cfg: &Cfg, b: BlockId) -> Vec<BlockId> {
    let mut out: Vec<BlockId> = cfg
        .predecessors(b)
        .map(|(p, _)| p)
        .filter(|&p| cfg.is_reachable(p))
        .collect();
    out.dedup();
    out
}

/// The distinct successors of `b`, in edge order.
fn distinct_succs(cfg: &Cfg, b: BlockId) -> Vec<BlockId> {
    let mut out: Vec<BlockId> = Vec::new();
    for (s, _) in cfg.successors(b) {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

const NONE: u32 = u32::MAX;

/// State of the renaming walk.
struct Renamer<'a, 'f> {
    func: &'a Function<'f>,
    ssa: Ssa,
    stacks: Vec<Vec<ValueId>>,
    log: Vec<Reg>,
    scratch: Vec<Reg>,
}

impl Renamer<'_, '_> {
    fn entry_value(&mut self, r: Reg) -> ValueId {
        if let Some(v) = self.ssa.entry_of[r as usize] {
            return v;
        }
        let v = self.ssa.push_value(Value {
            reg: r,
            def: ValueDef::Entry,
            span: self.func.span,
        });
        self.ssa.entry_of[r as usize] = Some(v);
        v
    }

    fn current(&mut self, r: Reg) -> ValueId {
        match self.stacks[r as usize].last() {
            Some(&v) => v,
            None => self.entry_value(r),
        }
    }

    fn define(&mut self, r: Reg, v: ValueId) {
        self.stacks[r as usize].push(v);
        self.log.push(r);
    }

    /// Renames the phis and ops of one block (not its successors' phis).
    fn block(&mut self, cfg: &Cfg, b: BlockId) {
        for p in self.ssa.block_phis[b.index()].clone() {
            let phi = &self.ssa.phis[p as usize];
            let v = phi.value;
            let r = self.ssa.values[v.index()].reg;
            self.define(r, v);
        }
        for id in cfg.block(b).op_ids() {
            let Some(op) = self.func.ops.get(id.index()) else {
                continue;
            };
            let start = self.ssa.uses.len() as u32;
            let mut scratch = std::mem::take(&mut self.scratch);
            scratch.clear();
            op_reads(op, |r| scratch.push(r));
            if op.guard.is_some() {
                op_writes(op, |r| scratch.push(r));
            }
            for &r in &scratch {
                let seen = self.ssa.uses[start as usize..].iter().any(|&(u, _)| u == r);
                if !seen && (r as usize) < self.stacks.len() {
                    let v = self.current(r);
                    self.ssa.uses.push((r, v));
                }
            }
            let end = self.ssa.uses.len() as u32;
            self.ssa.op_uses[id.index()] = start..end;
            scratch.clear();
            op_writes(op, |r| scratch.push(r));
            let dstart = self.ssa.defs.len() as u32;
            for &r in &scratch {
                if (r as usize) >= self.stacks.len()
                    || self.ssa.defs[dstart as usize..]
                        .iter()
                        .any(|&(d, _)| d == r)
                {
                    continue;
                }
                let merges = op.guard.is_some().then(|| {
                    self.ssa.uses[start as usize..end as usize]
                        .iter()
                        .find(|&&(u, _)| u == r)
                        .map(|&(_, v)| v)
                });
                let v = self.ssa.push_value(Value {
                    reg: r,
                    def: ValueDef::Op {
                        op: id,
                        merges: merges.flatten(),
                    },
                    span: self.func.spans.get(id.index()).copied().unwrap_or_default(),
                });
                self.ssa.defs.push((r, v));
                self.define(r, v);
            }
            self.ssa.op_defs[id.index()] = dstart..self.ssa.defs.len() as u32;
            self.scratch = scratch;
        }
    }

    /// Fills the arguments of `b`'s edge in each successor's phis.
    fn fill_successors(&mut self, cfg: &Cfg, b: BlockId) {
        for s in distinct_succs(cfg, b) {
            for p in self.ssa.block_phis[s.index()].clone() {
                let phi = &self.ssa.phis[p as usize];
                let r = self.ssa.values[phi.value.index()].reg;
                let args = phi.args.clone();
                let v = self.current(r);
                for a in args {
                    if self.ssa.phi_args[a as usize].pred == Some(b) {
                        self.ssa.phi_args[a as usize].value = v;
                    }
                }
            }
        }
    }

    fn unwind(&mut self, to: usize) {
        while self.log.len() > to {
            if let Some(r) = self.log.pop() {
                self.stacks[r as usize].pop();
            }
        }
    }
}

impl Ssa {
    fn push_value(&mut self, v: Value) -> ValueId {
        let id = ValueId(self.values.len() as u32);
        self.values.push(v);
        id
    }

    /// Builds the SSA form of `func`; `cfg` must be its CFG
    /// ([`Cfg::build`]`(func)`).
    pub fn build(func: &Function<'_>, cfg: &Cfg) -> Ssa {
        let nregs = func.regs.len();
        let nb = cfg.blocks().len();
        let nops = func.ops.len();
        let ssa = Ssa {
            block_phis: vec![0..0; nb],
            op_uses: vec![0..0; nops],
            op_defs: vec![0..0; nops],
            entry_of: vec![None; nregs],
            ..Ssa::default()
        };
        let valid = |r: Reg| (r as usize) < nregs;

        // 1. Non-local registers and the blocks that write each register.
        let mut written_in = vec![NONE; nregs];
        let mut read_in = vec![NONE; nregs];
        let mut def_blocks: Vec<Vec<BlockId>> = vec![Vec::new(); nregs];
        // Blocks that read a register before writing it (upward-exposed).
        let mut use_blocks: Vec<Vec<BlockId>> = vec![Vec::new(); nregs];
        for b in cfg.block_ids().filter(|&b| cfg.is_reachable(b)) {
            for id in cfg.block(b).op_ids() {
                let Some(op) = func.ops.get(id.index()) else {
                    continue;
                };
                let mut read = |r: Reg| {
                    if valid(r) && written_in[r as usize] != b.0 && read_in[r as usize] != b.0 {
                        read_in[r as usize] = b.0;
                        use_blocks[r as usize].push(b);
                    }
                };
                op_reads(op, &mut read);
                if op.guard.is_some() {
                    op_writes(op, &mut read);
                }
                op_writes(op, |r| {
                    if valid(r) && written_in[r as usize] != b.0 {
                        written_in[r as usize] = b.0;
                        def_blocks[r as usize].push(b);
                    }
                });
            }
        }

        // 2. Dominance frontiers.
        let preds: Vec<Vec<BlockId>> = cfg
            .block_ids()
            .map(|b| {
                if cfg.is_reachable(b) {
                    reachable_preds(cfg, b)
                } else {
                    Vec::new()
                }
            })
            .collect();
        let mut df: Vec<Vec<BlockId>> = vec![Vec::new(); nb];
        for b in cfg.block_ids().filter(|&b| cfg.is_reachable(b)) {
            let incoming = preds[b.index()].len() + usize::from(b == cfg.entry());
            if incoming < 2 {
                continue;
            }
            let stop = cfg.idom(b);
            for &p in &preds[b.index()] {
                let mut runner = Some(p);
                while let Some(x) = runner {
                    if Some(x) == stop {
                        break;
                    }
                    if df[x.index()].last() != Some(&b) {
                        df[x.index()].push(b);
                    }
                    runner = cfg.idom(x);
                }
            }
        }

        // 3. Phis at the iterated dominance frontiers of each non-local
        //    register, where it is live.
        let mut placed: Vec<Vec<Reg>> = vec![Vec::new(); nb];
        let mut has_phi = vec![NONE; nb];
        let mut queued = vec![NONE; nb];
        let mut defines = vec![NONE; nb];
        let mut live_in = vec![NONE; nb];
        let mut work: Vec<BlockId> = Vec::new();
        for r in 0..nregs as u32 {
            if use_blocks[r as usize].is_empty() || def_blocks[r as usize].is_empty() {
                continue;
            }
            // Live-in blocks: backwards from the upward-exposed reads, not
            // through blocks that write the register.
            for &b in &def_blocks[r as usize] {
                defines[b.index()] = r;
            }
            work.clear();
            for &b in &use_blocks[r as usize] {
                live_in[b.index()] = r;
                work.push(b);
            }
            while let Some(x) = work.pop() {
                for &p in &preds[x.index()] {
                    if live_in[p.index()] != r && defines[p.index()] != r {
                        live_in[p.index()] = r;
                        work.push(p);
                    }
                }
            }
            work.clear();
            for &b in &def_blocks[r as usize] {
                queued[b.index()] = r;
                work.push(b);
            }
            while let Some(x) = work.pop() {
                for &y in &df[x.index()] {
                    if has_phi[y.index()] != r {
                        has_phi[y.index()] = r;
                        if live_in[y.index()] == r {
                            placed[y.index()].push(r);
                        }
                        if queued[y.index()] != r {
                            queued[y.index()] = r;
                            work.push(y);
                        }
                    }
                }
            }
        }
        drop((def_blocks, use_blocks, df));

        let mut ren = Renamer {
            func,
            ssa,
            stacks: vec![Vec::new(); nregs],
            log: Vec::new(),
            scratch: Vec::new(),
        };
        for b in cfg.block_ids() {
            let start = ren.ssa.phis.len() as u32;
            let span = cfg
                .block(b)
                .op_ids()
                .next()
                .and_then(|id| func.spans.get(id.index()).copied())
                .unwrap_or(cfg.block(b).span);
            for &r in &placed[b.index()] {
                let pid = PhiId(ren.ssa.phis.len() as u32);
                let v = ren.ssa.push_value(Value {
                    reg: r,
                    def: ValueDef::Phi(pid),
                    span,
                });
                let astart = ren.ssa.phi_args.len() as u32;
                if b == cfg.entry() {
                    let e = ren.entry_value(r);
                    ren.ssa.phi_args.push(PhiArg {
                        pred: None,
                        value: e,
                    });
                }
                for &p in &preds[b.index()] {
                    ren.ssa.phi_args.push(PhiArg {
                        pred: Some(p),
                        value: v, // filled by the renaming walk
                    });
                }
                let aend = ren.ssa.phi_args.len() as u32;
                ren.ssa.phis.push(Phi {
                    block: b,
                    value: v,
                    args: astart..aend,
                });
            }
            ren.ssa.block_phis[b.index()] = start..ren.ssa.phis.len() as u32;
        }
        drop(placed);

        // 4. Renaming: the dominator tree, children in reverse post-order.
        let mut children: Vec<Vec<BlockId>> = vec![Vec::new(); nb];
        for &b in cfg.reverse_post_order() {
            if let Some(d) = cfg.idom(b) {
                children[d.index()].push(b);
            }
        }
        let mut stack: Vec<(BlockId, usize, usize)> = Vec::new();
        if nb > 0 && cfg.is_reachable(cfg.entry()) {
            ren.block(cfg, cfg.entry());
            ren.fill_successors(cfg, cfg.entry());
            stack.push((cfg.entry(), 0, 0));
        }
        while let Some(top) = stack.last_mut() {
            let (b, i, mark) = *top;
            if let Some(&c) = children[b.index()].get(i) {
                top.1 += 1;
                let mark = ren.log.len();
                ren.block(cfg, c);
                ren.fill_successors(cfg, c);
                stack.push((c, 0, mark));
            } else {
                ren.unwind(mark);
                stack.pop();
            }
        }
        // Unreachable blocks, each on its own.
        for b in cfg.block_ids().filter(|&b| !cfg.is_reachable(b)) {
            ren.block(cfg, b);
            ren.unwind(0);
        }
        let mut ssa = ren.ssa;

        // Def-use chains.
        let n = ssa.values.len();
        let mut count = vec![0u32; n + 1];
        for &(_, v) in &ssa.uses {
            count[v.index() + 1] += 1;
        }
        for a in &ssa.phi_args {
            count[a.value.index() + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut users = vec![User::Op(OpId(0)); ssa.uses.len() + ssa.phi_args.len()];
        for (op, r) in ssa.op_uses.iter().enumerate() {
            for &(_, v) in &ssa.uses[r.start as usize..r.end as usize] {
                users[fill[v.index()] as usize] = User::Op(OpId(op as u32));
                fill[v.index()] += 1;
            }
        }
        for (p, phi) in ssa.phis.iter().enumerate() {
            for a in &ssa.phi_args[phi.args.start as usize..phi.args.end as usize] {
                users[fill[a.value.index()] as usize] = User::Phi(PhiId(p as u32));
                fill[a.value.index()] += 1;
            }
        }
        ssa.user_start = count;
        ssa.users = users;
        ssa
    }

    /// Every value, by id.
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// One value.
    pub fn value(&self, v: ValueId) -> &Value {
        &self.values[v.index()]
    }

    /// Every phi, by id (grouped by block, in block order).
    pub fn phis(&self) -> &[Phi] {
        &self.phis
    }

    /// One phi.
    pub fn phi(&self, p: PhiId) -> &Phi {
        &self.phis[p.index()]
    }

    /// The incoming values of a phi: the function's start first (entry block
    /// only), then one per distinct reachable predecessor in block order.
    pub fn phi_args(&self, p: PhiId) -> &[PhiArg] {
        let r = &self.phis[p.index()].args;
        &self.phi_args[r.start as usize..r.end as usize]
    }

    /// The phis at the top of a block.
    pub fn block_phis(&self, b: BlockId) -> impl ExactSizeIterator<Item = PhiId> + '_ {
        self.block_phis
            .get(b.index())
            .cloned()
            .unwrap_or(0..0)
            .map(PhiId)
    }

    /// The registers `op` reads (its operands, its guard, and for a guarded
    /// op the registers it writes), each once, with the value read.
    pub fn uses(&self, op: OpId) -> &[(Reg, ValueId)] {
        match self.op_uses.get(op.index()) {
            Some(r) => &self.uses[r.start as usize..r.end as usize],
            None => &[],
        }
    }

    /// The registers `op` writes, each once, with the value it defines.
    pub fn defs(&self, op: OpId) -> &[(Reg, ValueId)] {
        match self.op_defs.get(op.index()) {
            Some(r) => &self.defs[r.start as usize..r.end as usize],
            None => &[],
        }
    }

    /// The value `op` reads from register `reg`.
    pub fn use_of(&self, op: OpId, reg: Reg) -> Option<ValueId> {
        self.uses(op)
            .iter()
            .find(|(r, _)| *r == reg)
            .map(|&(_, v)| v)
    }

    /// The value `op` defines in register `reg`.
    pub fn def_of(&self, op: OpId, reg: Reg) -> Option<ValueId> {
        self.defs(op)
            .iter()
            .find(|(r, _)| *r == reg)
            .map(|&(_, v)| v)
    }

    /// The ops and phis that read `v` (an op once, however many operands).
    pub fn users(&self, v: ValueId) -> &[User] {
        let (a, b) = (
            self.user_start[v.index()] as usize,
            self.user_start[v.index() + 1] as usize,
        );
        &self.users[a..b]
    }

    /// The entry (undefined) value of a register, if some path reads it
    /// before any write.
    pub fn entry_value(&self, reg: Reg) -> Option<ValueId> {
        self.entry_of.get(reg as usize).copied().flatten()
    }

    /// The values `v` is computed from: an op's reads (operands, guard,
    /// merged old value), a phi's arguments; none for an entry value.
    pub fn operands(&self, v: ValueId) -> impl Iterator<Item = ValueId> + '_ {
        let (ops, args): (&[(Reg, ValueId)], &[PhiArg]) = match self.values[v.index()].def {
            ValueDef::Entry => (&[], &[]),
            ValueDef::Op { op, .. } => (self.uses(op), &[]),
            ValueDef::Phi(p) => (&[], self.phi_args(p)),
        };
        ops.iter()
            .map(|&(_, v)| v)
            .chain(args.iter().map(|a| a.value))
    }

    /// The backward slice of `roots`: every value they are computed from,
    /// transitively ([`Ssa::operands`]), the roots included.
    pub fn slice(&self, roots: impl IntoIterator<Item = ValueId>) -> Slice {
        let mut member = vec![false; self.values.len()];
        let mut work: Vec<ValueId> = Vec::new();
        for r in roots {
            if !member[r.index()] {
                member[r.index()] = true;
                work.push(r);
            }
        }
        while let Some(v) = work.pop() {
            for o in self.operands(v) {
                if !member[o.index()] {
                    member[o.index()] = true;
                    work.push(o);
                }
            }
        }
        Slice { member }
    }

    /// The values a sparse address analysis needs: the backward slice of
    /// every memory operation's address, further operands (`MemInfo::aux`:
    /// `cp.async` source sizes, bulk sizes, mbarriers, descriptors; not the
    /// values a `st.local` stores, `Aux::Stored`) and
    /// guard, and of every branch's and exit's guard (which decides the
    /// active lanes of what follows).
    pub fn address_slice(&self, func: &Function<'_>) -> Slice {
        self.address_slice_of(func, |_| true)
    }

    /// [`Ssa::address_slice`] of the memory operations `keep` accepts only,
    /// with every branch's and exit's guard still (the active lanes at those
    /// operations depend on them).
    pub fn address_slice_of(&self, func: &Function<'_>, keep: impl Fn(OpId) -> bool) -> Slice {
        self.address_slice_where(func, keep, |_| true)
    }

    /// [`Ssa::address_slice_of`] the memory operations `keep` accepts, with
    /// the guards of the branches and exits `keep_guard` accepts only: a run
    /// that records the accesses of some blocks needs only the guards of the
    /// blocks from which those are reachable (`dataflow::Focus`).
    pub fn address_slice_where(
        &self,
        func: &Function<'_>,
        keep: impl Fn(OpId) -> bool,
        keep_guard: impl Fn(OpId) -> bool,
    ) -> Slice {
        let mut roots = Vec::new();
        for (i, op) in func.ops.iter().enumerate() {
            let id = OpId(i as u32);
            match &op.kind {
                OpKind::Mem { .. } if !keep(id) => continue,
                OpKind::Branch { .. } | OpKind::Exit if !keep_guard(id) => continue,
                OpKind::Mem { info, .. } => {
                    // The values a `st.local` stores are data: only the
                    // launch simulation reads them (its local memory), and
                    // it evaluates every register; a spilling kernel stores
                    // thousands of them.
                    let aux = info
                        .aux_operands()
                        .iter()
                        .filter(|(role, _)| *role != crate::ir::Aux::Stored)
                        .map(|(_, a)| a);
                    for s in std::iter::once(&info.addr).chain(aux) {
                        if let Src::Reg(r, _) | Src::NotPred(r) = s {
                            roots.extend(self.use_of(id, *r));
                        }
                    }
                }
                OpKind::Branch { .. } | OpKind::Exit => {}
                _ => continue,
            }
            if let Some((g, _)) = op.guard {
                roots.extend(self.use_of(id, g));
            }
        }
        self.slice(roots)
    }

    /// Checks the SSA invariants against the function and its CFG; returns
    /// one line per violation (empty when the form is valid):
    /// - every register an op reads (and a guarded op writes) has a use, every
    ///   register it writes a definition, of a value of that register;
    /// - every value has exactly one definition (an op's write, a phi, or the
    ///   register's entry value), and the tables agree on it; an op's value
    ///   keeps the op's span;
    /// - in reachable code, each use's definition dominates it (an earlier op
    ///   of the same block, a phi of a dominating block, a write in a
    ///   dominating block, or the entry value);
    /// - each phi has one argument per distinct reachable predecessor (and
    ///   one for the function's start in the entry block), whose definition
    ///   dominates the end of that predecessor;
    /// - def-use chains are the inverse of the uses and phi arguments.
    pub fn verify(&self, func: &Function<'_>, cfg: &Cfg) -> Vec<String> {
        let mut errs = Vec::new();
        let mut seen_def = vec![0u32; self.values.len()];
        let def_block = |v: ValueId| -> Option<(BlockId, Option<OpId>)> {
            match self.values[v.index()].def {
                ValueDef::Entry => None,
                ValueDef::Op { op, .. } => Some((cfg.block_of(op), Some(op))),
                ValueDef::Phi(p) => Some((self.phis[p.index()].block, None)),
            }
        };
        // Definitions.
        for (i, op) in func.ops.iter().enumerate() {
            let id = OpId(i as u32);
            if func.body_span.is_none() {
                break;
            }
            let mut want: Vec<Reg> = Vec::new();
            op_writes(op, |r| {
                if !want.contains(&r) {
                    want.push(r)
                }
            });
            let got: Vec<Reg> = self.defs(id).iter().map(|&(r, _)| r).collect();
            if want != got {
                errs.push(format!("op {i}: writes {want:?}, defs {got:?}"));
            }
            for &(r, v) in self.defs(id) {
                seen_def[v.index()] += 1;
                let val = &self.values[v.index()];
                let guarded = op.guard.is_some();
                match val.def {
                    ValueDef::Op { op: d, merges } if d == id && val.reg == r => {
                        if Some(&val.span) != func.spans.get(i) {
                            errs.push(format!("op {i}: {v} does not keep the op's span"));
                        }
                        if guarded != merges.is_some() {
                            errs.push(format!("op {i}: {v} merge does not match the guard"));
                        }
                        if merges.is_some() && merges != self.use_of(id, r) {
                            errs.push(format!("op {i}: {v} merges a value the op does not read"));
                        }
                    }
                    _ => errs.push(format!("op {i}: def {v} of r{r} is {:?}", val.def)),
                }
            }
            let mut want: Vec<Reg> = Vec::new();
            op_reads(op, |r| {
                if !want.contains(&r) {
                    want.push(r)
                }
            });
            if op.guard.is_some() {
                op_writes(op, |r| {
                    if !want.contains(&r) {
                        want.push(r)
                    }
                });
            }
            let got: Vec<Reg> = self.uses(id).iter().map(|&(r, _)| r).collect();
            if want != got {
                errs.push(format!("op {i}: reads {want:?}, uses {got:?}"));
            }
        }
        for (p, phi) in self.phis.iter().enumerate() {
            seen_def[phi.value.index()] += 1;
            if self.values[phi.value.index()].def != ValueDef::Phi(PhiId(p as u32)) {
                errs.push(format!(
                    "phi {p}: its value {} is not defined by it",
                    phi.value
                ));
            }
        }
        for (r, e) in self.entry_of.iter().enumerate() {
            if let Some(v) = e {
                seen_def[v.index()] += 1;
                let val = &self.values[v.index()];
                if val.def != ValueDef::Entry || val.reg as usize != r {
                    errs.push(format!("entry value {v} of r{r} is {val:?}"));
                }
            }
        }
        for (v, n) in seen_def.iter().enumerate() {
            if *n != 1 {
                errs.push(format!("v{v} has {n} definitions"));
            }
        }
        // Dominance of uses.
        for b in cfg.block_ids().filter(|&b| cfg.is_reachable(b)) {
            for id in cfg.block(b).op_ids() {
                for &(r, v) in self.uses(id) {
                    if self.values[v.index()].reg != r {
                        errs.push(format!(
                            "op {}: use of r{r} reads {v}, a value of another register",
                            id.0
                        ));
                    }
                    let ok = match def_block(v) {
                        None => true,
                        Some((db, Some(d))) if db == b => d < id,
                        Some((db, _)) => cfg.dominates(db, b),
                    };
                    if !ok {
                        errs.push(format!("op {}: {v} does not dominate its use", id.0));
                    }
                }
            }
            // Phis.
            let mut want: Vec<Option<BlockId>> = Vec::new();
            if b == cfg.entry() {
                want.push(None);
            }
            want.extend(reachable_preds(cfg, b).into_iter().map(Some));
            for p in self.block_phis(b) {
                let phi = &self.phis[p.index()];
                let reg = self.values[phi.value.index()].reg;
                let args = self.phi_args(p);
                let got: Vec<Option<BlockId>> = args.iter().map(|a| a.pred).collect();
                if got != want {
                    errs.push(format!(
                        "phi {} in {b}: args from {got:?}, preds {want:?}",
                        p.0
                    ));
                }
                for a in args {
                    if self.values[a.value.index()].reg != reg {
                        errs.push(format!(
                            "phi {}: arg {} is of another register",
                            p.0, a.value
                        ));
                    }
                    let ok = match (a.pred, def_block(a.value)) {
                        (_, None) => true,
                        (None, Some(_)) => false,
                        (Some(pb), Some((db, _))) => cfg.dominates(db, pb),
                    };
                    if !ok {
                        errs.push(format!(
                            "phi {} in {b}: {} does not dominate the end of {:?}",
                            p.0, a.value, a.pred
                        ));
                    }
                }
            }
        }
        // Def-use chains.
        let mut expect: Vec<Vec<User>> = vec![Vec::new(); self.values.len()];
        for id in func.op_ids() {
            for &(_, v) in self.uses(id) {
                expect[v.index()].push(User::Op(id));
            }
        }
        for p in 0..self.phis.len() {
            for a in self.phi_args(PhiId(p as u32)) {
                expect[a.value.index()].push(User::Phi(PhiId(p as u32)));
            }
        }
        for (v, mut e) in expect.into_iter().enumerate() {
            let mut got = self.users(ValueId(v as u32)).to_vec();
            e.sort();
            got.sort();
            if e != got {
                errs.push(format!("v{v}: users {got:?}, expected {e:?}"));
            }
        }
        errs
    }

    /// Renders the SSA form as text: the entry values, then per block its
    /// phis and each instruction with the values it writes and reads
    /// (`v7:%r1`; a guarded write shows the value it merges with).
    pub fn render_text(&self, func: &Function<'_>, cfg: &Cfg, file: &SourceFile) -> String {
        let name = |r: Reg| func.regs.get(r as usize).copied().unwrap_or("?");
        let mut out = String::new();
        let entries: Vec<String> = self
            .values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.def == ValueDef::Entry)
            .map(|(i, v)| format!("v{i}:{}", name(v.reg)))
            .collect();
        let _ = writeln!(
            out,
            "ssa {} ({} values, {} phis)",
            func.name,
            self.values.len(),
            self.phis.len()
        );
        if !entries.is_empty() {
            let _ = writeln!(out, "  undefined at entry: {}", entries.join(", "));
        }
        for b in cfg.block_ids() {
            let _ = write!(out, "{b}");
            if !cfg.is_reachable(b) {
                out.push_str("  unreachable");
            }
            out.push('\n');
            for p in self.block_phis(b) {
                let phi = &self.phis[p.index()];
                let args: Vec<String> = self
                    .phi_args(p)
                    .iter()
                    .map(|a| match a.pred {
                        Some(pb) => format!("{pb}: {}", a.value),
                        None => format!("start: {}", a.value),
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "  {}:{} = phi [{}]",
                    phi.value,
                    name(self.values[phi.value.index()].reg),
                    args.join(", ")
                );
            }
            for id in cfg.block(b).op_ids() {
                let (defs, uses) = (self.defs(id), self.uses(id));
                let Some(op) = func.ops.get(id.index()) else {
                    continue;
                };
                if defs.is_empty() && uses.is_empty() && !matches!(op.kind, OpKind::Mem { .. }) {
                    continue;
                }
                let line = file.line_col(func.spans[id.index()].start).line;
                let guard = match op.guard {
                    Some((g, neg)) => format!("@{}{} ", if neg { "!" } else { "" }, name(g)),
                    None => String::new(),
                };
                let _ = write!(out, "  {line:>4}  {guard}{}", func.mnemonics[id.index()]);
                let d: Vec<String> = defs
                    .iter()
                    .map(|&(r, v)| match self.values[v.index()].def {
                        ValueDef::Op {
                            merges: Some(m), ..
                        } => format!("{v}:{} (else {m})", name(r)),
                        _ => format!("{v}:{}", name(r)),
                    })
                    .collect();
                if !d.is_empty() {
                    let _ = write!(out, "  {}", d.join(", "));
                }
                let u: Vec<String> = uses
                    .iter()
                    .map(|&(r, v)| format!("{}={v}", name(r)))
                    .collect();
                if !u.is_empty() {
                    let _ = write!(out, "  <- {}", u.join(", "));
                }
                out.push('\n');
            }
        }
        out
    }
}

/// A set of values: a backward slice ([`Ssa::slice`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Slice {
    member: Vec<bool>,
}

impl Slice {
    /// True when `v` is in the slice.
    pub fn contains(&self, v: ValueId) -> bool {
        self.member.get(v.index()).copied().unwrap_or(false)
    }

    /// The values of the slice, in id order.
    pub fn values(&self) -> impl Iterator<Item = ValueId> + '_ {
        self.member
            .iter()
            .enumerate()
            .filter(|(_, m)| **m)
            .map(|(i, _)| ValueId(i as u32))
    }

    /// How many values it holds.
    pub fn len(&self) -> usize {
        self.member.iter().filter(|m| **m).count()
    }

    /// True when it holds no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The registers with at least one value in the slice (indexed by [`Reg`]).
    pub fn registers(&self, ssa: &Ssa, nregs: usize) -> Vec<bool> {
        let mut out = vec![false; nregs];
        for v in self.values() {
            if let Some(m) = out.get_mut(ssa.value(v).reg as usize) {
                *m = true;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(text: &str) -> (Function<'_>, Cfg, Ssa) {
        let f = crate::pipeline::lower_text(text).remove(0);
        let cfg = Cfg::build(&f);
        let ssa = Ssa::build(&f, &cfg);
        (f, cfg, ssa)
    }

    const DIAMOND: &str = ".version 8.5\n.target sm_90\n.address_size 64\n\
        .visible .entry k()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n\
        mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra L;\n\
        add.s32 %r2, %r1, 1;\nbra.uni J;\nL:\nadd.s32 %r2, %r1, 2;\nJ:\n\
        add.s32 %r3, %r2, %r2;\nret;\n}\n";

    #[test]
    fn verify_sees_a_use_its_definition_does_not_dominate() {
        let (f, cfg, mut ssa) = build(DIAMOND);
        assert!(ssa.verify(&f, &cfg).is_empty());
        // The join reads the phi; make it read one arm's value instead.
        let join = f
            .op_ids()
            .rev()
            .find(|&id| !ssa.defs(id).is_empty())
            .unwrap();
        let r = ssa.uses(join)[0].0;
        let arm = f
            .op_ids()
            .find(|&id| ssa.defs(id).iter().any(|&(d, _)| d == r))
            .unwrap();
        let arm_value = ssa.def_of(arm, r).unwrap();
        let at = ssa.op_uses[join.index()].start as usize;
        ssa.uses[at].1 = arm_value;
        let errs = ssa.verify(&f, &cfg);
        assert!(
            errs.iter().any(|e| e.contains("does not dominate")),
            "{errs:?}"
        );
        assert!(errs.iter().any(|e| e.contains("users")), "{errs:?}");
    }

    #[test]
    fn a_phi_reads_each_arm_and_users_point_back() {
        let (f, cfg, ssa) = build(DIAMOND);
        assert_eq!(ssa.phis().len(), 1);
        let phi = PhiId(0);
        let args: Vec<ValueId> = ssa.phi_args(phi).iter().map(|a| a.value).collect();
        assert_eq!(args.len(), 2);
        for a in &args {
            assert_eq!(ssa.users(*a), &[User::Phi(phi)]);
            assert!(matches!(
                ssa.value(*a).def,
                ValueDef::Op { merges: None, .. }
            ));
        }
        let v = ssa.phi(phi).value;
        // `add %r3, %r2, %r2` reads the phi once.
        assert_eq!(ssa.users(v).len(), 1);
        assert_eq!(
            ssa.value(v).span,
            f.spans[cfg.block(ssa.phi(phi).block).stmts.start as usize]
        );
    }

    #[test]
    fn a_long_chain_of_loops_builds_without_recursion() {
        let mut src = String::from(".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<3>;\nmov.u32 %r1, 0;\n");
        for i in 0..20000 {
            src.push_str(&format!(
                "L{i}:\nadd.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 9;\n@%p1 bra L{i};\n"
            ));
        }
        src.push_str("ret;\n}\n");
        let (f, cfg, ssa) = build(&src);
        assert_eq!(ssa.phis().len(), 20000);
        assert!(ssa.verify(&f, &cfg).is_empty());
    }
}
