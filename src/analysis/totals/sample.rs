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
//! block id. Blocks whose fate a block-uniform guard decides before they
//! run ([`super::exits`], for grids of at most [`EDGE_SCAN_MAX`] blocks)
//! are set apart: **idle** blocks (they leave with no memory work: a
//! triangular grid's upper half) are neither edge nor interior blocks, are
//! never run and count as empty, exactly; blocks that **exit** after
//! memory work are an edge stratum of their own (never a neighbour of a
//! working block in the estimate below), and so are the working blocks of
//! each *guard class* (blocks whose block-uniform branch guards decide
//! otherwise than in most working blocks: a diagonal tile of a triangular
//! grid, `if (bx != by)`; [`super::exits::Fates::guard_class`]), split
//! like the grid's edges by the last column, row and plane. The interior is then the working
//! blocks only, so its spread order, bisection, classes and neighbours are
//! among those. The sampler keeps, for every interior block it ran, the block's
//! *request signature* (requests per instruction, interned), and the sum and
//! count of the deltas of each signature.
//!
//! # Order
//!
//! 1. The edge blocks of the small strata ([`SMALL_STRATUM`] blocks or
//!    fewer: block 0, corners; strata are block 0 and each combination of
//!    the last column, row and plane a block lies on), whole.
//! 2. The probe blocks (interior): the base block (coordinate 1 along each
//!    dimension of three blocks or more, else 0; in a grid with idle blocks,
//!    the first interior block from there in block order whose steps are
//!    interior too) and the block one step from it along each dimension of
//!    four blocks or more (when it is interior). The simulation
//!    records, for each instruction, the address of the lowest known lane
//!    of its first request ([`Firsts`]); they set the residue classes
//!    below.
//! 3. The other edge blocks in a spread order, all of them while they are
//!    expected to fit in nine tenths of the work budget at the mean cost of
//!    those run so far, else (when the grid has interior blocks) until half
//!    the budget is used. A grid of two columns of programs (`ctaid.y` in
//!    `0..2`, the second masked at a row's tail) has half its blocks on an
//!    edge, and they must not eat the whole budget.
//! 4. The class cover: in the interior's spread order (below), a block of
//!    every residue class none of whose blocks ran.
//! 5. The interior in a spread order (a step coprime with the block count,
//!    near `n / φ`): a low-discrepancy sample of the whole interior. From
//!    half the budget on, the cell cover first: for every cell (below) with
//!    blocks not run and none run, its middle block not run; the cells are
//!    listed again when the list is used up and blocks ran since, at most
//!    [`CELL_ROUNDS`] times.
//! 6. From three quarters of the budget on: the cell cover (as many rounds
//!    more), then bisection: of the gaps between neighbouring sampled
//!    blocks whose request signatures differ, the widest is split at its
//!    middle block, until the budget is used or no such gap has a block
//!    left in it; then the cell cover (as many rounds more) and the spread
//!    order go on. A grid-stride loop whose last trip runs in blocks `0..k`
//!    only, persistent programs of which the first `k` take one more tile, a
//!    causal mask's staircase: the block where the count changes is found in
//!    `log2(gap)` more blocks.
//!
//! # Residue classes
//!
//! A block's sectors and lines depend on where its addresses fall mod 128
//! (the L1 line; sectors are 32 bytes of it): a row of 8,200 bytes starts at
//! another offset mod 128 in each block. Where an address is `A + s ·
//! ctaid.d` (plus terms that do not depend on the block), its residue mod
//! 128 repeats every `128 / gcd(s mod 128, 128)` blocks along `d`: the
//! period, a power of two. The stride `s` of each instruction is read off
//! the probes (the first known address in the block one step along `d`
//! less that in the base block, the same lane in both; instructions whose
//! lane differs, or that only one of them issues, are left out), and the
//! period along `d` is the largest of the instructions'. Coordinate 0 along
//! a dimension of three blocks or more is a class of its own (a clamped
//! window's first row or column: the last is an edge block already). A
//! block's class is, along each dimension, its coordinate mod the period
//! (or "first"). The classes that hold interior blocks are held to a third
//! of the blocks the budget is expected to run (at the mean cost of those
//! run so far) and to [`MAX_CLASSES`]: the longest period is halved until
//! they fit (coarser classes are unions of finer ones, still classes), and
//! coordinate 0 loses its class last. The classes are counted exactly over
//! the interior. A grid of more than 64 times the blocks the budget is
//! expected to run has one class (its walks, a few per cover round, would
//! cost more than its few samples tell).
//!
//! # Estimate
//!
//! Idle blocks count as empty. When every edge block ran, they count exactly; when the budget stopped
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
//! blocks per value on average, none in conflict, every value of the
//! interior seen: a causal mask's `ctaid.x`, equal in every head; with one
//! group, trivially the first such dimension, `x` first), every block joins
//! the group of its coordinate instead, which is exact for such grids;
//! per-request figures that change from block to block at equal request
//! counts (each block's rows at another alignment) are the group's sample
//! mean, as a scaled sample gives them.
//!
//! With residue classes (more than one class holding interior blocks), the
//! blocks are finer divided into **cells**: in a grid whose signatures are
//! a function of one coordinate of at most [`MAX_COORD`] values, by
//! (coordinate value, class); else by (group, class). Each interior block
//! stands at the mean of its cell's run blocks, the cells counted exactly;
//! a block of a (coordinate, class) cell with none run at its (group,
//! class) cell's mean, and one of a (group, class) cell with none run at
//! its group's mean. A grid whose per-block figures are a function of the
//! block's cell is then exact when every cell ran a block: rows at offsets
//! that cycle mod 128 with the block and persistent programs of one more or
//! one fewer row (group, class); a clamped first row or column (its
//! class); a causal mask's partial last vector, or source columns
//! `floor(2 · x / 3)` that repeat every three columns of blocks (the
//! coordinate). The classes cost the probes and the class cover (a third of
//! the budget's blocks at most); the cell cover fills cells while the
//! budget lasts. A grid whose addresses do not move mod 128 with the block
//! has the "first" classes only, and such a 1-D grid (whose first block is
//! block 0, an edge) one class: its estimate is the one above.
//!
//! # Limits
//!
//! The strides are those of the first request: an address that is not
//! affine in the block mod 128 (a clamp inside the grid, `floor(2 · x /
//! 3)`, a row picked by a loaded index) is classed by its first request's
//! stride, which may not be its period; a cell whose blocks differ stands
//! at its sample mean, as a group did before. Request counts that are
//! periodic in the block id at a period that is not seen (a 1-D grid over
//! the pixels of an image whose rows are 7 blocks long: each block's
//! border taps) are neither groups nor classes: such a grid stays a
//! sample. Large edge strata that are sampled are not classed. Each cell
//! map keeps at most [`MAX_CELLS`] cells (later blocks of new cells stand
//! at the next coarser mean); the classes and cells are kept for grids of
//! at most [`EDGE_SCAN_MAX`] blocks, and set up in a walk over them.
//!
//! At most [`MAX_DISTINCT`] distinct signatures and [`MAX_SAMPLES`] run interior
//! blocks are remembered; past either, the sampler stops remembering and the
//! interior is its sample's sum scaled to the interior's size (the estimate
//! before bisection was added), which is bounded in memory for any grid.

