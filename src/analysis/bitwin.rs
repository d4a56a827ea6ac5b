//! Bit windows: `and`, `or`, `xor` and right shifts of symbolic sums whose
//! terms occupy disjoint bit ranges.
//!
//! # The abstract view
//!
//! Compilers build indices with bit operations where the programmer wrote
//! additions: Triton's `pid * BLOCK + tl.arange(0, BLOCK)` becomes
//! `(ctaid << 10) | (tid & 127)`, and the unrolled copies add their offsets
//! with `or x, 128`. Such an `or` is an addition because the operands' bits
//! do not overlap, which the polynomial domain cannot see from congruences
//! alone: it needs upper bounds as well.
//!
//! A polynomial `Σ c_t · m_t` is viewed term by term. Each term gets a
//! **window** `[tz, w)`: every value it takes, in every lane, is a multiple
//! of `2^tz`, non-negative and below `2^w`. `tz` comes from the coefficients'
//! trailing zeros and the symbols' congruences (`TidBase ≡ 0 mod 32` gives
//! 5); `w` from the symbols' ranges ([`SymFacts::range`]: `%tid` below the
//! block size, `%ctaid.x` below `2^31`, an opaque value built by `and` with a
//! constant below that constant) and the coefficients. A term whose symbols
//! have no known range, or which may be negative, has the window `[tz, ∞)`:
//! in two's complement its bits below `tz` are still zero. Terms sorted by
//! `tz` are merged into **parts** while a term starts below the current
//! part's end (an unbounded part takes every term after it); the parts'
//! windows are then pairwise disjoint, so the sum *is* the bitwise or of the
//! parts.

//! # Transfer rules
//!
//! With the parts `P_i` of `x` and a constant `c`:
//!
//! - `x & c = Σ P_i & c`, where `P_i & c` is `P_i` when `c` covers its whole
//!   window, 0 when it misses it, and exact per lane when `P_i` is a lane
//!   vector; otherwise the rule does not apply.
//! - `x | c` and `x ^ c`: the bits of `c` outside every window are added as a
//!   constant; a part whose window meets `c` must be a lane vector (then
//!   `lanes | c` or `lanes ^ c` per lane).
//! - `x >> k` (unsigned): parts below bit `k` vanish, a lane-vector part is
//!   shifted per lane, a symbolic part at or above `k` is divided when all
//!   its coefficients are multiples of `2^k`.
//! - `x | y` and `x ^ y` of two polynomials whose windows are pairwise
//!   disjoint: `x + y`.
//!
//! # Soundness and limits
//!
//! Exact under the domain's no-wrap assumption (the windows are computed in
//! mathematical integers; a 32-bit `or` of values below `2^32` is the same).
//! Only the highest part may be unbounded or negative; a logical right
//! shift declines on a part that may be negative (the caller then tries its
//! other rules). A part whose window is partly covered by the constant is
//! not split further.

use super::domain::{Coef, Cong, Lanes, Mono, Poly, SymFacts};
use crate::ir::alu::AluOp;

/// Trailing zeros of a symbol's values, from its congruence (`≡ r mod m`:
/// every value is a multiple of `2^min(tz(m), tz(r))`).
fn sym_tz(c: Cong) -> u32 {
    let tz = |v: u64| if v == 0 { 64 } else { v.trailing_zeros() };
    if c.m == 0 {
        tz(c.r.unsigned_abs())
    } else {
        tz(c.m).min(tz(c.r.rem_euclid(c.m as i64).unsigned_abs()))
    }
}

/// Bits needed for `v` (`v >= 0`): the `w` with `v < 2^w`.
fn width(v: i128) -> u32 {
    128 - v.leading_zeros()
}

