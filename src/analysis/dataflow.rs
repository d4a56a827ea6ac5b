//! The fixpoint: lane values and possibly-active lanes at every memory access
//! of one kernel, for one warp class.
//!
//! # What is computed
//!
//! For every reachable basic block, the state at its entry: one [`Value`] per
//! register that matters there (see `domain`, and *Sparseness* below) and a
//! **possibly-active lane mask** (bit `l` clear means lane `l` certainly does
//! not execute the block). At each memory instruction the analysis records
//! the address value, its further operands' values and the mask (narrowed by
//! the instruction's guard): an [`AccessFact`].
//!
//! # Sparseness
//!
//! Most registers of a large kernel carry data (accumulators, loaded
//! tiles) that no address, guard or branch depends on. Two restrictions keep
//! the cost with the registers that matter, without changing any recorded
//! value:
//!
//! 1. **The address slice.** The driver gives the registers of
//!    [`crate::ir::ssa::Ssa::address_slice`] ([`Inputs::relevant`]): the
//!    backward slice, over SSA def-use edges, of every memory op's address,
//!    further operands (`MemInfo::aux`) and guard and of every branch's and
//!    exit's guard. Only those registers get a slot in the states; an op that
//!    writes none of them is skipped (its transfer is not even evaluated). A
//!    slice is closed under the operands of its values, so every value a
//!    computed register receives from another register is itself computed;
//!    a register with one definition in the slice has all of its
//!    definitions computed, which is merely more than needed.
//! 2. **Liveness.** A block's entry state holds only the slots live there
//!    (`live_slots`: read on some path before being written; a guarded
//!    write reads the register it writes). A block runs on one dense scratch
//!    state; its dead slots hold what an earlier block left, which liveness
//!    guarantees the block overwrites before reading. Joins, comparisons and
//!    copies along edges touch only the successor's live slots. The slots
//!    and their liveness depend on the ops and the slice only: every warp
//!    class's run on one slice shares them ([`Layout`]).
//!
//! 3. **Focus.** A run whose results are read only at some accesses (the
//!    driver's per-warp runs, for the accesses a warp class left unresolved)
//!    takes a [`Focus`]: it applies only the blocks from which one of those
//!    accesses is reachable (a set closed under predecessors, so their entry
//!    states are joins of applied blocks only) and records only the blocks
//!    holding them. The values there are unchanged: a block outside the set
//!    flows into none inside it, and a symbol's facts change only where the
//!    symbol is created (its own statement or join site).
//!
//! A hover probe may ask for any register at any statement, so with a probe
//! every register is computed and live everywhere (the dense analysis).
//! Opaque symbols are numbered in the order their sites are first met, so
//! the sparse engine, which meets fewer sites, may number them differently
//! from a dense run; the values are the same up to that renaming.
//!
//! # Transfer and edges
//!
//! Instructions are applied in order with the transfer functions of
//! `transfer`. A guarded instruction assigns where its guard is known true in
//! every possibly-active lane, does nothing where it is known false, and
//! otherwise blends (exact lanes) or joins old and new values. `elect.sync`
//! is the one instruction that reads the mask: its leader is the lowest
//! possibly-active lane its guard may let through (`crosslane::elect`). Along the
//! edges out of a block ending in `@p bra`, the mask is narrowed to the lanes
//! where `p` may be true (taken) or may be false (not taken): a guard that
//! depends only on `%tid` (`(tid & 31) < 16`) is exact per lane, a guard such as
//! `i < n` with `n` unknown keeps every lane (the partial last warp is found by
//! the launch simulation in `totals`, not here).
//!
//! # Path conditions
//!
//! The value a branch tests is also narrowed along each edge
//! (`branch_test`, `refine_edge`): when the guard of the block's closing
//! `@p bra` (or `@!p`, or `@p ret`) is written in the block by a `setp` of
//! an integer register against a constant or a uniform value with known
//! bounds (`setp.lt.s64 p, slot, 0`; `.and`/`.or` with a further predicate
//! where the outcome still decides the comparison: `p = t & q` true, `p = t
//! | q` false; either destination of `setp p|q`), and neither operand is
//! written between the two, the compared register carries on each edge the
//! bounds that the comparison's outcome gives there: `slot >= 0` on the
//! fall-through of `if (slot < 0) return`, `c` in `[lo, hi]` where `c ==
//! x`, the end of a known interval removed where `c != x`. What it carries:
//!
//! - a uniform opaque value `s + k` becomes a fresh opaque symbol of that
//!   edge with `s`'s congruence and the narrowed, non-negative range (the
//!   ranges symbols carry); a single possible value becomes a constant;
//! - a range of loaded data ([`Range`], no uniform base) has its unknown's
//!   bounds narrowed (by the exact part's extremes: every lane on the edge
//!   satisfies the test, so the shared unknown of its class does within
//!   those); unbounded loaded data becomes such a range;
//! - anything else is left as it is (exact lanes need no narrowing: the
//!   mask already drops the lanes that cannot take the edge).
//!
//! The bounds are on the register's *reading* in the comparison's type:
//! they become bounds on the value only where that reading is the value
//! (`reading_bounds`: a `u32` value above `2^31` compared as `s32` reads
//! negative; an unsigned upper bound below `2^(b-1)` also holds for a
//! value that may be negative, which reads as at least `2^(b-1)`). With no
//! known bounds, a signed comparison is taken to read the value itself, the
//! domain's no-wrap assumption. This is sound lane by lane: a lane that
//! takes an edge satisfies the edge's outcome, and a lane that reaches the
//! successor by another path brings that path's value to the join. A
//! divergent branch narrows each side for the lanes on that side only,
//! which is what the per-edge value describes. The refinement is
//! monotone in the value it narrows, and the fresh symbols' ranges are
//! joined over the fixpoint's visits, so termination is as below.
//!
//! # Counters in lockstep
//!
//! A loop counter `s` whose back edge brings `s + c` has no range of its
//! own (its site is unbounded for good, see `domain`), but a loop often
//! steps two counters together (CUB's radix passes: `shift` 0, 4 tested
//! against 8, and `bits_left` 8, 4, untested). At a loop header (a back
//! edge's target), a slot whose value is the header's opaque symbol `s`
//! and whose every incoming edge, in the latest round, brings either the
//! constant `a` or `s + c` (`c != 0`) is a counter: on the `k`-th arrival
//! since the last constant edge it holds `a + c k`. Two counters whose
//! constant edges are the same edges arrive together, so a bound on one's
//! stepping edges (`t + 4 < 8` narrowed on the back edge: the value brought
//! is in `[4, 7]`, so `0 + 4 k <= 7`, `k <= 1`) bounds `k` for both, and
//! the other's symbol gets `[min(a, a + c k), max(..)]`
//! (`SymFacts::iv_range`, when non-negative: `bits_left` in `[4, 8]`).
//! The value an edge brings is read through its aliases
//! (`lockstep_ranges`): a refinement's fresh symbol is the symbol it
//! narrows, and a join site inside the loop whose incoming edges all
//! bring the same `X + c` is `X + c`. The stepping edges' bounds are read
//! without the derived ranges (two counters bounding each other would
//! otherwise justify each other's growth, one step a round). The
//! derivation runs after each round; a range only grows, widened as a
//! join's (down to 0, up to the next `2^(4k) - 1`), a counter that loses
//! its derivation keeps none for good, and a change runs every block
//! again. Soundness is by induction on the arrivals: the bounds on the
//! stepping edges hold for every iteration whose counters were in the
//! recorded ranges, so `k` and with it every counter stay in them.
//!
//! Cost: the latest value along each edge into a block with several ways
//! in is kept in a table per block and predecessor (`Arrivals`, only in a
//! kernel with a loop header), with each slot's distinct `X + c` listed
//! until one of its values changes; an alias is resolved once per (symbol,
//! depth) in a derivation (`Aliases::resolve`'s memo). Following every
//! path instead (up to 16 sites deep, each branching into its incoming
//! edges) was exponential in loop nests: 575 CPU-s on one 14.6 MB cuDNN
//! module (BENCHMARKS.md, stop 25).
//!
//! # One way in
//!
//! A block with a single incoming edge (not the kernel's entry) takes the
//! edge's latest value as its entry state instead of joining it with what
//! earlier rounds brought: its state is a function of its predecessor's,
//! so the iteration still ends (the joins at blocks with several ways in
//! and the symbol facts move up finite chains), and a value of the first
//! round (a counter's initial constant) no longer turns the block's
//! slot into a join site of its own.
//!
//! # Fixpoint, widening, termination
//!
//! Block entry states are the join of the predecessors' exit states (`join` in
//! `domain`; masks are or-ed). Blocks are visited in reverse post-order until
//! nothing changes. Where two incoming values differ only in their uniform
//! part (a loop counter, a grid-stride index), the join introduces one opaque
//! uniform symbol per (block, register), whose congruence is the join of the
//! incoming congruences: a grid-stride loop keeps its lane pattern (`4*i`)
//! and its alignment facts while its uniform part becomes unknown. Each join
//! site can only move up a finite chain (`Undef` → polynomial → opaque +
//! lanes → `Varying`, congruences along a divisor chain), and masks only gain
//! bits, so the iteration terminates. A round applies only the blocks whose
//! entry state changed since they were last applied (*dirty* blocks): a
//! block applied to the same state under the same symbol facts does what it
//! did before (its opaque sites exist, congruence and range joins are
//! idempotent). The symbol facts are shared, so a round in which an existing
//! symbol's congruence, range or quotient changed makes dirty for the next
//! one every block that may have read the old facts: a block reads the facts
//! of the opaque symbols its entry values mention, of those made at its
//! statements or out-edges (the symbol's *home*), of those its successors'
//! entries mention (the joins along its out-edges), and of the symbols of
//! the dividend of a quotient among these (values elsewhere hold only
//! symbols that flowed there from these). A block last applied after every
//! change of those in the round read the new facts already and stays clean
//! (`dirty_after_moves`); a change of a lockstep counter's range (below),
//! or any change in the first round (where nearly every block precedes
//! the changes: a loop's sites change when its back edge first arrives),
//! makes every block dirty. The rounds, their changes and the result are
//! those of applying every block every round (held so on the committed
//! corpus by `dirty_blocks_give_what_every_block_gives`). On the cuDNN
//! modules, whose loops widen join sites' ranges round after round, this
//! spares about two thirds of the third round (BENCHMARKS.md, stop 28). The
//! iteration is nevertheless capped at
//! [`MAX_ROUNDS`] rounds, after which every live slot at every block entry
//! is set to the top element (`Varying { data: true }`, every lane possibly
//! active): sound, and reported as a caveat.
//!
//! The accesses are recorded by applying the blocks once more to their
//! final entry states. A block last applied to its final entry state under
//! the final facts of the symbols it reads gives the same values again and
//! changes no fact. When the last round changed no existing symbol's facts,
//! that is every block (a round after a change of facts applies every block
//! that may have read the old ones), so only the blocks that hold an access
//! (or the focus's) are applied then. When it changed some, the blocks it
//! made dirty are applied too, in order, and from the first of them that
//! changes a fact again, every later block is, as those facts may reach it.
//! After giving up, or with a probe, every block is, in order.
//!
//! # Soundness and limits
//!
//! Sound under the domain's no-wrap assumption for symbolic values. The mask is
//! an over-approximation (possibly active). Calls are not followed: their
//! results are unknown. A load through a lane-varying address gives
//! data-dependent values, bounded by the element type when it is narrower
//! than 32 bits and shared by the lanes that read one address
//! (`bounds::loaded_at`); a load through a uniform address gives
//! an opaque uniform value. A `.shared` access whose address is loaded data
//! added to a shared variable of declared size (`table[idx[i]]`, `idx` an
//! unbounded loaded `int`) is recorded inside that variable, aligned to its
//! size (`Engine::within_shared_variable`: an assumption from the source
//! languages, where an access outside the array is undefined; the PTX ISA
//! itself does not bound it), not `extern` ones, whose size the launch gives.
//! Generic addresses keep their provenance through the
//! symbols they contain (`Param(k)` of a pointer parameter, `Var` of a
//! `.shared` variable), which is how `ld` without a space is proven global.
//!
//! # Local memory
//!
//! A by-value struct indexed at run time (`caches.key[blockIdx.x]`) is
//! copied by NVVM to a `.local` depot and read back at a run-time offset
//! (`ld.local [%SPL + 8 * ctaid.x]`). Which slot a warp reads is not known
//! here, but what the depot can hold is: when every store into it stores
//! the result of an `ld.param` (`origin::depot_fields`, from the SSA
//! form, on `origin::depot_stores`' conditions), a warp-uniform `.local`
//! load from it reads one of those parameter values, the same one in every
//! lane. Where the launch gives them all, the load gives their join
//! (`Engine::depot_value`): the constant when they are equal, otherwise an
//! opaque uniform symbol with their common congruence (four cache pointers
//! 16 MiB apart: 0 mod 16 MiB, so the copies through them are
//! line-aligned); otherwise the uniform opaque value of any uniform load.
//! Limit: a struct's pointer fields that the launch does not give get no
//! alignment (a pointer parameter gets `pointer_align`), here or where
//! `ld.param` reads them directly, and a depot read at a lane-varying
//! offset is not forwarded (each lane may read another slot).
//! Soundness rests on what can write the depot: local memory is private
//! to the thread and reachable only through the depot's own address (PTX
//! ISA, *State spaces*); `depot_stores` requires that no address of local
//! memory is made generic (`cvta.local`, which NVVM's `%SP` holds), that
//! no call is left in the function, and that every `.local` store's
//! address comes from a known depot, so the `.local` stores it sees are
//! every write. It does not ask which slot each store writes or whether a
//! store comes before the load: every store into the depot of the load's
//! width is a candidate (stores of other widths are other fields of the
//! copied struct, `origin::depot_stores`)
//! (a load of a slot never stored reads undefined memory, which the
//! source languages do not do). Whether the value read back is a pointer
//! (a generic access through it is global) is
//! `origin::generic_base_param`'s question, on the same depots.

