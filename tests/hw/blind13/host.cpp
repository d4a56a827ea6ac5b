// warpscope thirteenth held-out batch (tests/hw/blind13): host program, copied from tests/hw/blind11/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules,
// launch table and checks are the thirteenth blind batch's; one tensor map, encoded through the driver's entry point).
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
#include <cmath>
#include <cstring>
#include <algorithm>
#include <array>
#include <iterator>
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
static CUresult (*p_cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
static CUresult (*p_cuMemsetD32)(CUdeviceptr, unsigned, size_t);
static CUresult (*p_cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                    unsigned, CUstream, void **, void **);
static CUresult (*p_cuCtxSynchronize)(void);
static CUresult (*p_cuGetErrorString)(CUresult, const char **);
// cuTensorMapEncodeTiled(map, dtype, rank, addr, dims, strides, box, elemStrides, interleave, swizzle, l2promo, oobFill)
static CUresult (*p_cuTensorMapEncodeTiled)(void *, int, unsigned, void *, const unsigned long long *,
                                            const unsigned long long *, const unsigned *, const unsigned *, int, int,
                                            int, int);

// cuGetProcAddress_v2(symbol, pfn, cudaVersion, flags, symbolStatus)
static CUresult (*p_cuGetProcAddress)(const char *, void **, int, unsigned long long, int *);

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
    sym(lib, p_cuMemcpyDtoH, "cuMemcpyDtoH_v2");
    sym(lib, p_cuMemsetD32, "cuMemsetD32_v2");
    sym(lib, p_cuLaunchKernel, "cuLaunchKernel");
    sym(lib, p_cuCtxSynchronize, "cuCtxSynchronize");
    sym(lib, p_cuGetErrorString, "cuGetErrorString");
    // cuTensorMapEncodeTiled through the driver's entry-point query (cuGetProcAddress, which
    // cudaGetDriverEntryPoint wraps), as CUDA codes without a link to libcuda get it
    sym(lib, p_cuGetProcAddress, "cuGetProcAddress_v2");
    int qstatus = 0;
    void *fn = nullptr;
    if (p_cuGetProcAddress("cuTensorMapEncodeTiled", &fn, 12000, 0, &qstatus) != 0 || !fn) {
        fprintf(stderr, "cuGetProcAddress(cuTensorMapEncodeTiled) failed (status %d)\n", qstatus);
        exit(1);
    }
    p_cuTensorMapEncodeTiled = reinterpret_cast<decltype(p_cuTensorMapEncodeTiled)>(fn);
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

static const uint64_t SEED_RAND8M = 1301;
static const uint64_t SEED_FRND = 1302;
static const uint64_t SEED_HALF = 1303;
static const uint64_t SEED_HALFY = 1304;
static const uint64_t SEED_Q4 = 1305;
static const uint64_t SEED_Q8 = 1306;
static const uint64_t SEED_PAGED = 1307;
static const uint64_t SEED_SEG = 1308;
static const uint64_t SEED_BAG = 1309;
static const uint64_t SEED_NORM = 1310;
static const std::vector<std::pair<const char *, uint64_t>> SEEDS = {
    {"RAND8M (next() words)", SEED_RAND8M}, {"FRND (next() words)", SEED_FRND}, {"HALF", SEED_HALF},
    {"HALFY", SEED_HALFY}, {"Q40", SEED_Q4}, {"Q80/X81 (one stream)", SEED_Q8},
    {"KVC/PIND/PPTR/PLAST (one stream)", SEED_PAGED}, {"SEGO", SEED_SEG}, {"EBI/EBO/EBW (one stream)", SEED_BAG},
    {"NW", SEED_NORM}, {"KVC (half words)", SEED_PAGED + 100}};


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

static float unit_float(uint32_t x) { return (float)(x >> 8) * (1.0f / 16777216.0f); }  // [0, 1)

static std::vector<uint32_t> bytes_to_words(const std::vector<uint8_t> &b)
{
    std::vector<uint32_t> w((b.size() + 3) / 4, 0);
    memcpy(w.data(), b.data(), b.size());
    return w;
}

// sizes of the batch
static const int GM = 1024, GN_ = 1024, GK = 512;          // cp.async GEMM
static const int FSEQ = 1024, FHEADS = 16;                 // flash forward
static const int WM = 1024, WN = 1024, WK = 256;           // wgmma tile
static const int QROWS = 4096, QBLK = 128;                 // q4_0 / q8_0 mat-vecs (K = 4,096)
static const int I8N = 2048, I8K = 4096;                   // int8 GEMV
static const int PREQ = 16, PKVH = 8, PQH = 32, PD = 128;  // paged decode
static int g_npages = 0;
static std::vector<int> g_plen;                            // tokens a request (CPU)
static const int NSEG = 20000;
static const int NBAG = 4096, EROWS = 16384;
static const int SX = 256, SY = 128, SZ = 128;             // stencil
static const int TR = 1500, TC = 2500;                     // transpose
static const int AXN = 8388605;                            // fp16 axpby
static const int UN = 4000001;                             // float4 unaligned
static const int NR = 4000, NC = 1000;                     // rmsnorm
static const int CGN = 1000000;                            // cooperative-groups scan

static uint16_t f2h(float f)  // round to nearest even, normal range only (|f| < 2)
{
    uint32_t x; memcpy(&x, &f, 4);
    uint32_t s = (x >> 16) & 0x8000u;
    int e = (int)((x >> 23) & 255) - 127 + 15;
    uint32_t m = x & 0x7FFFFFu;
    if (e <= 0) return (uint16_t)s;  // tiny: flush (|f| < 2^-14)
    uint32_t h = ((uint32_t)e << 10) | (m >> 13);
    uint32_t rest = m & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) ++h;
    return (uint16_t)(s | h);
}
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static std::vector<uint32_t> half_words(size_t nwords, uint64_t seed)
{
    std::vector<uint32_t> w = lcg_words(nwords, seed);
    for (auto &x : w) x = (uint32_t)f2h(unit_float(x) * 2.0f - 1.0f) | ((uint32_t)f2h(unit_float(x * 2654435761u) * 2.0f - 1.0f) << 16);
    return w;
}

