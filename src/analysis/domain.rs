//! The lane-value domain: what the analysis knows about a register, for every
//! lane of one warp at once.
//!
//! # The abstract value
//!
//! A register holding an integer is described by a [`Poly`]: a polynomial over
//! **warp-uniform symbols** ([`Sym`]: kernel parameters, `%ctaid`, `%ntid`,
//! `%nctaid`, the warp's base thread index, and opaque uniform values created by
//! joins and uniform loads) whose coefficients are **per-lane vectors**
//! ([`Coef`]): the value in lane `l` is
//!
//! ```text
//!     value(l) = Σ_m  coef_m[l] · m          (m ranges over monomials of symbols)
//! ```
//!
//! The coefficient of the constant monomial is the *exact lane part*: once the
//! block shape is known, `%tid.x` of a warp is `TidBase.x + [0, 1, …, 31]`
//! (or `[0..15, 0..15]` with `TidBase.y + [0 ×16, 1 ×16]` in a 16×16 block), so
//! every value built from thread indices and constants by the transfer
//! functions stays exact lane by lane: shifts, masks, xor swizzles, division and
//! remainder by constants are evaluated per lane. A product of a lane-varying
//! value and an unknown uniform (`tid.x * n`) keeps a lane-vector coefficient on
//! the monomial `n`: a *symbolic stride*, resolved when `n` is given.
//!
//! Beside polynomials a register may be [`Value::Varying`] (differs across
//! lanes in a way the domain cannot express; `data` says whether it came from
//! memory: a data-dependent, "random", value), a predicate ([`PredVal`]: a
//! three-valued boolean per lane, true / false / unknown, with the unknown
//! lanes marked uniform or data-dependent), a [`Value::Range`] (a
//! lane-varying unknown within known bounds over a uniform base: `hist + (b
//! & 255) * 4` is `hist + x`, `x ∈ [0, 1020]`, `x ≡ 0 (mod 4)`; see
//! `bounds`), or [`Value::Undef`] (no definition reached yet: the bottom of
//! the lattice). A value loaded from a warp-uniform address is an opaque
//! uniform symbol, not lane-varying data: `out[inp[k] + tid]` keeps its lane
//! pattern.
//!
//! # Lanes that share an unknown
//!
//! A range is `base + exact[l] + x_{l & key}` in lane `l` ([`Range`]): an
//! exact per-lane part beside the unknown, and a lane partition `key` (a
//! 5-bit mask over the lane index, [`lane_key`]) whose classes share one
//! value of the unknown. One load instruction reads each address once, so
//! the lanes that read one address get one value: a load through `idx + 4 *
//! (t >> 4)` gives `x_{l & 16}` (two classes of 16 lanes), and `table +
//! (x * 16 + (t & 15)) * 16` keeps both the classes and the exact `16 * (t
//! & 15)`; `cnt + ((d & 7) * 256 + t) * 4` with a per-lane `d` keeps the
//! exact `4t` beside `x ∈ [0, 7168]`, `x ≡ 0 (mod 1024)`, which puts every
//! lane on its own bank. Addition of a polynomial moves its exact lanes into
//! `exact` and its uniform part into `base`, scaling scales all three;
//! every other rule folds the exact part into the bounds (`Range::flat`)
//! and gives the common refinement of its operands' classes (a function of
//! equal inputs is equal). The identity partition without an exact part is
//! the independent draws of before; the partition `0` is one value in every
//! lane (data, so not a uniform symbol: the cost model still draws it).
//!
//! # Known bits
//!
//! A range's unknown `x` also carries the bits known to be 0 or 1
//! ([`KnownBits`], two `u64` masks over the two's complement form, as
//! LLVM's): `512 * (d & 7) + 2 * (d >> 3)` moves only bits 1 and 9..11,
//! which neither its bounds `[0, 3586]` nor its stride 2 say (the bank bits
//! 2..6 stay the lane's own). The transfer rules are in `bounds`; the fact
//! never says less than the bounds and congruence imply
//! ([`KnownBits::implied`], met in [`Range::with_bits`]), and a fact that
//! fixes every bit makes the range a constant. A join keeps the bits known
//! equal on both sides ([`KnownBits::join`]); the cost model lists the
//! values of at most 12 free bits (`cost::ENUMERATED_BITS`).
//!
//! # Congruences
//!
//! Every symbol carries a congruence fact `s ≡ r (mod m)` ([`Cong`]): pointer
//! parameters are `≡ 0 (mod 256)` (what `cudaMalloc` returns, configurable),
//! `%ntid.x` of an assumed 1-D block is `≡ 0 (mod 32)`, the base thread index
//! of a warp class is known modulo the gcd of its warps' bases. The congruence
//! of a polynomial follows from its terms (`Cong::add`, `Cong::mul`). The cost
//! model only needs the uniform part of an address modulo 128 (the line grid);
//! where the congruence does not pin it down, costs become min/max/expected
//! over the residues it allows.
//!
//! # Ranges
//!
//! Symbols also have non-negative ranges where something bounds them
//! ([`SymFacts::range`]): the special registers by CUDA's launch limits
//! (`%tid.x` below 1,024, `%ctaid.x` below 2^31), the base thread index by
//! its warp class, pointer parameters from 0, an opaque value made by
//! `and` with a non-negative constant by that constant, a uniform remainder
//! `x % c` of a non-negative `x` by `[0, c - 1]` (see `transfer`), a value
//! narrowed by the branch that guards it by what the branch says (see
//! `dataflow`, *Path conditions*; each joined over the fixpoint's visits),
//! and a join site's symbol by the hull of its incoming uniform parts'
//! ranges, widened as the bounds of ranges are (below; unbounded for good
//! once a side has no range or mentions the site itself, as a loop counter
//! does). `bitwin` uses them to see that an `or` is an addition, and the
//! cost model to take only the residues modulo 128 that a bounded term can
//! give (`SymFacts::residues_128`: `p + 2 * (slot % 16)` moves a 256-aligned
//! row by 0 to 30 bytes, not by any even amount).
//!
//! # Lattice and joins
//!
//! `Undef ⊑ Poly(p) ⊑ Varying{data:false} ⊑ Varying{data:true}`; two different
//! polynomials join to `Opaque(site) + D` when their lane-varying parts `D` are
//! equal (the uniform parts differ: a loop counter, a grid-stride index), where
//! `Opaque(site)` is a fresh uniform symbol owned by the join site whose
//! congruence is the join of both sides' congruences (`Cong::join`). Otherwise
//! they join to `Varying`. A range joined with a range or a polynomial with
//! exact lanes (seen as its lanes' bounds) is their hull, over the same base
//! or over the join site's opaque symbol; when neither side contains the
//! other the hull's bounds are widened to the next of `2^(4k) - 1` (above)
//! or `-2^(4k)` (below), so a bound moves at most 16 times at one site. The
//! exact parts are kept when both sides have the same one (else folded into
//! the bounds), and the partition is the common refinement of both sides':
//! it only gains bits (5 at most). The known bits are those known, and
//! equal, on both sides: each change of a site's value loses at least one
//! (the bounds and congruence implied by a wider hull know no more than
//! before), so they change at most 128 times. Like the polynomial join, which keeps a
//! lane part and makes the uniform part one opaque symbol, this treats the
//! lanes of a class as arriving by one path (`j < n ? idx[j] : 0` with `j`
//! equal in the lanes that share `idx[j]`); a divergent branch that splits
//! a class is a limit of both. The
//! height of this lattice is finite for a given site (one opaque symbol per
//! site, congruences only weaken along a divisor chain, bounds along the
//! widening thresholds), which is the widening argument used by the fixpoint
//! in `dataflow`.
//!
//! # Shared values
//!
//! A polynomial or range value is immutable behind an `Rc`, so equal values
//! may share one allocation, and the fixpoint (`dataflow`) compares two
//! values by pointer before comparing their contents. The commonest values
//! are shared by construction: a value that is one symbol with coefficient
//! 1 (an opaque join site or uniform load, a parameter, `%ctaid`) or a
//! constant in `-128..4096` is made once per thread ([`Value::sym`],
//! [`Value::constant`]; [`Value::poly`] returns the shared one for such a
//! polynomial). Sharing changes no value, only how often one is allocated,
//! freed and compared element by element: on the cuDNN modules these are
//! half or more of the values the fixpoint makes (BENCHMARKS.md, stop
//! 26). An opaque symbol's value is kept for the first `2^15` indices (its
//! number is per run, the value the same polynomial in every run).
//!
//! # Soundness and limits
//!
//! Polynomial arithmetic is over mathematical integers: the domain assumes that
//! address arithmetic does not wrap (true for every in-bounds access of a real
//! kernel; C makes signed overflow undefined anyway). Exact lane vectors are
//! computed with the PTX type's wrapping semantics (see `transfer`). Degrees
//! are capped at [`MAX_DEGREE`]; beyond it a product becomes an opaque uniform
//! value (when uniform) or `Varying`. Known bits are of the 64-bit two's
//! complement form of `x`; a narrower register's bits are its low bits, and
//! its higher bits are set by the type's reading (zero or the sign) only
//! where a rule truncates (`KnownBits::truncate`).

use std::fmt;

use std::rc::Rc;

pub use crate::util::{FastMap, FxHasher};

/// Lanes in a warp.
pub const WARP: usize = 32;
/// Largest monomial degree kept symbolically.
pub const MAX_DEGREE: usize = 3;

/// One value per lane.
pub type Lanes = [i64; WARP];

/// A warp-uniform symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sym {
    /// Kernel parameter by index: its value (scalars) or base address (pointers).
    Param(u16),
    /// `%ctaid.{x,y,z}` (0, 1, 2).
    Ctaid(u8),
    /// `%ntid.{x,y,z}`.
    Ntid(u8),
    /// `%nctaid.{x,y,z}`.
    Nctaid(u8),
    /// `%tid.{x,y,z}` of lane 0 of the warp (the warp class's base thread index).
    TidBase(u8),
    /// The address of a module- or function-level variable (by interned index).
    Var(u32),
    /// An opaque uniform value created by a join or a uniform load.
    Opaque(u32),
}

impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const D: [&str; 3] = ["x", "y", "z"];
        let d = |i: u8| D.get(i as usize).copied().unwrap_or("?");
        match *self {
            Sym::Param(i) => write!(f, "param{i}"),
            Sym::Ctaid(i) => write!(f, "ctaid.{}", d(i)),
            Sym::Ntid(i) => write!(f, "ntid.{}", d(i)),
            Sym::Nctaid(i) => write!(f, "nctaid.{}", d(i)),
            Sym::TidBase(i) => write!(f, "tid0.{}", d(i)),
            Sym::Var(i) => write!(f, "var{i}"),
            Sym::Opaque(i) => write!(f, "u{i}"),
        }
    }
}

/// A product of symbols (sorted, at most [`MAX_DEGREE`]); empty is the constant 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mono {
    n: u8,
    s: [Sym; MAX_DEGREE],
}

impl Mono {
    /// The constant monomial 1.
    pub const ONE: Mono = Mono {
        n: 0,
        s: [Sym::Param(0); MAX_DEGREE],
    };
    /// A single symbol.
    pub fn sym(s: Sym) -> Mono {
        let mut m = Mono::ONE;
        m.n = 1;
        m.s[0] = s;
        m
    }
    /// The symbols.
    pub fn syms(&self) -> &[Sym] {
        &self.s[..self.n as usize]
    }
    /// Degree.
    pub fn degree(&self) -> usize {
        self.n as usize
    }
    /// Product, `None` above [`MAX_DEGREE`].
    pub fn mul(&self, o: &Mono) -> Option<Mono> {
        let n = self.degree() + o.degree();
        if n > MAX_DEGREE {
            return None;
        }
        let mut v: Vec<Sym> = self.syms().iter().chain(o.syms()).copied().collect();
        v.sort();
        let mut m = Mono::ONE;
        m.n = n as u8;
        m.s[..n].copy_from_slice(&v);
        Some(m)
    }
}

