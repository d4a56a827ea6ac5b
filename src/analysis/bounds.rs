//! Bounds of data-dependent values: the transfer functions of
//! [`Range`](super::domain::Range).
//!
//! # Domain
//!
//! A value loaded through a lane-varying address is unknown in every lane, but
//! the instructions applied to it often bound it: `b & 255`, `h % 1000`,
//! `min(max(x, 0), n - 1)`, `h >> 24`, a `u8` or `u16` load, `bfe`, `popc`.
//! A [`Range`] keeps, beside a uniform base, the lower and upper bound of each
//! lane's unknown part and its congruence, so `hist + (b & 255) * 4` is
//! `hist + x` with `x ∈ [0, 1020]`, `x ≡ 0 (mod 4)`, and the cost model can
//! give the expected and extreme costs of lanes drawn from that range
//! (`cost::ranged_random_cost`).
//!
//! # Transfer rules
//!
//! Every operand is viewed as bounds ([`View`]): a range as it is, a
//! polynomial `U + d` with exact lanes as `U + [min d, max d]`, and an
//! unbounded data value as its type's range when narrower than 64 bits (a
//! `.u32` register holds `[0, 2^32 - 1]`). Then:
//!
//! * `add`, `sub`, `neg`, `mul`/`mad`/`shl` by a constant: interval and
//!   congruence arithmetic (the uniform bases add or scale alike);
//! * `and` with a constant `c ≥ 0`: `[0, c]` (tighter when the operand is
//!   already non-negative), congruent to 0 modulo the lowest set bit of `c`;
//!   with a high mask `-2^k`: the operand's bounds rounded down;
//! * `rem` by `c > 0`: `[0, c - 1]` (`[-(c - 1), c - 1]` for a possibly
//!   negative signed operand); `div` and `shr` by constants: the bounds
//!   divided (rounded down);
//! * `min`, `max`: the bounds of both sides combined (`max(min(x, 255), 0)`
//!   is `[0, 255]`);
//! * `cvt`, `bfe`, `szext`, `popc`, `clz`: the bounds of the narrower type or
//!   of the extracted field;
//! * a result that may leave its type's range (wrap-around, as in a hash
//!   `b * 2654435761u`) becomes the type's range (its low bits kept). The
//!   test is made on the bounds tightened to the congruence and the known
//!   low bits (`tightened`): `x << 2` of an unbounded 32-bit `x` is at most
//!   `2^32 - 4`, so `(x << 2) | (t & 3)` cannot wrap and keeps its exact
//!   lane part. A range read by an instruction whose type it leaves, and
//!   that spans half that type or more (the `b32` result of a shift read by
//!   an `add.s32`), is read as any value of the type with its known bits,
//!   as an unbounded one is.
//!
//! Beside the bounds every rule carries the known bits of `x`
//! (`domain::KnownBits`): sums, negation and products by constants by
//! LLVM's carry rules, shifts, `and`/`or`/`xor` bit by bit, `bfe` the
//! field's bits, narrow types and loads (`u8`, `u16`) by their bounds. An
//! `prmt` with a constant selector takes each result byte's bits from the
//! source byte it selects (or copies of its top bit). An
//! `or` or `xor` of operands with no possibly-set bit in common is their
//! sum, and so is a `bfi` whose base is zero in the field and whose
//! inserted value fits it: those keep the exact parts and classes apart
//! (`((d & 7) << 7) | (lane << 2)`; `bfi row, t & 15, 4, 12`). An `and`,
//! `or`, `xor` or `bfi` without another rule is bounded by its known bits
//! when they fix the sign.
//!
//! Anything else gives up as before (`Varying`), except that an integer
//! operation on operands whose lanes share unknowns gives a value shared by
//! the same lanes (bounded by its type only).
//!
//! # Lanes that share a loaded value
//!
//! A plain load through an address whose lanes are not all independent
//! ([`address_key`]: the classes under which the address's lane-varying
//! coefficients, or its range's unknown and exact part, are equal) gives a
//! value shared by those classes ([`loaded_at`]). The add, subtract, negate,
//! scale and widening rules keep a view's exact part and classes apart
//! (`value = base + exact[l] + x_{l & key}`); every other rule works on the
//! exact part folded into the bounds and gives the common refinement of its
//! operands' classes. A `selp` on a lane-varying predicate (`hull`) gives
//! independent lanes; a shuffle (`crosslane::shfl`) gives the lanes that
//! read one source lane one shared unknown, with these same classes.
//!
//! # Soundness and limits
//!
//! Bounds are over-approximations: each rule holds for every lane value in
//! the operands' bounds. A uniform base is combined only by addition and
//! scaling by constants, where the domain's no-wrap assumption applies as for
//! polynomials. Lanes of one class hold equal values: lanes of one plain load
//! instruction with equal addresses read equal values (the instruction reads
//! each address once; a store by another lane of the same instruction is not
//! a load, and atomics, whose lanes on one address are served one after
//! another, keep independent lanes), and a lane-wise function of equal
//! operands is equal. Lanes of different classes may or may not be equal:
//! the cost model draws the classes independently. Classes are bit-mask
//! partitions of the lane index, so a sharing they cannot express (lanes
//! `l / 3`) is refined to one they can (independent lanes), which is sound.
//! Joins widen bounds that grow in a loop (see `domain::join`).

use super::domain::{
    lane_key, lanes_cong, Cong, KnownBits, Lanes, Poly, Range, Value, ALL_LANES, NO_HI, NO_LO, WARP,
};
use super::transfer::{Alu, AluOp, MulMode, Ty};

/// An operand seen as bounds: `base + exact[l] + x_{l & key}`, `x ∈ [lo,
/// hi]`, `x ≡ cong` (the shape of [`Range`]).
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// Uniform part.
    pub base: Poly,
    /// Lower bound of `x` (`NO_LO`: none).
    pub lo: i64,
    /// Upper bound of `x` (`NO_HI`: none).
    pub hi: i64,
    /// Congruence of `x`.
    pub cong: Cong,
    /// Derived from loaded data.
    pub data: bool,
    /// Exact per-lane part (`None`: zero).
    pub exact: Option<Lanes>,
    /// Lane partition of `x` (`domain::ALL_LANES`: every lane its own).
    pub key: u8,
    /// Known bits of `x`.
    pub bits: KnownBits,
}

