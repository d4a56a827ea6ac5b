// warpscope nineteenth held-out batch (tests/hw/blind19): host program, copied from tests/hw/blind18/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules,
// launch table and checks are the nineteenth blind batch's; no tensor map is used).
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


static const uint64_t SEED_KC = 1901;
static const uint64_t SEED_MM = 1902;
static const uint64_t SEED_MH = 1903;
static const uint64_t SEED_RK = 1904;
static const uint64_t SEED_BT = 1905;
static const uint64_t SEED_JP = 1906;
static const uint64_t SEED_ST = 1907;
static const uint64_t SEED_ZB = 1908;
static const uint64_t SEED_SK = 1909;
static const uint64_t SEED_RS = 1910;
static const uint64_t SEED_CS = 1911;
static const uint64_t SEED_IS = 1912;
static const uint64_t SEED_BN = 1913;
static const uint64_t SEED_YO = 1914;
static const uint64_t SEED_DC = 1915;
static const uint64_t SEED_MG = 1916;
static const uint64_t SEED_EU = 1917;
static const uint64_t SEED_PC = 1918;
static const uint64_t SEED_GB = 1919;
static const uint64_t SEED_MF = 1920;
static const std::vector<std::pair<const char *, uint64_t>> SEEDS = {
    {"KC_MSG", SEED_KC}, {"MM_* (one stream)", SEED_MM}, {"MH_* (one stream)", SEED_MH}, {"RK_* (one stream)", SEED_RK},
    {"BT_* (one stream)", SEED_BT}, {"JP_* (one stream)", SEED_JP}, {"ST_* (one stream)", SEED_ST}, {"ZB_TRI", SEED_ZB},
    {"SK_* (one stream)", SEED_SK}, {"RS_* (one stream)", SEED_RS}, {"CS_IMG", SEED_CS}, {"IS_FR", SEED_IS},
    {"BN_* (one stream)", SEED_BN}, {"YO_IN", SEED_YO}, {"DC_* (+100 weights)", SEED_DC}, {"MG_F", SEED_MG},
    {"EU_* (one stream)", SEED_EU}, {"PC_* (one stream)", SEED_PC}, {"GB_* (+100 B)", SEED_GB}, {"MF_* (one stream)", SEED_MF}};
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
static const int KCN = 50000;                                   // Keccak messages of 136 bytes
static const int MMN = 200000;                                  // strings
static const int MHD = 20000;                                   // MinHash documents
static const int RKW = 1 << 19, RKQ = 1000000;                  // bit vector words (2^24 bits), rank queries
static const int BTB = 4000000, BTM = 12;                        // bitap text bytes, pattern length
static const int JPV = 100000;                                  // graph vertices
static const int STN = 200000;                                  // triangular solve rows
static const int ZBW = 1024, ZBH = 768, ZBT = 20000;            // z-buffer
static const int SKV = 300000, SKB = 128;                       // skinning vertices, bones
static const int RSN = 250000, RSS = 96;                        // rays, spheres
static const int CSW = 1000, CSH = 700;                         // census image
static const int ISF = 2000, ISN = 512, ISH = 128;              // iSTFT frames, nfft, hop
static const int BNO = 1024, BNS = 255;                         // binomial options, steps
static const int YOB = 4, YOH = 52, YOW = 52, YOC = 16;         // YOLO head
static const int DCN = 4, DCI = 16, DCO = 8, DCH = 64;          // ConvTranspose2d
static const int MGC = 97;                                      // multigrid coarse points a side (fine 193)
static const int EUN = 1000000;                                 // Euler cells
static const int PCN = 500000, PCG = 512;                       // PIC particles, grid
static const int GBB = 100000;                                  // batched GEMMs
static const int MFU = 300000, MFI = 200000, MFR = 100000;      // MF users, items, ratings

// host copies needed by the checks
static std::vector<int> g_mm_off, g_mh_off, g_jp_rp, g_jp_adj, g_jp_col, g_st_rp, g_st_col, g_st_lvl, g_mf_u, g_mf_i;
static std::vector<uint8_t> g_mm_chars, g_bt_text;
static std::vector<uint32_t> g_rk_super, g_bt_masks;
static const char *BT_PAT = "ACGTTGCAACGT";

