// warpscope sixteenth held-out batch (tests/hw/blind16): host program, copied from tests/hw/blind13/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules,
// launch table and checks are the sixteenth blind batch's; no tensor map is used).
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


static const uint64_t SEED_GS = 1601;
static const uint64_t SEED_POS = 1602;
static const uint64_t SEED_GRID = 1603;
static const uint64_t SEED_XYZ = 1604;
static const uint64_t SEED_DCN = 1605;
static const uint64_t SEED_SP = 1606;
static const uint64_t SEED_CTC = 1607;
static const uint64_t SEED_LSTM = 1608;
static const uint64_t SEED_MC = 1609;
static const uint64_t SEED_SW = 1610;
static const uint64_t SEED_CHA = 1611;
static const uint64_t SEED_HJ = 1612;
static const uint64_t SEED_RAD = 1613;
static const uint64_t SEED_FFT = 1614;
static const uint64_t SEED_NZ = 1615;
static const uint64_t SEED_CS = 1616;
static const uint64_t SEED_SC = 1617;
static const uint64_t SEED_IN = 1618;
static const uint64_t SEED_BF = 1619;
static const uint64_t SEED_JAC = 1620;
static const std::vector<std::pair<const char *, uint64_t>> SEEDS = {
    {"GS_* (one stream)", SEED_GS}, {"HG_POS", SEED_POS}, {"HG_GRID", SEED_GRID}, {"XYZ", SEED_XYZ},
    {"DCN_* (one stream)", SEED_DCN}, {"SP_* (one stream)", SEED_SP}, {"CTC_* (one stream)", SEED_CTC},
    {"LSTM_* (one stream)", SEED_LSTM}, {"MC_VOL", SEED_MC}, {"SW_* (one stream)", SEED_SW},
    {"CHA_* (one stream)", SEED_CHA}, {"HJ_* (one stream)", SEED_HJ}, {"RAD_KEYS", SEED_RAD},
    {"FFT_IN", SEED_FFT}, {"NZ_X", SEED_NZ}, {"CS_IN", SEED_CS}, {"SC_* (one stream)", SEED_SC},
    {"IN_* (one stream)", SEED_IN}, {"BF_X", SEED_BF}, {"JAC_IN", SEED_JAC}};

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


// sizes of the batch
static const int GW = 256, GH = 192, GTX = 16, GTY = 12, GNG = 10000;  // gaussian splatting
static int g_gs_list = 0;
static const int HN = 131072, HL = 8, HLOG2T = 15, HBASE = 16;    // hash grid
static const int BQB = 8, BQN = 8192, BQM = 1024, BQS = 32;       // ball query
static const float BQR2 = 0.0144f;
static const int FPB = 16, FPN = 4096, FPM = 256;                  // furthest point sampling
static const int DC = 32, DH = 64, DW = 64;                        // DCN im2col
static const int SPN = 16384, SPK = 27, SPP = 8192;                // spconv
static const int CB = 32, CT = 160, CV = 64, CL = 50;              // CTC
static const int LB = 128, LH = 1000;                              // LSTM
static const int MCN = 96;                                         // marching cubes
static const int SWP = 512;                                        // Smith-Waterman
static const long long CHN = 3999971;                              // ChaCha20 bytes
static const int HJLOG = 20, HJBUILD = 600000, HJPROBE = 1000000;  // hash join
static const int RN = 1000003, RCAP = 70000, RSHIFT = 8;           // radix partition
static const int FB = 1024;                                        // FFT batch
static const int NZR = 2000, NZC = 1999;                           // nonzero
static const int CSA = 16, CSL = 500, CSB = 1000;                  // cumsum
static const int SCR = 4096, SCC = 300, SCO = 512;                 // scatter amax
static const int INN = 4, INC = 64;                                // instance norm (4,096-float planes)
static const long long BFN = 3000001;                              // bf16 GELU
static const int JN = 1000;                                        // Jacobi

static uint16_t f2bf(float f)
{
    uint32_t x; memcpy(&x, &f, 4);
    uint32_t r = x + 0x7FFFu + ((x >> 16) & 1);
    return (uint16_t)(r >> 16);
}
static float bf2f(uint16_t h) { uint32_t x = (uint32_t)h << 16; float f; memcpy(&f, &x, 4); return f; }
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
static uint32_t fmix32h(uint32_t h)
{
    h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
    return h;
}
static int mc_nv(int c) { return (c == 0 || c == 255) ? 0 : 3 * (1 + ((c * 7 + (c >> 3)) % 4)); }

// host copies needed by the checks
static std::vector<int> g_ctc_in, g_ctc_tl;