use super::domain::FastMap as HashMap;
use super::domain::{
    join, join_distinct, Cong, Lanes, Poly, PredVal, Quotient, Range, Sym, SymFacts, Value, WARP,
};
use super::launch::WarpClass;
use super::transfer::{abstract_eval, second_result, AluOp, AluOp2, Cmp, OpaqueSource, Ty};
use crate::cfg::{BlockId, Cfg, EdgeKind};
use crate::ir::alu::WarpOp;
use crate::ir::{ssa, Function as Lowered, OpKind, Special, Src};

/// Rounds of the fixpoint iteration before giving up.
pub const MAX_ROUNDS: usize = 40;

/// The facts of one memory instruction for one warp class.
#[derive(Clone, Debug, PartialEq)]
pub struct AccessFact {
    /// The address.
    pub addr: Value,
    /// Possibly-active lanes.
    pub mask: u32,
    /// Lanes that possibly reach the instruction, before its guard: when
    /// this is not empty and `mask` is, the guard turns every lane off and
    /// the warp still issues the instruction (a request with no sectors).
    pub reached: u32,
    /// The values of the instruction's further operands (`MemInfo::aux`),
    /// in the same order.
    pub aux: Vec<Value>,
}

/// What the kernel-wide inputs are.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// Parameter values (given), by index.
    pub params: Vec<Option<i64>>,
    /// Values of fields of by-value parameters (index, byte offset, value).
    pub fields: Vec<(u16, i64, i64)>,
    /// Parameters used as pointers.
    pub pointer_params: Vec<bool>,
    /// Alignment of pointer parameters.
    pub pointer_align: u32,
    /// `%ntid` when known.
    pub ntid: [Option<i64>; 3],
    /// `%nctaid` when known.
    pub nctaid: [Option<i64>; 3],
    /// `%ntid` congruence when unknown.
    pub ntid_cong: [Cong; 3],
    /// The registers whose values are computed (indexed by register), or
    /// `None` for every register. Everything the results hold is computed
    /// from the backward slice of the memory ops' addresses, operands and
    /// guards and of the branches' guards ([`crate::ir::ssa::Ssa::address_slice`]):
    /// the registers of that slice suffice. Any set closed under that
    /// slice gives the same results.
    pub relevant: Option<Vec<bool>>,
    /// `.local` loads (by statement) from a depot whose every store stores
    /// an `ld.param` result: those parameters' (index, byte offset).
    /// Found by the driver from the SSA form (`origin::depot_fields`).
    pub depot_fields: HashMap<u32, Vec<(u16, i64)>>,
}

/// The result for one warp class.
#[derive(Clone, Debug, Default)]
pub struct ClassResult {
    /// Access facts by statement index.
    pub accesses: HashMap<u32, AccessFact>,
    /// The symbols' facts (opaque congruences included).
    pub facts: SymFacts,
    /// True when the iteration hit [`MAX_ROUNDS`].
    pub gave_up: bool,
    /// The probed register's value and the possibly-active lanes just before
    /// the probed statement (see [`analyze_class_with_probe`]).
    pub probe: Option<(Value, u32)>,
}

/// Where each register lives in a block state: the slot of a relevant
/// register, [`NO_SLOT`] for one that is not computed.
const NO_SLOT: u32 = u32::MAX;

/// No opaque symbol allocated yet at a join site.
const NO_SITE: u32 = u32::MAX;

/// An opaque symbol whose home block is not known: a change of its facts
/// makes every block dirty.
const NO_HOME: u32 = u32::MAX;

/// In tests: apply every block in every round (no dirty blocks), the
/// iteration the dirty blocks must reproduce.
#[cfg(test)]
static EVERY_BLOCK: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// True when every block is to be applied in every round (tests only).
fn every_block() -> bool {
    #[cfg(test)]
    {
        EVERY_BLOCK.load(std::sync::atomic::Ordering::Relaxed)
    }
    #[cfg(not(test))]
    {
        false
    }
}

struct Engine<'a, 'src> {
    low: &'a Lowered<'src>,
    /// Register -> slot in the state vectors ([`NO_SLOT`]: not computed).
    slot: &'a [u32],
    inputs: &'a Inputs,
    class: &'a WarpClass,
    facts: SymFacts,
    sites: HashMap<(u8, u32, u32), u32>,
    /// The opaque symbol of each block entry's join site, by the block's
    /// [`Layout::live_at`] offset plus the slot's index among its live
    /// slots ([`NO_SITE`]: none yet).
    entry_sites: Vec<u32>,
    cur_stmt: u32,
    probe: Option<(u32, u32)>,
    probed: Option<(Value, u32)>,
    /// Set when a symbol's facts (an opaque symbol's congruence or range)
    /// changed after the symbol was created: blocks applied before may have
    /// read the old facts (see the fixpoint's dirty blocks).
    facts_changed: bool,
    /// The block being applied (its out-edges included).
    cur_block: u32,
    /// The home block of each opaque symbol, by index: the block whose
    /// statement or out-edge made it, or the block at whose entry a join
    /// site stands (see the fixpoint's dirty blocks); [`NO_HOME`] where
    /// not known.
    home: Vec<u32>,
    /// The opaque symbols whose facts changed in this round, each with the
    /// application ([`Engine::app`]) during which it changed (with
    /// repeats): for the dirty blocks of the next round.
    moved: Vec<(u32, u64)>,
    /// The number of the fixpoint's current block application (from 1).
    app: u64,
    /// The opaque symbols that are quotients ([`Quotient::Of`] once).
    quot_ids: Vec<u32>,
    /// Scratch for an instruction's operand values (empty between ops).
    args: Vec<Value>,
    /// The value of each immediate operand met so far, shared by every
    /// read of it (a value is immutable: sharing saves the allocations).
    consts: HashMap<i64, Value>,
    /// The values of the special registers that depend only on the class
    /// and the inputs, by [`pure_special`]'s index, made on first read.
    specials: Vec<Option<Value>>,
    /// The symbol an edge refinement's fresh symbol narrows (equal to it
    /// on that edge), by the fresh symbol's index.
    narrowed: HashMap<u32, Sym>,
}

/// The index of a special register whose value depends only on the warp
/// class and the inputs (`%tid`, `%ntid`, `%ctaid`, `%nctaid` of x, y, z;
/// `%laneid`; the five `%lanemask_*`), for [`Engine::specials`].
fn pure_special(sp: Special) -> Option<usize> {
    match sp {
        Special::Tid(d) if d <= 2 => Some(d as usize),
        Special::Ntid(d) if d <= 2 => Some(3 + d as usize),
        Special::Ctaid(d) if d <= 2 => Some(6 + d as usize),
        Special::Nctaid(d) if d <= 2 => Some(9 + d as usize),
        Special::LaneId => Some(12),
        Special::LaneMask(k) if k <= 4 => Some(13 + k as usize),
        _ => None,
    }
}

/// Entries of [`Engine::specials`].
const PURE_SPECIALS: usize = 18;

/// A plain, atomic or reduction access to `.shared` with no extended form
/// (what [`Engine::within_shared_variable`] bounds by its variable).
fn plain_shared(info: &crate::ir::MemOp) -> bool {
    use crate::ir::{MemKind, Space as S};
    info.space == S::Shared
        && info.ext.is_none()
        && matches!(
            info.kind,
            MemKind::Plain | MemKind::Atomic | MemKind::Reduction
        )
}

impl Engine<'_, '_> {
    /// The address of a per-lane `.shared` access that the analysis knows
    /// only as loaded data (`table[idx[i]]`: `mov %rb, table; add %ra, %rb,
    /// %ri` with `%ri` from a loaded, unbounded `idx`): the access is taken
    /// to lie inside its variable, aligned to its size. This is an
    /// assumption, not a PTX rule: the PTX ISA requires natural alignment
    /// but bounds no access by its variable; the source languages do (C/C++
    /// `[expr.add]`: pointer arithmetic outside an array is undefined), and
    /// hand-written PTX that indexes from one variable into the next, or a
    /// negative index, breaks it (the sector bounds stay those of any
    /// access; only the expected wavefronts rest on it). So the lane part is in
    /// `[0, size - bytes]` on multiples of `bytes` from the variable's base,
    /// each lane drawing its own (the known range of
    /// `cost::ranged_random_cost`; the shared wavefronts of 32 random words
    /// among `size / bytes`, as for random-bin shared atomics: 3.152
    /// measured for 256 words, `tests/hw/blind8` `t8_lut_gather`, 3.155
    /// for blind7's histogram `ATOMS`). Only where the address register
    /// and the base's have one definition each (`mov` of the variable, an
    /// `add` of it), the variable has a declared size and is not `extern`
    /// (dynamic shared memory: its size is the launch's); `addr` otherwise.
    /// A range on loaded data based at the variable is clamped to the
    /// variable's bounds too, keeping its own congruence
    /// ([`Engine::range_within_shared_variable`]).
    fn within_shared_variable(&self, info: &crate::ir::MemOp, addr: Value) -> Value {
        if !plain_shared(info) {
            return addr;
        }
        if let Value::Range(r) = &addr {
            return self.range_within_shared_variable(info, r).unwrap_or(addr);
        }
        if !matches!(addr, Value::Varying { data: true }) {
            return addr;
        }
        let defs = &self.low.single_defs.def;
        let def_of = |r: &crate::ir::Reg| defs.get(r).and_then(|d| self.low.ops.get(d.index()));
        let Src::Reg(a, _) = info.addr else {
            return addr;
        };
        let Some(OpKind::Alu { alu, srcs, .. }) = def_of(&a).map(|o| &o.kind) else {
            return addr;
        };
        if alu.op != AluOp::Add || srcs.len() != 2 {
            return addr;
        }
        // The variable one operand holds (whatever the offsets: the
        // access's address, not the operand, is inside the variable).
        let var_of = |s: &Src| -> Option<u32> {
            match s {
                Src::Var(v, _) => Some(*v),
                Src::Reg(r, _) => match def_of(r).map(|o| (&o.kind, o.guard)) {
                    Some((OpKind::Alu { alu, srcs, .. }, None)) if alu.op == AluOp::Mov => {
                        match srcs.as_slice() {
                            [Src::Var(v, _)] => Some(*v),
                            _ => None,
                        }
                    }
                    _ => None,
                },
                _ => None,
            }
        };
        let Some(v) = srcs.iter().find_map(var_of) else {
            return addr;
        };
        let Some((var, size, bytes)) = self.shared_extent(info, v) else {
            return addr;
        };
        let m = if i64::from(var.align.max(1)) % bytes == 0 {
            bytes
        } else {
            1
        };
        Range::value(
            Poly::sym(Sym::Var(v)),
            0,
            size - bytes,
            Cong::modulo(m as u64, 0),
            true,
        )
    }

    /// [`Engine::within_shared_variable`] for an address already known as
    /// a range on loaded data at a shared variable (`zz[tab[t] & 255]`:
    /// the variable plus a loaded byte, `[0, 255]`, into a 64-byte `zz`):
    /// the same assumption clamps the range to `[0, size - bytes]`. Only a
    /// range whose base is the variable alone and whose lanes have no exact
    /// part (each lane, or class of lanes, its own draw); `None` otherwise
    /// or when the clamp leaves nothing (an access that cannot lie inside).
    fn range_within_shared_variable(&self, info: &crate::ir::MemOp, r: &Range) -> Option<Value> {
        if !r.data || r.exact.is_some() {
            return None;
        }
        let Sym::Var(v) = r.base.base_symbols().next()? else {
            return None;
        };
        if !r.base.uniform_part_is(Sym::Var(v)) {
            return None;
        }
        let (_, size, bytes) = self.shared_extent(info, v)?;
        let (lo, hi) = (r.lo.max(0), r.hi.min(size - bytes));
        if lo > hi || (lo, hi) == (r.lo, r.hi) {
            return None;
        }
        // The congruence and known bits may leave no value in the clamped
        // bounds: then the access cannot lie inside, and stays as it was.
        match Range::with_bits(r.base.clone(), lo, hi, r.cong, true, None, r.key, r.bits) {
            Value::Undef => None,
            v => Some(v),
        }
    }

    /// Variable `v` when it is a `.shared` variable of declared size, not
    /// `extern`, that holds one access of `info`: the variable, its size and
    /// the access's bytes (what [`Engine::within_shared_variable`] bounds an
    /// access by).
    fn shared_extent(
        &self,
        info: &crate::ir::MemOp,
        v: u32,
    ) -> Option<(&crate::ir::Variable<'_>, i64, i64)> {
        let var = self.low.vars.get(v as usize)?;
        let bytes = i64::from(info.bits.div_ceil(8).max(1));
        let size = var.size.and_then(|z| i64::try_from(z).ok())?;
        (var.space == crate::ir::Space::Shared && !var.is_extern && size >= bytes)
            .then_some((var, size, bytes))
    }

