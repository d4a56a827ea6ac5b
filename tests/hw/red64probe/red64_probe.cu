// Probe: how many L1 requests a warp's 64-bit global reduction / atomic takes, by how its
// lanes spread over 128-byte lines (tests/hw/blind8 README, cause 5: REDG.E.MAX.64 over 32
// random lines measured 3.25 requests a warp). One launch per (operation, layout): 256
// blocks of 128 threads; lane l of warp w of block b targets
//   base + 128 * (line(l) + 64 * (w + 4 * b)) + 8 * slot(l)
// where layout picks line(l) (how many lanes share a line) and slot(l).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

enum Op { RED_MAX_U64, RED_ADD_U64, RED_MIN_S64, ATOM_MAX_U64, ATOM_ADD_U64, CAS_U64, RED_MAX_U32, RED_ADD_F64 };

__device__ __forceinline__ long long offset_of(int layout, int lane)
{
    int per = 1;  // lanes per line
    switch (layout) {
    case 0: per = 16; break;   // coalesced 8-byte words: 16 lanes a line (2 lines)
    case 1: per = 8; break;    // 4 lines
    case 2: per = 4; break;    // 8 lines
    case 3: per = 2; break;    // 16 lines
    case 4: per = 1; break;    // 32 lines, in order
    case 5: per = 1; break;    // 32 lines, scrambled
    case 6: per = 32; break;   // one line, 32 different words? (only 16 words a line: pairs share)
    case 7: per = 32; break;   // one address for every lane
    }
    long long line, slot;
    if (layout == 5) {
        line = (lane * 13 + 7) & 31;
        slot = lane & 15;
    } else if (layout == 6) {
        line = 0;
        slot = lane & 15;
    } else if (layout == 7) {
        line = 0;
        slot = 0;
    } else {
        line = lane / per;
        slot = lane % per;
    }
    return line * 128 + slot * 8;
}

extern "C" __global__ void __launch_bounds__(128) red64_probe(unsigned long long* buf, int op, int layout)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    char* base = reinterpret_cast<char*>(buf) + 128LL * 64 * (warp + 4 * blockIdx.x);
    const long long off = offset_of(layout, lane);
    unsigned long long* p = reinterpret_cast<unsigned long long*>(base + off);
    const unsigned long long v = 1000ull + threadIdx.x + blockIdx.x;
    switch (op) {
    case RED_MAX_U64: atomicMax(p, v); break;
    case RED_ADD_U64: atomicAdd(p, v); break;
    case RED_MIN_S64: atomicMin(reinterpret_cast<long long*>(p), (long long)v); break;
    case ATOM_MAX_U64: { unsigned long long o = atomicMax(p, v); if (o == 12345ull) buf[0] = o; } break;
    case ATOM_ADD_U64: { unsigned long long o = atomicAdd(p, v); if (o == 12345ull) buf[0] = o; } break;
    case CAS_U64: { unsigned long long o = atomicCAS(p, 0ull, v); if (o == 12345ull) buf[0] = o; } break;
    case RED_MAX_U32: atomicMax(reinterpret_cast<unsigned*>(p), (unsigned)v); break;
    case RED_ADD_F64: atomicAdd(reinterpret_cast<double*>(p), 1.0); break;
    }
}

int main(int argc, char** argv)
{
    const char* ops[] = {"red_max_u64", "red_add_u64", "red_min_s64", "atom_max_u64", "atom_add_u64", "cas_u64", "red_max_u32", "red_add_f64"};
    const char* lays[] = {"16_per_line", "8_per_line", "4_per_line", "2_per_line", "32_lines", "32_lines_scrambled", "one_line_pairs", "one_address"};
    const int blocks = 256;
    size_t bytes = 128ull * 64 * 4 * blocks + 4096;
    unsigned long long* buf;
    cudaMalloc(&buf, bytes);
    for (int o = 0; o < 8; ++o)
        for (int l = 0; l < 8; ++l) {
            cudaMemset(buf, 0, bytes);
            red64_probe<<<blocks, 128>>>(buf, o, l);
            cudaError_t e = cudaDeviceSynchronize();
            printf("launch %s %s op %d layout %d: %s\n", ops[o], lays[l], o, l, cudaGetErrorString(e));
        }
    return 0;
}
