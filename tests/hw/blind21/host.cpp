// warpscope twenty-first held-out batch (tests/hw/blind21): host program, copied from tests/hw/blind20/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules,
// launch table and checks are the twenty-first blind batch's; no tensor map is used).
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


static const uint64_t SEED_LZ = 2101;
static const uint64_t SEED_GR = 2102;
static const uint64_t SEED_BS = 2103;
static const uint64_t SEED_BP = 2104;
static const uint64_t SEED_AD = 2105;
static const uint64_t SEED_NF = 2106;
static const uint64_t SEED_GQ = 2107;
static const uint64_t SEED_AL = 2108;
static const uint64_t SEED_RW = 2109;
static const uint64_t SEED_CV = 2110;
static const uint64_t SEED_PH = 2111;
static const uint64_t SEED_HG = 2112;
static const uint64_t SEED_LK = 2113;
static const uint64_t SEED_WE = 2114;
static const uint64_t SEED_SS = 2115;
static const uint64_t SEED_BE = 2116;
static const uint64_t SEED_SG = 2117;
static const uint64_t SEED_LI = 2118;
static const uint64_t SEED_BG = 2119;
static const uint64_t SEED_HM = 2120;
static const std::vector<std::pair<const char *, uint64_t>> SEEDS = {
    {"LZ_IN", SEED_LZ}, {"GR_* (one stream)", SEED_GR}, {"BS_IN", SEED_BS}, {"BP_IN", SEED_BP},
    {"AD_* (one stream)", SEED_AD}, {"NF_* (one stream)", SEED_NF}, {"GQ_* (one stream)", SEED_GQ}, {"AL_* (one stream)", SEED_AL},
    {"RW_* (one stream)", SEED_RW}, {"CV_* (one stream)", SEED_CV}, {"PH_* (one stream)", SEED_PH}, {"HG_IMG", SEED_HG},
    {"LK_* (one stream)", SEED_LK}, {"WE_Q", SEED_WE}, {"SS_KEYS", SEED_SS}, {"BE_* (one stream)", SEED_BE},
    {"SG_* (one stream)", SEED_SG}, {"LI_* (one stream)", SEED_LI}, {"BG_* (one stream)", SEED_BG}, {"HM_* (one stream)", SEED_HM}};
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
static const int LZN = 1000003;                                   // LZ77 text bytes
static const int GRC = 20000;                                     // Gorilla chunks of 64 timestamps
static const int BSN = 1000001, BSB = 16384;                      // unshuffle elements, Blosc block elements
static const int BPN = 3999971, BPW = (BPN + 31) / 32;            // bit-plane words, warps
static const int ADN = 3001232, ADB = (ADN + 2047) / 2048;        // 8-bit Adam elements, blocks
static const int NFN = 11272192;                                  // NF4 elements
static const int GQK = 4096, GQN = 11000, GQG = 32;               // GPTQ K, N, groups
static const int ALS = 2000, ALH = 16;                            // ALiBi sequence, heads (D 64, window 128)
static const int RWB = 16, RWT = 512, RWC = 1000;                 // RWKV batch, steps, channels
static const int CVB = 4, CVD = 1024, CVL = 2000;                 // conv1d batch, channels, length
static const int PHP = 16384;                                     // pair-HMM pairs
static const int HGW = 1920, HGH = 1080;                          // HOG image
static const int LKW = 1242, LKH = 375;                           // Lucas-Kanade frames
static const int WEX = 256, WER = 64 * 128;                       // WENO5 NX, rows
static const int SSN = 7999999, SSB = (SSN + 2047) / 2048;        // sample sort keys, blocks
static const int BEN = 3000000, BEM = 50000, BET = 1 << 18;       // BPE tokens, merges, table slots
static const int SGR = 49999;                                     // SpGEMM rows
static const int LIN = 10000003;                                  // Lion parameters
static const int BGB = 20000, BGE = 50000;                        // bulk-gather bags, table rows
static const int HMM = 1024, HMN = 1024, HMK = 512;               // fp16 GEMM

// host copies needed by the checks
static std::vector<uint8_t> g_lz, g_bs_in, g_ph_r, g_ph_q, g_ph_h, g_hg;
static std::vector<long long> g_gr_ts;
static std::vector<float> g_code1, g_code2, g_nf_code, g_nf_am2, g_lk0, g_lk1;
static std::vector<int> g_ph_len, g_be_tok, g_be_word, g_sg_rp, g_sg_ci;
static std::vector<uint32_t> g_ss_split;
static std::map<unsigned long long, int> g_be_rank;