    /// The slot of register `r`, if it is computed.
    fn slot(&self, r: u32) -> Option<usize> {
        match self.slot.get(r as usize) {
            Some(&s) if s != NO_SLOT => Some(s as usize),
            _ => None,
        }
    }

    /// The value of register `r` in state `st` (`Undef` when not computed).
    fn reg<'v>(&self, st: &'v [Value], r: u32) -> Option<&'v Value> {
        self.slot(r).and_then(|s| st.get(s))
    }

    /// True when some register of `dsts` is computed.
    fn wanted(&self, dsts: &[u32]) -> bool {
        dsts.iter().any(|&d| self.slot(d).is_some())
    }

    fn site(&mut self, kind: u8, a: u32, b: u32, cong: Option<Cong>) -> Sym {
        let n = self.facts.opaque.len() as u32;
        let id = *self.sites.entry((kind, a, b)).or_insert(n);
        if id == n {
            self.facts.opaque.push(cong);
            self.set_home(id, self.cur_block);
        }
        Sym::Opaque(id)
    }

    /// Records `block` as the home of the new opaque symbol `id`.
    fn set_home(&mut self, id: u32, block: u32) {
        let i = id as usize;
        if self.home.len() <= i {
            self.home.resize(i + 1, NO_HOME);
        }
        self.home[i] = block;
    }

    /// Notes that opaque symbol `id`'s facts changed after it was made:
    /// blocks applied before may have read the old ones.
    fn fact_moved(&mut self, id: u32) {
        self.facts_changed = true;
        self.moved.push((id, self.app));
    }

    /// The value a warp-uniform `.local` load (statement `s`, element `k`)
    /// reads from a depot that holds `ld.param` results only
    /// ([`Inputs::depot_fields`]): each lane reads one of them (the same
    /// one: the address is uniform), so the load gives their join. Where
    /// the launch gives every one, that is a constant when they are equal,
    /// else an opaque uniform symbol with their congruence (4 cache
    /// pointers 16 MiB apart: 0 mod 16 MiB). `None` (the plain uniform
    /// opaque value) when some value is not given.
    fn depot_value(&mut self, s: u32, k: usize) -> Option<Value> {
        let srcs = self.inputs.depot_fields.get(&s)?;
        let mut vals = Vec::with_capacity(srcs.len());
        for &(p, off) in srcs {
            vals.push(match off {
                0 => self.inputs.params.get(p as usize).copied().flatten()?,
                _ => field_value(&self.inputs.fields, p, off)?,
            });
        }
        let first = *vals.first()?;
        if vals.iter().all(|&v| v == first) {
            return Some(Value::constant(first));
        }
        let cong = vals
            .iter()
            .fold(Cong::exact(first), |c, &v| c.join(Cong::exact(v)));
        Some(Value::sym(self.site(1, s, k as u32 + 100, Some(cong))))
    }

    fn uniform_opaque(&mut self, slot: u32) -> Value {
        let s = self.cur_stmt;
        Value::sym(self.site(1, s, slot + 100, Some(Cong::TOP)))
    }

    /// [`join`] at the join site `key` (its opaque symbol is allocated on
    /// first use), noting in `facts_changed` when the site's congruence
    /// changes after the site was created. A block entry's join site is
    /// found by its index in [`Engine::entry_sites`] (`dense`) rather than
    /// in the map: one per live slot of each block; such a join's caller
    /// has already found the two values to differ ([`join_distinct`]).
    fn join_at(
        &mut self,
        a: &Value,
        b: &Value,
        key: (u8, u32, u32),
        dense: Option<usize>,
    ) -> Value {
        let sites = &mut self.sites;
        let entry_sites = &mut self.entry_sites;
        let mut seen: Option<SiteFacts> = None;
        let mut made: Option<u32> = None;
        let join = match dense {
            Some(_) => join_distinct,
            None => join,
        };
        let j = join(a, b, &mut self.facts, &mut |f| {
            let n = f.opaque.len() as u32;
            let id = match dense.and_then(|k| entry_sites.get_mut(k)) {
                Some(slot) => {
                    if *slot == NO_SITE {
                        *slot = n;
                    }
                    *slot
                }
                None => *sites.entry(key).or_insert(n),
            };
            if id == n {
                f.opaque.push(None);
                made = Some(id);
            } else {
                seen = Some((
                    id,
                    f.opaque.get(id as usize).copied().flatten(),
                    f.opaque_range.get(id as usize).copied().flatten(),
                ));
            }
            Sym::Opaque(id)
        });
        if let Some(id) = made {
            // A block entry's site stands at that block (`key.1`), where
            // the values it joins meet; any other at the current block.
            let home = if key.0 == 3 { key.1 } else { self.cur_block };
            self.set_home(id, home);
        }
        if let Some((id, before, range)) = seen {
            let i = id as usize;
            if self.facts.opaque.get(i).copied().flatten() != before
                || self.facts.opaque_range.get(i).copied().flatten() != range
            {
                self.fact_moved(id);
            }
        }
        j
    }

    fn src(&mut self, st: &[Value], s: &Src) -> Value {
        let with_off = |v: Value, off: i64| -> Value {
            if off == 0 {
                return v;
            }
            match v.as_poly() {
                Some(p) => Value::poly(p.add_const(off)),
                None => v,
            }
        };
        match s {
            Src::Reg(r, off) => with_off(self.reg(st, *r).cloned().unwrap_or_default(), *off),
            Src::NotPred(r) => match self.reg(st, *r) {
                Some(Value::Pred(p)) => Value::Pred(!*p),
                Some(v) => v.clone(),
                None => Value::Undef,
            },
            Src::Imm(v) => self
                .consts
                .entry(*v)
                .or_insert_with(|| Value::constant(*v))
                .clone(),
            Src::Var(v, off) => Value::poly(Poly::sym(Sym::Var(*v)).add_const(*off)),
            Src::Param(..) | Src::Unknown => self.uniform_opaque(90),
            Src::Special(sp) => match pure_special(*sp) {
                Some(k) => {
                    if let Some(v) = self.specials.get(k).and_then(Option::as_ref) {
                        return v.clone();
                    }
                    let v = self.special(*sp);
                    if let Some(slot) = self.specials.get_mut(k) {
                        *slot = Some(v.clone());
                    }
                    v
                }
                None => self.special(*sp),
            },
        }
    }

    fn special(&mut self, sp: Special) -> Value {
        let iota: Lanes = std::array::from_fn(|l| l as i64);
        match sp {
            Special::Tid(d) => {
                let d = d.min(2) as usize;
                let lanes = Poly::lanes(self.class.offsets[d]);
                let base = match self.class.base[d] {
                    c if c.is_exact() => Poly::constant(c.r),
                    _ => Poly::sym(Sym::TidBase(d as u8)),
                };
                Value::poly(base.add(&lanes))
            }
            Special::Ntid(d) => match self.inputs.ntid[d.min(2) as usize] {
                Some(v) => Value::constant(v),
                None => Value::sym(Sym::Ntid(d)),
            },
            Special::Nctaid(d) => match self.inputs.nctaid[d.min(2) as usize] {
                Some(v) => Value::constant(v),
                None => Value::sym(Sym::Nctaid(d)),
            },
            Special::Ctaid(d) => Value::sym(Sym::Ctaid(d)),
            Special::LaneId => Value::poly(Poly::lanes(iota)),
            Special::LaneMask(k) => {
                let v: Lanes = std::array::from_fn(|l| {
                    let l = l as u32;
                    let m: u64 = match k {
                        0 => (1u64 << l) - 1,
                        1 => (1u64 << (l + 1)) - 1,
                        2 => 1u64 << l,
                        3 => 0xffff_ffffu64 & !((1u64 << l) - 1),
                        _ => 0xffff_ffffu64 & !((1u64 << (l + 1)) - 1),
                    };
                    m as i64
                });
                Value::poly(Poly::lanes(v))
            }
            Special::OtherUniform => self.uniform_opaque(91),
            Special::ClusterCtaRank => self.uniform_opaque(92),
            Special::Other => Value::Varying { data: false },
        }
    }

    fn assign(&mut self, st: &mut [Value], dst: u32, v: Value, guard: Option<PredVal>, mask: u32) {
        let Some(si) = self.slot(dst) else {
            return;
        };
        let Some(slot) = st.get_mut(si) else {
            return;
        };
        let Some(g) = guard else {
            *slot = v;
            return;
        };
        let t = g.maybe_true() & mask;
        let f = g.maybe_false() & mask;
        if f == 0 {
            *slot = v;
        } else if t == 0 {
            // never executes in a possibly-active lane
        } else {
            let old = slot.clone();
            // exact blend when both sides are exact lanes and the guard is known
            if let (PredVal::Lanes(bits), Some(a), Some(b)) = (
                g,
                v.as_poly().and_then(|p| p.exact()),
                old.as_poly().and_then(|p| p.exact()),
            ) {
                let m: Lanes =
                    std::array::from_fn(|l| if bits & (1 << l) != 0 { a[l] } else { b[l] });
                *slot = Value::poly(Poly::lanes(m));
                return;
            }
            let key = (2, self.cur_stmt, dst);
            st[si] = self.join_at(&old, &v, key, None);
        }
    }

    /// Applies one block; records accesses when `record` is set. Returns the
    /// exit state and the out-edges' masks, with the compared register's
    /// value on an edge whose branch outcome narrows it (`(slot, value)`).
    fn block(
        &mut self,
        cfg: &Cfg,
        b: BlockId,
        st: &mut [Value],
        mask: u32,
        record: Option<&mut HashMap<u32, AccessFact>>,
    ) -> Vec<OutEdge> {
        let mut record = record;
        let mut branch_guard: Option<PredVal> = None;
        let mut exit_guard: Option<Option<PredVal>> = None;
        // The guarded terminator: its statement and guard (register, negated).
        let mut term: Option<(u32, (u32, bool))> = None;
        self.cur_block = b.0;
        for s in cfg.block(b).stmts.clone() {
            self.cur_stmt = s;
            if let (Some((ps, pr)), true) = (self.probe, record.is_some()) {
                if ps == s {
                    let v = self.reg(st, pr).cloned().unwrap_or_default();
                    self.probed = Some(match self.probed.take() {
                        // a statement in several blocks cannot happen; keep the first
                        Some(old) => old,
                        None => (v, mask),
                    });
                }
            }
            let Some(op) = self.low.ops.get(s as usize) else {
                continue;
            };
            // Ops that define no computed register and record nothing are
            // skipped: their values flow into nothing the results hold.
            let skip = match &op.kind {
                OpKind::Alu { dst, dst2, .. } => {
                    !self.wanted(&[*dst]) && !dst2.is_some_and(|d| self.wanted(&[d]))
                }
                OpKind::PredLogic { dst, .. } => !self.wanted(&[*dst]),
                OpKind::LdParam { dsts, .. }
                | OpKind::Call { dsts, .. }
                | OpKind::Other { dsts, .. } => !self.wanted(dsts),
                OpKind::Mem { dsts, .. } => record.is_none() && !self.wanted(dsts),
                OpKind::Nop | OpKind::Branch { .. } | OpKind::Exit => false,
            };
            if skip {
                continue;
            }
            let guard = op.guard.map(|(r, neg)| match self.reg(st, r) {
                Some(Value::Pred(p)) => {
                    if neg {
                        !*p
                    } else {
                        *p
                    }
                }
                Some(Value::Undef) | None => PredVal::Unknown {
                    uniform: true,
                    data: false,
                },
                Some(v) => PredVal::Unknown {
                    uniform: v.is_uniform(),
                    data: v.is_data(),
                },
            });
            match &op.kind {
                OpKind::Nop => {}
                OpKind::Alu {
                    alu,
                    dst,
                    dst2,
                    srcs,
                } => {
                    // the operands in a reused buffer: one op after another
                    let mut args = std::mem::take(&mut self.args);
                    for x in srcs {
                        let v = self.src(st, x);
                        args.push(v);
                    }
                    // `elect.sync`: the leader among the possibly-active
                    // lanes the guard may let through (`crosslane::elect`).
                    let elected = match alu.op {
                        AluOp::Warp(WarpOp::Elect) => super::crosslane::elect(
                            mask & guard.map_or(u32::MAX, PredVal::maybe_true),
                            args.first(),
                        ),
                        _ => None,
                    };
                    let (v, v2) = match elected {
                        Some((v, p)) => (v, Some(p)),
                        None => (abstract_eval(*alu, &args, self), None),
                    };
                    if let Some(d2) = dst2 {
                        let v2 = v2.unwrap_or_else(|| second_result(*alu, &args, &v, self));
                        self.assign(st, *d2, v2, guard, mask);
                    }
                    self.assign(st, *dst, v, guard, mask);
                    args.clear();
                    self.args = args;
                }
                OpKind::PredLogic { op, dst, srcs } => {
                    let ps: Vec<PredVal> = srcs
                        .iter()
                        .map(|x| match self.src(st, x) {
                            Value::Pred(p) => p,
                            Value::Poly(p) => match p.exact() {
                                Some(v) => PredVal::Lanes(
                                    (0..WARP).fold(0, |m, l| m | (((v[l] != 0) as u32) << l)),
                                ),
                                None => PredVal::Unknown {
                                    uniform: p.is_uniform(),
                                    data: false,
                                },
                            },
                            v => PredVal::Unknown {
                                uniform: v.is_uniform(),
                                data: v.is_data(),
                            },
                        })
                        .collect();
                    let unk = PredVal::Unknown {
                        uniform: false,
                        data: false,
                    };
                    let a = ps.first().copied().unwrap_or(unk);
                    let b2 = ps.get(1).copied().unwrap_or(unk);
                    let r = match *op {
                        "and" => a & b2,
                        "or" => a | b2,
                        "xor" => a ^ b2,
                        "not" => !a,
                        _ => a,
                    };
                    self.assign(st, *dst, Value::Pred(r), guard, mask);
                }
                OpKind::LdParam {
                    dsts,
                    param,
                    elem_bytes,
                } => {
                    for (k, d) in dsts.iter().enumerate() {
                        if self.slot(*d).is_none() {
                            continue;
                        }
                        let v = match crate::ir::ld_param_element(*param, *elem_bytes, k) {
                            Some((p, 0)) => {
                                match self.inputs.params.get(p as usize).copied().flatten() {
                                    Some(c) => Value::constant(c),
                                    None => Value::sym(Sym::Param(p)),
                                }
                            }
                            Some((p, off)) => match field_value(&self.inputs.fields, p, off) {
                                Some(c) => Value::constant(c),
                                None => self.uniform_opaque(k as u32),
                            },
                            _ => self.uniform_opaque(k as u32),
                        };
                        self.assign(st, *d, v, guard, mask);
                    }
                }
                OpKind::Mem { info, dsts } => {
                    let addr = self.src(st, &info.addr);
                    let addr = self.within_shared_variable(info, addr);
                    let m = mask & guard.map(|g| g.maybe_true()).unwrap_or(u32::MAX);
                    if let Some(rec) = record.as_deref_mut() {
                        rec.insert(
                            s,
                            AccessFact {
                                addr: addr.clone(),
                                mask: m,
                                reached: mask,
                                aux: info
                                    .aux_operands()
                                    .iter()
                                    .map(|(_, a)| self.src(st, a))
                                    .collect(),
                            },
                        );
                    }
                    for (k, d) in dsts.iter().enumerate() {
                        if self.slot(*d).is_none() {
                            continue;
                        }
                        let v = if info.op == super::model::AccessOp::Load
                            && addr.is_uniform()
                            && !addr.is_data()
                        {
                            if matches!(addr, Value::Undef) {
                                Value::Undef
                            } else if let Some(v) = self.depot_value(s, k) {
                                v
                            } else {
                                self.uniform_opaque(k as u32)
                            }
                        } else {
                            let ty = Some(super::transfer::Ty {
                                bits: info.elem_bits,
                                signed: info.elem_signed,
                                float: info.elem_float,
                            });
                            // One plain load reads each address once: lanes
                            // that read one address share the value.
                            if info.kind == crate::ir::MemKind::Plain
                                && info.op == super::model::AccessOp::Load
                            {
                                super::bounds::loaded_at(&addr, ty)
                            } else {
                                super::bounds::loaded(ty)
                            }
                        };
                        self.assign(st, *d, v, guard, mask);
                    }
                }
                OpKind::Branch { .. } => {
                    branch_guard = guard;
                    term = op.guard.map(|g| (s, g));
                }
                OpKind::Exit => {
                    exit_guard = Some(guard);
                    term = op.guard.map(|g| (s, g));
                }
                OpKind::Call { dsts, .. } => {
                    for d in dsts {
                        self.assign(st, *d, Value::Varying { data: false }, guard, mask);
                    }
                }
                OpKind::Other {
                    dsts,
                    srcs,
                    block_wide,
                } => {
                    let args: Vec<Value> = srcs.iter().map(|x| self.src(st, x)).collect();
                    // A barrier reduction: the same unknown in every lane.
                    let data = !*block_wide && args.iter().any(Value::is_data);
                    for (k, d) in dsts.iter().enumerate() {
                        if self.slot(*d).is_none() {
                            continue;
                        }
                        let v = if data {
                            Value::Varying { data: true }
                        } else if *block_wide || args.iter().all(Value::is_uniform) {
                            self.uniform_opaque(k as u32)
                        } else {
                            Value::Varying { data: false }
                        };
                        self.assign(st, *d, v, guard, mask);
                    }
                }
            }
        }
        let mut outs = Vec::new();
        let test = term.and_then(|(ts, g)| self.branch_test(cfg, b, ts, g, st));
        for (succ, kind) in cfg.successors(b) {
            let refined = match (&test, kind) {
                (Some(t), EdgeKind::Taken) => self.refine_edge(t, true, st),
                (Some(t), EdgeKind::NotTaken) => self.refine_edge(t, false, st),
                _ => None,
            };
            let m = match kind {
                EdgeKind::Taken => mask & branch_guard.map(|g| g.maybe_true()).unwrap_or(u32::MAX),
                EdgeKind::NotTaken => match (exit_guard, branch_guard) {
                    (Some(Some(g)), _) => mask & g.maybe_false(),
                    (_, Some(g)) => mask & g.maybe_false(),
                    _ => mask,
                },
                _ => mask,
            };
            outs.push((succ, m, refined));
        }
        outs
    }

    /// The comparison that decides the guarded terminator `term` (statement
    /// `ts`, guard `(p, neg)`) of block `b`, when `p` is written in `b` by a
    /// `setp` of an integer register against a constant or a uniform value
    /// with known bounds and neither operand is written between the two.
    fn branch_test(
        &self,
        cfg: &Cfg,
        b: BlockId,
        ts: u32,
        (p, neg): (u32, bool),
        st: &[Value],
    ) -> Option<BranchTest> {
        let stmts: Vec<u32> = cfg.block(b).stmts.clone().filter(|&s| s < ts).collect();
        let mut written: Vec<u32> = Vec::new();
        for &s in stmts.iter().rev() {
            let op = self.low.ops.get(s as usize)?;
            let mut writes_p = false;
            ssa::op_writes(op, |r| writes_p |= r == p);
            if !writes_p {
                ssa::op_writes(op, |r| written.push(r));
                continue;
            }
            let OpKind::Alu {
                alu,
                dst,
                dst2,
                srcs,
            } = &op.kind
            else {
                return None;
            };
            let AluOp::Setp(cmp, comb) = alu.op else {
                return None;
            };
            if op.guard.is_some() || alu.ty.float {
                return None;
            }
            // `p` is the comparison itself (`dst`) or its negation (`dst2`).
            let negated = if *dst == p {
                false
            } else if *dst2 == Some(p) {
                true
            } else {
                return None;
            };
            let comb = match comb {
                None => Comb::None,
                Some(AluOp2::And) => Comb::And,
                Some(AluOp2::Or) => Comb::Or,
                Some(AluOp2::Xor) => return None,
            };
            let bound = |x: &Src| -> Option<(i128, i128)> {
                match x {
                    Src::Imm(c) => {
                        let c = alu.ty.read(*c) as i128;
                        Some((c, c))
                    }
                    Src::Reg(r, off) if !written.contains(r) => {
                        let v = self.reg(st, *r)?.as_poly()?;
                        if !v.is_uniform() {
                            return None;
                        }
                        let (lo, hi) = self.facts.uniform_range(v)?;
                        Some((lo + *off as i128, hi + *off as i128))
                    }
                    _ => None,
                }
            };
            let (a, c) = (srcs.first()?, srcs.get(1)?);
            let (reg, cmp, other) = match (a, c) {
                (Src::Reg(r, 0), _) if !written.contains(r) && bound(c).is_some() => {
                    (*r, cmp, bound(c)?)
                }
                (_, Src::Reg(r, 0)) if !written.contains(r) && bound(a).is_some() => {
                    (*r, swap(cmp), bound(a)?)
                }
                _ => return None,
            };
            self.slot(reg)?;
            return Some(BranchTest {
                stmt: ts,
                reg,
                cmp,
                ty: alu.ty,
                other,
                neg,
                negated,
                comb,
            });
        }
        None
    }

    /// The value of the compared register on the taken (`taken`) or
    /// fall-through edge, when the comparison's outcome there narrows it:
    /// `(slot, value)`.
    fn refine_edge(&mut self, t: &BranchTest, taken: bool, st: &[Value]) -> Option<(u32, Value)> {
        // The predicate register's value on this edge, then the comparison's.
        let p = taken != t.neg;
        let holds = match (t.comb, t.negated, p) {
            (Comb::None, negated, p) => p != negated,
            // `p = t & c`: true means `t`; `q = !t & c`: true means `!t`
            (Comb::And, negated, true) => !negated,
            // `p = t | c`: false means `!t`; `q = !t | c`: false means `t`
            (Comb::Or, negated, false) => negated,
            _ => return None,
        };
        let cmp = if holds { t.cmp } else { negate(t.cmp) };
        let (olo, ohi) = t.other;
        let (lo, hi, except) = match cmp {
            Cmp::Lt => (None, Some(ohi - 1), None),
            Cmp::Le => (None, Some(ohi), None),
            Cmp::Gt => (Some(olo + 1), None, None),
            Cmp::Ge => (Some(olo), None, None),
            Cmp::Eq => (Some(olo), Some(ohi), None),
            Cmp::Ne => (None, None, (olo == ohi).then_some(olo)),
        };
        let sl = self.slot(t.reg)?;
        let v = st.get(sl)?.clone();
        let cur = self.interval(&v);
        let (lo, hi) = reading_bounds(t.ty, cur, lo, hi)?;
        let (lo, hi) = match except {
            Some(x) => match cur {
                Some((a, b)) if a == x => (Some(a + 1), Some(b)),
                Some((a, b)) if b == x => (Some(a), Some(b - 1)),
                _ => return None,
            },
            None => (lo, hi),
        };
        let nv = self.narrow(&v, lo, hi, (t.stmt, sl as u32 * 2 + taken as u32))?;
        Some((sl as u32, nv))
    }

    /// Bounds of `v` in every lane, when known.
    fn interval(&self, v: &Value) -> Option<(i128, i128)> {
        match v {
            Value::Poly(p) => {
                if let Some(e) = p.exact() {
                    let lo = e.iter().copied().min()? as i128;
                    let hi = e.iter().copied().max()? as i128;
                    return Some((lo, hi));
                }
                if p.is_uniform() {
                    return self.facts.uniform_range(p);
                }
                None
            }
            Value::Range(r) if r.base.terms().is_empty() && r.bounded() => {
                let (emin, emax) = match &r.exact {
                    Some(e) => (
                        e.iter().copied().min().unwrap_or(0),
                        e.iter().copied().max().unwrap_or(0),
                    ),
                    None => (0, 0),
                };
                Some((r.lo as i128 + emin as i128, r.hi as i128 + emax as i128))
            }
            _ => None,
        }
    }

    /// `v` in the lanes where it lies in `[lo, hi]` (`None`: unbounded), or
    /// `None` when that says nothing new. A uniform opaque value becomes a
    /// fresh opaque symbol of the edge (`site`) with those bounds and the
    /// old one's congruence; a range of loaded data has its unknown's
    /// bounds narrowed; unbounded data becomes such a range.
    fn narrow(
        &mut self,
        v: &Value,
        lo: Option<i128>,
        hi: Option<i128>,
        site: (u32, u32),
    ) -> Option<Value> {
        if lo.is_none() && hi.is_none() {
            return None;
        }
        let clamp = |x: i128| i64::try_from(x).ok();
        match v {
            Value::Poly(p) if p.is_uniform() && p.exact().is_none() => {
                // `s + c0` with `s` opaque
                let mut sym = None;
                let mut c0 = 0i64;
                for (m, k) in p.terms() {
                    match (m.syms(), k.at(0)) {
                        ([], c) => c0 = c,
                        ([s @ Sym::Opaque(_)], 1) => sym = Some(*s),
                        _ => return None,
                    }
                }
                let s = sym?;
                let (slo, shi) = match self.facts.range(s) {
                    Some((a, b)) => (Some(a), b),
                    None => (None, None),
                };
                let lo = [lo.map(|x| x - c0 as i128), slo]
                    .into_iter()
                    .flatten()
                    .max();
                let hi = [hi.map(|x| x - c0 as i128), shi]
                    .into_iter()
                    .flatten()
                    .min();
                if let (Some(a), Some(b)) = (lo, hi) {
                    if a == b {
                        return Some(Value::constant(clamp(a)?.checked_add(c0)?));
                    }
                    if a > b {
                        return None;
                    }
                }
                // Symbols carry non-negative ranges only.
                let lo = clamp(lo.filter(|&a| a >= 0)?)?;
                let hi = hi.map_or(Some(i64::MAX), clamp)?;
                if slo == Some(lo as i128) && shi == Some(hi as i128) {
                    return None;
                }
                let cong = self.facts.cong(s);
                let saved = self.cur_stmt;
                self.cur_stmt = site.0;
                let ns = OpaqueSource::opaque(self, EDGE_SLOT | site.1, cong);
                self.cur_stmt = saved;
                if let Sym::Opaque(id) = ns {
                    self.narrowed.insert(id, s);
                }
                self.bound(ns, lo, hi);
                Some(Value::poly(Poly::sym(ns).add_const(c0)))
            }
            Value::Range(r) if r.base.terms().is_empty() => {
                let (emin, emax) = match &r.exact {
                    Some(e) => (
                        e.iter().copied().min().unwrap_or(0) as i128,
                        e.iter().copied().max().unwrap_or(0) as i128,
                    ),
                    None => (0, 0),
                };
                // every lane: exact[l] + x in [lo, hi], so x in
                // [lo - min exact, hi - max exact] would be too tight for
                // some lanes: x in [lo - max exact, hi - min exact]
                let nlo = match lo.and_then(|a| clamp(a - emax)) {
                    Some(a) if r.lo == super::domain::NO_LO || a > r.lo => a,
                    _ => r.lo,
                };
                let nhi = match hi.and_then(|b| clamp(b - emin)) {
                    Some(b) if r.hi == super::domain::NO_HI || b < r.hi => b,
                    _ => r.hi,
                };
                if nlo == r.lo && nhi == r.hi {
                    return None;
                }
                if nlo > nhi {
                    return None;
                }
                Some(Range::with_bits(
                    r.base.clone(),
                    nlo,
                    nhi,
                    r.cong,
                    r.data,
                    r.exact.as_deref().copied(),
                    r.key,
                    r.bits,
                ))
            }
            Value::Varying { data: true } => {
                let a = lo.and_then(clamp).unwrap_or(super::domain::NO_LO);
                let b = hi.and_then(clamp).unwrap_or(super::domain::NO_HI);
                if a > b {
                    return None;
                }
                Some(Range::value(Poly::default(), a, b, Cong::TOP, true))
            }
            _ => None,
        }
    }
}

