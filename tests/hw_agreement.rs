//! Agreement with the hardware: warpscope's predictions for every launch of
//! `tests/hw/launches.json` against the Nsight Compute measurement of an H100
//! in `tests/hw/measured.json`, and for the Triton kernels of
//! `tests/hw/triton/launches.json` against `tests/hw/measured_triton.json`
//! (schemas: `tests/hw/README.md`).
//!
//! For every (launch, CUDA source line, op, space) the PTX accesses whose `.loc`
//! names that line are aggregated, weighted by how often each executes in the
//! launch (warpscope's simulation of the launch), and their per-request L1
//! lines and sectors are compared with the measured per-request figures:
//!
//! * the number of requests (executions over the launch) must be equal;
//! * an access whose addresses warpscope resolves must match within 0.05 per
//!   request, lines and sectors both;
//! * an access whose figures are bounds (a base whose alignment the analysis
//!   does not know, such as an index loaded from memory) must contain the
//!   measured sectors within its bounds;
//! * a data-dependent access must be reported `random`, with bounds that
//!   contain the measured sectors per request;
//! * the kernel totals (global requests and sectors of loads, stores and
//!   atomics) must match the kernel-level counters; with data-dependent
//!   accesses the measured sectors must lie within the predicted bounds;
//! * bulk and tensor copies (which the per-instruction counters do not see)
//!   must match the kernel-level copy-engine metrics: copies issued and
//!   bytes moved, where the PTX gives the size: for 1-D copies between
//!   global and shared memory the model's copy-engine sectors
//!   (`tests/hw/bulkprobe/`), for the others whole 32-byte sectors of each
//!   copy; a copy between shared memories (`cp.async.bulk.shared::cluster.shared::cta`)
//!   has no global side: its bytes are compared with the distributed-shared
//!   counter (`l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_tma_st`).
//!
//! Shared-memory rows are compared on wavefronts per request (ncu counts no
//! lines or sectors for them). Rows of the newer paths carry the PTX
//! instruction's name as their `op`: `cp.async` (SASS `LDGSTS`, space
//! `global,shared`: lines, sectors AND wavefronts are compared), `ldmatrix`,
//! `stmatrix`, `wgmma` (shared wavefronts), `bulk` (`cp.async.bulk*`,
//! `cp.reduce.async.bulk`, tensor copies: ncu counts executions only, so
//! requests are compared). Rows of SASS whose guard is never true (`@!PT`:
//! ptxas pads before `LDGSTS` with `@!PT LDS RZ, [RZ]`, which ncu counts as
//! executed with no lane) have no PTX counterpart and are skipped (counted in
//! the summary).
//!
//! An access inlined from another function (`.loc … inlined_at`) is compared
//! at the line where ncu lists it first: the least (file path, line) among
//! the line-table rows ptxas writes at its code (its own line and the call
//! sites that had no row yet: `Access::line_frames`); when ncu measured no
//! row there, at its own line or the first call site of its chain where ncu
//! measured one (`row_key`; `tests/hw/line_attribution.md`).
//!
//! `blind_hardware_agreement` runs the same comparison on the held-out batch
//! of `tests/hw/blind/` (its own known list, `tests/hw/blind/known.txt`, and
//! snapshot, with a per-category tally); `blind2_hardware_agreement` on the
//! second held-out batch of `tests/hw/blind2/` (`tests/hw/blind2/known.txt`);
//! `blind3_hardware_agreement` on the third, `tests/hw/blind3/`
//! (`tests/hw/blind3/known.txt`); `blind4_hardware_agreement` on the fourth,
//! `tests/hw/blind4/` (`tests/hw/blind4/known.txt`); `blind5_hardware_agreement` on the
//! fifth, `tests/hw/blind5/` (`tests/hw/blind5/known.txt`); `blind6_hardware_agreement` on
//! the sixth, `tests/hw/blind6/` (`tests/hw/blind6/known.txt`); `blind7_hardware_agreement`
//! on the seventh, `tests/hw/blind7/` (`tests/hw/blind7/known.txt`); `blind8_hardware_agreement`
//! on the eighth, `tests/hw/blind8/` (`tests/hw/blind8/known.txt`); `blind9_hardware_agreement`
//! on the ninth, `tests/hw/blind9/` (`tests/hw/blind9/known.txt`); `blind10_hardware_agreement`
//! on the tenth, `tests/hw/blind10/` (`tests/hw/blind10/known.txt`); `blind11_hardware_agreement`
//! on the eleventh, `tests/hw/blind11/` (`tests/hw/blind11/known.txt`); `blind12_hardware_agreement`
//! on the twelfth, `tests/hw/blind12/` (Triton kernels only; `tests/hw/blind12/known.txt`);
//! `blind13_hardware_agreement` on the thirteenth, `tests/hw/blind13/` (CUDA kernels only;
//! `tests/hw/blind13/known.txt`); `blind14_hardware_agreement` on the fourteenth,
//! `tests/hw/blind14/` (CUDA kernels only; `tests/hw/blind14/known.txt`); `blind15_hardware_agreement`
//! on the fifteenth, `tests/hw/blind15/` (Triton kernels only; `tests/hw/blind15/known.txt`);
//! `blind16_hardware_agreement` on the sixteenth, `tests/hw/blind16/` (CUDA and Triton kernels;
//! `tests/hw/blind16/known.txt`); `blind17_hardware_agreement` on the seventeenth,
//! `tests/hw/blind17/` (CUDA and Triton kernels; `tests/hw/blind17/known.txt`);
//! `blind18_hardware_agreement` on the eighteenth, `tests/hw/blind18/` (CUDA and
//! Triton kernels; `tests/hw/blind18/known.txt`); `blind19_hardware_agreement` on the
//! nineteenth, `tests/hw/blind19/` (CUDA and Triton kernels; `tests/hw/blind19/known.txt`);
//! `blind20_hardware_agreement` on the twentieth, `tests/hw/blind20/` (CUDA and Triton
//! kernels; `tests/hw/blind20/known.txt`); `blind21_hardware_agreement` on the
//! twenty-first, `tests/hw/blind21/` (CUDA and Triton kernels; `tests/hw/blind21/known.txt`);
//! `blind22_hardware_agreement` on the twenty-second, `tests/hw/blind22/` (CUDA and
//! Triton kernels; `tests/hw/blind22/known.txt`).
//!
//! `ldgsts_probe_layouts` compares `cost::async_copy` with the 9,281 + 781
//! one-warp `cp.async` layouts of `tests/hw/probe2` (lines, sectors and
//! wavefronts of every layout; the differences must be exactly those of
//! `tests/hw/probe2/known.txt`). `shared_width_probe_layouts` compares
//! `cost::shared_request_wavefronts` with the 456 + 240 + 160 one-warp
//! `ld.shared` / `st.shared` layouts of `tests/hw/ldsprobe` (the
//! differences must be exactly those of `tests/hw/ldsprobe/known.txt`).
//!
//! Known mismatches are listed, each with its reason, in
//! `tests/hw_agreement_known.txt` (`launch|file:line|op|space|reason`); the
//! table shows them as `KNOWN`. The test fails on any mismatch not in the
//! list, and on a listed entry that now matches (the list must stay true).

mod common;

use common::launch_options as options;
use serde_json::Value as J;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use warpscope::analysis::{AccessOp, Analysis, LaunchConfig, Options, ParamKey, Pattern};
use warpscope::analyze_module;
use warpscope::ir::MemKind;
use warpscope::source::SourceFile;

const TOL: f64 = 0.05;

/// (launch table, measurement) pairs: the CUDA suite and the Triton kernels.
const SUITES: [(&str, &str); 2] = [
    ("tests/hw/launches.json", "tests/hw/measured.json"),
    (
        "tests/hw/triton/launches.json",
        "tests/hw/measured_triton.json",
    ),
];

/// The held-out batch (`tests/hw/blind/`): the CUDA kernels and the Triton ones.
const BLIND_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind/launches.json",
        "tests/hw/blind/measured.json",
    ),
    (
        "tests/hw/blind/triton/launches.json",
        "tests/hw/blind/measured_triton.json",
    ),
];

/// The second held-out batch (`tests/hw/blind2/`): CUDA kernels and Triton ones.
const BLIND2_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind2/launches.json",
        "tests/hw/blind2/measured.json",
    ),
    (
        "tests/hw/blind2/triton/launches.json",
        "tests/hw/blind2/measured_triton.json",
    ),
];

/// The third held-out batch (`tests/hw/blind3/`): CUDA kernels and Triton ones.
const BLIND3_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind3/launches.json",
        "tests/hw/blind3/measured.json",
    ),
    (
        "tests/hw/blind3/triton/launches.json",
        "tests/hw/blind3/measured_triton.json",
    ),
];

/// The fourth held-out batch (`tests/hw/blind4/`): CUDA kernels and Triton ones.
const BLIND4_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind4/launches.json",
        "tests/hw/blind4/measured.json",
    ),
    (
        "tests/hw/blind4/triton/launches.json",
        "tests/hw/blind4/measured_triton.json",
    ),
];

/// The fifth held-out batch (`tests/hw/blind5/`): CUDA kernels and Triton ones.
const BLIND5_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind5/launches.json",
        "tests/hw/blind5/measured.json",
    ),
    (
        "tests/hw/blind5/triton/launches.json",
        "tests/hw/blind5/measured_triton.json",
    ),
];

/// The sixth held-out batch (`tests/hw/blind6/`): CUDA kernels and Triton ones.
const BLIND6_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind6/launches.json",
        "tests/hw/blind6/measured.json",
    ),
    (
        "tests/hw/blind6/triton/launches.json",
        "tests/hw/blind6/measured_triton.json",
    ),
];

/// The seventh held-out batch (`tests/hw/blind7/`): CUDA kernels and Triton ones.
const BLIND7_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind7/launches.json",
        "tests/hw/blind7/measured.json",
    ),
    (
        "tests/hw/blind7/triton/launches.json",
        "tests/hw/blind7/measured_triton.json",
    ),
];

/// The eighth held-out batch (`tests/hw/blind8/`): CUDA kernels and Triton ones.
const BLIND8_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind8/launches.json",
        "tests/hw/blind8/measured.json",
    ),
    (
        "tests/hw/blind8/triton/launches.json",
        "tests/hw/blind8/measured_triton.json",
    ),
];

/// The ninth held-out batch (`tests/hw/blind9/`): CUDA kernels and Triton ones.
const BLIND9_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind9/launches.json",
        "tests/hw/blind9/measured.json",
    ),
    (
        "tests/hw/blind9/triton/launches.json",
        "tests/hw/blind9/measured_triton.json",
    ),
];

/// The tenth held-out batch (`tests/hw/blind10/`): CUDA kernels and Triton ones.
const BLIND10_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind10/launches.json",
        "tests/hw/blind10/measured.json",
    ),
    (
        "tests/hw/blind10/triton/launches.json",
        "tests/hw/blind10/measured_triton.json",
    ),
];

/// The eleventh held-out batch (`tests/hw/blind11/`): CUDA kernels and Triton ones.
const BLIND11_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind11/launches.json",
        "tests/hw/blind11/measured.json",
    ),
    (
        "tests/hw/blind11/triton/launches.json",
        "tests/hw/blind11/measured_triton.json",
    ),
];

/// The twelfth held-out batch (`tests/hw/blind12/`): Triton kernels only (no CUDA part).
const BLIND12_SUITES: [(&str, &str); 1] = [(
    "tests/hw/blind12/triton/launches.json",
    "tests/hw/blind12/measured_triton.json",
)];

/// The thirteenth held-out batch (`tests/hw/blind13/`): CUDA kernels only (no Triton part).
const BLIND13_SUITES: [(&str, &str); 1] = [(
    "tests/hw/blind13/launches.json",
    "tests/hw/blind13/measured.json",
)];

/// The fourteenth held-out batch (`tests/hw/blind14/`): CUDA kernels only (no Triton part).
const BLIND14_SUITES: [(&str, &str); 1] = [(
    "tests/hw/blind14/launches.json",
    "tests/hw/blind14/measured.json",
)];

/// The fifteenth held-out batch (`tests/hw/blind15/`): Triton kernels only (no CUDA part).
const BLIND15_SUITES: [(&str, &str); 1] = [(
    "tests/hw/blind15/triton/launches.json",
    "tests/hw/blind15/measured_triton.json",
)];

/// The sixteenth held-out batch (`tests/hw/blind16/`): CUDA kernels and Triton ones.
const BLIND16_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind16/launches.json",
        "tests/hw/blind16/measured.json",
    ),
    (
        "tests/hw/blind16/triton/launches.json",
        "tests/hw/blind16/measured_triton.json",
    ),
];

/// The seventeenth held-out batch (`tests/hw/blind17/`): CUDA kernels and Triton ones.
const BLIND17_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind17/launches.json",
        "tests/hw/blind17/measured.json",
    ),
    (
        "tests/hw/blind17/triton/launches.json",
        "tests/hw/blind17/measured_triton.json",
    ),
];

/// The `wmma` suite (`tests/hw/wmma/`): `wmma.load` / `wmma.store` of every
/// element type and layout, from global, generic and shared addresses.
const WMMA_SUITES: [(&str, &str); 1] =
    [("tests/hw/wmma/launches.json", "tests/hw/wmma/measured.json")];

