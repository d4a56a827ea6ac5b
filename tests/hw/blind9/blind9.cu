// warpscope ninth held-out hardware batch (tests/hw/blind9): kernels in the style of
// real projects, rewritten by us (nothing copied): llama.cpp / ggml quantisation
// types not measured before (block_q5_0 with its unaligned 32-bit high-bit word,
// block_iq4_nl through a 16-entry non-linear table in shared memory, the 110-byte
// block_q3_K with 6-bit packed scales); vLLM serving kernels (copy_blocks over a
// pointer struct and an int64 block mapping, the MoE top-k gating softmax with 8
// lanes a token, merge_attn_states with LSEs stored head-major); graph and
// vector-search kernels (a GAT edge softmax + aggregation a warp per node between
// loaded CSR bounds, FAISS-style IVF-PQ asymmetric distances through a 16 KiB
// look-up table in shared memory, an L2 distance tile, a BVH point query with a
// traversal stack in local memory); OpenCV / NPP-style image kernels on pitched
// 8-bit images (BGR to gray on uchar3, nearest resize on uchar4, a 3 x 3 box
// filter with a byte halo tile, NV12 to RGBA, a 3 x 3 median) and KinectFusion-
// style depth processing (a bilateral filter on a 16-bit depth image, TSDF
// integration into a short2 volume); simulation (lattice-Boltzmann
// D3Q19 pull streaming in SoA and AoS, 28-byte particle structs, curand-style
// 48-byte XORWOW states with Box-Muller, a 1,024-point radix-2 FFT in shared
// memory with and without padding); an int8 tensor-core GEMM (ldmatrix +
// mma.sync m16n8k32 s8); cooperative groups' memcpy_async; and data-processing
// classics (a 3-D byte volume with a pitch of 100 bytes, Parquet-style bit
// unpacking, cuDF-style per-string loops between loaded offsets).
// Our own code; nobody tuned warpscope for these.  Built with
// -gencode=arch=compute_90a (tests/hw/blind9/measure_blind9.sh).  Every loop
// bound comes from parameters or from bounded data.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda_fp16.h>
#include <stdint.h>

namespace cg = cooperative_groups;
#define LB(n) __launch_bounds__(n)
#define FULLMASK 0xffffffffu

static __device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

// ===================================================================== llama.cpp / ggml
// block_q5_0: 32 values = a half scale, 4 bytes of fifth bits, 16 bytes of nibbles (22 bytes, 2-byte aligned)
struct block_q5_0 {
    __half d;
    uint8_t qh[4];
    uint8_t qs[16];
};
// a thread per pair of values (j, j + 16) of a block, as ggml's dequantize_block
extern "C" __global__ void LB(256) dequant_q5_0(const block_q5_0* __restrict__ x, float* __restrict__ y, int nb)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int ib = i >> 4, j = i & 15;
    if (ib >= nb) return;
    const float d = __half2float(x[ib].d);
    uint32_t qh;
    memcpy(&qh, x[ib].qh, sizeof(qh));
    const uint8_t q = x[ib].qs[j];
    const int h0 = ((qh >> j) << 4) & 0x10;
    const int h1 = (qh >> (j + 12)) & 0x10;
    y[ib * 32 + j] = d * (float)(((q & 0xf) | h0) - 16);
    y[ib * 32 + j + 16] = d * (float)(((q >> 4) | h1) - 16);
}

// block_iq4_nl: 32 values = a half scale + 16 bytes of 4-bit indices into a non-linear table (18 bytes)
struct block_iq4_nl {
    __half d;
    uint8_t qs[16];
};
__constant__ int8_t c_kvalues_iq4nl[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
// matrix-vector product, a warp per row (32 x 4 blocks), the table staged in shared memory, the nibbles read as
// 16-bit pairs (the blocks are only 2-byte aligned), x in float
extern "C" __global__ void LB(128) iq4nl_matvec(const block_iq4_nl* __restrict__ w, const float* __restrict__ x,
                                                float* __restrict__ y, int nrows, int nb)
{
    __shared__ float s_kv[16];
    if (threadIdx.y == 0 && threadIdx.x < 16) s_kv[threadIdx.x] = (float)c_kvalues_iq4nl[threadIdx.x];
    __syncthreads();
    const int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row >= nrows) return;
    const block_iq4_nl* br = w + (size_t)row * nb;
    float sum = 0.0f;
    for (int ib = threadIdx.x; ib < nb; ib += 32) {
        const float d = __half2float(br[ib].d);
        const uint16_t* q16 = reinterpret_cast<const uint16_t*>(br[ib].qs);
        const float* xb = x + ib * 32;
        float acc = 0.0f;
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            const unsigned q = q16[k];
            acc += s_kv[q & 0xf] * xb[2 * k];
            acc += s_kv[(q >> 8) & 0xf] * xb[2 * k + 1];
            acc += s_kv[(q >> 4) & 0xf] * xb[2 * k + 16];
            acc += s_kv[q >> 12] * xb[2 * k + 17];
        }
        sum += d * acc;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(FULLMASK, sum, o);
    if (threadIdx.x == 0) y[row] = sum;
}