/// The opaque-symbol slots of edge refinements (beside the transfer's).
const EDGE_SLOT: u32 = 0x4000_0000;

/// A join site's symbol with its congruence and range before a join.
type SiteFacts = (u32, Option<Cong>, Option<(i64, i64)>);

/// An out-edge of a block: the successor, the possibly-active lanes along
/// it, and the compared register's narrowed value there (`(slot, value)`).
type OutEdge = (BlockId, u32, Option<(u32, Value)>);

/// How a `setp` combines its comparison with a further predicate.
#[derive(Clone, Copy, Debug)]
enum Comb {
    None,
    And,
    Or,
}

/// A comparison `reg cmp other` deciding a block's guarded terminator.
#[derive(Clone, Debug)]
struct BranchTest {
    /// The terminator's statement.
    stmt: u32,
    /// The compared register.
    reg: u32,
    /// The comparison, with `reg` on the left.
    cmp: Cmp,
    /// The comparison's type (signedness and width).
    ty: Ty,
    /// Bounds of the other operand.
    other: (i128, i128),
    /// The terminator's guard is negated (`@!p`).
    neg: bool,
    /// The guard is the `setp`'s second destination (the negation).
    negated: bool,
    /// The `setp`'s combination with a further predicate.
    comb: Comb,
}

