//! The cost of one `cp.async` request (LDGSTS), as the H100 counts it.
//!
//! # Model (measured: `tests/hw/README.md`, findings 11, 19 and 21; the
//! `cpa_*` rows, the 459 one-warp layouts of `tests/hw/probe` and the 9,281 +
//! 781 of `tests/hw/probe2`)
//!
//! A `cp.async` is one request with a global side and a shared side; how it
//! is counted depends on the SASS form ptxas emits ([`CopyForm`]): the
//! 16-byte `.cg` copy (`LDGSTS.E.BYPASS.128`), the cached copies of 4, 8 and
//! 16 bytes (`.ca`: `LDGSTS.E`, `.E.64`, `.E.128`) and the zero-filling form
//! (`LDGSTS…ZFILL`, a run-time `src-size`).
//!
//! * **L1 lines** are those of a load of the same bytes over the lanes that
//!   read (a lane with `src-size` 0 or `ignore-src` true reads nothing).
//! * **Cached copies** (`.ca`, every width): sectors are those of a load;
//!   wavefronts the larger of the bank conflicts of the source addresses and
//!   of the destination addresses, with lanes on the same 4-byte word *not*
//!   sharing it (a broadcast source or destination costs 32), in groups of
//!   32 (4-byte), 16 (8-byte) or 8 (16-byte) lanes ([`unshared_wavefronts`]).
//!   Lanes that zero-fill (a src-size of 0, `ignore-src`) count at their
//!   destination only: a request whose lanes all zero-fill with one source
//!   word costs its destination's wavefronts, not 32 (`tests/hw/blind5`:
//!   `cp_async_ca16_double` line 553, 16 bytes, 4.000 per request measured
//!   over 31,251 requests of which 792 zero-fill from `in[0]`;
//!   `cp_async_pipe4_ca4` line 481, 4 bytes, 0.801). Unlike the 16-byte
//!   `.cg` form, whose zero-filling lanes count at their source
//!   (`tests/hw/probe2`, `ig16`).
//! * **16-byte `.cg` copies** ([`bypass_wavefronts`], [`bypass_sectors`]):
//!   1. lanes that write the same destination count once, the lowest lane
//!      ([`first_per_destination`]; the zero-filling lanes among the
//!      executing ones for wavefronts, the reading lanes for sectors);
//!   2. two of the remaining lanes *pair* when they are alone on one
//!      (32-byte source sector, 32-byte shared block) and sit on different
//!      16-byte halves of both, in either order ([`pair_up`]); a pair moves
//!      one sector, every other reading lane one sector of its own (a
//!      broadcast source: 32 sectors where a load takes 1);
//!   3. the lanes fall into classes: a pair by (source 128-byte line,
//!      destination 128-byte row, its shift `dst - src` of whole sectors
//!      modulo 64 bytes, halves swapped or not); any other lane by (source
//!      line, destination row, shift modulo 64 bytes, source half,
//!      destination half). Each class costs the largest number of its
//!      members (pairs) or lanes on one source or one destination 16-byte
//!      chunk (32-byte unit for pairs) — one wavefront when they are all
//!      distinct. The wavefronts are the sum over the classes.
//!   4. So a coalesced copy costs 4; 32 bytes off the line grid 8; a
//!      source 16 bytes off an aligned destination 12; equal strides of
//!      32, 48, 64 bytes 8, 24, 16; source and destination strides of 16
//!      and 48 bytes 24 (lanes 32 or 64 bytes apart on both sides share a
//!      class, 96 and 32 too: the shift counts modulo 64 bytes); a
//!      broadcast source or different strides up to one per lane (32);
//!      every lane to one destination 1.
//! * **`LDGSTS.ZFILL`** (a `src-size` that is not by construction 0 or the
//!   copy size, see `lower::ptx::mem::mark_zero_fill`): a 16-byte request
//!   costs the `.cg` wavefronts with every executing lane at its source
//!   address, plus the larger of the source's and the destination's 16-byte
//!   bank wavefronts; narrower copies cost what the plain form costs.
//!   Zero-filling lanes of the other forms (`ignore-src`, a per-lane
//!   src-size of 0 or the size) count at their source address too.
//!
//! # Limits
//!
//! Measured where the rules are off (`tests/hw/probe2/README.md`): cached
//! copies over random layouts that spread over many source lines cost 1–7
//! wavefronts more than the bank rule (the structured layouts match);
//! `ZFILL` over random layouts adds up to 6 more than the bank term; 4 of
//! 8,828 `.cg` layouts whose lane groups overlap on destinations cost 1–2
//! more. A 16-byte `.ca` copy with a run-time `src-size` (`ZFILL`) is not
//! measured; it is costed by the cached rule. Triton's A-tile copy in
//! `tt_matmul_ampere` (line 46) measures 4 wavefronts where this gives 8;
//! the same lane layout measures 8 on its own and in replicas of Triton's
//! code (`tests/hw/probe2/tt_replica*.cu`), so what halves it inside
//! Triton's kernel is not known.

