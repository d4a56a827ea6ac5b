// warpscope sixth held-out batch (tests/hw/blind6): host program, copied from tests/hw/blind5/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules and
// launch table are the sixth blind batch's).
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

static const uint64_t SEED_RIDX = 6161;
static const uint64_t SEED_IDX64 = 6262;
static const uint64_t SEED_SLOTS = 6363;
static const uint64_t SEED_BTAB = 6464;
static const uint64_t SEED_SEQLENS = 6565;
static const uint64_t SEED_CSR = 6666;
static const uint64_t SEED_ELL = 6767;
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
    add_fill("A", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word (as fp16 pairs: 0x0000, 0x3F80)");
    add_fill("B", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word (as fp16 pairs: 0x0000, 0x3F80)");
    add_fill("C", 64 * MiB, 0x00000000u, "zero");
    add_fill("D", 64 * MiB, 0x00000000u, "zero");
    add_fill("X", 4 * MiB, 0x3F800000u, "float32 1.0 (1,048,576 floats)");
    add_fill("Y", 4 * MiB, 0x40000000u, "float32 2.0 (1,048,576 floats)");
    add_fill("SCAN", 65536, 0x00000000u, "zero (scan tile status words at byte 0, tile counter at byte 32,768, histogram at byte 40,960)");
    add_words("RAND8M", lcg_words(2097152, SEED_RAND8M),
              "2,097,152 uint32 words: successive next() of the LCG below seeded with 88 (8 MiB)");
    {
        std::vector<uint32_t> w = lcg_words(65536, SEED_RIDX);
        for (auto &x : w) x %= 50000;
        add_words("RIDX", w, "65,536 int32 row ids: next() mod 50,000 (LCG seed 6161)");
        std::sort(w.begin(), w.end());
        add_words("SIDX", w, "the 65,536 row ids of RIDX sorted ascending (neighbouring entries often equal)");
    }
    {
        std::vector<uint32_t> r = lcg_words(524288, SEED_IDX64), w(2 * r.size());
        for (size_t i = 0; i < r.size(); ++i) { w[2 * i] = r[i] % 1000; w[2 * i + 1] = 0; }
        add_words("IDX64", w, "524,288 int64 indices: next() mod 1,000 (LCG seed 6262)");
    }
    {
        // slot_mapping of 2,048 tokens into 512 blocks x 16 slots: a permutation of the 8,192 slots,
        // every token t with t % 50 == 49 padding (-1)
        std::vector<int32_t> p = permutation(8192, SEED_SLOTS);
        std::vector<uint32_t> w(2 * 2048);
        for (int t = 0; t < 2048; ++t) {
            long long v = t % 50 == 49 ? -1 : p[t];
            memcpy(&w[2 * t], &v, 8);
        }
        add_words("SLOTS", w, "2,048 int64 slots: permutation(8,192, seed 6363)[t], -1 where t % 50 == 49");
    }
    add_words("BTAB", as_words(permutation(2048, SEED_BTAB)), "64 x 32 int32 block table: permutation(2,048, seed 6464)");
    {
        std::vector<uint32_t> w = lcg_words(64, SEED_SEQLENS);
        for (auto &x : w) x = 1 + x % 512;
        add_words("SEQLENS", w, "64 int32 sequence lengths: 1 + next() mod 512 (LCG seed 6565)");
    }
    {
        // CSR, 20,000 rows of next() mod 97 entries, columns next() mod 100,000, one LCG stream
        Lcg g(SEED_CSR);
        std::vector<uint32_t> rp(20001), cols;
        rp[0] = 0;
        for (int r = 0; r < 20000; ++r) {
            uint32_t len = g.next() % 97;
            for (uint32_t k = 0; k < len; ++k) cols.push_back(g.next() % 100000);
            rp[r + 1] = (uint32_t)cols.size();
        }
        add_words("CSRP", rp, "CSR row_ptr of 20,000 rows: a row's length next() mod 97, then its columns next() mod 100,000 (LCG seed 6666, one stream)");
        add_words("CSRC", cols, "CSR column indices (see CSRP)");
    }
    {
        // ELL, 50,000 rows x width 24, column-major; row r has 8 + next() mod 17 entries, the rest -1
        Lcg g(SEED_ELL);
        const int R = 50000, W = 24;
        std::vector<uint32_t> c((size_t)R * W, 0xFFFFFFFFu);
        for (int r = 0; r < R; ++r) {
            int len = 8 + (int)(g.next() % 17);
            for (int k = 0; k < len; ++k) c[(size_t)k * R + r] = g.next() % 50000;
        }
        add_words("ELLC", c, "ELL columns, 50,000 rows x 24 column-major (cols[k * 50,000 + r]): row r has 8 + next() mod 17 entries, each next() mod 50,000, then -1 (LCG seed 6767, one stream)");
    }
    {
        std::vector<uint32_t> w(512);
        for (int t = 0; t < 512; ++t) w[t] = (uint32_t)(t + 100);
        add_words("POS", w, "512 int32 token positions t + 100");
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
    {"blind6", "tests/hw/blind6/blind6.ptx"},
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

// apex's TensorListMetadata<2> (blind6.cu): addresses[2][36], sizes[36],
// block_to_tensor[320], block_to_chunk[320], start_tensor_this_launch: 2,328 bytes.
static const int MT_CHUNK = 65536;
static Param MT_META(unsigned *nblocks)
{
    const int sizes[6] = {100000, 65537, 262144, 3001, 50000, 777777};
    const long long shift[6] = {0, 0, 4, 0, 8, 0};  // byte offsets that break 16-byte alignment (the slow path)
    Param p; p.pointer = false; p.type = "struct"; p.offset = 0; p.ival = 0; p.fval = 0;
    p.blob.assign(2328, 0);
    long long off_in = 0, off_out = 0;
    int blk = 0;
    std::string d = "TensorListMetadata<2> by value (2,328 bytes): 6 tensors of ";
    for (int t = 0; t < 6; ++t) {
        p.patches.push_back({(size_t)(8 * t), {"A", off_in + shift[t]}});
        p.patches.push_back({(size_t)(8 * (36 + t)), {"C", off_out + shift[t] / 2}});
        memcpy(&p.blob[576 + 4 * t], &sizes[t], 4);
        d += std::to_string(sizes[t]) + " (float32 at A + " + std::to_string(off_in + shift[t]) + ", fp16 at C + " +
             std::to_string(off_out + shift[t] / 2) + ")" + (t < 5 ? ", " : "");
        for (int c = 0; c * MT_CHUNK < sizes[t]; ++c, ++blk) {
            p.blob[720 + blk] = (uint8_t)t;
            memcpy(&p.blob[1040 + 4 * blk], &c, 4);
        }
        off_in += ((long long)sizes[t] * 4 + 4095) / 4096 * 4096;
        off_out += ((long long)sizes[t] * 2 + 4095) / 4096 * 4096;
    }
    d += "; chunks of 65,536: " + std::to_string(blk) + " blocks";
    p.desc = d;
    *nblocks = (unsigned)blk;
    return p;
}

static void make_launches()
{
    const char *K = "blind6";
    // PyTorch ATen
    L("index_select_rand", K, "aten_index_select", 1024, 1, 1, 256, 1, 1, {P("A"), P("RIDX"), P("C"), S32(20000), S32(100)},
      "index_select dim 0: 20,000 random rows (of 50,000) of 100 floats, one linear index over the output, grid-stride 1,024 x 256");
    L("index_select_sorted", K, "aten_index_select", 2048, 1, 1, 256, 1, 1, {P("A"), P("SIDX"), P("C"), S32(30000), S32(37)},
      "index_select dim 0: 30,000 sorted row ids (neighbours often equal) of 37-float rows, grid-stride 2,048 x 256");
    L("embedding_bwd_sorted", K, "aten_embedding_bwd_atomic", 4096, 1, 1, 64, 4, 1, {P("A"), P("SIDX"), P("C"), S32(16384), S32(64)},
      "embedding backward, atomicAdd f32 into grad_weight rows of 64 by 16,384 sorted token ids, 64 x 4 blocks (a token per threadIdx.y)");
    L("embedding_bwd_rand", K, "aten_embedding_bwd_atomic", 4096, 1, 1, 64, 4, 1, {P("A"), P("RIDX"), P("C"), S32(16384), S32(100)},
      "embedding backward, atomicAdd f32 into grad_weight rows of 100 by 16,384 random token ids, 64 x 4 blocks (the second pass 36 of 64 lanes)");
    L("scatter_add_dim0", K, "aten_scatter_add_dim0", 512, 1, 1, 128, 1, 1, {P("C"), P("IDX64"), P("A"), S32(2000), S32(129), S32(1000)},
      "scatter_add_ dim 0: self 1,000 x 129, src/index 2,000 x 129 (int64 random rows), atomicAdd, grid-stride 512 x 128");
    L1("gather_dim1", K, "aten_gather_dim1", {P("A"), P("IDX64"), P("C"), S32(4000), S32(77), S32(500)}, 4000 * 77, 256,
       "torch.gather dim 1: 4,000 rows of 500 floats, 77 int64 random columns a row");
    L1("vec4_axpby", K, "aten_vec4_axpby", {P("A"), P("B"), P("C"), S32(1000003), F32(2.0f)}, 977 * 128, 128,
       "vectorized elementwise a * alpha + b: aligned_vector<float, 4>, two vectors a thread (1,024 elements a block of 128), the last block's 579 elements by the scalar path; n = 1,000,003");
    L("reduce_inner_vec", K, "aten_reduce_inner_vec", 1000, 1, 1, 32, 4, 1, {P("A"), P("C"), S32(4000), S32(1001)},
      "sum over the inner dim: a warp per row of 1,001 floats (rows 4-byte aligned only), scalar head to 16-byte alignment, float4 body, scalar tail; 32 x 4 blocks");
    L1("upsample_bilinear", K, "aten_upsample_bilinear", {P("A"), P("C"), S32(16), S32(100), S32(75), S32(256), S32(192)}, 256 * 192, 256,
       "upsample_bilinear2d NCHW, 16 planes 100 x 75 -> 256 x 192, align_corners false, a thread per output pixel looping over planes");
    L1("im2col_k3s2", K, "aten_im2col_s2", {P("A"), P("C"), S32(64), S32(57), S32(57), S32(29), S32(29)}, 64 * 29 * 29, 256,
       "im2col NCHW, 64 channels 57 x 57, kernel 3 x 3, pad 1, stride 2 (29 x 29 columns)");
    L("transpose_tile33", K, "aten_transpose_tile33", 25, 32, 1, 32, 8, 1, {P("A"), P("C"), S32(1000), S32(777)},
      "tiled transpose of a 1,000 x 777 float matrix through a 32 x 33 shared tile, 32 x 8 threads, edges masked");
    // llama.cpp / ggml
    L("mmvq_q8_0", K, "ggml_mmvq_q8_0", 450, 1, 1, 32, 4, 1, {P("RAND8M"), P("A"), P("C"), S32(1800), S32(4096)},
      "mul_mat_vec_q q8_0 x q8_1: 1,800 rows of 128 random 34-byte block_q8_0 (get_int_b2: two 16-bit loads an int), 36-byte block_q8_1 activations, vdr 2, a warp per row, 32 x 4 blocks");
    L("rms_norm_f32", K, "ggml_rms_norm_f32", 300, 1, 1, 1024, 1, 1, {P("A"), P("C"), S32(4000), S32(4096), F32(1e-6f)},
      "ggml rms_norm_f32<1024>: 300 rows of 4,000 floats at stride 4,096, a block of 1,024 per row, s_sum[32]");
    L("rope_norm", K, "ggml_rope_norm", 16384, 1, 1, 1, 256, 1,
      {P("A"), P("C"), S32(128), S32(32), S32(128), S32(4096), S32(128), P("POS"), F32(0.8659643f)},
      "ggml rope (normal): 512 tokens x 32 heads x 128, blocks 1 x 256 (threads with i0 >= 128 return), pairs (i0, i0 + 1)");
    L("rope_neox_partial", K, "ggml_rope_neox", 8192, 1, 1, 1, 256, 1,
      {P("A"), P("C"), S32(128), S32(16), S32(384), S32(6144), S32(96), P("POS"), F32(0.8254042f)},
      "ggml rope (NeoX) on a view of fused QKV rows (row stride 384, token stride 6,144): 512 tokens x 16 heads x 128, n_dims 96 (the last 32 copied), pairs (i, i + 48)");
    L("mmq_q8_0_tile", K, "ggml_mmq_q8_0_tile", 29, 2, 1, 32, 4, 1, {P("RAND8M"), P("A"), P("C"), S32(1800), S32(4096), S32(8)},
      "mmq-style q8_0 x q8_1: 64-row tiles of 8 block_q8_0 (x_qs[64][65] ints via get_int_b2, x_df[64][9]) and 4 y columns per 4-warp block, 1,800 rows (last tile clamped), 8 columns");
    // vLLM / FlashInfer
    L("reshape_and_cache", K, "vllm_reshape_and_cache", 2048, 1, 1, 256, 1, 1,
      {P("A"), P("B"), P("C"), P("D"), P("SLOTS"), S32(3072), S32(8), S32(128), S32(16)},
      "vLLM reshape_and_cache: 2,048 tokens (key/value rows at stride 3,072 halves) into a 512-block paged cache (8 heads x 128, block 16; key [blocks, heads, 16, 16, 8], value [blocks, heads, 128, 16]), random slots, every 50th token padding");
    L("decode_paged_warp", K, "flashinfer_decode_paged", 64, 2, 1, 32, 4, 1,
      {P("X"), P("A"), P("B"), P("BTAB"), P("SEQLENS"), P("C"), S32(8), S32(32), F32(0.0883883f)},
      "paged decode attention, one warp per head (4 a block): 64 sequences of 1..512 tokens (random), 8 heads x 128 fp16, NHD cache [2,048 blocks, 16, 8, 128], block table a permutation");
    L("topp_scan_v32000", K, "flashinfer_topp_scan", 64, 1, 1, 256, 1, 1, {P("A"), P("C"), S32(32000), F32(0.9f)},
      "top-p renormalisation: 64 rows of 32,000 probabilities, 256 threads x float4 chunks, block scan (shuffles + shared warp totals)");
    L("topp_scan_t32003", K, "flashinfer_topp_scan", 64, 1, 1, 256, 1, 1, {P("A"), P("C"), S32(32003), F32(0.9f)},
      "top-p renormalisation: 64 rows of 32,003 probabilities (odd rows: the scalar path, the vocabulary tail masked)");
    // Megatron / apex
    L("causal_softmax_768", K, "megatron_causal_softmax", 192, 24, 1, 32, 4, 1, {P("A"), P("C"), F32(0.125f), S32(768)},
      "Megatron scaled_upper_triang_masked_softmax forward: 24 x 768 x 768 fp16, a warp per row, 8 vectors of 4 halves a lane (element 4 * lane + it * 32), causal");
    {
        unsigned nb = 0;
        Param meta = MT_META(&nb);
        L("multi_tensor_scale", K, "apex_multi_tensor_scale", nb, 1, 1, 256, 1, 1, {S32(MT_CHUNK), meta, F32(0.5f)},
          "apex multi_tensor_apply scale float32 -> fp16 over 6 tensors (TensorListMetadata<2> by value), chunks of 65,536, the vector path where aligned");
    }
    L("bias_gelu", K, "megatron_bias_gelu", 1320, 1, 1, 256, 1, 1, {P("A"), P("B"), P("C"), P("D"), S32(12288000), S32(3000)},
      "fused bias + GeLU (tanh), 4,096 x 3,000 floats, bias[i % 3,000], the biased input saved, grid-stride 1,320 x 256");
    // classic HPC
    L("stencil2d_box9", K, "hpc_stencil2d_box9", 63, 63, 1, 16, 16, 1, {P("A"), P("C"), S32(1000), S32(999)},
      "2-D 9-point box stencil, 1,000 x 999, 16 x 16 tiles with an 18 x 18 halo tile in shared (cooperative clamped load)");
    L("stencil3d_zmarch", K, "hpc_stencil3d_zmarch", 7, 17, 1, 32, 8, 1, {P("A"), P("C"), S32(200), S32(130), S32(60)},
      "3-D 7-point stencil 200 x 130 x 60, 32 x 8 xy tiles with halos in shared, marching along z with z neighbours in registers");
    L1("spmv_ell_pad", K, "hpc_spmv_ell_pad", {P("ELLC"), P("A"), P("Y"), P("C"), S32(50000), S32(24)}, 50000, 128,
       "ELL SpMV, 50,000 rows x width 24 column-major, -1 padding past each row's 8..24 entries, random columns, a thread per row");
    L("spmv_csr_warp", K, "hpc_spmv_csr_warp", 2500, 1, 1, 256, 1, 1, {P("CSRP"), P("CSRC"), P("A"), P("B"), P("C"), S32(20000)},
      "CSR-vector SpMV, a warp per row, 20,000 rows of 0..96 random columns, double values, row bounds by lanes 0/1 and shuffles");
    L("lookback_scan", K, "hpc_lookback_scan", 977, 1, 1, 256, 1, 1, {P("RAND8M"), P("C"), P("SCAN"), P("SCAN", 32768), S32(1000000)},
      "single-pass decoupled-lookback inclusive scan of 1,000,000 ints (low bytes), tiles of 1,024, dynamic tile ids, 64-bit status words, bounded polls");
    L("bitonic_kv2048", K, "hpc_bitonic_kv2048", 512, 1, 1, 1024, 1, 1, {P("RAND8M"), P("C"), P("D")},
      "bitonic sort of 512 x 2,048 random uint32 keys with int values in shared memory, 1,024 threads a block, a pair per thread and step");
    L("hist_u8bins", K, "hpc_hist_u8bins", 264, 1, 1, 256, 1, 1, {P("RAND8M"), P("SCAN", 40960), S32(2000000)},
      "byte histogram of 2,000,000 words (bits 8..15), per-warp 8-bit bins packed 4 a word (shared atomicAdd of 1 << 8k), flushed every 7 rounds into 32-bit block bins");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind6/host.cpp. Launches run once each, in this order, on one stream. "
               "Pointer params: buffer name + byte offset; every buffer is cuMemAlloc'd with its size rounded up to a multiple of 2 MiB; the run prints each base mod 4096 (0 for all in the committed measurement, see README). "
               "Scalar params: value by PTX parameter index.\",\n");
    fprintf(f, "  \"permutation_generator\": {\"algorithm\": \"state = state * %llu + %llu (mod 2^64); next() = state >> 32; "
               "p = identity; for i = n-1 down to 1: j = next() %% (i+1); swap(p[i], p[j])\", \"reference\": \"tests/hw/lcg_perm.py\", "
               "\"seeds\": {\"RAND8M (successive next() words, no shuffle)\": %llu, \"RIDX\": %llu, \"IDX64\": %llu, \"SLOTS\": %llu, \"BTAB\": %llu, \"SEQLENS\": %llu, \"CSR\": %llu, \"ELL\": %llu}},\n",
            (unsigned long long)LCG_A, (unsigned long long)LCG_C, (unsigned long long)SEED_RAND8M, (unsigned long long)SEED_RIDX,
            (unsigned long long)SEED_IDX64, (unsigned long long)SEED_SLOTS, (unsigned long long)SEED_BTAB,
            (unsigned long long)SEED_SEQLENS, (unsigned long long)SEED_CSR, (unsigned long long)SEED_ELL);
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
