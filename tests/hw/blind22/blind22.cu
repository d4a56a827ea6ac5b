// warpscope twenty-second held-out batch (tests/hw/blind22): 20 CUDA kernels in the styles of
// graph analytics (bottom-up BFS over a frontier bitmap, k-core peeling), column stores (late
// materialization, Parquet dictionary / bit-packed decoding, a bitmap semi-join, LIKE 'prefix%'
// over offset strings), image codecs (YUYV 4:2:2 to planar 4:4:4, JPEG dequantization with
// zigzag and an 8x8 IDCT, a 16-bit tone-mapping LUT, per-label bounding boxes by shared
// atomics), physics (position-based-dynamics distance constraints), hashing (xxHash32 of
// 100-byte rows), dense algebra (batched 8x8 triangular solves, a Householder reflector on a
// column-major panel), ML formats and serving (MXFP4 with E8M0 scales, a LoRA SGMV expand over
// loaded segments, CTC greedy decoding) and Hopper memory paths (ldmatrix .trans for an NN
// fp16 GEMM, 4-byte cp.async.ca with zero-fill, cp.async completion through an mbarrier).
// Our own code; only the toolkit's implicit headers.
#include <cstdint>

// ------------------------------------------------------------------ graphs --
// Bottom-up BFS step (direction-optimizing BFS): every unvisited vertex walks its
// in-neighbours until it finds one in the frontier bitmap, takes it as parent and sets its own
// bit in the next frontier
extern "C" __global__ void __launch_bounds__(256) bfs_bottomup_bitmap(const int *__restrict__ rp,
                                                                      const int *__restrict__ ci,
                                                                      const uint32_t *__restrict__ frontier,
                                                                      int *__restrict__ parent,
                                                                      uint32_t *__restrict__ next, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    if (parent[v] >= 0) return;
    int e0 = rp[v], e1 = rp[v + 1];
    for (int e = e0; e < e1; ++e) {
        int u = ci[e];
        if ((frontier[u >> 5] >> (u & 31)) & 1u) {
            parent[v] = u;
            atomicOr(&next[v >> 5], 1u << (v & 31));
            break;
        }
    }
}

// k-core peeling round: a live vertex under degree k is removed and decrements its
// neighbours' degrees
extern "C" __global__ void __launch_bounds__(256) kcore_peel_round(const int *__restrict__ rp,
                                                                   const int *__restrict__ ci,
                                                                   const int *__restrict__ deg_in,
                                                                   int *__restrict__ deg,
                                                                   const uint8_t *__restrict__ alive,
                                                                   uint8_t *__restrict__ removed, int k, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    if (!alive[v] || deg_in[v] >= k) return;
    removed[v] = 1;
    for (int e = rp[v]; e < rp[v + 1]; ++e) atomicSub(&deg[ci[e]], 1);
}

// ------------------------------------------------------------ column stores --
// late materialization: the selected row ids (sorted) gather four columns of widths 8, 4, 2, 1
extern "C" __global__ void __launch_bounds__(256) late_materialize_gather(
    const int *__restrict__ sel, int nsel, const long long *__restrict__ c0, const int *__restrict__ c1,
    const uint16_t *__restrict__ c2, const uint8_t *__restrict__ c3, long long *__restrict__ o0,
    int *__restrict__ o1, uint16_t *__restrict__ o2, uint8_t *__restrict__ o3)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nsel) return;
    int r = sel[i];
    o0[i] = c0[r];
    o1[i] = c1[r];
    o2[i] = c2[r];
    o3[i] = c3[r];
}