impl View {
    fn constant(&self) -> Option<i64> {
        (self.base.terms().is_empty()
            && self.exact.is_none()
            && self.lo == self.hi
            && self.lo != NO_LO)
            .then_some(self.lo)
    }
    fn bounded_nonneg(&self) -> bool {
        self.base.terms().is_empty() && self.lo >= 0 && self.hi != NO_HI
    }
    /// The exact part folded into `x` (the partition refined by it): the
    /// view every rule but the linear ones works on.
    fn flat(mut self) -> View {
        let Some(e) = self.exact.take() else {
            return self;
        };
        let (emin, emax) = (
            e.iter().copied().min().unwrap_or(0),
            e.iter().copied().max().unwrap_or(0),
        );
        self.lo = add_b(self.lo, emin, NO_LO);
        self.hi = add_b(self.hi, emax, NO_HI);
        self.cong = self.cong + lanes_cong(&e);
        self.key |= lane_key(&e);
        self.bits = self.bits.sum(KnownBits::of_lanes(&e));
        self
    }
    /// The known bits of the whole value (its bounds and congruence
    /// included), when it has no uniform base: of the flat view.
    fn known(&self) -> Option<KnownBits> {
        let f = self.clone().flat();
        f.base
            .terms()
            .is_empty()
            .then(|| f.bits.meet(KnownBits::implied(f.lo, f.hi, f.cong)))
    }
}

/// A view of the values that `bits` allows, read as type `t`: its bounds
/// are what the bits give (the sign bit known, the rest free or not).
fn bits_view(bits: KnownBits, t: Ty, data: bool, key: u8) -> View {
    let bits = bits.truncate(t.bits, t.signed);
    // With the sign bit known, the least value has every free bit 0 and
    // the greatest every free bit 1.
    let (lo, hi) = if (bits.zero | bits.one) >> 63 == 1 {
        (bits.one as i64, (!bits.zero) as i64)
    } else {
        (NO_LO, NO_HI)
    };
    View {
        base: Poly::default(),
        lo,
        hi,
        cong: Cong::TOP,
        data,
        exact: None,
        key,
        bits,
    }
}

/// The range of a type (`None` for 64 bits: every `i64`).
fn type_range(t: Ty) -> Option<(i64, i64)> {
    if t.bits >= 64 || t.bits == 0 {
        return None;
    }
    Some(if t.signed {
        (-(1i64 << (t.bits - 1)), (1i64 << (t.bits - 1)) - 1)
    } else {
        (0, (1i64 << t.bits) - 1)
    })
}

fn type_view(t: Ty, data: bool, key: u8) -> View {
    let (lo, hi) = type_range(t).unwrap_or((NO_LO, NO_HI));
    View {
        base: Poly::default(),
        lo,
        hi,
        cong: Cong::TOP,
        data,
        exact: None,
        key,
        bits: KnownBits::UNKNOWN,
    }
}

/// The bounds view of a value read as type `t`.
pub fn view(v: &Value, t: Ty) -> Option<View> {
    match v {
        Value::Range(r) => {
            let mut x = View {
                base: r.base.clone(),
                lo: r.lo,
                hi: r.hi,
                cong: r.cong,
                data: r.data,
                exact: r.exact.as_deref().copied(),
                key: r.key,
                bits: r.bits,
            };
            // An unbounded shared unknown (a loaded 32-bit value) reads as
            // any value of the reading type; so does one whose bounds leave
            // the type's range and span half of it or more (`x << 2` of a
            // loaded `b32`, `[0, 2^32 - 4]`, read by an `add.s32`: every bit
            // pattern its known bits allow, read the signed way).
            let wide = |(tlo, thi): (i64, i64)| {
                x.lo != NO_LO
                    && x.hi != NO_HI
                    && x.exact.is_none()
                    && (x.lo < tlo || x.hi > thi)
                    && (x.hi as i128 - x.lo as i128) >= (thi as i128 - tlo as i128) / 2
            };
            let unbounded = x.lo == NO_LO && x.hi == NO_HI;
            if (unbounded || type_range(t).is_some_and(wide)) && x.base.terms().is_empty() {
                if let Some((lo, hi)) = type_range(t) {
                    let f = x.flat();
                    x = View {
                        lo,
                        hi,
                        cong: Cong::TOP,
                        bits: f.bits.truncate(t.bits, t.signed),
                        ..f
                    };
                }
            }
            Some(x)
        }
        Value::Poly(p) => {
            let (u, d) = p.split();
            let d = d.exact()?;
            let c = u
                .terms()
                .iter()
                .find(|(m, _)| m.degree() == 0)
                .map(|(_, k)| k.at(0))
                .unwrap_or(0);
            Some(View {
                base: u.add_const(c.wrapping_neg()),
                lo: c,
                hi: c,
                cong: Cong::exact(c),
                data: false,
                exact: (!d.iter().all(|&v| v == d[0])).then_some(d),
                key: 0,
                bits: KnownBits::constant(c),
            })
        }
        Value::Varying { data } => Some(type_view(t, *data, ALL_LANES)),
        _ => None,
    }
}

fn add_b(a: i64, b: i64, none: i64) -> i64 {
    if a == none || b == none {
        none
    } else {
        a.checked_add(b).unwrap_or(none)
    }
}

fn neg_b(a: i64, none_in: i64, none_out: i64) -> i64 {
    if a == none_in {
        none_out
    } else {
        a.checked_neg().unwrap_or(none_out)
    }
}

