// warpscope thirteenth held-out batch (tests/hw/blind13): hand-written CUDA
// with the modern memory paths, in the styles of real projects: a
// CUTLASS-style multistage cp.async GEMM (XOR-swizzled shared tiles read by
// ldmatrix / ldmatrix.trans, an stmatrix epilogue), a FlashAttention-2-style
// forward with cp.async K/V tiles, a warp-specialised TMA pipeline on
// mbarriers (expect_tx), a 1-D bulk copy in and out, a wgmma tile on shared
// descriptors, llama.cpp-style q4_0 / q8_0 mat-vecs on packed blocks, a
// FlashInfer-style paged KV decode, a CUB-style radix histogram with shared
// atomics, a segmented reduction, a 3-D stencil with halo, a padded
// transpose, an int8 dp4a GEMV, an embedding bag, vectorised fp16 / float4
// elementwise kernels with heads and tails, a warp-shuffle row norm and a
// cooperative-groups tiled-partition scan.  Our own code; only the toolkit's
// headers.  Every loop bound comes from a parameter or is bounded; each access
// of interest is on its own source line.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
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
static __device__ __forceinline__ void cp_async16(unsigned dst, const void* src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}
static __device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> static __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

// -------------------------------------------------------------- CUTLASS-style GEMM --

// C[M x N] (fp16) = A[M x K] (fp16, row-major) * B[K x N] (fp16, row-major), fp32
// accumulation.  Block tile 64 x 64 x 32, 4 warps of 32 x 32, 3-stage cp.async
// pipeline.  A's rows are 64 bytes (4 chunks of 16): chunk c of row r sits at chunk
// c ^ ((r >> 1) & 3); B's rows are 128 bytes: chunk c ^ (r & 7).  A is read by
// ldmatrix.x4, B by ldmatrix.x4.trans; the epilogue packs the accumulators to half2,
// writes them with stmatrix.x4 into a swizzled 64 x 64 tile and copies that out by
// 16-byte rows.
#define GS 3
extern "C" __global__ void LB(128) cutlass_gemm_cpasync_swz(const __half* __restrict__ A, const __half* __restrict__ B,
                                                           __half* __restrict__ C, int M, int N, int K)
{
    __shared__ alignas(128) uint8_t sA[GS][64 * 64];
    __shared__ alignas(128) uint8_t sB[GS][32 * 128];
    __shared__ alignas(128) uint8_t sC[64 * 128];
    const int t = threadIdx.x, w = t >> 5, lane = t & 31;
    const int bm = blockIdx.y * 64, bn = blockIdx.x * 64;
    const int wm = (w >> 1) * 32, wn = (w & 1) * 32;
    const int KT = K / 32;
    auto load_tile = [&](int stage, int kt) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int id = t + i * 128;
            const int r = id >> 2, c = id & 3;
            const __half* src = A + (size_t)(bm + r) * K + kt * 32 + c * 8;
            cp_async16(smem_u32(&sA[stage][r * 64 + ((c ^ ((r >> 1) & 3)) << 4)]), src);
        }
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int id = t + i * 128;
            const int r = id >> 3, c = id & 7;
            const __half* src = B + (size_t)(kt * 32 + r) * N + bn + c * 8;
            cp_async16(smem_u32(&sB[stage][r * 128 + ((c ^ (r & 7)) << 4)]), src);
        }
    };
    float acc[2][4][4];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int k = 0; k < 4; ++k) acc[i][j][k] = 0.0f;
#pragma unroll
    for (int s = 0; s < GS - 1; ++s) {
        if (s < KT) load_tile(s, s);
        cp_async_commit();
    }
    for (int kt = 0; kt < KT; ++kt) {
        cp_async_wait<GS - 2>();
        __syncthreads();
        const int st = kt % GS;
#pragma unroll
        for (int kk = 0; kk < 2; ++kk) {
            unsigned a[2][4], b[2][4];
#pragma unroll
            for (int mi = 0; mi < 2; ++mi) {
                const int r = wm + mi * 16 + (lane & 7) + ((lane >> 3) & 1) * 8;
                const int c = kk * 2 + (lane >> 4);
                const unsigned addr = smem_u32(&sA[st][r * 64 + ((c ^ ((r >> 1) & 3)) << 4)]);
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                             : "=r"(a[mi][0]), "=r"(a[mi][1]), "=r"(a[mi][2]), "=r"(a[mi][3])
                             : "r"(addr));
            }
#pragma unroll
            for (int nj = 0; nj < 2; ++nj) {
                const int r = kk * 16 + (lane & 7) + ((lane >> 3) & 1) * 8;
                const int c = (wn + nj * 16) / 8 + (lane >> 4);
                const unsigned addr = smem_u32(&sB[st][r * 128 + ((c ^ (r & 7)) << 4)]);
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                             : "=r"(b[nj][0]), "=r"(b[nj][1]), "=r"(b[nj][2]), "=r"(b[nj][3])
                             : "r"(addr));
            }
