// warpscope fourteenth held-out batch (tests/hw/blind14): host program, copied from tests/hw/blind11/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules,
// launch table and checks are the fourteenth blind batch's; by-value structs with scalar fields as well as pointers).
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

static const uint64_t SEED_RAND8M = 1401;
static const uint64_t SEED_FRND = 1402;
static const uint64_t SEED_HALF = 1403;
static const uint64_t SEED_MASK = 1404;
static const uint64_t SEED_EMB = 1405;
static const uint64_t SEED_ROI = 1406;
static const uint64_t SEED_BOX = 1407;
static const uint64_t SEED_CSR = 1408;
static const uint64_t SEED_GRID = 1409;
static const std::vector<std::pair<const char *, uint64_t>> SEEDS = {
    {"RAND8M (next() words)", SEED_RAND8M}, {"FRND (next() words)", SEED_FRND}, {"HALF", SEED_HALF},
    {"MASK8", SEED_MASK}, {"EIDX/EPOS/ERUN (one stream)", SEED_EMB}, {"ROIS", SEED_ROI}, {"BOXES", SEED_BOX},
    {"ROWPTR/COLIND/VALS (one stream)", SEED_CSR}, {"GRID", SEED_GRID}};

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
// sizes of the batch
static const int WS0 = 96, WS1 = 50, WS2 = 64, WN = WS0 * WS1 * WS2;  // where(): shape (fastest first)
static const int SGN = 1000001;                                       // sigmoid
static const int CROWS = 1000, CC0 = 48, CC1 = 80, CC2 = 17;          // cat along dim 1
static const int EL = 20000, EV = 8192, ED = 128;                     // embedding backward
static int g_eruns = 0;
static const int RN = 200, RC = 64, RH = 56, RW = 56;                 // RoI-Align (2 images)
static const int NB = 1000;                                           // NMS boxes
static const int RDN = 2000003, RDTPB = 8;                            // CUB reduce
static const int RDBLK = ((RDN + 1023) / 1024 + RDTPB - 1) / RDTPB;
static const long long TN = 1000003;                                  // thrust transform
static const int KROWS = 2048, KLEN = 1000;                           // k-select
static const int SROWS = 4096;                                        // SpMM (B: 4,096 x 64)
static const int FN = 3999999;                                        // FIR
static const int SMR = 1000, SMC = 2050;                              // block softmax
static const int SWB = 30001, SWC = 100;                              // warp softmax
static const int ORR = 4096, ORC = 1000, ORPB = 1024;                 // outer reduction
static const int GSN = 4, GSC = 16, GSH = 64, GSW = 96, GSHO = 48, GSWO = 80;  // grid_sample
static const int PSP = 512, PSH = 40, PSW = 40;                       // pixel_shuffle: 8 x 64 planes

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
static std::vector<uint32_t> u64_words(const std::vector<long long> &v)
{
    std::vector<uint32_t> w(v.size() * 2);
    memcpy(w.data(), v.data(), v.size() * 8);
    return w;
}