impl fmt::Display for Mono {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.syms().iter().enumerate() {
            if i > 0 {
                f.write_str("*")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// A coefficient: the same in every lane, or one value per lane.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Coef {
    /// Uniform.
    Same(i64),
    /// Per lane (never all equal: [`Coef::lanes`] normalises). Shared:
    /// polynomial arithmetic copies unchanged coefficients from its operands.
    Lanes(Rc<Lanes>),
}

impl Coef {
    /// Builds a coefficient from lane values, collapsing equal lanes.
    pub fn lanes(v: Lanes) -> Coef {
        if v.iter().all(|&x| x == v[0]) {
            Coef::Same(v[0])
        } else {
            Coef::Lanes(Rc::new(v))
        }
    }
    /// Value in lane `l`.
    pub fn at(&self, l: usize) -> i64 {
        match self {
            Coef::Same(c) => *c,
            Coef::Lanes(v) => v[l],
        }
    }
    /// All lanes.
    pub fn to_lanes(&self) -> Lanes {
        match self {
            Coef::Same(c) => [*c; WARP],
            Coef::Lanes(v) => **v,
        }
    }
    /// True when zero in every lane.
    pub fn is_zero(&self) -> bool {
        matches!(self, Coef::Same(0))
    }
    /// Lane-wise combination.
    pub fn zip(&self, o: &Coef, f: impl Fn(i64, i64) -> i64) -> Coef {
        match (self, o) {
            (Coef::Same(a), Coef::Same(b)) => Coef::Same(f(*a, *b)),
            _ => {
                let mut v = [0i64; WARP];
                for (l, x) in v.iter_mut().enumerate() {
                    *x = f(self.at(l), o.at(l));
                }
                Coef::lanes(v)
            }
        }
    }
}

/// A polynomial over uniform symbols with per-lane coefficients (see the
/// module essay). Terms are sorted by monomial, none zero.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Poly {
    terms: Vec<(Mono, Coef)>,
}

impl Poly {
    /// The constant `c` in every lane.
    pub fn constant(c: i64) -> Poly {
        Poly::from_terms(vec![(Mono::ONE, Coef::Same(c))])
    }
    /// Exact per-lane values.
    pub fn lanes(v: Lanes) -> Poly {
        Poly::from_terms(vec![(Mono::ONE, Coef::lanes(v))])
    }
    /// One symbol.
    pub fn sym(s: Sym) -> Poly {
        Poly::from_terms(vec![(Mono::sym(s), Coef::Same(1))])
    }
    /// Builds from terms (sorts, merges, drops zeros). Works in place: the
    /// result keeps `t`'s allocation (equal monomials are summed, which is
    /// commutative, so the order of equal ones does not matter).
    pub fn from_terms(mut t: Vec<(Mono, Coef)>) -> Poly {
        if !t.windows(2).all(|w| w[0].0 < w[1].0) {
            t.sort_unstable_by_key(|a| a.0);
        }
        let mut w = 0usize;
        for r in 0..t.len() {
            if w > 0 && t[w - 1].0 == t[r].0 {
                let c = std::mem::replace(&mut t[r].1, Coef::Same(0));
                let merged = t[w - 1].1.zip(&c, i64::wrapping_add);
                t[w - 1].1 = merged;
            } else {
                t.swap(w, r);
                w += 1;
            }
        }
        t.truncate(w);
        t.retain(|(_, c)| !c.is_zero());
        Poly { terms: t }
    }
    /// The terms.
    pub fn terms(&self) -> &[(Mono, Coef)] {
        &self.terms
    }
    /// Sum.
    pub fn add(&self, o: &Poly) -> Poly {
        // Both sides are canonical (sorted, distinct monomials, no zero):
        // merge them, summing equal monomials, as `from_terms` would.
        let (a, b) = (&self.terms, &o.terms);
        let mut t = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            let (ma, ca) = &a[i];
            let (mb, cb) = &b[j];
            match ma.cmp(mb) {
                std::cmp::Ordering::Less => {
                    t.push((*ma, ca.clone()));
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    t.push((*mb, cb.clone()));
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    let c = ca.zip(cb, i64::wrapping_add);
                    if !c.is_zero() {
                        t.push((*ma, c));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        t.extend(a[i..].iter().cloned());
        t.extend(b[j..].iter().cloned());
        Poly { terms: t }
    }
    /// Plus the constant `c` (wrapping): `add(&Poly::constant(c))`
    /// without building the constant.
    pub fn add_const(&self, c: i64) -> Poly {
        if c == 0 {
            return self.clone();
        }
        let mut t = Vec::with_capacity(self.terms.len() + 1);
        match self.terms.first() {
            Some((m, k)) if m.degree() == 0 => {
                let k = k.zip(&Coef::Same(c), i64::wrapping_add);
                if !k.is_zero() {
                    t.push((Mono::ONE, k));
                }
                t.extend(self.terms[1..].iter().cloned());
            }
            _ => {
                t.push((Mono::ONE, Coef::Same(c)));
                t.extend(self.terms.iter().cloned());
            }
        }
        Poly { terms: t }
    }
    /// Difference.
    pub fn sub(&self, o: &Poly) -> Poly {
        self.add(&o.scale(-1))
    }
    /// Times a constant (wrapping).
    pub fn scale(&self, k: i64) -> Poly {
        Poly::from_terms(
            self.terms
                .iter()
                .map(|(m, c)| (*m, c.zip(&Coef::Same(k), i64::wrapping_mul)))
                .collect(),
        )
    }
    /// Product; `None` when a monomial would exceed [`MAX_DEGREE`].
    pub fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut t = Vec::with_capacity(self.terms.len() * o.terms.len());
        for (ma, ca) in &self.terms {
            for (mb, cb) in &o.terms {
                t.push((ma.mul(mb)?, ca.zip(cb, i64::wrapping_mul)));
            }
        }
        Some(Poly::from_terms(t))
    }
    /// Exact per-lane values, when the polynomial has only a constant monomial.
    pub fn exact(&self) -> Option<Lanes> {
        match self.terms.as_slice() {
            [] => Some([0; WARP]),
            [(m, c)] if m.degree() == 0 => Some(c.to_lanes()),
            _ => None,
        }
    }
    /// The uniform constant, when the polynomial is one.
    pub fn as_const(&self) -> Option<i64> {
        match self.terms.as_slice() {
            [] => Some(0),
            [(m, Coef::Same(c))] if m.degree() == 0 => Some(*c),
            _ => None,
        }
    }
    /// True when every coefficient is uniform (the value is the same in every lane).
    pub fn is_uniform(&self) -> bool {
        self.terms.iter().all(|(_, c)| matches!(c, Coef::Same(_)))
    }
    /// Splits into the uniform part `U` and the lane-varying part `D`, with
    /// `D` zero in lane 0 (canonical: two values with equal `D` differ by a
    /// uniform amount).
    pub fn split(&self) -> (Poly, Poly) {
        let mut u = Vec::new();
        let mut d = Vec::new();
        for (m, c) in &self.terms {
            match c {
                Coef::Same(_) => u.push((*m, c.clone())),
                Coef::Lanes(v) => {
                    let c0 = v[0];
                    u.push((*m, Coef::Same(c0)));
                    d.push((
                        *m,
                        Coef::lanes(std::array::from_fn(|l| v[l].wrapping_sub(c0))),
                    ));
                }
            }
        }
        (Poly::from_terms(u), Poly::from_terms(d))
    }
    /// The terms whose coefficient differs across lanes: the monomials of
    /// the lane-varying part of [`Poly::split`], whose coefficients are these
    /// minus their lane 0.
    pub fn varying_terms(&self) -> impl Iterator<Item = (&Mono, &Lanes)> {
        self.terms.iter().filter_map(|(m, c)| match c {
            Coef::Lanes(v) if v.iter().any(|&x| x != v[0]) => Some((m, &**v)),
            _ => None,
        })
    }
    /// `split().1.exact()` without building the parts: the lane-varying part
    /// as exact lane values (zero in lane 0), when it has only the constant
    /// monomial.
    pub fn lane_part_exact(&self) -> Option<Lanes> {
        let mut out = [0i64; WARP];
        for (m, v) in self.varying_terms() {
            if m.degree() != 0 {
                return None;
            }
            out = std::array::from_fn(|l| v[l].wrapping_sub(v[0]));
        }
        Some(out)
    }
    /// True when the lane-varying parts of [`Poly::split`] are equal, without
    /// building them.
    pub fn same_lane_part(&self, o: &Poly) -> bool {
        let (mut a, mut b) = (self.varying_terms(), o.varying_terms());
        loop {
            match (a.next(), b.next()) {
                (None, None) => return true,
                (Some((ma, va)), Some((mb, vb))) => {
                    if ma != mb
                        || (0..WARP).any(|l| va[l].wrapping_sub(va[0]) != vb[l].wrapping_sub(vb[0]))
                    {
                        return false;
                    }
                }
                _ => return false,
            }
        }
    }
    /// The congruence of the uniform part of [`Poly::split`] (`Poly::cong`
    /// of it), without building it.
    pub fn uniform_part_cong(&self, f: &dyn Fn(Sym) -> Cong) -> Cong {
        let mut acc = Cong::exact(0);
        for (m, c) in &self.terms {
            let k = c.at(0);
            if k == 0 {
                continue;
            }
            let mut mc = Cong::exact(1);
            for s in m.syms() {
                mc = mc * f(*s);
            }
            acc = acc + mc * Cong::exact(k);
        }
        acc
    }
    /// True when the uniform part of [`Poly::split`] is the symbol `s`
    /// alone: the polynomial is `s` plus its lane-varying part.
    pub fn uniform_part_is(&self, s: Sym) -> bool {
        let mut found = false;
        for (m, c) in &self.terms {
            let k = c.at(0);
            if k == 0 {
                continue;
            }
            if found || k != 1 || *m != Mono::sym(s) {
                return false;
            }
            found = true;
        }
        found
    }
    /// The single symbol with coefficient 1 and no other symbolic term, if any
    /// (`param0 + 4*i` has base `param0`).
    pub fn base_symbols(&self) -> impl Iterator<Item = Sym> + '_ {
        self.terms.iter().filter_map(|(m, c)| match (m.syms(), c) {
            ([s], Coef::Same(1)) => Some(*s),
            _ => None,
        })
    }
    /// Replaces symbols by constants where `f` knows them.
    pub fn substitute(&self, f: &dyn Fn(Sym) -> Option<i64>) -> Poly {
        let mut t = Vec::with_capacity(self.terms.len());
        for (m, c) in &self.terms {
            let mut k = 1i64;
            let mut rest = Mono::ONE;
            for s in m.syms() {
                match f(*s) {
                    Some(v) => k = k.wrapping_mul(v),
                    None => rest = rest.mul(&Mono::sym(*s)).unwrap_or(rest),
                }
            }
            t.push((rest, c.zip(&Coef::Same(k), i64::wrapping_mul)));
        }
        Poly::from_terms(t)
    }
    /// Congruence of a uniform polynomial given the symbols' congruences.
    pub fn cong(&self, f: &dyn Fn(Sym) -> Cong) -> Cong {
        let mut acc = Cong::exact(0);
        for (m, c) in &self.terms {
            let Coef::Same(k) = c else { return Cong::TOP };
            let mut mc = Cong::exact(1);
            for s in m.syms() {
                mc = mc * f(*s);
            }
            acc = acc + mc * Cong::exact(*k);
        }
        acc
    }
}

impl fmt::Display for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return f.write_str("0");
        }
        for (i, (m, c)) in self.terms.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            let cs = match c {
                Coef::Same(k) => k.to_string(),
                Coef::Lanes(v) => lane_vector_string(v),
            };
            match (m.degree(), c) {
                (0, _) => f.write_str(&cs)?,
                (_, Coef::Same(1)) => write!(f, "{m}")?,
                _ => write!(f, "{cs}*{m}")?,
            }
        }
        Ok(())
    }
}

