//! Per-access figures: from one warp class's address value to a pattern and
//! a per-request cost, and the weighted mean over the block's warp classes.
//!
//! # From an address value to figures
//!
//! An address that is exact per lane up to a uniform part (`Value::Poly`
//! whose lane part is exact) is costed over every residue of the uniform part
//! modulo 128 that its congruence allows, or only those its values give
//! where a term is an opaque symbol of small range (`slot % 16` after `if
//! (slot < 0) return`: `domain::SymFacts::residues_128`), and that keep
//! every lane aligned to the access size, which PTX requires: the figures are the mean over
//! those alignments, and `sectors_min`/`sectors_max` bound them. A lane part
//! with symbolic coefficients (a stride that depends on a parameter) is
//! `strided`: the lanes sharing their symbolic coefficients (a row of a 2-D
//! block whose pitch is a parameter) are costed as an exact address of their
//! own, and the groups are taken to lie a line or more apart
//! (`symbolic_groups_cost`); bounded by the costliest group and one sector
//! per lane. A data-dependent
//! address is `random` (one element per lane expected); anything else is
//! `unknown`, with the same bounds.
//!
//! # Combining warp classes
//!
//! Each class's figures are weighted by its number of warps; bounds are the
//! extremes over classes; the pattern, stride and caveats are those of the
//! heaviest class.
//!
//! # Limits
//!
//! The figures are per request of one warp; how many requests run is the
//! launch simulation's business (`totals`).

use super::caveat::Caveat;
use super::cost::{
    self, cost_over_residues, element_sectors, ideal_sectors, random_cost, CostRange,
};
use super::dataflow;
use super::domain::{self, Cong, Sym, Value};
use super::launch::WarpClass;
use super::model::{Pattern, PerRequest};
use super::totals;
use std::collections::HashMap;

/// The static figures of one access for one warp class.
pub struct StaticAccess {
    /// Shared-memory wavefronts (when asked for and exact).
    pub wavefronts: Option<f64>,
    /// The pattern.
    pub pattern: Pattern,
    /// Bytes between consecutive lanes, when constant.
    pub stride: Option<i64>,
    /// The lane addresses, described.
    pub lane_pattern: String,
    /// Lines and sectors, with bounds.
    pub cost: CostRange,
    /// Ideal sectors.
    pub ideal: f64,
    /// Active lanes.
    pub active: f64,
    /// What was assumed.
    pub caveats: Vec<Caveat>,
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

impl StaticAccess {
    /// A request of `active` lanes that moves nothing.
    pub fn empty(active: u32, why: &str) -> StaticAccess {
        StaticAccess {
            wavefronts: None,
            pattern: Pattern::Broadcast,
            stride: None,
            lane_pattern: why.to_string(),
            cost: CostRange::default(),
            ideal: 0.0,
            active: active as f64,
            caveats: Vec::new(),
        }
    }
}

/// A polynomial with parameters by their PTX names.
pub fn describe_poly(p: &domain::Poly, params: &[&str]) -> String {
    let mut s = p.to_string();
    if !s.contains("param") {
        return s;
    }
    // Last index first (`param1` must not match the start of `param12`);
    // only an index whose name occurs is replaced (a copy otherwise).
    let mut needle = String::new();
    for (i, name) in params.iter().enumerate().rev() {
        use std::fmt::Write as _;
        needle.clear();
        let _ = write!(needle, "param{i}");
        if s.contains(needle.as_str()) {
            s = s.replace(needle.as_str(), name);
        }
    }
    s
}

/// What [`residue_figures`] computes from: exact lane offsets, active lanes,
/// access size, the base's residues modulo 128, whether wavefronts are wanted.
type ResidueKey = (domain::Lanes, u32, u32, Vec<i64>, bool);

/// Entries [`residue_figures`] keeps per thread before it starts over.
const RESIDUE_MEMO_LIMIT: usize = 4096;

thread_local! {
    /// Unrolled code repeats the same lane offsets access after access (and
    /// warp class after warp class): their costs over every alignment are
    /// computed once per thread (bounded: cleared when full).
    static RESIDUE_MEMO: std::cell::RefCell<crate::util::FastMap<ResidueKey, (CostRange, f64)>> =
        std::cell::RefCell::default();
}

/// Lines and sectors of lane offsets `dl` over every base residue, and the
/// mean shared-memory wavefronts when `want_wavefronts` (else 0). A pure
/// function of its arguments, memoised.
fn residue_figures(
    residues: &[i64],
    dl: &domain::Lanes,
    mask: u32,
    bytes: u32,
    want_wavefronts: bool,
) -> (CostRange, f64) {
    let key: ResidueKey = (*dl, mask, bytes, residues.to_vec(), want_wavefronts);
    if let Some(hit) = RESIDUE_MEMO.with(|m| m.borrow().get(&key).copied()) {
        return hit;
    }
    let cost = cost_over_residues(residues, dl, mask, bytes);
    let wf = if !want_wavefronts {
        0.0
    } else {
        residues
            .iter()
            .map(|&r| {
                let a: domain::Lanes = std::array::from_fn(|l| dl[l].wrapping_add(r));
                cost::shared_wavefronts(&a, mask, bytes) as f64
            })
            .sum::<f64>()
            / residues.len().max(1) as f64
    };
    RESIDUE_MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= RESIDUE_MEMO_LIMIT {
            m.clear();
        }
        m.insert(key, (cost, wf));
    });
    (cost, wf)
}

