//! Whole-launch totals: a warp-level simulation of the launch with concrete
//! thread indices, block indices and parameters.
//!
//! # Why simulate
//!
//! Per-request costs of a representative warp (the dataflow) do not give the
//! launch's totals: a guard `if (i < n)` leaves the last warp partial, a
//! grid-stride loop runs a different number of iterations in different warps,
//! and `(i % 17) * 64` has a different shape in every warp. When the grid,
//! the block and every parameter the control flow depends on are known, the
//! simulation runs every warp of the grid (or, above a work budget, the grid's
//! edge blocks — the first, and the last in each dimension, where tails and
//! partial tiles are — exactly and an evenly spread sample of the interior,
//! scaled alone, and says so) and counts, per memory instruction,
//! requests, active lanes, L1 lines and sectors exactly as Nsight Compute
//! does per SASS instruction.
//!
//! # The machine
//!
//! Each warp has 32 lanes with an integer register file in which every lane's
//! value is either known (a 64-bit integer in canonical form, see
//! `transfer::eval_scalar`) or unknown, and unknown values remember whether
//! they came from memory (data). A float register holds its bit pattern, and
//! the float instructions whose result the PTX ISA defines exactly (IEEE
//! `f32`/`f64` arithmetic in every rounding mode, conversions, ordered and
//! unordered comparisons, `testp`) are evaluated exactly per lane
//! ([`super::float`]), so an index computed through floats
//! (`(int)(rw * (ow + 0.5f) - 0.5f)`) and a branch on floats (`powf`'s
//! special cases) are known where their inputs are; approximate instructions (`div.approx`,
//! `div.full`, `rcp.approx`, `ex2`, `lg2`, `sin`, `cos`, `rsqrt`), whose
//! results the ISA bounds but does not define, a NaN result, and an `add`
//! that ptxas may fuse with a `mul` into an `fma` give unknown values.
//! An ALU op whose lanes run unguarded and whose result the tag rules do
//! not name (the common case) runs lane-parallel (`alu_lanes`): operands
//! read in place, computed once when every running lane has the same
//! operands, the integer operations of address arithmetic written out per
//! operation (`eval_lanes`), the per-lane rule otherwise; it gives what
//! the per-lane loop gives.
//! Loads return unknown data, except `ld.param`,
//! whose value is given or, for a pointer parameter that is not given, a
//! synthetic base address aligned to 2^32 (far more than `pointer_align`),
//! and a `.local` load of what the same lane stored at that address
//! ([`local`]: a struct by value copied to a depot and read back at
//! `8 * ctaid.x`).
//! Divergence follows the hardware's convergence barriers
//! ([`super::reconverge`]): when a branch splits the warp, its paths run one
//! after the other (the one first in the code layout first) and meet again at
//! the branch's immediate post-dominator, where they run on as one request
//! (after an `if`, and after a loop whose lanes leave at different
//! iterations, such as a lane-0 copy followed by an mbarrier wait loop).
//!
//! ptxas predicates a short guarded block instead of branching around it
//! (if-conversion): when every lane of a warp skips such a block (`ifconvert`'s
//! rule, probed in `tests/hw/ifconv`), its
//! memory instructions still issue once each with no lane, as they do on the
//! H100 (`tests/hw/blind`: `cub_block_reduce`, `stencil2d_smem`, …; and the
//! `tid == 0` guard of `cp.async.bulk.prefetch.L2` in `tests/hw/modern.cu`).
//! ptxas unrolls a small counted loop by 4 with a remainder of 2 copies,
//! then 1 (`super::unroll`, probed in `tests/hw/unroll_probes`): when a
//! warp enters such a loop with every lane's trip count known and not all
//! equal, the simulation runs the body once per pass of the unrolled code
//! (the 4-copy loop's copies, the 2-copy block, the last copy), each with
//! the lanes that run it, each lane at its own trip, and the lanes leave
//! together by the back edge's fall-through; a warp whose lanes take 4 and
//! 3 trips issues 7 requests (`tests/hw/blind10` `swa_softmax_w100`).
//!
//! A block holding an instruction that ptxas expands with a call to a
//! slow-path subroutine (IEEE `div`, `rcp`, `sqrt` on `f32`/`f64`, 64-bit
//! integer `div`/`rem`) keeps its branch (`tests/hw/blind4`:
//! `fused_add_rmsnorm_bf16`'s `if (threadIdx.x == 0) s = rsqrtf(v / n + e);`
//! is `@P0 BRA` over a `CALL.REL.NOINC`, the `STS` issued by warp 0 only).
//!
//! A request is one instruction executed by a warp with at least one lane
//! whose guard is true (a PTX bulk copy, `cp.async.bulk*`, is one request
//! per executing lane: each lane's copy is issued on its own). Its cost is `cost::request_cost` over the lanes with
//! known addresses plus, for each lane whose address depends on loaded data,
//! one element's sectors (the expected value for random addresses over a large
//! array; the bounds are kept separately). A loaded value of 32 bits or more
//! is named by the request and the address it was read from
//! ([`tagged`]): lanes that read one address share it, and the integer
//! arithmetic that builds an address keeps it as `mul · T + offset`, so a
//! gather whose lanes share a loaded row index (`A + idx[t >> 4] * 256 +
//! (t & 15) * 16`) is costed as its rows, each at its exact lane offsets,
//! instead of as 32 independent lanes. When the static analysis proved a
//! shape for the instruction's addresses ([`LaneShape`]: exact lane offsets
//! over a uniform unknown, such as a base loaded from a warp-uniform address,
//! lanes drawn from a known range, such as `hist[b & 255]`, or the rows of a
//! 2-D block at a pitch that is a parameter not given, each row exact), a request
//! with unknown addresses takes that shape's figures for its active lanes
//! instead (mean and bounds over the alignments, or the expectation of
//! `cost::ranged_random_cost`, or `cost::classed_cost` for lanes that share
//! draws; for shared memory, and for the shared side of a `cp.async` whose
//! sources the simulation does not know, the expected wavefronts of the
//! per-request rules over draws of the lanes' addresses,
//! `cost::ranged_samples`). Cross-lane instructions (`shfl.sync`,
//! `vote`, `activemask`, `redux.sync`, `match.{any,all}.sync` — the mask of
//! the executing lanes with an equal key — and `elect.sync`, whose leader is
//! the lowest executing lane of its member mask) are evaluated over the
//! warp's lanes; a vote, reduction or match of which some executing lane's
//! operand is loaded data gives data in every lane, so that a branch on it
//! takes the rules for loaded data below (`cg::labeled_partition`'s
//! `match.any` of a loaded key).
//!
//! Distributed shared memory: `%cluster_ctarank` is the CTA's linear rank
//! in the cluster shape the kernel declares (`.reqnctapercluster`), and
//! `mapa.u64` places its target rank above a synthetic window bit, so an
//! access through it (`Space::SharedCluster`) knows each lane's target
//! CTA: the lanes in the own CTA's window cost the own-CTA wavefront rules,
//! the others none (another CTA's memory, measured at 0 wavefronts), and
//! none has L1/L2 sectors. `mapa.u32` (the 32-bit `shared::cluster`
//! form, `st.async` / `red.async` into a peer CTA: `tests/hw/blind8`
//! `st_async_peer`, 0 wavefronts measured) places the rank below the sign
//! bit (`CLUSTER_WINDOW_SHIFT32`). Without the cluster shape the target
//! is not known and the wavefronts are not modelled.
//!
//! The kernel totals use the kernel-level counters' rules: a reduction (`red`,
//! or an `atom` whose result is never read, which ptxas turns into `RED`)
//! counts, per sector, the largest number of lanes on one of its addresses
//! (same-address lanes are not merged: 32 for a per-warp counter), while an
//! `atom` whose result is used is counted like a load (ptxas aggregates
//! same-address lanes into one). Both rules were read off the H100
//! measurement (`tests/hw/measured.json`: `atomic_add_f32`, `red_asm_f32`,
//! `atom_ret_u32`, `atomic_inc_same_u32`).
//!
//! # Branches the simulation cannot decide
//!
//! A branch whose guard the simulation does not know in some lanes (a
//! parameter that was not given, or loaded data: `if (slot < 0) return;`,
//! `if (keep) out[pos] = v`) is handled in the cheapest way that keeps the
//! warp's memory behaviour (the last one for loaded data only: a parameter
//! the user can give stops the simulation with its name instead). The
//! result of an instruction the simulation does not evaluate
//! (`OpKind::Other`: `lg2.approx`, `f16` arithmetic; an ALU op whose
//! evaluation gives nothing: a contractible `f64` add, a NaN) on operands
//! it knows, or of which one is loaded data, is run-time data too: only a
//! parameter that was not given leaves a value unknown for good:
//!
//! - a forward branch over straight-line code without memory accesses (a
//!   division's guard, a clamp) is stepped over with what that code writes
//!   unknown, since the warp's memory behaviour is the same either way;
//! - a branch over a block that ptxas predicates (the if-conversion above;
//!   a compare-and-swap on loaded keys) is run by every lane, the unknown
//!   ones without knowing whether it takes effect: inside the block they
//!   compute exactly, so its accesses count them at their addresses as
//!   uncertain lanes (a histogram flush's `if (c) atomicAdd(&bins[..], c)`
//!   keeps its bank conflicts), and what the block writes is unknown in them
//!   after it;
//! - any other forward branch (forward in the CFG's reverse post-order,
//!   whatever the layout: a jump from a loop's body to a latch that LLVM
//!   laid out above the header is forward, `reconverge`, "Which way a
//!   branch goes") is **followed both ways**: the lanes whose way
//!   is unknown go down both paths as *uncertain* lanes. On each path they
//!   compute exactly (an address computed after the branch stays known);
//!   an access counts them at their addresses, as if they take part, and
//!   the lower bounds leave them out; where the paths meet again, every
//!   register an uncertain lane wrote on either path is unknown in it. An
//!   exit whose guard is unknown likewise leaves its lanes running on as
//!   uncertain lanes, and a plain access whose own guard is unknown counts
//!   those lanes as uncertain. Lanes whose own guard (or their predicated
//!   block's) is unknown at an access whose addresses are all known are
//!   costed at the expectation over the sets of them that take part, each
//!   with probability 1/2 (`cost::participation_masks`: the predicated
//!   request issues whichever take part); lanes on a path followed both
//!   ways count as taking part, since their warp issues the path's
//!   requests only when some lane takes it, and a predicate that is the
//!   same in every lane (a loaded flag) sends them all. A request is counted when any lane, certain or not,
//!   runs the instruction, so request counts are an upper bound there; the
//!   kernel says so (`Caveat::BranchesBothWays`). With random data this is
//!   what the hardware does too: a warp whose 32 lanes test loaded values
//!   nearly always sends some lanes each way, so both paths issue.
//!
//! # Loops on loaded data
//!
//! A loop whose exit depends on loaded data (`for (j = row_ptr[r]; j <
//! row_ptr[r + 1]; ++j)`, a bag of offsets, a block table's length, a work
//! counter) runs a number of times the PTX does not determine. The
//! simulation finds one at its back edge: a backward branch (a retreating
//! edge of the CFG, `reconverge`, "Which way a branch goes", not a jump up
//! in the layout) whose guard is loaded data in some lane, or a path of
//! uncertain lanes (a split on loaded data at the loop's test) that jumps
//! back to or above that test (in the reverse post-order) before the paths
//! met, to a block other than where they meet: a split inside the body
//! whose arms meet at the latch is divergence within one trip, whichever
//! way the layout places the latch. The splits of a path are its frame's
//! earliest and latest ([`Splits`]): a bounded probe loop whose `break` on
//! loaded data sits inside an `if` on loaded data meeting where the loop's
//! exits do goes back above the latest (`tests/hw/blind21`
//! `bpe_merge_rank_probe`), not the earliest. It then steps the path's lanes over
//! the loop, to the fall-through of the back edge or to where the test's
//! paths meet (a block outside the loop), with every register the loop
//! writes unknown data in them ([`SkippedLoop`]). The trip count of the
//! accesses inside the loop (the natural loop of the back edge,
//! `Reconvergence::closed_loop`) is then
//! data-dependent: they get no request count, and the kernel gives no
//! totals, saying why. Their per-request figures are those of the trips
//! the simulation ran before it found the exit on loaded data
//! ([`SimResult::loop_stats`]: each warp's trips of each entry into the
//! loop up to the back edge where it found that exit, with the exits on
//! loaded data inside it followed both ways, so a lane that would have
//! left counts as taking part and the lower bounds leave it out): the
//! per-request figures of an access whose address is affine in the trip
//! counter and the lanes (a warp's contiguous edges `col[start + lane]`,
//! a jagged row, a poll by one lane) are those of every full trip, so that
//! trip gives them; the last partial trip of a row, a row shorter than a
//! warp, or lanes that leave at different trips (an open-addressing probe)
//! hold fewer lanes in the hardware's requests, which only the data decides
//! (`tests/hw/blind8`, `hash_find`: 7.1 lanes a probe; `tests/hw/blind6`
//! `spmv_csr_warp`: 9.4 lines a request measured, 12.3 modelled), so there
//! the figures are an upper bound.
//! Limits: the sample ends at the first back edge at which the exit on
//! loaded data shows (the first trip, in a loop whose bound is loaded), so
//! an access whose per-request figures change from trip to trip with known
//! values (an offset that moves by a stride not a multiple of 128 bytes, a
//! mask that narrows) has those trips' figures only; and the caveat gives
//! no bound on the trip count.
//! Everything before and after the loop is simulated as usual, so an
//! access outside such a loop keeps its exact count (a row's result store
//! after a CSR row loop). This is sound for what it counts: the lanes after
//! the loop are exactly the lanes that reached it (none leaves the kernel
//! inside it unless an exit is there, which the lanes then skip: an upper
//! bound), and what they computed in it is unknown to them.
//!
//! # When it stops
//!
//! The simulation gives up, with the reason, on a branch, exit or access
//! guard that depends on a parameter that was not given (naming it), on a
//! backward branch on loaded data inside a predicated block, on a loop of
//! uncertain lanes whose paths meet nowhere after it, on a copy, matrix or
//! tensor access under an
//! unknown guard, on an indirect branch or a call, and when the
//! work budget is exhausted before a single block has finished
//! ([`DEFAULT_BUDGET`] warp instructions per kernel: under a second in a
//! release build). When the budget runs out later, the block in progress is
//! dropped and the blocks not run are estimated from those that finished
//! ([`sample`]: a spread sample of the interior refined by bisection where
//! the blocks' request counts change; `Totals::blocks_simulated` <
//! `blocks_total`, with a kernel caveat). Before any block runs, the
//! blocks that a block-uniform guard sends to an exit are found
//! ([`exits`]: the guard evaluated for every block of a grid the sampler
//! scans): those that leave with no memory work are counted as empty
//! without running (and as simulated: their figures are exact), those
//! that leave after memory work are a stratum the sampler runs like the
//! edge blocks, so that a triangular grid's sample stands for its working
//! blocks only. Every step is bounded.
//!
//! A value that is neither known nor loaded data carries its origin
//! ([`UnknownOrigin`], one `u32` per register, set as it is written): the
//! op that made it from operands that were all known (an opaque
//! instruction, a parameter not given), or the op that read a register
//! no op had written; an op that reads such a value passes its origin on.
//! A stop on a guard that is not known names that origin, so that the
//! reason points at the instruction that lost the value rather than at the
//! branch. Only SASS input tracks origins (only its stop reasons print
//! them); a PTX run leaves them out of every step.

use super::cost::shared_atomic::{shared_atomic_form_of, SharedAtomicForm};
use super::cost::{
    classify, cost_over_residues, element_sectors, ideal_sectors, request_cost, shared_wavefronts,
    CostRange,
};
use super::domain::{Lanes, WARP};
use super::ifconvert::{memory_free_block, Memo as IfConvMemo};
use super::launch::BlockShape;
use super::model::{AccessOp, Pattern, Space};
use super::reconverge::Reconvergence;
use super::transfer::{compare_checked, eval_scalar, Alu, AluOp};
use crate::ir::{Aux, Function as Lowered, MemKind, MemOp as MemInfo, OpKind, Special, Src};
use std::collections::HashMap;

mod exits;
mod local;
mod sample;
mod tagged;
mod undecided;

pub use undecided::SkippedLoop;
use undecided::{join_dirty, mark_dirty, skip_loop, strip_skipped};

/// Divergent regions open at once, at most (deeper nesting stops the
/// simulation with the reason; no kernel seen needs more than a few).
const MAX_DIVERGENCE: usize = 4096;

/// One divergent path of a warp: its lanes, where they are, and the block
/// where they wait for the other paths of their region (`None`: only at the
/// exit).
struct Frame {
    pc: u32,
    mask: u32,
    rpc: Option<u32>,
    /// Lanes of `mask` that may or may not be on this path: a branch on a
    /// value the simulation does not know sent them down both ways
    /// ([`Split`]).
    maybe: u32,
    /// The lanes whose way this frame's own split left unknown: at the
    /// reconvergence block, what they wrote on this path is set unknown.
    own: u32,
    /// Registers written by `maybe` lanes on this path, with the lanes.
    dirty: Vec<(u32, u32)>,
    /// The earliest and the latest branch (by the place of its block in the
    /// CFG's reverse post-order, `reconverge`; then the op) whose split
    /// made lanes of this frame uncertain: a jump or fall-through back to or
    /// above one of them with those lanes still uncertain, other than to
    /// where they meet, is a loop whose exit the simulation cannot decide
    /// (the latest: a bounded probe loop's `break` on loaded data, inside
    /// an `if` on loaded data whose paths meet where the loop's do).
    split: Option<Splits>,
    /// A loop that ptxas unrolls, run pass by pass (`unroll`): this frame
    /// runs its body once per pass with the pass's lanes, each at its own
    /// trip, and ends after the last pass.
    unroll: Option<Box<Passes>>,
    /// This frame's reconvergence block is where lanes of the paths above
    /// it that bypass a join park (`reconverge`, "Joins before the
    /// post-dominator"): a path frame above it entering that block leaves
    /// its lanes to the frame below this one, which resumes there.
    parks: bool,
}

