// warpscope eleventh held-out batch (tests/hw/blind11): kernels in styles none of
// the ten earlier batches has, written the way graph analytics (PageRank pull,
// SSSP relaxation, triangle counting), physics (FDTD Yee grids, particle
// binning by counting sort, SPH cell-list density), column databases
// (hash group-by, selection-vector gathers, validity bitmaps, merge path),
// batched / dense linear algebra (4 x 4 inverses, triangular solves by a warp,
// SYRK tiles), MoE routing, AWQ GEMV, image processing (u16 dilation, area
// resize, RGBA to I420, label propagation) and Hopper codes (TMA prefetch,
// 128-byte swizzle read by ldmatrix, cp.async completing on mbarriers,
// st.async and shared-to-shared bulk copies inside a cluster) write them.  Our
// own code; only the toolkit's headers.  Every loop bound comes from a
// parameter or is bounded.  Each access of interest is on its own source line.
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <stdint.h>

namespace cg = cooperative_groups;

#define LB(n) __launch_bounds__(n)
#define FULLMASK 0xffffffffu

static __device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

struct alignas(64) TensorMap128 { unsigned long long v[16]; };

static __device__ __forceinline__ void mbar_init(unsigned mb, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(mb), "r"(count) : "memory");
}
// bounded wait on a phase parity (at most 2^22 polls)
static __device__ __forceinline__ void mbar_wait(unsigned mb, unsigned parity)
{
    unsigned done = 0;
    for (int spin = 0; spin < (1 << 22) && !done; ++spin)
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(mb), "r"(parity)
                     : "memory");
}

// ------------------------------------------------------------------ graphs --

// PageRank, pull formulation (Gunrock / Ligra style): a warp per vertex walks
// its in-edges (CSR of the transposed graph), gathers contrib[src] =
// rank[src] / outdeg[src], reduces by shuffles; lane 0 writes the new rank.
extern "C" __global__ void LB(256) pagerank_pull_warp(const int* __restrict__ rowptr, const int* __restrict__ col,
                                                     const float* __restrict__ contrib, float* __restrict__ rank_out,
                                                     int n, float damping)
{
    const int v = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (v >= n) return;
    const int b = rowptr[v];
    const int e = rowptr[v + 1];
    float s = 0.0f;
    for (int k = b + lane; k < e; k += 32) {
        const int u = col[k];
        s += contrib[u];
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULLMASK, s, o);
    if (lane == 0) rank_out[v] = (1.0f - damping) / (float)n + damping * s;
}

// SSSP (Bellman-Ford / near-far style relaxation): a thread per vertex whose
// distance is finite relaxes its out-edges with atomicMin on the next distances.
extern "C" __global__ void LB(256) sssp_relax_atomicmin(const int* __restrict__ rowptr, const int* __restrict__ col,
                                                       const int* __restrict__ wt, const int* __restrict__ dist,
                                                       int* __restrict__ dist_next, int n)
{
    const int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n) return;
    const int du = dist[u];
    if (du == 0x7fffffff) return;
    const int b = rowptr[u];
    const int e = rowptr[u + 1];
    for (int k = b; k < e; ++k) {
        const int v = col[k];
        const int w = wt[k];
        atomicMin(&dist_next[v], du + w);
    }
}

// Triangle counting on an oriented graph (u < v), sorted adjacency lists: a
// thread per edge intersects adj(u) and adj(v) by a two-pointer merge; one
// atomicAdd a warp of the warp's total.
extern "C" __global__ void LB(256) triangle_count_merge(const int* __restrict__ rowptr, const int* __restrict__ col,
                                                       const int* __restrict__ esrc, int m,
                                                       unsigned long long* __restrict__ total)
{
    const int e = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned c = 0;
    if (e < m) {
        const int u = esrc[e];
        const int v = col[e];
        int i = rowptr[u], ie = rowptr[u + 1];
        int j = rowptr[v], je = rowptr[v + 1];
        while (i < ie && j < je) {
            const int a = col[i];
            const int b = col[j];
            c += a == b;
            i += a <= b;
            j += b <= a;
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) c += __shfl_xor_sync(FULLMASK, c, o);
    if ((threadIdx.x & 31) == 0 && c) atomicAdd(total, (unsigned long long)c);
}

// ------------------------------------------------------------------ physics --

// 2-D FDTD (TE_z) on a Yee grid, x fastest, pitch = nx floats: H update from
// the curl of Ez (forward differences), then the E update from the curl of H
// (backward differences): staggered +1 / -1 and +pitch / -pitch neighbours.
extern "C" __global__ void LB(256) fdtd_update_h(const float* __restrict__ ez, float* __restrict__ hx,
                                                float* __restrict__ hy, int nx, int ny, int pitch, float ch)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx - 1 || j >= ny - 1) return;
    const int c = j * pitch + i;
    const float e0 = ez[c];
    const float ex1 = ez[c + 1];
    const float ey1 = ez[c + pitch];
    hx[c] = hx[c] - ch * (ey1 - e0);
    hy[c] = hy[c] + ch * (ex1 - e0);
}

