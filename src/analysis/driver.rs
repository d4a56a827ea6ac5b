//! The analysis of one kernel, from its IR to a [`KernelAnalysis`].
//!
//! 1. [`launch::resolve`] gives the launch facts (block shape, grid,
//!    parameters) and [`launch::warp_classes`] the warp classes;
//! 2. the CFG and the SSA form are built from the IR, and the dataflow
//!    runs once per warp class ([`prepare`]) on the registers of the SSA
//!    address slice (every register when a hover probe asks for one; the
//!    runs on one slice share its [`dataflow::Layout`]); a 64-bit parameter
//!    found to be the base of an address is marked as a pointer and the
//!    dataflow runs again, so that its alignment is known; when a class leaves an address unresolved in a
//!    small known block, the first and the middle warp are analysed on
//!    their own (their exact base thread indices in place of the class's
//!    symbolic one); the accesses one of them says more about
//!    ([`improves`]) are then analysed for every other warp on its own,
//!    computing only the slice of the accesses the classes left
//!    unresolved, in the blocks from which one is reachable (with those
//!    blocks' branch guards: [`dataflow::Focus`]), and those that both
//!    leave as the classes did (a run-time divisor, loaded bits: not the
//!    symbolic base) keep the classes' figures. The values are those of the whole slice
//!    up to the opaque symbols' numbers, so the warps whose values name the
//!    figures' text ([`figures::ClassFigures::named_by`]) run on the whole
//!    slice: the first warp (the one that names it whenever it issues the
//!    access) at once, any other one again;
//! 3. generic accesses get the space their address provably has
//!    ([`resolve_spaces`]): a pointer parameter's symbol in the address, or,
//!    when the launch gave the parameter's value, a chain of `mov`, `cvt`,
//!    `add`, `sub`, `mad` (and phis) back to its `ld.param`, to a 64-bit
//!    `ld.param` of a by-value struct's field, or to a `.local` load from a
//!    depot that only such values were stored to ([`generic_base_param`]);
//! 4. when the grid and block are known, the launch is simulated (`totals`);
//! 5. every memory op gets its figures (`figures`), from the simulation when
//!    it ran, and the kernel its totals (`launch_totals`).

use super::domain::{Cong, Sym, Value};
use super::figures::{apply_simulation, combine_classes};
use super::model::*;
use super::origin::{
    depot_fields, from_mapa, generic_base_param, Depots, ORIGIN_FIELD, ORIGIN_LOCAL,
};
use super::{caveat, dataflow, figures, launch, launch_totals, memops, merge, totals};
use crate::cfg::Cfg;
use crate::ir::ssa::Ssa;
use crate::ir::{Function, OpKind, Reg};
use crate::source::{SourceFile, Span};
use std::collections::HashMap;

/// The most warps a block may have for its warps to be analysed one by one
/// when a shared class leaves addresses unresolved (the cost grows with it).
const PER_WARP_LIMIT: usize = 32;

/// Launch facts, CFG and the dataflow of every warp class.
pub(crate) struct Prepared<'a> {
    pub launch: launch::Launch,
    pub pointer_params: Vec<bool>,
    pub params: Vec<&'a str>,
    pub classes: Vec<launch::WarpClass>,
    pub results: Vec<dataflow::ClassResult>,
    /// One class per warp and its results, when a class left an address
    /// unresolved in a small known block: those accesses' figures.
    pub by_warp: Option<(Vec<launch::WarpClass>, Vec<dataflow::ClassResult>)>,
    /// The memory ops that take `by_warp`'s figures: those the classes
    /// left unresolved and the first warp resolved.
    pub per_warp_ops: Vec<bool>,
    /// The kernel's CFG (of `ir`; the SSA forms built after the dataflow,
    /// for the spaces and the unknown causes, are built on it).
    pub cfg: Cfg,
}

/// Runs the dataflow of every warp class; `probe` asks for a register's value
/// before an op (for [`super::explain_register`]).
pub(crate) fn prepare<'a>(
    ir: &'a Function<'_>,
    opts: &Options,
    probe: Option<(u32, Reg)>,
) -> Prepared<'a> {
    prepare_in(ir, opts, probe, false)
}

