//! ptxas's merging of adjacent scalar accesses into one wider access.
//!
//! **Domain.** ptxas turns adjacent scalar `ld`/`st` of the PTX into one
//! wider SASS access (`LDS.64`, `LDS.128`, `STS.128`, `LD.E.128`) when it
//! proves the wider access aligned: eight broadcast `ld.shared.f32` of
//! `red[0..7]` become two `LDS.128`, CUB's four blocked `temp[4*tid + i]`
//! one `LDS.128`. Nsight Compute then counts one request where the PTX has
//! four. This pass finds, for PTX input, the groups of memory ops ptxas
//! merges ([`plan`]); the driver costs each group as one wide access at its
//! *carrier* op ([`Plan::rewrite`], [`Plan::shift_results`]) and reports the
//! other members as merged, with no request of their own; likewise the
//! shared loads ptxas does not issue again (**Reuse**, below). SASS input is
//! exact already: its mnemonics are SASS opcodes, never `ld.`/`st.`, and
//! nothing there is merged.
//!
//! **Rule** (probed on ptxas 12.9 and 13.5 for sm_90; the probes, their SASS
//! and the rule's evidence are `tests/hw/vecmerge/README.md`):
//! - *members*: plain, unguarded, non-volatile `ld`/`st` (`.relaxed`
//!   included, no `.acquire`/`.release`/`.mmio`) of 32 or 64 bits per lane
//!   (any type or vector of that size) to shared memory (declared
//!   `.shared`, or generic with a shared variable's address), in one
//!   straight-line stretch of the body: no branch target, branch or exit
//!   between them, nor an instruction ptxas expands with a slow-path call (IEEE
//!   `div`/`rcp`/`sqrt` of `f32`/`f64`, 64-bit integer `div`/`rem`);
//! - *addresses*: in every warp class the members' addresses differ by
//!   constants (the same lane-exact polynomial up to a uniform constant),
//!   or, for addresses of loaded data (ranges, not polynomials), the
//!   members read one address register, not written between them, plus
//!   immediates (`register_keyed`; their chunks need the register's
//!   value a multiple of the chunk in every lane, `range_residue`:
//!   `tests/hw/blind19` `skinning_lbs4`);
//! - *chunks*: naturally aligned 16- or 8-byte chunks of those addresses,
//!   whose alignment is proven in every possibly-active lane of every class
//!   (below). A load chunk of 16 bytes whose members cover at least 12 of
//!   them becomes one 128-bit load (the uncovered word is read too); else an
//!   8-byte chunk whose two 4-byte words are both loaded becomes a 64-bit
//!   load. A store chunk merges only when its members cover it whole, 16
//!   bytes, else 8. Members that overlap (a word loaded twice with two
//!   widths) merge nothing (the same word loaded twice: **Reuse** below);
//! - *shapes* (probes `mw_*`, stop 42): a 64-bit scalar member (`u64`,
//!   `f64`, `b64`) shares a chunk only with 64-bit scalars; 32-bit scalars
//!   and vectors of narrower elements (`v2.u32`, `v4.u16`) share chunks
//!   with each other ([`Shape`]): `ld.u32 [+0]; ld.u64 [+8]` stay an `LDS`
//!   and an `LDS.64`, `ld.u32 [+0]; ld.u32 [+4]; ld.u64 [+8]` are two
//!   `LDS.64`, `ld.v4.u16 [+0]; ld.v2.u32 [+8]` one `LDS.128`. In a
//!   16-byte chunk of stores where a vector store comes before (PTX order)
//!   a 32-bit scalar one, no store merges, not even two scalars forming an
//!   8-byte half (`st.v2 [+0]; st [+8]; st [+12]`: `STS.64`, `STS`,
//!   `STS`); scalars first and the vector after make one `STS.128`;
//! - *between* the first and the last member of a chunk (PTX order): for
//!   loads no store to shared or generic memory, atomic, barrier or fence,
//!   `tensormap.*` (it rewrites a descriptor in memory) or call; for stores
//!   no other shared or generic access at all, nor any of those (global
//!   accesses, shuffles and arithmetic do not matter);
//! - *alignment* is what ptxas can prove: from the address arithmetic (the
//!   per-lane coefficients, multiples of symbols) and from the offsets at
//!   which ptxas places shared variables ([`SharedLayout`]: the static ones
//!   a kernel uses, function-scope first then module-scope, each in
//!   declaration order at its declared alignment; the dynamic ones after
//!   them at a 16-byte boundary; the dataflow starts from the same places,
//!   [`SharedLayout::var_cong`], so that an address a loop derives from a
//!   variable keeps them: `tests/hw/blind7` `kmeans_assign8`'s `&c[8*k]`,
//!   a 4-aligned array that is the kernel's only shared variable, whose
//!   eight scalar reads are two `LDS.128`, measured), the warp's base
//!   thread index and the
//!   dataflow's opaque symbols (the congruences of the arithmetic that
//!   made them). Parameters and launch dimensions count as of unknown
//!   alignment. ptxas tracks the alignment of the register part of an
//!   address, not residues: `0x404 + 16*tid` is 4-aligned and its words
//!   `+0..+12` stay scalar, while a shared variable's address plus a
//!   constant alone is a constant in the window (two variables' words can
//!   share one `LDS.128`);
//! - *carrier*: the merged load stands at (and takes the `.loc` line of) the
//!   member first in PTX order, the merged store at the member last in PTX
//!   order, as ptxas's line table puts them (`bitonic_smem`,
//!   `softmax_online_f4` in `tests/hw/blind*` confirm it on measured rows).
//!
//! **Across blocks** (loads only; probes `xb_*` of
//! `tests/hw/vecmerge/probes.ptx`, sm_90 and sm_80 alike). ptxas also
//! merges a load with loads of later blocks that its block dominates,
//! speculating those a branch may skip: an unrolled remainder's chain
//! `ld [a]; @p bra J; ld [a+4]; @q bra J; ld [a+8]; J:` is one `LDS.128`
//! at the first load (`xb_chain3`, `xb_chain4_tid`, `xb_nested`), loads
//! of constant addresses each after an if/else are `LDS.128`s at the first
//! of each chunk (`xb_diamonds_const`), whatever stands between that does
//! not stop a load merge (a loop, global accesses, a branch to `ret`:
//! `xb_loop_between`, `xb_skip_ldg`, `xb_skip_long`, `xb_skip_ret`). A
//! shared or generic store, a barrier on some path between stops it
//! (`xb_sts_in_skip`, `xb_skip_stgeneric`, `xb_bar_in_skip`), and loads
//! neither of which dominates the other do not merge (`xb_first_skipped`,
//! `xb_arms`). The loads no stretch merged ([`cross_blocks`]) form a
//! cluster with the first of them whose block dominates theirs, in the
//! same innermost loop, at a constant offset in every class that reaches
//! them; its chunks follow the rules above, carried by the member that
//! dominates the others (the first in PTX order), with nothing that stops
//! a load merge on any path from the carrier to a member ([`clear_paths`]),
//! and a member's registers written by that member alone (the carrier
//! writes them earlier, also on paths that skip the member). Measured:
//! `tests/hw/blind6` `topp_scan` (`for (w < warp) before += warp_tot[w]`,
//! unrolled by 4 by NVVM: the body's four loads one `LDS.128`, the
//! remainder's three loads in three blocks one more: 20,480 requests at 2
//! wavefronts), `tests/hw/blind10` `argmax_vocab` (`wv[1..7]`, each after
//! a diamond: two `LDS.128`).
//!
//! **Reuse.** ptxas does not issue a shared or global load again when an
//! earlier load of the stretch read the same bytes ([`Reuse`]): it keeps
//! the registers (common subexpression). A load is reused when it and the
//! earlier one are plain, unguarded, non-volatile `ld` of the same space
//! (shared, or global) and width, at the same lane-exact address in every
//! class, with nothing between that stops a load merge (above: a shared or
//! generic store, an atomic, a barrier or fence, `tensormap.*`, a call),
//! nor, for global loads, a store to global or generic memory. Moves of
//! an immediate into the later load's registers between the two (Triton
//! writes `mov.u32 %r5, 0x0` before each inline-asm load) go with it. Reused loads are
//! found first and take no part in merging; the rewritten function writes
//! a reused load's registers at the load that issues its bytes (the
//! earlier load, or its group's carrier), which needs that nothing between
//! reads or writes them (else the load is kept). Evidence: probe `ld2_dup`
//! (two loads of `sm + 16*tid`: one `LDS`); `tests/hw/blind7`
//! `cub_vec_scan` (CUB's raking segment of 8 words read by the upsweep and
//! again, after the warp scan's shuffles, by the downsweep: 7,816 requests
//! measured at block_scan_raking.cuh:189, the 8 first loads a block; 14,655
//! when both passes were counted); `tests/hw/blind18`
//! `t18_codebook_dequant_gather` (Triton's broadcast `tl.load` of a scale
//! a row: 16 `ld.global.b32` of two addresses, 2 `LDG.E` in the SASS,
//! 32,768 requests measured). The accesses ptxas does not issue report
//! [`Caveat::ReusedLoad`](super::Caveat::ReusedLoad) and no request.
//!
//! **Launch values.** ptxas compiles without the launch: the driver makes
//! the plan from the analysis without the launch's values (block shape,
//! grid, parameters) where one gives them, since a value can prove an
//! alignment or an equality ptxas cannot see (`tests/hw/blind4`
//! `moe_align_block`: `tokens_cnts + 4*(tid+1)*num_experts + 16*k` is
//! 16-byte aligned only for the given `num_experts` = 64; ptxas issues
//! scalar `STS`, 128 requests measured at blind4.cu:263). Nor does ptxas
//! assume the 1-D block the analysis assumes when nothing gives the shape
//! (`%tid.y = %tid.z = 0`, `%ntid.y = %ntid.z = 1`): for a kernel that
//! reads those, the plan is made from an analysis in which they are unknown
//! (`launch::ptxas_view_class`), so a row `tile + 36 * tid.y` of a `float
//! [8][9]` tile is 4-byte aligned, its words scalar (`tests/hw/blind18`
//! `dct8x8_jpeg`: eight scalar `LDS` of `tile[y][k]` beside two `LDS.128`
//! of `cs[x][k]`, 187,500 requests measured at blind18.cu:205).
//!
//! **Soundness.** A group is formed only where every condition holds in the
//! analysis' facts: constant differences in every class, alignment proven
//! with no more than ptxas knows. Where a fact is missing (an address the
//! dataflow did not resolve, a shared variable of unknown size before the
//! one accessed, an access reached in some classes only), nothing is
//! merged and the access keeps its own request, as before this pass.
//!
//! **Limits.** Global and local accesses are never merged. ptxas merges
//! global ones only where the arithmetic proves the alignment (an `and`
//! with -16, probe `ldg4_and`; never through a pointer parameter, `.ptr
//! .align 16` or not, nor a global variable). Stores merge within a
//! straight-line stretch only. A merge across blocks is formed only from
//! loads no stretch merged: loads that ptxas would merge into one chunk
//! across blocks while two of them already pair within a stretch stay two
//! groups here. ptxas also hoists a loop-invariant load out of a loop and
//! merges it with one before the loop (`xb_into_loop`), and merges a load
//! whose register another instruction also writes (`xb_mov_init`,
//! `ld2_branch_around`): not modelled (a member must be in the carrier's
//! innermost loop and write its registers alone). ptxas reuses a load's
//! registers across blocks and for a guarded load, and merges a guarded
//! load with an unguarded one: not modelled (reuse stays within a
//! straight-line stretch, among unguarded loads). Reuse among loads of different widths (a word of an
//! earlier `LDS.64`) is not modelled either. The plan without the
//! launch's values (or with `%tid.y`, `%tid.z` unknown) costs a second
//! analysis of a kernel that has a merge or a reuse under them; a kernel
//! with none under them is taken to have none without them (values only
//! add equalities and alignments). Local memory is not merged (the probes left no `LDL` to read);
//! neither are accesses of 8 or 16 bits (ptxas merges none). Shared
//! variables declared in an inlined `.func` are laid out as if the kernel
//! declared them after its own (not probed).