// block_q3_K: 256 values = 32 bytes of high bits, 64 bytes of 2-bit values, 12 bytes of 6-bit scales, a half
// scale (110 bytes, 2-byte aligned).  64 threads a super-block, 4 consecutive values a thread, a float4 out.
struct block_q3_K {
    uint8_t hmask[32];
    uint8_t qs[64];
    uint8_t scales[12];
    __half d;
};
extern "C" __global__ void LB(64) dequant_q3_K(const block_q3_K* __restrict__ x, float4* __restrict__ y)
{
    const block_q3_K* b = x + blockIdx.x;
    const int v = 4 * threadIdx.x;     // first of the 4 values
    const int n = v >> 7;              // 128-value half
    const int j = (v & 127) >> 5;      // 2-bit group inside the byte
    const int l = v & 31;              // byte inside the 32-byte run
    const int is = 8 * n + 2 * j + (l >> 4);
    const int lo4 = is < 8 ? (b->scales[is] & 0xf) : (b->scales[is - 8] >> 4);
    const int hi2 = (b->scales[8 + (is & 3)] >> (2 * (is >> 2))) & 3;
    const float dl = __half2float(b->d) * (float)((lo4 | (hi2 << 4)) - 32);
    float r[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const int q = (b->qs[32 * n + l + k] >> (2 * j)) & 3;
        const int h = (b->hmask[l + k] >> (4 * n + j)) & 1;
        r[k] = dl * (float)(q - (h ? 0 : 4));
    }
    y[blockIdx.x * 64 + threadIdx.x] = make_float4(r[0], r[1], r[2], r[3]);
}

// ===================================================================== vLLM
// cache_ops copy_blocks: grid (layers, pairs); each block copies one key block and one value block of
// numel halves, element by element, through the layer's cache pointers (a struct by value, indexed by the
// runtime layer: ptxas copies it to local memory and the copies go through generic LD / ST) and an int64
// mapping
struct CachePtrs {
    __half* key[2];
    __half* value[2];
};
extern "C" __global__ void LB(1024) copy_blocks(CachePtrs caches, const long long* __restrict__ mapping, int numel)
{
    const int layer = blockIdx.x, pair = blockIdx.y;
    __half* kc = caches.key[layer];
    __half* vc = caches.value[layer];
    const long long src = mapping[2 * pair];
    const long long dst = mapping[2 * pair + 1];
    const long long so = src * numel, dof = dst * numel;
    for (int i = threadIdx.x; i < numel; i += blockDim.x) kc[dof + i] = kc[so + i];
    for (int i = threadIdx.x; i < numel; i += blockDim.x) vc[dof + i] = vc[so + i];
}

// MoE top-k gating softmax: 64 experts a token, 8 lanes a token (8 logits a lane as two float4), softmax by
// width-8 shuffles, then top-2 by argmax rounds; weights, expert ids and source rows (k * tokens + token) out
extern "C" __global__ void LB(128) moe_topk_softmax(const float* __restrict__ logits, float* __restrict__ wts,
                                                    int* __restrict__ ids, int* __restrict__ src_rows, int tokens)
{
    const int g = (blockIdx.x * blockDim.x + threadIdx.x);
    const int tok = g >> 3, sub = g & 7;
    if (tok >= tokens) return;
    const float4* row = reinterpret_cast<const float4*>(logits + (size_t)tok * 64 + sub * 8);
    const float4 a = row[0];
    const float4 b = row[1];
    float v[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    float m = v[0];
#pragma unroll
    for (int k = 1; k < 8; ++k) m = fmaxf(m, v[k]);
#pragma unroll
    for (int o = 4; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(FULLMASK, m, o, 8));
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; ++k) { v[k] = __expf(v[k] - m); s += v[k]; }
#pragma unroll
    for (int o = 4; o > 0; o >>= 1) s += __shfl_xor_sync(FULLMASK, s, o, 8);
    const float inv = 1.0f / s;
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] *= inv;
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        float bv = v[0];
        int bi = sub * 8;
#pragma unroll
        for (int k = 1; k < 8; ++k)
            if (v[k] > bv) { bv = v[k]; bi = sub * 8 + k; }
#pragma unroll
        for (int o = 4; o > 0; o >>= 1) {
            const float ov = __shfl_xor_sync(FULLMASK, bv, o, 8);
            const int oi = __shfl_xor_sync(FULLMASK, bi, o, 8);
            if (ov > bv || (ov == bv && oi < bi)) { bv = ov; bi = oi; }
        }
        if (sub == 0) {
            wts[tok * 2 + r] = bv;
            ids[tok * 2 + r] = bi;
            src_rows[tok * 2 + r] = r * tokens + tok;
        }
        if ((bi >> 3) == sub) v[bi & 7] = -1.0f;
    }
}

