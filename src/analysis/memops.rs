//! Figures of the memory operations beyond per-lane `ld`/`st`/`atom`:
//! `cp.async`, `ldmatrix`/`stmatrix`, bulk and tensor copies, and `wgmma`
//! operands, and of requests whose guard turns every lane off.
//!
//! # Domain
//!
//! The same per-class address facts as plain accesses
//! ([`dataflow::AccessFact`]): the address value, the lanes that possibly
//! reach the instruction and those its guard possibly leaves on, and the
//! values of the instruction's further operands ([`lower::Aux`]).
//!
//! # Rules
//!
//! * **`cp.async`** (LDGSTS) is one request with two sides. The global side
//!   is costed like a load of `cp-size` bytes per lane over the lanes that
//!   read (a lane whose `src-size` is 0 or whose `ignore-src` is true reads
//!   nothing and only zero-fills); the shared side, the destination
//!   addresses, in bank-conflict wavefronts with the rule of
//!   `cost::shared_wavefronts` for `cp-size` bytes per lane.
//! * **`ldmatrix`/`stmatrix`** (LDSM/STSM): only the lanes that supply row
//!   addresses count (`cost::matrix`), 16 bytes each; a matrix's 8 rows move
//!   128 bytes, one wavefront when they fall in distinct banks.
//! * **Bulk and tensor copies** run on the copy engine: Nsight Compute's
//!   per-instruction counters show their executions with no sectors, so a
//!   request costs no lines, sectors or wavefronts here either; their size
//!   is reported as bytes per copy where the PTX determines it, and a
//!   `.multicast::cluster` copy's destinations as the set bits of its
//!   `ctaMask` where that is a constant: each destination CTA's SM receives
//!   the bytes (`ir::BulkFacts::multicast_ctas`; measured,
//!   `tests/hw/blind10`).
//! * **Another CTA's shared memory** (`Space::SharedCluster`: an address
//!   `mapa` computed, read generically or with `.shared::cluster`): the SM
//!   sends it over the cluster's network (SASS `LD.E`), which Nsight Compute
//!   reports with no L1/L2 sectors (`tests/hw/blind7`: `dsmem_pair_shift`,
//!   `dsmem_cluster_gather`): no lines, sectors or ideal sectors here; its
//!   wavefronts are not modelled statically (the CTA a lane reads is not
//!   known here; the simulation's rule is in `totals`).
//! * **`wgmma` operands** are read by the tensor cores through a matrix
//!   descriptor: no lane addresses, no lines or sectors; the descriptor is
//!   decoded (`descriptor`), and a request (one per warp of the warpgroup)
//!   costs a quarter of the operands' bytes / 128 in wavefronts
//!   (`cost::tensor_operand`).
//! * **Shared addresses drawn from a known set** (a table read at a loaded
//!   byte or nibble: `s_kv[q & 0xf]`, `s_lut[sub * 256 + code]`): the
//!   expected wavefronts of the request kind's rule
//!   (`cost::shared_request_wavefronts`) over draws of the warp's addresses
//!   (`cost::ranged_mean`), the figure the launch simulation gives such an
//!   access too (memoised per thread by the set, the lanes, moved by whole
//!   lines, and the rule: the draws are seeded); a plain shared access
//!   with exact lane offsets gets the mean of `cost::shared_wavefronts`
//!   over its base's alignments (`figures`).
//! * **Tensor maps** (`tensormap.replace`: a store of its field's width;
//!   `tensormap.cp_fenceproxy`: an exchange of the 128-byte object into
//!   global memory, `lower::ptx::mem`). A copy moves the object once per
//!   warp ([`MemInfo::warp_copy`]): it is costed at the lowest
//!   possibly-active lane, whose `bits` cover the object (1 line, 4
//!   sectors when it is 128-byte aligned; measured 4 sectors a request,
//!   `tests/hw/blind7` `t7_matmul_tensor_desc`), and the launch totals
//!   count those sectors (not the `RED` rule for lanes on one address:
//!   the lanes exchange distinct words).
//! * **Predicated off**: a warp that reaches an instruction whose guard is
//!   false in every lane still issues it (Nsight counts an executed
//!   instruction): one request with no lanes, no sectors, no wavefronts,
//!   which lowers the per-request averages; except where ptxas branches
//!   around it ([`guard_off_issues`]: a guard ending in `exit`, a lone
//!   scalar global load (the only load of its block, whatever its guard; a
//!   guarded plain store is predicated unless it ends the kernel), a
//!   warp-uniform guard of an instruction other than a plain load or
//!   store, an atomic or reduction in
//!   any state space, `tensormap.*`; probed with the local ptxas:
//!   `tests/hw/ifconv/guarded_ops.txt`, `guarded_loads.txt`). An op under
//!   a predicate false by construction (`mov.pred %p, 0`) is deleted by
//!   ptxas: no warp issues it, and it does not stand between an op and the
//!   kernel's exit ([`never_runs`]).
//! * **Unused results** ([`load_use`]): ptxas deletes a plain load (not
//!   `.volatile`/`.mmio`) whose results nothing with an effect uses, even
//!   through arithmetic (the lowering's `live_results`), and narrows a
//!   vector load to the naturally aligned part of the vector that holds
//!   the used elements (16 bits or more; probed:
//!   `tests/hw/deadload/probes.txt`). `merge::Plan` carries both: a deleted
//!   load reports no request ([`Caveat::DeadLoad`]), a narrowed one is
//!   costed at its new width and offset ([`Caveat::NarrowedLoad`]).
//! * **Loads sunk below the tail exit**: a plain load whose result only the
//!   kernel's final op reads (guarded, or skipped by a branch to the exit:
//!   `@p bra L; st; L: ret`), with only arithmetic, other loads, forward
//!   branches within the stretch and stores to a state space the load
//!   cannot alias between them, follows that op below its `@!P EXIT`
//!   ([`sunk_below_exit`], probed: `tests/hw/ifconv/guarded_ops.txt`,
//!   sm_90 and sm_80 alike); the launch simulation runs it under the op's
//!   guard (a warp with no lane left issues nothing, the others issue it
//!   with the guard's lanes): at the load when the tail is guarded by a
//!   predicate no op between writes ([`sunk_guard`]), else when the warp
//!   reaches the tail, with the lanes that run it ([`sunk_deferred`]).
//! * **The second load of a select**: of two scalar global loads of at
//!   most 32 bits read only by one `selp`, ptxas issues the second (PTX
//!   order) under the predicate that selects it (`@P0 LDG` into the first
//!   one's register: `tests/hw/ifconv/selects.txt`, stop 33;
//!   `tests/hw/blind14` `aten_where_offsetcalc`); the launch simulation
//!   runs it under that guard ([`select_guard`]): its requests carry the
//!   lanes that pick it.
//!
//! # Limits
//!
//! A sunk load keeps its own (unguarded) lanes in the static figures; only
//! the simulation applies the tail's guard: at the load when no op between
//! the load and the tail writes the tail's guard predicate ([`sunk_guard`]);
//! else at the tail when no op between them writes the registers of the
//! load's address ([`sunk_deferred`]); otherwise the load counts every warp
//! that reaches it, an upper bound. `atom.shared.add.f32` and a
//! generic `atom.add.f32` expand to a compare-and-swap loop in the SASS
//! (`tests/hw/ifconv/README.md`), costed here as one request.
//!
//! Two used 32-bit elements of a `.v4` load in different halves are
//! issued by ptxas as two scalar loads; the model keeps the vector load
//! (one request where ptxas issues two). Identical unguarded global loads
//! that ptxas issues once (probes `cse_*`) are not merged here (shared
//! ones are: `merge`'s reuse). A select's second load keeps every lane in
//! the static figures (only the simulation applies [`select_guard`]); a
//! `slct`, or a `selp` whose predicate is written after the load, is not
//! taken (ptxas predicates those too).
//!
//! `src-size` between 1 and `cp-size - 1` is costed as a full `cp-size`
//! read (the sectors of a partial read are the same unless it crosses a
//! sector). A tensor copy's bytes are the tensor map's box, which lives in
//! host memory: they are not derived, and the access says so. A tensor
//! map's own accesses are modelled by their architectural effect: the
//! read-modify-write loads and extra stores ptxas emits for
//! `tensormap.replace` (the fields' places in the opaque object), and the
//! shared-memory read of `tensormap.cp_fenceproxy`, are not.

