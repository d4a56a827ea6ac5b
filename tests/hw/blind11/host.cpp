// warpscope eleventh held-out batch (tests/hw/blind11): host program, copied from tests/hw/blind10/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules,
// launch table and checks are the eleventh blind batch's; two tensor maps).
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

static const uint64_t SEED_RAND8M = 1101;
static const uint64_t SEED_FRND = 1102;
static const uint64_t SEED_HALF = 1103;
static const uint64_t SEED_GRAPH = 1104;
static const uint64_t SEED_TRI = 1105;
static const uint64_t SEED_FDTD = 1106;
static const uint64_t SEED_PART = 1107;
static const uint64_t SEED_SPH = 1108;
static const uint64_t SEED_GROUP = 1109;
static const uint64_t SEED_SEL = 1110;
static const uint64_t SEED_VALID = 1111;
static const uint64_t SEED_MERGE = 1112;
static const uint64_t SEED_MOE = 1113;
static const uint64_t SEED_AWQ = 1114;
static const uint64_t SEED_CCL = 1115;
static const std::vector<std::pair<const char *, uint64_t>> SEEDS = {
    {"RAND8M (next() words)", SEED_RAND8M}, {"FRND (next() words)", SEED_FRND}, {"HALF", SEED_HALF},
    {"GRP/GCI/GWT/DIST/DISTN (one stream)", SEED_GRAPH}, {"TRP/TCI/TES (one stream)", SEED_TRI},
    {"EZ/HX/HY/CA (one stream)", SEED_FDTD}, {"PPOS", SEED_PART}, {"SPOS/SCS/SCE", SEED_SPH},
    {"GKEYS (key choice; keys from the same stream)", SEED_GROUP}, {"SEL5/SEL60 (one stream)", SEED_SEL},
    {"VALID", SEED_VALID}, {"MA/MB (one stream)", SEED_MERGE}, {"MSRC/MPOS/GATE (one stream)", SEED_MOE},
    {"QW/QS/QZ (one stream)", SEED_AWQ}, {"LAB", SEED_CCL}};


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

static const int GN = 262144;             // PageRank / SSSP graph: vertices
static int g_gm = 0;                      // its edges
static const int TN = 65536;              // triangle graph: vertices
static int g_tm = 0;                      // its (oriented) edges
static const int FD = 1000;               // FDTD grid side (pitch 1,000 floats)
static const int PN = 1000000, PG = 64;   // particles, cells a side
static const int SN = 262144, SG = 32;    // SPH particles, cells a side
static const int GROWS = 4000000, GKEYS_N = 3000, GTAB = 8192;
static const int SELN = 2000000;
static int g_nsel5 = 0, g_nsel60 = 0;
static const int MNA = 1000000, MNB = 1500001;
static const int MOE_T = 4096, MOE_K = 2, MOE_E = 64, MOE_H = 1000;
static const int AWQ_K = 4096, AWQ_N = 11008;
static const int CW = 1000, CH = 1000;    // label image
static std::vector<int> g_pcount;         // particles a cell (CPU)

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

