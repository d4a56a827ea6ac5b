// The confirmation run's Triton experiment (issue 11: tt_matmul_ampere line 46
// measures 4 wavefronts per LDGSTS where the one-warp probe of the same lane
// layout measures 8). Replicas of Triton's A-tile copy (tests/hw/triton/
// tt_matmul_ampere.ptx, line 46): thread t copies 16 bytes from row
// (blockIdx.x % 16) * 64 + (t >> 2) (+ 32 for the second copy) of a 1024 x 1024
// fp16 matrix (2,048-byte rows), column chunk t & 3 (+ 4 k for iteration k), to
// shared offset (16 t ^ (2 t & 48)) & 2047 (+ 2,048 for the second copy), in
// several launch shapes; then the Triton cubin itself (driver API) as it ran.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <dlfcn.h>
#include <cuda_runtime.h>

// plain form (LDGSTS.E.BYPASS.128)
extern "C" __global__ void __launch_bounds__(128) ttrep_plain(const char* A, int iters)
{
    extern __shared__ __align__(1024) char s[];
    int t = threadIdx.x;
    unsigned sb = (unsigned)__cvta_generic_to_shared(s);
    unsigned d = sb + ((16 * t) ^ (2 * t & 48)) % 2048;
    const char* g = A + (size_t)((blockIdx.x % 16) * 64 + (t >> 2)) * 2048 + 16 * (t & 3);
    for (int k = 0; k < iters; ++k) {
        unsigned st = (k & 1) * 4096;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d + st), "l"(g + 64 * k) : "memory");
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d + st + 2048), "l"(g + 64 * k + 32 * 2048) : "memory");
        asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
        __syncthreads();
    }
}

// Triton's form: src-size (col < K) ? 16 : 0 (ptxas: LDGSTS with a predicate)
extern "C" __global__ void __launch_bounds__(128) ttrep_sel(const char* A, int iters, int K)
{
    extern __shared__ __align__(1024) char s[];
    int t = threadIdx.x;
    unsigned sb = (unsigned)__cvta_generic_to_shared(s);
    unsigned d = sb + ((16 * t) ^ (2 * t & 48)) % 2048;
    const char* g = A + (size_t)((blockIdx.x % 16) * 64 + (t >> 2)) * 2048 + 16 * (t & 3);
    for (int k = 0; k < iters; ++k) {
        unsigned st = (k & 1) * 4096;
        int zs = (8 * (t & 3) < K - 32 * k) ? 16 : 0;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d + st), "l"(g + 64 * k), "r"(zs) : "memory");
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d + st + 2048), "l"(g + 64 * k + 32 * 2048), "r"(zs) : "memory");
        asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
        __syncthreads();
    }
}

int main(int argc, char** argv)
{
    char *A, *B, *C;
    cudaMalloc(&A, 2 << 20); cudaMalloc(&B, 2 << 20); cudaMalloc(&C, 2 << 20);
    cudaMemset(A, 0, 2 << 20); cudaMemset(B, 0, 2 << 20);
    struct L { int grid, block, iters; } ls[] = {{1, 32, 1}, {1, 128, 1}, {256, 128, 1}, {256, 128, 32}};
    int k = 0;
    for (auto l : ls) {
        ttrep_plain<<<l.grid, l.block, 16384>>>(A, l.iters);
        printf("launch %d ttrep_plain grid %d block %d iters %d\n", k++, l.grid, l.block, l.iters);
    }
    for (auto l : ls) {
        ttrep_sel<<<l.grid, l.block, 16384>>>(A, l.iters, 1024);
        printf("launch %d ttrep_sel grid %d block %d iters %d\n", k++, l.grid, l.block, l.iters);
    }
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "replicas: %s\n", cudaGetErrorString(e));
    // the Triton kernel itself, as tests/hw/triton/launches.json records it
    // (driver API through dlopen: no link-time libcuda needed)
    void* h = dlopen("libcuda.so.1", RTLD_NOW);
    typedef CUresult (*Load)(CUmodule*, const char*);
    typedef CUresult (*Get)(CUfunction*, CUmodule, const char*);
    typedef CUresult (*Attr)(CUfunction, CUfunction_attribute, int);
    typedef CUresult (*Launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void**, void**);
    Load load = h ? (Load)dlsym(h, "cuModuleLoad") : nullptr;
    Get get = h ? (Get)dlsym(h, "cuModuleGetFunction") : nullptr;
    Attr attr = h ? (Attr)dlsym(h, "cuFuncSetAttribute") : nullptr;
    Launch launch = h ? (Launch)dlsym(h, "cuLaunchKernel") : nullptr;
    CUmodule mod; CUfunction fn;
    if (argc > 1 && load && get && attr && launch && load(&mod, argv[1]) == CUDA_SUCCESS && get(&fn, mod, "tt_matmul") == CUDA_SUCCESS) {
        attr(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 16384);
        CUdeviceptr a = (CUdeviceptr)A, b = (CUdeviceptr)B, c = (CUdeviceptr)C, z = 0;
        int M = 1024, N = 1024, Kk = 1024, sam = 1024, sbk = 1024, scm = 1024;
        void* args[] = {&a, &b, &c, &M, &N, &Kk, &sam, &sbk, &scm, &z, &z};
        CUresult r = launch(fn, 256, 1, 1, 128, 1, 1, 16384, 0, args, nullptr);
        cudaDeviceSynchronize();
        printf("launch %d tt_matmul grid 256 block 128 (result %d)\n", k++, (int)r);
    } else {
        fprintf(stderr, "tt_matmul not loaded\n");
    }
    e = cudaDeviceSynchronize();
    fprintf(stderr, "done: %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
