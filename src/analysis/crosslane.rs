//! Cross-lane instructions: what `shfl.sync`, `vote`, `activemask`,
//! `redux.sync`, `match.sync` and `mapa` do to lane values.
//!
//! # Domain
//!
//! These instructions read other lanes' registers, so they have no one-lane
//! semantics (`transfer::eval_scalar` returns `None` for them); they act on the
//! whole warp's [`Value`] at once.
//!
//! # Transfer rules
//!
//! * `shfl.sync.{up,down,bfly,idx}.b32 d|p, a, b, c, membermask`: when `b` and
//!   `c` are exact per lane, every lane's source lane `j` follows the ISA's
//!   pseudo-code (segment mask `c[12:8]`, clamp `c[4:0]`, a source out of range
//!   reads the lane's own `a`); the result permutes every per-lane coefficient
//!   of `a` (uniform parts are untouched, symbolic strides move with their
//!   lanes), and `p` is known per lane. When every lane reads the same source
//!   lane (a broadcast), the result is uniform even when `a` was data: an
//!   opaque uniform value with the congruence of `a`'s uniform part and of its
//!   lane bounds. More generally the lanes that read one source lane share
//!   its value: when `a` is data or bounds (no exact per-lane coefficients to
//!   move), the result keeps `a`'s bounds with one unknown per class of the
//!   coarsest lane-bit partition under which the source lane is constant
//!   (`domain::lane_key` of the sources, or of the sources' classes when
//!   `a`'s own lanes share unknowns and it has no exact part; the per-class
//!   unknowns of `bounds::loaded_at`). `__shfl_sync(m, u, k + (lane >> 4))` of a loaded
//!   `u` is two unknowns, one per half-warp, so `h[uu * 16 + (lane & 15)]`
//!   is two rows of 16 words, costed as two draws (`cost::classed_cost`),
//!   not 32.
//! * With `b` unknown, an `idx` shuffle whose `c` is known and the same in
//!   every lane, with every source in range (`c[4:0]` all ones outside the
//!   segment mask `c[12:8]`, as `__shfl_sync(m, x, i, width)` emits), reads
//!   one source lane in the lanes with equal `b` and equal lane bits under
//!   the segment mask: the same sharing with the partition of `b`'s
//!   lane-varying part (`bounds::address_key`) and the segment bits (a `b`
//!   the same in every lane with no segment: a broadcast, uniform).
//!   Otherwise, with `b` or `c` unknown, a uniform `a` is returned as is (a
//!   permutation of equal values) and a bounded `a` keeps its bounds, every
//!   lane an independent draw.
//! * `vote.{any,all,uni}` give a warp-uniform predicate (known when the
//!   source predicate is known the same in every lane), `vote.ballot`,
//!   `activemask`, `match.all` and `redux.sync` a warp-uniform integer
//!   (`redux.{min,max,and,or}` of a uniform value is that value), `match.any`
//!   of a uniform value is uniform, of a lane-varying one lane-varying.
//! * `elect.sync d|p, membermask`: the leader is the lowest lane of
//!   `membermask` that executes the instruction. With the possibly-active
//!   lanes of the fixpoint (`dataflow`), the leader is taken to be the lowest
//!   of them ([`elect`]): `d` that constant in every lane, `p` true in that
//!   lane only. Without them (a bare `abstract_eval`), `d` is a uniform
//!   unknown and `p` an unknown lane-varying predicate.
//! * `mapa d, a, rank`: the same offset in the shared window of CTA `rank`:
//!   `a` plus a uniform unknown window offset when `rank` is uniform.
//!
//! # Soundness and limits
//!
//! A source lane that is inactive gives an undefined value in PTX; the
//! analysis assumes `membermask` names the active lanes (what compilers
//! emit). `vote.ballot` and `activemask` depend on which lanes are active, so
//! they stay opaque (uniform) even when the predicate is known per lane.
//! `elect.sync` assumes every possibly-active lane executes it (the
//! representative warp of a class runs its lanes together): in code where
//! lanes diverged on unknown values the leader may be a higher lane, but
//! there is still exactly one, so a one-lane access keeps its request count
//! and only its lane's address may differ. The
//! window offset of `mapa` is not modelled: only the lane pattern and the
//! uniformity survive.
//!
//! Lanes of one class of a shuffle's result read one source lane's
//! register (or source lanes of one class of `a`, which hold one value), so
//! they hold one value (exact, whatever the data); lanes of
//! different classes may hold equal values (two source lanes that loaded
//! one address) and the cost model draws them independently, the
//! expectation for loaded indices, as for `bounds::loaded_at`. The
//! partition is a lane-bit mask: sources constant only on classes it
//! cannot express (`lane / 3`) refine to independent lanes. A shuffled
//! value with exact per-lane coefficients is permuted as before (a known
//! lane pattern), not partitioned.

