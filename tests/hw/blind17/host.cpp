// warpscope seventeenth held-out batch (tests/hw/blind17): host program, copied from tests/hw/blind13/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules,
// launch table and checks are the seventeenth blind batch's; no tensor map is used).
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


static const uint64_t SEED_LJ = 1701;
static const uint64_t SEED_PCR = 1702;
static const uint64_t SEED_CH = 1703;
static const uint64_t SEED_DG = 1704;
static const uint64_t SEED_VI = 1705;
static const uint64_t SEED_LV = 1706;
static const uint64_t SEED_HW = 1707;
static const uint64_t SEED_WA = 1708;
static const uint64_t SEED_RM = 1709;
static const uint64_t SEED_AP = 1710;
static const uint64_t SEED_C3 = 1711;
static const uint64_t SEED_SD = 1712;
static const uint64_t SEED_XN = 1713;
static const uint64_t SEED_KN = 1714;
static const uint64_t SEED_BK = 1715;
static const uint64_t SEED_WH = 1716;
static const uint64_t SEED_BN = 1717;
static const uint64_t SEED_SDD = 1718;
static const uint64_t SEED_IS = 1719;
static const uint64_t SEED_RQ = 1720;
static const std::vector<std::pair<const char *, uint64_t>> SEEDS = {
    {"LJ_POS", SEED_LJ}, {"PCR_* (one stream)", SEED_PCR}, {"CH_A", SEED_CH}, {"DG_* (one stream)", SEED_DG},
    {"VI_* (one stream)", SEED_VI}, {"LV_* (one stream)", SEED_LV}, {"HW_IMG", SEED_HW}, {"WA_SRC", SEED_WA},
    {"RM_GRID", SEED_RM}, {"AP_IN", SEED_AP}, {"C3_IN", SEED_C3}, {"C3_W", SEED_C3 + 100}, {"SD_IN", SEED_SD},
    {"XN_A", SEED_XN}, {"XN_B", SEED_XN + 100}, {"KN_* (one stream)", SEED_KN}, {"BK_BND", SEED_BK}, {"BK_X", SEED_BK + 100},
    {"WH_* (one stream)", SEED_WH}, {"BN_X", SEED_BN}, {"SDD_RP / SDD_COL", SEED_SDD}, {"SDD_A", SEED_SDD + 100},
    {"SDD_B", SEED_SDD + 200}, {"IS_* (one stream)", SEED_IS}, {"RQ_X", SEED_RQ}};

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
static const int LJN = 28, LJA = LJN * LJN * LJN, LJMAX = 96;        // Lennard-Jones (21,952 atoms)
static const float LJRC2 = 6.25f, LJLIST = 2.8f, LJSP = 1.12f;
static const int PCRN = 512, PCRS = 300;                              // PCR tridiagonal systems
static const int CHB = 4000;                                          // 16 x 16 Cholesky batch
static const int DGM = 500, DGN = 300, DGK = 256;                     // FP64 GEMM
static const int VS = 64, VV = 50, VT = 200, VQ = 256;                // Viterbi
static const int LVP = 20000;                                         // Levenshtein pairs
static const int HWW = 2000, HWH = 1502;                              // Haar
static const int WAS = 640, WAH = 480, WDW = 600, WDH = 400;          // warpAffine
static const int RMG = 64, RMW = 300, RMH = 200, RMS = 96;            // ray marching
static const int APL = 128, APH = 37, APW = 53, APO = 7;              // adaptive pool
static const int C3D = 30, C3H = 45, C3W = 50;                        // conv3d
static const int SDN = 4, SDC = 24, SDH = 150, SDW = 150, SDR = 2;    // space to depth
static const int XM = 1000, XN = 999, XKW = 32;                       // XNOR GEMM
static const int KQ = 4000, KP = 6000;                                // k-NN
static const int BKN = 2000003, BKB = 1000;                           // bucketize
static const int WHN = 1000001, WHB = 512;                            // weighted histogram
static const int BNR = 20000, BNC = 200;                              // batch-norm stats
static const int SDM = 4000;                                          // SDDMM rows (K = 64)
static const int ISR = 2048, ISC = 3000, ISK = 777;                   // index_select
static const int RQR = 3000, RQC = 4096;                              // row quantisation

static float u01(Lcg &g) { return (float)(g.next() >> 8) * (1.0f / 16777216.0f); }
static std::vector<uint32_t> float_words(const std::vector<float> &v)
{
    std::vector<uint32_t> w(v.size());
    memcpy(w.data(), v.data(), v.size() * 4);
    return w;
}
static std::vector<uint32_t> double_words(const std::vector<double> &v)
{
    std::vector<uint32_t> w(v.size() * 2);
    memcpy(w.data(), v.data(), v.size() * 8);
    return w;
}
static std::vector<uint32_t> rand_floats(size_t n, uint64_t seed, float lo, float hi)
{
    Lcg g(seed);
    std::vector<uint32_t> w(n);
    for (auto &x : w) x = fbits(lo + (hi - lo) * u01(g));
    return w;
}

// host copies needed by the checks
static std::vector<int> g_lj_nn, g_lj_list;
static std::vector<int> g_sd_rowptr, g_sd_col;

