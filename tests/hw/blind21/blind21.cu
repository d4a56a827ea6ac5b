// warpscope twenty-first held-out batch (tests/hw/blind21): 20 CUDA kernels in the styles of
// compression and time-series codecs (LZ77 match search, Gorilla delta-of-delta decoding, Blosc
// byte unshuffle, bit-plane transposition), low-bit optimizers and weight formats
// (bitsandbytes-style blockwise 8-bit Adam, NF4 with double-quantized absmax, GPTQ with an
// act-order group index), sequence models (ALiBi sliding-window scores, the RWKV-4 WKV
// recurrence, a Mamba causal conv1d), bioinformatics (pair-HMM forward), vision (HOG cells,
// Lucas-Kanade flow), CFD (WENO5), sorting and sparse algebra (sample-sort bucketing, SpGEMM
// row counting), tokenizers (BPE merge ranks), an optimizer (Lion), and Hopper memory paths
// (cp.async with zero-fill, ldmatrix on a swizzled tile, cp.async.bulk with an mbarrier).
// Our own code; only the toolkit's implicit headers.
#include <cstdint>

__device__ __forceinline__ float h2f(unsigned short h)
{
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}
__device__ __forceinline__ unsigned short f2h(float f)
{
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}

// ------------------------------------------------------------ compression, time series --
// LZ77 match search (greedy parser's first step): a thread a position, the block's 256
// positions plus a 64-byte window behind and 32 bytes ahead staged in shared memory, the
// longest match (up to 32 bytes) at distances 1..64, (length, distance) stored
#define LZ_WIN 64
#define LZ_MAXL 32
extern "C" __global__ void __launch_bounds__(256) lz77_match_window(const uint8_t *__restrict__ in,
                                                                    int2 *__restrict__ out, int n)
{
    __shared__ uint8_t s[LZ_WIN + 256 + LZ_MAXL];
    int base = blockIdx.x * 256;
    for (int i = threadIdx.x; i < LZ_WIN + 256 + LZ_MAXL; i += 256) {
        int g = base - LZ_WIN + i;
        s[i] = (g >= 0 && g < n) ? in[g] : (uint8_t)0;
    }
    __syncthreads();
    int p = base + threadIdx.x;
    if (p >= n) return;
    int best = 0, bestd = 0;
    int lim = min(LZ_MAXL, n - p);
    int lp = LZ_WIN + threadIdx.x;
    for (int d = 1; d <= LZ_WIN && d <= p; ++d) {
        int l = 0;
        while (l < lim && s[lp + l] == s[lp - d + l]) ++l;
        if (l > best) { best = l; bestd = d; }
    }
    out[p] = make_int2(best, bestd);
}

// Gorilla timestamp decoding: chunks of 64 timestamps, the first timestamp and first delta in
// side arrays, the 62 delta-of-deltas in a big-endian bit stream ('0', '10'+7, '110'+9,
// '1110'+12, '1111'+32 bits, two's complement) at a loaded bit offset a chunk; a thread a chunk
__device__ __forceinline__ uint32_t gor_peek32(const uint32_t *__restrict__ w, uint32_t pos)
{
    uint32_t i = pos >> 5, s = pos & 31;
    unsigned long long v = ((unsigned long long)w[i] << 32) | w[i + 1];
    return (uint32_t)(v >> (32 - s));
}
extern "C" __global__ void gorilla_dod_decode(const uint32_t *__restrict__ bits, const uint32_t *__restrict__ chunk_off,
                                              const long long *__restrict__ first_ts, const int *__restrict__ first_delta,
                                              long long *__restrict__ ts, int nchunks)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= nchunks) return;
    uint32_t pos = chunk_off[c];
    long long t = first_ts[c];
    long long d = first_delta[c];
    long long *o = ts + (size_t)c * 64;
    o[0] = t;
    t += d;
    o[1] = t;
    for (int i = 2; i < 64; ++i) {
        uint32_t p = gor_peek32(bits, pos);
        int dod;
        if ((p >> 31) == 0) { dod = 0; pos += 1; }
        else if ((p >> 30) == 2) { dod = (int)(p << 2) >> 25; pos += 9; }
        else if ((p >> 29) == 6) { dod = (int)(p << 3) >> 23; pos += 12; }
        else if ((p >> 28) == 14) { dod = (int)(p << 4) >> 20; pos += 16; }
        else { dod = (int)gor_peek32(bits, pos + 4); pos += 36; }
        d += dod;
        t += d;
        o[i] = t;
    }
}

// Blosc-style byte unshuffle (typesize 4): blocks of 16,384 elements, byte b of element j at
// b * ne + j inside its block; the last block short (its own ne); a thread an element
extern "C" __global__ void byte_unshuffle4(const uint8_t *__restrict__ in, uint32_t *__restrict__ out, int nelem,
                                          int block_elems)
{
    int blk = blockIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int start = blk * block_elems;
    int ne = min(block_elems, nelem - start);
    if (j >= ne) return;
    const uint8_t *b = in + (size_t)start * 4;
    uint32_t v = (uint32_t)b[j] | ((uint32_t)b[ne + j] << 8) | ((uint32_t)b[2 * ne + j] << 16) |
                 ((uint32_t)b[3 * ne + j] << 24);
    out[start + j] = v;
}