// Parquet dictionary page + 7-bit bit-packed indices (LSB first): the dictionary (<= 128 floats)
// in shared memory, a thread a value peeking one or two words
extern "C" __global__ void __launch_bounds__(256) parquet_dict_bitpack7(const uint32_t *__restrict__ packed,
                                                                        const float *__restrict__ dict, int ndict,
                                                                        float *__restrict__ out, int n)
{
    __shared__ float sd[128];
    if (threadIdx.x < ndict) sd[threadIdx.x] = dict[threadIdx.x];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t bit = (uint32_t)i * 7u;
    uint32_t w = bit >> 5, s = bit & 31;
    uint32_t v = packed[w] >> s;
    if (s > 25) v |= packed[w + 1] << (32 - s);
    out[i] = sd[v & 127u];
}

__device__ __forceinline__ uint64_t mix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

// semi-join through a 2^24-bit filter bitmap: a hashed probe a key, the hits of a warp
// appended by one atomicAdd of the warp's leader (positions in lane order)
extern "C" __global__ void __launch_bounds__(256) bitmap_semi_join_probe(const unsigned long long *__restrict__ keys,
                                                                         int n, const uint32_t *__restrict__ bitmap,
                                                                         int *__restrict__ out_idx,
                                                                         int *__restrict__ out_count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool hit = false;
    if (i < n) {
        uint32_t h = (uint32_t)(mix64(keys[i]) >> 40);
        hit = (bitmap[h >> 5] >> (h & 31)) & 1u;
    }
    unsigned m = __ballot_sync(0xffffffffu, hit);
    int lane = threadIdx.x & 31;
    int base = 0;
    if (lane == 0 && m) base = atomicAdd(out_count, __popc(m));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (hit) out_idx[base + __popc(m & ((1u << lane) - 1u))] = i;
}

// LIKE 'prefix%' over strings stored as bytes + int offsets: byte compares up to the
// prefix's length, stopping at the first difference; a 0/1 flag a row
extern "C" __global__ void __launch_bounds__(256) like_prefix_filter(const uint8_t *__restrict__ chars,
                                                                     const int *__restrict__ offs,
                                                                     const uint8_t *__restrict__ prefix, int plen,
                                                                     uint8_t *__restrict__ flag, int n)
{
    __shared__ uint8_t sp[16];
    if (threadIdx.x < plen) sp[threadIdx.x] = prefix[threadIdx.x];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int b = offs[i], len = offs[i + 1] - b;
    uint8_t ok = len >= plen;
    for (int k = 0; ok && k < plen; ++k)
        if (chars[b + k] != sp[k]) ok = 0;
    flag[i] = ok;
}

// ------------------------------------------------------------------- images --
// YUYV 4:2:2 (one uint32 = Y0 U Y1 V for two pixels) to planar 4:4:4, a thread a pixel pair,
// uchar2 stores into each plane (chroma repeated)
extern "C" __global__ void __launch_bounds__(128) yuyv422_to_i444(const uint32_t *__restrict__ yuyv, int pitch_words,
                                                                  uint8_t *__restrict__ Y, uint8_t *__restrict__ U,
                                                                  uint8_t *__restrict__ V, int w, int h)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (px >= w / 2 || y >= h) return;
    uint32_t q = yuyv[(size_t)y * pitch_words + px];
    size_t o = (size_t)y * w + 2 * px;
    uint8_t y0 = q & 255, u = (q >> 8) & 255, y1 = (q >> 16) & 255, v = q >> 24;
    *reinterpret_cast<uchar2 *>(Y + o) = make_uchar2(y0, y1);
    *reinterpret_cast<uchar2 *>(U + o) = make_uchar2(u, u);
    *reinterpret_cast<uchar2 *>(V + o) = make_uchar2(v, v);
}

// JPEG decode step: zigzag-ordered int16 coefficients of 8x8 blocks, dequantized by the
// quantization table (natural order), a separable float IDCT in shared memory (rows then columns, padded to
// 9), level shift and clamp, uint8 stored to the image; a CUDA block 4 JPEG blocks in a row
__device__ const uint8_t c_zigzag[64] = {0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,
                                         12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,  7,  14, 21, 28,
                                         35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
                                         58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};