static void make_buffers()
{
    const size_t MiB = 1 << 20;
    add_fill("C", 64 * MiB, 0x00000000u, "zero");
    add_fill("D", 64 * MiB, 0x00000000u, "zero");
    add_fill("ACC", 1 * MiB, 0x00000000u, "zero: radix_hist_upfront's [4][256] bins at byte 0");
    add_words("RAND8M", lcg_words(2097152, SEED_RAND8M),
              "2,097,152 uint32 words: successive next() of the LCG below seeded with 1301 (8 MiB; as keys, int8 weights, uint16 values)");
    {
        std::vector<uint32_t> w = lcg_words(4194304, SEED_FRND);
        for (auto &x : w) { float f = unit_float(x) * 2.0f - 1.0f; memcpy(&x, &f, 4); }
        add_words("FRND", w, "4,194,304 float32 in [-1, 1): (next() >> 8) / 2^24 * 2 - 1 (LCG seed 1302)");
    }
    add_words("HALF", half_words(4194304, SEED_HALF),
              "8,388,608 fp16 in (-1, 1): word k = (h(u(r)), h(u(r * 2654435761 mod 2^32))), r = next() (LCG seed 1303), u(r) = (r >> 8) / 2^24 * 2 - 1, h = round to nearest even (also read as int8 bytes)");
    add_words("HALFY", half_words(4194304, SEED_HALFY), "8,388,608 fp16 as HALF, LCG seed 1304 (half2_axpby_tail's y, updated in place)");
    {
        // q4_0 blocks: d = h(0.005 + 0.01 u), 16 bytes of nibbles from next()
        Lcg g(SEED_Q4);
        std::vector<uint8_t> b((size_t)QROWS * QBLK * 18);
        for (size_t k = 0; k < (size_t)QROWS * QBLK; ++k) {
            uint16_t d = f2h(0.005f + 0.01f * unit_float(g.next()));
            memcpy(&b[k * 18], &d, 2);
            for (int j = 0; j < 16; j += 4) { uint32_t r = g.next(); memcpy(&b[k * 18 + 2 + j], &r, 4); }
        }
        add_words("Q40", bytes_to_words(b), "4,096 rows x 128 block_q4_0 (18 bytes: fp16 d = h(0.005 + 0.01 u), 16 bytes of nibbles = next() words), LCG seed 1305");
    }
    {
        Lcg g(SEED_Q8);
        std::vector<uint8_t> b((size_t)QROWS * QBLK * 34), xq((size_t)QBLK * 36);
        for (size_t k = 0; k < (size_t)QROWS * QBLK; ++k) {
            uint16_t d = f2h(0.005f + 0.01f * unit_float(g.next()));
            memcpy(&b[k * 34], &d, 2);
            for (int j = 0; j < 32; j += 4) { uint32_t r = g.next(); memcpy(&b[k * 34 + 2 + j], &r, 4); }
        }
        for (int k = 0; k < QBLK; ++k) {
            float d = 0.01f + 0.01f * unit_float(g.next());
            memcpy(&xq[k * 36], &d, 4);
            for (int j = 0; j < 32; j += 4) { uint32_t r = g.next(); memcpy(&xq[k * 36 + 4 + j], &r, 4); }
        }
        add_words("Q80", bytes_to_words(b), "4,096 rows x 128 block_q8_0 (34 bytes: fp16 d = h(0.005 + 0.01 u), 32 int8 = next() words), LCG seed 1306");
        add_words("X81", bytes_to_words(xq), "128 activation blocks of 36 bytes (float d = 0.01 + 0.01 u, 32 int8 = next() words), the same stream after Q80");
    }
    {
        // paged KV cache: request r has 1 + next() % 600 tokens; its pages are a random permutation's slice of the pool
        Lcg g(SEED_PAGED);
        g_plen.assign(PREQ, 0);
        std::vector<uint32_t> ptr(PREQ + 1, 0), last(PREQ, 0);
        for (int r = 0; r < PREQ; ++r) {
            g_plen[r] = 1 + (int)(g.next() % 600);
            int np = (g_plen[r] + 15) / 16;
            ptr[r + 1] = ptr[r] + np;
            last[r] = (uint32_t)(g_plen[r] - (np - 1) * 16);
        }
        g_npages = (int)ptr[PREQ];
        std::vector<int32_t> perm(g_npages);
        for (int i = 0; i < g_npages; ++i) perm[i] = i;
        for (int i = g_npages - 1; i > 0; --i) { uint32_t j = g.next() % (uint32_t)(i + 1); std::swap(perm[i], perm[j]); }
        add_words("PPTR", ptr, "paged decode: indptr of 16 requests (pages a request = ceil(len / 16), len = 1 + next() % 600, LCG seed 1307)");
        add_words("PIND", as_words(perm), "page indices: a Fisher-Yates permutation of the pool (same stream after the lengths)");
        add_words("PLAST", last, "tokens in each request's last page (1..16)");
        add_words("KVC", half_words((size_t)g_npages * 2 * 16 * 8 * 128 / 2, SEED_PAGED + 100),
                  "KV pages [page][K, V][16 tokens][8 heads][128] fp16 as HALF with LCG seed 1407");
    }
    {
        Lcg g(SEED_SEG);
        std::vector<uint32_t> off(NSEG + 1, 0);
        for (int s = 0; s < NSEG; ++s) off[s + 1] = off[s] + g.next() % 300;
        add_words("SEGO", off, "20,001 segment offsets, lengths next() % 300 (LCG seed 1308)");
    }
    {
        Lcg g(SEED_BAG);
        std::vector<uint32_t> off(NBAG + 1, 0), idx, wt;
        for (int b = 0; b < NBAG; ++b) {
            int len = 1 + (int)(g.next() % 40);
            for (int k = 0; k < len; ++k) { idx.push_back(g.next() % EROWS); wt.push_back(fbits(unit_float(g.next()))); }
            off[b + 1] = (uint32_t)idx.size();
        }
        add_words("EBO", off, "embedding bag offsets of 4,096 bags, lengths 1 + next() % 40 (LCG seed 1309)");
        add_words("EBI", idx, "embedding bag row indices next() % 16,384 (same stream, interleaved with the weights)");
        add_words("EBW", wt, "per-sample weights (next() >> 8) / 2^24");
    }
    {
        Lcg g(SEED_NORM);
        std::vector<uint32_t> w(NC);
        for (auto &x : w) x = fbits(0.5f + unit_float(g.next()));
        add_words("NW", w, "RMSNorm weight, 1,000 floats 0.5 + u (LCG seed 1310)");
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
static Param U32(long long v) { Param p = S32(v); p.type = "u32"; return p; }
static Param U64(long long v) { Param p = S32(v); p.type = "u64"; return p; }
// a CUtensorMap (cuTensorMapEncodeTiled: float32, rank 2, no interleave, no swizzle,
// no L2 promotion, no OOB fill; TMAP_SWZ: 64- or 128-byte swizzle) over `b`: dims {cols, rows}, row pitch cols*4 bytes, box {bx, by}
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
// a 2-D float32 tile map with a 64-byte (bytes = 64) or 128-byte (bytes = 128) swizzle
static Param TMAP_SWZ(int bytes, const char *b, unsigned long long cols, unsigned long long rows, unsigned bx, unsigned by)
{
    Param p = TMAP(b, cols, rows, bx, by);
    p.swizzle = bytes == 128 ? 3 : bytes == 64 ? 2 : bytes == 32 ? 1 : 0;
    return p;
}

static Param F32(float v) { Param p = S32(0); uint32_t b; memcpy(&b, &v, 4); p.ival = b; p.type = "f32"; p.fval = v; return p; }

struct Module { std::string name, ptx; };
static const Module MODULES[] = {
    {"blind13", "tests/hw/blind13/blind13.ptx"},
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
    const char *K = "blind13";
    // real projects' GEMM and attention paths
    L("cutlass_gemm_cpasync_swz", K, "cutlass_gemm_cpasync_swz", GN_ / 64, GM / 64, 1, 128, 1, 1,
      {P("HALF"), P("HALF", (long long)GM * GK * 2), P("C"), S32(GM), S32(GN_), S32(GK)},
      "fp16 GEMM 1,024 x 1,024 x 512 (A row-major from HALF, B row-major after it), 64 x 64 x 32 tiles, 3-stage cp.async.cg 16-byte pipeline into XOR-swizzled tiles, ldmatrix.x4 (A) and .x4.trans (B), mma.sync m16n8k16, stmatrix.x4 epilogue into a swizzled tile, 16-byte stores");
    L("flash_fwd_cpasync", K, "flash_fwd_cpasync", FSEQ / 64, FHEADS, 1, 64, 1, 1,
      {P("HALF"), P("HALF", 2 << 20), P("HALF", 4 << 20), P("D"), S32(FSEQ), F32(0.125f)},
      "FlashAttention-2-style forward, 16 heads x 1,024 tokens x 64 dims fp16, a thread a query row (8 x 16-byte Q loads at a 128-byte lane stride), K / V tiles of 64 keys double-buffered by cp.async.cg, broadcast shared reads, online softmax, 8 x 16-byte stores a row");
    L("tma_ws_pipeline_colsum", K, "tma_ws_pipeline_colsum", 64, 1, 1, 288, 1, 1, {TMAP("FRND", 2048, 2048, 32, 64), P("C"), S32(32)},
      "warp-specialised TMA pipeline: column sums of a 2,048 x 2,048 float32 matrix, a CTA a 32-column strip of 32 tiles (box 32 x 64, no swizzle), 3 stages with full (expect_tx) and empty (8 warp arrivals) mbarriers; warp 8 produces, warps 0..7 read 8 rows each");
    L("bulk_copy_1d_affine", K, "bulk_copy_1d_affine", 128, 1, 1, 256, 1, 1, {P("FRND"), P("C"), S64(16000000)},
      "y = 2 x + 1 over 4,000,000 floats through shared memory: 977 chunks of 16 KiB (the last 9,216 bytes) in a grid-stride loop over 128 CTAs, cp.async.bulk global -> shared on an mbarrier, float4 update in shared, cp.async.bulk shared -> global (bulk_group)");
    L("wgmma_linear_tile", K, "wgmma_linear_tile", WN / 64, WM / 64, 1, 128, 1, 1,
      {P("HALF"), P("HALF", 1 << 20), P("C"), S32(WM), S32(WN), S32(WK)},
      "C = A W^T, 1,024 x 1,024 x 256 fp16 (both K-major), one warpgroup a 64 x 64 tile: 16-byte loads into the no-swizzle core-matrix layout, fence.proxy.async, 4 wgmma.m64n64k16 a K chunk of 64 on shared descriptors, float2 stores");
    // quantised mat-vecs
    L1("q4_0_matvec", K, "q4_0_matvec", {P("Q40"), P("FRND"), P("C"), S32(QROWS), S32(QBLK)}, QROWS * 32, 256,
       "llama.cpp-style q4_0 mat-vec, 4,096 rows x 128 blocks of 18 bytes (2-byte aligned): a warp a row, the fp16 scale and 8 uint16 nibble loads a block, x by float4");
    L1("q8_0_matvec_dp4a", K, "q8_0_matvec_dp4a", {P("Q80"), P("X81"), P("D"), S32(QROWS), S32(QBLK)}, QROWS * 32, 128,
       "llama.cpp-style q8_0 x q8_1 mat-vec by dp4a, 4,096 rows x 128 blocks of 34 bytes: a warp a row, 4 lanes a block (4 uint16 weight loads and 2 int activation loads a lane), the fp16 and float scales");
    L1("int8_gemv_dp4a", K, "int8_gemv_dp4a", {P("RAND8M"), P("HALF"), P("FRND"), P("C"), S32(I8N), S32(I8K)}, I8N * 32, 256,
       "int8 GEMV 2,048 x 4,096 (W = RAND8M bytes, x = HALF bytes), a warp a row, 16-byte loads of W and x, 4 dp4a a load, a float scale a row");
    L("paged_kv_decode", K, "paged_kv_decode", PREQ, PKVH, 1, 128, 1, 1,
      {P("HALF"), P("KVC"), P("PPTR"), P("PIND"), P("PLAST"), P("D"), F32(0.08838834764831845f)},
      "FlashInfer-style GQA decode over a paged KV cache (NHD, 16 tokens a page, 8 KV heads, head dim 128): a block a (request, KV head), a warp a query head, 8-byte K and V loads a lane at pages from the loaded page table, loaded lengths");
    // CUB-style and reductions
    L("radix_hist_upfront", K, "radix_hist_upfront", 132, 1, 1, 256, 1, 1, {P("RAND8M"), S32(524288), P("ACC")},
      "onesweep-style upfront radix histogram of 2,097,152 uint32 keys (uint4 loads, grid-stride over 132 x 256 threads): 16 shared atomicAdd a uint4 into [4][256] bins, then one global atomicAdd a non-zero bin");
    L1("segmented_sum_warp", K, "segmented_sum_warp", {P("FRND"), P("SEGO"), P("C"), S32(NSEG)}, NSEG * 32, 256,
       "segmented sum, a warp a segment of 20,000 (loaded offsets, lengths 0..299), shfl_down reduction, lane 0 stores");
    // stencils and layout
    L("stencil7_3d_halo", K, "stencil7_3d_halo", SX / 32, SY / 8, SZ / 32, 32, 8, 1,
      {P("FRND"), P("C"), S32(SX), S32(SY), S32(SZ), F32(0.4f), F32(0.1f)},
      "7-point stencil on 256 x 128 x 128 floats, 2.5-D: 32 x 8 blocks march 32 planes (3-D grid), a 10 x 34 shared plane with x / y halos loaded by the edge threads, z neighbours in registers; interior points stored");
    L("transpose_pad33", K, "transpose_pad33", (TC + 31) / 32, (TR + 31) / 32, 1, 32, 8, 1, {P("FRND"), P("C"), S32(TR), S32(TC)},
      "transpose of a 1,500 x 2,500 float matrix through a 32 x 33 shared tile, 32 x 8 blocks, ragged edges");
    L("embedding_bag_sum", K, "embedding_bag_sum", NBAG, 1, 1, 64, 1, 1, {P("FRND"), P("EBI"), P("EBO"), P("EBW"), P("C")},
      "EmbeddingBag (sum, per-sample weights): 4,096 bags of 1..40 loaded rows of a 16,384 x 256 float table, a block a bag, a float4 a thread");
    // elementwise
    L("half2_axpby_tail", K, "half2_axpby_tail", 1024, 1, 1, 256, 1, 1, {P("HALF"), P("HALFY"), S32(AXN), F32(0.5f), F32(-0.25f)},
      "y = 0.5 x - 0.25 y over 8,388,605 fp16: uint4 (8 halves) grid-stride loop, a 5-half tail by single halves");
    L("float4_scale_unaligned", K, "float4_scale_unaligned", 512, 1, 1, 256, 1, 1,
      {P("FRND", 12), P("C", 12), S32(UN), F32(1.5f), F32(0.25f)},
      "y = 1.5 x + 0.25 over 4,000,001 floats at bases 12 bytes past 16-byte alignment: a 1-float head, float4 grid-stride loop, a scalar tail");
    L("rmsnorm_warp_rows", K, "rmsnorm_warp_rows", NR / 8, 1, 1, 256, 1, 1, {P("FRND"), P("NW"), P("C"), S32(NR), S32(NC), F32(1e-6f)},
      "RMSNorm of 4,000 rows of 1,000 floats, a warp a row: strided sum of squares, __shfl_xor_sync butterfly, the row read again, scaled by a weight");
    L("cg_tile16_scan_u16", K, "cg_tile16_scan_u16", (CGN + 255) / 256, 1, 1, 16, 16, 1, {P("RAND8M"), P("C"), P("D"), S32(CGN)},
      "cooperative groups, 16 x 16 blocks: a tiled_partition<16> a row scans 16 uint16 values by shfl_up, a tiled_partition<4> reduces by cg::reduce; int32 scans and quad sums stored; the last block partial");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind13/host.cpp. Launches run once each, in this order, on one stream. "
               "Pointer params: buffer name + byte offset; every buffer is cuMemAlloc'd with its size rounded up to a multiple of 2 MiB; the run prints each base mod 4096 (0 for all in the committed measurement, see README). "
               "Scalar params: value by PTX parameter index.\",\n");
    fprintf(f, "  \"permutation_generator\": {\"algorithm\": \"state = state * %llu + %llu (mod 2^64); next() = state >> 32; "
               "p = identity; for i = n-1 down to 1: j = next() %% (i+1); swap(p[i], p[j])\", \"reference\": \"tests/hw/lcg_perm.py\", "
               "\"seeds\": {", (unsigned long long)LCG_A, (unsigned long long)LCG_C);
    for (size_t k = 0; k < SEEDS.size(); ++k)
        fprintf(f, "%s%s: %llu", k ? ", " : "", jstr(SEEDS[k].first).c_str(), (unsigned long long)SEEDS[k].second);
    fprintf(f, "}},\n");
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
                        box.c_str(), es.c_str(), p.swizzle == 3 ? "128B" : p.swizzle == 2 ? "64B" : p.swizzle == 1 ? "32B" : "none");
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

// ------------------------------------------------------------ checks --
// After each launch, a few results are copied back and compared with a CPU
// reference where that is cheap; the comparison is printed ("check ID: ...")
// and never stops the run (a measurement does not depend on the values).
static bool readback(const std::string &name, long long off, size_t bytes, void *dst)
{
    CUresult r = p_cuMemcpyDtoH(dst, buf(name).ptr + (unsigned long long)off, bytes);
    if (r != 0) { printf("check: readback of %s failed (%d)\n", name.c_str(), r); return false; }
    return true;
}
template <typename T> static std::vector<T> rb(const std::string &name, long long off, size_t count)
{
    std::vector<T> v(count);
    if (!readback(name, off, count * sizeof(T), v.data())) v.clear();
    return v;
}
static float f32_of(uint32_t w) { float f; memcpy(&f, &w, 4); return f; }
static float half_to_float(uint16_t h)
{
    uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
    float v;
    if (e == 0) v = ldexpf((float)m, -24);
    else if (e == 31) v = m ? NAN : INFINITY;
    else v = ldexpf((float)(m | 1024), (int)e - 25);
    return s ? -v : v;
}
static long long p_off(const Launch &l, size_t k) { return l.params[k].offset; }
static const std::string &p_buf(const Launch &l, size_t k) { return l.params[k].buffer; }

static const uint8_t *bytes_of(const std::string &name) { return reinterpret_cast<const uint8_t *>(buf(name).words.data()); }
static float maxabs(float a, float b) { return std::max(a, b); }
static float rel_err(float got, float ref) { return fabsf(got - ref) / std::max(1.0f, fabsf(ref)); }

static float h2f_bits(uint16_t h) { return half_to_float(h); }

static void check_launch(const Launch &l)
{
    const std::string &id = l.id;
    const std::vector<uint32_t> &FR = buf("FRND").words;
    auto F = [&](size_t i) { return f32_of(FR[i]); };
    const uint16_t *HB = reinterpret_cast<const uint16_t *>(buf("HALF").words.data());
    auto H = [&](size_t i) { return half_to_float(HB[i]); };
    auto W = [&](const char *n) -> const std::vector<uint32_t> & { return buf(n).words; };
    if (id == "cutlass_gemm_cpasync_swz") {
        std::vector<uint16_t> o = rb<uint16_t>("C", 0, (size_t)GM * GN_);
        if (o.empty()) return;
        const size_t boff = (size_t)GM * GK;
        float err = 0.0f;
        std::vector<double> row(GN_);
        for (int r = 0; r < GM; r += 7) {
            std::fill(row.begin(), row.end(), 0.0);
            for (int k = 0; k < GK; ++k) {
                const double a = H((size_t)r * GK + k);
                for (int c = 0; c < GN_; ++c) row[c] += a * H(boff + (size_t)k * GN_ + c);
            }
            for (int c = 0; c < GN_; ++c) err = maxabs(err, rel_err(half_to_float(o[(size_t)r * GN_ + c]), (float)row[c]));
        }
        printf("check %s: max relative error (rows r %% 7 == 0, fp16 output) %.3g\n", id.c_str(), err);
    } else if (id == "flash_fwd_cpasync") {
        std::vector<uint16_t> o = rb<uint16_t>("D", 0, (size_t)FHEADS * FSEQ * 64);
        if (o.empty()) return;
        const size_t kq = (1 << 20), vq = (2 << 20);  // halves
        float err = 0.0f;
        for (int h : {0, 7, 15})
            for (int r = 3; r < FSEQ; r += 16) {
                const size_t ho = (size_t)h * FSEQ * 64;
                std::vector<double> s(FSEQ);
                double mx = -1e30;
                for (int j = 0; j < FSEQ; ++j) {
                    double d = 0.0;
                    for (int k = 0; k < 64; ++k) d += (double)H(ho + (size_t)r * 64 + k) * 0.125 * H(kq + ho + (size_t)j * 64 + k);
                    s[j] = d; mx = std::max(mx, d);
                }
                double den = 0.0;
                for (int j = 0; j < FSEQ; ++j) { s[j] = exp(s[j] - mx); den += s[j]; }
                for (int k = 0; k < 64; ++k) {
                    double acc = 0.0;
                    for (int j = 0; j < FSEQ; ++j) acc += s[j] * H(vq + ho + (size_t)j * 64 + k);
                    err = maxabs(err, fabsf(half_to_float(o[ho + (size_t)r * 64 + k]) - (float)(acc / den)));
                }
            }
        printf("check %s: max abs error (heads 0, 7, 15, rows r %% 16 == 3) %.3g\n", id.c_str(), err);
    } else if (id == "tma_ws_pipeline_colsum") {
        std::vector<float> o = rb<float>("C", 0, 2048);
        if (o.empty()) return;
        float err = 0.0f;
        for (int c = 0; c < 2048; ++c) {
            double s = 0.0;
            for (int r = 0; r < 2048; ++r) s += F((size_t)r * 2048 + c);
            err = maxabs(err, (float)fabs(o[c] - s));
        }
        printf("check %s: max abs error of 2,048 column sums %.3g\n", id.c_str(), err);
    } else if (id == "bulk_copy_1d_affine") {
        std::vector<float> o = rb<float>("C", 0, 4000000);
        if (o.empty()) return;
        size_t bad = 0;
        for (size_t i = 0; i < 4000000; ++i) bad += o[i] != 2.0f * F(i) + 1.0f;
        printf("check %s: %zu of 4,000,000 differ\n", id.c_str(), bad);
    } else if (id == "wgmma_linear_tile") {
        std::vector<float> o = rb<float>("C", 0, (size_t)WM * WN);
        if (o.empty()) return;
        const size_t woff = (1 << 19);  // halves
        float err = 0.0f;
        for (int r = 0; r < WM; r += 5)
            for (int c = 0; c < WN; ++c) {
                double s = 0.0;
                for (int k = 0; k < WK; ++k) s += (double)H((size_t)r * WK + k) * H(woff + (size_t)c * WK + k);
                err = maxabs(err, fabsf(o[(size_t)r * WN + c] - (float)s));
            }
        printf("check %s: max abs error (rows r %% 5 == 0) %.3g\n", id.c_str(), err);
    } else if (id == "q4_0_matvec") {
        std::vector<float> o = rb<float>("C", 0, QROWS);
        if (o.empty()) return;
        const uint8_t *q = reinterpret_cast<const uint8_t *>(W("Q40").data());
        float err = 0.0f;
        for (int r = 0; r < QROWS; ++r) {
            double s = 0.0;
            for (int b = 0; b < QBLK; ++b) {
                const uint8_t *blk = q + ((size_t)r * QBLK + b) * 18;
                uint16_t dh; memcpy(&dh, blk, 2);
                double sb = 0.0;
                for (int j = 0; j < 16; ++j) {
                    sb += (double)((blk[2 + j] & 15) - 8) * F(b * 32 + j);
                    sb += (double)((blk[2 + j] >> 4) - 8) * F(b * 32 + 16 + j);
                }
                s += half_to_float(dh) * sb;
            }
            err = maxabs(err, rel_err(o[r], (float)s));
        }
        printf("check %s: max relative error %.3g\n", id.c_str(), err);
    } else if (id == "q8_0_matvec_dp4a") {
        std::vector<float> o = rb<float>("D", 0, QROWS);
        if (o.empty()) return;
        const uint8_t *q = reinterpret_cast<const uint8_t *>(W("Q80").data());
        const uint8_t *xq = reinterpret_cast<const uint8_t *>(W("X81").data());
        float err = 0.0f;
        for (int r = 0; r < QROWS; ++r) {
            double s = 0.0;
            for (int b = 0; b < QBLK; ++b) {
                const uint8_t *blk = q + ((size_t)r * QBLK + b) * 34;
                uint16_t dh; memcpy(&dh, blk, 2);
                float dx; memcpy(&dx, xq + b * 36, 4);
                long long acc = 0;
                for (int j = 0; j < 32; ++j) acc += (int)(int8_t)blk[2 + j] * (int)(int8_t)xq[b * 36 + 4 + j];
                s += (double)half_to_float(dh) * dx * (double)acc;
            }
            err = maxabs(err, rel_err(o[r], (float)s));
        }
        printf("check %s: max relative error %.3g\n", id.c_str(), err);
    } else if (id == "int8_gemv_dp4a") {
        std::vector<float> o = rb<float>("C", 0, I8N);
        if (o.empty()) return;
        const int8_t *w = reinterpret_cast<const int8_t *>(W("RAND8M").data());
        const int8_t *x = reinterpret_cast<const int8_t *>(W("HALF").data());
        float err = 0.0f;
        for (int r = 0; r < I8N; ++r) {
            long long acc = 0;
            for (int k = 0; k < I8K; ++k) acc += (int)w[(size_t)r * I8K + k] * (int)x[k];
            err = maxabs(err, rel_err(o[r], (float)acc * F(r)));
        }
        printf("check %s: max relative error %.3g\n", id.c_str(), err);
    } else if (id == "paged_kv_decode") {
        std::vector<uint16_t> o = rb<uint16_t>("D", 0, (size_t)PREQ * PQH * PD);
        if (o.empty()) return;
        const uint16_t *kv = reinterpret_cast<const uint16_t *>(W("KVC").data());
        const auto &ptr = W("PPTR");
        const auto &ind = W("PIND");
        float err = 0.0f;
        for (int r = 0; r < PREQ; ++r)
            for (int qh = 0; qh < PQH; ++qh) {
                const int kvh = qh / 4;
                std::vector<double> s(g_plen[r]);
                double mx = -1e30;
                for (int t = 0; t < g_plen[r]; ++t) {
                    const size_t page = ind[ptr[r] + t / 16];
                    const size_t base = (page * 2 * 16 + t % 16) * 8 * 128 + kvh * 128;
                    double d = 0.0;
                    for (int k = 0; k < PD; ++k) d += (double)H(((size_t)r * 32 + qh) * 128 + k) * half_to_float(kv[base + k]);
                    s[t] = d * 0.08838834764831845; mx = std::max(mx, s[t]);
                }
                double den = 0.0;
                for (auto &x : s) { x = exp(x - mx); den += x; }
                for (int k = 0; k < PD; ++k) {
                    double acc = 0.0;
                    for (int t = 0; t < g_plen[r]; ++t) {
                        const size_t page = ind[ptr[r] + t / 16];
                        acc += s[t] * half_to_float(kv[(page * 2 * 16 + 16 + t % 16) * 8 * 128 + kvh * 128 + k]);
                    }
                    err = maxabs(err, fabsf(half_to_float(o[((size_t)r * 32 + qh) * 128 + k]) - (float)(acc / den)));
                }
            }
        printf("check %s: max abs error %.3g (%d pages)\n", id.c_str(), err, g_npages);
    } else if (id == "radix_hist_upfront") {
        std::vector<uint32_t> o = rb<uint32_t>("ACC", 0, 1024);
        if (o.empty()) return;
        std::vector<uint32_t> ref(1024, 0);
        for (uint32_t k : W("RAND8M"))
            for (int d = 0; d < 4; ++d) ref[d * 256 + ((k >> (8 * d)) & 255)]++;
        size_t bad = 0;
        for (int i = 0; i < 1024; ++i) bad += o[i] != ref[i];
        printf("check %s: %zu of 1,024 bins differ\n", id.c_str(), bad);
    } else if (id == "segmented_sum_warp") {
        std::vector<float> o = rb<float>("C", 0, NSEG);
        if (o.empty()) return;
        const auto &off = W("SEGO");
        float err = 0.0f;
        for (int s = 0; s < NSEG; ++s) {
            double a = 0.0;
            for (uint32_t i = off[s]; i < off[s + 1]; ++i) a += F(i);
            err = maxabs(err, (float)fabs(o[s] - a));
        }
        printf("check %s: max abs error %.3g (%u elements)\n", id.c_str(), err, off[NSEG]);
    } else if (id == "stencil7_3d_halo") {
        std::vector<float> o = rb<float>("C", 0, (size_t)SX * SY * SZ);
        if (o.empty()) return;
        float err = 0.0f;
        const size_t pl = (size_t)SX * SY;
        for (int z = 1; z + 1 < SZ; ++z)
            for (int y = 1; y + 1 < SY; ++y)
                for (int x = 1; x + 1 < SX; ++x) {
                    const size_t c = z * pl + (size_t)y * SX + x;
                    const float s = F(c - 1) + F(c + 1) + F(c - SX) + F(c + SX) + F(c - pl) + F(c + pl);
                    err = maxabs(err, fabsf(o[c] - (0.4f * F(c) + 0.1f * s)));
                }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "transpose_pad33") {
        std::vector<float> o = rb<float>("C", 0, (size_t)TR * TC);
        if (o.empty()) return;
        size_t bad = 0;
        for (int r = 0; r < TR; ++r)
            for (int c = 0; c < TC; ++c) bad += o[(size_t)c * TR + r] != F((size_t)r * TC + c);
        printf("check %s: %zu of 3,750,000 differ\n", id.c_str(), bad);
    } else if (id == "embedding_bag_sum") {
        std::vector<float> o = rb<float>("C", 0, (size_t)NBAG * 256);
        if (o.empty()) return;
        const auto &off = W("EBO");
        const auto &ix = W("EBI");
        const auto &wt = W("EBW");
        float err = 0.0f;
        for (int b = 0; b < NBAG; ++b)
            for (int d = 0; d < 256; ++d) {
                double a = 0.0;
                for (uint32_t k = off[b]; k < off[b + 1]; ++k) a += (double)f32_of(wt[k]) * F((size_t)ix[k] * 256 + d);
                err = maxabs(err, (float)fabs(o[(size_t)b * 256 + d] - a));
            }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "half2_axpby_tail") {
        std::vector<uint16_t> o = rb<uint16_t>("HALFY", 0, AXN + 1);
        if (o.empty()) return;
        const uint16_t *y0 = reinterpret_cast<const uint16_t *>(W("HALFY").data());
        float err = 0.0f;
        for (int i = 0; i < AXN; ++i) err = maxabs(err, fabsf(half_to_float(o[i]) - (0.5f * H(i) - 0.25f * half_to_float(y0[i]))));
        printf("check %s: max abs error %.3g, the element past n %s\n", id.c_str(), err, o[AXN] == y0[AXN] ? "untouched" : "CHANGED");
    } else if (id == "float4_scale_unaligned") {
        // the kernel's x * s + t is one fused multiply-add (FFMA); the reference rounds once as well (fmaf)
        std::vector<float> o = rb<float>("C", 0, UN + 4);
        if (o.empty()) return;
        size_t bad = 0;
        for (int i = 0; i < UN; ++i) bad += o[3 + i] != fmaf(F(3 + i), 1.5f, 0.25f);
        printf("check %s: %zu of 4,000,001 differ from fmaf(x, 1.5, 0.25); y[-1] = %g, y[n] = %g (0 when run alone)\n",
               id.c_str(), bad, o[2], o[3 + UN]);
    } else if (id == "rmsnorm_warp_rows") {
        std::vector<float> o = rb<float>("C", 0, (size_t)NR * NC);
        if (o.empty()) return;
        const auto &nw = W("NW");
        float err = 0.0f;
        for (int r = 0; r < NR; ++r) {
            double ss = 0.0;
            for (int c = 0; c < NC; ++c) ss += (double)F((size_t)r * NC + c) * F((size_t)r * NC + c);
            const double inv = 1.0 / sqrt(ss / NC + 1e-6);
            for (int c = 0; c < NC; ++c) err = maxabs(err, (float)fabs(o[(size_t)r * NC + c] - F((size_t)r * NC + c) * inv * f32_of(nw[c])));
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "cg_tile16_scan_u16") {
        std::vector<int32_t> o = rb<int32_t>("C", 0, CGN);
        std::vector<int32_t> qd = rb<int32_t>("D", 0, CGN / 4);
        if (o.empty() || qd.empty()) return;
        const uint16_t *v = reinterpret_cast<const uint16_t *>(W("RAND8M").data());
        size_t bad = 0, badq = 0;
        for (int t = 0; t < CGN / 16; ++t) {
            int s = 0;
            std::vector<int> sc(16);
            for (int k = 0; k < 16; ++k) { s += v[t * 16 + k]; sc[k] = s; bad += o[t * 16 + k] != s; }
            for (int qq = 0; qq < 4; ++qq) badq += qd[t * 4 + qq] != sc[4 * qq] + sc[4 * qq + 1] + sc[4 * qq + 2] + sc[4 * qq + 3];
        }
        printf("check %s: %zu of 1,000,000 scans and %zu of 250,000 quad sums differ\n", id.c_str(), bad, badq);
    }
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
        check_launch(l);
        ++ran;
    }
    printf("ran %d launches\n", ran);
    return 0;
}
