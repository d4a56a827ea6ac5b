// warpscope wmma measurement (tests/hw/wmma): host program, copied from tests/hw/blind17/host.cpp
// (same driver loading, buffers, launch and JSON code; the buffers, modules,
// launch table and checks are the wmma suite's; no tensor map is used).
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


static const uint64_t SEED_WM = 2601;
static const std::vector<std::pair<const char *, uint64_t>> SEEDS = {{"WM_* (one stream each, seed + k)", SEED_WM}};

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


// ---------------------------------------------------------------- wmma --
// M = N = K = 256; operands stored with leading dimension up to 256 + 16.
static const int WM = 256, WLD = 272;
enum Ty { TH16, TBF16, TF32, TF64, TS8, TU8, TS32 };
static size_t ty_bytes(Ty t) { return t == TH16 || t == TBF16 ? 2 : t == TF64 ? 8 : t == TS8 || t == TU8 ? 1 : 4; }
static const char *ty_name(Ty t)
{
    static const char *n[] = {"h16", "bf16", "f32", "f64", "s8", "u8", "s32"};
    return n[t];
}
static uint16_t f2bf(float f) { uint32_t x; memcpy(&x, &f, 4); return (uint16_t)(x >> 16); }  // exact for small integers
// WLD x WM small integers (-2..2, u8 0..3; accumulators -4..4) of type t, and their values
static std::map<std::string, std::vector<double>> g_vals;
static void add_matrix(const std::string &name, Ty t, bool acc, uint64_t seed)
{
    Lcg g(seed);
    size_t n = (size_t)WLD * WM;
    std::vector<double> v(n);
    for (auto &x : v) x = t == TU8 ? (double)(g.next() % 4) : acc ? (double)((int)(g.next() % 9) - 4) : (double)((int)(g.next() % 5) - 2);
    std::vector<uint8_t> b(n * ty_bytes(t));
    for (size_t i = 0; i < n; ++i) {
        if (t == TH16) { uint16_t h = f2h((float)v[i]); memcpy(&b[i * 2], &h, 2); }
        else if (t == TBF16) { uint16_t h = f2bf((float)v[i]); memcpy(&b[i * 2], &h, 2); }
        else if (t == TF32) { float f = (float)v[i]; memcpy(&b[i * 4], &f, 4); }
        else if (t == TF64) { memcpy(&b[i * 8], &v[i], 8); }
        else if (t == TS32) { int32_t k = (int32_t)v[i]; memcpy(&b[i * 4], &k, 4); }
        else { int8_t k = (int8_t)v[i]; memcpy(&b[i], &k, 1); }
    }
    g_vals[name] = v;
    std::string what = std::string("wmma: ") + ty_name(t) + " [272][256] small integers (" + (t == TU8 ? "0..3" : acc ? "-4..4" : "-2..2") + ", LCG seed " + std::to_string(seed) + ")";
    add_words(strdup(name.c_str()), bytes_to_words(b), strdup(what.c_str()));
}

static void make_buffers()
{
    const Ty ins[] = {TH16, TBF16, TF32, TF64, TS8, TU8};
    uint64_t s = SEED_WM;
    for (Ty t : ins) {
        add_matrix(std::string("A_") + ty_name(t), t, false, s++);
        add_matrix(std::string("B_") + ty_name(t), t, false, s++);
    }
    const Ty accs[] = {TF32, TH16, TF64, TS32};
    for (Ty t : accs) {
        add_matrix(std::string("C0_") + ty_name(t), t, true, s++);
        add_fill(strdup((std::string("C_") + ty_name(t)).c_str()), (size_t)WLD * WM * ty_bytes(t), 0u, "wmma: the result, zero before each launch's kernel writes it");
    }
}

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
    {"wmma", "tests/hw/wmma/wmma.ptx"},
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

// what each launch computes, for the check
struct Gemm { Ty in, acc; bool ra, rb, rc; int lda, ldb, ldc; };
static std::map<std::string, Gemm> g_gemm;

