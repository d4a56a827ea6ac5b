//! Lowering of the memory instructions beyond `ld`/`st`/`atom`/`red`: the
//! asynchronous, matrix, bulk, tensor and multicast paths.
//!
//! Each becomes one [`OpKind::Mem`] whose `MemOp` says what the
//! instruction moves and where, as data (its `MemKind`, the address the
//! lanes supply, and further operands as [`Aux`] roles in its `MemExt`):
//!
//! * `cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size | ignore-src}{, policy}`
//!   (LDGSTS): a per-lane copy of 4, 8 or 16 bytes. The access's address is
//!   the global source (its L1 lines and L2 sectors); the shared
//!   destination is [`Aux::SharedDst`] (its wavefronts); `src-size` and
//!   `ignore-src` are kept to know which lanes read nothing (zero-fill).
//!   `cp.async.commit_group` / `wait_group` / `wait_all` /
//!   `mbarrier.arrive` move nothing and stay out of the access list; so do
//!   the bulk forms `cp.async.bulk.commit_group` / `wait_group{.read}`.
//! * `ldmatrix` / `stmatrix` (LDSM/STSM): the lanes `rows*k .. rows*(k+1)`
//!   supply the row addresses of matrix `k`; every row is 16 bytes in shared
//!   memory (`m8n8.b16`, `m8n16.b8x16`, the transposed `m16n8.b8`), 16 rows
//!   per matrix for `m16n16.b8`. `.trans` changes which register receives
//!   which element, not the addresses.
//! * `cp.async.bulk`, `cp.reduce.async.bulk`, `cp.async.bulk.prefetch`, their
//!   `.tensor` forms and `multimem.cp.*`: one copy per executing lane, run by
//!   the copy engine (TMA). Bytes per copy come from the `size` operand
//!   ([`Aux::Size`]) of the non-tensor forms; a tensor copy's bytes are the
//!   tensor map's box, which the PTX does not contain. A
//!   `.multicast::cluster` copy keeps its `ctaMask` operand
//!   ([`Aux::CtaMask`]; not for the `.im2col::w` modes).
//! * `multimem.ld_reduce` / `st` / `red`: per-lane accesses to a multicast
//!   address in global memory.
//! * `wgmma.mma_async`: its shared-memory operands, through 64-bit matrix
//!   descriptors ([`Aux::DescA`], [`Aux::DescB`]).
//! * `tensormap.replace.mode.field.{global,shared::cta}.b1024.type [addr],
//!   {ord,} new_val` (PTX ISA: modifies one field of the 128-byte tensor
//!   map at `addr`): a store of `.type` (`b32`, `b64`) to that space at
//!   `addr`, by the lanes of its guard. The tensor map's layout is opaque
//!   (the PTX ISA does not place the fields), so the field's offset inside
//!   the object is not known: the store is at the object's address. ptxas
//!   writes the fields with read-modify-writes of the words they share
//!   (measured, `tests/hw/blind7/measured_sass_triton.json`,
//!   `t7_matmul_tensor_desc`: 13 replaces of a descriptor in shared memory
//!   are 10 `LDS`/`STS` pairs and 4 plain `STS`, one an `STS.64`, each by
//!   one lane); the read half and the extra store are not modelled (one
//!   PTX instruction is one access). The `.global` form and a generic
//!   address (no state space) are lowered the same way, to that space;
//!   neither is measured.
//! * `tensormap.cp_fenceproxy.global.shared::cta.… [dst], [src], size`
//!   (PTX ISA: copies the `size`-byte (128) tensor map from shared memory to
//!   global memory with a proxy fence; `.sync.aligned`: the whole warp
//!   executes it): an atomic exchange of `size` bytes to global `dst`
//!   (SASS: one `LDS` by the 32 lanes, then `ATOMG.E.EXCH.STRONG.GPU` of a
//!   4-byte word a lane, which Nsight Compute keys `atom global`: measured
//!   one request a warp of 32 lanes, 1 L1 tag request and 4 sectors,
//!   `t7_matmul_tensor_desc`). Marked [`MemExt::warp_copy`](crate::ir::MemExt):
//!   the warp moves the object once, costed as its lowest lane moving all
//!   of it (the lanes' words tile it). The shared read (`LDS`, one
//!   wavefront) is not modelled. `fence.proxy.tensormap::generic` moves no
//!   data.
//! * `mbarrier.try_wait` / `test_wait` set their predicate to true: a wait
//!   is taken as complete at its first test, so the accesses after a wait
//!   loop are reached (the barrier's phase is not modelled).

