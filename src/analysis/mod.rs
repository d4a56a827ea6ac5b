//! Warp address analysis: how each warp's memory accesses are served.
//!
//! # Pipeline
//!
//! For every `.entry` of a module:
//!
//! 1. `launch` resolves the launch facts (block shape, grid, parameters) and
//!    splits the block's warps into *warp classes* with the same lane layout;
//! 2. `lower` turns the body into a flat list of operations with interned
//!    registers and classifies memory instructions;
//! 3. `dataflow` runs a fixpoint over the CFG (`crate::cfg`) per warp class
//!    with the lane-value domain of `domain` and the transfer functions of
//!    `transfer`, recording the address value and possibly-active lanes of
//!    every memory instruction;
//! 4. `cost` turns an address value into a pattern and a per-request cost
//!    (lines, sectors, ideal, bounds over unknown alignments);
//! 5. when the grid is given, `totals` simulates the launch warp by warp with
//!    concrete indices, which gives exact per-request averages over the
//!    launch's warps (partial warps, trip counts, per-warp alignment) and the
//!    kernel's totals.
//!
//! The results are plain data (`model`), the JSON contract.
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

pub mod bitfield;
pub mod bounds;
pub mod cost;
pub mod crosslane;
pub mod dataflow;
pub mod domain;
pub mod launch;
pub mod lower;
pub mod model;
pub mod symbolic;
pub mod totals;
pub mod transfer;

pub use model::*;

use crate::cfg::Cfg;
use crate::source::SourceFile;
use crate::syntax::ast::{FunctionKind, Module, StmtKind};
use cost::{cost_over_residues, element_sectors, ideal_sectors, random_cost, CostRange};
use domain::{Cong, Sym, Value};
use std::collections::HashMap;

/// Parses `file`, analyses every kernel and returns the result with the front
/// end's diagnostics.
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
/// assert_eq!(analysis.kernels[0].accesses[0].per_request.sectors, 32.0);
/// ```
pub fn analyze(file: &SourceFile, opts: &Options) -> Analysis {
    let (module, mut diagnostics) = crate::syntax::parse_file(file);
    let (symbols, sema_diags) = crate::sema::check_module(&module);
    diagnostics.extend(sema_diags);
    let kernels = analyze_module_with_symbols(file, &module, &symbols, opts);
    Analysis {
        kernels,
        diagnostics,
    }
}

/// [`analyze_module`] for callers that already ran semantic analysis: labels
/// are resolved through the symbols' scopes instead of rebuilding them.
pub fn analyze_module_with_symbols(
    file: &SourceFile,
    module: &Module<'_>,
    symbols: &crate::sema::ModuleSymbols<'_>,
    opts: &Options,
) -> Vec<KernelAnalysis> {
    analyze_functions(file, module, Some(symbols), opts)
}

/// Demangles a C++ name with `cpp_demangle` (the name itself when it is not mangled).
pub fn demangle(name: &str) -> String {
    cpp_demangle::Symbol::new(name)
        .ok()
        .and_then(|s| s.demangle(&cpp_demangle::DemangleOptions::default()).ok())
        .unwrap_or_else(|| name.to_string())
}

/// Analyses every kernel (`.entry` with a body) of a parsed module.
pub fn analyze_module(
    file: &SourceFile,
    module: &Module<'_>,
    opts: &Options,
) -> Vec<KernelAnalysis> {
    analyze_functions(file, module, None, opts)
}

fn analyze_functions(
    file: &SourceFile,
    module: &Module<'_>,
    symbols: Option<&crate::sema::ModuleSymbols<'_>>,
    opts: &Options,
) -> Vec<KernelAnalysis> {
    let globals = module_globals(module);
    let files: HashMap<u32, &str> = module.files().map(|f| (f.index, f.name.text)).collect();
    let ids: Vec<_> = module
        .function_ids()
        .filter(|&id| {
            let f = module.function(id);
            f.kind == FunctionKind::Entry && f.body.is_some()
        })
        .collect();
    // Kernels are independent: analyse them in parallel (order is kept).
    use rayon::prelude::*;
    ids.par_iter()
        .filter_map(|&id| {
            let func = module.function(id);
            let body = func.body.as_ref()?;
            let name = func.name.text;
            let demangled = demangle(name);
            if let Some(g) = &opts.kernel_filter {
                if !launch::kernel_matches(g, name, &demangled) {
                    return None;
                }
            }
            let built;
            let scopes = match symbols {
                Some(s) => s.function(id).scopes(),
                None => {
                    built = crate::sema::Scopes::build(body);
                    &built
                }
            };
            Some(analyze_kernel(
                file, func, body, name, demangled, &globals, &files, scopes, opts,
            ))
        })
        .collect()
}

