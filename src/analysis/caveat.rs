//! Caveats: what a figure rests on, as typed facts.
//!
//! An access's figures, or a kernel's, can rest on an assumption (a block
//! shape nobody gave), be bounds rather than exact values (an address the
//! analysis could not resolve), or be averaged over what is not known (the
//! alignment of a base address). Each such reservation is one [`Caveat`]
//! variant carrying its facts; its message is its [`Display`](fmt::Display)
//! form.
//!
//! Code that must treat some caveats differently asks the variant, never
//! the text: the launch simulation drops the static analysis' reservations
//! about lane addresses once it has measured the requests
//! ([`Caveat::is_about_static_lane_addresses`]), and the bank-conflict lint
//! leaves out those that describe L1 lines and L2 sectors only
//! ([`Caveat::is_about_lines_and_sectors`]).
//!
//! In the JSON contract (version 1) a caveat is its message, a string,
//! exactly as before the enum existed: [`Caveat`] serialises through its
//! `Display` form, and the messages keep their text.

use super::model::Space;
use serde::{Serialize, Serializer};
use std::fmt;

/// One reservation about an access's or a kernel's figures.
#[derive(Clone, Debug, PartialEq)]
pub enum Caveat {
    /// The warp's base address is known only modulo `128 / alignments`
    /// bytes: figures are the mean over the possible alignments.
    BaseAddressModulo {
        /// The modulus the base is known to (bytes).
        modulus: usize,
        /// How many alignments mod 128 remain possible.
        alignments: usize,
        /// Sectors per request over those alignments (min, max).
        sectors: (f64, f64),
        /// L1 lines per request over those alignments (min, max).
        lines: (f64, f64),
    },
    /// The stride between lanes is symbolic (depends on these names).
    SymbolicStride {
        /// The symbols the stride depends on (parameter names, …).
        symbols: Vec<String>,
    },
    /// The address depends on loaded data.
    DataDependentAddress,
    /// The address differs across lanes in an unknown way (depends on loaded
    /// data when `data`) within a known range: the expected figures assume
    /// lanes drawn independently and uniformly from it.
    AddressInRange {
        /// Derived from loaded data.
        data: bool,
        /// Sectors per request (min, max).
        sectors: (f64, f64),
    },
    /// The lane addresses could not be resolved: figures are bounds.
    UnresolvedAddress,
    /// The dataflow fixpoint was cut after this many rounds.
    FixpointCut {
        /// The round limit.
        rounds: usize,
    },
    /// A generic address proven global because it derives from a kernel
    /// pointer parameter (or a pointer field of a by-value struct
    /// parameter, also through local memory).
    GenericFromPointerParam {
        /// The parameter's name (with how, for a struct's field).
        param: String,
    },
    /// Pascal (`sm_60`/`sm_61`): global loads go through L2 only.
    PascalGlobalLoad,
    /// Shared or local memory: lines and sectors count bytes touched, not
    /// L1/L2 traffic.
    BytesTouchedNotTraffic {
        /// `Shared` or `Local`.
        space: Space,
    },
    /// The block shape comes from `.maxntid` (an upper bound).
    BlockFromMaxntid {
        /// The `.maxntid` dimensions.
        dims: [u32; 3],
    },
    /// The block shape comes from the kernel's tests of `%ntid` within
    /// `.maxntid`'s thread count.
    BlockFromTests {
        /// The shape used.
        dims: [u32; 3],
        /// The `.maxntid` dimensions.
        maxntid: [u32; 3],
    },
    /// No block shape was known: a 1-D block of a multiple of 32 was assumed.
    BlockAssumed1D,
    /// The totals were estimated from a part of the grid (simulation budget).
    TotalsEstimated {
        /// Blocks simulated.
        simulated: u64,
        /// Blocks in the grid.
        total: u64,
    },
    /// Some warps of the block reach the instruction with its guard off in
    /// every lane: each still issues it (static figures).
    PredicatedOffWarps {
        /// The warps, as printed (`8`, `2.5`).
        warps: String,
    },
    /// `off` of `total` simulated requests had the guard off in every lane.
    PredicatedOffRequests {
        /// Requests with every lane off.
        off: u64,
        /// All requests.
        total: u64,
    },
    /// A bulk or tensor copy runs on the copy engine.
    CopyEngine,
    /// A tensor copy's bytes are the tensor map's box, not in the PTX.
    TensorBoxNotInPtx {
        /// Dimensions of the copy.
        dims: u8,
    },
    /// A bulk copy's size operand is not a constant.
    BulkSizeUnknown,
    /// `src-size`/`ignore-src` not known per lane.
    ZeroFillNotKnown,
    /// A shared-memory atomic that ptxas emulates with a load and a
    /// compare-and-swap loop (`cost::shared_atomic`).
    EmulatedSharedAtomic,
    /// A `multimem` access reaches every GPU of its multicast group.
    Multimem,
    /// A `wgmma` operand read through a matrix descriptor.
    TensorOperand,
    /// A parameter value given as a float for an integer parameter (or a
    /// field, or a half type): not used.
    ParamValueIgnored {
        /// The parameter (`NAME` or `NAME+OFFSET`).
        param: String,
        /// The value as given.
        value: String,
        /// The parameter's PTX type (`field` for a field).
        ty: String,
    },
    /// The launch simulation met branches (or exits) on loaded data and
    /// followed them both ways (`totals::SplitCount`).
    BranchesBothWays {
        /// Warp executions of such branches and exits.
        times: u64,
    },
    /// The access is inside a loop whose exit depends on loaded data: its
    /// trip count is data-dependent, so the launch simulation stepped over
    /// the loop (`totals::SkippedLoop`) and gives no request count. Its
    /// per-request figures are those of the trips the simulation ran before
    /// it found that exit (`sampled` requests, the data-dependent exits not
    /// taken: `totals::SimResult::loop_stats`), or the static analysis'
    /// when it ran none.
    InLoopOnLoadedData {
        /// PTX line (a SASS listing's line for SASS input) of the branch
        /// where the loop's exit was found to depend on loaded data.
        line: u32,
        /// Requests of the simulated trips that the per-request figures are
        /// taken from, as the simulation counts them (over the blocks it
        /// ran, or the grid they stand for when it samples); 0: the static
        /// analysis'.
        sampled: u64,
        /// `line` is a SASS listing's line (the kernel was read from SASS).
        listing: bool,
    },
    /// The launch simulation stepped over loops whose exit depends on
    /// loaded data: their trip counts are data-dependent, so the accesses
    /// inside them have no request count (their per-request figures are
    /// those of the simulated trips: `InLoopOnLoadedData`).
    LoopsOnLoadedData {
        /// PTX lines (the listing's for SASS input) of the loops' branches.
        lines: Vec<u32>,
        /// Memory accesses inside them.
        accesses: usize,
        /// `lines` are a SASS listing's lines.
        listing: bool,
    },
    /// ptxas merges this access with the adjacent ones at these PTX lines
    /// into one wider access (`analysis::merge`): the figures are the wide
    /// access's, one request for the group.
    MergedAccess {
        /// Bytes per lane of the wide access.
        bytes: u32,
        /// The SASS instruction (`LDS.128`).
        sass: &'static str,
        /// PTX lines of the other members.
        lines: Vec<u32>,
    },
    /// ptxas merges this access into the wider one at PTX line `line`
    /// (`analysis::merge`): no request of its own.
    MergedInto {
        /// PTX line of the access that carries the group.
        line: u32,
        /// Bytes per lane of the wide access.
        bytes: u32,
        /// The SASS instruction (`LDS.128`).
        sass: &'static str,
    },
    /// ptxas does not issue this shared or global load: the load of the
    /// same bytes at PTX line `line` left them in registers, and nothing
    /// between may store to them, orders it or calls (`analysis::merge`):
    /// no request of its own.
    ReusedLoad {
        /// PTX line of the load whose registers are reused.
        line: u32,
    },
    /// Nothing with an effect uses any result of this load, so ptxas
    /// deletes it (`analysis::memops::load_use`): no request.
    DeadLoad,
    /// Some elements of this vector load are unused, so ptxas reads only
    /// the naturally aligned part that holds the used ones
    /// (`analysis::memops::load_use`): costed as that access.
    NarrowedLoad {
        /// Bits per lane of the written vector.
        written_bits: u32,
        /// Bits per lane ptxas reads.
        bits: u32,
        /// Bytes from the written address to the part read.
        delta: i64,
    },
    /// A call the front end did not follow (inline): the registers it
    /// returns are unknown and the callee's own accesses are not counted.
    CallNotFollowed {
        /// The callee's name (or the register of an indirect call; empty
        /// when unknown).
        callee: String,
        /// Why it was not followed.
        limit: crate::ir::CallLimit,
    },
}