extern "C" __global__ void __launch_bounds__(256) jpeg_dequant_zigzag_idct(const int16_t *__restrict__ coef,
                                                                           const uint16_t *__restrict__ qt,
                                                                           uint8_t *__restrict__ img, int bw, int bh,
                                                                           int pitch)
{
    __shared__ float cosk[8][8];
    __shared__ uint8_t zz[64];
    __shared__ float blk[4][8][9], tmp[4][8][9];
    int x = threadIdx.x, y = threadIdx.y, b = threadIdx.z;
    int t = (b * 8 + y) * 8 + x;
    if (t < 64) {
        int u = t >> 3, xx = t & 7;
        cosk[u][xx] = (u ? 0.5f : 0.35355339f) * cospif((2 * xx + 1) * u / 16.0f);
        zz[c_zigzag[t]] = (uint8_t)t;
    }
    __syncthreads();
    int bx = blockIdx.x * 4 + b, by = blockIdx.y;
    bool live = bx < bw;
    int k = zz[y * 8 + x];
    float c = 0.f;
    if (live) c = (float)coef[((size_t)by * bw + bx) * 64 + k] * (float)qt[y * 8 + x];
    blk[b][y][x] = c;
    __syncthreads();
    float s = 0.f;
    for (int u = 0; u < 8; ++u) s += cosk[u][x] * blk[b][y][u];
    tmp[b][y][x] = s;
    __syncthreads();
    s = 0.f;
    for (int v = 0; v < 8; ++v) s += cosk[v][y] * tmp[b][v][x];
    int p = __float2int_rn(s) + 128;
    if (live) img[(size_t)(by * 8 + y) * pitch + bx * 8 + x] = (uint8_t)min(255, max(0, p));
}

// 16-bit to 8-bit tone mapping through a 65,536-entry float LUT (gathered at the pixel values),
// ushort2 in, uchar2 out
extern "C" __global__ void __launch_bounds__(256) lut16_tonemap_u16(const ushort2 *__restrict__ in,
                                                                    const float *__restrict__ lut, float gain,
                                                                    uchar2 *__restrict__ out, int npairs)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= npairs) return;
    ushort2 p = in[i];
    float a = lut[p.x] * gain, b = lut[p.y] * gain;
    out[i] = make_uchar2((uint8_t)fminf(255.f, a), (uint8_t)fminf(255.f, b));
}

// per-label bounding boxes: a block a strip of 4 rows, shared atomicMin / atomicMax per label,
// then one global atomic per label and side
extern "C" __global__ void __launch_bounds__(256) label_bbox_shared_atomics(const int *__restrict__ labels, int w,
                                                                            int h, int nlab, int *__restrict__ box)
{
    __shared__ int sb[4][64];
    for (int i = threadIdx.x; i < 4 * 64; i += blockDim.x) sb[i >> 6][i & 63] = (i >> 6) < 2 ? 0x7fffffff : -1;
    __syncthreads();
    int y0 = blockIdx.x * 4;
    for (int r = 0; r < 4; ++r) {
        int y = y0 + r;
        if (y >= h) break;
        for (int x = threadIdx.x; x < w; x += blockDim.x) {
            int l = labels[(size_t)y * w + x];
            if (l < 0) continue;
            atomicMin(&sb[0][l], x);
            atomicMin(&sb[1][l], y);
            atomicMax(&sb[2][l], x);
            atomicMax(&sb[3][l], y);
        }
    }
    __syncthreads();
    if (threadIdx.x < nlab && sb[2][threadIdx.x] >= 0) {
        int l = threadIdx.x;
        atomicMin(&box[l * 4 + 0], sb[0][l]);
        atomicMin(&box[l * 4 + 1], sb[1][l]);
        atomicMax(&box[l * 4 + 2], sb[2][l]);
        atomicMax(&box[l * 4 + 3], sb[3][l]);
    }
}

