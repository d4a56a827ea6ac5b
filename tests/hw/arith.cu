// warpscope hardware suite, part 3 (tests/hw): address arithmetic that
// compilers emit (issue 10): bfi, data-dependent bounded indices (histogram),
// a loaded warp-uniform base, a three-level inline chain, magic-number
// division, shuffles, and the bit operations ptxas and nvcc produce.
// Default launch: 128 blocks of 256 threads, n = 32768.  Every access of
// interest sits on its own line.  Launches: tests/hw/launches.json.

#include "arith_helpers.cuh"

#define LB(n) __launch_bounds__(n)

// x[blockIdx.x * 16 + (threadIdx.x & 15)] compiles to bfi
extern "C" __global__ void LB(256) bfi_idx16(const float* x, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[blockIdx.x * 16 + (threadIdx.x & 15)];
    out[i] = v;
}

// (blockIdx.x << 5) | lane
extern "C" __global__ void LB(256) bfi_or_lane(const float* x, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[(blockIdx.x << 5) | (threadIdx.x & 31)];
    out[i] = v;
}

// histogram: b random (a permutation of 0..32767), bins b & 255
extern "C" __global__ void LB(256) hist_atomic(const int* b, unsigned* hist, float* out, const float* table, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = b[i];
        atomicAdd(&hist[v & 255], 1u);
        float t = table[v & 255];
        out[i] = t;
    }
}

// the same through inline PTX (one line, no CUDA header in between)
extern "C" __global__ void LB(256) hist_red_asm(const int* b, unsigned* hist, float* out, const float* table, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = b[i];
        asm volatile("red.global.add.u32 [%0], 1;" ::"l"(hist + (v & 255)) : "memory");
        float t = table[(v >> 8) & 1023];
        out[i] = t;
    }
}

// shared-memory histogram with bounded random bins
extern "C" __global__ void LB(256) hist_shared(const int* b, unsigned* hist, int n)
{
    __shared__ unsigned h[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    h[t] = 0;
    __syncthreads();
    int v = b[i];
    atomicAdd(&h[v & 255], 1u);
    __syncthreads();
    hist[blockIdx.x * 256 + t] = h[t];
}

// a value loaded from a warp-uniform address, used as a base: ix = inp[k]
extern "C" __global__ void LB(256) loaded_base(const int* inp, const float* x, float* out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < iters; ++k) {
        int ix = inp[k];
        acc += x[ix + threadIdx.x];
    }
    int jx = inp[blockIdx.x];
    out[jx + threadIdx.x] = acc;
}

// three-level inline chain: kernel -> proj_load (this file) -> hdr_load (arith_helpers.cuh)
__device__ __forceinline__ float proj_load(const float* p, int i)
{
    return hdr_load(p, 2 * i) + 1.0f;
}

__device__ __forceinline__ void proj_store(float* p, int i, float v)
{
    hdr_store(p, i + 32, v);
}

extern "C" __global__ void LB(256) inline_chain(const float* x, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = proj_load(x, i);
    proj_store(out, i, v);
}

// magic-number division by constants
extern "C" __global__ void LB(256) magic_div(const float* x, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned u = i;
    float a = x[(i / 3) * 4];
    float b = x[(u / 7) + (u % 7) * 1024];
    float c = x[(u / 100) * 32 + (u & 31)];
    float d = x[(i / 32) * 64 + i % 32];
    float e = x[(u / 12) * 3 + u % 3];
    out[i] = a + b + c + d + e;
}

// shuffles
extern "C" __global__ void LB(256) shuffles(const float* x, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int j0 = __shfl_sync(0xffffffffu, i, 0);
    float a = x[j0 + lane];
    int j1 = __shfl_xor_sync(0xffffffffu, i, 1);
    float b = x[j1];
    int j2 = __shfl_down_sync(0xffffffffu, i, 4);
    float c = x[j2];
    int j3 = __shfl_up_sync(0xffffffffu, i, 1);
    float d = x[j3];
    int j4 = __shfl_sync(0xffffffffu, i, (lane * 7) & 31);
    float e = x[j4];
    int j5 = __shfl_sync(0xffffffffu, i * 4, 5);
    float f = x[j5];
    out[i] = a + b + c + d + e + f;
}

// bit operations
extern "C" __global__ void LB(256) bit_ops(const float* x, const unsigned char* bytes, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned u = i, lane = threadIdx.x & 31;
    float a = x[(u >> 4) & 7];
    float b = x[__byte_perm(u, 0, 0x3210) ^ 0];
    float c = x[__funnelshift_l(u, u >> 16, 2) & 0xffff];
    float d = x[(i & ~31) + (__brev(lane) >> 27)];
    float e = x[(i & ~31) + __popc(lane)];
    float f = x[(i & ~31) + (__clz(lane + 1) & 31)];
    float g = x[min(i, 1000)];
    float h = x[bytes[i]];
    float k = x[(u ^ (u >> 3)) & 0xff];
    float m = x[(i & ~31) + __popc(__ballot_sync(0xffffffffu, lane < 16))];
    float o = x[__reduce_add_sync(0xffffffffu, lane) + lane];
    out[i] = a + b + c + d + e + f + g + h + k + m + o;
}