static void make_buffers()
{
    add_words("KC_MSG", lcg_words((size_t)KCN * 34, SEED_KC), "Keccak: 50,000 pre-padded messages of 17 uint64 lanes (136 bytes), LCG words (seed 1901)");
    add_fill("KC_OUT", (size_t)KCN * 32, 0u, "Keccak: 4 uint64 a message, zero");
    {
        Lcg g(SEED_MM);
        g_mm_off.assign(MMN + 1, 0);
        for (int s = 0; s < MMN; ++s) {
            int len = (int)(g.next() % 48);
            for (int c = 0; c < len; ++c) g_mm_chars.push_back((uint8_t)('a' + g.next() % 26));
            g_mm_off[s + 1] = (int)g_mm_chars.size();
        }
        add_words("MM_OFF", as_words(g_mm_off), "murmur3: int32 offsets [200,001], string lengths next() % 48 (LCG seed 1902)");
        add_words("MM_CH", bytes_to_words(g_mm_chars), "murmur3: characters 'a' + next() % 26");
        add_fill("MM_OUT", (size_t)MMN * 4, 0u, "murmur3: hashes, zero");
    }
    {
        Lcg g(SEED_MH);
        g_mh_off.assign(MHD + 1, 0);
        std::vector<uint32_t> sh;
        for (int d = 0; d < MHD; ++d) {
            int cnt = 5 + (int)(g.next() % 56);
            for (int k = 0; k < cnt; ++k) sh.push_back(g.next() % 1000000u);
            g_mh_off[d + 1] = (int)sh.size();
        }
        std::vector<uint32_t> coef(128);
        for (auto &c : coef) c = g.next();
        add_words("MH_OFF", as_words(g_mh_off), "MinHash: document offsets [20,001], 5..60 shingles a document (LCG seed 1903)");
        add_words("MH_SH", sh, "MinHash: shingle ids next() % 1,000,000");
        add_words("MH_COEF", coef, "MinHash: 64 multipliers (| 1 in the kernel) then 64 increments");
        add_fill("MH_SIG", (size_t)MHD * 256, 0u, "MinHash: signatures [20,000][64], zero");
    }
    {
        std::vector<uint32_t> bits = lcg_words(RKW, SEED_RK);
        g_rk_super.assign(RKW / 16, 0);
        uint32_t run = 0;
        for (int s = 0; s < RKW / 16; ++s) {
            g_rk_super[s] = run;
            for (int k = 0; k < 16; ++k) run += (uint32_t)__builtin_popcount(bits[s * 16 + k]);
        }
        std::vector<uint32_t> qs = lcg_words(RKQ, SEED_RK + 100);
        for (auto &q : qs) q &= (1u << 24) - 1;
        add_words("RK_BITS", bits, "rank: 2^24 random bits (LCG seed 1904)");
        add_words("RK_SUP", g_rk_super, "rank: cumulative counts every 512 bits [32,768]");
        add_words("RK_Q", qs, "rank: 1,000,000 positions next() & (2^24 - 1) (seed 2004)");
        add_fill("RK_OUT", (size_t)RKQ * 4, 0u, "rank: results, zero");
    }
    {
        Lcg g(SEED_BT);
        g_bt_text.resize(BTB);
        for (auto &c : g_bt_text) c = "ACGT"[g.next() & 3];
        for (int k = 0; k < 3000; ++k) {
            int p = (int)(g.next() % (uint32_t)(BTB - BTM));
            memcpy(&g_bt_text[p], BT_PAT, BTM);
        }
        g_bt_masks.assign(256, 0);
        for (int i = 0; i < BTM; ++i) g_bt_masks[(uint8_t)BT_PAT[i]] |= 1u << i;
        add_words("BT_TEXT", bytes_to_words(g_bt_text), "bitap: 4,000,000 bytes of ACGT (next() & 3), the pattern planted 3,000 times (LCG seed 1905)");
        add_words("BT_MASK", g_bt_masks, "bitap: Shift-And masks [256] of the pattern ACGTTGCAACGT");
        add_fill("BT_CNT", (size_t)(BTB / 64) * 4, 0u, "bitap: match counts of 62,500 chunks, zero");
    }
    {
        Lcg g(SEED_JP);
        g_jp_rp.assign(JPV + 1, 0);
        for (int v = 0; v < JPV; ++v) {
            int deg = 2 + (int)(g.next() % 15);
            for (int k = 0; k < deg; ++k) {
                int u = (int)(g.next() % JPV);
                if (u == v) u = (u + 1) % JPV;
                g_jp_adj.push_back(u);
            }
            g_jp_rp[v + 1] = (int)g_jp_adj.size();
        }
        std::vector<uint32_t> w(JPV);
        for (auto &x : w) x = g.next();
        g_jp_col.assign(JPV, -1);
        for (auto &c : g_jp_col) c = (g.next() % 10 < 3) ? (int)(g.next() % 12) : -1;
        add_words("JP_RP", as_words(g_jp_rp), "colouring: CSR row pointers [100,001], 2..16 random neighbours (LCG seed 1906)");
        add_words("JP_ADJ", as_words(g_jp_adj), "colouring: neighbours next() % 100,000");
        add_words("JP_W", w, "colouring: random weights");
        add_words("JP_COL", as_words(g_jp_col), "colouring: 30% coloured next() % 12, the rest -1");
        add_fill("JP_NEW", (size_t)JPV * 4, 0u, "colouring: new colours, zero");
    }
    {
        Lcg g(SEED_ST);
        g_st_rp.assign(STN + 1, 0);
        std::vector<float> val, b(STN), x(STN, 0.f);
        for (int r = 0; r < STN; ++r) {
            if (r & 1) {
                int cnt = 1 + (int)(g.next() % 8);
                for (int k = 0; k < cnt; ++k) { g_st_col.push_back(2 * (int)(g.next() % (uint32_t)((r + 1) / 2))); val.push_back(u01(g) * 0.2f - 0.1f); }
                g_st_lvl.push_back(r);
            }
            g_st_col.push_back(r); val.push_back(1.0f + u01(g));
            g_st_rp[r + 1] = (int)g_st_col.size();
        }
        for (int r = 0; r < STN; ++r) { b[r] = u01(g) * 2.f - 1.f; if (!(r & 1)) x[r] = u01(g) * 2.f - 1.f; }
        add_words("ST_RP", as_words(g_st_rp), "sptrsv: CSR row pointers [200,001]; odd rows 1..8 entries at even columns below them, then the diagonal (LCG seed 1907)");
        add_words("ST_COL", as_words(g_st_col), "sptrsv: column indices");
        add_words("ST_VAL", float_words(val), "sptrsv: off-diagonal values in [-0.1, 0.1), diagonal in [1, 2)");
        add_words("ST_LVL", as_words(g_st_lvl), "sptrsv: the level's rows: the 100,000 odd rows, sorted");
        add_words("ST_B", float_words(b), "sptrsv: right-hand side in [-1, 1)");
        add_words("ST_X", float_words(x), "sptrsv: x, the even rows (earlier levels) solved, odd rows zero");
    }
    {
        Lcg g(SEED_ZB);
        std::vector<int32_t> t((size_t)ZBT * 9);
        for (int k = 0; k < ZBT; ++k) {
            int cx = (int)(g.next() % (ZBW + 20)) - 10, cy = (int)(g.next() % (ZBH + 20)) - 10;
            int z = (int)(g.next() % (1u << 24));
            for (int v = 0; v < 3; ++v) {
                t[(size_t)k * 9 + v * 3] = cx + (int)(g.next() % 25) - 12;
                t[(size_t)k * 9 + v * 3 + 1] = cy + (int)(g.next() % 25) - 12;
                t[(size_t)k * 9 + v * 3 + 2] = z + (int)(g.next() % 4096);
            }
        }
        add_words("ZB_TRI", as_words(t), "z-buffer: 20,000 triangles of three int (x, y, z) (36 bytes), vertices within 12 pixels of a centre in [-10, 1,034) x [-10, 778) (LCG seed 1908)");
        add_fill("ZB_DEPTH", (size_t)ZBW * ZBH * 4, 0xffffffffu, "z-buffer: depth [768][1,024], 0xffffffff");
    }
    {
        Lcg g(SEED_SK);
        std::vector<float> v((size_t)SKV * 8), bones((size_t)SKB * 12);
        for (int i = 0; i < SKV; ++i) {
            float *p = &v[(size_t)i * 8];
            p[0] = u01(g) * 2 - 1; p[1] = u01(g) * 2 - 1; p[2] = u01(g) * 2 - 1;
            uint32_t ids = (g.next() % 128) | ((g.next() % 128) << 8) | ((g.next() % 128) << 16) | ((g.next() % 128) << 24);
            memcpy(&p[3], &ids, 4);
            float s = 0;
            for (int j = 0; j < 4; ++j) { p[4 + j] = u01(g) + 0.01f; s += p[4 + j]; }
            for (int j = 0; j < 4; ++j) p[4 + j] /= s;
        }
        for (auto &x : bones) x = u01(g) * 2 - 1;
        add_words("SK_V", float_words(v), "skinning: 300,000 vertices of 8 floats (position, 4 bone ids packed in a uint32, 4 weights summing to 1) (LCG seed 1909)");
        add_words("SK_BONES", float_words(bones), "skinning: 128 bone matrices 3 x 4 in [-1, 1)");
        add_fill("SK_OUT", (size_t)SKV * 12, 0u, "skinning: float3 positions, zero");
    }
    {
        Lcg g(SEED_RS);
        std::vector<float> rays((size_t)RSN * 6), sph((size_t)RSS * 4);
        for (int r = 0; r < RSN; ++r) {
            float *p = &rays[(size_t)r * 6];
            p[0] = u01(g) * 0.1f; p[1] = u01(g) * 0.1f; p[2] = 0.f;
            float dx = u01(g) * 2 - 1, dy = u01(g) * 2 - 1, dz = 1.5f, n = sqrtf(dx * dx + dy * dy + dz * dz);
            p[3] = dx / n; p[4] = dy / n; p[5] = dz / n;
        }
        for (int s = 0; s < RSS; ++s) {
            sph[s * 4] = u01(g) * 16 - 8; sph[s * 4 + 1] = u01(g) * 16 - 8; sph[s * 4 + 2] = 5 + u01(g) * 20; sph[s * 4 + 3] = 0.3f + u01(g) * 1.5f;
        }
        add_words("RS_RAYS", float_words(rays), "rays: 250,000 rays of 6 floats (origin near 0, unit direction into +z) (LCG seed 1910)");
        add_words("RS_SPH", float_words(sph), "rays: 96 spheres (centre in [-8, 8)^2 x [5, 25), radius 0.3..1.8)");
        add_fill("RS_T", (size_t)RSN * 4, 0u, "rays: hit distances, zero");
        add_fill("RS_ID", (size_t)RSN * 4, 0u, "rays: sphere ids, zero");
    }
    {
        std::vector<uint32_t> w = lcg_words((CSW * CSH + 3) / 4, SEED_CS);
        add_words("CS_IMG", w, "census: uint8 image 1,000 x 700, LCG bytes (seed 1911)");
        add_fill("CS_OUT", (size_t)CSW * CSH * 4, 0u, "census: descriptors, zero");
    }
    {
        std::vector<float> win(ISN);
        for (int i = 0; i < ISN; ++i) win[i] = 0.5f - 0.5f * cosf(6.2831853f * i / ISN);
        add_words("IS_FR", rand_floats((size_t)ISF * ISN, SEED_IS, -1.f, 1.f), "iSTFT: frames [2,000][512] in [-1, 1) (LCG seed 1912)");
        add_words("IS_WIN", float_words(win), "iSTFT: periodic Hann window [512]");
        add_fill("IS_SIG", (size_t)((ISF - 1) * ISH + ISN) * 4, 0u, "iSTFT: signal [256,384], zero");
    }
    add_words("BN_S", rand_floats(BNO, SEED_BN, 50.f, 150.f), "binomial: spot in [50, 150) (LCG seed 1913)");
    add_words("BN_K", rand_floats(BNO, SEED_BN + 100, 60.f, 140.f), "binomial: strike in [60, 140)");
    add_words("BN_T", rand_floats(BNO, SEED_BN + 200, 0.25f, 2.f), "binomial: expiry in [0.25, 2) years");
    add_words("BN_V", rand_floats(BNO, SEED_BN + 300, 0.1f, 0.5f), "binomial: volatility in [0.1, 0.5)");
    add_fill("BN_P", (size_t)BNO * 4, 0u, "binomial: prices, zero");
    add_words("YO_IN", rand_floats((size_t)YOB * 3 * (5 + YOC) * YOH * YOW, SEED_YO, -4.f, 4.f), "YOLO: logits [4][63][52][52] in [-4, 4) (LCG seed 1914)");
    add_fill("YO_OUT", (size_t)YOB * 3 * YOH * YOW * 24, 0u, "YOLO: boxes [32,448][6], zero");
    add_words("DC_IN", rand_floats((size_t)DCN * DCI * DCH * DCH, SEED_DC, -1.f, 1.f), "deconv: input [4][16][64][64] in [-1, 1) (LCG seed 1915)");
    add_words("DC_W", rand_floats((size_t)DCI * DCO * 16, SEED_DC + 100, -0.5f, 0.5f), "deconv: weights [16][8][4][4] in [-0.5, 0.5)");
    add_fill("DC_OUT", (size_t)DCN * DCO * 4 * DCH * DCH * 4, 0u, "deconv: output [4][8][128][128], zero");
    {
        size_t nf = 2 * MGC - 1;
        add_words("MG_F", rand_floats(nf * nf * nf, SEED_MG, -1.f, 1.f), "multigrid: fine grid 193^3 in [-1, 1) (LCG seed 1916)");
        add_fill("MG_C", (size_t)MGC * MGC * MGC * 4, 0u, "multigrid: coarse grid 97^3, zero");
    }
    {
        Lcg g(SEED_EU);
        std::vector<float> r(EUN), m(EUN), e(EUN);
        for (int i = 0; i < EUN; ++i) {
            float rho = (i < EUN / 2 ? 1.0f : 0.125f) * (1.f + 0.1f * u01(g));
            float u = 0.2f * (u01(g) - 0.5f), p = (i < EUN / 2 ? 1.0f : 0.1f) * (1.f + 0.1f * u01(g));
            r[i] = rho; m[i] = rho * u; e[i] = p / 0.4f + 0.5f * rho * u * u;
        }
        add_words("EU_R", float_words(r), "Euler: density, a perturbed Sod tube of 1,000,000 cells (LCG seed 1917)");
        add_words("EU_M", float_words(m), "Euler: momentum");
        add_words("EU_E", float_words(e), "Euler: total energy");
        add_fill("EU_FR", (size_t)EUN * 4, 0u, "Euler: mass flux, zero");
        add_fill("EU_FM", (size_t)EUN * 4, 0u, "Euler: momentum flux, zero");
        add_fill("EU_FE", (size_t)EUN * 4, 0u, "Euler: energy flux, zero");
    }
    add_words("PC_X", rand_floats(PCN, SEED_PC, 0.f, 511.99f), "PIC: x in [0, 511.99) (LCG seed 1918)");
    add_words("PC_Y", rand_floats(PCN, SEED_PC + 100, 0.f, 511.99f), "PIC: y in [0, 511.99)");
    add_words("PC_Q", rand_floats(PCN, SEED_PC + 200, 0.5f, 1.5f), "PIC: charges in [0.5, 1.5)");
    add_fill("PC_RHO", (size_t)PCG * PCG * 4, 0u, "PIC: charge density [512][512], zero");
    add_words("GB_A", rand_floats((size_t)GBB * 42, SEED_GB, -1.f, 1.f), "batched GEMM: A [100,000][6][7] in [-1, 1) (LCG seed 1919)");
    add_words("GB_B", rand_floats((size_t)GBB * 35, SEED_GB + 100, -1.f, 1.f), "batched GEMM: B [100,000][7][5] in [-1, 1)");
    add_fill("GB_C", (size_t)GBB * 30 * 4, 0u, "batched GEMM: C [100,000][6][5], zero");
    {
        std::vector<int32_t> pu = permutation(MFU, SEED_MF), pi = permutation(MFI, SEED_MF + 100);
        g_mf_u.assign(pu.begin(), pu.begin() + MFR);
        g_mf_i.assign(pi.begin(), pi.begin() + MFR);
        add_words("MF_U", as_words(g_mf_u), "MF: users, the first 100,000 of a permutation of 300,000 (LCG seed 1920)");
        add_words("MF_I", as_words(g_mf_i), "MF: items, the first 100,000 of a permutation of 200,000 (seed 2020)");
        add_words("MF_R", rand_floats(MFR, SEED_MF + 200, 1.f, 5.f), "MF: ratings in [1, 5)");
        add_words("MF_P", rand_floats((size_t)MFU * 32, SEED_MF + 300, 0.f, 0.5f), "MF: user factors [300,000][32] in [0, 0.5)");
        add_words("MF_Q", rand_floats((size_t)MFI * 32, SEED_MF + 400, 0.f, 0.5f), "MF: item factors [200,000][32] in [0, 0.5)");
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
    {"blind19", "tests/hw/blind19/blind19.ptx"},
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
    const char *K = "blind19";
    L1("keccak_f1600_rate136", K, "keccak_f1600_rate136", {P("KC_MSG"), P("KC_OUT"), S32(KCN)}, KCN, 128,
       "Keccak-f[1600] (SHA-3 family) absorbing one pre-padded 136-byte block a thread (17 uint64 lanes, a 136-byte lane stride), 24 rounds in registers (round constants from a __constant__ table), the first 4 lanes out (32-byte lane stride); 50,000 messages, ragged last block");
    L1("murmur3_string_column", K, "murmur3_string_column", {P("MM_OFF"), P("MM_CH"), P("MM_OUT"), S32(MMN), U32(0x9747b28c)}, MMN, 256,
       "MurmurHash3 x86_32 of an Arrow-style string column: 200,000 strings of 0..47 bytes between loaded int32 offsets, a thread a string, 4-byte blocks assembled from byte loads (unaligned), the tail by a switch");
    L1("minhash_sig64", K, "minhash_sig64", {P("MH_OFF"), P("MH_SH"), P("MH_COEF"), P("MH_SIG"), S32(MHD)}, MHD * 32, 256,
       "MinHash signatures: 20,000 documents of 5..60 shingles (loaded offsets), a warp a document, 64 hash functions (two a lane, coefficients staged in shared memory), each shingle id read by the whole warp at one address, [20,000][64] uint32 out");
    L1("rank1_bitvector", K, "rank1_bitvector", {P("RK_BITS"), P("RK_SUP"), P("RK_Q"), P("RK_OUT"), S32(RKQ)}, RKQ, 256,
       "succinct rank1 on a 2^24-bit vector: 1,000,000 random positions, the cumulative count of the 512-bit superblock, the popcounts of the 0..15 words before the position in it (a per-lane trip count), the masked own word; ragged last block");
    L1("bitap_count_chunks", K, "bitap_count_chunks", {P("BT_TEXT"), P("BT_MASK"), P("BT_CNT"), S32(BTB / 64), S32(BTM)}, BTB / 64, 256,
       "Shift-And (bitap) search of a 12-byte pattern in 4,000,000 bytes of DNA: the [256] mask table in shared memory, a thread a 64-byte chunk read as 19 uint32 from 12 bytes before it (64-byte lane stride, the first block's first words skipped), a data-dependent table lookup a byte; 62,500 chunks, ragged last block");
    L1("jones_plassmann_round", K, "jones_plassmann_round", {P("JP_RP"), P("JP_ADJ"), P("JP_W"), P("JP_COL"), P("JP_NEW"), S32(JPV)}, JPV, 256,
       "one Jones-Plassmann colouring round on a random graph of 100,000 vertices (2..16 neighbours, CSR): coloured vertices copy (30%), the others scan their neighbours' colours and weights, the scan stops at the first larger uncoloured neighbour, the smallest free colour by __ffs");
    L1("sptrsv_level_csr", K, "sptrsv_level_csr", {P("ST_RP"), P("ST_COL"), P("ST_VAL"), P("ST_LVL"), P("ST_B"), P("ST_X"), S32((int)g_st_lvl.size())}, (unsigned)g_st_lvl.size(), 128,
       "one level of a level-scheduled sparse lower-triangular solve (CSR, diagonal last): the 100,000 odd rows from a loaded level list, 1..8 off-diagonal entries at even (solved) columns, x gathered, divided by the diagonal, x[r] stored");
    L1("zbuffer_tri_atomicmin", K, "zbuffer_tri_atomicmin", {P("ZB_TRI"), P("ZB_DEPTH"), S32(ZBT), S32(ZBW), S32(ZBH)}, ZBT, 128,
       "z-buffer rasterisation: 20,000 integer-snapped triangles (36-byte records of three int (x, y, z)), a thread a triangle scanning its clamped bounding box (up to 25 x 25), integer edge functions, the flat depth merged by atomicMin (red.global.min.u32) into a 1,024 x 768 buffer");
    L1("skinning_lbs4", K, "skinning_lbs4", {P("SK_V"), P("SK_BONES"), P("SK_OUT"), S32(SKV), S32(SKB)}, SKV, 256,
       "linear blend skinning of 300,000 32-byte vertices (two float4: position + 4 packed bone ids, 4 weights), 128 bone matrices 3 x 4 staged in shared memory and read at the loaded ids (bank conflicts), float3 out (12-byte AoS)");
    L1("ray_sphere_nearest", K, "ray_sphere_nearest", {P("RS_RAYS"), P("RS_SPH"), P("RS_T"), P("RS_ID"), S32(RSN), S32(RSS)}, RSN, 128,
       "ray / sphere nearest hit: 250,000 24-byte AoS rays (origin, direction) against 96 float4 spheres in shared memory (broadcast reads), the hit distance and sphere id out; ragged last block");
    L("census5x5_u8", K, "census5x5_u8", (CSW + 31) / 32, (CSH + 7) / 8, 1, 32, 8, 1, {P("CS_IMG"), P("CS_OUT"), S32(CSW), S32(CSH)},
      "5 x 5 census transform of a 1,000 x 700 uint8 image: a [12][36] uint8 shared tile with a clamped halo staged by a strided loop, 24 comparisons a pixel, a uint32 descriptor out; grid 32 x 88, ragged last blocks both ways (8 columns, 4 rows)");
    L1("istft_overlap_add", K, "istft_overlap_add", {P("IS_FR"), P("IS_WIN"), P("IS_SIG"), S32(ISN), S32(ISH)}, ISF * 256, 256,
       "inverse-STFT overlap-add: 2,000 frames of 512 samples (hop 128), a block a frame, the Hann window staged in shared memory, each windowed sample added into the signal by atomicAdd (red.global.add.f32, 4 frames overlap a sample)");
    L("binomial_option_crr", K, "binomial_option_crr", BNO, 1, 1, 256, 1, 1,
      {P("BN_S"), P("BN_K"), P("BN_T"), P("BN_V"), P("BN_P"), F32(0.03f), S32(BNS)},
      "Cox-Ross-Rubinstein binomial tree for 1,024 European calls: a block an option (its parameters read by every thread at one address), 255 steps of backward induction in a ping-pong [2][256] shared array, a barrier a step, the price by thread 0");
    L1("yolo_decode_head", K, "yolo_decode_head", {P("YO_IN"), P("YO_OUT"), S32(YOB), S32(YOH), S32(YOW), S32(YOC), F32(8.0f)}, YOB * 3 * YOH * YOW, 256,
       "YOLOv3-style head decode: NCHW logits [4][63][52][52] (10,816-byte channel planes), a thread an anchor cell reading its 21 channels down the planes, sigmoid / exp with __constant__ anchors, the class argmax, 6-float boxes out (24-byte AoS); 32,448 cells, ragged last block");
    L("deconv2d_s2k4", K, "deconv2d_s2k4", 2 * DCH / 32, 2 * DCH / 8, DCN * DCO, 32, 8, 1,
      {P("DC_IN"), P("DC_W"), P("DC_OUT"), S32(DCI), S32(DCO), S32(DCH), S32(DCH)},
      "ConvTranspose2d (stride 2, kernel 4, padding 1) in gather form, NCHW [4][16][64][64] to [4][8][128][128]: a thread an output pixel, the 2 x 2 taps of its parity class from each of 16 input channels (edge taps skipped), the weight index by parity (two weights a warp); grid (4, 16, 32)");
    L("mg_restrict_fw27", K, "mg_restrict_fw27", (MGC + 31) / 32, (MGC + 3) / 4, 1, 32, 4, 1, {P("MG_F"), P("MG_C"), S32(MGC)},
      "multigrid full-weighting restriction (27 points) of a vertex-centred 193^3 grid to 97^3: a 32 x 4 block of (i, j) columns marching in k, fine reads at a lane stride of 8 bytes (772-byte rows), boundary points injected; grid 4 x 25, ragged (97 = 3 x 32 + 1, 24 x 4 + 1)");
    L1("euler1d_muscl_rusanov", K, "euler1d_muscl_rusanov", {P("EU_R"), P("EU_M"), P("EU_E"), P("EU_FR"), P("EU_FM"), P("EU_FE"), S32(EUN)}, EUN - 1, 256,
       "1-D Euler equations: MUSCL reconstruction (minmod) and the Rusanov flux at 999,999 interfaces of a 1,000,000-cell Sod tube, conserved variables in three SoA arrays, cells f-1 .. f+2 clamped at the ends, three flux arrays out");
    L1("pic_deposit_cic2d", K, "pic_deposit_cic2d", {P("PC_X"), P("PC_Y"), P("PC_Q"), P("PC_RHO"), S32(PCN), S32(PCG)}, PCN, 256,
       "particle-in-cell cloud-in-cell deposition: 500,000 uniformly random particles (SoA x, y, q) onto a periodic 512 x 512 grid, four atomicAdd (red.global.add.f32) a particle");
    L1("gemm_batched_6x5x7", K, "gemm_batched_6x5x7", {P("GB_A"), P("GB_B"), P("GB_C"), S32(GBB), S32(42), S32(35), S32(30)}, GBB * 30, 128,
       "strided batched small GEMM (gemmStridedBatched shape): C_b [6][5] = A_b [6][7] B_b [7][5] for 100,000 batches, strides 42 / 35 / 30 floats, a thread an element (b = t / 30, i, j by div / mod), 7 unrolled products");
    L1("mf_sgd_warp", K, "mf_sgd_warp", {P("MF_U"), P("MF_I"), P("MF_R"), P("MF_P"), P("MF_Q"), S32(MFR), F32(0.01f), F32(0.02f)}, MFR * 32, 256,
       "matrix-factorisation SGD (Hogwild style; one matching of 100,000 ratings, no user or item twice): a warp a rating, a lane a factor of the 32-float user and item rows (gathered 128-byte rows), the prediction by a butterfly, both rows updated in place");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind19/host.cpp. Launches run once each, in this order, on one stream. "
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


static uint64_t rotl64h(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
static void keccak_ref(uint64_t st[25])
{
    static const uint64_t RC[24] = {
        0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
        0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
        0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
        0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
        0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
        0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};
    static const int rotc[24] = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44};
    static const int piln[24] = {10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1};
    uint64_t bc[5];
    for (int round = 0; round < 24; ++round) {
        for (int i = 0; i < 5; ++i) bc[i] = st[i] ^ st[i + 5] ^ st[i + 10] ^ st[i + 15] ^ st[i + 20];
        for (int i = 0; i < 5; ++i) {
            uint64_t t = bc[(i + 4) % 5] ^ rotl64h(bc[(i + 1) % 5], 1);
            for (int j = 0; j < 25; j += 5) st[j + i] ^= t;
        }
        uint64_t t = st[1];
        for (int i = 0; i < 24; ++i) { int j = piln[i]; bc[0] = st[j]; st[j] = rotl64h(t, rotc[i]); t = bc[0]; }
        for (int j = 0; j < 25; j += 5) {
            for (int i = 0; i < 5; ++i) bc[i] = st[j + i];
            for (int i = 0; i < 5; ++i) st[j + i] ^= (~bc[(i + 1) % 5]) & bc[(i + 2) % 5];
        }
        st[0] ^= RC[round];
    }
}
static uint32_t murmur3_ref(const uint8_t *p, int len, uint32_t h)
{
    const uint32_t c1 = 0xcc9e2d51u, c2 = 0x1b873593u;
    int nb = len / 4;
    for (int b = 0; b < nb; ++b) {
        uint32_t k; memcpy(&k, p + 4 * b, 4);
        k *= c1; k = rotl(k, 15); k *= c2; h ^= k; h = rotl(h, 13); h = h * 5 + 0xe6546b64u;
    }
    uint32_t k = 0;
    const uint8_t *t = p + 4 * nb;
    switch (len & 3) {
    case 3: k ^= (uint32_t)t[2] << 16; // fall through
    case 2: k ^= (uint32_t)t[1] << 8;  // fall through
    case 1: k ^= t[0]; k *= c1; k = rotl(k, 15); k *= c2; h ^= k;
    }
    h ^= (uint32_t)len;
    h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
    return h;
}

static void check_launch(const Launch &l)
{
    const std::string &id = l.id;
    auto W = [&](const char *n) -> const std::vector<uint32_t> & { return buf(n).words; };
    // buffer lookups cached by the name's address (the checks below call FW in their inner loops)
    static std::map<const void *, const std::vector<uint32_t> *> cache;
    auto FW = [&](const char *n, size_t i) {
        auto it = cache.find(n);
        if (it == cache.end()) it = cache.emplace(n, &buf(n).words).first;
        return f32_of((*it->second)[i]);
    };
    if (id == "keccak_f1600_rate136") {
        std::vector<uint64_t> o = rb<uint64_t>("KC_OUT", 0, (size_t)KCN * 4);
        size_t bad = 0;
        const uint64_t *m = reinterpret_cast<const uint64_t *>(W("KC_MSG").data());
        for (int i = 0; i < KCN && !o.empty(); ++i) {
            uint64_t st[25] = {0};
            for (int k = 0; k < 17; ++k) st[k] = m[(size_t)i * 17 + k];
            keccak_ref(st);
            for (int k = 0; k < 4; ++k) bad += o[(size_t)i * 4 + k] != st[k];
        }
        printf("check %s: %zu of 200,000 lanes differ\n", id.c_str(), bad);
    } else if (id == "murmur3_string_column") {
        std::vector<uint32_t> o = rb<uint32_t>("MM_OUT", 0, MMN);
        size_t bad = 0;
        for (int s = 0; s < MMN && !o.empty(); ++s)
            bad += o[s] != murmur3_ref(g_mm_chars.data() + g_mm_off[s], g_mm_off[s + 1] - g_mm_off[s], 0x9747b28cu);
        printf("check %s: %zu of 200,000 hashes differ\n", id.c_str(), bad);
    } else if (id == "minhash_sig64") {
        std::vector<uint32_t> o = rb<uint32_t>("MH_SIG", 0, (size_t)MHD * 64);
        size_t bad = 0;
        const auto &sh = W("MH_SH");
        const auto &cf = W("MH_COEF");
        for (int d = 0; d < MHD && !o.empty(); ++d)
            for (int f = 0; f < 64; ++f) {
                uint32_t m = 0xffffffffu;
                for (int k = g_mh_off[d]; k < g_mh_off[d + 1]; ++k) {
                    uint32_t h = (cf[f] | 1u) * sh[k] + cf[64 + f]; h ^= h >> 15; m = std::min(m, h);
                }
                bad += o[(size_t)d * 64 + f] != m;
            }
        printf("check %s: %zu of 1,280,000 values differ\n", id.c_str(), bad);
    } else if (id == "rank1_bitvector") {
        std::vector<uint32_t> o = rb<uint32_t>("RK_OUT", 0, RKQ);
        const auto &bits = W("RK_BITS");
        const auto &qs = W("RK_Q");
        size_t bad2 = 0;
        for (int q = 0; q < RKQ && !o.empty(); ++q) {
            uint32_t p = qs[q], r = g_rk_super[p >> 9];
            for (uint32_t i = (p >> 9) << 4; i < p / 32; ++i) r += (uint32_t)__builtin_popcount(bits[i]);
            if (p % 32) r += (uint32_t)__builtin_popcount(bits[p / 32] & ((1u << (p % 32)) - 1));
            bad2 += o[q] != r;
        }
        printf("check %s: %zu of 1,000,000 ranks differ (superblock counts by a plain prefix count on the CPU)\n", id.c_str(), bad2);
    } else if (id == "bitap_count_chunks") {
        std::vector<int> o = rb<int>("BT_CNT", 0, BTB / 64);
        size_t bad = 0, total = 0, ref = 0;
        std::vector<int> cnt(BTB / 64, 0);
        for (int e = BTM - 1; e < BTB; ++e)
            if (!memcmp(&g_bt_text[e - BTM + 1], BT_PAT, BTM)) cnt[e / 64]++, ref++;
        for (int c = 0; c < BTB / 64 && !o.empty(); ++c) { bad += o[c] != cnt[c]; total += o[c]; }
        printf("check %s: %zu of 62,500 chunk counts differ (%zu matches, reference %zu)\n", id.c_str(), bad, total, ref);
    } else if (id == "jones_plassmann_round") {
        std::vector<int> o = rb<int>("JP_NEW", 0, JPV);
        size_t bad = 0, newly = 0;
        const auto &w = W("JP_W");
        for (int v = 0; v < JPV && !o.empty(); ++v) {
            int ref;
            if (g_jp_col[v] >= 0) ref = g_jp_col[v];
            else {
                uint32_t used = 0; bool top = true;
                for (int k = g_jp_rp[v]; k < g_jp_rp[v + 1]; ++k) {
                    int u = g_jp_adj[k];
                    if (g_jp_col[u] >= 0) { used |= 1u << g_jp_col[u]; continue; }
                    if (w[u] > w[v] || (w[u] == w[v] && u > v)) { top = false; break; }
                }
                ref = top ? __builtin_ffs((int)~used) - 1 : -1;
                newly += top;
            }
            bad += o[v] != ref;
        }
        printf("check %s: %zu of 100,000 colours differ (%zu newly coloured)\n", id.c_str(), bad, newly);
    } else if (id == "sptrsv_level_csr") {
        std::vector<float> o = rb<float>("ST_X", 0, STN);
        double worst = 0;
        for (int r : g_st_lvl) {
            if (o.empty()) break;
            double s = FW("ST_B", r);
            int e = g_st_rp[r + 1] - 1;
            for (int k = g_st_rp[r]; k < e; ++k) s -= (double)FW("ST_VAL", k) * FW("ST_X", g_st_col[k]);
            s /= FW("ST_VAL", e);
            worst = std::max(worst, fabs(o[r] - s));
        }
        printf("check %s: max abs error %.2e over 100,000 rows\n", id.c_str(), worst);
    } else if (id == "zbuffer_tri_atomicmin") {
        std::vector<uint32_t> o = rb<uint32_t>("ZB_DEPTH", 0, (size_t)ZBW * ZBH);
        std::vector<uint32_t> ref((size_t)ZBW * ZBH, 0xffffffffu);
        const auto &t = W("ZB_TRI");
        for (int k = 0; k < ZBT; ++k) {
            int v[9];
            for (int i = 0; i < 9; ++i) v[i] = (int)t[(size_t)k * 9 + i];
            int x0 = v[0], y0 = v[1], x1 = v[3], y1 = v[4], x2 = v[6], y2 = v[7];
            int area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
            if (!area) continue;
            if (area < 0) { std::swap(x1, x2); std::swap(y1, y2); }
            uint32_t z = (uint32_t)std::min(v[2], std::min(v[5], v[8]));
            for (int y = std::max(std::min(y0, std::min(y1, y2)), 0); y <= std::min(std::max(y0, std::max(y1, y2)), ZBH - 1); ++y)
                for (int x = std::max(std::min(x0, std::min(x1, x2)), 0); x <= std::min(std::max(x0, std::max(x1, x2)), ZBW - 1); ++x) {
                    int e0 = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0);
                    int e1 = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1);
                    int e2 = (x0 - x2) * (y - y2) - (y0 - y2) * (x - x2);
                    if (e0 >= 0 && e1 >= 0 && e2 >= 0) ref[(size_t)y * ZBW + x] = std::min(ref[(size_t)y * ZBW + x], z);
                }
        }
        size_t bad = 0, cov = 0;
        for (size_t i = 0; i < ref.size() && !o.empty(); ++i) { bad += o[i] != ref[i]; cov += ref[i] != 0xffffffffu; }
        printf("check %s: %zu of 786,432 depths differ (%zu covered)\n", id.c_str(), bad, cov);
    } else if (id == "skinning_lbs4") {
        std::vector<float> o = rb<float>("SK_OUT", 0, (size_t)SKV * 3);
        double worst = 0;
        for (int v = 0; v < SKV && !o.empty(); ++v) {
            const uint32_t *p = &W("SK_V")[(size_t)v * 8];
            float a[3] = {f32_of(p[0]), f32_of(p[1]), f32_of(p[2])};
            for (int c = 0; c < 3; ++c) {
                double s = 0;
                for (int j = 0; j < 4; ++j) {
                    int b = (p[3] >> (8 * j)) & 127;
                    double m = FW("SK_BONES", b * 12 + c * 4 + 3);
                    for (int k = 0; k < 3; ++k) m += (double)FW("SK_BONES", b * 12 + c * 4 + k) * a[k];
                    s += f32_of(p[4 + j]) * m;
                }
                worst = std::max(worst, fabs(o[(size_t)v * 3 + c] - s));
            }
        }
        printf("check %s: max abs error %.2e over 900,000 values\n", id.c_str(), worst);
    } else if (id == "ray_sphere_nearest") {
        std::vector<float> o = rb<float>("RS_T", 0, RSN);
        std::vector<int> oi = rb<int>("RS_ID", 0, RSN);
        size_t badid = 0, hits = 0;
        double worst = 0;
        const float *sph = reinterpret_cast<const float *>(W("RS_SPH").data());
        for (int r = 0; r < RSN && !o.empty(); ++r) {
            double best = 1e30; int bi = -1;
            double rr[6];
            for (int k = 0; k < 6; ++k) rr[k] = FW("RS_RAYS", (size_t)r * 6 + k);
            for (int s = 0; s < RSS; ++s) {
                const float *c = sph + s * 4;
                double lx = c[0] - rr[0], ly = c[1] - rr[1], lz = c[2] - rr[2];
                double tb = lx * rr[3] + ly * rr[4] + lz * rr[5];
                double d2 = lx * lx + ly * ly + lz * lz - tb * tb, r2 = (double)c[3] * c[3];
                if (d2 > r2) continue;
                double t0 = tb - sqrt(r2 - d2);
                if (t0 > 1e-4 && t0 < best) { best = t0; bi = s; }
            }
            badid += oi[r] != bi;
            if (bi >= 0 && oi[r] == bi) { ++hits; worst = std::max(worst, fabs(o[r] - best)); }
        }
        printf("check %s: %zu of 250,000 sphere ids differ (grazing rays), %zu hits, max abs error of t %.2e\n", id.c_str(), badid, hits, worst);
    } else if (id == "census5x5_u8") {
        std::vector<uint32_t> o = rb<uint32_t>("CS_OUT", 0, (size_t)CSW * CSH);
        const uint8_t *im = bytes_of("CS_IMG");
        size_t bad = 0;
        for (int y = 0; y < CSH && !o.empty(); ++y)
            for (int x = 0; x < CSW; ++x) {
                uint8_t c = im[y * CSW + x];
                uint32_t d = 0;
                for (int dy = -2; dy <= 2; ++dy)
                    for (int dx = -2; dx <= 2; ++dx) {
                        if (!dy && !dx) continue;
                        int yy = std::min(std::max(y + dy, 0), CSH - 1), xx = std::min(std::max(x + dx, 0), CSW - 1);
                        d = (d << 1) | (im[yy * CSW + xx] < c ? 1u : 0u);
                    }
                bad += o[(size_t)y * CSW + x] != d;
            }
        printf("check %s: %zu of 700,000 descriptors differ\n", id.c_str(), bad);
    } else if (id == "istft_overlap_add") {
        size_t ns = (size_t)(ISF - 1) * ISH + ISN;
        std::vector<float> o = rb<float>("IS_SIG", 0, ns);
        std::vector<double> ref(ns, 0.0);
        for (int f = 0; f < ISF; ++f)
            for (int i = 0; i < ISN; ++i) ref[(size_t)f * ISH + i] += (double)FW("IS_FR", (size_t)f * ISN + i) * FW("IS_WIN", i);
        double worst = 0;
        for (size_t i = 0; i < ns && !o.empty(); ++i) worst = std::max(worst, fabs(o[i] - ref[i]));
        printf("check %s: max abs error %.2e over 256,384 samples\n", id.c_str(), worst);
    } else if (id == "binomial_option_crr") {
        std::vector<float> o = rb<float>("BN_P", 0, BNO);
        double worst = 0;
        for (int k = 0; k < BNO && !o.empty(); ++k) {
            double s = FW("BN_S", k), K = FW("BN_K", k), T = FW("BN_T", k), sg = FW("BN_V", k), r = 0.03;
            double dt = T / BNS, u = exp(sg * sqrt(dt)), d = 1 / u, disc = exp(-r * dt), pu = (exp(r * dt) - d) / (u - d);
            std::vector<double> v(BNS + 1);
            for (int t = 0; t <= BNS; ++t) v[t] = std::max(s * pow(u, 2 * t - BNS) - K, 0.0);
            for (int n = BNS - 1; n >= 0; --n)
                for (int t = 0; t <= n; ++t) v[t] = disc * (pu * v[t + 1] + (1 - pu) * v[t]);
            worst = std::max(worst, fabs(o[k] - v[0]) / std::max(1.0, v[0]));
        }
        printf("check %s: max rel error %.2e over 1,024 prices (fast exp / pow in the kernel)\n", id.c_str(), worst);
    } else if (id == "yolo_decode_head") {
        int HW = YOH * YOW, n = YOB * 3 * HW;
        std::vector<float> o = rb<float>("YO_OUT", 0, (size_t)n * 6);
        double worst = 0;
        size_t badcls = 0;
        const float anc[6] = {10.f, 13.f, 16.f, 30.f, 33.f, 23.f};
        for (int i = 0; i < n && !o.empty(); ++i) {
            int cell = i % HW, a = (i / HW) % 3, b = i / (3 * HW);
            size_t base = ((size_t)b * 3 * 21 + a * 21) * HW + cell;
            auto P_ = [&](int c) { return (double)FW("YO_IN", base + (size_t)c * HW); };
            int bc = 0; double best = -1e30;
            for (int c = 0; c < YOC; ++c) if (P_(5 + c) > best) { best = P_(5 + c); bc = c; }
            double ref[6] = {(cell % YOW + 1 / (1 + exp(-P_(0)))) * 8, (cell / YOW + 1 / (1 + exp(-P_(1)))) * 8,
                             exp(P_(2)) * anc[2 * a], exp(P_(3)) * anc[2 * a + 1], 1 / (1 + exp(-P_(4))), (double)bc};
            for (int k = 0; k < 5; ++k) worst = std::max(worst, fabs(o[(size_t)i * 6 + k] - ref[k]) / std::max(1.0, fabs(ref[k])));
            badcls += o[(size_t)i * 6 + 5] != ref[5];
        }
        printf("check %s: max rel error %.2e, %zu of 32,448 classes differ\n", id.c_str(), worst, badcls);
    } else if (id == "deconv2d_s2k4") {
        int OH = 2 * DCH;
        std::vector<float> o = rb<float>("DC_OUT", 0, (size_t)DCN * DCO * OH * OH);
        std::vector<double> ref((size_t)DCN * DCO * OH * OH, 0.0);
        for (int n = 0; n < DCN; ++n)
            for (int ci = 0; ci < DCI; ++ci)
                for (int iy = 0; iy < DCH; ++iy)
                    for (int ix = 0; ix < DCH; ++ix) {
                        double v = FW("DC_IN", (((size_t)n * DCI + ci) * DCH + iy) * DCH + ix);
                        for (int co = 0; co < DCO; ++co)
                            for (int ky = 0; ky < 4; ++ky)
                                for (int kx = 0; kx < 4; ++kx) {
                                    int oy = iy * 2 - 1 + ky, ox = ix * 2 - 1 + kx;
                                    if (oy < 0 || oy >= OH || ox < 0 || ox >= OH) continue;
                                    ref[(((size_t)n * DCO + co) * OH + oy) * OH + ox] += v * FW("DC_W", ((size_t)ci * DCO + co) * 16 + ky * 4 + kx);
                                }
                    }
        double worst = 0;
        for (size_t i = 0; i < ref.size() && !o.empty(); ++i) worst = std::max(worst, fabs(o[i] - ref[i]));
        printf("check %s: max abs error %.2e over 524,288 values (scatter-form reference)\n", id.c_str(), worst);
    } else if (id == "mg_restrict_fw27") {
        std::vector<float> o = rb<float>("MG_C", 0, (size_t)MGC * MGC * MGC);
        size_t nf = 2 * MGC - 1;
        double worst = 0;
        for (int k = 0; k < MGC && !o.empty(); ++k)
            for (int j = 0; j < MGC; ++j)
                for (int i = 0; i < MGC; ++i) {
                    size_t f = ((size_t)(2 * k) * nf + 2 * j) * nf + 2 * i;
                    double s = 0;
                    if (!i || !j || !k || i == MGC - 1 || j == MGC - 1 || k == MGC - 1) s = FW("MG_F", f);
                    else
                        for (int dz = -1; dz <= 1; ++dz)
                            for (int dy = -1; dy <= 1; ++dy)
                                for (int dx = -1; dx <= 1; ++dx)
                                    s += (dx ? 0.5 : 1) * (dy ? 0.5 : 1) * (dz ? 0.5 : 1) * 0.125 * FW("MG_F", f + dz * nf * nf + dy * nf + dx);
                    worst = std::max(worst, fabs(o[((size_t)k * MGC + j) * MGC + i] - s));
                }
        printf("check %s: max abs error %.2e over 912,673 values\n", id.c_str(), worst);
    } else if (id == "euler1d_muscl_rusanov") {
        std::vector<float> fr = rb<float>("EU_FR", 0, EUN), fm = rb<float>("EU_FM", 0, EUN), fe = rb<float>("EU_FE", 0, EUN);
        double worst = 0;
        auto mm = [](double a, double b) { return a * b <= 0 ? 0.0 : (fabs(a) < fabs(b) ? a : b); };
        const char *names[3] = {"EU_R", "EU_M", "EU_E"};
        for (int f = 0; f < EUN - 1 && !fr.empty(); ++f) {
            int idx[4] = {std::max(f - 1, 0), f, f + 1, std::min(f + 2, EUN - 1)};
            double L[3], R[3];
            for (int v = 0; v < 3; ++v) {
                double q[4];
                for (int k = 0; k < 4; ++k) q[k] = FW(names[v], idx[k]);
                L[v] = q[1] + 0.5 * mm(q[1] - q[0], q[2] - q[1]);
                R[v] = q[2] - 0.5 * mm(q[2] - q[1], q[3] - q[2]);
            }
            double uL = L[1] / L[0], uR = R[1] / R[0], pL = 0.4 * (L[2] - 0.5 * L[0] * uL * uL), pR = 0.4 * (R[2] - 0.5 * R[0] * uR * uR);
            double aL = sqrt(1.4 * std::max(pL, 1e-6) / L[0]), aR = sqrt(1.4 * std::max(pR, 1e-6) / R[0]);
            double sm = std::max(fabs(uL) + aL, fabs(uR) + aR);
            double r0 = 0.5 * (L[1] + R[1]) - 0.5 * sm * (R[0] - L[0]);
            double r1 = 0.5 * (L[1] * uL + pL + R[1] * uR + pR) - 0.5 * sm * (R[1] - L[1]);
            double r2 = 0.5 * ((L[2] + pL) * uL + (R[2] + pR) * uR) - 0.5 * sm * (R[2] - L[2]);
            worst = std::max(worst, std::max(fabs(fr[f] - r0), std::max(fabs(fm[f] - r1), fabs(fe[f] - r2))));
        }
        printf("check %s: max abs error %.2e over 2,999,997 fluxes\n", id.c_str(), worst);
    } else if (id == "pic_deposit_cic2d") {
        std::vector<float> o = rb<float>("PC_RHO", 0, (size_t)PCG * PCG);
        std::vector<double> ref((size_t)PCG * PCG, 0.0);
        for (int p = 0; p < PCN; ++p) {
            float x = FW("PC_X", p), y = FW("PC_Y", p), c = FW("PC_Q", p);
            int i0 = (int)floorf(x), j0 = (int)floorf(y);
            double fx = x - i0, fy = y - j0;
            int i1 = (i0 + 1) % PCG, j1 = (j0 + 1) % PCG;
            ref[j0 * PCG + i0] += c * (1 - fx) * (1 - fy); ref[j0 * PCG + i1] += c * fx * (1 - fy);
            ref[j1 * PCG + i0] += c * (1 - fx) * fy; ref[j1 * PCG + i1] += c * fx * fy;
        }
        double worst = 0;
        for (size_t i = 0; i < ref.size() && !o.empty(); ++i) worst = std::max(worst, fabs(o[i] - ref[i]));
        printf("check %s: max abs error %.2e over 262,144 cells\n", id.c_str(), worst);
    } else if (id == "gemm_batched_6x5x7") {
        std::vector<float> o = rb<float>("GB_C", 0, (size_t)GBB * 30);
        double worst = 0;
        for (int b = 0; b < GBB && !o.empty(); ++b)
            for (int i = 0; i < 6; ++i)
                for (int j = 0; j < 5; ++j) {
                    double s = 0;
                    for (int k = 0; k < 7; ++k) s += (double)FW("GB_A", (size_t)b * 42 + i * 7 + k) * FW("GB_B", (size_t)b * 35 + k * 5 + j);
                    worst = std::max(worst, fabs(o[(size_t)b * 30 + i * 5 + j] - s));
                }
        printf("check %s: max abs error %.2e over 3,000,000 values\n", id.c_str(), worst);
    } else if (id == "mf_sgd_warp") {
        std::vector<float> P_ = rb<float>("MF_P", 0, (size_t)MFU * 32), Q_ = rb<float>("MF_Q", 0, (size_t)MFI * 32);
        double worst = 0;
        for (int r = 0; r < MFR && !P_.empty(); ++r) {
            int u = g_mf_u[r], it = g_mf_i[r];
            double d = 0;
            for (int k = 0; k < 32; ++k) d += (double)FW("MF_P", (size_t)u * 32 + k) * FW("MF_Q", (size_t)it * 32 + k);
            double err = FW("MF_R", r) - d;
            for (int k = 0; k < 32; ++k) {
                double p = FW("MF_P", (size_t)u * 32 + k), q = FW("MF_Q", (size_t)it * 32 + k);
                worst = std::max(worst, fabs(P_[(size_t)u * 32 + k] - (p + 0.01 * (err * q - 0.02 * p))));
                worst = std::max(worst, fabs(Q_[(size_t)it * 32 + k] - (q + 0.01 * (err * p - 0.02 * q))));
            }
        }
        printf("check %s: max abs error %.2e over 6,400,000 updated factors\n", id.c_str(), worst);
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
