// warpscope fourteenth held-out batch (tests/hw/blind14): hand-written CUDA in
// the style of real projects' library kernels: a PyTorch ATen TensorIterator
// `where` with an OffsetCalculator (IntDivider magic numbers and byte strides
// read from a by-value struct; a permuted and a broadcast input), ATen's
// vectorized elementwise kernel (aligned_vector<float, 4> with the unrolled
// scalar fallback), cat of three tensors through a by-value metadata struct,
// embedding backward over sorted indices, RoI-Align, an NMS bitmask, a CUB-style
// two-pass even-share reduction, a Thrust-style transform over a counting
// iterator, a Faiss-style warp-queue k-select, a CSR SpMM with shared row tiles,
// a sliding-window FIR with __constant__ taps, softmax with a block per row
// (ILP 4 with the alignment shift) and with a warp per two rows (fp16), a
// 2-D-block outer-dimension (column) reduction, grid_sample (bilinear, zero
// padding) and pixel_shuffle on a 3-D block.  Our own code; only the toolkit's
// headers.  Every loop bound comes from a parameter or is bounded; each access
// of interest is on its own source line.
#include <cuda_fp16.h>
#include <stdint.h>

#define LB(n) __launch_bounds__(n)
#define FULLMASK 0xffffffffu

// ------------------------------------------------ ATen TensorIterator + OffsetCalculator --

// at::cuda::detail::IntDivider<uint32_t>: n / d = (umulhi(n, m1) + n) >> shift
struct IntDivider {
    unsigned divisor, m1, shift;
};
struct DivMod {
    unsigned div, mod;
};
static __device__ __forceinline__ DivMod divmod(const IntDivider& d, unsigned n)
{
    unsigned t = __umulhi(n, d.m1);
    unsigned q = (t + n) >> d.shift;
    DivMod r;
    r.div = q;
    r.mod = n - q * d.divisor;
    return r;
}
// the OffsetCalculator<2> of where()'s two non-contiguous inputs: dims fastest first,
// byte strides [dim][arg] (byte 0 dims, 4 sizes[3], 40 strides[3][2]; 64 bytes)
struct OffsetCalc2 {
    int dims;
    IntDivider sizes[3];
    unsigned strides[3][2];
};

// out = cond ? a : b over a 3-D shape; out and cond contiguous, a a permuted view,
// b broadcast along dim 1; elementwise_kernel<128, 4>: a thread 4 elements at a
// block stride
extern "C" __global__ void LB(128) aten_where_offsetcalc(float* __restrict__ out, const uint8_t* __restrict__ cond,
                                                         const float* __restrict__ a, const float* __restrict__ b,
                                                         OffsetCalc2 oc, int N)
{
    int idx = blockIdx.x * 512 + threadIdx.x;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        if (idx < N) {
            unsigned linear = idx;
            unsigned off_a = 0, off_b = 0;
#pragma unroll
            for (int d = 0; d < 3; ++d) {
                if (d == oc.dims) break;
                DivMod dm = divmod(oc.sizes[d], linear);
                linear = dm.div;
                off_a += dm.mod * oc.strides[d][0];
                off_b += dm.mod * oc.strides[d][1];
            }
            const uint8_t c = cond[idx];
            const float va = *(const float*)((const char*)a + off_a);
            const float vb = *(const float*)((const char*)b + off_b);
            out[idx] = c ? va : vb;
            idx += 128;
        }
    }
}

// --------------------------------------------- ATen vectorized elementwise (sigmoid) --