extern "C" __global__ void LB(256) fdtd_update_e(float* __restrict__ ez, const float* __restrict__ hx,
                                                const float* __restrict__ hy, const float* __restrict__ ca,
                                                int nx, int ny, int pitch, float ce)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < 1 || j < 1 || i >= nx || j >= ny) return;
    const int c = j * pitch + i;
    const float dhy = hy[c] - hy[c - 1];
    const float dhx = hx[c] - hx[c - pitch];
    ez[c] = ca[c] * ez[c] + ce * (dhy - dhx);
}

// Particle binning, counting-sort style (CUDA samples "particles" / HOOMD cell
// lists): pass 1 counts particles a cell (atomicAdd returns the slot), pass 2
// scatters each float4 to cell_start[cell] + slot.
static __device__ __forceinline__ int cell_of(float4 p, int g)
{
    int x = min(g - 1, max(0, (int)(p.x * g)));
    int y = min(g - 1, max(0, (int)(p.y * g)));
    int z = min(g - 1, max(0, (int)(p.z * g)));
    return (z * g + y) * g + x;
}

extern "C" __global__ void LB(256) particle_bin_count(const float4* __restrict__ pos, int* __restrict__ cell_count,
                                                     int* __restrict__ cell_id, int* __restrict__ slot, int n, int g)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float4 p = pos[i];
    const int c = cell_of(p, g);
    cell_id[i] = c;
    slot[i] = atomicAdd(&cell_count[c], 1);
}

extern "C" __global__ void LB(256) particle_bin_scatter(const float4* __restrict__ pos, const int* __restrict__ cell_id,
                                                       const int* __restrict__ slot,
                                                       const int* __restrict__ cell_start,
                                                       float4* __restrict__ sorted, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int c = cell_id[i];
    const int dst = cell_start[c] + slot[i];
    sorted[dst] = pos[i];
}

// SPH density by a cell list (particles sorted by cell, cell_start / cell_end):
// a thread per particle visits the 27 neighbouring cells (clamped at the box),
// poly6 kernel.
extern "C" __global__ void LB(128) sph_density_cells(const float4* __restrict__ pos, const int* __restrict__ cell_start,
                                                    const int* __restrict__ cell_end, float* __restrict__ rho,
                                                    int n, int g, float h)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float4 pi = pos[i];
    const int cx = min(g - 1, (int)(pi.x * g)), cy = min(g - 1, (int)(pi.y * g)), cz = min(g - 1, (int)(pi.z * g));
    const float h2 = h * h;
    float s = 0.0f;
    for (int dz = -1; dz <= 1; ++dz) {
        const int z = cz + dz;
        if (z < 0 || z >= g) continue;
        for (int dy = -1; dy <= 1; ++dy) {
            const int y = cy + dy;
            if (y < 0 || y >= g) continue;
            for (int dx = -1; dx <= 1; ++dx) {
                const int x = cx + dx;
                if (x < 0 || x >= g) continue;
                const int c = (z * g + y) * g + x;
                const int b = cell_start[c];
                const int e = cell_end[c];
                for (int j = b; j < e; ++j) {
                    const float4 pj = pos[j];
                    const float rx = pi.x - pj.x, ry = pi.y - pj.y, rz = pi.z - pj.z;
                    const float r2 = rx * rx + ry * ry + rz * rz;
                    const float d = fmaxf(h2 - r2, 0.0f);
                    s += d * d * d;
                }
            }
        }
    }
    rho[i] = s;
}

// ------------------------------------------------------------------ databases --

// Hash group-by aggregation (SUM, COUNT GROUP BY key): open addressing with
// atomicCAS on 32-bit keys (empty = -1), linear probing bounded by the table
// size, then float atomicAdd (RED) on the sum and an int atomicAdd on the count.
static __device__ __forceinline__ unsigned mix32(unsigned k)
{
    k ^= k >> 16; k *= 0x85ebca6bu; k ^= k >> 13; k *= 0xc2b2ae35u; k ^= k >> 16;
    return k;
}

extern "C" __global__ void LB(256) groupby_hash_agg(const int* __restrict__ keys, const float* __restrict__ vals, int n,
                                                   int* __restrict__ tkeys, float* __restrict__ tsum,
                                                   int* __restrict__ tcnt, int tmask)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int k = keys[i];
    const float v = vals[i];
    unsigned s = mix32((unsigned)k) & (unsigned)tmask;
    for (int probe = 0; probe <= tmask; ++probe) {
        const int old = atomicCAS(&tkeys[s], -1, k);
        if (old == -1 || old == k) {
            atomicAdd(&tsum[s], v);
            atomicAdd(&tcnt[s], 1);
            break;
        }
        s = (s + 1) & (unsigned)tmask;
    }
}