impl Caveat {
    /// True for the static analysis' reservations about the lane addresses
    /// (unknown alignment, symbolic stride, unresolved address): they no
    /// longer apply to figures measured on the simulated launch.
    pub fn is_about_static_lane_addresses(&self) -> bool {
        matches!(
            self,
            Caveat::BaseAddressModulo { .. }
                | Caveat::UnresolvedAddress
                | Caveat::SymbolicStride { .. }
        )
    }

    /// True for the caveats of `analysis::merge` (an access ptxas merges
    /// with adjacent ones, or a load whose bytes it reuses).
    pub fn is_ptxas_merge(&self) -> bool {
        matches!(
            self,
            Caveat::MergedAccess { .. }
                | Caveat::MergedInto { .. }
                | Caveat::ReusedLoad { .. }
                | Caveat::DeadLoad
                | Caveat::NarrowedLoad { .. }
        )
    }

    /// True for caveats whose message names PTX lines (a reused analysis
    /// whose lines moved would name the wrong ones: `crate::incremental`).
    pub fn names_ptx_lines(&self) -> bool {
        self.is_ptxas_merge()
            || matches!(
                self,
                Caveat::InLoopOnLoadedData { .. } | Caveat::LoopsOnLoadedData { .. }
            )
    }

    /// True for caveats that qualify L1-line and L2-sector figures only, and
    /// say nothing about shared-memory banks.
    pub fn is_about_lines_and_sectors(&self) -> bool {
        matches!(
            self,
            Caveat::BaseAddressModulo { .. }
                | Caveat::DataDependentAddress
                | Caveat::AddressInRange { .. }
                | Caveat::BytesTouchedNotTraffic { .. }
        )
    }
}

