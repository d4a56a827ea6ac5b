// warpscope tenth held-out batch (tests/hw/blind10): kernels in styles none of
// the nine earlier batches has, written the way data-processing (Arrow /
// Parquet readers, simdutf-style validators), image (camera pipelines,
// OpenCV), crypto (AES T-tables, SHA-256), scientific (DIA SpMV, FEM and
// edge-based assembly), CUB (WarpLoad / WarpStore, BlockExchange scatter),
// deep-learning (Winograd, channels-last pooling, batch-norm statistics,
// sliding-window softmax, vocabulary argmax) and Hopper (1-D bulk copies
// multicast to a cluster, elect.sync) codes write them.  Our own code; only the
// toolkit's headers.  Every loop bound comes from a parameter or is bounded.
// Each access of interest is on its own source line.
#include <cooperative_groups.h>
#include <cub/block/block_exchange.cuh>
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_store.cuh>
#include <cuda_fp16.h>
#include <stdint.h>

namespace cg = cooperative_groups;

#define LB(n) __launch_bounds__(n)
#define FULLMASK 0xffffffffu

static __device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

// ------------------------------------------------------------------ data processing --

// base64 decode (RFC 4648 alphabet, no padding): a thread per 4-character quad
// (one uchar4 load), the 256-entry decoding table built in shared memory by the
// block, three byte stores at a 3-byte lane stride.
extern "C" __global__ void LB(256) base64_decode(const uchar4* __restrict__ in, uint8_t* __restrict__ out, int nquads)
{
    __shared__ uint8_t dec[256];
    {
        int c = threadIdx.x;
        uint8_t v = 0;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
        else if (c >= '0' && c <= '9') v = c - '0' + 52;
        else if (c == '+') v = 62;
        else if (c == '/') v = 63;
        dec[c] = v;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nquads) return;
    uchar4 q = in[i];
    uint32_t a = dec[q.x];
    uint32_t b = dec[q.y];
    uint32_t c = dec[q.z];
    uint32_t d = dec[q.w];
    uint32_t w = (a << 18) | (b << 12) | (c << 6) | d;
    out[3 * (size_t)i + 0] = (uint8_t)(w >> 16);
    out[3 * (size_t)i + 1] = (uint8_t)(w >> 8);
    out[3 * (size_t)i + 2] = (uint8_t)w;
}

// UTF-8 validation and code-point count (simdutf-style, scalar per thread): a
// thread per 16-byte chunk (one uint4 load); a sequence whose lead byte lies in
// the chunk is checked in full, its continuation bytes past the chunk read one
// byte at a time from the next chunk (only when a sequence straddles).
extern "C" __global__ void LB(256) utf8_validate(const uint4* __restrict__ text, int nchunks, int nbytes,
                                                 int2* __restrict__ result)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nchunks) return;
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(text);
    uint4 v = text[i];
    uint8_t b[16];
    memcpy(b, &v, 16);
    int count = 0, bad = 0;
    for (int k = 0; k < 16; ++k) {
        uint8_t c = b[k];
        if ((c & 0xC0) == 0x80) continue;
        ++count;
        int len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (len == 0) { ++bad; continue; }
        for (int j = 1; j < len; ++j) {
            int p = k + j;
            uint8_t n;
            if (p < 16) n = b[p];
            else if (16 * i + p < nbytes) n = bytes[16 * (size_t)i + p];
            else n = 0;
            bad += (n & 0xC0) != 0x80;
        }
    }
    result[i] = make_int2(count, bad);
}

// run-length decode (Arrow REE / Parquet RLE runs): a thread per output value;
// the run found by a binary search over the loaded inclusive run ends (about
// log2(nruns) dependent loads at data-dependent positions), then the run's value.
extern "C" __global__ void LB(256) rle_decode(const int* __restrict__ run_ends, const int* __restrict__ run_vals,
                                              int nruns, int* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int lo = 0, hi = nruns - 1;
    for (int it = 0; it < 32 && lo < hi; ++it) {
        int mid = (lo + hi) >> 1;
        int e = run_ends[mid];
        if (e <= i) lo = mid + 1;
        else hi = mid;
    }
    out[i] = run_vals[lo];
}

// Parquet dictionary decode: 16-bit indices into a dictionary of 4,096 doubles.
extern "C" __global__ void LB(256) dict_decode_f64(const uint16_t* __restrict__ idx, const double* __restrict__ dict,
                                                   double* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = idx[i];
    double v = dict[k & 4095];
    out[i] = v;
}

// ------------------------------------------------------------------ images --

