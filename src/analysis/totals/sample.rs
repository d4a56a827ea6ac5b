//! Which blocks of a grid the launch simulation runs when it cannot run them
//! all, and what it says of the blocks it did not run.
//!
//! # Domain
//!
//! A block's contribution to the totals is its *delta*: the per-instruction
//! [`SimStats`] of its warps. The grid is split into **edge** blocks (the
//! first block, and the last in each dimension of more than one block: where
//! tails, partial tiles and `blockIdx == 0` work live), which are always
//! simulated first and exactly, and **interior** blocks, ordered by linear
//! block id. The sampler keeps, for every interior block it ran, the block's
//! *request signature* (requests per instruction, interned), and the sum and
//! count of the deltas of each signature.
//!
//! # Order
//!
//! 1. The edge blocks, by stratum (block 0; each combination of the last
//!    column, row and plane it lies on): the small strata
//!    ([`SMALL_STRATUM`] blocks or fewer: block 0, corners) whole, first;
//!    then the others in a spread order, all of them while they are
//!    expected to fit in nine tenths of the work budget at the mean cost of
//!    those run so far, else (when the grid has interior blocks) until half
//!    the budget is used. A grid of two columns of programs (`ctaid.y` in
//!    `0..2`, the second masked at a row's tail) has half its blocks on an
//!    edge, and they must not eat the whole budget.
//! 2. The interior in a spread order (a step coprime with the block count,
//!    near `n / φ`), until three quarters of the work budget are used: a
//!    low-discrepancy sample of the whole interior.
//! 3. Bisection: of the gaps between neighbouring sampled blocks whose request
//!    signatures differ, the widest is split at its middle block, until the
//!    budget is used or no such gap has a block left in it; then the spread
//!    order goes on. A grid-stride loop whose last trip runs in blocks
//!    `0..k` only, persistent programs of which the first `k` take one more
//!    tile, a causal mask's staircase: the block where the count changes is
//!    found in `log2(gap)` more blocks.
//!
//! # Estimate
//!
//! When every edge block ran, they count exactly; when the budget stopped
//! them first, each edge stratum stands at the mean of its blocks run (the
//! spread order makes them a sample of it; block 0 and the other small
//! strata ran whole, so they count exactly), and the interior is estimated
//! as below.
//!
//! The blocks run are grouped by request signature. Every interior block that
//! was not run is counted in the group of its nearest run neighbour in
//! block order: in a gap whose two ends have equal signatures every block
//! joins that group; in a gap whose ends differ, the first half joins the
//! lower end's and the rest the upper end's (blocks before the first sample
//! join the first's, after the last the last's). Each group then stands for
//! its count of blocks at the mean of its run blocks' deltas. When every
//! block of the grid ran, the estimate is the exact sum. Request counts are
//! exact for per-block request counts that are piecewise constant in the
//! block id with their changes found by the bisection (the grid-stride
//! shapes above). In a grid of several dimensions whose run blocks'
//! signatures are seen to be a function of one coordinate (at least two run
//! blocks per value on average, none in conflict: a causal mask's
//! `ctaid.x`, equal in every head), every block joins the group of its
//! coordinate instead, which is exact for such grids; per-request figures that change from block to block at
//! equal request counts (each block's rows at another alignment) are the
//! group's sample mean, as a scaled sample gives them.
//!
//! # Limits
//!
//! At most [`MAX_DISTINCT`] distinct signatures and [`MAX_SAMPLES`] run interior
//! blocks are remembered; past either, the sampler stops remembering and the
//! interior is its sample's sum scaled to the interior's size (the estimate
//! before bisection was added), which is bounded in memory for any grid.

use super::SimStats;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

/// Edge strata: the eight combinations of the last column, row and plane,
/// and block 0.
const STRATA: usize = 9;
/// Edge strata of at most this many blocks run whole before any other edge
/// block (block 0, corners, the last column of a grid of few rows).
pub const SMALL_STRATUM: u64 = 8;

/// Distinct interior request signatures remembered at most.
pub const MAX_DISTINCT: usize = 1024;
/// Interior blocks remembered at most.
pub const MAX_SAMPLES: usize = 1 << 20;
/// Grids of at most this many blocks have their edge blocks found by a scan
/// (larger ones have none apart: every block is interior).
pub const EDGE_SCAN_MAX: u64 = 1 << 22;