/// One term's window over every lane: `(tz, hi)`, `hi = None` when the
/// term is unbounded above or may be negative (the second flag).
fn term_window(m: &Mono, c: &Coef, facts: &SymFacts) -> (u32, Option<i128>, bool) {
    let mut s_hi: Option<i128> = Some(1);
    let mut negative = false;
    let mut s_tz = 0u32;
    for s in m.syms() {
        match facts.range(*s) {
            Some((_, hi)) => {
                s_hi = match (s_hi, hi) {
                    (Some(a), Some(b)) => a.checked_mul(b),
                    _ => None,
                }
            }
            None => {
                s_hi = None;
                negative = true;
            }
        }
        s_tz = s_tz.saturating_add(sym_tz(facts.cong(*s)));
    }
    let lanes = c.to_lanes();
    let c_tz = lanes
        .iter()
        .filter(|&&k| k != 0)
        .map(|k| k.trailing_zeros())
        .min()
        .unwrap_or(64);
    let tz = (c_tz + s_tz).min(127);
    if lanes.iter().any(|&k| k < 0) {
        return (tz, None, true);
    }
    let c_max = lanes.iter().copied().max().unwrap_or(0) as i128;
    let hi = match s_hi {
        Some(h) => c_max.checked_mul(h),
        None if c_max == 0 => Some(0),
        None => None,
    };
    (tz, hi, negative)
}

/// A group of terms whose window `[tz, end)` no other part meets.
#[derive(Clone, Debug)]
pub struct Part {
    /// The terms' sum.
    pub poly: Poly,
    /// Every value is a multiple of `2^tz`.
    pub tz: u32,
    /// Every value is in `[0, 2^end)` (`None`: unbounded above, or possibly
    /// negative when `signed`; only the highest part can be unbounded).
    pub end: Option<u32>,
    /// The part may be negative (two's complement: its bits below `tz` are
    /// still zero, the bits above are not known).
    pub signed: bool,
}

impl Part {
    /// The window's bit mask (within 64 bits).
    fn mask(&self) -> u64 {
        let lo = if self.tz >= 64 {
            0
        } else {
            u64::MAX << self.tz
        };
        let hi = match self.end {
            Some(e) if e < 64 => (1u64 << e) - 1,
            _ => u64::MAX,
        };
        lo & hi
    }
}

/// The parts of `p` (see the module essay), lowest window first.
pub fn parts(p: &Poly, facts: &SymFacts) -> Vec<Part> {
    // (tz, upper bound, may be negative, term) of each term
    type Term = (u32, Option<i128>, bool, (Mono, Coef));
    let mut terms: Vec<Term> = Vec::with_capacity(p.terms().len());
    for (m, c) in p.terms() {
        let (tz, hi, neg) = term_window(m, c, facts);
        terms.push((tz, hi, neg, (*m, c.clone())));
    }
    terms.sort_by_key(|t| t.0);
    // (terms, tz, upper bound, may be negative) of each part so far
    type Acc = (Vec<(Mono, Coef)>, u32, Option<i128>, bool);
    let mut out: Vec<Acc> = Vec::new();
    for (tz, hi, neg, t) in terms {
        match out.last_mut() {
            Some((ts, _, phi, pneg)) if phi.map(|h| tz < width(h)).unwrap_or(true) => {
                ts.push(t);
                *phi = match (*phi, hi) {
                    (Some(a), Some(b)) => a.checked_add(b),
                    _ => None,
                };
                *pneg |= neg;
            }
            _ => out.push((vec![t], tz, hi, neg)),
        }
    }
    out.into_iter()
        .map(|(ts, tz, hi, signed)| Part {
            poly: Poly::from_terms(ts),
            tz,
            end: hi.map(width),
            signed,
        })
        .collect()
}

/// `a op b` for the bitwise operations the rules cover (`and`, `or`, `xor`).
fn apply(op: AluOp, a: i64, b: i64) -> i64 {
    match op {
        AluOp::And => a & b,
        AluOp::Or => a | b,
        _ => a ^ b,
    }
}

