//! Loaded values the simulation does not know but can name: lanes that
//! loaded one address in one request hold one value.
//!
//! # Domain
//!
//! A lane's register that holds loaded data is, besides unknown, possibly
//! *tagged*: `mul · T + off`, where `T` is the unknown value one load
//! request read at one address (its *tag*: a hash of the statement, the
//! vector element, the request and the lane's address) and `mul`, `off` are
//! known integers. Lanes of one request whose addresses are equal get the
//! same tag: a load instruction reads each address once, so they receive the
//! same value. `row = idx[base + (t >> 4)]` gives 16 lanes one tag and the
//! other 16 another, and `A + row * 256 + (t & 15) * 16` keeps both groups'
//! exact lane offsets over their own unknown row.
//!
//! # Transfer rules
//!
//! Tags follow the integer arithmetic that builds addresses: `mov`, integer
//! `cvt` (the value is assumed to fit, as the dataflow assumes addresses do
//! not wrap), `add`/`sub` with a known value or with the same tag (equal
//! tags with opposite multipliers cancel to a known value), `mul`/`mad`
//! (`.lo`, `.wide`) and `shl` by known values, `neg`, `selp` on a known
//! predicate, `or` with a known value below the tagged value's lowest
//! possibly-set bit (a sum: `(row * 16) | (lane & 15)`); a `shfl.sync`
//! moves a tagged value to the lanes that read its lane
//! (`__shfl_sync(m, u, k + (lane >> 4))`: each half-warp one tag). A function of one tagged value and a known operand that keeps
//! its values spread (a shift right by at most 8, a division by at most
//! 256, a magic-number `mul.hi`) gives a *derived* tag,
//! shared by the lanes whose inputs are equal (`tok // 2` in a Triton MoE
//! gather); the sign bit of a tagged value (`shr` by the width minus one)
//! is 0, as the dataflow takes indices to be non-negative. A comparison
//! (`setp`, without a combining predicate) of tagged or known values gives
//! a *predicate tag*, shared by the lanes whose operands are equal (its
//! truth is not known). A load whose guard is unknown in a lane but
//! carries a predicate tag (the lane's way there known) gives a derived
//! tag of the guard, the loaded tag and the register's old value (known or
//! tagged): lanes with all three equal hold the same one of the two values
//! (Triton's `mov r, 0; @p ld { r }` of a pipelined loop's next index
//! under `e < hi`, [`guarded_load_tag`]). Anything else
//! (a mask, a remainder, a `min`/`max` clamp: values drawn from a bounded
//! set, which collide; the static analysis' range shape costs them) makes
//! the lane plain unknown data. A load tags its result only where the loaded
//! element is at least 32 bits wide (an index or a pointer, whose values are
//! spread over a range far larger than one request's footprint: an 8- or
//! 16-bit value is drawn from a small set and collides, which the bounded
//! model of `cost::ranged_random_cost` describes instead), and only where its
//! own address is known or tagged, in lanes whose own guard is known, also
//! those whose way to the load is not (a trip of a loop on loaded data, an
//! `if` on loaded data: on that path the lane reads what its address holds,
//! and the register becomes unknown where the paths meet; since stop 42,
//! `tests/hw/blind21` `t21_blocksparse_mm_lut`'s block column read back from
//! one shared word). The tag includes the request (the warp
//! instruction count), so values read by different requests never share one:
//! memory may change between them.
//!
//! # Costs
//!
//! A global request whose unknown lanes are all tagged is costed as groups
//! (lanes of one tag and multiplier) that lie far apart: the known lanes'
//! exact cost plus, for each group, the mean over the residues modulo 128
//! that `mul · T + off` can take (multiples of `gcd(mul, 128)`, kept to the
//! access's natural alignment) of the group's lines and sectors
//! (`cost::cost_over_residues`). Distinct tags are assumed not to collide:
//! two rows read by one request through different indices are different
//! rows, the expectation for indices drawn from a range much larger than a
//! request (a 32-bit index). The bounds: at least the largest component's
//! fewest, at most the sum of the most. For `cp.async`, the shared side's
//! wavefronts follow the source addresses with every group at the residue
//! of its first lane's natural alignment (one representative placement).
//!
//! # Soundness and limits
//!
//! The equality of tagged lanes is exact (one request reads one value per
//! address). The no-collision assumption is an expectation, not a bound: a
//! gather of sorted indices whose neighbouring rows are contiguous costs
//! less. Shared-memory wavefronts of tagged addresses other than `cp.async`
//! destinations are not modelled (as for unknown lanes).

