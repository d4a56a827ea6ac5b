//! Exact one-lane semantics of the floating-point instructions
//! ([`FloatOp`]): IEEE 754 binary32 and binary64 arithmetic with the PTX
//! ISA's rounding modes, `.ftz` and `.sat`, conversions, comparisons.
//!
//! # Values
//!
//! A float lives in a register as its bit pattern, in the canonical form of
//! its type ([`Ty::read`]: an `f32` sign-extended from 32 bits, an `f64` as
//! 64 bits), as `mov.f32` and a `0f…` immediate put it there. Every function
//! here reads its operands from that form and writes its result in it;
//! `None` is "not determined".
//!
//! # Exactness
//!
//! Rust's `f32`/`f64` operators, `mul_add`, `sqrt` and `as` conversions are
//! IEEE 754's round-to-nearest-even operations (Rust documents them as
//! such; `mul_add` is one fused rounding), so `.rn` is computed by them. The
//! directed roundings (`.rz`, `.rm`, `.rp`) are derived from the
//! round-to-nearest result `n` and the sign of the exact error `x − n`,
//! computed exactly: the directed result is `n` or its neighbour on the
//! side of the error ([`directed`]). The error's sign comes from an
//! error-free transformation:
//!
//! - `f32` operations are computed in `f64`, where a product of two `f32`
//!   is exact and a sum's rounding error is exact by `TwoSum` (Knuth), so
//!   `x = w + e` exactly with `w`, `e` in `f64`; `n` is `x` rounded to
//!   `f32` with the midpoint case decided by `e` (a double rounding of `w`
//!   alone could be off for `fma`) — [`from_wide`];
//! - a quotient's error has the sign of the remainder `a − n·b` and a square
//!   root's of `a − n²`, exact in `f64` for `f32` operands (products of two
//!   `f32` are exact there; `fma` rounds the difference once and keeps its
//!   sign, no `f32` difference underflowing in `f64`);
//! - `f64` sums use `TwoSum`; `f64` products, quotients and square roots
//!   use the `fma` remainder, which is exact when no operand or result is
//!   near the bottom of the exponent range (`|x| ≥ 2^-960`, otherwise the
//!   directed result is not evaluated); a directed `f64` `fma` is not
//!   evaluated (its error needs a third term).
//!
//! An exact zero sum of operands of opposite signs is `+0` except under
//! `.rm`, where it is `−0` (IEEE 754, 6.3).
//!
//! # NaN, `.ftz`, `.sat`
//!
//! A NaN result is not evaluated (`None`): the ISA fixes the payload of a
//! NaN result only for some instructions, and a NaN never becomes an index.
//! Comparisons, `testp`, `min`/`max` with one NaN operand (the other
//! operand) and conversions of NaN to an integer (`0`, PTX's rule) are
//! exact. `.ftz` flushes `f32` subnormal operands and results to a zero of
//! the same sign; a result whose magnitude is exactly the smallest normal
//! is not evaluated under `.ftz` (whether the hardware flushes before or
//! after rounding is not settled here). `.sat` clamps to `[+0.0, 1.0]`, NaN
//! to `+0.0`; a `−0.0` result under `.sat` is not evaluated. `min`/`max` of
//! `+0` and `−0` are not evaluated (the order of signed zeros is not
//! settled here).
//!
//! Float to integer conversions round to an integral value by the mode,
//! then saturate to the destination's range, NaN giving 0 (PTX ISA,
//! `cvt`); integer to float conversions round by the mode.
//!
//! # Contraction
//!
//! An `add`/`sub` without a rounding modifier whose operand may come from
//! a `mul` without one may be fused into an `fma` by the code generator
//! (PTX ISA, `add`/`mul`): lowering marks it ([`FMode::fusable`]). The
//! two results differ in general, so an `f32` one is evaluated only where
//! the fused result cannot differ from the unfused one (the exact product
//! lies within half a spacing of the rounded one: `contracted32`), and
//! an `f64` one not at all.

use crate::ir::alu::{AluOp2, Cmp, FCmp, FMode, FloatOp, Round, TestOp, Ty};

/// One lane's result of `op` on `args` (canonical bit patterns, or integers
/// for a conversion's integer side); `ty` is the instruction's type
/// (`Alu::ty`). Predicate results are 0 or 1.
pub fn eval(op: FloatOp, m: FMode, ty: Ty, args: &[i64]) -> Option<i64> {
    let n = args.len();
    match op {
        FloatOp::Cmp(c, comb) => {
            if n != 2 + comb.is_some() as usize {
                return None;
            }
            let b = compare(c, ty, args[0], args[1], m.ftz)?;
            Some(combine(b, comb, args.get(2).copied()) as i64)
        }
        FloatOp::Testp(t) => {
            if n != 1 {
                return None;
            }
            Some(test(t, ty, args[0])? as i64)
        }
        FloatOp::Cvt { src, integral } => {
            if n != 1 {
                return None;
            }
            convert(src, ty, integral, m, args[0])
        }
        _ => match ty.bits {
            32 if ty.float => arith32(op, m, args),
            64 if ty.float => arith64(op, m, args),
            _ => None,
        },
    }
}

