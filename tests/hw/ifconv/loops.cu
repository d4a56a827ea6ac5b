// Loops as nvcc -O3 writes them (no #pragma unroll): how ptxas unrolls a loop
// whose trip count is a runtime value, and what it does with the remainder.
// Each access on its own line; compiled by regen.sh (nvcc -arch=sm_90 -O3
// -lineinfo -ptx, then ptxas -lineinfo), read back by excerpts.py --cuda.
#define LB(n) __launch_bounds__(n)

// A runtime trip count, one load per iteration (topk-style).
extern "C" __global__ void LB(256) rt_1acc(const float* __restrict__ a, float* out, int n, int ld)
{
    float s = 0.f;
    for (int k = 0; k < n; ++k)
        s += a[k * ld + threadIdx.x];
    out[threadIdx.x] = s;
}

// The moe_unpermute_reduce shape: per k, two loads of a warp-uniform
// address and a gather.
extern "C" __global__ void LB(256) rt_3acc_moe(const float* __restrict__ x, const int* __restrict__ row,
                                               const float* __restrict__ w, float* out, int topk, int h)
{
    const int t = blockIdx.x;
    const int c = threadIdx.x;
    float acc = 0.f;
    for (int k = 0; k < topk; ++k) {
        const int r = row[t * topk + k];
        const float wk = w[t * topk + k];
        acc += wk * x[(size_t)r * h + c];
    }
    out[(size_t)t * h + c] = acc;
}

// A runtime trip count, two and four loads per iteration.
extern "C" __global__ void LB(256) rt_2acc(const float* __restrict__ a, const float* __restrict__ b, float* out, int n, int ld)
{
    float s = 0.f;
    for (int k = 0; k < n; ++k) {
        s += a[k * ld + threadIdx.x] *
             b[k * ld + threadIdx.x];
    }
    out[threadIdx.x] = s;
}

extern "C" __global__ void LB(256) rt_4acc(const float* __restrict__ a, float* out, int n, int ld)
{
    float s = 0.f;
    for (int k = 0; k < n; ++k) {
        const float* p = a + k * ld + threadIdx.x;
        s += p[0] +
             p[32] +
             p[64] +
             p[96];
    }
    out[threadIdx.x] = s;
}

// A block-stride loop (start tid, bound n, step blockDim.x): embedding_h2's shape.
extern "C" __global__ void LB(128) stride_copy(const float* __restrict__ in, float* __restrict__ out, int n)
{
    const size_t base = (size_t)blockIdx.x * n;
    for (int d = threadIdx.x; d < n; d += 128)
        out[base + d] = in[base + d];
}

// The same with a runtime step.
extern "C" __global__ void LB(128) stride_sum(const float* __restrict__ in, float* __restrict__ out, int n)
{
    float s = 0.f;
    for (int d = threadIdx.x; d < n; d += blockDim.x)
        s += in[d];
    out[threadIdx.x] = s;
}

// A constant-bound loop with a lane-dependent start (cg_tile16_rowdot's shape:
// 256 / 16 = 16 iterations).
extern "C" __global__ void LB(128) const_tile16(const float2* __restrict__ m, const float2* __restrict__ x, float* y)
{
    const int lane = threadIdx.x & 15;
    float s = 0.f;
    for (int k = lane; k < 256; k += 16) {
        float2 a = m[k];
        float2 b = x[k];
        s += a.x * b.x + a.y * b.y;
    }
    y[threadIdx.x] = s;
}

// A constant-bound loop of 5 with a guard inside (dwconv's taps).
extern "C" __global__ void LB(256) const5_guarded(const float* __restrict__ in, float* out, int w)
{
    const int x = threadIdx.x;
    float s = 0.f;
    for (int k = 0; k < 5; ++k) {
        const int xx = x + k - 2;
        if (xx >= 0 && xx < w)
            s += in[xx];
    }
    out[x] = s;
}

// A guarded element loop of a runtime count, stores only.
extern "C" __global__ void LB(256) rt_store(float* out, int n, int ld)
{
    for (int k = 0; k < n; ++k)
        out[k * ld + threadIdx.x] = (float)k;
}

// A row loop with a lane start and a bound from the host (fp8_rowquant_e4m3's
// amax loop in tests/hw/blind8, cub_warp_rowstats in blind7): nvcc unrolls it
// by 4 with a remainder loop, and ptxas unrolls the unrolled body by 4 again
// (16 copies a trip, then 8, then 4: the lanes of different trip counts take
// different copies).
extern "C" __global__ void LB(128) lane_rowmax_f4(const float4* x, float* o, int n)
{
    const float4* xr = x + (size_t)blockIdx.x * n;
    const int lane = threadIdx.x & 31;
    float m = 0.f;
    for (int j = lane; j < n; j += 32) {
        float4 v = xr[j];
        m = fmaxf(m, fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w))));
    }
    o[blockIdx.x * 32 + lane] = m;
}

// The same shape, a scalar sum and a copy (both re-unrolled), beside
// stride_copy above (size_t index: not re-unrolled).
extern "C" __global__ void LB(128) lane_rowsum(const float* x, float* o, int n)
{
    const float* xr = x + (size_t)blockIdx.x * n;
    const int lane = threadIdx.x & 31;
    float m = 0.f;
    for (int j = lane; j < n; j += 32)
        m += xr[j];
    o[blockIdx.x * 32 + lane] = m;
}

extern "C" __global__ void LB(128) lane_rowcopy(const float* x, float* o, int n)
{
    const float* xr = x + (size_t)blockIdx.x * n;
    float* orr = o + (size_t)blockIdx.x * n;
    const int lane = threadIdx.x & 31;
    for (int j = lane; j < n; j += 32)
        orr[j] = xr[j];
}
