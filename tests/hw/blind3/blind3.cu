// warpscope third held-out hardware batch (tests/hw/blind3): kernels written
// the way real projects and modern (sm_80/sm_90) code write them
// (FlashAttention-2, CUTLASS, CUB, cooperative groups, vLLM, TensorRT-style
// layout conversion, Hopper TMA and bulk copies), in styles neither the
// calibration suite (tests/hw/*.cu, triton_kernels.py) nor the first two
// held-out batches (tests/hw/blind, tests/hw/blind2) has.  Nobody tuned
// warpscope for these: the agreement recorded in README.md was measured
// before any model change.  One memory access per source line where the
// source allows it (ncu and the PTX .loc attribute by line).  Built with
// nvcc -arch=sm_90 -lineinfo -O3 (tests/hw/blind3/measure_blind3.sh).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <stdint.h>

namespace cg = cooperative_groups;

#define LB(n) __launch_bounds__(n)

static __device__ __forceinline__ unsigned smem_u32(const void* p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

static __device__ __forceinline__ unsigned pack_h2(float a, float b)
{
    __half2 h = __floats2half2_rn(a, b);
    return *reinterpret_cast<unsigned*>(&h);
}

#define MMA16816(c, a0, a1, a2, a3, b0, b1)                                                                   \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, " \
                 "{%0,%1,%2,%3};"                                                                            \
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                                            \
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1))

// ------------------------------------------------------------ FlashAttention-2 forward tile loop
// One block of 4 warps per (64-query tile, head); d = 64, fp16; K/V tiles of
// 64 keys double-buffered by cp.async (16-byte chunks, XOR-swizzled rows of
// 128 bytes), Q/K fragments by ldmatrix.x4, V by ldmatrix.x4.trans,
// mma.sync.m16n8k16, online softmax in registers, O stored as half2.
extern "C" __global__ void LB(128) fa2_fwd(const __half* __restrict__ Q, const __half* __restrict__ K,
                                           const __half* __restrict__ V, __half* __restrict__ O, int seqlen,
                                           float scale_log2)
{
    __shared__ __align__(128) __half sQ[64 * 64];
    __shared__ __align__(128) __half sK[2][64 * 64];
    __shared__ __align__(128) __half sV[2][64 * 64];
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const size_t head_off = (size_t)blockIdx.y * seqlen * 64;
    const __half* gQ = Q + head_off + (size_t)blockIdx.x * 64 * 64;
    const __half* gK = K + head_off;
    const __half* gV = V + head_off;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        int c = tid + i * 128, r = c >> 3, ch = c & 7;
        unsigned dst = smem_u32(sQ + r * 64 + ((ch ^ (r & 7)) << 3));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(gQ + r * 64 + ch * 8));
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        int c = tid + i * 128, r = c >> 3, ch = c & 7;
        unsigned dst = smem_u32(sK[0] + r * 64 + ((ch ^ (r & 7)) << 3));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(gK + r * 64 + ch * 8));
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        int c = tid + i * 128, r = c >> 3, ch = c & 7;
        unsigned dst = smem_u32(sV[0] + r * 64 + ((ch ^ (r & 7)) << 3));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(gV + r * 64 + ch * 8));
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    unsigned qf[4][4];
#pragma unroll
    for (int kk = 0; kk < 4; ++kk) {
        int r = warp * 16 + (lane & 15), ch = 2 * kk + (lane >> 4);
        unsigned a = smem_u32(sQ + r * 64 + ((ch ^ (r & 7)) << 3));
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(qf[kk][0]), "=r"(qf[kk][1]), "=r"(qf[kk][2]), "=r"(qf[kk][3]) : "r"(a));
    }
    float o[8][4];
#pragma unroll
    for (int j = 0; j < 8; ++j) o[j][0] = o[j][1] = o[j][2] = o[j][3] = 0.f;
    float m0 = -1e30f, m1 = -1e30f, l0 = 0.f, l1 = 0.f;
    const int nblocks = seqlen / 64;
    for (int nb = 0; nb < nblocks; ++nb) {
        const int st = nb & 1;
        if (nb + 1 < nblocks) {
            const __half* nk = gK + (size_t)(nb + 1) * 64 * 64;
            const __half* nv = gV + (size_t)(nb + 1) * 64 * 64;
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                int c = tid + i * 128, r = c >> 3, ch = c & 7;
                unsigned dst = smem_u32(sK[st ^ 1] + r * 64 + ((ch ^ (r & 7)) << 3));
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(nk + r * 64 + ch * 8));
            }
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                int c = tid + i * 128, r = c >> 3, ch = c & 7;
                unsigned dst = smem_u32(sV[st ^ 1] + r * 64 + ((ch ^ (r & 7)) << 3));
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(nv + r * 64 + ch * 8));
            }
            asm volatile("cp.async.commit_group;" ::: "memory");
        }
        float s[8][4];
#pragma unroll
        for (int j = 0; j < 8; ++j) s[j][0] = s[j][1] = s[j][2] = s[j][3] = 0.f;
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) {
#pragma unroll
            for (int np = 0; np < 4; ++np) {
                int r = np * 16 + (lane & 7) + ((lane >> 4) << 3), ch = 2 * kk + ((lane >> 3) & 1);
                unsigned a = smem_u32(sK[st] + r * 64 + ((ch ^ (r & 7)) << 3));
                unsigned b0, b1, b2, b3;
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                             : "=r"(b0), "=r"(b1), "=r"(b2), "=r"(b3) : "r"(a));
                MMA16816(s[2 * np], qf[kk][0], qf[kk][1], qf[kk][2], qf[kk][3], b0, b1);
                MMA16816(s[2 * np + 1], qf[kk][0], qf[kk][1], qf[kk][2], qf[kk][3], b2, b3);
            }
        }
        float mx0 = m0, mx1 = m1;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            mx0 = fmaxf(mx0, fmaxf(s[j][0], s[j][1]) * scale_log2);
            mx1 = fmaxf(mx1, fmaxf(s[j][2], s[j][3]) * scale_log2);
        }
