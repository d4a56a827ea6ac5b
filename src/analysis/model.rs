//! The results of the warp address analysis: plain data, serialisable as the
//! stable JSON contract (`version: 1`; fields may be added, none renamed).

pub use super::caveat::Caveat;
use crate::diagnostic::Diagnostic;
use crate::source::Span;
use serde::Serialize;

/// Which memory model to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arch {
    /// Volta and later (sm_70+): one request per warp instruction; L1 lines
    /// (128 B) and L2 sectors (32 B) are counted over the active lanes' bytes.
    #[default]
    Sm70,
    /// Pascal (sm_60/61): global loads are cached in L2 only (32-byte
    /// transactions); L1 line figures are reported but not meaningful.
    Sm60,
}

/// Facts about how a kernel is launched; every field optional.
///
/// # Example
///
/// ```
/// use warpscope::{analyze, LaunchConfig, Options, SourceFile};
/// # let ptx = r#"
/// # .version 8.0
/// # .target sm_90
/// # .address_size 64
/// # .visible .entry column(.param .u64 column_param_0, .param .u32 column_param_1)
/// # {
/// #     .reg .b32 %r<6>;
/// #     .reg .b64 %rd<6>;
/// #     .reg .f32 %f<2>;
/// #     ld.param.u64 %rd1, [column_param_0];
/// #     ld.param.u32 %r5, [column_param_1];
/// #     cvta.to.global.u64 %rd2, %rd1;
/// #     mov.u32 %r1, %ctaid.x;
/// #     mov.u32 %r2, %ntid.x;
/// #     mov.u32 %r3, %tid.x;
/// #     mad.lo.s32 %r4, %r1, %r2, %r3;
/// #     mul.lo.s32 %r4, %r4, 32;
/// #     mul.wide.s32 %rd3, %r4, 4;
/// #     add.s64 %rd4, %rd2, %rd3;
/// #     ld.global.f32 %f1, [%rd4];
/// #     st.global.f32 [%rd4], %f1;
/// #     ret;
/// # }
/// # "#;
/// let file = SourceFile::from_text("column.ptx", ptx);
/// let opts = Options {
///     launch: LaunchConfig { block: Some([128, 1, 1]), grid: Some([2, 1, 1]), params: vec![] },
///     ..Options::default()
/// };
/// let analysis = analyze(&file, &opts);
/// // Launch facts decide the active lanes and the totals.
/// assert_eq!(analysis.kernels[0].grid, Some([2, 1, 1]));
/// assert!(analysis.kernels[0].totals.is_some());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct LaunchConfig {
    /// Threads per block (x, y, z).
    pub block: Option<[u32; 3]>,
    /// Blocks per grid (x, y, z).
    pub grid: Option<[u32; 3]>,
    /// Values of scalar parameters, by index or PTX name.
    pub params: Vec<(ParamKey, ParamValue)>,
}

/// A parameter's value as given: an integer, or a number with a fraction or
/// an exponent (`0.5`, `1e-3`). A floating-point parameter (`.f32`, `.f64`)
/// takes either as that number (`beta=0` is 0.0); an untyped one (`.b32`,
/// `.b64`) takes a float as its bits; an integer one only an integer.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// An integer (decimal or `0x` hex on the command line).
    Int(i64),
    /// A number with a fraction or an exponent.
    Float(f64),
}

impl From<i64> for ParamValue {
    fn from(v: i64) -> ParamValue {
        ParamValue::Int(v)
    }
}

impl ParamValue {
    /// The bits an `ld.param` of a parameter of PTX type `ty` (`f32`, `u64`,
    /// …; `None` when untyped) reads; `None` when a float is given for an
    /// integer type or for a type whose float layout is not modelled
    /// (`f16`, `bf16`).
    pub fn bits_for(self, ty: Option<&str>) -> Option<i64> {
        let float = |v: f64| match ty {
            Some("f32" | "b32") => Some(i64::from((v as f32).to_bits())),
            Some("f64" | "b64") => Some(v.to_bits() as i64),
            _ => None,
        };
        match (self, ty) {
            (ParamValue::Int(i), Some("f32" | "f64")) => float(i as f64),
            (ParamValue::Int(i), _) => Some(i),
            (ParamValue::Float(v), _) => float(v),
        }
    }
}

impl std::fmt::Display for ParamValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamValue::Int(i) => write!(f, "{i}"),
            ParamValue::Float(v) => write!(f, "{v:?}"),
        }
    }
}