use super::domain::{
    lane_key, Coef, Cong, Lanes, Poly, PredVal, Range, Value, ALL_LANES, NO_HI, NO_LO, WARP,
};
use super::transfer::OpaqueSource;

pub use crate::ir::alu::{shfl_mode, warp_op, ReduxOp, ShflMode, WarpOp};

/// What `redux.sync` computes.
pub trait ReduxFold {
    /// `min`, `max`, `and`, `or` of equal values is that value.
    fn idempotent(self) -> bool;
    /// Folds the values of the lanes (read with `signed` for min/max).
    fn fold(self, vals: impl Iterator<Item = i64>, signed: bool, bits: u32) -> Option<i64>;
}

impl ReduxFold for ReduxOp {
    fn idempotent(self) -> bool {
        !matches!(self, ReduxOp::Add | ReduxOp::Xor)
    }
    fn fold(self, vals: impl Iterator<Item = i64>, signed: bool, bits: u32) -> Option<i64> {
        let key = |v: i64| if signed { v as i128 } else { v as u64 as i128 };
        let mut acc: Option<i64> = None;
        for v in vals {
            acc = Some(match acc {
                None => v,
                Some(a) => match self {
                    ReduxOp::Add => a.wrapping_add(v),
                    ReduxOp::Min => {
                        if key(v) < key(a) {
                            v
                        } else {
                            a
                        }
                    }
                    ReduxOp::Max => {
                        if key(v) > key(a) {
                            v
                        } else {
                            a
                        }
                    }
                    ReduxOp::And => a & v,
                    ReduxOp::Or => a | v,
                    ReduxOp::Xor => a ^ v,
                },
            });
        }
        let t = super::transfer::Ty {
            bits,
            signed,
            float: false,
        };
        acc.map(|a| t.read(a))
    }
}

/// Source lane of every lane and the lanes whose source is in range (the
/// predicate `p`), from the PTX ISA's pseudo-code of `shfl.sync`.
pub fn shfl_sources(mode: ShflMode, b: &Lanes, c: &Lanes) -> ([usize; WARP], u32) {
    let mut src = [0usize; WARP];
    let mut p = 0u32;
    for l in 0..WARP {
        let lane = l as i64;
        let bval = b[l] & 0x1f;
        let cval = c[l] & 0x1f;
        let segmask = (c[l] >> 8) & 0x1f;
        let max_lane = (lane & segmask) | (cval & !segmask);
        let min_lane = lane & segmask;
        let (j, ok) = match mode {
            ShflMode::Up => {
                let j = lane - bval;
                (j, j >= max_lane)
            }
            ShflMode::Down => {
                let j = lane + bval;
                (j, j <= max_lane)
            }
            ShflMode::Bfly => {
                let j = lane ^ bval;
                (j, j <= max_lane)
            }
            ShflMode::Idx => {
                let j = min_lane | (bval & !segmask);
                (j, j <= max_lane)
            }
        };
        if ok && (0..WARP as i64).contains(&j) {
            src[l] = j as usize;
            p |= 1 << l;
        } else {
            src[l] = l;
        }
    }
    (src, p)
}

fn exact(v: Option<&Value>) -> Option<Lanes> {
    v?.as_poly()?.exact()
}