use super::{request_cost, RequestCost, WARP};
use crate::analysis::domain::Lanes;

/// The SASS form of a `cp.async`, which decides how the H100 counts it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CopyForm {
    /// `.ca` (`LDGSTS.E[.64|.128]`, through L1); otherwise `.cg`
    /// (`LDGSTS.E.BYPASS.128`, 16 bytes only).
    pub cached: bool,
    /// `LDGSTS…ZFILL` (`lower::ptx::mem::mark_zero_fill`).
    pub zfill: bool,
}

/// Wavefronts of `bytes`-wide accesses at `addrs` (lanes in `active`) when
/// lanes on the same word do not share it: per group of `128 / bytes` lanes
/// (32 for 4 bytes), the largest number of lanes' words in one bank.
pub fn unshared_wavefronts(addrs: &Lanes, active: u32, bytes: u32) -> u32 {
    let bytes = bytes.max(1);
    let group = if bytes <= 4 {
        WARP
    } else {
        (128 / bytes as usize).max(1)
    };
    let words = bytes.div_ceil(4) as i64;
    let mut total = 0;
    for g in (0..WARP).step_by(group) {
        let mut per_bank = [0u32; 32];
        let mut any = false;
        for (l, a) in addrs.iter().enumerate().take((g + group).min(WARP)).skip(g) {
            if active & (1 << l) == 0 {
                continue;
            }
            any = true;
            for k in 0..words {
                per_bank[(a.div_euclid(4) + k).rem_euclid(32) as usize] += 1;
            }
        }
        if any {
            total += per_bank.iter().copied().max().unwrap_or(0);
        }
    }
    total
}

/// The cost of one request: lanes `exec` execute, those in `reading` read
/// their `bytes` from `src` (the others zero-fill), every executing lane
/// writes `dst`. Returns lines and sectors, and wavefronts.
pub fn ldgsts_cost(
    src: &Lanes,
    reading: u32,
    dst: &Lanes,
    exec: u32,
    bytes: u32,
    form: CopyForm,
) -> (RequestCost, u32) {
    if bytes < 16 || form.cached {
        // Cached copies: a load's lines and sectors, the bank rule over the
        // reading lanes at their source and the executing lanes at their
        // destination (a narrow ZFILL costs what the plain form costs; a
        // lane that zero-fills costs nothing at its source).
        let c = request_cost(src, reading, bytes);
        let w = unshared_wavefronts(src, reading, bytes).max(unshared_wavefronts(dst, exec, bytes));
        return (c, w);
    }
    let lines = request_cost(src, reading, bytes).lines;
    let sectors = bypass_sectors(src, reading, dst);
    // Zero-filling lanes write their destination too: the wavefronts are
    // those of every executing lane, at its source address.
    let mut wavefronts = bypass_wavefronts(src, exec, dst);
    if form.zfill {
        wavefronts += unshared_wavefronts(src, exec, 16).max(unshared_wavefronts(dst, exec, 16));
    }
    (RequestCost { lines, sectors }, wavefronts)
}

/// The lanes of `active` that count when several write one destination:
/// the lowest lane of each destination address (`tests/hw/probe2`: two
/// pairs onto one block cost what one pair costs, four lanes onto one
/// 16-byte chunk what one lane costs).
pub fn first_per_destination(dst: &Lanes, active: u32) -> u32 {
    let mut kept = 0u32;
    for l in (0..WARP).filter(|l| active & (1 << l) != 0) {
        if !(0..l).any(|k| kept & (1 << k) != 0 && dst[k] == dst[l]) {
            kept |= 1 << l;
        }
    }
    kept
}