/// How a parameter is named on the command line or in the config file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum ParamKey {
    /// Index from 0 in the kernel's parameter list.
    Index(usize),
    /// PTX parameter name (`_Z3fooPfi_param_1`) or its suffix after `_param_`.
    Name(String),
}

/// Options of one analysis run.
///
/// # Example
///
/// ```
/// use warpscope::{analyze, LaunchConfig, Options, SourceFile};
/// # let ptx = r#"
/// # .version 8.0
/// # .target sm_90
/// # .address_size 64
/// # .visible .entry column(.param .u64 column_param_0, .param .u32 column_param_1)
/// # {
/// #     .reg .b32 %r<6>;
/// #     .reg .b64 %rd<6>;
/// #     .reg .f32 %f<2>;
/// #     ld.param.u64 %rd1, [column_param_0];
/// #     ld.param.u32 %r5, [column_param_1];
/// #     cvta.to.global.u64 %rd2, %rd1;
/// #     mov.u32 %r1, %ctaid.x;
/// #     mov.u32 %r2, %ntid.x;
/// #     mov.u32 %r3, %tid.x;
/// #     mad.lo.s32 %r4, %r1, %r2, %r3;
/// #     mul.lo.s32 %r4, %r4, 32;
/// #     mul.wide.s32 %rd3, %r4, 4;
/// #     add.s64 %rd4, %rd2, %rd3;
/// #     ld.global.f32 %f1, [%rd4];
/// #     st.global.f32 [%rd4], %f1;
/// #     ret;
/// # }
/// # "#;
/// let file = SourceFile::from_text("column.ptx", ptx);
/// let opts = Options {
///     launch: LaunchConfig { block: Some([128, 1, 1]), grid: Some([2, 1, 1]), params: vec![] },
///     ..Options::default()
/// };
/// let analysis = analyze(&file, &opts);
/// // 256-byte pointer alignment (cudaMalloc) and the sm70 model by default.
/// assert_eq!(opts.pointer_align, 256);
/// assert_eq!(analysis.kernels.len(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Options {
    /// Memory model.
    pub arch: Arch,
    /// Launch facts applied to every kernel unless a per-kernel entry overrides.
    pub launch: LaunchConfig,
    /// Per-kernel launch facts: (glob on mangled or demangled name, facts).
    pub kernels: Vec<(String, LaunchConfig)>,
    /// Only analyse kernels whose mangled or demangled name matches this glob.
    pub kernel_filter: Option<String>,
    /// Alignment assumed for pointer parameters, in bytes (cudaMalloc gives 256).
    pub pointer_align: u32,
    /// Whether each `unknown` access gets its [`Access::unknown_cause`]
    /// (`analysis::coverage`: an SSA form and a dependence pass of the
    /// kernel). On by default; a caller that reads no cause turns it off:
    /// `lints::check_file_parts` and `check_file_with` when they drop the
    /// kernels once linted (no lint reads the cause). No other field of an
    /// access depends on it; it is not serialised.
    #[serde(skip, default = "unknown_causes_default")]
    pub unknown_causes: bool,
}

/// [`Options::unknown_causes`]' default: on.
fn unknown_causes_default() -> bool {
    true
}

impl Default for Options {
    fn default() -> Options {
        Options {
            arch: Arch::Sm70,
            launch: LaunchConfig::default(),
            kernels: Vec::new(),
            kernel_filter: None,
            pointer_align: 256,
            unknown_causes: true,
        }
    }
}

pub use crate::ir::{AccessOp, BulkFacts, MatrixFacts, MemKind, Space};