// bit-plane transposition of 32-bit samples: a warp 32 consecutive words, 32 ballots, lane k
// keeps plane k, planes stored plane-major [32][nwarps]; the last warp ragged (zeros)
extern "C" __global__ void bitplane_ballot_transpose(const uint32_t *__restrict__ in, uint32_t *__restrict__ planes,
                                                     int n, int nwarps)
{
    int gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (gw >= nwarps) return;
    int i = gw * 32 + lane;
    uint32_t v = i < n ? in[i] : 0u;
    uint32_t mine = 0;
#pragma unroll
    for (int k = 0; k < 32; ++k) {
        uint32_t b = __ballot_sync(0xffffffffu, (v >> k) & 1u);
        if (lane == k) mine = b;
    }
    planes[(size_t)lane * nwarps + gw] = mine;
}

// ------------------------------------------------------------ low-bit optimizers, weights --
// bitsandbytes-style blockwise 8-bit Adam: 2,048 elements a block (8 a thread: two float4 and
// uint2 of uint8 states), the two 256-entry code tables in shared memory (signed and unsigned
// dynamic maps), dequantize with the block's absmax, Adam step, new absmax by a block max,
// requantize by binary search in the shared table, states and absmax stored
extern "C" __global__ void __launch_bounds__(256) adam8bit_blockwise_update(
    float *__restrict__ p, const float *__restrict__ g, uint8_t *__restrict__ s1, uint8_t *__restrict__ s2,
    float *__restrict__ absmax1, float *__restrict__ absmax2, const float *__restrict__ code1,
    const float *__restrict__ code2, int n, float lr, float beta1, float beta2, float eps, float bc1, float bc2)
{
    __shared__ float c1[256], c2[256];
    __shared__ float red1[8], red2[8];
    c1[threadIdx.x] = code1[threadIdx.x];
    c2[threadIdx.x] = code2[threadIdx.x];
    __syncthreads();
    int blk = blockIdx.x;
    long long e0 = (long long)blk * 2048 + threadIdx.x * 8;
    bool ok = e0 < n;
    float gv[8], pv[8], m[8], v[8];
    float am1 = absmax1[blk], am2 = absmax2[blk];
    float mx1 = 0.f, mx2 = 0.f;
    if (ok) {
        float4 ga = *reinterpret_cast<const float4 *>(g + e0), gb = *reinterpret_cast<const float4 *>(g + e0 + 4);
        float4 pa = *reinterpret_cast<const float4 *>(p + e0), pb = *reinterpret_cast<const float4 *>(p + e0 + 4);
        uint2 q1 = *reinterpret_cast<const uint2 *>(s1 + e0), q2 = *reinterpret_cast<const uint2 *>(s2 + e0);
        gv[0] = ga.x; gv[1] = ga.y; gv[2] = ga.z; gv[3] = ga.w; gv[4] = gb.x; gv[5] = gb.y; gv[6] = gb.z; gv[7] = gb.w;
        pv[0] = pa.x; pv[1] = pa.y; pv[2] = pa.z; pv[3] = pa.w; pv[4] = pb.x; pv[5] = pb.y; pv[6] = pb.z; pv[7] = pb.w;
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            uint32_t b1 = ((k < 4 ? q1.x : q1.y) >> (8 * (k & 3))) & 255u;
            uint32_t b2 = ((k < 4 ? q2.x : q2.y) >> (8 * (k & 3))) & 255u;
            m[k] = beta1 * (c1[b1] * am1) + (1.f - beta1) * gv[k];
            v[k] = beta2 * (c2[b2] * am2) + (1.f - beta2) * gv[k] * gv[k];
            pv[k] -= lr * (m[k] / bc1) / (sqrtf(v[k] / bc2) + eps);
            mx1 = fmaxf(mx1, fabsf(m[k]));
            mx2 = fmaxf(mx2, v[k]);
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        mx1 = fmaxf(mx1, __shfl_xor_sync(0xffffffffu, mx1, o));
        mx2 = fmaxf(mx2, __shfl_xor_sync(0xffffffffu, mx2, o));
    }
    if ((threadIdx.x & 31) == 0) { red1[threadIdx.x >> 5] = mx1; red2[threadIdx.x >> 5] = mx2; }
    __syncthreads();
    float n1 = red1[0], n2 = red2[0];
#pragma unroll
    for (int w = 1; w < 8; ++w) { n1 = fmaxf(n1, red1[w]); n2 = fmaxf(n2, red2[w]); }
    if (!ok) return;
    float i1 = n1 > 0.f ? 1.f / n1 : 0.f, i2 = n2 > 0.f ? 1.f / n2 : 0.f;
    uint32_t o1[2] = {0u, 0u}, o2[2] = {0u, 0u};
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        float x1 = m[k] * i1, x2 = v[k] * i2;
        int lo1 = 0, lo2 = 0;
        for (int st = 128; st > 0; st >>= 1) {
            if (lo1 + st <= 255 && c1[lo1 + st] <= x1) lo1 += st;
            if (lo2 + st <= 255 && c2[lo2 + st] <= x2) lo2 += st;
        }
        if (lo1 < 255 && fabsf(c1[lo1 + 1] - x1) < fabsf(x1 - c1[lo1])) ++lo1;
        if (lo2 < 255 && fabsf(c2[lo2 + 1] - x2) < fabsf(x2 - c2[lo2])) ++lo2;
        o1[k >> 2] |= (uint32_t)lo1 << (8 * (k & 3));
        o2[k >> 2] |= (uint32_t)lo2 << (8 * (k & 3));
    }
    *reinterpret_cast<float4 *>(p + e0) = make_float4(pv[0], pv[1], pv[2], pv[3]);
    *reinterpret_cast<float4 *>(p + e0 + 4) = make_float4(pv[4], pv[5], pv[6], pv[7]);
    *reinterpret_cast<uint2 *>(s1 + e0) = make_uint2(o1[0], o1[1]);
    *reinterpret_cast<uint2 *>(s2 + e0) = make_uint2(o2[0], o2[1]);
    if (threadIdx.x == 0) { absmax1[blk] = n1; absmax2[blk] = n2; }
}