#pragma unroll
            for (int mi = 0; mi < 2; ++mi)
#pragma unroll
                for (int ni = 0; ni < 4; ++ni) {
                    const unsigned b0 = b[ni >> 1][(ni & 1) * 2], b1 = b[ni >> 1][(ni & 1) * 2 + 1];
                    float* d = acc[mi][ni];
                    asm volatile(
                        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                        "{%0, %1, %2, %3};"
                        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                        : "r"(a[mi][0]), "r"(a[mi][1]), "r"(a[mi][2]), "r"(a[mi][3]), "r"(b0), "r"(b1));
                }
        }
        if (kt + GS - 1 < KT) load_tile((kt + GS - 1) % GS, kt + GS - 1);
        cp_async_commit();
    }
    cp_async_wait<0>();
    // epilogue: stmatrix.x4 of a 16 x 16 block (two n8 tiles) per call
#pragma unroll
    for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int nj = 0; nj < 2; ++nj) {
            unsigned r[4];
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const float* d = acc[mi][nj * 2 + h];
                const __half2 lo = __floats2half2_rn(d[0], d[1]), hi = __floats2half2_rn(d[2], d[3]);
                r[h * 2] = *reinterpret_cast<const unsigned*>(&lo);
                r[h * 2 + 1] = *reinterpret_cast<const unsigned*>(&hi);
            }
            const int row = wm + mi * 16 + (lane & 7) + ((lane >> 3) & 1) * 8;
            const int c = (wn + nj * 16) / 8 + (lane >> 4);
            const unsigned addr = smem_u32(&sC[row * 128 + ((c ^ (row & 7)) << 4)]);
            asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r[0]), "r"(r[1]),
                         "r"(r[2]), "r"(r[3])
                         : "memory");
        }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int id = t + i * 128;
        const int r = id >> 3, c = id & 7;
        const uint4 v = *reinterpret_cast<const uint4*>(&sC[r * 128 + ((c ^ (r & 7)) << 4)]);
        *reinterpret_cast<uint4*>(C + (size_t)(bm + r) * N + bn + c * 8) = v;
    }
}

// ---------------------------------------------------- FlashAttention-2-style forward --

// O = softmax(Q K^T / sqrt(64)) V per head, head_dim 64, fp16 in and out, no mask.
// A thread owns a query row (64 threads = 64 rows a block); K and V tiles of 64
// keys are double-buffered in shared memory by cp.async (8 + 8 chunks of 16 bytes
// a thread a tile); the scores use an online softmax in fp32.
extern "C" __global__ void LB(64) flash_fwd_cpasync(const __half* __restrict__ Q, const __half* __restrict__ Kc,
                                                   const __half* __restrict__ Vc, __half* __restrict__ O, int seq,
                                                   float scale)
{
    __shared__ alignas(16) __half sK[2][64 * 64];
    __shared__ alignas(16) __half sV[2][64 * 64];
    const int t = threadIdx.x;
    const int head = blockIdx.y;
    const size_t hoff = (size_t)head * seq * 64;
    const int qrow = blockIdx.x * 64 + t;
    float q[64], o[64];
    const uint4* qp = reinterpret_cast<const uint4*>(Q + hoff + (size_t)qrow * 64);
#pragma unroll
    for (int c = 0; c < 8; ++c) {
        const uint4 v = qp[c];
        const __half2* h = reinterpret_cast<const __half2*>(&v);
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const float2 f = __half22float2(h[k]);
            q[c * 8 + 2 * k] = f.x * scale;
            q[c * 8 + 2 * k + 1] = f.y * scale;
        }
    }
