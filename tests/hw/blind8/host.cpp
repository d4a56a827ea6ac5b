// warpscope eighth held-out batch (tests/hw/blind8): host program, copied from tests/hw/blind7/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules and
// launch table are the eighth blind batch's; no tensor maps are used).
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

static const uint64_t SEED_RAND8M = 77;
static const uint64_t SEED_FRND = 8181;
static const uint64_t SEED_HKEYS = 8282;
static const uint64_t SEED_QKEYS = 8383;
static const uint64_t SEED_GRAPH = 8484;
static const uint64_t SEED_FRONT = 8585;
static const uint64_t SEED_PARENT = 8686;
static const uint64_t SEED_SELL = 8787;
static const uint64_t SEED_PERM = 8888;

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

static void make_buffers()
{
    const size_t MiB = 1 << 20;
    add_fill("A", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word (as fp16 pairs: 0x0000, 0x3F80; as bf16 pairs: 0.0, 1.0; as doubles 0x3F8000003F800000)");
    add_fill("B", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word");
    add_fill("C", 64 * MiB, 0x00000000u, "zero");
    add_fill("D", 64 * MiB, 0x00000000u, "zero");
    add_fill("Z", 16 * MiB, 0x00000000u, "zero (bins, counters, Bloom bits, dgamma: disjoint 1 MiB regions, see the launches)");
    add_fill("HT", 32 * MiB, 0xFFFFFFFFu, "hash table: 2,097,152 slots of (uint64 key, uint64 value), every byte 0xFF (empty key ~0)");
    add_fill("DIST", 2 * MiB, 0x7FFFFFFFu, "BFS distances: two copies of 262,144 int32 (one a launch), every word 0x7FFFFFFF (unvisited)");
    add_fill("FLAGS", 64 * 1024, 0x00000000u, "zero (flags, queue tails, counters)");
    add_words("RAND8M", lcg_words(2097152, SEED_RAND8M),
              "2,097,152 uint32 words: successive next() of the LCG below seeded with 77 (8 MiB; as bytes, the text of newline_index: byte 10 is a newline)");
    {
        std::vector<uint32_t> w = lcg_words(4194304, SEED_FRND);
        for (auto &x : w) { float f = unit_float(x) * 2.0f - 1.0f; memcpy(&x, &f, 4); }
        add_words("FRND", w, "4,194,304 float32 in [-1, 1): (next() >> 8) / 2^24 * 2 - 1 (LCG seed 8181)");
    }
    std::vector<uint32_t> hk(2000000);
    {
        Lcg g(SEED_HKEYS);
        for (int i = 0; i < 1000000; ++i) {
            uint32_t hi = g.next(), lo = g.next();
            if (hi == 0xFFFFFFFFu && lo == 0xFFFFFFFFu) lo = 0xFFFFFFFEu;
            hk[2 * i] = lo; hk[2 * i + 1] = hi;
        }
        add_words("HKEYS", hk, "1,000,000 uint64 keys (little-endian): hi = next(), lo = next() (LCG seed 8282, one stream; ~0 excluded)");
    }
    {
        std::vector<uint32_t> q(2000000);
        Lcg g(SEED_QKEYS);
        for (int i = 0; i < 1000000; ++i) {
            if (i % 2 == 0) {
                int j = (int)(((long long)i * 7919) % 1000000);
                q[2 * i] = hk[2 * j]; q[2 * i + 1] = hk[2 * j + 1];
            } else {
                uint32_t hi = g.next(), lo = g.next();
                if (hi == 0xFFFFFFFFu && lo == 0xFFFFFFFFu) lo = 0xFFFFFFFEu;
                q[2 * i] = lo; q[2 * i + 1] = hi;
            }
        }
        add_words("QKEYS", q, "1,000,000 uint64 query keys: even i = HKEYS[(i * 7919) mod 1,000,000] (present), odd i = hi, lo from next() of the LCG seeded with 8383 (absent but for a 2^-64 chance)");
    }
    {
        // a graph of 262,144 vertices: out-degree next() mod 17, neighbours next() mod 262,144 (one stream)
        const int N = 262144;
        Lcg g(SEED_GRAPH);
        std::vector<uint32_t> rp(N + 1), cols;
        rp[0] = 0;
        for (int v = 0; v < N; ++v) {
            uint32_t len = g.next() % 17;
            for (uint32_t k = 0; k < len; ++k) cols.push_back(g.next() % N);
            rp[v + 1] = (uint32_t)cols.size();
        }
        add_words("GRP", rp, "CSR row_ptr of a graph of 262,144 vertices: out-degree next() mod 17, then the neighbours next() mod 262,144 (LCG seed 8484, one stream)");
        add_words("GRC", cols, "CSR neighbours (see GRP)");
        std::vector<int32_t> p = permutation(N, SEED_FRONT);
        p.resize(65536);
        add_words("FRONT", as_words(p), "BFS frontier: the first 65,536 entries of a permutation of 262,144 (seed 8585)");
    }
    {
        std::vector<uint32_t> par(1048576);
        Lcg g(SEED_PARENT);
        par[0] = 0;
        for (uint32_t i = 1; i < par.size(); ++i) par[i] = g.next() % i;
        add_words("PARENT", par, "a random forest of 1,048,576 nodes: parent[0] = 0, parent[i] = next() mod i (LCG seed 8686)");
    }
    {
        // SELL-C-sigma (C = 32, sigma = 256) of a 100,003 x 100,000 matrix: row lengths next() mod 48, then
        // the row's columns next() mod 100,000 and values (next() >> 8) / 2^24 (one stream); rows sorted by
        // length (descending, stable) inside windows of 256; slices of 32 column-major, padded with (0, 0.0)
        const int NR = 100003;
        Lcg g(SEED_SELL);
        std::vector<std::vector<std::pair<uint32_t, float>>> rows(NR);
        for (int r = 0; r < NR; ++r) {
            uint32_t len = g.next() % 48;
            for (uint32_t k = 0; k < len; ++k) {
                uint32_t c = g.next() % 100000;
                float v = unit_float(g.next());
                rows[r].push_back({c, v});
            }
        }
        std::vector<int32_t> perm(NR);
        for (int r = 0; r < NR; ++r) perm[r] = r;
        for (int w0 = 0; w0 < NR; w0 += 256) {
            int w1 = std::min(NR, w0 + 256);
            std::stable_sort(perm.begin() + w0, perm.begin() + w1,
                             [&](int a, int b) { return rows[a].size() > rows[b].size(); });
        }
        const int NS = (NR + 31) / 32;
        std::vector<uint32_t> sp(NS + 1), sl(NS), sc, sv;
        sp[0] = 0;
        for (int s = 0; s < NS; ++s) {
            uint32_t L = 0;
            for (int l = 0; l < 32 && s * 32 + l < NR; ++l) L = std::max<uint32_t>(L, rows[perm[s * 32 + l]].size());
            sl[s] = L;
            for (uint32_t k = 0; k < L; ++k)
                for (int l = 0; l < 32; ++l) {
                    int r = s * 32 + l;
                    uint32_t c = 0; float v = 0.0f;
                    if (r < NR && k < rows[perm[r]].size()) { c = rows[perm[r]][k].first; v = rows[perm[r]][k].second; }
                    uint32_t vb; memcpy(&vb, &v, 4);
                    sc.push_back(c); sv.push_back(vb);
                }
            sp[s + 1] = (uint32_t)sc.size();
        }
        add_words("SLP", sp, "SELL-C-sigma slice offsets (3,126 slices of 32 rows; entries)");
        add_words("SLL", sl, "SELL-C-sigma slice lengths (the longest row of the slice)");
        add_words("SLC", sc, "SELL-C-sigma columns, column-major inside a slice (LCG seed 8787: see host.cpp)");
        add_words("SLV", sv, "SELL-C-sigma values (float32), same layout");
        add_words("SLR", as_words(perm), "SELL-C-sigma row permutation: sorted position -> original row");
    }
    add_words("PERM", as_words(permutation(1048576, SEED_PERM)), "a permutation of 1,048,576 int32 (seed 8888)");
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
    {"blind8", "tests/hw/blind8/blind8.ptx"},
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
    const char *K = "blind8";
    const long long MiB = 1 << 20;
    // PyTorch / apex style
    L("bdr_h8_aligned", K, "bias_dropout_residual_h8", 264, 1, 1, 256, 1, 1,
      {P("A"), P("B"), P("B", 4096), P("C"), P("D"), S32(1000), S32(1024), F32(0.1f), S32(1234)},
      "fused bias + dropout + residual, fp16, 1,000 rows of 1,024: every pointer 16-byte aligned, so the aligned_vector<half, 8> (uint4) path; uint8 keep mask as 8-byte stores; grid-stride (264 x 256 threads over 128,000 groups of 8)");
    L("bdr_h8_off2", K, "bias_dropout_residual_h8", 264, 1, 1, 256, 1, 1,
      {P("A", 2), P("B"), P("B", 4096), P("C"), P("D"), S32(1000), S32(1024), F32(0.1f), S32(1234)},
      "the same with the input 2 bytes off 16-byte alignment: the scalar fallback (8 scalar elements a thread) everywhere");
    L("rmsnorm_bwd_c4096", K, "rmsnorm_bwd_bf16", 264, 1, 1, 256, 1, 1,
      {P("A"), P("B"), P("A", 8192), P("B"), P("C"), P("Z", 8 * MiB), S32(2000), S32(4096)},
      "apex-style RMSNorm backward, bf16, 2,000 rows of 4,096 (bf16x2 pairs), a block per row grid-stride, block reduction, dgamma partials in a shared row, atomicAdd into dgamma");
    L("rmsnorm_bwd_c4100", K, "rmsnorm_bwd_bf16", 264, 1, 1, 256, 1, 1,
      {P("A"), P("B"), P("A", 8192), P("B"), P("C"), P("Z", 9 * MiB), S32(2000), S32(4100)},
      "the same with rows of 4,100 (8,200-byte rows: only 8-byte aligned; 2,050 pairs a row)");
    L("fp8_rowquant_e4m3", K, "fp8_rowquant_e4m3", 1000, 1, 1, 128, 1, 1,
      {P("FRND"), P("C"), P("D"), S32(4000), S32(1000)},
      "fp8 e4m3 row quantisation: a warp per row of 1,000 floats (float4), amax by shuffles, 4 fp8 packed into one 32-bit store, scale by lane 0; 4,000 rows");
    L("fp8_dequant_e5m2", K, "fp8_dequant_e5m2", 264, 1, 1, 256, 1, 1,
      {P("RAND8M"), P("FRND"), P("C"), S32(250000)},
      "fp8 e5m2 dequantisation: a 32-bit word of 4 values a thread, a scale per 128 values, float4 stores, n = 1,000,000, grid-stride");
    // hash map, Bloom filter, graph, sparse
    L("hash_insert_cas64", K, "hash_insert_cas64", 3907, 1, 1, 256, 1, 1,
      {P("HKEYS"), P("HT"), S32(1000000), U64(2097151)},
      "open-addressing insert of 1,000,000 random uint64 keys into 2,097,152 16-byte (key, value) slots: atomicCAS on the key, linear probing, value stored by the winner");
    L("hash_find", K, "hash_find", 3907, 1, 1, 256, 1, 1,
      {P("QKEYS"), P("HT"), P("C"), S32(1000000), U64(2097151)},
      "scalar find of 1,000,000 keys (half present) in the table above: 8-byte key loads along the probe sequence, the value loaded on a match, int64 result");
    L("hash_find_cg4", K, "hash_find_cg4", 15625, 1, 1, 256, 1, 1,
      {P("QKEYS"), P("HT"), P("D"), S32(1000000), U64(2097151)},
      "cooperative find (cuco style): 4 lanes a key, one slot of a 4-slot window each, ballots for match / empty, slots before the hash in the first window ignored");
    L("bloom_set", K, "bloom_set", 3907, 1, 1, 256, 1, 1,
      {P("HKEYS"), P("Z", 4 * MiB), S32(1000000), S32(8388607)},
      "Bloom filter insert of 1,000,000 uint64 keys: 3 positions in 2^23 bits by double hashing, atomicOr of 32-bit words");
    L("bfs_expand_thread", K, "bfs_expand_thread", 256, 1, 1, 256, 1, 1,
      {P("GRP"), P("GRC"), P("FRONT"), S32(65536), P("DIST"), P("C", 16 * MiB), P("FLAGS", 4096), S32(0)},
      "BFS expansion of a 65,536-vertex frontier, a thread per vertex: neighbours between loaded row_ptr bounds (0..16), atomicCAS on the distance, atomicAdd queue append");
    L("bfs_expand_warp", K, "bfs_expand_warp", 8192, 1, 1, 256, 1, 1,
      {P("GRP"), P("GRC"), P("FRONT"), S32(65536), P("DIST", MiB), P("C", 20 * MiB), P("FLAGS", 8192), S32(0)},
      "the same a warp per frontier vertex (lanes over its neighbours), warp-aggregated queue append (ballot, one atomicAdd, shuffle), on a fresh distance array");
    L("pointer_jump3", K, "pointer_jump3", 4096, 1, 1, 256, 1, 1, {P("PARENT"), P("C"), S32(1048576)},
      "pointer jumping: the third ancestor of each of 1,048,576 nodes of a random forest (parent[i] = next() mod i)");
    L("sell_spmv_c32", K, "sell_spmv_c32", 782, 1, 1, 128, 1, 1,
      {P("SLP"), P("SLL"), P("SLC"), P("SLV"), P("SLR"), P("FRND"), P("C"), S32(100003)},
      "SELL-C-sigma SpMV (C = 32, sigma = 256), a thread per sorted row: slice offset and length loaded, column-major slices, x gathered by column, y scattered by the row permutation; 100,003 rows (the last slice 3 rows)");
    // hand-written memory paths
    L("flag_release_acquire", K, "flag_release_acquire", 528, 1, 1, 256, 1, 1,
      {P("C", 24 * MiB), P("FLAGS"), P("D", 8 * MiB), P("FLAGS", 12288)},
      "264 producer/consumer block pairs: float4 tile stores then st.release.gpu flag; the consumer's thread 0 polls ld.acquire.gpu (at most 1,000,000 polls, __nanosleep 64), ld.global.cg float4 reads, atom.add.release.gpu counter");
    L("cache_ops_mix", K, "cache_ops_mix", 3907, 1, 1, 256, 1, 1,
      {P("A"), P("B"), P("FRND"), P("C"), P("D"), S32(1000000)},
      "__ldlu float4, __ldcv float2 at a 24-byte stride, __ldcg float, __stwt float4, __stcg float2; n = 1,000,000");
    L("cache_ops_mix_off8", K, "cache_ops_mix", 3907, 1, 1, 256, 1, 1,
      {P("A"), P("B", 8), P("FRND"), P("C"), P("D", 8), S32(999999)},
      "the same with the float2 input and output 8 bytes off 16-byte alignment, n = 999,999");
    L("prefetch_l2_stream", K, "prefetch_l2_stream", 132, 1, 1, 256, 1, 1, {P("A"), P("C"), S32(1000)},
      "1,000 segments of 16 KiB, grid-stride over 132 blocks: cp.async.bulk.prefetch.L2 of the block's next segment, prefetch.global.L2::evict_last 2 KiB ahead (6 of 8 rounds), ld.global.nc.L2::256B.v2.f32, st.global.L1::no_allocate.v2.f32");
    L("st_async_peer", K, "st_async_peer", 264, 1, 1, 128, 1, 1, {P("FRND"), P("C")},
      "clusters of 2 (__cluster_dims__): st.async.v4.f32 of 16 bytes a thread into the peer CTA's shared buffer and red.async.add.u32 into its counter, completing on the peer's mbarrier (expect_tx 2,560), bounded wait, the received tile summed out");
    L("atomic_fmax_argmax", K, "atomic_fmax_argmax", 3907, 1, 1, 256, 1, 1,
      {P("FRND"), P("PERM"), P("Z"), P("Z", MiB), S32(1000000), S32(65535)},
      "float max by an atomicCAS loop (while the loaded bin is smaller, at most 64 tries) into 65,536 bins by a random permutation, then a 64-bit atomicMax argmax; n = 1,000,000");
    L("shared_atomics_u64", K, "shared_atomics_u64", 264, 1, 1, 256, 1, 1,
      {P("RAND8M"), P("Z", 2 * MiB), P("Z", 3 * MiB), S32(2097152)},
      "shared 64-bit atomicAdd into 1,024 bins and a shared atomicCAS-loop float max into 64 bins, grid-stride over 2,097,152 random words, block bins added into global");
    L("warpspec_namedbar", K, "warpspec_namedbar", 500, 1, 1, 160, 1, 1, {P("FRND"), P("C"), S32(16)},
      "warp-specialised producer (warp 0, 4 float4 a lane into a shared double buffer) and 4 consumer warps on named barriers (bar.sync / bar.arrive, ids 1-4, 160 threads), 16 tiles of 512 floats a block");
    // classics
    L("redblack_gs_red", K, "redblack_gs", 16, 128, 1, 32, 8, 1, {P("C"), P("B"), S32(1022), S32(1022), S32(0), F32(0.001f)},
      "red-black Gauss-Seidel, red sweep over 1,022 x 1,022 interior points (pitch 1,024 floats), thread (tx, ty) at x = 2 (32 bx + tx) + 1 + ((y + colour) & 1)");
    L("redblack_gs_black", K, "redblack_gs", 16, 128, 1, 32, 8, 1, {P("C"), P("B"), S32(1022), S32(1022), S32(1), F32(0.001f)},
      "the black sweep of the same");
    L("morton_gather", K, "morton_gather", 4096, 1, 1, 256, 1, 1, {P("FRND"), P("C"), S32(10)},
      "Z-order gather of a 1,024 x 1,024 float image: out[i] = in[y * 1024 + x] with x, y the de-interleaved even and odd bits of i");
    L("memcpy_aligned16", K, "memcpy_align_paths", 264, 1, 1, 256, 1, 1, {P("RAND8M"), P("C"), U64(8000000)},
      "byte copy of 8,000,000 bytes, both ends 16-byte aligned: the uint4 path, grid-stride");
    L("memcpy_co3", K, "memcpy_align_paths", 264, 1, 1, 256, 1, 1, {P("RAND8M", 3), P("C", 3), U64(7999997)},
      "7,999,997 bytes, source and destination both 3 bytes past 16: the word path (1-byte head, 32-bit words, byte tail)");
    L("memcpy_mis1", K, "memcpy_align_paths", 264, 1, 1, 256, 1, 1, {P("RAND8M", 1), P("C"), U64(4000000)},
      "4,000,000 bytes, source 1 byte off the destination's alignment: the byte path");
    L("newline_index", K, "newline_index", 264, 1, 1, 256, 1, 1, {P("RAND8M"), P("D"), P("Z", 7 * MiB), S32(8388600)},
      "newline index of 8,388,600 random bytes (byte 10 = newline): a warp per 1,024-byte chunk, byte loads, ballot, one atomicAdd a warp and round with a newline, compacted int32 positions");
    L("zaxpy_dot", K, "zaxpy_dot", 264, 1, 1, 256, 1, 1, {P("A"), P("B"), P("Z", 6 * MiB), F32(0.5f), F32(-0.25f), S32(500001)},
      "complex double (double2) axpy y = a x + y and dot sum conj(x) y, grid-stride over 500,001, block reduction, double atomicAdd");
    L("blelloch_nopad", K, "blelloch_nopad", 977, 1, 1, 512, 1, 1, {P("FRND"), P("C"), P("D"), S32(1000003)},
      "GPU Gems 3 work-efficient exclusive scan WITHOUT the conflict-free padding: 1,024 floats a 512-thread block, up-sweep / down-sweep in shared, n = 1,000,003 (tail block)");
    L("mat4_aos_xform", K, "mat4_aos_xform", 3907, 1, 1, 128, 1, 1, {P("A"), P("FRND"), P("C"), S32(500000)},
      "500,000 4 x 4 float matrices as 64-byte structs (four float4 loads a thread), times a float4 each, float4 out");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind8/host.cpp. Launches run once each, in this order, on one stream. "
               "Pointer params: buffer name + byte offset; every buffer is cuMemAlloc'd with its size rounded up to a multiple of 2 MiB; the run prints each base mod 4096 (0 for all in the committed measurement, see README). "
               "Scalar params: value by PTX parameter index.\",\n");
    fprintf(f, "  \"permutation_generator\": {\"algorithm\": \"state = state * %llu + %llu (mod 2^64); next() = state >> 32; "
               "p = identity; for i = n-1 down to 1: j = next() %% (i+1); swap(p[i], p[j])\", \"reference\": \"tests/hw/lcg_perm.py\", "
               "\"seeds\": {\"RAND8M (successive next() words, no shuffle)\": %llu, \"FRND (next() words)\": %llu, \"HKEYS (next() words)\": %llu, \"QKEYS (next() words)\": %llu, \"GRP/GRC (one stream)\": %llu, \"FRONT\": %llu, \"PARENT (next() words)\": %llu, \"SELL (one stream)\": %llu, \"PERM\": %llu}},\n",
            (unsigned long long)LCG_A, (unsigned long long)LCG_C, (unsigned long long)SEED_RAND8M, (unsigned long long)SEED_FRND,
            (unsigned long long)SEED_HKEYS, (unsigned long long)SEED_QKEYS, (unsigned long long)SEED_GRAPH,
            (unsigned long long)SEED_FRONT, (unsigned long long)SEED_PARENT, (unsigned long long)SEED_SELL, (unsigned long long)SEED_PERM);
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

static void check_launch(const Launch &l)
{
    const std::string &id = l.id;
    const std::vector<uint32_t> &FR = buf("FRND").words;
    if (id == "bdr_h8_aligned" || id == "bdr_h8_off2") {
        const size_t n = 1000 * 1024;
        std::vector<uint8_t> mask = rb<uint8_t>("D", 0, n);
        std::vector<uint16_t> out = rb<uint16_t>("C", 0, 65536);
        if (mask.empty() || out.empty()) return;
        const unsigned thresh = (unsigned)(0.1f * 4294967295.0f);
        size_t bad = 0, kept = 0;
        for (size_t i = 0; i < n; ++i) {
            bool k = h_mix32(1234u ^ (unsigned)i) >= thresh;
            kept += k; bad += mask[i] != (uint8_t)k;
        }
        // x: A (+2 bytes), bias: B, res: B + 4096; fp16 words of 0x3F800000 are 0x0000, 0x3F80 (1.875)
        float maxerr = 0.0f;
        const long long xo = p_off(l, 0);
        for (size_t i = 0; i < out.size(); ++i) {
            auto hv = [](long long byte) { return half_to_float((byte / 2) % 2 ? 0x3F80 : 0x0000); };
            float x = hv(xo + 2 * (long long)i), b = hv(2 * (long long)(i % 1024)), r = hv(4096 + 2 * (long long)i);
            bool k = h_mix32(1234u ^ (unsigned)i) >= thresh;
            float ref = r + (k ? (x + b) / 0.9f : 0.0f);
            maxerr = std::max(maxerr, fabsf(half_to_float(out[i]) - ref));
        }
        printf("check %s: keep mask %zu of %zu differ (kept %.4f); max abs error of the first 65,536 outputs %.3g\n",
               id.c_str(), bad, n, (double)kept / n, maxerr);
    } else if (id == "rmsnorm_bwd_c4096" || id == "rmsnorm_bwd_c4100") {
        const int cols = (int)l.params[7].ival;
        std::vector<float> dg = rb<float>(p_buf(l, 5), p_off(l, 5), cols);
        if (dg.empty()) return;
        // dy = x = w = bf16 pairs (0, 1): dgamma[c] = 2,000 for odd c, 0 for even
        float maxerr = 0.0f;
        for (int c = 0; c < cols; ++c) maxerr = std::max(maxerr, fabsf(dg[c] - (c & 1 ? 2000.0f : 0.0f)));
        std::vector<uint16_t> dx = rb<uint16_t>("C", 0, 8192);
        float dxerr = 0.0f;  // dx = rstd * w * dy - (sum(w dy x) / cols) * x = 0.5 on odd columns, 0 on even
        for (size_t i = 0; i < dx.size(); ++i) dxerr = std::max(dxerr, fabsf(f32_of((uint32_t)dx[i] << 16) - (i & 1 ? 0.5f : 0.0f)));
        printf("check %s: dgamma max abs error %.3g, dx (first 8,192) max abs error %.3g\n", id.c_str(), maxerr, dxerr);
    } else if (id == "fp8_rowquant_e4m3") {
        std::vector<float> sc = rb<float>("D", 0, 4000);
        if (sc.empty()) return;
        float maxrel = 0.0f;
        for (int r = 0; r < 4000; ++r) {
            float amax = 0.0f;
            for (int c = 0; c < 1000; ++c) amax = std::max(amax, fabsf(f32_of(FR[(size_t)r * 1000 + c])));
            maxrel = std::max(maxrel, fabsf(sc[r] - amax / 448.0f) / (amax / 448.0f));
        }
        printf("check %s: row scales max rel. error %.3g\n", id.c_str(), maxrel);
    } else if (id == "hash_insert_cas64") {
        std::vector<uint64_t> t = rb<uint64_t>("HT", 0, 2 * 2097152);
        if (t.empty()) return;
        const std::vector<uint32_t> &K = buf("HKEYS").words;
        size_t occ = 0, bad = 0;
        for (size_t s = 0; s < 2097152; ++s)
            if (t[2 * s] != ~0ULL) {
                ++occ;
                uint64_t v = t[2 * s + 1];
                bad += v >= 1000000 || key_of(K, v) != t[2 * s];
            }
        printf("check %s: %zu slots occupied (1,000,000 keys), %zu with a wrong value\n", id.c_str(), occ, bad);
    } else if (id == "hash_find" || id == "hash_find_cg4") {
        std::vector<long long> o = rb<long long>(p_buf(l, 2), 0, 1000000);
        if (o.empty()) return;
        size_t bad = 0;
        for (long long i = 0; i < 1000000; ++i) bad += o[i] != (i % 2 == 0 ? (i * 7919) % 1000000 : -1);
        printf("check %s: %zu of 1,000,000 results wrong\n", id.c_str(), bad);
    } else if (id == "bloom_set") {
        std::vector<uint32_t> bits = rb<uint32_t>("Z", p_off(l, 1), 262144);
        if (bits.empty()) return;
        std::vector<uint32_t> ref(262144, 0);
        const std::vector<uint32_t> &K = buf("HKEYS").words;
        for (size_t i = 0; i < 1000000; ++i) {
            uint64_t h = h_mix64(key_of(K, i));
            uint32_t h1 = (uint32_t)h, h2 = (uint32_t)(h >> 32) | 1u;
            for (uint32_t j = 0; j < 3; ++j) { uint32_t b = (h1 + j * h2) & 8388607u; ref[b >> 5] |= 1u << (b & 31); }
        }
        size_t bad = 0;
        for (size_t i = 0; i < ref.size(); ++i) bad += ref[i] != bits[i];
        printf("check %s: %zu of 262,144 words differ\n", id.c_str(), bad);
    } else if (id == "bfs_expand_thread" || id == "bfs_expand_warp") {
        std::vector<int> tail = rb<int>("FLAGS", p_off(l, 6), 1);
        std::vector<int> dist = rb<int>("DIST", p_off(l, 4), 262144);
        if (tail.empty() || dist.empty()) return;
        const std::vector<uint32_t> &RP = buf("GRP").words, &CI = buf("GRC").words, &FQ = buf("FRONT").words;
        std::vector<char> seen(262144, 0);
        size_t cnt = 0;
        for (size_t i = 0; i < FQ.size(); ++i)
            for (uint32_t e = RP[FQ[i]]; e < RP[FQ[i] + 1]; ++e)
                if (!seen[CI[e]]) { seen[CI[e]] = 1; ++cnt; }
        size_t bad = 0;
        for (size_t v = 0; v < 262144; ++v) bad += (dist[v] == 1) != (bool)seen[v];
        printf("check %s: queue tail %d (CPU %zu), %zu distances wrong\n", id.c_str(), tail[0], cnt, bad);
    } else if (id == "pointer_jump3") {
        std::vector<int> a = rb<int>("C", 0, 1048576);
        if (a.empty()) return;
        const std::vector<uint32_t> &P = buf("PARENT").words;
        size_t bad = 0;
        for (size_t i = 0; i < a.size(); ++i) bad += (uint32_t)a[i] != P[P[P[i]]];
        printf("check %s: %zu of 1,048,576 wrong\n", id.c_str(), bad);
    } else if (id == "sell_spmv_c32") {
        std::vector<float> y = rb<float>("C", 0, 100003);
        if (y.empty()) return;
        const std::vector<uint32_t> &SP = buf("SLP").words, &SL = buf("SLL").words, &SC = buf("SLC").words,
                                    &SV = buf("SLV").words, &SR = buf("SLR").words;
        float maxerr = 0.0f;
        for (int r = 0; r < 100003; ++r) {
            int s = r >> 5, lane = r & 31;
            float sum = 0.0f;
            for (uint32_t k = 0; k < SL[s]; ++k) { size_t i = SP[s] + k * 32 + lane; sum += f32_of(SV[i]) * f32_of(FR[SC[i]]); }
            maxerr = std::max(maxerr, fabsf(y[SR[r]] - sum));
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), maxerr);
    } else if (id == "flag_release_acquire") {
        std::vector<float> o = rb<float>("D", p_off(l, 2), 264 * 256);
        std::vector<unsigned> done = rb<unsigned>("FLAGS", p_off(l, 3), 1);
        if (o.empty() || done.empty()) return;
        size_t bad = 0;
        for (int p = 0; p < 264; ++p)
            for (int t = 0; t < 256; ++t) bad += o[p * 256 + t] != (float)(p + t + 3);
        printf("check %s: done counter %u (264), %zu of 67,584 sums wrong\n", id.c_str(), done[0], bad);
    } else if (id == "prefetch_l2_stream") {
        std::vector<float> y = rb<float>("C", 0, 4096000);
        if (y.empty()) return;
        size_t bad = 0;
        for (size_t i = 0; i < y.size(); ++i) bad += y[i] != 2.0f;
        printf("check %s: %zu of 4,096,000 wrong\n", id.c_str(), bad);
    } else if (id == "st_async_peer") {
        std::vector<float> o = rb<float>("C", 0, 264 * 129);
        if (o.empty()) return;
        size_t badc = 0;
        float maxerr = 0.0f;
        for (int b = 0; b < 264; ++b) {
            badc += o[b * 129 + 128] != 128.0f;
            for (int t = 0; t < 128; ++t) {
                size_t s = ((size_t)(b ^ 1) * 128 + t) * 4;
                float ref = f32_of(FR[s]) + f32_of(FR[s + 1]) + f32_of(FR[s + 2]) + f32_of(FR[s + 3]);
                maxerr = std::max(maxerr, fabsf(o[b * 129 + t] - ref));
            }
        }
        printf("check %s: %zu of 264 counters not 128, received sums max abs error %.3g\n", id.c_str(), badc, maxerr);
    } else if (id == "atomic_fmax_argmax") {
        std::vector<float> bm = rb<float>("Z", 0, 65536);
        std::vector<uint64_t> ba = rb<uint64_t>("Z", 1 << 20, 65536);
        if (bm.empty() || ba.empty()) return;
        const std::vector<uint32_t> &PM = buf("PERM").words;
        std::vector<float> ref(65536, 0.0f);
        std::vector<uint64_t> arg(65536, 0);
        for (uint32_t i = 0; i < 1000000; ++i) {
            uint32_t b = PM[i] & 65535;
            float x = f32_of(FR[i]);
            ref[b] = std::max(ref[b], x);
            uint32_t bits = FR[i];
            bits = (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
            arg[b] = std::max(arg[b], ((uint64_t)bits << 32) | i);
        }
        size_t bad = 0, bada = 0;
        for (int b = 0; b < 65536; ++b) { bad += bm[b] != ref[b]; bada += ba[b] != arg[b]; }
        printf("check %s: %zu max bins and %zu argmax bins of 65,536 wrong\n", id.c_str(), bad, bada);
    } else if (id == "shared_atomics_u64") {
        std::vector<uint64_t> h = rb<uint64_t>("Z", 2 << 20, 1024);
        std::vector<float> g = rb<float>("Z", 3 << 20, 64);
        if (h.empty() || g.empty()) return;
        const std::vector<uint32_t> &W = buf("RAND8M").words;
        std::vector<uint64_t> rh(1024, 0);
        std::vector<float> rg(64, 0.0f);
        for (uint32_t w : W) {
            rh[w & 1023] += w >> 10;
            rg[w >> 26] = std::max(rg[w >> 26], (float)(w & 0xffff) * (1.0f / 65536.0f));
        }
        size_t bad = 0;
        for (int k = 0; k < 1024; ++k) bad += h[k] != rh[k];
        for (int k = 0; k < 64; ++k) bad += g[k] != rg[k];
        printf("check %s: %zu of 1,088 bins wrong\n", id.c_str(), bad);
    } else if (id == "warpspec_namedbar") {
        std::vector<float> o = rb<float>("C", 0, 500 * 128);
        if (o.empty()) return;
        float maxerr = 0.0f;
        for (int b = 0; b < 500; ++b)
            for (int c = 0; c < 128; ++c) {
                float acc = 0.0f;
                for (int t = 0; t < 16; ++t) {
                    size_t s = (((size_t)b * 16 + t) * 128 + c) * 4;
                    acc += f32_of(FR[s]) * f32_of(FR[s + 1]) + f32_of(FR[s + 2]) * f32_of(FR[s + 3]);
                }
                maxerr = std::max(maxerr, fabsf(o[b * 128 + c] - acc));
            }
        printf("check %s: max abs error %.3g\n", id.c_str(), maxerr);
    } else if (id == "morton_gather") {
        std::vector<float> o = rb<float>("C", 0, 1048576);
        if (o.empty()) return;
        size_t bad = 0;
        for (uint32_t i = 0; i < 1048576; ++i) {
            uint32_t x = 0, y = 0;
            for (int k = 0; k < 10; ++k) { x |= ((i >> (2 * k)) & 1) << k; y |= ((i >> (2 * k + 1)) & 1) << k; }
            bad += o[i] != f32_of(FR[y * 1024 + x]);
        }
        printf("check %s: %zu of 1,048,576 wrong\n", id.c_str(), bad);
    } else if (id == "memcpy_aligned16" || id == "memcpy_co3" || id == "memcpy_mis1") {
        const size_t n = (size_t)l.params[2].ival;
        std::vector<uint8_t> d = rb<uint8_t>("C", p_off(l, 1), n);
        if (d.empty()) return;
        const uint8_t *src = reinterpret_cast<const uint8_t *>(buf("RAND8M").words.data()) + p_off(l, 0);
        size_t bad = 0;
        for (size_t i = 0; i < n; ++i) bad += d[i] != src[i];
        printf("check %s: %zu of %zu bytes differ\n", id.c_str(), bad, n);
    } else if (id == "newline_index") {
        std::vector<int> cnt = rb<int>("Z", 7 << 20, 1);
        if (cnt.empty()) return;
        const uint8_t *t = reinterpret_cast<const uint8_t *>(buf("RAND8M").words.data());
        std::vector<int> ref;
        for (int i = 0; i < 8388600; ++i) if (t[i] == '\n') ref.push_back(i);
        size_t bad = 0;
        if (cnt[0] == (int)ref.size()) {
            std::vector<int> pos = rb<int>("D", 0, ref.size());
            std::sort(pos.begin(), pos.end());
            for (size_t i = 0; i < ref.size() && i < pos.size(); ++i) bad += pos[i] != ref[i];
        }
        printf("check %s: count %d (CPU %zu), %zu positions wrong\n", id.c_str(), cnt[0], ref.size(), bad);
    } else if (id == "zaxpy_dot") {
        std::vector<double> d = rb<double>("Z", 6 << 20, 2);
        if (d.empty()) return;
        double xv; uint64_t bits = 0x3F8000003F800000ULL; memcpy(&xv, &bits, 8);
        double ar = 0.5, ai = -0.25;
        double yr = xv + ar * xv - ai * xv, yi = xv + ar * xv + ai * xv;
        double rr = 500001.0 * (xv * yr + xv * yi), ri = 500001.0 * (xv * yi - xv * yr);
        printf("check %s: dot (%.6g, %.6g), CPU (%.6g, %.6g)\n", id.c_str(), d[0], d[1], rr, ri);
    } else if (id == "blelloch_nopad") {
        std::vector<float> o = rb<float>("C", 0, 1000003);
        std::vector<float> s = rb<float>("D", 0, 977);
        if (o.empty() || s.empty()) return;
        float maxerr = 0.0f;
        for (int b = 0; b < 977; ++b) {
            float acc = 0.0f;
            for (int k = 0; k < 1024 && b * 1024 + k < 1000003; ++k) {
                maxerr = std::max(maxerr, fabsf(o[b * 1024 + k] - acc));
                acc += f32_of(FR[b * 1024 + k]);
            }
            maxerr = std::max(maxerr, fabsf(s[b] - acc));
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), maxerr);
    } else if (id == "mat4_aos_xform") {
        std::vector<float> o = rb<float>("C", 0, 2000000);
        if (o.empty()) return;
        float maxerr = 0.0f;
        for (size_t i = 0; i < 500000; ++i) {
            float ref = f32_of(FR[4 * i]) + f32_of(FR[4 * i + 1]) + f32_of(FR[4 * i + 2]) + f32_of(FR[4 * i + 3]);
            for (int k = 0; k < 4; ++k) maxerr = std::max(maxerr, fabsf(o[4 * i + k] - ref));
        }
        printf("check %s: max abs error %.3g\n", id.c_str(), maxerr);
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