// merge_attn_states: out = (exp(lp - m) p + exp(ls - m) s) / (exp(lp - m) + exp(ls - m)) over [tokens, heads, 128]
// fp16, 8 halves (uint4) a thread; the LSEs are [heads, tokens] (head-major); the merged LSE out by pack 0
extern "C" __global__ void LB(128) merge_attn_states(__half* __restrict__ out, float* __restrict__ out_lse,
                                                     const __half* __restrict__ pre, const float* __restrict__ pre_lse,
                                                     const __half* __restrict__ suf, const float* __restrict__ suf_lse,
                                                     int tokens, int heads)
{
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    const int pack = gid & 15;
    const int th = gid >> 4;
    if (th >= tokens * heads) return;
    const int tok = th / heads, head = th % heads;
    const float lp = pre_lse[head * tokens + tok];
    const float ls = suf_lse[head * tokens + tok];
    const float mx = fmaxf(lp, ls);
    const float ep = __expf(lp - mx), es = __expf(ls - mx);
    const float inv = 1.0f / (ep + es);
    const size_t off = (size_t)th * 128 + pack * 8;
    const uint4 pv = *reinterpret_cast<const uint4*>(pre + off);
    const uint4 sv = *reinterpret_cast<const uint4*>(suf + off);
    const __half2* ph = reinterpret_cast<const __half2*>(&pv);
    const __half2* sh = reinterpret_cast<const __half2*>(&sv);
    uint4 ov;
    __half2* oh = reinterpret_cast<__half2*>(&ov);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const float2 p = __half22float2(ph[k]), s = __half22float2(sh[k]);
        oh[k] = __floats2half2_rn((p.x * ep + s.x * es) * inv, (p.y * ep + s.y * es) * inv);
    }
    *reinterpret_cast<uint4*>(out + off) = ov;
    if (pack == 0) out_lse[head * tokens + tok] = mx + __logf(ep + es);
}

// ===================================================================== graph, vector search
// GAT (DGL style): a warp per destination node v; its in-edges between loaded CSR bounds (at most 16); scores
// leaky_relu(el[u] + er[v]) soft-maxed over the edges, then the weighted sum of 16-float source rows, half a
// warp an edge
extern "C" __global__ void LB(256) gat_edge_softmax_agg(const int* __restrict__ row_ptr, const int* __restrict__ cols,
                                                        const float* __restrict__ el, const float* __restrict__ er,
                                                        const float* __restrict__ h, float* __restrict__ out, int nnodes)
{
    const int v = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (v >= nnodes) return;
    const int beg = row_ptr[v];
    const int end = row_ptr[v + 1];
    const int deg = min(end - beg, 32);
    int u = 0;
    float s = -INFINITY;
    if (lane < deg) {
        u = cols[beg + lane];
        const float e = el[u] + er[v];
        s = e > 0.0f ? e : 0.2f * e;
    }
    float m = s;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(FULLMASK, m, o));
    const float ex = lane < deg ? __expf(s - m) : 0.0f;
    float sum = ex;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(FULLMASK, sum, o);
    const float alpha = deg > 0 ? ex / sum : 0.0f;
    const int f = lane & 15, half = lane >> 4;
    float acc = 0.0f;
    for (int k = 0; k < deg; k += 2) {
        const int e = k + half;
        const int uu = __shfl_sync(FULLMASK, u, e & 31);
        const float a = __shfl_sync(FULLMASK, alpha, e & 31);
        if (e < deg) acc += a * h[(size_t)uu * 16 + f];
    }
    acc += __shfl_down_sync(FULLMASK, acc, 16);
    if (lane < 16) out[(size_t)v * 16 + f] = acc;
}

// FAISS-style IVF-PQ scan: a block per query; the query's look-up table of 16 sub-quantizers x 256 centroids
// (16 KiB) staged in shared memory, then each database vector's 16 one-byte codes (one uint4) summed through it
extern "C" __global__ void LB(256) pq_adc_scan(const float* __restrict__ luts, const uint4* __restrict__ codes,
                                               float* __restrict__ dist, int nvec)
{
    __shared__ float s_lut[16 * 256];
    const float* lut = luts + (size_t)blockIdx.x * 4096;
    for (int i = threadIdx.x; i < 4096; i += blockDim.x) s_lut[i] = lut[i];
    __syncthreads();
    for (int i = threadIdx.x; i < nvec; i += blockDim.x) {
        const uint4 c = codes[i];
        const unsigned w[4] = {c.x, c.y, c.z, c.w};
        float d = 0.0f;
#pragma unroll
        for (int m = 0; m < 16; ++m) d += s_lut[m * 256 + ((w[m >> 2] >> (8 * (m & 3))) & 0xff)];
        dist[(size_t)blockIdx.x * nvec + i] = d;
    }
}

// FAISS-style L2 distances ||q||^2 + ||x||^2 - 2 q.x of 96-dimensional float vectors: 32 x 32 output tiles,
// 32 x 8 threads, 4 outputs a thread, both operands through padded shared tiles 32 dimensions at a time
extern "C" __global__ void LB(256) l2dist_tile(const float* __restrict__ q, const float* __restrict__ qn,
                                               const float* __restrict__ xb, const float* __restrict__ xn,
                                               float* __restrict__ out, int nq, int nx)
{
    __shared__ float sq[32][33];
    __shared__ float sx[32][33];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int q0 = blockIdx.y * 32, x0 = blockIdx.x * 32;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int d0 = 0; d0 < 96; d0 += 32) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            const int row = ty + 8 * r;
            sq[row][tx] = q0 + row < nq ? q[(size_t)(q0 + row) * 96 + d0 + tx] : 0.0f;
            sx[row][tx] = x0 + row < nx ? xb[(size_t)(x0 + row) * 96 + d0 + tx] : 0.0f;
        }
        __syncthreads();
