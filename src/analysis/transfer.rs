//! Transfer functions: what an instruction does to lane values.
//!
//! # Two levels
//!
//! * [`eval_scalar`] is the exact semantics of one lane: PTX integer types,
//!   two's-complement wrapping at the type's width, `.lo/.hi/.wide` products,
//!   clamped shift amounts, arithmetic or logical right shifts, extensions and
//!   truncations of `cvt`, signed or unsigned comparisons. Division or
//!   remainder by zero is undefined in PTX and yields `None` (unknown). Every
//!   operation uses wrapping or checked arithmetic: no input panics.
//! * [`abstract_eval`] lifts it to [`Value`]s. When every input is exact per
//!   lane (a polynomial with only a constant monomial), it evaluates
//!   [`eval_scalar`] lane by lane, so swizzles, masks, division and remainder
//!   by constants are exact. Otherwise:
//!   - `mov`, `cvt` between integers, `cvta`: the value is passed on (the
//!     symbolic level assumes no wrap-around, see the domain essay);
//!   - `add`, `sub`, `neg`, `mul.lo/.wide`, `mad.lo/.wide`, `shl` by a
//!     constant: polynomial arithmetic, which keeps symbolic strides;
//!   - `and`, `or`, `xor` with a constant `c`, `shr` by `k`, `div`/`rem` by a
//!     constant `c`, applied to `U + d` (uniform `U`, exact lane offsets `d`):
//!     exact per lane when the congruence of `U` fixes `U mod 2^j` (`2^j > c`;
//!     resp. `2^k`, `c`), writing `U = (U - r) + r` and moving `r` into the
//!     lane part (`(i >> 2) * 64`, `i & 7`, `i ^ 1`, `(i & ~31) + 31 - (i & 31)`);
//!     for a mask with high bits when `U` is known only modulo a smaller
//!     power of two `M` and the lanes stay inside one `M`-block, the bits
//!     below `M` come from the lanes and the bits above from `U`: the result
//!     is an opaque uniform value `≡ 0 (mod M)` plus exact lanes (`i ^ 0x55`
//!     with `i = 256·ctaid + 32·w + lane`);
//!   - `or`/`xor` of two values whose bits are disjoint (an exact operand in
//!     `[0, 2^j)`, the other a multiple of `2^j` in every lane) is their sum,
//!     as nvcc emits `(lane % 8) * 4 + (i & ~31)`; more generally `and`,
//!     `or`, `xor` and `shr` of sums whose terms occupy disjoint bit windows,
//!     known from congruences and ranges (Triton's `(ctaid << 10) | (tid &
//!     127)`, then `| 128`): see `bitwin`;
//!   - `div` of a uniform value `x` by a constant `c` is an opaque symbol
//!     remembered as `x`'s quotient (`SymFacts::quotients`), so that `x -
//!     (x / c) * c` — how nvcc computes a remainder by a divisor known only
//!     at run time, `div` then `mul.lo` then `sub` — is seen as `x % c`; a
//!     uniform `x % c` (either form) is an opaque symbol in `[0, c - 1]`
//!     when `x` is non-negative (its symbols' ranges) or the division
//!     unsigned (`slot % block_size` after `if (slot < 0) return`);
//!   - uniform `min`/`max` of operands with known bounds (constants,
//!     symbols with ranges) is the operand the bounds pick (`min(n, 4)`
//!     with `n` in `[4, 8]`: 4), else an opaque value within the combined
//!     bounds; uniform `bmsk a, b` with `a`, `b` bounded (`.clamp` reads a
//!     negative width as 32, so only non-negative bounds count) an opaque
//!     value below `2^(a_max + b_max)`; a bounded uniform operand of an
//!     `and`/`or`/`xor` with data is seen as one unknown shared by every
//!     lane (`key & bmsk(0, w)` keeps bits 4.. zero for `w <= 4`);
//!   - `rem` of a lane-varying value by an unknown uniform `n` is the value
//!     itself: the no-wrap assumption once more (`|x| < n`: Triton's `offs %
//!     M` keeps the rows of the edge blocks in bounds; the launch simulation,
//!     given `n`, is exact);
//!   - `selp`/`slct` with a predicate known per lane blend the two sides;
//!   - `setp` compares per lane when the difference of its operands is exact
//!     (the uniform parts cancel: `i < n` with `n` unknown is not, `(tid & 31) <
//!     16` is); predicates are three-valued per lane (`PredVal::Partial`), so
//!     `(tid & 31) < 16 && i < n` is known false in lanes 16..31 even though
//!     `i < n` is unknown;
//!   - bit-level instructions (`bfi`, `lop3`, `shf`, `bfe`, `szext`, `mov`
//!     packing) and magic-number division (`mul.hi`, or `mul.wide` then
//!     `shr.u64`, by nvcc's constants) are rewritten into the rules above
//!     (`symbolic`); `shr` by `width - 1` of a symbolic index is its sign, 0;
//!   - cross-lane instructions (`shfl.sync` permutes per-lane coefficients,
//!     broadcasts, or gives the lanes that read one source lane one shared
//!     unknown, `vote`/`activemask`/`redux`/`match` are uniform,
//!     `mapa`) follow `crosslane`;
//!   - an operand that depends on loaded data keeps what bounds it (`and`
//!     with a mask, `rem`, `min`/`max`, narrow types, `bfe`: a [`Range`],
//!     see `bounds`);
//!   - anything else: a fresh opaque uniform symbol when every input is
//!     uniform, `Varying` otherwise; `Varying { data: true }` whenever an input
//!     depends on loaded data.
//!
//! Exact one-lane semantics of the bit-level instructions (`bfi`, `prmt` in
//! every mode, `shf`, `lop3`, `brev`, `popc`, `clz`, `bfind`, `bmsk`,
//! `szext`, packing and unpacking `mov`) live in `bitfield`; a second
//! destination (`setp p|q`, the high half of an unpacking `mov`, the
//! predicate of `shfl.sync`) comes from [`second_result`] /
//! [`second_scalar`].
//!
//! # Limits
//!
//! The symbolic special cases assume the values involved are non-negative
//! (index arithmetic) and, for the magic-number rules, below `2^32` (`2^31`
//! for a signed `mul.hi`); exact lanes never assume anything. Division by a
//! constant is exact per lane only when the uniform part is known modulo
//! the divisor; magic constants whose error term exceeds the rule's bound
//! (`/ 7`, `/ 25`: add-and-shift sequences) are not recognised, and `x % c`
//! computed as `x - (x / c) * c` on lane-varying data loses its bounds (on
//! a uniform value it is seen, see above; a division whose visits saw
//! different dividends is no longer taken for a quotient).
//!
//! # Floating point
//!
//! Float instructions ([`AluOp::Float`]) have exact one-lane semantics in
//! `float` (IEEE `f32`/`f64` in every rounding mode, `.ftz`, `.sat`,
//! conversions, unordered comparisons, `testp`), which [`eval_scalar`]
//! calls: the launch simulation evaluates them in every lane. Here they are
//! exact when every operand is exact per lane (a float parameter's given
//! bits, `cvt` of exact lanes) and otherwise give up (an opaque uniform
//! value, or `Varying`): the symbolic level has no float values, since a
//! rounded result is not a polynomial of its operands (an optional bound
//! of `cvt.rzi` of an affine float function by monotonicity is not
//! implemented). An ordered `f32`/`f64` `setp` (`AluOp::Setp` with a float
//! type, as lowering gives `0f…` immediates as their bit patterns) compares
//! the IEEE values ([`compare_checked`]), never their difference;
//! `f16`/`bf16` comparisons and every approximate instruction (`div.approx`,
//! `ex2`, `sin`…, not decoded) stay unknown.

use super::bitfield;
use super::bitwin;
use super::domain::{Coef, Cong, Lanes, Poly, PredVal, Range, Sym, SymFacts, Value, WARP};
use super::{bounds, crosslane, symbolic};

pub use crate::ir::alu::{
    decode, Alu, AluOp, AluOp2, Cmp, FMode, FloatOp, MulMode, PrmtMode, ReduxOp, ShflMode, Ty,
    WarpOp,
};

fn wide_ty(t: Ty) -> Ty {
    Ty {
        bits: (t.bits * 2).min(64),
        ..t
    }
}

pub(super) fn shift_amount(v: i64) -> u32 {
    // Shift amounts are read as unsigned 32-bit values and clamp at the width.
    (v as u64 & 0xffff_ffff).min(127) as u32
}

