// Tiled SGEMM (shared memory, register blocking, float4 loads) and a WMMA
// half-precision tensor-core GEMM. Written for warpscope's test corpus.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

#define TILE 64
#define TK 8

__global__ void __launch_bounds__(256, 2)
sgemm_tiled(int M, int N, int K, float alpha, const float* __restrict__ A,
            const float* __restrict__ B, float beta, float* __restrict__ C) {
    __shared__ float As[TK][TILE];
    __shared__ __align__(16) float Bs[TK][TILE];
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += TK) {
        int la = threadIdx.x;               // 256 threads load 8x64 of A (transposed) and B
        int ar = la / TK, ak = la % TK;
        As[ak][ar] = (row0 + ar < M && k0 + ak < K) ? A[(row0 + ar) * K + k0 + ak] : 0.f;
        int bk = la / 32, bc = (la % 32) * 2;
        if (k0 + bk < K && col0 + bc + 1 < N) {
            float2 b = *reinterpret_cast<const float2*>(&B[(k0 + bk) * N + col0 + bc]);
            Bs[bk][bc] = b.x; Bs[bk][bc + 1] = b.y;
        } else {
            Bs[bk][bc] = 0.f; Bs[bk][bc + 1] = 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TK; ++k) {
            float4 a = *reinterpret_cast<const float4*>(&As[k][ty * 4]);
            float4 b = *reinterpret_cast<const float4*>(&Bs[k][tx * 4]);
            float ar4[4] = {a.x, a.y, a.z, a.w}, br4[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(ar4[i], br4[j], acc[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            int r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;
            if (r < M && c < N) C[r * N + c] = alpha * acc[i][j] + beta * C[r * N + c];
        }
}

// One warp computes a 16x16 tile of C with 16x16x16 fragments.
__global__ void hgemm_wmma(const half* A, const half* B, float* C, int M, int N, int K) {
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int warpN = blockIdx.y * blockDim.y + threadIdx.y;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int k = 0; k < K; k += 16) {
        int ar = warpM * 16, bc = warpN * 16;
        if (ar < M && bc < N) {
            wmma::load_matrix_sync(a, A + ar * K + k, K);
            wmma::load_matrix_sync(b, B + bc * K + k, K);
            wmma::mma_sync(c, a, b, c);
        }
    }
    if (warpM * 16 < M && warpN * 16 < N)
        wmma::store_matrix_sync(C + warpM * 16 * N + warpN * 16, c, N, wmma::mem_row_major);
}

__global__ void half2_axpy(int n, __half2 a, const __half2* x, __half2* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __hfma2(a, x[i], y[i]);
}
