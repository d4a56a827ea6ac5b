// warpscope second held-out batch (tests/hw/blind2): host program, copied from tests/hw/blind/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules and
// launch table are the second blind batch's).
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
static const uint64_t SEED_PERM_BT = 5005;
static int g_coo_nnz = 0;

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
    add_words("RAND32", lcg_words(262144, SEED_RAND32),
              "262,144 uint32 words: successive next() of the LCG below seeded with 77 (1 MiB of random bytes)");
    add_fill("CNT", 1 * MiB, 0x00000000u, "uint32 zero");
    add_fill("LBS", 1 * MiB, 0x00000000u, "uint32 zero (look-back scan: ticket at byte 0, tile status words from byte 4096)");
    std::vector<uint32_t> bk(256);
    for (int d = 0; d < 256; ++d) bk[d] = (uint32_t)(d * 1024);
    add_words("BUCKETS", bk, "256 uint32: bucket d starts at d * 1024");
    // COO of the CSR structure of tests/hw/blind's CSR_S: row r has 1 + (7r mod 13) entries,
    // entry k in column (131 r + 1031 k) mod 32768; rows sorted
    std::vector<uint32_t> crow, ccol;
    for (int r = 0; r < 32768; ++r) {
        int len = 1 + (int)(((long long)r * 7) % 13);
        for (int k = 0; k < len; ++k) {
            crow.push_back((uint32_t)r);
            ccol.push_back((uint32_t)(((long long)r * 131 + (long long)k * 1031) % 32768));
        }
    }
    g_coo_nnz = (int)crow.size();
    add_words("COO_ROW", crow, "int32 row of each nonzero: row r has 1 + (7r mod 13) entries (sorted by row)");
    add_words("COO_COL", ccol, "int32 column of each nonzero: entry k of row r is (131 r + 1031 k) mod 32768");
    // ELL, column-major: slot k of row r (k < 1 + (5r mod 8)) holds (131 r + 1031 k) mod 32768, else -1
    std::vector<uint32_t> ell(8 * 32768);
    for (int k = 0; k < 8; ++k)
        for (int r = 0; r < 32768; ++r) {
            int len = 1 + (int)(((long long)r * 5) % 8);
            ell[(size_t)k * 32768 + r] = k < len ? (uint32_t)(((long long)r * 131 + (long long)k * 1031) % 32768) : 0xFFFFFFFFu;
        }
    add_words("ELL_COL", ell, "int32 ELL columns, 8 slots x 32,768 rows, slot-major: slot k < 1 + (5r mod 8) of row r is (131 r + 1031 k) mod 32768, else -1");
    std::vector<int32_t> perm = permutation(32768, SEED_PERM_32K);
    std::vector<uint32_t> sidx(65536);
    for (int i = 0; i < 65536; ++i) sidx[i] = (uint32_t)((i * 3) / 2 + (perm[i % 32768] & 1));
    add_words("SORTED_IDX", sidx, "65,536 non-decreasing int32: (3i)/2 + (IDX_PERM_32K[i mod 32768] & 1)");
    std::vector<int32_t> bperm = permutation(512, SEED_PERM_BT);
    add_words("BLOCK_TABLE", as_words(bperm), "int32 block table, 8 sequences x 64 entries: lcg_perm(n=512, seed=5005)");
    std::vector<uint32_t> rp(4097);
    rp[0] = 0;
    for (int r = 0; r < 4096; ++r) rp[r + 1] = rp[r] + 16 + (uint32_t)(((long long)r * 5) % 80);
    add_words("SEG_OFF", rp, "int32 offsets of 4,096 segments, segment r has 16 + (5r mod 80) values");
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
    {"blind2", "tests/hw/blind2/blind2.ptx"},
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
    const char *K = "blind2";
    const int MB16 = 16 << 20;
    L("q4_0_matvec", K, "q4_0_matvec", 1024, 1, 1, 32, 4, 1, {P("A"), P("X"), P("C"), S32(4096), S32(4096)},
      "4,096 x 4,096 q4_0 weights (18-byte blocks, 128 per row), a warp per row, 32 x 4 blocks");
    L1("q8_0_dequant", K, "q8_0_dequant", {P("A"), P("C"), S32(1 << 20)}, 1 << 20, 256, "1,048,576 values in 34-byte q8_0 blocks");
    L1("int4_dequant_group", K, "int4_dequant_group", {P("RAND32"), P("X"), P("C"), S32(512), S32(262144)}, 262144, 128,
       "512 rows x 4,096 int4 (512 words per row), a half scale per 128 columns, 128-thread blocks");
    L("quantize_rowwise_i8", K, "quantize_rowwise_i8", 1024, 1, 1, 256, 1, 1, {P("A"), P("C"), P("C", 32 << 20), S32(4000)},
      "1,024 rows of 4,000 floats (16,000-byte rows), a block per row");
    L("depthwise_conv3x3", K, "depthwise_conv3x3", 7, 7, 32, 16, 16, 1, {P("A"), P("X"), P("C"), S32(100), S32(100)},
      "32 channels of 100 x 100, 16 x 16 blocks (edge blocks partial)");
    L1("resize_bilinear", K, "resize_bilinear", {P("A"), P("C"), S32(16), S32(60), S32(60), S32(97), S32(97)}, 16 * 97 * 97, 256,
       "16 channels, 60 x 60 -> 97 x 97");
    L1("permute_nchw_nhwc", K, "permute_nchw_nhwc", {P("A"), P("C"), S32(64), S32(3136), S32(2 * 64 * 3136)}, 2 * 64 * 3136, 256,
       "N = 2, C = 64, 56 x 56");
    L("pitched_copy2d", K, "pitched_copy2d", 32, 63, 1, 32, 8, 1, {P("A"), U64(4096), P("C"), U64(4608), S32(1000), S32(500)},
      "500 rows of 1,000 floats, source pitch 4,096 bytes, destination pitch 4,608 bytes, 32 x 8 blocks");
    L("colreduce_strided", K, "colreduce_strided", 8, 1, 1, 128, 1, 1, {P("A"), P("C"), S32(512), S32(1000)},
      "512 x 1,000 floats (4,000-byte rows), a thread per column, 128-thread blocks (tail of 24)");
    L("nbody_tile", K, "nbody_tile", 64, 1, 1, 128, 1, 1, {P("A"), P("C"), S32(8192)}, "8,192 bodies, tiles of 128 in shared memory");
    L("black_scholes", K, "black_scholes", 1024, 1, 1, 128, 1, 1,
      {P("C"), P("C", MB16), P("A"), P("B"), P("Y"), F32(0.02f), F32(0.3f), S32(1000000)},
      "1,000,000 options, grid-stride over 131,072 threads");
    L1("adam_ilp4", K, "adam_ilp4", {P("A"), P("B"), P("C"), P("C", MB16), F32(1e-3f), F32(0.9f), F32(0.999f), S32(250000)},
       250000, 256, "1,000,000 parameters as 250,000 float4");
    L("lookback_scan", K, "lookback_scan", 256, 1, 1, 256, 1, 1, {P("RAND32"), P("C"), P("LBS"), P("LBS", 4096), S32(65436)},
      "n = 65,436 (last tile partial), tiles by atomic ticket");
    L("radix_digit_hist", K, "radix_digit_hist", 128, 1, 1, 256, 1, 1, {P("RAND32"), P("CNT"), S32(262144), S32(8)},
      "262,144 random keys, digit (k >> 8) & 255");
    L1("radix_scatter", K, "radix_scatter", {P("RAND32"), P("BUCKETS"), P("C"), S32(65536), S32(0)}, 65536, 256,
       "65,536 random keys by their low byte, buckets of 1,024 slots");
    L1("bitrev_permute", K, "bitrev_permute", {P("A"), P("C"), S32(16)}, 65536, 256, "2^16 float2");
    L("transpose_reg4_f4", K, "transpose_reg4_f4", 32, 32, 1, 32, 8, 1, {P("A"), P("C"), S32(1024)}, "1,024 x 1,024 floats, 32 x 8 blocks");
    L1("transpose_shfl4x4", K, "transpose_shfl4x4", {P("A"), P("C"), S32(256)}, 262144, 128,
       "1,024 x 1,024 floats in 4 x 4 blocks, 128-thread blocks");
    L1("gelu_bias_h2", K, "gelu_bias_h2", {P("A"), P("X"), P("C"), S32(512), S32(2000000)}, 2000000, 256,
       "2,000,000 half2 in rows of 512 (tail)");
    L("paged_kv_gather", K, "paged_kv_gather", 1000, 8, 1, 128, 1, 1, {P("A"), P("BLOCK_TABLE"), P("C"), S32(64), S32(1000)},
      "8 sequences of 1,000 tokens, 16-token blocks of 8 x 128 halves");
    L1("coo_spmv_atomic", K, "coo_spmv_atomic", {P("COO_ROW"), P("COO_COL"), P("A"), P("X"), P("C"), S32(g_coo_nnz)},
       (unsigned)g_coo_nnz, 256, "one thread per nonzero");
    L("ell_spmv", K, "ell_spmv", 256, 1, 1, 128, 1, 1, {P("ELL_COL"), P("A"), P("X"), P("C"), S32(32768), S32(8)},
      "32,768 rows, 8 ELL slots");
    L1("gather_sorted", K, "gather_sorted", {P("A"), P("SORTED_IDX"), P("C"), S32(65536)}, 65536, 256, "sorted indices (3i)/2 + 0 or 1");
    L("segmented_sum", K, "segmented_sum", 4096, 1, 1, 64, 1, 1, {P("SEG_OFF"), P("A"), P("C")},
      "4,096 segments of 16-95 floats, 64-thread blocks");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind2/host.cpp. Launches run once each, in this order, on one stream. "
               "Pointer params: buffer name + byte offset; every buffer is cuMemAlloc'd with its size rounded up to a multiple of 2 MiB; the run prints each base mod 4096 (0 for all in the committed measurement, see README). "
               "Scalar params: value by PTX parameter index.\",\n");
    fprintf(f, "  \"permutation_generator\": {\"algorithm\": \"state = state * %llu + %llu (mod 2^64); next() = state >> 32; "
               "p = identity; for i = n-1 down to 1: j = next() %% (i+1); swap(p[i], p[j])\", \"reference\": \"tests/hw/lcg_perm.py\", "
               "\"seeds\": {\"RAND32 (successive next() words, no shuffle)\": %llu, \"IDX_PERM_32K\": %llu, \"BLOCK_TABLE\": %llu}},\n",
            (unsigned long long)LCG_A, (unsigned long long)LCG_C,
            (unsigned long long)SEED_RAND32, (unsigned long long)SEED_PERM_32K, (unsigned long long)SEED_PERM_BT);
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
