#!/usr/bin/env python3
"""Triton kernels of the second held-out batch (tests/hw/blind2), copied from
tests/hw/blind/blind_triton.py (same save/describe code): shapes neither
triton_kernels.py nor blind_triton.py has (group norm over NCHW groups,
dropout with tl.rand, SwiGLU over a [gate | up] row, fp16 split-K matmul with
fp32 atomic_add, argmax, tl.cumsum, embedding bag through offsets). Each runs
once; the script is run under ncu with `-k regex:^tc_`
(tests/hw/blind2/measure_blind2.sh). Writes OUT/ID.{ptx,cubin,json} and
OUT/triton_launches.json (PTX paths named tests/hw/blind2/triton/ID.ptx).
A kernel that fails to compile or run is reported and left out.

  python3 tests/hw/blind2/blind2_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def tc_group_norm(X, Y, W, B, C, HW, G, eps, CPG: tl.constexpr, BLOCK: tl.constexpr):
    # one program per (sample, group); NCHW, the group's CPG channels x HW contiguous
    pid = tl.program_id(0)
    n = pid // G
    g = pid % G
    base = n * C * HW + g * CPG * HW
    numel = CPG * HW
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, numel, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        m = idx < numel
        x = tl.load(X + base + idx, mask=m, other=0.0).to(tl.float32)
        acc += x
        acc2 += x * x
    mean = tl.sum(acc, 0) / numel
    var = tl.sum(acc2, 0) / numel - mean * mean
    rstd = 1 / tl.sqrt(var + eps)
    for off in range(0, numel, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        m = idx < numel
        c = g * CPG + idx // HW
        x = tl.load(X + base + idx, mask=m, other=0.0).to(tl.float32)
        w = tl.load(W + c, mask=m, other=1.0)
        b = tl.load(B + c, mask=m, other=0.0)
        tl.store(Y + base + idx, ((x - mean) * rstd * w + b).to(tl.float16), mask=m)


@triton.jit
def tc_dropout(X, Y, n, p, seed, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    r = tl.rand(seed, offs)
    keep = r > p
    tl.store(Y + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)


@triton.jit
def tc_swiglu(XG, Y, n_rows, D, stride_x, stride_y, BLOCK: tl.constexpr):
    # x = [gate | up] along the last dim (2D halves per row), y = silu(gate) * up
    row = tl.program_id(0)
    col = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = col < D
    g = tl.load(XG + row * stride_x + col, mask=m, other=0.0).to(tl.float32)
    u = tl.load(XG + row * stride_x + D + col, mask=m, other=0.0).to(tl.float32)
    y = g * tl.sigmoid(g) * u
    tl.store(Y + row * stride_y + col, y.to(tl.float16), mask=m)


@triton.jit
def tc_matmul_splitk(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K * SPLIT_K):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * SPLIT_K
        b_ptrs += BLOCK_K * SPLIT_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.atomic_add(c_ptrs, acc, mask=mask)


@triton.jit
def tc_argmax(X, Out, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(X + row * stride + cols, mask=m, other=float("-inf"))
    tl.store(Out + row, tl.argmax(x, 0))


@triton.jit
def tc_cumsum(X, Y, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(X + row * stride + cols, mask=m, other=0.0)
    tl.store(Y + row * stride + cols, tl.cumsum(x, 0), mask=m)


@triton.jit
def tc_embedding_bag(Idx, Off, Wt, Out, D, BLOCK_D: tl.constexpr):
    # mode = "sum": bag b sums the rows Idx[Off[b] .. Off[b + 1])
    bag = tl.program_id(0)
    start = tl.load(Off + bag)
    end = tl.load(Off + bag + 1)
    d = tl.arange(0, BLOCK_D)
    md = d < D
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for j in range(start, end):
        r = tl.load(Idx + j)
        acc += tl.load(Wt + r * D + d, mask=md, other=0.0)
    tl.store(Out + bag * D + d, acc, mask=md)


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
        "id": lid, "order": len(launches), "module": "blind2_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind2/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(4243)
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

    def gn():
        Nn, C, H, W, G = 4, 64, 28, 28, 8
        x = torch.randn((Nn, C, H, W), device=dev, dtype=torch.float16)
        w = torch.randn((C,), device=dev, dtype=torch.float32)
        b = torch.randn((C,), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        args = (x, y, w, b, C, H * W, G, 1e-5)
        ce = {"CPG": C // G, "BLOCK": 1024}
        h = tc_group_norm[(Nn * G,)](*args, num_warps=4, **ce)
        torch.cuda.synchronize()
        err = rel(y, torch.nn.functional.group_norm(x.float(), G, w, b, 1e-5))
        save(out, launches, "tc_group_norm", h, "tc_group_norm", ("X", "Y", "W", "B", "C", "HW", "G", "eps"), args, ce,
             (Nn * G,), "fp16 4 x 64 x 28 x 28, 8 groups (6,272 values, BLOCK=1024: tail 128), num_warps=4; rel. error %.2e" % err)

    def dropout():
        n = 1000000
        x = torch.randn((n,), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        args = (x, y, n, 0.25, 1234)
        grid = (triton.cdiv(n, 1024),)
        h = tc_dropout[grid](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        kept = (y != 0).float().mean().item()
        save(out, launches, "tc_dropout", h, "tc_dropout", ("X", "Y", "n", "p", "seed"), args, {"BLOCK": 1024}, grid,
             "1,000,000 fp32, p = 0.25 (tl.rand), BLOCK=1024, num_warps=4; kept fraction %.4f" % kept)

    def swiglu():
        R, D = 2048, 1376
        x = torch.randn((R, 2 * D), device=dev, dtype=torch.float16)
        y = torch.empty((R, D), device=dev, dtype=torch.float16)
        grid = (R, triton.cdiv(D, 512))
        args = (x, y, R, D, x.stride(0), y.stride(0))
        h = tc_swiglu[grid](*args, BLOCK=512, num_warps=4)
        torch.cuda.synchronize()
        g, u = x.float()[:, :D], x.float()[:, D:]
        err = rel(y, torch.nn.functional.silu(g) * u)
        save(out, launches, "tc_swiglu", h, "tc_swiglu", ("XG", "Y", "n_rows", "D", "stride_x", "stride_y"), args,
             {"BLOCK": 512}, grid, "fp16 2,048 rows, gate|up of 1,376 each (2,752-byte halves), BLOCK=512 (tail 352), num_warps=4; rel. error %.2e" % err)

    def splitk():
        M, N, K, SK = 256, 256, 4096, 4
        a = torch.randn((M, K), device=dev, dtype=torch.float16)
        b = torch.randn((K, N), device=dev, dtype=torch.float16)
        c = torch.zeros((M, N), device=dev, dtype=torch.float32)
        grid = (M // 64, N // 64, SK)
        args = (a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        ce = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64, "SPLIT_K": SK}
        h = tc_matmul_splitk[grid](*args, num_warps=4, num_stages=3, **ce)
        torch.cuda.synchronize()
        err = rel(c, a.float() @ b.float())
        save(out, launches, "tc_matmul_splitk", h, "tc_matmul_splitk",
             ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"), args, ce, grid,
             "fp16 256 x 256 x 4096, split-K 4 with fp32 atomic_add, 64 x 64 x 64 tiles, num_warps=4, num_stages=3; rel. error %.2e" % err)

    def argmax():
        R, N = 4096, 1000
        x = torch.randn((R, N), device=dev, dtype=torch.float32)
        o = torch.empty((R,), device=dev, dtype=torch.int32)
        args = (x, o, N, x.stride(0))
        h = tc_argmax[(R,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ok = (o.long() == x.argmax(1)).float().mean().item()
        save(out, launches, "tc_argmax", h, "tc_argmax", ("X", "Out", "N", "stride"), args, {"BLOCK": 1024}, (R,),
             "fp32 4,096 rows of 1,000 (4,000-byte rows), BLOCK=1024, num_warps=4; rows matching torch %.4f" % ok)

    def cumsum():
        R, N = 2048, 700
        x = torch.randn((R, N), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        args = (x, y, N, x.stride(0))
        h = tc_cumsum[(R,)](*args, BLOCK=1024, num_warps=8)
        torch.cuda.synchronize()
        err = rel(y, torch.cumsum(x, 1))
        save(out, launches, "tc_cumsum", h, "tc_cumsum", ("X", "Y", "N", "stride"), args, {"BLOCK": 1024}, (R,),
             "fp32 2,048 rows of 700 (2,800-byte rows), tl.cumsum, BLOCK=1024, num_warps=8; rel. error %.2e" % err)

    def bag():
        V, D, B = 50000, 200, 1024
        wt = torch.randn((V, D), device=dev, dtype=torch.float32)
        g = torch.Generator().manual_seed(99)
        lens = torch.randint(1, 9, (B,), generator=g)
        off = torch.zeros(B + 1, dtype=torch.int32)
        off[1:] = torch.cumsum(lens, 0)
        idx = torch.randint(0, V, (int(off[-1]),), generator=g, dtype=torch.int32)
        idx, off = idx.to(dev), off.to(dev)
        o = torch.empty((B, D), device=dev, dtype=torch.float32)
        args = (idx, off, wt, o, D)
        h = tc_embedding_bag[(B,)](*args, BLOCK_D=256, num_warps=2)
        torch.cuda.synchronize()
        ref = torch.nn.functional.embedding_bag(idx.long(), wt, off[:-1].long(), mode="sum")
        err = rel(o, ref)
        save(out, launches, "tc_embedding_bag", h, "tc_embedding_bag", ("Idx", "Off", "Wt", "Out", "D"), args,
             {"BLOCK_D": 256}, (B,), "fp32 table 50,000 x 200 (800-byte rows), 1,024 bags of 1-8 random rows (torch.Generator seed 99), BLOCK_D=256, num_warps=2; rel. error %.2e" % err)

    for lid, f in (("tc_group_norm", gn), ("tc_dropout", dropout), ("tc_swiglu", swiglu), ("tc_matmul_splitk", splitk),
                   ("tc_argmax", argmax), ("tc_cumsum", cumsum), ("tc_embedding_bag", bag)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-18s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