// ------------------------------------------------------------------ physics --
// position-based dynamics: Jacobi pass over distance constraints, float4 positions (w = inverse
// mass), the corrections accumulated by atomicAdd into float4 deltas (w counts constraints)
extern "C" __global__ void __launch_bounds__(256) pbd_distance_jacobi(const float4 *__restrict__ pos,
                                                                      const int2 *__restrict__ edges,
                                                                      const float *__restrict__ rest,
                                                                      float4 *__restrict__ delta, int ne, float stiff)
{
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= ne) return;
    int2 ij = edges[e];
    float4 a = pos[ij.x], b = pos[ij.y];
    float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
    float len = sqrtf(dx * dx + dy * dy + dz * dz);
    float wsum = a.w + b.w;
    if (len < 1e-9f || wsum <= 0.f) return;
    float c = stiff * (len - rest[e]) / (len * wsum);
    atomicAdd(&delta[ij.x].x, a.w * c * dx);
    atomicAdd(&delta[ij.x].y, a.w * c * dy);
    atomicAdd(&delta[ij.x].z, a.w * c * dz);
    atomicAdd(&delta[ij.x].w, 1.f);
    atomicAdd(&delta[ij.y].x, -b.w * c * dx);
    atomicAdd(&delta[ij.y].y, -b.w * c * dy);
    atomicAdd(&delta[ij.y].z, -b.w * c * dz);
    atomicAdd(&delta[ij.y].w, 1.f);
}

// ------------------------------------------------------------------ hashing --
// xxHash32 (seed 0) of fixed 100-byte rows: six 16-byte stripes read as uint32 words at a
// 100-byte row stride, one 4-byte tail word, the avalanche
#define XP1 2654435761u
#define XP2 2246822519u
#define XP3 3266489917u
#define XP4 668265263u
#define XP5 374761393u
__device__ __forceinline__ uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
extern "C" __global__ void __launch_bounds__(256) xxh32_rows100(const uint32_t *__restrict__ data, int nrows,
                                                                uint32_t *__restrict__ out)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows) return;
    const uint32_t *p = data + (size_t)r * 25;
    uint32_t v1 = XP1 + XP2, v2 = XP2, v3 = 0, v4 = 0u - XP1;
    for (int s = 0; s < 6; ++s) {
        v1 = rotl32(v1 + p[4 * s + 0] * XP2, 13) * XP1;
        v2 = rotl32(v2 + p[4 * s + 1] * XP2, 13) * XP1;
        v3 = rotl32(v3 + p[4 * s + 2] * XP2, 13) * XP1;
        v4 = rotl32(v4 + p[4 * s + 3] * XP2, 13) * XP1;
    }
    uint32_t h = rotl32(v1, 1) + rotl32(v2, 7) + rotl32(v3, 12) + rotl32(v4, 18) + 100u;
    h = rotl32(h + p[24] * XP3, 17) * XP4;
    h ^= h >> 15;
    h *= XP2;
    h ^= h >> 13;
    h *= XP3;
    h ^= h >> 16;
    out[r] = h;
}

// ------------------------------------------------------------- dense algebra --
// batched forward substitution L X = B: 8x8 lower-triangular L (row-major), 16 right-hand
// sides in place (B row-major [8][16]); a block 8 systems, a thread a (system, column), the
// blocks' L in shared memory
extern "C" __global__ void __launch_bounds__(128) trsm_batched_lower8(const float *__restrict__ L,
                                                                      float *__restrict__ B, int batch)
{
    __shared__ float sl[8][8][9];
    int sys0 = blockIdx.x * 8;
    for (int i = threadIdx.x; i < 512; i += 128) {
        int s = i >> 6, e = i & 63;
        if (sys0 + s < batch) sl[s][e >> 3][e & 7] = L[(size_t)(sys0 + s) * 64 + e];
    }
    __syncthreads();
    int s = threadIdx.x >> 4, col = threadIdx.x & 15;
    int sys = sys0 + s;
    if (sys >= batch) return;
    float *b = B + (size_t)sys * 128 + col;
    float x[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        float v = b[i * 16];
#pragma unroll
        for (int k = 0; k < i; ++k) v -= sl[s][i][k] * x[k];
        x[i] = v / sl[s][i][i];
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) b[i * 16] = x[i];
}