/// How a divergent branch's paths meet when they may meet before its
/// post-dominator (`reconverge`, "Joins before the post-dominator").
#[derive(Clone, Copy, PartialEq, Eq)]
enum JoinPlan {
    /// The running frame waits at the join (block, first op) with its
    /// lanes, then goes on to its own reconvergence block; `parks`: that
    /// block is the branch's post-dominator, where lanes that bypass the
    /// join park.
    Wait { join: u32, start: u32, parks: bool },
    /// A new region: the running frame waits at the post-dominator (block,
    /// first op), a frame above it at the join, parking the lanes that
    /// bypass the join.
    Region {
        join: u32,
        start: u32,
        post: u32,
        post_start: u32,
    },
    /// No join, but the post-dominator is where a frame below parks lanes:
    /// the paths meet where the running frame would have.
    Shared,
}

/// The [`JoinPlan`] of the divergent branch at `pc` for the stack
/// `stack` (the running frame on top), `None` for the post-dominator
/// alone (and in an unrolled loop's pass).
fn join_plan(stack: &[Frame], recon: &Reconvergence, pc: u32) -> Option<JoinPlan> {
    let (top, below) = stack.split_last()?;
    if top.unroll.is_some() {
        return None;
    }
    let p = recon.point(pc);
    let rpc = p.map(|(b, _)| b);
    let parked = rpc.is_some() && rpc != top.rpc && below.iter().any(|f| f.parks && f.rpc == rpc);
    match (recon.join(pc), p) {
        (Some((join, start)), Some(_)) if rpc == top.rpc => Some(JoinPlan::Wait {
            join,
            start,
            parks: true,
        }),
        (Some((join, start)), Some(_)) if parked => Some(JoinPlan::Wait {
            join,
            start,
            parks: false,
        }),
        (Some((join, start)), Some((post, post_start))) => Some(JoinPlan::Region {
            join,
            start,
            post,
            post_start,
        }),
        (None, _) if parked => Some(JoinPlan::Shared),
        _ => None,
    }
}

/// The passes of an unrolled loop over a warp's lanes (`unroll::next_pass`).
struct Passes {
    /// The label the body starts at.
    head: u32,
    /// The back edge (not run: a pass ends there).
    back: u32,
    /// Each lane's trip count.
    trips: [u64; WARP],
    /// The lanes that entered the loop.
    lanes: u32,
    /// The pass running.
    pass: u64,
}

/// The earliest and the latest branch whose split left lanes uncertain,
/// after a branch at `at` (its place in the reverse post-order, its op)
/// that left the lanes `split` so (`Frame::split`).
fn split_from(prev: Option<Splits>, split: u32, at: (u32, u32)) -> Option<Splits> {
    match (prev, split != 0) {
        (Some(r), true) => Some(Splits {
            first: r.first.min(at),
            last: r.last.max(at),
        }),
        (None, true) => Some(Splits {
            first: at,
            last: at,
        }),
        (r, false) => r,
    }
}

/// The earliest and the latest splitting branch of a frame ([`Frame::split`]),
/// each as (place of its block in the reverse post-order, op).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Splits {
    first: (u32, u32),
    last: (u32, u32),
}

/// Pushes a divergent branch's taken path next to its fall-through path,
/// just pushed: the path first in the code layout runs first (on top).
fn push_taken(stack: &mut Vec<Frame>, taken_first: bool, taken: Frame) {
    if taken_first {
        stack.push(taken);
    } else {
        let fall = stack.pop().expect("just pushed");
        stack.push(taken);
        stack.push(fall);
    }
}

impl Frame {
    /// A path of a divergent branch: its lanes `mask` from `pc` to `rpc`,
    /// uncertain where `maybe`, their way left unknown by this split where
    /// `own`, with the earliest and the latest such split `split`.
    fn path(
        pc: u32,
        mask: u32,
        rpc: Option<u32>,
        (maybe, own, split): (u32, u32, Option<Splits>),
        dirty: Vec<(u32, u32)>,
    ) -> Frame {
        Frame {
            pc,
            mask,
            rpc,
            maybe: maybe & mask,
            own: own & mask,
            dirty,
            split: split.filter(|_| maybe & mask != 0),
            unroll: None,
            parks: false,
        }
    }
    fn new(pc: u32, mask: u32, rpc: Option<u32>) -> Frame {
        Frame {
            pc,
            mask,
            rpc,
            maybe: 0,
            own: 0,
            dirty: Vec::new(),
            split: None,
            unroll: None,
            parks: false,
        }
    }
}

/// When the warp's `lanes` enter the counted loop `l` (`unroll::loops`)
/// with every lane's trip count known and not all equal: the passes ptxas's
/// unrolled code makes them run, the first one's lanes.
fn unroll_passes(
    l: &super::unroll::CountedLoop,
    regs: &Regs,
    w: &Warp<'_>,
    lanes: u32,
) -> Option<Passes> {
    let mut trips = [0u64; WARP];
    let mut m = lanes;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        let iv = lane_src(regs, w, &Src::Reg(l.iv, 0), i).ok()?;
        let step = lane_src(regs, w, &l.step, i).ok()?;
        let bound = lane_src(regs, w, &l.bound, i).ok()?;
        trips[i] = super::unroll::trips(l, iv, step, bound)?;
    }
    let first = trips[lanes.trailing_zeros() as usize];
    if (0..WARP).all(|i| lanes & (1 << i) == 0 || trips[i] == first) {
        // Every lane runs the same copies: the PTX loop's requests.
        return None;
    }
    Some(Passes {
        head: l.head,
        back: l.back,
        trips,
        lanes,
        pass: 0,
    })
}

/// Branches and exits on loaded data that were followed both ways.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitCount {
    /// Warp executions of such branches and exits.
    pub times: u64,
}

/// The shared side of a `cp.async` request.
struct CopySide<'a> {
    /// Destination addresses.
    dst: &'a Lanes,
    /// Lanes whose destination is known.
    dst_known: u32,
    /// Executing lanes (every one writes its destination).
    lanes: u32,
    /// The SASS form (`.ca`/`.cg`, `LDGSTS.ZFILL`): `cost::async_copy`.
    form: super::cost::async_copy::CopyForm,
    /// Executing lanes whose source address is known.
    src_known: u32,
    /// The expected wavefronts over draws of the source addresses from the
    /// shape the static analysis proved, when they are not known.
    drawn_wavefronts: Option<f64>,
}

/// A block that ptxas predicates ([`super::ifconvert::if_convertible`]) under a guard the
/// simulation does not know in some lanes: until `end`, the `off` lanes
/// (the guard skips the block) do not run it and the `maybe` lanes run it
/// without knowing whether it takes effect.
#[derive(Clone, Copy)]
struct MaybeRegion {
    end: u32,
    maybe: u32,
    off: u32,
    data: bool,
}

/// Warp instructions simulated at most per kernel.
pub const DEFAULT_BUDGET: u64 = 3_000_000;

/// Per-instruction statistics over the simulated launch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimStats {
    /// Requests (warp executions with at least one active lane; for a bulk
    /// copy, one per executing lane).
    pub requests: u64,
    /// Active lanes, summed.
    pub lanes: u64,
    /// L1 lines, summed (expected for data-dependent lanes).
    pub lines: f64,
    /// Sectors, summed (expected for data-dependent lanes).
    pub sectors: f64,
    /// Lower bound on sectors, summed.
    pub sectors_min: f64,
    /// Upper bound on sectors, summed.
    pub sectors_max: f64,
    /// Lower bound on lines, summed.
    pub lines_min: f64,
    /// Upper bound on lines, summed.
    pub lines_max: f64,
    /// Ideal sectors, summed.
    pub ideal: f64,
    /// Sectors as the kernel-level counter `l1tex__t_sectors_pipe_lsu_mem_global_op_*`
    /// counts them: for reductions (`red`, or `atom` whose result is unused,
    /// which ptxas turns into `RED`), lanes hitting the same address are not
    /// merged (each sector counts the largest number of lanes on one of its
    /// addresses); otherwise equal to `sectors`.
    pub kernel_sectors: f64,
    /// Shared-memory wavefronts, summed (requests with every address known).
    pub wavefronts: f64,
    /// Requests counted in `wavefronts`.
    pub wavefront_requests: u64,
    /// Requests issued with the guard off in every lane (also counted in
    /// `requests`, with nothing else).
    pub off_requests: u64,
    /// `cp.async` requests in which no lane reads (every lane zero-fills;
    /// also counted in `requests`).
    pub empty_requests: u64,
    /// Global sectors the copy engine moved for the 1-D bulk copies between
    /// global and shared memory of this instruction whose addresses were
    /// known (`cost::bulk_copy`), once for each CTA a multicast copy writes
    /// to.
    pub copy_sectors: u64,
    /// Such copies whose source or destination (or a multicast copy's
    /// `ctaMask`) was not known (their sectors are missing from
    /// `copy_sectors`).
    pub copy_sectors_missing: u64,
    /// How many requests had each pattern.
    pub patterns: HashMap<Pattern, u64>,
    /// How many requests had each lane stride (affine layouts only).
    pub strides: HashMap<i64, u64>,
}

/// The simulation's result.
#[derive(Clone, Debug, Default)]
pub struct SimResult {
    /// By statement index.
    pub stats: HashMap<u32, SimStats>,
    /// Blocks simulated (with those decided idle before they run,
    /// [`exits`]) and blocks in the grid (equal unless sampled).
    pub blocks: (u64, u64),
    /// True when `stats` already stand for the whole grid although it was
    /// sampled (the grid's edge blocks simulated exactly, the interior
    /// scaled): [`super::launch_totals::scale`] is then 1.
    pub prescaled: bool,
    /// Branches followed both ways (see "Branches the simulation cannot
    /// decide" in the module documentation).
    pub splits: SplitCount,
    /// Loops whose exit depends on loaded data, stepped over (see "Loops on
    /// loaded data" in the module documentation); their accesses have no
    /// entry in `stats`.
    pub skipped_loops: Vec<SkippedLoop>,
    /// The accesses inside those loops, over the trips the simulation ran
    /// before it found the exit on loaded data (each warp's trips up to the
    /// back edge, the data-dependent exits not taken): a sample of their
    /// requests, for the per-request figures only (its request count is not
    /// the launch's).
    pub loop_stats: HashMap<u32, SimStats>,
    /// While a probe block of the sampler runs: each instruction's first
    /// known lane address (`sample::Firsts`).
    firsts: Option<sample::Firsts>,
}

impl SimStats {
    /// Adds `o`'s counts to these.
    fn add(&mut self, o: &SimStats) {
        self.requests += o.requests;
        self.lanes += o.lanes;
        self.lines += o.lines;
        self.sectors += o.sectors;
        self.sectors_min += o.sectors_min;
        self.sectors_max += o.sectors_max;
        self.lines_min += o.lines_min;
        self.lines_max += o.lines_max;
        self.ideal += o.ideal;
        self.kernel_sectors += o.kernel_sectors;
        self.wavefronts += o.wavefronts;
        self.wavefront_requests += o.wavefront_requests;
        self.off_requests += o.off_requests;
        self.empty_requests += o.empty_requests;
        self.copy_sectors += o.copy_sectors;
        self.copy_sectors_missing += o.copy_sectors_missing;
        for (k, v) in &o.patterns {
            *self.patterns.entry(*k).or_default() += v;
        }
        for (k, v) in &o.strides {
            *self.strides.entry(*k).or_default() += v;
        }
    }

    /// These counts `k` times over (`k` equal blocks).
    fn times(&self, k: u64) -> SimStats {
        let f = k as f64;
        SimStats {
            requests: self.requests * k,
            lanes: self.lanes * k,
            lines: self.lines * f,
            sectors: self.sectors * f,
            sectors_min: self.sectors_min * f,
            sectors_max: self.sectors_max * f,
            lines_min: self.lines_min * f,
            lines_max: self.lines_max * f,
            ideal: self.ideal * f,
            kernel_sectors: self.kernel_sectors * f,
            wavefronts: self.wavefronts * f,
            wavefront_requests: self.wavefront_requests * k,
            off_requests: self.off_requests * k,
            empty_requests: self.empty_requests * k,
            copy_sectors: self.copy_sectors * k,
            copy_sectors_missing: self.copy_sectors_missing * k,
            patterns: self.patterns.iter().map(|(p, v)| (*p, v * k)).collect(),
            strides: self.strides.iter().map(|(s, v)| (*s, v * k)).collect(),
        }
    }

    /// These counts times `f` (counts rounded to integers).
    fn scaled(&self, f: f64) -> SimStats {
        let n = |x: u64| (x as f64 * f).round() as u64;
        SimStats {
            requests: n(self.requests),
            lanes: n(self.lanes),
            lines: self.lines * f,
            sectors: self.sectors * f,
            sectors_min: self.sectors_min * f,
            sectors_max: self.sectors_max * f,
            lines_min: self.lines_min * f,
            lines_max: self.lines_max * f,
            ideal: self.ideal * f,
            kernel_sectors: self.kernel_sectors * f,
            wavefronts: self.wavefronts * f,
            wavefront_requests: n(self.wavefront_requests),
            off_requests: n(self.off_requests),
            empty_requests: n(self.empty_requests),
            copy_sectors: n(self.copy_sectors),
            copy_sectors_missing: n(self.copy_sectors_missing),
            patterns: self.patterns.iter().map(|(k, v)| (*k, n(*v))).collect(),
            strides: self.strides.iter().map(|(k, v)| (*k, n(*v))).collect(),
        }
    }
}

/// What the simulation needs to know.
#[derive(Clone, Debug)]
pub struct SimInputs {
    /// Block shape, validated once by the launch resolution (every
    /// dimension at least 1; an assumed shape simulates its reported
    /// `[32, 1, 1]`).
    pub block: BlockShape,
    /// Grid shape.
    pub grid: [u32; 3],
    /// Parameter values, by index.
    pub params: Vec<Option<i64>>,
    /// Values of fields of by-value parameters (index, byte offset, value).
    pub fields: Vec<(u16, i64, i64)>,
    /// Parameters used as pointers.
    pub pointer_params: Vec<bool>,
    /// Budget in warp instructions.
    pub budget: u64,
}

struct Regs {
    v: Vec<Lanes>,
    known: Vec<u32>,
    data: Vec<u32>,
    /// Data lanes that hold a named loaded value (`tagged`).
    tags: tagged::Tags,
    /// What each lane stored to local memory (`local`).
    local: local::LocalMem,
    /// Per register, where its lanes that are not known (and not loaded
    /// data) got that way ([`UnknownOrigin`], encoded by
    /// [`UnknownOrigin::code`]; [`NO_ORIGIN`] before any such write).
    origin: Vec<u32>,
    /// The origin given to the values not known that the op running now
    /// writes: the origin of the first operand it reads that is not known
    /// in a running lane, else the op itself.
    cur: u32,
    /// Whether origins are tracked at all: only stop reasons of SASS input
    /// name them (`driver::origin_text`), so a PTX run skips the work on
    /// every simulated step.
    track_origin: bool,
}

/// [`Regs::origin`] of a register no op has made unknown.
const NO_ORIGIN: u32 = u32::MAX;

/// Where a value that is neither known nor loaded data first appeared in a
/// warp's run: the op that made it from operands that were all known (an
/// opaque instruction, a parameter not given), or the op that read a
/// register no op had written before it (`unwritten`). It names, in the
/// reason the simulation gives for stopping, the instruction that lost the
/// value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownOrigin {
    /// The op.
    pub op: u32,
    /// True when the op read a register no op had written.
    pub unwritten: bool,
}

impl UnknownOrigin {
    fn code(self) -> u32 {
        self.op | (u32::from(self.unwritten) << 31)
    }
    fn of_code(c: u32) -> UnknownOrigin {
        UnknownOrigin {
            op: c & !(1 << 31),
            unwritten: c >> 31 != 0,
        }
    }
}

impl Regs {
    fn new(n: usize, track_origin: bool) -> Regs {
        Regs {
            track_origin,
            v: vec![[0; WARP]; n],
            known: vec![0; n],
            data: vec![0; n],
            tags: tagged::Tags::default(),
            local: local::LocalMem::default(),
            origin: vec![NO_ORIGIN; n],
            cur: NO_ORIGIN,
        }
    }
    fn reset(&mut self) {
        self.known.iter_mut().for_each(|k| *k = 0);
        self.data.iter_mut().for_each(|k| *k = 0);
        self.origin.iter_mut().for_each(|k| *k = NO_ORIGIN);
        self.tags.reset();
        self.local.reset();
    }
    /// Sets [`Regs::cur`] for `op` at `pc` running `lanes`: the origin of
    /// the first register it reads (its guard first) that is neither known
    /// nor data in one of them, else `pc` itself.
    fn enter(&mut self, op: &crate::ir::Op, pc: u32, lanes: u32) {
        if !self.track_origin {
            return;
        }
        let mut cur = None;
        crate::ir::ssa::op_reads(op, |r| {
            let r = r as usize;
            if cur.is_none() && r < self.known.len() && lanes & !self.known[r] & !self.data[r] != 0
            {
                cur = Some(match self.origin[r] {
                    NO_ORIGIN => UnknownOrigin {
                        op: pc,
                        unwritten: true,
                    }
                    .code(),
                    c => c,
                });
            }
        });
        self.cur = cur.unwrap_or(
            UnknownOrigin {
                op: pc,
                unwritten: false,
            }
            .code(),
        );
    }
    /// Whether a register among `srcs` holds a tagged value in one of
    /// `lanes`.
    fn tags_any(&self, srcs: &[Src], lanes: u32) -> bool {
        srcs.iter().any(|s| match s {
            Src::Reg(r, _) => self
                .tags
                .mask
                .get(*r as usize)
                .is_some_and(|m| m & lanes != 0),
            _ => false,
        })
    }
    /// [`Regs::set`] of every lane in `lanes`: `vals` where `ok`, else
    /// unknown (loaded data where `data`).
    fn set_lanes(&mut self, r: u32, lanes: u32, vals: &Lanes, ok: u32, data: u32) {
        let r = r as usize;
        if r >= self.v.len() {
            return;
        }
        self.tags.clear(r, lanes);
        let ok = ok & lanes;
        for (l, (d, v)) in self.v[r].iter_mut().zip(vals).enumerate() {
            if ok >> l & 1 != 0 {
                *d = *v;
            }
        }
        let unk = lanes & !ok;
        self.known[r] = (self.known[r] & !lanes) | ok;
        self.data[r] = (self.data[r] & !lanes) | (unk & data);
        if unk & !data != 0 {
            self.origin[r] = self.cur;
        }
    }
    #[inline]
    fn set(&mut self, r: u32, l: usize, v: Option<i64>, data: bool) {
        let r = r as usize;
        if r >= self.v.len() {
            return;
        }
        let bit = 1u32 << l;
        self.tags.clear(r, bit);
        match v {
            Some(x) => {
                self.v[r][l] = x;
                self.known[r] |= bit;
                self.data[r] &= !bit;
            }
            None => {
                self.known[r] &= !bit;
                if data {
                    self.data[r] |= bit;
                } else {
                    self.data[r] &= !bit;
                    self.origin[r] = self.cur;
                }
            }
        }
    }
}