#pragma unroll
    for (int d = 0; d < 64; ++d) o[d] = 0.0f;
    float m = -INFINITY, l = 0.0f;
    const int ntiles = seq / 64;
    auto load_kv = [&](int buf, int tile) {
#pragma unroll
        for (int i = 0; i < 8; ++i) {
            const int id = t + i * 64;  // 512 chunks of 16 bytes
            const size_t g = hoff + (size_t)tile * 64 * 64 + id * 8;
            cp_async16(smem_u32(&sK[buf][id * 8]), Kc + g);
        }
#pragma unroll
        for (int i = 0; i < 8; ++i) {
            const int id = t + i * 64;
            const size_t g = hoff + (size_t)tile * 64 * 64 + id * 8;
            cp_async16(smem_u32(&sV[buf][id * 8]), Vc + g);
        }
        cp_async_commit();
    };
    load_kv(0, 0);
    for (int j = 0; j < ntiles; ++j) {
        if (j + 1 < ntiles) {
            load_kv((j + 1) & 1, j + 1);
            cp_async_wait<1>();
        } else {
            cp_async_wait<0>();
        }
        __syncthreads();
        const __half* k = sK[j & 1];
        const __half* v = sV[j & 1];
        for (int kj = 0; kj < 64; ++kj) {
            float s = 0.0f;
            const __half2* kr = reinterpret_cast<const __half2*>(k + kj * 64);
#pragma unroll
            for (int d = 0; d < 32; ++d) {
                const float2 f = __half22float2(kr[d]);
                s += q[2 * d] * f.x + q[2 * d + 1] * f.y;
            }
            const float mn = fmaxf(m, s);
            const float corr = __expf(m - mn);
            const float p = __expf(s - mn);
            l = l * corr + p;
            const __half2* vr = reinterpret_cast<const __half2*>(v + kj * 64);
#pragma unroll
            for (int d = 0; d < 32; ++d) {
                const float2 f = __half22float2(vr[d]);
                o[2 * d] = o[2 * d] * corr + p * f.x;
                o[2 * d + 1] = o[2 * d + 1] * corr + p * f.y;
            }
            m = mn;
        }
        __syncthreads();
    }
    const float inv = 1.0f / l;
    uint4* op = reinterpret_cast<uint4*>(O + hoff + (size_t)qrow * 64);
#pragma unroll
    for (int c = 0; c < 8; ++c) {
        uint4 v;
        __half2* h = reinterpret_cast<__half2*>(&v);
#pragma unroll
        for (int k = 0; k < 4; ++k) h[k] = __floats2half2_rn(o[c * 8 + 2 * k] * inv, o[c * 8 + 2 * k + 1] * inv);
        op[c] = v;
    }
}

// ----------------------------------------------------- warp-specialised TMA pipeline --

// Column sums of a 2,048 x 2,048 float32 matrix: CTA b owns the 32-column strip
// b and walks its 32 tiles of 64 rows (box 32 x 64, 8 KiB).  Warp 8 is the
// producer: lane 0 waits on the stage's empty barrier, posts expect_tx and issues
// the TMA load; warps 0..7 wait on the full barrier, read 8 rows each (a lane a
// column), and release the stage (one arrive a warp).  Three stages.
#define TS 3
extern "C" __global__ void LB(288) tma_ws_pipeline_colsum(const __grid_constant__ TensorMap128 tm, float* __restrict__ out,
                                                         int ntiles)
{
    __shared__ alignas(128) float tile[TS][64 * 32];
    __shared__ alignas(8) uint64_t full[TS], empty[TS];
    __shared__ float part[8][32];
    const int t = threadIdx.x, w = t >> 5, lane = t & 31;
    if (t == 0) {
        for (int s = 0; s < TS; ++s) {
            mbar_init(smem_u32(&full[s]), 1);
            mbar_init(smem_u32(&empty[s]), 8);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (w == 8) {
        if (lane == 0) {
            for (int k = 0; k < ntiles; ++k) {
                const int s = k % TS;
                if (k >= TS) mbar_wait(smem_u32(&empty[s]), ((k / TS) - 1) & 1);
                const unsigned fb = smem_u32(&full[s]);
                asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(fb), "r"(64 * 32 * 4) : "memory");
                asm volatile(
                    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
                    "[%4];" ::"r"(smem_u32(tile[s])),
                    "l"(&tm), "r"(blockIdx.x * 32), "r"(k * 64), "r"(fb)
                    : "memory");
            }
        }
        return;
    }
    float acc = 0.0f;
    for (int k = 0; k < ntiles; ++k) {
        const int s = k % TS;
        mbar_wait(smem_u32(&full[s]), (k / TS) & 1);
#pragma unroll
        for (int r = 0; r < 8; ++r) acc += tile[s][(w * 8 + r) * 32 + lane];
        __syncwarp();
        if (lane == 0) asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(&empty[s])) : "memory");
    }
    part[w][lane] = acc;
    asm volatile("bar.sync 1, 256;" ::: "memory");
    if (w == 0) {
        float s = 0.0f;
#pragma unroll
        for (int i = 0; i < 8; ++i) s += part[i][lane];
        out[blockIdx.x * 32 + lane] = s;
    }
}

// ------------------------------------------------------------- 1-D bulk copy --

