// warpscope twentieth held-out batch (tests/hw/blind20): 20 CUDA kernels in the styles of
// genomics (k-mer sketches, motif scans) and column databases (zone maps, dictionary codes),
// audio and DSP, weather and climate grids, radio astronomy, ML serving (LoRA, speculative
// decoding, int8 KV caches) and recommenders, statistics, geometry, graphs, lattice physics,
// finance and imaging.
// Our own code; only the toolkit's implicit headers.
#include <cstdint>

// ------------------------------------------------------------ genomics and databases --
// k-mer counting into a count-min sketch: DNA packed 2 bits a base (16 bases a uint32, base 0 in
// the low bits), a thread the 16 k-mers (k = 21) that start in its word, the canonical k-mer
// (min of the k-mer and its reverse complement) hashed into 4 rows of 2^20 counters
__device__ __forceinline__ unsigned long long fmix64(unsigned long long k)
{
    k ^= k >> 33; k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}
extern "C" __global__ void kmer_countmin_2bit(const uint32_t *__restrict__ seq, uint32_t *__restrict__ sketch,
                                              int nbases, int nwords)
{
    const int K = 21;
    const unsigned long long KMASK = (1ULL << (2 * K)) - 1;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nwords) return;
    unsigned long long w0 = seq[t];
    unsigned long long w1 = t + 1 < nwords ? seq[t + 1] : 0ULL;
    unsigned long long w2 = t + 2 < nwords ? seq[t + 2] : 0ULL;
    unsigned long long lo = w0 | (w1 << 32);
#pragma unroll 4
    for (int j = 0; j < 16; ++j) {
        int p = t * 16 + j;
        if (p + K > nbases) break;
        unsigned long long km = (lo >> (2 * j)) | (j ? (w2 << (64 - 2 * j)) : 0ULL);
        km &= KMASK;
        unsigned long long rc = __brevll(~km & KMASK);
        rc = ((rc >> 1) & 0x5555555555555555ULL) | ((rc & 0x5555555555555555ULL) << 1);
        rc >>= 64 - 2 * K;
        unsigned long long c = km < rc ? km : rc;
        unsigned long long h1 = fmix64(c), h2 = fmix64(c ^ 0x9e3779b97f4a7c15ULL) | 1ULL;
#pragma unroll
        for (int d = 0; d < 4; ++d) {
            uint32_t col = (uint32_t)((h1 + d * h2) >> 44);
            atomicAdd(&sketch[(d << 20) + col], 1u);
        }
    }
}

// position weight matrix scan of an ASCII DNA text on both strands: the [16][4] log-odds matrix
// in shared memory, a thread a start position, the base code (c >> 1) & 3 (A 0, C 1, T 2, G 3;
// the complement is code ^ 2), hits above a threshold appended to a list by one warp-aggregated
// atomicAdd
extern "C" __global__ void pwm_scan_both_strands(const uint8_t *__restrict__ dna, const float *__restrict__ pwm_g,
                                                 float *__restrict__ score, int *__restrict__ nhits,
                                                 int *__restrict__ hits, int n, float thresh)
{
    __shared__ float pwm[16][4];
    if (threadIdx.x < 64) pwm[threadIdx.x >> 2][threadIdx.x & 3] = pwm_g[threadIdx.x];
    __syncthreads();
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p > n - 16) return;
    float f = 0.f, r = 0.f;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        int b = (dna[p + j] >> 1) & 3;
        f += pwm[j][b];
        r += pwm[15 - j][b ^ 2];
    }
    float s = fmaxf(f, r);
    score[p] = s;
    bool hit = s > thresh;
    unsigned act = __activemask();
    unsigned m = __ballot_sync(act, hit);
    if (m) {
        int lane = threadIdx.x & 31;
        int leader = __ffs(m) - 1;
        int base = 0;
        if (lane == leader) base = atomicAdd(nhits, __popc(m));
        base = __shfl_sync(act, base, leader);
        if (hit) hits[base + __popc(m & ((1u << lane) - 1))] = p;
    }
}

