#!/usr/bin/env python3
"""Triton kernels of the seventh held-out batch (tests/hw/blind7), copied from
tests/hw/blind6/blind6_triton.py (same save/describe code), written in the
style of Triton's official tutorials (our own code): a low-memory dropout with
tl.rand (philox); a layer norm backward whose per-group partial dW/dB sums are
guarded by a lock (tl.atomic_cas / tl.atomic_xchg); a matmul through
tl.make_block_ptr with boundary checks; a matmul through device-side tensor
descriptors (tl.make_tensor_descriptor, global scratch from
triton.set_allocator); a split-K matmul reducing with tl.atomic_add; a
cumulative sum with tl.associative_scan over rows longer than a block (a
carry); rows sorted with tl.sort; a per-program tl.histogram added into global
bins; a bf16 matmul at num_warps=4, num_stages=4; an online softmax over rows
longer than a block (two passes). Each runs once; the script is run under ncu
with `-k regex:^t7_` (tests/hw/blind7/measure_blind7.sh). Writes
OUT/ID.{ptx,cubin,json} and OUT/triton_launches.json (PTX paths named
tests/hw/blind7/triton/ID.ptx). A kernel that fails to compile or run is
reported and left out.

  python3 tests/hw/blind7/blind7_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def t7_dropout_philox(X, Y, n, p, seed, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0)
    r = tl.rand(seed, offs)
    y = tl.where(r > p, x / (1.0 - p), 0.0)
    tl.store(Y + offs, y, mask=mask)


@triton.jit
def t7_ln_bwd_dx_lock(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N,
                      GROUP: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(DY + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = tl.where(mask, (x - mean) * rstd, 0.0)
    wdy = tl.where(mask, w * dy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + row * stride + cols, dx.to(tl.float16), mask=mask)
    pdw = dy * xhat
    pdb = dy
    g = row % GROUP
    lock = Lock + g
    count = Lock + GROUP + g
    tries = 0
    while (tl.atomic_cas(lock, 0, 1) == 1) & (tries < 1000000):
        tries += 1
    if tl.load(count) == 0:
        tl.atomic_xchg(count, 1)
    else:
        pdw += tl.load(DW + g * N + cols, mask=mask, other=0.0)
        pdb += tl.load(DB + g * N + cols, mask=mask, other=0.0)
    tl.store(DW + g * N + cols, pdw, mask=mask)
    tl.store(DB + g * N + cols, pdb, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


@triton.jit
def t7_matmul_block_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_blk = tl.make_block_ptr(a_ptr, shape=(M, K), strides=(stride_am, 1), offsets=(pid_m * BLOCK_M, 0),
                              block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    b_blk = tl.make_block_ptr(b_ptr, shape=(K, N), strides=(stride_bk, 1), offsets=(0, pid_n * BLOCK_N),
                              block_shape=(BLOCK_K, BLOCK_N), order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_blk, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_blk, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        a_blk = tl.advance(a_blk, (0, BLOCK_K))
        b_blk = tl.advance(b_blk, (BLOCK_K, 0))
    c_blk = tl.make_block_ptr(c_ptr, shape=(M, N), strides=(stride_cm, 1), offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                              block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(c_blk, acc.to(tl.float16), boundary_check=(0, 1))


@triton.jit
def t7_matmul_tensor_desc(a_ptr, b_ptr, c_ptr, M, N, K,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([pid_n * BLOCK_N, k * BLOCK_K])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(tl.float16))


@triton.jit
def t7_splitk_atomic(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    num_n = tl.cdiv(N, BLOCK_N)
    offs_m = (pid // num_n) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = (pid % num_n) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        kk = k * BLOCK_K * SPLIT_K + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + kk[None, :],
                    mask=(offs_m[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * stride_bk + offs_n[None, :],
                    mask=(kk[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.atomic_add(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc,
                  mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def _add_i32(a, b):
    return a + b


@triton.jit
def t7_cumsum_carry(X, Y, n_rows, N, BLOCK_R: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    rmask = rows[:, None] < n_rows
    carry = tl.zeros((BLOCK_R,), dtype=tl.int32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = rmask & (cols[None, :] < N)
        x = tl.load(X + rows[:, None] * N + cols[None, :], mask=m, other=0)
        s = tl.associative_scan(x, 1, _add_i32) + carry[:, None]
        tl.store(Y + rows[:, None] * N + cols[None, :], s, mask=m)
        carry += tl.sum(x, axis=1)


@triton.jit
def t7_sort_rows(X, Y, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=float("inf"))
    y = tl.sort(x, 0)
    tl.store(Y + row * stride + cols, y, mask=mask)


@triton.jit
def t7_histogram_bins(X, Bins, n, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0)
    v = tl.where(mask, x % NBINS, NBINS)
    h = tl.histogram(v, 2 * NBINS)
    bins = tl.arange(0, 2 * NBINS)
    tl.atomic_add(Bins + bins, h, mask=bins < NBINS)


@triton.jit
def t7_bf16_matmul_w4s4(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    width = GROUP_M * num_n
    gid = pid // width
    first_m = gid * GROUP_M
    gsize = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % width) % gsize
    pid_n = (pid % width) // gsize
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        kk = k * BLOCK_K + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + kk[None, :], mask=(offs_m[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * stride_bk + offs_n[None, :], mask=(kk[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.bfloat16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def t7_softmax_online_2pass(X, Y, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = X + row.to(tl.int64) * stride
    m = tl.full((BLOCK,), float("-inf"), tl.float32)
    d = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < N, other=float("-inf"))
        m_new = tl.maximum(m, x)
        d = d * tl.exp(m - m_new) + tl.where(x == float("-inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    mx = tl.max(m, 0)
    tot = tl.sum(d * tl.exp(m - mx), 0)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < N, other=float("-inf"))
        tl.store(Y + row.to(tl.int64) * stride + cols, tl.exp(x - mx) / tot, mask=cols < N)


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
        "id": lid, "order": len(launches), "module": "blind7_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind7/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(7777)
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

    def dropout():
        n, p = 1000003, 0.3
        x = torch.randn((n,), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        args = (x, y, n, p, 1234)
        h = t7_dropout_philox[(triton.cdiv(n, 1024),)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        kept = (y != 0).float().mean().item()
        err = rel(y[y != 0], x[y != 0] / (1 - p))
        save(out, launches, "t7_dropout_philox", h, "t7_dropout_philox", ("X", "Y", "n", "p", "seed"), args,
             {"BLOCK": 1024}, (triton.cdiv(n, 1024),),
             "low-memory dropout (philox tl.rand by element offset), fp32, n = 1,000,003, BLOCK 1,024 (the last masked), p 0.3, num_warps=4; kept %.4f, rel. error of the kept %.2e" % (kept, err))

    def ln_bwd():
        M, N, G = 4000, 1000, 64
        x = torch.randn((M, N), device=dev, dtype=torch.float16)
        w = torch.randn((N,), device=dev, dtype=torch.float16)
        dy = torch.randn((M, N), device=dev, dtype=torch.float16)
        xf = x.float()
        mean = xf.mean(1).contiguous()
        rstd = (1.0 / torch.sqrt(xf.var(1, unbiased=False) + 1e-5)).contiguous()
        dx = torch.empty_like(x)
        dw = torch.zeros((G, N), device=dev, dtype=torch.float32)
        db = torch.zeros((G, N), device=dev, dtype=torch.float32)
        lock = torch.zeros((2 * G,), device=dev, dtype=torch.int32)
        args = (dx, dy, dw, db, x, w, mean, rstd, lock, x.stride(0), N)
        h = t7_ln_bwd_dx_lock[(M,)](*args, GROUP=G, BLOCK_N=1024, num_warps=8)
        torch.cuda.synchronize()
        xhat = (xf - mean[:, None]) * rstd[:, None]
        wdy = w.float() * dy.float()
        c1 = (xhat * wdy).mean(1, keepdim=True)
        c2 = wdy.mean(1, keepdim=True)
        err = max(rel(dx, (wdy - (xhat * c1 + c2)) * rstd[:, None]), rel(dw.sum(0), (dy.float() * xhat).sum(0)),
                  rel(db.sum(0), dy.float().sum(0)))
        save(out, launches, "t7_ln_bwd_dx_lock", h, "t7_ln_bwd_dx_lock",
             ("DX", "DY", "DW", "DB", "X", "W", "Mean", "Rstd", "Lock", "stride", "N"), args, {"GROUP": G, "BLOCK_N": 1024}, (M,),
             "layer norm backward (the tutorial's fused dx with lock-guarded partial dW/dB): 4,000 fp16 rows of 1,000, 64 groups of fp32 partial sums, spin lock by tl.atomic_cas (bounded), first-writer flag by tl.atomic_xchg, num_warps=8; rel. error %.2e" % err)

    def block_ptr():
        M, N, K = 1000, 1000, 1000
        a = torch.randn((M, K), device=dev, dtype=torch.float16)
        b = torch.randn((K, N), device=dev, dtype=torch.float16)
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        ce = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}
        grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
        args = (a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        h = t7_matmul_block_ptr[grid](*args, num_warps=8, num_stages=3, **ce)
        torch.cuda.synchronize()
        err = rel(c, a.float() @ b.float())
        save(out, launches, "t7_matmul_block_ptr", h, "t7_matmul_block_ptr",
             ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"), args, ce, grid,
             "fp16 matmul 1,000 x 1,000 x 1,000 through tl.make_block_ptr / tl.advance with boundary_check (zero padding: the K tail of 40 and the edge tiles), 128 x 128 x 64, num_warps=8, num_stages=3; rel. error %.2e" % err)

    def tensor_desc():
        M, N, K = 1000, 1000, 1024
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device=dev))
        a = torch.randn((M, K), device=dev, dtype=torch.float16)
        b = torch.randn((N, K), device=dev, dtype=torch.float16)
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        ce = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}
        grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
        args = (a, b, c, M, N, K)
        h = t7_matmul_tensor_desc[grid](*args, num_warps=8, num_stages=3, **ce)
        torch.cuda.synchronize()
        err = rel(c, a.float() @ b.float().t())
        save(out, launches, "t7_matmul_tensor_desc", h, "t7_matmul_tensor_desc",
             ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K"), args, ce, grid,
             "fp16 matmul 1,000 x 1,000 x 1,024 (B as [N, K]) through device-side tensor descriptors (tl.make_tensor_descriptor: TMA loads and a TMA store, out-of-bounds rows by the descriptor; the descriptors built in global scratch from triton.set_allocator), 128 x 128 x 64, num_warps=8, num_stages=3; rel. error %.2e" % err)

    def splitk():
        M, N, K = 777, 512, 4096
        a = torch.randn((M, K), device=dev, dtype=torch.float16)
        b = torch.randn((K, N), device=dev, dtype=torch.float16)
        c = torch.zeros((M, N), device=dev, dtype=torch.float32)
        ce = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64, "SPLIT_K": 4}
        grid = (triton.cdiv(M, 64) * triton.cdiv(N, 64), 4)
        args = (a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        h = t7_splitk_atomic[grid](*args, num_warps=4, num_stages=3, **ce)
        torch.cuda.synchronize()
        err = rel(c, a.float() @ b.float())
        save(out, launches, "t7_splitk_atomic", h, "t7_splitk_atomic",
             ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"), args, ce, grid,
             "split-K fp16 matmul 777 x 512 x 4,096, SPLIT_K 4 (interleaved K blocks), fp32 partial tiles added with tl.atomic_add (masked edge rows), 64 x 64 x 64, num_warps=4, num_stages=3; rel. error %.2e" % err)

    def cumsum():
        R, N = 1000, 3000
        x = torch.randint(-50, 50, (R, N), device=dev, dtype=torch.int32)
        y = torch.empty_like(x)
        ce = {"BLOCK_R": 4, "BLOCK": 1024}
        grid = (triton.cdiv(R, 4),)
        args = (x, y, R, N)
        h = t7_cumsum_carry[grid](*args, num_warps=4, **ce)
        torch.cuda.synchronize()
        err = rel(y, torch.cumsum(x.long(), 1))
        save(out, launches, "t7_cumsum_carry", h, "t7_cumsum_carry", ("X", "Y", "n_rows", "N"), args, ce, grid,
             "int32 cumulative sum along rows of 3,000 (1,000 rows, 4 a program) by tl.associative_scan over blocks of 1,024 with a carried row sum (the last block masked), num_warps=4; rel. error %.2e" % err)

    def sort_rows():
        R, N = 2048, 1000
        x = torch.randn((R, N), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        args = (x, y, N, x.stride(0))
        h = t7_sort_rows[(R,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        err = rel(y, torch.sort(x, 1).values)
        save(out, launches, "t7_sort_rows", h, "t7_sort_rows", ("X", "Y", "N", "stride"), args, {"BLOCK": 1024}, (R,),
             "tl.sort of fp32 rows of 1,000 (BLOCK 1,024, padded with +inf), 2,048 rows, num_warps=4; rel. error %.2e" % err)

    def histogram():
        n, nb = 2000003, 128
        x = torch.randint(0, 1 << 30, (n,), device=dev, dtype=torch.int32)
        bins = torch.zeros((nb,), device=dev, dtype=torch.int32)
        grid = (triton.cdiv(n, 2048),)
        args = (x, bins, n)
        h = t7_histogram_bins[grid](*args, NBINS=nb, BLOCK=2048, num_warps=4)
        torch.cuda.synchronize()
        err = rel(bins, torch.bincount((x % nb).long(), minlength=nb))
        save(out, launches, "t7_histogram_bins", h, "t7_histogram_bins", ("X", "Bins", "n"), args, {"NBINS": nb, "BLOCK": 2048}, grid,
             "tl.histogram of int32 values mod 128 (256 bins, masked lanes in bin 128) over blocks of 2,048, n = 2,000,003, then tl.atomic_add of the 128 bins into global bins, num_warps=4; rel. error %.2e" % err)

    def bf16_w4s4():
        M, N, K = 1000, 768, 1000
        a = torch.randn((M, K), device=dev, dtype=torch.bfloat16)
        b = torch.randn((K, N), device=dev, dtype=torch.bfloat16)
        c = torch.empty((M, N), device=dev, dtype=torch.bfloat16)
        ce = {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}
        grid = (triton.cdiv(M, 64) * triton.cdiv(N, 128),)
        args = (a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        h = t7_bf16_matmul_w4s4[grid](*args, num_warps=4, num_stages=4, **ce)
        torch.cuda.synchronize()
        err = rel(c, a.float() @ b.float())
        save(out, launches, "t7_bf16_matmul_w4s4", h, "t7_bf16_matmul_w4s4",
             ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"), args, ce, grid,
             "bf16 matmul 1,000 x 768 x 1,000, grouped program order (GROUP_M 8), 64 x 128 x 64, K tail masked, num_warps=4, num_stages=4; rel. error %.2e" % err)

    def softmax2():
        R, N = 1024, 5000
        x = torch.randn((R, N), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        args = (x, y, x.stride(0), N)
        h = t7_softmax_online_2pass[(R,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        err = rel(y, torch.softmax(x, 1))
        save(out, launches, "t7_softmax_online_2pass", h, "t7_softmax_online_2pass", ("X", "Y", "stride", "N"), args,
             {"BLOCK": 1024}, (R,),
             "online softmax over fp32 rows of 5,000 (1,024 rows) in blocks of 1,024: pass 1 running max and rescaled sum per lane, pass 2 normalised stores (the last block masked), num_warps=4; rel. error %.2e" % err)

    for lid, f in (("t7_dropout_philox", dropout), ("t7_ln_bwd_dx_lock", ln_bwd), ("t7_matmul_block_ptr", block_ptr),
                   ("t7_matmul_tensor_desc", tensor_desc), ("t7_splitk_atomic", splitk), ("t7_cumsum_carry", cumsum),
                   ("t7_sort_rows", sort_rows), ("t7_histogram_bins", histogram), ("t7_bf16_matmul_w4s4", bf16_w4s4),
                   ("t7_softmax_online_2pass", softmax2)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-26s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
