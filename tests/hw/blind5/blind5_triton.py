#!/usr/bin/env python3
"""Triton kernels of the fifth held-out batch (tests/hw/blind5), copied from
tests/hw/blind4/blind4_triton.py (same save/describe code): Hopper shapes none
of triton_kernels.py and the blind*_triton.py scripts has (an fp16 matmul with
masked M/N edges at num_warps=8 and num_stages=3 and 4; a causal flash
attention forward over 1,000 tokens; a layer norm backward writing dx and
per-program partial dgamma/dbeta; a softmax over rows of 1,000 with a masked
tail; a vLLM-style fused MoE gather-matmul whose A rows are gathered by sorted
token ids and whose B is picked by a loaded expert id; an int8 matmul with
per-row and per-column scales). Each runs once; the script is run under ncu
with `-k regex:^t5_` (tests/hw/blind5/measure_blind5.sh). Writes
OUT/ID.{ptx,cubin,json} and OUT/triton_launches.json (PTX paths named
tests/hw/blind5/triton/ID.ptx). A kernel that fails to compile or run is
reported and left out.

  python3 tests/hw/blind5/blind5_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def _mm_body(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_n
    gid = pid // group
    first_m = gid * GROUP_M
    gsz = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % gsz
    pid_n = (pid % group) // gsz
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs, mask=offs_m[:, None] < M, other=0.0)
        b = tl.load(b_ptrs, mask=offs_n[None, :] < N, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def t5_matmul_s3(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    _mm_body(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M)


@triton.jit
def t5_matmul_s4(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    _mm_body(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M)


@triton.jit
def t5_flash_attn_causal(Q, K, V, O, stride_h, stride_n, N_CTX, sm_scale,
                         HEAD: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD)
    base = bh.to(tl.int64) * stride_h
    q = tl.load(Q + base + offs_m[:, None] * stride_n + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.0)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD], dtype=tl.float32)
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        kmask = cols[None, :] < N_CTX
        k = tl.load(K + base + cols[None, :] * stride_n + offs_d[:, None], mask=kmask, other=0.0)
        s = tl.dot(q, k) * sm_scale
        s = tl.where((offs_m[:, None] >= cols[None, :]) & kmask, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + cols[:, None] * stride_n + offs_d[None, :], mask=cols[:, None] < N_CTX, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * stride_n + offs_d[None, :], acc.to(tl.float16), mask=offs_m[:, None] < N_CTX)


@triton.jit
def t5_ln_bwd(DY, X, W, Mean, Rstd, DX, DW_part, DB_part, stride, n_rows, N,
              ROWS_PER_PROG: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    cmask = cols < N
    w = tl.load(W + cols, mask=cmask, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK_N], dtype=tl.float32)
    db = tl.zeros([BLOCK_N], dtype=tl.float32)
    for i in range(ROWS_PER_PROG):
        row = pid * ROWS_PER_PROG + i
        rmask = cmask & (row < n_rows)
        x = tl.load(X + row * stride + cols, mask=rmask, other=0.0).to(tl.float32)
        dy = tl.load(DY + row * stride + cols, mask=rmask, other=0.0).to(tl.float32)
        mean = tl.load(Mean + row, mask=row < n_rows, other=0.0)
        rstd = tl.load(Rstd + row, mask=row < n_rows, other=0.0)
        xhat = tl.where(rmask, (x - mean) * rstd, 0.0)
        wdy = w * dy
        c1 = tl.sum(xhat * wdy, 0) / N
        c2 = tl.sum(wdy, 0) / N
        dx = (wdy - (xhat * c1 + c2)) * rstd
        tl.store(DX + row * stride + cols, dx.to(tl.float16), mask=rmask)
        dw += dy * xhat
        db += dy
    tl.store(DW_part + pid * N + cols, dw, mask=cmask)
    tl.store(DB_part + pid * N + cols, db, mask=cmask)


@triton.jit
def t5_softmax_tail(X, Y, stride_x, stride_y, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(X + row * stride_x + cols, mask=m, other=-float("inf"))
    x = x - tl.max(x, 0)
    e = tl.exp(x)
    tl.store(Y + row * stride_y + cols, e / tl.sum(e, 0), mask=m)


@triton.jit
def t5_moe_gather_mm(A, B, C, sorted_token_ids, expert_ids, num_valid, N, K, stride_am, stride_be, stride_bn, stride_cm,
                     TOPK: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_tok = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    tok = tl.load(sorted_token_ids + offs_tok)
    tmask = tok < num_valid
    e = tl.load(expert_ids + pid_m)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + (tok // TOPK)[:, None] * stride_am + offs_k[None, :]
    b_ptrs = B + e * stride_be + offs_n[None, :] * stride_bn + offs_k[:, None]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs, mask=tmask[:, None], other=0.0)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    tl.store(C + tok[:, None] * stride_cm + offs_n[None, :], acc.to(tl.float16), mask=tmask[:, None])


@triton.jit
def t5_int8_matmul(a_ptr, b_ptr, c_ptr, a_scale, b_scale, M, N, K, stride_am, stride_bk, stride_cm,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs, mask=offs_m[:, None] < M, other=0)
        b = tl.load(b_ptrs, mask=offs_n[None, :] < N, other=0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    sa = tl.load(a_scale + offs_m, mask=offs_m < M, other=0.0)
    sb = tl.load(b_scale + offs_n, mask=offs_n < N, other=0.0)
    c = acc.to(tl.float32) * sa[:, None] * sb[None, :]
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], c.to(tl.float16),
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
        "id": lid, "order": len(launches), "module": "blind5_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind5/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(5555)
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

    def matmul(lid, kern, stages):
        M, N, K = 1000, 1000, 1024
        a = torch.randn((M, K), device=dev, dtype=torch.float16)
        b = torch.randn((K, N), device=dev, dtype=torch.float16)
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        ce = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}
        grid = (triton.cdiv(M, 128) * triton.cdiv(N, 128),)
        args = (a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        h = kern[grid](*args, num_warps=8, num_stages=stages, **ce)
        torch.cuda.synchronize()
        err = rel(c, a.float() @ b.float())
        save(out, launches, lid, h, lid, ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"),
             args, ce, grid,
             "fp16 matmul 1,000 x 1,000 x 1,024 (M, N edges masked), 128 x 128 x 64 tiles, grouped order 8, num_warps=8, num_stages=%d; rel. error %.2e" % (stages, err))

    def flash():
        BH, N, D = 16, 1000, 64
        q = torch.randn((BH, N, D), device=dev, dtype=torch.float16)
        k = torch.randn_like(q)
        v = torch.randn_like(q)
        o = torch.empty_like(q)
        ce = {"HEAD": D, "BLOCK_M": 64, "BLOCK_N": 64}
        grid = (triton.cdiv(N, 64), BH)
        args = (q, k, v, o, q.stride(0), q.stride(1), N, 0.125)
        h = t5_flash_attn_causal[grid](*args, num_warps=4, num_stages=3, **ce)
        torch.cuda.synchronize()
        s = (q.float() @ k.float().transpose(1, 2)) * 0.125
        s = s.masked_fill(torch.triu(torch.ones(N, N, device=dev, dtype=torch.bool), 1), float("-inf"))
        err = rel(o, torch.softmax(s, -1) @ v.float())
        save(out, launches, "t5_flash_attn_causal", h, "t5_flash_attn_causal",
             ("Q", "K", "V", "O", "stride_h", "stride_n", "N_CTX", "sm_scale"), args, ce, grid,
             "fp16 causal flash attention forward, 16 (batch x head) of 1,000 tokens x 64, 64 x 64 tiles (last tile masked), num_warps=4, num_stages=3; rel. error %.2e" % err)

    def lnb():
        R, N, RP = 4000, 1000, 16
        x = torch.randn((R, N), device=dev, dtype=torch.float16)
        dy = torch.randn_like(x)
        w = torch.randn((N,), device=dev, dtype=torch.float16)
        xf = x.float()
        mean = xf.mean(1)
        rstd = torch.rsqrt(xf.var(1, unbiased=False) + 1e-5)
        dx = torch.empty_like(x)
        P = triton.cdiv(R, RP)
        dwp = torch.empty((P, N), device=dev, dtype=torch.float32)
        dbp = torch.empty_like(dwp)
        ce = {"ROWS_PER_PROG": RP, "BLOCK_N": 1024}
        args = (dy, x, w, mean, rstd, dx, dwp, dbp, x.stride(0), R, N)
        h = t5_ln_bwd[(P,)](*args, num_warps=4, **ce)
        torch.cuda.synchronize()
        xh = (xf - mean[:, None]) * rstd[:, None]
        wdy = w.float() * dy.float()
        ref = (wdy - (xh * (xh * wdy).mean(1, keepdim=True) + wdy.mean(1, keepdim=True))) * rstd[:, None]
        err = max(rel(dx, ref), rel(dwp.sum(0), (dy.float() * xh).sum(0)))
        save(out, launches, "t5_ln_bwd", h, "t5_ln_bwd",
             ("DY", "X", "W", "Mean", "Rstd", "DX", "DW_part", "DB_part", "stride", "n_rows", "N"), args, ce, (P,),
             "fp16 layer norm backward, 4,000 rows of 1,000 (BLOCK 1,024, masked), 16 rows per program, dx and per-program partial dgamma/dbeta, num_warps=4; rel. error %.2e" % err)

    def softmax():
        R, N = 3000, 1000
        x = torch.randn((R, N), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        args = (x, y, x.stride(0), y.stride(0), N)
        h = t5_softmax_tail[(R,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        err = rel(y, torch.softmax(x, 1))
        save(out, launches, "t5_softmax_tail", h, "t5_softmax_tail", ("X", "Y", "stride_x", "stride_y", "n_cols"), args,
             {"BLOCK": 1024}, (R,), "fp32 softmax, 3,000 rows of 1,000 (BLOCK 1,024, masked tail of 24), num_warps=4; rel. error %.2e" % err)

    def moe():
        T, TOPK, E, N, K, BM = 1024, 2, 8, 512, 256, 64
        a = torch.randn((T, K), device=dev, dtype=torch.float16)
        b = torch.randn((E, N, K), device=dev, dtype=torch.float16) * 0.1
        topk_ids = torch.stack([torch.randperm(E, device=dev)[:TOPK] for _ in range(T)])
        flat = topk_ids.flatten()
        ids, eids = [], []
        for e in range(E):
            sel = (flat == e).nonzero().flatten().tolist()
            pad = (-len(sel)) % BM
            sel = sel + [T * TOPK] * pad
            ids += sel
            eids += [e] * (len(sel) // BM)
        sorted_ids = torch.tensor(ids, device=dev, dtype=torch.int32)
        expert_ids = torch.tensor(eids, device=dev, dtype=torch.int32)
        c = torch.zeros((T * TOPK, N), device=dev, dtype=torch.float16)
        grid = (len(eids), N // 64)
        ce = {"TOPK": TOPK, "BLOCK_M": BM, "BLOCK_N": 64, "BLOCK_K": 64}
        args = (a, b, c, sorted_ids, expert_ids, T * TOPK, N, K, a.stride(0), b.stride(0), b.stride(1), c.stride(0))
        h = t5_moe_gather_mm[grid](*args, num_warps=4, num_stages=3, **ce)
        torch.cuda.synchronize()
        ref = torch.einsum("tk,tnk->tn", a.float().repeat_interleave(TOPK, 0), b.float()[flat])
        err = rel(c, ref)
        save(out, launches, "t5_moe_gather_mm", h, "t5_moe_gather_mm",
             ("A", "B", "C", "sorted_token_ids", "expert_ids", "num_valid", "N", "K", "stride_am", "stride_be", "stride_bn", "stride_cm"),
             args, ce, grid,
             "vLLM-style fused MoE: 1,024 tokens x top 2 of 8 experts (random), sorted token ids padded per expert to 64 (%d blocks), A rows gathered by id // 2, B[expert] K-major 512 x 256, num_warps=4, num_stages=3; rel. error %%.2e" % len(eids) % err)

    def int8mm():
        M, N, K = 1000, 1000, 512
        a = torch.randint(-127, 128, (M, K), device=dev, dtype=torch.int8)
        b = torch.randint(-127, 128, (K, N), device=dev, dtype=torch.int8)
        sa = torch.rand((M,), device=dev, dtype=torch.float32) * 1e-3
        sb = torch.rand((N,), device=dev, dtype=torch.float32) * 1e-3
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        ce = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}
        grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
        args = (a, b, c, sa, sb, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        h = t5_int8_matmul[grid](*args, num_warps=8, num_stages=3, **ce)
        torch.cuda.synchronize()
        ref = (a.double().cpu() @ b.double().cpu()) * sa.double().cpu()[:, None] * sb.double().cpu()[None, :]
        err = rel(c.cpu(), ref)
        save(out, launches, "t5_int8_matmul", h, "t5_int8_matmul",
             ("a_ptr", "b_ptr", "c_ptr", "a_scale", "b_scale", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"), args, ce, grid,
             "int8 matmul 1,000 x 1,000 x 512 (edges masked), int32 accumulation, per-row and per-column fp32 scales, fp16 out, 128 x 128 x 64, num_warps=8, num_stages=3; rel. error %.2e" % err)

    for lid, f in (("t5_matmul_s3", lambda: matmul("t5_matmul_s3", t5_matmul_s3, 3)),
                   ("t5_matmul_s4", lambda: matmul("t5_matmul_s4", t5_matmul_s4, 4)),
                   ("t5_flash_attn_causal", flash), ("t5_ln_bwd", lnb), ("t5_softmax_tail", softmax),
                   ("t5_moe_gather_mm", moe), ("t5_int8_matmul", int8mm)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-22s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