/// Module-level variables: name, space, alignment.
fn module_globals<'src>(module: &Module<'src>) -> Vec<(&'src str, Space, u32)> {
    module
        .globals()
        .flat_map(|v| {
            let space = match v.space {
                crate::syntax::ast::StateSpace::Global => Space::Global,
                crate::syntax::ast::StateSpace::Shared => Space::Shared,
                crate::syntax::ast::StateSpace::Const => Space::Const,
                crate::syntax::ast::StateSpace::Local => Space::Local,
                _ => Space::Generic,
            };
            let elem =
                v.ty.and_then(|t| transfer::Ty::parse(t.text))
                    .map(|t| t.bits / 8)
                    .unwrap_or(1);
            let align = v.align.unwrap_or(elem.max(1) * v.vector.max(1));
            v.declarators
                .iter()
                .map(move |d| (d.name.text, space, align))
        })
        .collect()
}

struct StaticAccess {
    wavefronts: Option<f64>,
    pattern: Pattern,
    stride: Option<i64>,
    lane_pattern: String,
    cost: CostRange,
    ideal: f64,
    active: f64,
    caveats: Vec<String>,
}

fn sym_name(s: Sym, params: &[&str]) -> String {
    match s {
        Sym::Param(i) => params
            .get(i as usize)
            .map(|p| p.to_string())
            .unwrap_or_else(|| format!("param{i}")),
        other => other.to_string(),
    }
}

fn describe_poly(p: &domain::Poly, params: &[&str]) -> String {
    let mut s = p.to_string();
    for (i, name) in params.iter().enumerate().rev() {
        s = s.replace(&format!("param{i}"), name);
    }
    s
}

fn static_access(
    fact: &dataflow::AccessFact,
    facts: &domain::SymFacts,
    bytes: u32,
    params: &[&str],
    want_wavefronts: bool,
) -> Option<StaticAccess> {
    let mask = fact.mask;
    if mask == 0 {
        return None;
    }
    let active = mask.count_ones();
    let ideal = ideal_sectors(active, bytes) as f64;
    let mut caveats = Vec::new();
    let unresolved = |pattern: Pattern, why: &str| {
        let r = random_cost(active, bytes);
        StaticAccess {
            wavefronts: None,
            pattern,
            stride: None,
            lane_pattern: why.to_string(),
            cost: r,
            ideal,
            active: active as f64,
            caveats: vec![],
        }
    };
    match &fact.addr {
        Value::Poly(p) => {
            let (u, d) = p.split();
            match d.exact() {
                Some(dl) => {
                    let cong = facts.poly_cong(&u);
                    let first = mask.trailing_zeros() as usize;
                    let residues = aligned_residues(cong, dl[first.min(31)], bytes);
                    let cost = cost_over_residues(&residues, &dl, mask, bytes);
                    if residues.len() > 1 && !cost.is_exact() {
                        caveats.push(format!(
                            "the warp's base address is known only modulo {} (mod 128): figures are the mean over {} possible alignments (sectors {}..{}, lines {}..{})",
                            128 / residues.len(),
                            residues.len(),
                            cost.sectors_min,
                            cost.sectors_max,
                            cost.lines_min,
                            cost.lines_max
                        ));
                    }
                    let (pattern, stride) =
                        cost::classify(&dl, mask, bytes, cost.sectors_min, ideal);
                    let wf = if !want_wavefronts {
                        0.0
                    } else {
                        residues
                            .iter()
                            .map(|&r| {
                                let a: domain::Lanes =
                                    std::array::from_fn(|l| dl[l].wrapping_add(r));
                                cost::shared_wavefronts(&a, mask, bytes) as f64
                            })
                            .sum::<f64>()
                            / residues.len().max(1) as f64
                    };
                    Some(StaticAccess {
                        wavefronts: want_wavefronts.then_some(wf),
                        pattern,
                        stride,
                        lane_pattern: describe_poly(p, params),
                        cost,
                        ideal,
                        active: active as f64,
                        caveats,
                    })
                }
                None => {
                    // A symbolic stride: lane-varying coefficients on unknown symbols.
                    let syms: Vec<String> = d
                        .terms()
                        .iter()
                        .flat_map(|(m, _)| m.syms().iter().map(|s| sym_name(*s, params)))
                        .collect();
                    let per = element_sectors(bytes) as f64;
                    let cost = CostRange {
                        lines: active as f64,
                        sectors: active as f64 * per,
                        sectors_min: per,
                        sectors_max: active as f64 * per,
                        lines_min: 1.0,
                        lines_max: active as f64 * per,
                    };
                    caveats.push(format!(
                        "the stride between lanes depends on {}: give its value (--param) for exact figures; the expected value assumes a stride of at least one sector",
                        syms.join(", ")
                    ));
                    Some(StaticAccess {
                        wavefronts: None,
                        pattern: Pattern::Strided,
                        stride: None,
                        lane_pattern: describe_poly(p, params),
                        cost,
                        ideal,
                        active: active as f64,
                        caveats,
                    })
                }
            }
        }
        Value::Range(r) if r.bounded() => {
            let cong = facts.poly_cong(&r.base);
            let residues = aligned_residues(cong, r.lo, bytes);
            let cost =
                cost::ranged_random_cost(&residues, r.lo, r.hi, r.cong.m, r.cong.r, active, bytes);
            let mut text = r.to_string();
            for (i, name) in params.iter().enumerate().rev() {
                text = text.replace(&format!("param{i}"), name);
            }
            Some(StaticAccess {
                wavefronts: None,
                pattern: if r.data {
                    Pattern::Random
                } else {
                    Pattern::Unknown
                },
                stride: None,
                lane_pattern: format!("each lane within {text}"),
                cost,
                ideal,
                active: active as f64,
                caveats: vec![format!(
                    "the address {} within a known range ({} to {} sectors per request): the expected figures assume the lanes are drawn independently and uniformly from it",
                    if r.data { "depends on loaded data" } else { "differs across lanes in an unknown way" },
                    cost.sectors_min,
                    cost.sectors_max
                )],
            })
        }
        Value::Varying { data: true } | Value::Range(_) if fact.addr.is_data() => {
            let mut s = unresolved(
                Pattern::Random,
                "data-dependent (address computed from loaded values)",
            );
            s.caveats.push(
                "the address depends on loaded data: sectors are bounded by one element (all lanes alike) and one element per lane (the expected value for random addresses over a large array)"
                    .to_string(),
            );
            Some(s)
        }
        _ => {
            let mut s = unresolved(Pattern::Unknown, "not resolved");
            s.caveats.push(
                "the analysis could not resolve the lane addresses: figures are bounds".to_string(),
            );
            Some(s)
        }
    }
}