template <typename T, int V> struct alignas(sizeof(T) * V) aligned_vector {
    T val[V];
};
// vectorized_elementwise_kernel<vec_size 4>: a block 128 threads x 4 elements; full
// tiles by one aligned_vector<float, 4> a thread when both pointers are 16-byte
// aligned, otherwise (and for the partial last tile) the unrolled scalar path
extern "C" __global__ void LB(128) aten_vec4_sigmoid(const float* __restrict__ x, float* __restrict__ y, int N)
{
    const int base = blockIdx.x * 512;
    const int remaining = N - base;
    const bool aligned = ((reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(y)) % 16) == 0;
    if (remaining >= 512 && aligned) {
        aligned_vector<float, 4> v = reinterpret_cast<const aligned_vector<float, 4>*>(x + base)[threadIdx.x];
#pragma unroll
        for (int k = 0; k < 4; ++k) v.val[k] = 1.0f / (1.0f + __expf(-v.val[k]));
        reinterpret_cast<aligned_vector<float, 4>*>(y + base)[threadIdx.x] = v;
    } else {
        float r[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int i = threadIdx.x + k * 128;
            if (i < remaining) r[k] = x[base + i];
        }
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int i = threadIdx.x + k * 128;
            if (i < remaining) y[base + i] = 1.0f / (1.0f + __expf(-r[k]));
        }
    }
}

// ------------------------------------------------------------------ ATen cat --

// CatArrInputTensorMetadata for three inputs by value: byte 0 input[3], 24 offset[3]
// (column offset in the output), 36 dimSize[3] (columns), 48 nElements[3]; 64 bytes
struct CatMeta3 {
    const float* input[3];
    int offset[3];
    int dimSize[3];
    int nElements[3];
    int pad;
};
// CatArrayBatchedCopy: blockIdx.y picks the input, a grid-stride loop over its elements
extern "C" __global__ void LB(256) aten_cat3_dim1(float* __restrict__ out, CatMeta3 meta, int outCols)
{
    const int in = blockIdx.y;
    const int n = meta.nElements[in];
    const int cols = meta.dimSize[in];
    const int off = meta.offset[in];
    const float* src = meta.input[in];
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += gridDim.x * blockDim.x) {
        const int r = t / cols;
        const int c = t - r * cols;
        const float v = src[t];
        out[r * outCols + off + c] = v;
    }
}

// ------------------------------------------------- embedding backward, sorted --

// a block a run of equal sorted indices (loaded run offsets): the gradient rows of
// the run (int64 original positions) summed by float2 a thread, added to the
// weight gradient's row
extern "C" __global__ void LB(64) aten_embedding_bwd_sorted(const long long* __restrict__ sorted_idx,
                                                            const long long* __restrict__ orig_pos,
                                                            const int* __restrict__ run_off, const float2* __restrict__ grad,
                                                            float2* __restrict__ grad_w, int nruns, int D2)
{
    const int run = blockIdx.x;
    if (run >= nruns) return;
    const int start = run_off[run];
    const int end = run_off[run + 1];
    const long long w = sorted_idx[start];
    float2 acc = make_float2(0.0f, 0.0f);
    for (int k = start; k < end && k < start + 4096; ++k) {
        const long long p = orig_pos[k];
        const float2 g = grad[p * D2 + threadIdx.x];
        acc.x += g.x;
        acc.y += g.y;
    }
    float2 o = grad_w[w * D2 + threadIdx.x];
    o.x += acc.x;
    o.y += acc.y;
    grad_w[w * D2 + threadIdx.x] = o;
}

// ------------------------------------------------------------------ RoI-Align --

