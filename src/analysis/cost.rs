//! The cost model: what one warp request costs in 128-byte L1 lines and 32-byte
//! L2 sectors.
//!
//! # Model (Volta and later, `Arch::Sm70`)
//!
//! One warp executing one memory instruction is one *request*. The request
//! touches, over its **active** lanes, the byte ranges `[a_l, a_l + w)` (`w` the
//! bytes per lane: element size times vector width). Its cost is
//!
//! * `l1_lines`: the number of distinct 128-byte aligned lines those ranges
//!   touch (Nsight's `L1 Tag Requests Global`),
//! * `sectors`: the number of distinct 32-byte aligned sectors (Nsight's
//!   `L2 Theoretical Sectors Global`),
//! * `ideal_sectors`: `ceil(active · w / 32)`, what the same number of lanes
//!   would touch if they read consecutive, aligned elements (Nsight's
//!   `... Ideal`); `ideal_lines` likewise with 128.
//!
//! Lanes reading the same bytes share them (a broadcast costs one sector).
//! These rules reproduce the measured figures in `shared/notes/ground-truth.md`:
//! 32 aligned floats → 1 line / 4 sectors, doubles → 2 / 8, float4 → 4 / 16.
//!
//! # Unknown alignment
//!
//! Addresses are `U + d_l` with `d_l` exact and `U` a uniform value known only
//! through a congruence. The cost depends on `U mod 128` only (lines and
//! sectors both tile 128 bytes), so [`cost_over_residues`] evaluates every
//! residue the congruence allows and reports the minimum, maximum and mean
//! (the expected value when every allowed residue is equally likely).
//!
//! # Data-dependent addresses
//!
//! A lane whose address depends on loaded data ([`random_cost`]) can hit any
//! sector: at best every active lane hits the same element (the minimum is the
//! sectors of one element), at worst each lane hits its own (one element's
//! sectors per lane). The expected value under independent uniformly random
//! addresses over an array much larger than a warp's footprint is the maximum;
//! for small arrays collisions make it slightly lower (seed 000 measured 9,895
//! sectors where 10,000 were the bound, for a 40 KB array).
//!
//! # Data-dependent addresses over a known range
//!
//! When the address is `U + x_l` with each lane's `x_l` unknown but bounded
//! (`hist + (b & 255) * 4`: `x ∈ [0, 1020]`, `x ≡ 0 (mod 4)`, see `bounds`),
//! [`ranged_random_cost`] gives the expected cost of `n` active lanes drawn
//! independently and uniformly from that set: each sector `s` is touched by
//! one lane with probability `p_s` (the share of the set's elements that
//! touch it), so by `n` lanes with probability `1 - (1 - p_s)^n`, and the
//! expected number of distinct sectors is the sum over `s`. With `k` equally
//! likely sectors this is `k·(1 - (1 - 1/k)^n)` (32 lanes over the 32 sectors
//! of a 1 KB table: 20.41 sectors, and 7.89 of its 8 lines); lines likewise. The
//! bounds are one element's sectors (every lane on one element) and the
//! smaller of one element per lane and the whole set's sectors. The
//! expectation is taken over the residues of `U` (mod 128) the congruence
//! allows, the bounds over all of them. Sets of more than 4,096 elements use
//! the closed form with `k` the sectors (lines) spanned, or the elements when
//! they are a sector (line) or more apart.
//!
//! # Lanes that share a draw, beside an exact lane part
//!
//! When the lanes of one class of a partition share their unknown and an
//! exact part is added per lane (`u + exact[l] + x_{l & key}`, see
//! `domain::Range`), each class reads a fixed footprint shifted by its draw:
//! [`classed_cost`] gives the mean of [`request_cost`] over
//! [`RANGED_SAMPLES`] seeded draws (the classes independent and uniform over
//! the set; an unbounded side stands for so many values that two classes
//! never meet, the no-collision sum), and bounds that hold for every draw
//! (each class fills at least `ceil(bytes / granule)` granules and spans at
//! most its contiguous runs' span, at their known offset when the unknown
//! moves by whole lines; the request at most the sum over classes and the
//! whole set's span). Two half-warps each reading a 256-byte row of an
//! unbounded table aligned to 256: 4 lines, 16 sectors (the H100: 3.995 and
//! 15.98). The independent lanes without an exact part keep the closed form
//! above, of which the draws are an estimate within 0.05. Shared-memory
//! wavefronts are the mean over the same draws ([`ranged_mean`]):
//! `cnt[(d & 7) * 256 + t]` is one wavefront in every draw.
//!
//! # Known bits of the unknown
//!
//! When the unknown's known bits (`domain::KnownBits`) leave at most
//! [`ENUMERATED_BITS`] bits free and exclude values of the bounds and
//! congruence, the set is the list of values they allow: independent lanes
//! are then costed over that list in closed form (exact in expectation), the
//! draws above draw from it, and the bounds read its least and greatest
//! value and congruence. CUB's radix-rank counters `512 * (d & 7) + 4t + 2 *
//! (d >> 3)` are 16 values, every lane on its own bank: 1 wavefront in
//! every draw (measured 1.000, tests/hw/blind7).
//!
//! # Lanes whose participation alone is unknown
//!
//! A lane whose address is known but whose guard depends on loaded data
//! (`if ((a > b) == asc) k[pos] = b`, a histogram flush's `if (c)
//! atomicAdd(&bins[j], c)`) may or may not take part. The point estimate
//! of such a request is the mean of its cost over the sets of lanes that
//! can take part ([`participation_masks`]): each uncertain lane
//! independently with probability 1/2 (nothing in the PTX says more about
//! loaded data), the certain lanes always; its bounds are the certain lanes
//! alone (or no lane) and every lane. Lanes whose predicates are
//! correlated by the data (the swaps of a bitonic merge come in runs of
//! neighbouring comparators) conflict less or more than independent lanes:
//! the bounds hold, the expectation is an estimate.
//!
//! # Shared memory
//!
//! [`shared_wavefronts`]: 32 banks of 4 bytes, lanes served in groups that
//! move at most 128 bytes (quarter-warps for 16-byte accesses); a group costs
//! the most distinct words it touches in one bank. *Loads* of 8 and 16 bytes
//! pack lanes that read their partner's address ([`shared_load_wavefronts`]):
//! a span of two groups (the warp for 8 bytes, a half-warp for 16) whose
//! lanes all read the address of `l ^ 1` (or all that of `l ^ 2`) without a
//! bank conflict is one wavefront (a broadcast `LDS.128` 2, an `LDS.64` at
//! two addresses in different banks 1; measured in `tests/hw/ldsprobe`).
//! [`shared_request_wavefronts`] picks the rule of a request's kind (an
//! atomic's: `shared_atomic`); for addresses drawn from a known set (a table
//! read at a loaded byte or nibble) the static figures and the launch
//! simulation both give its mean over the set's draws ([`ranged_mean`]).
//!
//! # Evaluation
//!
//! The figures over draws are exact functions of their inputs (the draws
//! are seeded), so [`classed_cost`] keeps them per thread, keyed by its
//! arguments with the exact lane part moved by whole lines
//! ([`LaneClasses::normalized`]: a request moved by a multiple of 128 bytes
//! touches as many sectors, lines and bank words). Each draw's distinct
//! sectors (words) are counted in a bitmap when they lie within
//! [`SPAN_BITS`] of each other, in a small hash set on the stack when
//! fewer than 256 are spread further (lanes drawing independently over a
//! large set), and by sorting only beyond that: the same counts every way.
//!
//! # Older architectures
//!
//! On Pascal (`Arch::Sm60`) global loads are cached in L2 only (seed 002); the
//! sector figures are the same transactions, L1 line figures are not
//! meaningful for loads there and are still reported by the same rule.

use super::domain::{Cong, KnownBits, Lanes, WARP};
use super::model::Pattern;

pub mod async_copy;
pub mod bulk_copy;
pub mod matrix;
pub mod shared_atomic;
pub mod tensor_operand;

/// Bytes per L1 line.
pub const LINE: i64 = 128;
/// Bytes per sector.
pub const SECTOR: i64 = 32;

/// Uncertain lanes up to which [`participation_masks`] enumerates every subset.
pub const SUBSET_EXACT_LANES: u32 = 8;
/// Seeded draws of [`participation_masks`] beyond [`SUBSET_EXACT_LANES`].
pub const SUBSET_SAMPLES: usize = 1024;

/// The sets of lanes that take part in a request whose `sure` lanes
/// certainly do and whose `uncertain` lanes (disjoint from `sure`) each do
/// with probability 1/2, independently (see "Lanes whose participation
/// alone is unknown" in the module doc): every subset of the uncertain
/// lanes once when there are at most [`SUBSET_EXACT_LANES`], else
/// [`SUBSET_SAMPLES`] seeded draws. Every returned mask is equally likely:
/// the mean of a cost over them is its expectation (exact, or estimated).
pub fn participation_masks(sure: u32, uncertain: u32) -> Vec<u32> {
    let uncertain = uncertain & !sure;
    if uncertain.count_ones() <= SUBSET_EXACT_LANES {
        let mut out = Vec::with_capacity(1 << uncertain.count_ones());
        let mut s = 0u32;
        loop {
            out.push(sure | s);
            s = s.wrapping_sub(uncertain) & uncertain;
            if s == 0 {
                break;
            }
        }
        return out;
    }
    let mut state = 0x2545_f491_4f6c_dd1du64;
    (0..SUBSET_SAMPLES)
        .map(|_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            sure | (z as u32 & uncertain)
        })
        .collect()
}

/// The mean of `f` over [`participation_masks`]`(sure, uncertain)`.
pub fn over_participation(sure: u32, uncertain: u32, mut f: impl FnMut(u32) -> f64) -> f64 {
    let masks = participation_masks(sure, uncertain);
    let n = masks.len().max(1) as f64;
    masks.into_iter().map(&mut f).sum::<f64>() / n
}

/// Lines and sectors of one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RequestCost {
    /// Distinct 128-byte lines.
    pub lines: u32,
    /// Distinct 32-byte sectors.
    pub sectors: u32,
}

