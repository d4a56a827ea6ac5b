// warpscope hardware suite, part 2 (tests/hw): the newer memory paths on sm_90.
//
//   cp.async (LDGSTS)         .ca/.cg, 4/8/16 bytes, src-size zero fill, ignore-src,
//                             L2 cache hint, L2 prefetch sizes; coalesced, broadcast,
//                             strided, misaligned and gathered sources; shared
//                             destinations with bank conflicts
//   ldmatrix / stmatrix       .x1/.x2/.x4, .trans; row-major (128-byte rows),
//                             padded (144-byte rows) and XOR-swizzled layouts
//   wide shared accesses      ld/st.shared of 8..128 bits (scalar, .v2, .v4) at
//                             element strides 1, 2, 4, 32, 33; shared atomics
//   bulk copies               cp.async.bulk global->shared (mbarrier expect_tx),
//                             shared->global, cp.reduce.async.bulk, bulk prefetch,
//                             cp.async.bulk.tensor 2D load and store (tensor map)
//   predicated-off requests   guards that switch every lane of some warps off
//
// Every access of interest sits on its own source line (inline PTX through
// macros, so the instruction's .loc is the kernel's line).  Launches are in
// tests/hw/launches.json (written by tests/hw/host.cpp).  Build: see measure.sh.

#include <cuda_fp16.h>

#define LB(n) __launch_bounds__(n)

