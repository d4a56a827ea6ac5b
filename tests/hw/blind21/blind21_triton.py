#!/usr/bin/env python3
"""Triton kernels of the twenty-first held-out batch (tests/hw/blind21), the launch
and save code copied from tests/hw/blind20/blind20_triton.py; kernels in styles
the earlier Triton batches do not have (our own code, nothing copied): a Mamba-1
selective scan (softplus dt, exp(dt A) state decay, D skip and z gate, a time
loop over strided rows), a split-K matmul with a bias from the first split and
fp32 tl.atomic_add over a ragged M, a block-sparse matmul driven by a
per-row-block lookup table of compacted blocks, a uint8 histogram by
tl.histogram with a mask and tl.atomic_add, an RMSNorm backward whose dW
partial sums are accumulated under per-group locks (atomic_cas / atomic_xchg),
tl.rand dropout on a strided 2-D view, a label-smoothed cross entropy over a
50,257 vocabulary in chunks with ignore_index, PyG-style segment matmul by
loaded offsets, row medians through tl.sort of ragged rows, and Gumbel-max
sampling with tl.rand. Each runs once; the script is run under ncu with
`-k regex:^t21_` (tests/hw/blind21/measure_blind21.sh). Writes
OUT/ID.{ptx,cubin,json} and OUT/triton_launches.json (PTX paths named
tests/hw/blind21/triton/ID.ptx). A kernel that fails to compile or run is
reported and left out.

  python3 tests/hw/blind21/blind21_triton.py OUT
"""
import json
import math
import os
import sys
import traceback

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def t21_selective_scan_fwd(U, Dt, A, Bm, Cm, Dsk, Z, Out, D, L, N: tl.constexpr, BD: tl.constexpr):
    # Mamba-1 selective scan: a program BD channels of one batch row, state [BD, N], a loop
    # over time; u, dt, z at [b, d, t] (a stride-L column), B and C at [b, n, t]
    b = tl.program_id(1)
    d = tl.program_id(0) * BD + tl.arange(0, BD)
    n = tl.arange(0, N)
    dm = d < D
    a = tl.load(A + d[:, None] * N + n[None, :], mask=dm[:, None], other=0.0)
    dsk = tl.load(Dsk + d, mask=dm, other=0.0)
    h = tl.zeros((BD, N), tl.float32)
    base = b * D * L + d * L
    for t in range(L):
        u = tl.load(U + base + t, mask=dm, other=0.0)
        dt = tl.load(Dt + base + t, mask=dm, other=0.0)
        dt = tl.where(dt > 20.0, dt, tl.log(1.0 + tl.exp(dt)))
        bt = tl.load(Bm + b * N * L + n * L + t)
        ct = tl.load(Cm + b * N * L + n * L + t)
        h = tl.exp(dt[:, None] * a) * h + (dt * u)[:, None] * bt[None, :]
        y = tl.sum(h * ct[None, :], axis=1) + dsk * u
        z = tl.load(Z + base + t, mask=dm, other=0.0)
        y = y * z * tl.sigmoid(z)
        tl.store(Out + base + t, y, mask=dm)


