//! The cost of one `cp.async` request (LDGSTS), as the H100 counts it.
//!
//! # Model (measured: `tests/hw/README.md`, finding 11; 68 rows of `cpa_*`)
//!
//! A `cp.async` is one request with a global side and a shared side.
//!
//! * **L1 lines** are those of a load of the same bytes over the lanes that
//!   read (a lane with `src-size` 0 or `ignore-src` true reads nothing).
//! * **Sectors** of 4- and 8-byte copies are those of a load. 16-byte copies
//!   are served in lane pairs `(2m, 2m+1)`: a pair whose sources are the two
//!   halves of one 32-byte sector *and* whose destinations are the two halves
//!   of one 32-byte block of shared memory costs one sector; every other
//!   reading lane costs a sector of its own, even when lanes share it (a
//!   broadcast source: 32 sectors where a load takes 1; a source 16 bytes off
//!   the sector grid: 32 where a load takes 17; a coalesced source into
//!   destinations 32 bytes apart: 32 where a load takes 16). When every
//!   executing lane writes one destination, the request collapses to one
//!   lane: 1 sector, 1 wavefront.
//! * **Wavefronts**: for 4- and 8-byte copies, the larger of the bank
//!   conflicts of the source addresses and of the destination addresses,
//!   with lanes on the same 4-byte word *not* sharing it (a broadcast source
//!   or destination costs 32), in groups of 32 (4-byte) or 16 (8-byte) lanes.
//!   For 16-byte copies whose reading lanes all pair up as above, the same
//!   rule in groups of 8 lanes, and at least one wavefront per 128-byte
//!   source line a group touches (a coalesced copy: 4; 32 bytes off the line
//!   grid: 8); when lanes are served one by one, one wavefront per reading
//!   lane.
//! * **`LDGSTS.ZFILL`** (a `src-size` that is not by construction 0 or the
//!   copy size, see `lower::ptx::mem::mark_zero_fill`): a 16-byte request
//!   costs the plain form's wavefronts with every executing lane reading,
//!   plus the larger of the source's and the destination's 16-byte bank
//!   wavefronts ([`zfill_wavefronts`]); lines and sectors are those of the
//!   lanes that read.
//!
//! # Limits
//!
//! The one-by-one case over-counts some layouts that the hardware partly
//! merges: a source 16 or 48 bytes off a 32-byte boundary (measured 12 and
//! 16 wavefronts, the model says 32), sources or destinations 48 bytes apart
//! (24), sources and destinations both 32 bytes apart (8; 4 with every
//! other lane zero-filling). Those rows are listed with their measurement
//! in `tests/hw_agreement_known.txt`; the `ZFILL` form built on such a
//! layout inherits the plain form's error.

use super::{request_cost, RequestCost, WARP};
use crate::analysis::domain::Lanes;

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
) -> (RequestCost, u32) {
    let lines = request_cost(src, reading, bytes).lines;
    let first = exec.trailing_zeros() as usize;
    let one_dst = exec != 0 && (0..WARP).all(|l| exec & (1 << l) == 0 || dst[l] == dst[first]);
    if bytes < 16 {
        let c = request_cost(src, reading, bytes);
        let w = unshared_wavefronts(src, reading, bytes).max(unshared_wavefronts(dst, exec, bytes));
        return (c, w);
    }
    if one_dst && exec.count_ones() > 1 {
        let sectors = u32::from(reading != 0);
        return (RequestCost { lines, sectors }, 1);
    }
    let on = |l: usize| reading & (1 << l) != 0;
    let mut sectors = 0;
    let mut unpaired = 0;
    for m in 0..WARP / 2 {
        let (a, b) = (2 * m, 2 * m + 1);
        let paired = on(a)
            && on(b)
            && src[a].div_euclid(32) == src[b].div_euclid(32)
            && src[a] != src[b]
            && dst[a].div_euclid(32) == dst[b].div_euclid(32)
            && dst[a] != dst[b];
        if paired {
            sectors += 1;
        } else {
            let n = u32::from(on(a)) + u32::from(on(b));
            sectors += n;
            unpaired += n;
        }
    }
    let wavefronts = if unpaired == 0 {
        // A group of 8 lanes whose sources span two 128-byte lines takes a
        // wavefront per line.
        let mut lines_per_group = 0;
        for g in (0..WARP).step_by(8) {
            let mut seen: Vec<i64> = (g..g + 8)
                .filter(|l| on(*l))
                .map(|l| src[l].div_euclid(128))
                .collect();
            seen.sort_unstable();
            seen.dedup();
            lines_per_group += seen.len() as u32;
        }
        unshared_wavefronts(src, reading, 16)
            .max(unshared_wavefronts(dst, exec, 16))
            .max(lines_per_group)
    } else {
        reading.count_ones().max(unshared_wavefronts(dst, exec, 16))
    };
    (RequestCost { lines, sectors }, wavefronts)
}