#pragma unroll
        for (int x = 1; x <= 2; x <<= 1) {
            mx0 = fmaxf(mx0, __shfl_xor_sync(0xffffffffu, mx0, x));
            mx1 = fmaxf(mx1, __shfl_xor_sync(0xffffffffu, mx1, x));
        }
        float c0 = exp2f(m0 - mx0), c1 = exp2f(m1 - mx1);
        m0 = mx0; m1 = mx1;
        float rs0 = 0.f, rs1 = 0.f;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            s[j][0] = exp2f(s[j][0] * scale_log2 - m0); s[j][1] = exp2f(s[j][1] * scale_log2 - m0);
            s[j][2] = exp2f(s[j][2] * scale_log2 - m1); s[j][3] = exp2f(s[j][3] * scale_log2 - m1);
            rs0 += s[j][0] + s[j][1]; rs1 += s[j][2] + s[j][3];
            o[j][0] *= c0; o[j][1] *= c0; o[j][2] *= c1; o[j][3] *= c1;
        }
        l0 = l0 * c0 + rs0; l1 = l1 * c1 + rs1;
        if (nb + 1 < nblocks) asm volatile("cp.async.wait_group 1;" ::: "memory");
        else asm volatile("cp.async.wait_group 0;" ::: "memory");
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) {
            unsigned a0 = pack_h2(s[2 * kk][0], s[2 * kk][1]), a1 = pack_h2(s[2 * kk][2], s[2 * kk][3]);
            unsigned a2 = pack_h2(s[2 * kk + 1][0], s[2 * kk + 1][1]), a3 = pack_h2(s[2 * kk + 1][2], s[2 * kk + 1][3]);
#pragma unroll
            for (int dp = 0; dp < 4; ++dp) {
                int r = kk * 16 + (lane & 7) + (((lane >> 3) & 1) << 3), ch = 2 * dp + (lane >> 4);
                unsigned a = smem_u32(sV[st] + r * 64 + ((ch ^ (r & 7)) << 3));
                unsigned b0, b1, b2, b3;
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                             : "=r"(b0), "=r"(b1), "=r"(b2), "=r"(b3) : "r"(a));
                MMA16816(o[2 * dp], a0, a1, a2, a3, b0, b1);
                MMA16816(o[2 * dp + 1], a0, a1, a2, a3, b2, b3);
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int x = 1; x <= 2; x <<= 1) {
        l0 += __shfl_xor_sync(0xffffffffu, l0, x);
        l1 += __shfl_xor_sync(0xffffffffu, l1, x);
    }
    const float i0 = 1.f / l0, i1 = 1.f / l1;
    __half* gO = O + head_off + ((size_t)blockIdx.x * 64 + warp * 16 + (lane >> 2)) * 64 + 2 * (lane & 3);
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        *reinterpret_cast<__half2*>(gO + j * 8) = __floats2half2_rn(o[j][0] * i0, o[j][1] * i0);
        *reinterpret_cast<__half2*>(gO + 8 * 64 + j * 8) = __floats2half2_rn(o[j][2] * i1, o[j][3] * i1);
    }
}

// ------------------------------------------------------------ tensor-core GEMM, CUTLASS-style epilogue
// 64 x 64 block tile, 4 warps of 32 x 32, K step 32; A and B staged
// global -> registers (16-byte LDG) -> padded shared tiles (Volta/Turing
// CUTLASS style), fragments by ldmatrix (A) and ldmatrix.trans (B); the
// accumulators go through a padded shared tile (68 floats a row) and leave as
// float4 rows: D = alpha * acc + beta * C, with the beta == 0 branch that
// does not read C (cuBLAS semantics).  M = N = 512, K = 256.
extern "C" __global__ void LB(128) gemm_tc_epilogue(const __half* __restrict__ A, const __half* __restrict__ B,
                                                    const float* __restrict__ C, float* __restrict__ D, int M, int N,
                                                    int K, float alpha, float beta)
{
    __shared__ __align__(16) __half sA[64 * 40];   // 64 rows x 32 k, pitch 40 halves (80 bytes)
    __shared__ __align__(16) __half sB[32 * 72];   // 32 k x 64 n, pitch 72 halves (144 bytes)
    __shared__ __align__(16) float sC[64 * 68];    // 64 x 64 floats, pitch 68
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int wm = (warp >> 1) * 32, wn = (warp & 1) * 32;
    const int bm = blockIdx.y * 64, bn = blockIdx.x * 64;
    float acc[2][4][4];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j][0] = acc[i][j][1] = acc[i][j][2] = acc[i][j][3] = 0.f;
    for (int k0 = 0; k0 < K; k0 += 32) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            int c = tid + i * 128, r = c >> 2, ch = c & 3;   // A: 64 rows x 4 chunks of 8 halves
            uint4 va = *reinterpret_cast<const uint4*>(A + (size_t)(bm + r) * K + k0 + ch * 8);
            *reinterpret_cast<uint4*>(sA + r * 40 + ch * 8) = va;
        }
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            int c = tid + i * 128, r = c >> 3, ch = c & 7;   // B: 32 rows x 8 chunks
            uint4 vb = *reinterpret_cast<const uint4*>(B + (size_t)(k0 + r) * N + bn + ch * 8);
            *reinterpret_cast<uint4*>(sB + r * 72 + ch * 8) = vb;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < 2; ++kk) {
            unsigned af[2][4], bf[4][2];
#pragma unroll
            for (int mi = 0; mi < 2; ++mi) {
                unsigned a = smem_u32(sA + (wm + mi * 16 + (lane & 15)) * 40 + kk * 16 + (lane >> 4) * 8);
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                             : "=r"(af[mi][0]), "=r"(af[mi][1]), "=r"(af[mi][2]), "=r"(af[mi][3]) : "r"(a));
            }