static __device__ __forceinline__ unsigned smem_u32(const void* p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

#define CP_ASYNC(Q, SZ, d, g) asm volatile("cp.async." Q ".shared.global [%0], [%1], " #SZ ";" ::"r"(d), "l"(g) : "memory")
#define CP_WAIT() asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory")

// ---------------------------------------------------------------------------
// 1. cp.async: every kernel runs 128-thread blocks; t = threadIdx.x,
//    i = global thread index; sb = shared base (128-byte aligned).
//    Parameters: in (bytes), out (floats), idx (int permutation), p (int).
// ---------------------------------------------------------------------------
#define CPA_HEAD                                               \
    __shared__ __align__(128) unsigned char s[16384 + 256];   \
    int t = threadIdx.x;                                       \
    int i = blockIdx.x * blockDim.x + t;                       \
    unsigned sb = smem_u32(s);

#define CPA_TAIL                                               \
    CP_WAIT();                                                 \
    __syncthreads();                                           \
    out[i] = reinterpret_cast<const float*>(s)[t];

extern "C" __global__ void LB(128) cpa_ca4(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("ca", 4, sb + t * 4, in + i * 4);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_ca8(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("ca", 8, sb + t * 8, in + i * 8);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_ca16(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("ca", 16, sb + t * 16, in + i * 16);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_cg16(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("cg", 16, sb + t * 16, in + i * 16);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_ca4_bcast(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("ca", 4, sb + t * 4, in + blockIdx.x * 4);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_cg16_bcast(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("cg", 16, sb + t * 16, in + blockIdx.x * 16);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_ca4_stride2(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("ca", 4, sb + t * 4, in + i * 8);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_ca4_stride32(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("ca", 4, sb + t * 4, in + i * 128);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_ca8_stride3(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("ca", 8, sb + t * 8, in + i * 24);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_cg16_stride2(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("cg", 16, sb + t * 16, in + i * 32);
    CPA_TAIL
}

// p = byte offset of the source (a multiple of the copy size)
extern "C" __global__ void LB(128) cpa_ca4_off(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("ca", 4, sb + t * 4, in + i * 4 + p);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_cg16_off(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("cg", 16, sb + t * 16, in + i * 16 + p);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_ca4_gather(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    int j = idx[i];
    CP_ASYNC("ca", 4, sb + t * 4, in + j * 4);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_cg16_gather(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    int j = idx[i];
    CP_ASYNC("cg", 16, sb + t * 16, in + j * 16);
    CPA_TAIL
}

// src-size form: copies p bytes of 16 and zero-fills the rest (p = 0: pure zero fill)
extern "C" __global__ void LB(128) cpa_cg16_srcsize(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(sb + t * 16), "l"(in + i * 16), "r"(p) : "memory");
    CPA_TAIL
}

// src-size per lane: odd lanes copy 0 bytes (zero fill), even lanes 16
extern "C" __global__ void LB(128) cpa_cg16_srcsize_odd(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    int sz = (t & 1) ? 0 : 16;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(sb + t * 16), "l"(in + i * 16), "r"(sz) : "memory");
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_ca4_srcsize(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(sb + t * 4), "l"(in + i * 4), "r"(p) : "memory");
    CPA_TAIL
}

// ignore-src: when the predicate (p != 0) is true the source is not read and 16 zero bytes are written
extern "C" __global__ void LB(128) cpa_cg16_ignore(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.s32 q, %2, 0;\n\tcp.async.cg.shared.global [%0], [%1], 16, q;\n\t}" ::"r"(sb + t * 16), "l"(in + i * 16), "r"(p) : "memory");
    CPA_TAIL
}

// ignore-src per lane: lanes 16..31 ignore their source
extern "C" __global__ void LB(128) cpa_cg16_ignore_hi(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    int ig = (t & 31) >= 16;
    asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.s32 q, %2, 0;\n\tcp.async.cg.shared.global [%0], [%1], 16, q;\n\t}" ::"r"(sb + t * 16), "l"(in + i * 16), "r"(ig) : "memory");
    CPA_TAIL
}

// L2 cache hint (createpolicy evict_first)
extern "C" __global__ void LB(128) cpa_cg16_hint(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    unsigned long long pol;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
    asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;" ::"r"(sb + t * 16), "l"(in + i * 16), "l"(pol) : "memory");
    CPA_TAIL
}

// L2 prefetch sizes
extern "C" __global__ void LB(128) cpa_ca4_pf64(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    asm volatile("cp.async.ca.shared.global.L2::64B [%0], [%1], 4;" ::"r"(sb + t * 4), "l"(in + i * 4) : "memory");
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_ca4_pf128_stride32(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], 4;" ::"r"(sb + t * 4), "l"(in + i * 128) : "memory");
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_cg16_pf256(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;" ::"r"(sb + t * 16), "l"(in + i * 16) : "memory");
    CPA_TAIL
}

// shared destinations with bank conflicts
extern "C" __global__ void LB(128) cpa_ca4_dst32(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("ca", 4, sb + (t & 31) * 128 + (t >> 5) * 4, in + i * 4);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_ca4_dst2(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("ca", 4, sb + t * 8, in + i * 4);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_cg16_dst2(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("cg", 16, sb + t * 32, in + i * 16);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_cg16_dst8(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    CP_ASYNC("cg", 16, sb + (t & 31) * 128 + (t >> 5) * 16, in + i * 16);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_cg16_dst_swz(const char* in, float* out, const int* idx, int p)
{
    CPA_HEAD
    int r = t >> 3, c = t & 7;
    CP_ASYNC("cg", 16, sb + r * 128 + ((c ^ (r & 7)) * 16), in + i * 16);
    CPA_TAIL
}

// ---------------------------------------------------------------------------
// 2. ldmatrix / stmatrix on a 64 x 64 half tile (+ padding), 128-thread blocks.
//    plain: 128-byte rows; pad: 144-byte rows (64 + 8 halves);
//    swz: 128-byte rows, 16-byte chunk c of row r stored at chunk c ^ (r & 7).
//    Lane l supplies row (l & 15) of chunk (l >> 4) for .x4, row (l & 15) of
//    chunk 0 for .x2, row (l & 7) of chunk 0 for .x1 (unused lanes' addresses
//    are ignored by the hardware but set the same way).  Each warp w works on
//    rows 16 w .. 16 w + 15.
// ---------------------------------------------------------------------------
#define LDSM_HEAD                                                       \
    __shared__ __align__(128) __half s[64 * 72];                        \
    int t = threadIdx.x, lane = t & 31, w = t >> 5;                      \
    for (int k = t; k < 64 * 72; k += 128) s[k] = __int2half_rn(k & 1023); \
    __syncthreads();                                                    \
    unsigned sb = smem_u32(s);                                          \
    unsigned r0, r1, r2, r3;                                            \
    int row = 16 * w + (lane & 15), ch = lane >> 4; \
    (void)row; (void)ch;

#define LDSM_TAIL                                                       \
    float* o = out + (blockIdx.x * 128 + t) * 4;                        \
    o[0] = __uint_as_float(r0);                                         \
    o[1] = __uint_as_float(r1);                                         \
    o[2] = __uint_as_float(r2);                                         \
    o[3] = __uint_as_float(r3);

#define ADDR_PLAIN(r, c) (sb + (r) * 128 + (c) * 16)
#define ADDR_PAD(r, c) (sb + (r) * 144 + (c) * 16)
#define ADDR_SWZ(r, c) (sb + (r) * 128 + (((c) ^ ((r) & 7)) * 16))

#define LDSM_X1(a) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a)); r1 = r2 = r3 = r0
#define LDSM_X2(a) asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a)); r2 = r3 = r0
#define LDSM_X4(a) asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a))
#define LDSM_X4T(a) asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a))
#define LDSM_X2T(a) asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a)); r2 = r3 = r0

extern "C" __global__ void LB(128) ldsm_plain_x1(float* out)
{
    LDSM_HEAD
    LDSM_X1(ADDR_PLAIN(16 * w + (lane & 7), 0));
    LDSM_TAIL
}

extern "C" __global__ void LB(128) ldsm_plain_x2(float* out)
{
    LDSM_HEAD
    LDSM_X2(ADDR_PLAIN(row, 0));
    LDSM_TAIL
}

extern "C" __global__ void LB(128) ldsm_plain_x4(float* out)
{
    LDSM_HEAD
    LDSM_X4(ADDR_PLAIN(row, ch));
    LDSM_TAIL
}

extern "C" __global__ void LB(128) ldsm_plain_x4_trans(float* out)
{
    LDSM_HEAD
    LDSM_X4T(ADDR_PLAIN(row, ch));
    LDSM_TAIL
}

extern "C" __global__ void LB(128) ldsm_pad_x1(float* out)
{
    LDSM_HEAD
    LDSM_X1(ADDR_PAD(16 * w + (lane & 7), 0));
    LDSM_TAIL
}

extern "C" __global__ void LB(128) ldsm_pad_x2(float* out)
{
    LDSM_HEAD
    LDSM_X2(ADDR_PAD(row, 0));
    LDSM_TAIL
}

extern "C" __global__ void LB(128) ldsm_pad_x4(float* out)
{
    LDSM_HEAD
    LDSM_X4(ADDR_PAD(row, ch));
    LDSM_TAIL
}

extern "C" __global__ void LB(128) ldsm_pad_x2_trans(float* out)
{
    LDSM_HEAD
    LDSM_X2T(ADDR_PAD(row, 0));
    LDSM_TAIL
}

extern "C" __global__ void LB(128) ldsm_swz_x1(float* out)
{
    LDSM_HEAD
    LDSM_X1(ADDR_SWZ(16 * w + (lane & 7), 0));
    LDSM_TAIL
}

extern "C" __global__ void LB(128) ldsm_swz_x2(float* out)
{
    LDSM_HEAD
    LDSM_X2(ADDR_SWZ(row, 0));
    LDSM_TAIL
}

extern "C" __global__ void LB(128) ldsm_swz_x4(float* out)
{
    LDSM_HEAD
    LDSM_X4(ADDR_SWZ(row, ch));
    LDSM_TAIL
}

extern "C" __global__ void LB(128) ldsm_swz_x4_trans(float* out)
{
    LDSM_HEAD
    LDSM_X4T(ADDR_SWZ(row, ch));
    LDSM_TAIL
}

// dense 8x8 matrices (16-byte rows back to back): lane l -> byte 16 l
extern "C" __global__ void LB(128) ldsm_dense_x4(float* out)
{
    LDSM_HEAD
    LDSM_X4(sb + w * 512 + lane * 16);
    LDSM_TAIL
}

#define STSM_HEAD                                                       \
    __shared__ __align__(128) __half s[64 * 72];                        \
    int t = threadIdx.x, lane = t & 31, w = t >> 5;                      \
    unsigned sb = smem_u32(s);                                          \
    unsigned r0 = t, r1 = t + 1, r2 = t + 2, r3 = t + 3;                \
    int row = 16 * w + (lane & 15), ch = lane >> 4; \
    (void)row; (void)ch;

#define STSM_TAIL                                                       \
    __syncthreads();                                                    \
    out[blockIdx.x * 128 + t] = __half2float(s[t * 9]);

#define STSM_X1(a) asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(a), "r"(r0) : "memory")
#define STSM_X2(a) asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(a), "r"(r0), "r"(r1) : "memory")
#define STSM_X4(a) asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory")
#define STSM_X4T(a) asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory")

extern "C" __global__ void LB(128) stsm_plain_x1(float* out)
{
    STSM_HEAD
    STSM_X1(ADDR_PLAIN(16 * w + (lane & 7), 0));
    STSM_TAIL
}

extern "C" __global__ void LB(128) stsm_plain_x2(float* out)
{
    STSM_HEAD
    STSM_X2(ADDR_PLAIN(row, 0));
    STSM_TAIL
}

extern "C" __global__ void LB(128) stsm_plain_x4(float* out)
{
    STSM_HEAD
    STSM_X4(ADDR_PLAIN(row, ch));
    STSM_TAIL
}

extern "C" __global__ void LB(128) stsm_plain_x4_trans(float* out)
{
    STSM_HEAD
    STSM_X4T(ADDR_PLAIN(row, ch));
    STSM_TAIL
}

extern "C" __global__ void LB(128) stsm_pad_x1(float* out)
{
    STSM_HEAD
    STSM_X1(ADDR_PAD(16 * w + (lane & 7), 0));
    STSM_TAIL
}

extern "C" __global__ void LB(128) stsm_pad_x4(float* out)
{
    STSM_HEAD
    STSM_X4(ADDR_PAD(row, ch));
    STSM_TAIL
}

extern "C" __global__ void LB(128) stsm_swz_x2(float* out)
{
    STSM_HEAD
    STSM_X2(ADDR_SWZ(row, 0));
    STSM_TAIL
}

extern "C" __global__ void LB(128) stsm_swz_x4(float* out)
{
    STSM_HEAD
    STSM_X4(ADDR_SWZ(row, ch));
    STSM_TAIL
}

extern "C" __global__ void LB(128) stsm_swz_x4_trans(float* out)
{
    STSM_HEAD
    STSM_X4T(ADDR_SWZ(row, ch));
    STSM_TAIL
}

// ---------------------------------------------------------------------------
// 3. wide shared accesses: one 32-thread block per launch group; every line
//    is one ld.volatile.shared or st.volatile.shared (volatile: ptxas would
//    otherwise merge the loads of equal addresses) of the named type at byte address
//    lane * stride * (bytes per lane), strides 1, 2, 4, 32, 33.
// ---------------------------------------------------------------------------

extern "C" __global__ void LB(32) shw_8bit(float* out)
{
    __shared__ __align__(128) unsigned char s[33 * 32 * 16 + 64];
    int lane = threadIdx.x & 31;
    unsigned sb = smem_u32(s);
    unsigned a32 = 0, b32 = lane;
    unsigned long long a64 = 0, b64 = lane;
    unsigned x0, x1, x2, x3;
    unsigned long long y0, y1;
    asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(sb + lane * 1), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(sb + lane * 2), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(sb + lane * 4), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(sb + lane * 32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(sb + lane * 33), "r"(b32) : "memory");
    __syncthreads();
    asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 1) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 2) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 4) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 32) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 33) : "memory"); a32 += x0;
    out[blockIdx.x * 32 + lane] = (float)(a32 + a64);
}

extern "C" __global__ void LB(32) shw_16bit(float* out)
{
    __shared__ __align__(128) unsigned char s[33 * 32 * 16 + 64];
    int lane = threadIdx.x & 31;
    unsigned sb = smem_u32(s);
    unsigned a32 = 0, b32 = lane;
    unsigned long long a64 = 0, b64 = lane;
    unsigned x0, x1, x2, x3;
    unsigned long long y0, y1;
    asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(sb + lane * 2), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(sb + lane * 4), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(sb + lane * 8), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(sb + lane * 64), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(sb + lane * 66), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u8 [%0], {%1, %2};" ::"r"(sb + lane * 2), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u8 [%0], {%1, %2};" ::"r"(sb + lane * 4), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u8 [%0], {%1, %2};" ::"r"(sb + lane * 8), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u8 [%0], {%1, %2};" ::"r"(sb + lane * 64), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u8 [%0], {%1, %2};" ::"r"(sb + lane * 66), "r"(b32), "r"(b32) : "memory");
    __syncthreads();
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 2) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 4) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 8) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 64) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 66) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.v2.u8 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 2) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v2.u8 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 4) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v2.u8 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 8) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v2.u8 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 64) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v2.u8 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 66) : "memory"); a32 += x0 + x1;
    out[blockIdx.x * 32 + lane] = (float)(a32 + a64);
}