struct Warp<'a> {
    tid: [[i64; WARP]; 3],
    ctaid: [i64; 3],
    /// `%cluster_ctarank`, where the kernel names its cluster shape.
    cluster_rank: Option<i64>,
    /// The kernel's cluster shape (`.reqnctapercluster`), where it names one.
    cluster_dim: Option<[u64; 3]>,
    inputs: &'a SimInputs,
}

/// `%cluster_ctarank` of the CTA `ctaid` in clusters of `dims` (PTX ISA:
/// the CTA's linear index in its cluster, `x` fastest).
fn cluster_rank(ctaid: [i64; 3], dims: [u64; 3]) -> i64 {
    let d = dims.map(|x| x.max(1) as i64);
    let c = [0, 1, 2].map(|k| ctaid[k].rem_euclid(d[k]));
    c[0] + d[0] * (c[1] + d[1] * c[2])
}

/// The bit above which the simulation places a `mapa.u64` result's CTA
/// rank (plus one): far above any shared variable's synthetic address
/// (`Src::Var`: `(v + 1) << VAR_SHIFT`) and pointer parameter's (`synthetic_base`).
const CLUSTER_WINDOW_SHIFT: u32 = 48;

/// The bit above which the simulation places a `mapa.u32` result's CTA
/// rank (plus one, at most 15: the largest cluster has 16 CTAs, the rank
/// 15 is not placed): bits 27 to 30 of the 32-bit `shared::cluster`
/// address, below the sign bit that `add.s32` arithmetic on the address
/// would extend, above the synthetic addresses of a function's first 511
/// variables (`(v + 1) << VAR_SHIFT`); an address at or above it is not
/// placed (unknown).
const CLUSTER_WINDOW_SHIFT32: u32 = 27;

/// The spacing of the variables' synthetic addresses (`Src::Var` `v` lies
/// at `(v + 1) << VAR_SHIFT`): 256 KiB, above the largest shared memory of
/// a CTA (228 KiB on sm_90), so shared variables never overlap, and 511 of
/// them lie below [`CLUSTER_WINDOW_SHIFT32`], where an address would be read
/// as another CTA's (`window_rank`). The spacing is a multiple of 128, so
/// banks and line offsets are those of the variable's own offsets.
const VAR_SHIFT: u32 = 18;

/// `mapa.u64 d, a, rank` (`bits` 64) or `mapa.u32` (32): `a` in CTA
/// `rank`'s shared window (synthetic: the rank above
/// [`CLUSTER_WINDOW_SHIFT`], or [`CLUSTER_WINDOW_SHIFT32`] for the 32-bit
/// form).
fn mapa_window(a: i64, rank: i64, bits: u32) -> Option<i64> {
    let (shift, ranks) = if bits == 64 {
        (CLUSTER_WINDOW_SHIFT, 0x7fff)
    } else {
        (CLUSTER_WINDOW_SHIFT32, 15)
    };
    if !(0..ranks).contains(&rank) || a >> shift != 0 || a < 0 {
        return None;
    }
    Some(a + ((rank + 1) << shift))
}

/// The CTA rank and own-window offset of an address [`mapa_window`] made
/// (the 64-bit form, else the 32-bit one).
fn window_rank(addr: i64) -> Option<(i64, i64)> {
    let r = addr >> CLUSTER_WINDOW_SHIFT;
    if r > 0 {
        return Some((r - 1, addr & ((1i64 << CLUSTER_WINDOW_SHIFT) - 1)));
    }
    let r = addr >> CLUSTER_WINDOW_SHIFT32;
    (1..16)
        .contains(&r)
        .then(|| (r - 1, addr & ((1i64 << CLUSTER_WINDOW_SHIFT32) - 1)))
}

/// A lane's operand: `Ok(value)`, or `Err(is_data)` when unknown.
#[inline]
fn lane_src(regs: &Regs, w: &Warp<'_>, s: &Src, l: usize) -> Result<i64, bool> {
    let bit = 1u32 << l;
    match s {
        Src::Reg(r, off) => {
            let r = *r as usize;
            if r < regs.v.len() && regs.known[r] & bit != 0 {
                Ok(regs.v[r][l].wrapping_add(*off))
            } else {
                Err(r < regs.data.len() && regs.data[r] & bit != 0)
            }
        }
        Src::NotPred(r) => {
            let r = *r as usize;
            if r < regs.v.len() && regs.known[r] & bit != 0 {
                Ok((regs.v[r][l] == 0) as i64)
            } else {
                Err(r < regs.data.len() && regs.data[r] & bit != 0)
            }
        }
        Src::Imm(v) => Ok(*v),
        Src::Var(v, off) => Ok((((*v as i64) + 1) << VAR_SHIFT).wrapping_add(*off)),
        Src::Param(..) | Src::Unknown => Err(false),
        Src::Special(sp) => {
            let d = |x: u8| x.min(2) as usize;
            match sp {
                Special::Tid(x) => Ok(w.tid[d(*x)][l]),
                Special::Ntid(x) => Ok(w.inputs.block.dims()[d(*x)] as i64),
                Special::Ctaid(x) => Ok(w.ctaid[d(*x)]),
                Special::Nctaid(x) => Ok(w.inputs.grid[d(*x)] as i64),
                Special::LaneId => Ok(l as i64),
                Special::LaneMask(k) => {
                    let l = l as u32;
                    Ok(match k {
                        0 => (1u64 << l) - 1,
                        1 => (1u64 << (l + 1)) - 1,
                        2 => 1u64 << l,
                        3 => 0xffff_ffffu64 & !((1u64 << l) - 1),
                        _ => 0xffff_ffffu64 & !((1u64 << (l + 1)) - 1),
                    } as i64)
                }
                Special::ClusterCtaRank => w.cluster_rank.ok_or(false),
                Special::OtherUniform | Special::Other => Err(false),
            }
        }
    }
}

/// An ALU op's result in one lane whose operands are all known: `None`
/// where the simulation does not evaluate it (`eval_scalar`).
#[inline]
fn eval_lane(alu: Alu, vals: &[i64]) -> Option<i64> {
    match alu.op {
        // A malformed `setp` without operands (sema reports it) computes
        // nothing.
        AluOp::Setp(_, _) if vals.is_empty() => None,
        AluOp::Setp(cmp, comb) => compare_checked(cmp, alu.ty, vals[0], *vals.get(1).unwrap_or(&0))
            .map(|mut b| {
                if let Some(c) = comb {
                    let q = vals.get(2).copied().unwrap_or(0) != 0;
                    b = match c {
                        super::transfer::AluOp2::And => b && q,
                        super::transfer::AluOp2::Or => b || q,
                        super::transfer::AluOp2::Xor => b ^ q,
                    };
                }
                b as i64
            }),
        AluOp::Mapa if vals.len() >= 2 => mapa_window(vals[0], vals[1], alu.ty.bits),
        AluOp::Selp => {
            let p = vals.get(2).copied().unwrap_or(0);
            Some(if p != 0 {
                vals[0]
            } else {
                *vals.get(1).unwrap_or(&0)
            })
        }
        _ => eval_scalar(alu, vals),
    }
}

/// An operand's values in the lanes, read in place: a register's lanes
/// (plus its offset), `%tid`'s, or one value in every lane.
#[derive(Clone, Copy)]
enum LaneVals<'a> {
    Lanes(&'a Lanes, i64),
    Same(i64),
}

impl LaneVals<'_> {
    #[inline]
    fn at(self, l: usize) -> i64 {
        match self {
            LaneVals::Lanes(v, off) => v[l].wrapping_add(off),
            LaneVals::Same(x) => x,
        }
    }
    /// Whether the value is the same in every lane of `lanes`.
    fn same_in(self, lanes: u32) -> bool {
        match self {
            LaneVals::Same(_) => true,
            LaneVals::Lanes(v, _) => {
                let v0 = v[(lanes.trailing_zeros() as usize).min(WARP - 1)];
                (0..WARP).all(|l| lanes & (1 << l) == 0 || v[l] == v0)
            }
        }
    }
}

/// `s`'s values in place, where no lane needs its own evaluation (`None`
/// for a negated predicate, `%laneid` and the lane masks). The values of
/// lanes where `s` is not known are meaningless.
fn lane_vals<'a>(regs: &'a Regs, w: &'a Warp<'_>, s: &Src) -> Option<LaneVals<'a>> {
    Some(match s {
        Src::Reg(r, off) => match regs.v.get(*r as usize) {
            Some(v) => LaneVals::Lanes(v, *off),
            None => LaneVals::Same(0),
        },
        Src::Special(Special::Tid(x)) => LaneVals::Lanes(&w.tid[(*x).min(2) as usize], 0),
        Src::NotPred(_) | Src::Special(Special::LaneId | Special::LaneMask(_)) => return None,
        _ => LaneVals::Same(lane_src(regs, w, s, 0).unwrap_or(0)),
    })
}

/// [`eval_scalar`] in every lane at once, for the integer operations of
/// address arithmetic that it evaluates in every lane whose operands are
/// known (`None` for the others, which go lane by lane): the same rules,
/// written out per operation so that no lane dispatches on the opcode.
fn eval_lanes(alu: Alu, g: &[LaneVals<'_>]) -> Option<Lanes> {
    use super::transfer::{compare, shift_amount, MulMode};
    let t = alu.ty;
    if t.float {
        return None;
    }
    let arg = |k: usize| g.get(k).copied();
    // Operands as they are stored (`raw`), or read as the type.
    let raw2 = |f: &dyn Fn(i64, i64) -> i64| -> Option<Lanes> {
        let (x, y) = (arg(0)?, arg(1)?);
        Some(std::array::from_fn(|l| f(x.at(l), y.at(l))))
    };
    let two = |f: fn(i64, i64) -> i64| raw2(&|x, y| t.read(f(t.read(x), t.read(y))));
    match alu.op {
        AluOp::Mov => {
            let x = arg(0)?;
            Some(std::array::from_fn(|l| t.read(x.at(l))))
        }
        AluOp::Cvt(src) if !src.float => {
            let x = arg(0)?;
            Some(std::array::from_fn(|l| t.read(src.read(x.at(l)))))
        }
        AluOp::Add => two(i64::wrapping_add),
        AluOp::Sub => two(i64::wrapping_sub),
        // The low 64 bits of the 128-bit product, read as the type.
        AluOp::Mul(MulMode::Lo) => two(i64::wrapping_mul),
        AluOp::Mad(MulMode::Lo) => {
            let (x, y, c) = (arg(0)?, arg(1)?, arg(2)?);
            Some(std::array::from_fn(|l| {
                let p = t.read(t.read(x.at(l)).wrapping_mul(t.read(y.at(l))));
                t.read(p.wrapping_add(t.read(c.at(l))))
            }))
        }
        AluOp::And => two(|a, b| a & b),
        AluOp::Or => two(|a, b| a | b),
        AluOp::Xor => two(|a, b| a ^ b),
        AluOp::Shl => raw2(&|x, y| {
            let k = shift_amount(y);
            if k >= t.bits {
                0
            } else {
                t.read(((t.read(x) as u64) << k) as i64)
            }
        }),
        AluOp::Shr => raw2(&|x, y| {
            let k = shift_amount(y);
            let x = t.read(x);
            t.read(if t.signed {
                x >> k.min(63)
            } else {
                let ux = if t.bits >= 64 {
                    x as u64
                } else {
                    (x as u64) & ((1u64 << t.bits) - 1)
                };
                if k >= 64 {
                    0
                } else {
                    (ux >> k) as i64
                }
            })
        }),
        AluOp::Setp(cmp, None) => raw2(&|x, y| i64::from(compare(cmp, t, x, y))),
        AluOp::Lop3 => {
            let (a, b, c, lut) = (arg(0)?, arg(1)?, arg(2)?, arg(3)?);
            Some(std::array::from_fn(|l| {
                t.read(super::bitfield::lop3(
                    a.at(l),
                    b.at(l),
                    c.at(l),
                    lut.at(l),
                    t.bits,
                ))
            }))
        }
        _ => None,
    }
}

/// A (not cross-lane) ALU op that every lane of `exec` runs, where no
/// lane's result is named by the tag rules (`known_all`, `data_any`: the
/// lanes where every operand is known, where one is data): the per-lane
/// rule of `run_warp`'s general loop, lane-parallel, with the operands
/// read in place. Lanes with every operand known compute (once when each
/// operand is the same in all of them; a result the simulation does not
/// evaluate is run-time data, in the second destination too); the others
/// are unknown, data where an operand is. False, having done nothing, for
/// an operand that needs its own evaluation in each lane.
#[allow(clippy::too_many_arguments)]
fn alu_lanes(
    regs: &mut Regs,
    w: &Warp<'_>,
    alu: Alu,
    (dst, dst2): (u32, Option<u32>),
    srcs: &[Src],
    exec: u32,
    known_all: u32,
    data_any: u32,
) -> bool {
    let lanes = exec & known_all;
    let mut out = [0i64; WARP];
    let mut out2 = [0i64; WARP];
    let (mut ok, mut ok2) = (0u32, 0u32);
    if lanes != 0 {
        let mut g = [LaneVals::Same(0); 4];
        for (slot, s) in g.iter_mut().zip(srcs) {
            match lane_vals(regs, w, s) {
                Some(v) => *slot = v,
                None => return false,
            }
        }
        let g = &g[..srcs.len().min(4)];
        let uniform = g.iter().all(|x| x.same_in(lanes));
        let parallel = if dst2.is_none() && !uniform {
            eval_lanes(alu, g)
        } else {
            None
        };
        if let Some(v) = parallel {
            out = v;
            ok = lanes;
        } else {
            // Lane by lane, or once for all when every operand is the
            // same in every lane.
            let mut buf = [0i64; 4];
            let mut m = if uniform {
                lanes & lanes.wrapping_neg()
            } else {
                lanes
            };
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                for (b, x) in buf.iter_mut().zip(g) {
                    *b = x.at(l);
                }
                let vals = &buf[..g.len()];
                let o = eval_lane(alu, vals);
                if let Some(x) = o {
                    out[l] = x;
                    ok |= 1 << l;
                }
                if dst2.is_some() {
                    if let Some(x) = super::transfer::second_scalar(alu, vals, o) {
                        out2[l] = x;
                        ok2 |= 1 << l;
                    }
                }
            }
            if uniform {
                let l = lanes.trailing_zeros() as usize;
                out = [out[l]; WARP];
                out2 = [out2[l]; WARP];
                ok = if ok != 0 { lanes } else { 0 };
                ok2 = if ok2 != 0 { lanes } else { 0 };
            }
        }
    }
    // Lanes whose first result is not evaluated are data (in both
    // destinations, as the per-lane rule has it).
    let data = (lanes & !ok) | (exec & !known_all & data_any);
    regs.set_lanes(dst, exec, &out, ok, data);
    if let Some(d2) = dst2 {
        regs.set_lanes(d2, exec, &out2, ok2, data);
    }
    true
}

/// The lanes in which `s` is known, and those in which it is unknown
/// loaded data ([`lane_src`]'s `Ok` and `Err(true)` lanes).
fn src_masks(regs: &Regs, w: &Warp<'_>, s: &Src) -> (u32, u32) {
    match s {
        Src::Reg(r, _) | Src::NotPred(r) => {
            let r = *r as usize;
            if r < regs.v.len() {
                (regs.known[r], regs.data[r] & !regs.known[r])
            } else {
                (0, 0)
            }
        }
        // Every other operand is known in all lanes or in none (`%tid`,
        // `%laneid` and the lane masks are known everywhere).
        _ => match lane_src(regs, w, s, 0) {
            Ok(_) => (u32::MAX, 0),
            Err(true) => (0, u32::MAX),
            Err(false) => (0, 0),
        },
    }
}

/// Why the simulation stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct SimError {
    /// The statement where it stopped, if any.
    pub stmt: Option<u32>,
    /// What happened.
    pub message: String,
    /// For a guard that is not known (and not loaded data): where that
    /// value first appeared.
    pub origin: Option<UnknownOrigin>,
}

/// One operand's values in every lane, gathered once per instruction.
#[derive(Clone, Copy)]
struct Gathered {
    v: Lanes,
    known: u32,
    data: u32,
}

impl Gathered {
    const UNKNOWN: Gathered = Gathered {
        v: [0; WARP],
        known: 0,
        data: 0,
    };
}

