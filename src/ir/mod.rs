//! The warp IR: what a front end hands to the analysis.
//!
//! A front end (today [`crate::lower::ptx`], which lowers the PTX syntax tree
//! with its semantic tables) produces one [`Function`] per function body. The
//! analysis ([`crate::analysis`]), the control-flow graph ([`crate::cfg`]),
//! the cost model, the lints and the reports read only this IR and the
//! analysis results derived from it: nothing behind this seam names a PTX
//! token, a syntax node or a symbol table (`ARCHITECTURE.md`, "analysis never
//! imports syntax or sema", enforced by `tests/architecture.rs`).
//!
//! # Shape
//!
//! - **Operations in an arena.** [`Function::ops`] holds one [`Op`] per
//!   *statement* of the source body, in source order, and [`OpId`] (a `u32`
//!   newtype) indexes it. Statements that do nothing at run time (labels,
//!   declarations, `.loc`, scope braces) become [`OpKind::Nop`] with a
//!   [`Form`] saying what they were, so an `OpId` equals the PTX `StmtId` of
//!   the same statement (`OpId(stmt.0)`): front-end side tables (hovers,
//!   go-to-definition) and IR side tables share one key.
//! - **Side vectors, one entry per op.** [`Function::spans`] (the exact byte
//!   span of the source statement), [`Function::locs`] (the `.loc` source
//!   location in force, an index into [`Function::loc_table`]) and
//!   [`Function::mnemonics`] (the instruction's full mnemonic, for display).
//!   Analysis facts live in the analysis' own side tables keyed by `OpId`.
//! - **Registers** are interned per function: a [`Reg`] is an index into
//!   [`Function::regs`], which keeps each register's source name for display.
//!   Operands are [`Src`] values (register + constant offset, immediate,
//!   special register, variable or parameter address).
//! - **Memory operations are first-class** ([`MemOp`]): direction
//!   ([`AccessOp`]), [`MemKind`] (plain, atomic, reduction, async copy, bulk
//!   copy, matrix load/store, tensor-core operand), [`Space`], element width
//!   and vector count, cache and eviction qualifiers ([`CacheHints`]), and the
//!   address operand. The guard of a memory operation is its op's
//!   [`Op::guard`], like every other op's.
//! - **Control flow** is explicit: [`OpKind::Branch`] names its target (and
//!   the targets of an indexed branch) as op ids, already resolved through
//!   the source's label scopes; [`OpKind::Exit`] leaves the function. The CFG
//!   ([`crate::cfg::Cfg::build`]) is built from these alone.
//! - **Function facts**: name (and demangled name), [`Param`]s (name, type,
//!   bit width, span, whether used as a pointer: [`Function::pointer_params`]),
//!   launch directives ([`LaunchDirectives`]), variables ([`Variable`]: the
//!   module's, then the body's), and the `.loc` table with full inline chains
//!   ([`Loc::inlined_at`]), with, per op, how many frames of its chain the
//!   line table holds ([`Function::line_frames`]).
//!
//! # Values: registers, and SSA beside them
//!
//! Operands are *registers* that may be assigned many times, as in PTX. The
//! SSA form ([`ssa::Ssa`]) is a side structure over a function and its CFG:
//! a value arena with one value per definition, phis at the joins, and
//! tables from each op's register reads and writes to values, so the ops
//! keep their ids and every consumer chooses the view it needs.
//!
//! The IR's instruction vocabulary ([`alu`]: [`Alu`], the integer operation
//! and its type) lives here; what an instruction does to abstract values is
//! the analysis' business. The IR never imports the analysis
//! (`tests/architecture.rs`).
//!
//! # Invariants
//!
//! - `ops`, `spans`, `locs` and `mnemonics` have the same length.
//! - Every [`Reg`] in an op is `< regs.len()`; every `Src::Var(v, _)` is
//!   `< vars.len()`; every `Src::Param(p, _)` is `< params.len()`.
//! - Branch targets are ops of [`Form::Label`], or the op after a call
//!   that was inlined (its return point: the call op, now a branch, ends
//!   the block before it).
//! - Ops past the function's own statements are inlined callee bodies
//!   ([`Function::inlined`]), with the callee's spans; [`OpKind::Call`] is
//!   a call that was not followed, with its [`CallLimit`].
//! - `MemOp::bits == MemOp::elem_bits * MemOp::vector`.

pub mod alu;
pub mod ssa;

use crate::source::Span;
pub use alu::Alu;
use serde::Serialize;

/// Index of an operation in [`Function::ops`] (equal to the source
/// statement's index in its body).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct OpId(pub u32);

impl OpId {
    /// The index into the op arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A register: an index into [`Function::regs`].
pub type Reg = u32;

/// Index of a source location in [`Function::loc_table`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LocId(pub u32);

/// Load, store or read-modify-write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AccessOp {
    /// `ld`, `ldu`, `tex`-free loads.
    Load,
    /// `st`.
    Store,
    /// `atom`, `red`.
    Atomic,
}

/// The memory space an access goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Space {
    /// Global memory (explicit, or generic proven global).
    Global,
    /// Shared memory.
    Shared,
    /// Local memory.
    Local,
    /// Generic address not proven to be in one space.
    Generic,
    /// Constant memory.
    Const,
    /// Kernel parameter space.
    Param,
    /// The shared memory of a CTA of the cluster through the `shared::cluster`
    /// window: an address computed by `mapa` (PTX ISA: the corresponding
    /// address in another CTA's shared memory), accessed generically or with
    /// `.shared::cluster`. The SM sends it over the cluster's network (SASS
    /// `LD.E`/`ST.E`, which Nsight Compute reports as `global,shared` with no
    /// L1/L2 sectors): no sectors, and no wavefronts of the CTA's own
    /// shared memory are modelled.
    #[serde(rename = "shared::cluster")]
    SharedCluster,
}