use super::SimStats;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

/// Edge strata: the eight combinations of the last column, row and plane,
/// block 0, and the blocks that exit after memory work
/// ([`super::exits::Fate::Exits`]); then, for each guard class
/// ([`super::exits::Fates::guard_class`]), its own nine (the eight
/// combinations and block 0).
const STRATA: usize = 10 + 9 * super::exits::MAX_GUARD_CLASSES;
/// The stratum of block 0.
const BLOCK0_STRATUM: usize = 8;
/// The stratum of the blocks that exit after memory work.
const EXITS_STRATUM: usize = 9;
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

/// Residue classes at most (the product of the periods, each coordinate 0
/// counted as a class of its own).
pub const MAX_CLASSES: u64 = 512;
/// (signature, class) cells whose sums are kept at most.
pub const MAX_CELLS: usize = 1 << 14;
/// Dimensions of at most this many blocks keep cells by coordinate.
pub const MAX_COORD: u64 = 4096;
/// Rounds of filling the cells with no run block at most.
const CELL_ROUNDS: u32 = 2;

/// Per-instruction statistics of one block (or of a sum of blocks).
pub type Delta = HashMap<u32, SimStats>;

/// Per instruction: the lowest lane of its first request whose address the
/// simulation knew, and that address (what a probe block records).
pub type Firsts = HashMap<u32, (u32, i64)>;

/// The residue classes of the interior blocks ("Residue classes" above).
struct Classes {
    /// Per dimension: the period of the addresses mod 128 along it (a power
    /// of two) and whether coordinate 0 is a class of its own.
    period: [u64; 3],
    first: [bool; 3],
    /// Interior blocks per class, and those run.
    count: Vec<u64>,
    seen: Vec<u64>,
    /// Classes with blocks.
    live: u64,
    /// Per (signature, class): the sum of its run blocks' deltas and their
    /// number.
    cells: HashMap<(u32, u32), (Delta, u64)>,
    /// Per (dimension, coordinate, class), for the dimensions of at most
    /// [`MAX_COORD`] blocks that are not the whole grid: the same.
    by_coord: HashMap<(u8, u64, u32), (Delta, u64)>,
}

impl Classes {
    fn of(&self, c: [u64; 3]) -> u32 {
        let mut idx = 0u64;
        for d in (0..3).rev() {
            let radix = self.period[d] + u64::from(self.first[d]);
            let v = if self.first[d] && c[d] == 0 {
                self.period[d]
            } else {
                c[d] % self.period[d]
            };
            idx = idx * radix + v;
        }
        idx as u32
    }

    /// Adds a run block's delta to its cells (each map held to
    /// [`MAX_CELLS`] cells).
    fn add(&mut self, grid: [u64; 3], c: [u64; 3], sig: u32, delta: &Delta) {
        let k = self.of(c);
        self.seen[k as usize] += 1;
        fn put<K: std::hash::Hash + Eq>(m: &mut HashMap<K, (Delta, u64)>, key: K, d: &Delta) {
            if m.len() < MAX_CELLS || m.contains_key(&key) {
                let cell = m.entry(key).or_default();
                add_into(&mut cell.0, d, 1);
                cell.1 += 1;
            }
        }
        put(&mut self.cells, (sig, k), delta);
        let n: u64 = grid.iter().product();
        for d in 0..3 {
            if (3..=MAX_COORD).contains(&grid[d]) && grid[d] < n {
                put(&mut self.by_coord, (d as u8, c[d], k), delta);
            }
        }
    }

