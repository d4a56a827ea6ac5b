//! Per-kernel memory reports: every access of every kernel with its cost, the
//! launch's totals and a one-line verdict, rendered as text, Markdown or JSON.
//!
//! A report is built from an [`Analysis`] (what
//! [`analyze`](crate::pipeline::analyze) returns for one PTX file) and
//! the [`SourceFile`] it came from. [`Report`] holds the figures, already
//! derived and rounded; [`render_text`], [`render_markdown`] and
//! [`render_json`] turn it into a string. Nothing here does IO.
//!
//! # What the columns mean
//!
//! Per access (one PTX memory instruction), per *request* (one warp executing
//! it once), following Nsight Compute's memory tables (seeds 000 and 001):
//!
//! | column | meaning |
//! | --- | --- |
//! | `PTX` | PTX line of the instruction |
//! | `CUDA` | `file:line` from the instruction's `.loc` (file name only), then `@[file:]line` for each call site it was inlined at ([`CudaLine`]) |
//! | `lanes` | active lanes per request (Nsight: predicated-on thread instructions / instructions executed) |
//! | `L1/req` | distinct 128-byte L1 lines touched per request |
//! | `sect/req` | distinct 32-byte L2 sectors touched per request |
//! | `ideal` | sectors an aligned, contiguous access of the same width by the same lanes would touch |
//! | `eff` | efficiency `ideal / sect/req` — seed 000's `T_i / T_e`, counted in 32-byte sectors as Nsight Compute does on Volta and later (seed 000 counts 128-byte L1 transactions) |
//! | `overhead` | L2 transfer overhead: bytes moved (`sect/req × 32`) per byte requested (`lanes × bits / 8`) |
//! | `L1 ovh` | L1 transfer overhead (seed 001): `L1/req × 128` per byte requested |
//! | `wavefronts` | shared memory only: bank-conflict wavefronts per request (Nsight: L1 Wavefronts Shared / instructions executed; 1 is conflict-free for 32-bit lanes) |
//!
//! Efficiency above 100% and overhead below 1 are real: when lanes share
//! addresses (a broadcast) fewer sectors move than the ideal assumes, which
//! Nsight shows as negative above-ideal transactions (seed 001). Shared-memory
//! rows carry the analysis' byte-footprint figures in the sector columns and
//! their bank conflicts in `wavefronts`; they do not count in the summary.
//!
//! Below each kernel's table: the launch's totals (requests, sectors, bytes
//! requested and moved, from the analysis' [`Totals`])
//! and a summary: the global access with the lowest efficiency and the
//! efficiency of all global accesses together, weighted by requests when the
//! launch gives them.
//!
//! # Stability
//!
//! Reports are meant to be snapshotted (see `snapshots/README.md` and
//! `examples/snapshot_kernels.rs`). Kernels appear in PTX order, accesses in
//! PTX order; numbers have fixed decimals; there are no timestamps; the input
//! path is printed as given and a `.loc` file only by its file name, so a
//! report does not depend on the directory it was produced in.
//!
//! # Example
//!
//! ```
//! use warpscope::analyze;
//! use warpscope::analysis::{LaunchConfig, Options};
//! use warpscope::report::{render_text, Report};
//! use warpscope::source::SourceFile;
//!
//! # let ptx = r#"
//! # .version 8.0
//! # .target sm_90
//! # .address_size 64
//! # .visible .entry copy(.param .u64 copy_param_0, .param .u64 copy_param_1)
//! # {
//! #     .reg .b32 %r<5>;
//! #     .reg .b64 %rd<8>;
//! #     .reg .f32 %f<2>;
//! #     ld.param.u64 %rd1, [copy_param_0];
//! #     ld.param.u64 %rd2, [copy_param_1];
//! #     cvta.to.global.u64 %rd3, %rd1;
//! #     cvta.to.global.u64 %rd4, %rd2;
//! #     mov.u32 %r1, %ctaid.x;
//! #     mov.u32 %r2, %ntid.x;
//! #     mov.u32 %r3, %tid.x;
//! #     mad.lo.s32 %r4, %r1, %r2, %r3;
//! #     mul.wide.s32 %rd5, %r4, 4;
//! #     add.s64 %rd6, %rd3, %rd5;
//! #     ld.global.f32 %f1, [%rd6];
//! #     add.s64 %rd7, %rd4, %rd5;
//! #     st.global.f32 [%rd7], %f1;
//! #     ret;
//! # }
//! # "#;
//! // `ptx` holds a kernel `copy` where thread i copies float i.
//! let file = SourceFile::from_text("copy.ptx", ptx);
//! let options = Options {
//!     launch: LaunchConfig { block: Some([128, 1, 1]), grid: Some([4, 1, 1]), params: vec![] },
//!     ..Options::default()
//! };
//! let report = Report::from_analysis(&file, &analyze(&file, &options));
//! let copy = &report.files[0].kernels[0];
//! assert_eq!(copy.accesses[0].efficiency, Some(1.0));
//! assert_eq!(copy.totals.as_ref().unwrap().requests, 32); // 16 warps, a load and a store each
//! let text = render_text(&report);
//! assert!(text.contains("kernel copy"));
//! assert!(text.contains("block 128x1x1, grid 4x1x1"));
//! ```

#![warn(missing_docs)]

mod details;
mod format;
mod markdown;
mod text;

pub use details::{access_details, descriptor};

use crate::analysis::{Access, AccessOp, Analysis, KernelAnalysis, Pattern, Space, Totals};
use crate::diagnostic::Severity;
use crate::source::SourceFile;
use serde::Serialize;

pub use markdown::render_markdown;
pub use text::render_text;

/// Version of the report's JSON layout ([`render_json`]); fields may be
/// added, none renamed.
///
/// ```
/// assert_eq!(warpscope::report::REPORT_VERSION, 1);
/// ```
pub const REPORT_VERSION: u32 = 1;