/// The exact semantics of one lane. `args` are the source operands in order;
/// the result is stored in canonical form (read back with the destination type).
pub fn eval_scalar(alu: Alu, args: &[i64]) -> Option<i64> {
    let t = alu.ty;
    let a = |i: usize| args.get(i).map(|&v| t.read(v));
    let out = |v: i64| Some(t.read(v));
    match alu.op {
        AluOp::Mov => out(a(0)?),
        AluOp::Add => out(a(0)?.wrapping_add(a(1)?)),
        AluOp::Sub => out(a(0)?.wrapping_sub(a(1)?)),
        AluOp::Mul(m) | AluOp::Mad(m) => {
            let (x, y) = (a(0)? as i128, a(1)? as i128);
            let p = x.wrapping_mul(y);
            let r = match m {
                MulMode::Lo => t.read(p as i64),
                MulMode::Wide => wide_ty(t).read(p as i64),
                MulMode::Hi => {
                    let p = if t.signed {
                        p
                    } else {
                        (a(0)? as u64 as u128).wrapping_mul(a(1)? as u64 as u128) as i128
                    };
                    t.read((p >> t.bits.min(64)) as i64)
                }
            };
            if let AluOp::Mad(m) = alu.op {
                let rt = if m == MulMode::Wide { wide_ty(t) } else { t };
                let c = rt.read(*args.get(2)?);
                Some(rt.read(r.wrapping_add(c)))
            } else {
                Some(r)
            }
        }
        AluOp::Shl => {
            let k = shift_amount(*args.get(1)?);
            if k >= t.bits {
                out(0)
            } else {
                out(((a(0)? as u64) << k) as i64)
            }
        }
        AluOp::Shr => {
            let k = shift_amount(*args.get(1)?);
            let x = a(0)?;
            if t.signed {
                out(x >> k.min(63))
            } else {
                let ux = if t.bits >= 64 {
                    x as u64
                } else {
                    (x as u64) & ((1u64 << t.bits) - 1)
                };
                out(if k >= 64 { 0 } else { (ux >> k) as i64 })
            }
        }
        AluOp::And => out(a(0)? & a(1)?),
        AluOp::Or => out(a(0)? | a(1)?),
        AluOp::Xor => out(a(0)? ^ a(1)?),
        AluOp::Not => out(!a(0)?),
        AluOp::Neg => out(a(0)?.wrapping_neg()),
        AluOp::Abs => out(a(0)?.wrapping_abs()),
        AluOp::Min | AluOp::Max => {
            let (x, y) = (a(0)?, a(1)?);
            let less = if t.signed {
                x < y
            } else {
                (x as u64) < (y as u64)
            };
            let pick_x = (alu.op == AluOp::Min) == less;
            out(if pick_x { x } else { y })
        }
        AluOp::Div | AluOp::Rem => {
            let (x, y) = (a(0)?, a(1)?);
            if y == 0 {
                return None;
            }
            let r = if t.signed {
                if alu.op == AluOp::Div {
                    x.wrapping_div(y)
                } else {
                    x.wrapping_rem(y)
                }
            } else {
                let (ux, uy) = (x as u64, y as u64);
                (if alu.op == AluOp::Div {
                    ux / uy
                } else {
                    ux % uy
                }) as i64
            };
            out(r)
        }
        AluOp::Selp => None, // needs a predicate: see `abstract_eval`
        AluOp::Slct => {
            let c = Ty {
                bits: 32,
                signed: true,
                float: false,
            }
            .read(*args.get(2)?);
            out(if c >= 0 { a(0)? } else { a(1)? })
        }
        AluOp::Cvt(src) => out(src.read(*args.first()?)),
        AluOp::Bfe => {
            let x = a(0)?;
            let pos = (*args.get(1)? & 0xff) as u32;
            let len = (*args.get(2)? & 0xff) as u32;
            if len == 0 {
                return out(0);
            }
            let ux = if t.bits >= 64 {
                x as u64
            } else {
                (x as u64) & ((1u64 << t.bits) - 1)
            };
            let shifted = if pos >= 64 { 0 } else { ux >> pos };
            let len = len.min(t.bits);
            let mask = if len >= 64 {
                u64::MAX
            } else {
                (1u64 << len) - 1
            };
            let mut v = shifted & mask;
            if t.signed && len < 64 {
                let msb_pos = (pos + len - 1).min(t.bits - 1);
                let sign = (ux >> msb_pos.min(63)) & 1;
                if sign == 1 {
                    v |= !mask;
                }
            }
            out(v as i64)
        }
        AluOp::Setp(..) => None,
        AluOp::Bfi => out(bitfield::bfi(
            *args.first()?,
            *args.get(1)?,
            *args.get(2)?,
            *args.get(3)?,
            t.bits,
        )),
        AluOp::Prmt(m) => out(bitfield::prmt(
            *args.first()?,
            *args.get(1)?,
            *args.get(2)?,
            m,
        )),
        AluOp::Shf { left, clamp } => out(bitfield::shf(
            *args.first()?,
            *args.get(1)?,
            *args.get(2)?,
            left,
            clamp,
        )),
        AluOp::Lop3 => out(bitfield::lop3(
            *args.first()?,
            *args.get(1)?,
            *args.get(2)?,
            *args.get(3)?,
            t.bits,
        )),
        AluOp::Brev => out(bitfield::brev(*args.first()?, t.bits)),
        // popc, clz, bfind write a .u32 count whatever the source width.
        AluOp::Popc => Some(bitfield::popc(*args.first()?, t.bits)),
        AluOp::Clz => Some(bitfield::clz(*args.first()?, t.bits)),
        AluOp::Bfind(s) => Some(bitfield::bfind(*args.first()?, t.bits, t.signed, s)),
        AluOp::Bmsk(c) => Some(bitfield::bmsk(*args.first()?, *args.get(1)?, c)),
        AluOp::Szext(c) => Some(bitfield::szext(*args.first()?, *args.get(1)?, t.signed, c)),
        AluOp::Pack(w) => {
            if args.is_empty() {
                return None;
            }
            out(bitfield::pack(args, w as u32))
        }
        AluOp::Unpack(k, w) => Some(bitfield::unpack(*args.first()?, k as u32, w as u32)),
        // Cross-lane and cluster operations have no one-lane semantics.
        AluOp::Shfl(_) | AluOp::Warp(_) | AluOp::Mapa => None,
        AluOp::Float(op, m) => super::float::eval(op, m, t, args),
    }
}

/// The value of the second destination of `alu` (`setp p|q`: `!p`;
/// unpacking: the high half; `shfl.sync d|p`: whether the source lane was in
/// range; `match.all.sync d|p`: uniform), given the first one `first`.
pub fn second_result(alu: Alu, args: &[Value], first: &Value, ctx: &mut dyn OpaqueSource) -> Value {
    match (alu.op, first) {
        (AluOp::Setp(..), Value::Pred(p)) => Value::Pred(!*p),
        (AluOp::Float(FloatOp::Cmp(..), _), _) => float_pred(alu, args, true),
        (AluOp::Unpack(k, w), _) => abstract_eval(
            Alu {
                op: AluOp::Unpack(k + 1, w),
                ty: alu.ty,
            },
            args,
            &mut SecondSlots(ctx),
        ),
        (AluOp::Shfl(m), _) => crosslane::shfl_pred(m, args),
        (AluOp::Warp(WarpOp::MatchAll), _) => crosslane::match_all_pred(args),
        _ => Value::Pred(PredVal::Unknown {
            uniform: false,
            data: args.iter().any(Value::is_data),
        }),
    }
}

/// One lane's second destination (see [`second_result`]); `first` is the
/// lane's first result. Cross-lane operations are not evaluated here.
pub fn second_scalar(alu: Alu, args: &[i64], first: Option<i64>) -> Option<i64> {
    match alu.op {
        AluOp::Setp(..) => first.map(|v| (v == 0) as i64),
        AluOp::Float(op, m) => super::float::second(op, m, alu.ty, args),
        AluOp::Unpack(k, w) => eval_scalar(
            Alu {
                op: AluOp::Unpack(k + 1, w),
                ty: alu.ty,
            },
            args,
        ),
        _ => None,
    }
}

/// The second destination's opaque symbols use their own slots.
struct SecondSlots<'a>(&'a mut dyn OpaqueSource);

impl OpaqueSource for SecondSlots<'_> {
    fn opaque(&mut self, slot: u32, cong: Cong) -> Sym {
        self.0.opaque(500 + slot, cong)
    }
    fn facts(&self) -> &SymFacts {
        self.0.facts()
    }
}

/// One lane's comparison of `setp`: integers by [`compare`], `f32` and
/// `f64` by their IEEE values (the PTX base comparisons are ordered: false
/// when either operand is NaN, `ne` included; `-0.0 == 0.0`). `None` for
/// the other floating-point types (`f16`, `bf16`, packed pairs), whose
/// width alone does not say how to read them.
pub fn compare_checked(cmp: Cmp, t: Ty, x: i64, y: i64) -> Option<bool> {
    if !t.float {
        return Some(compare(cmp, t, x, y));
    }
    let (x, y) = match t.bits {
        32 => (
            f64::from(f32::from_bits(x as u32)),
            f64::from(f32::from_bits(y as u32)),
        ),
        64 => (f64::from_bits(x as u64), f64::from_bits(y as u64)),
        _ => return None,
    };
    // Rust's float operators are IEEE 754's: `-0 == 0`, every comparison
    // with a NaN false; `ne` is ordered in PTX, so false with a NaN too.
    Some(match cmp {
        Cmp::Eq => x == y,
        Cmp::Ne => x != y && !x.is_nan() && !y.is_nan(),
        Cmp::Lt => x < y,
        Cmp::Le => x <= y,
        Cmp::Gt => x > y,
        Cmp::Ge => x >= y,
    })
}

/// One lane's comparison of integers (floating-point types: [`compare_checked`]).
pub fn compare(cmp: Cmp, t: Ty, x: i64, y: i64) -> bool {
    let (x, y) = (t.read(x), t.read(y));
    let o = if t.signed {
        x.cmp(&y)
    } else {
        (x as u64).cmp(&(y as u64))
    };
    match cmp {
        Cmp::Eq => o.is_eq(),
        Cmp::Ne => o.is_ne(),
        Cmp::Lt => o.is_lt(),
        Cmp::Le => o.is_le(),
        Cmp::Gt => o.is_gt(),
        Cmp::Ge => o.is_ge(),
    }
}

/// Hands out opaque symbols for instruction results the domain cannot express.
pub trait OpaqueSource {
    /// A fresh opaque uniform symbol for result `slot` of the current
    /// instruction, whose congruence is `cong`; the same slot gives the same
    /// symbol every time (so fixpoints converge).
    fn opaque(&mut self, slot: u32, cong: Cong) -> Sym;
    /// The symbols' congruences.
    fn facts(&self) -> &SymFacts;
    /// Records that opaque symbol `s` lies in `[lo, hi]` (joined with what
    /// earlier visits recorded); sources that keep no ranges ignore it.
    fn bound(&mut self, _s: Sym, _lo: i64, _hi: i64) {}
    /// Records that opaque symbol `s` is `trunc(x / c)` (see
    /// [`SymFacts::quotients`]); sources that keep no facts ignore it.
    fn quotient(&mut self, _s: Sym, _x: &Poly, _c: i64, _unsigned: bool) {}
}

fn give_up(args: &[Value], ctx: &mut dyn OpaqueSource) -> Value {
    let data = args.iter().any(Value::is_data);
    if data {
        return Value::Varying { data: true };
    }
    if args.iter().any(|v| matches!(v, Value::Undef)) {
        return Value::Undef;
    }
    if args.iter().all(Value::is_uniform) {
        Value::sym(ctx.opaque(0, Cong::TOP))
    } else {
        Value::Varying { data: false }
    }
}

fn lanewise(alu: Alu, ex: &[Lanes]) -> Option<Value> {
    let mut out = [0i64; WARP];
    let n = ex.len().min(4);
    let mut args = [0i64; 4];
    for (l, o) in out.iter_mut().enumerate() {
        for (k, a) in args.iter_mut().enumerate().take(n) {
            *a = ex[k][l];
        }
        *o = eval_scalar(alu, &args[..n])?;
    }
    Some(Value::poly(Poly::lanes(out)))
}

