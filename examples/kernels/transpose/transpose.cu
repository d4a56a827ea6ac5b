// Matrix transpose, naive and through shared memory, after the classic CUDA
// SDK / "An Efficient Matrix Transpose in CUDA C/C++" structure: 32x32 tiles,
// 32x8 thread blocks, each thread moves 4 elements (rows j, j+8, j+16, j+24).
//   transpose_naive    coalesced loads, stores with a stride of one row
//   transpose_smem     tile in shared memory float[32][32] (32-way bank
//                      conflicts on the column read)
//   transpose_smem_pad tile float[32][33] (padding removes the conflicts)
//   copy_tile          the same index arithmetic without the transpose
// Built with: nvcc -arch=sm_90 -lineinfo -O3 -ptx
// Launches (tests/hw/launches.json): width = height = 512, grid 16x16,
// block 32x8.

#define TILE 32
#define ROWS 8

extern "C" __global__ void __launch_bounds__(256) copy_tile(float *out, const float *in, int width)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS) {
        float v = in[(y + j) * width + x];
        out[(y + j) * width + x] = v;
    }
}

extern "C" __global__ void __launch_bounds__(256) transpose_naive(float *out, const float *in, int width)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS) {
        float v = in[(y + j) * width + x];
        out[x * width + (y + j)] = v;
    }
}

extern "C" __global__ void __launch_bounds__(256) transpose_smem(float *out, const float *in, int width)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS) {
        float v = in[(y + j) * width + x];
        tile[threadIdx.y + j][threadIdx.x] = v;
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS) {
        float v = tile[threadIdx.x][threadIdx.y + j];
        out[(y + j) * width + x] = v;
    }
}

extern "C" __global__ void __launch_bounds__(256) transpose_smem_pad(float *out, const float *in, int width)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS) {
        float v = in[(y + j) * width + x];
        tile[threadIdx.y + j][threadIdx.x] = v;
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS) {
        float v = tile[threadIdx.x][threadIdx.y + j];
        out[(y + j) * width + x] = v;
    }
}