/// Per-instruction statistics of one block (or of a sum of blocks).
pub type Delta = HashMap<u32, SimStats>;

/// Chooses the blocks to run and estimates the grid from them.
pub struct Sampler {
    grid: [u64; 3],
    nblocks: u64,
    /// Sorted edge block ids.
    edges: Vec<u64>,
    /// The edge blocks in the order they run: those of the small strata
    /// ([`SMALL_STRATUM`]) first, by id, then the others.
    edge_order: Vec<u64>,
    /// Edge blocks of the small strata (a prefix of `edge_order`).
    small_edges: usize,
    /// Edge blocks handed out so far (the position in `edge_order`; past
    /// `small_edges` the others go in a spread order).
    next_edge: usize,
    /// The stride of the large strata's spread order (coprime with their number).
    edge_step: u64,
    /// Per edge stratum ([`Sampler::stratum`]): its blocks, the sum of those
    /// run and their number.
    strata: Vec<(u64, Delta, u64)>,
    /// Position in the spread order.
    spread_k: u64,
    step: u64,
    /// Edge blocks run (their sums are per stratum, `strata`).
    edges_done: usize,
    /// Sum and count of the interior blocks run (the fallback estimate).
    interior_sum: Delta,
    interior_done: u64,
    /// Interior blocks run, with their signature ids.
    samples: BTreeMap<u64, u32>,
    /// Interned request signatures.
    signatures: HashMap<Vec<(u32, u64)>, u32>,
    /// Per signature id: the sum of its blocks' deltas and their number.
    groups: Vec<(Delta, u64)>,
    /// Gaps between neighbouring samples whose signatures differ: (width,
    /// lower id, upper id), widest first; stale entries are skipped.
    gaps: BinaryHeap<(u64, u64, u64)>,
    /// Past the memory limits: the interior is a scaled sample.
    fallback: bool,
}

impl Sampler {
    /// A sampler of a grid of `grid` blocks.
    pub fn new(grid: [u64; 3]) -> Sampler {
        let [gx, gy, gz] = grid.map(|d| d.max(1));
        let nblocks = gx.saturating_mul(gy).saturating_mul(gz);
        let mut s = Sampler {
            grid: [gx, gy, gz],
            nblocks,
            edges: Vec::new(),
            edge_order: Vec::new(),
            small_edges: 0,
            next_edge: 0,
            edge_step: 1,
            strata: (0..STRATA).map(|_| (0, Delta::new(), 0)).collect(),
            spread_k: 0,
            step: spread_step(nblocks),
            edges_done: 0,
            interior_sum: Delta::new(),
            interior_done: 0,
            samples: BTreeMap::new(),
            signatures: HashMap::new(),
            groups: Vec::new(),
            gaps: BinaryHeap::new(),
            fallback: false,
        };
        if nblocks <= EDGE_SCAN_MAX {
            s.edges = (0..nblocks).filter(|&b| s.is_edge(b)).collect();
            for i in 0..s.edges.len() {
                let st = s.stratum(s.edges[i]);
                s.strata[st].0 += 1;
            }
            let (mut order, large): (Vec<u64>, Vec<u64>) = s
                .edges
                .iter()
                .partition(|b| s.strata[s.stratum(**b)].0 <= SMALL_STRATUM);
            s.small_edges = order.len();
            s.edge_step = spread_step(large.len() as u64);
            order.extend(large);
            s.edge_order = order;
        }
        s
    }

    /// Blocks in the grid.
    pub fn nblocks(&self) -> u64 {
        self.nblocks
    }

    /// The block's `%ctaid`.
    pub fn ctaid(&self, bid: u64) -> [i64; 3] {
        let [gx, gy, _] = self.grid;
        [
            (bid % gx) as i64,
            ((bid / gx) % gy) as i64,
            (bid / (gx * gy)) as i64,
        ]
    }

