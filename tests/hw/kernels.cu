// warpscope hardware calibration suite (tests/hw).
//
// Every global/shared memory access of interest sits on its own source line, so
// that Nsight Compute's per-line SourceCounters can be compared one to one with
// warpscope's per-instruction predictions.  Launch configuration and scalar
// parameter values of every launch are in tests/hw/launches.json (written by
// tests/hw/host.cpp); the measured counters are in tests/hw/measured.json.
//
// Build (tests/hw/measure.sh does this): nvcc -arch=sm_90 -lineinfo -O3 -ptx
//
// Conventions: one thread per element, i = blockIdx.x * blockDim.x + threadIdx.x,
// `n` guards the tail.  Kernels are extern "C" (PTX .entry name == C name),
// except the templated stride kernels, whose mangled names are listed in
// launches.json.

#define LB(n) __launch_bounds__(n)

// ---------------------------------------------------------------------------
// 1. element sizes 1, 2, 4, 8, 16 bytes (coalesced copy)
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(256) copy_u8(const unsigned char* in, unsigned char* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned char v = in[i];
        out[i] = v + 1;
    }
}

extern "C" __global__ void LB(256) copy_u16(const unsigned short* in, unsigned short* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned short v = in[i];
        out[i] = v + 1;
    }
}

extern "C" __global__ void LB(256) copy_f32(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        out[i] = v + 1.0f;
    }
}

extern "C" __global__ void LB(256) copy_f64(const double* in, double* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double v = in[i];
        out[i] = v + 1.0;
    }
}

extern "C" __global__ void LB(256) copy_f32x2(const float2* in, float2* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 v = in[i];
        out[i] = make_float2(v.x + 1.0f, v.y);
    }
}

extern "C" __global__ void LB(256) copy_f32x4(const float4* in, float4* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i];
        out[i] = make_float4(v.x + 1.0f, v.y, v.z, v.w);
    }
}

extern "C" __global__ void LB(256) copy_f64x2(const double2* in, double2* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double2 v = in[i];
        out[i] = make_double2(v.x + 1.0, v.y);
    }
}

// read-only path: const __restrict__ lets nvcc emit ld.global.nc
extern "C" __global__ void LB(256) copy_f32_nc(const float* __restrict__ in, float* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        out[i] = v + 1.0f;
    }
}

// ---------------------------------------------------------------------------
// 2. misaligned (offset) accesses
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(256) misalign_f32_c1(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i + 1];
        out[i] = v + 1.0f;
    }
}

extern "C" __global__ void LB(256) misalign_f32_rt(const float* in, float* out, int n, int off)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i + off];
        out[i] = v + 1.0f;
    }
}

extern "C" __global__ void LB(256) misalign_f64_rt(const double* in, double* out, int n, int off)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double v = in[i + off];
        out[i] = v + 1.0;
    }
}

extern "C" __global__ void LB(256) misalign_f32x4_rt(const float4* in, float4* out, int n, int off)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i + off];
        out[i] = make_float4(v.x + 1.0f, v.y, v.z, v.w);
    }
}

extern "C" __global__ void LB(256) misalign_u8_rt(const unsigned char* in, unsigned char* out, int n, int off)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned char v = in[i + off];
        out[i] = v + 1;
    }
}

extern "C" __global__ void LB(256) misalign_store_f32(const float* in, float* out, int n, int off)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        out[i + off] = v + 1.0f;
    }
}

