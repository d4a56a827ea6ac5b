#!/usr/bin/env python3
"""Triton kernels of the eleventh held-out batch (tests/hw/blind11), the launch
and save code copied from tests/hw/blind10/blind10_triton.py; kernels in styles
no earlier batch has (our own code): softmax backward; a fused cross-entropy
forward + backward writing the gradient over the logits in place (chunked
online log-sum-exp, label gather); a [B, S, H, D] -> [B, H, S, D] head
permutation through tl.reshape / tl.permute on a 3-D grid (tl.program_id(2));
a row permutation by tl.gather; beam-search KV-cache reordering by loaded beam
indices; STFT framing (overlapping zero-padded frames times a window); a
complex multiply through tl.split / tl.join on interleaved pairs; bias-GELU
backward with the bias gradient accumulated by a vector tl.atomic_add; a
masked mean pool over an attention mask (data-dependent masks); an fp32
matmul with input_precision="ieee" (FMA dot, no tensor cores). Each runs once;
the script is run under ncu with `-k regex:^t11_`
(tests/hw/blind11/measure_blind11.sh). Writes OUT/ID.{ptx,cubin,json} and
OUT/triton_launches.json (PTX paths named tests/hw/blind11/triton/ID.ptx). A
kernel that fails to compile or run is reported and left out.

  python3 tests/hw/blind11/blind11_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def t11_softmax_bwd(Y, DY, DX, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    y = tl.load(Y + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    dy = tl.load(DY + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    s = tl.sum(y * dy, axis=0)
    dx = y * (dy - s)
    tl.store(DX + row * stride + cols, dx.to(tl.float16), mask=m)


@triton.jit
def t11_ce_fused_fwd_bwd(X, Lab, Loss, V, stride, inv_n, ignore_index, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = X + row * stride
    label = tl.load(Lab + row)
    m = float("-inf")
    d = 0.0
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(d)
    valid = label != ignore_index
    xl = tl.load(base + label, mask=valid, other=0.0).to(tl.float32)
    tl.store(Loss + row, tl.where(valid, lse - xl, 0.0))
    scale = tl.where(valid, inv_n, 0.0)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        x = tl.load(base + cols, mask=mask, other=0.0).to(tl.float32)
        g = (tl.exp(x - lse) - tl.where(cols == label, 1.0, 0.0)) * scale
        tl.store(base + cols, g.to(tl.bfloat16), mask=mask)


@triton.jit
def t11_permute_bshd_bhsd(X, Y, S, H: tl.constexpr, D: tl.constexpr, BS: tl.constexpr, HB: tl.constexpr):
    ps = tl.program_id(0)
    ph = tl.program_id(1)
    b = tl.program_id(2)
    s = ps * BS + tl.arange(0, BS)
    c = tl.arange(0, HB * D)
    smask = s < S
    x = tl.load(X + b * S * H * D + s[:, None] * (H * D) + ph * HB * D + c[None, :], mask=smask[:, None], other=0.0)
    t = tl.reshape(x, (BS, HB, D))
    t = tl.permute(t, (1, 0, 2))
    hh = tl.arange(0, HB)
    dd = tl.arange(0, D)
    off = b * H * S * D + (ph * HB + hh)[:, None, None] * (S * D) + s[None, :, None] * D + dd[None, None, :]
    tl.store(Y + off, t, mask=smask[None, :, None])


@triton.jit
def t11_gather_rowperm(X, Idx, Y, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * N + cols)
    idx = tl.load(Idx + row * N + cols)
    y = tl.gather(x, idx, 0)
    tl.store(Y + row * N + cols, y)


@triton.jit
def t11_beam_kv_reorder(Src, Beam, Dst, S, H: tl.constexpr, D: tl.constexpr, BLOCK_S: tl.constexpr):
    ps = tl.program_id(0)
    h = tl.program_id(1)
    b = tl.program_id(2)
    src_b = tl.load(Beam + b)
    s = ps * BLOCK_S + tl.arange(0, BLOCK_S)
    d = tl.arange(0, D)
    m = (s < S)[:, None]
    src = Src + ((src_b * H + h) * S + s[:, None]).to(tl.int64) * D + d[None, :]
    v = tl.load(src, mask=m, other=0.0)
    dst = Dst + ((b * H + h) * S + s[:, None]).to(tl.int64) * D + d[None, :]
    tl.store(dst, v, mask=m)


@triton.jit
def t11_stft_frames(X, Win, Out, L, NF, hop, pad, WIN: tl.constexpr, BLOCK_F: tl.constexpr, BLOCK_K: tl.constexpr):
    pf = tl.program_id(0)
    b = tl.program_id(1)
    f = pf * BLOCK_F + tl.arange(0, BLOCK_F)
    k = tl.arange(0, BLOCK_K)
    pos = f[:, None] * hop - pad + k[None, :]
    kmask = k < WIN
    fmask = f < NF
    m = fmask[:, None] & kmask[None, :] & (pos >= 0) & (pos < L)
    x = tl.load(X + b * L + pos, mask=m, other=0.0)
    w = tl.load(Win + k, mask=kmask, other=0.0)
    tl.store(Out + (b * NF + f[:, None]) * WIN + k[None, :], x * w[None, :], mask=fmask[:, None] & kmask[None, :])


@triton.jit
def t11_complex_mul_split(X, Hh, Y, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    i = pid * BLOCK + tl.arange(0, BLOCK)
    j = tl.arange(0, 2)
    off = i[:, None] * 2 + j[None, :]
    m = (i < n)[:, None]
    x = tl.load(X + off, mask=m, other=0.0)
    h = tl.load(Hh + off, mask=m, other=0.0)
    xr, xi = tl.split(x)
    hr, hi = tl.split(h)
    y = tl.join(xr * hr - xi * hi, xr * hi + xi * hr)
    tl.store(Y + off, y, mask=m)


@triton.jit
def t11_bias_gelu_bwd(DY, X, Bias, DX, DB, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    r = pm * BLOCK_M + tl.arange(0, BLOCK_M)
    c = pn * BLOCK_N + tl.arange(0, BLOCK_N)
    cm = c < N
    m = (r < M)[:, None] & cm[None, :]
    off = r[:, None] * N + c[None, :]
    dy = tl.load(DY + off, mask=m, other=0.0).to(tl.float32)
    x = tl.load(X + off, mask=m, other=0.0).to(tl.float32)
    b = tl.load(Bias + c, mask=cm, other=0.0).to(tl.float32)
    z = x + b[None, :]
    k0 = 0.7978845608028654
    u = k0 * (z + 0.044715 * z * z * z)
    th = 2.0 * tl.sigmoid(2.0 * u) - 1.0
    dgelu = 0.5 * (1.0 + th) + 0.5 * z * (1.0 - th * th) * k0 * (1.0 + 3.0 * 0.044715 * z * z)
    dx = dy * dgelu
    tl.store(DX + off, dx.to(tl.float16), mask=m)
    tl.atomic_add(DB + c, tl.sum(dx, axis=0), mask=cm)


@triton.jit
def t11_masked_mean_pool(Hs, Mask, Out, S, D, BLOCK_S: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    pd = tl.program_id(1)
    d = pd * BLOCK_D + tl.arange(0, BLOCK_D)
    dm = d < D
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    cnt = 0.0
    for s0 in range(0, S, BLOCK_S):
        s = s0 + tl.arange(0, BLOCK_S)
        am = tl.load(Mask + b * S + s, mask=s < S, other=0)
        keep = am != 0
        h = tl.load(Hs + (b * S + s[:, None]).to(tl.int64) * D + d[None, :], mask=keep[:, None] & dm[None, :], other=0.0)
        acc += tl.sum(h.to(tl.float32), axis=0)
        cnt += tl.sum(keep.to(tl.float32), axis=0)
    tl.store(Out + b * D + d, acc / tl.maximum(cnt, 1.0), mask=dm)


@triton.jit
def t11_matmul_ieee(A, B, C, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pn * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(A + rm[:, None] * K + (k0 + rk)[None, :], mask=(rm < M)[:, None] & ((k0 + rk) < K)[None, :], other=0.0)
        b = tl.load(B + (k0 + rk)[:, None] * N + rn[None, :], mask=((k0 + rk) < K)[:, None] & (rn < N)[None, :], other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm < M)[:, None] & (rn < N)[None, :])


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
        "id": lid, "order": len(launches), "module": "blind11_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind11/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(11010)
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


    def softmax_bwd():
        M, N = 4096, 1000
        y = torch.softmax(torch.randn((M, N), device=dev), dim=1).to(torch.float16)
        dy = torch.randn((M, N), device=dev, dtype=torch.float16)
        dx = torch.empty_like(y)
        args = (y, dy, dx, N, y.stride(0))
        h = t11_softmax_bwd[(M,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        yf, dyf = y.float(), dy.float()
        ref = yf * (dyf - (yf * dyf).sum(1, keepdim=True))
        save(out, launches, "t11_softmax_bwd", h, "t11_softmax_bwd", ("Y", "DY", "DX", "N", "stride"), args, {"BLOCK": 1024}, (M,),
             "softmax backward dx = y (dy - sum(y dy)) over 4,096 fp16 rows of 1,000 (2,000-byte rows), BLOCK 1,024, num_warps=4; rel. error %.2e" % rel(dx, ref))

    def ce():
        B, V = 512, 32003
        x = (torch.randn((B, V), device=dev) * 2).to(torch.bfloat16)
        lab = torch.randint(0, V, (B,), device=dev, dtype=torch.int64)
        lab[::17] = -100
        x0 = x.float().clone()
        loss = torch.empty((B,), device=dev, dtype=torch.float32)
        nvalid = int((lab != -100).sum().item())
        args = (x, lab, loss, V, x.stride(0), 1.0 / nvalid, -100)
        h = t11_ce_fused_fwd_bwd[(B,)](*args, BLOCK=4096, num_warps=8)
        torch.cuda.synchronize()
        xr = x0.clone().requires_grad_()
        lr = torch.nn.functional.cross_entropy(xr, lab, ignore_index=-100, reduction="none")
        lr.sum().div(nvalid).backward()
        err = max(rel(loss, lr.detach()), rel(x, xr.grad))
        save(out, launches, "t11_ce_fused_fwd_bwd", h, "t11_ce_fused_fwd_bwd", ("X", "Lab", "Loss", "V", "stride", "inv_n", "ignore_index"),
             args, {"BLOCK": 4096}, (B,),
             "fused cross-entropy forward + backward (Liger style): 512 bf16 rows of 32,003 logits (64,006-byte rows), a chunked online log-sum-exp over 8 chunks of 4,096 (the last 3,331 valid, other=-inf), the label logit gathered (every 17th label ignored: -100, masked), then the gradient written over the logits in place, num_warps=8; rel. error %.2e" % err)

    def permute():
        B, S, H, D = 4, 1000, 16, 64
        x = torch.randn((B, S, H, D), device=dev, dtype=torch.float16)
        y = torch.empty((B, H, S, D), device=dev, dtype=torch.float16)
        grid = (triton.cdiv(S, 32), H // 4, B)
        args = (x, y, S)
        h = t11_permute_bshd_bhsd[grid](*args, H=H, D=D, BS=32, HB=4, num_warps=4)
        torch.cuda.synchronize()
        save(out, launches, "t11_permute_bshd_bhsd", h, "t11_permute_bshd_bhsd", ("X", "Y", "S"), args,
             {"H": H, "D": D, "BS": 32, "HB": 4}, grid,
             "[B, S, H, D] -> [B, H, S, D] fp16 (4, 1,000, 16, 64) on a 3-D grid (32 sequence blocks, 4 head groups, tl.program_id(2) the batch): a [32, 256] tile (512 bytes of each token row) loaded, tl.reshape to [32, 4, 64], tl.permute to [4, 32, 64], stored as four 4-KiB runs; the last sequence block 8 valid, num_warps=4; rel. error %.2e" % rel(y, x.permute(0, 2, 1, 3)))

    def gather():
        M, N = 2048, 512
        x = torch.randn((M, N), device=dev, dtype=torch.float32)
        idx = torch.argsort(torch.rand((M, N), device=dev), dim=1).to(torch.int32)
        y = torch.empty_like(x)
        args = (x, idx, y, N)
        h = t11_gather_rowperm[(M,)](*args, BLOCK=N, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.gather(x, 1, idx.long())
        save(out, launches, "t11_gather_rowperm", h, "t11_gather_rowperm", ("X", "Idx", "Y", "N"), args, {"BLOCK": N}, (M,),
             "a random permutation inside each row by tl.gather (axis 0): 2,048 fp32 rows of 512, int32 indices loaded, num_warps=4; rel. error %.2e" % rel(y, ref))

    def beam():
        NB, H, S, D = 8, 16, 500, 128
        src = torch.randn((NB, H, S, D), device=dev, dtype=torch.float16)
        beam_idx = torch.tensor([3, 3, 0, 7, 1, 1, 1, 5], device=dev, dtype=torch.int32)
        dst = torch.empty_like(src)
        grid = (triton.cdiv(S, 64), H, NB)
        args = (src, beam_idx, dst, S)
        h = t11_beam_kv_reorder[grid](*args, H=H, D=D, BLOCK_S=64, num_warps=4)
        torch.cuda.synchronize()
        save(out, launches, "t11_beam_kv_reorder", h, "t11_beam_kv_reorder", ("Src", "Beam", "Dst", "S"), args,
             {"H": H, "D": D, "BLOCK_S": 64}, grid,
             "beam-search KV-cache reorder: fp16 [8 beams, 16 heads, 500, 128] gathered by loaded beam indices (3, 3, 0, 7, 1, 1, 1, 5) into a new cache, [64, 128] tiles (256-byte rows), the last of 8 tiles 52 rows, 3-D grid, num_warps=4; rel. error %.2e" % rel(dst, src[beam_idx.long()]))

    def stft():
        B, L, WIN, HOP, PAD = 8, 160000, 400, 160, 200
        NF = 1 + (L + 2 * PAD - WIN) // HOP
        x = torch.randn((B, L), device=dev, dtype=torch.float32)
        win = torch.hann_window(WIN, device=dev)
        o = torch.empty((B, NF, WIN), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(NF, 16), B)
        args = (x, win, o, L, NF, HOP, PAD)
        h = t11_stft_frames[grid](*args, WIN=WIN, BLOCK_F=16, BLOCK_K=512, num_warps=4)
        torch.cuda.synchronize()
        xp = torch.nn.functional.pad(x, (PAD, PAD))
        ref = xp.unfold(1, WIN, HOP)[:, :NF] * win
        save(out, launches, "t11_stft_frames", h, "t11_stft_frames", ("X", "Win", "Out", "L", "NF", "hop", "pad"), args,
             {"WIN": WIN, "BLOCK_F": 16, "BLOCK_K": 512}, grid,
             "STFT framing: 8 fp32 signals of 160,000 samples, %d frames of 400 at hop 160 starting 200 samples before the signal (zero padding by masks), times a Hann window, [16 frames, 512] tiles (400 valid), frames 640 bytes apart and 800 bytes off, num_warps=4; rel. error %%.2e" % NF % rel(o, ref))

    def cmul():
        n = 2000003
        x = torch.randn((n, 2), device=dev, dtype=torch.float32)
        hh = torch.randn((n, 2), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        grid = (triton.cdiv(n, 1024),)
        args = (x, hh, y, n)
        h = t11_complex_mul_split[grid](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.view_as_real(torch.view_as_complex(x) * torch.view_as_complex(hh))
        save(out, launches, "t11_complex_mul_split", h, "t11_complex_mul_split", ("X", "Hh", "Y", "n"), args, {"BLOCK": 1024}, grid,
             "complex64 multiply y = x h of 2,000,003 interleaved (re, im) pairs: [1,024, 2] tiles split by tl.split, joined by tl.join, the last block 35 pairs, num_warps=4; rel. error %.2e" % rel(y, ref))

    def gelu_bwd():
        M, N = 4096, 3000
        dy = torch.randn((M, N), device=dev, dtype=torch.float16)
        x = torch.randn((M, N), device=dev, dtype=torch.float16)
        b = torch.randn((N,), device=dev, dtype=torch.float16)
        dx = torch.empty_like(x)
        db = torch.zeros((N,), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 128))
        args = (dy, x, b, dx, db, M, N)
        h = t11_bias_gelu_bwd[grid](*args, BLOCK_M=64, BLOCK_N=128, num_warps=4)
        torch.cuda.synchronize()
        z = (x.float() + b.float()).requires_grad_()
        torch.nn.functional.gelu(z, approximate="tanh").backward(dy.float())
        err = max(rel(dx, z.grad), rel(db, z.grad.sum(0)))
        save(out, launches, "t11_bias_gelu_bwd", h, "t11_bias_gelu_bwd", ("DY", "X", "Bias", "DX", "DB", "M", "N"), args,
             {"BLOCK_M": 64, "BLOCK_N": 128}, grid,
             "bias + tanh-GELU backward on fp16 4,096 x 3,000 (6,000-byte rows): [64, 128] tiles (the last column block 56 valid), dx stored, the column sums of dx added to an fp32 bias gradient by a vector tl.atomic_add (64 programs a column block), num_warps=4; rel. error %.2e" % err)

    def mean_pool():
        B, S, D = 64, 512, 768
        hs = torch.randn((B, S, D), device=dev, dtype=torch.float16)
        lens = torch.randint(1, S + 1, (B,), device=dev)
        am = (torch.arange(S, device=dev)[None, :] < lens[:, None]).to(torch.int64)
        o = torch.empty((B, D), device=dev, dtype=torch.float32)
        grid = (B, triton.cdiv(D, 256))
        args = (hs, am, o, S, D)
        h = t11_masked_mean_pool[grid](*args, BLOCK_S=64, BLOCK_D=256, num_warps=4)
        torch.cuda.synchronize()
        ref = (hs.float() * am[:, :, None]).sum(1) / am.sum(1, keepdim=True)
        save(out, launches, "t11_masked_mean_pool", h, "t11_masked_mean_pool", ("Hs", "Mask", "Out", "S", "D"), args,
             {"BLOCK_S": 64, "BLOCK_D": 256}, grid,
             "masked mean pooling (sentence embeddings): fp16 hidden states [64, 512, 768], an int64 attention mask with random lengths 1..512 loaded a block of 64 tokens at a time and used as the load mask of the [64, 256] tiles (data-dependent masks, padding tokens not read), num_warps=4; rel. error %.2e" % rel(o, ref))

    def mm_ieee():
        M, N, K = 500, 500, 512
        a = torch.randn((M, K), device=dev, dtype=torch.float32)
        b = torch.randn((K, N), device=dev, dtype=torch.float32)
        c = torch.empty((M, N), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
        args = (a, b, c, M, N, K)
        h = t11_matmul_ieee[grid](*args, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, num_warps=4, num_stages=2)
        torch.cuda.synchronize()
        save(out, launches, "t11_matmul_ieee", h, "t11_matmul_ieee", ("A", "B", "C", "M", "N", "K"), args,
             {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, grid,
             "fp32 matmul 500 x 500 x 512 with tl.dot(input_precision=\"ieee\") (FMA, no tensor cores): 64 x 64 x 32 tiles, masked edges (the last tiles 52 wide), rows 2,000 / 2,048 bytes, num_warps=4, num_stages=2; rel. error %.2e" % rel(c, a.double() @ b.double()))

    for lid, f in (("t11_softmax_bwd", softmax_bwd), ("t11_ce_fused_fwd_bwd", ce), ("t11_permute_bshd_bhsd", permute),
                   ("t11_gather_rowperm", gather), ("t11_beam_kv_reorder", beam), ("t11_stft_frames", stft),
                   ("t11_complex_mul_split", cmul), ("t11_bias_gelu_bwd", gelu_bwd), ("t11_masked_mean_pool", mean_pool),
                   ("t11_matmul_ieee", mm_ieee)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-26s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