/// The report of one or more PTX files, ready to render.
///
/// Build it with [`Report::from_analysis`] for one file or [`Report::new`] and
/// [`Report::add`] for several; render it with [`render_text`],
/// [`render_markdown`] or [`render_json`].
///
/// ```
/// use warpscope::analysis::Analysis;
/// use warpscope::report::Report;
/// use warpscope::source::SourceFile;
///
/// let a = SourceFile::from_text("a.ptx", "");
/// let b = SourceFile::from_text("b.ptx", "");
/// let none = Analysis { kernels: vec![], diagnostics: vec![] };
/// let mut report = Report::new();
/// report.add(&a, &none);
/// report.add(&b, &none);
/// assert_eq!(report.files.len(), 2);
/// assert_eq!(report.files[1].path, "b.ptx");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    /// Layout version ([`REPORT_VERSION`]).
    pub version: u32,
    /// One entry per file, in the order they were added.
    pub files: Vec<FileReport>,
}

/// The report of one PTX file.
///
/// ```
/// use warpscope::analysis::Analysis;
/// use warpscope::report::FileReport;
/// use warpscope::source::SourceFile;
///
/// let file = SourceFile::from_text("k.ptx", "");
/// let r = FileReport::new(&file, &Analysis { kernels: vec![], diagnostics: vec![] });
/// assert_eq!(r.path, "k.ptx");
/// assert!(r.kernels.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileReport {
    /// The file's name as it was opened (as the user gave it).
    pub path: String,
    /// Front-end and analysis diagnostics, in the analysis' order.
    pub diagnostics: Vec<DiagnosticLine>,
    /// Kernels in PTX order.
    pub kernels: Vec<KernelReport>,
}

/// A diagnostic reduced to one located line.
///
/// ```
/// use warpscope::diagnostic::{Diagnostic, FrontEndCode};
/// use warpscope::report::DiagnosticLine;
/// use warpscope::source::{SourceFile, Span};
///
/// let file = SourceFile::from_text("k.ptx", "\nbogus;\n");
/// let d = Diagnostic::error(FrontEndCode::SyntaxError, Span::new(1, 6), "expected a directive");
/// let line = DiagnosticLine::new(&file, &d);
/// assert_eq!((line.line, line.column), (2, 1));
/// assert_eq!(line.code, "E0001");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiagnosticLine {
    /// `error`, `warning` or `note`.
    pub severity: Severity,
    /// Stable code such as `E0001`.
    pub code: String,
    /// Stable name such as `syntax-error`.
    pub name: String,
    /// PTX line (1-based).
    pub line: u32,
    /// PTX byte column (1-based).
    pub column: u32,
    /// The message.
    pub message: String,
}

impl DiagnosticLine {
    /// Locates `diagnostic`'s primary span in `file`.
    ///
    /// ```
    /// use warpscope::diagnostic::{Diagnostic, FrontEndCode};
    /// use warpscope::report::DiagnosticLine;
    /// use warpscope::source::{SourceFile, Span};
    ///
    /// let file = SourceFile::from_text("k.ptx", "x");
    /// let d = Diagnostic::error(FrontEndCode::SyntaxError, Span::new(0, 1), "bad");
    /// assert_eq!(DiagnosticLine::new(&file, &d).message, "bad");
    /// ```
    pub fn new(file: &SourceFile, diagnostic: &crate::diagnostic::Diagnostic) -> DiagnosticLine {
        let offset = diagnostic.span().start.min(file.text().len() as u32);
        let at = file.line_col(offset);
        DiagnosticLine {
            severity: diagnostic.severity,
            code: diagnostic.code.to_string(),
            name: diagnostic.name.to_string(),
            line: at.line,
            column: at.column,
            message: diagnostic.message.clone(),
        }
    }
}

/// How a kernel was launched, as the analysis assumed it.
///
/// ```
/// use warpscope::report::LaunchInfo;
///
/// let l = LaunchInfo { block: [256, 1, 1], block_assumed: false, grid: Some([40, 1, 1]) };
/// assert_eq!(l.threads(), Some(10_240));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaunchInfo {
    /// Threads per block (x, y, z).
    pub block: [u32; 3],
    /// True when the block shape was not given but assumed.
    pub block_assumed: bool,
    /// Blocks per grid, when given.
    pub grid: Option<[u32; 3]>,
}

impl LaunchInfo {
    /// Threads in the whole launch, when the grid is known.
    ///
    /// ```
    /// use warpscope::report::LaunchInfo;
    ///
    /// let l = LaunchInfo { block: [32, 4, 1], block_assumed: true, grid: None };
    /// assert_eq!(l.threads(), None);
    /// ```
    pub fn threads(&self) -> Option<u64> {
        let g = self.grid?;
        Some(
            self.block
                .iter()
                .chain(g.iter())
                .map(|&d| d as u64)
                .fold(1u64, u64::saturating_mul),
        )
    }
}

/// One kernel's report.
///
/// ```
/// use warpscope::analyze;
/// use warpscope::analysis::Options;
/// use warpscope::report::Report;
/// use warpscope::source::SourceFile;
///
/// # let ptx = r#"
/// # .version 8.0
/// # .target sm_90
/// # .address_size 64
/// # .visible .entry copy(.param .u64 copy_param_0, .param .u64 copy_param_1)
/// # {
/// #     .reg .b32 %r<5>;
/// #     .reg .b64 %rd<8>;
/// #     .reg .f32 %f<2>;
/// #     ld.param.u64 %rd1, [copy_param_0];
/// #     ld.param.u64 %rd2, [copy_param_1];
/// #     cvta.to.global.u64 %rd3, %rd1;
/// #     cvta.to.global.u64 %rd4, %rd2;
/// #     mov.u32 %r1, %ctaid.x;
/// #     mov.u32 %r2, %ntid.x;
/// #     mov.u32 %r3, %tid.x;
/// #     mad.lo.s32 %r4, %r1, %r2, %r3;
/// #     mul.wide.s32 %rd5, %r4, 4;
/// #     add.s64 %rd6, %rd3, %rd5;
/// #     ld.global.f32 %f1, [%rd6];
/// #     add.s64 %rd7, %rd4, %rd5;
/// #     st.global.f32 [%rd7], %f1;
/// #     ret;
/// # }
/// # "#;
/// let file = SourceFile::from_text("copy.ptx", ptx);
/// let report = Report::from_analysis(&file, &analyze(&file, &Options::default()));
/// let copy = &report.files[0].kernels[0];
/// assert_eq!(copy.name, "copy");
/// assert_eq!(copy.accesses.len(), 2);
/// // No grid given: per-request figures only.
/// assert!(copy.totals.is_none() && copy.totals_unavailable.is_some());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KernelReport {
    /// Mangled name.
    pub name: String,
    /// Demangled name (equal to `name` when not mangled).
    pub demangled: String,
    /// Launch shape.
    pub launch: LaunchInfo,
    /// Every memory access in PTX order.
    pub accesses: Vec<AccessRow>,
    /// Whole-launch totals of global memory, when the launch allows them.
    pub totals: Option<LaunchTotals>,
    /// Why there are no totals.
    pub totals_unavailable: Option<String>,
    /// What the analysis assumed for the whole kernel.
    pub caveats: Vec<String>,
    /// Worst access and weighted efficiency.
    pub summary: Summary,
}