/// A special register (the ISA's list is [`crate::isa::SPECIAL_REGISTERS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// `%tid.d`
    Tid(u8),
    /// `%ntid.d`
    Ntid(u8),
    /// `%ctaid.d`
    Ctaid(u8),
    /// `%nctaid.d`
    Nctaid(u8),
    /// `%laneid`
    LaneId,
    /// `%lanemask_lt` etc. (`lt`, `le`, `eq`, `ge`, `gt` as 0..5)
    LaneMask(u8),
    /// `%cluster_ctarank`: the CTA's rank in its cluster (uniform; known to
    /// the launch simulation from the kernel's `.reqnctapercluster`).
    ClusterCtaRank,
    /// Anything else (`%clock`, `%smid`, `%warpid`, …): uniform per warp but unknown.
    OtherUniform,
    /// Unknown, possibly lane-varying.
    Other,
}

/// A source operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Src {
    /// A register (+ constant offset).
    Reg(Reg, i64),
    /// An integer immediate.
    Imm(i64),
    /// A special register.
    Special(Special),
    /// The address of a variable (+ offset): an index into [`Function::vars`].
    Var(u32, i64),
    /// A kernel parameter's address (+ offset): only meaningful for `ld.param`.
    Param(u16, i64),
    /// `!%p` (a negated predicate register).
    NotPred(Reg),
    /// Something else (float immediates, `_`, unresolved names).
    Unknown,
}

/// What kind of memory operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemKind {
    /// `ld`, `ldu`, `st`.
    Plain,
    /// `atom` (returns the old value).
    Atomic,
    /// `red` (no result).
    Reduction,
    /// `cp.async` (global to shared, per thread).
    AsyncCopy,
    /// `cp.async.bulk` and tensor-map copies (one request for many bytes).
    BulkCopy,
    /// `ldmatrix` and the like.
    MatrixLoad,
    /// `stmatrix` and the like.
    MatrixStore,
    /// A tensor-core operand read from memory (`wgmma` descriptors, `tcgen05`).
    TensorOperand,
}

impl MemKind {
    /// Lower-case name, as serialised.
    pub fn as_str(self) -> &'static str {
        match self {
            MemKind::Plain => "plain",
            MemKind::Atomic => "atomic",
            MemKind::Reduction => "reduction",
            MemKind::AsyncCopy => "async_copy",
            MemKind::BulkCopy => "bulk_copy",
            MemKind::MatrixLoad => "matrix_load",
            MemKind::MatrixStore => "matrix_store",
            MemKind::TensorOperand => "tensor_operand",
        }
    }
    /// True for [`MemKind::Plain`] (the JSON leaves the kind out then).
    pub fn is_plain(&self) -> bool {
        *self == MemKind::Plain
    }
    /// True for the per-lane accesses of the load/store unit (plain,
    /// atomic, reduction): the ones the global-memory lints reason about.
    pub fn is_lsu_scalar(self) -> bool {
        matches!(self, MemKind::Plain | MemKind::Atomic | MemKind::Reduction)
    }
}

/// A cache operator (`.ca`, `.cg`, `.cs`, `.lu`, `.cv`, `.wb`, `.wt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheOp {
    /// Cache at all levels.
    Ca,
    /// Cache in L2, not L1.
    Cg,
    /// Streaming, evict first.
    Cs,
    /// Last use.
    Lu,
    /// Do not cache, fetch again.
    Cv,
    /// Write back.
    Wb,
    /// Write through.
    Wt,
}

/// An eviction priority (`.L1::evict_first`, `.L2::evict_last`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Eviction {
    /// `evict_normal`
    Normal,
    /// `evict_unchanged`
    Unchanged,
    /// `evict_first`
    First,
    /// `evict_last`
    Last,
    /// `no_allocate`
    NoAllocate,
}

/// Cache and eviction qualifiers of a memory operation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct CacheHints {
    /// `.ca`, `.cg`, …
    pub cache_op: Option<CacheOp>,
    /// `.L1::evict_*` / `.L1::no_allocate`.
    pub l1_eviction: Option<Eviction>,
    /// `.L2::evict_*`.
    pub l2_eviction: Option<Eviction>,
    /// `.L2::cache_hint` (a cache policy operand).
    pub l2_cache_hint: bool,
    /// `.L2::64B` / `128B` / `256B` prefetch size, in bytes.
    pub l2_prefetch_bytes: Option<u16>,
    /// `.nc` (read through the non-coherent texture path).
    pub non_coherent: bool,
}

