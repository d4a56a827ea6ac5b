#!/usr/bin/env python3
"""Triton kernels of the ninth held-out batch (tests/hw/blind9), the launch
and save code copied from tests/hw/blind8/blind8_triton.py; kernels in styles
no earlier batch has (our own code): paged-attention decode reading K/V
through a block table (vLLM style, GQA); fused RMSNorm + per-row int8
quantisation; a row reversal by backwards pointer arithmetic; a 2-D histogram
by tl.atomic_add at computed bins; a KV-cache scatter by an int64 slot
mapping with padding; MoE top-2 gating softmax over 64 experts; a W4A16
matmul unpacking int4 weights with shifts and group scales; a Mamba-style
selective scan (a time loop carrying a [D, 16] state); a 3 x 3 / stride 2
max pool on NCHW; an implicit-GEMM 3 x 3 convolution on NHWC. Each runs once;
the script is run under ncu with `-k regex:^t9_`
(tests/hw/blind9/measure_blind9.sh). Writes OUT/ID.{ptx,cubin,json} and
OUT/triton_launches.json (PTX paths named tests/hw/blind9/triton/ID.ptx). A
kernel that fails to compile or run is reported and left out.

  python3 tests/hw/blind9/blind9_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def t9_paged_attn_decode(Q, KC, VC, BT, SL, O, sm_scale, stride_qb, stride_qh, stride_cb, stride_ct, stride_ch,
                         max_blocks, BLOCK_SIZE: tl.constexpr, D: tl.constexpr, GROUP: tl.constexpr):
    b = tl.program_id(0)
    h = tl.program_id(1)
    kvh = h // GROUP
    offs_d = tl.arange(0, D)
    offs_t = tl.arange(0, BLOCK_SIZE)
    q = tl.load(Q + b * stride_qb + h * stride_qh + offs_d).to(tl.float32)
    seq_len = tl.load(SL + b)
    nblk = tl.cdiv(seq_len, BLOCK_SIZE)
    m_i = tl.full([1], float("-inf"), tl.float32)
    l_i = tl.zeros([1], dtype=tl.float32)
    acc = tl.zeros([D], dtype=tl.float32)
    for j in range(0, nblk):
        phys = tl.load(BT + b * max_blocks + j).to(tl.int64)
        toks = j * BLOCK_SIZE + offs_t
        valid = toks < seq_len
        base = phys * stride_cb + kvh * stride_ch
        kv_offs = base + offs_t[:, None] * stride_ct + offs_d[None, :]
        k = tl.load(KC + kv_offs, mask=valid[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], axis=1) * sm_scale
        s = tl.where(valid, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=0))
        p = tl.exp(s - m_new)
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=0)
        v = tl.load(VC + kv_offs, mask=valid[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        m_i = m_new
    tl.store(O + b * stride_qb + h * stride_qh + offs_d, (acc / l_i).to(tl.float16))


@triton.jit
def t9_rmsnorm_quant_i8(X, W, Q, S, N, stride_x, stride_q, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    y = x * rstd * w
    amax = tl.maximum(tl.max(tl.abs(y), axis=0), 1e-8)
    scale = amax / 127.0
    q = tl.floor(y / scale + 0.5)
    q = tl.minimum(tl.maximum(q, -127.0), 127.0)
    tl.store(Q + row * stride_q + cols, q.to(tl.int8), mask=mask)
    tl.store(S + row, scale)


@triton.jit
def t9_flip_rows(X, Y, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + (N - 1 - cols), mask=mask, other=0.0)
    tl.store(Y + row * stride + cols, x, mask=mask)


@triton.jit
def t9_hist2d(X, Y, H, n, NB: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0)
    y = tl.load(Y + offs, mask=mask, other=0.0)
    bx = tl.minimum((x * NB).to(tl.int32), NB - 1)
    by = tl.minimum((y * NB).to(tl.int32), NB - 1)
    tl.atomic_add(H + bx * NB + by, 1, mask=mask)


@triton.jit
def t9_kv_cache_scatter(K, V, KC, VC, Slots, stride_t, stride_cb, stride_ct, BLOCK_SIZE: tl.constexpr,
                        HD: tl.constexpr):
    t = tl.program_id(0)
    slot = tl.load(Slots + t)
    offs = tl.arange(0, HD)
    keep = (offs * 0 + slot) >= 0
    blk = slot // BLOCK_SIZE
    off = slot % BLOCK_SIZE
    k = tl.load(K + t * stride_t + offs)
    v = tl.load(V + t * stride_t + offs)
    dst = blk * stride_cb + off * stride_ct + offs
    tl.store(KC + dst, k, mask=keep)
    tl.store(VC + dst, v, mask=keep)


@triton.jit
def t9_topk_gating(Logits, W, I, T, E: tl.constexpr, BLOCK_T: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    cols = tl.arange(0, E)
    rmask = rows < T
    x = tl.load(Logits + rows[:, None] * E + cols[None, :], mask=rmask[:, None], other=0.0)
    m = tl.max(x, axis=1)
    e = tl.exp(x - m[:, None])
    p = e / tl.sum(e, axis=1)[:, None]
    w1 = tl.max(p, axis=1)
    i1 = tl.argmax(p, axis=1)
    p2 = tl.where(cols[None, :] == i1[:, None], -1.0, p)
    w2 = tl.max(p2, axis=1)
    i2 = tl.argmax(p2, axis=1)
    tl.store(W + rows * 2, w1, mask=rmask)
    tl.store(W + rows * 2 + 1, w2, mask=rmask)
    tl.store(I + rows * 2, i1.to(tl.int32), mask=rmask)
    tl.store(I + rows * 2 + 1, i2.to(tl.int32), mask=rmask)


@triton.jit
def t9_w4a16_matmul(A, Bp, S, C, M, N, K, stride_am, stride_bk, stride_sk, stride_cm,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + offs_k
        a = tl.load(A + offs_m[:, None] * stride_am + ks[None, :], mask=(offs_m < M)[:, None], other=0.0)
        packed = tl.load(Bp + (ks // 8)[:, None] * stride_bk + offs_n[None, :])
        nib = (packed >> ((ks % 8) * 4)[:, None]) & 0xF
        sc = tl.load(S + (k0 // GROUP_K) * stride_sk + offs_n)
        b = (nib - 8).to(tl.float16) * sc[None, :]
        acc += tl.dot(a, b)
    tl.store(C + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.float16), mask=(offs_m < M)[:, None])


@triton.jit
def t9_ssm_scan(X, DT, A, Bm, Cm, Y, L, D, S: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    pid_d = tl.program_id(1)
    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    offs_s = tl.arange(0, S)
    a = tl.load(A + offs_d[:, None] * S + offs_s[None, :])
    h = tl.zeros([BLOCK_D, S], dtype=tl.float32)
    xb = X + b * L * D
    for t in range(0, L):
        x = tl.load(xb + t * D + offs_d)
        dt = tl.load(DT + b * L * D + t * D + offs_d)
        bt = tl.load(Bm + (b * L + t) * S + offs_s)
        ct = tl.load(Cm + (b * L + t) * S + offs_s)
        h = tl.exp(dt[:, None] * a) * h + (dt * x)[:, None] * bt[None, :]
        y = tl.sum(h * ct[None, :], axis=1)
        tl.store(Y + b * L * D + t * D + offs_d, y)


@triton.jit
def t9_maxpool2d_nchw(X, Y, H, W, OH, OW, total, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = idx < total
    ow = idx % OW
    oh = (idx // OW) % OH
    nc = idx // (OW * OH)
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    for kh in tl.static_range(3):
        for kw in tl.static_range(3):
            ih = oh * 2 - 1 + kh
            iw = ow * 2 - 1 + kw
            ok = mask & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
            v = tl.load(X + nc * H * W + ih * W + iw, mask=ok, other=float("-inf"))
            m = tl.maximum(m, v)
    tl.store(Y + idx, m, mask=mask)


@triton.jit
def t9_conv2d_nhwc_igemm(X, Wt, Y, NPIX, H, W, C: tl.constexpr, K: tl.constexpr,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_C: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_c = tl.arange(0, BLOCK_C)
    mmask = offs_m < NPIX
    ow = offs_m % W
    oh = (offs_m // W) % H
    n = offs_m // (W * H)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for r in tl.static_range(9):
        ih = oh + (r // 3) - 1
        iw = ow + (r % 3) - 1
        ok = mmask & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        pix = ((n * H + ih) * W + iw) * C
        for c0 in tl.static_range(0, C, BLOCK_C):
            a = tl.load(X + pix[:, None] + c0 + offs_c[None, :], mask=ok[:, None], other=0.0)
            b = tl.load(Wt + (r * C + c0 + offs_c)[:, None] * K + offs_n[None, :])
            acc += tl.dot(a, b)
    tl.store(Y + offs_m[:, None] * K + offs_n[None, :], acc.to(tl.float16), mask=mmask[:, None])


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
        "id": lid, "order": len(launches), "module": "blind9_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind9/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(9999)
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

    def paged_attn():
        Bn, H, KVH, D, BS = 32, 32, 16, 128, 16
        g = torch.Generator().manual_seed(9001)
        lens = torch.randint(1, 2001, (Bn,), generator=g)
        nblks = [(int(L) + BS - 1) // BS for L in lens]
        max_blocks = max(nblks)
        pool = sum(nblks) + 64
        perm = torch.randperm(pool, generator=g)
        bt = torch.zeros((Bn, max_blocks), dtype=torch.int32)
        pos = 0
        for b in range(Bn):
            bt[b, :nblks[b]] = perm[pos:pos + nblks[b]].to(torch.int32)
            pos += nblks[b]
        q = torch.randn((Bn, H, D), device=dev, dtype=torch.float16)
        kc = torch.randn((pool, BS, KVH, D), device=dev, dtype=torch.float16)
        vc = torch.randn((pool, BS, KVH, D), device=dev, dtype=torch.float16)
        o = torch.empty_like(q)
        btd, sl = bt.to(dev), lens.to(torch.int32).to(dev)
        scale = 1.0 / (D ** 0.5)
        args = (q, kc, vc, btd, sl, o, scale, q.stride(0), q.stride(1), kc.stride(0), kc.stride(1), kc.stride(2), max_blocks)
        grid = (Bn, H)
        h = t9_paged_attn_decode[grid](*args, BLOCK_SIZE=BS, D=D, GROUP=H // KVH, num_warps=4)
        torch.cuda.synchronize()
        errs = []
        for b in range(Bn):
            L = int(lens[b])
            idx = bt[b, :nblks[b]].long().to(dev)
            k = kc[idx].reshape(-1, KVH, D)[:L].float()
            v = vc[idx].reshape(-1, KVH, D)[:L].float()
            k = k.repeat_interleave(H // KVH, dim=1)
            v = v.repeat_interleave(H // KVH, dim=1)
            s = torch.einsum("hd,thd->ht", q[b].float(), k) * scale
            ref = torch.einsum("ht,thd->hd", torch.softmax(s, -1), v)
            errs.append(rel(o[b], ref))
        save(out, launches, "t9_paged_attn_decode", h, "t9_paged_attn_decode",
             ("Q", "KC", "VC", "BT", "SL", "O", "sm_scale", "stride_qb", "stride_qh", "stride_cb", "stride_ct", "stride_ch",
              "max_blocks"), args, {"BLOCK_SIZE": BS, "D": D, "GROUP": H // KVH}, grid,
             "paged-attention decode (vLLM style): 32 sequences of 1..2,000 tokens (%d in all), 32 query heads on 16 KV heads, fp16 K/V caches [blocks, 16, 16, 128] (4,096-byte token stride), the physical block loaded from an int32 block table, a [16, 128] K and V tile a block, the last block masked, online softmax, num_warps=4; max rel. error %.2e" % (int(lens.sum()), max(errs)))

    def rms_quant():
        M, N = 4096, 4000
        x = torch.randn((M, N), device=dev, dtype=torch.float16)
        w = torch.randn((N,), device=dev, dtype=torch.float16)
        q = torch.empty((M, N), device=dev, dtype=torch.int8)
        s = torch.empty((M,), device=dev, dtype=torch.float32)
        args = (x, w, q, s, N, x.stride(0), q.stride(0), 1e-6)
        h = t9_rmsnorm_quant_i8[(M,)](*args, BLOCK=4096, num_warps=8)
        torch.cuda.synchronize()
        xf = x.float()
        y = xf * torch.rsqrt((xf * xf).mean(-1, keepdim=True) + 1e-6) * w.float()
        err = rel(q.float() * s[:, None], y)
        save(out, launches, "t9_rmsnorm_quant_i8", h, "t9_rmsnorm_quant_i8",
             ("X", "W", "Q", "S", "N", "stride_x", "stride_q", "eps"), args, {"BLOCK": 4096}, (M,),
             "fused RMSNorm + per-row int8 quantisation: 4,096 fp16 rows of 4,000 (BLOCK 4,096, 96 masked), fp16 weight, amax / 127 scale stored, int8 stores into 4,000-byte rows, num_warps=8; rel. error of the dequantised rows %.2e" % err)

    def flip():
        M, N = 4000, 1000
        x = torch.randn((M, N), device=dev, dtype=torch.float32)
        y = torch.empty_like(x)
        args = (x, y, N, x.stride(0))
        h = t9_flip_rows[(M,)](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        err = rel(y, x.flip(1))
        save(out, launches, "t9_flip_rows", h, "t9_flip_rows", ("X", "Y", "N", "stride"), args, {"BLOCK": 1024}, (M,),
             "row reversal by backwards pointer arithmetic (X + row * stride + N - 1 - cols): 4,000 fp32 rows of 1,000 (BLOCK 1,024, 24 masked), forward stores, num_warps=4; rel. error %.2e" % err)

    def hist2d():
        n, NB = 1000003, 64
        x = torch.rand((n,), device=dev, dtype=torch.float32)
        y = torch.rand((n,), device=dev, dtype=torch.float32) ** 3
        hist = torch.zeros((NB * NB,), device=dev, dtype=torch.int32)
        grid = (triton.cdiv(n, 1024),)
        args = (x, y, hist, n)
        h = t9_hist2d[grid](*args, NB=NB, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        bx = (x * NB).long().clamp(max=NB - 1)
        by = (y * NB).long().clamp(max=NB - 1)
        ref = torch.bincount(bx * NB + by, minlength=NB * NB)
        err = (hist.long() - ref).abs().sum().item()
        save(out, launches, "t9_hist2d", h, "t9_hist2d", ("X", "Y", "H", "n"), args, {"NB": NB, "BLOCK": 1024}, grid,
             "2-D histogram of 1,000,003 points into 64 x 64 int32 bins by tl.atomic_add at computed bins (x uniform, y uniform cubed: crowded low bins), the last block masked, num_warps=4; %d counts differ" % err)

    def kv_scatter():
        T, H, D, BS, NBLK = 3000, 8, 128, 16, 256
        g = torch.Generator().manual_seed(9002)
        slots = torch.randperm(NBLK * BS, generator=g)[:T].to(torch.int64)
        pad = torch.rand((T,), generator=g) < 0.05
        slots[pad] = -1
        k = torch.randn((T, H, D), device=dev, dtype=torch.float16)
        v = torch.randn((T, H, D), device=dev, dtype=torch.float16)
        kc = torch.zeros((NBLK, BS, H, D), device=dev, dtype=torch.float16)
        vc = torch.zeros_like(kc)
        sd = slots.to(dev)
        args = (k, v, kc, vc, sd, k.stride(0), kc.stride(0), kc.stride(1))
        h = t9_kv_cache_scatter[(T,)](*args, BLOCK_SIZE=BS, HD=H * D, num_warps=4)
        torch.cuda.synchronize()
        kr = torch.zeros_like(kc).view(-1, H, D)
        vr = torch.zeros_like(vc).view(-1, H, D)
        keep = sd >= 0
        kr[sd[keep]] = k[keep]
        vr[sd[keep]] = v[keep]
        err = max(rel(kc.view(-1, H, D), kr), rel(vc.view(-1, H, D), vr))
        save(out, launches, "t9_kv_cache_scatter", h, "t9_kv_cache_scatter",
             ("K", "V", "KC", "VC", "Slots", "stride_t", "stride_cb", "stride_ct"), args, {"BLOCK_SIZE": BS, "HD": H * D},
             (T,),
             "KV-cache write (reshape_and_cache_flash style): 3,000 tokens of 8 x 128 fp16 keys and values stored into [256 blocks, 16, 8, 128] caches at an int64 slot (a random permutation of the 4,096 slots, 5%% padding slots -1 masked), a program a token, num_warps=4; rel. error %.2e" % err)

    def topk_gating():
        T, E = 60001, 64
        x = torch.randn((T, E), device=dev, dtype=torch.float32)
        w = torch.empty((T, 2), device=dev, dtype=torch.float32)
        ids = torch.empty((T, 2), device=dev, dtype=torch.int32)
        grid = (triton.cdiv(T, 16),)
        args = (x, w, ids, T)
        h = t9_topk_gating[grid](*args, E=E, BLOCK_T=16, num_warps=4)
        torch.cuda.synchronize()
        rw, ri = torch.softmax(x, -1).topk(2, -1)
        bad = (ids.long() != ri).sum().item()
        err = rel(w, rw)
        save(out, launches, "t9_topk_gating", h, "t9_topk_gating", ("Logits", "W", "I", "T"), args,
             {"E": E, "BLOCK_T": 16}, grid,
             "MoE top-2 gating: 60,001 tokens x 64 fp32 logits, 16 tokens a program (the last 15 masked), softmax, tl.max / tl.argmax twice, weights and int32 ids stored at stride 2, num_warps=4; %d ids differ, rel. error %.2e" % (bad, err))

    def w4a16():
        M, N, K, G = 500, 1024, 1024, 128
        a = torch.randn((M, K), device=dev, dtype=torch.float16)
        q = torch.randint(0, 16, (K, N), device=dev, dtype=torch.int32)
        packed = torch.zeros((K // 8, N), device=dev, dtype=torch.int32)
        for j in range(8):
            packed |= q[j::8] << (4 * j)
        sc = (torch.rand((K // G, N), device=dev, dtype=torch.float32) * 0.02 + 0.01).half()
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        grid = (triton.cdiv(M, 64), N // 64)
        args = (a, packed, sc, c, M, N, K, a.stride(0), packed.stride(0), sc.stride(0), c.stride(0))
        ce = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64, "GROUP_K": G}
        h = t9_w4a16_matmul[grid](*args, num_warps=4, num_stages=3, **ce)
        torch.cuda.synchronize()
        bf = (q - 8).float() * sc.float().repeat_interleave(G, 0)
        err = rel(c, a.float() @ bf)
        save(out, launches, "t9_w4a16_matmul", h, "t9_w4a16_matmul",
             ("A", "Bp", "S", "C", "M", "N", "K", "stride_am", "stride_bk", "stride_sk", "stride_cm"), args, ce, grid,
             "W4A16 matmul: fp16 A 500 x 1,024 (the last M tile masked) times int4 weights packed 8 along K into int32 [128, 1,024] (each word loaded for 8 K rows of a tile), shifts and masks, fp16 group scales per 128 K, 64 x 64 x 64 tiles, num_warps=4, num_stages=3; rel. error %.2e" % err)

    def ssm():
        Bn, L, D, S = 2, 512, 768, 16
        x = torch.randn((Bn, L, D), device=dev, dtype=torch.float32)
        dt = torch.nn.functional.softplus(torch.randn((Bn, L, D), device=dev)) * 0.1
        A = -torch.exp(torch.randn((D, S), device=dev) * 0.5)
        Bm = torch.randn((Bn, L, S), device=dev)
        Cm = torch.randn((Bn, L, S), device=dev)
        y = torch.empty_like(x)
        grid = (Bn, D // 64)
        args = (x, dt, A, Bm, Cm, y, L, D)
        h = t9_ssm_scan[grid](*args, S=S, BLOCK_D=64, num_warps=4)
        torch.cuda.synchronize()
        hs = torch.zeros((Bn, D, S), device=dev)
        ys = []
        for t in range(L):
            hs = torch.exp(dt[:, t, :, None] * A) * hs + (dt[:, t] * x[:, t])[:, :, None] * Bm[:, t, None, :]
            ys.append((hs * Cm[:, t, None, :]).sum(-1))
        err = rel(y, torch.stack(ys, 1))
        save(out, launches, "t9_ssm_scan", h, "t9_ssm_scan", ("X", "DT", "A", "Bm", "Cm", "Y", "L", "D"), args,
             {"S": S, "BLOCK_D": 64}, grid,
             "Mamba-style selective scan: batch 2, 512 steps, 768 channels, state 16: a program per (batch, 64 channels) carries a [64, 16] state through a time loop of 512 (x, dt rows of 64 channels, B and C rows of 16 each step, y stored each step), num_warps=4; rel. error %.2e" % err)

    def maxpool():
        Nb, C, H, W = 8, 64, 56, 56
        OH, OW = 28, 28
        x = torch.randn((Nb, C, H, W), device=dev, dtype=torch.float32)
        y = torch.empty((Nb, C, OH, OW), device=dev, dtype=torch.float32)
        total = y.numel()
        grid = (triton.cdiv(total, 512),)
        args = (x, y, H, W, OH, OW, total)
        h = t9_maxpool2d_nchw[grid](*args, BLOCK=512, num_warps=4)
        torch.cuda.synchronize()
        err = rel(y, torch.nn.functional.max_pool2d(x, 3, 2, 1))
        save(out, launches, "t9_maxpool2d_nchw", h, "t9_maxpool2d_nchw", ("X", "Y", "H", "W", "OH", "OW", "total"), args,
             {"BLOCK": 512}, grid,
             "3 x 3 / stride 2 / pad 1 max pool on NCHW fp32 [8, 64, 56, 56] -> 28 x 28: 9 masked loads at stride-2 columns a program of 512 outputs, num_warps=4; rel. error %.2e" % err)

    def conv():
        Nb, H, W, C, K = 4, 28, 28, 64, 128
        x = torch.randn((Nb, H, W, C), device=dev, dtype=torch.float16)
        wt = torch.randn((K, C, 3, 3), device=dev, dtype=torch.float16) * 0.05
        wk = wt.permute(2, 3, 1, 0).contiguous().view(9 * C, K)
        y = torch.empty((Nb, H, W, K), device=dev, dtype=torch.float16)
        npix = Nb * H * W
        grid = (triton.cdiv(npix, 64), K // 64)
        args = (x, wk, y, npix, H, W)
        ce = {"C": C, "K": K, "BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_C": 32}
        h = t9_conv2d_nhwc_igemm[grid](*args, num_warps=4, num_stages=2, **ce)
        torch.cuda.synchronize()
        ref = torch.nn.functional.conv2d(x.permute(0, 3, 1, 2).float(), wt.float(), padding=1).permute(0, 2, 3, 1)
        err = rel(y, ref)
        save(out, launches, "t9_conv2d_nhwc_igemm", h, "t9_conv2d_nhwc_igemm", ("X", "Wt", "Y", "NPIX", "H", "W"), args, ce,
             grid,
             "implicit-GEMM 3 x 3 convolution, pad 1, NHWC fp16 [4, 28, 28, 64] -> 128 channels: 64 pixels x 64 output channels a program, 9 taps x 2 chunks of 32 channels gathered with border masks, weights [576, 128], tl.dot, num_warps=4, num_stages=2; rel. error %.2e" % err)

    for lid, f in (("t9_paged_attn_decode", paged_attn), ("t9_rmsnorm_quant_i8", rms_quant), ("t9_flip_rows", flip),
                   ("t9_hist2d", hist2d), ("t9_kv_cache_scatter", kv_scatter), ("t9_topk_gating", topk_gating),
                   ("t9_w4a16_matmul", w4a16), ("t9_ssm_scan", ssm), ("t9_maxpool2d_nchw", maxpool),
                   ("t9_conv2d_nhwc_igemm", conv)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-26s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