/// How the 32 lanes of a warp address memory.
///
/// # Example
///
/// ```
/// use warpscope::{analyze, LaunchConfig, Options, Pattern, SourceFile};
/// # let ptx = r#"
/// # .version 8.0
/// # .target sm_90
/// # .address_size 64
/// # .visible .entry column(.param .u64 column_param_0, .param .u32 column_param_1)
/// # {
/// #     .reg .b32 %r<6>;
/// #     .reg .b64 %rd<6>;
/// #     .reg .f32 %f<2>;
/// #     ld.param.u64 %rd1, [column_param_0];
/// #     ld.param.u32 %r5, [column_param_1];
/// #     cvta.to.global.u64 %rd2, %rd1;
/// #     mov.u32 %r1, %ctaid.x;
/// #     mov.u32 %r2, %ntid.x;
/// #     mov.u32 %r3, %tid.x;
/// #     mad.lo.s32 %r4, %r1, %r2, %r3;
/// #     mul.lo.s32 %r4, %r4, 32;
/// #     mul.wide.s32 %rd3, %r4, 4;
/// #     add.s64 %rd4, %rd2, %rd3;
/// #     ld.global.f32 %f1, [%rd4];
/// #     st.global.f32 [%rd4], %f1;
/// #     ret;
/// # }
/// # "#;
/// let file = SourceFile::from_text("column.ptx", ptx);
/// let opts = Options {
///     launch: LaunchConfig { block: Some([128, 1, 1]), grid: Some([2, 1, 1]), params: vec![] },
///     ..Options::default()
/// };
/// let analysis = analyze(&file, &opts);
/// // Lanes 32 floats apart: a strided load.
/// let load = &analysis.kernels[0].accesses[0];
/// assert_eq!(load.pattern, Pattern::Strided);
/// assert_eq!(load.pattern.as_str(), "strided");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pattern {
    /// No more sectors than the ideal: consecutive aligned elements, or any
    /// other layout that costs the same (a permutation inside a segment).
    Coalesced,
    /// Every active lane reads the same address.
    Broadcast,
    /// Lane i at base + stride*i (stride in `stride_bytes`), stride ≠ element size.
    Strided,
    /// Consecutive elements, but the warp's range is not aligned to the sector grid.
    Misaligned,
    /// Lanes address a known, non-affine set that costs more than the ideal.
    Irregular,
    /// The address depends on loaded data (gather/scatter).
    Random,
    /// The analysis could not resolve the lane addresses.
    Unknown,
}

impl AccessOp {
    /// Lower-case name, as every output format prints it (and as serialised).
    pub fn as_str(self) -> &'static str {
        match self {
            AccessOp::Load => "load",
            AccessOp::Store => "store",
            AccessOp::Atomic => "atomic",
        }
    }
}

impl Space {
    /// Lower-case name, as every output format prints it (and as serialised).
    pub fn as_str(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Generic => "generic",
            Space::Const => "const",
            Space::Param => "param",
            Space::SharedCluster => "shared::cluster",
        }
    }
}

impl Pattern {
    /// Lower-case name, as every output format prints it (and as serialised).
    pub fn as_str(self) -> &'static str {
        match self {
            Pattern::Coalesced => "coalesced",
            Pattern::Broadcast => "broadcast",
            Pattern::Strided => "strided",
            Pattern::Misaligned => "misaligned",
            Pattern::Irregular => "irregular",
            Pattern::Random => "random",
            Pattern::Unknown => "unknown",
        }
    }
}

/// Cost of one request (one warp executing the instruction once).
///
/// # Example
///
/// ```
/// use warpscope::{analyze, LaunchConfig, Options, SourceFile};
/// # let ptx = r#"
/// # .version 8.0
/// # .target sm_90
/// # .address_size 64
/// # .visible .entry column(.param .u64 column_param_0, .param .u32 column_param_1)
/// # {
/// #     .reg .b32 %r<6>;
/// #     .reg .b64 %rd<6>;
/// #     .reg .f32 %f<2>;
/// #     ld.param.u64 %rd1, [column_param_0];
/// #     ld.param.u32 %r5, [column_param_1];
/// #     cvta.to.global.u64 %rd2, %rd1;
/// #     mov.u32 %r1, %ctaid.x;
/// #     mov.u32 %r2, %ntid.x;
/// #     mov.u32 %r3, %tid.x;
/// #     mad.lo.s32 %r4, %r1, %r2, %r3;
/// #     mul.lo.s32 %r4, %r4, 32;
/// #     mul.wide.s32 %rd3, %r4, 4;
/// #     add.s64 %rd4, %rd2, %rd3;
/// #     ld.global.f32 %f1, [%rd4];
/// #     st.global.f32 [%rd4], %f1;
/// #     ret;
/// # }
/// # "#;
/// let file = SourceFile::from_text("column.ptx", ptx);
/// let opts = Options {
///     launch: LaunchConfig { block: Some([128, 1, 1]), grid: Some([2, 1, 1]), params: vec![] },
///     ..Options::default()
/// };
/// let analysis = analyze(&file, &opts);
/// // 32 lanes, 128 bytes apart: 32 lines and 32 sectors where 4 would do.
/// let cost = analysis.kernels[0].accesses[0].per_request;
/// assert_eq!(cost.l1_lines, 32.0);
/// assert_eq!(cost.sectors, 32.0);
/// assert_eq!(cost.ideal_sectors, 4.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Default)]
pub struct PerRequest {
    /// Distinct 128-byte L1 lines touched (average over the launch's warps).
    pub l1_lines: f64,
    /// Distinct 32-byte sectors touched (expected value when not exact).
    pub sectors: f64,
    /// Sectors an ideal (contiguous, aligned) access of this width would touch.
    pub ideal_sectors: f64,
    /// Lower bound on sectors.
    pub sectors_min: f64,
    /// Upper bound on sectors.
    pub sectors_max: f64,
    /// Lower bound on L1 lines.
    pub l1_lines_min: f64,
    /// Upper bound on L1 lines.
    pub l1_lines_max: f64,
    /// Active lanes per request, when known.
    pub active_lanes: Option<f64>,
}