impl CacheHints {
    /// Reads the qualifiers from an instruction's modifiers (unknown ones are ignored).
    pub fn from_modifiers<'a>(mods: impl IntoIterator<Item = &'a str>) -> CacheHints {
        let mut h = CacheHints::default();
        let ev = |s: &str| match s {
            "evict_normal" => Some(Eviction::Normal),
            "evict_unchanged" => Some(Eviction::Unchanged),
            "evict_first" => Some(Eviction::First),
            "evict_last" => Some(Eviction::Last),
            "no_allocate" => Some(Eviction::NoAllocate),
            _ => None,
        };
        for m in mods {
            match m {
                "ca" => h.cache_op = Some(CacheOp::Ca),
                "cg" => h.cache_op = Some(CacheOp::Cg),
                "cs" => h.cache_op = Some(CacheOp::Cs),
                "lu" => h.cache_op = Some(CacheOp::Lu),
                "cv" => h.cache_op = Some(CacheOp::Cv),
                "wb" => h.cache_op = Some(CacheOp::Wb),
                "wt" => h.cache_op = Some(CacheOp::Wt),
                "nc" => h.non_coherent = true,
                _ => {
                    if let Some(r) = m.strip_prefix("L1::") {
                        h.l1_eviction = ev(r).or(h.l1_eviction);
                    } else if let Some(r) = m.strip_prefix("L2::") {
                        match r {
                            "cache_hint" => h.l2_cache_hint = true,
                            "64B" => h.l2_prefetch_bytes = Some(64),
                            "128B" => h.l2_prefetch_bytes = Some(128),
                            "256B" => h.l2_prefetch_bytes = Some(256),
                            _ => h.l2_eviction = ev(r).or(h.l2_eviction),
                        }
                    }
                }
            }
        }
        h
    }
}

/// A memory operation's facts.
#[derive(Clone, Debug, PartialEq)]
pub struct MemOp {
    /// Load, store, atomic (a reduction is an atomic without result).
    pub op: AccessOp,
    /// Plain, atomic, reduction, copies, matrix and tensor operands.
    pub kind: MemKind,
    /// Declared space (`Generic` without a space modifier).
    pub space: Space,
    /// Bits of one element (`u8` → 8, `b128` → 128).
    pub elem_bits: u32,
    /// Elements per lane (`.v2` → 2, `.v4` → 4, 1 otherwise).
    pub vector: u32,
    /// Bits per lane (`elem_bits × vector`).
    pub bits: u32,
    /// The address.
    pub addr: Src,
    /// Cache and eviction qualifiers.
    pub cache: CacheHints,
    /// `true` for `red` (no result) and `st`.
    pub no_result: bool,
    /// For loads and atomics: some instruction reads the result register.
    pub result_used: bool,
    /// For loads: the one instruction that reads the result registers,
    /// when exactly one does (by register name, anywhere in the body, a
    /// store's data operand included); `None` when none or several do, or
    /// not known (SASS input). `memops::sunk_below_exit` asks it.
    pub sole_reader: Option<OpId>,
    /// For PTX loads: bit `k` is set when result register `k` is read by an
    /// instruction with an effect (a store, a branch, an atomic, a call…),
    /// directly or through the values computed from it; a load whose bits
    /// are all clear computes nothing that is used (ptxas deletes it:
    /// `analysis::memops::dead_load`). Every bit set where not known (SASS
    /// input, constructed ops).
    pub live_results: u8,
    /// The element type's name (`f32`, `u8`, `b128`), when the instruction
    /// names one.
    pub elem_type: Option<&'static str>,
    /// The element is a signed integer (`.sN`): bounds of loaded values.
    pub elem_signed: bool,
    /// The element is a floating-point value (`.fN`, `.bf16`, …).
    pub elem_float: bool,
    /// The facts of the operations beyond per-lane `ld`/`st`/`atom`/`red`
    /// (`cp.async`, matrix, bulk and tensor copies, `multimem`, `wgmma`):
    /// boxed, since plain accesses have none.
    pub ext: Option<Box<MemExt>>,
}

impl MemOp {
    /// A plain per-lane access of `elem_bits × vector` bits.
    pub fn plain(
        op: AccessOp,
        kind: MemKind,
        space: Space,
        (elem_bits, vector): (u32, u32),
        addr: Src,
        no_result: bool,
    ) -> MemOp {
        MemOp {
            op,
            kind,
            space,
            elem_bits,
            vector,
            bits: elem_bits * vector,
            addr,
            cache: CacheHints::default(),
            no_result,
            result_used: true,
            sole_reader: None,
            live_results: u8::MAX,
            elem_type: None,
            elem_signed: false,
            elem_float: false,
            ext: None,
        }
    }
    /// The further operands (empty for plain accesses).
    pub fn aux_operands(&self) -> &[(Aux, Src)] {
        self.ext.as_ref().map(|e| e.aux.as_slice()).unwrap_or(&[])
    }
    /// The values a `st.local` stores ([`Aux::Stored`]), one per vector
    /// element; empty for every other access.
    pub fn stored(&self) -> impl Iterator<Item = &Src> {
        self.aux_operands()
            .iter()
            .filter(|(r, _)| *r == Aux::Stored)
            .map(|(_, s)| s)
    }
    /// Facts beyond a plain per-lane access (copies, matrices, atomics'
    /// operations, …): an `ext` holding more than [`Aux::Stored`] values.
    pub fn has_ext_facts(&self) -> bool {
        self.ext.as_ref().is_some_and(|e| {
            e.aux.iter().any(|(r, _)| *r != Aux::Stored)
                || e.matrix.is_some()
                || e.bulk.is_some()
                || e.multimem
                || e.operand_bytes.is_some()
                || e.atomic_op.is_some()
                || e.adds_one
                || e.reduces_warp
                || e.zero_fill
                || e.warp_copy
        })
    }
    /// The operand of role `a`, if the instruction has one.
    pub fn aux(&self, a: Aux) -> Option<&Src> {
        self.aux_operands()
            .iter()
            .find(|(r, _)| *r == a)
            .map(|(_, s)| s)
    }
    /// `ldmatrix`/`stmatrix`: the matrices and their row addressing.
    pub fn matrix(&self) -> Option<&MatrixFacts> {
        self.ext.as_ref().and_then(|e| e.matrix.as_ref())
    }
    /// Bulk and tensor copies.
    pub fn bulk(&self) -> Option<&BulkFacts> {
        self.ext.as_ref().and_then(|e| e.bulk.as_ref())
    }
    /// A `multimem` access (to every GPU of a multicast group).
    pub fn multimem(&self) -> bool {
        self.ext.as_ref().is_some_and(|e| e.multimem)
    }
    /// `wgmma`: shared-memory bytes its operands read per instruction.
    pub fn operand_bytes(&self) -> Option<u32> {
        self.ext.as_ref().and_then(|e| e.operand_bytes)
    }
    /// `atom`/`red`: the operation (`add`, `cas`, …), when known.
    pub fn atomic_op(&self) -> Option<&'static str> {
        self.ext.as_ref().and_then(|e| e.atomic_op)
    }
    /// `atom`/`red` `.add` of the immediate 1 on a 32-bit integer.
    pub fn adds_one(&self) -> bool {
        self.ext.as_ref().is_some_and(|e| e.adds_one)
    }
    /// An `atom`/`red` that ptxas reduces over the warp when its address is
    /// uniform ([`MemExt::reduces_warp`]).
    pub fn reduces_warp(&self) -> bool {
        self.ext.as_ref().is_some_and(|e| e.reduces_warp)
    }
    /// A `cp.async` that ptxas emits as `LDGSTS.ZFILL`.
    pub fn zero_fill(&self) -> bool {
        self.ext.as_ref().is_some_and(|e| e.zero_fill)
    }
    /// One copy of the access's bytes per warp ([`MemExt::warp_copy`]).
    pub fn warp_copy(&self) -> bool {
        self.ext.as_ref().is_some_and(|e| e.warp_copy)
    }
    /// The extension, created empty when absent.
    pub fn ext_mut(&mut self) -> &mut MemExt {
        self.ext.get_or_insert_with(Default::default)
    }
}