use super::caveat::Caveat;
use super::dataflow::AccessFact;
use super::domain::{PredVal, SymFacts, Value};
use super::figures::{static_access, StaticAccess};
use super::model::{MatrixFacts, MemKind, Pattern, Space};
use super::transfer::AluOp;
use crate::ir::{Aux, Function as Lowered, MemOp as MemInfo, Src};

/// One warp class's figures of one memory instruction.
pub(super) struct ClassFigures {
    /// The access's own figures (the global side of a `cp.async`), `None`
    /// when no lane executes it.
    pub main: Option<StaticAccess>,
    /// The shared side of a `cp.async`.
    pub shared: Option<StaticAccess>,
    /// The class reaches the instruction although its guard is off in every
    /// lane: a request with nothing to move.
    pub predicated_off: bool,
}

/// Lanes whose operand of role `aux` is known to be `v` (a constant, or a
/// predicate known per lane).
fn lanes_equal(info: &MemInfo, f: &AccessFact, aux: Aux, v: i64) -> u32 {
    let Some(k) = info.aux_operands().iter().position(|(r, _)| *r == aux) else {
        return 0;
    };
    match f.aux.get(k) {
        Some(Value::Poly(p)) => match p.exact() {
            Some(l) => (0..32).fold(0, |m, i| m | (((l[i] == v) as u32) << i)),
            None => 0,
        },
        Some(Value::Pred(PredVal::Lanes(b))) => {
            if v != 0 {
                *b
            } else {
                !*b
            }
        }
        _ => 0,
    }
}

/// Lanes of a `cp.async` that read nothing from global memory (zero-fill).
pub(super) fn zero_fill_lanes(info: &MemInfo, f: &AccessFact) -> u32 {
    lanes_equal(info, f, Aux::SrcSize, 0) | lanes_equal(info, f, Aux::IgnoreSrc, 1)
}

/// The figures of one class.
pub(super) fn class_figures(
    info: &MemInfo,
    f: &AccessFact,
    facts: &SymFacts,
    params: &[&str],
    space: Space,
    off_issues: bool,
) -> ClassFigures {
    let bytes = info.bits.div_ceil(8).max(1);
    // One copy per warp: its lowest possibly-active lane moves it all.
    let one_lane;
    let f = if info.warp_copy() {
        one_lane = AccessFact {
            mask: f.mask & f.mask.wrapping_neg(),
            ..f.clone()
        };
        &one_lane
    } else {
        f
    };
    let mut shared = None;
    let main = match info.kind {
        MemKind::MatrixLoad | MemKind::MatrixStore => {
            let rows = info
                .matrix()
                .map(super::cost::matrix::row_lanes)
                .unwrap_or(u32::MAX);
            let g = AccessFact {
                mask: f.mask & rows,
                ..f.clone()
            };
            // The stride is that between the rows of one matrix (lanes 0-7),
            // the figure a padding or swizzle fix is stated in.
            let first = info
                .matrix()
                .map(|m| {
                    super::cost::matrix::row_lanes(&MatrixFacts {
                        matrices: 1,
                        ..m.clone()
                    })
                })
                .unwrap_or(0xff);
            let row_stride = f
                .addr
                .as_poly()
                .and_then(|p| p.split().1.exact())
                .and_then(|d| match super::cost::shape(&d, f.mask & first) {
                    super::cost::Shape::Affine(s) => Some(s),
                    _ => None,
                });
            static_access(&g, facts, 16, params, true).map(|mut s| {
                s.stride = row_stride.or(s.stride);
                s
            })
        }
        MemKind::AsyncCopy => {
            let g = AccessFact {
                mask: f.mask & !zero_fill_lanes(info, f),
                ..f.clone()
            };
            if let Some(k) = info
                .aux_operands()
                .iter()
                .position(|(r, _)| *r == Aux::SharedDst)
            {
                let d = AccessFact {
                    addr: f.aux.get(k).cloned().unwrap_or_default(),
                    ..f.clone()
                };
                shared = static_access(&d, facts, bytes, params, true);
            }
            // With both sides' lane parts exact, the measured LDGSTS rules
            // (`cost::async_copy`) over the source's possible alignments.
            let dst_value = info
                .aux_operands()
                .iter()
                .position(|(r, _)| *r == Aux::SharedDst)
                .and_then(|k| f.aux.get(k));
            // `LDGSTS.ZFILL` uses every executing lane's source address.
            let zfill = info.zero_fill();
            let form = super::cost::async_copy::CopyForm {
                cached: info.cache.cache_op == Some(crate::ir::CacheOp::Ca),
                zfill,
            };
            let src_lanes = if zfill { f.mask } else { g.mask };
            let ldgsts = match (
                candidates(&f.addr, facts, bytes, src_lanes),
                dst_value.and_then(|v| candidates(v, facts, bytes, f.mask)),
            ) {
                (Some(srcs), Some(dsts)) if g.mask != 0 || zfill => {
                    let dst = dsts[0];
                    let costs: Vec<_> = srcs
                        .iter()
                        .map(|a| {
                            super::cost::async_copy::ldgsts_cost(
                                a, g.mask, &dst, f.mask, bytes, form,
                            )
                        })
                        .collect();
                    Some(costs)
                }
                _ => None,
            };
            if let (Some(costs), Some(sh)) = (&ldgsts, shared.as_mut()) {
                let n = costs.len().max(1) as f64;
                sh.wavefronts = Some(costs.iter().map(|(_, w)| *w as f64).sum::<f64>() / n);
            }
            match static_access(&g, facts, bytes, params, false).map(|mut s| {
                if let Some(costs) = &ldgsts {
                    let n = costs.len().max(1) as f64;
                    let sec = costs.iter().map(|(c, _)| c.sectors as f64);
                    s.cost.sectors = sec.clone().sum::<f64>() / n;
                    s.cost.sectors_min = sec.clone().fold(f64::MAX, f64::min);
                    s.cost.sectors_max = sec.fold(0.0, f64::max);
                }
                s
            }) {
                Some(s) => Some(s),
                // Every executing lane zero-fills: no global traffic.
                None if f.mask != 0 => Some(StaticAccess::empty(
                    f.mask.count_ones(),
                    "zero-fill only (src-size 0 or ignore-src): nothing read",
                )),
                None => None,
            }
        }
        MemKind::BulkCopy | MemKind::TensorOperand => static_access(f, facts, bytes, params, false)
            .map(|mut s| {
                s.cost = Default::default();
                s.ideal = 0.0;
                s.wavefronts = info
                    .operand_bytes()
                    .map(super::cost::tensor_operand::wavefronts_per_request);
                s.caveats.clear();
                if info.kind == MemKind::TensorOperand {
                    s.pattern = Pattern::Unknown;
                    s.stride = None;
                    s.lane_pattern = "read by the tensor cores through a matrix descriptor".into();
                }
                s
            }),
        // Shared atomics: lanes on one word are served one by one (ATOMS,
        // tests/hw/README.md finding 14: one address costs 32 wavefronts)
        // except for an add of 1 (ATOMS.POPC.INC, one lane per word);
        // compare-and-swap and emulated forms twice that
        // (`cost::shared_atomic`). Addresses drawn from a known set
        // (`bins[b & 255]`): the expectation over draws (`candidates`).
        MemKind::Atomic | MemKind::Reduction if space == Space::Shared => {
            let form = super::cost::shared_atomic::shared_atomic_form_of(info);
            static_access(f, facts, bytes, params, true).map(|mut s| {
                s.wavefronts =
                    mean_wavefronts(f, facts, bytes, MeanRule::SharedAtomic(form), |a| {
                        super::cost::shared_atomic::wavefronts(a, f.mask, bytes, form)
                    });
                s
            })
        }
        // Shared loads of 8 and 16 bytes pack lanes that read their
        // partner's address (`cost::shared_load_wavefronts`, measured in
        // tests/hw/ldsprobe: a broadcast `LDS.128` is 2, an `LDS.64` at two
        // addresses in different banks 1).
        MemKind::Plain
            if space == Space::Shared
                && info.op == crate::ir::AccessOp::Load
                && matches!(bytes, 8 | 16) =>
        {
            static_access(f, facts, bytes, params, true).map(|mut s| {
                if let Some(w) = mean_wavefronts(f, facts, bytes, MeanRule::WideSharedLoad, |a| {
                    super::cost::shared_load_wavefronts(a, f.mask, bytes)
                }) {
                    s.wavefronts = Some(w);
                }
                s
            })
        }
        // Another CTA's shared memory through the cluster window: no L1/L2
        // sectors; the own CTA's wavefront rules do not apply (not modelled
        // here: the simulation knows the target CTA, `totals`).
        _ if space == Space::SharedCluster => {
            static_access(f, facts, bytes, params, false).map(|mut s| {
                s.cost = Default::default();
                s.ideal = 0.0;
                s.wavefronts = None;
                s
            })
        }
        // A shared access at addresses drawn from a known set (a table read
        // at a loaded byte or nibble, `s_kv[q & 0xf]`): the expected
        // wavefronts of its kind's rule over draws of the warp's addresses,
        // as the launch simulation gives them (`cost::shared_request_wavefronts`).
        _ if space == Space::Shared => static_access(f, facts, bytes, params, true).map(|mut s| {
            if s.wavefronts.is_none() && matches!(f.addr, Value::Range(_)) {
                let form = super::cost::shared_atomic::shared_atomic_form_of(info);
                s.wavefronts = mean_wavefronts(
                    f,
                    facts,
                    bytes,
                    MeanRule::SharedRequest(info.op, form),
                    |a| super::cost::shared_request_wavefronts(info.op, form, a, f.mask, bytes),
                );
            }
            s
        }),
        _ => static_access(f, facts, bytes, params, false),
    };
    ClassFigures {
        predicated_off: main.is_none() && f.reached != 0 && off_issues,
        main,
        shared,
    }
}