// zone-map pruned filter and sum (column store): a block a 2,048-row segment; the segment's
// (min, max) of the key column decides for the whole block whether it can hold a match; rows
// with lo <= key <= hi add their int64 amount: warp shuffles, a shared atomicAdd, one global
extern "C" __global__ void zonemap_filter_sum(const int *__restrict__ key, const long long *__restrict__ amount,
                                              const int2 *__restrict__ zone, unsigned long long *__restrict__ total,
                                              unsigned *__restrict__ count, int lo, int hi)
{
    __shared__ unsigned long long s_sum;
    __shared__ unsigned s_cnt;
    int seg = blockIdx.x;
    int2 z = zone[seg];
    if (z.y < lo || z.x > hi) return;
    if (threadIdx.x == 0) { s_sum = 0; s_cnt = 0; }
    __syncthreads();
    unsigned long long acc = 0;
    unsigned c = 0;
    for (int k = 0; k < 8; ++k) {
        int row = seg * 2048 + k * 256 + threadIdx.x;
        int v = key[row];
        if (v >= lo && v <= hi) { acc += (unsigned long long)amount[row]; ++c; }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        acc += __shfl_xor_sync(0xffffffffu, acc, o);
        c += __shfl_xor_sync(0xffffffffu, c, o);
    }
    if ((threadIdx.x & 31) == 0 && c) {
        atomicAdd(&s_sum, acc);
        atomicAdd(&s_cnt, c);
    }
    __syncthreads();
    if (threadIdx.x == 0 && s_cnt) {
        atomicAdd(total, s_sum);
        atomicAdd(count, s_cnt);
    }
}

// histogram of a dictionary-encoded column (1,000 codes, skewed): the lanes of a warp holding the
// same code found by __match_any_sync, their leader adds the group's size to a shared histogram,
// the block flushes its non-zero bins with global atomicAdd
extern "C" __global__ void dict_code_hist_match_any(const int *__restrict__ codes, unsigned *__restrict__ hist,
                                                    int ncodes)
{
    __shared__ unsigned sh[1024];
    for (int b = threadIdx.x; b < 1024; b += blockDim.x) sh[b] = 0;
    __syncthreads();
    int lane = threadIdx.x & 31;
    for (int k = 0; k < 8; ++k) {
        int i = blockIdx.x * 2048 + k * 256 + threadIdx.x;
        int c = codes[i];
        unsigned peers = __match_any_sync(0xffffffffu, c);
        if (lane == __ffs(peers) - 1) atomicAdd(&sh[c], (unsigned)__popc(peers));
    }
    __syncthreads();
    for (int b = threadIdx.x; b < ncodes; b += blockDim.x) {
        unsigned v = sh[b];
        if (v) atomicAdd(&hist[b], v);
    }
}

// ------------------------------------------------------- audio, DSP, weather, astronomy --
// a cascade of 4 biquad sections (transposed direct form II) per channel: interleaved samples
// [T][C], a thread a channel, its 20 coefficients ([C][4][5], an 80-byte lane stride) in registers
extern "C" __global__ void biquad_cascade_channels(const float *__restrict__ x, const float *__restrict__ coef,
                                                   float *__restrict__ y, int C, int T)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    float b0[4], b1[4], b2[4], a1[4], a2[4], z1[4], z2[4];
#pragma unroll
    for (int s = 0; s < 4; ++s) {
        const float *q = coef + (size_t)c * 20 + s * 5;
        b0[s] = q[0]; b1[s] = q[1]; b2[s] = q[2]; a1[s] = q[3]; a2[s] = q[4];
        z1[s] = 0.f; z2[s] = 0.f;
    }
    for (int t = 0; t < T; ++t) {
        float v = x[(size_t)t * C + c];
#pragma unroll
        for (int s = 0; s < 4; ++s) {
            float o = b0[s] * v + z1[s];
            z1[s] = b1[s] * v - a1[s] * o + z2[s];
            z2[s] = b2[s] * v - a2[s] * o;
            v = o;
        }
        y[(size_t)t * C + c] = v;
    }
}