static void make_buffers()
{
    {
        Lcg g(SEED_LZ);
        g_lz.resize(LZN);
        int i = 0;
        while (i < LZN) {
            if (i >= 64 && (g.next() >> 31)) {
                int d = 1 + (int)(g.next() % 64), len = 4 + (int)(g.next() % 37);
                for (int k = 0; k < len && i < LZN; ++k, ++i) g_lz[i] = g_lz[i - d];
            } else
                g_lz[i++] = (uint8_t)('a' + (g.next() >> 28));
        }
        add_words("LZ_IN", bytes_to_words(g_lz), "LZ77: 1,000,003 bytes of 16 letters (LCG seed 2101), half of the text copies of 4..40 bytes from 1..64 bytes back");
        add_fill("LZ_OUT", (size_t)LZN * 8, 0u, "LZ77: int2 (length, distance) a position, zero");
    }
    {
        Lcg g(SEED_GR);
        std::vector<uint32_t> bits(1, 0);
        uint64_t nb = 0;
        auto put = [&](uint32_t v, int k) {  // k bits of v, most significant first
            for (int b = k - 1; b >= 0; --b) {
                if ((nb >> 5) >= bits.size()) bits.push_back(0);
                if ((v >> b) & 1) bits[nb >> 5] |= 1u << (31 - (nb & 31));
                ++nb;
            }
        };
        std::vector<uint32_t> off(GRC);
        std::vector<long long> first(GRC);
        std::vector<int> fd(GRC);
        g_gr_ts.resize((size_t)GRC * 64);
        long long t = 1700000000000LL;
        for (int c = 0; c < GRC; ++c) {
            off[c] = (uint32_t)nb;
            first[c] = t;
            fd[c] = 1000 + (int)(g.next() % 7) - 3;
            long long d = fd[c];
            g_gr_ts[(size_t)c * 64] = t;
            t += d;
            g_gr_ts[(size_t)c * 64 + 1] = t;
            for (int i = 2; i < 64; ++i) {
                uint32_t r = g.next() % 100;
                int dod;
                if (r < 70) { dod = 0; put(0, 1); }
                else if (r < 85) { dod = (int)(g.next() % 128) - 64; put(2, 2); put((uint32_t)dod & 127u, 7); }
                else if (r < 93) { dod = (int)(g.next() % 512) - 256; put(6, 3); put((uint32_t)dod & 511u, 9); }
                else if (r < 98) { dod = (int)(g.next() % 4096) - 2048; put(14, 4); put((uint32_t)dod & 4095u, 12); }
                else { dod = (int)(g.next() % 200000) - 100000; put(15, 4); put((uint32_t)dod, 32); }
                d += dod;
                t += d;
                g_gr_ts[(size_t)c * 64 + i] = t;
            }
            t += 1000;
        }
        bits.push_back(0); bits.push_back(0);
        add_words("GR_BITS", bits, "Gorilla: delta-of-delta bit stream of 20,000 chunks (MSB first; 70% '0', 15% 7-bit, 8% 9-bit, 5% 12-bit, 2% 32-bit), LCG seed 2102, two padding words");
        add_words("GR_OFF", off, "Gorilla: bit offset of each chunk's stream");
        std::vector<uint32_t> fw((size_t)GRC * 2);
        memcpy(fw.data(), first.data(), (size_t)GRC * 8);
        add_words("GR_FIRST", fw, "Gorilla: int64 first timestamp a chunk");
        add_words("GR_FD", as_words(fd), "Gorilla: int32 first delta a chunk (997..1003)");
        add_fill("GR_TS", (size_t)GRC * 64 * 8, 0u, "Gorilla: int64 timestamps out, zero");
    }
    {
        Lcg g(SEED_BS);
        g_bs_in.resize((size_t)BSN * 4);
        for (auto &b : g_bs_in) b = (uint8_t)(g.next() >> 24);
        add_words("BS_IN", bytes_to_words(g_bs_in), "unshuffle: 4,000,004 LCG bytes (seed 2103), Blosc-shuffled 4-byte elements in blocks of 16,384 (last block 577)");
        add_fill("BS_OUT", (size_t)BSN * 4, 0u, "unshuffle: uint32 out, zero");
    }
    {
        std::vector<uint32_t> w = lcg_words(BPN, SEED_BP);
        for (size_t i = 0; i < w.size(); ++i) w[i] >>= (i % 9);  // varied widths
        add_words("BP_IN", w, "bit planes: 3,999,971 LCG words (seed 2104) shifted right by i mod 9");
        add_fill("BP_OUT", (size_t)32 * BPW * 4, 0u, "bit planes: [32][125,000] uint32, zero");
    }
    {
        Lcg g(SEED_AD);
        g_code1.resize(256); g_code2.resize(256);
        for (int i = 0; i < 256; ++i) {
            float x = (i - 127.5f) / 127.5f;
            g_code1[i] = x * x * x;
            g_code2[i] = (i / 255.f) * (i / 255.f);
        }
        g_code1[0] = -1.f; g_code1[255] = 1.f;
        std::vector<float> p(ADN), gr(ADN), a1(ADB), a2(ADB);
        std::vector<uint8_t> q1(ADN), q2(ADN);
        for (int i = 0; i < ADN; ++i) { p[i] = u01(g) - 0.5f; gr[i] = (u01(g) - 0.5f) * 0.02f; q1[i] = (uint8_t)(g.next() >> 24); q2[i] = (uint8_t)(g.next() >> 24); }
        for (int b = 0; b < ADB; ++b) { a1[b] = 0.001f + 0.01f * u01(g); a2[b] = 1e-5f + 1e-4f * u01(g); }
        add_words("AD_P", float_words(p), "8-bit Adam: 3,001,232 float parameters (LCG seed 2105)");
        add_words("AD_G", float_words(gr), "8-bit Adam: float gradients +-0.01");
        add_words("AD_S1", bytes_to_words(q1), "8-bit Adam: uint8 first-moment codes (random)");
        add_words("AD_S2", bytes_to_words(q2), "8-bit Adam: uint8 second-moment codes (random)");
        add_words("AD_A1", float_words(a1), "8-bit Adam: absmax of m a 2,048 block");
        add_words("AD_A2", float_words(a2), "8-bit Adam: absmax of v a 2,048 block");
        add_words("AD_C1", float_words(g_code1), "8-bit Adam: signed map ((i - 127.5) / 127.5)^3, ends -1 and 1");
        add_words("AD_C2", float_words(g_code2), "8-bit Adam: unsigned map (i / 255)^2");
    }
    {
        Lcg g(SEED_NF);
        std::vector<uint32_t> q = lcg_words(NFN / 8, SEED_NF + 1000);
        std::vector<uint8_t> aq(NFN / 64);
        for (auto &a : aq) a = (uint8_t)(g.next() >> 24);
        g_nf_code.resize(256);
        for (int i = 0; i < 256; ++i) g_nf_code[i] = (i / 255.f) * (i / 255.f);
        g_nf_am2.resize(NFN / 64 / 256);
        for (auto &a : g_nf_am2) a = 0.05f + 0.05f * u01(g);
        add_words("NF_Q", q, "NF4: 11,272,192 4-bit codes, two a byte (LCG seed 3106)");
        add_words("NF_ABSQ", bytes_to_words(aq), "NF4: uint8 absmax code a 64 block (LCG seed 2106)");
        add_words("NF_CODE", float_words(g_nf_code), "NF4: absmax dynamic map (i / 255)^2");
        add_words("NF_AM2", float_words(g_nf_am2), "NF4: second-level absmax scale a 256 blocks, 0.05..0.1");
        add_fill("NF_OUT", (size_t)NFN * 2, 0u, "NF4: half out, zero");
    }
    {
        Lcg g(SEED_GQ);
        std::vector<float> x(GQK);
        for (auto &v : x) v = u01(g) - 0.5f;
        std::vector<uint32_t> qw = lcg_words((size_t)GQK / 8 * GQN, SEED_GQ + 1000);
        std::vector<uint32_t> sc((size_t)GQG * GQN / 2);
        for (auto &w : sc) w = (uint32_t)f2h(0.002f + 0.01f * u01(g)) | ((uint32_t)f2h(0.002f + 0.01f * u01(g)) << 16);
        std::vector<uint32_t> qz = lcg_words((size_t)GQG * GQN / 8, SEED_GQ + 2000);
        std::vector<int32_t> perm = permutation(GQK, SEED_GQ + 3000), gidx(GQK);
        for (int k = 0; k < GQK; ++k) gidx[k] = perm[k] / 128;
        add_words("GQ_X", float_words(x), "GPTQ: x [4,096] float (LCG seed 2107)");
        add_words("GQ_QW", qw, "GPTQ: qweight [512][11,000] int32, 8 4-bit rows a word (LCG seed 3107)");
        add_words("GQ_SC", sc, "GPTQ: scales [32][11,000] half, 0.002..0.012");
        add_words("GQ_QZ", qz, "GPTQ: qzeros [32][1,375] int32 (LCG seed 4107)");
        add_words("GQ_GIDX", as_words(gidx), "GPTQ: g_idx[k] = perm[k] / 128 (act-order: a permutation, LCG seed 5107)");
        add_fill("GQ_Y", (size_t)GQN * 4, 0u, "GPTQ: y [11,000] float, zero");
    }
    {
        add_words("AL_Q", half_words((size_t)ALS * ALH * 64 / 2, SEED_AL), "ALiBi: Q half [2,000][16][64] (LCG seed 2108)");
        add_words("AL_K", half_words((size_t)ALS * ALH * 64 / 2, SEED_AL + 1000), "ALiBi: K half [2,000][16][64] (LCG seed 3108)");
        std::vector<float> sl(ALH);
        for (int h = 0; h < ALH; ++h) sl[h] = powf(2.f, -8.f * (h + 1) / ALH);
        add_words("AL_SLOPE", float_words(sl), "ALiBi: slopes 2^(-8 (h + 1) / 16)");
        add_fill("AL_OUT", (size_t)ALH * ALS * 128 * 4, 0u, "ALiBi: scores [16][2,000][128] float, zero");
    }
    {
        Lcg g(SEED_RW);
        std::vector<float> w(RWC), u(RWC);
        for (int c = 0; c < RWC; ++c) { w[c] = -1.f + 2.f * u01(g); u[c] = 0.5f * (u01(g) - 0.5f); }
        add_words("RW_W", float_words(w), "RWKV: time decay w [1,000] (decay exp(-exp(w)))");
        add_words("RW_U", float_words(u), "RWKV: bonus u [1,000]");
        add_words("RW_K", rand_floats((size_t)RWB * RWT * RWC, SEED_RW + 1000, -2.f, 2.f), "RWKV: k [16][512][1,000] float (LCG seed 3109)");
        add_words("RW_V", rand_floats((size_t)RWB * RWT * RWC, SEED_RW + 2000, -1.f, 1.f), "RWKV: v [16][512][1,000] float (LCG seed 4109)");
        add_fill("RW_Y", (size_t)RWB * RWT * RWC * 4, 0u, "RWKV: y, zero");
    }
    {
        add_words("CV_X", rand_floats((size_t)CVB * CVD * CVL, SEED_CV, -1.f, 1.f), "conv1d: x [4][1,024][2,000] float (LCG seed 2110)");
        add_words("CV_W", rand_floats((size_t)CVD * 4, SEED_CV + 1000, -0.5f, 0.5f), "conv1d: weights [1,024][4]");
        add_words("CV_B", rand_floats(CVD, SEED_CV + 2000, -0.1f, 0.1f), "conv1d: bias [1,024]");
        add_fill("CV_OUT", (size_t)CVB * CVD * CVL * 4, 0u, "conv1d: out, zero");
    }
    {
        Lcg g(SEED_PH);
        g_ph_r.resize((size_t)PHP * 32); g_ph_q.resize((size_t)PHP * 32); g_ph_h.assign((size_t)PHP * 160, 0); g_ph_len.resize(PHP);
        const char *ACGT = "ACGT";
        for (int p = 0; p < PHP; ++p) {
            int hl = 64 + (int)(g.next() % 97);
            g_ph_len[p] = hl;
            for (int j = 0; j < hl; ++j) g_ph_h[(size_t)p * 160 + j] = (uint8_t)ACGT[g.next() >> 30];
            int at = (int)(g.next() % (uint32_t)(hl - 32));
            for (int i = 0; i < 32; ++i) {
                uint8_t b = g_ph_h[(size_t)p * 160 + at + i];
                if (g.next() % 20 == 0) b = (uint8_t)ACGT[g.next() >> 30];
                g_ph_r[(size_t)p * 32 + i] = b;
                g_ph_q[(size_t)p * 32 + i] = (uint8_t)(10 + g.next() % 31);
            }
        }
        add_words("PH_READ", bytes_to_words(g_ph_r), "pair-HMM: 16,384 reads of 32 bases (a window of their haplotype, 5% substituted), LCG seed 2111");
        add_words("PH_QUAL", bytes_to_words(g_ph_q), "pair-HMM: base qualities 10..40");
        add_words("PH_HAP", bytes_to_words(g_ph_h), "pair-HMM: haplotypes [16,384][160] bytes, 64..160 used");
        add_words("PH_LEN", as_words(g_ph_len), "pair-HMM: haplotype lengths 64..160");
        add_fill("PH_OUT", (size_t)PHP * 4, 0u, "pair-HMM: log10 likelihoods, zero");
    }
    {
        Lcg g(SEED_HG);
        g_hg.resize((size_t)HGW * HGH);
        for (int y = 0; y < HGH; ++y)
            for (int x = 0; x < HGW; ++x) {
                float v = 128.f + 60.f * sinf(x * 0.031f + y * 0.017f) + 40.f * cosf(x * 0.007f - y * 0.043f);
                g_hg[(size_t)y * HGW + x] = (uint8_t)std::min(255.f, std::max(0.f, v + (float)(g.next() % 16)));
            }
        add_words("HG_IMG", bytes_to_words(g_hg), "HOG: uint8 image 1,920 x 1,080, two sinusoids plus 0..15 noise (LCG seed 2112)");
        add_fill("HG_HIST", (size_t)(HGH / 8) * (HGW / 8) * 9 * 4, 0u, "HOG: [135][240][9] float, zero");
    }
    {
        Lcg g(SEED_LK);
        g_lk0.resize((size_t)LKW * LKH); g_lk1.resize((size_t)LKW * LKH);
        auto img = [](float x, float y) { return sinf(x * 0.05f) * cosf(y * 0.07f) + 0.5f * sinf((x + y) * 0.021f); };
        for (int y = 0; y < LKH; ++y)
            for (int x = 0; x < LKW; ++x) {
                g_lk0[(size_t)y * LKW + x] = img((float)x, (float)y) + 0.01f * u01(g);
                g_lk1[(size_t)y * LKW + x] = img(x - 0.7f, y + 0.4f) + 0.01f * u01(g);
            }
        add_words("LK_I0", float_words(g_lk0), "Lucas-Kanade: frame 0, 1,242 x 375 float, smooth pattern + noise (LCG seed 2113)");
        add_words("LK_I1", float_words(g_lk1), "Lucas-Kanade: frame 1, the pattern shifted by (0.7, -0.4)");
        add_fill("LK_FLOW", (size_t)LKW * LKH * 8, 0u, "Lucas-Kanade: float2 flow, zero");
    }
    {
        add_words("WE_Q", rand_floats((size_t)WER * (WEX + 6), SEED_WE, 0.f, 1.f), "WENO5: q [64][128][262] float (256 cells + 3 ghosts a side), LCG seed 2114");
        add_fill("WE_QL", (size_t)WER * (WEX + 1) * 4, 0u, "WENO5: left states [64][128][257], zero");
    }
    {
        std::vector<uint32_t> k = lcg_words(SSN, SEED_SS);
        for (size_t i = 0; i < k.size(); i += 3) k[i] >>= 4;  // skew: a third in the low 1/16
        std::vector<uint32_t> smp;
        for (int i = 0; i < SSN; i += 977) smp.push_back(k[i]);
        std::sort(smp.begin(), smp.end());
        g_ss_split.resize(255);
        for (int s = 0; s < 255; ++s) g_ss_split[s] = smp[(size_t)(s + 1) * smp.size() / 256];
        add_words("SS_KEYS", k, "sample sort: 7,999,999 uint32 keys (LCG seed 2115, every third >> 4)");
        add_words("SS_SPLIT", g_ss_split, "sample sort: 255 splitters from a sorted 1-in-977 sample");
        add_fill("SS_BUCKET", (size_t)SSN, 0u, "sample sort: uint8 bucket a key, zero");
        add_fill("SS_COUNTS", (size_t)256 * SSB * 4, 0u, "sample sort: counts [256][3,907], zero");
    }
    {
        Lcg g(SEED_BE);
        std::vector<std::pair<int, int>> merges;
        std::vector<unsigned long long> keys(BET, ~0ULL);
        std::vector<int32_t> ranks(BET, 0);
        while ((int)merges.size() < BEM) {
            int a = (int)(g.next() % 50000), b = (int)(g.next() % 50000);
            unsigned long long key = ((unsigned long long)a << 32) | (uint32_t)b;
            if (g_be_rank.count(key)) continue;
            int r = (int)merges.size();
            g_be_rank[key] = r;
            merges.push_back({a, b});
            uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ULL) >> 40) & (uint32_t)(BET - 1);
            while (keys[h] != ~0ULL) h = (h + 1) & (uint32_t)(BET - 1);
            keys[h] = key; ranks[h] = r;
        }
        g_be_tok.reserve(BEN); g_be_word.reserve(BEN);
        int w = 0;
        while ((int)g_be_tok.size() < BEN) {
            int np = 1 + (int)(g.next() % 6);
            for (int k = 0; k < np && (int)g_be_tok.size() < BEN; ++k) {
                if (g.next() % 4 == 0) { g_be_tok.push_back((int)(g.next() % 50000)); g_be_word.push_back(w); continue; }
                auto &m = merges[g.next() % BEM];
                g_be_tok.push_back(m.first); g_be_word.push_back(w);
                if ((int)g_be_tok.size() < BEN) { g_be_tok.push_back(m.second); g_be_word.push_back(w); }
            }
            ++w;
        }
        std::vector<uint32_t> kw((size_t)BET * 2);
        memcpy(kw.data(), keys.data(), (size_t)BET * 8);
        add_words("BE_TOK", as_words(g_be_tok), "BPE: 3,000,000 token ids (words of 1..6 pieces, 3 in 4 a known merge pair), LCG seed 2116");
        add_words("BE_WORD", as_words(g_be_word), "BPE: word id a token");
        add_words("BE_KEYS", kw, "BPE: 2^18 uint64 slots (a << 32 | b, empty ~0) of 50,000 merges, linear probing at (key * 0x9E3779B97F4A7C15) >> 40");
        add_words("BE_RANKS", as_words(ranks), "BPE: int32 rank a slot");
        add_fill("BE_OUT", (size_t)BEN * 4, 0u, "BPE: int32 ranks out, zero");
    }
    {
        Lcg g(SEED_SG);
        g_sg_rp.assign(SGR + 1, 0);
        for (int r = 0; r < SGR; ++r) {
            int len = (int)(g.next() % 17);
            std::vector<int> cols;
            for (int k = 0; k < len; ++k) {
                int c = (g.next() % 4) ? std::min(SGR - 1, std::max(0, r + (int)(g.next() % 129) - 64)) : (int)(g.next() % SGR);
                if (std::find(cols.begin(), cols.end(), c) == cols.end()) cols.push_back(c);
            }
            std::sort(cols.begin(), cols.end());
            for (int c : cols) g_sg_ci.push_back(c);
            g_sg_rp[r + 1] = (int)g_sg_ci.size();
        }
        add_words("SG_RP", as_words(g_sg_rp), "SpGEMM: CSR row pointers of A = B [49,999 x 49,999], 0..16 a row (LCG seed 2117)");
        add_words("SG_CI", as_words(g_sg_ci), "SpGEMM: column indices (3 in 4 within +-64 of the diagonal)");
        add_fill("SG_CNT", (size_t)SGR * 4, 0u, "SpGEMM: nnz a row of A A, zero");
    }
    {
        add_words("LI_P", rand_floats(LIN, SEED_LI, -1.f, 1.f), "Lion: 10,000,003 float parameters (LCG seed 2118)");
        add_words("LI_G", rand_floats(LIN, SEED_LI + 1000, -0.01f, 0.01f), "Lion: gradients");
        add_words("LI_M", rand_floats(LIN, SEED_LI + 2000, -0.01f, 0.01f), "Lion: momentum");
    }
    {
        Lcg g(SEED_BG);
        std::vector<int32_t> ids((size_t)BGB * 8, 0), lens(BGB);
        for (int b = 0; b < BGB; ++b) {
            lens[b] = (int)(g.next() % 9);
            for (int j = 0; j < 8; ++j) ids[(size_t)b * 8 + j] = (int)(g.next() % BGE);
        }
        add_words("BG_TABLE", rand_floats((size_t)BGE * 256, SEED_BG + 1000, -1.f, 1.f), "bulk gather: table [50,000][256] float (1,024-byte rows), LCG seed 3119");
        add_words("BG_IDS", as_words(ids), "bulk gather: ids [20,000][8] (LCG seed 2119)");
        add_words("BG_LENS", as_words(lens), "bulk gather: bag lengths 0..8");
        add_fill("BG_OUT", (size_t)BGB * 256 * 4, 0u, "bulk gather: pooled rows, zero");
    }
    {
        add_words("HM_A", half_words((size_t)HMM * HMK / 2, SEED_HM), "fp16 GEMM: A [1,024][512] half (LCG seed 2120)");
        add_words("HM_B", half_words((size_t)HMN * HMK / 2, SEED_HM + 1000), "fp16 GEMM: B [1,024][512] half (LCG seed 3120)");
        add_fill("HM_C", (size_t)HMM * HMN * 4, 0u, "fp16 GEMM: C [1,024][1,024] float, zero");
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
    {"blind21", "tests/hw/blind21/blind21.ptx"},
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
    const char *K = "blind21";
    L1("lz77_match_window", K, "lz77_match_window", {P("LZ_IN"), P("LZ_OUT"), S32(LZN)}, LZN, 256,
       "LZ77 match search: 1,000,003 bytes, a thread a position, the block's 256 bytes with 64 behind and 32 ahead staged in shared memory by byte loads (guarded at both ends), the longest match (<= 32, stopping at the first differing byte: a loop on loaded data) at distances 1..64, int2 (length, distance) stored; ragged last block");
    L1("gorilla_dod_decode", K, "gorilla_dod_decode", {P("GR_BITS"), P("GR_OFF"), P("GR_FIRST"), P("GR_FD"), P("GR_TS"), S32(GRC)}, GRC, 128,
       "Gorilla timestamp decoding: 20,000 chunks of 64, a thread a chunk, its loaded bit offset, 62 prefix codes read by two-word peeks at data-dependent bit positions (a fifth code needs a second peek), int64 timestamps stored at a 512-byte lane stride; ragged last block");
    L("byte_unshuffle4", K, "byte_unshuffle4", BSB / 256, (BSN + BSB - 1) / BSB, 1, 256, 1, 1, {P("BS_IN"), P("BS_OUT"), S32(BSN), S32(BSB)},
      "Blosc byte unshuffle, typesize 4: 1,000,001 elements in blocks of 16,384 (grid 64 x 62, a block row a Blosc block), four byte loads a thread from the block's four byte planes (b ne + j), a uint32 store; the last Blosc block has 577 elements (its planes 577 bytes apart)");
    L1("bitplane_ballot_transpose", K, "bitplane_ballot_transpose", {P("BP_IN"), P("BP_OUT"), S32(BPN), S32(BPW)}, BPW * 32, 256,
       "bit-plane transposition: 3,999,971 uint32 words, a warp 32 words, 32 __ballot_sync, lane k stores plane k to [32][125,000] (a 500,000-byte lane stride); the last warp's 29 missing words read as zero (guarded load)");
    L("adam8bit_blockwise_update", K, "adam8bit_blockwise_update", ADB, 1, 1, 256, 1, 1,
      {P("AD_P"), P("AD_G"), P("AD_S1"), P("AD_S2"), P("AD_A1"), P("AD_A2"), P("AD_C1"), P("AD_C2"), S32(ADN), F32(1e-3f), F32(0.9f), F32(0.999f), F32(1e-8f), F32(0.1f), F32(0.001f)},
      "bitsandbytes-style blockwise 8-bit Adam: 3,001,232 elements, 2,048 a block (1,466 blocks, the last one 912 elements: 114 threads), 8 a thread (two float4 of p and g, uint2 of each uint8 state), the two 256-entry code tables in shared memory read at the loaded codes, the new absmax by shuffles and shared memory, requantized by an 8-step binary search in the shared tables, float4 / uint2 stores, the block's absmax by thread 0");
    L1("nf4_dequant_double_quant", K, "nf4_dequant_double_quant", {P("NF_Q"), P("NF_ABSQ"), P("NF_CODE"), P("NF_AM2"), F32(0.003f), P("NF_OUT"), S32(NFN / 8)}, NFN / 8, 256,
       "NF4 dequantization with double-quantized absmax: 11,272,192 codes (a uint32 of 8 a thread), the uint8 absmax code of the 64-block (8 threads share it) through a shared 256-entry map times the 256-block scale plus 0.003, the 16 NF4 levels from shared memory at the codes, 8 halves stored as a uint4");
    L1("gptq_gidx_gemv", K, "gptq_gidx_gemv", {P("GQ_X"), P("GQ_QW"), P("GQ_SC"), P("GQ_QZ"), P("GQ_GIDX"), P("GQ_Y"), S32(GQK), S32(GQN)}, GQN, 256,
       "GPTQ 4-bit GEMV with act-order (desc_act): K 4,096, N 11,000 (a thread a column, 43 blocks, ragged), x staged in shared memory as float4, qweight [512][11,000] int32 coalesced, per k the loaded g_idx[k] (one address a warp) picks the scale row (half, [32][11,000]) and the packed zero (int32 [32][1,375], 8 lanes a word)");
    L("alibi_swa_scores", K, "alibi_swa_scores", ALS / 4, ALH, 1, 128, 1, 1, {P("AL_Q"), P("AL_K"), P("AL_SLOPE"), P("AL_OUT"), S32(ALS), S32(ALH), F32(0.125f)},
      "ALiBi scores over a 128-key sliding window: Q, K half [2,000][16][64], a block 4 queries of one head (grid 500 x 16), q staged in shared memory by 8 lanes (uint4), a lane a key in 4 rounds, the key's 128-byte row read by its lane as 8 uint4 (a 2,048-byte lane stride), keys before 0 skipped (-inf), scores [16][2,000][128] float");
    L1("rwkv4_wkv_forward", K, "rwkv4_wkv_forward", {P("RW_W"), P("RW_U"), P("RW_K"), P("RW_V"), P("RW_Y"), S32(RWB), S32(RWT), S32(RWC)}, RWB * RWC, 256,
       "RWKV-4 WKV forward (stable form): B 16, T 512, C 1,000, a thread a (b, c) (16,000 threads, ragged last block, warps straddle batch rows), 512 sequential steps of coalesced k, v loads and y stores at a 4,000-byte step stride");
    L("causal_conv1d_cpasync_zfill", K, "causal_conv1d_cpasync_zfill", (CVL + 511) / 512, CVB * CVD, 1, 128, 1, 1, {P("CV_X"), P("CV_W"), P("CV_B"), P("CV_OUT"), S32(CVD), S32(CVL)},
      "Mamba causal conv1d (width 4) + SiLU: x [4][1,024][2,000] float, a block 512 steps of a row (grid 4 x 4,096), 129 16-byte cp.async.cg a block with zero-fill (src size 0 for the 4 steps before 0 and past 2,000), the 4 weights and the bias per row, 4 outputs a thread from shared memory, float4 stores (the last block 464 of 512)");
    L1("pairhmm_forward_warp", K, "pairhmm_forward_warp", {P("PH_READ"), P("PH_QUAL"), P("PH_HAP"), P("PH_LEN"), P("PH_OUT"), S32(PHP)}, PHP * 32, 256,
       "pair-HMM forward: 16,384 (read, haplotype) pairs, a warp a pair, lane i read base i (32), an anti-diagonal sweep of hl + 31 steps (hl loaded, 64..160) with __shfl_up_sync for the up and diagonal cells, the haplotype byte at j = s - lane (guarded 0 <= j < hl), lane 31 stores the log10 likelihood");
    L("hog_cell_histogram", K, "hog_cell_histogram", HGW / 32, HGH / 8, 1, 32, 8, 1, {P("HG_IMG"), P("HG_HIST"), S32(HGW), S32(HGH)},
      "HOG cell histograms: uint8 image 1,920 x 1,080, a thread a pixel, blocks of 32 x 8 (4 cells of 8 x 8), 4 clamped neighbour byte loads, 9 unsigned orientation bins with a linear vote into two bins by shared float atomicAdd at data-dependent bins, the 36 bins stored by threads 0..35");
    L("lucas_kanade_5x5", K, "lucas_kanade_5x5", (LKW + 15) / 16, (LKH + 15) / 16, 1, 16, 16, 1, {P("LK_I0"), P("LK_I1"), P("LK_FLOW"), S32(LKW), S32(LKH)},
      "Lucas-Kanade flow, 5 x 5 window: float frames 1,242 x 375 (4,968-byte rows), blocks 16 x 16 (grid 78 x 24, ragged both ways), both 22 x 22 tiles (halo 3, clamped) in shared memory, Ix, Iy, It in 20 x 20 padded shared tiles, 125 shared reads a pixel, float2 flow stored");
    L("weno5_face_x", K, "weno5_face_x", (WEX + 1 + 127) / 128, WER, 1, 128, 1, 1, {P("WE_Q"), P("WE_QL"), S32(WEX), S32(WER)},
      "WENO5 (Jiang-Shu) left states at the x faces: q [64][128][262] (3 ghosts a side: 1,048-byte rows), 257 faces a row (1,028-byte output rows), five loads a face at offsets -2..+2, grid 3 x 8,192 of 128 (the third block of a row has one face)");
    L1("samplesort_bucket_count", K, "samplesort_bucket_count", {P("SS_KEYS"), P("SS_SPLIT"), P("SS_BUCKET"), P("SS_COUNTS"), S32(SSN)}, SSB * 256, 256,
       "sample sort bucketing: 7,999,999 uint32 keys, a block 2,048 (8 coalesced loads a thread), 255 splitters in shared memory, an 8-step binary search (data-dependent shared reads), a uint8 bucket stored a key, a shared 256-bin atomicAdd count, counts stored bucket-major [256][3,907] (a 15,628-byte lane stride); ragged last block");
    L1("bpe_merge_rank_probe", K, "bpe_merge_rank_probe", {P("BE_TOK"), P("BE_WORD"), P("BE_KEYS"), P("BE_RANKS"), P("BE_OUT"), S32(BEN), S32(BET - 1)}, BEN, 256,
       "BPE merge-rank lookup: 3,000,000 tokens, a thread a position, pairs inside a word (word ids loaded) probed in an open-addressing table of 2^18 uint64 keys (linear probing, load 0.19) at a multiplicative hash: random 8-byte loads in a loop on loaded data, the int32 rank when found");
    L("spgemm_row_count_hash", K, "spgemm_row_count_hash", (SGR + 7) / 8, 1, 1, 256, 1, 1, {P("SG_RP"), P("SG_CI"), P("SG_RP"), P("SG_CI"), P("SG_CNT"), S32(SGR)},
      "SpGEMM symbolic row count of A A (CSR 49,999 rows, 0..16 a row): a warp a row, its table of 256 ints in shared memory cleared, each a_ik's row of B walked by the lanes (loaded bounds), columns inserted by shared atomicCAS with linear probing, the distinct count by shuffles; the column array passed for both A and B");
    L1("lion_update_vec4", K, "lion_update_vec4", {P("LI_P"), P("LI_G"), P("LI_M"), S32(LIN), F32(1e-4f), F32(0.9f), F32(0.99f), F32(0.1f)}, 1024 * 256, 256,
       "Lion step: 10,000,003 floats, float4 by a grid-stride loop of 262,144 threads (9.54 trips, the last partial), the 3-element tail by threads 0..2 (scalar)");
    L("bulk_gather_pool_rows", K, "bulk_gather_pool_rows", BGB, 1, 1, 256, 1, 1, {P("BG_TABLE"), P("BG_IDS"), P("BG_LENS"), P("BG_OUT")},
      "embedding-bag pooling through cp.async.bulk: 20,000 bags of 0..8 rows (loaded length), thread 0 loads the ids and issues one 1,024-byte bulk copy a row into shared memory on an mbarrier (expect_tx of the bag's bytes), the block waits on the phase, a thread a column sums the rows, 1,024-byte rows out");
    L("ldmatrix_swizzle_hgemm", K, "ldmatrix_swizzle_hgemm", HMN / 64, HMM / 64, 1, 128, 1, 1, {P("HM_A"), P("HM_B"), P("HM_C"), S32(HMM), S32(HMN), S32(HMK)},
      "fp16 GEMM C = A B^T (1,024 x 1,024 x 512) on mma.sync m16n8k16: a block a 64 x 64 tile (grid 16 x 16, 4 warps of 32 x 32), K steps of 32 staged by 16-byte cp.async.cg into 64-byte shared rows XOR-swizzled by chunk ^ ((row >> 1) & 3), A and B fragments by ldmatrix.x4, float2 stores");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind21/host.cpp. Launches run once each, in this order, on one stream. "
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
static void check_launch(const Launch &l)
{
    const std::string &id = l.id;
    auto F = [&](const char *n) { return reinterpret_cast<const float *>(buf(n).words.data()); };
    auto W = [&](const char *n) -> const std::vector<uint32_t> & { return buf(n).words; };
    if (id == "lz77_match_window") {
        std::vector<int32_t> o = rb<int32_t>("LZ_OUT", 0, (size_t)LZN * 2);
        size_t bad = 0, longer = 0;
        for (int p = 0; p < LZN && !o.empty(); ++p) {
            int best = 0, bd = 0, lim = std::min(32, LZN - p);
            for (int d = 1; d <= 64 && d <= p; ++d) {
                int k = 0;
                while (k < lim && g_lz[p + k] == g_lz[p - d + k]) ++k;
                if (k > best) { best = k; bd = d; }
            }
            bad += o[2 * p] != best || o[2 * p + 1] != bd;
            longer += best >= 4;
        }
        printf("check %s: %zu of 1,000,003 (length, distance) differ; %zu positions with a match of >= 4\n", id.c_str(), bad, longer);
    } else if (id == "gorilla_dod_decode") {
        std::vector<long long> o = rb<long long>("GR_TS", 0, (size_t)GRC * 64);
        size_t bad = 0;
        for (size_t i = 0; i < o.size(); ++i) bad += o[i] != g_gr_ts[i];
        printf("check %s: %zu of 1,280,000 timestamps differ\n", id.c_str(), o.empty() ? (size_t)-1 : bad);
    } else if (id == "byte_unshuffle4") {
        std::vector<uint32_t> o = rb<uint32_t>("BS_OUT", 0, BSN);
        size_t bad = 0;
        for (int i = 0; i < BSN && !o.empty(); ++i) {
            int blk = i / BSB, j = i % BSB, st = blk * BSB, ne = std::min(BSB, BSN - st);
            const uint8_t *b = &g_bs_in[(size_t)st * 4];
            uint32_t v = (uint32_t)b[j] | ((uint32_t)b[ne + j] << 8) | ((uint32_t)b[2 * ne + j] << 16) | ((uint32_t)b[3 * ne + j] << 24);
            bad += o[i] != v;
        }
        printf("check %s: %zu of 1,000,001 words differ\n", id.c_str(), bad);
    } else if (id == "bitplane_ballot_transpose") {
        std::vector<uint32_t> o = rb<uint32_t>("BP_OUT", 0, (size_t)32 * BPW);
        const auto &in = W("BP_IN");
        size_t bad = 0;
        for (int w = 0; w < BPW && !o.empty(); ++w)
            for (int k = 0; k < 32; ++k) {
                uint32_t pl = 0;
                for (int l = 0; l < 32; ++l) {
                    int i = w * 32 + l;
                    if (i < BPN && ((in[i] >> k) & 1)) pl |= 1u << l;
                }
                bad += o[(size_t)k * BPW + w] != pl;
            }
        printf("check %s: %zu of 4,000,000 plane words differ\n", id.c_str(), bad);
    } else if (id == "adam8bit_blockwise_update") {
        std::vector<float> po = rb<float>("AD_P", 0, ADN);
        std::vector<uint8_t> s1o = rb<uint8_t>("AD_S1", 0, ADN), s2o = rb<uint8_t>("AD_S2", 0, ADN);
        std::vector<float> a1o = rb<float>("AD_A1", 0, ADB);
        const float *p = F("AD_P"), *g = F("AD_G"), *a1 = F("AD_A1"), *a2 = F("AD_A2");
        const uint8_t *q1 = bytes_of("AD_S1"), *q2 = bytes_of("AD_S2");
        double perr = 0, aerr = 0;
        size_t qbad = 0;
        const float lr = 1e-3f, b1 = 0.9f, b2 = 0.999f, eps = 1e-8f, bc1 = 0.1f, bc2 = 0.001f;
        for (int blk = 0; blk < ADB && !po.empty(); ++blk) {
            int e0 = blk * 2048, e1 = std::min(ADN, e0 + 2048);
            std::vector<float> m(e1 - e0), v(e1 - e0);
            float n1 = 0, n2 = 0;
            for (int i = e0; i < e1; ++i) {
                m[i - e0] = b1 * (g_code1[q1[i]] * a1[blk]) + (1 - b1) * g[i];
                v[i - e0] = b2 * (g_code2[q2[i]] * a2[blk]) + (1 - b2) * g[i] * g[i];
                float pn = p[i] - lr * (m[i - e0] / bc1) / (sqrtf(v[i - e0] / bc2) + eps);
                perr = std::max(perr, (double)fabsf(pn - po[i]));
                n1 = std::max(n1, fabsf(m[i - e0])); n2 = std::max(n2, v[i - e0]);
            }
            aerr = std::max(aerr, (double)fabsf(n1 - a1o[blk]) / n1);
            for (int i = e0; i < e1; ++i) {
                float x1 = m[i - e0] / n1, x2 = v[i - e0] / n2;
                int b1i = 0, b2i = 0;
                float d1 = 9, d2 = 9;
                for (int c = 0; c < 256; ++c) {
                    if (fabsf(g_code1[c] - x1) < d1) { d1 = fabsf(g_code1[c] - x1); b1i = c; }
                    if (fabsf(g_code2[c] - x2) < d2) { d2 = fabsf(g_code2[c] - x2); b2i = c; }
                }
                qbad += abs(b1i - s1o[i]) > 1 || abs(b2i - s2o[i]) > 1;
            }
        }
        printf("check %s: params max abs error %.2e, absmax rel. error %.2e, %zu of 3,001,232 states off by more than one code\n", id.c_str(), perr, aerr, qbad);
    } else if (id == "nf4_dequant_double_quant") {
        std::vector<uint16_t> o = rb<uint16_t>("NF_OUT", 0, NFN);
        static const float lv[16] = {-1.0f, -0.6961928f, -0.5250731f, -0.3949175f, -0.2844414f, -0.1847734f, -0.0910500f, 0.0f,
                                     0.0795803f, 0.1609302f, 0.2461123f, 0.3379152f, 0.4407098f, 0.5626170f, 0.7229568f, 1.0f};
        const uint8_t *q = bytes_of("NF_Q"), *aq = bytes_of("NF_ABSQ");
        double worst = 0;
        for (int i = 0; i < NFN && !o.empty(); ++i) {
            int blk = i / 64;
            float am = g_nf_code[aq[blk]] * g_nf_am2[blk >> 8] + 0.003f;
            uint8_t byte = q[i / 2];
            float ref = lv[(i & 1) ? (byte & 15) : (byte >> 4)] * am;
            worst = std::max(worst, (double)fabsf(half_to_float(o[i]) - ref));
        }
        printf("check %s: max abs error %.2e (half rounding)\n", id.c_str(), worst);
    } else if (id == "gptq_gidx_gemv") {
        std::vector<float> o = rb<float>("GQ_Y", 0, GQN);
        const float *x = F("GQ_X");
        const auto &qw = W("GQ_QW"), &qz = W("GQ_QZ"), &gi = W("GQ_GIDX");
        const uint16_t *sc = reinterpret_cast<const uint16_t *>(W("GQ_SC").data());
        double worst = 0, mag = 0;
        for (int n = 0; n < GQN && !o.empty(); ++n) {
            double acc = 0;
            for (int k = 0; k < GQK; ++k) {
                int g = (int)gi[k];
                int q = (int)((qw[(size_t)(k / 8) * GQN + n] >> (4 * (k % 8))) & 15u);
                int z = (int)((qz[(size_t)g * (GQN / 8) + n / 8] >> (4 * (n % 8))) & 15u) + 1;
                acc += (double)x[k] * (q - z) * half_to_float(sc[(size_t)g * GQN + n]);
            }
            worst = std::max(worst, fabs(acc - o[n])); mag = std::max(mag, fabs(acc));
        }
        printf("check %s: max abs error %.2e (largest |y| %.3f)\n", id.c_str(), worst, mag);
    } else if (id == "alibi_swa_scores") {
        std::vector<float> o = rb<float>("AL_OUT", 0, (size_t)ALH * ALS * 128);
        const uint16_t *q = reinterpret_cast<const uint16_t *>(W("AL_Q").data()), *k = reinterpret_cast<const uint16_t *>(W("AL_K").data());
        double worst = 0;
        size_t badinf = 0;
        for (int h = 0; h < ALH && !o.empty(); ++h)
            for (int i = 0; i < ALS; i += 7)
                for (int w = 0; w < 128; ++w) {
                    int j = i - 127 + w;
                    float got = o[((size_t)h * ALS + i) * 128 + w];
                    if (j < 0) { badinf += !std::isinf(got); continue; }
                    double acc = 0;
                    for (int d = 0; d < 64; ++d) acc += (double)half_to_float(q[((size_t)i * ALH + h) * 64 + d]) * half_to_float(k[((size_t)j * ALH + h) * 64 + d]);
                    double ref = acc * 0.125 - powf(2.f, -8.f * (h + 1) / ALH) * (i - j);
                    worst = std::max(worst, fabs(ref - got));
                }
        printf("check %s: max abs error %.2e (every 7th query), %zu masked entries not -inf\n", id.c_str(), worst, badinf);
    } else if (id == "rwkv4_wkv_forward") {
        const float *w = F("RW_W"), *u = F("RW_U"), *k = F("RW_K"), *v = F("RW_V");
        double worst = 0;
        for (int s = 0; s < 64; ++s) {
            int b = s % RWB, c = (s * 157) % RWC;
            std::vector<float> o(RWT);
            for (int t = 0; t < RWT; ++t) readback("RW_Y", (((size_t)b * RWT + t) * RWC + c) * 4, 4, &o[t]);
            double num = 0, den = 0;
            double ww = exp((double)w[c]);
            for (int t = 0; t < RWT; ++t) {
                size_t ii = ((size_t)b * RWT + t) * RWC + c;
                double ek = exp((double)u[c] + k[ii]);
                double y = (num + ek * v[ii]) / (den + ek);
                worst = std::max(worst, fabs(y - o[t]));
                num = exp(-ww) * num + exp((double)k[ii]) * v[ii];
                den = exp(-ww) * den + exp((double)k[ii]);
            }
        }
        printf("check %s: max abs error %.2e over 64 channels' 512 steps\n", id.c_str(), worst);
    } else if (id == "causal_conv1d_cpasync_zfill") {
        std::vector<float> o = rb<float>("CV_OUT", 0, (size_t)CVB * CVD * CVL);
        const float *x = F("CV_X"), *w = F("CV_W"), *b = F("CV_B");
        double worst = 0;
        for (int r = 0; r < CVB * CVD && !o.empty(); ++r) {
            int d = r % CVD;
            for (int t = 0; t < CVL; ++t) {
                double a = b[d];
                for (int q = 0; q < 4; ++q) { int tt = t - 3 + q; if (tt >= 0) a += (double)w[d * 4 + q] * x[(size_t)r * CVL + tt]; }
                worst = std::max(worst, fabs(a / (1 + exp(-a)) - o[(size_t)r * CVL + t]));
            }
        }
        printf("check %s: max abs error %.2e\n", id.c_str(), worst);
    } else if (id == "pairhmm_forward_warp") {
        std::vector<float> o = rb<float>("PH_OUT", 0, PHP);
        double worst = 0;
        for (int p = 0; p < PHP && !o.empty(); ++p) {
            int hl = g_ph_len[p];
            std::vector<double> M((size_t)33 * (hl + 1), 0), I(M.size(), 0), D(M.size(), 0);
            auto at = [&](int i, int j) { return (size_t)i * (hl + 1) + j; };  // i, j shifted by one
            double init = 1e30 / hl;
            for (int j = 0; j <= hl; ++j) D[at(0, j)] = init;
            double acc = 0;
            for (int i = 1; i <= 32; ++i) {
                double err = pow(10.0, -0.1 * g_ph_q[(size_t)p * 32 + i - 1]);
                for (int j = 1; j <= hl; ++j) {
                    double prior = g_ph_h[(size_t)p * 160 + j - 1] == g_ph_r[(size_t)p * 32 + i - 1] ? 1 - err : err / 3;
                    M[at(i, j)] = prior * (0.9 * M[at(i - 1, j - 1)] + 0.1 * I[at(i - 1, j - 1)] + 0.1 * D[at(i - 1, j - 1)]);
                    I[at(i, j)] = 0.05 * M[at(i - 1, j)] + 0.9 * I[at(i - 1, j)];
                    D[at(i, j)] = 0.05 * M[at(i, j - 1)] + 0.9 * D[at(i, j - 1)];
                    if (i == 32) acc += M[at(i, j)] + I[at(i, j)];
                }
            }
            worst = std::max(worst, fabs(log10(acc) - 30 - o[p]));
        }
        printf("check %s: max abs error of log10 likelihood %.2e\n", id.c_str(), worst);
    } else if (id == "hog_cell_histogram") {
        std::vector<float> o = rb<float>("HG_HIST", 0, (size_t)(HGH / 8) * (HGW / 8) * 9);
        std::vector<double> ref(o.size(), 0);
        for (int y = 0; y < HGH && !o.empty(); ++y)
            for (int x = 0; x < HGW; ++x) {
                auto I = [&](int yy, int xx) { return (float)g_hg[(size_t)yy * HGW + xx]; };
                float gx = I(y, std::min(x + 1, HGW - 1)) - I(y, std::max(x - 1, 0));
                float gy = I(std::min(y + 1, HGH - 1), x) - I(std::max(y - 1, 0), x);
                float mag = sqrtf(gx * gx + gy * gy), ang = atan2f(gy, gx) * 57.29577951f;
                if (ang < 0) ang += 180; if (ang >= 180) ang -= 180;
                float fb = ang / 20.f - 0.5f;
                int b0 = (int)floorf(fb);
                float wb = fb - b0;
                int b1 = b0 + 1;
                if (b0 < 0) b0 += 9; if (b1 >= 9) b1 -= 9;
                size_t c = ((size_t)(y / 8) * (HGW / 8) + x / 8) * 9;
                ref[c + b0] += mag * (1 - wb); ref[c + b1] += mag * wb;
            }
        double worst = 0;
        size_t off = 0;
        for (size_t i = 0; i < ref.size() && !o.empty(); ++i) {
            double e = fabs(ref[i] - o[i]) / std::max(1.0, ref[i]);
            worst = std::max(worst, e); off += e > 1e-3;
        }
        printf("check %s: %zu of 291,600 bins off by > 1e-3 rel. (max %.2e: atan2f / sqrtf rounding at bin edges)\n", id.c_str(), off, worst);
    } else if (id == "lucas_kanade_5x5") {
        std::vector<float> o = rb<float>("LK_FLOW", 0, (size_t)LKW * LKH * 2);
        double worst = 0, su = 0, sv = 0;
        size_t cnt = 0;
        auto A = [&](const std::vector<float> &im, int y, int x) { return im[(size_t)std::min(std::max(y, 0), LKH - 1) * LKW + std::min(std::max(x, 0), LKW - 1)]; };
        for (int y = 0; y < LKH && !o.empty(); y += 3)
            for (int x = 0; x < LKW; x += 3) {
                double sxx = 0, sxy = 0, syy = 0, sxt = 0, syt = 0;
                for (int dy = -2; dy <= 2; ++dy)
                    for (int dx = -2; dx <= 2; ++dx) {
                        int yy = y + dy, xx = x + dx;
                        // tiles: the gradient of a clamped tile is taken on clamped samples
                        int bx = (x / 16) * 16 - 3, by = (y / 16) * 16 - 3;
                        int cx = xx - bx, cy = yy - by;
                        auto T = [&](const std::vector<float> &im, int r, int c) { return A(im, by + r, bx + c); };
                        double gx = 0.5 * (T(g_lk0, cy, cx + 1) - T(g_lk0, cy, cx - 1)), gy = 0.5 * (T(g_lk0, cy + 1, cx) - T(g_lk0, cy - 1, cx));
                        double gt = T(g_lk1, cy, cx) - T(g_lk0, cy, cx);
                        sxx += gx * gx; sxy += gx * gy; syy += gy * gy; sxt += gx * gt; syt += gy * gt;
                    }
                double det = sxx * syy - sxy * sxy, u = 0, v = 0;
                if (fabs(det) > 1e-6) { u = (-syy * sxt + sxy * syt) / det; v = (sxy * sxt - sxx * syt) / det; }
                double e = std::max(fabs(u - o[((size_t)y * LKW + x) * 2]), fabs(v - o[((size_t)y * LKW + x) * 2 + 1])) / std::max(1.0, fabs(u) + fabs(v));
                worst = std::max(worst, e); su += u; sv += v; ++cnt;
            }
        printf("check %s: max rel. error %.2e (every 3rd pixel both ways), mean flow (%.3f, %.3f)\n", id.c_str(), worst, su / cnt, sv / cnt);
    } else if (id == "weno5_face_x") {
        std::vector<float> o = rb<float>("WE_QL", 0, (size_t)WER * (WEX + 1));
        const float *q = F("WE_Q");
        double worst = 0;
        for (int r = 0; r < WER && !o.empty(); r += 5)
            for (int f = 0; f <= WEX; ++f) {
                const float *row = q + (size_t)r * (WEX + 6);
                int c = f + 2;
                double vm2 = row[c - 2], vm1 = row[c - 1], v0 = row[c], vp1 = row[c + 1], vp2 = row[c + 2];
                double b0 = 13.0 / 12 * pow(vm2 - 2 * vm1 + v0, 2) + 0.25 * pow(vm2 - 4 * vm1 + 3 * v0, 2);
                double b1 = 13.0 / 12 * pow(vm1 - 2 * v0 + vp1, 2) + 0.25 * pow(vm1 - vp1, 2);
                double b2 = 13.0 / 12 * pow(v0 - 2 * vp1 + vp2, 2) + 0.25 * pow(3 * v0 - 4 * vp1 + vp2, 2);
                double a0 = 0.1 / pow(1e-6 + b0, 2), a1 = 0.6 / pow(1e-6 + b1, 2), a2 = 0.3 / pow(1e-6 + b2, 2);
                double ref = (a0 * (2 * vm2 - 7 * vm1 + 11 * v0) / 6 + a1 * (-vm1 + 5 * v0 + 2 * vp1) / 6 + a2 * (2 * v0 + 5 * vp1 - vp2) / 6) / (a0 + a1 + a2);
                worst = std::max(worst, fabs(ref - o[(size_t)r * (WEX + 1) + f]));
            }
        printf("check %s: max abs error %.2e (every 5th row)\n", id.c_str(), worst);
    } else if (id == "samplesort_bucket_count") {
        std::vector<uint8_t> bo = rb<uint8_t>("SS_BUCKET", 0, SSN);
        std::vector<uint32_t> co = rb<uint32_t>("SS_COUNTS", 0, (size_t)256 * SSB);
        const auto &k = W("SS_KEYS");
        std::vector<uint32_t> cref((size_t)256 * SSB, 0);
        size_t bad = 0, cbad = 0;
        for (int i = 0; i < SSN && !bo.empty(); ++i) {
            int b = (int)(std::upper_bound(g_ss_split.begin(), g_ss_split.end(), k[i]) - g_ss_split.begin());
            bad += bo[i] != b;
            cref[(size_t)b * SSB + i / 2048]++;
        }
        for (size_t i = 0; i < cref.size() && !co.empty(); ++i) cbad += cref[i] != co[i];
        printf("check %s: %zu of 7,999,999 buckets and %zu of 1,000,192 counts differ\n", id.c_str(), bad, cbad);
    } else if (id == "bpe_merge_rank_probe") {
        std::vector<int32_t> o = rb<int32_t>("BE_OUT", 0, BEN);
        size_t bad = 0, found = 0;
        for (int i = 0; i < BEN && !o.empty(); ++i) {
            int r = 0x7fffffff;
            if (i + 1 < BEN && g_be_word[i] == g_be_word[i + 1]) {
                auto it = g_be_rank.find(((unsigned long long)(uint32_t)g_be_tok[i] << 32) | (uint32_t)g_be_tok[i + 1]);
                if (it != g_be_rank.end()) r = it->second;
            }
            bad += o[i] != r; found += r != 0x7fffffff;
        }
        printf("check %s: %zu of 3,000,000 ranks differ (%zu pairs are merges)\n", id.c_str(), bad, found);
    } else if (id == "spgemm_row_count_hash") {
        std::vector<int32_t> o = rb<int32_t>("SG_CNT", 0, SGR);
        size_t bad = 0, tot = 0;
        std::vector<int> mark(SGR, -1);
        for (int r = 0; r < SGR && !o.empty(); ++r) {
            int c = 0;
            for (int e = g_sg_rp[r]; e < g_sg_rp[r + 1]; ++e) {
                int k = g_sg_ci[e];
                for (int f = g_sg_rp[k]; f < g_sg_rp[k + 1]; ++f)
                    if (mark[g_sg_ci[f]] != r) { mark[g_sg_ci[f]] = r; ++c; }
            }
            bad += o[r] != c; tot += c;
        }
        printf("check %s: %zu of 49,999 row counts differ (nnz of A A %zu)\n", id.c_str(), bad, tot);
    } else if (id == "lion_update_vec4") {
        std::vector<float> po = rb<float>("LI_P", 0, LIN), mo = rb<float>("LI_M", 0, LIN);
        const float *p = F("LI_P"), *g = F("LI_G"), *m = F("LI_M");
        double worst = 0;
        for (int i = 0; i < LIN && !po.empty(); ++i) {
            float c = 0.9f * m[i] + 0.1f * g[i];
            float pn = p[i] - 1e-4f * ((float)((c > 0) - (c < 0)) + 0.1f * p[i]);
            float mn = 0.99f * m[i] + 0.01f * g[i];
            worst = std::max(worst, (double)std::max(fabsf(pn - po[i]), fabsf(mn - mo[i])));
        }
        printf("check %s: max abs error %.2e\n", id.c_str(), worst);
    } else if (id == "bulk_gather_pool_rows") {
        std::vector<float> o = rb<float>("BG_OUT", 0, (size_t)BGB * 256);
        const float *t = F("BG_TABLE");
        const auto &ids = W("BG_IDS"), &lens = W("BG_LENS");
        double worst = 0;
        for (int b = 0; b < BGB && !o.empty(); ++b)
            for (int c = 0; c < 256; ++c) {
                float s = 0;
                for (int j = 0; j < (int)lens[b]; ++j) s += t[(size_t)ids[(size_t)b * 8 + j] * 256 + c];
                worst = std::max(worst, (double)fabsf(s - o[(size_t)b * 256 + c]));
            }
        printf("check %s: max abs error %.2e\n", id.c_str(), worst);
    } else if (id == "ldmatrix_swizzle_hgemm") {
        std::vector<float> o = rb<float>("HM_C", 0, (size_t)HMM * HMN);
        const uint16_t *a = reinterpret_cast<const uint16_t *>(W("HM_A").data()), *b = reinterpret_cast<const uint16_t *>(W("HM_B").data());
        double worst = 0;
        Lcg g(99);
        for (int s = 0; s < 20000 && !o.empty(); ++s) {
            int r = (int)(g.next() % HMM), c = (int)(g.next() % HMN);
            double acc = 0;
            for (int k = 0; k < HMK; ++k) acc += (double)half_to_float(a[(size_t)r * HMK + k]) * half_to_float(b[(size_t)c * HMK + k]);
            worst = std::max(worst, fabs(acc - o[(size_t)r * HMN + c]));
        }
        printf("check %s: max abs error %.2e over 20,000 sampled outputs\n", id.c_str(), worst);
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