// Bayer RGGB demosaic, bilinear: a thread per 2 x 2 quad, a clamped 4 x 4 byte
// window (16 byte loads), four RGBA uchar4 stores (two a row).
extern "C" __global__ void LB(256) bayer_rggb_bilinear(const uint8_t* __restrict__ raw, int pitch, uchar4* __restrict__ out,
                                                       int opitch, int W, int H)
{
    int qx = blockIdx.x * blockDim.x + threadIdx.x, qy = blockIdx.y * blockDim.y + threadIdx.y;
    if (2 * qx >= W || 2 * qy >= H) return;
    int p[4][4];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        int y = min(max(2 * qy - 1 + r, 0), H - 1);
        const uint8_t* row = raw + (size_t)y * pitch;
#pragma unroll
        for (int c = 0; c < 4; ++c) {
            int x = min(max(2 * qx - 1 + c, 0), W - 1);
            p[r][c] = row[x];
        }
    }
    // quad pixels at window (1,1)=R, (1,2)=G, (2,1)=G, (2,2)=B
    int R0 = p[1][1], G0 = (p[0][1] + p[2][1] + p[1][0] + p[1][2] + 2) >> 2, B0 = (p[0][0] + p[0][2] + p[2][0] + p[2][2] + 2) >> 2;
    int R1 = (p[1][1] + p[1][3] + 1) >> 1, G1 = p[1][2], B1 = (p[0][2] + p[2][2] + 1) >> 1;
    int R2 = (p[1][1] + p[3][1] + 1) >> 1, G2 = p[2][1], B2 = (p[2][0] + p[2][2] + 1) >> 1;
    int R3 = (p[1][1] + p[1][3] + p[3][1] + p[3][3] + 2) >> 2, G3 = (p[1][2] + p[3][2] + p[2][1] + p[2][3] + 2) >> 2, B3 = p[2][2];
    uchar4* o0 = out + (size_t)(2 * qy) * opitch + 2 * qx;
    uchar4* o1 = o0 + opitch;
    o0[0] = make_uchar4(R0, G0, B0, 255);
    o0[1] = make_uchar4(R1, G1, B1, 255);
    o1[0] = make_uchar4(R2, G2, B2, 255);
    o1[1] = make_uchar4(R3, G3, B3, 255);
}

// integral image, row pass: a warp per row, 128-byte chunks (a uchar4 a lane),
// in-lane prefix of 4, a shuffle scan, the carry across chunks; uint4 stores of
// the four prefix sums.  W a multiple of 4; the last chunk partial.
extern "C" __global__ void LB(128) integral_rows_u8(const uint8_t* __restrict__ img, int pitch, uint32_t* __restrict__ out,
                                                    int opitch, int W, int H)
{
    int lane = threadIdx.x & 31;
    int y = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (y >= H) return;
    const uchar4* row = reinterpret_cast<const uchar4*>(img + (size_t)y * pitch);
    uint4* orow = reinterpret_cast<uint4*>(out + (size_t)y * opitch);
    uint32_t carry = 0;
    for (int c0 = 0; c0 < W; c0 += 128) {
        int x = c0 + 4 * lane;
        uchar4 v = make_uchar4(0, 0, 0, 0);
        if (x < W) v = row[x >> 2];
        uint32_t s0 = v.x, s1 = s0 + v.y, s2 = s1 + v.z, s3 = s2 + v.w;
        uint32_t incl = s3;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            uint32_t t = __shfl_up_sync(FULLMASK, incl, d);
            if (lane >= d) incl += t;
        }
        uint32_t base = carry + incl - s3;
        if (x < W) orow[x >> 2] = make_uint4(base + s0, base + s1, base + s2, base + s3);
        carry += __shfl_sync(FULLMASK, incl, 31);
    }
}

// integral image, column pass in place: a thread per column walking the rows.
extern "C" __global__ void LB(256) integral_cols_u32(uint32_t* __restrict__ img, int pitch, int W, int H)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= W) return;
    uint32_t s = 0;
    for (int y = 0; y < H; ++y) {
        uint32_t* p = img + (size_t)y * pitch + x;
        s += *p;
        *p = s;
    }
}

// separable Gaussian (9 taps, sigma 2), row pass: 128-thread blocks along a
// row, a shared tile of 128 + 8 with the halo loaded by the first 8 threads,
// clamped borders.  Rows of W floats at pitch `pitch`.
__constant__ float c_gauss9[9] = {0.02763055f, 0.06628224f, 0.12383154f, 0.18017382f, 0.20416369f,
                                  0.18017382f, 0.12383154f, 0.06628224f, 0.02763055f};
extern "C" __global__ void LB(128) gauss9_row(const float* __restrict__ in, float* __restrict__ out, int pitch, int W, int H)
{
    __shared__ float tile[128 + 8];
    int y = blockIdx.y;
    int x = (int)blockIdx.x * 128 + (int)threadIdx.x;
    const float* row = in + (size_t)y * pitch;
    tile[threadIdx.x + 4] = row[min(x, W - 1)];
    if (threadIdx.x < 4) {
        int xl = max((int)blockIdx.x * 128 + (int)threadIdx.x - 4, 0);
        tile[threadIdx.x] = row[xl];
        int xr = min((int)blockIdx.x * 128 + 128 + (int)threadIdx.x, W - 1);
        tile[132 + threadIdx.x] = row[xr];
    }
    __syncthreads();
    if (x >= W) return;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 9; ++k) s += c_gauss9[k] * tile[threadIdx.x + k];
    out[(size_t)y * pitch + x] = s;
}