/// Where an access stands in the CUDA (or other high-level) source, via `.loc`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Default)]
pub struct SourceLocation {
    /// File name from `.file`.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// Column (0 when unknown, as `.loc` writes it).
    pub column: u32,
    /// The call site when the code was inlined (`.loc … inlined_at f l c`):
    /// `file:line` is then inside the callee (a CUDA header for `atomicAdd`).
    pub inlined_at: Option<Box<SourceLocation>>,
}

impl SourceLocation {
    /// The frame of this inline chain that Nsight Compute's source view
    /// lists first when ptxas's line table holds the `frames` innermost
    /// frames at the instruction's code ([`Access::line_frames`]): the least
    /// (file path, line) among them (`tests/hw/line_attribution.md`).
    ///
    /// ```
    /// use warpscope::analysis::SourceLocation;
    /// let kernel = SourceLocation { file: "/src/k.cu".into(), line: 7, ..Default::default() };
    /// let header = SourceLocation {
    ///     file: "/usr/local/cuda/include/cuda_bf16.hpp".into(),
    ///     line: 266,
    ///     inlined_at: Some(Box::new(kernel)),
    ///     ..Default::default()
    /// };
    /// assert_eq!(header.first_listed(1).line, 266);
    /// assert_eq!(header.first_listed(2).line, 7);
    /// ```
    pub fn first_listed(&self, frames: u32) -> &SourceLocation {
        std::iter::successors(Some(self), |s| s.inlined_at.as_deref())
            .take(frames.max(1) as usize)
            .min_by(|a, b| (a.file.as_str(), a.line).cmp(&(b.file.as_str(), b.line)))
            .unwrap_or(self)
    }
}