/// Shows a lane vector compactly: `4*lane`, `(4*lane + 8)`,
/// `(4*(lane%16) + 64*(lane/16))`, `[0×16, 1×16]`, or every value.
pub fn lane_vector_string(v: &Lanes) -> String {
    let term = |k: i64, what: &str| match k {
        0 => None,
        1 => Some(what.to_string()),
        -1 => Some(format!("-{what}")),
        k => Some(format!("{k}*{what}")),
    };
    let join = |parts: Vec<String>, c: i64| {
        let mut parts = parts;
        if c != 0 {
            parts.push(c.to_string());
        }
        if parts.len() == 1 {
            parts.pop().unwrap_or_default()
        } else {
            format!("({})", parts.join(" + "))
        }
    };
    let s = v[1].wrapping_sub(v[0]);
    if (1..WARP).all(|l| v[l].wrapping_sub(v[l - 1]) == s) {
        return join(term(s, "lane").into_iter().collect(), v[0]);
    }
    // v[l] = a + s*(l % p) + t*(l / p)
    for p in [2usize, 4, 8, 16] {
        let s = v[1].wrapping_sub(v[0]);
        let t = v[p].wrapping_sub(v[0]);
        let fits = (0..WARP).all(|l| {
            v[l] == v[0]
                .wrapping_add(s.wrapping_mul((l % p) as i64))
                .wrapping_add(t.wrapping_mul((l / p) as i64))
        });
        if fits {
            let parts: Vec<String> = [
                term(s, &format!("(lane%{p})")),
                term(t, &format!("(lane/{p})")),
            ]
            .into_iter()
            .flatten()
            .collect();
            return join(parts, v[0]);
        }
    }
    let mut runs: Vec<(i64, usize)> = Vec::new();
    for &x in v.iter() {
        match runs.last_mut() {
            Some((y, n)) if *y == x => *n += 1,
            _ => runs.push((x, 1)),
        }
    }
    if runs.len() <= 8 {
        let r: Vec<String> = runs
            .iter()
            .map(|(x, n)| {
                if *n == 1 {
                    x.to_string()
                } else {
                    format!("{x}×{n}")
                }
            })
            .collect();
        return format!("[{}]", r.join(", "));
    }
    let all: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("[{}]", all.join(", "))
}

/// A congruence `x ≡ r (mod m)`; `m == 0` means `x == r` exactly, `m == 1`
/// means nothing is known. For `m > 0`, `0 <= r < m`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cong {
    /// Modulus (0: exact).
    pub m: u64,
    /// Residue (the value when exact).
    pub r: i64,
}

const CONG_CAP: u128 = 1 << 40;

/// Greatest common divisor (`gcd(a, 0) = a`), by Stein's binary algorithm:
/// shifts and subtractions, no 128-bit division (the congruence arithmetic
/// runs at every join and address).
fn gcd(a: u128, b: u128) -> u128 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    let mut a = a >> a.trailing_zeros();
    let mut b = b;
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

impl Cong {
    /// Nothing known.
    pub const TOP: Cong = Cong { m: 1, r: 0 };
    /// Exactly `v`.
    pub fn exact(v: i64) -> Cong {
        Cong { m: 0, r: v }
    }
    /// `≡ r (mod m)`.
    pub fn modulo(m: u64, r: i64) -> Cong {
        Cong::norm(m as u128, r as i128)
    }
    /// `[lo, hi]` tightened to the values `≡ self` (`NO_LO` / `NO_HI`:
    /// unbounded, kept; an exact or trivial congruence changes nothing).
    pub fn tighten(self, lo: i64, hi: i64) -> (i64, i64) {
        if self.m <= 1 {
            return (lo, hi);
        }
        let m = self.m as i128;
        let lo = if lo == NO_LO {
            lo
        } else {
            let d = (self.r as i128 - lo as i128).rem_euclid(m);
            i64::try_from(lo as i128 + d).unwrap_or(NO_HI)
        };
        let hi = if hi == NO_HI {
            hi
        } else {
            let d = (hi as i128 - self.r as i128).rem_euclid(m);
            i64::try_from(hi as i128 - d).unwrap_or(NO_LO)
        };
        (lo, hi)
    }
    fn norm(m: u128, r: i128) -> Cong {
        if m == 0 {
            return match i64::try_from(r) {
                Ok(r) => Cong { m: 0, r },
                // An exact value out of range: keep its residue modulo 2^40.
                Err(_) => Cong::norm(CONG_CAP, r),
            };
        }
        let mut m = m;
        if m > CONG_CAP {
            // Keep a divisor of m (still sound): its power-of-two part, capped.
            let tz = m.trailing_zeros().min(40);
            m = 1u128 << tz;
        }
        // m <= CONG_CAP here: a 64-bit remainder when r fits (the same value)
        let r = match i64::try_from(r) {
            Ok(r) => r.rem_euclid(m as i64) as i128,
            Err(_) => r.rem_euclid(m as i128),
        };
        Cong {
            m: m as u64,
            r: r as i64,
        }
    }
    /// True when exact.
    pub fn is_exact(self) -> bool {
        self.m == 0
    }
    /// Least upper bound: a congruence both satisfy.
    pub fn join(self, o: Cong) -> Cong {
        let d = (self.r as i128 - o.r as i128).unsigned_abs();
        let m = gcd(gcd(self.m as u128, o.m as u128), d);
        Cong::norm(m, self.r as i128)
    }
    /// The residue modulo `k` when the congruence determines it.
    pub fn residue_mod(self, k: u64) -> Option<i64> {
        if k == 0 {
            return None;
        }
        if self.m == 0 || self.m.is_multiple_of(k) {
            Some(self.r.rem_euclid(k as i64))
        } else {
            None
        }
    }
    /// Residues modulo `k` (a power of two up to 2^20) compatible with the congruence.
    pub fn residues(self, k: u64) -> Vec<i64> {
        if let Some(r) = self.residue_mod(k) {
            return vec![r];
        }
        let g = (gcd(self.m as u128, k as u128) as i64).max(1);
        let r = self.r.rem_euclid(g);
        // the u in 0..k with u ≡ r (mod g), ascending
        (r..k as i64).step_by(g as usize).collect()
    }
}

impl std::ops::Add for Cong {
    type Output = Cong;
    /// Sum.
    fn add(self, o: Cong) -> Cong {
        let m = gcd(self.m as u128, o.m as u128);
        Cong::norm(m, self.r as i128 + o.r as i128)
    }
}

impl std::ops::Mul for Cong {
    type Output = Cong;
    /// Product.
    fn mul(self, o: Cong) -> Cong {
        let (m1, m2) = (self.m as u128, o.m as u128);
        let (r1, r2) = (self.r as i128, o.r as i128);
        let m = gcd(gcd(m1 * m2, m1 * r2.unsigned_abs()), m2 * r1.unsigned_abs());
        Cong::norm(m, r1 * r2)
    }
}

/// Bits of an integer known to be 0 or 1 (as LLVM's `KnownBits`), over its
/// 64-bit two's complement form (bit 63 stands for every higher bit): a
/// value `v` satisfies the fact when `v & zero == 0` and `v & one == one`.
/// `zero & one == 0`; [`KnownBits::UNKNOWN`] says nothing. Kept beside a
/// [`Range`]'s bounds and congruence for its shared unknown `x`: `512 * (d &
/// 7) + 2 * (d >> 3)` moves only bits 1 and 9..11, which a stride (2) and
/// bounds ([0, 3586]) cannot say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct KnownBits {
    /// Bits known to be 0.
    pub zero: u64,
    /// Bits known to be 1.
    pub one: u64,
}

/// The low `n` bits (every bit for `n >= 64`).
fn low_mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl KnownBits {
    /// Nothing known.
    pub const UNKNOWN: KnownBits = KnownBits { zero: 0, one: 0 };
    /// Exactly `v`.
    pub fn constant(v: i64) -> KnownBits {
        KnownBits {
            zero: !(v as u64),
            one: v as u64,
        }
    }
    /// The bits not known.
    pub fn unknown_mask(self) -> u64 {
        !(self.zero | self.one)
    }
    /// The number of bits not known.
    pub fn varying(self) -> u32 {
        self.unknown_mask().count_ones()
    }
    /// True when `v` satisfies the fact.
    pub fn contains(self, v: i64) -> bool {
        let v = v as u64;
        v & self.zero == 0 && v & self.one == self.one
    }
    /// The bits known in both (the join: a fact both values satisfy).
    pub fn join(self, o: KnownBits) -> KnownBits {
        KnownBits {
            zero: self.zero & o.zero,
            one: self.one & o.one,
        }
    }
    /// The bits known in either (both facts hold). Contradicting facts
    /// (no value satisfies both) keep `self`, which still holds.
    pub fn meet(self, o: KnownBits) -> KnownBits {
        let k = KnownBits {
            zero: self.zero | o.zero,
            one: self.one | o.one,
        };
        if k.zero & k.one != 0 {
            self
        } else {
            k
        }
    }
    /// Bitwise not.
    pub fn complement(self) -> KnownBits {
        KnownBits {
            zero: self.one,
            one: self.zero,
        }
    }
    /// Bitwise and.
    pub fn and(self, o: KnownBits) -> KnownBits {
        KnownBits {
            zero: self.zero | o.zero,
            one: self.one & o.one,
        }
    }
    /// Bitwise or.
    pub fn or(self, o: KnownBits) -> KnownBits {
        KnownBits {
            zero: self.zero & o.zero,
            one: self.one | o.one,
        }
    }
    /// Bitwise exclusive or.
    pub fn xor(self, o: KnownBits) -> KnownBits {
        let known = (self.zero | self.one) & (o.zero | o.one);
        let v = self.one ^ o.one;
        KnownBits {
            zero: known & !v,
            one: known & v,
        }
    }
    /// Sum modulo 2^64 (LLVM's `computeForAddCarry` without a carry in):
    /// a bit of the sum is known where both operands' bits and the carry
    /// into it are.
    pub fn sum(self, o: KnownBits) -> KnownBits {
        // The largest and smallest sums (unknown bits all 1, all 0).
        let max = (!self.zero).wrapping_add(!o.zero);
        let min = self.one.wrapping_add(o.one);
        let carry_zero = !(max ^ self.zero ^ o.zero);
        let carry_one = min ^ self.one ^ o.one;
        let known = (self.zero | self.one) & (o.zero | o.one) & (carry_zero | carry_one);
        KnownBits {
            zero: !min & known,
            one: min & known,
        }
    }
    /// Negation (`!x + 1`).
    pub fn negated(self) -> KnownBits {
        self.complement().sum(KnownBits::constant(1))
    }
    /// Times the constant `k` (modulo 2^64): the low bits that are known
    /// in `self` give the product's low bits, and `k`'s factors of two
    /// shift them up (`x = a + 2^n h` with `a` known: `k x ≡ k a (mod
    /// 2^(n + tz(k)))`).
    pub fn mul_const(self, k: i64) -> KnownBits {
        if k == 0 {
            return KnownBits::constant(0);
        }
        let n = (self.zero | self.one).trailing_ones();
        let t = (n + k.trailing_zeros()).min(64);
        let m = low_mask(t);
        let v = (self.one & low_mask(n)).wrapping_mul(k as u64);
        KnownBits {
            zero: !v & m,
            one: v & m,
        }
    }
    /// Shift left by `k < 64`.
    pub fn shl_by(self, k: u32) -> KnownBits {
        KnownBits {
            zero: (self.zero << k) | low_mask(k),
            one: self.one << k,
        }
    }
    /// Logical shift right by `k < 64`.
    pub fn lshr(self, k: u32) -> KnownBits {
        KnownBits {
            zero: (self.zero >> k) | !(u64::MAX >> k),
            one: self.one >> k,
        }
    }
    /// Arithmetic shift right by `k < 64`.
    pub fn ashr(self, k: u32) -> KnownBits {
        KnownBits {
            zero: ((self.zero as i64) >> k) as u64,
            one: ((self.one as i64) >> k) as u64,
        }
    }
    /// The low `bits` bits read as an unsigned or signed `bits`-bit value:
    /// the higher bits zero, or copies of bit `bits - 1` (when known).
    pub fn truncate(self, bits: u32, signed: bool) -> KnownBits {
        if bits >= 64 || bits == 0 {
            return self;
        }
        let m = low_mask(bits);
        let (mut zero, mut one) = (self.zero & m, self.one & m);
        let top = 1u64 << (bits - 1);
        if !signed || zero & top != 0 {
            zero |= !m;
        } else if one & top != 0 {
            one |= !m;
        }
        KnownBits { zero, one }
    }
    /// What every value of `[lo, hi]` has in common (`NO_LO` / `NO_HI`:
    /// unbounded): the bits above the highest bit in which `lo` and `hi`
    /// differ, when both have one sign (the map to `u64` is then monotone);
    /// the sign alone of a half-bounded range.
    pub fn of_range(lo: i64, hi: i64) -> KnownBits {
        const SIGN: u64 = 1 << 63;
        match (lo != NO_LO, hi != NO_HI) {
            (true, true) if lo <= hi && (lo < 0) == (hi < 0) => {
                let diff = (lo ^ hi) as u64;
                let prefix = if diff == 0 {
                    u64::MAX
                } else {
                    !low_mask(64 - diff.leading_zeros())
                };
                KnownBits {
                    zero: prefix & !(lo as u64),
                    one: prefix & lo as u64,
                }
            }
            (true, _) if lo >= 0 => KnownBits { zero: SIGN, one: 0 },
            (_, true) if hi < 0 => KnownBits { zero: 0, one: SIGN },
            _ => KnownBits::UNKNOWN,
        }
    }
    /// The low bits a congruence fixes: `x ≡ r (mod m)` fixes `x mod 2^k`
    /// for the largest `2^k` dividing `m` (every bit when exact).
    pub fn of_cong(c: Cong) -> KnownBits {
        if c.m == 0 {
            return KnownBits::constant(c.r);
        }
        let m = low_mask(c.m.trailing_zeros());
        let r = c.r as u64;
        KnownBits {
            zero: !r & m,
            one: r & m,
        }
    }
    /// The congruence the known low bits fix: `x mod 2^k` for the `k`
    /// lowest bits known (the converse of [`KnownBits::of_cong`]).
    pub fn low_cong(self) -> Cong {
        let k = (!(self.zero | self.one)).trailing_zeros().min(62);
        Cong::modulo(1u64 << k, (self.one & ((1u64 << k) - 1)) as i64)
    }
    /// What bounds and a congruence say about the bits.
    pub fn implied(lo: i64, hi: i64, cong: Cong) -> KnownBits {
        KnownBits::of_range(lo, hi).meet(KnownBits::of_cong(cong))
    }
    /// The bits every lane of `v` has in common.
    pub fn of_lanes(v: &Lanes) -> KnownBits {
        v.iter().fold(KnownBits::constant(v[0]), |k, &x| {
            k.join(KnownBits::constant(x))
        })
    }
    /// The values of `[lo, hi]`, `≡ cong`, that satisfy the fact, in
    /// ascending order, when at most `2^max_bits` values satisfy it (the
    /// unknown bits are at most `max_bits`); `None` otherwise.
    pub fn enumerate(self, lo: i64, hi: i64, cong: Cong, max_bits: u32) -> Option<Vec<i64>> {
        let free = self.unknown_mask();
        if free.count_ones() > max_bits {
            return None;
        }
        let mut out = Vec::with_capacity(1usize << free.count_ones());
        let fits = |v: i64| {
            (lo == NO_LO || v >= lo)
                && (hi == NO_HI || v <= hi)
                && match cong.m {
                    0 => v == cong.r,
                    m => (v as i128 - cong.r as i128).rem_euclid(m as i128) == 0,
                }
        };
        // Every subset of the free bits (`s - free` steps to the next).
        let mut s = 0u64;
        loop {
            let v = (self.one | s) as i64;
            if fits(v) {
                out.push(v);
            }
            s = s.wrapping_sub(free) & free;
            if s == 0 {
                break;
            }
        }
        out.sort_unstable();
        Some(out)
    }
}