/// What an access carries beside its figures.
pub(super) struct Described {
    pub bulk: Option<super::model::BulkFacts>,
    pub descriptors: Vec<super::model::MatrixDescriptor>,
    pub caveats: Vec<super::caveat::Caveat>,
}

/// The constant value of operand `aux` of statement `stmt`, from the
/// analysis (any class) or the register's single constant definition.
fn aux_const(
    info: &MemInfo,
    low: &Lowered<'_>,
    results: &[super::dataflow::ClassResult],
    stmt: u32,
    aux: Aux,
) -> Option<i64> {
    let k = info.aux_operands().iter().position(|(r, _)| *r == aux)?;
    let from_facts = results.iter().find_map(|r| {
        let f = r.accesses.get(&stmt)?;
        f.aux.get(k)?.as_poly()?.as_const()
    });
    from_facts.or_else(|| match &info.aux_operands()[k].1 {
        Src::Imm(v) => Some(*v),
        Src::Reg(r, o) => low.single_defs.consts.get(r).map(|c| c.wrapping_add(*o)),
        _ => None,
    })
}

/// The CTAs a `.multicast::cluster` copy writes, from its `ctaMask`: one
/// per set bit of its low 16 bits (PTX ISA, `cp.async.bulk`: each bit names
/// the destination CTA of that `%cluster_ctarank`; a cluster has at most 16
/// CTAs). `None` where the mask names no CTA, or a rank the kernel's
/// `.reqnctapercluster` shape does not have (the ISA leaves that undefined:
/// not counted rather than guessed).
pub(crate) fn multicast_ctas(mask: i64, cluster_dim: Option<[u64; 3]>) -> Option<u32> {
    let m = mask as u16;
    if m == 0 {
        return None;
    }
    if let Some(d) = cluster_dim {
        let n: u64 = d.iter().map(|&x| x.max(1)).product();
        if n < 16 && u64::from(m) >> n != 0 {
            return None;
        }
    }
    Some(m.count_ones())
}

/// Bulk facts, decoded descriptors and the caveats of one access.
pub(super) fn describe(
    info: &MemInfo,
    low: &Lowered<'_>,
    results: &[super::dataflow::ClassResult],
    stmt: u32,
) -> Described {
    let mut caveats = Vec::new();
    let mut bulk = info.bulk().cloned();
    if let Some(b) = bulk.as_mut() {
        b.mbarrier = info.aux(Aux::Mbarrier).and_then(|m| src_key(low, m));
        b.residues_16 = residues_16(info, results, stmt);
        if b.multicast {
            b.multicast_ctas = aux_const(info, low, results, stmt, Aux::CtaMask)
                .and_then(|m| multicast_ctas(m, low.launch.cluster_dim));
        }
        if b.tensor_dims.is_none() {
            b.bytes =
                aux_const(info, low, results, stmt, Aux::Size).and_then(|v| u64::try_from(v).ok());
        }
        caveats.push(Caveat::CopyEngine);
        match (b.tensor_dims, b.bytes) {
            (Some(d), _) => caveats.push(Caveat::TensorBoxNotInPtx { dims: d }),
            (None, None) => caveats.push(Caveat::BulkSizeUnknown),
            _ => {}
        }
    }
    if info.kind == MemKind::AsyncCopy {
        let has_size = info
            .aux_operands()
            .iter()
            .any(|(r, _)| matches!(r, Aux::SrcSize | Aux::IgnoreSrc));
        let known = results.iter().all(|r| {
            r.accesses.get(&stmt).is_none_or(|f| {
                info.aux_operands()
                    .iter()
                    .zip(&f.aux)
                    .filter(|((r, _), _)| matches!(r, Aux::SrcSize | Aux::IgnoreSrc))
                    .all(|(_, v)| match v {
                        Value::Poly(p) => p.exact().is_some(),
                        Value::Pred(PredVal::Lanes(_)) => true,
                        _ => false,
                    })
            })
        });
        if has_size && !known {
            caveats.push(Caveat::ZeroFillNotKnown);
        }
    }
    if matches!(info.kind, MemKind::Atomic | MemKind::Reduction)
        && info.space == Space::Shared
        && super::cost::shared_atomic::shared_atomic_form(
            info.atomic_op(),
            info.bits,
            info.elem_float,
        ) == super::cost::shared_atomic::SharedAtomicForm::Emulated
    {
        caveats.push(Caveat::EmulatedSharedAtomic);
    }
    if info.multimem() {
        caveats.push(Caveat::Multimem);
    }
    let mut descriptors = Vec::new();
    for (role, name) in [(Aux::DescA, "a"), (Aux::DescB, "b")] {
        if let Some(src) = info.aux(role) {
            descriptors.push(super::descriptor::decode(low, src, name));
        }
    }
    if info.kind == MemKind::TensorOperand {
        caveats.push(Caveat::TensorOperand);
    }
    Described {
        bulk,
        descriptors,
        caveats,
    }
}

/// Bulk copies issued over the launch (one per executing lane) and their
/// bytes when every copy's size is known.
pub(super) fn bulk_totals(accesses: &[super::model::Access]) -> (u64, Option<u64>) {
    let mut copies = 0u64;
    let mut bytes = Some(0u64);
    for a in accesses {
        let Some(b) = &a.bulk else { continue };
        let lanes = a.per_request.active_lanes.unwrap_or(0.0);
        let n = (a.requests.unwrap_or(0) as f64 * lanes).round() as u64;
        copies += n;
        bytes = match (bytes, b.bytes) {
            (Some(t), Some(k)) => Some(t + n * k),
            _ if n == 0 => bytes,
            _ => None,
        };
    }
    (copies, if copies == 0 { None } else { bytes })
}