// NF4 dequantization with double-quantized absmax (QLoRA): two 4-bit codes a byte (high nibble
// first), a uint8 absmax code a 64-element block dequantized through a 256-entry dynamic map
// and a float scale a 256 blocks plus an offset, the 16-entry NF4 table in shared memory; a
// thread 8 elements (a uint32 in, a uint4 of 8 halves out)
__constant__ float nf4_levels[16] = {-1.0f, -0.6961928f, -0.5250731f, -0.3949175f, -0.2844414f, -0.1847734f,
                                     -0.0910500f, 0.0f, 0.0795803f, 0.1609302f, 0.2461123f, 0.3379152f,
                                     0.4407098f, 0.5626170f, 0.7229568f, 1.0f};
extern "C" __global__ void nf4_dequant_double_quant(const uint32_t *__restrict__ q, const uint8_t *__restrict__ absq,
                                                    const float *__restrict__ code, const float *__restrict__ absmax2,
                                                    float offset, uint4 *__restrict__ out, int ngroups8)
{
    __shared__ float lv[16];
    __shared__ float cd[256];
    if (threadIdx.x < 16) lv[threadIdx.x] = nf4_levels[threadIdx.x];
    cd[threadIdx.x] = code[threadIdx.x];
    __syncthreads();
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= ngroups8) return;
    int blk = t >> 3;  // 64 elements = 8 threads
    float am = cd[absq[blk]] * absmax2[blk >> 8] + offset;
    uint32_t w = q[t];
    uint32_t h[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        uint32_t byte = (w >> (8 * k)) & 255u;
        float a = lv[byte >> 4] * am, b = lv[byte & 15] * am;
        h[k] = (uint32_t)f2h(a) | ((uint32_t)f2h(b) << 16);
    }
    out[t] = make_uint4(h[0], h[1], h[2], h[3]);
}

// GPTQ 4-bit GEMV with act-order: qweight int32 [K/8][N] (8 rows of k a word), scales half
// [G][N], qzeros int32 [G][N/8], the group of row k from the loaded g_idx[k]; x staged in shared
// memory; a thread an output column; N = 11,000 (ragged last block)
extern "C" __global__ void __launch_bounds__(256) gptq_gidx_gemv(const float *__restrict__ x,
                                                                 const uint32_t *__restrict__ qw,
                                                                 const unsigned short *__restrict__ scales,
                                                                 const uint32_t *__restrict__ qz,
                                                                 const int *__restrict__ g_idx, float *__restrict__ y,
                                                                 int K, int N)
{
    __shared__ float xs[4096];
    for (int i = threadIdx.x; i < K / 4; i += blockDim.x)
        reinterpret_cast<float4 *>(xs)[i] = reinterpret_cast<const float4 *>(x)[i];
    __syncthreads();
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n >= N) return;
    float acc = 0.f;
    int zsh = 4 * (n & 7);
    for (int k8 = 0; k8 < K / 8; ++k8) {
        uint32_t w = qw[(size_t)k8 * N + n];
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            int k = k8 * 8 + j;
            int gi = __ldg(g_idx + k);
            float s = h2f(scales[(size_t)gi * N + n]);
            int z = (int)((qz[(size_t)gi * (N / 8) + (n >> 3)] >> zsh) & 15u) + 1;
            acc += xs[k] * (float)((int)((w >> (4 * j)) & 15u) - z) * s;
        }
    }
    y[n] = acc;
}

