//! Bit-level instructions on symbolic values: `bfi`, `lop3`, `shf`, `szext`,
//! `bfe`, `mov` packing and magic-number division, rewritten into the
//! operations `transfer` already models.
//!
//! # Why rewrite
//!
//! When every operand is exact per lane, `transfer::eval_scalar` evaluates
//! these instructions lane by lane (`bitfield`). Addresses, though, mix exact
//! lanes with uniform unknowns (`%ctaid`, a pointer, a loop counter), and
//! compilers build them with bit-level instructions: `x[blockIdx.x * 16 +
//! (threadIdx.x & 15)]` is `bfi.b32 %r, %ctaid, %lane15, 4, 28`. Each rule
//! below states the instruction as `and`/`or`/`xor`/`shl`/`shr`/`add`/`div`
//! of its operands and evaluates that with `transfer::abstract_eval`, whose
//! rules (exact lanes plus a uniform part known through congruences, disjoint
//! bits as sums) then apply.
//!
//! # Transfer rules
//!
//! * `bfi a, b, pos, len` (constant `pos`, `len`): `(b & ~field) | ((a &
//!   lenmask) << pos)`; when the field reaches the msb the mask of `a` is the
//!   type's wrap-around, which the domain assumes away, so `a << pos`.
//! * `lop3 a, b, c, lut` (constant `lut`): the truth table is matched against
//!   small formulas (one operand, two with `and`/`or`/`xor`, `(x op y) op z`,
//!   the bitwise select `(x & y) | (~x & z)`; negation only of constants),
//!   first match wins; the formula is then evaluated.
//! * `shf.{l,r}` by a constant `n`: `(hi << n) | (lo >> (32 - n))` or
//!   `(lo >> n) | (hi << (32 - n))`.
//! * `szext.u32 a, b` and `bfe.u32 a, pos, len` with constants: a mask, or a
//!   shift and a mask.
//! * `mov.bN d, {p0, p1}`: `p0 + p1 · 2^w` (parts assumed in range, as the
//!   no-wrap assumption of the domain says). A uniform part whose range is
//!   not known to fit its `w` bits (an opaque value that may be negative)
//!   is the register's bits all the same: it becomes a fresh opaque value
//!   in `[0, 2^w)`, so that the other parts can be unpacked again.
//! * `mov.bN {d0, d1}, s`: part `k` is `bitwin::unpack` — the parts of `s`'s
//!   bit windows below bit `k·w` drop out, those from `(k+1)·w` on are
//!   masked off, the rest shift down (Triton's `{lo, hi}` round trip).
//! * `mul.hi.u32 x, M`: when `M·d = 2^(32+s) + e` with `e ≤ 1` for some `d ≥
//!   2`, `mulhi(x, M) = ⌊2^s·x / d⌋` for every 32-bit `x` (the error term
//!   `e·x / 2^32` is below 1 and cannot cross a multiple of `d`), so the
//!   product is the division `(x << s) / d`, and the `shr.u32` by `s` that
//!   follows is `x / d`: exact per lane when the uniform part of `x` is known
//!   modulo `d` (`(96 · ctaid + tid) / 3`). Constants with `e > 1` (`/ 7`
//!   uses an add-and-shift sequence) are not recognised.
//!
//! # Soundness
//!
//! Each rewrite is an identity of the instruction's semantics (under the
//! domain's no-wrap assumption where stated), so it is as sound as the rules
//! it is rewritten into. Opaque symbols created by the parts are kept apart
//! (each part evaluates with its own slot range of the instruction).

use super::domain::{Coef, Poly, Sym, SymFacts, Value, WARP};
use super::transfer::{abstract_eval, Alu, AluOp, MulMode, OpaqueSource, Ty};

/// Sub-evaluations of one instruction: part `k` gets slots `1000 + 64·k ..`.
struct Part<'a> {
    inner: &'a mut dyn OpaqueSource,
    base: u32,
}