impl fmt::Display for Caveat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Caveat::BaseAddressModulo {
                modulus,
                alignments,
                sectors,
                lines,
            } => write!(
                f,
                "the warp's base address is known only modulo {modulus} (mod 128): figures are the mean over {alignments} possible alignments (sectors {}..{}, lines {}..{})",
                sectors.0, sectors.1, lines.0, lines.1
            ),
            Caveat::SymbolicStride { symbols } => write!(
                f,
                "the stride between lanes depends on {}: give its value (--param) for exact figures; the expected value assumes lanes it separates are at least a line (128 bytes) apart",
                symbols.join(", ")
            ),
            Caveat::DataDependentAddress => f.write_str(
                "the address depends on loaded data: sectors are bounded by one element (all lanes alike) and one element per lane (the expected value for random addresses over a large array)",
            ),
            Caveat::AddressInRange { data, sectors } => write!(
                f,
                "the address {} within a known range ({} to {} sectors per request): the expected figures assume the lanes are drawn independently and uniformly from it",
                if *data {
                    "depends on loaded data"
                } else {
                    "differs across lanes in an unknown way"
                },
                sectors.0,
                sectors.1
            ),
            Caveat::UnresolvedAddress => f.write_str(
                "the analysis could not resolve the lane addresses: figures are bounds",
            ),
            Caveat::FixpointCut { rounds } => {
                write!(f, "the fixpoint was cut after {rounds} rounds")
            }
            Caveat::GenericFromPointerParam { param } => write!(
                f,
                "generic address derived from the kernel pointer parameter {param}: global"
            ),
            Caveat::PascalGlobalLoad => f.write_str(
                "Pascal (sm_60/61): global loads are cached in L2 only and served in 32-byte transactions; the sector figures apply, the L1 line figure does not",
            ),
            Caveat::BytesTouchedNotTraffic { space } => write!(
                f,
                "{} memory: lines and sectors describe the bytes touched, not L1/L2 traffic",
                if *space == Space::Shared {
                    "shared"
                } else {
                    "local"
                }
            ),
            Caveat::BlockFromMaxntid { dims } => write!(
                f,
                "block shape taken from .maxntid {}x{}x{} (an upper bound); give --block for the real launch",
                dims[0], dims[1], dims[2]
            ),
            Caveat::BlockFromTests { dims, maxntid } => write!(
                f,
                "block shape {}x{}x{} inferred from the kernel's tests of %ntid within .maxntid {}x{}x{} (an upper bound); give --block for the real launch",
                dims[0], dims[1], dims[2], maxntid[0], maxntid[1], maxntid[2]
            ),
            Caveat::BlockAssumed1D => f.write_str(
                "no block shape known: assumed a 1-D block whose size is a multiple of 32",
            ),
            Caveat::PredicatedOffWarps { warps } => write!(
                f,
                "{warps} of the block's warps reach this instruction with its guard off in every lane: each still issues it, a request with no sectors (Nsight Compute counts it), included in the averages"
            ),
            Caveat::PredicatedOffRequests { off, total } => write!(
                f,
                "{off} of {total} requests have the guard off in every lane: issued all the same, with no sectors (Nsight Compute counts them), included in the averages"
            ),
            Caveat::CopyEngine => f.write_str(
                "bulk copy on the copy engine (TMA): Nsight Compute's per-instruction counters show its executions but no lines, sectors or wavefronts; its traffic is in the kernel-level TMA counters",
            ),
            Caveat::TensorBoxNotInPtx { dims } => write!(
                f,
                "{dims}-D tensor copy: the bytes per copy are the tensor map's box, which is not in the PTX (the host encodes it with cuTensorMapEncode*)"
            ),
            Caveat::BulkSizeUnknown => f.write_str(
                "the copy's size operand is not a constant: bytes per copy unknown",
            ),
            Caveat::ZeroFillNotKnown => f.write_str(
                "src-size / ignore-src is not known per lane: every lane is costed as reading from global memory (zero-filling lanes read nothing)",
            ),
            Caveat::EmulatedSharedAtomic => f.write_str(
                "ptxas emulates this shared-memory atomic (floating-point or 64-bit arithmetic) with a load and a compare-and-swap loop (LDS + ATOMS.CAST.SPIN): the wavefronts are the compare-and-swap's, one pass per warp when no two lanes hit one word; the load is one more request with the wavefronts of a plain shared load of the same addresses",
            ),
            Caveat::Multimem => f.write_str(
                "multimem address: the access reaches every GPU of the multicast group; the figures are those of one",
            ),
            Caveat::TensorOperand => f.write_str(
                "wgmma operand: the tensor cores read it from shared memory through the matrix descriptor; no per-lane addresses",
            ),
            Caveat::ParamValueIgnored { param, value, ty } => write!(
                f,
                "--param {param}={value} ignored: a {} takes an integer (give the bits in hex for another layout)",
                if ty == "field" {
                    "field of a by-value parameter".to_string()
                } else {
                    format!(".{ty} parameter")
                }
            ),
            Caveat::MergedAccess { bytes, sass, lines } => {
                let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                write!(
                    f,
                    "ptxas merges this access with the adjacent one{} at PTX line{} {} into one {bytes}-byte access per lane ({sass}): the figures are that access's, one request for the group",
                    if lines.len() == 1 { "" } else { "s" },
                    if lines.len() == 1 { "" } else { "s" },
                    lines.join(", ")
                )
            }
            Caveat::MergedInto { line, bytes, sass } => write!(
                f,
                "ptxas merges this access into the {bytes}-byte access at PTX line {line} ({sass}): no request of its own, its bytes are costed there"
            ),
            Caveat::ReusedLoad { line } => write!(
                f,
                "ptxas does not issue this load again: the load of the same address at PTX line {line} left its bytes in registers, with no store that may write them, barrier, fence, atomic or call between: no request of its own"
            ),
            Caveat::DeadLoad => write!(
                f,
                "nothing uses this load's result, so ptxas deletes it: no request"
            ),
            Caveat::NarrowedLoad {
                written_bits,
                bits,
                delta,
            } => write!(
                f,
                "only part of this {written_bits}-bit vector is used, so ptxas reads {bits} bits a lane (at +{delta} bytes): costed as that access"
            ),
            Caveat::CallNotFollowed { callee, limit } => {
                let callee = if callee.is_empty() { "?" } else { callee };
                write!(
                    f,
                    "call to {callee} not followed ({}): its results are unknown and its memory accesses are not counted",
                    limit.describe()
                )
            }
            Caveat::InLoopOnLoadedData {
                line,
                sampled: 0,
                listing,
            } => write!(
                f,
                "inside a loop whose exit depends on loaded data (the branch at {} line {line}): the trip count is data-dependent, so the launch simulation gives no request count; the per-request figures are the static analysis'",
                if *listing { "listing" } else { "PTX" }
            ),
            Caveat::InLoopOnLoadedData {
                line,
                sampled,
                listing,
            } => write!(
                f,
                "inside a loop whose exit depends on loaded data (the branch at {} line {line}): the trip count is data-dependent, so the launch simulation gives no request count; the per-request figures are those of the {sampled} request{} of the trips it ran up to that branch (the exits on loaded data not taken: lanes that would have left count as taking part, the lower bounds leave out those whose way is not known)",
                if *listing { "listing" } else { "PTX" },
                if *sampled == 1 { "" } else { "s" }
            ),
            Caveat::LoopsOnLoadedData {
                lines,
                accesses,
                listing,
            } => {
                let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                write!(
                    f,
                    "the exit of the loop{} at {} line{} {} depends on loaded data: the trip count is data-dependent and the launch simulation stepped over {} after the trips it ran up to that exit, so the {accesses} memory access{} inside {} no request count (their per-request figures are those trips') and there are no kernel totals; everything before and after is counted",
                    if lines.len() == 1 { "" } else { "s" },
                    if *listing { "listing" } else { "PTX" },
                    if lines.len() == 1 { "" } else { "s" },
                    lines.join(", "),
                    if lines.len() == 1 { "it" } else { "them" },
                    if *accesses == 1 { "" } else { "es" },
                    if *accesses == 1 { "has" } else { "have" },
                )
            }
            Caveat::BranchesBothWays { times } => write!(
                f,
                "{times} warp executions of branches or exits on loaded data were followed both ways: lanes whose way is not known count on every path (requests are an upper bound; the sectors' lower bound leaves those lanes out)"
            ),
            Caveat::TotalsEstimated { simulated, total } => write!(
                f,
                "totals estimated from {simulated} of {total} blocks (simulation budget)"
            ),
        }
    }
}