fn add(a: &View, b: &View) -> View {
    let exact = match (&a.exact, &b.exact) {
        (None, None) => None,
        (Some(e), None) | (None, Some(e)) => Some(*e),
        (Some(x), Some(y)) => {
            let mut s = [0i64; WARP];
            for l in 0..WARP {
                match x[l].checked_add(y[l]) {
                    Some(v) => s[l] = v,
                    None => return add(&a.clone().flat(), &b.clone().flat()),
                }
            }
            Some(s)
        }
    };
    View {
        base: a.base.add(&b.base),
        lo: add_b(a.lo, b.lo, NO_LO),
        hi: add_b(a.hi, b.hi, NO_HI),
        cong: a.cong + b.cong,
        data: a.data || b.data,
        exact,
        key: a.key | b.key,
        bits: a.bits.sum(b.bits),
    }
}

fn neg(a: &View) -> View {
    let a = if a.exact.is_some_and(|e| e.contains(&i64::MIN)) {
        a.clone().flat()
    } else {
        a.clone()
    };
    View {
        base: a.base.scale(-1),
        lo: neg_b(a.hi, NO_HI, NO_LO),
        hi: neg_b(a.lo, NO_LO, NO_HI),
        cong: a.cong * Cong::exact(-1),
        data: a.data,
        exact: a.exact.map(|e| e.map(|v| -v)),
        key: a.key,
        bits: a.bits.negated(),
    }
}

fn scale(a: &View, k: i64) -> View {
    let m = |v: i64, none: i64, none_out: i64| {
        if v == none {
            none_out
        } else {
            v.checked_mul(k).unwrap_or(none_out)
        }
    };
    let (lo, hi) = if k >= 0 {
        (m(a.lo, NO_LO, NO_LO), m(a.hi, NO_HI, NO_HI))
    } else {
        (m(a.hi, NO_HI, NO_LO), m(a.lo, NO_LO, NO_HI))
    };
    let exact = match &a.exact {
        None => None,
        Some(e) => {
            let mut s = [0i64; WARP];
            for l in 0..WARP {
                match e[l].checked_mul(k) {
                    Some(v) => s[l] = v,
                    None => return scale(&a.clone().flat(), k),
                }
            }
            Some(s)
        }
    };
    View {
        base: a.base.scale(k),
        lo,
        hi,
        cong: a.cong * Cong::exact(k),
        data: a.data,
        exact,
        key: if k == 0 { 0 } else { a.key },
        bits: a.bits.mul_const(k),
    }
}

/// Divides bounds by `c > 0`, rounding toward negative infinity (`shr`) or
/// toward zero (`div`); both are monotone.
fn div_bounds(a: &View, c: i64, floor: bool) -> View {
    let d = |v: i64, none: i64| {
        if v == none {
            none
        } else if floor {
            v.div_euclid(c)
        } else {
            v / c
        }
    };
    View {
        base: Poly::default(),
        lo: d(a.lo, NO_LO),
        hi: d(a.hi, NO_HI),
        cong: Cong::TOP,
        data: a.data,
        exact: None,
        key: ALL_LANES,
        bits: KnownBits::UNKNOWN,
    }
}

fn field(bits: i64, signed: bool, data: bool) -> View {
    let bits = bits.clamp(0, 63) as u32;
    let (lo, hi) = if bits == 0 {
        (0, 0)
    } else if signed {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    } else {
        (0, (1i64 << bits) - 1)
    };
    View {
        base: Poly::default(),
        lo,
        hi,
        cong: Cong::TOP,
        data,
        exact: None,
        key: ALL_LANES,
        bits: KnownBits::UNKNOWN,
    }
}

/// Keeps a result within its type: a bounded lane part that may leave the
/// type's range (wrap-around) becomes the whole range (its lanes still
/// equal where the operands' were).
fn fit(v: View, t: Ty) -> View {
    let Some((tlo, thi)) = type_range(t) else {
        return v;
    };
    let v = tightened(v);
    if v.base.terms().is_empty() {
        let f = v.clone().flat();
        if f.lo < tlo || f.hi > thi {
            // The register keeps the low bits of the sum or product.
            return View {
                bits: f.bits.truncate(t.bits, t.signed),
                ..type_view(t, v.data, f.key)
            };
        }
    }
    v
}

/// `v` with the bounds of `x` tightened to its congruence and to the low
/// bits it knows: `x << 2` of an unbounded 32-bit `x` is at most `2^32 -
/// 4`, so adding an exact lane part `t & 3` to it cannot wrap (a loaded
/// block column `4 * colind[k] | (t & 3)`, `tests/hw/blind18`
/// `bsr_spmv_4x4`: the lanes of one `k` keep their shared unknown and
/// their exact offsets instead of drawing one unknown each).
fn tightened(v: View) -> View {
    let (lo, hi) = v.cong.tighten(v.lo, v.hi);
    let (lo, hi) = v.bits.low_cong().tighten(lo, hi);
    // Facts that contradict each other (no value left): the view as it was
    // (its bounds still hold).
    if lo != NO_LO && hi != NO_HI && lo > hi {
        return v;
    }
    View { lo, hi, ..v }
}

/// The value of a view. Bounds as wide as a 32-bit type's range or wider say
/// nothing the type does not (each later instruction views an unbounded
/// value through its own type again), so they are dropped from a view of
/// independent lanes: a plain data-dependent value. A view whose lanes
/// share unknowns, or that has an exact part over a congruence, keeps them.
fn finish(v: View) -> Value {
    let plain = v.key == ALL_LANES && v.exact.is_none();
    if plain && v.lo != NO_LO && v.hi != NO_HI && (v.hi as i128 - v.lo as i128) >= u32::MAX as i128
    {
        return Value::Varying { data: v.data };
    }
    Range::with_bits(v.base, v.lo, v.hi, v.cong, v.data, v.exact, v.key, v.bits)
}

/// `a & b`, `a | b` or `a ^ b` by the operands' known bits, read as `t`,
/// when they fix the sign (so bound the result).
fn bitwise(op: AluOp, a: &View, b: &View, t: Ty, data: bool) -> Option<View> {
    let (ka, kb) = (a.known()?, b.known()?);
    let k = match op {
        AluOp::And => ka.and(kb),
        AluOp::Or => ka.or(kb),
        AluOp::Xor => ka.xor(kb),
        _ => return None,
    };
    // Nothing known inside the type: no rule (as before known bits).
    let none = KnownBits::UNKNOWN.truncate(t.bits, t.signed);
    let v = bits_view(k, t, data, ALL_LANES);
    (v.lo != NO_LO && v.bits != none).then_some(v)
}