    fn len(&self) -> u64 {
        (0..3)
            .map(|d| self.period[d] + u64::from(self.first[d]))
            .product()
    }
}

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
    /// The probe blocks (interior): the base, then one step from it along
    /// each dimension of four blocks or more ([`Sampler::probe_dims`]).
    probes: Vec<u64>,
    probe_dims: [Option<u64>; 3],
    next_probe: usize,
    /// What the probe blocks recorded, by block.
    firsts: HashMap<u64, Firsts>,
    /// The residue classes, once the probes ran (`None` before, and for
    /// grids too large to scan).
    classes: Option<Classes>,
    /// Interior blocks recorded before the classes were set: their cells
    /// are filled when they are.
    pending: Vec<(u64, u32, Delta)>,
    /// Position of the class cover in the spread order.
    cover_k: u64,
    /// Blocks queued to fill cells with no run block, and the rounds of it.
    cell_queue: Vec<u64>,
    cell_rounds: u32,
    /// Interior blocks run when the cell queue was last filled.
    cells_at: usize,
    /// Blocks decided idle before they run ([`super::exits`]): never run,
    /// counted as empty, neither edge nor interior blocks; and their number.
    idle: Bits,
    idle_count: u64,
    /// Blocks that exit after memory work: an edge stratum of their own.
    exits: Bits,
    /// Per block, its guard class (`1..`: edge strata of their own; 0 or
    /// absent: none).
    guard_class: Vec<u8>,
}

impl Sampler {
    /// A sampler of a grid of `grid` blocks, no fates decided.
    #[cfg(test)]
    pub fn new(grid: [u64; 3]) -> Sampler {
        Sampler::with_fates(grid, None)
    }

