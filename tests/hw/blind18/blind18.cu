// warpscope eighteenth held-out batch (tests/hw/blind18): 20 CUDA kernels in the styles of
// sparse and dense BLAS storage formats, image codecs and vision, grid algorithms, hashing,
// tensor reshaping and sm_80 tensor-core code. Our own code; only the toolkit's headers.
#include <cstdint>

// ---------------------------------------------------------------- sparse and BLAS storage --
// BSR SpMV with 4 x 4 blocks (cuSPARSE bsrmv style): a warp a block row, 16 lanes a block,
// two blocks a pass; the blocks of a row between loaded row pointers
extern "C" __global__ void bsr_spmv_4x4(const int *__restrict__ rowptr, const int *__restrict__ colind,
                                        const float *__restrict__ val, const float *__restrict__ x,
                                        float *__restrict__ y, int nbr)
{
    int br = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (br >= nbr) return;
    int half = lane >> 4, e = lane & 15, r = e >> 2, c = e & 3;
    int beg = rowptr[br];
    int end = rowptr[br + 1];
    float acc = 0.f;
    for (int k = beg + half; k < end; k += 2) {
        int bc = colind[k];
        float a = val[(size_t)k * 16 + e];
        float xv = x[bc * 4 + c];
        acc += a * xv;
    }
    acc += __shfl_xor_sync(0xffffffffu, acc, 1);
    acc += __shfl_xor_sync(0xffffffffu, acc, 2);
    acc += __shfl_xor_sync(0xffffffffu, acc, 16);
    if (lane < 16 && c == 0)
        y[br * 4 + r] = acc;
}

// packed lower-triangular matrix-vector product (BLAS tpmv, 'L', column-major packed):
// a thread a row, the row's trip count is its index (lanes of a warp differ by one trip)
extern "C" __global__ void tpmv_packed_lower(const float *__restrict__ ap, const float *__restrict__ x,
                                             float *__restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.f;
    for (int j = 0; j <= i; ++j) {
        size_t col0 = (size_t)j * (2 * (size_t)n - j + 1) / 2;
        float a = ap[col0 + (i - j)];
        s += a * __ldg(&x[j]);
    }
    y[i] = s;
}

// general band matrix-vector product (BLAS gbmv band storage, column-major, lda = kl + ku + 1)
extern "C" __global__ void gbmv_band(const float *__restrict__ ab, const float *__restrict__ x,
                                     float *__restrict__ y, int n, int kl, int ku)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int lda = kl + ku + 1;
    int j0 = max(0, i - kl), j1 = min(n - 1, i + ku);
    float s = 0.f;
    for (int j = j0; j <= j1; ++j) {
        float a = ab[(size_t)j * lda + (ku + i - j)];
        float xv = x[j];
        s += a * xv;
    }
    y[i] = s;
}

// LAPACK laswp on a column-major matrix: a thread a column, row interchanges k <-> ipiv[k] in order
extern "C" __global__ void laswp_colmajor(float *__restrict__ a, int lda, int ncol, const int *__restrict__ ipiv, int k1,
                                          int k2)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= ncol) return;
    float *col = a + (size_t)j * lda;
    for (int k = k1; k < k2; ++k) {
        int p = ipiv[k];
        if (p != k) {
            float t = col[k];
            float u = col[p];
            col[k] = u;
            col[p] = t;
        }
    }
}

// blocked Floyd-Warshall, phase 3 for one pivot block: 32 x 32 tiles, a 32 x 8 block, 4 rows a thread
extern "C" __global__ void floyd_warshall_phase3(int *__restrict__ d, int n, int kb)
{
    __shared__ int rowT[32][32];  // d[kb rows][this block's columns]
    __shared__ int colT[32][33];  // d[this block's rows][kb columns]
    int bi = blockIdx.y, bj = blockIdx.x;
    if (bi == kb || bj == kb) return;
    int tx = threadIdx.x, ty = threadIdx.y;
    int j = bj * 32 + tx;
    const int INF = 1 << 29;
    for (int r = ty; r < 32; r += 8) {
        int kr = kb * 32 + r, ir = bi * 32 + r, kc = kb * 32 + tx;
        rowT[r][tx] = (kr < n && j < n) ? d[(size_t)kr * n + j] : INF;
        colT[r][tx] = (ir < n && kc < n) ? d[(size_t)ir * n + kc] : INF;
    }
    __syncthreads();
    for (int r = ty; r < 32; r += 8) {
        int i = bi * 32 + r;
        if (i >= n || j >= n) continue;
        int best = d[(size_t)i * n + j];
        for (int k = 0; k < 32; ++k) {
            int via = colT[r][k] + rowT[k][tx];
            best = min(best, via);
        }
        d[(size_t)i * n + j] = best;
    }
}

