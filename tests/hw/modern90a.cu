// warpscope hardware suite, part 4 (tests/hw): a tensor-core kernel for sm_90a
// (built with -gencode=arch=compute_90a,code=sm_90a; see measure.sh).
//
// One warpgroup (128 threads) per block issues one wgmma.mma_async
// m64n8k16 f32 += f16 * f16 with both operands in shared memory, described
// by matrix descriptors without swizzle: 8x8 core matrices (8 rows of 16
// bytes), leading byte offset 128 (next core matrix along K), stride byte
// offset 256 (next core matrix along M or N).

#include <cuda_fp16.h>

static __device__ __forceinline__ unsigned long long wg_desc(const void* p, unsigned lbo, unsigned sbo)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(p);
    return (unsigned long long)((a & 0x3FFFF) >> 4) | ((unsigned long long)(lbo >> 4) << 16) |
           ((unsigned long long)(sbo >> 4) << 32);
}

extern "C" __global__ void __launch_bounds__(128) wgmma_m64n8k16(const __half* a, const __half* b, float* out)
{
    __shared__ __align__(128) __half sa[64 * 16];
    __shared__ __align__(128) __half sb[8 * 16];
    int t = threadIdx.x;
    for (int k = t; k < 64 * 16; k += 128) sa[k] = a[blockIdx.x * 1024 + k];
    sb[t] = b[t];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned long long da = wg_desc(sa, 128, 256), db = wg_desc(sb, 128, 256);
    float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\twgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n\t}" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(da), "l"(db), "r"(0) : "memory");
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    float* o = out + (blockIdx.x * 128 + t) * 4;
    o[0] = d0;
    o[1] = d1;
    o[2] = d2;
    o[3] = d3;
}

// Fourth run: m64n32k16 with both operands in shared memory (A 64 x 16, B 32 x 16
// halves, the same no-swizzle core-matrix layout: LBO 128, SBO 256), and with A
// in registers (wgmma ... {a0, a1, a2, a3}, descB: only B is read from shared memory).
#define WG_D16 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}"
#define WG_OUT16                                                                               \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])

extern "C" __global__ void __launch_bounds__(128) wgmma_m64n32k16_ss(const __half* a, const __half* b, float* out)
{
    __shared__ __align__(128) __half sa[64 * 16];
    __shared__ __align__(128) __half sb[32 * 16];
    int t = threadIdx.x;
    for (int k = t; k < 64 * 16; k += 128) sa[k] = a[blockIdx.x * 1024 + k];
    for (int k = t; k < 32 * 16; k += 128) sb[k] = b[k];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned long long da = wg_desc(sa, 128, 256), db = wg_desc(sb, 128, 256);
    float d[16] = {};
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %18, 0;\n\twgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 " WG_D16 ", %16, %17, p, 1, 1, 0, 0;\n\t}" : WG_OUT16 : "l"(da), "l"(db), "r"(0) : "memory");
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    float* o = out + (blockIdx.x * 128 + t) * 16;
    for (int k = 0; k < 16; ++k) o[k] = d[k];
}

extern "C" __global__ void __launch_bounds__(128) wgmma_m64n32k16_rs(const __half* a, const __half* b, float* out)
{
    __shared__ __align__(128) __half sb[32 * 16];
    int t = threadIdx.x;
    for (int k = t; k < 32 * 16; k += 128) sb[k] = b[k];
    const unsigned* ar = reinterpret_cast<const unsigned*>(a) + (blockIdx.x * 128 + t) * 4;
    unsigned a0 = ar[0], a1 = ar[1], a2 = ar[2], a3 = ar[3];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned long long db = wg_desc(sb, 128, 256);
    float d[16] = {};
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %21, 0;\n\twgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 " WG_D16 ", {%16, %17, %18, %19}, %20, p, 1, 1, 0;\n\t}" : WG_OUT16 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(db), "r"(0) : "memory");
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    float* o = out + (blockIdx.x * 128 + t) * 16;
    for (int k = 0; k < 16; ++k) o[k] = d[k];
}