#pragma unroll
            for (int np = 0; np < 2; ++np) {
                unsigned a = smem_u32(sB + (kk * 16 + (lane & 15)) * 72 + wn + np * 16 + (lane >> 4) * 8);
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                             : "=r"(bf[2 * np][0]), "=r"(bf[2 * np][1]), "=r"(bf[2 * np + 1][0]), "=r"(bf[2 * np + 1][1])
                             : "r"(a));
            }
#pragma unroll
            for (int mi = 0; mi < 2; ++mi)
#pragma unroll
                for (int ni = 0; ni < 4; ++ni)
                    MMA16816(acc[mi][ni], af[mi][0], af[mi][1], af[mi][2], af[mi][3], bf[ni][0], bf[ni][1]);
        }
        __syncthreads();
    }
    // epilogue: fragments -> padded shared tile
#pragma unroll
    for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) {
            int r = wm + mi * 16 + (lane >> 2), c = wn + ni * 8 + 2 * (lane & 3);
            *reinterpret_cast<float2*>(sC + r * 68 + c) = make_float2(acc[mi][ni][0], acc[mi][ni][1]);
            *reinterpret_cast<float2*>(sC + (r + 8) * 68 + c) = make_float2(acc[mi][ni][2], acc[mi][ni][3]);
        }
    __syncthreads();
    // shared tile -> global, 16 float4 per thread-row pass: 64 rows x 16 float4
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        int v = tid + i * 128, r = v >> 4, c4 = v & 15;
        float4 a = *reinterpret_cast<const float4*>(sC + r * 68 + c4 * 4);
        size_t g = (size_t)(bm + r) * N + bn + c4 * 4;
        float4 d;
        if (beta == 0.f) {
            d = make_float4(alpha * a.x, alpha * a.y, alpha * a.z, alpha * a.w);
        } else {
            float4 c = *reinterpret_cast<const float4*>(C + g);
            d = make_float4(alpha * a.x + beta * c.x, alpha * a.y + beta * c.y, alpha * a.z + beta * c.z,
                            alpha * a.w + beta * c.w);
        }
        *reinterpret_cast<float4*>(D + g) = d;
    }
}

// ------------------------------------------------------------ stmatrix epilogue (sm_90)
// fp32 accumulators in the mma.m16n8 C layout (read from a previous pass as
// float2), converted to half and stored with stmatrix.x4 into a 64 x 64 tile
// of pitch 72 halves, then written out as 16-byte rows.  128 threads, 64 x 64
// tiles of a 2,048-column fp16 matrix.
extern "C" __global__ void LB(128) epilogue_stmatrix(const float* __restrict__ acc_in, __half* __restrict__ out, int ldo)
{
    __shared__ __align__(16) __half tile[64 * 72];
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const float2* frag = reinterpret_cast<const float2*>(acc_in) + (size_t)blockIdx.x * 2048 + warp * 512;
    unsigned h[8][2];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        float2 lo = frag[j * 64 + lane];
        float2 hi = frag[j * 64 + 32 + lane];
        h[j][0] = pack_h2(lo.x, lo.y);
        h[j][1] = pack_h2(hi.x, hi.y);
    }
#pragma unroll
    for (int jp = 0; jp < 4; ++jp) {
        int m = lane >> 3;
        int r = warp * 16 + (lane & 7) + ((m & 1) << 3), c = 8 * (2 * jp + (m >> 1));
        unsigned a = smem_u32(tile + r * 72 + c);
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(h[2 * jp][0]),
                     "r"(h[2 * jp][1]), "r"(h[2 * jp + 1][0]), "r"(h[2 * jp + 1][1])
                     : "memory");
    }
    __syncthreads();
    const int tr = blockIdx.x / 32, tc = blockIdx.x % 32;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        int v = tid + i * 128, r = v >> 3, ch = v & 7;
        uint4 x = *reinterpret_cast<const uint4*>(tile + r * 72 + ch * 8);
        *reinterpret_cast<uint4*>(out + (size_t)(tr * 64 + r) * ldo + tc * 64 + ch * 8) = x;
    }
}

// ------------------------------------------------------------ Hopper TMA: 2-stage tile pipeline
struct __align__(64) TmaDesc {
    unsigned long long v[16];
};

// CUTLASS ClusterBarrier style: init, arrive.expect_tx, try_wait loop in PTX
static __device__ __forceinline__ void bar_init(unsigned mb, int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(mb), "r"(count) : "memory");
}