static uint32_t mix32(uint32_t k)
{
    k ^= k >> 16; k *= 0x85ebca6bu; k ^= k >> 13; k *= 0xc2b2ae35u; k ^= k >> 16;
    return k;
}
static int cell_of(float x, float y, float z, int g)
{
    int cx = std::min(g - 1, std::max(0, (int)(x * g)));
    int cy = std::min(g - 1, std::max(0, (int)(y * g)));
    int cz = std::min(g - 1, std::max(0, (int)(z * g)));
    return (cz * g + cy) * g + cx;
}
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void make_buffers()
{
    const size_t MiB = 1 << 20;
    add_fill("C", 64 * MiB, 0x00000000u, "zero");
    add_fill("D", 64 * MiB, 0x00000000u, "zero");
    add_fill("ACC", 1 * MiB, 0x00000000u, "zero: counters (triangles at byte 0 (u64), bitmap counts at 64 and 128, the label-propagation flag at 192) and awq_gemv_int4's 11,008 float outputs at byte 4,096");
    add_words("RAND8M", lcg_words(2097152, SEED_RAND8M),
              "2,097,152 uint32 words: successive next() of the LCG below seeded with 1101 (8 MiB; as bytes: images; as int32: a column; as indices)");
    {
        std::vector<uint32_t> w = lcg_words(4194304, SEED_FRND);
        for (auto &x : w) { float f = unit_float(x) * 2.0f - 1.0f; memcpy(&x, &f, 4); }
        add_words("FRND", w, "4,194,304 float32 in [-1, 1): (next() >> 8) / 2^24 * 2 - 1 (LCG seed 1102)");
    }
    {
        std::vector<uint32_t> w = lcg_words(4194304, SEED_HALF);
        for (auto &x : w) x = (uint32_t)f2h(unit_float(x) * 2.0f - 1.0f) | ((uint32_t)f2h(unit_float(x * 2654435761u) * 2.0f - 1.0f) << 16);
        add_words("HALF", w, "8,388,608 fp16 in (-1, 1): word k = (h(u(r)), h(u(r * 2654435761 mod 2^32))), r = next() (LCG seed 1103), u(r) = (r >> 8) / 2^24 * 2 - 1, h = round to nearest even (also read as RGBA bytes)");
    }
    {
        // random directed graph: out-degree next() % 24, destinations next() % n, weights 1 + next() % 64
        Lcg g(SEED_GRAPH);
        std::vector<uint32_t> rp(GN + 1), ci, wt;
        rp[0] = 0;
        for (int u = 0; u < GN; ++u) {
            int d = (int)(g.next() % 24);
            for (int k = 0; k < d; ++k) { ci.push_back(g.next() % GN); wt.push_back(1 + g.next() % 64); }
            rp[u + 1] = (uint32_t)ci.size();
        }
        g_gm = (int)ci.size();
        std::vector<uint32_t> dist(GN);
        for (auto &x : dist) { uint32_t r = g.next(); x = (r % 10 == 0) ? (r >> 8) % 1000 : 0x7fffffffu; }
        add_words("GRP", rp, "random graph CSR row pointers, 262,145 ints (LCG seed 1104: out-degree next() % 24, then per edge the destination next() % 262,144 and the weight 1 + next() % 64)");
        add_words("GCI", ci, "the graph's column indices (destinations; read by the PageRank pull as sources of in-edges)");
        add_words("GWT", wt, "the graph's edge weights 1..64");
        add_words("DIST", dist, "SSSP distances: about 10% finite (r % 10 == 0: (r >> 8) % 1000), the rest INT_MAX (r = next() after the graph, same stream)");
        add_words("DISTN", dist, "a copy of DIST (the relaxed distances, updated by atomicMin)");
    }
    {
        // triangle graph: vertex u gets next() % 20 distinct neighbours in u+1 .. u+256 (sorted), v < n
        Lcg g(SEED_TRI);
        std::vector<uint32_t> rp(TN + 1), ci, es;
        rp[0] = 0;
        for (int u = 0; u < TN; ++u) {
            int d = (int)(g.next() % 20);
            std::vector<int> nb;
            for (int k = 0; k < d; ++k) {
                int v = u + 1 + (int)(g.next() % 256);
                if (v < TN) nb.push_back(v);
            }
            std::sort(nb.begin(), nb.end());
            nb.erase(std::unique(nb.begin(), nb.end()), nb.end());
            for (int v : nb) { ci.push_back(v); es.push_back(u); }
            rp[u + 1] = (uint32_t)ci.size();
        }
        g_tm = (int)ci.size();
        add_words("TRP", rp, "oriented graph for triangle counting, 65,536 vertices: CSR row pointers (LCG seed 1105: next() % 20 candidate neighbours u + 1 + next() % 256 a vertex, those < n kept, sorted, duplicates dropped)");
        add_words("TCI", ci, "its sorted adjacency lists");
        add_words("TES", es, "the source vertex of each edge (edge k = (TES[k], TCI[k]))");
    }
    {
        Lcg g(SEED_FDTD);
        std::vector<uint32_t> ez(FD * FD), hx(FD * FD), hy(FD * FD), ca(FD * FD);
        for (auto &x : ez) x = fbits(unit_float(g.next()) - 0.5f);
        for (auto &x : hx) x = fbits(unit_float(g.next()) - 0.5f);
        for (auto &x : hy) x = fbits(unit_float(g.next()) - 0.5f);
        for (auto &x : ca) x = fbits(0.9f + 0.1f * unit_float(g.next()));
        add_words("EZ", ez, "FDTD Ez, 1,000 x 1,000 float32, pitch 1,000 (LCG seed 1106: (next() >> 8) / 2^24 - 0.5, then HX, HY, then CA = 0.9 + 0.1 u)");
        add_words("HX", hx, "FDTD Hx (same stream)");
        add_words("HY", hy, "FDTD Hy (same stream)");
        add_words("CA", ca, "FDTD per-cell E coefficient in [0.9, 1.0) (same stream)");
    }
    {
        Lcg g(SEED_PART);
        std::vector<uint32_t> p((size_t)PN * 4);
        g_pcount.assign(PG * PG * PG, 0);
        for (int i = 0; i < PN; ++i) {
            float x = unit_float(g.next()), y = unit_float(g.next()), z = unit_float(g.next());
            p[4 * i] = fbits(x); p[4 * i + 1] = fbits(y); p[4 * i + 2] = fbits(z); p[4 * i + 3] = fbits(1.0f);
            g_pcount[cell_of(x, y, z, PG)]++;
        }
        std::vector<uint32_t> st(PG * PG * PG);
        uint32_t s = 0;
        for (int c = 0; c < PG * PG * PG; ++c) { st[c] = s; s += g_pcount[c]; }
        add_words("PPOS", p, "1,000,000 particles as float4 (x, y, z, 1) in [0, 1)^3 (LCG seed 1107: x, y, z = (next() >> 8) / 2^24)");
        add_words("PSTART", st, "exclusive prefix sum of the particles a cell (64^3 cells, counted on the CPU): the counting sort's cell starts");
        add_fill("PCNT", (size_t)PG * PG * PG * 4, 0, "zero: particle counts a cell");
        add_fill("PCELL", (size_t)PN * 4, 0, "zero: particle_bin_count's cell ids");
        add_fill("PSLOT", (size_t)PN * 4, 0, "zero: particle_bin_count's slots in the cell");
    }
    {
        Lcg g(SEED_SPH);
        std::vector<std::pair<int, std::array<float, 3>>> v(SN);
        for (int i = 0; i < SN; ++i) {
            float x = unit_float(g.next()), y = unit_float(g.next()), z = unit_float(g.next());
            v[i] = {cell_of(x, y, z, SG), {x, y, z}};
        }
        std::stable_sort(v.begin(), v.end(), [](const std::pair<int, std::array<float, 3>> &a, const std::pair<int, std::array<float, 3>> &b) { return a.first < b.first; });
        std::vector<uint32_t> p((size_t)SN * 4), cs(SG * SG * SG, 0), ce(SG * SG * SG, 0);
        for (int i = 0; i < SN; ++i) {
            p[4 * i] = fbits(v[i].second[0]); p[4 * i + 1] = fbits(v[i].second[1]); p[4 * i + 2] = fbits(v[i].second[2]); p[4 * i + 3] = fbits(1.0f);
        }
        for (int i = SN - 1; i >= 0; --i) cs[v[i].first] = i;
        for (int i = 0; i < SN; ++i) ce[v[i].first] = i + 1;
        add_words("SPOS", p, "262,144 SPH particles as float4 (x, y, z, 1) in [0, 1)^3 (LCG seed 1108), sorted by cell (32^3 cells, stable)");
        add_words("SCS", cs, "cell starts of SPOS (0 for empty cells)");
        add_words("SCE", ce, "cell ends of SPOS (0 for empty cells: empty range)");
    }
    {
        // 3,000 distinct random keys whose table slots mix32(key) & 8191 are all distinct (no probing), rows pick
        // key min(next() % 3000, next() % 3000) (skewed towards the first keys)
        Lcg g(SEED_GROUP);
        std::vector<uint32_t> keys;
        std::vector<char> used(GTAB, 0);
        while ((int)keys.size() < GKEYS_N) {
            uint32_t k = g.next() & 0x7fffffffu;
            uint32_t s = mix32(k) & (GTAB - 1);
            if (used[s]) continue;
            used[s] = 1; keys.push_back(k);
        }
        std::vector<uint32_t> rows(GROWS);
        for (auto &r : rows) { uint32_t a = g.next() % GKEYS_N, b = g.next() % GKEYS_N; r = keys[std::min(a, b)]; }
        add_words("GKEYS", rows, "group-by keys of 4,000,000 rows: 3,000 distinct non-negative keys (next() & 0x7fffffff, LCG seed 1109, kept when mix32(key) & 8191 is a new slot: no collisions), row k's key = keys[min(next() % 3000, next() % 3000)]");
        add_fill("TK", GTAB * 4, 0xFFFFFFFFu, "hash table keys, 8,192 slots, all -1 (empty)");
        add_fill("TS", GTAB * 4, 0, "zero: hash table sums (float)");
        add_fill("TC", GTAB * 4, 0, "zero: hash table counts");
    }
    {
        Lcg g(SEED_SEL);
        std::vector<uint32_t> s5, s60;
        for (int i = 0; i < SELN; ++i) if (g.next() % 100 < 5) s5.push_back(i);
        for (int i = 0; i < SELN; ++i) if (g.next() % 100 < 60) s60.push_back(i);
        g_nsel5 = (int)s5.size(); g_nsel60 = (int)s60.size();
        add_words("SEL5", s5, "selection vector, ascending row ids of 2,000,000 with next() % 100 < 5 (LCG seed 1110)");
        add_words("SEL60", s60, "selection vector, ascending row ids with next() % 100 < 60 (the same stream after SEL5)");
    }
    {
        Lcg g(SEED_VALID);
        std::vector<uint32_t> v(SELN / 32 + 2, 0);
        for (int i = 0; i < (int)v.size() * 32; ++i) if (g.next() % 10 != 0) v[i >> 5] |= 1u << (i & 31);
        add_words("VALID", v, "Arrow validity bitmap of 2,000,064 bits (LSB first), bit i set when next() % 10 != 0 (LCG seed 1111)");
    }
    {
        Lcg g(SEED_MERGE);
        std::vector<uint32_t> a(MNA), b(MNB);
        for (auto &x : a) x = g.next() >> 2;
        for (auto &x : b) x = g.next() >> 2;
        std::sort(a.begin(), a.end()); std::sort(b.begin(), b.end());
        add_words("MA", a, "1,000,000 sorted non-negative ints next() >> 2 (LCG seed 1112)");
        add_words("MB", b, "1,500,001 sorted ints next() >> 2 (the same stream after MA)");
    }
    {
        Lcg g(SEED_MOE);
        std::vector<std::pair<int, int>> ex(MOE_T * MOE_K);
        for (int s = 0; s < MOE_T * MOE_K; ++s) {
            int e = (int)(g.next() % MOE_E);
            if (s % 2 == 1) while (e == ex[s - 1].first) e = (int)(g.next() % MOE_E);
            ex[s] = {e, s};
        }
        std::stable_sort(ex.begin(), ex.end(), [](const std::pair<int, int> &a, const std::pair<int, int> &b) { return a.first < b.first; });
        std::vector<uint32_t> src(MOE_T * MOE_K), pos(MOE_T * MOE_K), gate(MOE_T * MOE_K);
        for (int r = 0; r < MOE_T * MOE_K; ++r) { src[r] = ex[r].second; pos[ex[r].second] = r; }
        for (int t = 0; t < MOE_T; ++t) { float a = unit_float(g.next()); gate[2 * t] = fbits(a); gate[2 * t + 1] = fbits(1.0f - a); }
        add_words("MSRC", src, "MoE: 8,192 token slots (4,096 tokens x top-2) sorted by expert (expert next() % 64 a slot, the second differing from the first; LCG seed 1113, stable sort): slot of each sorted row");
        add_words("MPOS", pos, "the inverse: sorted row of each slot");
        add_words("GATE", gate, "router gates a slot: (u, 1 - u), u = (next() >> 8) / 2^24 (same stream)");
    }
    {
        Lcg g(SEED_AWQ);
        const int N8 = AWQ_N / 8, G = AWQ_K / 128;
        std::vector<uint32_t> qw((size_t)AWQ_K * N8), qs((size_t)G * AWQ_N / 2), qz((size_t)G * N8);
        for (auto &x : qw) x = g.next();
        for (auto &x : qs) { uint32_t r = g.next(); x = (uint32_t)f2h(0.001f + 0.01f * unit_float(r)) | ((uint32_t)f2h(0.001f + 0.01f * unit_float(r * 2654435761u)) << 16); }
        for (auto &x : qz) x = g.next();
        add_words("QW", qw, "AWQ packed int4 weights, K = 4,096 rows x 1,376 words (8 columns a word, AWQ nibble order), next() words (LCG seed 1114)");
        add_words("QS", qs, "AWQ fp16 scales [32 groups][11,008] in [0.001, 0.011) (same stream)");
        add_words("QZ", qz, "AWQ packed zeros [32][1,376] next() words (same stream)");
    }
    {
        Lcg g(SEED_CCL);
        std::vector<uint32_t> lab(CW * CH);
        for (int p = 0; p < CW * CH; ++p) lab[p] = (g.next() % 100 < 60) ? (uint32_t)p : 0xFFFFFFFFu;
        add_words("LAB", lab, "labels of a 1,000 x 1,000 binary image: pixel p foreground (label p) when next() % 100 < 60 (LCG seed 1115), else -1");
        add_words("NEXT", lab, "a copy of LAB (the next labels, lowered by atomicMin)");
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
    {"blind11", "tests/hw/blind11/blind11.ptx"},
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
    const char *K = "blind11";
    // graphs
    L("pagerank_pull_warp", K, "pagerank_pull_warp", GN / 8, 1, 1, 256, 1, 1,
      {P("GRP"), P("GCI"), P("FRND"), P("C"), S32(GN), F32(0.85f)},
      "PageRank pull step: a warp per vertex of 262,144 walks its CSR list (degrees 0..23), gathers contrib[src] at random sources, shuffle reduction, lane 0 stores");
    L1("sssp_relax_atomicmin", K, "sssp_relax_atomicmin", {P("GRP"), P("GCI"), P("GWT"), P("DIST"), P("DISTN"), S32(GN)}, GN, 256,
       "SSSP relaxation: a thread per vertex, the 10% with a finite distance walk their out-edges (degrees 0..23), atomicMin(dist_next[v], d + w) at random v");
    L1("triangle_count_merge", K, "triangle_count_merge", {P("TRP"), P("TCI"), P("TES"), S32(g_tm), P("ACC")}, (unsigned)g_tm, 256,
       "triangle counting on an oriented graph of 65,536 vertices: a thread per edge (u, v), two-pointer intersection of the sorted lists of u and v (loaded bounds), a u64 atomicAdd a warp");
    // physics
    L("fdtd_update_h", K, "fdtd_update_h", 32, 125, 1, 32, 8, 1, {P("EZ"), P("HX"), P("HY"), S32(FD), S32(FD), S32(FD), F32(0.5f)},
      "2-D FDTD H update on a 1,000 x 1,000 Yee grid (pitch 1,000 floats: rows 4,000 bytes apart): Ez at (i, j), (i + 1, j), (i, j + 1); Hx, Hy read and written; 32 x 8 blocks, the last column block 8 wide");
    L("fdtd_update_e", K, "fdtd_update_e", 32, 125, 1, 32, 8, 1,
      {P("EZ"), P("HX"), P("HY"), P("CA"), S32(FD), S32(FD), S32(FD), F32(0.5f)},
      "2-D FDTD E update: Hy at (i, j) and (i - 1, j), Hx at (i, j) and (i, j - 1), a per-cell coefficient; row 0 and column 0 skipped");
    L1("particle_bin_count", K, "particle_bin_count", {P("PPOS"), P("PCNT"), P("PCELL"), P("PSLOT"), S32(PN), S32(PG)}, PN, 256,
       "particle binning pass 1: 1,000,000 float4 positions, the cell of a 64^3 grid, atomicAdd on the cell's count (the returned slot stored)");
    L1("particle_bin_scatter", K, "particle_bin_scatter", {P("PPOS"), P("PCELL"), P("PSLOT"), P("PSTART"), P("D"), S32(PN)}, PN, 256,
       "particle binning pass 2 (counting sort): cell_start[cell] + slot, the float4 scattered there");
    L1("sph_density_cells", K, "sph_density_cells", {P("SPOS"), P("SCS"), P("SCE"), P("C"), S32(SN), S32(SG), F32(1.0f / 32.0f)}, SN, 128,
       "SPH density with a cell list: 262,144 particles sorted by cell (32^3 cells, 8 a cell on average), a thread per particle visits the 27 neighbouring cells (clamped at the box): cell start/end loads, float4 neighbour loads, poly6");
    // databases
    L1("groupby_hash_agg", K, "groupby_hash_agg", {P("GKEYS"), P("FRND"), S32(GROWS), P("TK"), P("TS"), P("TC"), S32(GTAB - 1)}, GROWS, 256,
       "hash group-by SUM / COUNT: 4,000,000 rows, 3,000 keys (skewed) into 8,192 slots by atomicCAS on the key (no collisions by construction), float atomicAdd and int atomicAdd at the slot");
    L1("select_gather_sel5", K, "select_gather_cols", {P("SEL5"), S32(g_nsel5), P("RAND8M"), P("FRND"), P("FRND"), P("C"), P("C", 16 << 20), P("C", 32 << 20)}, (unsigned)g_nsel5, 256,
       "selection-vector gather, 5% of 2,000,000 rows selected (ascending ids): int32, int64 and float32 columns gathered into compact outputs");
    L1("select_gather_sel60", K, "select_gather_cols", {P("SEL60"), S32(g_nsel60), P("RAND8M"), P("FRND"), P("FRND"), P("D"), P("D", 16 << 20), P("D", 32 << 20)}, (unsigned)g_nsel60, 256,
       "the same with 60% selected");
    L1("bitmap_filter_off0", K, "bitmap_filter_gt", {P("RAND8M"), P("VALID"), S32(0), S32(2000000), S32(0), P("C"), P("ACC", 64)}, 2000000, 256,
       "Arrow filter valid && x > 0 over an int32 column of 2,000,000 with its validity bitmap, slice offset 0: a thread per row, the validity word (shared by 32 lanes), a ballot word stored a warp, a warp-aggregated count");
    L1("bitmap_filter_off5", K, "bitmap_filter_gt", {P("RAND8M"), P("VALID"), S32(5), S32(1999995), S32(0), P("D"), P("ACC", 128)}, 1999995, 256,
       "the same on the slice at row offset 5 (values 20 bytes in, validity bits straddling two words), 1,999,995 rows (the last warp partial)");
    L1("merge_path_merge", K, "merge_path_merge", {P("MA"), S32(MNA), P("MB"), S32(MNB), P("C")}, (MNA + MNB + 7) / 8, 128,
       "merge path: 1,000,000 and 1,500,001 sorted ints, a thread per 8 outputs, a bounded binary search on the cross diagonal (about 21 dependent pairs of loads), then 8 merge steps");
    // linear algebra
    L1("batched_inv4x4_aos", K, "batched_inv4x4_aos", {P("FRND"), P("C"), S32(262144)}, 262144, 128,
       "batched 4 x 4 inverse of A + 4 I, 262,144 row-major 64-byte matrices (AoS): four float4 loads and four float4 stores at a 64-byte lane stride");
    L("trsv_lower_warp64", K, "trsv_lower_warp64", 256, 1, 1, 128, 1, 1, {P("FRND"), P("FRND", 8 << 20), P("C"), S32(1024), F32(1.0f / 64.0f)},
      "batched lower-triangular solve, 1,024 column-major 64 x 64 systems (16 KiB apart), a warp per system: 64 columns, the diagonal load (a broadcast) and two column loads below the diagonal a lane (shrinking)");
    L("syrk_tile_pad", K, "syrk_tile_pad", 32, 32, 1, 32, 8, 1, {P("FRND"), P("C"), S32(1024), S32(512)},
      "SYRK C = A A^T lower triangle, A 1,024 x 512 float32: 32 x 32 tiles (blocks above the diagonal exit), both row panels staged in 32 x 33 shared tiles, the second read down a column");
    L("syrk_tile_nopad", K, "syrk_tile_nopad", 32, 32, 1, 32, 8, 1, {P("FRND"), P("D"), S32(1024), S32(512)},
      "the same with unpadded 32 x 32 tiles (the column read 32-way conflicted)");
    // deep learning
    L("moe_permute_rows", K, "moe_permute_rows", MOE_T * MOE_K, 1, 1, 256, 1, 1, {P("FRND"), P("MSRC"), P("C"), S32(MOE_H / 4), S32(MOE_K)},
      "MoE permutation: 8,192 expert-sorted rows, row r copies token MSRC[r] / 2 (hidden 1,000 floats: 4,000-byte rows), 250 float4 a row by 256 threads");
    L("moe_unpermute_combine", K, "moe_unpermute_combine", MOE_T, 1, 1, 256, 1, 1,
      {P("C"), P("MPOS"), P("GATE"), P("D"), S32(MOE_H / 4), S32(MOE_K)},
      "MoE un-permutation: token t sums its two expert rows (at the sorted positions MPOS) weighted by the gates, float4 lanes, 4,000-byte rows");
    L("awq_gemv_int4", K, "awq_gemv_int4", 11, 8, 1, 128, 1, 1,
      {P("FRND"), P("QW"), P("QS"), P("QZ"), P("ACC", 4096), S32(AWQ_K), S32(AWQ_N / 8), S32(512)},
      "AWQ int4 GEMV, K = 4,096, N = 11,008: a thread per packed word of 8 columns (1,376 threads, the last block 96), split-K of 512 over blockIdx.y, a uint4 of fp16 scales and a packed-zero word a group of 128, 8 float atomicAdd (RED) a thread");
    // images
    L("dilate5x5_u16", K, "dilate5x5_u16", 32, 88, 1, 32, 8, 1, {P("RAND8M"), S32(1024), P("C"), S32(1024), S32(1000), S32(700)},
      "grey dilation 5 x 5 of a 1,000 x 700 u16 image (pitch 2,048 bytes): a 36 x 12 u16 shared tile with a clamped halo of 2, loaded by a strided loop of 432 over 256 threads, 25 shared reads a pixel");
    L("resize_area3_u8c3", K, "resize_area3_u8c3", 20, 45, 1, 32, 8, 1, {P("RAND8M"), S32(5760), P("C"), S32(1920), S32(640), S32(360)},
      "INTER_AREA 3x downscale of a 1,920 x 1,080 BGR image (uchar3, pitch 5,760) to 640 x 360: 27 byte loads at a 9-byte lane stride, three byte stores at a 3-byte stride");
    L("rgba_to_i420", K, "rgba_to_i420", 30, 68, 1, 32, 8, 1,
      {P("HALF"), S32(960), P("C"), S32(1920), P("C", 4 << 20), P("C", 5 << 20), S32(960), S32(960), S32(540)},
      "RGBA (1,920 x 1,080, pitch 7,680) to I420: a thread per 2 x 2 block, two 8-byte loads, two uchar2 Y stores (pitch 1,920), a U and a V byte (planes 960 x 540, pitch 960); the last block row half idle");
    L("ccl_label_prop", K, "ccl_label_prop", 32, 125, 1, 32, 8, 1, {P("LAB"), P("NEXT"), S32(CW), S32(CH), P("ACC", 192)},
      "connected components by label propagation with hooking, one sweep over a 1,000 x 1,000 image (60% foreground): 4 neighbour label loads (guarded), atomicMin on the old label's entry and the pixel, a flag a warp");
    // Hopper
    L("tma2d_prefetch_rowsum", K, "tma2d_prefetch_rowsum", 64, 1, 1, 256, 1, 1, {TMAP("FRND", 2048, 2048, 64, 32), P("C"), S32(2048)},
      "row sums of a 2,048 x 2,048 float32 matrix: a CTA a strip of 32 rows, 32 column tiles of 64 x 32 (tensor map, no swizzle) loaded by TMA into one buffer after a cp.async.bulk.prefetch.tensor of the tile two ahead; two LDS.128 a thread a tile");
    L("tma_swz128_ldsm", K, "tma_swz128_ldsm", 256, 1, 1, 128, 1, 1, {TMAP_SWZ(128, "HALF", 2048, 2048, 32, 64), P("C"), S32(8), S32(64)},
      "64 x 64 fp16 tiles (a float32 tensor map over the fp16 buffer, box 32 x 64, 128-byte swizzle) loaded by TMA, 8 tiles a CTA; each warp reads its 16 rows by 4 ldmatrix.x4 and 4 ldmatrix.x4.trans at swizzled addresses");
    L("cpasync_mbar_gather", K, "cpasync_mbar_gather", 256, 1, 1, 256, 1, 1, {P("FRND"), P("RAND8M"), U32(4194303), P("C"), S32(8)},
      "4-byte cp.async.ca gathers FRND[idx & (2^22 - 1)] (random loaded indices) into a 3-stage ring, completion by cp.async.mbarrier.arrive.noinc on each stage's mbarrier (count 256), try_wait.parity, 8 tiles of 1,024 a CTA");
    L("dsmem_st_async_ring", K, "dsmem_st_async_ring", 1024, 1, 1, 256, 1, 1, {P("FRND"), P("C")},
      "clusters of 4 (compiled __cluster_dims__): each thread st.async's a float4 into the next CTA's receive buffer (mapa address, slot 5 t mod 256), complete_tx on that CTA's mbarrier (4,096 bytes expected); float4 in and out");
    L("bulk_s2s_pair", K, "bulk_s2s_pair", 512, 1, 1, 256, 1, 1, {P("FRND"), P("D")},
      "clusters of 2: 8 KiB staged by float4 loads and shared stores, one cp.async.bulk.shared::cluster.shared::cta of 8,192 bytes into the peer's buffer, complete_tx on the peer's mbarrier; pairwise differences stored");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind11/host.cpp. Launches run once each, in this order, on one stream. "
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
    const uint8_t *R8 = bytes_of("RAND8M");
    auto W = [&](const char *n) -> const std::vector<uint32_t> & { return buf(n).words; };
    if (id == "pagerank_pull_warp") {
        std::vector<float> o = rb<float>("C", 0, GN);
        if (o.empty()) return;
        const auto &rp = W("GRP"), &ci = W("GCI");
        float err = 0.0f;
        for (int v = 0; v < GN; ++v) {
            double s = 0.0;
            for (uint32_t k = rp[v]; k < rp[v + 1]; ++k) s += F(ci[k]);
            err = maxabs(err, fabsf(o[v] - (float)((1.0 - 0.85) / GN + 0.85 * s)));
        }
        printf("check %s: max abs error %.3g (%d edges)\n", id.c_str(), err, g_gm);
    } else if (id == "sssp_relax_atomicmin") {
        std::vector<int32_t> o = rb<int32_t>("DISTN", 0, GN);
        if (o.empty()) return;
        const auto &rp = W("GRP"), &ci = W("GCI"), &wt = W("GWT"), &d = W("DIST");
        std::vector<int32_t> ref(d.begin(), d.end());
        for (int u = 0; u < GN; ++u)
            if ((int32_t)d[u] != 0x7fffffff)
                for (uint32_t k = rp[u]; k < rp[u + 1]; ++k) ref[ci[k]] = std::min(ref[ci[k]], (int32_t)(d[u] + wt[k]));
        size_t bad = 0;
        for (int v = 0; v < GN; ++v) bad += o[v] != ref[v];
        printf("check %s: %zu of 262,144 distances differ\n", id.c_str(), bad);
    } else if (id == "triangle_count_merge") {
        std::vector<uint64_t> o = rb<uint64_t>("ACC", 0, 1);
        if (o.empty()) return;
        const auto &rp = W("TRP"), &ci = W("TCI"), &es = W("TES");
        unsigned long long ref = 0;
        for (int e = 0; e < g_tm; ++e) {
            uint32_t u = es[e], v = ci[e], i = rp[u], j = rp[v];
            while (i < rp[u + 1] && j < rp[v + 1]) {
                ref += ci[i] == ci[j];
                uint32_t a = ci[i], b = ci[j];
                i += a <= b; j += b <= a;
            }
        }
        printf("check %s: %llu triangles (CPU %llu), %d edges\n", id.c_str(), (unsigned long long)o[0], ref, g_tm);
    } else if (id == "fdtd_update_h" || id == "fdtd_update_e") {
        std::vector<float> ez(FD * FD), hx(FD * FD), hy(FD * FD), ca(FD * FD);
        for (int c = 0; c < FD * FD; ++c) { ez[c] = f32_of(W("EZ")[c]); hx[c] = f32_of(W("HX")[c]); hy[c] = f32_of(W("HY")[c]); ca[c] = f32_of(W("CA")[c]); }
        for (int j = 0; j + 1 < FD; ++j)
            for (int i = 0; i + 1 < FD; ++i) {
                int c = j * FD + i;
                hx[c] = hx[c] - 0.5f * (ez[c + FD] - ez[c]);
                hy[c] = hy[c] + 0.5f * (ez[c + 1] - ez[c]);
            }
        float err = 0.0f;
        if (id == "fdtd_update_h") {
            std::vector<float> ox = rb<float>("HX", 0, FD * FD), oy = rb<float>("HY", 0, FD * FD);
            if (ox.empty() || oy.empty()) return;
            for (int c = 0; c < FD * FD; ++c) err = maxabs(err, std::max(fabsf(ox[c] - hx[c]), fabsf(oy[c] - hy[c])));
        } else {
            std::vector<float> oz = rb<float>("EZ", 0, FD * FD);
            if (oz.empty()) return;
            for (int j = 1; j < FD; ++j)
                for (int i = 1; i < FD; ++i) {
                    int c = j * FD + i;
                    ez[c] = ca[c] * ez[c] + 0.5f * ((hy[c] - hy[c - 1]) - (hx[c] - hx[c - FD]));
                }
            for (int c = 0; c < FD * FD; ++c) err = maxabs(err, fabsf(oz[c] - ez[c]));
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "particle_bin_count") {
        std::vector<int32_t> o = rb<int32_t>("PCNT", 0, PG * PG * PG);
        if (o.empty()) return;
        size_t bad = 0;
        for (int c = 0; c < PG * PG * PG; ++c) bad += o[c] != g_pcount[c];
        printf("check %s: %zu of 262,144 cell counts differ\n", id.c_str(), bad);
    } else if (id == "particle_bin_scatter") {
        std::vector<float> o = rb<float>("D", 0, (size_t)PN * 4);
        if (o.empty()) return;
        const auto &st = W("PSTART");
        size_t bad = 0;
        int c = 0;
        for (int i = 0; i < PN; ++i) {
            while (c + 1 < PG * PG * PG && (int)st[c + 1] <= i) ++c;
            bad += cell_of(o[4 * i], o[4 * i + 1], o[4 * i + 2], PG) != c || o[4 * i + 3] != 1.0f;
        }
        printf("check %s: %zu of 1,000,000 sorted particles in a wrong cell (order within a cell varies)\n", id.c_str(), bad);
    } else if (id == "sph_density_cells") {
        std::vector<float> o = rb<float>("C", 0, SN);
        if (o.empty()) return;
        const auto &p = W("SPOS");
        float err = 0.0f;
        const float h2 = (1.0f / 32.0f) * (1.0f / 32.0f);
        for (int i = 0; i < SN; i += 997) {
            double s = 0.0;
            for (int j = 0; j < SN; ++j) {
                float rx = f32_of(p[4 * i]) - f32_of(p[4 * j]), ry = f32_of(p[4 * i + 1]) - f32_of(p[4 * j + 1]), rz = f32_of(p[4 * i + 2]) - f32_of(p[4 * j + 2]);
                float d = std::max(h2 - (rx * rx + ry * ry + rz * rz), 0.0f);
                s += (double)d * d * d;
            }
            err = maxabs(err, (float)(fabs(o[i] - s) / std::max(1e-12, s)));
        }
        printf("check %s: max rel error %.3g (263 sampled particles, brute force)\n", id.c_str(), err);
    } else if (id == "groupby_hash_agg") {
        std::vector<int32_t> tk = rb<int32_t>("TK", 0, GTAB), tc = rb<int32_t>("TC", 0, GTAB);
        std::vector<float> ts = rb<float>("TS", 0, GTAB);
        if (tk.empty() || tc.empty() || ts.empty()) return;
        std::map<int32_t, std::pair<double, int>> ref;
        const auto &k = W("GKEYS");
        for (int i = 0; i < GROWS; ++i) { auto &e = ref[(int32_t)k[i]]; e.first += F(i); e.second++; }
        size_t bad = 0, used = 0;
        float err = 0.0f;
        for (int s = 0; s < GTAB; ++s) {
            if (tk[s] == -1) continue;
            ++used;
            auto it = ref.find(tk[s]);
            if (it == ref.end() || it->second.second != tc[s]) { ++bad; continue; }
            err = maxabs(err, (float)fabs(ts[s] - it->second.first));
        }
        printf("check %s: %zu slots used (%zu keys), %zu wrong counts, max abs sum error %.3g\n", id.c_str(), used, ref.size(), bad, err);
    } else if (id == "select_gather_sel5" || id == "select_gather_sel60") {
        const std::string ob = p_buf(l, 5);
        const auto &sel = W(id == "select_gather_sel5" ? "SEL5" : "SEL60");
        int n = (int)sel.size();
        std::vector<uint32_t> a = rb<uint32_t>(ob, 0, n), c = rb<uint32_t>(ob, 32 << 20, n);
        std::vector<uint64_t> b = rb<uint64_t>(ob, 16 << 20, n);
        if (a.empty() || b.empty() || c.empty()) return;
        const auto &r8 = W("RAND8M");
        size_t bad = 0;
        for (int k = 0; k < n; ++k) {
            uint32_t r = sel[k];
            uint64_t bv = (uint64_t)FR[2 * r] | ((uint64_t)FR[2 * r + 1] << 32);
            bad += a[k] != r8[r] || b[k] != bv || c[k] != FR[r];
        }
        printf("check %s: %zu of %d selected rows differ\n", id.c_str(), bad, n);
    } else if (id == "bitmap_filter_off0" || id == "bitmap_filter_off5") {
        int off = (int)l.params[2].ival, n = (int)l.params[3].ival;
        std::vector<uint32_t> o = rb<uint32_t>(p_buf(l, 5), 0, (n + 31) / 32);
        std::vector<int32_t> cnt = rb<int32_t>("ACC", p_off(l, 6), 1);
        if (o.empty() || cnt.empty()) return;
        const auto &v = W("VALID"), &x = W("RAND8M");
        size_t bad = 0;
        long long count = 0;
        for (int w = 0; w < (n + 31) / 32; ++w) {
            uint32_t ref = 0;
            for (int b = 0; b < 32 && 32 * w + b < n; ++b) {
                int i = 32 * w + b, bit = off + i;
                if (((v[bit >> 5] >> (bit & 31)) & 1) && (int32_t)x[off + i] > 0) ref |= 1u << b;
            }
            bad += o[w] != ref;
            count += __builtin_popcount(ref);
        }
        printf("check %s: %zu of %d words differ, count %d (CPU %lld)\n", id.c_str(), bad, (n + 31) / 32, cnt[0], count);
    } else if (id == "merge_path_merge") {
        std::vector<uint32_t> o = rb<uint32_t>("C", 0, MNA + MNB);
        if (o.empty()) return;
        std::vector<uint32_t> ref;
        std::merge(W("MA").begin(), W("MA").end(), W("MB").begin(), W("MB").end(), std::back_inserter(ref));
        size_t bad = 0;
        for (int k = 0; k < MNA + MNB; ++k) bad += o[k] != ref[k];
        printf("check %s: %zu of 2,500,001 outputs differ\n", id.c_str(), bad);
    } else if (id == "batched_inv4x4_aos") {
        std::vector<float> o = rb<float>("C", 0, 262144 * 16);
        if (o.empty()) return;
        float err = 0.0f;
        for (int t = 0; t < 262144; t += 61) {
            for (int r = 0; r < 4; ++r)
                for (int c = 0; c < 4; ++c) {
                    double s = 0.0;
                    for (int k = 0; k < 4; ++k) s += (double)(F(16 * t + 4 * r + k) + (r == k ? 4.0f : 0.0f)) * o[16 * t + 4 * k + c];
                    err = maxabs(err, (float)fabs(s - (r == c)));
                }
        }
        printf("check %s: max |A inv(A) - I| %.3g (every 61st matrix)\n", id.c_str(), err);
    } else if (id == "trsv_lower_warp64") {
        std::vector<float> o = rb<float>("C", 0, 1024 * 64);
        if (o.empty()) return;
        float err = 0.0f;
        for (int s = 0; s < 1024; ++s)
            for (int i = 0; i < 64; ++i) {
                double r = 0.0;
                for (int j = 0; j < i; ++j) r += (1.0 / 64.0) * F((size_t)s * 4096 + j * 64 + i) * o[s * 64 + j];
                r += (F((size_t)s * 4096 + i * 64 + i) + 2.0f) * o[s * 64 + i];
                err = maxabs(err, (float)fabs(r - F(2097152 + (size_t)s * 64 + i)));
            }
        printf("check %s: max residual %.3g\n", id.c_str(), err);
    } else if (id == "syrk_tile_pad" || id == "syrk_tile_nopad") {
        std::vector<float> o = rb<float>(p_buf(l, 1), 0, 1024 * 1024);
        if (o.empty()) return;
        float err = 0.0f;
        for (int i = 0; i < 1024; i += 7)
            for (int j = 0; j <= i; j += 5) {
                double s = 0.0;
                for (int k = 0; k < 512; ++k) s += (double)F(i * 512 + k) * F(j * 512 + k);
                err = maxabs(err, (float)fabs(o[i * 1024 + j] - s));
            }
        printf("check %s: max abs error %.3g (sampled lower triangle)\n", id.c_str(), err);
    } else if (id == "moe_permute_rows") {
        std::vector<uint32_t> o = rb<uint32_t>("C", 0, (size_t)MOE_T * MOE_K * MOE_H);
        if (o.empty()) return;
        const auto &src = W("MSRC");
        size_t bad = 0;
        for (int r = 0; r < MOE_T * MOE_K; ++r)
            for (int c = 0; c < MOE_H; ++c) bad += o[(size_t)r * MOE_H + c] != FR[(size_t)(src[r] / 2) * MOE_H + c];
        printf("check %s: %zu of 8,192,000 values differ\n", id.c_str(), bad);
    } else if (id == "moe_unpermute_combine") {
        std::vector<float> o = rb<float>("D", 0, (size_t)MOE_T * MOE_H);
        if (o.empty()) return;
        const auto &gate = W("GATE");
        float err = 0.0f;
        for (int t = 0; t < MOE_T; ++t)
            for (int c = 0; c < MOE_H; ++c) {
                float ref = f32_of(gate[2 * t]) * F((size_t)t * MOE_H + c) + f32_of(gate[2 * t + 1]) * F((size_t)t * MOE_H + c);
                err = maxabs(err, fabsf(o[(size_t)t * MOE_H + c] - ref));
            }
        printf("check %s: max abs error %.3g (permute then combine: (g0 + g1) x)\n", id.c_str(), err);
    } else if (id == "awq_gemv_int4") {
        std::vector<float> o = rb<float>("ACC", 4096, AWQ_N);
        if (o.empty()) return;
        const auto &qw = W("QW"), &qz = W("QZ");
        const uint16_t *qs = reinterpret_cast<const uint16_t *>(W("QS").data());
        const int order[8] = {0, 4, 1, 5, 2, 6, 3, 7}, N8 = AWQ_N / 8;
        float err = 0.0f;
        for (int col = 0; col < AWQ_N; col += 13) {
            int c = col / 8, j = col % 8;
            double s = 0.0;
            for (int k = 0; k < AWQ_K; ++k) {
                int g = k / 128;
                float z = (float)((qz[(size_t)g * N8 + c] >> (4 * order[j])) & 15u);
                float q = (float)((qw[(size_t)k * N8 + c] >> (4 * order[j])) & 15u);
                s += (double)F(k) * (q - z) * h2f_bits(qs[(size_t)g * AWQ_N + col]);
            }
            err = maxabs(err, rel_err(o[col], (float)s));
        }
        printf("check %s: max rel error %.3g (every 13th column)\n", id.c_str(), err);
    } else if (id == "dilate5x5_u16") {
        std::vector<uint16_t> o = rb<uint16_t>("C", 0, 700 * 1024);
        if (o.empty()) return;
        const uint16_t *s = reinterpret_cast<const uint16_t *>(R8);
        size_t bad = 0;
        for (int y = 0; y < 700; ++y)
            for (int x = 0; x < 1000; ++x) {
                unsigned m = 0;
                for (int dy = -2; dy <= 2; ++dy)
                    for (int dx = -2; dx <= 2; ++dx)
                        m = std::max(m, (unsigned)s[std::min(699, std::max(0, y + dy)) * 1024 + std::min(999, std::max(0, x + dx))]);
                bad += o[y * 1024 + x] != m;
            }
        printf("check %s: %zu of 700,000 pixels differ\n", id.c_str(), bad);
    } else if (id == "resize_area3_u8c3") {
        std::vector<uint8_t> o = rb<uint8_t>("C", 0, 360 * 1920);
        if (o.empty()) return;
        size_t bad = 0;
        for (int y = 0; y < 360; ++y)
            for (int x = 0; x < 640; ++x)
                for (int ch = 0; ch < 3; ++ch) {
                    unsigned s = 0;
                    for (int dy = 0; dy < 3; ++dy)
                        for (int dx = 0; dx < 3; ++dx) s += R8[(3 * y + dy) * 5760 + 9 * x + 3 * dx + ch];
                    bad += o[y * 1920 + 3 * x + ch] != (uint8_t)((s + 4) / 9);
                }
        printf("check %s: %zu of 691,200 bytes differ\n", id.c_str(), bad);
    } else if (id == "rgba_to_i420") {
        std::vector<uint8_t> o = rb<uint8_t>("C", 0, 6 << 20);
        if (o.empty()) return;
        const uint8_t *s = reinterpret_cast<const uint8_t *>(HB);
        size_t bad = 0;
        for (int y = 0; y < 540; ++y)
            for (int x = 0; x < 960; ++x) {
                int rs = 0, gs = 0, bs = 0;
                for (int k = 0; k < 4; ++k) {
                    int py = 2 * y + k / 2, px = 2 * x + k % 2;
                    const uint8_t *p = s + (size_t)py * 7680 + 4 * px;
                    int yv = ((66 * p[0] + 129 * p[1] + 25 * p[2] + 128) >> 8) + 16;
                    bad += o[(size_t)py * 1920 + px] != (uint8_t)yv;
                    rs += p[0]; gs += p[1]; bs += p[2];
                }
                rs = (rs + 2) >> 2; gs = (gs + 2) >> 2; bs = (bs + 2) >> 2;
                bad += o[(4 << 20) + y * 960 + x] != (uint8_t)(((-38 * rs - 74 * gs + 112 * bs + 128) >> 8) + 128);
                bad += o[(5 << 20) + y * 960 + x] != (uint8_t)(((112 * rs - 94 * gs - 18 * bs + 128) >> 8) + 128);
            }
        printf("check %s: %zu of 3,110,400 bytes differ\n", id.c_str(), bad);
    } else if (id == "ccl_label_prop") {
        std::vector<int32_t> o = rb<int32_t>("NEXT", 0, CW * CH), fl = rb<int32_t>("ACC", 192, 1);
        if (o.empty() || fl.empty()) return;
        const auto &lab = W("LAB");
        std::vector<int32_t> ref(lab.begin(), lab.end());
        auto L_ = [&](int p) { return (int32_t)lab[p]; };
        for (int y = 0; y < CH; ++y)
            for (int x = 0; x < CW; ++x) {
                int p = y * CW + x, l0 = L_(p);
                if (l0 < 0) continue;
                int m = l0;
                if (x > 0 && L_(p - 1) >= 0) m = std::min(m, L_(p - 1));
                if (x + 1 < CW && L_(p + 1) >= 0) m = std::min(m, L_(p + 1));
                if (y > 0 && L_(p - CW) >= 0) m = std::min(m, L_(p - CW));
                if (y + 1 < CH && L_(p + CW) >= 0) m = std::min(m, L_(p + CW));
                if (m < l0) { ref[l0] = std::min(ref[l0], m); ref[p] = std::min(ref[p], m); }
            }
        size_t bad = 0;
        for (int p = 0; p < CW * CH; ++p) bad += o[p] != ref[p];
        printf("check %s: %zu of 1,000,000 labels differ, flag %d\n", id.c_str(), bad, fl[0]);
    } else if (id == "tma2d_prefetch_rowsum") {
        std::vector<float> o = rb<float>("C", 0, 2048);
        if (o.empty()) return;
        float err = 0.0f;
        for (int r = 0; r < 2048; ++r) {
            double s = 0.0;
            for (int c = 0; c < 2048; ++c) s += F((size_t)r * 2048 + c);
            err = maxabs(err, (float)fabs(o[r] - s));
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "tma_swz128_ldsm") {
        std::vector<float> o = rb<float>("C", 0, 256 * 128 * 2);
        if (o.empty()) return;
        float err = 0.0f;
        for (int b = 0; b < 256; ++b)
            for (int w = 0; w < 4; ++w) {
                double ref = 0.0, p = 0.0, q = 0.0;
                for (int it = 0; it < 8; ++it) {
                    int tile = b * 8 + it, tr = tile / 64, tc = tile % 64;
                    for (int r = 16 * w; r < 16 * w + 16; ++r)
                        for (int c = 0; c < 64; ++c) ref += h2f_bits(HB[(size_t)(tr * 64 + r) * 4096 + tc * 64 + c]);
                }
                for (int lane = 0; lane < 32; ++lane) { p += o[(b * 128 + w * 32 + lane) * 2]; q += o[(b * 128 + w * 32 + lane) * 2 + 1]; }
                err = maxabs(err, (float)std::max(fabs(p - ref), fabs(q - ref)));
            }
        printf("check %s: max abs error of the warps' sums %.3g\n", id.c_str(), err);
    } else if (id == "cpasync_mbar_gather") {
        std::vector<float> o = rb<float>("C", 0, 256 * 256);
        if (o.empty()) return;
        const auto &ix = W("RAND8M");
        float err = 0.0f;
        for (int b = 0; b < 256; ++b)
            for (int t = 0; t < 256; ++t) {
                double s = 0.0;
                int nb = (t * 4 + 4) & 1023;
                for (int tile = 0; tile < 8; ++tile)
                    for (int k = 0; k < 4; ++k) s += F(ix[(size_t)b * 8192 + tile * 1024 + nb + k] & 4194303u);
                err = maxabs(err, (float)fabs(o[b * 256 + t] - s));
            }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "dsmem_st_async_ring") {
        std::vector<float> o = rb<float>("C", 0, 1024 * 1024);
        if (o.empty()) return;
        float err = 0.0f;
        for (int b = 0; b < 1024; ++b) {
            int src = (b & ~3) | ((b - 1) & 3);
            for (int t = 0; t < 256; ++t) {
                int st = -1;
                for (int u = 0; u < 256; ++u) if (((u * 5) & 255) == t) st = u;
                const size_t v = ((size_t)b * 256 + t) * 4, r = ((size_t)src * 256 + st) * 4;
                err = maxabs(err, fabsf(o[v] - (F(v) + F(r))));
                err = maxabs(err, fabsf(o[v + 1] - (F(v + 1) - F(r + 1))));
                err = maxabs(err, fabsf(o[v + 2] - F(v + 2) * F(r + 2)));
                err = maxabs(err, fabsf(o[v + 3] - (F(v + 3) + 2.0f * F(r + 3))));
            }
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "bulk_s2s_pair") {
        std::vector<float> o = rb<float>("D", 0, 512 * 2048);
        if (o.empty()) return;
        float err = 0.0f;
        for (int b = 0; b < 512; ++b)
            for (int i = 0; i < 2048; ++i) err = maxabs(err, fabsf(o[b * 2048 + i] - (F((size_t)b * 2048 + i) - F((size_t)(b ^ 1) * 2048 + i))));
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
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