/// `x op c` by the rules of the module essay; `c` as a 64-bit pattern
/// (sign-extended from the instruction's type).
pub fn with_const(op: AluOp, x: &Poly, c: i64, facts: &SymFacts) -> Option<Poly> {
    if !matches!(op, AluOp::And | AluOp::Or | AluOp::Xor) || (op != AluOp::And && c < 0) {
        return None;
    }
    let parts = parts(x, facts);
    let cu = c as u64;
    let mut out = Poly::default();
    let mut covered = 0u64;
    for p in &parts {
        let w = p.mask();
        covered |= w;
        let hit = cu & w;
        if let Some(lanes) = p.poly.exact() {
            let v: Lanes = std::array::from_fn(|l| apply(op, lanes[l], hit as i64));
            out = out.add(&Poly::lanes(v));
            continue;
        }
        match op {
            AluOp::And if hit == w => out = out.add(&p.poly),
            AluOp::And if hit == 0 => {}
            AluOp::Or | AluOp::Xor if hit == 0 => out = out.add(&p.poly),
            _ => return None,
        }
    }
    if op != AluOp::And {
        let rest = cu & !covered;
        out = out.add_const(rest as i64);
    }
    Some(out)
}

/// `x | y` or `x ^ y` when every window of one misses every window of the
/// other: `x + y`.
pub fn disjoint(x: &Poly, y: &Poly, facts: &SymFacts) -> Option<Poly> {
    let px = parts(x, facts);
    let py = parts(y, facts);
    let mx = px.iter().fold(0u64, |m, p| m | p.mask());
    let my = py.iter().fold(0u64, |m, p| m | p.mask());
    (mx & my == 0).then(|| x.add(y))
}

/// Part `k` of `w` bits of `x` (`mov.b64 {lo, hi}, x`): the parts of `x`
/// below bit `k·w` drop out, those from bit `(k+1)·w` on are masked off,
/// and the parts in between (which must start at or above bit `k·w`) are
/// shifted down. The highest of them may be unbounded or negative: under
/// the no-wrap assumption its value is what the `w`-bit register holds.
/// `None` when a part straddles bit `k·w`.
pub fn unpack(x: &Poly, k: u32, w: u32, facts: &SymFacts) -> Option<Poly> {
    let lo = k.checked_mul(w)?;
    let hi = lo.checked_add(w)?;
    if w == 0 || lo >= 63 {
        return None;
    }
    let mut out = Poly::default();
    for p in parts(x, facts) {
        if p.end.is_some_and(|e| e <= lo) && !p.signed {
            continue;
        }
        if p.tz >= hi {
            continue;
        }
        if p.tz < lo {
            return None;
        }
        out = out.add(&shift_down(&p.poly, lo)?);
    }
    Some(out)
}

/// `p / 2^k` when every lane of every coefficient is a multiple of `2^k`.
fn shift_down(p: &Poly, k: u32) -> Option<Poly> {
    let div = 1i64 << k;
    let mut t = Vec::with_capacity(p.terms().len());
    for (m, c) in p.terms() {
        let lanes = c.to_lanes();
        if lanes.iter().any(|v| v % div != 0) {
            return None;
        }
        t.push((*m, Coef::lanes(std::array::from_fn(|l| lanes[l] / div))));
    }
    Some(Poly::from_terms(t))
}