static __device__ __forceinline__ void bar_wait(unsigned mb, unsigned phase)
{
    asm volatile(
        "{\n"
        ".reg .pred P1;\n"
        "LAB_WAIT:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
        "@P1 bra.uni DONE;\n"
        "bra.uni LAB_WAIT;\n"
        "DONE:\n"
        "}\n" ::"r"(mb),
        "r"(phase)
        : "memory");
}

// a 4,096 x 1,024 float32 matrix through a tensor map, boxes of 64 columns x
// 32 rows (8 KiB); block b sums rows 32 b .. 32 b + 31 over 16 boxes, two
// stages, one full barrier per stage, thread 0 the producer.
extern "C" __global__ void LB(128) tma_rowblock_sum(const __grid_constant__ TmaDesc tmap, float* __restrict__ out)
{
    __shared__ __align__(1024) float stage[2][32 * 64];
    __shared__ __align__(8) unsigned long long full[2];
    const int tid = threadIdx.x;
    if (tid == 0) {
        bar_init(smem_u32(&full[0]), 1);
        bar_init(smem_u32(&full[1]), 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    const int y = blockIdx.x * 32;
    float acc = 0.f;
    if (tid == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 8192;" ::"r"(smem_u32(&full[0])) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                     ::"r"(smem_u32(stage[0])), "l"(&tmap), "r"(0), "r"(y), "r"(smem_u32(&full[0])) : "memory");
    }
    for (int kb = 0; kb < 16; ++kb) {
        const int s = kb & 1;
        if (tid == 0 && kb + 1 < 16) {
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 8192;" ::"r"(smem_u32(&full[s ^ 1])) : "memory");
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                         ::"r"(smem_u32(stage[s ^ 1])), "l"(&tmap), "r"((kb + 1) * 64), "r"(y), "r"(smem_u32(&full[s ^ 1]))
                         : "memory");
        }
        bar_wait(smem_u32(&full[s]), (kb >> 1) & 1);
#pragma unroll
        for (int i = 0; i < 16; ++i)
            acc += stage[s][tid + i * 128];
        __syncthreads();
    }
    out[blockIdx.x * 128 + tid] = acc;
}

// 1-D bulk copy (no tensor map): a 16 KiB chunk per block into shared memory,
// scaled in place, written back with a bulk store; n = 1,000,000 floats (the
// last chunk 2,304 bytes).
extern "C" __global__ void LB(256) bulk1d_scale(const float* __restrict__ in, float* __restrict__ out, int n, float a)
{
    __shared__ __align__(128) float buf[4096];
    __shared__ __align__(8) unsigned long long bar;
    const int tid = threadIdx.x;
    const int base = blockIdx.x * 4096;
    const int cnt = min(4096, n - base);
    const unsigned bytes = cnt * 4;
    const unsigned mb = smem_u32(&bar);
    if (tid == 0) {
        bar_init(mb, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (tid == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(smem_u32(buf)), "l"(in + base), "r"(bytes), "r"(mb) : "memory");
    }
    bar_wait(mb, 0);
    for (int i = tid; i < cnt; i += 256)
        buf[i] = buf[i] * a;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (tid == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(out + base), "r"(smem_u32(buf)), "r"(bytes)
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
}

// ------------------------------------------------------------ cooperative groups
// grid-stride sum: tiled_partition<32> + cg::reduce, warp sums in shared,
// the first warp reduces them, one atomicAdd per block; 264 blocks of 256
// over n = 1,000,003.
extern "C" __global__ void LB(256) cg_grid_sum(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float warp_sums[8];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    float v = 0.f;
    for (int i = block.group_index().x * block.size() + block.thread_rank(); i < n; i += gridDim.x * block.size())
        v += in[i];
    v = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0)
        warp_sums[tile.meta_group_rank()] = v;
    block.sync();
    if (tile.meta_group_rank() == 0) {
        v = tile.thread_rank() < tile.meta_group_size() ? warp_sums[tile.thread_rank()] : 0.f;
        v = cg::reduce(tile, v, cg::plus<float>());
        if (tile.thread_rank() == 0)
            atomicAdd(out, v);
    }
}

// matrix-vector with 16-thread tiles (tiled_partition<16>): a tile per row of
// 512 floats read as float2, cg::reduce in the tile, its rank 0 writes;
// 128-thread blocks (8 rows each), 10,000 rows.
extern "C" __global__ void LB(128) cg_tile16_rowdot(const float* __restrict__ Mx, const float* __restrict__ x,
                                                    float* __restrict__ y, int rows)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    const int row = blockIdx.x * 8 + t16.meta_group_rank();
    if (row >= rows) return;
    const float2* mr = reinterpret_cast<const float2*>(Mx + (size_t)row * 512);
    const float2* xv = reinterpret_cast<const float2*>(x);
    float s = 0.f;
    for (int k = t16.thread_rank(); k < 256; k += 16) {
        float2 m = mr[k];
        float2 xx = xv[k];
        s += m.x * xx.x + m.y * xx.y;
    }
    s = cg::reduce(t16, s, cg::plus<float>());
    if (t16.thread_rank() == 0)
        y[row] = s;
}

// ------------------------------------------------------------ CUB-style block load / store
// BlockLoad<BLOCK_LOAD_TRANSPOSE>: striped (coalesced) loads with a guarded
// tail, BlockExchange StripedToBlocked through shared memory (CUB pads only
// for ITEMS > 4 and a power of two: ITEMS = 4 unpadded, ITEMS = 8 padded),
// a thread-local inclusive scan, BlockStore<BLOCK_STORE_TRANSPOSE> back.
template <int ITEMS, bool PAD>
static __device__ __forceinline__ void block_transpose_scan(const int* __restrict__ in, int* __restrict__ out, int n)
{
    constexpr int T = 128, TILE = T * ITEMS;
    __shared__ int temp[TILE + (PAD ? TILE / 32 : 0)];
    const int tid = threadIdx.x;
    const int off = blockIdx.x * TILE;
    const int valid = min(TILE, n - off);
    int items[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        int idx = i * T + tid;
        items[i] = idx < valid ? in[off + idx] : 0;
    }
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        int idx = i * T + tid;
        if (PAD) idx += idx >> 5;
        temp[idx] = items[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        int idx = tid * ITEMS + i;
        if (PAD) idx += idx >> 5;
        items[i] = temp[idx];
    }
#pragma unroll
    for (int i = 1; i < ITEMS; ++i) items[i] += items[i - 1];
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        int idx = tid * ITEMS + i;
        if (PAD) idx += idx >> 5;
        temp[idx] = items[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        int idx = i * T + tid;
        int v = temp[PAD ? idx + (idx >> 5) : idx];
        if (idx < valid) out[off + idx] = v;
    }
}

extern "C" __global__ void LB(128) cub_transpose_scan4(const int* __restrict__ in, int* __restrict__ out, int n)
{
    block_transpose_scan<4, false>(in, out, n);
}

extern "C" __global__ void LB(128) cub_transpose_scan8(const int* __restrict__ in, int* __restrict__ out, int n)
{
    block_transpose_scan<8, true>(in, out, n);
}

// BLOCK_LOAD_WARP_TRANSPOSE with 7 items: each warp loads its own
// warp-striped segment, exchanges to blocked through its shared slice
// (stride 7: no conflicts), takes adjacent differences, and stores blocked
// directly (BLOCK_STORE_DIRECT: 28-byte stride).  96-thread blocks.
extern "C" __global__ void LB(96) warp_striped_adjdiff(const float* __restrict__ in, float* __restrict__ out, int n)
{
    constexpr int ITEMS = 7;
    __shared__ float ex[3][32 * ITEMS];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int woff = (blockIdx.x * 3 + warp) * 32 * ITEMS;
    if (woff >= n) return;
    float v[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
        v[i] = in[woff + i * 32 + lane];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
        ex[warp][i * 32 + lane] = v[i];
    __syncwarp();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
        v[i] = ex[warp][lane * ITEMS + i];
    float prev = __shfl_up_sync(0xffffffffu, v[ITEMS - 1], 1);
    if (lane == 0) prev = 0.f;
#pragma unroll
    for (int i = ITEMS - 1; i > 0; --i) v[i] -= v[i - 1];
    v[0] -= prev;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
        out[woff + lane * ITEMS + i] = v[i];
}

// ------------------------------------------------------------ 2:4 structured sparsity pack
// fp16 dense rows, a thread per group of 4 (one 8-byte load): keep the two
// largest magnitudes (half2 out), 4 metadata bits per group; 8 groups' bits
// gathered by shuffles, one 32-bit metadata word per 8 lanes.
extern "C" __global__ void LB(256) sparse24_pack(const __half* __restrict__ dense, __half2* __restrict__ vals,
                                                 uint32_t* __restrict__ meta, int ngroups)
{
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    uint2 raw = g < ngroups ? reinterpret_cast<const uint2*>(dense)[g] : make_uint2(0, 0);
    __half h[4];
    memcpy(h, &raw, 8);
    float a[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) a[k] = fabsf(__half2float(h[k]));
    int i0 = 0;
#pragma unroll
    for (int k = 1; k < 4; ++k) if (a[k] > a[i0]) i0 = k;
    int i1 = i0 == 0 ? 1 : 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) if (k != i0 && a[k] > a[i1]) i1 = k;
    int lo = min(i0, i1), hi = max(i0, i1);
    uint32_t bits = (uint32_t)(lo | (hi << 2)) << (4 * (lane & 7));
#pragma unroll
    for (int o = 1; o < 8; o <<= 1) bits |= __shfl_xor_sync(0xffffffffu, bits, o);
    if (g < ngroups) {
        vals[g] = __halves2half2(h[lo], h[hi]);
        if ((lane & 7) == 0)
            meta[g >> 3] = bits;
    }
}

// ------------------------------------------------------------ top-k over a row
// a warp per row of 2,048 uint32 keys (32 x 4 blocks): each lane keeps its
// top 8 in registers over a strided walk, then 8 warp-wide argmax rounds; the
// winner of round r is kept by lane r, lanes 0-7 write values and indices.
extern "C" __global__ void LB(128) topk_row_warp(const uint32_t* __restrict__ keys, uint32_t* __restrict__ topv,
                                                 int* __restrict__ topi, int ncols)
{
    constexpr int KK = 8;
    const int row = blockIdx.x * 4 + threadIdx.y, lane = threadIdx.x;
    const uint32_t* kr = keys + (size_t)row * ncols;
    uint32_t v[KK];
    int ix[KK];
#pragma unroll
    for (int k = 0; k < KK; ++k) { v[k] = 0; ix[k] = -1; }
    for (int c = lane; c < ncols; c += 32) {
        uint32_t x = kr[c];
        if (x > v[KK - 1]) {
            int cur = c;
#pragma unroll
            for (int k = 0; k < KK; ++k)
                if (x > v[k]) { uint32_t tv = v[k]; int ti = ix[k]; v[k] = x; ix[k] = cur; x = tv; cur = ti; }
        }
    }
    uint32_t myv = 0;
    int myi = -1;
#pragma unroll
    for (int r = 0; r < KK; ++r) {
        uint32_t best = v[0];
        int bl = lane;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            uint32_t ov = __shfl_xor_sync(0xffffffffu, best, o);
            int ol = __shfl_xor_sync(0xffffffffu, bl, o);
            if (ov > best || (ov == best && ol < bl)) { best = ov; bl = ol; }
        }
        int bi = __shfl_sync(0xffffffffu, ix[0], bl);
        if (lane == r) { myv = best; myi = bi; }
        if (lane == bl) {
#pragma unroll
            for (int k = 0; k < KK - 1; ++k) { v[k] = v[k + 1]; ix[k] = ix[k + 1]; }
            v[KK - 1] = 0; ix[KK - 1] = -1;
        }
    }
    if (lane < KK) {
        topv[row * KK + lane] = myv;
        topi[row * KK + lane] = myi;
    }
}