/// The operation of an `atom`/`red` modifier (`add`, `cas`, …), `None` for
/// any other modifier.
pub fn atomic_op_name(m: &str) -> Option<&'static str> {
    const OPS: [&str; 10] = [
        "add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas",
    ];
    OPS.iter().find(|o| **o == m).copied()
}

/// Facts of the memory operations beyond per-lane accesses (see
/// [`crate::lower::ptx`]'s `mem` module for each instruction's operands).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemExt {
    /// Further operands the analysis evaluates beside the address.
    pub aux: Vec<(Aux, Src)>,
    /// `ldmatrix`/`stmatrix`: the matrices and their row addressing.
    pub matrix: Option<MatrixFacts>,
    /// Bulk and tensor copies.
    pub bulk: Option<BulkFacts>,
    /// A `multimem` access.
    pub multimem: bool,
    /// `wgmma`: bytes the tensor cores read from shared memory per
    /// instruction (matrix A when a descriptor gives it, plus matrix B),
    /// from the shape and the operand types.
    pub operand_bytes: Option<u32>,
    /// `atom`/`red`: the operation (`add`, `cas`, `exch`, `max`, …) as the
    /// instruction names it.
    pub atomic_op: Option<&'static str>,
    /// `atom`/`red` `.add` of the immediate 1 on a 32-bit integer: ptxas
    /// emits `ATOMS.POPC.INC`, which serves the lanes on one word as one
    /// (`cost::shared_atomic`).
    pub adds_one: bool,
    /// A PTX `atom`/`red` whose result no instruction reads, of a 32-bit
    /// integer `add`, `min`, `max`, `and`, `or` or `xor` (what `redux.sync`
    /// computes): where every lane's address is the same, ptxas reduces the
    /// warp's values first (`REDUX`) and one elected lane carries the
    /// atomic out (`cost::shared_atomic`, [`SharedAtomicForm::Reduced`]).
    /// Set by the PTX lowering only: a SASS listing shows which form ptxas
    /// chose.
    ///
    /// [`SharedAtomicForm::Reduced`]: crate::analysis::cost::shared_atomic::SharedAtomicForm::Reduced
    pub reduces_warp: bool,
    /// `cp.async` with a `src-size` operand that is not, by construction,
    /// 0 or the copy size in every lane: ptxas emits `LDGSTS.ZFILL`
    /// (`lower::ptx::mem::mark_zero_fill`).
    pub zero_fill: bool,
    /// The warp moves the `bits` of the access once, one request whose
    /// lanes share the object between them (`tensormap.cp_fenceproxy`: the
    /// 32 lanes exchange a 4-byte word each of the 128-byte tensor map):
    /// costed as the lowest executing lane moving it all.
    pub warp_copy: bool,
}

/// The matrices of an `ldmatrix`/`stmatrix` and how their rows are addressed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Default)]
pub struct MatrixFacts {
    /// Shape, such as `m8n8`.
    pub shape: String,
    /// Matrices per instruction (`.x1`, `.x2`, `.x4`).
    pub matrices: u32,
    /// Rows per matrix: lanes `rows*k .. rows*(k+1)` supply matrix `k`'s row
    /// addresses.
    pub rows_per_matrix: u32,
    /// Bytes of one row in shared memory.
    pub row_bytes: u32,
    /// `.trans`.
    pub trans: bool,
}