/// The figures of one access for one warp class (`None` when no lane is active).
pub fn static_access(
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
            // The uniform part `u` and lane part `d` of `p.split()`, read off
            // `p` without building them.
            match p.lane_part_exact() {
                Some(dl) => {
                    let first = mask.trailing_zeros() as usize;
                    let residues = uniform_residues(p, facts, dl[first.min(31)], bytes);
                    let (cost, wf) = residue_figures(&residues, &dl, mask, bytes, want_wavefronts);
                    if residues.len() > 1 && !cost.is_exact() {
                        caveats.push(Caveat::BaseAddressModulo {
                            modulus: 128 / residues.len(),
                            alignments: residues.len(),
                            sectors: (cost.sectors_min, cost.sectors_max),
                            lines: (cost.lines_min, cost.lines_max),
                        });
                    }
                    let (pattern, stride) =
                        cost::classify(&dl, mask, bytes, cost.sectors_min, ideal);
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
                    let syms: Vec<String> = p
                        .varying_terms()
                        .flat_map(|(m, _)| m.syms().iter().map(|s| sym_name(*s, params)))
                        .collect();
                    let per = element_sectors(bytes) as f64;
                    let cost = symbolic_groups_cost(p, facts, mask, bytes).unwrap_or(CostRange {
                        lines: active as f64,
                        sectors: active as f64 * per,
                        sectors_min: per,
                        sectors_max: active as f64 * per,
                        lines_min: 1.0,
                        lines_max: active as f64 * per,
                    });
                    caveats.push(Caveat::SymbolicStride { symbols: syms });
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
        Value::Range(r) if r.bounded() || !r.is_plain() => {
            let (residues, classes) = range_residues(r, facts, mask, bytes);
            let cost = if classes.is_independent() {
                cost::RangedSet::with_bits(
                    &residues,
                    (r.lo, r.hi),
                    (r.cong.m, r.cong.r),
                    r.bits,
                    bytes,
                )
                .cost(active)
            } else {
                cost::classed_cost(
                    &residues,
                    (r.lo, r.hi),
                    (r.cong.m, r.cong.r),
                    &classes,
                    mask,
                    bytes,
                )
            };
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
                caveats: vec![Caveat::AddressInRange {
                    data: r.data,
                    sectors: (cost.sectors_min, cost.sectors_max),
                }],
            })
        }
        Value::Varying { data: true } | Value::Range(_) if fact.addr.is_data() => {
            let mut s = unresolved(
                Pattern::Random,
                "data-dependent (address computed from loaded values)",
            );
            s.caveats.push(Caveat::DataDependentAddress);
            Some(s)
        }
        _ => {
            let mut s = unresolved(Pattern::Unknown, "not resolved");
            s.caveats.push(Caveat::UnresolvedAddress);
            Some(s)
        }
    }
}

/// The lane pattern of an access no warp reaches.
pub const NEVER_EXECUTED: &str = "never executed";