/// The eighteenth held-out batch (`tests/hw/blind18/`): CUDA kernels and Triton ones.
const BLIND18_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind18/launches.json",
        "tests/hw/blind18/measured.json",
    ),
    (
        "tests/hw/blind18/triton/launches.json",
        "tests/hw/blind18/measured_triton.json",
    ),
];

/// The nineteenth held-out batch (`tests/hw/blind19/`): CUDA kernels and Triton ones.
const BLIND19_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind19/launches.json",
        "tests/hw/blind19/measured.json",
    ),
    (
        "tests/hw/blind19/triton/launches.json",
        "tests/hw/blind19/measured_triton.json",
    ),
];

/// The twentieth held-out batch (`tests/hw/blind20/`): CUDA kernels and Triton ones.
const BLIND20_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind20/launches.json",
        "tests/hw/blind20/measured.json",
    ),
    (
        "tests/hw/blind20/triton/launches.json",
        "tests/hw/blind20/measured_triton.json",
    ),
];

/// The twenty-first held-out batch (`tests/hw/blind21/`): CUDA kernels and Triton ones.
const BLIND21_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind21/launches.json",
        "tests/hw/blind21/measured.json",
    ),
    (
        "tests/hw/blind21/triton/launches.json",
        "tests/hw/blind21/measured_triton.json",
    ),
];

/// The twenty-second held-out batch (`tests/hw/blind22/`): CUDA kernels and Triton ones.
const BLIND22_SUITES: [(&str, &str); 2] = [
    (
        "tests/hw/blind22/launches.json",
        "tests/hw/blind22/measured.json",
    ),
    (
        "tests/hw/blind22/triton/launches.json",
        "tests/hw/blind22/measured_triton.json",
    ),
];

fn load(path: &str) -> J {
    let t = common::read_measurement(path);
    serde_json::from_str(&t).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The `op` of a measured row for a PTX access: the newer memory paths by
/// instruction name (as `tests/hw/parse_ncu.py` names their SASS), the others
/// by direction.
fn op_name(op: AccessOp, kind: MemKind, instr: &str) -> &'static str {
    // A `wmma.load` of a matrix operand from `.shared` is `LDSM`.
    if kind == MemKind::MatrixLoad && instr.starts_with("wmma") {
        return "ldmatrix";
    }
    if instr.starts_with("cp.async.bulk") || instr.starts_with("cp.reduce.async.bulk") {
        return "bulk";
    }
    for name in ["cp.async", "ldmatrix", "stmatrix", "wgmma"] {
        if instr.starts_with(name) {
            return name;
        }
    }
    match op {
        AccessOp::Load => "ld",
        AccessOp::Store => "st",
        AccessOp::Atomic if instr.starts_with("red") => "red",
        AccessOp::Atomic => "atom",
    }
}

/// `atom` and `red` are one class: ptxas turns an `atom` with an unused result into `RED`.
fn op_class(op: &str) -> &str {
    match op {
        "atom" | "red" => "atom/red",
        o => o,
    }
}

/// The `space` of a measured row for a PTX access: copies between global and
/// shared memory are one row in ncu (`global,shared`), whatever state space
/// warpscope names; a bulk prefetch reads global memory only.
fn space_key(op: &str, instr: &str, space: &str) -> String {
    match op {
        "bulk" if instr.starts_with("cp.async.bulk.prefetch") => "global".to_string(),
        "cp.async" | "bulk" => "global,shared".to_string(),
        "ldmatrix" | "stmatrix" | "wgmma" => "shared".to_string(),
        // Another CTA's shared memory (`mapa`): SASS `LD.E`/`ST.E`, a
        // generic access ncu keys `global,shared`.
        _ if space == "shared::cluster" => "global,shared".to_string(),
        _ => space.to_string(),
    }
}

fn basename(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// Whether a prediction matches a measured row's per-request figures: the
/// global side (lines and sectors, or for a data-dependent access the
/// sector bounds, and with `line_bounds` the line bounds too), the shared
/// side (wavefronts), both for a `global,shared` copy. `bulk` rows carry no
/// per-request counters in ncu's source view: only their requests (compared
/// by the caller) are checked.
fn figures_ok(op: &str, space: &str, p: &Pred, pr: &J, line_bounds: bool) -> bool {
    if op == "bulk" {
        return true;
    }
    let n = p.requests;
    let mlines = pr["l1_tag_requests"].as_f64().unwrap_or(0.0);
    let msec = pr["sectors"].as_f64().unwrap_or(0.0);
    let global_ok = if !space.contains("global") {
        true
    } else if p.unresolved && (p.smax - p.smin) / n > TOL {
        // An `unknown` pattern whose bounds are not tight is no prediction
        // (its bounds are those of any access, 1..32 sectors): never a match.
        false
    } else if p.random && !p.data_trips {
        // Inside a loop on loaded data, the lower bounds leave out the
        // lanes that may have left the loop (any number of them): such a
        // row is compared on its figures, not on those bounds.
        p.smin / n - TOL <= msec
            && msec <= p.smax / n + TOL
            && (!line_bounds || (p.lmin / n - TOL <= mlines && mlines <= p.lmax / n + TOL))
    } else {
        (p.lines / n - mlines).abs() <= TOL && (p.sectors / n - msec).abs() <= TOL
    };
    let shared_ok = !space.contains("shared")
        || match (p.wavefronts, pr["shared_wavefronts"].as_f64()) {
            (Some(w), Some(mw)) => ((w / n) - mw).abs() <= TOL,
            _ => false,
        };
    global_ok && shared_ok
}

/// The predicted lines and sectors cells of a row (wavefronts for shared
/// memory, sectors and wavefronts for a `global,shared` copy).
fn predicted_cells(space: &str, p: &Pred, pl: f64, ps: f64) -> (String, String) {
    let wf = || {
        p.wavefronts
            .map(|w| format!("{:.3} wf", w / p.requests))
            .unwrap_or_else(|| "wf not modelled".into())
    };
    match space {
        "shared" => ("-".to_string(), wf()),
        "global,shared" => (format!("{pl:.3}"), format!("{ps:.3} + {}", wf())),
        _ => (format!("{pl:.3}"), format!("{ps:.3}")),
    }
}

/// The measured sectors cell of a row, like `predicted_cells`.
fn measured_cell(space: &str, pr: &J, msec: f64) -> String {
    let wf = pr["shared_wavefronts"]
        .as_f64()
        .map(|w| format!("{w:.3} wf"))
        .unwrap_or_default();
    match space {
        "shared" => wf,
        "global,shared" => format!("{msec:.3} + {wf}"),
        _ => format!("{msec:.3}"),
    }
}

/// A row: (file base name, line, op class, space).
type RowKey = (String, u32, String, String);

/// The row an access is compared in. ptxas's line table holds, at an
/// inlined instruction's code, its own line and the call sites on its chain
/// that had no row yet (`Access::line_frames` of them, innermost first), and
/// Nsight Compute lists the instruction under each; `tests/hw/parse_ncu.py`
/// keeps the first listing, that is the least (file path, line) of those
/// rows (ncu's files are in path order, their lines in line order; measured
/// over every memory instruction of the batches: `tests/hw/line_attribution.md`).
/// So the row is the least (path, line) among the access's first
/// `line_frames` frames; when ncu measured no row of the same op and space
/// there (the model misses ptxas's scheduling, unrolling and folding), its
/// own line, or the first call site on its chain, where ncu measured one.
fn row_key(
    src: &warpscope::analysis::SourceLocation,
    frames: u32,
    opn: &str,
    instr: &str,
    space: &str,
    measured: &std::collections::HashSet<RowKey>,
) -> RowKey {
    let key = |s: &warpscope::analysis::SourceLocation| {
        (
            basename(&s.file).to_string(),
            s.line,
            op_class(opn).to_string(),
            space_key(opn, instr, space),
        )
    };
    let listed = key(src.first_listed(frames));
    if measured.contains(&listed) {
        return listed;
    }
    let own = key(src);
    if measured.contains(&own) {
        return own;
    }
    let mut at = src.inlined_at.as_deref();
    while let Some(call) = at {
        let k = key(call);
        if measured.contains(&k) {
            return k;
        }
        at = call.inlined_at.as_deref();
    }
    own
}

#[derive(Default, Debug)]
struct Pred {
    requests: f64,
    lines: f64,
    sectors: f64,
    smin: f64,
    smax: f64,
    lmin: f64,
    lmax: f64,
    patterns: BTreeMap<String, f64>,
    random: bool,
    unresolved: bool,
    wavefronts: Option<f64>,
    /// Accesses the simulation gave no request count (it stopped, or the
    /// access is inside a loop on loaded data).
    uncounted: bool,
    /// Requests the simulation counted (`requests` also holds the sampled
    /// requests of accesses inside loops on loaded data, which weigh their
    /// per-request figures).
    counted: f64,
    /// Some access of the row is inside a loop whose trip count depends on
    /// loaded data and has per-request figures from the simulated trips
    /// (`Caveat::InLoopOnLoadedData` with a sample): the row's request count
    /// is not known, so only its per-request figures are compared.
    data_trips: bool,
    /// Some access of the row has neither a request count nor a sample
    /// (the simulation stopped, or a loop on loaded data ran no trip of
    /// it): with `data_trips`, the row's figures leave it out, so the row
    /// is no match.
    unsampled: bool,
}

struct Known {
    entries: HashMap<String, String>,
}

fn known(path: &str) -> Known {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut entries = HashMap::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.splitn(5, '|').collect();
        assert_eq!(parts.len(), 5, "bad line in {path}: {line}");
        entries.insert(parts[..4].join("|"), parts[4].trim().to_string());
    }
    Known { entries }
}

/// How one row of a table compares with the measurement.
#[derive(PartialEq)]
enum Outcome {
    Match,
    Known,
    Mismatch,
}

impl Known {
    /// The verdict cell of one row. A listed row that now matches fails the
    /// test (the list must shrink), a listed mismatch is shown with its
    /// reason, any other mismatch fails with `failure`.
    fn judge(
        &self,
        key: &str,
        ok: bool,
        failure: String,
        failures: &mut Vec<String>,
        seen: &mut Vec<String>,
    ) -> (Outcome, String) {
        if ok {
            if self.entries.contains_key(key) {
                failures.push(format!("{key}: listed as a known mismatch but matches now"));
            }
            (Outcome::Match, "yes".to_string())
        } else if let Some(reason) = self.entries.get(key) {
            seen.push(key.to_string());
            (Outcome::Known, format!("KNOWN: {reason}"))
        } else {
            failures.push(failure);
            (Outcome::Mismatch, "NO".to_string())
        }
    }
}

#[test]
fn hardware_agreement() {
    agreement(
        &SUITES,
        "tests/hw_agreement_known.txt",
        "hw_agreement",
        false,
    );
}

/// The held-out batch (`tests/hw/blind/`, README there): kernels written the
/// way real projects write them, measured before warpscope's model was
/// looked at for them. Same comparison, its own known-differences list and
/// snapshot, with the per-category tally in the summary.
#[test]
fn blind_hardware_agreement() {
    agreement(
        &BLIND_SUITES,
        "tests/hw/blind/known.txt",
        "hw_agreement_blind",
        true,
    );
}

/// The second held-out batch (`tests/hw/blind2/`, README there): other
/// styles again (quantized blocks, paged KV gather, look-back scan, radix
/// sort, COO/ELL SpMV, Triton group norm, split-K, cumsum, embedding bag),
/// measured before warpscope's model was looked at for them.
#[test]
fn blind2_hardware_agreement() {
    agreement(
        &BLIND2_SUITES,
        "tests/hw/blind2/known.txt",
        "hw_agreement_blind2",
        true,
    );
}

/// The third held-out batch (`tests/hw/blind3/`, README there): modern
/// paths and real-project styles (FlashAttention-2 tile loop, CUTLASS-style
/// epilogues, TMA and 1-D bulk copies, cooperative groups, CUB block
/// exchange, vLLM KV-cache append, persistent kernels, 64-bit strides;
/// Triton causal attention, layer-norm backward, persistent softmax and
/// matmul, int8 matmul), measured before warpscope's model was looked at
/// for them.
#[test]
fn blind3_hardware_agreement() {
    agreement(
        &BLIND3_SUITES,
        "tests/hw/blind3/known.txt",
        "hw_agreement_blind3",
        true,
    );
}

/// The fourth held-out batch (`tests/hw/blind4/`, README there): llama.cpp
/// quantized GEMV, vLLM paged-attention decode and MoE alignment, MoE
/// permute/unpermute, multi-tensor apply with its metadata in a by-value
/// struct parameter, index_add_, embedding_bag, CSR SpMV, a 2.5-D stencil,
/// col2im, scans, swizzled transposes, FFT stages, Megatron's masked softmax;
/// Triton flash-decoding, grouped GEMM, add + RMS norm, gathered rope, fp8
/// matmul), measured before warpscope's model was looked at for them.
#[test]
fn blind4_hardware_agreement() {
    agreement(
        &BLIND4_SUITES,
        "tests/hw/blind4/known.txt",
        "hw_agreement_blind4",
        true,
    );
}