/// One memory instruction and what it costs.
///
/// # Example
///
/// ```
/// use warpscope::{analyze, LaunchConfig, Options, SourceFile};
/// # let ptx = r#"
/// # .version 8.0
/// # .target sm_90
/// # .address_size 64
/// # .visible .entry column(.param .u64 column_param_0, .param .u32 column_param_1)
/// # {
/// #     .reg .b32 %r<6>;
/// #     .reg .b64 %rd<6>;
/// #     .reg .f32 %f<2>;
/// #     ld.param.u64 %rd1, [column_param_0];
/// #     ld.param.u32 %r5, [column_param_1];
/// #     cvta.to.global.u64 %rd2, %rd1;
/// #     mov.u32 %r1, %ctaid.x;
/// #     mov.u32 %r2, %ntid.x;
/// #     mov.u32 %r3, %tid.x;
/// #     mad.lo.s32 %r4, %r1, %r2, %r3;
/// #     mul.lo.s32 %r4, %r4, 32;
/// #     mul.wide.s32 %rd3, %r4, 4;
/// #     add.s64 %rd4, %rd2, %rd3;
/// #     ld.global.f32 %f1, [%rd4];
/// #     st.global.f32 [%rd4], %f1;
/// #     ret;
/// # }
/// # "#;
/// let file = SourceFile::from_text("column.ptx", ptx);
/// let opts = Options {
///     launch: LaunchConfig { block: Some([128, 1, 1]), grid: Some([2, 1, 1]), params: vec![] },
///     ..Options::default()
/// };
/// let analysis = analyze(&file, &opts);
/// let load = &analysis.kernels[0].accesses[0];
/// assert_eq!(load.instruction, "ld.global.f32");
/// assert_eq!(load.bits, 32);
/// assert_eq!(load.stride_bytes, Some(128));
/// assert_eq!(load.requests, Some(8)); // 2 blocks x 4 warps
/// assert_eq!((load.ptx.line, load.ptx.column), (20, 5));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Access {
    /// The instruction's span in the PTX.
    #[serde(skip)]
    pub span: Span,
    /// PTX line and column.
    pub ptx: crate::source::LineCol,
    /// CUDA source location from `.loc`.
    pub source: Option<SourceLocation>,
    /// How many frames of `source`'s inline chain, innermost first, the
    /// line table that ptxas writes holds at this instruction's code (a
    /// model from the PTX order; 1 for code that is not inlined): Nsight
    /// Compute's source view lists the instruction under each of these
    /// lines (`tests/hw/line_attribution.md`; its first listing is the
    /// least (file path, line) of them). In JSON only when above 1.
    #[serde(skip_serializing_if = "is_one")]
    pub line_frames: u32,
    /// Mnemonic, such as `ld.global.v4.f32`.
    pub instruction: String,
    /// Load, store or atomic.
    pub op: AccessOp,
    /// Memory space.
    pub space: Space,
    /// Bits per lane (element bits times vector width).
    pub bits: u32,
    /// Lane pattern.
    pub pattern: Pattern,
    /// Byte stride between consecutive lanes, when the pattern is affine
    /// (`ldmatrix`/`stmatrix`: between the row addresses of one matrix).
    pub stride_bytes: Option<i64>,
    /// Human-readable lane address pattern, such as `base + 128*i`.
    pub lane_pattern: String,
    /// Cost per request.
    pub per_request: PerRequest,
    /// Executions of this instruction over the launch, when derivable.
    pub requests: Option<u64>,
    /// Shared memory only: bank-conflict wavefronts per request (32 banks of
    /// 4 bytes), when the lane addresses are resolved. For a `cp.async`, the
    /// wavefronts of its shared-memory destination; for `ldmatrix`/`stmatrix`,
    /// those of its row addresses.
    pub shared_wavefronts: Option<f64>,
    /// Why the figures are bounds rather than exact, if they are (each
    /// serialised as its message).
    pub caveats: Vec<Caveat>,
    /// What kind of memory operation this is (absent from the JSON when
    /// `plain`).
    #[serde(skip_serializing_if = "MemKind::is_plain")]
    pub kind: MemKind,
    /// Requests in which the guard turned every lane off (counted in
    /// `requests`, with zero lines, sectors and wavefronts, as Nsight Compute
    /// counts them), when the launch is simulated and there are any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicated_off_requests: Option<u64>,
    /// Requests in which no lane accesses memory (the guard off in every
    /// lane, or a `cp.async` whose every lane zero-fills), when simulated and
    /// there are any: counted in `requests` and in the per-request averages,
    /// as Nsight's per-instruction counters count them, but not in the
    /// kernel totals, as its kernel-level counters do not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empty_requests: Option<u64>,
    /// `cp.async`: the shared-memory side of the copy (the global side is
    /// the access's own pattern, lines and sectors).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_side: Option<SharedSide>,
    /// `ldmatrix`/`stmatrix`: the matrices and which lanes supply their rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matrix: Option<MatrixFacts>,
    /// Bulk and tensor copies (`cp.async.bulk*`, `cp.reduce.async.bulk*`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bulk: Option<BulkFacts>,
    /// `wgmma`: the shared-memory matrix descriptors of its operands.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub descriptors: Vec<MatrixDescriptor>,
    /// The instruction's operand facts (vector count, element type, address
    /// operand, guard, position): what lints need to know about the
    /// instruction without reading the PTX text.
    #[serde(skip)]
    pub facts: InstrFacts,
    /// Why the pattern is `unknown`, when it is (see `analysis::coverage`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown_cause: Option<super::coverage::UnknownCause>,
    /// SASS input: the instruction's byte offset in its function (the
    /// `/*0120*/` of the listing, the address Nsight Compute shows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sass_offset: Option<u32>,
}

