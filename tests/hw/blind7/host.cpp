// warpscope seventh held-out batch (tests/hw/blind7): host program, copied from tests/hw/blind6/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules and
// launch table are the seventh blind batch's; tensor maps may carry a 64-byte swizzle).
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

static const uint64_t SEED_RAND8M = 77;
static const uint64_t SEED_PERM = 7171;
static const uint64_t SEED_SRT = 7272;
static const uint64_t SEED_RIDS = 7373;
static const uint64_t SEED_CSR = 7474;
static const uint64_t SEED_SKEYS = 7575;
static const uint64_t SEED_PTS = 7676;

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
    add_fill("A", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word (as fp16 pairs: 0x0000, 0x3F80; as doubles 0x3F8000003F800000)");
    add_fill("B", 64 * MiB, 0x3F800000u, "float32 1.0 in every 4-byte word");
    add_fill("C", 64 * MiB, 0x00000000u, "zero");
    add_fill("D", 64 * MiB, 0x00000000u, "zero");
    add_words("RAND8M", lcg_words(2097152, SEED_RAND8M),
              "2,097,152 uint32 words: successive next() of the LCG below seeded with 77 (8 MiB)");
    add_words("PERM", as_words(permutation(1048576, SEED_PERM)), "a permutation of 1,048,576 int32 (seed 7171)");
    {
        std::vector<uint32_t> w = lcg_words(1048576, SEED_SRT);
        for (auto &x : w) x %= 1048576;
        std::sort(w.begin(), w.end());
        add_words("SRT", w, "1,048,576 int32: next() mod 1,048,576 (LCG seed 7272) sorted ascending (repeats and gaps)");
    }
    {
        std::vector<uint32_t> w = lcg_words(65536, SEED_RIDS);
        for (auto &x : w) x %= 50000;
        add_words("RIDS", w, "65,536 int32 row ids: next() mod 50,000 (LCG seed 7373)");
        std::sort(w.begin(), w.end());
        add_words("SIDS", w, "the 65,536 row ids of RIDS sorted ascending (neighbouring entries often equal)");
    }
    {
        // CSR, 30,000 rows of next() mod 33 entries, columns next() mod 20,000, one LCG stream
        Lcg g(SEED_CSR);
        std::vector<uint32_t> rp(30001), cols;
        rp[0] = 0;
        for (int r = 0; r < 30000; ++r) {
            uint32_t len = g.next() % 33;
            for (uint32_t k = 0; k < len; ++k) cols.push_back(g.next() % 20000);
            rp[r + 1] = (uint32_t)cols.size();
        }
        add_words("CSRP", rp, "CSR row_ptr of 30,000 rows: a row's length next() mod 33, then its columns next() mod 20,000 (LCG seed 7474, one stream)");
        add_words("CSRC", cols, "CSR column indices (see CSRP)");
    }
    {
        std::vector<uint32_t> w = lcg_words(1000003, SEED_SKEYS);
        for (auto &x : w) x %= 100000;
        std::sort(w.begin(), w.end());
        add_words("SKEYS", w, "1,000,003 int32 keys: next() mod 100,000 (LCG seed 7575) sorted ascending (runs of about 10 equal keys)");
    }
    {
        std::vector<uint32_t> w = lcg_words(200003 * 8, SEED_PTS);
        for (auto &x : w) { float f = (float)(x >> 8) * (1.0f / 16777216.0f); memcpy(&x, &f, 4); }
        add_words("PTS", w, "200,003 points of 8 float32: (next() >> 8) / 2^24 (LCG seed 7676); the first 48 points are the centroids");
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
    {"blind7", "tests/hw/blind7/blind7.ptx"},
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
    const char *K = "blind7";
    // CUB / libcu++ / cooperative groups
    L("cub_direct_reduce_tail", K, "cub_direct_reduce", 1954, 1, 1, 128, 1, 1, {P("A"), P("C"), S32(1000003)},
      "cub::BlockLoad BLOCK_LOAD_DIRECT (4 blocked floats a thread) + BlockReduce sum, 512-float tiles, n = 1,000,003 (the last tile partial: valid_items)");
    L("cub_direct_reduce_off4", K, "cub_direct_reduce", 512, 1, 1, 128, 1, 1, {P("A", 4), P("C"), S32(262144)},
      "cub::BlockLoad BLOCK_LOAD_DIRECT + BlockReduce, n = 262,144 (whole tiles), the input 4 bytes past a 4 KiB boundary");
    L("cub_vec_scan", K, "cub_vec_scan", 977, 1, 1, 256, 1, 1, {P("RAND8M"), P("C"), S32(1000000)},
      "cub::BlockLoad/BlockStore BLOCK_*_VECTORIZE (int4 on full 1,024-int tiles, direct on the tail) + BlockScan exclusive sum of the low bytes, n = 1,000,000");
    L("cub_transpose_runmax", K, "cub_transpose_runmax", 760, 1, 1, 128, 1, 1, {P("A"), P("C"), S32(777777)},
      "cub::BlockLoad/BlockStore BLOCK_*_TRANSPOSE (striped global, blocked registers through shared), 8 items a thread, running max, n = 777,777");
    L("cub_radix_sort_tile", K, "cub_radix_sort_tile", 1024, 1, 1, 128, 1, 1, {P("RAND8M"), P("C")},
      "cub::BlockLoad/BlockStore BLOCK_*_WARP_TRANSPOSE + BlockRadixSort of 1,024 random uint32 keys a block (128 x 8)");
    L("cub_hist_atomic", K, "cub_hist_atomic", 1953, 1, 1, 256, 1, 1, {P("RAND8M"), P("D")},
      "cub::BlockHistogram BLOCK_HISTO_ATOMIC, 256 bins of random bytes (256 threads x 8 striped items), block bins added into the global histogram");
    L("cub_hist_sort", K, "cub_hist_sort", 1953, 1, 1, 256, 1, 1, {P("RAND8M"), P("D", 4096)},
      "cub::BlockHistogram BLOCK_HISTO_SORT (radix sort + run discontinuities), 256 bins of random bytes");
    L("cub_warp_rowstats", K, "cub_warp_rowstats", 751, 1, 1, 128, 1, 1, {P("A"), P("C"), P("D"), S32(3001), S32(1000)},
      "cub::WarpReduce sum + WarpScan inclusive sum, a warp per row of 1,000 floats, 3,001 rows (the last block has one warp with a row)");
    L("pipe_thread_3stage", K, "pipe_thread_3stage", 1024, 1, 1, 128, 1, 1, {P("A"), P("C"), S32(8)},
      "cuda::memcpy_async of 16 bytes a thread with a thread-scope cuda::pipeline, 3 stages (two tiles ahead), 8 tiles of 512 floats a block");
    L("barrier_tile_copy", K, "barrier_tile_copy", 264, 1, 1, 256, 1, 1, {P("A"), P("C"), S32(1000001)},
      "cuda::memcpy_async of 16 bytes a thread completing on a cuda::barrier<thread_scope_block>, 1,024-float tiles grid-stride, n = 1,000,001 (the tail by plain loads), read back at a 256-float stride");
    L("cg_row_normalize_c1000", K, "cg_row_normalize", 2000, 1, 1, 256, 1, 1, {P("A"), P("C"), S32(1000)},
      "cooperative_groups::memcpy_async of a row of 1,000 floats (16-byte aligned rows) + cg::wait, cg::reduce over 32-thread tiles, the row scaled");
    L("cg_row_normalize_c1001", K, "cg_row_normalize", 2000, 1, 1, 256, 1, 1, {P("A"), P("C"), S32(1001)},
      "cooperative_groups::memcpy_async of rows of 1,001 floats (rows only 4-byte aligned) + cg::wait, cg::reduce, the row scaled");
    L("cg_labeled_rand", K, "cg_tile16_labeled", 3907, 1, 1, 256, 1, 1, {P("A"), P("RAND8M"), P("C"), P("D"), S32(1000003), S32(16)},
      "cg::reduce over 16-thread tiles, then cg::labeled_partition of each warp by a random key (next() mod 16) and atomicAdd of each group's sum by its leader; n = 1,000,003");
    L("cg_labeled_sorted", K, "cg_tile16_labeled", 3907, 1, 1, 256, 1, 1, {P("A"), P("SKEYS"), P("C"), P("D"), S32(1000003), S32(100000)},
      "cg::reduce over 16-thread tiles, then cg::labeled_partition by sorted keys (runs of about 10), atomicAdd by group leaders into 100,000 bins");
    // Hopper memory paths
    L("dsmem_pair_shift", K, "dsmem_pair_shift", 3908, 1, 1, 256, 1, 1, {P("A"), P("C"), S32(1000000)},
      "distributed shared memory, clusters of 2 (__cluster_dims__): each thread reads its own value and two of the peer CTA's (shifted, mirrored) through map_shared_rank; n = 1,000,000");
    L("dsmem_cluster_gather", K, "dsmem_cluster_gather", 2000, 1, 1, 128, 1, 1, {P("A"), P("C"), S32(1000)},
      "distributed shared memory, clusters of 4: 128 row partials a CTA, CTA r gathers entries 32r..32r+31 of all four (warp w reads CTA w)");
    L("bulk_segments_2phase", K, "bulk_segments_2phase", 1000, 1, 1, 128, 1, 1, {P("A"), P("C")},
      "1-D cp.async.bulk of segments of 1,008, 2,064 and 400 bytes on one mbarrier with expect_tx (3,472 bytes), two phases a block; the staged floats scaled out by the threads");
    L("tma2d_swz64_rows", K, "tma2d_swz64_rows", 32, 1, 1, 128, 1, 1, {TMAP_SWZ(64, "A", 512, 1000, 16, 32), P("C"), S32(1000)},
      "2-D TMA load, float32 map 512 x 1,000, box 16 x 32 (64-byte rows), 64-byte swizzle, one mbarrier a phase per column tile (32), the last row tile zero-filled past row 1,000; threads un-swizzle and store rows < 1,000");
    L("tma2d_swz128_roundtrip", K, "tma2d_swz128_roundtrip", 125, 1, 1, 128, 1, 1,
      {TMAP_SWZ(128, "A", 256, 1000, 32, 8), TMAP_SWZ(128, "C", 256, 1000, 32, 8)},
      "2-D TMA load and TMA store (cp.async.bulk.tensor global.shared::cta) with 128-byte swizzle, float32 maps 256 x 1,000, box 32 x 8, 8 tiles a block, scaled in place between");
    L("stmatrix_x4_x1t", K, "stmatrix_x4_x1t", 1024, 1, 1, 128, 1, 1, {P("RAND8M"), P("C"), P("D")},
      "stmatrix .x4 of a 16 x 16 fp16 fragment a warp into an 80-half-pitch tile, stmatrix .x1.trans of an 8 x 8 into an unpadded 64-half tile, both copied out with 16-byte loads");
    L("ldnc_rows_rand", K, "ldnc_noalloc_rows", 4096, 1, 1, 256, 1, 1, {P("A"), P("RIDS"), P("C"), S32(65536)},
      "ld.global.nc.L1::no_allocate.v4.f32 of 256-byte rows gathered by 65,536 random row ids (of 50,000), 16 lanes a row");
    L("ldnc_rows_sorted", K, "ldnc_noalloc_rows", 4096, 1, 1, 256, 1, 1, {P("A"), P("SIDS"), P("C"), S32(65536)},
      "ld.global.nc.L1::no_allocate.v4.f32 of 256-byte rows gathered by 65,536 sorted row ids (neighbours often equal)");
    L("red_vec_half_sorted", K, "red_vec_half_rows", 16384, 1, 1, 128, 1, 1, {P("RAND8M"), P("SIDS"), P("C"), P("D"), S32(16384), S32(50000)},
      "red.global.add.noftz.v2.f16x2 (8 bytes a lane) and .v4.bf16x2 (16 bytes, 64 lanes) into 512-byte gradient rows chosen by 16,384 sorted ids, a block per token");
    L("red_vec_half_rand", K, "red_vec_half_rows", 16384, 1, 1, 128, 1, 1, {P("RAND8M"), P("RIDS"), P("C"), P("D"), S32(16384), S32(50000)},
      "red.global.add.noftz.v2.f16x2 and .v4.bf16x2 into gradient rows chosen by 16,384 random ids");
    L("atom_vec_f32", K, "atom_vec_f32", 7813, 1, 1, 128, 1, 1, {P("D"), P("C"), S32(1000003), S32(4099)},
      "atom.global.v4.f32.add into 16-byte bins (i * 7) mod 4,099 and atom.global.v2.f32.add at 8 bytes a thread, old values used; n = 1,000,003");
    // classics
    L("spmm_csr_rowwarp", K, "spmm_csr_rowwarp", 3750, 1, 1, 256, 1, 1, {P("CSRP"), P("CSRC"), P("A"), P("B"), P("C"), S32(30000)},
      "CSR SpMM, 30,000 rows of 0..32 random columns (of 20,000) times a dense 20,000 x 64 matrix: a warp per row, a float2 of the dense row a lane");
    L("seg_warp_reduce_sorted", K, "seg_warp_reduce_sorted", 3907, 1, 1, 256, 1, 1, {P("SKEYS"), P("A"), P("C"), S32(1000003)},
      "segmented warp reduction by sorted keys (__shfl_down_sync), segment heads atomicAdd into out[key]; n = 1,000,003");
    L("conv2d_const5x5", K, "conv2d_const5x5", 32, 125, 1, 32, 8, 1, {P("A"), P("C"), S32(1000), S32(999)},
      "2-D 5 x 5 convolution, filter in __constant__ memory (uniform reads), clamped borders, 1,000 x 999, 32 x 8 blocks");
    L("conv3x3_const_divergent", K, "conv3x3_const_divergent", 63, 63, 1, 16, 16, 1, {P("A"), P("C"), S32(1000), S32(999)},
      "3 x 3 convolution with per-lane __constant__ weight indices (divergent constant reads), interior pixels, 16 x 16 blocks");
    L("transpose_f64_tile33", K, "transpose_f64_tile33", 32, 32, 1, 32, 8, 1, {P("A"), P("C"), S32(999), S32(1001)},
      "transpose of a 999 x 1,001 matrix of doubles through a 32 x 33 double tile, 32 x 8 threads, edges masked");
    L("half2_sum_hadd2", K, "half2_sum_hadd2", 264, 1, 1, 256, 1, 1, {P("A"), P("C"), S32(2000001)},
      "sum of 2,000,001 halves: grid-stride half2 loads accumulated with __hadd2, the odd last half by one thread, shuffles, shared partials, atomicAdd");
    L("perm_gather_rand", K, "perm_gather_f2", 4096, 1, 1, 256, 1, 1, {P("A"), P("PERM"), P("C"), S32(1048576)},
      "permutation gather out[i] = in[perm[i]] of float2, a random permutation of 1,048,576");
    L("perm_gather_sorted", K, "perm_gather_f2", 4096, 1, 1, 256, 1, 1, {P("A"), P("SRT"), P("C"), S32(1048576)},
      "gather out[i] = in[idx[i]] of float2 by sorted random indices (repeats and gaps)");
    L("perm_scatter_rand", K, "perm_scatter_f2", 4096, 1, 1, 256, 1, 1, {P("A"), P("PERM"), P("C"), S32(1048576)},
      "permutation scatter out[perm[i]] = in[i] of float2, a random permutation of 1,048,576");
    L("perm_scatter_sorted", K, "perm_scatter_f2", 4096, 1, 1, 256, 1, 1, {P("A"), P("SRT"), P("C"), S32(1048576)},
      "scatter out[idx[i]] = in[i] of float2 by sorted random indices (repeats: racing writes to one element)");
    L("kmeans_assign8", K, "kmeans_assign8", 1563, 1, 1, 128, 1, 1, {P("PTS"), P("PTS"), P("C"), P("D"), P("D", 4096), S32(200003)},
      "k-means assignment: 200,003 points of 8 floats, 48 centroids in shared memory, nearest by broadcast reads, label stored, atomicAdd of the point into its centroid's sums and count");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/blind7/host.cpp. Launches run once each, in this order, on one stream. "
               "Pointer params: buffer name + byte offset; every buffer is cuMemAlloc'd with its size rounded up to a multiple of 2 MiB; the run prints each base mod 4096 (0 for all in the committed measurement, see README). "
               "Scalar params: value by PTX parameter index.\",\n");
    fprintf(f, "  \"permutation_generator\": {\"algorithm\": \"state = state * %llu + %llu (mod 2^64); next() = state >> 32; "
               "p = identity; for i = n-1 down to 1: j = next() %% (i+1); swap(p[i], p[j])\", \"reference\": \"tests/hw/lcg_perm.py\", "
               "\"seeds\": {\"RAND8M (successive next() words, no shuffle)\": %llu, \"PERM\": %llu, \"SRT (next() words)\": %llu, \"RIDS (next() words)\": %llu, \"CSR\": %llu, \"SKEYS (next() words)\": %llu, \"PTS (next() words)\": %llu}},\n",
            (unsigned long long)LCG_A, (unsigned long long)LCG_C, (unsigned long long)SEED_RAND8M, (unsigned long long)SEED_PERM,
            (unsigned long long)SEED_SRT, (unsigned long long)SEED_RIDS, (unsigned long long)SEED_CSR,
            (unsigned long long)SEED_SKEYS, (unsigned long long)SEED_PTS);
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