use super::dataflow::ClassResult;
use super::domain::{Coef, Cong, Poly, Sym, SymFacts, Value, WARP};
use super::memops;
pub use super::memops::LoadUse;
use crate::cfg::{BlockId, Cfg};
use crate::ir::{AccessOp, Form, Function, MemKind, OpId, OpKind, Space, Src};
use std::collections::HashMap;

/// The alignment ptxas's layout of shared variables gives their addresses:
/// what is known of them modulo this many bytes.
const LAYOUT_MODULUS: u64 = 16;

/// One group of memory ops that ptxas serves with one wide access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The member that carries the wide access: the first in PTX order for
    /// loads, the last for stores.
    pub carrier: u32,
    /// Every member, the carrier included, in PTX order.
    pub members: Vec<u32>,
    /// Bytes per lane of the wide access (8 or 16).
    pub bytes: u32,
    /// The chunk's start minus the carrier's address (bytes).
    pub delta: i64,
    /// The SASS opcode ptxas emits (`LDS.128`, `STG.E.64`, …).
    pub sass: &'static str,
}

/// A shared load ptxas does not issue again: the bytes an earlier load of
/// the same address read are still in its registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reuse {
    /// The load not issued again.
    pub op: u32,
    /// The earlier load of the same bytes.
    pub of: u32,
    /// The op that issues `of`'s bytes: `of` itself, or the carrier of the
    /// group `of` is merged into. The rewritten function writes `op`'s
    /// registers there.
    pub host: u32,
    /// Moves of an immediate into `op`'s registers between `of` and `op`,
    /// which `op` overwrites unread (Triton's `mov.u32 %r5, 0x0` before
    /// each inline-asm load): dropped by the rewrite with `op`.
    pub inits: Vec<u32>,
}

/// The groups of one kernel.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The groups, by carrier in PTX order.
    pub groups: Vec<Group>,
    /// The loads ptxas reuses, in PTX order.
    pub reused: Vec<Reuse>,
    /// The loads ptxas deletes or narrows because (some of) their results
    /// are unused (`memops::load_use`), in PTX order: they take no part in
    /// merging or reuse.
    pub unused: Vec<(u32, LoadUse)>,
    /// Op → its group (an index into `groups`).
    by_op: HashMap<u32, usize>,
}

impl Plan {
    /// True when nothing is merged or reused.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty() && self.reused.is_empty() && self.unused.is_empty()
    }

    /// The reuse that leaves op `op` unissued.
    pub fn reuse_of(&self, op: u32) -> Option<&Reuse> {
        self.reused
            .binary_search_by_key(&op, |r| r.op)
            .ok()
            .and_then(|k| self.reused.get(k))
    }

    /// The group op `op` is a member of.
    pub fn group_of(&self, op: u32) -> Option<&Group> {
        self.by_op.get(&op).and_then(|&g| self.groups.get(g))
    }

    /// The function as ptxas's SASS has it: each group's carrier a wide
    /// access of the chunk (`bytes` per lane; a load writes every member's
    /// registers), the other members no instruction at all.
    pub fn rewrite<'src>(&self, ir: &Function<'src>) -> Function<'src> {
        let mut out = ir.clone();
        for g in &self.groups {
            let mut dsts_all = Vec::new();
            // The one reader of every member's registers, if one op reads
            // them all (a load that tail op alone reads may sink below the
            // tail exit: `memops::sunk_below_exit`).
            let mut readers = Vec::new();
            for &m in &g.members {
                if let Some(OpKind::Mem { dsts, info }) = ir.ops.get(m as usize).map(|o| &o.kind) {
                    dsts_all.extend(dsts.iter().copied());
                    readers.push(info.sole_reader);
                }
            }
            let reader = readers
                .first()
                .copied()
                .flatten()
                .filter(|r| readers.iter().all(|x| *x == Some(*r)));
            for &m in &g.members {
                let Some(op) = out.ops.get_mut(m as usize) else {
                    continue;
                };
                if m != g.carrier {
                    // No instruction at all (a `Nop` instruction is a
                    // barrier to the simulation's if-conversion).
                    op.kind = OpKind::Nop;
                    op.form = Form::Other;
                    continue;
                }
                if let OpKind::Mem { info, dsts } = &mut op.kind {
                    let elem = if info.elem_bits == 64 && g.bytes == 16 {
                        64
                    } else {
                        32
                    };
                    info.elem_bits = elem;
                    info.vector = g.bytes * 8 / elem;
                    info.bits = g.bytes * 8;
                    info.addr = shift(&info.addr, g.delta);
                    if info.op == AccessOp::Load {
                        *dsts = dsts_all.clone();
                        info.result_used = true;
                        info.sole_reader = reader;
                    }
                }
            }
        }
        // A reused load: no instruction; its registers are written by the
        // load that read its bytes (nothing between reads or writes them:
        // [`plan`] checked).
        for u in &self.reused {
            let extra = match ir.ops.get(u.op as usize).map(|o| &o.kind) {
                Some(OpKind::Mem { dsts, .. }) => dsts.clone(),
                _ => continue,
            };
            if let Some(OpKind::Mem { info, dsts }) =
                out.ops.get_mut(u.host as usize).map(|o| &mut o.kind)
            {
                dsts.extend(extra);
                info.result_used = true;
                // Two loads' registers: not one reader's alone.
                info.sole_reader = None;
            }
            for &k in std::iter::once(&u.op).chain(&u.inits) {
                if let Some(op) = out.ops.get_mut(k as usize) {
                    op.kind = OpKind::Nop;
                    op.form = Form::Other;
                }
            }
        }
        // A deleted load: no instruction; a narrowed one reads its kept
        // elements only.
        for &(i, what) in &self.unused {
            let Some(op) = out.ops.get_mut(i as usize) else {
                continue;
            };
            match what {
                LoadUse::Dead => {
                    op.kind = OpKind::Nop;
                    op.form = Form::Other;
                }
                LoadUse::Narrowed {
                    elem_bits,
                    vector,
                    delta,
                    kept,
                } => {
                    if let OpKind::Mem { info, dsts } = &mut op.kind {
                        info.elem_bits = elem_bits;
                        info.vector = vector;
                        info.bits = elem_bits * vector;
                        info.addr = shift(&info.addr, delta);
                        let mut k = 0;
                        dsts.retain(|_| {
                            k += 1;
                            kept & (1 << (k - 1)) != 0
                        });
                        info.live_results = u8::MAX;
                    }
                }
                LoadUse::Kept => {}
            }
        }
        out
    }

    /// Moves each carrier's address facts to the chunk's start (the
    /// dataflow ran on the PTX as written; the registers' values do not
    /// change, only which bytes the carrier reads).
    pub fn shift_results(&self, results: &mut [ClassResult]) {
        let narrowed = self.unused.iter().filter_map(|&(i, u)| match u {
            LoadUse::Narrowed { delta, .. } if delta != 0 => Some((i, delta)),
            _ => None,
        });
        let shifts = self.groups.iter().map(|g| (g.carrier, g.delta));
        for (op, delta) in shifts.chain(narrowed) {
            for r in results.iter_mut() {
                if let Some(f) = r.accesses.get_mut(&op) {
                    match &f.addr {
                        Value::Poly(p) => f.addr = Value::poly(p.add_const(delta)),
                        Value::Range(g) => {
                            f.addr = super::domain::Range::with_bits(
                                g.base.add_const(delta),
                                g.lo,
                                g.hi,
                                g.cong,
                                g.data,
                                g.exact.as_deref().copied(),
                                g.key,
                                g.bits,
                            )
                        }
                        _ => {}
                    }
                }
            }
        }
    }
}

fn shift(src: &Src, delta: i64) -> Src {
    match *src {
        Src::Reg(r, o) => Src::Reg(r, o.wrapping_add(delta)),
        Src::Var(v, o) => Src::Var(v, o.wrapping_add(delta)),
        ref s => s.clone(),
    }
}