// column pass: 32 x 8 blocks, a shared tile of (8 + 8) x 32 floats, halo rows
// loaded by the top and bottom four thread rows, clamped.
extern "C" __global__ void LB(256) gauss9_col(const float* __restrict__ in, float* __restrict__ out, int pitch, int W, int H)
{
    __shared__ float tile[16][32];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 8 + threadIdx.y;
    int xc = min(x, W - 1);
    tile[threadIdx.y + 4][threadIdx.x] = in[(size_t)min(y, H - 1) * pitch + xc];
    if (threadIdx.y < 4) {
        int yt = max((int)blockIdx.y * 8 + (int)threadIdx.y - 4, 0);
        tile[threadIdx.y][threadIdx.x] = in[(size_t)yt * pitch + xc];
    } else {
        int yb = min((int)blockIdx.y * 8 + 8 + (int)threadIdx.y - 4, H - 1);
        tile[threadIdx.y + 8][threadIdx.x] = in[(size_t)yb * pitch + xc];
    }
    __syncthreads();
    if (x >= W || y >= H) return;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 9; ++k) s += c_gauss9[k] * tile[threadIdx.y + k][threadIdx.x];
    out[(size_t)y * pitch + x] = s;
}

// cv::warpAffine, bilinear, BORDER_REPLICATE: a thread per destination pixel,
// the inverse map (rotation and scale) gives the source point, four clamped
// gathers.
extern "C" __global__ void LB(256) warp_affine_bilinear(const float* __restrict__ src, int sw, int sh, float* __restrict__ dst,
                                                        int dw, int dh, float m00, float m01, float m02, float m10,
                                                        float m11, float m12)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dw || y >= dh) return;
    float sx = m00 * x + m01 * y + m02, sy = m10 * x + m11 * y + m12;
    float fx = floorf(sx), fy = floorf(sy);
    float ax = sx - fx, ay = sy - fy;
    int x0 = min(max((int)fx, 0), sw - 1), x1 = min(max((int)fx + 1, 0), sw - 1);
    int y0 = min(max((int)fy, 0), sh - 1), y1 = min(max((int)fy + 1, 0), sh - 1);
    float v00 = src[(size_t)y0 * sw + x0];
    float v01 = src[(size_t)y0 * sw + x1];
    float v10 = src[(size_t)y1 * sw + x0];
    float v11 = src[(size_t)y1 * sw + x1];
    dst[(size_t)y * dw + x] = (1.0f - ay) * ((1.0f - ax) * v00 + ax * v01) + ay * ((1.0f - ax) * v10 + ax * v11);
}

// colour LUT (camera tone curve): three 256-byte tables, one a channel, staged
// in shared memory; a uchar4 pixel a thread, three data-dependent byte reads.
extern "C" __global__ void LB(256) lut3_apply_u8c4(const uchar4* __restrict__ in, const uint8_t* __restrict__ luts,
                                                   uchar4* __restrict__ out, int n)
{
    __shared__ uint8_t lut[3][256];
    for (int k = threadIdx.x; k < 768; k += blockDim.x) lut[k >> 8][k & 255] = luts[k];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uchar4 p = in[i];
    uint8_t r = lut[0][p.x];
    uint8_t g = lut[1][p.y];
    uint8_t b = lut[2][p.z];
    out[i] = make_uchar4(r, g, b, p.w);
}

// ------------------------------------------------------------------ crypto --