// apply a Householder reflector H = I - tau v v^T to a column-major panel (lda odd): a block a
// column, the dot product by a block reduction, then the column update
extern "C" __global__ void __launch_bounds__(256) householder_apply_colmajor(const float *__restrict__ v, float tau,
                                                                             float *__restrict__ A, int m, int n,
                                                                             int lda)
{
    __shared__ float red[8];
    int j = blockIdx.x;
    if (j >= n) return;
    float *a = A + (size_t)j * lda;
    float s = 0.f;
    for (int i = threadIdx.x; i < m; i += 256) s += v[i] * a[i];
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = s;
    __syncthreads();
    float d = 0.f;
#pragma unroll
    for (int k = 0; k < 8; ++k) d += red[k];
    d *= tau;
    for (int i = threadIdx.x; i < m; i += 256) a[i] -= d * v[i];
}

// --------------------------------------------------------------- ML formats --
// MXFP4 (OCP microscaling): e2m1 codes two a byte, one E8M0 scale byte per 32 elements; a
// thread 8 elements (a uint32 of codes), bf16 out as a uint4; rows of K = 2,880
__device__ __forceinline__ uint16_t f2bf(float f)
{
    uint32_t u = __float_as_uint(f);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}
extern "C" __global__ void __launch_bounds__(256) mxfp4_dequant_e8m0(const uint32_t *__restrict__ codes,
                                                                     const uint8_t *__restrict__ scales,
                                                                     uint4 *__restrict__ out, int ngroups8)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ngroups8) return;
    uint32_t q = codes[i];
    uint8_t e = scales[i >> 2];
    float sc = __uint_as_float((uint32_t)(e ? e : 1) << 23);
    uint16_t h[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        uint32_t c = (q >> (4 * k)) & 15u;
        uint32_t m = c & 7u;
        float mag = m < 2 ? 0.5f * m : (m < 4 ? 1.0f + 0.5f * (m - 2) : (m < 6 ? 2.0f + (m - 4) : 4.0f + 2.0f * (m - 6)));
        h[k] = f2bf((c & 8u) ? -mag * sc : mag * sc);
    }
    out[i] = make_uint4(h[0] | ((uint32_t)h[1] << 16), h[2] | ((uint32_t)h[3] << 16), h[4] | ((uint32_t)h[5] << 16),
                        h[6] | ((uint32_t)h[7] << 16));
}

// LoRA SGMV expand (punica style): segments of tokens sharing an adapter (loaded start and
// adapter id, -1 = none), y[t] += xa[t] (rank 16) times B[adapter] [16][4,096]; a block 256
// columns of one segment
extern "C" __global__ void __launch_bounds__(256) lora_sgmv_expand(const float *__restrict__ xa,
                                                                   const float *__restrict__ Bw,
                                                                   const int *__restrict__ seg_start,
                                                                   const int *__restrict__ seg_lora,
                                                                   float *__restrict__ y, int H)
{
    int s = blockIdx.y;
    int l = seg_lora[s];
    if (l < 0) return;
    int h = blockIdx.x * 256 + threadIdx.x;
    if (h >= H) return;
    float bcol[16];
    const float *bw = Bw + (size_t)l * 16 * H + h;
#pragma unroll
    for (int r = 0; r < 16; ++r) bcol[r] = bw[(size_t)r * H];
    int t1 = seg_start[s + 1];
    for (int t = seg_start[s]; t < t1; ++t) {
        float acc = 0.f;
#pragma unroll
        for (int r = 0; r < 16; ++r) acc += xa[t * 16 + r] * bcol[r];
        y[(size_t)t * H + h] += acc;
    }
}

