//! warpscope: a static analyzer for NVIDIA PTX that tells, before a kernel
//! runs, how each warp's memory accesses will be served.
//!
//! The pipeline is `text -> syntax tree -> symbols + CFG -> address facts ->
//! accesses and costs -> lints and reports` (see `ARCHITECTURE.md`).
//! The library does no printing and no IO beyond what it is asked to do.

#![warn(missing_docs)]

pub mod analysis;
pub mod cfg;
pub mod config;
pub mod diagnostic;
pub mod lints;
pub mod output;
pub mod report;
pub mod sema;
pub mod source;
pub mod syntax;