extern "C" __global__ void LB(32) shw_32bit(float* out)
{
    __shared__ __align__(128) unsigned char s[33 * 32 * 16 + 64];
    int lane = threadIdx.x & 31;
    unsigned sb = smem_u32(s);
    unsigned a32 = 0, b32 = lane;
    unsigned long long a64 = 0, b64 = lane;
    unsigned x0, x1, x2, x3;
    unsigned long long y0, y1;
    asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(sb + lane * 4), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(sb + lane * 8), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(sb + lane * 16), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(sb + lane * 128), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(sb + lane * 132), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u16 [%0], {%1, %2};" ::"r"(sb + lane * 4), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u16 [%0], {%1, %2};" ::"r"(sb + lane * 8), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u16 [%0], {%1, %2};" ::"r"(sb + lane * 16), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u16 [%0], {%1, %2};" ::"r"(sb + lane * 128), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u16 [%0], {%1, %2};" ::"r"(sb + lane * 132), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u8 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 4), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u8 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 8), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u8 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 16), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u8 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 128), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u8 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 132), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    __syncthreads();
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 4) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 8) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 16) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 128) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x0) : "r"(sb + lane * 132) : "memory"); a32 += x0;
    asm volatile("ld.volatile.shared.v2.u16 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 4) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v2.u16 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 8) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v2.u16 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 16) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v2.u16 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 128) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v2.u16 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 132) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v4.u8 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 4) : "memory"); a32 += x0 + x1 + x2 + x3;
    asm volatile("ld.volatile.shared.v4.u8 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 8) : "memory"); a32 += x0 + x1 + x2 + x3;
    asm volatile("ld.volatile.shared.v4.u8 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 16) : "memory"); a32 += x0 + x1 + x2 + x3;
    asm volatile("ld.volatile.shared.v4.u8 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 128) : "memory"); a32 += x0 + x1 + x2 + x3;
    asm volatile("ld.volatile.shared.v4.u8 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 132) : "memory"); a32 += x0 + x1 + x2 + x3;
    out[blockIdx.x * 32 + lane] = (float)(a32 + a64);
}

extern "C" __global__ void LB(32) shw_64bit(float* out)
{
    __shared__ __align__(128) unsigned char s[33 * 32 * 16 + 64];
    int lane = threadIdx.x & 31;
    unsigned sb = smem_u32(s);
    unsigned a32 = 0, b32 = lane;
    unsigned long long a64 = 0, b64 = lane;
    unsigned x0, x1, x2, x3;
    unsigned long long y0, y1;
    asm volatile("st.volatile.shared.u64 [%0], %1;" ::"r"(sb + lane * 8), "l"(b64) : "memory");
    asm volatile("st.volatile.shared.u64 [%0], %1;" ::"r"(sb + lane * 16), "l"(b64) : "memory");
    asm volatile("st.volatile.shared.u64 [%0], %1;" ::"r"(sb + lane * 32), "l"(b64) : "memory");
    asm volatile("st.volatile.shared.u64 [%0], %1;" ::"r"(sb + lane * 256), "l"(b64) : "memory");
    asm volatile("st.volatile.shared.u64 [%0], %1;" ::"r"(sb + lane * 264), "l"(b64) : "memory");
    asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(sb + lane * 8), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(sb + lane * 16), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(sb + lane * 32), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(sb + lane * 256), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(sb + lane * 264), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u16 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 8), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u16 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 16), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u16 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 32), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u16 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 256), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u16 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 264), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    __syncthreads();
    asm volatile("ld.volatile.shared.u64 %0, [%1];" : "=l"(y0) : "r"(sb + lane * 8) : "memory"); a64 += y0;
    asm volatile("ld.volatile.shared.u64 %0, [%1];" : "=l"(y0) : "r"(sb + lane * 16) : "memory"); a64 += y0;
    asm volatile("ld.volatile.shared.u64 %0, [%1];" : "=l"(y0) : "r"(sb + lane * 32) : "memory"); a64 += y0;
    asm volatile("ld.volatile.shared.u64 %0, [%1];" : "=l"(y0) : "r"(sb + lane * 256) : "memory"); a64 += y0;
    asm volatile("ld.volatile.shared.u64 %0, [%1];" : "=l"(y0) : "r"(sb + lane * 264) : "memory"); a64 += y0;
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 8) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 16) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 32) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 256) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(sb + lane * 264) : "memory"); a32 += x0 + x1;
    asm volatile("ld.volatile.shared.v4.u16 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 8) : "memory"); a32 += x0 + x1 + x2 + x3;
    asm volatile("ld.volatile.shared.v4.u16 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 16) : "memory"); a32 += x0 + x1 + x2 + x3;
    asm volatile("ld.volatile.shared.v4.u16 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 32) : "memory"); a32 += x0 + x1 + x2 + x3;
    asm volatile("ld.volatile.shared.v4.u16 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 256) : "memory"); a32 += x0 + x1 + x2 + x3;
    asm volatile("ld.volatile.shared.v4.u16 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 264) : "memory"); a32 += x0 + x1 + x2 + x3;
    out[blockIdx.x * 32 + lane] = (float)(a32 + a64);
}

extern "C" __global__ void LB(32) shw_128bit(float* out)
{
    __shared__ __align__(128) unsigned char s[33 * 32 * 16 + 64];
    int lane = threadIdx.x & 31;
    unsigned sb = smem_u32(s);
    unsigned a32 = 0, b32 = lane;
    unsigned long long a64 = 0, b64 = lane;
    unsigned x0, x1, x2, x3;
    unsigned long long y0, y1;
    asm volatile("st.volatile.shared.v2.u64 [%0], {%1, %2};" ::"r"(sb + lane * 16), "l"(b64), "l"(b64) : "memory");
    asm volatile("st.volatile.shared.v2.u64 [%0], {%1, %2};" ::"r"(sb + lane * 32), "l"(b64), "l"(b64) : "memory");
    asm volatile("st.volatile.shared.v2.u64 [%0], {%1, %2};" ::"r"(sb + lane * 64), "l"(b64), "l"(b64) : "memory");
    asm volatile("st.volatile.shared.v2.u64 [%0], {%1, %2};" ::"r"(sb + lane * 512), "l"(b64), "l"(b64) : "memory");
    asm volatile("st.volatile.shared.v2.u64 [%0], {%1, %2};" ::"r"(sb + lane * 528), "l"(b64), "l"(b64) : "memory");
    asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 16), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 32), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 64), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 512), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(sb + lane * 528), "r"(b32), "r"(b32), "r"(b32), "r"(b32) : "memory");
    __syncthreads();
    asm volatile("ld.volatile.shared.v2.u64 {%0, %1}, [%2];" : "=l"(y0), "=l"(y1) : "r"(sb + lane * 16) : "memory"); a64 += y0 + y1;
    asm volatile("ld.volatile.shared.v2.u64 {%0, %1}, [%2];" : "=l"(y0), "=l"(y1) : "r"(sb + lane * 32) : "memory"); a64 += y0 + y1;
    asm volatile("ld.volatile.shared.v2.u64 {%0, %1}, [%2];" : "=l"(y0), "=l"(y1) : "r"(sb + lane * 64) : "memory"); a64 += y0 + y1;
    asm volatile("ld.volatile.shared.v2.u64 {%0, %1}, [%2];" : "=l"(y0), "=l"(y1) : "r"(sb + lane * 512) : "memory"); a64 += y0 + y1;
    asm volatile("ld.volatile.shared.v2.u64 {%0, %1}, [%2];" : "=l"(y0), "=l"(y1) : "r"(sb + lane * 528) : "memory"); a64 += y0 + y1;
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 16) : "memory"); a32 += x0 + x1 + x2 + x3;
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 32) : "memory"); a32 += x0 + x1 + x2 + x3;
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 64) : "memory"); a32 += x0 + x1 + x2 + x3;
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 512) : "memory"); a32 += x0 + x1 + x2 + x3;
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3) : "r"(sb + lane * 528) : "memory"); a32 += x0 + x1 + x2 + x3;
    out[blockIdx.x * 32 + lane] = (float)(a32 + a64);
}