// ------------------------------------------------------------ softmax, online max, float4 with a tail
// a block of 256 per row; rows of n = 4,098 floats at a leading dimension of
// 4,104 (16-byte aligned, not 128): 1,024 float4 and a 2-float scalar tail;
// one pass with an online (max, sum) pair, a block merge, a second pass out.
extern "C" __global__ void LB(256) softmax_online_f4(const float* __restrict__ x, float* __restrict__ y, int n, int ld)
{
    __shared__ float sm[8], ss[8];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const float* xr = x + (size_t)blockIdx.x * ld;
    float* yr = y + (size_t)blockIdx.x * ld;
    const int n4 = n >> 2;
    float m = -1e30f, s = 0.f;
    for (int i = tid; i < n4; i += 256) {
        float4 v = reinterpret_cast<const float4*>(xr)[i];
        float mx = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
        float mn = fmaxf(m, mx);
        s = s * __expf(m - mn) + __expf(v.x - mn) + __expf(v.y - mn) + __expf(v.z - mn) + __expf(v.w - mn);
        m = mn;
    }
    if (tid < n - n4 * 4) {
        float t = xr[n4 * 4 + tid];
        float mn = fmaxf(m, t);
        s = s * __expf(m - mn) + __expf(t - mn);
        m = mn;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        float om = __shfl_xor_sync(0xffffffffu, m, o), os = __shfl_xor_sync(0xffffffffu, s, o);
        float mn = fmaxf(m, om);
        s = s * __expf(m - mn) + os * __expf(om - mn);
        m = mn;
    }
    if (lane == 0) { sm[warp] = m; ss[warp] = s; }
    __syncthreads();
    float M = sm[0], S = ss[0];
#pragma unroll
    for (int w = 1; w < 8; ++w) {
        float om = sm[w], os = ss[w];
        float mn = fmaxf(M, om);
        S = S * __expf(M - mn) + os * __expf(om - mn);
        M = mn;
    }
    const float inv = 1.f / S;
    for (int i = tid; i < n4; i += 256) {
        float4 v = reinterpret_cast<const float4*>(xr)[i];
        reinterpret_cast<float4*>(yr)[i] = make_float4(__expf(v.x - M) * inv, __expf(v.y - M) * inv, __expf(v.z - M) * inv, __expf(v.w - M) * inv);
    }
    if (tid < n - n4 * 4)
        yr[n4 * 4 + tid] = __expf(xr[n4 * 4 + tid] - M) * inv;
}