/// Wavefronts of one `LDGSTS.ZFILL` request (a `cp.async` with a run-time
/// `src-size`, `lower::ptx::mem::mark_zero_fill`): for 16-byte copies, the
/// plain form's wavefronts with every executing lane reading, plus the
/// larger of the source's and the destination's 16-byte bank wavefronts
/// (lanes on one word not sharing it), whatever the src-size (measured in
/// the 12 layouts of `cpa_sweep_zf16_*` and in `cpa_cg16_srcsize{0,8,16}`:
/// coalesced 4 + 4 = 8, destination stride 32 bytes 32 + 8, broadcast
/// source 32 + 32, one destination 1 + 32; src-size 0, 4 and 16 alike).
/// Narrower copies cost what the plain form costs (`cpa_ca4_srcsize0`: 1).
pub fn zfill_wavefronts(src: &Lanes, reading: u32, dst: &Lanes, exec: u32, bytes: u32) -> u32 {
    if bytes < 16 {
        return ldgsts_cost(src, reading, dst, exec, bytes).1;
    }
    let plain = ldgsts_cost(src, exec, dst, exec, bytes).1;
    plain + unshared_wavefronts(src, exec, 16).max(unshared_wavefronts(dst, exec, 16))
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let (c, wf) = ldgsts_cost(&lanes(so, ss), all, &lanes(0, ds), all, bytes);
            assert_eq!(
                (c.lines, c.sectors, wf),
                (l, s, w),
                "{bytes} B, source stride {ss} offset {so}, destination stride {ds}"
            );
        }
    }

    /// `cpa_sweep_zf16_*` (source stride, offset, destination stride →
    /// measured wavefronts) whose plain form the model reproduces, and
    /// `cpa_cg16_srcsize0` (no lane reads: 8).
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
        ] {
            assert_eq!(
                zfill_wavefronts(&lanes(so, ss), all, &lanes(0, ds), all, 16),
                w,
                "source stride {ss} offset {so}, destination stride {ds}"
            );
        }
        assert_eq!(
            zfill_wavefronts(&lanes(0, 16), 0, &lanes(0, 16), all, 16),
            8
        );
        assert_eq!(zfill_wavefronts(&lanes(0, 4), 0, &lanes(0, 4), all, 4), 1);
    }

    #[test]
    fn zero_fill_lanes_read_nothing() {
        // ignore-src true in every lane: 0 lines, 0 sectors, 4 wavefronts
        // (cpa_cg16_ignore1); in lanes 16-31 only: 2 lines, 8 sectors, 4
        // (cpa_cg16_ignore_hi); src-size 0 in odd lanes: 4 lines, 16 sectors,
        // 4 wavefronts (cpa_cg16_srcsize_odd).
        let (src, dst) = (lanes(0, 16), lanes(0, 16));
        let (c, w) = ldgsts_cost(&src, 0, &dst, u32::MAX, 16);
        assert_eq!((c.lines, c.sectors, w), (0, 0, 4));
        let (c, w) = ldgsts_cost(&src, 0xffff, &dst, u32::MAX, 16);
        assert_eq!((c.lines, c.sectors, w), (2, 8, 4));
        let (c, _) = ldgsts_cost(&src, 0x5555_5555, &dst, u32::MAX, 16);
        assert_eq!((c.lines, c.sectors), (4, 16));
    }
}