// ------------------------------------------------------------ sequence models --
// ALiBi attention scores over a sliding window of 128 keys: Q, K half [S][H][64], a block 4
// queries of one head (q staged in shared memory), a lane a key (4 rounds of 32), the key row
// read as 8 uint4 by its lane; keys before the sequence start skipped (-inf stored)
extern "C" __global__ void __launch_bounds__(128) alibi_swa_scores(const uint4 *__restrict__ Q,
                                                                   const uint4 *__restrict__ Kc,
                                                                   const float *__restrict__ slopes,
                                                                   float *__restrict__ out, int S, int H, float scale)
{
    const int D = 64, W = 128;
    __shared__ float qs[4][64];
    int h = blockIdx.y;
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int i = blockIdx.x * 4 + warp;
    if (lane < 8 && i < S) {
        uint4 u = Q[((size_t)i * H + h) * (D / 8) + lane];
        uint32_t wd[4] = {u.x, u.y, u.z, u.w};
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            qs[warp][lane * 8 + 2 * k] = h2f((unsigned short)(wd[k] & 0xffffu));
            qs[warp][lane * 8 + 2 * k + 1] = h2f((unsigned short)(wd[k] >> 16));
        }
    }
    __syncthreads();
    if (i >= S) return;
    float sl = slopes[h];
    for (int r = 0; r < W / 32; ++r) {
        int w = r * 32 + lane;
        int j = i - W + 1 + w;
        float sc = -INFINITY;
        if (j >= 0) {
            const uint4 *kr = Kc + ((size_t)j * H + h) * (D / 8);
            float acc = 0.f;
#pragma unroll
            for (int c = 0; c < 8; ++c) {
                uint4 u = kr[c];
                uint32_t wd[4] = {u.x, u.y, u.z, u.w};
#pragma unroll
                for (int k = 0; k < 4; ++k) {
                    acc += qs[warp][c * 8 + 2 * k] * h2f((unsigned short)(wd[k] & 0xffffu));
                    acc += qs[warp][c * 8 + 2 * k + 1] * h2f((unsigned short)(wd[k] >> 16));
                }
            }
            sc = acc * scale - sl * (float)(i - j);
        }
        out[((size_t)h * S + i) * W + w] = sc;
    }
}

// RWKV-4 WKV forward (the numerically stable form): a thread a (batch, channel), a loop over
// T = 1,024 steps of k, v [B][T][C] (C = 1,000), time decay w and bonus u per channel
extern "C" __global__ void rwkv4_wkv_forward(const float *__restrict__ w, const float *__restrict__ u,
                                             const float *__restrict__ k, const float *__restrict__ v,
                                             float *__restrict__ y, int B, int T, int C)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= B * C) return;
    int b = idx / C, c = idx % C;
    float ww = -__expf(w[c]), uu = u[c];
    float aa = 0.f, bb = 0.f, pp = -1e38f;
    size_t off = (size_t)b * T * C + c;
    for (int t = 0; t < T; ++t) {
        size_t ii = off + (size_t)t * C;
        float kk = k[ii], vv = v[ii];
        float q = fmaxf(pp, uu + kk);
        float e1 = __expf(pp - q), e2 = __expf(uu + kk - q);
        y[ii] = (e1 * aa + e2 * vv) / (e1 * bb + e2);
        float q2 = fmaxf(pp + ww, kk);
        float f1 = __expf(pp + ww - q2), f2 = __expf(kk - q2);
        aa = f1 * aa + f2 * vv;
        bb = f1 * bb + f2;
        pp = q2;
    }
}

// Mamba's causal depthwise conv1d (width 4) + SiLU on x [B][D][L] (L = 2,000): a block 512
// steps of one channel, x[t0 - 4 .. t0 + 512) staged by 16-byte cp.async with zero-fill (src
// size 0 before the sequence and past its end), 4 outputs a thread (float4 store)
extern "C" __global__ void __launch_bounds__(128) causal_conv1d_cpasync_zfill(const float *__restrict__ x,
                                                                              const float *__restrict__ wt,
                                                                              const float *__restrict__ bias,
                                                                              float *__restrict__ out, int D, int L)
{
    __shared__ __align__(16) float xs[516];
    int row = blockIdx.y;  // b * D + d
    int d = row % D;
    int t0 = blockIdx.x * 512;
    const float *xr = x + (size_t)row * L;
    for (int c = threadIdx.x; c < 129; c += 128) {
        int t = t0 - 4 + 4 * c;
        int bytes = (t >= 0 && t < L) ? 16 : 0;
        const float *src = xr + (bytes ? t : 0);
        uint32_t dst = (uint32_t)__cvta_generic_to_shared(&xs[4 * c]);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(bytes) : "memory");
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    __syncthreads();
    float w0 = wt[d * 4], w1 = wt[d * 4 + 1], w2 = wt[d * 4 + 2], w3 = wt[d * 4 + 3], bs = bias[d];
    int t = t0 + threadIdx.x * 4;
    if (t >= L) return;
    float r[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
        int s = threadIdx.x * 4 + e + 4;  // xs index of x[t + e]
        float a = bs + w0 * xs[s - 3] + w1 * xs[s - 2] + w2 * xs[s - 1] + w3 * xs[s];
        r[e] = a / (1.f + __expf(-a));
    }
    *reinterpret_cast<float4 *>(out + (size_t)row * L + t) = make_float4(r[0], r[1], r[2], r[3]);
}