// ------------------------------------------------------------ rotary embedding, interleaved pairs (GPT-J)
// q [tokens, 16 heads, 128] and k [tokens, 4 heads, 128] fp16 in place,
// pairs (2i, 2i + 1) as half2; cos_sin_cache [max_pos, 128] float: cos in
// the first 64, sin in the last 64; positions loaded per token.  A block of
// 64 x 2 per token, heads strided by 2.
extern "C" __global__ void LB(128) rotary_gptj(const int* __restrict__ positions, __half* __restrict__ q,
                                               __half* __restrict__ k, const float* __restrict__ cos_sin)
{
    const int tok = blockIdx.x, i = threadIdx.x;
    const int pos = positions[tok];
    const float* cache = cos_sin + (size_t)pos * 128;
    const float c = cache[i];
    const float sn = cache[64 + i];
    for (int h = threadIdx.y; h < 16; h += 2) {
        __half2* p = reinterpret_cast<__half2*>(q + ((size_t)tok * 16 + h) * 128) + i;
        float2 x = __half22float2(*p);
        *p = __floats2half2_rn(x.x * c - x.y * sn, x.y * c + x.x * sn);
    }
    for (int h = threadIdx.y; h < 4; h += 2) {
        __half2* p = reinterpret_cast<__half2*>(k + ((size_t)tok * 4 + h) * 128) + i;
        float2 x = __half22float2(*p);
        *p = __floats2half2_rn(x.x * c - x.y * sn, x.y * c + x.x * sn);
    }
}

