// warpscope fourth held-out batch (tests/hw/blind4): host program, copied from tests/hw/blind3/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules and
// launch table are the fourth blind batch's; a kernel parameter may be a struct
// passed by value whose pointer fields name buffers).
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
#include <cstring>
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

static const uint64_t SEED_BTAB = 4141;
static const uint64_t SEED_CSR = 4242;
static const uint64_t SEED_TOPK = 4343;
static const uint64_t SEED_BAG = 4444;
static const uint64_t SEED_IDX = 4545;
static const uint64_t SEED_LABEL = 4646;
static const uint64_t SEED_GIDX = 4747;
static const uint64_t SEED_MASK = 4848;
static const uint64_t SEED_RAND8M = 88;

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

static void make_buffers()
{
    const size_t MiB = 1 << 20;
    add_fill("A", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word");
    add_fill("B", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word");
    add_fill("C", 64 * MiB, 0x00000000u, "zero");
    add_fill("X", 4 * MiB, 0x3F800000u, "float32 1.0 (1,048,576 floats)");
    add_fill("Y", 4 * MiB, 0x40000000u, "float32 2.0 (1,048,576 floats)");
    add_fill("FFT", 8 * MiB, 0x3F800000u, "float32 1.0 (2^20 float2, transformed in place by the three FFT stages)");
    add_fill("HALF", 1 * MiB, 0x3F000000u, "float32 0.5 (MoE top-k weights)");
    add_words("RAND8M", lcg_words(2097152, SEED_RAND8M),
              "2,097,152 uint32 words: successive next() of the LCG below seeded with 88 (8 MiB)");
    // paged attention: 64 sequences, block tables of 64 entries into 4,096 physical blocks (a permutation)
    add_words("BTAB", as_words(permutation(4096, SEED_BTAB)), "64 x 64 int32 block tables: lcg_perm(n=4096, seed=4141)");
    std::vector<uint32_t> sl(64);
    for (int s = 0; s < 64; ++s) sl[s] = 64 + (s * 97) % 960;
    add_words("SEQLENS", sl, "64 int32 sequence lengths: 64 + (97 s) mod 960");
    // CSR: 20,000 rows of 1 + (7919 r mod 29) nonzeros, columns next() mod 20,000
    {
        std::vector<uint32_t> rp(20001), cols;
        Lcg g(SEED_CSR);
        rp[0] = 0;
        for (int r = 0; r < 20000; ++r) {
            int len = 1 + (int)(((long long)r * 7919) % 29);
            for (int k = 0; k < len; ++k) cols.push_back(g.next() % 20000);
            rp[r + 1] = (uint32_t)cols.size();
        }
        add_words("ROWPTR", rp, "20,001 int32 CSR row offsets: row r has 1 + (7919 r mod 29) nonzeros");
        add_words("COLS", cols, "int32 CSR columns: successive next() mod 20,000 of the LCG seeded with 4242");
    }
    // MoE: 4,096 tokens, top-2 of 64 experts; the permutation sorts (token, k) stably by expert
    {
        std::vector<uint32_t> ids(8192);
        Lcg g(SEED_TOPK);
        for (int t = 0; t < 4096; ++t) {
            uint32_t e1 = g.next() % 64, e2 = (e1 + 1 + g.next() % 63) % 64;
            ids[2 * t] = e1; ids[2 * t + 1] = e2;
        }
        std::vector<uint32_t> src(8192), dst(8192);
        int d = 0;
        for (uint32_t e = 0; e < 64; ++e)
            for (int i = 0; i < 8192; ++i)
                if (ids[i] == e) { src[d] = (uint32_t)i; dst[i] = (uint32_t)d; ++d; }
        add_words("TOPK", ids, "8,192 int32 expert ids (4,096 tokens x top 2 of 64): e1 = next() mod 64, e2 = (e1 + 1 + next() mod 63) mod 64, LCG seed 4343");
        add_words("MOE_SRC", src, "8,192 int32: for each expert-sorted row d, the flat (token, k) index it comes from (stable sort of TOPK by expert)");
        add_words("MOE_DST", dst, "8,192 int32: the inverse of MOE_SRC");
    }
    // embedding bag: 4,096 bags of 1 + next() mod 20 indices into 10,000 rows
    {
        std::vector<uint32_t> off(4097), idx;
        Lcg g(SEED_BAG);
        off[0] = 0;
        for (int b = 0; b < 4096; ++b) {
            int len = 1 + g.next() % 20;
            for (int k = 0; k < len; ++k) idx.push_back(g.next() % 10000);
            off[b + 1] = (uint32_t)idx.size();
        }
        add_words("BAGOFF", off, "4,097 int32 bag offsets: bag b has 1 + next() mod 20 indices (LCG seed 4444, interleaved with the indices)");
        add_words("BAGIDX", idx, "int32 bag indices: next() mod 10,000 (LCG seed 4444)");
    }
    {
        std::vector<uint32_t> w = lcg_words(50000, SEED_IDX);
        for (auto &x : w) x %= 1000;
        add_words("IDXADD", w, "50,000 int32 destination rows: next() mod 1,000 (LCG seed 4545)");
    }
    {
        std::vector<uint32_t> w(2 * 500);
        Lcg g(SEED_LABEL);
        for (int r = 0; r < 500; ++r) {
            long long l = (r % 50 == 49) ? -100 : (long long)(g.next() % 32003);
            w[2 * r] = (uint32_t)(l & 0xFFFFFFFFll);
            w[2 * r + 1] = (uint32_t)((unsigned long long)l >> 32);
        }
        add_words("LABELS", w, "500 int64 labels: next() mod 32,003 (LCG seed 4646, one draw per row not ignored), -100 (ignore_index) for r mod 50 == 49");
    }
    {
        std::vector<uint32_t> w = lcg_words(8192, SEED_GIDX);
        for (auto &x : w) x %= 100000;
        add_words("GIDX", w, "8,192 int32 row ids: next() mod 100,000 (LCG seed 4747)");
    }
    {
        std::vector<uint32_t> w = lcg_words(1048576, SEED_MASK);
        for (auto &x : w) x &= 0x01010101u;
        add_words("MASK", w, "4,096 x 1,024 uint8 mask bytes 0/1: the low bit of each byte of successive next() words (LCG seed 4848)");
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
// no L2 promotion, no OOB fill; TMAP_SWZ128: 128-byte swizzle) over `b`: dims {cols, rows}, row pitch cols*4 bytes, box {bx, by}
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
static Param TMAP_SWZ128(const char *b, unsigned long long cols, unsigned long long rows, unsigned bx, unsigned by)
{
    Param p = TMAP(b, cols, rows, bx, by);
    p.swizzle = 3;
    return p;
}

static Param F32(float v) { Param p = S32(0); uint32_t b; memcpy(&b, &v, 4); p.ival = b; p.type = "f32"; p.fval = v; return p; }

struct Module { std::string name, ptx; };
static const Module MODULES[] = {
    {"blind4", "tests/hw/blind4/blind4.ptx"},
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

// PyTorch's TensorListMetadata<3> (blind4.cu): addresses[3][36], numel_for_tensor[36],
// block_to_tensor[320], block_to_chunk[320], start_tensor_this_launch: 2,616 bytes.
static const int MT_CHUNK = 16384;
static Param MT_META(unsigned *nblocks)
{
    const int sizes[6] = {100000, 4096, 300000, 1000, 65536, 777};
    Param p; p.pointer = false; p.type = "struct"; p.offset = 0; p.ival = 0; p.fval = 0;
    p.blob.assign(2616, 0);
    long long off = 0;
    int blk = 0;
    std::string d = "TensorListMetadata<3> by value (2,616 bytes): 6 float32 tensors of ";
    for (int t = 0; t < 6; ++t) {
        const char *bn[3] = {"A", "B", "C"};
        for (int k = 0; k < 3; ++k) p.patches.push_back({(size_t)(8 * (k * 36 + t)), {bn[k], off}});
        memcpy(&p.blob[864 + 4 * t], &sizes[t], 4);
        d += std::to_string(sizes[t]) + " at byte " + std::to_string(off) + (t < 5 ? ", " : "");
        for (int c = 0; c * MT_CHUNK < sizes[t]; ++c, ++blk) {
            p.blob[1008 + blk] = (uint8_t)t;
            memcpy(&p.blob[1328 + 4 * blk], &c, 4);
        }
        off += ((long long)sizes[t] * 4 + 511) / 512 * 512;
    }
    d += " of A (params), B (grads), C (momentum buffers); chunks of 16,384: " + std::to_string(blk) + " blocks";
    p.desc = d;
    *nblocks = (unsigned)blk;
    return p;
}

static void make_launches()
{
    const char *K = "blind4";
    const int MB32 = 32 << 20;
    const int MB48 = 48 << 20;
    L("mmvq_q4_0_q8_1", K, "mmvq_q4_0_q8_1", 1024, 1, 1, 32, 4, 1, {P("A"), P("B"), P("C"), S32(4096), S32(4096)},
      "llama.cpp q4_0 x q8_1 GEMV, 4,096 x 4,096 (128 blocks of 18 bytes a row), a warp per row, vdr 2, dp4a");
    L("quantize_q8_1", K, "quantize_q8_1", 17, 64, 1, 256, 1, 1, {P("A"), P("C"), S32(4100), S32(4128)},
      "llama.cpp quantize_q8_1: 64 rows of 4,100 floats padded to 4,128, 36-byte blocks");
    L1("dequant_q4_1_h2", K, "dequant_q4_1_h2", {P("RAND8M"), P("C"), S32(100001)}, 800008, 256,
       "100,001 q4_1 blocks of 20 bytes (random) to fp16, a thread per byte pair, half2 stores");
    L("paged_attn_decode", K, "paged_attn_decode", 8, 64, 1, 128, 1, 1,
      {P("C"), P("X"), P("A"), P("B"), S32(4), F32(0.08838835f), P("BTAB"), P("SEQLENS"), S32(64), S32(1024), S32(8192), S32(2048)},
      "vLLM paged attention v1 decode: 64 sequences of 64-1,023 tokens, 8 heads (4 KV heads), head 128, block 16, 4 warps");
    L("moe_align_block", K, "moe_align_block", 1, 1, 1, 64, 1, 1,
      {P("TOPK"), P("C"), P("C", MB32), P("C", MB48), S32(64), S32(16), U64(8192)},
      "vLLM moe_align_block_size: 8,192 top-k ids of 64 experts, one block of 64 threads, (64 + 1) x 64 shared counts");
    L("moe_permute_rows", K, "moe_permute_rows", 8192, 1, 1, 128, 1, 1, {P("A"), P("C"), P("MOE_SRC"), S32(2), S32(256)},
      "MoE permute: 8,192 expert-sorted rows of 2,048 fp16 (uint4) copied from token src/2");
    L("moe_unpermute_reduce", K, "moe_unpermute_reduce", 4096, 1, 1, 256, 1, 1,
      {P("A"), P("MOE_DST"), P("HALF"), P("C"), S32(2), S32(1024)},
      "MoE unpermute: 4,096 tokens sum their 2 expert rows (1,024 half2) weighted");
    L("embbag_mean_f4", K, "embbag_mean_f4", 1024, 1, 1, 32, 4, 1, {P("A"), P("BAGIDX"), P("BAGOFF"), P("C"), S32(4096)},
      "embedding_bag mean: 4,096 bags of 1-20 rows of 128 floats (10,000-row table), a warp per bag, float4");
    L("index_add_rows", K, "index_add_rows", 1024, 1, 1, 256, 1, 1, {P("C"), P("IDXADD"), P("A"), S32(50000), S32(100), F32(1.0f)},
      "index_add_ dim 0: 50,000 source rows of 100 floats into 1,000 rows by index, atomicAdd, grid-stride");
    L1("spmv_csr_sub8", K, "spmv_csr_sub8", {P("ROWPTR"), P("COLS"), P("A"), P("X"), P("C"), S32(20000)}, 160000, 256,
       "CSR SpMV, 20,000 rows of 1-29 nonzeros, 8 lanes per row, __ldg");
    L("stencil25d_r2", K, "stencil25d_r2", 8, 16, 1, 32, 8, 1, {P("A"), P("C"), S32(256), S32(128), S32(64)},
      "2.5-D 13-point stencil (radius 2), 256 x 128 x 64 with 2 ghost cells (pitch 260 floats), 32 x 8 blocks, shared xy halo");
    L1("dwconv5x5_nhwc_h2", K, "dwconv5x5_nhwc_h2", {P("A"), P("X"), P("C"), S32(56), S32(56), S32(32), S32(200704)}, 200704, 256,
       "depthwise 5 x 5 conv, NHWC fp16 2 x 56 x 56 x 64 (half2 over channels), pad 2");
    L1("col2im_k3", K, "col2im_k3", {S32(200704), P("A"), S32(56), S32(56), S32(64), S32(1), S32(56), S32(56), P("C")}, 200704, 256,
       "Caffe col2im: 64 x 56 x 56 image from 3 x 3 columns, pad 1, stride 1");
    L("radix_upsweep_warp", K, "radix_upsweep_warp", 264, 1, 1, 256, 1, 1, {P("RAND8M"), P("C"), S32(524288), S32(8)},
      "radix sort upsweep: 2,097,152 random keys (uint4), digit bits 8-15, per-warp shared histograms, shared atomics");
    L1("blelloch_scan_pad", K, "blelloch_scan_pad", {P("A"), P("C"), P("C", MB32), S32(200000)}, 391 * 256, 256,
       "GPU Gems 3 work-efficient scan, 512 floats per block, conflict-free padding n >> 5, n = 200,000");
    {
        unsigned nb = 0;
        Param meta = MT_META(&nb);
        L("mt_sgd_momentum", K, "mt_sgd_momentum", nb, 1, 1, 512, 1, 1, {S32(MT_CHUNK), meta, F32(0.01f), F32(0.9f)},
          "PyTorch multi_tensor_apply SGD momentum: 6 tensors in a TensorListMetadata kernel parameter, chunks of 16,384, ILP 4");
    }
    L("transpose_swz_f32", K, "transpose_swz_f32", 94, 63, 1, 32, 8, 1, {P("A"), P("C"), S32(2000), S32(3000)},
      "2,000 x 3,000 float32 transpose, 32 x 32 tile with XOR-swizzled columns, 32 x 8 blocks, edge tiles");
    L("transpose_c64_pad", K, "transpose_c64_pad", 47, 32, 1, 32, 8, 1, {P("A"), P("C"), S32(1000), S32(1500)},
      "1,000 x 1,500 complex64 conjugate transpose, float2 tile[32][33], 32 x 8 blocks, edge tiles");
    L("group_norm_nhwc", K, "group_norm_nhwc", 128, 1, 1, 256, 1, 1, {P("A"), P("X"), P("Y"), P("C"), S32(3136), S32(128), S32(32)},
      "group norm NHWC 4 x 56 x 56 x 128, 32 groups of 4 channels (float4), a block per (n, group)");
    L("cross_entropy_fwd", K, "cross_entropy_fwd", 500, 1, 1, 256, 1, 1, {P("A"), P("LABELS"), P("C"), S32(32003), S32(-100)},
      "cross-entropy: 500 rows of 32,003 logits (128,012-byte rows), block max and sum, int64 labels, ignore_index -100 every 50th row");
    for (int s : {0, 4, 10})
        L("fft_radix2_s" + std::to_string(s), K, "fft_radix2_stage", 2048, 1, 1, 256, 1, 1, {P("FFT"), P("X"), S32(20), S32(s)},
          "radix-2 DIT butterfly stage over 2^20 complex64 in place, span 2^s, twiddles strided");
    L("fused_add_rmsnorm_bf16", K, "fused_add_rmsnorm_bf16", 2048, 1, 1, 256, 1, 1,
      {P("B", MB32), P("C"), P("X"), F32(1e-6f), S32(4100), S32(4104)},
      "vLLM fused_add_rms_norm: 2,048 bf16 rows of 4,100 at ld 4,104, uint4 vectors + 4-value scalar tail");
    L1("gather_rows_nc_v4", K, "gather_rows_nc_v4", {P("A"), P("GIDX"), P("C"), S32(8192)}, 131072, 256,
       "8,192 rows of 64 floats gathered by index through ld.global.nc.L1::no_allocate.v4, half a warp per row");
    L("axpby_sizet", K, "axpby_sizet", 200, 1, 1, 256, 1, 1, {P("A"), P("C"), F32(2.0f), F32(0.5f), U64(3000001)},
      "y = a x + b y, n = 3,000,001, size_t grid-stride over 200 x 256 threads");
    L1("relu_h2_tail", K, "relu_h2_tail", {P("A"), P("C"), S32(1000001)}, 500224, 256,
       "ReLU over 1,000,001 fp16: half2 body, one scalar tail element");
    L("scaled_masked_softmax_h4", K, "scaled_masked_softmax_h4", 1024, 1, 1, 32, 4, 1,
      {P("C", MB32), P("A"), P("MASK"), F32(0.125f), S32(4096)},
      "Megatron scaled masked softmax: 4,096 rows of 1,024 fp16, a warp per row, 8-byte copies, uint8 mask");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind4/host.cpp. Launches run once each, in this order, on one stream. "
               "Pointer params: buffer name + byte offset; every buffer is cuMemAlloc'd with its size rounded up to a multiple of 2 MiB; the run prints each base mod 4096 (0 for all in the committed measurement, see README). "
               "Scalar params: value by PTX parameter index.\",\n");
    fprintf(f, "  \"permutation_generator\": {\"algorithm\": \"state = state * %llu + %llu (mod 2^64); next() = state >> 32; "
               "p = identity; for i = n-1 down to 1: j = next() %% (i+1); swap(p[i], p[j])\", \"reference\": \"tests/hw/lcg_perm.py\", "
               "\"seeds\": {\"RAND8M (successive next() words, no shuffle)\": %llu, \"BTAB perm\": %llu, \"CSR\": %llu, \"TOPK\": %llu, \"BAG\": %llu, \"IDXADD\": %llu, \"LABELS\": %llu, \"GIDX\": %llu, \"MASK\": %llu}},\n",
            (unsigned long long)LCG_A, (unsigned long long)LCG_C, (unsigned long long)SEED_RAND8M,
            (unsigned long long)SEED_BTAB, (unsigned long long)SEED_CSR, (unsigned long long)SEED_TOPK, (unsigned long long)SEED_BAG,
            (unsigned long long)SEED_IDX, (unsigned long long)SEED_LABEL, (unsigned long long)SEED_GIDX, (unsigned long long)SEED_MASK);
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
                        box.c_str(), es.c_str(), p.swizzle == 3 ? "128B" : "none");
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
        ++ran;
    }
    printf("ran %d launches\n", ran);
    return 0;
}
