//! The global sectors the copy engine reads for a 1-D bulk copy into shared
//! memory, as the H100 counts them.
//!
//! # Model (measured: `tests/hw/bulkprobe/`, 27 launches of one to three
//! `cp.async.bulk.shared::cluster.global` copies of 16 to 8,208 bytes at
//! source offsets 0, 16, 48, 112 and 1,008 past a 128-byte line;
//! `l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld`)
//!
//! A copy is read in pieces split at the 128-byte boundaries of its
//! shared-memory **destination**; each piece reads the 32-byte global sectors
//! its source bytes touch. When source and destination agree modulo 32 this
//! is the copy's sectors (400 bytes at a line: 13); when they do not, every
//! 128-byte piece straddles five sectors (400 bytes 16 bytes past a line
//! into a line-aligned buffer: 16 sectors, where the bytes span 13). All 27
//! launches follow it exactly (`python3 tests/hw/bulkprobe/parse.py`).
//!
//! # Limits
//!
//! Measured for copies from global into the CTA's shared memory only; the
//! store (`global.shared::cta`), reduction and multicast forms, and tensor
//! copies (whose box is in the tensor map), are not modelled here.

/// Sectors read for one copy of `size` bytes from global address `src` into
/// shared address `dst` (each known modulo 128 at least).
pub fn sectors(dst: i64, src: i64, size: u64) -> u64 {
    let mut total = 0u64;
    let mut done = 0i64;
    let size = size as i64;
    while done < size {
        let piece = (size - done).min(128 - (dst + done).rem_euclid(128));
        let a = src + done;
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
        // (shared destination, global source, bytes) -> sectors
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