impl fmt::Display for KnownBits {
    /// The unknown bits as positions and runs (`bits 1, 9-11 vary`), with
    /// the known ones that are set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let runs = |m: u64| {
            let mut parts: Vec<String> = Vec::new();
            let mut b = 0u32;
            while b < 64 {
                if m >> b & 1 == 0 {
                    b += 1;
                    continue;
                }
                let start = b;
                while b < 64 && m >> b & 1 == 1 {
                    b += 1;
                }
                parts.push(if b - 1 == start {
                    start.to_string()
                } else {
                    format!("{start}-{}", b - 1)
                });
            }
            parts.join(", ")
        };
        write!(f, "bits {} vary", runs(self.unknown_mask()))?;
        if self.one != 0 {
            write!(f, ", bits {} set", runs(self.one))?;
        }
        Ok(())
    }
}

/// A predicate register's value: a three-valued boolean per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PredVal {
    /// Known in every lane (bit l = lane l).
    Lanes(u32),
    /// Known in some lanes: true in `sure`, false outside `maybe`, unknown
    /// in `maybe & !sure` (`sure ⊆ maybe`). `(tid & 31) < 16 && i < n` is
    /// false in lanes 16..31 and unknown in lanes 0..15.
    Partial {
        /// Lanes possibly true.
        maybe: u32,
        /// Lanes certainly true.
        sure: u32,
        /// The unknown lanes depend on loaded data.
        data: bool,
    },
    /// Not known in any lane.
    Unknown {
        /// The same in every lane.
        uniform: bool,
        /// Depends on loaded data.
        data: bool,
    },
}

impl PredVal {
    /// Lanes possibly true (all when unknown).
    pub fn maybe_true(self) -> u32 {
        match self {
            PredVal::Lanes(b) => b,
            PredVal::Partial { maybe, .. } => maybe,
            PredVal::Unknown { .. } => u32::MAX,
        }
    }
    /// Lanes possibly false.
    pub fn maybe_false(self) -> u32 {
        match self {
            PredVal::Lanes(b) => !b,
            PredVal::Partial { sure, .. } => !sure,
            PredVal::Unknown { .. } => u32::MAX,
        }
    }
    fn data(self) -> bool {
        matches!(
            self,
            PredVal::Unknown { data: true, .. } | PredVal::Partial { data: true, .. }
        )
    }
    fn uniform(self) -> bool {
        match self {
            PredVal::Lanes(b) => b == 0 || b == u32::MAX,
            PredVal::Partial { .. } => false,
            PredVal::Unknown { uniform, .. } => uniform,
        }
    }
    /// Builds the most precise value from possibly-true and certainly-true lanes.
    fn from_bounds(maybe: u32, sure: u32, uniform: bool, data: bool) -> PredVal {
        let sure = sure & maybe;
        if maybe == sure {
            PredVal::Lanes(maybe)
        } else if maybe == u32::MAX && sure == 0 {
            PredVal::Unknown { uniform, data }
        } else {
            PredVal::Partial { maybe, sure, data }
        }
    }
    /// Join: lanes possibly true in either, certainly true in both.
    pub fn join(self, o: PredVal) -> PredVal {
        if self == o {
            return self;
        }
        PredVal::from_bounds(
            self.maybe_true() | o.maybe_true(),
            !self.maybe_false() & !o.maybe_false(),
            self.uniform() && o.uniform(),
            self.data() || o.data(),
        )
    }
}

impl std::ops::Not for PredVal {
    type Output = PredVal;
    /// Negation.
    fn not(self) -> PredVal {
        match self {
            PredVal::Lanes(b) => PredVal::Lanes(!b),
            PredVal::Partial { maybe, sure, data } => PredVal::Partial {
                maybe: !sure,
                sure: !maybe,
                data,
            },
            u => u,
        }
    }
}

impl std::ops::BitAnd for PredVal {
    type Output = PredVal;
    /// Lane-wise and: false wherever either side is known false.
    fn bitand(self, o: PredVal) -> PredVal {
        PredVal::from_bounds(
            self.maybe_true() & o.maybe_true(),
            !self.maybe_false() & !o.maybe_false(),
            self.uniform() && o.uniform(),
            self.data() || o.data(),
        )
    }
}

impl std::ops::BitOr for PredVal {
    type Output = PredVal;
    /// Lane-wise or: true wherever either side is known true.
    fn bitor(self, o: PredVal) -> PredVal {
        PredVal::from_bounds(
            self.maybe_true() | o.maybe_true(),
            !self.maybe_false() | !o.maybe_false(),
            self.uniform() && o.uniform(),
            self.data() || o.data(),
        )
    }
}

impl std::ops::BitXor for PredVal {
    type Output = PredVal;
    /// Lane-wise exclusive or: known where both sides are known.
    fn bitxor(self, o: PredVal) -> PredVal {
        let known =
            (!self.maybe_false() | !self.maybe_true()) & (!o.maybe_false() | !o.maybe_true());
        let val = (self.maybe_true() ^ o.maybe_true()) & known;
        PredVal::from_bounds(
            val | !known,
            val,
            self.uniform() && o.uniform(),
            self.data() || o.data(),
        )
    }
}

/// What the analysis knows about one register in one warp.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Value {
    /// No definition reached (bottom).
    #[default]
    Undef,
    /// An integer described exactly per lane over uniform symbols.
    Poly(Rc<Poly>),
    /// Varies across lanes in a way the domain cannot express.
    Varying {
        /// Derived from a value loaded through a lane-varying address.
        data: bool,
    },
    /// A predicate.
    Pred(PredVal),
    /// Varies across lanes in an unknown way within known bounds (see [`Range`]).
    Range(Rc<Range>),
}

/// A lane-varying value known only by bounds: in lane `l`,
///
/// ```text
///     value(l) = base + exact[l] + x_{l & key}
/// ```
///
/// with `base` uniform (a polynomial without a constant term), `exact` an
/// exact per-lane part (zero when `None`), and `x` an unknown integer in
/// `[lo, hi]` with `x ≡ cong`, **shared by the lanes of one class** of the
/// lane partition `key`: lanes `l`, `l'` with `l & key == l' & key` hold the
/// same `x` (a 5-bit mask over the lane index: [`ALL_LANES`] is every lane on
/// its own, today's independent draws; `0b10000` is the two half-warps; `0`
/// one class, a value equal in every lane). Lanes of different classes may
/// or may not be equal. `(b & 255) * 4` with `b` loaded per lane is
/// `0 + x`, `x ∈ [0, 1020]`, `x ≡ 0 (mod 4)`, key [`ALL_LANES`]; `hist +`
/// that is the same with base `hist`; `idx[j + (t >> 4)] * 256 + (t & 15) *
/// 16` is `x_{l & 16} + [0, 16, …, 240, 0, 16, …]`, `x ≡ 0 (mod 256)`.
/// Built by [`Range::value`] / [`Range::structured`], which keep the
/// invariants (bounded on at least one side unless the classes or the exact
/// part say something, bounds tightened to the congruence, a single possible
/// value becomes a polynomial, an exact part that is the same in every lane
/// moves into `x`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Range {
    /// The uniform part (no constant term).
    pub base: Poly,
    /// Lower bound of the shared unknown `x` (`i64::MIN`: none).
    pub lo: i64,
    /// Upper bound of `x` (`i64::MAX`: none).
    pub hi: i64,
    /// Congruence of `x`.
    pub cong: Cong,
    /// Derived from loaded data.
    pub data: bool,
    /// The exact per-lane part (`None`: zero in every lane; never the same
    /// value in every lane).
    pub exact: Option<Rc<Lanes>>,
    /// The lane partition of `x` (see the type's doc).
    pub key: u8,
    /// The known bits of `x` (never fewer than its bounds and congruence
    /// imply: [`KnownBits::implied`]).
    pub bits: KnownBits,
}

/// The partition in which every lane draws its own unknown.
pub const ALL_LANES: u8 = 0x1f;

/// The coarsest bit-mask partition under which `v` is constant on every
/// class: the lane-index bits `b` for which some lane `l` has `v[l] !=
/// v[l ^ 2^b]`. Lanes `l`, `l'` with `l & m == l' & m` differ only in bits
/// outside `m`, and flipping such a bit never changes `v`, so `v[l] ==
/// v[l']`.
pub fn lane_key(v: &Lanes) -> u8 {
    let mut m = 0u8;
    for b in 0..5 {
        let bit = 1usize << b;
        if (0..WARP).any(|l| v[l] != v[l ^ bit]) {
            m |= 1 << b;
        }
    }
    m
}

