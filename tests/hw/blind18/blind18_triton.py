#!/usr/bin/env python3
"""Triton kernels of the eighteenth held-out batch (tests/hw/blind18), the launch
and save code copied from tests/hw/blind17/blind17_triton.py; kernels in styles
the earlier Triton batches do not have (our own code, nothing copied): a
PyTorch-Linear GEMM x W^T + bias through `tl.trans` (num_stages=3), an ELL SpMV
with loaded column indices, a bilinear resize of fp16 NHWC images (16-byte
pixels), a 4-bit codebook dequantisation by `tl.gather` on a [16] codebook with
`tl.interleave` of the nibbles, a group-wise int4 quantiser packing nibbles by
`tl.reshape` / `tl.split`, a vertical 7-tap FIR unrolled by `tl.static_range`,
an Inductor-style broadcast multiply-add over a flattened 3-D index, a fused
residual-add + RMSNorm in bf16 storing both outputs, a 5-point Laplacian through
five `tl.make_block_ptr` views (negative offsets, `boundary_check`, zero
padding), and a 1-D linear interpolation (F.interpolate mode='linear'). Each
runs once; the script is run under ncu with `-k regex:^t18_`
(tests/hw/blind18/measure_blind18.sh). Writes OUT/ID.{ptx,cubin,json} and
OUT/triton_launches.json (PTX paths named tests/hw/blind18/triton/ID.ptx). A
kernel that fails to compile or run is reported and left out.

  python3 tests/hw/blind18/blind18_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def t18_linear_abt(X, Wt, Bias, Y, M, N, K, sxm, swn, sym,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # PyTorch Linear: Y = X W^T + b, W stored [N, K] (K-major), its tile transposed by tl.trans
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        x = tl.load(X + rm[:, None] * sxm + (k0 + rk)[None, :], mask=rm[:, None] < M, other=0.0)
        w = tl.load(Wt + rn[:, None] * swn + (k0 + rk)[None, :], mask=rn[:, None] < N, other=0.0)
        acc = tl.dot(x, tl.trans(w), acc)
    b = tl.load(Bias + rn, mask=rn < N, other=0.0)
    acc += b[None, :].to(tl.float32)
    tl.store(Y + rm[:, None] * sym + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def t18_ell_spmv(Cols, Vals, X, Y, R, W: tl.constexpr, BLOCK_R: tl.constexpr):
    # ELLPACK SpMV: [R, W] column indices (-1 padding) and values, x gathered at the loaded columns
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    rm = r < R
    j = tl.arange(0, W)
    c = tl.load(Cols + r[:, None] * W + j[None, :], mask=rm[:, None], other=-1)
    v = tl.load(Vals + r[:, None] * W + j[None, :], mask=rm[:, None], other=0.0)
    xv = tl.load(X + c, mask=c >= 0, other=0.0)
    tl.store(Y + r, tl.sum(v * xv, axis=1), mask=rm)


@triton.jit
def t18_resize_bilinear_nhwc(In, Out, H, W, OH, OW, sh, sw, C: tl.constexpr, BLOCK_P: tl.constexpr):
    # bilinear resize (align_corners False) of NHWC images, C channels a pixel loaded together
    n = tl.program_id(1)
    p = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    pm = p < OH * OW
    oy = p // OW
    ox = p % OW
    fy = tl.maximum((oy.to(tl.float32) + 0.5) * sh - 0.5, 0.0)
    fx = tl.maximum((ox.to(tl.float32) + 0.5) * sw - 0.5, 0.0)
    y0 = fy.to(tl.int32)
    x0 = fx.to(tl.int32)
    y1 = tl.minimum(y0 + 1, H - 1)
    x1 = tl.minimum(x0 + 1, W - 1)
    ly = fy - y0.to(tl.float32)
    lx = fx - x0.to(tl.float32)
    c = tl.arange(0, C)
    base = In + n * H * W * C
    v00 = tl.load(base + (y0 * W + x0)[:, None] * C + c[None, :], mask=pm[:, None], other=0.0).to(tl.float32)
    v01 = tl.load(base + (y0 * W + x1)[:, None] * C + c[None, :], mask=pm[:, None], other=0.0).to(tl.float32)
    v10 = tl.load(base + (y1 * W + x0)[:, None] * C + c[None, :], mask=pm[:, None], other=0.0).to(tl.float32)
    v11 = tl.load(base + (y1 * W + x1)[:, None] * C + c[None, :], mask=pm[:, None], other=0.0).to(tl.float32)
    top = v00 + (v01 - v00) * lx[:, None]
    bot = v10 + (v11 - v10) * lx[:, None]
    o = top + (bot - top) * ly[:, None]
    tl.store(Out + n * OH * OW * C + p[:, None] * C + c[None, :], o.to(tl.float16), mask=pm[:, None])


@triton.jit
def t18_codebook_dequant_gather(Qp, Codebook, Scales, Out, C: tl.constexpr, G: tl.constexpr):
    # 4-bit codebook (NF4-style) dequantisation: nibbles split and interleaved, looked up by tl.gather
    row = tl.program_id(0)
    cb = tl.load(Codebook + tl.arange(0, 16))
    q = tl.load(Qp + row * (C // 2) + tl.arange(0, C // 2)).to(tl.int32)
    codes = tl.interleave(q & 15, q >> 4)
    vals = tl.gather(cb, codes, 0)
    k = tl.arange(0, C)
    s = tl.load(Scales + row * (C // G) + k // G)
    tl.store(Out + row * C + k, (vals * s).to(tl.float16))


@triton.jit
def t18_int4_pack_quant(X, Packed, Scales, C: tl.constexpr, G: tl.constexpr):
    # group-wise symmetric int4 quantisation (groups of G), two codes a byte via tl.reshape / tl.split
    row = tl.program_id(0)
    x = tl.load(X + row * C + tl.arange(0, C)).to(tl.float32)
    xg = tl.reshape(x, (C // G, G))
    amax = tl.max(tl.abs(xg), axis=1)
    scale = tl.where(amax == 0.0, 1.0, amax / 7.0)
    q = tl.floor(xg / scale[:, None] + 0.5)
    q = tl.minimum(tl.maximum(q, -8.0), 7.0) + 8.0
    qu = q.to(tl.uint8)
    lo, hi = tl.split(tl.reshape(qu, (C // G, G // 2, 2)))
    packed = lo | (hi << 4)
    gi = tl.arange(0, C // G)
    tl.store(Packed + row * (C // 2) + gi[:, None] * (G // 2) + tl.arange(0, G // 2)[None, :], packed)
    tl.store(Scales + row * (C // G) + gi, scale)


@triton.jit
def t18_fir_cols_static_range(X, Hc, Y, R, C, TAPS: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # vertical FIR (zero padded) of a row-major matrix, the taps unrolled by tl.static_range
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    c = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    cm = c < C
    acc = tl.zeros((BLOCK_R, BLOCK_C), dtype=tl.float32)
    for t in tl.static_range(TAPS):
        rr = r + (t - TAPS // 2)
        m = (rr >= 0) & (rr < R)
        h = tl.load(Hc + t)
        x = tl.load(X + rr[:, None] * C + c[None, :], mask=m[:, None] & cm[None, :], other=0.0)
        acc += h * x
    tl.store(Y + r[:, None] * C + c[None, :], acc, mask=(r[:, None] < R) & cm[None, :])


@triton.jit
def t18_bcast_muladd3d(A, Wv, Bias, Out, numel, I, J, XBLOCK: tl.constexpr):
    # Inductor-style pointwise kernel over a flattened [B, I, J] index: a[b, i, 0] * w[0, 0, j] + bias[b, 0, j]
    x = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    xm = x < numel
    j = x % J
    i = (x // J) % I
    b = x // (I * J)
    av = tl.load(A + (b * I + i), mask=xm, other=0.0)
    wv = tl.load(Wv + j, mask=xm, other=0.0)
    bv = tl.load(Bias + (b * J + j), mask=xm, other=0.0)
    tl.store(Out + x, av * wv + bv, mask=xm)


@triton.jit
def t18_fused_add_rmsnorm(Xp, Res, Wn, Y, ResOut, D, eps, BLOCK: tl.constexpr):
    # h = x + residual (stored as the new residual), y = h / rms(h) * w, bf16 rows
    row = tl.program_id(0)
    d = tl.arange(0, BLOCK)
    m = d < D
    x = tl.load(Xp + row * D + d, mask=m, other=0.0).to(tl.float32)
    r = tl.load(Res + row * D + d, mask=m, other=0.0).to(tl.float32)
    h = x + r
    tl.store(ResOut + row * D + d, h.to(tl.bfloat16), mask=m)
    ms = tl.sum(h * h, axis=0) / D
    w = tl.load(Wn + d, mask=m, other=0.0).to(tl.float32)
    y = h * tl.rsqrt(ms + eps) * w
    tl.store(Y + row * D + d, y.to(tl.bfloat16), mask=m)


@triton.jit
def t18_block_ptr_stencil5(X, Y, R, C, sx, sy, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # 5-point Laplacian through five block pointers (shifted views, zero padding outside the array)
    r0 = tl.program_id(0) * BLOCK_R
    c0 = tl.program_id(1) * BLOCK_C
    pc = tl.make_block_ptr(X, shape=(R, C), strides=(sx, 1), offsets=(r0, c0), block_shape=(BLOCK_R, BLOCK_C), order=(1, 0))
    pn = tl.make_block_ptr(X, shape=(R, C), strides=(sx, 1), offsets=(r0 - 1, c0), block_shape=(BLOCK_R, BLOCK_C), order=(1, 0))
    ps = tl.make_block_ptr(X, shape=(R, C), strides=(sx, 1), offsets=(r0 + 1, c0), block_shape=(BLOCK_R, BLOCK_C), order=(1, 0))
    pw = tl.make_block_ptr(X, shape=(R, C), strides=(sx, 1), offsets=(r0, c0 - 1), block_shape=(BLOCK_R, BLOCK_C), order=(1, 0))
    pe = tl.make_block_ptr(X, shape=(R, C), strides=(sx, 1), offsets=(r0, c0 + 1), block_shape=(BLOCK_R, BLOCK_C), order=(1, 0))
    c = tl.load(pc, boundary_check=(0, 1), padding_option="zero")
    n = tl.load(pn, boundary_check=(0, 1), padding_option="zero")
    s = tl.load(ps, boundary_check=(0, 1), padding_option="zero")
    w = tl.load(pw, boundary_check=(0, 1), padding_option="zero")
    e = tl.load(pe, boundary_check=(0, 1), padding_option="zero")
    py = tl.make_block_ptr(Y, shape=(R, C), strides=(sy, 1), offsets=(r0, c0), block_shape=(BLOCK_R, BLOCK_C), order=(1, 0))
    tl.store(py, n + s + w + e - 4.0 * c, boundary_check=(0, 1))


@triton.jit
def t18_interp_linear_1d(X, Y, Lin, Lout, scale, BLOCK: tl.constexpr):
    # F.interpolate(mode='linear', align_corners=False) along the last dim, a row a program row
    row = tl.program_id(0)
    o = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    om = o < Lout
    src = tl.maximum((o.to(tl.float32) + 0.5) * scale - 0.5, 0.0)
    i0 = src.to(tl.int32)
    i1 = tl.minimum(i0 + 1, Lin - 1)
    lam = src - i0.to(tl.float32)
    v0 = tl.load(X + row * Lin + i0, mask=om, other=0.0)
    v1 = tl.load(X + row * Lin + i1, mask=om, other=0.0)
    tl.store(Y + row * Lout + o, v0 + (v1 - v0) * lam, mask=om)


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
        "id": lid, "order": len(launches), "module": "blind18_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind18/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(18018)
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

    def linear():
        M, N, K = 777, 512, 384
        x = torch.randn((M, K), device=dev, dtype=torch.float16)
        w = torch.randn((N, K), device=dev, dtype=torch.float16) * 0.1
        b = torch.randn((N,), device=dev, dtype=torch.float16)
        y = torch.empty((M, N), device=dev, dtype=torch.float16)
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 128))
        args = (x, w, b, y, M, N, K, x.stride(0), w.stride(0), y.stride(0))
        h = t18_linear_abt[grid](*args, BLOCK_M=64, BLOCK_N=128, BLOCK_K=64, num_warps=4, num_stages=3)
        torch.cuda.synchronize()
        save(out, launches, "t18_linear_abt", h, "t18_linear_abt", ("X", "Wt", "Bias", "Y", "M", "N", "K", "sxm", "swn", "sym"),
             args, {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64}, grid,
             "PyTorch Linear y = x W^T + b: fp16 x [777, 384], W [512, 384] (K-major, its [128, 64] tile transposed by tl.trans), 64 x 128 x 64 tiles, grid (13, 4), ragged M (the last block 9 rows), num_warps=4, num_stages=3; rel. error %.2e" % rel(y, x.float() @ w.float().t() + b.float()))

    def ell():
        R, Wd = 100003, 16
        cnt = torch.randint(4, Wd + 1, (R,), device=dev)
        off = torch.randint(-500, 501, (R, Wd), device=dev)
        cols = (torch.arange(R, device=dev)[:, None] + off).clamp(0, R - 1)
        cols, _ = cols.sort(1)
        j = torch.arange(Wd, device=dev)[None, :]
        cols = torch.where(j < cnt[:, None], cols, torch.full_like(cols, -1)).to(torch.int32).contiguous()
        vals = torch.where(cols >= 0, torch.randn((R, Wd), device=dev), torch.zeros((R, Wd), device=dev)).contiguous()
        x = torch.randn((R,), device=dev)
        y = torch.empty((R,), device=dev)
        grid = (triton.cdiv(R, 64),)
        args = (cols, vals, x, y, R)
        h = t18_ell_spmv[grid](*args, W=Wd, BLOCK_R=64, num_warps=4)
        torch.cuda.synchronize()
        ref = (vals.double() * x.double()[cols.clamp(min=0).long()]).sum(1)
        save(out, launches, "t18_ell_spmv", h, "t18_ell_spmv", ("Cols", "Vals", "X", "Y", "R"), args, {"W": Wd, "BLOCK_R": 64}, grid,
             "ELLPACK SpMV: 100,003 rows of width 16 (4..16 entries, -1 padding), columns row + [-500, 500] sorted (a band), int32 columns and fp32 values [R, 16] row-major, x gathered at the loaded columns (masked c >= 0), [64, 16] blocks, 1,563 programs, num_warps=4; rel. error %.2e" % rel(y, ref))

    def resize():
        Nb, H, W, C, OH, OW = 4, 240, 320, 8, 360, 500
        xin = torch.rand((Nb, H, W, C), device=dev, dtype=torch.float16)
        o = torch.empty((Nb, OH, OW, C), device=dev, dtype=torch.float16)
        grid = (triton.cdiv(OH * OW, 128), Nb)
        args = (xin, o, H, W, OH, OW, H / OH, W / OW)
        h = t18_resize_bilinear_nhwc[grid](*args, C=C, BLOCK_P=128, num_warps=4)
        torch.cuda.synchronize()
        ref = F.interpolate(xin.permute(0, 3, 1, 2).float(), size=(OH, OW), mode="bilinear", align_corners=False).permute(0, 2, 3, 1)
        save(out, launches, "t18_resize_bilinear_nhwc", h, "t18_resize_bilinear_nhwc", ("In", "Out", "H", "W", "OH", "OW", "sh", "sw"),
             args, {"C": C, "BLOCK_P": 128}, grid,
             "bilinear resize (align_corners False) of fp16 NHWC [4, 240, 320, 8] to [4, 360, 500, 8]: 16-byte pixels, a [128, 8] block of output pixels, four corner gathers, grid (1,407, 4), num_warps=4; rel. error %.2e" % rel(o, ref))

    def codebook():
        R, C, G = 2048, 4096, 64
        cb = torch.sort(torch.randn((16,), device=dev))[0]
        codes = torch.randint(0, 16, (R, C), device=dev, dtype=torch.int32)
        qp = (codes[:, 0::2] | (codes[:, 1::2] << 4)).to(torch.uint8).contiguous()
        sc = torch.rand((R, C // G), device=dev) + 0.5
        o = torch.empty((R, C), device=dev, dtype=torch.float16)
        args = (qp, cb, sc, o)
        h = t18_codebook_dequant_gather[(R,)](*args, C=C, G=G, num_warps=8)
        torch.cuda.synchronize()
        ref = cb[codes.long()] * sc.repeat_interleave(G, 1)
        save(out, launches, "t18_codebook_dequant_gather", h, "t18_codebook_dequant_gather", ("Qp", "Codebook", "Scales", "Out"),
             args, {"C": C, "G": G}, (R,),
             "4-bit codebook (NF4-style) dequantisation of [2,048, 4,096]: packed uint8 codes (2,048 bytes a row), low / high nibbles by tl.interleave, values by tl.gather from a [16] fp32 codebook, fp32 scales a group of 64 (repeated addresses), fp16 out, a program a row, num_warps=8; rel. error %.2e" % rel(o, ref))

    def int4q():
        R, C, G = 4096, 2048, 32
        x = torch.randn((R, C), device=dev, dtype=torch.float16)
        pk = torch.empty((R, C // 2), device=dev, dtype=torch.uint8)
        sc = torch.empty((R, C // G), device=dev, dtype=torch.float32)
        args = (x, pk, sc)
        h = t18_int4_pack_quant[(R,)](*args, C=C, G=G, num_warps=4)
        torch.cuda.synchronize()
        xg = x.float().view(R, C // G, G)
        s = xg.abs().amax(2) / 7.0
        s = torch.where(s == 0, torch.ones_like(s), s)
        q = (torch.floor(xg / s[..., None] + 0.5).clamp(-8, 7) + 8).to(torch.uint8).view(R, C // 2, 2)
        refp = q[..., 0] | (q[..., 1] << 4)
        bad = int((pk != refp).sum())
        save(out, launches, "t18_int4_pack_quant", h, "t18_int4_pack_quant", ("X", "Packed", "Scales"), args, {"C": C, "G": G}, (R,),
             "group-wise int4 quantisation of fp16 [4,096, 2,048], groups of 32: absmax / 7 scales (fp32 [4,096, 64]), codes + 8 packed two a byte by tl.reshape to [64, 16, 2] and tl.split, uint8 [4,096, 1,024] stored, a program a row, num_warps=4; %d of 4,194,304 bytes differ, scales rel. error %.2e" % (bad, rel(sc, s)))

    def fir():
        R, C, T = 3000, 1000, 7
        x = torch.randn((R, C), device=dev)
        hc = torch.tensor([0.05, -0.1, 0.25, 0.6, 0.25, -0.1, 0.05], device=dev)
        y = torch.empty_like(x)
        grid = (triton.cdiv(R, 32), triton.cdiv(C, 64))
        args = (x, hc, y, R, C)
        h = t18_fir_cols_static_range[grid](*args, TAPS=T, BLOCK_R=32, BLOCK_C=64, num_warps=4)
        torch.cuda.synchronize()
        ref = F.conv2d(x[None, None], hc.flip(0)[None, None, :, None], padding=(3, 0))[0, 0]
        save(out, launches, "t18_fir_cols_static_range", h, "t18_fir_cols_static_range", ("X", "Hc", "Y", "R", "C"), args,
             {"TAPS": T, "BLOCK_R": 32, "BLOCK_C": 64}, grid,
             "vertical 7-tap FIR (zero padded) of fp32 [3,000, 1,000] (4,000-byte rows): the taps unrolled by tl.static_range, rows r - 3 .. r + 3 masked at the edges, [32, 64] tiles, grid (94, 16), ragged columns (the last 40 of 64), num_warps=4; rel. error %.2e" % rel(y, ref))

    def bcast():
        B, I, J = 16, 300, 257
        a = torch.randn((B, I, 1), device=dev)
        w = torch.randn((1, 1, J), device=dev)
        bias = torch.randn((B, 1, J), device=dev)
        o = torch.empty((B, I, J), device=dev)
        numel = B * I * J
        grid = (triton.cdiv(numel, 1024),)
        args = (a, w, bias, o, numel, I, J)
        h = t18_bcast_muladd3d[grid](*args, XBLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        save(out, launches, "t18_bcast_muladd3d", h, "t18_bcast_muladd3d", ("A", "Wv", "Bias", "Out", "numel", "I", "J"), args,
             {"XBLOCK": 1024}, grid,
             "Inductor-style pointwise a[b, i, 0] * w[0, 0, j] + bias[b, 0, j] over a flattened [16, 300, 257] index (j = x %% 257, i = x / 257 %% 300, b = x / 77,100): broadcast loads with repeated addresses, 1,205 programs of 1,024, num_warps=4; rel. error %.2e" % rel(o, a * w + bias))

    def addrms():
        R, D = 8192, 1000
        x = torch.randn((R, D), device=dev, dtype=torch.bfloat16)
        res = torch.randn((R, D), device=dev, dtype=torch.bfloat16)
        wn = torch.rand((D,), device=dev, dtype=torch.bfloat16) + 0.5
        y = torch.empty_like(x)
        ro = torch.empty_like(x)
        args = (x, res, wn, y, ro, D, 1e-6)
        h = t18_fused_add_rmsnorm[(R,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        hh = (x.float() + res.float())
        ref = hh * torch.rsqrt(hh.pow(2).mean(1, keepdim=True) + 1e-6) * wn.float()
        save(out, launches, "t18_fused_add_rmsnorm", h, "t18_fused_add_rmsnorm", ("Xp", "Res", "Wn", "Y", "ResOut", "D", "eps"), args,
             {"BLOCK": 1024}, (R,),
             "fused residual add + RMSNorm (vLLM fused_add_rms_norm style) of bf16 [8,192, 1,000] (2,000-byte rows): h = x + residual stored as the new residual, y = h rsqrt(mean(h^2) + eps) w, a [1,024] block masked to 1,000, num_warps=4; rel. error %.2e (residual %.2e)" % (rel(y, ref), rel(ro, hh)))

    def stencil():
        R, C = 2000, 1500
        x = torch.randn((R, C), device=dev)
        y = torch.empty_like(x)
        grid = (triton.cdiv(R, 32), triton.cdiv(C, 128))
        args = (x, y, R, C, x.stride(0), y.stride(0))
        h = t18_block_ptr_stencil5[grid](*args, BLOCK_R=32, BLOCK_C=128, num_warps=4)
        torch.cuda.synchronize()
        k = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]], device=dev)
        ref = F.conv2d(x[None, None], k[None, None], padding=1)[0, 0]
        save(out, launches, "t18_block_ptr_stencil5", h, "t18_block_ptr_stencil5", ("X", "Y", "R", "C", "sx", "sy"), args,
             {"BLOCK_R": 32, "BLOCK_C": 128}, grid,
             "5-point Laplacian of fp32 [2,000, 1,500] (6,000-byte rows) through five tl.make_block_ptr views at offsets (0, 0), (-1, 0), (1, 0), (0, -1), (0, 1) with boundary_check=(0, 1) and padding_option='zero', stored through a block pointer, [32, 128] tiles, grid (63, 12), num_warps=4; rel. error %.2e" % rel(y, ref))

    def interp():
        NC, Lin, Lout = 512, 700, 1000
        x = torch.randn((NC, Lin), device=dev)
        y = torch.empty((NC, Lout), device=dev)
        grid = (NC, triton.cdiv(Lout, 256))
        args = (x, y, Lin, Lout, Lin / Lout)
        h = t18_interp_linear_1d[grid](*args, BLOCK=256, num_warps=4)
        torch.cuda.synchronize()
        ref = F.interpolate(x[None], size=Lout, mode="linear", align_corners=False)[0]
        save(out, launches, "t18_interp_linear_1d", h, "t18_interp_linear_1d", ("X", "Y", "Lin", "Lout", "scale"), args,
             {"BLOCK": 256}, grid,
             "F.interpolate(mode='linear', align_corners=False) of fp32 [512, 700] to [512, 1,000]: source index (o + 0.5) 0.7 - 0.5 clamped, two gathers within the 2,800-byte row, [256] blocks, grid (512, 4), num_warps=4; rel. error %.2e" % rel(y, ref))

    for lid, f in (("t18_linear_abt", linear), ("t18_ell_spmv", ell), ("t18_resize_bilinear_nhwc", resize),
                   ("t18_codebook_dequant_gather", codebook), ("t18_int4_pack_quant", int4q),
                   ("t18_fir_cols_static_range", fir), ("t18_bcast_muladd3d", bcast), ("t18_fused_add_rmsnorm", addrms),
                   ("t18_block_ptr_stencil5", stencil), ("t18_interp_linear_1d", interp)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-32s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