impl KernelReport {
    /// Derives a kernel's report from its analysis.
    ///
    /// ```
    /// use warpscope::analyze;
    /// use warpscope::analysis::{LaunchConfig, Options};
    /// use warpscope::report::KernelReport;
    /// use warpscope::source::SourceFile;
    ///
    /// # let ptx = r#"
    /// # .version 8.0
    /// # .target sm_90
    /// # .address_size 64
    /// # .visible .entry copy(.param .u64 copy_param_0, .param .u64 copy_param_1)
    /// # {
    /// #     .reg .b32 %r<5>;
    /// #     .reg .b64 %rd<8>;
    /// #     .reg .f32 %f<2>;
    /// #     ld.param.u64 %rd1, [copy_param_0];
    /// #     ld.param.u64 %rd2, [copy_param_1];
    /// #     cvta.to.global.u64 %rd3, %rd1;
    /// #     cvta.to.global.u64 %rd4, %rd2;
    /// #     mov.u32 %r1, %ctaid.x;
    /// #     mov.u32 %r2, %ntid.x;
    /// #     mov.u32 %r3, %tid.x;
    /// #     mad.lo.s32 %r4, %r1, %r2, %r3;
    /// #     mul.wide.s32 %rd5, %r4, 4;
    /// #     add.s64 %rd6, %rd3, %rd5;
    /// #     ld.global.f32 %f1, [%rd6];
    /// #     add.s64 %rd7, %rd4, %rd5;
    /// #     st.global.f32 [%rd7], %f1;
    /// #     ret;
    /// # }
    /// # "#;
    /// let file = SourceFile::from_text("copy.ptx", ptx);
    /// let options = Options {
    ///     launch: LaunchConfig { block: Some([64, 1, 1]), grid: Some([2, 1, 1]), params: vec![] },
    ///     ..Options::default()
    /// };
    /// let analysis = analyze(&file, &options);
    /// let copy = KernelReport::new(&analysis.kernels[0]);
    /// assert_eq!(copy.launch.threads(), Some(128));
    /// assert_eq!(copy.summary.weighted_efficiency, Some(1.0));
    /// ```
    pub fn new(kernel: &KernelAnalysis) -> KernelReport {
        let accesses: Vec<AccessRow> = kernel.accesses.iter().map(AccessRow::new).collect();
        let summary = Summary::new(&accesses);
        KernelReport {
            name: kernel.name.clone(),
            demangled: kernel.demangled.clone(),
            launch: LaunchInfo {
                block: kernel.block,
                block_assumed: kernel.block_assumed,
                grid: kernel.grid,
            },
            totals: kernel.totals.as_ref().map(LaunchTotals::new),
            totals_unavailable: kernel.totals_unavailable.clone(),
            caveats: kernel.caveats.iter().map(ToString::to_string).collect(),
            accesses,
            summary,
        }
    }
}

/// Where an access stands in the CUDA source (`.loc`), file name only, with
/// the call sites it was inlined at.
///
/// Displayed as `file:line`, then `@file:line` per call site, innermost first
/// (`@line` when the call site is in the same file): the innermost line is the
/// one Nsight's source view shows, the outermost is in the kernel.
///
/// ```
/// use warpscope::report::CudaLine;
///
/// let c = CudaLine { file: "indirect.cu".into(), line: 17, inlined_at: None };
/// assert_eq!(c.to_string(), "indirect.cu:17");
///
/// let atomic = CudaLine {
///     file: "sm_20_atomic_functions.hpp".into(),
///     line: 84,
///     inlined_at: Some(Box::new(CudaLine { file: "kernels.cu".into(), line: 512, inlined_at: None })),
/// };
/// assert_eq!(atomic.to_string(), "sm_20_atomic_functions.hpp:84@kernels.cu:512");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CudaLine {
    /// The last component of the `.file` path (no directories, so reports do
    /// not depend on where the kernel was compiled).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// The call site, when this line was inlined into another function.
    pub inlined_at: Option<Box<CudaLine>>,
}

impl CudaLine {
    /// Converts a `.loc` location (and its inlining chain).
    ///
    /// ```
    /// use warpscope::analysis::SourceLocation;
    /// use warpscope::report::CudaLine;
    ///
    /// let loc = SourceLocation { file: "/tmp/build/k.cu".into(), line: 9, column: 3, inlined_at: None };
    /// assert_eq!(CudaLine::new(&loc).to_string(), "k.cu:9");
    /// ```
    pub fn new(loc: &crate::analysis::SourceLocation) -> CudaLine {
        CudaLine {
            file: file_name(&loc.file),
            line: loc.line,
            inlined_at: loc
                .inlined_at
                .as_deref()
                .map(|l| Box::new(CudaLine::new(l))),
        }
    }
}

impl std::fmt::Display for CudaLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)?;
        let mut inner = self;
        while let Some(outer) = inner.inlined_at.as_deref() {
            if outer.file == inner.file {
                write!(f, "@{}", outer.line)?;
            } else {
                write!(f, "@{}:{}", outer.file, outer.line)?;
            }
            inner = outer;
        }
        Ok(())
    }
}

