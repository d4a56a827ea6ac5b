// warpscope ninth held-out batch (tests/hw/blind9): host program, copied from tests/hw/blind8/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules,
// launch table and checks are the ninth blind batch's; no tensor maps are used).
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

static const uint64_t SEED_RAND8M = 91;
static const uint64_t SEED_FRND = 9191;
static const uint64_t SEED_Q50 = 9292;
static const uint64_t SEED_IQ4 = 9393;
static const uint64_t SEED_Q3K = 9494;
static const uint64_t SEED_KVC = 9595;
static const uint64_t SEED_BMAP = 9696;
static const uint64_t SEED_GRAPH = 9797;
static const uint64_t SEED_BVH = 9898;
static const uint64_t SEED_XWS = 9999;
static const uint64_t SEED_PART = 10101;
static const uint64_t SEED_STR = 10202;
static const uint64_t SEED_DEPTH = 10303;

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

static float fw(uint32_t w) { float f; memcpy(&f, &w, 4); return f; }
static std::vector<uint32_t> bytes_to_words(const std::vector<uint8_t> &b)
{
    std::vector<uint32_t> w((b.size() + 3) / 4, 0);
    memcpy(w.data(), b.data(), b.size());
    return w;
}

// a positive fp16 scale near 2^-8: exponent 7, a random mantissa
static uint16_t small_half(Lcg &g) { return (uint16_t)(0x1C00u | (g.next() & 0x3FFu)); }

// the BVH of bvh_point_query: 32,768 leaf intervals [lo, lo + width), lo = k + u / 2, width = 6 u' (u, u' in
// [0, 1) from next()), a complete binary tree in heap order (node i has children 2i + 1, 2i + 2; the leaves are
// nodes 32,767 .. 65,534); a node is (lo, hi, left, right) with left = -1, right = k for leaf k
static const int BVH_LEAVES = 32768;
static std::vector<uint32_t> g_bvh;  // 4 words a node