    /// A sampler of a grid of `grid` blocks some of whose fates are decided
    /// ([`super::exits`]; only for grids of at most [`EDGE_SCAN_MAX`]
    /// blocks): the idle blocks are never run and count as empty, the
    /// blocks that exit after memory work are an edge stratum of their own.
    pub fn with_fates(grid: [u64; 3], fates: Option<super::exits::Fates>) -> Sampler {
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
            probes: Vec::new(),
            probe_dims: [None; 3],
            next_probe: 0,
            firsts: HashMap::new(),
            classes: None,
            pending: Vec::new(),
            cover_k: 0,
            cell_queue: Vec::new(),
            cell_rounds: 0,
            cells_at: 0,
            idle: Bits::default(),
            idle_count: 0,
            exits: Bits::default(),
            guard_class: Vec::new(),
        };
        if let Some(mut f) = fates.filter(|_| nblocks <= EDGE_SCAN_MAX) {
            f.idle.seal();
            s.idle = f.idle;
            s.idle_count = f.idle_count;
            s.exits = f.exits;
            s.guard_class = f.guard_class;
        }
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
            s.set_probes();
        }
        s
    }

    /// The probe blocks: the base (coordinate 1 along each dimension of
    /// three blocks or more, else 0) and, along each dimension of four or
    /// more, the block one step from it; all interior (none when the base
    /// is an edge block: the grid then has no interior to classify).
    fn set_probes(&mut self) {
        let [gx, gy, _] = self.grid;
        let id = |c: [u64; 3]| c[0] + gx * (c[1] + gy * c[2]);
        let mut base = self.grid.map(|g| u64::from(g >= 3));
        if self.idle_count > 0 {
            // Blocks decided idle are not probes: the first interior block
            // (in block order, from the usual base on) whose steps are
            // interior too, else the usual base.
            let steps_ok = |s: &Sampler, c: [u64; 3]| {
                s.is_interior(id(c))
                    && (0..3).all(|d| {
                        s.grid[d] < 4 || {
                            let mut e = c;
                            e[d] += 1;
                            e[d] < s.grid[d] && s.is_interior(id(e))
                        }
                    })
            };
            if let Some(b) = (id(base)..self.nblocks)
                .take(1 << 16)
                .find(|&b| steps_ok(self, self.coords(b)))
            {
                base = self.coords(b);
            }
        }
        if !self.is_interior(id(base)) {
            return;
        }
        self.probes.push(id(base));
        for d in 0..3 {
            if self.grid[d] >= 4 {
                let mut c = base;
                c[d] += 1;
                if c[d] >= self.grid[d] || !self.is_interior(id(c)) {
                    continue;
                }
                self.probe_dims[d] = Some(id(c));
                self.probes.push(id(c));
            }
        }
    }

    /// Whether the caller should record block `bid`'s [`Firsts`] and hand
    /// them to [`Sampler::probe`].
    pub fn wants_firsts(&self, bid: u64) -> bool {
        self.classes.is_none() && self.probes.contains(&bid)
    }

    /// The [`Firsts`] of probe block `bid`.
    pub fn probe(&mut self, bid: u64, firsts: Firsts) {
        self.firsts.insert(bid, firsts);
    }

    /// Sets the residue classes from the probes' addresses, with classes
    /// of blocks at most a third of the blocks the budget is expected to
    /// run (at the mean cost of those run so far).
    fn set_classes(&mut self, used: u64, budget: u64) {
        let base = self.probes.first().and_then(|b| self.firsts.get(b));
        let mut period = self.probe_dims.map(|probe| {
            let (Some(base), Some(step)) = (base, probe.and_then(|b| self.firsts.get(&b))) else {
                return 1;
            };
            let mut p = 1;
            for (stmt, (lane, a)) in base {
                if let Some((l, b)) = step.get(stmt) {
                    if l == lane {
                        let s = b.wrapping_sub(*a).rem_euclid(128) as u64;
                        p = p.max(128 / gcd(s, 128));
                    }
                }
            }
            p
        });
        let mut first = [0, 1, 2].map(|d| self.grid[d] >= 3);
        let run = (self.edges_done as u64 + self.interior_done).max(1);
        let affordable = (budget as u128 * run as u128 / used.max(1) as u128) as u64;
        let cap = (affordable / 3).clamp(1, MAX_CLASSES);
        if self.nblocks / 64 > affordable {
            // The walks over the grid would cost more than the sample
            // tells: one class.
            period = [1; 3];
            first = [false; 3];
        }
        // Coarser until the classes with blocks fit (the last step, one
        // class, always does). Counted along each dimension (the interior
        // is a product of coordinate ranges but for block 0: at most one
        // more than the classes that hold blocks), then exactly.
        let range = [0, 1, 2].map(|d| match d {
            0 => self.grid[0].saturating_sub(1),
            _ if self.grid[d] > 1 => self.grid[d] - 1,
            _ => 1,
        });
        let values = |p: &[u64; 3], f: &[bool; 3]| -> u64 {
            let all: u64 = (0..3)
                .map(|d| match (f[d], range[d]) {
                    (_, 0) => 0,
                    (true, r) => 1 + p[d].min(r - 1),
                    (false, r) => p[d].min(r),
                })
                .product();
            // Block 0's class, when no other block shares it, holds none.
            let alone = (0..3).all(|d| f[d] || range[d] == 1);
            all.saturating_sub(u64::from(alone))
        };
        loop {
            let n: u64 = (0..3).map(|d| period[d] + u64::from(first[d])).product();
            if n == 1 || (n <= 1 << 20 && values(&period, &first) <= cap) {
                break;
            }
            let d = (0..3).max_by_key(|&d| period[d]).unwrap_or(0);
            if period[d] > 1 {
                period[d] /= 2;
            } else {
                first = [false; 3];
            }
        }
        let mut classes = Classes {
            period,
            first,
            count: Vec::new(),
            seen: Vec::new(),
            live: 0,
            cells: HashMap::new(),
            by_coord: HashMap::new(),
        };
        let n = classes.len() as usize;
        classes.count = vec![0; n];
        classes.seen = vec![0; n];
        if n == 1 {
            classes.count[0] = self.nblocks - self.edges.len() as u64 - self.idle_count;
            classes.live = u64::from(classes.count[0] > 0);
        } else {
            for b in 0..self.nblocks {
                if self.is_interior(b) {
                    let k = classes.of(self.coords(b)) as usize;
                    classes.live += u64::from(classes.count[k] == 0);
                    classes.count[k] += 1;
                }
            }
        }
        for (b, sig, delta) in std::mem::take(&mut self.pending) {
            classes.add(self.grid, self.coords(b), sig, &delta);
        }
        self.classes = Some(classes);
    }

    fn coords(&self, bid: u64) -> [u64; 3] {
        let [gx, gy, _] = self.grid;
        [bid % gx, (bid / gx) % gy, bid / (gx * gy)]
    }

    /// The next block of the class cover: in the spread order, one not run
    /// of a class none of whose blocks ran.
    fn next_cover(&mut self) -> Option<u64> {
        let classes = self.classes.as_ref()?;
        if self.fallback
            || !classes
                .count
                .iter()
                .zip(&classes.seen)
                .any(|(c, s)| *c > 0 && *s == 0)
        {
            return None;
        }
        while self.cover_k < self.nblocks {
            let b = (self.cover_k as u128 * self.step as u128 % self.nblocks as u128) as u64;
            self.cover_k += 1;
            if self.is_interior(b)
                && !self.samples.contains_key(&b)
                && classes.seen[classes.of(self.coords(b)) as usize] == 0
            {
                return Some(b);
            }
        }
        None
    }

    /// The next block of the cell cover: from its queue, refilled while
    /// fewer than `rounds` rounds ran and blocks ran since the last.
    fn next_cell(&mut self, rounds: u32) -> Option<u64> {
        loop {
            while let Some(b) = self.cell_queue.pop() {
                if !self.samples.contains_key(&b) {
                    return Some(b);
                }
            }
            if self.cell_rounds >= rounds || self.fallback || self.cells_at == self.samples.len() {
                return None;
            }
            self.cell_rounds += 1;
            self.cells_at = self.samples.len();
            self.queue_cells();
        }
    }

    /// Queues, for every (group, class) cell of the interior with blocks
    /// not run and none run, its middle block not run.
    fn queue_cells(&mut self) {
        let Some(classes) = self.classes.as_ref() else {
            return;
        };
        let groups = self.assignment();
        let dim = self.cell_dim();
        // (dimension, coordinate, class) cells, or (3, group, class).
        let mut want: HashMap<(u8, u64, u32), Vec<u64>> = HashMap::new();
        for (b, g) in groups.iter().enumerate() {
            let b = b as u64;
            if *g == u32::MAX || self.samples.contains_key(&b) {
                continue;
            }
            let c = self.coords(b);
            let k = classes.of(c);
            let key = match dim {
                Some(d) => (d, c[d as usize], k),
                None => (3, u64::from(*g), k),
            };
            let run = match dim {
                Some(_) => classes.by_coord.contains_key(&key),
                None => classes.cells.contains_key(&(*g, k)),
            };
            if !run {
                want.entry(key).or_default().push(b);
            }
        }
        let mut queue: Vec<u64> = want.into_values().map(|v| v[v.len() / 2]).collect();
        // Popped from the end: the lowest block first.
        queue.sort_unstable_by(|a, b| b.cmp(a));
        self.cell_queue = queue;
    }

    /// The dimension whose (coordinate, class) cells the blocks stand in:
    /// that of [`Sampler::coordinate_map`] (the first, `x` first, whose
    /// coordinate the run blocks' request counts are seen to be a function
    /// of: trivially so when they all fall in one group), when it keeps such
    /// cells ([`MAX_COORD`]).
    fn cell_dim(&self) -> Option<u8> {
        let (d, _) = self.coordinate_map()?;
        let g = self.grid[d];
        ((3..=MAX_COORD).contains(&g) && g < self.nblocks).then_some(d as u8)
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
        if self.exits.get(bid) {
            return EXITS_STRATUM;
        }
        let class = match self.guard_class(bid) {
            0 => 0,
            c => 10 + 9 * (usize::from(c) - 1),
        };
        if bid == 0 {
            return if class > 0 { class + 8 } else { BLOCK0_STRATUM };
        }
        let [gx, gy, gz] = self.grid;
        let (x, y, z) = (bid % gx, (bid / gx) % gy, bid / (gx * gy));
        class
            + (usize::from(x == gx - 1)
                | usize::from(gy > 1 && y == gy - 1) << 1
                | usize::from(gz > 1 && z == gz - 1) << 2)
    }

    /// Whether block `bid` is in an edge stratum (run before the interior,
    /// counted per stratum): an edge of the grid, a block that exits after
    /// memory work or one of a guard class, not an idle block.
    fn is_edge(&self, bid: u64) -> bool {
        if self.nblocks > EDGE_SCAN_MAX || self.idle.get(bid) {
            return false;
        }
        if self.exits.get(bid) || self.guard_class(bid) > 0 {
            return true;
        }
        let [gx, gy, gz] = self.grid;
        let (x, y, z) = (bid % gx, (bid / gx) % gy, bid / (gx * gy));
        bid == 0 || x == gx - 1 || (gy > 1 && y == gy - 1) || (gz > 1 && z == gz - 1)
    }

    /// Block `bid`'s guard class (0: none).
    fn guard_class(&self, bid: u64) -> u8 {
        usize::try_from(bid)
            .ok()
            .and_then(|b| self.guard_class.get(b))
            .copied()
            .unwrap_or(0)
    }

    /// Whether block `bid` is an interior block: neither in an edge
    /// stratum nor idle.
    fn is_interior(&self, bid: u64) -> bool {
        !self.is_edge(bid) && !self.idle.get(bid)
    }

    /// Blocks decided idle.
    pub fn idle_blocks(&self) -> u64 {
        self.idle_count
    }

    /// Interior blocks with ids in `lo..hi`.
    fn interior_in(&self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return 0;
        }
        let a = self.edges.partition_point(|&e| e < lo);
        let b = self.edges.partition_point(|&e| e < hi);
        let idle = self.idle.rank(hi) - self.idle.rank(lo);
        (hi - lo) - (b - a) as u64 - idle
    }

    /// The next block to run, given the warp instructions `used` of a
    /// `budget`; `None` when every block ran.
    pub fn next(&mut self, used: u64, budget: u64) -> Option<u64> {
        if self.next_edge < self.small_edges {
            self.next_edge += 1;
            return Some(self.edge_order[self.next_edge - 1]);
        }
        if self.next_probe < self.probes.len() {
            self.next_probe += 1;
            return Some(self.probes[self.next_probe - 1]);
        }
        if self.classes.is_none() && self.nblocks <= EDGE_SCAN_MAX && !self.fallback {
            self.set_classes(used, budget);
        }
        let has_interior = self.nblocks > self.edges.len() as u64 + self.idle_count;
        if self.next_edge < self.edges.len()
            && (!has_interior || self.edges_fit(used, budget) || used < budget / 2)
        {
            let large = (self.edges.len() - self.small_edges) as u128;
            let k = (self.next_edge - self.small_edges) as u128;
            let i = self.small_edges + (k * self.edge_step as u128 % large) as usize;
            self.next_edge += 1;
            return Some(self.edge_order[i]);
        }
        if let Some(b) = self.next_cover() {
            return Some(b);
        }
        // The cell cover from half the budget on (its rounds), again once
        // the bisection found no gap left (as many more).
        let classed = self.classes.as_ref().is_some_and(|c| c.live > 1);
        if classed && !self.fallback && used >= budget / 2 && used < budget / 4 * 3 {
            if let Some(b) = self.next_cell(CELL_ROUNDS) {
                return Some(b);
            }
        }
        if !self.fallback && used >= budget / 4 * 3 {
            if classed {
                if let Some(b) = self.next_cell(2 * CELL_ROUNDS) {
                    return Some(b);
                }
            }
            while let Some((_, lo, hi)) = self.gaps.pop() {
                if let Some(mid) = self.split_point(lo, hi) {
                    return Some(mid);
                }
            }
            if classed {
                if let Some(b) = self.next_cell(3 * CELL_ROUNDS) {
                    return Some(b);
                }
            }
        }
        while self.spread_k < self.nblocks {
            let b = (self.spread_k as u128 * self.step as u128 % self.nblocks as u128) as u64;
            self.spread_k += 1;
            if self.is_interior(b) && !self.samples.contains_key(&b) {
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
            .find(|&b| b > lo && b < hi && self.is_interior(b))
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
            self.classes = None;
            self.pending = Vec::new();
            return;
        }
        let n = self.signatures.len() as u32;
        let sig = *self.signatures.entry(key).or_insert(n);
        if sig as usize == self.groups.len() {
            self.groups.push((Delta::new(), 0));
        }
        let coords = self.coords(bid);
        match &mut self.classes {
            None if self.nblocks <= EDGE_SCAN_MAX => {
                self.pending.push((bid, sig, delta.clone()));
            }
            None => {}
            Some(classes) => classes.add(self.grid, coords, sig, &delta),
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
        let n_int = self.nblocks - self.edges.len() as u64 - self.idle_count;
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
        if let Some(classes) = self.classes.as_ref().filter(|c| c.live > 1) {
            // Each block stands at the mean of its (coordinate, class) cell
            // when the groups are a function of that coordinate, else of its
            // (group, class) cell, else of its group.
            let dim = self.cell_dim();
            let mut times = vec![0u64; self.groups.len()];
            let mut cell_times: HashMap<(u32, u32), u64> = HashMap::new();
            let mut coord_times: HashMap<(u8, u64, u32), u64> = HashMap::new();
            for (b, g) in self.assignment().into_iter().enumerate() {
                if g == u32::MAX {
                    continue;
                }
                let c = self.coords(b as u64);
                let k = classes.of(c);
                if let Some(d) = dim {
                    let key = (d, c[d as usize], k);
                    if classes.by_coord.contains_key(&key) {
                        *coord_times.entry(key).or_default() += 1;
                        continue;
                    }
                }
                match classes.cells.contains_key(&(g, k)) {
                    true => *cell_times.entry((g, k)).or_default() += 1,
                    false => times[g as usize] += 1,
                }
            }
            for (key, t) in coord_times {
                let (sum, run) = &classes.by_coord[&key];
                add_scaled(&mut all, sum, t as f64 / *run as f64);
            }
            for ((g, k), t) in cell_times {
                let (sum, run) = &classes.cells[&(g, k)];
                add_scaled(&mut all, sum, t as f64 / *run as f64);
            }
            for ((sum, run), t) in self.groups.iter().zip(times) {
                add_scaled(&mut all, sum, t as f64 / *run as f64);
            }
            return (all, done, true);
        }
        let times = self.by_coordinate().unwrap_or_else(|| self.by_neighbours());
        for ((sum, run), t) in self.groups.iter().zip(times) {
            add_scaled(&mut all, sum, t as f64 / *run as f64);
        }
        (all, done, true)
    }

    /// Per block (edge blocks `u32::MAX`): the group it stands in, as
    /// [`Sampler::by_coordinate`] or else [`Sampler::by_neighbours`] count
    /// them (a run block in its own).
    fn assignment(&self) -> Vec<u32> {
        let mut of = vec![u32::MAX; self.nblocks as usize];
        if let Some((d, sig)) = self.coordinate_map() {
            for (b, g) in of.iter_mut().enumerate() {
                if self.is_interior(b as u64) {
                    *g = sig[self.coords(b as u64)[d] as usize];
                }
            }
            return of;
        }
        let interior: Vec<u64> = (0..self.nblocks).filter(|&b| self.is_interior(b)).collect();
        let pos = |b: u64| interior.partition_point(|&x| x < b);
        let mut prev: Option<(usize, u32)> = None;
        for (&bid, &id) in &self.samples {
            let i = pos(bid);
            match prev {
                None => interior[..i].iter().for_each(|&x| of[x as usize] = id),
                Some((pi, pid)) => {
                    let gap = &interior[pi + 1..i];
                    let lower = if pid == id { gap.len() } else { gap.len() / 2 };
                    gap[..lower].iter().for_each(|&x| of[x as usize] = pid);
                    gap[lower..].iter().for_each(|&x| of[x as usize] = id);
                }
            }
            of[bid as usize] = id;
            prev = Some((i, id));
        }
        if let Some((pi, pid)) = prev {
            interior[pi + 1..]
                .iter()
                .for_each(|&x| of[x as usize] = pid);
        }
        of
    }

    /// Blocks per group in a grid of several dimensions whose run blocks'
    /// signatures are a function of one block coordinate (a causal mask's
    /// `ctaid.x`, the same in every head `ctaid.y`): every block joins the
    /// group of its coordinate. The function must be seen, not assumed: at
    /// least two run blocks per coordinate value on average, no two with one
    /// value in different groups, and every value of the blocks not run seen.
    fn by_coordinate(&self) -> Option<Vec<u64>> {
        let (d, of) = self.coordinate_map()?;
        let mut times = vec![0u64; self.groups.len()];
        for b in 0..self.nblocks {
            if self.is_interior(b) {
                times[of[self.coords(b)[d] as usize] as usize] += 1;
            }
        }
        Some(times)
    }

    /// The dimension of [`Sampler::by_coordinate`] and, per value of its
    /// coordinate, the signature id of the blocks there.
    fn coordinate_map(&self) -> Option<(usize, Vec<u32>)> {
        if self.nblocks > EDGE_SCAN_MAX {
            return None;
        }
        'dims: for d in 0..3 {
            let g = self.grid[d];
            if g <= 1 || g == self.nblocks {
                continue;
            }
            let mut of = vec![u32::MAX; g as usize];
            let mut values = 0u64;
            for (&b, &sig) in &self.samples {
                let c = self.coords(b)[d] as usize;
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
            for b in 0..self.nblocks {
                if self.is_interior(b) && of[self.coords(b)[d] as usize] == u32::MAX {
                    continue 'dims;
                }
            }
            return Some((d, of));
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

/// A set of block ids (a bit a block), with the count of members below
/// any id once sealed.
#[derive(Clone, Debug, Default)]
pub struct Bits {
    words: Vec<u64>,
    /// Members below each word (after [`Bits::seal`]).
    before: Vec<u64>,
}

impl Bits {
    /// An empty set of ids below `n`.
    pub fn new(n: u64) -> Bits {
        Bits {
            words: vec![0; n.div_ceil(64) as usize],
            before: Vec::new(),
        }
    }

    /// Adds `i` (below the size).
    pub fn set(&mut self, i: u64) {
        if let Some(w) = self.words.get_mut((i / 64) as usize) {
            *w |= 1 << (i % 64);
        }
        self.before.clear();
    }

    /// Whether `i` is a member.
    pub fn get(&self, i: u64) -> bool {
        self.words
            .get((i / 64) as usize)
            .is_some_and(|w| w >> (i % 64) & 1 != 0)
    }

    /// Counts the members below each word, for [`Bits::rank`].
    pub fn seal(&mut self) {
        let mut n = 0;
        self.before = self
            .words
            .iter()
            .map(|w| {
                let b = n;
                n += u64::from(w.count_ones());
                b
            })
            .collect();
    }

    /// Members below `i` (sealed; 0 for an empty set).
    fn rank(&self, i: u64) -> u64 {
        let k = (i / 64) as usize;
        if k >= self.words.len() {
            return match self.words.last() {
                Some(w) => {
                    let b = self.before.get(self.words.len() - 1).copied().unwrap_or(0);
                    b + u64::from(w.count_ones())
                }
                None => 0,
            };
        }
        let low = self.words[k] & ((1u64 << (i % 64)) - 1);
        self.before.get(k).copied().unwrap_or(0) + u64::from(low.count_ones())
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

    /// Runs a sampler over a 2-D grid with decided fates: block `b` issues
    /// `f(b)` requests; idle blocks must never be handed out.
    fn run_fated(
        grid: [u64; 3],
        fates: super::super::exits::Fates,
        budget: u64,
        f: impl Fn(u64) -> u64,
    ) -> (u64, u64, bool) {
        let idle: Vec<bool> = (0..grid.iter().product::<u64>())
            .map(|b| fates.idle.get(b))
            .collect();
        let mut s = Sampler::with_fates(grid, Some(fates));
        let mut used = 0;
        while used < budget {
            let Some(b) = s.next(used, budget) else { break };
            assert!(!idle[b as usize], "idle block {b} handed out");
            s.record(b, block(f(b)));
            used += 1;
        }
        let (all, done, whole) = s.finish();
        (all.get(&7).map_or(0, |s| s.requests), done, whole)
    }

    /// The staircase of `tests/hw/blind11` `syrk_tile_*`: 32 x 32 blocks,
    /// those with x > y idle (496), the 528 others 512 requests each. A
    /// budget of 200 blocks runs a sample of the working blocks only, and
    /// the estimate is exact: 528 x 512 = 270,336 (the measured count of
    /// each load line, `tests/hw/blind11/measured.json`). Without the
    /// fates the same sampler estimates the working blocks from their
    /// neighbours in block order, across the staircase's 64 change points.
    #[test]
    fn idle_blocks_of_a_staircase_are_exact() {
        let grid = [32, 32, 1];
        let mut fates = super::super::exits::Fates {
            idle: Bits::new(1024),
            exits: Bits::new(1024),
            idle_count: 0,
            guard_class: Vec::new(),
        };
        for b in 0..1024u64 {
            if b % 32 > b / 32 {
                fates.idle.set(b);
                fates.idle_count += 1;
            }
        }
        assert_eq!(fates.idle_count, 496);
        let f = |b: u64| if b % 32 > b / 32 { 0 } else { 512 };
        let (r, done, whole) = run_fated(grid, fates, 200, f);
        assert!(whole);
        assert!(done < 528, "{done}");
        assert_eq!(r, 528 * 512);
        // The same grid without fates: not exact in the same budget.
        let mut s = Sampler::new(grid);
        let mut used = 0;
        while used < 200 {
            let Some(b) = s.next(used, 200) else { break };
            s.record(b, block(f(b)));
            used += 1;
        }
        let (all, _, _) = s.finish();
        assert_ne!(all[&7].requests, 528 * 512);
    }

    /// Blocks that exit after memory work (x > y: 3 requests) are a
    /// stratum of their own, never a neighbour of a working block (x <= y:
    /// 100 requests); the blocks x = y + 1 are idle. Exact: 528 x 100 +
    /// (496 - 31) x 3.
    #[test]
    fn exiting_blocks_are_a_stratum() {
        let grid = [32, 32, 1];
        let mut fates = super::super::exits::Fates {
            idle: Bits::new(1024),
            exits: Bits::new(1024),
            idle_count: 0,
            guard_class: Vec::new(),
        };
        for b in 0..1024u64 {
            let (x, y) = (b % 32, b / 32);
            if x == y + 1 {
                fates.idle.set(b);
                fates.idle_count += 1;
            } else if x > y {
                fates.exits.set(b);
            }
        }
        let f = |b: u64| {
            let (x, y) = (b % 32, b / 32);
            match x {
                _ if x == y + 1 => 0,
                _ if x > y => 3,
                _ => 100,
            }
        };
        let (r, done, whole) = run_fated(grid, fates, 700, f);
        assert!(whole);
        assert!(done < 1024 - 31, "{done}");
        assert_eq!(r, 528 * 100 + (496 - 31) * 3);
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

    /// Runs a sampler over `grid` with a budget of `budget` blocks of one
    /// warp instruction each; block `b` at coordinates `c` issues `f(c)`
    /// (requests, sectors) on instruction 7, whose first address is
    /// `addr(c)` (lane 0). Returns the estimate and the blocks run.
    fn run_classed(
        grid: [u64; 3],
        budget: u64,
        f: impl Fn([u64; 3]) -> (u64, f64),
        addr: impl Fn([u64; 3]) -> i64,
    ) -> (SimStats, u64) {
        let mut s = Sampler::new(grid);
        let mut used = 0;
        while used < budget {
            let Some(b) = s.next(used, budget) else { break };
            let c = s.coords(b);
            if s.wants_firsts(b) {
                s.probe(b, Firsts::from([(7, (0, addr(c)))]));
            }
            let (r, sectors) = f(c);
            let mut d = block(r);
            d.get_mut(&7).unwrap().sectors = sectors;
            s.record(b, d);
            used += 1;
        }
        let (all, done, whole) = s.finish();
        assert!(whole);
        (all[&7].clone(), done)
    }

    /// Rows of 8,200 bytes, one a block (`rmsnorm_bwd_c4100` of
    /// tests/hw/blind8, whose 264 programs take 7 or 8 rows): a row's
    /// sectors depend on its start mod 128, which steps by 8 bytes from
    /// block to block (a period of 16 blocks). Blocks below 152 take 8
    /// rows, the others 7. With a budget of 50 of the 264 blocks every
    /// (group, residue) cell runs a block and the estimate is exact.
    #[test]
    fn residue_classes_make_a_sample_exact() {
        let row = |b: u64| {
            let start = (b * 8200) % 128;
            // 8,200 bytes from `start`: the 32-byte sectors it touches.
            ((start + 8200).div_ceil(32) - start / 32) as f64
        };
        let f = |c: [u64; 3]| {
            let rows = if c[0] < 152 { 8 } else { 7 };
            (rows, rows as f64 * row(c[0]))
        };
        let (st, done) = run_classed([264, 1, 1], 50, f, |c| (c[0] * 8200) as i64);
        assert!(done <= 51);
        let exact: f64 = (0..264).map(|b| f([b, 0, 0]).1).sum();
        assert_eq!(st.requests, (0..264).map(|b| f([b, 0, 0]).0).sum::<u64>());
        assert!(
            (st.sectors - exact).abs() < 1e-6,
            "{} for {exact}",
            st.sectors
        );
    }

    /// A 2-D image whose clamped first row and column of blocks read fewer
    /// sectors (a 3 x 3 window at the border, `median3x3_u8` of
    /// tests/hw/blind9), and whose columns of blocks start 32 bytes apart
    /// (a period of 4 along x): "first" classes and residues make a sample
    /// of a quarter of the grid exact.
    #[test]
    fn a_clamped_first_row_and_column_are_classes() {
        let f = |c: [u64; 3]| {
            let mut s = 10.0 + (c[0] % 4) as f64;
            if c[0] == 0 {
                s -= 3.0;
            }
            if c[1] == 0 {
                s -= 5.0;
            }
            (3, s)
        };
        let grid = [32u64, 88, 1];
        let (st, done) = run_classed(grid, 704, f, |c| (c[0] * 32 + c[1] * 8192) as i64);
        assert!(done < 32 * 88);
        let exact: f64 = (0..88)
            .flat_map(|y| (0..32).map(move |x| [x, y, 0]))
            .map(|c| f(c).1)
            .sum();
        assert_eq!(st.requests, 3 * 32 * 88);
        assert!(
            (st.sectors - exact).abs() < 1e-6,
            "{} for {exact}",
            st.sectors
        );
    }

    /// A causal mask whose query blocks (x) issue more requests and
    /// sectors down the grid, the same in every head (y): the sectors are
    /// a function of x at equal request counts too (a row's partial last
    /// vector; `causal_softmax_768` of tests/hw/blind6). Every block stands
    /// at its column's mean: exact.
    #[test]
    fn a_function_of_x_keeps_its_columns() {
        let f = |c: [u64; 3]| {
            (
                c[0] / 32 + 1,
                (c[0] / 32) as f64 * 4.0 + 1.0 + (c[0] % 32) as f64 / 8.0,
            )
        };
        let grid = [192u64, 24, 1];
        let (st, done) = run_classed(grid, 840, f, |c| (c[0] * 6144 + c[1] * 1179648) as i64);
        assert!(done < 192 * 24);
        let all = (0..24).flat_map(|y| (0..192).map(move |x| [x, y, 0]));
        let exact: f64 = all.clone().map(|c| f(c).1).sum();
        assert_eq!(st.requests, all.map(|c| f(c).0).sum::<u64>());
        assert!(
            (st.sectors - exact).abs() < 1e-6,
            "{} for {exact}",
            st.sectors
        );
    }

    /// Runs a 1-D grid of `n` blocks, block `b` reading 4 bytes at `4 · b`
    /// (a period of 32 blocks mod 128), with a budget of `budget` blocks;
    /// returns the classes' periods and the blocks run.
    fn classes_of(n: u64, budget: u64) -> ([u64; 3], u64, u64) {
        let mut s = Sampler::new([n, 1, 1]);
        let mut used = 0;
        while used < budget {
            let Some(b) = s.next(used, budget) else { break };
            if s.wants_firsts(b) {
                s.probe(b, Firsts::from([(7, (0, b as i64 * 4))]));
            }
            s.record(b, block(1));
            used += 1;
        }
        let c = s.classes.as_ref().unwrap();
        let (period, live) = (c.period, c.live);
        let (all, done, whole) = s.finish();
        assert!(whole);
        assert_eq!(all[&7].requests, n);
        (period, live, done)
    }

    /// [`Sampler::assignment`] (per block, for the cells) and
    /// [`Sampler::by_neighbours`] (counts only, for grids too large to
    /// list) state one rule: the blocks each group stands for agree.
    #[test]
    fn the_neighbour_rule_per_block_and_counted_agree() {
        let mut s = Sampler::new([1000, 1, 1]);
        let mut used = 0;
        while used < 60 {
            let Some(b) = s.next(used, 60) else { break };
            // three request counts in runs of uneven length
            s.record(b, block(1 + (b * b / 7919) % 3));
            used += 1;
        }
        assert!(s.coordinate_map().is_none());
        let mut counted = vec![0u64; s.groups.len()];
        for g in s.assignment().into_iter().filter(|&g| g != u32::MAX) {
            counted[g as usize] += 1;
        }
        assert!(counted.iter().filter(|&&c| c > 0).count() > 1);
        assert_eq!(counted, s.by_neighbours());
    }

    /// Residue classes are held to a third of the blocks the budget runs:
    /// a period of 32 blocks with a budget of 30 is halved to 8 classes
    /// (and the "first" one, empty: block 0 is an edge block), and the
    /// budget is kept; with a budget of 120, the whole period. A grid of
    /// more than 64 times the blocks the budget runs has one class.
    #[test]
    fn classes_fit_the_budget() {
        assert_eq!(classes_of(1000, 30), ([8, 1, 1], 8, 30));
        assert_eq!(classes_of(1000, 120), ([32, 1, 1], 32, 120));
        assert_eq!(classes_of(10_000, 120), ([1, 1, 1], 1, 120));
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
    /// them on an edge), before the interior but for its two probe blocks
    /// (1, 0) and (2, 0).
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
        assert_eq!(s.probes, vec![1, 2]);
        assert!(edges.iter().all(|e| seen[..33].contains(e)));
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