// AES-128-structured encryption with T-tables in shared memory (the classic
// 32-bit software AES layout: four 256-word tables, 10 rounds, the round keys
// in shared memory): a thread per 16-byte block (uint4 in, uint4 out), 16
// data-dependent shared lookups a round.  The tables and keys are host data
// (this batch measures the access pattern, not the cipher).
extern "C" __global__ void LB(256) aes128_ttable(const uint4* __restrict__ in, uint4* __restrict__ out,
                                                 const uint32_t* __restrict__ tables, const uint32_t* __restrict__ rkeys,
                                                 int nblocks)
{
    __shared__ uint32_t T[4][256];
    __shared__ uint32_t rk[44];
    for (int k = threadIdx.x; k < 1024; k += blockDim.x) T[k >> 8][k & 255] = tables[k];
    if (threadIdx.x < 44) rk[threadIdx.x] = rkeys[threadIdx.x];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nblocks) return;
    uint4 v = in[i];
    uint32_t s0 = v.x ^ rk[0], s1 = v.y ^ rk[1], s2 = v.z ^ rk[2], s3 = v.w ^ rk[3];
    for (int r = 1; r < 10; ++r) {
        uint32_t t0 = T[0][s0 >> 24] ^ T[1][(s1 >> 16) & 255] ^ T[2][(s2 >> 8) & 255] ^ T[3][s3 & 255] ^ rk[4 * r];
        uint32_t t1 = T[0][s1 >> 24] ^ T[1][(s2 >> 16) & 255] ^ T[2][(s3 >> 8) & 255] ^ T[3][s0 & 255] ^ rk[4 * r + 1];
        uint32_t t2 = T[0][s2 >> 24] ^ T[1][(s3 >> 16) & 255] ^ T[2][(s0 >> 8) & 255] ^ T[3][s1 & 255] ^ rk[4 * r + 2];
        uint32_t t3 = T[0][s3 >> 24] ^ T[1][(s0 >> 16) & 255] ^ T[2][(s1 >> 8) & 255] ^ T[3][s2 & 255] ^ rk[4 * r + 3];
        s0 = t0; s1 = t1; s2 = t2; s3 = t3;
    }
    // last round: bytes of T[2] (the S-box column of the classic layout)
    uint32_t o0 = ((T[2][s0 >> 24] & 0xff000000u) | (T[3][(s1 >> 16) & 255] & 0x00ff0000u) | (T[0][(s2 >> 8) & 255] & 0x0000ff00u) | (T[1][s3 & 255] & 0xffu)) ^ rk[40];
    uint32_t o1 = ((T[2][s1 >> 24] & 0xff000000u) | (T[3][(s2 >> 16) & 255] & 0x00ff0000u) | (T[0][(s3 >> 8) & 255] & 0x0000ff00u) | (T[1][s0 & 255] & 0xffu)) ^ rk[41];
    uint32_t o2 = ((T[2][s2 >> 24] & 0xff000000u) | (T[3][(s3 >> 16) & 255] & 0x00ff0000u) | (T[0][(s0 >> 8) & 255] & 0x0000ff00u) | (T[1][s1 & 255] & 0xffu)) ^ rk[42];
    uint32_t o3 = ((T[2][s3 >> 24] & 0xff000000u) | (T[3][(s0 >> 16) & 255] & 0x00ff0000u) | (T[0][(s1 >> 8) & 255] & 0x0000ff00u) | (T[1][s2 & 255] & 0xffu)) ^ rk[43];
    out[i] = make_uint4(o0, o1, o2, o3);
}

// SHA-256 compression of independent 64-byte blocks (one block a message, the
// standard initial state): a thread per block, four uint4 loads at a 64-byte
// lane stride, byte-swapped; the message schedule kept in a rolling window of
// 16 words indexed by t & 15 in a loop that is not unrolled (local memory);
// the 64 round constants staged in shared memory; the digest as two uint4.
static __device__ __forceinline__ uint32_t rotr(uint32_t x, int n) { return __funnelshift_r(x, x, n); }
extern "C" __global__ void LB(128) sha256_blocks(const uint4* __restrict__ msg, const uint32_t* __restrict__ K,
                                                 uint4* __restrict__ digest, int nblocks)
{
    __shared__ uint32_t k[64];
    if (threadIdx.x < 64) k[threadIdx.x] = K[threadIdx.x];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nblocks) return;
    uint32_t w[16];
    const uint4* m = msg + 4 * (size_t)i;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        uint4 v = m[q];
        w[4 * q + 0] = __byte_perm(v.x, 0, 0x0123);
        w[4 * q + 1] = __byte_perm(v.y, 0, 0x0123);
        w[4 * q + 2] = __byte_perm(v.z, 0, 0x0123);
        w[4 * q + 3] = __byte_perm(v.w, 0, 0x0123);
    }
    uint32_t a = 0x6a09e667u, b = 0xbb67ae85u, c = 0x3c6ef372u, d = 0xa54ff53au;
    uint32_t e = 0x510e527fu, f = 0x9b05688cu, g = 0x1f83d9abu, h = 0x5be0cd19u;
#pragma unroll 1
    for (int t = 0; t < 64; ++t) {
        uint32_t wt;
        if (t < 16) wt = w[t];
        else {
            uint32_t w15 = w[(t - 15) & 15], w2 = w[(t - 2) & 15];
            uint32_t s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3);
            uint32_t s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10);
            wt = w[t & 15] + s0 + w[(t - 7) & 15] + s1;
            w[t & 15] = wt;
        }
        uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = h + S1 + ch + k[t] + wt;
        uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        uint32_t mj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = S0 + mj;
        h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    uint4* o = digest + 2 * (size_t)i;
    o[0] = make_uint4(a + 0x6a09e667u, b + 0xbb67ae85u, c + 0x3c6ef372u, d + 0xa54ff53au);
    o[1] = make_uint4(e + 0x510e527fu, f + 0x9b05688cu, g + 0x1f83d9abu, h + 0x5be0cd19u);
}