impl Default for Access {
    /// An empty access (a load of no bits at line 0 in generic space, pattern
    /// unknown): a base for hand-built accesses, `Access { .., ..Default::default() }`.
    fn default() -> Access {
        Access {
            span: Span::default(),
            ptx: crate::source::LineCol { line: 0, column: 0 },
            source: None,
            line_frames: 1,
            instruction: String::new(),
            op: AccessOp::Load,
            space: Space::Generic,
            bits: 0,
            pattern: Pattern::Unknown,
            stride_bytes: None,
            lane_pattern: String::new(),
            per_request: PerRequest::default(),
            requests: None,
            shared_wavefronts: None,
            caveats: Vec::new(),
            kind: MemKind::Plain,
            predicated_off_requests: None,
            empty_requests: None,
            shared_side: None,
            matrix: None,
            bulk: None,
            descriptors: Vec::new(),
            facts: InstrFacts::default(),
            unknown_cause: None,
            sass_offset: None,
        }
    }
}

/// The shared-memory side of a `cp.async`.
#[derive(Clone, Debug, PartialEq, Serialize, Default)]
pub struct SharedSide {
    /// Lane pattern of the destination addresses.
    pub pattern: Option<Pattern>,
    /// Byte stride between consecutive lanes' destinations, when affine.
    pub stride_bytes: Option<i64>,
    /// Human-readable destination address, such as `smem + 16*i`.
    pub lane_pattern: String,
    /// Bank-conflict wavefronts per request of the shared-memory write,
    /// when every destination address is resolved.
    pub wavefronts: Option<f64>,
}

/// An `mbarrier` operation that sets the bytes a phase waits for
/// (`mbarrier.expect_tx`, `mbarrier.arrive.expect_tx`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExpectTx {
    /// The instruction's span.
    #[serde(skip)]
    pub span: Span,
    /// PTX line and column.
    pub ptx: crate::source::LineCol,
    /// The mbarrier's address operand (as in [`BulkFacts::mbarrier`]).
    pub mbarrier: Option<String>,
    /// The transaction count in bytes, when it is a constant.
    pub bytes: Option<u64>,
}

/// A decoded `wgmma` shared-memory matrix descriptor (64 bits: start
/// address, leading and stride byte offsets, base offset, swizzle mode).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Default)]
pub struct MatrixDescriptor {
    /// Which operand: `a` or `b`.
    pub operand: String,
    /// Leading dimension byte offset, when its bits are known.
    pub leading_byte_offset: Option<u32>,
    /// Stride dimension byte offset, when its bits are known.
    pub stride_byte_offset: Option<u32>,
    /// Swizzle mode (`none`, `32B`, `64B`, `128B`), when its bits are known.
    pub swizzle: Option<String>,
    /// Matrix base offset (bits 49–51), when known.
    pub base_offset: Option<u32>,
    /// Start address (shared-memory byte address), when known.
    pub start_address: Option<u64>,
}

/// Operand facts of a memory instruction: what the lints need to know about
/// its syntax, given as data.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct InstrFacts {
    /// Vector count (`.v2` → 2; 1 for scalars).
    pub vector: u32,
    /// Bits of one element (`.f32` → 32).
    pub element_bits: u32,
    /// The element type modifier (`f32`, `u8`, `b128`), if any.
    pub element_type: Option<String>,
    /// The address operand's base (a register or variable name) and
    /// constant byte offset: `[%rd4+8]` → (`%rd4`, 8).
    pub address: Option<(String, i64)>,
    /// The instruction's guard: predicate register and negation (`@!%p`).
    pub guard: Option<(String, bool)>,
    /// True when a predicated instruction (a guarded branch included)
    /// stands before this one in the kernel: the instruction may run in
    /// fewer lanes than the static analysis assumes.
    pub after_guard: bool,
    /// Index of the straight-line stretch of the body the instruction is in:
    /// it changes at every label, so two instructions with the same index
    /// have no label between them.
    pub label_region: u32,
}