use super::{elem_bits, mem_space, type_name, vector_width, Ctx};
use crate::analysis::model::{BulkFacts, MatrixFacts};
use crate::ir::{
    AccessOp, Aux, CacheHints, ExpectTx, MemKind, MemOp as MemInfo, Op, OpId, OpKind, SingleDefs,
    Space, Src,
};
use crate::syntax::ast::{Instruction, Operand, OperandKind};

/// A per-lane access of `bits` bits; the callers set its kind and extension.
fn plain(op: AccessOp, space: Space, bits: u32, addr: Src, no_result: bool) -> MemInfo {
    MemInfo::plain(op, MemKind::Plain, space, (bits, 1), addr, no_result)
}

/// The lowering of `opcode` when it is one of the instructions above.
pub(super) fn lower<'src>(
    cx: &mut Ctx<'_, 'src>,
    opcode: &str,
    mods: &[&str],
    ops: &[Operand<'src>],
) -> Option<OpKind> {
    // `cp.async{.bulk}.commit_group` / `wait_group` / `wait_all`: group
    // bookkeeping, not accesses (PTX ISA: they move no data).
    if opcode == "cp"
        && mods
            .iter()
            .any(|m| matches!(*m, "commit_group" | "wait_group" | "wait_all"))
    {
        return None;
    }
    match opcode {
        "cp" if mods.first() == Some(&"async") && mods.get(1) == Some(&"bulk") => {
            bulk(cx, mods, ops, false)
        }
        "cp" if mods.first() == Some(&"reduce") && mods.get(2) == Some(&"bulk") => {
            bulk(cx, mods, ops, true)
        }
        "cp" if mods.first() == Some(&"async") => cp_async(cx, mods, ops),
        "ldmatrix" | "stmatrix" => matrix(cx, opcode == "ldmatrix", mods, ops),
        "multimem" => match mods.first().copied() {
            Some("cp") => {
                let reduce = mods.get(1) == Some(&"reduce");
                bulk(cx, &mods[1..], ops, reduce).map(|mut k| {
                    if let OpKind::Mem { info, .. } = &mut k {
                        info.ext_mut().multimem = true;
                    }
                    k
                })
            }
            Some("ld_reduce") | Some("st") | Some("red") => multimem(cx, mods, ops),
            _ => None,
        },
        "wgmma" if mods.first() == Some(&"mma_async") => wgmma(cx, mods, ops),
        "tensormap" => tensormap(cx, mods, ops),
        // `mbarrier.try_wait`/`test_wait`: the analysis takes the wait as
        // complete at its first test (the phase's copies and arrivals are
        // not modelled), so the code after a wait loop is reached.
        "mbarrier" if mods.iter().any(|m| *m == "try_wait" || *m == "test_wait") => {
            match cx.dsts(ops.first()?).as_slice() {
                [dst] => Some(OpKind::PredLogic {
                    op: "mov",
                    dst: *dst,
                    srcs: vec![Src::Imm(1)],
                }),
                _ => None,
            }
        }
        _ => None,
    }
}

fn cp_async<'src>(cx: &mut Ctx<'_, 'src>, mods: &[&str], ops: &[Operand<'src>]) -> Option<OpKind> {
    // commit_group, wait_group, wait_all, mbarrier.arrive: no data moves.
    if !mods.iter().any(|m| *m == "ca" || *m == "cg") || ops.len() < 3 {
        return None;
    }
    let dst = cx.src(&ops[0]);
    let src = cx.src(&ops[1]);
    let size = match ops[2].kind {
        OperandKind::Int(v) if (1..=16).contains(&v) => v as u32,
        _ => 16,
    };
    let has_policy = mods.iter().any(|m| m.starts_with("L2::cache_hint"));
    let mut rest: Vec<&Operand<'src>> = ops[3..].iter().collect();
    if has_policy {
        rest.pop();
    }
    let mut info = plain(AccessOp::Load, Space::Global, size * 8, src, true);
    info.kind = MemKind::AsyncCopy;
    info.cache = CacheHints::from_modifiers(mods.iter().copied());
    info.ext_mut().aux.push((Aux::SharedDst, dst));
    if let Some(o) = rest.first() {
        let is_pred = match &o.kind {
            OperandKind::Not(_) => true,
            OperandKind::Reg { name, .. } | OperandKind::Symbol(name) => cx.is_pred(name),
            _ => false,
        };
        let s = cx.src(o);
        info.ext_mut().aux.push((
            if is_pred {
                Aux::IgnoreSrc
            } else {
                Aux::SrcSize
            },
            s,
        ));
    }
    Some(OpKind::Mem {
        info,
        dsts: Vec::new(),
    })
}

