#!/usr/bin/env python3
"""Triton kernels of the twenty-second held-out batch (tests/hw/blind22), the launch
and save code copied from tests/hw/blind21/blind21_triton.py; kernels in styles
the earlier Triton batches do not have (our own code, nothing copied): a
grouped-order fp16 matmul pipelined with num_warps=8 and num_stages=3 on a
ragged M, split-KV grouped-query attention decode over per-sequence lengths
(partial outputs and log-sum-exp), a layer norm over 1,000 columns with the
mean and rstd saved, a row gather-then-scatter through two loaded index
vectors, a running max with its argmax by tl.associative_scan over a tuple, a
per-token-group (128) int8 quantization with its scales, a stride-2 3x3
convolution on NCHW as an implicit GEMM, a log-sum-exp under an int8
key-padding mask shared by heads, rotary embedding on interleaved pairs by
tl.reshape / tl.split / tl.join at loaded positions, and a row-wise sparse
Adagrad update of an embedding table at loaded rows. Each runs once; the
script is run under ncu with `-k regex:^t22_`
(tests/hw/blind22/measure_blind22.sh). Writes OUT/ID.{ptx,cubin,json} and
OUT/triton_launches.json (PTX paths named tests/hw/blind22/triton/ID.ptx). A
kernel that fails to compile or run is reported and left out.

  python3 tests/hw/blind22/blind22_triton.py OUT
"""
import json
import math
import os
import sys
import traceback

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # compile-only use on a machine without PyTorch
    torch = None
import triton
import triton.language as tl


@triton.jit
def t22_matmul_pipe_w8s3(A, B, C, M, N, K, sam, sbk, scm, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                         GROUP_M: tl.constexpr):
    # fp16 C = A B, grouped program order (GROUP_M row tiles share B tiles), M ragged (masked
    # rows), N and K whole tiles; launched with num_warps=8, num_stages=3
    pid = tl.program_id(0)
    nm = tl.cdiv(M, BM)
    nn = N // BN
    per_group = GROUP_M * nn
    g = pid // per_group
    first = g * GROUP_M
    gs = min(nm - first, GROUP_M)
    pm = first + (pid % per_group) % gs
    pn = (pid % per_group) // gs
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptr = A + rm[:, None] * sam + rk[None, :]
    b_ptr = B + rk[:, None] * sbk + rn[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr, mask=rm[:, None] < M, other=0.0)
        b = tl.load(b_ptr)
        acc += tl.dot(a, b)
        a_ptr += BK
        b_ptr += BK * sbk
    tl.store(C + rm[:, None] * scm + rn[None, :], acc.to(tl.float16), mask=rm[:, None] < M)