/// [`prepare`], or with `ptxas_view` the kernel as ptxas compiles it where
/// nothing gives the block shape: `%tid.y`, `%tid.z`, `%ntid.y`, `%ntid.z`
/// unknown instead of the assumed 1-D block's 0 and 1
/// ([`launch::ptxas_view_class`]), for `merge`'s plan.
fn prepare_in<'a>(
    ir: &'a Function<'_>,
    opts: &Options,
    probe: Option<(u32, Reg)>,
    ptxas_view: bool,
) -> Prepared<'a> {
    let launch = launch::resolve(ir, opts);
    let ptxas_view = ptxas_view && launch.block.is_assumed();
    let cfg = Cfg::build(ir);
    // The sparse analysis: only the registers of the address slice are
    // computed; a hover probe may ask for any register, so it computes all.
    let mut built = None;
    let relevant = match probe {
        Some(_) => None,
        None => {
            let ssa = Ssa::build(ir, &cfg);
            let r = ssa.address_slice(ir).registers(&ssa, ir.regs.len());
            built = Some(ssa);
            Some(r)
        }
    };
    let depot_fields = depot_fields(ir, &cfg, built.as_ref());
    drop(built);
    let params = ir.param_names();
    // The dataflow reads the pointer parameters from the IR: work on a copy
    // when the second round below marks more of them.
    let mut marked;
    let mut low = ir;
    let mut inputs = dataflow::Inputs {
        params: launch.params.clone(),
        fields: launch.fields.clone(),
        pointer_params: ir.pointer_params.clone(),
        pointer_align: opts.pointer_align,
        ntid: if ptxas_view {
            [None; 3]
        } else {
            launch.block.ntid()
        },
        nctaid: match launch.grid {
            Some(g) => g.map(|d| Some(d as i64)),
            None => [None; 3],
        },
        ntid_cong: [Cong::modulo(32, 0), Cong::exact(1), Cong::exact(1)],
        relevant,
        depot_fields,
    };
    let classes = if ptxas_view {
        vec![launch::ptxas_view_class()]
    } else {
        launch::warp_classes(launch.block)
    };
    // every run on the address slice shares one layout of the states
    let layout = dataflow::Layout::new(ir, &cfg, &inputs, probe.is_some());
    let mut results: Vec<dataflow::ClassResult> = classes
        .iter()
        .map(|c| dataflow::analyze_class_in(&layout, low, &cfg, &inputs, c, probe, None))
        .collect();
    // A 64-bit parameter that is the base of an address is a pointer even
    // without `cvta.to.global` (hand-written PTX): mark it and run again, so
    // that its alignment is known.
    let mut pointer_params = ir.pointer_params.clone();
    let mut found = false;
    for r in &results {
        for f in r.accesses.values() {
            let Some(p) = f.addr.as_poly() else { continue };
            for s in p.base_symbols() {
                let Sym::Param(k) = s else { continue };
                let k = k as usize;
                let wide = ir.params.get(k).is_some_and(|p| p.is_wide_integer());
                if wide && !pointer_params.get(k).copied().unwrap_or(true) {
                    pointer_params[k] = true;
                    found = true;
                }
            }
        }
    }
    if found {
        marked = ir.clone();
        marked.pointer_params = pointer_params.clone();
        low = &marked;
        inputs.pointer_params = pointer_params.clone();
        results = classes
            .iter()
            .map(|c| dataflow::analyze_class_in(&layout, low, &cfg, &inputs, c, probe, None))
            .collect();
    }
    // Addresses that depend on which warp of the class runs (a swizzle of
    // `%tid` bits above the lane: `(2*tid & 510) ^ ((tid & 192) >> 2)`) stay
    // unresolved while the class's base thread index is a symbol: analyse
    // each warp of a known block on its own (exact bases) instead.
    let mut unresolved = vec![false; low.ops.len()];
    for r in &results {
        for (&i, f) in &r.accesses {
            if matches!(f.addr, Value::Varying { data: false }) {
                if let Some(u) = unresolved.get_mut(i as usize) {
                    *u = true;
                }
            }
        }
    }
    // Only those accesses take the per-warp figures; the others keep the
    // class's (symbolic) ones. (Not for a hover's probe: it shows the
    // class's symbolic value.) So the per-warp runs compute the slice of
    // those accesses only (with every branch's guard, for the active
    // lanes): their values are the same as with the whole address slice.
    let mut by_warp = None;
    if unresolved.contains(&true) && probe.is_none() {
        let per_warp = launch::warp_classes_per_warp(launch.block, PER_WARP_LIMIT)
            .filter(|p| p.len() > classes.len());
        if let Some(per_warp) = per_warp {
            // The first warp runs on the whole slice at once: it is the
            // one that names the text whenever it issues the access (the
            // first class with the greatest weight names it, and every
            // warp weighs one), so its run on the reduced slice would only
            // be thrown away (see below).
            let first =
                dataflow::analyze_class_in(&layout, low, &cfg, &inputs, &per_warp[0], None, None);
            // An access that the first warp and the middle one, with their
            // exact base thread indices, leave as the classes left it (the
            // address unresolved, the same lanes, no further operand
            // resolved) is most likely not unresolved because of the
            // class's symbolic base but of a run-time divisor or a loaded
            // value's bits, which no warp's base resolves: it keeps the
            // classes' figures (whose bounds hold for every warp), and the
            // other warps run only for the accesses one of the two
            // resolved (on cuDNN's direct convolutions none: BENCHMARKS.md,
            // stop 27). Two warps, because the first is often an edge
            // (`ty == 0` of a halo load: every lane of the first warp
            // loads, two lanes of an inner one).
            let mid = per_warp.len() / 2;
            let middle =
                dataflow::analyze_class_in(&layout, low, &cfg, &inputs, &per_warp[mid], None, None);
            for (i, u) in unresolved.iter_mut().enumerate() {
                if *u
                    && !improves(&results, &first, i as u32)
                    && !improves(&results, &middle, i as u32)
                {
                    *u = false;
                }
            }
            if unresolved.contains(&true) {
                // Only the blocks from which an unresolved access is
                // reachable matter to its facts, and only their branches'
                // guards to its active lanes.
                let focus = dataflow::Focus::on_ops(&cfg, |i| unresolved[i]);
                let ssa = Ssa::build(low, &cfg);
                let slice = ssa.address_slice_where(
                    low,
                    |op| unresolved[op.index()],
                    |op| focus.applies(&cfg, op.0),
                );
                let reduced = dataflow::Inputs {
                    relevant: Some(slice.registers(&ssa, low.regs.len())),
                    ..inputs.clone()
                };
                drop(ssa);
                let reduced_layout = dataflow::Layout::new(low, &cfg, &reduced, false);
                // The middle warp's run on the whole slice is kept too (the
                // values are the same, see below).
                let mut middle = Some(middle);
                let mut r: Vec<_> = vec![first];
                r.extend(per_warp.iter().enumerate().skip(1).map(|(k, c)| {
                    match middle.take_if(|_| k == mid) {
                        Some(m) => m,
                        None => dataflow::analyze_class_in(
                            &reduced_layout,
                            low,
                            &cfg,
                            &reduced,
                            c,
                            None,
                            Some(&focus),
                        ),
                    }
                }));
                // The values are those of the whole address slice up to the
                // opaque symbols' numbers (numbered as met, and the smaller
                // slice meets fewer): the classes whose values name the
                // figures' text run again on the whole slice, so that the
                // text is the same as a run of every warp on it. Which
                // classes name it does not depend on those numbers.
                let named =
                    naming_classes(ir, &unresolved, &results, &per_warp, &r, &pointer_params);
                for k in named.into_iter().filter(|&k| k != 0) {
                    if let (Some(c), Some(slot)) = (per_warp.get(k), r.get_mut(k)) {
                        *slot =
                            dataflow::analyze_class_in(&layout, low, &cfg, &inputs, c, None, None);
                    }
                }
                by_warp = Some((per_warp, r));
            }
        }
    }
    Prepared {
        launch,
        pointer_params,
        params,
        classes,
        results,
        by_warp,
        per_warp_ops: unresolved,
        cfg,
    }
}