/// One memory access with its per-request cost and the figures derived from it.
///
/// Per-request figures come from the analysis; `efficiency`, `overhead`,
/// `l1_overhead` and `launch` are derived here (see the module docs). Figures
/// are rounded to 4 decimals so that reports are stable.
///
/// ```
/// use warpscope::analysis::{Access, AccessOp, Pattern, PerRequest, Space};
/// use warpscope::report::AccessRow;
/// use warpscope::source::{LineCol, Span};
///
/// // A warp of 32 lanes loading 32 consecutive aligned floats.
/// let access = Access {
///     sass_offset: None,
///     line_frames: 1,
///     span: Span::default(), ptx: LineCol { line: 20, column: 2 }, source: None,
///     instruction: "ld.global.f32".into(), op: AccessOp::Load, space: Space::Global, bits: 32,
///     pattern: Pattern::Coalesced, stride_bytes: Some(4), lane_pattern: "base + 4*i".into(),
///     per_request: PerRequest {
///         l1_lines: 1.0, sectors: 4.0, ideal_sectors: 4.0,
///         sectors_min: 4.0, sectors_max: 4.0, l1_lines_min: 1.0, l1_lines_max: 1.0,
///         active_lanes: Some(32.0),
///     },
///     requests: Some(10), shared_wavefronts: None, caveats: vec![],
///     ..Default::default()
/// };
/// let row = AccessRow::new(&access);
/// assert_eq!(row.efficiency, Some(1.0));
/// assert_eq!(row.overhead, Some(1.0));
/// assert_eq!(row.launch.unwrap().sectors, 40);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AccessRow {
    /// SASS input: the instruction's offset in its function (`/*0120*/`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sass_offset: Option<u32>,
    /// PTX line (the listing's line for SASS input).
    pub ptx_line: u32,
    /// PTX column.
    pub ptx_column: u32,
    /// CUDA source line, when the PTX has `.loc`.
    pub cuda: Option<CudaLine>,
    /// Mnemonic, such as `ld.global.v4.f32`.
    pub instruction: String,
    /// Load, store or atomic.
    pub op: AccessOp,
    /// Memory space.
    pub space: Space,
    /// Bits per lane.
    pub bits: u32,
    /// Lane pattern.
    pub pattern: Pattern,
    /// Byte stride between consecutive lanes, when affine.
    pub stride_bytes: Option<i64>,
    /// The lane address pattern in words, such as `base + 128*i`.
    pub lane_pattern: String,
    /// Requests (warp executions) over the launch, when known.
    pub requests: Option<u64>,
    /// Active lanes per request, when known.
    pub lanes: Option<f64>,
    /// 128-byte L1 lines per request.
    pub l1_lines: f64,
    /// 32-byte sectors per request.
    pub sectors: f64,
    /// Ideal sectors per request.
    pub ideal_sectors: f64,
    /// Lower bound on sectors per request.
    pub sectors_min: f64,
    /// Upper bound on sectors per request.
    pub sectors_max: f64,
    /// Lower bound on L1 lines per request.
    pub l1_lines_min: f64,
    /// Upper bound on L1 lines per request.
    pub l1_lines_max: f64,
    /// `ideal_sectors / sectors` (None when no sector is touched).
    pub efficiency: Option<f64>,
    /// `sectors × 32 / (lanes × bits / 8)`: L2 bytes moved per byte requested.
    pub overhead: Option<f64>,
    /// `l1_lines × 128 / (lanes × bits / 8)`: L1 bytes moved per byte requested.
    pub l1_overhead: Option<f64>,
    /// Shared memory: bank-conflict wavefronts per request, when resolved.
    pub shared_wavefronts: Option<f64>,
    /// Whole-launch figures of this access, when requests are known.
    pub launch: Option<AccessLaunch>,
    /// Why figures are bounds rather than exact.
    pub caveats: Vec<String>,
    /// Requests in which no lane accesses memory ([`Access::empty_requests`]):
    /// in `requests`, not in the kernel totals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empty_requests: Option<u64>,
    /// What kind of memory operation (absent when `plain`).
    #[serde(skip_serializing_if = "crate::analysis::MemKind::is_plain")]
    pub kind: crate::analysis::MemKind,
    /// Why the pattern is `unknown` (absent otherwise): the cause's category,
    /// and the opcode for `opcode not modelled: …` (`analysis::coverage`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown_cause: Option<crate::analysis::coverage::UnknownCause>,
    /// What the access carries beside its figures ([`access_details`]):
    /// the shared side of a `cp.async`, the matrices of an `ldmatrix`, a
    /// bulk copy's bytes, a `wgmma` descriptor.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<String>,
    /// `cp.async`: its shared-memory side, as `check`'s JSON gives it
    /// (the details above say the same in words).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_side: Option<crate::analysis::model::SharedSide>,
    /// `ldmatrix`/`stmatrix`: the matrices and which lanes supply their rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matrix: Option<crate::ir::MatrixFacts>,
    /// Bulk and tensor copies: bytes per copy, dimensions, direction,
    /// multicast CTAs, mbarrier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bulk: Option<crate::ir::BulkFacts>,
    /// `wgmma`: the decoded shared-memory matrix descriptors.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub descriptors: Vec<crate::analysis::model::MatrixDescriptor>,
}

/// Whole-launch figures of one access (per-request figures × requests).
///
/// ```
/// use warpscope::report::AccessLaunch;
///
/// let l = AccessLaunch { requests: 313, l1_lines: 313, sectors: 1250, ideal_sectors: 1250,
///                        bytes_requested: Some(40_000), bytes_moved: 40_000 };
/// assert_eq!(l.bytes_moved, l.sectors * 32);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AccessLaunch {
    /// Requests (warp-level executions).
    pub requests: u64,
    /// L1 lines over the launch (Nsight: L1 tag requests).
    pub l1_lines: u64,
    /// Sectors over the launch (Nsight: L2 theoretical sectors).
    pub sectors: u64,
    /// Ideal sectors over the launch.
    pub ideal_sectors: u64,
    /// Bytes requested by the active lanes, when lanes are known.
    pub bytes_requested: Option<u64>,
    /// Bytes moved between L1 and L2 (`sectors × 32`).
    pub bytes_moved: u64,
}

