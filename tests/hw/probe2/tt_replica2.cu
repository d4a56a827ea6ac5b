// Third run (Triton experiment, continued): where does tt_matmul_ampere's A-tile
// copy (line 46) lose half its wavefronts? (tests/hw/probe2/README.md)
// 1. the Triton cubin with one CTA and with 256, K = 1024 (32 iterations) and
//    K = 32 (one tile: the copies of the prologue only);
// 2. the replica of tt_replica.cu with warps 4-7 of a 256-thread block reading
//    shared memory (LDS.128) while warps 0-3 copy.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

extern "C" __global__ void __launch_bounds__(256) ttrep_contend(const char* A, int iters, float* out)
{
    extern __shared__ __align__(1024) char s[];
    int t = threadIdx.x;
    unsigned sb = (unsigned)__cvta_generic_to_shared(s);
    if (t < 128) {
        unsigned d = sb + ((16 * t) ^ (2 * t & 48)) % 2048;
        const char* g = A + (size_t)((blockIdx.x % 16) * 64 + (t >> 2)) * 2048 + 16 * (t & 3);
        for (int k = 0; k < iters; ++k) {
            unsigned st = (k & 1) * 4096;
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d + st), "l"(g + 64 * k) : "memory");
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d + st + 2048), "l"(g + 64 * k + 32 * 2048) : "memory");
            asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
        }
    } else {
        float4 acc = make_float4(0, 0, 0, 0);
        const float4* p = (const float4*)(s + 8192);
        for (int k = 0; k < 64 * iters; ++k) {
            float4 v = p[(t + 32 * k) & 255];
            acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
        }
        out[blockIdx.x * 256 + t] = acc.x + acc.y + acc.z + acc.w;
    }
}

int main(int argc, char** argv)
{
    char *A, *B, *C; float* out;
    cudaMalloc(&A, 2 << 20); cudaMalloc(&B, 2 << 20); cudaMalloc(&C, 2 << 20); cudaMalloc(&out, 1 << 20);
    cudaMemset(A, 0, 2 << 20); cudaMemset(B, 0, 2 << 20);
    int k = 0;
    for (int grid : {1, 256}) {
        ttrep_contend<<<grid, 256, 16384>>>(A, 32, out);
        printf("launch %d ttrep_contend grid %d block 256 iters 32\n", k++, grid);
    }
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "replica: %s\n", cudaGetErrorString(e));
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
        for (int grid : {1, 256})
            for (int Kk : {1024, 32}) {
                CUdeviceptr a = (CUdeviceptr)A, b = (CUdeviceptr)B, c = (CUdeviceptr)C, z = 0;
                int M = 1024, N = 1024, sam = 1024, sbk = 1024, scm = 1024;
                void* args[] = {&a, &b, &c, &M, &N, &Kk, &sam, &sbk, &scm, &z, &z};
                CUresult r = launch(fn, grid, 1, 1, 128, 1, 1, 16384, 0, args, nullptr);
                cudaDeviceSynchronize();
                printf("launch %d tt_matmul grid %d block 128 K %d (result %d)\n", k++, grid, Kk, (int)r);
            }
    } else {
        fprintf(stderr, "tt_matmul not loaded\n");
    }
    e = cudaDeviceSynchronize();
    fprintf(stderr, "done: %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