/// Whether a warp's run `w` says more about access `op` than the classes'
/// `classes` do: it reaches it with a resolved address, another set of
/// (possibly active or reaching) lanes, or a further operand that the
/// classes left unresolved and it resolved. A warp that does not reach it
/// says nothing of the others: counted as more.
fn improves(classes: &[dataflow::ClassResult], w: &dataflow::ClassResult, op: u32) -> bool {
    let Some(f) = w.accesses.get(&op) else {
        return true;
    };
    let unresolved = |v: &Value| matches!(v, Value::Varying { data: false });
    if !unresolved(&f.addr) {
        return true;
    }
    let facts = || classes.iter().filter_map(|c| c.accesses.get(&op));
    let mask = facts().fold(0, |m, c| m | c.mask);
    let reached = facts().fold(0, |m, c| m | c.reached);
    if f.mask != mask || f.reached != reached {
        return true;
    }
    f.aux
        .iter()
        .enumerate()
        .any(|(k, a)| !unresolved(a) && facts().any(|c| c.aux.get(k).is_some_and(unresolved)))
}

/// The per-warp classes whose results give the text of an unresolved
/// access's figures ([`figures::ClassFigures::named_by`]), ascending; the
/// access's space is found in the classes' `class_results`, as
/// [`analyze_function`] finds it.
fn naming_classes(
    ir: &Function<'_>,
    unresolved: &[bool],
    class_results: &[dataflow::ClassResult],
    per_warp: &[launch::WarpClass],
    results: &[dataflow::ClassResult],
    pointer_params: &[bool],
) -> Vec<usize> {
    let params = ir.param_names();
    let mut named = Vec::new();
    for (i, op) in ir.ops.iter().enumerate() {
        let OpKind::Mem { info, .. } = &op.kind else {
            continue;
        };
        if !unresolved.get(i).copied().unwrap_or(false) {
            continue;
        }
        let (space, _) = space_of(ir, i, info, class_results, pointer_params, &params);
        let off_issues = memops::guard_off_issues(ir, i);
        let figs = combine_classes(
            i as u32, info, space, off_issues, per_warp, results, &params,
        );
        named.extend(figs.named_by.into_iter().flatten());
    }
    named.sort_unstable();
    named.dedup();
    named
}

