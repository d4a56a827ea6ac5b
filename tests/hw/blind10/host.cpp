// warpscope tenth held-out batch (tests/hw/blind10): host program, copied from tests/hw/blind9/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules,
// launch table and checks are the tenth blind batch's; no tensor maps are used).
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

static const uint64_t SEED_RAND8M = 1001;
static const uint64_t SEED_FRND = 1002;
static const uint64_t SEED_B64 = 1003;
static const uint64_t SEED_UTF8 = 1004;
static const uint64_t SEED_RLE = 1005;
static const uint64_t SEED_DICT = 1006;
static const uint64_t SEED_LUT = 1007;
static const uint64_t SEED_AES = 1008;
static const uint64_t SEED_EDGE = 1009;
static const uint64_t SEED_RANKS = 1010;
static const uint64_t SEED_HALF = 1011;

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

static const char B64_ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const int UTF8_BYTES = 4000000;
static const int RLE_N = 4000000;
static int g_rle_runs = 0;
static const int FEM_E = 64, FEM_N = 65;  // elements and nodes a side
static const int EG = 100;                // edge mesh: 100^3 nodes
static int g_nedges = 0;
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

static void make_buffers()
{
    const size_t MiB = 1 << 20;
    add_fill("C", 64 * MiB, 0x00000000u, "zero");
    add_fill("D", 64 * MiB, 0x00000000u, "zero");
    add_fill("ACC1", 4 * MiB, 0x00000000u, "zero: fem_hex8_apply's nodal accumulator");
    add_fill("ACC2", 4 * MiB, 0x00000000u, "zero: edge_flux_atomic's nodal accumulator");
    add_fill("ACC3", 1 * MiB, 0x00000000u, "zero: tma2d_reduce_add's 512 x 512 float32 output");
    add_words("RAND8M", lcg_words(2097152, SEED_RAND8M),
              "2,097,152 uint32 words: successive next() of the LCG below seeded with 1001 (8 MiB; as bytes: images, AES / SHA-256 input, keys)");
    {
        std::vector<uint32_t> w = lcg_words(4194304, SEED_FRND);
        for (auto &x : w) { float f = unit_float(x) * 2.0f - 1.0f; memcpy(&x, &f, 4); }
        add_words("FRND", w, "4,194,304 float32 in [-1, 1): (next() >> 8) / 2^24 * 2 - 1 (LCG seed 1002)");
    }
    {
        Lcg g(SEED_B64);
        std::vector<uint8_t> b(8000000);
        for (auto &c : b) c = (uint8_t)B64_ALPHABET[g.next() >> 26];
        add_words("B64", bytes_to_words(b), "8,000,000 base64 characters (2,000,000 quads): B64_ALPHABET[next() >> 26] (LCG seed 1003)");
    }
    {
        // UTF-8 text: a code point a step, 1 byte (r mod 100 < 70), 2 (< 85), 3 (< 95), 4 bytes, or one
        // invalid 0xFF byte when r mod 1000 = 999; payload bits from next(); truncated to 4,000,000 bytes
        Lcg g(SEED_UTF8);
        std::vector<uint8_t> b;
        b.reserve(UTF8_BYTES + 8);
        while ((int)b.size() < UTF8_BYTES) {
            uint32_t r = g.next(), v = g.next();
            if (r % 1000 == 999) { b.push_back(0xFF); continue; }
            uint32_t k = r % 100;
            if (k < 70) b.push_back((uint8_t)(0x20 + v % 95));
            else if (k < 85) { b.push_back((uint8_t)(0xC2 + v % 30)); b.push_back((uint8_t)(0x80 | ((v >> 8) & 63))); }
            else if (k < 95) { b.push_back((uint8_t)(0xE1 + v % 12)); b.push_back((uint8_t)(0x80 | ((v >> 8) & 63))); b.push_back((uint8_t)(0x80 | ((v >> 16) & 63))); }
            else { b.push_back((uint8_t)(0xF1 + v % 3)); b.push_back((uint8_t)(0x80 | ((v >> 8) & 63))); b.push_back((uint8_t)(0x80 | ((v >> 16) & 63))); b.push_back((uint8_t)(0x80 | ((v >> 24) & 63))); }
        }
        b.resize(UTF8_BYTES);
        add_words("UTF8", bytes_to_words(b), "4,000,000 bytes of UTF-8 text (LCG seed 1004): per code point r = next(), v = next(); 0xFF (invalid) when r mod 1000 = 999, else 1 byte (r mod 100 < 70), 2 (< 85), 3 (< 95) or 4 bytes with payload from v; see host.cpp");
    }
    {
        Lcg g(SEED_RLE);
        std::vector<uint32_t> ends, vals;
        int pos = 0;
        while (pos < RLE_N) {
            pos = std::min(RLE_N, pos + 1 + (int)(g.next() % 16));
            ends.push_back((uint32_t)pos);
            vals.push_back(g.next());
        }
        g_rle_runs = (int)ends.size();
        add_words("RLEEND", ends, "run-length runs covering 4,000,000 values: lengths 1 + next() mod 16, inclusive-prefix run ends (LCG seed 1005, one stream with RLEVAL)");
        add_words("RLEVAL", vals, "the runs' values: next() after each length");
    }
    {
        Lcg g(SEED_DICT);
        std::vector<uint32_t> d(8192);
        for (int k = 0; k < 4096; ++k) { double v = (double)g.next() / 4294967296.0 - 0.5; memcpy(&d[2 * k], &v, 8); }
        add_words("DICT", d, "4,096 float64 dictionary values next() / 2^32 - 0.5 (LCG seed 1006)");
        std::vector<uint16_t> idx(4000000);
        for (auto &x : idx) x = (uint16_t)(g.next() >> 20);
        std::vector<uint32_t> w(2000000);
        memcpy(w.data(), idx.data(), 8000000);
        add_words("DIDX", w, "4,000,000 uint16 dictionary indices next() >> 20 (0..4,095; the same stream after DICT)");
        std::vector<uint16_t> s(idx);
        std::sort(s.begin(), s.end());
        memcpy(w.data(), s.data(), 8000000);
        add_words("DIDXS", w, "DIDX sorted ascending (a sorted dictionary-encoded column: runs of about 977 equal indices)");
    }
    add_words("LUT", lcg_words(192, SEED_LUT), "three 256-byte tone curves as 192 next() words (LCG seed 1007)");
    {
        std::vector<uint32_t> w = lcg_words(1024 + 44, SEED_AES);
        w.resize(1024 + 1024, 0);  // round keys at word 1,024 (byte 4,096), then zeros
        add_words("AESK", w, "AES-style T-tables (4 x 256 next() words) at byte 0 and 44 round-key words (the next 44 next()) at byte 4,096 (LCG seed 1008)");
    }
    {
        // SHA-256 round constants: floor(frac(cbrt(p)) * 2^32) for the first 64 primes
        std::vector<uint32_t> k;
        for (int p = 2; (int)k.size() < 64; ++p) {
            bool prime = true;
            for (int d = 2; d * d <= p; ++d) prime = prime && (p % d != 0);
            if (!prime) continue;
            long double c = cbrtl((long double)p);
            k.push_back((uint32_t)(uint64_t)((c - floorl(c)) * 4294967296.0L));
        }
        add_words("SHAK", k, "the 64 SHA-256 round constants (fractional parts of the cube roots of the first 64 primes)");
    }
    add_words("DIAOFF", {(uint32_t)-1000, (uint32_t)-1, 0, 1, 1000, 0, 0, 0, (uint32_t)-333, (uint32_t)-17, (uint32_t)-3, 0, 5, 17, 333, 0},
              "DIA diagonal offsets: {-1000, -1, 0, 1, 1000} at byte 0, {-333, -17, -3, 0, 5, 17, 333} at byte 32");
    {
        std::vector<uint32_t> c((size_t)FEM_E * FEM_E * FEM_E * 8);
        size_t e = 0;
        for (int z = 0; z < FEM_E; ++z)
            for (int y = 0; y < FEM_E; ++y)
                for (int x = 0; x < FEM_E; ++x, ++e) {
                    int n0 = (z * FEM_N + y) * FEM_N + x;
                    int nd[8] = {n0, n0 + 1, n0 + FEM_N + 1, n0 + FEM_N, n0 + FEM_N * FEM_N, n0 + FEM_N * FEM_N + 1,
                                 n0 + FEM_N * FEM_N + FEM_N + 1, n0 + FEM_N * FEM_N + FEM_N};
                    for (int k = 0; k < 8; ++k) c[e * 8 + k] = (uint32_t)nd[k];
                }
        add_words("FEMC", c, "hex8 connectivity of a structured 64^3-element mesh (65^3 nodes, x fastest), elements in natural order, 8 int node ids each (VTK hexahedron order)");
    }
    {
        std::vector<uint32_t> e;
        for (int z = 0; z < EG; ++z)
            for (int y = 0; y < EG; ++y)
                for (int x = 0; x < EG; ++x) {
                    int n = (z * EG + y) * EG + x;
                    if (x + 1 < EG) { e.push_back(n); e.push_back(n + 1); }
                    if (y + 1 < EG) { e.push_back(n); e.push_back(n + EG); }
                    if (z + 1 < EG) { e.push_back(n); e.push_back(n + EG * EG); }
                }
        g_nedges = (int)(e.size() / 2);
        std::vector<int32_t> p = permutation(g_nedges, SEED_EDGE);
        std::vector<uint32_t> s(e.size());
        for (int k = 0; k < g_nedges; ++k) { s[2 * k] = e[2 * p[k]]; s[2 * k + 1] = e[2 * p[k] + 1]; }
        add_words("EDGES", s, "the 2,970,000 edges (int2 endpoint pairs) of a 100^3-node grid (x, y, z neighbours), shuffled: edge k of the list is edge p[k] of the natural order, p a permutation (seed 1009)");
    }
    {
        Lcg g(SEED_RANKS);
        std::vector<uint32_t> r8(1024 * 1024), r7(896 * 1170);
        for (int t = 0; t < 1024; ++t) {
            std::vector<uint32_t> p(1024);
            for (int i = 0; i < 1024; ++i) p[i] = i;
            for (int i = 1023; i > 0; --i) std::swap(p[i], p[g.next() % (uint32_t)(i + 1)]);
            memcpy(&r8[(size_t)t * 1024], p.data(), 4096);
        }
        for (int t = 0; t < 1170; ++t) {
            std::vector<uint32_t> p(896);
            for (int i = 0; i < 896; ++i) p[i] = i;
            for (int i = 895; i > 0; --i) std::swap(p[i], p[g.next() % (uint32_t)(i + 1)]);
            memcpy(&r7[(size_t)t * 896], p.data(), 896 * 4);
        }
        add_words("RANK8", r8, "1,024 tiles of 1,024 ranks: a Fisher-Yates permutation of 0..1,023 a tile (LCG seed 1010, one stream, then RANK7)");
        add_words("RANK7", r7, "1,170 tiles of 896 ranks: a permutation of 0..895 a tile (the same stream after RANK8)");
    }
    {
        std::vector<uint32_t> w = lcg_words(4194304, SEED_HALF);
        for (auto &x : w) x = (uint32_t)f2h(unit_float(x) * 2.0f - 1.0f) | ((uint32_t)f2h(unit_float(x * 2654435761u) * 2.0f - 1.0f) << 16);
        add_words("HALF", w, "8,388,608 fp16 in (-1, 1): word k = (h(u(r)), h(u(r * 2654435761 mod 2^32))), r = next() (LCG seed 1011), u(r) = (r >> 8) / 2^24 * 2 - 1, h = round to nearest even");
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
    {"blind10", "tests/hw/blind10/blind10.ptx"},
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

// warpAffine's inverse map: rotation by `deg` degrees and scale `s` about the centres
static std::vector<float> affine(float deg, float s, float scx, float scy, float dcx, float dcy)
{
    float c = s * cosf(deg * 3.14159265f / 180.0f), sn = s * sinf(deg * 3.14159265f / 180.0f);
    return {c, sn, scx - c * dcx - sn * dcy, -sn, c, scy + sn * dcx - c * dcy};
}

static void make_launches()
{
    const char *K = "blind10";
    const long long MiB = 1 << 20;
    // data processing
    L1("base64_decode", K, "base64_decode", {P("B64"), P("C"), S32(2000000)}, 2000000, 256,
       "base64 decode of 2,000,000 quads: a uchar4 load a thread, the 256-entry table built in shared memory, four byte reads from it, three byte stores at a 3-byte lane stride");
    L1("utf8_validate", K, "utf8_validate", {P("UTF8"), S32(250000), S32(UTF8_BYTES), P("C")}, 250000, 256,
       "UTF-8 validation and code-point count: a thread per 16-byte chunk (uint4), continuation bytes past the chunk read one byte at a time from the next chunk where a sequence straddles, an int2 (count, errors) out");
    L1("rle_decode", K, "rle_decode", {P("RLEEND"), P("RLEVAL"), S32(g_rle_runs), P("C"), S32(RLE_N)}, RLE_N, 256,
       "run-length decode of 4,000,000 values (runs of 1..16): a thread per value, a binary search over the loaded run ends (about 19 dependent loads), the run's value");
    L1("dict_decode_rand", K, "dict_decode_f64", {P("DIDX"), P("DICT"), P("C"), S32(4000000)}, 4000000, 256,
       "dictionary decode: 4,000,000 uint16 indices (random 0..4,095) into 4,096 float64 values (32 KiB), float64 out");
    L1("dict_decode_sorted", K, "dict_decode_f64", {P("DIDXS"), P("DICT"), P("D"), S32(4000000)}, 4000000, 256,
       "the same with the indices sorted (a sorted column: runs of about 977 equal indices)");
    // images
    L("bayer_rggb_bilinear", K, "bayer_rggb_bilinear", 30, 68, 1, 32, 8, 1,
      {P("RAND8M"), S32(2048), P("C"), S32(1920), S32(1920), S32(1080)},
      "Bayer RGGB bilinear demosaic of a 1,920 x 1,080 8-bit raw image (pitch 2,048): a thread per 2 x 2 quad, a clamped 4 x 4 window of 16 byte loads, four uchar4 RGBA stores (out pitch 1,920 pixels)");
    L("integral_rows_u8", K, "integral_rows_u8", 250, 1, 1, 128, 1, 1,
      {P("RAND8M"), S32(1024), P("D"), S32(1024), S32(1000), S32(1000)},
      "integral image row pass: 1,000 x 1,000 bytes (pitch 1,024), a warp per row, 128-byte chunks as uchar4 a lane (the last chunk 104 bytes), shuffle scan with a carry, uint4 stores of uint32 sums (pitch 1,024)");
    L("integral_cols_u32", K, "integral_cols_u32", 4, 1, 1, 256, 1, 1, {P("D"), S32(1024), S32(1000), S32(1000)},
      "integral image column pass in place: a thread per column of 1,000 walking 1,000 rows of uint32 (pitch 1,024): a load and a store a row");
    L("gauss9_row", K, "gauss9_row", 8, 1000, 1, 128, 1, 1, {P("FRND"), P("C"), S32(1000), S32(1000), S32(1000)},
      "separable 9-tap Gaussian, row pass, 1,000 x 1,000 floats (rows 4,000 bytes): 128 threads along a row, a shared tile of 136 with the halo loaded by the first 4 threads (clamped), taps from __constant__");
    L("gauss9_col", K, "gauss9_col", 32, 125, 1, 32, 8, 1, {P("C"), P("D"), S32(1000), S32(1000), S32(1000)},
      "column pass over the row pass's output: 32 x 8 blocks, a 16 x 32 shared tile, halo rows loaded by the top and bottom four thread rows (clamped), the last column tile 8 wide");
    {
        std::vector<float> m = affine(30.0f, 1.1f, 500.0f, 500.0f, 600.0f, 450.0f);
        L("warp_affine_rot30", K, "warp_affine_bilinear", 38, 113, 1, 32, 8, 1,
          {P("FRND"), S32(1000), S32(1000), P("C"), S32(1200), S32(900), F32(m[0]), F32(m[1]), F32(m[2]), F32(m[3]), F32(m[4]), F32(m[5])},
          "warpAffine bilinear, border replicated: a 1,000 x 1,000 float image rotated by 30 degrees and scaled by 1.1 about the centres into 1,200 x 900, four clamped gathers a pixel");
        L("warp_affine_down2", K, "warp_affine_bilinear", 16, 63, 1, 32, 8, 1,
          {P("FRND"), S32(1000), S32(1000), P("D"), S32(500), S32(500), F32(2.0f), F32(0.0f), F32(0.5f), F32(0.0f), F32(2.0f), F32(0.5f)},
          "the same kernel as a 2x downscale (sx = 2x + 0.5, no rotation) into 500 x 500");
    }
    L1("lut3_apply_u8c4", K, "lut3_apply_u8c4", {P("RAND8M"), P("LUT"), P("C"), S32(2000000)}, 2000000, 256,
       "per-channel tone curves: three 256-byte LUTs staged in shared memory, a uchar4 pixel a thread, three data-dependent byte reads, uchar4 out; 2,000,000 pixels");
    // crypto
    L1("aes128_ttable", K, "aes128_ttable", {P("RAND8M"), P("C"), P("AESK"), P("AESK", 4096), S32(500000)}, 500000, 256,
       "AES-128-structured T-table encryption of 500,000 16-byte blocks (uint4 in and out): four 256-word tables and 44 round keys staged in shared memory, 9 rounds of 16 data-dependent table reads, a last round of 16 byte-masked reads");
    L1("sha256_blocks", K, "sha256_blocks", {P("RAND8M"), P("SHAK"), P("C"), S32(131072)}, 131072, 128,
       "SHA-256 of 131,072 independent 64-byte messages (a block each, no padding block): four uint4 loads at a 64-byte lane stride, a 16-word rolling schedule in local memory (loop not unrolled), constants in shared memory, two uint4 digest stores");
    // scientific
    L1("spmv_dia5", K, "spmv_dia", {P("FRND"), P("DIAOFF"), S32(5), P("FRND", 12800000), P("C"), S32(800000)}, 800000, 256,
       "DIA SpMV, n = 800,000, 5 diagonals at offsets -1,000, -1, 0, 1, 1,000 (loaded): data[d][row] coalesced, x[row + off] shifted");
    L1("spmv_dia7", K, "spmv_dia", {P("FRND"), P("DIAOFF", 32), S32(7), P("FRND", 14000000), P("D"), S32(500000)}, 500000, 256,
       "the same with n = 500,000 and 7 diagonals at -333, -17, -3, 0, 5, 17, 333");
    L1("fem_hex8_apply", K, "fem_hex8_apply", {P("FEMC"), P("FRND"), P("FRND", 8 * MiB), P("ACC1"), S32(262144)}, 262144, 128,
       "hex8 element matrix-vector product on a structured 64^3 mesh (elements in natural order): two int4 connectivity loads, 8 gathered nodal values, an 8 x 8 element matrix from shared memory, 8 float atomicAdd (RED) scatters");
    L1("edge_flux_atomic", K, "edge_flux_atomic", {P("EDGES"), P("FRND"), P("FRND", 4 * MiB), P("ACC2"), S32(g_nedges)}, (unsigned)g_nedges, 256,
       "edge-based flux on a shuffled list of the 2,970,000 edges of a 100^3-node grid: an int2 endpoint load, two gathers, two float atomicAdd (RED) scatters");
    // CUB
    L("cub_warp_transpose5", K, "cub_warp_transpose5", 1563, 1, 1, 128, 1, 1, {P("FRND"), P("C"), S32(1000003)},
      "cub::WarpLoad / WarpStore WARP_*_TRANSPOSE, 5 items a lane (160 a warp), n = 1,000,003 (the last warp 83 valid), adjacent differences");
    L("cub_scatter_striped8", K, "cub_scatter_striped8", 1024, 1, 1, 128, 1, 1, {P("RAND8M"), P("RANK8"), P("C")},
      "cub::BlockExchange<int, 128, 8>::ScatterToStriped (padded exchange buffer) by loaded random ranks (a permutation a tile of 1,024), blocked int loads at a 32-byte lane stride, striped stores");
    L("cub_scatter_striped7", K, "cub_scatter_striped7", 1170, 1, 1, 128, 1, 1, {P("RAND8M"), P("RANK7"), P("D")},
      "the same with 7 items (tiles of 896, unpadded exchange buffer)");
    // deep learning
    L("winograd_f23_input", K, "winograd_f23_input", 4, 64, 1, 256, 1, 1,
      {P("FRND"), P("C"), S32(64), S32(56), S32(56), S32(28), S32(28)},
      "Winograd F(2x2, 3x3) input transform, NCHW 64 x 56 x 56, pad 1: a thread per (channel, 4 x 4 tile at stride 2), 16 zero-padded loads, 16 stores into V[16][64][784]");
    L("avgpool3s2_c64", K, "avgpool3s2_nhwc_h8", 784, 1, 1, 256, 1, 1,
      {P("HALF"), P("C"), S32(32), S32(56), S32(56), S32(8), S32(28), S32(28)},
      "3 x 3 / stride 2 / pad 1 average pool, NHWC fp16 32 x 56 x 56 x 64 (128-byte pixels): a thread per (output pixel, 8 channels), nine uint4 loads (padding skipped), a uint4 store");
    L("avgpool3s2_c40", K, "avgpool3s2_nhwc_h8", 490, 1, 1, 256, 1, 1,
      {P("HALF"), P("D"), S32(32), S32(56), S32(56), S32(5), S32(28), S32(28)},
      "the same with 40 channels (80-byte pixels, 5 vectors a pixel)");
    L("bn_stats_nchw", K, "bn_stats_nchw", 64, 1, 1, 256, 1, 1, {P("FRND"), P("C"), P("C", 256), S32(64), S32(64), S32(784)},
      "batch-norm statistics on NCHW 64 x 64 x 28 x 28: a block per channel, loops over 64 images and the 784-float plane (3,136 bytes: plane starts 64-byte aligned), shared tree reduction");
    L("swa_softmax_w256", K, "swa_softmax", 512, 1, 1, 128, 1, 1, {P("FRND"), P("C"), S32(2048), S32(256), F32(1.0f)},
      "sliding-window causal softmax, 2,048 x 2,048 scores, window 256: a warp per row, two passes over the window from an unaligned start, the whole row written (zeros outside)");
    L("swa_softmax_w100", K, "swa_softmax", 512, 1, 1, 128, 1, 1, {P("FRND"), P("D"), S32(2048), S32(100), F32(0.5f)},
      "the same with window 100 (four trips, the last partial) and scale 0.5");
    L("argmax_vocab", K, "argmax_vocab", 64, 1, 1, 256, 1, 1, {P("FRND"), S32(50257), P("C")},
      "greedy argmax over 64 rows of 50,257 logits (rows 201,028 bytes apart: 4-byte aligned), 256 threads a row, shuffle and shared reductions");
    // Hopper
    L("bulk_mcast_gemv", K, "bulk_mcast_gemv", 128, 1, 1, 256, 1, 1, {P("FRND"), P("FRND"), P("C"), S32(8)},
      "clusters of 2 CTAs (compiled __cluster_dims__): elect.sync picks a lane that copies half of each 16 KiB chunk of x by cp.async.bulk .multicast::cluster into both CTAs' shared buffers (mbarrier expect_tx 16,384 each), float4 dot products with the CTA's own row of w (32,768 floats), a cluster barrier a chunk; 8 chunks, 128 rows");
    L("tma2d_mcast_gemv4", K, "tma2d_mcast_gemv4", 128, 1, 1, 256, 1, 1,
      {TMAP("FRND", 2048, 2048, 64, 16), P("FRND"), P("C"), S32(2048), S32(2048)},
      "clusters of 4 CTAs (compiled __cluster_dims__): 2-D TMA loads (tensor map over a 2,048 x 2,048 float32 matrix, box 64 x 16, no swizzle) multicast with mask 0xF, CTA r loading rows 16 r .. 16 r + 15 of the cluster's 64-row tile into all four CTAs' buffers (expect_tx 16,384 each), 32 column tiles; CTA r multiplies the tile by its own vector x_r (float4 loads, 4 threads a row reading 64-byte pieces of 256-byte shared rows), a cluster barrier a tile; y[4][2,048]");
    L("tma2d_reduce_add", K, "tma2d_reduce_add", 1024, 1, 1, 256, 1, 1, {TMAP("ACC3", 512, 512, 32, 32), P("FRND"), F32(0.5f)},
      "split-K-style TMA reduction: 4 splits x 256 tiles of 32 x 32 floats, a float4 load a thread of the split's 512 x 512 part, scaled into shared memory, one cp.reduce.async.bulk.tensor.2d .add.tile.bulk_group a CTA into the zeroed 512 x 512 output (tensor map, box 32 x 32, no swizzle): four CTAs add into each output tile");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind10/host.cpp. Launches run once each, in this order, on one stream. "
               "Pointer params: buffer name + byte offset; every buffer is cuMemAlloc'd with its size rounded up to a multiple of 2 MiB; the run prints each base mod 4096 (0 for all in the committed measurement, see README). "
               "Scalar params: value by PTX parameter index.\",\n");
    fprintf(f, "  \"permutation_generator\": {\"algorithm\": \"state = state * %llu + %llu (mod 2^64); next() = state >> 32; "
               "p = identity; for i = n-1 down to 1: j = next() %% (i+1); swap(p[i], p[j])\", \"reference\": \"tests/hw/lcg_perm.py\", "
               "\"seeds\": {\"RAND8M (next() words)\": %llu, \"FRND (next() words)\": %llu, \"B64\": %llu, \"UTF8\": %llu, \"RLEEND/RLEVAL (one stream)\": %llu, \"DICT/DIDX (one stream)\": %llu, \"LUT (next() words)\": %llu, \"AESK (next() words)\": %llu, \"EDGES (permutation of the edges)\": %llu, \"RANK8/RANK7 (one stream)\": %llu, \"HALF\": %llu}},\n",
            (unsigned long long)LCG_A, (unsigned long long)LCG_C, (unsigned long long)SEED_RAND8M, (unsigned long long)SEED_FRND,
            (unsigned long long)SEED_B64, (unsigned long long)SEED_UTF8, (unsigned long long)SEED_RLE, (unsigned long long)SEED_DICT,
            (unsigned long long)SEED_LUT, (unsigned long long)SEED_AES, (unsigned long long)SEED_EDGE, (unsigned long long)SEED_RANKS,
            (unsigned long long)SEED_HALF);
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

static void check_launch(const Launch &l)
{
    const std::string &id = l.id;
    const std::vector<uint32_t> &FR = buf("FRND").words;
    const uint8_t *R8 = bytes_of("RAND8M");
    auto F = [&](size_t i) { return f32_of(FR[i]); };
    if (id == "base64_decode") {
        std::vector<uint8_t> o = rb<uint8_t>("C", 0, 6000000);
        if (o.empty()) return;
        const uint8_t *t = bytes_of("B64");
        int dec[256] = {0};
        for (int k = 0; k < 64; ++k) dec[(uint8_t)B64_ALPHABET[k]] = k;
        size_t bad = 0;
        for (size_t q = 0; q < 2000000; ++q) {
            uint32_t w = dec[t[4 * q]] << 18 | dec[t[4 * q + 1]] << 12 | dec[t[4 * q + 2]] << 6 | dec[t[4 * q + 3]];
            bad += (o[3 * q] != (uint8_t)(w >> 16)) + (o[3 * q + 1] != (uint8_t)(w >> 8)) + (o[3 * q + 2] != (uint8_t)w);
        }
        printf("check %s: %zu of 6,000,000 bytes differ\n", id.c_str(), bad);
    } else if (id == "utf8_validate") {
        std::vector<int> o = rb<int>("C", 0, 500000);
        if (o.empty()) return;
        const uint8_t *t = bytes_of("UTF8");
        size_t bad = 0;
        long long cps = 0, errs = 0;
        for (int i = 0; i < 250000; ++i) {
            int count = 0, e = 0;
            for (int k = 0; k < 16; ++k) {
                uint8_t c = t[16 * i + k];
                if ((c & 0xC0) == 0x80) continue;
                ++count;
                int len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
                if (!len) { ++e; continue; }
                for (int j = 1; j < len; ++j) {
                    int p = 16 * i + k + j;
                    uint8_t n = p < UTF8_BYTES ? t[p] : 0;
                    e += (n & 0xC0) != 0x80;
                }
            }
            bad += o[2 * i] != count || o[2 * i + 1] != e;
            cps += count; errs += e;
        }
        printf("check %s: %zu of 250,000 chunks differ (CPU: %lld code points, %lld errors)\n", id.c_str(), bad, cps, errs);
    } else if (id == "rle_decode") {
        std::vector<uint32_t> o = rb<uint32_t>("C", 0, RLE_N);
        if (o.empty()) return;
        const std::vector<uint32_t> &E = buf("RLEEND").words, &V = buf("RLEVAL").words;
        size_t bad = 0, r = 0;
        for (int i = 0; i < RLE_N; ++i) {
            while ((int)E[r] <= i) ++r;
            bad += o[i] != V[r];
        }
        printf("check %s: %zu of 4,000,000 values wrong (%d runs)\n", id.c_str(), bad, g_rle_runs);
    } else if (id == "dict_decode_rand" || id == "dict_decode_sorted") {
        std::vector<uint64_t> o = rb<uint64_t>(p_buf(l, 2), 0, 4000000);
        if (o.empty()) return;
        const uint16_t *ix = reinterpret_cast<const uint16_t *>(buf(p_buf(l, 0)).words.data());
        const std::vector<uint32_t> &D = buf("DICT").words;
        size_t bad = 0;
        for (int i = 0; i < 4000000; ++i) bad += o[i] != (((uint64_t)D[2 * ix[i] + 1] << 32) | D[2 * ix[i]]);
        printf("check %s: %zu of 4,000,000 values differ\n", id.c_str(), bad);
    } else if (id == "bayer_rggb_bilinear") {
        std::vector<uint32_t> o = rb<uint32_t>("C", 0, 1920 * 1080);
        if (o.empty()) return;
        size_t bad = 0;
        for (int qy = 0; qy < 540; ++qy)
            for (int qx = 0; qx < 960; ++qx) {
                int p[4][4];
                for (int r = 0; r < 4; ++r)
                    for (int c = 0; c < 4; ++c)
                        p[r][c] = R8[(size_t)std::min(std::max(2 * qy - 1 + r, 0), 1079) * 2048 + std::min(std::max(2 * qx - 1 + c, 0), 1919)];
                int R[4] = {p[1][1], (p[1][1] + p[1][3] + 1) >> 1, (p[1][1] + p[3][1] + 1) >> 1, (p[1][1] + p[1][3] + p[3][1] + p[3][3] + 2) >> 2};
                int G[4] = {(p[0][1] + p[2][1] + p[1][0] + p[1][2] + 2) >> 2, p[1][2], p[2][1], (p[1][2] + p[3][2] + p[2][1] + p[2][3] + 2) >> 2};
                int B[4] = {(p[0][0] + p[0][2] + p[2][0] + p[2][2] + 2) >> 2, (p[0][2] + p[2][2] + 1) >> 1, (p[2][0] + p[2][2] + 1) >> 1, p[2][2]};
                for (int k = 0; k < 4; ++k) {
                    size_t at = (size_t)(2 * qy + (k >> 1)) * 1920 + 2 * qx + (k & 1);
                    bad += o[at] != ((uint32_t)R[k] | (uint32_t)G[k] << 8 | (uint32_t)B[k] << 16 | 255u << 24);
                }
            }
        printf("check %s: %zu of 2,073,600 pixels differ\n", id.c_str(), bad);
    } else if (id == "integral_rows_u8" || id == "integral_cols_u32") {
        std::vector<uint32_t> o = rb<uint32_t>("D", 0, 1024 * 1000);
        if (o.empty()) return;
        bool cols = id == "integral_cols_u32";
        size_t bad = 0;
        std::vector<uint32_t> acc(1000, 0);
        for (int y = 0; y < 1000; ++y) {
            uint32_t s = 0;
            for (int x = 0; x < 1000; ++x) {
                s += R8[(size_t)y * 1024 + x];
                acc[x] += s;
                bad += o[(size_t)y * 1024 + x] != (cols ? acc[x] : s);
            }
        }
        printf("check %s: %zu of 1,000,000 sums differ\n", id.c_str(), bad);
    } else if (id == "gauss9_row" || id == "gauss9_col") {
        static const float g9[9] = {0.02763055f, 0.06628224f, 0.12383154f, 0.18017382f, 0.20416369f,
                                    0.18017382f, 0.12383154f, 0.06628224f, 0.02763055f};
        std::vector<float> o = rb<float>(p_buf(l, 1), 0, 1000000);
        if (o.empty()) return;
        std::vector<float> r(1000000), c(1000000);
        for (int y = 0; y < 1000; ++y)
            for (int x = 0; x < 1000; ++x) {
                float s = 0.0f;
                for (int k = 0; k < 9; ++k) s += g9[k] * F((size_t)y * 1000 + std::min(std::max(x + k - 4, 0), 999));
                r[(size_t)y * 1000 + x] = s;
            }
        for (int y = 0; y < 1000; ++y)
            for (int x = 0; x < 1000; ++x) {
                float s = 0.0f;
                for (int k = 0; k < 9; ++k) s += g9[k] * r[(size_t)std::min(std::max(y + k - 4, 0), 999) * 1000 + x];
                c[(size_t)y * 1000 + x] = s;
            }
        const std::vector<float> &ref = id == "gauss9_row" ? r : c;
        float err = 0.0f;
        for (size_t i = 0; i < 1000000; ++i) err = maxabs(err, fabsf(o[i] - ref[i]));
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "warp_affine_rot30" || id == "warp_affine_down2") {
        int dw = (int)l.params[4].ival, dh = (int)l.params[5].ival;
        float m[6];
        for (int k = 0; k < 6; ++k) m[k] = (float)l.params[6 + k].fval;
        std::vector<float> o = rb<float>(p_buf(l, 3), 0, (size_t)dw * dh);
        if (o.empty()) return;
        float err = 0.0f;
        for (int y = 0; y < dh; ++y)
            for (int x = 0; x < dw; ++x) {
                float sx = fmaf(m[0], (float)x, fmaf(m[1], (float)y, m[2])), sy = fmaf(m[3], (float)x, fmaf(m[4], (float)y, m[5]));
                float fx = floorf(sx), fy = floorf(sy), ax = sx - fx, ay = sy - fy;
                int x0 = std::min(std::max((int)fx, 0), 999), x1 = std::min(std::max((int)fx + 1, 0), 999);
                int y0 = std::min(std::max((int)fy, 0), 999), y1 = std::min(std::max((int)fy + 1, 0), 999);
                float ref = (1 - ay) * ((1 - ax) * F(y0 * 1000 + x0) + ax * F(y0 * 1000 + x1)) + ay * ((1 - ax) * F(y1 * 1000 + x0) + ax * F(y1 * 1000 + x1));
                err = maxabs(err, fabsf(o[(size_t)y * dw + x] - ref));
            }
        printf("check %s: max abs error %.3g (source coordinates rounded differently by the GPU's fused multiply-adds may move a pixel)\n", id.c_str(), err);
    } else if (id == "lut3_apply_u8c4") {
        std::vector<uint8_t> o = rb<uint8_t>("C", 0, 8000000);
        if (o.empty()) return;
        const uint8_t *lut = bytes_of("LUT");
        size_t bad = 0;
        for (size_t i = 0; i < 2000000; ++i)
            for (int c = 0; c < 4; ++c) bad += o[4 * i + c] != (c < 3 ? lut[256 * c + R8[4 * i + c]] : R8[4 * i + 3]);
        printf("check %s: %zu of 8,000,000 bytes differ\n", id.c_str(), bad);
    } else if (id == "aes128_ttable") {
        std::vector<uint32_t> o = rb<uint32_t>("C", 0, 2000000);
        if (o.empty()) return;
        const uint32_t *T = buf("AESK").words.data(), *rk = T + 1024;
        const uint32_t *in = buf("RAND8M").words.data();
        size_t bad = 0;
        for (size_t i = 0; i < 500000; ++i) {
            uint32_t s[4], t[4];
            for (int k = 0; k < 4; ++k) s[k] = in[4 * i + k] ^ rk[k];
            for (int r = 1; r < 10; ++r) {
                for (int k = 0; k < 4; ++k)
                    t[k] = T[s[k] >> 24] ^ T[256 + ((s[(k + 1) & 3] >> 16) & 255)] ^ T[512 + ((s[(k + 2) & 3] >> 8) & 255)] ^ T[768 + (s[(k + 3) & 3] & 255)] ^ rk[4 * r + k];
                for (int k = 0; k < 4; ++k) s[k] = t[k];
            }
            for (int k = 0; k < 4; ++k) {
                uint32_t v = ((T[512 + (s[k] >> 24)] & 0xff000000u) | (T[768 + ((s[(k + 1) & 3] >> 16) & 255)] & 0x00ff0000u) |
                              (T[(s[(k + 2) & 3] >> 8) & 255] & 0x0000ff00u) | (T[256 + (s[(k + 3) & 3] & 255)] & 0xffu)) ^ rk[40 + k];
                bad += o[4 * i + k] != v;
            }
        }
        printf("check %s: %zu of 2,000,000 words differ\n", id.c_str(), bad);
    } else if (id == "sha256_blocks") {
        std::vector<uint32_t> o = rb<uint32_t>("C", 0, 8 * 131072);
        if (o.empty()) return;
        const uint32_t *K = buf("SHAK").words.data(), *in = buf("RAND8M").words.data();
        auto rr = [](uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
        size_t bad = 0;
        static const uint32_t H0[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au, 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
        for (size_t i = 0; i < 131072; ++i) {
            uint32_t w[64], h[8];
            for (int t = 0; t < 16; ++t) w[t] = __builtin_bswap32(in[16 * i + t]);
            for (int t = 16; t < 64; ++t)
                w[t] = w[t - 16] + (rr(w[t - 15], 7) ^ rr(w[t - 15], 18) ^ (w[t - 15] >> 3)) + w[t - 7] + (rr(w[t - 2], 17) ^ rr(w[t - 2], 19) ^ (w[t - 2] >> 10));
            for (int k = 0; k < 8; ++k) h[k] = H0[k];
            for (int t = 0; t < 64; ++t) {
                uint32_t t1 = h[7] + (rr(h[4], 6) ^ rr(h[4], 11) ^ rr(h[4], 25)) + ((h[4] & h[5]) ^ (~h[4] & h[6])) + K[t] + w[t];
                uint32_t t2 = (rr(h[0], 2) ^ rr(h[0], 13) ^ rr(h[0], 22)) + ((h[0] & h[1]) ^ (h[0] & h[2]) ^ (h[1] & h[2]));
                for (int k = 7; k > 0; --k) h[k] = h[k - 1];
                h[4] += t1; h[0] = t1 + t2;
            }
            for (int k = 0; k < 8; ++k) bad += o[8 * i + k] != h[k] + H0[k];
        }
        printf("check %s: %zu of 1,048,576 digest words differ (K[0] = %08x, K[63] = %08x)\n", id.c_str(), bad, K[0], K[63]);
    } else if (id == "spmv_dia5" || id == "spmv_dia7") {
        int nd = (int)l.params[2].ival, n = (int)l.params[5].ival;
        size_t xo = (size_t)p_off(l, 3) / 4;
        const int32_t *off = reinterpret_cast<const int32_t *>(buf("DIAOFF").words.data()) + p_off(l, 1) / 4;
        std::vector<float> o = rb<float>(p_buf(l, 4), 0, n);
        if (o.empty()) return;
        float err = 0.0f;
        for (int r = 0; r < n; ++r) {
            float s = 0.0f;
            for (int d = 0; d < nd; ++d) {
                int c = r + off[d];
                if (c >= 0 && c < n) s += F((size_t)d * n + r) * F(xo + c);
            }
            err = maxabs(err, rel_err(o[r], s));
        }
        printf("check %s: max rel error %.3g\n", id.c_str(), err);
    } else if (id == "fem_hex8_apply") {
        const int NN = FEM_N * FEM_N * FEM_N;
        std::vector<float> o = rb<float>("ACC1", 0, NN);
        if (o.empty()) return;
        const std::vector<uint32_t> &C = buf("FEMC").words;
        std::vector<double> ref(NN, 0.0);
        for (size_t e = 0; e < (size_t)FEM_E * FEM_E * FEM_E; ++e)
            for (int a = 0; a < 8; ++a) {
                double r = 0.0;
                for (int b = 0; b < 8; ++b) r += (double)F((8 << 20) / 4 + 8 * a + b) * F(C[8 * e + b]);
                ref[C[8 * e + a]] += r;
            }
        float err = 0.0f;
        for (int i = 0; i < NN; ++i) err = maxabs(err, rel_err(o[i], (float)ref[i]));
        printf("check %s: max rel error %.3g (atomic order varies)\n", id.c_str(), err);
    } else if (id == "edge_flux_atomic") {
        std::vector<float> o = rb<float>("ACC2", 0, EG * EG * EG);
        if (o.empty()) return;
        const std::vector<uint32_t> &E = buf("EDGES").words;
        std::vector<double> ref(EG * EG * EG, 0.0);
        for (int e = 0; e < g_nedges; ++e) {
            uint32_t a = E[2 * e], b = E[2 * e + 1];
            double fl = (double)F((4 << 20) / 4 + e) * ((double)F(b) - (double)F(a));
            ref[a] += fl; ref[b] -= fl;
        }
        float err = 0.0f;
        for (int i = 0; i < EG * EG * EG; ++i) err = maxabs(err, fabsf(o[i] - (float)ref[i]));
        printf("check %s: max abs error %.3g over %d edges (atomic order varies)\n", id.c_str(), err, g_nedges);
    } else if (id == "cub_warp_transpose5") {
        std::vector<float> o = rb<float>("C", 0, 1000003);
        if (o.empty()) return;
        float err = 0.0f;
        for (size_t i = 0; i < 1000003; ++i) {
            size_t w = i / 160, r = i % 160;
            // blocked: lane r / 5 holds items r - r % 5 .. + 4; item 0 subtracts nothing
            float ref = r % 5 == 0 ? F(i) : F(i) - F(i - 1);
            (void)w;
            err = maxabs(err, fabsf(o[i] - ref));
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "cub_scatter_striped8" || id == "cub_scatter_striped7") {
        int items = id == "cub_scatter_striped8" ? 8 : 7, tile = 128 * items, tiles = items == 8 ? 1024 : 1170;
        std::vector<uint32_t> o = rb<uint32_t>(p_buf(l, 2), 0, (size_t)tile * tiles);
        if (o.empty()) return;
        const std::vector<uint32_t> &R = buf(p_buf(l, 1)).words, &Kw = buf("RAND8M").words;
        size_t bad = 0;
        for (int t = 0; t < tiles; ++t) {
            std::vector<uint32_t> ref(tile);
            for (int j = 0; j < tile; ++j) ref[R[(size_t)t * tile + j]] = Kw[(size_t)t * tile + j];
            for (int j = 0; j < tile; ++j) bad += o[(size_t)t * tile + j] != ref[j];
        }
        printf("check %s: %zu of %d keys misplaced\n", id.c_str(), bad, tile * tiles);
    } else if (id == "winograd_f23_input") {
        std::vector<float> o = rb<float>("C", 0, 16 * 64 * 784);
        if (o.empty()) return;
        float err = 0.0f;
        for (int c = 0; c < 64; ++c)
            for (int t = 0; t < 784; ++t) {
                int ty = t / 28, tx = t % 28;
                float d[4][4], tm[4][4];
                for (int r = 0; r < 4; ++r)
                    for (int s = 0; s < 4; ++s) {
                        int y = 2 * ty - 1 + r, x = 2 * tx - 1 + s;
                        d[r][s] = (y >= 0 && y < 56 && x >= 0 && x < 56) ? F(((size_t)c * 56 + y) * 56 + x) : 0.0f;
                    }
                for (int s = 0; s < 4; ++s) { tm[0][s] = d[0][s] - d[2][s]; tm[1][s] = d[1][s] + d[2][s]; tm[2][s] = d[2][s] - d[1][s]; tm[3][s] = d[1][s] - d[3][s]; }
                for (int r = 0; r < 4; ++r) {
                    float v[4] = {tm[r][0] - tm[r][2], tm[r][1] + tm[r][2], tm[r][2] - tm[r][1], tm[r][1] - tm[r][3]};
                    for (int k = 0; k < 4; ++k) err = maxabs(err, fabsf(o[((size_t)(4 * r + k) * 64 + c) * 784 + t] - v[k]));
                }
            }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "avgpool3s2_c64" || id == "avgpool3s2_c40") {
        int C8 = (int)l.params[5].ival, C = 8 * C8;
        std::vector<uint16_t> o = rb<uint16_t>(p_buf(l, 1), 0, (size_t)32 * 28 * 28 * C);
        if (o.empty()) return;
        const uint16_t *in = reinterpret_cast<const uint16_t *>(buf("HALF").words.data());
        float err = 0.0f;
        for (int n = 0; n < 32; ++n)
            for (int oy = 0; oy < 28; ++oy)
                for (int ox = 0; ox < 28; ++ox)
                    for (int c = 0; c < C; ++c) {
                        float s = 0.0f; int cnt = 0;
                        for (int y = 2 * oy - 1; y <= 2 * oy + 1; ++y)
                            for (int x = 2 * ox - 1; x <= 2 * ox + 1; ++x)
                                if (y >= 0 && y < 56 && x >= 0 && x < 56) { s += half_to_float(in[(((size_t)n * 56 + y) * 56 + x) * C + c]); ++cnt; }
                        err = maxabs(err, fabsf(half_to_float(o[(((size_t)n * 28 + oy) * 28 + ox) * C + c]) - s / cnt));
                    }
        printf("check %s: max abs error %.3g (fp16 rounding)\n", id.c_str(), err);
    } else if (id == "bn_stats_nchw") {
        std::vector<float> o = rb<float>("C", 0, 128);
        if (o.empty()) return;
        float err = 0.0f;
        for (int c = 0; c < 64; ++c) {
            double s = 0, q = 0;
            for (int n = 0; n < 64; ++n)
                for (int i = 0; i < 784; ++i) { double v = F(((size_t)n * 64 + c) * 784 + i); s += v; q += v * v; }
            double m = s / 50176.0;
            err = maxabs(err, std::max(fabsf(o[c] - (float)m), fabsf(o[64 + c] - (float)(q / 50176.0 - m * m))));
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "swa_softmax_w256" || id == "swa_softmax_w100") {
        int win = (int)l.params[3].ival;
        float sc = (float)l.params[4].fval;
        std::vector<float> o = rb<float>(p_buf(l, 1), 0, 2048 * 2048);
        if (o.empty()) return;
        float err = 0.0f;
        for (int i = 0; i < 2048; ++i) {
            int lo = std::max(0, i - win + 1);
            double m = -1e30, s = 0;
            for (int j = lo; j <= i; ++j) m = std::max(m, (double)F((size_t)i * 2048 + j) * sc);
            for (int j = lo; j <= i; ++j) s += exp((double)F((size_t)i * 2048 + j) * sc - m);
            for (int j = 0; j < 2048; ++j) {
                double ref = (j >= lo && j <= i) ? exp((double)F((size_t)i * 2048 + j) * sc - m) / s : 0.0;
                err = maxabs(err, fabsf(o[(size_t)i * 2048 + j] - (float)ref));
            }
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "argmax_vocab") {
        std::vector<int> o = rb<int>("C", 0, 64);
        if (o.empty()) return;
        int bad = 0;
        for (int r = 0; r < 64; ++r) {
            int bi = 0;
            for (int j = 1; j < 50257; ++j) if (F((size_t)r * 50257 + j) > F((size_t)r * 50257 + bi)) bi = j;
            bad += o[r] != bi;
        }
        printf("check %s: %d of 64 rows wrong\n", id.c_str(), bad);
    } else if (id == "bulk_mcast_gemv") {
        std::vector<float> o = rb<float>("C", 0, 128);
        if (o.empty()) return;
        float err = 0.0f;
        for (int r = 0; r < 128; ++r) {
            double s = 0;
            for (int k = 0; k < 32768; ++k) s += (double)F(k) * F((size_t)r * 32768 + k);
            err = maxabs(err, rel_err(o[r], (float)s));
        }
        printf("check %s: max rel error %.3g\n", id.c_str(), err);
    } else if (id == "tma2d_mcast_gemv4") {
        std::vector<float> o = rb<float>("C", 0, 4 * 2048);
        if (o.empty()) return;
        float err = 0.0f;
        for (int r = 0; r < 4; ++r)
            for (int row = 0; row < 2048; ++row) {
                double s = 0;
                for (int c = 0; c < 2048; ++c) s += (double)F((size_t)row * 2048 + c) * F((size_t)r * 2048 + c);
                err = maxabs(err, rel_err(o[(size_t)r * 2048 + row], (float)s));
            }
        printf("check %s: max rel error %.3g\n", id.c_str(), err);
    } else if (id == "tma2d_reduce_add") {
        std::vector<float> o = rb<float>("ACC3", 0, 512 * 512);
        if (o.empty()) return;
        float err = 0.0f;
        for (size_t i = 0; i < 512 * 512; ++i) {
            float ref = 0.0f;
            for (int sp = 0; sp < 4; ++sp) ref += 0.5f * F((size_t)sp * 262144 + i);
            err = maxabs(err, fabsf(o[i] - ref));
        }
        printf("check %s: max abs error %.3g (the order of the four adds varies)\n", id.c_str(), err);
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