// shared atomics, 32-thread blocks
extern "C" __global__ void LB(32) shatom(float* out)
{
    __shared__ __align__(128) unsigned s[32 * 33 + 64];
    int lane = threadIdx.x & 31;
    for (int k = lane; k < 32 * 33 + 64; k += 32) s[k] = 0;
    __syncthreads();
    unsigned sb = smem_u32(s), a = 0, v;
    unsigned long long w;
    asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(v) : "r"(sb + lane * 4) : "memory"); a += v;
    asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(v) : "r"(sb) : "memory"); a += v;
    asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(v) : "r"(sb + lane * 8) : "memory"); a += v;
    asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(v) : "r"(sb + lane * 128) : "memory"); a += v;
    asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(v) : "r"(sb + lane * 132) : "memory"); a += v;
    asm volatile("atom.shared.add.f32 %0, [%1], 1.0;" : "=r"(v) : "r"(sb + lane * 4) : "memory"); a += v;
    asm volatile("atom.shared.add.u64 %0, [%1], 1;" : "=l"(w) : "r"(sb + lane * 8) : "memory"); a += (unsigned)w;
    asm volatile("atom.shared.cas.b32 %0, [%1], 0, 1;" : "=r"(v) : "r"(sb + lane * 4) : "memory"); a += v;
    asm volatile("atom.shared.exch.b32 %0, [%1], 2;" : "=r"(v) : "r"(sb + lane * 128) : "memory"); a += v;
    asm volatile("atom.shared.max.s32 %0, [%1], %2;" : "=r"(v) : "r"(sb), "r"(lane) : "memory"); a += v;
    asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(sb + lane * 4) : "memory");
    asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(sb + lane * 128) : "memory");
    out[blockIdx.x * 32 + lane] = (float)a;
}