/// Lines and sectors touched by the active lanes' byte ranges.
pub fn request_cost(addrs: &Lanes, active: u32, bytes: u32) -> RequestCost {
    let bytes = bytes.max(1) as i64;
    // At most 32 lanes × 17 sectors each.
    let mut sectors = [0i64; WARP * 17];
    let mut n = 0;
    for (l, &a) in addrs.iter().enumerate() {
        if active & (1 << l) == 0 {
            continue;
        }
        let first = a.div_euclid(SECTOR);
        let last = a.saturating_add(bytes - 1).div_euclid(SECTOR);
        // A lane touches at most 256 bits = 8 sectors (more only when misaligned).
        let last = last.min(first.saturating_add(16));
        let mut s = first;
        while s <= last {
            sectors[n] = s;
            n += 1;
            s += 1;
        }
    }
    let sectors = &mut sectors[..n];
    if let Some(c) = distinct_sectors_in_span(sectors) {
        return c;
    }
    match n {
        0..=32 => return distinct_sectors_hashed::<128>(sectors),
        33..=64 => return distinct_sectors_hashed::<256>(sectors),
        65..=256 => return distinct_sectors_hashed::<1024>(sectors),
        _ => {}
    }
    sectors.sort_unstable();
    let mut distinct = 0u32;
    let mut lines = 0u32;
    let mut prev_s = None;
    let mut prev_l = None;
    for &s in sectors.iter() {
        if prev_s == Some(s) {
            continue;
        }
        prev_s = Some(s);
        distinct += 1;
        let line = s.div_euclid(LINE / SECTOR);
        if prev_l != Some(line) {
            lines += 1;
            prev_l = Some(line);
        }
    }
    RequestCost {
        lines,
        sectors: distinct,
    }
}

/// Sectors (or words) up to which the distinct ones of a request are
/// counted in a bitmap: a request within 32 KB, a shared group within 4 KB.
/// Wider ones, of up to 256 sectors (words), are counted in a small hash
/// set ([`Seen`]), and only larger ones by sorting. The counts are the same
/// every way (`bitmap_counts_are_the_sorted_ones`); the bitmap and the set
/// spare the sort, which was most of the time of the expected-cost draws
/// ([`ranged_mean`], [`classed_cost`]: 4,096 requests each).
const SPAN_BITS: usize = 1024;

/// [`request_cost`] of the touched `sectors` (any order, repeats allowed)
/// when they lie within [`SPAN_BITS`] sectors of the least; `None` otherwise.
fn distinct_sectors_in_span(sectors: &[i64]) -> Option<RequestCost> {
    let per_line = LINE / SECTOR;
    let lo = *sectors.iter().min()?;
    let hi = *sectors.iter().max()?;
    if hi.checked_sub(lo)? >= SPAN_BITS as i64 {
        return None;
    }
    let lo_line = lo.div_euclid(per_line);
    let mut seen = [0u64; SPAN_BITS / 64];
    // Lines of a span of SPAN_BITS sectors: at most SPAN_BITS / 4 + 1.
    let mut seen_lines = [0u64; SPAN_BITS / 4 / 64 + 1];
    let (mut distinct, mut lines) = (0u32, 0u32);
    for &s in sectors {
        let i = (s - lo) as usize;
        let (w, b) = (i / 64, 1u64 << (i % 64));
        if seen[w] & b != 0 {
            continue;
        }
        seen[w] |= b;
        distinct += 1;
        let j = (s.div_euclid(per_line) - lo_line) as usize;
        let (w, b) = (j / 64, 1u64 << (j % 64));
        if seen_lines[w] & b == 0 {
            seen_lines[w] |= b;
            lines += 1;
        }
    }
    Some(RequestCost {
        lines,
        sectors: distinct,
    })
}

/// A set of fewer than `S` values (`S` a power of two; kept at a quarter
/// full or less, where probes rarely collide), on the stack:
/// open addressing, multiplicative hashing, no value equal to
/// [`Seen::EMPTY`] (sectors and words are addresses divided by 4 or more).
struct Seen<const S: usize> {
    slots: [i64; S],
}

impl<const S: usize> Seen<S> {
    const EMPTY: i64 = i64::MIN;

    fn new() -> Self {
        Seen {
            slots: [Self::EMPTY; S],
        }
    }

    /// Adds `v`; true when it was not there.
    fn insert(&mut self, v: i64) -> bool {
        let shift = 64 - S.trailing_zeros();
        let mut i = ((v as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> shift) as usize;
        loop {
            let s = self.slots[i];
            if s == v {
                return false;
            }
            if s == Self::EMPTY {
                self.slots[i] = v;
                return true;
            }
            i = (i + 1) & (S - 1);
        }
    }
}

/// [`request_cost`] of at most `S / 4` touched `sectors` (any order, repeats
/// allowed) spread too far for [`distinct_sectors_in_span`]: classes of
/// lanes drawn independently over a large set.
fn distinct_sectors_hashed<const S: usize>(sectors: &[i64]) -> RequestCost {
    let (mut seen, mut seen_lines) = (Seen::<S>::new(), Seen::<S>::new());
    let (mut distinct, mut lines) = (0u32, 0u32);
    for &s in sectors {
        if seen.insert(s) {
            distinct += 1;
            if seen_lines.insert(s.div_euclid(LINE / SECTOR)) {
                lines += 1;
            }
        }
    }
    RequestCost {
        lines,
        sectors: distinct,
    }
}

/// Ideal sectors for `active` lanes of `bytes` each.
pub fn ideal_sectors(active: u32, bytes: u32) -> u32 {
    ((active as u64 * bytes as u64).div_ceil(SECTOR as u64)) as u32
}

/// Ideal lines for `active` lanes of `bytes` each.
pub fn ideal_lines(active: u32, bytes: u32) -> u32 {
    ((active as u64 * bytes as u64).div_ceil(LINE as u64)) as u32
}

/// Sectors of one element of `bytes` (naturally aligned, as PTX requires).
pub fn element_sectors(bytes: u32) -> u32 {
    (bytes as u64).div_ceil(SECTOR as u64).max(1) as u32
}

/// Shared-memory wavefronts of one request: 32 banks of 4 bytes. Lanes are
/// served in groups that move at most 128 bytes (all 32 lanes for accesses of
/// up to 4 bytes, half-warps for 8, quarter-warps for 16, groups of 4 for 32);
/// a group needs as many wavefronts as the largest number of distinct 4-byte
/// words it touches in one bank (lanes reading the same word share it).
pub fn shared_wavefronts(addrs: &Lanes, active: u32, bytes: u32) -> u32 {
    let bytes = bytes.max(1);
    let group = if bytes <= 4 {
        WARP
    } else {
        (128 / bytes as usize).max(1)
    };
    shared_wavefronts_in_groups(addrs, active, bytes, group)
}

/// [`shared_wavefronts`] with lanes served in groups of `group` lanes.
fn shared_wavefronts_in_groups(addrs: &Lanes, active: u32, bytes: u32, group: usize) -> u32 {
    let bytes = bytes.max(1);
    let group = group.max(1);
    let words_per_lane = bytes.div_ceil(4) as i64;
    let mut total = 0;
    // The words of one group, on the stack for up to 8 words a lane (the
    // launch simulation and the expected-cost draws call this per request).
    let mut buf = [0i64; 8 * WARP];
    let mut heap: Vec<i64> = Vec::new();
    for g in (0..WARP).step_by(group) {
        let fits = group * words_per_lane as usize <= buf.len();
        let mut n = 0;
        heap.clear();
        for (l, a) in addrs.iter().enumerate().take((g + group).min(WARP)).skip(g) {
            if active & (1 << l) == 0 {
                continue;
            }
            let w0 = a.div_euclid(4);
            for k in 0..words_per_lane {
                if fits {
                    buf[n] = w0 + k;
                    n += 1;
                } else {
                    heap.push(w0 + k);
                }
            }
        }
        let words: &mut [i64] = if fits { &mut buf[..n] } else { &mut heap };
        if words.is_empty() {
            continue;
        }
        if let Some(most) = most_words_in_a_bank_in_span(words) {
            total += most;
            continue;
        }
        if words.len() <= 256 {
            total += most_words_in_a_bank_hashed(words);
            continue;
        }
        words.sort_unstable();
        let mut per_bank = [0u32; 32];
        let mut last = None;
        for &w in words.iter() {
            if last != Some(w) {
                per_bank[w.rem_euclid(32) as usize] += 1;
                last = Some(w);
            }
        }
        total += per_bank.iter().copied().max().unwrap_or(0);
    }
    total
}

/// The most distinct `words` (any order, repeats allowed) in one of the 32
/// banks, when they lie within [`SPAN_BITS`] words of the least; `None`
/// otherwise (then [`shared_wavefronts_in_groups`] sorts them).
fn most_words_in_a_bank_in_span(words: &[i64]) -> Option<u32> {
    let lo = *words.iter().min()?;
    let hi = *words.iter().max()?;
    if hi.checked_sub(lo)? >= SPAN_BITS as i64 {
        return None;
    }
    let mut seen = [0u64; SPAN_BITS / 64];
    let mut per_bank = [0u32; 32];
    for &w in words {
        let i = (w - lo) as usize;
        let (k, b) = (i / 64, 1u64 << (i % 64));
        if seen[k] & b == 0 {
            seen[k] |= b;
            per_bank[w.rem_euclid(32) as usize] += 1;
        }
    }
    per_bank.iter().copied().max()
}

/// [`most_words_in_a_bank_in_span`] for at most 256 words spread further.
fn most_words_in_a_bank_hashed(words: &[i64]) -> u32 {
    // A table four times the words (few collisions: a probe's branch is
    // hard to predict), no larger (clearing it is part of the cost).
    match words.len() {
        0..=32 => most_words_in_a_bank_in::<128>(words),
        33..=64 => most_words_in_a_bank_in::<256>(words),
        _ => most_words_in_a_bank_in::<1024>(words),
    }
}

fn most_words_in_a_bank_in<const S: usize>(words: &[i64]) -> u32 {
    let mut seen = Seen::<S>::new();
    let mut per_bank = [0u32; 32];
    for &w in words {
        if seen.insert(w) {
            per_bank[w.rem_euclid(32) as usize] += 1;
        }
    }
    per_bank.iter().copied().max().unwrap_or(0)
}

/// Shared-memory wavefronts of one load request (`ld.shared`, `LDS`): as
/// [`shared_wavefronts`] (lanes in groups that move 128 bytes: half-warps for
/// 8 bytes, quarter-warps for 16), except that loads of 8 and 16 bytes pack
/// lanes that read their partner's address: each *span* of two groups (the
/// whole warp for 8 bytes, each half-warp for 16) whose active lanes all
/// read the address of their partner `l ^ 1` (or all that of `l ^ 2`) and
/// whose words meet no bank conflict is served in one wavefront; a span with
/// a conflict, or with a lane whose partner reads elsewhere, costs its
/// groups' wavefronts.
///
/// Measured on the H200 (`tests/hw/ldsprobe`: 456 one-warp layouts, all
/// agree; 240 random layouts predicted before they ran, 235 agree, the old
/// rule 204): an `LDS.64` of two addresses in different banks, by halves,
/// interleaved or in quarter-warps, 1 wavefront (in one bank 2 by halves, 4
/// interleaved or by quarter-warps); lanes 16–31 reading lanes 0–15's addresses still 2;
/// a broadcast `LDS.128` 2 (`tests/hw/blind2` `nbody_tile`), one whose
/// half-warp reads one address and whose other half is coalesced 3, two
/// addresses in one bank interleaved 8. Misses (`tests/hw/ldsprobe`
/// `known.txt`): 16-byte loads with lanes off — at most 16 lanes all on
/// one address cost 1 (here 2), pair-sharing layouts with some lanes off 3
/// (here 2), and 5 random layouts 1 off either way (25 of 160 + 240
/// held-out layouts).
pub fn shared_load_wavefronts(addrs: &Lanes, active: u32, bytes: u32) -> u32 {
    if active == 0 || !(bytes == 8 || bytes == 16) {
        return shared_wavefronts(addrs, active, bytes);
    }
    let group = (128 / bytes) as usize;
    let span = 2 * group;
    let mut total = 0;
    for s in (0..WARP).step_by(span) {
        let mask = active & ((((1u64 << span) - 1) << s) as u32);
        if mask == 0 {
            continue;
        }
        let packed = (pairs_share(addrs, mask, 1) || pairs_share(addrs, mask, 2))
            && shared_wavefronts_in_groups(addrs, mask, bytes, span) == 1;
        total += if packed {
            1
        } else {
            shared_wavefronts_in_groups(addrs, mask, bytes, group)
        };
    }
    total
}

/// Wavefronts of one shared-memory request of `op` (`form`: the form of an
/// atomic): the per-request rule of its kind, [`shared_atomic::wavefronts`]
/// for atomics and reductions, [`shared_load_wavefronts`] for loads,
/// [`shared_wavefronts`] for stores. The one rule the static figures and the
/// launch simulation apply to addresses drawn from a known set
/// ([`ranged_mean`] over its draws: `s_lut[q & 0xf]`, `s_lut[sub * 256 +
/// code]` at a loaded byte).
pub fn shared_request_wavefronts(
    op: crate::ir::AccessOp,
    form: shared_atomic::SharedAtomicForm,
    addrs: &Lanes,
    active: u32,
    bytes: u32,
) -> u32 {
    match op {
        crate::ir::AccessOp::Atomic => shared_atomic::wavefronts(addrs, active, bytes, form),
        crate::ir::AccessOp::Load => shared_load_wavefronts(addrs, active, bytes),
        crate::ir::AccessOp::Store => shared_wavefronts(addrs, active, bytes),
    }
}

/// Whether every active lane `l` whose partner `l ^ k` is active reads the
/// partner's address.
fn pairs_share(addrs: &Lanes, active: u32, k: usize) -> bool {
    (0..WARP).all(|l| {
        let p = l ^ k;
        active & (1 << l) == 0 || active & (1 << p) == 0 || addrs[l] == addrs[p]
    })
}

/// Cost statistics over several possibilities (residues, warps).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct CostRange {
    /// Mean lines.
    pub lines: f64,
    /// Mean sectors.
    pub sectors: f64,
    /// Fewest sectors.
    pub sectors_min: f64,
    /// Most sectors.
    pub sectors_max: f64,
    /// Fewest lines.
    pub lines_min: f64,
    /// Most lines.
    pub lines_max: f64,
}