/// Where ptxas places the shared variables a kernel uses, relative to the
/// start of its shared window (which is aligned far beyond 16 bytes: 0x400
/// on sm_90, after the reserved kilobyte).
#[derive(Clone, Debug, Default)]
pub struct SharedLayout {
    /// By variable index: the byte offset, for shared variables whose place
    /// the layout determines.
    offsets: Vec<Option<u64>>,
}

impl SharedLayout {
    /// Lays out the kernel's shared variables as ptxas does (probes
    /// `tests/hw/vecmerge/layout.ptx`): the static ones referenced by some
    /// op, function-scope first and then module-scope, each in declaration
    /// order at its declared alignment; `.extern` ones (dynamic shared
    /// memory, all at one address) after them at a multiple of 16 (or of
    /// their alignment when larger). A referenced static variable of
    /// unknown size leaves every variable after it, and the dynamic ones,
    /// unplaced.
    pub fn of(ir: &Function<'_>) -> SharedLayout {
        let n = ir.vars.len();
        let mut used = vec![false; n];
        let mut mark = |s: &Src| {
            if let Src::Var(v, _) = s {
                if let Some(u) = used.get_mut(*v as usize) {
                    *u = true;
                }
            }
        };
        for op in &ir.ops {
            match &op.kind {
                OpKind::Mem { info, .. } => {
                    mark(&info.addr);
                    if let Some(ext) = &info.ext {
                        ext.aux.iter().for_each(|(_, s)| mark(s));
                    }
                }
                OpKind::Alu { srcs, .. }
                | OpKind::PredLogic { srcs, .. }
                | OpKind::Other { srcs, .. } => srcs.iter().for_each(&mut mark),
                OpKind::Call { call, .. } => call.args.iter().for_each(&mut mark),
                _ => {}
            }
        }
        let mut offsets = vec![None; n];
        let shared = |i: usize| ir.vars[i].space == Space::Shared && used[i];
        let order = (0..n)
            .filter(|&i| shared(i) && !ir.vars[i].is_extern && !ir.vars[i].module_scope)
            .chain(
                (0..n).filter(|&i| shared(i) && !ir.vars[i].is_extern && ir.vars[i].module_scope),
            );
        let mut end: Option<u64> = Some(0);
        for i in order {
            let v = &ir.vars[i];
            let align = u64::from(v.align.max(1));
            let at = end.map(|e| e.div_ceil(align) * align);
            offsets[i] = at;
            end = match (at, v.size) {
                (Some(a), Some(s)) => a.checked_add(s),
                _ => None,
            };
        }
        for (i, v) in ir.vars.iter().enumerate() {
            if v.space == Space::Shared && v.is_extern && used[i] {
                let align = u64::from(v.align).max(16);
                offsets[i] = end.map(|e| e.div_ceil(align) * align);
            }
        }
        SharedLayout { offsets }
    }

    /// What is known of variable `v`'s address from the layout: the window
    /// starts at 0x400 (far beyond 16-byte aligned), so a placed variable's
    /// address is its offset modulo 16 or modulo its declared alignment
    /// when larger (then a multiple of it); `None` for a variable the
    /// layout does not place (not shared, unused, or after one of unknown
    /// size). The dataflow seeds shared variables' congruences with it, so
    /// that an address the arithmetic derives from a variable (a loop's
    /// `&c[8*k]`) keeps the alignment ptxas proves.
    pub fn var_cong(&self, v: usize, declared_align: u32) -> Option<Cong> {
        let o = self.offsets.get(v).copied().flatten()?;
        let m = LAYOUT_MODULUS.max(u64::from(declared_align));
        Some(Cong::modulo(m, (o % m) as i64))
    }

    /// What ptxas knows of symbol `s`'s value: a placed shared variable's
    /// offset modulo [`LAYOUT_MODULUS`]; of the warp's base thread index and
    /// of the dataflow's opaque symbols (joins, uniform values), what the
    /// class's `facts` say (congruences of the arithmetic that computes
    /// them: `tid & ~3` is the base plus lane terms); nothing of parameters
    /// or launch dimensions.
    fn cong(&self, s: Sym, facts: &SymFacts) -> Cong {
        match s {
            Sym::Var(v) => match self.offsets.get(v as usize).copied().flatten() {
                Some(o) => Cong::modulo(LAYOUT_MODULUS, (o % LAYOUT_MODULUS) as i64),
                None => Cong::TOP,
            },
            Sym::TidBase(_) | Sym::Opaque(_) => facts.cong(s),
            Sym::Param(_) | Sym::Ctaid(_) | Sym::Ntid(_) | Sym::Nctaid(_) => Cong::TOP,
        }
    }
}

/// A candidate member: its op, its offset from its cluster's reference in
/// bytes, its size.
#[derive(Clone, Copy, Debug)]
struct Cand {
    op: u32,
    off: i64,
    size: i64,
    shape: Shape,
}

/// How ptxas pairs a member with others (`tests/hw/vecmerge`, the `mw_*`
/// probes): a 64-bit scalar (`u64`, `f64`, `b64`) joins only 64-bit
/// scalars (`ld.u32 [+0]; ld.u64 [+8]` stay `LDS` and `LDS.64`, and so do
/// a `v2.u32` and a `u64`), while 32-bit scalars and vectors of 8-, 16- or
/// 32-bit elements join each other (`v4.u16` and `v2.u32`: one `LDS.128`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// A 32-bit scalar.
    Scalar,
    /// A vector of elements narrower than 64 bits.
    Vector,
    /// A 64-bit scalar.
    Wide,
}

impl Shape {
    fn of(info: &crate::ir::MemOp) -> Shape {
        if info.vector > 1 {
            Shape::Vector
        } else if info.elem_bits == 64 {
            Shape::Wide
        } else {
            Shape::Scalar
        }
    }
    /// The class of members that may share a chunk.
    fn class(self) -> bool {
        self == Shape::Wide
    }
}

/// The members `cs` by naturally aligned `w`-byte chunk and [`Shape::class`]
/// (members of two classes never share a wide access), `r` being the
/// reference's address modulo `w`. Offsets far apart (wrapping arithmetic
/// of odd PTX) and members not aligned to their own size join none.
fn chunks_of(cs: &[Cand], r: i64, w: i64) -> std::collections::BTreeMap<(i64, bool), Vec<Cand>> {
    let mut chunks: std::collections::BTreeMap<(i64, bool), Vec<Cand>> = Default::default();
    for c in cs {
        let Some(pos) = r.checked_add(c.off).filter(|p| p.unsigned_abs() < 1 << 40) else {
            continue;
        };
        if pos.rem_euclid(c.size) != 0 {
            continue;
        }
        chunks
            .entry((pos.div_euclid(w), c.shape.class()))
            .or_default()
            .push(*c);
    }
    chunks
}

/// The store members of 16-byte chunks (`r16`: the reference's address
/// modulo 16) in which a vector member comes before (in PTX order) a
/// 32-bit scalar one: ptxas merges none of that chunk's stores.
fn stopped_store_chunks(cs: &[Cand], r16: i64) -> Vec<u32> {
    let mut stopped = Vec::new();
    for ((_, _), ms) in chunks_of(cs, r16, 16) {
        let first_vector = ms
            .iter()
            .filter(|c| c.shape == Shape::Vector)
            .map(|c| c.op)
            .min();
        let late_scalar =
            first_vector.is_some_and(|v| ms.iter().any(|c| c.shape == Shape::Scalar && c.op > v));
        if late_scalar {
            stopped.extend(ms.iter().map(|c| c.op));
        }
    }
    stopped
}

/// The SASS opcode of a wide access to shared memory, by the PTX's
/// declared space (a generic access of a shared variable is `LD.E`).
fn sass_name(op: AccessOp, declared: Space, bytes: u32) -> &'static str {
    match (op, declared == Space::Shared, bytes) {
        (AccessOp::Load, true, 16) => "LDS.128",
        (AccessOp::Load, true, _) => "LDS.64",
        (AccessOp::Load, false, 16) => "LD.E.128",
        (AccessOp::Load, false, _) => "LD.E.64",
        (_, true, 16) => "STS.128",
        (_, true, _) => "STS.64",
        (_, false, 16) => "ST.E.128",
        _ => "ST.E.64",
    }
}

/// True for a PTX `ld`/`st` ptxas may merge (see the module essay).
fn mergeable(ir: &Function<'_>, i: usize, space: Space) -> Option<(AccessOp, i64, Shape)> {
    let op = ir.ops.get(i)?;
    let OpKind::Mem { info, .. } = &op.kind else {
        return None;
    };
    let mn = ir.mnemonics.get(i).copied().unwrap_or("");
    let ptx = mn.starts_with("ld.") || mn.starts_with("st.");
    let ordered = [".volatile", ".acquire", ".release", ".mmio", ".weak."]
        .iter()
        .any(|q| mn.contains(q));
    if !ptx
        || ordered
        || memops::load_use(ir, i) != LoadUse::Kept
        || op.guard.is_some()
        || info.kind != MemKind::Plain
        || info.ext.is_some()
        || !matches!(info.op, AccessOp::Load | AccessOp::Store)
        || !matches!(info.bits, 32 | 64)
        || space != Space::Shared
    {
        return None;
    }
    Some((info.op, i64::from(info.bits / 8), Shape::of(info)))
}