static __device__ __forceinline__ float bilinear_nchw(const float* __restrict__ plane, int H, int W, float y, float x)
{
    if (y < -1.0f || y > (float)H || x < -1.0f || x > (float)W) return 0.0f;
    y = fmaxf(y, 0.0f);
    x = fmaxf(x, 0.0f);
    int y0 = (int)y, x0 = (int)x, y1, x1;
    if (y0 >= H - 1) { y1 = y0 = H - 1; y = (float)y0; } else y1 = y0 + 1;
    if (x0 >= W - 1) { x1 = x0 = W - 1; x = (float)x0; } else x1 = x0 + 1;
    const float ly = y - y0, lx = x - x0, hy = 1.0f - ly, hx = 1.0f - lx;
    const float v00 = plane[y0 * W + x0];
    const float v01 = plane[y0 * W + x1];
    const float v10 = plane[y1 * W + x0];
    const float v11 = plane[y1 * W + x1];
    return hy * hx * v00 + hy * lx * v01 + ly * hx * v10 + ly * lx * v11;
}
// torchvision-style roi_align forward (aligned = true, sampling ratio 2): a thread an
// output (roi, c, ph, pw) of 7 x 7, rois as 5 floats (batch, x1, y1, x2, y2)
extern "C" __global__ void LB(256) roi_align_fwd(const float* __restrict__ input, const float* __restrict__ rois,
                                                 float* __restrict__ out, int nthreads, int C, int H, int W,
                                                 float scale)
{
    for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < nthreads; index += gridDim.x * blockDim.x) {
        const int pw = index % 7;
        const int ph = (index / 7) % 7;
        const int c = (index / 49) % C;
        const int n = index / (49 * C);
        const float* r = rois + n * 5;
        const int b = (int)r[0];
        const float x1 = r[1] * scale - 0.5f;
        const float y1 = r[2] * scale - 0.5f;
        const float x2 = r[3] * scale - 0.5f;
        const float y2 = r[4] * scale - 0.5f;
        const float bw = (x2 - x1) / 7.0f, bh = (y2 - y1) / 7.0f;
        const float* plane = input + ((size_t)b * C + c) * H * W;
        float s = 0.0f;
#pragma unroll
        for (int iy = 0; iy < 2; ++iy)
#pragma unroll
            for (int ix = 0; ix < 2; ++ix)
                s += bilinear_nchw(plane, H, W, y1 + ph * bh + (iy + 0.5f) * bh * 0.5f, x1 + pw * bw + (ix + 0.5f) * bw * 0.5f);
        out[index] = s * 0.25f;
    }
}

// ----------------------------------------------------------------- NMS bitmask --

static __device__ __forceinline__ float iou(float4 a, float4 b)
{
    const float l = fmaxf(a.x, b.x), t = fmaxf(a.y, b.y), r = fminf(a.z, b.z), d = fminf(a.w, b.w);
    const float w = fmaxf(r - l, 0.0f), h = fmaxf(d - t, 0.0f);
    const float inter = __fmul_rn(w, h);
    const float sa = __fmul_rn(a.z - a.x, a.w - a.y), sb = __fmul_rn(b.z - b.x, b.w - b.y);
    return __fdiv_rn(inter, sa + sb - inter);
}
// Detectron-style nms_kernel: a 64 x 64 tile of box pairs a block of 64 threads; the
// column boxes staged in shared memory; a 64-bit mask a row box, stored at
// [row][col_block]
extern "C" __global__ void LB(64) nms_bitmask(const float4* __restrict__ boxes, unsigned long long* __restrict__ mask,
                                              int n, float thr)
{
    const int row_start = blockIdx.y, col_start = blockIdx.x;
    const int col_blocks = (n + 63) / 64;
    const int row_size = min(n - row_start * 64, 64);
    const int col_size = min(n - col_start * 64, 64);
    __shared__ float4 sbox[64];
    if (threadIdx.x < col_size) sbox[threadIdx.x] = boxes[col_start * 64 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x < row_size) {
        const int cur = row_start * 64 + threadIdx.x;
        const float4 me = boxes[cur];
        unsigned long long t = 0;
        const int start = row_start == col_start ? threadIdx.x + 1 : 0;
        for (int i = start; i < col_size; ++i) {
            const float4 o = sbox[i];
            if (iou(me, o) > thr) t |= 1ULL << i;
        }
        mask[cur * col_blocks + col_start] = t;
    }
}

// --------------------------------------------------- CUB two-pass reduction --