fn gather(regs: &Regs, w: &Warp<'_>, s: &Src) -> Gathered {
    match s {
        Src::Reg(r, off) => {
            let r = *r as usize;
            if r >= regs.v.len() {
                return Gathered::UNKNOWN;
            }
            let mut v = regs.v[r];
            if *off != 0 {
                for x in v.iter_mut() {
                    *x = x.wrapping_add(*off);
                }
            }
            Gathered {
                v,
                known: regs.known[r],
                data: regs.data[r],
            }
        }
        // The same in every lane: one evaluation, broadcast.
        Src::Imm(_)
        | Src::Var(..)
        | Src::Param(..)
        | Src::Unknown
        | Src::Special(
            Special::Ntid(_)
            | Special::Ctaid(_)
            | Special::Nctaid(_)
            | Special::ClusterCtaRank
            | Special::OtherUniform
            | Special::Other,
        ) => match lane_src(regs, w, s, 0) {
            Ok(x) => Gathered {
                v: [x; WARP],
                known: u32::MAX,
                data: 0,
            },
            Err(true) => Gathered {
                data: u32::MAX,
                ..Gathered::UNKNOWN
            },
            Err(false) => Gathered::UNKNOWN,
        },
        Src::Special(Special::Tid(x)) => Gathered {
            v: w.tid[(*x).min(2) as usize],
            known: u32::MAX,
            data: 0,
        },
        _ => {
            let mut g = Gathered::UNKNOWN;
            for l in 0..WARP {
                match lane_src(regs, w, s, l) {
                    Ok(x) => {
                        g.v[l] = x;
                        g.known |= 1 << l;
                    }
                    Err(true) => g.data |= 1 << l,
                    Err(false) => {}
                }
            }
            g
        }
    }
}

/// What the static analysis proved about one memory instruction's lane
/// addresses (the same in every warp class). The simulation uses it for a
/// request whose addresses it does not know in some lane: a base loaded from
/// a uniform address (`ix = inp[i]; out[ix + tid]`) is unknown to the
/// simulation but shared by every lane, and a data-dependent index may be
/// bounded (`hist[b & 255]`).
#[derive(Clone, Debug, PartialEq)]
pub enum LaneShape {
    /// `U + d_l`: exact lane offsets `d` over a uniform value whose residues
    /// (mod 128) are listed (the ones the congruence and the access
    /// alignment allow).
    Exact {
        /// Residues of `U` modulo 128.
        residues: Vec<i64>,
        /// Lane offsets.
        d: Box<Lanes>,
    },
    /// A symbolic stride whose lanes fall into groups with equal symbolic
    /// coefficients (`figures::symbolic_groups`: the rows of a 2-D block at
    /// a run-time pitch): per group, its lanes, the residues of its base and
    /// its exact lane offsets; the groups are taken to lie in different
    /// lines (`figures::add_group`).
    Grouped {
        /// (lanes, residues of the group's base modulo 128, lane offsets).
        groups: Vec<(u32, Vec<i64>, Box<Lanes>)>,
    },
    /// Lanes drawn from a known set: the cost by number of active lanes
    /// (index 0..=32, `cost::ranged_random_cost`).
    Ranged {
        /// Cost for each number of active lanes.
        by_active: Vec<CostRange>,
        /// The addresses depend on loaded data (`random`, else `unknown`).
        data: bool,
        /// The set: residues of the uniform base, bounds and congruence of
        /// the lane part (`cost::ranged_samples`).
        set: Box<RangedSpec>,
    },
}

/// A known set of addresses: residues of the uniform base, bounds and
/// congruence of the lane part, and how the lanes share draws
/// (`cost::ranged_samples`).
pub type RangedSpec = (Vec<i64>, (i64, i64), (u64, i64), super::cost::LaneClasses);

/// The shapes and the costs already computed for them (per statement and
/// active mask).
struct Shapes<'a> {
    map: &'a HashMap<u32, LaneShape>,
    cache: HashMap<(u32, u32), (CostRange, Pattern, Option<i64>)>,
    wavefronts: HashMap<(u32, u32), Option<f64>>,
    /// Tagged groups' figures (`tagged::cost`).
    groups: tagged::GroupCache,
}

impl Shapes<'_> {
    /// Cost, pattern and stride of a request of `stmt` with lanes `exec`.
    fn cost(
        &mut self,
        stmt: u32,
        exec: u32,
        bytes: u32,
    ) -> Option<(CostRange, Pattern, Option<i64>)> {
        let shape = self.map.get(&stmt)?;
        if let Some(c) = self.cache.get(&(stmt, exec)) {
            return Some(*c);
        }
        let active = exec.count_ones();
        let c = match shape {
            LaneShape::Exact { residues, d } => {
                let c = cost_over_residues(residues, d, exec, bytes);
                let (p, stride) = classify(
                    d,
                    exec,
                    bytes,
                    c.sectors_min,
                    ideal_sectors(active, bytes) as f64,
                );
                (c, p, stride)
            }
            LaneShape::Grouped { groups } => {
                let mut total = CostRange::default();
                for (lanes, residues, d) in groups {
                    let m = exec & lanes;
                    if m != 0 {
                        super::figures::add_group(
                            &mut total,
                            &cost_over_residues(residues, d, m, bytes),
                        );
                    }
                }
                (total, Pattern::Strided, None)
            }
            LaneShape::Ranged {
                by_active,
                data,
                set,
            } => (
                if set.3.is_independent() {
                    *by_active.get(active as usize)?
                } else {
                    let (residues, bounds, cong, classes) = &**set;
                    super::cost::classed_cost(residues, *bounds, *cong, classes, exec, bytes)
                },
                if *data {
                    Pattern::Random
                } else {
                    Pattern::Unknown
                },
                None,
            ),
        };
        self.cache.insert((stmt, exec), c);
        Some(c)
    }

    /// Expected shared-memory wavefronts of a request of `stmt` with lanes
    /// `exec` whose addresses are drawn from a known set: the mean of `cost`
    /// over draws of the lanes' addresses (`cost::ranged_samples`).
    fn wavefronts(&mut self, stmt: u32, exec: u32, cost: impl Fn(&Lanes) -> u32) -> Option<f64> {
        if let Some(w) = self.wavefronts.get(&(stmt, exec)) {
            return *w;
        }
        let w = match self.map.get(&stmt) {
            Some(LaneShape::Ranged { set, .. }) => {
                let (residues, bounds, cong, classes) = &**set;
                super::cost::ranged_mean(residues, *bounds, *cong, classes, exec, cost)
            }
            _ => None,
        };
        self.wavefronts.insert((stmt, exec), w);
        w
    }
}

/// The value an `ld.param` destination reads at `loc` (parameter index,
/// byte offset; see [`crate::ir::ld_param_element`]): a scalar parameter's
/// launch value or a pointer's synthetic base at offset 0, a by-value
/// field's launch value elsewhere, unknown otherwise.
pub(super) fn param_value(inputs: &SimInputs, loc: Option<(u16, i64)>) -> Option<i64> {
    match loc? {
        (p, 0) => {
            let p = p as usize;
            match inputs.params.get(p).copied().flatten() {
                Some(v) => Some(v),
                None if inputs.pointer_params.get(p).copied().unwrap_or(false) => {
                    Some(synthetic_base(p))
                }
                None => None,
            }
        }
        (p, off) => super::dataflow::field_value(&inputs.fields, p, off),
    }
}

/// Synthetic base address of pointer parameter `k` when its value is not given.
pub fn synthetic_base(k: usize) -> i64 {
    ((k as i64) + 1) << 32
}