/// How op `i` (not a candidate of the group at hand) stands between
/// members: `(stops loads, stops stores)`.
fn barrier(ir: &Function<'_>, i: usize, spaces: &HashMap<u32, Space>) -> (bool, bool) {
    let Some(op) = ir.ops.get(i) else {
        return (true, true);
    };
    match &op.kind {
        OpKind::Mem { info, .. } => {
            // A generic access may reach shared memory whatever the
            // analysis resolved (probe `ld2_stgeneric_between`).
            let space = spaces.get(&(i as u32)).copied().unwrap_or(info.space);
            let shared_like =
                info.space == Space::Generic || matches!(space, Space::Shared | Space::Generic);
            if info.kind != MemKind::Plain || info.op == AccessOp::Atomic {
                return (true, true);
            }
            let mn = ir.mnemonics.get(i).copied().unwrap_or("");
            if mn.contains(".volatile") || mn.contains(".acquire") || mn.contains(".release") {
                return (true, true);
            }
            match info.op {
                AccessOp::Store => (shared_like, shared_like),
                _ => (false, shared_like),
            }
        }
        OpKind::Call { .. } => (true, true),
        OpKind::LdParam { .. } => (false, false),
        _ if op.form == Form::Instruction => {
            let mn = ir.mnemonics.get(i).copied().unwrap_or("");
            if mn.starts_with("redux") {
                return (false, false);
            }
            let fence = [
                "bar",
                "barrier",
                "membar",
                "fence",
                "mbarrier",
                "cp.",
                "red",
                "atom",
                "wgmma",
                "tcgen05",
                "st",
                "ld",
                "prefetch",
                "multimem",
                "griddepcontrol",
                "tensormap",
            ]
            .iter()
            .any(|p| mn.starts_with(p));
            (fence, fence)
        }
        _ => (false, false),
    }
}

/// True for an instruction ptxas expands with a call to a slow-path
/// subroutine, which splits the SASS into blocks (probes `ld2_div_rn_f32`,
/// `ld2_rcp_rn_f32`, `ld2_sqrt_rn_f32`, `ld2_div_rn_f64`, `ld2_div_u64`;
/// not `.approx`/`.full`, nor 32-bit integer division: `ld2_div_full_f32`,
/// `ld2_sqrt_approx_f32`, `ld2_div_u32`).
fn slow_path(mn: &str) -> bool {
    // Every candidate starts with `d`, `r` or `s`: most mnemonics are
    // rejected by their first byte (this runs for every op of a kernel).
    if !matches!(mn.as_bytes().first(), Some(b'd' | b'r' | b's')) {
        return false;
    }
    let base = mn.split('.').next().unwrap_or("");
    if !matches!(base, "div" | "rcp" | "sqrt" | "rem")
        || mn.contains(".approx")
        || mn.contains(".full")
    {
        return false;
    }
    [".f32", ".f64", ".u64", ".s64"]
        .iter()
        .any(|t| mn.ends_with(t))
}

/// The residue modulo `m` of `p` in lane `l`, given what is known of the
/// symbols.
fn lane_residue(
    p: &Poly,
    l: usize,
    layout: &SharedLayout,
    facts: &SymFacts,
    m: u64,
) -> Option<i64> {
    let mut acc = Cong::exact(0);
    for (mono, c) in p.terms() {
        let mut mc = Cong::exact(c.at(l));
        for s in mono.syms() {
            mc = mc * layout.cong(*s, facts);
        }
        acc = acc + mc;
    }
    acc.residue_mod(m)
}

/// The residue modulo `m` of op `op`'s immediate (see [`split_constant`])
/// when its register part is provably a multiple of `m` in every
/// possibly-active lane of every class (ptxas tracks the alignment of
/// registers, not residues: a base of `0x404 + 16*tid` has alignment 4)
/// and the immediate has one residue in every class.
fn residue(results: &[ClassResult], op: u32, layout: &SharedLayout, m: u64) -> Option<i64> {
    let mut out = None;
    for r in results {
        let Some(f) = r.accesses.get(&op).filter(|f| f.mask != 0) else {
            continue;
        };
        let (key, c) = split_constant(f.addr.as_poly()?, layout);
        for l in 0..WARP {
            if f.mask & (1 << l) != 0 && lane_residue(&key, l, layout, &r.facts, m)? != 0 {
                return None;
            }
        }
        let x = c.rem_euclid(m as i64);
        match out {
            None => out = Some(x),
            Some(y) if y == x => {}
            Some(_) => return None,
        }
    }
    out
}

/// The address of op `op` in each class, split into its key (the
/// polynomial without its uniform constant) and that constant; `None` for a
/// class that does not reach the op (no fact, or no lane possibly active).
/// `None` overall when some class reaches it with an address that is not a
/// lane-exact polynomial, or none reaches it.
type Keyed = (Vec<Option<Poly>>, Vec<Option<i64>>);

fn keyed(results: &[ClassResult], op: u32, layout: &SharedLayout) -> Option<Keyed> {
    let mut keys = Vec::with_capacity(results.len());
    let mut consts = Vec::with_capacity(results.len());
    for r in results {
        let Some(f) = r.accesses.get(&op).filter(|f| f.mask != 0) else {
            keys.push(None);
            consts.push(None);
            continue;
        };
        let (key, c) = split_constant(f.addr.as_poly()?, layout);
        keys.push(Some(key));
        consts.push(Some(c));
    }
    keys.iter().any(Option::is_some).then_some((keys, consts))
}

/// For op `i` of a stretch whose address is not a
/// lane-exact polynomial in some class (it depends on loaded data, a
/// [`Value::Range`]): its address register with the number of writes to it
/// in the stretch before `i` (two members of one key read one value), and
/// its immediate in each class that reaches it (`writes`: the writes to
/// each register in the stretch before `i`); `None` for another kind of
/// address, or when no class reaches it.
type RegKeyed = ((u32, usize), Vec<Option<i64>>);

fn register_keyed(
    ir: &Function<'_>,
    results: &[ClassResult],
    i: usize,
    writes: &HashMap<u32, usize>,
) -> Option<RegKeyed> {
    let Some(OpKind::Mem { info, .. }) = ir.ops.get(i).map(|o| &o.kind) else {
        return None;
    };
    let Src::Reg(r, imm) = info.addr else {
        return None;
    };
    let mut consts = Vec::with_capacity(results.len());
    for res in results {
        match res.accesses.get(&(i as u32)).filter(|f| f.mask != 0) {
            None => consts.push(None),
            Some(f) if matches!(f.addr, Value::Range(_) | Value::Poly(_)) => consts.push(Some(imm)),
            Some(_) => return None,
        }
    }
    if consts.iter().all(Option::is_none) {
        return None;
    }
    let writes = writes.get(&r).copied().unwrap_or(0);
    Some(((r, writes), consts))
}

/// [`residue`] for a cluster keyed by its register ([`register_keyed`]):
/// the residue modulo `m` of op `op`'s immediate when the register's value
/// (the address less the immediate: `base + exact[l] + x`) is a multiple
/// of `m` in every possibly-active lane of every class, as ptxas proves
/// from the arithmetic that made it (`mats + (k & 127) * 48`: a multiple of
/// 16 from a 16-byte aligned variable, `tests/hw/blind19` `skinning_lbs4`,
/// three `LDS.128` a bone measured).
fn range_residue(
    ir: &Function<'_>,
    results: &[ClassResult],
    op: u32,
    layout: &SharedLayout,
    m: u64,
) -> Option<i64> {
    let Some(OpKind::Mem { info, .. }) = ir.ops.get(op as usize).map(|o| &o.kind) else {
        return None;
    };
    let Src::Reg(_, i) = info.addr else {
        return None;
    };
    let mut seen = false;
    for r in results {
        let Some(f) = r.accesses.get(&op).filter(|f| f.mask != 0) else {
            continue;
        };
        seen = true;
        let (base, cong, exact) = match &f.addr {
            Value::Range(g) => (&g.base, g.cong, g.exact.as_deref()),
            _ => return None,
        };
        // `x`'s congruence must fix it modulo `m` (an exact `x` is a
        // polynomial, not a range).
        if cong.m == 0 || cong.m % m != 0 {
            return None;
        }
        let b = lane_residue(base, 0, layout, &r.facts, m)?;
        for l in 0..WARP {
            if f.mask & (1 << l) == 0 {
                continue;
            }
            let e = exact.map_or(0, |e| e[l]);
            let v = (b as i128 + e as i128 + cong.r as i128 - i as i128).rem_euclid(m as i128);
            if v != 0 {
                return None;
            }
        }
    }
    seen.then(|| i.rem_euclid(m as i64))
}

/// An address as ptxas addresses it: a register part (the key) and an
/// immediate (the uniform constant). A shared variable's address plus a
/// constant, nothing else, is a constant in the shared window to ptxas
/// (`[UR4+0x10]`: two variables' words share one `LDS.128`, probe
/// `ld8_bcast_align4_second`): its key is zero and its constant the
/// variable's place plus the offset. Otherwise the variable's place stays
/// in the register part (probe `ld4_tid16_align4_second`).
fn split_constant(p: &Poly, layout: &SharedLayout) -> (Poly, i64) {
    let c = p
        .terms()
        .iter()
        .find(|(m, _)| m.degree() == 0)
        .map(|(_, c)| c.at(0))
        .unwrap_or(0);
    let key = p.add_const(c.wrapping_neg());
    if let [(m, Coef::Same(1))] = key.terms() {
        if let [Sym::Var(v)] = m.syms() {
            if let Some(o) = layout.offsets.get(*v as usize).copied().flatten() {
                return (Poly::default(), c.wrapping_add(o as i64));
            }
        }
    }
    (key, c)
}