/// Sectors of a 16-byte `.cg` request: over the reading lanes, one per
/// destination, a pair moves one sector and every other lane one of its
/// own.
pub fn bypass_sectors(src: &Lanes, reading: u32, dst: &Lanes) -> u32 {
    let on = first_per_destination(dst, reading);
    let (paired, pairs) = pair_up(src, on, dst);
    pairs + (on & !paired).count_ones()
}

/// A class of lanes served together by 16-byte `.cg` requests (see the
/// module documentation).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Pairs: source line, destination row, shift of whole sectors modulo
    /// 64 bytes, halves swapped.
    Pair(i64, i64, i64, bool),
    /// Other lanes: source line, destination row, shift modulo 64 bytes,
    /// source half, destination half.
    Lane(i64, i64, i64, i64, i64),
}

/// Wavefronts of a 16-byte `.cg` request over the lanes `exec` (every lane
/// at its source address, zero-filling ones included): the sum over the
/// classes of the module documentation of the largest number of members on
/// one source or destination unit.
pub fn bypass_wavefronts(src: &Lanes, exec: u32, dst: &Lanes) -> u32 {
    let on = first_per_destination(dst, exec);
    let (paired, _) = pair_up(src, on, dst);
    let half = |a: i64| a.div_euclid(16).rem_euclid(2);
    // (class, unit size, members' source and destination units)
    let mut classes: Vec<(Class, Vec<(i64, i64)>)> = Vec::new();
    for l in (0..WARP).filter(|l| on & (1 << l) != 0) {
        let (line, row) = (src[l].div_euclid(128), dst[l].div_euclid(128));
        let (class, unit) = if paired & (1 << l) != 0 {
            // One entry per pair: its lane on the source's lower half.
            if half(src[l]) == 1 {
                continue;
            }
            let shift = (dst[l].div_euclid(32) - src[l].div_euclid(32)) * 32;
            let swapped = half(dst[l]) == 1;
            (Class::Pair(line, row, shift.rem_euclid(64), swapped), 32)
        } else {
            let shift = dst[l].wrapping_sub(src[l]).rem_euclid(64);
            (
                Class::Lane(line, row, shift, half(src[l]), half(dst[l])),
                16,
            )
        };
        let member = (src[l].div_euclid(unit), dst[l].div_euclid(unit));
        match classes.iter_mut().find(|(c, _)| *c == class) {
            Some((_, m)) => m.push(member),
            None => classes.push((class, vec![member])),
        }
    }
    classes
        .iter()
        .map(|(_, m)| {
            let most = |f: fn(&(i64, i64)) -> i64| {
                m.iter()
                    .map(|x| m.iter().filter(|y| f(y) == f(x)).count())
                    .max()
                    .unwrap_or(0)
            };
            most(|x| x.0).max(most(|x| x.1)) as u32
        })
        .sum()
}