/// The fifth held-out batch (`tests/hw/blind5/`, README there): modern memory
/// paths on sm_90a (cp.async pipelines with zero-fill, ldmatrix/stmatrix over
/// padded and swizzled tiles, TMA 2-D/3-D with 128-byte swizzle,
/// cp.reduce.async.bulk, wgmma with swizzled descriptors, red/atom of several
/// widths, cache-hinted loads, 64-bit strides) and real projects' styles
/// (CUTLASS multistage GEMM, FlashAttention-2 tile, llama.cpp q4_K/q6_K,
/// apex layer norm backward, NCCL ring, CUB radix rank, Thrust strided
/// transforms; Triton matmuls at num_warps=8, causal flash attention, layer
/// norm backward, masked softmax, fused MoE, int8 matmul), measured before
/// warpscope's model was looked at for them.
#[test]
fn blind5_hardware_agreement() {
    agreement(
        &BLIND5_SUITES,
        "tests/hw/blind5/known.txt",
        "hw_agreement_blind5",
        true,
    );
}

/// The sixth held-out batch (`tests/hw/blind6/`, README there): kernels
/// written the way PyTorch ATen (index_select, embedding backward,
/// scatter_add, gather, vectorized elementwise, inner reductions, bilinear
/// upsampling, im2col, tiled transpose), llama.cpp (q8_0 matvec and mmq
/// tile, rms_norm, rope), vLLM / FlashInfer (reshape_and_cache, paged
/// decode, top-p scan), Megatron / apex (causal masked softmax,
/// multi_tensor_apply, bias-GeLU) and classic HPC codes (stencils, ELL and
/// CSR-vector SpMV, decoupled lookback, bitonic sort, packed 8-bit
/// histogram) write them, and Triton kernels (RMS norm, GPT-J rotary,
/// chunked cross entropy, persistent and grouped matmuls, attention
/// backward, fp8 matmul), measured before warpscope's model was looked at
/// for them.
#[test]
fn blind6_hardware_agreement() {
    agreement(
        &BLIND6_SUITES,
        "tests/hw/blind6/known.txt",
        "hw_agreement_blind6",
        true,
    );
}

/// The seventh held-out batch (`tests/hw/blind7/`, README there): library
/// primitives used from our own kernels (CUB block load/store in four
/// arrangements, block reduce, scan, radix sort and histogram, warp reduce
/// and scan; libcu++ `cuda::memcpy_async` with a thread-scope
/// `cuda::pipeline` and with a `cuda::barrier`; cooperative groups'
/// `memcpy_async`, `reduce`, tiled and labeled partitions), Hopper memory
/// paths written by hand (distributed shared memory in clusters, 1-D bulk
/// copies on an mbarrier, 2-D TMA with 64- and 128-byte swizzle and a TMA
/// store, `stmatrix`, `ld.global.nc.L1::no_allocate.v4`, vector `red` of
/// f16x2/bf16x2 and vector `atom` of f32), classics (CSR SpMM, segmented warp
/// reduce, constant-memory convolutions, a transpose of doubles, a half2
/// reduction, permutation gather/scatter, k-means assignment) and Triton
/// kernels in the tutorials' style (philox dropout, lock-based layer norm
/// backward, block-pointer and tensor-descriptor matmuls, split-K with atomics,
/// scan, sort, histogram, a bf16 matmul at 4 warps and 4 stages, a two-pass
/// online softmax), measured before warpscope's model was looked at for them.
#[test]
fn blind7_hardware_agreement() {
    agreement(
        &BLIND7_SUITES,
        "tests/hw/blind7/known.txt",
        "hw_agreement_blind7",
        true,
    );
}

/// The eighth held-out batch (`tests/hw/blind8/`, README there): kernels in
/// the style of real projects (PyTorch / apex fused bias-dropout-residual with
/// its vectorized and scalar paths, RMSNorm backward in bf16, fp8 row
/// quantisation and dequantisation), data structures, graph and sparse codes
/// (open-addressing hash insert with 64-bit CAS and probe loops, cooperative
/// 4-lane probes, a Bloom filter, BFS expansion by thread and by warp, pointer
/// jumping, SELL-C-sigma SpMV), hand-written sm_90 memory paths (release /
/// acquire flags, the `.lu` / `.cv` / `.wt` / `.cg` cache operators, L2
/// prefetches and bulk prefetch, `st.async` / `red.async` into a peer CTA, CAS
/// loops, shared 64-bit atomics, named barriers), classics (red-black
/// Gauss-Seidel, Morton gather, memcpy by alignment, newline indexing, complex
/// axpy-dot, an unpadded Blelloch scan, 64-byte AoS matrices) and Triton
/// kernels (layer norm forward, variable-length attention, fused AdamW,
/// index_add, column sums, causal conv1d, a tf32 batched matmul, jagged sums,
/// fp8 row quantisation, `tl.gather`), measured before warpscope's model was
/// looked at for them.
#[test]
fn blind8_hardware_agreement() {
    agreement(
        &BLIND8_SUITES,
        "tests/hw/blind8/known.txt",
        "hw_agreement_blind8",
        true,
    );
}

/// The ninth held-out batch (`tests/hw/blind9/`, README there): kernels in
/// the style of llama.cpp / ggml quantisation types (q5_0, iq4_nl, q3_K),
/// vLLM serving (copy_blocks through a by-value struct of cache pointers, MoE
/// top-k softmax, attention-state merge), graph and vector search (a GAT
/// layer, IVF-PQ distances through a shared look-up table, tiled L2 distances,
/// a BVH traversal with a local-memory stack), OpenCV / NPP images and depth
/// processing (colour conversion, resizing, box and median filters, NV12,
/// bilateral depth filter, TSDF integration), simulation (lattice Boltzmann
/// SoA and AoS, 28-byte particles, XORWOW states, shared-memory FFTs with and
/// without padding), an int8 `mma.sync` GEMM, cooperative groups'
/// `memcpy_async`, data processing (byte volumes, bit unpacking, string
/// lowering) and Triton kernels (paged-attention decode, RMSNorm + int8
/// quantisation, row flips, a 2-D histogram, a KV-cache scatter, MoE top-2
/// gating, a w4a16 matmul, a selective scan, max pooling, an implicit-GEMM
/// convolution), measured before warpscope's model was looked at for them.
#[test]
fn blind9_hardware_agreement() {
    agreement(
        &BLIND9_SUITES,
        "tests/hw/blind9/known.txt",
        "hw_agreement_blind9",
        true,
    );
}

/// The tenth held-out batch (`tests/hw/blind10/`, README there): kernels in
/// the style of Arrow / Parquet readers and validators (base64, UTF-8
/// validation, run-length and dictionary decoding), camera pipelines and
/// OpenCV (a Bayer demosaic, integral images, separable Gaussian passes,
/// `warpAffine`, shared look-up tables), software AES (T-tables in shared
/// memory) and SHA-256 (a message schedule in local memory), DIA SpMV, FEM
/// element assembly and edge-based fluxes with float atomics, CUB's
/// `WarpLoad` / `WarpStore` transposes and `BlockExchange::ScatterToStriped`,
/// deep-learning layers (a Winograd input transform, NHWC fp16 pooling,
/// batch-norm statistics, sliding-window softmax, greedy-decoding argmax),
/// Hopper clusters (a multicast bulk copy, a 2-D TMA multicast load, a TMA
/// reduce-add) and Triton kernels (both halves of a FlashAttention-2-style
/// backward pass, cache hints, batch-norm statistics, ALiBi softmax, bilinear
/// `grid_sample`, NHWC group norm, lower-triangle packing, a float
/// scatter-max, SwiGLU backward), measured before warpscope's model was
/// looked at for them.
#[test]
fn blind10_hardware_agreement() {
    agreement(
        &BLIND10_SUITES,
        "tests/hw/blind10/known.txt",
        "hw_agreement_blind10",
        true,
    );
}

/// The eleventh held-out batch (`tests/hw/blind11/`, README there): kernels
/// in the style of graph analytics (PageRank pull, Bellman-Ford relaxation
/// with `atomicMin`, triangle counting by sorted-list merges), physics codes
/// (FDTD Yee updates, counting-sort particle binning, SPH cell lists), column
/// databases (hash group-by with `atomicCAS`, selection-vector gathers, Arrow
/// validity bitmaps, merge path), batched linear algebra (4 x 4 inverses,
/// warp triangular solves, SYRK tiles with and without padding), MoE row
/// permutes and an AWQ int4 GEMV, image pipelines (16-bit dilation,
/// `INTER_AREA` resize, RGBA to I420, label propagation), Hopper codes (TMA
/// with an L2 tensor prefetch, a 128-byte swizzle read by `ldmatrix`,
/// `cp.async` completing on mbarriers, `st.async` into a peer CTA, a
/// shared-to-shared bulk copy) and Triton kernels (softmax and fused
/// cross-entropy backward, `tl.permute` / `tl.gather` / `tl.split` layout
/// ops, a beam-search KV reorder, STFT framing, bias-GELU backward with a
/// vector atomic, masked mean pooling, an IEEE fp32 `tl.dot`), measured
/// before warpscope's model was looked at for them.
#[test]
fn blind11_hardware_agreement() {
    agreement(
        &BLIND11_SUITES,
        "tests/hw/blind11/known.txt",
        "hw_agreement_blind11",
        true,
    );
}

/// The twelfth held-out batch (`tests/hw/blind12/`, README there): Triton
/// kernels only, in the styles of real projects: a causal FlashAttention-2
/// forward with block pointers and an early return, a GQA decode attention
/// over a token-granular page table, vLLM's NeoX rotary embedding in place,
/// a Liger-style RMSNorm backward, per-token-group fp8 quantisation and a
/// block-scaled fp8 GEMM, a top-k / top-p filter by `tl.cumsum`, a segmented
/// scan by `tl.associative_scan`, torch-inductor pointwise and Welford
/// reduction kernels, a vocabulary-parallel embedding, a depthwise NHWC
/// convolution, `copy_blocks` through tensor descriptors and NF4
/// dequantisation, measured before warpscope's model was looked at for them.
#[test]
fn blind12_hardware_agreement() {
    agreement(
        &BLIND12_SUITES,
        "tests/hw/blind12/known.txt",
        "hw_agreement_blind12",
        true,
    );
}

/// The thirteenth held-out batch (`tests/hw/blind13/`, README there):
/// hand-written CUDA on the modern memory paths, in the styles of real
/// projects: a CUTLASS-style multistage `cp.async` GEMM with XOR-swizzled
/// tiles read by `ldmatrix` / `.trans` and an `stmatrix` epilogue, a
/// FlashAttention-2-style forward with `cp.async` K/V tiles, a
/// warp-specialised TMA pipeline on full / empty mbarriers, a 1-D bulk copy
/// in and out, a `wgmma` tile on shared descriptors, llama.cpp-style q4_0 /
/// q8_0 mat-vecs on packed 18- and 34-byte blocks, an int8 `dp4a` GEMV, a
/// FlashInfer-style paged KV decode, a CUB-style radix histogram with shared
/// atomics, a segmented reduction, a 3-D stencil with halo, a padded
/// transpose, an embedding bag, fp16 / float4 elementwise kernels with heads
/// and tails, a warp-shuffle RMSNorm and a cooperative-groups tiled scan,
/// measured before warpscope's model was looked at for them.
#[test]
fn blind13_hardware_agreement() {
    agreement(
        &BLIND13_SUITES,
        "tests/hw/blind13/known.txt",
        "hw_agreement_blind13",
        true,
    );
}

/// The fourteenth held-out batch (`tests/hw/blind14/`, README there):
/// hand-written CUDA in the style of real projects' library kernels: an ATen
/// TensorIterator `where` with an OffsetCalculator (IntDivider magic numbers
/// and byte strides in a by-value struct), ATen's vectorized elementwise
/// kernel with its scalar fallback (aligned and 4 bytes off), cat through a
/// by-value metadata struct indexed by `blockIdx.y`, embedding backward over
/// sorted indices, RoI-Align, an NMS bitmask, a CUB-style two-pass
/// reduction, a Thrust-style counting-iterator transform, a Faiss-style
/// warp-queue k-select, a CSR SpMM with shared row tiles, a FIR with
/// `__constant__` taps, softmax with a block a row (ILP 4, alignment shift)
/// and a warp two rows (fp16), a 2-D-block column reduction, grid_sample and
/// pixel_shuffle on a 3-D block, measured before warpscope's model was looked
/// at for them.
#[test]
fn blind14_hardware_agreement() {
    agreement(
        &BLIND14_SUITES,
        "tests/hw/blind14/known.txt",
        "hw_agreement_blind14",
        true,
    );
}

/// The fifteenth held-out batch (`tests/hw/blind15/`, README there): Triton
/// kernels only, in the styles of real projects the earlier Triton batches do
/// not have: the tutorials' persistent matmul through device-side tensor
/// descriptors, vLLM's fused_moe over sorted token ids and padded blocks, MoE
/// permute / unpermute through a loaded row map, moe_align's expert counts by
/// `tl.histogram` and a block `tl.sort`, a bias-dropout-residual with
/// `tl.rand4x`, Liger's cross entropy with the gradient in place, a
/// channels-last causal conv1d, Mamba2's state passing, FLA's varlen
/// chunk-local cumsum and gated `chunk_fwd_h`, an int4 GEMV unpacked by
/// shifts, Unsloth's GeGLU backward in place and `merge_attn_states`, measured
/// before warpscope's model was looked at for them.
#[test]
fn blind15_hardware_agreement() {
    agreement(
        &BLIND15_SUITES,
        "tests/hw/blind15/known.txt",
        "hw_agreement_blind15",
        true,
    );
}

