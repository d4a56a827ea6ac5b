// Probe of 16-byte cp.async (LDGSTS.E.BYPASS.128) shared-memory wavefronts
// for arbitrary per-lane source and destination offsets (issue 11, item 5:
// the rule of 16-byte lanes that do not pair up, tests/hw/README.md finding
// 19). One block of one warp per launch; configuration k gives lane l the
// source offset tab[64k + l] (bytes into `in`, -1: the lane is off) and the
// destination offset tab[64k + 32 + l] (bytes into the shared array). The
// only shared-memory instruction is the LDGSTS, so the kernel-level shared
// wavefronts are its wavefronts. `cpa_probe --list` prints the
// configurations (one line each: k, name, 32 source offsets, 32 destination
// offsets); run under ncu with the metrics of run_probe.sh.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <cuda_runtime.h>

extern "C" __global__ void __launch_bounds__(32) cpa_probe(const char* in, const int* tab, int k)
{
    __shared__ __align__(1024) char s[8192];
    int l = threadIdx.x;
    int so = tab[64 * k + l], dso = tab[64 * k + 32 + l];
    unsigned sb = (unsigned)__cvta_generic_to_shared(s);
    if (so >= 0)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sb + dso), "l"(in + so) : "memory");
    asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
}

struct Cfg { std::string name; int so[32]; int dso[32]; };

int main(int argc, char** argv)
{
    std::vector<Cfg> cs;
    auto add = [&](std::string name, auto src, auto dst, int n) {
        Cfg c; c.name = name;
        for (int l = 0; l < 32; ++l) { c.so[l] = l < n ? src(l) : -1; c.dso[l] = l < n ? dst(l) : 0; }
        cs.push_back(c);
    };
    // 0: calibration, the coalesced copy (measured 4 in cpa_cg16).
    add("coal32", [](int l) { return 16 * l; }, [](int l) { return 16 * l; }, 32);
    // A. two lanes: lane 0 at (0, 0), lane 1 at (x, y).
    int xs[] = {0, 16, 32, 48, 64, 128, 144};
    for (int x : xs)
        for (int y : xs)
            add("pair_x" + std::to_string(x) + "_y" + std::to_string(y),
                [x](int l) { return l ? x : 0; }, [y](int l) { return l ? y : 0; }, 2);
    // A'. two lanes from a sector's second half.
    for (int x : xs)
        for (int y : xs)
            add("pairh_x" + std::to_string(x) + "_y" + std::to_string(y),
                [x](int l) { return l ? 16 + x : 16; }, [y](int l) { return l ? y : 0; }, 2);
    // B. shifted coalesced prefixes: n lanes, source so + 16 l, destination do + 16 l.
    for (int n : {2, 4, 8, 32})
        for (int so = 0; so < 128; so += 16)
            for (int d = 0; d < 128; d += 16)
                add("shift_n" + std::to_string(n) + "_so" + std::to_string(so) + "_do" + std::to_string(d),
                    [so](int l) { return so + 16 * l; }, [d](int l) { return d + 16 * l; }, n);
    // C. strides: source stride ss, destination stride ds (32 lanes).
    for (int ss : {16, 32, 48, 64, 80, 96, 128})
        for (int ds : {16, 32, 48, 64, 80, 96, 128})
            for (int so : {0, 16})
                add("stride_ss" + std::to_string(ss) + "_ds" + std::to_string(ds) + "_so" + std::to_string(so),
                    [ss, so](int l) { return so + ss * l; }, [ds](int l) { return ds * l; }, 32);
    // D. reversed and permuted lanes of the coalesced copy.
    add("rev_src", [](int l) { return 16 * (31 - l); }, [](int l) { return 16 * l; }, 32);
    add("rev_dst", [](int l) { return 16 * l; }, [](int l) { return 16 * (31 - l); }, 32);
    add("swap_pairs_src", [](int l) { return 16 * (l ^ 1); }, [](int l) { return 16 * l; }, 32);
    add("xor2_src", [](int l) { return 16 * (l ^ 2); }, [](int l) { return 16 * l; }, 32);
    add("xor8_src", [](int l) { return 16 * (l ^ 8); }, [](int l) { return 16 * l; }, 32);
    add("xor16_dst", [](int l) { return 16 * l; }, [](int l) { return 16 * (l ^ 16); }, 32);

    if (argc > 1 && !strcmp(argv[1], "--list")) {
        for (size_t k = 0; k < cs.size(); ++k) {
            printf("%zu %s", k, cs[k].name.c_str());
            for (int l = 0; l < 32; ++l) printf(" %d", cs[k].so[l]);
            for (int l = 0; l < 32; ++l) printf(" %d", cs[k].dso[l]);
            printf("\n");
        }
        return 0;
    }
    std::vector<int> tab(64 * cs.size());
    for (size_t k = 0; k < cs.size(); ++k)
        for (int l = 0; l < 32; ++l) { tab[64 * k + l] = cs[k].so[l]; tab[64 * k + 32 + l] = cs[k].dso[l]; }
    char* in; int* dtab;
    cudaMalloc(&in, 1 << 20);
    cudaMemset(in, 1, 1 << 20);
    cudaMalloc(&dtab, tab.size() * sizeof(int));
    cudaMemcpy(dtab, tab.data(), tab.size() * sizeof(int), cudaMemcpyHostToDevice);
    for (size_t k = 0; k < cs.size(); ++k) cpa_probe<<<1, 32>>>(in, dtab, (int)k);
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "%zu launches: %s\n", cs.size(), cudaGetErrorString(e));
    return e != cudaSuccess;
}