impl OpaqueSource for Part<'_> {
    fn opaque(&mut self, slot: u32, cong: super::domain::Cong) -> Sym {
        self.inner.opaque(self.base + slot.min(63), cong)
    }
    fn facts(&self) -> &SymFacts {
        self.inner.facts()
    }
}

struct Rewriter<'a> {
    ctx: &'a mut dyn OpaqueSource,
    next: u32,
    ty: Ty,
}

impl Rewriter<'_> {
    fn op(&mut self, op: AluOp, args: &[Value]) -> Value {
        self.op_ty(op, self.ty, args)
    }
    fn op_ty(&mut self, op: AluOp, ty: Ty, args: &[Value]) -> Value {
        let base = 1000 + 64 * self.next;
        self.next += 1;
        let mut p = Part {
            inner: &mut *self.ctx,
            base,
        };
        abstract_eval(Alu { op, ty }, args, &mut p)
    }
    fn konst(&self, v: i64) -> Value {
        Value::constant(self.ty.read(v))
    }
}

fn konst(v: Option<&Value>) -> Option<i64> {
    v?.as_poly()?.as_const()
}

/// `true` when `v` is the result of giving up (not a polynomial).
fn gave_up(v: &Value) -> bool {
    !matches!(v, Value::Poly(_))
}

