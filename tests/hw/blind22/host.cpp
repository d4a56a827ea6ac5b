// warpscope twenty-second held-out batch (tests/hw/blind22): host program, copied from tests/hw/blind21/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules,
// launch table and checks are the twenty-second blind batch's; no tensor map is used).
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


static const uint64_t SEED_BF = 2201;
static const uint64_t SEED_KC = 2202;
static const uint64_t SEED_LM = 2203;
static const uint64_t SEED_PQ = 2204;
static const uint64_t SEED_SJ = 2205;
static const uint64_t SEED_LP = 2206;
static const uint64_t SEED_YU = 2207;
static const uint64_t SEED_JP = 2208;
static const uint64_t SEED_LU = 2209;
static const uint64_t SEED_LB = 2210;
static const uint64_t SEED_PB = 2211;
static const uint64_t SEED_XX = 2212;
static const uint64_t SEED_TS = 2213;
static const uint64_t SEED_HH = 2214;
static const uint64_t SEED_MX = 2215;
static const uint64_t SEED_LR = 2216;
static const uint64_t SEED_CT = 2217;
static const uint64_t SEED_HG = 2218;
static const uint64_t SEED_CA = 2219;
static const uint64_t SEED_MB = 2220;
static const std::vector<std::pair<const char *, uint64_t>> SEEDS = {
    {"GR_* (graph, one stream)", SEED_BF}, {"KC_* (one stream)", SEED_KC}, {"LM_* (one stream)", SEED_LM}, {"PQ_* (one stream)", SEED_PQ},
    {"SJ_* (one stream)", SEED_SJ}, {"LP_* (one stream)", SEED_LP}, {"YU_IN", SEED_YU}, {"JP_* (one stream)", SEED_JP},
    {"LU_* (one stream)", SEED_LU}, {"LB_* (none: a formula)", SEED_LB}, {"PB_* (one stream)", SEED_PB}, {"XX_IN", SEED_XX},
    {"TS_* (one stream)", SEED_TS}, {"HH_* (one stream)", SEED_HH}, {"MX_* (one stream)", SEED_MX}, {"LR_* (one stream)", SEED_LR},
    {"CT_* (one stream)", SEED_CT}, {"HG_A / HG_B (+1000)", SEED_HG}, {"CA_IN", SEED_CA}, {"MB_IN", SEED_MB}};
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
static float u01(Lcg &g) { return (float)(g.next() >> 8) * (1.0f / 16777216.0f); }
static std::vector<uint32_t> float_words(const std::vector<float> &v)
{
    std::vector<uint32_t> w(v.size());
    memcpy(w.data(), v.data(), v.size() * 4);
    return w;
}
static std::vector<uint32_t> rand_floats(size_t n, uint64_t seed, float lo, float hi)
{
    Lcg g(seed);
    std::vector<uint32_t> w(n);
    for (auto &x : w) x = fbits(lo + (hi - lo) * u01(g));
    return w;
}

// sizes of the batch
static const int GRN = 1000003;                                   // graph vertices (degrees 0..16)
static const int LMR = 4000037;                                   // late materialization rows
static const int PQN = 2500003, PQD = 100;                        // Parquet values, dictionary entries
static const int SJN = 3000017, SJBUILD = 1000000;                // semi-join probe keys, build keys
static const int LPN = 2000003;                                   // LIKE strings
static const int YUW = 1366, YUH = 768, YUP = 700;                // YUYV width, height, pitch (words)
static const int JPW = 1920, JPH = 1080, JBW = JPW / 8, JBH = JPH / 8;  // JPEG image, blocks
static const int LUW = 4000, LUH = 3000, LUN = LUW * LUH / 2;     // tone-map image, pixel pairs
static const int LBW = 2048, LBH = 1023, LBL = 64;                // label image, labels
static const int PBS = 1000, PBE = 2 * PBS * (PBS - 1);           // cloth side, constraints
static const int XXN = 1000003;                                   // xxHash rows
static const int TSB = 100003;                                    // TRSM systems
static const int HHM = 3001, HHN = 2000, HHL = 3003;              // Householder panel m, n, lda
static const int MXR = 3001, MXK = 2880, MXG = MXR * MXK / 8;     // MXFP4 rows, K, groups of 8
static const int LRH = 4096, LRS = 24;                            // LoRA H, segments
static const int CTT = 300, CTB = 2048, CTC = 29;                 // CTC frames, utterances, classes
static const int HGM = 1024, HGN = 1024, HGK = 512;               // NN fp16 GEMM
static const int CAW = 1001, CAH = 2001;                          // cp.async stencil image
static const int MBR = 3000;                                      // mbarrier row sums (rows of 4,096)

// host copies needed by the checks
static std::vector<int> g_rp, g_ci, g_lr_start, g_lr_lora, g_lp_offs;
static std::vector<uint8_t> g_lp_chars;
static int g_lr_tokens = 0;
static float g_hh_tau = 0.f;
static uint64_t mix64h(uint64_t k)
{
    k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL; k ^= k >> 33;
    return k;
}

