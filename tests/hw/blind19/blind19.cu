// warpscope nineteenth held-out batch (tests/hw/blind19): 20 CUDA kernels in the styles of
// hashing and text search, succinct data structures and graph rounds, rasterisation and
// animation, stereo and audio signal paths, finance, multigrid and finite volumes, particle
// codes, detection heads, transposed convolution and recommender training.
// Our own code; only the toolkit's headers.
#include <cstdint>

// ---------------------------------------------------------------- hashing, text, succinct --
// Keccak-f[1600] (SHA-3 family): a thread a pre-padded 136-byte message (17 lanes, a 136-byte
// lane stride), 24 rounds in registers, the first 4 state lanes (32 bytes) out
__constant__ unsigned long long kc_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};
__device__ __forceinline__ unsigned long long rotl64(unsigned long long x, int r)
{
    return (x << r) | (x >> (64 - r));
}
extern "C" __global__ void keccak_f1600_rate136(const unsigned long long *__restrict__ msg,
                                                unsigned long long *__restrict__ digest, int n)
{
    const int rotc[24] = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44};
    const int piln[24] = {10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1};
    int m = blockIdx.x * blockDim.x + threadIdx.x;
    if (m >= n) return;
    unsigned long long st[25], bc[5];
#pragma unroll
    for (int i = 0; i < 25; ++i) st[i] = 0;
#pragma unroll
    for (int i = 0; i < 17; ++i) st[i] = msg[(size_t)m * 17 + i];
    for (int round = 0; round < 24; ++round) {
#pragma unroll
        for (int i = 0; i < 5; ++i) bc[i] = st[i] ^ st[i + 5] ^ st[i + 10] ^ st[i + 15] ^ st[i + 20];
#pragma unroll
        for (int i = 0; i < 5; ++i) {
            unsigned long long t = bc[(i + 4) % 5] ^ rotl64(bc[(i + 1) % 5], 1);
#pragma unroll
            for (int j = 0; j < 25; j += 5) st[j + i] ^= t;
        }
        unsigned long long t = st[1];
#pragma unroll
        for (int i = 0; i < 24; ++i) {
            int j = piln[i];
            unsigned long long b0 = st[j];
            st[j] = rotl64(t, rotc[i]);
            t = b0;
        }
#pragma unroll
        for (int j = 0; j < 25; j += 5) {
#pragma unroll
            for (int i = 0; i < 5; ++i) bc[i] = st[j + i];
#pragma unroll
            for (int i = 0; i < 5; ++i) st[j + i] ^= (~bc[(i + 1) % 5]) & bc[(i + 2) % 5];
        }
        st[0] ^= kc_rc[round];
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) digest[(size_t)m * 4 + i] = st[i];
}

// MurmurHash3 x86_32 of an Arrow-style string column: int32 offsets, uint8 characters, a
// thread a string, 4-byte blocks read byte by byte (unaligned), the tail by a switch
extern "C" __global__ void murmur3_string_column(const int *__restrict__ offsets, const uint8_t *__restrict__ chars,
                                                 uint32_t *__restrict__ out, int n, uint32_t seed)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= n) return;
    int beg = offsets[s];
    int len = offsets[s + 1] - beg;
    const uint8_t *p = chars + beg;
    uint32_t h = seed;
    const uint32_t c1 = 0xcc9e2d51u, c2 = 0x1b873593u;
    int nb = len >> 2;
    for (int b = 0; b < nb; ++b) {
        uint32_t k = (uint32_t)p[4 * b] | ((uint32_t)p[4 * b + 1] << 8) | ((uint32_t)p[4 * b + 2] << 16) |
                     ((uint32_t)p[4 * b + 3] << 24);
        k *= c1; k = (k << 15) | (k >> 17); k *= c2;
        h ^= k; h = (h << 13) | (h >> 19); h = h * 5 + 0xe6546b64u;
    }
    const uint8_t *tail = p + 4 * nb;
    uint32_t k = 0;
    switch (len & 3) {
    case 3: k ^= (uint32_t)tail[2] << 16;
    case 2: k ^= (uint32_t)tail[1] << 8;
    case 1: k ^= tail[0]; k *= c1; k = (k << 15) | (k >> 17); k *= c2; h ^= k;
    }
    h ^= (uint32_t)len;
    h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
    out[s] = h;
}