impl AccessRow {
    /// Derives the row of one access.
    ///
    /// ```
    /// use warpscope::analysis::{Access, AccessOp, Pattern, PerRequest, Space};
    /// use warpscope::report::AccessRow;
    /// use warpscope::source::{LineCol, Span};
    ///
    /// // Each of 32 lanes storing 16 bytes into its own 128-byte line (seed 001's
    /// // separateCacheLines): 32 lines and 32 sectors where 4 lines / 16 sectors would do.
    /// let access = Access {
    ///     sass_offset: None,
    ///     line_frames: 1,
    ///     span: Span::default(), ptx: LineCol { line: 9, column: 2 }, source: None,
    ///     instruction: "st.global.v4.f32".into(), op: AccessOp::Store, space: Space::Global,
    ///     bits: 128, pattern: Pattern::Strided, stride_bytes: Some(128),
    ///     lane_pattern: "base + 128*i".into(),
    ///     per_request: PerRequest {
    ///         l1_lines: 32.0, sectors: 32.0, ideal_sectors: 16.0,
    ///         sectors_min: 32.0, sectors_max: 32.0, l1_lines_min: 32.0, l1_lines_max: 32.0,
    ///         active_lanes: Some(32.0),
    ///     },
    ///     requests: None, shared_wavefronts: None, caveats: vec![],
    ///     ..Default::default()
    /// };
    /// let row = AccessRow::new(&access);
    /// assert_eq!(row.efficiency, Some(0.5));
    /// assert_eq!(row.l1_overhead, Some(8.0));
    /// assert!(row.launch.is_none());
    /// ```
    pub fn new(access: &Access) -> AccessRow {
        let pr = &access.per_request;
        let lanes = pr.active_lanes.filter(|l| l.is_finite() && *l >= 0.0);
        let bytes_per_request = lanes.map(|l| l * access.bits as f64 / 8.0);
        let ratio = |num: f64, den: Option<f64>| match den {
            Some(d) if d > 0.0 && num.is_finite() => Some(round4(num / d)),
            _ => None,
        };
        let launch = access.requests.map(|r| {
            let r_f = r as f64;
            let sectors = to_count(r_f * pr.sectors);
            AccessLaunch {
                requests: r,
                l1_lines: to_count(r_f * pr.l1_lines),
                sectors,
                ideal_sectors: to_count(r_f * pr.ideal_sectors),
                bytes_requested: bytes_per_request.map(|b| to_count(r_f * b)),
                bytes_moved: sectors.saturating_mul(32),
            }
        });
        AccessRow {
            sass_offset: access.sass_offset,
            ptx_line: access.ptx.line,
            ptx_column: access.ptx.column,
            cuda: access.source.as_ref().map(CudaLine::new),
            instruction: access.instruction.clone(),
            op: access.op,
            space: access.space,
            bits: access.bits,
            pattern: access.pattern,
            stride_bytes: access.stride_bytes,
            lane_pattern: access.lane_pattern.clone(),
            requests: access.requests,
            lanes: lanes.map(round4),
            l1_lines: round4(pr.l1_lines),
            sectors: round4(pr.sectors),
            ideal_sectors: round4(pr.ideal_sectors),
            sectors_min: round4(pr.sectors_min),
            sectors_max: round4(pr.sectors_max),
            l1_lines_min: round4(pr.l1_lines_min),
            l1_lines_max: round4(pr.l1_lines_max),
            efficiency: ratio(pr.ideal_sectors, Some(pr.sectors)),
            overhead: ratio(pr.sectors * 32.0, bytes_per_request),
            l1_overhead: ratio(pr.l1_lines * 128.0, bytes_per_request),
            shared_wavefronts: access
                .shared_wavefronts
                .filter(|w| w.is_finite())
                .map(round4),
            launch,
            caveats: access.caveats.iter().map(ToString::to_string).collect(),
            empty_requests: access.empty_requests,
            kind: access.kind,
            unknown_cause: access.unknown_cause.clone(),
            details: access_details(access),
            shared_side: access.shared_side.clone(),
            matrix: access.matrix.clone(),
            bulk: access.bulk.clone(),
            descriptors: access.descriptors.clone(),
        }
    }
}

/// Whole-launch totals of a kernel's global memory traffic, as in Nsight
/// Compute's memory tables.
///
/// ```
/// use warpscope::analyze;
/// use warpscope::analysis::{LaunchConfig, Options};
/// use warpscope::report::Report;
/// use warpscope::source::SourceFile;
///
/// # let ptx = r#"
/// # .version 8.0
/// # .target sm_90
/// # .address_size 64
/// # .visible .entry copy(.param .u64 copy_param_0, .param .u64 copy_param_1)
/// # {
/// #     .reg .b32 %r<5>;
/// #     .reg .b64 %rd<8>;
/// #     .reg .f32 %f<2>;
/// #     ld.param.u64 %rd1, [copy_param_0];
/// #     ld.param.u64 %rd2, [copy_param_1];
/// #     cvta.to.global.u64 %rd3, %rd1;
/// #     cvta.to.global.u64 %rd4, %rd2;
/// #     mov.u32 %r1, %ctaid.x;
/// #     mov.u32 %r2, %ntid.x;
/// #     mov.u32 %r3, %tid.x;
/// #     mad.lo.s32 %r4, %r1, %r2, %r3;
/// #     mul.wide.s32 %rd5, %r4, 4;
/// #     add.s64 %rd6, %rd3, %rd5;
/// #     ld.global.f32 %f1, [%rd6];
/// #     add.s64 %rd7, %rd4, %rd5;
/// #     st.global.f32 [%rd7], %f1;
/// #     ret;
/// # }
/// # "#;
/// let file = SourceFile::from_text("copy.ptx", ptx);
/// let options = Options {
///     launch: LaunchConfig { block: Some([256, 1, 1]), grid: Some([40, 1, 1]), params: vec![] },
///     ..Options::default()
/// };
/// let report = Report::from_analysis(&file, &analyze(&file, &options));
/// let t = report.files[0].kernels[0].totals.clone().unwrap();
/// // 10,240 threads = 320 warps, each loading and storing 32 aligned floats.
/// assert_eq!((t.load_requests, t.load_sectors), (320, 1280));
/// assert_eq!((t.requests, t.sectors), (640, 2560));
/// assert_eq!(t.overhead, Some(1.0));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaunchTotals {
    /// Load requests.
    pub load_requests: u64,
    /// Load sectors.
    pub load_sectors: u64,
    /// Store requests.
    pub store_requests: u64,
    /// Store sectors.
    pub store_sectors: u64,
    /// Atomic and reduction requests.
    pub atomic_requests: u64,
    /// Atomic and reduction sectors.
    pub atomic_sectors: u64,
    /// All requests.
    pub requests: u64,
    /// All sectors.
    pub sectors: u64,
    /// Bytes the active lanes asked for.
    pub bytes_requested: u64,
    /// Bytes moved between L1 and L2.
    pub bytes_moved: u64,
    /// `bytes_moved / bytes_requested`.
    pub overhead: Option<f64>,
    /// Lower bound on all sectors (below `sectors` when some addresses depend
    /// on loaded data).
    pub sectors_min: u64,
    /// Upper bound on all sectors.
    pub sectors_max: u64,
    /// Blocks the analysis simulated.
    pub blocks_simulated: u64,
    /// Blocks in the grid (more than simulated when the totals were estimated
    /// from a sample of blocks).
    pub blocks_total: u64,
    /// Bulk and tensor copies issued (the copy engine's traffic is not in the
    /// requests and sectors above).
    #[serde(skip_serializing_if = "is_zero")]
    pub bulk_copies: u64,
    /// Bytes of those copies, when every copy's size is in the PTX.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bulk_bytes: Option<u64>,
    /// Global sectors the copy engine reads for the 1-D copies into shared
    /// memory, when every such copy's addresses are known
    /// (`analysis::cost::bulk_copy`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bulk_load_sectors: Option<u64>,
    /// The same for 1-D bulk stores into global memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bulk_store_sectors: Option<u64>,
    /// The same for 1-D bulk reductions into global memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bulk_reduction_sectors: Option<u64>,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

