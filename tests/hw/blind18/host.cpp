// warpscope eighteenth held-out batch (tests/hw/blind18): host program, copied from tests/hw/blind17/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules,
// launch table and checks are the eighteenth blind batch's; no tensor map is used).
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

static const uint64_t SEED_BSR = 1801;
static const uint64_t SEED_TP = 1802;
static const uint64_t SEED_GB = 1803;
static const uint64_t SEED_LS = 1804;
static const uint64_t SEED_FW = 1805;
static const uint64_t SEED_TF = 1806;
static const uint64_t SEED_DC = 1807;
static const uint64_t SEED_CN = 1808;
static const uint64_t SEED_ST = 1809;
static const uint64_t SEED_BC = 1810;
static const uint64_t SEED_MS = 1811;
static const uint64_t SEED_FF = 1812;
static const uint64_t SEED_JF = 1813;
static const uint64_t SEED_LF = 1814;
static const uint64_t SEED_VX = 1815;
static const uint64_t SEED_TI = 1816;
static const uint64_t SEED_CR = 1817;
static const uint64_t SEED_KR = 1818;
static const uint64_t SEED_GN = 1819;
static const uint64_t SEED_RL = 1820;
static const std::vector<std::pair<const char *, uint64_t>> SEEDS = {
    {"BSR_* (one stream)", SEED_BSR}, {"TP_* (one stream)", SEED_TP}, {"GB_* (one stream)", SEED_GB}, {"LS_* (one stream)", SEED_LS},
    {"FW_D", SEED_FW}, {"TF_* (one stream)", SEED_TF}, {"DC_IMG", SEED_DC}, {"CN_* (one stream)", SEED_CN},
    {"ST_* (one stream)", SEED_ST}, {"BC_IN", SEED_BC}, {"MS_F", SEED_MS}, {"FF_IN", SEED_FF}, {"JF_IN", SEED_JF},
    {"LF_IN", SEED_LF}, {"VX_PTS", SEED_VX}, {"TI_A", SEED_TI}, {"CR_MSG", SEED_CR}, {"KR_* (one stream)", SEED_KR},
    {"GN_* (one stream)", SEED_GN}, {"RL_IN", SEED_RL}};

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
static const int BNR = 5000, BNC = 4000;                              // BSR block rows / block columns (4 x 4)
static const int TPN = 2000;                                          // packed triangular
static const int GBN = 500000, GBKL = 3, GBKU = 2;                    // band matrix
static const int LSM = 1000, LSN = 800, LSK = 64;                     // laswp
static const int FWN = 1000, FWKB = 5;                                // Floyd-Warshall
static const int TFM = 512, TFN = 384, TFK = 256;                     // TF32 GEMM
static const int DCW = 1000, DCH = 600;                               // DCT
static const int CNW = 1280, CNH = 720;                               // Canny NMS
static const int STW = 640, STH = 480, STD = 32;                      // stereo
static const int BCNC = 12, BCIH = 300, BCIW = 400, BCOH = 450, BCOW = 520;  // bicubic
static const int MSW = 1025, MSH = 769;                               // marching squares
static const int FFW = 1000;                                          // FFT columns
static const int JFW = 1024, JFH = 768, JFK = 16;                     // jump flooding
static const int LFWW = 50, LFH = 1000;                               // life
static const int VXN = 400000, VXG = 128;                             // voxelisation
static const int TIN = 2000;                                          // in-place transpose
static const int CRN = 100000;                                        // CRC records
static const int KRM = 40, KRN = 50, KRP = 30, KRQ = 37;              // Kronecker
static const int GND0 = 64, GND1 = 48, GND2 = 40, GNN = 50000;        // gather_nd
static const int RLNC = 128, RLH = 90, RLW = 130, RLSH = 5, RLSW = -13;  // roll

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

// host copies needed by the checks
static std::vector<int> g_bsr_rp, g_bsr_ci, g_ls_piv;
static uint32_t g_crc_t[1024];
static const float JPEG_Q[64] = {16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57,
                                 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64,
                                 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99};