/// `tensormap.replace` and `tensormap.cp_fenceproxy`: the accesses to a
/// 128-byte tensor-map object (module doc).
fn tensormap<'src>(cx: &mut Ctx<'_, 'src>, mods: &[&str], ops: &[Operand<'src>]) -> Option<OpKind> {
    match mods.first().copied() {
        // `tensormap.replace.mode.field{.ss}.b1024.type [addr], {ord,} new_val`:
        // a store of the field's `.type` (b32 or b64) to the object at `addr`.
        Some("replace") => {
            let addr = cx.src(ops.first()?);
            let bits = mods
                .iter()
                .rev()
                .find_map(|m| match *m {
                    "b32" => Some(32),
                    "b64" => Some(64),
                    _ => None,
                })
                .unwrap_or(32);
            let mut info = plain(AccessOp::Store, mem_space(mods), bits, addr, true);
            info.elem_type = type_name(if bits == 64 { "b64" } else { "b32" });
            Some(OpKind::Mem {
                info,
                dsts: Vec::new(),
            })
        }
        // `tensormap.cp_fenceproxy.global.shared::cta.… [dst], [src], size`:
        // the warp exchanges the `size`-byte object into global memory at
        // `dst` (SASS `ATOMG.E.EXCH`, a word a lane), costed as one lane
        // moving it all (`MemExt::warp_copy`).
        Some("cp_fenceproxy") => {
            let dst = cx.src(ops.first()?);
            // The shared source: its read (one `LDS`) is not modelled.
            ops.get(1)?;
            let size = match ops.get(2).map(|o| &o.kind) {
                Some(OperandKind::Int(v)) if (1..=1024).contains(v) => *v as u32,
                _ => 128,
            };
            let mut info = MemInfo::plain(
                AccessOp::Atomic,
                MemKind::Atomic,
                Space::Global,
                (size * 8, 1),
                dst,
                true,
            );
            info.ext_mut().atomic_op = Some("exch");
            info.ext_mut().warp_copy = true;
            Some(OpKind::Mem {
                info,
                dsts: Vec::new(),
            })
        }
        _ => None,
    }
}

fn matrix<'src>(
    cx: &mut Ctx<'_, 'src>,
    load: bool,
    mods: &[&str],
    ops: &[Operand<'src>],
) -> Option<OpKind> {
    let (data, addr) = if load {
        (ops.first()?, ops.get(1)?)
    } else {
        (ops.get(1)?, ops.first()?)
    };
    let shape = mods
        .iter()
        .find(|m| m.starts_with('m') && m.contains('n'))?;
    let matrices = mods
        .iter()
        .find_map(|m| match *m {
            "x1" => Some(1),
            "x2" => Some(2),
            "x4" => Some(4),
            _ => None,
        })
        .unwrap_or(1);
    let rows_per_matrix = if *shape == "m16n16" { 16 } else { 8 };
    let facts = MatrixFacts {
        shape: shape.to_string(),
        matrices,
        rows_per_matrix,
        row_bytes: 16,
        trans: mods.contains(&"trans"),
    };
    let a = cx.src(addr);
    let space = mem_space(mods);
    let mut info = plain(
        if load {
            AccessOp::Load
        } else {
            AccessOp::Store
        },
        space,
        128,
        a,
        !load,
    );
    info.kind = if load {
        MemKind::MatrixLoad
    } else {
        MemKind::MatrixStore
    };
    info.ext_mut().matrix = Some(facts);
    info.elem_type = mods.iter().rev().find_map(|m| type_name(m));
    let dsts = if load { cx.dsts(data) } else { Vec::new() };
    Some(OpKind::Mem { info, dsts })
}

/// Spaces named in the modifiers, in order (`shared::cluster`, `global`, `L2`).
fn spaces<'m>(mods: &[&'m str]) -> Vec<&'m str> {
    mods.iter()
        .copied()
        .filter(|m| {
            m.starts_with("shared") || *m == "global" || *m == "L2" || m.starts_with("param")
        })
        .collect()
}