/// Evaluates `alu(args)` by rewriting, when a rule applies (see the essay).
/// `args` are polynomials, at least one not exact.
pub fn eval(alu: Alu, args: &[Value], ctx: &mut dyn OpaqueSource) -> Option<Value> {
    let mut rw = Rewriter {
        ctx,
        next: 0,
        ty: alu.ty,
    };
    let bits = alu.ty.bits.clamp(1, 64) as i64;
    let mask_of = |n: i64| -> i64 {
        if n >= 64 {
            -1
        } else {
            (1i64 << n) - 1
        }
    };
    match alu.op {
        AluOp::Bfi => {
            let (a, b) = (args.first()?.clone(), args.get(1)?.clone());
            let pos = konst(args.get(2))? & 0xff;
            let len = konst(args.get(3))? & 0xff;
            if len == 0 || pos >= bits {
                return Some(b);
            }
            let flen = len.min(bits - pos);
            let field = mask_of(flen) << pos;
            let a = if pos + flen >= bits {
                a
            } else {
                rw.op(AluOp::And, &[a, rw.konst(mask_of(flen))])
            };
            let hi = rw.op(AluOp::Shl, &[a, Value::constant(pos)]);
            let lo = rw.op(AluOp::And, &[b, rw.konst(!field)]);
            Some(rw.op(AluOp::Or, &[lo, hi]))
        }
        AluOp::Lop3 => {
            let lut = konst(args.get(3))? & 0xff;
            let ops = [
                args.first()?.clone(),
                args.get(1)?.clone(),
                args.get(2)?.clone(),
            ];
            lop3(&mut rw, &ops, lut)
        }
        AluOp::Shf { left, clamp } => {
            let (lo, hi) = (args.first()?.clone(), args.get(1)?.clone());
            let c = konst(args.get(2))? & 0xffff_ffff;
            let n = if clamp { c.min(32) } else { c & 31 };
            let u32t = Ty {
                bits: 32,
                signed: false,
                float: false,
            };
            let (up, down, up_n, down_n) = if left {
                (hi, lo, n, 32 - n)
            } else {
                (hi, lo, 32 - n, n)
            };
            // left: (hi << n) | (lo >> (32 - n)); right: (hi << (32 - n)) | (lo >> n)
            let a = rw.op_ty(AluOp::Shl, u32t, &[up, Value::constant(up_n)]);
            let b = rw.op_ty(AluOp::Shr, u32t, &[down, Value::constant(down_n)]);
            Some(rw.op_ty(AluOp::Or, u32t, &[a, b]))
        }
        AluOp::Szext(clamp) if !alu.ty.signed => {
            let b = konst(args.get(1))? & 0xffff_ffff;
            let b = if clamp { b.min(32) } else { b & 31 };
            let a = args.first()?.clone();
            Some(if b >= 32 {
                a
            } else {
                rw.op(AluOp::And, &[a, Value::constant(mask_of(b))])
            })
        }
        AluOp::Bfe if !alu.ty.signed => {
            let pos = konst(args.get(1))? & 0xff;
            let len = konst(args.get(2))? & 0xff;
            if len == 0 || pos >= bits {
                return Some(Value::constant(0));
            }
            let len = len.min(bits - pos);
            let s = rw.op(AluOp::Shr, &[args.first()?.clone(), Value::constant(pos)]);
            Some(rw.op(AluOp::And, &[s, Value::constant(mask_of(len))]))
        }
        AluOp::Pack(w) => {
            let w = w as i64;
            let mut acc = Value::constant(0);
            let t64 = Ty {
                bits: 64,
                signed: false,
                float: false,
            };
            for (k, p) in args.iter().enumerate() {
                let sh = k as i64 * w;
                if sh >= 64 {
                    return None;
                }
                // A uniform part is a w-bit register's bits, in [0, 2^w): when
                // its polynomial is not known to be (an opaque value that may
                // be negative or wide), it becomes a fresh opaque value of
                // that range, so that unpacking the other parts can split
                // the sum again (Triton packs `{lo, hi}` and unpacks `hi`).
                let mut p = p.clone();
                if w < 64 && p.is_uniform() {
                    if let Some(poly) = p.as_poly().filter(|q| q.as_const().is_none()) {
                        let fits = super::bitwin::parts(poly, rw.ctx.facts())
                            .iter()
                            .all(|q| !q.signed && q.end.is_some_and(|e| e as i64 <= w));
                        if !fits {
                            let s = rw.ctx.opaque(900 + k as u32, super::domain::Cong::TOP);
                            rw.ctx.bound(s, 0, mask_of(w));
                            p = Value::sym(s);
                        }
                    }
                }
                let part = rw.op_ty(AluOp::Shl, t64, &[p, Value::constant(sh)]);
                acc = rw.op_ty(AluOp::Add, t64, &[acc, part]);
            }
            (!gave_up(&acc)).then_some(acc)
        }
        // Part `k` of `w` bits: the halves of a packed `lo + (hi << 32)`
        // come back as `lo` and `hi` when the parts of the sum's bit
        // windows fall on either side (`bitwin::unpack`).
        AluOp::Unpack(k, w) => {
            let x = args.first()?.as_poly()?;
            super::bitwin::unpack(x, k as u32, w as u32, rw.ctx.facts()).map(Value::poly)
        }
        AluOp::Mul(MulMode::Hi) if alu.ty.bits == 32 => {
            let (x, m) = match (konst(args.first()), konst(args.get(1))) {
                (None, Some(m)) => (args.first()?.clone(), m),
                (Some(m), None) => (args.get(1)?.clone(), m),
                _ => return None,
            };
            // A signed product of a non-negative index (below 2^31) by a
            // positive constant is the unsigned one.
            let m = alu.ty.read(m);
            if m <= 0 {
                return None;
            }
            let (d, s) = magic_divisor(m, if alu.ty.signed { 31 } else { 32 })?;
            let t64 = Ty {
                bits: 64,
                signed: false,
                float: false,
            };
            let xs = rw.op_ty(AluOp::Shl, t64, &[x, Value::constant(s as i64)]);
            let q = rw.op_ty(AluOp::Div, t64, &[xs, Value::constant(d)]);
            (!gave_up(&q)).then_some(q)
        }
        _ => None,
    }
}