// ------------------------------------------------------------ bioinformatics, vision, CFD --
// pair-HMM forward (GATK-style, float, scaled start): a warp a (read, haplotype) pair, lane i
// read position i (reads of 32 bases, quality-derived priors), the anti-diagonal sweep over a
// haplotype of loaded length 64..160 with shuffles for the up and diagonal cells; lane 31
// accumulates the last row; log10 likelihood stored
extern "C" __global__ void pairhmm_forward_warp(const uint8_t *__restrict__ reads, const uint8_t *__restrict__ quals,
                                                const uint8_t *__restrict__ haps, const int *__restrict__ hap_len,
                                                float *__restrict__ out, int npairs)
{
    int pr = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (pr >= npairs) return;
    int hl = hap_len[pr];
    uint8_t rb = reads[pr * 32 + lane];
    int q = quals[pr * 32 + lane];
    float err = __powf(10.f, -0.1f * (float)q);
    float pm = 1.f - err, px = err * (1.f / 3.f);
    const float tMM = 0.9f, tIM = 0.1f, tDM = 0.1f, tMI = 0.05f, tII = 0.9f, tMD = 0.05f, tDD = 0.9f;
    const float init = 1e30f / (float)hl;
    float m1 = 0.f, i1 = 0.f, d1 = 0.f;  // this lane's cell of the previous step (i, j - 1)
    float m2u = 0.f, i2u = 0.f, d2u = 0.f;  // the lane above, two steps ago (i - 1, j - 1)
    float acc = 0.f;
    for (int s = 0; s < hl + 31; ++s) {
        float mu = __shfl_up_sync(0xffffffffu, m1, 1), iu = __shfl_up_sync(0xffffffffu, i1, 1);
        float du = __shfl_up_sync(0xffffffffu, d1, 1);
        int j = s - lane;
        float mn = 0.f, in = 0.f, dn = 0.f;
        float md = m2u, id = i2u, dd = d2u;  // (i - 1, j - 1)
        if (lane == 0) { mu = 0.f; iu = 0.f; du = init; md = 0.f; id = 0.f; dd = init; }
        if (j >= 0 && j < hl) {
            uint8_t hb = haps[pr * 160 + j];
            float prior = (hb == rb) ? pm : px;
            mn = prior * (tMM * md + tIM * id + tDM * dd);
            in = tMI * mu + tII * iu;
            dn = tMD * m1 + tDD * d1;
            if (lane == 31) acc += mn + in;
        }
        m2u = mu; i2u = iu; d2u = du;
        m1 = mn; i1 = in; d1 = dn;
    }
    if (lane == 31) out[pr] = log10f(acc) - 30.f;
}

// HOG cell histograms: uint8 image 1,920 x 1,080, a thread a pixel (blocks of 32 x 8 = 4 cells
// of 8 x 8), central-difference gradients (clamped at the border), unsigned orientation in 9
// bins of 20 degrees with a linear vote into two bins by shared float atomicAdd, the block's
// 4 x 9 bins stored
extern "C" __global__ void __launch_bounds__(256) hog_cell_histogram(const uint8_t *__restrict__ img,
                                                                     float *__restrict__ hist, int W, int H)
{
    __shared__ float hs[4][9];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 32 + tx;
    if (tid < 36) hs[tid / 9][tid % 9] = 0.f;
    __syncthreads();
    int x = blockIdx.x * 32 + tx, y = blockIdx.y * 8 + ty;
    float gx = (float)img[y * W + min(x + 1, W - 1)] - (float)img[y * W + max(x - 1, 0)];
    float gy = (float)img[min(y + 1, H - 1) * W + x] - (float)img[max(y - 1, 0) * W + x];
    float mag = sqrtf(gx * gx + gy * gy);
    float ang = atan2f(gy, gx) * 57.29577951f;
    if (ang < 0.f) ang += 180.f;
    if (ang >= 180.f) ang -= 180.f;
    float fb = ang * (1.f / 20.f) - 0.5f;
    int b0 = (int)floorf(fb);
    float wb = fb - (float)b0;
    int b1 = b0 + 1;
    if (b0 < 0) b0 += 9;
    if (b1 >= 9) b1 -= 9;
    atomicAdd(&hs[tx >> 3][b0], mag * (1.f - wb));
    atomicAdd(&hs[tx >> 3][b1], mag * wb);
    __syncthreads();
    if (tid < 36) {
        int cx = blockIdx.x * 4 + tid / 9;
        hist[((size_t)blockIdx.y * (W / 8) + cx) * 9 + tid % 9] = hs[tid / 9][tid % 9];
    }
}

// Lucas-Kanade optical flow, 5 x 5 window: two float frames 1,242 x 375 (KITTI size), a block
// 16 x 16 pixels, both frames' 22 x 22 tiles (halo 3, clamped) in shared memory, gradients and
// temporal difference in 20 x 20 shared tiles, the 2 x 2 system per pixel, float2 flow stored
extern "C" __global__ void __launch_bounds__(256) lucas_kanade_5x5(const float *__restrict__ I0,
                                                                   const float *__restrict__ I1,
                                                                   float2 *__restrict__ flow, int W, int H)
{
    __shared__ float a[22][23], b[22][23];
    __shared__ float ix[20][21], iy[20][21], it[20][21];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
    int x0 = blockIdx.x * 16 - 3, y0 = blockIdx.y * 16 - 3;
    for (int i = tid; i < 22 * 22; i += 256) {
        int r = i / 22, c = i % 22;
        int gx = min(max(x0 + c, 0), W - 1), gy = min(max(y0 + r, 0), H - 1);
        a[r][c] = I0[gy * W + gx];
        b[r][c] = I1[gy * W + gx];
    }
    __syncthreads();
    for (int i = tid; i < 400; i += 256) {
        int r = i / 20 + 1, c = i % 20 + 1;
        ix[r - 1][c - 1] = 0.5f * (a[r][c + 1] - a[r][c - 1]);
        iy[r - 1][c - 1] = 0.5f * (a[r + 1][c] - a[r - 1][c]);
        it[r - 1][c - 1] = b[r][c] - a[r][c];
    }
    __syncthreads();
    int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
    if (x >= W || y >= H) return;
    float sxx = 0.f, sxy = 0.f, syy = 0.f, sxt = 0.f, syt = 0.f;
#pragma unroll
    for (int dy = 0; dy < 5; ++dy)
#pragma unroll
        for (int dx = 0; dx < 5; ++dx) {
            float gx = ix[ty + dy][tx + dx], gy = iy[ty + dy][tx + dx], gt = it[ty + dy][tx + dx];
            sxx += gx * gx; sxy += gx * gy; syy += gy * gy; sxt += gx * gt; syt += gy * gt;
        }
    float det = sxx * syy - sxy * sxy;
    float2 f = make_float2(0.f, 0.f);
    if (fabsf(det) > 1e-6f) {
        float id = 1.f / det;
        f.x = (-syy * sxt + sxy * syt) * id;
        f.y = (sxy * sxt - sxx * syt) * id;
    }
    flow[y * W + x] = f;
}