/// `a | b`, `a ^ b` or `a + b` when no bit can be set in both (a sum
/// without carries): the sum, which keeps exact parts and classes apart.
fn disjoint_sum(a: &View, b: &View) -> Option<View> {
    let (ka, kb) = (a.known()?, b.known()?);
    (!ka.zero & !kb.zero == 0).then(|| add(a, b))
}

/// The bounds of `alu(args)` when an operand is a bounded or data-dependent
/// value; `None` when no rule applies.
pub fn eval(alu: Alu, args: &[Value]) -> Option<Value> {
    let t = alu.ty;
    if t.float || t.bits <= 1 {
        return None;
    }
    let v = |i: usize| args.get(i).and_then(|a| view(a, t));
    let konst = |i: usize| v(i).and_then(|x| x.constant());
    let data = args.iter().any(Value::is_data);
    // The rules below `Cvt` are not linear: they work on the exact part
    // folded into the bounds, and their result is shared by the lanes that
    // share every operand (the common refinement of the operands' classes).
    let vf = |i: usize| v(i).map(View::flat);
    let fkey = args.iter().fold(0u8, |k, a| {
        k | match view(a, t) {
            Some(x) => x.flat().key,
            None if a.is_uniform() => 0,
            None => ALL_LANES,
        }
    });
    let mut linear = matches!(
        alu.op,
        AluOp::Mov
            | AluOp::Add
            | AluOp::Sub
            | AluOp::Neg
            | AluOp::Mul(MulMode::Lo | MulMode::Wide)
            | AluOp::Mad(MulMode::Lo | MulMode::Wide)
            | AluOp::Shl
            | AluOp::Cvt(_)
    );
    let r: View = match alu.op {
        AluOp::Mov => v(0)?,
        AluOp::Add => fit(add(&v(0)?, &v(1)?), t),
        AluOp::Sub => fit(add(&v(0)?, &neg(&v(1)?)), t),
        AluOp::Neg => fit(neg(&v(0)?), t),
        AluOp::Mul(m @ (MulMode::Lo | MulMode::Wide))
        | AluOp::Mad(m @ (MulMode::Lo | MulMode::Wide)) => {
            let rt = if m == MulMode::Wide { wide(t) } else { t };
            let p = match (konst(0), konst(1)) {
                (_, Some(k)) => scale(&v(0)?, k),
                (Some(k), _) => scale(&v(1)?, k),
                // A product with an unknown factor (a uniform stride): only
                // the lanes' classes survive.
                _ if fkey != ALL_LANES && v(0).is_some() && v(1).is_some() => {
                    type_view(rt, data, fkey)
                }
                _ => return None,
            };
            let p = if matches!(alu.op, AluOp::Mad(_)) {
                add(&p, &args.get(2).and_then(|a| view(a, rt))?)
            } else {
                p
            };
            fit(p, rt)
        }
        AluOp::Shl => {
            let k = konst(1)?;
            if !(0..62).contains(&k) {
                return None;
            }
            fit(scale(&v(0)?, 1i64 << k), t)
        }
        AluOp::Shr => {
            let k = konst(1)?;
            if !(0..63).contains(&k) {
                return None;
            }
            let mut x = vf(0)?;
            if !x.base.terms().is_empty() {
                return None;
            }
            if !t.signed && x.lo < 0 {
                x = type_view(t, x.data, ALL_LANES);
                if x.lo == NO_LO {
                    return None;
                }
            }
            let cong = if x.cong.m != 0 && x.cong.m % (1u64 << k) == 0 {
                Cong::modulo(x.cong.m >> k, x.cong.r >> k)
            } else {
                Cong::TOP
            };
            // The register's bits shifted: in from the sign bit or zeros.
            let kb = x.known().unwrap_or_default().truncate(t.bits, t.signed);
            let bits = if t.signed {
                kb.ashr(k as u32)
            } else {
                kb.lshr(k as u32)
            };
            View {
                cong,
                bits,
                ..div_bounds(&x, 1i64 << k, true)
            }
        }
        AluOp::And if konst(0).is_some() || konst(1).is_some() => {
            let (x, c) = match (konst(0), konst(1)) {
                (_, Some(c)) => (vf(0)?, c),
                (Some(c), _) => (vf(1)?, c),
                _ => return None,
            };
            // The mask as the type reads it, sign-extended (0xfffffff0 is -16).
            let c = if t.bits < 64 {
                Ty { signed: true, ..t }.read(c)
            } else {
                c
            };
            let bits = x.known().unwrap_or_default().and(KnownBits::constant(c));
            let mut r = if c >= 0 {
                let low = if c == 0 { 0 } else { c.trailing_zeros() };
                let hi = if x.bounded_nonneg() { x.hi.min(c) } else { c };
                if x.bounded_nonneg() && c & c.wrapping_add(1) == 0 && x.hi <= c {
                    x
                } else {
                    View {
                        base: Poly::default(),
                        lo: 0,
                        hi,
                        cong: Cong::modulo(1u64 << low.min(62), 0),
                        data: x.data,
                        exact: None,
                        key: ALL_LANES,
                        bits: KnownBits::UNKNOWN,
                    }
                }
            } else {
                let n = c.checked_neg()?;
                if n & (n - 1) != 0 || !x.base.terms().is_empty() {
                    return None;
                }
                let f = |b: i64, none: i64| if b == none { none } else { b & c };
                View {
                    base: Poly::default(),
                    lo: f(x.lo, NO_LO),
                    hi: f(x.hi, NO_HI),
                    cong: Cong::modulo(n as u64, 0),
                    data: x.data,
                    exact: None,
                    key: ALL_LANES,
                    bits: KnownBits::UNKNOWN,
                }
            };
            r.bits = bits;
            r
        }
        // `or` / `xor` of values that share no possible bit: a sum.
        AluOp::Or | AluOp::Xor
            if v(0)
                .zip(v(1))
                .and_then(|(a, b)| disjoint_sum(&a, &b))
                .is_some() =>
        {
            linear = true;
            fit(disjoint_sum(&v(0)?, &v(1)?)?, t)
        }
        // Otherwise what the known bits give, when they bound the result.
        AluOp::And | AluOp::Or | AluOp::Xor
            if v(0)
                .zip(v(1))
                .and_then(|(a, b)| bitwise(alu.op, &a, &b, t, data))
                .is_some() =>
        {
            bitwise(alu.op, &v(0)?, &v(1)?, t, data)?
        }
        AluOp::And => return None,
        AluOp::Rem => {
            let c = konst(1)?;
            if c <= 0 {
                return None;
            }
            let x = vf(0)?;
            if x.bounded_nonneg() && x.hi < c {
                x
            } else if !t.signed || (x.base.terms().is_empty() && x.lo >= 0) {
                View {
                    base: Poly::default(),
                    lo: 0,
                    hi: c - 1,
                    cong: Cong::TOP,
                    data: x.data,
                    exact: None,
                    key: ALL_LANES,
                    bits: KnownBits::UNKNOWN,
                }
            } else {
                View {
                    base: Poly::default(),
                    lo: -(c - 1),
                    hi: c - 1,
                    cong: Cong::TOP,
                    data: x.data,
                    exact: None,
                    key: ALL_LANES,
                    bits: KnownBits::UNKNOWN,
                }
            }
        }
        AluOp::Div => {
            let c = konst(1)?;
            if c <= 0 {
                return None;
            }
            let mut x = vf(0)?;
            if !x.base.terms().is_empty() {
                return None;
            }
            if !t.signed && x.lo < 0 {
                x = type_view(t, x.data, ALL_LANES);
                if x.lo == NO_LO {
                    return None;
                }
            }
            div_bounds(&x, c, false)
        }
        AluOp::Min | AluOp::Max => {
            let (mut a, mut b) = (vf(0)?, vf(1)?);
            if a.base != b.base {
                return None;
            }
            for x in [&mut a, &mut b] {
                if !t.signed && x.base.terms().is_empty() && x.lo < 0 {
                    *x = type_view(t, x.data, ALL_LANES);
                }
            }
            let (lo, hi) = if alu.op == AluOp::Min {
                (a.lo.min(b.lo), a.hi.min(b.hi))
            } else {
                (a.lo.max(b.lo), a.hi.max(b.hi))
            };
            View {
                base: a.base.clone(),
                lo,
                hi,
                cong: a.cong.join(b.cong),
                data: a.data || b.data,
                exact: None,
                key: ALL_LANES,
                bits: KnownBits::UNKNOWN,
            }
        }
        AluOp::Cvt(src) => {
            let x = args.first().and_then(|a| view(a, src))?;
            if !x.base.terms().is_empty() {
                x
            } else {
                fit(fit(x, src), t)
            }
        }
        AluOp::Bfe => {
            let len = konst(2)?;
            let len = (len & 0xff).min(t.bits as i64);
            let mut f = field(len, t.signed, data);
            // The field's bits, when it lies inside the operand.
            if let (Some(pos), Some(k)) = (konst(1), vf(0).and_then(|x| x.known())) {
                if len > 0 && (0..t.bits as i64).contains(&pos) && pos + len <= t.bits as i64 {
                    f.bits = k
                        .lshr(pos as u32)
                        .truncate(len as u32, t.signed)
                        .truncate(t.bits, t.signed);
                }
            }
            f
        }
        // `bfi a, b, pos, len`: `a`'s low `len` bits into `b` at `pos`.
        AluOp::Bfi => {
            let (pos, len) = (konst(2)?, konst(3)?);
            if len <= 0 || pos < 0 || pos + len > t.bits as i64 {
                return None;
            }
            let (a, b) = (v(0)?, v(1)?);
            let (ka, kb) = (a.known()?, b.known()?);
            let low = u64::MAX >> (64 - len);
            let field = low << pos;
            if kb.zero & field == field && ka.zero | low == u64::MAX {
                // `b` is zero in the field and `a` fits it: `b + a << pos`.
                linear = true;
                fit(add(&b, &scale(&a, 1i64 << pos)), t)
            } else {
                let k = kb
                    .and(KnownBits::constant(!field as i64))
                    .or(ka.shl_by(pos as u32).and(KnownBits::constant(field as i64)));
                let v = bits_view(k, t, data, ALL_LANES);
                if v.lo == NO_LO {
                    return None;
                }
                v
            }
        }
        AluOp::Szext(clamp) => {
            let b = konst(1)?;
            let b = if clamp { b.clamp(0, 32) } else { b & 31 };
            if b >= 32 {
                fit(vf(0)?, t)
            } else {
                field(b, t.signed, data)
            }
        }
        // `prmt` with a constant selector: each byte a source byte or its
        // sign (`bitfield::prmt_known`).
        AluOp::Prmt(mode) if konst(2).is_some() => {
            let k = |i: usize| vf(i).and_then(|x| x.known()).unwrap_or(KnownBits::UNKNOWN);
            let bits = super::bitfield::prmt_known(k(0), k(1), konst(2)?, mode);
            bits_view(bits, Ty { signed: false, ..t }, data, ALL_LANES)
        }
        AluOp::Popc | AluOp::Clz => View {
            base: Poly::default(),
            lo: 0,
            hi: t.bits as i64,
            cong: Cong::TOP,
            data,
            exact: None,
            key: ALL_LANES,
            bits: KnownBits::UNKNOWN,
        },
        // Any other integer operation: a function of the lanes' operands,
        // so equal where they all are; bounded by the type only.
        _ if fkey != ALL_LANES && args.iter().all(|a| view(a, t).is_some()) => {
            type_view(t, data, fkey)
        }
        _ => return None,
    };
    let r = if linear {
        r
    } else {
        let mut r = r.flat();
        r.key = fkey;
        r
    };
    Some(finish(r))
}

