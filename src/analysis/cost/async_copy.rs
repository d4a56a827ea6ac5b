//! The cost of one `cp.async` request (LDGSTS), as the H100 counts it.
//!
//! # Model (measured: `tests/hw/README.md`, findings 11 and 19; the `cpa_*`
//! rows, and the 459 one-warp layouts of `tests/hw/probe`)
//!
//! A `cp.async` is one request with a global side and a shared side.
//!
//! * **L1 lines** are those of a load of the same bytes over the lanes that
//!   read (a lane with `src-size` 0 or `ignore-src` true reads nothing).
//! * **Sectors** of 4- and 8-byte copies are those of a load. 16-byte copies
//!   are served in *pairs* ([`pair_up`]): two reading lanes alone on one
//!   (32-byte source sector, 32-byte shared block) whose sources are the two
//!   halves of the sector and whose destinations the two halves of the block
//!   (in any lane order) cost one sector; every other reading lane costs a
//!   sector of its own, even when lanes share it (a broadcast source: 32
//!   sectors where a load takes 1; a source 16 bytes off the sector grid
//!   into an aligned destination: 32 where a load takes 17; both 16 bytes
//!   off: 17). When every executing lane writes one destination, the
//!   request collapses to one lane: 1 sector, 1 wavefront.
//! * **Wavefronts**: for 4- and 8-byte copies, the larger of the bank
//!   conflicts of the source addresses and of the destination addresses,
//!   with lanes on the same 4-byte word *not* sharing it (a broadcast source
//!   or destination costs 32), in groups of 32 (4-byte) or 16 (8-byte) lanes.
//!   16-byte copies ([`merged_wavefronts`]): the executing lanes (zero-filling
//!   ones included, at their source address) fall into classes, one
//!   wavefront each: the pairs, one class per (source 128-byte line,
//!   destination 128-byte row); every other lane, one class per (source
//!   line, destination row, shift `dst - src`, source half, destination
//!   half). A coalesced copy: 4; 32 bytes off the line grid: 8; a source 16
//!   bytes off an aligned destination: 12 (16 when the line is cut 48 bytes
//!   in); equal strides of 32, 48, 64 bytes: 8, 24, 16; different strides or
//!   a broadcast: one per lane (32).
//! * **`LDGSTS.ZFILL`** (a `src-size` that is not by construction 0 or the
//!   copy size, see `lower::ptx::mem::mark_zero_fill`): a 16-byte request
//!   costs the plain form's wavefronts with every executing lane reading,
//!   plus the larger of the source's and the destination's 16-byte bank
//!   wavefronts ([`zfill_wavefronts`]); lines and sectors are those of the
//!   lanes that read.
//!
//! # Limits
//!
//! Source and destination strides that differ by a factor of 3 (16 and 48
//! bytes, 32 and 96) measure 24 wavefronts where the classes give 32: 8 of
//! the probe's 459 layouts and 5 suite rows (listed in
//! `tests/hw_agreement_known.txt`). The probe's lanes all read; Triton's
//! masked copy (`tt_matmul_ampere`, line 46) measures 4 where the model
//! gives 8.

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
    let (paired, pairs) = pair_up(src, reading, dst);
    let sectors = pairs + (reading & !paired).count_ones();
    // Zero-filling lanes write their destination too: the wavefronts are
    // those of every executing lane, at its source address.
    let wavefronts = merged_wavefronts(src, exec, dst);
    (RequestCost { lines, sectors }, wavefronts)
}

/// Wavefronts of a 16-byte request whose lanes do not all pair up in lane
/// order (tests/hw/probe, 459 layouts): the H100 serves together
///
/// * the *pairs*: two reading lanes on the two 16-byte halves of one source
///   sector that write the two halves of one 32-byte shared block (in either
///   order), one class per (source 128-byte line, destination 128-byte row);
/// * the other lanes, one class per (source line, destination row, shift
///   `dst - src`, source half, destination half): lanes moved by the same
///   shift from the same halves travel together.
///
/// Each class is one wavefront.
pub fn merged_wavefronts(src: &Lanes, reading: u32, dst: &Lanes) -> u32 {
    let (paired, _) = pair_up(src, reading, dst);
    let half = |a: i64| a.div_euclid(16).rem_euclid(2);
    let mut classes: Vec<(i64, i64, i64, i64, i64)> = Vec::new();
    for l in (0..WARP).filter(|l| reading & (1 << l) != 0) {
        let (line, row) = (src[l].div_euclid(128), dst[l].div_euclid(128));
        let c = if paired & (1 << l) != 0 {
            (line, row, 0, 2, 2)
        } else {
            (
                line,
                row,
                dst[l].wrapping_sub(src[l]),
                half(src[l]),
                half(dst[l]),
            )
        };
        if !classes.contains(&c) {
            classes.push(c);
        }
    }
    classes.len() as u32
}

/// The reading lanes of a 16-byte request that pair up: two lanes alone on
/// one (source sector, destination 32-byte block), on different 16-byte
/// halves of both, in any lane order. Returns the paired lanes and the
/// number of pairs (each pair moves one sector).
pub fn pair_up(src: &Lanes, reading: u32, dst: &Lanes) -> (u32, u32) {
    let mut groups: Vec<((i64, i64), u32)> = Vec::new();
    for l in (0..WARP).filter(|l| reading & (1 << l) != 0) {
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
        ] {
            let (_, got) = ldgsts_cost(&lanes(so, ss), all, &lanes(d0, ds), all, 16);
            assert_eq!(got, w, "{ss} {so} {ds} {d0}");
        }
    }

    /// Every layout of the 16-byte probe (`tests/hw/probe/results/
    /// probe_measured.txt`, 459 launches of one warp measured on the H100:
    /// lane pairs, shifted prefixes of 2 to 32 lanes, strides, permutations):
    /// lines, sectors and wavefronts per request. The only layouts the model
    /// does not reproduce are those whose source and destination strides
    /// differ by a factor of 3 (16/48, 32/96 bytes: measured 24 wavefronts,
    /// the model says 32, one per lane), listed here.
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
            let (c, got) = ldgsts_cost(&src, on, &dst, on, 16);
            checked += 1;
            if (c.lines, c.sectors, got) != (lines, sectors, wf) {
                off.push(format!(
                    "{} measured {lines}/{sectors}/{wf} model {}/{}/{got}",
                    w[0], c.lines, c.sectors
                ));
            }
        }
        assert_eq!(checked, 459);
        let ratio3 = [
            "stride_ss16_ds48_so0",
            "stride_ss16_ds48_so16",
            "stride_ss32_ds96_so0",
            "stride_ss32_ds96_so16",
            "stride_ss48_ds16_so0",
            "stride_ss48_ds16_so16",
            "stride_ss96_ds32_so0",
            "stride_ss96_ds32_so16",
        ];
        let unexpected: Vec<&String> = off
            .iter()
            .filter(|o| !ratio3.iter().any(|r| o.starts_with(&format!("{r} "))))
            .collect();
        assert!(unexpected.is_empty(), "{unexpected:#?}");
        assert_eq!(off.len(), ratio3.len(), "{off:#?}");
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