// MinHash signatures (near-duplicate detection): a warp a document, 64 hash functions (two a
// lane, coefficients staged in shared memory), the document's shingle ids read by the whole
// warp at one address a step
extern "C" __global__ void minhash_sig64(const int *__restrict__ doc_off, const uint32_t *__restrict__ shingles,
                                         const uint32_t *__restrict__ coef, uint32_t *__restrict__ sig, int ndocs)
{
    __shared__ uint32_t ca[64], cb[64];
    if (threadIdx.x < 64) {
        ca[threadIdx.x] = coef[threadIdx.x] | 1u;
        cb[threadIdx.x] = coef[64 + threadIdx.x];
    }
    __syncthreads();
    int doc = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (doc >= ndocs) return;
    uint32_t a0 = ca[lane], b0 = cb[lane], a1 = ca[lane + 32], b1 = cb[lane + 32];
    uint32_t m0 = 0xffffffffu, m1 = 0xffffffffu;
    int beg = doc_off[doc], end = doc_off[doc + 1];
    for (int k = beg; k < end; ++k) {
        uint32_t x = shingles[k];
        uint32_t h0 = a0 * x + b0; h0 ^= h0 >> 15;
        uint32_t h1 = a1 * x + b1; h1 ^= h1 >> 15;
        m0 = min(m0, h0);
        m1 = min(m1, h1);
    }
    sig[(size_t)doc * 64 + lane] = m0;
    sig[(size_t)doc * 64 + 32 + lane] = m1;
}

// succinct bit vector rank1(p): a cumulative count every 512 bits, then the popcounts of the
// words before p inside its superblock (0..15 of them) and of p's own word under a mask
extern "C" __global__ void rank1_bitvector(const uint32_t *__restrict__ bits, const uint32_t *__restrict__ super,
                                           const uint32_t *__restrict__ queries, uint32_t *__restrict__ out, int nq)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= nq) return;
    uint32_t p = queries[q];
    uint32_t sb = p >> 9;
    uint32_t r = super[sb];
    uint32_t w = p >> 5;
    for (uint32_t i = sb << 4; i < w; ++i) r += __popc(bits[i]);
    uint32_t mask = (p & 31) ? (0xffffffffu >> (32 - (p & 31))) : 0u;
    r += __popc(bits[w] & mask);
    out[q] = r;
}

// Shift-And (bitap) exact search of a 12-byte pattern in a DNA text: the 256-entry mask table in
// shared memory, a thread a 64-byte chunk read as 32-bit words from 12 bytes before it (the
// overlap), one table lookup a byte, the match count of the chunk out
extern "C" __global__ void bitap_count_chunks(const uint32_t *__restrict__ text, const uint32_t *__restrict__ masks,
                                              int *__restrict__ counts, int nchunks, int m)
{
    __shared__ uint32_t tab[256];
    tab[threadIdx.x] = masks[threadIdx.x];
    __syncthreads();
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= nchunks) return;
    uint32_t hit = 1u << (m - 1);
    uint32_t D = 0;
    int cnt = 0;
    int w0 = c * 16 - 3;
    for (int w = 0; w < 19; ++w) {
        int wi = w0 + w;
        if (wi < 0) continue;
        uint32_t word = text[wi];
#pragma unroll
        for (int b = 0; b < 4; ++b) {
            D = ((D << 1) | 1u) & tab[(word >> (8 * b)) & 255];
            if (w >= 3 && (D & hit)) ++cnt;
        }
    }
    counts[c] = cnt;
}