@triton.jit
def t22_gqa_decode_splitkv(Q, Kc, Vc, Lens, Opart, Lse, HQ, HKV, S, NSPLIT, CHUNK, scale, D: tl.constexpr,
                           BN: tl.constexpr):
    # split-KV decode: program (b, query head, split) attends over its chunk of the
    # sequence's loaded length; K, V cache [B, HKV, S, D] fp16, the query head's KV head
    # hq // (HQ // HKV); partial output and log-sum-exp stored (fp32)
    b = tl.program_id(0)
    hq = tl.program_id(1)
    sp = tl.program_id(2)
    hk = hq // (HQ // HKV)
    L = tl.load(Lens + b)
    start = sp * CHUNK
    end = tl.minimum(start + CHUNK, L)
    d = tl.arange(0, D)
    q = tl.load(Q + (b * HQ + hq) * D + d).to(tl.float32) * scale
    m = -float("inf")
    l = 0.0
    acc = tl.zeros((D,), tl.float32)
    kv = (b * HKV + hk) * S * D
    for n0 in range(start, end, BN):
        n = n0 + tl.arange(0, BN)
        nm = n < end
        k = tl.load(Kc + kv + n[:, None] * D + d[None, :], mask=nm[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], 1)
        s = tl.where(nm, s, -float("inf"))
        mn = tl.maximum(m, tl.max(s, 0))
        p = tl.exp(s - mn)
        alpha = tl.exp(m - mn)
        v = tl.load(Vc + kv + n[:, None] * D + d[None, :], mask=nm[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, 0)
        l = l * alpha + tl.sum(p, 0)
        m = mn
    o = ((b * HQ + hq) * NSPLIT + sp)
    tl.store(Opart + o * D + d, acc / l)
    tl.store(Lse + o, m + tl.log(l))


@triton.jit
def t22_layernorm_fwd_stats(X, W, Bb, Y, Mean, Rstd, N, stride, eps, BLOCK: tl.constexpr):
    # layer norm of a row (N = 1,000 of a 1,024 block, the tail masked), fp32 weight and bias,
    # bf16 in / out, the row's mean and rstd saved for the backward
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < N
    x = tl.load(X + r * stride + c, mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(x, 0) / N
    xc = tl.where(m, x - mean, 0.0)
    var = tl.sum(xc * xc, 0) / N
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(W + c, mask=m, other=0.0)
    bb = tl.load(Bb + c, mask=m, other=0.0)
    tl.store(Y + r * stride + c, (xc * rstd * w + bb).to(tl.bfloat16), mask=m)
    tl.store(Mean + r, mean)
    tl.store(Rstd + r, rstd)


@triton.jit
def t22_gather_scatter_rows(Src, Dst, Gidx, Sidx, n, D, BR: tl.constexpr, BD: tl.constexpr):
    # Dst[sidx[i]] = Src[gidx[i]] for BR rows a program, D = 768 in chunks of BD (fp16)
    i = tl.program_id(0) * BR + tl.arange(0, BR)
    im = i < n
    g = tl.load(Gidx + i, mask=im, other=0)
    s = tl.load(Sidx + i, mask=im, other=0)
    for d0 in range(0, D, BD):
        d = d0 + tl.arange(0, BD)
        v = tl.load(Src + g[:, None].to(tl.int64) * D + d[None, :], mask=im[:, None])
        tl.store(Dst + s[:, None].to(tl.int64) * D + d[None, :], v, mask=im[:, None])


@triton.jit
def _max_arg(v1, i1, v2, i2):
    take = v2 > v1
    return tl.where(take, v2, v1), tl.where(take, i2, i1)


@triton.jit
def t22_cummax_argmax_scan(X, Vout, Iout, N, stride, BLOCK: tl.constexpr):
    # running max and the index of its first occurrence along a row, by tl.associative_scan
    # over (value, index); N = 1,000 of a 1,024 block (tail -inf)
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < N
    x = tl.load(X + r * stride + c, mask=m, other=-float("inf"))
    v, i = tl.associative_scan((x, c), 0, _max_arg)
    tl.store(Vout + r * stride + c, v, mask=m)
    tl.store(Iout + r * stride + c, i, mask=m)


@triton.jit
def t22_int8_group_quant(X, Q, S, K, NG, GS: tl.constexpr, GB: tl.constexpr):
    # per-token-group int8 quantization: bf16 row of K = 7,168 in groups of 128, a program GB
    # groups of a row as a [GB, GS] tile; scales [rows, 56] fp32, int8 out
    r = tl.program_id(0)
    gb = tl.program_id(1) * GB + tl.arange(0, GB)
    c = tl.arange(0, GS)
    gm = gb < NG
    off = r * K + gb[:, None] * GS + c[None, :]
    x = tl.load(X + off, mask=gm[:, None], other=0.0).to(tl.float32)
    amax = tl.maximum(tl.max(tl.abs(x), 1), 1e-10)
    sc = amax / 127.0
    q = tl.extra.cuda.libdevice.rint(x / sc[:, None])
    tl.store(Q + off, q.to(tl.int8), mask=gm[:, None])
    tl.store(S + r * NG + gb, sc, mask=gm)


@triton.jit
def t22_conv2d_igemm_nchw(X, Wt, Y, NB, C, H, Wd, KO, OH, OW, BM: tl.constexpr, BN: tl.constexpr,
                          BK: tl.constexpr):
    # 3x3 stride-2 pad-1 convolution, NCHW fp16, as an implicit GEMM: rows (n, oh, ow), columns
    # output channels, reduction (c, r, s) decoded per BK step; out NCHW fp16
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    Mtot = NB * OH * OW
    nb = rm // (OH * OW)
    oh = (rm // OW) % OH
    ow = rm % OW
    Ktot = C * 9
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, Ktot, BK):
        rk = k0 + tl.arange(0, BK)
        c = rk // 9
        rr = (rk // 3) % 3
        ss = rk % 3
        ih = oh[:, None] * 2 - 1 + rr[None, :]
        iw = ow[:, None] * 2 - 1 + ss[None, :]
        am = (rm[:, None] < Mtot) & (rk[None, :] < Ktot) & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < Wd)
        a = tl.load(X + ((nb[:, None] * C + c[None, :]) * H + ih) * Wd + iw, mask=am, other=0.0)
        b = tl.load(Wt + rn[None, :] * Ktot + rk[:, None], mask=(rk[:, None] < Ktot) & (rn[None, :] < KO), other=0.0)
        acc += tl.dot(a, b)
    yo = ((nb[:, None] * KO + rn[None, :]) * OH + oh[:, None]) * OW + ow[:, None]
    tl.store(Y + yo, acc.to(tl.float16), mask=(rm[:, None] < Mtot) & (rn[None, :] < KO))


@triton.jit
def t22_masked_logsumexp(Sc, Mask, Out, S, HEADS, BLOCK: tl.constexpr):
    # log-sum-exp of a score row over the keys its int8 key-padding mask keeps (the mask row
    # shared by the HEADS rows of a batch), S = 1,531 in chunks of BLOCK with an online max
    r = tl.program_id(0)
    b = r // HEADS
    m = -float("inf")
    acc = 0.0
    for s0 in range(0, S, BLOCK):
        s = s0 + tl.arange(0, BLOCK)
        sm = s < S
        keep = tl.load(Mask + b * S + s, mask=sm, other=0) != 0
        x = tl.load(Sc + r * S + s, mask=sm & keep, other=-float("inf"))
        mn = tl.maximum(m, tl.max(x, 0))
        acc = acc * tl.exp(m - mn) + tl.sum(tl.exp(x - mn), 0)
        m = mn
    tl.store(Out + r, m + tl.log(acc))


@triton.jit
def t22_rope_interleaved_split(X, Y, Pos, Cos, Sin, T, H: tl.constexpr, D: tl.constexpr, BT: tl.constexpr):
    # GPT-J style rotary on interleaved pairs: a [BT, H, D] bf16 tile reshaped to
    # [BT, H, D / 2, 2] and split into even / odd, cos / sin rows [max_pos, D / 2] at the
    # loaded position ids, joined back and stored
    t = tl.program_id(0) * BT + tl.arange(0, BT)
    tm = t < T
    h = tl.arange(0, H)
    d = tl.arange(0, D)
    j = tl.arange(0, D // 2)
    p = tl.load(Pos + t, mask=tm, other=0)
    off = t[:, None, None] * (H * D) + h[None, :, None] * D + d[None, None, :]
    x = tl.load(X + off, mask=tm[:, None, None], other=0.0).to(tl.float32)
    xe, xo = tl.split(tl.reshape(x, (BT, H, D // 2, 2)))
    c = tl.load(Cos + p[:, None] * (D // 2) + j[None, :], mask=tm[:, None], other=0.0)[:, None, :]
    s = tl.load(Sin + p[:, None] * (D // 2) + j[None, :], mask=tm[:, None], other=0.0)[:, None, :]
    y = tl.reshape(tl.join(xe * c - xo * s, xe * s + xo * c), (BT, H, D))
    tl.store(Y + off, y.to(tl.bfloat16), mask=tm[:, None, None])


@triton.jit
def t22_rowwise_adagrad_sparse(Wt, St, G, Idx, n, lr, eps, D: tl.constexpr, BR: tl.constexpr):
    # row-wise sparse Adagrad (one state a row): rows of the fp32 embedding table at the
    # loaded unique indices, state += mean(g^2), w -= lr g / sqrt(state + eps)
    i = tl.program_id(0) * BR + tl.arange(0, BR)
    im = i < n
    r = tl.load(Idx + i, mask=im, other=0).to(tl.int64)
    d = tl.arange(0, D)
    g = tl.load(G + i[:, None] * D + d[None, :], mask=im[:, None], other=0.0)
    st = tl.load(St + r, mask=im, other=0.0) + tl.sum(g * g, 1) / D
    tl.store(St + r, st, mask=im)
    w = tl.load(Wt + r[:, None] * D + d[None, :], mask=im[:, None], other=0.0)
    tl.store(Wt + r[:, None] * D + d[None, :], w - lr * g / tl.sqrt(st + eps)[:, None], mask=im[:, None])
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
        "id": lid, "order": len(launches), "module": "blind22_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind22/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(22022)
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
        M, N, K, BM, BN, BK = 1999, 1536, 2048, 128, 128, 64
        a = torch.randn((M, K), device=dev, dtype=torch.float16)
        b = torch.randn((K, N), device=dev, dtype=torch.float16)
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        grid = (triton.cdiv(M, BM) * (N // BN),)
        args = (a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        h = t22_matmul_pipe_w8s3[grid](*args, BM=BM, BN=BN, BK=BK, GROUP_M=8, num_warps=8, num_stages=3)
        torch.cuda.synchronize()
        ref = a.float() @ b.float()
        save(out, launches, "t22_matmul_pipe_w8s3", h, "t22_matmul_pipe_w8s3", ("A", "B", "C", "M", "N", "K", "sam", "sbk", "scm"), args,
             {"BM": BM, "BN": BN, "BK": BK, "GROUP_M": 8}, grid,
             "fp16 matmul [1,999, 2,048] x [2,048, 1,536], 128 x 128 tiles, BK 64, grouped order (GROUP_M 8), M ragged (the last row tile 79 rows), num_warps=8, num_stages=3; rel. error %.2e" % rel(c, ref))

    def decode():
        Bn, HQ, HKV, S, D, NS, BN = 16, 32, 8, 4096, 128, 8, 64
        CH = S // NS
        q = torch.randn((Bn, HQ, D), device=dev, dtype=torch.float16)
        kc = torch.randn((Bn, HKV, S, D), device=dev, dtype=torch.float16)
        vc = torch.randn((Bn, HKV, S, D), device=dev, dtype=torch.float16)
        lens = torch.randint(CH * NS // 2 + 1, S + 1, (Bn,), device=dev, dtype=torch.int32)
        op = torch.empty((Bn, HQ, NS, D), device=dev)
        lse = torch.empty((Bn, HQ, NS), device=dev)
        grid = (Bn, HQ, NS)
        scale = 1.0 / math.sqrt(D)
        args = (q, kc, vc, lens, op, lse, HQ, HKV, S, NS, CH, scale)
        h = t22_gqa_decode_splitkv[grid](*args, D=D, BN=BN, num_warps=4)
        torch.cuda.synchronize()
        w = torch.softmax(torch.nan_to_num(lse, neginf=-1e30), -1)
        o = (op.nan_to_num(0.0) * w[..., None]).sum(2)
        err = 0.0
        for bi in range(Bn):
            L = int(lens[bi])
            kk = kc[bi, :, :L].float().repeat_interleave(HQ // HKV, 0)
            vv = vc[bi, :, :L].float().repeat_interleave(HQ // HKV, 0)
            p = torch.softmax((kk @ q[bi].float()[:, :, None]).squeeze(-1) * scale, -1)
            ref = (p[:, :, None] * vv).sum(1)
            err = max(err, rel(o[bi], ref))
        save(out, launches, "t22_gqa_decode_splitkv", h, "t22_gqa_decode_splitkv", ("Q", "Kc", "Vc", "Lens", "Opart", "Lse", "HQ", "HKV", "S", "NSPLIT", "CHUNK", "scale"), args,
             {"D": D, "BN": BN}, grid,
             "split-KV GQA decode: 16 sequences, 32 query heads on 8 KV heads, fp16 cache [16, 8, 4,096, 128], loaded lengths %s..%s, 8 splits of 512 (splits past the length do no trips), BN 64 keys a step, partial outputs and lse fp32, num_warps=4; combined rel. error %.2e" % (int(lens.min()), int(lens.max()), err))

    def layernorm():
        R, N = 4099, 1000
        x = torch.randn((R, N), device=dev, dtype=torch.bfloat16)
        w = torch.rand((N,), device=dev) + 0.5
        bb = torch.randn((N,), device=dev)
        y = torch.empty_like(x)
        mean = torch.empty((R,), device=dev)
        rstd = torch.empty((R,), device=dev)
        args = (x, w, bb, y, mean, rstd, N, x.stride(0), 1e-5)
        h = t22_layernorm_fwd_stats[(R,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ref = F.layer_norm(x.float(), (N,), w, bb, 1e-5)
        save(out, launches, "t22_layernorm_fwd_stats", h, "t22_layernorm_fwd_stats", ("X", "W", "Bb", "Y", "Mean", "Rstd", "N", "stride", "eps"), args,
             {"BLOCK": 1024}, (R,),
             "layer norm: bf16 [4,099, 1,000] (2,000-byte rows), fp32 weight and bias, a program a row, BLOCK 1,024 (24 masked), mean and rstd stored, num_warps=4; rel. error %.2e, mean error %.2e" % (rel(y, ref), (mean - x.float().mean(1)).abs().max().item()))

    def gathscat():
        Rs, n, D = 100000, 60001, 768
        src = torch.randn((Rs, D), device=dev, dtype=torch.float16)
        dst = torch.zeros((Rs, D), device=dev, dtype=torch.float16)
        gidx = torch.randint(0, Rs, (n,), device=dev, dtype=torch.int32)
        sidx = torch.randperm(Rs, device=dev)[:n].to(torch.int32)
        args = (src, dst, gidx, sidx, n, D)
        grid = (triton.cdiv(n, 16),)
        h = t22_gather_scatter_rows[grid](*args, BR=16, BD=256, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.zeros_like(dst)
        ref[sidx.long()] = src[gidx.long()]
        bad = int((dst != ref).any(1).sum().item())
        save(out, launches, "t22_gather_scatter_rows", h, "t22_gather_scatter_rows", ("Src", "Dst", "Gidx", "Sidx", "n", "D"), args,
             {"BR": 16, "BD": 256}, grid,
             "row gather then scatter: fp16 [100,000, 768] (1,536-byte rows), 60,001 pairs of random gather rows and distinct scatter rows, 16 rows a program (the last program 1 row), D in 3 chunks of 256, num_warps=4; %d rows differ" % bad)

    def cummax():
        R, N = 4096, 1000
        x = torch.randn((R, N), device=dev)
        v = torch.empty_like(x)
        i = torch.empty((R, N), device=dev, dtype=torch.int32)
        args = (x, v, i, N, x.stride(0))
        h = t22_cummax_argmax_scan[(R,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        rv, ri = torch.cummax(x, 1)
        save(out, launches, "t22_cummax_argmax_scan", h, "t22_cummax_argmax_scan", ("X", "Vout", "Iout", "N", "stride"), args,
             {"BLOCK": 1024}, (R,),
             "running max and argmax by tl.associative_scan over (value, index): fp32 [4,096, 1,000], a program a row, BLOCK 1,024 (24 masked, -inf), values and int32 indices stored, num_warps=4; %d values and %d indices differ from torch.cummax" % (int((v != rv).sum()), int((i.long() != ri).sum())))

    def groupquant():
        R, K, GS, GB = 4096, 7168, 128, 8
        NG = K // GS
        x = torch.randn((R, K), device=dev, dtype=torch.bfloat16) * 3
        q = torch.empty((R, K), device=dev, dtype=torch.int8)
        s = torch.empty((R, NG), device=dev)
        grid = (R, triton.cdiv(NG, GB))
        args = (x, q, s, K, NG)
        h = t22_int8_group_quant[grid](*args, GS=GS, GB=GB, num_warps=4)
        torch.cuda.synchronize()
        xg = x.float().view(R, NG, GS)
        rs = xg.abs().amax(-1).clamp_min(1e-10) / 127.0
        rq = torch.round(xg / rs[..., None]).view(R, K)
        save(out, launches, "t22_int8_group_quant", h, "t22_int8_group_quant", ("X", "Q", "S", "K", "NG"), args,
             {"GS": GS, "GB": GB}, grid,
             "per-token-group int8 quantization: bf16 [4,096, 7,168], groups of 128 (56 a row), a program 8 groups of a row as an [8, 128] tile (grid 4,096 x 7), fp32 scales [4,096, 56], num_warps=4; scale rel. error %.2e, %d codes off by more than 1" % (rel(s, rs), int(((q.float() - rq).abs() > 1).sum())))

    def conv():
        NB, C, H, W, KO = 8, 64, 57, 57, 128
        OH, OW = 29, 29
        x = torch.randn((NB, C, H, W), device=dev, dtype=torch.float16)
        wt = torch.randn((KO, C, 3, 3), device=dev, dtype=torch.float16) * 0.1
        y = torch.empty((NB, KO, OH, OW), device=dev, dtype=torch.float16)
        BM, BN, BK = 64, 64, 32
        grid = (triton.cdiv(NB * OH * OW, BM), triton.cdiv(KO, BN))
        args = (x, wt, y, NB, C, H, W, KO, OH, OW)
        h = t22_conv2d_igemm_nchw[grid](*args, BM=BM, BN=BN, BK=BK, num_warps=4)
        torch.cuda.synchronize()
        ref = F.conv2d(x.float(), wt.float(), stride=2, padding=1)
        save(out, launches, "t22_conv2d_igemm_nchw", h, "t22_conv2d_igemm_nchw", ("X", "Wt", "Y", "NB", "C", "H", "Wd", "KO", "OH", "OW"), args,
             {"BM": BM, "BN": BN, "BK": BK}, grid,
             "3x3 stride-2 pad-1 convolution as an implicit GEMM: fp16 NCHW x [8, 64, 57, 57], w [128, 64, 3, 3], y [8, 128, 29, 29]; M 6,728 (the last tile 8 rows), N 128, K 576 in 18 steps of 32 decoded to (c, r, s), 64 x 64 tiles, num_warps=4; rel. error %.2e" % rel(y, ref))

    def lse():
        Bn, HEADS, S = 64, 32, 1531
        sc = torch.randn((Bn * HEADS, S), device=dev)
        lens = torch.randint(1, S + 1, (Bn,), device=dev)
        mask = (torch.arange(S, device=dev)[None, :] < lens[:, None]).to(torch.int8)
        o = torch.empty((Bn * HEADS,), device=dev)
        args = (sc, mask, o, S, HEADS)
        h = t22_masked_logsumexp[(Bn * HEADS,)](*args, BLOCK=512, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.logsumexp(sc.masked_fill(mask.repeat_interleave(HEADS, 0) == 0, -float("inf")), 1)
        save(out, launches, "t22_masked_logsumexp", h, "t22_masked_logsumexp", ("Sc", "Mask", "Out", "S", "HEADS"), args,
             {"BLOCK": 512}, (Bn * HEADS,),
             "masked log-sum-exp: fp32 scores [2,048, 1,531] (6,124-byte rows), int8 key-padding mask [64, 1,531] (prefix lengths 1..1,531) shared by 32 heads, 3 chunks of 512 (the last 507 valid), keys masked by the loaded mask, num_warps=4; max abs error %.2e" % (o - ref).abs().max().item())

    def rope():
        T, H, D, BT, P = 4093, 16, 128, 4, 8192
        x = torch.randn((T, H, D), device=dev, dtype=torch.bfloat16)
        y = torch.empty_like(x)
        pos = torch.randint(0, P, (T,), device=dev, dtype=torch.int32)
        inv = 1.0 / (10000 ** (torch.arange(0, D, 2, device=dev).float() / D))
        ang = torch.arange(P, device=dev).float()[:, None] * inv[None, :]
        cos, sin = torch.cos(ang).contiguous(), torch.sin(ang).contiguous()
        args = (x, y, pos, cos, sin, T)
        grid = (triton.cdiv(T, BT),)
        h = t22_rope_interleaved_split[grid](*args, H=H, D=D, BT=BT, num_warps=4)
        torch.cuda.synchronize()
        xe, xo = x.float()[..., 0::2], x.float()[..., 1::2]
        c, s = cos[pos.long()][:, None, :], sin[pos.long()][:, None, :]
        ref = torch.stack((xe * c - xo * s, xe * s + xo * c), -1).view(T, H, D)
        save(out, launches, "t22_rope_interleaved_split", h, "t22_rope_interleaved_split", ("X", "Y", "Pos", "Cos", "Sin", "T"), args,
             {"H": H, "D": D, "BT": BT}, grid,
             "rotary embedding on interleaved pairs: bf16 [4,093, 16, 128], a program 4 tokens (the last 1) as a [4, 16, 128] tile reshaped to [.., 64, 2] and split, fp32 cos / sin [8,192, 64] rows at loaded positions, joined and stored, num_warps=4; rel. error %.2e" % rel(y, ref))

    def adagrad():
        V, D, n, BR = 200003, 128, 20000, 8
        wt = torch.randn((V, D), device=dev)
        st = torch.rand((V,), device=dev)
        g = torch.randn((n, D), device=dev)
        idx = torch.randperm(V, device=dev)[:n].to(torch.int32)
        w0, s0 = wt.clone(), st.clone()
        args = (wt, st, g, idx, n, 0.01, 1e-8)
        grid = (triton.cdiv(n, BR),)
        h = t22_rowwise_adagrad_sparse[grid](*args, D=D, BR=BR, num_warps=4)
        torch.cuda.synchronize()
        il = idx.long()
        s0[il] += (g * g).mean(1)
        w0[il] -= 0.01 * g / torch.sqrt(s0[il] + 1e-8)[:, None]
        save(out, launches, "t22_rowwise_adagrad_sparse", h, "t22_rowwise_adagrad_sparse", ("Wt", "St", "G", "Idx", "n", "lr", "eps"), args,
             {"D": D, "BR": BR}, grid,
             "row-wise sparse Adagrad: fp32 table [200,003, 128] (512-byte rows), 20,000 distinct loaded rows, 8 a program, one fp32 state a row, num_warps=4; weight rel. error %.2e, state rel. error %.2e" % (rel(wt, w0), rel(st, s0)))

    for lid, f in (("t22_matmul_pipe_w8s3", matmul), ("t22_gqa_decode_splitkv", decode),
                   ("t22_layernorm_fwd_stats", layernorm), ("t22_gather_scatter_rows", gathscat),
                   ("t22_cummax_argmax_scan", cummax), ("t22_int8_group_quant", groupquant),
                   ("t22_conv2d_igemm_nchw", conv), ("t22_masked_logsumexp", lse),
                   ("t22_rope_interleaved_split", rope), ("t22_rowwise_adagrad_sparse", adagrad)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-32s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