/// `d` of `shfl.sync` (see the module essay).
pub fn shfl(mode: ShflMode, args: &[Value], ctx: &mut dyn OpaqueSource) -> Value {
    let Some(a) = args.first() else {
        return Value::Varying { data: false };
    };
    let (Some(b), Some(c)) = (exact(args.get(1)), exact(args.get(2))) else {
        // An `idx` shuffle whose source lane is the same in the lanes with
        // equal `b` (and equal lane bits under the segment mask): those
        // lanes share one value.
        if let Some(key) = idx_source_key(mode, args.get(1), args.get(2)) {
            if let Some(v) = shared_by(a, key, ctx) {
                return v;
            }
        }
        return match a {
            Value::Poly(p) if p.is_uniform() => a.clone(),
            Value::Range(r) => independent(r),
            Value::Undef => a.clone(),
            _ => Value::Varying { data: a.is_data() },
        };
    };
    let (src, _) = shfl_sources(mode, &b, &c);
    if let Value::Poly(p) = a {
        return Value::poly(Poly::from_terms(
            p.terms()
                .iter()
                .map(|(m, k)| (*m, Coef::lanes(std::array::from_fn(|l| k.at(src[l])))))
                .collect(),
        ));
    }
    // Lanes that read one source lane get its value: the lanes of a class
    // of `lane_key(src)` share it (a broadcast: every lane, key 0). Where
    // the source's own lanes share unknowns (`a`'s classes) and it has no
    // exact part, the lanes whose sources lie in one of its classes share
    // them too.
    let label: Lanes = match a {
        Value::Range(r) if r.exact.is_none() => {
            std::array::from_fn(|l| (src[l] as u8 & r.key & ALL_LANES) as i64)
        }
        _ => std::array::from_fn(|l| src[l] as i64),
    };
    shared_by(a, lane_key(&label), ctx).unwrap_or_else(|| match a {
        Value::Range(r) => independent(r),
        other => other.clone(),
    })
}

/// The lane partition under which an `idx` shuffle with unknown `b` reads
/// one source lane per class, when `c` is the same known value in every
/// lane and keeps every source in range (`c[4:0]` all ones outside the
/// segment mask, as `__shfl_sync(m, x, i, width)` emits): the source lane
/// `(lane & segmask) | (b & 0x1f & !segmask)` is equal in lanes with equal
/// `b` ([`bounds::address_key`]) and equal lane bits under `segmask`.
fn idx_source_key(mode: ShflMode, b: Option<&Value>, c: Option<&Value>) -> Option<u8> {
    if mode != ShflMode::Idx {
        return None;
    }
    let c = exact(c)?;
    if c.iter().any(|&v| v != c[0]) {
        return None;
    }
    let seg = ((c[0] >> 8) & 0x1f) as u8;
    if (c[0] as u8 & 0x1f) | seg != 0x1f {
        return None;
    }
    let b = b?;
    if matches!(b, Value::Undef) {
        return None;
    }
    let key = super::bounds::address_key(b) | seg;
    (key & ALL_LANES != ALL_LANES).then_some(key & ALL_LANES)
}

/// The shuffled value of `a` when the lanes of one class of `key` read one
/// source lane: a uniform value for a broadcast (key 0: an opaque uniform
/// value with the congruence of `a`'s uniform part and of its lane bounds),
/// else `a`'s bounds with its exact part folded in, one unknown per class
/// (loaded data that no bound describes: an unbounded unknown per class,
/// the classes of `bounds::loaded_at`). `None` where nothing is shared
/// (every lane its own class) or `a` is not loaded data or a range.
fn shared_by(a: &Value, key: u8, ctx: &mut dyn OpaqueSource) -> Option<Value> {
    let key = key & ALL_LANES;
    if key == ALL_LANES {
        return None;
    }
    match a {
        Value::Range(r) if key == 0 => {
            let cong = ctx.facts().poly_cong(&r.base) + r.flat().cong;
            Some(Value::sym(ctx.opaque(0, cong)))
        }
        Value::Varying { .. } if key == 0 => Some(Value::sym(ctx.opaque(0, Cong::TOP))),
        Value::Range(r) => {
            let f = r.flat();
            Some(Range::with_bits(
                f.base, f.lo, f.hi, f.cong, f.data, None, key, f.bits,
            ))
        }
        Value::Varying { data: true } => Some(Range::structured(
            Poly::default(),
            NO_LO,
            NO_HI,
            Cong::TOP,
            true,
            None,
            key,
        )),
        _ => None,
    }
}