/// `U + d` with `U` uniform and `d` exact: the pieces, when the value has that form.
fn uniform_plus_lanes(p: &Poly) -> Option<(Poly, Lanes)> {
    let (u, d) = p.split();
    let dl = d.exact()?;
    // the constant term of u belongs to d as well (simpler residues)
    let c = u
        .terms()
        .iter()
        .find(|(m, _)| m.degree() == 0)
        .map(|(_, c)| c.at(0))
        .unwrap_or(0);
    let u = u.add_const(c.wrapping_neg());
    let mut d = dl;
    for x in d.iter_mut() {
        *x = x.wrapping_add(c);
    }
    Some((u, d))
}

/// `(U + d) op c` where `U ≡ r (mod modulus)`: the value `(U - r)` (kept
/// symbolic, divided by `div` when `div > 1`) plus exact lanes `f(r + d)`.
fn split_at_modulus(
    p: &Poly,
    modulus: i64,
    div: i64,
    ctx: &mut dyn OpaqueSource,
    f: &dyn Fn(i64) -> i64,
) -> Option<Value> {
    if modulus <= 0 {
        return None;
    }
    let (u, d) = uniform_plus_lanes(p)?;
    let cu = ctx.facts().poly_cong(&u);
    let r = cu.residue_mod(modulus as u64)?;
    let lanes: Lanes = std::array::from_fn(|l| f(d[l].wrapping_add(r)));
    let high = u.add_const(r.wrapping_neg());
    let high = if div <= 1 {
        high
    } else if high.terms().iter().all(|(_, c)| c.at(0) % div == 0) {
        Poly::from_terms(
            high.terms()
                .iter()
                .map(|(m, c)| (*m, Coef::Same(c.at(0) / div)))
                .collect(),
        )
    } else if high.as_const().is_some() {
        Poly::constant(high.as_const().unwrap_or(0) / div)
    } else {
        // (U - r) / div is uniform; its congruence follows from U's.
        let c = if cu.m == 0 {
            Cong::exact((cu.r - r) / div)
        } else if cu.m as i64 % div == 0 {
            Cong::modulo(cu.m / div as u64, (cu.r - r).div_euclid(div))
        } else {
            Cong::TOP
        };
        Poly::sym(ctx.opaque(1, c))
    };
    Some(Value::poly(high.add(&Poly::lanes(lanes))))
}

fn pow2_above(c: i64) -> Option<i64> {
    if c < 0 {
        return None;
    }
    let mut m = 1i64;
    while m <= c {
        m = m.checked_mul(2)?;
    }
    Some(m)
}

/// Evaluates an integer instruction on abstract values.
///
/// `args` are the sources in order (for `selp`, the predicate last; for
/// `setp` with a combination, the combining predicate last).
pub fn abstract_eval(alu: Alu, args: &[Value], ctx: &mut dyn OpaqueSource) -> Value {
    match alu.op {
        AluOp::Setp(cmp, comb) => return setp(cmp, comb, alu.ty, args),
        AluOp::Shfl(m) => return crosslane::shfl(m, args, ctx),
        AluOp::Warp(w) => return crosslane::warp(w, args, ctx),
        AluOp::Mapa => return crosslane::mapa(args, ctx),
        AluOp::Float(FloatOp::Cmp(..) | FloatOp::Testp(_), _) => {
            return float_pred(alu, args, false)
        }
        AluOp::Float(..) => return float_value(alu, args, ctx),
        _ => {}
    }
    if alu.op == AluOp::Selp {
        return selp(args, ctx);
    }
    if alu.op == AluOp::Slct {
        // turn the integer condition into a predicate, then select
        let p = match args
            .get(2)
            .and_then(|v| v.as_poly())
            .and_then(|p| p.exact())
        {
            Some(c) => Value::Pred(PredVal::Lanes(
                (0..WARP).fold(0u32, |m, l| m | ((((c[l] as i32) >= 0) as u32) << l)),
            )),
            None => match args.get(2) {
                Some(v) => Value::Pred(PredVal::Unknown {
                    uniform: v.is_uniform(),
                    data: v.is_data(),
                }),
                None => Value::Varying { data: false },
            },
        };
        let a = args.first().cloned().unwrap_or_default();
        let b = args.get(1).cloned().unwrap_or_default();
        return selp(&[a, b, p], ctx);
    }
    let polys: Option<Vec<&Poly>> = args.iter().map(Value::as_poly).collect();
    let Some(polys) = polys else {
        // Data-dependent operands: keep what bounds them.
        if args
            .iter()
            .any(|a| a.is_data() || matches!(a, Value::Range(_)))
        {
            if let Some(v) = bounds::eval(alu, args) {
                return v;
            }
            // A bitwise operation with a bounded uniform operand: that
            // operand seen as one unknown shared by every lane within its
            // bounds (`key & bmsk(0, w)`, `w` in `[0, 4]`: bits 4.. are 0).
            if matches!(alu.op, AluOp::And | AluOp::Or | AluOp::Xor) {
                let seen: Vec<Value> = args
                    .iter()
                    .map(|a| uniform_as_range(a, alu.ty, ctx.facts()).unwrap_or_else(|| a.clone()))
                    .collect();
                if seen != args {
                    if let Some(v) = bounds::eval(alu, &seen) {
                        return v;
                    }
                }
            }
        }
        return give_up(args, ctx);
    };
    // Exact lanes: evaluate lane by lane.
    let exact: Option<Vec<Lanes>> = polys.iter().map(|p| p.exact()).collect();
    if let Some(ex) = exact {
        if let Some(v) = lanewise(alu, &ex) {
            return v;
        }
        return give_up(args, ctx);
    }
    // `mov` and `cvt` pass the value on: share it rather than copy it.
    if let (AluOp::Mov | AluOp::Cvt(_), Some(a @ Value::Poly(_))) = (alu.op, args.first()) {
        return a.clone();
    }
    let p = |i: usize| polys.get(i).copied();
    let konst = |i: usize| polys.get(i).and_then(|q| q.as_const());
    let r: Option<Poly> = (|| match alu.op {
        AluOp::Add => Some(p(0)?.add(p(1)?)),
        AluOp::Sub => Some(p(0)?.sub(p(1)?)),
        AluOp::Neg => Some(p(0)?.scale(-1)),
        // A `.wide` product reads its constant operand in the source type:
        // `mul.wide.u32 %rd, %r, -1431655765` multiplies by 0xAAAAAAAB.
        AluOp::Mul(MulMode::Wide) | AluOp::Mad(MulMode::Wide) => {
            let read = |i: usize| match konst(i) {
                Some(c) => Some(Poly::constant(alu.ty.read(c))),
                None => p(i).cloned(),
            };
            let x = read(0)?.mul(&read(1)?)?;
            match alu.op {
                AluOp::Mad(_) => Some(x.add(p(2)?)),
                _ => Some(x),
            }
        }
        AluOp::Mul(MulMode::Lo) => p(0)?.mul(p(1)?),
        AluOp::Mad(MulMode::Lo) => p(0)?.mul(p(1)?).and_then(|x| Some(x.add(p(2)?))),
        AluOp::Shl => match konst(1) {
            // shifting out every bit of the type gives 0
            Some(k) if k < 0 || k >= alu.ty.bits as i64 => Some(Poly::constant(0)),
            Some(k) if (0..62).contains(&k) => Some(p(0)?.scale(1i64 << k)),
            _ => None,
        },
        AluOp::Shr if !alu.ty.signed => match konst(1) {
            Some(k) if k < 0 || k >= alu.ty.bits as i64 => Some(Poly::constant(0)),
            _ => None,
        },
        _ => None,
    })();
    if let Some(r) = r {
        if matches!(alu.op, AluOp::Sub | AluOp::Add | AluOp::Mad(_)) && r.is_uniform() {
            if let Some(v) = remainder(&r, ctx) {
                return v;
            }
        }
        return Value::poly(r);
    }
    // Bit-level instructions on symbolic values, rewritten into the
    // operations above (`bfi`, `lop3`, `shf`, `szext`, `bfe`, packing, and
    // magic-number division).
    if let Some(v) = symbolic::eval(alu, args, ctx) {
        return v;
    }
    // Bit operations on sums whose terms occupy disjoint bit windows
    // (`(ctaid << 10) | (tid & 127)`, then `| 128`): see `bitwin`.
    if let Some(v) = bit_windows(alu, args, ctx) {
        return v;
    }
    // `a | b` and `a ^ b` with disjoint bits: `a` exact in [0, 2^j), every
    // lane of `b` a multiple of 2^j (`(lane % 8) * 4 | (i & ~31)`): a sum.
    if matches!(alu.op, AluOp::Or | AluOp::Xor) {
        if let (Some(a), Some(b)) = (p(0), p(1)) {
            for (small, big) in [(a, b), (b, a)] {
                if let Some(v) = disjoint_sum(small, big, ctx) {
                    return v;
                }
            }
        }
    }
    // Non-linear operations on `U + d` with a constant operand.
    let special = (|| -> Option<Value> {
        let commutative = matches!(alu.op, AluOp::And | AluOp::Or | AluOp::Xor);
        let (x, c) = match (konst(0), konst(1)) {
            (Some(c), None) if commutative => (p(1)?, c),
            _ => (p(0)?, konst(1)?),
        };
        match alu.op {
            AluOp::And | AluOp::Or | AluOp::Xor => bitwise(alu, x, c, ctx),
            AluOp::Shr => {
                if !(0..62).contains(&c) {
                    return None;
                }
                let m = 1i64 << c;
                split_at_modulus(x, m, m, ctx, &|v| v >> c)
                    .or_else(|| symbolic::magic_shift(x, c, alu.ty, ctx))
                    // The sign bit of a (non-negative) index: 0.
                    .or_else(|| (c == alu.ty.bits as i64 - 1).then(|| Value::constant(0)))
                    .or_else(|| same_block(x, m, ctx))
            }
            AluOp::Div if c > 0 => split_at_modulus(x, c, c, ctx, &|v| v.div_euclid(c))
                .or_else(|| same_block(x, c, ctx)),
            AluOp::Rem if c > 0 => {
                let (u, d) = uniform_plus_lanes(x)?;
                let r = ctx.facts().poly_cong(&u).residue_mod(c as u64)?;
                let lanes: Lanes = std::array::from_fn(|l| d[l].wrapping_add(r).rem_euclid(c));
                Some(Value::poly(Poly::lanes(lanes)))
            }
            _ => None,
        }
    })();
    if let Some(v) = special {
        return v;
    }
    // A uniform `x / c` is an opaque value, remembered as the quotient of
    // `x` (so that `x - (x / c) * c` is `x % c`, see `remainder`); a
    // uniform `x % c` is an opaque value in `[0, c - 1]` when `x` is
    // non-negative or the remainder unsigned.
    if matches!(alu.op, AluOp::Div | AluOp::Rem) && polys.iter().all(|q| q.is_uniform()) {
        if let (Some(x), Some(c)) = (p(0), konst(1)) {
            if c > 0 {
                let unsigned = !alu.ty.signed;
                if alu.op == AluOp::Div {
                    let s = ctx.opaque(0, Cong::TOP);
                    ctx.quotient(s, x, c, unsigned);
                    return Value::sym(s);
                }
                if unsigned || ctx.facts().uniform_nonneg(x) {
                    let s = ctx.opaque(0, Cong::TOP);
                    ctx.bound(s, 0, c - 1);
                    return Value::sym(s);
                }
            }
        }
    }
    // Uniform `min`, `max`, `bmsk` of bounded operands: the operand that
    // the bounds pick, or an opaque value within the result's bounds.
    if polys.iter().all(|q| q.is_uniform()) {
        if let Some(v) = uniform_bounded(alu, &polys, ctx) {
            return v;
        }
    }
    // A uniform `x & c` with `c >= 0` is an opaque value in `[0, c]`.
    if alu.op == AluOp::And && polys.iter().all(|q| q.is_uniform()) {
        let c = konst(1).or(konst(0)).map(|c| sext_const(alu, c));
        if let Some(c) = c.filter(|&c| c >= 0) {
            let s = ctx.opaque(0, Cong::TOP);
            ctx.bound(s, 0, c);
            return Value::sym(s);
        }
    }
    // `x % n` with `n` an unknown uniform: `x` (no wrap, see the essay).
    if alu.op == AluOp::Rem {
        if let (Some(x), Some(n)) = (p(0), p(1)) {
            if n.is_uniform() && n.as_const().is_none() && !x.is_uniform() {
                return Value::poly(x.clone());
            }
        }
    }
    give_up(args, ctx)
}