/// The congruence that every lane of `v` satisfies.
pub fn lanes_cong(v: &Lanes) -> Cong {
    v.iter()
        .fold(Cong::exact(v[0]), |k, &x| k.join(Cong::exact(x)))
}

/// No lower bound.
pub const NO_LO: i64 = i64::MIN;
/// No upper bound.
pub const NO_HI: i64 = i64::MAX;

impl Range {
    /// The normalised value of `base + x`, `x ∈ [lo, hi]`, `x ≡ cong`, every
    /// lane drawing its own `x`.
    pub fn value(base: Poly, lo: i64, hi: i64, cong: Cong, data: bool) -> Value {
        Range::structured(base, lo, hi, cong, data, None, ALL_LANES)
    }
    /// The normalised value of `base + exact[l] + x_{l & key}`.
    pub fn structured(
        base: Poly,
        lo: i64,
        hi: i64,
        cong: Cong,
        data: bool,
        exact: Option<Lanes>,
        key: u8,
    ) -> Value {
        Range::with_bits(base, lo, hi, cong, data, exact, key, KnownBits::UNKNOWN)
    }
    /// [`Range::structured`] whose `x` also has the known bits `bits`
    /// (known low bits refine the congruence, and the bounds tighten to it:
    /// `x << 4` is `≡ 0 (mod 16)`).
    #[allow(clippy::too_many_arguments)]
    pub fn with_bits(
        base: Poly,
        lo: i64,
        hi: i64,
        cong: Cong,
        data: bool,
        exact: Option<Lanes>,
        key: u8,
        bits: KnownBits,
    ) -> Value {
        // Move the constant term of the base, and an exact part that is the
        // same in every lane, into the lane part.
        let c0 = base
            .terms()
            .iter()
            .find(|(m, _)| m.degree() == 0)
            .map(|(_, k)| k.at(0))
            .unwrap_or(0);
        let base = base.add_const(c0.wrapping_neg());
        if !base.is_uniform() {
            return Value::Varying { data };
        }
        let (exact, c1) = match exact {
            Some(e) if e.iter().all(|&v| v == e[0]) => (None, e[0]),
            other => (other, 0),
        };
        let Some(c) = c0.checked_add(c1) else {
            return Value::Varying { data };
        };
        let key = key & ALL_LANES;
        let shift = |v: i64, unbounded: i64| {
            if v == unbounded {
                v
            } else {
                v.checked_add(c).unwrap_or(unbounded)
            }
        };
        let (mut lo, mut hi) = (shift(lo, NO_LO), shift(hi, NO_HI));
        let cong = cong + Cong::exact(c);
        let bits = bits.sum(KnownBits::constant(c));
        let with_exact = |p: Poly| match &exact {
            Some(e) => p.add(&Poly::lanes(*e)),
            None => p,
        };
        if cong.is_exact() {
            return if (lo == NO_LO || lo <= cong.r) && (hi == NO_HI || cong.r <= hi) {
                Value::poly(with_exact(base.add_const(cong.r)))
            } else {
                Value::Undef
            };
        }
        // Tighten the bounds to the congruence.
        (lo, hi) = cong.tighten(lo, hi);
        // Unbounded: a value only when the classes or the exact part over a
        // congruence say something (lanes that share an unknown, lanes on
        // fixed banks).
        let structured = key != ALL_LANES || (exact.is_some() && cong.m > 1);
        if lo == NO_LO && hi == NO_HI && !structured {
            return Value::Varying { data };
        }
        if lo != NO_LO && hi != NO_HI {
            if lo > hi {
                return Value::Undef;
            }
            if lo == hi {
                return Value::poly(with_exact(base.add_const(lo)));
            }
        }
        // Bits that contradict the bounds (a rule whose bounds read a
        // register one way and whose bits another) are dropped: the bounds
        // hold as before.
        let implied = KnownBits::implied(lo, hi, cong);
        let bits = if (bits.zero & implied.one) | (bits.one & implied.zero) != 0 {
            implied
        } else {
            bits.meet(implied)
        };
        // The known low bits are a congruence too (`x << 4` is 0 mod 16):
        // where it refines `cong`, it is the congruence, and the bounds
        // tighten to it.
        let cong = match bits.low_cong() {
            c if cong.m != 0
                && c.m > cong.m
                && c.m % cong.m == 0
                && (c.r - cong.r).rem_euclid(cong.m as i64) == 0 =>
            {
                (lo, hi) = c.tighten(lo, hi);
                if lo != NO_LO && hi != NO_HI {
                    if lo > hi {
                        return Value::Undef;
                    }
                    if lo == hi {
                        return Value::poly(with_exact(base.add_const(lo)));
                    }
                }
                c
            }
            _ => cong,
        };
        if bits.unknown_mask() == 0 {
            let v = bits.one as i64;
            let fits = (lo == NO_LO || lo <= v) && (hi == NO_HI || v <= hi);
            let on_cong = (v as i128 - cong.r as i128).rem_euclid(cong.m.max(1) as i128) == 0;
            return if fits && on_cong {
                Value::poly(with_exact(base.add_const(v)))
            } else {
                Value::Undef
            };
        }
        Value::Range(Rc::new(Range {
            base,
            lo,
            hi,
            cong,
            data,
            exact: exact.map(Rc::new),
            key,
            bits,
        }))
    }
    /// True when every lane draws its own unknown and there is no exact
    /// part: the independent draws of `cost::ranged_random_cost`.
    pub fn is_plain(&self) -> bool {
        self.exact.is_none() && self.key == ALL_LANES
    }
    /// The same lanes seen as independent draws: the exact part folded into
    /// the bounds and congruence of `x`, the partition refined by it (so
    /// that `x` now stands for `exact[l] + x_{l & key}`).
    pub fn flat(&self) -> Range {
        let Some(e) = &self.exact else {
            return self.clone();
        };
        let (emin, emax) = (
            e.iter().copied().min().unwrap_or(0),
            e.iter().copied().max().unwrap_or(0),
        );
        let add = |v: i64, d: i64, none: i64| {
            if v == none {
                none
            } else {
                v.checked_add(d).unwrap_or(none)
            }
        };
        let (lo, hi, cong) = (
            add(self.lo, emin, NO_LO),
            add(self.hi, emax, NO_HI),
            self.cong + lanes_cong(e),
        );
        Range {
            base: self.base.clone(),
            lo,
            hi,
            cong,
            data: self.data,
            exact: None,
            key: self.key | lane_key(e),
            bits: self
                .bits
                .sum(KnownBits::of_lanes(e))
                .meet(KnownBits::implied(lo, hi, cong)),
        }
    }
    /// True when the known bits of `x` say more than its bounds and
    /// congruence.
    pub fn bits_say_more(&self) -> bool {
        self.bits != KnownBits::implied(self.lo, self.hi, self.cong)
    }
    /// True when both bounds are known.
    pub fn bounded(&self) -> bool {
        self.lo != NO_LO && self.hi != NO_HI
    }
    /// The number of values the lane part can take, when bounded.
    pub fn count(&self) -> Option<u128> {
        if !self.bounded() {
            return None;
        }
        let m = self.cong.m.max(1) as u128;
        Some((self.hi as i128 - self.lo as i128) as u128 / m + 1)
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.base.terms().is_empty() {
            write!(f, "{} + ", self.base)?;
        }
        let b = |v: i64, none: i64, s: &str| {
            if v == none {
                s.to_string()
            } else {
                v.to_string()
            }
        };
        write!(
            f,
            "[{}, {}]",
            b(self.lo, NO_LO, "-inf"),
            b(self.hi, NO_HI, "+inf")
        )?;
        if self.cong.m > 1 {
            write!(f, " (≡ {} mod {})", self.cong.r, self.cong.m)?;
        }
        if self.bits_say_more() {
            write!(f, " ({})", self.bits)?;
        }
        if let Some(e) = &self.exact {
            write!(f, " + lanes {}", Poly::lanes(**e))?;
        }
        if self.key != ALL_LANES {
            let classes = 1u32 << self.key.count_ones();
            write!(
                f,
                ", shared by {} lanes in each of {classes} classes",
                WARP as u32 / classes
            )?;
        }
        Ok(())
    }
}

/// Bounds a join may give: a hull that neither side contains grows to the next
/// of these (`2^(4k) - 1` above, `-2^(4k)` below), so a bound moves at most 16
/// times at one join site: the widening that keeps the fixpoint finite.
pub(crate) fn widen_hi(v: i64) -> i64 {
    if v == NO_HI {
        return v;
    }
    if v < 0 {
        return -1;
    }
    let mut t: i64 = 15;
    while t < v {
        t = match t.checked_mul(16).and_then(|x| x.checked_add(15)) {
            Some(x) => x,
            None => return NO_HI,
        };
    }
    t
}

fn widen_lo(v: i64) -> i64 {
    if v == NO_LO {
        return v;
    }
    if v >= 0 {
        return 0;
    }
    let mut t: i64 = -16;
    while t > v {
        t = match t.checked_mul(16) {
            Some(x) => x,
            None => return NO_LO,
        };
    }
    t
}

/// The bounds view of a value for a join: a polynomial `U + d` (exact `d`) is
/// `U + d + x`, `x` the constant of `U`, one class.
fn range_view(v: &Value) -> Option<Range> {
    match v {
        Value::Range(r) => Some((**r).clone()),
        Value::Poly(p) => {
            let (u, d) = p.split();
            let d = d.exact()?;
            let c = u
                .terms()
                .iter()
                .find(|(m, _)| m.degree() == 0)
                .map(|(_, k)| k.at(0))
                .unwrap_or(0);
            Some(Range {
                base: u.add_const(c.wrapping_neg()),
                lo: c,
                hi: c,
                cong: Cong::exact(c),
                data: false,
                exact: (!d.iter().all(|&v| v == d[0])).then(|| Rc::new(d)),
                key: 0,
                bits: KnownBits::constant(c),
            })
        }
        _ => None,
    }
}

/// Opaque symbols (by index) whose value `s` [`Value::sym`] shares.
const SHARED_OPAQUE: usize = 1 << 15;
/// Constants `c` in `SHARED_CONST_LO..SHARED_CONST_HI` that
/// [`Value::constant`] shares.
const SHARED_CONST_LO: i64 = -128;
const SHARED_CONST_HI: i64 = 4096;

/// The values that are one symbol or one small constant, made once per
/// thread and shared (see *Shared values* in the module essay).
#[derive(Default)]
struct SharedValues {
    /// `Opaque(i)` at `i`.
    opaque: Vec<Option<Rc<Poly>>>,
    /// The other symbols.
    other: FastMap<Sym, Rc<Poly>>,
    /// `c` at `c - SHARED_CONST_LO`.
    consts: Vec<Option<Rc<Poly>>>,
}

thread_local! {
    static SHARED: std::cell::RefCell<SharedValues> = std::cell::RefCell::default();
}