// rational resampler 48 kHz -> 44.1 kHz (up 147, down 160) in polyphase form: output o reads the
// 16 taps of phase (160 o) mod 147 (a [147][16] table through __ldg, float4) and the 16 inputs
// ending at floor(160 o / 147)
extern "C" __global__ void polyphase_resample_147_160(const float *__restrict__ x, const float *__restrict__ h,
                                                      float *__restrict__ y, int nout)
{
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= nout) return;
    int t = o * 160;
    int ix = t / 147;
    int ph = t - ix * 147;
    const float4 *hp = reinterpret_cast<const float4 *>(h + ph * 16);
    float acc = 0.f;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        float4 c = __ldg(hp + q);
        int k = 4 * q;
        if (ix - k >= 0) acc += c.x * __ldg(x + ix - k);
        if (ix - k - 1 >= 0) acc += c.y * __ldg(x + ix - k - 1);
        if (ix - k - 2 >= 0) acc += c.z * __ldg(x + ix - k - 2);
        if (ix - k - 3 >= 0) acc += c.w * __ldg(x + ix - k - 3);
    }
    y[o] = acc * 147.f;
}

// Goertzel power of 32 bins a frame: a warp a 256-sample frame, a lane a bin (the bin numbers
// from a table), every sample read by the whole warp at one address
extern "C" __global__ void goertzel_bins(const float *__restrict__ x, const int *__restrict__ bins,
                                         float *__restrict__ power, int nframes)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int frame = g >> 5, lane = g & 31;
    if (frame >= nframes) return;
    float w = 6.28318530718f * (float)bins[lane] / 256.f;
    float cf = 2.f * __cosf(w);
    float s1 = 0.f, s2 = 0.f;
    const float *f = x + (size_t)frame * 256;
    for (int n = 0; n < 256; ++n) {
        float s0 = f[n] + cf * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    power[(size_t)frame * 32 + lane] = s1 * s1 + s2 * s2 - cf * s1 * s2;
}

// 5-point Laplacian on a regular latitude-longitude grid [361][720] (0.5 degrees): periodic in
// longitude (the west and east neighbours wrap), the pole rows' missing neighbour clamped, the
// zonal term scaled by 1 / cos^2(lat) from a per-row table; 2-D blocks, ragged both ways
extern "C" __global__ void latlon_laplacian_wrap(const float *__restrict__ f, const float *__restrict__ icos2,
                                                 float *__restrict__ out, int nlat, int nlon, float rdl2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nlon || j >= nlat) return;
    int ie = i + 1 == nlon ? 0 : i + 1;
    int iw = i == 0 ? nlon - 1 : i - 1;
    int jn = j + 1 < nlat ? j + 1 : j;
    int js = j > 0 ? j - 1 : j;
    const float *row = f + (size_t)j * nlon;
    float c = row[i];
    float zon = (row[ie] + row[iw] - 2.f * c) * icos2[j];
    float mer = f[(size_t)jn * nlon + i] + f[(size_t)js * nlon + i] - 2.f * c;
    out[(size_t)j * nlon + i] = (zon + mer) * rdl2;
}

// first-order upwind flux-form advection on a C-grid [1024][1024]: u on x faces [NY][NX + 1],
// v on y faces [NY + 1][NX]; each face takes the tracer of its upwind cell (the sign of the
// face velocity picks the neighbour), periodic in x, no flux through the y walls
extern "C" __global__ void upwind_flux_2d(const float *__restrict__ q, const float *__restrict__ u,
                                          const float *__restrict__ v, float *__restrict__ dq, int NX, int NY,
                                          float rdx)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= NX || j >= NY) return;
    int ip = i + 1 == NX ? 0 : i + 1;
    int im = i == 0 ? NX - 1 : i - 1;
    const float *qr = q + (size_t)j * NX;
    float uw = u[(size_t)j * (NX + 1) + i], ue = u[(size_t)j * (NX + 1) + i + 1];
    float fw = uw * (uw > 0.f ? qr[im] : qr[i]);
    float fe = ue * (ue > 0.f ? qr[i] : qr[ip]);
    float fs = 0.f, fn = 0.f;
    if (j > 0) {
        float vs = v[(size_t)j * NX + i];
        fs = vs * (vs > 0.f ? q[(size_t)(j - 1) * NX + i] : qr[i]);
    }
    if (j + 1 < NY) {
        float vn = v[(size_t)(j + 1) * NX + i];
        fn = vn * (vn > 0.f ? qr[i] : q[(size_t)(j + 1) * NX + i]);
    }
    dq[(size_t)j * NX + i] = (fw - fe + fs - fn) * rdx;
}