/// Whole-launch totals of one kernel.
///
/// # Example
///
/// ```
/// use warpscope::{analyze, LaunchConfig, Options, SourceFile};
/// # let ptx = r#"
/// # .version 8.0
/// # .target sm_90
/// # .address_size 64
/// # .visible .entry column(.param .u64 column_param_0, .param .u32 column_param_1)
/// # {
/// #     .reg .b32 %r<6>;
/// #     .reg .b64 %rd<6>;
/// #     .reg .f32 %f<2>;
/// #     ld.param.u64 %rd1, [column_param_0];
/// #     ld.param.u32 %r5, [column_param_1];
/// #     cvta.to.global.u64 %rd2, %rd1;
/// #     mov.u32 %r1, %ctaid.x;
/// #     mov.u32 %r2, %ntid.x;
/// #     mov.u32 %r3, %tid.x;
/// #     mad.lo.s32 %r4, %r1, %r2, %r3;
/// #     mul.lo.s32 %r4, %r4, 32;
/// #     mul.wide.s32 %rd3, %r4, 4;
/// #     add.s64 %rd4, %rd2, %rd3;
/// #     ld.global.f32 %f1, [%rd4];
/// #     st.global.f32 [%rd4], %f1;
/// #     ret;
/// # }
/// # "#;
/// let file = SourceFile::from_text("column.ptx", ptx);
/// let opts = Options {
///     launch: LaunchConfig { block: Some([128, 1, 1]), grid: Some([2, 1, 1]), params: vec![] },
///     ..Options::default()
/// };
/// let analysis = analyze(&file, &opts);
/// let totals = analysis.kernels[0].totals.as_ref().unwrap();
/// assert_eq!(totals.load_requests, 8);
/// assert_eq!(totals.load_sectors, 8 * 32);
/// assert_eq!(totals.store_sectors, 8 * 32);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Totals {
    /// Global load requests: those in which some lane accesses memory, as
    /// Nsight Compute's kernel-level counters count them (a request issued
    /// with its guard off in every lane counts in an access's per-request
    /// figures, not here).
    pub load_requests: u64,
    /// Global load sectors.
    pub load_sectors: u64,
    /// Global store requests.
    pub store_requests: u64,
    /// Global store sectors.
    pub store_sectors: u64,
    /// Global atomic/reduction requests.
    pub atomic_requests: u64,
    /// Global atomic/reduction sectors.
    pub atomic_sectors: u64,
    /// Bytes the active lanes asked for.
    pub bytes_requested: u64,
    /// Bytes moved between L1 and L2 (sectors × 32).
    pub bytes_moved: u64,
    /// Lower bound on all global sectors (differs from the sum when some
    /// addresses or guards depend on loaded data or on parameters not
    /// given: lanes under an undecided guard are left out of it).
    pub sectors_min: u64,
    /// Upper bound on all global sectors.
    pub sectors_max: u64,
    /// Blocks simulated.
    pub blocks_simulated: u64,
    /// Blocks in the grid (more than `blocks_simulated` when the totals were
    /// estimated from a sample of blocks: `totals::sample`).
    pub blocks_total: u64,
    /// `cp.async` requests (LDGSTS), included in `load_requests`: Nsight
    /// Compute counts them as global loads at kernel level
    /// (`tests/hw/README.md`, finding 11).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub async_copy_requests: u64,
    /// Global sectors of the `cp.async` requests, included in `load_sectors`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub async_copy_sectors: u64,
    /// Bulk and tensor copies issued (one per executing lane).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bulk_copies: u64,
    /// Bytes of those copies as issued (a multicast copy once, whatever
    /// its destinations), when every copy's size is in the PTX.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bulk_bytes: Option<u64>,
    /// Global sectors the copy engine read for the 1-D bulk copies from
    /// global into shared memory (`cost::bulk_copy`: pieces split at the
    /// shared side's 128-byte boundaries), when every such copy's addresses
    /// were known, once for each CTA a multicast copy writes to (its
    /// `ctaMask`: `ir::BulkFacts::multicast_ctas`); the kernel-level counter
    /// `l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld` (tensor
    /// copies not included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bulk_load_sectors: Option<u64>,
    /// The same for 1-D bulk stores from shared into global memory
    /// (`l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bulk_store_sectors: Option<u64>,
    /// The same for 1-D bulk reductions into global memory
    /// (`l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bulk_reduction_sectors: Option<u64>,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

fn is_one(x: &u32) -> bool {
    *x == 1
}