/// The groups of memory ops ptxas merges in `ir` (see the module essay),
/// from the dataflow's `results` and the resolved `spaces`; `cfg` is
/// `ir`'s CFG.
pub fn plan(
    ir: &Function<'_>,
    cfg: &Cfg,
    results: &[ClassResult],
    spaces: &HashMap<u32, Space>,
) -> Plan {
    let mut plan = Plan::default();
    if results.is_empty() {
        return plan;
    }
    plan.unused = (0..ir.ops.len())
        .filter(|&i| matches!(ir.ops[i].kind, OpKind::Mem { .. }))
        .map(|i| (i as u32, memops::load_use(ir, i)))
        .filter(|u| u.1 != LoadUse::Kept)
        .collect();
    let stretches = stretches(ir);
    plan.reused = stretches
        .iter()
        .flat_map(|&range| reuses(ir, results, spaces, range))
        .collect();
    let cands: Vec<usize> = (0..ir.ops.len())
        .filter(|&i| {
            let space = spaces.get(&(i as u32)).copied();
            space.is_some_and(|s| mergeable(ir, i, s).is_some())
                && plan.reuse_of(i as u32).is_none()
        })
        .collect();
    let layout = SharedLayout::of(ir);
    if cands.len() >= 2 {
        for &(start, end) in &stretches {
            let lo = cands.partition_point(|&c| c < start);
            let hi = cands.partition_point(|&c| c < end);
            if hi - lo >= 2 {
                stretch(
                    ir,
                    results,
                    spaces,
                    &layout,
                    (start, end),
                    &cands[lo..hi],
                    &mut plan,
                );
            }
        }
    }
    // The loads no stretch merged: with a load of another block that
    // dominates them (see the module essay, *across blocks*).
    let rest: Vec<usize> = cands
        .iter()
        .copied()
        .filter(|&i| !plan.by_op.contains_key(&(i as u32)))
        .filter(|&i| {
            let space = spaces.get(&(i as u32)).copied().unwrap_or(Space::Generic);
            matches!(mergeable(ir, i, space), Some((AccessOp::Load, ..)))
        })
        .collect();
    if rest.len() >= 2 {
        cross_blocks(ir, results, spaces, &layout, &rest, &mut plan, cfg);
    }
    plan.groups.sort_by_key(|g| g.carrier);
    plan.by_op.clear();
    for (k, g) in plan.groups.iter().enumerate() {
        for &m in &g.members {
            plan.by_op.insert(m, k);
        }
    }
    // A reused load whose original was merged: its registers are written
    // by the group's carrier, earlier still; nothing between may touch them.
    let hosts: Vec<Option<u32>> = plan
        .reused
        .iter()
        .map(|u| match plan.group_of(u.of) {
            None => Some(u.of),
            Some(g) => {
                let dsts = ir.ops.get(u.op as usize).map(|o| o.kind.dsts());
                let free = dsts.is_some_and(|d| untouched(ir, (g.carrier, u.op), &d));
                free.then_some(g.carrier)
            }
        })
        .collect();
    let mut k = 0;
    plan.reused.retain_mut(|u| {
        let host = hosts[k];
        k += 1;
        match host {
            Some(h) => {
                u.host = h;
                true
            }
            None => false,
        }
    });
    plan
}