/// The bounds of a uniform operand read as type `t` (`None` when unknown
/// or outside the type's range, where the reading would differ from the
/// value): a constant, or a polynomial over bounded symbols
/// ([`SymFacts::uniform_range`]).
fn uniform_bounds(p: &Poly, t: Ty, facts: &SymFacts) -> Option<(i128, i128)> {
    let (lo, hi) = facts.uniform_range(p)?;
    let (tlo, thi) = if t.bits >= 64 {
        (i64::MIN as i128, i64::MAX as i128)
    } else if t.signed {
        (-(1i128 << (t.bits - 1)), (1i128 << (t.bits - 1)) - 1)
    } else {
        (0, (1i128 << t.bits) - 1)
    };
    (lo >= tlo && hi <= thi).then_some((lo, hi))
}

/// A uniform, non-constant operand with known bounds ([`uniform_bounds`])
/// as a range over no base: one unknown shared by every lane (partition
/// 0), not data.
fn uniform_as_range(v: &Value, t: Ty, facts: &SymFacts) -> Option<Value> {
    let p = v.as_poly()?;
    if !p.is_uniform() || p.as_const().is_some() {
        return None;
    }
    let (lo, hi) = uniform_bounds(p, t, facts)?;
    let (lo, hi) = (i64::try_from(lo).ok()?, i64::try_from(hi).ok()?);
    Some(Range::with_bits(
        Poly::default(),
        lo,
        hi,
        Cong::TOP,
        false,
        None,
        0,
        super::domain::KnownBits::UNKNOWN,
    ))
}

/// `min`, `max` and `bmsk` of uniform operands with known bounds
/// ([`uniform_bounds`]): `min(x, y)` is `x` when `x`'s greatest value is at
/// most `y`'s least (so `min(n, 4)` with `n` in `[4, 8]` is 4), otherwise an
/// opaque value in `[min(lo), min(hi)]` (likewise `max`); `bmsk a, b`
/// (PTX ISA: a mask of `b` bits from bit `a`; `.clamp` clamps both to 32,
/// `.wrap` takes them modulo 32) with `a`, `b` known below 32 (any
/// non-negative `u32` for `.clamp`) is below `2^(a_max + b_max)`. A
/// result symbol carries a non-negative range only.
fn uniform_bounded(alu: Alu, polys: &[&Poly], ctx: &mut dyn OpaqueSource) -> Option<Value> {
    let (x, y) = (*polys.first()?, *polys.get(1)?);
    let (lo, hi) = match alu.op {
        AluOp::Min | AluOp::Max => {
            let (a, b) = (
                uniform_bounds(x, alu.ty, ctx.facts())?,
                uniform_bounds(y, alu.ty, ctx.facts())?,
            );
            let min = alu.op == AluOp::Min;
            // The side that every pair of values picks.
            if (min && a.1 <= b.0) || (!min && a.0 >= b.1) {
                return Some(Value::poly(x.clone()));
            }
            if (min && b.1 <= a.0) || (!min && b.0 >= a.1) {
                return Some(Value::poly(y.clone()));
            }
            if min {
                (a.0.min(b.0), a.1.min(b.1))
            } else {
                (a.0.max(b.0), a.1.max(b.1))
            }
        }
        AluOp::Bmsk(clamp) => {
            let u32t = Ty {
                signed: false,
                bits: 32,
                ..alu.ty
            };
            let (a, b) = (
                uniform_bounds(x, u32t, ctx.facts())?,
                uniform_bounds(y, u32t, ctx.facts())?,
            );
            let top = if clamp {
                a.1.min(32) + b.1.min(32)
            } else if a.1 < 32 && b.1 < 32 {
                a.1 + b.1
            } else {
                return None;
            };
            (0, (1i128 << top.min(32)) - 1)
        }
        _ => return None,
    };
    if lo < 0 {
        return None;
    }
    let (lo, hi) = (i64::try_from(lo).ok()?, i64::try_from(hi).ok()?);
    if lo == hi {
        return Some(Value::constant(lo));
    }
    let s = ctx.opaque(0, Cong::TOP);
    ctx.bound(s, lo, hi);
    Some(Value::sym(s))
}

/// `x - trunc(x / c) * c` with `trunc(x / c)` an opaque quotient
/// ([`SymFacts::quotients`]): the remainder `x % c`, as nvcc computes it for
/// a divisor known only at run time (`div`, `mul.lo`, `sub`), an opaque
/// value in `[0, c - 1]` when `x` is non-negative or the division unsigned.
/// `None` when `r` is not of that form (or the remainder may be negative).
fn remainder(r: &Poly, ctx: &mut dyn OpaqueSource) -> Option<Value> {
    let mut found = None;
    for (m, k) in r.terms() {
        let [q @ Sym::Opaque(id)] = m.syms() else {
            continue;
        };
        let Some(super::domain::Quotient::Of { x, c, unsigned }) =
            ctx.facts().quotients.get(*id as usize)
        else {
            continue;
        };
        if k.at(0) != -*c || r.add(&Poly::sym(*q).scale(*c)) != **x {
            continue;
        }
        found = Some((*c, *unsigned || ctx.facts().uniform_nonneg(x)));
        break;
    }
    let (c, nonneg) = found?;
    if !nonneg {
        return None;
    }
    let s = ctx.opaque(4, Cong::TOP);
    ctx.bound(s, 0, c - 1);
    Some(Value::sym(s))
}

/// A constant operand read in the instruction's width, sign-extended:
/// `0xffffffe0` on `.b32` is the high mask -32 for the (non-negative)
/// values involved.
fn sext_const(alu: Alu, c: i64) -> i64 {
    if alu.ty.bits < 64 {
        Ty {
            signed: true,
            ..alu.ty
        }
        .read(c)
    } else {
        c
    }
}

/// The `bitwin` rules for `and`/`or`/`xor` (with a constant or of two
/// polynomials) and logical right shifts by a constant.
fn bit_windows(alu: Alu, args: &[Value], ctx: &mut dyn OpaqueSource) -> Option<Value> {
    let op = alu.op;
    match op {
        AluOp::And | AluOp::Or | AluOp::Xor => {}
        AluOp::Shr if !alu.ty.signed => {
            let x = args.first()?.as_poly()?;
            let k = args.get(1)?.as_poly()?.as_const()?;
            let k = u32::try_from(k).ok().filter(|&k| k < alu.ty.bits)?;
            return bitwin::shift_right(x, k, ctx.facts()).map(Value::poly);
        }
        _ => return None,
    }
    let a = args.first()?.as_poly()?;
    let b = args.get(1)?.as_poly()?;
    let r = match (a.as_const(), b.as_const()) {
        (Some(_), Some(_)) => None,
        (None, Some(c)) => bitwin::with_const(op, a, sext_const(alu, c), ctx.facts()),
        (Some(c), None) => bitwin::with_const(op, b, sext_const(alu, c), ctx.facts()),
        (None, None) if op != AluOp::And => bitwin::disjoint(a, b, ctx.facts()),
        _ => None,
    };
    r.map(Value::poly)
}

/// `(U + d) >> k` or `(U + d) / c` (`div` = `2^k` or `c`) when `U ≡ r (mod
/// M)`, `m = gcd(M, div)` and every lane's `r mod m + d` stays in `[0, m)`:
/// `U - r` is a multiple of `m`, which divides `div`, so adding less than `m`
/// never crosses a multiple of `div`: every lane gets the same quotient, an
/// opaque uniform value (`tid >> 6` of a warp whose base is `≡ 0 mod 32`).
fn same_block(x: &Poly, div: i64, ctx: &mut dyn OpaqueSource) -> Option<Value> {
    if div <= 1 || x.is_uniform() {
        return None;
    }
    let (u, d) = uniform_plus_lanes(x)?;
    let cu = ctx.facts().poly_cong(&u);
    if cu.m == 0 {
        return None;
    }
    let (mut a, mut b) = (cu.m, div as u64);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let m = i64::try_from(a).ok()?;
    let r = cu.r.rem_euclid(m);
    if d.iter()
        .any(|&v| v.wrapping_add(r) < 0 || v.wrapping_add(r) >= m)
    {
        return None;
    }
    Some(Value::sym(ctx.opaque(3, Cong::TOP)))
}