static __device__ __forceinline__ long long block_sum256(long long v, long long* sh)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(FULLMASK, v, o);
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
    __syncthreads();
    long long t = 0;
    if (threadIdx.x < 8) t = sh[threadIdx.x];
    if (threadIdx.x < 32) {
#pragma unroll
        for (int o = 4; o > 0; o >>= 1) t += __shfl_down_sync(FULLMASK, t, o);
    }
    return t;
}
// DeviceReduceKernel with GridEvenShare: a block a run of whole 1,024-int tiles
// (int4 a thread), the last block's run ending at n with a partial tile read by
// guarded scalars; the block's partial stored as int64
extern "C" __global__ void LB(256) cub_reduce_evenshare(const int* __restrict__ in, long long* __restrict__ partial,
                                                       int n, int tiles_per_block)
{
    __shared__ long long sh[8];
    const int begin = blockIdx.x * tiles_per_block * 1024;
    const int end = min(n, begin + tiles_per_block * 1024);
    long long s = 0;
    int off = begin;
    for (; off + 1024 <= end; off += 1024) {
        const int4 v = reinterpret_cast<const int4*>(in + off)[threadIdx.x];
        s += (long long)v.x + v.y + v.z + v.w;
    }
    for (int i = off + threadIdx.x; i < end; i += 256) {
        s += in[i];
    }
    s = block_sum256(s, sh);
    if (threadIdx.x == 0) partial[blockIdx.x] = s;
}
// DeviceReduceSingleTileKernel: one block sums the partials
extern "C" __global__ void LB(256) cub_reduce_single_tile(const long long* __restrict__ partial,
                                                         long long* __restrict__ out, int n)
{
    __shared__ long long sh[8];
    long long s = 0;
    for (int i = threadIdx.x; i < n; i += 256) {
        s += partial[i];
    }
    s = block_sum256(s, sh);
    if (threadIdx.x == 0) out[0] = s;
}

// --------------------------------------- Thrust transform over a counting iterator --

// thrust::transform(counting_iterator(0), counting_iterator(n), out, f) through
// parallel_for's agent: 256 threads x 2 items a tile, a block a tile, full tiles
// unguarded and the last guarded; f(i) = 0.5 table[i % 1000] + i, as double
extern "C" __global__ void LB(256) thrust_counting_transform(const float* __restrict__ table, double* __restrict__ out,
                                                             long long n)
{
    const long long tile_base = (long long)blockIdx.x * 512;
    const long long items = n - tile_base;
    if (items >= 512) {
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            const long long i = tile_base + threadIdx.x + k * 256;
            const float t = table[i % 1000];
            out[i] = 0.5 * t + (double)i;
        }
    } else {
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            const long long i = tile_base + threadIdx.x + k * 256;
            if (i < n) {
                const float t = table[i % 1000];
                out[i] = 0.5 * t + (double)i;
            }
        }
    }
}

// --------------------------------------------------- Faiss-style warp select --

// a warp a row of `len` distances: a warp queue of the k = 32 smallest (lane j holds
// the j-th), each chunk of 32 candidates inserted one by one when below the queue's
// last; values and int64 indices stored a lane each
extern "C" __global__ void LB(128) faiss_warp_select_k32(const float* __restrict__ dist, float* __restrict__ out_d,
                                                         long long* __restrict__ out_i, int rows, int len)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * 4 + (threadIdx.x >> 5);
    if (row >= rows) return;
    float qd = __int_as_float(0x7f800000);
    int qi = -1;
    for (int base = 0; base < len; base += 32) {
        const int j = base + lane;
        const float v = j < len ? dist[(size_t)row * len + j] : __int_as_float(0x7f800000);
        const float kth = __shfl_sync(FULLMASK, qd, 31);
        unsigned want = __ballot_sync(FULLMASK, v < kth);
        while (want) {
            const int src = __ffs(want) - 1;
            want &= want - 1;
            const float cv = __shfl_sync(FULLMASK, v, src);
            const int ci = base + src;
            const int pos = __popc(__ballot_sync(FULLMASK, qd <= cv));
            const float ud = __shfl_up_sync(FULLMASK, qd, 1);
            const int ui = __shfl_up_sync(FULLMASK, qi, 1);
            if (lane == pos) { qd = cv; qi = ci; }
            else if (lane > pos) { qd = ud; qi = ui; }
        }
    }
    out_d[row * 32 + lane] = qd;
    out_i[row * 32 + lane] = qi;
}

// ----------------------------------------------------- CSR SpMM, shared row tiles --