/// The straight-line stretches `[lo, hi)` of `ir`'s body: a branch
/// target, branch or exit ends one (a label no branch names, such as
/// Triton's `$L__tmp` line labels, does not), and so does an instruction
/// ptxas expands with a slow-path call.
fn stretches(ir: &Function<'_>) -> Vec<(usize, usize)> {
    let mut targets = vec![false; ir.ops.len()];
    for op in &ir.ops {
        if let OpKind::Branch {
            target, indexed, ..
        } = &op.kind
        {
            for t in target.iter().chain(indexed) {
                if let Some(x) = targets.get_mut(t.index()) {
                    *x = true;
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut start = 0usize;
    let n = ir.ops.len();
    for i in 0..=n {
        let ends = match ir.ops.get(i) {
            None => true,
            Some(op) => {
                (op.form == Form::Label && targets.get(i).copied().unwrap_or(true))
                    || op.is_terminator()
                    || slow_path(ir.mnemonics.get(i).copied().unwrap_or(""))
            }
        };
        if ends {
            if i > start {
                out.push((start, i));
            }
            start = i + 1;
        }
    }
    out
}

/// True for a PTX `ld` of shared memory whose bytes ptxas may keep in
/// registers for a later load of the same address (see the module essay):
/// plain, unguarded, not `.volatile` nor ordered.
fn reusable(ir: &Function<'_>, i: usize, spaces: &HashMap<u32, Space>) -> bool {
    let Some(op) = ir.ops.get(i) else {
        return false;
    };
    let OpKind::Mem { info, .. } = &op.kind else {
        return false;
    };
    if op.guard.is_some()
        || info.kind != MemKind::Plain
        || info.ext.is_some()
        || info.op != AccessOp::Load
        || !matches!(
            spaces.get(&(i as u32)).copied(),
            Some(Space::Shared | Space::Global)
        )
    {
        return false;
    }
    let mn = ir.mnemonics.get(i).copied().unwrap_or("");
    let ordered = [".volatile", ".acquire", ".release", ".mmio", ".weak."]
        .iter()
        .any(|q| mn.contains(q));
    mn.starts_with("ld.") && !ordered && memops::load_use(ir, i) == LoadUse::Kept
}

/// The address of op `op` in each class (`None` where the class does not
/// reach it); `None` overall when a class reaches it with an address that
/// is not a lane-exact polynomial, or no class reaches it.
fn addresses(results: &[ClassResult], op: u32) -> Option<Vec<Option<Poly>>> {
    let mut out = Vec::with_capacity(results.len());
    for r in results {
        match r.accesses.get(&op).filter(|f| f.mask != 0) {
            None => out.push(None),
            Some(f) => out.push(Some(f.addr.as_poly()?.clone())),
        }
    }
    out.iter().any(Option::is_some).then_some(out)
}

/// True when no op strictly between `from` and `to` reads or writes one of
/// the registers `regs` (nor is guarded by one).
fn untouched(ir: &Function<'_>, (from, to): (u32, u32), regs: &[crate::ir::Reg]) -> bool {
    let reads = |s: &Src| matches!(s, Src::Reg(r, _) if regs.contains(r));
    ir.ops
        .get(from as usize + 1..to as usize)
        .unwrap_or(&[])
        .iter()
        .all(|op| {
            if op.guard.is_some_and(|(g, _)| regs.contains(&g))
                || op.kind.dsts().iter().any(|d| regs.contains(d))
            {
                return false;
            }
            match &op.kind {
                OpKind::Alu { srcs, .. }
                | OpKind::PredLogic { srcs, .. }
                | OpKind::Other { srcs, .. } => !srcs.iter().any(reads),
                OpKind::Mem { info, .. } => {
                    !reads(&info.addr)
                        && !info
                            .ext
                            .as_ref()
                            .is_some_and(|e| e.aux.iter().any(|(_, s)| reads(s)))
                }
                OpKind::Call { call, .. } => !call.args.iter().any(reads),
                _ => true,
            }
        })
}

/// The loads of the straight-line stretch `[lo, hi)` that read the bytes
/// an earlier load of the stretch read, with nothing between that may
/// write shared memory or order it (what stops a load merge: a shared or
/// generic store, an atomic, a barrier or fence, a call), the same width,
/// the same address in every class, and registers nothing between touches.
fn reuses(
    ir: &Function<'_>,
    results: &[ClassResult],
    spaces: &HashMap<u32, Space>,
    (lo, hi): (usize, usize),
) -> Vec<Reuse> {
    // Loads whose bytes are still in registers: (op, bits, addresses,
    // global memory).
    type Live = (u32, u32, Vec<Option<Poly>>, bool);
    let mut live: Vec<Live> = Vec::new();
    let mut out = Vec::new();
    for i in lo..hi {
        if !reusable(ir, i, spaces) {
            if barrier(ir, i, spaces).0 {
                live.clear();
            } else if writes_global(ir, i, spaces) {
                live.retain(|l| !l.3);
            }
            continue;
        }
        let Some(OpKind::Mem { info, dsts }) = ir.ops.get(i).map(|o| &o.kind) else {
            continue;
        };
        let Some(addr) = addresses(results, i as u32) else {
            continue;
        };
        let global = spaces.get(&(i as u32)).copied() == Some(Space::Global);
        let earlier = live
            .iter()
            .find(|(_, bits, a, g)| *bits == info.bits && *a == addr && *g == global)
            .map(|l| l.0);
        match earlier {
            Some(of) => {
                if let Some(inits) = untouched_but_inits(ir, (of, i as u32), dsts) {
                    out.push(Reuse {
                        op: i as u32,
                        of,
                        host: of,
                        inits,
                    });
                }
            }
            None => live.push((i as u32, info.bits, addr, global)),
        }
    }
    out
}

/// Whether op `i` may write global memory (a plain store to global or
/// generic memory): the loads of global memory before it are not reused
/// after it.
fn writes_global(ir: &Function<'_>, i: usize, spaces: &HashMap<u32, Space>) -> bool {
    match ir.ops.get(i).map(|o| &o.kind) {
        Some(OpKind::Mem { info, .. }) => {
            info.op != AccessOp::Load
                && !matches!(
                    spaces.get(&(i as u32)).copied().unwrap_or(info.space),
                    Space::Shared | Space::Local
                )
        }
        _ => false,
    }
}

/// [`untouched`], except that unguarded moves of an immediate into
/// `regs` (and nothing else of them) may stand between: their ops, or
/// `None` where anything else touches `regs`.
fn untouched_but_inits(
    ir: &Function<'_>,
    (from, to): (u32, u32),
    regs: &[crate::ir::Reg],
) -> Option<Vec<u32>> {
    let mut inits = Vec::new();
    for k in from + 1..to {
        let op = ir.ops.get(k as usize)?;
        if let OpKind::Alu {
            alu,
            dst,
            dst2,
            srcs,
        } = &op.kind
        {
            if regs.contains(dst)
                && op.guard.is_none()
                && dst2.is_none()
                && alu.op == crate::ir::alu::AluOp::Mov
                && matches!(srcs.as_slice(), [Src::Imm(_)])
            {
                inits.push(k);
                continue;
            }
        }
        if !untouched(ir, (k - 1, k + 1), regs) {
            return None;
        }
    }
    Some(inits)
}

/// The groups of one straight-line stretch `[lo, hi)` whose candidate ops
/// are `cands` (ascending).
fn stretch(
    ir: &Function<'_>,
    results: &[ClassResult],
    spaces: &HashMap<u32, Space>,
    layout: &SharedLayout,
    (lo, hi): (usize, usize),
    cands: &[usize],
    plan: &mut Plan,
) {
    // Clusters: same direction, space and address up to a constant: the
    // same lane-exact polynomial in every class, or (an address of loaded
    // data) the same register, not written between, plus an immediate.
    type Key = (u8, u8, Vec<Option<Poly>>, Option<(u32, usize)>);
    /// A member: its op and its address's constant in each class.
    type Member = (usize, Vec<Option<i64>>);
    let mut clusters: Vec<(Key, Vec<Member>)> = Vec::new();
    let mut index: HashMap<Key, usize> = HashMap::new();
    // Writes to each register in the stretch before the candidate (one
    // pass over the stretch, however many candidates).
    let mut writes: HashMap<u32, usize> = HashMap::new();
    let mut seen = lo;
    for &i in cands {
        let space = spaces.get(&(i as u32)).copied().unwrap_or(Space::Generic);
        let Some((dir, ..)) = mergeable(ir, i, space) else {
            continue;
        };
        let keyed = keyed(results, i as u32, layout);
        if keyed.is_none() {
            // Counted only where an address needs it, up to this op.
            for o in ir.ops.get(seen..i).unwrap_or_default() {
                for d in o.kind.dsts() {
                    *writes.entry(d).or_default() += 1;
                }
            }
            seen = seen.max(i);
        }
        let (keys, consts, reg) = match keyed {
            Some((keys, consts)) => (keys, consts, None),
            None => match register_keyed(ir, results, i, &writes) {
                Some((reg, consts)) => (Vec::new(), consts, Some(reg)),
                None => continue,
            },
        };
        let key = (dir as u8, space as u8, keys, reg);
        match index.get(&key) {
            Some(&k) => clusters[k].1.push((i, consts)),
            None => {
                index.insert(key.clone(), clusters.len());
                clusters.push((key, vec![(i, consts)]));
            }
        }
    }
    for ((dir, _, _, reg), members) in clusters {
        if members.len() < 2 {
            continue;
        }
        let dir = if dir == AccessOp::Load as u8 {
            AccessOp::Load
        } else {
            AccessOp::Store
        };
        let (reference, ref_consts) = (members[0].0, members[0].1.clone());
        // Offsets from the reference, the same in every class.
        let mut cs: Vec<Cand> = Vec::new();
        for (i, consts) in &members {
            // Both reach the same classes (the keys are equal).
            let d: Vec<i64> = consts
                .iter()
                .zip(&ref_consts)
                .filter_map(|(a, b)| Some(a.as_ref()?.wrapping_sub(*b.as_ref()?)))
                .collect();
            if d.is_empty() || d.iter().any(|&x| x != d[0]) {
                continue;
            }
            let space = spaces.get(&(*i as u32)).copied().unwrap_or(Space::Generic);
            let Some((_, size, shape)) = mergeable(ir, *i, space) else {
                continue;
            };
            cs.push(Cand {
                op: *i as u32,
                off: d[0],
                size,
                shape,
            });
        }
        // The SASS is named by the declared space (a generic access of a
        // shared variable is `LD.E`).
        let space = match ir.ops.get(reference).map(|o| &o.kind) {
            Some(OpKind::Mem { info, .. }) => info.space,
            _ => Space::Generic,
        };
        let residue_of = |w: i64| match reg {
            None => residue(results, reference as u32, layout, w as u64),
            Some(_) => range_residue(ir, results, reference as u32, layout, w as u64),
        };
        let residue16 = residue_of(16);
        // A store chunk where a vector member comes before a 32-bit scalar
        // one merges nothing, its 8-byte halves neither (`mw_st_v2_u32x2`,
        // `mw_st_v2x3_u32x2`; scalars first, then the vector: one
        // `STS.128`, `mw_st_u32x2_v2`).
        let stopped: Vec<u32> = match (dir, residue16) {
            (AccessOp::Store, Some(r16)) => stopped_store_chunks(&cs, r16),
            _ => Vec::new(),
        };
        for (w, r) in [(16i64, residue16), (8, residue_of(8))] {
            let Some(r) = r else {
                continue;
            };
            let usable: Vec<Cand> = cs
                .iter()
                .filter(|c| !plan.by_op.contains_key(&c.op) && !stopped.contains(&c.op))
                .copied()
                .collect();
            for ((chunk, _), mut ms) in chunks_of(&usable, r, w) {
                if ms.len() < 2 {
                    continue;
                }
                ms.sort_by_key(|c| c.off);
                let overlap = ms.windows(2).any(|p| p[0].off + p[0].size > p[1].off);
                let covered: i64 = ms.iter().map(|c| c.size).sum();
                let enough = match (dir, w) {
                    (AccessOp::Load, 16) => covered >= 12,
                    _ => covered == w,
                };
                if overlap || !enough {
                    continue;
                }
                ms.sort_by_key(|c| c.op);
                let (first, last) = (ms[0].op as usize, ms[ms.len() - 1].op as usize);
                if !clear_between(ir, spaces, dir, (first, last), &ms, (lo, hi)) {
                    continue;
                }
                let carrier = if dir == AccessOp::Load {
                    ms[0]
                } else {
                    ms[ms.len() - 1]
                };
                let start = chunk * w - r; // |chunk * w| < 2^40 + 16
                let g = Group {
                    carrier: carrier.op,
                    members: ms.iter().map(|c| c.op).collect(),
                    bytes: w as u32,
                    delta: start - carrier.off,
                    sass: sass_name(dir, space, w as u32),
                };
                for m in &g.members {
                    plan.by_op.insert(*m, usize::MAX);
                }
                plan.groups.push(g);
            }
        }
    }
}

/// The groups of loads that ptxas merges across blocks (see the module
/// essay, *across blocks*): `cands` are the load candidates (ascending) no
/// stretch merged. A cluster gathers the loads whose block the cluster's
/// first load (its *anchor*) dominates, in the same innermost loop, whose
/// addresses differ from the anchor's by one constant in every class that
/// reaches them (a class that reaches one reaches the anchor); its chunks
/// are formed as in a stretch, each carried by the member that dominates
/// the others, with nothing on any path from it to a member that stops a
/// load merge.
fn cross_blocks(
    ir: &Function<'_>,
    results: &[ClassResult],
    spaces: &HashMap<u32, Space>,
    layout: &SharedLayout,
    cands: &[usize],
    plan: &mut Plan,
    cfg: &Cfg,
) {
    struct Cluster {
        anchor: usize,
        block: BlockId,
        space: Space,
        keys: Vec<Option<Poly>>,
        members: Vec<(usize, Vec<Option<i64>>)>,
    }
    // A later load may join: every class reaching it reaches the anchor
    // with the same key.
    let compatible = |anchor: &[Option<Poly>], keys: &[Option<Poly>]| {
        anchor.len() == keys.len()
            && anchor.iter().zip(keys).all(|(a, k)| match (a, k) {
                (_, None) => true,
                (Some(a), Some(k)) => a == k,
                (None, Some(_)) => false,
            })
    };
    let mut clusters: Vec<Cluster> = Vec::new();
    for &i in cands {
        let space = spaces.get(&(i as u32)).copied().unwrap_or(Space::Generic);
        let Some((keys, consts)) = keyed(results, i as u32, layout) else {
            continue;
        };
        let b = cfg.block_of(OpId(i as u32));
        if !cfg.is_reachable(b) {
            continue;
        }
        let home = clusters.iter_mut().find(|c| {
            c.space == space
                && cfg.dominates(c.block, b)
                && cfg.loop_of(c.block) == cfg.loop_of(b)
                && compatible(&c.keys, &keys)
        });
        match home {
            Some(c) => c.members.push((i, consts)),
            None => clusters.push(Cluster {
                anchor: i,
                block: b,
                space,
                keys,
                members: vec![(i, consts)],
            }),
        }
    }
    // Op `a` runs before op `b` on every path to `b`.
    let dominates = |a: u32, b: u32| {
        let (ba, bb) = (cfg.block_of(OpId(a)), cfg.block_of(OpId(b)));
        if ba == bb {
            a <= b
        } else {
            cfg.dominates(ba, bb)
        }
    };
    // The registers a member writes are written by it alone (the carrier
    // writes them earlier, on paths that may skip the member).
    let single = |m: u32| {
        ir.ops.get(m as usize).is_some_and(|op| {
            op.kind
                .dsts()
                .iter()
                .all(|r| ir.single_defs.def.get(r) == Some(&OpId(m)))
        })
    };
    for c in clusters {
        if c.members.len() < 2 {
            continue;
        }
        let ref_consts = &c.members[0].1;
        let mut cs: Vec<Cand> = Vec::new();
        for (i, consts) in &c.members {
            let d: Vec<i64> = consts
                .iter()
                .zip(ref_consts)
                .filter_map(|(a, b)| Some(a.as_ref()?.wrapping_sub(*b.as_ref()?)))
                .collect();
            if d.is_empty() || d.iter().any(|&x| x != d[0]) {
                continue;
            }
            let Some((_, size, shape)) = mergeable(ir, *i, c.space) else {
                continue;
            };
            cs.push(Cand {
                op: *i as u32,
                off: d[0],
                size,
                shape,
            });
        }
        let declared = match ir.ops.get(c.anchor).map(|o| &o.kind) {
            Some(OpKind::Mem { info, .. }) => info.space,
            _ => Space::Generic,
        };
        for w in [16i64, 8] {
            let Some(r) = residue(results, c.anchor as u32, layout, w as u64) else {
                continue;
            };
            let usable: Vec<Cand> = cs
                .iter()
                .filter(|m| !plan.by_op.contains_key(&m.op))
                .copied()
                .collect();
            for ((chunk, _), mut ms) in chunks_of(&usable, r, w) {
                if ms.len() < 2 {
                    continue;
                }
                ms.sort_by_key(|m| m.off);
                let overlap = ms.windows(2).any(|p| p[0].off + p[0].size > p[1].off);
                let covered: i64 = ms.iter().map(|m| m.size).sum();
                if overlap || covered < if w == 16 { 12 } else { 8 } {
                    continue;
                }
                ms.sort_by_key(|m| m.op);
                let Some(carrier) = ms
                    .iter()
                    .copied()
                    .find(|a| ms.iter().all(|m| dominates(a.op, m.op)))
                else {
                    continue;
                };
                let ok = ms
                    .iter()
                    .filter(|m| m.op != carrier.op)
                    .all(|m| single(m.op) && clear_paths(ir, cfg, spaces, (carrier.op, m.op), &ms));
                if !ok {
                    continue;
                }
                let start = chunk * w - r;
                let mut members: Vec<u32> = ms.iter().map(|m| m.op).collect();
                members.sort_unstable();
                let g = Group {
                    carrier: carrier.op,
                    members,
                    bytes: w as u32,
                    delta: start - carrier.off,
                    sass: sass_name(AccessOp::Load, declared, w as u32),
                };
                for m in &g.members {
                    plan.by_op.insert(*m, usize::MAX);
                }
                plan.groups.push(g);
            }
        }
    }
}

/// True when nothing on any path from op `from` to op `to` (which `from`
/// dominates) stops ptxas from merging loads (`barrier`, a slow-path
/// instruction), the `members` aside: the rest of `from`'s block, every
/// block on such a path, and `to`'s block up to `to` (all of it when a
/// cycle of the region passes through it).
fn clear_paths(
    ir: &Function<'_>,
    cfg: &Cfg,
    spaces: &HashMap<u32, Space>,
    (from, to): (u32, u32),
    members: &[Cand],
) -> bool {
    let stops = |i: usize| {
        !members.iter().any(|m| m.op as usize == i)
            && (barrier(ir, i, spaces).0 || slow_path(ir.mnemonics.get(i).copied().unwrap_or("")))
    };
    let (bf, bt) = (cfg.block_of(OpId(from)), cfg.block_of(OpId(to)));
    if bf == bt {
        return (from as usize + 1..to as usize).all(|i| !stops(i));
    }
    let n = cfg.blocks().len();
    // Blocks reachable from `bf` (not through it again), and those that
    // reach `bt` (likewise).
    let walk = |start: BlockId, forward: bool| {
        let mut seen = vec![false; n];
        let next = |x: BlockId| -> Vec<BlockId> {
            if forward {
                cfg.successors(x).map(|(y, _)| y).collect()
            } else {
                cfg.predecessors(x).map(|(y, _)| y).collect()
            }
        };
        let mut stack = next(start);
        while let Some(x) = stack.pop() {
            if x == bf || seen[x.index()] {
                continue;
            }
            seen[x.index()] = true;
            stack.extend(next(x));
        }
        seen
    };
    let (fwd, back) = (walk(bf, true), walk(bt, false));
    let range = |b: BlockId| {
        let s = &cfg.block(b).stmts;
        s.start as usize..s.end as usize
    };
    let tail = from as usize + 1..range(bf).end;
    let head = if back[bt.index()] {
        range(bt)
    } else {
        range(bt).start..to as usize
    };
    let between = (0..n)
        .map(|x| BlockId(x as u32))
        .filter(|&x| x != bt && fwd[x.index()] && back[x.index()])
        .flat_map(range);
    tail.chain(head).chain(between).all(|i| !stops(i))
}

/// True when nothing between ops `first` and `last` stops ptxas from
/// merging the `members` (a chunk of direction `dir`).
fn clear_between(
    ir: &Function<'_>,
    spaces: &HashMap<u32, Space>,
    dir: AccessOp,
    (first, last): (usize, usize),
    members: &[Cand],
    (lo, hi): (usize, usize),
) -> bool {
    if first < lo || last >= hi {
        return false;
    }
    (first + 1..last).all(|i| {
        if members.iter().any(|c| c.op as usize == i) {
            return true;
        }
        let (stops_loads, stops_stores) = barrier(ir, i, spaces);
        match dir {
            AccessOp::Load => !stops_loads,
            _ => !stops_stores,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layout of `tests/hw/vecmerge/layout.ptx` `l8_names` and
    /// `l4_dyn4`, as ptxas placed them (`layout.txt`): function-scope
    /// variables first in declaration order, then module-scope ones; the
    /// dynamic shared memory after them at 16.
    #[test]
    fn shared_layout_follows_ptxas() {
        let ptx = ".version 8.5\n.target sm_90\n.address_size 64\n\
                   .shared .align 4 .b8 m_z[4];\n.shared .align 4 .b8 m_y[4];\n\
                   .shared .align 4 .b8 m_unused[64];\n\
                   .extern .shared .align 4 .b8 dyn[];\n\
                   .visible .entry k(.param .u64 o)\n{\n.reg .b32 %r<8>;\n\
                   .shared .align 4 .b8 z[4];\n.shared .align 4 .b8 y[4];\n\
                   .shared .align 4 .b8 x[4];\n.shared .align 16 .b8 w[16];\n\
                   mov.u32 %r1, x;\nmov.u32 %r2, y;\nmov.u32 %r3, z;\n\
                   mov.u32 %r4, m_y;\nmov.u32 %r5, m_z;\nmov.u32 %r6, w;\nmov.u32 %r7, dyn;\nret;\n}\n";
        let fs = crate::pipeline::lower_text(ptx);
        let f = &fs[0];
        let l = SharedLayout::of(f);
        let at = |name: &str| {
            let i = f.vars.iter().position(|v| v.name == name).expect(name);
            l.offsets[i]
        };
        assert_eq!(
            ["z", "y", "x", "w", "m_z", "m_y", "dyn"].map(at),
            [0, 4, 8, 16, 32, 36, 48].map(Some)
        );
        assert_eq!(at("m_unused"), None);
    }

    /// The accesses of a one-kernel module `body` (with a `.shared .align
    /// 4 .b8 sm[4096]`, `%r1 = %tid.x`, `%r2` the `.u32` parameter `n`),
    /// analysed with `opts`: (mnemonic, caveats) in PTX order.
    fn accesses(body: &str, opts: &crate::analysis::Options) -> Vec<(String, Vec<Caveat>)> {
        let ptx = format!(
            ".version 8.5\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 k_out, .param .u32 k_n)\n{{\n\
             .reg .pred %p<8>;\n.reg .b32 %r<64>;\n.reg .f32 %f<32>;\n.reg .b64 %rd<8>;\n\
             .shared .align 4 .b8 sm[4096];\n\
             ld.param.u32 %r2, [k_n];\nmov.u32 %r1, %tid.x;\nmov.u32 %r9, sm;\n\
             {body}\n{SINK}ret;\n}}\n"
        );
        let file = crate::source::SourceFile::from_text("k.ptx", ptx);
        let a = crate::pipeline::analyze(&file, opts);
        a.kernels[0]
            .accesses
            .iter()
            .filter(|x| x.instruction != "st.volatile.global.f32")
            .map(|x| (x.instruction.clone(), x.caveats.clone()))
            .collect()
    }

    /// Uses the loads' results (`%f1`..`%f8`), as real code does: ptxas
    /// deletes a load whose result is unused (`memops::load_use`). Its
    /// store is left out of the accesses the tests see.
    const SINK: &str = "add.f32 %f31, %f1, %f2;\nadd.f32 %f31, %f31, %f3;\n\
        add.f32 %f31, %f31, %f4;\nadd.f32 %f31, %f31, %f5;\nadd.f32 %f31, %f31, %f6;\n\
        add.f32 %f31, %f31, %f7;\nadd.f32 %f31, %f31, %f8;\nst.volatile.global.f32 [%rd7], %f31;\n";

    fn reused(c: &[Caveat]) -> bool {
        c.iter().any(|c| matches!(c, Caveat::ReusedLoad { .. }))
    }

    fn merged(c: &[Caveat]) -> Option<u32> {
        c.iter().find_map(|c| match c {
            Caveat::MergedAccess { bytes, .. } => Some(*bytes),
            _ => None,
        })
    }

    use crate::analysis::Caveat;

    /// A load of the bytes an earlier load read, with only arithmetic and a
    /// shuffle between, is not issued again (probe `ld2_dup`,
    /// `tests/hw/blind7` `cub_vec_scan`); a shared store, a barrier or a
    /// read of its register between keeps it.
    #[test]
    fn reloads_reuse_registers_until_a_store() {
        let opts = crate::analysis::Options::default();
        let addr = "mul.lo.u32 %r3, %r1, 4;\nadd.u32 %r4, %r9, %r3;\n";
        let a = accesses(
            &format!(
                "{addr}ld.shared.f32 %f1, [%r4];\n\
                 shfl.sync.up.b32 %r5, %r1, 1, 0, -1;\n\
                 ld.shared.f32 %f2, [%r4];"
            ),
            &opts,
        );
        assert_eq!(a.len(), 2);
        assert!(!reused(&a[0].1) && reused(&a[1].1), "{a:?}");
        for between in [
            "st.shared.f32 [%r4+128], %f9;",
            "bar.sync 0;",
            "tensormap.replace.tile.rank.shared::cta.b1024.b32 [%rd1], 1;",
            "add.f32 %f3, %f2, %f2;",
        ] {
            let a = accesses(
                &format!(
                    "{addr}mov.f32 %f2, 0f00000000;\nld.shared.f32 %f1, [%r4];\n\
                     {between}\nld.shared.f32 %f2, [%r4];"
                ),
                &opts,
            );
            assert!(a.iter().all(|x| !reused(&x.1)), "{between}: {a:?}");
        }
    }

    /// Four words of a 16-byte aligned chunk of a variable placed at 0,
    /// addressed through a loop's induction variable: the layout's
    /// alignment reaches the loop (`kmeans_assign8`), one `LDS.128`; a
    /// `tensormap.*` between them keeps them scalar.
    #[test]
    fn layout_alignment_reaches_loop_addresses() {
        let opts = crate::analysis::Options::default();
        let body = |between: &str| {
            format!(
                "mov.u32 %r5, 0;\nmov.u32 %r6, %r9;\n$L_loop:\n\
                 ld.shared.f32 %f1, [%r6];\nld.shared.f32 %f2, [%r6+4];\n{between}\n\
                 ld.shared.f32 %f3, [%r6+8];\nld.shared.f32 %f4, [%r6+12];\n\
                 add.u32 %r6, %r6, 32;\nadd.u32 %r5, %r5, 1;\n\
                 setp.lt.u32 %p1, %r5, 48;\n@%p1 bra $L_loop;"
            )
        };
        let a = accesses(&body(""), &opts);
        assert_eq!(merged(&a[0].1), Some(16), "{a:?}");
        let a = accesses(
            &body("tensormap.replace.tile.rank.shared::cta.b1024.b32 [%rd1], 1;"),
            &opts,
        );
        // `tensormap.replace` is an access of its own (a shared store), a[2].
        assert_eq!(merged(&a[0].1), Some(8), "{a:?}");
        assert_eq!(merged(&a[3].1), Some(8), "{a:?}");
    }

    /// A chunk aligned only for the parameter's given value is not merged:
    /// ptxas compiles without it (`moe_align_block`, blind4.cu:263).
    #[test]
    fn launch_values_prove_no_alignment() {
        let body = "mul.lo.u32 %r3, %r1, %r2;\nshl.b32 %r4, %r3, 2;\n\
                    add.u32 %r5, %r9, %r4;\n\
                    st.shared.u32 [%r5], %r1;\nst.shared.u32 [%r5+4], %r1;";
        let mut opts = crate::analysis::Options::default();
        let a = accesses(body, &opts);
        assert!(a.iter().all(|x| merged(&x.1).is_none()), "{a:?}");
        opts.launch.params = vec![(
            crate::analysis::ParamKey::Index(1),
            crate::analysis::ParamValue::Int(2),
        )];
        let a = accesses(body, &opts);
        assert!(a.iter().all(|x| merged(&x.1).is_none()), "{a:?}");
    }

    /// A row of a 2-D block's tile, `sm + pitch * tid.y + 4k` (k = 0..3),
    /// with no block shape given: the assumed 1-D block has `tid.y = 0`,
    /// but ptxas compiles without that assumption, so a 36-byte pitch
    /// (`float tile[8][9]`) leaves the row 4-byte aligned and its words
    /// scalar, where a 32-byte pitch makes them one `LDS.128`
    /// (`tests/hw/blind18` `dct8x8_jpeg`: eight scalar `LDS` of `tile[y][k]`,
    /// two `LDS.128` of `cs[x][k]`, measured). The same with the block
    /// given as 8 x 8.
    #[test]
    fn rows_of_tid_y_keep_the_pitch_alignment() {
        let body = |pitch: u32| {
            format!(
                "mov.u32 %r3, %tid.y;
mul.lo.u32 %r4, %r3, {pitch};
add.u32 %r5, %r9, %r4;
                 ld.shared.f32 %f1, [%r5];
ld.shared.f32 %f2, [%r5+4];
                 ld.shared.f32 %f3, [%r5+8];
ld.shared.f32 %f4, [%r5+12];
                 mov.f32 %f5, 0f00000000;
mov.f32 %f6, 0f00000000;
                 mov.f32 %f7, 0f00000000;
mov.f32 %f8, 0f00000000;"
            )
        };
        let mut opts = crate::analysis::Options::default();
        for given in [false, true] {
            if given {
                opts.launch.block = Some([8, 8, 1]);
            }
            let a = accesses(&body(36), &opts);
            assert_eq!(a.len(), 4, "{a:?}");
            assert!(a.iter().all(|x| merged(&x.1).is_none()), "{given}: {a:?}");
            let a = accesses(&body(32), &opts);
            assert_eq!(merged(&a[0].1), Some(16), "{given}: {a:?}");
        }
    }

    /// Four words of a row at a loaded index, `sm + (idx & 127) * pitch`:
    /// the address is a range, not a lane-exact polynomial, but the four
    /// loads read one register plus 0, 4, 8, 12, and ptxas proves the
    /// register part a multiple of 16 for a 48-byte pitch (one `LDS.128`:
    /// `tests/hw/blind19` `skinning_lbs4`, three a bone, measured), of 8 for
    /// a 40-byte pitch (two `LDS.64`), of 4 only for 36 (scalar).
    #[test]
    fn rows_at_a_loaded_index_merge_by_their_register() {
        let body = |pitch: u32| {
            format!(
                "ld.param.u64 %rd1, [k_out];
cvta.to.global.u64 %rd2, %rd1;
                 mul.wide.u32 %rd3, %r1, 4;
add.s64 %rd4, %rd2, %rd3;
                 ld.global.u32 %r10, [%rd4];
and.b32 %r11, %r10, 127;
                 mul.lo.u32 %r12, %r11, {pitch};
add.u32 %r13, %r9, %r12;
                 ld.shared.f32 %f1, [%r13];
ld.shared.f32 %f2, [%r13+4];
                 ld.shared.f32 %f3, [%r13+8];
ld.shared.f32 %f4, [%r13+12];
                 mov.f32 %f5, 0f00000000;
mov.f32 %f6, 0f00000000;
                 mov.f32 %f7, 0f00000000;
mov.f32 %f8, 0f00000000;"
            )
        };
        let opts = crate::analysis::Options::default();
        let shared = |pitch| {
            accesses(&body(pitch), &opts)
                .into_iter()
                .filter(|x| x.0.starts_with("ld.shared"))
                .map(|x| {
                    x.1.iter().find_map(|c| match c {
                        Caveat::MergedAccess { bytes, .. } | Caveat::MergedInto { bytes, .. } => {
                            Some(*bytes)
                        }
                        _ => None,
                    })
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(shared(48), vec![Some(16); 4]);
        assert_eq!(shared(40), vec![Some(8); 4]);
        assert_eq!(shared(36), vec![None; 4]);
    }

    /// A merged load whose members' registers different ops read does not
    /// sink below the tail exit with one of them (ptxas needs the wide
    /// load before the first reader): the `LDS.64` of `sm[2 tid]`,
    /// `sm[2 tid + 1]` issues in both warps, though only warp 0 reaches the
    /// guarded tail store that alone reads the first word (`tid < 32`, 64
    /// threads). This kernel's SASS (ptxas 13.5, sm_90): `LDS.64`, the
    /// first `STG`, `@P0 EXIT`, the tail's `STG`.
    #[test]
    fn merged_loads_keep_their_readers() {
        let mut opts = crate::analysis::Options::default();
        opts.launch.block = Some([64, 1, 1]);
        opts.launch.grid = Some([1, 1, 1]);
        let ptx = ".version 8.5\n.target sm_90\n.address_size 64\n\
                   .visible .entry k(.param .u64 k_out)\n{\n\
                   .reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .f32 %f<4>;\n.reg .b64 %rd<8>;\n\
                   .shared .align 16 .b8 sm[512];\n\
                   ld.param.u64 %rd1, [k_out];\ncvta.to.global.u64 %rd2, %rd1;\n\
                   mov.u32 %r1, %tid.x;\nmov.u32 %r2, sm;\nshl.b32 %r3, %r1, 3;\n\
                   add.s32 %r4, %r2, %r3;\nmul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n\
                   ld.shared.f32 %f1, [%r4];\nld.shared.f32 %f2, [%r4+4];\n\
                   st.global.f32 [%rd4+256], %f2;\n\
                   setp.lt.u32 %p1, %r1, 32;\n@%p1 st.global.f32 [%rd4], %f1;\nret;\n}\n";
        let file = crate::source::SourceFile::from_text("k.ptx", ptx.to_string());
        let a = crate::pipeline::analyze(&file, &opts);
        let acc = &a.kernels[0].accesses;
        assert_eq!(merged(&acc[0].caveats), Some(8), "{acc:?}");
        assert_eq!(acc[0].requests, Some(2), "{acc:?}");
        // The tail store alone: 1 request (warp 1 exits).
        assert_eq!(acc[3].requests, Some(1), "{acc:?}");
    }

    /// A 64-bit scalar shares no wide access with 32-bit members, and a
    /// vector store before a scalar one in its 16-byte chunk stops the
    /// chunk's merging (probes `mw_*` of `tests/hw/vecmerge`).
    #[test]
    fn member_shapes_follow_ptxas() {
        let opts = crate::analysis::Options::default();
        let widths = |body: &str| -> Vec<Option<u32>> {
            accesses(body, &opts)
                .iter()
                .map(|(_, c)| merged(c))
                .collect()
        };
        let base = "mul.lo.u32 %r8, %r1, 16;\nadd.u32 %r10, %r9, %r8;\n";
        // u32 [+0], u32 [+4], u64 [+8]: the two words one LDS.64, the u64
        // alone (`mw_ld_u32x2_u64`); with a third u32 instead, one LDS.128.
        let mixed = format!(
            "{base}ld.shared.f32 %f1, [%r10];\nld.shared.f32 %f2, [%r10+4];\n\
             ld.shared.u64 %rd1, [%r10+8];\nmov.b64 {{%r20, %r21}}, %rd1;\n\
             add.u32 %r20, %r20, %r21;\ncvt.rn.f32.u32 %f3, %r20;"
        );
        assert_eq!(widths(&mixed), vec![Some(8), None, None]);
        let words = format!(
            "{base}ld.shared.f32 %f1, [%r10];\nld.shared.f32 %f2, [%r10+4];\n\
             ld.shared.f32 %f3, [%r10+8];"
        );
        assert_eq!(widths(&words), vec![Some(16), None, None]);
        // Stores: st.v2 [+0], st [+8], st [+12] merge nothing
        // (`mw_st_v2_u32x2`); the scalars first make one STS.128.
        let late = format!(
            "{base}st.shared.v2.f32 [%r10], {{%f1, %f2}};\nst.shared.f32 [%r10+8], %f3;\n\
             st.shared.f32 [%r10+12], %f4;"
        );
        assert_eq!(widths(&late), vec![None, None, None]);
        let early = format!(
            "{base}st.shared.f32 [%r10+8], %f3;\nst.shared.f32 [%r10+12], %f4;\n\
             st.shared.v2.f32 [%r10], {{%f1, %f2}};"
        );
        assert_eq!(widths(&early), vec![None, None, Some(16)]);
    }

    #[test]
    fn slow_paths_split_stretches() {
        for m in [
            "div.rn.f32",
            "div.rn.ftz.f32",
            "rcp.rn.f64",
            "sqrt.rn.f32",
            "div.s64",
            "rem.u64",
        ] {
            assert!(slow_path(m), "{m}");
        }
        for m in [
            "div.full.f32",
            "div.approx.ftz.f32",
            "sqrt.approx.f32",
            "div.u32",
            "rem.s32",
            "add.f32",
        ] {
            assert!(!slow_path(m), "{m}");
        }
    }
}