// y = 2 x + 1 over n floats (n * 4 a multiple of 16) through shared memory: chunks of
// 16 KiB (the last one shorter) in a grid-stride loop, each loaded by one
// cp.async.bulk (global -> shared, completing on an mbarrier), updated by float4
// in shared memory, and written back by one cp.async.bulk (shared -> global,
// bulk_group).
extern "C" __global__ void LB(256) bulk_copy_1d_affine(const float* __restrict__ x, float* __restrict__ y, long long nbytes)
{
    __shared__ alignas(128) float buf[4096];
    __shared__ alignas(8) uint64_t bar;
    const unsigned mb = smem_u32(&bar);
    const int t = threadIdx.x;
    if (t == 0) {
        mbar_init(mb, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    const long long nchunks = (nbytes + 16383) / 16384;
    int phase = 0;
    for (long long c = blockIdx.x; c < nchunks; c += gridDim.x) {
        const long long off = c * 16384;
        const unsigned bytes = (unsigned)min(16384LL, nbytes - off);
        if (t == 0) {
            // the previous chunk's store must have read the buffer
            asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(bytes) : "memory");
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                             smem_u32(buf)),
                         "l"(reinterpret_cast<const char*>(x) + off), "r"(bytes), "r"(mb)
                         : "memory");
        }
        mbar_wait(mb, phase);
        phase ^= 1;
        const int n4 = bytes / 16;
        for (int i = t; i < n4; i += 256) {
            float4 v = reinterpret_cast<float4*>(buf)[i];
            v.x = 2.0f * v.x + 1.0f;
            v.y = 2.0f * v.y + 1.0f;
            v.z = 2.0f * v.z + 1.0f;
            v.w = 2.0f * v.w + 1.0f;
            reinterpret_cast<float4*>(buf)[i] = v;
        }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (t == 0) {
            asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(reinterpret_cast<char*>(y) + off),
                         "r"(smem_u32(buf)), "r"(bytes)
                         : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        }
    }
    if (t == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// ------------------------------------------------------------------ wgmma tile --

// C[M x N] (fp32) = A[M x K] * W[N x K]^T (fp16, both K-major: a Linear layer), one
// warpgroup a 64 x 64 tile, K in chunks of 64 staged by 16-byte loads into the
// no-swizzle core-matrix layout (8 x 16-byte core matrices; K-adjacent ones 128
// bytes apart, 8-row groups 1,024 bytes apart), then four wgmma.m64n64k16 on
// shared-memory descriptors.
static __device__ __forceinline__ unsigned long long wg_desc(unsigned addr)
{
    return (unsigned long long)((addr >> 4) & 0x3FFF) | ((unsigned long long)(128 >> 4) << 16) |
           ((unsigned long long)(1024 >> 4) << 32);
}
extern "C" __global__ void LB(128) wgmma_linear_tile(const __half* __restrict__ A, const __half* __restrict__ W,
                                                    float* __restrict__ C, int M, int N, int K)
{
    __shared__ alignas(1024) uint8_t sA[64 * 128];
    __shared__ alignas(1024) uint8_t sW[64 * 128];
    const int t = threadIdx.x, w = t >> 5, lane = t & 31;
    const int bm = blockIdx.y * 64, bn = blockIdx.x * 64;
    float d[32];
#pragma unroll
    for (int i = 0; i < 32; ++i) d[i] = 0.0f;
    for (int k0 = 0; k0 < K; k0 += 64) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int id = t + i * 128;  // 512 chunks: row id >> 3, k-group id & 7
            const int r = id >> 3, kg = id & 7;
            const int so = (((r >> 3) * 8 + kg) * 8 + (r & 7)) * 16;
            const uint4 va = *reinterpret_cast<const uint4*>(A + (size_t)(bm + r) * K + k0 + kg * 8);
            *reinterpret_cast<uint4*>(&sA[so]) = va;
            const uint4 vw = *reinterpret_cast<const uint4*>(W + (size_t)(bn + r) * K + k0 + kg * 8);
            *reinterpret_cast<uint4*>(&sW[so]) = vw;
        }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
        for (int ks = 0; ks < 4; ++ks) {
            const unsigned long long da = wg_desc(smem_u32(sA) + ks * 256);
            const unsigned long long db = wg_desc(smem_u32(sW) + ks * 256);
            asm volatile(
                "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, 1, 0;\n\t"
                "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
                "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                "%32, %33, p, 1, 1, 0, 0;\n\t}"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                : "l"(da), "l"(db));
        }
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        __syncthreads();
    }
    const int row = bm + w * 16 + (lane >> 2);
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const int col = bn + j * 8 + (lane & 3) * 2;
        *reinterpret_cast<float2*>(C + (size_t)row * N + col) = make_float2(d[4 * j], d[4 * j + 1]);
        *reinterpret_cast<float2*>(C + (size_t)(row + 8) * N + col) = make_float2(d[4 * j + 2], d[4 * j + 3]);
    }
}