// ------------------------------------------------------------------ scientific --

// SpMV in DIA format (cuSPARSE-style legacy dia): a thread per row, the
// diagonal offsets loaded (uniform), data[d][row] coalesced, x[row + off] at a
// shift of `off` elements, out-of-range columns skipped.
extern "C" __global__ void LB(256) spmv_dia(const float* __restrict__ data, const int* __restrict__ offsets, int ndiag,
                                            const float* __restrict__ x, float* __restrict__ y, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n) return;
    float s = 0.0f;
    for (int d = 0; d < ndiag; ++d) {
        int off = offsets[d];
        int col = row + off;
        if (col >= 0 && col < n) {
            float a = data[(size_t)d * n + row];
            s += a * x[col];
        }
    }
    y[row] = s;
}

// FEM hex8 element assembly (matrix-free residual): a thread per element, its
// 8 node ids as two int4 loads, 8 gathered nodal values, an 8 x 8 element
// matrix from shared memory, 8 atomicAdd scatters into the nodes.
extern "C" __global__ void LB(128) fem_hex8_apply(const int4* __restrict__ conn, const float* __restrict__ u,
                                                  const float* __restrict__ ke, float* __restrict__ f, int nelem)
{
    __shared__ float K[64];
    if (threadIdx.x < 64) K[threadIdx.x] = ke[threadIdx.x];
    __syncthreads();
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= nelem) return;
    int4 c0 = conn[2 * (size_t)e];
    int4 c1 = conn[2 * (size_t)e + 1];
    int nd[8] = {c0.x, c0.y, c0.z, c0.w, c1.x, c1.y, c1.z, c1.w};
    float ue[8];
#pragma unroll
    for (int a = 0; a < 8; ++a) ue[a] = u[nd[a]];
#pragma unroll
    for (int a = 0; a < 8; ++a) {
        float r = 0.0f;
#pragma unroll
        for (int b = 0; b < 8; ++b) r += K[8 * a + b] * ue[b];
        atomicAdd(&f[nd[a]], r);
    }
}

// edge-based finite-volume flux (unstructured mesh codes): a thread per edge
// of a shuffled edge list, the int2 endpoint pair, two gathers, the flux
// scattered to both endpoints by atomicAdd.
extern "C" __global__ void LB(256) edge_flux_atomic(const int2* __restrict__ edges, const float* __restrict__ q,
                                                    const float* __restrict__ coef, float* __restrict__ res, int nedges)
{
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= nedges) return;
    int2 ab = edges[e];
    float qa = q[ab.x];
    float qb = q[ab.y];
    float k = coef[e];
    float flux = k * (qb - qa);
    atomicAdd(&res[ab.x], flux);
    atomicAdd(&res[ab.y], -flux);
}

// ------------------------------------------------------------------ CUB --

// cub::WarpLoad / cub::WarpStore with WARP_LOAD_TRANSPOSE / WARP_STORE_TRANSPOSE:
// 5 items a lane (160 a warp), striped loads through shared memory into a
// blocked arrangement, a per-lane adjacent operation, and back; n with a tail.
extern "C" __global__ void LB(128) cub_warp_transpose5(const float* __restrict__ in, float* __restrict__ out, int n)
{
    using WL = cub::WarpLoad<float, 5, cub::WARP_LOAD_TRANSPOSE, 32>;
    using WS = cub::WarpStore<float, 5, cub::WARP_STORE_TRANSPOSE, 32>;
    __shared__ typename WL::TempStorage tl[4];
    __shared__ typename WS::TempStorage ts[4];
    int warp = threadIdx.x >> 5;
    long long base = ((long long)blockIdx.x * 4 + warp) * 160;
    if (base >= n) return;
    int valid = (int)min((long long)160, n - base);
    float items[5];
    WL(tl[warp]).Load(in + base, items, valid, 0.0f);
    float o[5];
#pragma unroll
    for (int k = 0; k < 5; ++k) o[k] = items[k] - (k ? items[k - 1] : 0.0f);
    WS(ts[warp]).Store(out + base, o, valid);
}

// cub::BlockExchange::ScatterToStriped with data-dependent ranks: a tile of
// 128 x ITEMS keys loaded blocked (ITEMS consecutive a thread), each key
// scattered to its loaded rank in shared memory (CUB pads the exchange buffer
// when ITEMS is a power of two above 4: 8 padded, 7 not), read back striped and
// stored coalesced.  Ranks: a random permutation of each tile.
template <int ITEMS>
static __device__ __forceinline__ void scatter_to_striped(const int* __restrict__ keys, const int* __restrict__ ranks,
                                                          int* __restrict__ out)
{
    using BE = cub::BlockExchange<int, 128, ITEMS>;
    __shared__ typename BE::TempStorage ts;
    const size_t base = (size_t)blockIdx.x * 128 * ITEMS;
    int k[ITEMS], r[ITEMS];
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        k[j] = keys[base + threadIdx.x * ITEMS + j];
        r[j] = ranks[base + threadIdx.x * ITEMS + j];
    }
    BE(ts).ScatterToStriped(k, r);
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) out[base + j * 128 + threadIdx.x] = k[j];
}
extern "C" __global__ void LB(128) cub_scatter_striped8(const int* keys, const int* ranks, int* out) { scatter_to_striped<8>(keys, ranks, out); }
extern "C" __global__ void LB(128) cub_scatter_striped7(const int* keys, const int* ranks, int* out) { scatter_to_striped<7>(keys, ranks, out); }