/// The space of memory op `i`: the declared one, or for a generic access the
/// space its address provably has in `results` (a pointer parameter's:
/// global; a variable's: its space), with a note saying why.
fn space_of(
    ir: &Function<'_>,
    i: usize,
    info: &crate::ir::MemOp,
    results: &[dataflow::ClassResult],
    pointer_params: &[bool],
    params: &[&str],
) -> (Space, Option<Caveat>) {
    let mut space = info.space;
    let mut note = None;
    if space == Space::Generic {
        let addr = results
            .iter()
            .find_map(|r| r.accesses.get(&(i as u32)))
            .map(|f| &f.addr);
        if let Some(poly) = addr.and_then(|a| a.as_poly()) {
            for s in poly.base_symbols() {
                match s {
                    Sym::Param(k) if pointer_params.get(k as usize).copied().unwrap_or(false) => {
                        space = Space::Global;
                        note = Some(Caveat::GenericFromPointerParam {
                            param: params.get(k as usize).unwrap_or(&"?").to_string(),
                        });
                    }
                    Sym::Var(v) => {
                        if let Some(var) = ir.vars.get(v as usize) {
                            space = var.space;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    (space, note)
}

/// The space of every memory op ([`space_of`] under the classes' results),
/// with a note where a generic access's space was found.
pub(crate) fn resolve_spaces(
    ir: &Function<'_>,
    p: &Prepared<'_>,
) -> (HashMap<u32, Space>, HashMap<u32, Caveat>) {
    resolve_spaces_in(ir, p, &mut None)
}

/// [`resolve_spaces`] with the kernel's SSA form in `ssa`, built there on
/// `p.cfg` when first needed (and kept for the caller's later needs).
fn resolve_spaces_in(
    ir: &Function<'_>,
    p: &Prepared<'_>,
    ssa: &mut Option<Ssa>,
) -> (HashMap<u32, Space>, HashMap<u32, Caveat>) {
    let mut spaces: HashMap<u32, Space> = HashMap::new();
    let mut space_notes: HashMap<u32, Caveat> = HashMap::new();
    // Built on the first generic access whose value does not name its base.
    let mut depots: Option<Depots> = None;
    let has_mapa = ir.ops.iter().any(
        |op| matches!(&op.kind, OpKind::Alu { alu, .. } if alu.op == super::transfer::AluOp::Mapa),
    );
    for (i, op) in ir.ops.iter().enumerate() {
        let OpKind::Mem { info, .. } = &op.kind else {
            continue;
        };
        // An address `mapa` computed is in the cluster's shared window,
        // another CTA's shared memory (`Space::SharedCluster`), whatever
        // the `cvta.shared` before `mapa` says.
        if matches!(info.space, Space::Generic | Space::Shared)
            && matches!(
                info.kind,
                crate::ir::MemKind::Plain
                    | crate::ir::MemKind::Atomic
                    | crate::ir::MemKind::Reduction
            )
            && has_mapa
        {
            let ssa = ssa.get_or_insert_with(|| Ssa::build(ir, &p.cfg));
            if from_mapa(ir, ssa, i as u32) {
                spaces.insert(i as u32, Space::SharedCluster);
                continue;
            }
        }
        let (mut space, note) = space_of(ir, i, info, &p.results, &p.pointer_params, &p.params);
        if let Some(n) = note {
            space_notes.insert(i as u32, n);
        }
        if space == Space::Generic {
            // A given parameter value leaves no symbol in the address:
            // follow its definitions instead.
            let ssa = ssa.get_or_insert_with(|| Ssa::build(ir, &p.cfg));
            let depots = depots.get_or_insert_with(|| Depots::build(ir, ssa));
            if let Some((k, how)) = generic_base_param(ir, ssa, depots, &p.pointer_params, i as u32)
            {
                space = Space::Global;
                let name = p.params.get(k).unwrap_or(&"?");
                let param = match (how & ORIGIN_FIELD != 0, how & ORIGIN_LOCAL != 0) {
                    (_, true) => format!(
                        "{name} (a pointer field of the struct passed by value, read back from local memory)"
                    ),
                    (true, false) => {
                        format!("{name} (a pointer field of the struct passed by value)")
                    }
                    _ => name.to_string(),
                };
                space_notes.insert(i as u32, Caveat::GenericFromPointerParam { param });
            }
        }
        spaces.insert(i as u32, space);
    }
    (spaces, space_notes)
}

/// The source location of op `i` with its whole inline chain.
fn source_location(ir: &Function<'_>, i: usize) -> Option<SourceLocation> {
    let chain: Vec<_> = ir.loc_chain(crate::ir::OpId(i as u32)).collect();
    let name = |f: u32| {
        ir.file_name(f)
            .map(|s| s.to_string())
            .unwrap_or_else(|| format!("#{f}"))
    };
    chain.iter().rev().fold(None, |inner, l| {
        Some(SourceLocation {
            file: name(l.file),
            line: l.line,
            column: l.column,
            inlined_at: inner.map(Box::new),
        })
    })
}

/// Whether the kernel reads `%tid.y`, `%tid.z`, `%ntid.y` or `%ntid.z`.
fn reads_block_yz(ir: &Function<'_>) -> bool {
    use crate::ir::{Special, Src};
    let yz = |s: &Src| matches!(s, Src::Special(Special::Tid(1..) | Special::Ntid(1..)));
    ir.ops.iter().any(|o| match &o.kind {
        OpKind::Alu { srcs, .. } | OpKind::Other { srcs, .. } => srcs.iter().any(yz),
        _ => false,
    })
}

/// The accesses ptxas merges, reuses or deletes in `ir` ([`merge::plan`]),
/// from the analysis `p` (whose spaces are `spaces`) or, where that used
/// facts ptxas does not have (a launch's values, an assumed 1-D block in a
/// kernel that reads `%tid.y`, `%tid.z`, `%ntid.y` or `%ntid.z`), from an
/// analysis without them.
fn ptxas_merges(
    ir: &Function<'_>,
    opts: &Options,
    p: &Prepared<'_>,
    spaces: &HashMap<u32, Space>,
) -> merge::Plan {
    let merges = merge::plan(ir, &p.cfg, &p.results, spaces);
    let launch_given = opts.launch != LaunchConfig::default() || !opts.kernels.is_empty();
    let view = reads_block_yz(ir);
    if !merges.is_empty() && (launch_given || (view && p.launch.block.is_assumed())) {
        let bare = Options {
            launch: LaunchConfig::default(),
            kernels: Vec::new(),
            ..opts.clone()
        };
        let q = prepare_in(ir, &bare, None, view);
        let (bare_spaces, _) = resolve_spaces(ir, &q);
        return merge::plan(ir, &q.cfg, &q.results, &bare_spaces);
    }
    merges
}

/// `ir` as ptxas compiles it, the function the launch simulation runs: the
/// accesses ptxas merges into wider ones, issues once or deletes rewritten
/// ([`merge::Plan::rewrite`]; `ir` itself where there are none). Op
/// indices are `ir`'s. For tests that hold the simulation's view of a
/// kernel (its if-conversion) to ptxas's SASS.
pub fn as_compiled<'src>(ir: &Function<'src>, opts: &Options) -> Function<'src> {
    let p = prepare(ir, opts, None);
    let mut ssa: Option<Ssa> = None;
    let (spaces, _) = resolve_spaces_in(ir, &p, &mut ssa);
    let merges = ptxas_merges(ir, opts, &p, &spaces);
    if merges.is_empty() {
        ir.clone()
    } else {
        merges.rewrite(ir)
    }
}

/// Analyses one kernel of the IR. `file` is the source the IR's spans point
/// into (for line numbers in the results).
pub fn analyze_function(file: &SourceFile, ir: &Function<'_>, opts: &Options) -> KernelAnalysis {
    let mut p = prepare(ir, opts, None);
    // The kernel's SSA form, built on the first need (a space to follow
    // back to a parameter, an unknown access's cause) and shared.
    let mut ssa: Option<Ssa> = None;
    let (spaces, space_notes) = resolve_spaces_in(ir, &p, &mut ssa);
    // The adjacent accesses ptxas merges (PTX input): each group is costed
    // as one wide access at its carrier, on the function as ptxas's SASS
    // has it (`merge`); the other members report no request of their own.
    // ptxas sees no launch: where one gives values, the plan is made
    // from the analysis without them (a value can prove an alignment or an
    // equality ptxas cannot).
    // Nor does it assume a 1-D block: where the analysis did (no shape
    // given) and the kernel reads `%tid.y`, `%tid.z`, `%ntid.y` or
    // `%ntid.z`, the plan is made with those unknown.
    let merges = ptxas_merges(ir, opts, &p, &spaces);
    let merged_ir;
    let cost_ir: &Function<'_> = if merges.is_empty() {
        ir
    } else {
        merges.shift_results(&mut p.results);
        merged_ir = merges.rewrite(ir);
        &merged_ir
    };
    let launch = &p.launch;
    let params = &p.params;

    // Simulation.
    let mut sim: Option<totals::SimResult> = None;
    let mut totals_unavailable = None;
    match (launch.grid, launch.block) {
        (Some(grid), block @ launch::BlockShape::Known(_)) => {
            let si = totals::SimInputs {
                block,
                grid,
                params: launch.params.clone(),
                fields: launch.fields.clone(),
                pointer_params: p.pointer_params.clone(),
                budget: totals::DEFAULT_BUDGET,
            };
            let shapes = figures::lane_shapes(cost_ir, &p.results);
            match totals::simulate(cost_ir, &si, &spaces, &shapes) {
                Ok(r) => sim = Some(r),
                Err(e) => {
                    let mut why = match e.stmt.filter(|&i| (i as usize) < ir.spans.len()) {
                        Some(i) => format!(
                            "{} ({}{})",
                            e.message,
                            place(file, ir, i),
                            e.origin
                                .filter(|_| ir.front_end == crate::ir::FrontEnd::Sass)
                                .map(|o| origin_text(file, ir, i, o))
                                .unwrap_or_default()
                        ),
                        None => e.message.clone(),
                    };
                    // Name the scalar parameters that were not given; for a
                    // parameter read at byte offsets (a by-value struct), the
                    // fields read that were not given.
                    let read = param_offsets_read(ir);
                    let missing: Vec<String> = launch
                        .params
                        .iter()
                        .enumerate()
                        .filter(|(k, v)| {
                            v.is_none() && !p.pointer_params.get(*k).copied().unwrap_or(false)
                        })
                        .filter_map(|(k, _)| {
                            let name = params.get(k).copied().unwrap_or("?");
                            let offsets = read.get(&(k as u16));
                            match offsets {
                                Some(o) if o.iter().any(|&x| x != 0) => {
                                    let open: Vec<String> = o
                                        .iter()
                                        .filter(|&&x| {
                                            !launch
                                                .fields
                                                .iter()
                                                .any(|f| (f.0 as usize, f.1) == (k, x))
                                        })
                                        .map(|x| x.to_string())
                                        .collect();
                                    (!open.is_empty()).then(|| {
                                        format!(
                                            "{name} fields at bytes {} (--param {k}+{}=…)",
                                            open.join(", "),
                                            open[0]
                                        )
                                    })
                                }
                                _ => Some(format!("{name} (--param {k}=…)")),
                            }
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
        (_, launch::BlockShape::Assumed1D) => {
            totals_unavailable =
                Some("no block shape given (--block or a per-kernel entry)".to_string())
        }
    }

    // The accesses inside loops the simulation stepped over, with the
    // branch of the outermost such loop (a loop nested in another is
    // inside it): no request count.
    let mut uncounted: HashMap<u32, u32> = HashMap::new();
    for l in sim.iter().flat_map(|s| &s.skipped_loops) {
        for &a in &l.accesses {
            uncounted.entry(a).or_insert(l.branch);
        }
    }
    let facts = instr_facts(ir);
    let mut deps = None;
    // One access per memory op: reserved (an `Access` is large, and growing
    // the vector copies it into fresh pages).
    let mem_ops = ir
        .ops
        .iter()
        .filter(|op| matches!(op.kind, OpKind::Mem { .. }))
        .count();
    let mut accesses = Vec::with_capacity(mem_ops);
    for (i, op) in ir.ops.iter().enumerate() {
        let OpKind::Mem { info, .. } = &op.kind else {
            continue;
        };
        // A group's carrier is costed as the wide access.
        let info = match cost_ir.ops.get(i).map(|o| &o.kind) {
            Some(OpKind::Mem { info, .. }) => info,
            _ => info,
        };
        let span: Span = ir.spans[i];
        let space = spaces.get(&(i as u32)).copied().unwrap_or(info.space);
        // Static per class, weighted by warps.
        let off_issues = memops::guard_off_issues(ir, i);
        let unresolved = p.per_warp_ops.get(i).copied().unwrap_or(false);
        let (classes, results) = match &p.by_warp {
            Some((c, r)) if unresolved => (c, r),
            _ => (&p.classes, &p.results),
        };
        let mut figs = combine_classes(i as u32, info, space, off_issues, classes, results, params);
        let mut requests = None;
        let mut in_loop = None;
        if let (Some(&b), Some(s)) = (uncounted.get(&(i as u32)), sim.as_ref()) {
            // Inside a loop on loaded data: the per-request figures of the
            // trips simulated before its exit was found (a sample), no
            // request count.
            let sampled = match s.loop_stats.get(&(i as u32)) {
                Some(st) if st.requests > 0 => {
                    apply_simulation(&mut figs, st, 1.0);
                    figs.predicated_off = None;
                    figs.empty = None;
                    st.requests
                }
                _ => 0,
            };
            in_loop = Some(Caveat::InLoopOnLoadedData {
                line: ptx_line(file, ir, b),
                sampled,
                listing: ir.front_end == crate::ir::FrontEnd::Sass,
            });
        } else if let Some(s) = sim.as_ref() {
            requests = Some(match s.stats.get(&(i as u32)) {
                Some(st) => apply_simulation(&mut figs, st, launch_totals::scale(s)),
                None => 0,
            });
        }
        let mut caveats = figs.caveats;
        caveats.extend(in_loop);
        if let Some(n) = space_notes.get(&(i as u32)) {
            caveats.push(n.clone());
        }
        if opts.arch == Arch::Sm60 && space == Space::Global && info.op == AccessOp::Load {
            caveats.push(Caveat::PascalGlobalLoad);
        }
        if matches!(space, Space::Shared | Space::Local)
            && !matches!(info.kind, MemKind::BulkCopy | MemKind::TensorOperand)
        {
            caveats.push(Caveat::BytesTouchedNotTraffic { space });
        }
        let extra = memops::describe(info, cost_ir, results, i as u32);
        caveats.extend(extra.caveats);
        caveat::sort_dedup(&mut caveats);
        // Another CTA's shared memory (`SharedCluster`) reports the own
        // CTA's wavefronts its lanes in the own window cost (the simulation).
        let in_shared = matches!(space, Space::Shared | Space::SharedCluster)
            || matches!(info.kind, MemKind::MatrixLoad | MemKind::MatrixStore);
        let shared_side = figs.shared_side.as_ref().map(|s| SharedSide {
            pattern: Some(s.pattern),
            stride_bytes: s.stride,
            lane_pattern: s.lane_pattern.clone(),
            wavefronts: figs.side_wavefronts,
        });
        let shared_side = match (info.kind, shared_side) {
            (MemKind::AsyncCopy, None) => Some(SharedSide {
                lane_pattern: "not resolved".into(),
                ..Default::default()
            }),
            (_, s) => s,
        };
        let unknown_cause = (opts.unknown_causes && figs.pattern == Pattern::Unknown)
            .then(|| {
                let at = (&p.cfg, &mut ssa, &mut deps);
                unknown_cause(ir, at, i, info, &figs.lane_pattern, &caveats)
            })
            .flatten();
        accesses.push(Access {
            sass_offset: None,
            span,
            ptx: file.line_col(span.start),
            source: source_location(ir, i),
            line_frames: ir.line_frames(crate::ir::OpId(i as u32)),
            instruction: ir.mnemonics[i].to_string(),
            op: info.op,
            space,
            bits: info.bits,
            pattern: figs.pattern,
            stride_bytes: figs.stride,
            lane_pattern: figs.lane_pattern,
            per_request: figs.per_request,
            requests,
            shared_wavefronts: if in_shared {
                figs.shared_wavefronts
            } else if info.kind == MemKind::AsyncCopy {
                figs.side_wavefronts
            } else {
                None
            },
            caveats,
            kind: info.kind,
            predicated_off_requests: figs.predicated_off,
            empty_requests: figs.empty,
            shared_side,
            matrix: info.matrix().cloned(),
            bulk: extra.bulk,
            descriptors: extra.descriptors,
            facts: facts.get(&i).cloned().unwrap_or_default(),
            unknown_cause,
        });
    }

    if !merges.is_empty() {
        merged_accesses(file, ir, &merges, &mut accesses);
    }
    let totals = sim
        .as_ref()
        .filter(|s| s.skipped_loops.is_empty())
        .map(|s| {
            let mut t = launch_totals::kernel_totals(cost_ir, s, &spaces);
            let (copies, bytes) = memops::bulk_totals(&accesses);
            t.bulk_copies = copies;
            t.bulk_bytes = bytes;
            t
        });
    let mut caveats = launch.caveats.clone();
    let mut calls: Vec<Caveat> = ir
        .ops
        .iter()
        .filter_map(|op| match &op.kind {
            OpKind::Call { call, .. } => Some(Caveat::CallNotFollowed {
                callee: call.callee.clone(),
                limit: call.limit,
            }),
            _ => None,
        })
        .collect();
    caveat::sort_dedup(&mut calls);
    caveats.extend(calls);
    if let Some(s) = sim.as_ref() {
        if s.splits.times > 0 {
            caveats.push(Caveat::BranchesBothWays {
                times: s.splits.times,
            });
        }
        if !s.skipped_loops.is_empty() {
            let lines: Vec<u32> = s
                .skipped_loops
                .iter()
                .map(|l| ptx_line(file, ir, l.branch))
                .collect();
            let accesses = uncounted.len();
            let line = lines.first().copied().unwrap_or(0);
            let at = s
                .skipped_loops
                .first()
                .map_or_else(|| format!("PTX line {line}"), |l| place(file, ir, l.branch));
            totals_unavailable = Some(format!(
                "a loop exits on loaded data ({at}): the accesses inside it are not counted"
            ));
            caveats.push(Caveat::LoopsOnLoadedData {
                lines,
                accesses,
                listing: ir.front_end == crate::ir::FrontEnd::Sass,
            });
        } else if s.blocks.0 < s.blocks.1 {
            totals_unavailable = None;
            caveats.push(Caveat::TotalsEstimated {
                simulated: s.blocks.0,
                total: s.blocks.1,
            });
        }
    }
    KernelAnalysis {
        name: ir.name.to_string(),
        demangled: ir.demangled.clone(),
        block: launch.block.dims(),
        block_assumed: launch.block.is_assumed(),
        grid: launch.grid,
        accesses,
        totals,
        totals_unavailable,
        caveats,
        expect_tx: memops::expect_tx(ir, file),
        span: ir.name_span,
    }
}

/// Where op `i` is, for a message: its PTX line, or, in a SASS listing,
/// its offset and the listing's line.
fn place(file: &SourceFile, ir: &Function<'_>, i: u32) -> String {
    let line = ptx_line(file, ir, i);
    match ir.sass_offsets.get(i as usize) {
        Some(off) if ir.front_end == crate::ir::FrontEnd::Sass => {
            format!("at {off:#06x}, listing line {line}")
        }
        _ => format!("PTX line {line}"),
    }
}

/// The clause of a stopped simulation's reason that names where the value
/// it could not decide on came from (`totals::UnknownOrigin`), after the
/// place of op `at`: nothing when that is `at` itself. Given for SASS
/// listings (where the lowering is the usual suspect); PTX reasons keep
/// their text.
fn origin_text(file: &SourceFile, ir: &Function<'_>, at: u32, o: totals::UnknownOrigin) -> String {
    if (o.op as usize) >= ir.ops.len() || (o.op == at && !o.unwritten) {
        return String::new();
    }
    let what = ir.mnemonics.get(o.op as usize).copied().unwrap_or("");
    let what = if what.is_empty() {
        String::new()
    } else {
        format!("`{what}` ")
    };
    if o.unwritten {
        format!(
            ", from a register that {what}{} reads before any instruction writes it",
            place(file, ir, o.op)
        )
    } else {
        format!(", the value comes from {what}{}", place(file, ir, o.op))
    }
}

/// The PTX line of op `i`.
fn ptx_line(file: &SourceFile, ir: &Function<'_>, i: u32) -> u32 {
    ir.spans
        .get(i as usize)
        .map_or(0, |s| file.line_col(s.start).line)
}

/// The accesses of `ptxas`'s merged groups (`merge`): the carrier names the
/// others (its figures are already the wide access's); every other member
/// reports no request of its own, its pattern that of the wide access, and
/// names the carrier. A load ptxas reuses reports no request and names the
/// load whose registers it reuses.
fn merged_accesses(
    file: &SourceFile,
    ir: &Function<'_>,
    merges: &merge::Plan,
    accesses: &mut [Access],
) {
    let mem_ops: Vec<u32> = ir
        .ops
        .iter()
        .enumerate()
        .filter(|(_, op)| matches!(op.kind, OpKind::Mem { .. }))
        .map(|(i, _)| i as u32)
        .collect();
    let index = |op: u32| mem_ops.binary_search(&op).ok();
    let line = |op: u32| {
        ir.spans
            .get(op as usize)
            .map(|s| file.line_col(s.start).line)
            .unwrap_or(0)
    };
    for g in &merges.groups {
        let Some(c) = index(g.carrier) else { continue };
        let lines: Vec<u32> = g
            .members
            .iter()
            .filter(|&&m| m != g.carrier)
            .map(|&m| line(m))
            .collect();
        let (pattern, stride) = match accesses.get_mut(c) {
            Some(a) => {
                a.caveats.push(Caveat::MergedAccess {
                    bytes: g.bytes,
                    sass: g.sass,
                    lines,
                });
                caveat::sort_dedup(&mut a.caveats);
                (a.pattern, a.stride_bytes)
            }
            None => continue,
        };
        for &m in g.members.iter().filter(|&&m| m != g.carrier) {
            let Some(a) = index(m).and_then(|k| accesses.get_mut(k)) else {
                continue;
            };
            a.pattern = pattern;
            a.stride_bytes = stride;
            a.lane_pattern = format!("merged into PTX line {}", line(g.carrier));
            a.per_request = PerRequest::default();
            a.requests = a.requests.map(|_| 0);
            a.shared_wavefronts = None;
            a.predicated_off_requests = None;
            a.empty_requests = None;
            a.unknown_cause = None;
            a.caveats = vec![Caveat::MergedInto {
                line: line(g.carrier),
                bytes: g.bytes,
                sass: g.sass,
            }];
        }
    }
    for u in &merges.reused {
        let Some(a) = index(u.op).and_then(|k| accesses.get_mut(k)) else {
            continue;
        };
        a.lane_pattern = format!("reuses the load at PTX line {}", line(u.of));
        a.per_request = PerRequest::default();
        a.requests = a.requests.map(|_| 0);
        a.shared_wavefronts = None;
        a.predicated_off_requests = None;
        a.empty_requests = None;
        a.unknown_cause = None;
        a.caveats = vec![Caveat::ReusedLoad { line: line(u.of) }];
    }
    for &(op, what) in &merges.unused {
        let Some(a) = index(op).and_then(|k| accesses.get_mut(k)) else {
            continue;
        };
        match what {
            merge::LoadUse::Dead => {
                a.lane_pattern = "deleted by ptxas (result unused)".into();
                a.per_request = PerRequest::default();
                a.requests = a.requests.map(|_| 0);
                a.shared_wavefronts = None;
                a.predicated_off_requests = None;
                a.empty_requests = None;
                a.unknown_cause = None;
                a.caveats = vec![Caveat::DeadLoad];
            }
            merge::LoadUse::Narrowed { delta, .. } => {
                let written_bits = match ir.ops.get(op as usize).map(|o| &o.kind) {
                    Some(OpKind::Mem { info, .. }) => info.bits,
                    _ => continue,
                };
                a.caveats.push(Caveat::NarrowedLoad {
                    written_bits,
                    bits: a.bits,
                    delta,
                });
                caveat::sort_dedup(&mut a.caveats);
            }
            merge::LoadUse::Kept => {}
        }
    }
}

/// Why the `unknown` access of memory op `i` is unknown
/// (`coverage::UnknownCause`). The SSA form and its dependence kinds are
/// built into `deps` at the first access that needs them, not kept from
/// [`prepare`]: most kernels have no unknown access, and holding the SSA
/// form through the whole analysis would raise every kernel's peak memory.
fn unknown_cause(
    ir: &Function<'_>,
    (cfg, ssa, deps): (
        &Cfg,
        &mut Option<Ssa>,
        &mut Option<super::coverage::Dependences>,
    ),
    i: usize,
    info: &crate::ir::MemOp,
    lane_pattern: &str,
    caveats: &[Caveat],
) -> Option<super::coverage::UnknownCause> {
    use super::coverage::{Dependences, UnknownCause};
    if info.kind == MemKind::TensorOperand {
        return Some(UnknownCause::TensorOperand);
    }
    if lane_pattern == figures::NEVER_EXECUTED {
        return Some(UnknownCause::NeverExecuted);
    }
    if caveats
        .iter()
        .any(|c| matches!(c, Caveat::AddressInRange { data: false, .. }))
    {
        return Some(UnknownCause::InRange);
    }
    let crate::ir::Src::Reg(r, _) = info.addr else {
        return None;
    };
    let ssa = ssa.get_or_insert_with(|| Ssa::build(ir, cfg));
    let d = deps.get_or_insert_with(|| Dependences::build(ir, cfg, ssa));
    let v = ssa.use_of(crate::ir::OpId(i as u32), r)?;
    Some(d.cause(ir, v))
}

/// The byte offsets each kernel parameter is read at (`ld.param`), by
/// parameter index, in order.
fn param_offsets_read(ir: &Function<'_>) -> HashMap<u16, Vec<i64>> {
    let mut out: HashMap<u16, Vec<i64>> = HashMap::new();
    for op in &ir.ops {
        if let OpKind::LdParam {
            param,
            elem_bytes,
            dsts,
        } = &op.kind
        {
            for k in 0..dsts.len().max(1) {
                let Some((p, off)) = crate::ir::ld_param_element(*param, *elem_bytes, k) else {
                    continue;
                };
                let v = out.entry(p).or_default();
                if let Err(i) = v.binary_search(&off) {
                    v.insert(i, off);
                }
            }
        }
    }
    out
}

/// The operand facts of every memory op, by op index: vector count, element
/// type, address operand, guard, and where it stands (after a guard, in
/// which straight-line stretch between labels).
fn instr_facts(ir: &Function<'_>) -> HashMap<usize, InstrFacts> {
    let mut out = HashMap::new();
    let mut label_region = 0u32;
    let mut seen_guard = false;
    let reg = |r: u32| ir.regs.get(r as usize).map(|n| n.to_string());
    for (i, op) in ir.ops.iter().enumerate() {
        if op.form == crate::ir::Form::Label {
            label_region += 1;
        }
        if let OpKind::Mem { info, .. } = &op.kind {
            let address = match &info.addr {
                crate::ir::Src::Reg(r, o) => reg(*r).map(|n| (n, *o)),
                crate::ir::Src::Var(v, o) => {
                    ir.vars.get(*v as usize).map(|x| (x.name.to_string(), *o))
                }
                _ => None,
            };
            out.insert(
                i,
                InstrFacts {
                    vector: info.vector,
                    element_bits: info.elem_bits,
                    element_type: info.elem_type.map(str::to_string),
                    address,
                    guard: op.guard.and_then(|(r, neg)| reg(r).map(|n| (n, neg))),
                    after_guard: seen_guard,
                    label_region,
                },
            );
        }
        seen_guard |= op.guard.is_some();
    }
    out
}
