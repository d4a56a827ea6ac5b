#!/usr/bin/env python3
"""Triton kernels of the sixteenth held-out batch (tests/hw/blind16), the launch
and save code copied from tests/hw/blind15/blind15_triton.py; kernels in styles
the earlier Triton batches do not have (our own code, nothing copied): a fused
linear + bias + exact GELU with masked edges, a jagged (varlen) softmax over
loaded offsets, a block-sparse attention forward over a loaded CSR layout of key
blocks, an int8 `tl.dot` GEMM with per-row and per-column scales, a 2-D row
reduction with `keep_dims`, an RMSNorm on a non-power-of-two width, a
grouped-query KV-cache append at loaded positions (a 2-D block of strided
pointers), a row top-k by `tl.sort`, a row cumsum by `tl.cumsum`, and a NeoX-style
rotary embedding in bf16, in place. Each runs once; the script is run under ncu
with `-k regex:^t16_` (tests/hw/blind16/measure_blind16.sh). Writes
OUT/ID.{ptx,cubin,json} and OUT/triton_launches.json (PTX paths named
tests/hw/blind16/triton/ID.ptx). A kernel that fails to compile or run is
reported and left out.

  python3 tests/hw/blind16/blind16_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def t16_linear_bias_gelu(X, Wt, Bias, Y, M, N, K, stride_xm, stride_wn, stride_ym,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # y = gelu(x @ W^T + b), exact (erf) GELU, W stored [N, K] like nn.Linear; ragged M and N
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(X + rm[:, None] * stride_xm + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(Wt + rn[None, :] * stride_wn + (k0 + rk)[:, None],
                    mask=(rn[None, :] < N) & ((k0 + rk)[:, None] < K), other=0.0)
        acc = tl.dot(a, b, acc)
    bias = tl.load(Bias + rn, mask=rn < N, other=0.0).to(tl.float32)
    acc = acc + bias[None, :]
    y = 0.5 * acc * (1.0 + tl.erf(acc * 0.7071067811865476))
    tl.store(Y + rm[:, None] * stride_ym + rn[None, :], y.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def t16_varlen_softmax(X, Y, Offsets, BLOCK: tl.constexpr):
    # jagged softmax: one program a sequence of the packed values, bounds from loaded offsets
    sid = tl.program_id(0)
    start = tl.load(Offsets + sid)
    end = tl.load(Offsets + sid + 1)
    n = end - start
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + start + cols, mask=cols < n, other=-float("inf"))
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)
    e = tl.where(cols < n, e, 0.0)
    s = tl.sum(e, axis=0)
    tl.store(Y + start + cols, e / s, mask=cols < n)


@triton.jit
def t16_blocksparse_attn_fwd(Q, K, V, O, LayoutPtr, LayoutIdx, sm_scale, T, stride_t, stride_h,
                             BLOCK: tl.constexpr, HEAD_DIM: tl.constexpr):
    # block-sparse attention forward: query block qb of head h attends the key blocks listed in a
    # loaded CSR layout (LayoutPtr[qb] .. LayoutPtr[qb + 1]), online softmax, fp16 q/k/v [T, H, D]
    qb = tl.program_id(0)
    h = tl.program_id(1)
    offs_m = qb * BLOCK + tl.arange(0, BLOCK)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_n = tl.arange(0, BLOCK)
    q = tl.load(Q + offs_m[:, None] * stride_t + h * stride_h + offs_d[None, :], mask=offs_m[:, None] < T, other=0.0)
    m_i = tl.full((BLOCK,), -float("inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK,), dtype=tl.float32)
    acc = tl.zeros((BLOCK, HEAD_DIM), dtype=tl.float32)
    lo = tl.load(LayoutPtr + qb)
    hi = tl.load(LayoutPtr + qb + 1)
    for e in range(lo, hi):
        kb = tl.load(LayoutIdx + e)
        kn = kb * BLOCK + offs_n
        k = tl.load(K + kn[None, :] * stride_t + h * stride_h + offs_d[:, None], mask=kn[None, :] < T, other=0.0)
        s = tl.dot(q, k) * sm_scale
        s = tl.where(kn[None, :] < T, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(V + kn[:, None] * stride_t + h * stride_h + offs_d[None, :], mask=kn[:, None] < T, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(O + offs_m[:, None] * stride_t + h * stride_h + offs_d[None, :], out.to(tl.float16), mask=offs_m[:, None] < T)


@triton.jit
def t16_int8_gemm_rowscale(A, B, SA, SB, C, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                           BLOCK_K: tl.constexpr):
    # W8A8 GEMM: int8 A [M, K] row-major, int8 B [N, K] (K-major), int32 accumulation by tl.dot,
    # scaled by a per-row (token) and per-column (channel) float scale, fp16 out
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(A + rm[:, None] * K + (k0 + rk)[None, :], mask=rm[:, None] < M, other=0)
        b = tl.load(B + rn[None, :] * K + (k0 + rk)[:, None], mask=rn[None, :] < N, other=0)
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
    sa = tl.load(SA + rm, mask=rm < M, other=0.0)
    sb = tl.load(SB + rn, mask=rn < N, other=0.0)
    c = acc.to(tl.float32) * sa[:, None] * sb[None, :]
    tl.store(C + rm[:, None] * N + rn[None, :], c.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def t16_reduce2d_keepdims(X, Out, R, C, stride_r, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # row sums of a [R, C] fp32 matrix over column chunks, kept as a [BLOCK_R, 1] column
    # (tl.sum(..., keep_dims=True)) and stored through a 2-D pointer block
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    acc = tl.zeros((BLOCK_R, 1), dtype=tl.float32)
    for c0 in range(0, C, BLOCK_C):
        cols = c0 + tl.arange(0, BLOCK_C)[None, :]
        x = tl.load(X + rows * stride_r + cols, mask=(rows < R) & (cols < C), other=0.0)
        acc += tl.sum(x, axis=1, keep_dims=True)
    zero = tl.zeros((1, 1), dtype=tl.int32)
    tl.store(Out + rows + zero, acc, mask=rows < R)


@triton.jit
def t16_rmsnorm_np2(X, Wt, Y, N, stride, eps, BLOCK: tl.constexpr):
    # RMSNorm of bf16 rows of width N = 3,000 (a power-of-two block of 4,096, the tail masked)
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    msk = cols < N
    x = tl.load(X + row * stride + cols, mask=msk, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(Wt + cols, mask=msk, other=0.0).to(tl.float32)
    tl.store(Y + row * stride + cols, (x * rstd * w).to(tl.bfloat16), mask=msk)


@triton.jit
def t16_kv_append_gqa(Knew, Vnew, Kc, Vc, Pos, NTOK, stride_nb, stride_nt, stride_nh,
                      stride_cb, stride_ch, stride_cs, HKV: tl.constexpr, D: tl.constexpr, TB: tl.constexpr):
    # KV-cache append (GQA: 8 KV heads): new keys / values [B, NTOK, HKV, D] written into the
    # cache [B, HKV, S_max, D] from the loaded position of each sequence, one program a
    # (sequence, KV head), a [TB, D] block of strided pointers for the NTOK (< TB) new tokens
    b = tl.program_id(0)
    h = tl.program_id(1)
    pos = tl.load(Pos + b)
    t = tl.arange(0, TB)[:, None]
    d = tl.arange(0, D)[None, :]
    m = t < NTOK
    src = b * stride_nb + t * stride_nt + h * stride_nh + d
    dst = b * stride_cb + h * stride_ch + (pos + t) * stride_cs + d
    tl.store(Kc + dst, tl.load(Knew + src, mask=m), mask=m)
    tl.store(Vc + dst, tl.load(Vnew + src, mask=m), mask=m)


@triton.jit
def t16_topk_sort(X, Vals, N, K_OUT: tl.constexpr, BLOCK: tl.constexpr):
    # row top-k: a row of N fp32 scores sorted descending by tl.sort, the first K_OUT stored
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * N + cols, mask=cols < N, other=-float("inf"))
    s = tl.sort(x, dim=0, descending=True)
    tl.store(Vals + row * K_OUT + cols, s, mask=cols < K_OUT)


@triton.jit
def t16_cumsum_rows(X, Y, C, stride, BLOCK: tl.constexpr):
    # inclusive cumsum along the rows of a [R, C = 300] fp32 matrix (one program a row, tl.cumsum)
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * stride + cols, mask=cols < C, other=0.0)
    tl.store(Y + row * stride + cols, tl.cumsum(x, axis=0), mask=cols < C)


@triton.jit
def t16_rotary_bf16(Qp, Cos, Sin, T, stride_t, stride_h, H: tl.constexpr, HALF: tl.constexpr, BH: tl.constexpr):
    # NeoX-style rotary embedding in place on bf16 q [T, H, 2 * HALF]: (x1 c - x2 s, x2 c + x1 s),
    # fp32 cos / sin [T, HALF]; one program a token and a block of BH heads
    t = tl.program_id(0)
    hb = tl.program_id(1)
    hh = hb * BH + tl.arange(0, BH)[:, None]
    d = tl.arange(0, HALF)[None, :]
    m = hh < H
    c = tl.load(Cos + t * HALF + d)
    s = tl.load(Sin + t * HALF + d)
    p1 = Qp + t * stride_t + hh * stride_h + d
    x1 = tl.load(p1, mask=m, other=0.0).to(tl.float32)
    x2 = tl.load(p1 + HALF, mask=m, other=0.0).to(tl.float32)
    tl.store(p1, (x1 * c - x2 * s).to(tl.bfloat16), mask=m)
    tl.store(p1 + HALF, (x2 * c + x1 * s).to(tl.bfloat16), mask=m)


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
        "id": lid, "order": len(launches), "module": "blind16_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind16/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(16016)
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

    def linear_gelu():
        M, N, K = 1000, 1000, 512
        x = torch.randn((M, K), device=dev, dtype=torch.float16)
        w = torch.randn((N, K), device=dev, dtype=torch.float16) * 0.05
        bias = torch.randn((N,), device=dev, dtype=torch.float16)
        y = torch.empty((M, N), device=dev, dtype=torch.float16)
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
        args = (x, w, bias, y, M, N, K, x.stride(0), w.stride(0), y.stride(0))
        h = t16_linear_bias_gelu[grid](*args, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, num_warps=4, num_stages=3)
        torch.cuda.synchronize()
        ref = torch.nn.functional.gelu(x.float() @ w.float().t() + bias.float())
        save(out, launches, "t16_linear_bias_gelu", h, "t16_linear_bias_gelu",
             ("X", "Wt", "Bias", "Y", "M", "N", "K", "stride_xm", "stride_wn", "stride_ym"), args,
             {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, grid,
             "fused nn.Linear + bias + exact GELU: fp16 x [1,000, 512], W [1,000, 512] (read as W^T through [BLOCK_K, BLOCK_N] pointer blocks), bias [1,000], y [1,000, 1,000]; 64 x 64 x 32 tiles, grid (16, 16), ragged last M and N blocks (40 rows / columns) masked, num_warps=4, num_stages=3; rel. error %.2e" % rel(y, ref))

    def varlen_softmax():
        S = 700
        lens = torch.randint(1, 1025, (S,), device="cpu")
        offs = torch.zeros((S + 1,), dtype=torch.int32)
        offs[1:] = torch.cumsum(lens, 0).to(torch.int32)
        total = int(offs[-1])
        x = torch.randn((total,), device=dev, dtype=torch.float32) * 3
        y = torch.empty_like(x)
        offs_d = offs.to(dev)
        args = (x, y, offs_d)
        h = t16_varlen_softmax[(S,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.cat([torch.softmax(x[int(offs[i]):int(offs[i + 1])], 0) for i in range(S)])
        save(out, launches, "t16_varlen_softmax", h, "t16_varlen_softmax", ("X", "Y", "Offsets"), args, {"BLOCK": 1024}, (S,),
             "jagged (varlen) softmax: 700 sequences of 1..1,024 fp32 values packed back to back (%s in all, so unaligned starts), bounds from loaded int32 offsets, one program a sequence, [1,024] block masked to the length, num_warps=4; rel. error %.2e" % (format(total, ","), rel(y, ref)))

    def bsattn():
        T, H, D, BLK = 2048, 8, 64, 64
        nb = T // BLK
        q = torch.randn((T, H, D), device=dev, dtype=torch.float16)
        k = torch.randn((T, H, D), device=dev, dtype=torch.float16)
        v = torch.randn((T, H, D), device=dev, dtype=torch.float16)
        o = torch.empty_like(q)
        # layout: local (diagonal and previous block) + a random sparse set of earlier blocks (causal block mask)
        g = torch.Generator().manual_seed(1616)
        lay = torch.zeros((nb, nb), dtype=torch.bool)
        for i in range(nb):
            lay[i, i] = True
            if i > 0:
                lay[i, i - 1] = True
            for j in range(i):
                if torch.rand((1,), generator=g).item() < 0.2:
                    lay[i, j] = True
        ptr = torch.zeros((nb + 1,), dtype=torch.int32)
        ptr[1:] = torch.cumsum(lay.sum(1), 0).to(torch.int32)
        idx = torch.cat([lay[i].nonzero().flatten() for i in range(nb)]).to(torch.int32)
        scale = 1.0 / 8.0
        args = (q, k, v, o, ptr.to(dev), idx.to(dev), scale, T, q.stride(0), q.stride(1))
        h = t16_blocksparse_attn_fwd[(nb, H)](*args, BLOCK=BLK, HEAD_DIM=D, num_warps=4, num_stages=2)
        torch.cuda.synchronize()
        mask = lay.repeat_interleave(BLK, 0).repeat_interleave(BLK, 1).to(dev)
        s = torch.einsum("thd,shd->hts", q.float(), k.float()) * scale
        s = s.masked_fill(~mask[None], float("-inf"))
        ref = torch.einsum("hts,shd->thd", torch.softmax(s, -1), v.float())
        save(out, launches, "t16_blocksparse_attn_fwd", h, "t16_blocksparse_attn_fwd",
             ("Q", "K", "V", "O", "LayoutPtr", "LayoutIdx", "sm_scale", "T", "stride_t", "stride_h"), args,
             {"BLOCK": BLK, "HEAD_DIM": D}, (nb, H),
             "block-sparse attention forward: fp16 q, k, v [2,048, 8, 64] (token-major, 1,024-byte token stride), 32 x 32 blocks of 64, a loaded CSR layout (diagonal, previous block and 20%% of earlier blocks: %d key blocks in all), one program a (query block, head), tl.dot QK^T and PV, online softmax, grid (32, 8), num_warps=4, num_stages=2; rel. error %.2e" % (int(ptr[-1]), rel(o, ref)))

    def int8_gemm():
        M, N, K = 1000, 1024, 1024
        a = torch.randint(-127, 128, (M, K), device=dev, dtype=torch.int8)
        b = torch.randint(-127, 128, (N, K), device=dev, dtype=torch.int8)
        sa = torch.rand((M,), device=dev) * 0.01
        sb = torch.rand((N,), device=dev) * 0.01
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
        args = (a, b, sa, sb, c, M, N, K)
        h = t16_int8_gemm_rowscale[grid](*args, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3)
        torch.cuda.synchronize()
        ref = (a.double() @ b.double().t()) * sa.double()[:, None] * sb.double()[None, :]
        save(out, launches, "t16_int8_gemm_rowscale", h, "t16_int8_gemm_rowscale",
             ("A", "B", "SA", "SB", "C", "M", "N", "K"), args, {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, grid,
             "W8A8 GEMM: int8 A [1,000, 1,024], int8 B [1,024, 1,024] (K-major, read as [BLOCK_K, BLOCK_N]), tl.dot with int32 accumulation, per-row and per-column fp32 scales, fp16 C; 128 x 128 x 64 tiles, grid (8, 8), the last M block 104 rows, num_warps=8, num_stages=3; rel. error %.2e" % rel(c, ref))

    def reduce2d():
        R, C = 4096, 777
        x = torch.randn((R, C), device=dev, dtype=torch.float32)
        o = torch.empty((R,), device=dev, dtype=torch.float32)
        args = (x, o, R, C, x.stride(0))
        grid = (triton.cdiv(R, 16),)
        h = t16_reduce2d_keepdims[grid](*args, BLOCK_R=16, BLOCK_C=256, num_warps=4)
        torch.cuda.synchronize()
        save(out, launches, "t16_reduce2d_keepdims", h, "t16_reduce2d_keepdims", ("X", "Out", "R", "C", "stride_r"), args,
             {"BLOCK_R": 16, "BLOCK_C": 256}, grid,
             "2-D row reduction with keep_dims: fp32 [4,096, 777] (3,108-byte rows), [16, 256] tiles over 4 column chunks (the last 9 columns), tl.sum(axis=1, keep_dims=True) into a [16, 1] accumulator stored through a [16, 1] pointer block, 256 programs, num_warps=4; rel. error %.2e" % rel(o, x.sum(1)))

    def rmsnorm():
        R, N = 2048, 3000
        x = torch.randn((R, N), device=dev, dtype=torch.bfloat16)
        w = torch.rand((N,), device=dev, dtype=torch.bfloat16) + 0.5
        y = torch.empty_like(x)
        args = (x, w, y, N, x.stride(0), 1e-6)
        h = t16_rmsnorm_np2[(R,)](*args, BLOCK=4096, num_warps=8)
        torch.cuda.synchronize()
        xf = x.float()
        ref = xf * torch.rsqrt((xf * xf).mean(1, keepdim=True) + 1e-6) * w.float()
        save(out, launches, "t16_rmsnorm_np2", h, "t16_rmsnorm_np2", ("X", "Wt", "Y", "N", "stride", "eps"), args,
             {"BLOCK": 4096}, (R,),
             "RMSNorm of bf16 rows of width 3,000 (6,000-byte rows, not a power of two): one program a row of 2,048, a [4,096] block with the last 1,096 lanes masked, fp32 sum of squares, bf16 weight, num_warps=8; rel. error %.2e" % rel(y, ref))

    def kv_append():
        B, NT, HKV, D, SMAX = 16, 7, 8, 128, 1024
        kn = torch.randn((B, NT, HKV, D), device=dev, dtype=torch.float16)
        vn = torch.randn((B, NT, HKV, D), device=dev, dtype=torch.float16)
        kc = torch.zeros((B, HKV, SMAX, D), device=dev, dtype=torch.float16)
        vc = torch.zeros_like(kc)
        pos = torch.randint(0, SMAX - NT, (B,), device=dev, dtype=torch.int32)
        args = (kn, vn, kc, vc, pos, NT, kn.stride(0), kn.stride(1), kn.stride(2), kc.stride(0), kc.stride(1), kc.stride(2))
        h = t16_kv_append_gqa[(B, HKV)](*args, HKV=HKV, D=D, TB=8, num_warps=4)
        torch.cuda.synchronize()
        rk = torch.zeros_like(kc)
        rv = torch.zeros_like(vc)
        for b in range(B):
            p = int(pos[b])
            rk[b, :, p:p + NT] = kn[b].transpose(0, 1)
            rv[b, :, p:p + NT] = vn[b].transpose(0, 1)
        err = max(rel(kc, rk), rel(vc, rv))
        save(out, launches, "t16_kv_append_gqa", h, "t16_kv_append_gqa",
             ("Knew", "Vnew", "Kc", "Vc", "Pos", "NTOK", "stride_nb", "stride_nt", "stride_nh", "stride_cb", "stride_ch",
              "stride_cs"), args, {"HKV": HKV, "D": D, "TB": 8}, (B, HKV),
             "grouped-query KV-cache append: fp16 new K / V [16, 7, 8, 128] (2,048-byte token stride, 256-byte head stride) written into the caches [16, 8, 1,024, 128] at loaded positions (0..1,016) a sequence, one program a (sequence, KV head), a [8, 128] block of strided pointers masked to the 7 tokens, num_warps=4; rel. error %.2e" % err)

    def topk():
        R, N, KO = 4096, 500, 16
        x = torch.randn((R, N), device=dev, dtype=torch.float32)
        vals = torch.empty((R, KO), device=dev, dtype=torch.float32)
        args = (x, vals, N)
        h = t16_topk_sort[(R,)](*args, K_OUT=KO, BLOCK=512, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.topk(x, KO, dim=1).values
        save(out, launches, "t16_topk_sort", h, "t16_topk_sort", ("X", "Vals", "N"), args, {"K_OUT": KO, "BLOCK": 512},
             (R,),
             "row top-k by tl.sort: fp32 [4,096, 500] scores (2,000-byte rows), a [512] block (the last 12 lanes -inf) sorted descending, the first 16 stored, one program a row, num_warps=4; rel. error %.2e" % rel(vals, ref))

    def cumsum_rows():
        R, C = 8192, 300
        x = torch.randn((R, C), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        args = (x, y, C, x.stride(0))
        h = t16_cumsum_rows[(R,)](*args, BLOCK=512, num_warps=4)
        torch.cuda.synchronize()
        save(out, launches, "t16_cumsum_rows", h, "t16_cumsum_rows", ("X", "Y", "C", "stride"), args, {"BLOCK": 512}, (R,),
             "row cumsum by tl.cumsum: fp32 [8,192, 300] (1,200-byte rows), a [512] block masked to 300, one program a row, num_warps=4; rel. error %.2e" % rel(y, torch.cumsum(x, 1)))

    def rotary():
        T, H, D = 4096, 12, 128
        q = torch.randn((T, H, D), device=dev, dtype=torch.bfloat16)
        q0 = q.clone()
        inv = 1.0 / (10000 ** (torch.arange(0, D // 2, device=dev, dtype=torch.float32) * 2 / D))
        ang = torch.arange(T, device=dev, dtype=torch.float32)[:, None] * inv[None, :]
        cos = torch.cos(ang).contiguous()
        sin = torch.sin(ang).contiguous()
        args = (q, cos, sin, T, q.stride(0), q.stride(1))
        grid = (T, triton.cdiv(H, 8))
        h = t16_rotary_bf16[grid](*args, H=H, HALF=D // 2, BH=8, num_warps=4)
        torch.cuda.synchronize()
        x1 = q0.float()[..., :D // 2]
        x2 = q0.float()[..., D // 2:]
        ref = torch.cat([x1 * cos[:, None] - x2 * sin[:, None], x2 * cos[:, None] + x1 * sin[:, None]], -1)
        save(out, launches, "t16_rotary_bf16", h, "t16_rotary_bf16", ("Qp", "Cos", "Sin", "T", "stride_t", "stride_h"), args,
             {"H": H, "HALF": D // 2, "BH": 8}, grid,
             "NeoX-style rotary embedding in place: bf16 q [4,096, 12, 128] (3,072-byte token stride), fp32 cos / sin [4,096, 64], one program a (token, block of 8 heads): grid (4,096, 2), the second block 4 heads of 8 masked, halves loaded and stored as [8, 64] blocks, num_warps=4; rel. error %.2e" % rel(q, ref))

    for lid, f in (("t16_linear_bias_gelu", linear_gelu), ("t16_varlen_softmax", varlen_softmax),
                   ("t16_blocksparse_attn_fwd", bsattn), ("t16_int8_gemm_rowscale", int8_gemm),
                   ("t16_reduce2d_keepdims", reduce2d), ("t16_rmsnorm_np2", rmsnorm),
                   ("t16_kv_append_gqa", kv_append), ("t16_topk_sort", topk),
                   ("t16_cumsum_rows", cumsum_rows), ("t16_rotary_bf16", rotary)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-32s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