fn bulk<'src>(
    cx: &mut Ctx<'_, 'src>,
    mods: &[&str],
    ops: &[Operand<'src>],
    reduce: bool,
) -> Option<OpKind> {
    let prefetch = mods.contains(&"prefetch");
    let tensor_dims = mods.iter().find_map(|m| {
        let d = m.strip_suffix('d')?;
        d.parse::<u8>().ok().filter(|d| (1..=5).contains(d))
    });
    let sp = spaces(mods);
    let (destination, source) = if prefetch {
        (
            "L2".to_string(),
            sp.iter()
                .find(|s| **s != "L2")
                .unwrap_or(&"global")
                .to_string(),
        )
    } else {
        (
            sp.first().unwrap_or(&"?").to_string(),
            sp.get(1).unwrap_or(&"?").to_string(),
        )
    };
    let completion = mods
        .iter()
        .find(|m| m.starts_with("mbarrier::") || **m == "bulk_group")
        .map(|m| m.to_string());
    let reduction = if reduce {
        mods.iter()
            .find(|m| {
                matches!(
                    **m,
                    "add" | "min" | "max" | "inc" | "dec" | "and" | "or" | "xor"
                )
            })
            .map(|m| m.to_string())
    } else {
        None
    };
    let is_addr = |o: &Operand<'_>| matches!(o.kind, OperandKind::Address { .. });
    // Operand positions: [dst], [src], size, [mbar] for the plain forms;
    // [src], size for a prefetch; the tensor forms replace the global
    // address by [tensorMap, coords].
    let global_dst = destination == "global";
    let op = if reduce {
        AccessOp::Atomic
    } else if global_dst {
        AccessOp::Store
    } else {
        AccessOp::Load
    };
    let space = if destination == "global" || source == "global" {
        Space::Global
    } else {
        Space::Shared
    };
    // The access's own address: the shared side of a tensor copy (load:
    // [smem], [map, coords], [mbar]; store/reduce: [map, coords], [smem]),
    // else the first operand.
    let tensor = tensor_dims.is_some() && !prefetch;
    let own = if tensor && global_dst {
        ops.get(1)
    } else {
        ops.first()
    };
    let a = own
        .filter(|o| is_addr(o))
        .map(|o| cx.src(o))
        .unwrap_or(Src::Unknown);
    let mut info = plain(op, space, 8, a, true);
    if prefetch {
        if tensor_dims.is_none() {
            if let Some(s) = ops.get(1) {
                let s = cx.src(s);
                info.ext_mut().aux.push((Aux::Size, s));
            }
        }
    } else if tensor {
        let mbar = if global_dst { None } else { ops.get(2) };
        if let Some(m) = mbar.filter(|o| is_addr(o)) {
            let m = cx.src(m);
            info.ext_mut().aux.push((Aux::Mbarrier, m));
        }
    } else {
        if let Some(o) = ops.get(1).filter(|o| is_addr(o)) {
            let o = cx.src(o);
            info.ext_mut().aux.push((Aux::OtherAddr, o));
        }
        if let Some(s) = ops.get(2) {
            let s = cx.src(s);
            info.ext_mut().aux.push((Aux::Size, s));
        }
        if completion
            .as_deref()
            .is_some_and(|c| c.starts_with("mbarrier"))
        {
            if let Some(m) = ops.get(3).filter(|o| is_addr(o)) {
                let m = cx.src(m);
                info.ext_mut().aux.push((Aux::Mbarrier, m));
            }
        }
    }
    let multicast = mods.iter().any(|m| m.starts_with("multicast"));
    // `.im2col::w` / `.im2col::w::128` (sm_100) take a scalar pair
    // (wHalo, wOffset) before the mask: the mask is not taken there.
    let im2col_w = mods.iter().any(|m| m.starts_with("im2col::w"));
    if multicast && !prefetch && !global_dst && !im2col_w {
        // `[dst], [src], size, [mbar], ctaMask` (`[dst], [map, coords],
        // [mbar], {im2col offsets}, ctaMask` for a tensor copy), a cache
        // policy after it with `.L2::cache_hint`: the first scalar operand
        // after the mbarrier.
        let mbar_at = if tensor_dims.is_some() { 2 } else { 3 };
        if let Some(m) = ops
            .iter()
            .skip(mbar_at + 1)
            .find(|o| !matches!(o.kind, OperandKind::Vector(_)))
        {
            let m = cx.src(m);
            info.ext_mut().aux.push((Aux::CtaMask, m));
        }
    }
    info.kind = MemKind::BulkCopy;
    info.cache = CacheHints::from_modifiers(mods.iter().copied());
    info.ext_mut().bulk = Some(BulkFacts {
        bytes: None,
        tensor_dims,
        destination,
        source,
        reduction,
        completion,
        multicast,
        multicast_ctas: None,
        mbarrier: None,
        residues_16: Vec::new(),
    });
    Some(OpKind::Mem {
        info,
        dsts: Vec::new(),
    })
}

