// warpscope held-out batch (tests/hw/blind): host program, derived from tests/hw/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules and
// launch table are the blind batch's).
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

static std::vector<uint32_t> lcg_words(size_t n, uint64_t seed)
{
    std::vector<uint32_t> w(n);
    Lcg g(seed);
    for (size_t i = 0; i < n; ++i) w[i] = g.next();
    return w;
}

static const uint64_t SEED_RAND32 = 77;

// CSR structure: row r has 'len(r)' entries, column (r * 131 + k * 1031) mod ncols
static void add_csr(const char *ptr_name, const char *col_name, int nrows, int ncols, int base_len, int mul, int mod,
                    const char *what_ptr, const char *what_col)
{
    std::vector<uint32_t> rp(nrows + 1), cols;
    rp[0] = 0;
    for (int r = 0; r < nrows; ++r) {
        int len = base_len + (int)(((long long)r * mul) % mod);
        for (int k = 0; k < len; ++k) cols.push_back((uint32_t)(((long long)r * 131 + (long long)k * 1031) % ncols));
        rp[r + 1] = (uint32_t)cols.size();
    }
    add_words(ptr_name, rp, what_ptr);
    add_words(col_name, cols, what_col);
}

static void make_buffers()
{
    const size_t MiB = 1 << 20;
    add_fill("A", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word");
    add_fill("B", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word");
    add_fill("C", 64 * MiB, 0x00000000u, "zero");
    add_fill("X", 4 * MiB, 0x3F800000u, "float32 1.0 (1,048,576 floats)");
    add_fill("Y", 4 * MiB, 0x40000000u, "float32 2.0 (1,048,576 floats)");
    add_words("IDX_PERM_32K", as_words(permutation(32768, SEED_PERM_32K)),
              "int32 permutation of 0..32767, lcg_perm(n=32768, seed=4004)");
    add_words("RAND32", lcg_words(262144, SEED_RAND32),
              "262,144 uint32 words: successive next() of the LCG below seeded with 77 (1 MiB of random bytes)");
    std::vector<int32_t> perm = permutation(32768, SEED_PERM_32K);
    std::vector<uint32_t> tok(512);
    for (int i = 0; i < 512; ++i) tok[i] = (uint32_t)(perm[i] % 8192);
    add_words("TOKENS", tok, "512 int32 token ids: IDX_PERM_32K[i] mod 8192, i = 0..511");
    add_csr("CSR_S_PTR", "CSR_S_COL", 32768, 32768, 1, 7, 13,
            "int32 row_ptr of a 32,768-row CSR matrix, row r has 1 + (7r mod 13) entries",
            "int32 column indices: entry k of row r is (131 r + 1031 k) mod 32768");
    add_csr("CSR_V_PTR", "CSR_V_COL", 4096, 32768, 16, 5, 80,
            "int32 row_ptr of a 4,096-row CSR matrix, row r has 16 + (5r mod 80) entries",
            "int32 column indices: entry k of row r is (131 r + 1031 k) mod 32768");
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

static Param F32(float v) { Param p = S32(0); uint32_t b; memcpy(&b, &v, 4); p.ival = b; p.type = "f32"; p.fval = v; return p; }

struct Module { std::string name, ptx; };
static const Module MODULES[] = {
    {"blind", "tests/hw/blind/blind.ptx"},
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
    const char *K = "blind";
    const int n = 32768;
    const int MB4 = 4 << 20;
    L("cub_block_reduce", K, "cub_block_reduce", 977, 1, 1, 256, 1, 1, {P("X"), P("C"), S32(1000000)},
      "n = 1,000,000 floats, 1,024 per block (last block partial)");
    L("block_scan_incl", K, "block_scan_incl", 256, 1, 1, 128, 1, 1, {P("IDX_PERM_32K"), P("C"), S32(32668)},
      "n = 32,668 (last block 28 threads active)");
    L1("warp_reduce_atomic", K, "warp_reduce_atomic", {P("X"), P("C"), S32(n)});
    L1("im2col_k3", K, "im2col_k3", {P("A"), P("C"), S32(3), S32(56), S32(56), S32(1), S32(3 * 56 * 56)}, 3 * 56 * 56, 256,
       "3 channels of 56 x 56, 3 x 3 kernel, pad 1");
    L("stencil2d_smem", K, "stencil2d_smem", 32, 32, 1, 16, 16, 1, {P("A"), P("C"), S32(512), S32(512)},
      "512 x 512 floats, 16 x 16 blocks");
    L("stencil3d_7pt", K, "stencil3d_7pt", 2, 16, 32, 32, 4, 2, {P("A"), P("C"), S32(64)}, "64^3 floats, 32 x 4 x 2 blocks");
    L("conv1d_smem", K, "conv1d_smem", 782, 1, 1, 128, 1, 1, {P("A"), P("Y"), P("C"), S32(100000)}, "n = 100,000");
    L1("spmv_csr_scalar", K, "spmv_csr_scalar", {P("CSR_S_PTR"), P("CSR_S_COL"), P("A"), P("X"), P("C"), S32(32768)});
    L("spmv_csr_vector", K, "spmv_csr_vector", 1024, 1, 1, 128, 1, 1,
      {P("CSR_V_PTR"), P("CSR_V_COL"), P("A"), P("X"), P("C"), S32(4096)}, "4,096 rows, one warp per row");
    L("transpose_f64_pad", K, "transpose_f64_pad", 32, 32, 1, 32, 8, 1, {P("A"), P("C"), S32(1024)}, "1024 x 1024 doubles");
    L("transpose_f64_nopad", K, "transpose_f64_nopad", 32, 32, 1, 32, 8, 1, {P("A"), P("C"), S32(1024)}, "1024 x 1024 doubles");
    L("transpose_u8", K, "transpose_u8", 32, 32, 1, 32, 8, 1, {P("RAND32"), P("C"), S32(1024)}, "1024 x 1024 bytes");
    L("transpose_f16_pad", K, "transpose_f16_pad", 32, 32, 1, 32, 8, 1, {P("A"), P("C"), S32(1024)}, "1024 x 1024 halves");
    L("embedding_f32", K, "embedding_f32", 512, 1, 1, 256, 1, 1, {P("TOKENS"), P("A"), P("C"), S32(768)},
      "512 tokens, rows of 768 floats");
    L("embedding_h2", K, "embedding_h2", 512, 1, 1, 128, 1, 1, {P("TOKENS"), P("A"), P("C"), S32(400)},
      "512 tokens, rows of 400 half2 (1,600 bytes: rows not 128-byte aligned)");
    L1("scatter_add_idx", K, "scatter_add_idx", {P("X"), P("IDX_PERM_32K"), P("C"), S32(n), S32(1000)}, n, 256,
       "bucket = IDX_PERM_32K[i] mod 1000");
    L1("gather_rows_f4", K, "gather_rows_f4", {P("A"), P("IDX_PERM_32K"), P("C"), S32(4096)}, 65536, 256,
       "4,096 rows of 64 floats, source row IDX_PERM_32K[row] & 4095");
    L1("compact_positive", K, "compact_positive", {P("RAND32"), P("C"), P("CNT"), S32(n)}, n, 256,
       "keeps v with v & 3 == 0 (RAND32)");
    L1("rope_neox", K, "rope_neox", {P("A"), P("X"), P("Y"), S32(8), S32(65536)}, 65536, 256,
       "256 tokens x 8 heads x 32 pairs");
    L("rmsnorm_f32", K, "rmsnorm_f32", 512, 1, 1, 256, 1, 1, {P("A"), P("X"), P("C"), S32(2048)}, "512 rows of 2,048 floats");
    L("layernorm_welford", K, "layernorm_welford", 512, 1, 1, 128, 1, 1, {P("A"), P("X"), P("Y"), P("C"), S32(1000)},
      "512 rows of 1,000 floats (rows 4,000 bytes apart), 128 threads");
    L("softmax_warp_row", K, "softmax_warp_row", 1024, 1, 1, 32, 4, 1, {P("A"), P("C"), S32(4096)},
      "4,096 rows of 128 floats, 32 x 4 blocks");
    L("bitonic_smem", K, "bitonic_smem", 64, 1, 1, 512, 1, 1, {P("RAND32"), P("C")}, "64 blocks sort 1,024 random keys each");
    L("histogram_bytes", K, "histogram_bytes", 128, 1, 1, 256, 1, 1, {P("RAND32"), P("CNT"), S32(262144)},
      "1 MiB of random bytes, 256 bins");
    L1("aos12_update", K, "aos12_update", {P("A"), P("B"), F32(0.5f), S32(n)});
    L("aos24_body", K, "aos24_body", 256, 1, 1, 128, 1, 1, {P("A"), F32(0.5f), S32(32735)}, "n = 32,735 (tail)");
    L1("aos24d_yz", K, "aos24d_yz", {P("A"), S32(n)});
    L1("soa_update", K, "soa_update", {P("A"), P("A", MB4), P("A", 2 * MB4), P("B"), P("B", MB4), P("B", 2 * MB4),
                                       F32(0.5f), S32(n)}, n, 64, "64-thread blocks");
    L1("axpy_half2", K, "axpy_half2", {P("A"), P("B"), F32(2.0f), S32(n)});
    L1("scale_bf162", K, "scale_bf162", {P("A"), P("C"), S32(n)});
    L1("dequant_char4", K, "dequant_char4", {P("RAND32"), P("C"), F32(0.01f), S32(n)});
    L1("dot_int8_dp4a", K, "dot_int8_dp4a", {P("RAND32"), P("RAND32", 65536), P("C"), S32(16384)}, 16384, 256);
    L1("float4_offset_16B", K, "float4_offset", {P("A"), P("C"), S32(4), S32(n)}, n, 256, "off = 4 floats (16 bytes)");
    L1("float4_offset_48B", K, "float4_offset", {P("A"), P("C"), S32(12), S32(n)}, n, 256, "off = 12 floats (48 bytes)");
    L("grid_stride_h8", K, "grid_stride_h8", 64, 1, 1, 256, 1, 1, {P("A"), P("C"), S32(1000003)},
      "1,000,003 halves: 125,000 vectors of 8 over 16,384 threads, tail of 3");
    L1("maxpool2x2", K, "maxpool2x2", {P("A"), P("C"), S32(56), S32(56), S32(16 * 56 * 56)}, 16 * 56 * 56, 256,
       "16 channels, 112 x 112 -> 56 x 56");
    L("upsample_nearest2x", K, "upsample_nearest2x", 16, 64, 1, 32, 8, 1, {P("A"), P("C"), S32(512)},
      "256 x 256 -> 512 x 512, 32 x 8 blocks");
    L("colsum_16x16", K, "colsum_16x16", 64, 1, 1, 16, 16, 1, {P("A"), P("C"), S32(1024), S32(256)},
      "256 x 1024 floats, 16 x 16 blocks");
    L("gemv_row_per_thread", K, "gemv_row_per_thread", 32, 1, 1, 128, 1, 1, {P("A"), P("X"), P("C"), S32(4096), S32(256)},
      "4,096 x 256 floats");
    L("gemm_f16_cpasync_ldsm", K, "gemm_f16_cpasync_ldsm", 8, 8, 1, 128, 1, 1,
      {P("A"), P("B"), P("C"), S32(512), S32(512), S32(256)}, "M = N = 512, K = 256 halves");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind/host.cpp. Launches run once each, in this order, on one stream. "
               "Pointer params: buffer name + byte offset; every buffer is cuMemAlloc'd with its size rounded up to a multiple of 2 MiB; the run prints each base mod 4096 (0 for all in the committed measurement, see README). "
               "Scalar params: value by PTX parameter index.\",\n");
    fprintf(f, "  \"permutation_generator\": {\"algorithm\": \"state = state * %llu + %llu (mod 2^64); next() = state >> 32; "
               "p = identity; for i = n-1 down to 1: j = next() %% (i+1); swap(p[i], p[j])\", \"reference\": \"tests/hw/lcg_perm.py\", "
               "\"seeds\": {\"RAND32 (successive next() words, no shuffle)\": %llu, \"IDX_PERM_32K\": %llu}},\n",
            (unsigned long long)LCG_A, (unsigned long long)LCG_C,
            (unsigned long long)SEED_RAND32, (unsigned long long)SEED_PERM_32K);
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