// ------------------------------------------------------------------ deep learning --

// Winograd F(2x2, 3x3) input transform (NCHW, one image, pad 1): a thread per
// (channel, 4 x 4 input tile at stride 2), 16 clamped-to-zero loads, V = B^T d B,
// 16 stores into V[16][C][tiles] (tile index fastest).
extern "C" __global__ void LB(256) winograd_f23_input(const float* __restrict__ in, float* __restrict__ V, int C, int H,
                                                      int W, int TW, int TH)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int c = blockIdx.y;
    int T = TW * TH;
    if (t >= T) return;
    int ty = t / TW, tx = t - ty * TW;
    float d[4][4];
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int s = 0; s < 4; ++s) {
            int y = 2 * ty - 1 + r, x = 2 * tx - 1 + s;
            d[r][s] = (y >= 0 && y < H && x >= 0 && x < W) ? in[((size_t)c * H + y) * W + x] : 0.0f;
        }
    float tmp[4][4];
#pragma unroll
    for (int s = 0; s < 4; ++s) {
        tmp[0][s] = d[0][s] - d[2][s];
        tmp[1][s] = d[1][s] + d[2][s];
        tmp[2][s] = d[2][s] - d[1][s];
        tmp[3][s] = d[1][s] - d[3][s];
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        float v0 = tmp[r][0] - tmp[r][2], v1 = tmp[r][1] + tmp[r][2], v2 = tmp[r][2] - tmp[r][1], v3 = tmp[r][1] - tmp[r][3];
        size_t o = ((size_t)(4 * r) * C + c) * T + t;
        V[o] = v0;
        V[o + (size_t)C * T] = v1;
        V[o + 2 * (size_t)C * T] = v2;
        V[o + 3 * (size_t)C * T] = v3;
    }
}

// average pool 3 x 3, stride 2, pad 1, channels-last fp16 (count_include_pad =
// false): a thread per (output pixel, 8 channels), nine uint4 loads of 8 halves
// at a pixel stride of C halves, one uint4 store.
extern "C" __global__ void LB(256) avgpool3s2_nhwc_h8(const uint4* __restrict__ in, uint4* __restrict__ out, int N, int H,
                                                      int W, int C8, int OH, int OW)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)N * OH * OW * C8;
    if (i >= total) return;
    int cv = (int)(i % C8);
    long long p = i / C8;
    int ox = (int)(p % OW);
    int oy = (int)((p / OW) % OH);
    int nimg = (int)(p / ((long long)OW * OH));
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int cnt = 0;
    for (int dy = 0; dy < 3; ++dy) {
        int y = 2 * oy - 1 + dy;
        if (y < 0 || y >= H) continue;
        for (int dx = 0; dx < 3; ++dx) {
            int x = 2 * ox - 1 + dx;
            if (x < 0 || x >= W) continue;
            uint4 v = in[(((size_t)nimg * H + y) * W + x) * C8 + cv];
            const __half2* h = reinterpret_cast<const __half2*>(&v);
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                float2 f = __half22float2(h[k]);
                acc[2 * k] += f.x;
                acc[2 * k + 1] += f.y;
            }
            ++cnt;
        }
    }
    float inv = 1.0f / (float)cnt;
    uint4 o;
    __half2* oh = reinterpret_cast<__half2*>(&o);
#pragma unroll
    for (int k = 0; k < 4; ++k) oh[k] = __floats2half2_rn(acc[2 * k] * inv, acc[2 * k + 1] * inv);
    out[i] = o;
}

