#!/usr/bin/env python3
"""Triton kernels of the warpscope hardware suite (tests/hw, issue 11).

Runs each kernel exactly once (measure.sh runs this script under ncu with the
kernel filter `regex:^tt_`), and writes, for launch k with id ID:

  OUT/ID.ptx    the PTX Triton handed to ptxas (`.asm['ptx']`): exactly what ran
  OUT/ID.cubin  the cubin that ran (`.asm['cubin']`)
  OUT/ID.json   Triton's metadata of the compiled kernel
  OUT/triton_launches.json   every launch in order: id, kernel name, grid,
                 block (num_warps * 32), dynamic shared bytes, and every Python
                 argument (tensors: dtype, shape, strides, base address mod 4096;
                 scalars: value; constexprs: value)

  python3 tests/hw/triton_kernels.py OUT
"""
import json
import os
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def tt_matmul(a_ptr, b_ptr, c_ptr, M, N, K,
              stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def tt_layernorm(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    w = tl.load(W + cols, mask=mask)
    b = tl.load(B + cols, mask=mask)
    y = xc * rstd * w + b
    tl.store(Y + cols, y.to(tl.float16), mask=mask)


@triton.jit
def tt_softmax(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + cols, y.to(tl.float16), mask=mask)


@triton.jit
def tt_add_masked(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


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
        "id": lid, "order": len(launches), "module": "triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(2026)
    dev = "cuda"
    launches = []

    # fp16 matmul, 1024 x 1024 x 1024
    M = N = K = 1024
    a = torch.randn((M, K), device=dev, dtype=torch.float16)
    b = torch.randn((K, N), device=dev, dtype=torch.float16)
    for lid, bm, bn, bk, nw, ns, note in (
            ("tt_matmul_hopper", 128, 128, 64, 8, 3, "Hopper pipelined config: num_warps=8, num_stages=3"),
            ("tt_matmul_ampere", 64, 64, 32, 4, 2, "Ampere-style config: num_warps=4, num_stages=2, small tiles")):
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
        args = (a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
        names = ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn",
                 "stride_cm", "stride_cn")
        ce = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8}
        h = tt_matmul[grid](*args, num_warps=nw, num_stages=ns, **ce)
        torch.cuda.synchronize()
        err = ((c.float() - (a.float() @ b.float())).norm() / (a.float() @ b.float()).norm()).item()
        save(out, launches, lid, h, "tt_matmul", names, args, ce, grid, note + "; rel. error %.2e" % err)

    # layer norm: 512 rows of 768 fp16, block 1024 (mask = cols < 768)
    R, C = 512, 768
    x = torch.randn((R, C), device=dev, dtype=torch.float16)
    y = torch.empty_like(x)
    w = torch.randn((C,), device=dev, dtype=torch.float16)
    bb = torch.randn((C,), device=dev, dtype=torch.float16)
    mean = torch.empty((R,), device=dev, dtype=torch.float32)
    rstd = torch.empty((R,), device=dev, dtype=torch.float32)
    args = (x, y, w, bb, mean, rstd, x.stride(0), C, 1e-5)
    names = ("X", "Y", "W", "B", "Mean", "Rstd", "stride", "N", "eps")
    h = tt_layernorm[(R,)](*args, BLOCK_N=1024, num_warps=4)
    torch.cuda.synchronize()
    ref = torch.nn.functional.layer_norm(x.float(), (C,), w.float(), bb.float(), 1e-5)
    err = ((y.float() - ref).norm() / ref.norm()).item()
    save(out, launches, "tt_layernorm", h, "tt_layernorm", names, args, {"BLOCK_N": 1024}, (R,),
         "512 rows of 768 fp16, BLOCK_N=1024, num_warps=4; rel. error %.2e" % err)

    # softmax: 512 rows of 768 fp16, block 1024
    xs = torch.randn((R, C), device=dev, dtype=torch.float16)
    ys = torch.empty_like(xs)
    args = (ys, xs, xs.stride(0), ys.stride(0), C)
    names = ("out_ptr", "in_ptr", "in_stride", "out_stride", "n_cols")
    h = tt_softmax[(R,)](*args, BLOCK=1024, num_warps=4)
    torch.cuda.synchronize()
    ref = torch.softmax(xs.float(), dim=1)
    err = ((ys.float() - ref).norm() / ref.norm()).item()
    save(out, launches, "tt_softmax", h, "tt_softmax", names, args, {"BLOCK": 1024}, (R,),
         "512 rows of 768 fp16, BLOCK=1024, num_warps=4; rel. error %.2e" % err)

    # masked vector add: n = 10000 fp32, block 1024 (last program 784 lanes of 1024 on)
    n = 10000
    xa = torch.randn((n,), device=dev)
    ya = torch.randn((n,), device=dev)
    oa = torch.empty_like(xa)
    args = (xa, ya, oa, n)
    names = ("x_ptr", "y_ptr", "out_ptr", "n")
    grid = (triton.cdiv(n, 1024),)
    h = tt_add_masked[grid](*args, BLOCK=1024, num_warps=4)
    torch.cuda.synchronize()
    err = ((oa - (xa + ya)).norm() / (xa + ya).norm()).item()
    save(out, launches, "tt_add_masked", h, "tt_add_masked", names, args, {"BLOCK": 1024}, grid,
         "n = 10000 fp32, BLOCK=1024, num_warps=4; rel. error %.2e" % err)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-18s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