/// The second destination of `setp p|q`: `(!(a cmp b)) op c`.
pub fn second(op: FloatOp, m: FMode, ty: Ty, args: &[i64]) -> Option<i64> {
    match op {
        FloatOp::Cmp(c, comb) => {
            if args.len() != 2 + comb.is_some() as usize {
                return None;
            }
            let b = compare(c, ty, args[0], args[1], m.ftz)?;
            Some(combine(!b, comb, args.get(2).copied()) as i64)
        }
        _ => None,
    }
}

fn combine(b: bool, comb: Option<AluOp2>, c: Option<i64>) -> bool {
    let q = c.unwrap_or(0) != 0;
    match comb {
        None => b,
        Some(AluOp2::And) => b && q,
        Some(AluOp2::Or) => b || q,
        Some(AluOp2::Xor) => b ^ q,
    }
}

/// An operand as an `f64` (exact for an `f32`), `.ftz` applied to `f32`.
fn read(ty: Ty, v: i64, ftz: bool) -> Option<f64> {
    match ty.bits {
        32 => Some(f64::from(in32(v, ftz))),
        64 => Some(f64::from_bits(v as u64)),
        _ => None,
    }
}

fn in32(v: i64, ftz: bool) -> f32 {
    let x = f32::from_bits(v as u32);
    if ftz && x.is_subnormal() {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// One lane's `setp` comparison of floats (PTX ISA, "Floating Point
/// Comparisons").
pub fn compare(c: FCmp, ty: Ty, x: i64, y: i64, ftz: bool) -> Option<bool> {
    if !ty.float {
        return None;
    }
    let (a, b) = (read(ty, x, ftz)?, read(ty, y, ftz)?);
    let nan = a.is_nan() || b.is_nan();
    // Rust's comparison operators are IEEE 754's: `-0 == 0`, false with NaN.
    let base = |c: Cmp| match c {
        Cmp::Eq => a == b,
        Cmp::Ne => a != b && !nan,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
    };
    Some(match c {
        FCmp::Ordered(c) => base(c),
        FCmp::Unordered(c) => nan || base(c),
        FCmp::Num => !nan,
        FCmp::Nan => nan,
    })
}

fn test(t: TestOp, ty: Ty, v: i64) -> Option<bool> {
    let x = read(ty, v, false)?;
    let subnormal = match ty.bits {
        32 => f32::from_bits(v as u32).is_subnormal(),
        _ => x.is_subnormal(),
    };
    Some(match t {
        TestOp::Finite => x.is_finite(),
        TestOp::Infinite => x.is_infinite(),
        TestOp::Number => !x.is_nan(),
        TestOp::NotANumber => x.is_nan(),
        TestOp::Normal => x.is_finite() && x != 0.0 && !subnormal,
        TestOp::Subnormal => subnormal,
    })
}

/// The sign of `d` as -1, 0, 1 (0 for ±0 and NaN).
fn sign(d: f64) -> i32 {
    if d > 0.0 {
        1
    } else if d < 0.0 {
        -1
    } else {
        0
    }
}

/// What the width-independent steps below (directed rounding, `.sat`, the
/// sign operations) need of `f32` and `f64`, so that each is written once
/// for both widths.
trait Float: Copy + PartialOrd + std::ops::Neg<Output = Self> {
    const ZERO: Self;
    const ONE: Self;
    fn is_nan(self) -> bool;
    fn is_sign_negative(self) -> bool;
    fn abs(self) -> Self;
    fn copysign(self, sign: Self) -> Self;
    fn clamp(self, min: Self, max: Self) -> Self;
    fn next_up(self) -> Self;
    fn next_down(self) -> Self;
}

/// [`Float`] for the primitive float types: each method is the type's own
/// method of that name (a macro, as the two impls differ only in the type).
macro_rules! impl_float {
    ($($t:ty),*) => {$(
        impl Float for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn is_sign_negative(self) -> bool {
                <$t>::is_sign_negative(self)
            }
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            fn copysign(self, sign: Self) -> Self {
                <$t>::copysign(self, sign)
            }
            fn clamp(self, min: Self, max: Self) -> Self {
                <$t>::clamp(self, min, max)
            }
            fn next_up(self) -> Self {
                <$t>::next_up(self)
            }
            fn next_down(self) -> Self {
                <$t>::next_down(self)
            }
        }
    )*};
}
impl_float!(f32, f64);

/// The value rounded to `Round::Nearest` is `n`; the exact value lies on
/// side `s` of it (-1 below, 0 equal, 1 above): the result under `r`.
fn directed<F: Float>(n: F, s: i32, r: Round) -> F {
    match (r, s) {
        (_, 0) | (Round::Nearest, _) => n,
        (Round::Down, -1) => n.next_down(),
        (Round::Up, 1) => n.next_up(),
        (Round::Zero, _) if (n > F::ZERO && s < 0) || (n < F::ZERO && s > 0) => {
            if s < 0 {
                n.next_down()
            } else {
                n.next_up()
            }
        }
        _ => n,
    }
}

/// The exact value `w + e` (`|e|` at most half an ulp of `w`, as `TwoSum`
/// gives it) rounded to `f32` under `r`.
fn from_wide(w: f64, e: f64, r: Round) -> f32 {
    let n0 = w as f32;
    // `w - n0` is exact: both are multiples of `w`'s ulp at `f32` scale,
    // within half an `f32` ulp of each other (or `n0` is infinite).
    let diff = w - f64::from(n0);
    let s0 = if diff != 0.0 { sign(diff) } else { sign(e) };
    // `w` on a midpoint of two `f32`s and `e` beyond it: the nearest is the
    // other neighbour.
    let n = if diff != 0.0 && sign(e) == sign(diff) && n0.is_finite() {
        let other = if diff > 0.0 {
            n0.next_up()
        } else {
            n0.next_down()
        };
        if f64::from(other) - w == diff {
            other
        } else {
            n0
        }
    } else if n0.is_infinite() && w.is_finite() && e != 0.0 && sign(e) == -sign(w) {
        // Exactly at the overflow threshold in `w`, pulled back by `e`:
        // below the midpoint between the largest finite value and 2^128.
        let threshold = f64::from(f32::MAX) + f64::from(f32::MAX - f32::MAX.next_down()) / 2.0;
        if w.abs() == threshold {
            f32::MAX.copysign(n0)
        } else {
            n0
        }
    } else {
        n0
    };
    let s = if n == n0 {
        s0
    } else {
        // `n` moved past `w`: the exact value is now on the other side.
        -s0
    };
    directed(n, s, r)
}

/// `TwoSum`: `a + b = s + e` exactly (no overflow).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// The sign of an exact zero sum `p + c` of two addends (IEEE 754, 6.3):
/// the common sign of two zeros of one sign, else `+0`, or `-0` under `.rm`.
fn zero_sum(p: f64, c: f64, r: Round) -> f64 {
    if p == 0.0 && c == 0.0 && p.is_sign_negative() == c.is_sign_negative() {
        p
    } else if r == Round::Down {
        -0.0
    } else {
        0.0
    }
}

/// A result: `.sat`, `.ftz`, NaN, canonical `f32` bits.
fn out32(x: f32, m: FMode) -> Option<i64> {
    let mut x = x;
    if m.ftz && x.is_subnormal() {
        x = f32::from_bits(x.to_bits() & 0x8000_0000);
    } else if m.ftz && x.abs() == f32::MIN_POSITIVE {
        return None;
    }
    let x = saturate(x, m)?;
    Some(i64::from(x.to_bits() as i32))
}

fn out64(x: f64, m: FMode) -> Option<i64> {
    Some(saturate(x, m)?.to_bits() as i64)
}

/// `.sat` (a NaN to 0, clamped to [0, 1]), then no NaN result: the last
/// step of [`out32`] and [`out64`]. A `-0.0` under `.sat` is not modelled.
fn saturate<F: Float>(x: F, m: FMode) -> Option<F> {
    let mut x = x;
    if m.sat {
        if x.is_nan() {
            x = F::ZERO;
        } else if x == F::ZERO && x.is_sign_negative() {
            return None;
        } else {
            x = x.clamp(F::ZERO, F::ONE);
        }
    }
    if x.is_nan() {
        return None;
    }
    Some(x)
}

/// `neg`, `abs`, `copysign`, `min`, `max`, the same at either width: `None`
/// (not modelled) for `neg`/`abs` of a NaN, `copysign` onto a NaN, and
/// `min`/`max` of two zeros of opposite signs.
fn sign_or_order<F: Float>(op: FloatOp, a: F, b: F) -> Option<F> {
    match op {
        FloatOp::Neg if !a.is_nan() => Some(-a),
        FloatOp::Abs if !a.is_nan() => Some(a.abs()),
        FloatOp::Copysign if !b.is_nan() => Some(b.copysign(a)),
        FloatOp::Min(nan) | FloatOp::Max(nan) => {
            if a == F::ZERO && b == F::ZERO && a.is_sign_negative() != b.is_sign_negative() {
                return None;
            }
            min_max(a, b, matches!(op, FloatOp::Max(_)), nan, F::is_nan)
        }
        _ => None,
    }
}

/// `min`/`max` (PTX ISA: with one NaN operand the other; with `.NaN`, NaN).
fn min_max<T: PartialOrd + Copy>(
    a: T,
    b: T,
    max: bool,
    nan: bool,
    is_nan: fn(T) -> bool,
) -> Option<T> {
    match (is_nan(a), is_nan(b)) {
        (true, true) => None,
        (true, false) | (false, true) if nan => None,
        (true, false) => Some(b),
        (false, true) => Some(a),
        _ => Some(if (a < b) != max { a } else { b }),
    }
}

fn arith32(op: FloatOp, m: FMode, args: &[i64]) -> Option<i64> {
    let arity = match op {
        FloatOp::Fma => 3,
        FloatOp::Neg | FloatOp::Abs | FloatOp::Rcp | FloatOp::Sqrt => 1,
        _ => 2,
    };
    if args.len() != arity {
        return None;
    }
    if m.fusable {
        return contracted32(op, m, args);
    }
    let a = in32(args[0], m.ftz);
    let b = args.get(1).map_or(0.0, |&v| in32(v, m.ftz));
    let r = m.round;
    let (a64, b64) = (f64::from(a), f64::from(b));
    let x = match op {
        FloatOp::Add | FloatOp::Sub => {
            let b64 = if op == FloatOp::Sub { -b64 } else { b64 };
            let (w, e) = two_sum(a64, b64);
            if w == 0.0 && e == 0.0 {
                zero_sum(a64, b64, r) as f32
            } else {
                from_wide(w, e, r)
            }
        }
        // The product of two `f32` is exact in `f64`.
        FloatOp::Mul => from_wide(a64 * b64, 0.0, r),
        FloatOp::Fma => {
            let c64 = f64::from(in32(args[2], m.ftz));
            let p = a64 * b64;
            let (w, e) = two_sum(p, c64);
            if w == 0.0 && e == 0.0 {
                zero_sum(p, c64, r) as f32
            } else {
                from_wide(w, e, r)
            }
        }
        FloatOp::Div | FloatOp::Rcp => {
            let (num, den) = if op == FloatOp::Rcp {
                (1.0f32, a)
            } else {
                (a, b)
            };
            let n = num / den;
            let s = if n.is_infinite() && num.is_finite() && den.is_finite() && den != 0.0 {
                // overflow
                -sign(f64::from(n))
            } else if n.is_finite() && den.is_finite() && den != 0.0 && num.is_finite() {
                // `num - n·den`, the product exact in f64, one rounding.
                sign(f64::from(-n).mul_add(f64::from(den), f64::from(num))) * sign(f64::from(den))
            } else {
                0
            };
            directed(n, s, r)
        }
        FloatOp::Sqrt => {
            let n = a.sqrt();
            let s = if n.is_finite() && n > 0.0 {
                sign(f64::from(-n).mul_add(f64::from(n), a64))
            } else {
                0
            };
            directed(n, s, r)
        }
        FloatOp::Neg | FloatOp::Abs | FloatOp::Copysign | FloatOp::Min(_) | FloatOp::Max(_) => {
            sign_or_order(op, a, b)?
        }
        FloatOp::Cvt { .. } | FloatOp::Cmp(..) | FloatOp::Testp(_) => return None,
    };
    out32(x, m)
}

/// An `f32` `add`/`sub` that the code generator may fuse with the `mul`
/// that wrote an operand (`FMode::fusable`): its value when fusing cannot
/// change it, else not evaluated. Fused, the operand is the exact product,
/// within half a spacing of the rounded one that the unfused add reads;
/// rounding is monotonic, so when the sums at both ends of that interval,
/// for either operand, round to the unfused result, every fused result is
/// that value (`2 x` of a product `x`: sincosf's range test on a doubled
/// angle, `tests/hw/blind18` `fft64_radix4_cols`). Not under `.ftz` or
/// `.sat`, nor near infinity or NaN; a zero product is taken as exact,
/// and a zero sum's sign as the unfused one.
fn contracted32(op: FloatOp, m: FMode, args: &[i64]) -> Option<i64> {
    if !matches!(op, FloatOp::Add | FloatOp::Sub) || m.ftz || m.sat {
        return None;
    }
    let plain = FMode {
        fusable: false,
        ..m
    };
    let unfused = arith32(op, plain, args)?;
    let a = f32::from_bits(args[0] as u32);
    let b = f32::from_bits(args[1] as u32);
    let b = if op == FloatOp::Sub { -b } else { b };
    // Half the larger spacing next to |x| (an f64 holds x ± it exactly);
    // 0 for a zero product, taken as exact (a product of finite values
    // that rounds to zero is one of a zero factor, unless it underflowed,
    // which is not modelled).
    let half = |x: f32| -> Option<f64> {
        let ax = x.abs();
        if x == 0.0 {
            Some(0.0)
        } else if x.is_subnormal() {
            Some(f64::from(f32::from_bits(1)) / 2.0)
        } else {
            (x.is_normal() && ax < f32::MAX)
                .then(|| (f64::from(f32::from_bits(ax.to_bits() + 1)) - f64::from(ax)) / 2.0)
        }
    };
    // Only the operands that may be a product move (both where not said).
    let which = if m.fused_operands & 3 == 0 {
        3
    } else {
        m.fused_operands & 3
    };
    let (fa, fb) = (f64::from(a), f64::from(b));
    let mut ends: Vec<(f64, f64)> = Vec::with_capacity(4);
    if which & 1 != 0 {
        let h = half(a)?;
        ends.extend([(fa - h, fb), (fa + h, fb)]);
    }
    if which & 2 != 0 {
        let h = half(b)?;
        ends.extend([(fa, fb - h), (fa, fb + h)]);
    }
    for (x, y) in ends {
        let (w, e) = two_sum(x, y);
        if w == 0.0 && e == 0.0 {
            // An exact zero either way: the unfused result (the sign of a
            // zero sum is not modelled).
            if f32::from_bits(unfused as u32) == 0.0 {
                continue;
            }
            return None;
        }
        let r = out32(from_wide(w, e, m.round), plain)?;
        if r != unfused {
            return None;
        }
    }
    Some(unfused)
}

/// `|x|` far enough from the bottom of the `f64` range for an `fma`
/// remainder to be exact.
fn roomy(x: f64) -> bool {
    x.is_finite() && (x == 0.0 || x.abs() >= f64::from_bits(0x03f0_0000_0000_0000))
}

fn arith64(op: FloatOp, m: FMode, args: &[i64]) -> Option<i64> {
    let arity = match op {
        FloatOp::Fma => 3,
        FloatOp::Neg | FloatOp::Abs | FloatOp::Rcp | FloatOp::Sqrt => 1,
        _ => 2,
    };
    if args.len() != arity || m.fusable || m.ftz {
        return None;
    }
    let a = f64::from_bits(args[0] as u64);
    let b = args.get(1).map_or(0.0, |&v| f64::from_bits(v as u64));
    let r = m.round;
    let near = r == Round::Nearest;
    let x = match op {
        FloatOp::Add | FloatOp::Sub => {
            let b = if op == FloatOp::Sub { -b } else { b };
            let (w, e) = two_sum(a, b);
            if w == 0.0 && e == 0.0 {
                zero_sum(a, b, r)
            } else if w.is_infinite() && a.is_finite() && b.is_finite() {
                directed(w, -sign(w), r)
            } else {
                directed(w, if e.is_finite() { sign(e) } else { 0 }, r)
            }
        }
        FloatOp::Mul => {
            let n = a * b;
            if near {
                n
            } else if n.is_infinite() && a.is_finite() && b.is_finite() {
                directed(n, -sign(n), r)
            } else if roomy(n) && roomy(a) && roomy(b) {
                directed(n, sign(a.mul_add(b, -n)), r)
            } else {
                return None;
            }
        }
        // `mul_add` is IEEE's fused multiply-add (zero signs included).
        FloatOp::Fma if near => a.mul_add(b, f64::from_bits(args[2] as u64)),
        FloatOp::Fma => return None,
        FloatOp::Div | FloatOp::Rcp => {
            let (num, den) = if op == FloatOp::Rcp { (1.0, a) } else { (a, b) };
            let n = num / den;
            if near {
                n
            } else if n.is_infinite() && num.is_finite() && den.is_finite() && den != 0.0 {
                directed(n, -sign(n), r)
            } else if roomy(n) && roomy(num) && roomy(den) && n != 0.0 {
                directed(n, sign((-n).mul_add(den, num)) * sign(den), r)
            } else if num == 0.0 || den.is_infinite() || n.is_nan() {
                n
            } else {
                return None;
            }
        }
        FloatOp::Sqrt => {
            let n = a.sqrt();
            if near || n == 0.0 || !n.is_finite() {
                n
            } else if roomy(n) && roomy(a) {
                directed(n, sign((-n).mul_add(n, a)), r)
            } else {
                return None;
            }
        }
        FloatOp::Neg | FloatOp::Abs | FloatOp::Copysign | FloatOp::Min(_) | FloatOp::Max(_) => {
            sign_or_order(op, a, b)?
        }
        FloatOp::Cvt { .. } | FloatOp::Cmp(..) | FloatOp::Testp(_) => return None,
    };
    out64(x, m)
}

/// The integral value of `x` under `r` (float to integer, `cvt.rni.f32.f32`).
fn integral(x: f64, r: Round) -> f64 {
    match r {
        Round::Nearest => x.round_ties_even(),
        Round::Zero => x.trunc(),
        Round::Down => x.floor(),
        Round::Up => x.ceil(),
    }
}

/// The range of an integer type.
fn int_range(t: Ty) -> (i128, i128) {
    let b = t.bits.min(64);
    if t.signed {
        (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
    } else {
        (0, (1i128 << b) - 1)
    }
}

fn convert(src: Ty, dst: Ty, is_integral: bool, m: FMode, v: i64) -> Option<i64> {
    let r = m.round;
    match (src.float, dst.float) {
        // Float to integer: round to an integral value, saturate, NaN → 0.
        (true, false) => {
            if !is_integral || !matches!(dst.bits, 8 | 16 | 32 | 64) {
                return None;
            }
            let x = read(src, v, m.ftz)?;
            if x.is_nan() {
                return Some(0);
            }
            let (lo, hi) = int_range(dst);
            // `as i128` saturates, and every integral `f64` below 2^127 is exact.
            let i = (integral(x, r) as i128).clamp(lo, hi);
            Some(dst.read(i as i64))
        }
        // Integer to float: round the integer to the format.
        (false, true) => {
            if !matches!(src.bits, 8 | 16 | 32 | 64) {
                return None;
            }
            let i: i128 = if src.signed {
                i128::from(src.read(v))
            } else {
                i128::from(src.read(v) as u64 & mask(src.bits))
            };
            match dst.bits {
                32 => {
                    let n = i as f32;
                    let s = (i - n as i128).signum() as i32;
                    out32(directed(n, s, r), m)
                }
                64 => {
                    let n = i as f64;
                    let s = (i - n as i128).signum() as i32;
                    out64(directed(n, s, r), m)
                }
                _ => None,
            }
        }
        (true, true) => {
            let x = read(src, v, m.ftz)?;
            if x.is_nan() {
                return None;
            }
            let x = if is_integral { integral(x, r) } else { x };
            match (src.bits, dst.bits) {
                (_, 64) => out64(x, m),
                // f32 → f32 (exact), f64 → f32 (rounded).
                (_, 32) => {
                    let n = x as f32;
                    let s = if n.is_infinite() && x.is_finite() {
                        -sign(x)
                    } else {
                        sign(x - f64::from(n))
                    };
                    out32(directed(n, s, r), m)
                }
                _ => None,
            }
        }
        (false, false) => None,
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::alu::{decode, AluOp};

    /// Evaluates `opcode.mods` on `args`.
    fn ev(opcode: &str, mods: &[&str], args: &[i64]) -> Option<i64> {
        let alu = decode(opcode, mods).expect("decoded");
        let AluOp::Float(op, m) = alu.op else {
            panic!("not a float op: {alu:?}");
        };
        eval(op, m, alu.ty, args)
    }
    fn f(x: f32) -> i64 {
        i64::from(x.to_bits() as i32)
    }
    fn d(x: f64) -> i64 {
        x.to_bits() as i64
    }
    fn tof(v: Option<i64>) -> Option<f32> {
        v.map(|v| f32::from_bits(v as u32))
    }

    #[test]
    fn conversions_round_halfway_integers_by_mode() {
        // 2.5 and -2.5 lie exactly between two integers.
        let cases: [(&str, f32, i64); 8] = [
            ("rni", 2.5, 2), // ties to even
            ("rni", -2.5, -2),
            ("rzi", 2.5, 2),
            ("rzi", -2.5, -2),
            ("rmi", 2.5, 2),
            ("rmi", -2.5, -3),
            ("rpi", 2.5, 3),
            ("rpi", -2.5, -2),
        ];
        for (mode, x, want) in cases {
            assert_eq!(
                ev("cvt", &[mode, "s32", "f32"], &[f(x)]),
                Some(want),
                "{mode} {x}"
            );
        }
        assert_eq!(ev("cvt", &["rni", "s32", "f32"], &[f(3.5)]), Some(4));
        // saturation and NaN → 0
        assert_eq!(
            ev("cvt", &["rzi", "s32", "f32"], &[f(3e9)]),
            Some(i64::from(i32::MAX))
        );
        assert_eq!(ev("cvt", &["rzi", "u32", "f32"], &[f(-5.0)]), Some(0));
        assert_eq!(ev("cvt", &["rzi", "s8", "f32"], &[f(-1000.0)]), Some(-128));
        assert_eq!(ev("cvt", &["rzi", "s32", "f32"], &[f(f32::NAN)]), Some(0));
        // u32 destination keeps its canonical (zero-extended) form.
        assert_eq!(
            ev("cvt", &["rzi", "u32", "f32"], &[f(4e9)]),
            Some(4_000_000_000)
        );
        // without an integral rounding modifier: not evaluated
        assert!(decode("cvt", &["rn", "s32", "f32"]).is_none());
        // f64 source
        assert_eq!(ev("cvt", &["rmi", "s64", "f64"], &[d(-0.5)]), Some(-1));
    }

    #[test]
    fn integer_to_float_rounds_by_mode() {
        // 2^24 + 1 lies exactly between the f32 values 2^24 and 2^24 + 2.
        let x = (1i64 << 24) + 1;
        let t = |m| tof(ev("cvt", &[m, "f32", "s32"], &[x]));
        assert_eq!(t("rn"), Some(16_777_216.0)); // ties to even
        assert_eq!(t("rz"), Some(16_777_216.0));
        assert_eq!(t("rm"), Some(16_777_216.0));
        assert_eq!(t("rp"), Some(16_777_218.0));
        // negative: -(2^24 + 3) between -16777218 and -16777220; even is -16777220
        let y = -((1i64 << 24) + 3);
        let u = |m| tof(ev("cvt", &[m, "f32", "s32"], &[y]));
        assert_eq!(u("rn"), Some(-16_777_220.0));
        assert_eq!(u("rz"), Some(-16_777_218.0));
        assert_eq!(u("rm"), Some(-16_777_220.0));
        assert_eq!(u("rp"), Some(-16_777_218.0));
        // u32 reads its source unsigned: 0xffffffff = 4294967295 → 2^32 (rn)
        assert_eq!(
            tof(ev("cvt", &["rn", "f32", "u32"], &[-1])),
            Some(4_294_967_296.0)
        );
        assert_eq!(
            tof(ev("cvt", &["rz", "f32", "u32"], &[-1])),
            Some(4_294_967_040.0)
        );
        // without a rounding modifier: not evaluated
        assert!(decode("cvt", &["f32", "s32"]).is_none());
    }

    #[test]
    fn float_conversions_between_formats() {
        // 1 + 2^-24 (f64) lies between the f32 values 1 and 1 + 2^-23.
        let x = 1.0 + f64::powi(2.0, -24);
        let t = |m| tof(ev("cvt", &[m, "f32", "f64"], &[d(x)]));
        assert_eq!(t("rn"), Some(1.0));
        assert_eq!(t("rp"), Some(1.0 + f32::EPSILON));
        // overflow: rz gives the largest finite value, rn infinity
        assert_eq!(
            tof(ev("cvt", &["rz", "f32", "f64"], &[d(1e300)])),
            Some(f32::MAX)
        );
        assert_eq!(
            tof(ev("cvt", &["rn", "f32", "f64"], &[d(1e300)])),
            Some(f32::INFINITY)
        );
        // f32 → f64 is exact; .ftz flushes a subnormal source
        let sub = f32::from_bits(1);
        assert_eq!(
            ev("cvt", &["f64", "f32"], &[f(sub)]),
            Some(d(f64::from(sub)))
        );
        assert_eq!(ev("cvt", &["ftz", "f64", "f32"], &[f(sub)]), Some(d(0.0)));
        assert_eq!(ev("cvt", &["ftz", "f64", "f32"], &[f(-sub)]), Some(d(-0.0)));
        // rounding to an integral value in the float format
        assert_eq!(
            tof(ev("cvt", &["rmi", "f32", "f32"], &[f(-1.5)])),
            Some(-2.0)
        );
        assert_eq!(
            tof(ev("cvt", &["rzi", "f32", "f32"], &[f(-1.5)])),
            Some(-1.0)
        );
        // 16-bit floats are not evaluated
        assert!(decode("cvt", &["rn", "f16", "f32"]).is_none());
        assert!(decode("cvt", &["f32", "bf16"]).is_none());
    }

    #[test]
    fn arithmetic_rounding_modes() {
        // 1 + 2^-24: exactly halfway between 1 and 1 + 2^-23.
        let h = f32::powi(2.0, -24);
        let add = |m: &[&str]| tof(ev("add", m, &[f(1.0), f(h)]));
        assert_eq!(add(&["rn", "f32"]), Some(1.0));
        assert_eq!(add(&["f32"]), Some(1.0));
        assert_eq!(add(&["rz", "f32"]), Some(1.0));
        assert_eq!(add(&["rm", "f32"]), Some(1.0));
        assert_eq!(add(&["rp", "f32"]), Some(1.0 + f32::EPSILON));
        // -1 - 2^-24: toward zero and up give -1, down gives -(1 + 2^-23)
        let sub = |m: &str| tof(ev("sub", &[m, "f32"], &[f(-1.0), f(h)]));
        assert_eq!(sub("rz"), Some(-1.0));
        assert_eq!(sub("rp"), Some(-1.0));
        assert_eq!(sub("rm"), Some(-1.0 - f32::EPSILON));
        // 1/3 = 1.0101…b × 2^-2: 23 fraction bits 0x2aaaaa, the rest 2/3 of
        // an ulp, so nearest rounds up (0x3eaaaaab) and rz/rm truncate.
        let third = |m: &str| ev("div", &[m, "f32"], &[f(1.0), f(3.0)]);
        assert_eq!(third("rn"), Some(0x3eaa_aaab));
        assert_eq!(third("rp"), Some(0x3eaa_aaab));
        assert_eq!(third("rz"), Some(0x3eaa_aaaa));
        assert_eq!(third("rm"), Some(0x3eaa_aaaa));
        assert_eq!(ev("rcp", &["rz", "f32"], &[f(3.0)]), Some(0x3eaa_aaaa));
        // -1/3: toward zero is the smaller magnitude, down the larger
        let neg = |m: &str| ev("div", &[m, "f32"], &[f(-1.0), f(3.0)]);
        assert_eq!(neg("rz"), Some(f(-f32::from_bits(0x3eaa_aaaa))));
        assert_eq!(neg("rm"), Some(f(-f32::from_bits(0x3eaa_aaab))));
        // sqrt(2) = 1.41421356…; 0x3fb504f3 = 1.41421353… lies below it
        // (the nearest), 0x3fb504f4 = 1.41421365… above.
        let root = |m: &str| ev("sqrt", &[m, "f32"], &[f(2.0)]);
        assert_eq!(root("rn"), Some(0x3fb5_04f3));
        assert_eq!(root("rm"), Some(0x3fb5_04f3));
        assert_eq!(root("rp"), Some(0x3fb5_04f4));
        // fma is one rounding: (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly
        let a = 1.0 + f32::powi(2.0, -12);
        assert_eq!(
            tof(ev("fma", &["rn", "f32"], &[f(a), f(a), f(-1.0)])),
            Some(f32::powi(2.0, -11) + f32::powi(2.0, -24))
        );
        // an exact zero sum is +0, except -0 under .rm
        assert_eq!(ev("add", &["rn", "f32"], &[f(1.0), f(-1.0)]), Some(f(0.0)));
        assert_eq!(ev("add", &["rm", "f32"], &[f(1.0), f(-1.0)]), Some(f(-0.0)));
        // f64: 1 + 2^-53 halfway
        let e = f64::powi(2.0, -53);
        assert_eq!(ev("add", &["rn", "f64"], &[d(1.0), d(e)]), Some(d(1.0)));
        assert_eq!(
            ev("add", &["rp", "f64"], &[d(1.0), d(e)]),
            Some(d(1.0 + f64::EPSILON))
        );
        assert_eq!(
            ev("div", &["rp", "f64"], &[d(1.0), d(3.0)]),
            Some(d((1.0f64 / 3.0).next_up()))
        );
        // approximate instructions are not decoded
        assert!(decode("div", &["approx", "f32"]).is_none());
        assert!(decode("div", &["full", "f32"]).is_none());
        assert!(decode("rcp", &["approx", "ftz", "f64"]).is_none());
        assert!(decode("sqrt", &["approx", "f32"]).is_none());
        assert!(decode("ex2", &["approx", "f32"]).is_none());
        assert!(decode("add", &["f16"]).is_none());
        assert!(decode("add", &["f32x2"]).is_none());
    }

    #[test]
    fn ftz_and_sat() {
        let sub = f32::from_bits(0x0040_0000); // 2^-127, subnormal
                                               // without .ftz subnormals take part; with it they are zeros of their sign
        assert_eq!(
            tof(ev("add", &["rn", "f32"], &[f(sub), f(sub)])),
            Some(sub * 2.0)
        );
        assert_eq!(
            ev("add", &["rn", "ftz", "f32"], &[f(sub), f(sub)]),
            Some(f(0.0))
        );
        assert_eq!(
            ev("mul", &["rn", "ftz", "f32"], &[f(-sub), f(1.0)]),
            Some(f(-0.0))
        );
        // a subnormal result is flushed: 2^-100 * 2^-30 = 2^-130
        let (p, q) = (f32::from_bits(27 << 23), f32::from_bits(97 << 23));
        assert_eq!(
            ev("mul", &["rn", "ftz", "f32"], &[f(p), f(q)]),
            Some(f(0.0))
        );
        // 2^-130 = 2^19 · 2^-149
        assert_eq!(ev("mul", &["rn", "f32"], &[f(p), f(q)]), Some(1 << 19));
        // .sat clamps to [0, 1]; NaN → +0
        assert_eq!(
            tof(ev("add", &["sat", "f32"], &[f(0.75), f(0.5)])),
            Some(1.0)
        );
        assert_eq!(
            tof(ev("add", &["sat", "f32"], &[f(-0.75), f(0.5)])),
            Some(0.0)
        );
        assert_eq!(
            ev("mul", &["rn", "sat", "f32"], &[f(0.0), f(f32::INFINITY)]),
            Some(f(0.0))
        );
        // NaN results are not evaluated
        assert_eq!(ev("mul", &["rn", "f32"], &[f(0.0), f(f32::INFINITY)]), None);
    }

    #[test]
    fn min_max_and_nan_comparisons() {
        let nan = f(f32::NAN);
        assert_eq!(tof(ev("max", &["f32"], &[f(-0.5), f(0.0)])), Some(0.0));
        assert_eq!(tof(ev("min", &["f32"], &[nan, f(2.0)])), Some(2.0));
        assert_eq!(tof(ev("max", &["f32"], &[f(2.0), nan])), Some(2.0));
        assert_eq!(ev("max", &["NaN", "f32"], &[f(2.0), nan]), None);
        assert_eq!(ev("min", &["f32"], &[f(0.0), f(-0.0)]), None);
        assert!(decode("min", &["xorsign", "abs", "f32"]).is_none());
        // unordered comparisons are true with a NaN operand
        let inf = f(f32::INFINITY);
        assert_eq!(ev("setp", &["gtu", "f32"], &[nan, inf]), Some(1));
        assert_eq!(ev("setp", &["gtu", "f32"], &[f(3.0), inf]), Some(0));
        assert_eq!(ev("setp", &["geu", "f32"], &[f(0.5), f(0.0)]), Some(1));
        assert_eq!(ev("setp", &["neu", "f32"], &[f(1.0), f(1.0)]), Some(0));
        assert_eq!(ev("setp", &["num", "f32"], &[f(1.0), nan]), Some(0));
        assert_eq!(ev("setp", &["nan", "f32"], &[f(1.0), nan]), Some(1));
        // .ftz compares subnormals as zeros
        let sub = f(f32::from_bits(1));
        assert_eq!(ev("setp", &["gt", "ftz", "f32"], &[sub, f(0.0)]), Some(0));
        // the ordered comparisons without .ftz stay `setp` of a float type
        assert!(matches!(
            decode("setp", &["lt", "f32"]).unwrap().op,
            AluOp::Setp(..)
        ));
        // combined with a predicate; the second destination negates the comparison
        let alu = decode("setp", &["ltu", "and", "f64"]).unwrap();
        let AluOp::Float(op, m) = alu.op else {
            panic!()
        };
        assert_eq!(eval(op, m, alu.ty, &[d(1.0), d(2.0), 1]), Some(1));
        assert_eq!(second(op, m, alu.ty, &[d(1.0), d(2.0), 1]), Some(0));
        assert_eq!(eval(op, m, alu.ty, &[d(1.0), d(2.0), 0]), Some(0));
        // testp
        assert_eq!(ev("testp", &["subnormal", "f32"], &[sub]), Some(1));
        assert_eq!(ev("testp", &["normal", "f32"], &[sub]), Some(0));
        assert_eq!(
            ev("testp", &["finite", "f64"], &[d(f64::INFINITY)]),
            Some(0)
        );
        assert_eq!(ev("testp", &["notanumber", "f64"], &[d(f64::NAN)]), Some(1));
    }

    #[test]
    fn unmarked_operations_and_contraction() {
        // mul/add without a rounding modifier round to nearest...
        assert_eq!(tof(ev("mul", &["f32"], &[f(3.0), f(0.5)])), Some(1.5));
        // ...unless lowering marked the add fusable with a mul
        let alu = decode("add", &["f32"]).unwrap();
        let AluOp::Float(op, mut m) = alu.op else {
            panic!()
        };
        assert!(m.unmarked);
        m.fusable = true;
        // which fusing cannot change where the exact product's half a
        // spacing around the rounded one rounds away: 1 + 2 is 3 either way
        assert_eq!(tof(eval(op, m, alu.ty, &[f(1.0), f(2.0)])), Some(3.0));
        // a cancellation exposes it: 1 - (1 - 2^-24) is 2^-24 unfused, and
        // anything in [2^-25, 2^-23] fused: not evaluated
        assert_eq!(
            eval(op, m, alu.ty, &[f(1.0), f(-(1.0 - 2f32.powi(-24)))]),
            None
        );
        // nor in f64
        let alu64 = decode("add", &["f64"]).unwrap();
        let AluOp::Float(op64, mut m64) = alu64.op else {
            panic!()
        };
        m64.fusable = true;
        let d = |x: f64| x.to_bits() as i64;
        assert_eq!(eval(op64, m64, alu64.ty, &[d(1.0), d(2.0)]), None);
        // mad without a rounding modifier (sm_1x) is not evaluated
        assert!(decode("mad", &["f32"]).is_none());
        assert!(decode("fma", &["rn", "f32"]).is_some());
    }
}