static void G(const std::string &id, Ty in, Ty acc, int tm, int tn, bool shared, bool ra, bool rb, bool rc, int lda, int ldb, int ldc, const char *note)
{
    unsigned gx = WM / (shared ? 2 * tn : tn), gy = WM / (shared ? 2 * tm : tm);
    std::string a = std::string("A_") + ty_name(in), b = std::string("B_") + ty_name(in);
    std::string c0 = std::string("C0_") + ty_name(acc), c = std::string("C_") + ty_name(acc);
    L(id, "wmma", id, gx, gy, 1, shared ? 128 : 32, 1, 1,
      {P(strdup(a.c_str())), P(strdup(b.c_str())), P(strdup(c0.c_str())), P(strdup(c.c_str())), S32(WM), S32(lda), S32(ldb), S32(ldc)}, note);
    g_gemm[id] = Gemm{in, acc, ra, rb, rc, lda, ldb, ldc};
}

static void make_launches()
{
    const bool R = true, C = false;
    // straight from global memory: one warp a tile
    G("g_h16_rr_f32r", TH16, TF32, 16, 16, false, R, R, R, 256, 256, 256, "f16 m16n16k16, A row, B row, f32 C row, from global");
    G("g_h16_cc_f32c", TH16, TF32, 16, 16, false, C, C, C, 272, 256, 272, "f16 m16n16k16, A col (ld 272), B col, f32 C col (ld 272), from global");
    G("g_h16_rc_h16r", TH16, TH16, 16, 16, false, R, C, R, 256, 256, 256, "f16 m16n16k16, A row, B col, f16 C row, from global");
    G("g_h16_cr_h16c", TH16, TH16, 16, 16, false, C, R, C, 256, 272, 256, "f16 m16n16k16, A col, B row (ld 272), f16 C col, from global");
    G("g_h32x8_rr_f32r", TH16, TF32, 32, 8, false, R, R, R, 256, 256, 256, "f16 m32n8k16, A row, B row, f32 C row, from global");
    G("g_h8x32_cr_f32c", TH16, TF32, 8, 32, false, C, R, C, 256, 256, 256, "f16 m8n32k16, A col, B row, f32 C col, from global");
    G("g_bf16_rc_f32r", TBF16, TF32, 16, 16, false, R, C, R, 256, 256, 256, "bf16 m16n16k16, A row, B col, f32 C row, generic addresses of global memory");
    G("g_tf32_rr_f32r", TF32, TF32, 16, 16, false, R, R, R, 256, 272, 256, "tf32 m16n16k8, A row, B row (ld 272), f32 C row, generic addresses of global memory");
    G("g_tf32_cc_f32c", TF32, TF32, 16, 16, false, C, C, C, 256, 256, 256, "tf32 m16n16k8, A col, B col, f32 C col, generic addresses of global memory");
    G("g_f64_rc_f64r", TF64, TF64, 8, 8, false, R, C, R, 256, 256, 256, "f64 m8n8k4, A row, B col, f64 C row, generic addresses of global memory");
    G("g_f64_cr_f64c", TF64, TF64, 8, 8, false, C, R, C, 256, 256, 272, "f64 m8n8k4, A col, B row, f64 C col (ld 272), generic addresses of global memory");
    G("g_s8_rc_s32r", TS8, TS32, 16, 16, false, R, C, R, 256, 256, 256, "s8 m16n16k16, A row, B col, s32 C row, from global");
    G("g_u8_32x8_cr_s32c", TU8, TS32, 32, 8, false, C, R, C, 256, 256, 256, "u8 m32n8k16, A col, B row, s32 C col, from global");
    // through padded shared tiles: 2 x 2 warps a block
    G("s_h16_rr_f32r_p8", TH16, TF32, 16, 16, true, R, R, R, 256, 256, 256, "f16 m16n16k16 from shared tiles padded by 8 halves (A ld 24, B ld 40), f32 C through a shared tile (ld 36)");
    G("s_h16_rr_f32r_p0", TH16, TF32, 16, 16, true, R, R, R, 256, 256, 256, "f16 m16n16k16 from unpadded shared tiles (A ld 16, B ld 32), f32 C through a shared tile (ld 32)");
    G("s_h16_cc_f32c_p8", TH16, TF32, 16, 16, true, C, C, C, 256, 256, 256, "f16 m16n16k16, A col and B col from shared tiles padded by 8 (ld 40, 24), f32 C col through shared (ld 36)");
    G("s_h16_rc_h16r_p0", TH16, TH16, 16, 16, true, R, C, R, 256, 256, 256, "f16 m16n16k16, A row, B col from unpadded shared tiles (ld 16), f16 C row through shared (ld 40)");
    G("s_h32x8_cr_f32c_p8", TH16, TF32, 32, 8, true, C, R, C, 256, 256, 256, "f16 m32n8k16, A col (ld 72), B row (ld 24) from shared, f32 C col through shared (ld 64)");
    G("s_bf16_rc_f32r_p16", TBF16, TF32, 16, 16, true, R, C, R, 256, 256, 256, "bf16 m16n16k16, A row, B col from shared tiles padded by 16 (ld 32), generic addresses; f32 C row through shared (ld 36)");
    G("s_tf32_rr_f32r_p4", TF32, TF32, 16, 16, true, R, R, R, 256, 256, 256, "tf32 m16n16k8, A row (ld 12), B row (ld 36) from shared, generic addresses; f32 C row through shared (ld 36)");
    G("s_tf32_cc_f32c_p0", TF32, TF32, 16, 16, true, C, C, C, 256, 256, 256, "tf32 m16n16k8, A col (ld 32), B col (ld 8) from unpadded shared, generic addresses; f32 C col through shared (ld 32)");
    G("s_f64_rr_f64r_p4", TF64, TF64, 8, 8, true, R, R, R, 256, 256, 256, "f64 m8n8k4, A row (ld 8), B row (ld 20) from shared, generic addresses; f64 C row through shared (ld 16)");
    G("s_f64_cc_f64c_p0", TF64, TF64, 8, 8, true, C, C, C, 256, 256, 256, "f64 m8n8k4, A col (ld 16), B col (ld 4) from unpadded shared, generic addresses; f64 C col through shared (ld 18)");
    G("s_s8_rc_s32r_p16", TS8, TS32, 16, 16, true, R, C, R, 256, 256, 256, "s8 m16n16k16, A row, B col from shared tiles padded by 16 bytes (ld 32), s32 C row through shared (ld 36)");
    G("s_u8_rr_s32c_p0", TU8, TS32, 16, 16, true, R, R, C, 256, 256, 256, "u8 m16n16k16, A row (ld 16), B row (ld 32) from unpadded shared, s32 C col through shared (ld 32)");
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
    fprintf(f, "  \"note\": \"Written by tests/hw/wmma/host.cpp. Launches run once each, in this order, on one stream. "
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
static void check_launch(const Launch &l)
{
    const Gemm &g = g_gemm.at(l.id);
    std::string a = std::string("A_") + ty_name(g.in), b = std::string("B_") + ty_name(g.in);
    std::string c0 = std::string("C0_") + ty_name(g.acc), c = std::string("C_") + ty_name(g.acc);
    const std::vector<double> &A = g_vals.at(a), &B = g_vals.at(b), &C0 = g_vals.at(c0);
    size_t n = (size_t)WLD * WM;
    std::vector<uint8_t> o = rb<uint8_t>(c, 0, n * ty_bytes(g.acc));
    if (o.empty()) return;
    auto at = [](bool row, int r, int cc, int ld) { return row ? (size_t)r * ld + cc : (size_t)cc * ld + r; };
    auto got = [&](size_t i) -> double {
        if (g.acc == TF32) { float f; memcpy(&f, &o[i * 4], 4); return f; }
        if (g.acc == TF64) { double d; memcpy(&d, &o[i * 8], 8); return d; }
        if (g.acc == TS32) { int32_t k; memcpy(&k, &o[i * 4], 4); return k; }
        uint16_t h; memcpy(&h, &o[i * 2], 2); return half_to_float(h);
    };
    size_t bad = 0;
    double worst = 0;
    for (int m = 0; m < WM; ++m)
        for (int nn = 0; nn < WM; ++nn) {
            double s = C0[at(g.rc, m, nn, g.ldc)];
            for (int k = 0; k < WM; ++k) s += A[at(g.ra, m, k, g.lda)] * B[at(g.rb, k, nn, g.ldb)];
            double e = fabs(got(at(g.rc, m, nn, g.ldc)) - s);
            worst = std::max(worst, e);
            bad += e != 0;
        }
    printf("check %s: %zu of 65,536 differ (max abs error %.3g)\n", l.id.c_str(), bad, worst);
    // the next launch with this accumulator type starts from zero again
    p_cuMemsetD32(buf(c).ptr, 0u, buf(c).bytes / 4);
}

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