impl LaunchTotals {
    /// Copies the analysis' totals and adds the sums and the overhead.
    ///
    /// ```
    /// use warpscope::analyze;
    /// use warpscope::analysis::{LaunchConfig, Options};
    /// use warpscope::report::LaunchTotals;
    /// use warpscope::source::SourceFile;
    ///
    /// # let ptx = r#"
    /// # .version 8.0
    /// # .target sm_90
    /// # .address_size 64
    /// # .visible .entry copy(.param .u64 copy_param_0, .param .u64 copy_param_1)
    /// # {
    /// #     .reg .b32 %r<5>;
    /// #     .reg .b64 %rd<8>;
    /// #     .reg .f32 %f<2>;
    /// #     ld.param.u64 %rd1, [copy_param_0];
    /// #     ld.param.u64 %rd2, [copy_param_1];
    /// #     cvta.to.global.u64 %rd3, %rd1;
    /// #     cvta.to.global.u64 %rd4, %rd2;
    /// #     mov.u32 %r1, %ctaid.x;
    /// #     mov.u32 %r2, %ntid.x;
    /// #     mov.u32 %r3, %tid.x;
    /// #     mad.lo.s32 %r4, %r1, %r2, %r3;
    /// #     mul.wide.s32 %rd5, %r4, 4;
    /// #     add.s64 %rd6, %rd3, %rd5;
    /// #     ld.global.f32 %f1, [%rd6];
    /// #     add.s64 %rd7, %rd4, %rd5;
    /// #     st.global.f32 [%rd7], %f1;
    /// #     ret;
    /// # }
    /// # "#;
    /// let file = SourceFile::from_text("copy.ptx", ptx);
    /// let options = Options {
    ///     launch: LaunchConfig { block: Some([32, 1, 1]), grid: Some([1, 1, 1]), params: vec![] },
    ///     ..Options::default()
    /// };
    /// let analysis = analyze(&file, &options);
    /// let t = LaunchTotals::new(analysis.kernels[0].totals.as_ref().unwrap());
    /// assert_eq!((t.requests, t.sectors, t.bytes_moved), (2, 8, 256));
    /// ```
    pub fn new(t: &Totals) -> LaunchTotals {
        LaunchTotals {
            load_requests: t.load_requests,
            load_sectors: t.load_sectors,
            store_requests: t.store_requests,
            store_sectors: t.store_sectors,
            atomic_requests: t.atomic_requests,
            atomic_sectors: t.atomic_sectors,
            requests: t
                .load_requests
                .saturating_add(t.store_requests)
                .saturating_add(t.atomic_requests),
            sectors: t
                .load_sectors
                .saturating_add(t.store_sectors)
                .saturating_add(t.atomic_sectors),
            bytes_requested: t.bytes_requested,
            bytes_moved: t.bytes_moved,
            overhead: if t.bytes_requested > 0 {
                Some(round4(t.bytes_moved as f64 / t.bytes_requested as f64))
            } else {
                None
            },
            sectors_min: t.sectors_min,
            sectors_max: t.sectors_max,
            blocks_simulated: t.blocks_simulated,
            blocks_total: t.blocks_total,
            bulk_copies: t.bulk_copies,
            bulk_bytes: t.bulk_bytes,
            bulk_load_sectors: t.bulk_load_sectors,
            bulk_store_sectors: t.bulk_store_sectors,
            bulk_reduction_sectors: t.bulk_reduction_sectors,
        }
    }
}

/// How the summary's efficiency weighs the accesses.
///
/// ```
/// use warpscope::report::Weighting;
///
/// assert_ne!(Weighting::Requests, Weighting::PerRequest);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Weighting {
    /// Each access weighs its requests over the launch (all were known).
    Requests,
    /// Some access has no known request count: each access counts one request.
    PerRequest,
}

/// The access with the lowest efficiency.
///
/// ```
/// use warpscope::report::WorstAccess;
///
/// use warpscope::analysis::Pattern;
///
/// let w = WorstAccess {
///     ptx_line: 40, instruction: "ld.global.f32".into(), pattern: Pattern::Random, efficiency: 0.125,
/// };
/// assert!(w.efficiency < 1.0);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorstAccess {
    /// Its PTX line.
    pub ptx_line: u32,
    /// Its mnemonic.
    pub instruction: String,
    /// Its lane pattern.
    pub pattern: Pattern,
    /// Its efficiency.
    pub efficiency: f64,
}

/// One-line verdict on a kernel's global memory accesses.
///
/// ```
/// use warpscope::report::{Summary, Weighting};
///
/// let s = Summary::new(&[]);
/// assert_eq!(s.global_accesses, 0);
/// assert_eq!(s.weighted_efficiency, None);
/// assert_eq!(s.weighting, Weighting::Requests);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Global accesses considered.
    pub global_accesses: usize,
    /// The global access with the lowest efficiency (the first in PTX order on ties).
    pub worst: Option<WorstAccess>,
    /// `Σ ideal sectors / Σ sectors` over global accesses.
    pub weighted_efficiency: Option<f64>,
    /// What the sums run over.
    pub weighting: Weighting,
}