static void make_buffers()
{
    {
        Lcg g(SEED_BSR);
        g_bsr_rp.assign(BNR + 1, 0);
        for (int r = 0; r < BNR; ++r) {
            int cnt = 1 + g.next() % 12;
            std::vector<int> cols;
            while ((int)cols.size() < cnt) {
                int c = g.next() % BNC;
                if (std::find(cols.begin(), cols.end(), c) == cols.end()) cols.push_back(c);
            }
            std::sort(cols.begin(), cols.end());
            for (int c : cols) g_bsr_ci.push_back(c);
            g_bsr_rp[r + 1] = (int)g_bsr_ci.size();
        }
        std::vector<float> v(g_bsr_ci.size() * 16), x((size_t)BNC * 4);
        for (auto &a : v) a = u01(g) * 2.0f - 1.0f;
        for (auto &a : x) a = u01(g) * 2.0f - 1.0f;
        add_words("BSR_RP", as_words(g_bsr_rp), "BSR: block row pointers [5,001], 1..12 blocks a row (LCG seed 1801)");
        add_words("BSR_CI", as_words(g_bsr_ci), "BSR: block column indices, sorted, distinct in a row, next() % 4,000");
        add_words("BSR_V", float_words(v), "BSR: 4 x 4 blocks row-major, values in [-1, 1)");
        add_words("BSR_X", float_words(x), "BSR: x [16,000] in [-1, 1)");
        add_fill("BSR_Y", (size_t)BNR * 16, 0u, "BSR: y [20,000], zero");
    }
    add_words("TP_AP", rand_floats((size_t)TPN * (TPN + 1) / 2, SEED_TP, -1.0f, 1.0f), "tpmv: packed lower L (column-major packed, 2,001,000 floats) in [-1, 1) (LCG seed 1802)");
    add_words("TP_X", rand_floats(TPN, SEED_TP + 100, -1.0f, 1.0f), "tpmv: x [2,000] in [-1, 1)");
    add_fill("TP_Y", (size_t)TPN * 4, 0u, "tpmv: y, zero");
    add_words("GB_AB", rand_floats((size_t)GBN * (GBKL + GBKU + 1), SEED_GB, -1.0f, 1.0f), "gbmv: band storage [500,000][6] column-major (lda 6) in [-1, 1) (LCG seed 1803)");
    add_words("GB_X", rand_floats(GBN, SEED_GB + 100, -1.0f, 1.0f), "gbmv: x in [-1, 1)");
    add_fill("GB_Y", (size_t)GBN * 4, 0u, "gbmv: y, zero");
    {
        Lcg g(SEED_LS);
        g_ls_piv.resize(LSK);
        for (int k = 0; k < LSK; ++k) g_ls_piv[k] = (k % 5 == 4) ? k : k + (int)(g.next() % (uint32_t)(LSM - k));
        add_words("LS_A", rand_floats((size_t)LSM * LSN, SEED_LS + 100, -1.0f, 1.0f), "laswp: A column-major [800 columns][1,000 rows] (lda 1,000) in [-1, 1) (LCG seed 1904)");
        add_words("LS_PIV", as_words(g_ls_piv), "laswp: 64 pivots, ipiv[k] = k + next() % (1,000 - k), ipiv[k] = k for k % 5 == 4 (LCG seed 1804)");
    }
    {
        Lcg g(SEED_FW);
        std::vector<int32_t> d((size_t)FWN * FWN);
        for (int i = 0; i < FWN; ++i)
            for (int j = 0; j < FWN; ++j) d[(size_t)i * FWN + j] = i == j ? 0 : 1 + (int)(g.next() % 1000);
        add_words("FW_D", as_words(d), "Floyd-Warshall: distances [1,000][1,000], 1 + next() % 1,000, zero diagonal (LCG seed 1805)");
    }
    add_words("TF_A", rand_floats((size_t)TFM * TFK, SEED_TF, -1.0f, 1.0f), "TF32 GEMM: A [512][256] in [-1, 1) (LCG seed 1806)");
    add_words("TF_B", rand_floats((size_t)TFK * TFN, SEED_TF + 100, -1.0f, 1.0f), "TF32 GEMM: B [256][384] in [-1, 1)");
    add_fill("TF_C", (size_t)TFM * TFN * 4, 0u, "TF32 GEMM: C [512][384], zero");
    {
        Lcg g(SEED_DC);
        std::vector<uint8_t> im((size_t)DCW * DCH);
        for (int y = 0; y < DCH; ++y)
            for (int x = 0; x < DCW; ++x) im[(size_t)y * DCW + x] = (uint8_t)((x / 4 + y / 3 + 50 * ((x / 37 + y / 29) & 1)) % 200 + g.next() % 56);
        add_words("DC_IMG", bytes_to_words(im), "DCT: 1,000 x 600 uint8 image, a gradient and checks + next() % 56 (LCG seed 1807)");
        add_words("DC_Q", float_words(std::vector<float>(JPEG_Q, JPEG_Q + 64)), "DCT: the JPEG luminance quantisation table (Annex K), 64 floats");
        add_fill("DC_COEF", (size_t)DCW * DCH * 2, 0u, "DCT: int16 coefficients [75 x 125 blocks][64], zero");
    }
    {
        Lcg g(SEED_CN);
        std::vector<float> m((size_t)CNW * CNH);
        std::vector<uint8_t> d((size_t)CNW * CNH);
        for (size_t i = 0; i < m.size(); ++i) m[i] = u01(g);
        for (size_t i = 0; i < d.size(); ++i) d[i] = (uint8_t)(g.next() % 4);
        add_words("CN_MAG", float_words(m), "Canny: gradient magnitudes [720][1,280] in [0, 1) (LCG seed 1808)");
        add_words("CN_DIR", bytes_to_words(d), "Canny: direction bins uint8 0..3 (0 horizontal, 1 45, 2 vertical, 3 135 degrees), next() % 4");
        add_fill("CN_EDGE", (size_t)CNW * CNH, 0u, "Canny: edges uint8, zero");
    }
    {
        Lcg g(SEED_ST);
        std::vector<uint8_t> L((size_t)STW * STH), R((size_t)STW * STH);
        for (auto &v : R) v = (uint8_t)(g.next() % 256);
        for (int y = 0; y < STH; ++y)
            for (int x = 0; x < STW; ++x) {
                int dd = 3 + ((x / 80 + y / 60) % 24);
                int xs = std::max(0, x - dd);
                int v = (int)R[(size_t)y * STW + xs] + (int)(g.next() % 9) - 4;
                L[(size_t)y * STW + x] = (uint8_t)std::min(255, std::max(0, v));
            }
        add_words("ST_L", bytes_to_words(L), "stereo: left 640 x 480 uint8, the right image shifted by 3 + (x / 80 + y / 60) % 24 plus noise (LCG seed 1809)");
        add_words("ST_R", bytes_to_words(R), "stereo: right 640 x 480 uint8, next() % 256");
        add_fill("ST_DISP", (size_t)STW * STH, 0u, "stereo: disparities uint8, zero");
    }
    add_words("BC_IN", rand_floats((size_t)BCNC * BCIH * BCIW, SEED_BC, 0.0f, 1.0f), "bicubic: input [4][3][300][400] in [0, 1) (LCG seed 1810)");
    add_fill("BC_OUT", (size_t)BCNC * BCOH * BCOW * 4, 0u, "bicubic: output [4][3][450][520], zero");
    {
        Lcg g(SEED_MS);
        std::vector<float> f((size_t)MSW * MSH);
        for (int y = 0; y < MSH; ++y)
            for (int x = 0; x < MSW; ++x) f[(size_t)y * MSW + x] = sinf(x * 0.031f) * cosf(y * 0.047f) + 0.3f * (u01(g) - 0.5f);
        add_words("MS_F", float_words(f), "marching squares: field [769][1,025], sin(0.031 x) cos(0.047 y) + 0.3 (u - 0.5) (LCG seed 1811)");
        add_fill("MS_CASE", (size_t)(MSW - 1) * (MSH - 1), 0u, "marching squares: cases uint8 [768][1,024], zero");
        add_fill("MS_NE", (size_t)(MSW - 1) * (MSH - 1) * 4, 0u, "marching squares: edge counts int [768][1,024], zero");
    }
    add_words("FF_IN", rand_floats((size_t)64 * FFW * 2, SEED_FF, -1.0f, 1.0f), "FFT: complex float2 [64][1,000] in [-1, 1) (LCG seed 1812)");
    add_fill("FF_OUT", (size_t)64 * FFW * 8, 0u, "FFT: complex [64][1,000], zero");
    {
        Lcg g(SEED_JF);
        std::vector<int32_t> s((size_t)JFW * JFH * 2, -1);
        for (int y = 0; y < JFH; ++y)
            for (int x = 0; x < JFW; ++x)
                if (g.next() % 200 == 0) { s[((size_t)y * JFW + x) * 2] = x; s[((size_t)y * JFW + x) * 2 + 1] = y; }
        add_words("JF_IN", as_words(s), "JFA: seed map int2 [768][1,024], (x, y) at 1 of 200 pixels (next() % 200 == 0), (-1, -1) elsewhere (LCG seed 1813)");
        add_fill("JF_OUT", (size_t)JFW * JFH * 8, 0u, "JFA: output seed map, zero");
    }
    {
        Lcg g(SEED_LF);
        std::vector<uint32_t> w((size_t)LFWW * LFH);
        for (auto &v : w) { uint32_t a = g.next(), b = g.next(), c = g.next(); v = a & (b | c); }
        add_words("LF_IN", w, "life: bit-packed cells [1,000][50 words] (1,600 x 1,000 torus), a & (b | c) of three next() words: 37.5% alive (LCG seed 1814)");
        add_fill("LF_OUT", (size_t)LFWW * LFH * 4, 0u, "life: next generation, zero");
    }
    {
        Lcg g(SEED_VX);
        std::vector<float> p((size_t)VXN * 3);
        float cx = 0.5f, cy = 0.5f, cz = 0.5f;
        for (int i = 0; i < VXN; ++i) {
            cx += 0.004f * (u01(g) - 0.5f); cy += 0.004f * (u01(g) - 0.5f); cz += 0.004f * (u01(g) - 0.5f);
            cx = cx - floorf(cx); cy = cy - floorf(cy); cz = cz - floorf(cz);
            p[3 * (size_t)i] = cx; p[3 * (size_t)i + 1] = cy; p[3 * (size_t)i + 2] = cz;
        }
        add_words("VX_PTS", float_words(p), "voxelise: 400,000 float3 points (12-byte AoS) of a wrapped random walk in [0, 1)^3, steps +-0.002 (LCG seed 1815)");
        add_fill("VX_GRID", (size_t)VXG * VXG * VXG / 8, 0u, "voxelise: occupancy bits [128][128][4 words], zero");
    }
    add_words("TI_A", rand_floats((size_t)TIN * TIN, SEED_TI, -1.0f, 1.0f), "in-place transpose: [2,000][2,000] in [-1, 1) (LCG seed 1816)");
    {
        uint32_t T[4][256];
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
            T[0][i] = c;
        }
        for (int t = 1; t < 4; ++t)
            for (int i = 0; i < 256; ++i) T[t][i] = (T[t - 1][i] >> 8) ^ T[0][T[t - 1][i] & 255];
        memcpy(g_crc_t, T, sizeof T);
        add_words("CR_T", std::vector<uint32_t>(g_crc_t, g_crc_t + 1024), "CRC-32: slicing-by-4 tables [4][256] (IEEE reflected polynomial 0xEDB88320)");
        add_words("CR_MSG", lcg_words((size_t)CRN * 16, SEED_CR), "CRC-32: 100,000 records of 64 bytes, next() words (LCG seed 1817)");
        add_fill("CR_OUT", (size_t)CRN * 4, 0u, "CRC-32: checksums, zero");
    }
    add_words("KR_A", rand_floats((size_t)KRM * KRN, SEED_KR, -1.0f, 1.0f), "Kronecker: A [40][50] in [-1, 1) (LCG seed 1818)");
    add_words("KR_B", rand_floats((size_t)KRP * KRQ, SEED_KR + 100, -1.0f, 1.0f), "Kronecker: B [30][37] in [-1, 1)");
    add_fill("KR_OUT", (size_t)KRM * KRP * KRN * KRQ * 4, 0u, "Kronecker: out [1,200][1,850], zero");
    {
        Lcg g(SEED_GN);
        std::vector<uint32_t> idx((size_t)GNN * 6, 0);
        for (int i = 0; i < GNN; ++i) {
            idx[6 * (size_t)i] = g.next() % GND0; idx[6 * (size_t)i + 2] = g.next() % GND1; idx[6 * (size_t)i + 4] = g.next() % GND2;
        }
        add_words("GN_P", rand_floats((size_t)GND0 * GND1 * GND2 * 16, SEED_GN + 100, -1.0f, 1.0f), "gather_nd: params [64][48][40][16] floats in [-1, 1) (LCG seed 1919)");
        add_words("GN_IDX", idx, "gather_nd: int64 index triples [50,000][3], next() % 64, % 48, % 40 (LCG seed 1819)");
        add_fill("GN_OUT", (size_t)GNN * 64, 0u, "gather_nd: out [50,000][16] floats, zero");
    }
    add_words("RL_IN", rand_floats((size_t)RLNC * RLH * RLW, SEED_RL, -1.0f, 1.0f), "roll: [8][16][90][130] in [-1, 1) (LCG seed 1820)");
    add_fill("RL_OUT", (size_t)RLNC * RLH * RLW * 4, 0u, "roll: out, zero");
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
    {"blind18", "tests/hw/blind18/blind18.ptx"},
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
    const char *K = "blind18";
    L1("bsr_spmv_4x4", K, "bsr_spmv_4x4", {P("BSR_RP"), P("BSR_CI"), P("BSR_V"), P("BSR_X"), P("BSR_Y"), S32(BNR)}, BNR * 32, 256,
       "BSR SpMV with 4 x 4 blocks (cuSPARSE bsrmv style): 5,000 block rows of 1..12 sorted distinct block columns of 4,000, a warp a block row, 16 lanes a block (two blocks a pass), the 64-byte block read whole, x gathered at 4 bc + c, shuffle reduction, 4 lanes store");
    L1("tpmv_packed_lower", K, "tpmv_packed_lower", {P("TP_AP"), P("TP_X"), P("TP_Y"), S32(TPN)}, TPN, 128,
       "BLAS tpmv (lower, column-major packed storage): y = L x, n = 2,000, a thread a row i, the loop j = 0 .. i (lanes of a warp differ by one trip), AP[j (2n - j + 1) / 2 + i - j], x[j] through __ldg");
    L1("gbmv_band", K, "gbmv_band", {P("GB_AB"), P("GB_X"), P("GB_Y"), S32(GBN), S32(GBKL), S32(GBKU)}, GBN, 256,
       "BLAS gbmv (band storage, column-major, lda = kl + ku + 1 = 6): y = A x, n = 500,000, kl 3, ku 2, a thread a row, AB[j 6 + ku + i - j] for j in max(0, i - 3) .. min(n - 1, i + 2)");
    L1("laswp_colmajor", K, "laswp_colmajor", {P("LS_A"), S32(LSM), S32(LSN), P("LS_PIV"), S32(0), S32(LSK)}, LSN, 128,
       "LAPACK laswp: 64 row interchanges k <-> ipiv[k] (loaded, 13 of them k itself) applied in order to a column-major [1,000 x 800] matrix (lda 1,000), a thread a column (4,000-byte lane stride)");
    L("floyd_warshall_phase3", K, "floyd_warshall_phase3", (FWN + 31) / 32, (FWN + 31) / 32, 1, 32, 8, 1, {P("FW_D"), S32(FWN), S32(FWKB)},
      "blocked Floyd-Warshall phase 3 for pivot block 5: int distances [1,000][1,000], 32 x 32 tiles (grid 32 x 32, the pivot row and column blocks return), a 32 x 8 block, the pivot row tile [32][32] and column tile [32][33] in shared memory, 4 rows a thread, ragged last tiles (1,000 = 31 x 32 + 8)");
    L("tf32_mma_gemm", K, "tf32_mma_gemm", TFN / 64, TFM / 64, 1, 128, 1, 1, {P("TF_A"), P("TF_B"), P("TF_C"), S32(TFM), S32(TFN), S32(TFK)},
      "FP32 GEMM as TF32 on the tensor cores: C [512][384] = A [512][256] B [256][384], 64 x 64 block tiles, 4 warps of 32 x 32, mma.sync.m16n8k8.tf32 by inline PTX, fragments read by scalar ld.shared from padded As [2][64][20] / Bs [2][16][72] tiles staged by 16-byte cp.async.cg in two stages, float2 stores");
    L("dct8x8_jpeg", K, "dct8x8_jpeg", DCW / 8, DCH / 8, 1, 8, 8, 1, {P("DC_IMG"), P("DC_Q"), P("DC_COEF"), S32(DCW)},
      "JPEG forward 8 x 8 DCT-II of a 1,000 x 600 uint8 image: an 8 x 8 block a tile (grid 125 x 75), level shift, row and column passes through [8][9] shared tiles, the cosine table in shared memory, quantised by the 64-entry table (__ldg), int16 coefficients block by block");
    L("canny_nms", K, "canny_nms", CNW / 32, CNH / 8, 1, 32, 8, 1, {P("CN_MAG"), P("CN_DIR"), P("CN_EDGE"), S32(CNW), S32(CNH), F32(0.1f)},
      "Canny non-maximum suppression: 1,280 x 720 float magnitudes, the two neighbours along the loaded direction bin (0..3: (1, 0), (1, 1), (0, 1), (1, -1)) compared, uint8 edges, border zero");
    L("stereo_sad_disparity", K, "stereo_sad_disparity", STW / 32, STH / 8, 1, 32, 8, 1, {P("ST_L"), P("ST_R"), P("ST_DISP"), S32(STW), S32(STH)},
      "block-matching stereo: 640 x 480 uint8, 5 x 5 SAD over 32 disparities, the left tile [12][36] and the right tile [12][68] (halo and disparity range, clamped) in shared memory, uint8 disparities");
    L("resize_bicubic_nchw", K, "resize_bicubic_nchw", (BCOW + 31) / 32, (BCOH + 7) / 8, BCNC, 32, 8, 1,
      {P("BC_IN"), P("BC_OUT"), S32(BCIH), S32(BCIW), S32(BCOH), S32(BCOW), F32((float)BCIH / BCOH), F32((float)BCIW / BCOW)},
      "PyTorch bicubic upsampling (align_corners False, A = -0.75), NCHW [4][3][300][400] to [450][520]: a 3-D grid (17, 57, 12) of 32 x 8 blocks, 16 clamped taps a pixel");
    L("marching_squares_cases", K, "marching_squares_cases", (MSW - 1 + 31) / 32, (MSH - 1 + 7) / 8, 1, 32, 8, 1,
      {P("MS_F"), P("MS_CASE"), P("MS_NE"), S32(MSW), S32(MSH), F32(0.0f)},
      "marching squares: a 1,025 x 769 float field, the 4-bit case of each of 1,024 x 768 cells from its four corners (4,100-byte rows), uint8 cases and an int edge count from a __constant__ table");
    L("fft64_radix4_cols", K, "fft64_radix4_cols", (FFW + 31) / 32, 1, 1, 32, 16, 1, {P("FF_IN"), P("FF_OUT"), S32(FFW)},
      "64-point complex FFTs down the 1,000 columns of a float2 [64][1,000] array (8,000-byte rows): a 32 x 16 block for 32 columns, three Stockham radix-4 stages in a [64][33] float2 shared tile, ragged last block (8 columns)");
    L("jfa_step", K, "jfa_step", JFW / 32, JFH / 8, 1, 32, 8, 1, {P("JF_IN"), P("JF_OUT"), S32(JFW), S32(JFH), S32(JFK)},
      "one jump-flooding step (k = 16) on a 1,024 x 768 int2 seed map (0.5% seeds): 9 candidates at offsets of 16 pixels (in bounds, with a seed), squared distances compared, int2 stored");
    L("life_bitpacked", K, "life_bitpacked", (LFWW + 31) / 32, LFH / 8, 1, 32, 8, 1, {P("LF_IN"), P("LF_OUT"), S32(LFWW), S32(LFH)},
      "Conway's life on a bit-packed 1,600 x 1,000 torus: 50 words a row (200-byte rows), a thread a word, 9 words read (wrapped), 32 cells updated in registers; 32 x 8 blocks, ragged last column block (18 words)");
    L1("voxelize_atomicor", K, "voxelize_atomicor", {P("VX_PTS"), P("VX_GRID"), S32(VXN), S32(VXG)}, VXN, 256,
       "point-cloud voxelisation: 400,000 float3 points (12-byte AoS) of a random walk into a 128^3 occupancy bit grid, atomicOr of one bit a point (red.global.or)");
    L("transpose_inplace_sq", K, "transpose_inplace_sq", (TIN + 31) / 32, (TIN + 31) / 32, 1, 32, 8, 1, {P("TI_A"), S32(TIN)},
      "in-place transpose of a square [2,000][2,000] float matrix: grid 63 x 63, the blocks with by <= bx swap the tile pair (by, bx) / (bx, by) through two [32][33] shared tiles (the diagonal tiles alone), the others return; ragged last tiles (16)");
    L1("crc32_slice4", K, "crc32_slice4", {P("CR_MSG"), P("CR_T"), P("CR_OUT"), S32(CRN)}, CRN, 128,
       "CRC-32 (IEEE) of 100,000 64-byte records by slicing-by-4: the [4][256] tables staged in shared memory, a thread a record read as four uint4 (64-byte lane stride), 16 steps of four data-dependent table lookups");
    L("kron_2d", K, "kron_2d", (KRN * KRQ + 31) / 32, KRM * KRP / 8, 1, 32, 8, 1,
      {P("KR_A"), P("KR_B"), P("KR_OUT"), S32(KRM), S32(KRN), S32(KRP), S32(KRQ)},
      "Kronecker product A [40][50] x B [30][37] -> [1,200][1,850], a 32 x 8 block, A[r / 30][c / 37] and B[r % 30][c % 37], streaming stores (__stcs: st.global.cs)");
    L1("gather_nd_i64x3", K, "gather_nd_i64x3", {P("GN_P"), P("GN_IDX"), P("GN_OUT"), S32(GNN), S32(GND1), S32(GND2)}, GNN * 4, 256,
       "TensorFlow gather_nd: 50,000 int64 index triples (24-byte AoS) into params [64][48][40][16] floats, 4 threads a 64-byte slice, a float4 each through __ldg");
    L1("roll2d_nchw", K, "roll2d_nchw", {P("RL_IN"), P("RL_OUT"), S32(RLNC), S32(RLH), S32(RLW), S32(RLSH), S32(RLSW)}, RLNC * RLH * RLW, 256,
       "torch.roll(x, shifts=(5, -13), dims=(2, 3)) of [8][16][90][130] floats: a thread an output element, the source row and column wrapped (520-byte rows)");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind18/host.cpp. Launches run once each, in this order, on one stream. "
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
    if (id == "bsr_spmv_4x4") {
        std::vector<float> o = rb<float>("BSR_Y", 0, (size_t)BNR * 4);
        double worst = 0;
        for (int br = 0; br < BNR; ++br)
            for (int r = 0; r < 4; ++r) {
                double s = 0;
                for (int k = g_bsr_rp[br]; k < g_bsr_rp[br + 1]; ++k)
                    for (int c = 0; c < 4; ++c) s += (double)FW("BSR_V", (size_t)k * 16 + r * 4 + c) * FW("BSR_X", g_bsr_ci[k] * 4 + c);
                worst = std::max(worst, fabs(o[br * 4 + r] - s));
            }
        printf("check %s: max abs error %.2e over 20,000 values\n", id.c_str(), worst);
    } else if (id == "tpmv_packed_lower") {
        std::vector<float> o = rb<float>("TP_Y", 0, TPN);
        double worst = 0;
        for (int i = 0; i < TPN; ++i) {
            double s = 0;
            for (int j = 0; j <= i; ++j) s += (double)FW("TP_AP", (size_t)j * (2 * (size_t)TPN - j + 1) / 2 + i - j) * FW("TP_X", j);
            worst = std::max(worst, fabs(o[i] - s));
        }
        printf("check %s: max abs error %.2e over 2,000 values\n", id.c_str(), worst);
    } else if (id == "gbmv_band") {
        std::vector<float> o = rb<float>("GB_Y", 0, GBN);
        double worst = 0;
        for (int i = 0; i < GBN; ++i) {
            double s = 0;
            for (int j = std::max(0, i - GBKL); j <= std::min(GBN - 1, i + GBKU); ++j)
                s += (double)FW("GB_AB", (size_t)j * 6 + GBKU + i - j) * FW("GB_X", j);
            worst = std::max(worst, fabs(o[i] - s));
        }
        printf("check %s: max abs error %.2e over 500,000 values\n", id.c_str(), worst);
    } else if (id == "laswp_colmajor") {
        std::vector<float> o = rb<float>("LS_A", 0, (size_t)LSM * LSN);
        std::vector<float> a((size_t)LSM * LSN);
        for (size_t i = 0; i < a.size(); ++i) a[i] = FW("LS_A", i);
        for (int j = 0; j < LSN; ++j)
            for (int k = 0; k < LSK; ++k) std::swap(a[(size_t)j * LSM + k], a[(size_t)j * LSM + g_ls_piv[k]]);
        size_t bad = 0;
        for (size_t i = 0; i < a.size(); ++i) bad += o[i] != a[i];
        printf("check %s: %zu of 800,000 values differ\n", id.c_str(), bad);
    } else if (id == "floyd_warshall_phase3") {
        std::vector<int32_t> o = rb<int32_t>("FW_D", 0, (size_t)FWN * FWN);
        auto D = [&](int i, int j) { return (int32_t)W("FW_D")[(size_t)i * FWN + j]; };
        size_t bad = 0;
        for (int i = 0; i < FWN; ++i)
            for (int j = 0; j < FWN; ++j) {
                int ref = D(i, j);
                if (i / 32 != FWKB && j / 32 != FWKB)
                    for (int k = FWKB * 32; k < FWKB * 32 + 32 && k < FWN; ++k) ref = std::min(ref, D(i, k) + D(k, j));
                bad += o[(size_t)i * FWN + j] != ref;
            }
        printf("check %s: %zu of 1,000,000 distances differ\n", id.c_str(), bad);
    } else if (id == "tf32_mma_gemm") {
        std::vector<float> o = rb<float>("TF_C", 0, (size_t)TFM * TFN);
        double worst = 0;
        for (int i = 0; i < TFM; ++i)
            for (int j = 0; j < TFN; ++j) {
                double s = 0;
                for (int k = 0; k < TFK; ++k) s += (double)FW("TF_A", (size_t)i * TFK + k) * FW("TF_B", (size_t)k * TFN + j);
                worst = std::max(worst, fabs(o[(size_t)i * TFN + j] - s));
            }
        printf("check %s: max abs error %.2e over 196,608 values (TF32 inputs)\n", id.c_str(), worst);
    } else if (id == "dct8x8_jpeg") {
        std::vector<int16_t> o = rb<int16_t>("DC_COEF", 0, (size_t)DCW * DCH);
        const uint8_t *im = bytes_of("DC_IMG");
        size_t bad = 0, off1 = 0;
        for (int by = 0; by < DCH / 8; ++by)
            for (int bx = 0; bx < DCW / 8; ++bx)
                for (int v = 0; v < 8; ++v)
                    for (int u = 0; u < 8; ++u) {
                        double s = 0;
                        for (int y = 0; y < 8; ++y)
                            for (int x = 0; x < 8; ++x)
                                s += ((double)im[(size_t)(by * 8 + y) * DCW + bx * 8 + x] - 128.0) * cos((2 * x + 1) * u * M_PI / 16) * cos((2 * y + 1) * v * M_PI / 16);
                        s *= (u == 0 ? sqrt(0.125) : 0.5) * (v == 0 ? sqrt(0.125) : 0.5) / JPEG_Q[v * 8 + u];
                        int got = o[((size_t)by * (DCW / 8) + bx) * 64 + v * 8 + u];
                        bad += abs(got - (int)lrint(s)) > 1;
                        off1 += got != (int)lrint(s);
                    }
        printf("check %s: %zu of 600,000 coefficients off by more than 1 (%zu by 1, rounding)\n", id.c_str(), bad, off1 - bad);
    } else if (id == "canny_nms") {
        std::vector<uint8_t> o = rb<uint8_t>("CN_EDGE", 0, (size_t)CNW * CNH);
        const uint8_t *dir = bytes_of("CN_DIR");
        size_t bad = 0;
        for (int y = 0; y < CNH; ++y)
            for (int x = 0; x < CNW; ++x) {
                uint8_t ref = 0;
                if (x > 0 && y > 0 && x < CNW - 1 && y < CNH - 1) {
                    int d = dir[(size_t)y * CNW + x];
                    int dx = d == 2 ? 0 : 1, dy = d == 0 ? 0 : (d == 3 ? -1 : 1);
                    float m = FW("CN_MAG", (size_t)y * CNW + x), n1 = FW("CN_MAG", (size_t)(y + dy) * CNW + x + dx), n2 = FW("CN_MAG", (size_t)(y - dy) * CNW + x - dx);
                    ref = (m > 0.1f && m >= n1 && m > n2) ? 255 : 0;
                }
                bad += o[(size_t)y * CNW + x] != ref;
            }
        printf("check %s: %zu of 921,600 pixels differ\n", id.c_str(), bad);
    } else if (id == "stereo_sad_disparity") {
        std::vector<uint8_t> o = rb<uint8_t>("ST_DISP", 0, (size_t)STW * STH);
        const uint8_t *Lp = bytes_of("ST_L"), *Rp = bytes_of("ST_R");
        size_t bad = 0, near = 0;
        for (int y = 0; y < STH; ++y)
            for (int x = 0; x < STW; ++x) {
                int best = 0, bc = 1 << 30;
                for (int d = 0; d < STD; ++d) {
                    int c = 0;
                    for (int j = -2; j <= 2; ++j)
                        for (int i = -2; i <= 2; ++i) {
                            int yy = std::min(std::max(y + j, 0), STH - 1);
                            int lx = std::min(std::max(x + i, 0), STW - 1), rx = std::min(std::max(x + i - d, 0), STW - 1);
                            c += abs((int)Lp[(size_t)yy * STW + lx] - (int)Rp[(size_t)yy * STW + rx]);
                        }
                    if (c < bc) { bc = c; best = d; }
                }
                bad += o[(size_t)y * STW + x] != best;
                near += x >= 40 && abs(best - (3 + ((x / 80 + y / 60) % 24))) <= 1;
            }
        printf("check %s: %zu of 307,200 disparities differ (%zu within 1 of the true shift)\n", id.c_str(), bad, near);
    } else if (id == "resize_bicubic_nchw") {
        std::vector<float> o = rb<float>("BC_OUT", 0, (size_t)BCNC * BCOH * BCOW);
        auto c1 = [](double x, double A) { return ((A + 2) * x - (A + 3)) * x * x + 1; };
        auto c2 = [](double x, double A) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; };
        float sh = (float)BCIH / BCOH, sw = (float)BCIW / BCOW;
        double worst = 0;
        for (int nc = 0; nc < BCNC; ++nc)
            for (int oy = 0; oy < BCOH; ++oy)
                for (int ox = 0; ox < BCOW; ++ox) {
                    float fy = (oy + 0.5f) * sh - 0.5f, fx = (ox + 0.5f) * sw - 0.5f;
                    int iy = (int)floorf(fy), ix = (int)floorf(fx);
                    double ty = fy - iy, tx = fx - ix, A = -0.75;
                    double wy[4] = {c2(ty + 1, A), c1(ty, A), c1(1 - ty, A), c2(2 - ty, A)};
                    double wx[4] = {c2(tx + 1, A), c1(tx, A), c1(1 - tx, A), c2(2 - tx, A)};
                    double acc = 0;
                    for (int j = 0; j < 4; ++j)
                        for (int i = 0; i < 4; ++i) {
                            int yy = std::min(std::max(iy - 1 + j, 0), BCIH - 1), xx = std::min(std::max(ix - 1 + i, 0), BCIW - 1);
                            acc += wy[j] * wx[i] * FW("BC_IN", ((size_t)nc * BCIH + yy) * BCIW + xx);
                        }
                    worst = std::max(worst, fabs(o[((size_t)nc * BCOH + oy) * BCOW + ox] - acc));
                }
        printf("check %s: max abs error %.2e over 2,808,000 values\n", id.c_str(), worst);
    } else if (id == "marching_squares_cases") {
        std::vector<uint8_t> oc = rb<uint8_t>("MS_CASE", 0, (size_t)(MSW - 1) * (MSH - 1));
        std::vector<int32_t> oe = rb<int32_t>("MS_NE", 0, (size_t)(MSW - 1) * (MSH - 1));
        static const int E[16] = {0, 2, 2, 2, 2, 4, 2, 2, 2, 2, 4, 2, 2, 2, 2, 0};
        size_t bad = 0;
        for (int y = 0; y < MSH - 1; ++y)
            for (int x = 0; x < MSW - 1; ++x) {
                auto F = [&](int xx, int yy) { return FW("MS_F", (size_t)yy * MSW + xx) > 0.0f; };
                int c = F(x, y) | (F(x + 1, y) << 1) | (F(x + 1, y + 1) << 2) | (F(x, y + 1) << 3);
                size_t k = (size_t)y * (MSW - 1) + x;
                bad += oc[k] != c || oe[k] != E[c];
            }
        printf("check %s: %zu of 786,432 cells differ\n", id.c_str(), bad);
    } else if (id == "fft64_radix4_cols") {
        std::vector<float> o = rb<float>("FF_OUT", 0, (size_t)64 * FFW * 2);
        double worst = 0, mx = 0;
        for (int c = 0; c < FFW; ++c)
            for (int k = 0; k < 64; ++k) {
                double re = 0, im = 0;
                for (int n = 0; n < 64; ++n) {
                    double xr = FW("FF_IN", ((size_t)n * FFW + c) * 2), xi = FW("FF_IN", ((size_t)n * FFW + c) * 2 + 1);
                    double a = -2 * M_PI * (double)((k * n) % 64) / 64;
                    re += xr * cos(a) - xi * sin(a); im += xr * sin(a) + xi * cos(a);
                }
                worst = std::max(worst, std::max(fabs(o[((size_t)k * FFW + c) * 2] - re), fabs(o[((size_t)k * FFW + c) * 2 + 1] - im)));
                mx = std::max(mx, std::max(fabs(re), fabs(im)));
            }
        printf("check %s: max abs error %.2e (largest |X| %.1f) over 64,000 outputs\n", id.c_str(), worst, mx);
    } else if (id == "jfa_step") {
        std::vector<int32_t> o = rb<int32_t>("JF_OUT", 0, (size_t)JFW * JFH * 2);
        const std::vector<uint32_t> &in = W("JF_IN");
        size_t bad = 0;
        for (int y = 0; y < JFH; ++y)
            for (int x = 0; x < JFW; ++x) {
                int bx = (int32_t)in[((size_t)y * JFW + x) * 2], by = (int32_t)in[((size_t)y * JFW + x) * 2 + 1];
                long long bd = bx < 0 ? 0x7fffffff : (long long)(bx - x) * (bx - x) + (long long)(by - y) * (by - y);
                for (int j = -1; j <= 1; ++j)
                    for (int i = -1; i <= 1; ++i) {
                        if (!i && !j) continue;
                        int xx = x + i * JFK, yy = y + j * JFK;
                        if (xx < 0 || yy < 0 || xx >= JFW || yy >= JFH) continue;
                        int sx = (int32_t)in[((size_t)yy * JFW + xx) * 2], sy = (int32_t)in[((size_t)yy * JFW + xx) * 2 + 1];
                        if (sx < 0) continue;
                        long long dd = (long long)(sx - x) * (sx - x) + (long long)(sy - y) * (sy - y);
                        if (dd < bd) { bd = dd; bx = sx; by = sy; }
                    }
                bad += o[((size_t)y * JFW + x) * 2] != bx || o[((size_t)y * JFW + x) * 2 + 1] != by;
            }
        printf("check %s: %zu of 786,432 pixels differ\n", id.c_str(), bad);
    } else if (id == "life_bitpacked") {
        std::vector<uint32_t> o = rb<uint32_t>("LF_OUT", 0, (size_t)LFWW * LFH);
        const std::vector<uint32_t> &in = W("LF_IN");
        int WC = LFWW * 32;
        auto cell = [&](int x, int y) { x = (x + WC) % WC; y = (y + LFH) % LFH; return (int)((in[(size_t)y * LFWW + x / 32] >> (x % 32)) & 1); };
        size_t bad = 0;
        for (int y = 0; y < LFH; ++y)
            for (int x = 0; x < WC; ++x) {
                int n = 0;
                for (int j = -1; j <= 1; ++j)
                    for (int i = -1; i <= 1; ++i) if (i || j) n += cell(x + i, y + j);
                int ref = n == 3 || (cell(x, y) && n == 2);
                bad += (int)((o[(size_t)y * LFWW + x / 32] >> (x % 32)) & 1) != ref;
            }
        printf("check %s: %zu of 1,600,000 cells differ\n", id.c_str(), bad);
    } else if (id == "voxelize_atomicor") {
        std::vector<uint32_t> o = rb<uint32_t>("VX_GRID", 0, (size_t)VXG * VXG * VXG / 32);
        std::vector<uint32_t> ref((size_t)VXG * VXG * VXG / 32, 0);
        for (int i = 0; i < VXN; ++i) {
            int v[3];
            for (int c = 0; c < 3; ++c) v[c] = std::min((int)(FW("VX_PTS", 3 * (size_t)i + c) * VXG), VXG - 1);
            ref[((size_t)v[2] * VXG + v[1]) * (VXG / 32) + (v[0] >> 5)] |= 1u << (v[0] & 31);
        }
        size_t bad = 0, set = 0;
        for (size_t k = 0; k < ref.size(); ++k) { bad += o[k] != ref[k]; set += __builtin_popcount(ref[k]); }
        printf("check %s: %zu of 65,536 words differ (%zu voxels set)\n", id.c_str(), bad, set);
    } else if (id == "transpose_inplace_sq") {
        std::vector<float> o = rb<float>("TI_A", 0, (size_t)TIN * TIN);
        size_t bad = 0;
        for (int i = 0; i < TIN; ++i)
            for (int j = 0; j < TIN; ++j) bad += o[(size_t)i * TIN + j] != FW("TI_A", (size_t)j * TIN + i);
        printf("check %s: %zu of 4,000,000 values differ\n", id.c_str(), bad);
    } else if (id == "crc32_slice4") {
        std::vector<uint32_t> o = rb<uint32_t>("CR_OUT", 0, CRN);
        const uint8_t *m = bytes_of("CR_MSG");
        size_t bad = 0;
        for (int r = 0; r < CRN; ++r) {
            uint32_t c = 0xffffffffu;
            for (int b = 0; b < 64; ++b) c = (c >> 8) ^ g_crc_t[(c ^ m[(size_t)r * 64 + b]) & 255];
            bad += o[r] != ~c;
        }
        printf("check %s: %zu of 100,000 checksums differ (bytewise reference)\n", id.c_str(), bad);
    } else if (id == "kron_2d") {
        std::vector<float> o = rb<float>("KR_OUT", 0, (size_t)KRM * KRP * KRN * KRQ);
        size_t bad = 0;
        for (int r = 0; r < KRM * KRP; ++r)
            for (int c = 0; c < KRN * KRQ; ++c)
                bad += o[(size_t)r * KRN * KRQ + c] != FW("KR_A", (r / KRP) * KRN + c / KRQ) * FW("KR_B", (r % KRP) * KRQ + c % KRQ);
        printf("check %s: %zu of 2,220,000 values differ\n", id.c_str(), bad);
    } else if (id == "gather_nd_i64x3") {
        std::vector<float> o = rb<float>("GN_OUT", 0, (size_t)GNN * 16);
        size_t bad = 0;
        for (int i = 0; i < GNN; ++i) {
            size_t s = (((size_t)W("GN_IDX")[6 * (size_t)i] * GND1 + W("GN_IDX")[6 * (size_t)i + 2]) * GND2 + W("GN_IDX")[6 * (size_t)i + 4]) * 16;
            for (int c = 0; c < 16; ++c) bad += o[(size_t)i * 16 + c] != FW("GN_P", s + c);
        }
        printf("check %s: %zu of 800,000 values differ\n", id.c_str(), bad);
    } else if (id == "roll2d_nchw") {
        std::vector<float> o = rb<float>("RL_OUT", 0, (size_t)RLNC * RLH * RLW);
        size_t bad = 0;
        for (int nc = 0; nc < RLNC; ++nc)
            for (int h = 0; h < RLH; ++h)
                for (int w = 0; w < RLW; ++w)
                    bad += o[((size_t)nc * RLH + h) * RLW + w] != FW("RL_IN", ((size_t)nc * RLH + ((h - RLSH) % RLH + RLH) % RLH) * RLW + ((w - RLSW) % RLW + RLW) % RLW);
        printf("check %s: %zu of 1,497,600 values differ\n", id.c_str(), bad);
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