/// The sixteenth held-out batch (`tests/hw/blind16/`, README there):
/// hand-written CUDA in the styles of real projects the earlier batches do
/// not have (a 3D Gaussian splatting tile rasterizer, a multi-resolution
/// hash-grid encoding, PointNet++ ball query and furthest point sampling,
/// DCNv2 deformable im2col, a spconv gather-`mma`-scatter with `cp.async`
/// gathers at loaded rows, a CTC alpha recursion, an LSTM cell, marching
/// cubes with a `__constant__` table, a Smith-Waterman wavefront, ChaCha20,
/// a hash-join probe, a radix partition with warp-aggregated atomics, a
/// Stockham FFT fed by `cp.async.bulk`, nonzero, an outer-dimension cumsum,
/// scatter amax with int64 indices, an instance norm on a 2-CTA cluster, a
/// misaligned bf16 GELU, a `cp.async` Jacobi) and ten Triton kernels (fused
/// linear + GELU, varlen softmax, block-sparse attention, an int8 GEMM, a
/// `keep_dims` reduction, a non-power-of-two RMSNorm, a KV-cache append, a
/// `tl.sort` top-k, a `tl.cumsum`, a bf16 rotary embedding), measured before
/// warpscope's model was looked at for them.
#[test]
fn blind16_hardware_agreement() {
    agreement(
        &BLIND16_SUITES,
        "tests/hw/blind16/known.txt",
        "hw_agreement_blind16",
        true,
    );
}

/// The seventeenth held-out batch (`tests/hw/blind17/`, README there):
/// hand-written CUDA in the styles of real projects the earlier batches do
/// not have (Lennard-Jones forces over a column-major neighbour list, a
/// parallel cyclic reduction tridiagonal solver, batched 16 x 16 Cholesky,
/// an FP64 `wmma` GEMM, HMM Viterbi decoding, Levenshtein with a local DP
/// row, a Haar wavelet, an OpenCV-style `warpAffine` on 3-byte pixels, ray
/// marching through a density grid, `adaptive_avg_pool2d`, a direct 3-D
/// convolution on 3-D blocks, `pixel_unshuffle`, an XNOR-popcount GEMM, a
/// brute-force k-NN, `bucketize` + bincount, a double-precision weighted
/// histogram, batch-norm statistics by Welford, SDDMM, `index_select` with
/// int64 indices, a row quantisation written by `cp.async.bulk` from shared
/// memory) and ten Triton kernels (a `tl.swizzle2d` GEMM, a 3-D `tl.dot`,
/// `tl.cumprod` volume rendering, `tl.split` / `tl.interleave`, a jagged
/// copy with alignment hints, a `tl.umulhi` hashed embedding, `tl.argmin`
/// k-means, a `tl.flip` suffix sum, `tl.xor_sum`, a libdevice `erfinv` over
/// a transposed view), measured before warpscope's model was looked at for
/// them.
#[test]
fn blind17_hardware_agreement() {
    agreement(
        &BLIND17_SUITES,
        "tests/hw/blind17/known.txt",
        "hw_agreement_blind17",
        true,
    );
}

/// The eighteenth held-out batch (`tests/hw/blind18/`, README there):
/// hand-written CUDA in the styles of real projects the earlier batches do
/// not have (BSR SpMV with 4 x 4 blocks, packed-triangular and band BLAS
/// storage, LAPACK `laswp` on a column-major matrix, blocked Floyd-Warshall,
/// a TF32 `mma.sync` GEMM with scalar fragment loads and `cp.async`, a JPEG
/// 8 x 8 DCT, Canny non-maximum suppression, block-matching stereo, bicubic
/// resize, marching squares, radix-4 column FFTs, a jump-flooding step,
/// bit-packed life, voxelisation by `atomicOr`, an in-place square
/// transpose, slicing-by-4 CRC-32, a Kronecker product with streaming
/// stores, `gather_nd` with int64 triples, `torch.roll`) and ten Triton
/// kernels (a Linear `x W^T` through `tl.trans`, ELL SpMV, an NHWC bilinear
/// resize, a `tl.gather` codebook dequantisation, an int4 packer by
/// `tl.reshape` / `tl.split`, a `tl.static_range` FIR, an Inductor-style
/// broadcast, a fused residual-add RMSNorm, a `make_block_ptr` stencil, a
/// linear interpolation), measured before warpscope's model was looked at
/// for them.
#[test]
fn blind18_hardware_agreement() {
    agreement(
        &BLIND18_SUITES,
        "tests/hw/blind18/known.txt",
        "hw_agreement_blind18",
        true,
    );
}

/// The nineteenth held-out batch (`tests/hw/blind19/`, README there):
/// hand-written CUDA in the styles of real projects the earlier batches do
/// not have (Keccak-f[1600], MurmurHash3 of an Arrow string column, MinHash
/// signatures, succinct rank on a bit vector, Shift-And text search, a
/// Jones-Plassmann colouring round, a level of a sparse triangular solve,
/// z-buffer rasterisation by `atomicMin`, linear blend skinning, ray /
/// sphere intersection, a 5 x 5 census transform, iSTFT overlap-add by
/// `atomicAdd`, a binomial option tree, a YOLO head decode, a stride-2
/// transposed convolution, multigrid full-weighting restriction, a MUSCL /
/// Rusanov Euler flux, cloud-in-cell deposition, strided batched 6 x 5 x 7
/// GEMMs, matrix-factorisation SGD) and ten Triton kernels (`torch.cdist`
/// through `tl.dot`, a per-pixel NLL loss, `max_unpool2d`, a bit-packed
/// dropout backward, `torch.bucketize` by binary search, a chunked KL
/// divergence, a ViT patchify, a triplet margin loss, an MSE loss by
/// `tl.atomic_add`, a dilated depthwise 1-D convolution), measured before
/// warpscope's model was looked at for them.
#[test]
fn blind19_hardware_agreement() {
    agreement(
        &BLIND19_SUITES,
        "tests/hw/blind19/known.txt",
        "hw_agreement_blind19",
        true,
    );
}

/// The twentieth held-out batch (`tests/hw/blind20/`, README there):
/// hand-written CUDA in the styles of real projects the earlier batches do
/// not have (a k-mer count-min sketch on 2-bit DNA, a both-strand PWM motif
/// scan, a zone-map pruned column scan, a dictionary-code histogram by
/// `__match_any_sync`, a biquad cascade per audio channel, a 147 / 160
/// polyphase resampler, Goertzel bins, a periodic lat-lon Laplacian, upwind
/// C-grid advection, radio-visibility gridding by `float2` atomics, LoRA
/// BGMV, DLRM dot interaction, a speculative-decoding rejection sampler,
/// int8 KV-cache scores, bootstrap means from shared memory, point in
/// polygon, a Boruvka step by 64-bit `atomicMin`, a checkerboard Ising
/// sweep, Philox Monte Carlo Asian options, CLAHE interpolation) and ten
/// Triton kernels (an embedding bag with offsets, a linear recurrence by
/// `tl.associative_scan`, a `tl.trans` transpose, a channel softmax of NCL,
/// a multi-tensor EMA through pointer tables, T5 relative-position buckets,
/// a Swin shifted-window partition, pairwise box IoU, a confusion matrix by
/// `tl.atomic_add`, a top-k by iterated max), measured before warpscope's
/// model was looked at for them.
#[test]
fn blind20_hardware_agreement() {
    agreement(
        &BLIND20_SUITES,
        "tests/hw/blind20/known.txt",
        "hw_agreement_blind20",
        true,
    );
}

/// The twenty-first held-out batch (`tests/hw/blind21/`, README there):
/// hand-written CUDA in the styles of real projects the earlier batches do
/// not have (an LZ77 match search, Gorilla delta-of-delta decoding, a Blosc
/// byte unshuffle, a bit-plane transpose by ballots, blockwise 8-bit Adam,
/// NF4 dequantization with double-quantized scales, a GPTQ act-order GEMV,
/// Lion, ALiBi sliding-window scores, the RWKV-4 WKV recurrence, a causal
/// conv1d by zero-filling `cp.async`, a pair-HMM forward pass, HOG cell
/// histograms, Lucas-Kanade flow, WENO5 faces, sample-sort bucketing, BPE
/// merge ranks by linear probing, SpGEMM row counts by a shared hash table,
/// embedding-bag pooling by `cp.async.bulk` and an mbarrier, an fp16 GEMM
/// by `ldmatrix` on a swizzled tile) and ten Triton kernels (a Mamba
/// selective scan, a split-K matmul by atomics, a block-sparse matmul from
/// a lookup table, `tl.histogram`, an RMSNorm backward under spin locks,
/// `tl.rand` dropout of a strided view, a chunked label-smoothed cross
/// entropy, a segment matmul by loaded offsets, row medians by `tl.sort`,
/// Gumbel-max sampling), measured before warpscope's model was looked at
/// for them.
#[test]
fn blind21_hardware_agreement() {
    agreement(
        &BLIND21_SUITES,
        "tests/hw/blind21/known.txt",
        "hw_agreement_blind21",
        true,
    );
}

/// The twenty-second held-out batch (`tests/hw/blind22/`, README there):
/// hand-written CUDA in the styles of real projects the earlier batches do
/// not have (a bottom-up BFS step over a frontier bitmap, a k-core peeling
/// round, late materialization of four column widths, Parquet dictionary
/// decoding of 7-bit packed indices, a bitmap semi-join with warp-aggregated
/// appends, a LIKE prefix filter over offset strings, YUYV to planar 4:4:4,
/// JPEG dequantization with zigzag and an IDCT, a 16-bit tone-mapping LUT,
/// per-label boxes by shared atomics, position-based-dynamics constraints,
/// xxHash32 of 100-byte rows, batched 8x8 triangular solves, a Householder
/// reflector on a column-major panel, MXFP4 dequantization, a LoRA SGMV
/// expand, CTC greedy decoding, an NN GEMM by `ldmatrix .trans`, a stencil
/// staged by 4-byte zero-filling `cp.async`, `cp.async` completion through
/// an mbarrier) and ten Triton kernels (a matmul pipelined with eight warps
/// and three stages on a ragged M, split-KV GQA decode, a layer norm with
/// saved statistics, a row gather-scatter, a running max and argmax by
/// `tl.associative_scan`, per-token-group int8 quantization, an NCHW
/// implicit-GEMM convolution, a masked log-sum-exp, rotary embedding by
/// `tl.split` / `tl.join`, a row-wise sparse Adagrad), measured before
/// warpscope's model was looked at for them.
#[test]
fn blind22_hardware_agreement() {
    agreement(
        &BLIND22_SUITES,
        "tests/hw/blind22/known.txt",
        "hw_agreement_blind22",
        true,
    );
}

/// The `wmma` suite (`tests/hw/wmma/`, README there): 25 GEMM launches
/// through `nvcuda::wmma`, one per shape, element type, layout and address
/// space, each checked exactly against the CPU; the model of
/// `lower::ptx::wmma` was written from their SASS and measured here.
#[test]
fn wmma_hardware_agreement() {
    agreement(
        &WMMA_SUITES,
        "tests/hw/wmma/known.txt",
        "hw_agreement_wmma",
        true,
    );
}