/// `small | big` when `small` is exact with every lane in `[0, 2^j)` and every
/// lane of `big` is a multiple of `2^j`: the bits are disjoint, so it is `small + big`.
fn disjoint_sum(small: &Poly, big: &Poly, ctx: &mut dyn OpaqueSource) -> Option<Value> {
    let sl = small.exact()?;
    let max = sl.iter().copied().max()?;
    if sl.iter().any(|&v| v < 0) {
        return None;
    }
    let m = pow2_above(max)?;
    let (u, d) = uniform_plus_lanes(big)?;
    if ctx.facts().poly_cong(&u).residue_mod(m as u64)? != 0
        || d.iter().any(|v| v.rem_euclid(m) != 0)
    {
        return None;
    }
    Some(Value::poly(small.add(big)))
}

/// `and`, `or`, `xor` of `U + d` with a constant `c` (see the module essay).
fn bitwise(alu: Alu, x: &Poly, c: i64, ctx: &mut dyn OpaqueSource) -> Option<Value> {
    // Constants are read in the type's width, sign-extended: 0xffffffe0 on
    // .b32 is the high mask -32 for the (non-negative) values involved.
    let c = sext_const(alu, c);
    let op = alu.op;
    let f = |v: i64, k: i64| match op {
        AluOp::And => v & k,
        AluOp::Or => v | k,
        _ => v ^ k,
    };
    let (u, d) = uniform_plus_lanes(x)?;
    let cu = ctx.facts().poly_cong(&u);
    // A: c in [0, 2^j) and U mod 2^j known: exact lanes, the high part is
    // cleared (and) or kept (or, xor).
    if c >= 0 {
        if let Some(m) = pow2_above(c) {
            if let Some(r) = cu.residue_mod(m as u64) {
                let lanes: Lanes = std::array::from_fn(|l| f(d[l].wrapping_add(r), c));
                return Some(Value::poly(match op {
                    AluOp::And => Poly::lanes(lanes),
                    _ => u.add_const(r.wrapping_neg()).add(&Poly::lanes(lanes)),
                }));
            }
        }
    }
    // B: a high mask -2^j with U mod 2^j known: U + d - ((r + d) mod 2^j).
    if op == AluOp::And {
        if let Some(n) = c.checked_neg() {
            if n > 0 && n & (n - 1) == 0 {
                if let Some(v) = split_at_modulus(x, n, 1, ctx, &|v| v & c) {
                    return Some(v);
                }
            }
        }
    }
    // C: U ≡ r (mod M), M the power of two the congruence gives, and the lanes
    // stay inside one M-block (r + d in [0, M)): the bits below M come from
    // the lanes, the bits above from U, so the result is a uniform value
    // (≡ 0 mod M) plus exact lanes: (U - r) op c_hi + (r + d) op c_lo.
    if cu.m == 0 {
        return None;
    }
    let m = 1i64.checked_shl(cu.m.trailing_zeros().min(40))?;
    if m < 2 {
        return None;
    }
    let r = cu.r.rem_euclid(m);
    if d.iter()
        .any(|&v| v.wrapping_add(r) < 0 || v.wrapping_add(r) >= m)
    {
        return None;
    }
    let c_lo = c & (m - 1);
    let c_hi = c & !(m - 1);
    let lanes: Lanes = std::array::from_fn(|l| f(d[l].wrapping_add(r), c_lo));
    let high_exact = u.add_const(r.wrapping_neg());
    let high = match op {
        AluOp::And if c_hi == 0 => Poly::constant(0),
        AluOp::And if c_hi == !(m - 1) => high_exact,
        AluOp::Or | AluOp::Xor if c_hi == 0 => high_exact,
        _ => match high_exact.as_const() {
            Some(h) => Poly::constant(f(h, c_hi)),
            None => {
                let s = ctx.opaque(2, Cong::modulo(m as u64, 0));
                // `x & c` with `c >= 0` lies in [0, c] (here its high part: [0, c_hi])
                if op == AluOp::And && c >= 0 {
                    ctx.bound(s, 0, c_hi);
                }
                Poly::sym(s)
            }
        },
    };
    Some(Value::poly(high.add(&Poly::lanes(lanes))))
}

/// A float instruction's value: exact per lane when every operand is
/// (`float::eval` lane by lane), otherwise nothing is known of it (an
/// opaque uniform value when every operand is uniform).
fn float_value(alu: Alu, args: &[Value], ctx: &mut dyn OpaqueSource) -> Value {
    let exact: Option<Vec<Lanes>> = args
        .iter()
        .map(|a| a.as_poly().and_then(|p| p.exact()))
        .collect();
    if let Some(ex) = exact {
        if let Some(v) = lanewise(alu, &ex) {
            return v;
        }
    }
    give_up(args, ctx)
}

/// A float comparison's or `testp`'s predicate (`second`: the second
/// destination of `setp p|q`): per lane when its float operands are exact,
/// then combined with the `.and/.or/.xor` predicate as `setp` does.
fn float_pred(alu: Alu, args: &[Value], second: bool) -> Value {
    let AluOp::Float(op, m) = alu.op else {
        return Value::Pred(PredVal::Unknown {
            uniform: false,
            data: false,
        });
    };
    let (nf, comb) = match op {
        FloatOp::Cmp(_, comb) => (2, comb),
        _ => (1, None),
    };
    let floats = &args[..args.len().min(nf)];
    let base = (|| {
        if floats.len() != nf {
            return None;
        }
        let ex: Vec<Lanes> = floats
            .iter()
            .map(|a| a.as_poly().and_then(|p| p.exact()))
            .collect::<Option<_>>()?;
        let mut bits = 0u32;
        for l in 0..WARP {
            let lane: Vec<i64> = ex.iter().map(|x| x[l]).collect();
            // The comparison alone (no `.and/.or/.xor` operand).
            let only = match op {
                FloatOp::Cmp(c, _) => FloatOp::Cmp(c, None),
                o => o,
            };
            let v = if second {
                super::float::second(only, m, alu.ty, &lane)?
            } else {
                super::float::eval(only, m, alu.ty, &lane)?
            };
            if v != 0 {
                bits |= 1 << l;
            }
        }
        Some(PredVal::Lanes(bits))
    })();
    let pv = base.unwrap_or(PredVal::Unknown {
        uniform: floats.iter().all(Value::is_uniform),
        data: floats.iter().any(Value::is_data),
    });
    Value::Pred(match comb {
        None => pv,
        Some(op) => {
            let q = match args.get(2) {
                Some(Value::Pred(q)) => *q,
                _ => PredVal::Unknown {
                    uniform: false,
                    data: false,
                },
            };
            match op {
                AluOp2::And => pv & q,
                AluOp2::Or => pv | q,
                AluOp2::Xor => pv ^ q,
            }
        }
    })
}

fn setp(cmp: Cmp, comb: Option<AluOp2>, t: Ty, args: &[Value]) -> Value {
    let base = (|| {
        let a = args.first()?.as_poly()?;
        let b = args.get(1)?.as_poly()?;
        if let (Some(x), Some(y)) = (a.exact(), b.exact()) {
            let mut bits = 0u32;
            for l in 0..WARP {
                if compare_checked(cmp, t, x[l], y[l])? {
                    bits |= 1 << l;
                }
            }
            return Some(PredVal::Lanes(bits));
        }
        // The uniform parts cancel: compare the exact difference with 0
        // (no wrap-around assumed, signed view). Not for floating-point
        // values, whose bit patterns do not subtract.
        if t.float {
            return None;
        }
        let d = a.sub(b).exact()?;
        let st = Ty {
            signed: true,
            bits: 64,
            float: false,
        };
        let mut bits = 0u32;
        for (l, &v) in d.iter().enumerate() {
            if compare(cmp, st, v, 0) {
                bits |= 1 << l;
            }
        }
        Some(PredVal::Lanes(bits))
    })();
    let pv = base.unwrap_or_else(|| {
        let two = &args[..args.len().min(2)];
        PredVal::Unknown {
            uniform: two.iter().all(Value::is_uniform),
            data: two.iter().any(Value::is_data),
        }
    });
    let pv = match comb {
        None => pv,
        Some(op) => {
            let q = match args.get(2) {
                Some(Value::Pred(q)) => *q,
                _ => PredVal::Unknown {
                    uniform: false,
                    data: false,
                },
            };
            match op {
                AluOp2::And => pv & q,
                AluOp2::Or => pv | q,
                AluOp2::Xor => pv ^ q,
            }
        }
    };
    Value::Pred(pv)
}