// one round of Jones-Plassmann graph colouring: an uncoloured vertex that holds the largest
// (weight, id) among its uncoloured neighbours takes the smallest colour none of its coloured
// neighbours has; the neighbour scan stops at the first larger uncoloured neighbour
extern "C" __global__ void jones_plassmann_round(const int *__restrict__ rowptr, const int *__restrict__ adj,
                                                 const uint32_t *__restrict__ weight, const int *__restrict__ color,
                                                 int *__restrict__ newcolor, int nv)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nv) return;
    int cv = color[v];
    if (cv >= 0) { newcolor[v] = cv; return; }
    uint32_t wv = weight[v];
    uint32_t used = 0;
    bool top = true;
    for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) {
        int u = adj[k];
        int cu = color[u];
        if (cu >= 0) { used |= 1u << cu; continue; }
        uint32_t wu = weight[u];
        if (wu > wv || (wu == wv && u > v)) { top = false; break; }
    }
    newcolor[v] = top ? __ffs(~used) - 1 : -1;
}

// one level of a level-scheduled sparse lower-triangular solve (cuSPARSE csrsv style): the
// level's rows from a loaded list, a thread a row, off-diagonal entries first, diagonal last
extern "C" __global__ void sptrsv_level_csr(const int *__restrict__ rowptr, const int *__restrict__ col,
                                            const float *__restrict__ val, const int *__restrict__ level_rows,
                                            const float *__restrict__ b, float *__restrict__ x, int nrows)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nrows) return;
    int r = level_rows[t];
    int beg = rowptr[r], end = rowptr[r + 1] - 1;
    float s = b[r];
    for (int k = beg; k < end; ++k) s -= val[k] * x[col[k]];
    x[r] = s / val[end];
}

// ---------------------------------------------------------------- graphics and animation --
// z-buffer rasterisation of small integer-snapped triangles: a thread a triangle (a 36-byte
// record of three (x, y, z) ints), its clamped bounding box scanned, edge functions in
// integers, the flat depth merged by atomicMin (red.global.min)
extern "C" __global__ void zbuffer_tri_atomicmin(const int *__restrict__ tris, uint32_t *__restrict__ depth, int ntri,
                                                 int W, int H)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= ntri) return;
    const int *r = tris + (size_t)t * 9;
    int x0 = r[0], y0 = r[1], z0 = r[2], x1 = r[3], y1 = r[4], z1 = r[5], x2 = r[6], y2 = r[7], z2 = r[8];
    int area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
    if (area == 0) return;
    if (area < 0) { int tx = x1; x1 = x2; x2 = tx; int ty = y1; y1 = y2; y2 = ty; }
    int xmin = max(min(x0, min(x1, x2)), 0), xmax = min(max(x0, max(x1, x2)), W - 1);
    int ymin = max(min(y0, min(y1, y2)), 0), ymax = min(max(y0, max(y1, y2)), H - 1);
    uint32_t z = (uint32_t)min(z0, min(z1, z2));
    for (int y = ymin; y <= ymax; ++y)
        for (int x = xmin; x <= xmax; ++x) {
            int e0 = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0);
            int e1 = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1);
            int e2 = (x0 - x2) * (y - y2) - (y0 - y2) * (x - x2);
            if (e0 >= 0 && e1 >= 0 && e2 >= 0) atomicMin(&depth[y * W + x], z);
        }
}