impl Serialize for Caveat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Sorts caveats by their message and drops repeats (the order of the
/// messages in the JSON contract).
pub fn sort_dedup(caveats: &mut Vec<Caveat>) {
    caveats.sort_by_cached_key(|c| c.to_string());
    caveats.dedup();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_as_its_message() {
        let c = Caveat::TotalsEstimated {
            simulated: 4,
            total: 9,
        };
        assert_eq!(
            serde_json::to_string(&c).unwrap(),
            "\"totals estimated from 4 of 9 blocks (simulation budget)\""
        );
        let c = Caveat::BaseAddressModulo {
            modulus: 16,
            alignments: 8,
            sectors: (4.0, 5.0),
            lines: (1.0, 2.0),
        };
        assert_eq!(c.to_string(), "the warp's base address is known only modulo 16 (mod 128): figures are the mean over 8 possible alignments (sectors 4..5, lines 1..2)");
    }

    #[test]
    fn sorted_by_message() {
        let mut v = vec![
            Caveat::UnresolvedAddress,
            Caveat::BlockAssumed1D,
            Caveat::UnresolvedAddress,
            Caveat::DataDependentAddress,
        ];
        sort_dedup(&mut v);
        assert_eq!(
            v,
            vec![
                Caveat::BlockAssumed1D,
                Caveat::DataDependentAddress,
                Caveat::UnresolvedAddress
            ]
        );
    }
}