// ------------------------------------------------------------ KV-cache append (vLLM reshape_and_cache)
// key/value [tokens, 8 heads, 128] fp16; key_cache [blocks, heads, 128 / x,
// 16, x] with x = 8 (16 bytes), value_cache [blocks, heads, 128, 16]; a slot
// id per token (negative: padding, skipped); a block of 512 per token.
extern "C" __global__ void LB(512) kv_cache_append(const __half* __restrict__ key, const __half* __restrict__ value,
                                                   __half* __restrict__ key_cache, __half* __restrict__ value_cache,
                                                   const int64_t* __restrict__ slot_mapping, int key_stride,
                                                   int num_heads, int head_size, int block_size, int x)
{
    const int64_t token_idx = blockIdx.x;
    const int64_t slot_idx = slot_mapping[token_idx];
    if (slot_idx < 0) return;
    const int64_t block_idx = slot_idx / block_size;
    const int64_t block_offset = slot_idx % block_size;
    const int n = num_heads * head_size;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int64_t src_key_idx = token_idx * key_stride + i;
        const int head_idx = i / head_size;
        const int head_offset = i % head_size;
        const int x_idx = head_offset / x;
        const int x_offset = head_offset % x;
        const int64_t tgt_key_idx = block_idx * num_heads * (head_size / x) * block_size * x +
                                    head_idx * (head_size / x) * block_size * x + x_idx * block_size * x +
                                    block_offset * x + x_offset;
        const int64_t tgt_value_idx = block_idx * num_heads * head_size * block_size +
                                      head_idx * head_size * block_size + head_offset * block_size + block_offset;
        key_cache[tgt_key_idx] = key[src_key_idx];
        value_cache[tgt_value_idx] = value[src_key_idx];
    }
}

// ------------------------------------------------------------ int8 GEMV with dp4a
// W int8 [4,096 x 4,096], x int8 staged in shared memory (16-byte loads),
// a warp per 2 rows of a 256-thread block, W read as char4 (4 bytes), x read
// back as int from shared, __dp4a, per-row float scale, fp16 out.
extern "C" __global__ void LB(256) gemv_i8_dp4a(const int8_t* __restrict__ W, const int8_t* __restrict__ xq,
                                                const float* __restrict__ scale, __half* __restrict__ y, int K)
{
    __shared__ __align__(16) int sx[1024];
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    reinterpret_cast<int4*>(sx)[tid] = reinterpret_cast<const int4*>(xq)[tid];
    __syncthreads();
#pragma unroll
    for (int rr = 0; rr < 2; ++rr) {
        const int row = blockIdx.x * 16 + warp * 2 + rr;
        const int* wr = reinterpret_cast<const int*>(W + (size_t)row * K);
        int acc = 0;
        for (int k4 = lane; k4 < K / 4; k4 += 32) {
            int w = wr[k4];
            int xv = sx[k4];
            acc = __dp4a(w, xv, acc);
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
        if (lane == 0)
            y[row] = __float2half((float)acc * scale[row]);
    }
}

// ------------------------------------------------------------ layout conversion, int8, char4 vectors
// NCHW int8 -> NC/4HW4 ("NHWC4" per channel quad, TensorRT kCHW4 style): a
// thread per (n, c/4, hw) with hw fastest; four byte loads HW apart, one char4
// store.  N = 2, C = 64, 56 x 56.
extern "C" __global__ void LB(256) nchw_to_nchw4_i8(const int8_t* __restrict__ in, char4* __restrict__ out, int C, int HW,
                                                    int total)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    const int hw = i % HW, c4 = (i / HW) % (C / 4), nn = i / (HW * (C / 4));
    const int8_t* p = in + ((size_t)nn * C + c4 * 4) * HW + hw;
    char4 v;
    v.x = p[0];
    v.y = p[HW];
    v.z = p[2 * HW];
    v.w = p[3 * HW];
    out[i] = v;
}

// NHWC int8 -> NCHW: a thread per (n, hw, c/4) with c/4 fastest: one char4
// load (contiguous), four byte stores HW apart.
extern "C" __global__ void LB(256) nhwc_to_nchw_i8(const char4* __restrict__ in, int8_t* __restrict__ out, int C, int HW,
                                                   int total)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    const int c4 = i % (C / 4), hw = (i / (C / 4)) % HW, nn = i / (HW * (C / 4));
    const char4 v = in[i];
    int8_t* p = out + ((size_t)nn * C + c4 * 4) * HW + hw;
    p[0] = v.x;
    p[HW] = v.y;
    p[2 * HW] = v.z;
    p[3 * HW] = v.w;
}

// ------------------------------------------------------------ persistent kernels
// persistent: 132 blocks take 1,024-element tiles from an atomic work
// counter until the tiles run out (the ticket broadcast through shared).
extern "C" __global__ void LB(256) persistent_atomic_tiles(const float* __restrict__ in, float* __restrict__ out,
                                                           int* __restrict__ counter, int ntiles)
{
    __shared__ int s_tile;
    while (true) {
        if (threadIdx.x == 0)
            s_tile = atomicAdd(counter, 1);
        __syncthreads();
        const int tile = s_tile;
        __syncthreads();
        if (tile >= ntiles) break;
        const float4* src = reinterpret_cast<const float4*>(in) + (size_t)tile * 256;
        float4 v = src[threadIdx.x];
        reinterpret_cast<float4*>(out)[(size_t)tile * 256 + threadIdx.x] = make_float4(2.f * v.x, 2.f * v.y, 2.f * v.z, 2.f * v.w);
    }
}

// persistent grid-stride over float2 (264 blocks = 2 per SM) with a
// per-block shared staging of the bias row: 3,000,000 float2, rows of 1,000.
extern "C" __global__ void LB(256) persistent_gridstride_bias(const float2* __restrict__ in, const float* __restrict__ bias,
                                                              float2* __restrict__ out, int n2, int cols2)
{
    __shared__ float2 sb[1000];
    for (int c = threadIdx.x; c < cols2; c += blockDim.x)
        sb[c] = reinterpret_cast<const float2*>(bias)[c];
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += gridDim.x * blockDim.x) {
        float2 v = in[i];
        float2 b = sb[i % cols2];
        out[i] = make_float2(v.x + b.x, v.y + b.y);
    }
}