// ------------------------------------------------------ llama.cpp-style quantised --

// block_q4_0: an fp16 scale and 16 bytes of nibbles (32 weights), 18 bytes, so
// blocks are only 2-byte aligned; the nibbles are read as 8 aligned uint16 and
// widened.  y[row] = sum_b d_b * sum_j (q_j - 8) x[32 b + j] (low nibble of byte j:
// element j, high nibble: element j + 16).  A warp a row, lanes over the blocks.
struct __align__(2) BlockQ4 { __half d; uint8_t qs[16]; };
extern "C" __global__ void LB(256) q4_0_matvec(const BlockQ4* __restrict__ wq, const float* __restrict__ x,
                                              float* __restrict__ y, int nrows, int nblocks)
{
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (row >= nrows) return;
    float s = 0.0f;
    for (int b = lane; b < nblocks; b += 32) {
        const BlockQ4* blk = wq + (size_t)row * nblocks + b;
        const float d = __half2float(blk->d);
        const uint16_t* q16 = reinterpret_cast<const uint16_t*>(blk->qs);
        const float4* xb = reinterpret_cast<const float4*>(x + b * 32);
        float sb = 0.0f;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            const uint16_t v = q16[j];
            const float4 lo = xb[j >> 1];
            const float4 hi = xb[4 + (j >> 1)];
            const int q0 = (v & 15) - 8, q1 = ((v >> 8) & 15) - 8, q2 = ((v >> 4) & 15) - 8, q3 = (v >> 12) - 8;
            const float xl0 = (j & 1) ? lo.z : lo.x, xl1 = (j & 1) ? lo.w : lo.y;
            const float xh0 = (j & 1) ? hi.z : hi.x, xh1 = (j & 1) ? hi.w : hi.y;
            sb += q0 * xl0 + q1 * xl1 + q2 * xh0 + q3 * xh1;
        }
        s += d * sb;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULLMASK, s, o);
    if (lane == 0) y[row] = s;
}

// block_q8_0: an fp16 scale and 32 int8 weights (34 bytes); activations quantised
// the same way (block_q8_1-like: a float scale and 32 int8).  The weight bytes are
// 2-byte aligned, so each int32 for dp4a is built from two uint16 loads (as
// llama.cpp's get_int_b2); the activation ints are 4-byte aligned (int loads).  A
// warp a row; lane l takes quarter (l & 3) of block (l >> 2) + 8 i.
struct __align__(2) BlockQ8 { __half d; int8_t qs[32]; };
struct __align__(4) BlockQ8x { float d; int8_t qs[32]; };
extern "C" __global__ void LB(128) q8_0_matvec_dp4a(const BlockQ8* __restrict__ wq, const BlockQ8x* __restrict__ xq,
                                                   float* __restrict__ y, int nrows, int nblocks)
{
    const int row = blockIdx.x * 4 + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= nrows) return;
    const int quarter = lane & 3;
    float s = 0.0f;
    for (int b = lane >> 2; b < nblocks; b += 8) {
        const BlockQ8* blk = wq + (size_t)row * nblocks + b;
        const uint16_t* w16 = reinterpret_cast<const uint16_t*>(blk->qs) + quarter * 4;
        const int* x32 = reinterpret_cast<const int*>(xq[b].qs) + quarter * 2;
        int acc = 0;
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            const int wv = (int)w16[2 * k] | ((int)w16[2 * k + 1] << 16);
            acc = __dp4a(wv, x32[k], acc);
        }
        s += __half2float(blk->d) * xq[b].d * (float)acc;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULLMASK, s, o);
    if (lane == 0) y[row] = s;
}