/// `a cmp b` as `b cmp' a`.
fn swap(c: Cmp) -> Cmp {
    match c {
        Cmp::Lt => Cmp::Gt,
        Cmp::Le => Cmp::Ge,
        Cmp::Gt => Cmp::Lt,
        Cmp::Ge => Cmp::Le,
        other => other,
    }
}

/// The comparison that holds where `c` does not.
fn negate(c: Cmp) -> Cmp {
    match c {
        Cmp::Eq => Cmp::Ne,
        Cmp::Ne => Cmp::Eq,
        Cmp::Lt => Cmp::Ge,
        Cmp::Le => Cmp::Gt,
        Cmp::Gt => Cmp::Le,
        Cmp::Ge => Cmp::Lt,
    }
}

/// The bounds `[lo, hi]` on a register's *reading* in type `ty` turned
/// into bounds on its value (`cur`: its known bounds), or `None` when they
/// say nothing sound. The value is the reading when it lies in the type's
/// range (signed: `[-2^(b-1), 2^(b-1))`, unsigned: `[0, 2^b)`); with bounds
/// unknown a signed comparison is taken to read the value itself (the
/// domain's no-wrap assumption). An unsigned upper bound below `2^(b-1)`
/// also holds for a value that may be negative, as long as it lies in
/// `[-2^(b-1), 2^b)`: a negative value reads as `2^b` plus itself, at least
/// `2^(b-1)`, so the lanes that pass are the non-negative ones.
fn reading_bounds(
    ty: Ty,
    cur: Option<(i128, i128)>,
    lo: Option<i128>,
    hi: Option<i128>,
) -> Option<(Option<i128>, Option<i128>)> {
    let b = ty.bits.clamp(1, 64);
    let half = 1i128 << (b - 1);
    let (wlo, whi) = if ty.signed {
        (-half, half - 1)
    } else {
        (0, (1i128 << b) - 1)
    };
    let inside = match cur {
        Some((a, c)) => wlo <= a && c <= whi,
        None => ty.signed,
    };
    if inside {
        return Some((lo, hi));
    }
    if ty.signed {
        return None;
    }
    // unsigned, the value possibly negative
    let fits = match cur {
        Some((a, c)) => -half <= a && c <= whi,
        None => true,
    };
    match hi {
        Some(h) if fits && h < half => Some((Some(lo.unwrap_or(0).max(0)), Some(h))),
        _ => None,
    }
}

impl OpaqueSource for Engine<'_, '_> {
    fn opaque(&mut self, slot: u32, cong: Cong) -> Sym {
        let s = self.cur_stmt;
        let sym = self.site(0, s, slot, Some(cong));
        if let Sym::Opaque(id) = sym {
            if let Some(c) = self.facts.opaque.get_mut(id as usize) {
                let new = Some(c.map(|old| old.join(cong)).unwrap_or(cong));
                if *c != new {
                    *c = new;
                    self.fact_moved(id);
                }
            }
        }
        sym
    }
    fn facts(&self) -> &SymFacts {
        &self.facts
    }
    fn quotient(&mut self, s: Sym, x: &Poly, c: i64, unsigned: bool) {
        let Sym::Opaque(id) = s else { return };
        let i = id as usize;
        if self.facts.quotients.len() <= i {
            self.facts.quotients.resize(i + 1, Quotient::None);
        }
        let q = &mut self.facts.quotients[i];
        match q {
            Quotient::None => {
                *q = Quotient::Of {
                    x: std::rc::Rc::new(x.clone()),
                    c,
                    unsigned,
                };
                self.quot_ids.push(id);
            }
            Quotient::Of {
                x: x0,
                c: c0,
                unsigned: u0,
            } if **x0 == *x && *c0 == c && *u0 == unsigned => {}
            Quotient::Of { .. } => {
                *q = Quotient::Conflict;
                self.fact_moved(id);
            }
            Quotient::Conflict => {}
        }
    }
    fn bound(&mut self, s: Sym, lo: i64, hi: i64) {
        let Sym::Opaque(id) = s else { return };
        let i = id as usize;
        if self.facts.opaque_range.len() <= i {
            self.facts.opaque_range.resize(i + 1, None);
        }
        let slot = &mut self.facts.opaque_range[i];
        let new = Some(match *slot {
            Some((a, b)) => (a.min(lo), b.max(hi)),
            None => (lo, hi),
        });
        if *slot != new {
            *slot = new;
            self.fact_moved(id);
        }
    }
}

/// Runs the analysis of one kernel for one warp class.
pub fn analyze_class(
    low: &Lowered<'_>,
    cfg: &Cfg,
    inputs: &Inputs,
    class: &WarpClass,
) -> ClassResult {
    analyze_class_with_probe(low, cfg, inputs, class, None)
}

/// [`analyze_class`], also recording the value of register `probe.1` just
/// before statement `probe.0` (for hover explanations).
pub fn analyze_class_with_probe(
    low: &Lowered<'_>,
    cfg: &Cfg,
    inputs: &Inputs,
    class: &WarpClass,
    probe: Option<(u32, u32)>,
) -> ClassResult {
    let layout = Layout::new(low, cfg, inputs, probe.is_some());
    analyze_class_in(&layout, low, cfg, inputs, class, probe, None)
}

/// Where the registers live in the block states, which every warp class's
/// run over one kernel shares: each computed register's slot and the slots
/// live at each block's entry. It depends on the ops, the CFG and
/// [`Inputs::relevant`] only (not on the class or the other inputs).
pub struct Layout {
    /// Register -> slot ([`NO_SLOT`]: not computed).
    slot: Vec<u32>,
    /// Slots.
    nregs: usize,
    /// The slots live at each block's entry, ascending.
    live: Vec<Vec<u32>>,
    /// Where each block's live slots start in a table of all blocks' live
    /// slots, one after the other (and, last, the table's length).
    live_at: Vec<u32>,
    /// Each variable's address congruence: its declared alignment, or for a
    /// shared variable the place ptxas gives it (`merge::SharedLayout`).
    vars: Vec<Cong>,
}

impl Layout {
    /// The layout of `inputs.relevant`'s registers; with `probe`, every
    /// register, live everywhere (a probe may read any register anywhere).
    pub fn new(low: &Lowered<'_>, cfg: &Cfg, inputs: &Inputs, probe: bool) -> Layout {
        let slot: Vec<u32> = match &inputs.relevant {
            Some(rel) => {
                let mut n = 0u32;
                (0..low.regs.len())
                    .map(|r| {
                        if rel.get(r).copied().unwrap_or(false) {
                            n += 1;
                            n - 1
                        } else {
                            NO_SLOT
                        }
                    })
                    .collect()
            }
            None => (0..low.regs.len() as u32).collect(),
        };
        let nregs = slot.iter().filter(|&&s| s != NO_SLOT).count();
        let live = match probe {
            true => vec![(0..nregs as u32).collect(); cfg.blocks().len()],
            false => live_slots(low, cfg, &slot, nregs),
        };
        let mut live_at = Vec::with_capacity(live.len() + 1);
        let mut n = 0u32;
        for l in &live {
            live_at.push(n);
            n = n.saturating_add(l.len() as u32);
        }
        live_at.push(n);
        let shared = super::merge::SharedLayout::of(low);
        let vars = low
            .vars
            .iter()
            .enumerate()
            .map(|(i, v)| {
                shared
                    .var_cong(i, v.align)
                    .unwrap_or_else(|| Cong::modulo(v.align.max(1) as u64, 0))
            })
            .collect();
        Layout {
            slot,
            nregs,
            live,
            live_at,
            vars,
        }
    }
}

/// The blocks a run needs when only some accesses' facts are wanted (see
/// *Focus* in the module doc): the blocks holding those accesses
/// (`record`) and every block from which one of them is reachable
/// (`apply`, closed under predecessors).
pub struct Focus {
    apply: Vec<bool>,
    record: Vec<bool>,
}

impl Focus {
    /// The focus on the memory ops `wanted` accepts (by op index).
    pub fn on_ops(cfg: &Cfg, wanted: impl Fn(usize) -> bool) -> Focus {
        let nblocks = cfg.blocks().len();
        let record: Vec<bool> = cfg
            .blocks()
            .iter()
            .map(|b| b.stmts.clone().any(|s| wanted(s as usize)))
            .collect();
        let mut apply = record.clone();
        let mut work: Vec<BlockId> = cfg.block_ids().filter(|b| record[b.index()]).collect();
        while let Some(b) = work.pop() {
            for (p, _) in cfg.predecessors(b) {
                if let Some(a) = apply.get_mut(p.index()) {
                    if !*a {
                        *a = true;
                        work.push(p);
                    }
                }
            }
        }
        debug_assert_eq!(apply.len(), nblocks);
        Focus { apply, record }
    }

    /// True when the run applies block `b`.
    pub fn applies_to(&self, b: BlockId) -> bool {
        self.apply.get(b.index()).copied().unwrap_or(false)
    }

    /// True when op `s` lies in a block the run applies.
    pub fn applies(&self, cfg: &Cfg, s: u32) -> bool {
        self.applies_to(cfg.block_of(crate::ir::OpId(s)))
    }
}