static void make_buffers()
{
    {
        // atoms on a jittered 28^3 lattice (spacing 1.12), neighbour list to 2.8 (column-major [96][N], j ascending)
        Lcg g(SEED_LJ);
        std::vector<float> pos((size_t)LJA * 4);
        for (int i = 0; i < LJA; ++i) {
            int x = i % LJN, y = (i / LJN) % LJN, z = i / (LJN * LJN);
            pos[i * 4] = x * LJSP + 0.3f * (u01(g) - 0.5f);
            pos[i * 4 + 1] = y * LJSP + 0.3f * (u01(g) - 0.5f);
            pos[i * 4 + 2] = z * LJSP + 0.3f * (u01(g) - 0.5f);
            pos[i * 4 + 3] = 0.0f;
        }
        g_lj_nn.assign(LJA, 0); g_lj_list.assign((size_t)LJMAX * LJA, 0);
        for (int i = 0; i < LJA; ++i) {
            int x = i % LJN, y = (i / LJN) % LJN, z = i / (LJN * LJN);
            std::vector<int> nb;
            for (int dz = -3; dz <= 3; ++dz)
                for (int dy = -3; dy <= 3; ++dy)
                    for (int dx = -3; dx <= 3; ++dx) {
                        int xx = x + dx, yy = y + dy, zz = z + dz;
                        if (xx < 0 || yy < 0 || zz < 0 || xx >= LJN || yy >= LJN || zz >= LJN) continue;
                        int j = (zz * LJN + yy) * LJN + xx;
                        if (j == i) continue;
                        float ddx = pos[i * 4] - pos[j * 4], ddy = pos[i * 4 + 1] - pos[j * 4 + 1], ddz = pos[i * 4 + 2] - pos[j * 4 + 2];
                        if (ddx * ddx + ddy * ddy + ddz * ddz < LJLIST * LJLIST) nb.push_back(j);
                    }
            std::sort(nb.begin(), nb.end());
            if ((int)nb.size() > LJMAX) { fprintf(stderr, "neighbour list overflow %zu\n", nb.size()); exit(1); }
            g_lj_nn[i] = (int)nb.size();
            for (size_t k = 0; k < nb.size(); ++k) g_lj_list[k * LJA + i] = nb[k];
        }
        add_words("LJ_POS", float_words(pos), "LJ: 21,952 float4 positions, a 28^3 lattice of spacing 1.12 jittered by +-0.15 (LCG seed 1701)");
        add_words("LJ_NN", as_words(g_lj_nn), "LJ: neighbour counts (within 2.8), 6..78");
        add_words("LJ_LIST", as_words(g_lj_list), "LJ: neighbour list, column-major [96][21,952], ascending j, zero past the count");
        add_fill("LJ_F", (size_t)LJA * 16, 0u, "LJ: forces float4 (w: half the pair energy), zero");
    }
    {
        Lcg g(SEED_PCR);
        std::vector<float> a((size_t)PCRS * PCRN), b(a.size()), c(a.size()), d(a.size());
        for (size_t k = 0; k < a.size(); ++k) {
            a[k] = u01(g) - 0.5f; c[k] = u01(g) - 0.5f; b[k] = 2.0f + u01(g); d[k] = 2.0f * u01(g) - 1.0f;
            if (k % PCRN == 0) a[k] = 0.0f;
            if (k % PCRN == PCRN - 1) c[k] = 0.0f;
        }
        add_words("PCR_A", float_words(a), "PCR: sub-diagonals [300][512] in [-0.5, 0.5), a[0] = 0 (LCG seed 1702)");
        add_words("PCR_B", float_words(b), "PCR: diagonals in [2, 3)");
        add_words("PCR_C", float_words(c), "PCR: super-diagonals in [-0.5, 0.5), c[511] = 0");
        add_words("PCR_D", float_words(d), "PCR: right-hand sides in [-1, 1)");
        add_fill("PCR_X", (size_t)PCRS * PCRN * 4, 0u, "PCR: solutions, zero");
    }
    {
        Lcg g(SEED_CH);
        std::vector<float> A((size_t)CHB * 256);
        for (int b = 0; b < CHB; ++b) {
            float M[16][16];
            for (auto &r : M) for (auto &v : r) v = 0.5f * u01(g) - 0.25f;
            for (int i = 0; i < 16; ++i)
                for (int j = 0; j < 16; ++j) {
                    float s = i == j ? 4.0f : 0.0f;
                    for (int k = 0; k < 16; ++k) s += M[i][k] * M[j][k];
                    A[(size_t)b * 256 + i * 16 + j] = s;
                }
        }
        add_words("CH_A", float_words(A), "Cholesky: 4,000 SPD 16 x 16 matrices M M^T + 4 I, M in [-0.25, 0.25) (LCG seed 1703)");
        add_fill("CH_L", (size_t)CHB * 256 * 4, 0u, "Cholesky: lower factors, zero");
    }
    {
        Lcg g(SEED_DG);
        std::vector<double> A((size_t)DGM * DGK), B((size_t)DGK * DGN);
        for (auto &v : A) v = (double)u01(g) * 2.0 - 1.0;
        for (auto &v : B) v = (double)u01(g) * 2.0 - 1.0;
        add_words("DG_A", double_words(A), "FP64 GEMM: A [500][256] doubles in [-1, 1) (LCG seed 1704)");
        add_words("DG_B", double_words(B), "FP64 GEMM: B [256][300] doubles in [-1, 1)");
        add_fill("DG_C", (size_t)DGM * DGN * 8, 0u, "FP64 GEMM: C [500][300], zero");
    }
    {
        Lcg g(SEED_VI);
        auto logsm = [&](int rows, int cols) {
            std::vector<float> m((size_t)rows * cols);
            for (int r = 0; r < rows; ++r) {
                double s = 0;
                for (int c = 0; c < cols; ++c) { m[(size_t)r * cols + c] = 3.0f * u01(g); s += exp((double)m[(size_t)r * cols + c]); }
                float ls = (float)log(s);
                for (int c = 0; c < cols; ++c) m[(size_t)r * cols + c] -= ls;
            }
            return m;
        };
        std::vector<float> A = logsm(VS, VS), B = logsm(VS, VV), pi = logsm(1, VS);
        std::vector<uint32_t> obs((size_t)VQ * VT), lens(VQ);
        for (auto &o : obs) o = g.next() % VV;
        for (auto &l : lens) l = 100 + g.next() % 101;
        add_words("VI_A", float_words(A), "Viterbi: log transition [64][64], rows log-softmax of 3 u (LCG seed 1705)");
        add_words("VI_B", float_words(B), "Viterbi: log emission [64][50]");
        add_words("VI_PI", float_words(pi), "Viterbi: log initial [64]");
        add_words("VI_OBS", obs, "Viterbi: observations [256][200], next() % 50");
        add_words("VI_LEN", lens, "Viterbi: lengths 100 + next() % 101");
        add_fill("VI_BP", (size_t)VQ * VT * VS, 0u, "Viterbi: back-pointers uint8 [256][200][64], zero");
        add_fill("VI_PATH", (size_t)VQ * VT * 4, 0u, "Viterbi: paths int [256][200], zero");
        add_fill("VI_SCORE", (size_t)VQ * 4, 0u, "Viterbi: best log scores, zero");
    }
    {
        Lcg g(SEED_LV);
        std::vector<uint8_t> s((size_t)LVP * 32), t((size_t)LVP * 32);
        std::vector<uint32_t> ls(LVP), lt(LVP);
        for (int p = 0; p < LVP; ++p) { ls[p] = 8 + g.next() % 25; lt[p] = 8 + g.next() % 25; }
        for (auto &c : s) c = (uint8_t)('A' + g.next() % 4);
        for (auto &c : t) c = (uint8_t)('A' + g.next() % 4);
        add_words("LV_S", bytes_to_words(s), "Levenshtein: 20,000 strings in 32-byte slots, letters A..D (LCG seed 1706, after the lengths)");
        add_words("LV_T", bytes_to_words(t), "Levenshtein: 20,000 strings in 32-byte slots");
        add_words("LV_LS", ls, "Levenshtein: lengths 8 + next() % 25");
        add_words("LV_LT", lt, "Levenshtein: lengths 8 + next() % 25");
        add_fill("LV_OUT", (size_t)LVP * 4, 0u, "Levenshtein: distances, zero");
    }
    add_words("HW_IMG", rand_floats((size_t)HWW * HWH, SEED_HW, 0.0f, 1.0f), "Haar: image [1,502][2,000] floats in [0, 1) (LCG seed 1707)");
    add_fill("HW_OUT", (size_t)4 * 1000 * 751 * 4, 0u, "Haar: LL, LH, HL, HH planes [751][1,000] one after another, zero");
    {
        Lcg g(SEED_WA);
        std::vector<uint8_t> s((size_t)WAS * WAH * 3);
        for (int y = 0; y < WAH; ++y)
            for (int x = 0; x < WAS; ++x)
                for (int c = 0; c < 3; ++c) s[((size_t)y * WAS + x) * 3 + c] = (uint8_t)((x * (c + 1) + y * (3 - c)) / 3 + g.next() % 32);
        add_words("WA_SRC", bytes_to_words(s), "warpAffine: source 640 x 480 x 3 uint8, gradients + next() % 32 (LCG seed 1708)");
        add_fill("WA_DST", (size_t)WDW * WDH * 3, 0u, "warpAffine: destination 600 x 400 x 3 uint8, zero");
    }
    {
        Lcg g(SEED_RM);
        std::vector<float> gr((size_t)RMG * RMG * RMG);
        for (int z = 0; z < RMG; ++z)
            for (int y = 0; y < RMG; ++y)
                for (int x = 0; x < RMG; ++x) {
                    float dx = x - 32.f, dy = y - 28.f, dz = z - 30.f;
                    float r = sqrtf(dx * dx + dy * dy + dz * dz);
                    gr[((size_t)z * RMG + y) * RMG + x] = (r < 24.f ? 0.08f : 0.0f) + 0.02f * u01(g);
                }
        add_words("RM_GRID", float_words(gr), "ray marching: 64^3 densities, 0.08 inside a ball of radius 24 + 0.02 u (LCG seed 1709)");
        add_fill("RM_IMG", (size_t)RMW * RMH * 16, 0u, "ray marching: float4 image 300 x 200, zero");
    }
    add_words("AP_IN", rand_floats((size_t)APL * APH * APW, SEED_AP, -1.0f, 1.0f), "adaptive pool: [2][64][37][53] floats in [-1, 1) (LCG seed 1710)");
    add_fill("AP_OUT", (size_t)APL * APO * APO * 4, 0u, "adaptive pool: [2][64][7][7], zero");
    add_words("C3_IN", rand_floats((size_t)8 * C3D * C3H * C3W, SEED_C3, -1.0f, 1.0f), "conv3d: input [8][30][45][50] floats in [-1, 1) (LCG seed 1711)");
    add_words("C3_W", rand_floats((size_t)4 * 8 * 27, SEED_C3 + 100, -0.2f, 0.2f), "conv3d: weights [4][8][3][3][3] in [-0.2, 0.2) (LCG seed 1811)");
    add_fill("C3_OUT", (size_t)4 * C3D * C3H * C3W * 4, 0u, "conv3d: output [4][30][45][50], zero");
    add_words("SD_IN", rand_floats((size_t)SDN * SDC * SDH * SDW, SEED_SD, -1.0f, 1.0f), "space_to_depth: input [4][24][150][150] floats (LCG seed 1712)");
    add_fill("SD_OUT", (size_t)SDN * SDC * SDH * SDW * 4, 0u, "space_to_depth: output [4][96][75][75], zero");
    add_words("XN_A", lcg_words((size_t)XM * XKW, SEED_XN), "XNOR GEMM: A [1,000][32] words of packed signs (LCG seed 1713)");
    add_words("XN_B", lcg_words((size_t)XN * XKW, SEED_XN + 100), "XNOR GEMM: B [999][32] words (LCG seed 1813)");
    add_fill("XN_C", (size_t)XM * XN * 4, 0u, "XNOR GEMM: C [1,000][999] int, zero");
    {
        Lcg g(SEED_KN);
        std::vector<float> q((size_t)KQ * 4), p((size_t)KP * 4);
        for (size_t i = 0; i < q.size(); ++i) q[i] = (i % 4 == 3) ? 0.0f : u01(g);
        for (size_t i = 0; i < p.size(); ++i) p[i] = (i % 4 == 3) ? 0.0f : u01(g);
        add_words("KN_Q", float_words(q), "k-NN: 4,000 float4 queries in [0, 1)^3 (LCG seed 1714)");
        add_words("KN_P", float_words(p), "k-NN: 6,000 float4 points in [0, 1)^3");
        add_fill("KN_IDX", (size_t)KQ * 8 * 4, 0u, "k-NN: indices [4,000][8], zero");
        add_fill("KN_DIST", (size_t)KQ * 8 * 4, 0u, "k-NN: squared distances [4,000][8], zero");
    }
    {
        Lcg g(SEED_BK);
        std::vector<float> bnd(BKB);
        for (auto &v : bnd) v = u01(g);
        std::sort(bnd.begin(), bnd.end());
        add_words("BK_BND", float_words(bnd), "bucketize: 1,000 sorted boundaries, u (LCG seed 1715)");
        add_words("BK_X", rand_floats(BKN, SEED_BK + 100, -0.05f, 1.05f), "bucketize: 2,000,003 values in [-0.05, 1.05) (LCG seed 1815)");
        add_fill("BK_OUT", (size_t)BKN * 4, 0u, "bucketize: buckets, zero");
        add_fill("BK_CNT", (size_t)(BKB + 1) * 4, 0u, "bucketize: 1,001 counts, zero");
    }
    {
        Lcg g(SEED_WH);
        std::vector<float> v(WHN);
        std::vector<double> w(WHN);
        for (auto &x : v) x = u01(g) + u01(g) + u01(g);
        for (auto &x : w) x = (double)u01(g);
        add_words("WH_V", float_words(v), "weighted histogram: 1,000,001 values, sums of three u (LCG seed 1716)");
        add_words("WH_W", double_words(w), "weighted histogram: 1,000,001 double weights u");
        add_fill("WH_H", (size_t)WHB * 8, 0u, "weighted histogram: 512 double bins, zero");
    }
    {
        Lcg g(SEED_BN);
        std::vector<float> x((size_t)BNR * BNC);
        for (size_t i = 0; i < x.size(); ++i) x[i] = 2.0f * u01(g) + (float)(i % BNC) * 0.01f;
        add_words("BN_X", float_words(x), "bn stats: NHWC rows [20,000][200], 2 u + 0.01 c (LCG seed 1717)");
        add_fill("BN_MEAN", (size_t)BNC * 4, 0u, "bn stats: means, zero");
        add_fill("BN_VAR", (size_t)BNC * 4, 0u, "bn stats: biased variances, zero");
    }
    {
        Lcg g(SEED_SDD);
        g_sd_rowptr.assign(SDM + 1, 0);
        for (int r = 0; r < SDM; ++r) {
            int k = (int)(g.next() % 25);
            std::vector<int> cs;
            for (int e = 0; e < k; ++e) cs.push_back((int)(g.next() % 4000));
            std::sort(cs.begin(), cs.end());
            for (int c : cs) g_sd_col.push_back(c);
            g_sd_rowptr[r + 1] = (int)g_sd_col.size();
        }
        add_words("SDD_RP", as_words(g_sd_rowptr), "SDDMM: CSR row pointers of 4,000 rows, next() % 25 entries a row (LCG seed 1718)");
        add_words("SDD_COL", as_words(g_sd_col), "SDDMM: columns next() % 4,000, sorted in the row");
        add_words("SDD_A", rand_floats((size_t)SDM * 64, SEED_SDD + 100, -1.0f, 1.0f), "SDDMM: A [4,000][64] (LCG seed 1818)");
        add_words("SDD_B", rand_floats((size_t)4000 * 64, SEED_SDD + 200, -1.0f, 1.0f), "SDDMM: B [4,000][64] (LCG seed 1918)");
        add_fill("SDD_OUT", (size_t)g_sd_col.size() * 4 + 4, 0u, "SDDMM: values at the pattern, zero");
    }
    {
        Lcg g(SEED_IS);
        std::vector<uint32_t> h((size_t)ISR * ISC / 2), idx((size_t)ISK * 2);
        for (auto &x : h) x = (uint32_t)f2h(u01(g) * 2.0f - 1.0f) | ((uint32_t)f2h(u01(g) * 2.0f - 1.0f) << 16);
        for (int k = 0; k < ISK; ++k) { idx[2 * k] = g.next() % ISC; idx[2 * k + 1] = 0; }
        add_words("IS_IN", h, "index_select: half [2,048][3,000] in (-1, 1) (LCG seed 1719)");
        add_words("IS_IDX", idx, "index_select: int64 indices [777], next() % 3,000");
        add_fill("IS_OUT", (size_t)ISR * ISK * 2 + 4, 0u, "index_select: half [2,048][777], zero");
    }
    {
        Lcg g(SEED_RQ);
        std::vector<float> x((size_t)RQR * RQC);
        for (size_t i = 0; i < x.size(); ++i) x[i] = (4.0f * u01(g) - 2.0f) * (float)(1 + (i / RQC) % 7);
        add_words("RQ_X", float_words(x), "row quant: [3,000][4,096] floats, (4 u - 2) (1 + row % 7) (LCG seed 1720)");
        add_fill("RQ_Q", (size_t)RQR * RQC, 0u, "row quant: int8 [3,000][4,096], zero");
        add_fill("RQ_S", (size_t)RQR * 4, 0u, "row quant: scales, zero");
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
    {"blind17", "tests/hw/blind17/blind17.ptx"},
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
    const char *K = "blind17";
    L1("lj_force_nlist", K, "lj_force_nlist", {P("LJ_POS"), P("LJ_NN"), P("LJ_LIST"), S32(LJA), F32(LJRC2), F32(1.0f), F32(1.0f), P("LJ_F")}, LJA, 128,
       "Lennard-Jones forces (eps 1, sigma 1, cutoff 2.5) over a LAMMPS-GPU-style column-major neighbour list: 21,952 atoms on a jittered 28^3 lattice, float4 positions gathered at the loaded neighbour ids, the loop to the loaded count (6..78), r^2 < rc^2 tested on the gathered position, float4 force and half the pair energy stored");
    L("pcr_tridiag_shared", K, "pcr_tridiag_shared", PCRS, 1, 1, PCRN, 1, 1, {P("PCR_A"), P("PCR_B"), P("PCR_C"), P("PCR_D"), P("PCR_X"), S32(PCRN)},
      "parallel cyclic reduction: 300 diagonally dominant tridiagonal systems of 512, a block a system, the four diagonals in shared memory, 9 steps at strides 1 .. 256 reading i - s and i + s (edges guarded)");
    L("cholesky_batched16", K, "cholesky_batched16", CHB, 1, 1, 16, 16, 1, {P("CH_A"), P("CH_L"), S32(CHB)},
      "batched Cholesky of 4,000 SPD 16 x 16 float matrices: a 16 x 16 block a matrix in a [16][17] shared tile, right-looking column by column (diagonal sqrt by one thread, column scaled, trailing lower update), the lower factor stored with zeros above");
    L("dgemm_wmma_f64", K, "dgemm_wmma_f64", (DGN + 15) / 16, (DGM + 15) / 16, 1, 128, 1, 1, {P("DG_A"), P("DG_B"), P("DG_C"), S32(DGM), S32(DGN), S32(DGK)},
      "FP64 GEMM on the tensor cores through the wmma API (m8n8k4 double, DMMA): C [500][300] = A [500][256] B [256][300], 4 warps a 16 x 16 tile, K chunks of 16 staged in [16][20] double shared tiles (zero-padded edges), accumulators stored through a shared [8][8] tile a warp, ragged last row and column tiles (500 = 31 x 16 + 4, 300 = 18 x 16 + 12)");
    L("viterbi_decode", K, "viterbi_decode", VQ, 1, 1, VS, 1, 1,
      {P("VI_A"), P("VI_B"), P("VI_PI"), P("VI_OBS"), P("VI_LEN"), P("VI_BP"), P("VI_PATH"), P("VI_SCORE"), S32(VT), S32(VV)},
      "HMM Viterbi decoding: 256 sequences (loaded lengths 100..200) over 64 states and 50 symbols, a block of 64 a sequence, the transposed log transition matrix in a [64][65] shared tile, the emission column gathered at the loaded observation, uint8 back-pointers [256][200][64], backtrace by thread 0 at the loaded back-pointers");
    L1("levenshtein_local", K, "levenshtein_local", {P("LV_S"), P("LV_T"), P("LV_LS"), P("LV_LT"), P("LV_OUT"), S32(LVP)}, LVP, 128,
       "Levenshtein distances of 20,000 string pairs (32-byte slots, loaded lengths 8..32, letters A..D): a thread a pair, the DP row int[33] in local memory indexed by the loop counter, both strings read byte by byte");
    L("haar_dwt2d", K, "haar_dwt2d", (1000 + 31) / 32, (751 + 7) / 8, 1, 32, 8, 1,
      {P("HW_IMG"), P("HW_OUT"), P("HW_OUT", 1000 * 751 * 4), P("HW_OUT", 2 * 1000 * 751 * 4), P("HW_OUT", 3 * 1000 * 751 * 4), S32(HWW), S32(HWH)},
      "one level of the 2-D Haar transform of a 2,000 x 1,502 float image: a 32 x 8 block of 2 x 2 input cells, two float2 reads (rows 2y, 2y + 1), four subband planes [751][1,000] stored (ragged last column and row blocks)");
    {
        const float th = 15.0f * 3.14159265f / 180.0f, sc = 1.1f;
        float c = cosf(th) / sc, s = sinf(th) / sc;
        float cx = WAS / 2.0f, cy = WAH / 2.0f, dx = WDW / 2.0f, dy = WDH / 2.0f;
        L("warp_affine_u8c3", K, "warp_affine_u8c3", (WDW + 31) / 32, (WDH + 7) / 8, 1, 32, 8, 1,
          {P("WA_SRC"), P("WA_DST"), S32(WAS), S32(WAH), S32(WDW), S32(WDH), F32(c), F32(s), F32(cx - c * dx - s * dy), F32(-s), F32(c), F32(cy + s * dx - c * dy)},
          "OpenCV-style warpAffine (inverse map: rotation by 15 degrees and scale 1 / 1.1 about the centres), bilinear, constant border 0: 640 x 480 x 3 uint8 source (1,920-byte rows, 3-byte pixels) to 600 x 400 x 3, a 32 x 8 block, 4 guarded corners of 3 byte loads, 3 byte stores");
    }
    L("raymarch_grid", K, "raymarch_grid", (RMW + 15) / 16, (RMH + 15) / 16, 1, 16, 16, 1,
      {P("RM_GRID"), P("RM_IMG"), S32(RMW), S32(RMH), S32(RMG), S32(RMS), F32(0.25f), F32(0.15f), F32(1.0f), F32(0.7f)},
      "emission-absorption ray marching of a 300 x 200 image through a 64^3 float density grid: a 16 x 16 block of pixels, 96 fixed steps of 0.7 along (0.25, 0.15, 1) from the z = 0 face, nearest-voxel samples where the truncated position is inside the grid, float4 colour / opacity stored");
    L1("adaptive_avg_pool2d", K, "adaptive_avg_pool2d", {P("AP_IN"), P("AP_OUT"), S32(APL), S32(APH), S32(APW), S32(APO), S32(APO)}, APL * APO * APO, 128,
       "PyTorch adaptive_avg_pool2d: [2][64][37][53] to 7 x 7, a thread an output (6,272), windows floor(i H / 7) .. ceil((i + 1) H / 7): 6 or 7 rows, 8 or 9 columns");
    L("conv3d_direct", K, "conv3d_direct", (C3W + 7) / 8, (C3H + 7) / 8, (C3D + 3) / 4, 8, 8, 4, {P("C3_IN"), P("C3_W"), P("C3_OUT"), S32(C3D), S32(C3H), S32(C3W)},
      "direct 3 x 3 x 3 convolution, NCDHW, 8 -> 4 channels, padding 1, on 30 x 45 x 50: an 8 x 8 x 4 block (3-D) of output voxels, 4 output channels a thread, the 864 weights staged in shared memory, taps outside the volume skipped");
    L("space_to_depth_nchw", K, "space_to_depth_nchw", (75 + 31) / 32, (75 + 3) / 4, SDN * SDC * SDR * SDR, 32, 4, 1,
      {P("SD_IN"), P("SD_OUT"), S32(SDC), S32(SDH), S32(SDW), S32(SDR)},
      "pixel_unshuffle (space-to-depth, r = 2) of [4][24][150][150] floats to [4][96][75][75]: a 3-D grid (3, 19, 384) of 32 x 4 blocks, one output channel a blockIdx.z, input read at a stride of 2 floats");
    L("xnor_popc_gemm", K, "xnor_popc_gemm", (XN + 15) / 16, (XM + 15) / 16, 1, 16, 16, 1, {P("XN_A"), P("XN_B"), P("XN_C"), S32(XM), S32(XN), S32(XKW)},
      "XNOR-net binary GEMM: +-1 matrices packed 32 to a uint32, A [1,000][32 words], B [999][32 words] (both K-major), 16 x 16 tiles of words in [16][17] shared arrays, popc of the XOR, int C [1,000][999]");
    L1("knn_topk8", K, "knn_topk8", {P("KN_Q"), P("KN_P"), S32(KQ), S32(KP), P("KN_IDX"), P("KN_DIST")}, KQ, 128,
       "brute-force k-NN (k = 8): 4,000 float4 queries against 6,000 float4 points, tiles of 128 points in shared memory (the last 112), a sorted top-8 in registers, indices and squared distances [4,000][8] stored");
    L1("bucketize_bincount", K, "bucketize_bincount", {P("BK_X"), P("BK_BND"), S32(BKB), P("BK_OUT"), P("BK_CNT"), S32(BKN)}, BKN, 256,
       "torch.bucketize(right=True) + bincount: 2,000,003 floats, a binary search (while lo < hi) over 1,000 sorted boundaries, the bucket stored and counted by a global atomicAdd (1,001 bins)");
    L("weighted_hist_f64", K, "weighted_hist_f64", 256, 1, 1, 256, 1, 1, {P("WH_V"), P("WH_W"), P("WH_H"), S32(WHN), F32(0.0f), F32(512.0f / 3.0f), S32(WHB)},
      "weighted histogram in double: 1,000,001 float values (sums of three u) into 512 bins over [0, 3), atomicAdd(double *) of a double weight, grid-stride over 65,536 threads");
    L("bn_stats_nhwc", K, "bn_stats_nhwc", (BNC + 31) / 32, 1, 1, 32, 16, 1, {P("BN_X"), P("BN_MEAN"), P("BN_VAR"), S32(BNR), S32(BNC)},
      "batch-norm training statistics over NHWC [20,000][200]: a 32 x 16 block of (channel, row slice), Welford over every 16th row, the 16 partials merged through [16][33] shared arrays, mean and biased variance stored; 7 blocks, the last with 8 channels");
    L1("sddmm_csr_warp", K, "sddmm_csr_warp", {P("SDD_RP"), P("SDD_COL"), P("SDD_A"), P("SDD_B"), P("SDD_OUT"), S32(SDM)}, SDM * 32, 256,
       "SDDMM over a CSR pattern (4,000 rows, 0..24 sorted columns a row): a warp a row, A's row (64 floats) as a float2 a lane, each listed column's B row read as float2, shuffle reduction, lane 0 stores the value");
    L("index_select_cols_half", K, "index_select_cols_half", (ISK + 63) / 64, ISR / 4, 1, 64, 4, 1, {P("IS_IN"), P("IS_IDX"), P("IS_OUT"), S32(ISR), S32(ISC), S32(ISK)},
      "torch.index_select(dim=1) of a half [2,048][3,000] matrix with 777 int64 indices (next() % 3,000): a 64 x 4 block, out[r][k] = in[r][idx[k]], 2-byte gathers and stores");
    L("rowquant_bulk_store", K, "rowquant_bulk_store", RQR, 1, 1, 256, 1, 1, {P("RQ_X"), P("RQ_Q"), P("RQ_S"), S32(RQC)},
      "per-row absmax int8 quantisation of [3,000][4,096] floats: a block of 256 a row, four float4 loads a thread, max by shuffles and shared memory, the int8 row assembled in shared memory by char4 stores and written by one cp.async.bulk.global.shared::cta of 4,096 bytes (thread 0, bulk_group, wait_group.read), the scale stored");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind17/host.cpp. Launches run once each, in this order, on one stream. "
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
    auto DW = [&](const char *n, size_t i) { double d; memcpy(&d, &buf(n).words[2 * i], 8); return d; };
    if (id == "lj_force_nlist") {
        std::vector<float> o = rb<float>("LJ_F", 0, (size_t)LJA * 4);
        double worst = 0;
        for (int i = 0; i < LJA; ++i) {
            double f[4] = {0, 0, 0, 0};
            for (int k = 0; k < g_lj_nn[i]; ++k) {
                int j = g_lj_list[(size_t)k * LJA + i];
                double dx = FW("LJ_POS", i * 4) - FW("LJ_POS", j * 4), dy = FW("LJ_POS", i * 4 + 1) - FW("LJ_POS", j * 4 + 1), dz = FW("LJ_POS", i * 4 + 2) - FW("LJ_POS", j * 4 + 2);
                double r2 = dx * dx + dy * dy + dz * dz;
                if (r2 < LJRC2) {
                    double s6 = pow(1.0 / r2, 3), ff = 24 * s6 * (2 * s6 - 1) / r2;
                    f[0] += ff * dx; f[1] += ff * dy; f[2] += ff * dz; f[3] += 2 * s6 * (s6 - 1);
                }
            }
            for (int c = 0; c < 4; ++c) worst = std::max(worst, fabs(o[(size_t)i * 4 + c] - f[c]) / std::max(1.0, fabs(f[c])));
        }
        printf("check %s: max rel error %.2e over 21,952 atoms (force, energy)\n", id.c_str(), worst);
    } else if (id == "pcr_tridiag_shared") {
        std::vector<float> o = rb<float>("PCR_X", 0, (size_t)PCRS * PCRN);
        double worst = 0;
        for (int s = 0; s < PCRS; ++s) {
            std::vector<double> cp(PCRN), dp(PCRN), x(PCRN);
            size_t b = (size_t)s * PCRN;
            for (int i = 0; i < PCRN; ++i) {
                double den = FW("PCR_B", b + i) - (i ? FW("PCR_A", b + i) * cp[i - 1] : 0.0);
                cp[i] = FW("PCR_C", b + i) / den;
                dp[i] = (FW("PCR_D", b + i) - (i ? FW("PCR_A", b + i) * dp[i - 1] : 0.0)) / den;
            }
            for (int i = PCRN - 1; i >= 0; --i) x[i] = dp[i] - (i < PCRN - 1 ? cp[i] * x[i + 1] : 0.0);
            for (int i = 0; i < PCRN; ++i) worst = std::max(worst, fabs(o[b + i] - x[i]));
        }
        printf("check %s: max abs error %.2e over 300 x 512 unknowns\n", id.c_str(), worst);
    } else if (id == "cholesky_batched16") {
        std::vector<float> o = rb<float>("CH_L", 0, (size_t)CHB * 256);
        double worst = 0;
        for (int b = 0; b < CHB; ++b) {
            double Lr[16][16] = {};
            for (int j = 0; j < 16; ++j) {
                double s = FW("CH_A", (size_t)b * 256 + j * 16 + j);
                for (int k = 0; k < j; ++k) s -= Lr[j][k] * Lr[j][k];
                Lr[j][j] = sqrt(s);
                for (int i = j + 1; i < 16; ++i) {
                    double t = FW("CH_A", (size_t)b * 256 + i * 16 + j);
                    for (int k = 0; k < j; ++k) t -= Lr[i][k] * Lr[j][k];
                    Lr[i][j] = t / Lr[j][j];
                }
            }
            for (int i = 0; i < 256; ++i) worst = std::max(worst, fabs(o[(size_t)b * 256 + i] - Lr[i / 16][i % 16]));
        }
        printf("check %s: max abs error %.2e over 4,000 factors\n", id.c_str(), worst);
    } else if (id == "dgemm_wmma_f64") {
        std::vector<double> o = rb<double>("DG_C", 0, (size_t)DGM * DGN);
        double worst = 0;
        for (int m = 0; m < DGM; ++m)
            for (int n = 0; n < DGN; ++n) {
                double s = 0;
                for (int k = 0; k < DGK; ++k) s += DW("DG_A", (size_t)m * DGK + k) * DW("DG_B", (size_t)k * DGN + n);
                worst = std::max(worst, fabs(o[(size_t)m * DGN + n] - s));
            }
        printf("check %s: max abs error %.2e over 500 x 300 doubles\n", id.c_str(), worst);
    } else if (id == "viterbi_decode") {
        std::vector<int32_t> path = rb<int32_t>("VI_PATH", 0, (size_t)VQ * VT);
        std::vector<float> sc = rb<float>("VI_SCORE", 0, VQ);
        size_t bad = 0; float worst = 0;
        for (int q = 0; q < VQ; ++q) {
            int len = (int)W("VI_LEN")[q];
            std::vector<float> d(VS), nd(VS);
            std::vector<std::vector<uint8_t>> bp(len, std::vector<uint8_t>(VS));
            auto o = [&](int t) { return (int)W("VI_OBS")[(size_t)q * VT + t]; };
            for (int j = 0; j < VS; ++j) d[j] = FW("VI_PI", j) + FW("VI_B", j * VV + o(0));
            for (int t = 1; t < len; ++t) {
                for (int j = 0; j < VS; ++j) {
                    float best = -INFINITY; int arg = 0;
                    for (int i = 0; i < VS; ++i) { float v = d[i] + FW("VI_A", i * VS + j); if (v > best) { best = v; arg = i; } }
                    nd[j] = best + FW("VI_B", j * VV + o(t)); bp[t][j] = (uint8_t)arg;
                }
                d = nd;
            }
            int arg = 0; float best = d[0];
            for (int i = 1; i < VS; ++i) if (d[i] > best) { best = d[i]; arg = i; }
            worst = std::max(worst, fabsf(sc[q] - best));
            std::vector<int> p(len);
            p[len - 1] = arg;
            for (int t = len - 1; t > 0; --t) { arg = bp[t][arg]; p[t - 1] = arg; }
            for (int t = 0; t < len; ++t) bad += path[(size_t)q * VT + t] != p[t];
        }
        printf("check %s: %zu path states differ, max score error %.2e over 256 sequences\n", id.c_str(), bad, worst);
    } else if (id == "levenshtein_local") {
        std::vector<int32_t> o = rb<int32_t>("LV_OUT", 0, LVP);
        const uint8_t *S = bytes_of("LV_S"), *T = bytes_of("LV_T");
        size_t bad = 0;
        for (int p = 0; p < LVP; ++p) {
            int n = (int)W("LV_LS")[p], m = (int)W("LV_LT")[p];
            std::vector<std::vector<int>> D(n + 1, std::vector<int>(m + 1));
            for (int i = 0; i <= n; ++i) D[i][0] = i;
            for (int j = 0; j <= m; ++j) D[0][j] = j;
            for (int i = 1; i <= n; ++i)
                for (int j = 1; j <= m; ++j)
                    D[i][j] = std::min(std::min(D[i - 1][j] + 1, D[i][j - 1] + 1), D[i - 1][j - 1] + (S[p * 32 + i - 1] != T[p * 32 + j - 1]));
            bad += o[p] != D[n][m];
        }
        printf("check %s: %zu of 20,000 distances differ\n", id.c_str(), bad);
    } else if (id == "haar_dwt2d") {
        std::vector<float> o = rb<float>("HW_OUT", 0, (size_t)4 * 1000 * 751);
        float worst = 0;
        for (int y = 0; y < 751; ++y)
            for (int x = 0; x < 1000; ++x) {
                float a = FW("HW_IMG", (size_t)(2 * y) * HWW + 2 * x), b = FW("HW_IMG", (size_t)(2 * y) * HWW + 2 * x + 1);
                float c = FW("HW_IMG", (size_t)(2 * y + 1) * HWW + 2 * x), d = FW("HW_IMG", (size_t)(2 * y + 1) * HWW + 2 * x + 1);
                float r[4] = {0.5f * (a + b + c + d), 0.5f * (a - b + c - d), 0.5f * (a + b - c - d), 0.5f * (a - b - c + d)};
                for (int s = 0; s < 4; ++s) worst = std::max(worst, fabsf(o[(size_t)s * 751000 + (size_t)y * 1000 + x] - r[s]));
            }
        printf("check %s: max abs error %.2e over 4 x 751,000 coefficients\n", id.c_str(), worst);
    } else if (id == "warp_affine_u8c3") {
        std::vector<uint8_t> o = rb<uint8_t>("WA_DST", 0, (size_t)WDW * WDH * 3);
        const uint8_t *S = bytes_of("WA_SRC");
        float m[6];
        for (int k = 0; k < 6; ++k) m[k] = (float)l.params[6 + k].fval;
        size_t bad = 0;
        for (int y = 0; y < WDH; ++y)
            for (int x = 0; x < WDW; ++x) {
                float sx = m[0] * x + m[1] * y + m[2], sy = m[3] * x + m[4] * y + m[5];
                int x0 = (int)floorf(sx), y0 = (int)floorf(sy);
                float ax = sx - x0, ay = sy - y0, acc[3] = {0, 0, 0};
                for (int dy = 0; dy < 2; ++dy)
                    for (int dx = 0; dx < 2; ++dx) {
                        int xx = x0 + dx, yy = y0 + dy;
                        float w = (dx ? ax : 1 - ax) * (dy ? ay : 1 - ay);
                        if (xx >= 0 && xx < WAS && yy >= 0 && yy < WAH)
                            for (int c = 0; c < 3; ++c) acc[c] += w * S[((size_t)yy * WAS + xx) * 3 + c];
                    }
                for (int c = 0; c < 3; ++c) bad += abs((int)o[((size_t)y * WDW + x) * 3 + c] - std::min(255, (int)lrintf(acc[c]))) > 1;
            }
        printf("check %s: %zu of 720,000 bytes off by more than 1\n", id.c_str(), bad);
    } else if (id == "raymarch_grid") {
        std::vector<float> o = rb<float>("RM_IMG", 0, (size_t)RMW * RMH * 4);
        float worst = 0;
        for (int py = 0; py < RMH; ++py)
            for (int px = 0; px < RMW; ++px) {
                float ox = (px + 0.5f) * (float)RMG / RMW * 0.8f, oy = (py + 0.5f) * (float)RMG / RMH * 0.8f;
                float T = 1, c[3] = {0, 0, 0};
                for (int s = 0; s < RMS; ++s) {
                    float t = (s + 0.5f) * 0.7f;
                    int ix = (int)(ox + t * 0.25f), iy = (int)(oy + t * 0.15f), iz = (int)(t * 1.0f);
                    if (ix < RMG && iy < RMG && iz < RMG) {
                        float a = 1 - expf(-FW("RM_GRID", ((size_t)iz * RMG + iy) * RMG + ix) * 0.7f), w = T * a;
                        c[0] += w * (float)ix / RMG; c[1] += w * (float)iy / RMG; c[2] += w * (float)iz / RMG;
                        T *= 1 - a;
                    }
                }
                float r[4] = {c[0], c[1], c[2], 1 - T};
                for (int k = 0; k < 4; ++k) worst = std::max(worst, fabsf(o[((size_t)py * RMW + px) * 4 + k] - r[k]));
            }
        printf("check %s: max abs error %.2e over 60,000 pixels (nearest-voxel positions may differ by rounding)\n", id.c_str(), worst);
    } else if (id == "adaptive_avg_pool2d") {
        std::vector<float> o = rb<float>("AP_OUT", 0, (size_t)APL * 49);
        float worst = 0;
        for (int i = 0; i < APL * 49; ++i) {
            int ow = i % 7, oh = (i / 7) % 7, pl = i / 49;
            int h0 = oh * APH / 7, h1 = ((oh + 1) * APH + 6) / 7, w0 = ow * APW / 7, w1 = ((ow + 1) * APW + 6) / 7;
            double s = 0;
            for (int h = h0; h < h1; ++h) for (int w = w0; w < w1; ++w) s += FW("AP_IN", (size_t)pl * APH * APW + h * APW + w);
            worst = std::max(worst, (float)fabs(o[i] - s / ((h1 - h0) * (w1 - w0))));
        }
        printf("check %s: max abs error %.2e over 6,272 outputs\n", id.c_str(), worst);
    } else if (id == "conv3d_direct") {
        std::vector<float> o = rb<float>("C3_OUT", 0, (size_t)4 * C3D * C3H * C3W);
        float worst = 0;
        for (int co = 0; co < 4; ++co)
            for (int z = 0; z < C3D; ++z)
                for (int y = 0; y < C3H; ++y)
                    for (int x = 0; x < C3W; ++x) {
                        double s = 0;
                        for (int ci = 0; ci < 8; ++ci)
                            for (int kz = 0; kz < 3; ++kz)
                                for (int ky = 0; ky < 3; ++ky)
                                    for (int kx = 0; kx < 3; ++kx) {
                                        int zz = z + kz - 1, yy = y + ky - 1, xx = x + kx - 1;
                                        if (zz < 0 || zz >= C3D || yy < 0 || yy >= C3H || xx < 0 || xx >= C3W) continue;
                                        s += FW("C3_IN", (((size_t)ci * C3D + zz) * C3H + yy) * C3W + xx) * FW("C3_W", ((co * 8 + ci) * 3 + kz) * 9 + ky * 3 + kx);
                                    }
                        worst = std::max(worst, (float)fabs(o[(((size_t)co * C3D + z) * C3H + y) * C3W + x] - s));
                    }
        printf("check %s: max abs error %.2e over 270,000 outputs\n", id.c_str(), worst);
    } else if (id == "space_to_depth_nchw") {
        std::vector<float> o = rb<float>("SD_OUT", 0, (size_t)SDN * SDC * SDH * SDW);
        size_t bad = 0;
        for (int n = 0; n < SDN; ++n)
            for (int c = 0; c < SDC; ++c)
                for (int h = 0; h < SDH; ++h)
                    for (int w = 0; w < SDW; ++w) {
                        int oc = (n * SDC + c) * 4 + (h % 2) * 2 + (w % 2);
                        bad += o[((size_t)oc * 75 + h / 2) * 75 + w / 2] != FW("SD_IN", (((size_t)n * SDC + c) * SDH + h) * SDW + w);
                    }
        printf("check %s: %zu of 2,160,000 values differ\n", id.c_str(), bad);
    } else if (id == "xnor_popc_gemm") {
        std::vector<int32_t> o = rb<int32_t>("XN_C", 0, (size_t)XM * XN);
        size_t bad = 0;
        for (int m = 0; m < XM; ++m)
            for (int n = 0; n < XN; ++n) {
                int pc = 0;
                for (int k = 0; k < XKW; ++k) pc += __builtin_popcount(W("XN_A")[(size_t)m * XKW + k] ^ W("XN_B")[(size_t)n * XKW + k]);
                bad += o[(size_t)m * XN + n] != XKW * 32 - 2 * pc;
            }
        printf("check %s: %zu of 999,000 values differ\n", id.c_str(), bad);
    } else if (id == "knn_topk8") {
        std::vector<int32_t> oi = rb<int32_t>("KN_IDX", 0, (size_t)KQ * 8);
        std::vector<float> od = rb<float>("KN_DIST", 0, (size_t)KQ * 8);
        size_t bad = 0; float worst = 0;
        for (int i = 0; i < KQ; ++i) {
            std::vector<std::pair<float, int>> d(KP);
            for (int j = 0; j < KP; ++j) {
                float dx = FW("KN_Q", i * 4) - FW("KN_P", j * 4), dy = FW("KN_Q", i * 4 + 1) - FW("KN_P", j * 4 + 1), dz = FW("KN_Q", i * 4 + 2) - FW("KN_P", j * 4 + 2);
                d[j] = {dx * dx + dy * dy + dz * dz, j};
            }
            std::partial_sort(d.begin(), d.begin() + 8, d.end());
            for (int k = 0; k < 8; ++k) { bad += oi[(size_t)i * 8 + k] != d[k].second; worst = std::max(worst, fabsf(od[(size_t)i * 8 + k] - d[k].first)); }
        }
        printf("check %s: %zu of 32,000 neighbour ids differ, max distance error %.2e\n", id.c_str(), bad, worst);
    } else if (id == "bucketize_bincount") {
        std::vector<int32_t> o = rb<int32_t>("BK_OUT", 0, BKN), c = rb<int32_t>("BK_CNT", 0, BKB + 1);
        std::vector<float> bnd(BKB);
        for (int k = 0; k < BKB; ++k) bnd[k] = FW("BK_BND", k);
        std::vector<int> rc(BKB + 1, 0);
        size_t bad = 0;
        for (int i = 0; i < BKN; ++i) {
            int b = (int)(std::upper_bound(bnd.begin(), bnd.end(), FW("BK_X", i)) - bnd.begin());
            ++rc[b]; bad += o[i] != b;
        }
        for (int b = 0; b <= BKB; ++b) bad += c[b] != rc[b];
        printf("check %s: %zu of 2,000,003 buckets and 1,001 counts differ\n", id.c_str(), bad);
    } else if (id == "weighted_hist_f64") {
        std::vector<double> o = rb<double>("WH_H", 0, WHB);
        std::vector<double> r(WHB, 0);
        for (int i = 0; i < WHN; ++i) {
            int b = (int)((FW("WH_V", i) - 0.0f) * (512.0f / 3.0f));
            r[std::max(0, std::min(WHB - 1, b))] += DW("WH_W", i);
        }
        double worst = 0;
        for (int b = 0; b < WHB; ++b) worst = std::max(worst, fabs(o[b] - r[b]) / std::max(1.0, fabs(r[b])));
        printf("check %s: max rel error %.2e over 512 bins\n", id.c_str(), worst);
    } else if (id == "bn_stats_nhwc") {
        std::vector<float> m = rb<float>("BN_MEAN", 0, BNC), v = rb<float>("BN_VAR", 0, BNC);
        double worst = 0;
        for (int c = 0; c < BNC; ++c) {
            double s = 0, q = 0;
            for (int r = 0; r < BNR; ++r) s += FW("BN_X", (size_t)r * BNC + c);
            double mu = s / BNR;
            for (int r = 0; r < BNR; ++r) { double d = FW("BN_X", (size_t)r * BNC + c) - mu; q += d * d; }
            worst = std::max(worst, std::max(fabs(m[c] - mu), fabs(v[c] - q / BNR)));
        }
        printf("check %s: max abs error %.2e over 200 channels (mean, var)\n", id.c_str(), worst);
    } else if (id == "sddmm_csr_warp") {
        std::vector<float> o = rb<float>("SDD_OUT", 0, g_sd_col.size());
        double worst = 0;
        for (int r = 0; r < SDM; ++r)
            for (int e = g_sd_rowptr[r]; e < g_sd_rowptr[r + 1]; ++e) {
                double s = 0;
                for (int k = 0; k < 64; ++k) s += (double)FW("SDD_A", (size_t)r * 64 + k) * FW("SDD_B", (size_t)g_sd_col[e] * 64 + k);
                worst = std::max(worst, fabs(o[e] - s));
            }
        printf("check %s: max abs error %.2e over %zu values\n", id.c_str(), worst, g_sd_col.size());
    } else if (id == "index_select_cols_half") {
        std::vector<uint16_t> o = rb<uint16_t>("IS_OUT", 0, (size_t)ISR * ISK);
        const uint16_t *I = reinterpret_cast<const uint16_t *>(W("IS_IN").data());
        size_t bad = 0;
        for (int r = 0; r < ISR; ++r)
            for (int k = 0; k < ISK; ++k) bad += o[(size_t)r * ISK + k] != I[(size_t)r * ISC + W("IS_IDX")[2 * k]];
        printf("check %s: %zu of 1,591,296 values differ\n", id.c_str(), bad);
    } else if (id == "rowquant_bulk_store") {
        std::vector<int8_t> o = rb<int8_t>("RQ_Q", 0, (size_t)RQR * RQC);
        std::vector<float> s = rb<float>("RQ_S", 0, RQR);
        size_t bad = 0;
        for (int r = 0; r < RQR; ++r) {
            float m = 0;
            for (int c = 0; c < RQC; ++c) m = std::max(m, fabsf(FW("RQ_X", (size_t)r * RQC + c)));
            float inv = m > 0 ? 127.0f / m : 0.0f;
            for (int c = 0; c < RQC; ++c) bad += o[(size_t)r * RQC + c] != (int8_t)lrintf(FW("RQ_X", (size_t)r * RQC + c) * inv);
            bad += s[r] != m / 127.0f;
        }
        printf("check %s: %zu of 12,288,000 values and 3,000 scales differ\n", id.c_str(), bad);
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