/// The figures of one access combined over the block's warp classes.
pub struct ClassFigures {
    /// Per-request figures (means weighted by warps; bounds over classes).
    pub per_request: PerRequest,
    /// Shared-memory wavefronts per request, when every class has them.
    pub shared_wavefronts: Option<f64>,
    /// Pattern of the heaviest class (`unknown` when never executed).
    pub pattern: Pattern,
    /// Its stride.
    pub stride: Option<i64>,
    /// Its lane pattern.
    pub lane_pattern: String,
    /// Its caveats, and the fixpoint's.
    pub caveats: Vec<Caveat>,
    /// `cp.async`: the shared side (destination) of the heaviest class.
    pub shared_side: Option<StaticAccess>,
    /// `cp.async`: wavefronts per request of the shared side, when every
    /// class has them.
    pub side_wavefronts: Option<f64>,
    /// Requests issued with the guard off in every lane, when simulated.
    pub predicated_off: Option<u64>,
    /// Requests in which no lane accesses memory (predicated off, or every
    /// lane of a `cp.async` zero-filling), when simulated.
    pub empty: Option<u64>,
    /// The classes (indices) whose results give the text: the pattern's,
    /// then the shared side's. Only their values' symbol names show.
    pub named_by: [Option<usize>; 2],
}

/// The residues (mod 128) of a uniform base with congruence `cong` that
/// leave the address `base + first` aligned to the access size (PTX requires
/// every lane's address to be), or all the congruence allows when none does.
pub fn aligned_residues(cong: Cong, first: i64, bytes: u32) -> Vec<i64> {
    aligned(cong.residues(128), first, bytes)
}

/// The residues (mod 128) of the uniform part of `p` that leave the
/// address `base + first` aligned ([`aligned_residues`]): those its
/// congruence allows, or only those of its values where an opaque symbol's
/// range bounds it ([`domain::SymFacts::residues_128`]: `block_offset =
/// slot % 16` after `if (slot < 0) return` moves a row of halves by 0 to
/// 30 bytes, not by any even amount).
pub fn uniform_residues(
    p: &domain::Poly,
    facts: &domain::SymFacts,
    first: i64,
    bytes: u32,
) -> Vec<i64> {
    let ranged = p.terms().iter().any(|(m, _)| {
        matches!(m.syms(), [s @ Sym::Opaque(_)] if facts.range(*s).is_some_and(|(_, hi)| hi.is_some()))
    });
    if !ranged {
        return aligned_residues(p.uniform_part_cong(&|s| facts.cong(s)), first, bytes);
    }
    aligned(facts.residues_128(&p.split().0), first, bytes)
}

/// The lanes of `mask` grouped by their symbolic coefficients, for an address
/// whose lane part has symbolic coefficients (`4*(lane%16) +
/// 4*(lane/16)*width`: two rows of a 2-D block, a run-time pitch apart):
/// each group's representative (lowest) lane, its lanes, the address as the
/// group sees it (every symbolic coefficient that of the group) and that
/// address's exact lane part. `None` when every lane of `mask` is a group of
/// its own or a group's lane part is not exact.
pub(crate) fn symbolic_groups(p: &domain::Poly, mask: u32) -> Option<Vec<SymbolicGroup>> {
    let symbolic: Vec<&domain::Lanes> = p
        .varying_terms()
        .filter(|(m, _)| m.degree() != 0)
        .map(|(_, v)| v)
        .collect();
    let mut groups: Vec<(usize, u32)> = Vec::new();
    for l in (0..32).filter(|l| mask & (1u32 << l) != 0) {
        match groups
            .iter_mut()
            .find(|(r, _)| symbolic.iter().all(|v| v[*r] == v[l]))
        {
            Some((_, m)) => *m |= 1u32 << l,
            None => groups.push((l, 1u32 << l)),
        }
    }
    if groups.len() == mask.count_ones() as usize {
        return None;
    }
    groups
        .into_iter()
        .map(|(rep, lanes)| {
            let terms: Vec<(domain::Mono, domain::Coef)> = p
                .terms()
                .iter()
                .map(|(m, c)| {
                    if m.degree() != 0 {
                        (*m, domain::Coef::Same(c.at(rep)))
                    } else {
                        (*m, c.clone())
                    }
                })
                .collect();
            let q = domain::Poly::from_terms(terms);
            q.lane_part_exact().map(|d| (rep, lanes, q, d))
        })
        .collect()
}

/// One group of [`symbolic_groups`]: representative lane, lanes, the
/// address as the group sees it, its exact lane part.
pub(crate) type SymbolicGroup = (usize, u32, domain::Poly, domain::Lanes);

/// Adds the figures of one group of lanes to a sum over groups taken to lie
/// in different lines: means and most add up, the fewest are those of the
/// costliest group (a stride of 0 overlaps them).
pub(crate) fn add_group(total: &mut CostRange, c: &CostRange) {
    total.lines += c.lines;
    total.sectors += c.sectors;
    total.lines_max += c.lines_max;
    total.sectors_max += c.sectors_max;
    total.lines_min = total.lines_min.max(c.lines_min);
    total.sectors_min = total.sectors_min.max(c.sectors_min);
}