impl Value {
    /// A polynomial value. One symbol with coefficient 1, or a small
    /// constant, is the thread's shared value ([`Value::sym`],
    /// [`Value::constant`]).
    pub fn poly(p: Poly) -> Value {
        match p.terms.as_slice() {
            [] => Value::constant(0),
            [(m, Coef::Same(c))] if m.degree() == 0 => Value::constant(*c),
            [(m, Coef::Same(1))] if m.degree() == 1 => Value::sym(m.syms()[0]),
            _ => Value::Poly(Rc::new(p)),
        }
    }
    /// The value of symbol `s` in every lane: made once per thread and
    /// shared, so that it costs no allocation and two of them compare by
    /// pointer.
    pub fn sym(s: Sym) -> Value {
        let make = || Rc::new(Poly::sym(s));
        SHARED.with(|sh| {
            let mut sh = sh.borrow_mut();
            let rc = match s {
                Sym::Opaque(i) if (i as usize) < SHARED_OPAQUE => {
                    let i = i as usize;
                    if sh.opaque.len() <= i {
                        sh.opaque.resize(i + 1, None);
                    }
                    sh.opaque[i].get_or_insert_with(make).clone()
                }
                Sym::Opaque(_) => make(),
                _ => sh.other.entry(s).or_insert_with(make).clone(),
            };
            Value::Poly(rc)
        })
    }
    /// A uniform constant (shared, as [`Value::sym`], when small).
    pub fn constant(c: i64) -> Value {
        if !(SHARED_CONST_LO..SHARED_CONST_HI).contains(&c) {
            return Value::Poly(Rc::new(Poly::constant(c)));
        }
        SHARED.with(|sh| {
            let mut sh = sh.borrow_mut();
            let i = (c - SHARED_CONST_LO) as usize;
            if sh.consts.len() <= i {
                sh.consts.resize(i + 1, None);
            }
            Value::Poly(
                sh.consts[i]
                    .get_or_insert_with(|| Rc::new(Poly::constant(c)))
                    .clone(),
            )
        })
    }
    /// The polynomial, if any.
    pub fn as_poly(&self) -> Option<&Poly> {
        match self {
            Value::Poly(p) => Some(p),
            _ => None,
        }
    }
    /// True when the value depends on loaded data.
    pub fn is_data(&self) -> bool {
        match self {
            Value::Range(r) => r.data,
            _ => matches!(
                self,
                Value::Varying { data: true } | Value::Pred(PredVal::Unknown { data: true, .. })
            ),
        }
    }
    /// True when the same in every lane.
    pub fn is_uniform(&self) -> bool {
        match self {
            Value::Undef => true,
            Value::Poly(p) => p.is_uniform(),
            Value::Varying { .. } | Value::Range(_) => false,
            Value::Pred(p) => p.uniform(),
        }
    }
}

/// Congruence facts of symbols and the opaque symbols' join sites.
#[derive(Clone, Debug, Default)]
pub struct SymFacts {
    /// Congruence of `Param(i)`.
    pub params: Vec<Cong>,
    /// Congruence of `Ntid`, `Nctaid`, `Ctaid`, `TidBase` by dimension.
    pub ntid: [Option<Cong>; 3],
    /// `TidBase` congruences of the current warp class (unknown when `None`).
    pub tid_base: [Option<Cong>; 3],
    /// Congruence of each opaque symbol (`None` until its site is first joined).
    pub opaque: Vec<Option<Cong>>,
    /// Variables' alignment (by interned index).
    pub vars: Vec<Cong>,
    /// Range of `TidBase` over the current warp class's warps (by dimension).
    pub tid_base_range: [Option<(i64, i64)>; 3],
    /// Range of an opaque symbol where the instruction that made it bounds it
    /// (`and` with a non-negative constant), joined over iterations.
    pub opaque_range: Vec<Option<(i64, i64)>>,
    /// Range of a loop header's opaque symbol that moves in lockstep with a
    /// bounded counter of the same loop (an induction variable, see
    /// `dataflow`, *Counters in lockstep*), by symbol; kept apart from
    /// `opaque_range`, which such a site leaves unbounded.
    pub iv_range: Vec<Option<(i64, i64)>>,
    /// Parameters known to be non-negative (pointers).
    pub nonneg_params: Vec<bool>,
    /// What each opaque symbol made by a division by a constant divides
    /// (see [`Quotient`]), so that `x - (x / c) * c` is seen as `x % c`.
    pub quotients: Vec<Quotient>,
}

/// What an opaque symbol made by `div` of a uniform value by a constant is
/// the quotient of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Quotient {
    /// Not a quotient (or not seen yet).
    #[default]
    None,
    /// `trunc(x / c)`, `c > 0`, of the uniform `x`; `unsigned` for `div.u*`.
    Of {
        /// The dividend.
        x: Rc<Poly>,
        /// The divisor.
        c: i64,
        /// An unsigned division (the dividend read as non-negative).
        unsigned: bool,
    },
    /// Visits of the division saw different dividends: nothing is assumed.
    Conflict,
}

impl SymFacts {
    /// Congruence of one symbol.
    pub fn cong(&self, s: Sym) -> Cong {
        match s {
            Sym::Param(i) => self.params.get(i as usize).copied().unwrap_or(Cong::TOP),
            Sym::Ntid(d) => self
                .ntid
                .get(d as usize)
                .copied()
                .flatten()
                .unwrap_or(Cong::TOP),
            Sym::TidBase(d) => self
                .tid_base
                .get(d as usize)
                .copied()
                .flatten()
                .unwrap_or(Cong::TOP),
            Sym::Opaque(i) => self
                .opaque
                .get(i as usize)
                .copied()
                .flatten()
                .unwrap_or(Cong::TOP),
            Sym::Var(i) => self.vars.get(i as usize).copied().unwrap_or(Cong::TOP),
            Sym::Ctaid(_) | Sym::Nctaid(_) => Cong::TOP,
        }
    }
    /// A non-negative range of one symbol, `(lo, hi)` with `hi = None` when
    /// unbounded above; `None` when the symbol may be negative. The launch
    /// limits of the CUDA programming guide bound the special registers:
    /// `%tid.x`/`%tid.y` below 1024, `%tid.z` below 64, `%ctaid.x` below
    /// 2^31, `%ctaid.y`/`%ctaid.z` below 65536 (the `%n*` likewise, from 1).
    pub fn range(&self, s: Sym) -> Option<(i128, Option<i128>)> {
        let big = |d: u8| if d == 0 { (1i128 << 31) - 1 } else { 65535 };
        let tid_max = |d: u8| if d == 2 { 63 } else { 1023 };
        let exact = |c: Cong| (c.m == 0).then_some(c.r as i128);
        match s {
            Sym::Ctaid(d) => Some((0, Some(big(d) - 1))),
            Sym::Nctaid(d) => Some((1, Some(big(d)))),
            Sym::Ntid(d) => match self.ntid.get(d as usize).copied().flatten().and_then(exact) {
                Some(v) => Some((v, Some(v))),
                None => Some((1, Some(tid_max(d) + 1))),
            },
            Sym::TidBase(d) => match self.tid_base_range.get(d as usize).copied().flatten() {
                Some((lo, hi)) => Some((lo as i128, Some(hi as i128))),
                None => Some((0, Some(tid_max(d)))),
            },
            Sym::Opaque(i) => {
                let own = self
                    .opaque_range
                    .get(i as usize)
                    .copied()
                    .flatten()
                    .filter(|&(lo, _)| lo >= 0);
                let iv = self.iv_range.get(i as usize).copied().flatten();
                // Both hold: their intersection does.
                let (lo, hi) = match (own, iv) {
                    (Some((a, b)), Some((c, d))) => (a.max(c), b.min(d)),
                    (a, b) => a.or(b)?,
                };
                (lo >= 0 && lo <= hi).then_some((lo as i128, Some(hi as i128)))
            }
            Sym::Param(i) => self
                .nonneg_params
                .get(i as usize)
                .copied()
                .unwrap_or(false)
                .then_some((0, None)),
            Sym::Var(_) => Some((0, None)),
        }
    }
    /// Congruence of a uniform polynomial.
    pub fn poly_cong(&self, p: &Poly) -> Cong {
        p.cong(&|s| self.cong(s))
    }
    /// Bounds of the uniform part of `p` (its lane 0 coefficients), by
    /// interval arithmetic over the symbols' ranges ([`SymFacts::range`]):
    /// `None` when a symbolic term has no bounded range or a degree above 1.
    pub fn uniform_range(&self, p: &Poly) -> Option<(i128, i128)> {
        let (mut lo, mut hi) = (0i128, 0i128);
        for (m, c) in p.terms() {
            let k = c.at(0) as i128;
            if k == 0 {
                continue;
            }
            let (a, b) = match m.syms() {
                [] => (1, 1),
                [s] => match self.range(*s)? {
                    (a, Some(b)) => (a, b),
                    _ => return None,
                },
                _ => return None,
            };
            let (x, y) = (k.checked_mul(a)?, k.checked_mul(b)?);
            lo = lo.checked_add(x.min(y))?;
            hi = hi.checked_add(x.max(y))?;
        }
        Some((lo, hi))
    }
    /// True when the uniform polynomial `p` is non-negative: a non-negative
    /// constant term and non-negative coefficients on products of symbols
    /// that are non-negative ([`SymFacts::range`]).
    pub fn uniform_nonneg(&self, p: &Poly) -> bool {
        p.terms().iter().all(|(m, c)| match c {
            Coef::Same(k) => *k >= 0 && m.syms().iter().all(|s| self.range(*s).is_some()),
            Coef::Lanes(_) => false,
        })
    }
    /// The residues modulo 128 that the uniform polynomial `u` can take,
    /// ascending: those of its congruence, except that a degree-1 term on an
    /// opaque symbol with a small range ([`SymFacts::range`], at most
    /// [`RANGED_RESIDUE_VALUES`] values) contributes only the residues of
    /// its values (`p + 2 * r` with `p ≡ 0 (mod 256)` and `r ∈ [0, 15]`:
    /// 0, 2, …, 30, where the congruence alone gives every even residue).
    pub fn residues_128(&self, u: &Poly) -> Vec<i64> {
        let small = |s: Sym| -> Option<(i64, i64, Cong)> {
            if !matches!(s, Sym::Opaque(_)) {
                return None;
            }
            let (lo, hi) = self.range(s)?;
            let hi = hi?;
            let c = self.cong(s);
            let step = c.m.max(1) as i128;
            ((hi - lo) / step < RANGED_RESIDUE_VALUES as i128).then_some((lo as i64, hi as i64, c))
        };
        if !u
            .terms()
            .iter()
            .any(|(m, _)| matches!(m.syms(), [s] if small(*s).is_some()))
        {
            return self.poly_cong(u).residues(128);
        }
        let mut rest = Vec::new();
        let mut ranged = Vec::new();
        for (m, c) in u.terms() {
            match (m.syms(), small_of(m, &small)) {
                ([_], Some(r)) => ranged.push((c.at(0), r)),
                _ => rest.push((*m, c.clone())),
            }
        }
        let mut set: u128 = 0;
        for r in self.poly_cong(&Poly::from_terms(rest)).residues(128) {
            set |= 1u128 << r.rem_euclid(128);
        }
        for (k, (lo, hi, cong)) in ranged {
            let mut next: u128 = 0;
            let (lo, hi) = (lo as i128, hi as i128);
            let step = cong.m.max(1) as i128;
            let mut v = lo + (cong.r as i128 - lo).rem_euclid(step);
            while v <= hi {
                let sh = (k as i128 * v).rem_euclid(128) as u32;
                next |= set.rotate_left(sh);
                v += step;
            }
            set = next;
        }
        (0..128).filter(|&r| set & (1u128 << r) != 0).collect()
    }
}

/// The most values a symbol's range may hold for [`SymFacts::residues_128`]
/// to enumerate them.
pub const RANGED_RESIDUE_VALUES: usize = 128;

fn small_of(m: &Mono, small: &dyn Fn(Sym) -> Option<(i64, i64, Cong)>) -> Option<(i64, i64, Cong)> {
    match m.syms() {
        [s] => small(*s),
        _ => None,
    }
}

/// Joins two values; `site` allocates the opaque symbol of this join point when
/// two polynomials differ only in their uniform part.
pub fn join(
    a: &Value,
    b: &Value,
    facts: &mut SymFacts,
    site: &mut dyn FnMut(&mut SymFacts) -> Sym,
) -> Value {
    match (a, b) {
        (Value::Undef, x) | (x, Value::Undef) => x.clone(),
        _ if a == b => a.clone(),
        _ => join_distinct(a, b, facts, site),
    }
}