use super::super::cost::{cost_over_residues, request_cost, CostRange};
use super::super::domain::{Lanes, WARP};
use super::super::transfer::{Alu, AluOp};
use super::{lane_src, Regs, Warp};
use crate::ir::alu::MulMode;
use crate::ir::Src;
use std::collections::HashMap;
use std::hash::Hash;

/// A tagged lane value: `mul · T(tag) + off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tagged {
    pub tag: u64,
    pub mul: i64,
    pub off: i64,
}

/// The per-register tag file (allocated on the first tag of a warp run).
#[derive(Default)]
pub(super) struct Tags {
    tag: Vec<[u64; WARP]>,
    mul: Vec<[i64; WARP]>,
    /// Lanes whose value is tagged (their `Regs::v` holds `off`).
    pub(super) mask: Vec<u32>,
}

impl Tags {
    pub(super) fn reset(&mut self) {
        self.mask.iter_mut().for_each(|m| *m = 0);
    }
    #[inline]
    pub(super) fn clear(&mut self, r: usize, bit: u32) {
        if let Some(m) = self.mask.get_mut(r) {
            *m &= !bit;
        }
    }
    fn ensure(&mut self, n: usize) {
        if self.mask.len() < n {
            self.tag.resize(n, [0; WARP]);
            self.mul.resize(n, [0; WARP]);
            self.mask.resize(n, 0);
        }
    }
}

impl Regs {
    /// Makes lane `l` of `r` the tagged data value `t`.
    pub(super) fn set_tagged(&mut self, r: u32, l: usize, t: Tagged) {
        let r = r as usize;
        if r >= self.v.len() {
            return;
        }
        let bit = 1u32 << l;
        self.known[r] &= !bit;
        self.data[r] |= bit;
        self.v[r][l] = t.off;
        let n = self.v.len();
        self.tags.ensure(n);
        self.tags.tag[r][l] = t.tag;
        self.tags.mul[r][l] = t.mul;
        self.tags.mask[r] |= bit;
    }

    /// Lane `l`'s value of `s` when it is tagged.
    pub(super) fn tagged(&self, s: &Src, l: usize) -> Option<Tagged> {
        let Src::Reg(r, off) = s else { return None };
        let r = *r as usize;
        if self.tags.mask.get(r).copied().unwrap_or(0) & (1 << l) == 0 {
            return None;
        }
        Some(Tagged {
            tag: self.tags.tag[r][l],
            mul: self.tags.mul[r][l],
            off: self.v[r][l].wrapping_add(*off),
        })
    }
}

/// A lane's operand as the tag rules see it.
#[derive(Clone, Copy)]
enum Opnd {
    Known(i64),
    Tag(Tagged),
}