/// An address operand as people write it: `%rd5`, `bar+8`.
pub(super) fn src_key(low: &Lowered<'_>, s: &Src) -> Option<String> {
    let (name, off) = match s {
        Src::Reg(r, o) => (low.regs.get(*r as usize)?.to_string(), *o),
        Src::Var(v, o) => (low.vars.get(*v as usize)?.name.to_string(), *o),
        _ => return None,
    };
    Some(match off {
        0 => name,
        o if o > 0 => format!("{name}+{o}"),
        o => format!("{name}{o}"),
    })
}

/// The residues modulo 16 of a bulk copy's address operands, where known.
fn residues_16(
    info: &MemInfo,
    results: &[super::dataflow::ClassResult],
    stmt: u32,
) -> Vec<(String, i64)> {
    let Some(b) = info.bulk() else {
        return Vec::new();
    };
    let first_role =
        if b.destination == "L2" || (b.tensor_dims.is_some() && b.destination == "global") {
            "source"
        } else {
            "destination"
        };
    let mut out = Vec::new();
    for r in results {
        let Some(f) = r.accesses.get(&stmt) else {
            continue;
        };
        if f.mask == 0 {
            continue;
        }
        let lane = f.mask.trailing_zeros() as usize;
        let mut operands = vec![(first_role, &f.addr)];
        if let Some(k) = info
            .aux_operands()
            .iter()
            .position(|(a, _)| *a == Aux::OtherAddr)
        {
            if let Some(v) = f.aux.get(k) {
                operands.push(("source", v));
            }
        }
        for (role, v) in operands {
            let Some(p) = v.as_poly() else { continue };
            let (u, d) = p.split();
            let Some(d) = d.exact() else { continue };
            if let Some(res) = r.facts.poly_cong(&u).residue_mod(16) {
                out.push((role.to_string(), (res + d[lane]).rem_euclid(16)));
            }
        }
        break;
    }
    out
}

/// The kernel's `expect_tx` operations as analysis facts.
pub(super) fn expect_tx(
    low: &Lowered<'_>,
    file: &crate::source::SourceFile,
) -> Vec<super::model::ExpectTx> {
    low.expect_tx
        .iter()
        .filter_map(|t| {
            let span = *low.spans.get(t.op.index())?;
            let bytes = match &t.bytes {
                Src::Imm(v) => Some(*v),
                Src::Reg(r, o) => low.single_defs.consts.get(r).map(|c| c.wrapping_add(*o)),
                _ => None,
            };
            Some(super::model::ExpectTx {
                span,
                ptx: file.line_col(span.start),
                mbarrier: src_key(low, &t.mbarrier),
                bytes: bytes.and_then(|b| u64::try_from(b).ok()),
            })
        })
        .collect()
}

/// The lane addresses a value can take: one vector per alignment of its
/// uniform part that its congruence allows (modulo 128, each lane aligned to
/// `bytes`), when its lane part is exact.
/// The mean of `cost` over the candidate lane addresses of `f` (one per
/// alignment the address may have), when they are exact.
///
/// `rule` names `cost` (which rule, the access's direction and atomic
/// form) for the memo of the expected costs over draws: the same set,
/// lanes and rule give the same mean (the draws are seeded), and unrolled
/// kernels read one table with one shape thousands of times (cuBLAS's
/// `libcublasLt.so.297`: 4,096 draws each took 90% of its time before).
fn mean_wavefronts(
    f: &AccessFact,
    facts: &SymFacts,
    bytes: u32,
    rule: MeanRule,
    cost: impl Fn(&super::domain::Lanes) -> u32,
) -> Option<f64> {
    // Lanes drawn from a known set (`hist[b & 255]`): the expected cost
    // over draws of the warp's addresses.
    if let Value::Range(q) = &f.addr {
        if !q.bounded() && q.is_plain() {
            return None;
        }
        let (residues, classes) = super::figures::range_residues(q, facts, f.mask, bytes);
        // Every rule's count is the same with the exact part moved by whole
        // lines (`LaneClasses::normalized`): one memo entry for a tile read
        // at several offsets.
        let classes = classes.normalized();
        let key = RangedKey {
            rule,
            bytes,
            mask: f.mask,
            bounds: (q.lo, q.hi),
            cong: (q.cong.m, q.cong.r),
            exact: classes.exact,
            key: classes.key,
            bits: classes.bits,
            residues,
        };
        if let Some(m) = RANGED_MEANS.with(|c| c.borrow().get(&key).copied()) {
            return m;
        }
        let m =
            super::cost::ranged_mean(&key.residues, key.bounds, key.cong, &classes, f.mask, cost);
        RANGED_MEANS.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() >= RANGED_MEMO {
                c.clear();
            }
            c.insert(key, m);
        });
        return m;
    }
    let c = candidates(&f.addr, facts, bytes, f.mask)?;
    Some(c.iter().map(|a| cost(a) as f64).sum::<f64>() / c.len().max(1) as f64)
}

/// Which cost rule a [`mean_wavefronts`] call applies (with what the rule
/// reads besides the addresses), for its memo.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum MeanRule {
    /// A shared atomic of this form.
    SharedAtomic(super::cost::shared_atomic::SharedAtomicForm),
    /// A wide (vector) shared load.
    WideSharedLoad,
    /// Any shared request of this direction and atomic form
    /// (`cost::shared_request_wavefronts`).
    SharedRequest(
        crate::ir::AccessOp,
        super::cost::shared_atomic::SharedAtomicForm,
    ),
}

/// Everything [`super::cost::ranged_mean`]'s result depends on.
#[derive(Clone, PartialEq, Eq, Hash)]
struct RangedKey {
    rule: MeanRule,
    bytes: u32,
    mask: u32,
    bounds: (i64, i64),
    cong: (u64, i64),
    exact: Option<super::domain::Lanes>,
    key: u8,
    bits: super::domain::KnownBits,
    residues: Vec<i64>,
}

/// The most memoised means a thread keeps (then the memo starts again).
const RANGED_MEMO: usize = 4096;

thread_local! {
    static RANGED_MEANS: std::cell::RefCell<crate::util::FastMap<RangedKey, Option<f64>>> =
        std::cell::RefCell::new(Default::default());
}

fn candidates(
    v: &Value,
    facts: &SymFacts,
    bytes: u32,
    mask: u32,
) -> Option<Vec<super::domain::Lanes>> {
    let p = v.as_poly()?;
    let (u, d) = p.split();
    let d = d.exact()?;
    let mut residues = facts.poly_cong(&u).residues(128);
    let align = (bytes as i64).clamp(1, 128);
    let first = mask.trailing_zeros().min(31) as usize;
    let ok: Vec<i64> = residues
        .iter()
        .copied()
        .filter(|r| (r + d[first]).rem_euclid(align) == 0)
        .collect();
    if !ok.is_empty() {
        residues = ok;
    }
    if residues.is_empty() {
        return None;
    }
    Some(
        residues
            .iter()
            .map(|r| std::array::from_fn(|l| d[l].wrapping_add(*r)))
            .collect(),
    )
}