// radio-interferometry gridding: a thread a visibility (u, v, re, im: one float4), a separable
// 7 x 7 convolution kernel from __constant__, complex float2 atomicAdd onto a [2048][2048] grid
__constant__ float vg_taps[7] = {0.0113f, 0.1353f, 0.6065f, 1.0f, 0.6065f, 0.1353f, 0.0113f};
extern "C" __global__ void vis_gridding_w7(const float4 *__restrict__ vis, float2 *__restrict__ grid, int nvis,
                                           int G)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= nvis) return;
    float4 d = vis[k];
    int ui = __float2int_rn(d.x), vi = __float2int_rn(d.y);
    for (int dy = 0; dy < 7; ++dy) {
        float wy = vg_taps[dy];
        float2 *row = grid + (size_t)(vi + dy - 3) * G + (ui - 3);
#pragma unroll
        for (int dx = 0; dx < 7; ++dx) {
            float w = wy * vg_taps[dx];
            atomicAdd(row + dx, make_float2(w * d.z, w * d.w));
        }
    }
}

// ------------------------------------------------------ ML serving, recommenders, statistics --
// LoRA "shrink" of a batch with one adapter per token (punica's BGMV): a warp a token, the
// token's adapter id loaded (-1: none, zeros out), x [1024] and the adapter's A [16][1024] read as
// float4, 16 warp sums by __shfl_xor_sync
extern "C" __global__ void bgmv_lora_shrink(const float *__restrict__ x, const float *__restrict__ A,
                                            const int *__restrict__ lora_idx, float *__restrict__ out, int ntok,
                                            float scale)
{
    const int D = 1024, R = 16;
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (w >= ntok) return;
    int a = lora_idx[w];
    if (a < 0) {
        if (lane < R) out[(size_t)w * R + lane] = 0.f;
        return;
    }
    const float4 *xv = reinterpret_cast<const float4 *>(x + (size_t)w * D);
    float4 xr[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) xr[k] = xv[lane + 32 * k];
    float mine = 0.f;
    for (int r = 0; r < R; ++r) {
        const float4 *av = reinterpret_cast<const float4 *>(A + ((size_t)a * R + r) * D);
        float s = 0.f;
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            float4 c = av[lane + 32 * k];
            s += c.x * xr[k].x + c.y * xr[k].y + c.z * xr[k].z + c.w * xr[k].w;
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        if (lane == r) mine = s;
    }
    if (lane < R) out[(size_t)w * R + lane] = mine * scale;
}

// DLRM dot interaction: a block a sample, the dense vector and 26 embedding rows (27 x 64 floats)
// staged in shared memory with a padded row (65), a warp a row i, lane j < i the dot of rows i
// and j; output [B][64 + 351]: the dense vector then the strict lower triangle (1,660-byte rows)
extern "C" __global__ void dlrm_dot_interact(const float *__restrict__ dense, const float *__restrict__ emb,
                                             float *__restrict__ out)
{
    const int F = 27, D = 64, OUTW = 64 + 351;
    __shared__ float s[F][D + 1];
    int b = blockIdx.x;
    for (int e = threadIdx.x; e < F * D; e += blockDim.x) {
        int fi = e >> 6, k = e & 63;
        s[fi][k] = fi == 0 ? dense[(size_t)b * D + k] : emb[((size_t)b * 26 + fi - 1) * D + k];
    }
    __syncthreads();
    if (threadIdx.x < D) out[(size_t)b * OUTW + threadIdx.x] = s[0][threadIdx.x];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int i = 1 + warp; i < F; i += blockDim.x >> 5) {
        if (lane < i) {
            float acc = 0.f;
#pragma unroll 8
            for (int k = 0; k < D; ++k) acc += s[i][k] * s[lane][k];
            out[(size_t)b * OUTW + D + i * (i - 1) / 2 + lane] = acc;
        }
    }
}

