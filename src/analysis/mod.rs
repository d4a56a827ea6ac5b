//! Warp address analysis: how each warp's memory accesses are served.
//!
//! # Pipeline
//!
//! The analysis reads only the warp IR ([`crate::ir`]): a front end
//! ([`crate::lower::ptx`]) has already turned the source into operations with
//! interned registers and first-class memory operations, and
//! [`crate::pipeline`] drives front end and analysis for PTX text. For every
//! kernel ([`analyze_function`], in `driver`):
//!
//! 1. `launch` resolves the launch facts (block shape, validated once into a
//!    [`launch::BlockShape`], grid, parameters) and splits the block's warps
//!    into *warp classes* with the same lane layout;
//! 2. the CFG is built from the IR (`crate::cfg`);
//! 3. `dataflow` runs a fixpoint over the CFG (`crate::cfg`) per warp class
//!    with the lane-value domain of `domain` and the transfer functions of
//!    `transfer`, recording the address value and possibly-active lanes of
//!    every memory instruction;
//! 4. `cost` turns an address value into a pattern and a per-request cost
//!    (lines, sectors, ideal, bounds over unknown alignments), and `figures`
//!    combines it over the warp classes;
//! 5. when the grid is given, `totals` simulates the launch warp by warp with
//!    concrete indices, which gives exact per-request averages over the
//!    launch's warps (partial warps, trip counts, per-warp alignment), and
//!    `launch_totals` sums them into the kernel's totals.
//!
//! Between 3 and 4, `merge` finds the adjacent scalar accesses that ptxas
//! serves with one wider access (`LDS.128` for four `ld.shared.f32`): each
//! group is costed as that access at one member, the others report no
//! request of their own (PTX input only).
//!
//! The results are plain data (`model`), the JSON contract. `explain`
//! answers editor hovers (a register's value before an op).
//!
//! Architecture invariant: nothing here imports `crate::syntax` or
//! `crate::sema` (`tests/architecture.rs` checks it).
//!
//! # Which figures an access carries
//!
//! Without a grid, an access's per-request figures are the static analysis'
//! for one request of each warp class, averaged over the block's warps (the
//! possibly-active lanes: a guard that depends on `%ctaid` or an unknown
//! parameter keeps every lane), and `requests` is `None`. With a grid (and
//! every parameter the control flow needs), they are the simulated launch's
//! averages over the requests actually executed, `requests` is the count, and
//! the pattern is the most frequent one among them. Either way `sectors_min`
//! / `sectors_max` and `l1_lines_min` / `l1_lines_max` bound the figure, and
//! the caveats say what was assumed.
//!
//! # Validation
//!
//! `tests/hw_agreement.rs` compares both kinds of figures, line by line, with
//! Nsight Compute's counters of 125 launches on an H100
//! (`tests/hw/measured.json`); `tests/analysis_seeds.rs` reproduces the
//! seeds' numbers; `tests/analysis_fixtures.rs` snapshots hand-written cases.
//!
//! # What counts as an access
//!
//! `ld`, `ldu`, `st`, `atom`, `red` in any state space except `.param`
//! (`ld.param` reads kernel parameters), every vector width and element type.
//! A generic access (no space) is reported as `global` when its address is
//! provably derived from a kernel pointer parameter (whose `cvta.to.global`
//! or direct use marks it as a pointer), `shared`/`local` when derived from a
//! variable of that space, `generic` otherwise.
//!
//! The newer memory paths are accesses too (`memops` gives their rules):
//! `cp.async` (one access with a global side in lines and sectors and a
//! shared side in wavefronts), `ldmatrix`/`stmatrix` (the lanes that supply
//! row addresses), bulk and tensor copies (executions with no per-request
//! traffic, their bytes per copy where the PTX gives them), `multimem`
//! accesses, and `wgmma` operands (their decoded matrix descriptors,
//! `descriptor`). A request whose guard is off in every lane still counts,
//! with no sectors, as Nsight Compute counts it.

pub mod bitfield;
pub mod bitwin;
pub mod bounds;
pub mod caveat;
pub mod cost;
pub mod coverage;
pub mod crosslane;
pub mod dataflow;
pub mod descriptor;
pub mod domain;
pub mod driver;
pub mod explain;
pub mod figures;
pub mod float;
pub mod ifconvert;
pub mod launch;
pub mod launch_totals;
pub mod memops;
pub mod merge;
pub mod model;
pub(crate) mod origin;
mod reconverge;
pub mod symbolic;
pub mod totals;
pub mod transfer;
pub mod unroll;

pub use caveat::Caveat;
pub use driver::analyze_function;
pub use explain::{explain_register, RegisterFacts};
pub use model::*;