// linear blend skinning: 32-byte vertices (position, 4 packed bone ids, 4 weights) read as two
// float4, 128 bone matrices (3 x 4) staged in shared memory, read at the loaded bone ids;
// float3 positions out (12-byte AoS)
extern "C" __global__ void skinning_lbs4(const float4 *__restrict__ verts, const float *__restrict__ bones,
                                         float *__restrict__ out, int nv, int nbones)
{
    __shared__ float mats[128 * 12];
    for (int i = threadIdx.x; i < nbones * 12; i += blockDim.x) mats[i] = bones[i];
    __syncthreads();
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nv) return;
    float4 a = verts[2 * v];
    float4 w = verts[2 * v + 1];
    uint32_t ids = __float_as_uint(a.w);
    float ox = 0.f, oy = 0.f, oz = 0.f;
    float ws[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float *M = mats + ((ids >> (8 * j)) & 127) * 12;
        float wj = ws[j];
        ox += wj * (M[0] * a.x + M[1] * a.y + M[2] * a.z + M[3]);
        oy += wj * (M[4] * a.x + M[5] * a.y + M[6] * a.z + M[7]);
        oz += wj * (M[8] * a.x + M[9] * a.y + M[10] * a.z + M[11]);
    }
    out[3 * v] = ox;
    out[3 * v + 1] = oy;
    out[3 * v + 2] = oz;
}

// ray / sphere intersection: 24-byte AoS rays (origin, direction), 96 spheres (float4 centre and
// radius) in shared memory, the nearest hit distance and sphere id out
extern "C" __global__ void ray_sphere_nearest(const float *__restrict__ rays, const float4 *__restrict__ spheres,
                                              float *__restrict__ tout, int *__restrict__ idout, int nrays, int nsph)
{
    __shared__ float4 sp[96];
    if (threadIdx.x < nsph) sp[threadIdx.x] = spheres[threadIdx.x];
    __syncthreads();
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrays) return;
    const float *p = rays + (size_t)r * 6;
    float ox = p[0], oy = p[1], oz = p[2], dx = p[3], dy = p[4], dz = p[5];
    float best = 1e30f;
    int bi = -1;
    for (int s = 0; s < nsph; ++s) {
        float4 c = sp[s];
        float lx = c.x - ox, ly = c.y - oy, lz = c.z - oz;
        float tb = lx * dx + ly * dy + lz * dz;
        float d2 = lx * lx + ly * ly + lz * lz - tb * tb;
        float r2 = c.w * c.w;
        if (d2 > r2) continue;
        float th = sqrtf(r2 - d2);
        float t0 = tb - th;
        if (t0 > 1e-4f && t0 < best) { best = t0; bi = s; }
    }
    tout[r] = best;
    idout[r] = bi;
}

// ---------------------------------------------------------------- vision, audio, finance --
// 5 x 5 census transform of a uint8 image (stereo matching): a [12][36] shared tile with a
// clamped halo staged by a strided loop, 24 comparisons a pixel, a 24-bit descriptor out;
// ragged last blocks in both directions
extern "C" __global__ void census5x5_u8(const uint8_t *__restrict__ img, uint32_t *__restrict__ out, int W, int H)
{
    __shared__ uint8_t tile[12][36];
    int bx = blockIdx.x * 32, by = blockIdx.y * 8;
    int tid = threadIdx.y * 32 + threadIdx.x;
    for (int i = tid; i < 12 * 36; i += 256) {
        int ty = i / 36, tx = i % 36;
        int gy = min(max(by + ty - 2, 0), H - 1), gx = min(max(bx + tx - 2, 0), W - 1);
        tile[ty][tx] = img[gy * W + gx];
    }
    __syncthreads();
    int x = bx + threadIdx.x, y = by + threadIdx.y;
    if (x >= W || y >= H) return;
    uint8_t c = tile[threadIdx.y + 2][threadIdx.x + 2];
    uint32_t d = 0;
#pragma unroll
    for (int dy = 0; dy < 5; ++dy)
#pragma unroll
        for (int dx = 0; dx < 5; ++dx) {
            if (dy == 2 && dx == 2) continue;
            d = (d << 1) | (tile[threadIdx.y + dy][threadIdx.x + dx] < c ? 1u : 0u);
        }
    out[y * W + x] = d;
}

