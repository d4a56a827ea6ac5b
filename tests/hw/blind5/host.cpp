// warpscope fifth held-out batch (tests/hw/blind5): host program, copied from tests/hw/blind4/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules and
// launch table are the fifth blind batch's).
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

static const uint64_t SEED_GIDX = 5151;
static const uint64_t SEED_RAND8M = 88;

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

static std::vector<uint32_t> lcg_words(size_t n, uint64_t seed)
{
    std::vector<uint32_t> w(n);
    Lcg g(seed);
    for (size_t i = 0; i < n; ++i) w[i] = g.next();
    return w;
}

static void make_buffers()
{
    const size_t MiB = 1 << 20;
    add_fill("A", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word (as fp16 pairs: 0x0000, 0x3F80)");
    add_fill("B", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word (as fp16 pairs: 0x0000, 0x3F80)");
    add_fill("C", 64 * MiB, 0x00000000u, "zero");
    add_fill("X", 4 * MiB, 0x3F800000u, "float32 1.0 (1,048,576 floats)");
    add_fill("Y", 4 * MiB, 0x40000000u, "float32 2.0 (1,048,576 floats)");
    add_fill("FLAGS", 4096, 0x00000000u, "zero (1,024 int32 ring flags)");
    add_fill("RED", 1 * MiB, 0x00000000u, "zero (reduction targets)");
    add_words("RAND8M", lcg_words(2097152, SEED_RAND8M),
              "2,097,152 uint32 words: successive next() of the LCG below seeded with 88 (8 MiB)");
    {
        std::vector<uint32_t> w = lcg_words(8192, SEED_GIDX);
        for (auto &x : w) x %= 100000;
        add_words("GIDX", w, "8,192 int32 row ids: next() mod 100,000 (LCG seed 5151)");
    }
}


// ------------------------------------------------------------ launches --
struct Param {
    bool pointer;
    bool tensormap = false;  // 2-D float32 tile map over `buffer` (dims, box below); passed by value (128 bytes)
    unsigned rank = 2;
    unsigned long long dims[5] = {0, 0, 0, 0, 0};
    unsigned box[5] = {0, 0, 0, 0, 0};
    int swizzle = 0;  // CUtensorMapSwizzle: 0 none, 1 32B, 2 64B, 3 128B
    std::vector<uint8_t> blob;  // a struct passed by value ("struct"): its bytes
    std::vector<std::pair<size_t, std::pair<std::string, long long>>> patches;  // (byte offset, (buffer, offset)) pointer fields
    std::string desc;           // struct: what it holds
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

static Param F32(float v) { Param p = S32(0); uint32_t b; memcpy(&b, &v, 4); p.ival = b; p.type = "f32"; p.fval = v; return p; }

struct Module { std::string name, ptx; };
static const Module MODULES[] = {
    {"blind5", "tests/hw/blind5/blind5.ptx"},
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

// 1-D launch of `threads` threads in blocks of `block`
static void L1(const std::string &id, const char *module, const std::string &kernel, std::vector<Param> params,
               unsigned threads = 32768, unsigned block = 256, const char *note = "")
{
    L(id, module, kernel, (threads + block - 1) / block, 1, 1, block, 1, 1, params, note);
}

static void make_launches()
{
    const char *K = "blind5";
    const int MB32 = 32 << 20;
    const int MB48 = 48 << 20;
    L("cutlass_gemm_ms3", K, "cutlass_gemm_ms3", 8, 8, 1, 128, 1, 1, {P("A"), P("B"), P("C"), S32(500), S32(512), S32(512)},
      "CUTLASS-style multistage GEMM mainloop, fp16 TN 500 x 512 x 512, 64 x 64 x 64 tiles, 3 stages, cp.async.cg 16 B (zero-fill past M) into Swizzle<3,3,3> tiles, ldmatrix.x4, mma.sync m16n8k16");
    L("fa2_fwd_tile", K, "fa2_fwd_tile", 16, 16, 1, 128, 1, 1, {P("A"), P("B"), P("A", MB32), P("C"), S32(1000), F32(0.125f)},
      "FlashAttention-2-style forward: 16 (batch x head) of 1,000 tokens x 64 fp16, 64-row query tiles, K/V tiles by cp.async (zero-fill) into padded shared tiles (pitch 72), ldmatrix / ldmatrix.trans + mma.sync, online softmax");
    L("q4k_matvec", K, "q4k_matvec", 1500, 1, 1, 32, 2, 1, {P("RAND8M"), P("X"), P("C"), S32(3000), S32(4096)},
      "llama.cpp-style q4_K matvec: 3,000 rows of 4,096 (16 random 144-byte block_q4_K a row), a warp per row, 32 x 2 blocks");
    L("q6k_matvec", K, "q6k_matvec", 500, 1, 1, 128, 1, 1, {P("RAND8M"), P("X"), P("C"), S32(1999), S32(4096)},
      "llama.cpp-style q6_K matvec: 1,999 rows of 4,096 (16 random 210-byte block_q6_K a row, 2-byte aligned), a warp per row, last warp idle");
    L("ln_bwd_fused", K, "ln_bwd_fused", 188, 1, 1, 32, 4, 1,
      {P("A"), P("B"), P("X"), P("Y"), P("X", 2 << 20), P("C"), P("C", MB32), P("C", MB48), S32(3000), S32(1000), S32(16)},
      "apex-style fused layer norm backward: 3,000 rows of 1,000 floats, 16 rows per 32 x 4 block (last block 8), shared partial dgamma/dbeta");
    L("nccl_ring_copy", K, "nccl_ring_copy", 8, 1, 1, 256, 1, 1, {P("A"), P("C"), P("FLAGS"), S32(4096), S32(8)},
      "NCCL-style ring all-gather step: 8 blocks as ranks, 7 steps of 64 KiB chunks (uint4), volatile flags, at most 100,000 polls a wait");
    L("cub_radix_rank", K, "cub_radix_rank", 2048, 1, 1, 256, 1, 1, {P("RAND8M"), P("C"), S32(4)},
      "CUB-style block radix rank: 2,097,152 random keys (uint4 per thread), 4-bit digit at bit 4, packed 16-bit shared counters, raking scan");
    L("thrust_strided_s3", K, "thrust_strided_transform", 400, 1, 1, 192, 1, 1, {P("A"), P("C"), S64(1000001), S32(3), S32(1)},
      "Thrust transform over a strided_range (stride 3, offset 1), n = 1,000,001, grid-stride over 400 x 192 threads");
    L("thrust_strided_s2", K, "thrust_strided_transform", 300, 1, 1, 192, 1, 1, {P("A"), P("C"), S64(777777), S32(2), S32(0)},
      "Thrust transform over a strided_range (stride 2, offset 0), n = 777,777, grid-stride over 300 x 192 threads");
    L1("thrust_zip_strided", K, "thrust_zip_strided", {P("A"), P("B"), P("C"), S32(500000), S32(2)}, 500000, 160,
       "Thrust zip of two strided ranges (float3 .x, complex64 .y) into a stride-2 output, n = 500,000, 160-thread blocks");
    L("cp_async_pipe4_ca4", K, "cp_async_pipe4_ca4", 489, 1, 1, 128, 1, 1, {P("A"), P("C"), S32(1000000), S32(16)},
      "4-stage cp.async.ca 4-byte pipeline (wait_group 2), 16 tiles of 128 floats per block, n = 1,000,000 (zero-fill past n)");
    L("cp_async_8b_c999", K, "cp_async_8b_zfill_tail", 2000, 1, 1, 64, 1, 1, {P("A"), P("C"), S32(999), S32(1000)},
      "8-byte cp.async.ca with src-size 4 on the last slot, 2,000 rows of 999 floats at pitch 1,000, st.global.cs");
    L("cp_async_8b_c301", K, "cp_async_8b_zfill_tail", 3000, 1, 1, 64, 1, 1, {P("A"), P("C"), S32(301), S32(302)},
      "8-byte cp.async.ca with src-size 4 on the last slot, 3,000 rows of 301 floats at pitch 302, st.global.cs");
    L("cp_async_cg16_gather", K, "cp_async_cg16_gather", 125, 1, 1, 128, 1, 1, {P("A"), P("GIDX"), P("C"), S32(7990)},
      "cp.async.cg 16 B .L2::128B gather of 7,990 random 256-byte rows (of 100,000), 16 threads a row, double buffer");
    L("cp_async_ca16_double", K, "cp_async_ca16_double", 264, 1, 1, 96, 1, 1, {P("A"), P("C"), S32(1000003)},
      "cp.async.ca 16 B double buffer over 1,000,003 float4, grid-stride tiles of 96 (264 blocks)");
    L("ldsm_x1_x2_padded", K, "ldsm_x1_x2_padded", 1024, 1, 1, 64, 1, 1, {P("A"), P("C")},
      "ldmatrix .x1, .x2, .x2.trans over a 64 x 64 fp16 tile at pitch 72 halves, 64-thread blocks");
    L("stsm_epilogue_swz", K, "stsm_epilogue_swz", 512, 1, 1, 128, 1, 1, {P("A"), P("C"), P("C", MB32), S32(72)},
      "CUTLASS sm90-style epilogue: stmatrix .x4.trans into a 128-byte-swizzled tile, .x2 into a plain tile, 16-byte rows out with st.global.cs.v4 (ldc 72)");
    L("tma2d_swz128_pipe", K, "tma2d_swz128_pipe", 128, 1, 1, 128, 1, 1, {TMAP_SWZ128("A", 256, 4096, 32, 32), P("C"), S32(8)},
      "TMA 2-D, 128-byte swizzle, 32 x 32 float boxes, 3-stage mbarrier ring, 8 tiles along a 256-float row per block");
    L("tma3d_load_store", K, "tma3d_load_store", 128, 1, 1, 128, 1, 1,
      {TMAP_N("A", 3, {64, 64, 32}, {64, 4, 4}), TMAP_N("C", 3, {64, 64, 32}, {64, 4, 4}), S32(16)},
      "TMA 3-D load of 64 x 4 x 4 float boxes from a 64 x 64 x 32 volume, scaled, 3-D TMA store");
    L("bulk_rows_reduce_add", K, "bulk_rows_reduce_add", 256, 1, 1, 128, 1, 1, {P("A"), P("C"), S32(1040), S32(12)},
      "cp.async.bulk of 12 rows of 1,040 bytes on one mbarrier, then cp.reduce.async.bulk .add.f32 of 12,480 bytes (4 blocks a region)");
    L("wgmma_tma_swz128", K, "wgmma_tma_swz128", 8, 8, 1, 128, 1, 1,
      {TMAP_SWZ128("A", 256, 512, 32, 64), TMAP_SWZ128("B", 256, 512, 32, 64), P("C"), S32(8)},
      "wgmma m64n64k16 fp16 over 64 x 64 tiles brought by TMA with 128-byte swizzle (float32 maps of 512 x 256), 8 K tiles, descriptors SBO 1024");
    L("wgmma_swz64_st", K, "wgmma_swz64_st", 512, 1, 1, 128, 1, 1, {P("A"), P("B"), P("C")},
      "wgmma m64n32k16 with 64-byte-swizzled descriptors (SBO 512), tiles stored by the threads in the 64-byte pattern");
    L1("red_atom_widths", K, "red_atom_widths", {P("RED"), P("C"), S32(100000)}, 100000, 256,
       "red.global add u32/u64/f32/f64/f16x2/bf16x2/v4.f32 and atom add.u64/cas/exch on strided and shared targets, n = 100,000");
    L("ld_hints_stream", K, "ld_hints_stream", 1024, 1, 1, 256, 1, 1,
      {P("A"), P("B"), P("X"), P("Y"), P("C"), P("C", MB32), S32(262143)},
      "float4 loads with L1::no_allocate/L2::128B (nc), L1::evict_last, L1::evict_first/L2::256B (nc), L2::cache_hint; st.global.cs.v4, st.global.L1::no_allocate.v2; n = 262,143");
    L("idx64_colgather", K, "idx64_colgather", 32, 32, 1, 32, 8, 1, {P("A"), P("C"), S64(65552), S32(250), S32(1000)},
      "column gather out[c * 250 + r] = M[r * 65,552 + c] with a long long ld, 250 x 1,000, 32 x 8 blocks");
    L1("half8_fill_tail", K, "half8_fill_tail", {P("C"), U64(1000005), F32(1.5f)}, 125001, 256,
       "fp16 fill of 1,000,005 values: uint4 (8 halves) body, scalar tail, size_t index");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind5/host.cpp. Launches run once each, in this order, on one stream. "
               "Pointer params: buffer name + byte offset; every buffer is cuMemAlloc'd with its size rounded up to a multiple of 2 MiB; the run prints each base mod 4096 (0 for all in the committed measurement, see README). "
               "Scalar params: value by PTX parameter index.\",\n");
    fprintf(f, "  \"permutation_generator\": {\"algorithm\": \"state = state * %llu + %llu (mod 2^64); next() = state >> 32; "
               "p = identity; for i = n-1 down to 1: j = next() %% (i+1); swap(p[i], p[j])\", \"reference\": \"tests/hw/lcg_perm.py\", "
               "\"seeds\": {\"RAND8M (successive next() words, no shuffle)\": %llu, \"GIDX\": %llu}},\n",
            (unsigned long long)LCG_A, (unsigned long long)LCG_C, (unsigned long long)SEED_RAND8M, (unsigned long long)SEED_GIDX);
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
            } else if (p.type == "struct") {
                std::string ptrs;
                for (size_t k = 0; k < p.patches.size(); ++k)
                    ptrs += std::string(k ? ", " : "") + "{\"byte\": " + std::to_string(p.patches[k].first) + ", \"buffer\": " +
                            jstr(p.patches[k].second.first) + ", \"offset_bytes\": " + std::to_string(p.patches[k].second.second) + "}";
                fprintf(f, "%s{\"index\": %zu, \"kind\": \"struct\", \"bytes\": %zu, \"contents\": %s, \"pointers\": [%s]}",
                        pi ? ", " : "", pi, p.blob.size(), jstr(p.desc).c_str(), ptrs.c_str());
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
        std::vector<std::vector<uint8_t>> blobs(l.params.size());
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
            if (p.type == "struct") {
                blobs[i] = p.blob;
                for (auto &pt : p.patches) {
                    unsigned long long a = buf(pt.second.first).ptr + (unsigned long long)pt.second.second;
                    memcpy(&blobs[i][pt.first], &a, 8);
                }
                args[i] = blobs[i].data();
                continue;
            }
            if (p.pointer) storage[i] = buf(p.buffer).ptr + (unsigned long long)p.offset;
            else if (p.type == "s32" || p.type == "u32" || p.type == "f32") { int32_t v = (int32_t)p.ival; memcpy(&storage[i], &v, 4); }
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