// C = A B, A CSR (loaded row pointers), B dense [K][64]: a block of 64 threads a row,
// the row's column indices and values staged 64 at a time in shared memory, a thread
// a column of B
extern "C" __global__ void LB(64) csr_spmm_shared_rows(const int* __restrict__ rowptr, const int* __restrict__ colind,
                                                       const float* __restrict__ val, const float* __restrict__ B,
                                                       float* __restrict__ C, int rows)
{
    __shared__ int scol[64];
    __shared__ float sval[64];
    const int row = blockIdx.x;
    if (row >= rows) return;
    const int start = rowptr[row];
    const int end = rowptr[row + 1];
    float acc = 0.0f;
    for (int k0 = start; k0 < end && k0 < start + 4096; k0 += 64) {
        const int k = k0 + threadIdx.x;
        if (k < end) {
            scol[threadIdx.x] = colind[k];
            sval[threadIdx.x] = val[k];
        }
        __syncthreads();
        const int cnt = min(64, end - k0);
        for (int j = 0; j < cnt; ++j) {
            acc += sval[j] * B[scol[j] * 64 + threadIdx.x];
        }
        __syncthreads();
    }
    C[row * 64 + threadIdx.x] = acc;
}

// ------------------------------------------------------- sliding-window FIR --

#define NTAPS 33
__constant__ float c_taps[NTAPS] = {
    0.001f, 0.002f, 0.004f, 0.007f, 0.011f, 0.016f, 0.022f, 0.029f, 0.036f, 0.043f, 0.050f,
    0.056f, 0.061f, 0.065f, 0.068f, 0.070f, 0.071f, 0.070f, 0.068f, 0.065f, 0.061f, 0.056f,
    0.050f, 0.043f, 0.036f, 0.029f, 0.022f, 0.016f, 0.011f, 0.007f, 0.004f, 0.002f, 0.001f};
// y[i] = sum_k taps[k] x[i + k - 16] (zero outside): a block 256 outputs, the input
// window of 288 staged in shared memory (the last 32 by the first warp)
extern "C" __global__ void LB(256) fir_sliding_window(const float* __restrict__ x, float* __restrict__ y, int n)
{
    __shared__ float s[256 + 32];
    const int base = blockIdx.x * 256;
    const int i0 = base + threadIdx.x - 16;
    s[threadIdx.x] = (i0 >= 0 && i0 < n) ? x[i0] : 0.0f;
    if (threadIdx.x < 32) {
        const int i1 = i0 + 256;
        s[256 + threadIdx.x] = (i1 < n) ? x[i1] : 0.0f;
    }
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < NTAPS; ++k) acc += c_taps[k] * s[threadIdx.x + k];
    const int i = base + threadIdx.x;
    if (i < n) y[i] = acc;
}

// -------------------------------------------------- softmax, a block a row --

static __device__ __forceinline__ float block_reduce_f(float v, float* sh, bool is_max)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float u = __shfl_xor_sync(FULLMASK, v, o);
        v = is_max ? fmaxf(v, u) : v + u;
    }
    __syncthreads();
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
    __syncthreads();
    v = sh[0];