// WENO5 (Jiang-Shu) left-biased reconstruction at the x faces of a [64][128][256] field stored
// with 3 ghost cells a side in x (1,048-byte rows): face i + 1/2 for i = -1 .. 255 (257 faces a
// row, 1,028-byte output rows), five loads a face; grid 3 x 8,192 of 128 (ragged third block)
extern "C" __global__ void weno5_face_x(const float *__restrict__ q, float *__restrict__ qL, int NX, int rows)
{
    int f = blockIdx.x * blockDim.x + threadIdx.x;  // face f = i + 1 for i = -1 .. NX - 1
    int r = blockIdx.y;
    if (f > NX || r >= rows) return;
    const float *row = q + (size_t)r * (NX + 6);
    int c = f + 2;  // the cell left of the face, in ghosted indices
    float vm2 = row[c - 2], vm1 = row[c - 1], v0 = row[c], vp1 = row[c + 1], vp2 = row[c + 2];
    float b0 = 13.f / 12.f * (vm2 - 2.f * vm1 + v0) * (vm2 - 2.f * vm1 + v0) + 0.25f * (vm2 - 4.f * vm1 + 3.f * v0) * (vm2 - 4.f * vm1 + 3.f * v0);
    float b1 = 13.f / 12.f * (vm1 - 2.f * v0 + vp1) * (vm1 - 2.f * v0 + vp1) + 0.25f * (vm1 - vp1) * (vm1 - vp1);
    float b2 = 13.f / 12.f * (v0 - 2.f * vp1 + vp2) * (v0 - 2.f * vp1 + vp2) + 0.25f * (3.f * v0 - 4.f * vp1 + vp2) * (3.f * v0 - 4.f * vp1 + vp2);
    const float e = 1e-6f;
    float a0 = 0.1f / ((e + b0) * (e + b0)), a1 = 0.6f / ((e + b1) * (e + b1)), a2 = 0.3f / ((e + b2) * (e + b2));
    float p0 = (2.f * vm2 - 7.f * vm1 + 11.f * v0) / 6.f;
    float p1 = (-vm1 + 5.f * v0 + 2.f * vp1) / 6.f;
    float p2 = (2.f * v0 + 5.f * vp1 - vp2) / 6.f;
    qL[(size_t)r * (NX + 1) + f] = (a0 * p0 + a1 * p1 + a2 * p2) / (a0 + a1 + a2);
}

// ------------------------------------------------------------ sorting, sparse, text --
// sample sort, bucketing pass: 255 sorted splitters in shared memory, a block a tile of 2,048
// uint32 keys (8 a thread, coalesced), the bucket by an 8-step binary search (data-dependent
// shared reads), a uint8 bucket id a key, a shared 256-bin count by atomicAdd, the counts stored
// bucket-major [256][nblocks] for the scan
extern "C" __global__ void __launch_bounds__(256) samplesort_bucket_count(const uint32_t *__restrict__ keys,
                                                                          const uint32_t *__restrict__ splitters,
                                                                          uint8_t *__restrict__ bucket,
                                                                          uint32_t *__restrict__ counts, int n)
{
    __shared__ uint32_t sp[256];
    __shared__ uint32_t cnt[256];
    sp[threadIdx.x] = threadIdx.x < 255 ? splitters[threadIdx.x] : 0xffffffffu;
    cnt[threadIdx.x] = 0;
    __syncthreads();
    int base = blockIdx.x * 2048;
#pragma unroll
    for (int r = 0; r < 8; ++r) {
        int i = base + r * 256 + threadIdx.x;
        if (i < n) {
            uint32_t k = keys[i];
            int lo = 0;  // number of splitters <= k
#pragma unroll
            for (int st = 128; st > 0; st >>= 1)
                if (sp[lo + st - 1] <= k) lo += st;
            bucket[i] = (uint8_t)lo;
            atomicAdd(&cnt[lo], 1u);
        }
    }
    __syncthreads();
    counts[(size_t)threadIdx.x * gridDim.x + blockIdx.x] = cnt[threadIdx.x];
}