impl CostRange {
    /// An exact cost.
    pub fn exact(c: RequestCost) -> CostRange {
        CostRange {
            lines: c.lines as f64,
            sectors: c.sectors as f64,
            sectors_min: c.sectors as f64,
            sectors_max: c.sectors as f64,
            lines_min: c.lines as f64,
            lines_max: c.lines as f64,
        }
    }
    /// True when min == max, sectors and lines.
    pub fn is_exact(&self) -> bool {
        self.sectors_min == self.sectors_max && self.lines_min == self.lines_max
    }
}

/// Cost of `u + d_l` for every residue `u` (mod 128) in `residues`.
pub fn cost_over_residues(residues: &[i64], d: &Lanes, active: u32, bytes: u32) -> CostRange {
    if residues.is_empty() {
        return CostRange::default();
    }
    let mut r = CostRange {
        sectors_min: f64::MAX,
        sectors_max: 0.0,
        lines_min: f64::MAX,
        lines_max: 0.0,
        ..Default::default()
    };
    for &u in residues {
        let a: Lanes = std::array::from_fn(|l| d[l].wrapping_add(u));
        let c = request_cost(&a, active, bytes);
        r.lines += c.lines as f64;
        r.sectors += c.sectors as f64;
        r.sectors_min = r.sectors_min.min(c.sectors as f64);
        r.sectors_max = r.sectors_max.max(c.sectors as f64);
        r.lines_min = r.lines_min.min(c.lines as f64);
        r.lines_max = r.lines_max.max(c.lines as f64);
    }
    r.lines /= residues.len() as f64;
    r.sectors /= residues.len() as f64;
    r
}

/// Bounds and expectation for `n` active lanes with data-dependent addresses.
pub fn random_cost(n: u32, bytes: u32) -> CostRange {
    let per = element_sectors(bytes) as f64;
    let lines_per = (bytes as f64 / LINE as f64).ceil().max(1.0);
    if n == 0 {
        return CostRange::default();
    }
    CostRange {
        lines: n as f64 * lines_per,
        sectors: n as f64 * per,
        sectors_min: per,
        sectors_max: n as f64 * per,
        lines_min: lines_per,
        lines_max: n as f64 * lines_per,
    }
}

/// Bounds and expectation for `n` active lanes whose addresses are drawn
/// independently and uniformly from a known set: `u + x` with `x ∈ [lo, hi]`,
/// `x ≡ r (mod m)`, for every residue `u` (mod 128) of the uniform base in
/// `residues` (see "Data-dependent addresses over a known range" in the
/// module essay). Elements of `bytes` each.
#[allow(clippy::too_many_arguments)]
pub fn ranged_random_cost(
    residues: &[i64],
    lo: i64,
    hi: i64,
    m: u64,
    r: i64,
    n: u32,
    bytes: u32,
) -> CostRange {
    RangedSet::new(residues, lo, hi, m, r, bytes).cost(n)
}

/// How the lanes of a known set draw their elements (see `domain::Range`):
/// lane `l` reads `u + exact[l] + x_{l & key}`, the lanes of one class of
/// the lane partition `key` sharing one draw of `x`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LaneClasses {
    /// Exact per-lane offsets (`None`: zero).
    pub exact: Option<Lanes>,
    /// Lane partition: lanes `l`, `l'` with `l & key == l' & key` share `x`.
    pub key: u8,
    /// The known bits of `x` (`domain::KnownBits`): the set holds only the
    /// values of its bounds and congruence that have them.
    pub bits: KnownBits,
}

impl LaneClasses {
    /// Every lane its own draw, no exact part: [`ranged_random_cost`].
    pub const INDEPENDENT: LaneClasses = LaneClasses {
        exact: None,
        key: 0x1f,
        bits: KnownBits::UNKNOWN,
    };
    /// True for [`LaneClasses::INDEPENDENT`].
    pub fn is_independent(&self) -> bool {
        self.exact.is_none() && self.key & 0x1f == 0x1f
    }
    fn exact_at(&self, l: usize) -> i64 {
        self.exact.as_ref().map(|e| e[l]).unwrap_or(0)
    }
    /// The same classes with the exact part moved by a multiple of
    /// [`LINE`] so that lane 0's offset is in `[0, LINE)` (kept when a lane
    /// is beyond `±2^40`). Every cost of this module over the draws
    /// ([`classed_cost`], and [`ranged_mean`] of the per-request rules:
    /// sectors, lines, banks, equal addresses) is the same for both: moving
    /// every address of a request by a multiple of 128 bytes moves its
    /// sectors and lines by whole lines and its words by whole bank rows.
    /// Memos of those costs key on it: cuBLAS unrolls one shared tile's
    /// reads at offsets 1,152 bytes apart (`libcublas.so.96`), each once
    /// 4,096 draws.
    pub fn normalized(&self) -> LaneClasses {
        let exact = self.exact.map(|e| {
            let shift = e[0].div_euclid(LINE) * LINE;
            const FAR: i64 = 1 << 40;
            if e.iter().all(|x| (-FAR..=FAR).contains(x)) {
                e.map(|x| x - shift)
            } else {
                e
            }
        });
        LaneClasses { exact, ..*self }
    }
}

/// Values an unbounded side of a known set is drawn from: `2^40`, or fewer
/// when the congruence's modulus would carry an address past `2^61`. Two
/// of 32 classes then share a value with probability below `2^-30`: the
/// draws are those of an unbounded set for every figure this module gives.
const UNBOUNDED_VALUES: i128 = 1 << 40;

/// The first element and the number of elements of `x ∈ [lo, hi]`, `x ≡ r
/// (mod m)`, a missing bound standing for [`UNBOUNDED_VALUES`] values on its
/// side; `None` when the set is empty.
fn set_extent((lo, hi): (i64, i64), (m, r): (u64, i64)) -> Option<(i128, i128)> {
    let m = m.max(1) as i128;
    let far = UNBOUNDED_VALUES.min((1i128 << 61) / m).max(1);
    let (lo_b, hi_b) = (lo != i64::MIN, hi != i64::MAX);
    let first = if lo_b {
        lo as i128 + (r as i128 - lo as i128).rem_euclid(m)
    } else if hi_b {
        let top = hi as i128 - (hi as i128 - r as i128).rem_euclid(m);
        top - (far - 1) * m
    } else {
        (r as i128).rem_euclid(m) - (far / 2) * m
    };
    let count = if hi_b {
        if first > hi as i128 {
            return None;
        }
        (hi as i128 - first) / m + 1
    } else {
        far
    };
    Some((first, count))
}

/// Unknown bits up to which the values a known set's bits allow are listed
/// ([`set_elements`]): at most 4,096 values, as [`ENUMERATE`].
pub const ENUMERATED_BITS: u32 = 12;

/// The elements of a known set `x ∈ [lo, hi]`, `x ≡ r (mod m)` with known
/// bits: `first + k·m` for `k < count` ([`set_extent`]), or, when the bits
/// leave at most [`ENUMERATED_BITS`] free and exclude some of those, the
/// values they allow, listed (`512 * (d & 7) + 2 * (d >> 3)`: 16 values,
/// where the bounds and the stride give 1,794).
#[derive(Clone, Debug, PartialEq)]
enum Elements {
    Step { first: i128, m: i128, count: i128 },
    List(Vec<i64>),
}

