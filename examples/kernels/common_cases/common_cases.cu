// Seed 004 (CUDA Application Design and Development, ch. 5, Table 5.10
// "Common Cached Global Memory Use Cases"): the cached-load cases, one kernel
// each, one warp-wide 4-byte load per thread on its own line.
//   broadcast            every lane reads the same word (consecutive words
//                        over N iterations)
//   aligned              32 aligned, consecutive 4-byte words
//   permuted             32 aligned, permuted words (lane -> (7*lane+3) mod 32)
//   misaligned           32 consecutive words starting 4 bytes past a line
//   misaligned_permuted  the permuted pattern, shifted by 4 bytes
//   scattered            N active lanes, each in its own 128-byte line
// Built with: nvcc -arch=sm_90 -lineinfo -O3 -ptx
// Launches: tests/hw/launches.json (block 256, n = 32768 unless stated).

extern "C" __global__ void __launch_bounds__(256) cc_broadcast(const float *in, float *out, int n, int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < N; ++k) {
        acc += in[k];
    }
    if (i < n) out[i] = acc;
}

extern "C" __global__ void __launch_bounds__(256) cc_aligned(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        out[i] = v;
    }
}

extern "C" __global__ void __launch_bounds__(256) cc_permuted(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    if (i < n) {
        float v = in[(i & ~31) + ((lane * 7 + 3) & 31)];
        out[i] = v;
    }
}

extern "C" __global__ void __launch_bounds__(256) cc_misaligned(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i + 1];
        out[i] = v;
    }
}

extern "C" __global__ void __launch_bounds__(256) cc_misaligned_permuted(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    if (i < n) {
        float v = in[(i & ~31) + ((lane * 7 + 3) & 31) + 1];
        out[i] = v;
    }
}

extern "C" __global__ void __launch_bounds__(256) cc_scattered(const float *in, float *out, int n, int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    if (i < n && lane < N) {
        float v = in[i * 32];
        out[i] = v;
    }
}
