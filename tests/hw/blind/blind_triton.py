#!/usr/bin/env python3
"""Triton kernels of the held-out batch (tests/hw/blind): kernels in shapes the
calibration suite's triton_kernels.py does not have (fused attention forward,
cross-entropy with an online log-sum-exp over a vocabulary, RMS norm in bf16,
a bf16 matmul with other block sizes, a 2-D transpose). Each runs once; the
script is run under ncu with `-k regex:^tb_` (tests/hw/blind/measure_blind.sh).
Writes, like tests/hw/triton_kernels.py, OUT/ID.{ptx,cubin,json} and
OUT/triton_launches.json (PTX paths named tests/hw/blind/triton/ID.ptx).
A kernel that fails to compile or run is reported and left out.

  python3 tests/hw/blind/blind_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def tb_attn_fwd(Q, K, V, Out, stride_h, stride_m, sm_scale, N_CTX,
                HEAD: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_h = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD)
    q = tl.load(Q + off_h * stride_h + offs_m[:, None] * stride_m + offs_d[None, :])
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD], dtype=tl.float32)
    for start_n in range(0, N_CTX, BLOCK_N):
        k = tl.load(K + off_h * stride_h + (start_n + offs_n)[None, :] * stride_m + offs_d[:, None])
        qk = tl.dot(q, k) * sm_scale
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_ij[:, None])
        alpha = tl.exp(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(V + off_h * stride_h + (start_n + offs_n)[:, None] * stride_m + offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + off_h * stride_h + offs_m[:, None] * stride_m + offs_d[None, :], acc.to(tl.float16))


@triton.jit
def tb_cross_entropy(logits, targets, loss, stride, n_vocab, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = logits + row * stride
    m_vec = tl.zeros([BLOCK], dtype=tl.float32) - 1e30
    s_vec = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_vocab, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_vocab
        x = tl.load(base + cols, mask=mask, other=-1e30).to(tl.float32)
        m_new = tl.maximum(m_vec, x)
        s_vec = s_vec * tl.exp(m_vec - m_new) + tl.where(mask, tl.exp(x - m_new), 0.0)
        m_vec = m_new
    m = tl.max(m_vec, 0)
    s = tl.sum(s_vec * tl.exp(m_vec - m), 0)
    t = tl.load(targets + row)
    xt = tl.load(base + t).to(tl.float32)
    tl.store(loss + row, tl.log(s) + m - xt)


@triton.jit
def tb_rmsnorm(X, W, Y, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    r = 1 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(Y + row * stride + cols, (x * r * w).to(tl.bfloat16), mask=mask)


@triton.jit
def tb_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptrs, acc.to(tl.bfloat16), mask=mask)


@triton.jit
def tb_transpose(X, Y, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    x = tl.load(X + offs_m[:, None] * stride_x + offs_n[None, :], mask=mask)
    mask_t = (offs_n[:, None] < N) & (offs_m[None, :] < M)
    tl.store(Y + offs_n[:, None] * stride_y + offs_m[None, :], tl.trans(x), mask=mask_t)


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
        "id": lid, "order": len(launches), "module": "blind_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(4242)
    dev = "cuda"
    launches = []

    def attempt(lid, f):
        try:
            f()
        except Exception:
            print("triton launch %s FAILED" % lid)
            traceback.print_exc()

    def attn():
        H, S, D = 8, 1024, 64
        q = torch.randn((H, S, D), device=dev, dtype=torch.float16)
        k = torch.randn_like(q)
        v = torch.randn_like(q)
        o = torch.empty_like(q)
        grid = (S // 64, H)
        args = (q, k, v, o, q.stride(0), q.stride(1), 0.125, S)
        ce = {"HEAD": D, "BLOCK_M": 64, "BLOCK_N": 64}
        h = tb_attn_fwd[grid](*args, num_warps=4, num_stages=2, **ce)
        torch.cuda.synchronize()
        ref = torch.softmax((q.float() @ k.float().transpose(1, 2)) * 0.125, -1) @ v.float()
        err = ((o.float() - ref).norm() / ref.norm()).item()
        save(out, launches, "tb_attn_fwd", h, "tb_attn_fwd",
             ("Q", "K", "V", "Out", "stride_h", "stride_m", "sm_scale", "N_CTX"), args, ce, grid,
             "8 heads x 1024 x 64 fp16, BLOCK_M = BLOCK_N = 64, num_warps=4, num_stages=2; rel. error %.2e" % err)

    def xent():
        R, Vv = 256, 32000
        lg = torch.randn((R, Vv), device=dev, dtype=torch.float16)
        tg = torch.randint(0, Vv, (R,), device=dev, dtype=torch.int32)
        ls = torch.empty((R,), device=dev, dtype=torch.float32)
        args = (lg, tg, ls, lg.stride(0), Vv)
        h = tb_cross_entropy[(R,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.nn.functional.cross_entropy(lg.float(), tg.long(), reduction="none")
        err = ((ls - ref).norm() / ref.norm()).item()
        save(out, launches, "tb_cross_entropy", h, "tb_cross_entropy",
             ("logits", "targets", "loss", "stride", "n_vocab"), args, {"BLOCK": 1024}, (R,),
             "256 rows of 32,000 fp16 logits, BLOCK=1024 (tail chunk of 256), num_warps=4; rel. error %.2e" % err)

    def rms():
        R, N = 512, 3000
        x = torch.randn((R, N), device=dev, dtype=torch.bfloat16)
        w = torch.randn((N,), device=dev, dtype=torch.bfloat16)
        y = torch.empty_like(x)
        args = (x, w, y, x.stride(0), N, 1e-6)
        h = tb_rmsnorm[(R,)](*args, BLOCK=4096, num_warps=8)
        torch.cuda.synchronize()
        xf = x.float()
        ref = xf * torch.rsqrt((xf * xf).mean(-1, keepdim=True) + 1e-6) * w.float()
        err = ((y.float() - ref).norm() / ref.norm()).item()
        save(out, launches, "tb_rmsnorm", h, "tb_rmsnorm", ("X", "W", "Y", "stride", "N", "eps"), args,
             {"BLOCK": 4096}, (R,), "512 rows of 3,000 bf16 (rows 6,000 bytes apart), BLOCK=4096, num_warps=8; rel. error %.2e" % err)

    def mm():
        M, N, K = 768, 512, 384
        a = torch.randn((M, K), device=dev, dtype=torch.bfloat16)
        b = torch.randn((K, N), device=dev, dtype=torch.bfloat16)
        c = torch.empty((M, N), device=dev, dtype=torch.bfloat16)
        grid = (M // 64, N // 128)
        args = (a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0))
        ce = {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64}
        h = tb_matmul[grid](*args, num_warps=4, num_stages=4, **ce)
        torch.cuda.synchronize()
        ref = a.float() @ b.float()
        err = ((c.float() - ref).norm() / ref.norm()).item()
        save(out, launches, "tb_matmul_bf16", h, "tb_matmul",
             ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"), args, ce, grid,
             "bf16 768 x 512 x 384, 64 x 128 x 64 tiles, num_warps=4, num_stages=4; rel. error %.2e" % err)

    def tr():
        M, N = 1000, 1536
        x = torch.randn((M, N), device=dev, dtype=torch.float32)
        y = torch.empty((N, M), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
        args = (x, y, M, N, x.stride(0), y.stride(0))
        h = tb_transpose[grid](*args, BM=64, BN=64, num_warps=4)
        torch.cuda.synchronize()
        err = (y - x.t()).abs().max().item()
        save(out, launches, "tb_transpose", h, "tb_transpose", ("X", "Y", "M", "N", "stride_x", "stride_y"), args,
             {"BM": 64, "BN": 64}, grid, "fp32 1000 x 1536 -> 1536 x 1000, 64 x 64 tiles, num_warps=4; max error %.2e" % err)

    for lid, f in (("tb_attn_fwd", attn), ("tb_cross_entropy", xent), ("tb_rmsnorm", rms), ("tb_matmul_bf16", mm),
                   ("tb_transpose", tr)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-18s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