/// The lanes of `on` that pair up in a 16-byte request: two lanes alone on
/// one (source sector, destination 32-byte block), on different 16-byte
/// halves of both, in any lane order. Returns the paired lanes and the
/// number of pairs (each pair moves one sector).
pub fn pair_up(src: &Lanes, on: u32, dst: &Lanes) -> (u32, u32) {
    let mut groups: Vec<((i64, i64), u32)> = Vec::new();
    for l in (0..WARP).filter(|l| on & (1 << l) != 0) {
        let k = (src[l].div_euclid(32), dst[l].div_euclid(32));
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, m)) => *m |= 1 << l,
            None => groups.push((k, 1 << l)),
        }
    }
    let half = |a: i64| a.div_euclid(16).rem_euclid(2);
    let (mut paired, mut pairs) = (0u32, 0u32);
    for (_, m) in groups {
        if m.count_ones() != 2 {
            continue;
        }
        let a = m.trailing_zeros() as usize;
        let b = (m & (m - 1)).trailing_zeros() as usize;
        if half(src[a]) != half(src[b]) && half(dst[a]) != half(dst[b]) {
            paired |= m;
            pairs += 1;
        }
    }
    (paired, pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CG: CopyForm = CopyForm {
        cached: false,
        zfill: false,
    };
    const ZFILL: CopyForm = CopyForm {
        cached: false,
        zfill: true,
    };

    fn lanes(base: i64, stride: i64) -> Lanes {
        std::array::from_fn(|l| base + stride * l as i64)
    }

    /// (bytes, source stride, source offset, destination stride) → measured
    /// (lines, sectors, wavefronts).
    type Row = (u32, i64, i64, i64, (u32, u32, u32));

    /// `tests/hw/measured.json`, the `cpa_sweep_*` and `cpa_*` launches.
    #[test]
    fn sweeps_match_the_h100() {
        let all = u32::MAX;
        let rows: &[Row] = &[
            (4, 4, 0, 4, (1, 4, 1)),
            (4, 4, 4, 4, (2, 5, 1)),
            (4, 8, 0, 4, (2, 8, 2)),
            (4, 12, 0, 4, (3, 12, 1)),
            (4, 0, 0, 4, (1, 1, 32)),
            (4, 4, 0, 8, (1, 4, 2)),
            (4, 4, 0, 128, (1, 4, 32)),
            (4, 4, 0, 0, (1, 4, 32)),
            (4, 128, 0, 4, (32, 32, 32)),
            (8, 8, 0, 8, (2, 8, 2)),
            (8, 8, 8, 8, (3, 9, 2)),
            (8, 8, 24, 8, (3, 9, 2)),
            (8, 16, 0, 8, (4, 16, 4)),
            (8, 24, 0, 8, (6, 24, 2)),
            (8, 0, 0, 8, (1, 1, 32)),
            (8, 8, 0, 16, (2, 8, 4)),
            (8, 8, 0, 128, (2, 8, 32)),
            (8, 8, 0, 0, (2, 8, 32)),
            (16, 16, 0, 16, (4, 16, 4)),
            (16, 16, 32, 16, (5, 16, 8)),
            (16, 16, 64, 16, (5, 16, 8)),
            (16, 16, 96, 16, (5, 16, 8)),
            (16, 32, 0, 16, (8, 32, 32)),
            (16, 64, 0, 16, (16, 32, 32)),
            (16, 128, 0, 16, (32, 32, 32)),
            (16, 0, 0, 16, (1, 32, 32)),
            (16, 16, 0, 32, (4, 32, 32)),
            (16, 16, 0, 64, (4, 32, 32)),
            (16, 16, 0, 128, (4, 32, 32)),
            (16, 16, 0, 0, (4, 1, 1)),
            (16, 0, 0, 0, (1, 1, 1)),
        ];
        for &(bytes, ss, so, ds, (l, s, w)) in rows {
            // the sweeps' 4- and 8-byte copies are `.ca`, the 16-byte ones `.cg`
            let form = CopyForm {
                cached: bytes < 16,
                zfill: false,
            };
            let (c, wf) = ldgsts_cost(&lanes(so, ss), all, &lanes(0, ds), all, bytes, form);
            assert_eq!(
                (c.lines, c.sectors, wf),
                (l, s, w),
                "{bytes} B, source stride {ss} offset {so}, destination stride {ds}"
            );
        }
    }

    /// A cached copy's zero-filling lanes cost nothing at their source:
    /// every lane zero-filling from one word into consecutive 16-byte slots
    /// costs the destination's 4 wavefronts (`tests/hw/blind5`
    /// `cp_async_ca16_double` line 553: 4.000 per request, 792 of its
    /// 31,251 requests all zero-filling from `in[0]`), not the 32 of a
    /// broadcast source; 4-byte slots 1.
    #[test]
    fn cached_zero_filling_lanes_cost_their_destination_only() {
        let cached = CopyForm {
            cached: true,
            zfill: false,
        };
        for (bytes, w) in [(16u32, 4u32), (4, 1)] {
            let dst = lanes(0, i64::from(bytes));
            let (c, wf) = ldgsts_cost(&lanes(0, 0), 0, &dst, u32::MAX, bytes, cached);
            assert_eq!((c.sectors, wf), (0, w), "{bytes} B");
            // reading lanes at one source word still cost 32
            assert_eq!(
                ldgsts_cost(&lanes(0, 0), u32::MAX, &dst, u32::MAX, bytes, cached).1,
                32
            );
        }
    }

    /// `cpa_sweep_zf16_*` (source stride, offset, destination stride →
    /// measured wavefronts), and `cpa_cg16_srcsize0` (no lane reads: 8).
    #[test]
    fn zfill_matches_the_h100() {
        let all = u32::MAX;
        for &(ss, so, ds, w) in &[
            (16, 0, 16, 8),
            (16, 0, 32, 40),
            (16, 32, 16, 12),
            (0, 0, 16, 64),
            (16, 0, 0, 33),
            (16, 0, 128, 64),
            (32, 0, 16, 40),
            (16, 0, 48, 28),
            (16, 16, 16, 16),
        ] {
            assert_eq!(
                ldgsts_cost(&lanes(so, ss), all, &lanes(0, ds), all, 16, ZFILL).1,
                w,
                "source stride {ss} offset {so}, destination stride {ds}"
            );
        }
        assert_eq!(
            ldgsts_cost(&lanes(0, 16), 0, &lanes(0, 16), all, 16, ZFILL).1,
            8
        );
        let zfill4 = CopyForm {
            cached: true,
            zfill: true,
        };
        assert_eq!(
            ldgsts_cost(&lanes(0, 4), 0, &lanes(0, 4), all, 4, zfill4).1,
            1
        );
    }

    /// The unpaired 16-byte layouts of `tests/hw/measured.json` (finding
    /// 19): shifted coalesced copies and equal strides, (source stride,
    /// source offset, destination stride, destination offset) → measured
    /// wavefronts.
    #[test]
    fn unpaired_layouts_match_the_h100() {
        let all = u32::MAX;
        for &(ss, so, ds, d0, w) in &[
            (16, 16, 16, 0, 12),
            (16, 48, 16, 0, 16),
            (16, 80, 16, 0, 16),
            (16, 112, 16, 0, 12),
            (16, 16, 16, 16, 6),
            (16, 0, 16, 16, 12),
            (16, 16, 16, 32, 13),
            (16, 48, 16, 32, 14),
            (16, 32, 16, 16, 13),
            (16, 64, 16, 16, 17),
            (32, 0, 32, 0, 8),
            (32, 16, 32, 16, 8),
            (48, 0, 48, 0, 24),
            (64, 0, 64, 0, 16),
            (16, 0, 32, 0, 32),
            (32, 0, 16, 0, 32),
            // strides in a ratio of 3 (cpa_sweep*_ss16_*_ds48, ss48/ds16)
            (16, 0, 48, 0, 24),
            (48, 0, 16, 0, 24),
            (16, 16, 48, 0, 24),
            (16, 16, 48, 16, 28),
            (48, 16, 16, 0, 24),
        ] {
            let (_, got) = ldgsts_cost(&lanes(so, ss), all, &lanes(d0, ds), all, 16, CG);
            assert_eq!(got, w, "{ss} {so} {ds} {d0}");
        }
    }

    /// Every layout of the 16-byte probe (`tests/hw/probe/results/
    /// probe_measured.txt`, 459 launches of one warp measured on the H100:
    /// lane pairs, shifted prefixes of 2 to 32 lanes, strides, permutations):
    /// lines, sectors and wavefronts per request, all of them (the second
    /// probe's 10,062 layouts are checked in `tests/hw_agreement.rs`).
    #[test]
    fn probe_layouts_match_the_h100() {
        let text = include_str!("../../../tests/hw/probe/results/probe_measured.txt");
        let mut checked = 0;
        let mut off = Vec::new();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let w: Vec<&str> = line.split_whitespace().collect();
            let n: Vec<i64> = w[1..].iter().map(|x| x.parse().unwrap()).collect();
            let (lines, sectors, wf) = (n[4] as u32, n[3] as u32, n[2] as u32);
            let src: Lanes = std::array::from_fn(|l| n[5 + l]);
            let dst: Lanes = std::array::from_fn(|l| n[37 + l]);
            let on = (0..32)
                .filter(|&l| src[l] >= 0)
                .fold(0u32, |m, l| m | 1 << l);
            let (c, got) = ldgsts_cost(&src, on, &dst, on, 16, CG);
            checked += 1;
            if (c.lines, c.sectors, got) != (lines, sectors, wf) {
                off.push(format!(
                    "{} measured {lines}/{sectors}/{wf} model {}/{}/{got}",
                    w[0], c.lines, c.sectors
                ));
            }
        }
        assert_eq!(checked, 459);
        assert!(off.is_empty(), "{off:#?}");
    }

    /// `tests/hw/probe2`: two pairs onto one 32-byte block cost one
    /// wavefront (the lower lanes count), two pairs of one line and row
    /// share a wavefront when their shifts agree modulo 64 bytes, a
    /// swapped and a straight pair never do, and pairs of different lines
    /// never.
    #[test]
    fn pairs_match_the_second_probe() {
        let off = -1i64;
        let four = |s: [i64; 4], d: [i64; 4]| -> (Lanes, Lanes, u32) {
            let mut src = [off; WARP];
            let mut dst = [0; WARP];
            src[..4].copy_from_slice(&s);
            dst[..4].copy_from_slice(&d);
            (src, dst, 0xf)
        };
        for (s, d, w) in [
            ([0, 16, 2048 + 32, 2048 + 48], [0, 16, 0, 16], 1), // pp_X2048_a0b0_c1e0_sw0
            ([0, 16, 2048 + 32, 2048 + 48], [0, 16, 32, 48], 2), // pp_X2048_a0b0_c1e1_sw0
            ([0, 16, 32, 48], [0, 16, 96, 112], 1),             // pp_X0_a0b0_c1e3_sw0
            ([0, 16, 32, 48], [0, 16, 64, 80], 2),              // pp_X0_a0b0_c1e2_sw0
            ([0, 16, 32, 48], [0, 16, 48, 32], 2),              // pp_X0_a0b0_c1e1_sw1
        ] {
            let (src, dst, on) = four(s, d);
            assert_eq!(ldgsts_cost(&src, on, &dst, on, 16, CG).1, w, "{s:?} {d:?}");
        }
        // lanes in groups of g onto one destination (bdst_g*): 32 / g
        for g in [2, 4, 8, 16] {
            let dst: Lanes = std::array::from_fn(|l| 16 * (l as i64 / g));
            assert_eq!(
                ldgsts_cost(&lanes(0, 16), u32::MAX, &dst, u32::MAX, 16, CG).1,
                32 / g as u32
            );
        }
    }

    /// `.ca` 16-byte copies (`LDGSTS.E.128`, tests/hw/probe2 `ca16`): a
    /// load's sectors and the bank rule in groups of 8 lanes, where `.cg`
    /// pairs lanes (source 16 bytes off the grid: 17 sectors and 4
    /// wavefronts; destination stride 32, 48, 64 bytes: 8, 4, 16).
    #[test]
    fn cached_16_byte_copies_follow_the_bank_rule() {
        let all = u32::MAX;
        let ca = CopyForm {
            cached: true,
            zfill: false,
        };
        for (ss, so, ds, sectors, w) in [
            (16, 16, 16, 17, 4),
            (16, 0, 32, 16, 8),
            (16, 0, 48, 16, 4),
            (16, 0, 64, 16, 16),
        ] {
            let (c, got) = ldgsts_cost(&lanes(so, ss), all, &lanes(0, ds), all, 16, ca);
            assert_eq!((c.sectors, got), (sectors, w), "{ss} {so} {ds}");
        }
    }

    #[test]
    fn zero_fill_lanes_read_nothing() {
        // ignore-src true in every lane: 0 lines, 0 sectors, 4 wavefronts
        // (cpa_cg16_ignore1); in lanes 16-31 only: 2 lines, 8 sectors, 4
        // (cpa_cg16_ignore_hi); src-size 0 in odd lanes: 4 lines, 16 sectors,
        // 4 wavefronts (cpa_cg16_srcsize_odd).
        let (src, dst) = (lanes(0, 16), lanes(0, 16));
        let (c, w) = ldgsts_cost(&src, 0, &dst, u32::MAX, 16, CG);
        assert_eq!((c.lines, c.sectors, w), (0, 0, 4));
        let (c, w) = ldgsts_cost(&src, 0xffff, &dst, u32::MAX, 16, CG);
        assert_eq!((c.lines, c.sectors, w), (2, 8, 4));
        let (c, _) = ldgsts_cost(&src, 0x5555_5555, &dst, u32::MAX, 16, CG);
        assert_eq!((c.lines, c.sectors), (4, 16));
    }
}