/// Whether a warp whose guard is off in every lane still issues op `i`.
/// It does (Nsight counts a request with no lanes), except where ptxas does
/// not keep the guard as a predicate:
///
/// * an op followed, in straight-line code, only by `ret`/`exit` becomes
///   `@!P EXIT` and an unguarded op, so such a warp leaves before it
///   (measured: the masked stores of `tt_layernorm`, `tt_softmax` and
///   `pred_row_v4_*` count only the active warps' requests;
///   `tests/hw/ifconv/guarded_ops.txt`: every `*_tail` probe); a load whose
///   only reader is that op moves below the exit with it
///   ([`sunk_below_exit`]: it is not guarded in the PTX, the simulation
///   gives it the op's guard);
/// * a guarded atomic or reduction (`@%p atom`, `@%p red`, any state
///   space, with or without a used result) is branched around (`BSSY; @P
///   BRA; ATOM; BSYNC`): the `*_mid` probes of
///   `tests/hw/ifconv/guarded_ops.txt` (global `ATOMG`/`REDG`, generic
///   `ATOM`, shared `ATOMS`, Triton's masked `tl.atomic_add`, lane and
///   uniform guards; a guarded `st.global` beside them is `@!P0 STG`);
///   measured: `tests/hw/blind9` `t9_hist2d`'s masked `ATOMG` copies and
///   `tests/hw/blind7` `t7_splitk_atomic` issue nothing in a warp with no
///   lane (`measured_sass_triton.json`);
/// * a guarded PTX load that ptxas branches around: the only load of its
///   block, with one destination register ([`lone_load_branched`]);
///   whether the guard is uniform does not matter for loads (the lane,
///   warp and block guards of `tests/hw/ifconv/guarded_loads.txt` give the
///   same SASS in every shape); `pred_off_warps` (guard `((tid >> 5) & 1)
///   == 0`, 512 requests for 1,024 warps) is such a lone load;
///   a guarded PTX store is predicated unless it ends the kernel, whatever
///   its guard (the `s_*` probes of `guarded_loads.txt`: 32- and 128-bit
///   stores, one or two, before loads, stores, arithmetic or the end,
///   under lane, warp and block guards: `@P STG` in every one);
/// * another guarded op (neither a plain load nor a plain store) under a
///   guard that is warp-uniform by construction ([`uniform_by_construction`])
///   is taken to become a branch on a uniform predicate, which such a warp
///   takes around the op (finding 17's reading of `pred_off_warps`, not
///   probed for those ops).
///
/// * `tensormap.*` (`tensormap.replace`'s read-modify-writes, the copy and
///   proxy fence of `tensormap.cp_fenceproxy`) is a sequence of SASS
///   instructions that ptxas puts in a block it branches around (measured,
///   `tests/hw/blind7/measured_sass_triton.json`, `t7_matmul_tensor_desc`:
///   the `ATOMG.E.EXCH` and `LDS` of `@%p1 tensormap.cp_fenceproxy`, `%p1` =
///   `tid < 32`, 64 requests for 64 programs of 8 warps, where the `@%p1
///   st.shared` beside them is predicated, 512; 60 of the 72 `LDS`/`STS` of
///   `@%p30 tensormap.replace`, `%p30` = `tid == 0`, 64 requests).
///
/// (`tests/hw/README.md` finding 17.)
pub fn guard_off_issues(ir: &Lowered<'_>, i: usize) -> bool {
    let Some(op) = ir.ops.get(i) else {
        return true;
    };
    if deleted(ir, i) {
        return false;
    }
    if let Some((g, _)) = op.guard {
        let tensormap = ir
            .mnemonics
            .get(i)
            .is_some_and(|m| m.starts_with("tensormap."));
        if tensormap {
            return false;
        }
        if ir.front_end == crate::ir::FrontEnd::Ptx {
            // Whatever the guard's uniformity: `lone_load_branched`; a
            // guarded store is predicated unless it ends the kernel.
            match plain_access(op) {
                Some(super::model::AccessOp::Load) => {
                    return !(before_exit(ir, i) || lone_load_branched(ir, i));
                }
                Some(super::model::AccessOp::Store) => return !before_exit(ir, i),
                _ => {}
            }
        }
        if uniform_by_construction(ir, &Src::Reg(g, 0), 0) {
            return false;
        }
        if matches!(&op.kind, crate::ir::OpKind::Mem { info, .. }
            if matches!(info.kind, MemKind::Atomic | MemKind::Reduction))
        {
            return false;
        }
        return !before_exit(ir, i);
    }
    !before_exit(ir, i) && sunk_below_exit(ir, i).is_none()
}

/// Whether the PTX op `op` is guarded by a predicate that is false in
/// every lane by construction (`mov.pred %p, 0; @%p ld …`, or `@!%p` of a
/// predicate set to true: Triton writes them for tiles it knows are
/// masked off). ptxas deletes such an instruction, so no warp issues it
/// (`tests/hw/blind12` `t12_paged_decode_gqa` lines 96 and 115: one
/// `LDG.E.128` and one `STG.E.128` where the PTX has two, and the kept
/// store becomes the kernel's tail). A SASS instruction under `@!PT` is
/// another matter: Nsight counts it as executed with no lane.
pub(crate) fn never_runs(ir: &Lowered<'_>, op: &crate::ir::Op) -> bool {
    if ir.front_end != crate::ir::FrontEnd::Ptx {
        return false;
    }
    let Some((g, negated)) = op.guard else {
        return false;
    };
    // The predicate's one definition: an unguarded `mov.pred` of an
    // immediate (the lowering's `PredLogic` "mov").
    let Some(def) = ir.single_defs.def.get(&g) else {
        return false;
    };
    let Some(d) = ir.ops.get(def.index()) else {
        return false;
    };
    let is_mov = ir
        .mnemonics
        .get(def.index())
        .is_some_and(|m| m.starts_with("mov"));
    match &d.kind {
        crate::ir::OpKind::PredLogic {
            op: "mov", srcs, ..
        } if d.guard.is_none() && is_mov => {
            matches!(srcs.as_slice(), [Src::Imm(v)] if (*v != 0) == negated)
        }
        _ => false,
    }
}

/// What ptxas does with PTX load `i` given which of its results are used
/// ([`crate::ir::MemOp::live_results`]; probed with the local ptxas for
/// sm_90a: `tests/hw/deadload/probes.txt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadUse {
    /// Issued as written.
    Kept,
    /// Deleted: nothing uses any of its results.
    Dead,
    /// A vector load narrowed to its used elements: `vector` elements of
    /// `elem_bits` bits at `delta` bytes from the written address.
    Narrowed {
        /// Bits of one element.
        elem_bits: u32,
        /// Elements.
        vector: u32,
        /// Bytes from the written address to the narrowed access.
        delta: i64,
        /// The elements kept (bit `k`: the written vector's element `k`).
        kept: u8,
    },
}

/// What ptxas does with load `i` of a PTX function (see [`LoadUse`]): a
/// plain load, not `.volatile` or `.mmio`, none of whose results anything
/// with an effect uses, is deleted (an `ld.global`, `.nc`, `.relaxed`,
/// `.acquire`, `ld.shared`, `ld.local`, generic, scalar or vector: probes
/// `dead_*`, `v4_none`; Triton's eight `@%p ld.global.b8` of one address of
/// which it uses one, `tests/hw/blind12` `t12_nf4_dequant` 391: one
/// `LDG.E.U8`, 32,032 requests measured). A vector load of which some
/// elements are used shrinks to the naturally aligned half, quarter… of
/// the vector that holds them all, down to one element of 16 bits or more
/// (`v4_b32_x` → `LDG.E` at its offset, `xy` → `LDG.E.64`, `zw` →
/// `LDG.E.64` at +8; `v4_b16_zw` → `LDG.E` at +4, `v4_b16_y` →
/// `LDG.E.U16` at +2; `v2_b64_y` → `LDG.E.64` at +8); 8-bit elements
/// are not narrowed (`v4_b8_*`: `LDG.E` of the 4 bytes). Not modelled (the
/// load is kept as written): two used 32-bit elements in different halves,
/// which ptxas issues as two scalar loads (`v4_b32_xz`, `xw`, `yz`, `yw`).
pub fn load_use(ir: &Lowered<'_>, i: usize) -> LoadUse {
    use crate::ir::OpKind;
    if ir.front_end != crate::ir::FrontEnd::Ptx {
        return LoadUse::Kept;
    }
    let Some(OpKind::Mem { info, dsts }) = ir.ops.get(i).map(|o| &o.kind) else {
        return LoadUse::Kept;
    };
    let mn = ir.mnemonics.get(i).copied().unwrap_or("");
    if info.op != super::model::AccessOp::Load
        || info.kind != MemKind::Plain
        || info.ext.is_some()
        || dsts.is_empty()
        || dsts.len() > 8
        || !(mn.starts_with("ld.") || mn.starts_with("ldu."))
        || mn.contains(".volatile")
        || mn.contains(".mmio")
    {
        return LoadUse::Kept;
    }
    let all = ((1u16 << dsts.len()) - 1) as u8;
    let used = info.live_results & all;
    if used == 0 {
        return LoadUse::Dead;
    }
    let n = info.vector;
    let e = info.elem_bits;
    if used == all || dsts.len() != n as usize || !matches!(n, 2 | 4) || !matches!(e, 16 | 32 | 64)
    {
        return LoadUse::Kept;
    }
    // The smallest naturally aligned run of elements holding every used one.
    let (lo, hi) = (used.trailing_zeros(), 7 - used.leading_zeros());
    let mut len = 1u32;
    while lo / len != hi / len {
        len *= 2;
    }
    if len >= n {
        return LoadUse::Kept;
    }
    let start = lo / len * len;
    LoadUse::Narrowed {
        elem_bits: e,
        vector: len,
        delta: i64::from(start * e / 8),
        kept: ((((1u16 << len) - 1) << start) & 0xff) as u8,
    }
}