#pragma unroll 8
        for (int d = 0; d < 32; ++d) {
            const float xv = sx[tx][d];
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[r] += sq[ty + 8 * r][d] * xv;
        }
        __syncthreads();
    }
    const int xi = x0 + tx;
    if (xi >= nx) return;
    const float xnv = xn[xi];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        const int qi = q0 + ty + 8 * r;
        if (qi < nq) out[(size_t)qi * nx + xi] = qn[qi] + xnv - 2.0f * acc[r];
    }
}

// BVH point query (1-D intervals): a node is (lo, hi, left, right), 16 bytes; left < 0 marks a leaf whose
// payload is right.  Depth-first traversal with an explicit stack of 32 ints (dynamically indexed: local
// memory), at most 4,096 node visits.
struct __align__(16) BvhNode {
    float lo, hi;
    int left, right;
};
extern "C" __global__ void LB(128) bvh_point_query(const BvhNode* __restrict__ nodes, const float* __restrict__ qx,
                                                   int2* __restrict__ out, int nq)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nq) return;
    const float x = qx[i];
    int stack[32];
    int sp = 0;
    stack[sp++] = 0;
    int hits = 0, sum = 0;
    for (int steps = 0; sp > 0 && steps < 4096; ++steps) {
        const int n = stack[--sp];
        const BvhNode nd = nodes[n];
        if (x < nd.lo || x > nd.hi) continue;
        if (nd.left < 0) {
            ++hits;
            sum += nd.right;
        } else if (sp < 31) {
            stack[sp++] = nd.right;
            stack[sp++] = nd.left;
        }
    }
    out[i] = make_int2(hits, sum);
}

// ===================================================================== OpenCV / NPP-style images
// BGR -> gray on a pitched uchar3 image (OpenCV's fixed-point weights, 14 bits), 32 x 8 blocks
extern "C" __global__ void LB(256) bgr2gray_u8c3(const uint8_t* __restrict__ src, int spitch, uint8_t* __restrict__ dst,
                                                 int dpitch, int w, int h)
{
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
    if (x >= w || y >= h) return;
    const uchar3 p = reinterpret_cast<const uchar3*>(src + (size_t)y * spitch)[x];
    dst[(size_t)y * dpitch + x] = (uint8_t)((p.x * 1868 + p.y * 9617 + p.z * 4899 + (1 << 13)) >> 14);
}

// nearest-neighbour resize of a pitched uchar4 image (OpenCV INTER_NEAREST: floor(x * src_w / dst_w))
extern "C" __global__ void LB(256) resize_nearest_u8c4(const uint8_t* __restrict__ src, int spitch, int sw, int sh,
                                                       uint8_t* __restrict__ dst, int dpitch, int dw, int dh)
{
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
    if (x >= dw || y >= dh) return;
    const float fx = (float)sw / dw, fy = (float)sh / dh;
    const int sx = min((int)floorf(x * fx), sw - 1);
    const int sy = min((int)floorf(y * fy), sh - 1);
    const uchar4 p = reinterpret_cast<const uchar4*>(src + (size_t)sy * spitch)[sx];
    reinterpret_cast<uchar4*>(dst + (size_t)y * dpitch)[x] = p;
}

// 3 x 3 box filter on a pitched 8-bit image, border replicated: a 34 x 10 byte tile with its halo loaded by
// 32 x 8 threads (corners and edges by the edge threads), then 9 byte reads from shared a pixel
extern "C" __global__ void LB(256) box3x3_u8(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, int pitch,
                                             int w, int h)
{
    __shared__ uint8_t tile[10][34];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * 32 + tx, y = blockIdx.y * 8 + ty;
    const int cx = min(max(x, 0), w - 1), cy = min(max(y, 0), h - 1);
    const int xl = max(x - 1, 0), xr = min(x + 1, w - 1), yu = max(y - 1, 0), yd = min(y + 1, h - 1);
    tile[ty + 1][tx + 1] = src[(size_t)cy * pitch + cx];
    if (tx == 0) tile[ty + 1][0] = src[(size_t)cy * pitch + xl];
    if (tx == 31) tile[ty + 1][33] = src[(size_t)cy * pitch + xr];
    if (ty == 0) tile[0][tx + 1] = src[(size_t)yu * pitch + cx];
    if (ty == 7) tile[9][tx + 1] = src[(size_t)yd * pitch + cx];
    if (tx == 0 && ty == 0) tile[0][0] = src[(size_t)yu * pitch + xl];
    if (tx == 31 && ty == 0) tile[0][33] = src[(size_t)yu * pitch + xr];
    if (tx == 0 && ty == 7) tile[9][0] = src[(size_t)yd * pitch + xl];
    if (tx == 31 && ty == 7) tile[9][33] = src[(size_t)yd * pitch + xr];
    __syncthreads();
    if (x >= w || y >= h) return;
    int s = 0;
#pragma unroll
    for (int dy = 0; dy < 3; ++dy)
#pragma unroll
        for (int dx = 0; dx < 3; ++dx) s += tile[ty + dy][tx + dx];
    dst[(size_t)y * pitch + x] = (uint8_t)((s * 7282 + (1 << 15)) >> 16);  // s / 9, rounded
}