/// A bulk or tensor copy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Default)]
pub struct BulkFacts {
    /// Bytes of one copy, when the PTX determines them (the `size` operand
    /// of a non-tensor copy, a constant).
    pub bytes: Option<u64>,
    /// Dimensions of a tensor copy (`.1d` … `.5d`); its bytes are the
    /// tensor map's box, which is not in the PTX.
    pub tensor_dims: Option<u8>,
    /// Destination space (`shared::cluster`, `shared::cta`, `global`, `L2`
    /// for a prefetch).
    pub destination: String,
    /// Source space.
    pub source: String,
    /// The reduction of a `cp.reduce.async.bulk` (`add`, `min`, …).
    pub reduction: Option<String>,
    /// How completion is signalled: `mbarrier::complete_tx::bytes` or
    /// `bulk_group`; `None` for a prefetch.
    pub completion: Option<String>,
    /// `.multicast::cluster`.
    pub multicast: bool,
    /// The CTAs a `.multicast::cluster` copy writes to: the set bits of its
    /// 16-bit `ctaMask` operand, when that is a constant (PTX ISA,
    /// `cp.async.bulk` / `cp.async.bulk.tensor`: the data is copied to the
    /// same offset in the shared memory of each destination CTA). Each
    /// destination's SM receives the bytes: Nsight Compute's
    /// `l1tex__m_xbar2l1tex_read_{bytes,sectors}_mem_global_op_tma_ld`
    /// count them once per destination (`tests/hw/blind10`:
    /// `bulk_mcast_gemv`, mask 3, 2 x 8 MiB; `tma2d_mcast_gemv4`, mask
    /// 0xF, 4 x 16 MiB). `None` for a copy without multicast (one
    /// destination) or with a mask the analysis does not know.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multicast_ctas: Option<u32>,
    /// The mbarrier the copy completes on (`mbarrier::complete_tx::bytes`),
    /// as its address operand: a register or variable and an offset,
    /// `%rd5`, `smem_bar+8`.
    pub mbarrier: Option<String>,
    /// Address operands whose residue modulo 16 the analysis knows:
    /// (`destination`, `source`; residue). The 16-byte rules of bulk copies
    /// need 0.
    pub residues_16: Vec<(String, i64)>,
}

impl BulkFacts {
    /// A copy between shared memories (`cp.async.bulk.shared::cluster.shared::cta`:
    /// PTX ISA, from the executing CTA's shared memory into that of a CTA
    /// of its cluster): it has no global side, so the copy engine reads and
    /// writes no global memory. Nsight Compute counts it as neither a
    /// `tma_ld` nor a `tma_st` instruction and its bytes as distributed
    /// shared-memory TMA stores,
    /// `l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_tma_st`
    /// (`tests/hw/blind11`: `bulk_s2s_pair`, 512 copies of 8,192 bytes,
    /// 4,194,304 bytes there and 0 in the global counters).
    pub fn shared_to_shared(&self) -> bool {
        self.destination.starts_with("shared") && self.source.starts_with("shared")
    }
}

/// The role of a further operand of a memory operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aux {
    /// `cp.async`: the shared-memory destination address.
    SharedDst,
    /// `cp.async`: `src-size` (bytes read from global; the rest is zero-filled).
    SrcSize,
    /// `cp.async`: the `ignore-src` predicate (true: read nothing, zero-fill).
    IgnoreSrc,
    /// Bulk copy: the source address (the access's address is the destination).
    OtherAddr,
    /// Bulk copy: `size` in bytes.
    Size,
    /// Bulk copy: the mbarrier address.
    Mbarrier,
    /// Bulk copy with `.multicast::cluster`: the 16-bit `ctaMask` (bit `i`:
    /// the CTA of rank `i` in the cluster receives the data).
    CtaMask,
    /// `wgmma`: the descriptor of matrix A (when A is in shared memory).
    DescA,
    /// `wgmma`: the descriptor of matrix B.
    DescB,
    /// `st.local`: a value stored, one per vector element in order (the
    /// element at `k * elem_bits / 8` bytes from the address). Only
    /// `.local` stores carry them: the analyses forward what a thread
    /// stores to its local memory to its loads from there
    /// (`analysis::dataflow`, `analysis::totals`).
    Stored,
}

/// An `mbarrier` transaction-count operation (`expect_tx`, or an `arrive`
/// with `expect_tx`).
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectTx {
    /// The op.
    pub op: OpId,
    /// The mbarrier's address.
    pub mbarrier: Src,
    /// The transaction count in bytes.
    pub bytes: Src,
}

/// Registers defined exactly once in a function, and what that definition
/// tells without any analysis: for constant folding of descriptors, sizes and
/// transaction counts.
#[derive(Clone, Debug, Default)]
pub struct SingleDefs {
    /// Register → its only defining op.
    pub def: crate::util::FastMap<Reg, OpId>,
    /// Register → its value, when the only definition is an unguarded `mov`
    /// of an immediate.
    pub consts: crate::util::FastMap<Reg, i64>,
    /// Register → the halves it packs (`mov.b64 %rd, {%lo, %hi}`) and the
    /// bits of one half.
    pub packs: crate::util::FastMap<Reg, (Src, Src, u32)>,
}