// ---------------------------------------------------------------------------
// 3. strides: compile-time 2..33 (template, mangled names), runtime stride
// ---------------------------------------------------------------------------
template <int S>
__global__ void LB(256) stride_f32(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i * S];
        out[i] = v + 1.0f;
    }
}
#define INST_STRIDE(S) template __global__ void stride_f32<S>(const float*, float*, int);
INST_STRIDE(2) INST_STRIDE(3) INST_STRIDE(4) INST_STRIDE(5) INST_STRIDE(6) INST_STRIDE(7)
INST_STRIDE(8) INST_STRIDE(9) INST_STRIDE(10) INST_STRIDE(11) INST_STRIDE(12) INST_STRIDE(13)
INST_STRIDE(14) INST_STRIDE(15) INST_STRIDE(16) INST_STRIDE(17) INST_STRIDE(18) INST_STRIDE(19)
INST_STRIDE(20) INST_STRIDE(21) INST_STRIDE(22) INST_STRIDE(23) INST_STRIDE(24) INST_STRIDE(25)
INST_STRIDE(26) INST_STRIDE(27) INST_STRIDE(28) INST_STRIDE(29) INST_STRIDE(30) INST_STRIDE(31)
INST_STRIDE(32) INST_STRIDE(33)

template <int S>
__global__ void LB(256) stride_store_f32(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        out[i * S] = v + 1.0f;
    }
}
template __global__ void stride_store_f32<2>(const float*, float*, int);
template __global__ void stride_store_f32<4>(const float*, float*, int);
template __global__ void stride_store_f32<8>(const float*, float*, int);
template __global__ void stride_store_f32<32>(const float*, float*, int);

template <int S>
__global__ void LB(256) stride_f64(const double* in, double* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double v = in[i * S];
        out[i] = v + 1.0;
    }
}
template __global__ void stride_f64<2>(const double*, double*, int);
template __global__ void stride_f64<4>(const double*, double*, int);

template <int S>
__global__ void LB(256) stride_f32x4(const float4* in, float4* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i * S];
        out[i] = make_float4(v.x + 1.0f, v.y, v.z, v.w);
    }
}
template __global__ void stride_f32x4<2>(const float4*, float4*, int);

extern "C" __global__ void LB(256) stride_f32_rt(const float* in, float* out, int n, int s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i * s];
        out[i] = v + 1.0f;
    }
}

// ---------------------------------------------------------------------------
// 4. broadcast: constant index, per-block, per-warp, per-8-lanes
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(256) broadcast_f32(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = in[5];
        float b = in[blockIdx.x];
        float c = in[i >> 5];
        float d = in[i >> 3];
        out[i] = a + b + c + d;
    }
}

// ---------------------------------------------------------------------------
// 5. permutations inside a warp (each lane still reads one distinct word of
//    the warp's own 128-byte segment)
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(256) warp_perm_f32(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int wb = i & ~31;
    if (i < n) {
        float a = in[wb + (31 - lane)];
        float b = in[i ^ 1];
        float c = in[i ^ 16];
        float d = in[wb + ((lane * 7) & 31)];
        float e = in[wb + ((lane + 5) & 31)];
        out[i] = a + b + c + d + e;
    }
}

// ---------------------------------------------------------------------------
// 6. lane arithmetic: shift, mask, xor, div/mod
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(256) lane_arith_f32(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int wb = i & ~31;
    if (i < n) {
        float a = in[i << 1];
        float b = in[i >> 1];
        float c = in[i & ~3];
        float d = in[i & 7];
        float e = in[wb + (lane % 8) * 4 + lane / 8];
        float f = in[i / 3];
        float g = in[(i % 17) * 64];
        float h = in[(i ^ 0x55) + 32];
        out[i] = a + b + c + d + e + f + g + h;
    }
}

// ---------------------------------------------------------------------------
// 7. indirect gather through an index array (data-dependent)
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(256) gather_f32(const float* in, const int* idx, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int j = idx[i];
        float v = in[j];
        out[i] = v + 1.0f;
    }
}

extern "C" __global__ void LB(256) scatter_f32(const float* in, const int* idx, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int j = idx[i];
        float v = in[i];
        out[j] = v + 1.0f;
    }
}

// ---------------------------------------------------------------------------
// 8. arrays of structs and structs of arrays
// ---------------------------------------------------------------------------
struct P3 { float x, y, z; };                       // 12 bytes, align 4
struct P4 { float x, y, z, w; };                    // 16 bytes, align 4
struct __align__(16) P4A { float x, y, z, w; };     // 16 bytes, align 16
struct P8 { float f[8]; };                          // 32 bytes, align 4

