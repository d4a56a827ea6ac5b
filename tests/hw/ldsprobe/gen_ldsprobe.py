#!/usr/bin/env python3
"""Writes ldsprobe.cu and configs.txt: the shared-memory width probe (README.md).

Six kernels (`ld4`, `ld8`, `ld16`, `st4`, `st8`, `st16`: `ld.shared` /
`st.shared` of `.u32`, `.v2.u32`, `.v4.u32`), one block of 1,024 threads;
warp w runs slot w (its own SASS instruction, a `switch` case), lane l at the
byte offset tab[32 (base + w) + l] of a 16 KB shared array (-1: the lane is
off). One line of configs.txt per layout: variant, name, 32 offsets.

    python3 tests/hw/ldsprobe/gen_ldsprobe.py             # ldsprobe.cu, configs.txt
    python3 tests/hw/ldsprobe/gen_ldsprobe.py --heldout   # configs_heldout.txt
    python3 tests/hw/ldsprobe/gen_ldsprobe.py --heldout2  # configs_heldout2.txt

The held-out layouts (written after the first run, predicted before the
second: heldout_predicted.txt) are random: lanes sharing an address with
their partner l ^ 1 or l ^ 2 (or not), per half-warp or per warp, the
addresses from pools of 1 to 16 in 256 bytes (bank conflicts likely) or in
4 KB.
"""
import os, random, sys

D = os.path.dirname(os.path.abspath(__file__))
VARIANTS = [("ld", 4), ("ld", 8), ("ld", 16), ("st", 4), ("st", 8), ("st", 16)]