// FP32 GEMM on the tensor cores as TF32: mma.sync.m16n8k8 by inline PTX, fragments read by scalar
// shared loads from padded tiles (As [64][20], Bs [16][72]) staged by 16-byte cp.async, two stages
__device__ __forceinline__ unsigned tf32_of(float f)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(f));
    return r;
}
__device__ __forceinline__ void cp_async16(void *smem, const void *gmem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem));
}
extern "C" __global__ void tf32_mma_gemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                         int M, int N, int K)
{
    __shared__ __align__(16) float As[2][64][20];
    __shared__ __align__(16) float Bs[2][16][72];
    int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    int g = lane >> 2, t = lane & 3;
    int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
    int wm = (warp >> 1) * 32, wn = (warp & 1) * 32;
    float acc[2][4][4];
    for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 4; ++b)
            for (int c = 0; c < 4; ++c) acc[a][b][c] = 0.f;
    int nk = K / 16;
    auto stage = [&](int s, int k0) {
        for (int q = tid; q < 256; q += 128) {
            int ar = q >> 2, ac = (q & 3) * 4;
            cp_async16(&As[s][ar][ac], A + (size_t)(m0 + ar) * K + k0 + ac);
            int br = q >> 4, bc = (q & 15) * 4;
            cp_async16(&Bs[s][br][bc], B + (size_t)(k0 + br) * N + n0 + bc);
        }
        asm volatile("cp.async.commit_group;");
    };
    stage(0, 0);
    for (int kt = 0; kt < nk; ++kt) {
        int s = kt & 1;
        if (kt + 1 < nk) {
            stage(s ^ 1, (kt + 1) * 16);
            asm volatile("cp.async.wait_group 1;" ::: "memory");
        } else {
            asm volatile("cp.async.wait_group 0;" ::: "memory");
        }
        __syncthreads();
        for (int kk = 0; kk < 16; kk += 8) {
            unsigned af[2][4], bf[4][2];
            for (int mi = 0; mi < 2; ++mi) {
                int r = wm + mi * 16 + g;
                af[mi][0] = tf32_of(As[s][r][kk + t]);
                af[mi][1] = tf32_of(As[s][r + 8][kk + t]);
                af[mi][2] = tf32_of(As[s][r][kk + t + 4]);
                af[mi][3] = tf32_of(As[s][r + 8][kk + t + 4]);
            }
            for (int ni = 0; ni < 4; ++ni) {
                int c = wn + ni * 8 + g;
                bf[ni][0] = tf32_of(Bs[s][kk + t][c]);
                bf[ni][1] = tf32_of(Bs[s][kk + t + 4][c]);
            }
            for (int mi = 0; mi < 2; ++mi)
                for (int ni = 0; ni < 4; ++ni)
                    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                                 "{%8,%9}, {%0,%1,%2,%3};"
                                 : "+f"(acc[mi][ni][0]), "+f"(acc[mi][ni][1]), "+f"(acc[mi][ni][2]), "+f"(acc[mi][ni][3])
                                 : "r"(af[mi][0]), "r"(af[mi][1]), "r"(af[mi][2]), "r"(af[mi][3]), "r"(bf[ni][0]),
                                   "r"(bf[ni][1]));
        }
        __syncthreads();
    }
    for (int mi = 0; mi < 2; ++mi)
        for (int ni = 0; ni < 4; ++ni) {
            int r = m0 + wm + mi * 16 + g, c = n0 + wn + ni * 8 + 2 * t;
            *reinterpret_cast<float2 *>(&C[(size_t)r * N + c]) = make_float2(acc[mi][ni][0], acc[mi][ni][1]);
            *reinterpret_cast<float2 *>(&C[(size_t)(r + 8) * N + c]) = make_float2(acc[mi][ni][2], acc[mi][ni][3]);
        }
}