// int8 GEMV (row-major W[N][K] int8, x[K] int8, per-row float scale): a warp a row,
// 16-byte loads of W and x, four dp4a a load; the output is scaled and stored.
extern "C" __global__ void LB(256) int8_gemv_dp4a(const int8_t* __restrict__ W, const int8_t* __restrict__ x,
                                                 const float* __restrict__ scale, float* __restrict__ y, int N, int K)
{
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (row >= N) return;
    const int4* wr = reinterpret_cast<const int4*>(W + (size_t)row * K);
    const int4* xv = reinterpret_cast<const int4*>(x);
    int acc = 0;
    for (int k = lane; k < K / 16; k += 32) {
        const int4 a = wr[k];
        const int4 b = xv[k];
        acc = __dp4a(a.x, b.x, acc);
        acc = __dp4a(a.y, b.y, acc);
        acc = __dp4a(a.z, b.z, acc);
        acc = __dp4a(a.w, b.w, acc);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(FULLMASK, acc, o);
    if (lane == 0) y[row] = (float)acc * scale[row];
}

// ---------------------------------------------------- FlashInfer-style paged decode --

// One decode step of GQA attention over a paged KV cache (NHD: page [2][16 tokens]
// [8 kv heads][128], fp16).  Block (request, kv head), 4 warps = the 4 query heads
// of the group; a lane holds 4 dims (8-byte loads).  Token t of request r is in
// page indices[indptr[r] + t / 16] at slot t % 16; the request's length comes
// from its page count and last_len (loaded).  Online softmax over the tokens.
extern "C" __global__ void LB(128) paged_kv_decode(const __half* __restrict__ q, const __half* __restrict__ kv,
                                                  const int* __restrict__ indptr, const int* __restrict__ indices,
                                                  const int* __restrict__ last_len, __half* __restrict__ out, float scale)
{
    const int r = blockIdx.x, kvh = blockIdx.y;
    const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int qh = kvh * 4 + w;
    const int p0 = indptr[r];
    const int np = indptr[r + 1] - p0;
    const int len = np > 0 ? (np - 1) * 16 + last_len[r] : 0;
    const uint2 qv = *reinterpret_cast<const uint2*>(q + ((size_t)r * 32 + qh) * 128 + lane * 4);
    const float2 q01 = __half22float2(*reinterpret_cast<const __half2*>(&qv.x));
    const float2 q23 = __half22float2(*reinterpret_cast<const __half2*>(&qv.y));
    float m = -INFINITY, l = 0.0f, o0 = 0.0f, o1 = 0.0f, o2 = 0.0f, o3 = 0.0f;
    for (int tk = 0; tk < len && tk < 4096; ++tk) {
        const int page = indices[p0 + (tk >> 4)];
        const size_t base = ((size_t)page * 2 * 16 + (tk & 15)) * 8 * 128 + kvh * 128 + lane * 4;
        const uint2 kq = *reinterpret_cast<const uint2*>(kv + base);
        const float2 k01 = __half22float2(*reinterpret_cast<const __half2*>(&kq.x));
        const float2 k23 = __half22float2(*reinterpret_cast<const __half2*>(&kq.y));
        float s = q01.x * k01.x + q01.y * k01.y + q23.x * k23.x + q23.y * k23.y;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULLMASK, s, o);
        s *= scale;
        const float mn = fmaxf(m, s), corr = __expf(m - mn), p = __expf(s - mn);
        l = l * corr + p;
        const uint2 vq = *reinterpret_cast<const uint2*>(kv + base + 16 * 8 * 128);
        const float2 v01 = __half22float2(*reinterpret_cast<const __half2*>(&vq.x));
        const float2 v23 = __half22float2(*reinterpret_cast<const __half2*>(&vq.y));
        o0 = o0 * corr + p * v01.x;
        o1 = o1 * corr + p * v01.y;
        o2 = o2 * corr + p * v23.x;
        o3 = o3 * corr + p * v23.y;
        m = mn;
    }
    const float inv = l > 0.0f ? 1.0f / l : 0.0f;
    uint2 ov;
    *reinterpret_cast<__half2*>(&ov.x) = __floats2half2_rn(o0 * inv, o1 * inv);
    *reinterpret_cast<__half2*>(&ov.y) = __floats2half2_rn(o2 * inv, o3 * inv);
    *reinterpret_cast<uint2*>(out + ((size_t)r * 32 + qh) * 128 + lane * 4) = ov;
}

// ---------------------------------------------------------------- CUB-style --

// Onesweep-style upfront histogram: the four 8-bit digits of every 32-bit key
// counted in a [4][256] shared histogram by shared atomics (keys read as uint4 in
// a grid-stride loop), then added to the global [4][256] bins.
extern "C" __global__ void LB(256) radix_hist_upfront(const uint4* __restrict__ keys, int n4, unsigned* __restrict__ bins)
{
    __shared__ unsigned h[4][256];
    for (int i = threadIdx.x; i < 1024; i += 256) (&h[0][0])[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        const uint4 k = keys[i];
        const unsigned v[4] = {k.x, k.y, k.z, k.w};
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int d = 0; d < 4; ++d) atomicAdd(&h[d][(v[j] >> (8 * d)) & 255], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 1024; i += 256) {
        const unsigned c = (&h[0][0])[i];
        if (c) atomicAdd(&bins[i], c);
    }
}