/// Runs the launch. `spaces` gives each memory instruction's resolved space
/// (only global accesses are costed).
pub fn simulate(
    low: &Lowered<'_>,
    inputs: &SimInputs,
    spaces: &HashMap<u32, Space>,
    shapes: &HashMap<u32, LaneShape>,
) -> Result<SimResult, SimError> {
    let mut ifconv = IfConvMemo::default();
    let mut shapes = Shapes {
        map: shapes,
        cache: HashMap::new(),
        wavefronts: HashMap::new(),
        groups: tagged::GroupCache::new(),
    };
    let [bx, by, bz] = inputs.block.dims().map(u64::from);
    // Blocks a block-uniform guard sends to an exit (`exits`): decided for
    // every block of a grid the sampler scans, before any runs.
    let grid = inputs.grid.map(|d| u64::from(d).max(1));
    let all: u64 = grid.iter().fold(1u64, |a, &d| a.saturating_mul(d));
    let fates = (all <= sample::EDGE_SCAN_MAX)
        .then(|| {
            exits::scan(low, inputs, &mut ifconv, all, |b| {
                [
                    (b % grid[0]) as i64,
                    ((b / grid[0]) % grid[1]) as i64,
                    (b / (grid[0] * grid[1])) as i64,
                ]
            })
        })
        .flatten();
    let mut sampler = sample::Sampler::with_fates(inputs.grid.map(u64::from), fates);
    let idle = sampler.idle_blocks();
    let threads = bx * by * bz;
    let nwarps = threads.div_ceil(WARP as u64);
    let nblocks = sampler.nblocks();
    let mut regs = Regs::new(low.regs.len(), low.front_end == crate::ir::FrontEnd::Sass);
    let recon = Reconvergence::new(low);
    let unrolled = super::unroll::loops(low);
    let mut res = SimResult::default();
    let mut used = 0u64;
    // The sampler hands out the grid's edge blocks first, then the interior
    // (`sample`): every block when the budget allows, else a spread sample
    // refined by bisection where the blocks' request counts change.
    let mut done_blocks = 0u64;
    while let Some(bid) = sampler.next(used, inputs.budget) {
        let ctaid = sampler.ctaid(bid);
        let mut over = false;
        if sampler.wants_firsts(bid) {
            res.firsts = Some(sample::Firsts::new());
        }
        for w in 0..nwarps {
            let mut tid = [[0i64; WARP]; 3];
            let mut exists = 0u32;
            for l in 0..WARP {
                let t = w * WARP as u64 + l as u64;
                if t < threads {
                    exists |= 1 << l;
                    let v = [t % bx, (t / bx) % by, t / (bx * by)];
                    for (d, x) in tid.iter_mut().zip(v) {
                        d[l] = x as i64;
                    }
                }
            }
            let cluster = low.launch.cluster_dim.map(|d| cluster_rank(ctaid, d));
            let warp = Warp {
                tid,
                ctaid,
                cluster_rank: cluster,
                cluster_dim: low.launch.cluster_dim,
                inputs,
            };
            regs.reset();
            match run_warp(
                low,
                &warp,
                exists,
                &mut regs,
                &mut res,
                spaces,
                &mut shapes,
                &mut ifconv,
                (&recon, &unrolled),
                &mut used,
                inputs.budget,
            ) {
                Ok(()) => {}
                Err(e) if e.stmt.is_none() => {
                    over = true;
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        // A block's counts are its own: the sampler sums or estimates them.
        let delta = std::mem::take(&mut res.stats);
        let firsts = res.firsts.take();
        if over {
            // A block that runs past the budget is dropped whole (its
            // partial counts would bias the sample), unless it is the first.
            if done_blocks == 0 {
                return Err(SimError {
                    stmt: None,
                    message: format!(
                        "one block needs more than {} warp instructions to simulate",
                        inputs.budget
                    ),
                    origin: None,
                });
            }
            break;
        }
        if let Some(f) = firsts {
            sampler.probe(bid, f);
        }
        sampler.record(bid, delta);
        done_blocks += 1;
        if used > inputs.budget {
            break;
        }
    }
    let (mut stats, done, mut prescaled) = sampler.finish();
    debug_assert_eq!(done, done_blocks);
    if !prescaled && idle > 0 && done_blocks > 0 && done_blocks + idle < nblocks {
        // The sum of the blocks run stands for the working blocks only:
        // scaled here, since the caller scales by all the blocks.
        let f = (nblocks - idle) as f64 / done_blocks as f64;
        for st in stats.values_mut() {
            *st = st.scaled(f);
        }
        prescaled = true;
    }
    res.stats = stats;
    // Idle blocks are decided exactly: they count as simulated.
    res.blocks = (done_blocks + idle, nblocks);
    res.prescaled = prescaled && done_blocks + idle < nblocks;
    strip_skipped(&mut res);
    Ok(res)
}

#[allow(clippy::too_many_arguments)]
fn run_warp(
    low: &Lowered<'_>,
    w: &Warp<'_>,
    exists: u32,
    regs: &mut Regs,
    res: &mut SimResult,
    spaces: &HashMap<u32, Space>,
    shapes: &mut Shapes<'_>,
    ifconv: &mut IfConvMemo,
    (recon, unrolled): (&Reconvergence, &HashMap<u32, super::unroll::CountedLoop>),
    used: &mut u64,
    budget: u64,
) -> Result<(), SimError> {
    let mut live = exists;
    // The op run last (a loop's head reached from its back edge is not an
    // entry into the loop).
    let mut prev_pc = u32::MAX;
    let n = low.ops.len() as u32;
    // A predicated block under a guard unknown in some lanes (`MaybeRegion`).
    let mut region: Option<MaybeRegion> = None;
    // Registers (and lanes) the `maybe` lanes of that block wrote: exact
    // inside it, unknown after it.
    let mut region_writes: Vec<(u32, u32)> = Vec::new();
    // The reconvergence stack (`reconverge`): the top frame's lanes run.
    let mut stack = vec![Frame::new(0, exists, None)];
    // Lanes that may have left at an exit whose guard is not known: they
    // run on, uncertain on every path.
    let mut maybe_dead = 0u32;
    // Whether a frame that parks lanes (`Frame::parks`) was pushed in this
    // run: only then is a path's entry into a block checked against them.
    let mut parking = false;
    'run: while let Some(top) = stack.last() {
        let active = top.mask & live;
        if active == 0 {
            stack.pop();
            continue;
        }
        if parking {
            let b = recon.block(top.pc);
            if top.rpc != Some(b) && recon.start(b) == Some(top.pc) {
                let below = stack.len() - 1;
                if let Some(k) = stack[..below]
                    .iter()
                    .rposition(|f| f.parks && f.rpc == Some(b))
                {
                    // The path bypassed a join and reached the block where
                    // such lanes wait: they leave every frame from the one
                    // that parks them up (the frame below it holds them);
                    // an uncertain lane leaves this path only (it may be on
                    // another), and what it wrote on it is unknown.
                    let f = stack.pop().expect("the running frame");
                    let certain = f.mask & !f.maybe;
                    for g in &mut stack[k..] {
                        g.mask &= !certain;
                        g.maybe &= !certain;
                        g.own &= !certain;
                    }
                    for (r, lanes) in f.dirty {
                        regs.set_lanes(r, lanes, &[0; WARP], 0, lanes);
                    }
                    continue;
                }
            }
        }
        if top.pc >= n {
            // Fell off the end of the body: those lanes are done (a lane
            // only maybe on this path may still be on another).
            live &= !(active & !top.maybe);
            stack.pop();
            continue;
        }
        if top.rpc.is_some() && top.rpc == Some(recon.block(top.pc)) {
            // Arrived at the reconvergence block: wait for the other paths.
            let f = stack.pop().expect("the running frame");
            join_dirty(&mut stack, regs, f);
            continue;
        }
        if let Some(p) = top.unroll.as_deref() {
            if top.pc == p.back {
                // A pass of an unrolled loop ends at the back edge: the
                // next pass, or the loop's end (the frame below waits at
                // its exit).
                let (trips, lanes, from) = (p.trips, p.lanes & live, p.pass + 1);
                let top = stack.last_mut().expect("the running frame");
                match super::unroll::next_pass(&trips, lanes, from) {
                    Some((pass, mask)) => {
                        if let Some(p) = top.unroll.as_deref_mut() {
                            p.pass = pass;
                            top.pc = p.head;
                        }
                        top.mask = mask;
                    }
                    None => {
                        stack.pop();
                    }
                }
                continue;
            }
        }
        let path_maybe = top.maybe & active;
        let maybe_here = path_maybe | (maybe_dead & active);
        if let Some(l) = unrolled.get(&top.pc).filter(|l| {
            prev_pc != l.back
                && top.unroll.is_none()
                && maybe_here == 0
                && region.is_none()
                && top.dirty.is_empty()
        }) {
            // Entering a loop that ptxas unrolls, with lanes of different
            // trip counts: the body runs once per pass of the unrolled
            // code with that pass's lanes (`unroll`), then every lane
            // leaves by the back edge's fall-through.
            if let Some(p) = unroll_passes(l, regs, w, active) {
                if let Some((pass, mask)) = super::unroll::next_pass(&p.trips, p.lanes, 0) {
                    let top = stack.last_mut().expect("the running frame");
                    top.pc = l.back + 1;
                    let mut f = Frame::new(l.head, mask, None);
                    f.unroll = Some(Box::new(Passes { pass, ..p }));
                    stack.push(f);
                    continue;
                }
            }
        }
        if stack.len() > MAX_DIVERGENCE {
            return Err(SimError {
                stmt: Some(top.pc),
                message: format!("divergence nested deeper than {MAX_DIVERGENCE} regions"),
                origin: None,
            });
        }
        // The budget counts instructions of the source: an instruction
        // lowered to several ops (a SASS 64-bit pair's words) costs one; an
        // op reached by a jump always counts, so every loop iteration does.
        let pc = top.pc as usize;
        if pc == 0
            || prev_pc.wrapping_add(1) != top.pc
            || low.spans.get(pc) != low.spans.get(pc - 1)
        {
            *used += 1;
        }
        if *used > budget {
            return Err(SimError {
                stmt: None,
                message: "budget".to_string(),
                origin: None,
            });
        }
        let minpc = top.pc;
        prev_pc = minpc;
        let op = &low.ops[minpc as usize];
        regs.enter(op, minpc, active);
        let cur_origin = regs.cur;
        // Guard.
        let mut exec = active;
        let mut unknown_guard = 0u32;
        let mut unknown_guard_data = false;
        // A load that ptxas moves below the tail's `@!P EXIT` runs under
        // the tail op's guard (`memops::sunk_below_exit`).
        let guard = match (&op.kind, op.guard) {
            (OpKind::Mem { .. }, None) => ifconv.sunk_guard(low, minpc),
            (_, g) => g,
        };
        if let Some((r, neg)) = guard {
            exec = 0;
            let r = r as usize;
            let (known, data) = if r < regs.v.len() {
                (regs.known[r] & active, regs.data[r] & active)
            } else {
                (0, 0)
            };
            let mut m = known;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                if (regs.v[r][l] != 0) != neg {
                    exec |= 1 << l;
                }
            }
            unknown_guard = active & !known;
            unknown_guard_data = unknown_guard & data != 0;
        }
        let own_unknown = unknown_guard;
        let mut region_maybe = 0u32;
        if let Some(rg) = region {
            if minpc >= rg.end {
                region = None;
                for (r, lanes) in region_writes.drain(..) {
                    for l in 0..WARP {
                        if lanes & (1 << l) != 0 {
                            regs.set(r, l, None, rg.data);
                        }
                    }
                }
            } else {
                // The block's lanes: off where the guard skips it, unknown
                // where the guard is unknown.
                exec &= !rg.off;
                unknown_guard &= !rg.off;
                let m = exec & rg.maybe;
                exec &= !m;
                unknown_guard |= m;
                unknown_guard_data |= rg.data && m != 0;
                region_maybe = m & !own_unknown;
            }
        }
        let why = |what: &str, data: bool| SimError {
            stmt: Some(minpc),
            origin: (!data && cur_origin != NO_ORIGIN).then(|| UnknownOrigin::of_code(cur_origin)),
            message: if data {
                format!("{what} depends on loaded data")
            } else {
                format!(
                    "{what} depends on a value that is not known (a parameter that was not given?)"
                )
            },
        };
        let next = minpc + 1;
        let mut jump: Option<(u32, u32)> = None; // (lanes, target)
                                                 // Lanes a branch sends both ways (its guard unknown there).
        let mut split = 0u32;
        // Lanes leaving at an exit on this path only.
        let mut path_exit = 0u32;
        match &op.kind {
            OpKind::Nop => {}
            OpKind::Alu {
                alu,
                dst,
                dst2,
                srcs,
            } => {
                let ns = srcs.len().min(4);
                let (known_all, data_any) =
                    srcs[..ns].iter().fold((u32::MAX, 0u32), |(k, d), s| {
                        let (sk, sd) = src_masks(regs, w, s);
                        (k & sk, d | sd)
                    });
                // Lanes that run with an operand not known: plain data
                // unless the tag rules may name the result.
                let unnamed = exec & !known_all;
                if !matches!(alu.op, AluOp::Shfl(_) | AluOp::Warp(_))
                    && unknown_guard == 0
                    && region_maybe == 0
                    && (unnamed == 0
                        || (!matches!(alu.op, AluOp::Setp(_, Some(_)))
                            && (dst2.is_some()
                                || alu.ty.float
                                || (alu.op != AluOp::Selp && !regs.tags_any(srcs, unnamed)))))
                    && alu_lanes(
                        regs,
                        w,
                        *alu,
                        (*dst, *dst2),
                        &srcs[..ns],
                        exec,
                        known_all,
                        data_any,
                    )
                {
                    // Done lane-parallel (the common case).
                } else {
                    let mut g = [Gathered::UNKNOWN; 4];
                    for (slot, s) in g.iter_mut().zip(srcs.iter()) {
                        *slot = gather(regs, w, s);
                    }
                    let cross = cross_lane(*alu, &g[..ns], exec & !unknown_guard);
                    // The lanes of a predicated block that may not run it
                    // compute exactly inside it (their results become unknown
                    // where it ends): an access in the block then has their
                    // addresses, costed as uncertain lanes.
                    let unknown_guard = if cross.is_none() && region_maybe != 0 {
                        region_writes.push((*dst, region_maybe));
                        if let Some(d2) = dst2 {
                            region_writes.push((*d2, region_maybe));
                        }
                        unknown_guard & !region_maybe
                    } else {
                        unknown_guard
                    };
                    // A shuffled tagged value keeps its tag: the lanes that
                    // read one source lane hold its one loaded value (read
                    // before any lane is written: `dst` may be the source).
                    let moved_tags: Option<[Option<tagged::Tagged>; WARP]> =
                        match (&cross, srcs.first()) {
                            (Some(c), Some(s0)) => Some(std::array::from_fn(|l| {
                                c.src[l].and_then(|j| regs.tagged(s0, j))
                            })),
                            _ => None,
                        };
                    let mut m = exec | unknown_guard | region_maybe;
                    while m != 0 {
                        let l = m.trailing_zeros() as usize;
                        m &= m - 1;
                        let bit = 1u32 << l;
                        if let Some(c) = &cross {
                            let known = unknown_guard & bit == 0;
                            let data = c.data & bit != 0 || (!known && unknown_guard_data);
                            regs.set(*dst, l, c.out[l].filter(|_| known), data);
                            if let (true, Some(t)) = (known, moved_tags.and_then(|m| m[l])) {
                                regs.set_tagged(*dst, l, t);
                            }
                            if let Some(d2) = dst2 {
                                regs.set(*d2, l, c.second[l].filter(|_| known), data);
                            }
                            continue;
                        }
                        let mut buf = [0i64; 4];
                        for (b, x) in buf.iter_mut().zip(g.iter()).take(ns) {
                            *b = x.v[l];
                        }
                        let unk: Option<bool> = if known_all & bit == 0 {
                            Some(data_any & bit != 0)
                        } else {
                            None
                        };
                        let vals = &buf[..ns];
                        let out: Option<i64> = if unk.is_some() || unknown_guard & bit != 0 {
                            None
                        } else {
                            eval_lane(*alu, vals)
                        };
                        // An instruction the simulation does not evaluate on
                        // operands known in this lane (a float result fusing
                        // with a `mul` could change, a NaN) gives run-time
                        // data, as `OpKind::Other` does: only a parameter that
                        // was not given leaves a value unknown for good.
                        let not_evaluated =
                            unk.is_none() && unknown_guard & bit == 0 && out.is_none();
                        let data = unk.unwrap_or(false)
                            || (unknown_guard & bit != 0 && unknown_guard_data)
                            || not_evaluated;
                        // `setp` combined with a predicate that decides the
                        // result alone (`false` for `.and`, `true` for
                        // `.or`): known whatever the comparison.
                        if let (Some(_), AluOp::Setp(_, Some(c)), Some(q)) =
                            (unk, alu.op, g.get(2).filter(|_| ns == 3))
                        {
                            let q = (q.known & bit != 0).then_some(q.v[l] != 0);
                            let decided = match (c, q) {
                                (super::transfer::AluOp2::And, Some(false)) => Some(0),
                                (super::transfer::AluOp2::Or, Some(true)) => Some(1),
                                _ => None,
                            };
                            if let Some(v) = decided.filter(|_| unknown_guard & bit == 0) {
                                regs.set(*dst, l, Some(v), false);
                                if let Some(d2) = dst2 {
                                    regs.set(*d2, l, Some(1 - v), false);
                                }
                                continue;
                            }
                        }
                        if unk == Some(true) && unknown_guard & bit == 0 && dst2.is_none() {
                            // A loaded value the lane can still name (`tagged`).
                            match tagged::alu_lane(*alu, srcs, regs, w, l) {
                                Some(Ok(v)) => {
                                    regs.set(*dst, l, Some(v), false);
                                    continue;
                                }
                                Some(Err(t)) => {
                                    regs.set_tagged(*dst, l, t);
                                    continue;
                                }
                                None => {}
                            }
                        }
                        regs.set(*dst, l, out, data);
                        if let Some(d2) = dst2 {
                            let o2 = if unk.is_some() || unknown_guard & bit != 0 {
                                None
                            } else {
                                super::transfer::second_scalar(*alu, vals, out)
                            };
                            regs.set(*d2, l, o2, data);
                        }
                    }
                }
            }
            OpKind::PredLogic { op: lop, dst, srcs } => {
                for l in 0..WARP {
                    let bit = 1u32 << l;
                    if (exec | unknown_guard) & bit == 0 {
                        continue;
                    }
                    let a = srcs
                        .first()
                        .map(|s| lane_src(regs, w, s, l))
                        .unwrap_or(Err(false));
                    let b = srcs
                        .get(1)
                        .map(|s| lane_src(regs, w, s, l))
                        .unwrap_or(Ok(0));
                    let out = match (a, b) {
                        _ if unknown_guard & bit != 0 => None,
                        (Ok(a), Ok(b)) => {
                            let (a, b) = (a != 0, b != 0);
                            Some(match *lop {
                                "and" => a && b,
                                "or" => a || b,
                                "xor" => a ^ b,
                                "not" => !a,
                                _ => a,
                            } as i64)
                        }
                        // One known operand decides `and` (false) and `or`
                        // (true) whatever the other: a lane test combined
                        // with a loaded one (`lane == 0 && a[i]`).
                        (Ok(x), _) | (_, Ok(x)) if *lop == "and" && x == 0 => Some(0),
                        (Ok(x), _) | (_, Ok(x)) if *lop == "or" && x != 0 => Some(1),
                        _ => None,
                    };
                    let data = matches!(a, Err(true)) || matches!(b, Err(true));
                    regs.set(*dst, l, out, data);
                }
            }
            OpKind::LdParam {
                dsts,
                param,
                elem_bytes,
            } => {
                for (k, d) in dsts.iter().enumerate() {
                    let loc = crate::ir::ld_param_element(*param, *elem_bytes, k);
                    let v = param_value(w.inputs, loc);
                    for l in 0..WARP {
                        if (exec | unknown_guard) & (1 << l) != 0 {
                            regs.set(*d, l, v, false);
                        }
                    }
                }
            }
            OpKind::Mem { info, dsts } => {
                let plain = matches!(
                    info.kind,
                    MemKind::Plain | MemKind::Atomic | MemKind::Reduction
                );
                // Lanes of a predicated block whose guard is unknown there
                // (`MaybeRegion`), and lanes whose own guard is unknown:
                // the latter only on loaded data.
                let region_unc = region.map_or(0, |rg| unknown_guard & rg.maybe);
                let guard_unc = unknown_guard & !region_unc;
                if (unknown_guard != 0 && !plain) || (guard_unc != 0 && !unknown_guard_data) {
                    return Err(why("the guard of a memory access", unknown_guard_data));
                }
                // Lanes whose own guard is not known, and lanes whose way to
                // here is not known (a branch sent them both ways, or an
                // exit may have ended them), take part as uncertain lanes
                // (plain accesses; other kinds count the latter as taking
                // part).
                let uncertain = unknown_guard | if plain { maybe_here & exec } else { 0 };
                // Lanes whose own (or predicated region's) guard is unknown
                // loaded data: the request issues whichever of them take
                // part. (A guard on a parameter not given is the same in
                // every lane: they all take part or none.)
                let predicated = if unknown_guard_data {
                    unknown_guard & uncertain
                } else {
                    0
                };
                let space = spaces.get(&minpc).copied().unwrap_or(info.space);
                // A load ptxas moves below the tail exit whose guard is not
                // known here: its request is recorded when the warp reaches
                // the tail (`memops::sunk_deferred`), with the tail's lanes.
                let deferred = ifconv.is_deferred(low, minpc);
                if exec | uncertain != 0 {
                    for &d in ifconv.deferred_to(low, minpc) {
                        if let OpKind::Mem { info: di, .. } = &low.ops[d as usize].kind {
                            let ds = spaces.get(&d).copied().unwrap_or(di.space);
                            record_mem(
                                res,
                                d,
                                di,
                                regs,
                                w,
                                (exec | uncertain, uncertain, predicated),
                                ds,
                                shapes,
                            );
                        }
                    }
                }
                if deferred {
                    // Recorded at the tail (above).
                } else if exec | uncertain != 0 {
                    record_mem(
                        res,
                        minpc,
                        info,
                        regs,
                        w,
                        (exec | uncertain, uncertain, predicated),
                        space,
                        shapes,
                    );
                } else if super::memops::guard_off_issues(low, minpc as usize) {
                    // Issued with the guard off in every lane: a request
                    // that moves nothing (Nsight counts it).
                    let e = res.stats.entry(minpc).or_default();
                    e.requests += 1;
                    e.off_requests += 1;
                    e.wavefront_requests += 1;
                }
                let is_data_result = !info.no_result;
                // A plain load of 32-bit or wider elements names what each
                // certain lane read (`tagged`): lanes of one address share it.
                let names = info.kind == MemKind::Plain
                    && info.op == AccessOp::Load
                    && info.elem_bits >= 32
                    && !info.elem_float;
                for l in 0..WARP {
                    let bit = 1u32 << l;
                    if (exec | uncertain) & bit != 0 && is_data_result {
                        // A lane whose own guard is not known but named
                        // (and whose way here is known) keeps a name too:
                        // the loaded value or the old one, as the guard says
                        // (`tagged::guarded_load_tag`).
                        let named_guard = match guard {
                            Some((g, neg))
                                if names
                                    && own_unknown & bit != 0
                                    && (uncertain & !own_unknown) & bit == 0 =>
                            {
                                regs.tagged(&Src::Reg(g, 0), l).map(|t| (t, neg))
                            }
                            _ => None,
                        };
                        // A lane whose way here is not known but whose
                        // own guard is (a loop on loaded data's trips, an
                        // `if` on loaded data) is named too: on this path it
                        // reads what its address holds, and what it writes
                        // here becomes unknown where the paths meet.
                        let addr = if names && (unknown_guard & bit == 0 || named_guard.is_some()) {
                            tagged::named(regs, w, &info.addr, l)
                        } else {
                            None
                        };
                        for (k, d) in dsts.iter().enumerate() {
                            match (addr, named_guard) {
                                (Some(a), None) => {
                                    regs.set_tagged(*d, l, tagged::load_tag(minpc, k, *used, a))
                                }
                                (Some(a), Some((g, neg))) => {
                                    match tagged::named(regs, w, &Src::Reg(*d, 0), l) {
                                        Some(old) => {
                                            let t = tagged::load_tag(minpc, k, *used, a);
                                            regs.set_tagged(
                                                *d,
                                                l,
                                                tagged::guarded_load_tag(g, neg, t, old),
                                            )
                                        }
                                        None => regs.set(*d, l, None, true),
                                    }
                                }
                                _ => regs.set(*d, l, None, true),
                            }
                        }
                    }
                }
                // Local memory: a lane reads back what it stored (`local`).
                let lanes = exec | uncertain;
                if space == Space::Local && info.kind == MemKind::Plain {
                    if info.op == AccessOp::Load && dsts.len() == info.vector as usize {
                        for l in 0..WARP {
                            if lanes & !uncertain & (1 << l) == 0 {
                                continue;
                            }
                            for (k, d) in dsts.iter().enumerate() {
                                if let Some(v) = regs.local.load(regs, w, info, l, k) {
                                    let (v, data) = match v {
                                        Ok(v) => (Some(v), false),
                                        Err(data) => (None, data),
                                    };
                                    regs.set(*d, l, v, data);
                                }
                            }
                        }
                    } else if info.op != AccessOp::Load {
                        let mut local = std::mem::take(&mut regs.local);
                        local.store(regs, w, info, lanes, lanes & !uncertain, true);
                        regs.local = local;
                    }
                } else if info.op != AccessOp::Load && space == Space::Generic {
                    // A generic store may write local memory.
                    let mut local = std::mem::take(&mut regs.local);
                    local.store(regs, w, info, lanes, 0, false);
                    regs.local = local;
                }
            }
            OpKind::Branch { target, .. } => {
                if unknown_guard != 0 {
                    // A forward branch over straight-line code without
                    // memory accesses (a division's guard, a clamp): either
                    // way the warp reaches the target with the same memory
                    // behaviour; what the skipped code writes is unknown.
                    if let Some(t) = target.filter(|t| memory_free_block(low, minpc, t.0)) {
                        for o in &low.ops[next as usize..t.0 as usize] {
                            for d in o.kind.dsts() {
                                for l in 0..WARP {
                                    if active & (1 << l) != 0 {
                                        regs.set(d, l, None, unknown_guard_data);
                                    }
                                }
                            }
                        }
                        jump = Some((active, t.0));
                    } else if let Some(t) = target.filter(|t| {
                        region.is_none() && maybe_here == 0 && ifconv.convertible(low, minpc, t.0)
                    }) {
                        // ptxas predicates the block: every lane runs it,
                        // the unknown ones without knowing whether it takes
                        // effect (their accesses count them as uncertain
                        // lanes at their addresses; their results are
                        // unknown after the block).
                        region_writes.clear();
                        region = Some(MaybeRegion {
                            end: t.0,
                            maybe: unknown_guard,
                            off: exec,
                            data: unknown_guard_data,
                        });
                    } else if let Some(t) = target.filter(|t| {
                        unknown_guard_data && region.is_none() && !recon.retreats(low, minpc, t.0)
                    }) {
                        // A forward branch the warp's known lanes do not
                        // decide: the unknown lanes go both ways, uncertain
                        // on each path (module documentation, "Branches the
                        // simulation cannot decide").
                        split = unknown_guard;
                        res.splits.times += 1;
                        jump = Some((exec | unknown_guard, t.0));
                    } else if let Some(t) = target.filter(|t| {
                        unknown_guard_data && region.is_none() && recon.retreats(low, minpc, t.0)
                    }) {
                        // A back edge on loaded data: the warp's lanes step
                        // over the loop to its exit, the fall-through
                        // (module documentation, "Loops on loaded data").
                        let lp = recon.closed_loop(low, minpc, t.0);
                        skip_loop(low, res, regs, minpc, &lp, active);
                    } else if unknown_guard_data {
                        return Err(why("a loop branch", true));
                    } else {
                        return Err(why("a branch", false));
                    }
                } else if exec != 0 {
                    match target {
                        Some(t) => jump = Some((exec, t.0)),
                        None => {
                            return Err(SimError {
                                stmt: Some(minpc),
                                message: "an indirect branch".to_string(),
                                origin: None,
                            })
                        }
                    }
                }
            }
            OpKind::Exit => {
                if unknown_guard != 0 {
                    if !unknown_guard_data {
                        return Err(why("an exit", false));
                    }
                    // The lanes may or may not leave: they run on,
                    // uncertain from here on.
                    maybe_dead |= unknown_guard;
                    res.splits.times += 1;
                }
                // A lane only maybe on this path leaves the path, not the
                // warp.
                path_exit = exec & path_maybe;
                live &= !(exec & !path_maybe);
            }
            OpKind::Call { .. } => {
                return Err(SimError {
                    stmt: Some(minpc),
                    message: "a call that was not followed (see the kernel's caveats)".to_string(),
                    origin: None,
                });
            }
            OpKind::Other {
                dsts,
                srcs,
                block_wide,
            } => {
                // A barrier reduction's result depends on the other warps
                // of the block, which run on their own here: run-time data,
                // as a loaded value is. So is an instruction not modelled
                // here (`lg2.approx`, `f16` arithmetic) on operands known in
                // a lane, or of which one is data: its result is a run-time
                // value the simulation cannot compute (a masked lane's
                // `other` constant through libdevice's `erfinv`), not a
                // parameter that was not given. An operand unknown for want
                // of a parameter keeps the result so.
                let lanes = exec | unknown_guard;
                let (mut data, mut missing) = (if *block_wide { u32::MAX } else { 0 }, 0u32);
                for s in srcs {
                    let (k, d) = src_masks(regs, w, s);
                    data |= d;
                    missing |= !k & !d;
                }
                let data = data | !missing;
                for d in dsts {
                    regs.set_lanes(*d, lanes, &[0; WARP], 0, data);
                }
            }
        }
        let here = active & live;
        let taken = jump.map_or(0, |(lanes, _)| lanes & here);
        // The lanes that fall through (a split's lanes go both ways).
        let fall = here & !(taken & !split);
        // A divergent branch whose paths may meet before its post-dominator.
        let plan = match jump {
            Some(_)
                if taken != 0
                    && (taken != here || split != 0)
                    && (parking || recon.join(minpc).is_some()) =>
            {
                join_plan(&stack, recon, minpc)
            }
            _ => None,
        };
        let top = stack.last_mut().expect("the running frame");
        if path_maybe != 0 {
            // What uncertain lanes write on this path is unknown once the
            // paths meet again (`join_dirty`).
            let wrote = (exec | unknown_guard) & path_maybe;
            if wrote != 0 {
                for d in op.kind.dsts() {
                    mark_dirty(&mut top.dirty, d, wrote);
                }
            }
        }
        top.mask &= !path_exit;
        // Where the lanes go on: the taken ones by the jump, the others to
        // the next op, across a block boundary an edge of the CFG too (a
        // loop's latch may fall through into its header, laid out below).
        let ways = [
            jump.map(|(_, t)| (taken, t, true)),
            (recon.block(next) != recon.block(minpc)).then_some((fall, next, false)),
        ];
        for (lanes, to, by_jump) in ways.into_iter().flatten() {
            let tb = recon.block(to);
            let Some(s) = top.split else {
                break;
            };
            // The split above which the path goes back: the earliest if it
            // does, else the latest.
            let (order, split_pc) = if recon.order(tb) <= s.first.0 {
                s.first
            } else {
                s.last
            };
            if lanes & top.maybe != 0 && top.rpc != Some(tb) && recon.order(tb) <= order {
                // Back to (or above, in the CFG's order) the branch that
                // left these lanes uncertain, before the paths met (a jump
                // to where they meet is no loop, wherever the layout puts
                // that block): a loop whose exit the simulation cannot
                // decide. The path steps over the loop to where its paths
                // meet, outside the loop. The loop is found at the branch
                // that goes back, or, by a fall-through, at the split.
                let lp = recon.closed_loop(low, minpc, to);
                let found = if by_jump { minpc } else { split_pc };
                match top
                    .rpc
                    .filter(|&b| !lp.contains(low, recon, b))
                    .and_then(|b| recon.start(b))
                {
                    Some(exit) => {
                        let lanes = top.mask & live;
                        skip_loop(low, res, regs, found, &lp, lanes);
                        top.pc = exit;
                        continue 'run;
                    }
                    None => return Err(why("the exit of a loop", true)),
                }
            }
        }
        match jump {
            Some((_, t)) if plan.is_some() => {
                // Divergence where the paths may meet before the
                // post-dominator (`reconverge`, "Joins before the
                // post-dominator"; `JoinPlan`). Lanes the branch leaves
                // uncertain are uncertain in every frame up from the one
                // where they certainly meet (the post-dominator's), whose
                // own they are.
                parking = true;
                let at = (recon.order(recon.block(minpc)), minpc);
                let split_at = split_from(top.split, split, at);
                let maybe = top.maybe | split;
                let (inner, own, dirty) = match plan {
                    Some(JoinPlan::Wait { join, start, parks }) => {
                        top.pc = start;
                        if parks {
                            top.parks = true;
                            top.own |= split & top.mask;
                        }
                        (Some(join), split, Vec::new())
                    }
                    Some(JoinPlan::Region {
                        join,
                        start,
                        post,
                        post_start,
                    }) => {
                        let mut f = Frame::new(start, top.mask, Some(post));
                        f.parks = true;
                        f.maybe = maybe & f.mask;
                        f.own = split & f.mask;
                        f.split = split_at.filter(|_| f.maybe != 0);
                        top.pc = post_start;
                        stack.push(f);
                        (Some(join), split, Vec::new())
                    }
                    _ => (top.rpc, top.own | split, std::mem::take(&mut top.dirty)),
                };
                if split != 0 {
                    // Uncertain from the frame that parks at the
                    // post-dominator up (the new one, or the running one).
                    let p = recon.point(minpc).map(|(b, _)| b);
                    let k = stack
                        .iter()
                        .rposition(|f| f.parks && f.rpc == p)
                        .unwrap_or(stack.len() - 1);
                    if !matches!(plan, Some(JoinPlan::Region { .. })) {
                        stack[k].own |= split & stack[k].mask;
                    }
                    for f in &mut stack[k..] {
                        f.maybe |= split & f.mask;
                        if f.maybe != 0 {
                            f.split = split_from(f.split, f.maybe, at);
                        }
                    }
                }
                let child = |pc: u32, mask: u32, dirty: Vec<(u32, u32)>| {
                    Frame::path(pc, mask, inner, (maybe, own, split_at), dirty)
                };
                let taken_frame = child(t, taken, dirty.clone());
                if matches!(plan, Some(JoinPlan::Shared)) {
                    *stack.last_mut().expect("the running frame") = child(next, fall, dirty);
                } else {
                    stack.push(child(next, fall, dirty));
                }
                push_taken(&mut stack, low.rank(t) < low.rank(next), taken_frame);
            }
            Some((_, t)) if taken != 0 && (taken != here || split != 0) => {
                // Divergence: the paths run one after the other (the one
                // first in the code layout first) until they meet at the
                // branch's immediate post-dominator.
                let point = recon.point(minpc);
                let rpc = point.map(|(b, _)| b);
                let at = (recon.order(recon.block(minpc)), minpc);
                let split_at = split_from(top.split, split, at);
                let maybe = top.maybe | split;
                let child = |pc: u32, mask: u32, own: u32, dirty: Vec<(u32, u32)>| {
                    Frame::path(pc, mask, rpc, (maybe, own, split_at), dirty)
                };
                let (own, dirty) = if rpc == top.rpc {
                    // The enclosing frame already waits there: its paths
                    // share its split.
                    (top.own | split, std::mem::take(&mut top.dirty))
                } else {
                    (split, Vec::new())
                };
                if rpc == top.rpc {
                    *top = child(next, fall, own, dirty.clone());
                } else {
                    top.pc = point.map_or(n, |(_, start)| start);
                    stack.push(child(next, fall, own, Vec::new()));
                }
                let taken_frame = child(t, taken, own, dirty);
                push_taken(&mut stack, low.rank(t) < low.rank(next), taken_frame);
            }
            Some((_, t)) if taken != 0 => {
                // Every lane skips the block: where ptxas predicates the
                // block instead of branching, its accesses still issue.
                if taken == here {
                    for &i in ifconv.accesses(low, minpc, t) {
                        let e = res.stats.entry(i).or_default();
                        e.requests += 1;
                        e.off_requests += 1;
                        e.wavefront_requests += 1;
                    }
                }
                top.pc = t;
            }
            _ => {
                // Every lane falls through a diamond's branch: ptxas
                // predicates both arms, the taken one issues with no lane.
                if here != 0
                    && unknown_guard == 0
                    && op.guard.is_some()
                    && matches!(
                        op.kind,
                        OpKind::Branch {
                            target: Some(_),
                            ..
                        }
                    )
                {
                    for &i in ifconv.fall_through(low, minpc) {
                        let e = res.stats.entry(i).or_default();
                        e.requests += 1;
                        e.off_requests += 1;
                        e.wavefront_requests += 1;
                    }
                }
                top.pc = next
            }
        }
    }
    Ok(())
}

/// One lane's result of a lane-wise integer, predicate or float
/// instruction over known operands (`None`: not defined exactly), as
/// `run_warp` computes it: for [`exits`], which evaluates block-uniform
/// values once a block. `eval_scalar` is reached through an opaque
/// pointer, so that this second caller does not change how the compiler
/// inlines it into `run_warp` (measured: 9% slower agreement suites when
/// both called it directly).
fn alu_value(alu: super::transfer::Alu, vals: &[i64]) -> Option<i64> {
    match alu.op {
        // A malformed `setp` without operands (sema reports it) computes
        // nothing.
        AluOp::Setp(_, _) if vals.is_empty() => None,
        AluOp::Setp(cmp, comb) => compare_checked(cmp, alu.ty, vals[0], *vals.get(1).unwrap_or(&0))
            .map(|mut b| {
                if let Some(c) = comb {
                    let q = vals.get(2).copied().unwrap_or(0) != 0;
                    b = match c {
                        super::transfer::AluOp2::And => b && q,
                        super::transfer::AluOp2::Or => b || q,
                        super::transfer::AluOp2::Xor => b ^ q,
                    };
                }
                b as i64
            }),
        AluOp::Mapa if vals.len() >= 2 => mapa_window(vals[0], vals[1], alu.ty.bits),
        AluOp::Selp if vals.is_empty() => None,
        AluOp::Selp => {
            let p = vals.get(2).copied().unwrap_or(0);
            Some(if p != 0 {
                vals[0]
            } else {
                *vals.get(1).unwrap_or(&0)
            })
        }
        _ => {
            let f: fn(super::transfer::Alu, &[i64]) -> Option<i64> =
                std::hint::black_box(eval_scalar);
            f(alu, vals)
        }
    }
}

/// Lanes of `exec` whose `addr` is known (values in the first), and those
/// whose address depends on loaded data.
fn lane_addrs(regs: &Regs, w: &Warp<'_>, addr: &Src, exec: u32) -> (Lanes, u32, u32) {
    let mut addrs = [0i64; WARP];
    let mut known = 0u32;
    let mut data_lanes = 0u32;
    for (l, a) in addrs.iter_mut().enumerate() {
        if exec & (1 << l) == 0 {
            continue;
        }
        match lane_src(regs, w, addr, l) {
            Ok(v) => {
                *a = v;
                known |= 1 << l;
            }
            Err(d) => {
                if d {
                    data_lanes |= 1 << l;
                }
            }
        }
    }
    (addrs, known, data_lanes)
}

/// Records one request of a memory instruction executed by the lanes `exec`
/// (see `memops` for the rules of each kind).
#[allow(clippy::too_many_arguments)]
fn record_mem(
    res: &mut SimResult,
    stmt: u32,
    info: &MemInfo,
    regs: &Regs,
    w: &Warp<'_>,
    (exec, uncertain, predicated): (u32, u32, u32),
    space: Space,
    shapes: &mut Shapes<'_>,
) {
    // A warp copy's lanes exchange distinct words (no RED merging rule):
    // its sectors are those of the bytes it spans.
    let unused = (info.no_result || !info.result_used) && !info.warp_copy();
    // One copy per warp (`tensormap.cp_fenceproxy`): its lowest executing
    // lane moves it all (`memops`).
    let (exec, uncertain, predicated) = if info.warp_copy() {
        let low = exec & exec.wrapping_neg();
        (low, uncertain & low, predicated & low)
    } else {
        (exec, uncertain, predicated)
    };
    match info.kind {
        MemKind::BulkCopy | MemKind::TensorOperand => {
            // The copy engine / tensor cores: executions, no LSU traffic; a
            // `wgmma` request carries a quarter of its operands' wavefronts
            // (`cost::tensor_operand`). A PTX bulk copy is one request per
            // executing lane: each lane's copy is its own instruction
            // (ptxas loops `UBLKCP` over the lanes; `tests/hw/blind7`:
            // `barrier_tile_copy`, 250,000 executions for 250,000 threads).
            // A SASS `UBLKCP`/`UTMALDG`… (no PTX bulk facts) is already one
            // uniform instruction of that loop: one request a warp.
            let e = res.stats.entry(stmt).or_default();
            e.requests += if info.kind == MemKind::BulkCopy && info.bulk().is_some() {
                u64::from(exec.count_ones().max(1))
            } else {
                1
            };
            e.lanes += exec.count_ones() as u64;
            // A 1-D copy between global and shared memory: the sectors the
            // copy engine moves, lane by lane (`cost::bulk_copy`).
            if let (Some(b), Some(other)) = (info.bulk(), info.aux(Aux::OtherAddr)) {
                let load = b.source == "global" && b.destination.starts_with("shared");
                let store = b.destination == "global" && b.source.starts_with("shared");
                // A multicast copy writes the same offset of every CTA in
                // its `ctaMask`, and each destination's SM receives the
                // sectors (`ir::BulkFacts::multicast_ctas`).
                let mask = info.aux(Aux::CtaMask);
                if b.tensor_dims.is_none() && (load || store) {
                    // The access's address is the destination.
                    let (shared, global) = if load {
                        (&info.addr, other)
                    } else {
                        (other, &info.addr)
                    };
                    let size = info.aux(Aux::Size);
                    for l in (0..WARP).filter(|l| exec & (1 << l) != 0) {
                        let n = match (b.bytes, size) {
                            (Some(n), _) => Ok(n as i64),
                            (None, Some(s)) => lane_src(regs, w, s, l),
                            (None, None) => Err(false),
                        };
                        let ctas = match (b.multicast, mask) {
                            (false, _) => Ok(1),
                            (true, Some(m)) => lane_src(regs, w, m, l).and_then(|m| {
                                super::memops::multicast_ctas(m, w.cluster_dim)
                                    .map(u64::from)
                                    .ok_or(false)
                            }),
                            (true, None) => Err(false),
                        };
                        match (
                            lane_src(regs, w, shared, l),
                            lane_src(regs, w, global, l),
                            n,
                            ctas,
                        ) {
                            (Ok(s), Ok(g), Ok(n), Ok(c)) if n > 0 => {
                                e.copy_sectors +=
                                    c * super::cost::bulk_copy::sectors(s, g, n as u64)
                            }
                            _ => e.copy_sectors_missing += 1,
                        }
                    }
                }
            }
            if let Some(b) = info.operand_bytes() {
                e.wavefronts += super::cost::tensor_operand::wavefronts_per_request(b);
                e.wavefront_requests += 1;
            }
        }
        MemKind::MatrixLoad | MemKind::MatrixStore => {
            let rows = info
                .matrix()
                .map(super::cost::matrix::row_lanes)
                .unwrap_or(u32::MAX);
            let exec = exec & rows;
            let (addrs, known, data) = lane_addrs(regs, w, &info.addr, exec);
            record(
                res,
                stmt,
                None,
                &addrs,
                (exec, 0, 0),
                known,
                data,
                128,
                Space::Shared,
                info.op,
                unused,
                None,
                SharedAtomicForm::Native,
            );
        }
        MemKind::AsyncCopy => {
            // Lanes that only zero-fill read nothing from global memory.
            let mut fill = 0u32;
            for (aux, src) in info.aux_operands() {
                if !matches!(aux, Aux::SrcSize | Aux::IgnoreSrc) {
                    continue;
                }
                for l in 0..WARP {
                    if exec & (1 << l) == 0 {
                        continue;
                    }
                    match (aux, lane_src(regs, w, src, l)) {
                        (Aux::SrcSize, Ok(0)) => fill |= 1 << l,
                        (Aux::IgnoreSrc, Ok(v)) if v != 0 => fill |= 1 << l,
                        _ => {}
                    }
                }
            }
            let dst = info
                .aux(Aux::SharedDst)
                .map(|d| lane_addrs(regs, w, d, exec));
            let shared = dst.as_ref().map(|(a, k, _)| (a, *k));
            let reading = exec & !fill;
            // Every executing lane's source address (`LDGSTS.ZFILL` uses
            // them all); the global side counts the reading lanes.
            let (mut addrs, mut known_all, data) = lane_addrs(regs, w, &info.addr, exec);
            let form = super::cost::async_copy::CopyForm {
                cached: info.cache.cache_op == Some(crate::ir::CacheOp::Ca),
                zfill: info.zero_fill(),
            };
            let bytes = info.bits.div_ceil(8).max(1);
            // Sources at loaded values that lanes share (`tagged`): the
            // groups placed far apart, under the LDGSTS rules, where the
            // cost does not depend on where in its line each group falls
            // (two placements, at equal and at spread residues, agree).
            if known_all != exec {
                if let (Some(g), Some((d, dk))) =
                    (tagged::groups(regs, &info.addr, exec & !known_all), shared)
                {
                    let (a, b) = (
                        tagged::placed(&addrs, &g, bytes, false),
                        tagged::placed(&addrs, &g, bytes, true),
                    );
                    let cost = |x: &Lanes| {
                        super::cost::async_copy::ldgsts_cost(x, reading, d, exec, bytes, form)
                    };
                    if dk == exec && cost(&a) == cost(&b) {
                        addrs = a;
                        known_all = exec;
                    }
                }
            }
            // Source addresses the simulation does not know otherwise, whose
            // shape the static analysis proved (a gathered row): that
            // shape's figures, and its expected wavefronts over draws.
            let unknown_src = known_all & exec != exec;
            let shaped = if unknown_src && reading != 0 {
                shapes.cost(stmt, reading, bytes)
            } else {
                None
            };
            let drawn_wavefronts = match shared {
                Some((dst, dst_known)) if unknown_src && dst_known == exec => {
                    shapes.wavefronts(stmt, exec, |a| {
                        super::cost::async_copy::ldgsts_cost(a, exec, dst, exec, bytes, form).1
                    })
                }
                _ => None,
            };
            let side = shared.map(|(dst, dst_known)| CopySide {
                dst,
                dst_known,
                lanes: exec,
                form,
                src_known: known_all,
                drawn_wavefronts,
            });
            record(
                res,
                stmt,
                shaped,
                &addrs,
                (reading, 0, 0),
                known_all & reading,
                data & reading,
                info.bits,
                space,
                info.op,
                unused,
                side,
                SharedAtomicForm::Native,
            );
        }
        _ if space == Space::SharedCluster => {
            // Another CTA's shared memory: no L1/L2 sectors (`memops`). The
            // lanes whose address is in the CTA's own window are served by
            // its shared memory (the own-CTA wavefront rules); the others
            // add none to its wavefronts (`tests/hw/blind7`:
            // `dsmem_pair_shift` 0.000 a request, `dsmem_cluster_gather`
            // 0.250: one warp in four reads its own CTA). Not modelled when
            // a lane's target CTA is not known.
            let (addrs, known, _) = lane_addrs(regs, w, &info.addr, exec);
            let e = res.stats.entry(stmt).or_default();
            e.requests += 1;
            e.lanes += u64::from(exec.count_ones());
            let own_rank = w.cluster_rank;
            let targets: Option<Vec<(usize, i64, i64)>> = (0..WARP)
                .filter(|&l| exec & (1 << l) != 0)
                .map(|l| {
                    let (r, off) = window_rank(addrs[l]).filter(|_| known & (1 << l) != 0)?;
                    Some((l, r, off))
                })
                .collect();
            if let (Some(t), Some(own)) = (targets, own_rank) {
                let mut local = [0i64; WARP];
                let mut mask = 0u32;
                for &(l, r, off) in &t {
                    if r == own {
                        local[l] = off;
                        mask |= 1 << l;
                    }
                }
                let bytes = info.bits.div_ceil(8).max(1);
                if mask != 0 {
                    e.wavefronts += if info.op == AccessOp::Load {
                        super::cost::shared_load_wavefronts(&local, mask, bytes)
                    } else {
                        shared_wavefronts(&local, mask, bytes)
                    } as f64;
                }
                e.wavefront_requests += 1;
            }
        }
        _ => {
            let (addrs, known, data) = lane_addrs(regs, w, &info.addr, exec);
            // A lane that may not take part (its guard unknown) is costed at
            // its address as if it takes part, the point estimate; the lower
            // bound leaves it out (`record`). One whose address is unknown
            // too counts as a lane of unknown address.
            // Addresses the simulation does not know, whose shape the static
            // analysis proved (a uniform loaded base, a bounded index).
            // Uncertain lanes take the shape's figures with the others (the
            // point estimate); the lower bounds are those of the certain
            // lanes alone (none when every lane is uncertain).
            let bytes = info.bits.div_ceil(8).max(1);
            // Global addresses at loaded values that lanes share (`tagged`):
            // the groups' figures, the lower bounds of the certain lanes.
            let tagged_cost = if known != exec && space != Space::Shared {
                tagged::groups(regs, &info.addr, exec & !known).map(|g| {
                    let mut c = tagged::cost(&addrs, known, &g, bytes, &mut shapes.groups);
                    if uncertain != 0 {
                        let sure = exec & !uncertain;
                        let low = (sure != 0).then(|| {
                            let g = tagged::restrict(&g, sure);
                            tagged::cost(&addrs, known & sure, &g, bytes, &mut shapes.groups)
                        });
                        c.sectors_min = low.map_or(0.0, |x| x.sectors_min);
                        c.lines_min = low.map_or(0.0, |x| x.lines_min);
                    }
                    // One group of every lane (a loaded base shared by the
                    // warp): its lane offsets' pattern, as for a known base.
                    if let [(_, lanes, offs)] = g.as_slice() {
                        if known == 0 && *lanes == exec {
                            let o0 = offs[exec.trailing_zeros() as usize];
                            let d: Lanes = std::array::from_fn(|l| offs[l].wrapping_sub(o0));
                            let ideal = ideal_sectors(exec.count_ones(), bytes) as f64;
                            let (p, s) = classify(&d, exec, bytes, c.sectors_min, ideal);
                            return (c, p, s);
                        }
                    }
                    (c, Pattern::Random, None)
                })
            } else {
                None
            };
            let shaped = if tagged_cost.is_some() {
                tagged_cost
            } else if known != exec {
                shapes.cost(stmt, exec, bytes).map(|(mut c, p, s)| {
                    if uncertain != 0 {
                        let sure = exec & !uncertain;
                        let low = if sure == 0 {
                            None
                        } else {
                            shapes.cost(stmt, sure, bytes).map(|x| x.0)
                        };
                        c.sectors_min = low.map_or(0.0, |x| x.sectors_min);
                        c.lines_min = low.map_or(0.0, |x| x.lines_min);
                    }
                    (c, p, s)
                })
            } else {
                None
            };
            let form = shared_atomic_form_of(info);
            // Shared addresses drawn from a known set: the expected
            // wavefronts under the same per-request rules.
            let drawn_wavefronts = if space == Space::Shared && known != exec && shaped.is_some() {
                let op = info.op;
                shapes.wavefronts(stmt, exec, |a| {
                    super::cost::shared_request_wavefronts(op, form, a, exec, bytes)
                })
            } else {
                None
            };
            record(
                res,
                stmt,
                shaped,
                &addrs,
                (exec, uncertain, predicated),
                known,
                data,
                info.bits,
                space,
                info.op,
                unused,
                None,
                form,
            );
            if let Some(w) = drawn_wavefronts {
                let e = res.stats.entry(stmt).or_default();
                e.wavefronts += w;
                e.wavefront_requests += 1;
            }
        }
    }
}

/// The results of a cross-lane instruction in every lane (`shfl.sync`,
/// `vote`, `activemask`, `redux.sync`, `match.sync`, `elect.sync`), when its
/// operands are known where needed; data in every lane when a lane's operand
/// is loaded data.
struct Cross {
    out: [Option<i64>; WARP],
    data: u32,
    second: [Option<i64>; WARP],
    /// `shfl.sync`: the executing source lane each lane read, where its
    /// value is loaded data (its tag, if any, moves with it: `tagged`).
    src: [Option<usize>; WARP],
}

fn cross_lane(alu: super::transfer::Alu, g: &[Gathered], exec: u32) -> Option<Cross> {
    use super::crosslane::{shfl_sources, ReduxFold, WarpOp};
    let mut c = Cross {
        out: [None; WARP],
        data: 0,
        second: [None; WARP],
        src: [None; WARP],
    };
    match alu.op {
        AluOp::Shfl(mode) => {
            let (a, b, cc) = (g.first()?, g.get(1)?, g.get(2)?);
            if b.known & cc.known & exec != exec {
                return None;
            }
            let (src, p) = shfl_sources(mode, &b.v, &cc.v);
            for (l, &j) in src.iter().enumerate() {
                if exec & (1 << l) == 0 {
                    continue;
                }
                if a.known & exec & (1 << j) != 0 {
                    c.out[l] = Some(a.v[j]);
                } else if a.data & (1 << j) != 0 {
                    c.data |= 1 << l;
                    if exec & (1 << j) != 0 {
                        c.src[l] = Some(j);
                    }
                }
                c.second[l] = Some(((p >> l) & 1) as i64);
            }
            Some(c)
        }
        AluOp::Warp(op @ (WarpOp::Ballot | WarpOp::Any | WarpOp::All | WarpOp::Uni)) => {
            let p = g.first()?;
            if p.known & exec != exec {
                // A lane's predicate is loaded data: the vote is data too,
                // unless a known lane decides it.
                let t = (0..WARP).any(|l| p.known & exec & (1 << l) != 0 && p.v[l] != 0);
                let f = (0..WARP).any(|l| p.known & exec & (1 << l) != 0 && p.v[l] == 0);
                let v = match op {
                    WarpOp::Any if t => 1,
                    WarpOp::All if f => 0,
                    WarpOp::Uni if t && f => 0,
                    _ => return data_result(c, g.first()?, exec),
                };
                for l in 0..WARP {
                    if exec & (1 << l) != 0 {
                        c.out[l] = Some(v);
                    }
                }
                return Some(c);
            }
            let bits = (0..WARP)
                .filter(|&l| exec & (1 << l) != 0 && p.v[l] != 0)
                .fold(0u32, |m, l| m | (1 << l));
            let v = match op {
                WarpOp::Ballot => bits as i64,
                WarpOp::Any => (bits != 0) as i64,
                WarpOp::All => (bits == exec) as i64,
                _ => (bits == 0 || bits == exec) as i64,
            };
            for l in 0..WARP {
                if exec & (1 << l) != 0 {
                    c.out[l] = Some(v);
                }
            }
            Some(c)
        }
        AluOp::Warp(WarpOp::Redux(r)) => {
            let a = g.first()?;
            if exec == 0 {
                return None;
            }
            if a.known & exec != exec {
                return data_result(c, a, exec);
            }
            let v = r.fold(
                (0..WARP).filter(|&l| exec & (1 << l) != 0).map(|l| a.v[l]),
                alu.ty.signed,
                alu.ty.bits.max(1),
            )?;
            for l in 0..WARP {
                if exec & (1 << l) != 0 {
                    c.out[l] = Some(v);
                }
            }
            Some(c)
        }
        AluOp::Warp(WarpOp::ActiveMask) => {
            for l in 0..WARP {
                if exec & (1 << l) != 0 {
                    c.out[l] = Some(exec as i64);
                }
            }
            Some(c)
        }
        AluOp::Warp(op @ (WarpOp::MatchAny | WarpOp::MatchAll)) => {
            let a = g.first()?;
            if exec == 0 {
                return None;
            }
            if a.known & exec != exec {
                return data_result(c, a, exec);
            }
            // Keys compared at the instruction's width (`.b32`, `.b64`).
            let bits = alu.ty.bits.clamp(1, 64);
            let key = |l: usize| (a.v[l] as u64) & (u64::MAX >> (64 - bits));
            let lanes = (0..WARP).filter(|&l| exec & (1 << l) != 0);
            let same = |l: usize| {
                lanes
                    .clone()
                    .filter(|&j| key(j) == key(l))
                    .fold(0u32, |m, j| m | (1 << j))
            };
            let first = exec.trailing_zeros() as usize;
            let all = same(first) == exec;
            for l in lanes.clone() {
                if op == WarpOp::MatchAny {
                    c.out[l] = Some(i64::from(same(l)));
                } else {
                    c.out[l] = Some(if all { i64::from(exec) } else { 0 });
                    c.second[l] = Some(i64::from(all));
                }
            }
            Some(c)
        }
        AluOp::Warp(WarpOp::Elect) => {
            // The lowest executing lane of the member mask (a uniform
            // constant where it is known), its number in `d`, `p` there.
            let m = match g.first() {
                None => u32::MAX,
                Some(m) if m.known & exec == exec && exec != 0 => {
                    m.v[exec.trailing_zeros() as usize] as u32
                }
                Some(_) => return None,
            };
            let cand = exec & m;
            if cand == 0 {
                return None;
            }
            let leader = cand.trailing_zeros() as usize;
            for l in 0..WARP {
                if exec & (1 << l) != 0 {
                    c.out[l] = Some(leader as i64);
                    c.second[l] = Some((l == leader) as i64);
                }
            }
            Some(c)
        }
        _ => None,
    }
}

/// A vote, reduction or match over lanes some of whose operands are
/// unknown: data where one of them is loaded data (`None`, falling back to
/// the lane-by-lane rule, when they are only missing parameters, so that
/// the simulation names them).
fn data_result(mut c: Cross, a: &Gathered, exec: u32) -> Option<Cross> {
    if a.data & exec & !a.known == 0 {
        return None;
    }
    c.data = exec;
    Some(c)
}

#[allow(clippy::too_many_arguments)]
fn record(
    res: &mut SimResult,
    stmt: u32,
    shaped: Option<(CostRange, Pattern, Option<i64>)>,
    addrs: &Lanes,
    (exec, uncertain, predicated): (u32, u32, u32),
    known: u32,
    data_lanes: u32,
    bits: u32,
    space: Space,
    op: AccessOp,
    unused_result: bool,
    shared_side: Option<CopySide<'_>>,
    atomic_form: SharedAtomicForm,
) {
    let bytes = bits.div_ceil(8).max(1);
    if let Some(f) = &mut res.firsts {
        let lanes = known & exec;
        if lanes != 0 {
            let l = lanes.trailing_zeros();
            f.entry(stmt).or_insert((l, addrs[l as usize]));
        }
    }
    let e = res.stats.entry(stmt).or_default();
    let active = exec.count_ones();
    e.requests += 1;
    let mut ldgsts = None;
    match shared_side {
        // cp.async: every executing lane writes its destination; with every
        // address known, the measured LDGSTS rules (`cost::async_copy`).
        Some(side) => {
            let (dst, lanes) = (side.dst, side.lanes);
            e.lanes += lanes.count_ones() as u64;
            // The wavefronts follow every executing lane's source address
            // (zero-filling lanes included, `cost::async_copy`).
            let src_ok = side.src_known == lanes;
            if side.dst_known == lanes && src_ok {
                let (c, w) =
                    super::cost::async_copy::ldgsts_cost(addrs, exec, dst, lanes, bytes, side.form);
                e.wavefronts += w as f64;
                e.wavefront_requests += 1;
                if known == exec {
                    ldgsts = Some(c);
                }
            } else if let (true, Some(w)) = (side.dst_known == lanes, side.drawn_wavefronts) {
                e.wavefronts += w;
                e.wavefront_requests += 1;
            }
        }
        None => {
            e.lanes += active as u64;
            if space == Space::Shared && known == exec {
                // Shared atomics serve lanes on one word one by one.
                let wf = |m: u32| {
                    if op == AccessOp::Atomic {
                        super::cost::shared_atomic::wavefronts(addrs, m, bytes, atomic_form)
                    } else if op == AccessOp::Load {
                        super::cost::shared_load_wavefronts(addrs, m, bytes)
                    } else {
                        shared_wavefronts(addrs, m, bytes)
                    }
                };
                // Predicated lanes that may not take part: the expectation
                // over the sets of lanes that do (`cost::participation_masks`).
                e.wavefronts += if predicated & exec != 0 {
                    let key = (op as u16) << 4 | atomic_form as u16;
                    participation_mean(addrs, exec, predicated, bytes, key, |m| wf(m) as f64)
                } else {
                    wf(exec) as f64
                };
                e.wavefront_requests += 1;
            }
        }
    }
    if space == Space::SharedCluster {
        // Another CTA's shared memory: no L1/L2 sectors (`memops`).
        return;
    }
    e.ideal += ideal_sectors(active, bytes) as f64;
    if exec == 0 {
        // Only zero-filling lanes: nothing read.
        e.empty_requests += 1;
        return;
    }
    if let Some((c, pattern, stride)) = shaped {
        // Addresses unknown to the simulation, whose shape the static
        // analysis knows: its figures for this request's lanes.
        e.lines += c.lines;
        e.sectors += c.sectors;
        e.kernel_sectors += c.sectors;
        e.sectors_min += c.sectors_min;
        e.sectors_max += c.sectors_max;
        e.lines_min += c.lines_min;
        e.lines_max += c.lines_max;
        if let Some(s) = stride {
            *e.strides.entry(s).or_default() += 1;
        }
        *e.patterns.entry(pattern).or_default() += 1;
        return;
    }
    let c = ldgsts.unwrap_or_else(|| request_cost(addrs, known, bytes));
    let unknown = (exec & !known).count_ones();
    let per = element_sectors(bytes) as f64;
    let lines_per = (bytes as f64 / 128.0).ceil().max(1.0);
    // ptxas turns an atomic whose result is unused into RED, whose lanes on one
    // address are not merged by the kernel-level counter; an atomic whose
    // result is used to one address is aggregated to a single lane.
    let red = op == AccessOp::Atomic && unused_result;
    if known == exec && ldgsts.is_none() && predicated & exec != 0 {
        // Every address known, some predicated lanes may not take part:
        // the expectation over the sets of lanes that do
        // (`cost::participation_masks`); the bounds below stay those of
        // the certain lanes and of every lane.
        let lines = participation_mean(addrs, exec, predicated, bytes, 0x100, |m| {
            request_cost(addrs, m, bytes).lines as f64
        });
        let sectors = participation_mean(addrs, exec, predicated, bytes, 0x101, |m| {
            request_cost(addrs, m, bytes).sectors as f64
        });
        e.lines += lines;
        e.sectors += sectors;
        e.kernel_sectors += if red {
            participation_mean(addrs, exec, predicated, bytes, 0x102, |m| {
                atomic_sectors(addrs, m, bytes) as f64
            })
        } else {
            sectors
        };
    } else {
        e.lines += c.lines as f64 + unknown as f64 * lines_per;
        e.sectors += c.sectors as f64 + unknown as f64 * per;
        e.kernel_sectors += if red {
            atomic_sectors(addrs, known, bytes) as f64 + unknown as f64 * per
        } else {
            c.sectors as f64 + unknown as f64 * per
        };
    }
    e.sectors_max += c.sectors as f64 + unknown as f64 * per;
    e.lines_max += c.lines as f64 + unknown as f64 * lines_per;
    // The lower bound: without the lanes that may not take part (none at
    // all when every lane may not).
    let low = if uncertain == 0 {
        c
    } else {
        request_cost(addrs, known & !uncertain, bytes)
    };
    let floor = |x: u32, one: f64| match x {
        0 if exec & !uncertain == 0 => 0.0,
        0 => one,
        x => x as f64,
    };
    e.lines_min += floor(low.lines, lines_per);
    e.sectors_min += floor(low.sectors, per);
    let pattern = if unknown > 0 || data_lanes != 0 {
        if data_lanes != 0 {
            Pattern::Random
        } else {
            Pattern::Unknown
        }
    } else {
        let base = addrs[exec.trailing_zeros() as usize];
        let d: Lanes = std::array::from_fn(|l| addrs[l].wrapping_sub(base));
        let (p, stride) = classify(
            &d,
            exec,
            bytes,
            c.sectors as f64,
            ideal_sectors(active, bytes) as f64,
        );
        if let Some(s) = stride {
            *e.strides.entry(s).or_default() += 1;
        }
        p
    };
    *e.patterns.entry(pattern).or_default() += 1;
}

/// The key of [`PARTICIPATION_MEMO`]: the lanes' addresses less their
/// first active lane's line, the executing and uncertain lanes, the bytes
/// per lane, and which cost (`what`).
type ParticipationKey = (Lanes, u32, u32, u32, u16);

/// Entries [`PARTICIPATION_MEMO`] keeps per thread before it starts over.
const PARTICIPATION_MEMO_LIMIT: usize = 4096;

thread_local! {
    /// Warps of a block repeat one lane pattern request after request (a
    /// bitonic step, a histogram flush): the expectation over the sets of
    /// participating lanes is computed once per pattern and thread.
    static PARTICIPATION_MEMO: std::cell::RefCell<crate::util::FastMap<ParticipationKey, f64>> =
        std::cell::RefCell::default();
}

/// The mean of `cost` over the sets of lanes that take part in a request
/// of the lanes `exec` of which `uncertain` may not
/// ([`super::cost::over_participation`]), memoised: `cost` must depend only
/// on the addresses relative to a line (line, sector and bank figures do)
/// and on `what`, which names it.
fn participation_mean(
    addrs: &Lanes,
    exec: u32,
    uncertain: u32,
    bytes: u32,
    what: u16,
    cost: impl FnMut(u32) -> f64,
) -> f64 {
    let uncertain = uncertain & exec;
    let first = exec.trailing_zeros().min(31) as usize;
    let base = addrs[first].wrapping_sub(addrs[first].rem_euclid(128));
    let rel: Lanes = std::array::from_fn(|l| {
        if exec & (1 << l) != 0 {
            addrs[l].wrapping_sub(base)
        } else {
            0
        }
    });
    let key: ParticipationKey = (rel, exec, uncertain, bytes, what);
    if let Some(v) = PARTICIPATION_MEMO.with(|m| m.borrow().get(&key).copied()) {
        return v;
    }
    let v = super::cost::over_participation(exec & !uncertain, uncertain, cost);
    PARTICIPATION_MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= PARTICIPATION_MEMO_LIMIT {
            m.clear();
        }
        m.insert(key, v);
    });
    v
}

