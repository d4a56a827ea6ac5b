// Cooperative groups, inline PTX, 64-bit/CAS atomics, memory fences,
// clock and globaltimer reads, __nanosleep, vector types, bf16, a switch
// that becomes a jump table, and recursion. Written for warpscope's test corpus.
#include <cooperative_groups.h>
#include <cuda_bf16.h>
namespace cg = cooperative_groups;

__device__ unsigned int g_ticket;
__device__ volatile int g_flag;

__device__ unsigned int lane_id() {
    unsigned int r;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
}

__device__ double atomic_mul(double* addr, double v) {
    unsigned long long* p = reinterpret_cast<unsigned long long*>(addr);
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __double_as_longlong(__longlong_as_double(assumed) * v));
    } while (assumed != old);
    return __longlong_as_double(old);
}

__global__ void coop_scan(const int* in, int* out, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d <<= 1) {
        int t = warp.shfl_up(v, d);
        if (warp.thread_rank() >= d) v += t;
    }
    if (i < n) out[i] = v;
}

__global__ void timing_and_fences(long long* t, unsigned long long* gt, double* prod, float4* v4, int spin) {
    long long t0 = clock64();
    unsigned long long g0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    unsigned int ticket = atomicAdd(&g_ticket, 1u);
    if (ticket == 0) {
        __threadfence();
        g_flag = 1;
    } else {
        while (g_flag == 0 && spin-- > 0) __nanosleep(100);
    }
    atomic_mul(prod, 1.0001);
    float4 a = v4[threadIdx.x];
    a.x += lane_id(); a.w *= 2.f;
    v4[threadIdx.x] = a;
    __threadfence_system();
    t[blockIdx.x] = clock64() - t0;
    gt[blockIdx.x] = g0;
}

__global__ void bf16_gelu(const __nv_bfloat16* x, __nv_bfloat16* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float f = __bfloat162float(x[i]);
        y[i] = __float2bfloat16(0.5f * f * (1.f + tanhf(0.7978845608f * (f + 0.044715f * f * f * f))));
    }
}

__device__ float apply_op(int op, float a, float b) {
    switch (op) {
        case 0: return a + b;
        case 1: return a - b;
        case 2: return a * b;
        case 3: return a / b;
        case 4: return fmaxf(a, b);
        case 5: return fminf(a, b);
        case 6: return powf(a, b);
        case 7: return atan2f(a, b);
        default: return 0.f;
    }
}

__global__ void interpreter(const int* ops, const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = apply_op(ops[i], a[i], b[i]);
}

__device__ int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }

__global__ void recursive(int* out) { out[threadIdx.x] = fib(threadIdx.x % 12); }
