// Seed 003 (Prasenjit Chakraborty, "Fundamentals of NVIDIA Memory Hierarchy and
// Nsight Compute", program github.com/prasenjit-c/cuda-tests ami_measure.cu):
// an element-wise FMA over a grid-stride loop,
//   y[i] = x[i] * user_arg[o] + y[i]   for o = 0 .. OP-1,
// where every lane of a warp reads the same user_arg[o] (a broadcast load).
// Written for warpscope after the seed's description; same signature
// (long n, T *x, T *y, float *user_arg) and loop structure.
// Built with: nvcc -arch=sm_90 -lineinfo -O3 -ptx
// Launches (tests/hw/launches.json): OP = 1 with one block of 1 thread over
// n = 131,072 (the seed's first run, 1 MB), and one block of 8, 32 and 64
// threads over n = 1,048,576 (the seed's 8 MB runs); OP = 4 with 32 threads.
//
// In `fma` the three loads and the store share one source line (as in the
// seed).  `fma_split` is the same computation with each access on its own
// line, so that per-line measurements separate x, user_arg and y.

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

template <typename T, int OP>
__global__ void fma_split(long n, T *x, T *y, float *user_arg)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    for (auto i = index; i < n; i += stride) {
#pragma unroll
        for (auto o = 0; o < OP; o++) {
            T xv = x[i];
            float u = user_arg[o];
            T yv = y[i];
            y[i] = xv * u + yv;
        }
    }
}

template __global__ void fma<float, 1>(long, float *, float *, float *);
template __global__ void fma<float, 4>(long, float *, float *, float *);
template __global__ void fma_split<float, 1>(long, float *, float *, float *);