/// What one op does.
#[derive(Clone, Debug, PartialEq)]
pub enum OpKind {
    /// Labels, declarations, `.loc`, `bar.sync`, …
    Nop,
    /// Integer arithmetic (and `setp`): `dst = alu(srcs)`; a second
    /// destination for `setp`'s `|q` (the negation).
    Alu {
        /// The operation.
        alu: Alu,
        /// Destination.
        dst: Reg,
        /// Second destination (`setp p|q`).
        dst2: Option<Reg>,
        /// Sources.
        srcs: Vec<Src>,
    },
    /// `and/or/xor/not/mov` on predicates.
    PredLogic {
        /// `and`, `or`, `xor`, `not`, `mov`.
        op: &'static str,
        /// Destination.
        dst: Reg,
        /// Sources.
        srcs: Vec<Src>,
    },
    /// `ld.param` of a kernel parameter.
    LdParam {
        /// Destination(s).
        dsts: Vec<Reg>,
        /// Parameter index, offset.
        param: Option<(u16, i64)>,
        /// Bytes per element of a vector read (`ld.param.v2.u32`: 4), so
        /// that destination `k` reads `offset + k * elem_bytes`; 0 where
        /// only the first destination's location is known.
        elem_bytes: u8,
    },
    /// A memory access (not `ld.param`).
    Mem {
        /// Facts.
        info: MemOp,
        /// Registers written (load results).
        dsts: Vec<Reg>,
    },
    /// A branch. Ends its block.
    Branch {
        /// `bra`: the target label's op, when resolved.
        target: Option<OpId>,
        /// `brx.idx`: the labels of its table (in table order, repeats kept).
        indexed: Vec<OpId>,
        /// `bra.uni`.
        uniform: bool,
    },
    /// `ret`, `exit`, `trap`. Ends its block.
    Exit,
    /// A `call` that was **not** followed (a followed call is inlined by the
    /// front end and becomes a [`OpKind::Branch`] into the callee's body,
    /// see [`Function::inlined`]): its results are unknown.
    Call {
        /// Registers the call writes (its return values).
        dsts: Vec<Reg>,
        /// What it calls, with what, and why it was not followed.
        call: Box<CallInfo>,
    },
    /// Anything else that writes registers.
    Other {
        /// Destinations.
        dsts: Vec<Reg>,
        /// Sources (to propagate data dependence and uniformity).
        srcs: Vec<Src>,
        /// The result combines a value of every thread of the block (a
        /// barrier reduction, `bar.red.popc`: `__syncthreads_count`): the
        /// same in every lane, and run-time data to an analysis of one warp
        /// (the launch simulation treats it as loaded data).
        block_wide: bool,
    },
}

/// The callee, arguments and fate of a call that was not followed.
#[derive(Clone, Debug, PartialEq)]
pub struct CallInfo {
    /// The callee's name (`_Z3fibi`), or the register of an indirect call
    /// (empty when the front end does not know it).
    pub callee: String,
    /// The module's function (index among its functions) for a direct call
    /// the front end resolved.
    pub function: Option<u32>,
    /// Argument operands in order (a `.param` argument as the register
    /// holding its first slot).
    pub args: Vec<Src>,
    /// Why the call was not followed.
    pub limit: CallLimit,
}

/// Why a call was not followed (inlined).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CallLimit {
    /// An indirect call (through a register, with `.calltargets` or a
    /// prototype).
    Indirect,
    /// The callee is declared in the module without a body (extern).
    NoBody,
    /// No function of that name in the module.
    Unknown,
    /// The callee is already being inlined on this path (recursion).
    Recursive,
    /// The inlining depth limit ([`MAX_INLINE_DEPTH`]) was reached.
    Depth,
    /// The inlined size limit ([`MAX_INLINED_OPS`]) was reached.
    Size,
    /// The function was lowered without its module.
    NoModule,
    /// A SASS call the SASS front end did not inline (its callee accesses
    /// memory, calls, or branches where it cannot follow).
    Sass,
}

impl CallLimit {
    /// Why, in words (for caveats and the CFG view).
    pub fn describe(self) -> &'static str {
        match self {
            CallLimit::Indirect => "an indirect call",
            CallLimit::NoBody => "the callee has no body in this module",
            CallLimit::Unknown => "no function of that name in this module",
            CallLimit::Recursive => "a recursive call",
            CallLimit::Depth => "the inlining depth limit was reached",
            CallLimit::Size => "the inlined size limit was reached",
            CallLimit::NoModule => "lowered without its module",
            CallLimit::Sass => "a SASS call that was not inlined",
        }
    }
}

/// How deep calls are inlined (a call nested deeper stays unknown).
pub const MAX_INLINE_DEPTH: usize = 16;

/// How many ops inlining may add to one function (a call that would pass
/// it stays unknown): bounds the analysis of call trees that grow
/// exponentially.
pub const MAX_INLINED_OPS: usize = 100_000;

/// One inlined call: the caller's `call` op became a branch to `ops.start`,
/// where parameter moves, the callee's body (one op per callee statement,
/// with the callee's spans) and the return moves follow, ending in a branch
/// back to the op after the call.
#[derive(Clone, Debug, PartialEq)]
pub struct InlineSite {
    /// The call op (in the caller's body or an enclosing inlined body).
    pub call: OpId,
    /// The callee's name.
    pub callee: String,
    /// The op range of this instance (nested instances come after it).
    pub ops: std::ops::Range<u32>,
    /// The op of the callee's first statement.
    pub body_start: OpId,
    /// 1 for a call in the function's own body, 2 for one inside that, ….
    pub depth: u32,
}

/// What source statement an op came from (for block boundaries and display).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// An instruction (even one lowered to [`OpKind::Nop`]).
    Instruction,
    /// A label: a branch target, which begins a block after an instruction.
    Label,
    /// Anything else: declarations, `.loc`, scope braces, tables, errors.
    Other,
}