/// Whether ptxas deletes PTX op `i`: under a predicate false by
/// construction ([`never_runs`]) or a load whose results nothing uses
/// ([`load_use`]).
pub(crate) fn deleted(ir: &Lowered<'_>, i: usize) -> bool {
    ir.ops.get(i).is_some_and(|op| never_runs(ir, op)) || load_use(ir, i) == LoadUse::Dead
}

/// A barrier or a memory fence (`bar.*`, `barrier.*`, `membar.*`,
/// `fence.*`): the walks of [`lone_load_branched`] and `before_exit` stop
/// there.
fn synchronises(mnemonic: &str) -> bool {
    ["bar", "membar", "fence"]
        .iter()
        .any(|b| mnemonic.starts_with(b))
}

/// The direction of a plain (not atomic, not copy) access of any state
/// space.
fn plain_access(op: &crate::ir::Op) -> Option<super::model::AccessOp> {
    match &op.kind {
        crate::ir::OpKind::Mem { info, .. } if info.kind == MemKind::Plain => Some(info.op),
        _ => None,
    }
}

/// Whether ptxas branches around the guarded load `i` (`@p ld`) instead of
/// predicating it, so that a warp whose guard is off in every lane does not
/// issue it. Probed with the local ptxas for sm_90a
/// (`tests/hw/ifconv/guarded_loads.txt`: 216 kernels, every pair of lane,
/// warp-uniform (`tid.x >> 5`) and block-uniform (`ctaid.x < n`) guards
/// alike): ptxas branches (`BSSY; @P BRA; LDG`) around a guarded global
/// load with one destination register (8 to 64 bits: `u8` … `u64`) when it
/// is the only load of its block (from the previous label, branch or
/// barrier to the next) and no store stands between it and the first
/// instruction that reads its result; a `.v2` or `.v4` load, a second
/// guarded load, another load of any space before or after it (a shared
/// `LDS` included: `pre_lds`, `post_ld`) or a store issued before the
/// result is used (`ld_then_st_other`) keep it predicated (`@P LDG`), as
/// does a guarded shared load (`shared_only`). Measured: `tests/hw` `pred_off_warps`
/// (a lone `@q ld.global.f32` before `@q st`: 512 requests for 1,024
/// warps), `tests/hw/blind11` `t11_permute_bshd_bhsd` (8 `@p ld.global.v4`
/// under guards that are uniform in each warp: every warp issues each,
/// 2,048 requests). Where no reader lies within the block the load stays
/// predicated (the default).
fn lone_load_branched(ir: &Lowered<'_>, i: usize) -> bool {
    use crate::ir::{Form, OpKind};
    let Some(OpKind::Mem { info, dsts }) = ir.ops.get(i).map(|o| &o.kind) else {
        return false;
    };
    if info.space != Space::Global && info.space != Space::Generic
        || info.vector != 1
        || info.elem_bits > 64
        || dsts.len() != 1
    {
        return false;
    }
    let d = dsts[0];
    let boundary = |j: usize| {
        let o = &ir.ops[j];
        let m = ir.mnemonics.get(j).copied().unwrap_or("");
        o.form == Form::Label
            || matches!(
                o.kind,
                OpKind::Branch { .. } | OpKind::Exit | OpKind::Call { .. }
            )
            || synchronises(m)
            || m.starts_with("mbarrier")
    };
    // No other load earlier in the block (ops ptxas deletes do not count).
    for j in (0..i).rev() {
        if boundary(j) {
            break;
        }
        if deleted(ir, j) {
            continue;
        }
        if let OpKind::Mem { info, .. } = &ir.ops[j].kind {
            if info.op != super::model::AccessOp::Store || info.kind != MemKind::Plain {
                return false;
            }
        }
    }
    // No other load later in the block, and the result is read before any
    // other access.
    let mut read = false;
    for j in i + 1..ir.ops.len() {
        if boundary(j) {
            break;
        }
        let o = &ir.ops[j];
        if deleted(ir, j) {
            continue;
        }
        let mut reads = info.sole_reader.is_some_and(|r| r.index() == j);
        crate::ir::ssa::op_reads(o, |r| reads |= r == d);
        if let OpKind::Mem { info: m, .. } = &o.kind {
            let store = m.op == super::model::AccessOp::Store && m.kind == MemKind::Plain;
            if !store || !(read || reads) {
                return false;
            }
        }
        read |= reads;
    }
    read
}

/// Whether ptxas puts op `i` after the `@!P EXIT` that ends the kernel for
/// the lanes whose guard is off: a guarded op followed only by the exit,
/// an op a branch skips to the exit (`@p bra L; st; L: ret`:
/// `tail_bra_only`), or a load that moves below it ([`sunk_below_exit`]).
pub fn after_tail_exit(ir: &Lowered<'_>, i: usize) -> bool {
    match ir.ops.get(i) {
        Some(op) if op.guard.is_some() => before_exit(ir, i),
        Some(_) => sunk_below_exit(ir, i).is_some() || branched_around(ir, i).is_some(),
        None => false,
    }
}

/// Whether op `i` is followed, in straight-line code, only by an
/// unguarded `ret`/`exit` (arithmetic, which is dead there, and ops ptxas
/// deletes, [`never_runs`], in between; a barrier or a bulk-copy group's
/// commit or wait ends the search: the op stays above them).
///
/// In PTX, what lies between may also be a label that no branch below it
/// names (a line-table label, `$L__tmpN:`, or the join of early returns
/// from above, `%common.ret`) and an unguarded forward `bra` (followed to
/// its target): ptxas gives the op's path an exit of its own, so the op
/// still ends it (`tests/hw/ifconv/exit_joins.ptx`: `@P0 EXIT; STG` after
/// each; `tests/hw/blind15` `t15_bias_dropout_add_rand4x` 194, 46,876
/// requests measured).
fn before_exit(ir: &Lowered<'_>, i: usize) -> bool {
    let ptx = ir.front_end == crate::ir::FrontEnd::Ptx;
    let mut j = i;
    while j + 1 < ir.ops.len() {
        j += 1;
        let op = &ir.ops[j];
        if deleted(ir, j) {
            // Deleted by ptxas: what follows it follows the op.
            continue;
        }
        // A barrier or a bulk-copy group's commit or wait keeps the op
        // above it (`tests/hw/blind12` `t12_copy_blocks_tdesc` 377: the
        // last TMA store before `cp.async.bulk.commit_group; wait_group.read
        // 0; bar.sync 0; ret` stays predicated, issued by every warp).
        let m = ir.mnemonics.get(j).copied().unwrap_or("");
        if synchronises(m)
            || m.starts_with("cp.async.bulk.commit_group")
            || m.starts_with("cp.async.bulk.wait_group")
        {
            return false;
        }
        match (&op.kind, op.form) {
            (_, crate::ir::Form::Label) => {
                if ptx && ir.last_branch_to(j).is_none_or(|b| b < j) {
                    continue;
                }
                return false;
            }
            (
                crate::ir::OpKind::Branch {
                    target: Some(t),
                    indexed,
                    ..
                },
                _,
            ) if ptx && op.guard.is_none() && indexed.is_empty() && t.index() > j => {
                // the target is looked at next
                j = t.index() - 1;
            }
            (crate::ir::OpKind::Nop, _) => continue,
            // Arithmetic after the kernel's last access feeds nothing but
            // deleted ops: dead code that ptxas removes (Triton's
            // `mov.pred %p, 0` before the op it deletes); in a SASS
            // listing, ptxas's code as it is, it stays.
            (
                crate::ir::OpKind::Alu { .. }
                | crate::ir::OpKind::PredLogic { .. }
                | crate::ir::OpKind::LdParam { .. },
                _,
            ) if ir.front_end == crate::ir::FrontEnd::Ptx => continue,
            (crate::ir::OpKind::Exit, _) => return op.guard.is_none(),
            _ => return false,
        }
    }
    false
}