extern "C" __global__ void LB(256) aos3_f32(const P3* p, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = p[i].x;
        float y = p[i].y;
        float z = p[i].z;
        out[i] = x + y + z;
    }
}

extern "C" __global__ void LB(256) aos4_xw(const P4* p, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = p[i].x;
        float w = p[i].w;
        out[i] = x + w;
    }
}

extern "C" __global__ void LB(256) aos4a_vec(const P4A* p, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        P4A v = p[i];
        out[i] = v.x + v.y + v.z + v.w;
    }
}

extern "C" __global__ void LB(256) aos8_f0f5(const P8* p, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = p[i].f[0];
        float b = p[i].f[5];
        out[i] = a + b;
    }
}

extern "C" __global__ void LB(256) aos3_store_y(const float* in, P3* q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        q[i].y = v;
    }
}

extern "C" __global__ void LB(256) soa3_f32(const float* x, const float* y, const float* z, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = x[i];
        float b = y[i];
        float c = z[i];
        out[i] = a + b + c;
    }
}

// ---------------------------------------------------------------------------
// 9. 2-D and 3-D blocks, row- and column-major.  The block shape comes from
//    the launch (16x16, 32x8, 8x8x4: see launches.json).
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(256) blk2d_row(const float* in, float* out, int W)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float v = in[y * W + x];
    out[y * W + x] = v + 1.0f;
}

extern "C" __global__ void LB(256) blk2d_col(const float* in, float* out, int H)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float v = in[x * H + y];
    out[x * H + y] = v + 1.0f;
}

extern "C" __global__ void LB(256) blk3d_row(const float* in, float* out, int NX, int NY)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    float v = in[(z * NY + y) * NX + x];
    out[(z * NY + y) * NX + x] = v + 1.0f;
}

extern "C" __global__ void LB(256) blk3d_col(const float* in, float* out, int NZ, int NY)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    float v = in[(x * NY + y) * NZ + z];
    out[(x * NY + y) * NZ + z] = v + 1.0f;
}

// ---------------------------------------------------------------------------
// 10. grid-stride loop, unrolled loops, pointer walking
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(256) grid_stride_f32(const float* in, float* out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = in[i];
        out[i] = v + 1.0f;
    }
}

// 4 coalesced chunks per thread, fully unrolled: 4 SASS loads on one line
extern "C" __global__ void LB(256) unroll4_f32(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int total = blockDim.x * gridDim.x;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        float v = in[i + k * total];
        out[i + k * total] = v + 1.0f;
    }
}

// each thread sums 8 consecutive floats (per request: stride 8 across lanes)
extern "C" __global__ void LB(256) unroll8_seq_f32(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        acc += in[i * 8 + k];
    }
    out[i] = acc;
}

// walk down `rows` rows of a row-major matrix of width n (coalesced per step)
extern "C" __global__ void LB(256) ptr_walk_rows(const float* in, float* out, int n, int rows)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = in + i;
    float acc = 0.0f;
    for (int r = 0; r < rows; ++r) {
        acc += *p;
        p += n;
    }
    out[i] = acc;
}

// walk a private chunk of `cnt` consecutive floats (stride cnt across lanes)
extern "C" __global__ void LB(256) ptr_walk_chunk(const float* in, float* out, int cnt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = in + (size_t)i * cnt;
    float acc = 0.0f;
    for (int k = 0; k < cnt; ++k) {
        acc += *p;
        ++p;
    }
    out[i] = acc;
}

// ---------------------------------------------------------------------------
// 11. stencils
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(256) stencil1d_3pt(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < n - 1) {
        float l = in[i - 1];
        float c = in[i];
        float r = in[i + 1];
        out[i] = 0.25f * l + 0.5f * c + 0.25f * r;
    }
}

