#!/usr/bin/env python3
"""Triton kernels of the tenth held-out batch (tests/hw/blind10), the launch
and save code copied from tests/hw/blind9/blind9_triton.py; kernels in styles
no earlier batch has (our own code): the two halves of a FlashAttention-style
backward pass (dK/dV a key block looping over query blocks, dQ a query block
looping over key blocks; LSE and delta precomputed by PyTorch); an axpy with
cache modifiers and eviction policies (.cg, evict_last, evict_first, .cs);
batch-norm statistics over NCHW (a program per channel, loops over images and
the plane); an ALiBi causal softmax; grid_sample (bilinear, zero padding)
gathering four corners over all channels; group norm on NHWC (8-channel
groups: 16-byte pieces of 512-byte pixels); packing the lower triangle of
square matrices; a scatter-max by tl.atomic_max on float32; SwiGLU backward
on a packed [gate | up] row. Each runs once; the script is run under ncu with
`-k regex:^t10_` (tests/hw/blind10/measure_blind10.sh). Writes
OUT/ID.{ptx,cubin,json} and OUT/triton_launches.json (PTX paths named
tests/hw/blind10/triton/ID.ptx). A kernel that fails to compile or run is
reported and left out.

  python3 tests/hw/blind10/blind10_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def t10_attn_bwd_dkdv(Q, K, V, DO, LSE, DELTA, DK, DV, N, sm_scale, stride_h,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):
    pid_n = tl.program_id(0)
    h = tl.program_id(1)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    nmask = offs_n < N
    base = h * stride_h
    kv_offs = base + offs_n[:, None] * D + offs_d[None, :]
    k = tl.load(K + kv_offs, mask=nmask[:, None], other=0.0)
    v = tl.load(V + kv_offs, mask=nmask[:, None], other=0.0)
    dk = tl.zeros([BLOCK_N, D], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, D], dtype=tl.float32)
    for start_m in range(0, N, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        mmask = offs_m < N
        q_offs = base + offs_m[:, None] * D + offs_d[None, :]
        q = tl.load(Q + q_offs, mask=mmask[:, None], other=0.0)
        do = tl.load(DO + q_offs, mask=mmask[:, None], other=0.0)
        lse = tl.load(LSE + h * N + offs_m, mask=mmask, other=0.0)
        delta = tl.load(DELTA + h * N + offs_m, mask=mmask, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        p = tl.exp(s - lse[:, None])
        p = tl.where(mmask[:, None] & nmask[None, :], p, 0.0)
        dv += tl.dot(tl.trans(p.to(tl.float16)), do)
        dp = tl.dot(do, tl.trans(v))
        ds = p * (dp - delta[:, None])
        dk += tl.dot(tl.trans(ds.to(tl.float16)), q)
    dk = dk * sm_scale
    tl.store(DK + kv_offs, dk.to(tl.float16), mask=nmask[:, None])
    tl.store(DV + kv_offs, dv.to(tl.float16), mask=nmask[:, None])


@triton.jit
def t10_attn_bwd_dq(Q, K, V, DO, LSE, DELTA, DQ, N, sm_scale, stride_h,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):
    pid_m = tl.program_id(0)
    h = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D)
    mmask = offs_m < N
    base = h * stride_h
    q_offs = base + offs_m[:, None] * D + offs_d[None, :]
    q = tl.load(Q + q_offs, mask=mmask[:, None], other=0.0)
    do = tl.load(DO + q_offs, mask=mmask[:, None], other=0.0)
    lse = tl.load(LSE + h * N + offs_m, mask=mmask, other=0.0)
    delta = tl.load(DELTA + h * N + offs_m, mask=mmask, other=0.0)
    dq = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    for start_n in range(0, N, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        nmask = offs_n < N
        kv_offs = base + offs_n[:, None] * D + offs_d[None, :]
        k = tl.load(K + kv_offs, mask=nmask[:, None], other=0.0)
        v = tl.load(V + kv_offs, mask=nmask[:, None], other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        p = tl.exp(s - lse[:, None])
        p = tl.where(nmask[None, :], p, 0.0)
        dp = tl.dot(do, tl.trans(v))
        ds = p * (dp - delta[:, None])
        dq += tl.dot(ds.to(tl.float16), k)
    dq = dq * sm_scale
    tl.store(DQ + q_offs, dq.to(tl.float16), mask=mmask[:, None])


@triton.jit
def t10_cache_hint_axpy(X, Y, Wt, Z, a, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m, other=0.0, cache_modifier=".cg")
    y = tl.load(Y + offs, mask=m, other=0.0, eviction_policy="evict_last")
    w = tl.load(Wt + offs, mask=m, other=0.0, eviction_policy="evict_first")
    tl.store(Z + offs, a * x + y * w, mask=m, cache_modifier=".cs")


@triton.jit
def t10_bn_stats_nchw(X, Mean, Var, N, C, HW, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    q = tl.zeros([BLOCK], dtype=tl.float32)
    for nimg in range(0, N):
        base = X + (nimg * C + c) * HW
        for start in range(0, HW, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            m = offs < HW
            x = tl.load(base + offs, mask=m, other=0.0)
            s += x
            q += x * x
    cnt = N * HW
    mean = tl.sum(s, axis=0) / cnt
    var = tl.sum(q, axis=0) / cnt - mean * mean
    tl.store(Mean + c, mean)
    tl.store(Var + c, var)


@triton.jit
def t10_alibi_softmax(S, P, T, H, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    i = row % T
    h = (row // T) % H
    slope = tl.exp2(-8.0 * (h + 1).to(tl.float32) / H)
    cols = tl.arange(0, BLOCK)
    m = cols < T
    x = tl.load(S + row * T + cols, mask=m, other=0.0).to(tl.float32)
    x = x * scale - slope * (i - cols).to(tl.float32)
    x = tl.where((cols <= i) & m, x, float("-inf"))
    mx = tl.max(x, axis=0)
    e = tl.exp(x - mx)
    den = tl.sum(e, axis=0)
    tl.store(P + row * T + cols, (e / den).to(tl.float16), mask=m)


@triton.jit
def t10_grid_sample_bilinear(X, G, Y, H, W, HO, WO, C: tl.constexpr, BLOCK_P: tl.constexpr):
    pid = tl.program_id(0)
    n = tl.program_id(1)
    npix = HO * WO
    offs_p = pid * BLOCK_P + tl.arange(0, BLOCK_P)
    pm = offs_p < npix
    gx = tl.load(G + n * npix * 2 + offs_p * 2, mask=pm, other=0.0)
    gy = tl.load(G + n * npix * 2 + offs_p * 2 + 1, mask=pm, other=0.0)
    ix = ((gx + 1.0) * W - 1.0) * 0.5
    iy = ((gy + 1.0) * H - 1.0) * 0.5
    fx = tl.floor(ix)
    fy = tl.floor(iy)
    ax = ix - fx
    ay = iy - fy
    x0 = fx.to(tl.int32)
    y0 = fy.to(tl.int32)
    x1 = x0 + 1
    y1 = y0 + 1
    offs_c = tl.arange(0, C)
    xb = X + n * C * H * W + offs_c[None, :] * (H * W)
    v00 = pm & (x0 >= 0) & (x0 < W) & (y0 >= 0) & (y0 < H)
    v01 = pm & (x1 >= 0) & (x1 < W) & (y0 >= 0) & (y0 < H)
    v10 = pm & (x0 >= 0) & (x0 < W) & (y1 >= 0) & (y1 < H)
    v11 = pm & (x1 >= 0) & (x1 < W) & (y1 >= 0) & (y1 < H)
    a00 = tl.load(xb + (y0 * W + x0)[:, None], mask=v00[:, None], other=0.0)
    a01 = tl.load(xb + (y0 * W + x1)[:, None], mask=v01[:, None], other=0.0)
    a10 = tl.load(xb + (y1 * W + x0)[:, None], mask=v10[:, None], other=0.0)
    a11 = tl.load(xb + (y1 * W + x1)[:, None], mask=v11[:, None], other=0.0)
    out = (a00 * ((1.0 - ax) * (1.0 - ay))[:, None] + a01 * (ax * (1.0 - ay))[:, None]
           + a10 * ((1.0 - ax) * ay)[:, None] + a11 * (ax * ay)[:, None])
    tl.store(Y + n * C * npix + offs_c[None, :] * npix + offs_p[:, None], out, mask=pm[:, None])


@triton.jit
def t10_groupnorm_nhwc(X, Wt, B, Y, HW, C, eps, CPG: tl.constexpr, BLOCK_HW: tl.constexpr):
    n = tl.program_id(0)
    g = tl.program_id(1)
    offs_c = g * CPG + tl.arange(0, CPG)
    base = n * HW * C
    s = tl.zeros([BLOCK_HW, CPG], dtype=tl.float32)
    q = tl.zeros([BLOCK_HW, CPG], dtype=tl.float32)
    for start in range(0, HW, BLOCK_HW):
        offs_p = start + tl.arange(0, BLOCK_HW)
        m = offs_p < HW
        x = tl.load(X + base + offs_p[:, None] * C + offs_c[None, :], mask=m[:, None], other=0.0).to(tl.float32)
        s += x
        q += x * x
    cnt = HW * CPG
    mean = tl.sum(tl.sum(s, axis=1), axis=0) / cnt
    var = tl.sum(tl.sum(q, axis=1), axis=0) / cnt - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(Wt + offs_c).to(tl.float32)
    b = tl.load(B + offs_c).to(tl.float32)
    for start in range(0, HW, BLOCK_HW):
        offs_p = start + tl.arange(0, BLOCK_HW)
        m = offs_p < HW
        ptrs = base + offs_p[:, None] * C + offs_c[None, :]
        x = tl.load(X + ptrs, mask=m[:, None], other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w[None, :] + b[None, :]
        tl.store(Y + ptrs, y.to(tl.float16), mask=m[:, None])


@triton.jit
def t10_tril_pack(X, P, n, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    b = tl.program_id(1)
    cols = tl.arange(0, BLOCK)
    m = cols <= i
    row = tl.load(X + b * n * n + i * n + cols, mask=m, other=0.0)
    off = b * (n * (n + 1) // 2) + i * (i + 1) // 2
    tl.store(P + off + cols, row, mask=m)


@triton.jit
def t10_scatter_max(Val, Idx, Out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(Val + offs, mask=m, other=0.0)
    i = tl.load(Idx + offs, mask=m, other=0)
    tl.atomic_max(Out + i, v, mask=m)


@triton.jit
def t10_swiglu_bwd(GU, DY, DGU, F, stride_gu, stride_dy, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = cols < F
    g = tl.load(GU + row * stride_gu + cols, mask=m, other=0.0).to(tl.float32)
    u = tl.load(GU + row * stride_gu + F + cols, mask=m, other=0.0).to(tl.float32)
    dy = tl.load(DY + row * stride_dy + cols, mask=m, other=0.0).to(tl.float32)
    sg = tl.sigmoid(g)
    dg = dy * u * sg * (1.0 + g * (1.0 - sg))
    du = dy * g * sg
    tl.store(DGU + row * stride_gu + cols, dg.to(tl.float16), mask=m)
    tl.store(DGU + row * stride_gu + F + cols, du.to(tl.float16), mask=m)


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
        "id": lid, "order": len(launches), "module": "blind10_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind10/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(10010)
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

    def attn_bwd():
        ZH, N, D = 16, 1000, 64
        g = torch.Generator(device=dev).manual_seed(10011)
        q = torch.randn((ZH, N, D), device=dev, dtype=torch.float16, generator=g)
        k = torch.randn((ZH, N, D), device=dev, dtype=torch.float16, generator=g)
        v = torch.randn((ZH, N, D), device=dev, dtype=torch.float16, generator=g)
        do = torch.randn((ZH, N, D), device=dev, dtype=torch.float16, generator=g)
        scale = 1.0 / (D ** 0.5)
        qf, kf, vf = (t.float().requires_grad_() for t in (q, k, v))
        s = torch.einsum("hmd,hnd->hmn", qf, kf) * scale
        lse = torch.logsumexp(s, -1).detach().contiguous()
        o = torch.einsum("hmn,hnd->hmd", torch.softmax(s, -1), vf)
        o.backward(do.float())
        delta = (do.float() * o.detach()).sum(-1).contiguous()
        dk = torch.empty_like(k)
        dv = torch.empty_like(v)
        dq = torch.empty_like(q)
        ce = {"BLOCK_M": 64, "BLOCK_N": 64, "D": D}
        grid = (triton.cdiv(N, 64), ZH)
        args = (q, k, v, do, lse, delta, dk, dv, N, scale, q.stride(0))
        h = t10_attn_bwd_dkdv[grid](*args, num_warps=4, num_stages=2, **ce)
        torch.cuda.synchronize()
        save(out, launches, "t10_attn_bwd_dkdv", h, "t10_attn_bwd_dkdv",
             ("Q", "K", "V", "DO", "LSE", "DELTA", "DK", "DV", "N", "sm_scale", "stride_h"), args, ce, grid,
             "attention backward, dK and dV (FlashAttention-2 style, non-causal): 16 heads x 1,000 tokens x 64 fp16, a 64-key block a program looping over 16 query blocks (the last 40 rows masked), q / dO tiles and fp32 LSE / delta rows loaded each trip, four tl.dot a trip, num_warps=4, num_stages=2; rel. errors dK %.2e, dV %.2e" % (rel(dk, kf.grad), rel(dv, vf.grad)))
        args = (q, k, v, do, lse, delta, dq, N, scale, q.stride(0))
        h = t10_attn_bwd_dq[grid](*args, num_warps=4, num_stages=2, **ce)
        torch.cuda.synchronize()
        save(out, launches, "t10_attn_bwd_dq", h, "t10_attn_bwd_dq",
             ("Q", "K", "V", "DO", "LSE", "DELTA", "DQ", "N", "sm_scale", "stride_h"), args, ce, grid,
             "attention backward, dQ: a 64-query block a program looping over 16 key blocks (the last masked), K and V tiles loaded each trip, three tl.dot a trip, num_warps=4, num_stages=2; rel. error %.2e" % rel(dq, qf.grad))

    def axpy():
        n = 4000037
        x = torch.randn((n,), device=dev, dtype=torch.float32)
        y = torch.randn((n,), device=dev, dtype=torch.float32)
        w = torch.randn((n,), device=dev, dtype=torch.float32)
        z = torch.empty_like(x)
        args = (x, y, w, z, 1.5, n)
        grid = (triton.cdiv(n, 2048),)
        h = t10_cache_hint_axpy[grid](*args, BLOCK=2048, num_warps=8)
        torch.cuda.synchronize()
        save(out, launches, "t10_cache_hint_axpy", h, "t10_cache_hint_axpy", ("X", "Y", "Wt", "Z", "a", "n"), args,
             {"BLOCK": 2048}, grid,
             "z = a x + y w with cache hints: x loaded with cache_modifier='.cg', y with eviction_policy='evict_last', w with eviction_policy='evict_first', z stored with cache_modifier='.cs'; n = 4,000,037 (the last block masked), BLOCK 2,048, num_warps=8; rel. error %.2e" % rel(z, 1.5 * x + y * w))

    def bn_stats():
        N, C, H, W = 16, 64, 56, 56
        x = torch.randn((N, C, H, W), device=dev, dtype=torch.float32)
        mean = torch.empty((C,), device=dev, dtype=torch.float32)
        var = torch.empty((C,), device=dev, dtype=torch.float32)
        args = (x, mean, var, N, C, H * W)
        h = t10_bn_stats_nchw[(C,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        err = max(rel(mean, x.mean((0, 2, 3))), rel(var, x.var((0, 2, 3), unbiased=False)))
        save(out, launches, "t10_bn_stats_nchw", h, "t10_bn_stats_nchw", ("X", "Mean", "Var", "N", "C", "HW"), args,
             {"BLOCK": 1024}, (C,),
             "batch-norm statistics on NCHW fp32 [16, 64, 56, 56]: a program per channel, loops over 16 images and the 3,136-float plane in blocks of 1,024 (the last 64 valid), mean and biased variance, num_warps=4; rel. error %.2e" % err)

    def alibi():
        H, T = 16, 1000
        s = torch.randn((H, T, T), device=dev, dtype=torch.float16)
        p = torch.empty_like(s)
        args = (s, p, T, H, 0.125)
        h = t10_alibi_softmax[(H * T,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        i = torch.arange(T, device=dev)
        slopes = torch.exp2(-8.0 * torch.arange(1, H + 1, device=dev, dtype=torch.float32) / H)
        x = s.float() * 0.125 - slopes[:, None, None] * (i[:, None] - i[None, :]).float()
        x = x.masked_fill(i[None, :] > i[:, None], float("-inf"))
        err = rel(p, torch.softmax(x, -1))
        save(out, launches, "t10_alibi_softmax", h, "t10_alibi_softmax", ("S", "P", "T", "H", "scale"), args,
             {"BLOCK": 1024}, (H * T,),
             "ALiBi causal softmax: 16 heads x 1,000 x 1,000 fp16 scores (2,000-byte rows), a program per row, BLOCK 1,024 (24 masked), slope 2^(-8 (h + 1) / 16), columns past the diagonal masked to -inf, fp16 out, num_warps=4; rel. error %.2e" % err)

    def grid_sample():
        N, C, H, W, HO, WO = 4, 16, 128, 128, 96, 96
        x = torch.randn((N, C, H, W), device=dev, dtype=torch.float32)
        gr = (torch.rand((N, HO, WO, 2), device=dev, dtype=torch.float32) * 2.2 - 1.1).contiguous()
        y = torch.empty((N, C, HO, WO), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(HO * WO, 128), N)
        args = (x, gr, y, H, W, HO, WO)
        h = t10_grid_sample_bilinear[grid](*args, C=C, BLOCK_P=128, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.nn.functional.grid_sample(x, gr, mode="bilinear", padding_mode="zeros", align_corners=False)
        save(out, launches, "t10_grid_sample_bilinear", h, "t10_grid_sample_bilinear", ("X", "G", "Y", "H", "W", "HO", "WO"),
             args, {"C": C, "BLOCK_P": 128}, grid,
             "grid_sample bilinear, zero padding, align_corners=False: NCHW fp32 [4, 16, 128, 128] sampled at random points in [-1.1, 1.1)^2 into [4, 16, 96, 96]: grid x and y as two stride-2 loads, four corner gathers over all 16 channels (planes 64 KiB apart) with border masks, num_warps=4; rel. error %.2e" % rel(y, ref))

    def groupnorm():
        N, H, W, C, G = 8, 30, 30, 256, 32
        x = torch.randn((N, H, W, C), device=dev, dtype=torch.float16)
        w = torch.randn((C,), device=dev, dtype=torch.float16)
        b = torch.randn((C,), device=dev, dtype=torch.float16)
        y = torch.empty_like(x)
        args = (x, w, b, y, H * W, C, 1e-5)
        h = t10_groupnorm_nhwc[(N, G)](*args, CPG=C // G, BLOCK_HW=128, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.nn.functional.group_norm(x.permute(0, 3, 1, 2).float(), G, w.float(), b.float(), 1e-5).permute(0, 2, 3, 1)
        save(out, launches, "t10_groupnorm_nhwc", h, "t10_groupnorm_nhwc", ("X", "Wt", "B", "Y", "HW", "C", "eps"), args,
             {"CPG": C // G, "BLOCK_HW": 128}, (N, G),
             "group norm on NHWC fp16 [8, 30, 30, 256], 32 groups of 8 channels: a program per (image, group), [128 pixels, 8 channels] tiles (16 bytes of each 512-byte pixel), a statistics pass and a normalise pass over 900 pixels (the last tile 4 valid), num_warps=4; rel. error %.2e" % rel(y, ref))

    def tril():
        B, n = 4, 1000
        x = torch.randn((B, n, n), device=dev, dtype=torch.float32)
        p = torch.empty((B, n * (n + 1) // 2), device=dev, dtype=torch.float32)
        args = (x, p, n)
        h = t10_tril_pack[(n, B)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        r, c = torch.tril_indices(n, n, device=dev)
        save(out, launches, "t10_tril_pack", h, "t10_tril_pack", ("X", "P", "n"), args, {"BLOCK": 1024}, (n, B),
             "packing the lower triangles of 4 fp32 1,000 x 1,000 matrices: a program per row i, columns 0..i loaded (row-dependent masks) and stored at the packed offset i (i + 1) / 2 (row starts at any 4-byte offset), num_warps=4; rel. error %.2e" % rel(p, x[:, r, c]))

    def scatter_max():
        n, bins = 2000003, 65536
        v = torch.randn((n,), device=dev, dtype=torch.float32)
        idx = torch.randint(0, bins, (n,), device=dev, dtype=torch.int64)
        o = torch.full((bins,), float("-inf"), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(n, 1024),)
        args = (v, idx, o, n)
        h = t10_scatter_max[grid](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.full((bins,), float("-inf"), device=dev).scatter_reduce(0, idx, v, reduce="amax")
        bad = (o != ref).sum().item()
        save(out, launches, "t10_scatter_max", h, "t10_scatter_max", ("Val", "Idx", "Out", "n"), args, {"BLOCK": 1024}, grid,
             "scatter-max of 2,000,003 fp32 values into 65,536 bins at random int64 indices by tl.atomic_max (float32), the last block masked, num_warps=4; %d bins differ" % bad)

    def swiglu_bwd():
        M, F = 2048, 2750
        gu = torch.randn((M, 2 * F), device=dev, dtype=torch.float16)
        dy = torch.randn((M, F), device=dev, dtype=torch.float16)
        dgu = torch.empty_like(gu)
        grid = (M, triton.cdiv(F, 1024))
        args = (gu, dy, dgu, F, gu.stride(0), dy.stride(0))
        h = t10_swiglu_bwd[grid](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        g = gu[:, :F].float().requires_grad_()
        u = gu[:, F:].float().requires_grad_()
        (torch.nn.functional.silu(g) * u).backward(dy.float())
        err = max(rel(dgu[:, :F], g.grad), rel(dgu[:, F:], u.grad))
        save(out, launches, "t10_swiglu_bwd", h, "t10_swiglu_bwd", ("GU", "DY", "DGU", "F", "stride_gu", "stride_dy"), args,
             {"BLOCK": 1024}, grid,
             "SwiGLU backward on a packed [gate | up] fp16 row of 2 x 2,750 (11,000-byte rows; the up half starts 5,500 bytes in): a program per (row, block of 1,024 columns; the third 702 valid), dy rows of 5,500 bytes, both gradients stored into the packed layout, num_warps=4; rel. error %.2e" % err)

    for lid, f in (("t10_attn_bwd", attn_bwd), ("t10_cache_hint_axpy", axpy), ("t10_bn_stats_nchw", bn_stats),
                   ("t10_alibi_softmax", alibi), ("t10_grid_sample_bilinear", grid_sample),
                   ("t10_groupnorm_nhwc", groupnorm), ("t10_tril_pack", tril), ("t10_scatter_max", scatter_max),
                   ("t10_swiglu_bwd", swiglu_bwd)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-26s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