/// What an integer instruction computes in a lane whose operands are known
/// or tagged: `Some(Ok(v))` a known value (equal tags cancelled), `Some(Err(t))`
/// a tagged one, `None` plain unknown data.
pub(super) fn alu_lane(
    alu: Alu,
    srcs: &[Src],
    regs: &Regs,
    w: &Warp<'_>,
    l: usize,
) -> Option<Result<i64, Tagged>> {
    if alu.ty.float {
        return None;
    }
    let get = |k: usize| -> Option<Opnd> {
        Some(match named(regs, w, srcs.get(k)?, l)? {
            Ok(v) => Opnd::Known(v),
            Err(t) => Opnd::Tag(t),
        })
    };
    let out = match alu.op {
        AluOp::Mov => get(0)?,
        AluOp::Cvt(src) if !src.float => get(0)?,
        AluOp::Neg => scale(get(0)?, -1)?,
        AluOp::Add => combine(get(0)?, get(1)?, 1)?,
        AluOp::Sub => combine(get(0)?, get(1)?, -1)?,
        AluOp::Mul(MulMode::Lo | MulMode::Wide) => product(get(0)?, get(1)?)?,
        AluOp::Mad(MulMode::Lo | MulMode::Wide) => combine(product(get(0)?, get(1)?)?, get(2)?, 1)?,
        AluOp::Shl => match get(1)? {
            Opnd::Known(c) if (0..48).contains(&c) => scale(get(0)?, 1i64 << c)?,
            _ => return None,
        },
        // An `or` with a known value below the tagged value's lowest
        // possibly-set bit is a sum (`(row * 16) | (lane & 15)`): `mul · T`
        // is a multiple of `2^tz(mul)` for every `T`.
        AluOp::Or => match (get(0)?, get(1)?) {
            (Opnd::Tag(t), Opnd::Known(k)) | (Opnd::Known(k), Opnd::Tag(t)) => {
                let low = 1i64.checked_shl(t.mul.trailing_zeros())?;
                if (0..low).contains(&k) && t.off.rem_euclid(low) == 0 {
                    combine(Opnd::Tag(t), Opnd::Known(k), 1)?
                } else {
                    return None;
                }
            }
            _ => return None,
        },
        AluOp::Selp => match get(2)? {
            Opnd::Known(p) => get(if p != 0 { 0 } else { 1 })?,
            _ => return None,
        },
        // The sign bit of a loaded index: 0 (indices are non-negative, as
        // the dataflow assumes); a short shift, a small division or a
        // magic-number high product of a tagged value: a value that lanes
        // with equal inputs share (`derived`). Not a clamp (`min`/`max`
        // with a known bound): its values are drawn from a bounded set.
        AluOp::Shr => match (get(0)?, get(1)?) {
            (Opnd::Tag(_), Opnd::Known(c)) if c == alu.ty.bits as i64 - 1 => Opnd::Known(0),
            (Opnd::Tag(t), Opnd::Known(c)) if (1..=8).contains(&c) => derived(1, c, t),
            _ => return None,
        },
        AluOp::Div => match (get(0)?, get(1)?) {
            (Opnd::Tag(t), Opnd::Known(c)) if (2..=256).contains(&c) => derived(2, c, t),
            _ => return None,
        },
        AluOp::Mul(MulMode::Hi) => match (get(0)?, get(1)?) {
            (Opnd::Tag(t), Opnd::Known(c)) | (Opnd::Known(c), Opnd::Tag(t)) => derived(3, c, t),
            _ => return None,
        },
        // A comparison of tagged (or known) values: a predicate that lanes
        // with equal operands share (`lo < hi` of two loaded bounds, the
        // same in every lane that loaded them), named for the guarded
        // loads it decides (`guarded_load_tag`). Its value is not known.
        AluOp::Setp(cmp, None) if srcs.len() == 2 => {
            let (a, b) = (get(0)?, get(1)?);
            if matches!((a, b), (Opnd::Known(_), Opnd::Known(_))) {
                return None;
            }
            Opnd::Tag(fresh(|h| {
                (4u8, cmp, alu.ty.bits, alu.ty.signed).hash(h);
                hash_named(h, a.into());
                hash_named(h, b.into());
            }))
        }
        _ => return None,
    };
    Some(match out {
        Opnd::Known(v) => Ok(v),
        Opnd::Tag(t) => Err(t),
    })
}

/// A function `op` (with the known operand `c`) of the tagged value `t`:
/// a new tag that lanes with equal `t` share. Only functions that keep a
/// wide range of values (no mask, no remainder, no long shift), so that the
/// no-collision assumption of the costs still holds.
fn derived(op: u8, c: i64, t: Tagged) -> Opnd {
    Opnd::Tag(fresh(|h| (op, c, t.tag, t.mul, t.off).hash(h)))
}