#pragma unroll
    for (int w = 1; w < 8; ++w) v = is_max ? fmaxf(v, sh[w]) : v + sh[w];
    return v;
}
// cunn_SoftMaxForward with ILP 4: a block of 256 a row of `cols` floats; the row's
// misalignment (shift = address % 16 / 4) read first by scalars, then float4 a
// thread, then a scalar tail; max and sum by block reductions, the output written
// with the same shift
extern "C" __global__ void LB(256) aten_softmax_block_ilp(const float* __restrict__ in, float* __restrict__ out, int rows,
                                                          int cols)
{
    __shared__ float sh[8];
    const int row = blockIdx.x;
    if (row >= rows) return;
    const float* x = in + (size_t)row * cols;
    float* y = out + (size_t)row * cols;
    const int shift = (int)((reinterpret_cast<uintptr_t>(x) % 16) / 4);
    const float* xa = x - shift;
    float* ya = y - shift;
    const int size = cols + shift;
    float m = -3.0e38f;
    if (shift > 0 && threadIdx.x >= shift && threadIdx.x < 4) m = xa[threadIdx.x];
    const int nvec = size / 4;
    for (int v = threadIdx.x + (shift > 0 ? 1 : 0); v < nvec; v += 256) {
        const float4 f = reinterpret_cast<const float4*>(xa)[v];
        m = fmaxf(m, fmaxf(fmaxf(f.x, f.y), fmaxf(f.z, f.w)));
    }
    for (int t = nvec * 4 + threadIdx.x; t < size; t += 256) m = fmaxf(m, xa[t]);
    m = block_reduce_f(m, sh, true);
    float s = 0.0f;
    if (shift > 0 && threadIdx.x >= shift && threadIdx.x < 4) s = __expf(xa[threadIdx.x] - m);
    for (int v = threadIdx.x + (shift > 0 ? 1 : 0); v < nvec; v += 256) {
        const float4 f = reinterpret_cast<const float4*>(xa)[v];
        s += __expf(f.x - m) + __expf(f.y - m) + __expf(f.z - m) + __expf(f.w - m);
    }
    for (int t = nvec * 4 + threadIdx.x; t < size; t += 256) s += __expf(xa[t] - m);
    s = block_reduce_f(s, sh, false);
    const float inv = 1.0f / s;
    if (shift > 0 && threadIdx.x >= shift && threadIdx.x < 4) ya[threadIdx.x] = __expf(xa[threadIdx.x] - m) * inv;
    for (int v = threadIdx.x + (shift > 0 ? 1 : 0); v < nvec; v += 256) {
        const float4 f = reinterpret_cast<const float4*>(xa)[v];
        float4 o;
        o.x = __expf(f.x - m) * inv;
        o.y = __expf(f.y - m) * inv;
        o.z = __expf(f.z - m) * inv;
        o.w = __expf(f.w - m) * inv;
        reinterpret_cast<float4*>(ya)[v] = o;
    }
    for (int t = nvec * 4 + threadIdx.x; t < size; t += 256) ya[t] = __expf(xa[t] - m) * inv;
}

// ------------------------------------------- softmax, a warp two rows (fp16) --

// softmax_warp_forward<half, half, float, log2 128>: WARP_ITERATIONS 4, WARP_BATCH 2,
// a 32 x 4 block, rows of `cols` (<= 128) halves masked by the element index, the
// last warp's second row by the batch count
extern "C" __global__ void LB(128) aten_softmax_warp_h(const __half* __restrict__ src, __half* __restrict__ dst, int batch,
                                                       int cols)
{
    const int first = (blockDim.y * blockIdx.x + threadIdx.y) * 2;
    int local = batch - first;
    if (local > 2) local = 2;
    const int lane = threadIdx.x;
    float e[2][4];
#pragma unroll
    for (int b = 0; b < 2; ++b)
#pragma unroll
        for (int it = 0; it < 4; ++it) {
            const int idx = lane + it * 32;
            e[b][it] = -3.0e38f;
            if (b < local && idx < cols) e[b][it] = __half2float(src[(size_t)(first + b) * cols + idx]);
        }
    float mx[2], sm[2];
#pragma unroll
    for (int b = 0; b < 2; ++b) {
        mx[b] = fmaxf(fmaxf(e[b][0], e[b][1]), fmaxf(e[b][2], e[b][3]));
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) mx[b] = fmaxf(mx[b], __shfl_xor_sync(FULLMASK, mx[b], o));
        sm[b] = 0.0f;
#pragma unroll
        for (int it = 0; it < 4; ++it) {
            e[b][it] = __expf(e[b][it] - mx[b]);
            sm[b] += e[b][it];
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) sm[b] += __shfl_xor_sync(FULLMASK, sm[b], o);
    }
#pragma unroll
    for (int b = 0; b < 2; ++b) {
        if (b >= local) break;
#pragma unroll
        for (int it = 0; it < 4; ++it) {
            const int idx = lane + it * 32;
            if (idx < cols) dst[(size_t)(first + b) * cols + idx] = __float2half(e[b][it] / sm[b]);
        }
    }
}

// ------------------------------------------ outer-dimension (column) reduction --