// NV12 (Y plane, then interleaved half-resolution UV) to RGBA, BT.601 limited range: a thread per two
// horizontal pixels (a uchar2 of Y, the uchar2 UV pair they share), two uchar4 out
static __device__ __forceinline__ uchar4 yuv2rgba(int Y, int U, int V)
{
    const int c = 298 * (Y - 16) + 128, d = U - 128, e = V - 128;
    const int r = (c + 409 * e) >> 8, g = (c - 100 * d - 208 * e) >> 8, b = (c + 516 * d) >> 8;
    return make_uchar4((uint8_t)min(max(r, 0), 255), (uint8_t)min(max(g, 0), 255), (uint8_t)min(max(b, 0), 255), 255);
}
extern "C" __global__ void LB(256) nv12_to_rgba(const uint8_t* __restrict__ yp, const uint8_t* __restrict__ uvp,
                                                int pitch, uchar4* __restrict__ dst, int dpitch4, int w, int h)
{
    const int x2 = 2 * (blockIdx.x * 32 + threadIdx.x), y = blockIdx.y * 8 + threadIdx.y;
    if (x2 >= w || y >= h) return;
    const uchar2 yy = *reinterpret_cast<const uchar2*>(yp + (size_t)y * pitch + x2);
    const uchar2 uv = *reinterpret_cast<const uchar2*>(uvp + (size_t)(y >> 1) * pitch + x2);
    uchar4* o = dst + (size_t)y * dpitch4 + x2;
    o[0] = yuv2rgba(yy.x, uv.x, uv.y);
    o[1] = yuv2rgba(yy.y, uv.x, uv.y);
}

// median 3 x 3 of a pitched 8-bit image (OpenCV medianBlur, ksize 3, border replicated): the 9 neighbours
// gathered straight from global memory into a per-thread array, the median by 5 selection passes
extern "C" __global__ void LB(256) median3x3_u8(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, int pitch,
                                                int w, int h)
{
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
    if (x >= w || y >= h) return;
    int v[9];
    int k = 0;
    for (int dy = -1; dy <= 1; ++dy) {
        const uint8_t* row = src + (size_t)min(max(y + dy, 0), h - 1) * pitch;
        for (int dx = -1; dx <= 1; ++dx) v[k++] = row[min(max(x + dx, 0), w - 1)];
    }
    for (int i = 0; i < 5; ++i)
        for (int j = i + 1; j < 9; ++j)
            if (v[j] < v[i]) {
                const int t = v[i];
                v[i] = v[j];
                v[j] = t;
            }
    dst[(size_t)y * pitch + x] = (uint8_t)v[4];
}

// depth-image bilateral filter (KinectFusion style): 16-bit depth in millimetres, 640 x 480, pitch in bytes;
// a 5 x 5 window read straight from global memory (clamped), zero depths skipped, a 16-bit result
extern "C" __global__ void LB(256) depth_bilateral_u16(const uint16_t* __restrict__ src, uint16_t* __restrict__ dst,
                                                       int pitch, int w, int h, float inv2ss, float inv2sr)
{
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
    if (x >= w || y >= h) return;
    const float d0 = (float)*reinterpret_cast<const uint16_t*>(reinterpret_cast<const char*>(src) + (size_t)y * pitch + 2 * x);
    float sum = 0.0f, wsum = 0.0f;
#pragma unroll
    for (int dy = -2; dy <= 2; ++dy) {
        const uint16_t* row = reinterpret_cast<const uint16_t*>(reinterpret_cast<const char*>(src) +
                                                                 (size_t)min(max(y + dy, 0), h - 1) * pitch);
#pragma unroll
        for (int dx = -2; dx <= 2; ++dx) {
            const float d = (float)row[min(max(x + dx, 0), w - 1)];
            if (d > 0.0f) {
                const float wt = __expf(-(float)(dx * dx + dy * dy) * inv2ss - (d - d0) * (d - d0) * inv2sr);
                sum += d * wt;
                wsum += wt;
            }
        }
    }
    uint16_t* orow = reinterpret_cast<uint16_t*>(reinterpret_cast<char*>(dst) + (size_t)y * pitch);
    orow[x] = wsum > 0.0f ? (uint16_t)(sum / wsum + 0.5f) : (uint16_t)0;
}