// ---------------------------------------------------------------------------
// 4. bulk copies (copy engine); 128-thread blocks, thread 0 issues.
// ---------------------------------------------------------------------------
static __device__ __forceinline__ void mbar_wait(unsigned mb, unsigned phase)
{
    unsigned done = 0;
    for (int it = 0; it < (1 << 20) && !done; ++it)
        asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(done) : "r"(mb), "r"(phase) : "memory");
    if (!done) asm volatile("trap;");
}

static __device__ __forceinline__ void mbar_init(unsigned mb)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mb) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// global -> shared: `copies` bulk copies of `bytes` each, completing on one mbarrier
extern "C" __global__ void LB(128) bulk_g2s(const float* in, float* out, int bytes, int copies)
{
    __shared__ __align__(128) float s[4096];
    __shared__ __align__(8) unsigned long long bar;
    int t = threadIdx.x;
    unsigned sb = smem_u32(s), mb = smem_u32(&bar);
    if (t == 0) mbar_init(mb);
    __syncthreads();
    const char* g = reinterpret_cast<const char*>(in) + (size_t)blockIdx.x * bytes * copies;
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(bytes * copies) : "memory");
        for (int k = 0; k < copies; ++k)
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(sb + k * bytes), "l"(g + k * bytes), "r"(bytes), "r"(mb) : "memory");
    }
    mbar_wait(mb, 0);
    out[blockIdx.x * 128 + t] = s[t];
}