impl Elements {
    fn count(&self) -> i128 {
        match self {
            Elements::Step { count, .. } => *count,
            Elements::List(v) => v.len() as i128,
        }
    }
    fn at(&self, k: i128) -> i128 {
        match self {
            Elements::Step { first, m, .. } => first + k * m,
            Elements::List(v) => v[k as usize] as i128,
        }
    }
    /// Bounds and congruence (`lo`, `hi`, `m`, `r`) that hold for every
    /// element: what [`class_bounds`] reads.
    fn summary(&self, bounds: (i64, i64), cong: (u64, i64)) -> ((i64, i64), (u64, i64)) {
        match self {
            Elements::Step { .. } => (bounds, cong),
            Elements::List(v) => {
                let c = v
                    .iter()
                    .fold(Cong::exact(v[0]), |c, &x| c.join(Cong::exact(x)));
                ((v[0], v[v.len() - 1]), (c.m, c.r))
            }
        }
    }
}

/// The elements of the set (see [`Elements`]); `None` when it is empty.
fn set_elements(bounds: (i64, i64), cong: (u64, i64), bits: KnownBits) -> Option<Elements> {
    let step = set_extent(bounds, cong);
    let (lo, hi) = bounds;
    let c = if cong.0 == 0 {
        Cong::exact(cong.1)
    } else {
        Cong::modulo(cong.0, cong.1)
    };
    if bits != KnownBits::UNKNOWN {
        if let Some(list) = bits.enumerate(lo, hi, c, ENUMERATED_BITS) {
            // No value: bits that contradict the bounds, which keep the set.
            if !list.is_empty() && step.is_none_or(|(_, count)| (list.len() as i128) < count) {
                return Some(Elements::List(list));
            }
        }
    }
    let (first, count) = step?;
    Some(Elements::Step {
        first,
        m: cong.0.max(1) as i128,
        count,
    })
}

/// The mean of `cost` over [`RANGED_SAMPLES`] draws of [`ranged_samples`]
/// (the expected shared-memory wavefronts of `hist[b & 255]`); `None` when
/// the set is empty. The draws are not kept.
pub fn ranged_mean(
    residues: &[i64],
    bounds: (i64, i64),
    cong: (u64, i64),
    classes: &LaneClasses,
    mask: u32,
    mut cost: impl FnMut(&Lanes) -> u32,
) -> Option<f64> {
    let (mut sum, mut n) = (0u64, 0u64);
    for a in ranged_samples(residues, bounds, cong, classes, mask, RANGED_SAMPLES) {
        sum += u64::from(cost(&a));
        n += 1;
    }
    (n > 0).then(|| sum as f64 / n as f64)
}

/// Draws of a warp's addresses when every lane of `mask` reads an element of
/// the known set of [`ranged_random_cost`] (`u + x`, `x ∈ [lo, hi]`, `x ≡ r
/// (mod m)`, `u` one of `residues`, the same in every lane) plus its exact
/// part, the lanes of one class of `classes` sharing one draw of `x` and the
/// classes drawing independently and uniformly (an unbounded side: see
/// [`UNBOUNDED_VALUES`]): `n` draws from a fixed pseudo-random sequence
/// (splitmix64), so figures averaged over them are reproducible. None when
/// the set is empty.
pub fn ranged_samples<'a>(
    residues: &'a [i64],
    bounds: (i64, i64),
    cong: (u64, i64),
    classes: &'a LaneClasses,
    mask: u32,
    n: usize,
) -> impl Iterator<Item = Lanes> + 'a {
    let elements = set_elements(bounds, cong, classes.bits);
    let empty = residues.is_empty() || elements.is_none();
    let elements = elements.unwrap_or(Elements::Step {
        first: 0,
        m: 1,
        count: 1,
    });
    let count = elements.count();
    let n = if empty { 0 } else { n };
    let key = (classes.key & 0x1f) as usize;
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let (of_residues, of_count) = (Modulus::new(residues.len() as i128), Modulus::new(count));
    (0..n).map(move |_| {
        let u = residues[of_residues.of(next()) as usize] as i128;
        // Each class's draw, taken by its first active lane.
        let mut drawn = [0i128; WARP];
        let mut taken = 0u32;
        std::array::from_fn(|l| {
            if mask & (1 << l) == 0 {
                return 0;
            }
            let c = l & key;
            if taken & (1 << c) == 0 {
                drawn[c] = of_count.of(next());
                taken |= 1 << c;
            }
            (u + elements.at(drawn[c])) as i64 + classes.exact_at(l)
        })
    })
}

/// `z mod count` for one `count >= 1` and many `z`: a mask when `count` is
/// a power of two (`[-2^31, 2^31)`: 2^32 elements), a 64-bit division when
/// it fits 64 bits, else a 128-bit one; the same value every way.
#[derive(Clone, Copy)]
enum Modulus {
    Mask(u64),
    Narrow(u64),
    Wide(u128),
}

impl Modulus {
    fn new(count: i128) -> Modulus {
        match u64::try_from(count) {
            Ok(c) if c.is_power_of_two() => Modulus::Mask(c - 1),
            Ok(c) => Modulus::Narrow(c),
            Err(_) => Modulus::Wide(count as u128),
        }
    }

    fn of(self, z: u64) -> i128 {
        match self {
            Modulus::Mask(m) => (z & m) as i128,
            Modulus::Narrow(c) => (z % c) as i128,
            Modulus::Wide(c) => (z as u128 % c) as i128,
        }
    }
}

/// Bounds and expectation of a request whose lanes of `mask` read the known
/// set of [`ranged_samples`] with lane classes or an exact part (`row =
/// idx[j + (t >> 4)]; table[row * 16 + (t & 15)]`: two classes of 16 lanes,
/// each reading 256 contiguous bytes): the expectation is the mean of
/// [`request_cost`] over [`RANGED_SAMPLES`] draws ([`ranged_random_cost`] is
/// the closed form for independent lanes without an exact part). The bounds
/// hold for every draw ([`class_bounds`]).
///
/// Memoised per thread by its arguments, the classes
/// [`LaneClasses::normalized`] (the draws are seeded: the same arguments
/// give the same figures).
pub fn classed_cost(
    residues: &[i64],
    bounds: (i64, i64),
    cong: (u64, i64),
    classes: &LaneClasses,
    mask: u32,
    bytes: u32,
) -> CostRange {
    let classes = classes.normalized();
    let key = ClassedKey {
        residues: residues.to_vec(),
        bounds,
        cong,
        exact: classes.exact,
        key: classes.key,
        bits: classes.bits,
        mask,
        bytes,
    };
    if let Some(c) = CLASSED_COSTS.with(|m| m.borrow().get(&key).copied()) {
        return c;
    }
    let c = classed_cost_drawn(residues, bounds, cong, &classes, mask, bytes);
    CLASSED_COSTS.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= CLASSED_MEMO {
            m.clear();
        }
        m.insert(key, c);
    });
    c
}

/// Everything [`classed_cost`]'s result depends on.
#[derive(Clone, PartialEq, Eq, Hash)]
struct ClassedKey {
    residues: Vec<i64>,
    bounds: (i64, i64),
    cong: (u64, i64),
    exact: Option<Lanes>,
    key: u8,
    bits: KnownBits,
    mask: u32,
    bytes: u32,
}

/// The most memoised [`classed_cost`] figures a thread keeps (then the memo
/// starts again).
const CLASSED_MEMO: usize = 4096;

thread_local! {
    static CLASSED_COSTS: std::cell::RefCell<crate::util::FastMap<ClassedKey, CostRange>> =
        std::cell::RefCell::new(Default::default());
}

/// [`classed_cost`], drawn.
fn classed_cost_drawn(
    residues: &[i64],
    bounds: (i64, i64),
    cong: (u64, i64),
    classes: &LaneClasses,
    mask: u32,
    bytes: u32,
) -> CostRange {
    let (mut sectors, mut lines, mut n) = (0u64, 0u64, 0u32);
    for a in ranged_samples(residues, bounds, cong, classes, mask, RANGED_SAMPLES) {
        let c = request_cost(&a, mask, bytes);
        sectors += u64::from(c.sectors);
        lines += u64::from(c.lines);
        n += 1;
    }
    if n == 0 || mask == 0 {
        return CostRange::default();
    }
    let (bounds, cong) = match set_elements(bounds, cong, classes.bits) {
        Some(e) => e.summary(bounds, cong),
        None => (bounds, cong),
    };
    let (s, l) = (
        class_bounds(residues, bounds, cong, classes, mask, bytes, SECTOR),
        class_bounds(residues, bounds, cong, classes, mask, bytes, LINE),
    );
    CostRange {
        sectors: (sectors as f64 / n as f64).clamp(s.0, s.1),
        lines: (lines as f64 / n as f64).clamp(l.0, l.1),
        sectors_min: s.0,
        sectors_max: s.1,
        lines_min: l.0,
        lines_max: l.1,
    }
}

/// Granules (of `g` bytes) that any `len` contiguous bytes can span.
fn max_span(len: i128, g: i128) -> i128 {
    (len + g - 2).div_euclid(g) + 1
}