fn multimem<'src>(cx: &mut Ctx<'_, 'src>, mods: &[&str], ops: &[Operand<'src>]) -> Option<OpKind> {
    let (op, kind, addr_idx) = match mods.first().copied()? {
        "ld_reduce" => (AccessOp::Load, MemKind::Plain, 1),
        "st" => (AccessOp::Store, MemKind::Plain, 0),
        _ => (AccessOp::Atomic, MemKind::Reduction, 0),
    };
    let addr = cx.src(ops.get(addr_idx)?);
    let bits = elem_bits(mods) * vector_width(mods);
    let mut info = plain(op, Space::Global, bits, addr, op != AccessOp::Load);
    info.kind = kind;
    info.elem_type = mods.iter().rev().find_map(|m| type_name(m));
    info.ext_mut().multimem = true;
    let dsts = if op == AccessOp::Load {
        ops.first().map(|o| cx.dsts(o)).unwrap_or_default()
    } else {
        Vec::new()
    };
    Some(OpKind::Mem { info, dsts })
}

/// Bits of one `wgmma` operand element of type `t` (PTX ISA, "Matrix
/// Data-types" of `wgmma`): `f16`/`bf16` 16, `tf32` 32, the 8-bit float and
/// integer types 8, `b1` 1.
fn wgmma_elem_bits(t: &str) -> Option<u32> {
    match t {
        "f16" | "bf16" => Some(16),
        "tf32" => Some(32),
        "e4m3" | "e5m2" | "s8" | "u8" => Some(8),
        "b1" => Some(1),
        _ => None,
    }
}

/// `wgmma.mma_async….mMnNkK.dtype.atype.btype d, a, b, …`: the shared-memory
/// bytes of A (`M × K` elements, when `a` is a descriptor) and B (`N × K`).
fn wgmma_operand_bytes(mods: &[&str], a_in_shared: bool) -> Option<u32> {
    let (k_at, shape) = mods.iter().enumerate().find(|(_, m)| {
        m.starts_with('m')
            && m.contains('n')
            && m.contains('k')
            && m[1..].starts_with(|c: char| c.is_ascii_digit())
    })?;
    let (m, rest) = shape[1..].split_once('n')?;
    let (n, k) = rest.split_once('k')?;
    let (m, n, k): (u32, u32, u32) = (m.parse().ok()?, n.parse().ok()?, k.parse().ok()?);
    // After the shape: the accumulator type, then A's and B's.
    let types: Vec<u32> = mods[k_at + 1..]
        .iter()
        .filter_map(|t| wgmma_elem_bits(t))
        .collect();
    let (abits, bbits) = match types.as_slice() {
        [.., a, b] => (*a, *b),
        _ => return None,
    };
    let a = if a_in_shared { m * k * abits / 8 } else { 0 };
    Some(a + n * k * bbits / 8)
}

fn wgmma<'src>(cx: &mut Ctx<'_, 'src>, mods: &[&str], ops: &[Operand<'src>]) -> Option<OpKind> {
    let dsts = ops.first().map(|o| cx.dsts(o)).unwrap_or_default();
    let mut info = plain(AccessOp::Load, Space::Shared, 0, Src::Unknown, false);
    info.kind = MemKind::TensorOperand;
    if let Some(o) = ops
        .get(1)
        .filter(|o| matches!(o.kind, OperandKind::Reg { .. }))
    {
        let a = cx.src(o);
        info.ext_mut().aux.push((Aux::DescA, a));
    }
    if let Some(o) = ops
        .get(2)
        .filter(|o| matches!(o.kind, OperandKind::Reg { .. }))
    {
        let b = cx.src(o);
        info.ext_mut().aux.push((Aux::DescB, b));
    }
    if info.aux_operands().is_empty() {
        return None;
    }
    let a_in_shared = info.aux(Aux::DescA).is_some();
    info.ext_mut().operand_bytes = wgmma_operand_bytes(mods, a_in_shared);
    Some(OpKind::Mem { info, dsts })
}