// shared -> global bulk copy of `bytes`
extern "C" __global__ void LB(128) bulk_s2g(float* out, int bytes)
{
    __shared__ __align__(128) float s[4096];
    int t = threadIdx.x;
    for (int k = t; k < 4096; k += 128) s[k] = (float)k;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    char* g = reinterpret_cast<char*>(out) + (size_t)blockIdx.x * bytes;
    if (t == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(g), "r"(smem_u32(s)), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;" ::: "memory");
    }
}

// shared -> global bulk reduction (add.f32) of `bytes`
extern "C" __global__ void LB(128) bulk_red_add(float* out, int bytes)
{
    __shared__ __align__(128) float s[4096];
    int t = threadIdx.x;
    for (int k = t; k < 4096; k += 128) s[k] = 1.0f;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    char* g = reinterpret_cast<char*>(out) + (size_t)blockIdx.x * bytes;
    if (t == 0) {
        asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;" ::"l"(g), "r"(smem_u32(s)), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;" ::: "memory");
    }
}

// L2 prefetch of `bytes` per block, then an ordinary coalesced copy of the same bytes
extern "C" __global__ void LB(128) bulk_prefetch(const float* in, float* out, int bytes)
{
    int t = threadIdx.x;
    const char* g = reinterpret_cast<const char*>(in) + (size_t)blockIdx.x * bytes;
    if (t == 0) asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(g), "r"(bytes) : "memory");
    out[blockIdx.x * 128 + t] = (float)t;
}

// 2-D tensor copies through a tensor map (parameter by value, __grid_constant__):
// a 1024 x 1024 float32 tensor, box 32 x 32 (4096 bytes); block b moves the tile
// at column 32 (b % 32), row 32 (b / 32).
struct __align__(64) TMap {
    unsigned long long v[16];
};