// ---------------------------------------------------------------- image codecs and vision --
// JPEG forward 8 x 8 DCT: an 8 x 8 block a tile, level shift, row pass then column pass through a
// [8][9] shared tile, quantised by a 64-entry table read through the read-only path, int16 coefficients
extern "C" __global__ void dct8x8_jpeg(const uint8_t *__restrict__ img, const float *__restrict__ qtab,
                                       int16_t *__restrict__ coef, int W)
{
    __shared__ float tile[8][9];
    __shared__ float tmp[8][9];
    __shared__ float cs[8][8];
    int x = threadIdx.x, y = threadIdx.y;
    int px = blockIdx.x * 8 + x, py = blockIdx.y * 8 + y;
    cs[y][x] = (y == 0 ? 0.35355339f : 0.5f) * cosf((2 * x + 1) * y * 0.19634954f);
    tile[y][x] = (float)img[(size_t)py * W + px] - 128.f;
    __syncthreads();
    float s = 0.f;
    for (int k = 0; k < 8; ++k) s += cs[x][k] * tile[y][k];
    tmp[y][x] = s;
    __syncthreads();
    float t = 0.f;
    for (int k = 0; k < 8; ++k) t += cs[y][k] * tmp[k][x];
    float q = __ldg(&qtab[y * 8 + x]);
    size_t blk = (size_t)blockIdx.y * gridDim.x + blockIdx.x;
    coef[blk * 64 + y * 8 + x] = (int16_t)rintf(t / q);
}

// Canny non-maximum suppression: the two neighbours along the quantised gradient direction
extern "C" __global__ void canny_nms(const float *__restrict__ mag, const uint8_t *__restrict__ dir,
                                     uint8_t *__restrict__ edge, int W, int H, float lo)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    uint8_t out = 0;
    if (x > 0 && y > 0 && x < W - 1 && y < H - 1) {
        float m = mag[(size_t)y * W + x];
        int d = dir[(size_t)y * W + x];
        int dx = d == 2 ? 0 : 1;
        int dy = d == 0 ? 0 : (d == 3 ? -1 : 1);
        float n1 = mag[(size_t)(y + dy) * W + x + dx];
        float n2 = mag[(size_t)(y - dy) * W + x - dx];
        out = (m > lo && m >= n1 && m > n2) ? 255 : 0;
    }
    edge[(size_t)y * W + x] = out;
}

// block-matching stereo: 5 x 5 SAD over disparities 0 .. D-1, left and right tiles (with halos and the
// disparity range) in shared memory, the best disparity stored as a byte
#define ST_BX 32
#define ST_BY 8
#define ST_D 32
extern "C" __global__ void stereo_sad_disparity(const uint8_t *__restrict__ L, const uint8_t *__restrict__ R,
                                                uint8_t *__restrict__ disp, int W, int H)
{
    __shared__ uint8_t lt[ST_BY + 4][ST_BX + 4];
    __shared__ uint8_t rt[ST_BY + 4][ST_BX + 4 + ST_D];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * ST_BX, y0 = blockIdx.y * ST_BY;
    int t = ty * ST_BX + tx;
    for (int i = t; i < (ST_BY + 4) * (ST_BX + 4); i += ST_BX * ST_BY) {
        int r = i / (ST_BX + 4), c = i % (ST_BX + 4);
        int gy = min(max(y0 + r - 2, 0), H - 1), gx = min(max(x0 + c - 2, 0), W - 1);
        lt[r][c] = L[(size_t)gy * W + gx];
    }
    for (int i = t; i < (ST_BY + 4) * (ST_BX + 4 + ST_D); i += ST_BX * ST_BY) {
        int r = i / (ST_BX + 4 + ST_D), c = i % (ST_BX + 4 + ST_D);
        int gy = min(max(y0 + r - 2, 0), H - 1), gx = min(max(x0 + c - 2 - ST_D, 0), W - 1);
        rt[r][c] = R[(size_t)gy * W + gx];
    }
    __syncthreads();
    int best = 0, bcost = 1 << 30;
    for (int d = 0; d < ST_D; ++d) {
        int cost = 0;
        for (int j = 0; j < 5; ++j)
            for (int i = 0; i < 5; ++i) {
                int a = lt[ty + j][tx + i];
                int b = rt[ty + j][tx + i + ST_D - d];
                cost += abs(a - b);
            }
        if (cost < bcost) { bcost = cost; best = d; }
    }
    int x = x0 + tx, y = y0 + ty;
    if (x < W && y < H) disp[(size_t)y * W + x] = (uint8_t)best;
}