/// [`join`] of two values the caller knows to differ (`a != b`): the
/// fixpoint compares a block entry's value with the incoming one before
/// joining them, and the comparison of two polynomials is not free.
pub fn join_distinct(
    a: &Value,
    b: &Value,
    facts: &mut SymFacts,
    site: &mut dyn FnMut(&mut SymFacts) -> Sym,
) -> Value {
    debug_assert!(a != b);
    match (a, b) {
        (Value::Undef, x) | (x, Value::Undef) => x.clone(),
        (Value::Pred(p), Value::Pred(q)) => Value::Pred(p.join(*q)),
        (Value::Poly(p), Value::Poly(q)) => {
            // `p = up + dp`, `q = uq + dq` (`Poly::split`), compared and
            // measured without building the parts: the fixpoint joins the
            // same values at block entries again and again.
            if !p.same_lane_part(q) {
                return Value::Varying { data: false };
            }
            let cp = p.uniform_part_cong(&|s| facts.cong(s));
            let cq = q.uniform_part_cong(&|s| facts.cong(s));
            let s = site(facts);
            let Sym::Opaque(id) = s else {
                return Value::Varying { data: false };
            };
            let prev = facts.opaque.get(id as usize).copied().flatten();
            // A previous iteration's value of this site appears as the symbol
            // itself, whose congruence is `prev`: join everything.
            let mut c = cp.join(cq);
            if let Some(pc) = prev {
                c = c.join(pc);
            }
            if let Some(slot) = facts.opaque.get_mut(id as usize) {
                *slot = Some(c);
            }
            join_site_range(facts, s, p, q);
            // The result is `s + dp`: one side already, when its uniform
            // part is `s` (a previous round's join), shared rather than built.
            if p.uniform_part_is(s) {
                return a.clone();
            }
            if q.uniform_part_is(s) {
                return b.clone();
            }
            if p.is_uniform() {
                return Value::sym(s);
            }
            let (_, dp) = p.split();
            Value::poly(Poly::sym(s).add(&dp))
        }
        (Value::Range(_), Value::Poly(_) | Value::Range(_)) | (Value::Poly(_), Value::Range(_)) => {
            join_ranges(a, b, facts, site)
        }
        _ => Value::Varying {
            data: a.is_data() || b.is_data(),
        },
    }
}

/// The range of the join site's opaque symbol `s` where two polynomials
/// `p`, `q` meet: the hull of their uniform parts' ranges
/// ([`SymFacts::uniform_range`]) and of what earlier visits recorded (a
/// side that is `s` itself, an earlier round's join, brings just that),
/// each bound widened as in [`join_ranges`] when it moves (so a bound moves
/// at most 16 times). A side without a range, or one that mentions `s`
/// otherwise (a loop's counter, `s + 1`), leaves the site unbounded for good
/// ([`UNBOUNDED`]). Both remainders of `x % c` computed two ways (a 32-bit
/// and a 64-bit path, as nvcc emits for a 64-bit remainder) keep `[0, c - 1]`.
fn join_site_range(facts: &mut SymFacts, s: Sym, p: &Poly, q: &Poly) {
    let Sym::Opaque(id) = s else { return };
    let i = id as usize;
    let prev = facts.opaque_range.get(i).copied().flatten();
    if prev == Some(UNBOUNDED) {
        return;
    }
    let mentions = |x: &Poly| x.terms().iter().any(|(m, _)| m.syms().contains(&s));
    // A side's range: `Some(None)` for the site's own symbol (an earlier
    // round's join: what `prev` already holds), `None` when unbounded.
    let side = |x: &Poly| -> Option<Option<(i64, i64)>> {
        if x.uniform_part_is(s) {
            Some(None)
        } else if mentions(x) {
            None
        } else {
            facts
                .uniform_range(x)
                .and_then(|(a, b)| Some(Some((i64::try_from(a).ok()?, i64::try_from(b).ok()?))))
        }
    };
    let new = match (side(p), side(q)) {
        (Some(x), Some(y)) => match [x, y]
            .into_iter()
            .flatten()
            .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
        {
            None => match prev {
                Some(r) => r,
                None => return,
            },
            Some((lo, hi)) => match prev {
                None => (lo, hi),
                Some((plo, phi)) => (
                    if lo < plo { widen_lo(lo) } else { plo },
                    if hi > phi { widen_hi(hi) } else { phi },
                ),
            },
        },
        _ => UNBOUNDED,
    };
    if facts.opaque_range.len() <= i {
        facts.opaque_range.resize(i + 1, None);
    }
    facts.opaque_range[i] = Some(new);
}

/// The range recorded for a join site whose value is not bounded.
pub const UNBOUNDED: (i64, i64) = (NO_LO, NO_HI);