/// [`analyze_class_with_probe`] on a [`Layout`] made for `low`, `cfg` and
/// `inputs.relevant` (and the probe, if any).
pub fn analyze_class_in(
    layout: &Layout,
    low: &Lowered<'_>,
    cfg: &Cfg,
    inputs: &Inputs,
    class: &WarpClass,
    probe: Option<(u32, u32)>,
    focus: Option<&Focus>,
) -> ClassResult {
    let mut facts = SymFacts {
        params: Vec::new(),
        ..SymFacts::default()
    };
    facts.params = (0..low.pointer_params.len().max(inputs.params.len()))
        .map(|i| {
            if low.pointer_params.get(i).copied().unwrap_or(false) {
                Cong::modulo(inputs.pointer_align.max(1) as u64, 0)
            } else {
                Cong::TOP
            }
        })
        .collect();
    facts.ntid = std::array::from_fn(|d| {
        Some(
            inputs.ntid[d]
                .map(Cong::exact)
                .unwrap_or(inputs.ntid_cong[d]),
        )
    });
    facts.tid_base = class.base.map(Some);
    facts.tid_base_range = class.base_range.map(Some);
    facts.nonneg_params = low.pointer_params.clone();
    facts.vars = layout.vars.clone();
    let nregs = layout.nregs;
    let mut eng = Engine {
        low,
        slot: &layout.slot,
        inputs,
        class,
        facts,
        sites: HashMap::default(),
        entry_sites: vec![NO_SITE; layout.live_at.last().copied().unwrap_or(0) as usize],
        cur_stmt: 0,
        probe,
        probed: None,
        facts_changed: false,
        cur_block: 0,
        home: Vec::new(),
        moved: Vec::new(),
        app: 0,
        quot_ids: Vec::new(),
        args: Vec::new(),
        consts: HashMap::default(),
        specials: vec![None; PURE_SPECIALS],
        narrowed: HashMap::default(),
    };
    let nblocks = cfg.blocks().len();
    // Block entry states hold only the slots live at the block's entry
    // (`live[b]`, ascending); a block runs on one dense scratch state whose
    // other slots hold whatever an earlier block left there: liveness says
    // the block writes them before it reads them.
    let live = &layout.live;
    let mut entry: Vec<Option<(Vec<Value>, u32)>> = vec![None; nblocks];
    let e = cfg.entry().index();
    entry[e] = Some((vec![Value::Undef; live[e].len()], class.exists));
    let mut work: Vec<Value> = vec![Value::Undef; nregs];
    // A slot that already holds the entry's value (shared: often the
    // block applied just before is the one whose exit the entry copied) is
    // left alone, sparing the reference counts' writes.
    let load = |work: &mut [Value], b: usize, vals: &[Value]| {
        for (&sl, v) in live[b].iter().zip(vals) {
            let w = &mut work[sl as usize];
            if !shared(w, v) {
                *w = v.clone();
            }
        }
    };
    let rpo: Vec<BlockId> = cfg.reverse_post_order().to_vec();
    // Loop headers (targets of back edges) and the latest value each of
    // their live slots received along each incoming edge (see *Counters in
    // lockstep*).
    let mut header = vec![false; nblocks];
    for &(_, h) in cfg.back_edges() {
        header[h.index()] = true;
    }
    let single_pred: Vec<bool> = (0..nblocks)
        .map(|i| i != e && cfg.predecessors(BlockId(i as u32)).len() == 1)
        .collect();
    // Without a loop header no counter is derived and nothing reads them.
    let track = header.iter().any(|&h| h);
    // Made at a block's first arrival.
    let mut incoming: Vec<Arrivals> = Vec::new();
    if track {
        incoming.resize_with(nblocks, Arrivals::default);
    }
    let mut iv_dead: Vec<bool> = Vec::new();
    let mut gave_up = false;
    let mut round = 0;
    // Blocks whose entry state changed since they were last applied. A block
    // applied again to the same entry state under the same symbol facts
    // does exactly what it did the last time (its sites already exist, its
    // congruence and range joins are idempotent), so a round applies only
    // these. The facts are shared by every block: a round that changed them
    // makes every block dirty for the next one, as if each were applied.
    let mut dirty = vec![true; nblocks];
    let applied = |b: usize| focus.is_none_or(|f| f.apply.get(b).copied().unwrap_or(false));
    // Whether the last round changed a symbol's facts (see the recording
    // pass below).
    let mut facts_moved;
    // When each block was last applied (the application's number,
    // [`Engine::app`]; 0: never), and scratch for the blocks a change of
    // facts makes dirty.
    let mut last: Vec<u64> = vec![0; nblocks];
    let mut scratch = MoveScratch::default();
    loop {
        let mut changed = false;
        eng.facts_changed = false;
        eng.moved.clear();
        // A change of facts that no symbol's home bounds (the lockstep
        // ranges below): every block is dirty after it.
        let mut all_moved = false;
        for &b in &rpo {
            let Some((vals, mask)) = &entry[b.index()] else {
                continue;
            };
            if !applied(b.index()) {
                continue;
            }
            if !std::mem::replace(&mut dirty[b.index()], false) {
                continue;
            }
            let mask = *mask;
            load(&mut work, b.index(), vals);
            eng.app += 1;
            last[b.index()] = eng.app;
            let edges = eng.block(cfg, b, &mut work, mask, None);
            let targets: Vec<BlockId> = edges.iter().map(|e| e.0).collect();
            for (succ, m, refined) in edges {
                // The only edge into `succ` (see *One way in*).
                let only = single_pred[succ.index()]
                    && targets.iter().filter(|&&t| t == succ).count() == 1;
                if m == 0 || !applied(succ.index()) {
                    continue;
                }
                let i = succ.index();
                // The value a slot carries along this edge: the compared
                // register narrowed by the branch's outcome, or the exit state's.
                let along = |sl: u32| match &refined {
                    Some((rs, v)) if *rs == sl => v,
                    _ => &work[sl as usize],
                };
                if track && !single_pred[i] {
                    let a = &mut incoming[i];
                    if a.preds.is_empty() {
                        *a = Arrivals::new(cfg, succ);
                    }
                    a.arrive(b.index() as u32, &live[i], along);
                }
                match &mut entry[i] {
                    None => {
                        let vals = live[i].iter().map(|&sl| along(sl).clone());
                        entry[i] = Some((vals.collect(), m));
                        changed = true;
                        dirty[i] = true;
                    }
                    Some((cur, cm)) => {
                        if *cm | m != *cm {
                            *cm |= m;
                            changed = true;
                            dirty[i] = true;
                        }
                        let at = layout.live_at[i] as usize;
                        for (k, (&sl, c)) in live[i].iter().zip(cur.iter_mut()).enumerate() {
                            let out = along(sl);
                            if same(c, out) {
                                continue;
                            }
                            if only {
                                *c = out.clone();
                                changed = true;
                                dirty[i] = true;
                                continue;
                            }
                            let j = eng.join_at(c, out, (3, i as u32, sl), Some(at + k));
                            if !same(&j, c) {
                                *c = j;
                                changed = true;
                                dirty[i] = true;
                            }
                        }
                    }
                }
            }
        }
        // Without a loop header there is no counter: nothing to derive.
        if track
            && lockstep_ranges(
                &mut eng,
                &entry,
                live,
                &layout.live_at,
                &header,
                &incoming,
                &mut iv_dead,
            )
        {
            // Values computed under the old ranges may be too narrow: run
            // every block again.
            eng.facts_changed = true;
            all_moved = true;
            changed = true;
        }
        facts_moved = eng.facts_changed;
        // In the first round nearly every block is applied before the
        // changes (a loop's join sites change when its back edge first
        // arrives): every block is dirty after it, as finding the few that
        // are not costs more than applying them.
        if eng.facts_changed
            && (all_moved
                || round == 0
                || every_block()
                || !dirty_after_moves(&eng, cfg, &entry, &last, &mut dirty, &mut scratch))
        {
            dirty.iter_mut().for_each(|d| *d = true);
        }
        if every_block() {
            dirty.iter_mut().for_each(|d| *d = true);
        }
        round += 1;
        if !changed {
            break;
        }
        if round >= MAX_ROUNDS {
            // Not converged (never seen; the lattice has finite height): fall
            // back to the top element at every block entry, which is a
            // post-fixpoint, so what is recorded below stays sound.
            gave_up = true;
            for (cur, mask) in entry.iter_mut().flatten() {
                *mask = class.exists;
                for v in cur.iter_mut() {
                    *v = match v {
                        Value::Pred(_) => Value::Pred(PredVal::Unknown {
                            uniform: false,
                            data: true,
                        }),
                        _ => Value::Varying { data: true },
                    };
                }
            }
            break;
        }
    }
    // The recording pass applies each block once more to its entry state.
    // When the last round changed no symbol's facts (and the iteration did
    // not give up), every block's last application in the fixpoint was to
    // its final entry state under the final facts, so applying it again
    // changes no fact and gives what it gave then: only the blocks whose
    // accesses are recorded (those holding a memory op, or the focus's)
    // need to run. When the last round changed facts, the blocks it made
    // dirty (those that may have read the old facts; `dirty_after_moves`)
    // run too, in order, and once one of them changes a fact again every
    // later block runs, as the facts it changes may reach it: a block
    // applied again to its entry state under the facts it last read
    // changes nothing. After giving up, or with a probe, every applied
    // block runs.
    let mut every = gave_up || probe.is_some();
    let recorded: Vec<bool> = match focus {
        Some(f) => f.record.clone(),
        None => cfg
            .blocks()
            .iter()
            .map(|blk| {
                blk.stmts.clone().any(|s| {
                    matches!(
                        low.ops.get(s as usize).map(|o| &o.kind),
                        Some(OpKind::Mem { .. })
                    )
                })
            })
            .collect(),
    };
    let mut accesses = HashMap::default();
    for &b in &rpo {
        let Some((vals, mask)) = &entry[b.index()] else {
            continue;
        };
        let again = facts_moved && dirty[b.index()];
        if !applied(b.index()) || !(every || again || recorded[b.index()]) {
            continue;
        }
        let mask = *mask;
        load(&mut work, b.index(), vals);
        let moves = eng.moved.len();
        eng.block(cfg, b, &mut work, mask, Some(&mut accesses));
        if eng.moved.len() != moves {
            every = true;
        }
    }
    let probe = eng.probed.take();
    ClassResult {
        accesses,
        facts: eng.facts,
        gave_up,
        probe,
    }
}

/// Scratch of [`dirty_after_moves`], kept over the rounds of a run.
#[derive(Default)]
struct MoveScratch {
    /// The latest change of each opaque symbol's facts (0: none).
    chg: Vec<u64>,
    /// The symbols whose entry in `chg` is set.
    touched: Vec<u32>,
}

/// Marks dirty the blocks that may have read a symbol's facts before they
/// changed in the round just ended (see *Fixpoint* in the module doc):
/// `last` is each block's latest application ([`Engine::app`]), and a
/// block applied after every change of the facts it may read is left
/// clean. A block reads the facts of the symbols its entry values
/// mention, of those it makes (its home's), of those its successors'
/// entries mention (the joins along its out-edges) and of those a
/// quotient among them divides; so the latest change of each symbol is
/// carried to the quotients that mention it, and then to every block
/// whose entry mentions one and to its predecessors, and to each
/// symbol's home. False when some changed symbol has no known home (the
/// caller makes every block dirty).
fn dirty_after_moves(
    eng: &Engine<'_, '_>,
    cfg: &Cfg,
    entry: &[Option<(Vec<Value>, u32)>],
    last: &[u64],
    dirty: &mut [bool],
    scratch: &mut MoveScratch,
) -> bool {
    let MoveScratch { chg, touched } = scratch;
    // `chg` is all zero between calls: only the entries in `touched` are set.
    for &id in touched.iter() {
        chg[id as usize] = 0;
    }
    touched.clear();
    if chg.len() < eng.facts.opaque.len() {
        chg.resize(eng.facts.opaque.len(), 0);
    }
    for &(id, t) in &eng.moved {
        match chg.get_mut(id as usize) {
            Some(c) => {
                if *c == 0 {
                    touched.push(id);
                }
                *c = (*c).max(t);
            }
            None => return false,
        }
    }
    let latest = |chg: &[u64], p: &Poly| -> u64 {
        p.terms()
            .iter()
            .flat_map(|(m, _)| m.syms())
            .map(|s| match s {
                Sym::Opaque(id) => chg.get(*id as usize).copied().unwrap_or(0),
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    };
    // A quotient's facts are read with its dividend's: to a fixpoint (a
    // dividend is made before its quotient, so one pass in order of the
    // symbols' indices usually suffices).
    loop {
        let mut grew = false;
        for &t in &eng.quot_ids {
            if let Some(Quotient::Of { x, .. }) = eng.facts.quotients.get(t as usize) {
                let m = latest(chg, x);
                if let Some(c) = chg.get_mut(t as usize) {
                    if m > *c {
                        if *c == 0 {
                            touched.push(t);
                        }
                        *c = m;
                        grew = true;
                    }
                }
            }
        }
        if !grew {
            break;
        }
    }
    let mut tmax = 0;
    for &id in touched.iter() {
        let t = chg[id as usize];
        tmax = tmax.max(t);
        match eng.home.get(id as usize).copied() {
            Some(h) if h != NO_HOME => {
                if last.get(h as usize).is_some_and(|&l| l <= t) {
                    dirty[h as usize] = true;
                }
            }
            _ => return false,
        }
    }
    // A block that is dirty already or was applied after every change
    // (and so are its predecessors) can be marked by nothing here: its
    // entry is not read.
    let settled = |dirty: &[bool], b: usize| dirty[b] || last[b] > tmax;
    for (y, e) in entry.iter().enumerate() {
        let Some((vals, _)) = e else { continue };
        if settled(dirty, y)
            && cfg
                .predecessors(BlockId(y as u32))
                .all(|(p, _)| settled(dirty, p.index()))
        {
            continue;
        }
        let mut m = 0;
        for v in vals {
            let t = match v {
                Value::Poly(p) => latest(chg, p),
                Value::Range(r) => latest(chg, &r.base),
                _ => continue,
            };
            m = m.max(t);
        }
        if m == 0 {
            continue;
        }
        if last[y] <= m {
            dirty[y] = true;
        }
        for (p, _) in cfg.predecessors(BlockId(y as u32)) {
            if last[p.index()] <= m {
                dirty[p.index()] = true;
            }
        }
    }
    true
}

/// The latest value each live slot of a block with several ways in received
/// along each incoming edge (from each predecessor), for
/// [`lockstep_ranges`]: one row per predecessor that delivered, a value per
/// live slot of the block (in `live` order).
#[derive(Default)]
struct Arrivals {
    /// The block's predecessors, each once.
    preds: Vec<u32>,
    /// Whether each predecessor delivered since the run began.
    got: Vec<bool>,
    /// `vals[j * n + k]`: the value live slot `k` (of `n`) received from
    /// `preds[j]` (allocated at the first delivery).
    vals: Vec<Value>,
    /// Per live slot, the distinct `(X, c)` of its values for [`Aliases`],
    /// kept until one of the slot's values changes.
    pairs: std::cell::RefCell<Vec<SitePairs>>,
}

/// The distinct `(X, c)` (`X + c`) that a live slot's incoming values
/// bring, for [`Aliases`].
#[derive(Clone, Default)]
enum SitePairs {
    /// Not computed since a value changed.
    #[default]
    Stale,
    /// A value is no `X + c`, or two bring one `X` with different
    /// constants: the site is itself at every depth.
    Own,
    Pairs(Box<[(Sym, i64)]>),
}

impl Arrivals {
    fn new(cfg: &Cfg, b: BlockId) -> Arrivals {
        let mut preds: Vec<u32> = Vec::new();
        for (p, _) in cfg.predecessors(b) {
            if !preds.contains(&p.0) {
                preds.push(p.0);
            }
        }
        Arrivals {
            got: vec![false; preds.len()],
            preds,
            vals: Vec::new(),
            pairs: Default::default(),
        }
    }

    /// Notes the values along an edge from `from` (`along` of each of
    /// `live`, the block's live slots).
    fn arrive<'v>(&mut self, from: u32, live: &[u32], along: impl Fn(u32) -> &'v Value) {
        let Some(j) = self.preds.iter().position(|&p| p == from) else {
            return;
        };
        let n = live.len();
        if self.vals.is_empty() {
            self.vals = vec![Value::Undef; n * self.preds.len()];
        }
        let pairs = self.pairs.get_mut();
        if pairs.len() != n {
            *pairs = vec![SitePairs::Stale; n];
        }
        if !std::mem::replace(&mut self.got[j], true) {
            pairs.iter_mut().for_each(|p| *p = SitePairs::Stale);
        }
        let row = &mut self.vals[j * n..(j + 1) * n];
        for ((w, &sl), p) in row.iter_mut().zip(live).zip(pairs.iter_mut()) {
            let v = along(sl);
            if !shared(w, v) {
                *w = v.clone();
                *p = SitePairs::Stale;
            }
        }
    }

    /// Live slot `k`'s [`SitePairs`], computed when stale.
    fn pairs(&self, k: usize) -> SitePairs {
        if let Some(p) = self.pairs.borrow().get(k) {
            if !matches!(p, SitePairs::Stale) {
                return p.clone();
            }
        }
        let mut found: Vec<(Sym, i64)> = Vec::new();
        let mut own = false;
        for (_, v) in self.seen(k) {
            let Some((x, c)) = sym_plus_const(v) else {
                own = true;
                break;
            };
            match found.iter().find(|p| p.0 == x) {
                // the same `X + c` again: the same result
                Some(p) if p.1 == c => {}
                // one `X` with two constants: `X + c` and `X + c'` never agree
                Some(_) => {
                    own = true;
                    break;
                }
                None => found.push((x, c)),
            }
        }
        let p = match own {
            true => SitePairs::Own,
            false => SitePairs::Pairs(found.into_boxed_slice()),
        };
        if let Some(slot) = self.pairs.borrow_mut().get_mut(k) {
            *slot = p.clone();
        }
        p
    }

    /// The values live slot `k` received, with the predecessor each came
    /// from (in predecessor order: every reader's result is the same in
    /// any order).
    fn seen(&self, k: usize) -> impl Iterator<Item = (u32, &Value)> + '_ {
        let n = self.vals.len() / self.preds.len().max(1);
        self.preds
            .iter()
            .zip(&self.got)
            .enumerate()
            .filter(|(_, (_, &got))| got)
            .filter_map(move |(j, (&p, _))| Some((p, self.vals.get(j * n + k)?)))
    }
}