fn wide(t: Ty) -> Ty {
    Ty {
        bits: (t.bits * 2).min(64),
        ..t
    }
}

/// The value of a load whose address differs across lanes: unknown data,
/// bounded by its element type when narrower than 32 bits (`ld.global.u8`
/// gives `[0, 255]`, `ld.global.s16` `[-32768, 32767]`).
pub fn loaded(elem: Option<Ty>) -> Value {
    match elem {
        Some(t) if !t.float && t.bits < 32 => {
            let v = type_view(t, true, ALL_LANES);
            finish(v)
        }
        _ => Value::Varying { data: true },
    }
}

/// The lane partition under which an address is certainly equal: the
/// classes of its lane-varying coefficients (a polynomial) or of its shared
/// unknown and exact part (a range); [`ALL_LANES`] when nothing is known.
pub fn address_key(addr: &Value) -> u8 {
    match addr {
        Value::Poly(p) => p.terms().iter().fold(0u8, |k, (_, c)| match c {
            super::domain::Coef::Same(_) => k,
            super::domain::Coef::Lanes(v) => k | lane_key(v),
        }),
        Value::Range(r) => r.flat().key,
        _ => ALL_LANES,
    }
}

/// The value of a load through `addr` whose lanes are not all known to read
/// one address: as [`loaded`], and shared by the lanes whose addresses are
/// equal ([`address_key`]). One load instruction reads each address once,
/// so lanes that read the same address get the same value (a store by
/// another lane of the same instruction is not a load; an atomic is not a
/// plain load and keeps independent lanes, see `dataflow`).
pub fn loaded_at(addr: &Value, elem: Option<Ty>) -> Value {
    let key = address_key(addr);
    if key == ALL_LANES {
        return loaded(elem);
    }
    let v = match elem {
        Some(t) if !t.float && t.bits < 32 => type_view(t, true, key),
        _ => View {
            base: Poly::default(),
            lo: NO_LO,
            hi: NO_HI,
            cong: Cong::TOP,
            data: true,
            exact: None,
            key,
            bits: KnownBits::UNKNOWN,
        },
    };
    finish(v)
}