/// The residues (mod 128) of a uniform base with congruence `cong` that
/// leave the address `base + first` aligned to the access size (PTX requires
/// every lane's address to be), or all the congruence allows when none does.
fn aligned_residues(cong: Cong, first: i64, bytes: u32) -> Vec<i64> {
    let mut residues = cong.residues(128);
    let align = (bytes as i64).clamp(1, 128);
    if align & (align - 1) == 0 {
        let ok: Vec<i64> = residues
            .iter()
            .copied()
            .filter(|u| (u + first).rem_euclid(align) == 0)
            .collect();
        if !ok.is_empty() {
            residues = ok;
        }
    }
    residues
}

/// What the static analysis proved about each memory instruction's lane
/// addresses, for the simulated requests whose addresses the simulation does
/// not know (a base loaded from a uniform address, a data-dependent index
/// within bounds): the same shape in every warp class, or nothing.
fn lane_shapes(
    low: &lower::Lowered<'_>,
    results: &[dataflow::ClassResult],
) -> HashMap<u32, totals::LaneShape> {
    let mut out = HashMap::new();
    for (i, op) in low.ops.iter().enumerate() {
        let lower::OpKind::Mem { info, .. } = &op.kind else {
            continue;
        };
        let bytes = info.bits.div_ceil(8).max(1);
        let facts: Vec<(&dataflow::AccessFact, &domain::SymFacts)> = results
            .iter()
            .filter_map(|r| r.accesses.get(&(i as u32)).map(|f| (f, &r.facts)))
            .collect();
        let Some(&(f0, _)) = facts.first() else {
            continue;
        };
        let mut residues: Vec<i64> = Vec::new();
        let shape = match &f0.addr {
            Value::Poly(p) => {
                let Some(d) = p.split().1.exact() else {
                    continue;
                };
                let mut same = true;
                for (f, sf) in &facts {
                    let Some(q) = f.addr.as_poly() else {
                        same = false;
                        break;
                    };
                    let (u, dq) = q.split();
                    if dq.exact() != Some(d) {
                        same = false;
                        break;
                    }
                    let first = f.mask.trailing_zeros().min(31) as usize;
                    residues.extend(aligned_residues(sf.poly_cong(&u), d[first], bytes));
                }
                if !same {
                    continue;
                }
                residues.sort_unstable();
                residues.dedup();
                totals::LaneShape::Exact {
                    residues,
                    d: Box::new(d),
                }
            }
            Value::Range(r) if r.bounded() => {
                for (f, sf) in &facts {
                    match &f.addr {
                        Value::Range(q)
                            if q.lo == r.lo
                                && q.hi == r.hi
                                && q.cong == r.cong
                                && q.data == r.data =>
                        {
                            residues.extend(aligned_residues(sf.poly_cong(&q.base), q.lo, bytes));
                        }
                        _ => {
                            residues.clear();
                            break;
                        }
                    }
                }
                if residues.is_empty() {
                    continue;
                }
                residues.sort_unstable();
                residues.dedup();
                totals::LaneShape::Ranged {
                    by_active: (0..=domain::WARP as u32)
                        .map(|n| {
                            cost::ranged_random_cost(
                                &residues, r.lo, r.hi, r.cong.m, r.cong.r, n, bytes,
                            )
                        })
                        .collect(),
                    data: r.data,
                }
            }
            _ => continue,
        };
        out.insert(i as u32, shape);
    }
    out
}