// Selection-vector gather (a filtered scan's late materialisation): sel holds
// the ascending row ids that passed; three columns (int32, int64, float32)
// gathered into compacted outputs.
extern "C" __global__ void LB(256) select_gather_cols(const int* __restrict__ sel, int nsel,
                                                     const int* __restrict__ ca, const long long* __restrict__ cb,
                                                     const float* __restrict__ cc, int* __restrict__ oa,
                                                     long long* __restrict__ ob, float* __restrict__ oc)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= nsel) return;
    const int r = sel[k];
    oa[k] = ca[r];
    ob[k] = cb[r];
    oc[k] = cc[r];
}

// Arrow-style filter: an int32 column sliced at row `off` (its values and its
// validity bitmap, bit (off + i) of the words), predicate valid && value > t;
// the result bitmap written a word a warp (ballot), a warp-aggregated count.
extern "C" __global__ void LB(256) bitmap_filter_gt(const int* __restrict__ values, const unsigned* __restrict__ validity,
                                                   int off, int n, int t, unsigned* __restrict__ out_bits,
                                                   int* __restrict__ count)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool keep = false;
    if (i < n) {
        const int bit = off + i;
        const unsigned w = validity[bit >> 5];
        const bool valid = (w >> (bit & 31)) & 1u;
        const int x = values[off + i];
        keep = valid && x > t;
    }
    const unsigned b = __ballot_sync(FULLMASK, keep);
    if ((threadIdx.x & 31) == 0 && i < n) {
        out_bits[i >> 5] = b;
        if (b) atomicAdd(count, __popc(b));
    }
}

// Merge path (Green, McColl, Bader; moderngpu style), a thread per 8 outputs:
// a bounded binary search on the cross diagonal over the two sorted inputs in
// global memory, then a sequential merge of 8 items.
extern "C" __global__ void LB(128) merge_path_merge(const int* __restrict__ a, int na, const int* __restrict__ b, int nb,
                                                   int* __restrict__ out)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int diag = t * 8;
    if (diag >= na + nb) return;
    int lo = max(0, diag - nb), hi = min(diag, na);
    for (int step = 0; step < 32 && lo < hi; ++step) {
        const int mid = (lo + hi) >> 1;
        const int av = a[mid];
        const int bv = b[diag - 1 - mid];
        if (av <= bv) lo = mid + 1;
        else hi = mid;
    }
    int i = lo, j = diag - lo;
    const int end = min(diag + 8, na + nb);
    for (int k = diag; k < end; ++k) {
        const bool takea = j >= nb || (i < na && a[i] <= b[j]);
        const int v = takea ? a[i] : b[j];
        out[k] = v;
        i += takea;
        j += !takea;
    }
}

// ------------------------------------------------------------------ linear algebra --

// Batched 4 x 4 inverse (graphics / robotics batches, AoS): a thread per
// row-major 64-byte matrix (four float4 loads at a 64-byte lane stride), the
// inverse of A + 4 I by cofactors from 2 x 2 minors, four float4 stores.
extern "C" __global__ void LB(128) batched_inv4x4_aos(const float4* __restrict__ in, float4* __restrict__ out, int nmat)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nmat) return;
    const float4 r0 = in[4 * t + 0];
    const float4 r1 = in[4 * t + 1];
    const float4 r2 = in[4 * t + 2];
    const float4 r3 = in[4 * t + 3];
    const float a00 = r0.x + 4.0f, a01 = r0.y, a02 = r0.z, a03 = r0.w;
    const float a10 = r1.x, a11 = r1.y + 4.0f, a12 = r1.z, a13 = r1.w;
    const float a20 = r2.x, a21 = r2.y, a22 = r2.z + 4.0f, a23 = r2.w;
    const float a30 = r3.x, a31 = r3.y, a32 = r3.z, a33 = r3.w + 4.0f;
    // minors of the top two rows and the bottom two rows
    const float s0 = a00 * a11 - a10 * a01, s1 = a00 * a12 - a10 * a02, s2 = a00 * a13 - a10 * a03;
    const float s3 = a01 * a12 - a11 * a02, s4 = a01 * a13 - a11 * a03, s5 = a02 * a13 - a12 * a03;
    const float c5 = a22 * a33 - a32 * a23, c4 = a21 * a33 - a31 * a23, c3 = a21 * a32 - a31 * a22;
    const float c2 = a20 * a33 - a30 * a23, c1 = a20 * a32 - a30 * a22, c0 = a20 * a31 - a30 * a21;
    const float det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0;
    const float id = 1.0f / det;
    float4 o0, o1, o2, o3;
    o0.x = (a11 * c5 - a12 * c4 + a13 * c3) * id;
    o0.y = (-a01 * c5 + a02 * c4 - a03 * c3) * id;
    o0.z = (a31 * s5 - a32 * s4 + a33 * s3) * id;
    o0.w = (-a21 * s5 + a22 * s4 - a23 * s3) * id;
    o1.x = (-a10 * c5 + a12 * c2 - a13 * c1) * id;
    o1.y = (a00 * c5 - a02 * c2 + a03 * c1) * id;
    o1.z = (-a30 * s5 + a32 * s2 - a33 * s1) * id;
    o1.w = (a20 * s5 - a22 * s2 + a23 * s1) * id;
    o2.x = (a10 * c4 - a11 * c2 + a13 * c0) * id;
    o2.y = (-a00 * c4 + a01 * c2 - a03 * c0) * id;
    o2.z = (a30 * s4 - a31 * s2 + a33 * s0) * id;
    o2.w = (-a20 * s4 + a21 * s2 - a23 * s0) * id;
    o3.x = (-a10 * c3 + a11 * c1 - a12 * c0) * id;
    o3.y = (a00 * c3 - a01 * c1 + a02 * c0) * id;
    o3.z = (-a30 * s3 + a31 * s1 - a32 * s0) * id;
    o3.w = (a20 * s3 - a21 * s1 + a22 * s0) * id;
    out[4 * t + 0] = o0;
    out[4 * t + 1] = o1;
    out[4 * t + 2] = o2;
    out[4 * t + 3] = o3;
}