// speculative decoding, the rejection sampler: a warp a request of K = 4 drafted tokens; lane k
// gathers the target and draft probabilities of its token, accepts when u p_draft <= p_target, the
// first rejection by a ballot; then the warp samples the correction (max(p_t - p_d, 0)) or the
// bonus token (p_t of row K) by inverse CDF over the 512-entry row: a sum pass, then a scan pass
// that stops at the first chunk passing the threshold
extern "C" __global__ void spec_decode_accept(const int *__restrict__ draft_tok, const float *__restrict__ p_target,
                                              const float *__restrict__ p_draft, const float *__restrict__ uni,
                                              int *__restrict__ out_tok, int *__restrict__ n_out, int nreq)
{
    const int K = 4, V = 512;
    int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (r >= nreq) return;
    bool rej = false;
    int tok = 0;
    if (lane < K) {
        tok = draft_tok[r * K + lane];
        float pt = p_target[((size_t)r * (K + 1) + lane) * V + tok];
        float pd = p_draft[((size_t)r * K + lane) * V + tok];
        rej = uni[r * (K + 1) + lane] * pd > pt;
    }
    unsigned rm = __ballot_sync(0xffffffffu, rej);
    int n = rm ? __ffs(rm) - 1 : K;
    if (lane < n) out_tok[r * (K + 1) + lane] = tok;
    const float *tr = p_target + ((size_t)r * (K + 1) + n) * V;
    const float *dr = p_draft + ((size_t)r * K + (n < K ? n : 0)) * V;
    float tot = 0.f;
    for (int v = lane; v < V; v += 32) {
        float wv = n < K ? fmaxf(tr[v] - dr[v], 0.f) : tr[v];
        tot += wv;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) tot += __shfl_xor_sync(0xffffffffu, tot, o);
    float thr = uni[r * (K + 1) + K] * tot;
    float run = 0.f;
    int pick = V - 1;
    for (int v0 = 0; v0 < V; v0 += 32) {
        int v = v0 + lane;
        float wv = n < K ? fmaxf(tr[v] - dr[v], 0.f) : tr[v];
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            float up = __shfl_up_sync(0xffffffffu, wv, o);
            if (lane >= o) wv += up;
        }
        unsigned past = __ballot_sync(0xffffffffu, run + wv > thr);
        if (past) { pick = v0 + __ffs(past) - 1; break; }
        run += __shfl_sync(0xffffffffu, wv, 31);
    }
    if (lane == 0) {
        out_tok[r * (K + 1) + n] = pick;
        n_out[r] = n + 1;
    }
}

// decode attention scores against an int8 KV cache [S][H][128] with a float scale per (token,
// head): a block 64 tokens of one head, q staged in shared memory, a warp a token at a time (a
// char4 a lane), the dot by __shfl_xor_sync, scaled; tokens past the sequence length skipped
extern "C" __global__ void int8_kv_dequant_scores(const float *__restrict__ q, const char4 *__restrict__ kc,
                                                  const float *__restrict__ kscale, float *__restrict__ scores,
                                                  int H, int seqlen, int S)
{
    __shared__ float4 qs[32];
    int h = blockIdx.y;
    if (threadIdx.x < 32) qs[threadIdx.x] = reinterpret_cast<const float4 *>(q + (size_t)h * 128)[threadIdx.x];
    __syncthreads();
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int t = 0; t < 16; ++t) {
        int s = blockIdx.x * 64 + warp * 16 + t;
        if (s >= seqlen) break;
        char4 k4 = kc[((size_t)s * H + h) * 32 + lane];
        float4 qv = qs[lane];
        float d = qv.x * k4.x + qv.y * k4.y + qv.z * k4.z + qv.w * k4.w;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) d += __shfl_xor_sync(0xffffffffu, d, o);
        if (lane == 0) scores[(size_t)h * S + s] = d * kscale[(size_t)s * H + h] * 0.08838834764f;
    }
}

// bootstrap means: the 4,096-sample data set staged in shared memory, a thread a replicate of
// 256 draws by its own xorshift32 stream (12-bit indices: random shared reads)
extern "C" __global__ void bootstrap_mean_shared(const float *__restrict__ data, float *__restrict__ means,
                                                 int nrep, uint32_t seed)
{
    __shared__ float sd[4096];
    for (int i = threadIdx.x; i < 4096; i += blockDim.x) sd[i] = data[i];
    __syncthreads();
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nrep) return;
    uint32_t st = seed ^ (uint32_t)(b * 0x9e3779b9u);
    if (st == 0) st = 1;
    float acc = 0.f;
    for (int k = 0; k < 256; ++k) {
        st ^= st << 13; st ^= st >> 17; st ^= st << 5;
        acc += sd[st >> 20];
    }
    means[b] = acc * (1.f / 256.f);
}