/// Fewest and most granules of `g` bytes a request of [`classed_cost`] can
/// touch, whatever the draws: each class of lanes reads its exact offsets
/// shifted by one unknown, so it touches at least the granules its bytes
/// fill (`ceil(bytes covered / g)`, the largest class bounding the request
/// from below) and at most the granules its contiguous runs of bytes can
/// span (at their known offset when the unknown moves by whole lines, for
/// each residue of the base); the request touches at most the sum over
/// classes, and no more than the whole set spans when it is bounded.
fn class_bounds(
    residues: &[i64],
    (lo, hi): (i64, i64),
    (m, r): (u64, i64),
    classes: &LaneClasses,
    mask: u32,
    bytes: u32,
    g: i64,
) -> (f64, f64) {
    let (b, g) = (bytes.max(1) as i128, g as i128);
    let key = (classes.key & 0x1f) as usize;
    let mut per_class: [Vec<i128>; WARP] = std::array::from_fn(|_| Vec::new());
    for l in (0..WARP).filter(|l| mask & (1 << l) != 0) {
        per_class[l & key].push(classes.exact_at(l) as i128);
    }
    // The offset of every draw modulo a line, when fixed (per residue).
    let fixed = m != 0 && m % LINE as u64 == 0;
    let shifts: Vec<Option<i128>> = if fixed && !residues.is_empty() {
        residues
            .iter()
            .map(|&u| Some(u as i128 + r as i128))
            .collect()
    } else {
        vec![None]
    };
    let mut low = 0i128;
    let mut highs = vec![0i128; shifts.len()];
    for offs in per_class.iter_mut().filter(|v| !v.is_empty()) {
        offs.sort_unstable();
        offs.dedup();
        // Contiguous runs of the class's bytes.
        let mut runs: Vec<(i128, i128)> = Vec::new();
        for &o in offs.iter() {
            match runs.last_mut() {
                Some((_, end)) if o <= *end => *end = (*end).max(o + b),
                _ => runs.push((o, o + b)),
            }
        }
        let covered: i128 = runs.iter().map(|(a, e)| e - a).sum();
        low = low.max((covered + g - 1) / g);
        for (h, shift) in highs.iter_mut().zip(&shifts) {
            *h += match shift {
                Some(s) => {
                    let mut ids: Vec<i128> = Vec::new();
                    for &(a, e) in &runs {
                        ids.extend((a + s).div_euclid(g)..=(e + s - 1).div_euclid(g));
                    }
                    ids.sort_unstable();
                    ids.dedup();
                    ids.len() as i128
                }
                None => runs.iter().map(|&(a, e)| max_span(e - a, g)).sum(),
            };
        }
    }
    let mut high = highs.into_iter().max().unwrap_or(0);
    if lo != i64::MIN && hi != i64::MAX {
        let act = || (0..WARP).filter(|l| mask & (1 << l) != 0);
        let emin = act()
            .map(|l| classes.exact_at(l) as i128)
            .min()
            .unwrap_or(0);
        let emax = act()
            .map(|l| classes.exact_at(l) as i128)
            .max()
            .unwrap_or(0);
        let (start, end) = (lo as i128 + emin, hi as i128 + emax + b);
        let whole = if residues.is_empty() {
            max_span(end - start, g)
        } else {
            residues
                .iter()
                .map(|&u| {
                    let u = u as i128;
                    (end + u - 1).div_euclid(g) - (start + u).div_euclid(g) + 1
                })
                .max()
                .unwrap_or(0)
        };
        high = high.min(whole);
    }
    (low.max(1) as f64, high.max(low.max(1)) as f64)
}

/// Draws [`ranged_samples`] takes for an expected figure: the mean of a
/// per-request count of 2 to 5 (a bank's load) is then within about 0.01 of
/// its expectation.
pub const RANGED_SAMPLES: usize = 4096;

/// A known set of addresses, prepared once for [`RangedSet::cost`] with any
/// number of lanes: per residue of the base, how many of the set's elements
/// touch each sector and each line.
#[derive(Clone, Debug, PartialEq)]
pub struct RangedSet {
    sets: Vec<SetHits>,
}

#[derive(Clone, Debug, PartialEq)]
enum SetHits {
    /// Hits per touched sector and per touched line, out of `count` elements,
    /// and the fewest/most sectors and lines one element touches.
    Counted {
        sectors: Vec<u32>,
        lines: Vec<u32>,
        count: f64,
        per: (u32, u32),
        lper: (u32, u32),
    },
    /// A large set: `k` equally likely sectors (lines), or `k` elements a
    /// sector (line) or more apart of `per` sectors each (`spread`).
    Closed {
        ks: f64,
        spread_s: bool,
        kl: f64,
        spread_l: bool,
        per: f64,
        lper: f64,
    },
    /// The empty set.
    Empty,
}

/// Elements a set is enumerated up to; larger sets use the closed form.
const ENUMERATE: i128 = 1 << 12;

impl RangedSet {
    /// Prepares the set of [`ranged_random_cost`] further restricted to the
    /// values with the known bits `bits` (listed when few, see
    /// [`ENUMERATED_BITS`]).
    pub fn with_bits(
        residues: &[i64],
        (lo, hi): (i64, i64),
        (m, r): (u64, i64),
        bits: KnownBits,
        bytes: u32,
    ) -> RangedSet {
        match set_elements((lo, hi), (m, r), bits) {
            Some(Elements::List(v)) => RangedSet {
                sets: residues
                    .iter()
                    .map(|&u| SetHits::counted(v.iter().map(|&x| u as i128 + x as i128), bytes))
                    .collect(),
            },
            _ => RangedSet::new(residues, lo, hi, m, r, bytes),
        }
    }

    /// Prepares the set (see [`ranged_random_cost`]).
    pub fn new(residues: &[i64], lo: i64, hi: i64, m: u64, r: i64, bytes: u32) -> RangedSet {
        let m = m.max(1) as i128;
        let first = lo as i128 + (r as i128 - lo as i128).rem_euclid(m);
        if hi < lo || first > hi as i128 {
            return RangedSet { sets: vec![] };
        }
        let count = (hi as i128 - first) / m + 1;
        RangedSet {
            sets: residues
                .iter()
                .map(|&u| SetHits::new(u as i128 + first, m, count, bytes))
                .collect(),
        }
    }

    /// Mean over the residues of the expected cost of `n` lanes; bounds over all.
    pub fn cost(&self, n: u32) -> CostRange {
        if n == 0 || self.sets.is_empty() {
            return CostRange::default();
        }
        let mut out = CostRange {
            sectors_min: f64::MAX,
            lines_min: f64::MAX,
            ..CostRange::default()
        };
        for s in &self.sets {
            let one = s.cost(n);
            out.sectors += one.sectors;
            out.lines += one.lines;
            out.sectors_min = out.sectors_min.min(one.sectors_min);
            out.sectors_max = out.sectors_max.max(one.sectors_max);
            out.lines_min = out.lines_min.min(one.lines_min);
            out.lines_max = out.lines_max.max(one.lines_max);
        }
        out.sectors /= self.sets.len() as f64;
        out.lines /= self.sets.len() as f64;
        if out.sectors_min == f64::MAX {
            return CostRange::default();
        }
        out
    }
}

/// Sorted ids to hit counts (one entry per distinct id).
fn runs(mut ids: Vec<i128>) -> Vec<u32> {
    ids.sort_unstable();
    let mut out: Vec<u32> = Vec::new();
    let mut prev = None;
    for id in ids {
        if prev == Some(id) {
            if let Some(c) = out.last_mut() {
                *c += 1;
            }
        } else {
            out.push(1);
            prev = Some(id);
        }
    }
    out
}

impl SetHits {
    /// The elements at `start + k·m`, `k < count`.
    fn new(start: i128, m: i128, count: i128, bytes: u32) -> SetHits {
        if count <= 0 {
            return SetHits::Empty;
        }
        let b = bytes.max(1) as i128;
        let span = |a: i128, g: i128| (a.div_euclid(g), (a + b - 1).div_euclid(g));
        if count <= ENUMERATE {
            return SetHits::counted((0..count).map(|k| start + k * m), bytes);
        }
        let last = start + (count - 1) * m;
        let k = |g: i128| {
            if m >= g {
                (count as f64, true)
            } else {
                ((span(last, g).1 - start.div_euclid(g) + 1) as f64, false)
            }
        };
        let ((ks, spread_s), (kl, spread_l)) = (k(SECTOR as i128), k(LINE as i128));
        SetHits::Closed {
            ks,
            spread_s,
            kl,
            spread_l,
            per: element_sectors(bytes) as f64,
            lper: (bytes as f64 / LINE as f64).ceil().max(1.0),
        }
    }

    /// The elements at the addresses `elems` (a few thousand), counted.
    fn counted(elems: impl Iterator<Item = i128>, bytes: u32) -> SetHits {
        let b = bytes.max(1) as i128;
        let span = |a: i128, g: i128| (a.div_euclid(g), (a + b - 1).div_euclid(g));
        let (mut sec, mut lin) = (Vec::new(), Vec::new());
        let (mut per, mut lper) = ((u32::MAX, 0), (u32::MAX, 0));
        let mut count = 0u32;
        for a in elems {
            let (s0, s1) = span(a, SECTOR as i128);
            sec.extend(s0..=s1);
            let (l0, l1) = span(a, LINE as i128);
            lin.extend(l0..=l1);
            let (ns, nl) = ((s1 - s0 + 1) as u32, (l1 - l0 + 1) as u32);
            per = (per.0.min(ns), per.1.max(ns));
            lper = (lper.0.min(nl), lper.1.max(nl));
            count += 1;
        }
        if count == 0 {
            return SetHits::Empty;
        }
        SetHits::Counted {
            sectors: runs(sec),
            lines: runs(lin),
            count: count as f64,
            per,
            lper,
        }
    }

    /// The expected cost of `n` lanes and its bounds.
    fn cost(&self, n: u32) -> CostRange {
        // A sector touched by one lane with probability p is touched by n
        // lanes with probability 1 - (1 - p)^n; the expected number of
        // distinct sectors is the sum of these.
        let hit = |p: f64| 1.0 - (1.0 - p).powi(n as i32);
        let nf = n as f64;
        match self {
            SetHits::Empty => CostRange::default(),
            SetHits::Counted {
                sectors,
                lines,
                count,
                per,
                lper,
            } => CostRange {
                sectors: sectors.iter().map(|&h| hit(h as f64 / count)).sum(),
                lines: lines.iter().map(|&h| hit(h as f64 / count)).sum(),
                sectors_min: per.0 as f64,
                sectors_max: (nf * per.1 as f64).min(sectors.len() as f64),
                lines_min: lper.0 as f64,
                lines_max: (nf * lper.1 as f64).min(lines.len() as f64),
            },
            SetHits::Closed {
                ks,
                spread_s,
                kl,
                spread_l,
                per,
                lper,
            } => {
                // k equally likely sectors (lines) touch k·(1 - (1 - 1/k)^n).
                let e = |k: f64, spread: bool, per: f64| {
                    let base = k * hit(1.0 / k);
                    (
                        if spread { per * base } else { base },
                        (nf * per).min(k * per),
                    )
                };
                let (es, smax) = e(*ks, *spread_s, *per);
                let (el, lmax) = e(*kl, *spread_l, *lper);
                CostRange {
                    sectors: es,
                    lines: el,
                    sectors_min: *per,
                    sectors_max: smax,
                    lines_min: *lper,
                    lines_max: lmax,
                }
            }
        }
    }
}

