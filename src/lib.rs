//! warpscope: a static analyzer for NVIDIA PTX that tells, before a kernel
//! runs, how each warp's memory accesses will be served — coalesced,
//! broadcast, strided or random; how many 128-byte L1 lines and 32-byte L2
//! sectors each request touches against the ideal; where shared memory
//! conflicts on banks.
//!
//! The pipeline is `text -> syntax tree -> symbols + CFG -> address facts ->
//! accesses and costs -> lints and reports` (see `ARCHITECTURE.md`).
//! The library does no printing and no IO beyond what it is asked to do.
//!
//! # Quick start: analyse, then report
//!
//! [`analyze`] takes one PTX file ([`SourceFile`]) and [`Options`] (launch
//! facts, memory model) and returns an [`Analysis`]: per kernel
//! ([`KernelAnalysis`]) every memory [`Access`] with its lane [`Pattern`] and
//! cost per request ([`PerRequest`]), the launch's [`Totals`], and the front
//! end's [`Diagnostic`]s. It never fails: bad input gives diagnostics.
//! A [`Report`] derives efficiency and transfer overhead from it and renders
//! as text, Markdown or JSON ([`report`]).
//!
//! ```
//! use warpscope::{analyze, render_text, LaunchConfig, Options, Pattern, Report, SourceFile};
//!
//! let ptx = r#"
//! .version 8.0
//! .target sm_90
//! .address_size 64
//! .visible .entry copy(.param .u64 copy_param_0, .param .u64 copy_param_1)
//! {
//!     .reg .b32 %r<5>;
//!     .reg .b64 %rd<8>;
//!     .reg .f32 %f<2>;
//!     ld.param.u64 %rd1, [copy_param_0];
//!     ld.param.u64 %rd2, [copy_param_1];
//!     cvta.to.global.u64 %rd3, %rd1;
//!     cvta.to.global.u64 %rd4, %rd2;
//!     mov.u32 %r1, %ctaid.x;
//!     mov.u32 %r2, %ntid.x;
//!     mov.u32 %r3, %tid.x;
//!     mad.lo.s32 %r4, %r1, %r2, %r3;
//!     mul.wide.s32 %rd5, %r4, 4;
//!     add.s64 %rd6, %rd3, %rd5;
//!     ld.global.f32 %f1, [%rd6];
//!     add.s64 %rd7, %rd4, %rd5;
//!     st.global.f32 [%rd7], %f1;
//!     ret;
//! }
//! "#;
//! let file = SourceFile::from_text("copy.ptx", ptx);
//! let options = Options {
//!     launch: LaunchConfig { block: Some([256, 1, 1]), grid: Some([4, 1, 1]), params: vec![] },
//!     ..Options::default()
//! };
//! let analysis = analyze(&file, &options);
//! assert!(analysis.diagnostics.is_empty());
//!
//! let copy = &analysis.kernels[0];
//! assert_eq!(copy.name, "copy");
//! let load = &copy.accesses[0];
//! assert_eq!(load.instruction, "ld.global.f32");
//! assert_eq!(load.pattern, Pattern::Coalesced);
//! assert_eq!(load.per_request.sectors, 4.0); // 32 lanes x 4 bytes = 4 sectors
//!
//! let text = render_text(&Report::from_analysis(&file, &analysis));
//! assert!(text.contains("coalesced"));
//! ```
//!
//! # Where things are
//!
//! - [`source`]: [`SourceFile`], spans and line/column lookup.
//! - [`syntax`]: the recovering PTX parser and its span-carrying syntax tree.
//! - [`sema`]: symbols of each function.
//! - [`isa`]: facts of the PTX ISA shared by every layer (special registers).
//! - [`ir`]: the warp IR, where a front end ends; [`lower`] lowers PTX into
//!   it and [`pipeline`] drives text → IR → analysis ([`analyze`]).
//! - [`cfg`](mod@cfg): control-flow graphs, built from the IR.
//! - [`analysis`]: the warp address analysis over the IR; its result types
//!   are the stable JSON contract (`analysis::model`).
//! - [`lints`], [`config`]: the rules `warpscope check` runs and their configuration.
//! - [`report`]: per-kernel memory reports ([`Report`], [`render_text`],
//!   [`render_markdown`], [`render_json`]).
//! - [`diagnostic`]: [`Diagnostic`] and [`Severity`], shared by every stage.
//! - `cli`, `lsp` (feature `cli`, on by default): the command line and the
//!   language server, the only modules that print; the `warpscope` binary and
//!   the Python package's console script both call `cli::run`.

#![warn(missing_docs)]

// The command-line and language-server layers name the library `warpscope::`
// as the binary used to; this lets them do so from inside it.
extern crate self as warpscope;

pub mod analysis;
pub mod binary;
pub mod cfg;
#[cfg(feature = "cli")]
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod diff;
pub mod front;
pub mod incremental;
pub mod ir;
pub mod isa;
pub mod lints;
pub mod lower;
#[cfg(feature = "cli")]
pub mod lsp;
pub mod output;
pub mod pipeline;
pub mod report;
pub mod sass;
pub mod sema;
pub mod source;
pub mod suppress;
pub mod syntax;
pub mod triton;
pub mod util;

pub use pipeline::{analyze, analyze_module, analyze_module_with_symbols};

pub use analysis::{
    Access, AccessOp, Analysis, Arch, KernelAnalysis, LaunchConfig, Options, ParamKey, ParamValue,
    Pattern, PerRequest, SourceLocation, Space, Totals,
};
pub use diagnostic::{Diagnostic, Severity};
pub use report::{render_json, render_markdown, render_text, Report};
pub use source::SourceFile;