/// The op at the kernel's end below whose `@!P EXIT` ptxas moves the
/// unguarded load `i` (`tests/hw/ifconv/guarded_ops.txt`, the `tail_*`
/// probes): `i` is a plain load whose result registers only that op reads
/// ([`MemInfo::sole_reader`]: not another store, not a conversion, not the
/// guard: `tail_lds_used`, `tail_lds_cvt`, `tail_lds_guard_loaded` keep
/// the load above the exit); the op (the *tail*) is a memory op that is
/// guarded and followed only by the exit, or that a forward branch skips to
/// the exit (`@p bra L; st; L: ret`, NVVM's form: `tail_bra_only`). Between
/// the load and the tail may stand arithmetic (the guard's own computation:
/// `tail_lds_guard_after`, `tail2_bra_guard_after`), other plain loads
/// (`tail_2lds_v2`, `tail2_bra_lds_between`), forward branches and their
/// labels within the stretch (earlier stores that ptxas if-converts), and
/// stores to a state space the load cannot alias: declared, neither the
/// load's nor generic (`tail2_bra_global`, `tail2_guarded_global`,
/// `tail5_cub`: a shared load past global stores); no barrier or fence,
/// atomic, call, exit, store to the load's space or a generic one
/// (`tail_lds_bar`, `tail_lds_sts`, `tail2_bra_sts_first`,
/// `tail2_bra_stgeneric_first`, `tail2_bra_ldg`: global loads past a global
/// store stay above), nor a label that a branch from outside the stretch
/// names. Measured: `tests/hw/blind9` `t9_topk_gating` 132, Triton's last
/// `ld.shared` before its masked `st.global`: 3,751 `LDS` requests, the one
/// warp that stores (`tail_triton`); `tests/hw/blind10`
/// `cub_warp_transpose5` `warp_exchange_smem.cuh:112`, `WarpStore`'s fifth
/// item: its `ld.shared` below four if-converted `st.global` and the exit
/// (6,250 executions, the last warp exits before it).
pub fn sunk_below_exit(ir: &Lowered<'_>, i: usize) -> Option<usize> {
    use crate::ir::{Form, OpKind};
    let sinkable = |j: usize| -> Option<usize> {
        let op = ir.ops.get(j)?;
        let OpKind::Mem { info, .. } = &op.kind else {
            return None;
        };
        if op.guard.is_some()
            || info.kind != MemKind::Plain
            || info.op != super::model::AccessOp::Load
        {
            return None;
        }
        let k = info.sole_reader?.index();
        (k > j).then_some(k)
    };
    let k = sinkable(i)?;
    let tail = ir.ops.get(k)?;
    if !matches!(tail.kind, OpKind::Mem { .. }) {
        return None;
    }
    // The exit the tail ends at, and where a branch around the tail goes.
    let end = if tail.guard.is_some() && before_exit(ir, k) {
        k
    } else if tail.guard.is_none() {
        branched_around(ir, k)?
    } else {
        return None;
    };
    let space = match &ir.ops[i].kind {
        OpKind::Mem { info, .. } => info.space,
        _ => return None,
    };
    let plain = |j: usize| {
        let m = ir.mnemonics.get(j).copied().unwrap_or("");
        ![".volatile", ".acquire", ".release", ".mmio"]
            .iter()
            .any(|q| m.contains(q))
    };
    for j in i + 1..k {
        let o = &ir.ops[j];
        match (&o.kind, o.form) {
            (_, Form::Label) => {}
            (_, Form::Other) => {}
            (
                OpKind::Branch {
                    target, indexed, ..
                },
                _,
            ) => {
                // Forward, within the stretch (the tail's exit included).
                let ok =
                    indexed.is_empty() && target.is_some_and(|t| t.index() > j && t.index() <= end);
                if !ok {
                    return None;
                }
            }
            (OpKind::Nop | OpKind::Exit | OpKind::Call { .. }, _) => return None,
            (OpKind::Mem { info, .. }, _) => {
                if info.kind != MemKind::Plain || !plain(j) || info.ext.is_some() {
                    return None;
                }
                let other_space =
                    info.space != space && info.space != Space::Generic && space != Space::Generic;
                match info.op {
                    super::model::AccessOp::Load => {}
                    super::model::AccessOp::Store if other_space => {}
                    _ => return None,
                }
            }
            _ => {}
        }
    }
    // No path enters the stretch from elsewhere: every branch to a label
    // in it stands in it (a branch to the exit's own label leaves, as an
    // early `if (...) return` does).
    let inside = |t: usize| t > i && t < end;
    for (j, o) in ir.ops.iter().enumerate() {
        if let OpKind::Branch {
            target, indexed, ..
        } = &o.kind
        {
            if target.iter().chain(indexed).any(|t| inside(t.index())) && !(i < j && j < end) {
                return None;
            }
        }
    }
    Some(k)
}

/// The label a forward branch right before the unguarded op `k` skips to,
/// when only the exit follows it (`@p bra L; st; L: ret`): its index.
fn branched_around(ir: &Lowered<'_>, k: usize) -> Option<usize> {
    use crate::ir::{Form, OpKind};
    let before = (0..k).rev().find(|&j| {
        let o = &ir.ops[j];
        !(matches!(o.kind, OpKind::Nop) && o.form != Form::Instruction)
    })?;
    let OpKind::Branch {
        target: Some(t), ..
    } = &ir.ops[before].kind
    else {
        return None;
    };
    let t = t.index();
    if ir.ops[before].guard.is_none() || t <= k {
        return None;
    }
    // Between the tail and the label only labels and directives; after
    // the label only the exit.
    let quiet = (k + 1..t).all(|j| {
        let o = &ir.ops[j];
        matches!(o.kind, OpKind::Nop) && o.form != Form::Instruction
    });
    (quiet && ir.ops[t].form == Form::Label && before_exit(ir, t)).then_some(t)
}

/// The guard under which the launch simulation runs the load `i` that
/// ptxas moves below the tail exit ([`sunk_below_exit`]) at the load: the
/// tail op's, when it is guarded and no op between them writes its
/// predicate (else `None`: the simulation records the load when the warp
/// reaches the tail, [`sunk_deferred`], or, where it cannot, runs it
/// unguarded as written, an upper bound on its requests).
pub(crate) fn sunk_guard(ir: &Lowered<'_>, i: usize) -> Option<(crate::ir::Reg, bool)> {
    let k = sunk_below_exit(ir, i)?;
    let (g, neg) = ir.ops.get(k)?.guard?;
    let written = ir.ops[i + 1..k].iter().any(|o| o.kind.dsts().contains(&g));
    (!written).then_some((g, neg))
}