/// `(d, s)` with `M·d = 2^(32+s) + e`, `e·2^xbits ≤ 2^32`, `d ≥ 2`: then
/// `mulhi(x, M) = ⌊2^s·x / d⌋` for every `x < 2^xbits` (the error term
/// `e·x / 2^32` is below 1).
pub fn magic_divisor(m: i64, xbits: u32) -> Option<(i64, u32)> {
    if m <= 1 {
        return None;
    }
    let m = m as u128;
    for s in 0..32u32 {
        let p = 1u128 << (32 + s);
        let d = p.div_ceil(m);
        let e = m * d - p;
        if d >= 2 && (e << xbits) <= (1u128 << 32) && d < (1u128 << 32) {
            return Some((d as i64, s));
        }
    }
    None
}

/// `(x · M) >> k` (`mul.wide.u32` then `shr.u64`, as nvcc divides by
/// constants): when every coefficient of `p` is a multiple of `M` and `M·d =
/// 2^k + e` with `e ≤ 2^(k-32)`, this is `⌊x / d⌋` for every `x < 2^32` (the
/// dividend of a 32-bit division; the error term `e·x / 2^k` is below 1),
/// evaluated as a division by `d`.
pub fn magic_shift(p: &Poly, k: i64, ty: Ty, ctx: &mut dyn OpaqueSource) -> Option<Value> {
    if !(32..64).contains(&k) || p.is_uniform() {
        return None;
    }
    let g = p
        .terms()
        .iter()
        .flat_map(|(_, c)| (0..WARP).map(move |l| c.at(l)))
        .fold(0u128, |g, v| gcd(g, v.unsigned_abs() as u128));
    let mut m = g;
    while m > 1 {
        let p2 = 1u128 << k;
        let d = p2.div_ceil(m);
        let e = m * d - p2;
        if d >= 2 && e <= (1u128 << (k - 32)) && d < (1u128 << 32) {
            let m = i64::try_from(m).ok()?;
            let x = Poly::from_terms(
                p.terms()
                    .iter()
                    .map(|(mo, c)| (*mo, c.zip(&Coef::Same(m), |a, b| a / b)))
                    .collect(),
            );
            let mut rw = Rewriter { ctx, next: 8, ty };
            let q = rw.op(AluOp::Div, &[Value::poly(x), Value::constant(d as i64)]);
            return (!gave_up(&q)).then_some(q);
        }
        if m % 2 != 0 {
            break;
        }
        m /= 2;
    }
    None
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Truth tables of the three inputs (`lop3`'s convention).
const TA: u8 = 0xF0;
const TB: u8 = 0xCC;
const TC: u8 = 0xAA;

#[derive(Clone, Copy, PartialEq)]
enum Bin {
    And,
    Or,
    Xor,
}

impl Bin {
    fn table(self, x: u8, y: u8) -> u8 {
        match self {
            Bin::And => x & y,
            Bin::Or => x | y,
            Bin::Xor => x ^ y,
        }
    }
    fn op(self) -> AluOp {
        match self {
            Bin::And => AluOp::And,
            Bin::Or => AluOp::Or,
            Bin::Xor => AluOp::Xor,
        }
    }
}

/// An operand of a formula: input `i`, possibly negated (only constants are
/// negated: `not` of a symbolic value would give up).
fn operand(rw: &Rewriter<'_>, ops: &[Value; 3], i: usize, negate: bool) -> Option<Value> {
    if !negate {
        return Some(ops[i].clone());
    }
    let k = ops[i].as_poly()?.as_const()?;
    Some(rw.konst(!k))
}

fn lop3(rw: &mut Rewriter<'_>, ops: &[Value; 3], lut: i64) -> Option<Value> {
    let lut = lut as u8;
    let t = [TA, TB, TC];
    match lut {
        0x00 => return Some(Value::constant(0)),
        0xff => return Some(rw.konst(-1)),
        _ => {}
    }
    let nots = [false, true];
    // One operand.
    for (i, &ti) in t.iter().enumerate() {
        for &n in &nots {
            if (if n { !ti } else { ti }) == lut {
                if let Some(v) = operand(rw, ops, i, n) {
                    return Some(v);
                }
            }
        }
    }
    let tab = |i: usize, n: bool| if n { !t[i] } else { t[i] };
    let bins = [Bin::And, Bin::Or, Bin::Xor];
    // Two operands.
    for (i, j) in [(0, 1), (0, 2), (1, 2)] {
        for &op in &bins {
            for &ni in &nots {
                for &nj in &nots {
                    if op.table(tab(i, ni), tab(j, nj)) != lut {
                        continue;
                    }
                    let (Some(x), Some(y)) = (operand(rw, ops, i, ni), operand(rw, ops, j, nj))
                    else {
                        continue;
                    };
                    return Some(rw.op(op.op(), &[x, y]));
                }
            }
        }
    }
    // (x op1 y) op2 z.
    for z in 0..3 {
        let (i, j) = match z {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        for &op1 in &bins {
            for &op2 in &bins {
                for &ni in &nots {
                    for &nj in &nots {
                        for &nz in &nots {
                            let inner = op1.table(tab(i, ni), tab(j, nj));
                            if op2.table(inner, tab(z, nz)) != lut {
                                continue;
                            }
                            let (Some(x), Some(y), Some(w)) = (
                                operand(rw, ops, i, ni),
                                operand(rw, ops, j, nj),
                                operand(rw, ops, z, nz),
                            ) else {
                                continue;
                            };
                            let xy = rw.op(op1.op(), &[x, y]);
                            return Some(rw.op(op2.op(), &[xy, w]));
                        }
                    }
                }
            }
        }
    }
    // The bitwise select (s & x) | (~s & y), with a constant selector s.
    for s in 0..3 {
        let (i, j) = match s {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        for (x, y) in [(i, j), (j, i)] {
            if (t[s] & t[x]) | (!t[s] & t[y]) != lut {
                continue;
            }
            let (Some(sv), Some(nsv)) = (operand(rw, ops, s, false), operand(rw, ops, s, true))
            else {
                continue;
            };
            let a = rw.op(AluOp::And, &[sv, ops[x].clone()]);
            let b = rw.op(AluOp::And, &[nsv, ops[y].clone()]);
            return Some(rw.op(AluOp::Or, &[a, b]));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_numbers_of_common_divisors() {
        // nvcc's constants for unsigned division by 3, 5 (and 10: `>> 3`) and 641
        assert_eq!(magic_divisor(0xAAAA_AAAB, 32), Some((3, 1)));
        assert_eq!(magic_divisor(0xCCCC_CCCD, 32), Some((5, 2)));
        // 25 uses M = 0x51EB851F, 25·M = 2^35 + 7: e > 1, refused
        assert_eq!(magic_divisor(0x51EB_851F, 32), None);
        // 2^32 / 641 = 6700417 exactly + 1/641: M = 6700417, s = 0, e = 1
        assert_eq!(magic_divisor(6_700_417, 32), Some((641, 0)));
        // divisors needing e > 1 are refused: 7 (0x24924925 uses add-and-shift)
        assert_eq!(magic_divisor(0x2492_4925, 32), None);
        // signed i / 3 (x below 2^31): M = 0x55555556, 3·M = 2^32 + 2
        assert_eq!(magic_divisor(0x5555_5556, 31), Some((3, 0)));
        assert_eq!(magic_divisor(0x5555_5556, 32), None);
        // the identity, checked on many values
        for (m, (d, s)) in [
            (0xAAAA_AAABu64, (3u64, 1u32)),
            (0xCCCC_CCCD, (5, 2)),
            (6_700_417, (641, 0)),
        ] {
            for x in (0u64..(1 << 32))
                .step_by(7_919)
                .chain([u32::MAX as u64, (1 << 32) - 2])
            {
                assert_eq!((x * m) >> 32, (x << s) / d, "x = {x}, M = {m:#x}");
            }
        }
    }
}
