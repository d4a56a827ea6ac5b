#!/usr/bin/env python3
"""Compile a few Triton kernels to PTX without a GPU (Triton-style PTX for the corpus).

Triton PTX differs from nvcc's: `.loc` lines carry `function_name` / `inlined_at`
attributes, a `.file` table with absolute paths, `$L__`/`$L__tmp` labels, DWARF
`.section .debug_*` blobs, mma/wgmma inline sequences, etc.

usage: python3 scripts/triton_ptx.py OUTDIR [ARCH ...]     (default ARCH: 90)
needs: pip install triton   (scripts/build-corpus.sh makes a venv with it)
writes OUTDIR/triton_<kernel>_sm<ARCH>.ptx
"""
import os
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def softmax(out_ptr, in_ptr, in_row_stride, out_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step):
        row_ptr = in_ptr + row_idx * in_row_stride
        col = tl.arange(0, BLOCK_SIZE)
        mask = col < n_cols
        row = tl.load(row_ptr + col, mask=mask, other=-float("inf"))
        row_minus_max = row - tl.max(row, axis=0)
        num = tl.exp(row_minus_max)
        den = tl.sum(num, axis=0)
        tl.store(out_ptr + row_idx * out_row_stride + col, num / den, mask=mask)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K,
           stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
           GROUP_M: tl.constexpr):
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
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(tl.float16)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def layernorm(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
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
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def _gelu(x):
    return 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))


@triton.jit
def _scale_shift(x, s, b):
    return _gelu(x * s + b)


@triton.jit
def fused_gelu_atomic(x_ptr, out_ptr, acc_ptr, n, scale, BLOCK: tl.constexpr):
    # nested @triton.jit helpers -> .loc ... inlined_at chains two deep; atomics
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = _scale_shift(x, scale, 1.0)
    tl.store(out_ptr + offs, y, mask=m)
    tl.atomic_add(acc_ptr, tl.sum(tl.where(m, y, 0.0), axis=0))


KERNELS = {
    "vector_add": (vector_add,
                   {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n_elements": "i32",
                    "BLOCK_SIZE": "constexpr"},
                   {"BLOCK_SIZE": 1024}, {}),
    "softmax": (softmax,
                {"out_ptr": "*fp32", "in_ptr": "*fp32", "in_row_stride": "i32", "out_row_stride": "i32",
                 "n_rows": "i32", "n_cols": "i32", "BLOCK_SIZE": "constexpr"},
                {"BLOCK_SIZE": 1024}, {"num_warps": 8}),
    "matmul": (matmul,
               {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32", "stride_bn": "i32",
                "stride_cm": "i32", "stride_cn": "i32",
                "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr", "GROUP_M": "constexpr"},
               {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, {"num_warps": 8, "num_stages": 3}),
    "layernorm": (layernorm,
                  {"X": "*fp32", "Y": "*fp32", "W": "*fp32", "B": "*fp32", "Mean": "*fp32", "Rstd": "*fp32",
                   "stride": "i32", "N": "i32", "eps": "fp32", "BLOCK_SIZE": "constexpr"},
                  {"BLOCK_SIZE": 1024}, {"num_warps": 8}),
    "fused_gelu_atomic": (fused_gelu_atomic,
                          {"x_ptr": "*fp32", "out_ptr": "*fp32", "acc_ptr": "*fp32", "n": "i32",
                           "scale": "fp32", "BLOCK": "constexpr"},
                          {"BLOCK": 512}, {"num_warps": 4}),
}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    archs = [int(a) for a in sys.argv[2:]] or [90]
    os.makedirs(outdir, exist_ok=True)
    for arch in archs:
        target = GPUTarget("cuda", arch, 32)
        for name, (fn, sig, consts, opts) in KERNELS.items():
            src = ASTSource(fn=fn, signature=sig, constexprs=consts)
            try:
                k = triton.compile(src, target=target, options=opts)
            except Exception as e:  # noqa: BLE001 - report and go on
                print(f"triton: {name} sm_{arch}: FAILED: {type(e).__name__}: {str(e)[:300]}", file=sys.stderr)
                continue
            path = os.path.join(outdir, f"triton_{name}_sm{arch}.ptx")
            with open(path, "w") as f:
                f.write(k.asm["ptx"])
            print(f"triton {triton.__version__}: {path}")


if __name__ == "__main__":
    main()
