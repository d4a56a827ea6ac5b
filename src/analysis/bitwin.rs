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
//! **window** `[tz, w)`: every value it takes, in every lane, is a
//! non-negative multiple of `2^tz` below `2^w`. `tz` comes from the
//! coefficients' trailing zeros and the symbols' congruences (`TidBase ≡ 0
//! mod 32` gives 5); `w` from the symbols' ranges ([`SymFacts::range`]:
//! `%tid` below the block size, `%ctaid.x` below `2^31`, an opaque value
//! built by `and` with a constant below that constant) and the
//! coefficients. Terms sorted by `tz` are merged into **parts** while a term
//! starts below the current part's end; the parts' windows are then
//! pairwise disjoint, so the sum *is* the bitwise or of the parts.
//!
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
//! Every term must be provably non-negative: a scalar parameter of unknown
//! sign, or a negative coefficient, makes the rule decline (the caller then
//! tries its other rules). A part whose window is partly covered by the
//! constant is not split further.

use super::domain::{Coef, Cong, Lanes, Mono, Poly, SymFacts};

/// A non-negative range `[lo, hi]`; `hi = None`: no upper bound known.
type Range = (i128, Option<i128>);

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

/// One term's window: (tz, lo, hi) over every lane.
fn term_window(m: &Mono, c: &Coef, facts: &SymFacts) -> Option<(u32, i128, Option<i128>)> {
    let mut s_lo: i128 = 1;
    let mut s_hi: Option<i128> = Some(1);
    let mut s_tz = 0u32;
    for s in m.syms() {
        let (lo, hi) = facts.range(*s)?;
        s_lo = s_lo.checked_mul(lo)?;
        s_hi = match (s_hi, hi) {
            (Some(a), Some(b)) => a.checked_mul(b),
            _ => None,
        };
        s_tz = s_tz.saturating_add(sym_tz(facts.cong(*s)));
    }
    let lanes = c.to_lanes();
    if lanes.iter().any(|&k| k < 0) {
        return None;
    }
    let c_tz = lanes
        .iter()
        .filter(|&&k| k != 0)
        .map(|k| k.trailing_zeros())
        .min()
        .unwrap_or(64);
    let c_min = *lanes.iter().min()? as i128;
    let c_max = *lanes.iter().max()? as i128;
    let lo = c_min.checked_mul(s_lo)?;
    let hi = match s_hi {
        Some(h) => Some(c_max.checked_mul(h)?),
        None if c_max == 0 => Some(0),
        None => None,
    };
    Some(((c_tz + s_tz).min(127), lo, hi))
}

/// A group of terms whose window `[tz, end)` no other part meets.
#[derive(Clone, Debug)]
pub struct Part {
    /// The terms' sum.
    pub poly: Poly,
    /// Every value is a multiple of `2^tz`.
    pub tz: u32,
    /// Every value is below `2^end` (`None`: unbounded).
    pub end: Option<u32>,
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

/// The parts of `p` (see the module essay), lowest window first; `None` when a
/// term is not provably non-negative.
pub fn parts(p: &Poly, facts: &SymFacts) -> Option<Vec<Part>> {
    let mut terms: Vec<(u32, Range, (Mono, Coef))> = Vec::with_capacity(p.terms().len());
    for (m, c) in p.terms() {
        let (tz, lo, hi) = term_window(m, c, facts)?;
        if lo < 0 {
            return None;
        }
        terms.push((tz, (lo, hi), (*m, c.clone())));
    }
    terms.sort_by_key(|t| t.0);
    let mut out: Vec<(Vec<(Mono, Coef)>, u32, Option<i128>)> = Vec::new();
    for (tz, (_, hi), t) in terms {
        match out.last_mut() {
            Some((ts, _, phi)) if phi.map(|h| tz < width(h)).unwrap_or(true) => {
                ts.push(t);
                *phi = match (*phi, hi) {
                    (Some(a), Some(b)) => a.checked_add(b),
                    _ => None,
                };
            }
            _ => out.push((vec![t], tz, hi)),
        }
    }
    Some(
        out.into_iter()
            .map(|(ts, tz, hi)| Part {
                poly: Poly::from_terms(ts),
                tz,
                end: hi.map(width),
            })
            .collect(),
    )
}

/// The bitwise operations the rules cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitOp {
    /// `and`
    And,
    /// `or`
    Or,
    /// `xor`
    Xor,
}

impl BitOp {
    fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            BitOp::And => a & b,
            BitOp::Or => a | b,
            BitOp::Xor => a ^ b,
        }
    }
}