/// Compare every measured row of `suites` with warpscope's predictions;
/// rows listed in `known_path` are shown as KNOWN. `categories` adds a
/// per-(op, space) tally of the rows to the summary.
fn agreement(suites: &[(&str, &str)], known_path: &str, snapshot: &str, categories: bool) {
    let known = known(known_path);
    // (op space or "kernel totals") -> (rows, matched)
    let mut cats: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut seen_known: Vec<String> = Vec::new();
    let mut table = String::new();
    let mut failures: Vec<String> = Vec::new();
    let (mut rows, mut matched, mut known_rows, mut shared_rows) = (0, 0, 0, 0);
    let (mut krows, mut kmatched) = (0, 0);
    writeln!(
        table,
        "| launch | line | op | pattern | requests pred/meas | lines/req pred | meas | sectors/req pred | meas | bounds | match |"
    )
    .unwrap();
    writeln!(
        table,
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    .unwrap();
    let mut stable = String::new();
    let (mut srows, mut smatched, mut sknown) = (0, 0, 0);
    writeln!(
        stable,
        "| launch | line | op | pattern | lines/req static | meas | sectors/req static | meas | bounds | match |"
    )
    .unwrap();
    writeln!(
        stable,
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    .unwrap();
    let mut ktable = String::new();
    let mut btable = String::new();
    let (mut brows, mut bmatched) = (0usize, 0usize);
    writeln!(ktable, "| launch | ld req pred/meas | ld sectors pred/meas | st req | st sectors | atom+red req | atom+red sectors | match |").unwrap();
    writeln!(ktable, "| --- | --- | --- | --- | --- | --- | --- | --- |").unwrap();

    let mut never_rows = 0;
    // Matches compared on per-request figures alone (a loop on loaded data).
    let mut per_request_only = 0;
    for &(lpath, mpath) in suites {
        let launches = load(lpath);
        let measured = load(mpath);
        let buffers: Vec<String> = launches["buffers"]
            .as_object()
            .expect("buffers")
            .keys()
            .cloned()
            .collect();
        let modules = launches["modules"].as_object().expect("modules");
        let mut files: HashMap<String, SourceFile> = HashMap::new();
        for (m, v) in modules {
            let p = v["ptx"].as_str().expect("ptx");
            let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{p}: {e}"));
            files.insert(m.clone(), SourceFile::from_text(p, text));
        }
        let parsed: HashMap<&String, warpscope::syntax::ast::Module<'_>> = files
            .iter()
            .map(|(m, f)| (m, warpscope::syntax::parse_file(f).0))
            .collect();
        let mlaunches: HashMap<&str, &J> = measured["launches"]
            .as_array()
            .expect("launches")
            .iter()
            .map(|l| (l["id"].as_str().expect("id"), l))
            .collect();
        for launch in launches["launches"].as_array().expect("launches") {
            let id = launch["id"].as_str().expect("id");
            let Some(meas) = mlaunches.get(id) else {
                continue;
            };
            let module = launch["module"].as_str().expect("module");
            let file = &files[module];
            let opts = options(launch, &buffers);
            let t0 = std::time::Instant::now();
            let analysis = Analysis {
                kernels: analyze_module(file, &parsed[&module.to_string()], &opts),
                diagnostics: Vec::new(),
            };
            if std::env::var("HW_TIMING").is_ok() {
                eprintln!("{id}: {:?}", t0.elapsed());
            }
            let Some(k) = analysis.kernels.first() else {
                failures.push(format!("{id}: kernel {} not found", launch["kernel"]));
                continue;
            };
            // The rows ncu measured in this launch (for `row_key`).
            let measured_keys: std::collections::HashSet<RowKey> = meas["accesses"]
                .as_array()
                .expect("accesses")
                .iter()
                .map(|m| {
                    (
                        m["file"].as_str().expect("file").to_string(),
                        m["line"].as_u64().expect("line") as u32,
                        op_class(m["op"].as_str().expect("op")).to_string(),
                        m["space"].as_str().expect("space").to_string(),
                    )
                })
                .collect();
            // The static analysis: the same launch facts without the grid (no
            // simulation); its per-request figures are weighted by how often the
            // simulation executed each access, or equally where the simulation
            // gave an access no count (it stopped, or the access is inside a
            // loop on loaded data): the static figures do not depend on it.
            let mut sopts = opts.clone();
            sopts.launch.grid = None;
            let sk = analyze_module(file, &parsed[&module.to_string()], &sopts);
            let mut spreds: BTreeMap<RowKey, Pred> = BTreeMap::new();
            if let Some(sk) = sk.first() {
                assert_eq!(sk.accesses.len(), k.accesses.len());
                for (a, sa) in k.accesses.iter().zip(&sk.accesses) {
                    let Some(src) = &a.source else { continue };
                    let opn = op_name(a.op, a.kind, &a.instruction);
                    let key = row_key(
                        src,
                        a.line_frames,
                        opn,
                        &a.instruction,
                        a.space.as_str(),
                        &measured_keys,
                    );
                    let p = spreds.entry(key).or_default();
                    let n = a.requests.map_or(1.0, |n| n as f64);
                    let r = &sa.per_request;
                    p.requests += n;
                    p.lines += n * r.l1_lines;
                    p.sectors += n * r.sectors;
                    p.smin += n * r.sectors_min;
                    p.smax += n * r.sectors_max;
                    p.lmin += n * r.l1_lines_min;
                    p.lmax += n * r.l1_lines_max;
                    if n > 0.0 {
                        *p.patterns
                            .entry(sa.pattern.as_str().to_string())
                            .or_default() += n;
                        p.unresolved |= sa.pattern == Pattern::Unknown;
                        // "random" here means: figures are bounds, not exact
                        p.random |= matches!(sa.pattern, Pattern::Random | Pattern::Unknown)
                            || r.sectors_min != r.sectors_max
                            || r.l1_lines_min != r.l1_lines_max;
                    }
                    if let Some(w) = sa.shared_wavefronts {
                        *p.wavefronts.get_or_insert(0.0) += n * w;
                    }
                }
            }
            // Aggregate predictions per (file, line, op class, space).
            let mut preds: BTreeMap<RowKey, Pred> = BTreeMap::new();
            for a in &k.accesses {
                let Some(src) = &a.source else { continue };
                let opn = op_name(a.op, a.kind, &a.instruction);
                let key = row_key(
                    src,
                    a.line_frames,
                    opn,
                    &a.instruction,
                    a.space.as_str(),
                    &measured_keys,
                );
                let p = preds.entry(key).or_default();
                let sampled = a.caveats.iter().find_map(|c| match c {
                    warpscope::analysis::Caveat::InLoopOnLoadedData { sampled, .. }
                        if *sampled > 0 =>
                    {
                        Some(*sampled)
                    }
                    _ => None,
                });
                let n = a.requests.or(sampled).unwrap_or(0) as f64;
                p.uncounted |= a.requests.is_none();
                p.data_trips |= a.requests.is_none() && sampled.is_some();
                p.unsampled |= a.requests.is_none() && sampled.is_none();
                p.counted += a.requests.unwrap_or(0) as f64;
                p.requests += n;
                p.lines += n * a.per_request.l1_lines;
                p.sectors += n * a.per_request.sectors;
                p.smin += n * a.per_request.sectors_min;
                p.smax += n * a.per_request.sectors_max;
                if n > 0.0 {
                    *p.patterns
                        .entry(a.pattern.as_str().to_string())
                        .or_default() += n;
                    // Figures with bounds (a random access, or a base whose
                    // alignment is unknown, such as one loaded from memory)
                    // are checked against their bounds, as in the static table.
                    p.random |= a.pattern == Pattern::Random
                        || a.per_request.sectors_min != a.per_request.sectors_max;
                    p.unresolved |= a.pattern == Pattern::Unknown;
                }
                if let Some(w) = a.shared_wavefronts {
                    *p.wavefronts.get_or_insert(0.0) += n * w;
                }
            }
            for m in meas["accesses"].as_array().expect("accesses") {
                let file_b = m["file"].as_str().expect("file");
                let line = m["line"].as_u64().expect("line") as u32;
                let op = m["op"].as_str().expect("op");
                let space = m["space"].as_str().expect("space");
                let mreq = m["requests"].as_f64().unwrap_or(0.0);
                if mreq == 0.0 {
                    continue;
                }
                if op == "never" {
                    never_rows += 1;
                    continue;
                }
                let pr = &m["per_request"];
                let (mlines, msec) = (
                    pr["l1_tag_requests"].as_f64().unwrap_or(0.0),
                    pr["sectors"].as_f64().unwrap_or(0.0),
                );
                let key = (
                    file_b.to_string(),
                    line,
                    op_class(op).to_string(),
                    space.to_string(),
                );
                let kkey = format!("{id}|{file_b}:{line}|{op}|{space}");
                rows += 1;
                let p = preds.get(&key);
                let (cell, ok, detail) = match p {
                    None => ("no PTX access".to_string(), false, "-".to_string()),
                    Some(p) if p.requests == 0.0 && p.uncounted => {
                        ("not counted".to_string(), false, "-".to_string())
                    }
                    Some(p) if p.requests == 0.0 => {
                        ("never executed".to_string(), false, "-".to_string())
                    }
                    Some(p) => {
                        let n = p.requests;
                        let (pl, ps, lo, hi) = (p.lines / n, p.sectors / n, p.smin / n, p.smax / n);
                        let pat = p
                            .patterns
                            .iter()
                            .max_by(|a, b| a.1.total_cmp(b.1))
                            .map(|x| x.0.clone())
                            .unwrap_or_default();
                        // A row inside a loop whose trip count depends on
                        // loaded data has no request count to compare: its
                        // per-request figures are compared, with every
                        // access of the row sampled, the requests counted
                        // outside such loops no more than measured, and no
                        // bulk copy (whose figures ncu does not give, so
                        // nothing would be compared).
                        let ok = if p.data_trips {
                            !p.unsampled
                                && op != "bulk"
                                && p.counted <= mreq + 0.5
                                && figures_ok(op, space, p, pr, false)
                        } else {
                            (n - mreq).abs() < 0.5 && figures_ok(op, space, p, pr, false)
                        };
                        per_request_only += usize::from(ok && p.data_trips);
                        let (pl_s, ps_s) = predicted_cells(space, p, pl, ps);
                        let bounds = if p.random || lo != hi {
                            format!("{lo:.2}..{hi:.2}")
                        } else {
                            "-".to_string()
                        };
                        let req = if p.data_trips && p.counted > 0.0 {
                            format!("{:.0}+data", p.counted)
                        } else if p.data_trips {
                            "data".to_string()
                        } else {
                            format!("{n:.0}")
                        };
                        (
                            format!(
                                "{pat} | {req}/{mreq:.0} | {pl_s} | {mlines:.3} | {ps_s} | {}",
                                measured_cell(space, pr, msec)
                            ),
                            ok,
                            bounds,
                        )
                    }
                };
                let (outcome, verdict) = known.judge(
                    &kkey,
                    ok,
                    format!("{kkey}: {cell}"),
                    &mut failures,
                    &mut seen_known,
                );
                matched += usize::from(outcome == Outcome::Match);
                known_rows += usize::from(outcome == Outcome::Known);
                let c = cats.entry(format!("{op} {space}")).or_default();
                c.0 += 1;
                c.1 += usize::from(outcome == Outcome::Match);
                if space.contains("shared") {
                    shared_rows += 1;
                }
                // Static comparison of the same row.
                srows += 1;
                let skey = format!("{id}@static|{file_b}:{line}|{op}|{space}");
                let (scell, sok) = match spreds.get(&key) {
                    Some(p) if p.requests > 0.0 => {
                        let n = p.requests;
                        let (pl, ps, lo, hi) = (p.lines / n, p.sectors / n, p.smin / n, p.smax / n);
                        let pat = p
                            .patterns
                            .iter()
                            .max_by(|a, b| a.1.total_cmp(b.1))
                            .map(|x| x.0.clone())
                            .unwrap_or_default();
                        let ok = figures_ok(op, space, p, pr, true);
                        let (pl_s, ps_s) = predicted_cells(space, p, pl, ps);
                        let ms = measured_cell(space, pr, msec);
                        let bounds = if p.random {
                            format!("{lo:.2}..{hi:.2}")
                        } else {
                            "-".to_string()
                        };
                        (
                            format!("{pat} | {pl_s} | {mlines:.3} | {ps_s} | {ms} | {bounds}"),
                            ok,
                        )
                    }
                    _ => ("no executed PTX access | | | | | -".to_string(), false),
                };
                let (soutcome, sverdict) = known.judge(
                    &skey,
                    sok,
                    format!("{skey}: {scell}"),
                    &mut failures,
                    &mut seen_known,
                );
                smatched += usize::from(soutcome == Outcome::Match);
                sknown += usize::from(soutcome == Outcome::Known);
                writeln!(
                    stable,
                    "| {id} | {file_b}:{line} | {op} {space} | {scell} | {sverdict} |"
                )
                .unwrap();
                let cells = if cell.contains('|') {
                    cell
                } else {
                    format!("{cell} | | | | ")
                };
                writeln!(
                    table,
                    "| {id} | {file_b}:{line} | {op} {space} | {cells} | {detail} | {verdict} |"
                )
                .unwrap();
            }
            // Copy-engine traffic (bulk and tensor copies): kernel-level
            // metrics only (tests/hw/README.md finding 15). Copies issued
            // (`smsp__sass_inst_executed_op_tma_{ld,st}`) and bytes moved
            // (`l1tex__m_*_bytes_mem_global_op_tma_{ld,st,red}`): the bytes
            // are the model's copy-engine sectors where it gives them
            // (`Totals::bulk_*_sectors`, `tests/hw/bulkprobe/`); otherwise
            // a copy moves whole 32-byte sectors (16-byte copies: 32 bytes),
            // once for each CTA a multicast copy writes to. A copy between
            // shared memories is in none of the global counters: its bytes
            // are compared with the distributed-shared one. A
            // prefetch to L2 appears in none of these counters; a tensor
            // copy's bytes are the tensor map's box (not in the PTX).
            {
                let km = &meas["kernel_metrics"];
                let g = |n: &str| km[n].as_f64().unwrap_or(0.0);
                let mut pred = [(0u64, Some(0u64)); 3]; // load, store, reduction: copies, bytes
                                                        // A multicast copy whose `ctaMask` the model does not know: its
                                                        // bytes are undetermined by the model, not by the PTX, so the
                                                        // row does not agree.
                let mut mask_unknown = [false; 3];
                // Copies between shared memories (`BulkFacts::shared_to_shared`):
                // copies and bytes, compared with the distributed-shared
                // counter only.
                let mut s2s = (0u64, Some(0u64));
                for a in &k.accesses {
                    let Some(b) = &a.bulk else { continue };
                    // A prefetch to L2 is in none of these counters; the
                    // bulk-group bookkeeping (`commit_group`, `wait_group`)
                    // moves nothing.
                    if b.destination == "L2"
                        || a.instruction.contains("commit_group")
                        || a.instruction.contains("wait_group")
                    {
                        continue;
                    }
                    let lanes = a.per_request.active_lanes.unwrap_or(0.0);
                    let n = (a.requests.unwrap_or(0) as f64 * lanes).round() as u64;
                    if b.shared_to_shared() {
                        s2s.0 += n;
                        s2s.1 = match (s2s.1, b.bytes) {
                            (Some(t), Some(x)) => Some(t + n * x),
                            _ if n == 0 => s2s.1,
                            _ => None,
                        };
                        continue;
                    }
                    let slot = if b.reduction.is_some() {
                        2
                    } else if b.destination == "global" {
                        1
                    } else {
                        0
                    };
                    pred[slot].0 += n;
                    // A multicast copy's bytes arrive at each CTA of its
                    // mask (`BulkFacts::multicast_ctas`).
                    let ctas = match (b.multicast, b.multicast_ctas) {
                        (false, _) => Some(1),
                        (true, c) => c.map(u64::from),
                    };
                    mask_unknown[slot] |= n > 0 && ctas.is_none();
                    pred[slot].1 = match (pred[slot].1, b.bytes, ctas) {
                        (Some(t), Some(x), Some(c)) => Some(t + n * c * x.div_ceil(32) * 32),
                        _ if n == 0 => pred[slot].1,
                        _ => None,
                    };
                }
                if let Some(t) = &k.totals {
                    let model = [
                        t.bulk_load_sectors,
                        t.bulk_store_sectors,
                        t.bulk_reduction_sectors,
                    ];
                    for (p, m) in pred.iter_mut().zip(model) {
                        if let (Some(_), Some(s)) = (p.1, m) {
                            p.1 = Some(s * 32);
                        }
                    }
                }
                if pred.iter().any(|p| p.0 > 0) || s2s.0 > 0 {
                    let mcopies = [
                        g("smsp__sass_inst_executed_op_tma_ld.sum"),
                        g("smsp__sass_inst_executed_op_tma_st.sum"),
                        f64::NAN, // no instruction counter for reductions
                    ];
                    let mbytes = [
                        g("l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"),
                        g("l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum"),
                        g("l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum"),
                    ];
                    let mut ok = true;
                    let mut cells = Vec::new();
                    for i in 0..3 {
                        let (pc, pb) = pred[i];
                        let copies_ok = mcopies[i].is_nan() || (pc as f64 - mcopies[i]).abs() < 0.5;
                        let bytes_ok = !mask_unknown[i]
                            && pb.is_none_or(|b| (b as f64 - mbytes[i]).abs() < 0.5);
                        ok &= copies_ok && bytes_ok;
                        let mc = if mcopies[i].is_nan() {
                            "-".to_string()
                        } else {
                            format!("{}", mcopies[i])
                        };
                        let pbs = match pb {
                            Some(b) => b.to_string(),
                            None if mask_unknown[i] => "ctaMask unknown".to_string(),
                            None => "not in the PTX".to_string(),
                        };
                        cells.push(format!("{pc}/{mc} | {pbs}/{}", mbytes[i]));
                    }
                    // A copy between shared memories: its bytes are
                    // `l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_tma_st`
                    // (tests/hw/blind11 `bulk_s2s_pair`); an extra cell only
                    // in the rows that have such copies.
                    if s2s.0 > 0 {
                        let m = g("l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_tma_st.sum");
                        ok &= s2s.1.is_none_or(|b| (b as f64 - m).abs() < 0.5);
                        let pbs = s2s
                            .1
                            .map_or("not in the PTX".to_string(), |b| b.to_string());
                        cells.push(format!(
                            "shared-to-shared: {} copies, bytes {pbs}/{m} (dshared)",
                            s2s.0
                        ));
                    }
                    brows += 1;
                    let bkey = format!("{id}|copy-engine|-|-");
                    let (outcome, verdict) = known.judge(
                        &bkey,
                        ok,
                        format!("{bkey}: copies or bytes differ: {}", cells.join(" | ")),
                        &mut failures,
                        &mut seen_known,
                    );
                    bmatched += usize::from(outcome == Outcome::Match);
                    writeln!(btable, "| {id} | {} | {verdict} |", cells.join(" | ")).unwrap();
                }
            }

            // Kernel totals.
            let km = &meas["kernel_metrics"];
            let g = |n: &str| km[n].as_f64().unwrap_or(0.0);
            let mld = (
                g("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
                g("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
            );
            let mst = (
                g("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
                g("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
            );
            let mat = (
                g("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum")
                    + g("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"),
                g("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum")
                    + g("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"),
            );
            krows += 1;
            let kkey = format!("{id}|totals|-|-");
            match &k.totals {
                Some(t) => {
                    let random = k.accesses.iter().any(|a| {
                        a.pattern == Pattern::Random
                            || (a.requests.unwrap_or(0) > 0
                                && a.per_request.sectors_min != a.per_request.sectors_max)
                    });
                    let close = |p: u64, m: f64| (p as f64 - m).abs() <= 0.5;
                    let sectors_ok = if random {
                        let total = mld.1 + mst.1 + mat.1;
                        (t.sectors_min as f64) <= total + 0.5 && total <= t.sectors_max as f64 + 0.5
                    } else {
                        close(t.load_sectors, mld.1)
                            && close(t.store_sectors, mst.1)
                            && close(t.atomic_sectors, mat.1)
                    };
                    let ok = close(t.load_requests, mld.0)
                        && close(t.store_requests, mst.0)
                        && close(t.atomic_requests, mat.0)
                        && sectors_ok;
                    let (outcome, verdict) = known.judge(
                        &kkey,
                        ok,
                        format!("{kkey}: totals differ"),
                        &mut failures,
                        &mut seen_known,
                    );
                    kmatched += usize::from(outcome == Outcome::Match);
                    let c = cats.entry("kernel totals".to_string()).or_default();
                    c.0 += 1;
                    c.1 += usize::from(outcome == Outcome::Match);
                    let b = if random {
                        format!(" ({}..{})", t.sectors_min, t.sectors_max)
                    } else {
                        String::new()
                    };
                    writeln!(
                        ktable,
                        "| {id} | {}/{} | {}/{}{b} | {}/{} | {}/{} | {}/{} | {}/{} | {verdict} |",
                        t.load_requests,
                        mld.0,
                        t.load_sectors,
                        mld.1,
                        t.store_requests,
                        mst.0,
                        t.store_sectors,
                        mst.1,
                        t.atomic_requests,
                        mat.0,
                        t.atomic_sectors,
                        mat.1
                    )
                    .unwrap();
                }
                None => {
                    cats.entry("kernel totals".to_string()).or_default().0 += 1;
                    let why = k.totals_unavailable.clone().unwrap_or_default();
                    let (_, verdict) = known.judge(
                        &kkey,
                        false,
                        format!("{kkey}: no totals: {why}"),
                        &mut failures,
                        &mut seen_known,
                    );
                    writeln!(
                        ktable,
                        "| {id} | - | - | - | - | - | - | {verdict} (no totals: {why}) |"
                    )
                    .unwrap();
                }
            }
        }
    }
    for k in known.entries.keys() {
        if !seen_known.contains(k) && !failures.iter().any(|f| f.starts_with(k.as_str())) {
            failures.push(format!(
                "{k}: listed in {known_path} but not a mismatch (or not measured)"
            ));
        }
    }
    let mut summary = format!(
        "accesses: {matched}/{rows} match ({per_request_only} of them on per-request figures alone, inside loops on loaded data; {known_rows} known mismatches, {shared_rows} shared-memory rows; {never_rows} rows of never-true-guard SASS skipped); kernel totals: {kmatched}/{krows} match; copy-engine traffic: {bmatched}/{brows} match; static analysis (no grid): {smatched}/{srows} match ({sknown} known mismatches)\n"
    );
    if categories {
        summary.push_str("\nper category (launch simulated; rows matched / rows):\n");
        for (c, (n, m)) in &cats {
            writeln!(summary, "- {c}: {m}/{n}").unwrap();
        }
    }
    let report = format!(
        "{summary}\n## Per access, launch simulated\n\n{table}\n## Kernel totals\n\n{ktable}\n## Copy-engine traffic (bulk and tensor copies; predicted/measured)\n\n| launch | load copies | load bytes | store copies | store bytes | reduction copies | reduction bytes | |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n{btable}\n## Per access, static analysis without the grid (weighted by the simulated executions)\n\n{stable}"
    );
    insta::assert_snapshot!(snapshot, report);
    assert!(
        failures.is_empty(),
        "{} unexpected results:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The analysis of the first kernel of `ptx` launched as one block of 128
/// threads with parameters `params` (by index).
fn small_launch<V: Into<warpscope::ParamValue>>(
    ptx: &str,
    params: Vec<(usize, V)>,
) -> warpscope::analysis::KernelAnalysis {
    let file = SourceFile::from_text("t.ptx", ptx.to_string());
    let module = warpscope::syntax::parse_file(&file).0;
    let opts = Options {
        launch: LaunchConfig {
            block: Some([128, 1, 1]),
            grid: Some([1, 1, 1]),
            params: params
                .into_iter()
                .map(|(i, v)| (ParamKey::Index(i), v.into()))
                .collect(),
        },
        ..Options::default()
    };
    analyze_module(&file, &module, &opts)
        .into_iter()
        .next()
        .expect("one kernel")
}

/// A guarded block as `cub_block_reduce` and `stencil2d_smem` have it
/// (tests/hw/blind/measured.json): `if (tid < n) x = p[tid];` then code that
/// is not an exit. ptxas predicates the block, so the warps in which every
/// lane is off still issue the load (4 executions for 4 warps, n = 40, as
/// ncu's per-instruction count; the kernel-level L1 request counter counts
/// only the 2 with a lane on: `cub_block_reduce` 31,264 executions, 31,250
/// requests); when the block is followed by `ret`, the branch becomes
/// `@P EXIT` and only the 2 warps with a lane on issue. (The load is
/// `.volatile`: nothing uses its result, and ptxas deletes a plain load
/// whose result is unused, `memops::load_use`.)
#[test]
fn if_converted_blocks_issue_in_every_warp() {
    let kernel = |tail: &str| {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 p, .param .u32 n)\n{{\n\
             .reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<2>;\n\
             ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [n];\nmov.u32 %r2, %tid.x;\n\
             setp.ge.s32 %p1, %r2, %r1;\n@%p1 bra $L_skip;\n\
             mul.wide.s32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.volatile.global.f32 %f1, [%rd3];\n\
             $L_skip:\n{tail}\nret;\n}}\n"
        )
    };
    let k = small_launch(&kernel("bar.sync 0;"), vec![(1, 40)]);
    assert_eq!(k.accesses[0].requests, Some(4));
    let t = k.totals.expect("totals");
    assert_eq!((t.load_requests, t.load_sectors), (2, 5)); // 40 floats
    let k = small_launch(&kernel(""), vec![(1, 40)]);
    assert_eq!(k.accesses[0].requests, Some(2));
}

/// A branch on a value the simulation does not know (a loaded float, as
/// `layernorm_welford`'s `nc > 0 ? oc / nc : 0` guard) over code without
/// memory accesses no longer stops the simulation: the store after it is
/// counted in every warp.
#[test]
fn unknown_guard_over_memory_free_code_is_stepped_over() {
    let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
               .visible .entry k(.param .u64 p)\n{\n\
               .reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<3>;\n\
               ld.param.u64 %rd1, [p];\nmov.u32 %r2, %tid.x;\n\
               mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.f32 %f1, [%rd3];\n\
               setp.gt.f32 %p1, %f1, 0f00000000;\n@%p1 bra $L_a;\n\
               add.f32 %f1, %f1, 0f3F800000;\n\
               $L_a:\nst.global.f32 [%rd3], %f1;\nret;\n}\n";
    let t = small_launch::<i64>(ptx, vec![])
        .totals
        .expect("the simulation steps over the guarded add");
    assert_eq!((t.load_requests, t.store_requests), (4, 4));
    assert_eq!((t.load_sectors, t.store_sectors), (16, 16));
}

/// A short block guarded by loaded data (the bitonic sort's
/// compare-and-swap, `tests/hw/blind` `bitonic_smem`: `@!P0 STS`, about 16
/// of 32 lanes per request): ptxas predicates it, so every warp issues the
/// store once; the simulation no longer stops there, counts the store in
/// each of the 4 warps and gives its sectors as bounds. (The load after
/// the barrier is `.volatile`: ptxas deletes a plain load whose result is
/// unused, `memops::load_use`.)
#[test]
fn data_guarded_short_blocks_issue_with_unknown_lanes() {
    let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
               .visible .entry k(.param .u64 p)\n{\n\
               .reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<3>;\n\
               ld.param.u64 %rd1, [p];\nmov.u32 %r2, %tid.x;\n\
               mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.f32 %f1, [%rd3];\n\
               setp.gt.f32 %p1, %f1, 0f00000000;\n@%p1 bra $L_a;\n\
               st.global.f32 [%rd3], %f1;\n\
               $L_a:\nbar.sync 0;\nld.volatile.global.f32 %f2, [%rd3+512];\nret;\n}\n";
    let k = small_launch::<i64>(ptx, vec![]);
    let store = k
        .accesses
        .iter()
        .find(|a| a.op == AccessOp::Store)
        .expect("the store");
    assert_eq!(store.requests, Some(4));
    let t = k
        .totals
        .expect("the simulation goes on past the data-dependent guard");
    assert_eq!(t.load_requests, 8);
    // the stores: from 1 sector (one lane) to 4 (every lane) per warp
    assert!(t.sectors_min <= 32 + 4 && 32 + 16 <= t.sectors_max);
}

/// An early exit on loaded data (`if (slot < 0) return;`, `tests/hw/blind3`
/// `kv_cache_append`): the simulation follows the branch both ways. The
/// store's address is computed after the branch, so it stays known in the
/// lanes whose way is unknown: 4 coalesced requests of 4 sectors, counted as
/// if every lane goes on (the upper bound), none of them in the lower bound,
/// with the kernel's caveat.
#[test]
fn an_exit_on_loaded_data_is_followed_both_ways() {
    let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
               .visible .entry k(.param .u64 p)\n{\n\
               .reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<8>;\n\
               ld.param.u64 %rd1, [p];\nmov.u32 %r2, %tid.x;\n\
               mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.u32 %r3, [%rd3];\n\
               setp.lt.s32 %p1, %r3, 0;\n@%p1 bra $L_end;\n\
               add.s32 %r4, %r2, 1024;\nmul.wide.u32 %rd4, %r4, 4;\nadd.s64 %rd5, %rd1, %rd4;\n\
               st.global.u32 [%rd5], %r3;\nld.global.u32 %r5, [%rd5+4096];\nst.global.u32 [%rd5+8192], %r5;\n\
               $L_end:\nret;\n}\n";
    let k = small_launch::<i64>(ptx, vec![]);
    let t = k
        .totals
        .expect("the simulation goes on past the early exit");
    assert_eq!((t.load_requests, t.store_requests), (8, 8));
    assert_eq!((t.load_sectors, t.store_sectors), (32, 32));
    // the first load's 16 sectors are certain; every access after the exit
    // may not happen
    assert_eq!((t.sectors_min, t.sectors_max), (16, 64));
    let store = k
        .accesses
        .iter()
        .find(|a| a.op == AccessOp::Store)
        .expect("the store");
    assert_eq!(store.pattern, warpscope::analysis::Pattern::Coalesced);
    assert!(k
        .caveats
        .iter()
        .any(|c| c.to_string().contains("followed both ways")));
}

/// A loop whose trip count is loaded data (`for (j = 0; j < n[i]; ++j)`,
/// CSR row loops): it runs an unknown number of times, so the simulation
/// steps over it. The accesses inside get no request count (their figures
/// are the static analysis') and the kernel no totals, with the reason; the
/// load before the loop and the store after it are counted as usual: 4
/// requests each (128 threads), the store at `p + 4 * tid + 12288` 4
/// sectors per request although it stores the loop's counter, unknown
/// after the loop.
#[test]
fn a_loop_on_loaded_data_is_stepped_over() {
    let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
               .visible .entry k(.param .u64 p)\n{\n\
               .reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<3>;\n\
               ld.param.u64 %rd1, [p];\nmov.u32 %r2, %tid.x;\n\
               mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.u32 %r3, [%rd3];\n\
               mov.u32 %r5, 0;\n\
               $L_loop:\nsetp.ge.s32 %p1, %r5, %r3;\n@%p1 bra $L_end;\n\
               ld.global.f32 %f1, [%rd3+4096];\nst.global.f32 [%rd3+8192], %f1;\nadd.s32 %r5, %r5, 1;\nbra.uni $L_loop;\n\
               $L_end:\nst.global.u32 [%rd3+12288], %r5;\nret;\n}\n";
    let k = small_launch::<i64>(ptx, vec![]);
    assert!(k.totals.is_none());
    let why = k.totals_unavailable.as_deref().expect("the reason");
    assert!(why.contains("exits on loaded data (PTX line 22)"), "{why}");
    let counts: Vec<Option<u64>> = k.accesses.iter().map(|a| a.requests).collect();
    assert_eq!(counts, [Some(4), None, None, Some(4)]);
    let after = &k.accesses[3];
    assert_eq!(after.pattern, warpscope::analysis::Pattern::Coalesced);
    assert_eq!(after.per_request.sectors, 4.0);
    for a in &k.accesses[1..3] {
        assert!(
            a.caveats.iter().any(|c| c
                .to_string()
                .contains("loop whose exit depends on loaded data")),
            "{:?}",
            a.caveats
        );
        // The per-request figures of the trip simulated before the exit on
        // loaded data was found (one a warp: 4 warps): 32 lanes of 4 bytes
        // at p + 4 * tid + 4096 (p aligned to 2^32 in the simulation): one
        // line, 4 sectors; every lane may have left the loop at its test
        // (the test is on the loaded bound), so the lower bound is none.
        assert!(a.caveats.iter().any(|c| matches!(
            c,
            warpscope::analysis::Caveat::InLoopOnLoadedData {
                line: 22,
                sampled: 4,
                listing: false
            }
        )));
        assert_eq!(a.per_request.l1_lines, 1.0);
        assert_eq!(a.per_request.sectors, 4.0);
        assert_eq!(a.per_request.sectors_max, 4.0);
        assert_eq!(a.per_request.active_lanes, Some(32.0));
    }
    assert!(k
        .caveats
        .iter()
        .any(|c| c.to_string().contains("stepped over it")));
}

/// A bounded probe loop (`for (k = 0; k < 100000; ++k) { if (t[h] == key)
/// break; ++h; }`) inside an `if` on loaded data, whose paths meet where the
/// loop's exits do: the `break` on loaded data leaves the lanes that go on
/// uncertain, and the back edge (on the known counter) takes them back above
/// that `break`, so the loop's exit depends on loaded data and it is stepped
/// over, the accesses before and after it counted (`tests/hw/blind21`
/// `bpe_merge_rank_probe`; before, each trip nested one more divergent
/// region until the simulation gave up on the whole launch).
#[test]
fn a_bounded_loop_breaking_on_loaded_data_is_stepped_over() {
    let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
               .visible .entry k(.param .u64 p)\n{\n\
               .reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<8>;\n\
               ld.param.u64 %rd1, [p];\nmov.u32 %r2, %tid.x;\n\
               mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.u32 %r3, [%rd3];\n\
               mov.u32 %r9, 0;\nsetp.eq.s32 %p1, %r3, 0;\n@%p1 bra $L_end;\n\
               mov.u32 %r5, 0;\nmov.u32 %r6, %r2;\n\
               $L_loop:\nand.b32 %r7, %r6, 1023;\nmul.wide.u32 %rd4, %r7, 4;\nadd.s64 %rd5, %rd1, %rd4;\n\
               ld.global.u32 %r8, [%rd5+4096];\nsetp.eq.s32 %p2, %r8, %r3;\n@%p2 bra $L_found;\n\
               add.s32 %r6, %r6, 1;\nadd.s32 %r5, %r5, 1;\nsetp.lt.s32 %p3, %r5, 100000;\n@%p3 bra $L_loop;\n\
               bra.uni $L_end;\n\
               $L_found:\nmov.u32 %r9, %r8;\n\
               $L_end:\nst.global.u32 [%rd3+12288], %r9;\nret;\n}\n";
    let k = small_launch::<i64>(ptx, vec![]);
    let why = k.totals_unavailable.as_deref().expect("the reason");
    assert!(why.contains("exits on loaded data"), "{why}");
    let counts: Vec<Option<u64>> = k.accesses.iter().map(|a| a.requests).collect();
    assert_eq!(counts, [Some(4), None, Some(4)]);
    assert!(k.accesses[1].caveats.iter().any(|c| c
        .to_string()
        .contains("loop whose exit depends on loaded data")));
}

/// `tests/hw/probe2`: every one-warp `cp.async` layout of the second probe and
/// of its confirmation run (`results/probe2_measured.txt.gz`,
/// `confirm/heldout_measured.txt.gz`: 16-byte `.cg`, `.ca` of 4, 8 and 16
/// bytes, per-lane src-size (`ZFILL`) and ignore-src), measured on the H100,
/// against `cost::async_copy::ldgsts_cost`. The layouts where lines, sectors
/// or wavefronts differ must be exactly those listed, with their figures, in
/// `tests/hw/probe2/known.txt`.
#[test]
fn ldgsts_probe_layouts() {
    use std::io::Read as _;
    use warpscope::analysis::cost::async_copy::{ldgsts_cost, CopyForm};
    let read = |path: &str| {
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(path).expect(path))
            .read_to_string(&mut text)
            .expect(path);
        text
    };
    let known: Vec<String> = std::fs::read_to_string("tests/hw/probe2/known.txt")
        .expect("known list")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.splitn(6, '|').take(5).collect::<Vec<_>>().join("|"))
        .collect();
    let mut off = Vec::new();
    let (mut layouts, mut matched) = (0, 0);
    for (run, path) in [
        ("probe2", "tests/hw/probe2/results/probe2_measured.txt.gz"),
        ("heldout", "tests/hw/probe2/confirm/heldout_measured.txt.gz"),
    ] {
        for line in read(path).lines().filter(|l| !l.starts_with('#')) {
            let w: Vec<&str> = line.split_whitespace().collect();
            let n: Vec<i64> = w[8..].iter().map(|x| x.parse().expect("number")).collect();
            assert_eq!(n.len(), 96, "{line}");
            let measured: Vec<u32> = w[4..7].iter().map(|x| x.parse().expect("count")).collect();
            let src: [i64; 32] = std::array::from_fn(|l| n[l]);
            let dst: [i64; 32] = std::array::from_fn(|l| n[32 + l]);
            let exec = (0..32)
                .filter(|&l| src[l] >= 0)
                .fold(0u32, |m, l| m | 1 << l);
            let (bytes, form, reading) = match w[0] {
                "ca4" | "ca8" | "ca16" => {
                    let bytes = w[0][2..].parse().expect("size");
                    (
                        bytes,
                        CopyForm {
                            cached: true,
                            zfill: false,
                        },
                        exec,
                    )
                }
                "zf16" => {
                    let r = (0..32)
                        .filter(|&l| n[64 + l] > 0)
                        .fold(0u32, |m, l| m | 1 << l);
                    (
                        16,
                        CopyForm {
                            cached: false,
                            zfill: true,
                        },
                        exec & r,
                    )
                }
                "ig16" => {
                    let r = (0..32)
                        .filter(|&l| n[64 + l] == 0)
                        .fold(0u32, |m, l| m | 1 << l);
                    (16, CopyForm::default(), exec & r)
                }
                _ => (16, CopyForm::default(), exec),
            };
            // the variants' forms are those ptxas emitted (the opcode column)
            assert_eq!(w[7].contains("BYPASS"), !form.cached, "{line}");
            assert_eq!(w[7].contains("ZFILL"), form.zfill, "{line}");
            let (c, wf) = ldgsts_cost(&src, reading, &dst, exec, bytes, form);
            layouts += 1;
            let model = [wf, c.sectors, c.lines];
            if model[..] == measured[..] {
                matched += 1;
            } else {
                off.push(format!(
                    "{run}|{}|{}|{} {} {}|{} {} {}",
                    w[0], w[1], measured[0], measured[1], measured[2], model[0], model[1], model[2]
                ));
            }
        }
    }
    println!(
        "tests/hw/probe2: {matched}/{layouts} layouts match ({} listed in known.txt)",
        known.len()
    );
    assert_eq!(layouts, 9281 + 781);
    let unlisted: Vec<&String> = off.iter().filter(|o| !known.contains(o)).collect();
    let stale: Vec<&String> = known.iter().filter(|k| !off.contains(k)).collect();
    assert!(
        unlisted.is_empty(),
        "mismatches not in tests/hw/probe2/known.txt: {unlisted:#?}"
    );
    assert!(
        stale.is_empty(),
        "listed in tests/hw/probe2/known.txt but matching: {stale:#?}"
    );
}

/// `tests/hw/ldsprobe`: every one-warp `ld.shared` / `st.shared` layout of
/// 4, 8 and 16 bytes of the width probe (`results/measured.txt`, 456) and of
/// its held-out runs (`heldout/measured.txt`, 240 random layouts, and
/// `heldout2/measured.txt`, 160 layouts with lanes off, each predicted
/// before it ran), measured on the H200, against
/// `cost::shared_request_wavefronts`. The layouts whose wavefronts differ
/// must be exactly those listed in `tests/hw/ldsprobe/known.txt`.
#[test]
fn shared_width_probe_layouts() {
    use warpscope::analysis::cost::{shared_atomic::SharedAtomicForm, shared_request_wavefronts};
    use warpscope::ir::AccessOp;
    let known: Vec<String> = std::fs::read_to_string("tests/hw/ldsprobe/known.txt")
        .expect("known list")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.splitn(5, '|').take(4).collect::<Vec<_>>().join("|"))
        .collect();
    let (mut off, mut layouts) = (Vec::new(), 0);
    for (run, path) in [
        ("probe", "tests/hw/ldsprobe/results/measured.txt"),
        ("heldout", "tests/hw/ldsprobe/heldout/measured.txt"),
        ("heldout2", "tests/hw/ldsprobe/heldout2/measured.txt"),
    ] {
        let text = std::fs::read_to_string(path).expect(path);
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let w: Vec<&str> = line.split_whitespace().collect();
            let offs: Vec<i64> = w[6..].iter().map(|x| x.parse().expect("offset")).collect();
            assert_eq!(offs.len(), 32, "{line}");
            let addrs: [i64; 32] = std::array::from_fn(|l| offs[l].max(0));
            let active = (0..32)
                .filter(|&l| offs[l] >= 0)
                .fold(0u32, |m, l| m | 1 << l);
            let op = if w[0].starts_with("ld") {
                AccessOp::Load
            } else {
                AccessOp::Store
            };
            let bytes: u32 = w[0][2..].parse().expect("width");
            // the SASS that ran is the width's (the opcode column)
            let suffix = match bytes {
                4 => "",
                8 => ".64",
                _ => ".128",
            };
            assert!(w[5].ends_with(&format!("S{suffix}")), "{line}");
            // one request of the layout's lanes (the probe's premise)
            assert_eq!(w[2], "1", "{line}");
            let lanes: f64 = w[3].parse().expect("lanes");
            assert_eq!(lanes, f64::from(active.count_ones()), "{line}");
            let measured: u32 = w[4].parse().expect("wavefronts");
            let model =
                shared_request_wavefronts(op, SharedAtomicForm::Native, &addrs, active, bytes);
            layouts += 1;
            if model != measured {
                off.push(format!("{run}|{}|{}|{measured} {model}", w[0], w[1]));
            }
        }
    }
    assert_eq!(layouts, 456 + 240 + 160);
    let unlisted: Vec<&String> = off.iter().filter(|o| !known.contains(o)).collect();
    let stale: Vec<&String> = known.iter().filter(|k| !off.contains(k)).collect();
    assert!(
        unlisted.is_empty(),
        "mismatches not in tests/hw/ldsprobe/known.txt: {unlisted:#?}"
    );
    assert!(
        stale.is_empty(),
        "listed in tests/hw/ldsprobe/known.txt but matching: {stale:#?}"
    );
}

/// One 16-byte `cp.async` layout (source 16 bytes off the sector grid,
/// destination `16 t`) in its two cache forms, through the whole analysis:
/// `.cg` (`LDGSTS.E.BYPASS.128`) 32 sectors and 12 wavefronts per request
/// (`cpa_sweep_cg16_ss16_so16_ds16`, `tests/hw/measured.json`), `.ca`
/// (`LDGSTS.E.128`) a load's 17 sectors and 4 wavefronts (`tests/hw/probe2`,
/// `ca16 st_ss16_so16_ds16_do0`).
#[test]
fn cached_and_bypass_copies_are_costed_apart() {
    let kernel = |q: &str| {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 p)\n{{\n\
             .reg .b32 %r<5>;\n.reg .b64 %rd<4>;\n.shared .align 1024 .b8 s[4096];\n\
             ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 16;\n\
             add.s64 %rd3, %rd1, %rd2;\nshl.b32 %r2, %r1, 4;\nmov.u32 %r3, s;\nadd.u32 %r4, %r3, %r2;\n\
             cp.async.{q}.shared.global [%r4], [%rd3+16], 16;\n\
             cp.async.commit_group;\ncp.async.wait_group 0;\nret;\n}}\n"
        )
    };
    for (q, sectors, wavefronts) in [("cg", 32.0, 12.0), ("ca", 17.0, 4.0)] {
        let k = small_launch::<i64>(&kernel(q), vec![]);
        let a = k
            .accesses
            .iter()
            .find(|a| a.instruction.starts_with("cp.async"))
            .expect("the copy");
        assert_eq!(a.per_request.sectors, sectors, "{q}");
        assert_eq!(a.shared_wavefronts, Some(wavefronts), "{q}");
    }
}