/// One operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Op {
    /// Guard: predicate register and negation (`@!%p` is `(p, true)`).
    pub guard: Option<(Reg, bool)>,
    /// What it does.
    pub kind: OpKind,
    /// What it was in the source.
    pub form: Form,
}

/// The parameter location destination `k` of an `ld.param` reads: the
/// first destination reads `param` itself, a later one of a vector read the
/// element `k * elem_bytes` bytes further on (unknown where `elem_bytes` is
/// 0).
pub fn ld_param_element(param: Option<(u16, i64)>, elem_bytes: u8, k: usize) -> Option<(u16, i64)> {
    let (p, off) = param?;
    match k {
        0 => Some((p, off)),
        _ if elem_bytes == 0 => None,
        _ => Some((p, off + k as i64 * i64::from(elem_bytes))),
    }
}

impl OpKind {
    /// The registers this operation writes.
    pub fn dsts(&self) -> Vec<Reg> {
        match self {
            OpKind::Alu { dst, dst2, .. } => std::iter::once(*dst).chain(*dst2).collect(),
            OpKind::PredLogic { dst, .. } => vec![*dst],
            OpKind::LdParam { dsts, .. }
            | OpKind::Mem { dsts, .. }
            | OpKind::Call { dsts, .. }
            | OpKind::Other { dsts, .. } => dsts.clone(),
            OpKind::Nop | OpKind::Branch { .. } | OpKind::Exit => Vec::new(),
        }
    }
}

impl OpKind {
    /// An instruction not modelled beyond what it reads and writes
    /// ([`OpKind::Other`], not block-wide).
    pub fn other(dsts: Vec<Reg>, srcs: Vec<Src>) -> OpKind {
        OpKind::Other {
            dsts,
            srcs,
            block_wide: false,
        }
    }
}

impl Op {
    /// True when the op ends its basic block: a branch or an exit.
    pub fn is_terminator(&self) -> bool {
        matches!(self.kind, OpKind::Branch { .. } | OpKind::Exit)
    }
}

/// A parameter of the function.
#[derive(Clone, Debug, PartialEq)]
pub struct Param<'src> {
    /// The PTX name (`_Z1kPfi_param_0`).
    pub name: &'src str,
    /// The declared type (`u64`, `b32`, …), when given.
    pub ty: Option<&'src str>,
    /// Bits of the declared type (0 when unknown).
    pub bits: u32,
    /// Declared with `.ptr`.
    pub declared_pointer: bool,
    /// The declaration.
    pub span: Span,
}

impl Param<'_> {
    /// A 64-bit integer parameter (a pointer can hide in it).
    pub fn is_wide_integer(&self) -> bool {
        matches!(self.ty, Some("u64" | "b64" | "s64"))
    }
}

/// A variable whose address the function can take.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable<'src> {
    /// The name.
    pub name: &'src str,
    /// Its state space.
    pub space: Space,
    /// Its alignment in bytes (declared, else the element size).
    pub align: u32,
    /// Its size in bytes, when the declaration gives every dimension
    /// (`None` for `name[]`).
    pub size: Option<u64>,
    /// Declared `.extern` (dynamic shared memory when `[]`).
    pub is_extern: bool,
    /// Declared at module scope (not in a function body).
    pub module_scope: bool,
}

/// Performance directives of a kernel, as written (not validated: the
/// analysis' launch resolution checks and clamps them once).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaunchDirectives {
    /// `.reqntid x, y, z` (missing dimensions are 1).
    pub reqntid: Option<[u64; 3]>,
    /// `.maxntid x, y, z`.
    pub maxntid: Option<[u64; 3]>,
    /// `.reqnctapercluster x, y, z` (cluster dimensions).
    pub cluster_dim: Option<[u64; 3]>,
    /// `.explicitcluster`.
    pub explicit_cluster: bool,
}

/// A `.loc` source location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loc {
    /// `.file` index (see [`Function::files`]).
    pub file: u32,
    /// 1-based line.
    pub line: u32,
    /// Column (0 when unknown).
    pub column: u32,
    /// The call site this code was inlined into, itself possibly inlined:
    /// a chain from the innermost callee to the kernel's own line.
    pub inlined_at: Option<LocId>,
}

/// Whether a function is a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    /// `.entry`
    Kernel,
    /// `.func`
    Device,
}

/// The language a function was lowered from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontEnd {
    /// PTX: ptxas still schedules, unrolls, merges and if-converts it, and
    /// the analysis models those choices.
    Ptx,
    /// A SASS listing: ptxas's output, taken as it is.
    Sass,
}