extern "C" __global__ void LB(128) tma2d_load(const __grid_constant__ TMap tm, float* out)
{
    __shared__ __align__(1024) float s[32 * 32];
    __shared__ __align__(8) unsigned long long bar;
    int t = threadIdx.x;
    unsigned sb = smem_u32(s), mb = smem_u32(&bar);
    if (t == 0) mbar_init(mb);
    __syncthreads();
    int x = (blockIdx.x % 32) * 32, y = (blockIdx.x / 32) * 32;
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 4096;" ::"r"(mb) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(sb), "l"(&tm), "r"(x), "r"(y), "r"(mb) : "memory");
    }
    mbar_wait(mb, 0);
    out[blockIdx.x * 128 + t] = s[t];
}

extern "C" __global__ void LB(128) tma2d_store(const __grid_constant__ TMap tm, float* out)
{
    __shared__ __align__(1024) float s[32 * 32];
    int t = threadIdx.x;
    for (int k = t; k < 1024; k += 128) s[k] = (float)k;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    int x = (blockIdx.x % 32) * 32, y = (blockIdx.x / 32) * 32;
    if (t == 0) {
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(&tm), "r"(x), "r"(y), "r"(smem_u32(s)) : "memory");
        asm volatile("cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;" ::: "memory");
    }
}

// ---------------------------------------------------------------------------
// 5. predicated-off requests
// ---------------------------------------------------------------------------
// odd warps: every lane's guard false (the instruction still issues)
extern "C" __global__ void LB(256) pred_off_warps(const float* in, float* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int odd = (threadIdx.x >> 5) & 1;
    float v = 0.0f;
    asm volatile("{\n\t.reg .pred q;\n\tsetp.eq.s32 q, %2, 0;\n\t@q ld.global.f32 %0, [%1];\n\t}" : "+f"(v) : "l"(in + i), "r"(odd) : "memory");
    asm volatile("{\n\t.reg .pred q;\n\tsetp.eq.s32 q, %2, 0;\n\t@q st.global.f32 [%0], %1;\n\t}" ::"l"(out + i), "f"(v), "r"(odd) : "memory");
}

// a Triton-like masked row: row r of n halves (row stride n), 128 threads x 8 halves
// = 1024 columns, lane loads 16 bytes at column 8 t when 8 t < n (n = 768: warp 3 off)
extern "C" __global__ void LB(128) pred_row_v4(const __half* x, __half* y, int n)
{
    int t = threadIdx.x, col = t * 8;
    int on = col < n;
    const __half* src = x + (size_t)blockIdx.x * 768 + col;
    __half* dst = y + (size_t)blockIdx.x * 768 + col;
    unsigned a = 0, b = 0, c = 0, d = 0;
    asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.s32 q, %5, 0;\n\t@q ld.global.v4.u32 {%0, %1, %2, %3}, [%4];\n\t}" : "+r"(a), "+r"(b), "+r"(c), "+r"(d) : "l"(src), "r"(on) : "memory");
    asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.s32 q, %5, 0;\n\t@q st.global.v4.u32 [%4], {%0, %1, %2, %3};\n\t}" ::"r"(a + 1), "r"(b), "r"(c), "r"(d), "l"(dst), "r"(on) : "memory");
}

// ---------------------------------------------------------------------------
// 6. cp.async parameter sweeps (follow-up run): source address in + i * ss + so,
//    shared destination sb + (t & 31) * ds + (t >> 5) * 4096 (each warp its own 4 KB)
// ---------------------------------------------------------------------------
extern "C" __global__ void LB(128) cpa_sweep_ca4(const char* in, float* out, int ss, int so, int ds)
{
    CPA_HEAD
    CP_ASYNC("ca", 4, sb + (t & 31) * ds + (t >> 5) * 4096, in + (size_t)i * ss + so);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_sweep_ca8(const char* in, float* out, int ss, int so, int ds)
{
    CPA_HEAD
    CP_ASYNC("ca", 8, sb + (t & 31) * ds + (t >> 5) * 4096, in + (size_t)i * ss + so);
    CPA_TAIL
}

extern "C" __global__ void LB(128) cpa_sweep_cg16(const char* in, float* out, int ss, int so, int ds)
{
    CPA_HEAD
    CP_ASYNC("cg", 16, sb + (t & 31) * ds + (t >> 5) * 4096, in + (size_t)i * ss + so);
    CPA_TAIL
}

// ---------------------------------------------------------------------------
// 7. third run: ldmatrix .x4 at a runtime row stride (bytes), and 1-D / 3-D
//    tensor copies (float32 tensor maps passed by value)
// ---------------------------------------------------------------------------
// lane l addresses row (l & 15) of 16-byte chunk (l >> 4); warp w's rows start at 16 w
extern "C" __global__ void LB(128) ldsm_x4_stride(float* out, int stride)
{
    __shared__ __align__(128) unsigned char s[64 * 256 + 64];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    unsigned sb = smem_u32(s);
    unsigned r0, r1, r2, r3;
    LDSM_X4(sb + (16 * w + (lane & 15)) * stride + (lane >> 4) * 16);
    LDSM_TAIL
}

// 1-D: block b loads elements 256 b .. 256 b + 255 (box 256 = 1024 bytes)
extern "C" __global__ void LB(128) tma1d_load(const __grid_constant__ TMap tm, float* out)
{
    __shared__ __align__(1024) float s[256];
    __shared__ __align__(8) unsigned long long bar;
    int t = threadIdx.x;
    unsigned sb = smem_u32(s), mb = smem_u32(&bar);
    if (t == 0) mbar_init(mb);
    __syncthreads();
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" ::"r"(mb) : "memory");
        asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];" ::"r"(sb), "l"(&tm), "r"((int)blockIdx.x * 256), "r"(mb) : "memory");
    }
    mbar_wait(mb, 0);
    out[blockIdx.x * 128 + t] = s[t];
}