// Batched lower-triangular solve L x = b (column-major, LAPACK layout, n = 64),
// a warp per system (MAGMA-style small trsv): lane l owns rows l and l + 32;
// column j: x_j broadcast by a shuffle, then each lane updates its rows below j.
// The solved matrix is 2 I + diag(A) + offscale * strictly-lower(A) (kept well
// conditioned).
extern "C" __global__ void LB(128) trsv_lower_warp64(const float* __restrict__ L, const float* __restrict__ B,
                                                    float* __restrict__ X, int nsys, float offscale)
{
    const int s = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (s >= nsys) return;
    const float* A = L + (size_t)s * 64 * 64;
    float b0 = B[s * 64 + lane];
    float b1 = B[s * 64 + 32 + lane];
    for (int j = 0; j < 64; ++j) {
        const float d = A[j * 64 + j] + 2.0f;
        const float bj = __shfl_sync(FULLMASK, j < 32 ? b0 : b1, j & 31);
        const float xj = bj / d;
        if (j == lane) b0 = xj;
        if (j == lane + 32) b1 = xj;
        if (lane > j) b0 -= offscale * A[j * 64 + lane] * xj;
        if (lane + 32 > j) b1 -= offscale * A[j * 64 + 32 + lane] * xj;
    }
    X[s * 64 + lane] = b0;
    X[s * 64 + 32 + lane] = b1;
}

// SYRK-style tile (C = A A^T, lower triangle, A n x k row-major): 32 x 32
// output tiles by 32 x 8 threads (4 rows a thread), the two row panels of A
// staged as 32 x 32 shared tiles; the second is read down a column (As[tx][kk]):
// padded (33) or not (32).
template <int PAD>
static __device__ __forceinline__ void syrk_tile(const float* __restrict__ A, float* __restrict__ C, int n, int k)
{
    __shared__ float Ai[32][32 + PAD];
    __shared__ float Aj[32][32 + PAD];
    const int bi = blockIdx.y, bj = blockIdx.x;
    if (bj > bi) return;
    const int tx = threadIdx.x, ty = threadIdx.y;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < k; k0 += 32) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            Ai[ty + 8 * r][tx] = A[(size_t)(bi * 32 + ty + 8 * r) * k + k0 + tx];
            Aj[ty + 8 * r][tx] = A[(size_t)(bj * 32 + ty + 8 * r) * k + k0 + tx];
        }
        __syncthreads();
#pragma unroll 8
        for (int kk = 0; kk < 32; ++kk) {
            const float bv = Aj[tx][kk];
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[r] += Ai[ty * 4 + r][kk] * bv;
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) C[(size_t)(bi * 32 + ty * 4 + r) * n + bj * 32 + tx] = acc[r];
}

extern "C" __global__ void LB(256) syrk_tile_pad(const float* __restrict__ A, float* __restrict__ C, int n, int k)
{
    syrk_tile<1>(A, C, n, k);
}
extern "C" __global__ void LB(256) syrk_tile_nopad(const float* __restrict__ A, float* __restrict__ C, int n, int k)
{
    syrk_tile<0>(A, C, n, k);
}

// ------------------------------------------------------------------ deep learning --