// ------------------------------------------- geometry, graphs, lattices, finance, imaging --
// point in polygon by crossing number: the 100 vertices (float2) in shared memory, read by the
// whole block at one address an edge; a byte flag a point, the inside count by ballot and popc
extern "C" __global__ void point_in_polygon_shared(const float2 *__restrict__ pts, const float2 *__restrict__ poly,
                                                   uint8_t *__restrict__ inside, unsigned *__restrict__ ninside,
                                                   int npts, int nv)
{
    __shared__ float2 pv[128];
    if (threadIdx.x < nv) pv[threadIdx.x] = poly[threadIdx.x];
    __syncthreads();
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= npts) return;
    float2 p = pts[k];
    bool in = false;
    for (int e = 0; e < nv; ++e) {
        float2 a = pv[e], b = pv[e + 1 == nv ? 0 : e + 1];
        if ((a.y > p.y) != (b.y > p.y)) {
            float xc = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
            if (p.x < xc) in = !in;
        }
    }
    inside[k] = in;
    unsigned m = __ballot_sync(__activemask(), in);
    if ((threadIdx.x & 31) == __ffs(__activemask()) - 1 && m) atomicAdd(ninside, (unsigned)__popc(m));
}

// one Boruvka step: a thread an edge, the components of its endpoints gathered, an edge between
// two components offers (weight, edge id) to both by a 64-bit atomicMin
extern "C" __global__ void boruvka_min_edge(const int *__restrict__ eu, const int *__restrict__ ev,
                                            const uint32_t *__restrict__ ew, const int *__restrict__ comp,
                                            unsigned long long *__restrict__ best, int ne)
{
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= ne) return;
    int cu = comp[eu[e]], cv = comp[ev[e]];
    if (cu == cv) return;
    unsigned long long key = ((unsigned long long)ew[e] << 32) | (unsigned)e;
    atomicMin(&best[cu], key);
    atomicMin(&best[cv], key);
}

// checkerboard Metropolis sweep of a 2-D Ising model (int8 spins [2048][2048], periodic): the
// sites of one colour, x = 2 x2 + ((y + colour) & 1), four neighbours, the acceptance from a
// Boltzmann table (__constant__, staged in shared memory), a counter-based hash for the random
// number; flipped spins stored
__constant__ float is_boltz[5] = {1.0f, 1.0f, 1.0f, 0.171634f, 0.029458f};  // min(1, exp(-4 beta de)), beta 0.4407
extern "C" __global__ void ising_checkerboard(int8_t *__restrict__ s, int L, int colour, uint32_t sweep)
{
    __shared__ float boltz[5];
    if (threadIdx.x < 5 && threadIdx.y == 0) boltz[threadIdx.x] = is_boltz[threadIdx.x];
    __syncthreads();
    int x2 = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x2 >= L / 2 || y >= L) return;
    int x = 2 * x2 + ((y + colour) & 1);
    int xl = x == 0 ? L - 1 : x - 1, xr = x + 1 == L ? 0 : x + 1;
    int yu = y == 0 ? L - 1 : y - 1, yd = y + 1 == L ? 0 : y + 1;
    int8_t c = s[(size_t)y * L + x];
    int nb = s[(size_t)y * L + xl] + s[(size_t)y * L + xr] + s[(size_t)yu * L + x] + s[(size_t)yd * L + x];
    int de = c * nb;  // -4 .. 4 in steps of 2 (energy change 2 J de)
    uint32_t hsh = (uint32_t)(y * L + x) * 0x9e3779b1u ^ sweep * 0x85ebca77u;
    hsh ^= hsh >> 15; hsh *= 0x2c1b3c6du; hsh ^= hsh >> 12; hsh *= 0x297a2d39u; hsh ^= hsh >> 15;
    float u = (float)(hsh >> 8) * (1.0f / 16777216.0f);
    if (u < boltz[(de + 4) >> 1]) s[(size_t)y * L + x] = -c;
}