// TSDF integration (KinectFusion style): a thread per (x, y) voxel column of a 128^3 volume of short2 (tsdf
// scaled by 32,767, weight), marching z; each voxel projected into a 640 x 480 16-bit depth image (pinhole
// fx = fy = 525), the depth gathered at the projected pixel, the voxel updated only within the truncation band
extern "C" __global__ void LB(256) tsdf_integrate(const uint16_t* __restrict__ depth, int dpitch, short2* __restrict__ vol,
                                                  float vs, float trunc)
{
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
    const float px = -0.64f + (x + 0.5f) * vs, py = -0.64f + (y + 0.5f) * vs;
    for (int z = 0; z < 128; ++z) {
        const float pz = 0.5f + (z + 0.5f) * vs;
        const int u = (int)floorf(525.0f * px / pz + 320.0f);
        const int v = (int)floorf(525.0f * py / pz + 240.0f);
        if (u < 0 || u >= 640 || v < 0 || v >= 480) continue;
        const uint16_t dmm = *reinterpret_cast<const uint16_t*>(reinterpret_cast<const char*>(depth) + (size_t)v * dpitch + 2 * u);
        if (dmm == 0) continue;
        const float sdf = dmm * 0.001f - pz;
        if (sdf < -trunc) continue;
        const float t = fminf(1.0f, sdf / trunc);
        const size_t idx = ((size_t)z * 128 + y) * 128 + x;
        const short2 old = vol[idx];
        const float wo = (float)old.y;
        const float tn = ((float)old.x * (1.0f / 32767.0f) * wo + t) / (wo + 1.0f);
        vol[idx] = make_short2((short)(tn * 32767.0f), (short)min(old.y + 1, 128));
    }
}

// ===================================================================== simulation
// lattice Boltzmann D3Q19, pull streaming + BGK collision on a periodic 64^3 lattice, a thread a cell
// (64 x 4 blocks: one x row of 64 cells by 2 warps).  SoA: f[q * N + cell]; AoS: f[cell * 19 + q]
__constant__ int c_lbm_cx[19] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
__constant__ int c_lbm_cy[19] = {0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
__constant__ int c_lbm_cz[19] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};
template <bool SOA>
static __device__ __forceinline__ void lbm_step(const float* __restrict__ fin, float* __restrict__ fout, float omega)
{
    const int N = 64 * 64 * 64;
    const int x = threadIdx.x, y = blockIdx.x * 4 + threadIdx.y, z = blockIdx.y;
    const int cell = (z * 64 + y) * 64 + x;
    float f[19];
    float rho = 0.0f, ux = 0.0f, uy = 0.0f, uz = 0.0f;
#pragma unroll
    for (int q = 0; q < 19; ++q) {
        const int sx = (x - c_lbm_cx[q]) & 63, sy = (y - c_lbm_cy[q]) & 63, sz = (z - c_lbm_cz[q]) & 63;
        const int src = (sz * 64 + sy) * 64 + sx;
        f[q] = SOA ? fin[q * N + src] : fin[src * 19 + q];
        rho += f[q];
        ux += c_lbm_cx[q] * f[q];
        uy += c_lbm_cy[q] * f[q];
        uz += c_lbm_cz[q] * f[q];
    }
    const float ir = 1.0f / rho;
    ux *= ir; uy *= ir; uz *= ir;
    const float usq = 1.5f * (ux * ux + uy * uy + uz * uz);
#pragma unroll
    for (int q = 0; q < 19; ++q) {
        const float wq = q == 0 ? 1.0f / 3.0f : q < 7 ? 1.0f / 18.0f : 1.0f / 36.0f;
        const float cu = 3.0f * (c_lbm_cx[q] * ux + c_lbm_cy[q] * uy + c_lbm_cz[q] * uz);
        const float feq = wq * rho * (1.0f + cu + 0.5f * cu * cu - usq);
        const float v = f[q] + omega * (feq - f[q]);
        if (SOA) fout[q * N + cell] = v;
        else fout[cell * 19 + q] = v;
    }
}
extern "C" __global__ void LB(256) lbm_d3q19_soa(const float* __restrict__ fin, float* __restrict__ fout, float omega)
{
    lbm_step<true>(fin, fout, omega);
}
extern "C" __global__ void LB(256) lbm_d3q19_aos(const float* __restrict__ fin, float* __restrict__ fout, float omega)
{
    lbm_step<false>(fin, fout, omega);
}

// particles as an array of 28-byte structs (position, velocity, mass: 4-byte aligned fields that straddle
// sectors): a spring toward the origin, semi-implicit Euler; position and velocity written back, mass read
struct Particle {
    float px, py, pz;
    float vx, vy, vz;
    float m;
};
extern "C" __global__ void LB(256) particles_aos28(Particle* __restrict__ p, int n, float dt)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle a = p[i];
    const float k = dt / (a.m + 1.0f);
    a.vx -= k * a.px;
    a.vy -= k * a.py;
    a.vz -= k * a.pz;
    a.px += dt * a.vx;
    a.py += dt * a.vy;
    a.pz += dt * a.vz;
    p[i].px = a.px;
    p[i].py = a.py;
    p[i].pz = a.pz;
    p[i].vx = a.vx;
    p[i].vy = a.vy;
    p[i].vz = a.vz;
}

