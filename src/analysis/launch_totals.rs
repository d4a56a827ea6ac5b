//! Kernel totals: the simulated launch's per-access statistics summed over
//! the kernel's global accesses.
//!
//! Requests and sectors are counted per direction (loads, stores, atomics and
//! reductions), over the requests in which some lane accesses memory (a
//! request issued with its guard off in every lane counts in the
//! per-instruction figures, not in Nsight's kernel-level counters), estimated from the simulated blocks for the whole grid when the
//! simulation sampled it; bytes requested are active lanes times the access
//! width; bytes moved are 32 per sector. Only accesses resolved to the
//! global space count (shared, local and constant traffic is not DRAM/L2
//! traffic). The bounds are the sums of the per-access bounds. `cp.async`
//! requests (LDGSTS) are global loads at kernel level, as Nsight Compute
//! counts them (measured: `tests/hw/README.md`, finding 11), and their share
//! is also given apart (`async_copy_*`); bulk and tensor copies run on the
//! copy engine and are counted as copies (and bytes, when the PTX gives every
//! size), not as LSU requests; the global sectors of the 1-D copies between
//! global and shared memory follow `cost::bulk_copy`, counted at each CTA a
//! multicast copy writes to (`ir::BulkFacts::multicast_ctas`).

use super::model::Totals;
use super::totals::SimResult;
use crate::ir::{AccessOp, Function, MemKind, OpKind, Space};
use std::collections::HashMap;

/// Blocks in the grid per simulated block (1 when nothing was sampled, or
/// when the simulation scaled its sample itself).
pub fn scale(sim: &SimResult) -> f64 {
    if sim.prescaled {
        1.0
    } else if sim.blocks.0 > 0 {
        sim.blocks.1 as f64 / sim.blocks.0 as f64
    } else {
        1.0
    }
}

/// The kernel's totals from its simulated launch; `spaces` are the
/// accesses' resolved spaces by op.
pub fn kernel_totals(ir: &Function<'_>, sim: &SimResult, spaces: &HashMap<u32, Space>) -> Totals {
    let scale = scale(sim);
    let mut t = Totals {
        load_requests: 0,
        load_sectors: 0,
        store_requests: 0,
        store_sectors: 0,
        atomic_requests: 0,
        atomic_sectors: 0,
        bytes_requested: 0,
        bytes_moved: 0,
        sectors_min: 0,
        sectors_max: 0,
        blocks_simulated: sim.blocks.0,
        blocks_total: sim.blocks.1,
        async_copy_requests: 0,
        async_copy_sectors: 0,
        bulk_copies: 0,
        bulk_bytes: None,
        bulk_load_sectors: None,
        bulk_store_sectors: None,
        bulk_reduction_sectors: None,
    };
    let (mut smin, mut smax) = (0.0, 0.0);
    let mut keys: Vec<&u32> = sim.stats.keys().collect();
    keys.sort();
    // 1-D bulk copies between global and shared memory: the sectors the
    // copy engine moved, by direction, when every copy's addresses were known.
    let mut copy = [(0u64, 0u64); 3];
    for (k, st) in &sim.stats {
        if st.copy_sectors == 0 && st.copy_sectors_missing == 0 {
            continue;
        }
        let Some(OpKind::Mem { info, .. }) = ir.ops.get(*k as usize).map(|o| &o.kind) else {
            continue;
        };
        let Some(b) = info.bulk() else { continue };
        let slot = match (b.reduction.is_some(), b.destination.as_str()) {
            (true, _) => 2,
            (false, "global") => 1,
            _ => 0,
        };
        copy[slot].0 += st.copy_sectors;
        copy[slot].1 += st.copy_sectors_missing;
    }
    let known = |(c, m): (u64, u64)| (m == 0 && c > 0).then(|| (c as f64 * scale).round() as u64);
    t.bulk_load_sectors = known(copy[0]);
    t.bulk_store_sectors = known(copy[1]);
    t.bulk_reduction_sectors = known(copy[2]);
    for k in keys {
        let st = &sim.stats[k];
        if spaces.get(k) != Some(&Space::Global) {
            continue;
        }
        let Some(OpKind::Mem { info, .. }) = ir.ops.get(*k as usize).map(|o| &o.kind) else {
            continue;
        };
        // The kernel-level counters count requests in which some lane
        // accesses memory: not those issued with the guard off in every
        // lane, nor a cp.async whose every lane zero-fills (measured:
        // `tt_layernorm`, `tt_softmax`, `cpa_*_srcsize0`, `cpa_cg16_ignore1`;
        // the per-instruction counters do count them).
        let counted = st
            .requests
            .saturating_sub(st.off_requests)
            .saturating_sub(st.empty_requests);
        let req = (counted as f64 * scale).round() as u64;
        let sec = (st.kernel_sectors * scale).round() as u64;
        match info.kind {
            // LDGSTS counts as a global load at kernel level
            // (`l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_ld`,
            // tests/hw/README.md finding 11); its share is also given apart.
            MemKind::AsyncCopy => {
                t.async_copy_requests += req;
                t.async_copy_sectors += sec;
            }
            // The copy engine and the tensor cores: no LSU requests.
            MemKind::BulkCopy | MemKind::TensorOperand => continue,
            _ => {}
        }
        match info.op {
            AccessOp::Load => {
                t.load_requests += req;
                t.load_sectors += sec;
            }
            AccessOp::Store => {
                t.store_requests += req;
                t.store_sectors += sec;
            }
            AccessOp::Atomic => {
                t.atomic_requests += req;
                t.atomic_sectors += sec;
            }
        }
        t.bytes_requested +=
            (st.lanes as f64 * scale).round() as u64 * info.bits.div_ceil(8) as u64;
        smin += st.sectors_min * scale;
        smax += st.sectors_max * scale;
    }
    t.bytes_moved = (t.load_sectors + t.store_sectors + t.atomic_sectors) * 32;
    t.sectors_min = smin.round() as u64;
    t.sectors_max = smax.round() as u64;
    t
}
