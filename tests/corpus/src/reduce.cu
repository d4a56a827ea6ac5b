// Block reduction: shared memory tree, warp shuffles, grid-wide atomics.
// Written for warpscope's test corpus.
#include <climits>
#include <cstdio>
#include <cuda_runtime.h>

__device__ __forceinline__ float warp_sum(float v) {
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce_sum(const float* __restrict__ in, float* out, int n) {
    __shared__ float partial[BLOCK / 32];
    float v = 0.f;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
        v += __ldg(in + i);
    v = warp_sum(v);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < BLOCK / 32 ? partial[lane] : 0.f;
        v = warp_sum(v);
        if (lane == 0) atomicAdd(out, v);
    }
}

// Explicit instantiation: the kernel exists in the PTX even when the host code
// that launches it is not compiled (NVRTC, which builds the sm_70 PTX).
template __global__ void reduce_sum<256>(const float* __restrict__, float*, int);

__global__ void histogram(const unsigned char* data, unsigned int* bins, int n) {
    __shared__ unsigned int local[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        if (local[i]) atomicAdd(&bins[i], local[i]);
}

__global__ void argmax_ballot(const int* x, int n, unsigned long long* best) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : INT_MIN;
    int m = v;
    for (int off = 16; off > 0; off >>= 1) m = max(m, __shfl_xor_sync(0xffffffffu, m, off));
    unsigned mask = __ballot_sync(0xffffffffu, v == m);
    if ((threadIdx.x & 31) == __ffs(mask) - 1) {
        unsigned long long packed = ((unsigned long long)(unsigned)(m ^ 0x80000000) << 32) | (unsigned)i;
        atomicMax(best, packed);
    }
}

int main() {
    const int n = 1 << 20;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    cudaMemset(out, 0, sizeof(float));
    reduce_sum<256><<<120, 256>>>(in, out, n);
    float h = 0;
    cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("sum = %f\n", h);
    return 0;
}