// inverse STFT overlap-add: a block a frame of 512 samples (hop 128), the synthesis window in
// shared memory, each windowed sample added into the signal by atomicAdd (red.global.add.f32)
extern "C" __global__ void istft_overlap_add(const float *__restrict__ frames, const float *__restrict__ window,
                                             float *__restrict__ signal, int nfft, int hop)
{
    __shared__ float win[512];
    for (int i = threadIdx.x; i < nfft; i += blockDim.x) win[i] = window[i];
    __syncthreads();
    int f = blockIdx.x;
    for (int i = threadIdx.x; i < nfft; i += blockDim.x)
        atomicAdd(&signal[f * hop + i], frames[(size_t)f * nfft + i] * win[i]);
}

// Cox-Ross-Rubinstein binomial tree for European calls: a block an option (parameters read by
// every thread from SoA arrays), 255 steps of backward induction in a ping-pong shared array
extern "C" __global__ void binomial_option_crr(const float *__restrict__ S, const float *__restrict__ K,
                                               const float *__restrict__ T, const float *__restrict__ vol,
                                               float *__restrict__ price, float rate, int steps)
{
    __shared__ float v[2][256];
    int o = blockIdx.x, t = threadIdx.x;
    float s = S[o], k = K[o], tt = T[o], sg = vol[o];
    float dt = tt / steps;
    float u = __expf(sg * sqrtf(dt)), d = 1.0f / u;
    float disc = __expf(-rate * dt);
    float pu = (__expf(rate * dt) - d) / (u - d), pd = 1.0f - pu;
    if (t <= steps) v[0][t] = fmaxf(s * __powf(u, (float)(2 * t - steps)) - k, 0.0f);
    __syncthreads();
    int cur = 0;
    for (int n = steps - 1; n >= 0; --n) {
        if (t <= n) v[cur ^ 1][t] = disc * (pu * v[cur][t + 1] + pd * v[cur][t]);
        cur ^= 1;
        __syncthreads();
    }
    if (t == 0) price[o] = v[cur][0];
}

// YOLOv3-style detection head decode: NCHW [4][3 x 21][52][52] logits (one 10,816-byte plane a
// channel), a thread an anchor cell, 21 channel reads down the planes, anchors from a __constant__
// table, the class argmax, a 6-float box record (24-byte AoS) out
__constant__ float yolo_anchor[6] = {10.f, 13.f, 16.f, 30.f, 33.f, 23.f};
extern "C" __global__ void yolo_decode_head(const float *__restrict__ in, float *__restrict__ boxes, int B, int H, int W,
                                            int ncls, float stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int HW = H * W;
    if (i >= B * 3 * HW) return;
    int cell = i % HW, a = (i / HW) % 3, b = i / (3 * HW);
    int gx = cell % W, gy = cell / W;
    const float *p = in + ((size_t)b * 3 * (5 + ncls) + a * (5 + ncls)) * HW + cell;
    float tx = p[0], ty = p[HW], tw = p[2 * HW], th = p[3 * HW], to = p[4 * HW];
    float best = -1e30f;
    int bc = 0;
    for (int c = 0; c < ncls; ++c) {
        float v = p[(5 + c) * HW];
        if (v > best) { best = v; bc = c; }
    }
    float *o = boxes + (size_t)i * 6;
    o[0] = (gx + 1.0f / (1.0f + __expf(-tx))) * stride;
    o[1] = (gy + 1.0f / (1.0f + __expf(-ty))) * stride;
    o[2] = __expf(tw) * yolo_anchor[2 * a];
    o[3] = __expf(th) * yolo_anchor[2 * a + 1];
    o[4] = 1.0f / (1.0f + __expf(-to));
    o[5] = (float)bc;
}

