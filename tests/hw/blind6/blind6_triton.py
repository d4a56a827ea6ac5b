#!/usr/bin/env python3
"""Triton kernels of the sixth held-out batch (tests/hw/blind6), copied from
tests/hw/blind5/blind5_triton.py (same save/describe code): Hopper shapes none
of triton_kernels.py and the blind*_triton.py scripts has (an fp16 RMS norm
forward over rows of 3,000 with the rstd saved; a GPT-J (interleaved) rotary
embedding on a strided view of fused QKV with gathered positions; a
cross-entropy forward looping over a 32,003-word vocabulary in chunks with an
online log-sum-exp and a gathered label logit; the persistent matmul of the
Triton tutorial's flattened tile x k loop (grid = number of SMs); a grouped
GEMM over pointer arrays with a precomputed tile schedule and nn.Linear-style
K-major weights; a FlashAttention-2 backward for dK/dV; an fp8 e5m2 matmul
with per-tensor scales). Each runs once; the script is run under ncu with
`-k regex:^t6_` (tests/hw/blind6/measure_blind6.sh). Writes
OUT/ID.{ptx,cubin,json} and OUT/triton_launches.json (PTX paths named
tests/hw/blind6/triton/ID.ptx). A kernel that fails to compile or run is
reported and left out.

  python3 tests/hw/blind6/blind6_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def t6_rmsnorm_fwd(X, W, Y, Rstd, stride_x, stride_y, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    var = tl.sum(x * x, axis=0) / N
    rstd = 1.0 / tl.sqrt(var + eps)
    tl.store(Rstd + row, rstd)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(Y + row * stride_y + cols, (x * rstd * w).to(tl.float16), mask=mask)


@triton.jit
def t6_rotary_gptj(QKV, Out, Cos, Sin, Pos, stride_tok, stride_head, stride_otok, n_heads,
                   HEAD: tl.constexpr, BLOCK_H: tl.constexpr):
    tok = tl.program_id(0)
    pos = tl.load(Pos + tok)
    heads = tl.arange(0, BLOCK_H)
    half = tl.arange(0, HEAD // 2)
    hmask = heads[:, None] < n_heads
    base = QKV + tok * stride_tok + heads[:, None] * stride_head
    x_even = tl.load(base + 2 * half[None, :], mask=hmask, other=0.0).to(tl.float32)
    x_odd = tl.load(base + 2 * half[None, :] + 1, mask=hmask, other=0.0).to(tl.float32)
    c = tl.load(Cos + pos * (HEAD // 2) + half)[None, :]
    s = tl.load(Sin + pos * (HEAD // 2) + half)[None, :]
    obase = Out + tok * stride_otok + heads[:, None] * HEAD
    tl.store(obase + 2 * half[None, :], (x_even * c - x_odd * s).to(tl.float16), mask=hmask)
    tl.store(obase + 2 * half[None, :] + 1, (x_even * s + x_odd * c).to(tl.float16), mask=hmask)


@triton.jit
def t6_cross_entropy_chunked(Logits, Labels, Loss, Lse, stride, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = Logits + row.to(tl.int64) * stride
    m = float("-inf")
    d = 0.0
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, 0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), 0)
        m = m_new
    lse = m + tl.log(d)
    label = tl.load(Labels + row)
    xl = tl.load(base + label, mask=label >= 0, other=0.0).to(tl.float32)
    tl.store(Lse + row, lse)
    tl.store(Loss + row, tl.where(label >= 0, lse - xl, 0.0))


@triton.jit
def t6_matmul_persistent_flat(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                              NUM_SMS: tl.constexpr):
    start_pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_pid_m * num_pid_n
    tiles_per_sm = num_tiles // NUM_SMS
    if start_pid < num_tiles % NUM_SMS:
        tiles_per_sm += 1
    tile_id = start_pid - NUM_SMS
    ki = -1
    offs_k = tl.arange(0, BLOCK_K)
    offs_am = tl.arange(0, BLOCK_M)
    offs_bn = tl.arange(0, BLOCK_N)
    pid_m = 0
    pid_n = 0
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, k_tiles * tiles_per_sm):
        ki = tl.where(ki == k_tiles - 1, 0, ki + 1)
        if ki == 0:
            tile_id += NUM_SMS
            pid_m = tile_id // num_pid_n
            pid_n = tile_id % num_pid_n
            offs_am = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_bn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
            offs_am = tl.where(offs_am < M, offs_am, 0)
            offs_bn = tl.where(offs_bn < N, offs_bn, 0)
        offs_k = ki * BLOCK_K + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + offs_am[:, None] * stride_am + offs_k[None, :], mask=offs_k[None, :] < K, other=0.0)
        b = tl.load(b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :], mask=offs_k[:, None] < K, other=0.0)
        acc = tl.dot(a, b, acc)
        if ki == k_tiles - 1:
            offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
            tl.store(c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :], acc.to(tl.bfloat16),
                     mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)


@triton.jit
def t6_grouped_linear_sched(A_ptrs, W_ptrs, C_ptrs, Ms, tile_group, tile_in_group, N, K,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    g = tl.load(tile_group + pid)
    t = tl.load(tile_in_group + pid)
    m = tl.load(Ms + g)
    a = tl.load(A_ptrs + g).to(tl.pointer_type(tl.bfloat16))
    w = tl.load(W_ptrs + g).to(tl.pointer_type(tl.bfloat16))
    c = tl.load(C_ptrs + g).to(tl.pointer_type(tl.bfloat16))
    num_n = tl.cdiv(N, BLOCK_N)
    offs_m = (t // num_n) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = (t % num_n) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(a + offs_m[:, None] * K + (k + offs_k)[None, :], mask=offs_m[:, None] < m, other=0.0)
        wt = tl.load(w + offs_n[None, :] * K + (k + offs_k)[:, None], mask=offs_n[None, :] < N, other=0.0)
        acc = tl.dot(x, wt, acc)
    tl.store(c + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.bfloat16),
             mask=(offs_m[:, None] < m) & (offs_n[None, :] < N))


@triton.jit
def t6_attn_bwd_dkdv(Q, K, V, DO, LSE, Delta, DK, DV, stride_h, stride_n, N_CTX, sm_scale,
                     HEAD: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_n = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh.to(tl.int64) * stride_h
    offs_n = start_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD)
    nmask = offs_n[:, None] < N_CTX
    k = tl.load(K + base + offs_n[:, None] * stride_n + offs_d[None, :], mask=nmask, other=0.0)
    v = tl.load(V + base + offs_n[:, None] * stride_n + offs_d[None, :], mask=nmask, other=0.0)
    dk = tl.zeros([BLOCK_N, HEAD], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, HEAD], dtype=tl.float32)
    for start_m in range(0, N_CTX, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        mmask = offs_m < N_CTX
        q = tl.load(Q + base + offs_m[:, None] * stride_n + offs_d[None, :], mask=mmask[:, None], other=0.0)
        do = tl.load(DO + base + offs_m[:, None] * stride_n + offs_d[None, :], mask=mmask[:, None], other=0.0)
        lse = tl.load(LSE + bh * N_CTX + offs_m, mask=mmask, other=float("inf"))
        delta = tl.load(Delta + bh * N_CTX + offs_m, mask=mmask, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * sm_scale
        p = tl.exp(qk - lse[:, None])
        p = tl.where(mmask[:, None] & (offs_n[None, :] < N_CTX), p, 0.0)
        dv += tl.dot(tl.trans(p.to(tl.float16)), do)
        dp = tl.dot(do, tl.trans(v))
        ds = p * (dp - delta[:, None]) * sm_scale
        dk += tl.dot(tl.trans(ds.to(tl.float16)), q)
    tl.store(DK + base + offs_n[:, None] * stride_n + offs_d[None, :], dk.to(tl.float16), mask=nmask)
    tl.store(DV + base + offs_n[:, None] * stride_n + offs_d[None, :], dv.to(tl.float16), mask=nmask)


@triton.jit
def t6_fp8_e5m2_matmul(a_ptr, b_ptr, c_ptr, scale_a, scale_b, M, N, K, stride_am, stride_bn, stride_cm,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + (k + offs_k)[None, :], mask=offs_m[:, None] < M, other=0.0)
        b = tl.load(b_ptr + offs_n[None, :] * stride_bn + (k + offs_k)[:, None], mask=offs_n[None, :] < N, other=0.0)
        acc = tl.dot(a, b, acc)
    acc = acc * (tl.load(scale_a) * tl.load(scale_b))
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.bfloat16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


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
        "id": lid, "order": len(launches), "module": "blind6_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind6/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(6666)
    dev = "cuda"
    launches = []

    def attempt(lid, f):
        try:
            f()
        except Exception:
            print("triton launch %s FAILED" % lid)
            traceback.print_exc()

    def rel(y, ref):
        return ((y.float() - ref.float()).norm() / max(ref.float().norm().item(), 1e-30)).item()

    def rmsnorm():
        R, N = 2048, 3000
        x = torch.randn((R, 3072), device=dev, dtype=torch.float16)[:, :N]
        w = torch.randn((N,), device=dev, dtype=torch.float16)
        y = torch.empty((R, N), device=dev, dtype=torch.float16)
        rstd = torch.empty((R,), device=dev, dtype=torch.float32)
        args = (x, w, y, rstd, x.stride(0), y.stride(0), N, 1e-6)
        h = t6_rmsnorm_fwd[(R,)](*args, BLOCK=4096, num_warps=8)
        torch.cuda.synchronize()
        xf = x.float()
        err = rel(y, xf * torch.rsqrt((xf * xf).mean(1, keepdim=True) + 1e-6) * w.float())
        save(out, launches, "t6_rmsnorm_fwd", h, "t6_rmsnorm_fwd", ("X", "W", "Y", "Rstd", "stride_x", "stride_y", "N", "eps"),
             args, {"BLOCK": 4096}, (R,),
             "fp16 RMS norm forward, 2,048 rows of 3,000 (a view of rows of 3,072; BLOCK 4,096, masked), rstd saved, num_warps=8; rel. error %.2e" % err)

    def rotary():
        T, H, D = 1024, 12, 128
        qkv = torch.randn((T, 3 * H * D), device=dev, dtype=torch.float16)
        o = torch.empty((T, H, D), device=dev, dtype=torch.float16)
        pos = torch.randint(0, 4096, (T,), device=dev, dtype=torch.int32)
        inv = 1.0 / (10000 ** (torch.arange(0, D // 2, device=dev, dtype=torch.float32) * 2 / D))
        ang = torch.arange(4096, device=dev, dtype=torch.float32)[:, None] * inv[None, :]
        cos, sin = ang.cos().contiguous(), ang.sin().contiguous()
        args = (qkv, o, cos, sin, pos, qkv.stride(0), D, o.stride(0), H)
        ce = {"HEAD": D, "BLOCK_H": 16}
        h = t6_rotary_gptj[(T,)](*args, num_warps=4, **ce)
        torch.cuda.synchronize()
        q = qkv[:, : H * D].float().view(T, H, D // 2, 2)
        c, s = cos[pos.long()][:, None, :], sin[pos.long()][:, None, :]
        ref = torch.stack((q[..., 0] * c - q[..., 1] * s, q[..., 0] * s + q[..., 1] * c), -1).view(T, H, D)
        err = rel(o, ref)
        save(out, launches, "t6_rotary_gptj", h, "t6_rotary_gptj",
             ("QKV", "Out", "Cos", "Sin", "Pos", "stride_tok", "stride_head", "stride_otok", "n_heads"), args, ce, (T,),
             "GPT-J (interleaved) rotary embedding of the q part of fused QKV rows (1,024 tokens x 12 heads x 128 fp16, row stride 4,608), even/odd lanes as two strided loads, cos/sin rows gathered by random positions, heads padded to 16 (masked), num_warps=4; rel. error %.2e" % err)

    def xent():
        R, V = 512, 32003
        logits = torch.randn((R, V), device=dev, dtype=torch.bfloat16)
        labels = torch.randint(0, V, (R,), device=dev, dtype=torch.int64)
        labels[::17] = -1
        loss = torch.empty((R,), device=dev, dtype=torch.float32)
        lse = torch.empty_like(loss)
        args = (logits, labels, loss, lse, logits.stride(0), V)
        h = t6_cross_entropy_chunked[(R,)](*args, BLOCK=4096, num_warps=8)
        torch.cuda.synchronize()
        ref = torch.nn.functional.cross_entropy(logits.float(), labels, ignore_index=-1, reduction="none")
        err = rel(loss, ref)
        save(out, launches, "t6_cross_entropy_chunked", h, "t6_cross_entropy_chunked",
             ("Logits", "Labels", "Loss", "Lse", "stride", "V"), args, {"BLOCK": 4096}, (R,),
             "bf16 cross-entropy forward, 512 rows of a 32,003-word vocabulary in 8 chunks of 4,096 (the last masked), online log-sum-exp, label logit gathered (every 17th label ignored, -1), num_warps=8; rel. error %.2e" % err)

    def persistent():
        M, N, K = 1500, 1000, 512
        a = torch.randn((M, K), device=dev, dtype=torch.bfloat16)
        b = torch.randn((K, N), device=dev, dtype=torch.bfloat16)
        c = torch.empty((M, N), device=dev, dtype=torch.bfloat16)
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        ce = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "NUM_SMS": sms}
        args = (a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        h = t6_matmul_persistent_flat[(sms,)](*args, num_warps=8, num_stages=3, **ce)
        torch.cuda.synchronize()
        err = rel(c, a.float() @ b.float())
        save(out, launches, "t6_matmul_persistent_flat", h, "t6_matmul_persistent_flat",
             ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"), args, ce, (sms,),
             "bf16 persistent matmul 1,500 x 1,000 x 512, grid = %d SMs, one flattened tile x k loop (the tutorial's ki counter), 128 x 128 x 64, edge rows/columns clamped on load and masked on store, num_warps=8, num_stages=3; rel. error %.2e" % (sms, err))

    def grouped():
        Ms = [300, 64, 1000, 17, 513, 128]
        N, K, BM, BN = 384, 256, 64, 128
        A = [torch.randn((m, K), device=dev, dtype=torch.bfloat16) for m in Ms]
        W = [torch.randn((N, K), device=dev, dtype=torch.bfloat16) * 0.1 for _ in Ms]
        C = [torch.empty((m, N), device=dev, dtype=torch.bfloat16) for m in Ms]
        ap = torch.tensor([t.data_ptr() for t in A], device=dev, dtype=torch.int64)
        wp = torch.tensor([t.data_ptr() for t in W], device=dev, dtype=torch.int64)
        cp = torch.tensor([t.data_ptr() for t in C], device=dev, dtype=torch.int64)
        ms = torch.tensor(Ms, device=dev, dtype=torch.int32)
        tg, ti = [], []
        for g, m in enumerate(Ms):
            n = triton.cdiv(m, BM) * triton.cdiv(N, BN)
            tg += [g] * n
            ti += list(range(n))
        tgt = torch.tensor(tg, device=dev, dtype=torch.int32)
        tit = torch.tensor(ti, device=dev, dtype=torch.int32)
        ce = {"BLOCK_M": BM, "BLOCK_N": BN, "BLOCK_K": 64}
        args = (ap, wp, cp, ms, tgt, tit, N, K)
        h = t6_grouped_linear_sched[(len(tg),)](*args, num_warps=4, num_stages=3, **ce)
        torch.cuda.synchronize()
        err = max(rel(c, a.float() @ w.float().t()) for a, w, c in zip(A, W, C))
        save(out, launches, "t6_grouped_linear_sched", h, "t6_grouped_linear_sched",
             ("A_ptrs", "W_ptrs", "C_ptrs", "Ms", "tile_group", "tile_in_group", "N", "K"), args, ce, (len(tg),),
             "bf16 grouped GEMM over pointer arrays (6 groups, M = 300, 64, 1,000, 17, 513, 128; N 384, K 256), nn.Linear weights [N, K] read K-major, a precomputed (group, tile) schedule of %d programs, 64 x 128 x 64, num_warps=4, num_stages=3; rel. error %.2e" % (len(tg), err))

    def attn_bwd():
        BH, N, D = 8, 1000, 64
        q = torch.randn((BH, N, D), device=dev, dtype=torch.float16)
        k = torch.randn_like(q)
        v = torch.randn_like(q)
        do = torch.randn_like(q)
        scale = 0.125
        s = (q.float() @ k.float().transpose(1, 2)) * scale
        lse = torch.logsumexp(s, -1).contiguous()
        p = torch.softmax(s, -1)
        o = p @ v.float()
        delta = (o * do.float()).sum(-1).contiguous()
        dk = torch.empty_like(q)
        dv = torch.empty_like(q)
        ce = {"HEAD": D, "BLOCK_M": 64, "BLOCK_N": 64}
        grid = (triton.cdiv(N, 64), BH)
        args = (q, k, v, do, lse, delta, dk, dv, q.stride(0), q.stride(1), N, scale)
        h = t6_attn_bwd_dkdv[grid](*args, num_warps=4, num_stages=2, **ce)
        torch.cuda.synchronize()
        dv_ref = p.transpose(1, 2) @ do.float()
        dp = do.float() @ v.float().transpose(1, 2)
        ds = p * (dp - delta[..., None]) * scale
        dk_ref = ds.transpose(1, 2) @ q.float()
        err = max(rel(dv, dv_ref), rel(dk, dk_ref))
        save(out, launches, "t6_attn_bwd_dkdv", h, "t6_attn_bwd_dkdv",
             ("Q", "K", "V", "DO", "LSE", "Delta", "DK", "DV", "stride_h", "stride_n", "N_CTX", "sm_scale"), args, ce, grid,
             "FlashAttention-2 backward dK/dV (non-causal), 8 (batch x head) of 1,000 tokens x 64 fp16, 64-row K/V blocks looping over 64-row Q blocks (the last masked), lse and delta per row, num_warps=4, num_stages=2; rel. error %.2e" % err)

    def fp8():
        M, N, K = 1000, 1000, 512
        a = (torch.randn((M, K), device=dev) * 0.5).to(torch.float8_e5m2)
        b = (torch.randn((N, K), device=dev) * 0.5).to(torch.float8_e5m2)
        sa = torch.tensor([0.5], device=dev, dtype=torch.float32)
        sb = torch.tensor([0.25], device=dev, dtype=torch.float32)
        c = torch.empty((M, N), device=dev, dtype=torch.bfloat16)
        ce = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128}
        grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
        args = (a, b, c, sa, sb, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        h = t6_fp8_e5m2_matmul[grid](*args, num_warps=8, num_stages=3, **ce)
        torch.cuda.synchronize()
        err = rel(c, (a.float() @ b.float().t()) * 0.125)
        save(out, launches, "t6_fp8_e5m2_matmul", h, "t6_fp8_e5m2_matmul",
             ("a_ptr", "b_ptr", "c_ptr", "scale_a", "scale_b", "M", "N", "K", "stride_am", "stride_bn", "stride_cm"), args, ce, grid,
             "fp8 e5m2 matmul 1,000 x 1,000 x 512, B as [N, K] (K-major), per-tensor scales, bf16 out, 128 x 128 x 128, num_warps=8, num_stages=3; rel. error %.2e" % err)

    for lid, f in (("t6_rmsnorm_fwd", rmsnorm), ("t6_rotary_gptj", rotary), ("t6_cross_entropy_chunked", xent),
                   ("t6_matmul_persistent_flat", persistent), ("t6_grouped_linear_sched", grouped),
                   ("t6_attn_bwd_dkdv", attn_bwd), ("t6_fp8_e5m2_matmul", fp8)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-26s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