static void make_buffers()
{
    const size_t MiB = 1 << 20;
    add_fill("A", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word (as fp16 pairs: 0x0000, 0x3F80 = 0.0, 1.875)");
    add_fill("B", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word");
    add_fill("C", 64 * MiB, 0x00000000u, "zero");
    add_fill("D", 64 * MiB, 0x00000000u, "zero");
    add_fill("VOL", 8 * MiB, 0x00000000u, "zero: tsdf_integrate's 128^3 short2 volume");
    add_words("RAND8M", lcg_words(2097152, SEED_RAND8M),
              "2,097,152 uint32 words: successive next() of the LCG below seeded with 91 (8 MiB; as bytes: images, volumes, PQ codes, int8 matrices, text)");
    {
        std::vector<uint32_t> w = lcg_words(4194304, SEED_FRND);
        for (auto &x : w) { float f = unit_float(x) * 2.0f - 1.0f; memcpy(&x, &f, 4); }
        add_words("FRND", w, "4,194,304 float32 in [-1, 1): (next() >> 8) / 2^24 * 2 - 1 (LCG seed 9191)");
    }
    {
        Lcg g(SEED_Q50);
        std::vector<uint8_t> b(100000 * 22);
        for (int i = 0; i < 100000; ++i) {
            uint16_t d = small_half(g);
            memcpy(&b[i * 22], &d, 2);
            for (int k = 2; k < 22; ++k) b[i * 22 + k] = (uint8_t)(g.next() >> 24);
        }
        add_words("Q50", bytes_to_words(b), "100,000 block_q5_0 (22 bytes: fp16 d = 0x1C00 | (next() & 1023), then 20 bytes next() >> 24; LCG seed 9292, one stream)");
    }
    {
        Lcg g(SEED_IQ4);
        std::vector<uint8_t> b(524288 * 18);
        for (int i = 0; i < 524288; ++i) {
            uint16_t d = small_half(g);
            memcpy(&b[(size_t)i * 18], &d, 2);
            for (int k = 2; k < 18; ++k) b[(size_t)i * 18 + k] = (uint8_t)(g.next() >> 24);
        }
        add_words("IQ4", bytes_to_words(b), "524,288 block_iq4_nl (18 bytes: fp16 d = 0x1C00 | (next() & 1023), then 16 bytes next() >> 24; LCG seed 9393, one stream)");
    }
    {
        Lcg g(SEED_Q3K);
        std::vector<uint8_t> b(20000 * 110);
        for (int i = 0; i < 20000; ++i) {
            for (int k = 0; k < 108; ++k) b[(size_t)i * 110 + k] = (uint8_t)(g.next() >> 24);
            uint16_t d = small_half(g);
            memcpy(&b[(size_t)i * 110 + 108], &d, 2);
        }
        add_words("Q3K", bytes_to_words(b), "20,000 block_q3_K (110 bytes: 108 bytes next() >> 24, then fp16 d = 0x1C00 | (next() & 1023); LCG seed 9494, one stream)");
    }
    add_words("KVC", lcg_words(16777216, SEED_KVC),
              "64 MiB of next() words (LCG seed 9595): copy_blocks' key caches of layers 0, 1 at 0 and 16 MiB, value caches at 32 and 48 MiB, 512 blocks of 32 KiB each");
    {
        std::vector<int32_t> p = permutation(512, SEED_BMAP);
        std::vector<uint32_t> w;
        for (int k = 0; k < 128; ++k) { w.push_back((uint32_t)p[k]); w.push_back(0); w.push_back((uint32_t)p[128 + k]); w.push_back(0); }
        add_words("BMAP", w, "copy_blocks' mapping: 128 int64 pairs (src, dst) = (p[k], p[128 + k]), p a permutation of 512 (seed 9696)");
    }
    {
        // a graph of 262,144 vertices: in-degree next() mod 17, sources next() mod 262,144 (one stream)
        const int N = 262144;
        Lcg g(SEED_GRAPH);
        std::vector<uint32_t> rp(N + 1), cols;
        rp[0] = 0;
        for (int v = 0; v < N; ++v) {
            uint32_t len = g.next() % 17;
            for (uint32_t k = 0; k < len; ++k) cols.push_back(g.next() % N);
            rp[v + 1] = (uint32_t)cols.size();
        }
        add_words("GRP", rp, "CSR row_ptr (in-edges) of a graph of 262,144 vertices: in-degree next() mod 17, then the sources next() mod 262,144 (LCG seed 9797, one stream)");
        add_words("GRC", cols, "CSR sources (see GRP)");
    }
    {
        Lcg g(SEED_BVH);
        const int L = BVH_LEAVES, NN = 2 * L - 1;
        g_bvh.assign((size_t)NN * 4, 0);
        auto setf = [](uint32_t &w, float f) { memcpy(&w, &f, 4); };
        for (int k = 0; k < L; ++k) {
            float lo = (float)k + unit_float(g.next()) * 0.5f;
            float hi = lo + unit_float(g.next()) * 6.0f;
            size_t n = (size_t)(L - 1 + k) * 4;
            setf(g_bvh[n], lo); setf(g_bvh[n + 1], hi); g_bvh[n + 2] = (uint32_t)-1; g_bvh[n + 3] = (uint32_t)k;
        }
        for (int i = L - 2; i >= 0; --i) {
            size_t n = (size_t)i * 4, a = (size_t)(2 * i + 1) * 4, b = (size_t)(2 * i + 2) * 4;
            float la = fw(g_bvh[a]), lb = fw(g_bvh[b]), ha = fw(g_bvh[a + 1]), hb = fw(g_bvh[b + 1]);
            setf(g_bvh[n], std::min(la, lb)); setf(g_bvh[n + 1], std::max(ha, hb));
            g_bvh[n + 2] = (uint32_t)(2 * i + 1); g_bvh[n + 3] = (uint32_t)(2 * i + 2);
        }
        add_words("BVH", g_bvh, "BVH of 32,768 leaf intervals, 65,535 16-byte nodes (lo, hi, left, right) in heap order (LCG seed 9898: lo = k + u/2, hi = lo + 6u'; see host.cpp)");
        std::vector<uint32_t> q(262144);
        for (auto &x : q) setf(x, unit_float(g.next()) * (float)L);
        add_words("BVHQ", q, "262,144 query points (next() >> 8) / 2^24 * 32,768, the same stream after the leaves");
    }
    {
        Lcg g(SEED_XWS);
        std::vector<uint32_t> w((size_t)262144 * 12, 0);
        for (size_t i = 0; i < 262144; ++i) {
            w[i * 12] = 6615241u + (uint32_t)i;
            for (int k = 1; k < 6; ++k) w[i * 12 + k] = g.next() | 1u;
        }
        add_words("XWS", w, "262,144 XORWOW states of 48 bytes: d = 6,615,241 + i, v[0..4] = next() | 1 (LCG seed 9999), flags and saved values 0");
    }
    {
        Lcg g(SEED_PART);
        std::vector<uint32_t> w((size_t)1000000 * 7);
        for (size_t i = 0; i < w.size(); ++i) {
            float f = (i % 7 == 6) ? unit_float(g.next()) : unit_float(g.next()) * 2.0f - 1.0f;
            memcpy(&w[i], &f, 4);
        }
        add_words("PART", w, "1,000,000 particles of 7 float32 (position, velocity in [-1, 1), mass in [0, 1); LCG seed 10101, one stream)");
    }
    {
        Lcg g(SEED_STR);
        std::vector<uint32_t> o(200001);
        o[0] = 0;
        for (int i = 0; i < 200000; ++i) o[i + 1] = o[i] + g.next() % 41;
        add_words("STROFF", o, "200,001 string offsets: lengths next() mod 41 (LCG seed 10202)");
    }
    {
        Lcg g(SEED_DEPTH);
        std::vector<uint16_t> d((size_t)768 * 480, 0);
        for (int y = 0; y < 480; ++y)
            for (int x = 0; x < 640; ++x) {
                uint32_t r = g.next();
                d[(size_t)y * 768 + x] = (r % 20 == 0) ? 0 : (uint16_t)(800 + (r >> 8) % 1000);
            }
        std::vector<uint32_t> w(d.size() / 2);
        memcpy(w.data(), d.data(), d.size() * 2);
        add_words("DEPTH", w, "a 640 x 480 16-bit depth image, pitch 1,536 bytes (768 entries, the last 128 of a row 0): r = next(), 0 where r mod 20 = 0, else 800 + (r >> 8) mod 1,000 millimetres (LCG seed 10303)");
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
    {"blind9", "tests/hw/blind9/blind9.ptx"},
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
    const char *K = "blind9";
    const long long MiB = 1 << 20;
    // llama.cpp / ggml quantisation types
    L1("dequant_q5_0", K, "dequant_q5_0", {P("Q50"), P("C"), S32(100000)}, 1600000, 256,
       "block_q5_0 dequantisation (22-byte blocks: fp16 d, the 32 fifth bits as a 4-byte memcpy at offset 2, 16 bytes of nibbles), a thread per value pair (j, j + 16), 100,000 blocks");
    L("iq4nl_matvec_k4096", K, "iq4nl_matvec", 1024, 1, 1, 32, 4, 1, {P("IQ4"), P("FRND"), P("C"), S32(4096), S32(128)},
      "block_iq4_nl matrix-vector product, 4,096 rows of 4,096 (128 blocks of 18 bytes = 2,304-byte rows), a warp per row, the 16-entry table in shared memory, nibbles as 16-bit pairs, x float");
    L("iq4nl_matvec_k4032", K, "iq4nl_matvec", 1024, 1, 1, 32, 4, 1, {P("IQ4"), P("FRND"), P("C", 64 * 1024), S32(4096), S32(126)},
      "the same with rows of 4,032 (126 blocks = 2,268-byte rows: row starts only 4-byte aligned)");
    L("dequant_q3_K", K, "dequant_q3_K", 20000, 1, 1, 64, 1, 1, {P("Q3K"), P("C")},
      "block_q3_K dequantisation (110-byte super-blocks of 256: hmask, 2-bit qs, 12 bytes of 6-bit scales, fp16 d), 64 threads a block, 4 values a thread, float4 out; 20,000 blocks");
    // vLLM
    {
        Param cp; cp.pointer = false; cp.type = "struct"; cp.offset = 0; cp.ival = 0; cp.fval = 0;
        cp.blob.assign(32, 0);
        cp.patches = {{0, {"KVC", 0}}, {8, {"KVC", 16 * MiB}}, {16, {"KVC", 32 * MiB}}, {24, {"KVC", 48 * MiB}}};
        cp.desc = "CachePtrs { half* key[2]; half* value[2]; }: key caches of layers 0, 1 at KVC + 0 and + 16 MiB, value caches at + 32 and + 48 MiB";
        L("copy_blocks", K, "copy_blocks", 2, 128, 1, 1024, 1, 1, {cp, P("BMAP"), S32(16384)},
          "vLLM copy_blocks: grid (2 layers, 128 pairs), 1,024 threads; each block copies a key and a value cache block of 16,384 halves (16 tokens x 8 heads x 128) element by element, source and destination block from an int64 mapping");
    }
    L("moe_topk_softmax", K, "moe_topk_softmax", 3750, 1, 1, 128, 1, 1, {P("FRND"), P("C"), P("D"), P("D", MiB), S32(60000)},
      "MoE gating: 60,000 tokens x 64 experts (fp32 logits), 8 lanes a token with two float4 each, softmax by width-8 shuffles, top-2 weights / expert ids / source rows by lane 0 of each token");
    L("merge_attn_states", K, "merge_attn_states", 4000, 1, 1, 128, 1, 1,
      {P("C"), P("D"), P("A"), P("FRND"), P("B"), P("FRND", MiB), S32(1000), S32(32)},
      "vLLM merge_attn_states: 1,000 tokens x 32 heads x 128 fp16, 8 halves (uint4) a thread, prefix / suffix LSEs [heads, tokens] gathered head-major, merged LSE by pack 0");
    // graph, vector search
    L("gat_edge_softmax_agg", K, "gat_edge_softmax_agg", 32768, 1, 1, 256, 1, 1,
      {P("GRP"), P("GRC"), P("FRND"), P("FRND", MiB), P("FRND"), P("C"), S32(262144)},
      "GAT layer (DGL style): a warp per node of 262,144, in-edges between loaded CSR bounds (0..16), leaky-ReLU scores el[u] + er[v] soft-maxed by shuffles, 16-float source rows gathered half a warp an edge");
    L("pq_adc_scan", K, "pq_adc_scan", 32, 1, 1, 256, 1, 1, {P("FRND"), P("RAND8M"), P("C"), S32(100000)},
      "IVF-PQ asymmetric distances: 32 queries (a block each), a 16 x 256 float table staged in shared memory, 100,000 database vectors of 16 one-byte codes (a uint4 each) summed through it");
    L("l2dist_tile", K, "l2dist_tile", 125, 32, 1, 32, 8, 1,
      {P("FRND"), P("FRND", MiB), P("FRND", 2 * MiB), P("FRND", 4 * MiB), P("C"), S32(1000), S32(4000)},
      "L2 distances of 1,000 queries x 4,000 vectors of 96 floats: 32 x 32 tiles through padded shared tiles (32 x 33), norms loaded, the last query tile 8 rows");
    L("bvh_point_query", K, "bvh_point_query", 2048, 1, 1, 128, 1, 1, {P("BVH"), P("BVHQ"), P("C"), S32(262144)},
      "BVH point query of 262,144 points over 32,768 intervals: 16-byte nodes, a depth-first traversal with a 32-int stack in local memory (at most 4,096 visits), hits and payload sum out as int2");
    // OpenCV / NPP-style images
    L("bgr2gray_u8c3", K, "bgr2gray_u8c3", 60, 135, 1, 32, 8, 1, {P("RAND8M"), S32(6144), P("C"), S32(2048), S32(1920), S32(1080)},
      "BGR to gray of a 1,920 x 1,080 uchar3 image (pitch 6,144 bytes) into an 8-bit image (pitch 2,048)");
    L("resize_nearest_u8c4", K, "resize_nearest_u8c4", 47, 141, 1, 32, 8, 1,
      {P("RAND8M"), S32(4096), S32(1000), S32(750), P("C"), S32(6144), S32(1500), S32(1125)},
      "nearest resize of a 1,000 x 750 uchar4 image (pitch 4,096) to 1,500 x 1,125 (pitch 6,144): every third source column read twice");
    L("box3x3_u8", K, "box3x3_u8", 32, 88, 1, 32, 8, 1, {P("RAND8M"), P("D"), S32(1024), S32(1000), S32(700)},
      "3 x 3 box filter of a 1,000 x 700 8-bit image (pitch 1,024), a 34 x 10 byte tile with halo, border replicated");
    L("nv12_to_rgba", K, "nv12_to_rgba", 30, 135, 1, 32, 8, 1,
      {P("RAND8M"), P("RAND8M", 2048 * 1080), S32(2048), P("C"), S32(1920), S32(1920), S32(1080)},
      "NV12 to RGBA, 1,920 x 1,080 (Y and UV pitch 2,048): a thread per 2 pixels, a uchar2 of Y and the shared uchar2 UV pair, two uchar4 stores");
    L("median3x3_u8", K, "median3x3_u8", 32, 88, 1, 32, 8, 1, {P("RAND8M"), P("D"), S32(1024), S32(1000), S32(700)},
      "3 x 3 median of a 1,000 x 700 8-bit image (pitch 1,024), 9 clamped byte loads straight from global memory a pixel, border replicated");
    L("depth_bilateral_u16", K, "depth_bilateral_u16", 20, 60, 1, 32, 8, 1,
      {P("DEPTH"), P("D", 8 * MiB), S32(1536), S32(640), S32(480), F32(0.125f), F32(1.0f / 1800.0f)},
      "bilateral filter of a 640 x 480 16-bit depth image (pitch 1,536 bytes), 5 x 5 clamped window of u16 loads, zero depths skipped, u16 out");
    L("tsdf_integrate", K, "tsdf_integrate", 4, 16, 1, 32, 8, 1, {P("DEPTH"), S32(1536), P("VOL"), F32(0.01f), F32(0.03f)},
      "TSDF integration of the depth image into a 128^3 short2 volume (x fastest): a thread per (x, y) column marching 128 z, the depth gathered at the projected pixel, the voxel read and written only inside the truncation band");
    // simulation
    L("lbm_d3q19_soa", K, "lbm_d3q19_soa", 16, 64, 1, 64, 4, 1, {P("A"), P("C"), F32(1.2f)},
      "lattice Boltzmann D3Q19 pull streaming + BGK on a periodic 64^3 lattice, SoA f[q][cell] (19 loads shifted by the lattice velocities, 19 stores); 64 x 4 blocks");
    L("lbm_d3q19_aos", K, "lbm_d3q19_aos", 16, 64, 1, 64, 4, 1, {P("A"), P("D"), F32(1.2f)},
      "the same in AoS f[cell][19] (76-byte cells)");
    L1("particles_aos28", K, "particles_aos28", {P("PART"), S32(1000000), F32(0.01f)}, 1000000, 256,
       "1,000,000 particles as 28-byte structs (position, velocity, mass): 7 field loads, 6 field stores in place");
    L1("xorwow_normal4", K, "xorwow_normal4", {P("XWS"), P("C"), S32(262144)}, 262144, 256,
       "262,144 curand-style XORWOW states (48 bytes) loaded and stored whole, 4 Box-Muller normals a thread as a float4");
    L("fft1024_nopad", K, "fft1024_smem", 2048, 1, 1, 512, 1, 1, {P("FRND"), P("C"), S32(0)},
      "2,048 complex FFTs of 1,024 points, a 512-thread block each in shared memory: bit-reversed scatter, 10 radix-2 stages (spans 1..512), unpadded");
    L("fft1024_pad", K, "fft1024_smem", 2048, 1, 1, 512, 1, 1, {P("FRND"), P("D"), S32(1)},
      "the same with a float2 of padding after every 16");
    // tensor cores, async copies
    L("igemm_s8_mma_k32", K, "igemm_s8_mma_k32", 16, 8, 1, 128, 1, 1,
      {P("RAND8M"), P("RAND8M", 512 * 1024), P("C"), S32(512), S32(1024), S32(512)},
      "int8 GEMM 512 x 1,024 x 512 (A row-major, B [N][K]), 64 x 64 tiles, uint4 loads into 80-byte shared rows, ldmatrix.x4 / .x2, mma.sync.m16n8k32.s8, int2 stores");
    L("cg_memcpy_smooth_c2048", K, "cg_memcpy_smooth", 2000, 1, 1, 256, 1, 1, {P("FRND"), P("C"), S32(2048)},
      "cooperative groups memcpy_async (aligned_size_t<16>) of a row of 2,048 floats into shared memory a block, cg::wait, 3-point smoothing; 2,000 rows");
    L("cg_memcpy_smooth_c4000", K, "cg_memcpy_smooth", 1000, 1, 1, 256, 1, 1, {P("FRND"), P("D"), S32(4000)},
      "the same with rows of 4,000 floats (16,000 bytes), 1,000 rows");
    // data processing
    L("vol_u8_grad_p100", K, "vol_u8_gradmag", 4, 25, 50, 32, 4, 2, {P("RAND8M"), S32(100), S32(10000), S32(100), S32(100), S32(100), P("C")},
      "gradient magnitude of a 100^3 byte volume with row pitch 100 and slice pitch 10,000 bytes, clamped central differences, float out; 32 x 4 x 2 blocks");
    L("vol_u8_grad_p128", K, "vol_u8_gradmag", 4, 25, 50, 32, 4, 2, {P("RAND8M"), S32(128), S32(12800), S32(100), S32(100), S32(100), P("D")},
      "the same with row pitch 128 and slice pitch 12,800");
    L1("bitunpack_w5", K, "bitunpack", {P("RAND8M"), P("C"), S32(2000000), S32(5)}, 2000000, 256,
       "bit unpacking of 2,000,000 5-bit values from 32-bit words (the second word only when a value straddles)");
    L1("bitunpack_w13", K, "bitunpack", {P("RAND8M"), P("D"), S32(2000000), S32(13)}, 2000000, 256,
       "the same with 13-bit values");
    L1("strings_lower", K, "strings_lower", {P("RAND8M"), P("STROFF"), P("C"), P("D"), S32(200000)}, 200000, 256,
       "ASCII lower-casing of 200,000 strings (lengths 0..40) a thread each between loaded offsets, byte loads and stores, lengths out");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind9/host.cpp. Launches run once each, in this order, on one stream. "
               "Pointer params: buffer name + byte offset; every buffer is cuMemAlloc'd with its size rounded up to a multiple of 2 MiB; the run prints each base mod 4096 (0 for all in the committed measurement, see README). "
               "Scalar params: value by PTX parameter index.\",\n");
    fprintf(f, "  \"permutation_generator\": {\"algorithm\": \"state = state * %llu + %llu (mod 2^64); next() = state >> 32; "
               "p = identity; for i = n-1 down to 1: j = next() %% (i+1); swap(p[i], p[j])\", \"reference\": \"tests/hw/lcg_perm.py\", "
               "\"seeds\": {\"RAND8M (next() words)\": %llu, \"FRND (next() words)\": %llu, \"Q50\": %llu, \"IQ4\": %llu, \"Q3K\": %llu, \"KVC (next() words)\": %llu, \"BMAP (permutation of 512)\": %llu, \"GRP/GRC (one stream)\": %llu, \"BVH/BVHQ (one stream)\": %llu, \"XWS\": %llu, \"PART\": %llu, \"STROFF\": %llu, \"DEPTH\": %llu}},\n",
            (unsigned long long)LCG_A, (unsigned long long)LCG_C, (unsigned long long)SEED_RAND8M, (unsigned long long)SEED_FRND,
            (unsigned long long)SEED_Q50, (unsigned long long)SEED_IQ4, (unsigned long long)SEED_Q3K, (unsigned long long)SEED_KVC,
            (unsigned long long)SEED_BMAP, (unsigned long long)SEED_GRAPH, (unsigned long long)SEED_BVH, (unsigned long long)SEED_XWS,
            (unsigned long long)SEED_PART, (unsigned long long)SEED_STR, (unsigned long long)SEED_DEPTH);
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
static uint32_t h_mix32(uint32_t h)
{
    h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
    return h;
}
static uint64_t h_mix64(uint64_t k)
{
    k ^= k >> 33; k *= 0xff51afd7ed558ccdULL; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL; k ^= k >> 33;
    return k;
}
static uint64_t key_of(const std::vector<uint32_t> &w, size_t i) { return ((uint64_t)w[2 * i + 1] << 32) | w[2 * i]; }
static long long p_off(const Launch &l, size_t k) { return l.params[k].offset; }
static const std::string &p_buf(const Launch &l, size_t k) { return l.params[k].buffer; }

static const uint8_t *bytes_of(const std::string &name) { return reinterpret_cast<const uint8_t *>(buf(name).words.data()); }
static float maxabs(float a, float b) { return std::max(a, b); }
static float rel_err(float got, float ref) { return fabsf(got - ref) / std::max(1.0f, fabsf(ref)); }
static const int8_t KV_IQ4[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
static const int LBM_CX[19] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
static const int LBM_CY[19] = {0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
static const int LBM_CZ[19] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};

static void check_launch(const Launch &l)
{
    const std::string &id = l.id;
    const std::vector<uint32_t> &FR = buf("FRND").words;
    const uint8_t *R8 = bytes_of("RAND8M");
    if (id == "dequant_q5_0") {
        std::vector<float> y = rb<float>("C", 0, 3200000);
        if (y.empty()) return;
        const uint8_t *q = bytes_of("Q50");
        float err = 0.0f;
        for (int b = 0; b < 100000; ++b) {
            const uint8_t *bl = q + (size_t)b * 22;
            float d = half_to_float((uint16_t)(bl[0] | bl[1] << 8));
            uint32_t qh; memcpy(&qh, bl + 2, 4);
            for (int j = 0; j < 16; ++j) {
                int h0 = ((qh >> j) << 4) & 0x10, h1 = (qh >> (j + 12)) & 0x10;
                err = maxabs(err, fabsf(y[b * 32 + j] - d * (float)(((bl[6 + j] & 0xf) | h0) - 16)));
                err = maxabs(err, fabsf(y[b * 32 + j + 16] - d * (float)(((bl[6 + j] >> 4) | h1) - 16)));
            }
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "iq4nl_matvec_k4096" || id == "iq4nl_matvec_k4032") {
        const int nb = (int)l.params[4].ival;
        std::vector<float> y = rb<float>("C", p_off(l, 2), 4096);
        if (y.empty()) return;
        const uint8_t *q = bytes_of("IQ4");
        float err = 0.0f;
        for (int r = 0; r < 512; ++r) {
            float sum = 0.0f;
            for (int ib = 0; ib < nb; ++ib) {
                const uint8_t *bl = q + ((size_t)r * nb + ib) * 18;
                float d = half_to_float((uint16_t)(bl[0] | bl[1] << 8)), acc = 0.0f;
                for (int j = 0; j < 16; ++j)
                    acc += KV_IQ4[bl[2 + j] & 0xf] * f32_of(FR[ib * 32 + j]) + KV_IQ4[bl[2 + j] >> 4] * f32_of(FR[ib * 32 + j + 16]);
                sum += d * acc;
            }
            err = maxabs(err, rel_err(y[r], sum));
        }
        printf("check %s: first 512 rows max rel. error %.3g\n", id.c_str(), err);
    } else if (id == "dequant_q3_K") {
        std::vector<float> y = rb<float>("C", 0, 20000 * 256);
        if (y.empty()) return;
        const uint8_t *q = bytes_of("Q3K");
        float err = 0.0f;
        for (int b = 0; b < 20000; ++b) {
            const uint8_t *bl = q + (size_t)b * 110;
            const uint8_t *hm = bl, *qs = bl + 32, *sc = bl + 96;
            float d = half_to_float((uint16_t)(bl[108] | bl[109] << 8));
            for (int v = 0; v < 256; ++v) {
                int n = v >> 7, j = (v & 127) >> 5, l5 = v & 31, is = 8 * n + 2 * j + (l5 >> 4);
                int lo4 = is < 8 ? (sc[is] & 0xf) : (sc[is - 8] >> 4), hi2 = (sc[8 + (is & 3)] >> (2 * (is >> 2))) & 3;
                float dl = d * (float)((lo4 | (hi2 << 4)) - 32);
                int qq = (qs[32 * n + l5] >> (2 * j)) & 3, h = (hm[l5] >> (4 * n + j)) & 1;
                err = maxabs(err, fabsf(y[(size_t)b * 256 + v] - dl * (float)(qq - (h ? 0 : 4))));
            }
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "copy_blocks") {
        std::vector<uint16_t> kv = rb<uint16_t>("KVC", 0, 32 * 1024 * 1024);
        if (kv.empty()) return;
        const uint16_t *orig = reinterpret_cast<const uint16_t *>(buf("KVC").words.data());
        const std::vector<uint32_t> &M = buf("BMAP").words;
        size_t bad = 0;
        for (int c = 0; c < 4; ++c)
            for (int k = 0; k < 128; ++k) {
                size_t base = (size_t)c * 8388608, s = base + (size_t)M[4 * k] * 16384, d = base + (size_t)M[4 * k + 2] * 16384;
                for (int i = 0; i < 16384; ++i) bad += kv[d + i] != orig[s + i];
            }
        printf("check %s: %zu of 8,388,608 copied halves differ\n", id.c_str(), bad);
    } else if (id == "moe_topk_softmax") {
        std::vector<float> w = rb<float>("C", 0, 120000);
        std::vector<int> ix = rb<int>("D", 0, 120000);
        if (w.empty() || ix.empty()) return;
        size_t badi = 0;
        float err = 0.0f;
        for (int t = 0; t < 60000; ++t) {
            const uint32_t *r = &FR[(size_t)t * 64];
            float m = -1e30f, s = 0.0f;
            for (int e = 0; e < 64; ++e) m = std::max(m, f32_of(r[e]));
            for (int e = 0; e < 64; ++e) s += expf(f32_of(r[e]) - m);
            int b1 = 0, b2 = -1;
            for (int e = 1; e < 64; ++e) if (f32_of(r[e]) > f32_of(r[b1])) b1 = e;
            for (int e = 0; e < 64; ++e) if (e != b1 && (b2 < 0 || f32_of(r[e]) > f32_of(r[b2]))) b2 = e;
            badi += (ix[2 * t] != b1) + (ix[2 * t + 1] != b2);
            err = maxabs(err, fabsf(w[2 * t] - expf(f32_of(r[b1]) - m) / s));
        }
        printf("check %s: %zu of 120,000 expert ids differ, top-1 weight max abs error %.3g\n", id.c_str(), badi, err);
    } else if (id == "merge_attn_states") {
        std::vector<uint16_t> o = rb<uint16_t>("C", 0, 1000 * 32 * 128);
        std::vector<float> lse = rb<float>("D", 0, 32000);
        if (o.empty() || lse.empty()) return;
        // prefix = suffix = the fp16 pairs (0.0, 1.875): the merge returns them
        size_t bad = 0;
        for (size_t i = 0; i < o.size(); ++i) bad += o[i] != (i & 1 ? 0x3F80 : 0x0000);
        float err = 0.0f;
        for (int i = 0; i < 32000; ++i) {
            float a = f32_of(FR[i]), b = f32_of(FR[262144 + i]), m = std::max(a, b);
            err = maxabs(err, fabsf(lse[i] - (m + logf(expf(a - m) + expf(b - m)))));
        }
        printf("check %s: %zu of 4,096,000 halves differ, merged LSE max abs error %.3g\n", id.c_str(), bad, err);
    } else if (id == "gat_edge_softmax_agg") {
        std::vector<float> o = rb<float>("C", 0, 65536 * 16);
        if (o.empty()) return;
        const std::vector<uint32_t> &RP = buf("GRP").words, &CI = buf("GRC").words;
        float err = 0.0f;
        for (int v = 0; v < 65536; ++v) {
            int b = RP[v], deg = RP[v + 1] - RP[v];
            std::vector<float> s(deg);
            float m = -INFINITY, sum = 0.0f;
            for (int k = 0; k < deg; ++k) {
                float e = f32_of(FR[CI[b + k]]) + f32_of(FR[262144 + v]);
                s[k] = e > 0.0f ? e : 0.2f * e;
                m = std::max(m, s[k]);
            }
            for (int k = 0; k < deg; ++k) { s[k] = expf(s[k] - m); sum += s[k]; }
            for (int f = 0; f < 16; ++f) {
                float acc = 0.0f;
                for (int k = 0; k < deg; ++k) acc += s[k] / sum * f32_of(FR[(size_t)CI[b + k] * 16 + f]);
                err = maxabs(err, fabsf(o[(size_t)v * 16 + f] - acc));
            }
        }
        printf("check %s: first 65,536 nodes max abs error %.3g\n", id.c_str(), err);
    } else if (id == "pq_adc_scan") {
        std::vector<float> o = rb<float>("C", 0, 2 * 100000);
        if (o.empty()) return;
        float err = 0.0f;
        for (int qy = 0; qy < 2; ++qy)
            for (int i = 0; i < 100000; ++i) {
                float d = 0.0f;
                for (int m = 0; m < 16; ++m) d += f32_of(FR[qy * 4096 + m * 256 + R8[(size_t)i * 16 + m]]);
                err = maxabs(err, fabsf(o[(size_t)qy * 100000 + i] - d));
            }
        printf("check %s: first 2 queries max abs error %.3g\n", id.c_str(), err);
    } else if (id == "l2dist_tile") {
        std::vector<float> o = rb<float>("C", 0, 1000 * 4000);
        if (o.empty()) return;
        float err = 0.0f;
        for (int qi = 0; qi < 1000; qi += 37)
            for (int xi = 0; xi < 4000; ++xi) {
                float dot = 0.0f;
                for (int d = 0; d < 96; ++d) dot += f32_of(FR[qi * 96 + d]) * f32_of(FR[524288 + xi * 96 + d]);
                float ref = f32_of(FR[262144 + qi]) + f32_of(FR[1048576 + xi]) - 2.0f * dot;
                err = maxabs(err, fabsf(o[(size_t)qi * 4000 + xi] - ref));
            }
        printf("check %s: 28 query rows max abs error %.3g\n", id.c_str(), err);
    } else if (id == "bvh_point_query") {
        std::vector<int> o = rb<int>("C", 0, 2 * 262144);
        if (o.empty()) return;
        const std::vector<uint32_t> &Q = buf("BVHQ").words;
        size_t bad = 0, hits = 0;
        for (int i = 0; i < 262144; ++i) {
            float x = f32_of(Q[i]);
            int h = 0, s = 0;
            // leaf k spans at most [k, k + 6.5]: only k in [x - 7, x] can hold x
            for (int k = std::max(0, (int)x - 7); k < BVH_LEAVES; ++k) {
                size_t n = (size_t)(BVH_LEAVES - 1 + k) * 4;
                if (f32_of(g_bvh[n]) > x) break;
                if (!(x < f32_of(g_bvh[n]) || x > f32_of(g_bvh[n + 1]))) { ++h; s += k; }
            }
            hits += h;
            bad += o[2 * i] != h || o[2 * i + 1] != s;
        }
        printf("check %s: %zu of 262,144 queries wrong (%zu hits in all)\n", id.c_str(), bad, hits);
    } else if (id == "bgr2gray_u8c3") {
        std::vector<uint8_t> o = rb<uint8_t>("C", 0, 2048 * 1080);
        if (o.empty()) return;
        size_t bad = 0;
        for (int y = 0; y < 1080; ++y)
            for (int x = 0; x < 1920; ++x) {
                const uint8_t *p = R8 + (size_t)y * 6144 + 3 * x;
                bad += o[(size_t)y * 2048 + x] != (uint8_t)((p[0] * 1868 + p[1] * 9617 + p[2] * 4899 + (1 << 13)) >> 14);
            }
        printf("check %s: %zu of 2,073,600 pixels differ\n", id.c_str(), bad);
    } else if (id == "resize_nearest_u8c4") {
        std::vector<uint32_t> o = rb<uint32_t>("C", 0, 1125 * 1536);
        if (o.empty()) return;
        const std::vector<uint32_t> &W = buf("RAND8M").words;
        size_t bad = 0;
        const float fx = 1000.0f / 1500.0f, fy = 750.0f / 1125.0f;
        for (int y = 0; y < 1125; ++y)
            for (int x = 0; x < 1500; ++x) {
                int sx = std::min((int)floorf(x * fx), 999), sy = std::min((int)floorf(y * fy), 749);
                bad += o[(size_t)y * 1536 + x] != W[(size_t)sy * 1024 + sx];
            }
        printf("check %s: %zu of 1,687,500 pixels differ\n", id.c_str(), bad);
    } else if (id == "box3x3_u8") {
        std::vector<uint8_t> o = rb<uint8_t>("D", 0, 1024 * 700);
        if (o.empty()) return;
        size_t bad = 0;
        for (int y = 0; y < 700; ++y)
            for (int x = 0; x < 1000; ++x) {
                int s = 0;
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx)
                        s += R8[(size_t)std::min(std::max(y + dy, 0), 699) * 1024 + std::min(std::max(x + dx, 0), 999)];
                bad += o[(size_t)y * 1024 + x] != (uint8_t)((s * 7282 + (1 << 15)) >> 16);
            }
        printf("check %s: %zu of 700,000 pixels differ\n", id.c_str(), bad);
    } else if (id == "nv12_to_rgba") {
        std::vector<uint32_t> o = rb<uint32_t>("C", 0, 1920 * 1080);
        if (o.empty()) return;
        size_t bad = 0;
        for (int y = 0; y < 1080; ++y)
            for (int x = 0; x < 1920; ++x) {
                int Y = R8[(size_t)y * 2048 + x], U = R8[2048 * 1080 + (size_t)(y >> 1) * 2048 + (x & ~1)],
                    V = R8[2048 * 1080 + (size_t)(y >> 1) * 2048 + (x & ~1) + 1];
                int c = 298 * (Y - 16) + 128, d = U - 128, e = V - 128;
                auto cl = [](int v) { return (uint32_t)std::min(std::max(v, 0), 255); };
                uint32_t ref = cl((c + 409 * e) >> 8) | cl((c - 100 * d - 208 * e) >> 8) << 8 | cl((c + 516 * d) >> 8) << 16 | 255u << 24;
                bad += o[(size_t)y * 1920 + x] != ref;
            }
        printf("check %s: %zu of 2,073,600 pixels differ\n", id.c_str(), bad);
    } else if (id == "median3x3_u8") {
        std::vector<uint8_t> o = rb<uint8_t>("D", 0, 1024 * 700);
        if (o.empty()) return;
        size_t bad = 0;
        for (int y = 0; y < 700; ++y)
            for (int x = 0; x < 1000; ++x) {
                int v[9], k = 0;
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx)
                        v[k++] = R8[(size_t)std::min(std::max(y + dy, 0), 699) * 1024 + std::min(std::max(x + dx, 0), 999)];
                std::nth_element(v, v + 4, v + 9);
                bad += o[(size_t)y * 1024 + x] != v[4];
            }
        printf("check %s: %zu of 700,000 pixels differ\n", id.c_str(), bad);
    } else if (id == "depth_bilateral_u16") {
        std::vector<uint16_t> o = rb<uint16_t>("D", 8 << 20, 768 * 480);
        if (o.empty()) return;
        const uint16_t *dp = reinterpret_cast<const uint16_t *>(buf("DEPTH").words.data());
        size_t bad = 0;
        for (int y = 0; y < 480; ++y)
            for (int x = 0; x < 640; ++x) {
                float d0 = dp[(size_t)y * 768 + x], sum = 0.0f, ws = 0.0f;
                for (int dy = -2; dy <= 2; ++dy)
                    for (int dx = -2; dx <= 2; ++dx) {
                        float d = dp[(size_t)std::min(std::max(y + dy, 0), 479) * 768 + std::min(std::max(x + dx, 0), 639)];
                        if (d > 0.0f) {
                            float wt = expf(-(float)(dx * dx + dy * dy) * 0.125f - (d - d0) * (d - d0) / 1800.0f);
                            sum += d * wt; ws += wt;
                        }
                    }
                int ref = ws > 0.0f ? (int)(sum / ws + 0.5f) : 0;
                bad += abs((int)o[(size_t)y * 768 + x] - ref) > 1;
            }
        printf("check %s: %zu of 307,200 pixels off by more than 1\n", id.c_str(), bad);
    } else if (id == "tsdf_integrate") {
        std::vector<int16_t> o = rb<int16_t>("VOL", 0, 2 * 128 * 128 * 128);
        if (o.empty()) return;
        const uint16_t *dp = reinterpret_cast<const uint16_t *>(buf("DEPTH").words.data());
        size_t bad = 0, upd = 0;
        for (int z = 0; z < 128; ++z)
            for (int y = 0; y < 128; ++y)
                for (int x = 0; x < 128; ++x) {
                    // the voxel centre as ptxas computes it (one fused multiply-add, as in the kernel's PTX)
                    float px = fmaf(x + 0.5f, 0.01f, -0.64f), py = fmaf(y + 0.5f, 0.01f, -0.64f), pz = fmaf(z + 0.5f, 0.01f, 0.5f);
                    int u = (int)floorf(525.0f * px / pz + 320.0f), v = (int)floorf(525.0f * py / pz + 240.0f);
                    int rt = 0, rw = 0;
                    if (u >= 0 && u < 640 && v >= 0 && v < 480 && dp[(size_t)v * 768 + u] != 0) {
                        float sdf = dp[(size_t)v * 768 + u] * 0.001f - pz;
                        if (sdf >= -0.03f) { rt = (int)(std::min(1.0f, sdf / 0.03f) * 32767.0f); rw = 1; }
                    }
                    size_t i = ((size_t)z * 128 + y) * 128 + x;
                    upd += rw;
                    bad += abs(o[2 * i] - rt) > 2 || o[2 * i + 1] != rw;
                }
        printf("check %s: %zu of 2,097,152 voxels differ (%zu updated on the CPU)\n", id.c_str(), bad, upd);
    } else if (id == "lbm_d3q19_soa" || id == "lbm_d3q19_aos") {
        std::vector<float> o = rb<float>(p_buf(l, 1), 0, 19 * 262144);
        if (o.empty()) return;
        // a uniform input f = 1: rho = 19, u = 0, f' = 1 + 1.2 (19 w_q - 1)
        float err = 0.0f;
        for (size_t i = 0; i < o.size(); ++i) {
            int q = id == "lbm_d3q19_soa" ? (int)(i / 262144) : (int)(i % 19);
            float wq = q == 0 ? 1.0f / 3.0f : q < 7 ? 1.0f / 18.0f : 1.0f / 36.0f;
            err = maxabs(err, fabsf(o[i] - (1.0f + 1.2f * (19.0f * wq - 1.0f))));
        }
        (void)LBM_CX; (void)LBM_CY; (void)LBM_CZ;
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "particles_aos28") {
        std::vector<float> o = rb<float>("PART", 0, 7000000);
        if (o.empty()) return;
        const std::vector<uint32_t> &P0 = buf("PART").words;
        float err = 0.0f;
        for (size_t i = 0; i < 1000000; ++i) {
            float a[7];
            for (int k = 0; k < 7; ++k) a[k] = f32_of(P0[i * 7 + k]);
            float kk = 0.01f / (a[6] + 1.0f);
            for (int c = 0; c < 3; ++c) { a[3 + c] -= kk * a[c]; a[c] += 0.01f * a[3 + c]; }
            for (int k = 0; k < 7; ++k) err = maxabs(err, fabsf(o[i * 7 + k] - a[k]));
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "xorwow_normal4") {
        std::vector<float> o = rb<float>("C", 0, 4 * 262144);
        std::vector<uint32_t> st = rb<uint32_t>("XWS", 0, 12 * 262144);
        if (o.empty() || st.empty()) return;
        const std::vector<uint32_t> &S0 = buf("XWS").words;
        float err = 0.0f;
        size_t badst = 0;
        for (size_t i = 0; i < 262144; ++i) {
            uint32_t d = S0[i * 12], v[5];
            for (int k = 0; k < 5; ++k) v[k] = S0[i * 12 + 1 + k];
            auto next = [&]() { uint32_t t = v[0] ^ (v[0] >> 2); v[0] = v[1]; v[1] = v[2]; v[2] = v[3]; v[3] = v[4];
                                v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1)); d += 362437u; return v[4] + d; };
            for (int k = 0; k < 4; k += 2) {
                float u1 = ((float)next() + 0.5f) * 2.3283064e-10f, u2 = ((float)next() + 0.5f) * 2.3283064e-10f;
                float rad = sqrtf(-2.0f * logf(u1));
                err = maxabs(err, fabsf(o[i * 4 + k] - rad * cosf(6.28318530718f * u2)));
                err = maxabs(err, fabsf(o[i * 4 + k + 1] - rad * sinf(6.28318530718f * u2)));
            }
            badst += st[i * 12] != d;
            for (int k = 0; k < 5; ++k) badst += st[i * 12 + 1 + k] != v[k];
        }
        printf("check %s: normals max abs error %.3g, %zu state words differ\n", id.c_str(), err, badst);
    } else if (id == "fft1024_nopad" || id == "fft1024_pad") {
        std::vector<float> o = rb<float>(p_buf(l, 1), 0, 4 * 2048);
        if (o.empty()) return;
        double err = 0.0;
        for (int f = 0; f < 4; ++f)
            for (int k = 0; k < 1024; ++k) {
                double re = 0.0, im = 0.0;
                for (int n = 0; n < 1024; ++n) {
                    double xr = f32_of(FR[(size_t)f * 2048 + 2 * n]), xi = f32_of(FR[(size_t)f * 2048 + 2 * n + 1]);
                    double a = -2.0 * M_PI * (double)((k * n) & 1023) / 1024.0;
                    re += xr * cos(a) - xi * sin(a);
                    im += xr * sin(a) + xi * cos(a);
                }
                err = std::max(err, std::max(fabs(o[(size_t)f * 2048 + 2 * k] - re), fabs(o[(size_t)f * 2048 + 2 * k + 1] - im)));
            }
        printf("check %s: first 4 transforms max abs error %.3g\n", id.c_str(), err);
    } else if (id == "igemm_s8_mma_k32") {
        std::vector<int> c = rb<int>("C", 0, 64 * 1024);
        if (c.empty()) return;
        const int8_t *A = reinterpret_cast<const int8_t *>(R8), *B = A + 512 * 1024;
        size_t bad = 0;
        for (int m = 0; m < 64; ++m)
            for (int n = 0; n < 1024; ++n) {
                int s = 0;
                for (int k = 0; k < 512; ++k) s += A[m * 512 + k] * B[n * 512 + k];
                bad += c[m * 1024 + n] != s;
            }
        printf("check %s: %zu of the first 65,536 outputs wrong\n", id.c_str(), bad);
    } else if (id == "cg_memcpy_smooth_c2048" || id == "cg_memcpy_smooth_c4000") {
        const int cols = (int)l.params[2].ival;
        std::vector<float> o = rb<float>(p_buf(l, 1), 0, (size_t)cols * 16);
        if (o.empty()) return;
        float err = 0.0f;
        for (int r = 0; r < 16; ++r)
            for (int i = 0; i < cols; ++i) {
                const uint32_t *x = &FR[(size_t)r * cols];
                float ref = 0.25f * f32_of(x[std::max(i - 1, 0)]) + 0.5f * f32_of(x[i]) + 0.25f * f32_of(x[std::min(i + 1, cols - 1)]);
                err = maxabs(err, fabsf(o[(size_t)r * cols + i] - ref));
            }
        printf("check %s: first 16 rows max abs error %.3g\n", id.c_str(), err);
    } else if (id == "vol_u8_grad_p100" || id == "vol_u8_grad_p128") {
        const int pitch = (int)l.params[1].ival, slice = (int)l.params[2].ival;
        std::vector<float> o = rb<float>(p_buf(l, 6), 0, 1000000);
        if (o.empty()) return;
        float err = 0.0f;
        for (int z = 0; z < 100; ++z)
            for (int y = 0; y < 100; ++y)
                for (int x = 0; x < 100; ++x) {
                    auto V = [&](int xx, int yy, int zz) { return (float)R8[(size_t)zz * slice + (size_t)yy * pitch + xx]; };
                    float gx = V(std::min(x + 1, 99), y, z) - V(std::max(x - 1, 0), y, z);
                    float gy = V(x, std::min(y + 1, 99), z) - V(x, std::max(y - 1, 0), z);
                    float gz = V(x, y, std::min(z + 1, 99)) - V(x, y, std::max(z - 1, 0));
                    err = maxabs(err, fabsf(o[(z * 100 + y) * 100 + x] - sqrtf(gx * gx + gy * gy + gz * gz)));
                }
        printf("check %s: max abs error %.3g\n", id.c_str(), err);
    } else if (id == "bitunpack_w5" || id == "bitunpack_w13") {
        const int w = (int)l.params[3].ival;
        std::vector<uint32_t> o = rb<uint32_t>(p_buf(l, 1), 0, 2000000);
        if (o.empty()) return;
        const std::vector<uint32_t> &W = buf("RAND8M").words;
        size_t bad = 0;
        for (size_t i = 0; i < 2000000; ++i) {
            uint64_t bit = i * (uint64_t)w, word = bit >> 5, sh = bit & 31;
            uint64_t both = W[word] | ((uint64_t)W[word + 1] << 32);
            bad += o[i] != (uint32_t)((both >> sh) & ((1u << w) - 1));
        }
        printf("check %s: %zu of 2,000,000 values wrong\n", id.c_str(), bad);
    } else if (id == "strings_lower") {
        const std::vector<uint32_t> &O = buf("STROFF").words;
        std::vector<uint8_t> o = rb<uint8_t>("C", 0, O[200000]);
        std::vector<int> len = rb<int>("D", 0, 200000);
        if (o.empty() || len.empty()) return;
        size_t bad = 0;
        for (uint32_t k = 0; k < O[200000]; ++k) {
            uint8_t c = R8[k];
            bad += o[k] != ((c >= 'A' && c <= 'Z') ? c + 32 : c);
        }
        for (int i = 0; i < 200000; ++i) bad += len[i] != (int)(O[i + 1] - O[i]);
        printf("check %s: %zu of %u bytes and 200,000 lengths wrong\n", id.c_str(), bad, O[200000]);
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