impl Summary {
    /// Summarises rows (only global accesses count, as in Nsight's global
    /// memory tables).
    ///
    /// ```
    /// use warpscope::analysis::{Access, AccessOp, Pattern, PerRequest, Space};
    /// use warpscope::report::{AccessRow, Summary, Weighting};
    /// use warpscope::source::{LineCol, Span};
    ///
    /// let row = |line, sectors: f64, requests| AccessRow::new(&Access {
    ///     sass_offset: None,
    ///     line_frames: 1,
    ///     span: Span::default(), ptx: LineCol { line, column: 1 }, source: None,
    ///     instruction: "ld.global.f32".into(), op: AccessOp::Load, space: Space::Global,
    ///     bits: 32, pattern: Pattern::Unknown, stride_bytes: None, lane_pattern: String::new(),
    ///     per_request: PerRequest { l1_lines: 1.0, sectors, ideal_sectors: 4.0,
    ///         sectors_min: sectors, sectors_max: sectors, l1_lines_min: 1.0, l1_lines_max: 1.0,
    ///         active_lanes: Some(32.0) },
    ///     requests: Some(requests), shared_wavefronts: None, caveats: vec![],
    ///     ..Default::default()
    /// });
    /// // 100 requests at 4 sectors, 100 at 32: (400 + 400) / (400 + 3200).
    /// let s = Summary::new(&[row(10, 4.0, 100), row(11, 32.0, 100)]);
    /// assert_eq!(s.worst.unwrap().ptx_line, 11);
    /// assert_eq!(s.weighted_efficiency, Some(0.2222));
    /// assert_eq!(s.weighting, Weighting::Requests);
    /// ```
    pub fn new(rows: &[AccessRow]) -> Summary {
        let global: Vec<&AccessRow> = rows.iter().filter(|r| r.space == Space::Global).collect();
        let mut worst: Option<&AccessRow> = None;
        for r in &global {
            if let Some(e) = r.efficiency {
                if worst.is_none_or(|w| e < w.efficiency.unwrap_or(f64::INFINITY)) {
                    worst = Some(r);
                }
            }
        }
        let all_known = global.iter().all(|r| r.requests.is_some());
        let weighting = if all_known {
            Weighting::Requests
        } else {
            Weighting::PerRequest
        };
        let (mut ideal, mut actual) = (0.0f64, 0.0f64);
        for r in &global {
            match (weighting, &r.launch) {
                // Whole-launch counts: integers, free of the averages' rounding.
                (Weighting::Requests, Some(l)) => {
                    ideal += l.ideal_sectors as f64;
                    actual += l.sectors as f64;
                }
                _ => {
                    ideal += r.ideal_sectors;
                    actual += r.sectors;
                }
            }
        }
        Summary {
            global_accesses: global.len(),
            worst: worst.map(|w| WorstAccess {
                ptx_line: w.ptx_line,
                instruction: w.instruction.clone(),
                pattern: w.pattern,
                efficiency: w.efficiency.unwrap_or(0.0),
            }),
            weighted_efficiency: if actual > 0.0 && ideal.is_finite() {
                Some(round4(ideal / actual))
            } else {
                None
            },
            weighting,
        }
    }
}

impl FileReport {
    /// Derives the report of one file from its analysis.
    ///
    /// ```
    /// use warpscope::analysis::Analysis;
    /// use warpscope::report::FileReport;
    /// use warpscope::source::SourceFile;
    ///
    /// let file = SourceFile::from_text("dir/k.ptx", "");
    /// let r = FileReport::new(&file, &Analysis { kernels: vec![], diagnostics: vec![] });
    /// assert_eq!(r.path, "dir/k.ptx");
    /// ```
    pub fn new(file: &SourceFile, analysis: &Analysis) -> FileReport {
        FileReport {
            path: file.name().to_string(),
            diagnostics: analysis
                .diagnostics
                .iter()
                .map(|d| DiagnosticLine::new(file, d))
                .collect(),
            kernels: analysis.kernels.iter().map(KernelReport::new).collect(),
        }
    }
}

impl Report {
    /// An empty report.
    ///
    /// ```
    /// let r = warpscope::report::Report::new();
    /// assert!(r.files.is_empty());
    /// assert_eq!(r.version, warpscope::report::REPORT_VERSION);
    /// ```
    pub fn new() -> Report {
        Report {
            version: REPORT_VERSION,
            files: Vec::new(),
        }
    }

    /// The report of one file.
    ///
    /// ```
    /// use warpscope::analysis::Analysis;
    /// use warpscope::report::Report;
    /// use warpscope::source::SourceFile;
    ///
    /// let file = SourceFile::from_text("k.ptx", "");
    /// let r = Report::from_analysis(&file, &Analysis { kernels: vec![], diagnostics: vec![] });
    /// assert_eq!(r.files.len(), 1);
    /// ```
    pub fn from_analysis(file: &SourceFile, analysis: &Analysis) -> Report {
        let mut r = Report::new();
        r.add(file, analysis);
        r
    }

    /// Appends one file's report.
    ///
    /// ```
    /// use warpscope::analysis::Analysis;
    /// use warpscope::report::Report;
    /// use warpscope::source::SourceFile;
    ///
    /// let mut r = Report::new();
    /// r.add(&SourceFile::from_text("k.ptx", ""), &Analysis { kernels: vec![], diagnostics: vec![] });
    /// assert_eq!(r.files[0].path, "k.ptx");
    /// ```
    pub fn add(&mut self, file: &SourceFile, analysis: &Analysis) -> &mut Report {
        self.files.push(FileReport::new(file, analysis));
        self
    }
}

/// Renders a report as pretty-printed JSON (layout [`REPORT_VERSION`]),
/// ending with a newline.
///
/// Derived figures are those of [`AccessRow`], [`LaunchTotals`] and
/// [`Summary`]; enums are lower-case strings; absent values are `null`.
///
/// ```
/// use warpscope::analysis::Analysis;
/// use warpscope::report::{render_json, Report};
/// use warpscope::source::SourceFile;
///
/// let file = SourceFile::from_text("k.ptx", "");
/// let json = render_json(&Report::from_analysis(&file, &Analysis { kernels: vec![], diagnostics: vec![] }));
/// let v: serde_json::Value = serde_json::from_str(&json).unwrap();
/// assert_eq!(v["version"], 1);
/// assert_eq!(v["files"][0]["path"], "k.ptx");
/// ```
pub fn render_json(report: &Report) -> String {
    // Serialising plain data with string keys cannot fail.
    let mut s =
        serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

/// An output format of a report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReportFormat {
    /// [`render_text`].
    #[default]
    Text,
    /// [`render_markdown`].
    Markdown,
    /// [`render_json`].
    Json,
}