/// The pattern of exact lane offsets `d` (relative addresses) over the active
/// lanes, given the request's fewest sectors and the ideal:
///
/// * every active lane at one address: `broadcast` (stride 0);
/// * otherwise, no more sectors than the ideal: `coalesced` (consecutive
///   elements, but also permutations inside a segment, reversed ranges, two
///   rows of a 16×16 block, lanes sharing elements in groups), with the stride
///   when the layout is affine;
/// * `d_l = d_0 + w·l` (`w` the bytes per lane) over a contiguous run of
///   active lanes that straddles the sector grid: `misaligned`;
/// * any other affine layout: `strided`, with the stride between consecutive
///   lanes (a contiguous layout with holes in the active mask is strided);
/// * anything else: `irregular` (a known set that costs more than the ideal).
pub fn classify(
    d: &Lanes,
    active: u32,
    bytes: u32,
    sectors_min: f64,
    ideal: f64,
) -> (Pattern, Option<i64>) {
    let contiguous_mask = {
        let m = active >> active.trailing_zeros().min(31);
        m & m.wrapping_add(1) == 0
    };
    let sh = shape(d, active);
    let stride = match sh {
        Shape::Same => Some(0),
        Shape::Affine(s) => Some(s),
        Shape::Irregular => None,
    };
    match sh {
        Shape::Same => (Pattern::Broadcast, Some(0)),
        _ if sectors_min <= ideal => (Pattern::Coalesced, stride),
        Shape::Affine(s) if s == bytes as i64 && contiguous_mask => (Pattern::Misaligned, Some(s)),
        Shape::Affine(s) => (Pattern::Strided, Some(s)),
        Shape::Irregular => (Pattern::Irregular, None),
    }
}

/// How the lanes' offsets are laid out (see `model::Pattern`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Every active lane has the same offset.
    Same,
    /// `d_l = d_0 + stride · l` over the active lanes.
    Affine(i64),
    /// Anything else.
    Irregular,
}