// ConvTranspose2d (stride 2, kernel 4, padding 1) in gather form, NCHW [4][16][64][64] to
// [4][8][128][128]: an output pixel takes the 2 x 2 taps of its parity class from every input
// channel; the weight index depends on the pixel's parity (two weights a warp)
extern "C" __global__ void deconv2d_s2k4(const float *__restrict__ in, const float *__restrict__ w,
                                         float *__restrict__ out, int Cin, int Cout, int IH, int IW)
{
    int ox = blockIdx.x * 32 + threadIdx.x, oy = blockIdx.y * 8 + threadIdx.y;
    int n = blockIdx.z / Cout, co = blockIdx.z % Cout;
    int OH = 2 * IH, OW = 2 * IW;
    if (ox >= OW || oy >= OH) return;
    float acc = 0.f;
    int kx0 = (ox + 1) & 1, ky0 = (oy + 1) & 1;
    for (int ci = 0; ci < Cin; ++ci) {
        const float *ip = in + ((size_t)n * Cin + ci) * IH * IW;
        const float *wp = w + ((size_t)ci * Cout + co) * 16;
#pragma unroll
        for (int a = 0; a < 2; ++a) {
            int ky = ky0 + 2 * a;
            int iy = (oy + 1 - ky) >> 1;
            if (iy < 0 || iy >= IH) continue;
#pragma unroll
            for (int c = 0; c < 2; ++c) {
                int kx = kx0 + 2 * c;
                int ix = (ox + 1 - kx) >> 1;
                if (ix < 0 || ix >= IW) continue;
                acc += ip[iy * IW + ix] * wp[ky * 4 + kx];
            }
        }
    }
    out[(((size_t)n * Cout + co) * OH + oy) * OW + ox] = acc;
}

// ---------------------------------------------------------------- numerics and particles --
// multigrid full-weighting restriction (27 points, weights 1/8 .. 1/64) of a vertex-centred
// 193^3 grid to 97^3: a thread a coarse (i, j) column marching in k, fine reads at a lane stride
// of 8 bytes, boundary points injected
extern "C" __global__ void mg_restrict_fw27(const float *__restrict__ fine, float *__restrict__ coarse, int nc)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nc || j >= nc) return;
    int nf = 2 * nc - 1;
    size_t pf = (size_t)nf * nf;
    for (int k = 0; k < nc; ++k) {
        size_t c = ((size_t)k * nc + j) * nc + i;
        size_t f = ((size_t)(2 * k) * nf + 2 * j) * nf + 2 * i;
        if (i == 0 || j == 0 || k == 0 || i == nc - 1 || j == nc - 1 || k == nc - 1) {
            coarse[c] = fine[f];
            continue;
        }
        float s = 0.f;
#pragma unroll
        for (int dz = -1; dz <= 1; ++dz)
#pragma unroll
            for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
                for (int dx = -1; dx <= 1; ++dx) {
                    float wgt = (dx ? 0.5f : 1.f) * (dy ? 0.5f : 1.f) * (dz ? 0.5f : 1.f) * 0.125f;
                    s += wgt * fine[f + dz * pf + dy * nf + dx];
                }
        coarse[c] = s;
    }
}

// 1-D Euler equations, MUSCL reconstruction with the minmod limiter and the Rusanov flux: a
// thread an interface, conserved variables in three SoA arrays, cells f-1 .. f+2 (clamped)
__device__ __forceinline__ float minmod(float a, float b)
{
    return (a * b <= 0.f) ? 0.f : (fabsf(a) < fabsf(b) ? a : b);
}
extern "C" __global__ void euler1d_muscl_rusanov(const float *__restrict__ rho, const float *__restrict__ mom,
                                                 const float *__restrict__ ene, float *__restrict__ frho,
                                                 float *__restrict__ fmom, float *__restrict__ fene, int n)
{
    int f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= n - 1) return;
    int im = max(f - 1, 0), ip = min(f + 2, n - 1);
    const float g = 1.4f;
    float q[3][4];
    const float *arr[3] = {rho, mom, ene};
#pragma unroll
    for (int v = 0; v < 3; ++v) {
        q[v][0] = arr[v][im]; q[v][1] = arr[v][f]; q[v][2] = arr[v][f + 1]; q[v][3] = arr[v][ip];
    }
    float L[3], R[3];