// MoE token permutation (Megatron / vLLM moe_permute style): destination row r
// of the expert-sorted buffer copies token src_row[r] / topk; a block a row,
// float4 lanes over hidden = 1,000 floats (4,000-byte rows).
extern "C" __global__ void LB(256) moe_permute_rows(const float4* __restrict__ x, const int* __restrict__ src_row,
                                                   float4* __restrict__ y, int h4, int topk)
{
    const int r = blockIdx.x;
    const int tok = src_row[r] / topk;
    for (int c = threadIdx.x; c < h4; c += blockDim.x) {
        const float4 v = x[(size_t)tok * h4 + c];
        y[(size_t)r * h4 + c] = v;
    }
}

// MoE un-permutation and combine: token t sums its topk expert outputs, found
// at the sorted positions pos[t * topk + j], weighted by the router's gates.
extern "C" __global__ void LB(256) moe_unpermute_combine(const float4* __restrict__ y, const int* __restrict__ pos,
                                                        const float* __restrict__ gate, float4* __restrict__ out,
                                                        int h4, int topk)
{
    const int t = blockIdx.x;
    for (int c = threadIdx.x; c < h4; c += blockDim.x) {
        float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        for (int j = 0; j < topk; ++j) {
            const int p = pos[t * topk + j];
            const float g = gate[t * topk + j];
            const float4 v = y[(size_t)p * h4 + c];
            acc.x += g * v.x; acc.y += g * v.y; acc.z += g * v.z; acc.w += g * v.w;
        }
        out[(size_t)t * h4 + c] = acc;
    }
}

// AWQ int4 GEMV (y = x W, W K x N packed 8 columns a 32-bit word in AWQ's
// interleaved nibble order 0, 2, 4, 6, 1, 3, 5, 7; fp16 scales and packed zeros
// per group of 128 rows): a thread per 8 columns, split-K over blockIdx.y with
// float atomicAdd (RED) of the partial sums.
extern "C" __global__ void LB(128) awq_gemv_int4(const float* __restrict__ x, const unsigned* __restrict__ qw,
                                                const __half* __restrict__ scales, const unsigned* __restrict__ qz,
                                                float* __restrict__ y, int K, int N8, int ksplit)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= N8) return;
    const int kb = blockIdx.y * ksplit;
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const int order[8] = {0, 4, 1, 5, 2, 6, 3, 7};  // column j sits in nibble order[j]
    for (int g = kb; g < kb + ksplit; g += 128) {
        const uint4 sraw = *reinterpret_cast<const uint4*>(scales + (size_t)(g / 128) * N8 * 8 + c * 8);
        const unsigned z = qz[(size_t)(g / 128) * N8 + c];
        const __half* sh = reinterpret_cast<const __half*>(&sraw);
        float sc[8], zf[8];
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            sc[j] = __half2float(sh[j]);
            zf[j] = (float)((z >> (4 * order[j])) & 15u);
        }
        for (int k = g; k < g + 128; ++k) {
            const unsigned w = qw[(size_t)k * N8 + c];
            const float xv = x[k];
#pragma unroll
            for (int j = 0; j < 8; ++j) acc[j] += xv * (((float)((w >> (4 * order[j])) & 15u) - zf[j]) * sc[j]);
        }
    }
#pragma unroll
    for (int j = 0; j < 8; ++j) atomicAdd(&y[c * 8 + j], acc[j]);
}

// ------------------------------------------------------------------ images --

// Morphological dilation (grey-scale max) with a 5 x 5 square on a 16-bit
// image (depth / microscopy): 32 x 8 blocks, a 36 x 12 u16 shared tile with a
// 2-pixel clamped halo loaded cooperatively by a strided loop.
extern "C" __global__ void LB(256) dilate5x5_u16(const uint16_t* __restrict__ src, int spitch, uint16_t* __restrict__ dst,
                                                int dpitch, int w, int h)
{
    __shared__ uint16_t tile[12][36];
    const int x0 = blockIdx.x * 32 - 2, y0 = blockIdx.y * 8 - 2;
    const int tid = threadIdx.y * 32 + threadIdx.x;
    for (int idx = tid; idx < 12 * 36; idx += 256) {
        const int ty = idx / 36, tx = idx - ty * 36;
        const int gx = min(w - 1, max(0, x0 + tx));
        const int gy = min(h - 1, max(0, y0 + ty));
        tile[ty][tx] = src[gy * spitch + gx];
    }
    __syncthreads();
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
    if (x >= w || y >= h) return;
    unsigned m = 0;
#pragma unroll
    for (int dy = 0; dy < 5; ++dy)
#pragma unroll
        for (int dx = 0; dx < 5; ++dx) m = max(m, (unsigned)tile[threadIdx.y + dy][threadIdx.x + dx]);
    dst[y * dpitch + x] = (uint16_t)m;
}