    /// The edge stratum of edge block `bid`: block 0 alone, else which of
    /// the last column, row and plane it lies on (a corner is a stratum of
    /// its own).
    fn stratum(&self, bid: u64) -> usize {
        if bid == 0 {
            return STRATA - 1;
        }
        let [gx, gy, gz] = self.grid;
        let (x, y, z) = (bid % gx, (bid / gx) % gy, bid / (gx * gy));
        usize::from(x == gx - 1)
            | usize::from(gy > 1 && y == gy - 1) << 1
            | usize::from(gz > 1 && z == gz - 1) << 2
    }

    fn is_edge(&self, bid: u64) -> bool {
        if self.nblocks > EDGE_SCAN_MAX {
            return false;
        }
        let [gx, gy, gz] = self.grid;
        let (x, y, z) = (bid % gx, (bid / gx) % gy, bid / (gx * gy));
        bid == 0 || x == gx - 1 || (gy > 1 && y == gy - 1) || (gz > 1 && z == gz - 1)
    }

    /// Interior blocks with ids in `lo..hi`.
    fn interior_in(&self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return 0;
        }
        let a = self.edges.partition_point(|&e| e < lo);
        let b = self.edges.partition_point(|&e| e < hi);
        (hi - lo) - (b - a) as u64
    }

    /// The next block to run, given the warp instructions `used` of a
    /// `budget`; `None` when every block ran.
    pub fn next(&mut self, used: u64, budget: u64) -> Option<u64> {
        if self.next_edge < self.small_edges {
            self.next_edge += 1;
            return Some(self.edge_order[self.next_edge - 1]);
        }
        let has_interior = self.nblocks > self.edges.len() as u64;
        if self.next_edge < self.edges.len()
            && (!has_interior || self.edges_fit(used, budget) || used < budget / 2)
        {
            let large = (self.edges.len() - self.small_edges) as u128;
            let k = (self.next_edge - self.small_edges) as u128;
            let i = self.small_edges + (k * self.edge_step as u128 % large) as usize;
            self.next_edge += 1;
            return Some(self.edge_order[i]);
        }
        if !self.fallback && used >= budget / 4 * 3 {
            while let Some((_, lo, hi)) = self.gaps.pop() {
                if let Some(mid) = self.split_point(lo, hi) {
                    return Some(mid);
                }
            }
        }
        while self.spread_k < self.nblocks {
            let b = (self.spread_k as u128 * self.step as u128 % self.nblocks as u128) as u64;
            self.spread_k += 1;
            if !self.is_edge(b) && !self.samples.contains_key(&b) {
                return Some(b);
            }
        }
        None
    }

    /// Whether all the edge blocks are expected to fit in nine tenths of the
    /// budget, at the mean cost of those run so far (yes before any ran).
    fn edges_fit(&self, used: u64, budget: u64) -> bool {
        self.edges_done == 0
            || used as u128 * self.edges.len() as u128
                <= (budget / 10 * 9) as u128 * self.edges_done as u128
    }

    /// An interior block not yet run near the middle of the gap `lo..hi`
    /// whose ends are still neighbours.
    fn split_point(&self, lo: u64, hi: u64) -> Option<u64> {
        if hi <= lo + 1 || self.samples.range(lo + 1..hi).next().is_some() {
            return None;
        }
        let mid = lo + (hi - lo) / 2;
        // Edge blocks are rare in block order but for the last row or
        // plane: look a bounded way on either side.
        (0..64u64)
            .flat_map(|d| [mid.checked_add(d), mid.checked_sub(d + 1)])
            .flatten()
            .find(|&b| b > lo && b < hi && !self.is_edge(b))
    }

    /// Records the delta of block `bid`, which ran whole.
    pub fn record(&mut self, bid: u64, delta: Delta) {
        if self.is_edge(bid) {
            self.edges_done += 1;
            let st = self.stratum(bid);
            let (_, sum, run) = &mut self.strata[st];
            add_into(sum, &delta, 1);
            *run += 1;
            return;
        }
        add_into(&mut self.interior_sum, &delta, 1);
        self.interior_done += 1;
        if self.fallback {
            return;
        }
        let mut key: Vec<(u32, u64)> = delta.iter().map(|(k, s)| (*k, s.requests)).collect();
        key.sort_unstable();
        if self.samples.len() >= MAX_SAMPLES
            || (self.groups.len() >= MAX_DISTINCT && !self.signatures.contains_key(&key))
        {
            self.fallback = true;
            self.samples = BTreeMap::new();
            self.signatures = HashMap::new();
            self.groups = Vec::new();
            self.gaps = BinaryHeap::new();
            return;
        }
        let n = self.signatures.len() as u32;
        let sig = *self.signatures.entry(key).or_insert(n);
        if sig as usize == self.groups.len() {
            self.groups.push((Delta::new(), 0));
        }
        let g = &mut self.groups[sig as usize];
        add_into(&mut g.0, &delta, 1);
        g.1 += 1;
        self.samples.insert(bid, sig);
        let below = self.samples.range(..bid).next_back().map(|(b, v)| (*b, *v));
        let above = self.samples.range(bid + 1..).next().map(|(b, v)| (*b, *v));
        for (lo, hi, a, b) in [
            below.map(|(b, v)| (b, bid, v, sig)),
            above.map(|(b, v)| (bid, b, sig, v)),
        ]
        .into_iter()
        .flatten()
        {
            if a != b && hi > lo + 1 {
                self.gaps.push((hi - lo, lo, hi));
            }
        }
    }

    /// The estimate: (statistics of the grid, blocks run, whether the
    /// statistics stand for the whole grid). When no edge block ran, or the
    /// edge blocks did not all run and no interior block did while the grid
    /// has some, the statistics are the sum of the blocks run and the caller
    /// scales them.
    pub fn finish(self) -> (Delta, u64, bool) {
        let done = self.edges_done as u64 + self.interior_done;
        let n_int = self.nblocks - self.edges.len() as u64;
        let mut all = Delta::new();
        for (_, sum, _) in &self.strata {
            add_into(&mut all, sum, 1);
        }
        if self.edges_done < self.edges.len() {
            if (n_int > 0 && self.interior_done == 0) || self.edges_done == 0 {
                add_into(&mut all, &self.interior_sum, 1);
                return (all, done, false);
            }
            // Each edge stratum stands at the mean of its blocks run (a
            // spread sample of it); one with none run, at the mean of all
            // the edge blocks run.
            let mean = 1.0 / self.edges_done as f64;
            let mut est = Delta::new();
            for (size, sum, run) in self.strata.iter().filter(|s| s.0 > 0) {
                match *run {
                    0 => add_scaled(&mut est, &all, *size as f64 * mean),
                    r => add_scaled(&mut est, sum, *size as f64 / r as f64),
                }
            }
            all = est;
        }
        if n_int == 0 {
            return (all, done, true);
        }
        if self.interior_done == 0 {
            // No interior block fitted the budget: scale everything.
            return (all, done, false);
        }
        if self.interior_done == n_int {
            add_into(&mut all, &self.interior_sum, 1);
            return (all, done, true);
        }
        if self.fallback {
            let f = n_int as f64 / self.interior_done as f64;
            add_scaled(&mut all, &self.interior_sum, f);
            return (all, done, true);
        }
        let times = self.by_coordinate().unwrap_or_else(|| self.by_neighbours());
        for ((sum, run), t) in self.groups.iter().zip(times) {
            add_scaled(&mut all, sum, t as f64 / *run as f64);
        }
        (all, done, true)
    }

    /// Blocks per group in a grid of several dimensions whose run blocks'
    /// signatures are a function of one block coordinate (a causal mask's
    /// `ctaid.x`, the same in every head `ctaid.y`): every block joins the
    /// group of its coordinate. The function must be seen, not assumed: at
    /// least two run blocks per coordinate value on average, no two with one
    /// value in different groups, and every value of the blocks not run seen.
    fn by_coordinate(&self) -> Option<Vec<u64>> {
        if self.nblocks > EDGE_SCAN_MAX {
            return None;
        }
        let [gx, gy, _] = self.grid;
        let coord = |b: u64, d: usize| match d {
            0 => b % gx,
            1 => (b / gx) % gy,
            _ => b / (gx * gy),
        };
        'dims: for d in 0..3 {
            let g = self.grid[d];
            if g <= 1 || g == self.nblocks {
                continue;
            }
            let mut of = vec![u32::MAX; g as usize];
            let mut values = 0u64;
            for (&b, &sig) in &self.samples {
                let c = coord(b, d) as usize;
                if of[c] == u32::MAX {
                    of[c] = sig;
                    values += 1;
                } else if of[c] != sig {
                    continue 'dims;
                }
            }
            if (self.samples.len() as u64) < 2 * values {
                continue;
            }
            let mut times = vec![0u64; self.groups.len()];
            for b in 0..self.nblocks {
                if self.is_edge(b) {
                    continue;
                }
                let sig = of[coord(b, d) as usize];
                if sig == u32::MAX {
                    continue 'dims;
                }
                times[sig as usize] += 1;
            }
            return Some(times);
        }
        None
    }

    /// Blocks per group: the run ones and those nearest to them in block order.
    fn by_neighbours(&self) -> Vec<u64> {
        let mut times = vec![0u64; self.groups.len()];
        let mut prev: Option<(u64, u32)> = None;
        for (&bid, &id) in &self.samples {
            times[id as usize] += 1;
            match prev {
                None => times[id as usize] += self.interior_in(0, bid),
                Some((pb, pid)) => {
                    let k = self.interior_in(pb + 1, bid);
                    let lower = if pid == id { k } else { k / 2 };
                    times[pid as usize] += lower;
                    times[id as usize] += k - lower;
                }
            }
            prev = Some((bid, id));
        }
        if let Some((pb, pid)) = prev {
            times[pid as usize] += self.interior_in(pb + 1, self.nblocks);
        }
        times
    }
}

