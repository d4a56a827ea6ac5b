#!/usr/bin/env python3
"""Compare tests/hw/measured.json with the simple coalescing model.

The simple model: for every warp-level execution (request) of a memory
instruction, take the byte ranges [addr, addr + size) of the active lanes;
L1 tag requests = number of distinct 128-byte lines they touch, sectors =
number of distinct 32-byte sectors.  Requests with no active lane are not
counted.  Shared memory (32-bit accesses only): wavefronts = the largest
number of distinct 4-byte words that fall into one of the 32 banks.

Per-lane addresses are written out below by hand for every launch whose
addresses do not depend on data, plus the data-dependent gathers whose index
arrays are known (tests/hw/lcg_perm.py).  Buffer bases are taken as 4096-byte
aligned (each measured base was 0 mod 4096).

  python3 tests/hw/model_check.py [--markdown]

Output: one row per (launch, source line, op): measured and modelled totals.
"""
import gzip
import json
import os
import re
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from lcg_perm import lcg_perm  # noqa: E402

SRC = {
    "kernels": os.path.join(HERE, "kernels.cu"),
    "indirect": os.path.join(ROOT, "examples/kernels/indirect/indirect.cu"),
    "transactions": os.path.join(ROOT, "examples/kernels/transactions/transactions.cu"),
    "fma": os.path.join(ROOT, "examples/kernels/fma/fma.cu"),
    "common_cases": os.path.join(ROOT, "examples/kernels/common_cases/common_cases.cu"),
    "transpose": os.path.join(ROOT, "examples/kernels/transpose/transpose.cu"),
}
_lines = {}


def line_of(module, func, snippet):
    """1-based line of the first `snippet` after the definition of `func`."""
    if module not in _lines:
        _lines[module] = open(SRC[module]).read().split("\n")
    L = _lines[module]
    defs = [i for i, l in enumerate(L) if re.search(r"void\s+(LB\(\d+\)\s+|__launch_bounds__\(\d+\)\s+)?"
                                                    + re.escape(func) + r"\s*\(", l)]
    start = defs[0]
    for i in range(start, len(L)):
        if snippet in L[i]:
            return i + 1
    raise KeyError((module, func, snippet))


class Ctx:
    pass