// INTER_AREA downscale by an integer factor 3 of a packed BGR (uchar3) image:
// each output pixel averages a 3 x 3 block of 3-byte pixels (27 byte loads).
extern "C" __global__ void LB(256) resize_area3_u8c3(const uint8_t* __restrict__ src, int spitch,
                                                    uint8_t* __restrict__ dst, int dpitch, int ow, int oh)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= ow || y >= oh) return;
    unsigned s0 = 0, s1 = 0, s2 = 0;
#pragma unroll
    for (int dy = 0; dy < 3; ++dy) {
        const uint8_t* row = src + (size_t)(3 * y + dy) * spitch + 9 * x;
#pragma unroll
        for (int dx = 0; dx < 3; ++dx) {
            s0 += row[3 * dx + 0];
            s1 += row[3 * dx + 1];
            s2 += row[3 * dx + 2];
        }
    }
    uint8_t* o = dst + (size_t)y * dpitch + 3 * x;
    o[0] = (uint8_t)((s0 + 4) / 9);
    o[1] = (uint8_t)((s1 + 4) / 9);
    o[2] = (uint8_t)((s2 + 4) / 9);
}

// RGBA to planar I420 (BT.601 limited range): a thread per 2 x 2 block, two
// 8-byte (two-pixel) loads, two uchar2 Y stores, one U and one V byte into the
// half-resolution planes.
extern "C" __global__ void LB(256) rgba_to_i420(const uint2* __restrict__ rgba, int spitch8, uint8_t* __restrict__ yp,
                                               int ypitch, uint8_t* __restrict__ up, uint8_t* __restrict__ vp,
                                               int cpitch, int cw, int ch)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= cw || y >= ch) return;
    const uint2 top = rgba[(size_t)(2 * y) * spitch8 + x];
    const uint2 bot = rgba[(size_t)(2 * y + 1) * spitch8 + x];
    unsigned px[4] = {top.x, top.y, bot.x, bot.y};
    int yv[4], rs = 0, gs = 0, bs = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const int r = px[k] & 255, g = (px[k] >> 8) & 255, b = (px[k] >> 16) & 255;
        yv[k] = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
        rs += r; gs += g; bs += b;
    }
    rs = (rs + 2) >> 2; gs = (gs + 2) >> 2; bs = (bs + 2) >> 2;
    *reinterpret_cast<uchar2*>(yp + (size_t)(2 * y) * ypitch + 2 * x) = make_uchar2(yv[0], yv[1]);
    *reinterpret_cast<uchar2*>(yp + (size_t)(2 * y + 1) * ypitch + 2 * x) = make_uchar2(yv[2], yv[3]);
    up[(size_t)y * cpitch + x] = (uint8_t)(((-38 * rs - 74 * gs + 112 * bs + 128) >> 8) + 128);
    vp[(size_t)y * cpitch + x] = (uint8_t)(((112 * rs - 94 * gs - 18 * bs + 128) >> 8) + 128);
}

// Connected-component labelling by label propagation with hooking (one
// iteration): foreground pixel p takes m = the min label of itself and its
// 4 neighbours (from the input labels), writes it, and hooks its old label's
// root entry with atomicMin(next[old], m); a changed flag a warp.
extern "C" __global__ void LB(256) ccl_label_prop(const int* __restrict__ lab, int* __restrict__ next, int w, int h,
                                                 int* __restrict__ changed)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    bool ch = false;
    if (x < w && y < h) {
        const int p = y * w + x;
        const int l = lab[p];
        if (l >= 0) {
            int m = l;
            if (x > 0) { const int q = lab[p - 1]; if (q >= 0) m = min(m, q); }
            if (x + 1 < w) { const int q = lab[p + 1]; if (q >= 0) m = min(m, q); }
            if (y > 0) { const int q = lab[p - w]; if (q >= 0) m = min(m, q); }
            if (y + 1 < h) { const int q = lab[p + w]; if (q >= 0) m = min(m, q); }
            if (m < l) {
                atomicMin(&next[l], m);
                atomicMin(&next[p], m);
                ch = true;
            }
        }
    }
    const unsigned b = __ballot_sync(FULLMASK, ch);
    if ((threadIdx.x & 31) == 0 && threadIdx.y == 0 && b) atomicOr(changed, 1);
}

// ------------------------------------------------------------------ Hopper --