// bicubic resize (PyTorch upsample_bicubic2d, align_corners = False, A = -0.75), NCHW, borders clamped
__device__ __forceinline__ float cubic1(float x, float A) { return ((A + 2.f) * x - (A + 3.f)) * x * x + 1.f; }
__device__ __forceinline__ float cubic2(float x, float A) { return ((A * x - 5.f * A) * x + 8.f * A) * x - 4.f * A; }
extern "C" __global__ void resize_bicubic_nchw(const float *__restrict__ in, float *__restrict__ out, int IH, int IW,
                                               int OH, int OW, float sh, float sw)
{
    int ox = blockIdx.x * blockDim.x + threadIdx.x;
    int oy = blockIdx.y * blockDim.y + threadIdx.y;
    int nc = blockIdx.z;
    if (ox >= OW || oy >= OH) return;
    float fy = (oy + 0.5f) * sh - 0.5f, fx = (ox + 0.5f) * sw - 0.5f;
    int iy = (int)floorf(fy), ix = (int)floorf(fx);
    float ty = fy - iy, tx = fx - ix;
    const float A = -0.75f;
    float wy[4] = {cubic2(ty + 1.f, A), cubic1(ty, A), cubic1(1.f - ty, A), cubic2(2.f - ty, A)};
    float wx[4] = {cubic2(tx + 1.f, A), cubic1(tx, A), cubic1(1.f - tx, A), cubic2(2.f - tx, A)};
    const float *src = in + (size_t)nc * IH * IW;
    float acc = 0.f;
    for (int j = 0; j < 4; ++j) {
        int yy = min(max(iy - 1 + j, 0), IH - 1);
        float row = 0.f;
        for (int i = 0; i < 4; ++i) {
            int xx = min(max(ix - 1 + i, 0), IW - 1);
            row += wx[i] * src[(size_t)yy * IW + xx];
        }
        acc += wy[j] * row;
    }
    out[((size_t)nc * OH + oy) * OW + ox] = acc;
}

// marching squares: the 4-bit case of every cell from its corners and its edge-crossing count from a
// 16-entry table in constant memory
__constant__ int ms_edges[16] = {0, 2, 2, 2, 2, 4, 2, 2, 2, 2, 4, 2, 2, 2, 2, 0};
extern "C" __global__ void marching_squares_cases(const float *__restrict__ f, uint8_t *__restrict__ cases,
                                                  int *__restrict__ nedge, int W, int H, float iso)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W - 1 || y >= H - 1) return;
    float v0 = f[(size_t)y * W + x];
    float v1 = f[(size_t)y * W + x + 1];
    float v2 = f[(size_t)(y + 1) * W + x + 1];
    float v3 = f[(size_t)(y + 1) * W + x];
    int c = (v0 > iso) | ((v1 > iso) << 1) | ((v2 > iso) << 2) | ((v3 > iso) << 3);
    cases[(size_t)y * (W - 1) + x] = (uint8_t)c;
    nedge[(size_t)y * (W - 1) + x] = ms_edges[c];
}

// 64-point FFTs down the columns of a complex [64][W] array: three Stockham radix-4 stages in a
// [64][33] float2 shared tile, a 32 x 16 block for 32 columns (a thread one radix-4 butterfly a stage)
extern "C" __global__ void fft64_radix4_cols(const float2 *__restrict__ in, float2 *__restrict__ out, int W)
{
    __shared__ float2 s[64][33];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * 32 + tx;
    bool ok = col < W;
    for (int r = 0; r < 4; ++r)
        s[ty + 16 * r][tx] = ok ? in[(size_t)(ty + 16 * r) * W + col] : make_float2(0.f, 0.f);
    __syncthreads();
    for (int ns = 1; ns < 64; ns *= 4) {
        float2 v[4];
        int k = ty % ns;
        float ang = -6.2831853f * k / (ns * 4);
        for (int r = 0; r < 4; ++r) {
            float2 a = s[ty + 16 * r][tx];
            float sn, cn;
            sincosf(r * ang, &sn, &cn);
            v[r] = make_float2(a.x * cn - a.y * sn, a.x * sn + a.y * cn);
        }
        // 4-point DFT with w = -i
        float2 a0 = make_float2(v[0].x + v[2].x, v[0].y + v[2].y), a1 = make_float2(v[0].x - v[2].x, v[0].y - v[2].y);
        float2 b0 = make_float2(v[1].x + v[3].x, v[1].y + v[3].y), b1 = make_float2(v[1].x - v[3].x, v[1].y - v[3].y);
        float2 o[4] = {make_float2(a0.x + b0.x, a0.y + b0.y), make_float2(a1.x + b1.y, a1.y - b1.x),
                       make_float2(a0.x - b0.x, a0.y - b0.y), make_float2(a1.x - b1.y, a1.y + b1.x)};
        __syncthreads();
        int idx = (ty / ns) * ns * 4 + k;
        for (int r = 0; r < 4; ++r) s[idx + r * ns][tx] = o[r];
        __syncthreads();
    }
    if (ok)
        for (int r = 0; r < 4; ++r) out[(size_t)(ty + 16 * r) * W + col] = s[ty + 16 * r][tx];
}