static void make_buffers()
{
    add_fill("OUT", 64u << 20, 0u, "zero: outputs (each launch its own region, see the launch notes)");
    add_fill("OUT2", 32u << 20, 0u, "zero: second outputs");
    add_fill("SP_OUT", (size_t)SPN * 32 * 4, 0u, "spconv: output features [16,384][32] float, zero");
    {
        // 3DGS: gaussians with means in the image, axis-aligned-then-rotated covariances, tiles overlapped by
        // their 3-sigma radius, (tile, depth) keys sorted on the CPU
        Lcg g(SEED_GS);
        std::vector<float> mean(GNG * 2), co(GNG * 4), col(GNG * 3), depth(GNG);
        std::vector<std::pair<std::pair<int, float>, int>> keys;
        for (int k = 0; k < GNG; ++k) {
            float mx = u01(g) * GW, my = u01(g) * GH;
            float sx = 1.5f + 6.5f * u01(g), sy = 1.5f + 6.5f * u01(g), th = 3.14159265f * u01(g);
            float c = cosf(th), s = sinf(th);
            float a = c * c * sx * sx + s * s * sy * sy, b = c * s * (sx * sx - sy * sy), d = s * s * sx * sx + c * c * sy * sy;
            float det = a * d - b * b;
            mean[k * 2] = mx; mean[k * 2 + 1] = my;
            co[k * 4] = d / det; co[k * 4 + 1] = -b / det; co[k * 4 + 2] = a / det; co[k * 4 + 3] = 0.2f + 0.75f * u01(g);
            for (int ch = 0; ch < 3; ++ch) col[k * 3 + ch] = u01(g);
            depth[k] = u01(g);
            float r = ceilf(3.0f * std::max(sx, sy));
            int x0 = std::max(0, (int)((mx - r) / 16)), x1 = std::min(GTX, (int)((mx + r + 15) / 16));
            int y0 = std::max(0, (int)((my - r) / 16)), y1 = std::min(GTY, (int)((my + r + 15) / 16));
            for (int ty = y0; ty < y1; ++ty)
                for (int tx = x0; tx < x1; ++tx) keys.push_back({{ty * GTX + tx, depth[k]}, k});
        }
        std::sort(keys.begin(), keys.end());
        std::vector<uint32_t> list(keys.size()), ranges(GTX * GTY * 2, 0);
        for (size_t i = 0; i < keys.size(); ++i) {
            list[i] = (uint32_t)keys[i].second;
            int t = keys[i].first.first;
            if (i == 0 || keys[i - 1].first.first != t) ranges[t * 2] = (uint32_t)i;
            ranges[t * 2 + 1] = (uint32_t)(i + 1);
        }
        g_gs_list = (int)list.size();
        add_words("GS_RANGES", ranges, "3DGS: [start, end) of each of the 192 tiles in GS_LIST (int2)");
        add_words("GS_LIST", list, "3DGS: gaussian ids sorted by (tile, depth) (LCG seed 1601: means, scales, angle, opacity, colours, depth a gaussian)");
        add_words("GS_MEAN", float_words(mean), "3DGS: 10,000 float2 means in 256 x 192");
        add_words("GS_CONIC", float_words(co), "3DGS: 10,000 float4 (conic a, b, c, opacity)");
        add_words("GS_COLOR", float_words(col), "3DGS: 10,000 x 3 float colours");
    }
    add_words("HG_POS", rand_floats((size_t)3 * HN, SEED_POS, 0.0f, 1.0f), "hash grid: positions SoA [3][131,072] in [0, 1) (LCG seed 1602)");
    {
        Lcg g(SEED_GRID);
        std::vector<uint32_t> w((size_t)HL << HLOG2T);
        for (auto &x : w) x = (uint32_t)f2h(u01(g) * 2.0f - 1.0f) | ((uint32_t)f2h(u01(g) * 2.0f - 1.0f) << 16);
        add_words("HG_GRID", w, "hash grid: 8 levels x 32,768 half2 features in (-1, 1) (LCG seed 1603)");
    }
    add_words("XYZ", rand_floats((size_t)BQB * BQN * 3, SEED_XYZ, 0.0f, 1.0f),
              "point clouds: 8 x 8,192 (ball query) = 16 x 4,096 (FPS) xyz floats in [0, 1) (LCG seed 1604)");
    add_fill("FPS_TEMP", (size_t)FPB * FPN * 4, 0x501502F9u, "FPS temp: 1e10f");
    {
        Lcg g(SEED_DCN);
        std::vector<float> im((size_t)DC * DH * DW), off(18 * DH * DW), msk(9 * DH * DW);
        for (auto &v : im) v = u01(g) * 2.0f - 1.0f;
        for (auto &v : off) v = u01(g) * 4.0f - 2.0f;
        for (auto &v : msk) v = u01(g);
        add_words("DCN_IM", float_words(im), "DCN: input [32][64][64] in [-1, 1) (LCG seed 1605)");
        add_words("DCN_OFF", float_words(off), "DCN: offsets [18][64][64] in [-2, 2)");
        add_words("DCN_MASK", float_words(msk), "DCN: masks [9][64][64] in [0, 1)");
    }
    {
        Lcg g(SEED_SP);
        std::vector<uint32_t> feat((size_t)SPN * 16), wt(SPK * 32 * 16), ii((size_t)SPK * SPP, 0), oi((size_t)SPK * SPP, 0), cnt(SPK);
        for (auto &x : feat) x = (uint32_t)f2h(u01(g) * 2.0f - 1.0f) | ((uint32_t)f2h(u01(g) * 2.0f - 1.0f) << 16);
        for (auto &x : wt) x = (uint32_t)f2h(u01(g) * 0.5f - 0.25f) | ((uint32_t)f2h(u01(g) * 0.5f - 0.25f) << 16);
        for (int k = 0; k < SPK; ++k) {
            cnt[k] = 2000 + g.next() % 6000;
            std::vector<int32_t> perm = permutation(SPN, SEED_SP * 1000 + k);
            for (uint32_t p = 0; p < cnt[k]; ++p) {
                ii[(size_t)k * SPP + p] = g.next() % SPN;
                oi[(size_t)k * SPP + p] = (uint32_t)perm[p];
            }
        }
        add_words("SP_FEAT", feat, "spconv: 16,384 x 32 fp16 input features in (-1, 1) (LCG seed 1606)");
        add_words("SP_W", wt, "spconv: 27 x 32 x 32 fp16 weights in (-0.25, 0.25)");
        add_words("SP_IN", ii, "spconv rulebook: input rows next() % 16,384, 8,192 slots an offset");
        add_words("SP_OUTI", oi, "spconv rulebook: output rows, the first count of permutation(16,384, 1606000 + k)");
        add_words("SP_CNT", cnt, "spconv rulebook: pairs an offset, 2,000 + next() % 6,000");
    }
    {
        Lcg g(SEED_CTC);
        std::vector<float> lp((size_t)CT * CB * CV);
        for (size_t r = 0; r < (size_t)CT * CB; ++r) {
            float mx = -1e30f, s = 0.0f;
            for (int v = 0; v < CV; ++v) { lp[r * CV + v] = 4.0f * u01(g) - 2.0f; mx = std::max(mx, lp[r * CV + v]); }
            for (int v = 0; v < CV; ++v) s += expf(lp[r * CV + v] - mx);
            float lse = mx + logf(s);
            for (int v = 0; v < CV; ++v) lp[r * CV + v] -= lse;
        }
        std::vector<uint32_t> tg((size_t)CB * CL, 0), il(CB), tl(CB);
        g_ctc_in.assign(CB, 0); g_ctc_tl.assign(CB, 0);
        for (int b = 0; b < CB; ++b) {
            il[b] = 120 + g.next() % 41;
            tl[b] = 10 + g.next() % 41;
            g_ctc_in[b] = (int)il[b]; g_ctc_tl[b] = (int)tl[b];
            for (int k = 0; k < CL; ++k) tg[(size_t)b * CL + k] = 1 + g.next() % (CV - 1);
        }
        add_words("CTC_LP", float_words(lp), "CTC: log_softmax of uniform(-2, 2) logits, [160][32][64] (LCG seed 1607)");
        add_words("CTC_TG", tg, "CTC: targets [32][50], labels 1 + next() % 63");
        add_words("CTC_IL", il, "CTC: input lengths 120 + next() % 41");
        add_words("CTC_TL", tl, "CTC: target lengths 10 + next() % 41");
    }
    {
        Lcg g(SEED_LSTM);
        auto rf = [&](size_t n, float s) { std::vector<float> v(n); for (auto &x : v) x = s * (u01(g) * 2.0f - 1.0f); return float_words(v); };
        add_words("LSTM_IG", rf((size_t)LB * 4 * LH, 2.0f), "LSTM: input gates [128][4,000] in (-2, 2) (LCG seed 1608)");
        add_words("LSTM_HG", rf((size_t)LB * 4 * LH, 2.0f), "LSTM: hidden gates [128][4,000] in (-2, 2)");
        add_words("LSTM_BIH", rf(4 * LH, 0.5f), "LSTM: b_ih [4,000]");
        add_words("LSTM_BHH", rf(4 * LH, 0.5f), "LSTM: b_hh [4,000]");
        add_words("LSTM_CX", rf((size_t)LB * LH, 1.0f), "LSTM: c_x [128][1,000]");
    }
    {
        Lcg g(SEED_MC);
        std::vector<float> vol((size_t)MCN * MCN * MCN);
        for (int z = 0; z < MCN; ++z)
            for (int y = 0; y < MCN; ++y)
                for (int x = 0; x < MCN; ++x) {
                    float dx = x - 47.5f, dy = y - 47.5f, dz = z - 47.5f;
                    vol[((size_t)z * MCN + y) * MCN + x] = sqrtf(dx * dx + dy * dy + dz * dz) / 48.0f + 0.1f * u01(g);
                }
        add_words("MC_VOL", float_words(vol), "marching cubes: 96^3 floats, distance from the centre / 48 + 0.1 u (LCG seed 1609)");
        std::vector<uint32_t> tri(256 * 16);
        for (int c = 0; c < 256; ++c)
            for (int e = 0; e < 16; ++e) tri[c * 16 + e] = e < mc_nv(c) ? (uint32_t)((c * 5 + e * 3) % 12) : 0xFFFFFFFFu;
        add_words("MC_TRI", tri, "marching cubes: triangle table [256][16], (5 c + 3 e) % 12 below the vertex count, else -1");
    }
    {
        Lcg g(SEED_SW);
        std::vector<uint8_t> q((size_t)SWP * 128), t((size_t)SWP * 256);
        std::vector<uint32_t> ql(SWP), tl(SWP);
        for (int p = 0; p < SWP; ++p) { ql[p] = 64 + g.next() % 65; tl[p] = 128 + g.next() % 129; }
        for (auto &c : q) c = (uint8_t)(g.next() % 4);
        for (auto &c : t) c = (uint8_t)(g.next() % 4);
        add_words("SW_Q", bytes_to_words(q), "Smith-Waterman: 512 queries of 128 bytes (0..3) (LCG seed 1610, after the lengths)");
        add_words("SW_T", bytes_to_words(t), "Smith-Waterman: 512 targets of 256 bytes (0..3)");
        add_words("SW_QL", ql, "Smith-Waterman: query lengths 64 + next() % 65");
        add_words("SW_TL", tl, "Smith-Waterman: target lengths 128 + next() % 129");
    }
    {
        Lcg g(SEED_CHA);
        std::vector<uint32_t> kn(11);
        for (auto &x : kn) x = g.next();
        add_words("CHA_KEY", kn, "ChaCha20: 8 key words and 3 nonce words, next() (LCG seed 1611)");
        add_words("CHA_IN", lcg_words((size_t)(CHN + 3) / 4, SEED_CHA + 100), "ChaCha20: 3,999,971 message bytes, next() words (LCG seed 1711)");
    }
    {
        Lcg g(SEED_HJ);
        const uint32_t cap = 1u << HJLOG, mask = cap - 1;
        std::vector<uint32_t> keys(cap, 0xFFFFFFFFu), vals(cap, 0), built, probe(HJPROBE);
        while ((int)built.size() < HJBUILD) {
            uint32_t k = g.next() & 0x7FFFFFFFu;
            uint32_t h = fmix32h(k) & mask;
            bool dup = false;
            while (keys[h] != 0xFFFFFFFFu) { if (keys[h] == k) { dup = true; break; } h = (h + 1) & mask; }
            if (dup) continue;
            keys[h] = k; vals[h] = k ^ 0x5bd1e995u;
            built.push_back(k);
        }
        for (int i = 0; i < HJPROBE; ++i) probe[i] = (i & 1) ? (g.next() & 0x7FFFFFFFu) : built[g.next() % HJBUILD];
        add_words("HJ_KEYS", keys, "hash join: 2^20 slots, 600,000 keys next() & 0x7fffffff by murmur3 fmix32 and linear probing, EMPTY = -1 (LCG seed 1612)");
        add_words("HJ_VALS", vals, "hash join: payload key ^ 0x5bd1e995");
        add_words("HJ_PROBE", probe, "hash join: 1,000,000 probe keys, even i a built key, odd i next() & 0x7fffffff");
    }
    add_words("RAD_KEYS", lcg_words(RN, SEED_RAD), "radix partition: 1,000,003 next() keys (LCG seed 1613)");
    add_fill("RAD_CUR", 64, 0u, "radix partition: 16 bucket cursors, zero");
    add_words("FFT_IN", rand_floats((size_t)FB * 2048, SEED_FFT, -1.0f, 1.0f), "FFT: 1,024 x 1,024 complex float2 in [-1, 1) (LCG seed 1614)");
    {
        Lcg g(SEED_NZ);
        std::vector<float> x((size_t)NZR * NZC);
        for (auto &v : x) { float u = u01(g); v = u < 0.3f ? u + 0.5f : 0.0f; }
        add_words("NZ_X", float_words(x), "nonzero: 2,000 x 1,999 floats, u + 0.5 where u < 0.3, else 0 (LCG seed 1615)");
    }
    add_fill("NZ_CNT", 16, 0u, "nonzero: count, zero");
    add_words("CS_IN", rand_floats((size_t)CSA * CSL * CSB, SEED_CS, -1.0f, 1.0f), "cumsum: [16][500][1,000] floats in [-1, 1) (LCG seed 1616)");
    {
        Lcg g(SEED_SC);
        std::vector<uint32_t> src((size_t)SCR * SCC), idx((size_t)SCR * SCC * 2);
        for (auto &x : src) x = fbits(u01(g) * 2.0f - 1.0f);
        for (size_t i = 0; i < (size_t)SCR * SCC; ++i) { idx[2 * i] = g.next() % SCO; idx[2 * i + 1] = 0; }
        add_words("SC_SRC", src, "scatter amax: src [4,096][300] floats in [-1, 1) (LCG seed 1617)");
        add_words("SC_IDX", idx, "scatter amax: int64 index [4,096][300], next() % 512");
        add_fill("SC_OUT", (size_t)SCO * SCC * 4, 0xFF800000u, "scatter amax: out [512][300], -inf");
    }
    {
        Lcg g(SEED_IN);
        std::vector<float> x((size_t)INN * INC * 4096), ga(INC), be(INC);
        for (size_t i = 0; i < x.size(); ++i) x[i] = 3.0f * u01(g) + (float)((i / 4096) % 7);
        for (auto &v : ga) v = 0.5f + u01(g);
        for (auto &v : be) v = u01(g) - 0.5f;
        add_words("IN_X", float_words(x), "instance norm: [4][64][64 x 64] floats, 3 u + (plane % 7) (LCG seed 1618)");
        add_words("IN_G", float_words(ga), "instance norm: gamma [64]");
        add_words("IN_B", float_words(be), "instance norm: beta [64]");
    }
    {
        Lcg g(SEED_BF);
        std::vector<uint16_t> h((size_t)BFN + 8);
        for (auto &v : h) v = f2bf(u01(g) * 6.0f - 3.0f);
        std::vector<uint32_t> w((h.size() + 1) / 2, 0);
        memcpy(w.data(), h.data(), h.size() * 2);
        add_words("BF_X", w, "bf16 GELU: 3,000,009 bf16 in [-3, 3) (LCG seed 1619); the kernel reads 3,000,001 from element 2 (byte 4)");
    }
    add_words("JAC_IN", rand_floats((size_t)JN * JN, SEED_JAC, 0.0f, 1.0f), "Jacobi: 1,000 x 1,000 floats in [0, 1) (LCG seed 1620)");
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
    {"blind16", "tests/hw/blind16/blind16.ptx"},
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
    const char *K = "blind16";
    L("gs_tile_raster", K, "gs_tile_raster", GTX * GTY, 1, 1, 256, 1, 1,
      {P("GS_RANGES"), P("GS_LIST"), P("GS_MEAN"), P("GS_CONIC"), P("GS_COLOR"), P("OUT"), P("OUT2"), S32(GW), S32(GH), S32(GTX)},
      "3D Gaussian splatting forward rasterizer: 256 x 192 image, 192 tiles of 16 x 16 (a block a tile), 10,000 gaussians binned by their 3-sigma radius and sorted by (tile, depth) on the CPU; batches of 256 ids, float2 means and float4 conics collected into shared memory at the loaded ids, front-to-back blending to T < 1e-4, early out by __syncthreads_count, colours [3][H][W] at OUT, final T at OUT2");
    L("hashgrid_encode", K, "hashgrid_encode", HN / 128, HL, 1, 128, 1, 1,
      {P("HG_POS"), P("HG_GRID"), P("OUT"), S32(HN), S32(HLOG2T), S32(HBASE)},
      "tiny-cuda-nn-style multi-resolution hash encoding: 131,072 points (SoA [3][N]), 8 levels (blockIdx.y) of resolution 16 << l, 2^15 half2 entries a level, dense indexing at levels 0 and 1 (res^3 <= 2^15), spatial hash after; 8 trilinear corner gathers, output [16][N] floats");
    L("ball_query", K, "ball_query", BQM / 256, BQB, 1, 256, 1, 1,
      {S32(BQB), S32(BQN), S32(BQM), F32(BQR2), S32(BQS), P("XYZ"), P("XYZ"), P("OUT")},
      "PointNet++ ball query: 8 batches of 8,192 points (AoS xyz), centroids new_xyz [8][1,024][3] = the first 8,192 points of the same buffer, radius 0.12, nsample 32: each thread scans the batch's points in order until 32 are found (data-dependent exit), the first hit fills the row");
    L("furthest_point_sampling", K, "furthest_point_sampling", FPB, 1, 1, 512, 1, 1,
      {S32(FPB), S32(FPN), S32(FPM), P("XYZ"), P("FPS_TEMP"), P("OUT")},
      "PointNet++ furthest point sampling: 16 batches of 4,096 points (the XYZ buffer), 256 samples, a block of 512 a batch; running minimum distances in a global temp (1e10), argmax by a 512-entry shared tree reduction each iteration");
    L("dcn_im2col_bilinear", K, "dcn_im2col_bilinear", 256, 1, 1, 256, 1, 1,
      {P("DCN_IM"), P("DCN_OFF"), P("DCN_MASK"), S32(DC), S32(DH), S32(DW), P("OUT")},
      "DCNv2 modulated deformable im2col, 3 x 3, pad 1, stride 1: 32 channels of 64 x 64, offsets in [-2, 2), a thread a (channel, pixel) in a grid-stride loop over 256 x 256 threads (2 trips), 18 offset and 9 mask loads, bilinear sampling with per-corner bounds, columns [288][4,096]");
    L("spconv_gather_mma", K, "spconv_gather_mma", SPP / 64, SPK, 1, 128, 1, 1,
      {P("SP_FEAT"), P("SP_W"), P("SP_IN"), P("SP_OUTI"), P("SP_CNT"), P("SP_OUT"), S32(SPP)},
      "spconv-style gather-GEMM-scatter over a rulebook of 27 offsets (2,000..7,999 loaded pairs each, 8,192 slots): 64 pairs a block, fp16 rows of 32 channels gathered at the loaded input rows by cp.async.cg 16 bytes (zero-fill past the count) into an 80-byte-pitch shared tile, weights likewise, ldmatrix.x4 / .x4.trans, mma.sync m16n8k16, float atomicAdd at the loaded output rows");
    L("ctc_alpha_shared", K, "ctc_alpha_shared", CB, 1, 1, 128, 1, 1,
      {P("CTC_LP"), P("CTC_TG"), P("CTC_IL"), P("CTC_TL"), P("OUT"), S32(CB), S32(CT), S32(CV), S32(CL), S32(0)},
      "CTC loss alpha recursion (PyTorch layout, log_probs [160][32][64] time-major): a block a batch item, a thread an extended-label state (S = 2 L + 1, L loaded 10..50), input lengths loaded (120..160), alphas double-buffered in shared memory, the label gathered from the (t, b) row, log alphas stored [32][160][101]");
    L("lstm_pointwise_gates", K, "lstm_pointwise_gates", 250, 1, 1, 256, 1, 1,
      {P("LSTM_IG"), P("LSTM_HG"), P("LSTM_BIH"), P("LSTM_BHH"), P("LSTM_CX"), P("OUT"), P("OUT", 1 << 20), P("OUT2"), S32(LB * LH), S32(LH)},
      "PyTorch's fused LSTM cell pointwise kernel: batch 128, hidden 1,000, gate rows [128][4,000] (4 gates at a stride of 1,000 floats), two biases, c_x; h_y, c_y and the gate workspace stored; grid-stride over 128,000 with 64,000 threads");
    L("mc_classify_edges", K, "mc_classify_edges", (95 * 95 * 95 + 127) / 128, 1, 1, 128, 1, 1,
      {P("MC_VOL"), S32(MCN), S32(MCN), S32(MCN), F32(0.6f), P("MC_TRI"), P("OUT"), P("OUT2")},
      "marching cubes classification on a 96^3 float volume (a noisy sphere, iso 0.6): a thread a voxel (857,375), 8 corner loads, the cube index, the vertex count from a 256-byte __constant__ table, the triangle-table row (global int [256][16]) read as far as the vertex count; counts and edge sums stored");
    L("smith_waterman_antidiag", K, "smith_waterman_antidiag", SWP, 1, 1, 128, 1, 1,
      {P("SW_Q"), P("SW_T"), P("SW_QL"), P("SW_TL"), P("OUT"), S32(2), S32(-1), S32(1)},
      "Smith-Waterman local alignment score (match 2, mismatch -1, linear gap 1), anti-diagonal wavefront: a block a pair of 512, a thread a query row (loaded length 64..128), the target (loaded length 128..256) in shared bytes, three diagonals of int16 scores in shared memory, block max by a shared atomicMax");
    L("chacha20_xor_uint4", K, "chacha20_xor_uint4", (62500 + 255) / 256, 1, 1, 256, 1, 1,
      {P("CHA_IN"), P("OUT"), P("CHA_KEY"), S64(CHN), U32(1)},
      "ChaCha20 (RFC 8439) keystream XOR of 3,999,971 bytes: a thread a 64-byte block (62,500, the last 35 bytes), key and nonce loaded (11 words), four uint4 loads and stores at a 64-byte lane stride, the tail byte by byte");
    L("hash_join_probe", K, "hash_join_probe", (HJPROBE + 255) / 256, 1, 1, 256, 1, 1,
      {P("HJ_PROBE"), P("HJ_KEYS"), P("HJ_VALS"), P("OUT"), S32(HJPROBE), S32(HJLOG)},
      "hash-join probe: 1,000,000 keys (half present) into an open-addressing table of 2^20 slots (load 0.57, murmur3 fmix32, linear probing): a thread a key, probe sequence to the key or EMPTY, payload or -1 stored");
    L1("radix_partition_warp_agg", K, "radix_partition_warp_agg", {P("RAD_KEYS"), P("OUT"), P("RAD_CUR"), S32(RN), S32(RSHIFT), S32(RCAP)}, RN, 256,
       "radix partition of 1,000,003 uint32 keys by the 4-bit digit at bit 8 into 16 buckets of 70,000 slots: __match_any_sync peers, the leader's atomicAdd on the bucket cursor, __shfl_sync broadcast, popc rank, scattered 4-byte stores");
    L("stockham_fft_bulk", K, "stockham_fft_bulk", FB, 1, 1, 512, 1, 1, {P("FFT_IN"), P("OUT"), S32(FB)},
      "1,024 complex FFTs of 1,024 points: a block a transform, the input row (8,192 bytes) brought into shared memory by cp.async.bulk on an mbarrier, 10 radix-2 Stockham stages ping-ponging between two float2 shared buffers, float2 stores");
    L1("nonzero_compact", K, "nonzero_compact", {P("NZ_X"), P("OUT"), P("NZ_CNT"), S32(NZR), S32(NZC)}, NZR * NZC, 256,
       "torch.nonzero of a 2,000 x 1,999 float tensor (30% nonzero): ballot / popc ranks, warp counts scanned in shared, one atomicAdd a block, (row, col) int64 pairs stored 16 bytes at a time");
    L("cumsum_outer_dim", K, "cumsum_outer_dim", (CSB + 127) / 128, CSA, 1, 128, 1, 1, {P("CS_IN"), P("OUT"), S32(CSA), S32(CSL), S32(CSB)},
      "cumsum along dim 1 of a [16][500][1,000] float tensor: a thread a (a, b) column, 500 steps at a 4,000-byte stride, loads and stores");
    L1("scatter_amax_i64", K, "scatter_amax_i64", {P("SC_SRC"), P("SC_IDX"), P("SC_OUT"), S32(SCR), S32(SCC)}, SCR * SCC, 256,
       "scatter_reduce(dim=0, amax) of a [4,096][300] float src with int64 indices (next() % 512) into [512][300] (-inf): atomicMax on the bits of non-negative values, atomicMin (unsigned) on negative ones");
    L("instnorm_cluster_dsmem", K, "instnorm_cluster_dsmem", INN * INC * 2, 1, 1, 256, 1, 1,
      {P("IN_X"), P("IN_G"), P("IN_B"), P("OUT"), S32(INC), F32(1e-5f)},
      "instance norm forward over [4][64][4,096] floats on 2-CTA clusters (__cluster_dims__(2,1,1)): a plane a cluster, two float4 loads a thread, block sums exchanged through distributed shared memory (map_shared_rank), two-pass variance, gamma / beta by channel, float4 stores");
    L("bf16_gelu_vec4_misaligned", K, "bf16_gelu_vec4_misaligned", 512, 1, 1, 256, 1, 1, {P("BF_X", 4), P("OUT", 4), S64(BFN)},
      "bf16 tanh-GELU of 3,000,001 elements at bases 4 bytes past 8-byte alignment: 2 head elements, an 8-byte (4 x bf16) grid-stride body over 131,072 threads, a 3-element tail");
    L("jacobi2d_cpasync", K, "jacobi2d_cpasync", (JN + 31) / 32, (JN + 31) / 32, 1, 32, 8, 1, {P("JAC_IN"), P("OUT"), S32(JN), S32(JN)},
      "Jacobi 2-D (5-point average, fixed boundary) on 1,000 x 1,000 floats, temporal blocking of 4 sweeps: a 32 x 32 tile plus a halo of 4 loaded by 4-byte cp.async.ca (zero-fill outside) into a 40 x 40 shared tile, 4 sweeps between two shared tiles, interior stored (ragged last tiles)");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind16/host.cpp. Launches run once each, in this order, on one stream. "
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


static float h2f(uint16_t h) { return half_to_float(h); }
static float gelu_ref(float v) { return 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v))); }
static uint32_t rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