extern "C" __global__ void LB(256) stencil2d_5pt(const float* in, float* out, int W, int H)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && x < W - 1 && y > 0 && y < H - 1) {
        float n_ = in[(y - 1) * W + x];
        float w_ = in[y * W + x - 1];
        float c_ = in[y * W + x];
        float e_ = in[y * W + x + 1];
        float s_ = in[(y + 1) * W + x];
        out[y * W + x] = 0.2f * (n_ + w_ + c_ + e_ + s_);
    }
}

// ---------------------------------------------------------------------------
// 12. naive matrix multiply (16x16 blocks), C = A * B, N x N row-major
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(256) matmul_naive(const float* A, const float* B, float* C, int N)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    float acc = 0.0f;
    for (int k = 0; k < N; ++k) {
        float a = A[row * N + k];
        float b = B[k * N + col];
        acc += a * b;
    }
    C[row * N + col] = acc;
}

// ---------------------------------------------------------------------------
// 13. atomics: distinct / per-warp / same address, with and without result
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(256) atomic_add_f32(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&out[i], 1.0f);
        atomicAdd(&out[n + (i >> 5)], 1.0f);
        atomicAdd(&out[2 * n], 1.0f);
    }
}

// the same through inline PTX, so that -lineinfo attributes them to this file
extern "C" __global__ void LB(256) red_asm_f32(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        asm volatile("red.global.add.f32 [%0], %1;" :: "l"(out + i), "f"(1.0f) : "memory");
        asm volatile("red.global.add.f32 [%0], %1;" :: "l"(out + n + (i >> 5)), "f"(1.0f) : "memory");
        asm volatile("red.global.add.f32 [%0], %1;" :: "l"(out + 2 * n), "f"(1.0f) : "memory");
    }
}

extern "C" __global__ void LB(256) atom_ret_u32(unsigned int* cnt, unsigned int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned int a;
        unsigned int b;
        asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(a) : "l"(cnt + i) : "memory");
        asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(b) : "l"(cnt + n) : "memory");
        out[i] = a + b;
    }
}

extern "C" __global__ void LB(256) atomic_inc_same_u32(unsigned int* cnt, unsigned int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned int old = atomicAdd(cnt, 1u);
        out[i] = old;
    }
}

// ---------------------------------------------------------------------------
// 14. partial warps and predicated-off lanes
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(256) pred_half_warp(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x & 31) < 16 && i < n) {
        float v = in[i];
        out[i] = v + 1.0f;
    }
}

extern "C" __global__ void LB(256) pred_odd_lanes(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((i & 1) && i < n) {
        float v = in[i];
        out[i] = v + 1.0f;
    }
}

extern "C" __global__ void LB(256) pred_lane0(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x & 31) == 0 && i < n) {
        float v = in[i];
        out[i >> 5] = v + 1.0f;
    }
}

// ---------------------------------------------------------------------------
// 15. 64-bit indexing
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(256) idx64_offset(const float* in, float* out, long long n, long long off)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i + off];
        out[i] = v + 1.0f;
    }
}

extern "C" __global__ void LB(256) idx64_stride(const float* in, float* out, unsigned long long n, unsigned long long s)
{
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i * s];
        out[i] = v + 1.0f;
    }
}

// ---------------------------------------------------------------------------
// 16. shared memory: bank conflicts (one warp per block, 32 threads)
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(32) smem_banks(const float* in, float* out)
{
    __shared__ float s[32 * 33 + 32];
    int lane = threadIdx.x;
    int i = blockIdx.x * 32 + lane;
    float x = in[i];
    for (int k = 0; k < 34; ++k) {
        s[k * 32 + lane] = x + k;
    }
    __syncthreads();
    float a = s[lane];
    float b = s[lane * 2];
    float c = s[lane * 32];
    float d = s[lane * 33];
    float e = s[7];
    float2 f = reinterpret_cast<const float2*>(s + 128)[lane];
    float4 g = reinterpret_cast<const float4*>(s)[lane];
    float h = s[(lane * 4) % 32 + lane / 8];
    out[i] = a + b + c + d + e + f.x + f.y + g.x + g.y + g.z + g.w + h;
}