// Segmented sum (DeviceSegmentedReduce-like, a warp a segment): segment s is
// [offsets[s], offsets[s + 1]) of a float array (lengths 0..299, loaded).
extern "C" __global__ void LB(256) segmented_sum_warp(const float* __restrict__ x, const int* __restrict__ offsets,
                                                     float* __restrict__ out, int nseg)
{
    const int s = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (s >= nseg) return;
    const int b = offsets[s], e = offsets[s + 1];
    float acc = 0.0f;
    for (int i = b + lane; i < e; i += 32) acc += x[i];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(FULLMASK, acc, o);
    if (lane == 0) out[s] = acc;
}

// ---------------------------------------------------------------- stencils --

// 7-point 3-D stencil (nx = 256, ny = 128, nz = 128 floats), 2.5-D blocking: a
// 32 x 8 block marches 32 planes in z (blockIdx.z picks the slab), the current
// plane in a shared tile with a one-cell halo in x and y loaded by the edge
// threads, the z neighbours in registers.  Interior points only.
extern "C" __global__ void LB(256) stencil7_3d_halo(const float* __restrict__ in, float* __restrict__ out, int nx, int ny,
                                                   int nz, float c0, float c1)
{
    __shared__ float tile[10][34];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.x * 32 + tx, j = blockIdx.y * 8 + ty;
    const int z0 = blockIdx.z * 32;
    const size_t plane = (size_t)nx * ny;
    const bool in_xy = i < nx && j < ny;
    float below = 0.0f, cur = 0.0f, above = 0.0f;
    if (in_xy && z0 > 0) below = in[(size_t)(z0 - 1) * plane + (size_t)j * nx + i];
    if (in_xy) cur = in[(size_t)z0 * plane + (size_t)j * nx + i];
    for (int z = z0; z < z0 + 32 && z < nz; ++z) {
        const size_t c = (size_t)z * plane + (size_t)j * nx + i;
        if (in_xy && z + 1 < nz) above = in[c + plane];
        __syncthreads();
        tile[ty + 1][tx + 1] = cur;
        if (tx == 0 && i > 0 && j < ny) tile[ty + 1][0] = in[c - 1];
        if (tx == 31 && i + 1 < nx && j < ny) tile[ty + 1][33] = in[c + 1];
        if (ty == 0 && j > 0 && i < nx) tile[0][tx + 1] = in[c - nx];
        if (ty == 7 && j + 1 < ny && i < nx) tile[9][tx + 1] = in[c + nx];
        __syncthreads();
        if (i > 0 && i + 1 < nx && j > 0 && j + 1 < ny && z > 0 && z + 1 < nz) {
            const float s = tile[ty + 1][tx] + tile[ty + 1][tx + 2] + tile[ty][tx + 1] + tile[ty + 2][tx + 1] + below + above;
            out[c] = c0 * cur + c1 * s;
        }
        below = cur;
        cur = above;
    }
}

// Transpose of a rows x cols float matrix through a 32 x 33 padded tile, 32 x 8
// blocks, ragged edges on both sides (1,500 x 2,500).
extern "C" __global__ void LB(256) transpose_pad33(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[32][33];
    const int bx = blockIdx.x * 32, by = blockIdx.y * 32;
    const int tx = threadIdx.x, ty = threadIdx.y;
#pragma unroll
    for (int k = 0; k < 32; k += 8) {
        const int r = by + ty + k, c = bx + tx;
        if (r < rows && c < cols) tile[ty + k][tx] = in[(size_t)r * cols + c];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 32; k += 8) {
        const int r = bx + ty + k, c = by + tx;  // out is cols x rows
        if (r < cols && c < rows) out[(size_t)r * rows + c] = tile[tx][ty + k];
    }
}

// ----------------------------------------------------------------- gathers --

// EmbeddingBag (mode sum, per-sample weights): bag b sums rows indices[k] of a
// [16,384][256] float table for k in [offsets[b], offsets[b + 1]) (lengths 1..40,
// loaded); a block a bag, a float4 a thread.
extern "C" __global__ void LB(64) embedding_bag_sum(const float4* __restrict__ table, const int* __restrict__ indices,
                                                   const int* __restrict__ offsets, const float* __restrict__ psw,
                                                   float4* __restrict__ out)
{
    const int b = blockIdx.x, t = threadIdx.x;
    const int k0 = offsets[b], k1 = offsets[b + 1];
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int k = k0; k < k1; ++k) {
        const int row = indices[k];
        const float wgt = psw[k];
        const float4 v = table[(size_t)row * 64 + t];
        acc.x += wgt * v.x;
        acc.y += wgt * v.y;
        acc.z += wgt * v.z;
        acc.w += wgt * v.w;
    }
    out[(size_t)b * 64 + t] = acc;
}

