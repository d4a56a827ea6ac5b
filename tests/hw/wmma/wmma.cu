// warpscope: nvcuda::wmma loads and stores measured on the H100/H200
// (tests/hw/wmma/README.md). Each kernel computes C = A B + C0 over whole tiles
// with one wmma shape, element type and layout; the "g_" kernels read their
// fragments straight from global memory (one warp a tile), the "s_" kernels
// stage a 2 x 2-tile block's operands in padded shared tiles first (four warps
// a block) and pass the accumulators out through shared memory.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

typedef wmma::row_major RM;
typedef wmma::col_major CM;

template <typename L> struct IsRow { static const bool v = false; };
template <> struct IsRow<RM> { static const bool v = true; };

// element (r, c) of a matrix stored row- or column-major with leading dimension ld
__device__ __forceinline__ size_t at(bool row, int r, int c, int ld) { return row ? (size_t)r * ld + c : (size_t)c * ld + r; }

// FI: the fragment's element type (precision::tf32 for tf32), TI: the type in memory, TA: the accumulator
template <typename FI, typename TI, typename TA, int TM, int TN, int TK, typename LA, typename LB, bool ROWC>
__device__ __forceinline__ void gemm_global(const TI *A, const TI *B, const TA *C0, TA *C, int K, int lda, int ldb, int ldc)
{
    int m0 = blockIdx.y * TM, n0 = blockIdx.x * TN;
    const bool ra = IsRow<LA>::v, rb = IsRow<LB>::v;
    const wmma::layout_t lc = ROWC ? wmma::mem_row_major : wmma::mem_col_major;
    wmma::fragment<wmma::accumulator, TM, TN, TK, TA> acc;
    wmma::load_matrix_sync(acc, C0 + at(ROWC, m0, n0, ldc), ldc, lc);
    for (int k0 = 0; k0 < K; k0 += TK) {
        wmma::fragment<wmma::matrix_a, TM, TN, TK, FI, LA> fa;
        wmma::fragment<wmma::matrix_b, TM, TN, TK, FI, LB> fb;
        wmma::load_matrix_sync(fa, A + at(ra, m0, k0, lda), lda);
        wmma::load_matrix_sync(fb, B + at(rb, k0, n0, ldb), ldb);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(C + at(ROWC, m0, n0, ldc), acc, ldc, lc);
}

// a block of 2 x 2 warps computes a (2 TM) x (2 TN) tile; K chunks of TK staged in
// shared tiles with leading dimensions TK + PAD (A row-major, or 2 TM + PAD
// column-major) and 2 TN + PAD (B row-major, or TK + PAD column-major);
// accumulators through a shared [2 TM][2 TN + PADC] (row) or [2 TN][2 TM + PADC] (column) tile
template <typename FI, typename TI, typename TA, int TM, int TN, int TK, typename LA, typename LB, bool ROWC, int PAD, int PADC>
__device__ __forceinline__ void gemm_shared(const TI *A, const TI *B, const TA *C0, TA *C, int K, int lda, int ldb, int ldc)
{
    const bool ra = IsRow<LA>::v, rb = IsRow<LB>::v;
    const int LDA = ra ? TK + PAD : 2 * TM + PAD, LDB = rb ? 2 * TN + PAD : TK + PAD;
    const int LDC = ROWC ? 2 * TN + PADC : 2 * TM + PADC;
    __shared__ __align__(128) TI As[(ra ? 2 * TM : TK) * (ra ? TK + PAD : 2 * TM + PAD)];
    __shared__ __align__(128) TI Bs[(rb ? TK : 2 * TN) * (rb ? 2 * TN + PAD : TK + PAD)];
    __shared__ __align__(128) TA Cs[(ROWC ? 2 * TM : 2 * TN) * (ROWC ? 2 * TN + PADC : 2 * TM + PADC)];
    const wmma::layout_t lc = ROWC ? wmma::mem_row_major : wmma::mem_col_major;
    int t = threadIdx.x, warp = t >> 5, wm = warp >> 1, wn = warp & 1;
    int m0 = blockIdx.y * 2 * TM, n0 = blockIdx.x * 2 * TN;
    wmma::fragment<wmma::accumulator, TM, TN, TK, TA> acc;
    wmma::load_matrix_sync(acc, C0 + at(ROWC, m0 + wm * TM, n0 + wn * TN, ldc), ldc, lc);
    for (int k0 = 0; k0 < K; k0 += TK) {
        for (int e = t; e < 2 * TM * TK; e += 128) {
            int r = ra ? e / TK : e % (2 * TM), c = ra ? e % TK : e / (2 * TM);
            As[at(ra, r, c, LDA)] = A[at(ra, m0 + r, k0 + c, lda)];
        }
        for (int e = t; e < 2 * TN * TK; e += 128) {
            int r = rb ? e / (2 * TN) : e % TK, c = rb ? e % (2 * TN) : e / TK;
            Bs[at(rb, r, c, LDB)] = B[at(rb, k0 + r, n0 + c, ldb)];
        }
        __syncthreads();
        wmma::fragment<wmma::matrix_a, TM, TN, TK, FI, LA> fa;
        wmma::fragment<wmma::matrix_b, TM, TN, TK, FI, LB> fb;
        wmma::load_matrix_sync(fa, As + at(ra, wm * TM, 0, LDA), LDA);
        wmma::load_matrix_sync(fb, Bs + at(rb, 0, wn * TN, LDB), LDB);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncthreads();
    }
    wmma::store_matrix_sync(Cs + at(ROWC, wm * TM, wn * TN, LDC), acc, LDC, lc);
    __syncthreads();
    for (int e = t; e < 4 * TM * TN; e += 128) {
        int r = ROWC ? e / (2 * TN) : e % (2 * TM), c = ROWC ? e % (2 * TN) : e / (2 * TM);
        C[at(ROWC, m0 + r, n0 + c, ldc)] = Cs[at(ROWC, r, c, LDC)];
    }
}

#define GK(name, FI, TI, TA, TM, TN, TK, LA, LB, ROWC)                                                            \
    extern "C" __global__ void name(const TI *A, const TI *B, const TA *C0, TA *C, int K, int lda, int ldb, int ldc) \
    {                                                                                                             \
        gemm_global<FI, TI, TA, TM, TN, TK, LA, LB, ROWC>(A, B, C0, C, K, lda, ldb, ldc);                        \
    }
#define SK(name, FI, TI, TA, TM, TN, TK, LA, LB, ROWC, PAD, PADC)                                                 \
    extern "C" __global__ void name(const TI *A, const TI *B, const TA *C0, TA *C, int K, int lda, int ldb, int ldc) \
    {                                                                                                             \
        gemm_shared<FI, TI, TA, TM, TN, TK, LA, LB, ROWC, PAD, PADC>(A, B, C0, C, K, lda, ldb, ldc);             \
    }

typedef signed char s8;
typedef unsigned char u8;
typedef __nv_bfloat16 bf16;
typedef wmma::precision::tf32 tf32;

// straight from global memory
GK(g_h16_rr_f32r, half, half, float, 16, 16, 16, RM, RM, true)
GK(g_h16_cc_f32c, half, half, float, 16, 16, 16, CM, CM, false)
GK(g_h16_rc_h16r, half, half, half, 16, 16, 16, RM, CM, true)
GK(g_h16_cr_h16c, half, half, half, 16, 16, 16, CM, RM, false)
GK(g_h32x8_rr_f32r, half, half, float, 32, 8, 16, RM, RM, true)
GK(g_h8x32_cr_f32c, half, half, float, 8, 32, 16, CM, RM, false)
GK(g_bf16_rc_f32r, bf16, bf16, float, 16, 16, 16, RM, CM, true)
GK(g_tf32_rr_f32r, tf32, float, float, 16, 16, 8, RM, RM, true)
GK(g_tf32_cc_f32c, tf32, float, float, 16, 16, 8, CM, CM, false)
GK(g_f64_rc_f64r, double, double, double, 8, 8, 4, RM, CM, true)
GK(g_f64_cr_f64c, double, double, double, 8, 8, 4, CM, RM, false)
GK(g_s8_rc_s32r, s8, s8, int, 16, 16, 16, RM, CM, true)
GK(g_u8_32x8_cr_s32c, u8, u8, int, 32, 8, 16, CM, RM, false)
// through padded shared tiles
SK(s_h16_rr_f32r_p8, half, half, float, 16, 16, 16, RM, RM, true, 8, 4)
SK(s_h16_rr_f32r_p0, half, half, float, 16, 16, 16, RM, RM, true, 0, 0)
SK(s_h16_cc_f32c_p8, half, half, float, 16, 16, 16, CM, CM, false, 8, 4)
SK(s_h16_rc_h16r_p0, half, half, half, 16, 16, 16, RM, CM, true, 0, 8)
SK(s_h32x8_cr_f32c_p8, half, half, float, 32, 8, 16, CM, RM, false, 8, 0)
SK(s_bf16_rc_f32r_p16, bf16, bf16, float, 16, 16, 16, RM, CM, true, 16, 4)
SK(s_tf32_rr_f32r_p4, tf32, float, float, 16, 16, 8, RM, RM, true, 4, 4)
SK(s_tf32_cc_f32c_p0, tf32, float, float, 16, 16, 8, CM, CM, false, 0, 0)
SK(s_f64_rr_f64r_p4, double, double, double, 8, 8, 4, RM, RM, true, 4, 0)
SK(s_f64_cc_f64c_p0, double, double, double, 8, 8, 4, CM, CM, false, 0, 2)
SK(s_s8_rc_s32r_p16, s8, s8, int, 16, 16, 16, RM, CM, true, 16, 4)
SK(s_u8_rr_s32c_p0, u8, u8, int, 16, 16, 16, RM, RM, false, 0, 0)