static void check_launch(const Launch &l)
{
    const std::string &id = l.id;
    auto W = [&](const char *n) -> const std::vector<uint32_t> & { return buf(n).words; };
    auto FW = [&](const char *n, size_t i) { return f32_of(buf(n).words[i]); };
    if (id == "gs_tile_raster") {
        std::vector<float> o = rb<float>("OUT", 0, (size_t)3 * GW * GH), ft = rb<float>("OUT2", 0, (size_t)GW * GH);
        const std::vector<uint32_t> &R = W("GS_RANGES"), &LI = W("GS_LIST");
        size_t bad = 0; float worst = 0;
        for (int py = 0; py < GH; ++py)
            for (int px = 0; px < GW; ++px) {
                int t = (py / 16) * GTX + px / 16;
                float T = 1.0f, C[3] = {0, 0, 0};
                for (uint32_t e = R[t * 2]; e < R[t * 2 + 1]; ++e) {
                    int g = (int)LI[e];
                    float dx = FW("GS_MEAN", g * 2) - px, dy = FW("GS_MEAN", g * 2 + 1) - py;
                    float a = FW("GS_CONIC", g * 4), b = FW("GS_CONIC", g * 4 + 1), c = FW("GS_CONIC", g * 4 + 2), op = FW("GS_CONIC", g * 4 + 3);
                    float power = -0.5f * (a * dx * dx + c * dy * dy) - b * dx * dy;
                    if (power > 0.0f) continue;
                    float alpha = std::min(0.99f, op * expf(power));
                    if (alpha < 1.0f / 255.0f) continue;
                    float tt = T * (1.0f - alpha);
                    if (tt < 0.0001f) break;
                    for (int ch = 0; ch < 3; ++ch) C[ch] += FW("GS_COLOR", g * 3 + ch) * alpha * T;
                    T = tt;
                }
                int pix = py * GW + px;
                float e = fabsf(ft[pix] - T);
                for (int ch = 0; ch < 3; ++ch) e = std::max(e, fabsf(o[ch * GW * GH + pix] - (C[ch] + T * 0.1f * (ch + 1))));
                worst = std::max(worst, e);
                if (e > 1e-3f) ++bad;
            }
        printf("check %s: %zu of 49,152 pixels differ by more than 1e-3 (max %.2e; %d list entries)\n", id.c_str(), bad, worst, g_gs_list);
    } else if (id == "hashgrid_encode") {
        std::vector<float> o = rb<float>("OUT", 0, (size_t)HL * 2 * HN);
        const uint16_t *G = reinterpret_cast<const uint16_t *>(W("HG_GRID").data());
        float worst = 0;
        for (int i = 0; i < HN; i += 7)
            for (int lv = 0; lv < HL; ++lv) {
                uint32_t T = 1u << HLOG2T, res = (uint32_t)HBASE << lv;
                float sc = (float)(res - 1), fr[3]; uint32_t gg[3];
                for (int d = 0; d < 3; ++d) {
                    float p = FW("HG_POS", d * HN + i) * sc;
                    gg[d] = (uint32_t)floorf(p); if (gg[d] > res - 2) gg[d] = res - 2;
                    fr[d] = p - (float)gg[d];
                }
                bool dense = (uint64_t)res * res * res <= T;
                float r0 = 0, r1 = 0;
                for (int c = 0; c < 8; ++c) {
                    uint32_t x = gg[0] + (c & 1), y = gg[1] + ((c >> 1) & 1), z = gg[2] + ((c >> 2) & 1);
                    float w = ((c & 1) ? fr[0] : 1 - fr[0]) * ((c & 2) ? fr[1] : 1 - fr[1]) * ((c & 4) ? fr[2] : 1 - fr[2]);
                    uint32_t ix = dense ? x + y * res + z * res * res : ((x * 1u) ^ (y * 2654435761u) ^ (z * 805459861u)) & (T - 1);
                    size_t e = ((size_t)lv * T + ix) * 2;
                    r0 += w * h2f(G[e]); r1 += w * h2f(G[e + 1]);
                }
                worst = std::max(worst, std::max(fabsf(o[(size_t)(lv * 2) * HN + i] - r0), fabsf(o[(size_t)(lv * 2 + 1) * HN + i] - r1)));
            }
        printf("check %s: max abs error %.2e over every 7th point, 8 levels\n", id.c_str(), worst);
    } else if (id == "ball_query") {
        std::vector<int32_t> o = rb<int32_t>("OUT", 0, (size_t)BQB * BQM * BQS);
        size_t bad = 0, full = 0;
        for (int b = 0; b < BQB; ++b)
            for (int m = 0; m < BQM; ++m) {
                // new_xyz is the same buffer read as [8][1,024][3]: centroid (b, m) is point b * 1,024 + m of the buffer
                float x = FW("XYZ", ((size_t)b * BQM + m) * 3), y = FW("XYZ", ((size_t)b * BQM + m) * 3 + 1), z = FW("XYZ", ((size_t)b * BQM + m) * 3 + 2);
                std::vector<int> ref(BQS, 0);
                int cnt = 0;
                for (int k = 0; k < BQN && cnt < BQS; ++k) {
                    float dx = FW("XYZ", ((size_t)b * BQN + k) * 3) - x, dy = FW("XYZ", ((size_t)b * BQN + k) * 3 + 1) - y, dz = FW("XYZ", ((size_t)b * BQN + k) * 3 + 2) - z;
                    if (dx * dx + dy * dy + dz * dz < BQR2) {
                        if (cnt == 0) for (auto &r : ref) r = k;
                        ref[cnt++] = k;
                    }
                }
                if (cnt == BQS) ++full;
                for (int s = 0; s < BQS; ++s) bad += o[((size_t)b * BQM + m) * BQS + s] != ref[s];
            }
        printf("check %s: %zu of 262,144 indices differ (%zu of 8,192 balls full)\n", id.c_str(), bad, full);
    } else if (id == "furthest_point_sampling") {
        std::vector<int32_t> o = rb<int32_t>("OUT", 0, (size_t)FPB * FPM);
        size_t bad = 0;
        for (int b = 0; b < FPB; ++b) {
            std::vector<float> tmp(FPN, 1e10f);
            int old = 0;
            bad += o[b * FPM] != 0;
            for (int j = 1; j < FPM; ++j) {
                float x1 = FW("XYZ", ((size_t)b * FPN + old) * 3), y1 = FW("XYZ", ((size_t)b * FPN + old) * 3 + 1), z1 = FW("XYZ", ((size_t)b * FPN + old) * 3 + 2);
                float best = -1; int bi = 0;
                for (int k = 0; k < FPN; ++k) {
                    float x2 = FW("XYZ", ((size_t)b * FPN + k) * 3), y2 = FW("XYZ", ((size_t)b * FPN + k) * 3 + 1), z2 = FW("XYZ", ((size_t)b * FPN + k) * 3 + 2);
                    float d = (x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1) + (z2 - z1) * (z2 - z1);
                    tmp[k] = std::min(d, tmp[k]);
                    if (tmp[k] > best) { best = tmp[k]; bi = k; }
                }
                old = bi;
                bad += o[b * FPM + j] != old;
            }
        }
        printf("check %s: %zu of 4,096 sample indices differ\n", id.c_str(), bad);
    } else if (id == "dcn_im2col_bilinear") {
        std::vector<float> o = rb<float>("OUT", 0, (size_t)DC * 9 * DH * DW);
        float worst = 0;
        const int HW = DH * DW;
        for (int c = 0; c < DC; ++c)
            for (int h = 0; h < DH; ++h)
                for (int w = 0; w < DW; ++w)
                    for (int k = 0; k < 9; ++k) {
                        float oh = FW("DCN_OFF", (2 * k) * HW + h * DW + w), ow = FW("DCN_OFF", (2 * k + 1) * HW + h * DW + w), m = FW("DCN_MASK", k * HW + h * DW + w);
                        float hi = (float)(h - 1 + k / 3) + oh, wi = (float)(w - 1 + k % 3) + ow;
                        float v = 0;
                        if (hi > -1 && wi > -1 && hi < DH && wi < DW) {
                            int hl = (int)floorf(hi), wl = (int)floorf(wi), hh_ = hl + 1, wh = wl + 1;
                            float lh = hi - hl, lw = wi - wl, a = 1 - lh, bq = 1 - lw;
                            auto I = [&](int y, int x) { return FW("DCN_IM", (size_t)c * HW + y * DW + x); };
                            float v1 = (hl >= 0 && wl >= 0) ? I(hl, wl) : 0, v2 = (hl >= 0 && wh <= DW - 1) ? I(hl, wh) : 0;
                            float v3 = (hh_ <= DH - 1 && wl >= 0) ? I(hh_, wl) : 0, v4 = (hh_ <= DH - 1 && wh <= DW - 1) ? I(hh_, wh) : 0;
                            v = a * bq * v1 + a * lw * v2 + lh * bq * v3 + lh * lw * v4;
                        }
                        worst = std::max(worst, fabsf(o[((size_t)c * 9 + k) * HW + h * DW + w] - v * m));
                    }
        printf("check %s: max abs error %.2e over 1,179,648 columns\n", id.c_str(), worst);
    } else if (id == "spconv_gather_mma") {
        std::vector<float> o = rb<float>("SP_OUT", 0, (size_t)SPN * 32);
        std::vector<double> ref((size_t)SPN * 32, 0.0);
        const uint16_t *F = reinterpret_cast<const uint16_t *>(W("SP_FEAT").data());
        const uint16_t *Wt = reinterpret_cast<const uint16_t *>(W("SP_W").data());
        for (int k = 0; k < SPK; ++k)
            for (uint32_t p = 0; p < W("SP_CNT")[k]; ++p) {
                uint32_t ir = W("SP_IN")[(size_t)k * SPP + p], orow = W("SP_OUTI")[(size_t)k * SPP + p];
                for (int n = 0; n < 32; ++n) {
                    double s = 0;
                    for (int c = 0; c < 32; ++c) s += (double)h2f(F[(size_t)ir * 32 + c]) * h2f(Wt[((size_t)k * 32 + c) * 32 + n]);
                    ref[(size_t)orow * 32 + n] += s;
                }
            }
        double worst = 0;
        for (size_t i = 0; i < ref.size(); ++i) worst = std::max(worst, fabs(o[i] - ref[i]) / std::max(1.0, fabs(ref[i])));
        printf("check %s: max rel error %.2e over 16,384 x 32 outputs\n", id.c_str(), worst);
    } else if (id == "ctc_alpha_shared") {
        std::vector<float> o = rb<float>("OUT", 0, (size_t)CB * CT * (2 * CL + 1));
        const int SM = 2 * CL + 1;
        double worst = 0; size_t cmp = 0, bad = 0;
        for (int b = 0; b < CB; ++b) {
            int Tb = g_ctc_in[b], L = g_ctc_tl[b], S = 2 * L + 1;
            std::vector<double> prev(S, -INFINITY), cur(S);
            auto LP = [&](int t, int v) { return (double)FW("CTC_LP", ((size_t)t * CB + b) * CV + v); };
            auto lab = [&](int s) { return (s & 1) ? (int)W("CTC_TG")[b * CL + s / 2] : 0; };
            auto lse = [](double a, double c) { double m = std::max(a, c); return m == -INFINITY ? m : m + log(exp(a - m) + exp(c - m)); };
            prev[0] = LP(0, 0); if (S > 1) prev[1] = LP(0, lab(1));
            for (int t = 0; t < Tb; ++t) {
                if (t > 0) {
                    for (int s = 0; s < S; ++s) {
                        double x = prev[s];
                        if (s > 0) x = lse(x, prev[s - 1]);
                        if (s >= 3 && (s & 1) && lab(s) != lab(s - 2)) x = lse(x, prev[s - 2]);
                        cur[s] = x + LP(t, lab(s));
                    }
                    prev = cur;
                }
                for (int s = 0; s < S; ++s) {
                    double g = o[((size_t)b * CT + t) * SM + s];
                    ++cmp;
                    if (std::isinf(prev[s]) || std::isinf(g)) { bad += !(std::isinf(prev[s]) && std::isinf(g)); continue; }
                    worst = std::max(worst, fabs(g - prev[s]) / std::max(1.0, fabs(prev[s])));
                }
            }
        }
        printf("check %s: max rel error %.2e over %zu alphas (%zu infinities differ)\n", id.c_str(), worst, cmp, bad);
    } else if (id == "lstm_pointwise_gates") {
        std::vector<float> hy = rb<float>("OUT", 0, (size_t)LB * LH), cy = rb<float>("OUT", 1 << 20, (size_t)LB * LH), ws = rb<float>("OUT2", 0, (size_t)LB * 4 * LH);
        float worst = 0;
        auto sg = [](float x) { return 1.0f / (1.0f + expf(-x)); };
        for (int idx = 0; idx < LB * LH; ++idx) {
            int u = idx % LH, off = (idx / LH) * 4 * LH + u;
            float gt[4];
            for (int q = 0; q < 4; ++q) gt[q] = FW("LSTM_IG", off + q * LH) + FW("LSTM_HG", off + q * LH) + FW("LSTM_BIH", u + q * LH) + FW("LSTM_BHH", u + q * LH);
            gt[0] = sg(gt[0]); gt[1] = sg(gt[1]); gt[2] = tanhf(gt[2]); gt[3] = sg(gt[3]);
            float c = gt[1] * FW("LSTM_CX", idx) + gt[0] * gt[2];
            worst = std::max(worst, std::max(fabsf(cy[idx] - c), fabsf(hy[idx] - gt[3] * tanhf(c))));
            for (int q = 0; q < 4; ++q) worst = std::max(worst, fabsf(ws[off + q * LH] - gt[q]));
        }
        printf("check %s: max abs error %.2e over 128,000 cells (h, c, 4 gates)\n", id.c_str(), worst);
    } else if (id == "mc_classify_edges") {
        const int V = MCN - 1, N = V * V * V;
        std::vector<int32_t> nv = rb<int32_t>("OUT", 0, N), es = rb<int32_t>("OUT2", 0, N);
        size_t bad = 0, occ = 0;
        for (int i = 0; i < N; ++i) {
            int x = i % V, y = (i / V) % V, z = i / (V * V);
            auto F = [&](int dx, int dy, int dz) { return FW("MC_VOL", ((size_t)(z + dz) * MCN + (y + dy)) * MCN + x + dx); };
            float f[8] = {F(0, 0, 0), F(1, 0, 0), F(1, 1, 0), F(0, 1, 0), F(0, 0, 1), F(1, 0, 1), F(1, 1, 1), F(0, 1, 1)};
            int cube = 0;
            for (int c = 0; c < 8; ++c) cube |= (f[c] < 0.6f) << c;
            int n = mc_nv(cube), acc = 0;
            for (int e = 0; e < n; ++e) acc += (int)W("MC_TRI")[cube * 16 + e];
            occ += n > 0;
            bad += (nv[i] != n) + (es[i] != acc);
        }
        printf("check %s: %zu of 1,714,750 values differ (%zu occupied voxels)\n", id.c_str(), bad, occ);
    } else if (id == "smith_waterman_antidiag") {
        std::vector<int32_t> o = rb<int32_t>("OUT", 0, SWP);
        const uint8_t *Q = bytes_of("SW_Q"), *T = bytes_of("SW_T");
        size_t bad = 0;
        for (int p = 0; p < SWP; ++p) {
            int m = (int)W("SW_QL")[p], n = (int)W("SW_TL")[p], best = 0;
            std::vector<int> prev(n + 1, 0), cur(n + 1, 0);
            for (int i = 1; i <= m; ++i) {
                cur[0] = 0;
                for (int j = 1; j <= n; ++j) {
                    int v = std::max(std::max(0, prev[j - 1] + (Q[p * 128 + i - 1] == T[p * 256 + j - 1] ? 2 : -1)), std::max(prev[j] - 1, cur[j - 1] - 1));
                    cur[j] = v; best = std::max(best, v);
                }
                std::swap(prev, cur);
            }
            bad += o[p] != best;
        }
        printf("check %s: %zu of 512 scores differ\n", id.c_str(), bad);
    } else if (id == "chacha20_xor_uint4") {
        std::vector<uint8_t> o = rb<uint8_t>("OUT", 0, (size_t)CHN);
        const uint8_t *in = bytes_of("CHA_IN");
        const std::vector<uint32_t> &kn = W("CHA_KEY");
        size_t bad = 0;
        for (long long blk = 0; blk * 64 < CHN; ++blk) {
            uint32_t s[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u}, x[16];
            for (int k = 0; k < 8; ++k) s[4 + k] = kn[k];
            s[12] = 1u + (uint32_t)blk; s[13] = kn[8]; s[14] = kn[9]; s[15] = kn[10];
            memcpy(x, s, 64);
#define QR(a, b, c, d) a += b; d ^= a; d = rotl(d, 16); c += d; b ^= c; b = rotl(b, 12); a += b; d ^= a; d = rotl(d, 8); c += d; b ^= c; b = rotl(b, 7);
            for (int r = 0; r < 10; ++r) {
                QR(x[0], x[4], x[8], x[12]) QR(x[1], x[5], x[9], x[13]) QR(x[2], x[6], x[10], x[14]) QR(x[3], x[7], x[11], x[15])
                QR(x[0], x[5], x[10], x[15]) QR(x[1], x[6], x[11], x[12]) QR(x[2], x[7], x[8], x[13]) QR(x[3], x[4], x[9], x[14])
            }
#undef QR
            for (int k = 0; k < 16; ++k) x[k] += s[k];
            for (int k = 0; k < 64 && blk * 64 + k < CHN; ++k) bad += o[blk * 64 + k] != (uint8_t)(in[blk * 64 + k] ^ (uint8_t)(x[k >> 2] >> ((k & 3) * 8)));
        }
        printf("check %s: %zu of 3,999,971 bytes differ\n", id.c_str(), bad);
    } else if (id == "hash_join_probe") {
        std::vector<int32_t> o = rb<int32_t>("OUT", 0, HJPROBE);
        const std::vector<uint32_t> &K = W("HJ_KEYS"), &V = W("HJ_VALS"), &P = W("HJ_PROBE");
        size_t bad = 0, hits = 0;
        const uint32_t mask = (1u << HJLOG) - 1;
        for (int i = 0; i < HJPROBE; ++i) {
            uint32_t h = fmix32h(P[i]) & mask;
            int32_t v = -1;
            while (K[h] != 0xFFFFFFFFu) { if (K[h] == P[i]) { v = (int32_t)V[h]; break; } h = (h + 1) & mask; }
            hits += v != -1;
            bad += o[i] != v;
        }
        printf("check %s: %zu of 1,000,000 results differ (%zu hits)\n", id.c_str(), bad, hits);
    } else if (id == "radix_partition_warp_agg") {
        std::vector<int32_t> cur = rb<int32_t>("RAD_CUR", 0, 16);
        std::vector<uint32_t> o = rb<uint32_t>("OUT", 0, (size_t)16 * RCAP);
        const std::vector<uint32_t> &K = W("RAD_KEYS");
        std::vector<long long> cnt(16, 0); std::vector<uint64_t> sum(16, 0), xr(16, 0);
        for (int i = 0; i < RN; ++i) { int d = (K[i] >> RSHIFT) & 15; ++cnt[d]; sum[d] += K[i]; xr[d] ^= K[i] * 2654435761u; }
        size_t bad = 0;
        for (int d = 0; d < 16; ++d) {
            if (cur[d] != cnt[d]) { ++bad; continue; }
            uint64_t s = 0, x = 0;
            for (int k = 0; k < cur[d]; ++k) { uint32_t v = o[(size_t)d * RCAP + k]; s += v; x ^= v * 2654435761u; bad += ((v >> RSHIFT) & 15) != (uint32_t)d; }
            bad += (s != sum[d]) + (x != xr[d]);
        }
        printf("check %s: %zu problems over 16 buckets (counts, digits, sums, hashes)\n", id.c_str(), bad);
    } else if (id == "stockham_fft_bulk") {
        std::vector<float> o = rb<float>("OUT", 0, (size_t)FB * 2048);
        double worst = 0;
        for (int b = 0; b < FB; b += 37) {
            std::vector<double> re(1024), im(1024);
            for (int k = 0; k < 1024; ++k) { re[k] = FW("FFT_IN", (size_t)b * 2048 + 2 * k); im[k] = FW("FFT_IN", (size_t)b * 2048 + 2 * k + 1); }
            // iterative radix-2 DIT with bit reversal, double
            for (int i = 1, j = 0; i < 1024; ++i) {
                int bit = 512;
                for (; j & bit; bit >>= 1) j ^= bit;
                j ^= bit;
                if (i < j) { std::swap(re[i], re[j]); std::swap(im[i], im[j]); }
            }
            for (int len = 2; len <= 1024; len <<= 1)
                for (int i = 0; i < 1024; i += len)
                    for (int k = 0; k < len / 2; ++k) {
                        double a = -2 * M_PI * k / len, c = cos(a), s = sin(a);
                        double xr = re[i + k + len / 2] * c - im[i + k + len / 2] * s, xi = re[i + k + len / 2] * s + im[i + k + len / 2] * c;
                        re[i + k + len / 2] = re[i + k] - xr; im[i + k + len / 2] = im[i + k] - xi;
                        re[i + k] += xr; im[i + k] += xi;
                    }
            double num = 0, den = 0;
            for (int k = 0; k < 1024; ++k) {
                double dr = o[(size_t)b * 2048 + 2 * k] - re[k], di = o[(size_t)b * 2048 + 2 * k + 1] - im[k];
                num += dr * dr + di * di; den += re[k] * re[k] + im[k] * im[k];
            }
            worst = std::max(worst, sqrt(num / den));
        }
        printf("check %s: max relative L2 error %.2e over 28 of 1,024 transforms\n", id.c_str(), worst);
    } else if (id == "nonzero_compact") {
        std::vector<int32_t> c = rb<int32_t>("NZ_CNT", 0, 1);
        std::vector<long long> ref;
        for (int i = 0; i < NZR * NZC; ++i) if (W("NZ_X")[i] != 0) ref.push_back(i);
        size_t n = std::min((size_t)std::max(c[0], 0), (size_t)(2u << 20));
        std::vector<long long> o = rb<long long>("OUT", 0, n * 2), got(n);
        for (size_t k = 0; k < n; ++k) got[k] = o[2 * k] * NZC + o[2 * k + 1];
        std::sort(got.begin(), got.end());
        size_t bad = (size_t)llabs((long long)n - (long long)ref.size());
        for (size_t k = 0; k < std::min(n, ref.size()); ++k) bad += got[k] != ref[k];
        printf("check %s: count %d (reference %zu), %zu entries differ after sorting\n", id.c_str(), c[0], ref.size(), bad);
    } else if (id == "cumsum_outer_dim") {
        std::vector<float> o = rb<float>("OUT", 0, (size_t)CSA * CSL * CSB);
        float worst = 0;
        for (int a = 0; a < CSA; ++a)
            for (int b = 0; b < CSB; ++b) {
                float acc = 0;
                for (int l = 0; l < CSL; ++l) {
                    size_t i = ((size_t)a * CSL + l) * CSB + b;
                    acc += FW("CS_IN", i);
                    worst = std::max(worst, fabsf(o[i] - acc));
                }
            }
        printf("check %s: max abs error %.2e over 8,000,000 prefix sums\n", id.c_str(), worst);
    } else if (id == "scatter_amax_i64") {
        std::vector<float> o = rb<float>("SC_OUT", 0, (size_t)SCO * SCC);
        std::vector<float> ref((size_t)SCO * SCC, -INFINITY);
        for (size_t i = 0; i < (size_t)SCR * SCC; ++i) {
            size_t r = W("SC_IDX")[2 * i], j = i % SCC;
            ref[r * SCC + j] = std::max(ref[r * SCC + j], FW("SC_SRC", i));
        }
        size_t bad = 0;
        for (size_t i = 0; i < ref.size(); ++i) bad += o[i] != ref[i];
        printf("check %s: %zu of 153,600 maxima differ\n", id.c_str(), bad);
    } else if (id == "instnorm_cluster_dsmem") {
        std::vector<float> o = rb<float>("OUT", 0, (size_t)INN * INC * 4096);
        float worst = 0;
        for (int p = 0; p < INN * INC; ++p) {
            double s = 0, q = 0;
            for (int k = 0; k < 4096; ++k) s += FW("IN_X", (size_t)p * 4096 + k);
            double mean = s / 4096;
            for (int k = 0; k < 4096; ++k) { double d = FW("IN_X", (size_t)p * 4096 + k) - mean; q += d * d; }
            double rstd = 1.0 / sqrt(q / 4096 + 1e-5);
            int c = p % INC;
            for (int k = 0; k < 4096; ++k) {
                double r = (FW("IN_X", (size_t)p * 4096 + k) - mean) * rstd * FW("IN_G", c) + FW("IN_B", c);
                worst = std::max(worst, (float)fabs(o[(size_t)p * 4096 + k] - r));
            }
        }
        printf("check %s: max abs error %.2e over 1,048,576 outputs\n", id.c_str(), worst);
    } else if (id == "bf16_gelu_vec4_misaligned") {
        std::vector<uint16_t> o = rb<uint16_t>("OUT", 0, (size_t)BFN + 4);
        const uint16_t *X = reinterpret_cast<const uint16_t *>(W("BF_X").data());
        size_t bad = 0;
        for (long long i = 0; i < BFN; ++i) {
            float r = gelu_ref(bf2f(X[i + 2])), g = bf2f(o[i + 2]);
            bad += fabsf(g - r) > 0.01f * std::max(1.0f, fabsf(r));
        }
        printf("check %s: %zu of 3,000,001 differ by more than 1%%\n", id.c_str(), bad);
    } else if (id == "jacobi2d_cpasync") {
        std::vector<float> o = rb<float>("OUT", 0, (size_t)JN * JN);
        std::vector<float> a(JN * JN), b(JN * JN);
        for (int i = 0; i < JN * JN; ++i) a[i] = FW("JAC_IN", i);
        for (int it = 0; it < 4; ++it) {
            for (int y = 0; y < JN; ++y)
                for (int x = 0; x < JN; ++x) {
                    int i = y * JN + x;
                    b[i] = (x > 0 && x < JN - 1 && y > 0 && y < JN - 1) ? 0.25f * (a[i - JN] + a[i + JN] + a[i - 1] + a[i + 1]) : a[i];
                }
            std::swap(a, b);
        }
        float worst = 0;
        for (int i = 0; i < JN * JN; ++i) worst = std::max(worst, fabsf(o[i] - a[i]));
        printf("check %s: max abs error %.2e over 1,000,000 points after 4 sweeps\n", id.c_str(), worst);
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