def threads(launch):
    gx, gy, gz = launch["grid"]
    bx, by, bz = launch["block"]
    for kz in range(gz):
        for ky in range(gy):
            for kx in range(gx):
                warps = defaultdict(list)
                for tz in range(bz):
                    for ty in range(by):
                        for tx in range(bx):
                            t = tx + ty * bx + tz * bx * by
                            c = Ctx()
                            c.tx, c.ty, c.tz, c.bx, c.by, c.bz = tx, ty, tz, kx, ky, kz
                            c.BX, c.BY, c.BZ, c.GX, c.GY, c.GZ = bx, by, bz, gx, gy, gz
                            c.lane = t % 32
                            c.i = kx * bx + tx
                            warps[t // 32].append(c)
                for w in sorted(warps):
                    yield warps[w]


def model(launch, specs, P):
    """specs: list of (line, op, size, space, fn(ctx, P) -> list of addresses/None)."""
    out = {}
    for (line, op, size, space, fn) in specs:
        out[(line, op)] = {"requests": 0, "l1_tag_requests": 0, "sectors": 0, "shared_wavefronts": 0, "space": space}
    for warp in threads(launch):
        for (line, op, size, space, fn) in specs:
            per_lane = [fn(c, P) for c in warp]
            n_inst = max(len(x) for x in per_lane)
            acc = out[(line, op)]
            for k in range(n_inst):
                addrs = [x[k] for x in per_lane if k < len(x) and x[k] is not None]
                if not addrs:
                    continue
                acc["requests"] += 1
                if space == "shared":
                    banks = defaultdict(set)
                    for a in addrs:
                        for b in range(a // 4, (a + size - 1) // 4 + 1):
                            banks[b % 32].add(b)
                    acc["shared_wavefronts"] += max(len(v) for v in banks.values())
                else:
                    # size <= 16 bytes: a lane's bytes touch at most two lines / two sectors
                    acc["l1_tag_requests"] += len({x // 128 for a in addrs for x in (a, a + size - 1)})
                    acc["sectors"] += len({x // 32 for a in addrs for x in (a, a + size - 1)})
    return out


# ---------------------------------------------------------------- specs --
def one(cond, addr):
    return [addr] if cond else [None]


def specs_for(launch, n_of):
    lid, kern, mod = launch["id"], launch["kernel"], launch["module"]
    sc = {p["index"]: p.get("value") for p in launch["params"] if p["kind"] == "scalar"}
    K = "kernels"
    S = []

    def add(func, snippet, op, size, fn, module=K, space="global"):
        S.append((line_of(module, func, snippet), op, size, space, fn))

    def copy(func, ld_snip, st_snip, es, ld_idx, st_idx=lambda c, P: c.i, cond=lambda c, P: c.i < P[2], module=K):
        add(func, ld_snip, "ld", es, lambda c, P: one(cond(c, P), P[0] + es * ld_idx(c, P)), module)
        add(func, st_snip, "st", es, lambda c, P: one(cond(c, P), P[1] + es * st_idx(c, P)), module)

    I = lambda c, P: c.i  # noqa: E731
    simple = {"copy_u8": 1, "copy_u16": 2, "copy_f32": 4, "copy_f64": 8, "copy_f32x2": 8, "copy_f32x4": 16,
              "copy_f64x2": 16, "copy_f32_nc": 4}
    if kern in simple:
        copy(kern, "v = in[i];", "out[i] =", simple[kern], I)
    elif kern == "misalign_f32_c1":
        copy(kern, "in[i + 1]", "out[i] =", 4, lambda c, P: c.i + 1)
    elif kern in ("misalign_f32_rt", "misalign_f64_rt", "misalign_f32x4_rt", "misalign_u8_rt"):
        es = {"misalign_f32_rt": 4, "misalign_f64_rt": 8, "misalign_f32x4_rt": 16, "misalign_u8_rt": 1}[kern]
        copy(kern, "in[i + off]", "out[i] =", es, lambda c, P: c.i + P[3])
    elif kern == "misalign_store_f32":
        copy(kern, "v = in[i];", "out[i + off]", 4, I, lambda c, P: c.i + P[3])
    elif kern.startswith("_Z10stride_f32I") or kern.startswith("_Z16stride_store_f32I") or \
            kern.startswith("_Z10stride_f64I") or kern.startswith("_Z12stride_f32x4I"):
        s = int(re.search(r"ILi(\d+)E", kern).group(1))
        base = re.match(r"_Z\d+(\w+?)I", kern).group(1)
        if base == "stride_store_f32":
            copy(base, "v = in[i];", "out[i * S]", 4, I, lambda c, P: c.i * s)
        else:
            es = {"stride_f32": 4, "stride_f64": 8, "stride_f32x4": 16}[base]
            copy(base, "in[i * S]", "out[i] =", es, lambda c, P: c.i * s)
    elif kern == "stride_f32_rt":
        copy(kern, "in[i * s]", "out[i] =", 4, lambda c, P: c.i * P[3])
    elif kern == "broadcast_f32":
        for snip, idx in (("in[5]", lambda c, P: 5), ("in[blockIdx.x]", lambda c, P: c.bx),
                          ("in[i >> 5]", lambda c, P: c.i >> 5), ("in[i >> 3]", lambda c, P: c.i >> 3)):
            add(kern, snip, "ld", 4, (lambda idx: lambda c, P: one(c.i < P[2], P[0] + 4 * idx(c, P)))(idx))
        add(kern, "out[i] =", "st", 4, lambda c, P: one(c.i < P[2], P[1] + 4 * c.i))
    elif kern == "warp_perm_f32":
        wb = lambda c: c.i & ~31  # noqa: E731
        for snip, idx in (("in[wb + (31 - lane)]", lambda c: wb(c) + 31 - c.lane), ("in[i ^ 1]", lambda c: c.i ^ 1),
                          ("in[i ^ 16]", lambda c: c.i ^ 16), ("((lane * 7) & 31)", lambda c: wb(c) + ((c.lane * 7) & 31)),
                          ("((lane + 5) & 31)", lambda c: wb(c) + ((c.lane + 5) & 31))):
            add(kern, snip, "ld", 4, (lambda idx: lambda c, P: one(c.i < P[2], P[0] + 4 * idx(c)))(idx))
        add(kern, "out[i] =", "st", 4, lambda c, P: one(c.i < P[2], P[1] + 4 * c.i))
    elif kern == "lane_arith_f32":
        wb = lambda c: c.i & ~31  # noqa: E731
        for snip, idx in (("in[i << 1]", lambda c: c.i << 1), ("in[i >> 1]", lambda c: c.i >> 1),
                          ("in[i & ~3]", lambda c: c.i & ~3), ("in[i & 7]", lambda c: c.i & 7),
                          ("(lane % 8) * 4", lambda c: wb(c) + (c.lane % 8) * 4 + c.lane // 8),
                          ("in[i / 3]", lambda c: c.i // 3), ("in[(i % 17) * 64]", lambda c: (c.i % 17) * 64),
                          ("in[(i ^ 0x55) + 32]", lambda c: (c.i ^ 0x55) + 32)):
            add(kern, snip, "ld", 4, (lambda idx: lambda c, P: one(c.i < P[2], P[0] + 4 * idx(c)))(idx))
        add(kern, "out[i] =", "st", 4, lambda c, P: one(c.i < P[2], P[1] + 4 * c.i))
    elif kern in ("gather_f32", "scatter_f32"):
        buf = [p for p in launch["params"] if p["index"] == 1][0]["buffer"]
        perm = list(range(32768)) if buf == "IDX_ID_32K" else lcg_perm(32768, 4004)
        add(kern, "j = idx[i];", "ld", 4, lambda c, P: one(c.i < P[3], P[1] + 4 * c.i))
        if kern == "gather_f32":
            add(kern, "in[j]", "ld", 4, lambda c, P: one(c.i < P[3], P[0] + 4 * perm[c.i]))
            add(kern, "out[i] =", "st", 4, lambda c, P: one(c.i < P[3], P[2] + 4 * c.i))
        else:
            add(kern, "v = in[i];", "ld", 4, lambda c, P: one(c.i < P[3], P[0] + 4 * c.i))
            add(kern, "out[j] =", "st", 4, lambda c, P: one(c.i < P[3], P[2] + 4 * perm[c.i]))
    elif kern == "aos3_f32":
        for snip, off in (("p[i].x", 0), ("p[i].y", 4), ("p[i].z", 8)):
            add(kern, snip, "ld", 4, (lambda off: lambda c, P: one(c.i < P[2], P[0] + 12 * c.i + off))(off))
        add(kern, "out[i] =", "st", 4, lambda c, P: one(c.i < P[2], P[1] + 4 * c.i))
    elif kern == "aos4_xw":
        for snip, off in (("p[i].x", 0), ("p[i].w", 12)):
            add(kern, snip, "ld", 4, (lambda off: lambda c, P: one(c.i < P[2], P[0] + 16 * c.i + off))(off))
        add(kern, "out[i] =", "st", 4, lambda c, P: one(c.i < P[2], P[1] + 4 * c.i))
    elif kern == "aos4a_vec":
        add(kern, "P4A v = p[i];", "ld", 16, lambda c, P: one(c.i < P[2], P[0] + 16 * c.i))
        add(kern, "out[i] =", "st", 4, lambda c, P: one(c.i < P[2], P[1] + 4 * c.i))
    elif kern == "aos8_f0f5":
        for snip, off in (("p[i].f[0]", 0), ("p[i].f[5]", 20)):
            add(kern, snip, "ld", 4, (lambda off: lambda c, P: one(c.i < P[2], P[0] + 32 * c.i + off))(off))
        add(kern, "out[i] =", "st", 4, lambda c, P: one(c.i < P[2], P[1] + 4 * c.i))
    elif kern == "aos3_store_y":
        add(kern, "v = in[i];", "ld", 4, lambda c, P: one(c.i < P[2], P[0] + 4 * c.i))
        add(kern, "q[i].y = v;", "st", 4, lambda c, P: one(c.i < P[2], P[1] + 12 * c.i + 4))
    elif kern == "soa3_f32":
        for snip, k in (("a = x[i];", 0), ("b = y[i];", 1), ("c = z[i];", 2)):
            add(kern, snip, "ld", 4, (lambda k: lambda c, P: one(c.i < P[4], P[k] + 4 * c.i))(k))
        add(kern, "out[i] =", "st", 4, lambda c, P: one(c.i < P[4], P[3] + 4 * c.i))
    elif kern in ("blk2d_row", "blk2d_col"):
        def idx(c, P, row=(kern == "blk2d_row")):
            x = c.bx * c.BX + c.tx
            y = c.by * c.BY + c.ty
            return y * P[2] + x if row else x * P[2] + y
        add(kern, "float v = in[", "ld", 4, lambda c, P: [P[0] + 4 * idx(c, P)])
        add(kern, "] = v + 1.0f;", "st", 4, lambda c, P: [P[1] + 4 * idx(c, P)])
    elif kern in ("blk3d_row", "blk3d_col"):
        def idx(c, P, row=(kern == "blk3d_row")):
            x = c.bx * c.BX + c.tx
            y = c.by * c.BY + c.ty
            z = c.bz * c.BZ + c.tz
            return (z * P[3] + y) * P[2] + x if row else (x * P[3] + y) * P[2] + z
        add(kern, "float v = in[", "ld", 4, lambda c, P: [P[0] + 4 * idx(c, P)])
        add(kern, "] = v + 1.0f;", "st", 4, lambda c, P: [P[1] + 4 * idx(c, P)])
    elif kern == "grid_stride_f32":
        T = launch["grid"][0] * launch["block"][0]
        it = lambda c, P: list(range(c.i, P[2], T))  # noqa: E731
        add(kern, "v = in[i];", "ld", 4, lambda c, P: [P[0] + 4 * j for j in it(c, P)])
        add(kern, "out[i] =", "st", 4, lambda c, P: [P[1] + 4 * j for j in it(c, P)])
    elif kern == "unroll4_f32":
        T = launch["grid"][0] * launch["block"][0]
        add(kern, "in[i + k * total]", "ld", 4, lambda c, P: [P[0] + 4 * (c.i + k * T) for k in range(4)])
        add(kern, "out[i + k * total]", "st", 4, lambda c, P: [P[1] + 4 * (c.i + k * T) for k in range(4)])
    elif kern == "unroll8_seq_f32":
        add(kern, "in[i * 8 + k]", "ld", 4, lambda c, P: [P[0] + 4 * (c.i * 8 + k) for k in range(8)])
        add(kern, "out[i] = acc;", "st", 4, lambda c, P: [P[1] + 4 * c.i])
    elif kern == "ptr_walk_rows":
        add(kern, "acc += *p;", "ld", 4, lambda c, P: [P[0] + 4 * (c.i + r * P[2]) for r in range(P[3])])
        add(kern, "out[i] = acc;", "st", 4, lambda c, P: [P[1] + 4 * c.i])
    elif kern == "ptr_walk_chunk":
        add(kern, "acc += *p;", "ld", 4, lambda c, P: [P[0] + 4 * (c.i * P[2] + k) for k in range(P[2])])
        add(kern, "out[i] = acc;", "st", 4, lambda c, P: [P[1] + 4 * c.i])
    elif kern == "stencil1d_3pt":
        cond = lambda c, P: 0 < c.i < P[2] - 1  # noqa: E731
        for snip, d in (("in[i - 1]", -1), ("c = in[i];", 0), ("in[i + 1]", 1)):
            add(kern, snip, "ld", 4, (lambda d: lambda c, P: one(cond(c, P), P[0] + 4 * (c.i + d)))(d))
        add(kern, "out[i] =", "st", 4, lambda c, P: one(cond(c, P), P[1] + 4 * c.i))
    elif kern == "stencil2d_5pt":
        def xy(c):
            return c.bx * c.BX + c.tx, c.by * c.BY + c.ty
        cond = lambda c, P: 0 < xy(c)[0] < P[2] - 1 and 0 < xy(c)[1] < P[3] - 1  # noqa: E731
        for snip, dx, dy in (("in[(y - 1) * W + x]", 0, -1), ("in[y * W + x - 1]", -1, 0), ("c_ = in[y * W + x]", 0, 0),
                             ("in[y * W + x + 1]", 1, 0), ("in[(y + 1) * W + x]", 0, 1)):
            add(kern, snip, "ld", 4, (lambda dx, dy: lambda c, P: one(cond(c, P), P[0] + 4 * ((xy(c)[1] + dy) * P[2] + xy(c)[0] + dx)))(dx, dy))
        add(kern, "out[y * W + x] =", "st", 4, lambda c, P: one(cond(c, P), P[1] + 4 * (xy(c)[1] * P[2] + xy(c)[0])))
    elif kern == "matmul_naive":
        N = sc[3]
        rc = lambda c: (c.by * c.BY + c.ty, c.bx * c.BX + c.tx)  # noqa: E731
        add(kern, "A[row * N + k]", "ld", 4, lambda c, P: [P[0] + 4 * (rc(c)[0] * N + k) for k in range(N)])
        add(kern, "B[k * N + col]", "ld", 4, lambda c, P: [P[1] + 4 * (k * N + rc(c)[1]) for k in range(N)])
        add(kern, "C[row * N + col]", "st", 4, lambda c, P: [P[2] + 4 * (rc(c)[0] * N + rc(c)[1])])
    elif kern == "red_asm_f32":
        for snip, idx in (('"l"(out + i)', lambda c, P: c.i), ('"l"(out + n + (i >> 5))', lambda c, P: P[1] + (c.i >> 5)),
                          ('"l"(out + 2 * n)', lambda c, P: 2 * P[1])):
            add(kern, snip, "red", 4, (lambda idx: lambda c, P: one(c.i < P[1], P[0] + 4 * idx(c, P)))(idx))
    elif kern == "atom_ret_u32":
        add(kern, '"l"(cnt + i)', "atom", 4, lambda c, P: one(c.i < P[2], P[0] + 4 * c.i))
        add(kern, '"l"(cnt + n)', "atom", 4, lambda c, P: one(c.i < P[2], P[0] + 4 * P[2]))
        add(kern, "out[i] = a + b;", "st", 4, lambda c, P: one(c.i < P[2], P[1] + 4 * c.i))
    elif kern == "pred_half_warp":
        cond = lambda c, P: (c.tx & 31) < 16 and c.i < P[2]  # noqa: E731
        copy(kern, "v = in[i];", "out[i] =", 4, I, I, cond)
    elif kern == "pred_odd_lanes":
        cond = lambda c, P: (c.i & 1) and c.i < P[2]  # noqa: E731
        copy(kern, "v = in[i];", "out[i] =", 4, I, I, cond)
    elif kern == "pred_lane0":
        cond = lambda c, P: (c.tx & 31) == 0 and c.i < P[2]  # noqa: E731
        copy(kern, "v = in[i];", "out[i >> 5]", 4, I, lambda c, P: c.i >> 5, cond)
    elif kern == "idx64_offset":
        copy(kern, "in[i + off]", "out[i] =", 4, lambda c, P: c.i + P[3])
    elif kern == "idx64_stride":
        copy(kern, "in[i * s]", "out[i] =", 4, lambda c, P: c.i * P[3])
    elif kern == "smem_banks":
        sh = lambda c, idx: [4 * idx]  # noqa: E731
        add(kern, "float a = s[lane];", "ld", 4, lambda c, P: sh(c, c.lane), space="shared")
        add(kern, "float b = s[lane * 2];", "ld", 4, lambda c, P: sh(c, c.lane * 2), space="shared")
        add(kern, "float c = s[lane * 32];", "ld", 4, lambda c, P: sh(c, c.lane * 32), space="shared")
        add(kern, "float d = s[lane * 33];", "ld", 4, lambda c, P: sh(c, c.lane * 33), space="shared")
        add(kern, "float e = s[7];", "ld", 4, lambda c, P: sh(c, 7), space="shared")
        add(kern, "float h = s[", "ld", 4, lambda c, P: sh(c, (c.lane * 4) % 32 + c.lane // 8), space="shared")
        add(kern, "float x = in[i];", "ld", 4, lambda c, P: [P[0] + 4 * (c.bx * 32 + c.lane)])
        add(kern, "out[i] =", "st", 4, lambda c, P: [P[1] + 4 * (c.bx * 32 + c.lane)])
    elif mod == "indirect":
        es = 4 if "IfE" in kern else 8
        buf = [p for p in launch["params"] if p["index"] == 1][0]["buffer"]
        perm = list(range(10000)) if buf == "OFF_ID_10K" else lcg_perm(10000, 2026)
        T = launch["grid"][0] * launch["block"][0]
        it = lambda c, P: list(range(c.i, P[2], T))  # noqa: E731
        add("indirect", "int idx = off[i];", "ld", 4, lambda c, P: [P[1] + 4 * j for j in it(c, P)], mod)
        add("indirect", "T f = p[idx];", "ld", es, lambda c, P: [P[0] + es * perm[j] for j in it(c, P)], mod)
        add("indirect", "p[idx] = f;", "st", es, lambda c, P: [P[0] + es * perm[j] for j in it(c, P)], mod)
    elif mod == "transactions":
        base = kern[kern.index("_Z") + 2:]
        name = re.match(r"\d+(\w+?)P6float4", base).group(1)
        idx = {"sameAddress": lambda c: 0, "sequentialAddresses": lambda c: c.tx,
               "separateCacheLines": lambda c: c.tx * 8}[name.replace("_each", "")]
        if name.endswith("_each"):
            add("store_each", "asm volatile", "st", 16,
                lambda c, P: [P[0] + 16 * idx(c) if c.tx < k else None for k in range(1, 33)], mod)
        else:
            # after dead-store elimination one store remains, executed by all lanes; its .loc
            # (PTX and SASS) is the call site, the kernel's own line
            add(name, "store(values", "st", 16, lambda c, P: [P[0] + 16 * idx(c)], mod)
    elif mod == "fma" and "fma_split" in kern:
        T = launch["grid"][0] * launch["block"][0]
        it = lambda c, P: list(range(c.i, P[0], T))  # noqa: E731
        add("fma_split", "T xv = x[i];", "ld", 4, lambda c, P: [P[1] + 4 * j for j in it(c, P)], mod)
        add("fma_split", "user_arg[o];", "ld", 4, lambda c, P: [P[3] for j in it(c, P)], mod)
        add("fma_split", "T yv = y[i];", "ld", 4, lambda c, P: [P[2] + 4 * j for j in it(c, P)], mod)
        add("fma_split", "y[i] = xv", "st", 4, lambda c, P: [P[2] + 4 * j for j in it(c, P)], mod)
    elif mod == "fma" and "Li1E" in kern:
        # x[i], user_arg[0] and y[i] are loaded on one line: three instances per iteration
        T = launch["grid"][0] * launch["block"][0]
        it = lambda c, P: list(range(c.i, P[0], T))  # noqa: E731
        add("fma", "y[i] = x[i] * user_arg[o] + y[i];", "ld", 4,
            lambda c, P: [a for j in it(c, P) for a in (P[1] + 4 * j, P[3], P[2] + 4 * j)], mod)
        add("fma", "y[i] = x[i] * user_arg[o] + y[i];", "st", 4, lambda c, P: [P[2] + 4 * j for j in it(c, P)], mod)
    elif mod == "common_cases":
        wb = lambda c: c.i & ~31  # noqa: E731
        perm = lambda c: wb(c) + ((c.lane * 7 + 3) & 31)  # noqa: E731
        if kern == "cc_broadcast":
            add(kern, "acc += in[k];", "ld", 4, lambda c, P: [P[0] + 4 * k for k in range(P[3])], mod)
            add(kern, "out[i] = acc;", "st", 4, lambda c, P: one(c.i < P[2], P[1] + 4 * c.i), mod)
        else:
            idx = {"cc_aligned": lambda c: c.i, "cc_permuted": perm, "cc_misaligned": lambda c: c.i + 1,
                   "cc_misaligned_permuted": lambda c: perm(c) + 1, "cc_scattered": lambda c: c.i * 32}[kern]
            cond = (lambda c, P: c.i < P[2] and c.lane < P[3]) if kern == "cc_scattered" else (lambda c, P: c.i < P[2])
            add(kern, "float v = in[", "ld", 4, lambda c, P: one(cond(c, P), P[0] + 4 * idx(c)), mod)
            add(kern, "out[i] = v;", "st", 4, lambda c, P: one(cond(c, P), P[1] + 4 * c.i), mod)
    elif mod == "transpose":
        W = sc[2]

        def g(c):
            return c.bx * 32 + c.tx, c.by * 32 + c.ty
        add(kern, "float v = in[(y + j) * width + x];", "ld", 4,
            lambda c, P: [P[1] + 4 * ((g(c)[1] + j) * W + g(c)[0]) for j in range(0, 32, 8)], mod)
        if kern == "copy_tile":
            add(kern, "out[(y + j) * width + x] = v;", "st", 4,
                lambda c, P: [P[0] + 4 * ((g(c)[1] + j) * W + g(c)[0]) for j in range(0, 32, 8)], mod)
        elif kern == "transpose_naive":
            add(kern, "out[x * width + (y + j)] = v;", "st", 4,
                lambda c, P: [P[0] + 4 * (g(c)[0] * W + g(c)[1] + j) for j in range(0, 32, 8)], mod)
        else:
            pitch = 33 if kern.endswith("_pad") else 32
            add(kern, "tile[threadIdx.y + j][threadIdx.x] = v;", "st", 4,
                lambda c, P: [4 * ((c.ty + j) * pitch + c.tx) for j in range(0, 32, 8)], mod, "shared")
            add(kern, "float v = tile[threadIdx.x][threadIdx.y + j];", "ld", 4,
                lambda c, P: [4 * (c.tx * pitch + c.ty + j) for j in range(0, 32, 8)], mod, "shared")
            add(kern, "out[(y + j) * width + x] = v;", "st", 4,
                lambda c, P: [P[0] + 4 * ((c.bx * 32 + c.ty + j) * W + c.by * 32 + c.tx) for j in range(0, 32, 8)], mod)
    else:
        return None
    return S


def main():
    md = "--markdown" in sys.argv
    launches = json.load(open(os.path.join(HERE, "launches.json")))
    meas = json.load(gzip.open(os.path.join(HERE, "measured.json.gz"), "rt"))  # stored gzipped
    M = {l["id"]: l for l in meas["launches"]}
    bases = {}
    for k, name in enumerate(launches["buffers"]):
        bases[name] = (k + 1) << 32
    rows = []
    unmodelled = []
    for l in launches["launches"]:
        S = specs_for(l, None)
        if S is None:
            unmodelled.append(l["id"])
            continue
        P = {}
        for p in l["params"]:
            P[p["index"]] = bases[p["buffer"]] + p["offset_bytes"] if p["kind"] == "pointer" else p["value"]
        mod = model(l, S, P)
        meas_acc = {}
        for a in M[l["id"]]["accesses"]:
            if os.path.basename(a["file"]) != os.path.basename(SRC[l["module"]]):
                continue
            meas_acc[(a["line"], a["op"])] = a
        for (line, op), m in sorted(mod.items()):
            a = meas_acc.get((line, op))
            if a is None:
                rows.append((l["id"], line, op, None, m))
                continue
            rows.append((l["id"], line, op, a, m))
    bad = 0
    if md:
        print("| launch | line | op | requests meas / model | L1 tag requests meas / model | sectors meas / model | shared wavefronts meas / model |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
    for lid, line, op, a, m in rows:
        if a is None:
            status = "NOT MEASURED"
            bad += 1
            print("%s line %s %s: no measured entry (model %s)" % (lid, line, op, m))
            continue
        if m["space"] == "shared":
            fields = [("requests", "requests"), ("shared_wavefronts", "shared_wavefronts")]
        else:
            fields = [("requests", "requests"), ("l1_tag_requests", "l1_tag_requests"), ("sectors", "sectors")]
        diff = [f for f, g in fields if a.get(f) != m[g]]
        if md:
            def cell(f):
                if m["space"] == "shared" and f in ("l1_tag_requests", "sectors"):
                    return "-"
                if m["space"] != "shared" and f == "shared_wavefronts":
                    return "-"
                s = "%s / %s" % (a.get(f), m[f])
                return "**%s**" % s if f in diff else s
            if diff:
                print("| %s | %s | %s | %s | %s | %s | %s |" % (lid, line, op, cell("requests"), cell("l1_tag_requests"),
                                                              cell("sectors"), cell("shared_wavefronts")))
        elif diff:
            print("DIFF %s line %s %s: %s" % (lid, line, op, ", ".join("%s meas %s model %s" % (f, a.get(f), m[f]) for f in diff)))
        bad += bool(diff)
    print("%s%d (launch, line, op) rows modelled, %d differ from the simple model; launches not modelled: %s" %
          ("\n" if md else "", len(rows), bad, ", ".join(unmodelled)))


if __name__ == "__main__":
    main()
