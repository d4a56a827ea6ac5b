//! Shared-memory cost of `ldmatrix` and `stmatrix` (LDSM/STSM).
//!
//! # Model
//!
//! An `ldmatrix.x{1,2,4}` moves 1, 2 or 4 matrices. Each matrix row is 16
//! contiguous bytes whose address one lane supplies: lanes `0..r` give the
//! rows of matrix 0, lanes `r..2r` those of matrix 1, and so on (`r` = 8
//! rows per matrix, 16 for the `m16n16` `b8` shape); the other lanes'
//! addresses are ignored. The request is therefore a 16-byte-per-lane
//! shared access over the row lanes, and its wavefronts follow the rule of
//! [`super::shared_wavefronts`] for 16-byte lanes: groups of 8 lanes (one
//! `m8n8` matrix, 128 bytes) each need as many wavefronts as the most
//! distinct 4-byte words one of the 32 banks holds among their rows.
//!
//! That makes the three layouts exact:
//!
//! * row-major rows 128 bytes apart (a 64-wide `half` tile): the 8 rows of
//!   a matrix start in the same bank, 8 wavefronts per matrix;
//! * padded rows (`+16` bytes: 144 bytes apart): the rows' 4-bank groups
//!   rotate through all 32 banks, 1 wavefront per matrix;
//! * XOR-swizzled rows (16-byte chunk `c` of row `r` stored at chunk
//!   `c ^ (r % 8)`): likewise 1 wavefront per matrix.
//!
//! `.trans` redistributes elements among registers, not addresses, and
//! costs the same.

use super::shared_wavefronts;
use crate::analysis::domain::Lanes;
use crate::analysis::model::MatrixFacts;

/// The lanes that supply row addresses.
pub fn row_lanes(m: &MatrixFacts) -> u32 {
    let n = m.rows_per_matrix.saturating_mul(m.matrices);
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Wavefronts of one request with row addresses `addrs` (lanes in `active`).
pub fn matrix_wavefronts(addrs: &Lanes, active: u32, m: &MatrixFacts) -> u32 {
    shared_wavefronts(addrs, active & row_lanes(m), m.row_bytes)
}

/// Wavefronts a conflict-free request needs: one per 128 bytes of rows.
pub fn ideal_wavefronts(m: &MatrixFacts) -> u32 {
    (m.rows_per_matrix * m.matrices * m.row_bytes)
        .div_ceil(128)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x4() -> MatrixFacts {
        MatrixFacts {
            shape: "m8n8".into(),
            matrices: 4,
            rows_per_matrix: 8,
            row_bytes: 16,
            trans: false,
        }
    }

    /// Lane l supplies row (l % 8) of matrix l / 8, column chunk `l / 8` of a
    /// tile with rows `pitch` bytes apart, chunk index XORed by `swz(row)`.
    fn rows(pitch: i64, swizzle: bool) -> Lanes {
        std::array::from_fn(|l| {
            let (row, chunk) = ((l % 8) as i64, (l / 8) as i64);
            let c = if swizzle { chunk ^ row } else { chunk };
            row * pitch + c * 16
        })
    }

    #[test]
    fn layouts_of_a_64_wide_half_tile() {
        let m = x4();
        assert_eq!(ideal_wavefronts(&m), 4);
        // row-major, 128-byte rows: 8 rows per matrix in one bank group
        assert_eq!(matrix_wavefronts(&rows(128, false), u32::MAX, &m), 32);
        // padded by 16 bytes
        assert_eq!(matrix_wavefronts(&rows(144, false), u32::MAX, &m), 4);
        // XOR swizzle
        assert_eq!(matrix_wavefronts(&rows(128, true), u32::MAX, &m), 4);
    }

    #[test]
    fn only_the_row_lanes_count() {
        let mut m = x4();
        m.matrices = 1;
        assert_eq!(row_lanes(&m), 0xff);
        // lanes 8..31 would conflict, but their addresses are ignored
        let a: Lanes = std::array::from_fn(|l| if l < 8 { l as i64 * 16 } else { 0 });
        assert_eq!(matrix_wavefronts(&a, u32::MAX, &m), 1);
        m.rows_per_matrix = 16;
        m.matrices = 2;
        assert_eq!(row_lanes(&m), u32::MAX);
        assert_eq!(ideal_wavefronts(&m), 4);
    }
}
