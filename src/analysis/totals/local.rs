//! Local memory in the simulation: what each lane stored with `st.local`,
//! read back by its `ld.local`.
//!
//! Local memory is private to each thread (PTX ISA, *State spaces*,
//! `.local`): a lane's load from it returns what that lane stored there
//! last, whatever the other lanes did. NVVM copies a by-value struct that
//! is indexed at run time to a local depot (`st.local` of its `ld.param`
//! fields) and reads the element back at a run-time offset (`ld.local
//! [%SPL + 8 * ctaid.x]`: vLLM's `copy_blocks`, `tests/hw/blind9`), so
//! the address of the generic copies that follow is known only if the
//! value read back is. [`LocalMem`] keeps, per lane, the cells the lane
//! stored: byte address, width, and the value (known, or unknown with
//! whether it came from memory).
//!
//! - A `.local` store of a known address in a certain lane replaces the
//!   cells it overlaps with its elements (a vector store: one cell per
//!   element, `elem_bits / 8` bytes apart); an unknown address, or a lane
//!   that may not store (an uncertain lane: a guard or a way there the
//!   simulation does not know), removes every cell the store may overlap
//!   (all of the lane's when the address is unknown), so a cell is only
//!   ever the last value stored there.
//! - A store that may reach local memory another way (a generic store or
//!   atomic whose space the analysis did not prove) removes the cells it
//!   may overlap likewise.
//! - A `.local` load of a known address reads a cell of exactly its
//!   address and width; any other load (a partial overlap, no cell) is
//!   unknown data, as every load was before.
//! - A loop on loaded data that the simulation steps over removes the
//!   cells of its lanes when it holds a store (`skip_loop`).
//!
//! Bounded: at most [`MAX_CELLS`] cells a lane (a depot of spilled
//! pointers or a small array is a few dozen bytes; `tests/hw/blind9`'s
//! BVH stack is 32 words); a store that finds the lane full is not kept
//! (after removing what it overlaps), so the load reads unknown data. The
//! cells are cleared with the registers for each warp. Values are kept
//! truncated to their width and read back sign-extended for a signed load
//! (`.sN`), zero-extended otherwise, as `ld` does. Elements wider than 64
//! bits (`.b128`) are not kept.

use super::{lane_src, Regs, Warp};
use crate::ir::{MemOp as MemInfo, Src};

/// Cells kept per lane, at most.
pub(super) const MAX_CELLS: usize = 64;

#[derive(Clone, Copy, Debug)]
struct Cell {
    addr: i64,
    bytes: u32,
    /// The value (truncated to `bytes`), or whether the unknown value is data.
    value: Result<i64, bool>,
}

/// Each lane's stored cells.
#[derive(Debug)]
pub(super) struct LocalMem {
    lanes: Vec<Vec<Cell>>,
}

impl Default for LocalMem {
    fn default() -> Self {
        LocalMem {
            lanes: vec![Vec::new(); super::WARP],
        }
    }
}

fn overlaps(c: &Cell, addr: i64, bytes: u32) -> bool {
    c.addr < addr.saturating_add(i64::from(bytes))
        && addr < c.addr.saturating_add(i64::from(c.bytes))
}

fn truncate(v: i64, bytes: u32) -> i64 {
    if bytes >= 8 {
        v
    } else {
        v & ((1i64 << (8 * bytes)) - 1)
    }
}

fn extend(v: i64, bytes: u32, signed: bool) -> i64 {
    if bytes >= 8 || !signed {
        return v;
    }
    let sh = 64 - 8 * bytes;
    (v << sh) >> sh
}

impl LocalMem {
    /// Forgets every lane's cells (a new warp).
    pub(super) fn reset(&mut self) {
        self.lanes.iter_mut().for_each(Vec::clear);
    }

    /// Forgets the cells of `lanes`.
    pub(super) fn clear(&mut self, lanes: u32) {
        for (l, c) in self.lanes.iter_mut().enumerate() {
            if lanes & (1 << l) != 0 {
                c.clear();
            }
        }
    }

    /// A store of `info` whose effect may reach local memory: `certain`
    /// lanes store `info.stored()` (a `.local` store, `keep`), the others
    /// of `lanes` only remove what they may overwrite.
    pub(super) fn store(
        &mut self,
        regs: &Regs,
        w: &Warp<'_>,
        info: &MemInfo,
        lanes: u32,
        certain: u32,
        keep: bool,
    ) {
        let elem = (info.elem_bits / 8).max(1);
        let total = (info.bits / 8).max(1);
        let stored: Vec<&Src> = info.stored().collect();
        for l in 0..super::WARP {
            let bit = 1u32 << l;
            if lanes & bit == 0 {
                continue;
            }
            let cells = &mut self.lanes[l];
            let Ok(addr) = lane_src(regs, w, &info.addr, l) else {
                cells.clear();
                continue;
            };
            cells.retain(|c| !overlaps(c, addr, total));
            let storable = keep
                && certain & bit != 0
                && info.elem_bits <= 64
                && stored.len() == info.vector as usize;
            if !storable {
                continue;
            }
            for (k, s) in stored.iter().enumerate() {
                if cells.len() >= MAX_CELLS {
                    break;
                }
                let value = lane_src(regs, w, s, l).map(|v| truncate(v, elem));
                cells.push(Cell {
                    addr: addr.wrapping_add(k as i64 * i64::from(elem)),
                    bytes: elem,
                    value,
                });
            }
        }
    }

    /// What lane `l` reads with element `k` of the `.local` load `info`
    /// (its cell of exactly that address and width), if it stored it.
    pub(super) fn load(
        &self,
        regs: &Regs,
        w: &Warp<'_>,
        info: &MemInfo,
        l: usize,
        k: usize,
    ) -> Option<Result<i64, bool>> {
        if info.elem_bits > 64 {
            return None;
        }
        let elem = (info.elem_bits / 8).max(1);
        let addr = lane_src(regs, w, &info.addr, l)
            .ok()?
            .wrapping_add(k as i64 * i64::from(elem));
        let c = self.lanes[l]
            .iter()
            .find(|c| c.addr == addr && c.bytes == elem)?;
        Some(c.value.map(|v| extend(v, elem, info.elem_signed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_truncated_and_extended_as_ld_reads_them() {
        assert_eq!(truncate(-1, 4), 0xffff_ffff);
        assert_eq!(extend(0xffff_ffff, 4, true), -1);
        assert_eq!(extend(0xffff_ffff, 4, false), 0xffff_ffff);
        assert_eq!(extend(0x8000, 2, true), -32768);
        assert_eq!(truncate(-5, 8), -5);
    }

    #[test]
    fn overlap_is_by_byte_ranges() {
        let c = Cell {
            addr: 8,
            bytes: 8,
            value: Ok(1),
        };
        assert!(overlaps(&c, 12, 4));
        assert!(overlaps(&c, 0, 9));
        assert!(!overlaps(&c, 16, 8));
        assert!(!overlaps(&c, 0, 8));
    }
}