// curand-style XORWOW states (the 48-byte layout of curandStateXORWOW: d, v[5], two Box-Muller flags, the
// saved float and double), loaded whole, 4 normals a thread by Box-Muller (float4 out), stored back whole
struct XorwowState {
    unsigned d, v[5];
    int bm_flag, bm_flag_double;
    float bm_extra;
    double bm_extra_double;
};
static __device__ __forceinline__ unsigned xorwow_next(XorwowState& s)
{
    const unsigned t = s.v[0] ^ (s.v[0] >> 2);
    s.v[0] = s.v[1]; s.v[1] = s.v[2]; s.v[2] = s.v[3]; s.v[3] = s.v[4];
    s.v[4] = (s.v[4] ^ (s.v[4] << 4)) ^ (t ^ (t << 1));
    s.d += 362437u;
    return s.v[4] + s.d;
}
extern "C" __global__ void LB(256) xorwow_normal4(XorwowState* __restrict__ states, float4* __restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    XorwowState s = states[i];
    float r[4];
#pragma unroll
    for (int k = 0; k < 4; k += 2) {
        const float u1 = (xorwow_next(s) + 0.5f) * 2.3283064e-10f;
        const float u2 = (xorwow_next(s) + 0.5f) * 2.3283064e-10f;
        const float rad = sqrtf(-2.0f * logf(u1));
        float sn, cs;
        sincospif(2.0f * u2, &sn, &cs);
        r[k] = rad * cs;
        r[k + 1] = rad * sn;
    }
    s.bm_flag = 0;
    s.bm_extra = r[3];
    out[i] = make_float4(r[0], r[1], r[2], r[3]);
    states[i] = s;
}

// 1,024-point complex FFT (radix-2 DIT) a 512-thread block in shared memory: bit-reversed scatter into shared,
// 10 butterfly stages at spans 1 .. 512 (stride doubling), coalesced float2 out.  pad = 1 inserts a float2
// after every 16 (the index i + i / 16), pad = 0 none.
extern "C" __global__ void LB(512) fft1024_smem(const float2* __restrict__ in, float2* __restrict__ out, int pad)
{
    __shared__ float2 s[1024 + 64];
    const int t = threadIdx.x;
    const float2* x = in + (size_t)blockIdx.x * 1024;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int i = t + 512 * h;
        const int r = __brev(i) >> 22;
        s[r + pad * (r >> 4)] = x[i];
    }
    __syncthreads();
    for (int st = 0; st < 10; ++st) {
        const int half = 1 << st;
        const int j = t & (half - 1);
        const int i0 = ((t >> st) << (st + 1)) + j, i1 = i0 + half;
        const int a0 = i0 + pad * (i0 >> 4), a1 = i1 + pad * (i1 >> 4);
        float sn, cs;
        __sincosf(-3.14159265358979f * (float)j / (float)half, &sn, &cs);
        const float2 a = s[a0];
        const float2 b = s[a1];
        const float2 bt = make_float2(b.x * cs - b.y * sn, b.x * sn + b.y * cs);
        __syncthreads();
        s[a0] = make_float2(a.x + bt.x, a.y + bt.y);
        s[a1] = make_float2(a.x - bt.x, a.y - bt.y);
        __syncthreads();
    }
    float2* y = out + (size_t)blockIdx.x * 1024;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int i = t + 512 * h;
        y[i] = s[i + pad * (i >> 4)];
    }
}

// ===================================================================== tensor cores, async copies
// int8 GEMM C[M][N] (int32) = A[M][K] (s8, row-major) x B[N][K]^T (s8, "TN"): 64 x 64 tiles, 4 warps of
// 32 x 32, K in steps of 64 bytes through shared rows padded to 80 bytes (16-byte global loads, 16-byte shared
// stores), ldmatrix.x4 (A) / .x2 (B) and mma.sync.m16n8k32.s8; int2 stores of the accumulators.
// M, N multiples of 64, K of 64.
extern "C" __global__ void LB(128) igemm_s8_mma_k32(const int8_t* __restrict__ A, const int8_t* __restrict__ B,
                                                    int* __restrict__ C, int M, int N, int K)
{
    __shared__ __align__(16) int8_t As[64][80];
    __shared__ __align__(16) int8_t Bs[64][80];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm = warp >> 1, wn = warp & 1;
    const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
    int acc[2][4][4];
#pragma unroll
    for (int a = 0; a < 2; ++a)
#pragma unroll
        for (int b = 0; b < 4; ++b)
#pragma unroll
            for (int c = 0; c < 4; ++c) acc[a][b][c] = 0;
    for (int k0 = 0; k0 < K; k0 += 64) {
#pragma unroll
        for (int c = 0; c < 2; ++c) {
            const int chunk = tid * 2 + c;  // 256 chunks of 16 bytes a tile
            const int row = chunk >> 2, col = (chunk & 3) * 16;
            *reinterpret_cast<uint4*>(&As[row][col]) =
                *reinterpret_cast<const uint4*>(A + (size_t)(m0 + row) * K + k0 + col);
            *reinterpret_cast<uint4*>(&Bs[row][col]) =
                *reinterpret_cast<const uint4*>(B + (size_t)(n0 + row) * K + k0 + col);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < 64; kk += 32) {
            unsigned af[2][4], bf[4][2];
#pragma unroll
            for (int mi = 0; mi < 2; ++mi) {
                const unsigned addr = smem_u32(&As[wm * 32 + mi * 16 + (lane & 15)][kk + (lane >> 4) * 16]);
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                             : "=r"(af[mi][0]), "=r"(af[mi][1]), "=r"(af[mi][2]), "=r"(af[mi][3])
                             : "r"(addr));
            }
#pragma unroll
            for (int ni = 0; ni < 4; ++ni) {
                const unsigned addr = smem_u32(&Bs[wn * 32 + ni * 8 + (lane & 7)][kk + ((lane >> 3) & 1) * 16]);
                asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                             : "=r"(bf[ni][0]), "=r"(bf[ni][1])
                             : "r"(addr));
            }
#pragma unroll
            for (int mi = 0; mi < 2; ++mi)
#pragma unroll
                for (int ni = 0; ni < 4; ++ni)
                    asm volatile(
                        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                        "{%8, %9}, {%0, %1, %2, %3};"
                        : "+r"(acc[mi][ni][0]), "+r"(acc[mi][ni][1]), "+r"(acc[mi][ni][2]), "+r"(acc[mi][ni][3])
                        : "r"(af[mi][0]), "r"(af[mi][1]), "r"(af[mi][2]), "r"(af[mi][3]), "r"(bf[ni][0]),
                          "r"(bf[ni][1]));
        }
        __syncthreads();
    }
    const int g = lane >> 2, tg = lane & 3;
