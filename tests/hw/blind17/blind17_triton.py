#!/usr/bin/env python3
"""Triton kernels of the seventeenth held-out batch (tests/hw/blind17), the launch
and save code copied from tests/hw/blind16/blind16_triton.py; kernels in styles
the earlier Triton batches do not have (our own code, nothing copied): a Hopper
fp16 GEMM with `tl.swizzle2d` program order (num_warps=8, num_stages=4), a
batched 3-D `tl.dot`, NeRF volume-rendering weights by `tl.cumprod`, a complex
multiply through `tl.split` / `tl.interleave`, a jagged-to-padded copy with
`tl.multiple_of` / `tl.max_contiguous` hints, a hashed embedding with
`tl.umulhi`, a k-means assignment by `tl.dot` + `tl.argmin`, a suffix sum by
`tl.flip` + `tl.cumsum`, a row checksum by `tl.xor_sum`, and a libdevice
`erfinv` over a transposed (column-major) view. Each runs once; the script is
run under ncu with `-k regex:^t17_` (tests/hw/blind17/measure_blind17.sh).
Writes OUT/ID.{ptx,cubin,json} and OUT/triton_launches.json (PTX paths named
tests/hw/blind17/triton/ID.ptx). A kernel that fails to compile or run is
reported and left out.

  python3 tests/hw/blind17/blind17_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl

try:
    from triton.language.extra import libdevice
except Exception:  # older layouts
    from triton.language.extra.cuda import libdevice


@triton.jit
def t17_matmul_swizzle2d(A, B, C, M, N, K, stride_am, stride_bk, stride_cm,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP: tl.constexpr):
    # fp16 GEMM, programs reordered by tl.swizzle2d into groups of GROUP row blocks; ragged M and K
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BLOCK_M)
    npn = tl.cdiv(N, BLOCK_N)
    pid_m, pid_n = tl.swizzle2d(pid // npn, pid % npn, npm, npn, GROUP)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(A + rm[:, None] * stride_am + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(B + (k0 + rk)[:, None] * stride_bk + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def t17_batched_dot3d(Q, Kt, S, G, BG: tl.constexpr, MQ: tl.constexpr, D: tl.constexpr, NK: tl.constexpr):
    # BG small independent products a program by one 3-D tl.dot: [BG, MQ, D] x [BG, D, NK]
    pid = tl.program_id(0)
    g = pid * BG + tl.arange(0, BG)
    gm = g < G
    i = tl.arange(0, MQ)
    d = tl.arange(0, D)
    j = tl.arange(0, NK)
    q = tl.load(Q + g[:, None, None] * (MQ * D) + i[None, :, None] * D + d[None, None, :], mask=gm[:, None, None], other=0.0)
    k = tl.load(Kt + g[:, None, None] * (D * NK) + d[None, :, None] * NK + j[None, None, :], mask=gm[:, None, None], other=0.0)
    s = tl.dot(q, k)
    tl.store(S + g[:, None, None] * (MQ * NK) + i[None, :, None] * NK + j[None, None, :], s, mask=gm[:, None, None])


@triton.jit
def t17_nerf_cumprod(Sigma, Rgb, W, Out, NS, dt, BLOCK: tl.constexpr):
    # NeRF volume rendering of one ray: alpha = 1 - exp(-sigma dt), transmittance by tl.cumprod, weights and colour
    r = tl.program_id(0)
    s = tl.arange(0, BLOCK)
    m = s < NS
    sigma = tl.load(Sigma + r * NS + s, mask=m, other=0.0)
    alpha = 1.0 - tl.exp(-sigma * dt)
    trans = tl.cumprod(1.0 - alpha + 1e-10, axis=0)
    w = alpha * (trans / (1.0 - alpha + 1e-10))
    tl.store(W + r * NS + s, w, mask=m)
    cr = tl.load(Rgb + (r * NS + s) * 3, mask=m, other=0.0)
    cg = tl.load(Rgb + (r * NS + s) * 3 + 1, mask=m, other=0.0)
    cb = tl.load(Rgb + (r * NS + s) * 3 + 2, mask=m, other=0.0)
    tl.store(Out + r * 3, tl.sum(w * cr, axis=0))
    tl.store(Out + r * 3 + 1, tl.sum(w * cg, axis=0))
    tl.store(Out + r * 3 + 2, tl.sum(w * cb, axis=0))


@triton.jit
def t17_complex_mul_interleave(X, Tw, Y, C, BLOCK: tl.constexpr):
    # complex64 rows (float pairs) times a per-column twiddle: tl.split into re / im, tl.interleave back
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    two = tl.arange(0, 2)
    m2 = (c[:, None] < C) & (two[None, :] < 2)
    x = tl.load(X + r * 2 * C + c[:, None] * 2 + two[None, :], mask=m2, other=0.0)
    t = tl.load(Tw + c[:, None] * 2 + two[None, :], mask=m2, other=0.0)
    xr, xi = tl.split(x)
    tr, ti = tl.split(t)
    y = tl.interleave(xr * tr - xi * ti, xr * ti + xi * tr)
    o = tl.arange(0, 2 * BLOCK)
    tl.store(Y + r * 2 * C + o, y, mask=o < 2 * C)


@triton.jit
def t17_jagged_to_padded(Values, Offsets, Out, MAXLEN, D: tl.constexpr, BLOCK_T: tl.constexpr):
    # jagged [total, D] fp16 rows to a zero-padded [B, MAXLEN, D]: bounds from loaded offsets, alignment hints
    b = tl.program_id(0)
    tb = tl.program_id(1)
    start = tl.load(Offsets + b)
    end = tl.load(Offsets + b + 1)
    base = tl.multiple_of(start * D, 16)
    t = tb * BLOCK_T + tl.arange(0, BLOCK_T)
    d = tl.max_contiguous(tl.arange(0, D), D)
    valid = t < end - start
    v = tl.load(Values + base + t[:, None] * D + d[None, :], mask=valid[:, None], other=0.0)
    tl.store(Out + (b * MAXLEN + t[:, None]) * D + d[None, :], v, mask=t[:, None] < MAXLEN)


@triton.jit
def t17_hash_embed_umulhi(Ids, Table, Out, N, NB, D, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    # hashing-trick embedding: bucket = umulhi(mix(id), NB) (the fast range reduction), fp16 rows of D gathered
    pid = tl.program_id(0)
    n = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    nm = n < N
    x = tl.load(Ids + n, mask=nm, other=0).to(tl.uint32, bitcast=True)
    h = x ^ (x >> 16)
    h = h * 73244475
    h = h ^ (h >> 16)
    bucket = tl.umulhi(h, NB.to(tl.uint32))
    d = tl.arange(0, BLOCK_D)
    dm = d < D
    row = tl.load(Table + bucket.to(tl.int64)[:, None] * D + d[None, :], mask=nm[:, None] & dm[None, :], other=0.0)
    tl.store(Out + n[:, None] * D + d[None, :], row, mask=nm[:, None] & dm[None, :])


@triton.jit
def t17_kmeans_assign(X, Cent, Assign, Dmin, N, BLOCK_N: tl.constexpr, KC: tl.constexpr, D: tl.constexpr):
    # k-means assignment: ||c||^2 - 2 x.c by an fp32 tl.dot (ieee), the nearest centroid by tl.argmin
    pid = tl.program_id(0)
    n = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    nm = n < N
    d = tl.arange(0, D)
    k = tl.arange(0, KC)
    x = tl.load(X + n[:, None] * D + d[None, :], mask=nm[:, None], other=0.0)
    ct = tl.load(Cent + k[None, :] * D + d[:, None])
    cc = tl.sum(ct * ct, axis=0)
    dist = cc[None, :] - 2.0 * tl.dot(x, ct, input_precision="ieee")
    a = tl.argmin(dist, axis=1)
    dm = tl.min(dist, axis=1) + tl.sum(x * x, axis=1)
    tl.store(Assign + n, a.to(tl.int32), mask=nm)
    tl.store(Dmin + n, dm, mask=nm)


@triton.jit
def t17_suffix_sum_flip(X, Y, C, stride, BLOCK: tl.constexpr):
    # reverse (suffix) cumsum of a row: tl.flip, tl.cumsum, tl.flip
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    x = tl.load(X + r * stride + c, mask=c < C, other=0.0)
    y = tl.flip(tl.cumsum(tl.flip(x, 0), axis=0), 0)
    tl.store(Y + r * stride + c, y, mask=c < C)


@triton.jit
def t17_xor_sum_rows(X, Out, R, C, stride, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # row checksums: int32 rows folded by tl.xor_sum over column chunks of a [BLOCK_R, BLOCK_C] tile
    pid = tl.program_id(0)
    r = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    rm = r < R
    acc = tl.zeros((BLOCK_R,), dtype=tl.int32)
    for c0 in range(0, C, BLOCK_C):
        c = c0 + tl.arange(0, BLOCK_C)
        x = tl.load(X + r[:, None] * stride + c[None, :], mask=rm[:, None] & (c[None, :] < C), other=0)
        acc = acc ^ tl.xor_sum(x, axis=1)
    tl.store(Out + r, acc, mask=rm)


@triton.jit
def t17_erfinv_transposed(X, Y, M, N, sxm, sxn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # probit of a transposed (column-major) view: y = sqrt(2) erfinv(2 x - 1) by libdevice, y contiguous
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    m = pm * BLOCK_M + tl.arange(0, BLOCK_M)
    n = pn * BLOCK_N + tl.arange(0, BLOCK_N)
    msk = (m[:, None] < M) & (n[None, :] < N)
    x = tl.load(X + m[:, None] * sxm + n[None, :] * sxn, mask=msk, other=0.5)
    y = 1.4142135623730951 * libdevice.erfinv(2.0 * x - 1.0)
    tl.store(Y + m[:, None] * N + n[None, :], y, mask=msk)

def describe(v):
    if isinstance(v, torch.Tensor):
        return {"kind": "tensor", "dtype": str(v.dtype).replace("torch.", ""), "shape": list(v.shape),
                "strides_elements": list(v.stride()), "element_bytes": v.element_size(),
                "address_mod_4096": v.data_ptr() % 4096, "address_hex": hex(v.data_ptr())}
    if isinstance(v, float):
        return {"kind": "scalar", "type": "float", "value": v}
    return {"kind": "scalar", "type": "int", "value": int(v)}


def save(out, launches, lid, handle, fn, names, args, constexprs, grid, note):
    asm = handle.asm
    with open(os.path.join(out, lid + ".ptx"), "w") as f:
        f.write(asm["ptx"])
    with open(os.path.join(out, lid + ".cubin"), "wb") as f:
        f.write(asm["cubin"])
    md = handle.metadata
    try:
        mdd = md._asdict()
    except AttributeError:
        mdd = dict(md.__dict__) if hasattr(md, "__dict__") else {"repr": repr(md)}
    with open(os.path.join(out, lid + ".json"), "w") as f:
        json.dump(mdd, f, indent=1, default=str)
    nw = mdd.get("num_warps")
    launches.append({
        "id": lid, "order": len(launches), "module": "blind17_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind17/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(17017)
    dev = "cuda"
    launches = []

    def attempt(lid, f):
        try:
            f()
        except Exception:
            print("triton launch %s FAILED" % lid)
            traceback.print_exc()

    def rel(y, ref):
        y = y.float().to(ref.device)
        ref = ref.float()
        return ((y - ref).norm() / max(ref.norm().item(), 1e-30)).item()

    def matmul():
        M, N, K = 1000, 768, 1000
        a = torch.randn((M, K), device=dev, dtype=torch.float16)
        b = torch.randn((K, N), device=dev, dtype=torch.float16)
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        grid = (triton.cdiv(M, 128) * triton.cdiv(N, 128),)
        args = (a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        h = t17_matmul_swizzle2d[grid](*args, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP=4, num_warps=8, num_stages=4)
        torch.cuda.synchronize()
        save(out, launches, "t17_matmul_swizzle2d", h, "t17_matmul_swizzle2d",
             ("A", "B", "C", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"), args,
             {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP": 4}, grid,
             "fp16 GEMM 1,000 x 768 x 1,000 (A [M, K], B [K, N] row-major), 128 x 128 x 64 tiles, 48 programs reordered by tl.swizzle2d in groups of 4 row blocks, ragged M (the last block 104 rows) and K (the last chunk 40 of 64, masked), num_warps=8, num_stages=4; rel. error %.2e" % rel(c, a.float() @ b.float()))

    def bdot():
        G, MQ, D, NK = 1001, 32, 64, 32
        q = torch.randn((G, MQ, D), device=dev, dtype=torch.float16)
        k = torch.randn((G, D, NK), device=dev, dtype=torch.float16)
        s = torch.empty((G, MQ, NK), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(G, 4),)
        args = (q, k, s, G)
        h = t17_batched_dot3d[grid](*args, BG=4, MQ=MQ, D=D, NK=NK, num_warps=4)
        torch.cuda.synchronize()
        save(out, launches, "t17_batched_dot3d", h, "t17_batched_dot3d", ("Q", "Kt", "S", "G"), args,
             {"BG": 4, "MQ": MQ, "D": D, "NK": NK}, grid,
             "1,001 independent fp16 products [32, 64] x [64, 32] (packed), 4 a program by one 3-D tl.dot into fp32 [4, 32, 32], 251 programs (the last 1 group of 4), num_warps=4; rel. error %.2e" % rel(s, torch.bmm(q.float(), k.float())))

    def nerf():
        R, NS = 16384, 193
        sigma = torch.rand((R, NS), device=dev, dtype=torch.float32) * 2.0
        rgb = torch.rand((R, NS, 3), device=dev, dtype=torch.float32)
        w = torch.empty((R, NS), device=dev, dtype=torch.float32)
        o = torch.empty((R, 3), device=dev, dtype=torch.float32)
        args = (sigma, rgb, w, o, NS, 0.05)
        h = t17_nerf_cumprod[(R,)](*args, BLOCK=256, num_warps=4)
        torch.cuda.synchronize()
        al = 1.0 - torch.exp(-sigma * 0.05)
        tr = torch.cumprod(torch.cat([torch.ones((R, 1), device=dev), 1.0 - al + 1e-10], 1), 1)[:, :-1]
        rw = al * tr
        err = max(rel(w, rw), rel(o, (rw[..., None] * rgb).sum(1)))
        save(out, launches, "t17_nerf_cumprod", h, "t17_nerf_cumprod", ("Sigma", "Rgb", "W", "Out", "NS", "dt"), args,
             {"BLOCK": 256}, (R,),
             "NeRF volume-rendering weights: 16,384 rays of 193 samples (772-byte rows), a [256] block masked to 193, alpha = 1 - exp(-sigma dt), transmittance by tl.cumprod, weights stored, rgb [R, 193, 3] read as three stride-3 loads, the colour by three scalar stores, num_warps=4; rel. error %.2e" % err)

    def cmul():
        R, C = 4096, 1000
        x = torch.randn((R, C), device=dev, dtype=torch.complex64)
        tw = torch.exp(1j * torch.rand((C,), device=dev) * 6.283).to(torch.complex64)
        y = torch.empty_like(x)
        xv, tv, yv = torch.view_as_real(x), torch.view_as_real(tw), torch.view_as_real(y)
        args = (xv, tv, yv, C)
        h = t17_complex_mul_interleave[(R,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        save(out, launches, "t17_complex_mul_interleave", h, "t17_complex_mul_interleave", ("X", "Tw", "Y", "C"), args,
             {"BLOCK": 1024}, (R,),
             "complex64 [4,096, 1,000] times a per-column twiddle: a [1,024, 2] float block a row (8,000-byte rows, masked to 1,000), tl.split into re / im, products, tl.interleave back to [2,048] and stored masked to 2,000 floats, num_warps=4; rel. error %.2e" % rel(yv, torch.view_as_real(x * tw[None, :])))

    def jagged():
        B, MAXLEN, D = 512, 256, 128
        lens = torch.randint(0, MAXLEN + 1, (B,), device=dev, dtype=torch.int32)
        offs = torch.zeros((B + 1,), device=dev, dtype=torch.int32)
        offs[1:] = torch.cumsum(lens, 0)
        tot = int(offs[-1])
        vals = torch.randn((tot, D), device=dev, dtype=torch.float16)
        o = torch.empty((B, MAXLEN, D), device=dev, dtype=torch.float16)
        args = (vals, offs, o, MAXLEN)
        grid = (B, MAXLEN // 64)
        h = t17_jagged_to_padded[grid](*args, D=D, BLOCK_T=64, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.zeros_like(o)
        oc = offs.cpu()
        for b in range(B):
            ref[b, :oc[b + 1] - oc[b]] = vals[oc[b]:oc[b + 1]]
        save(out, launches, "t17_jagged_to_padded", h, "t17_jagged_to_padded", ("Values", "Offsets", "Out", "MAXLEN"), args,
             {"D": D, "BLOCK_T": 64}, grid,
             "jagged to padded dense (torch.ops.fbgemm.jagged_to_padded_dense style): fp16 values [%d, 128] over 512 sequences of 0..256 rows (loaded offsets), out [512, 256, 128] zero-padded, grid (512, 4) of [64, 128] tiles, tl.multiple_of(start * D, 16) and tl.max_contiguous hints, num_warps=4; rel. error %.2e" % (tot, rel(o, ref)))

    def hemb():
        N, NB, D = 65536, 50000, 100
        ids = torch.randint(0, 2 ** 31 - 1, (N,), device=dev, dtype=torch.int32)
        table = torch.randn((NB, D), device=dev, dtype=torch.float16)
        o = torch.empty((N, D), device=dev, dtype=torch.float16)
        args = (ids, table, o, N, NB, D)
        grid = (triton.cdiv(N, 32),)
        h = t17_hash_embed_umulhi[grid](*args, BLOCK_N=32, BLOCK_D=128, num_warps=4)
        torch.cuda.synchronize()
        x = ids.long() & 0xFFFFFFFF
        hh = x ^ (x >> 16)
        hh = (hh * 73244475) & 0xFFFFFFFF
        hh = hh ^ (hh >> 16)
        bk = (hh * NB) >> 32
        save(out, launches, "t17_hash_embed_umulhi", h, "t17_hash_embed_umulhi", ("Ids", "Table", "Out", "N", "NB", "D"), args,
             {"BLOCK_N": 32, "BLOCK_D": 128}, grid,
             "hashing-trick embedding: 65,536 int32 ids mixed (xor-shift, multiply) and reduced to 50,000 buckets by tl.umulhi, fp16 rows of 100 (200-byte rows) gathered at the computed bucket, a [32, 128] block masked to 100 columns, num_warps=4; rel. error %.2e" % rel(o, table[bk]))

    def kmeans():
        N, KC, D = 100003, 64, 16
        x = torch.randn((N, D), device=dev, dtype=torch.float32)
        cent = torch.randn((KC, D), device=dev, dtype=torch.float32)
        a = torch.empty((N,), device=dev, dtype=torch.int32)
        dm = torch.empty((N,), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(N, 128),)
        args = (x, cent, a, dm, N)
        h = t17_kmeans_assign[grid](*args, BLOCK_N=128, KC=KC, D=D, num_warps=4)
        torch.cuda.synchronize()
        dd = torch.cdist(x.double(), cent.double()) ** 2
        ra = dd.argmin(1)
        bad = int((a.long() != ra).sum())
        save(out, launches, "t17_kmeans_assign", h, "t17_kmeans_assign", ("X", "Cent", "Assign", "Dmin", "N"), args,
             {"BLOCK_N": 128, "KC": KC, "D": D}, grid,
             "k-means assignment: 100,003 fp32 points of 16 against 64 centroids, [128, 16] x [16, 64] tl.dot (input_precision ieee), tl.argmin over the centroids, int32 ids and squared distances stored, 782 programs (the last 35 rows), num_warps=4; %d of 100,003 ids differ from float64, rel. error of the distances %.2e" % (bad, rel(dm, dd.min(1).values)))

    def suffix():
        R, C = 4096, 333
        x = torch.randn((R, C), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        args = (x, y, C, x.stride(0))
        h = t17_suffix_sum_flip[(R,)](*args, BLOCK=512, num_warps=4)
        torch.cuda.synchronize()
        save(out, launches, "t17_suffix_sum_flip", h, "t17_suffix_sum_flip", ("X", "Y", "C", "stride"), args, {"BLOCK": 512},
             (R,),
             "suffix (reverse) cumsum of fp32 rows [4,096, 333] (1,332-byte rows) by tl.flip, tl.cumsum, tl.flip: a [512] block masked to 333, one program a row, num_warps=4; rel. error %.2e" % rel(y, x.flip(1).cumsum(1).flip(1)))

    def xorsum():
        R, C = 8190, 1500
        x = torch.randint(-2 ** 31, 2 ** 31 - 1, (R, C), device=dev, dtype=torch.int32)
        o = torch.empty((R,), device=dev, dtype=torch.int32)
        args = (x, o, R, C, x.stride(0))
        grid = (triton.cdiv(R, 8),)
        h = t17_xor_sum_rows[grid](*args, BLOCK_R=8, BLOCK_C=256, num_warps=4)
        torch.cuda.synchronize()
        ref = x.clone()
        w = C
        while w > 1:
            hw = w // 2
            ref[:, :hw] ^= ref[:, w - hw:w]
            w = w - hw
        bad = int((o != ref[:, 0]).sum())
        save(out, launches, "t17_xor_sum_rows", h, "t17_xor_sum_rows", ("X", "Out", "R", "C", "stride"), args,
             {"BLOCK_R": 8, "BLOCK_C": 256}, grid,
             "row checksums of int32 [8,190, 1,500] (6,000-byte rows) by tl.xor_sum over 6 column chunks of an [8, 256] tile (the last 220 columns), 1,024 programs (the last 6 rows), num_warps=4; %d of 8,190 differ" % bad)

    def erfinv():
        M, N = 3001, 1001
        base = torch.rand((N, M), device=dev, dtype=torch.float32) * 0.998 + 0.001
        xt = base.t()
        y = torch.empty((M, N), device=dev, dtype=torch.float32)
        args = (xt, y, M, N, xt.stride(0), xt.stride(1))
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
        h = t17_erfinv_transposed[grid](*args, BLOCK_M=64, BLOCK_N=64, num_warps=4)
        torch.cuda.synchronize()
        save(out, launches, "t17_erfinv_transposed", h, "t17_erfinv_transposed", ("X", "Y", "M", "N", "sxm", "sxn"), args,
             {"BLOCK_M": 64, "BLOCK_N": 64}, grid,
             "probit sqrt(2) erfinv(2 x - 1) by libdevice over a transposed view: x = base.t() with base fp32 [1,001, 3,001] (strides (1, 3,001)), y contiguous [3,001, 1,001], [64, 64] tiles, grid (47, 16), ragged both ways, num_warps=4; rel. error %.2e" % rel(y, 1.4142135623730951 * torch.erfinv(2.0 * xt - 1.0)))

    for lid, f in (("t17_matmul_swizzle2d", matmul), ("t17_batched_dot3d", bdot), ("t17_nerf_cumprod", nerf),
                   ("t17_complex_mul_interleave", cmul), ("t17_jagged_to_padded", jagged),
                   ("t17_hash_embed_umulhi", hemb), ("t17_kmeans_assign", kmeans), ("t17_suffix_sum_flip", suffix),
                   ("t17_xor_sum_rows", xorsum), ("t17_erfinv_transposed", erfinv)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-32s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