/// cuBLAS-style `beta == 0` branch on a float parameter
/// (`tests/hw/blind3` `gemm_tc_epilogue`: `setp.eq.f32 %p, %f, 0f00000000`):
/// with the parameter's value given (a number), the comparison is
/// decided — an IEEE one, `-0.0 == 0.0` — and the simulation goes on: C is
/// read only when beta is not zero. Before, the `0f…` immediate was an
/// unknown operand and the simulation stopped at the branch.
#[test]
fn a_float_parameter_decides_a_branch() {
    let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
               .visible .entry k(.param .u64 c, .param .f32 beta)\n{\n\
               .reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<3>;\n\
               ld.param.u64 %rd1, [c];\nld.param.f32 %f1, [beta];\nmov.u32 %r2, %tid.x;\n\
               mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nmov.f32 %f2, 0f00000000;\n\
               setp.eq.f32 %p1, %f1, 0f00000000;\n@%p1 bra $L_skip;\nld.global.f32 %f2, [%rd3];\n\
               $L_skip:\nst.global.f32 [%rd3], %f2;\nret;\n}\n";
    let totals = |beta: f32| {
        small_launch(
            ptx,
            vec![(1, warpscope::ParamValue::Float(f64::from(beta)))],
        )
        .totals
        .expect("the branch on beta is decided")
    };
    for beta in [0.0f32, -0.0] {
        let t = totals(beta);
        assert_eq!((t.load_requests, t.store_requests), (0, 4), "beta {beta}");
    }
    let t = totals(0.5);
    assert_eq!((t.load_requests, t.store_requests), (4, 4));
    assert_eq!(t.load_sectors, 16);
}