#pragma unroll
    for (int v = 0; v < 3; ++v) {
        L[v] = q[v][1] + 0.5f * minmod(q[v][1] - q[v][0], q[v][2] - q[v][1]);
        R[v] = q[v][2] - 0.5f * minmod(q[v][2] - q[v][1], q[v][3] - q[v][2]);
    }
    float uL = L[1] / L[0], uR = R[1] / R[0];
    float pL = (g - 1.f) * (L[2] - 0.5f * L[0] * uL * uL), pR = (g - 1.f) * (R[2] - 0.5f * R[0] * uR * uR);
    float aL = sqrtf(g * fmaxf(pL, 1e-6f) / L[0]), aR = sqrtf(g * fmaxf(pR, 1e-6f) / R[0]);
    float smax = fmaxf(fabsf(uL) + aL, fabsf(uR) + aR);
    frho[f] = 0.5f * (L[1] + R[1]) - 0.5f * smax * (R[0] - L[0]);
    fmom[f] = 0.5f * (L[1] * uL + pL + R[1] * uR + pR) - 0.5f * smax * (R[1] - L[1]);
    fene[f] = 0.5f * ((L[2] + pL) * uL + (R[2] + pR) * uR) - 0.5f * smax * (R[2] - L[2]);
}

// particle-in-cell charge deposition, cloud-in-cell on a periodic 512 x 512 grid: SoA particle
// positions and charges, four bilinear weights added by atomicAdd (red.global.add.f32)
extern "C" __global__ void pic_deposit_cic2d(const float *__restrict__ px, const float *__restrict__ py,
                                             const float *__restrict__ q, float *__restrict__ rho, int np, int G)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= np) return;
    float x = px[p], y = py[p], c = q[p];
    int i0 = (int)floorf(x), j0 = (int)floorf(y);
    float fx = x - i0, fy = y - j0;
    int i1 = i0 + 1 == G ? 0 : i0 + 1, j1 = j0 + 1 == G ? 0 : j0 + 1;
    atomicAdd(&rho[j0 * G + i0], c * (1.f - fx) * (1.f - fy));
    atomicAdd(&rho[j0 * G + i1], c * fx * (1.f - fy));
    atomicAdd(&rho[j1 * G + i0], c * (1.f - fx) * fy);
    atomicAdd(&rho[j1 * G + i1], c * fx * fy);
}

// strided batched small GEMM (cuBLAS gemmStridedBatched shape, column-free): C_b [6][5] =
// A_b [6][7] B_b [7][5] for 100,000 batches, strides 42 / 35 / 30 floats, a thread an element
extern "C" __global__ void gemm_batched_6x5x7(const float *__restrict__ A, const float *__restrict__ B,
                                              float *__restrict__ C, int batch, int sA, int sB, int sC)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= batch * 30) return;
    int b = t / 30, e = t % 30, i = e / 5, j = e % 5;
    const float *a = A + (size_t)b * sA + i * 7;
    const float *bb = B + (size_t)b * sB + j;
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < 7; ++k) s += a[k] * bb[k * 5];
    C[(size_t)b * sC + e] = s;
}

// matrix-factorisation SGD (Hogwild style, one matching of ratings a launch so no two share a
// user or an item): a warp a rating, a lane a factor of the 32-float user and item rows, the
// prediction by a butterfly, both rows updated in place
extern "C" __global__ void mf_sgd_warp(const int *__restrict__ users, const int *__restrict__ items,
                                       const float *__restrict__ ratings, float *__restrict__ P, float *__restrict__ Q,
                                       int nr, float lr, float reg)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (r >= nr) return;
    int u = users[r], it = items[r];
    float rv = ratings[r];
    float p = P[(size_t)u * 32 + lane], q = Q[(size_t)it * 32 + lane];
    float d = p * q;
#pragma unroll
    for (int o = 16; o; o >>= 1) d += __shfl_xor_sync(0xffffffffu, d, o);
    float err = rv - d;
    P[(size_t)u * 32 + lane] = p + lr * (err * q - reg * p);
    Q[(size_t)it * 32 + lane] = q + lr * (err * p - reg * q);
}