/// The figures of an address with a symbolic stride whose lanes fall into
/// groups ([`symbolic_groups`]): each group is an exact lane pattern at a
/// base of its own (the uniform part plus the group's symbolic offset,
/// costed over the residues its congruence allows, as an exact address is),
/// and the groups are taken to lie in different lines and sectors (the
/// run-time stride at least one line, as for a lane per group).
fn symbolic_groups_cost(
    p: &domain::Poly,
    facts: &domain::SymFacts,
    mask: u32,
    bytes: u32,
) -> Option<CostRange> {
    let mut total = CostRange::default();
    for (rep, lanes, q, dl) in symbolic_groups(p, mask)? {
        let residues = uniform_residues(&q, facts, dl[rep], bytes);
        let (c, _) = residue_figures(&residues, &dl, lanes, bytes, false);
        add_group(&mut total, &c);
    }
    Some(total)
}

/// The residues of `residues` that leave `base + first` aligned to the
/// access size, or all of them when none does.
fn aligned(mut residues: Vec<i64>, first: i64, bytes: u32) -> Vec<i64> {
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

/// The residues (mod 128) of a range address's uniform base that the
/// congruence and the access alignment allow (as [`aligned_residues`], the
/// first active lane's offset being its exact part plus the least `x`), and
/// how its lanes share draws.
pub fn range_residues(
    r: &domain::Range,
    facts: &domain::SymFacts,
    mask: u32,
    bytes: u32,
) -> (Vec<i64>, cost::LaneClasses) {
    let first = mask.trailing_zeros().min(31) as usize;
    let x = if r.lo != domain::NO_LO {
        r.lo
    } else {
        r.cong.r
    };
    let e = r.exact.as_ref().map(|e| e[first]).unwrap_or(0);
    let residues = aligned(facts.residues_128(&r.base), x.wrapping_add(e), bytes);
    let classes = cost::LaneClasses {
        exact: r.exact.as_deref().copied(),
        key: r.key,
        bits: r.bits,
    };
    (residues, classes)
}

/// What the static analysis proved about each memory instruction's lane
/// addresses, for the simulated requests whose addresses the simulation does
/// not know (a base loaded from a uniform address, a data-dependent index
/// within bounds): the same shape in every warp class, or nothing.
pub fn lane_shapes(
    low: &crate::ir::Function<'_>,
    results: &[dataflow::ClassResult],
) -> HashMap<u32, totals::LaneShape> {
    let mut out = HashMap::new();
    for (i, op) in low.ops.iter().enumerate() {
        let crate::ir::OpKind::Mem { info, .. } = &op.kind else {
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
            Value::Poly(p) if p.lane_part_exact().is_none() => {
                match grouped_shape(p, &facts, bytes) {
                    Some(s) => s,
                    None => continue,
                }
            }
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
                    residues.extend(aligned(sf.residues_128(&u), d[first], bytes));
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
            Value::Range(r) if r.bounded() || !r.is_plain() => {
                for (f, sf) in &facts {
                    match &f.addr {
                        Value::Range(q)
                            if q.lo == r.lo
                                && q.hi == r.hi
                                && q.cong == r.cong
                                && q.data == r.data
                                && q.exact == r.exact
                                && q.key == r.key
                                && q.bits == r.bits =>
                        {
                            residues.extend(range_residues(q, sf, f.mask, bytes).0);
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
                let classes = cost::LaneClasses {
                    exact: r.exact.as_deref().copied(),
                    key: r.key,
                    bits: r.bits,
                };
                let by_active = if classes.is_independent() {
                    let set = cost::RangedSet::with_bits(
                        &residues,
                        (r.lo, r.hi),
                        (r.cong.m, r.cong.r),
                        r.bits,
                        bytes,
                    );
                    (0..=domain::WARP as u32).map(|n| set.cost(n)).collect()
                } else {
                    // By active mask, in the simulation (`cost::classed_cost`).
                    Vec::new()
                };
                totals::LaneShape::Ranged {
                    by_active,
                    data: r.data,
                    set: Box::new((residues, (r.lo, r.hi), (r.cong.m, r.cong.r), classes)),
                }
            }
            _ => continue,
        };
        out.insert(i as u32, shape);
    }
    out
}

/// The shape of an address with a symbolic stride whose lanes fall into
/// groups ([`symbolic_groups`] over the whole warp): the same symbolic lane
/// part in every warp class, each group's residues the union over the
/// classes. `None` otherwise.
fn grouped_shape(
    p: &domain::Poly,
    facts: &[(&dataflow::AccessFact, &domain::SymFacts)],
    bytes: u32,
) -> Option<totals::LaneShape> {
    let groups = symbolic_groups(p, u32::MAX)?;
    // Each class's groups: the same lanes (its lane part is `p`'s), its
    // own uniform part.
    let mut classes = Vec::with_capacity(facts.len());
    for (f, sf) in facts {
        let fp = f.addr.as_poly()?;
        if !fp.same_lane_part(p) {
            return None;
        }
        classes.push((f.mask, *sf, symbolic_groups(fp, u32::MAX)?));
    }
    let mut out: Vec<(u32, Vec<i64>, Box<domain::Lanes>)> = Vec::with_capacity(groups.len());
    for (g, (_, lanes, _, d)) in groups.iter().enumerate() {
        let mut residues = Vec::new();
        for (mask, sf, class_groups) in &classes {
            let in_class = mask & lanes;
            if in_class == 0 {
                continue;
            }
            let fq = &class_groups.get(g).filter(|x| x.1 == *lanes)?.2;
            let first = in_class.trailing_zeros() as usize;
            residues.extend(aligned(sf.residues_128(&fq.split().0), d[first], bytes));
        }
        residues.sort_unstable();
        residues.dedup();
        if residues.is_empty() {
            continue;
        }
        out.push((*lanes, residues, Box::new(*d)));
    }
    (!out.is_empty()).then_some(totals::LaneShape::Grouped { groups: out })
}

/// Combines the figures of access `op` over the warp classes. A class that
/// reaches the access with its guard off in every lane issues a request that
/// moves nothing: it counts, with no lines, sectors or wavefronts.
#[allow(clippy::too_many_arguments)]
pub fn combine_classes(
    op: u32,
    info: &crate::ir::MemOp,
    space: crate::ir::Space,
    off_issues: bool,
    classes: &[WarpClass],
    results: &[dataflow::ClassResult],
    params: &[&str],
) -> ClassFigures {
    let mut wsum = 0.0;
    let mut acc = CostRange {
        sectors_min: f64::MAX,
        lines_min: f64::MAX,
        ..Default::default()
    };
    let (mut ideal, mut active) = (0.0, 0.0);
    let mut wf: Option<f64> = Some(0.0);
    let mut side_wf: Option<f64> = Some(0.0);
    let mut best: Option<(u32, StaticAccess)> = None;
    let mut best_side: Option<(u32, StaticAccess)> = None;
    let mut named_by = [None; 2];
    let mut caveats: Vec<Caveat> = Vec::new();
    let mut off_weight = 0.0;
    for (k, (c, r)) in classes.iter().zip(results).enumerate() {
        let Some(f) = r.accesses.get(&op) else {
            continue;
        };
        let fig = super::memops::class_figures(info, f, &r.facts, params, space, off_issues);
        let w = c.weight as f64;
        if let Some(sh) = fig.shared {
            side_wf = match (side_wf, sh.wavefronts) {
                (Some(a), Some(b)) => Some(a + w * b),
                _ => None,
            };
            if best_side
                .as_ref()
                .map(|(bw, _)| c.weight > *bw)
                .unwrap_or(true)
            {
                best_side = Some((c.weight, sh));
                named_by[1] = Some(k);
            }
        }
        let Some(sa) = fig.main else {
            if fig.predicated_off {
                // The warps issue the instruction with every lane off.
                wsum += w;
                off_weight += w;
                acc.sectors_min = acc.sectors_min.min(0.0);
                acc.lines_min = acc.lines_min.min(0.0);
            }
            continue;
        };
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
            caveats.push(Caveat::FixpointCut {
                rounds: dataflow::MAX_ROUNDS,
            });
        }
        if best.as_ref().map(|(bw, _)| c.weight > *bw).unwrap_or(true) {
            best = Some((c.weight, sa));
            named_by[0] = Some(k);
        }
    }
    if off_weight > 0.0 {
        caveats.push(Caveat::PredicatedOffWarps {
            warps: if off_weight.fract() == 0.0 {
                format!("{off_weight:.0}")
            } else {
                format!("{off_weight:.2}")
            },
        });
    }
    let (pattern, stride, lane_pattern) = match &best {
        Some((_, sa)) => {
            caveats.extend(sa.caveats.iter().cloned());
            (sa.pattern, sa.stride, sa.lane_pattern.clone())
        }
        None if off_weight > 0.0 => (
            Pattern::Broadcast,
            None,
            "predicated off in every lane".to_string(),
        ),
        None => (Pattern::Unknown, None, NEVER_EXECUTED.to_string()),
    };
    let per_request = if wsum > 0.0 {
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
    let shared_wavefronts = if wsum > 0.0 {
        wf.map(|x| x / wsum)
    } else {
        None
    };
    let side_wavefronts = if wsum > 0.0 && best_side.is_some() {
        side_wf.map(|x| x / wsum)
    } else {
        None
    };
    ClassFigures {
        per_request,
        shared_wavefronts,
        pattern,
        stride,
        lane_pattern,
        caveats,
        shared_side: best_side.map(|(_, s)| s),
        side_wavefronts,
        predicated_off: None,
        empty: None,
        named_by,
    }
}

/// Replaces the static figures of an access by those of the simulated
/// launch (`st`, scaled by `scale` blocks per simulated block); returns the
/// number of requests.
pub fn apply_simulation(figs: &mut ClassFigures, st: &super::totals::SimStats, scale: f64) -> u64 {
    if st.requests == 0 {
        return 0;
    }
    let n = st.requests as f64;
    figs.per_request = PerRequest {
        l1_lines: st.lines / n,
        sectors: st.sectors / n,
        ideal_sectors: st.ideal / n,
        sectors_min: st.sectors_min / n,
        sectors_max: st.sectors_max / n,
        l1_lines_min: st.lines_min / n,
        l1_lines_max: st.lines_max / n,
        active_lanes: Some(st.lanes as f64 / n),
    };
    // Requests of a shared access whose lanes' addresses the simulation
    // does not know (a loop's remainder started at a loaded bound) take the
    // static figure (the class's lane shape over the base's possible
    // alignments), as their lines and sectors take its shape; none when
    // there is none. Not a `cp.async`'s shared side: its wavefronts follow
    // the source addresses too (`cost::async_copy`), which the static side
    // figure does not know when they are loaded data.
    let static_wf = if figs.shared_side.is_some() {
        None
    } else {
        figs.shared_wavefronts
    };
    let wavefronts = if st.wavefront_requests == st.requests {
        Some(st.wavefronts / n)
    } else {
        static_wf.map(|w| (st.wavefronts + (st.requests - st.wavefront_requests) as f64 * w) / n)
    };
    if figs.shared_side.is_some() {
        // cp.async: the simulated wavefronts are those of its shared side.
        figs.side_wavefronts = wavefronts;
    } else {
        figs.shared_wavefronts = wavefronts;
    }
    figs.caveats
        .retain(|c| !matches!(c, Caveat::PredicatedOffWarps { .. }));
    let empty = st.off_requests + st.empty_requests;
    if empty > 0 {
        figs.empty = Some((empty as f64 * scale).round() as u64);
    }
    if st.off_requests > 0 {
        figs.predicated_off = Some((st.off_requests as f64 * scale).round() as u64);
        figs.caveats.push(Caveat::PredicatedOffRequests {
            off: st.off_requests,
            total: st.requests,
        });
    }
    let pattern = figs.pattern;
    if let Some((p, _)) = st
        .patterns
        .iter()
        .max_by_key(|(p, c)| (**c, pattern_rank(**p)))
    {
        if *p != pattern && pattern != Pattern::Random {
            figs.pattern = *p;
        }
    }
    // The stride the simulated requests had most often.
    figs.stride = match figs.pattern {
        Pattern::Broadcast => Some(0),
        Pattern::Random | Pattern::Unknown | Pattern::Irregular => None,
        _ => st
            .strides
            .iter()
            .max_by_key(|(s, c)| (**c, std::cmp::Reverse(s.unsigned_abs())))
            .map(|(s, _)| *s)
            .or(figs.stride),
    };
    // The static analysis' reservations do not apply to figures measured on
    // the simulated launch, except where the simulation took the static lane
    // shape over an unknown alignment (its figures are then bounds too).
    let bounded = st.sectors_min != st.sectors_max || st.lines_min != st.lines_max;
    if !matches!(figs.pattern, Pattern::Random | Pattern::Unknown) {
        figs.caveats.retain(|c| {
            (bounded && matches!(c, Caveat::BaseAddressModulo { .. }))
                || !c.is_about_static_lane_addresses()
        });
    }
    (n * scale).round() as u64
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