/// What a loop header's slot receives along one incoming edge, for
/// [`lockstep_ranges`].
#[derive(Clone, Copy, Debug, PartialEq)]
enum Incoming {
    /// A constant.
    Const(i64),
    /// `s + c` for the opaque symbol `s` (an edge refinement's fresh symbol
    /// read as the symbol it narrows), with the value's bounds when known.
    Step(Sym, i64, Option<(i128, i128)>),
}

/// Where a symbol stands for another one plus a constant, by symbol: an
/// edge refinement's fresh symbol is the symbol it narrows, and the join
/// site of a block entry that is not a loop header, whose every incoming
/// edge brings the same `X + c` in the latest round, is `X + c` there.
struct Aliases<'a> {
    /// What each opaque symbol (by index) stands for.
    of: Vec<AliasOf>,
    incoming: &'a [Arrivals],
    /// [`Aliases::resolve`]'s results by (symbol, depth left). A site's
    /// incoming edges branch the search, and a chain of sites inside a
    /// loop nest reaches the same sites along many paths: without the
    /// memo the search is exponential in the depth (every path of up to
    /// 16 edges); with it, each (symbol, depth) is resolved once per
    /// derivation. `resolve` is a function of its arguments while the
    /// aliases stand, so the results are the same.
    memo: std::cell::RefCell<AliasMemo>,
}

/// What an opaque symbol stands for, in [`Aliases`].
#[derive(Clone, Copy)]
enum AliasOf {
    /// Itself.
    Own,
    /// An edge refinement's fresh symbol: the symbol it narrows.
    Narrowed(Sym),
    /// The join site of a block entry (not a loop header): the block and
    /// the slot's index among the block's live slots.
    Site(u32, u32),
}

/// The depths [`Aliases::resolve`] is called with (at most).
const ALIAS_DEPTH: usize = 16;

/// [`Aliases::memo`]: per join site met, the distinct `(X, c)` its
/// incoming values bring (`None`: one brings no `X + c`, or two bring one
/// `X` with different constants: the site is itself at every depth) and
/// its result at each depth.
#[derive(Default)]
struct AliasMemo {
    /// Site symbol index -> index in `nodes` ([`NO_SITE`]: not met yet).
    node: Vec<u32>,
    nodes: Vec<AliasNode>,
    /// The nodes' `(X, c)` lists, end to end.
    pairs: Vec<(Sym, i64)>,
}

struct AliasNode {
    /// The node's range of `pairs`, or `None` (see [`AliasMemo`]).
    pairs: Option<(u32, u32)>,
    res: [Option<(Sym, i64)>; ALIAS_DEPTH + 1],
}

impl Aliases<'_> {
    /// `(X, c)` with `s = X + c` after following the aliases.
    fn resolve(&self, s: Sym, depth: u32) -> (Sym, i64) {
        let Sym::Opaque(id) = s else { return (s, 0) };
        if depth == 0 {
            return (s, 0);
        }
        match self.of.get(id as usize).copied().unwrap_or(AliasOf::Own) {
            AliasOf::Own => (s, 0),
            AliasOf::Narrowed(t) => self.resolve(t, depth - 1),
            AliasOf::Site(b, k) => {
                let d = depth as usize;
                let n = self.site_node(id, b, k);
                if d <= ALIAS_DEPTH {
                    if let Some(r) = self.memo.borrow().nodes[n].res[d] {
                        return r;
                    }
                }
                let r = self.resolve_site(s, n, depth);
                if d <= ALIAS_DEPTH {
                    self.memo.borrow_mut().nodes[n].res[d] = Some(r);
                }
                r
            }
        }
    }

    /// The memo's node of site `id` (block `b`, live slot index `k`),
    /// made with its `(X, c)` list on first use.
    fn site_node(&self, id: u32, b: u32, k: u32) -> usize {
        let mut memo = self.memo.borrow_mut();
        let memo = &mut *memo;
        if memo.node.len() <= id as usize {
            memo.node.resize(id as usize + 1, NO_SITE);
        }
        if memo.node[id as usize] != NO_SITE {
            return memo.node[id as usize] as usize;
        }
        let start = memo.pairs.len();
        let found = match self.incoming.get(b as usize) {
            Some(a) => a.pairs(k as usize),
            None => SitePairs::Pairs(Box::new([])),
        };
        let pairs = match found {
            SitePairs::Pairs(ps) => {
                memo.pairs.extend_from_slice(&ps);
                Some((start as u32, memo.pairs.len() as u32))
            }
            _ => None,
        };
        memo.nodes.push(AliasNode {
            pairs,
            res: [None; ALIAS_DEPTH + 1],
        });
        memo.node[id as usize] = (memo.nodes.len() - 1) as u32;
        memo.nodes.len() - 1
    }

    /// [`Aliases::resolve`] of join site `s` (memo node `n`), `depth > 0`:
    /// `X + c` when every incoming value resolves to it, else `s` itself.
    /// The distinct incoming `(X, c)` stand for the values: equal values
    /// resolve alike, and any value that is no `X + c` makes it `s`.
    fn resolve_site(&self, s: Sym, n: usize, depth: u32) -> (Sym, i64) {
        let Some((from, to)) = self.memo.borrow().nodes[n].pairs else {
            return (s, 0);
        };
        let mut all: Option<(Sym, i64)> = None;
        for i in from..to {
            let (x, c) = self.memo.borrow().pairs[i as usize];
            let (x, c2) = self.resolve(x, depth - 1);
            let r = (x, c.wrapping_add(c2));
            if x == s || all.is_some_and(|a| a != r) {
                return (s, 0);
            }
            all = Some(r);
        }
        all.unwrap_or((s, 0))
    }
}

/// `s + c` for a uniform polynomial over one opaque symbol with
/// coefficient 1.
fn sym_plus_const(v: &Value) -> Option<(Sym, i64)> {
    let p = v.as_poly()?;
    if !p.is_uniform() {
        return None;
    }
    let mut sym = None;
    let mut c0 = 0i64;
    for (m, k) in p.terms() {
        match (m.syms(), k.at(0)) {
            ([], c) => c0 = c,
            ([s @ Sym::Opaque(_)], 1) if sym.is_none() => sym = Some(*s),
            _ => return None,
        }
    }
    Some((sym?, c0))
}

/// The shape of a value arriving at a loop header ([`Incoming`]).
fn incoming_shape(v: &Value, eng: &Engine<'_, '_>, al: &Aliases<'_>) -> Option<Incoming> {
    let p = v.as_poly()?;
    if !p.is_uniform() {
        return None;
    }
    if let Some(c) = p.as_const() {
        return Some(Incoming::Const(c));
    }
    let (s, c0) = sym_plus_const(v)?;
    let (x, c1) = al.resolve(s, 16);
    Some(Incoming::Step(
        x,
        c0.checked_add(c1)?,
        eng.facts.uniform_range(p),
    ))
}

/// A counter at a loop header: the slot's value is the header's opaque
/// symbol `s`, every incoming edge brings either the constant `init` (the
/// edges in `resets`) or `s + step`.
struct Counter {
    s: Sym,
    init: i64,
    step: i64,
    resets: Vec<u32>,
    /// Bounds of the value each stepping edge brings (`None`: unknown).
    stepped: Vec<Option<(i128, i128)>>,
}

/// Ranges of loop counters that move in lockstep with a bounded one (see
/// *Counters in lockstep* in the module doc), recorded in
/// `SymFacts::iv_range`; true when a range changed. A range only grows
/// (hull over the rounds); a counter that had one and loses its
/// derivation keeps none for good (`dead`), so each site's range changes
/// finitely often.
fn lockstep_ranges(
    eng: &mut Engine<'_, '_>,
    entry: &[Option<(Vec<Value>, u32)>],
    live: &[Vec<u32>],
    live_at: &[u32],
    header: &[bool],
    incoming: &[Arrivals],
    dead: &mut Vec<bool>,
) -> bool {
    let mut changed = false;
    let mut of = vec![AliasOf::Own; eng.facts.opaque.len()];
    for (b, slots) in live.iter().enumerate() {
        if header.get(b).copied().unwrap_or(true) {
            continue;
        }
        let at = live_at.get(b).copied().unwrap_or(0) as usize;
        for k in 0..slots.len() {
            match eng.entry_sites.get(at + k) {
                Some(&id) if id != NO_SITE => {
                    if of.len() <= id as usize {
                        of.resize(id as usize + 1, AliasOf::Own);
                    }
                    of[id as usize] = AliasOf::Site(b as u32, k as u32);
                }
                _ => {}
            }
        }
    }
    // A refinement's fresh symbol is read as the symbol it narrows first.
    for (&id, &t) in &eng.narrowed {
        if of.len() <= id as usize {
            of.resize(id as usize + 1, AliasOf::Own);
        }
        of[id as usize] = AliasOf::Narrowed(t);
    }
    // The stepping edges' bounds are read without the derived ranges, so
    // that two counters do not justify each other's growth.
    let mut derived = std::mem::take(&mut eng.facts.iv_range);
    let al = Aliases {
        of,
        incoming,
        memo: Default::default(),
    };
    for (h, _) in header.iter().enumerate().filter(|(_, &is)| is) {
        let Some((vals, _)) = &entry[h] else { continue };
        let mut counters: Vec<Counter> = Vec::new();
        for (slot_k, v) in vals.iter().enumerate() {
            let Some(p) = v.as_poly() else { continue };
            let [(m, k)] = p.terms() else { continue };
            let ([s @ Sym::Opaque(_)], 1) = (m.syms(), k.at(0)) else {
                continue;
            };
            let Some(arrived) = incoming.get(h) else {
                continue;
            };
            let seen = arrived.seen(slot_k);
            let (mut init, mut step) = (None, None);
            let mut resets = Vec::new();
            let mut stepped = Vec::new();
            let mut ok = true;
            for (from, val) in seen {
                match incoming_shape(val, eng, &al) {
                    Some(Incoming::Const(c)) if init.is_none_or(|i| i == c) => {
                        init = Some(c);
                        resets.push(from);
                    }
                    Some(Incoming::Step(t, c, r))
                        if t == *s && c != 0 && step.is_none_or(|x| x == c) =>
                    {
                        step = Some(c);
                        stepped.push(r);
                    }
                    _ => ok = false,
                }
            }
            if let (true, Some(init), Some(step)) = (ok, init, step) {
                resets.sort_unstable();
                counters.push(Counter {
                    s: *s,
                    init,
                    step,
                    resets,
                    stepped,
                });
            }
        }
        // Arrivals since the last reset a counter allows: with `t = init +
        // step * k` on the k-th arrival, each stepping edge's bounds on `t`
        // bound `k`.
        let arrivals = |c: &Counter| -> Option<i128> {
            let mut kmax: i128 = 0;
            for r in &c.stepped {
                let (lo, hi) = (*r)?;
                let k = if c.step > 0 {
                    (hi - c.init as i128).div_euclid(c.step as i128)
                } else {
                    (c.init as i128 - lo).div_euclid(-(c.step as i128))
                };
                kmax = kmax.max(k);
            }
            Some(kmax)
        };
        for (i, c) in counters.iter().enumerate() {
            let Sym::Opaque(id) = c.s else { continue };
            let id = id as usize;
            if dead.get(id).copied().unwrap_or(false) {
                continue;
            }
            let kmax = counters
                .iter()
                .enumerate()
                .filter(|(j, d)| *j != i && d.resets == c.resets)
                .filter_map(|(_, d)| arrivals(d))
                .min();
            let range = kmax.and_then(|k| {
                let last = c.init as i128 + c.step as i128 * k;
                let (lo, hi) = (last.min(c.init as i128), last.max(c.init as i128));
                Some((i64::try_from(lo).ok()?, i64::try_from(hi).ok()?))
            });
            if derived.len() <= id {
                derived.resize(id + 1, None);
            }
            let prev = derived[id];
            let new = match (range, prev) {
                // Widened where it grows (down to 0, up to the next `2^(4k)
                // - 1`, as joins do), so it moves a bounded number of times.
                (Some((lo, hi)), Some((a, b))) => Some((
                    if lo < a { 0 } else { a },
                    if hi > b {
                        super::domain::widen_hi(hi)
                    } else {
                        b
                    },
                )),
                (Some(r), None) => Some(r),
                (None, None) => None,
                (None, Some(_)) => {
                    if dead.len() <= id {
                        dead.resize(id + 1, false);
                    }
                    dead[id] = true;
                    None
                }
            };
            if new != prev {
                derived[id] = new;
                changed = true;
            }
        }
    }
    eng.facts.iv_range = derived;
    changed
}