/// Sectors of an atomic request as the kernel-level counter counts them: per
/// sector, the largest number of lanes on one address (same-address lanes are
/// not merged). Measured on the H100: three `red.global.add.f32` per warp to
/// consecutive, per-warp and per-grid addresses count 4 + 32 + 32 sectors
/// (`tests/hw/measured.json`, `atomic_add_f32`, `red_asm_f32`).
pub fn atomic_sectors(addrs: &Lanes, active: u32, bytes: u32) -> u32 {
    let _ = bytes;
    let mut v: Vec<(i64, i64)> = (0..WARP)
        .filter(|l| active & (1 << l) != 0)
        .map(|l| (addrs[l].div_euclid(32), addrs[l]))
        .collect();
    v.sort_unstable();
    let mut total = 0u32;
    let mut i = 0;
    while i < v.len() {
        let sector = v[i].0;
        let mut best = 0u32;
        while i < v.len() && v[i].0 == sector {
            let a = v[i].1;
            let mut k = 0u32;
            while i < v.len() && v[i] == (sector, a) {
                k += 1;
                i += 1;
            }
            best = best.max(k);
        }
        total += best;
    }
    total
}

/// Requests and sectors of one operation kind.
pub fn op_of(low: &Lowered<'_>, stmt: u32) -> Option<AccessOp> {
    match &low.ops.get(stmt as usize)?.kind {
        OpKind::Mem { info, .. } => Some(info.op),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_parallel_evaluation_is_the_per_lane_rule() {
        use crate::analysis::transfer::{Cmp, MulMode, Ty};
        // Every operation `eval_lanes` writes out, on every integer type,
        // against `eval_lane` lane by lane, on operands around the type's
        // edges, shift amounts past the width and offsets that wrap.
        let edges = [
            0i64,
            1,
            -1,
            7,
            31,
            32,
            33,
            63,
            64,
            127,
            255,
            0x7fff,
            0x8000,
            0xffff,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            0x1_0000_0000,
            i64::MAX,
            i64::MIN,
            -0x1234_5678_9abc,
        ];
        let ops = [
            AluOp::Mov,
            AluOp::Cvt(Ty {
                bits: 16,
                signed: true,
                float: false,
            }),
            AluOp::Cvt(Ty {
                bits: 32,
                signed: false,
                float: false,
            }),
            AluOp::Add,
            AluOp::Sub,
            AluOp::Mul(MulMode::Lo),
            AluOp::Mad(MulMode::Lo),
            AluOp::And,
            AluOp::Or,
            AluOp::Xor,
            AluOp::Shl,
            AluOp::Shr,
            AluOp::Setp(Cmp::Lt, None),
            AluOp::Setp(Cmp::Ge, None),
            AluOp::Lop3,
        ];
        let regs: Vec<Lanes> = (0..4)
            .map(|k| std::array::from_fn(|l| edges[(l * (k + 3) + k) % edges.len()]))
            .collect();
        let offs = [0i64, 5, -1, 0x7fff_ffff];
        let mut compared = 0;
        for bits in [8, 16, 32, 64] {
            for signed in [false, true] {
                let ty = Ty {
                    bits,
                    signed,
                    float: false,
                };
                for op in ops {
                    let alu = Alu { op, ty };
                    let g: Vec<LaneVals<'_>> = (0..4)
                        .map(|k| match k {
                            3 if op == AluOp::Lop3 => LaneVals::Same(0xe8),
                            1 if op == AluOp::Mov => LaneVals::Same(-3),
                            _ => LaneVals::Lanes(&regs[k], offs[k]),
                        })
                        .collect();
                    let all = eval_lanes(alu, &g).expect("written out");
                    for (l, got) in all.iter().enumerate() {
                        let vals: Vec<i64> = g.iter().map(|x| x.at(l)).collect();
                        assert_eq!(Some(*got), eval_lane(alu, &vals), "{alu:?} lane {l}");
                        compared += 1;
                    }
                }
            }
        }
        assert_eq!(compared, 8 * ops.len() * WARP);
    }

    #[test]
    fn cluster_ranks_and_windows() {
        // PTX ISA: %cluster_ctarank is the linear index in the cluster, x fastest.
        assert_eq!(cluster_rank([5, 0, 0], [2, 1, 1]), 1);
        assert_eq!(cluster_rank([4, 0, 0], [4, 1, 1]), 0);
        assert_eq!(cluster_rank([3, 1, 0], [2, 2, 1]), 3);
        // a shared variable's synthetic address in CTA 3's window and back
        let a = (2i64 << VAR_SHIFT) + 124;
        let w = mapa_window(a, 3, 64).expect("window");
        assert_eq!(window_rank(w), Some((3, a)));
        assert_eq!(window_rank(a), None);
        assert_eq!(mapa_window(a, -1, 64), None);
        // the 32-bit form: below the sign bit of a 32-bit register
        let w = mapa_window(a, 1, 32).expect("window");
        assert!(w < 1 << 31);
        assert_eq!(window_rank(w), Some((1, a)));
        assert_eq!(mapa_window(a, 15, 32), None);
        assert_eq!(mapa_window(1 << 27, 0, 32), None);
        // the last variable below the 32-bit window is not read as a
        // mapa'd address (before, variables from the eighth on were)
        let last = (511i64 << VAR_SHIFT) + 4;
        assert_eq!(window_rank(last), None);
        assert!(window_rank((512i64 << VAR_SHIFT) + 4).is_some());
    }

    #[test]
    fn reductions_count_same_address_lanes() {
        // tests/hw/measured.json, red_asm_f32: 4 + 32 + 32 sectors per warp.
        let consecutive: Lanes = std::array::from_fn(|l| 4 * l as i64);
        assert_eq!(atomic_sectors(&consecutive, u32::MAX, 4), 4);
        assert_eq!(atomic_sectors(&[64; WARP], u32::MAX, 4), 32);
        assert_eq!(atomic_sectors(&[64; WARP], 0b1011, 4), 3);
        // two addresses in one sector: the larger group counts
        let two: Lanes = std::array::from_fn(|l| if l < 20 { 0 } else { 4 });
        assert_eq!(atomic_sectors(&two, u32::MAX, 4), 20);
    }

    #[test]
    fn fall_through_cases_meet_at_their_labels() {
        // tests/fixtures/analysis/switch_fallthrough.ptx: one warp; each
        // case's load issues once, with the lanes that reach its label by
        // the branch and by the fall-through (`reconverge`, "Joins before
        // the post-dominator"); per path it would be 1 + 2 + 3.
        let text = include_str!("../../../tests/fixtures/analysis/switch_fallthrough.ptx");
        let file = crate::source::SourceFile::new("t.ptx", text.to_string()).unwrap();
        let mut o = crate::analysis::Options::default();
        o.launch.grid = Some([1, 1, 1]);
        o.launch.block = Some([32, 1, 1]);
        let a = crate::analyze(&file, &o);
        let known = a.kernels[0].totals.as_ref().expect("totals");
        assert_eq!((known.load_requests, known.store_requests), (3, 1));
        // Case 3: tid = 3, 7, .., 31 at 4 tid + 8 (bytes 20 .. 132: sectors
        // 0 .. 4); case 2: tid = 2, 3, 6, 7, .. at 4 tid + 4 (12 .. 128: 0 ..
        // 4); case 1: every tid but 0, 4, .. at 4 tid (4 .. 124: 0 .. 3).
        assert_eq!(known.load_sectors, 5 + 5 + 4);
        // The cases decided by loaded data: the index load, then each case
        // once with its lanes uncertain.
        let loaded = a.kernels[1].totals.as_ref().expect("totals");
        assert_eq!((loaded.load_requests, loaded.store_requests), (4, 1));
    }

    #[test]
    fn a_lane_test_decides_its_conjunction_with_loaded_data() {
        // `if ((tid & 31) == 0 && a[tid] != 0) out[tid] = a[tid]` in the two
        // forms compilers give it: `or.pred` of the negated tests (a branch
        // around the store), and `setp.ne.and` with the lane test. Only lane
        // 0 of a warp may store: the other lanes' tests decide alone.
        let text = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry or_pred(.param .u64 p, .param .u64 o)
{
	.reg .pred %p<4>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [p];
	ld.param.u64 %rd4, [o];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	ld.global.u32 %r2, [%rd3];
	and.b32 %r3, %r1, 31;
	setp.ne.s32 %p1, %r3, 0;
	setp.eq.s32 %p2, %r2, 0;
	or.pred %p3, %p1, %p2;
	@%p3 bra $DONE;
	add.s64 %rd5, %rd4, %rd2;
	st.global.u32 [%rd5], %r2;
$DONE:
	ret;
}
.visible .entry setp_and(.param .u64 p, .param .u64 o)
{
	.reg .pred %p<4>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [p];
	ld.param.u64 %rd4, [o];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	ld.global.u32 %r2, [%rd3];
	and.b32 %r3, %r1, 31;
	setp.eq.s32 %p1, %r3, 0;
	setp.ne.and.s32 %p3, %r2, 0, %p1;
	add.s64 %rd5, %rd4, %rd2;
	@%p3 st.global.u32 [%rd5], %r2;
	ret;
}
"#;
        let file = crate::source::SourceFile::new("t.ptx", text.to_string()).unwrap();
        let mut o = crate::analysis::Options::default();
        o.launch.grid = Some([1, 1, 1]);
        o.launch.block = Some([256, 1, 1]);
        let a = crate::analyze(&file, &o);
        for k in &a.kernels {
            let t = k.totals.as_ref().expect("totals");
            // 8 warps: the loads' 32 sectors, then at most lane 0's store
            // (one sector, 4 bytes) a warp, where every lane would give 4.
            assert_eq!((t.load_requests, t.load_sectors), (8, 32), "{}", k.name);
            assert_eq!(t.store_requests, 8, "{}", k.name);
            assert_eq!((t.sectors_min, t.sectors_max), (32, 32 + 8), "{}", k.name);
            assert_eq!(t.bytes_requested, 8 * 128 + 8 * 4, "{}", k.name);
        }
    }

    #[test]
    fn a_triangular_grid_is_exact_when_sampled() {
        // tests/fixtures/analysis/staircase_exit.ptx (its header derives
        // the figures): 64 x 64 blocks of 256 threads, those with ctaid.x >
        // ctaid.y leave on a guard of %ctaid only; 2,080 work.
        let text = include_str!("../../../tests/fixtures/analysis/staircase_exit.ptx");
        let file = crate::source::SourceFile::new("t.ptx", text.to_string()).unwrap();
        let mut o = crate::analysis::Options::default();
        o.launch.grid = Some([64, 64, 1]);
        o.launch.block = Some([256, 1, 1]);
        let a = crate::analyze(&file, &o);
        let idle = a.kernels[0].totals.as_ref().expect("totals");
        assert!(
            idle.blocks_simulated < idle.blocks_total,
            "sampled: {idle:?}"
        );
        let warps = 64 * 65 / 2 * 8;
        assert_eq!(idle.load_requests, warps * 64);
        assert_eq!(idle.load_sectors, warps * 64 * 4);
        assert_eq!(idle.store_requests, warps);
        assert_eq!(idle.store_sectors, warps * 4);
        let after = a.kernels[1].totals.as_ref().expect("totals");
        assert!(after.blocks_simulated < after.blocks_total, "{after:?}");
        assert_eq!(after.load_requests, 4096 * 8 + warps * 64);
        assert_eq!(after.load_sectors, (4096 * 8 + warps * 64) * 4);
        assert_eq!(after.store_requests, warps);
        // The guard's predicate register written again from %tid: the same
        // derived figures as `tri_idle` (that its blocks are decided before
        // any runs is `exits::tests`' check).
        let reused = a.kernels[2].totals.as_ref().expect("totals");
        assert!(reused.blocks_simulated < reused.blocks_total, "{reused:?}");
        assert_eq!(reused.load_requests, warps * 64);
        assert_eq!(reused.load_sectors, warps * 64 * 4);
        assert_eq!(reused.store_requests, warps);
        assert_eq!(reused.store_sectors, warps * 4);
    }

    #[test]
    fn a_sampled_grid_keeps_its_tail_block_exact() {
        // if (i < n) { 64 loads of a[i]; a[i] = sum }: 2,000 blocks of 256
        // threads need ~5.3 M warp instructions, over the 3 M budget, so the
        // interior is sampled. n = 2,000 * 256 - 100: the last block's last
        // three warps have no lane and the one before has 28, so 15,997 warps
        // issue: 15,997 * 64 loads and 15,997 stores (derived by hand).
        let text = ".version 8.5\n.target sm_90\n.address_size 64\n\
            .visible .entry k(.param .u64 k_p, .param .u32 k_n)\n.maxntid 256, 1, 1\n{\n\
            .reg .pred %p<3>;\n.reg .b32 %r<12>;\n.reg .f32 %f<4>;\n.reg .b64 %rd<6>;\n\
            ld.param.u64 %rd1, [k_p];\nld.param.u32 %r9, [k_n];\ncvta.to.global.u64 %rd2, %rd1;\n\
            mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %tid.x;\nshl.b32 %r3, %r1, 8;\n\
            add.s32 %r4, %r3, %r2;\nsetp.ge.u32 %p1, %r4, %r9;\n@%p1 bra DONE;\n\
            mul.wide.u32 %rd3, %r4, 4;\nadd.s64 %rd4, %rd2, %rd3;\nmov.u32 %r5, 0;\n\
            mov.f32 %f1, 0f00000000;\nLOOP:\nld.global.f32 %f2, [%rd4];\n\
            add.f32 %f1, %f1, %f2;\nadd.s32 %r5, %r5, 1;\nsetp.lt.u32 %p2, %r5, 64;\n\
            @%p2 bra LOOP;\nst.global.f32 [%rd4], %f1;\nDONE:\nret;\n}\n";
        let file = crate::source::SourceFile::new("t.ptx", text.to_string()).unwrap();
        let mut o = crate::analysis::Options::default();
        o.launch.grid = Some([2000, 1, 1]);
        o.launch.params = vec![(
            crate::analysis::ParamKey::Index(1),
            crate::analysis::ParamValue::Int(2000 * 256 - 100),
        )];
        let a = crate::analyze(&file, &o);
        let t = a.kernels[0].totals.as_ref().expect("totals");
        assert!(t.blocks_simulated < t.blocks_total, "{t:?}");
        assert_eq!(t.load_requests, 15_997 * 64);
        assert_eq!(t.store_requests, 15_997);
        // 28 lanes of 4 bytes from a 128-byte boundary still span 4 sectors
        assert_eq!(t.store_sectors, 15_997 * 4);
    }
}