fn selp(args: &[Value], ctx: &mut dyn OpaqueSource) -> Value {
    let (Some(a), Some(b), Some(p)) = (args.first(), args.get(1), args.get(2)) else {
        return Value::Varying { data: false };
    };
    match p {
        Value::Pred(PredVal::Lanes(u32::MAX)) => a.clone(),
        Value::Pred(PredVal::Lanes(0)) => b.clone(),
        Value::Pred(PredVal::Lanes(bits)) => {
            if let (Some(x), Some(y)) = (
                a.as_poly().and_then(|q| q.exact()),
                b.as_poly().and_then(|q| q.exact()),
            ) {
                let v: Lanes =
                    std::array::from_fn(|l| if bits & (1 << l) != 0 { x[l] } else { y[l] });
                Value::poly(Poly::lanes(v))
            } else {
                Value::Varying {
                    data: a.is_data() || b.is_data(),
                }
            }
        }
        _ if a == b => a.clone(),
        Value::Pred(PredVal::Unknown {
            uniform: true,
            data,
        }) if a.is_uniform() && b.is_uniform() => {
            if *data {
                Value::Varying { data: true }
            } else {
                give_up(&[a.clone(), b.clone()], ctx)
            }
        }
        _ => {
            let data = a.is_data() || b.is_data() || p.is_data();
            if data {
                let t = Ty {
                    bits: 64,
                    signed: true,
                    float: false,
                };
                if let Some(Value::Range(r)) = bounds::hull(a, b, t) {
                    return Value::Range(std::rc::Rc::new(Range {
                        data,
                        ..(*r).clone()
                    }));
                }
            }
            Value::Varying { data }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Ctx {
        facts: SymFacts,
        next: u32,
    }
    impl OpaqueSource for Ctx {
        fn opaque(&mut self, _slot: u32, cong: Cong) -> Sym {
            self.facts.opaque.push(Some(cong));
            self.next += 1;
            Sym::Opaque(self.next - 1)
        }
        fn facts(&self) -> &SymFacts {
            &self.facts
        }
    }
    fn ctx() -> Ctx {
        let mut facts = SymFacts {
            params: vec![Cong::modulo(256, 0), Cong::TOP],
            ..SymFacts::default()
        };
        facts.tid_base = [
            Some(Cong::modulo(256, 0)),
            Some(Cong::exact(0)),
            Some(Cong::exact(0)),
        ];
        Ctx { facts, next: 0 }
    }
    fn d(m: &str, ops: &[&str]) -> Alu {
        decode(m, ops).unwrap()
    }

    /// A context that keeps the ranges of the symbols it makes.
    struct Ranged {
        facts: SymFacts,
    }
    impl OpaqueSource for Ranged {
        fn opaque(&mut self, _slot: u32, cong: Cong) -> Sym {
            self.facts.opaque.push(Some(cong));
            self.facts.opaque_range.push(None);
            Sym::Opaque(self.facts.opaque.len() as u32 - 1)
        }
        fn facts(&self) -> &SymFacts {
            &self.facts
        }
        fn bound(&mut self, s: Sym, lo: i64, hi: i64) {
            if let Sym::Opaque(i) = s {
                self.facts.opaque_range[i as usize] = Some((lo, hi));
            }
        }
    }

    /// `min`, `max`, `bmsk` of bounded uniform operands: for every pair of
    /// values in the operands' ranges, the exact result is what the
    /// abstract one says (the operand it picks, the constant, or a value
    /// in the new symbol's range).
    #[test]
    fn uniform_bounded_rules_are_sound() {
        let ranges = [
            (0, 0),
            (4, 4),
            (0, 3),
            (2, 5),
            (4, 8),
            (0, 31),
            (5, 40),
            (30, 33),
        ];
        let ops = [
            d("min", &["s32"]),
            d("min", &["u32"]),
            d("max", &["s32"]),
            d("max", &["u32"]),
            d("bmsk", &["clamp", "b32"]),
            d("bmsk", &["wrap", "b32"]),
        ];
        let mut picked = 0;
        for alu in ops {
            for ra in ranges {
                for rb in ranges {
                    let mut cx = Ranged {
                        facts: SymFacts {
                            opaque: vec![Some(Cong::TOP); 2],
                            opaque_range: vec![Some(ra), Some(rb)],
                            ..SymFacts::default()
                        },
                    };
                    let arg = |i: u32, (lo, hi): (i64, i64)| {
                        if lo == hi {
                            c(lo)
                        } else {
                            Value::poly(Poly::sym(Sym::Opaque(i)))
                        }
                    };
                    let r = abstract_eval(alu, &[arg(0, ra), arg(1, rb)], &mut cx);
                    let p = r.as_poly().expect("uniform");
                    for x in ra.0..=ra.1 {
                        for y in rb.0..=rb.1 {
                            let want = eval_scalar(alu, &[x, y]).unwrap();
                            let ok = match (p.as_const(), p.terms()) {
                                (Some(k), _) => k == want,
                                (None, [(m, k)]) if k.at(0) == 1 => match m.syms() {
                                    [Sym::Opaque(0)] => want == x,
                                    [Sym::Opaque(1)] => want == y,
                                    [Sym::Opaque(i)] => match cx.facts.opaque_range[*i as usize] {
                                        Some((lo, hi)) => (lo..=hi).contains(&want),
                                        None => true,
                                    },
                                    _ => false,
                                },
                                _ => false,
                            };
                            assert!(ok, "{alu:?} {x} {y}: {want} not in {r:?}");
                        }
                    }
                    picked += (p.as_const().is_some() || cx.facts.opaque.len() == 2) as u32;
                }
            }
        }
        // The rules decide often (a side, a constant), not only bound.
        assert!(picked > 50, "{picked}");
        // `min(bits_left, 4)` with `bits_left` in [4, 8] is 4, so
        // `bmsk.clamp(0, 4)` is 15.
        let mut cx = Ranged {
            facts: SymFacts {
                opaque: vec![Some(Cong::TOP)],
                opaque_range: vec![Some((4, 8))],
                ..SymFacts::default()
            },
        };
        let w = abstract_eval(
            d("min", &["s32"]),
            &[Value::poly(Poly::sym(Sym::Opaque(0))), c(4)],
            &mut cx,
        );
        assert_eq!(w, c(4));
        // Without a lower bound the width may be negative, which `.clamp`
        // reads as 32 (a full mask): no bound.
        cx.facts.opaque_range[0] = None;
        let w = abstract_eval(
            d("min", &["s32"]),
            &[Value::poly(Poly::sym(Sym::Opaque(0))), c(4)],
            &mut cx,
        );
        assert!(w.as_poly().and_then(|p| p.as_const()).is_none());
        assert_eq!(
            eval_scalar(d("bmsk", &["clamp", "b32"]), &[0, -4]),
            Some(0xffff_ffff)
        );
        // `key & bmsk(0, w)` with the mask in [0, 15]: bits 4.. are 0.
        cx.facts.opaque_range[0] = Some((0, 15));
        let r = abstract_eval(
            d("and", &["b32"]),
            &[
                Value::Varying { data: true },
                Value::poly(Poly::sym(Sym::Opaque(0))),
            ],
            &mut cx,
        );
        match r {
            Value::Range(r) => assert_eq!((r.lo, r.hi, r.bits.zero >> 4), (0, 15, u64::MAX >> 4)),
            other => panic!("{other:?}"),
        }
    }
    fn iota() -> Value {
        Value::poly(Poly::lanes(std::array::from_fn(|l| l as i64)))
    }
    /// i = 256*ctaid + tid0 + lane (tid0 ≡ 0 mod 256)
    fn global_index() -> Value {
        let p = Poly::sym(Sym::Ctaid(0))
            .scale(256)
            .add(&Poly::sym(Sym::TidBase(0)))
            .add(&Poly::lanes(std::array::from_fn(|l| l as i64)));
        Value::poly(p)
    }
    fn c(v: i64) -> Value {
        Value::constant(v)
    }
    fn lanes(v: &Value) -> Lanes {
        v.as_poly().unwrap().exact().unwrap()
    }
    fn lane_part(v: &Value) -> Lanes {
        v.as_poly().unwrap().split().1.exact().unwrap()
    }

    #[test]
    fn scalar_wraps_at_the_type_width() {
        let add32 = d("add", &["s32"]);
        assert_eq!(
            eval_scalar(add32, &[i32::MAX as i64, 1]),
            Some(i32::MIN as i64)
        );
        let addu = d("add", &["u32"]);
        assert_eq!(eval_scalar(addu, &[0xffff_ffff, 1]), Some(0));
        let wide = d("mul", &["wide", "s32"]);
        assert_eq!(eval_scalar(wide, &[-3, 4]), Some(-12));
        let wideu = d("mul", &["wide", "u32"]);
        assert_eq!(eval_scalar(wideu, &[0xffff_ffff, 2]), Some(0x1_ffff_fffe));
        let hi = d("mul", &["hi", "u32"]);
        assert_eq!(eval_scalar(hi, &[0x8000_0000, 4]), Some(2));
        let mad = d("mad", &["lo", "s32"]);
        assert_eq!(eval_scalar(mad, &[3, 4, 5]), Some(17));
        let madw = d("mad", &["wide", "s32"]);
        assert_eq!(eval_scalar(madw, &[1 << 30, 8, 1]), Some((1i64 << 33) + 1));
    }

    #[test]
    fn scalar_shifts_division_and_conversion() {
        assert_eq!(
            eval_scalar(d("shl", &["b32"]), &[1, 40]),
            Some(0),
            "shift clamps"
        );
        assert_eq!(
            eval_scalar(d("shl", &["b32"]), &[1, -1]),
            Some(0),
            "huge shift"
        );
        assert_eq!(eval_scalar(d("shr", &["s32"]), &[-8, 1]), Some(-4));
        assert_eq!(eval_scalar(d("shr", &["u32"]), &[-8, 1]), Some(0x7fff_fffc));
        assert_eq!(eval_scalar(d("shr", &["s32"]), &[-8, 100]), Some(-1));
        assert_eq!(
            eval_scalar(d("div", &["s32"]), &[7, 0]),
            None,
            "division by zero"
        );
        assert_eq!(eval_scalar(d("rem", &["u32"]), &[7, 0]), None);
        assert_eq!(
            eval_scalar(d("div", &["s32"]), &[i32::MIN as i64, -1]),
            Some(i32::MIN as i64)
        );
        assert_eq!(
            eval_scalar(d("div", &["s64"]), &[i64::MIN, -1]),
            Some(i64::MIN)
        );
        assert_eq!(eval_scalar(d("rem", &["s32"]), &[-7, 3]), Some(-1));
        assert_eq!(
            eval_scalar(d("cvt", &["s64", "s32"]), &[0xffff_ffff]),
            Some(-1)
        );
        assert_eq!(
            eval_scalar(d("cvt", &["u64", "u32"]), &[-1]),
            Some(0xffff_ffff)
        );
        assert_eq!(
            eval_scalar(d("cvt", &["u32", "u64"]), &[0x1_0000_0005]),
            Some(5)
        );
        assert_eq!(eval_scalar(d("min", &["u32"]), &[-1, 3]), Some(3));
        assert_eq!(eval_scalar(d("min", &["s32"]), &[-1, 3]), Some(-1));
        assert_eq!(eval_scalar(d("bfe", &["u32"]), &[0xf0, 4, 4]), Some(0xf));
        assert_eq!(eval_scalar(d("bfe", &["s32"]), &[0xf0, 4, 4]), Some(-1));
        assert!(compare(Cmp::Lt, Ty::parse("u32").unwrap(), 1, -1));
        assert!(!compare(Cmp::Lt, Ty::parse("s32").unwrap(), 1, -1));
    }

    #[test]
    fn float_comparisons_are_ieee() {
        let f32t = Ty::parse("f32").unwrap();
        let b = |x: f32| i64::from(x.to_bits());
        // -2 < -1 (the bit patterns, read as integers, order them the other way)
        assert_eq!(compare_checked(Cmp::Lt, f32t, b(-2.0), b(-1.0)), Some(true));
        assert_eq!(compare_checked(Cmp::Eq, f32t, b(-0.0), b(0.0)), Some(true));
        // ordered comparisons: false with a NaN operand, `ne` included
        assert_eq!(
            compare_checked(Cmp::Ne, f32t, b(f32::NAN), b(0.0)),
            Some(false)
        );
        let f64t = Ty::parse("f64").unwrap();
        let d = |x: f64| x.to_bits() as i64;
        assert_eq!(compare_checked(Cmp::Ge, f64t, d(0.5), d(0.25)), Some(true));
        // f16 and bf16 share a width: not evaluated
        assert_eq!(
            compare_checked(Cmp::Eq, Ty::parse("f16").unwrap(), 0, 0),
            None
        );
        assert_eq!(
            compare_checked(Cmp::Lt, Ty::parse("s32").unwrap(), 1, -1),
            Some(false)
        );
    }

    #[test]
    fn lane_arithmetic_is_exact() {
        let mut x = ctx();
        let i = iota();
        let sw = abstract_eval(d("xor", &["b32"]), &[i.clone(), c(1)], &mut x);
        assert_eq!(&lanes(&sw)[..4], &[1, 0, 3, 2]);
        let q = abstract_eval(d("shr", &["u32"]), &[i.clone(), c(2)], &mut x);
        let q = abstract_eval(d("mul", &["lo", "s32"]), &[q, c(64)], &mut x);
        assert_eq!(&lanes(&q)[..6], &[0, 0, 0, 0, 64, 64]);
        let r = abstract_eval(d("rem", &["u32"]), &[i.clone(), c(3)], &mut x);
        assert_eq!(&lanes(&r)[..4], &[0, 1, 2, 0]);
        // (i & ~31) + 31 - (i & 31): the reversal
        let hi = abstract_eval(d("and", &["b32"]), &[i.clone(), c(-32)], &mut x);
        let lo = abstract_eval(d("and", &["b32"]), &[i.clone(), c(31)], &mut x);
        let s = abstract_eval(d("add", &["s32"]), &[hi, c(31)], &mut x);
        let rev = abstract_eval(d("sub", &["s32"]), &[s, lo], &mut x);
        assert_eq!(lanes(&rev)[0], 31);
        assert_eq!(lanes(&rev)[31], 0);
    }

    #[test]
    fn symbolic_uniform_parts_with_known_congruence() {
        let mut x = ctx();
        let i = global_index();
        // i ^ 1 keeps the uniform part, swaps lane pairs (lane part relative to lane 0)
        let v = abstract_eval(d("xor", &["b32"]), &[i.clone(), c(1)], &mut x);
        assert_eq!(&lane_part(&v)[..4], &[0, -1, 2, 1]);
        assert_eq!(
            v.as_poly().unwrap().split().0.to_string(),
            "1 + 256*ctaid.x + tid0.x"
        );
        // i >> 5: uniform (broadcast within the warp)
        let v = abstract_eval(d("shr", &["s32"]), &[i.clone(), c(5)], &mut x);
        assert!(v.is_uniform(), "{v:?}");
        // i >> 3: 4 groups of 8 lanes
        let v = abstract_eval(d("shr", &["s32"]), &[i.clone(), c(3)], &mut x);
        let lp = v.as_poly().unwrap().split().1.exact().unwrap();
        assert_eq!((lp[0], lp[7], lp[8], lp[31]), (0, 0, 1, 3));
        // i & 7 is exact
        let v = abstract_eval(d("and", &["b32"]), &[i.clone(), c(7)], &mut x);
        assert_eq!(lanes(&v)[9], 1);
        // i & ~3 (as .b32 0xfffffffc)
        let v = abstract_eval(d("and", &["b32"]), &[i.clone(), c(0xffff_fffc)], &mut x);
        assert_eq!(&lane_part(&v)[..6], &[0, 0, 0, 0, 4, 4]);
        // (i << 2) & 28: a mask that is not 2^j - 1
        let i4 = abstract_eval(d("shl", &["b32"]), &[i.clone(), c(2)], &mut x);
        let v = abstract_eval(d("and", &["b64"]), &[i4, c(28)], &mut x);
        assert_eq!(&lanes(&v)[..9], &[0, 4, 8, 12, 16, 20, 24, 28, 0]);
        // i ^ 0x55: U is known only mod 32 (tid0 ≡ 0 mod 32 in a 256-thread
        // block with unknown ctaid... here mod 256), the lanes stay in one
        // block: exact lanes plus a uniform value
        let mut y = ctx();
        y.facts.tid_base[0] = Some(Cong::modulo(32, 0));
        let v = abstract_eval(d("xor", &["b32"]), &[i.clone(), c(0x55)], &mut y);
        let (u, lp) = v.as_poly().unwrap().split();
        assert_eq!(lp.exact().unwrap()[0], 0);
        assert_eq!(lp.exact().unwrap()[1], (1 ^ 0x15) - 0x15);
        assert_eq!(y.facts.poly_cong(&u).residue_mod(32), Some(0x15));
        // (lane % 8) * 4 | (i & -32): disjoint bits, a sum
        let lane = abstract_eval(d("and", &["b32"]), &[i.clone(), c(7)], &mut x);
        let lane4 = abstract_eval(d("shl", &["b32"]), &[lane, c(2)], &mut x);
        let hi = abstract_eval(d("and", &["b32"]), &[i.clone(), c(-32)], &mut x);
        let v = abstract_eval(d("or", &["b32"]), &[lane4, hi], &mut x);
        assert_eq!(&lane_part(&v)[..9], &[0, 4, 8, 12, 16, 20, 24, 28, 0]);
        // i % 17: the uniform part is not known mod 17
        let v = abstract_eval(d("rem", &["s32"]), &[i.clone(), c(17)], &mut x);
        assert_eq!(v, Value::Varying { data: false });
        // i * n (n unknown): a symbolic stride
        let n = Value::poly(Poly::sym(Sym::Param(1)));
        let v = abstract_eval(d("mul", &["lo", "s32"]), &[i.clone(), n], &mut x);
        let (_, lane) = v.as_poly().unwrap().split();
        assert_eq!(lane.terms().len(), 1);
        assert_eq!(lane.terms()[0].0.syms(), &[Sym::Param(1)]);
        // shl by a constant scales
        let v = abstract_eval(d("shl", &["b64"]), &[i.clone(), c(2)], &mut x);
        assert_eq!(lane_part(&v)[3], 12);
        // shifting a 32-bit value by 40 (or by a negative amount, read unsigned) gives 0
        let v = abstract_eval(d("shl", &["b32"]), &[i.clone(), c(40)], &mut x);
        assert_eq!(v, Value::constant(0));
        let v = abstract_eval(d("shr", &["u32"]), &[i, c(-1)], &mut x);
        assert_eq!(v, Value::constant(0));
    }

    #[test]
    fn comparisons_and_selects() {
        let mut x = ctx();
        let lane = abstract_eval(d("and", &["b32"]), &[global_index(), c(31)], &mut x);
        let p = abstract_eval(d("setp", &["lt", "s32"]), &[lane, c(16)], &mut x);
        assert_eq!(p, Value::Pred(PredVal::Lanes(0xffff)));
        // i < n with n unknown: lane-varying unknown
        let n = Value::poly(Poly::sym(Sym::Param(1)));
        let q = abstract_eval(
            d("setp", &["ge", "s32"]),
            &[global_index(), n.clone()],
            &mut x,
        );
        assert_eq!(
            q,
            Value::Pred(PredVal::Unknown {
                uniform: false,
                data: false
            })
        );
        // n > 0: uniform unknown
        let u = abstract_eval(d("setp", &["gt", "s32"]), &[n, c(0)], &mut x);
        assert_eq!(
            u,
            Value::Pred(PredVal::Unknown {
                uniform: true,
                data: false
            })
        );
        // combined with .and
        let p2 = abstract_eval(d("setp", &["lt", "and", "s32"]), &[iota(), c(8), p], &mut x);
        assert_eq!(p2, Value::Pred(PredVal::Lanes(0xff)));
        let s = abstract_eval(
            d("selp", &["b32"]),
            &[c(1), c(2), Value::Pred(PredVal::Lanes(1))],
            &mut x,
        );
        assert_eq!(&lanes(&s)[..2], &[1, 2]);
        // slct: lane - 16 >= 0 picks the first operand in lanes 16..31
        let cond = Value::poly(Poly::lanes(std::array::from_fn(|l| l as i64 - 16)));
        let s = abstract_eval(d("slct", &["b32", "s32"]), &[c(7), c(9), cond], &mut x);
        assert_eq!((lanes(&s)[15], lanes(&s)[16]), (9, 7));
        assert_eq!(
            eval_scalar(d("slct", &["b32", "s32"]), &[7, 9, -1]),
            Some(9)
        );
    }

    #[test]
    fn bit_instructions_on_symbolic_indices() {
        let mut x = ctx();
        let ctaid = Value::poly(Poly::sym(Sym::Ctaid(0)));
        let lane15 = abstract_eval(d("and", &["b32"]), &[iota(), c(15)], &mut x);
        // bfi.b32 %r, %ctaid, %lane15, 4, 28 (x[blockIdx.x * 16 + (threadIdx.x & 15)])
        let v = abstract_eval(
            d("bfi", &["b32"]),
            &[ctaid.clone(), lane15.clone(), c(4), c(28)],
            &mut x,
        );
        let (u, lp) = v.as_poly().unwrap().split();
        assert_eq!(u.to_string(), "16*ctaid.x");
        assert_eq!(&lp.exact().unwrap()[14..18], &[14, 15, 0, 1]);
        // a field that stops below the msb masks the inserted value first:
        // bfi(ctaid, lane15, 4, 4) = ((ctaid & 15) << 4) | lane15, with
        // ctaid & 15 an opaque uniform value u: 16·u + lane15
        let v = abstract_eval(
            d("bfi", &["b32"]),
            &[ctaid.clone(), lane15.clone(), c(4), c(4)],
            &mut x,
        );
        let (u, lp) = v.as_poly().unwrap().split();
        assert!(u.to_string().starts_with("16*u"), "{u}");
        assert_eq!(&lp.exact().unwrap()[14..18], &[14, 15, 0, 1]);
        // lop3 (a & 31) | c with c = 32 * ctaid: lut 0xEA = (a & b) | c
        let hi = Value::poly(Poly::sym(Sym::Ctaid(0)).scale(32));
        let v = abstract_eval(
            d("lop3", &["b32"]),
            &[global_index(), c(31), hi, c(0xEA)],
            &mut x,
        );
        let (u, lp) = v.as_poly().unwrap().split();
        assert_eq!(u.to_string(), "32*ctaid.x");
        assert_eq!(lp.exact().unwrap()[31], 31);
        // shf.r.wrap of {0, i} by 2 is i >> 2
        let v = abstract_eval(
            d("shf", &["r", "wrap", "b32"]),
            &[global_index(), c(0), c(2)],
            &mut x,
        );
        let lp = v.as_poly().unwrap().split().1.exact().unwrap();
        assert_eq!((lp[3], lp[4], lp[31]), (0, 1, 7));
        // mov.b64 %rd, {%lo, %hi}: lo + hi·2^32
        let v = abstract_eval(
            Alu {
                op: AluOp::Pack(32),
                ty: Ty::parse("b64").unwrap(),
            },
            &[global_index(), c(1)],
            &mut x,
        );
        assert_eq!(
            v.as_poly().unwrap().split().0.to_string(),
            "4294967296 + 256*ctaid.x + tid0.x"
        );
        // (x · 0xAAAAAAAB) >> 33 with x = 96·ctaid + lane: x / 3, exact per lane
        let x96 = Value::poly(
            Poly::sym(Sym::Ctaid(0))
                .scale(96)
                .add(&Poly::lanes(std::array::from_fn(|l| l as i64))),
        );
        let p = abstract_eval(
            d("mul", &["wide", "u32"]),
            &[x96.clone(), c(-1431655765)],
            &mut x,
        );
        let q = abstract_eval(d("shr", &["u64"]), &[p, c(33)], &mut x);
        let (u, lp) = q.as_poly().unwrap().split();
        assert_eq!(u.to_string(), "32*ctaid.x");
        assert_eq!(&lp.exact().unwrap()[..7], &[0, 0, 0, 1, 1, 1, 2]);
        // mul.hi.u32 x, 0xAAAAAAAB then shr.u32 by 1: the same
        let t = abstract_eval(d("mul", &["hi", "u32"]), &[x96, c(0xAAAA_AAAB)], &mut x);
        let q = abstract_eval(d("shr", &["u32"]), &[t, c(1)], &mut x);
        assert_eq!(&lane_part(&q)[..7], &[0, 0, 0, 1, 1, 1, 2]);
        // the sign of a non-negative index: 0
        let s = abstract_eval(d("shr", &["s32"]), &[global_index(), c(31)], &mut x);
        assert_eq!(s, c(0));
        // exact lanes go through the one-lane semantics
        let v = abstract_eval(d("brev", &["b32"]), &[iota()], &mut x);
        assert_eq!(lanes(&v)[1], 0x8000_0000);
        let v = abstract_eval(d("prmt", &["b32", "rc8"]), &[iota(), c(0), c(0)], &mut x);
        assert_eq!(lanes(&v)[2], 0x0202_0202);
    }

    #[test]
    fn shuffles_permute_lanes_and_broadcast() {
        let mut x = ctx();
        // __shfl_sync(m, i, 0): lane 0's value in every lane, uniform
        let v = abstract_eval(
            d("shfl", &["sync", "idx", "b32"]),
            &[global_index(), c(0), c(0x1f), c(-1)],
            &mut x,
        );
        assert!(v.is_uniform());
        assert_eq!(v.as_poly().unwrap().to_string(), "256*ctaid.x + tid0.x");
        // __shfl_xor_sync(m, i, 1): pairs swapped
        let v = abstract_eval(
            d("shfl", &["sync", "bfly", "b32"]),
            &[global_index(), c(1), c(0x1f), c(-1)],
            &mut x,
        );
        assert_eq!(&lane_part(&v)[..4], &[0, -1, 2, 1]);
        // a broadcast of loaded data is uniform
        let v = abstract_eval(
            d("shfl", &["sync", "idx", "b32"]),
            &[Value::Varying { data: true }, c(3), c(0x1f), c(-1)],
            &mut x,
        );
        assert!(v.is_uniform() && v.as_poly().is_some());
        // loaded data read from lane `k + (lane >> 4)` (k a parameter, not
        // exact): one unknown per half-warp, the partition of bit 4
        let half = Value::poly(
            Poly::sym(Sym::Param(1)).add(&Poly::lanes(std::array::from_fn(|l| (l >> 4) as i64))),
        );
        let shared = |v: &Value| match v {
            Value::Range(r) => Some((r.key, r.data, r.bounded())),
            _ => None,
        };
        let v = abstract_eval(
            d("shfl", &["sync", "idx", "b32"]),
            &[Value::Varying { data: true }, half.clone(), c(0x1f), c(-1)],
            &mut x,
        );
        assert_eq!(shared(&v), Some((0x10, true, false)));
        // the same from the exact sources lane >> 4 (lanes 0 and 16)
        let v = abstract_eval(
            d("shfl", &["sync", "idx", "b32"]),
            &[
                Value::Varying { data: true },
                Value::poly(Poly::lanes(std::array::from_fn(|l| (l >> 4) as i64))),
                c(0x1f),
                c(-1),
            ],
            &mut x,
        );
        assert_eq!(shared(&v), Some((0x10, true, false)));
        // a bounded loaded value keeps its bounds, shared by the half-warps
        let byte = Range::value(Poly::default(), 0, 255, Cong::TOP, true);
        let v = abstract_eval(
            d("shfl", &["sync", "idx", "b32"]),
            &[byte.clone(), half.clone(), c(0x1f), c(-1)],
            &mut x,
        );
        assert_eq!(shared(&v), Some((0x10, true, true)));
        // segments of 16 (c = 0x101f) at an unknown uniform index: lane k of
        // each half-warp, the same partition
        let v = abstract_eval(
            d("shfl", &["sync", "idx", "b32"]),
            &[
                Value::Varying { data: true },
                Value::poly(Poly::sym(Sym::Param(1))),
                c(0x101f),
                c(-1),
            ],
            &mut x,
        );
        assert_eq!(shared(&v), Some((0x10, true, false)));
        // an unknown uniform index without segments: a broadcast, uniform
        let v = abstract_eval(
            d("shfl", &["sync", "idx", "b32"]),
            &[
                Value::Varying { data: true },
                Value::poly(Poly::sym(Sym::Param(1))),
                c(0x1f),
                c(-1),
            ],
            &mut x,
        );
        assert!(v.is_uniform() && v.as_poly().is_some());
        // c[4:0] below the segment's top: a lane may read its own value,
        // no sharing
        let v = abstract_eval(
            d("shfl", &["sync", "idx", "b32"]),
            &[Value::Varying { data: true }, half, c(0x0f), c(-1)],
            &mut x,
        );
        assert_eq!(v, Value::Varying { data: true });
        // shfl.down by 1: lanes 30 and 31 share lane 31, which no lane-bit
        // partition expresses: independent lanes
        let v = abstract_eval(
            d("shfl", &["sync", "down", "b32"]),
            &[byte, c(1), c(0x1f), c(-1)],
            &mut x,
        );
        assert_eq!(shared(&v), Some((0x1f, true, true)));
        // the predicate of shfl.down by 4: lanes 28..31 read out of range
        let p = crosslane::shfl_pred(ShflMode::Down, &[global_index(), c(4), c(0x1f)]);
        assert_eq!(p, Value::Pred(PredVal::Lanes(0x0fff_ffff)));
        // votes are uniform
        let unk = Value::Pred(PredVal::Unknown {
            uniform: false,
            data: true,
        });
        let v = abstract_eval(
            d("vote", &["sync", "ballot", "b32"]),
            &[unk.clone(), c(-1)],
            &mut x,
        );
        assert!(v.is_uniform() && v.as_poly().is_some());
        let v = abstract_eval(d("vote", &["sync", "any", "pred"]), &[unk, c(-1)], &mut x);
        assert!(v.is_uniform());
        let v = abstract_eval(d("activemask", &["b32"]), &[], &mut x);
        assert!(v.is_uniform());
        // redux.sync.min of a uniform value is that value; match.any of a
        // lane-varying value is lane-varying, of a uniform one uniform
        let n = Value::poly(Poly::sym(Sym::Param(1)));
        let v = abstract_eval(
            d("redux", &["sync", "min", "u32"]),
            &[n.clone(), c(-1)],
            &mut x,
        );
        assert_eq!(v, n);
        let v = abstract_eval(
            d("match", &["any", "sync", "b32"]),
            &[iota(), c(-1)],
            &mut x,
        );
        assert!(!v.is_uniform());
        let v = abstract_eval(d("match", &["any", "sync", "b32"]), &[n, c(-1)], &mut x);
        assert!(v.is_uniform());
        // mapa: the same lane pattern in another CTA's window, uniform rank
        let a = abstract_eval(d("shl", &["b32"]), &[iota(), c(2)], &mut x);
        let v = abstract_eval(
            d("mapa", &["shared::cluster", "u32"]),
            &[a.clone(), c(1)],
            &mut x,
        );
        assert_eq!(lane_part(&v), lane_part(&a));
        assert!(v.as_poly().unwrap().split().0.to_string().starts_with('u'));
        let v = abstract_eval(d("mapa", &["shared::cluster", "u32"]), &[a, iota()], &mut x);
        assert_eq!(v, Value::Varying { data: false });
    }

    #[test]
    fn data_dependence_propagates() {
        let mut x = ctx();
        let data = Value::Varying { data: true };
        let v = abstract_eval(d("mul", &["wide", "s32"]), &[data, c(4)], &mut x);
        assert_eq!(v, Value::Varying { data: true });
        let w = abstract_eval(
            d("add", &["s64"]),
            &[Value::poly(Poly::sym(Sym::Param(0))), v],
            &mut x,
        );
        assert!(w.is_data());
        // uniform unknowns stay uniform
        let u = abstract_eval(
            d("mul", &["hi", "u32"]),
            &[Value::poly(Poly::sym(Sym::Param(1))), c(3)],
            &mut x,
        );
        assert!(u.is_uniform());
        // float arithmetic decodes to `AluOp::Float` (evaluated by
        // `float`); an approximate instruction does not decode
        assert!(matches!(
            decode("add", &["f32"]).map(|a| a.op),
            Some(AluOp::Float(FloatOp::Add, _))
        ));
        assert!(decode("ex2", &["approx", "f32"]).is_none());
        assert!(decode("frobnicate", &["u32"]).is_none());
    }
}