/// A new tag, the hash of what `key` writes: what the lanes that share it
/// have in common.
fn fresh(key: impl FnOnce(&mut crate::util::FxHasher)) -> Tagged {
    use std::hash::Hasher;
    let mut h = crate::util::FxHasher::default();
    key(&mut h);
    Tagged {
        tag: h.finish() | 1,
        mul: 1,
        off: 0,
    }
}

/// Hashes a known (`Ok`) or tagged (`Err`) lane value.
fn hash_named(h: &mut crate::util::FxHasher, x: Result<i64, Tagged>) {
    match x {
        Ok(v) => (0u8, v).hash(h),
        Err(t) => (1u8, t.tag, t.mul, t.off).hash(h),
    }
}

impl From<Opnd> for Result<i64, Tagged> {
    fn from(o: Opnd) -> Self {
        match o {
            Opnd::Known(v) => Ok(v),
            Opnd::Tag(t) => Err(t),
        }
    }
}

/// Lane `l`'s value of `s` when it is known (`Ok`) or tagged (`Err`);
/// `None` for plain unknown data.
pub(super) fn named(regs: &Regs, w: &Warp<'_>, s: &Src, l: usize) -> Option<Result<i64, Tagged>> {
    match lane_src(regs, w, s, l) {
        Ok(v) => Some(Ok(v)),
        Err(_) => regs.tagged(s, l).map(Err),
    }
}

fn scale(x: Opnd, c: i64) -> Option<Opnd> {
    Some(match x {
        Opnd::Known(v) => Opnd::Known(v.checked_mul(c)?),
        Opnd::Tag(t) => {
            let mul = t.mul.checked_mul(c)?;
            let off = t.off.checked_mul(c)?;
            if mul == 0 {
                Opnd::Known(off)
            } else {
                Opnd::Tag(Tagged { mul, off, ..t })
            }
        }
    })
}

fn product(a: Opnd, b: Opnd) -> Option<Opnd> {
    match (a, b) {
        (Opnd::Known(x), y) | (y, Opnd::Known(x)) => scale(y, x),
        _ => None,
    }
}

fn combine(a: Opnd, b: Opnd, sign: i64) -> Option<Opnd> {
    let b = scale(b, sign)?;
    Some(match (a, b) {
        (Opnd::Known(x), Opnd::Known(y)) => Opnd::Known(x.checked_add(y)?),
        (Opnd::Tag(t), Opnd::Known(k)) | (Opnd::Known(k), Opnd::Tag(t)) => Opnd::Tag(Tagged {
            off: t.off.checked_add(k)?,
            ..t
        }),
        (Opnd::Tag(s), Opnd::Tag(t)) if s.tag == t.tag => {
            let mul = s.mul.checked_add(t.mul)?;
            let off = s.off.checked_add(t.off)?;
            if mul == 0 {
                Opnd::Known(off)
            } else {
                Opnd::Tag(Tagged { mul, off, ..s })
            }
        }
        _ => return None,
    })
}

/// The value of a load's destination in a lane whose guard is not known
/// but named (a predicate from tagged values, [`alu_lane`]'s `setp`): the
/// loaded value `loaded` where the guard holds, the register's old value
/// `old` (known or tagged) where it does not. Lanes with the same guard,
/// the same loaded tag and the same old value hold the same one of the two
/// (Triton's `mov r, 0; @p ld.global.b32 { r }, [ptr + e]` of a loop's
/// next index under `e < hi`), so they share a derived tag.
pub(super) fn guarded_load_tag(
    guard: Tagged,
    negated: bool,
    loaded: Tagged,
    old: Result<i64, Tagged>,
) -> Tagged {
    fresh(|h| {
        (5u8, guard.tag, negated, loaded.tag, loaded.mul, loaded.off).hash(h);
        hash_named(h, old);
    })
}