// TMA with L2 prefetch (CUTLASS's prefetch_tma_descriptor / cute::prefetch):
// a CTA sums a strip of 32 rows of a 2,048 x 2,048 float32 matrix: thread 0
// prefetches column tile t + 2 into L2 (cp.async.bulk.prefetch.tensor.2d.L2)
// and TMA-loads tile t (box 64 x 32) into one buffer, all wait, 8 threads a row
// read 8 floats each (two float4), partial sums in registers.
extern "C" __global__ void LB(256) tma2d_prefetch_rowsum(const __grid_constant__ TensorMap128 tm, float* __restrict__ out,
                                                        int ncols)
{
    __shared__ alignas(128) float tile[32 * 64];
    __shared__ alignas(8) uint64_t bar;
    const unsigned mb = smem_u32(&bar);
    const int t = threadIdx.x;
    const int row0 = blockIdx.x * 32;
    if (t == 0) {
        asm volatile("prefetch.tensormap [%0];" ::"l"(&tm) : "memory");
        mbar_init(mb, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    const int r = t >> 3, q = t & 7;
    float acc = 0.0f;
    const int ntiles = ncols / 64;
    for (int kt = 0; kt < ntiles; ++kt) {
        if (t == 0) {
            if (kt + 2 < ntiles)
                asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" ::"l"(&tm),
                             "r"((kt + 2) * 64), "r"(row0)
                             : "memory");
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(32 * 64 * 4) : "memory");
            asm volatile(
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                    smem_u32(tile)),
                "l"(&tm), "r"(kt * 64), "r"(row0), "r"(mb)
                : "memory");
        }
        mbar_wait(mb, kt & 1);
        const float4 a = *reinterpret_cast<const float4*>(tile + r * 64 + q * 8);
        const float4 b = *reinterpret_cast<const float4*>(tile + r * 64 + q * 8 + 4);
        acc += (a.x + a.y) + (a.z + a.w) + (b.x + b.y) + (b.z + b.w);
        __syncthreads();
    }
    acc += __shfl_xor_sync(FULLMASK, acc, 1);
    acc += __shfl_xor_sync(FULLMASK, acc, 2);
    acc += __shfl_xor_sync(FULLMASK, acc, 4);
    if (q == 0) out[row0 + r] = acc;
}

// TMA with a 128-byte swizzle read back by ldmatrix (the Hopper / Ampere GEMM
// operand path): a 64 x 64 fp16 tile (a float32 tensor map with box 32 x 64,
// CU_TENSOR_MAP_SWIZZLE_128B) lands 16-byte chunk c of row r at chunk c ^ (r & 7);
// warp w reads rows 16 w .. 16 w + 15 with four ldmatrix.x4 and four
// ldmatrix.x4.trans at the swizzled addresses; the lanes' half sums are stored.
extern "C" __global__ void LB(128) tma_swz128_ldsm(const __grid_constant__ TensorMap128 tm, float* __restrict__ out,
                                                  int tiles_per_cta, int col_tiles)
{
    __shared__ alignas(1024) uint8_t tile[64 * 128];
    __shared__ alignas(8) uint64_t bar;
    const unsigned mb = smem_u32(&bar);
    const int t = threadIdx.x, w = t >> 5, lane = t & 31;
    if (t == 0) {
        mbar_init(mb, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    float s_plain = 0.0f, s_trans = 0.0f;
    for (int it = 0; it < tiles_per_cta; ++it) {
        const int tile_id = blockIdx.x * tiles_per_cta + it;
        const int tr = tile_id / col_tiles, tc = tile_id - tr * col_tiles;
        if (t == 0) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(64 * 128) : "memory");
            asm volatile(
                "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                    smem_u32(tile)),
                "l"(&tm), "r"(tc * 32), "r"(tr * 64), "r"(mb)
                : "memory");
        }
        mbar_wait(mb, it & 1);
        const int row = 16 * w + (lane & 15);
#pragma unroll
        for (int c = 0; c < 8; c += 2) {
            const int chunk = c + (lane >> 4);
            const unsigned addr = smem_u32(tile) + row * 128 + ((chunk ^ (row & 7)) << 4);
            unsigned r0, r1, r2, r3;
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                         : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                         : "r"(addr));
            unsigned q0, q1, q2, q3;
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                         : "=r"(q0), "=r"(q1), "=r"(q2), "=r"(q3)
                         : "r"(addr));
            const unsigned pr[4] = {r0, r1, r2, r3}, pq[4] = {q0, q1, q2, q3};
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                const float2 a = __half22float2(*reinterpret_cast<const __half2*>(&pr[k]));
                const float2 b = __half22float2(*reinterpret_cast<const __half2*>(&pq[k]));
                s_plain += a.x + a.y;
                s_trans += b.x + b.y;
            }
        }
        __syncthreads();
    }
    out[(blockIdx.x * 128 + t) * 2 + 0] = s_plain;
    out[(blockIdx.x * 128 + t) * 2 + 1] = s_trans;
}