// Monte Carlo price of arithmetic-average Asian calls: Philox4x32-10 counters (path, option,
// step group), Box-Muller normals, 64 monitoring dates, a block 256 paths of one option
// (blockIdx.y); the payoff per path, the block's discounted sum by shuffles and one atomicAdd
struct AsianOpt { float s0, k, sigma, r, t; };
__device__ __forceinline__ uint4 philox10(uint4 c, uint2 key)
{
#pragma unroll
    for (int i = 0; i < 10; ++i) {
        uint32_t hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
        uint32_t hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
        c = make_uint4(hi1 ^ c.y ^ key.x, lo1, hi0 ^ c.w ^ key.y, lo0);
        key.x += 0x9E3779B9u; key.y += 0xBB67AE85u;
    }
    return c;
}
extern "C" __global__ void mc_asian_philox(const AsianOpt *__restrict__ opts, float *__restrict__ payoff,
                                           float *__restrict__ price, int npaths, uint32_t seed)
{
    __shared__ float part[8];
    int o = blockIdx.y;
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    AsianOpt op = opts[o];
    float dt = op.t / 64.f;
    float drift = (op.r - 0.5f * op.sigma * op.sigma) * dt, vol = op.sigma * sqrtf(dt);
    float S = op.s0, sum = 0.f;
    for (int g = 0; g < 16; ++g) {
        uint4 u = philox10(make_uint4((uint32_t)p, (uint32_t)o, (uint32_t)g, 0u), make_uint2(seed, 0x12345678u));
        float u0 = ((u.x >> 8) + 1) * (1.0f / 16777217.0f), u1 = (u.y >> 8) * (1.0f / 16777216.0f);
        float u2 = ((u.z >> 8) + 1) * (1.0f / 16777217.0f), u3 = (u.w >> 8) * (1.0f / 16777216.0f);
        float r0 = sqrtf(-2.f * __logf(u0)), r1 = sqrtf(-2.f * __logf(u2));
        float zz[4] = {r0 * __cosf(6.2831853f * u1), r0 * __sinf(6.2831853f * u1), r1 * __cosf(6.2831853f * u3),
                       r1 * __sinf(6.2831853f * u3)};
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            S *= __expf(drift + vol * zz[j]);
            sum += S;
        }
    }
    float pay = fmaxf(sum * (1.f / 64.f) - op.k, 0.f) * __expf(-op.r * op.t);
    if (p < npaths) payoff[(size_t)o * npaths + p] = pay;
    float v = p < npaths ? pay : 0.f;
#pragma unroll
    for (int q = 16; q > 0; q >>= 1) v += __shfl_xor_sync(0xffffffffu, v, q);
    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.f;
        for (int w = 0; w < 8; ++w) t += part[w];
        atomicAdd(&price[o], t / npaths);
    }
}

// CLAHE, the mapping pass: 8 x 8 tiles of a 1,920 x 1,080 uint8 image, each with a 256-entry
// uint8 lookup table ([8][8][256]); a pixel blends the tables of the four nearest tile centres
// at its value (gathers into 256-byte tables); a thread 4 pixels (uchar4 in, uchar4 out)
extern "C" __global__ void clahe_interp_u8(const uchar4 *__restrict__ img, const uint8_t *__restrict__ lut,
                                           uchar4 *__restrict__ out, int W, int H)
{
    int x4 = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x4 * 4 >= W || y >= H) return;
    const float tw = W / 8.f, th = H / 8.f;
    float fy = (y + 0.5f) / th - 0.5f;
    int ty0 = (int)floorf(fy);
    float ay = fy - ty0;
    int ty1 = ty0 + 1;
    ty0 = max(ty0, 0); ty1 = min(ty1, 7);
    uchar4 v = img[(size_t)y * (W / 4) + x4];
    uint8_t px[4] = {v.x, v.y, v.z, v.w};
    uint8_t res[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        int x = x4 * 4 + k;
        float fx = (x + 0.5f) / tw - 0.5f;
        int tx0 = (int)floorf(fx);
        float ax = fx - tx0;
        int tx1 = min(tx0 + 1, 7);
        tx0 = max(tx0, 0);
        const uint8_t *l00 = lut + (ty0 * 8 + tx0) * 256, *l01 = lut + (ty0 * 8 + tx1) * 256;
        const uint8_t *l10 = lut + (ty1 * 8 + tx0) * 256, *l11 = lut + (ty1 * 8 + tx1) * 256;
        int p = px[k];
        float top = (1.f - ax) * l00[p] + ax * l01[p];
        float bot = (1.f - ax) * l10[p] + ax * l11[p];
        res[k] = (uint8_t)fminf((1.f - ay) * top + ay * bot + 0.5f, 255.f);
    }
    out[(size_t)y * (W / 4) + x4] = make_uchar4(res[0], res[1], res[2], res[3]);
}