/// `x >> k` (logical) by the rules of the module essay.
pub fn shift_right(x: &Poly, k: u32, facts: &SymFacts) -> Option<Poly> {
    if k == 0 || k >= 63 {
        return None;
    }
    let parts = parts(x, facts);
    let mut out = Poly::default();
    for p in &parts {
        if p.end.map(|e| e <= k).unwrap_or(false) {
            continue;
        }
        if p.signed {
            return None;
        }
        if let Some(lanes) = p.poly.exact() {
            let v: Lanes = std::array::from_fn(|l| lanes[l] >> k);
            out = out.add(&Poly::lanes(v));
            continue;
        }
        out = out.add(&shift_down(&p.poly, k)?);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::domain::{Sym, WARP};
    use super::*;

    fn facts() -> SymFacts {
        SymFacts {
            tid_base: [
                Some(Cong::modulo(32, 0)),
                Some(Cong::exact(0)),
                Some(Cong::exact(0)),
            ],
            tid_base_range: [Some((0, 96)), Some((0, 0)), Some((0, 0))],
            ..SymFacts::default()
        }
    }
    fn iota() -> Poly {
        Poly::lanes(std::array::from_fn(|l| l as i64))
    }
    /// `(ctaid << 10) | (tid & 127)` of a 128-thread block: Triton's index.
    fn triton_index() -> Poly {
        Poly::sym(Sym::Ctaid(0))
            .scale(1024)
            .add(&Poly::sym(Sym::TidBase(0)))
            .add(&iota())
    }

    #[test]
    fn parts_of_a_triton_index_are_lanes_warp_base_and_block() {
        let p = parts(&triton_index(), &facts());
        let w: Vec<(u32, Option<u32>)> = p.iter().map(|p| (p.tz, p.end)).collect();
        assert_eq!(w, vec![(0, Some(5)), (5, Some(7)), (10, Some(41))]);
    }

    #[test]
    fn unpacking_a_packed_pair_gives_its_halves() {
        // {lo, hi} with lo an opaque value in [0, 2^32) and hi = lane + 128*u
        // (u of unknown sign): Triton's epilogue packs and unpacks them.
        let mut f = facts();
        f.opaque_range = vec![Some((0, 0xffff_ffff)), None];
        let lo = Poly::sym(Sym::Opaque(0));
        let hi = iota().add(&Poly::sym(Sym::Opaque(1)).scale(128));
        let packed = lo.add(&hi.scale(1 << 32));
        assert_eq!(unpack(&packed, 1, 32, &f), Some(hi.clone()));
        assert_eq!(unpack(&packed, 0, 32, &f), Some(lo.clone()));
        // lo not known to fit its half: the halves cannot be told apart
        f.opaque_range = vec![None, None];
        assert_eq!(unpack(&packed, 1, 32, &f), None);
    }

    #[test]
    fn tid_and_mask_of_a_128_block_is_tid() {
        let tid = Poly::sym(Sym::TidBase(0)).add(&iota());
        assert_eq!(with_const(AluOp::And, &tid, 127, &facts()), Some(tid));
    }

    #[test]
    fn or_with_a_block_offset_is_an_addition() {
        let x = triton_index();
        assert_eq!(
            with_const(AluOp::Or, &x, 128, &facts()),
            Some(x.add(&Poly::constant(128)))
        );
        let y = Poly::sym(Sym::Ctaid(0)).scale(1024);
        let tid = Poly::sym(Sym::TidBase(0)).add(&iota());
        assert_eq!(disjoint(&y, &tid, &facts()), Some(x));
    }

    #[test]
    fn overlapping_bits_decline() {
        // bit 5 belongs to the warp base's window: not an addition
        assert_eq!(with_const(AluOp::Or, &triton_index(), 32, &facts()), None);
        // the lanes' window is exact: or-ing 1 is per lane
        let r = with_const(AluOp::Or, &iota(), 1, &facts()).unwrap();
        assert_eq!(r.exact().unwrap()[2], 3);
        // a scalar parameter of unknown sign: its bits are all unknown
        let n = Poly::sym(Sym::Param(1));
        assert_eq!(with_const(AluOp::Or, &n, 1, &facts()), None);
        // but 128 * n has its low seven bits clear, whatever its sign
        let hi = n.scale(128);
        let lanes = Poly::lanes(std::array::from_fn(|l| (l % 4) as i64));
        assert_eq!(disjoint(&hi, &lanes, &facts()), Some(hi.add(&lanes)));
        assert_eq!(shift_right(&hi.add(&lanes), 7, &facts()), None);
    }

    #[test]
    fn shifts_drop_low_windows_and_divide_high_ones() {
        let r = shift_right(&triton_index(), 10, &facts());
        assert_eq!(r, Some(Poly::sym(Sym::Ctaid(0))));
        // the warp base (≡ 0 mod 32, coefficient 1) cannot be divided by 64
        assert_eq!(shift_right(&triton_index(), 6, &facts()), None);
        let lanes = shift_right(&iota(), 3, &facts()).unwrap().exact().unwrap();
        assert_eq!(lanes[31], 3);
        assert_eq!(WARP, 32);
    }
}