// ------------------------------------------------------------- elementwise --

// y = a x + b y in fp16 over n halves (n odd): 8 halves (16 bytes) a step in a
// grid-stride loop over the whole uint4s, then the tail (n % 8 halves) by the
// first threads, one __half each.
extern "C" __global__ void LB(256) half2_axpby_tail(const __half* __restrict__ x, __half* __restrict__ y, int n, float a,
                                                   float b)
{
    const __half2 ha = __float2half2_rn(a), hb = __float2half2_rn(b);
    const int n8 = n / 8;
    const int stride = gridDim.x * blockDim.x;
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = tid; i < n8; i += stride) {
        const uint4 xv = reinterpret_cast<const uint4*>(x)[i];
        uint4 yv = reinterpret_cast<const uint4*>(y)[i];
        const __half2* xh = reinterpret_cast<const __half2*>(&xv);
        __half2* yh = reinterpret_cast<__half2*>(&yv);
#pragma unroll
        for (int k = 0; k < 4; ++k) yh[k] = __hfma2(ha, xh[k], __hmul2(hb, yh[k]));
        reinterpret_cast<uint4*>(y)[i] = yv;
    }
    const int r = n8 * 8 + tid;
    if (r < n) y[r] = __float2half(a * __half2float(x[r]) + b * __half2float(y[r]));
}

// y[i] = x[i] * s + t over floats whose base is not 16-byte aligned (x and y 12
// bytes past a 16-byte boundary): a scalar head up to the first aligned element,
// float4 in a grid-stride loop, a scalar tail.
extern "C" __global__ void LB(256) float4_scale_unaligned(const float* __restrict__ x, float* __restrict__ y, int n, float s,
                                                         float t)
{
    const int head = min(n, (int)(((16 - ((uintptr_t)x & 15)) & 15) / 4));
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = gridDim.x * blockDim.x;
    if (tid < head) y[tid] = x[tid] * s + t;
    const int n4 = (n - head) / 4;
    const float4* x4 = reinterpret_cast<const float4*>(x + head);
    float4* y4 = reinterpret_cast<float4*>(y + head);
    for (int i = tid; i < n4; i += stride) {
        float4 v = x4[i];
        v.x = v.x * s + t;
        v.y = v.y * s + t;
        v.z = v.z * s + t;
        v.w = v.w * s + t;
        y4[i] = v;
    }
    const int k = head + n4 * 4 + tid;
    if (k < n) y[k] = x[k] * s + t;
}

// ------------------------------------------------------------ warp shuffles --

// RMSNorm of rows of 1,000 floats, a warp a row (8 warps a block): the sum of
// squares by a strided loop and a butterfly of __shfl_xor_sync, then the scaled
// row times the weight.
extern "C" __global__ void LB(256) rmsnorm_warp_rows(const float* __restrict__ x, const float* __restrict__ wgt,
                                                    float* __restrict__ y, int rows, int cols, float eps)
{
    const int row = blockIdx.x * 8 + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float* xr = x + (size_t)row * cols;
    float ss = 0.0f;
    for (int c = lane; c < cols; c += 32) {
        const float v = xr[c];
        ss += v * v;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(FULLMASK, ss, o);
    const float inv = rsqrtf(ss / cols + eps);
    for (int c = lane; c < cols; c += 32) y[(size_t)row * cols + c] = xr[c] * inv * wgt[c];
}

// Cooperative groups: 16 x 16 blocks, each row of 16 threads a tiled_partition<16>;
// a tile scans 16 uint16 values (inclusive, by shfl_up) and a tiled_partition<4>
// reduces the scan by cg::reduce; the prefix sums are stored as int32, the
// 4-thread sums as int32 by the quad's leader.
extern "C" __global__ void LB(256) cg_tile16_scan_u16(const uint16_t* __restrict__ v, int* __restrict__ scan,
                                                     int* __restrict__ quad, int n)
{
    cg::thread_block blk = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(blk);
    cg::thread_block_tile<4> q4 = cg::tiled_partition<4>(tile);
    const int i = (blockIdx.x * 16 + threadIdx.y) * 16 + threadIdx.x;
    int x = i < n ? (int)v[i] : 0;
#pragma unroll
    for (int o = 1; o < 16; o <<= 1) {
        const int y = tile.shfl_up(x, o);
        if ((int)tile.thread_rank() >= o) x += y;
    }
    if (i < n) scan[i] = x;
    const int s = cg::reduce(q4, x, cg::plus<int>());
    if (q4.thread_rank() == 0 && i < n) quad[i >> 2] = s;
}
