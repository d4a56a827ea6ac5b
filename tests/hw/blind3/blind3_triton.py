#!/usr/bin/env python3
"""Triton kernels of the third held-out batch (tests/hw/blind3), copied from
tests/hw/blind2/blind2_triton.py (same save/describe code): shapes none of
triton_kernels.py, blind_triton.py, blind2_triton.py has (causal fused
attention on Hopper with num_stages=3, the tutorial's layer-norm backward
with its lock-protected partial dW/dB and the final column reduction, the
persistent softmax of the tutorial (tl.range with num_stages), a persistent
matmul over a tile loop, an int8 matmul with int32 accumulation, a batched
2-D tiled transpose with tl.trans over non-square, doubly masked tiles).
Each runs once; the script is run under ncu with `-k regex:^td_`
(tests/hw/blind3/measure_blind3.sh). Writes OUT/ID.{ptx,cubin,json} and
OUT/triton_launches.json (PTX paths named tests/hw/blind3/triton/ID.ptx).
A kernel that fails to compile or run is reported and left out.

  python3 tests/hw/blind3/blind3_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def td_attn_causal(Q, K, V, Out, stride_h, stride_m, sm_scale, N_CTX,
                   HEAD: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_h = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD)
    base = off_h.to(tl.int64) * stride_h
    q = tl.load(Q + base + offs_m[:, None] * stride_m + offs_d[None, :])
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = (start_m + 1) * BLOCK_M
    for start_n in range(0, hi, BLOCK_N):
        k = tl.load(K + base + (start_n + offs_n)[None, :] * stride_m + offs_d[:, None])
        qk = tl.dot(q, k)
        causal = offs_m[:, None] >= (start_n + offs_n[None, :])
        qk = tl.where(causal, qk * qk_scale, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(V + base + (start_n + offs_n)[:, None] * stride_m + offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + base + offs_m[:, None] * stride_m + offs_d[None, :], acc.to(tl.float16))


@triton.jit
def td_ln_bwd_dx(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
                 GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    # the Triton tutorial's _layer_norm_bwd_dx_fused: dx per row, dW/dB partial
    # sums accumulated per row group under a spin lock
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.atomic_xchg(Lock, 0)


@triton.jit
def td_ln_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


@triton.jit
def td_softmax_persistent(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols,
                          BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = in_ptr + row_idx * in_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        row = tl.load(row_start_ptr + col_offsets, mask=mask, other=-float("inf"))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        tl.store(out_ptr + row_idx * out_stride + col_offsets, softmax_output, mask=mask)


@triton.jit
def td_matmul_persistent(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                         GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
    start_pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_pid_m * num_pid_n
    num_pid_in_group = GROUP_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS):
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + (tile_id % group_size_m)
        pid_n = (tile_id % num_pid_in_group) // group_size_m
        offs_am = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_bn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_k = tl.arange(0, BLOCK_K)
        a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :]
        b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :]
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - ki * BLOCK_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - ki * BLOCK_K, other=0.0)
            acc = tl.dot(a, b, acc)
            a_ptrs += BLOCK_K
            b_ptrs += BLOCK_K * stride_bk
        offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        tl.store(c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :], acc.to(tl.float16), mask=c_mask)


@triton.jit
def td_matmul_i8(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
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
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc)


@triton.jit
def td_transpose_batched(X, Y, M, N, sxb, sxm, syb, syn, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    b = tl.program_id(2)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    x = tl.load(X + b * sxb + offs_m[:, None] * sxm + offs_n[None, :],
                mask=(offs_m[:, None] < M) & (offs_n[None, :] < N), other=0.0)
    tl.store(Y + b * syb + offs_n[:, None] * syn + offs_m[None, :], tl.trans(x),
             mask=(offs_n[:, None] < N) & (offs_m[None, :] < M))


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
        "id": lid, "order": len(launches), "module": "blind3_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind3/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(4343)
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

    def attn():
        H, N, D = 16, 1024, 64
        q = torch.randn((H, N, D), device=dev, dtype=torch.float16)
        k = torch.randn_like(q)
        v = torch.randn_like(q)
        o = torch.empty_like(q)
        grid = (N // 128, H)
        args = (q, k, v, o, q.stride(0), q.stride(1), 0.125, N)
        ce = {"HEAD": D, "BLOCK_M": 128, "BLOCK_N": 64}
        h = td_attn_causal[grid](*args, num_warps=8, num_stages=3, **ce)
        torch.cuda.synchronize()
        ref = torch.nn.functional.scaled_dot_product_attention(q.float()[None], k.float()[None], v.float()[None], is_causal=True, scale=0.125)[0]
        err = rel(o, ref)
        save(out, launches, "td_attn_causal", h, "td_attn_causal",
             ("Q", "K", "V", "Out", "stride_h", "stride_m", "sm_scale", "N_CTX"), args, ce, grid,
             "fp16 16 heads x 1,024 x 64, causal, BLOCK_M=128, BLOCK_N=64, num_warps=8, num_stages=3; rel. error %.2e" % err)

    ln = {}

    def ln_dx():
        M, N, G = 4096, 1000, 64
        x = torch.randn((M, N), device=dev, dtype=torch.float16)
        w = torch.randn((N,), device=dev, dtype=torch.float16)
        b = torch.randn((N,), device=dev, dtype=torch.float16)
        dy = torch.randn((M, N), device=dev, dtype=torch.float16)
        xf = x.float()
        mean = xf.mean(1)
        rstd = 1 / torch.sqrt(xf.var(1, unbiased=False) + 1e-5)
        dx = torch.empty_like(x)
        dw_part = torch.zeros((G, N), device=dev, dtype=torch.float16)
        db_part = torch.zeros((G, N), device=dev, dtype=torch.float16)
        locks = torch.zeros(2 * G, device=dev, dtype=torch.int32)
        args = (dx, dy, dw_part, db_part, x, w, mean, rstd, locks, x.stride(0), N)
        ce = {"GROUP_SIZE_M": G, "BLOCK_SIZE_N": 1024}
        h = td_ln_bwd_dx[(M,)](*args, num_warps=8, **ce)
        torch.cuda.synchronize()
        xr = xf.clone().requires_grad_(True)
        wr = w.float().clone().requires_grad_(True)
        br = b.float().clone().requires_grad_(True)
        torch.nn.functional.layer_norm(xr, (N,), wr, br, 1e-5).backward(dy.float())
        err = rel(dx, xr.grad)
        ln.update(dw_part=dw_part, db_part=db_part, M=M, N=N, G=G, dw_ref=wr.grad, db_ref=br.grad)
        save(out, launches, "td_ln_bwd_dx", h, "td_ln_bwd_dx",
             ("DX", "DY", "DW", "DB", "X", "W", "Mean", "Rstd", "Lock", "stride", "N"), args, ce, (M,),
             "fp16 4,096 x 1,000 (BLOCK 1,024: masked tail), partial dW/dB in 64 row groups under spin locks, num_warps=8; dx rel. error %.2e" % err)

    def ln_dwdb():
        N, G = ln["N"], ln["G"]
        fdw = torch.empty((N,), device=dev, dtype=torch.float32)
        fdb = torch.empty((N,), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(N, 128),)
        args = (ln["dw_part"], ln["db_part"], fdw, fdb, G, N)
        ce = {"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 128}
        h = td_ln_bwd_dwdb[grid](*args, num_warps=4, **ce)
        torch.cuda.synchronize()
        err = max(rel(fdw, ln["dw_ref"]), rel(fdb, ln["db_ref"]))
        save(out, launches, "td_ln_bwd_dwdb", h, "td_ln_bwd_dwdb",
             ("DW", "DB", "FINAL_DW", "FINAL_DB", "M", "N"), args, ce, grid,
             "fp16 partials 64 x 1,000 -> fp32 1,000, 32 x 128 tiles (last column tile masked), num_warps=4; rel. error %.2e" % err)

    def softmax():
        R, C = 4096, 781
        x = torch.randn((R, C), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        grid = (264,)
        args = (y, x, x.stride(0), y.stride(0), R, C)
        ce = {"BLOCK_SIZE": 1024, "num_stages": 4}
        h = td_softmax_persistent[grid](*args, num_warps=4, **ce)
        torch.cuda.synchronize()
        err = rel(y, torch.softmax(x, 1))
        save(out, launches, "td_softmax_persistent", h, "td_softmax_persistent",
             ("out_ptr", "in_ptr", "in_stride", "out_stride", "n_rows", "n_cols"), args, ce, grid,
             "fp32 4,096 rows of 781 (3,124-byte rows), BLOCK 1,024, 264 persistent programs, tl.range num_stages=4, num_warps=4; rel. error %.2e" % err)

    def mm_persistent():
        M, N, K = 2048, 2048, 512
        a = torch.randn((M, K), device=dev, dtype=torch.float16)
        b = torch.randn((K, N), device=dev, dtype=torch.float16)
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        NUM_SMS = 132
        grid = (NUM_SMS,)
        args = (a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        ce = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "NUM_SMS": NUM_SMS}
        h = td_matmul_persistent[grid](*args, num_warps=8, num_stages=3, **ce)
        torch.cuda.synchronize()
        err = rel(c, a.float() @ b.float())
        save(out, launches, "td_matmul_persistent", h, "td_matmul_persistent",
             ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"), args, ce, grid,
             "fp16 2,048 x 2,048 x 512, 256 tiles of 128 x 128 over 132 persistent programs, BLOCK_K 64, num_warps=8, num_stages=3; rel. error %.2e" % err)

    def mm_i8():
        M, N, K = 512, 512, 1024
        a = torch.randint(-128, 128, (M, K), device=dev, dtype=torch.int8)
        b = torch.randint(-128, 128, (K, N), device=dev, dtype=torch.int8)
        c = torch.empty((M, N), device=dev, dtype=torch.int32)
        grid = (M // 64, N // 64)
        args = (a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        ce = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64}
        h = td_matmul_i8[grid](*args, num_warps=4, num_stages=3, **ce)
        torch.cuda.synchronize()
        ok = bool((c.long() == (a.long().cpu() @ b.long().cpu()).to(dev)).all().item())
        save(out, launches, "td_matmul_i8", h, "td_matmul_i8",
             ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"), args, ce, grid,
             "int8 512 x 512 x 1,024, int32 accumulation, 64 x 64 x 64 tiles, num_warps=4, num_stages=3; exact: %s" % ok)

    def tr():
        Bt, M, N = 4, 1000, 700
        x = torch.randn((Bt, M, N), device=dev, dtype=torch.float16)
        y = torch.empty((Bt, N, M), device=dev, dtype=torch.float16)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 128), Bt)
        args = (x, y, M, N, x.stride(0), x.stride(1), y.stride(0), y.stride(1))
        h = td_transpose_batched[grid](*args, BM=32, BN=128, num_warps=4)
        torch.cuda.synchronize()
        err = rel(y, x.transpose(1, 2))
        save(out, launches, "td_transpose_batched", h, "td_transpose_batched",
             ("X", "Y", "M", "N", "sxb", "sxm", "syb", "syn"), args, {"BM": 32, "BN": 128}, grid,
             "fp16 4 x 1,000 x 700 -> 4 x 700 x 1,000, 32 x 128 tiles (both edges masked), tl.trans, num_warps=4; rel. error %.2e" % err)

    for lid, f in (("td_attn_causal", attn), ("td_ln_bwd_dx", ln_dx), ("td_ln_bwd_dwdb", ln_dwdb),
                   ("td_softmax_persistent", softmax), ("td_matmul_persistent", mm_persistent),
                   ("td_matmul_i8", mm_i8), ("td_transpose_batched", tr)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-22s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