// batch-norm training statistics on NCHW: a 256-thread block per channel, loops
// over the images and the plane (HW floats, rows of the plane contiguous), a
// shared-memory tree reduction of the sum and the sum of squares; mean and
// biased variance stored by thread 0.
extern "C" __global__ void LB(256) bn_stats_nchw(const float* __restrict__ x, float* __restrict__ mean,
                                                 float* __restrict__ var, int N, int C, int HW)
{
    __shared__ float ss[256], sq[256];
    int c = blockIdx.x;
    float s = 0.0f, q = 0.0f;
    for (int n = 0; n < N; ++n) {
        const float* p = x + ((size_t)n * C + c) * HW;
        for (int i = threadIdx.x; i < HW; i += 256) {
            float v = p[i];
            s += v;
            q += v * v;
        }
    }
    ss[threadIdx.x] = s;
    sq[threadIdx.x] = q;
    __syncthreads();
    for (int st = 128; st > 0; st >>= 1) {
        if (threadIdx.x < st) {
            ss[threadIdx.x] += ss[threadIdx.x + st];
            sq[threadIdx.x] += sq[threadIdx.x + st];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        float cntf = (float)N * HW;
        float m = ss[0] / cntf;
        mean[c] = m;
        var[c] = sq[0] / cntf - m * m;
    }
}

// sliding-window (local) causal softmax, Mistral-style: a warp per query row i
// of T, only the columns [max(0, i - window + 1), i] read (from an unaligned
// start), max and sum passes, every column of the row written (zeros outside).
extern "C" __global__ void LB(128) swa_softmax(const float* __restrict__ s, float* __restrict__ p, int T, int window,
                                               float scale)
{
    int lane = threadIdx.x & 31;
    int i = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (i >= T) return;
    const float* row = s + (size_t)i * T;
    float* orow = p + (size_t)i * T;
    int lo = max(0, i - window + 1);
    float m = -INFINITY;
    for (int j = lo + lane; j <= i; j += 32) m = fmaxf(m, row[j] * scale);
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) m = fmaxf(m, __shfl_xor_sync(FULLMASK, m, d));
    float sum = 0.0f;
    for (int j = lo + lane; j <= i; j += 32) sum += __expf(row[j] * scale - m);
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) sum += __shfl_xor_sync(FULLMASK, sum, d);
    float inv = 1.0f / sum;
    for (int j = lane; j < T; j += 32) {
        float v = 0.0f;
        if (j >= lo && j <= i) v = __expf(row[j] * scale - m) * inv;
        orow[j] = v;
    }
}

// greedy decoding argmax over a GPT-2 vocabulary (50,257 logits a row, rows
// only 4-byte aligned): a 256-thread block per row, strided loads, (value,
// index) reduced by shuffles and a shared array of warp results; the first
// index of the maximum wins.
extern "C" __global__ void LB(256) argmax_vocab(const float* __restrict__ logits, int V, int* __restrict__ out)
{
    __shared__ float wv[8];
    __shared__ int wi[8];
    const float* row = logits + (size_t)blockIdx.x * V;
    float best = -INFINITY;
    int bi = 0x7fffffff;
    for (int j = threadIdx.x; j < V; j += 256) {
        float v = row[j];
        if (v > best) { best = v; bi = j; }
    }
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) {
        float ov = __shfl_xor_sync(FULLMASK, best, d);
        int oi = __shfl_xor_sync(FULLMASK, bi, d);
        if (ov > best || (ov == best && oi < bi)) { best = ov; bi = oi; }
    }
    int w = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0) { wv[w] = best; wi[w] = bi; }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int k = 1; k < 8; ++k)
            if (wv[k] > best || (wv[k] == best && wi[k] < bi)) { best = wv[k]; bi = wi[k]; }
        out[blockIdx.x] = bi;
    }
}

// ------------------------------------------------------------------ Hopper --

// 1-D bulk copies multicast to a cluster of 2 CTAs: each CTA's elected thread
// (elect.sync) copies its half of a 16 KiB chunk of x with
// cp.async.bulk...multicast::cluster into the same offset of BOTH CTAs' shared
// buffers, completing on both CTAs' mbarriers (16 KiB expected a phase); each
// CTA then forms the dot products of the chunk with its own row of w (rank 0
// and 1 take rows 2 b and 2 b + 1); a cluster barrier before the buffer is
// reused.  The try_wait loop is bounded.
extern "C" __global__ void __cluster_dims__(2, 1, 1) LB(256) bulk_mcast_gemv(const float* __restrict__ x,
                                                                             const float* __restrict__ w,
                                                                             float* __restrict__ y, int nchunks)
{
    __shared__ alignas(128) float buf[4096];
    __shared__ alignas(8) uint64_t bar;
    __shared__ float red[8];
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    const unsigned mb = smem_u32(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(mb), "r"(1) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster.sync();
    const int row = 2 * (blockIdx.x >> 1) + rank;
    const float* wr = w + (size_t)row * nchunks * 4096;
    float acc = 0.0f;
    for (int ch = 0; ch < nchunks; ++ch) {
        if (threadIdx.x == 0)
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(16384) : "memory");
        if (threadIdx.x < 32) {
            unsigned elected;
            asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(elected) : "r"(FULLMASK));
            if (elected) {
                const float* src = x + (size_t)ch * 4096 + rank * 2048;
                unsigned short mask = 3;
                asm volatile(
                    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;" ::"r"(
                        smem_u32(buf + rank * 2048)),
                    "l"(src), "r"(8192), "r"(mb), "h"(mask)
                    : "memory");
            }
        }
        unsigned done = 0;
        for (int spin = 0; spin < (1 << 22) && !done; ++spin)
            asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                         : "=r"(done)
                         : "r"(mb), "r"(ch & 1)
                         : "memory");
        const float4* b4 = reinterpret_cast<const float4*>(buf);
        const float4* w4 = reinterpret_cast<const float4*>(wr + (size_t)ch * 4096);
        for (int k = threadIdx.x; k < 1024; k += 256) {
            float4 a = b4[k];
            float4 b = w4[k];
            acc += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
        }
        cluster.sync();
    }
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) acc += __shfl_xor_sync(FULLMASK, acc, d);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int k = 0; k < 8; ++k) s += red[k];
        y[row] = s;
    }
}