// ---------------------------------------------------------------- grid algorithms and cellular automata --
// one jump-flooding step (Voronoi / distance transform): 9 candidates at offsets of k pixels, their
// seeds (int2, -1 for none) compared by squared distance
extern "C" __global__ void jfa_step(const int2 *__restrict__ in, int2 *__restrict__ out, int W, int H, int k)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    int2 best = in[(size_t)y * W + x];
    int bd = best.x < 0 ? 0x7fffffff : (best.x - x) * (best.x - x) + (best.y - y) * (best.y - y);
    for (int j = -1; j <= 1; ++j)
        for (int i = -1; i <= 1; ++i) {
            if (i == 0 && j == 0) continue;
            int xx = x + i * k, yy = y + j * k;
            if (xx < 0 || yy < 0 || xx >= W || yy >= H) continue;
            int2 s = in[(size_t)yy * W + xx];
            if (s.x < 0) continue;
            int dd = (s.x - x) * (s.x - x) + (s.y - y) * (s.y - y);
            if (dd < bd) { bd = dd; best = s; }
        }
    out[(size_t)y * W + x] = best;
}

// Conway's life on a bit-packed torus: 32 cells a word, a thread a word, 9 words read
extern "C" __global__ void life_bitpacked(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, int WW, int H)
{
    int wx = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (wx >= WW || y >= H) return;
    int xl = wx == 0 ? WW - 1 : wx - 1, xr = wx == WW - 1 ? 0 : wx + 1;
    int yu = y == 0 ? H - 1 : y - 1, yd = y == H - 1 ? 0 : y + 1;
    uint32_t u = in[(size_t)yu * WW + wx], ul = in[(size_t)yu * WW + xl], ur = in[(size_t)yu * WW + xr];
    uint32_t c = in[(size_t)y * WW + wx], cl = in[(size_t)y * WW + xl], cr = in[(size_t)y * WW + xr];
    uint32_t d = in[(size_t)yd * WW + wx], dl = in[(size_t)yd * WW + xl], dr = in[(size_t)yd * WW + xr];
    uint32_t res = 0;
    for (int b = 0; b < 32; ++b) {
        // bit b is cell 32 wx + b; its left neighbour is bit b - 1 (or bit 31 of the left word)
        auto at = [&](uint32_t w, uint32_t wl, uint32_t wr, int bb) -> int {
            if (bb < 0) return (wl >> 31) & 1;
            if (bb > 31) return wr & 1;
            return (w >> bb) & 1;
        };
        int n = at(u, ul, ur, b - 1) + at(u, ul, ur, b) + at(u, ul, ur, b + 1) + at(c, cl, cr, b - 1) +
                at(c, cl, cr, b + 1) + at(d, dl, dr, b - 1) + at(d, dl, dr, b) + at(d, dl, dr, b + 1);
        int alive = (c >> b) & 1;
        res |= (uint32_t)(n == 3 || (alive && n == 2)) << b;
    }
    out[(size_t)y * WW + wx] = res;
}

// point-cloud voxelisation into a 128^3 occupancy bit grid: float3 points (12-byte AoS), atomicOr of one bit
extern "C" __global__ void voxelize_atomicor(const float *__restrict__ pts, uint32_t *__restrict__ grid, int n, int G)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float px = pts[3 * (size_t)i], py = pts[3 * (size_t)i + 1], pz = pts[3 * (size_t)i + 2];
    int vx = min((int)(px * G), G - 1), vy = min((int)(py * G), G - 1), vz = min((int)(pz * G), G - 1);
    size_t word = ((size_t)vz * G + vy) * (G / 32) + (vx >> 5);
    atomicOr(&grid[word], 1u << (vx & 31));
}