// cp.async completing on an mbarrier (cuda::memcpy_async with a barrier, the
// form libcu++ emits): 4-byte cp.async.ca gathers src[idx & mask] into a
// 3-stage ring; each thread's cp.async.mbarrier.arrive.noinc arrives on the
// stage's barrier (count = blockDim) when its copies land; consumers wait with
// try_wait.parity, read a neighbour's four values, and refill the stage.
extern "C" __global__ void LB(256) cpasync_mbar_gather(const float* __restrict__ src, const unsigned* __restrict__ idx,
                                                      unsigned mask, float* __restrict__ out, int tiles)
{
    __shared__ alignas(16) float ring[3][1024];
    __shared__ alignas(8) uint64_t bars[3];
    const int t = threadIdx.x;
    if (t == 0) {
        for (int s = 0; s < 3; ++s) mbar_init(smem_u32(&bars[s]), 256);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    const unsigned* ib = idx + (size_t)blockIdx.x * tiles * 1024;
    auto issue = [&](int tile) {
        const int s = tile % 3;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const unsigned j = ib[tile * 1024 + k * 256 + t] & mask;
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem_u32(&ring[s][k * 256 + t])), "l"(src + j)
                         : "memory");
        }
        asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(smem_u32(&bars[s])) : "memory");
    };
    for (int p = 0; p < 3 && p < tiles; ++p) issue(p);
    float acc = 0.0f;
    for (int tile = 0; tile < tiles; ++tile) {
        const int s = tile % 3;
        mbar_wait(smem_u32(&bars[s]), (tile / 3) & 1);
        const int nb = (t * 4 + 4) & 1023;
        acc += ring[s][nb] + ring[s][nb + 1] + ring[s][nb + 2] + ring[s][nb + 3];
        __syncthreads();
        if (tile + 3 < tiles) issue(tile + 3);
    }
    out[blockIdx.x * 256 + t] = acc;
}

// st.async into the next CTA of a cluster of 4 (a ring exchange, the
// distributed-shared-memory producer pattern): each CTA's barrier expects
// 4,096 bytes; every thread writes a float4 into the next CTA's receive buffer
// with st.async ... mbarrier::complete_tx::bytes.v4.f32 at a mapa address; the
// CTA waits for its own buffer, then combines it with its own data.
extern "C" __global__ void __cluster_dims__(4, 1, 1) LB(256) dsmem_st_async_ring(const float4* __restrict__ in,
                                                                                float4* __restrict__ out)
{
    __shared__ alignas(16) float4 recv[256];
    __shared__ alignas(8) uint64_t bar;
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    const unsigned mb = smem_u32(&bar);
    const int t = threadIdx.x;
    if (t == 0) {
        mbar_init(mb, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(4096) : "memory");
    }
    cluster.sync();
    const float4 v = in[blockIdx.x * 256 + t];
    const unsigned peer = (rank + 1) & 3;
    unsigned raddr, rbar;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(raddr) : "r"(smem_u32(&recv[(t * 5) & 255])), "r"(peer));
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rbar) : "r"(mb), "r"(peer));
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.f32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(raddr),
                 "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w), "r"(rbar)
                 : "memory");
    mbar_wait(mb, 0);
    const float4 r = recv[t];
    out[blockIdx.x * 256 + t] = make_float4(v.x + r.x, v.y - r.y, v.z * r.z, v.w + 2.0f * r.w);
    cluster.sync();
}

// Shared-to-shared bulk copy inside a cluster of 2 (cp.async.bulk.shared::cluster
// .shared::cta, complete_tx on the peer's barrier): each CTA stages 8 KiB of
// its input with float4 loads and STS.128, fences the async proxy, and one
// thread copies the whole buffer into the peer CTA's receive buffer; the CTA
// waits for the peer's copy and writes the pairwise differences.
extern "C" __global__ void __cluster_dims__(2, 1, 1) LB(256) bulk_s2s_pair(const float4* __restrict__ in,
                                                                          float4* __restrict__ out)
{
    __shared__ alignas(128) float4 mine[512];
    __shared__ alignas(128) float4 recv[512];
    __shared__ alignas(8) uint64_t bar;
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    const unsigned mb = smem_u32(&bar);
    const int t = threadIdx.x;
    if (t == 0) {
        mbar_init(mb, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(8192) : "memory");
    }
    mine[t] = in[blockIdx.x * 512 + t];
    mine[t + 256] = in[blockIdx.x * 512 + 256 + t];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    cluster.sync();
    if (t == 0) {
        const unsigned peer = rank ^ 1;
        unsigned rdst, rbar;
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rdst) : "r"(smem_u32(recv)), "r"(peer));
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rbar) : "r"(mb), "r"(peer));
        asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(rdst),
                     "r"(smem_u32(mine)), "r"(8192), "r"(rbar)
                     : "memory");
    }
    mbar_wait(mb, 0);
    const float4 a = mine[t], b = recv[t];
    const float4 c = mine[t + 256], d = recv[t + 256];
    out[blockIdx.x * 512 + t] = make_float4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w);
    out[blockIdx.x * 512 + 256 + t] = make_float4(c.x - d.x, c.y - d.y, c.z - d.z, c.w - d.w);
    cluster.sync();
}
