// warpscope third held-out batch (tests/hw/blind3): host program, copied from tests/hw/blind2/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules and
// launch table are the third blind batch's).
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

static const uint64_t SEED_PERM_SLOTS = 6006;
static const uint64_t SEED_RAND8M = 88;
static const uint64_t SEED_IDS = 99;

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

static const uint64_t SEED_RAND32 = 77;

static void make_buffers()
{
    const size_t MiB = 1 << 20;
    add_fill("A", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word");
    add_fill("B", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word");
    add_fill("C", 64 * MiB, 0x00000000u, "zero");
    add_fill("X", 4 * MiB, 0x3F800000u, "float32 1.0 (1,048,576 floats)");
    add_fill("Y", 4 * MiB, 0x40000000u, "float32 2.0 (1,048,576 floats)");
    add_words("RAND32", lcg_words(262144, SEED_RAND32),
              "262,144 uint32 words: successive next() of the LCG below seeded with 77 (1 MiB of random bytes)");
    add_words("RAND8M", lcg_words(2097152, SEED_RAND8M),
              "2,097,152 uint32 words: successive next() of the LCG below seeded with 88 (8 MiB)");
    add_fill("CNT", 1 * MiB, 0x00000000u, "uint32 zero (work counter at byte 0)");
    std::vector<uint32_t> pos(4096);
    for (int t = 0; t < 4096; ++t) pos[t] = (uint32_t)(((long long)t * 7919) % 2048);
    add_words("POS", pos, "4,096 int32 positions: (7919 t) mod 2048");
    // vLLM slot mapping: int64, token t -> slot perm[t] of 4,096 slots (256 blocks of 16), every 64th token -1 (padding)
    std::vector<int32_t> sp = permutation(4096, SEED_PERM_SLOTS);
    std::vector<uint32_t> slots(2 * 2048);
    for (int t = 0; t < 2048; ++t) {
        long long s = (t % 64 == 63) ? -1 : sp[t];
        slots[2 * t] = (uint32_t)(s & 0xFFFFFFFFll);
        slots[2 * t + 1] = (uint32_t)((unsigned long long)s >> 32);
    }
    add_words("SLOTS", slots, "2,048 int64 slot ids: lcg_perm(n=4096, seed=6006)[t], -1 for t mod 64 == 63");
    std::vector<uint32_t> ids = lcg_words(4096, SEED_IDS);
    for (auto &w : ids) w %= 1000;
    add_words("IDS", ids, "4,096 int32 token ids: successive next() of the LCG seeded with 99, mod 1000");
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

static Param F32(float v) { Param p = S32(0); uint32_t b; memcpy(&b, &v, 4); p.ival = b; p.type = "f32"; p.fval = v; return p; }

struct Module { std::string name, ptx; };
static const Module MODULES[] = {
    {"blind3", "tests/hw/blind3/blind3.ptx"},
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
    const char *K = "blind3";
    const int MB32 = 32 << 20;
    L("fa2_fwd", K, "fa2_fwd", 16, 8, 1, 128, 1, 1, {P("A"), P("A", MB32), P("B"), P("C"), S32(1024), F32(0.125f * 1.44269504f)},
      "8 heads x 1,024 x 64 fp16, 64-query tiles, 64-key tiles double-buffered by cp.async, ldmatrix, mma.sync");
    L("gemm_tc_beta0", K, "gemm_tc_epilogue", 8, 8, 1, 128, 1, 1,
      {P("A"), P("B"), P("Y"), P("C"), S32(512), S32(512), S32(256), F32(1.0f), F32(0.0f)},
      "fp16 512 x 512 x 256, fp32 out through a padded shared tile, alpha 1, beta 0 (C not read)");
    L("gemm_tc_beta1", K, "gemm_tc_epilogue", 8, 8, 1, 128, 1, 1,
      {P("A"), P("B"), P("Y"), P("C"), S32(512), S32(512), S32(256), F32(1.0f), F32(0.5f)},
      "fp16 512 x 512 x 256, fp32 out through a padded shared tile, alpha 1, beta 0.5 (C read)");
    L("epilogue_stmatrix", K, "epilogue_stmatrix", 256, 1, 1, 128, 1, 1, {P("A"), P("C"), S32(2048)},
      "256 tiles of 64 x 64 halves of a 512 x 2,048 fp16 matrix, stmatrix.x4 into pitch-72 shared rows");
    L("tma_rowblock_sum", K, "tma_rowblock_sum", 128, 1, 1, 128, 1, 1, {TMAP("A", 1024, 4096, 64, 32), P("C")},
      "4,096 x 1,024 float32 through a tensor map, boxes 64 x 32 (8 KiB), 2 stages, mbarrier expect_tx");
    L("bulk1d_scale", K, "bulk1d_scale", 245, 1, 1, 256, 1, 1, {P("A"), P("C"), S32(1000000), F32(2.0f)},
      "1,000,000 floats in 16 KiB bulk copies (last 2,304 bytes), bulk store back");
    L("cg_grid_sum", K, "cg_grid_sum", 264, 1, 1, 256, 1, 1, {P("A"), P("C", MB32), S32(1000003)},
      "n = 1,000,003, grid-stride over 264 x 256 threads, cg::reduce over tiled_partition<32>");
    L("cg_tile16_rowdot", K, "cg_tile16_rowdot", 1250, 1, 1, 128, 1, 1, {P("A"), P("X"), P("C"), S32(10000)},
      "10,000 rows of 512 floats, a tiled_partition<16> per row, float2");
    L("cub_transpose_scan4", K, "cub_transpose_scan4", 391, 1, 1, 128, 1, 1, {P("RAND32"), P("C"), S32(200000)},
      "200,000 ints, 128 threads x 4 items (last tile 320), BlockExchange unpadded");
    L("cub_transpose_scan8", K, "cub_transpose_scan8", 196, 1, 1, 128, 1, 1, {P("RAND32"), P("C"), S32(200000)},
      "200,000 ints, 128 threads x 8 items (last tile 320), BlockExchange padded");
    L("warp_striped_adjdiff", K, "warp_striped_adjdiff", 300, 1, 1, 96, 1, 1, {P("A"), P("C"), S32(224 * 899)},
      "899 warp segments of 224 floats, 96-thread blocks (the last block's third warp exits)");
    L("sparse24_pack", K, "sparse24_pack", 4096, 1, 1, 256, 1, 1, {P("A"), P("C"), P("C", MB32), S32(1048576)},
      "1,048,576 groups of 4 fp16 (2,048 x 2,048)");
    L("topk_row_warp", K, "topk_row_warp", 256, 1, 1, 32, 4, 1, {P("RAND8M"), P("C"), P("C", MB32), S32(2048)},
      "1,024 rows of 2,048 random uint32, top 8, a warp per row (32 x 4 blocks)");
    L("softmax_online_f4", K, "softmax_online_f4", 2048, 1, 1, 256, 1, 1, {P("A"), P("C"), S32(4098), S32(4104)},
      "2,048 rows of 4,098 floats at ld 4,104 (16-byte aligned rows), float4 + 2-float tail");
    L("rotary_gptj", K, "rotary_gptj", 4096, 1, 1, 64, 2, 1, {P("POS"), P("A"), P("B"), P("X")},
      "4,096 tokens, q 16 heads, k 4 heads of 128 fp16, interleaved pairs, float cos/sin cache of 2,048 positions");
    L("kv_cache_append", K, "kv_cache_append", 2048, 1, 1, 512, 1, 1,
      {P("A"), P("B"), P("C"), P("C", MB32), P("SLOTS"), S32(1024), S32(8), S32(128), S32(16), S32(8)},
      "2,048 tokens x 8 heads x 128 fp16 into vLLM's paged caches (block 16, x 8), slots by a permutation, 1 in 64 padding");
    L("gemv_i8_dp4a", K, "gemv_i8_dp4a", 256, 1, 1, 256, 1, 1, {P("A"), P("RAND32"), P("X"), P("C"), S32(4096)},
      "int8 4,096 x 4,096, x staged in shared memory, a warp per 2 rows");
    L("nchw_to_nchw4_i8", K, "nchw_to_nchw4_i8", 392, 1, 1, 256, 1, 1, {P("RAND32"), P("C"), S32(64), S32(3136), S32(100352)},
      "int8 N = 2, C = 64, 56 x 56 -> NC/4HW4 char4");
    L("nhwc_to_nchw_i8", K, "nhwc_to_nchw_i8", 392, 1, 1, 256, 1, 1, {P("RAND32"), P("C"), S32(64), S32(3136), S32(100352)},
      "int8 N = 2, 56 x 56, C = 64 NHWC (char4) -> NCHW bytes");
    L("persistent_atomic_tiles", K, "persistent_atomic_tiles", 132, 1, 1, 256, 1, 1, {P("A"), P("C"), P("CNT"), S32(4096)},
      "132 persistent blocks, 4,096 tiles of 1,024 floats from an atomic counter");
    L("persistent_gridstride_bias", K, "persistent_gridstride_bias", 264, 1, 1, 256, 1, 1,
      {P("A"), P("X"), P("C"), S32(3000000), S32(500)}, "3,000,000 float2, bias rows of 500 float2 staged in shared");
    L("strided_gather_i64", K, "strided_gather_i64", 63, 1, 1, 256, 1, 1,
      {P("A"), P("C"), S64(1025), S64(16400), S32(1000), S32(16000)},
      "16 x 1,000 gathered at batch stride 1,025 and column stride 16,400 floats (int64 params)");
    L("rows_ld64_copy", K, "rows_ld64_copy", 64, 3, 1, 64, 1, 1, {P("A"), P("C"), S64(65540), S64(64LL * 65540)},
      "3 batches of 64 rows of 256 floats at ld 65,540 (262,160 bytes), float4");
    L("embedding_bwd_h2", K, "embedding_bwd_h2", 4096, 1, 1, 128, 1, 1, {P("IDS"), P("A"), P("C")},
      "4,096 tokens x 256 fp16 gradients, atomicAdd(__half2) into 1,000 rows by id");
    L("stream_scale_cs", K, "stream_scale_cs", 264, 1, 1, 256, 1, 1, {P("A"), P("C"), S32(1000003), F32(2.0f)},
      "n = 1,000,003, __ldcs/__stcs float4 grid-stride, 3-float tail");
    L("im2col_nhwc_v8", K, "im2col_nhwc_v8", 882, 1, 1, 256, 1, 1, {P("A"), P("C"), S32(56), S32(56), S32(8), S32(225792)},
      "fp16 NHWC 56 x 56 x 64, 3 x 3 pad 1, 16-byte vectors");
    L("bias_gelu_bf16x8", K, "bias_gelu_bf16x8", 1001, 1, 1, 256, 1, 1, {P("A"), P("B"), P("C"), S32(2049005), S32(1000)},
      "2,049,005 bf16, bias of 1,000, 8-wide vectors + 5-value tail");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind3/host.cpp. Launches run once each, in this order, on one stream. "
               "Pointer params: buffer name + byte offset; every buffer is cuMemAlloc'd with its size rounded up to a multiple of 2 MiB; the run prints each base mod 4096 (0 for all in the committed measurement, see README). "
               "Scalar params: value by PTX parameter index.\",\n");
    fprintf(f, "  \"permutation_generator\": {\"algorithm\": \"state = state * %llu + %llu (mod 2^64); next() = state >> 32; "
               "p = identity; for i = n-1 down to 1: j = next() %% (i+1); swap(p[i], p[j])\", \"reference\": \"tests/hw/lcg_perm.py\", "
               "\"seeds\": {\"RAND32 (successive next() words, no shuffle)\": %llu, \"RAND8M\": %llu, \"IDS\": %llu, \"SLOTS perm\": %llu}},\n",
            (unsigned long long)LCG_A, (unsigned long long)LCG_C,
            (unsigned long long)SEED_RAND32, (unsigned long long)SEED_RAND8M, (unsigned long long)SEED_IDS, (unsigned long long)SEED_PERM_SLOTS);
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