// in-place transpose of a square matrix: a block owns the tile pair (by, bx) / (bx, by) with by <= bx,
// both in [32][33] shared tiles, the diagonal tiles alone; ragged edge
extern "C" __global__ void transpose_inplace_sq(float *__restrict__ a, int n)
{
    __shared__ float t1[32][33];
    __shared__ float t2[32][33];
    int bx = blockIdx.x, by = blockIdx.y;
    if (by > bx) return;
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int r = ty; r < 32; r += 8) {
        int i = by * 32 + r, j = bx * 32 + tx;
        if (i < n && j < n) t1[r][tx] = a[(size_t)i * n + j];
        if (bx != by) {
            int i2 = bx * 32 + r, j2 = by * 32 + tx;
            if (i2 < n && j2 < n) t2[r][tx] = a[(size_t)i2 * n + j2];
        }
    }
    __syncthreads();
    for (int r = ty; r < 32; r += 8) {
        int i = bx * 32 + r, j = by * 32 + tx;
        if (i < n && j < n) a[(size_t)i * n + j] = t1[tx][r];
        if (bx != by) {
            int i2 = by * 32 + r, j2 = bx * 32 + tx;
            if (i2 < n && j2 < n) a[(size_t)i2 * n + j2] = t2[tx][r];
        }
    }
}

// ---------------------------------------------------------------- hashing and tensor reshaping --
// CRC-32 (IEEE, reflected) of 64-byte records by slicing-by-4: the 4 x 256 tables in shared memory,
// each record read as four uint4
extern "C" __global__ void crc32_slice4(const uint4 *__restrict__ msg, const uint32_t *__restrict__ tables,
                                        uint32_t *__restrict__ crc_out, int n)
{
    __shared__ uint32_t T[4][256];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) T[i >> 8][i & 255] = tables[i];
    __syncthreads();
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n) return;
    uint32_t crc = 0xffffffffu;
    for (int q = 0; q < 4; ++q) {
        uint4 w = msg[(size_t)r * 4 + q];
        uint32_t ws[4] = {w.x, w.y, w.z, w.w};
        for (int k = 0; k < 4; ++k) {
            crc ^= ws[k];
            crc = T[3][crc & 255] ^ T[2][(crc >> 8) & 255] ^ T[1][(crc >> 16) & 255] ^ T[0][crc >> 24];
        }
    }
    crc_out[r] = ~crc;
}

// Kronecker product of two row-major matrices, out [m p][n q], streaming (__stcs) stores
extern "C" __global__ void kron_2d(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ out,
                                   int m, int n, int p, int q)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= m * p || c >= n * q) return;
    float a = A[(r / p) * n + c / q];
    float b = B[(r % p) * q + c % q];
    __stcs(&out[(size_t)r * n * q + c], a * b);
}

// TensorFlow gather_nd: int64 index triples [N][3] into params [D0][D1][D2][16] floats, 4 threads a
// slice, a float4 each through the read-only path
extern "C" __global__ void gather_nd_i64x3(const float4 *__restrict__ params, const long long *__restrict__ idx,
                                           float4 *__restrict__ out, int nidx, int D1, int D2)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int i = t >> 2, c = t & 3;
    if (i >= nidx) return;
    long long a = idx[3 * (size_t)i];
    long long b = idx[3 * (size_t)i + 1];
    long long d = idx[3 * (size_t)i + 2];
    size_t slice = ((size_t)a * D1 + b) * D2 + d;
    float4 v = __ldg(&params[slice * 4 + c]);
    out[(size_t)i * 4 + c] = v;
}

// torch.roll over the last two dims of an NCHW tensor: a thread an output element, wrapped source
extern "C" __global__ void roll2d_nchw(const float *__restrict__ in, float *__restrict__ out, int NC, int H, int W, int sh,
                                       int sw)
{
    size_t e = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t total = (size_t)NC * H * W;
    if (e >= total) return;
    int w = (int)(e % W);
    int h = (int)((e / W) % H);
    size_t nc = e / ((size_t)W * H);
    int hs = (h - sh) % H;
    if (hs < 0) hs += H;
    int ws = (w - sw) % W;
    if (ws < 0) ws += W;
    out[e] = in[(nc * H + hs) * W + ws];
}