struct Prepared<'a, 'src> {
    launch: launch::Launch,
    low: lower::Lowered<'src>,
    params: Vec<&'a str>,
    classes: Vec<launch::WarpClass>,
    results: Vec<dataflow::ClassResult>,
}

/// Launch facts, lowering, CFG and the dataflow of every warp class.
#[allow(clippy::too_many_arguments)]
fn prepare<'a, 'src>(
    func: &'a crate::syntax::ast::Function<'src>,
    body: &'a crate::syntax::ast::Body<'src>,
    name: &str,
    demangled: &str,
    globals: &[(&'src str, Space, u32)],
    scopes: &crate::sema::Scopes<'src>,
    opts: &Options,
    probe: Option<(u32, u32)>,
) -> Prepared<'a, 'src> {
    let launch = launch::resolve(func, name, demangled, opts);
    let mut low = lower::lower(func, body, globals, scopes);
    let cfg = Cfg::build(func);
    let params: Vec<&str> = func
        .params
        .iter()
        .map(|p| p.declarators.first().map(|d| d.name.text).unwrap_or(""))
        .collect();
    let mut inputs = dataflow::Inputs {
        params: launch.params.clone(),
        pointer_params: low.pointer_params.clone(),
        pointer_align: opts.pointer_align,
        ntid: if launch.block_assumed {
            [None, Some(1), Some(1)]
        } else {
            launch.block.map(|d| Some(d as i64))
        },
        nctaid: match launch.grid {
            Some(g) => g.map(|d| Some(d as i64)),
            None => [None; 3],
        },
        ntid_cong: [Cong::modulo(32, 0), Cong::exact(1), Cong::exact(1)],
    };
    let classes = launch::warp_classes(launch.block, launch.block_assumed);
    let mut results: Vec<dataflow::ClassResult> = classes
        .iter()
        .map(|c| dataflow::analyze_class_with_probe(&low, &cfg, &inputs, c, probe))
        .collect();
    // A 64-bit parameter that is the base of an address is a pointer even
    // without `cvta.to.global` (hand-written PTX): mark it and run again, so
    // that its alignment is known.
    let mut found = false;
    for r in &results {
        for f in r.accesses.values() {
            let Some(p) = f.addr.as_poly() else { continue };
            for s in p.base_symbols() {
                let Sym::Param(k) = s else { continue };
                let k = k as usize;
                let wide = func
                    .params
                    .get(k)
                    .and_then(|d| d.ty)
                    .is_some_and(|t| matches!(t.text, "u64" | "b64" | "s64"));
                if wide && !low.pointer_params.get(k).copied().unwrap_or(true) {
                    low.pointer_params[k] = true;
                    found = true;
                }
            }
        }
    }
    if found {
        inputs.pointer_params = low.pointer_params.clone();
        results = classes
            .iter()
            .map(|c| dataflow::analyze_class_with_probe(&low, &cfg, &inputs, c, probe))
            .collect();
    }

    Prepared {
        launch,
        low,
        params,
        classes,
        results,
    }
}

#[allow(clippy::too_many_arguments)]
fn analyze_kernel(
    file: &SourceFile,
    func: &crate::syntax::ast::Function<'_>,
    body: &crate::syntax::ast::Body<'_>,
    name: &str,
    demangled: String,
    globals: &[(&str, Space, u32)],
    files: &HashMap<u32, &str>,
    scopes: &crate::sema::Scopes<'_>,
    opts: &Options,
) -> KernelAnalysis {
    let Prepared {
        launch,
        low,
        params,
        classes,
        results,
        ..
    } = prepare(func, body, name, &demangled, globals, scopes, opts, None);

    // .loc of every statement
    let mut loc_of: Vec<Option<SourceLocation>> = Vec::with_capacity(body.statements.len());
    let mut cur: Option<SourceLocation> = None;
    for st in &body.statements {
        if let StmtKind::Loc(l) = &st.kind {
            let name = |f: u32| {
                files
                    .get(&f)
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| format!("#{f}"))
            };
            cur = Some(SourceLocation {
                file: name(l.file),
                line: l.line,
                column: l.column,
                inlined_at: l.inlined_at.map(|(f, line, column)| {
                    Box::new(SourceLocation {
                        file: name(f),
                        line,
                        column,
                        inlined_at: None,
                    })
                }),
            });
        }
        loc_of.push(cur.clone());
    }

    // Resolve spaces.
    let mut spaces: HashMap<u32, Space> = HashMap::new();
    let mut space_notes: HashMap<u32, String> = HashMap::new();
    for (i, op) in low.ops.iter().enumerate() {
        let lower::OpKind::Mem { info, .. } = &op.kind else {
            continue;
        };
        let mut space = info.space;
        if space == Space::Generic {
            let addr = results
                .iter()
                .find_map(|r| r.accesses.get(&(i as u32)))
                .map(|f| &f.addr);
            if let Some(p) = addr.and_then(|a| a.as_poly()) {
                for s in p.base_symbols() {
                    match s {
                        Sym::Param(k)
                            if low.pointer_params.get(k as usize).copied().unwrap_or(false) =>
                        {
                            space = Space::Global;
                            space_notes.insert(
                                i as u32,
                                format!(
                                    "generic address derived from the kernel pointer parameter {}: global",
                                    params.get(k as usize).unwrap_or(&"?")
                                ),
                            );
                        }
                        Sym::Var(v) => {
                            if let Some((_, sp, _)) = low.vars.get(v as usize) {
                                space = *sp;
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        spaces.insert(i as u32, space);
    }

    // Simulation.
    let mut sim: Option<totals::SimResult> = None;
    let mut totals_unavailable = None;
    match (launch.grid, launch.block_assumed) {
        (Some(grid), false) => {
            let si = totals::SimInputs {
                block: launch.block,
                grid,
                params: launch.params.clone(),
                pointer_params: low.pointer_params.clone(),
                budget: totals::DEFAULT_BUDGET,
            };
            let shapes = lane_shapes(&low, &results);
            match totals::simulate(&low, &si, &spaces, &shapes) {
                Ok(r) => sim = Some(r),
                Err(e) => {
                    let mut why = match e.stmt.and_then(|i| body.statements.get(i as usize)) {
                        Some(st) => {
                            let lc = file.line_col(st.span.start);
                            format!("{} (PTX line {})", e.message, lc.line)
                        }
                        None => e.message.clone(),
                    };
                    // Name the scalar parameters that were not given.
                    let missing: Vec<String> = launch
                        .params
                        .iter()
                        .enumerate()
                        .filter(|(k, v)| {
                            v.is_none() && !low.pointer_params.get(*k).copied().unwrap_or(false)
                        })
                        .map(|(k, _)| {
                            format!("{} (--param {k}=…)", params.get(k).copied().unwrap_or("?"))
                        })
                        .collect();
                    if e.message.contains("not known") && !missing.is_empty() {
                        why.push_str(&format!(
                            "; scalar parameters not given: {}",
                            missing.join(", ")
                        ));
                    }
                    totals_unavailable = Some(why);
                }
            }
        }
        (None, _) => {
            totals_unavailable = Some("no grid given (--grid or a per-kernel entry)".to_string())
        }
        (_, true) => {
            totals_unavailable =
                Some("no block shape given (--block or a per-kernel entry)".to_string())
        }
    }

    let mut accesses = Vec::new();
    for (i, op) in low.ops.iter().enumerate() {
        let lower::OpKind::Mem { info, .. } = &op.kind else {
            continue;
        };
        let stmt = &body.statements[i];
        let StmtKind::Instruction(ins) = &stmt.kind else {
            continue;
        };
        let bytes = info.bits.div_ceil(8).max(1);
        let space = spaces.get(&(i as u32)).copied().unwrap_or(info.space);
        // Static per class, weighted by warps.
        let mut wsum = 0.0;
        let mut acc = CostRange {
            sectors_min: f64::MAX,
            lines_min: f64::MAX,
            ..Default::default()
        };
        let (mut ideal, mut active) = (0.0, 0.0);
        let mut wf: Option<f64> = Some(0.0);
        let mut best: Option<(u32, StaticAccess)> = None;
        let mut caveats: Vec<String> = Vec::new();
        for (c, r) in classes.iter().zip(&results) {
            let Some(f) = r.accesses.get(&(i as u32)) else {
                continue;
            };
            let Some(sa) = static_access(f, &r.facts, bytes, &params, space == Space::Shared)
            else {
                continue;
            };
            let w = c.weight as f64;
            wsum += w;
            acc.lines += w * sa.cost.lines;
            acc.sectors += w * sa.cost.sectors;
            acc.sectors_min = acc.sectors_min.min(sa.cost.sectors_min);
            acc.sectors_max = acc.sectors_max.max(sa.cost.sectors_max);
            acc.lines_min = acc.lines_min.min(sa.cost.lines_min);
            acc.lines_max = acc.lines_max.max(sa.cost.lines_max);
            ideal += w * sa.ideal;
            active += w * sa.active;
            wf = match (wf, sa.wavefronts) {
                (Some(a), Some(b)) => Some(a + w * b),
                _ => None,
            };
            if r.gave_up {
                caveats.push(format!(
                    "the fixpoint was cut after {} rounds",
                    dataflow::MAX_ROUNDS
                ));
            }
            if best.as_ref().map(|(bw, _)| c.weight > *bw).unwrap_or(true) {
                best = Some((c.weight, sa));
            }
        }
        let (mut pattern, mut stride, lane_pattern) = match &best {
            Some((_, sa)) => {
                caveats.extend(sa.caveats.iter().cloned());
                (sa.pattern, sa.stride, sa.lane_pattern.clone())
            }
            None => (Pattern::Unknown, None, "never executed".to_string()),
        };
        let mut per_request = if wsum > 0.0 {
            PerRequest {
                l1_lines: acc.lines / wsum,
                sectors: acc.sectors / wsum,
                ideal_sectors: ideal / wsum,
                sectors_min: acc.sectors_min,
                sectors_max: acc.sectors_max,
                l1_lines_min: acc.lines_min,
                l1_lines_max: acc.lines_max,
                active_lanes: Some(active / wsum),
            }
        } else {
            PerRequest {
                l1_lines: 0.0,
                sectors: 0.0,
                ideal_sectors: 0.0,
                sectors_min: 0.0,
                sectors_max: 0.0,
                l1_lines_min: 0.0,
                l1_lines_max: 0.0,
                active_lanes: None,
            }
        };
        let mut shared_wavefronts = if wsum > 0.0 {
            wf.map(|x| x / wsum)
        } else {
            None
        };
        let mut requests = None;
        if let Some(s) = sim.as_ref() {
            let scale = if s.blocks.0 > 0 {
                s.blocks.1 as f64 / s.blocks.0 as f64
            } else {
                1.0
            };
            match s.stats.get(&(i as u32)) {
                Some(st) if st.requests > 0 => {
                    let n = st.requests as f64;
                    per_request = PerRequest {
                        l1_lines: st.lines / n,
                        sectors: st.sectors / n,
                        ideal_sectors: st.ideal / n,
                        sectors_min: st.sectors_min / n,
                        sectors_max: st.sectors_max / n,
                        l1_lines_min: st.lines_min / n,
                        l1_lines_max: st.lines_max / n,
                        active_lanes: Some(st.lanes as f64 / n),
                    };
                    requests = Some((n * scale).round() as u64);
                    shared_wavefronts = if st.wavefront_requests == st.requests {
                        Some(st.wavefronts / n)
                    } else {
                        None
                    };
                    if let Some((p, _)) = st
                        .patterns
                        .iter()
                        .max_by_key(|(p, c)| (**c, pattern_rank(**p)))
                    {
                        if *p != pattern && pattern != Pattern::Random {
                            pattern = *p;
                        }
                    }
                    // The stride the simulated requests had most often.
                    stride = match pattern {
                        Pattern::Broadcast => Some(0),
                        Pattern::Random | Pattern::Unknown | Pattern::Irregular => None,
                        _ => st
                            .strides
                            .iter()
                            .max_by_key(|(s, c)| (**c, std::cmp::Reverse(s.unsigned_abs())))
                            .map(|(s, _)| *s)
                            .or(stride),
                    };
                    // The static analysis' reservations do not apply to
                    // figures measured on the simulated launch.
                    if !matches!(pattern, Pattern::Random | Pattern::Unknown) {
                        caveats.retain(|c| {
                            !c.starts_with("the warp's base address is known only modulo")
                                && !c.starts_with("the analysis could not resolve")
                                && !c.starts_with("the stride between lanes depends on")
                        });
                    }
                }
                _ => requests = Some(0),
            }
        }
        if let Some(n) = space_notes.get(&(i as u32)) {
            caveats.push(n.clone());
        }
        if opts.arch == Arch::Sm60 && space == Space::Global && info.op == AccessOp::Load {
            caveats.push(
                "Pascal (sm_60/61): global loads are cached in L2 only and served in 32-byte transactions; the sector figures apply, the L1 line figure does not"
                    .to_string(),
            );
        }
        if matches!(space, Space::Shared | Space::Local) {
            caveats.push(format!(
                "{} memory: lines and sectors describe the bytes touched, not L1/L2 traffic",
                if space == Space::Shared {
                    "shared"
                } else {
                    "local"
                }
            ));
        }
        caveats.sort();
        caveats.dedup();
        accesses.push(Access {
            span: stmt.span,
            ptx: file.line_col(stmt.span.start),
            source: loc_of.get(i).cloned().flatten(),
            instruction: ins.mnemonic.text.to_string(),
            op: info.op,
            space,
            bits: info.bits,
            pattern,
            stride_bytes: stride,
            lane_pattern,
            per_request,
            requests,
            shared_wavefronts: if space == Space::Shared {
                shared_wavefronts
            } else {
                None
            },
            caveats,
        });
    }

    let totals = sim.as_ref().map(|s| {
        let scale = if s.blocks.0 > 0 {
            s.blocks.1 as f64 / s.blocks.0 as f64
        } else {
            1.0
        };
        let mut t = Totals {
            load_requests: 0,
            load_sectors: 0,
            store_requests: 0,
            store_sectors: 0,
            atomic_requests: 0,
            atomic_sectors: 0,
            bytes_requested: 0,
            bytes_moved: 0,
            sectors_min: 0,
            sectors_max: 0,
            blocks_simulated: s.blocks.0,
            blocks_total: s.blocks.1,
        };
        let (mut smin, mut smax) = (0.0, 0.0);
        let mut keys: Vec<&u32> = s.stats.keys().collect();
        keys.sort();
        for k in keys {
            let st = &s.stats[k];
            if spaces.get(k) != Some(&Space::Global) {
                continue;
            }
            let Some(op) = totals::op_of(&low, *k) else {
                continue;
            };
            let req = (st.requests as f64 * scale).round() as u64;
            let sec = (st.kernel_sectors * scale).round() as u64;
            match op {
                AccessOp::Load => {
                    t.load_requests += req;
                    t.load_sectors += sec;
                }
                AccessOp::Store => {
                    t.store_requests += req;
                    t.store_sectors += sec;
                }
                AccessOp::Atomic => {
                    t.atomic_requests += req;
                    t.atomic_sectors += sec;
                }
            }
            let bits = match &low.ops[*k as usize].kind {
                lower::OpKind::Mem { info, .. } => info.bits,
                _ => 0,
            };
            t.bytes_requested += (st.lanes as f64 * scale).round() as u64 * bits.div_ceil(8) as u64;
            smin += st.sectors_min * scale;
            smax += st.sectors_max * scale;
        }
        t.bytes_moved = (t.load_sectors + t.store_sectors + t.atomic_sectors) * 32;
        t.sectors_min = smin.round() as u64;
        t.sectors_max = smax.round() as u64;
        t
    });
    if let Some(s) = sim.as_ref() {
        if s.blocks.0 < s.blocks.1 {
            totals_unavailable = None;
        }
    }
    let mut caveats = launch.caveats.clone();
    if let Some(s) = sim.as_ref() {
        if s.blocks.0 < s.blocks.1 {
            caveats.push(format!(
                "totals scaled from {} of {} blocks (simulation budget)",
                s.blocks.0, s.blocks.1
            ));
        }
    }
    KernelAnalysis {
        name: name.to_string(),
        demangled,
        block: launch.block,
        block_assumed: launch.block_assumed,
        grid: launch.grid,
        accesses,
        totals,
        totals_unavailable,
        caveats,
        span: func.name.span,
    }
}

fn pattern_rank(p: Pattern) -> u8 {
    match p {
        Pattern::Random => 6,
        Pattern::Unknown => 5,
        Pattern::Irregular => 4,
        Pattern::Strided => 3,
        Pattern::Misaligned => 2,
        Pattern::Broadcast => 1,
        Pattern::Coalesced => 0,
    }
}

/// What the analysis knows about one register at one point of a kernel (for
/// editor hovers): see [`explain_register`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegisterFacts {
    /// `uniform`, `exact per lane`, `symbolic stride`, `data-dependent`,
    /// `unknown`, `predicate`, or `undefined` (no definition reaches).
    pub kind: &'static str,
    /// The value: lane `lane` (0..31), uniform symbols (`ctaid.x`,
    /// `tid0.x` = the warp's first thread index, parameters by PTX name,
    /// `uN` = an opaque uniform value).
    pub value: String,
    /// Per-lane values when the whole value is a known constant per lane.
    pub lanes: Option<Vec<i64>>,
    /// Lanes that may execute the statement (bit l = lane l), for the first
    /// warp class of the block.
    pub active: u32,
}

use serde::Serialize;

/// What the analysis knows about register `reg` just before statement `stmt`
/// of kernel `kernel` (the launch facts of `opts` apply). `None` when the
/// function is not a kernel with a body, or `reg` is not one of its registers.
pub fn explain_register(
    module: &Module<'_>,
    kernel: crate::syntax::ast::FunctionId,
    stmt: crate::syntax::ast::StmtId,
    reg: &str,
    opts: &Options,
) -> Option<RegisterFacts> {
    let func = module.functions.get(kernel.index())?;
    if func.kind != FunctionKind::Entry {
        return None;
    }
    let body = func.body.as_ref()?;
    let globals = module_globals(module);
    let scopes = crate::sema::Scopes::build(body);
    let name = func.name.text;
    let demangled = demangle(name);
    // find the register's index with a cheap lowering first
    let low = lower::lower(func, body, &globals, &scopes);
    let r = low.regs.iter().position(|n| *n == reg)? as u32;
    let p = prepare(
        func,
        body,
        name,
        &demangled,
        &globals,
        &scopes,
        opts,
        Some((stmt.0, r)),
    );
    let (v, mask) = p.results.first()?.probe.clone()?;
    let describe = |poly: &domain::Poly| describe_poly(poly, &p.params);
    Some(match &v {
        Value::Undef => RegisterFacts {
            kind: "undefined",
            value: "no definition reaches".into(),
            lanes: None,
            active: mask,
        },
        Value::Poly(poly) => {
            let exact = poly.exact();
            let kind = if poly.is_uniform() {
                "uniform"
            } else if exact.is_some() || poly.split().1.exact().is_some() {
                "exact per lane"
            } else {
                "symbolic stride"
            };
            RegisterFacts {
                kind,
                value: describe(poly),
                lanes: exact.map(|l| l.to_vec()),
                active: mask,
            }
        }
        Value::Varying { data: true } => RegisterFacts {
            kind: "data-dependent",
            value: "depends on loaded data".into(),
            lanes: None,
            active: mask,
        },
        Value::Range(r) => RegisterFacts {
            kind: if r.data {
                "data-dependent, bounded"
            } else {
                "bounded"
            },
            value: {
                let mut s = r.to_string();
                for (i, name) in p.params.iter().enumerate().rev() {
                    s = s.replace(&format!("param{i}"), name);
                }
                format!("differs across lanes within {s}")
            },
            lanes: None,
            active: mask,
        },
        Value::Varying { data: false } => RegisterFacts {
            kind: "unknown",
            value: "varies across lanes in a way the analysis cannot express".into(),
            lanes: None,
            active: mask,
        },
        Value::Pred(pv) => RegisterFacts {
            kind: "predicate",
            value: match pv {
                domain::PredVal::Lanes(b) => format!("true in lanes {b:#010x}"),
                domain::PredVal::Partial { maybe, sure, .. } => {
                    format!("true in lanes {sure:#010x}, false outside {maybe:#010x}, unknown in between")
                }
                domain::PredVal::Unknown { uniform: true, .. } => {
                    "unknown, the same in every lane".into()
                }
                domain::PredVal::Unknown { data: true, .. } => "depends on loaded data".into(),
                domain::PredVal::Unknown { .. } => "unknown, may differ across lanes".into(),
            },
            lanes: None,
            active: mask,
        },
    })
}
