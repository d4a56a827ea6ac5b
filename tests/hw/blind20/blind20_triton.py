#!/usr/bin/env python3
"""Triton kernels of the twentieth held-out batch (tests/hw/blind20), the launch
and save code copied from tests/hw/blind19/blind19_triton.py; kernels in styles
the earlier Triton batches do not have (our own code, nothing copied): an
embedding bag with offsets and per-sample weights (a loop between loaded
offsets), a linear recurrence h = a h + x by tl.associative_scan of pairs, a
2-D transpose through tl.trans of ragged tiles, a softmax over the channel
axis of NCL (strided reduction), an EMA over a list of tensors through a
table of pointers (multi-tensor apply), T5's relative-position bucket bias
(log buckets, a table gather), Swin's shifted-window partition (roll and
unfold), pairwise box IoU of AoS boxes, a confusion matrix by tl.atomic_add
and a row top-k by iterated max with scalar stores. Each runs once; the
script is run under ncu with `-k regex:^t20_`
(tests/hw/blind20/measure_blind20.sh). Writes OUT/ID.{ptx,cubin,json} and
OUT/triton_launches.json (PTX paths named tests/hw/blind20/triton/ID.ptx). A
kernel that fails to compile or run is reported and left out.

  python3 tests/hw/blind20/blind20_triton.py OUT
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
def t20_embedding_bag_offsets(W, Idx, Off, Psw, Out, D: tl.constexpr):
    # nn.EmbeddingBag(mode='sum') with per_sample_weights: a program a bag, its entries between
    # two loaded offsets, a weighted row gathered an entry
    b = tl.program_id(0)
    d = tl.arange(0, D)
    start = tl.load(Off + b)
    end = tl.load(Off + b + 1)
    acc = tl.zeros((D,), tl.float32)
    for i in range(start, end):
        row = tl.load(Idx + i)
        w = tl.load(Psw + i)
        acc += w * tl.load(W + row * D + d)
    tl.store(Out + b * D + d, acc)


@triton.jit
def _linrec_combine(a1, x1, a2, x2):
    return a1 * a2, a2 * x1 + x2


@triton.jit
def t20_linrec_assoc_scan(A, X, H, L, BLOCK: tl.constexpr):
    # h_t = a_t h_{t-1} + x_t along each row, by a parallel scan of (a, x) pairs
    row = tl.program_id(0)
    t = tl.arange(0, BLOCK)
    m = t < L
    a = tl.load(A + row * L + t, mask=m, other=1.0)
    x = tl.load(X + row * L + t, mask=m, other=0.0)
    _, h = tl.associative_scan((a, x), axis=0, combine_fn=_linrec_combine)
    tl.store(H + row * L + t, h, mask=m)


@triton.jit
def t20_transpose_tltrans(X, Y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # Y = X^T of a ragged fp32 matrix, a [BM, BN] tile loaded, tl.trans, stored as [BN, BM]
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    x = tl.load(X + rm[:, None] * N + rn[None, :], mask=(rm[:, None] < M) & (rn[None, :] < N), other=0.0)
    xt = tl.trans(x)
    tl.store(Y + rn[:, None] * M + rm[None, :], xt, mask=(rn[:, None] < N) & (rm[None, :] < M))


@triton.jit
def t20_softmax_dim1_ncl(X, Y, C, L, BLOCK_C: tl.constexpr, BLOCK_L: tl.constexpr):
    # softmax over the channel axis of an NCL tensor: a [C, BLOCK_L] tile a program, reduced on axis 0
    b = tl.program_id(1)
    rl = tl.program_id(0) * BLOCK_L + tl.arange(0, BLOCK_L)
    rc = tl.arange(0, BLOCK_C)
    m = (rc[:, None] < C) & (rl[None, :] < L)
    base = b * C * L
    x = tl.load(X + base + rc[:, None] * L + rl[None, :], mask=m, other=-float("inf"))
    mx = tl.max(x, axis=0)
    e = tl.exp(x - mx[None, :])
    e = tl.where(m, e, 0.0)
    s = tl.sum(e, axis=0)
    tl.store(Y + base + rc[:, None] * L + rl[None, :], e / s[None, :], mask=m)


@triton.jit
def t20_multi_tensor_ema(PPtrs, EPtrs, Sizes, ChunkT, ChunkS, decay, CHUNK: tl.constexpr):
    # EMA of a list of parameters (multi-tensor apply): a program a chunk, its tensor's parameter
    # and EMA addresses loaded from tables of pointers, the tensor's tail masked
    c = tl.program_id(0)
    t = tl.load(ChunkT + c)
    s0 = tl.load(ChunkS + c)
    n = tl.load(Sizes + t)
    p_ptr = tl.load(PPtrs + t).to(tl.pointer_type(tl.float32))
    e_ptr = tl.load(EPtrs + t).to(tl.pointer_type(tl.float32))
    offs = s0 + tl.arange(0, CHUNK)
    m = offs < n
    p = tl.load(p_ptr + offs, mask=m, other=0.0)
    e = tl.load(e_ptr + offs, mask=m, other=0.0)
    tl.store(e_ptr + offs, decay * e + (1.0 - decay) * p, mask=m)


@triton.jit
def t20_t5_relpos_bias(Bias, Out, Q, K, H: tl.constexpr, NB: tl.constexpr, LOGR: tl.constexpr,
                       BQ: tl.constexpr, BK: tl.constexpr):
    # T5 bidirectional relative-position buckets (exact below 8, logarithmic to the maximum distance,
    # LOGR = log(max_distance / 8)), the bias of head h gathered from a [NB, H] table, out [H, Q, K]
    h = tl.program_id(2)
    rq = tl.program_id(0) * BQ + tl.arange(0, BQ)
    rk = tl.program_id(1) * BK + tl.arange(0, BK)
    rel = rk[None, :] - rq[:, None]
    half = NB // 2
    exact = half // 2
    bucket = tl.where(rel > 0, half, 0)
    n = tl.abs(rel)
    nf = tl.maximum(n, 1).to(tl.float32)
    large = exact + (tl.log(nf / exact) / LOGR * (half - exact)).to(tl.int32)
    large = tl.minimum(large, half - 1)
    bucket += tl.where(n < exact, n, large)
    m = (rq[:, None] < Q) & (rk[None, :] < K)
    v = tl.load(Bias + bucket * H + h, mask=m, other=0.0)
    tl.store(Out + (h * Q + rq[:, None]) * K + rk[None, :], v, mask=m)


@triton.jit
def t20_swin_shift_window_partition(X, Out, Hh, Ww, C, SHIFT: tl.constexpr, WS: tl.constexpr,
                                    BT: tl.constexpr, BC: tl.constexpr):
    # Swin: torch.roll(x, (-s, -s), (1, 2)) then the 7 x 7 window partition of NHWC, a program a window
    win = tl.program_id(0)
    nwx = Ww // WS
    nwin = (Hh // WS) * nwx
    b = win // nwin
    wy = (win % nwin) // nwx
    wx = win % nwx
    t = tl.arange(0, BT)
    c = tl.arange(0, BC)
    tm = t < WS * WS
    cm = c < C
    y = (wy * WS + t // WS + SHIFT) % Hh
    x = (wx * WS + t % WS + SHIFT) % Ww
    src = ((b * Hh + y) * Ww + x) * C
    v = tl.load(X + src[:, None] + c[None, :], mask=tm[:, None] & cm[None, :], other=0.0)
    tl.store(Out + (win * WS * WS + t[:, None]) * C + c[None, :], v, mask=tm[:, None] & cm[None, :])


@triton.jit
def t20_box_iou_pairwise(A, B, Out, N, M, BN: tl.constexpr, BM: tl.constexpr):
    # pairwise IoU of [N, 4] and [M, 4] boxes (x1, y1, x2, y2: 16-byte AoS records read by field)
    rn = tl.program_id(0) * BN + tl.arange(0, BN)
    rm = tl.program_id(1) * BM + tl.arange(0, BM)
    an = rn < N
    bm = rm < M
    ax1 = tl.load(A + rn * 4 + 0, mask=an, other=0.0)
    ay1 = tl.load(A + rn * 4 + 1, mask=an, other=0.0)
    ax2 = tl.load(A + rn * 4 + 2, mask=an, other=0.0)
    ay2 = tl.load(A + rn * 4 + 3, mask=an, other=0.0)
    bx1 = tl.load(B + rm * 4 + 0, mask=bm, other=0.0)
    by1 = tl.load(B + rm * 4 + 1, mask=bm, other=0.0)
    bx2 = tl.load(B + rm * 4 + 2, mask=bm, other=0.0)
    by2 = tl.load(B + rm * 4 + 3, mask=bm, other=0.0)
    iw = tl.maximum(tl.minimum(ax2[:, None], bx2[None, :]) - tl.maximum(ax1[:, None], bx1[None, :]), 0.0)
    ih = tl.maximum(tl.minimum(ay2[:, None], by2[None, :]) - tl.maximum(ay1[:, None], by1[None, :]), 0.0)
    inter = iw * ih
    area_a = (ax2 - ax1) * (ay2 - ay1)
    area_b = (bx2 - bx1) * (by2 - by1)
    iou = inter / (area_a[:, None] + area_b[None, :] - inter)
    tl.store(Out + rn[:, None] * M + rm[None, :], iou, mask=an[:, None] & bm[None, :])


@triton.jit
def t20_confusion_matrix_atomic(Pred, Tgt, CM, n, ignore, C: tl.constexpr, BLOCK: tl.constexpr):
    # segmentation confusion matrix: int64 predictions and targets, ignored pixels masked,
    # one tl.atomic_add of 1 at target * C + pred a pixel
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    p = tl.load(Pred + offs, mask=m, other=0)
    t = tl.load(Tgt + offs, mask=m, other=ignore)
    ok = m & (t != ignore)
    tl.atomic_add(CM + t * C + p, tl.full((BLOCK,), 1, tl.int32), mask=ok)


@triton.jit
def t20_topk_iterative_max(X, Vals, Idx, V, stride, KTOP: tl.constexpr, BLOCK: tl.constexpr):
    # row top-k by k rounds of max / argmax, the winner masked out each round, scalar stores
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * stride + cols, mask=cols < V, other=-float("inf"))
    for i in tl.static_range(KTOP):
        mv = tl.max(x, axis=0)
        mi = tl.argmax(x, axis=0)
        tl.store(Vals + row * KTOP + i, mv)
        tl.store(Idx + row * KTOP + i, mi)
        x = tl.where(cols == mi, -float("inf"), x)


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
        "id": lid, "order": len(launches), "module": "blind20_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind20/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(20020)
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

    def embbag():
        NE, D, B = 50000, 64, 20000
        W = torch.randn((NE, D), device=dev)
        lens = torch.randint(0, 41, (B,), device=dev)
        off = torch.zeros((B + 1,), device=dev, dtype=torch.int64)
        off[1:] = torch.cumsum(lens, 0)
        total = int(off[-1].item())
        idx = torch.randint(0, NE, (total,), device=dev)
        psw = torch.rand((total,), device=dev)
        o = torch.empty((B, D), device=dev)
        args = (W, idx, off, psw, o)
        h = t20_embedding_bag_offsets[(B,)](*args, D=D, num_warps=2)
        torch.cuda.synchronize()
        ref = F.embedding_bag(idx, W, off[:-1], mode="sum", per_sample_weights=psw)
        save(out, launches, "t20_embedding_bag_offsets", h, "t20_embedding_bag_offsets", ("W", "Idx", "Off", "Psw", "Out"), args,
             {"D": D}, (B,),
             "nn.EmbeddingBag(mode sum) with per-sample weights: 20,000 bags of 0..40 int64 indices (%d in all) into fp32 [50,000, 64] (256-byte rows), a program a bag looping between two loaded int64 offsets, a row and a weight gathered an entry, num_warps=2; rel. error %.2e" % (total, rel(o, ref)))

    def linrec():
        R, L = 4096, 1000
        a = 0.9 + 0.1 * torch.rand((R, L), device=dev)
        x = torch.randn((R, L), device=dev)
        hh = torch.empty_like(x)
        args = (a, x, hh, L)
        h = t20_linrec_assoc_scan[(R,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        P = torch.cumprod(a.double(), 1)
        ref = P * torch.cumsum(x.double() / P, 1)
        save(out, launches, "t20_linrec_assoc_scan", h, "t20_linrec_assoc_scan", ("A", "X", "H", "L"), args,
             {"BLOCK": 1024}, (R,),
             "linear recurrence h_t = a_t h_(t-1) + x_t along 4,096 fp32 rows of 1,000 (4,000-byte rows), a program a row: a [1,024] block masked to 1,000, tl.associative_scan of (a, x) pairs with combine (a1 a2, a2 x1 + x2), num_warps=4; rel. error %.2e" % rel(hh, ref))

    def transpose():
        M, N = 3001, 1999
        x = torch.randn((M, N), device=dev)
        y = torch.empty((N, M), device=dev)
        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
        args = (x, y, M, N)
        h = t20_transpose_tltrans[grid](*args, BM=64, BN=64, num_warps=4)
        torch.cuda.synchronize()
        bad = int((y != x.t()).sum().item())
        save(out, launches, "t20_transpose_tltrans", h, "t20_transpose_tltrans", ("X", "Y", "M", "N"), args,
             {"BM": 64, "BN": 64}, grid,
             "2-D transpose of fp32 [3,001, 1,999] (7,996-byte rows) to [1,999, 3,001] (12,004-byte rows): a [64, 64] tile loaded, tl.trans, stored, grid (47, 32), ragged both ways, num_warps=4; %d values differ" % bad)

    def softmax_ncl():
        B, C, L = 32, 80, 3000
        x = torch.randn((B, C, L), device=dev) * 3
        y = torch.empty_like(x)
        grid = (triton.cdiv(L, 64), B)
        args = (x, y, C, L)
        h = t20_softmax_dim1_ncl[grid](*args, BLOCK_C=128, BLOCK_L=64, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.softmax(x, dim=1)
        save(out, launches, "t20_softmax_dim1_ncl", h, "t20_softmax_dim1_ncl", ("X", "Y", "C", "L"), args,
             {"BLOCK_C": 128, "BLOCK_L": 64}, grid,
             "softmax over the channel axis of fp32 NCL [32, 80, 3,000]: a [128 (80), 64] tile a program (channels 12,000 bytes apart), max and sum on axis 0, grid (47, 32), the last column block ragged, num_warps=4; rel. error %.2e" % rel(y, ref))

    def ema():
        sizes = [4096, 1000, 65536, 123457, 17, 300000, 768, 2304, 98304, 5000, 262144, 1,
                 33333, 8192, 150000, 640, 77777, 4096, 200003, 1536]
        ps = [torch.randn((s,), device=dev) for s in sizes]
        es = [torch.randn((s,), device=dev) for s in sizes]
        e0 = [e.clone() for e in es]
        CH = 2048
        pp = torch.tensor([p.data_ptr() for p in ps], device=dev, dtype=torch.int64)
        ep = torch.tensor([e.data_ptr() for e in es], device=dev, dtype=torch.int64)
        sz = torch.tensor(sizes, device=dev, dtype=torch.int32)
        ct, cs = [], []
        for t, s in enumerate(sizes):
            for s0 in range(0, s, CH):
                ct.append(t)
                cs.append(s0)
        ctt = torch.tensor(ct, device=dev, dtype=torch.int32)
        cst = torch.tensor(cs, device=dev, dtype=torch.int32)
        args = (pp, ep, sz, ctt, cst, 0.999)
        h = t20_multi_tensor_ema[(len(ct),)](*args, CHUNK=CH, num_warps=4)
        torch.cuda.synchronize()
        err = max(rel(e, 0.999 * a + 0.001 * p) for e, a, p in zip(es, e0, ps))
        save(out, launches, "t20_multi_tensor_ema", h, "t20_multi_tensor_ema", ("PPtrs", "EPtrs", "Sizes", "ChunkT", "ChunkS", "decay"), args,
             {"CHUNK": CH}, (len(ct),),
             "EMA (decay 0.999) over a list of 20 fp32 tensors of 1..300,000 elements (1,362,107 in all; separate allocations), multi-tensor apply: %d chunks of 2,048, a program a chunk, its tensor id and start from chunk tables, the tensor's parameter and EMA addresses from int64 pointer tables, the tensor's tail masked, num_warps=4; worst rel. error %.2e" % (len(ct), err))

    def relpos():
        Q, K, H, NB, MAXD = 512, 512, 16, 32, 100
        bias = torch.randn((NB, H), device=dev)
        o = torch.empty((H, Q, K), device=dev)
        grid = (triton.cdiv(Q, 32), triton.cdiv(K, 64), H)
        args = (bias, o, Q, K)
        h = t20_t5_relpos_bias[grid](*args, H=H, NB=NB, LOGR=math.log(MAXD / 8), BQ=32, BK=64, num_warps=4)
        torch.cuda.synchronize()
        rel_ = torch.arange(K, device=dev)[None, :] - torch.arange(Q, device=dev)[:, None]
        half = NB // 2
        exact = half // 2
        bk = (rel_ > 0).to(torch.long) * half
        n = rel_.abs()
        large = exact + (torch.log(n.clamp(min=1).float() / exact) / math.log(MAXD / exact) * (half - exact)).to(torch.long)
        large = torch.minimum(large, torch.full_like(large, half - 1))
        bk = bk + torch.where(n < exact, n, large)
        ref = bias[bk].permute(2, 0, 1)
        bad = int((o != ref).sum().item())
        save(out, launches, "t20_t5_relpos_bias", h, "t20_t5_relpos_bias", ("Bias", "Out", "Q", "K"), args,
             {"H": H, "NB": NB, "LOGR": math.log(MAXD / 8), "BQ": 32, "BK": 64}, grid,
             "T5 relative-position bias: bidirectional buckets of k - q (32 buckets, exact below 8, log-spaced to 100), the bias gathered from a [32, 16] fp32 table at bucket * 16 + h, out [16, 512, 512], [32, 64] tiles, grid (16, 8, 16), num_warps=4; %d of 4,194,304 values differ from PyTorch's bucketing" % bad)

    def swin():
        B, Hh, Ww, C, WS, S = 8, 56, 56, 96, 7, 3
        x = torch.randn((B, Hh, Ww, C), device=dev)
        nwin = B * (Hh // WS) * (Ww // WS)
        o = torch.empty((nwin, WS * WS, C), device=dev)
        args = (x, o, Hh, Ww, C)
        h = t20_swin_shift_window_partition[(nwin,)](*args, SHIFT=S, WS=WS, BT=64, BC=128, num_warps=4)
        torch.cuda.synchronize()
        r = torch.roll(x, shifts=(-S, -S), dims=(1, 2))
        ref = r.view(B, Hh // WS, WS, Ww // WS, WS, C).permute(0, 1, 3, 2, 4, 5).reshape(-1, WS * WS, C)
        bad = int((o != ref).sum().item())
        save(out, launches, "t20_swin_shift_window_partition", h, "t20_swin_shift_window_partition", ("X", "Out", "Hh", "Ww", "C"), args,
             {"SHIFT": S, "WS": WS, "BT": 64, "BC": 128}, (nwin,),
             "Swin shifted-window partition: torch.roll(x, (-3, -3)) of fp32 NHWC [8, 56, 56, 96] then 7 x 7 windows to [512, 49, 96], a program a window, a [64 (49), 128 (96)] tile of 384-byte pixel rows gathered at wrapped (y, x), num_warps=4; %d values differ" % bad)

    def iou():
        N, M = 3000, 2000
        def boxes(k):
            xy = torch.rand((k, 2), device=dev) * 500
            wh = torch.rand((k, 2), device=dev) * 80 + 4
            return torch.cat([xy, xy + wh], 1).contiguous()
        a, b = boxes(N), boxes(M)
        o = torch.empty((N, M), device=dev)
        grid = (triton.cdiv(N, 64), triton.cdiv(M, 64))
        args = (a, b, o, N, M)
        h = t20_box_iou_pairwise[grid](*args, BN=64, BM=64, num_warps=4)
        torch.cuda.synchronize()
        lt = torch.maximum(a[:, None, :2], b[None, :, :2])
        rb = torch.minimum(a[:, None, 2:], b[None, :, 2:])
        wh = (rb - lt).clamp(min=0)
        inter = wh[..., 0] * wh[..., 1]
        aa = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
        ab = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
        ref = inter / (aa[:, None] + ab[None, :] - inter)
        save(out, launches, "t20_box_iou_pairwise", h, "t20_box_iou_pairwise", ("A", "B", "Out", "N", "M"), args,
             {"BN": 64, "BM": 64}, grid,
             "pairwise box IoU of fp32 [3,000, 4] and [2,000, 4] (x1, y1, x2, y2; each field loaded at a 16-byte stride), out [3,000, 2,000] (8,000-byte rows), [64, 64] tiles, grid (47, 32), ragged both ways, num_warps=4; rel. error %.2e" % rel(o, ref))

    def confusion():
        n, C = 8 * 512 * 512, 21
        t = torch.randint(0, C, (n,), device=dev)
        t[torch.rand((n,), device=dev) < 0.05] = 255
        p = torch.where(torch.rand((n,), device=dev) < 0.7, t.clamp(max=C - 1), torch.randint(0, C, (n,), device=dev))
        cm = torch.zeros((C * C,), device=dev, dtype=torch.int32)
        grid = (triton.cdiv(n, 1024),)
        args = (p, t, cm, n, 255)
        h = t20_confusion_matrix_atomic[grid](*args, C=C, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ok = t != 255
        ref = torch.bincount(t[ok] * C + p[ok], minlength=C * C).to(torch.int32)
        bad = int((cm != ref).sum().item())
        save(out, launches, "t20_confusion_matrix_atomic", h, "t20_confusion_matrix_atomic", ("Pred", "Tgt", "CM", "n", "ignore"), args,
             {"C": C, "BLOCK": 1024}, grid,
             "segmentation confusion matrix: int64 predictions (70 percent correct) and targets of 2,097,152 pixels (5 percent ignore 255), one tl.atomic_add of 1 a pixel into int32 [21 x 21] at target * 21 + pred, 2,048 programs of 1,024, num_warps=4; %d of 441 bins differ" % bad)

    def topk():
        R, V, KT = 4096, 1000, 8
        x = torch.randn((R, V), device=dev)
        vals = torch.empty((R, KT), device=dev)
        idx = torch.empty((R, KT), device=dev, dtype=torch.int32)
        args = (x, vals, idx, V, x.stride(0))
        h = t20_topk_iterative_max[(R,)](*args, KTOP=KT, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        rv, ri = torch.topk(x, KT, dim=1)
        bad = int((idx.long() != ri).sum().item())
        save(out, launches, "t20_topk_iterative_max", h, "t20_topk_iterative_max", ("X", "Vals", "Idx", "V", "stride"), args,
             {"KTOP": KT, "BLOCK": 1024}, (R,),
             "row top-8 of fp32 [4,096, 1,000] (4,000-byte rows) by 8 rounds of tl.max / tl.argmax, the winner masked to -inf, a scalar value and int32 index stored a round, a program a row, num_warps=4; %d of 32,768 indices differ from torch.topk, values rel. error %.2e" % (bad, rel(vals, rv)))

    for lid, f in (("t20_embedding_bag_offsets", embbag), ("t20_linrec_assoc_scan", linrec),
                   ("t20_transpose_tltrans", transpose), ("t20_softmax_dim1_ncl", softmax_ncl),
                   ("t20_multi_tensor_ema", ema), ("t20_t5_relpos_bias", relpos),
                   ("t20_swin_shift_window_partition", swin), ("t20_box_iou_pairwise", iou),
                   ("t20_confusion_matrix_atomic", confusion), ("t20_topk_iterative_max", topk)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-32s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