// CTC greedy decoding: log-probabilities [T][B][C] (C = 29, blank 0), a thread an utterance
// (loaded length), the argmax a frame over its 116-byte row, repeats and blanks collapsed,
// labels stored at the running count
extern "C" __global__ void __launch_bounds__(128) ctc_greedy_decode(const float *__restrict__ lp,
                                                                    const int *__restrict__ tlen, int T, int Bn,
                                                                    int C, int *__restrict__ labels,
                                                                    int *__restrict__ nout)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= Bn) return;
    int len = tlen[b], prev = 0, cnt = 0;
    for (int t = 0; t < len; ++t) {
        const float *row = lp + ((size_t)t * Bn + b) * C;
        float best = row[0];
        int arg = 0;
        for (int c = 1; c < C; ++c) {
            float v = row[c];
            if (v > best) { best = v; arg = c; }
        }
        if (arg != 0 && arg != prev) labels[(size_t)b * T + cnt++] = arg;
        prev = arg;
    }
    nout[b] = cnt;
}

// ------------------------------------------------------------ Hopper paths --
// NN fp16 GEMM (A [M][K], B [K][N] both row-major): 16-byte loads into padded shared rows (A
// pitch 80 bytes, B 144 bytes), A fragments by ldmatrix.x4, B fragments by ldmatrix.x4.trans
// (k-rows of B transposed into the mma's col-major operand), mma.sync m16n8k16, float C
extern "C" __global__ void __launch_bounds__(128) ldmatrix_trans_hgemm_nn(const uint16_t *__restrict__ A,
                                                                          const uint16_t *__restrict__ B,
                                                                          float *__restrict__ C, int M, int N,
                                                                          int K)
{
    __shared__ __align__(16) uint16_t as[64 * 40];
    __shared__ __align__(16) uint16_t bs[32 * 72];
    int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
    int wm = (warp >> 1) * 32, wn = (warp & 1) * 32;
    float acc[2][4][4];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int q = 0; q < 4; ++q) acc[i][j][q] = 0.f;
    for (int k0 = 0; k0 < K; k0 += 32) {
#pragma unroll
        for (int c = 0; c < 2; ++c) {
            int ch = tid + c * 128;
            int ar = ch >> 2, ac = (ch & 3) * 8;
            *reinterpret_cast<uint4 *>(&as[ar * 40 + ac]) =
                *reinterpret_cast<const uint4 *>(&A[(size_t)(m0 + ar) * K + k0 + ac]);
            int br = ch >> 3, bc = (ch & 7) * 8;
            *reinterpret_cast<uint4 *>(&bs[br * 72 + bc]) =
                *reinterpret_cast<const uint4 *>(&B[(size_t)(k0 + br) * N + n0 + bc]);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < 32; kk += 16) {
            uint32_t af[2][4], bf[4][2];
#pragma unroll
            for (int i = 0; i < 2; ++i) {
                uint32_t addr = (uint32_t)__cvta_generic_to_shared(&as[(wm + i * 16 + (lane & 15)) * 40 + kk + (lane >> 4) * 8]);
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                             : "=r"(af[i][0]), "=r"(af[i][1]), "=r"(af[i][2]), "=r"(af[i][3])
                             : "r"(addr));
            }
#pragma unroll
            for (int jj = 0; jj < 2; ++jj) {
                uint32_t addr = (uint32_t)__cvta_generic_to_shared(&bs[(kk + (lane & 15)) * 72 + wn + jj * 16 + (lane >> 4) * 8]);
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                             : "=r"(bf[2 * jj][0]), "=r"(bf[2 * jj][1]), "=r"(bf[2 * jj + 1][0]), "=r"(bf[2 * jj + 1][1])
                             : "r"(addr));
            }