/// A range moved between lanes: the lanes' exact parts and classes no
/// longer line up with the lane index, so each lane is an independent draw
/// of the flattened set.
fn independent(r: &Range) -> Value {
    let f = r.flat();
    Range::with_bits(f.base, f.lo, f.hi, f.cong, f.data, None, ALL_LANES, f.bits)
}

/// `p` of `shfl.sync`: true in the lanes whose source lane is in range.
pub fn shfl_pred(mode: ShflMode, args: &[Value]) -> Value {
    match (exact(args.get(1)), exact(args.get(2))) {
        (Some(b), Some(c)) => Value::Pred(PredVal::Lanes(shfl_sources(mode, &b, &c).1)),
        _ => Value::Pred(PredVal::Unknown {
            uniform: false,
            data: false,
        }),
    }
}

/// The result of a vote or reduction (see the module essay).
pub fn warp(op: WarpOp, args: &[Value], ctx: &mut dyn OpaqueSource) -> Value {
    let a = args.first().cloned().unwrap_or_default();
    let pred_of = |v: &Value| match v {
        Value::Pred(p) => Some(*p),
        _ => None,
    };
    match op {
        WarpOp::Any | WarpOp::All | WarpOp::Uni => {
            let p = pred_of(&a);
            let known = match (op, p) {
                // The same in every lane: any, all and uni agree.
                (WarpOp::Uni, Some(PredVal::Lanes(0 | u32::MAX))) => Some(true),
                (_, Some(PredVal::Lanes(u32::MAX))) => Some(true),
                (WarpOp::Any | WarpOp::All, Some(PredVal::Lanes(0))) => Some(false),
                _ => None,
            };
            match known {
                Some(true) => Value::Pred(PredVal::Lanes(u32::MAX)),
                Some(false) => Value::Pred(PredVal::Lanes(0)),
                None => Value::Pred(PredVal::Unknown {
                    uniform: true,
                    data: a.is_data(),
                }),
            }
        }
        WarpOp::Redux(r) if r.idempotent() && a.is_uniform() && a.as_poly().is_some() => a,
        WarpOp::MatchAny if !a.is_uniform() => Value::Varying { data: a.is_data() },
        _ => {
            if matches!(a, Value::Undef) && op != WarpOp::ActiveMask {
                return Value::Undef;
            }
            Value::sym(ctx.opaque(0, Cong::TOP))
        }
    }
}

/// The predicate of `match.all.sync d|p`: uniform (every lane agrees).
pub fn match_all_pred(args: &[Value]) -> Value {
    let a = args.first().cloned().unwrap_or_default();
    if a.is_uniform() && a.as_poly().is_some() {
        return Value::Pred(PredVal::Lanes(u32::MAX));
    }
    Value::Pred(PredVal::Unknown {
        uniform: true,
        data: a.is_data(),
    })
}

/// `elect.sync d|p, membermask` over the lanes `active` (see the module
/// essay): the leader's lane number and the predicate true in it alone, or
/// `None` when no lane of `membermask` is active or the mask is not a
/// constant.
pub fn elect(active: u32, membermask: Option<&Value>) -> Option<(Value, Value)> {
    let m = match membermask {
        None => u32::MAX,
        Some(v) => v.as_poly()?.as_const()? as u32,
    };
    let cand = active & m;
    if cand == 0 {
        return None;
    }
    let leader = cand.trailing_zeros();
    Some((
        Value::constant(i64::from(leader)),
        Value::Pred(PredVal::Lanes(1 << leader)),
    ))
}