/// `x op c` by the rules of the module essay; `c` as a 64-bit pattern
/// (sign-extended from the instruction's type).
pub fn with_const(op: BitOp, x: &Poly, c: i64, facts: &SymFacts) -> Option<Poly> {
    if op != BitOp::And && c < 0 {
        return None;
    }
    let parts = parts(x, facts)?;
    let cu = c as u64;
    let mut out = Poly::default();
    let mut covered = 0u64;
    for p in &parts {
        let w = p.mask();
        covered |= w;
        let hit = cu & w;
        if let Some(lanes) = p.poly.exact() {
            let v: Lanes = std::array::from_fn(|l| op.apply(lanes[l], hit as i64));
            out = out.add(&Poly::lanes(v));
            continue;
        }
        match op {
            BitOp::And if hit == w => out = out.add(&p.poly),
            BitOp::And if hit == 0 => {}
            BitOp::Or | BitOp::Xor if hit == 0 => out = out.add(&p.poly),
            _ => return None,
        }
    }
    if op != BitOp::And {
        let rest = cu & !covered;
        out = out.add(&Poly::constant(rest as i64));
    }
    Some(out)
}

/// `x | y` or `x ^ y` when every window of one misses every window of the
/// other: `x + y`.
pub fn disjoint(x: &Poly, y: &Poly, facts: &SymFacts) -> Option<Poly> {
    let px = parts(x, facts)?;
    let py = parts(y, facts)?;
    let mx = px.iter().fold(0u64, |m, p| m | p.mask());
    let my = py.iter().fold(0u64, |m, p| m | p.mask());
    (mx & my == 0).then(|| x.add(y))
}

/// `x >> k` (logical) by the rules of the module essay.
pub fn shift_right(x: &Poly, k: u32, facts: &SymFacts) -> Option<Poly> {
    if k == 0 || k >= 63 {
        return None;
    }
    let parts = parts(x, facts)?;
    let mut out = Poly::default();
    for p in &parts {
        if p.end.map(|e| e <= k).unwrap_or(false) {
            continue;
        }
        if let Some(lanes) = p.poly.exact() {
            let v: Lanes = std::array::from_fn(|l| lanes[l] >> k);
            out = out.add(&Poly::lanes(v));
            continue;
        }
        let div = 1i64 << k;
        let mut t = Vec::with_capacity(p.poly.terms().len());
        for (m, c) in p.poly.terms() {
            let lanes = c.to_lanes();
            if lanes.iter().any(|v| v % div != 0) {
                return None;
            }
            let q: Lanes = std::array::from_fn(|l| lanes[l] / div);
            t.push((*m, Coef::lanes(q)));
        }
        out = out.add(&Poly::from_terms(t));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::domain::{Sym, WARP};
    use super::*;

    fn facts() -> SymFacts {
        let mut f = SymFacts::default();
        f.tid_base = [
            Some(Cong::modulo(32, 0)),
            Some(Cong::exact(0)),
            Some(Cong::exact(0)),
        ];
        f.tid_base_range = [Some((0, 96)), Some((0, 0)), Some((0, 0))];
        f
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
        let p = parts(&triton_index(), &facts()).unwrap();
        let w: Vec<(u32, Option<u32>)> = p.iter().map(|p| (p.tz, p.end)).collect();
        assert_eq!(w, vec![(0, Some(5)), (5, Some(7)), (10, Some(41))]);
    }

    #[test]
    fn tid_and_mask_of_a_128_block_is_tid() {
        let tid = Poly::sym(Sym::TidBase(0)).add(&iota());
        assert_eq!(with_const(BitOp::And, &tid, 127, &facts()), Some(tid));
    }

    #[test]
    fn or_with_a_block_offset_is_an_addition() {
        let x = triton_index();
        assert_eq!(
            with_const(BitOp::Or, &x, 128, &facts()),
            Some(x.add(&Poly::constant(128)))
        );
        let y = Poly::sym(Sym::Ctaid(0)).scale(1024);
        let tid = Poly::sym(Sym::TidBase(0)).add(&iota());
        assert_eq!(disjoint(&y, &tid, &facts()), Some(x));
    }

    #[test]
    fn overlapping_bits_decline() {
        // bit 5 belongs to the warp base's window: not an addition
        assert_eq!(with_const(BitOp::Or, &triton_index(), 32, &facts()), None);
        // the lanes' window is exact: or-ing 1 is per lane
        let r = with_const(BitOp::Or, &iota(), 1, &facts()).unwrap();
        assert_eq!(r.exact().unwrap()[2], 3);
        // a scalar parameter of unknown sign has no window
        let n = Poly::sym(Sym::Param(1));
        assert_eq!(with_const(BitOp::Or, &n, 1, &facts()), None);
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