/// `mbarrier.expect_tx … [addr], txCount` and
/// `mbarrier.arrive{_drop}.expect_tx … state, [addr], txCount`.
pub(super) fn expect_tx<'src>(
    cx: &mut Ctx<'_, 'src>,
    ins: &Instruction<'src>,
    mods: &[&str],
) -> Option<ExpectTx> {
    if ins.opcode() != "mbarrier" || !mods.contains(&"expect_tx") {
        return None;
    }
    let k = ins
        .operands
        .iter()
        .position(|o| matches!(o.kind, OperandKind::Address { .. }))?;
    let mbarrier = cx.src(&ins.operands[k]);
    let bytes = cx.src(ins.operands.get(k + 1)?);
    Some(ExpectTx {
        op: OpId(cx.cur as u32),
        mbarrier,
        bytes,
    })
}

/// `mov.b64 %rd, {%lo, %hi}`: the destination and its halves.
pub(super) fn pack<'src>(
    cx: &mut Ctx<'_, 'src>,
    ins: &Instruction<'src>,
    mods: &[&str],
) -> Option<(u32, (Src, Src, u32))> {
    if ins.opcode() != "mov" {
        return None;
    }
    let bits = elem_bits(mods);
    let OperandKind::Vector(v) = &ins.operands.get(1)?.kind else {
        return None;
    };
    let [lo, hi] = &v[..] else {
        return None;
    };
    let dst = match cx.dsts(ins.operands.first()?).as_slice() {
        [d] => *d,
        _ => return None,
    };
    let (lo, hi) = (cx.src(lo), cx.src(hi));
    Some((dst, (lo, hi, bits / 2)))
}

/// Marks the `cp.async` ops that ptxas emits as `LDGSTS.ZFILL`: those with
/// a `src-size` operand whose value is not, by construction, 0 or the copy
/// size in every lane. A `src-size` that is only ever 0 or the copy size (an
/// immediate equal to it, `x & size`, a `selp` between 0 and the size) is
/// compiled like `ignore-src`, to the plain form with a predicate; any other
/// (a run-time value, a partial size) needs the zero-filling form (measured:
/// `cpa_cg16_srcsize*` and the `cpa_sweep_zf16_*` layouts with a parameter
/// `src-size` are `ZFILL`, `cpa_cg16_srcsize_odd` with `(t & 1) ? 0 : 16`
/// is not; `tests/hw/README.md` finding 19).
pub(super) fn mark_zero_fill(ops: &mut [Op], defs: &SingleDefs) {
    for k in 0..ops.len() {
        let OpKind::Mem { info, .. } = &ops[k].kind else {
            continue;
        };
        if info.kind != MemKind::AsyncCopy {
            continue;
        }
        let size = i64::from(info.bits / 8);
        let Some(src) = info
            .aux_operands()
            .iter()
            .find(|(a, _)| *a == Aux::SrcSize)
            .map(|(_, s)| s.clone())
        else {
            continue;
        };
        let zfill = !zero_or(ops, defs, &src, size, 0);
        if let OpKind::Mem { info, .. } = &mut ops[k].kind {
            info.ext_mut().zero_fill = zfill;
        }
    }
}

/// True when `s` is 0 or `size` in every lane by construction.
fn zero_or(ops: &[Op], defs: &SingleDefs, s: &Src, size: i64, depth: u32) -> bool {
    use crate::ir::alu::AluOp;
    if depth > 16 {
        return false;
    }
    match s {
        Src::Imm(v) => *v == 0 || *v == size,
        Src::Reg(r, 0) => {
            let Some(op) = defs.def.get(r).and_then(|d| ops.get(d.index())) else {
                return false;
            };
            let OpKind::Alu { alu, srcs, .. } = &op.kind else {
                return false;
            };
            if op.guard.is_some() {
                return false;
            }
            match alu.op {
                AluOp::And => srcs.iter().any(|x| {
                    matches!(x, Src::Imm(m) if *m == 0 || *m == size) && size.count_ones() == 1
                }),
                AluOp::Mov | AluOp::Cvt(_) => srcs
                    .first()
                    .is_some_and(|x| zero_or(ops, defs, x, size, depth + 1)),
                AluOp::Selp => srcs
                    .iter()
                    .take(2)
                    .all(|x| zero_or(ops, defs, x, size, depth + 1)),
                _ => false,
            }
        }
        _ => false,
    }
}