/// `mapa d, a, rank` (see the module essay).
pub fn mapa(args: &[Value], ctx: &mut dyn OpaqueSource) -> Value {
    let (Some(a), Some(rank)) = (args.first(), args.get(1)) else {
        return Value::Varying { data: false };
    };
    match a {
        Value::Poly(p) if rank.is_uniform() && !matches!(rank, Value::Undef) => {
            Value::poly(p.add(&Poly::sym(ctx.opaque(0, Cong::TOP))))
        }
        Value::Undef => Value::Undef,
        _ => Value::Varying {
            data: a.is_data() || rank.is_data(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iota() -> Lanes {
        std::array::from_fn(|l| l as i64)
    }

    #[test]
    fn reductions_fold_the_lanes() {
        let lanes = || (0..32i64).map(|l| l - 4);
        assert_eq!(ReduxOp::Add.fold(lanes(), true, 32), Some(496 - 128));
        assert_eq!(ReduxOp::Min.fold(lanes(), true, 32), Some(-4));
        // unsigned: -1 is 0xffffffff, the largest
        assert_eq!(ReduxOp::Max.fold(lanes(), false, 32), Some(0xffff_ffff));
        assert_eq!(ReduxOp::Or.fold([1, 2, 4].into_iter(), false, 32), Some(7));
        assert_eq!(ReduxOp::Xor.fold([3, 3].into_iter(), false, 32), Some(0));
        assert_eq!(ReduxOp::And.fold(std::iter::empty(), false, 32), None);
        assert_eq!(
            warp_op("redux", &["sync", "add", "u32"]),
            Some(WarpOp::Redux(ReduxOp::Add))
        );
    }

    #[test]
    fn elect_picks_the_lowest_active_member() {
        let lanes = |v: Value| match v {
            Value::Pred(PredVal::Lanes(b)) => Some(b),
            _ => None,
        };
        let (d, p) = elect(u32::MAX, Some(&Value::constant(-1))).unwrap();
        assert_eq!(d.as_poly().and_then(Poly::as_const), Some(0));
        assert_eq!(lanes(p), Some(1));
        // lanes 0..3 inactive, membermask without lane 4
        let (d, p) = elect(!0xf, Some(&Value::constant(!0x10))).unwrap();
        assert_eq!(d.as_poly().and_then(Poly::as_const), Some(5));
        assert_eq!(lanes(p), Some(1 << 5));
        assert!(elect(0xf0, Some(&Value::constant(0xf))).is_none());
        assert!(elect(u32::MAX, Some(&Value::Varying { data: false })).is_none());
    }

    #[test]
    fn shuffle_sources_follow_the_isa() {
        let k = |v: i64| [v; WARP];
        // __shfl_down_sync(m, x, 1): c = 0x1f
        let (s, p) = shfl_sources(ShflMode::Down, &k(1), &k(0x1f));
        assert_eq!((s[0], s[30], s[31]), (1, 31, 31));
        assert_eq!(p, u32::MAX >> 1);
        // __shfl_up_sync(m, x, 2): c = 0
        let (s, p) = shfl_sources(ShflMode::Up, &k(2), &k(0));
        assert_eq!((s[0], s[1], s[2], s[31]), (0, 1, 0, 29));
        assert_eq!(p, !3);
        // __shfl_xor_sync(m, x, 16)
        let (s, p) = shfl_sources(ShflMode::Bfly, &k(16), &k(0x1f));
        assert_eq!((s[0], s[16], s[17]), (16, 0, 1));
        assert_eq!(p, u32::MAX);
        // __shfl_sync(m, x, 3): a broadcast of lane 3
        let (s, _) = shfl_sources(ShflMode::Idx, &k(3), &k(0x1f));
        assert!(s.iter().all(|&j| j == 3));
        // __shfl_sync(m, x, 3, 8): lane 3 of each group of 8 (c = (32-8)<<8 | 0x1f)
        let (s, _) = shfl_sources(ShflMode::Idx, &k(3), &k((24 << 8) | 0x1f));
        assert_eq!((s[0], s[9], s[31]), (3, 11, 27));
        // __shfl_down_sync(m, x, 4, 16): segments of 16 (c = (32-16)<<8 | 0x1f)
        let (s, p) = shfl_sources(ShflMode::Down, &k(4), &k((16 << 8) | 0x1f));
        assert_eq!((s[11], s[12], s[16]), (15, 12, 20));
        assert_eq!(p & (1 << 12), 0);
        // a lane-varying index: a permutation
        let rev: Lanes = std::array::from_fn(|l| 31 - l as i64);
        let (s, _) = shfl_sources(ShflMode::Idx, &rev, &k(0x1f));
        assert_eq!((s[0], s[31]), (31, 0));
        let _ = iota();
    }
}