/// The tag of element `k` of a load request (`nonce`: the warp instruction
/// count, unique per request) in a lane whose address is `addr` (known) or
/// the tagged `taddr`.
pub(super) fn load_tag(stmt: u32, k: usize, nonce: u64, addr: Result<i64, Tagged>) -> Tagged {
    fresh(|h| {
        (stmt, k, nonce).hash(h);
        hash_named(h, addr);
    })
}

/// The lanes of `lanes` whose value of `addr` is unknown and tagged, in
/// groups of one tag and multiplier: `(mul, lanes, offsets)`.
pub(super) type Groups = Vec<(i64, u32, Lanes)>;

/// The groups' lanes within `lanes` (groups left without a lane dropped).
pub(super) fn restrict(groups: &Groups, lanes: u32) -> Groups {
    groups
        .iter()
        .filter(|g| g.1 & lanes != 0)
        .map(|&(mul, m, offs)| (mul, m & lanes, offs))
        .collect()
}

/// Groups the unknown lanes `lanes` of `addr`; `None` when one is not tagged.
pub(super) fn groups(regs: &Regs, addr: &Src, lanes: u32) -> Option<Groups> {
    let mut gs: Vec<(u64, i64, u32, Lanes)> = Vec::new();
    let mut m = lanes;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        let t = regs.tagged(addr, l)?;
        let i = match gs.iter().position(|g| g.0 == t.tag && g.1 == t.mul) {
            Some(i) => i,
            None => {
                gs.push((t.tag, t.mul, 0, [0; WARP]));
                gs.len() - 1
            }
        };
        gs[i].2 |= 1 << l;
        gs[i].3[l] = t.off;
    }
    Some(gs.into_iter().map(|(_, mul, m, o)| (mul, m, o)).collect())
}

/// The residues modulo 128 that `mul · T + off` takes for a group whose
/// first lane's offset is `off0`, kept to the access's natural alignment.
fn residues(mul: i64, off0: i64, bytes: u32) -> Vec<i64> {
    let g = super::sample::gcd(mul.unsigned_abs(), 128).max(1) as i64;
    let align = (bytes.clamp(1, 16)) as i64;
    let all: Vec<i64> = (0..128 / g)
        .map(|k| (k * g + off0).rem_euclid(128))
        .collect();
    let aligned: Vec<i64> = all.iter().copied().filter(|r| r % align == 0).collect();
    if aligned.is_empty() {
        all
    } else {
        aligned
    }
}

/// A group's figures by what they depend on: the residues' step and start
/// modulo 128, the lanes, the access width and the lane offsets (hashed).
pub(super) type GroupCache = HashMap<(i64, i64, u32, u32, u64), CostRange>;

/// Entries a [`GroupCache`] holds at most (it is emptied when full).
const GROUP_CACHE_MAX: usize = 1 << 14;

/// Lines and sectors of a request whose lanes `known` have the exact
/// addresses `addrs` and whose other lanes form the tagged `groups`.
pub(super) fn cost(
    addrs: &Lanes,
    known: u32,
    groups: &Groups,
    bytes: u32,
    cache: &mut GroupCache,
) -> CostRange {
    let mut c = if known == 0 {
        CostRange::default()
    } else {
        CostRange::exact(request_cost(addrs, known, bytes))
    };
    for (mul, lanes, offs) in groups {
        let first = lanes.trailing_zeros() as usize;
        let off0 = offs[first];
        let d: Lanes = std::array::from_fn(|l| {
            if lanes & (1 << l) != 0 {
                offs[l].wrapping_sub(off0)
            } else {
                0
            }
        });
        let step = super::sample::gcd(mul.unsigned_abs(), 128).max(1) as i64;
        let key = {
            let mut h = crate::util::FxHasher::default();
            use std::hash::{Hash, Hasher};
            d.hash(&mut h);
            (
                step,
                off0.rem_euclid(step.max(1)),
                *lanes,
                bytes,
                h.finish(),
            )
        };
        let g = match cache.get(&key) {
            Some(g) => *g,
            None => {
                let g = cost_over_residues(&residues(*mul, off0, bytes), &d, *lanes, bytes);
                if cache.len() >= GROUP_CACHE_MAX {
                    cache.clear();
                }
                cache.insert(key, g);
                g
            }
        };
        c.lines += g.lines;
        c.sectors += g.sectors;
        c.lines_min = c.lines_min.max(g.lines_min);
        c.sectors_min = c.sectors_min.max(g.sectors_min);
        c.lines_max += g.lines_max;
        c.sectors_max += g.sectors_max;
    }
    c
}

