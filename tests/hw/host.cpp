// warpscope hardware suite: host program.
//
// Loads the suite's cubins (built by tests/hw/measure.sh from the committed
// .ptx files), fills the buffers deterministically, and runs every launch of
// the table below once, in table order.  It also writes the launch table as
// JSON (tests/hw/launches.json).  libcuda is opened with dlopen, so the
// program builds with any C++ compiler and `--dry-run` (write the JSON, touch
// no GPU) runs on a machine without CUDA.
//
//   host --modules DIR [--launches FILE] [--dry-run] [--only ID]
//
// Permutations come from a 64-bit LCG (Knuth's MMIX constants) driving a
// Fisher-Yates shuffle; tests/hw/lcg_perm.py reproduces them exactly.

#include <dlfcn.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

// ------------------------------------------------------------ driver API --
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;

static CUresult (*p_cuInit)(unsigned);
static CUresult (*p_cuDeviceGet)(CUdevice *, int);
static CUresult (*p_cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
static CUresult (*p_cuCtxSetCurrent)(CUcontext);
static CUresult (*p_cuModuleLoad)(CUmodule *, const char *);
static CUresult (*p_cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
static CUresult (*p_cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*p_cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
static CUresult (*p_cuMemsetD32)(CUdeviceptr, unsigned, size_t);
static CUresult (*p_cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                    unsigned, CUstream, void **, void **);
static CUresult (*p_cuCtxSynchronize)(void);
static CUresult (*p_cuGetErrorString)(CUresult, const char **);
// cuTensorMapEncodeTiled(map, dtype, rank, addr, dims, strides, box, elemStrides, interleave, swizzle, l2promo, oobFill)
static CUresult (*p_cuTensorMapEncodeTiled)(void *, int, unsigned, void *, const unsigned long long *,
                                            const unsigned long long *, const unsigned *, const unsigned *, int, int,
                                            int, int);

static void check(CUresult r, const char *what, const std::string &ctx)
{
    if (r != 0) {
        const char *s = "?";
        if (p_cuGetErrorString) p_cuGetErrorString(r, &s);
        fprintf(stderr, "CUDA error %d (%s) in %s [%s]\n", r, s, what, ctx.c_str());
        exit(1);
    }
}

template <typename F>
static void sym(void *lib, F &f, const char *name)
{
    f = reinterpret_cast<F>(dlsym(lib, name));
    if (!f) {
        fprintf(stderr, "missing %s in libcuda\n", name);
        exit(1);
    }
}

static void load_driver()
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
        fprintf(stderr, "dlopen libcuda.so.1: %s\n", dlerror());
        exit(1);
    }
    sym(lib, p_cuInit, "cuInit");
    sym(lib, p_cuDeviceGet, "cuDeviceGet");
    sym(lib, p_cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    sym(lib, p_cuCtxSetCurrent, "cuCtxSetCurrent");
    sym(lib, p_cuModuleLoad, "cuModuleLoad");
    sym(lib, p_cuModuleGetFunction, "cuModuleGetFunction");
    sym(lib, p_cuMemAlloc, "cuMemAlloc_v2");
    sym(lib, p_cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    sym(lib, p_cuMemsetD32, "cuMemsetD32_v2");
    sym(lib, p_cuLaunchKernel, "cuLaunchKernel");
    sym(lib, p_cuCtxSynchronize, "cuCtxSynchronize");
    sym(lib, p_cuGetErrorString, "cuGetErrorString");
    sym(lib, p_cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled");
}

// ------------------------------------------------------- permutations --
static const uint64_t LCG_A = 6364136223846793005ULL;
static const uint64_t LCG_C = 1442695040888963407ULL;

struct Lcg {
    uint64_t s;
    explicit Lcg(uint64_t seed) : s(seed) {}
    uint32_t next() { s = s * LCG_A + LCG_C; return (uint32_t)(s >> 32); }
};

// identity, then Fisher-Yates from the top: for i = n-1 .. 1, j = next() % (i+1), swap
static std::vector<int32_t> permutation(int n, uint64_t seed)
{
    std::vector<int32_t> p(n);
    for (int i = 0; i < n; ++i) p[i] = i;
    Lcg g(seed);
    for (int i = n - 1; i > 0; --i) {
        uint32_t j = g.next() % (uint32_t)(i + 1);
        int32_t t = p[i]; p[i] = p[j]; p[j] = t;
    }
    return p;
}

static const uint64_t SEED_PERM_10K = 2026;
static const uint64_t SEED_PERM_32K = 4004;

// ------------------------------------------------------------ buffers --
struct Buffer {
    std::string name;
    size_t bytes;
    std::string contents;  // human-readable description, copied into launches.json
    std::vector<uint32_t> words;  // explicit initial contents (if non-empty)
    uint32_t fill;                // otherwise every 32-bit word = fill
    CUdeviceptr ptr;
};

static std::vector<Buffer> g_buffers;

static void add_fill(const char *name, size_t bytes, uint32_t fill, const char *what)
{
    Buffer b; b.name = name; b.bytes = bytes; b.fill = fill; b.contents = what; b.ptr = 0;
    g_buffers.push_back(b);
}

static void add_words(const char *name, const std::vector<uint32_t> &w, const char *what)
{
    Buffer b; b.name = name; b.bytes = w.size() * 4; b.fill = 0; b.contents = what; b.words = w; b.ptr = 0;
    g_buffers.push_back(b);
}

static Buffer &buf(const std::string &name)
{
    for (auto &b : g_buffers)
        if (b.name == name) return b;
    fprintf(stderr, "unknown buffer %s\n", name.c_str());
    exit(1);
}

static std::vector<uint32_t> as_words(const std::vector<int32_t> &v)
{
    std::vector<uint32_t> w(v.size());
    for (size_t i = 0; i < v.size(); ++i) w[i] = (uint32_t)v[i];
    return w;
}

static void make_buffers()
{
    const size_t MiB = 1 << 20;
    add_fill("A", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word");
    add_fill("B", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word");
    add_fill("C", 64 * MiB, 0x00000000u, "zero");
    add_fill("X", 4 * MiB, 0x3F800000u, "float32 1.0 (1,048,576 floats)");
    add_fill("Y", 4 * MiB, 0x40000000u, "float32 2.0 (1,048,576 floats)");
    std::vector<uint32_t> ua(8);
    for (int k = 0; k < 8; ++k) { float f = (float)(k + 1); memcpy(&ua[k], &f, 4); }
    add_words("UARG", ua, "float32 1,2,3,4,5,6,7,8");
    add_fill("P_F32", 10000 * 4, 0x3F800000u, "10,000 float32 1.0");
    add_fill("P_F64", 10000 * 8, 0x00000000u, "10,000 float64 0.0");
    std::vector<int32_t> id10k(10000), id32k(32768);
    for (int i = 0; i < 10000; ++i) id10k[i] = i;
    for (int i = 0; i < 32768; ++i) id32k[i] = i;
    add_words("OFF_ID_10K", as_words(id10k), "int32 identity 0..9999");
    add_words("OFF_PERM_10K", as_words(permutation(10000, SEED_PERM_10K)),
              "int32 permutation of 0..9999, lcg_perm(n=10000, seed=2026)");
    add_words("IDX_ID_32K", as_words(id32k), "int32 identity 0..32767");
    add_words("IDX_PERM_32K", as_words(permutation(32768, SEED_PERM_32K)),
              "int32 permutation of 0..32767, lcg_perm(n=32768, seed=4004)");
    add_fill("CNT", 1 * MiB, 0x00000000u, "uint32 zero");
}

// ------------------------------------------------------------ launches --
struct Param {
    bool pointer;
    bool tensormap = false;  // 2-D float32 tile map over `buffer` (dims, box below); passed by value (128 bytes)
    unsigned rank = 2;
    unsigned long long dims[5] = {0, 0, 0, 0, 0};
    unsigned box[5] = {0, 0, 0, 0, 0};
    int swizzle = 0;  // CUtensorMapSwizzle: 0 none, 1 32B, 2 64B, 3 128B
    std::string type;    // scalar: s32 u32 s64 u64 f32; pointer: "ptr"
    std::string buffer;  // pointer only
    long long offset;    // pointer only: byte offset from the buffer's base
    long long ival;
    double fval;
};

static Param P(const char *b, long long off = 0) { Param p; p.pointer = true; p.type = "ptr"; p.buffer = b; p.offset = off; p.ival = 0; p.fval = 0; return p; }
static Param S32(long long v) { Param p; p.pointer = false; p.type = "s32"; p.offset = 0; p.ival = v; p.fval = 0; return p; }
static Param S64(long long v) { Param p = S32(v); p.type = "s64"; return p; }
static Param U64(long long v) { Param p = S32(v); p.type = "u64"; return p; }
// a CUtensorMap (cuTensorMapEncodeTiled: float32, rank 2, no interleave, no swizzle,
// no L2 promotion, no OOB fill; TMAP_SWZ128: 128-byte swizzle) over `b`: dims {cols, rows}, row pitch cols*4 bytes, box {bx, by}
static Param TMAP(const char *b, unsigned long long cols, unsigned long long rows, unsigned bx, unsigned by)
{
    Param p = P(b); p.tensormap = true; p.type = "tensormap";
    p.dims[0] = cols; p.dims[1] = rows; p.box[0] = bx; p.box[1] = by;
    return p;
}
// rank 1, 3, 4 or 5 float32 tile maps (packed rows: strides are products of the dims)
static Param TMAP_N(const char *b, unsigned rank, std::vector<unsigned long long> dims, std::vector<unsigned> box)
{
    Param p = P(b); p.tensormap = true; p.type = "tensormap"; p.rank = rank;
    for (unsigned k = 0; k < rank; ++k) { p.dims[k] = dims[k]; p.box[k] = box[k]; }
    return p;
}
static Param TMAP_SWZ128(const char *b, unsigned long long cols, unsigned long long rows, unsigned bx, unsigned by)
{
    Param p = TMAP(b, cols, rows, bx, by);
    p.swizzle = 3;
    return p;
}

struct Module { std::string name, ptx; };
static const Module MODULES[] = {
    {"kernels", "tests/hw/kernels.ptx"},
    {"indirect", "examples/kernels/indirect/indirect.ptx"},
    {"transactions", "examples/kernels/transactions/transactions.ptx"},
    {"fma", "examples/kernels/fma/fma.ptx"},
    {"common_cases", "examples/kernels/common_cases/common_cases.ptx"},
    {"transpose", "examples/kernels/transpose/transpose.ptx"},
    {"modern", "tests/hw/modern.ptx"},
    {"modern90a", "tests/hw/modern90a.ptx"},
    {"arith", "tests/hw/arith.ptx"},
};

struct Launch {
    std::string id, module, kernel, note;
    unsigned grid[3], block[3];
    std::vector<Param> params;
};

static std::vector<Launch> g_launches;

static void L(const std::string &id, const char *module, const std::string &kernel,
              unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
              std::vector<Param> params, const char *note = "")
{
    Launch l;
    l.id = id; l.module = module; l.kernel = kernel; l.note = note;
    l.grid[0] = gx; l.grid[1] = gy; l.grid[2] = gz;
    l.block[0] = bx; l.block[1] = by; l.block[2] = bz;
    l.params = params;
    g_launches.push_back(l);
}

// 1-D launch of n threads in blocks of 256 over n = 32768 unless stated
static void L1(const std::string &id, const char *module, const std::string &kernel, std::vector<Param> params,
               unsigned threads = 32768, unsigned block = 256, const char *note = "")
{
    L(id, module, kernel, (threads + block - 1) / block, 1, 1, block, 1, 1, params, note);
}

static std::string stride_name(const char *base, int s, const char *sig)
{
    // Itanium mangling of template<int S> kernels, e.g. _Z10stride_f32ILi2EEvPKfPfi
    char b[256];
    snprintf(b, sizeof b, "_Z%zu%sILi%dEEv%s", strlen(base), base, s, sig);
    return b;
}

static void make_launches()
{
    const int n = 32768;
    const char *K = "kernels";
    // 1. element sizes
    L1("copy_u8", K, "copy_u8", {P("A"), P("B"), S32(n)});
    L1("copy_u16", K, "copy_u16", {P("A"), P("B"), S32(n)});
    L1("copy_f32", K, "copy_f32", {P("A"), P("B"), S32(n)});
    L1("copy_f64", K, "copy_f64", {P("A"), P("B"), S32(n)});
    L1("copy_f32x2", K, "copy_f32x2", {P("A"), P("B"), S32(n)});
    L1("copy_f32x4", K, "copy_f32x4", {P("A"), P("B"), S32(n)});
    L1("copy_f64x2", K, "copy_f64x2", {P("A"), P("B"), S32(n)});
    L1("copy_f32_nc", K, "copy_f32_nc", {P("A"), P("B"), S32(n)});
    // 2. misaligned
    L1("misalign_f32_c1", K, "misalign_f32_c1", {P("A"), P("B"), S32(n)});
    L1("misalign_f32_rt_off1", K, "misalign_f32_rt", {P("A"), P("B"), S32(n), S32(1)});
    L1("misalign_f64_rt_off1", K, "misalign_f64_rt", {P("A"), P("B"), S32(n), S32(1)});
    L1("misalign_f32_rt_off8", K, "misalign_f32_rt", {P("A"), P("B"), S32(n), S32(8)});
    L1("misalign_f32x4_rt_off1", K, "misalign_f32x4_rt", {P("A"), P("B"), S32(n), S32(1)});
    L1("misalign_f32_rt_off32", K, "misalign_f32_rt", {P("A"), P("B"), S32(n), S32(32)});
    L1("misalign_u8_rt_off3", K, "misalign_u8_rt", {P("A"), P("B"), S32(n), S32(3)});
    L1("misalign_store_f32_off1", K, "misalign_store_f32", {P("A"), P("B"), S32(n), S32(1)});
    L1("copy_f32_base4", K, "copy_f32", {P("A", 4), P("B", 4), S32(n)}, 32768, 256,
       "both pointers 4 bytes past the start of their buffers");
    // 3. strides
    for (int s = 2; s <= 33; ++s) {
        char id[64]; snprintf(id, sizeof id, "stride_f32_%d", s);
        L1(id, K, stride_name("stride_f32", s, "PKfPfi"), {P("A"), P("B"), S32(n)});
    }
    for (int s : {2, 4, 8, 32}) {
        char id[64]; snprintf(id, sizeof id, "stride_store_f32_%d", s);
        L1(id, K, stride_name("stride_store_f32", s, "PKfPfi"), {P("A"), P("B"), S32(n)});
    }
    L1("stride_f64_2", K, stride_name("stride_f64", 2, "PKdPdi"), {P("A"), P("B"), S32(n)});
    L1("stride_f64_4", K, stride_name("stride_f64", 4, "PKdPdi"), {P("A"), P("B"), S32(n)});
    L1("stride_f32x4_2", K, stride_name("stride_f32x4", 2, "PK6float4PS0_i"), {P("A"), P("B"), S32(n)});
    // runtime stride, interleaved with other kernels (no two launches of one kernel adjacent)
    L1("stride_f32_rt_s2", K, "stride_f32_rt", {P("A"), P("B"), S32(n), S32(2)});
    L1("broadcast_f32", K, "broadcast_f32", {P("A"), P("B"), S32(n)});
    L1("stride_f32_rt_s7", K, "stride_f32_rt", {P("A"), P("B"), S32(n), S32(7)});
    L1("warp_perm_f32", K, "warp_perm_f32", {P("A"), P("B"), S32(n)});
    L1("stride_f32_rt_s32", K, "stride_f32_rt", {P("A"), P("B"), S32(n), S32(32)});
    L1("lane_arith_f32", K, "lane_arith_f32", {P("A"), P("B"), S32(n)});
    L1("stride_f32_rt_s0", K, "stride_f32_rt", {P("A"), P("B"), S32(n), S32(0)}, 32768, 256,
       "stride 0: every lane reads in[0]");
    // 7. indirect
    L1("gather_f32_perm", K, "gather_f32", {P("A"), P("IDX_PERM_32K"), P("B"), S32(n)});
    L1("scatter_f32_perm", K, "scatter_f32", {P("A"), P("IDX_PERM_32K"), P("B"), S32(n)});
    L1("gather_f32_identity", K, "gather_f32", {P("A"), P("IDX_ID_32K"), P("B"), S32(n)});
    // 8. AoS / SoA
    L1("aos3_f32", K, "aos3_f32", {P("A"), P("B"), S32(n)});
    L1("aos4_xw", K, "aos4_xw", {P("A"), P("B"), S32(n)});
    L1("aos4a_vec", K, "aos4a_vec", {P("A"), P("B"), S32(n)});
    L1("aos8_f0f5", K, "aos8_f0f5", {P("A"), P("B"), S32(n)});
    L1("aos3_store_y", K, "aos3_store_y", {P("A"), P("B"), S32(n)});
    L1("soa3_f32", K, "soa3_f32", {P("A"), P("A", 4 << 20), P("A", 8 << 20), P("B"), S32(n)});
    // 9. 2-D / 3-D blocks (256 x 256 floats; 64 x 64 x 16 floats)
    L("blk2d_row_16x16", K, "blk2d_row", 16, 16, 1, 16, 16, 1, {P("A"), P("B"), S32(256)});
    L("blk2d_col_16x16", K, "blk2d_col", 16, 16, 1, 16, 16, 1, {P("A"), P("B"), S32(256)});
    L("blk2d_row_32x8", K, "blk2d_row", 8, 32, 1, 32, 8, 1, {P("A"), P("B"), S32(256)});
    L("blk2d_col_32x8", K, "blk2d_col", 8, 32, 1, 32, 8, 1, {P("A"), P("B"), S32(256)});
    L("blk3d_row_8x8x4", K, "blk3d_row", 8, 8, 4, 8, 8, 4, {P("A"), P("B"), S32(64), S32(64)});
    L("blk3d_col_8x8x4", K, "blk3d_col", 8, 8, 4, 8, 8, 4, {P("A"), P("B"), S32(16), S32(64)});
    // 10. loops
    L("grid_stride_f32", K, "grid_stride_f32", 32, 1, 1, 256, 1, 1, {P("A"), P("B"), S32(65536)},
      "8192 threads over n = 65536: 8 iterations per thread");
    L1("unroll4_f32", K, "unroll4_f32", {P("A"), P("B"), S32(n)});
    L1("unroll8_seq_f32", K, "unroll8_seq_f32", {P("A"), P("B"), S32(n)});
    L1("ptr_walk_rows", K, "ptr_walk_rows", {P("A"), P("B"), S32(n), S32(8)});
    L1("ptr_walk_chunk", K, "ptr_walk_chunk", {P("A"), P("B"), S32(16)}, 8192);
    // 11. stencils
    L1("stencil1d_3pt", K, "stencil1d_3pt", {P("A"), P("B"), S32(n)});
    L("stencil2d_5pt", K, "stencil2d_5pt", 8, 32, 1, 32, 8, 1, {P("A"), P("B"), S32(256), S32(256)});
    // 12. matmul, N = 128
    L("matmul_naive", K, "matmul_naive", 8, 8, 1, 16, 16, 1, {P("A"), P("B"), P("C"), S32(128)});
    // 13. atomics
    L1("atomic_add_f32", K, "atomic_add_f32", {P("C"), S32(n)});
    L1("red_asm_f32", K, "red_asm_f32", {P("C"), S32(n)});
    L1("atom_ret_u32", K, "atom_ret_u32", {P("CNT"), P("B"), S32(n)});
    L1("atomic_inc_same_u32", K, "atomic_inc_same_u32", {P("CNT"), P("B"), S32(n)});
    // 14. partial warps, predication
    L1("pred_half_warp", K, "pred_half_warp", {P("A"), P("B"), S32(n)});
    L1("copy_f32_block48", K, "copy_f32", {P("A"), P("B"), S32(480)}, 480, 48,
       "48-thread blocks: the second warp of each block has 16 lanes");
    L1("pred_odd_lanes", K, "pred_odd_lanes", {P("A"), P("B"), S32(n)});
    L1("copy_f32_n10000", K, "copy_f32", {P("A"), P("B"), S32(10000)}, 10000, 256,
       "40 blocks of 256 threads, n = 10000: last warp 16 lanes, 8 warps fully off");
    L1("pred_lane0", K, "pred_lane0", {P("A"), P("B"), S32(n)});
    // 15. 64-bit indexing
    L1("idx64_offset", K, "idx64_offset", {P("A"), P("B"), S64(n), S64(4096)});
    L1("idx64_stride", K, "idx64_stride", {P("A"), P("B"), U64(n), U64(3)});
    // 16. shared memory
    L("smem_banks", K, "smem_banks", 64, 1, 1, 32, 1, 1, {P("A"), P("B")});

    // ---- seeds (examples/kernels)
    L("indirect_f32_coalesced", "indirect", "_Z8indirectIfEvPT_PKim", 79, 1, 1, 128, 1, 1,
      {P("P_F32"), P("OFF_ID_10K"), U64(10000)});
    L("indirect_f64_coalesced", "indirect", "_Z8indirectIdEvPT_PKim", 79, 1, 1, 128, 1, 1,
      {P("P_F64"), P("OFF_ID_10K"), U64(10000)});
    L("indirect_f32_permuted", "indirect", "_Z8indirectIfEvPT_PKim", 79, 1, 1, 128, 1, 1,
      {P("P_F32"), P("OFF_PERM_10K"), U64(10000)});
    L("indirect_f64_permuted", "indirect", "_Z8indirectIdEvPT_PKim", 79, 1, 1, 128, 1, 1,
      {P("P_F64"), P("OFF_PERM_10K"), U64(10000)});

    const char *T = "transactions";
    const char *F1 = "_Z3fmaIfLi1EEvlPT_S1_Pf";
    const long long NF = 1048576;
    L("sameAddress", T, "_Z11sameAddressP6float4", 1, 1, 1, 32, 1, 1, {P("B")});
    L("fma_op1_1thread", "fma", F1, 1, 1, 1, 1, 1, 1, {S64(131072), P("X"), P("Y"), P("UARG")}, "seed 003 first run: 1 MB (x, y 512 KB each), 1 block of 1 thread");
    L("sequentialAddresses", T, "_Z19sequentialAddressesP6float4", 1, 1, 1, 32, 1, 1, {P("B")});
    L("fma_op1_8threads", "fma", F1, 1, 1, 1, 8, 1, 1, {S64(NF), P("X"), P("Y"), P("UARG")});
    L("separateCacheLines", T, "_Z18separateCacheLinesP6float4", 1, 1, 1, 32, 1, 1, {P("B")});
    L("fma_op1_32threads", "fma", F1, 1, 1, 1, 32, 1, 1, {S64(NF), P("X"), P("Y"), P("UARG")});
    L("sameAddress_each", T, "_Z16sameAddress_eachP6float4", 1, 1, 1, 32, 1, 1, {P("B")});
    L("fma_op1_64threads", "fma", F1, 1, 1, 1, 64, 1, 1, {S64(NF), P("X"), P("Y"), P("UARG")});
    L("sequentialAddresses_each", T, "_Z24sequentialAddresses_eachP6float4", 1, 1, 1, 32, 1, 1, {P("B")});
    L("fma_op4_32threads", "fma", "_Z3fmaIfLi4EEvlPT_S1_Pf", 1, 1, 1, 32, 1, 1, {S64(NF), P("X"), P("Y"), P("UARG")});
    L("fma_split_op1_32threads", "fma", "_Z9fma_splitIfLi1EEvlPT_S1_Pf", 1, 1, 1, 32, 1, 1, {S64(NF), P("X"), P("Y"), P("UARG")});
    L("separateCacheLines_each", T, "_Z23separateCacheLines_eachP6float4", 1, 1, 1, 32, 1, 1, {P("B")});

    const char *CC = "common_cases";
    L1("cc_broadcast", CC, "cc_broadcast", {P("A"), P("B"), S32(n), S32(32)});
    L1("cc_aligned", CC, "cc_aligned", {P("A"), P("B"), S32(n)});
    L1("cc_permuted", CC, "cc_permuted", {P("A"), P("B"), S32(n)});
    L1("cc_misaligned", CC, "cc_misaligned", {P("A"), P("B"), S32(n)});
    L1("cc_scattered_n32", CC, "cc_scattered", {P("A"), P("B"), S32(n), S32(32)});
    L1("cc_misaligned_permuted", CC, "cc_misaligned_permuted", {P("A"), P("B"), S32(n)});
    L1("cc_scattered_n8", CC, "cc_scattered", {P("A"), P("B"), S32(n), S32(8)});

    const char *TR = "transpose";
    L("copy_tile", TR, "copy_tile", 16, 16, 1, 32, 8, 1, {P("B"), P("A"), S32(512)});
    L("transpose_naive", TR, "transpose_naive", 16, 16, 1, 32, 8, 1, {P("B"), P("A"), S32(512)});
    L("transpose_smem", TR, "transpose_smem", 16, 16, 1, 32, 8, 1, {P("B"), P("A"), S32(512)});
    L("transpose_smem_pad", TR, "transpose_smem_pad", 16, 16, 1, 32, 8, 1, {P("B"), P("A"), S32(512)});

    // ---- tests/hw/modern.cu (issue 11); 64 blocks of 128 threads unless stated
    const char *M = "modern";
    auto CPA = [&](const char *id, const char *kernel, int p, const char *note = "") {
        L(id, M, kernel, 64, 1, 1, 128, 1, 1, {P("A"), P("B"), P("IDX_PERM_32K"), S32(p)}, note);
    };
    CPA("cpa_ca4", "cpa_ca4", 0);
    CPA("cpa_ca8", "cpa_ca8", 0);
    CPA("cpa_ca16", "cpa_ca16", 0);
    CPA("cpa_cg16", "cpa_cg16", 0);
    CPA("cpa_ca4_bcast", "cpa_ca4_bcast", 0);
    CPA("cpa_cg16_bcast", "cpa_cg16_bcast", 0);
    CPA("cpa_ca4_stride2", "cpa_ca4_stride2", 0);
    CPA("cpa_ca4_stride32", "cpa_ca4_stride32", 0);
    CPA("cpa_ca8_stride3", "cpa_ca8_stride3", 0);
    CPA("cpa_cg16_stride2", "cpa_cg16_stride2", 0);
    CPA("cpa_ca4_off4", "cpa_ca4_off", 4, "source 4 bytes past the line");
    CPA("cpa_ca4_off64", "cpa_ca4_off", 64, "source 64 bytes past the line");
    CPA("cpa_cg16_off16", "cpa_cg16_off", 16, "source 16 bytes past the line");
    CPA("cpa_cg16_off64", "cpa_cg16_off", 64, "source 64 bytes past the line");
    CPA("cpa_ca4_gather", "cpa_ca4_gather", 0, "source in + 4 * IDX_PERM_32K[i]");
    CPA("cpa_cg16_gather", "cpa_cg16_gather", 0, "source in + 16 * IDX_PERM_32K[i]");
    CPA("cpa_cg16_srcsize0", "cpa_cg16_srcsize", 0, "src-size 0: pure zero fill");
    CPA("cpa_cg16_srcsize8", "cpa_cg16_srcsize", 8, "src-size 8 of 16");
    CPA("cpa_cg16_srcsize16", "cpa_cg16_srcsize", 16, "src-size 16 (full) through the src-size form");
    CPA("cpa_cg16_srcsize_odd", "cpa_cg16_srcsize_odd", 0);
    CPA("cpa_ca4_srcsize0", "cpa_ca4_srcsize", 0, "src-size 0: pure zero fill");
    CPA("cpa_cg16_ignore1", "cpa_cg16_ignore", 1, "ignore-src true in every lane");
    CPA("cpa_cg16_ignore0", "cpa_cg16_ignore", 0, "ignore-src false in every lane");
    CPA("cpa_cg16_ignore_hi", "cpa_cg16_ignore_hi", 0);
    CPA("cpa_cg16_hint", "cpa_cg16_hint", 0);
    CPA("cpa_ca4_pf64", "cpa_ca4_pf64", 0);
    CPA("cpa_ca4_pf128_stride32", "cpa_ca4_pf128_stride32", 0);
    CPA("cpa_cg16_pf256", "cpa_cg16_pf256", 0);
    CPA("cpa_ca4_dst32", "cpa_ca4_dst32", 0);
    CPA("cpa_ca4_dst2", "cpa_ca4_dst2", 0);
    CPA("cpa_cg16_dst2", "cpa_cg16_dst2", 0);
    CPA("cpa_cg16_dst8", "cpa_cg16_dst8", 0);
    CPA("cpa_cg16_dst_swz", "cpa_cg16_dst_swz", 0);
    // follow-up sweeps: (source stride, source offset, destination stride) in bytes
    struct Sw { const char *k; int sz; int ss, so, ds; };
    const Sw sweeps[] = {
        {"cpa_sweep_cg16", 16, 16, 0, 16}, {"cpa_sweep_cg16", 16, 16, 16, 16}, {"cpa_sweep_cg16", 16, 16, 32, 16},
        {"cpa_sweep_cg16", 16, 16, 48, 16}, {"cpa_sweep_cg16", 16, 16, 64, 16}, {"cpa_sweep_cg16", 16, 16, 96, 16},
        {"cpa_sweep_cg16", 16, 32, 0, 16}, {"cpa_sweep_cg16", 16, 48, 0, 16}, {"cpa_sweep_cg16", 16, 64, 0, 16},
        {"cpa_sweep_cg16", 16, 128, 0, 16}, {"cpa_sweep_cg16", 16, 0, 0, 16}, {"cpa_sweep_cg16", 16, 16, 0, 32},
        {"cpa_sweep_cg16", 16, 16, 0, 48}, {"cpa_sweep_cg16", 16, 16, 0, 64}, {"cpa_sweep_cg16", 16, 16, 0, 128},
        {"cpa_sweep_cg16", 16, 16, 0, 0}, {"cpa_sweep_cg16", 16, 32, 0, 32}, {"cpa_sweep_cg16", 16, 0, 0, 0},
        {"cpa_sweep_ca8", 8, 8, 0, 8}, {"cpa_sweep_ca8", 8, 8, 8, 8}, {"cpa_sweep_ca8", 8, 8, 24, 8},
        {"cpa_sweep_ca8", 8, 16, 0, 8}, {"cpa_sweep_ca8", 8, 24, 0, 8}, {"cpa_sweep_ca8", 8, 0, 0, 8},
        {"cpa_sweep_ca8", 8, 8, 0, 16}, {"cpa_sweep_ca8", 8, 8, 0, 128}, {"cpa_sweep_ca8", 8, 8, 0, 0},
        {"cpa_sweep_ca4", 4, 4, 0, 4}, {"cpa_sweep_ca4", 4, 4, 4, 4}, {"cpa_sweep_ca4", 4, 8, 0, 4},
        {"cpa_sweep_ca4", 4, 12, 0, 4}, {"cpa_sweep_ca4", 4, 0, 0, 4}, {"cpa_sweep_ca4", 4, 4, 0, 8},
        {"cpa_sweep_ca4", 4, 4, 0, 128}, {"cpa_sweep_ca4", 4, 4, 0, 0},
    };
    for (const Sw &w : sweeps) {
        char id[96];
        snprintf(id, sizeof id, "%s_ss%d_so%d_ds%d", w.k, w.ss, w.so, w.ds);
        L(id, M, w.k, 64, 1, 1, 128, 1, 1, {P("A"), P("B"), S32(w.ss), S32(w.so), S32(w.ds)},
          "source in + i * ss + so, destination (t & 31) * ds + (t >> 5) * 4096 (bytes)");
    }
    for (const char *k : {"ldsm_plain_x1", "ldsm_plain_x2", "ldsm_plain_x4", "ldsm_plain_x4_trans", "ldsm_pad_x1",
                          "ldsm_pad_x2", "ldsm_pad_x4", "ldsm_pad_x2_trans", "ldsm_swz_x1", "ldsm_swz_x2",
                          "ldsm_swz_x4", "ldsm_swz_x4_trans", "ldsm_dense_x4", "stsm_plain_x1", "stsm_plain_x2",
                          "stsm_plain_x4", "stsm_plain_x4_trans", "stsm_pad_x1", "stsm_pad_x4", "stsm_swz_x2",
                          "stsm_swz_x4", "stsm_swz_x4_trans"})
        L(k, M, k, 64, 1, 1, 128, 1, 1, {P("B")});
    for (const char *k : {"shw_8bit", "shw_16bit", "shw_32bit", "shw_64bit", "shw_128bit", "shatom"})
        L(k, M, k, 64, 1, 1, 32, 1, 1, {P("B")});
    L("bulk_g2s_4096x1", M, "bulk_g2s", 64, 1, 1, 128, 1, 1, {P("A"), P("B"), S32(4096), S32(1)},
      "one 4096-byte bulk copy per block");
    L("bulk_g2s_256x16", M, "bulk_g2s", 64, 1, 1, 128, 1, 1, {P("A"), P("B"), S32(256), S32(16)},
      "sixteen 256-byte bulk copies per block");
    L("bulk_g2s_16x256", M, "bulk_g2s", 64, 1, 1, 128, 1, 1, {P("A"), P("B"), S32(16), S32(256)},
      "256 bulk copies of 16 bytes per block (follow-up run)");
    L("bulk_s2g_4096", M, "bulk_s2g", 64, 1, 1, 128, 1, 1, {P("C"), S32(4096)});
    L("bulk_red_add_4096", M, "bulk_red_add", 64, 1, 1, 128, 1, 1, {P("C"), S32(4096)});
    L("bulk_prefetch_4096", M, "bulk_prefetch", 64, 1, 1, 128, 1, 1, {P("A"), P("B"), S32(4096)});
    L("tma2d_load", M, "tma2d_load", 64, 1, 1, 128, 1, 1, {TMAP("A", 1024, 1024, 32, 32), P("B")},
      "tensor map: float32 1024 x 1024 over A, box 32 x 32");
    L("tma2d_load_swz128", M, "tma2d_load", 64, 1, 1, 128, 1, 1, {TMAP_SWZ128("A", 1024, 1024, 32, 32), P("B")},
      "tensor map: float32 1024 x 1024 over A, box 32 x 32, 128-byte swizzle");
    for (int st : {16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 192, 256}) {  // 16-byte aligned rows (ldmatrix needs them)
        char id[64];
        snprintf(id, sizeof id, "ldsm_x4_stride%d", st);
        L(id, M, "ldsm_x4_stride", 64, 1, 1, 128, 1, 1, {P("B"), S32(st)},
          "ldmatrix .x4, row stride in bytes (third run)");
    }
    L("tma1d_load", M, "tma1d_load", 64, 1, 1, 128, 1, 1, {TMAP_N("A", 1, {1048576}, {256}), P("B")},
      "tensor map: float32 rank 1 over A (1,048,576 elements), box 256 (third run)");
    L("tma3d_load", M, "tma3d_load", 64, 1, 1, 128, 1, 1, {TMAP_N("A", 3, {64, 64, 64}, {32, 8, 4}), P("B")},
      "tensor map: float32 64 x 64 x 64 over A, box 32 x 8 x 4 (third run)");
    L("tma2d_store", M, "tma2d_store", 64, 1, 1, 128, 1, 1, {TMAP("C", 1024, 1024, 32, 32), P("B")},
      "tensor map: float32 1024 x 1024 over C, box 32 x 32");
    // fourth run (2026-11-25): bulk prefetch sizes, 4-D / 5-D tensor loads, 16-byte cp.async
    // with a destination offset and with a runtime src-size over the sweep layouts
    for (int sz : {16, 1024, 2048, 8192}) {
        char id[64];
        snprintf(id, sizeof id, "bulk_prefetch_%d", sz);
        L(id, M, "bulk_prefetch", 64, 1, 1, 128, 1, 1, {P("A"), P("B"), S32(sz)}, "fourth run: prefetch size");
    }
    L("tma4d_load", M, "tma4d_load", 64, 1, 1, 128, 1, 1, {TMAP_N("A", 4, {16, 16, 16, 16}, {16, 4, 4, 4}), P("B")},
      "tensor map: float32 16 x 16 x 16 x 16 over A, box 16 x 4 x 4 x 4 (fourth run)");
    L("tma5d_load", M, "tma5d_load", 64, 1, 1, 128, 1, 1, {TMAP_N("A", 5, {8, 8, 8, 8, 8}, {8, 4, 4, 4, 2}), P("B")},
      "tensor map: float32 8 x 8 x 8 x 8 x 8 over A, box 8 x 4 x 4 x 4 x 2 (fourth run)");
    struct Sw2 { int ss, so, ds, dof; };
    const Sw2 sweeps2[] = {
        {16, 16, 16, 16}, {16, 0, 16, 16}, {16, 16, 16, 32}, {16, 80, 16, 0}, {16, 112, 16, 0}, {16, 144, 16, 0},
        {16, 48, 16, 32}, {32, 16, 32, 0}, {32, 0, 32, 16}, {32, 16, 32, 16}, {48, 16, 16, 0}, {16, 16, 48, 0},
        {16, 16, 48, 16}, {48, 0, 48, 0}, {48, 16, 48, 16}, {64, 0, 64, 0}, {16, 32, 16, 16}, {16, 16, 32, 0},
        {0, 16, 16, 0}, {0, 0, 16, 16}, {16, 0, 32, 16}, {16, 0, 64, 16}, {32, 0, 16, 16}, {16, 64, 16, 16},
    };
    for (const Sw2 &w : sweeps2) {
        char id[96];
        snprintf(id, sizeof id, "cpa_sweep2_cg16_ss%d_so%d_ds%d_do%d", w.ss, w.so, w.ds, w.dof);
        L(id, M, "cpa_sweep2_cg16", 64, 1, 1, 128, 1, 1, {P("A"), P("B"), S32(w.ss), S32(w.so), S32(w.ds), S32(w.dof)},
          "source in + i * ss + so, destination (t & 31) * ds + (t >> 5) * 4096 + do (bytes), fourth run");
    }
    struct Zf { int ss, so, ds, zs; };
    const Zf zfs[] = {
        {16, 0, 16, 16}, {16, 0, 16, 4}, {16, 0, 32, 16}, {32, 0, 32, 16}, {16, 16, 16, 16}, {0, 0, 16, 16},
        {16, 0, 0, 16}, {16, 0, 48, 16}, {32, 0, 16, 16}, {16, 32, 16, 16}, {16, 0, 128, 16}, {16, 0, 32, 0},
    };
    for (const Zf &z : zfs) {
        char id[96];
        snprintf(id, sizeof id, "cpa_sweep_zf16_ss%d_so%d_ds%d_zs%d", z.ss, z.so, z.ds, z.zs);
        L(id, M, "cpa_sweep_zf16", 64, 1, 1, 128, 1, 1, {P("A"), P("B"), S32(z.ss), S32(z.so), S32(z.ds), S32(z.zs)},
          "src-size zs, source in + i * ss + so, destination (t & 31) * ds + (t >> 5) * 4096 (bytes), fourth run");
    }
    L("pred_off_warps", M, "pred_off_warps", 128, 1, 1, 256, 1, 1, {P("A"), P("B")});
    L("pred_row_v4_n768", M, "pred_row_v4", 256, 1, 1, 128, 1, 1, {P("A"), P("C"), S32(768)},
      "rows of 768 halves, 1024-wide block: warp 3 fully masked");
    L("pred_row_v4_n400", M, "pred_row_v4", 256, 1, 1, 128, 1, 1, {P("A"), P("C"), S32(400)},
      "n = 400: warp 1 partly, warps 2 and 3 fully masked");
    L("pred_row_v4_n0", M, "pred_row_v4", 256, 1, 1, 128, 1, 1, {P("A"), P("C"), S32(0)}, "n = 0: every lane masked");
    L("wgmma_m64n8k16", "modern90a", "wgmma_m64n8k16", 64, 1, 1, 128, 1, 1, {P("A"), P("B"), P("C")});
    L("wgmma_m64n32k16_ss", "modern90a", "wgmma_m64n32k16_ss", 64, 1, 1, 128, 1, 1, {P("A"), P("B"), P("C")},
      "fourth run: A and B in shared memory, no swizzle");
    L("wgmma_m64n32k16_rs", "modern90a", "wgmma_m64n32k16_rs", 64, 1, 1, 128, 1, 1, {P("A"), P("B"), P("C")},
      "fourth run: A in registers, B in shared memory, no swizzle");

    // ---- tests/hw/arith.cu (issue 10); 128 blocks of 256 threads
    const char *AR = "arith";
    L1("bfi_idx16", AR, "bfi_idx16", {P("A"), P("B")});
    L1("bfi_or_lane", AR, "bfi_or_lane", {P("A"), P("B")});
    L1("hist_atomic", AR, "hist_atomic", {P("IDX_PERM_32K"), P("CNT"), P("B"), P("A"), S32(n)},
       32768, 256, "b = IDX_PERM_32K (bins b & 255)");
    L1("hist_red_asm", AR, "hist_red_asm", {P("IDX_PERM_32K"), P("CNT"), P("B"), P("A"), S32(n)});
    L1("hist_shared", AR, "hist_shared", {P("IDX_PERM_32K"), P("CNT"), S32(n)});
    L1("loaded_base", AR, "loaded_base", {P("IDX_PERM_32K"), P("A"), P("B"), S32(8)}, 32768, 256,
       "ix = IDX_PERM_32K[k], k = 0..7 (uniform); store base IDX_PERM_32K[blockIdx.x]");
    L1("inline_chain", AR, "inline_chain", {P("A"), P("B")});
    L1("magic_div", AR, "magic_div", {P("A"), P("B")});
    L1("shuffles", AR, "shuffles", {P("A"), P("B")});
    L1("bit_ops", AR, "bit_ops", {P("A"), P("IDX_PERM_32K"), P("B")}, 32768, 256,
       "bytes = the bytes of IDX_PERM_32K (int32 little-endian)");
}

// ---------------------------------------------------------------- JSON --
static std::string jstr(const std::string &s)
{
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        o += c;
    }
    return o + "\"";
}

static void write_json(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); exit(1); }
    fprintf(f, "{\n  \"schema\": \"warpscope-hw-launches/1\",\n");
    fprintf(f, "  \"note\": \"Written by tests/hw/host.cpp. Launches run once each, in this order, on one stream. "
               "Pointer params: buffer name + byte offset; every buffer is cuMemAlloc'd with its size rounded up to a multiple of 2 MiB; the run prints each base mod 4096 (0 for all in the committed measurement, see README). "
               "Scalar params: value by PTX parameter index.\",\n");
    fprintf(f, "  \"permutation_generator\": {\"algorithm\": \"state = state * %llu + %llu (mod 2^64); next() = state >> 32; "
               "p = identity; for i = n-1 down to 1: j = next() %% (i+1); swap(p[i], p[j])\", \"reference\": \"tests/hw/lcg_perm.py\", "
               "\"seeds\": {\"OFF_PERM_10K\": %llu, \"IDX_PERM_32K\": %llu}},\n",
            (unsigned long long)LCG_A, (unsigned long long)LCG_C,
            (unsigned long long)SEED_PERM_10K, (unsigned long long)SEED_PERM_32K);
    fprintf(f, "  \"modules\": {");
    bool first = true;
    for (auto &m : MODULES) {
        fprintf(f, "%s\n    %s: {\"ptx\": %s}", first ? "" : ",", jstr(m.name).c_str(), jstr(m.ptx).c_str());
        first = false;
    }
    fprintf(f, "\n  },\n  \"buffers\": {");
    first = true;
    for (auto &b : g_buffers) {
        fprintf(f, "%s\n    %s: {\"bytes\": %zu, \"contents\": %s}", first ? "" : ",", jstr(b.name).c_str(), b.bytes,
                jstr(b.contents).c_str());
        first = false;
    }
    fprintf(f, "\n  },\n  \"launches\": [");
    for (size_t li = 0; li < g_launches.size(); ++li) {
        const Launch &l = g_launches[li];
        fprintf(f, "%s\n    {\"id\": %s, \"order\": %zu, \"module\": %s, \"kernel\": %s,\n", li ? "," : "",
                jstr(l.id).c_str(), li, jstr(l.module).c_str(), jstr(l.kernel).c_str());
        fprintf(f, "     \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"dynamic_shared_bytes\": 0,\n",
                l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2]);
        fprintf(f, "     \"params\": [");
        for (size_t pi = 0; pi < l.params.size(); ++pi) {
            const Param &p = l.params[pi];
            if (p.tensormap) {
                std::string dims, strides, box, es;
                unsigned long long pitch = 4;
                for (unsigned k = 0; k < p.rank; ++k) {
                    dims += (k ? ", " : "") + std::to_string(p.dims[k]);
                    box += (k ? ", " : "") + std::to_string(p.box[k]);
                    es += k ? ", 1" : "1";
                    pitch *= p.dims[k];
                    if (k + 1 < p.rank) strides += (k ? ", " : "") + std::to_string(pitch);
                }
                fprintf(f, "%s{\"index\": %zu, \"kind\": \"tensormap\", \"buffer\": %s, \"offset_bytes\": %lld, "
                           "\"dtype\": \"float32\", \"rank\": %u, \"dims\": [%s], \"strides_bytes\": [%s], \"box\": [%s], "
                           "\"element_strides\": [%s], \"interleave\": \"none\", \"swizzle\": \"%s\", \"l2_promotion\": \"none\", \"oob_fill\": \"none\"}",
                        pi ? ", " : "", pi, jstr(p.buffer).c_str(), p.offset, p.rank, dims.c_str(), strides.c_str(),
                        box.c_str(), es.c_str(), p.swizzle == 3 ? "128B" : "none");
            } else if (p.pointer)
                fprintf(f, "%s{\"index\": %zu, \"kind\": \"pointer\", \"buffer\": %s, \"offset_bytes\": %lld}",
                        pi ? ", " : "", pi, jstr(p.buffer).c_str(), p.offset);
            else
                fprintf(f, "%s{\"index\": %zu, \"kind\": \"scalar\", \"type\": %s, \"value\": %lld}", pi ? ", " : "", pi,
                        jstr(p.type).c_str(), p.ival);
        }
        fprintf(f, "]");
        if (!l.note.empty()) fprintf(f, ",\n     \"note\": %s", jstr(l.note).c_str());
        fprintf(f, "}");
    }
    fprintf(f, "\n  ]\n}\n");
    fclose(f);
}

// ---------------------------------------------------------------- main --
int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *json = nullptr;
    const char *only = nullptr;
    const char *skip = nullptr;
    bool dry = false;
    for (int a = 1; a < argc; ++a) {
        if (!strcmp(argv[a], "--modules") && a + 1 < argc) dir = argv[++a];
        else if (!strcmp(argv[a], "--launches") && a + 1 < argc) json = argv[++a];
        else if (!strcmp(argv[a], "--only") && a + 1 < argc) only = argv[++a];
        else if (!strcmp(argv[a], "--skip") && a + 1 < argc) skip = argv[++a];
        else if (!strcmp(argv[a], "--dry-run")) dry = true;
        else { fprintf(stderr, "usage: %s --modules DIR [--launches FILE] [--dry-run] [--only ID] [--skip FILE]\n", argv[0]); return 2; }
    }
    make_buffers();
    make_launches();
    if (skip) {
        // launch ids to leave out (one per line): the ones that failed when run alone
        FILE *sf = fopen(skip, "r");
        if (!sf) { perror(skip); return 1; }
        std::vector<std::string> ids;
        char line[256];
        while (fgets(line, sizeof line, sf)) {
            std::string id(line);
            while (!id.empty() && (id.back() == '\n' || id.back() == '\r' || id.back() == ' ')) id.pop_back();
            if (!id.empty()) ids.push_back(id);
        }
        fclose(sf);
        std::vector<Launch> kept;
        for (auto &l : g_launches) {
            bool drop = false;
            for (auto &id : ids) drop = drop || id == l.id;
            if (drop) printf("skipping %s\n", l.id.c_str());
            else kept.push_back(l);
        }
        g_launches = kept;
    }
    if (json) write_json(json);
    if (dry) {
        for (auto &b : g_buffers)
            if (!b.words.empty())
                printf("%s first 8: %d %d %d %d %d %d %d %d\n", b.name.c_str(), (int)b.words[0], (int)b.words[1],
                       (int)b.words[2], (int)b.words[3], (int)b.words[4], (int)b.words[5], (int)b.words[6],
                       (int)b.words[7]);
        printf("%zu launches\n", g_launches.size());
        return 0;
    }

    load_driver();
    check(p_cuInit(0), "cuInit", "");
    CUdevice dev; CUcontext ctx;
    check(p_cuDeviceGet(&dev, 0), "cuDeviceGet", "");
    check(p_cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain", "");
    check(p_cuCtxSetCurrent(ctx), "cuCtxSetCurrent", "");

    for (auto &b : g_buffers) {
        // allocations are rounded up to whole 2 MiB so that every base is 2 MiB-aligned in practice
        size_t alloc = (b.bytes + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);
        check(p_cuMemAlloc(&b.ptr, alloc), "cuMemAlloc", b.name);
        if (b.ptr % 256 != 0) { fprintf(stderr, "buffer %s not 256-aligned: %llx\n", b.name.c_str(), b.ptr); return 1; }
        if (b.ptr % 4096 != 0) fprintf(stderr, "WARNING: buffer %s not 4096-aligned: %llx\n", b.name.c_str(), b.ptr);
        printf("buffer %-13s base %% 4096 = %llu\n", b.name.c_str(), b.ptr % 4096);
        if (b.words.empty()) check(p_cuMemsetD32(b.ptr, b.fill, b.bytes / 4), "cuMemsetD32", b.name);
        else check(p_cuMemcpyHtoD(b.ptr, b.words.data(), b.bytes), "cuMemcpyHtoD", b.name);
    }
    check(p_cuCtxSynchronize(), "cuCtxSynchronize", "init");

    std::map<std::string, CUmodule> mods;
    for (auto &m : MODULES) {
        std::string path = std::string(dir) + "/" + m.name + ".cubin";
        CUmodule mod;
        check(p_cuModuleLoad(&mod, path.c_str()), "cuModuleLoad", path);
        mods[m.name] = mod;
    }

    int ran = 0;
    for (auto &l : g_launches) {
        if (only && l.id != only) continue;
        CUfunction fn;
        check(p_cuModuleGetFunction(&fn, mods.at(l.module), l.kernel.c_str()), "cuModuleGetFunction", l.kernel);
        std::vector<unsigned long long> storage(l.params.size());
        std::vector<void *> args(l.params.size());
        struct alignas(64) TensorMap { unsigned long long v[16]; };
        std::vector<TensorMap> maps(l.params.size());
        for (size_t i = 0; i < l.params.size(); ++i) {
            const Param &p = l.params[i];
            if (p.tensormap) {
                // packed: the stride of dimension k + 1 is 4 bytes times the product of dims 0..k
                unsigned long long strides[4] = {0, 0, 0, 0};
                unsigned long long pitch = 4;
                for (unsigned k = 0; k + 1 < p.rank; ++k) strides[k] = pitch *= p.dims[k];
                unsigned estr[5] = {1, 1, 1, 1, 1};
                void *base = (void *)(buf(p.buffer).ptr + (unsigned long long)p.offset);
                // 7 = CU_TENSOR_MAP_DATA_TYPE_FLOAT32; interleave, swizzle, L2 promotion, OOB fill all 0 (none)
                check(p_cuTensorMapEncodeTiled(&maps[i], 7, p.rank, base, p.dims, strides, p.box, estr, 0, p.swizzle, 0, 0),
                      "cuTensorMapEncodeTiled", l.id);
                args[i] = &maps[i];
                continue;
            }
            if (p.pointer) storage[i] = buf(p.buffer).ptr + (unsigned long long)p.offset;
            else if (p.type == "s32" || p.type == "u32") { int32_t v = (int32_t)p.ival; memcpy(&storage[i], &v, 4); }
            else storage[i] = (unsigned long long)p.ival;
            args[i] = &storage[i];
        }
        check(p_cuLaunchKernel(fn, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2], 0, nullptr,
                               args.data(), nullptr), "cuLaunchKernel", l.id);
        check(p_cuCtxSynchronize(), "cuCtxSynchronize", l.id);
        ++ran;
    }
    printf("ran %d launches\n", ran);
    return 0;
}