/// Classifies exact lane offsets over the active lanes.
pub fn shape(d: &Lanes, active: u32) -> Shape {
    let lanes: Vec<usize> = (0..WARP).filter(|l| active & (1 << l) != 0).collect();
    let Some(&first) = lanes.first() else {
        return Shape::Same;
    };
    if lanes.iter().all(|&l| d[l] == d[first]) {
        return Shape::Same;
    }
    let &second = &lanes[1];
    let dl = (second - first) as i64;
    let dd = d[second].wrapping_sub(d[first]);
    if dd % dl != 0 {
        return Shape::Irregular;
    }
    let s = dd / dl;
    if lanes
        .iter()
        .all(|&l| d[l].wrapping_sub(d[first]) == s.wrapping_mul((l - first) as i64))
    {
        Shape::Affine(s)
    } else {
        Shape::Irregular
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`request_cost`] and [`shared_wavefronts_in_groups`] as they were
    /// before the bitmaps: every touched sector (word) sorted.
    fn sorted_request_cost(addrs: &Lanes, active: u32, bytes: u32) -> RequestCost {
        let bytes = bytes.max(1) as i64;
        let mut sectors = Vec::new();
        for (l, &a) in addrs.iter().enumerate() {
            if active & (1 << l) != 0 {
                let first = a.div_euclid(SECTOR);
                let last = a.saturating_add(bytes - 1).div_euclid(SECTOR);
                sectors.extend(first..=last.min(first.saturating_add(16)));
            }
        }
        sectors.sort_unstable();
        sectors.dedup();
        let mut lines: Vec<i64> = sectors.iter().map(|s| s.div_euclid(4)).collect();
        lines.dedup();
        RequestCost {
            lines: lines.len() as u32,
            sectors: sectors.len() as u32,
        }
    }

    fn sorted_wavefronts(addrs: &Lanes, active: u32, bytes: u32, group: usize) -> u32 {
        let per_lane = bytes.max(1).div_ceil(4) as i64;
        let mut total = 0;
        for g in (0..WARP).step_by(group.max(1)) {
            let mut words = Vec::new();
            for (l, a) in addrs
                .iter()
                .enumerate()
                .take((g + group.max(1)).min(WARP))
                .skip(g)
            {
                if active & (1 << l) != 0 {
                    let w0 = a.div_euclid(4);
                    words.extend(w0..w0 + per_lane);
                }
            }
            words.sort_unstable();
            words.dedup();
            let mut per_bank = [0u32; 32];
            for w in words {
                per_bank[w.rem_euclid(32) as usize] += 1;
            }
            total += per_bank.iter().copied().max().unwrap_or(0);
        }
        total
    }

    /// What the memos of [`classed_cost`] and `memops`' expected wavefronts
    /// rely on ([`LaneClasses::normalized`]): the figures over the draws are
    /// the same with the exact part moved by whole lines, for every
    /// per-request rule; and the memoised figure is the drawn one.
    #[test]
    fn draws_moved_by_whole_lines_cost_the_same() {
        // cuBLAS's unrolled tile reads (`libcublas.so.96`): 8 * (lane % 8)
        // + 72 * (lane / 8) + 1152 * k, four rows per class.
        let tile = |k: i64| -> Lanes {
            std::array::from_fn(|l| 8 * (l as i64 % 8) + 72 * (l as i64 / 8) + 1152 * k - 560)
        };
        let half_rows = |k: i64| LaneClasses {
            exact: Some(tile(k)),
            key: 0x10,
            bits: KnownBits::UNKNOWN,
        };
        let mut moved = 0;
        for (bounds, cong) in [((0, 1020), (4, 0)), ((i64::MIN, i64::MAX), (576, 0))] {
            for bytes in [4, 8, 16] {
                let base =
                    classed_cost_drawn(&[0, 64], bounds, cong, &half_rows(0), u32::MAX, bytes);
                for k in [1, 7, -3] {
                    let c = half_rows(k);
                    let n = c.normalized();
                    assert_ne!(c.exact, half_rows(0).exact);
                    // Moved by whole lines, lane 0 into the first line.
                    let (ce, ne) = (c.exact.unwrap(), n.exact.unwrap());
                    assert!((0..LINE).contains(&ne[0]), "{ne:?}");
                    assert!((0..WARP).all(|l| (ce[l] - ne[l]) % LINE == 0));
                    assert_eq!(n.exact, half_rows(0).normalized().exact);
                    moved += 1;
                    assert_eq!(
                        classed_cost_drawn(&[0, 64], bounds, cong, &c, u32::MAX, bytes),
                        base
                    );
                    assert_eq!(
                        classed_cost(&[0, 64], bounds, cong, &c, u32::MAX, bytes),
                        base
                    );
                    for op in [
                        crate::ir::AccessOp::Load,
                        crate::ir::AccessOp::Store,
                        crate::ir::AccessOp::Atomic,
                    ] {
                        for form in [
                            shared_atomic::SharedAtomicForm::Native,
                            shared_atomic::SharedAtomicForm::Aggregated,
                        ] {
                            let w = |c: &LaneClasses| {
                                ranged_mean(&[0, 64], bounds, cong, c, u32::MAX, |a| {
                                    shared_request_wavefronts(op, form, a, u32::MAX, bytes)
                                })
                            };
                            assert_eq!(w(&c), w(&half_rows(0)));
                            assert_eq!(w(&n), w(&half_rows(0)));
                        }
                    }
                }
            }
        }
        assert_eq!(moved, 18);
        // Far offsets are kept as they are.
        let far = LaneClasses {
            exact: Some(std::array::from_fn(|l| (l as i64) << 45)),
            ..LaneClasses::INDEPENDENT
        };
        assert_eq!(far.normalized().exact, far.exact);
    }

    /// The bitmap and hash-set counts of [`request_cost`] and
    /// [`shared_wavefronts`] are the sorted ones: addresses spread over a
    /// few bytes to far beyond [`SPAN_BITS`] (the hash set, and the sorting
    /// fallback for many sectors), negative ones, every width.
    #[test]
    fn bitmap_counts_are_the_sorted_ones() {
        let mut state = 7u64;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let (mut bitmap, mut hashed, mut sorted) = (0, 0, 0);
        for i in 0..20_000u64 {
            let spread = [4i64, 64, 512, 4096, 32_760, 32_800, 1 << 20, 1 << 40][(i % 8) as usize];
            let base = (next() % (1 << 30)) as i64 - (1 << 29);
            let bytes = [1u32, 2, 3, 4, 8, 12, 16, 32, 64, 600][(next() % 10) as usize];
            let active = match i % 3 {
                0 => u32::MAX,
                1 => next() as u32,
                _ => 1 << (next() % 32),
            };
            let addrs: Lanes = std::array::from_fn(|_| {
                let a = base + (next() % spread as u64) as i64;
                a - a.rem_euclid(i64::from(bytes.min(16)))
            });
            let span = addrs.iter().max().unwrap() - addrs.iter().min().unwrap();
            // Sectors touched, repeats counted (what picks the way).
            let touched: i64 = (0..WARP)
                .filter(|l| active & (1 << l) != 0)
                .map(|l| {
                    let a = addrs[l];
                    (a + i64::from(bytes) - 1).div_euclid(SECTOR) - a.div_euclid(SECTOR) + 1
                })
                .sum();
            if span / SECTOR < SPAN_BITS as i64 - 20 {
                bitmap += 1;
            } else if span / SECTOR > SPAN_BITS as i64 + 20 {
                if touched <= 256 {
                    hashed += 1;
                } else {
                    sorted += 1;
                }
            }
            assert_eq!(
                request_cost(&addrs, active, bytes),
                sorted_request_cost(&addrs, active, bytes),
                "{addrs:?} {active:#x} {bytes}"
            );
            for group in [4, 8, 16, 32] {
                assert_eq!(
                    shared_wavefronts_in_groups(&addrs, active, bytes, group),
                    sorted_wavefronts(&addrs, active, bytes, group),
                    "{addrs:?} {active:#x} {bytes} {group}"
                );
            }
        }
        // Every way of counting was taken.
        assert!(
            bitmap > 1000 && hashed > 1000 && sorted > 100,
            "{bitmap} {hashed} {sorted}"
        );
    }

    /// The draws are those of the first sampler (an `Option` per class,
    /// every modulo in 128 bits), value for value: the figures over them
    /// do not move with [`Modulus`].
    #[test]
    fn draws_are_the_reference_draws() {
        fn reference(
            residues: &[i64],
            bounds: (i64, i64),
            cong: (u64, i64),
            classes: &LaneClasses,
            mask: u32,
            n: usize,
        ) -> Vec<Lanes> {
            let Some(elements) = set_elements(bounds, cong, classes.bits) else {
                return vec![];
            };
            let count = elements.count();
            let key = (classes.key & 0x1f) as usize;
            let mut state = 0x9e37_79b9_7f4a_7c15u64;
            let mut next = move || {
                state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            };
            (0..n)
                .map(|_| {
                    let u = residues[(next() as u128 % residues.len() as u128) as usize] as i128;
                    let mut drawn: [Option<i128>; WARP] = [None; WARP];
                    std::array::from_fn(|l| {
                        if mask & (1 << l) == 0 {
                            return 0;
                        }
                        let k = *drawn[l & key]
                            .get_or_insert_with(|| (next() as u128 % count as u128) as i128);
                        (u + elements.at(k)) as i64 + classes.exact_at(l)
                    })
                })
                .collect()
        }
        let tile: Lanes = std::array::from_fn(|l| 8 * (l as i64 % 8) + 72 * (l as i64 / 8));
        let classes = [
            LaneClasses::INDEPENDENT,
            LaneClasses {
                exact: Some(tile),
                key: 0x1f,
                bits: KnownBits::UNKNOWN,
            },
            LaneClasses {
                exact: Some(tile),
                key: 0x10,
                bits: KnownBits::UNKNOWN,
            },
        ];
        let sets = [
            // 2^32 elements (a mask), 1,021 (a division), unbounded sides.
            ((-(1i64 << 31), (1i64 << 31) - 1), (1u64, 0i64)),
            ((0, 1020), (1, 0)),
            ((0, 1020), (4, 0)),
            ((i64::MIN, i64::MAX), (576, 0)),
            ((i64::MIN, 4096), (3, 1)),
        ];
        let mut compared = 0;
        for c in &classes {
            for &(bounds, cong) in &sets {
                for residues in [&[0i64][..], &[0, 16, 32, 48, 64, 80, 96, 112], &[8, 40, 72]] {
                    for mask in [u32::MAX, 0x00ff_ff00, 0x8000_0001] {
                        let got: Vec<Lanes> =
                            ranged_samples(residues, bounds, cong, c, mask, 64).collect();
                        assert_eq!(got, reference(residues, bounds, cong, c, mask, 64));
                        compared += got.len();
                    }
                }
            }
        }
        assert_eq!(compared, 3 * 5 * 3 * 3 * 64);
    }

    /// Draws stay in the set, follow the mask, and are reproducible.
    #[test]
    fn ranged_samples_draw_from_the_set() {
        let draw = || {
            ranged_samples(
                &[0, 64],
                (0, 1020),
                (4, 0),
                &LaneClasses::INDEPENDENT,
                0x0000_ffff,
                512,
            )
        };
        let a: Vec<Lanes> = draw().collect();
        assert_eq!(a.len(), 512);
        for s in &a {
            for (l, &x) in s.iter().enumerate() {
                if l < 16 {
                    let v = if x >= 64 && (x - 64) % 4 == 0 && x - 64 <= 1020 {
                        x - 64
                    } else {
                        x
                    };
                    assert!((0..=1020).contains(&v) && v % 4 == 0, "{x}");
                } else {
                    assert_eq!(x, 0);
                }
            }
        }
        assert_eq!(a, draw().collect::<Vec<_>>());
        assert_eq!(
            ranged_samples(&[0], (8, 4), (4, 0), &LaneClasses::INDEPENDENT, u32::MAX, 8).count(),
            0
        );
        assert_eq!(
            ranged_mean(
                &[0],
                (8, 4),
                (4, 0),
                &LaneClasses::INDEPENDENT,
                u32::MAX,
                |_| 1
            ),
            None
        );
    }

    fn affine(base: i64, stride: i64) -> Lanes {
        std::array::from_fn(|l| base + stride * l as i64)
    }

    #[test]
    fn coalesced_widths_match_the_h100_measurements() {
        // ground-truth.md: floats 1 line / 4 sectors, doubles 2 / 8, float4 4 / 16.
        assert_eq!(
            request_cost(&affine(0, 4), u32::MAX, 4),
            RequestCost {
                lines: 1,
                sectors: 4
            }
        );
        assert_eq!(
            request_cost(&affine(0, 8), u32::MAX, 8),
            RequestCost {
                lines: 2,
                sectors: 8
            }
        );
        assert_eq!(
            request_cost(&affine(0, 16), u32::MAX, 16),
            RequestCost {
                lines: 4,
                sectors: 16
            }
        );
        assert_eq!(
            request_cost(&affine(0, 32), u32::MAX, 32),
            RequestCost {
                lines: 8,
                sectors: 32
            }
        );
        assert_eq!(
            request_cost(&affine(0, 1), u32::MAX, 1),
            RequestCost {
                lines: 1,
                sectors: 1
            }
        );
        assert_eq!(
            request_cost(&affine(0, 2), u32::MAX, 2),
            RequestCost {
                lines: 1,
                sectors: 2
            }
        );
    }

    #[test]
    fn partial_warp_of_the_seed() {
        // seed 000: 10,000 floats, the last warp has 16 lanes: 2 sectors.
        assert_eq!(
            request_cost(&affine(9984 * 4, 4), 0xffff, 4),
            RequestCost {
                lines: 1,
                sectors: 2
            }
        );
        assert_eq!(ideal_sectors(16, 4), 2);
        assert_eq!(312 * 4 + 2, 1250);
    }

    #[test]
    fn broadcast_strided_and_misaligned() {
        assert_eq!(
            request_cost(&[20; WARP], u32::MAX, 4),
            RequestCost {
                lines: 1,
                sectors: 1
            }
        );
        // separateCacheLines (seed 001): one line per lane
        assert_eq!(
            request_cost(&affine(0, 128), u32::MAX, 16),
            RequestCost {
                lines: 32,
                sectors: 32
            }
        );
        // stride 2 floats: 8 sectors over 2 lines
        assert_eq!(
            request_cost(&affine(0, 8), u32::MAX, 4),
            RequestCost {
                lines: 2,
                sectors: 8
            }
        );
        // offset by one float: 5 sectors, 2 lines
        assert_eq!(
            request_cost(&affine(4, 4), u32::MAX, 4),
            RequestCost {
                lines: 2,
                sectors: 5
            }
        );
        assert_eq!(
            request_cost(&affine(0, 4), 0, 4),
            RequestCost {
                lines: 0,
                sectors: 0
            }
        );
    }

    #[test]
    fn residues_give_bounds_and_expectation() {
        // floats at an address known only ≡ 0 mod 4: 32 residues mod 128.
        let res: Vec<i64> = (0..32).map(|k| k * 4).collect();
        let r = cost_over_residues(&res, &affine(0, 4), u32::MAX, 4);
        assert_eq!(r.sectors_min, 4.0);
        assert_eq!(r.sectors_max, 5.0);
        // 4 of 32 residues are sector aligned
        assert!((r.sectors - (4.0 * 4.0 + 28.0 * 5.0) / 32.0).abs() < 1e-9);
        assert!((r.lines - (1.0 + 31.0 * 2.0) / 32.0).abs() < 1e-9);
    }

    #[test]
    fn random_bounds_contain_the_seed_measurement() {
        let r = random_cost(32, 4);
        // seed 000: 9,895 sectors over 313 requests ≈ 31.6 per request
        assert!(r.sectors_min <= 31.6 && 31.6 <= r.sectors_max);
        assert_eq!(random_cost(32, 64).sectors_max, 64.0);
    }

    /// Lanes that share a draw (`row = idx[j + (t >> 4)]; table[row * 16 +
    /// (t & 15)]`, uint4 elements, rows of 256 bytes aligned to 256): each
    /// half-warp reads one whole row, 2 lines and 8 sectors, and two rows of
    /// an unbounded table never share a line: 4 lines, 16 sectors (the H100
    /// measures 3.995 and 15.98, tests/hw/blind5 `cp_async_cg16_gather`).
    #[test]
    fn classes_of_lanes_draw_together() {
        let half_rows = LaneClasses {
            exact: Some(std::array::from_fn(|l| 16 * (l as i64 & 15))),
            key: 0x10,
            bits: KnownBits::UNKNOWN,
        };
        let c = classed_cost(
            &[0],
            (i64::MIN, i64::MAX),
            (256, 0),
            &half_rows,
            u32::MAX,
            16,
        );
        assert_eq!((c.lines, c.sectors), (4.0, 16.0));
        // bounds for any draw: a class fills 256 bytes (at least 8 sectors,
        // 2 lines), and at its known alignment spans no more
        assert_eq!((c.sectors_min, c.sectors_max), (8.0, 16.0));
        assert_eq!((c.lines_min, c.lines_max), (2.0, 4.0));
        // at an unknown alignment (rows 16 bytes apart) a class may span 9
        // sectors and 3 lines
        let c = classed_cost(
            &[0],
            (i64::MIN, i64::MAX),
            (16, 0),
            &half_rows,
            u32::MAX,
            16,
        );
        assert_eq!((c.sectors_max, c.lines_max), (18.0, 6.0));
        // one half-warp active: one row
        let c = classed_cost(&[0], (i64::MIN, i64::MAX), (256, 0), &half_rows, 0xffff, 16);
        assert_eq!((c.lines, c.sectors), (2.0, 8.0));
        // a table of two rows: both halves on one row with probability 1/2,
        // so 3 lines and 12 sectors expected (within the sampling error)
        let c = classed_cost(&[0], (0, 256), (256, 0), &half_rows, u32::MAX, 16);
        assert!(
            (c.lines - 3.0).abs() < 0.05 && (c.sectors - 12.0).abs() < 0.2,
            "{c:?}"
        );
        assert_eq!((c.lines_max, c.sectors_max), (4.0, 16.0));
        // independent lanes without an exact part: the sampled mean is the
        // closed form of `ranged_random_cost` (20.41 sectors, 7.89 lines)
        let k = ranged_random_cost(&[0], 0, 1020, 4, 0, 32, 4);
        let s = classed_cost(
            &[0],
            (0, 1020),
            (4, 0),
            &LaneClasses::INDEPENDENT,
            u32::MAX,
            4,
        );
        assert!((s.sectors - k.sectors).abs() < 0.05 && (s.lines - k.lines).abs() < 0.02);
        assert_eq!((s.sectors_min, s.sectors_max), (1.0, 32.0));
    }

    /// `cnt[(d & 7) * 256 + t]` (words; CUB's radix rank): the random part is
    /// a multiple of 1,024 bytes, so lane `t` stays on bank `t mod 32` and
    /// every draw is one wavefront (the H100 measures 1.000, tests/hw/blind5
    /// `cub_radix_rank` lines 418, 420, 444); drawn independently of the
    /// lane, the same set costs 3.5 expected.
    #[test]
    fn a_random_part_over_an_exact_lane_part_keeps_the_banks() {
        let lanes = LaneClasses {
            exact: Some(std::array::from_fn(|l| 4 * l as i64)),
            key: 0x1f,
            bits: KnownBits::UNKNOWN,
        };
        let w = ranged_mean(&[0], (0, 7168), (1024, 0), &lanes, u32::MAX, |a| {
            shared_wavefronts(a, u32::MAX, 4)
        });
        assert_eq!(w, Some(1.0));
        let flat = ranged_mean(
            &[0],
            (0, 7292),
            (4, 0),
            &LaneClasses::INDEPENDENT,
            u32::MAX,
            |a| shared_wavefronts(a, u32::MAX, 4),
        )
        .unwrap();
        assert!(flat > 3.0, "{flat}");
    }

    #[test]
    fn random_lanes_over_a_known_range() {
        // 32 lanes over a 1 KB table of floats aligned to 128 bytes: 32 sectors
        // and 8 lines, all equally likely: k·(1 - (1 - 1/k)^n).
        let r = ranged_random_cost(&[0], 0, 1020, 4, 0, 32, 4);
        let k = |k: f64, n: f64| k * (1.0 - (1.0 - 1.0 / k).powf(n));
        assert!((r.sectors - k(32.0, 32.0)).abs() < 1e-9, "{r:?}");
        assert!((r.lines - k(8.0, 32.0)).abs() < 1e-9);
        assert!((r.sectors - 20.414).abs() < 0.001);
        assert_eq!((r.sectors_min, r.sectors_max), (1.0, 32.0));
        assert_eq!((r.lines_min, r.lines_max), (1.0, 8.0));
        // 4 lanes: at most 4 sectors
        let r = ranged_random_cost(&[0], 0, 1020, 4, 0, 4, 4);
        assert_eq!(r.sectors_max, 4.0);
        assert!((r.sectors - k(32.0, 4.0)).abs() < 1e-9);
        // a base 64 bytes into a line: 9 lines, the two edge lines half as likely
        let r = ranged_random_cost(&[64], 0, 1020, 4, 0, 32, 4);
        let edge = 1.0 - (1.0 - 16.0 / 256.0f64).powi(32);
        let mid = 1.0 - (1.0 - 32.0 / 256.0f64).powi(32);
        assert!((r.lines - (2.0 * edge + 7.0 * mid)).abs() < 1e-9);
        // the mean over residues, the bounds over all of them
        let both = ranged_random_cost(&[0, 64], 0, 1020, 4, 0, 32, 4);
        let a = ranged_random_cost(&[0], 0, 1020, 4, 0, 32, 4);
        assert!((both.lines - (a.lines + r.lines) / 2.0).abs() < 1e-9);
        assert_eq!(both.lines_max, 9.0);
        // a huge range: the closed form with one sector per element
        let big = ranged_random_cost(&[0], 0, 1 << 40, 64, 0, 32, 4);
        let kk = ((1u64 << 34) + 1) as f64;
        assert!((big.sectors - k(kk, 32.0)).abs() < 1e-3);
        assert!(big.sectors > 31.99 && big.sectors_max == 32.0);
        // the closed form continues the enumeration: 4,096 floats (counted)
        // and 4,097 (closed form, whose edge line with one element counts as
        // a whole one) agree within the agreement test's 0.05
        let a = ranged_random_cost(&[0], 0, 4 * 4095, 4, 0, 32, 4);
        let b = ranged_random_cost(&[0], 0, 4 * 4096, 4, 0, 32, 4);
        assert!((a.sectors - b.sectors).abs() < 0.01 && (a.lines - b.lines).abs() < 0.05);
        // a single value: every lane on one element
        let one = ranged_random_cost(&[0], 8, 8, 1, 0, 32, 4);
        assert_eq!((one.sectors, one.sectors_max), (1.0, 1.0));
    }

    #[test]
    fn uncertain_lanes_take_part_with_probability_one_half() {
        // Two uncertain lanes beside one certain: the four subsets.
        let mut m = participation_masks(0b1, 0b110);
        m.sort_unstable();
        assert_eq!(m, vec![0b001, 0b011, 0b101, 0b111]);
        // Lanes 0 and 16 at words 0 and 32, one bank: 2 wavefronts when
        // both take part, 1 when one does, 0 when none: (0 + 1 + 1 + 2) / 4.
        let mut a = [0i64; WARP];
        a[16] = 128;
        let e = over_participation(0, 1 | 1 << 16, |m| shared_wavefronts(&a, m, 4) as f64);
        assert_eq!(e, 1.0);
        // 32 uncertain lanes on 16-byte strides (4-way conflicts with every
        // lane): the expected most lanes of 4 on one of 8 banks, each lane
        // with probability 1/2: sum over k of P(max > k) =
        // (1 - (1/16)^8) + (1 - (5/16)^8) + (1 - (11/16)^8) + (1 - (15/16)^8)
        // = 3.3534; 1,024 seeded draws estimate it within 0.05.
        let b: Lanes = std::array::from_fn(|l| 16 * l as i64);
        let e = over_participation(0, u32::MAX, |m| shared_wavefronts(&b, m, 4) as f64);
        assert!((e - 3.3534).abs() < 0.05, "{e}");
        assert_eq!(participation_masks(0, u32::MAX).len(), SUBSET_SAMPLES);
    }

    #[test]
    fn shared_bank_conflicts_match_the_h100_measurements() {
        // tests/hw/measured.json, smem_banks: s[lane] 1, s[2*lane] 2, s[32*lane] 32,
        // s[33*lane] 1, s[7] 1, float2 2, float4 4, (lane*4)%32 + lane/8 1.
        let all = u32::MAX;
        assert_eq!(shared_wavefronts(&affine(0, 4), all, 4), 1);
        assert_eq!(shared_wavefronts(&affine(0, 8), all, 4), 2);
        assert_eq!(shared_wavefronts(&affine(0, 128), all, 4), 32);
        assert_eq!(shared_wavefronts(&affine(0, 132), all, 4), 1);
        assert_eq!(shared_wavefronts(&[28; WARP], all, 4), 1);
        assert_eq!(shared_wavefronts(&affine(0, 8), all, 8), 2);
        assert_eq!(shared_wavefronts(&affine(0, 16), all, 16), 4);
        // 16-byte loads whose lane pairs share an address: half-warps
        // (tests/hw/blind2 nbody_tile: a broadcast LDS.128 is 2 wavefronts)
        assert_eq!(shared_load_wavefronts(&[48; WARP], all, 16), 2);
        assert_eq!(shared_load_wavefronts(&affine(0, 16), all, 16), 4);
        let pairs: Lanes = std::array::from_fn(|l| (l as i64 / 2) * 16);
        assert_eq!(shared_load_wavefronts(&pairs, all, 16), 2);
        // tid % 4 * 16: no pair shares an address, quarter-warps (4)
        let quad: Lanes = std::array::from_fn(|l| (l as i64 % 4) * 16);
        assert_eq!(shared_load_wavefronts(&quad, all, 16), 4);
        // a broadcast 8-byte load: one wavefront (tests/hw/blind
        // layernorm_welford LDS.64); two 8-byte words by half-warps in
        // different banks one too, in one bank 2, interleaved in one bank 4
        // (tests/hw/ldsprobe: two_halves_diffbank, two_halves_samebank,
        // two_interleaved_samebank)
        assert_eq!(shared_load_wavefronts(&[32; WARP], all, 8), 1);
        assert_eq!(shared_wavefronts(&[32; WARP], all, 8), 2);
        let two: Lanes = std::array::from_fn(|l| (l as i64 / 16) * 8);
        assert_eq!(shared_load_wavefronts(&two, all, 8), 1);
        let same_bank: Lanes = std::array::from_fn(|l| (l as i64 / 16) * 128);
        assert_eq!(shared_load_wavefronts(&same_bank, all, 8), 2);
        let interleaved: Lanes = std::array::from_fn(|l| (l as i64 % 2) * 128);
        assert_eq!(shared_load_wavefronts(&interleaved, all, 8), 4);
        assert_eq!(shared_wavefronts(&[48; WARP], all, 16), 4);
        let perm: Lanes = std::array::from_fn(|l| (((l * 4) % 32 + l / 8) * 4) as i64);
        assert_eq!(shared_wavefronts(&perm, all, 4), 1);
        assert_eq!(shared_wavefronts(&affine(0, 4), 0, 4), 0);
    }

    #[test]
    fn patterns() {
        let all = u32::MAX;
        assert_eq!(
            classify(&affine(0, 4), all, 4, 4.0, 4.0),
            (Pattern::Coalesced, Some(4))
        );
        assert_eq!(
            classify(&affine(0, 4), all, 4, 5.0, 4.0),
            (Pattern::Misaligned, Some(4))
        );
        assert_eq!(
            classify(&affine(0, 8), all, 4, 8.0, 4.0),
            (Pattern::Strided, Some(8))
        );
        assert_eq!(
            classify(&[0; WARP], all, 4, 1.0, 4.0),
            (Pattern::Broadcast, Some(0))
        );
        assert_eq!(
            classify(&affine(0, -4), all, 4, 4.0, 4.0),
            (Pattern::Coalesced, Some(-4))
        );
        let mut p = affine(0, 4);
        p.swap(0, 1);
        assert_eq!(classify(&p, all, 4, 4.0, 4.0), (Pattern::Coalesced, None));
        let scattered: Lanes = std::array::from_fn(|l| ((l * 17) % 32 * 64) as i64);
        assert_eq!(
            classify(&scattered, all, 4, 17.0, 4.0),
            (Pattern::Irregular, None)
        );
        // odd lanes only: contiguous layout with holes touches 4 sectors for 2 ideal
        assert_eq!(
            classify(&affine(0, 4), 0xaaaa_aaaa, 4, 4.0, 2.0),
            (Pattern::Strided, Some(4))
        );
        // the first 16 lanes: coalesced
        assert_eq!(
            classify(&affine(0, 4), 0xffff, 4, 2.0, 2.0),
            (Pattern::Coalesced, Some(4))
        );
    }

    #[test]
    fn shapes() {
        assert_eq!(shape(&affine(0, 4), u32::MAX), Shape::Affine(4));
        assert_eq!(shape(&[3; WARP], u32::MAX), Shape::Same);
        let mut p = affine(0, 4);
        p.swap(0, 1);
        assert_eq!(shape(&p, u32::MAX), Shape::Irregular);
        assert_eq!(shape(&p, 0b1), Shape::Same);
        assert_eq!(shape(&affine(0, 4), 0b1010_1010), Shape::Affine(4));
        assert_eq!(shape(&affine(0, -4), u32::MAX), Shape::Affine(-4));
    }
}