/// A generic atomic from inline assembly (`cuda_fp16.hpp`'s
/// `atomicAdd(__half2*)`: `atom.add.noftz.f16x2` without a state space, on
/// a pointer parameter that is never `cvta`'d; `tests/hw/blind3`
/// `embedding_bwd_h2`, measured as global `ATOMG`/`RED` traffic) is global
/// also when the launch gives the pointer's value, which leaves no
/// parameter symbol in the address: the space follows the address's
/// definitions back to the parameter.
#[test]
fn a_generic_atomic_on_a_given_pointer_is_global() {
    let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
               .visible .entry k(.param .u64 g)\n{\n\
               .reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n\
               ld.param.u64 %rd1, [g];\nmov.u32 %r2, %tid.x;\n\
               mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nmov.b32 %r3, 1006648320;\n\
               { atom.add.noftz.f16x2 %r1,[%rd3],%r3; }\nret;\n}\n";
    for params in [vec![], vec![(0, 1i64 << 32)]] {
        let given = !params.is_empty();
        let k = small_launch(ptx, params);
        assert_eq!(
            k.accesses[0].space.as_str(),
            "global",
            "value given: {given}"
        );
        let t = k.totals.expect("totals");
        assert_eq!(
            (t.atomic_requests, t.atomic_sectors),
            (4, 16),
            "value given: {given}"
        );
    }
}

