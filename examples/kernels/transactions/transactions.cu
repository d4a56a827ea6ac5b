// Seed 001 (NVIDIA Nsight Visual Studio Edition documentation, "Memory
// Transactions", TransactionsExamples.cu): three kernels that each perform 32
// float4 (16-byte) stores, the k-th store done by the first k threads of the
// warp only (k = 1..32), to
//   sameAddress:          values[0]
//   sequentialAddresses:  values[threadIdx.x]
//   separateCacheLines:   values[threadIdx.x * 128 / sizeof(float4)]
// Each kernel is launched with one block of 32 threads (<<<1,32>>>).
// Built with: nvcc -arch=sm_90 -lineinfo -O3 -ptx
//
// nvcc 13.0 -O3 removes 31 of the 32 stores of the seed's own code (each store
// is overwritten by the next one, whose guard is weaker), leaving one
// st.global.v4.f32 executed by all 32 lanes.  So the kernels below are kept
// as the seed wrote them, and a second set (*_each) issues the 32 stores
// through inline PTX, which the compiler may not remove.  In the *_each
// kernels the 32 stores share one source line (the asm statement inside the
// unrolled loop); tests/hw/measured.json lists them as separate SASS
// instructions, and the k-th one executes with k active lanes.

__device__ void store(float4 *values, int id, int index)
{
    // 32 different store instructions: the first done only on the first
    // thread, the next only on the first two threads, ..., the last on all.
#pragma unroll
    for (int numThreads = 1; numThreads <= 32; ++numThreads)
        if (id < numThreads)
            values[index] = float4();
}

__global__ void sameAddress(float4 *values) { store(values, threadIdx.x, 0); }
__global__ void sequentialAddresses(float4 *values) { store(values, threadIdx.x, threadIdx.x); }
__global__ void separateCacheLines(float4 *values) { store(values, threadIdx.x, threadIdx.x * 128 / sizeof(float4)); }

__device__ void store_each(float4 *values, int id, int index)
{
#pragma unroll
    for (int numThreads = 1; numThreads <= 32; ++numThreads)
        if (id < numThreads)
            asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" :: "l"(values + index), "f"(0.0f), "f"(0.0f), "f"(0.0f), "f"((float)numThreads) : "memory");
}

__global__ void sameAddress_each(float4 *values) { store_each(values, threadIdx.x, 0); }
__global__ void sequentialAddresses_each(float4 *values) { store_each(values, threadIdx.x, threadIdx.x); }
__global__ void separateCacheLines_each(float4 *values) { store_each(values, threadIdx.x, threadIdx.x * 128 / sizeof(float4)); }