def layouts(w):
    """(name, offsets) for accesses of w bytes."""
    L = range(32)
    out = []
    add = lambda n, a: out.append((n, [int(x) for x in a]))
    add("coalesced", [w * l for l in L])
    add("broadcast", [0] * 32)
    add("bcast_at_word5", [w * 5] * 32)
    for tag, b in (("diffbank", w), ("samebank", 128), ("samebank512", 512), ("bank8", 32)):
        add(f"two_halves_{tag}", [0 if l < 16 else b for l in L])
        add(f"two_interleaved_{tag}", [0 if l % 2 == 0 else b for l in L])
        add(f"two_quarters_{tag}", [0 if (l // 8) % 2 == 0 else b for l in L])
        add(f"two_lane0_rest_{tag}", [0 if l == 0 else b for l in L])
    add("half_repeat", [w * (l % 16) for l in L])
    add("half_repeat_plus128", [w * (l % 16) + (128 if l >= 16 else 0) for l in L])
    add("half_repeat_plus_halfline", [w * (l % 16) + (64 if l >= 16 else 0) for l in L])
    add("quarter_repeat", [w * (l % 8) for l in L])
    add("quarter_repeat_plus128", [w * (l % 8) + 128 * (l // 8) for l in L])
    add("pairs_share", [w * (l // 2) for l in L])
    add("pairs_share_xor2", [w * ((l & ~2) // 1) for l in L])
    add("quads_share", [w * (l // 4) for l in L])
    add("octets_share", [w * (l // 8) for l in L])
    add("four_addr_samebank", [128 * (l // 8) for l in L])
    add("four_addr_interleaved", [w * (l % 4) for l in L])
    add("eight_addr_interleaved", [w * (l % 8) * 2 for l in L])
    for s in (2, 3, 4, 8, 16, 32):
        add(f"stride_{s}w", [w * s * l for l in L])
    add("lanes0_15", [w * l if l < 16 else -1 for l in L])
    add("lanes16_31", [w * l if l >= 16 else -1 for l in L])
    add("even_lanes", [w * l if l % 2 == 0 else -1 for l in L])
    add("lanes_0_16_samebank", [0 if l == 0 else 128 if l == 16 else -1 for l in L])
    add("lanes_0_16_diffbank", [0 if l == 0 else w if l == 16 else -1 for l in L])
    add("lanes_0_1_samebank", [0 if l == 0 else 128 if l == 1 else -1 for l in L])
    add("lanes_0_8_samebank", [0 if l == 0 else 128 if l == 8 else -1 for l in L])
    add("lanes_0_4_samebank", [0 if l == 0 else 128 if l == 4 else -1 for l in L])
    add("half_coalesced_half_bcast", [w * l if l < 16 else 0 for l in L])
    add("half_coalesced_half_bcast_far", [w * l if l < 16 else 1024 for l in L])
    rng = random.Random(4300 + w)
    perm = list(L)
    rng.shuffle(perm)
    add("coalesced_permuted", [w * perm[l] for l in L])
    # addresses drawn from k distinct w-aligned offsets in 2 KB, with repeats
    for k in (2, 3, 4, 6, 8, 12, 16, 24):
        for rep in range(3):
            pool = rng.sample(range(0, 2048, w), k)
            add(f"random_k{k}_{rep}", [rng.choice(pool) for _ in L])
    for rep in range(4):
        add(f"random_distinct_{rep}", rng.sample(range(0, 4096, w), 32))
    return out


def heldout(w):
    rng = random.Random(4400 + w)
    out = []
    step = max(w, 8) if w == 8 else w
    for n in range(60):
        k = rng.choice([1, 2, 3, 4, 6, 8, 16])
        span = rng.choice([256, 4096])
        pool = rng.sample(range(0, span, step), min(k, span // step))
        share = rng.choice([1, 2, 0, "half"])
        offs = [rng.choice(pool) for _ in range(32)]
        for l in range(32):
            k2 = share if share in (1, 2) else (1 if share == "half" and l < 16 else 0)
            if k2 and l & k2:
                offs[l] = offs[l ^ k2]
        if rng.random() < 0.25:
            for l in rng.sample(range(32), rng.randint(1, 16)):
                offs[l] = -1
        out.append((f"h_{share}_k{k}_s{span}_{n}", offs))
    return out


def heldout2(w):
    """Third run (after the review of stop 43): lanes whose partner is off,
    on structured layouts (every second lane, one lane of each pair, quarter
    warps off) and random masks over pair-sharing layouts."""
    rng = random.Random(4500 + w)
    L = range(32)
    out = []
    bases = {
        "coalesced": [w * l for l in L],
        "pairs": [w * (l // 2) for l in L],
        "pairs_xor2": [w * (l & ~2) for l in L],
        "broadcast": [0] * 32,
        "two_halves": [0 if l < 16 else w for l in L],
        "two_samebank": [0 if l % 2 == 0 else 128 for l in L],
        "stride2": [2 * w * l for l in L],
    }
    masks = {
        "even": [l % 2 == 0 for l in L],
        "odd": [l % 2 == 1 for l in L],
        "quarters02": [(l // 8) % 2 == 0 for l in L],
        "first8": [l < 8 for l in L],
        "first16": [l < 16 for l in L],
        "lane0_off": [l != 0 for l in L],
        "mod4_0": [l % 4 == 0 for l in L],
        "mod4_01": [l % 4 < 2 for l in L],
    }
    for bn, b in bases.items():
        for mn, m in masks.items():
            out.append((f"p_{bn}_{mn}", [b[l] if m[l] else -1 for l in L]))
    for n in range(24):
        b = rng.choice(["pairs", "pairs_xor2", "broadcast", "two_halves"])
        off = set(rng.sample(range(32), rng.randint(1, 12)))
        out.append((f"pr_{b}_{n}", [bases[b][l] if l not in off else -1 for l in L]))
    return out


def asm(op, w, slot):
    if op == "ld":
        if w == 4:
            return f'asm volatile("ld.shared.u32 %0, [%4]; // slot {slot}" : "=r"(x), "=r"(y), "=r"(z), "=r"(v) : "r"(a) : "memory");'
        if w == 8:
            return f'asm volatile("ld.shared.v2.u32 {{%0, %1}}, [%4]; // slot {slot}" : "=r"(x), "=r"(y), "=r"(z), "=r"(v) : "r"(a) : "memory");'
        return f'asm volatile("ld.shared.v4.u32 {{%0, %1, %2, %3}}, [%4]; // slot {slot}" : "=r"(x), "=r"(y), "=r"(z), "=r"(v) : "r"(a) : "memory");'
    if w == 4:
        return f'asm volatile("st.shared.u32 [%0], %1; // slot {slot}" :: "r"(a), "r"(x) : "memory");'
    if w == 8:
        return f'asm volatile("st.shared.v2.u32 [%0], {{%1, %2}}; // slot {slot}" :: "r"(a), "r"(x), "r"(y) : "memory");'
    return f'asm volatile("st.shared.v4.u32 [%0], {{%1, %2, %3, %4}}; // slot {slot}" :: "r"(a), "r"(x), "r"(y), "r"(z), "r"(v) : "memory");'


def main():
    if "--heldout2" in sys.argv:
        cfg = []
        for op, w in (("ld", 8), ("ld", 16)):
            for name, offs in heldout2(w):
                cfg.append(f"{op}{w} {name} " + " ".join(map(str, offs)))
        open(os.path.join(D, "configs_heldout2.txt"), "w").write("\n".join(cfg) + "\n")
        return
    if "--heldout" in sys.argv:
        cfg = []
        for op, w in (("ld", 8), ("ld", 16), ("st", 8), ("st", 16)):
            for name, offs in heldout(w):
                cfg.append(f"{op}{w} {name} " + " ".join(map(str, offs)))
        open(os.path.join(D, "configs_heldout.txt"), "w").write("\n".join(cfg) + "\n")
        return
    cfg = []
    for op, w in VARIANTS:
        for name, offs in layouts(w):
            cfg.append(f"{op}{w} {name} " + " ".join(map(str, offs)))
    open(os.path.join(D, "configs.txt"), "w").write("\n".join(cfg) + "\n")
    src = ["// Generated by gen_ldsprobe.py: the shared-memory width probe (tests/hw/ldsprobe/README.md).",
           "// Warp w of the one 1,024-thread block runs slot w: lane l accesses the shared byte offset",
           "// tab[32 (base + w) + l] (-1: off) with one ld/st.shared of 4, 8 or 16 bytes.",
           "#include <cstdio>", "#include <string>", "#include <vector>", "#include <cuda_runtime.h>", ""]
    for op, w in VARIANTS:
        src += [f'extern "C" __global__ void __launch_bounds__(1024) probe_{op}{w}(const int* tab, int base, unsigned* out)',
                "{",
                "    __shared__ __align__(1024) unsigned s[4096];",
                "    for (int i = threadIdx.x; i < 4096; i += 1024) s[i] = i * 2654435761u;",
                "    __syncthreads();",
                "    int l = threadIdx.x & 31, w = threadIdx.x >> 5;",
                "    int o = tab[32 * (base + w) + l];",
                "    unsigned a = (unsigned)__cvta_generic_to_shared(s) + (o < 0 ? 0 : o);",
                "    unsigned x = threadIdx.x, y = x + 1, z = x + 2, v = x + 3;",
                "    if (o >= 0) {",
                "        switch (w) {"]
        for k in range(32):
            src.append(f"        case {k}: {asm(op, w, k)} break;")
        src += ["        }", "    }", "    __syncthreads();",
                "    out[threadIdx.x] = x + y + z + v + s[threadIdx.x];", "}", ""]
    src += ["int main(int argc, char** argv)", "{",
            '    FILE* fp = fopen(argc > 1 ? argv[1] : "configs.txt", "r");',
            '    if (!fp) { perror("configs"); return 1; }',
            "    std::vector<std::string> var; std::vector<int> tab;",
            "    char vb[64], nb[256];",
            '    while (fscanf(fp, "%63s %255s", vb, nb) == 2) {',
            "        var.push_back(vb);",
            '        for (int i = 0; i < 32; ++i) { int x; if (fscanf(fp, "%d", &x) != 1) return 2; tab.push_back(x); }',
            "    }",
            "    size_t n = var.size();",
            "    struct G { size_t first, count; int base; };",
            "    std::vector<G> gs;",
            "    for (size_t i = 0; i < n;) {",
            "        size_t j = i;",
            "        while (j < n && j - i < 32 && var[j] == var[i]) ++j;",
            "        G g{i, j - i, (int)i};",
            "        if (j - i < 32) {",
            "            g.base = (int)(tab.size() / 32);",
            "            std::vector<int> rows(tab.begin() + 32 * i, tab.begin() + 32 * j);",
            "            tab.insert(tab.end(), rows.begin(), rows.end());",
            "            for (size_t p = j - i; p < 32; ++p) for (int q = 0; q < 32; ++q) tab.push_back(-1);",
            "        }",
            "        gs.push_back(g);",
            "        i = j;",
            "    }",
            "    int* dtab; unsigned* out;",
            "    cudaMalloc(&dtab, tab.size() * sizeof(int)); cudaMalloc(&out, 1024 * sizeof(unsigned));",
            "    cudaMemcpy(dtab, tab.data(), tab.size() * sizeof(int), cudaMemcpyHostToDevice);",
            "    for (size_t k = 0; k < gs.size(); ++k) {",
            "        const std::string& v = var[gs[k].first];",
            "        int base = gs[k].base;"]
    for op, w in VARIANTS:
        src.append(f'        if (v == "{op}{w}") probe_{op}{w}<<<1, 1024>>>(dtab, base, out);')
    src += ['        printf("launch %zu %s %zu %zu\\n", k, v.c_str(), gs[k].first, gs[k].count);',
            "    }",
            "    cudaError_t e = cudaDeviceSynchronize();",
            '    fprintf(stderr, "%zu configurations, %zu launches: %s\\n", n, gs.size(), cudaGetErrorString(e));',
            "    return e != cudaSuccess;", "}", ""]
    open(os.path.join(D, "ldsprobe.cu"), "w").write("\n".join(src))


if __name__ == "__main__":
    main()