/// Join where one side is a [`Range`]: the hull of both sides' bounds, over
/// the same uniform base or, when the bases differ, over the join site's
/// opaque symbol (as for polynomials); widened when neither side contains
/// the other (see `widen_hi`).
fn join_ranges(
    a: &Value,
    b: &Value,
    facts: &mut SymFacts,
    site: &mut dyn FnMut(&mut SymFacts) -> Sym,
) -> Value {
    let data = a.is_data() || b.is_data();
    let (Some(mut x), Some(mut y)) = (range_view(a), range_view(b)) else {
        return Value::Varying { data };
    };
    // The exact parts stay apart only when they are the same on both sides;
    // the partition is the common refinement (see the module essay for why
    // a join may keep it).
    if x.exact != y.exact {
        x = x.flat();
        y = y.flat();
    }
    let key = x.key | y.key;
    let base = if x.base == y.base {
        x.base.clone()
    } else {
        let cx = facts.poly_cong(&x.base);
        let cy = facts.poly_cong(&y.base);
        let s = site(facts);
        let Sym::Opaque(id) = s else {
            return Value::Varying { data };
        };
        let mut c = cx.join(cy);
        if let Some(Some(pc)) = facts.opaque.get(id as usize) {
            c = c.join(*pc);
        }
        if let Some(slot) = facts.opaque.get_mut(id as usize) {
            *slot = Some(c);
        }
        Poly::sym(s)
    };
    let x_has_y = x.lo <= y.lo && y.hi <= x.hi;
    let y_has_x = y.lo <= x.lo && x.hi <= y.hi;
    let (mut lo, mut hi) = (x.lo.min(y.lo), x.hi.max(y.hi));
    if !x_has_y && !y_has_x {
        lo = widen_lo(lo);
        hi = widen_hi(hi);
    }
    Range::with_bits(
        base,
        lo,
        hi,
        x.cong.join(y.cong),
        data,
        x.exact.map(|e| *e),
        key,
        x.bits.join(y.bits),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iota() -> Lanes {
        std::array::from_fn(|l| l as i64)
    }

    #[test]
    fn polynomials_add_and_multiply() {
        let i = Poly::lanes(iota());
        let n = Poly::sym(Sym::Param(2));
        let p = i.mul(&n).unwrap().add(&Poly::sym(Sym::Param(0)));
        assert_eq!(p.to_string(), "param0 + lane*param2");
        assert!(!p.is_uniform());
        let q = p.sub(&Poly::sym(Sym::Param(0)));
        assert_eq!(q.terms().len(), 1);
        assert_eq!(Poly::constant(3).scale(4).as_const(), Some(12));
        let big = n.mul(&n).unwrap().mul(&n).unwrap();
        assert!(big.mul(&n).is_none(), "degree cap");
    }

    /// The allocation-free helpers of `join` and `Poly::add` agree with
    /// the definitions they replace (`split`, then compare / `cong`;
    /// `from_terms` of both term lists).
    #[test]
    fn join_helpers_agree_with_split() {
        let lane = |f: fn(i64) -> i64| Poly::lanes(std::array::from_fn(|l| f(l as i64)));
        let (n, m, u) = (
            Poly::sym(Sym::Param(2)),
            Poly::sym(Sym::Param(0)),
            Poly::sym(Sym::Opaque(0)),
        );
        let polys = [
            Poly::default(),
            Poly::constant(5),
            n.clone(),
            u.clone(),
            u.add(&lane(|l| 4 * l)),
            u.add(&lane(|l| 4 * l + 8)),
            m.add(&lane(|l| 4 * l)),
            m.add(&lane(|l| 4 * l + 1)).add(&Poly::constant(3)),
            lane(|l| 4 * l).mul(&n).unwrap().add(&u),
            lane(|l| 4 * l + 1).mul(&u).unwrap(),
            lane(|l| 1 - (l % 2)).mul(&u).unwrap(),
            n.mul(&m)
                .unwrap()
                .add(&lane(|l| l / 16))
                .add(&Poly::constant(-7)),
            lane(|l| l / 16),
        ];
        let facts = SymFacts {
            params: vec![Cong::modulo(256, 0), Cong::TOP, Cong::modulo(4, 1)],
            opaque: vec![Some(Cong::modulo(16, 8))],
            ..SymFacts::default()
        };
        for p in &polys {
            let (up, _) = p.split();
            assert_eq!(
                p.uniform_part_cong(&|s| facts.cong(s)),
                facts.poly_cong(&up)
            );
            assert_eq!(p.uniform_part_is(Sym::Opaque(0)), up == u, "{p}");
            for q in &polys {
                assert_eq!(p.same_lane_part(q), p.split().1 == q.split().1, "{p} | {q}");
                let pq = p.add(q);
                assert_eq!(pq.lane_part_exact(), pq.split().1.exact(), "{pq}");
                let mut t = p.terms().to_vec();
                t.extend(q.terms().iter().cloned());
                assert_eq!(p.add(q), Poly::from_terms(t), "{p} + {q}");
                assert_eq!(p.add(q), q.add(p));
            }
            // `add_const` is the sum with the constant, which it does not build
            for c in [0, 1, -3, -5, 7, i64::MAX, i64::MIN] {
                assert_eq!(p.add_const(c), p.add(&Poly::constant(c)), "{p} + {c}");
                assert_eq!(
                    p.add_const(c.wrapping_neg()),
                    p.sub(&Poly::constant(c)),
                    "{p} - {c}"
                );
            }
        }
    }

    /// The shared values are the values `Value::poly` would build: one
    /// symbol, a small constant, and the polynomials that are one of them.
    #[test]
    fn shared_values_are_the_built_ones() {
        let built = |p: Poly| Value::Poly(Rc::new(p));
        for s in [
            Sym::Opaque(0),
            Sym::Opaque(1 << 20),
            Sym::Param(3),
            Sym::Ctaid(1),
        ] {
            assert_eq!(Value::sym(s), built(Poly::sym(s)));
            let (Value::Poly(a), Value::Poly(b)) = (Value::sym(s), Value::poly(Poly::sym(s)))
            else {
                panic!("not a polynomial")
            };
            // shared by pointer below the cap on opaque indices
            assert_eq!(Rc::ptr_eq(&a, &b), s != Sym::Opaque(1 << 20), "{s}");
        }
        for c in [-129, -128, -1, 0, 1, 4095, 4096, i64::MIN] {
            assert_eq!(Value::constant(c), built(Poly::constant(c)), "{c}");
            assert_eq!(
                Value::poly(Poly::constant(c)),
                built(Poly::constant(c)),
                "{c}"
            );
        }
        // a symbol with another coefficient, or with lanes, is not shared
        let p = Poly::sym(Sym::Param(0)).scale(2);
        assert_eq!(Value::poly(p.clone()), built(p));
    }

    /// The binary gcd agrees with Euclid's.
    #[test]
    fn binary_gcd_agrees_with_euclid() {
        fn euclid(a: u128, b: u128) -> u128 {
            if b == 0 {
                a
            } else {
                euclid(b, a % b)
            }
        }
        let vals: [u128; 12] = [
            0,
            1,
            2,
            12,
            18,
            256,
            1 << 40,
            3 << 41,
            (1 << 64) + 6,
            u64::MAX as u128 * 12,
            u128::MAX,
            u128::MAX - 255,
        ];
        for &a in &vals {
            for &b in &vals {
                assert_eq!(gcd(a, b), euclid(a, b), "gcd({a}, {b})");
            }
        }
    }

    #[test]
    fn exact_lanes_collapse_when_equal() {
        let p = Poly::lanes([7; WARP]);
        assert_eq!(p.as_const(), Some(7));
        assert!(p.is_uniform());
        let q = Poly::lanes(iota()).sub(&Poly::lanes(iota()));
        assert_eq!(q.as_const(), Some(0));
    }

    #[test]
    fn three_valued_predicates() {
        let half = PredVal::Lanes(0xffff);
        let unk = PredVal::Unknown {
            uniform: false,
            data: false,
        };
        let a = half & unk;
        assert_eq!(a.maybe_true(), 0xffff);
        assert_eq!(a.maybe_false(), u32::MAX);
        let o = !half | unk;
        assert_eq!(o.maybe_false(), 0xffff);
        assert_eq!(!(!a), a);
        assert_eq!(half & PredVal::Lanes(0xff), PredVal::Lanes(0xff));
        assert_eq!(half ^ PredVal::Lanes(0xff), PredVal::Lanes(0xff00));
        assert_eq!((half ^ unk).maybe_true(), u32::MAX);
        assert_eq!(unk & unk, unk);
        let j = PredVal::Lanes(1).join(PredVal::Lanes(3));
        assert_eq!((j.maybe_true(), j.maybe_false()), (3, !1));
    }

    /// Every transfer of `KnownBits` holds for every pair of values its
    /// operands allow (exhaustively over facts on the low 4 bits, the rest
    /// known, and a few constants).
    #[test]
    fn known_bits_transfer_is_sound() {
        // Facts on the low 4 bits (each bit 0, 1 or free), high bits of
        // a small non-negative or negative value.
        let mut facts = Vec::new();
        for code in 0..81u32 {
            for high in [0i64, 0x30, -16] {
                let (mut zero, mut one) = (!0xfu64 & !(high as u64), !0xfu64 & high as u64);
                let mut c = code;
                for b in 0..4 {
                    match c % 3 {
                        0 => zero |= 1 << b,
                        1 => one |= 1 << b,
                        _ => {}
                    }
                    c /= 3;
                }
                facts.push(KnownBits { zero, one });
            }
        }
        let members = |k: KnownBits| -> Vec<i64> {
            k.enumerate(NO_LO, NO_HI, Cong::TOP, 8)
                .expect("few free bits")
        };
        for &a in &facts {
            let va = members(a);
            assert!(va.iter().all(|&x| a.contains(x)));
            for k in [0i64, 1, 3, 4, 12, -2, 512] {
                let m = a.mul_const(k);
                assert!(
                    va.iter().all(|&x| m.contains(x.wrapping_mul(k))),
                    "{a:?} * {k}"
                );
            }
            for s in [0u32, 1, 3, 9] {
                assert!(va.iter().all(|&x| a.shl_by(s).contains(x << s)));
                assert!(va.iter().all(|&x| a.ashr(s).contains(x >> s)));
                assert!(va
                    .iter()
                    .all(|&x| a.lshr(s).contains(((x as u64) >> s) as i64)));
            }
            assert!(va.iter().all(|&x| a.negated().contains(x.wrapping_neg())));
            for (bits, signed) in [(3u32, false), (3, true), (8, false)] {
                let t = a.truncate(bits, signed);
                let read = |x: i64| {
                    let sh = 64 - bits;
                    if signed {
                        (x << sh) >> sh
                    } else {
                        ((x as u64) << sh >> sh) as i64
                    }
                };
                assert!(va.iter().all(|&x| t.contains(read(x))), "{a:?} as {bits}");
            }
            for &b in facts.iter().step_by(7) {
                let vb = members(b);
                let (s, n, o, x, j) = (a.sum(b), a.and(b), a.or(b), a.xor(b), a.join(b));
                for &p in &va {
                    assert!(j.contains(p));
                    for &q in &vb {
                        assert!(s.contains(p.wrapping_add(q)), "{a:?} + {b:?}");
                        assert!(n.contains(p & q) && o.contains(p | q) && x.contains(p ^ q));
                    }
                }
            }
        }
        // Exact where no carry can move: bits 9..11 plus bit 1.
        let hi3 = KnownBits {
            zero: !0xe00,
            one: 0,
        };
        let bit1 = KnownBits { zero: !2, one: 0 };
        assert_eq!(hi3.sum(bit1).unknown_mask(), 0xe02);
        // What bounds and congruences imply.
        assert_eq!(KnownBits::of_range(0, 255).zero, !0xff);
        assert_eq!(KnownBits::of_range(512, 767).one, 512);
        assert_eq!(KnownBits::of_range(-4, 3), KnownBits::UNKNOWN);
        assert_eq!(
            KnownBits::of_cong(Cong::modulo(24, 4)).unknown_mask() & 7,
            0
        );
        let v = hi3
            .sum(bit1)
            .enumerate(0, 3586, Cong::modulo(2, 0), 12)
            .unwrap();
        assert_eq!(v.len(), 16);
        assert_eq!(hi3.sum(bit1).to_string(), "bits 1, 9-11 vary");
    }

    #[test]
    fn lane_vectors_print_compactly() {
        let v: Lanes = std::array::from_fn(|l| 4 * (l as i64 % 16) + 1024 * (l as i64 / 16));
        assert_eq!(lane_vector_string(&v), "(4*(lane%16) + 1024*(lane/16))");
        let v: Lanes = std::array::from_fn(|l| (l as i64) / 16);
        assert_eq!(lane_vector_string(&v), "(lane/16)");
        let v: Lanes = std::array::from_fn(|l| 124 - 4 * l as i64);
        assert_eq!(lane_vector_string(&v), "(-4*lane + 124)");
        let v: Lanes = std::array::from_fn(|l| ((l * 7) % 32) as i64);
        assert!(lane_vector_string(&v).starts_with("[0, 7, 14, 21, 28, 3,"));
        let v: Lanes = std::array::from_fn(|l| if l < 20 { 0 } else { 5 });
        assert_eq!(lane_vector_string(&v), "[0×20, 5×12]");
    }

    #[test]
    fn congruence_arithmetic() {
        let a = Cong::modulo(256, 0);
        let b = Cong::exact(4);
        assert_eq!(a + b, Cong::modulo(256, 4));
        assert_eq!(a * b, Cong::modulo(1024, 0));
        let n32 = Cong::modulo(32, 0);
        assert_eq!(n32 * Cong::TOP, Cong::modulo(32, 0));
        assert_eq!(Cong::exact(5) * n32, Cong::modulo(160, 0));
        // join of 0 and 4 (mod 256): both ≡ 0 mod 4
        assert_eq!(a.join(Cong::modulo(256, 4)), Cong::modulo(4, 0));
        assert_eq!(Cong::exact(8).join(Cong::exact(24)), Cong::modulo(16, 8));
        assert_eq!(Cong::modulo(4, 1).residues(16), vec![1, 5, 9, 13]);
        assert_eq!(Cong::modulo(256, 4).residue_mod(128), Some(4));
        // huge moduli stay sound
        let h = Cong::modulo(1 << 40, 0) * Cong::modulo(1 << 40, 0);
        assert_eq!(h.residue_mod(128), Some(0));
        assert_eq!((Cong::exact(i64::MAX) * Cong::exact(i64::MAX)).m, 1 << 40);
    }

    #[test]
    fn residues_of_a_bounded_opaque_term() {
        // p0 + 2 * u0 with p0 ≡ 0 (mod 256) and u0 ∈ [0, 15] (`slot % 16`
        // of a non-negative slot): 2 * u0 is 0, 2, …, 30 modulo 128.
        let facts = SymFacts {
            params: vec![Cong::modulo(256, 0)],
            nonneg_params: vec![true],
            opaque: vec![Some(Cong::TOP)],
            opaque_range: vec![Some((0, 15))],
            ..SymFacts::default()
        };
        let u = Poly::sym(Sym::Param(0)).add(&Poly::sym(Sym::Opaque(0)).scale(2));
        let even: Vec<i64> = (0..16).map(|v| 2 * v).collect();
        assert_eq!(facts.residues_128(&u), even);
        // Without the range: every even residue, as the congruence says.
        let bare = SymFacts {
            opaque_range: vec![None],
            ..facts.clone()
        };
        assert_eq!(
            bare.residues_128(&u),
            (0..64).map(|v| 2 * v).collect::<Vec<_>>()
        );
        // u0 ≡ 1 (mod 4) in [0, 15]: 1, 5, 9, 13, times 2.
        let odd = SymFacts {
            opaque: vec![Some(Cong::modulo(4, 1))],
            ..facts.clone()
        };
        assert_eq!(odd.residues_128(&u), vec![2, 10, 18, 26]);
        // 64 * u0: 0 and 64 only; u0 in [0, 200] is more than
        // RANGED_RESIDUE_VALUES values: its congruence.
        let v = Poly::sym(Sym::Opaque(0)).scale(64);
        assert_eq!(facts.residues_128(&v), vec![0, 64]);
        let wide = SymFacts {
            opaque_range: vec![Some((0, 200))],
            ..facts.clone()
        };
        assert_eq!(wide.residues_128(&u).len(), 64);
        // The range of the uniform part and its sign.
        assert_eq!(facts.uniform_range(&u), None); // p0 unbounded above
        let w = Poly::sym(Sym::Opaque(0)).scale(-2).add(&Poly::constant(40));
        assert_eq!(facts.uniform_range(&w), Some((10, 40)));
        assert!(facts.uniform_nonneg(&u));
        assert!(!facts.uniform_nonneg(&w));
    }

    #[test]
    fn a_join_of_bounded_values_keeps_their_hull() {
        // u0 ∈ [0, 15] (a 64-bit remainder) and u1 ∈ [0, 7] meet: the join
        // site's u2 lies in [0, 15].
        let mut facts = SymFacts {
            opaque: vec![Some(Cong::TOP), Some(Cong::TOP), None],
            opaque_range: vec![Some((0, 15)), Some((0, 7))],
            ..SymFacts::default()
        };
        let a = Value::poly(Poly::sym(Sym::Opaque(0)));
        let b = Value::poly(Poly::sym(Sym::Opaque(1)));
        let j = join(&a, &b, &mut facts, &mut |_| Sym::Opaque(2));
        assert_eq!(j, Value::poly(Poly::sym(Sym::Opaque(2))));
        assert_eq!(facts.range(Sym::Opaque(2)), Some((0, Some(15))));
        // The next round meets the site's own symbol: nothing moves.
        let again = join(&j, &a, &mut facts, &mut |_| Sym::Opaque(2));
        assert_eq!(again, j);
        assert_eq!(facts.range(Sym::Opaque(2)), Some((0, Some(15))));
        // A later visit with a wider side widens the bound (to 255, the
        // next threshold above 16).
        let c = Value::poly(Poly::sym(Sym::Opaque(0)).add(&Poly::constant(1)));
        let _ = join(&c, &b, &mut facts, &mut |_| Sym::Opaque(2));
        assert_eq!(facts.range(Sym::Opaque(2)), Some((0, Some(255))));
        // A loop counter (u2 + 1 meets 0 at u2's own site): unbounded for
        // good, whatever later visits bring.
        let next = Value::poly(Poly::sym(Sym::Opaque(2)).add(&Poly::constant(1)));
        let _ = join(&Value::constant(0), &next, &mut facts, &mut |_| {
            Sym::Opaque(2)
        });
        assert_eq!(facts.range(Sym::Opaque(2)), None);
        let _ = join(&a, &b, &mut facts, &mut |_| Sym::Opaque(2));
        assert_eq!(facts.range(Sym::Opaque(2)), None);
    }

    #[test]
    fn join_keeps_the_lane_part_of_a_loop_index() {
        let mut facts = SymFacts {
            opaque: vec![None],
            ..Default::default()
        };
        facts.params = vec![Cong::modulo(256, 0)];
        let i = Poly::lanes(iota()).scale(4).add(&Poly::sym(Sym::Param(0)));
        let next = i.add(&Poly::constant(4096));
        let j = join(
            &Value::poly(i.clone()),
            &Value::poly(next),
            &mut facts,
            &mut |_| Sym::Opaque(0),
        );
        let p = j.as_poly().unwrap();
        assert_eq!(p.to_string(), "4*lane + u0");
        assert_eq!(facts.opaque[0], Some(Cong::modulo(256, 0)));
        let k = join(
            &Value::poly(i),
            &Value::poly(Poly::lanes([0; WARP])),
            &mut facts,
            &mut |_| Sym::Opaque(0),
        );
        assert_eq!(k, Value::Varying { data: false });
        assert_eq!(
            join(
                &Value::Varying { data: true },
                &Value::constant(1),
                &mut facts,
                &mut |_| Sym::Opaque(0)
            ),
            Value::Varying { data: true }
        );
    }
}