/// The hull of two values when both have bounds over the same base (`selp`
/// with an unknown predicate: each lane picks its side, so the lanes are
/// independent draws); `None` otherwise.
pub fn hull(a: &Value, b: &Value, t: Ty) -> Option<Value> {
    let (x, y) = (view(a, t)?.flat(), view(b, t)?.flat());
    if x.base != y.base {
        return None;
    }
    Some(finish(View {
        base: x.base,
        lo: x.lo.min(y.lo),
        hi: x.hi.max(y.hi),
        cong: x.cong.join(y.cong),
        data: x.data || y.data,
        exact: None,
        key: ALL_LANES,
        bits: x.bits.join(y.bits),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::domain::Sym;
    use crate::analysis::transfer::decode;

    fn d(m: &str, ops: &[&str]) -> Alu {
        decode(m, ops).unwrap()
    }
    fn c(v: i64) -> Value {
        Value::constant(v)
    }
    fn data() -> Value {
        Value::Varying { data: true }
    }
    fn range(v: &Value) -> (String, i64, i64, Cong) {
        match v {
            Value::Range(r) => (r.base.to_string(), r.lo, r.hi, r.cong),
            other => panic!("not a range: {other:?}"),
        }
    }

    #[test]
    fn a_histogram_bin_is_bounded() {
        // hist + (b & 255) * 4, b loaded as .u32
        let b = eval(d("and", &["b32"]), &[data(), c(255)]).unwrap();
        assert_eq!(range(&b), ("0".into(), 0, 255, Cong::TOP));
        let off = eval(d("mul", &["wide", "u32"]), &[b, c(4)]).unwrap();
        assert_eq!(range(&off), ("0".into(), 0, 1020, Cong::modulo(4, 0)));
        let hist = Value::poly(Poly::sym(Sym::Param(0)));
        let addr = eval(d("add", &["s64"]), &[hist, off]).unwrap();
        assert_eq!(range(&addr), ("param0".into(), 0, 1020, Cong::modulo(4, 0)));
        assert!(addr.is_data());
    }

    fn tid() -> Value {
        Value::poly(Poly::lanes(std::array::from_fn(|l| l as i64)))
    }
    fn structure(v: &Value) -> (Option<Lanes>, u8, i64, i64, Cong) {
        match v {
            Value::Range(r) => (r.exact.as_deref().copied(), r.key, r.lo, r.hi, r.cong),
            other => panic!("not a range: {other:?}"),
        }
    }

    /// `row = idx[j + (t >> 4)]; table + (row * 16 + (t & 15)) * 16`
    /// (tests/hw/blind5 `cp_async_cg16_gather`): the half-warps share the
    /// loaded row, the lane part `(t & 15) * 16` stays exact.
    #[test]
    fn a_gathered_row_is_shared_by_the_lanes_that_loaded_it() {
        let idx = Value::poly(Poly::sym(Sym::Param(1)));
        let sub: Lanes = std::array::from_fn(|l| 4 * (l as i64 >> 4));
        let addr = idx.clone();
        let addr = match addr {
            Value::Poly(p) => Value::poly(p.add(&Poly::lanes(sub))),
            _ => unreachable!(),
        };
        assert_eq!(address_key(&addr), 0x10);
        let row = loaded_at(&addr, Ty::parse("u32"));
        assert_eq!(structure(&row).1, 0x10);
        assert!(row.is_data());
        let off = eval(d("mul", &["wide", "s32"]), &[row, c(16)]).unwrap();
        let (_, key, lo, hi, cong) = structure(&off);
        assert_eq!(
            (key, lo, hi, cong),
            (0x10, -(1 << 35), (1 << 35) - 16, Cong::modulo(16, 0))
        );
        let col = Value::poly(Poly::lanes(std::array::from_fn(|l| l as i64 & 15)));
        let sum = eval(d("add", &["s64"]), &[off, col]).unwrap();
        let a = eval(d("shl", &["b64"]), &[sum, c(4)]).unwrap();
        let table = Value::poly(Poly::sym(Sym::Param(0)));
        let a = eval(d("add", &["s64"]), &[table, a]).unwrap();
        let (exact, key, _, _, cong) = structure(&a);
        assert_eq!(exact, Some(std::array::from_fn(|l| 16 * (l as i64 & 15))));
        assert_eq!((key, cong), (0x10, Cong::modulo(256, 0)));
        // every lane on its own address: independent lanes, as before
        assert_eq!(loaded_at(&tid(), Ty::parse("u32")), data());
        // a rule that is not linear keeps the classes (Triton's `tok // 2`:
        // `(x + (x >> 31)) >> 1`), and so does a product with a uniform
        // unknown (a row stride)
        let r = loaded_at(&addr, Ty::parse("b32"));
        let sign = eval(d("shr", &["u32"]), &[r.clone(), c(31)]).unwrap();
        assert_eq!(structure(&sign).1, 0x10);
        let half = eval(d("add", &["s32"]), &[r, sign]).unwrap();
        let half = eval(d("shr", &["s32"]), &[half, c(1)]).unwrap();
        assert_eq!(structure(&half).1, 0x10);
        let stride = Value::poly(Poly::sym(Sym::Param(8)));
        let row = eval(d("mul", &["lo", "s32"]), &[half, stride]).unwrap();
        assert_eq!(structure(&row).1, 0x10);
        // an operation without a rule keeps the classes
        let r = loaded_at(&addr, Ty::parse("u32"));
        let x = eval(d("xor", &["b32"]), &[r.clone(), r]).unwrap();
        assert_eq!(structure(&x).1, 0x10);
        // a lane-dependent choice does not
        let r = loaded_at(&addr, Ty::parse("u8"));
        assert_eq!(structure(&r).1, 0x10);
        let h = hull(&r, &c(0), Ty::parse("u32").unwrap()).unwrap();
        assert_eq!(structure(&h).1, ALL_LANES);
    }

    /// `cnt[(d & 7) * 256 + t]` with `d` loaded per lane (tests/hw/blind5
    /// `cub_radix_rank`): the exact `4t` stays beside `x ∈ [0, 7168]`,
    /// `x ≡ 0 (mod 1024)`.
    #[test]
    fn a_random_part_keeps_the_exact_lane_part_beside_it() {
        let b = eval(d("and", &["b32"]), &[data(), c(7)]).unwrap();
        let b = eval(d("shl", &["b32"]), &[b, c(8)]).unwrap();
        let i = eval(d("add", &["s32"]), &[b, tid()]).unwrap();
        let a = eval(d("shl", &["b32"]), &[i, c(2)]).unwrap();
        let (exact, key, lo, hi, cong) = structure(&a);
        assert_eq!(exact, Some(std::array::from_fn(|l| 4 * l as i64)));
        assert_eq!(
            (key, lo, hi, cong),
            (ALL_LANES, 0, 7168, Cong::modulo(1024, 0))
        );
        // a rule that is not linear folds the exact part into the bounds
        let m = eval(d("and", &["b32"]), &[a, c(0xffff)]).unwrap();
        let (exact, _, lo, hi, cong) = structure(&m);
        assert_eq!((exact, lo, hi, cong), (None, 0, 7292, Cong::modulo(4, 0)));
    }

    /// CUB's radix-rank counters (tests/hw/blind7 `cub_radix_sort_tile`,
    /// block_radix_rank.cuh:473): `((d << 9) & 3584) + 4t + ((d >> 2) &
    /// 0x3ffffffe)` with `d = x & 15` keeps the exact `4t` beside an `x`
    /// whose only free bits are 1 and 9..11 (16 values, not the 1,794 of
    /// its bounds and stride).
    #[test]
    fn known_bits_follow_the_radix_digit() {
        let dg = eval(d("and", &["b32"]), &[data(), c(15)]).unwrap();
        let hi = eval(d("shl", &["b32"]), &[dg.clone(), c(9)]).unwrap();
        let hi = eval(d("and", &["b32"]), &[hi, c(3584)]).unwrap();
        let four_t = Value::poly(Poly::lanes(std::array::from_fn(|l| 4 * l as i64)));
        let a = eval(d("add", &["s32"]), &[hi, four_t]).unwrap();
        let lo = eval(d("shr", &["u32"]), &[dg, c(2)]).unwrap();
        let lo = eval(d("and", &["b32"]), &[lo, c(1073741822)]).unwrap();
        let a = eval(d("add", &["s32"]), &[a, lo]).unwrap();
        let Value::Range(r) = &a else {
            panic!("not a range: {a:?}")
        };
        assert_eq!(
            r.exact.as_deref(),
            Some(&std::array::from_fn(|l| 4 * l as i64))
        );
        assert_eq!((r.lo, r.hi, r.cong), (0, 3586, Cong::modulo(2, 0)));
        assert_eq!(r.bits.unknown_mask(), 0xe02);
        assert!(r.to_string().contains("bits 1, 9-11 vary"), "{r}");
        // u8 and u16 loads, `cvt` and `bfe` know their high bits are zero.
        let Value::Range(b) = loaded(Ty::parse("u16")) else {
            panic!()
        };
        assert_eq!(b.bits.zero, !0xffff);
        let f = eval(d("bfe", &["u32"]), &[data(), c(8), c(4)]).unwrap();
        let Value::Range(f) = f else { panic!() };
        assert_eq!(f.bits.unknown_mask(), 0xf);
    }

    /// `or`, `xor` and `bfi` of parts with no common bit are sums, which
    /// An unbounded loaded column shifted up (`shl.b32 c, 2`, at most
    /// `2^32 - 4`) and joined to the lane's `t & 3` by `or.b32` or
    /// `add.s32`: the sum cannot carry past bit 31, so the half-warps keep
    /// their shared unknown and the exact lane part stays apart
    /// (tests/hw/blind18 `bsr_spmv_4x4`, `x[colind[k] * 4 + c]`).
    #[test]
    fn a_shifted_loaded_column_keeps_its_lanes_classes() {
        let half: Lanes = std::array::from_fn(|l| 4 * (l as i64 >> 4));
        let col = loaded_at(&Value::poly(Poly::lanes(half)), Ty::parse("u32"));
        let x = eval(d("shl", &["b32"]), &[col, c(2)]).unwrap();
        let c4: Lanes = std::array::from_fn(|l| l as i64 & 3);
        for (op, ty) in [("or", "b32"), ("add", "s32")] {
            let o = eval(d(op, &[ty]), &[x.clone(), Value::poly(Poly::lanes(c4))]).unwrap();
            let (exact, key, _, _, cong) = structure(&o);
            assert_eq!((exact, key), (Some(c4), 0x10), "{op}");
            assert_eq!(cong, Cong::modulo(4, 0), "{op}");
        }
    }

    /// keep the exact lane part and the lanes' classes (tests/hw/blind
    /// `gather_rows_f4`: `bfi r, q, 4, 12` with `q = t & 15`).
    #[test]
    fn disjoint_bits_make_a_sum() {
        let x = eval(d("and", &["b32"]), &[data(), c(7)]).unwrap();
        let x = eval(d("shl", &["b32"]), &[x, c(7)]).unwrap();
        let four_l = Value::poly(Poly::lanes(std::array::from_fn(|l| 4 * l as i64)));
        for op in ["or", "xor"] {
            let o = eval(d(op, &["b32"]), &[x.clone(), four_l.clone()]).unwrap();
            let (exact, key, lo, hi, cong) = structure(&o);
            assert_eq!(exact, Some(std::array::from_fn(|l| 4 * l as i64)), "{op}");
            assert_eq!(
                (key, lo, hi, cong),
                (ALL_LANES, 0, 896, Cong::modulo(128, 0))
            );
        }
        // Overlapping bits: no sum, the bits' bounds.
        let o = eval(d("or", &["b32"]), &[x.clone(), c(0x80)]).unwrap();
        assert_eq!(structure(&o).2..=structure(&o).3, 128..=896);
        // bfi of a 12-bit row above the lanes' 4-bit column.
        let half: Lanes = std::array::from_fn(|l| l as i64 >> 4);
        let row = loaded_at(&Value::poly(Poly::lanes(half)), Ty::parse("u32"));
        let row = eval(d("and", &["b32"]), &[row, c(4095)]).unwrap();
        let q = Value::poly(Poly::lanes(std::array::from_fn(|l| l as i64 & 15)));
        let a = eval(d("bfi", &["b32"]), &[row, q, c(4), c(12)]).unwrap();
        let (exact, key, lo, hi, cong) = structure(&a);
        assert_eq!(exact, Some(std::array::from_fn(|l| l as i64 & 15)));
        assert_eq!((key, lo, hi, cong), (0x10, 0, 65520, Cong::modulo(16, 0)));
        // A field that overlaps the base's bits: what the bits give.
        let b = eval(d("bfi", &["b32"]), &[data(), c(0xff), c(4), c(4)]).unwrap();
        let Value::Range(b) = b else { panic!() };
        assert_eq!((b.lo, b.hi, b.bits.unknown_mask()), (15, 255, 0xf0));
    }

    #[test]
    fn masks_remainders_clamps_and_narrow_types() {
        // a high mask keeps no bound of an unbounded value
        assert_eq!(eval(d("and", &["b64"]), &[data(), c(-16)]), Some(data()));
        // ... but of a bounded one, both
        let x = eval(d("and", &["b32"]), &[data(), c(1023)]).unwrap();
        let y = eval(d("and", &["b32"]), &[x, c(-16)]).unwrap();
        assert_eq!(range(&y), ("0".into(), 0, 1008, Cong::modulo(16, 0)));
        let r = eval(d("rem", &["u32"]), &[data(), c(1000)]).unwrap();
        assert_eq!(range(&r).1..=range(&r).2, 0..=999);
        let r = eval(d("rem", &["s32"]), &[data(), c(10)]).unwrap();
        assert_eq!((range(&r).1, range(&r).2), (-9, 9));
        // max(min(x, 255), 0) on .s32
        let m = eval(d("min", &["s32"]), &[data(), c(255)]).unwrap();
        assert_eq!((range(&m).1, range(&m).2), (i32::MIN as i64, 255));
        let m = eval(d("max", &["s32"]), &[m, c(0)]).unwrap();
        assert_eq!((range(&m).1, range(&m).2), (0, 255));
        // h >> 24 on .u32 is a byte
        let s = eval(d("shr", &["u32"]), &[data(), c(24)]).unwrap();
        assert_eq!((range(&s).1, range(&s).2), (0, 255));
        // a hash that wraps: the whole .s32 range, which is no bound at all
        let h = eval(d("mul", &["lo", "s32"]), &[s.clone(), c(-1640531535)]).unwrap();
        assert_eq!(h, data());
        let b = eval(d("shr", &["u32"]), &[h, c(24)]).unwrap();
        assert_eq!((range(&b).1, range(&b).2), (0, 255));
        assert_eq!(loaded(Ty::parse("u8")), finish(field(8, false, true)));
        assert_eq!(
            range(&loaded(Ty::parse("s16"))).1..=range(&loaded(Ty::parse("s16"))).2,
            -32768..=32767
        );
        assert_eq!(loaded(Ty::parse("u32")), data());
        let w = eval(d("cvt", &["u32", "u8"]), &[data()]).unwrap();
        assert_eq!(range(&w).2, 255);
        let f = eval(d("bfe", &["u32"]), &[data(), c(3), c(5)]).unwrap();
        assert_eq!((range(&f).1, range(&f).2), (0, 31));
        let p = eval(d("popc", &["b32"]), &[data()]).unwrap();
        assert_eq!(range(&p).2, 32);
        // unrelated operations give up
        assert_eq!(eval(d("xor", &["b32"]), &[data(), data()]), None);
    }
}
