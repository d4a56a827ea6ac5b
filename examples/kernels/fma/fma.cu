// Seed 003 (Prasenjit Chakraborty, "Fundamentals of NVIDIA Memory Hierarchy and
// Nsight Compute", program github.com/prasenjit-c/cuda-tests ami_measure.cu):
// an element-wise FMA over a grid-stride loop,
//   y[i] = x[i] * user_arg[o] + y[i]   for o = 0 .. OP-1,
// where every lane of a warp reads the same user_arg[o] (a broadcast load).
// Written for warpscope after the seed's description; same signature
// (long n, T *x, T *y, float *user_arg) and loop structure.
// Built with: nvcc -arch=sm_90 -lineinfo -O3 -ptx
// Launches (tests/hw/launches.json): OP = 1, n = 1,048,576 (an 8 MB working
// set: x and y of 4 MB each, the seed's "8 MB" runs), one block of 1, 8, 32
// and 64 threads; plus OP = 4 over the same n.

template <typename T, int OP>
__global__ void fma(long n, T *x, T *y, float *user_arg)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (auto i = index; i < n; i += stride) {
#pragma unroll
        for (auto o = 0; o < OP; o++)
            y[i] = x[i] * user_arg[o] + y[i];
    }
}

template __global__ void fma<float, 1>(long, float *, float *, float *);
template __global__ void fma<float, 4>(long, float *, float *, float *);