// 2-D TMA loads multicast to a cluster of 4 CTAs (CUTLASS's SM90_TMA_LOAD_MULTICAST
// pattern for an operand tile that several CTAs of a cluster share): A is a
// 2,048 x 2,048 float32 matrix behind a tensor map (box 64 columns x 16 rows, no
// swizzle); the 4 CTAs of a cluster share a 64-row tile, CTA r loading rows
// 16 r .. 16 r + 15 of each 64 x 64 tile with .multicast::cluster (mask 0xF) into
// the same offset of all four CTAs' buffers (16 KiB expected a phase on each
// CTA's mbarrier); CTA r multiplies the tile by its own vector x_r (float4 loads)
// and writes y[r][row]; a cluster barrier before the buffer is refilled.
struct __align__(64) TensorMap128 {
    unsigned long long w[16];
};
extern "C" __global__ void __cluster_dims__(4, 1, 1) LB(256) tma2d_mcast_gemv4(const __grid_constant__ TensorMap128 tm,
                                                                               const float* __restrict__ x,
                                                                               float* __restrict__ y, int ncols, int nrows)
{
    __shared__ alignas(1024) float tile[64 * 64];
    __shared__ alignas(8) uint64_t bar;
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    const unsigned mb = smem_u32(&bar);
    const int t = threadIdx.x;
    if (t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(mb), "r"(1) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster.sync();
    const int row0 = (blockIdx.x >> 2) * 64;
    const int r = t >> 2, q = t & 3;
    const float* xr = x + (size_t)rank * ncols;
    float acc = 0.0f;
    const int ntiles = ncols / 64;
    for (int kt = 0; kt < ntiles; ++kt) {
        if (t == 0) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(16384) : "memory");
            unsigned short mask = 0xF;
            asm volatile(
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(
                    smem_u32(tile + rank * 16 * 64)),
                "l"(&tm), "r"(kt * 64), "r"(row0 + 16 * (int)rank), "r"(mb), "h"(mask)
                : "memory");
        }
        unsigned done = 0;
        for (int spin = 0; spin < (1 << 22) && !done; ++spin)
            asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                         : "=r"(done)
                         : "r"(mb), "r"(kt & 1)
                         : "memory");
        const float4* a4 = reinterpret_cast<const float4*>(tile + r * 64 + q * 16);
        const float4* x4 = reinterpret_cast<const float4*>(xr + kt * 64 + q * 16);
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            float4 a = a4[j];
            float4 b = x4[j];
            acc += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
        }
        cluster.sync();
    }
    acc += __shfl_xor_sync(FULLMASK, acc, 1);
    acc += __shfl_xor_sync(FULLMASK, acc, 2);
    if (q == 0 && row0 + r < nrows) y[(size_t)rank * nrows + row0 + r] = acc;
}

// split-K-style partial tiles reduced into global memory by the TMA
// (cp.reduce.async.bulk.tensor .add, CUTLASS's SM90_TMA_REDUCE_ADD epilogue):
// 4 splits x 256 tiles of 32 x 32 floats; each CTA loads its split's tile of a
// 512 x 512 matrix (one float4 a thread), scales it into shared memory, and one
// thread reduce-adds the tile into the output through a tensor map (box 32 x 32,
// no swizzle) — the four splits of a tile add into the same 4 KiB — then waits for
// the bulk group's reads before the CTA exits.
extern "C" __global__ void LB(256) tma2d_reduce_add(const __grid_constant__ TensorMap128 tout, const float4* __restrict__ parts,
                                                    float scale)
{
    __shared__ alignas(128) float tile[32 * 32];
    const int t = threadIdx.x;
    const int tidx = blockIdx.x & 255, split = blockIdx.x >> 8;
    const int tr = tidx >> 4, tc = tidx & 15;
    const int r = t >> 3, c4 = t & 7;
    float4 v = parts[((size_t)split * 512 + tr * 32 + r) * 128 + tc * 8 + c4];
    reinterpret_cast<float4*>(tile)[t] = make_float4(v.x * scale, v.y * scale, v.z * scale, v.w * scale);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(&tout),
                     "r"(tc * 32), "r"(tr * 32), "r"(smem_u32(tile))
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
    __syncthreads();
}