/// One kernel's analysis.
///
/// # Example
///
/// ```
/// use warpscope::{analyze, LaunchConfig, Options, SourceFile};
/// # let ptx = r#"
/// # .version 8.0
/// # .target sm_90
/// # .address_size 64
/// # .visible .entry column(.param .u64 column_param_0, .param .u32 column_param_1)
/// # {
/// #     .reg .b32 %r<6>;
/// #     .reg .b64 %rd<6>;
/// #     .reg .f32 %f<2>;
/// #     ld.param.u64 %rd1, [column_param_0];
/// #     ld.param.u32 %r5, [column_param_1];
/// #     cvta.to.global.u64 %rd2, %rd1;
/// #     mov.u32 %r1, %ctaid.x;
/// #     mov.u32 %r2, %ntid.x;
/// #     mov.u32 %r3, %tid.x;
/// #     mad.lo.s32 %r4, %r1, %r2, %r3;
/// #     mul.lo.s32 %r4, %r4, 32;
/// #     mul.wide.s32 %rd3, %r4, 4;
/// #     add.s64 %rd4, %rd2, %rd3;
/// #     ld.global.f32 %f1, [%rd4];
/// #     st.global.f32 [%rd4], %f1;
/// #     ret;
/// # }
/// # "#;
/// let file = SourceFile::from_text("column.ptx", ptx);
/// let opts = Options {
///     launch: LaunchConfig { block: Some([128, 1, 1]), grid: Some([2, 1, 1]), params: vec![] },
///     ..Options::default()
/// };
/// let analysis = analyze(&file, &opts);
/// let kernel = &analysis.kernels[0];
/// assert_eq!(kernel.name, "column");
/// assert_eq!(kernel.block, [128, 1, 1]);
/// assert!(!kernel.block_assumed);
/// assert_eq!(kernel.accesses.len(), 2); // the load and the store
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KernelAnalysis {
    /// Mangled name.
    pub name: String,
    /// Demangled name (equal to `name` when it is not mangled).
    pub demangled: String,
    /// Block shape used.
    pub block: [u32; 3],
    /// True when the block shape was assumed, not given.
    pub block_assumed: bool,
    /// Grid shape, when given.
    pub grid: Option<[u32; 3]>,
    /// Every memory access, in PTX order.
    pub accesses: Vec<Access>,
    /// Whole-launch totals, when grid and parameters allow.
    pub totals: Option<Totals>,
    /// Why totals could not be derived.
    pub totals_unavailable: Option<String>,
    /// What was assumed for the whole kernel (block shape, …), each
    /// serialised as its message.
    pub caveats: Vec<Caveat>,
    /// `mbarrier` `expect_tx` operations, in PTX order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expect_tx: Vec<ExpectTx>,
    /// Span of the kernel's name.
    #[serde(skip)]
    pub span: Span,
}

/// The analysis of one PTX file.
///
/// # Example
///
/// ```
/// use warpscope::{analyze, LaunchConfig, Options, SourceFile};
/// # let ptx = r#"
/// # .version 8.0
/// # .target sm_90
/// # .address_size 64
/// # .visible .entry column(.param .u64 column_param_0, .param .u32 column_param_1)
/// # {
/// #     .reg .b32 %r<6>;
/// #     .reg .b64 %rd<6>;
/// #     .reg .f32 %f<2>;
/// #     ld.param.u64 %rd1, [column_param_0];
/// #     ld.param.u32 %r5, [column_param_1];
/// #     cvta.to.global.u64 %rd2, %rd1;
/// #     mov.u32 %r1, %ctaid.x;
/// #     mov.u32 %r2, %ntid.x;
/// #     mov.u32 %r3, %tid.x;
/// #     mad.lo.s32 %r4, %r1, %r2, %r3;
/// #     mul.lo.s32 %r4, %r4, 32;
/// #     mul.wide.s32 %rd3, %r4, 4;
/// #     add.s64 %rd4, %rd2, %rd3;
/// #     ld.global.f32 %f1, [%rd4];
/// #     st.global.f32 [%rd4], %f1;
/// #     ret;
/// # }
/// # "#;
/// let file = SourceFile::from_text("column.ptx", ptx);
/// let opts = Options {
///     launch: LaunchConfig { block: Some([128, 1, 1]), grid: Some([2, 1, 1]), params: vec![] },
///     ..Options::default()
/// };
/// let analysis = analyze(&file, &opts);
/// // No syntax or name errors; one kernel.
/// assert!(analysis.diagnostics.is_empty());
/// assert_eq!(analysis.kernels.len(), 1);
/// // The JSON contract is the serde form of these types.
/// let json = serde_json::to_value(&analysis).unwrap();
/// assert_eq!(json["kernels"][0]["accesses"][0]["pattern"], "strided");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// Kernels (`.entry`) in source order.
    pub kernels: Vec<KernelAnalysis>,
    /// Front-end and analysis diagnostics (lints are computed separately).
    pub diagnostics: Vec<Diagnostic>,
}