@triton.jit
def t21_splitk_matmul_atomic_bias(A, B, Bias, C, M, N, K, KSPLIT, BM: tl.constexpr, BN: tl.constexpr,
                                  BK: tl.constexpr):
    # split-K: program (tile, split) multiplies its K slice, the first split adds the bias,
    # the fp32 partial tile is added into C by tl.atomic_add (M ragged)
    pid = tl.program_id(0)
    pk = tl.program_id(1)
    nbn = tl.cdiv(N, BN)
    pm = pid // nbn
    pn = pid % nbn
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    k0 = pk * KSPLIT
    for k in range(k0, k0 + KSPLIT, BK):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :], mask=rm[:, None] < M, other=0.0)
        b = tl.load(B + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    if pk == 0:
        acc += tl.load(Bias + rn)[None, :]
    tl.atomic_add(C + rm[:, None] * N + rn[None, :], acc, mask=rm[:, None] < M)


@triton.jit
def t21_blocksparse_mm_lut(Ablk, B, C, RowPtr, Lut, N, BS: tl.constexpr, BN: tl.constexpr):
    # block-sparse A (32 x 32 blocks stored compacted [nnzb, 32, 32]) times dense B: a program a
    # (row block, column tile), its non-zero blocks from a loaded (row pointer, lookup table)
    rb = tl.program_id(0)
    cn = tl.program_id(1) * BN + tl.arange(0, BN)
    r = tl.arange(0, BS)
    lo = tl.load(RowPtr + rb)
    hi = tl.load(RowPtr + rb + 1)
    acc = tl.zeros((BS, BN), tl.float32)
    for e in range(lo, hi):
        kb = tl.load(Lut + e)
        a = tl.load(Ablk + e * BS * BS + r[:, None] * BS + r[None, :])
        b = tl.load(B + (kb * BS + r)[:, None] * N + cn[None, :])
        acc += tl.dot(a, b)
    tl.store(C + (rb * BS + r)[:, None] * N + cn[None, :], acc.to(tl.float16))


@triton.jit
def t21_hist_u8_tlhist(X, Hist, n, BLOCK: tl.constexpr, NB: tl.constexpr):
    # histogram of uint8 values: a block of BLOCK bytes by tl.histogram (masked tail), 256
    # counters added into the global histogram
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(X + offs, mask=m, other=0).to(tl.int32)
    h = tl.histogram(x, NB, mask=m)
    tl.atomic_add(Hist + tl.arange(0, NB), h)


@triton.jit
def t21_rmsnorm_bwd_lock_dw(DY, X, W, Rstd, DX, DWp, Lock, N, GROUPS: tl.constexpr, BLOCK: tl.constexpr):
    # RMSNorm backward: dx per row; dw = dy * x * rstd added into one of GROUPS partial rows
    # under a spin lock (atomic_cas), the first writer stores instead of adding (a count word)
    row = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < N
    dy = tl.load(DY + row * N + c, mask=m, other=0.0)
    x = tl.load(X + row * N + c, mask=m, other=0.0)
    w = tl.load(W + c, mask=m, other=0.0)
    rs = tl.load(Rstd + row)
    xh = x * rs
    wdy = w * dy
    dx = (wdy - xh * (tl.sum(xh * wdy, axis=0) / N)) * rs
    tl.store(DX + row * N + c, dx, mask=m)
    g = row % GROUPS
    lk = Lock + g
    cnt = Lock + GROUPS + g
    while tl.atomic_cas(lk, 0, 1) == 1:
        pass
    part = dy * xh
    first = tl.load(cnt)
    if first == 0:
        tl.atomic_xchg(cnt, 1)
    else:
        part += tl.load(DWp + g * N + c, mask=m, other=0.0)
    tl.store(DWp + g * N + c, part, mask=m)
    tl.debug_barrier()
    tl.atomic_xchg(lk, 0)


@triton.jit
def t21_dropout_rand_strided(X, Out, M, N, sx, seed, p, BM: tl.constexpr, BN: tl.constexpr):
    # dropout of a strided 2-D view (row stride sx): keep mask from tl.rand(seed, row * N + col),
    # kept values scaled by 1 / (1 - p), a contiguous output
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    m = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(X + rm[:, None] * sx + rn[None, :], mask=m, other=0.0)
    r = tl.rand(seed, rm[:, None] * N + rn[None, :])
    y = tl.where(r > p, x / (1.0 - p), 0.0)
    tl.store(Out + rm[:, None] * N + rn[None, :], y, mask=m)


@triton.jit
def t21_ce_label_smooth_chunks(Logits, Labels, Loss, V, stride, eps, ignore, BLOCK: tl.constexpr):
    # cross entropy with label smoothing over a large vocabulary: a program a row, chunks of
    # BLOCK (the last ragged) for an online max / sum-exp and the logits' sum, the target's
    # logit gathered at the loaded label; ignore_index rows give 0
    row = tl.program_id(0)
    lab = tl.load(Labels + row)
    mx = -float("inf")
    se = 0.0
    sl = 0.0
    for v0 in range(0, V, BLOCK):
        c = v0 + tl.arange(0, BLOCK)
        x = tl.load(Logits + row * stride + c, mask=c < V, other=-float("inf")).to(tl.float32)
        nm = tl.maximum(mx, tl.max(x, axis=0))
        se = se * tl.exp(mx - nm) + tl.sum(tl.exp(x - nm), axis=0)
        mx = nm
        sl += tl.sum(tl.where(c < V, x, 0.0), axis=0)
    lse = mx + tl.log(se)
    if lab == ignore:
        loss = 0.0
    else:
        xt = tl.load(Logits + row * stride + lab).to(tl.float32)
        loss = (1.0 - eps) * (lse - xt) + eps * (lse - sl / V)
    tl.store(Loss + row, loss)


@triton.jit
def t21_segment_matmul_offsets(X, W, Out, Ptr, K: tl.constexpr, N: tl.constexpr, BM: tl.constexpr,
                               BK: tl.constexpr):
    # PyG-style segment matmul: rows of X sorted by type, type t's rows Ptr[t] .. Ptr[t + 1]
    # times W[t] [K, N]; a program a (type, row tile), tiles past the segment return
    t = tl.program_id(0)
    start = tl.load(Ptr + t)
    end = tl.load(Ptr + t + 1)
    r0 = start + tl.program_id(1) * BM
    if r0 >= end:
        return
    rm = r0 + tl.arange(0, BM)
    rn = tl.arange(0, N)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, N), tl.float32)
    for k in range(0, K, BK):
        x = tl.load(X + rm[:, None] * K + (k + rk)[None, :], mask=rm[:, None] < end, other=0.0)
        w = tl.load(W + t * K * N + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(x, w)
    tl.store(Out + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=rm[:, None] < end)


@triton.jit
def t21_median_sort_rows(X, Lens, Med, stride, BLOCK: tl.constexpr):
    # median of ragged rows: the row's loaded length, padding +inf, tl.sort, the lower median
    # picked by a masked sum
    row = tl.program_id(0)
    n = tl.load(Lens + row)
    c = tl.arange(0, BLOCK)
    x = tl.load(X + row * stride + c, mask=c < n, other=float("inf"))
    s = tl.sort(x)
    mid = (n - 1) // 2
    tl.store(Med + row, tl.sum(tl.where(c == mid, s, 0.0), axis=0))


@triton.jit
def t21_gumbel_max_sample(Logits, Temp, Tok, V, seed, BLOCK: tl.constexpr):
    # Gumbel-max sampling: a program a row, chunks of BLOCK, logits / temperature plus
    # -log(-log(u)) from tl.rand, running max and argmax, the token stored
    row = tl.program_id(0)
    tmp = tl.load(Temp + row)
    best = -float("inf")
    arg = 0
    for v0 in range(0, V, BLOCK):
        c = v0 + tl.arange(0, BLOCK)
        x = tl.load(Logits + row * V + c, mask=c < V, other=-float("inf"))
        u = tl.rand(seed, row * V + c)
        u = tl.minimum(tl.maximum(u, 1e-10), 1.0 - 1e-7)
        s = x / tmp - tl.log(-tl.log(u))
        s = tl.where(c < V, s, -float("inf"))
        cm = tl.max(s, axis=0)
        ca = tl.argmax(s, axis=0) + v0
        upd = cm > best
        arg = tl.where(upd, ca, arg)
        best = tl.where(upd, cm, best)
    tl.store(Tok + row, arg)


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
        "id": lid, "order": len(launches), "module": "blind21_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind21/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(21021)
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

    def scan():
        Bb, D, L, N, BD = 2, 1536, 256, 16, 64
        u = torch.randn((Bb, D, L), device=dev)
        dt = torch.randn((Bb, D, L), device=dev) * 0.5 - 1.0
        A = -torch.rand((D, N), device=dev) * 2 - 0.1
        Bm = torch.randn((Bb, N, L), device=dev)
        Cm = torch.randn((Bb, N, L), device=dev)
        Dsk = torch.randn((D,), device=dev)
        z = torch.randn((Bb, D, L), device=dev)
        o = torch.empty((Bb, D, L), device=dev)
        grid = (triton.cdiv(D, BD), Bb)
        args = (u, dt, A, Bm, Cm, Dsk, z, o, D, L)
        h = t21_selective_scan_fwd[grid](*args, N=N, BD=BD, num_warps=4)
        torch.cuda.synchronize()
        delta = F.softplus(dt)
        hs = torch.zeros((Bb, D, N), device=dev)
        ref = torch.empty_like(o)
        for t in range(L):
            hs = torch.exp(delta[:, :, t, None] * A) * hs + (delta[:, :, t] * u[:, :, t])[:, :, None] * Bm[:, None, :, t]
            y = (hs * Cm[:, None, :, t]).sum(-1) + Dsk * u[:, :, t]
            ref[:, :, t] = y * F.silu(z[:, :, t])
        save(out, launches, "t21_selective_scan_fwd", h, "t21_selective_scan_fwd", ("U", "Dt", "A", "Bm", "Cm", "Dsk", "Z", "Out", "D", "L"), args,
             {"N": N, "BD": BD}, grid,
             "Mamba-1 selective scan: u, dt, z fp32 [2, 1,536, 256], A [1,536, 16], B and C [2, 16, 256], a program 64 channels of a batch row (grid (24, 2)), state [64, 16], 256 time steps: u, dt, z a column of 64 at a 1,024-byte stride, B and C 16 values at a 1,024-byte stride, num_warps=4; rel. error %.2e" % rel(o, ref))

    def splitk():
        M, N, K, S = 1000, 1024, 4096, 4
        a = torch.randn((M, K), device=dev, dtype=torch.float16)
        b = torch.randn((K, N), device=dev, dtype=torch.float16)
        bias = torch.randn((N,), device=dev)
        c = torch.zeros((M, N), device=dev)
        grid = (triton.cdiv(M, 64) * triton.cdiv(N, 64), S)
        args = (a, b, bias, c, M, N, K, K // S)
        h = t21_splitk_matmul_atomic_bias[grid](*args, BM=64, BN=64, BK=64, num_warps=4, num_stages=3)
        torch.cuda.synchronize()
        ref = a.float() @ b.float() + bias
        save(out, launches, "t21_splitk_matmul_atomic_bias", h, "t21_splitk_matmul_atomic_bias", ("A", "B", "Bias", "C", "M", "N", "K", "KSPLIT"), args,
             {"BM": 64, "BN": 64, "BK": 64}, grid,
             "split-K matmul with fp32 atomics: fp16 A [1,000, 4,096] x B [4,096, 1,024], 4 splits of 1,024, [64, 64, 64] tiles (grid (256, 4), M ragged: the last row tile 40 of 64), the bias added by split 0, tl.atomic_add of the fp32 tile into a zeroed C, num_warps=4, num_stages=3; rel. error %.2e" % rel(c, ref))

    def blocksparse():
        M, K, N, BS, BN = 2048, 2048, 512, 32, 128
        nrb, nkb = M // BS, K // BS
        keep = torch.rand((nrb, nkb), device=dev) < 0.2
        rowptr = torch.zeros((nrb + 1,), device=dev, dtype=torch.int32)
        rowptr[1:] = torch.cumsum(keep.sum(1), 0).to(torch.int32)
        lut = keep.nonzero()[:, 1].to(torch.int32).contiguous()
        nnzb = lut.numel()
        ablk = torch.randn((nnzb, BS, BS), device=dev, dtype=torch.float16)
        b = torch.randn((K, N), device=dev, dtype=torch.float16)
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        grid = (nrb, N // BN)
        args = (ablk, b, c, rowptr, lut, N)
        h = t21_blocksparse_mm_lut[grid](*args, BS=BS, BN=BN, num_warps=4)
        torch.cuda.synchronize()
        dense = torch.zeros((M, K), device=dev)
        rows = keep.nonzero()
        for e in range(nnzb):
            i, j = int(rows[e, 0]), int(rows[e, 1])
            dense[i * BS:(i + 1) * BS, j * BS:(j + 1) * BS] = ablk[e].float()
        ref = dense @ b.float()
        save(out, launches, "t21_blocksparse_mm_lut", h, "t21_blocksparse_mm_lut", ("Ablk", "B", "C", "RowPtr", "Lut", "N"), args,
             {"BS": BS, "BN": BN}, grid,
             "block-sparse matmul from a lookup table: A [2,048, 2,048] fp16 in 32 x 32 blocks, 20 percent kept (%d blocks, compacted [nnzb, 32, 32]), a program a (row block, 128-column tile) walks its blocks between two loaded row pointers, the block's column from the loaded LUT picks B's 32 rows (B [2,048, 512] fp16, 1,024-byte rows), tl.dot, fp16 out, grid (64, 4), num_warps=4; rel. error %.2e" % (nnzb, rel(c, ref)))

    def hist():
        n = 10000007
        x = (torch.randn((n,), device=dev) * 40 + 128).clamp(0, 255).to(torch.uint8)
        hh = torch.zeros((256,), device=dev, dtype=torch.int32)
        grid = (triton.cdiv(n, 4096),)
        args = (x, hh, n)
        h = t21_hist_u8_tlhist[grid](*args, BLOCK=4096, NB=256, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.bincount(x.long(), minlength=256).to(torch.int32)
        bad = int((hh != ref).sum().item())
        save(out, launches, "t21_hist_u8_tlhist", h, "t21_hist_u8_tlhist", ("X", "Hist", "n"), args,
             {"BLOCK": 4096, "NB": 256}, grid,
             "uint8 histogram by tl.histogram: 10,000,007 bytes (a clamped normal around 128), a program 4,096 bytes (2,442 programs, the last 1,159 valid: masked load and histogram), 256 int32 counters added by tl.atomic_add, num_warps=4; %d of 256 bins differ" % bad)

    def rmsbwd():
        M, N, G = 4096, 1000, 32
        x = torch.randn((M, N), device=dev)
        w = torch.randn((N,), device=dev)
        dy = torch.randn((M, N), device=dev)
        rstd = torch.rsqrt(x.pow(2).mean(1) + 1e-6)
        dx = torch.empty_like(x)
        dwp = torch.zeros((G, N), device=dev)
        lock = torch.zeros((2 * G,), device=dev, dtype=torch.int32)
        args = (dy, x, w, rstd, dx, dwp, lock, N)
        h = t21_rmsnorm_bwd_lock_dw[(M,)](*args, GROUPS=G, BLOCK=1024, num_warps=8)
        torch.cuda.synchronize()
        xr = x.clone().requires_grad_(True)
        wr = w.clone().requires_grad_(True)
        y = xr * torch.rsqrt(xr.pow(2).mean(1, keepdim=True) + 1e-6) * wr
        y.backward(dy)
        save(out, launches, "t21_rmsnorm_bwd_lock_dw", h, "t21_rmsnorm_bwd_lock_dw", ("DY", "X", "W", "Rstd", "DX", "DWp", "Lock", "N"), args,
             {"GROUPS": G, "BLOCK": 1024}, (M,),
             "RMSNorm backward: fp32 [4,096, 1,000] (4,000-byte rows, BLOCK 1,024 masked), dx a row, dw partials accumulated into 32 group rows under an atomic_cas spin lock with a first-writer count word (atomic_xchg), a program a row, num_warps=8; dx rel. error %.2e, dw (sum of partials) rel. error %.2e" % (rel(dx, xr.grad), rel(dwp.sum(0), wr.grad)))

    def dropout():
        M, N, p = 3000, 1500, 0.1
        big = torch.randn((M, 2048), device=dev)
        x = big[:, 100:100 + N]
        o = torch.empty((M, N), device=dev)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 128))
        args = (x, o, M, N, x.stride(0), 1234, p)
        h = t21_dropout_rand_strided[grid](*args, BM=32, BN=128, num_warps=4)
        torch.cuda.synchronize()
        kept = o != 0
        err = ((o - x / (1 - p)).abs() * kept).max().item()
        save(out, launches, "t21_dropout_rand_strided", h, "t21_dropout_rand_strided", ("X", "Out", "M", "N", "sx", "seed", "p"), args,
             {"BM": 32, "BN": 128}, grid,
             "tl.rand dropout (p 0.1) of a strided view: x = big[:, 100:1,600] of fp32 [3,000, 2,048] (8,192-byte rows, the view 400 bytes in), [32, 128] tiles (grid (94, 12), ragged both ways), a contiguous [3,000, 1,500] output, num_warps=4; kept fraction %.4f, kept values max abs error %.2e" % (kept.float().mean().item(), err))

    def ce():
        R, V, eps = 2048, 50257, 0.1
        logits = (torch.randn((R, V), device=dev) * 2).to(torch.bfloat16)
        labels = torch.randint(0, V, (R,), device=dev)
        labels[torch.rand((R,), device=dev) < 0.1] = -100
        loss = torch.empty((R,), device=dev)
        args = (logits, labels, loss, V, logits.stride(0), eps, -100)
        h = t21_ce_label_smooth_chunks[(R,)](*args, BLOCK=4096, num_warps=8)
        torch.cuda.synchronize()
        ref = F.cross_entropy(logits.float(), labels, ignore_index=-100, label_smoothing=eps, reduction="none")
        save(out, launches, "t21_ce_label_smooth_chunks", h, "t21_ce_label_smooth_chunks", ("Logits", "Labels", "Loss", "V", "stride", "eps", "ignore"), args,
             {"BLOCK": 4096}, (R,),
             "cross entropy with label smoothing 0.1: bf16 logits [2,048, 50,257] (100,514-byte rows: rows 2-byte aligned only), a program a row, 13 chunks of 4,096 (the last 1,105 valid) for an online max / sum-exp and the logits' sum, the target logit gathered at the loaded int64 label, 10 percent ignore_index -100 (loss 0, no gather), num_warps=8; rel. error %.2e" % rel(loss, ref))

    def segmm():
        T, K, N, BM = 8, 128, 128, 64
        sizes = torch.randint(100, 3000, (T,))
        ptr = torch.zeros((T + 1,), dtype=torch.int32)
        ptr[1:] = torch.cumsum(sizes, 0).to(torch.int32)
        tot = int(ptr[-1])
        ptr = ptr.to(dev)
        x = torch.randn((tot, K), device=dev, dtype=torch.float16)
        w = (torch.randn((T, K, N), device=dev) * 0.1).to(torch.float16)
        o = torch.zeros((tot, N), device=dev, dtype=torch.float16)
        grid = (T, triton.cdiv(int(sizes.max()), BM))
        args = (x, w, o, ptr)
        h = t21_segment_matmul_offsets[grid](*args, K=K, N=N, BM=BM, BK=32, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.empty((tot, N), device=dev)
        pc = ptr.cpu()
        for t in range(T):
            ref[pc[t]:pc[t + 1]] = x[pc[t]:pc[t + 1]].float() @ w[t].float()
        save(out, launches, "t21_segment_matmul_offsets", h, "t21_segment_matmul_offsets", ("X", "W", "Out", "Ptr"), args,
             {"K": K, "N": N, "BM": BM, "BK": 32}, grid,
             "PyG-style segment matmul: fp16 rows sorted by type, 8 types of %s rows (%d in all) between loaded offsets, each times its W[t] fp16 [128, 128], a program a (type, 64-row tile), tiles past the segment return at once (grid (8, %d)), K in steps of 32, fp16 out, num_warps=4; rel. error %.2e" % (sizes.tolist(), tot, grid[1], rel(o, ref)))

    def median():
        R, Lm = 8192, 512
        x = torch.randn((R, Lm), device=dev)
        lens = torch.randint(1, Lm + 1, (R,), device=dev, dtype=torch.int32)
        med = torch.empty((R,), device=dev)
        args = (x, lens, med, x.stride(0))
        h = t21_median_sort_rows[(R,)](*args, BLOCK=Lm, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.stack([x[r, :int(lens[r])].median() for r in range(0, R, 8)])
        bad = int((med[::8] != ref).sum().item())
        save(out, launches, "t21_median_sort_rows", h, "t21_median_sort_rows", ("X", "Lens", "Med", "stride"), args,
             {"BLOCK": Lm}, (R,),
             "row medians by tl.sort: fp32 [8,192, 512] (2,048-byte rows), loaded lengths 1..512 (the rest masked, +inf), a 512-wide bitonic tl.sort, the lower median by a masked sum, a program a row, num_warps=4; %d of 1,024 checked rows differ from torch.median" % bad)

    def gumbel():
        R, V = 4096, 32000
        logits = torch.randn((R, V), device=dev)
        spike = torch.randint(0, V, (R,), device=dev)
        rows = torch.arange(0, R, 2, device=dev)
        logits[rows, spike[rows]] += 40.0
        temp = torch.rand((R,), device=dev) * 0.9 + 0.3
        tok = torch.empty((R,), device=dev, dtype=torch.int32)
        args = (logits, temp, tok, V, 777)
        h = t21_gumbel_max_sample[(R,)](*args, BLOCK=2048, num_warps=4)
        torch.cuda.synchronize()
        bad = int((tok[rows].long() != spike[rows]).sum().item())
        probs = torch.softmax(logits[1::2] / temp[1::2, None], 1)
        pt = probs.gather(1, tok[1::2].long()[:, None]).mean().item()
        pe = (probs * probs).sum(1).mean().item()
        inr = bool(((tok >= 0) & (tok < V)).all().item())
        save(out, launches, "t21_gumbel_max_sample", h, "t21_gumbel_max_sample", ("Logits", "Temp", "Tok", "V", "seed"), args,
             {"BLOCK": 2048}, (R,),
             "Gumbel-max sampling: fp32 logits [4,096, 32,000] (128,000-byte rows), temperatures 0.3..1.2, tl.rand noise, 16 chunks of 2,048 (the last 1,280 valid), running max / argmax, an int32 token a row, num_warps=4; tokens in range %s, %d of 2,048 spiked rows miss their spike, mean p(token) %.4f vs expected %.4f on the other rows" % (inr, bad, pt, pe))

    for lid, f in (("t21_selective_scan_fwd", scan), ("t21_splitk_matmul_atomic_bias", splitk),
                   ("t21_blocksparse_mm_lut", blocksparse), ("t21_hist_u8_tlhist", hist),
                   ("t21_rmsnorm_bwd_lock_dw", rmsbwd), ("t21_dropout_rand_strided", dropout),
                   ("t21_ce_label_smooth_chunks", ce), ("t21_segment_matmul_offsets", segmm),
                   ("t21_median_sort_rows", median), ("t21_gumbel_max_sample", gumbel)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-32s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
