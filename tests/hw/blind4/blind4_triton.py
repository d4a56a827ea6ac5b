#!/usr/bin/env python3
"""Triton kernels of the fourth held-out batch (tests/hw/blind4), copied from
tests/hw/blind3/blind3_triton.py (same save/describe code): shapes none of
triton_kernels.py and the blind*_triton.py scripts has (flash-decoding: one
query row against 8,192 keys split over 16 programs, then the split
reduction; a grouped GEMM whose problem pointers and sizes are loaded from
tensors; a fused residual add + RMS norm in fp16 over several rows per
program with a masked tail; rotary embedding whose cos/sin rows are gathered
by a position tensor; a linear recurrence by tl.associative_scan; an fp8
matmul with K-major B). Each runs once; the script is run under ncu with
`-k regex:^te_` (tests/hw/blind4/measure_blind4.sh). Writes
OUT/ID.{ptx,cubin,json} and OUT/triton_launches.json (PTX paths named
tests/hw/blind4/triton/ID.ptx). A kernel that fails to compile or run is
reported and left out.

  python3 tests/hw/blind4/blind4_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def te_flash_decode_split(Q, K, V, Mid_O, Mid_LSE, stride_kh, stride_kn, N_CTX,
                          SPLIT_LEN: tl.constexpr, HEAD: tl.constexpr, BLOCK_N: tl.constexpr):
    bh = tl.program_id(0)
    split = tl.program_id(1)
    nsplit = tl.num_programs(1)
    offs_d = tl.arange(0, HEAD)
    offs_n = tl.arange(0, BLOCK_N)
    q = tl.load(Q + bh * HEAD + offs_d).to(tl.float32)
    m_i = float("-inf")
    l_i = 0.0
    acc = tl.zeros([HEAD], dtype=tl.float32)
    start = split * SPLIT_LEN
    kbase = K + bh.to(tl.int64) * stride_kh
    vbase = V + bh.to(tl.int64) * stride_kh
    for n in range(start, start + SPLIT_LEN, BLOCK_N):
        cols = n + offs_n
        valid = cols < N_CTX
        k = tl.load(kbase + cols[:, None] * stride_kn + offs_d[None, :], mask=valid[:, None], other=0.0)
        s = tl.sum(q[None, :] * k.to(tl.float32), 1) * 0.08838834764831845
        s = tl.where(valid, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 0))
        p = tl.exp(s - m_new)
        alpha = tl.exp(m_i - m_new)
        v = tl.load(vbase + cols[:, None] * stride_kn + offs_d[None, :], mask=valid[:, None], other=0.0)
        acc = acc * alpha + tl.sum(p[:, None] * v.to(tl.float32), 0)
        l_i = l_i * alpha + tl.sum(p, 0)
        m_i = m_new
    tl.store(Mid_O + (bh * nsplit + split) * HEAD + offs_d, acc / l_i)
    tl.store(Mid_LSE + bh * nsplit + split, m_i + tl.log(l_i))


@triton.jit
def te_flash_decode_reduce(Mid_O, Mid_LSE, Out, NSPLIT: tl.constexpr, HEAD: tl.constexpr):
    bh = tl.program_id(0)
    offs_s = tl.arange(0, NSPLIT)
    offs_d = tl.arange(0, HEAD)
    lse = tl.load(Mid_LSE + bh * NSPLIT + offs_s)
    o = tl.load(Mid_O + (bh * NSPLIT + offs_s)[:, None] * HEAD + offs_d[None, :])
    m = tl.max(lse, 0)
    w = tl.exp(lse - m)
    out = tl.sum(o * w[:, None], 0) / tl.sum(w, 0)
    tl.store(Out + bh * HEAD + offs_d, out.to(tl.float16))


@triton.jit
def te_grouped_gemm(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size,
                    NUM_SM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_size):
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        num_m_tiles = tl.cdiv(gm, BLOCK_M)
        num_n_tiles = tl.cdiv(gn, BLOCK_N)
        num_tiles = num_m_tiles * num_n_tiles
        while (tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles):
            k = gk
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            tile_idx_in_gemm = tile_idx - last_problem_end
            tile_m_idx = tile_idx_in_gemm // num_n_tiles
            tile_n_idx = tile_idx_in_gemm % num_n_tiles
            offs_am = tile_m_idx * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_bn = tile_n_idx * BLOCK_N + tl.arange(0, BLOCK_N)
            offs_k = tl.arange(0, BLOCK_K)
            a_ptrs = a_ptr + offs_am[:, None] * lda + offs_k[None, :]
            b_ptrs = b_ptr + offs_k[:, None] * ldb + offs_bn[None, :]
            accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for kk in range(0, tl.cdiv(k, BLOCK_K)):
                a = tl.load(a_ptrs)
                b = tl.load(b_ptrs)
                accumulator += tl.dot(a, b)
                a_ptrs += BLOCK_K
                b_ptrs += BLOCK_K * ldb
            c = accumulator.to(tl.float16)
            offs_cm = tile_m_idx * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_cn = tile_n_idx * BLOCK_N + tl.arange(0, BLOCK_N)
            tl.store(c_ptr + ldc * offs_cm[:, None] + offs_cn[None, :], c)
            tile_idx += NUM_SM
        last_problem_end = last_problem_end + num_tiles


@triton.jit
def te_add_rmsnorm(X, R, W, Y, stride, n_rows, N, eps, ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < N)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(R + offs, mask=mask, other=0.0).to(tl.float32)
    h = x + r
    tl.store(R + offs, h.to(tl.float16), mask=mask)
    var = tl.sum(h * h, axis=1) / N
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(W + cols, mask=cols < N, other=0.0).to(tl.float32)
    y = h * rstd[:, None] * w[None, :]
    tl.store(Y + offs, y.to(tl.float16), mask=mask)


@triton.jit
def te_rope_gather(Q, Pos, Cos, Sin, Out, stride_t, n_heads, HALF: tl.constexpr, BLOCK_H: tl.constexpr):
    t = tl.program_id(0)
    pos = tl.load(Pos + t)
    offs_h = tl.arange(0, BLOCK_H)
    offs_d = tl.arange(0, HALF)
    hmask = offs_h[:, None] < n_heads
    c = tl.load(Cos + pos * HALF + offs_d)
    s = tl.load(Sin + pos * HALF + offs_d)
    base = t * stride_t + offs_h[:, None] * (2 * HALF) + offs_d[None, :]
    x1 = tl.load(Q + base, mask=hmask, other=0.0).to(tl.float32)
    x2 = tl.load(Q + base + HALF, mask=hmask, other=0.0).to(tl.float32)
    tl.store(Out + base, (x1 * c[None, :] - x2 * s[None, :]).to(tl.float16), mask=hmask)
    tl.store(Out + base + HALF, (x2 * c[None, :] + x1 * s[None, :]).to(tl.float16), mask=hmask)


@triton.jit
def _lin_combine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def te_linear_scan(A, Xs, H, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    a = tl.load(A + row * stride + cols, mask=mask, other=1.0)
    x = tl.load(Xs + row * stride + cols, mask=mask, other=0.0)
    _, h = tl.associative_scan((a, x), axis=0, combine_fn=_lin_combine)
    tl.store(H + row * stride + cols, h, mask=mask)


@triton.jit
def te_matmul_fp8(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_cm,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_n[None, :] * stride_bn + offs_k[:, None]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.float16))


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
        "id": lid, "order": len(launches), "module": "blind4_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind4/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(4444)
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

    fd = {}

    def fdec_split():
        BH, N, D, NS = 32, 8192, 128, 16
        q = torch.randn((BH, D), device=dev, dtype=torch.float16)
        k = torch.randn((BH, N, D), device=dev, dtype=torch.float16)
        v = torch.randn_like(k)
        mid_o = torch.empty((BH, NS, D), device=dev, dtype=torch.float32)
        mid_lse = torch.empty((BH, NS), device=dev, dtype=torch.float32)
        grid = (BH, NS)
        args = (q, k, v, mid_o, mid_lse, k.stride(0), k.stride(1), N - 100)
        ce = {"SPLIT_LEN": N // NS, "HEAD": D, "BLOCK_N": 64}
        h = te_flash_decode_split[grid](*args, num_warps=4, **ce)
        torch.cuda.synchronize()
        fd.update(q=q, k=k, v=v, mid_o=mid_o, mid_lse=mid_lse, BH=BH, NS=NS, D=D, n=N - 100)
        save(out, launches, "te_flash_decode_split", h, "te_flash_decode_split",
             ("Q", "K", "V", "Mid_O", "Mid_LSE", "stride_kh", "stride_kn", "N_CTX"), args, ce, grid,
             "fp16 flash-decoding: 32 (batch x head) query rows of 128 against 8,092 of 8,192 keys, 16 splits of 512 in chunks of 64, num_warps=4")

    def fdec_reduce():
        BH, NS, D = fd["BH"], fd["NS"], fd["D"]
        o = torch.empty((BH, D), device=dev, dtype=torch.float16)
        args = (fd["mid_o"], fd["mid_lse"], o)
        ce = {"NSPLIT": NS, "HEAD": D}
        h = te_flash_decode_reduce[(BH,)](*args, num_warps=4, **ce)
        torch.cuda.synchronize()
        n = fd["n"]
        s = (fd["k"][:, :n].float() @ fd["q"].float()[:, :, None])[:, :, 0] * 0.08838834764831845
        ref = (torch.softmax(s, 1)[:, None, :] @ fd["v"][:, :n].float())[:, 0]
        err = rel(o, ref)
        save(out, launches, "te_flash_decode_reduce", h, "te_flash_decode_reduce",
             ("Mid_O", "Mid_LSE", "Out"), args, ce, (BH,),
             "flash-decoding reduction of 16 splits per row (fp32 partials, log-sum-exp weights), num_warps=4; rel. error %.2e" % err)

    def grouped():
        shapes = [(512, 256, 256), (256, 512, 128), (384, 384, 192), (128, 256, 512)]
        As, Bs, Cs = [], [], []
        for (m, n, k) in shapes:
            As.append(torch.randn((m, k), device=dev, dtype=torch.float16))
            Bs.append(torch.randn((k, n), device=dev, dtype=torch.float16))
            Cs.append(torch.empty((m, n), device=dev, dtype=torch.float16))
        pa = torch.tensor([t.data_ptr() for t in As], device=dev)
        pb = torch.tensor([t.data_ptr() for t in Bs], device=dev)
        pc = torch.tensor([t.data_ptr() for t in Cs], device=dev)
        sizes = torch.tensor([x for s in shapes for x in s], device=dev, dtype=torch.int32)
        lds = torch.tensor([x for (m, n, k) in shapes for x in (k, n, n)], device=dev, dtype=torch.int32)
        NUM_SM = 64
        args = (pa, pb, pc, sizes, lds, len(shapes))
        ce = {"NUM_SM": NUM_SM, "BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}
        h = te_grouped_gemm[(NUM_SM,)](*args, num_warps=4, num_stages=2, **ce)
        torch.cuda.synchronize()
        err = max(rel(c, a.float() @ b.float()) for a, b, c in zip(As, Bs, Cs))
        save(out, launches, "te_grouped_gemm", h, "te_grouped_gemm",
             ("group_a_ptrs", "group_b_ptrs", "group_c_ptrs", "group_gemm_sizes", "g_lds", "group_size"), args, ce, (NUM_SM,),
             "the tutorial's grouped GEMM: 4 fp16 problems (512x256x256, 256x512x128, 384x384x192, 128x256x512), pointers loaded from int64 tensors, 64 x 64 x 32 tiles over 64 programs, num_warps=4, num_stages=2; max rel. error %.2e" % err)

    def addrms():
        R, N = 4099, 1500
        x = torch.randn((R, N), device=dev, dtype=torch.float16)
        r = torch.randn((R, N), device=dev, dtype=torch.float16)
        w = torch.randn((N,), device=dev, dtype=torch.float16)
        y = torch.empty_like(x)
        hr = x.float() + r.float()
        ROWS = 4
        grid = (triton.cdiv(R, ROWS),)
        args = (x, r, w, y, x.stride(0), R, N, 1e-6)
        ce = {"ROWS": ROWS, "BLOCK_N": 2048}
        h = te_add_rmsnorm[grid](*args, num_warps=8, **ce)
        torch.cuda.synchronize()
        ref = hr * torch.rsqrt((hr * hr).mean(1, keepdim=True) + 1e-6) * w.float()
        err = max(rel(y, ref), rel(r, hr))
        save(out, launches, "te_add_rmsnorm", h, "te_add_rmsnorm",
             ("X", "R", "W", "Y", "stride", "n_rows", "N", "eps"), args, ce, grid,
             "fp16 residual add + RMS norm, 4,099 rows of 1,500 (3,000-byte rows), 4 rows x 2,048 per program (last program 3 rows), num_warps=8; rel. error %.2e" % err)

    def rope():
        T, H, HALF, MAXP = 4096, 12, 32, 8192
        q = torch.randn((T, H, 2 * HALF), device=dev, dtype=torch.float16)
        pos = torch.randint(0, MAXP, (T,), device=dev, dtype=torch.int32)
        inv = 1.0 / (10000 ** (torch.arange(0, HALF, device=dev, dtype=torch.float32) / HALF))
        ang = torch.arange(MAXP, device=dev, dtype=torch.float32)[:, None] * inv[None, :]
        cos, sin = torch.cos(ang).contiguous(), torch.sin(ang).contiguous()
        o = torch.empty_like(q)
        args = (q, pos, cos, sin, o, q.stride(0), H)
        ce = {"HALF": HALF, "BLOCK_H": 16}
        h = te_rope_gather[(T,)](*args, num_warps=2, **ce)
        torch.cuda.synchronize()
        c, s = cos[pos.long()][:, None, :], sin[pos.long()][:, None, :]
        x1, x2 = q[..., :HALF].float(), q[..., HALF:].float()
        ref = torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], -1)
        err = rel(o, ref)
        save(out, launches, "te_rope_gather", h, "te_rope_gather",
             ("Q", "Pos", "Cos", "Sin", "Out", "stride_t", "n_heads"), args, ce, (T,),
             "fp16 NeoX rotary embedding, 4,096 tokens x 12 heads x 64, cos/sin rows of 32 fp32 gathered by random positions < 8,192, heads masked 12 of 16, num_warps=2; rel. error %.2e" % err)

    def linscan():
        R, N = 512, 1000
        a = torch.rand((R, N), device=dev, dtype=torch.float32) * 0.5 + 0.5
        x = torch.randn((R, N), device=dev, dtype=torch.float32)
        hh = torch.empty_like(x)
        args = (a, x, hh, a.stride(0), N)
        h = te_linear_scan[(R,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ac, xc = a.double().cpu(), x.double().cpu()
        ref = torch.empty_like(xc)
        acc = torch.zeros(R, dtype=torch.float64)
        for i in range(N):
            acc = ac[:, i] * acc + xc[:, i]
            ref[:, i] = acc
        err = rel(hh, ref)
        save(out, launches, "te_linear_scan", h, "te_linear_scan",
             ("A", "Xs", "H", "stride", "N"), args, {"BLOCK": 1024}, (R,),
             "fp32 linear recurrence h = a h + x by tl.associative_scan, 512 rows of 1,000 (BLOCK 1,024, masked), num_warps=4; rel. error %.2e" % err)

    def mm_fp8():
        M, N, K = 512, 512, 1024
        a = (torch.randn((M, K), device=dev) * 0.5).to(torch.float8_e4m3fn)
        bt = (torch.randn((N, K), device=dev) * 0.5).to(torch.float8_e4m3fn)
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        grid = (M // 128, N // 64)
        args = (a, bt, c, M, N, K, a.stride(0), bt.stride(0), c.stride(0))
        ce = {"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 128}
        h = te_matmul_fp8[grid](*args, num_warps=4, num_stages=3, **ce)
        torch.cuda.synchronize()
        err = rel(c, a.float() @ bt.float().t())
        save(out, launches, "te_matmul_fp8", h, "te_matmul_fp8",
             ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bn", "stride_cm"), args, ce, grid,
             "fp8 e4m3 512 x 512 x 1,024, B stored K-major (N x K), 128 x 64 x 128 tiles, fp16 out, num_warps=4, num_stages=3; rel. error %.2e" % err)

    for lid, f in (("te_flash_decode_split", fdec_split), ("te_flash_decode_reduce", fdec_reduce),
                   ("te_grouped_gemm", grouped), ("te_add_rmsnorm", addrms), ("te_rope_gather", rope),
                   ("te_linear_scan", linscan), ("te_matmul_fp8", mm_fp8)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-22s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
