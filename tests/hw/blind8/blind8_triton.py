#!/usr/bin/env python3
"""Triton kernels of the eighth held-out batch (tests/hw/blind8), the launch
and save code copied from tests/hw/blind7/blind7_triton.py; kernels in styles
no earlier batch has (our own code): the tutorial's layer norm forward (a
column loop over rows longer than a block, mean and rstd saved); variable-
length attention over packed sequences (cu_seqlens loaded, key loop bounded by
the loaded length); a fused AdamW step (fp32 state, bf16 gradients); an
index_add by tl.atomic_add of rows at random indices; a column sum (reduction
over axis 0); Mamba-style causal depthwise conv1d (shifted, masked loads,
SiLU); a batched fp32 matmul in tf32; a jagged sum over loaded offsets; an
fp8 e4m3 row quantisation; a lookup table through tl.gather and through an
indirect load. Each runs once; the script is run under ncu with
`-k regex:^t8_` (tests/hw/blind8/measure_blind8.sh). Writes
OUT/ID.{ptx,cubin,json} and OUT/triton_launches.json (PTX paths named
tests/hw/blind8/triton/ID.ptx). A kernel that fails to compile or run is
reported and left out.

  python3 tests/hw/blind8/blind8_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def t8_layernorm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.0)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(Y + cols, y.to(tl.float16), mask=mask)


@triton.jit
def t8_attn_varlen(Q, K, V, O, cu_seqlens, sm_scale, H, stride_t, stride_h,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):
    pid_m = tl.program_id(0)
    hb = tl.program_id(1)
    b = hb // H
    h = hb % H
    start = tl.load(cu_seqlens + b)
    end = tl.load(cu_seqlens + b + 1)
    L = end - start
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + (start + offs_m)[:, None] * stride_t + h * stride_h + offs_d[None, :],
                mask=(offs_m < L)[:, None], other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for n0 in range(0, L, BLOCK_N):
        kn = n0 + offs_n
        k = tl.load(K + (start + kn)[None, :] * stride_t + h * stride_h + offs_d[:, None],
                    mask=(kn < L)[None, :], other=0.0)
        qk = tl.dot(q, k) * qk_scale
        qk = tl.where((kn < L)[None, :], qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + (start + kn)[:, None] * stride_t + h * stride_h + offs_d[None, :],
                    mask=(kn < L)[:, None], other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(O + (start + offs_m)[:, None] * stride_t + h * stride_h + offs_d[None, :], acc.to(tl.float16),
             mask=(offs_m < L)[:, None])


@triton.jit
def t8_adamw_fused(P, G, M, V, n, lr, beta1, beta2, eps, wd, bc1, bc2, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(P + offs, mask=mask, other=0.0)
    g = tl.load(G + offs, mask=mask, other=0.0).to(tl.float32)
    m = tl.load(M + offs, mask=mask, other=0.0)
    v = tl.load(V + offs, mask=mask, other=0.0)
    p = p * (1.0 - lr * wd)
    m = beta1 * m + (1.0 - beta1) * g
    v = beta2 * v + (1.0 - beta2) * g * g
    p = p - lr * (m / bc1) / (tl.sqrt(v / bc2) + eps)
    tl.store(P + offs, p, mask=mask)
    tl.store(M + offs, m, mask=mask)
    tl.store(V + offs, v, mask=mask)


@triton.jit
def t8_index_add(Out, X, Idx, n_rows, D, stride_o, stride_x, BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_D)
    rmask = rows < n_rows
    mask = rmask[:, None] & (cols < D)[None, :]
    idx = tl.load(Idx + rows, mask=rmask, other=0)
    x = tl.load(X + rows[:, None] * stride_x + cols[None, :], mask=mask, other=0.0)
    tl.atomic_add(Out + idx[:, None] * stride_o + cols[None, :], x, mask=mask)


@triton.jit
def t8_colsum_axis0(X, Y, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for m0 in range(0, M, BLOCK_M):
        rows = m0 + tl.arange(0, BLOCK_M)
        acc += tl.load(X + rows[:, None] * stride + cols[None, :], mask=(rows < M)[:, None] & (cols < N)[None, :],
                       other=0.0)
    tl.store(Y + cols, tl.sum(acc, 0), mask=cols < N)


@triton.jit
def t8_causal_conv1d(X, W, Bias, Y, L, D, stride_b, stride_d, KW: tl.constexpr, BLOCK_L: tl.constexpr):
    bd = tl.program_id(0)
    pl = tl.program_id(1)
    b = bd // D
    d = bd % D
    t = pl * BLOCK_L + tl.arange(0, BLOCK_L)
    base = X + b * stride_b + d * stride_d
    acc = tl.zeros([BLOCK_L], dtype=tl.float32) + tl.load(Bias + d)
    for k in tl.static_range(KW):
        w = tl.load(W + d * KW + k)
        src = t - (KW - 1) + k
        x = tl.load(base + src, mask=(src >= 0) & (src < L), other=0.0).to(tl.float32)
        acc += w * x
    y = acc * tl.sigmoid(acc)
    tl.store(Y + b * stride_b + d * stride_d + t, y.to(tl.float16), mask=t < L)


@triton.jit
def t8_bmm_tf32(A, B, C, M, N, K, sab, sam, sbb, sbk, scb, scm,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    bat = tl.program_id(1)
    num_n = tl.cdiv(N, BLOCK_N)
    pm = pid // num_n
    pn = pid % num_n
    offs_m = pm * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pn * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_base = A + bat * sab
    b_base = B + bat * sbb
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + offs_k
        a = tl.load(a_base + offs_m[:, None] * sam + kk[None, :], mask=(offs_m[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_base + kk[:, None] * sbk + offs_n[None, :], mask=(kk[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="tf32")
    tl.store(C + bat * scb + offs_m[:, None] * scm + offs_n[None, :], acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def t8_jagged_sum(Vals, Offs, Out, D, BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    pd = tl.program_id(1)
    start = tl.load(Offs + b)
    end = tl.load(Offs + b + 1)
    cols = pd * BLOCK_D + tl.arange(0, BLOCK_D)
    acc = tl.zeros([BLOCK_R, BLOCK_D], dtype=tl.float32)
    for r0 in range(start, end, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        acc += tl.load(Vals + rows[:, None] * D + cols[None, :], mask=(rows < end)[:, None] & (cols < D)[None, :],
                       other=0.0)
    tl.store(Out + b * D + cols, tl.sum(acc, 0), mask=cols < D)


@triton.jit
def t8_fp8_rowquant(X, Q, S, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    amax = tl.max(tl.abs(x), 0)
    scale = tl.where(amax > 0, 448.0 / amax, 1.0)
    q = (x * scale).to(tl.float8e4nv)
    tl.store(Q + row * N + cols, q, mask=mask)
    tl.store(S + row, 1.0 / scale)


@triton.jit
def t8_lut_gather(Table, Idx, Y, n, T: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    table = tl.load(Table + tl.arange(0, T))
    idx = tl.load(Idx + offs, mask=mask, other=0)
    y = tl.gather(table, idx, 0)
    y2 = tl.load(Table + idx, mask=mask, other=0.0)
    tl.store(Y + offs, y + y2, mask=mask)


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
        "id": lid, "order": len(launches), "module": "blind8_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind8/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(8888)
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

    def layernorm():
        M, N = 2000, 5000
        x = torch.randn((M, N), device=dev, dtype=torch.float16)
        w = torch.randn((N,), device=dev, dtype=torch.float32)
        b = torch.randn((N,), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        mean = torch.empty((M,), device=dev, dtype=torch.float32)
        rstd = torch.empty((M,), device=dev, dtype=torch.float32)
        args = (x, y, w, b, mean, rstd, x.stride(0), N, 1e-5)
        h = t8_layernorm_fwd[(M,)](*args, BLOCK_SIZE=2048, num_warps=8)
        torch.cuda.synchronize()
        err = rel(y, torch.nn.functional.layer_norm(x.float(), (N,), w, b, 1e-5))
        save(out, launches, "t8_layernorm_fwd", h, "t8_layernorm_fwd",
             ("X", "Y", "W", "B", "Mean", "Rstd", "stride", "N", "eps"), args, {"BLOCK_SIZE": 2048}, (M,),
             "the tutorial's layer norm forward: 2,000 fp16 rows of 5,000 (10,000-byte rows), three column loops over blocks of 2,048 (the last masked), fp32 weight and bias, mean and rstd stored, num_warps=8; rel. error %.2e" % err)

    def attn_varlen():
        lens = [100, 513, 1000, 64, 777, 256, 31, 900]
        H, D = 8, 64
        cu = torch.tensor([0] + list(torch.tensor(lens).cumsum(0).tolist()), device=dev, dtype=torch.int32)
        T = sum(lens)
        q = torch.randn((T, H, D), device=dev, dtype=torch.float16)
        k = torch.randn((T, H, D), device=dev, dtype=torch.float16)
        v = torch.randn((T, H, D), device=dev, dtype=torch.float16)
        o = torch.empty_like(q)
        scale = 1.0 / 8.0
        grid = (triton.cdiv(max(lens), 64), len(lens) * H)
        args = (q, k, v, o, cu, scale, H, q.stride(0), q.stride(1))
        h = t8_attn_varlen[grid](*args, BLOCK_M=64, BLOCK_N=64, D=D, num_warps=4, num_stages=2)
        torch.cuda.synchronize()
        errs = []
        for i, L in enumerate(lens):
            s0 = sum(lens[:i])
            qs, ks, vs = (t[s0:s0 + L].float().transpose(0, 1) for t in (q, k, v))
            ref = torch.softmax(qs @ ks.transpose(1, 2) * scale, -1) @ vs
            errs.append(rel(o[s0:s0 + L].transpose(0, 1), ref))
        save(out, launches, "t8_attn_varlen", h, "t8_attn_varlen",
             ("Q", "K", "V", "O", "cu_seqlens", "sm_scale", "H", "stride_t", "stride_h"), args,
             {"BLOCK_M": 64, "BLOCK_N": 64, "D": D}, grid,
             "variable-length attention (non-causal) over 8 packed fp16 sequences of 100, 513, 1,000, 64, 777, 256, 31, 900 tokens, 8 heads x 64 ([tokens, heads, 64] layout, 1,024-byte token stride), cu_seqlens loaded, key loop to the loaded length, masked query and key tails (programs past a short sequence fully masked), num_warps=4, num_stages=2; max rel. error %.2e" % max(errs))

    def adamw():
        n = 1000003
        p = torch.randn((n,), device=dev, dtype=torch.float32)
        g = torch.randn((n,), device=dev, dtype=torch.bfloat16)
        m = torch.randn((n,), device=dev, dtype=torch.float32) * 0.1
        v = torch.rand((n,), device=dev, dtype=torch.float32) * 0.01
        lr, b1, b2, eps, wd, step = 1e-3, 0.9, 0.999, 1e-8, 0.01, 10
        bc1, bc2 = 1 - b1 ** step, 1 - b2 ** step
        gf = g.float()
        m_ref = b1 * m + (1 - b1) * gf
        v_ref = b2 * v + (1 - b2) * gf * gf
        p_ref = p * (1 - lr * wd) - lr * (m_ref / bc1) / (torch.sqrt(v_ref / bc2) + eps)
        args = (p, g, m, v, n, lr, b1, b2, eps, wd, bc1, bc2)
        grid = (triton.cdiv(n, 1024),)
        h = t8_adamw_fused[grid](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        err = max(rel(p, p_ref), rel(m, m_ref), rel(v, v_ref))
        save(out, launches, "t8_adamw_fused", h, "t8_adamw_fused",
             ("P", "G", "M", "V", "n", "lr", "beta1", "beta2", "eps", "wd", "bc1", "bc2"), args, {"BLOCK": 1024}, grid,
             "fused AdamW step: fp32 params and moments updated in place, bf16 gradients, n = 1,000,003, BLOCK 1,024 (the last masked), num_warps=4; rel. error %.2e" % err)

    def index_add():
        R, D, NO = 20000, 96, 1000
        x = torch.randn((R, D), device=dev, dtype=torch.float32)
        idx = torch.randint(0, NO, (R,), device=dev, dtype=torch.int64)
        o = torch.zeros((NO, D), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(R, 16),)
        args = (o, x, idx, R, D, o.stride(0), x.stride(0))
        h = t8_index_add[grid](*args, BLOCK_R=16, BLOCK_D=128, num_warps=4)
        torch.cuda.synchronize()
        err = rel(o, torch.zeros_like(o).index_add_(0, idx, x))
        save(out, launches, "t8_index_add", h, "t8_index_add",
             ("Out", "X", "Idx", "n_rows", "D", "stride_o", "stride_x"), args, {"BLOCK_R": 16, "BLOCK_D": 128}, grid,
             "index_add_ dim 0 by tl.atomic_add: 20,000 fp32 rows of 96 (BLOCK_D 128, 32 columns masked) into 1,000 rows at random int64 indices, 16 rows a program, num_warps=4; rel. error %.2e" % err)

    def colsum():
        M, N = 3000, 1000
        x = torch.randn((M, N), device=dev, dtype=torch.float32)
        y = torch.empty((N,), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(N, 64),)
        args = (x, y, M, N, x.stride(0))
        h = t8_colsum_axis0[grid](*args, BLOCK_M=32, BLOCK_N=64, num_warps=4)
        torch.cuda.synchronize()
        err = rel(y, x.sum(0))
        save(out, launches, "t8_colsum_axis0", h, "t8_colsum_axis0", ("X", "Y", "M", "N", "stride"), args,
             {"BLOCK_M": 32, "BLOCK_N": 64}, grid,
             "column sums of a 3,000 x 1,000 fp32 matrix: 64 columns a program (the last 40 masked), a loop over 32-row blocks (the last 24 rows), tl.sum over axis 0, num_warps=4; rel. error %.2e" % err)

    def conv1d():
        Bn, D, L, KW = 4, 512, 2000, 4
        x = torch.randn((Bn, D, L), device=dev, dtype=torch.float16)
        w = torch.randn((D, KW), device=dev, dtype=torch.float32)
        bias = torch.randn((D,), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        grid = (Bn * D, triton.cdiv(L, 1024))
        args = (x, w, bias, y, L, D, x.stride(0), x.stride(1))
        h = t8_causal_conv1d[grid](*args, KW=KW, BLOCK_L=1024, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.nn.functional.conv1d(x.float(), w[:, None, :], bias, padding=KW - 1, groups=D)[..., :L]
        err = rel(y, torch.nn.functional.silu(ref))
        save(out, launches, "t8_causal_conv1d", h, "t8_causal_conv1d",
             ("X", "W", "Bias", "Y", "L", "D", "stride_b", "stride_d"), args, {"KW": KW, "BLOCK_L": 1024}, grid,
             "Mamba-style causal depthwise conv1d + SiLU: fp16 [4, 512, 2,000] (4,000-byte rows), width 4, four shifted loads masked at the row start and end, 1,024 positions a program (the second 976), num_warps=4; rel. error %.2e" % err)

    def bmm():
        Bt, M, N, K = 8, 300, 200, 500
        a = torch.randn((Bt, M, K), device=dev, dtype=torch.float32)
        b = torch.randn((Bt, K, N), device=dev, dtype=torch.float32)
        c = torch.empty((Bt, M, N), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(M, 64) * triton.cdiv(N, 64), Bt)
        args = (a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
        ce = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}
        h = t8_bmm_tf32[grid](*args, num_warps=4, num_stages=3, **ce)
        torch.cuda.synchronize()
        err = rel(c, torch.bmm(a.double(), b.double()))
        save(out, launches, "t8_bmm_tf32", h, "t8_bmm_tf32",
             ("A", "B", "C", "M", "N", "K", "sab", "sam", "sbb", "sbk", "scb", "scm"), args, ce, grid,
             "batched fp32 matmul in tf32 (input_precision='tf32'): 8 x (300 x 500) @ (500 x 200), 64 x 64 x 32 tiles, masked M, N and K edges (2,000-byte A rows, 800-byte B rows), batch on program_id(1), num_warps=4, num_stages=3; rel. error %.2e" % err)

    def jagged():
        Bn, D = 1000, 200
        lens = torch.randint(0, 64, (Bn,), dtype=torch.int64)
        offs = torch.zeros((Bn + 1,), dtype=torch.int64)
        offs[1:] = lens.cumsum(0)
        T = int(offs[-1])
        vals = torch.randn((T, D), device=dev, dtype=torch.float32)
        offs_d = offs.to(dev)
        o = torch.empty((Bn, D), device=dev, dtype=torch.float32)
        grid = (Bn, triton.cdiv(D, 128))
        args = (vals, offs_d, o, D)
        h = t8_jagged_sum[grid](*args, BLOCK_R=16, BLOCK_D=128, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.stack([vals[offs[i]:offs[i + 1]].sum(0) for i in range(Bn)])
        err = rel(o, ref)
        save(out, launches, "t8_jagged_sum", h, "t8_jagged_sum", ("Vals", "Offs", "Out", "D"), args,
             {"BLOCK_R": 16, "BLOCK_D": 128}, grid,
             "jagged sum: 1,000 bags of 0..63 fp32 rows of 200 (800-byte rows), int64 offsets loaded as the loop bounds, 16-row blocks, 128 columns a program (the second 72), num_warps=4; %d rows; rel. error %.2e" % (T, err))

    def fp8q():
        R, N = 4096, 1000
        x = torch.randn((R, N), device=dev, dtype=torch.bfloat16)
        q = torch.empty((R, N), device=dev, dtype=torch.float8_e4m3fn)
        s = torch.empty((R,), device=dev, dtype=torch.float32)
        args = (x, q, s, N, x.stride(0))
        h = t8_fp8_rowquant[(R,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        err = rel(q.float() * s[:, None], x.float())
        save(out, launches, "t8_fp8_rowquant", h, "t8_fp8_rowquant", ("X", "Q", "S", "N", "stride"), args,
             {"BLOCK": 1024}, (R,),
             "fp8 e4m3 row quantisation: 4,096 bf16 rows of 1,000 (BLOCK 1,024, 24 masked), amax by tl.max, scaled cast to float8e4nv, 1-byte stores, the row scale stored, num_warps=4; rel. error of the dequantised rows %.2e" % err)

    def lut():
        n, T = 1000003, 256
        table = torch.randn((T,), device=dev, dtype=torch.float32)
        idx = torch.randint(0, T, (n,), device=dev, dtype=torch.int32)
        y = torch.empty((n,), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(n, 1024),)
        args = (table, idx, y, n)
        h = t8_lut_gather[grid](*args, T=T, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        err = rel(y, 2 * table[idx.long()])
        save(out, launches, "t8_lut_gather", h, "t8_lut_gather", ("Table", "Idx", "Y", "n"), args, {"T": T, "BLOCK": 1024},
             grid,
             "a 256-entry fp32 lookup table loaded whole by every program, values by tl.gather (register / shared-memory gather) and by an indirect tl.load of the table, random int32 indices, n = 1,000,003 (the last block masked), num_warps=4; rel. error %.2e" % err)

    for lid, f in (("t8_layernorm_fwd", layernorm), ("t8_attn_varlen", attn_varlen), ("t8_adamw_fused", adamw),
                   ("t8_index_add", index_add), ("t8_colsum_axis0", colsum), ("t8_causal_conv1d", conv1d),
                   ("t8_bmm_tf32", bmm), ("t8_jagged_sum", jagged), ("t8_fp8_rowquant", fp8q),
                   ("t8_lut_gather", lut)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-26s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