// BPE merge-rank lookup: a thread a token position, the pair (tok[i], tok[i + 1]) when both
// are in the same word, its rank from an open-addressing table (2^18 slots of uint64 keys
// a << 32 | b, linear probing, empty = ~0) of 50,000 merges; INT_MAX when not a merge
extern "C" __global__ void bpe_merge_rank_probe(const int *__restrict__ tok, const int *__restrict__ word,
                                                const unsigned long long *__restrict__ keys,
                                                const int *__restrict__ ranks, int *__restrict__ out, int n,
                                                int mask)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int r = 0x7fffffff;
    if (i + 1 < n && word[i] == word[i + 1]) {
        unsigned long long key = ((unsigned long long)(uint32_t)tok[i] << 32) | (uint32_t)tok[i + 1];
        uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ULL) >> 40) & (uint32_t)mask;
        for (int probe = 0; probe <= mask; ++probe) {
            unsigned long long k = keys[h];
            if (k == key) { r = ranks[h]; break; }
            if (k == ~0ULL) break;
            h = (h + 1) & (uint32_t)mask;
        }
    }
    out[i] = r;
}

// SpGEMM symbolic phase (row counting): a warp a row of A (CSR, 49,999 rows), for each
// non-zero a_ik the lanes walk row k of B and insert its columns into the warp's 256-slot
// shared hash table by atomicCAS (linear probing); the number of distinct columns stored
extern "C" __global__ void __launch_bounds__(256) spgemm_row_count_hash(const int *__restrict__ arp,
                                                                        const int *__restrict__ aci,
                                                                        const int *__restrict__ brp,
                                                                        const int *__restrict__ bci,
                                                                        int *__restrict__ cnt, int nrows)
{
    __shared__ int tab[8][256];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int row = blockIdx.x * 8 + warp;
    if (row >= nrows) return;
#pragma unroll
    for (int q = 0; q < 8; ++q) tab[warp][q * 32 + lane] = -1;
    __syncwarp();
    int mine = 0;
    int a0 = arp[row], a1 = arp[row + 1];
    for (int e = a0; e < a1; ++e) {
        int k = aci[e];
        int b0 = brp[k], b1 = brp[k + 1];
        for (int f = b0 + lane; f < b1; f += 32) {
            int j = bci[f];
            int h = (j * 107) & 255;
            while (true) {
                int old = atomicCAS(&tab[warp][h], -1, j);
                if (old == -1) { ++mine; break; }
                if (old == j) break;
                h = (h + 1) & 255;
            }
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) mine += __shfl_xor_sync(0xffffffffu, mine, o);
    if (lane == 0) cnt[row] = mine;
}

// ------------------------------------------------------------ optimizer, Hopper paths --
// Lion optimizer step: float4 over the first n & ~3 elements by a grid-stride loop, the
// ragged tail (n % 4 elements) by the first threads
extern "C" __global__ void lion_update_vec4(float *__restrict__ p, const float *__restrict__ g,
                                            float *__restrict__ m, int n, float lr, float b1, float b2, float wd)
{
    int n4 = n >> 2;
    int stride = gridDim.x * blockDim.x;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = t; i < n4; i += stride) {
        float4 pv = reinterpret_cast<float4 *>(p)[i];
        float4 gv = reinterpret_cast<const float4 *>(g)[i];
        float4 mv = reinterpret_cast<float4 *>(m)[i];
        float c;
        c = b1 * mv.x + (1.f - b1) * gv.x; pv.x -= lr * ((c > 0.f) - (c < 0.f) + wd * pv.x); mv.x = b2 * mv.x + (1.f - b2) * gv.x;
        c = b1 * mv.y + (1.f - b1) * gv.y; pv.y -= lr * ((c > 0.f) - (c < 0.f) + wd * pv.y); mv.y = b2 * mv.y + (1.f - b2) * gv.y;
        c = b1 * mv.z + (1.f - b1) * gv.z; pv.z -= lr * ((c > 0.f) - (c < 0.f) + wd * pv.z); mv.z = b2 * mv.z + (1.f - b2) * gv.z;
        c = b1 * mv.w + (1.f - b1) * gv.w; pv.w -= lr * ((c > 0.f) - (c < 0.f) + wd * pv.w); mv.w = b2 * mv.w + (1.f - b2) * gv.w;
        reinterpret_cast<float4 *>(p)[i] = pv;
        reinterpret_cast<float4 *>(m)[i] = mv;
    }
    int i = n4 * 4 + t;
    if (i < n) {
        float c = b1 * m[i] + (1.f - b1) * g[i];
        p[i] -= lr * ((c > 0.f) - (c < 0.f) + wd * p[i]);
        m[i] = b2 * m[i] + (1.f - b2) * g[i];
    }
}

// embedding-bag pooling with cp.async.bulk: a block a bag of 0..8 rows (loaded length), thread 0
// arms an mbarrier with the bag's bytes and issues one 1,024-byte bulk copy a row (rows of 256
// floats gathered at loaded ids), the block waits on the barrier's phase, a thread a column sums
// the staged rows
extern "C" __global__ void __launch_bounds__(256) bulk_gather_pool_rows(const float *__restrict__ table,
                                                                        const int *__restrict__ ids,
                                                                        const int *__restrict__ lens,
                                                                        float *__restrict__ out)
{
    __shared__ __align__(128) float rows[8][256];
    __shared__ __align__(8) unsigned long long bar;
    uint32_t bar_a = (uint32_t)__cvta_generic_to_shared(&bar);
    int b = blockIdx.x;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar_a), "r"(1) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
    int len = lens[b];
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar_a), "r"(len * 1024)
                     : "memory");
        for (int j = 0; j < len; ++j) {
            int id = ids[b * 8 + j];
            uint32_t dst = (uint32_t)__cvta_generic_to_shared(&rows[j][0]);
            asm volatile(
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(dst),
                "l"(table + (size_t)id * 256), "r"(1024), "r"(bar_a)
                : "memory");
        }
    }
    asm volatile(
        "{\n .reg .pred P1;\n WAIT_%=:\n mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n @!P1 bra WAIT_%=;\n}\n" ::"r"(
            bar_a),
        "r"(0)
        : "memory");
    float s = 0.f;
    for (int j = 0; j < len; ++j) s += rows[j][threadIdx.x];
    out[(size_t)b * 256 + threadIdx.x] = s;
}