#pragma unroll
    for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) {
            const int row = m0 + wm * 32 + mi * 16 + g, col = n0 + wn * 32 + ni * 8 + tg * 2;
            *reinterpret_cast<int2*>(C + (size_t)row * N + col) = make_int2(acc[mi][ni][0], acc[mi][ni][1]);
            *reinterpret_cast<int2*>(C + (size_t)(row + 8) * N + col) = make_int2(acc[mi][ni][2], acc[mi][ni][3]);
        }
}

// cooperative groups memcpy_async: a block per row of `cols` floats (a multiple of 4: 16-byte aligned rows)
// copied into shared memory by cg::memcpy_async (cuda::aligned_size_t<16>), cg::wait, then a 3-point
// smoothing with clamped ends written out
extern "C" __global__ void LB(256) cg_memcpy_smooth(const float* __restrict__ in, float* __restrict__ out, int cols)
{
    __shared__ __align__(16) float row[4096];
    cg::thread_block block = cg::this_thread_block();
    const float* src = in + (size_t)blockIdx.x * cols;
    cg::memcpy_async(block, row, src, cuda::aligned_size_t<16>(sizeof(float) * cols));
    cg::wait(block);
    for (int i = threadIdx.x; i < cols; i += blockDim.x) {
        const float l = row[max(i - 1, 0)];
        const float c = row[i];
        const float r = row[min(i + 1, cols - 1)];
        out[(size_t)blockIdx.x * cols + i] = 0.25f * l + 0.5f * c + 0.25f * r;
    }
}

// ===================================================================== data processing
// gradient magnitude of an 8-bit volume with row pitch `pitch` bytes and slice pitch `slice` bytes, central
// differences clamped at the faces, float out (dense nx * ny * nz); 32 x 4 x 2 blocks
extern "C" __global__ void LB(256) vol_u8_gradmag(const uint8_t* __restrict__ v, int pitch, int slice, int nx, int ny,
                                                  int nz, float* __restrict__ out)
{
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 4 + threadIdx.y, z = blockIdx.z * 2 + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    const uint8_t* b = v + (size_t)z * slice + (size_t)y * pitch;
    const float gx = (float)b[min(x + 1, nx - 1)] - (float)b[max(x - 1, 0)];
    const float gy = (float)b[(y + 1 < ny ? pitch : 0) + x] - (float)b[(y > 0 ? -pitch : 0) + x];
    const float gz = (float)b[(z + 1 < nz ? slice : 0) + x] - (float)b[(z > 0 ? -slice : 0) + x];
    out[((size_t)z * ny + y) * nx + x] = sqrtf(gx * gx + gy * gy + gz * gz);
}

// Parquet / cuDF-style bit unpacking: value i of width w (1..31) starts at bit i * w of a little-endian stream
// of 32-bit words; the second word is loaded only when the value straddles it
extern "C" __global__ void LB(256) bitunpack(const uint32_t* __restrict__ packed, uint32_t* __restrict__ out, int n,
                                             int w)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const unsigned long long bit = (unsigned long long)i * w;
    const unsigned word = (unsigned)(bit >> 5), sh = (unsigned)(bit & 31);
    const uint32_t lo = packed[word];
    uint32_t hi = 0;
    if (sh + w > 32) hi = packed[word + 1];
    out[i] = __funnelshift_r(lo, hi, sh) & ((1u << w) - 1);
}

// cuDF-style string transform: a thread per string, its bytes between two loaded offsets, lower-cased
// (ASCII) into the output column at the same offsets, its length out
extern "C" __global__ void LB(256) strings_lower(const char* __restrict__ chars, const int* __restrict__ offsets,
                                                 char* __restrict__ out, int* __restrict__ lens, int nstr)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nstr) return;
    const int b = offsets[i];
    const int e = offsets[i + 1];
    for (int k = b; k < e && k < b + 64; ++k) {
        const char c = chars[k];
        out[k] = (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
    }
    lens[i] = e - b;
}