static void make_buffers()
{
    const size_t MiB = 1 << 20;
    add_fill("C", 64 * MiB, 0x00000000u, "zero");
    add_fill("D", 64 * MiB, 0x00000000u, "zero");
    add_fill("ACC", 1 * MiB, 0x00000000u, "zero: the CUB partials at byte 0, its total at 4,096, the column sums at 65,536");
    add_fill("GW", 4 * MiB, 0x00000000u, "zero: the embedding weight gradient (8,192 x 128 floats)");
    add_words("RAND8M", lcg_words(2097152, SEED_RAND8M), "2,097,152 uint32 words: successive next() of the LCG below seeded with 1401 (8 MiB; as int32)");
    {
        std::vector<uint32_t> w = lcg_words(4194304, SEED_FRND);
        for (auto &x : w) { float f = unit_float(x) * 2.0f - 1.0f; memcpy(&x, &f, 4); }
        add_words("FRND", w, "4,194,304 float32 in [-1, 1): (next() >> 8) / 2^24 * 2 - 1 (LCG seed 1402)");
    }
    add_words("HALF", half_words(4194304, SEED_HALF),
              "8,388,608 fp16 in (-1, 1): word k = (h(u(r)), h(u(r * 2654435761 mod 2^32))), r = next() (LCG seed 1403), u(r) = (r >> 8) / 2^24 * 2 - 1, h = round to nearest even");
    {
        Lcg g(SEED_MASK);
        std::vector<uint8_t> m(WN);
        for (auto &x : m) x = (uint8_t)(g.next() >> 31);
        add_words("MASK8", bytes_to_words(m), "307,200 bytes 0 / 1: next() >> 31 (LCG seed 1404), where()'s condition");
    }
    {
        // EL lookups of EV rows; sorted (index, position) pairs; runs of equal indices
        Lcg g(SEED_EMB);
        std::vector<std::pair<long long, long long>> pr(EL);
        for (int k = 0; k < EL; ++k) pr[k] = {(long long)(g.next() % EV), k};
        std::sort(pr.begin(), pr.end());
        std::vector<long long> si(EL), op(EL);
        std::vector<uint32_t> run;
        for (int k = 0; k < EL; ++k) {
            si[k] = pr[k].first; op[k] = pr[k].second;
            if (k == 0 || si[k] != si[k - 1]) run.push_back(k);
        }
        g_eruns = (int)run.size();
        run.push_back(EL);
        add_words("EIDX", u64_words(si), "20,000 int64 embedding indices next() % 8,192 (LCG seed 1405), sorted");
        add_words("EPOS", u64_words(op), "int64 original positions of the sorted indices (ties by position)");
        add_words("ERUN", run, "int32 start of each run of equal sorted indices, then 20,000");
    }
    {
        Lcg g(SEED_ROI);
        std::vector<uint32_t> r(RN * 5);
        for (int k = 0; k < RN; ++k) {
            const float x1 = unit_float(g.next()) * 180.0f, y1 = unit_float(g.next()) * 180.0f;
            const float w = 8.0f + unit_float(g.next()) * 100.0f, h = 8.0f + unit_float(g.next()) * 100.0f;
            r[k * 5] = fbits((float)(g.next() % 2));
            r[k * 5 + 1] = fbits(x1); r[k * 5 + 2] = fbits(y1);
            r[k * 5 + 3] = fbits(std::min(x1 + w, 223.0f)); r[k * 5 + 4] = fbits(std::min(y1 + h, 223.0f));
        }
        add_words("ROIS", r, "200 rois of 5 floats (batch next() % 2, x1, y1 = 180 u, x2, y2 = x1, y1 + 8 + 100 u capped at 223; LCG seed 1406)");
    }
    {
        Lcg g(SEED_BOX);
        std::vector<uint32_t> b(NB * 4);
        for (int k = 0; k < NB; ++k) {
            const float x1 = unit_float(g.next()) * 500.0f, y1 = unit_float(g.next()) * 500.0f;
            const float w = 20.0f + unit_float(g.next()) * 80.0f, h = 20.0f + unit_float(g.next()) * 80.0f;
            b[k * 4] = fbits(x1); b[k * 4 + 1] = fbits(y1); b[k * 4 + 2] = fbits(x1 + w); b[k * 4 + 3] = fbits(y1 + h);
        }
        add_words("BOXES", b, "1,000 boxes (x1, y1 = 500 u, x2, y2 = x1, y1 + 20 + 80 u; LCG seed 1407)");
    }
    {
        Lcg g(SEED_CSR);
        std::vector<uint32_t> rp(SROWS + 1, 0), ci, vv;
        for (int r = 0; r < SROWS; ++r) {
            const int len = (int)(g.next() % 100);
            for (int k = 0; k < len; ++k) { ci.push_back(g.next() % 4096); vv.push_back(fbits(unit_float(g.next()))); }
            rp[r + 1] = (uint32_t)ci.size();
        }
        add_words("ROWPTR", rp, "CSR row pointers of 4,096 rows, lengths next() % 100 (LCG seed 1408)");
        add_words("COLIND", ci, "CSR column indices next() % 4,096 (same stream, interleaved with the values)");
        add_words("VALS", vv, "CSR values (next() >> 8) / 2^24");
    }
    {
        Lcg g(SEED_GRID);
        std::vector<uint32_t> w(GSN * GSHO * GSWO * 2);
        for (auto &x : w) x = fbits(unit_float(g.next()) * 2.2f - 1.1f);
        add_words("GRID", w, "grid_sample grid [4][48][80] float2 in [-1.1, 1.1) (LCG seed 1409)");
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
    std::vector<std::pair<size_t, std::pair<std::string, long long>>> fields;   // (byte offset, (type s32 / u32, value)) scalar fields
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
// a struct passed by value: `bytes` zero bytes, then its pointer fields (S_PTR, patched at launch) and
// 32-bit scalar fields (S_FIELD, written into the bytes now)
static Param STRUCT(size_t bytes, const char *desc)
{
    Param p = S32(0); p.type = "struct"; p.blob.assign(bytes, 0); p.desc = desc; return p;
}
static void S_PTR(Param &p, size_t byte, const char *b, long long off) { p.patches.push_back({byte, {b, off}}); }
static void S_FIELD(Param &p, size_t byte, const char *type, long long v)
{
    const uint32_t w = (uint32_t)v;
    memcpy(&p.blob[byte], &w, 4);
    p.fields.push_back({byte, {type, v}});
}

struct Module { std::string name, ptx; };
static const Module MODULES[] = {
    {"blind14", "tests/hw/blind14/blind14.ptx"},
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
    const char *K = "blind14";
    const long long MiB = 1 << 20;
    {
        // where(): the OffsetCalculator<2> of a (a permuted view of storage [S0][S2][S1]) and b
        // (storage [S2][S0], broadcast along dim 1): byte strides [dim][arg]
        Param oc = STRUCT(64, "OffsetCalc2 by value (64 bytes): dims = 3 at byte 0; IntDivider {divisor, m1, shift} of sizes 96, 50, 64 at bytes 4, 16, 28; "
                              "byte strides [dim][a, b] at 40: dim 0 (12,800, 4), dim 1 (4, 0), dim 2 (200, 384)");
        S_FIELD(oc, 0, "s32", 3);
        const unsigned sz[3] = {WS0, WS1, WS2};
        for (int d = 0; d < 3; ++d) {
            unsigned shift = 0;
            while ((1u << shift) < sz[d]) ++shift;
            const unsigned long long m1 = (((1ULL << 32) * ((1ULL << shift) - sz[d])) / sz[d]) + 1;
            S_FIELD(oc, 4 + 12 * d, "u32", sz[d]);
            S_FIELD(oc, 8 + 12 * d, "u32", (long long)m1);
            S_FIELD(oc, 12 + 12 * d, "u32", shift);
        }
        const unsigned st[3][2] = {{WS2 * WS1 * 4, 4}, {4, 0}, {WS1 * 4, WS0 * 4}};
        for (int d = 0; d < 3; ++d)
            for (int a = 0; a < 2; ++a) S_FIELD(oc, 40 + 8 * d + 4 * a, "u32", st[d][a]);
        L("aten_where_offsetcalc", K, "aten_where_offsetcalc", (WN + 511) / 512, 1, 1, 128, 1, 1,
          {P("C"), P("MASK8"), P("FRND"), P("FRND", 8 * MiB), oc, S32(WN)},
          "ATen where(cond, a, b) over shape 64 x 50 x 96 (307,200): elementwise_kernel<128, 4>, an OffsetCalculator<2> by value (IntDivider magic numbers, byte strides): a a permuted view, b broadcast along dim 1; out and the uint8 condition contiguous");
    }
    L("aten_vec4_sigmoid", K, "aten_vec4_sigmoid", (SGN + 511) / 512, 1, 1, 128, 1, 1, {P("FRND"), P("C"), S32(SGN)},
      "ATen vectorized_elementwise_kernel<4> (sigmoid) over 1,000,001 floats, 16-byte-aligned x and y: an aligned_vector<float, 4> a thread a full tile of 512, the last (partial) tile by the unrolled scalar path");
    L("aten_vec4_sigmoid_off4", K, "aten_vec4_sigmoid", (SGN + 511) / 512, 1, 1, 128, 1, 1, {P("FRND", 4), P("D", 4), S32(SGN)},
      "the same kernel with x and y 4 bytes past 16-byte alignment: every tile by the unrolled scalar fallback");
    {
        Param cm = STRUCT(64, "CatMeta3 by value (64 bytes): input[3] at bytes 0, 8, 16 (FRND + 0, + 1 MiB, + 2 MiB); offset[3] at 24 (0, 48, 128), dimSize[3] at 36 (48, 80, 17), nElements[3] at 48 (48,000, 80,000, 17,000), pad at 60");
        S_PTR(cm, 0, "FRND", 0); S_PTR(cm, 8, "FRND", MiB); S_PTR(cm, 16, "FRND", 2 * MiB);
        const int off[3] = {0, CC0, CC0 + CC1}, ds[3] = {CC0, CC1, CC2};
        for (int k = 0; k < 3; ++k) {
            S_FIELD(cm, 24 + 4 * k, "s32", off[k]);
            S_FIELD(cm, 36 + 4 * k, "s32", ds[k]);
            S_FIELD(cm, 48 + 4 * k, "s32", CROWS * ds[k]);
        }
        S_FIELD(cm, 60, "s32", 0);
        L("aten_cat3_dim1", K, "aten_cat3_dim1", 64, 3, 1, 256, 1, 1, {P("C"), cm, S32(CC0 + CC1 + CC2)},
          "ATen cat of three float tensors 1,000 x 48, x 80, x 17 along dim 1 (out 1,000 x 145): CatArrayBatchedCopy, the metadata struct by value indexed by blockIdx.y, a grid-stride loop of 64 x 256 threads an input");
    }
    L("aten_embedding_bwd_sorted", K, "aten_embedding_bwd_sorted", (unsigned)g_eruns, 1, 1, 64, 1, 1,
      {P("EIDX"), P("EPOS"), P("ERUN"), P("FRND"), P("GW"), S32(g_eruns), S32(ED / 2)},
      "embedding backward over sorted indices: 20,000 lookups of 8,192 rows of 128 floats, a block a run of equal indices (loaded run offsets), the run's gradient rows (int64 original positions) summed by float2, added to the weight gradient's row");
    L("roi_align_fwd", K, "roi_align_fwd", 1024, 1, 1, 256, 1, 1,
      {P("FRND"), P("ROIS"), P("C"), S32(RN * RC * 49), S32(RC), S32(RH), S32(RW), F32(0.25f)},
      "torchvision-style RoI-Align forward (aligned, sampling ratio 2, 7 x 7 bins) of 200 loaded rois over 2 x 64 x 56 x 56 floats, spatial scale 1/4: a thread an output, 16 bilinear corner loads (bounds-checked), grid-stride over 1,024 x 256 threads");
    L("nms_bitmask", K, "nms_bitmask", (NB + 63) / 64, (NB + 63) / 64, 1, 64, 1, 1, {P("BOXES"), P("D"), S32(NB), F32(0.5f)},
      "Detectron-style NMS mask of 1,000 boxes (float4), IoU > 0.5: a 64 x 64 tile of pairs a block of 64, column boxes in shared memory, a 64-bit mask a row box and column block");
    L("cub_reduce_evenshare", K, "cub_reduce_evenshare", RDBLK, 1, 1, 256, 1, 1, {P("RAND8M"), P("ACC"), S32(RDN), S32(RDTPB)},
      "CUB-style DeviceReduce pass 1 (even share) over 2,000,003 int32: a block 8 tiles of 1,024 (int4 a thread), the last block's partial tile by guarded scalars; int64 block partials");
    L("cub_reduce_single_tile", K, "cub_reduce_single_tile", 1, 1, 1, 256, 1, 1, {P("ACC"), P("ACC", 4096), S32(RDBLK)},
      "CUB-style DeviceReduce pass 2: one block sums the 245 int64 partials");
    L("thrust_counting_transform", K, "thrust_counting_transform", (unsigned)((TN + 511) / 512), 1, 1, 256, 1, 1,
      {P("FRND"), P("C"), S64(TN)},
      "Thrust-style transform over a counting iterator, 1,000,003 items: a block a tile of 256 x 2, the last tile guarded; f(i) = 0.5 table[i % 1000] + i stored as double");
    L("faiss_warp_select_k32", K, "faiss_warp_select_k32", KROWS / 4, 1, 1, 128, 1, 1, {P("FRND"), P("C"), P("D"), S32(KROWS), S32(KLEN)},
      "Faiss-style k-select, k = 32, of 2,048 rows of 1,000 floats: a warp a row, a warp queue (lane j the j-th smallest) fed chunk by chunk, candidates below the queue's last inserted one at a time; values and int64 indices stored");
    L("csr_spmm_shared_rows", K, "csr_spmm_shared_rows", SROWS, 1, 1, 64, 1, 1,
      {P("ROWPTR"), P("COLIND"), P("VALS"), P("FRND"), P("C"), S32(SROWS)},
      "CSR SpMM C = A B, A 4,096 x 4,096 with 0..99 loaded entries a row, B 4,096 x 64 floats: a block of 64 a row, the row's indices and values staged 64 at a time in shared memory, a thread a column of B");
    L("fir_sliding_window", K, "fir_sliding_window", (FN + 255) / 256, 1, 1, 256, 1, 1, {P("FRND"), P("C"), S32(FN)},
      "33-tap FIR over 3,999,999 floats (taps in __constant__): a block 256 outputs, a 288-float window in shared memory (the last 32 by the first warp), zero outside");
    L("aten_softmax_block_ilp", K, "aten_softmax_block_ilp", SMR, 1, 1, 256, 1, 1, {P("FRND"), P("C"), S32(SMR), S32(SMC)},
      "ATen cunn_SoftMaxForward (ILP 4) over 1,000 rows of 2,050 floats (rows alternately 16-byte aligned and 8 bytes past): a block a row, the alignment shift by scalars, float4 a thread, a scalar tail; three passes, block reductions");
    L("aten_softmax_warp_h", K, "aten_softmax_warp_h", (SWB + 7) / 8, 1, 1, 32, 4, 1, {P("HALF"), P("D"), S32(SWB), S32(SWC)},
      "ATen softmax_warp_forward<half> (log2 elements 7): 30,001 rows of 100 halves, a 32 x 4 block, a warp two rows (WARP_BATCH 2) of 4 iterations, masked by element index and batch");
    L("aten_reduce_outer_2d", K, "aten_reduce_outer_2d", (ORC / 2 + 31) / 32, ORR / ORPB, 1, 32, 8, 1,
      {P("FRND"), P("ACC", 65536), S32(ORR), S32(ORC), S32(ORPB)},
      "column sums of 4,096 x 1,000 floats: 32 x 8 blocks, float2 a thread (500 pairs, the last block ragged), threadIdx.y and blockIdx.y (4 slices of 1,024) split the rows, shared combine, float atomicAdd");
    L("grid_sample_bilinear", K, "grid_sample_bilinear", (GSN * GSHO * GSWO + 255) / 256, 1, 1, 256, 1, 1,
      {P("FRND"), P("GRID"), P("C"), S32(GSN), S32(GSC), S32(GSH), S32(GSW), S32(GSHO), S32(GSWO)},
      "grid_sample 2-D, bilinear, zero padding, align_corners false: input 4 x 16 x 64 x 96 floats, loaded grid 4 x 48 x 80 float2 in [-1.1, 1.1), a thread an output pixel over 16 channels, 4 bounds-checked corners");
    L("pixel_shuffle_r2", K, "pixel_shuffle_r2", (2 * PSW + 31) / 32, 2 * PSH / 4, PSP / 2, 32, 4, 2,
      {P("FRND"), P("C"), S32(PSP), S32(PSH), S32(PSW)},
      "pixel_shuffle, upscale 2: 8 x 256 x 40 x 40 floats to 8 x 64 x 80 x 80, a 32 x 4 x 2 block on a 3 x 20 x 256 grid (x ragged: 80 columns)");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind14/host.cpp. Launches run once each, in this order, on one stream. "
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
                std::string flds;
                for (size_t k = 0; k < p.fields.size(); ++k)
                    flds += std::string(k ? ", " : "") + "{\"byte\": " + std::to_string(p.fields[k].first) + ", \"type\": " +
                            jstr(p.fields[k].second.first) + ", \"value\": " + std::to_string(p.fields[k].second.second) + "}";
                fprintf(f, "%s{\"index\": %zu, \"kind\": \"struct\", \"bytes\": %zu, \"contents\": %s, \"pointers\": [%s], \"fields\": [%s]}",
                        pi ? ", " : "", pi, p.blob.size(), jstr(p.desc).c_str(), ptrs.c_str(), flds.c_str());
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

static float bilin_ref(const float *plane, int H, int W, float y, float x)
{
    if (y < -1.0f || y > (float)H || x < -1.0f || x > (float)W) return 0.0f;
    y = std::max(y, 0.0f);
    x = std::max(x, 0.0f);
    int y0 = (int)y, x0 = (int)x, y1, x1;
    if (y0 >= H - 1) { y1 = y0 = H - 1; y = (float)y0; } else y1 = y0 + 1;
    if (x0 >= W - 1) { x1 = x0 = W - 1; x = (float)x0; } else x1 = x0 + 1;
    const float ly = y - y0, lx = x - x0, hy = 1.0f - ly, hx = 1.0f - lx;
    return hy * hx * plane[y0 * W + x0] + hy * lx * plane[y0 * W + x1] + ly * hx * plane[y1 * W + x0] + ly * lx * plane[y1 * W + x1];
}

static void check_launch(const Launch &l)
{
    const std::string &id = l.id;
    const std::vector<uint32_t> &FR = buf("FRND").words;
    auto F = [&](size_t i) { return f32_of(FR[i]); };
    const uint16_t *HB = reinterpret_cast<const uint16_t *>(buf("HALF").words.data());
    auto H = [&](size_t i) { return half_to_float(HB[i]); };
    auto W = [&](const char *n) -> const std::vector<uint32_t> & { return buf(n).words; };
    if (id == "aten_where_offsetcalc") {
        std::vector<float> o = rb<float>("C", 0, WN);
        if (o.empty()) return;
        const uint8_t *m = bytes_of("MASK8");
        const size_t boff = 2 * 1024 * 1024;  // floats
        size_t bad = 0;
        for (int i2 = 0; i2 < WS2; ++i2)
            for (int i1 = 0; i1 < WS1; ++i1)
                for (int i0 = 0; i0 < WS0; ++i0) {
                    const size_t k = ((size_t)i2 * WS1 + i1) * WS0 + i0;
                    const float a = F(((size_t)i0 * WS2 + i2) * WS1 + i1);
                    const float b = F(boff + (size_t)i2 * WS0 + i0);
                    bad += o[k] != (m[k] ? a : b);
                }
        printf("check %s: %zu of 307,200 differ\n", id.c_str(), bad);
    } else if (id == "aten_vec4_sigmoid" || id == "aten_vec4_sigmoid_off4") {
        const bool off = id == "aten_vec4_sigmoid_off4";
        std::vector<float> o = rb<float>(off ? "D" : "C", 0, SGN + 2);
        if (o.empty()) return;
        const int s = off ? 1 : 0;
        float err = 0.0f;
        for (int i = 0; i < SGN; ++i) err = maxabs(err, fabsf(o[s + i] - 1.0f / (1.0f + expf(-F(s + i)))));
        printf("check %s: max abs error %.3g, y[n] = %g (0: untouched)\n", id.c_str(), err, o[s + SGN]);
    } else if (id == "aten_cat3_dim1") {
        const int OC = CC0 + CC1 + CC2;
        std::vector<float> o = rb<float>("C", 0, (size_t)CROWS * OC);
        if (o.empty()) return;
        size_t bad = 0;
        const int ds[3] = {CC0, CC1, CC2}, off[3] = {0, CC0, CC0 + CC1};
        for (int k = 0; k < 3; ++k)
            for (int r = 0; r < CROWS; ++r)
                for (int c = 0; c < ds[k]; ++c) bad += o[(size_t)r * OC + off[k] + c] != F((size_t)k * 262144 + (size_t)r * ds[k] + c);
        printf("check %s: %zu of 145,000 differ\n", id.c_str(), bad);
    } else if (id == "aten_embedding_bwd_sorted") {
        std::vector<float> o = rb<float>("GW", 0, (size_t)EV * ED);
        if (o.empty()) return;
        std::vector<double> ref((size_t)EV * ED, 0.0);
        const long long *si = reinterpret_cast<const long long *>(W("EIDX").data());
        const long long *op = reinterpret_cast<const long long *>(W("EPOS").data());
        for (int k = 0; k < EL; ++k)
            for (int d = 0; d < ED; ++d) ref[(size_t)si[k] * ED + d] += F((size_t)op[k] * ED + d);
        float err = 0.0f;
        for (size_t i = 0; i < ref.size(); ++i) err = maxabs(err, (float)fabs(o[i] - ref[i]));
        printf("check %s: max abs error %.3g (%d runs)\n", id.c_str(), err, g_eruns);
    } else if (id == "roi_align_fwd") {
        std::vector<float> o = rb<float>("C", 0, (size_t)RN * RC * 49);
        if (o.empty()) return;
        const auto &ro = W("ROIS");
        float err = 0.0f;
        for (int n = 0; n < RN; ++n) {
            const int b = (int)f32_of(ro[n * 5]);
            const float x1 = f32_of(ro[n * 5 + 1]) * 0.25f - 0.5f, y1 = f32_of(ro[n * 5 + 2]) * 0.25f - 0.5f;
            const float x2 = f32_of(ro[n * 5 + 3]) * 0.25f - 0.5f, y2 = f32_of(ro[n * 5 + 4]) * 0.25f - 0.5f;
            const float bw = (x2 - x1) / 7.0f, bh = (y2 - y1) / 7.0f;
            for (int c = 0; c < RC; ++c) {
                const float *plane = reinterpret_cast<const float *>(FR.data()) + ((size_t)b * RC + c) * RH * RW;
                for (int ph = 0; ph < 7; ++ph)
                    for (int pw = 0; pw < 7; ++pw) {
                        float s = 0.0f;
                        for (int iy = 0; iy < 2; ++iy)
                            for (int ix = 0; ix < 2; ++ix)
                                s += bilin_ref(plane, RH, RW, y1 + ph * bh + (iy + 0.5f) * bh * 0.5f, x1 + pw * bw + (ix + 0.5f) * bw * 0.5f);
                        err = maxabs(err, fabsf(o[(((size_t)n * RC + c) * 7 + ph) * 7 + pw] - s * 0.25f));
                    }
            }
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "nms_bitmask") {
        const int cb = (NB + 63) / 64;
        std::vector<uint64_t> o = rb<uint64_t>("D", 0, (size_t)NB * cb);
        if (o.empty()) return;
        const auto &bx = W("BOXES");
        auto B = [&](int i, int k) { return f32_of(bx[i * 4 + k]); };
        size_t bad = 0, set = 0;
        for (int i = 0; i < NB; ++i)
            for (int c = 0; c < cb; ++c) {
                uint64_t t = 0;
                const int start = (i / 64 == c) ? i % 64 + 1 : 0;
                for (int j = start; j < 64 && c * 64 + j < NB; ++j) {
                    const int q = c * 64 + j;
                    const float lft = std::max(B(i, 0), B(q, 0)), top = std::max(B(i, 1), B(q, 1));
                    const float rgt = std::min(B(i, 2), B(q, 2)), bot = std::min(B(i, 3), B(q, 3));
                    const float w = std::max(rgt - lft, 0.0f), h = std::max(bot - top, 0.0f);
                    const float inter = w * h;
                    const float sa = (B(i, 2) - B(i, 0)) * (B(i, 3) - B(i, 1)), sb = (B(q, 2) - B(q, 0)) * (B(q, 3) - B(q, 1));
                    if (inter / (sa + sb - inter) > 0.5f) t |= 1ULL << j;
                }
                bad += o[(size_t)i * cb + c] != t;
                set += __builtin_popcountll(t);
            }
        printf("check %s: %zu of 16,000 masks differ (%zu bits set)\n", id.c_str(), bad, set);
    } else if (id == "cub_reduce_evenshare") {
        std::vector<int64_t> o = rb<int64_t>("ACC", 0, RDBLK);
        if (o.empty()) return;
        const auto &r = W("RAND8M");
        size_t bad = 0;
        for (int b = 0; b < RDBLK; ++b) {
            int64_t s = 0;
            for (int i = b * RDTPB * 1024; i < std::min(RDN, (b + 1) * RDTPB * 1024); ++i) s += (int32_t)r[i];
            bad += o[b] != s;
        }
        printf("check %s: %zu of %d partials differ\n", id.c_str(), bad, RDBLK);
    } else if (id == "cub_reduce_single_tile") {
        std::vector<int64_t> o = rb<int64_t>("ACC", 4096, 1);
        if (o.empty()) return;
        const auto &r = W("RAND8M");
        int64_t s = 0;
        for (int i = 0; i < RDN; ++i) s += (int32_t)r[i];
        printf("check %s: total %lld, reference %lld (%s)\n", id.c_str(), (long long)o[0], (long long)s, o[0] == s ? "equal" : "DIFFER");
    } else if (id == "thrust_counting_transform") {
        std::vector<double> o = rb<double>("C", 0, TN + 1);
        if (o.empty()) return;
        size_t bad = 0;
        for (long long i = 0; i < TN; ++i) bad += o[i] != 0.5 * (double)F(i % 1000) + (double)i;
        printf("check %s: %zu of 1,000,003 differ, out[n] = %g (0: untouched)\n", id.c_str(), bad, o[TN]);
    } else if (id == "faiss_warp_select_k32") {
        std::vector<float> od = rb<float>("C", 0, (size_t)KROWS * 32);
        std::vector<int64_t> oi = rb<int64_t>("D", 0, (size_t)KROWS * 32);
        if (od.empty() || oi.empty()) return;
        size_t badv = 0, badi = 0;
        std::vector<std::pair<float, int>> row(KLEN);
        for (int r = 0; r < KROWS; ++r) {
            for (int j = 0; j < KLEN; ++j) row[j] = {F((size_t)r * KLEN + j), j};
            std::partial_sort(row.begin(), row.begin() + 32, row.end());
            for (int k = 0; k < 32; ++k) {
                badv += od[(size_t)r * 32 + k] != row[k].first;
                badi += oi[(size_t)r * 32 + k] < 0 || oi[(size_t)r * 32 + k] >= KLEN || F((size_t)r * KLEN + oi[(size_t)r * 32 + k]) != od[(size_t)r * 32 + k];
            }
        }
        printf("check %s: %zu of 65,536 values differ, %zu indices do not point at their value\n", id.c_str(), badv, badi);
    } else if (id == "csr_spmm_shared_rows") {
        std::vector<float> o = rb<float>("C", 0, (size_t)SROWS * 64);
        if (o.empty()) return;
        const auto &rp = W("ROWPTR");
        const auto &ci = W("COLIND");
        const auto &vv = W("VALS");
        float err = 0.0f;
        for (int r = 0; r < SROWS; ++r)
            for (int c = 0; c < 64; ++c) {
                double s = 0.0;
                for (uint32_t k = rp[r]; k < rp[r + 1]; ++k) s += (double)f32_of(vv[k]) * F((size_t)ci[k] * 64 + c);
                err = maxabs(err, (float)fabs(o[(size_t)r * 64 + c] - s));
            }
        printf("check %s: max abs error %.3g (%u entries)\n", id.c_str(), err, rp[SROWS]);
    } else if (id == "fir_sliding_window") {
        static const float taps[33] = {0.001f, 0.002f, 0.004f, 0.007f, 0.011f, 0.016f, 0.022f, 0.029f, 0.036f, 0.043f, 0.050f,
                                       0.056f, 0.061f, 0.065f, 0.068f, 0.070f, 0.071f, 0.070f, 0.068f, 0.065f, 0.061f, 0.056f,
                                       0.050f, 0.043f, 0.036f, 0.029f, 0.022f, 0.016f, 0.011f, 0.007f, 0.004f, 0.002f, 0.001f};
        std::vector<float> o = rb<float>("C", 0, FN + 1);
        if (o.empty()) return;
        float err = 0.0f;
        for (int i = 0; i < FN; ++i) {
            double s = 0.0;
            for (int k = 0; k < 33; ++k) {
                const int j = i + k - 16;
                if (j >= 0 && j < FN) s += (double)taps[k] * F(j);
            }
            err = maxabs(err, (float)fabs(o[i] - s));
        }
        printf("check %s: max abs error %.3g, y[n] = %g\n", id.c_str(), err, o[FN]);
    } else if (id == "aten_softmax_block_ilp") {
        std::vector<float> o = rb<float>("C", 0, (size_t)SMR * SMC);
        if (o.empty()) return;
        float err = 0.0f;
        for (int r = 0; r < SMR; ++r) {
            double mx = -1e30, s = 0.0;
            for (int c = 0; c < SMC; ++c) mx = std::max(mx, (double)F((size_t)r * SMC + c));
            for (int c = 0; c < SMC; ++c) s += exp(F((size_t)r * SMC + c) - mx);
            for (int c = 0; c < SMC; ++c) err = maxabs(err, (float)fabs(o[(size_t)r * SMC + c] - exp(F((size_t)r * SMC + c) - mx) / s));
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "aten_softmax_warp_h") {
        std::vector<uint16_t> o = rb<uint16_t>("D", 0, (size_t)SWB * SWC + 2);
        if (o.empty()) return;
        float err = 0.0f;
        for (int r = 0; r < SWB; ++r) {
            double mx = -1e30, s = 0.0;
            for (int c = 0; c < SWC; ++c) mx = std::max(mx, (double)H((size_t)r * SWC + c));
            for (int c = 0; c < SWC; ++c) s += exp(H((size_t)r * SWC + c) - mx);
            for (int c = 0; c < SWC; ++c) err = maxabs(err, (float)fabs(half_to_float(o[(size_t)r * SWC + c]) - exp(H((size_t)r * SWC + c) - mx) / s));
        }
        printf("check %s: max abs error %.3g, the half past the last row %s\n", id.c_str(), err, o[(size_t)SWB * SWC] == 0 ? "untouched" : "CHANGED");
    } else if (id == "aten_reduce_outer_2d") {
        std::vector<float> o = rb<float>("ACC", 65536, ORC + 1);
        if (o.empty()) return;
        float err = 0.0f;
        for (int c = 0; c < ORC; ++c) {
            double s = 0.0;
            for (int r = 0; r < ORR; ++r) s += F((size_t)r * ORC + c);
            err = maxabs(err, (float)fabs(o[c] - s));
        }
        printf("check %s: max abs error %.3g of 1,000 column sums, out[1000] = %g\n", id.c_str(), err, o[ORC]);
    } else if (id == "grid_sample_bilinear") {
        std::vector<float> o = rb<float>("C", 0, (size_t)GSN * GSC * GSHO * GSWO);
        if (o.empty()) return;
        const auto &gr = W("GRID");
        float err = 0.0f;
        for (int n = 0; n < GSN; ++n)
            for (int h = 0; h < GSHO; ++h)
                for (int w = 0; w < GSWO; ++w) {
                    const size_t gi = ((size_t)n * GSHO + h) * GSWO + w;
                    const float ix = ((f32_of(gr[gi * 2]) + 1.0f) * GSW - 1.0f) * 0.5f;
                    const float iy = ((f32_of(gr[gi * 2 + 1]) + 1.0f) * GSH - 1.0f) * 0.5f;
                    const int x0 = (int)floorf(ix), y0 = (int)floorf(iy);
                    const float tx = ix - x0, ty = iy - y0;
                    for (int c = 0; c < GSC; ++c) {
                        const size_t pb = ((size_t)n * GSC + c) * GSH * GSW;
                        double v = 0.0;
                        for (int dy = 0; dy < 2; ++dy)
                            for (int dx = 0; dx < 2; ++dx) {
                                const int x = x0 + dx, y = y0 + dy;
                                if (x >= 0 && x < GSW && y >= 0 && y < GSH)
                                    v += (dx ? tx : 1.0f - tx) * (dy ? ty : 1.0f - ty) * F(pb + (size_t)y * GSW + x);
                            }
                        err = maxabs(err, (float)fabs(o[(((size_t)n * GSC + c) * GSHO + h) * GSWO + w] - v));
                    }
                }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "pixel_shuffle_r2") {
        std::vector<float> o = rb<float>("C", 0, (size_t)PSP * 4 * PSH * PSW);
        if (o.empty()) return;
        size_t bad = 0;
        for (int p = 0; p < PSP; ++p)
            for (int oh = 0; oh < 2 * PSH; ++oh)
                for (int ow = 0; ow < 2 * PSW; ++ow)
                    bad += o[((size_t)p * 2 * PSH + oh) * 2 * PSW + ow] != F((((size_t)p * 4 + (oh & 1) * 2 + (ow & 1)) * PSH + oh / 2) * PSW + ow / 2);
        printf("check %s: %zu of 3,276,800 differ\n", id.c_str(), bad);
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