// fp16 GEMM tile (C = A B^T, A [M][K], B [N][K] half, K-major) on mma.sync m16n8k16: a block a
// 64 x 64 tile (4 warps of 32 x 32), K in steps of 32 staged by 16-byte cp.async into 64-byte
// rows XOR-swizzled by 16-byte chunk (chunk ^ ((row >> 1) & 3)), fragments by ldmatrix.x4,
// fp32 accumulators stored as float2
extern "C" __global__ void __launch_bounds__(128) ldmatrix_swizzle_hgemm(const unsigned short *__restrict__ A,
                                                                         const unsigned short *__restrict__ B,
                                                                         float *__restrict__ C, int M, int N, int K)
{
    __shared__ __align__(128) unsigned short As[64 * 32], Bs[64 * 32];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int wm = warp >> 1, wn = warp & 1;
    int bm = blockIdx.y * 64, bn = blockIdx.x * 64;
    float acc[2][4][4];
#pragma unroll
    for (int a = 0; a < 2; ++a)
#pragma unroll
        for (int b = 0; b < 4; ++b)
#pragma unroll
            for (int c = 0; c < 4; ++c) acc[a][b][c] = 0.f;
    uint32_t as = (uint32_t)__cvta_generic_to_shared(As), bs = (uint32_t)__cvta_generic_to_shared(Bs);
    for (int k0 = 0; k0 < K; k0 += 32) {
#pragma unroll
        for (int r = 0; r < 2; ++r) {
            int ch = threadIdx.x + r * 128;  // 256 chunks: row ch >> 2, chunk ch & 3
            int row = ch >> 2, c = ch & 3;
            uint32_t off = (uint32_t)(row * 64 + ((c ^ ((row >> 1) & 3)) * 16));
            const unsigned short *ga = A + (size_t)(bm + row) * K + k0 + c * 8;
            const unsigned short *gb = B + (size_t)(bn + row) * K + k0 + c * 8;
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(as + off), "l"(ga) : "memory");
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(bs + off), "l"(gb) : "memory");
        }
        asm volatile("cp.async.commit_group;\n" ::: "memory");
        asm volatile("cp.async.wait_group 0;\n" ::: "memory");
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < 2; ++kk) {
            uint32_t af[2][4], bf[4][2];
#pragma unroll
            for (int mi = 0; mi < 2; ++mi) {
                int row = wm * 32 + mi * 16 + (lane & 15);
                int c = kk * 2 + (lane >> 4);
                uint32_t addr = as + (uint32_t)(row * 64 + ((c ^ ((row >> 1) & 3)) * 16));
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                             : "=r"(af[mi][0]), "=r"(af[mi][1]), "=r"(af[mi][2]), "=r"(af[mi][3])
                             : "r"(addr));
            }
#pragma unroll
            for (int np = 0; np < 2; ++np) {
                int row = wn * 32 + np * 16 + (lane & 7) + ((lane >> 4) << 3);
                int c = kk * 2 + ((lane >> 3) & 1);
                uint32_t addr = bs + (uint32_t)(row * 64 + ((c ^ ((row >> 1) & 3)) * 16));
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                             : "=r"(bf[2 * np][0]), "=r"(bf[2 * np][1]), "=r"(bf[2 * np + 1][0]), "=r"(bf[2 * np + 1][1])
                             : "r"(addr));
            }
#pragma unroll
            for (int mi = 0; mi < 2; ++mi)
#pragma unroll
                for (int ni = 0; ni < 4; ++ni)
                    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                                 "{%8,%9}, {%0,%1,%2,%3};\n"
                                 : "+f"(acc[mi][ni][0]), "+f"(acc[mi][ni][1]), "+f"(acc[mi][ni][2]), "+f"(acc[mi][ni][3])
                                 : "r"(af[mi][0]), "r"(af[mi][1]), "r"(af[mi][2]), "r"(af[mi][3]), "r"(bf[ni][0]),
                                   "r"(bf[ni][1]));
        }
        __syncthreads();
    }
    int g = lane >> 2, tg = lane & 3;
#pragma unroll
    for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) {
            int r = bm + wm * 32 + mi * 16 + g, c = bn + wn * 32 + ni * 8 + 2 * tg;
            *reinterpret_cast<float2 *>(C + (size_t)r * N + c) = make_float2(acc[mi][ni][0], acc[mi][ni][1]);
            *reinterpret_cast<float2 *>(C + (size_t)(r + 8) * N + c) = make_float2(acc[mi][ni][2], acc[mi][ni][3]);
        }
}
