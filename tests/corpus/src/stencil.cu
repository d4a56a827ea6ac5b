// 2D stencil with __constant__ coefficients, dynamic shared memory with halo,
// texture-object reads, device printf, a local-memory array and a device
// function call that is not inlined. Written for warpscope's test corpus.
#include <cstdio>

__constant__ float c_coef[9];
__device__ int g_error_count;

__device__ __noinline__ float clampf(float v, float lo, float hi) { return fminf(fmaxf(v, lo), hi); }

__global__ void stencil3x3(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
    extern __shared__ float tile[];               // (blockDim.x+2) * (blockDim.y+2)
    const int pitch = blockDim.x + 2;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    for (int dy = threadIdx.y; dy < blockDim.y + 2; dy += blockDim.y)
        for (int dx = threadIdx.x; dx < blockDim.x + 2; dx += blockDim.x) {
            int gx = min(max((int)(blockIdx.x * blockDim.x) + dx - 1, 0), w - 1);
            int gy = min(max((int)(blockIdx.y * blockDim.y) + dy - 1, 0), h - 1);
            tile[dy * pitch + dx] = in[gy * w + gx];
        }
    __syncthreads();
    if (x >= w || y >= h) return;
    float s = 0.f;
#pragma unroll
    for (int j = 0; j < 3; ++j)
#pragma unroll
        for (int i = 0; i < 3; ++i)
            s += c_coef[j * 3 + i] * tile[(threadIdx.y + j) * pitch + threadIdx.x + i];
    out[y * w + x] = clampf(s, 0.f, 1.f);
}

__global__ void tex_bilinear(cudaTextureObject_t tex, float* out, int w, int h, float scale) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float v = tex2D<float>(tex, (x + 0.5f) * scale, (y + 0.5f) * scale);
        out[y * w + x] = v;
        if (v != v) {
            atomicAdd(&g_error_count, 1);
            printf("NaN at (%d,%d) block (%d,%d)\n", x, y, blockIdx.x, blockIdx.y);
        }
    }
}

__global__ void median9(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 8 >= n) return;
    int v[9];                                     // dynamically indexed -> local memory
    for (int k = 0; k < 9; ++k) v[k] = in[i + k];
    for (int a = 1; a < 9; ++a) {
        int key = v[a], b = a - 1;
        while (b >= 0 && v[b] > key) { v[b + 1] = v[b]; --b; }
        v[b + 1] = key;
    }
    out[i] = v[4];
}

__global__ void surf_write(cudaSurfaceObject_t surf, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) surf2Dwrite(make_float4(x, y, 0.f, 1.f), surf, x * sizeof(float4), y);
}