/// Renders a report one file at a time, for callers that print each file
/// as soon as it is analysed and then drop it (`warpscope report` over many
/// files), or one kernel at a time: [`ReportEmitter::file_head`], then
/// [`ReportEmitter::kernel`] for each kernel's [`KernelReport::render`]
/// (which a worker can make as soon as the kernel is analysed, dropping
/// the report), then [`ReportEmitter::file_end`]. The concatenation of the
/// texts, file after file, and [`ReportEmitter::finish`] is exactly what
/// rendering the whole [`Report`] gives.
#[derive(Debug)]
pub struct ReportEmitter {
    format: ReportFormat,
    files: usize,
    /// Kernels emitted in the current file.
    kernels: usize,
}

/// The JSON of one file's entry in [`Report::files`] up to its kernels.
#[derive(Serialize)]
struct FileHead<'a> {
    path: &'a str,
    diagnostics: &'a [DiagnosticLine],
    kernels: &'a [KernelReport],
}

impl KernelReport {
    /// The kernel's part of its file's rendering in `format`, for
    /// [`ReportEmitter::kernel`].
    pub fn render(&self, format: ReportFormat) -> String {
        let mut out = String::new();
        match format {
            ReportFormat::Text => text::kernel_text(&mut out, self),
            ReportFormat::Markdown => markdown::kernel_markdown(&mut out, self),
            ReportFormat::Json => {
                // An element of `"kernels"`: 4 spaces deep in its file's
                // entry, which is 4 deep in the report.
                let json = serde_json::to_string_pretty(self)
                    .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
                for (i, l) in json.lines().enumerate() {
                    if i > 0 {
                        out.push('\n');
                    }
                    out.push_str("        ");
                    out.push_str(l);
                }
            }
        }
        out
    }
}

impl ReportEmitter {
    /// An emitter for one format.
    pub fn new(format: ReportFormat) -> ReportEmitter {
        ReportEmitter {
            format,
            files: 0,
            kernels: 0,
        }
    }

    /// The text for one more file.
    pub fn file(&mut self, file: &SourceFile, analysis: &Analysis) -> String {
        self.file_report(FileReport::new(file, analysis))
    }

    /// The text for one more file, from its report.
    pub fn file_report(&mut self, report: FileReport) -> String {
        let mut out = self.file_head(&report.path, &report.diagnostics);
        for k in &report.kernels {
            out.push_str(&self.kernel(&k.render(self.format)));
        }
        out.push_str(&self.file_end());
        out
    }

    /// The text that opens one more file: its path and its diagnostics
    /// (all of them: they come before the kernels).
    pub fn file_head(&mut self, path: &str, diagnostics: &[DiagnosticLine]) -> String {
        let first = self.files == 0;
        self.files += 1;
        self.kernels = 0;
        let mut out = String::new();
        match self.format {
            ReportFormat::Text | ReportFormat::Markdown => {
                if !first {
                    out.push('\n');
                }
                if self.format == ReportFormat::Text {
                    text::file_head_text(&mut out, path, diagnostics);
                } else {
                    markdown::file_head_markdown(&mut out, path, diagnostics);
                }
            }
            ReportFormat::Json => {
                let head = FileHead {
                    path,
                    diagnostics,
                    kernels: &[],
                };
                let entry = serde_json::to_string_pretty(&head)
                    .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
                if first {
                    out.push_str(&format!(
                        "{{\n  \"version\": {REPORT_VERSION},\n  \"files\": [\n"
                    ));
                } else {
                    out.push_str(",\n");
                }
                for (i, l) in entry.lines().enumerate() {
                    if i > 0 {
                        out.push('\n');
                    }
                    out.push_str("    ");
                    out.push_str(l);
                }
                // The entry ends `"kernels": []` and `}`: the kernels and
                // the closing brackets come from `kernel` and `file_end`.
                if let Some(head) = out.strip_suffix("[]\n    }") {
                    out.truncate(head.len());
                }
            }
        }
        out
    }

    /// The text of the current file's next kernel, from
    /// [`KernelReport::render`] in this emitter's format.
    pub fn kernel(&mut self, rendered: &str) -> String {
        let first = self.kernels == 0;
        self.kernels += 1;
        let open = match self.format {
            ReportFormat::Text | ReportFormat::Markdown => "\n",
            ReportFormat::Json if first => "[\n",
            ReportFormat::Json => ",\n",
        };
        let mut out = String::with_capacity(open.len() + rendered.len());
        out.push_str(open);
        out.push_str(rendered);
        out
    }

    /// The text that closes the current file, after its kernels.
    pub fn file_end(&mut self) -> String {
        let none = self.kernels == 0;
        match self.format {
            ReportFormat::Text if none => "no kernels\n".to_string(),
            ReportFormat::Markdown if none => "\nNo kernels.\n".to_string(),
            ReportFormat::Text | ReportFormat::Markdown => String::new(),
            ReportFormat::Json if none => "[]\n    }".to_string(),
            ReportFormat::Json => "\n      ]\n    }".to_string(),
        }
    }

    /// The closing text, after the last file.
    pub fn finish(self) -> String {
        match self.format {
            ReportFormat::Text | ReportFormat::Markdown => String::new(),
            ReportFormat::Json if self.files == 0 => render_json(&Report::new()),
            ReportFormat::Json => "\n  ]\n}\n".to_string(),
        }
    }
}

/// The last path component (either separator), so reports do not carry
/// directories of the machine that compiled the kernel.
fn file_name(path: &str) -> String {
    path.rsplit(['/', '\\']).next().unwrap_or(path).to_string()
}

/// Rounds to 4 decimals (stable JSON, stable comparisons).
fn round4(x: f64) -> f64 {
    if x.is_finite() {
        let r = (x * 10_000.0).round() / 10_000.0;
        if r == 0.0 {
            0.0
        } else {
            r
        }
    } else {
        x
    }
}

/// A whole-launch count from a product of averages (non-finite or negative
/// becomes 0; rounding absorbs the averages' floating-point error).
fn to_count(x: f64) -> u64 {
    if x.is_finite() && x > 0.0 {
        x.round().min(u64::MAX as f64) as u64
    } else {
        0
    }
}

#[cfg(test)]
mod tests;