/// ptxas's merging of adjacent scalar accesses (`analysis::merge`) against
/// what ptxas does with the probes of `tests/hw/vecmerge/` (`probes.ptx`,
/// its SASS in `excerpts.txt`, regenerated by `regen.sh`; no GPU needed).
/// Per probe kernel, the wide SASS accesses (`.64`, `.128`) with the PTX
/// access their line names, and the count of the others, must equal
/// warpscope's: an access it merges counts once, as wide as its group, at
/// the carrier's line; a member merged into it not at all. The probes where
/// they differ must be exactly those of `tests/hw/vecmerge/known.txt`, each
/// with its reason.
#[test]
fn ptxas_merge_probes() {
    let dir = "tests/hw/vecmerge";
    let text = std::fs::read_to_string(format!("{dir}/probes.ptx")).expect("probes.ptx");
    let excerpts = std::fs::read_to_string(format!("{dir}/excerpts.txt")).expect("excerpts.txt");
    let known: BTreeMap<String, String> = std::fs::read_to_string(format!("{dir}/known.txt"))
        .expect("known.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('|'))
        .map(|(k, r)| (k.trim().to_string(), r.trim().to_string()))
        .collect();
    // What ptxas did: per kernel, (access, bits) of its wide instructions
    // and the count of the others.
    type Shape = (Vec<(u32, u32)>, usize);
    let mut sass: BTreeMap<String, Shape> = BTreeMap::new();
    let mut cur: Option<String> = None;
    for line in excerpts.lines().skip(1) {
        if let Some(k) = line.strip_suffix(':').filter(|k| !k.starts_with(' ')) {
            cur = Some(k.to_string());
            sass.entry(k.to_string()).or_default();
            continue;
        }
        let (Some(k), Some((at, instr))) = (&cur, line.trim().split_once(": ")) else {
            continue;
        };
        let j: u32 = at.trim_start_matches('a').parse().unwrap_or(0);
        let op = instr
            .split_whitespace()
            .find(|w| !w.starts_with('@'))
            .unwrap_or("");
        let e = sass.get_mut(k).expect("kernel");
        if op.ends_with(".128") {
            e.0.push((j, 128));
        } else if op.ends_with(".64") && !op.contains("desc") {
            e.0.push((j, 64));
        } else {
            e.1 += 1;
        }
    }
    let file = SourceFile::from_text("probes.ptx", text);
    let analysis = warpscope::analyze(&file, &Options::default());
    let mut table = String::new();
    let mut failures = Vec::new();
    let (mut agree, mut listed) = (0, 0);
    for k in &analysis.kernels {
        let mut mine: Shape = (Vec::new(), 0);
        for a in &k.accesses {
            let Some(src) = &a.source else { continue };
            let j = src.line % 1000;
            let member = a.caveats.iter().any(|c| {
                matches!(
                    c,
                    warpscope::analysis::Caveat::MergedInto { .. }
                        | warpscope::analysis::Caveat::ReusedLoad { .. }
                )
            });
            if j == 999 || member {
                continue;
            }
            let merged = a.caveats.iter().find_map(|c| match c {
                warpscope::analysis::Caveat::MergedAccess { bytes, .. } => Some(bytes * 8),
                _ => None,
            });
            match merged.or((a.bits > 32).then_some(a.bits)) {
                Some(bits) => mine.0.push((j, bits)),
                None => mine.1 += 1,
            }
        }
        mine.0.sort_unstable();
        let mut theirs = sass.get(&k.name).cloned().unwrap_or_default();
        theirs.0.sort_unstable();
        let ok = mine == theirs;
        let shape = |s: &Shape| {
            let wide: Vec<String> = s.0.iter().map(|(j, b)| format!("a{j}:{b}")).collect();
            format!("[{}] + {} narrow", wide.join(" "), s.1)
        };
        let verdict = match (ok, known.get(&k.name)) {
            (true, Some(_)) => {
                failures.push(format!("{}: listed in known.txt but agrees now", k.name));
                "yes (listed!)".to_string()
            }
            (true, None) => {
                agree += 1;
                "yes".to_string()
            }
            (false, Some(r)) => {
                listed += 1;
                format!("KNOWN: {r}")
            }
            (false, None) => {
                failures.push(format!(
                    "{}: ptxas {} warpscope {}",
                    k.name,
                    shape(&theirs),
                    shape(&mine)
                ));
                "NO".to_string()
            }
        };
        writeln!(
            table,
            "| {} | {} | {} | {verdict} |",
            k.name,
            shape(&theirs),
            shape(&mine)
        )
        .unwrap();
    }
    for name in known.keys() {
        if !analysis.kernels.iter().any(|k| &k.name == name) {
            failures.push(format!("{name}: in known.txt but no such probe"));
        }
    }
    let summary = format!(
        "{} probes: {agree} agree, {listed} listed in known.txt\n\n| probe | ptxas | warpscope | agree |\n| --- | --- | --- | --- |\n{table}",
        analysis.kernels.len()
    );
    insta::assert_snapshot!("ptxas_merge_probes", summary);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `elect.sync` (PTX ISA: the lowest active lane of the member mask is the
/// leader, its predicate true there only): a store guarded by it is one
/// request of one lane in each of the 4 warps, in the simulation and in the
/// static analysis; the leader's lane number is uniform (lane 0 here).
#[test]
fn elect_sync_guards_one_lane_a_warp() {
    let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
               .visible .entry k(.param .u64 p)\n{\n\
               .reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n\
               ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n\
               elect.sync %r2|%p1, -1;\n\
               add.s32 %r3, %r1, %r2;\n\
               mul.wide.u32 %rd2, %r3, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
               @%p1 st.global.u32 [%rd3], %r2;\nret;\n}\n";
    let k = small_launch(ptx, Vec::<(usize, i64)>::new());
    let a = &k.accesses[0];
    assert_eq!(a.requests, Some(4));
    assert_eq!(a.per_request.active_lanes, Some(1.0));
    assert_eq!(a.per_request.sectors, 1.0);
    let t = k.totals.expect("totals");
    assert_eq!((t.store_requests, t.store_sectors), (4, 4));
}

/// `match.any.sync` of keys the simulation knows is the mask of the lanes
/// with an equal key (PTX ISA); of loaded keys it is loaded data, so a
/// branch on it (`cg::reduce`'s `mask == -1` test in `tests/hw/blind7`
/// `cg_labeled_*`) takes the rules for loaded data instead of stopping.
#[test]
fn match_any_masks_are_computed_or_data() {
    let kernel = |key: &str| {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 p)\n{{\n\
             .reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<4>;\n\
             ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n\
             mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
             {key}\n\
             match.any.sync.b32 %r3, %r2, -1;\n\
             setp.eq.s32 %p1, %r3, -1;\n@%p1 bra $L_done;\n\
             st.global.u32 [%rd3], %r3;\n\
             $L_done:\nret;\n}}\n"
        )
    };
    let store = |k: &warpscope::analysis::KernelAnalysis| {
        k.accesses
            .iter()
            .find(|a| a.op == AccessOp::Store)
            .and_then(|a| a.requests)
    };
    // the warp number: one key a warp, the mask is every lane, no store
    let k = small_launch(&kernel("shr.u32 %r2, %r1, 5;"), Vec::<(usize, i64)>::new());
    assert_eq!(store(&k), Some(0));
    // the parity of the lane: two groups a warp, every warp stores
    let k = small_launch(&kernel("and.b32 %r2, %r1, 1;"), Vec::<(usize, i64)>::new());
    assert_eq!(store(&k), Some(4));
    // a loaded key: the branch is followed both ways, the store counted
    let k = small_launch(
        &kernel("ld.global.u32 %r2, [%rd3];"),
        Vec::<(usize, i64)>::new(),
    );
    assert_eq!(store(&k), Some(4));
}