/// Equal values, shared ones recognised without comparing their contents.
#[inline(always)]
fn same(a: &Value, b: &Value) -> bool {
    shared(a, b) || a == b
}

/// The same value: one shared polynomial or range, or an equal value of
/// another kind (no contents compared). Implies [`same`].
#[inline(always)]
fn shared(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Poly(x), Value::Poly(y)) => std::rc::Rc::ptr_eq(x, y),
        (Value::Range(x), Value::Range(y)) => std::rc::Rc::ptr_eq(x, y),
        (Value::Poly(_) | Value::Range(_), _) | (_, Value::Poly(_) | Value::Range(_)) => false,
        _ => a == b,
    }
}

/// For every block, the slots live at its entry, ascending: read on some
/// path from the entry before any write. A read is what the transfer reads
/// ([`ssa::op_reads`]: operands, guard, a memory op's further operands) and,
/// for a guarded write, the register it writes (the lanes where the guard
/// is off keep the old value). Slots of registers outside the computed set
/// are never live.
fn live_slots(low: &Lowered<'_>, cfg: &Cfg, slot: &[u32], nslots: usize) -> Vec<Vec<u32>> {
    let words = nslots.div_ceil(64);
    let nblocks = cfg.blocks().len();
    let set = |bits: &mut [u64], r: u32| {
        if let Some(&s) = slot.get(r as usize) {
            if s != NO_SLOT {
                bits[s as usize / 64] |= 1 << (s % 64);
            }
        }
    };
    // upward-exposed reads and writes of each block
    let mut uses = vec![0u64; nblocks * words];
    let mut defs = vec![0u64; nblocks * words];
    for (bi, blk) in cfg.blocks().iter().enumerate() {
        let (u, d) = (
            &mut uses[bi * words..(bi + 1) * words],
            &mut defs[bi * words..(bi + 1) * words],
        );
        for s in blk.stmts.clone() {
            let Some(op) = low.ops.get(s as usize) else {
                continue;
            };
            let mut read = |r: u32| {
                if let Some(&sl) = slot.get(r as usize) {
                    if sl != NO_SLOT && d[sl as usize / 64] & (1 << (sl % 64)) == 0 {
                        u[sl as usize / 64] |= 1 << (sl % 64);
                    }
                }
            };
            ssa::op_reads(op, &mut read);
            if op.guard.is_some() {
                ssa::op_writes(op, &mut read);
            }
            ssa::op_writes(op, |r| set(d, r));
        }
    }
    // live-in = uses | (live-out & !defs), backwards until stable
    let mut live = uses.clone();
    let post: Vec<BlockId> = cfg.reverse_post_order().iter().rev().copied().collect();
    let mut out = vec![0u64; words];
    loop {
        let mut changed = false;
        for &b in &post {
            let bi = b.index();
            out.iter_mut().for_each(|w| *w = 0);
            for (succ, _) in cfg.successors(b) {
                let si = succ.index();
                for (o, l) in out.iter_mut().zip(&live[si * words..(si + 1) * words]) {
                    *o |= l;
                }
            }
            for k in 0..words {
                let w = uses[bi * words + k] | (out[k] & !defs[bi * words + k]);
                if w != live[bi * words + k] {
                    live[bi * words + k] = w;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    (0..nblocks)
        .map(|bi| {
            let mut v = Vec::new();
            for k in 0..words {
                let mut w = live[bi * words + k];
                while w != 0 {
                    v.push((k * 64) as u32 + w.trailing_zeros());
                    w &= w - 1;
                }
            }
            v
        })
        .collect()
}

/// The value given for the field at byte `offset` of by-value parameter `p`.
pub(crate) fn field_value(fields: &[(u16, i64, i64)], p: u16, offset: i64) -> Option<i64> {
    fields
        .iter()
        .find(|&&(q, o, _)| q == p && o == offset)
        .map(|&(_, _, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dirty blocks (a change of a symbol's facts dirties only the
    /// blocks reachable from its home and their predecessors) give what
    /// applying every block in every round gives, on every kernel of the
    /// committed corpus, and with a launch configuration (so that the
    /// per-warp runs and their focus run too).
    #[test]
    fn dirty_blocks_give_what_every_block_gives() {
        use std::sync::atomic::Ordering;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
        let mut files = Vec::new();
        let mut dirs = vec![root];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).expect("tests/corpus").flatten() {
                let p = e.path();
                if p.is_dir() {
                    if !p.ends_with("invalid") {
                        dirs.push(p);
                    }
                } else if p.extension().is_some_and(|x| x == "ptx") {
                    files.push(p);
                }
            }
        }
        files.sort();
        assert!(files.len() > 50, "{} files", files.len());
        let launched = crate::analysis::Options {
            launch: crate::analysis::LaunchConfig {
                block: Some([256, 1, 1]),
                ..Default::default()
            },
            ..Default::default()
        };
        let mut kernels = 0;
        for p in &files {
            let text = std::fs::read_to_string(p).expect("read");
            let file = crate::source::SourceFile::from_text(p.to_string_lossy().into_owned(), text);
            for opts in [&crate::analysis::Options::default(), &launched] {
                EVERY_BLOCK.store(false, Ordering::Relaxed);
                let dirty = crate::analyze(&file, opts);
                EVERY_BLOCK.store(true, Ordering::Relaxed);
                let every = crate::analyze(&file, opts);
                EVERY_BLOCK.store(false, Ordering::Relaxed);
                assert!(dirty == every, "{} differs", p.display());
                kernels += dirty.kernels.len();
            }
        }
        assert!(kernels > 100, "{kernels} kernels");
    }

    /// The alias search as it was before its memo: every path followed.
    fn resolve_by_every_path(al: &Aliases<'_>, s: Sym, depth: u32) -> (Sym, i64) {
        let Sym::Opaque(id) = s else { return (s, 0) };
        if depth == 0 {
            return (s, 0);
        }
        match al.of.get(id as usize).copied().unwrap_or(AliasOf::Own) {
            AliasOf::Own => (s, 0),
            AliasOf::Narrowed(t) => resolve_by_every_path(al, t, depth - 1),
            AliasOf::Site(b, k) => {
                let mut all: Option<(Sym, i64)> = None;
                for (_, v) in al.incoming[b as usize].seen(k as usize) {
                    let Some((x, c)) = sym_plus_const(v) else {
                        return (s, 0);
                    };
                    let (x, c2) = resolve_by_every_path(al, x, depth - 1);
                    let r = (x, c.wrapping_add(c2));
                    if x == s || all.is_some_and(|a| a != r) {
                        return (s, 0);
                    }
                    all = Some(r);
                }
                all.unwrap_or((s, 0))
            }
        }
    }

    #[test]
    fn memoised_alias_search_agrees_with_every_path() {
        // Random alias graphs: opaque symbols 0..N, each a join site (its
        // block is its index, one live slot), a narrowed symbol or itself;
        // a site's predecessors bring `X + c` (X among N + 4 symbols, c in
        // -2..=2, often repeated) or a value that is no `X + c`.
        const N: u32 = 12;
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % m
        };
        let x_plus =
            |x: u32, c: i64| Value::poly(Poly::sym(Sym::Opaque(x)).add(&Poly::constant(c)));
        let mut compared = 0;
        let mut resolved = 0;
        for _ in 0..200 {
            let mut of = Vec::new();
            let mut incoming = Vec::new();
            for id in 0..N {
                of.push(match next(6) {
                    0 => AliasOf::Own,
                    1 => AliasOf::Narrowed(Sym::Opaque(next(N as u64 + 4) as u32)),
                    _ => AliasOf::Site(id, 0),
                });
                let m = 1 + next(4) as usize;
                let vals: Vec<Value> = (0..m)
                    .map(|_| match next(10) {
                        0 => Value::Varying { data: false },
                        1..=4 => x_plus(next(3) as u32, next(2) as i64),
                        _ => x_plus(next(N as u64 + 4) as u32, next(5) as i64 - 2),
                    })
                    .collect();
                incoming.push(Arrivals {
                    preds: (0..m as u32).collect(),
                    got: vec![true; m],
                    vals,
                    pairs: std::cell::RefCell::new(vec![SitePairs::Stale]),
                });
            }
            for round in 0..2 {
                let al = Aliases {
                    of: of.clone(),
                    incoming: &incoming,
                    memo: Default::default(),
                };
                for id in 0..N + 2 {
                    for depth in [7, 1, 4, 6, 0, 2] {
                        let s = Sym::Opaque(id);
                        let want = resolve_by_every_path(&al, s, depth);
                        assert_eq!(al.resolve(s, depth), want, "{id} at depth {depth}");
                        compared += 1;
                        resolved += usize::from(want.0 != s);
                    }
                }
                if round == 0 {
                    // new values along some edges: the kept lists go stale
                    for a in incoming.iter_mut() {
                        let v = x_plus(next(3) as u32, next(2) as i64);
                        let from = next(a.preds.len() as u64) as u32;
                        a.arrive(from, &[0], |_| &v);
                    }
                }
            }
        }
        assert_eq!(compared, 200 * 2 * (N as usize + 2) * 6);
        // the graphs do resolve symbols to others, not only to themselves
        assert!(resolved > compared / 20, "{resolved} of {compared}");
    }

    fn ty(t: &str) -> Ty {
        Ty::parse(t).unwrap()
    }

    #[test]
    fn bounds_on_a_reading_become_bounds_on_the_value() {
        // `slot < 0` false, s64, bounds unknown: slot >= 0.
        assert_eq!(
            reading_bounds(ty("s64"), None, Some(0), None),
            Some((Some(0), None))
        );
        // A u32 value in [0, 2^32 - 1] compared as s32 reads negative above
        // 2^31 - 1: nothing follows.
        let u32_range = Some((0, (1i128 << 32) - 1));
        assert_eq!(reading_bounds(ty("s32"), u32_range, Some(0), None), None);
        // ... compared as u32 it reads itself.
        assert_eq!(
            reading_bounds(ty("u32"), u32_range, None, Some(15)),
            Some((None, Some(15)))
        );
        // `i <u 16` with `i` of unknown sign: a negative `i` reads at least
        // 2^31, so the lanes that pass hold 0..15.
        assert_eq!(
            reading_bounds(ty("u32"), None, None, Some(15)),
            Some((Some(0), Some(15)))
        );
        // `i >=u 16` says nothing about a value that may be negative.
        assert_eq!(reading_bounds(ty("u32"), None, Some(16), None), None);
        // ... unless its bounds are known non-negative.
        assert_eq!(
            reading_bounds(ty("u32"), Some((0, 100)), Some(16), None),
            Some((Some(16), None))
        );
    }

    #[test]
    fn comparisons_negate_and_swap() {
        for c in [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge] {
            assert_eq!(negate(negate(c)), c);
            assert_eq!(swap(swap(c)), c);
        }
        assert_eq!(negate(Cmp::Lt), Cmp::Ge);
        assert_eq!(swap(Cmp::Lt), Cmp::Gt);
    }
}