/// One placement of the groups over the known addresses, each group far
/// from the others: concrete addresses for the rules that need every lane
/// (the `cp.async` wavefronts). Every group at the first residue its
/// alignment allows, or (`spread`) group `k` at its `k`-th residue (cyclically).
pub(super) fn placed(addrs: &Lanes, groups: &Groups, bytes: u32, spread: bool) -> Lanes {
    let mut a = *addrs;
    for (k, (mul, lanes, offs)) in groups.iter().enumerate() {
        let first = lanes.trailing_zeros() as usize;
        let off0 = offs[first];
        let rs = residues(*mul, off0, bytes);
        let r = if spread { rs[k % rs.len()] } else { rs[0] };
        // Far apart: 2^40 + k·2^32, plus the residue, minus the first offset.
        let base = (1i64 << 40) + ((k as i64) << 32) + r - off0.rem_euclid(128);
        for (l, x) in a.iter_mut().enumerate() {
            if lanes & (1 << l) != 0 {
                *x = base.wrapping_add(offs[l]);
            }
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `A + idx[t >> 4] * 256 + (t & 15) * 16`, 16-byte copies: two groups
    /// of 16 lanes, each a 256-byte row (2 lines, 8 sectors) at a residue
    /// that `mul = 256` pins to the first lane's offset.
    #[test]
    fn two_rows_of_sixteen_lanes() {
        let mut offs = [0i64; WARP];
        for (l, o) in offs.iter_mut().enumerate() {
            *o = (l as i64 & 15) * 16;
        }
        let groups: Groups = vec![(256, 0xffff, offs), (256, 0xffff_0000, offs)];
        let c = cost(&[0; WARP], 0, &groups, 16, &mut GroupCache::new());
        assert_eq!((c.lines, c.sectors), (4.0, 16.0));
        assert_eq!((c.lines_min, c.sectors_min), (2.0, 8.0));
        assert_eq!((c.lines_max, c.sectors_max), (4.0, 16.0));
    }

    /// A float gather through an index that every lane loaded from its own
    /// address: 32 groups of one lane, one sector and one line each.
    #[test]
    fn independent_lanes_cost_an_element_each() {
        let groups: Groups = (0..WARP).map(|l| (4, 1u32 << l, [0; WARP])).collect();
        let c = cost(&[0; WARP], 0, &groups, 4, &mut GroupCache::new());
        assert_eq!((c.lines, c.sectors), (32.0, 32.0));
    }

    /// A 4-byte row of 8 lanes at a multiplier of 4 (a float row index
    /// with unit stride): 32 contiguous bytes at a residue that is any
    /// multiple of 4, so one sector at 1 of the 8 residues modulo 32 and
    /// two at the others: 1.875 on average.
    #[test]
    fn unaligned_group_averages_over_residues() {
        let mut offs = [0i64; WARP];
        for (l, o) in offs.iter_mut().enumerate().take(8) {
            *o = l as i64 * 4;
        }
        let groups: Groups = vec![(4, 0xff, offs)];
        let c = cost(&[0; WARP], 0, &groups, 4, &mut GroupCache::new());
        assert_eq!(c.sectors, 1.875);
        assert_eq!((c.sectors_min, c.sectors_max), (1.0, 2.0));
    }

    #[test]
    fn equal_tags_cancel() {
        let t = Tagged {
            tag: 7,
            mul: 4,
            off: 10,
        };
        let u = Tagged { off: 2, ..t };
        match combine(Opnd::Tag(t), Opnd::Tag(u), -1) {
            Some(Opnd::Known(8)) => {}
            _ => panic!("t - u should be the known 8"),
        }
    }
}