/// One function body in the IR.
#[derive(Clone, Debug)]
pub struct Function<'src> {
    /// The (possibly mangled) name.
    pub name: &'src str,
    /// The demangled name (the name itself when not mangled).
    pub demangled: String,
    /// Kernel or device function.
    pub kind: FunctionKind,
    /// The front end that lowered it: PTX (code ptxas will still
    /// transform) or a SASS listing (ptxas's code itself).
    pub front_end: FrontEnd,
    /// The whole function.
    pub span: Span,
    /// The name.
    pub name_span: Span,
    /// The body from `{` to `}`, when there is one.
    pub body_span: Option<Span>,
    /// Parameters in order.
    pub params: Vec<Param<'src>>,
    /// Launch directives.
    pub launch: LaunchDirectives,
    /// The operations, one per source statement.
    pub ops: Vec<Op>,
    /// The source span of each op.
    pub spans: Vec<Span>,
    /// The source location in force at each op.
    pub locs: Vec<Option<LocId>>,
    /// The instruction mnemonic of each op (`ld.global.v4.f32`; a
    /// `.pragma`'s string, `"nounroll"`; empty for other
    /// non-instructions).
    pub mnemonics: Vec<&'src str>,
    /// Source locations (`.loc` lines and their inline call sites).
    pub loc_table: Vec<Loc>,
    /// How many frames of each op's `.loc` chain, innermost first, the line
    /// table that ptxas writes holds at the op's code (a model of ptxas
    /// from the PTX order: `lower::module::line_frames`); Nsight Compute's
    /// source view lists the instruction under each of them. Empty when not
    /// modelled (SASS input): one frame.
    pub line_frames: Vec<u8>,
    /// The SASS offset (`/*0120*/`) of the instruction each op came from,
    /// for a SASS listing (labels: the instruction they name); empty for
    /// PTX.
    pub sass_offsets: Vec<u32>,
    /// `.file` index → file name.
    pub files: Vec<(u32, &'src str)>,
    /// Label names, by op.
    pub labels: Vec<(OpId, &'src str)>,
    /// Register names by [`Reg`].
    pub regs: Vec<&'src str>,
    /// Variables by index: the module's, then the body's.
    pub vars: Vec<Variable<'src>>,
    /// Parameters that are used as pointers (`cvta.to` of a parameter, an
    /// address based on it, or declared `.ptr`).
    pub pointer_params: Vec<bool>,
    /// `mbarrier` `expect_tx` operations, in order.
    pub expect_tx: Vec<ExpectTx>,
    /// Registers defined once, their constants and packings.
    pub single_defs: SingleDefs,
    /// The calls inlined into this function, in the order they were
    /// expanded (an instance's op range follows the function's own ops).
    pub inlined: Vec<InlineSite>,
    /// Each op's rank in the code layout, where every inlined body stands
    /// right after its call (as if written there); empty when that is the
    /// op order itself (nothing inlined by the PTX front end; a SASS
    /// listing's inlined subroutines stay where ptxas put them, after the
    /// function's code, so it is empty there too). The launch simulation, which
    /// reconverges a divergent warp by running its lanes at the lowest
    /// position first, orders lanes by it.
    pub layout_rank: Vec<u32>,
    /// The ops (labels) some branch names, `bra` or `brx.idx`, each with
    /// the index of the last op that names it, sorted by target
    /// ([`branch_targets`]). A label that no branch names is only a place
    /// in the line table (Triton's and NVVM's `$L__tmpN:`), which ptxas
    /// does not see as a join.
    pub branch_targets: Vec<(u32, u32)>,
}

/// The ops some branch of `ops` names, with the last op naming each,
/// sorted by target.
pub fn branch_targets(ops: &[Op]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for (j, o) in ops.iter().enumerate() {
        if let OpKind::Branch {
            target, indexed, ..
        } = &o.kind
        {
            out.extend(target.iter().chain(indexed).map(|t| (t.0, j as u32)));
        }
    }
    // by target, the last source first, then one entry a target
    out.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    out.dedup_by_key(|e| e.0);
    out
}

impl Function<'_> {
    /// The last op (by index) of the branches that name op `i`, `None`
    /// when no branch names it ([`Function::branch_targets`]).
    pub fn last_branch_to(&self, i: usize) -> Option<usize> {
        self.branch_targets
            .binary_search_by_key(&(i as u32), |e| e.0)
            .ok()
            .map(|k| self.branch_targets[k].1 as usize)
    }

    /// The layout rank of op `i` ([`Function::layout_rank`]).
    pub fn rank(&self, i: u32) -> u32 {
        match self.layout_rank.get(i as usize) {
            Some(&r) => r,
            None if self.layout_rank.is_empty() => i,
            None => u32::MAX,
        }
    }
}

impl<'src> Function<'src> {
    /// The op `id`.
    pub fn op(&self, id: OpId) -> &Op {
        &self.ops[id.index()]
    }

    /// How many frames of op `id`'s `.loc` chain, innermost first, ptxas's
    /// line table holds at the op's code ([`Function::line_frames`]; 1 when
    /// not modelled).
    pub fn line_frames(&self, id: OpId) -> u32 {
        self.line_frames
            .get(id.index())
            .map_or(1, |&k| u32::from(k))
    }

    /// The ids of every op, in order.
    pub fn op_ids(&self) -> impl DoubleEndedIterator<Item = OpId> + ExactSizeIterator {
        (0..self.ops.len() as u32).map(OpId)
    }

    /// The file name of a `.file` index.
    pub fn file_name(&self, index: u32) -> Option<&'src str> {
        self.files
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, n)| *n)
    }

    /// The name of the label at op `id`, if it is one.
    pub fn label_at(&self, id: OpId) -> Option<&'src str> {
        self.labels
            .binary_search_by_key(&id, |(o, _)| *o)
            .ok()
            .map(|i| self.labels[i].1)
    }

    /// The names of the parameters, in order.
    pub fn param_names(&self) -> Vec<&'src str> {
        self.params.iter().map(|p| p.name).collect()
    }

    /// The source location of op `id` with its inline chain, innermost first.
    pub fn loc_chain(&self, id: OpId) -> impl Iterator<Item = &Loc> {
        let first = self.locs.get(id.index()).copied().flatten();
        let mut guard = self.loc_table.len() + 1;
        std::iter::successors(
            first.and_then(|l| self.loc_table.get(l.0 as usize)),
            move |l| {
                guard = guard.checked_sub(1)?;
                l.inlined_at.and_then(|p| self.loc_table.get(p.0 as usize))
            },
        )
    }
}