#pragma unroll
            for (int i = 0; i < 2; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                                 "{%8,%9}, {%0,%1,%2,%3};\n"
                                 : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]), "+f"(acc[i][j][3])
                                 : "r"(af[i][0]), "r"(af[i][1]), "r"(af[i][2]), "r"(af[i][3]), "r"(bf[j][0]),
                                   "r"(bf[j][1]));
        }
        __syncthreads();
    }
    int g = lane >> 2, t4 = lane & 3;
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            int r = m0 + wm + i * 16 + g, c = n0 + wn + j * 8 + 2 * t4;
            *reinterpret_cast<float2 *>(&C[(size_t)r * N + c]) = make_float2(acc[i][j][0], acc[i][j][1]);
            *reinterpret_cast<float2 *>(&C[(size_t)(r + 8) * N + c]) = make_float2(acc[i][j][2], acc[i][j][3]);
        }
}

// 3-point vertical + horizontal stencil on rows of 1,001 floats (4-byte aligned only): three
// rows of 256 + 2 halo floats staged by 4-byte cp.async.ca, src-size 0 (zero-fill) outside the
// image, a thread an output
extern "C" __global__ void __launch_bounds__(256) cpasync4_stencil_zfill(const float *__restrict__ in,
                                                                         float *__restrict__ out, int w, int h)
{
    __shared__ float s[3][260];
    int x0 = blockIdx.x * 256, y = blockIdx.y;
    for (int i = threadIdx.x; i < 3 * 258; i += 256) {
        int r = i / 258, c = i - r * 258;
        int gy = y - 1 + r, gx = x0 - 1 + c;
        bool ok = gy >= 0 && gy < h && gx >= 0 && gx < w;
        const float *src = in + (ok ? (size_t)gy * w + gx : 0);
        uint32_t dst = (uint32_t)__cvta_generic_to_shared(&s[r][c]);
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(ok ? 4 : 0) : "memory");
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    __syncthreads();
    int x = x0 + threadIdx.x;
    if (x >= w) return;
    int c = threadIdx.x + 1;
    out[(size_t)y * w + x] = 0.5f * s[1][c] + 0.125f * (s[0][c] + s[2][c] + s[1][c - 1] + s[1][c + 1]);
}

// row sums of squares, rows of 4,096 floats in four 4 KiB chunks, double-buffered: each thread
// issues its 16-byte cp.async.cg copies and cp.async.mbarrier.arrive.noinc on the chunk's
// mbarrier (init count 128), the block waits on its phase parity
extern "C" __global__ void __launch_bounds__(128) cpasync_mbar_rowsumsq(const float *__restrict__ x,
                                                                        float *__restrict__ out, int rows)
{
    __shared__ __align__(16) float buf[2][1024];
    __shared__ __align__(8) unsigned long long bar[2];
    __shared__ float red[4];
    int r = blockIdx.x;
    if (r >= rows) return;
    uint32_t b0 = (uint32_t)__cvta_generic_to_shared(&bar[0]), b1 = (uint32_t)__cvta_generic_to_shared(&bar[1]);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(b0), "r"(128) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(b1), "r"(128) : "memory");
    }
    __syncthreads();
    const float *row = x + (size_t)r * 4096;
    auto issue = [&](int c) {
        int sb = c & 1;
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            int e = (threadIdx.x + k * 128) * 4;
            uint32_t dst = (uint32_t)__cvta_generic_to_shared(&buf[sb][e]);
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(row + c * 1024 + e) : "memory");
        }
        asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(sb ? b1 : b0) : "memory");
    };
    issue(0);
    float s = 0.f;
    for (int c = 0; c < 4; ++c) {
        if (c + 1 < 4) {
            __syncthreads();
            issue(c + 1);
        }
        uint32_t bb = (c & 1) ? b1 : b0, par = (c >> 1) & 1, done = 0;
        while (!done)
            asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
                         : "=r"(done)
                         : "r"(bb), "r"(par)
                         : "memory");
        const float4 *v = reinterpret_cast<const float4 *>(buf[c & 1]);
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            float4 q = v[threadIdx.x + k * 128];
            s += q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
        }
    }
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x == 0) out[r] = red[0] + red[1] + red[2] + red[3];
}