// column sums of a [rows][cols] float matrix: a 32 x 8 block, a thread two columns
// (float2), threadIdx.y and blockIdx.y split the rows; the 8 partial rows combined
// in shared memory, then two float atomicAdd a thread of the first row
extern "C" __global__ void LB(256) aten_reduce_outer_2d(const float* __restrict__ in, float* __restrict__ out, int rows,
                                                        int cols, int rows_per_block)
{
    __shared__ float2 sh[8][32];
    const int c2 = blockIdx.x * 32 + threadIdx.x;
    const int r0 = blockIdx.y * rows_per_block;
    const int r1 = min(rows, r0 + rows_per_block);
    float2 acc = make_float2(0.0f, 0.0f);
    if (c2 * 2 < cols) {
        for (int r = r0 + threadIdx.y; r < r1; r += 8) {
            const float2 v = reinterpret_cast<const float2*>(in + (size_t)r * cols)[c2];
            acc.x += v.x;
            acc.y += v.y;
        }
    }
    sh[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y == 0 && c2 * 2 < cols) {
#pragma unroll
        for (int k = 1; k < 8; ++k) {
            const float2 o = sh[k][threadIdx.x];
            acc.x += o.x;
            acc.y += o.y;
        }
        atomicAdd(out + c2 * 2, acc.x);
        atomicAdd(out + c2 * 2 + 1, acc.y);
    }
}

// ------------------------------------------------------ grid_sample (bilinear) --

// grid_sampler_2d, bilinear, zero padding, align_corners false: a thread an output
// pixel (n, h, w), the grid read as float2, the four corners of each of C channels
// read when inside the input
extern "C" __global__ void LB(256) grid_sample_bilinear(const float* __restrict__ input, const float2* __restrict__ grid,
                                                        float* __restrict__ out, int N, int C, int H, int W, int Ho,
                                                        int Wo)
{
    const int total = N * Ho * Wo;
    for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < total; index += gridDim.x * blockDim.x) {
        const int w = index % Wo;
        const int h = (index / Wo) % Ho;
        const int n = index / (Ho * Wo);
        const float2 g = grid[index];
        const float ix = ((g.x + 1.0f) * W - 1.0f) * 0.5f;
        const float iy = ((g.y + 1.0f) * H - 1.0f) * 0.5f;
        const int x0 = (int)floorf(ix), y0 = (int)floorf(iy);
        const int x1 = x0 + 1, y1 = y0 + 1;
        const float tx = ix - x0, ty = iy - y0;
        const bool in00 = x0 >= 0 && x0 < W && y0 >= 0 && y0 < H;
        const bool in01 = x1 >= 0 && x1 < W && y0 >= 0 && y0 < H;
        const bool in10 = x0 >= 0 && x0 < W && y1 >= 0 && y1 < H;
        const bool in11 = x1 >= 0 && x1 < W && y1 >= 0 && y1 < H;
        for (int c = 0; c < C; ++c) {
            const float* p = input + ((size_t)n * C + c) * H * W;
            float v = 0.0f;
            if (in00) v += (1.0f - tx) * (1.0f - ty) * p[y0 * W + x0];
            if (in01) v += tx * (1.0f - ty) * p[y0 * W + x1];
            if (in10) v += (1.0f - tx) * ty * p[y1 * W + x0];
            if (in11) v += tx * ty * p[y1 * W + x1];
            out[(((size_t)n * C + c) * Ho + h) * Wo + w] = v;
        }
    }
}

// ------------------------------------------------------ pixel_shuffle, 3-D block --

// pixel_shuffle with upscale 2, NCHW: out[n][c][2h + i][2w + j] = in[n][4c + 2i + j][h][w];
// a 32 x 4 x 2 block (x: output column, y: output row, z: (n, c) plane), ragged in x
extern "C" __global__ void LB(256) pixel_shuffle_r2(const float* __restrict__ in, float* __restrict__ out, int planes,
                                                    int Hin, int Win)
{
    const int ow = blockIdx.x * 32 + threadIdx.x;
    const int oh = blockIdx.y * 4 + threadIdx.y;
    const int p = blockIdx.z * 2 + threadIdx.z;
    const int Wo = Win * 2, Ho = Hin * 2;
    if (ow >= Wo || oh >= Ho || p >= planes) return;
    const int cin = p * 4 + (oh & 1) * 2 + (ow & 1);
    const float v = in[((size_t)cin * Hin + (oh >> 1)) * Win + (ow >> 1)];
    out[((size_t)p * Ho + oh) * Wo + ow] = v;
}