// ------------------------------------------------------------ 64-bit index math, large strides
// column gather with size_t strides from 64-bit parameters: out[b, c] =
// in[b * batch_stride + c * col_stride] (col_stride 16,400 floats: every lane
// a different line); a thread per (b, c), c fastest.
extern "C" __global__ void LB(256) strided_gather_i64(const float* __restrict__ in, float* __restrict__ out,
                                                      long long batch_stride, long long col_stride, int ncols, int total)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    const size_t b = i / ncols, c = i % ncols;
    out[i] = in[b * (size_t)batch_stride + c * (size_t)col_stride];
}

// rows of 256 floats at a 64-bit leading dimension of 65,540 floats (262,160
// bytes: 16 mod 128), float4, a block of 64 per row and a block row per batch.
extern "C" __global__ void LB(64) rows_ld64_copy(const float* __restrict__ in, float* __restrict__ out, long long ld,
                                                 long long batch_stride)
{
    const size_t row = blockIdx.x, b = blockIdx.y;
    const float4* src = reinterpret_cast<const float4*>(in + b * (size_t)batch_stride + row * (size_t)ld);
    float4 v = src[threadIdx.x];
    reinterpret_cast<float4*>(out)[(b * gridDim.x + row) * 64 + threadIdx.x] = v;
}

// ------------------------------------------------------------ embedding backward, half2 atomics
// grad_out [tokens, 256] fp16; grad_weight[id, :] += grad_out[t, :] with
// atomicAdd on __half2 (a thread per pair); ids loaded per token.
extern "C" __global__ void LB(128) embedding_bwd_h2(const int* __restrict__ ids, const __half2* __restrict__ grad_out,
                                                    __half2* __restrict__ grad_w)
{
    const int t = blockIdx.x, j = threadIdx.x;
    const int id = ids[t];
    const __half2 g = grad_out[(size_t)t * 128 + j];
    atomicAdd(grad_w + (size_t)id * 128 + j, g);
}

// ------------------------------------------------------------ streaming copy with cache hints
// __ldcs / __stcs (evict-first) float4 grid-stride with a scalar tail;
// n = 1,000,003 floats.
extern "C" __global__ void LB(256) stream_scale_cs(const float* __restrict__ in, float* __restrict__ out, int n, float a)
{
    const int n4 = n >> 2;
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 v = __ldcs(reinterpret_cast<const float4*>(in) + i);
        __stcs(reinterpret_cast<float4*>(out) + i, make_float4(a * v.x, a * v.y, a * v.z, a * v.w));
    }
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n - n4 * 4)
        out[n4 * 4 + t] = a * __ldg(in + n4 * 4 + t);
}

// ------------------------------------------------------------ im2col, NHWC, 16-byte vectors
// fp16 NHWC 56 x 56 x 64, 3 x 3, pad 1: a thread per (pixel, kh, kw, c/8)
// moves 8 halves (uint4), zeros outside the image.
extern "C" __global__ void LB(256) im2col_nhwc_v8(const uint4* __restrict__ in, uint4* __restrict__ col, int H, int W,
                                                  int C8, int total)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    const int c8 = i % C8;
    const int kk = (i / C8) % 9;
    const int pix = i / (C8 * 9);
    const int oh = pix / W, ow = pix % W;
    const int ih = oh + kk / 3 - 1, iw = ow + kk % 3 - 1;
    uint4 v = make_uint4(0, 0, 0, 0);
    if (ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = in[((size_t)ih * W + iw) * C8 + c8];
    col[i] = v;
}

// ------------------------------------------------------------ bias + GELU on bf16 x 8 vectors with a tail
// n = 2,049,005 bf16, bias of 1,000 columns; 16-byte vectors of 8 (bias as
// 16-byte vectors too), the last 5 values scalar.
extern "C" __global__ void LB(256) bias_gelu_bf16x8(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ bias,
                                                    __nv_bfloat16* __restrict__ y, int n, int cols)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    const int nv = n / 8;
    if (v < nv) {
        uint4 xr = reinterpret_cast<const uint4*>(x)[v];
        uint4 br = reinterpret_cast<const uint4*>(bias)[(v * 8 % cols) / 8];
        __nv_bfloat162* xp = reinterpret_cast<__nv_bfloat162*>(&xr);
        const __nv_bfloat162* bp = reinterpret_cast<const __nv_bfloat162*>(&br);
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            float2 f = __bfloat1622float2(__hadd2(xp[k], bp[k]));
            f.x = 0.5f * f.x * (1.f + tanhf(0.7978845608f * (f.x + 0.044715f * f.x * f.x * f.x)));
            f.y = 0.5f * f.y * (1.f + tanhf(0.7978845608f * (f.y + 0.044715f * f.y * f.y * f.y)));
            xp[k] = __float22bfloat162_rn(f);
        }
        reinterpret_cast<uint4*>(y)[v] = xr;
    } else if (v - nv < n - nv * 8) {
        const int e = nv * 8 + (v - nv);
        float f = __bfloat162float(x[e]) + __bfloat162float(bias[e % cols]);
        y[e] = __float2bfloat16(0.5f * f * (1.f + tanhf(0.7978845608f * (f + 0.044715f * f * f * f))));
    }
}