// 3-D: a 64 x 64 x 64 float32 tensor, box 32 x 8 x 4 (4096 bytes); block b loads
// the box at x = 32 (b % 2), y = 8 ((b / 2) % 8), z = 4 (b / 16)
extern "C" __global__ void LB(128) tma3d_load(const __grid_constant__ TMap tm, float* out)
{
    __shared__ __align__(1024) float s[1024];
    __shared__ __align__(8) unsigned long long bar;
    int t = threadIdx.x;
    unsigned sb = smem_u32(s), mb = smem_u32(&bar);
    if (t == 0) mbar_init(mb);
    __syncthreads();
    int b = blockIdx.x, x = 32 * (b % 2), y = 8 * ((b / 2) % 8), z = 4 * (b / 16);
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 4096;" ::"r"(mb) : "memory");
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(sb), "l"(&tm), "r"(x), "r"(y), "r"(z), "r"(mb) : "memory");
    }
    mbar_wait(mb, 0);
    out[blockIdx.x * 128 + t] = s[t];
}

// ---------------------------------------------------------------------------
// 8. fourth run: 16-byte cp.async with a destination offset and with a
//    runtime src-size (LDGSTS.ZFILL) over the same layouts; 4-D and 5-D
//    tensor copies (float32 tensor maps, 4096-byte boxes)
// ---------------------------------------------------------------------------
// source in + i * ss + so, destination sb + (t & 31) * ds + (t >> 5) * 4096 + dof
extern "C" __global__ void LB(128) cpa_sweep2_cg16(const char* in, float* out, int ss, int so, int ds, int dof)
{
    CPA_HEAD
    CP_ASYNC("cg", 16, sb + (t & 31) * ds + (t >> 5) * 4096 + dof, in + (size_t)i * ss + so);
    CPA_TAIL
}

// the same with a runtime src-size zs (cp.async ... 16, zs: LDGSTS.ZFILL)
extern "C" __global__ void LB(128) cpa_sweep_zf16(const char* in, float* out, int ss, int so, int ds, int zs)
{
    CPA_HEAD
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(sb + (t & 31) * ds + (t >> 5) * 4096), "l"(in + (size_t)i * ss + so), "r"(zs) : "memory");
    CPA_TAIL
}

// 4-D: a 16 x 16 x 16 x 16 float32 tensor, box 16 x 4 x 4 x 4 (4096 bytes); block b
// loads the box at (0, 4 (b % 4), 4 ((b / 4) % 4), 4 (b / 16))
extern "C" __global__ void LB(128) tma4d_load(const __grid_constant__ TMap tm, float* out)
{
    __shared__ __align__(1024) float s[1024];
    __shared__ __align__(8) unsigned long long bar;
    int t = threadIdx.x;
    unsigned sb = smem_u32(s), mb = smem_u32(&bar);
    if (t == 0) mbar_init(mb);
    __syncthreads();
    int b = blockIdx.x, y = 4 * (b % 4), z = 4 * ((b / 4) % 4), w = 4 * (b / 16);
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 4096;" ::"r"(mb) : "memory");
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(sb), "l"(&tm), "r"(0), "r"(y), "r"(z), "r"(w), "r"(mb) : "memory");
    }
    mbar_wait(mb, 0);
    out[blockIdx.x * 128 + t] = s[t];
}

// 5-D: an 8 x 8 x 8 x 8 x 8 float32 tensor, box 8 x 4 x 4 x 4 x 2 (4096 bytes); block b
// loads the box at (0, 4 (b % 2), 4 ((b / 2) % 2), 4 ((b / 4) % 2), 2 ((b / 8) % 4))
extern "C" __global__ void LB(128) tma5d_load(const __grid_constant__ TMap tm, float* out)
{
    __shared__ __align__(1024) float s[1024];
    __shared__ __align__(8) unsigned long long bar;
    int t = threadIdx.x;
    unsigned sb = smem_u32(s), mb = smem_u32(&bar);
    if (t == 0) mbar_init(mb);
    __syncthreads();
    int b = blockIdx.x, y = 4 * (b % 2), z = 4 * ((b / 2) % 2), w = 4 * ((b / 4) % 2), v = 2 * ((b / 8) % 4);
    if (t == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 4096;" ::"r"(mb) : "memory");
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];" ::"r"(sb), "l"(&tm), "r"(0), "r"(y), "r"(z), "r"(w), "r"(v), "r"(mb) : "memory");
    }
    mbar_wait(mb, 0);
    out[blockIdx.x * 128 + t] = s[t];
}