/// The guard under which ptxas issues the unguarded load `i` when a `selp`
/// picks between it and an earlier load (`tests/hw/ifconv/selects.txt`, the
/// `sel_*` probes, and `tests/hw/blind14` `aten_where_offsetcalc`: `out = c
/// ? va : vb` is `LDG` of one value and `@P0 LDG` of the other into the
/// same register). The rule read off the probes: of two unguarded global
/// loads of one scalar of at most 32 bits (`u8`, `u16`, `f32`; plain,
/// `.nc` or volatile), each read only by the same `selp` (its two data
/// operands), ptxas loads the first in PTX order always and the second
/// under the predicate that selects it, whatever the operand order
/// (`sel_*_xy`, `sel_*_yx`) and the condition (a lane's bit, a parameter, a
/// loaded byte or float). Not when either is 64-bit or a vector
/// (`sel_*_f64`, `sel_*_v2`: both loads unconditional) or the first is
/// read elsewhere too (`sel_*_xused`). The second load's guard is then the
/// select's predicate, negated when the load is the operand picked where
/// it is false: `Some((p, neg))` when no op between the load and the
/// select writes `p` and an op before the load does (a predicate computed
/// after both loads, `sel_*_late`, is predicated by ptxas too, not here).
/// `slct` (also predicated: `sel_*_slct`) selects on a value's sign, not
/// a predicate register: not modelled.
pub fn select_guard(ir: &Lowered<'_>, i: usize) -> Option<(crate::ir::Reg, bool)> {
    use crate::ir::OpKind;
    // A plain global scalar load of at most 32 bits, unguarded, one result
    // register read only by `s`.
    let scalar_load = |k: usize| -> Option<(crate::ir::Reg, crate::ir::OpId)> {
        let op = ir.ops.get(k)?;
        let OpKind::Mem { info, dsts } = &op.kind else {
            return None;
        };
        let ok = op.guard.is_none()
            && info.op == crate::ir::AccessOp::Load
            && info.kind == crate::ir::MemKind::Plain
            && info.space == crate::ir::Space::Global
            && info.vector == 1
            && info.bits <= 32
            && dsts.len() == 1;
        ok.then_some((*dsts.first()?, info.sole_reader?))
    };
    let (y, s) = scalar_load(i)?;
    let s = s.index();
    if s <= i || !ir.mnemonics.get(s).is_some_and(|m| m.starts_with("selp")) {
        return None;
    }
    let OpKind::Alu { srcs, .. } = &ir.ops.get(s)?.kind else {
        return None;
    };
    let [a, b, p] = srcs.as_slice() else {
        return None;
    };
    let (p, pneg) = match p {
        Src::Reg(p, 0) => (*p, false),
        Src::NotPred(p) => (*p, true),
        _ => return None,
    };
    let reg = |x: &Src| match x {
        Src::Reg(r, 0) => Some(*r),
        _ => None,
    };
    let (other, neg) = match (reg(a), reg(b)) {
        (Some(ra), Some(rb)) if ra == y && rb != y => (rb, pneg),
        (Some(ra), Some(rb)) if rb == y && ra != y => (ra, !pneg),
        _ => return None,
    };
    // The other operand: an earlier such load read only by the select.
    let first = (0..i)
        .rev()
        .find(|&k| ir.ops[k].kind.dsts().contains(&other))?;
    let (_, s1) = scalar_load(first)?;
    if s1.index() != s {
        return None;
    }
    let defined_before = ir.ops[..i].iter().any(|o| o.kind.dsts().contains(&p));
    let written_between = ir.ops[i + 1..s].iter().any(|o| o.kind.dsts().contains(&p));
    (defined_before && !written_between).then_some((p, neg))
}

/// The tail op at which the launch simulation records the load `i` that
/// ptxas moves below the tail exit, when [`sunk_guard`] cannot take the
/// tail's guard at the load (a tail branched around, or a guard computed
/// after the load): the lanes that reach the tail (and its guard leaves
/// on) issue it, at the address the load's registers held, which no op
/// between them writes (else `None`).
pub(crate) fn sunk_deferred(ir: &Lowered<'_>, i: usize) -> Option<usize> {
    let k = sunk_below_exit(ir, i)?;
    if sunk_guard(ir, i).is_some() {
        return None;
    }
    let crate::ir::OpKind::Mem { info, .. } = &ir.ops[i].kind else {
        return None;
    };
    let regs: Vec<crate::ir::Reg> = match &info.addr {
        Src::Reg(r, _) => vec![*r],
        Src::Var(..) | Src::Imm(_) => Vec::new(),
        _ => return None,
    };
    let written = ir.ops[i + 1..k]
        .iter()
        .any(|o| o.kind.dsts().iter().any(|d| regs.contains(d)));
    (!written).then_some(k)
}

/// True when `s` has the same value in every lane of a warp whatever the
/// launch, as a compiler can see from the code alone: immediates,
/// parameters, `%ctaid`/`%nctaid`/`%ntid` (and the other per-warp special
/// registers), `%tid.x >> k` for k ≥ 5 in a kernel whose launch directives
/// make the block one-dimensional (a warp is 32 consecutive `%tid.x`), and
/// arithmetic, comparisons and predicate logic over such values, followed
/// through registers defined once (at most 32 definitions deep). Anything
/// else (a register defined twice, a load, `%tid`, `%laneid`) is not.
pub fn uniform_by_construction(ir: &Lowered<'_>, s: &Src, depth: u32) -> bool {
    use crate::ir::{OpKind, Special};
    if depth > 32 {
        return false;
    }
    match s {
        Src::Imm(_) | Src::Param(..) | Src::Var(..) => true,
        Src::Special(sp) => matches!(
            sp,
            Special::Ntid(_)
                | Special::Ctaid(_)
                | Special::Nctaid(_)
                | Special::ClusterCtaRank
                | Special::OtherUniform
        ),
        Src::Reg(r, _) | Src::NotPred(r) => {
            let Some(def) = ir.single_defs.def.get(r) else {
                return false;
            };
            let Some(op) = ir.ops.get(def.index()) else {
                return false;
            };
            if op.guard.is_some() {
                return false;
            }
            match &op.kind {
                OpKind::LdParam { .. } => true,
                OpKind::PredLogic { srcs, .. } => srcs
                    .iter()
                    .all(|x| uniform_by_construction(ir, x, depth + 1)),
                OpKind::Alu { alu, srcs, .. } => {
                    if alu.op == AluOp::Shr
                        && matches!(srcs.get(1), Some(Src::Imm(k)) if *k >= 5)
                        && is_tid_x(ir, &srcs[0], depth + 1)
                        && one_dimensional(ir)
                    {
                        return true;
                    }
                    // Shuffles and votes of uniform operands are uniform too.
                    srcs.iter()
                        .all(|x| uniform_by_construction(ir, x, depth + 1))
                }
                _ => false,
            }
        }
        Src::Unknown => false,
    }
}

/// `%tid.x`, directly or through `mov`/`cvt` copies defined once.
fn is_tid_x(ir: &Lowered<'_>, s: &Src, depth: u32) -> bool {
    use crate::ir::{OpKind, Special};
    if depth > 32 {
        return false;
    }
    match s {
        Src::Special(Special::Tid(0)) => true,
        Src::Reg(r, 0) => {
            let Some(op) = ir
                .single_defs
                .def
                .get(r)
                .and_then(|d| ir.ops.get(d.index()))
            else {
                return false;
            };
            match &op.kind {
                OpKind::Alu { alu, srcs, .. }
                    if op.guard.is_none() && matches!(alu.op, AluOp::Mov | AluOp::Cvt(_)) =>
                {
                    srcs.first().is_some_and(|x| is_tid_x(ir, x, depth + 1))
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// The launch directives (`.reqntid`/`.maxntid`) make the block
/// one-dimensional.
fn one_dimensional(ir: &Lowered<'_>) -> bool {
    let l = &ir.launch;
    l.reqntid
        .or(l.maxntid)
        .is_some_and(|[_, y, z]| y <= 1 && z <= 1)
}
