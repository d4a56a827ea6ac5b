#!/usr/bin/env python3
"""Triton kernels of the nineteenth held-out batch (tests/hw/blind19), the launch
and save code copied from tests/hw/blind18/blind18_triton.py; kernels in styles
the earlier Triton batches do not have (our own code, nothing copied): torch.cdist
through a tl.dot of fp16 tiles and row norms, a per-pixel NLL loss gathering the
target's channel plane of NCHW log-probabilities (ignore_index masked), a
max_unpool2d scatter at loaded int64 indices, a dropout backward reading a
bit-packed mask (8 elements a byte), torch.bucketize as an 11-step binary search
of loaded boundaries, a chunked two-pass KL divergence of logits rows with a
masked vocabulary tail, a ViT patchify (unfold of 16 x 16 patches), a triplet
margin loss gathering three embedding rows, an MSE loss reduced by one
tl.atomic_add a program, and a dilated depthwise 1-D convolution in NLC layout.
Each runs once; the script is run under ncu with `-k regex:^t19_`
(tests/hw/blind19/measure_blind19.sh). Writes OUT/ID.{ptx,cubin,json} and
OUT/triton_launches.json (PTX paths named tests/hw/blind19/triton/ID.ptx). A
kernel that fails to compile or run is reported and left out.

  python3 tests/hw/blind19/blind19_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def t19_cdist_dot(X, YT, Out, M, N, D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # torch.cdist (p = 2) as |x|^2 + |y|^2 - 2 x.y: one fp16 tl.dot a tile (D = 64), Y stored transposed [D, N]
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rd = tl.arange(0, D)
    x = tl.load(X + rm[:, None] * D + rd[None, :], mask=rm[:, None] < M, other=0.0)
    y = tl.load(YT + rd[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=0.0)
    xy = tl.dot(x, y)
    xf = x.to(tl.float32)
    yf = y.to(tl.float32)
    xn = tl.sum(xf * xf, axis=1)
    yn = tl.sum(yf * yf, axis=0)
    d2 = tl.maximum(xn[:, None] + yn[None, :] - 2.0 * xy, 0.0)
    tl.store(Out + rm[:, None] * N + rn[None, :], tl.sqrt(d2), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def t19_nll_loss2d(LogP, Target, Loss, total, C, HW, ignore_index, BLOCK: tl.constexpr):
    # per-pixel NLL (reduction='none') of NCHW log-probabilities: the target's channel plane gathered
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < total
    n = offs // HW
    hw = offs % HW
    t = tl.load(Target + offs, mask=m, other=ignore_index)
    valid = m & (t != ignore_index)
    v = tl.load(LogP + n * C * HW + t * HW + hw, mask=valid, other=0.0)
    tl.store(Loss + offs, tl.where(valid, -v, 0.0), mask=m)


@triton.jit
def t19_max_unpool2d(Val, Idx, Out, L, OL, BLOCK: tl.constexpr):
    # max_unpool2d: each pooled value stored at its loaded int64 index in the output plane
    pid_nc = tl.program_id(1)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < L
    v = tl.load(Val + pid_nc * L + offs, mask=m, other=0.0)
    i = tl.load(Idx + pid_nc * L + offs, mask=m, other=0)
    tl.store(Out + pid_nc * OL + i, v, mask=m)


@triton.jit
def t19_dropout_bwd_bitmask(G, Mask, Out, n, scale, BLOCK: tl.constexpr):
    # dropout backward with a bit-packed keep mask (8 elements a byte, little bit first)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    g = tl.load(G + offs, mask=m, other=0.0)
    byte = tl.load(Mask + offs // 8, mask=m, other=0)
    keep = ((byte.to(tl.int32) >> (offs % 8)) & 1) != 0
    tl.store(Out + offs, tl.where(keep, g.to(tl.float32) * scale, 0.0).to(tl.float16), mask=m)


@triton.jit
def t19_bucketize_binsearch(X, Bnd, Out, n, NB, STEPS: tl.constexpr, BLOCK: tl.constexpr):
    # torch.bucketize(x, boundaries) (right=False): a lower-bound binary search of loaded boundaries
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m, other=0.0)
    lo = tl.zeros((BLOCK,), dtype=tl.int32)
    hi = tl.zeros((BLOCK,), dtype=tl.int32) + NB
    for _ in tl.static_range(STEPS):
        act = lo < hi
        mid = (lo + hi) // 2
        b = tl.load(Bnd + mid, mask=m & act, other=0.0)
        go = b < x
        lo = tl.where(act & go, mid + 1, lo)
        hi = tl.where(act & (b >= x), mid, hi)
    tl.store(Out + offs, lo, mask=m)


@triton.jit
def t19_kl_div_rows_chunked(S, T, Loss, V, stride, BLOCK: tl.constexpr):
    # KL(softmax(t) || softmax(s)) of logits rows: pass 1 online max / sum of both, pass 2 the sum, masked tail
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    ms = tl.full((BLOCK,), -float("inf"), tl.float32)
    mt = tl.full((BLOCK,), -float("inf"), tl.float32)
    ss = tl.zeros((BLOCK,), tl.float32)
    st = tl.zeros((BLOCK,), tl.float32)
    for c0 in range(0, V, BLOCK):
        c = c0 + cols
        m = c < V
        s = tl.load(S + row * stride + c, mask=m, other=-float("inf"))
        t = tl.load(T + row * stride + c, mask=m, other=-float("inf"))
        ns = tl.maximum(ms, s)
        nt = tl.maximum(mt, t)
        ss = ss * tl.exp(ms - tl.where(ns == -float("inf"), 0.0, ns)) + tl.where(m, tl.exp(s - ns), 0.0)
        st = st * tl.exp(mt - tl.where(nt == -float("inf"), 0.0, nt)) + tl.where(m, tl.exp(t - nt), 0.0)
        ms = ns
        mt = nt
    gs = tl.max(ms, 0)
    gt = tl.max(mt, 0)
    lse_s = gs + tl.log(tl.sum(ss * tl.exp(ms - gs), 0))
    lse_t = gt + tl.log(tl.sum(st * tl.exp(mt - gt), 0))
    acc = tl.zeros((BLOCK,), tl.float32)
    for c0 in range(0, V, BLOCK):
        c = c0 + cols
        m = c < V
        s = tl.load(S + row * stride + c, mask=m, other=0.0)
        t = tl.load(T + row * stride + c, mask=m, other=0.0)
        lt = t - lse_t
        acc += tl.where(m, tl.exp(lt) * (lt - (s - lse_s)), 0.0)
    tl.store(Loss + row, tl.sum(acc, 0))


@triton.jit
def t19_patchify_vit(X, Out, H, W, NPW, C: tl.constexpr, P: tl.constexpr, BLOCK: tl.constexpr):
    # ViT patch embedding input: [B, C, H, W] to [B, patches, C P P], a program a patch
    b = tl.program_id(1)
    p = tl.program_id(0)
    ph = p // NPW
    pw = p % NPW
    e = tl.arange(0, BLOCK)
    m = e < C * P * P
    c = e // (P * P)
    i = (e // P) % P
    j = e % P
    v = tl.load(X + ((b * C + c) * H + ph * P + i) * W + pw * P + j, mask=m, other=0.0)
    npatch = (H // P) * NPW
    tl.store(Out + (b * npatch + p) * (C * P * P) + e, v, mask=m)


@triton.jit
def t19_triplet_margin_rows(E, A, Pz, Ng, Loss, T, margin, D: tl.constexpr, BLOCK_T: tl.constexpr):
    # TripletMarginLoss (p = 2, reduction='none'): anchor, positive and negative rows gathered by index
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    tm = t < T
    d = tl.arange(0, D)
    ia = tl.load(A + t, mask=tm, other=0)
    ip = tl.load(Pz + t, mask=tm, other=0)
    ineg = tl.load(Ng + t, mask=tm, other=0)
    a = tl.load(E + ia[:, None] * D + d[None, :], mask=tm[:, None], other=0.0)
    p = tl.load(E + ip[:, None] * D + d[None, :], mask=tm[:, None], other=0.0)
    q = tl.load(E + ineg[:, None] * D + d[None, :], mask=tm[:, None], other=0.0)
    dp = tl.sqrt(tl.sum((a - p + 1e-6) * (a - p + 1e-6), axis=1))
    dn = tl.sqrt(tl.sum((a - q + 1e-6) * (a - q + 1e-6), axis=1))
    tl.store(Loss + t, tl.maximum(dp - dn + margin, 0.0), mask=tm)


@triton.jit
def t19_mse_partial_atomic(Pd, Tg, Out, n, inv_n, BLOCK: tl.constexpr):
    # MSELoss (mean): a block's partial sum added to one scalar by tl.atomic_add
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    p = tl.load(Pd + offs, mask=m, other=0.0)
    q = tl.load(Tg + offs, mask=m, other=0.0)
    d = p - q
    tl.atomic_add(Out, tl.sum(d * d, 0) * inv_n)


@triton.jit
def t19_dilated_dwconv1d(X, Wt, Y, L, C, K: tl.constexpr, DIL: tl.constexpr, BLOCK_L: tl.constexpr,
                         BLOCK_C: tl.constexpr):
    # depthwise 1-D convolution in NLC layout, kernel 5, dilation 4, 'same' zero padding (rows masked)
    b = tl.program_id(1)
    rl = tl.program_id(0) * BLOCK_L + tl.arange(0, BLOCK_L)
    rc = tl.arange(0, BLOCK_C)
    cm = rc < C
    acc = tl.zeros((BLOCK_L, BLOCK_C), tl.float32)
    for k in tl.static_range(K):
        src = rl + (k - K // 2) * DIL
        lm = (src >= 0) & (src < L)
        x = tl.load(X + (b * L + src[:, None]) * C + rc[None, :], mask=lm[:, None] & cm[None, :], other=0.0)
        w = tl.load(Wt + rc * K + k, mask=cm, other=0.0)
        acc += x * w[None, :]
    tl.store(Y + (b * L + rl[:, None]) * C + rc[None, :], acc, mask=(rl[:, None] < L) & cm[None, :])


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
        "id": lid, "order": len(launches), "module": "blind19_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind19/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(19019)
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

    def cdist():
        M, N, D = 1000, 777, 64
        x = torch.randn((M, D), device=dev, dtype=torch.float16)
        y = torch.randn((N, D), device=dev, dtype=torch.float16)
        yt = y.t().contiguous()
        o = torch.empty((M, N), device=dev)
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
        args = (x, yt, o, M, N)
        h = t19_cdist_dot[grid](*args, D=D, BLOCK_M=64, BLOCK_N=64, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.cdist(x.float(), y.float())
        save(out, launches, "t19_cdist_dot", h, "t19_cdist_dot", ("X", "YT", "Out", "M", "N"), args,
             {"D": D, "BLOCK_M": 64, "BLOCK_N": 64}, grid,
             "torch.cdist of fp16 [1,000, 64] and [777, 64] as |x|^2 + |y|^2 - 2 x.y: one tl.dot of [64, 64] tiles (Y stored transposed [64, 777], 1,554-byte rows), fp32 [1,000, 777] out, grid (16, 13), ragged both ways, num_warps=4; rel. error %.2e" % rel(o, ref))

    def nll():
        N, C, H, W = 8, 21, 97, 97
        logp = torch.log_softmax(torch.randn((N, C, H, W), device=dev), dim=1)
        tgt = torch.randint(0, C, (N, H, W), device=dev)
        tgt[torch.rand((N, H, W), device=dev) < 0.1] = -100
        loss = torch.empty((N, H, W), device=dev)
        total = N * H * W
        grid = (triton.cdiv(total, 1024),)
        args = (logp, tgt, loss, total, C, H * W, -100)
        h = t19_nll_loss2d[grid](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ref = F.nll_loss(logp, tgt, reduction="none", ignore_index=-100)
        save(out, launches, "t19_nll_loss2d", h, "t19_nll_loss2d", ("LogP", "Target", "Loss", "total", "C", "HW", "ignore_index"), args,
             {"BLOCK": 1024}, grid,
             "per-pixel NLL loss (reduction none, ignore_index -100 on 10 percent of pixels) of NCHW log-probabilities [8, 21, 97, 97]: the int64 target loaded, its channel plane gathered at n C HW + t HW + hw, 74 programs of 1,024 (ragged), num_warps=4; rel. error %.2e" % rel(loss, ref))

    def unpool():
        NC, H, W = 64, 56, 56
        xin = torch.randn((1, NC, 2 * H, 2 * W), device=dev)
        v, idx = F.max_pool2d(xin, 2, return_indices=True)
        v = v.contiguous()
        idx = idx.contiguous()
        o = torch.zeros((1, NC, 2 * H, 2 * W), device=dev)
        L = H * W
        grid = (triton.cdiv(L, 1024), NC)
        args = (v, idx, o, L, 4 * L)
        h = t19_max_unpool2d[grid](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ref = F.max_unpool2d(v, idx, 2)
        save(out, launches, "t19_max_unpool2d", h, "t19_max_unpool2d", ("Val", "Idx", "Out", "L", "OL"), args,
             {"BLOCK": 1024}, grid,
             "max_unpool2d (2 x 2) of [1, 64, 56, 56] into a zeroed [1, 64, 112, 112]: the int64 indices of a real max_pool2d loaded, each value stored at its index in the channel's plane (one of 4 positions of a 2 x 2 window), grid (4, 64) (the last program of a plane ragged), num_warps=4; rel. error %.2e" % rel(o, ref))

    def dropbwd():
        n = 3000001
        g = torch.randn((n,), device=dev, dtype=torch.float16)
        keep = torch.rand((n + 7) // 8 * 8, device=dev) < 0.9
        bits = (keep.view(-1, 8).to(torch.int32) << torch.arange(8, device=dev, dtype=torch.int32)).sum(1).to(torch.uint8)
        o = torch.empty_like(g)
        grid = (triton.cdiv(n, 2048),)
        args = (g, bits, o, n, 1.0 / 0.9)
        h = t19_dropout_bwd_bitmask[grid](*args, BLOCK=2048, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.where(keep[:n], g.float() / 0.9, torch.zeros_like(g.float()))
        save(out, launches, "t19_dropout_bwd_bitmask", h, "t19_dropout_bwd_bitmask", ("G", "Mask", "Out", "n", "scale"), args,
             {"BLOCK": 2048}, grid,
             "dropout backward with a bit-packed keep mask: fp16 gradient [3,000,001], the uint8 mask byte offs // 8 loaded a element (8 elements a byte), bit offs mod 8, scale 1 / 0.9, 1,465 programs of 2,048 (ragged), num_warps=4; rel. error %.2e" % rel(o, ref))

    def bucket():
        n, NB = 1000003, 1023
        bnd = torch.sort(torch.randn((NB,), device=dev) * 2)[0]
        x = torch.randn((n,), device=dev) * 2
        o = torch.empty((n,), device=dev, dtype=torch.int32)
        grid = (triton.cdiv(n, 1024),)
        args = (x, bnd, o, n, NB)
        h = t19_bucketize_binsearch[grid](*args, STEPS=11, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.bucketize(x, bnd).to(torch.int32)
        bad = int((o != ref).sum().item())
        save(out, launches, "t19_bucketize_binsearch", h, "t19_bucketize_binsearch", ("X", "Bnd", "Out", "n", "NB"), args,
             {"STEPS": 11, "BLOCK": 1024}, grid,
             "torch.bucketize of fp32 [1,000,003] normal values into 1,023 sorted boundaries: a lower-bound binary search unrolled 11 steps by tl.static_range, the boundary at the per-lane midpoint loaded (masked once lo = hi), 977 programs of 1,024 (ragged), num_warps=4; %d of 1,000,003 buckets differ" % bad)

    def kldiv():
        R, V = 512, 5003
        s = torch.randn((R, V), device=dev)
        t = torch.randn((R, V), device=dev) * 2
        loss = torch.empty((R,), device=dev)
        args = (s, t, loss, V, s.stride(0))
        h = t19_kl_div_rows_chunked[(R,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ref = F.kl_div(torch.log_softmax(s, 1), torch.log_softmax(t, 1), reduction="none", log_target=True).sum(1)
        save(out, launches, "t19_kl_div_rows_chunked", h, "t19_kl_div_rows_chunked", ("S", "T", "Loss", "V", "stride"), args,
             {"BLOCK": 1024}, (R,),
             "KL(softmax(t) || softmax(s)) of fp32 logits rows [512, 5,003] (20,012-byte rows): pass 1 an online max / sum of both rows in chunks of 1,024, pass 2 the KL sum, the last chunk masked (907 of 1,024), a program a row, num_warps=4; rel. error %.2e" % rel(loss, ref))

    def patchify():
        B, C, H, W, P = 16, 3, 224, 224, 16
        x = torch.randn((B, C, H, W), device=dev)
        o = torch.empty((B, (H // P) * (W // P), C * P * P), device=dev)
        grid = ((H // P) * (W // P), B)
        args = (x, o, H, W, W // P)
        h = t19_patchify_vit[grid](*args, C=C, P=P, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ref = x.unfold(2, P, P).unfold(3, P, P).permute(0, 2, 3, 1, 4, 5).reshape(B, -1, C * P * P)
        save(out, launches, "t19_patchify_vit", h, "t19_patchify_vit", ("X", "Out", "H", "W", "NPW"), args,
             {"C": C, "P": P, "BLOCK": 1024}, grid,
             "ViT patchify of fp32 [16, 3, 224, 224] to [16, 196, 768]: a program a 16 x 16 patch, 48 rows of 64 bytes gathered (896-byte image rows), a [1,024] block masked to 768, grid (196, 16), num_warps=4; rel. error %.2e" % rel(o, ref))

    def triplet():
        NE, D, T = 100000, 128, 40000
        E = torch.randn((NE, D), device=dev)
        a = torch.randint(0, NE, (T,), device=dev)
        p = torch.randint(0, NE, (T,), device=dev)
        q = torch.randint(0, NE, (T,), device=dev)
        loss = torch.empty((T,), device=dev)
        grid = (triton.cdiv(T, 16),)
        args = (E, a, p, q, loss, T, 1.0)
        h = t19_triplet_margin_rows[grid](*args, D=D, BLOCK_T=16, num_warps=4)
        torch.cuda.synchronize()
        ref = F.triplet_margin_loss(E[a], E[p], E[q], margin=1.0, reduction="none")
        save(out, launches, "t19_triplet_margin_rows", h, "t19_triplet_margin_rows", ("E", "A", "Pz", "Ng", "Loss", "T", "margin"), args,
             {"D": D, "BLOCK_T": 16}, grid,
             "TripletMarginLoss (p 2, margin 1, reduction none): 40,000 triplets of int64 indices into fp32 embeddings [100,000, 128], three 512-byte rows gathered a triplet, 16 triplets a program (2,500 programs), num_warps=4; rel. error %.2e" % rel(loss, ref))

    def mse():
        n = 5000011
        p = torch.randn((n,), device=dev)
        q = torch.randn((n,), device=dev)
        o = torch.zeros((1,), device=dev)
        grid = (triton.cdiv(n, 4096),)
        args = (p, q, o, n, 1.0 / n)
        h = t19_mse_partial_atomic[grid](*args, BLOCK=4096, num_warps=8)
        torch.cuda.synchronize()
        ref = F.mse_loss(p, q)
        save(out, launches, "t19_mse_partial_atomic", h, "t19_mse_partial_atomic", ("Pd", "Tg", "Out", "n", "inv_n"), args,
             {"BLOCK": 4096}, grid,
             "MSELoss (mean) of fp32 [5,000,011]: a program's partial sum of squares (a [4,096] block, the last ragged) added to one fp32 scalar by tl.atomic_add, 1,221 programs, num_warps=8; rel. error %.2e" % rel(o, ref.reshape(1)))

    def dwconv():
        B, L, C, K, DIL = 8, 3000, 96, 5, 4
        x = torch.randn((B, L, C), device=dev)
        w = torch.randn((C, K), device=dev)
        y = torch.empty_like(x)
        grid = (triton.cdiv(L, 64), B)
        args = (x, w, y, L, C)
        h = t19_dilated_dwconv1d[grid](*args, K=K, DIL=DIL, BLOCK_L=64, BLOCK_C=128, num_warps=4)
        torch.cuda.synchronize()
        ref = F.conv1d(x.transpose(1, 2), w[:, None, :], padding=(K // 2) * DIL, dilation=DIL, groups=C).transpose(1, 2)
        save(out, launches, "t19_dilated_dwconv1d", h, "t19_dilated_dwconv1d", ("X", "Wt", "Y", "L", "C"), args,
             {"K": K, "DIL": DIL, "BLOCK_L": 64, "BLOCK_C": 128}, grid,
             "depthwise 1-D convolution, NLC fp32 [8, 3,000, 96] (384-byte rows), kernel 5, dilation 4, same zero padding: 5 row-shifted [64, 128] tiles (channels masked to 96, edge rows masked), weights [96, 5] at a 20-byte stride, grid (47, 8), num_warps=4; rel. error %.2e" % rel(y, ref))

    for lid, f in (("t19_cdist_dot", cdist), ("t19_nll_loss2d", nll), ("t19_max_unpool2d", unpool),
                   ("t19_dropout_bwd_bitmask", dropbwd), ("t19_bucketize_binsearch", bucket),
                   ("t19_kl_div_rows_chunked", kldiv), ("t19_patchify_vit", patchify),
                   ("t19_triplet_margin_rows", triplet), ("t19_mse_partial_atomic", mse),
                   ("t19_dilated_dwconv1d", dwconv)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-32s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
