//! The shared-memory wavefronts of a `wgmma` (HGMMA) request, as the H100
//! counts them.
//!
//! # Model (measured: `tests/hw/README.md`, finding 16; `measured.json`
//! rows `wgmma_*`, and the Triton matmuls of `measured_triton.json`)
//!
//! A `wgmma.mma_async` is issued by a warpgroup (four warps); Nsight Compute
//! counts one request per warp, Address Space `Shared`, with the
//! wavefronts of the operand tiles the tensor cores read through the matrix
//! descriptors. Every layout the descriptors allow keeps a core matrix
//! (8 rows of 16 bytes) in 8 distinct bank groups: without swizzle the 8
//! rows are 128 contiguous bytes, with a 32/64/128-byte swizzle they are
//! XOR-spread over the swizzle atom. So the instruction reads its operands
//! at one wavefront per 128 bytes, whatever the leading and stride byte
//! offsets, and each of the four requests carries a quarter of them:
//!
//! `wavefronts per request = (bytes of A, when A is in shared memory, + bytes of B) / 128 / 4`
//!
//! with `bytes of A = M × K × size(atype)`, `bytes of B = N × K × size(btype)`.
//! Measured: `m64n8k16` f16, both in shared memory, no swizzle: (2,048 +
//! 256) / 512 = 4.5; `m64n32k16`: 6 (both) and 2 (A in registers); Triton's
//! `64x128x16` and `64x64x16` with a 128-byte swizzle: 12 and 8.
//!
//! # Limits
//!
//! The descriptors are not followed to addresses: a descriptor whose leading
//! or stride byte offset made two core matrices share banks would cost more
//! and is not seen (none of the measured layouts, nor the layouts CUTLASS
//! and Triton build, does that). Sparse `wgmma.sp` reads half of A and a
//! metadata register; it is not distinguished.

/// Warps of the warpgroup that issues one `wgmma`.
pub const WARPGROUP: u32 = 4;

/// Wavefronts per request (per warp) of a `wgmma` whose operands read
/// `bytes` of shared memory.
pub fn wavefronts_per_request(bytes: u32) -> f64 {
    f64::from(bytes) / 128.0 / f64::from(WARPGROUP)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tests/hw/measured.json` (wgmma_m64n8k16, wgmma_m64n32k16_ss,
    /// wgmma_m64n32k16_rs) and `measured_triton.json` (tt_matmul_hopper,
    /// HGMMA.64x128x16; tt_matmul_ampere, HGMMA.64x64x16).
    #[test]
    fn operand_bytes_match_the_h100() {
        let half = 2;
        let a = 64 * 16 * half;
        assert_eq!(wavefronts_per_request(a + 8 * 16 * half), 4.5);
        assert_eq!(wavefronts_per_request(a + 32 * 16 * half), 6.0);
        assert_eq!(wavefronts_per_request(32 * 16 * half), 2.0);
        assert_eq!(wavefronts_per_request(a + 128 * 16 * half), 12.0);
        assert_eq!(wavefronts_per_request(a + 64 * 16 * half), 8.0);
    }
}
