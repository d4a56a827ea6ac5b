//! The global sectors the copy engine moves for a 1-D bulk copy between
//! global and shared memory, as the H100 counts them.
//!
//! # Model (measured: `tests/hw/bulkprobe/`, 42 launches of one to three
//! copies of 16 to 8,208 bytes whose global side is 0, 16, 48, 112 or 1,008
//! bytes past a 128-byte line and whose shared side is line-aligned: loads
//! `cp.async.bulk.shared::cluster.global` (27), stores
//! `cp.async.bulk.global.shared::cta` (10) and reductions
//! `cp.reduce.async.bulk.global.shared::cta….add.f32` (5);
//! `l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld` and
//! `l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_{st,red}`)
//!
//! A copy moves its bytes in pieces split at the 128-byte boundaries of its
//! **shared-memory side** (the destination of a load, the source of a store
//! or reduction); each piece moves the 32-byte global sectors its global
//! bytes touch. When the two sides agree modulo 32 this is the copy's own
//! sectors (400 bytes at a line: 13); when they do not, every 128-byte piece
//! straddles five sectors (400 bytes 16 bytes past a line to or from a
//! line-aligned buffer: 16 sectors, where the bytes span 13). All 42
//! launches follow it exactly, in every direction
//! (`python3 tests/hw/bulkprobe/parse.py`).
//!
//! # Limits
//!
//! Multicast copies and tensor copies (whose box is in the tensor map) are
//! not modelled here; shared sides at other residues than 0 modulo 128 were
//! measured only through the segments of one span (offsets 1,008 and 3,072).

/// Sectors moved for one copy of `size` bytes between shared address
/// `shared` and global address `global` (each known modulo 128 at least).
pub fn sectors(shared: i64, global: i64, size: u64) -> u64 {
    let mut total = 0u64;
    let mut done = 0i64;
    let size = size as i64;
    while done < size {
        let piece = (size - done).min(128 - (shared + done).rem_euclid(128));
        let a = global + done;
        total += ((a + piece - 1).div_euclid(32) - a.div_euclid(32) + 1) as u64;
        done += piece;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::sectors;

    /// Rows of `tests/hw/bulkprobe/parse.py`'s table (measured sectors a
    /// span, `results/ncu.csv.gz`).
    #[test]
    fn measured_probe_rows() {
        // (shared side, global side, bytes) -> sectors (loads; the stores
        // and reductions of the same layouts measured the same)
        let one = [
            (0, 0, 16, 1),
            (0, 16, 16, 1),
            (0, 112, 144, 6),
            (0, 0, 400, 13),
            (0, 16, 400, 16),
            (0, 16, 1008, 39),
            (0, 16, 1040, 41),
            (0, 16, 2032, 79),
            (0, 0, 2064, 65),
            (0, 16, 2064, 81),
            (0, 1008, 2064, 81),
            (0, 16, 4112, 161),
            (0, 48, 8208, 321),
        ];
        for (d, s, n, want) in one {
            assert_eq!(sectors(d, s, n), want, "dst {d} src {s} bytes {n}");
        }
        // seg3_b16: three segments of one span, 16 bytes past a line.
        let span: u64 = [(0, 1008), (1008, 2064), (3072, 400)]
            .iter()
            .map(|&(o, n)| sectors(o, 16 + o, n))
            .sum();
        assert_eq!(span, 136);
    }
}