fn add_into(all: &mut Delta, d: &Delta, times: u64) {
    if times == 0 {
        return;
    }
    for (k, st) in d {
        let e = all.entry(*k).or_default();
        if times == 1 {
            e.add(st);
        } else {
            e.add(&st.times(times));
        }
    }
}

/// Adds `d` scaled by `f` (exactly when `f` is 1: a count over a count
/// equal to it) into `all`.
fn add_scaled(all: &mut Delta, d: &Delta, f: f64) {
    if f == 1.0 {
        return add_into(all, d, 1);
    }
    for (k, st) in d {
        all.entry(*k).or_default().add(&st.scaled(f));
    }
}

/// A step coprime with `n`, near `n / φ`: the spread order's stride.
fn spread_step(n: u64) -> u64 {
    if n <= 1 {
        return 1;
    }
    let mut s = ((n as f64) * 0.618_033_988_75) as u64 | 1;
    while gcd(s, n) != 1 {
        s += 1;
    }
    s
}

pub(super) fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(requests: u64) -> Delta {
        let mut d = Delta::new();
        d.insert(
            7,
            SimStats {
                requests,
                sectors: requests as f64 * 4.0,
                ..SimStats::default()
            },
        );
        d
    }

    /// Runs a sampler over a grid whose block `b` issues `f(b)` requests,
    /// each block costing `cost` warp instructions of `budget`.
    fn run(grid: u64, cost: u64, budget: u64, f: impl Fn(u64) -> u64) -> (u64, u64, bool) {
        let mut s = Sampler::new([grid, 1, 1]);
        let mut used = 0;
        while used < budget {
            let Some(b) = s.next(used, budget) else { break };
            s.record(b, block(f(b)));
            used += cost;
        }
        let (all, done, whole) = s.finish();
        (all.get(&7).map_or(0, |s| s.requests), done, whole)
    }

    #[test]
    fn a_grid_that_fits_is_exact() {
        let (r, done, whole) = run(100, 1, 1000, |b| b % 7);
        assert_eq!(r, (0..100).map(|b| b % 7).sum::<u64>());
        assert_eq!(done, 100);
        assert!(whole);
    }

    /// A grid-stride loop whose last trip runs in blocks 0..645 of 1,024
    /// (`black_scholes` of tests/hw/blind2): 8 requests there, 7 after. With
    /// a budget of 300 blocks the bisection finds block 645 and the
    /// estimate is exact: 645 · 8 + 379 · 7 = 7,813.
    #[test]
    fn bisection_finds_a_step() {
        let (r, done, whole) = run(1024, 1, 300, |b| if b < 645 { 8 } else { 7 });
        assert_eq!(r, 645 * 8 + 379 * 7);
        assert!(done < 1024);
        assert!(whole);
    }

    /// Two steps (persistent programs taking 16, 15, then 14 tiles).
    #[test]
    fn bisection_finds_two_steps() {
        let f = |b: u64| match b {
            0..=135 => 16,
            136..=900 => 15,
            _ => 14,
        };
        let (r, _, _) = run(5000, 1, 400, f);
        assert_eq!(r, (0..5000).map(f).sum::<u64>());
    }

    /// A linear staircase (a causal mask: block b runs b / 8 + 1 tiles) is
    /// not piecewise constant at the sample's scale: the estimate is close,
    /// not exact (within 1%).
    #[test]
    fn a_staircase_is_close() {
        let f = |b: u64| b / 8 + 1;
        let exact: u64 = (0..4096).map(f).sum();
        let (r, _, _) = run(4096, 1, 500, f);
        let err = (r as f64 - exact as f64).abs() / exact as f64;
        assert!(err < 0.01, "{r} for {exact}");
    }

    /// Blocks of equal request counts whose sectors change with the block
    /// (rows at another alignment in every block) stand for the blocks near
    /// them at their group's mean: the estimate is the sample's mean scaled,
    /// not a gap-weighted one. Block b: 4 requests of 4 + (b mod 5) sectors.
    #[test]
    fn equal_counts_keep_the_sample_mean() {
        let mut s = Sampler::new([1000, 1, 1]);
        let (mut used, budget) = (0, 300);
        let (mut sum, mut n) = (0.0, 0u64);
        while used < budget {
            let Some(b) = s.next(used, budget) else { break };
            let mut d = block(4);
            let sectors = 4.0 + (b % 5) as f64;
            d.get_mut(&7).unwrap().sectors = sectors;
            if b != 0 && b != 999 {
                sum += sectors;
                n += 1;
            }
            s.record(b, d);
            used += 1;
        }
        let (all, _, _) = s.finish();
        assert_eq!(all[&7].requests, 4000);
        let expect = 4.0 + 8.0 + sum / n as f64 * 998.0;
        assert!(
            (all[&7].sectors - expect).abs() < 1e-6,
            "{}",
            all[&7].sectors
        );
    }

    /// A causal grid of 16 query blocks (x) by 8 heads (y): block (x, y)
    /// runs x + 1 tiles in every head. With half the grid run, every block
    /// joins the group of its x: exact.
    #[test]
    fn a_function_of_one_coordinate_is_exact() {
        let mut s = Sampler::new([16, 8, 1]);
        let (mut used, budget) = (0, 70);
        while used < budget {
            let Some(b) = s.next(used, budget) else { break };
            s.record(b, block(b % 16 + 1));
            used += 1;
        }
        let (all, done, whole) = s.finish();
        assert!(done < 128 && whole);
        assert_eq!(all[&7].requests, 8 * (1..=16).sum::<u64>());
    }

    /// Past the limit of distinct signatures the interior is a scaled sample.
    #[test]
    fn many_distinct_deltas_fall_back_to_scaling() {
        let n = (MAX_DISTINCT as u64) * 3;
        let (r, done, whole) = run(n, 1, (MAX_DISTINCT as u64) * 2, |b| b);
        assert!(done < n);
        assert!(whole);
        let exact = n * (n - 1) / 2;
        let err = (r as f64 - exact as f64).abs() / exact as f64;
        assert!(err < 0.01, "{r} for {exact}");
    }

    /// The edge blocks run first, block 0 the first of them, and the
    /// interior estimate leaves them out.
    #[test]
    fn edges_run_first_and_exactly() {
        let mut s = Sampler::new([4, 3, 1]);
        let mut first: Vec<u64> = (0..7).map(|_| s.next(0, 100).unwrap()).collect();
        assert_eq!(first[0], 0);
        first.sort_unstable();
        assert_eq!(first, vec![0, 3, 7, 8, 9, 10, 11]);
        assert_eq!(s.interior_in(0, 12), 5);
    }

    /// A grid of 2,048 rows by two programs a row (`t8_causal_conv1d` of
    /// tests/hw/blind8: the second program of a row masked, 15.25 sectors a
    /// request against 16 for the first): every block of the second column
    /// is an edge block. With a budget of 1,000 blocks the edges get half,
    /// spread over the column, and stand for it at their mean; the interior
    /// gets the rest. Block 0, the first column's last block and the corner
    /// are small strata run whole, so the estimate is exact: 2,048 · 4 · 16
    /// sectors and 2,048 · 4 · 15.25 more. Before, the edge blocks alone were
    /// run and scaled to the whole grid: 15.25 a request, 4.7% under.
    #[test]
    fn a_large_edge_stratum_leaves_budget_to_the_interior() {
        let mut s = Sampler::new([2048, 2, 1]);
        let (mut used, budget) = (0, 1000);
        while used < budget {
            let Some(b) = s.next(used, budget) else { break };
            let mut d = block(4);
            d.get_mut(&7).unwrap().sectors = if b >= 2048 { 61.0 } else { 64.0 };
            s.record(b, d);
            used += 1;
        }
        let (all, done, whole) = s.finish();
        assert!(done < 4096 && whole);
        assert_eq!(all[&7].requests, 4096 * 4);
        let exact = 2048.0 * 64.0 + 2048.0 * 61.0;
        assert!(
            (all[&7].sectors - exact).abs() < 1e-6,
            "{} for {exact}",
            all[&7].sectors
        );
    }

    /// Edge blocks that fit in nine tenths of the budget all run, even past
    /// its half (`mmq_q8_0_tile` of tests/hw/blind6: 29 x 2 blocks, 31 of
    /// them on an edge).
    #[test]
    fn edges_that_fit_all_run() {
        let mut s = Sampler::new([29, 2, 1]);
        let (mut used, budget) = (0, 40);
        let mut seen = Vec::new();
        while used < budget {
            let Some(b) = s.next(used, budget) else { break };
            s.record(b, block(1));
            seen.push(b);
            used += 1;
        }
        let edges: Vec<u64> = (0..58).filter(|&b| s.is_edge(b)).collect();
        assert_eq!(edges.len(), 31);
        assert!(edges.iter().all(|e| seen[..31].contains(e)));
    }

    /// Work only block 0 does (an init) counts once when the edge strata
    /// are sampled: block 0 is a stratum of its own, run whole.
    #[test]
    fn block_zero_is_not_scaled_with_the_edges() {
        let mut s = Sampler::new([2048, 2, 1]);
        let (mut used, budget) = (0, 1000);
        while used < budget {
            let Some(b) = s.next(used, budget) else { break };
            let mut d = block(4);
            if b == 0 {
                d.insert(
                    9,
                    SimStats {
                        requests: 1,
                        ..SimStats::default()
                    },
                );
            }
            s.record(b, d);
            used += 1;
        }
        let (all, done, whole) = s.finish();
        assert!(done < 4096 && whole);
        assert_eq!(all[&9].requests, 1);
    }

    /// A grid with no interior (one column) is not held to half the budget.
    #[test]
    fn a_grid_of_edges_uses_the_whole_budget() {
        let mut s = Sampler::new([1, 1000, 1]);
        let (mut used, budget) = (0, 800);
        while used < budget {
            let Some(_) = s.next(used, budget) else { break };
            used += 1;
        }
        assert_eq!(used, 800);
    }

    #[test]
    fn blocks_are_visited_once_each() {
        for grid in [
            [1u64, 1, 1],
            [2, 1, 1],
            [7, 1, 1],
            [79, 1, 1],
            [128, 1, 1],
            [10, 7, 3],
        ] {
            let mut s = Sampler::new(grid);
            let mut seen = Vec::new();
            while let Some(b) = s.next(0, u64::MAX) {
                seen.push(b);
                s.record(b, block(b % 3));
            }
            let n = grid.iter().product::<u64>();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len() as u64, n);
            let (all, done, _) = s.finish();
            assert_eq!(done, n);
            assert_eq!(all[&7].requests, (0..n).map(|b| b % 3).sum::<u64>());
        }
    }
}
