// Seed 002 (github.com/cwpearson/nvidia-performance-tools, coalescing/): the
// `indirect` kernel.  Each thread increments one element of p through an index
// array; the index array is the identity ("coalesced") or a random permutation
// ("uncoalesced"), n = 10,000, for T = float and T = double.
//
// Written for warpscope after the seed's description (seed 001 shows the PTX
// `ld.global.u32 / ld.global.f32 / add / st.global.f32`, seed 002 the kernel
// signature `indirect(float*, int*, unsigned long)` and a grid-stride loop).
// Built with: nvcc -arch=sm_90 -lineinfo -O3 -ptx
// Launches (tests/hw/launches.json): grid 79, block 128, n = 10000.

template <typename T>
__global__ void indirect(T *p, const int *off, const size_t n)
{
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    for (int i = tid; i < n; i += gridDim.x * blockDim.x) {
        int idx = off[i];
        T f = p[idx];
        f += 1;
        p[idx] = f;
    }
}

template __global__ void indirect<float>(float *, const int *, const size_t);
template __global__ void indirect<double>(double *, const int *, const size_t);