static void make_buffers()
{
    {
        Lcg g(SEED_BF);
        g_rp.assign(GRN + 1, 0);
        for (int v = 0; v < GRN; ++v) g_rp[v + 1] = g_rp[v] + (int)(g.next() % 17);
        g_ci.resize(g_rp[GRN]);
        for (auto &c : g_ci) c = (int)(g.next() % GRN);
        std::vector<uint32_t> fr((GRN + 31) / 32, 0);
        std::vector<int32_t> par(GRN);
        for (int v = 0; v < GRN; ++v) {
            if (g.next() % 8 == 0) fr[v >> 5] |= 1u << (v & 31);
            par[v] = (g.next() % 10 < 7) ? -1 : (int)(g.next() % GRN);
        }
        add_words("GR_RP", as_words(g_rp), "graph: CSR row pointers of 1,000,003 vertices, degrees 0..16 (LCG seed 2201)");
        add_words("GR_CI", as_words(g_ci), "graph: in-neighbours, uniform over the vertices");
        add_words("GR_FRONT", fr, "BFS: frontier bitmap, 1 in 8 vertices set");
        add_words("GR_PARENT", as_words(par), "BFS: parents, -1 (unvisited) for 70% of the vertices");
        add_fill("GR_NEXT", fr.size() * 4, 0u, "BFS: next-frontier bitmap, zero");
    }
    {
        Lcg g(SEED_KC);
        std::vector<int32_t> deg(GRN);
        std::vector<uint8_t> alive(GRN);
        for (int v = 0; v < GRN; ++v) {
            deg[v] = g_rp[v + 1] - g_rp[v] + (int)(g.next() % 3);
            alive[v] = g.next() % 10 != 0;
        }
        add_words("KC_DEGIN", as_words(deg), "k-core: degrees (out-degree + 0..2), LCG seed 2202");
        add_words("KC_DEG", as_words(deg), "k-core: degrees decremented in place (a copy of KC_DEGIN)");
        add_words("KC_ALIVE", bytes_to_words(alive), "k-core: alive flags (uint8), 90% alive");
        add_fill("KC_REMOVED", (GRN + 3) / 4 * 4, 0u, "k-core: removed flags (uint8), zero");
    }
    {
        Lcg g(SEED_LM);
        std::vector<int32_t> sel;
        for (int r = 0; r < LMR; ++r)
            if (g.next() % 10 < 3) sel.push_back(r);
        add_words("LM_SEL", as_words(sel), "late materialization: sorted selected row ids (30% of 4,000,037, LCG seed 2203)");
        add_words("LM_C0", lcg_words((size_t)LMR * 2, SEED_LM + 1000), "late materialization: int64 column");
        add_words("LM_C1", lcg_words((size_t)LMR, SEED_LM + 2000), "late materialization: int32 column");
        add_words("LM_C2", lcg_words((size_t)(LMR + 1) / 2, SEED_LM + 3000), "late materialization: uint16 column");
        add_words("LM_C3", lcg_words((size_t)(LMR + 3) / 4, SEED_LM + 4000), "late materialization: uint8 column");
        add_fill("LM_O0", sel.size() * 8, 0u, "late materialization: int64 out");
        add_fill("LM_O1", sel.size() * 4, 0u, "late materialization: int32 out");
        add_fill("LM_O2", (sel.size() * 2 + 3) / 4 * 4, 0u, "late materialization: uint16 out");
        add_fill("LM_O3", (sel.size() + 3) / 4 * 4, 0u, "late materialization: uint8 out");
    }
    {
        Lcg g(SEED_PQ);
        std::vector<uint32_t> pk((size_t)PQN * 7 / 32 + 2, 0);
        for (int i = 0; i < PQN; ++i) {
            uint64_t v = g.next() % PQD, bit = (uint64_t)i * 7;
            pk[bit >> 5] |= (uint32_t)(v << (bit & 31));
            if ((bit & 31) > 25) pk[(bit >> 5) + 1] |= (uint32_t)(v >> (32 - (bit & 31)));
        }
        add_words("PQ_PACKED", pk, "Parquet: 2,500,003 7-bit dictionary indices 0..99, LSB-first bit-packed (LCG seed 2204)");
        add_words("PQ_DICT", rand_floats(PQD, SEED_PQ + 1000, -100.f, 100.f), "Parquet: dictionary of 100 floats");
        add_fill("PQ_OUT", (size_t)PQN * 4, 0u, "Parquet: decoded floats, zero");
    }
    {
        Lcg g(SEED_SJ);
        std::vector<uint32_t> bm(1 << 19, 0), keys((size_t)SJN * 2);
        std::vector<uint64_t> build(SJBUILD);
        for (auto &b : build) {
            b = ((uint64_t)g.next() << 32) | g.next();
            uint32_t h = (uint32_t)(mix64h(b) >> 40);
            bm[h >> 5] |= 1u << (h & 31);
        }
        for (int i = 0; i < SJN; ++i) {
            uint64_t k = (g.next() & 1) ? build[g.next() % SJBUILD] : (((uint64_t)g.next() << 32) | g.next());
            keys[2 * i] = (uint32_t)k; keys[2 * i + 1] = (uint32_t)(k >> 32);
        }
        add_words("SJ_KEYS", keys, "semi-join: 3,000,017 uint64 probe keys, half from the build side (LCG seed 2205)");
        add_words("SJ_BITMAP", bm, "semi-join: 2^24-bit filter of 1,000,000 hashed build keys");
        add_fill("SJ_OUT", (size_t)SJN * 4, 0u, "semi-join: matching positions, zero");
        add_fill("SJ_COUNT", 4, 0u, "semi-join: match count, zero");
    }
    {
        Lcg g(SEED_LP);
        g_lp_offs.assign(LPN + 1, 0);
        for (int i = 0; i < LPN; ++i) {
            int len = (int)(g.next() % 41);
            g_lp_offs[i + 1] = g_lp_offs[i] + len;
            for (int k = 0; k < len; ++k) {
                uint32_t r = g.next();
                g_lp_chars.push_back(k == 0 && (r & 1) ? 'a' : (uint8_t)('a' + ((r >> 8) % 4)));
            }
        }
        g_lp_chars.resize((g_lp_chars.size() + 3) / 4 * 4, 0);
        std::vector<uint8_t> pre = {'a', 'b', 'c', 'd', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        add_words("LP_CHARS", bytes_to_words(g_lp_chars), "LIKE: string bytes ('a'..'d', the first 'a' half the time), LCG seed 2206");
        add_words("LP_OFFS", as_words(g_lp_offs), "LIKE: 2,000,004 int offsets (lengths 0..40)");
        add_words("LP_PREFIX", bytes_to_words(pre), "LIKE: prefix 'abcd'");
        add_fill("LP_FLAG", (LPN + 3) / 4 * 4, 0u, "LIKE: uint8 flags, zero");
    }
    {
        add_words("YU_IN", lcg_words((size_t)YUP * YUH, SEED_YU), "YUYV: 768 rows of 683 pixel pairs (uint32 Y0 U Y1 V), 2,800-byte pitch (LCG seed 2207)");
        add_fill("YU_Y", (size_t)YUW * YUH, 0u, "YUYV: Y plane 1,366 x 768, zero");
        add_fill("YU_U", (size_t)YUW * YUH, 0u, "YUYV: U plane, zero");
        add_fill("YU_V", (size_t)YUW * YUH, 0u, "YUYV: V plane, zero");
    }
    {
        Lcg g(SEED_JP);
        std::vector<uint32_t> co((size_t)JBW * JBH * 32, 0), qt(32);
        int16_t *c = reinterpret_cast<int16_t *>(co.data());
        for (size_t b = 0; b < (size_t)JBW * JBH; ++b)
            for (int k = 0; k < 64; ++k) {
                int r = (int)(g.next() % 1000);
                c[b * 64 + k] = k == 0 ? (int16_t)(r / 16 - 31) : (r < 600 / (1 + k / 8) ? (int16_t)(r % 9 - 4) : 0);
            }
        uint16_t *q = reinterpret_cast<uint16_t *>(qt.data());
        for (int k = 0; k < 64; ++k) q[k] = (uint16_t)(4 + k / 2);
        add_words("JP_COEF", co, "JPEG: 240 x 135 blocks of 64 int16 coefficients in zigzag order, sparse at high frequencies (LCG seed 2208)");
        add_words("JP_QT", qt, "JPEG: 64 uint16 quantizers (natural order) 4 + k / 2");
        add_fill("JP_IMG", (size_t)JPW * JPH, 0u, "JPEG: 1,920 x 1,080 uint8 image, zero");
    }
    {
        Lcg g(SEED_LU);
        std::vector<uint32_t> px((size_t)LUN), lut(65536);
        for (int y = 0; y < LUH; ++y)
            for (int x = 0; x < LUW; x += 2) {
                uint32_t a = (uint32_t)(x * 13 + y * 7 + (g.next() % 64)) & 0xffffu, b = (uint32_t)((x + 1) * 13 + y * 7 + (g.next() % 64)) & 0xffffu;
                px[((size_t)y * LUW + x) / 2] = a | (b << 16);
            }
        for (int i = 0; i < 65536; ++i) lut[i] = fbits(255.99f * powf(i / 65535.f, 1.f / 2.2f));
        add_words("LU_IN", px, "tone map: 4,000 x 3,000 uint16 pixels (x 13 + y 7 + noise 0..63, wrapped), LCG seed 2209");
        add_words("LU_LUT", lut, "tone map: 65,536-entry float gamma LUT");
        add_fill("LU_OUT", (size_t)LUN * 2, 0u, "tone map: uint8 out, zero");
    }
    {
        std::vector<int32_t> lab((size_t)LBW * LBH), box(LBL * 4);
        for (int y = 0; y < LBH; ++y)
            for (int x = 0; x < LBW; ++x) lab[(size_t)y * LBW + x] = ((x / 97) + (y / 61) * 7) % (LBL + 1) - 1;
        for (int l = 0; l < LBL; ++l) { box[l * 4] = box[l * 4 + 1] = 0x7fffffff; box[l * 4 + 2] = box[l * 4 + 3] = -1; }
        add_words("LB_LAB", as_words(lab), "labels: 2,048 x 1,023 int, ((x / 97) + (y / 61) 7) % 65 - 1 (-1 background)");
        add_words("LB_BOX", as_words(box), "labels: 64 boxes (min x, min y, max x, max y), initialized empty");
    }
    {
        Lcg g(SEED_PB);
        std::vector<float> pos((size_t)PBS * PBS * 4), rest(PBE);
        std::vector<int32_t> ed((size_t)PBE * 2);
        for (int y = 0; y < PBS; ++y)
            for (int x = 0; x < PBS; ++x) {
                float *p = &pos[((size_t)y * PBS + x) * 4];
                p[0] = x * 0.01f + (u01(g) - 0.5f) * 0.002f; p[1] = y * 0.01f + (u01(g) - 0.5f) * 0.002f;
                p[2] = (u01(g) - 0.5f) * 0.002f; p[3] = y == 0 ? 0.f : 1.f;
            }
        int e = 0;
        for (int y = 0; y < PBS; ++y)
            for (int x = 0; x + 1 < PBS; ++x) { ed[2 * e] = y * PBS + x; ed[2 * e + 1] = y * PBS + x + 1; rest[e++] = 0.01f; }
        for (int y = 0; y + 1 < PBS; ++y)
            for (int x = 0; x < PBS; ++x) { ed[2 * e] = y * PBS + x; ed[2 * e + 1] = (y + 1) * PBS + x; rest[e++] = 0.01f; }
        add_words("PB_POS", float_words(pos), "PBD: 1,000 x 1,000 cloth particles float4 (x, y, z, inverse mass; the top row pinned), jitter from LCG seed 2211");
        add_words("PB_EDGES", as_words(ed), "PBD: 1,998,000 int2 constraints, horizontal then vertical, in grid order");
        add_words("PB_REST", float_words(rest), "PBD: rest lengths 0.01");
        add_fill("PB_DELTA", (size_t)PBS * PBS * 16, 0u, "PBD: float4 corrections, zero");
    }
    {
        add_words("XX_IN", lcg_words((size_t)XXN * 25, SEED_XX), "xxHash32: 1,000,003 rows of 100 bytes (LCG seed 2212)");
        add_fill("XX_OUT", (size_t)XXN * 4, 0u, "xxHash32: hashes, zero");
    }
    {
        Lcg g(SEED_TS);
        std::vector<float> l((size_t)TSB * 64), b((size_t)TSB * 128);
        for (size_t s = 0; s < (size_t)TSB; ++s)
            for (int i = 0; i < 8; ++i)
                for (int k = 0; k < 8; ++k) l[s * 64 + i * 8 + k] = k < i ? u01(g) * 0.2f - 0.1f : (k == i ? 1.f + u01(g) : 0.f);
        for (auto &x : b) x = u01(g) * 2.f - 1.f;
        add_words("TS_L", float_words(l), "TRSM: 100,003 lower-triangular 8 x 8 row-major, unit-ish diagonal (LCG seed 2213)");
        add_words("TS_B", float_words(b), "TRSM: right-hand sides [8][16] a system, solved in place");
    }
    {
        Lcg g(SEED_HH);
        std::vector<float> v(HHM);
        double vv = 0;
        for (auto &x : v) { x = u01(g) * 2.f - 1.f; vv += (double)x * x; }
        add_words("HH_V", float_words(v), "Householder: v of 3,001 floats (LCG seed 2214)");
        add_words("HH_A", rand_floats((size_t)HHL * HHN, SEED_HH + 1000, -1.f, 1.f), "Householder: column-major panel 3,001 x 2,000, lda 3,003 (LCG seed 3214)");
        g_hh_tau = (float)(2.0 / vv);
    }
    {
        Lcg g(SEED_MX);
        std::vector<uint8_t> sc((size_t)MXR * MXK / 32);
        for (auto &s : sc) s = (uint8_t)(120 + g.next() % 11);
        add_words("MX_CODES", lcg_words((size_t)MXG, SEED_MX), "MXFP4: 3,001 x 2,880 e2m1 codes, 8 a uint32 (LCG seed 2215)");
        add_words("MX_SCALES", bytes_to_words(sc), "MXFP4: E8M0 scales 120..130, one a 32 elements");
        add_fill("MX_OUT", (size_t)MXG * 16, 0u, "MXFP4: bf16 out, zero");
    }
    {
        Lcg g(SEED_LR);
        g_lr_start.assign(LRS + 1, 0);
        g_lr_lora.resize(LRS);
        for (int s = 0; s < LRS; ++s) {
            g_lr_start[s + 1] = g_lr_start[s] + 1 + (int)(g.next() % 300);
            g_lr_lora[s] = (int)(g.next() % 9) - 1;
        }
        g_lr_tokens = g_lr_start[LRS];
        add_words("LR_XA", rand_floats((size_t)g_lr_tokens * 16, SEED_LR + 1000, -1.f, 1.f), "LoRA: shrunk activations [tokens][16] (LCG seed 3216)");
        add_words("LR_B", rand_floats((size_t)8 * 16 * LRH, SEED_LR + 2000, -0.1f, 0.1f), "LoRA: 8 adapters' B [16][4,096] (LCG seed 4216)");
        add_words("LR_START", as_words(g_lr_start), "LoRA: 25 segment starts (lengths 1..300, LCG seed 2216)");
        add_words("LR_LORA", as_words(g_lr_lora), "LoRA: segment adapter ids -1..7 (-1: none)");
        add_words("LR_Y", rand_floats((size_t)g_lr_tokens * LRH, SEED_LR + 3000, -1.f, 1.f), "LoRA: y [tokens][4,096], updated in place (LCG seed 5216)");
    }
    {
        Lcg g(SEED_CT);
        std::vector<int32_t> len(CTB);
        for (auto &l : len) l = 100 + (int)(g.next() % 201);
        add_words("CT_LP", rand_floats((size_t)CTT * CTB * CTC, SEED_CT + 1000, -8.f, 0.f), "CTC: log-probabilities [300][2,048][29] (LCG seed 3217)");
        add_words("CT_LEN", as_words(len), "CTC: frame counts 100..300 (LCG seed 2217)");
        add_fill("CT_LAB", (size_t)CTB * CTT * 4, 0u, "CTC: labels [2,048][300], zero");
        add_fill("CT_N", (size_t)CTB * 4, 0u, "CTC: label counts, zero");
    }
    {
        add_words("HG_A", half_words((size_t)HGM * HGK / 2, SEED_HG), "NN GEMM: A [1,024][512] half (LCG seed 2218)");
        add_words("HG_B", half_words((size_t)HGK * HGN / 2, SEED_HG + 1000), "NN GEMM: B [512][1,024] half (LCG seed 3218)");
        add_fill("HG_C", (size_t)HGM * HGN * 4, 0u, "NN GEMM: C [1,024][1,024] float, zero");
    }
    {
        add_words("CA_IN", rand_floats((size_t)CAW * CAH, SEED_CA, -1.f, 1.f), "stencil: 2,001 rows of 1,001 floats (LCG seed 2219)");
        add_fill("CA_OUT", (size_t)CAW * CAH * 4, 0u, "stencil: out, zero");
    }
    {
        add_words("MB_IN", rand_floats((size_t)MBR * 4096, SEED_MB, -1.f, 1.f), "mbarrier row sums: 3,000 rows of 4,096 floats (LCG seed 2220)");
        add_fill("MB_OUT", (size_t)MBR * 4, 0u, "mbarrier row sums: out, zero");
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
    {"blind22", "tests/hw/blind22/blind22.ptx"},
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
    const char *K = "blind22";
    L1("bfs_bottomup_bitmap", K, "bfs_bottomup_bitmap", {P("GR_RP"), P("GR_CI"), P("GR_FRONT"), P("GR_PARENT"), P("GR_NEXT"), S32(GRN)}, GRN, 256,
       "bottom-up BFS step: 1,000,003 vertices, a thread a vertex, visited ones (loaded parent >= 0, 30%) return, the others walk their 0..16 in-neighbours until one is in the frontier bitmap (1 in 8 set): parent stored, atomicOr into the next frontier, break (a loop on loaded data)");
    L1("kcore_peel_round", K, "kcore_peel_round", {P("GR_RP"), P("GR_CI"), P("KC_DEGIN"), P("KC_DEG"), P("KC_ALIVE"), P("KC_REMOVED"), S32(6), S32(GRN)}, GRN, 256,
       "k-core peeling round (k = 6): a thread a vertex, alive (uint8, 90%) and under degree k: flagged removed and atomicSub on each neighbour's degree (0..16 a vertex, uniform neighbours)");
    int nsel = (int)buf("LM_SEL").words.size();
    L1("late_materialize_gather", K, "late_materialize_gather", {P("LM_SEL"), S32(nsel), P("LM_C0"), P("LM_C1"), P("LM_C2"), P("LM_C3"), P("LM_O0"), P("LM_O1"), P("LM_O2"), P("LM_O3")}, nsel, 256,
       "late materialization: the sorted ids of the 30% selected rows of 4,000,037 gather an int64, an int32, a uint16 and a uint8 column into dense outputs");
    L1("parquet_dict_bitpack7", K, "parquet_dict_bitpack7", {P("PQ_PACKED"), P("PQ_DICT"), S32(PQD), P("PQ_OUT"), S32(PQN)}, PQN, 256,
       "Parquet dictionary decoding: 2,500,003 7-bit LSB-first bit-packed indices, a thread a value peeking word bit>>5 (and the next word when the value straddles), the 100-entry dictionary in shared memory at the index");
    L1("bitmap_semi_join_probe", K, "bitmap_semi_join_probe", {P("SJ_KEYS"), S32(SJN), P("SJ_BITMAP"), P("SJ_OUT"), P("SJ_COUNT")}, SJN, 256,
       "semi-join probe: 3,000,017 uint64 keys hashed (murmur3 fmix64) to a bit of a 2^24-bit filter (2 MiB), __ballot_sync of the hits, one atomicAdd a warp by lane 0, the hit positions stored at the warp's base");
    L1("like_prefix_filter", K, "like_prefix_filter", {P("LP_CHARS"), P("LP_OFFS"), P("LP_PREFIX"), S32(4), P("LP_FLAG"), S32(LPN)}, LPN, 256,
       "LIKE 'abcd%': 2,000,003 strings as bytes + int offsets (lengths 0..40), the prefix in shared memory, byte compares stopping at the first difference (a loop on loaded data), a uint8 flag a row");
    L("yuyv422_to_i444", K, "yuyv422_to_i444", (YUW / 2 + 127) / 128, YUH, 1, 128, 1, 1, {P("YU_IN"), S32(YUP), P("YU_Y"), P("YU_U"), P("YU_V"), S32(YUW), S32(YUH)},
      "YUYV 4:2:2 to planar 4:4:4: 1,366 x 768, a thread a pixel pair (683 a row, grid 6 x 768, the last block 43 threads), one uint32 load at a 2,800-byte pitch, uchar2 stores into the three 1,366-byte-pitch planes");
    L("jpeg_dequant_zigzag_idct", K, "jpeg_dequant_zigzag_idct", JBW / 4, JBH, 1, 8, 8, 4, {P("JP_COEF"), P("JP_QT"), P("JP_IMG"), S32(JBW), S32(JBH), S32(JPW)},
      "JPEG dequantization and IDCT: 1,920 x 1,080 (240 x 135 blocks), a CUDA block (8, 8, 4) 4 JPEG blocks, the zigzag table from a __device__ array inverted into shared memory, coefficients read at the zigzag position of the natural index times the quantizer, row and column passes through padded [8][9] shared tiles, uint8 stores at a 1,920 pitch");
    L1("lut16_tonemap_u16", K, "lut16_tonemap_u16", {P("LU_IN"), P("LU_LUT"), F32(0.98f), P("LU_OUT"), S32(LUN)}, LUN, 256,
       "16-bit tone mapping: 4,000 x 3,000 pixels as 6,000,000 ushort2, two gathers a thread from a 65,536-entry float LUT at the (smooth, noisy) pixel values, uchar2 stores");
    L("label_bbox_shared_atomics", K, "label_bbox_shared_atomics", (LBH + 3) / 4, 1, 1, 256, 1, 1, {P("LB_LAB"), S32(LBW), S32(LBH), S32(LBL), P("LB_BOX")},
      "per-label bounding boxes: 2,048 x 1,023 int labels (64 labels in 97 x 61 patches, 1 in 65 background), a block 4 rows (the last block 3), shared atomicMin / atomicMax on [4][64] ints, then global atomics for the labels seen");
    L1("pbd_distance_jacobi", K, "pbd_distance_jacobi", {P("PB_POS"), P("PB_EDGES"), P("PB_REST"), P("PB_DELTA"), S32(PBE), F32(0.8f)}, PBE, 256,
       "position-based dynamics, Jacobi: 1,998,000 distance constraints of a 1,000 x 1,000 cloth (horizontal then vertical, grid order), two float4 position loads at the int2 ends, eight float atomicAdd into float4 deltas (the pinned top row's corrections zero)");
    L1("xxh32_rows100", K, "xxh32_rows100", {P("XX_IN"), S32(XXN), P("XX_OUT")}, XXN, 256,
       "xxHash32 (seed 0) of 1,000,003 fixed 100-byte rows: a thread a row, 25 uint32 loads at a 100-byte lane stride (six 16-byte stripes, one tail word)");
    L("trsm_batched_lower8", K, "trsm_batched_lower8", (TSB + 7) / 8, 1, 1, 128, 1, 1, {P("TS_L"), P("TS_B"), S32(TSB)},
      "batched TRSM: 100,003 lower-triangular 8 x 8 systems with 16 right-hand sides, a block 8 systems (the last block 3), L staged in padded shared [8][8][9], a thread a (system, column): 8 loads and 8 stores at a 64-byte row stride");
    L("householder_apply_colmajor", K, "householder_apply_colmajor", HHN, 1, 1, 256, 1, 1, {P("HH_V"), F32(g_hh_tau), P("HH_A"), S32(HHM), S32(HHN), S32(HHL)},
      "Householder reflector on a column-major panel: m 3,001, n 2,000, lda 3,003 (columns 12,012 bytes apart, so misaligned), a block a column: v . a by a block reduction, then a -= tau (v . a) v");
    L1("mxfp4_dequant_e8m0", K, "mxfp4_dequant_e8m0", {P("MX_CODES"), P("MX_SCALES"), P("MX_OUT"), S32(MXG)}, MXG, 256,
       "MXFP4 dequantization: 3,001 x 2,880 e2m1 codes, a thread 8 (a uint32), the E8M0 scale byte of its 32 (4 threads share it), bf16 out as a uint4");
    L("lora_sgmv_expand", K, "lora_sgmv_expand", LRH / 256, LRS, 1, 256, 1, 1, {P("LR_XA"), P("LR_B"), P("LR_START"), P("LR_LORA"), P("LR_Y"), S32(LRH)},
      "LoRA SGMV expand: 24 segments (1..300 tokens, loaded starts and adapter ids, -1 = none), grid 16 x 24, a thread a column: 16 B loads at a 16,384-byte stride, then per token 16 uniform xa loads and a read-modify-write of y");
    L1("ctc_greedy_decode", K, "ctc_greedy_decode", {P("CT_LP"), P("CT_LEN"), S32(CTT), S32(CTB), S32(CTC), P("CT_LAB"), P("CT_N")}, CTB, 128,
       "CTC greedy decoding: log-probabilities [300][2,048][29], a thread an utterance (16 blocks), loaded frame counts 100..300, the argmax over its 116-byte row a frame, labels stored at the running count (data-dependent), the count stored");
    L("ldmatrix_trans_hgemm_nn", K, "ldmatrix_trans_hgemm_nn", HGN / 64, HGM / 64, 1, 128, 1, 1, {P("HG_A"), P("HG_B"), P("HG_C"), S32(HGM), S32(HGN), S32(HGK)},
      "NN fp16 GEMM 1,024 x 1,024 x 512: a block a 64 x 64 tile, K steps of 32, A and B by 16-byte loads into padded shared rows (80 and 144 bytes), ldmatrix.x4 for A and ldmatrix.x4.trans for B, mma.sync m16n8k16, float2 stores");
    L("cpasync4_stencil_zfill", K, "cpasync4_stencil_zfill", (CAW + 255) / 256, CAH, 1, 256, 1, 1, {P("CA_IN"), P("CA_OUT"), S32(CAW), S32(CAH)},
      "5-point stencil on 2,001 rows of 1,001 floats (4-byte aligned rows): three rows of 258 floats a block staged by 4-byte cp.async.ca, src-size 0 (zero-fill) outside the image, grid 4 x 2,001 (the last block 233 outputs)");
    L("cpasync_mbar_rowsumsq", K, "cpasync_mbar_rowsumsq", MBR, 1, 1, 128, 1, 1, {P("MB_IN"), P("MB_OUT"), S32(MBR)},
      "row sums of squares: 3,000 rows of 4,096 floats, a block a row in four 4 KiB chunks double-buffered: 16-byte cp.async.cg, cp.async.mbarrier.arrive.noinc on the chunk's mbarrier, try_wait.parity, float4 shared reads");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind22/host.cpp. Launches run once each, in this order, on one stream. "
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
static uint32_t rotl32h(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
static float bf2f(uint16_t h) { return f32_of((uint32_t)h << 16); }
static void check_launch(const Launch &l)
{
    const std::string &id = l.id;
    auto F = [&](const char *n) { return reinterpret_cast<const float *>(buf(n).words.data()); };
    auto W = [&](const char *n) -> const std::vector<uint32_t> & { return buf(n).words; };
    if (id == "bfs_bottomup_bitmap") {
        std::vector<int32_t> par = rb<int32_t>("GR_PARENT", 0, GRN);
        std::vector<uint32_t> nx = rb<uint32_t>("GR_NEXT", 0, (GRN + 31) / 32);
        const auto &fr = W("GR_FRONT"), &p0 = W("GR_PARENT");
        size_t bad = 0, found = 0;
        for (int v = 0; v < GRN && !par.empty(); ++v) {
            int want = (int)p0[v];
            bool set = false;
            if (want < 0)
                for (int e = g_rp[v]; e < g_rp[v + 1]; ++e)
                    if ((fr[g_ci[e] >> 5] >> (g_ci[e] & 31)) & 1) { want = g_ci[e]; set = true; break; }
            found += set;
            bad += par[v] != want || (bool)((nx[v >> 5] >> (v & 31)) & 1) != set;
        }
        printf("check %s: %zu of 1,000,003 vertices differ (%zu newly visited)\n", id.c_str(), bad, found);
    } else if (id == "kcore_peel_round") {
        std::vector<int32_t> d = rb<int32_t>("KC_DEG", 0, GRN);
        std::vector<uint8_t> rm = rb<uint8_t>("KC_REMOVED", 0, GRN);
        const auto &d0 = W("KC_DEGIN");
        const uint8_t *al = bytes_of("KC_ALIVE");
        std::vector<int> ref(d0.begin(), d0.end());
        size_t bad = 0, nrm = 0;
        for (int v = 0; v < GRN; ++v)
            if (al[v] && (int)d0[v] < 6) { ++nrm; for (int e = g_rp[v]; e < g_rp[v + 1]; ++e) --ref[g_ci[e]]; }
        for (int v = 0; v < GRN && !d.empty(); ++v) bad += d[v] != ref[v] || rm[v] != (uint8_t)(al[v] && (int)d0[v] < 6);
        printf("check %s: %zu of 1,000,003 vertices differ (%zu removed)\n", id.c_str(), bad, nrm);
    } else if (id == "late_materialize_gather") {
        const auto &sel = W("LM_SEL");
        size_t n = sel.size(), bad = 0;
        std::vector<long long> o0 = rb<long long>("LM_O0", 0, n);
        std::vector<int32_t> o1 = rb<int32_t>("LM_O1", 0, n);
        std::vector<uint16_t> o2 = rb<uint16_t>("LM_O2", 0, n);
        std::vector<uint8_t> o3 = rb<uint8_t>("LM_O3", 0, n);
        const long long *c0 = reinterpret_cast<const long long *>(W("LM_C0").data());
        const int32_t *c1 = reinterpret_cast<const int32_t *>(W("LM_C1").data());
        const uint16_t *c2 = reinterpret_cast<const uint16_t *>(W("LM_C2").data());
        const uint8_t *c3 = bytes_of("LM_C3");
        for (size_t i = 0; i < n && !o3.empty(); ++i) {
            int r = (int)sel[i];
            bad += o0[i] != c0[r] || o1[i] != c1[r] || o2[i] != c2[r] || o3[i] != c3[r];
        }
        printf("check %s: %zu of %zu rows differ\n", id.c_str(), bad, n);
    } else if (id == "parquet_dict_bitpack7") {
        std::vector<float> o = rb<float>("PQ_OUT", 0, PQN);
        const auto &pk = W("PQ_PACKED");
        const float *d = F("PQ_DICT");
        size_t bad = 0;
        for (int i = 0; i < PQN && !o.empty(); ++i) {
            uint64_t bit = (uint64_t)i * 7;
            uint64_t two = pk[bit >> 5] | ((uint64_t)pk[(bit >> 5) + 1] << 32);
            bad += o[i] != d[(two >> (bit & 31)) & 127];
        }
        printf("check %s: %zu of 2,500,003 values differ\n", id.c_str(), bad);
    } else if (id == "bitmap_semi_join_probe") {
        std::vector<int32_t> cnt = rb<int32_t>("SJ_COUNT", 0, 1);
        const auto &keys = W("SJ_KEYS"), &bm = W("SJ_BITMAP");
        std::vector<int32_t> ref;
        for (int i = 0; i < SJN; ++i) {
            uint32_t h = (uint32_t)(mix64h(((uint64_t)keys[2 * i + 1] << 32) | keys[2 * i]) >> 40);
            if ((bm[h >> 5] >> (h & 31)) & 1) ref.push_back(i);
        }
        std::vector<int32_t> o = cnt.empty() ? std::vector<int32_t>() : rb<int32_t>("SJ_OUT", 0, std::min<size_t>((size_t)std::max(cnt[0], 0), SJN));
        std::sort(o.begin(), o.end());
        printf("check %s: count %d (reference %zu), sorted positions %s\n", id.c_str(), cnt.empty() ? -1 : cnt[0], ref.size(),
               o == ref ? "equal" : "DIFFER");
    } else if (id == "like_prefix_filter") {
        std::vector<uint8_t> f = rb<uint8_t>("LP_FLAG", 0, LPN);
        size_t bad = 0, hits = 0;
        for (int i = 0; i < LPN && !f.empty(); ++i) {
            int b = g_lp_offs[i], n = g_lp_offs[i + 1] - b;
            uint8_t ok = n >= 4 && !memcmp(&g_lp_chars[b], "abcd", 4);
            hits += ok; bad += f[i] != ok;
        }
        printf("check %s: %zu of 2,000,003 flags differ (%zu matches)\n", id.c_str(), bad, hits);
    } else if (id == "yuyv422_to_i444") {
        std::vector<uint8_t> y = rb<uint8_t>("YU_Y", 0, (size_t)YUW * YUH), u = rb<uint8_t>("YU_U", 0, (size_t)YUW * YUH),
                             v = rb<uint8_t>("YU_V", 0, (size_t)YUW * YUH);
        const auto &in = W("YU_IN");
        size_t bad = 0;
        for (int r = 0; r < YUH && !v.empty(); ++r)
            for (int x = 0; x < YUW; ++x) {
                uint32_t q = in[(size_t)r * YUP + x / 2];
                size_t o = (size_t)r * YUW + x;
                bad += y[o] != (uint8_t)(q >> ((x & 1) ? 16 : 0)) || u[o] != (uint8_t)(q >> 8) || v[o] != (uint8_t)(q >> 24);
            }
        printf("check %s: %zu of 1,049,088 pixels differ\n", id.c_str(), bad);
    } else if (id == "jpeg_dequant_zigzag_idct") {
        std::vector<uint8_t> img = rb<uint8_t>("JP_IMG", 0, (size_t)JPW * JPH);
        static const int zz[64] = {0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
                                   41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
                                   30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};
        const int16_t *co = reinterpret_cast<const int16_t *>(W("JP_COEF").data());
        const uint16_t *qt = reinterpret_cast<const uint16_t *>(W("JP_QT").data());
        size_t off1 = 0, off2 = 0;
        for (int by = 0; by < JBH && !img.empty(); ++by)
            for (int bx = 0; bx < JBW; ++bx) {
                double c[8][8];
                for (int k = 0; k < 64; ++k) c[zz[k] >> 3][zz[k] & 7] = co[((size_t)by * JBW + bx) * 64 + k] * (double)qt[zz[k]];
                for (int y = 0; y < 8; ++y)
                    for (int x = 0; x < 8; ++x) {
                        double s = 0;
                        for (int v = 0; v < 8; ++v)
                            for (int u = 0; u < 8; ++u)
                                s += (u ? 0.5 : 0.35355339) * (v ? 0.5 : 0.35355339) * c[v][u] * cos((2 * x + 1) * u * M_PI / 16) * cos((2 * y + 1) * v * M_PI / 16);
                        int p = std::min(255, std::max(0, (int)lround(s) + 128));
                        int d = abs(p - (int)img[(size_t)(by * 8 + y) * JPW + bx * 8 + x]);
                        off1 += d > 0; off2 += d > 1;
                    }
            }
        printf("check %s: %zu of 2,073,600 pixels off by one or more, %zu by more than one\n", id.c_str(), off1, off2);
    } else if (id == "lut16_tonemap_u16") {
        std::vector<uint8_t> o = rb<uint8_t>("LU_OUT", 0, (size_t)LUN * 2);
        const auto &in = W("LU_IN");
        const float *lut = F("LU_LUT");
        size_t bad = 0;
        for (size_t i = 0; i < (size_t)LUN * 2 && !o.empty(); ++i) {
            uint32_t p = (in[i / 2] >> ((i & 1) * 16)) & 0xffff;
            bad += o[i] != (uint8_t)fminf(255.f, lut[p] * 0.98f);
        }
        printf("check %s: %zu of 12,000,000 pixels differ\n", id.c_str(), bad);
    } else if (id == "label_bbox_shared_atomics") {
        std::vector<int32_t> b = rb<int32_t>("LB_BOX", 0, LBL * 4);
        std::vector<int> ref(LBL * 4);
        for (int k = 0; k < LBL; ++k) { ref[k * 4] = ref[k * 4 + 1] = 0x7fffffff; ref[k * 4 + 2] = ref[k * 4 + 3] = -1; }
        const auto &lab = W("LB_LAB");
        for (int y = 0; y < LBH; ++y)
            for (int x = 0; x < LBW; ++x) {
                int k = (int)lab[(size_t)y * LBW + x];
                if (k < 0) continue;
                ref[k * 4] = std::min(ref[k * 4], x); ref[k * 4 + 1] = std::min(ref[k * 4 + 1], y);
                ref[k * 4 + 2] = std::max(ref[k * 4 + 2], x); ref[k * 4 + 3] = std::max(ref[k * 4 + 3], y);
            }
        size_t bad = 0;
        for (int k = 0; k < LBL * 4 && !b.empty(); ++k) bad += b[k] != ref[k];
        printf("check %s: %zu of 256 box sides differ\n", id.c_str(), bad);
    } else if (id == "pbd_distance_jacobi") {
        std::vector<float> d = rb<float>("PB_DELTA", 0, (size_t)PBS * PBS * 4);
        std::vector<double> ref((size_t)PBS * PBS * 4, 0.0);
        const float *p = F("PB_POS"), *rest = F("PB_REST");
        const auto &ed = W("PB_EDGES");
        for (int e = 0; e < PBE; ++e) {
            int i = (int)ed[2 * e], j = (int)ed[2 * e + 1];
            double dx = p[j * 4] - p[i * 4], dy = p[j * 4 + 1] - p[i * 4 + 1], dz = p[j * 4 + 2] - p[i * 4 + 2];
            double len = sqrt(dx * dx + dy * dy + dz * dz), ws = p[i * 4 + 3] + p[j * 4 + 3];
            if (len < 1e-9 || ws <= 0) continue;
            double c = 0.8 * (len - rest[e]) / (len * ws);
            ref[i * 4] += p[i * 4 + 3] * c * dx; ref[i * 4 + 1] += p[i * 4 + 3] * c * dy; ref[i * 4 + 2] += p[i * 4 + 3] * c * dz; ref[i * 4 + 3] += 1;
            ref[j * 4] -= p[j * 4 + 3] * c * dx; ref[j * 4 + 1] -= p[j * 4 + 3] * c * dy; ref[j * 4 + 2] -= p[j * 4 + 3] * c * dz; ref[j * 4 + 3] += 1;
        }
        double worst = 0;
        for (size_t k = 0; k < ref.size() && !d.empty(); ++k) worst = std::max(worst, fabs(ref[k] - d[k]));
        printf("check %s: max abs error %.2e\n", id.c_str(), worst);
    } else if (id == "xxh32_rows100") {
        std::vector<uint32_t> o = rb<uint32_t>("XX_OUT", 0, XXN);
        const auto &in = W("XX_IN");
        const uint32_t P1 = 2654435761u, P2 = 2246822519u, P3 = 3266489917u, P4 = 668265263u;
        size_t bad = 0;
        for (int r = 0; r < XXN && !o.empty(); ++r) {
            const uint32_t *p = &in[(size_t)r * 25];
            uint32_t v[4] = {P1 + P2, P2, 0, 0u - P1};
            for (int s = 0; s < 6; ++s)
                for (int k = 0; k < 4; ++k) v[k] = rotl32h(v[k] + p[4 * s + k] * P2, 13) * P1;
            uint32_t h = rotl32h(v[0], 1) + rotl32h(v[1], 7) + rotl32h(v[2], 12) + rotl32h(v[3], 18) + 100u;
            h = rotl32h(h + p[24] * P3, 17) * P4;
            h ^= h >> 15; h *= P2; h ^= h >> 13; h *= P3; h ^= h >> 16;
            bad += o[r] != h;
        }
        printf("check %s: %zu of 1,000,003 hashes differ\n", id.c_str(), bad);
    } else if (id == "trsm_batched_lower8") {
        std::vector<float> o = rb<float>("TS_B", 0, (size_t)TSB * 128);
        const float *L = F("TS_L"), *B = F("TS_B");
        double worst = 0;
        for (size_t s = 0; s < (size_t)TSB && !o.empty(); ++s)
            for (int c = 0; c < 16; ++c) {
                double x[8];
                for (int i = 0; i < 8; ++i) {
                    double v = B[s * 128 + i * 16 + c];
                    for (int k = 0; k < i; ++k) v -= L[s * 64 + i * 8 + k] * x[k];
                    x[i] = v / L[s * 64 + i * 9];
                    worst = std::max(worst, fabs(x[i] - o[s * 128 + i * 16 + c]));
                }
            }
        printf("check %s: max abs error %.2e\n", id.c_str(), worst);
    } else if (id == "householder_apply_colmajor") {
        std::vector<float> o = rb<float>("HH_A", 0, (size_t)HHL * HHN);
        const float *v = F("HH_V"), *A = F("HH_A");
        double worst = 0;
        for (int j = 0; j < HHN && !o.empty(); ++j) {
            double d = 0;
            for (int i = 0; i < HHM; ++i) d += (double)v[i] * A[(size_t)j * HHL + i];
            for (int i = 0; i < HHL; ++i) {
                double want = i < HHM ? A[(size_t)j * HHL + i] - g_hh_tau * d * v[i] : A[(size_t)j * HHL + i];
                worst = std::max(worst, fabs(want - o[(size_t)j * HHL + i]));
            }
        }
        printf("check %s: max abs error %.2e\n", id.c_str(), worst);
    } else if (id == "mxfp4_dequant_e8m0") {
        std::vector<uint16_t> o = rb<uint16_t>("MX_OUT", 0, (size_t)MXG * 8);
        const auto &cw = W("MX_CODES");
        const uint8_t *sc = bytes_of("MX_SCALES");
        static const float e2m1[8] = {0.f, 0.5f, 1.f, 1.5f, 2.f, 3.f, 4.f, 6.f};
        double worst = 0;
        for (size_t i = 0; i < (size_t)MXG * 8 && !o.empty(); ++i) {
            uint32_t c = (cw[i / 8] >> (4 * (i & 7))) & 15;
            float want = e2m1[c & 7] * ldexpf(1.f, (sc[i / 32] ? sc[i / 32] : 1) - 127) * ((c & 8) ? -1.f : 1.f);
            worst = std::max(worst, (double)fabsf(want - bf2f(o[i])) / std::max(1e-30f, fabsf(want)) * (want != 0.f) + (want == 0.f ? fabsf(bf2f(o[i])) : 0.f));
        }
        printf("check %s: max rel. error %.2e\n", id.c_str(), worst);
    } else if (id == "lora_sgmv_expand") {
        std::vector<float> o = rb<float>("LR_Y", 0, (size_t)g_lr_tokens * LRH);
        const float *xa = F("LR_XA"), *Bw = F("LR_B"), *y = F("LR_Y");
        double worst = 0;
        for (int s = 0; s < LRS && !o.empty(); ++s)
            for (int t = g_lr_start[s]; t < g_lr_start[s + 1]; ++t)
                for (int h = 0; h < LRH; ++h) {
                    double acc = y[(size_t)t * LRH + h];
                    if (g_lr_lora[s] >= 0)
                        for (int r = 0; r < 16; ++r) acc += (double)xa[t * 16 + r] * Bw[((size_t)g_lr_lora[s] * 16 + r) * LRH + h];
                    worst = std::max(worst, fabs(acc - o[(size_t)t * LRH + h]));
                }
        printf("check %s: max abs error %.2e over %d tokens\n", id.c_str(), worst, g_lr_tokens);
    } else if (id == "ctc_greedy_decode") {
        std::vector<int32_t> lab = rb<int32_t>("CT_LAB", 0, (size_t)CTB * CTT), n = rb<int32_t>("CT_N", 0, CTB);
        const float *lp = F("CT_LP");
        const auto &len = W("CT_LEN");
        size_t bad = 0, tot = 0;
        for (int b = 0; b < CTB && !n.empty(); ++b) {
            int prev = 0, cnt = 0;
            bool ok = true;
            for (int t = 0; t < (int)len[b]; ++t) {
                const float *row = lp + ((size_t)t * CTB + b) * CTC;
                int arg = 0;
                for (int c = 1; c < CTC; ++c) if (row[c] > row[arg]) arg = c;
                if (arg != 0 && arg != prev) { ok = ok && lab[(size_t)b * CTT + cnt] == arg; ++cnt; }
                prev = arg;
            }
            tot += cnt;
            bad += !ok || n[b] != cnt;
        }
        printf("check %s: %zu of 2,048 utterances differ (%zu labels)\n", id.c_str(), bad, tot);
    } else if (id == "ldmatrix_trans_hgemm_nn") {
        std::vector<float> o = rb<float>("HG_C", 0, (size_t)HGM * HGN);
        const uint16_t *a = reinterpret_cast<const uint16_t *>(W("HG_A").data()), *b = reinterpret_cast<const uint16_t *>(W("HG_B").data());
        double worst = 0;
        Lcg g(98);
        for (int s = 0; s < 20000 && !o.empty(); ++s) {
            int r = (int)(g.next() % HGM), c = (int)(g.next() % HGN);
            double acc = 0;
            for (int k = 0; k < HGK; ++k) acc += (double)half_to_float(a[(size_t)r * HGK + k]) * half_to_float(b[(size_t)k * HGN + c]);
            worst = std::max(worst, fabs(acc - o[(size_t)r * HGN + c]));
        }
        printf("check %s: max abs error %.2e over 20,000 sampled outputs\n", id.c_str(), worst);
    } else if (id == "cpasync4_stencil_zfill") {
        std::vector<float> o = rb<float>("CA_OUT", 0, (size_t)CAW * CAH);
        const float *in = F("CA_IN");
        auto at = [&](int y, int x) -> double { return (y < 0 || y >= CAH || x < 0 || x >= CAW) ? 0.0 : in[(size_t)y * CAW + x]; };
        double worst = 0;
        for (int y = 0; y < CAH && !o.empty(); ++y)
            for (int x = 0; x < CAW; ++x) {
                double want = 0.5 * at(y, x) + 0.125 * (at(y - 1, x) + at(y + 1, x) + at(y, x - 1) + at(y, x + 1));
                worst = std::max(worst, fabs(want - o[(size_t)y * CAW + x]));
            }
        printf("check %s: max abs error %.2e\n", id.c_str(), worst);
    } else if (id == "cpasync_mbar_rowsumsq") {
        std::vector<float> o = rb<float>("MB_OUT", 0, MBR);
        const float *in = F("MB_IN");
        double worst = 0;
        for (int r = 0; r < MBR && !o.empty(); ++r) {
            double s = 0;
            for (int k = 0; k < 4096; ++k) s += (double)in[(size_t)r * 4096 + k] * in[(size_t)r * 4096 + k];
            worst = std::max(worst, fabs(s - o[r]) / s);
        }
        printf("check %s: max rel. error %.2e\n", id.c_str(), worst);
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
