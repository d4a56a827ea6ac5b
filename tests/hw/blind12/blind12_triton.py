#!/usr/bin/env python3
"""Triton kernels of the twelfth held-out batch (tests/hw/blind12), the launch
and save code copied from tests/hw/blind11/blind11_triton.py; kernels in the
styles of real projects (our own code, nothing copied): a causal
FlashAttention-2 forward with block pointers on Hopper (num_warps=8,
num_stages=3, key blocks skipped by the loop bound, an early return for
programs past the sequence); a GQA decode attention over a token-granular page
table (SGLang / vLLM triton decode); vLLM's NeoX rotary embedding in place on
the q and k slices of a fused qkv buffer; a Liger-style RMSNorm backward with
per-program dW partial rows; vLLM's per-token-group fp8 quantisation with
column-major scales and the w8a8 block-scaled fp8 GEMM; a top-k / top-p
sampling filter (tl.cumsum with a carry); a segmented prefix sum by
tl.associative_scan over (value, flag) pairs; torch-inductor-style pointwise
(broadcast by index arithmetic, eviction policies) and looped Welford
reduction (xnumel / rnumel masks, tl.reduce over a tuple) kernels; a
Megatron vocabulary-parallel embedding (a load mask from loaded ids); a
depthwise 3 x 3 NHWC convolution on a 3-D grid; vLLM copy_blocks through
device-side tensor descriptors; bitsandbytes / unsloth NF4 dequantisation with
double-quantised absmax (table lookups at loaded codes, tl.join). Each runs
once; the script is run under ncu with `-k regex:^t12_`
(tests/hw/blind12/measure_blind12.sh). Writes OUT/ID.{ptx,cubin,json} and
OUT/triton_launches.json (PTX paths named tests/hw/blind12/triton/ID.ptx). A
kernel that fails to compile or run is reported and left out.

  python3 tests/hw/blind12/blind12_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def t12_attn_fwd_causal_bp(Q, K, V, O, sm_scale, S, stride_bh, stride_s,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_D: tl.constexpr):
    # FlashAttention-2 forward, causal, block pointers (Triton tutorial / FA-Triton style).
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    # the grid is sized for the bucketed length: programs past the sequence leave at once
    if start_m * BLOCK_M >= S:
        return
    base = bh.to(tl.int64) * stride_bh
    q_bp = tl.make_block_ptr(Q + base, shape=(S, HEAD_D), strides=(stride_s, 1), offsets=(start_m * BLOCK_M, 0),
                             block_shape=(BLOCK_M, HEAD_D), order=(1, 0))
    k_bp = tl.make_block_ptr(K + base, shape=(HEAD_D, S), strides=(1, stride_s), offsets=(0, 0),
                             block_shape=(HEAD_D, BLOCK_N), order=(0, 1))
    v_bp = tl.make_block_ptr(V + base, shape=(S, HEAD_D), strides=(stride_s, 1), offsets=(0, 0),
                             block_shape=(BLOCK_N, HEAD_D), order=(1, 0))
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_D], dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634
    q = tl.load(q_bp, boundary_check=(0,), padding_option="zero")
    # causal: key blocks above the diagonal are skipped by the loop bound
    hi = tl.minimum((start_m + 1) * BLOCK_M, S)
    for start_n in range(0, hi, BLOCK_N):
        k = tl.load(k_bp, boundary_check=(1,), padding_option="zero")
        qk = tl.dot(q, k)
        cols = start_n + offs_n
        keep = (cols[None, :] <= offs_m[:, None]) & (cols[None, :] < S)
        qk = tl.where(keep, qk * qk_scale, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_bp, boundary_check=(0,), padding_option="zero")
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.bfloat16), v)
        m_i = m_new
        k_bp = tl.advance(k_bp, (0, BLOCK_N))
        v_bp = tl.advance(v_bp, (BLOCK_N, 0))
    acc = acc / l_i[:, None]
    o_bp = tl.make_block_ptr(O + base, shape=(S, HEAD_D), strides=(stride_s, 1), offsets=(start_m * BLOCK_M, 0),
                             block_shape=(BLOCK_M, HEAD_D), order=(1, 0))
    tl.store(o_bp, acc.to(tl.bfloat16), boundary_check=(0,))


@triton.jit
def t12_paged_decode_gqa(Q, Kbuf, Vbuf, ReqToTok, SeqLens, O, sm_scale, stride_req,
                         GROUP: tl.constexpr, HK: tl.constexpr, D: tl.constexpr,
                         BLOCK_H: tl.constexpr, BLOCK_N: tl.constexpr):
    # decode attention over a token-granular page table (SGLang / vLLM triton decode style),
    # the query heads of one KV head (GQA group) padded to BLOCK_H rows for tl.dot
    seq = tl.program_id(0)
    kvh = tl.program_id(1)
    cur_len = tl.load(SeqLens + seq)
    hr = tl.arange(0, BLOCK_H)
    hmask = hr < GROUP
    heads = kvh * GROUP + hr
    d = tl.arange(0, D)
    q = tl.load(Q + seq * (HK * GROUP * D) + heads[:, None] * D + d[None, :], mask=hmask[:, None], other=0.0)
    m_i = tl.full([BLOCK_H], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, D], dtype=tl.float32)
    for start in range(0, cur_len, BLOCK_N):
        n = start + tl.arange(0, BLOCK_N)
        nm = n < cur_len
        loc = tl.load(ReqToTok + seq * stride_req + n, mask=nm, other=0).to(tl.int64)
        k = tl.load(Kbuf + loc[None, :] * (HK * D) + kvh * D + d[:, None], mask=nm[None, :], other=0.0)
        qk = tl.dot(q, k) * sm_scale
        qk = tl.where(nm[None, :], qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        v = tl.load(Vbuf + loc[:, None] * (HK * D) + kvh * D + d[None, :], mask=nm[:, None], other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        l_i = l_i * alpha + tl.sum(p, 1)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(O + seq * (HK * GROUP * D) + heads[:, None] * D + d[None, :], out.to(tl.float16), mask=hmask[:, None])


@triton.jit
def t12_rope_neox_qk_inplace(QKV, Pos, CosSin, stride_t, HQ: tl.constexpr, HKV: tl.constexpr,
                             D: tl.constexpr, HALF: tl.constexpr):
    # vLLM-style rotary embedding (NeoX halves) applied in place to q and k, which are
    # column slices of the fused qkv projection output; one program a token
    Q = QKV
    K = QKV + HQ * D
    t = tl.program_id(0)
    pos = tl.load(Pos + t)
    h2 = tl.arange(0, HALF)
    cos = tl.load(CosSin + pos * D + h2)
    sin = tl.load(CosSin + pos * D + HALF + h2)
    hq = tl.arange(0, HQ)
    qp = Q + t.to(tl.int64) * stride_t + hq[:, None] * D + h2[None, :]
    q1 = tl.load(qp).to(tl.float32)
    q2 = tl.load(qp + HALF).to(tl.float32)
    tl.store(qp, (q1 * cos[None, :] - q2 * sin[None, :]).to(tl.bfloat16))
    tl.store(qp + HALF, (q2 * cos[None, :] + q1 * sin[None, :]).to(tl.bfloat16))
    hk = tl.arange(0, HKV)
    kp = K + t.to(tl.int64) * stride_t + hk[:, None] * D + h2[None, :]
    k1 = tl.load(kp).to(tl.float32)
    k2 = tl.load(kp + HALF).to(tl.float32)
    tl.store(kp, (k1 * cos[None, :] - k2 * sin[None, :]).to(tl.bfloat16))
    tl.store(kp + HALF, (k2 * cos[None, :] + k1 * sin[None, :]).to(tl.bfloat16))


@triton.jit
def t12_rmsnorm_bwd_rows(DY, X, W, Rstd, DX, DWp, M, N, rows_per_prog, BLOCK: tl.constexpr):
    # Liger-style RMSNorm backward: a program per chunk of rows (about one per SM), dW
    # accumulated in registers and stored as one partial row per program
    pid = tl.program_id(0)
    r0 = pid * rows_per_prog
    r1 = tl.minimum(r0 + rows_per_prog, M)
    cols = tl.arange(0, BLOCK)
    cm = cols < N
    w = tl.load(W + cols, mask=cm, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    for r in range(r0, r1):
        dy = tl.load(DY + r * N + cols, mask=cm, other=0.0).to(tl.float32)
        x = tl.load(X + r * N + cols, mask=cm, other=0.0).to(tl.float32)
        rstd = tl.load(Rstd + r)
        xh = x * rstd
        m = dy * w
        dx = rstd * (m - xh * (tl.sum(m * xh, axis=0) / N))
        dw += dy * xh
        tl.store(DX + r * N + cols, dx.to(tl.bfloat16), mask=cm)
    tl.store(DWp + pid * N + cols, dw, mask=cm)


@triton.jit
def t12_fp8_group_quant_colmajor(X, Qo, Sc, M, groups_per_row, eps, fp8_max, GROUP: tl.constexpr):
    # per-token-group fp8 e4m3 quantisation (DeepSeek-style 1 x 128 groups, vLLM
    # per_token_group_quant_fp8 with column-major scales): one program a group
    g = tl.program_id(0)
    row = g // groups_per_row
    gc = g % groups_per_row
    cols = tl.arange(0, GROUP)
    off = g.to(tl.int64) * GROUP + cols
    x = tl.load(X + off).to(tl.float32)
    amax = tl.maximum(tl.max(tl.abs(x), axis=0), eps)
    s = amax / fp8_max
    q = tl.clamp(x / s, -fp8_max, fp8_max).to(tl.float8e4nv)
    tl.store(Qo + off, q)
    tl.store(Sc + gc * M + row, s)


@triton.jit
def t12_fp8_block_scaled_mm(A, B, C, As, Bs, M, N, K, ks_groups,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                            GROUP_M: tl.constexpr, SCALE_N: tl.constexpr):
    # w8a8 block-scaled fp8 GEMM (vLLM w8a8_block_fp8_matmul style): A [M, K] fp8 with
    # per-token-group scales As [M, K / 128], B [N, K] fp8 with 128 x 128 block scales
    # Bs [N / 128, K / 128]; grouped program order
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * num_n
    gid = pid // in_group
    first_m = gid * GROUP_M
    gsize = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % in_group) % gsize)
    pid_n = (pid % in_group) // gsize
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + offs_am[:, None] * K + offs_k[None, :]
    b_ptrs = B + offs_k[:, None] + offs_bn[None, :] * K
    as_ptrs = As + offs_am * ks_groups
    bs_ptrs = Bs + (offs_bn // SCALE_N) * ks_groups
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for kk in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - kk * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - kk * BLOCK_K, other=0.0)
        a_s = tl.load(as_ptrs + kk)
        b_s = tl.load(bs_ptrs + kk)
        acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(C + offs_cm[:, None] * N + offs_cn[None, :], acc.to(tl.bfloat16), mask=cmask)


@triton.jit
def t12_topk_topp_mask(P, TopK, TopP, Out, V, BLOCK: tl.constexpr):
    # top-k / top-p (nucleus) filter over probabilities sorted in descending order:
    # a running prefix sum over the vocabulary in chunks (tl.cumsum plus a carry)
    row = tl.program_id(0).to(tl.int64)
    k = tl.load(TopK + row)
    p_thr = tl.load(TopP + row)
    carry = 0.0
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < V
        p = tl.load(P + row * V + cols, mask=m, other=0.0)
        cs = tl.cumsum(p, axis=0) + carry
        keep = ((cs - p) < p_thr) & (cols < k)
        tl.store(Out + row * V + cols, tl.where(keep, p, 0.0), mask=m)
        carry += tl.sum(p, axis=0)


@triton.jit
def _seg_add(v1, f1, v2, f2):
    return tl.where(f2 != 0, v2, v1 + v2), f1 | f2


@triton.jit
def t12_segmented_cumsum(Xv, Fl, Y, L, BLOCK: tl.constexpr):
    # segmented inclusive prefix sum along rows (packed variable-length sequences: a
    # flag marks each segment start) by tl.associative_scan over (value, flag) pairs
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < L
    v = tl.load(Xv + row * L + cols, mask=m, other=0.0)
    f = tl.load(Fl + row * L + cols, mask=m, other=1).to(tl.int32)
    s, _ = tl.associative_scan((v, f), 0, _seg_add)
    tl.store(Y + row * L + cols, s, mask=m)


@triton.jit
def t12_poi_fused_add_mul_sigmoid_0(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    # torch inductor style pointwise kernel: (x + bias[c]) * sigmoid(gate[n, c]) over NCHW
    # fp16 [30, 192, 27, 27], the shapes baked in as literals
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x3 = xindex
    x1 = (xindex // 729) % 192
    x2 = xindex // 139968
    tmp0 = tl.load(in_ptr0 + (x3), xmask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x1), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp3 = tl.load(in_ptr2 + (x1 + (192 * x2)), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp4 = tl.sigmoid(tmp3)
    tmp5 = tmp2 * tmp4
    tl.store(out_ptr0 + (x3), tmp5.to(tl.float16), xmask)


@triton.jit
def _welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return mean_1 + delta * w2_over_w, m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w, new_weight


@triton.jit
def t12_red_fused_var_mean_1(in_ptr0, out_ptr0, out_ptr1, xnumel, rnumel,
                             XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    # torch inductor style looped reduction: per-(n, c) mean and variance of fp16 NCHW
    # [64, 256, 28, 28] (rnumel 784, rows 1,568 bytes), an elementwise Welford update a
    # chunk, then tl.reduce with a three-tuple Welford combine
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    mean = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    m2 = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    weight = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (784 * x0)), rmask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        delta = tmp0 - mean
        new_weight = weight + 1.0
        new_mean = mean + delta / new_weight
        new_m2 = m2 + delta * (tmp0 - new_mean)
        keep = rmask & xmask
        mean = tl.where(keep, new_mean, mean)
        m2 = tl.where(keep, new_m2, m2)
        weight = tl.where(keep, new_weight, weight)
    tmp_mean, tmp_m2, tmp_w = tl.reduce((mean, m2, weight), 1, _welford_combine)
    tl.store(out_ptr0 + (x0), tmp_mean[:, None], xmask)
    tl.store(out_ptr1 + (x0), (tmp_m2 / tmp_w)[:, None], xmask)


@triton.jit
def t12_vocab_parallel_embed(Ids, Table, Out, T, D, vocab_start, vocab_end,
                             BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    # Megatron-style vocabulary-parallel embedding (this rank owns [vocab_start,
    # vocab_end)): ids outside the shard give zero rows (they are summed across ranks)
    pt = tl.program_id(0)
    pd = tl.program_id(1)
    t = pt * BLOCK_T + tl.arange(0, BLOCK_T)
    tm = t < T
    ids = tl.load(Ids + t, mask=tm, other=0)
    own = (ids >= vocab_start) & (ids < vocab_end) & tm
    local = tl.where(own, ids - vocab_start, 0)
    d = pd * BLOCK_D + tl.arange(0, BLOCK_D)
    dm = d < D
    e = tl.load(Table + local[:, None] * D + d[None, :], mask=own[:, None] & dm[None, :], other=0.0)
    tl.store(Out + t[:, None].to(tl.int64) * D + d[None, :], e, mask=tm[:, None] & dm[None, :])


@triton.jit
def t12_dwconv3x3_nhwc(X, Wt, Bias, Y, H, W, C, BLOCK_W: tl.constexpr, BLOCK_C: tl.constexpr):
    # depthwise 3 x 3 convolution, stride 1, padding 1, NHWC fp16 (MobileNet style): a
    # program per (image row, run of BLOCK_W pixels, run of BLOCK_C channels), 3-D grid
    nh = tl.program_id(0)
    pw = tl.program_id(1)
    pc = tl.program_id(2)
    n = nh // H
    h = nh % H
    w = pw * BLOCK_W + tl.arange(0, BLOCK_W)
    c = pc * BLOCK_C + tl.arange(0, BLOCK_C)
    cm = c < C
    acc = tl.zeros([BLOCK_W, BLOCK_C], dtype=tl.float32)
    for kh in tl.static_range(3):
        hh = h + kh - 1
        hok = (hh >= 0) & (hh < H)
        for kw in tl.static_range(3):
            ww = w + kw - 1
            m = hok & ((ww >= 0) & (ww < W))[:, None] & cm[None, :]
            x = tl.load(X + ((n * H + hh) * W + ww[:, None]) * C + c[None, :], mask=m, other=0.0)
            wt = tl.load(Wt + (kh * 3 + kw) * C + c, mask=cm, other=0.0)
            acc += x.to(tl.float32) * wt.to(tl.float32)[None, :]
    b = tl.load(Bias + c, mask=cm, other=0.0).to(tl.float32)
    acc += b[None, :]
    om = (w < W)[:, None] & cm[None, :]
    tl.store(Y + ((n * H + h) * W + w[:, None]) * C + c[None, :], acc.to(tl.float16), mask=om)


@triton.jit
def t12_copy_blocks_tdesc(KC, VC, Map, num_rows, ROW: tl.constexpr, BS: tl.constexpr, BLOCK_R: tl.constexpr):
    # vLLM copy_blocks (copy-on-write of paged KV blocks) through device-side tensor
    # descriptors: the caches viewed as [num_blocks * block_size, Hk * D]; one program a
    # (src, dst) pair of the loaded block mapping
    pair = tl.program_id(0)
    src = tl.load(Map + 2 * pair)
    dst = tl.load(Map + 2 * pair + 1)
    kd = tl.make_tensor_descriptor(KC, shape=[num_rows, ROW], strides=[ROW, 1], block_shape=[BS, BLOCK_R])
    vd = tl.make_tensor_descriptor(VC, shape=[num_rows, ROW], strides=[ROW, 1], block_shape=[BS, BLOCK_R])
    for j in tl.static_range(ROW // BLOCK_R):
        k = kd.load([(src * BS).to(tl.int32), j * BLOCK_R])
        kd.store([(dst * BS).to(tl.int32), j * BLOCK_R], k)
        v = vd.load([(src * BS).to(tl.int32), j * BLOCK_R])
        vd.store([(dst * BS).to(tl.int32), j * BLOCK_R], v)


@triton.jit
def t12_nf4_dequant(Packed, AbsQ, Code2, Absmax2, Code, Out, nbytes, offset, BLOCK: tl.constexpr):
    # bitsandbytes / unsloth NF4 dequantisation with double-quantised absmax: two 4-bit
    # codes a byte (high nibble first), a uint8 absmax code per 64 values looked up in a
    # 256-entry table times an fp32 second-level scale per 256 blocks plus an offset,
    # the NF4 value from a 16-entry table; the pairs interleaved by tl.join
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < nbytes
    p = tl.load(Packed + offs, mask=m, other=0).to(tl.int32)
    blk = offs // 32
    aq = tl.load(AbsQ + blk, mask=m, other=0).to(tl.int32)
    am = tl.load(Code2 + aq, mask=m, other=0.0) * tl.load(Absmax2 + blk // 256, mask=m, other=0.0) + offset
    hi = tl.load(Code + (p >> 4), mask=m, other=0.0) * am
    lo = tl.load(Code + (p & 15), mask=m, other=0.0) * am
    y = tl.reshape(tl.join(hi, lo), [2 * BLOCK])
    o = pid * (2 * BLOCK) + tl.arange(0, 2 * BLOCK)
    tl.store(Out + o, y.to(tl.float16), mask=o < 2 * nbytes)


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
        "id": lid, "order": len(launches), "module": "blind12_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind12/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})



def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(12012)
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

    def attn():
        B, H, S, D, SMAX = 2, 16, 1000, 128, 1152
        q = torch.randn((B, H, S, D), device=dev, dtype=torch.bfloat16)
        k = torch.randn((B, H, S, D), device=dev, dtype=torch.bfloat16)
        v = torch.randn((B, H, S, D), device=dev, dtype=torch.bfloat16)
        o = torch.empty_like(q)
        sm = 1.0 / D ** 0.5
        grid = (triton.cdiv(SMAX, 128), B * H)
        args = (q, k, v, o, sm, S, q.stride(1), q.stride(2))
        h = t12_attn_fwd_causal_bp[grid](*args, BLOCK_M=128, BLOCK_N=64, HEAD_D=D, num_warps=8, num_stages=3)
        torch.cuda.synchronize()
        ref = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=True)
        save(out, launches, "t12_attn_fwd_causal_bp", h, "t12_attn_fwd_causal_bp",
             ("Q", "K", "V", "O", "sm_scale", "S", "stride_bh", "stride_s"), args,
             {"BLOCK_M": 128, "BLOCK_N": 64, "HEAD_D": D}, grid,
             "causal FlashAttention-2 forward, bf16 [2, 16, 1,000, 128] (256-byte rows), block pointers with boundary checks (the last query block 104 rows, the last key block 40), key blocks above the diagonal skipped by the loop bound, 128 x 64 tiles, grid 9 x 32 sized for the bucketed length 1,152 (the 9th query block returns at once), num_warps=8, num_stages=3; rel. error %.2e" % rel(o, ref))

    def paged():
        NS, HK, G, D, PAGE, NPAGES = 32, 8, 4, 128, 16, 4096
        lens = torch.randint(200, 2001, (NS,), device=dev, dtype=torch.int32)
        maxlen = 2048
        perm = torch.randperm(NPAGES, device=dev)
        req = torch.zeros((NS, maxlen), device=dev, dtype=torch.int32)
        pages_per_seq = maxlen // PAGE
        pos = torch.arange(maxlen, device=dev)
        for s in range(NS):
            pg = perm[s * pages_per_seq:(s + 1) * pages_per_seq]
            req[s] = (pg[pos // PAGE] * PAGE + pos % PAGE).to(torch.int32)
        kb = torch.randn((NPAGES * PAGE, HK, D), device=dev, dtype=torch.float16)
        vb = torch.randn((NPAGES * PAGE, HK, D), device=dev, dtype=torch.float16)
        q = torch.randn((NS, HK * G, D), device=dev, dtype=torch.float16)
        o = torch.empty_like(q)
        sm = 1.0 / D ** 0.5
        grid = (NS, HK)
        args = (q, kb, vb, req, lens, o, sm, req.stride(0))
        h = t12_paged_decode_gqa[grid](*args, GROUP=G, HK=HK, D=D, BLOCK_H=16, BLOCK_N=64, num_warps=4, num_stages=2)
        torch.cuda.synchronize()
        ref = torch.empty((NS, HK * G, D), device=dev, dtype=torch.float32)
        for s in range(NS):
            L = int(lens[s].item())
            loc = req[s, :L].long()
            kk = kb[loc].float().repeat_interleave(G, dim=1)
            vv = vb[loc].float().repeat_interleave(G, dim=1)
            sc = torch.einsum("hd,lhd->hl", q[s].float(), kk) * sm
            ref[s] = torch.einsum("hl,lhd->hd", torch.softmax(sc, -1), vv)
        save(out, launches, "t12_paged_decode_gqa", h, "t12_paged_decode_gqa",
             ("Q", "Kbuf", "Vbuf", "ReqToTok", "SeqLens", "O", "sm_scale", "stride_req"), args,
             {"GROUP": G, "HK": HK, "D": D, "BLOCK_H": 16, "BLOCK_N": 64}, grid,
             "GQA decode attention over a token-granular page table (SGLang/vLLM triton decode style): 32 sequences of random lengths 200..2,000 (loaded; loop bound), 32 query heads on 8 KV heads (groups of 4 padded to 16 rows for tl.dot), fp16 K/V buffers [65,536 tokens, 8, 128] on randomly permuted 16-token pages, int32 token locations loaded 64 a step, K read as [128, 64] and V as [64, 128] at loaded rows (2,048-byte token stride), grid (32, 8), num_warps=4, num_stages=2; rel. error %.2e" % rel(o, ref))

    def rope():
        T, HQ, HKV, D, MAXP = 2048, 32, 8, 128, 4096
        qkv = torch.randn((T, (HQ + 2 * HKV) * D), device=dev, dtype=torch.bfloat16)
        q = qkv[:, :HQ * D]
        k = qkv[:, HQ * D:(HQ + HKV) * D]
        posn = torch.randint(0, MAXP, (T,), device=dev, dtype=torch.int64)
        inv = 1.0 / (10000 ** (torch.arange(0, D, 2, device=dev, dtype=torch.float32) / D))
        fr = torch.arange(MAXP, device=dev, dtype=torch.float32)[:, None] * inv[None, :]
        cs = torch.cat([fr.cos(), fr.sin()], dim=1).contiguous()
        q0 = q.float().clone().view(T, HQ, D)
        k0 = k.float().clone().view(T, HKV, D)
        args = (qkv, posn, cs, qkv.stride(0))
        h = t12_rope_neox_qk_inplace[(T,)](*args, HQ=HQ, HKV=HKV, D=D, HALF=D // 2, num_warps=4)
        torch.cuda.synchronize()
        c = cs[posn, :D // 2][:, None, :]
        s = cs[posn, D // 2:][:, None, :]

        def rot(x):
            x1, x2 = x[..., :D // 2], x[..., D // 2:]
            return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1)
        err = max(rel(q.view(T, HQ, D), rot(q0)), rel(k.view(T, HKV, D), rot(k0)))
        save(out, launches, "t12_rope_neox_qk_inplace", h, "t12_rope_neox_qk_inplace",
             ("QKV", "Pos", "CosSin", "stride_t"), args, {"HQ": HQ, "HKV": HKV, "D": D, "HALF": D // 2}, (T,),
             "vLLM-style NeoX rotary embedding in place on q and k, column slices of a fused bf16 qkv [2,048, 6,144] (12,288-byte token rows; k 8,192 bytes into the row), positions int64 loaded (random 0..4,095), an fp32 cos|sin cache [4,096, 128] row gathered by position, q as two [32, 64] half tiles and k as two [8, 64], one program a token, num_warps=4; rel. error %.2e" % err)

    def rms_bwd():
        M, N = 4000, 3072
        x = torch.randn((M, N), device=dev, dtype=torch.bfloat16)
        w = (1 + 0.1 * torch.randn((N,), device=dev)).to(torch.bfloat16)
        dy = torch.randn((M, N), device=dev, dtype=torch.bfloat16)
        rstd = torch.rsqrt(x.float().pow(2).mean(1) + 1e-6).contiguous()
        dx = torch.empty_like(x)
        nprog = 132
        rpp = triton.cdiv(M, nprog)
        grid = (triton.cdiv(M, rpp),)
        dwp = torch.empty((grid[0], N), device=dev, dtype=torch.float32)
        args = (dy, x, w, rstd, dx, dwp, M, N, rpp)
        h = t12_rmsnorm_bwd_rows[grid](*args, BLOCK=4096, num_warps=8)
        torch.cuda.synchronize()
        xr = x.float().requires_grad_()
        wr = w.float().requires_grad_()
        y = xr * torch.rsqrt(xr.pow(2).mean(1, keepdim=True) + 1e-6) * wr
        y.backward(dy.float())
        err = max(rel(dx, xr.grad), rel(dwp.sum(0), wr.grad))
        save(out, launches, "t12_rmsnorm_bwd_rows", h, "t12_rmsnorm_bwd_rows",
             ("DY", "X", "W", "Rstd", "DX", "DWp", "M", "N", "rows_per_prog"), args, {"BLOCK": 4096}, grid,
             "Liger-style RMSNorm backward: bf16 [4,000, 3,072] (6,144-byte rows, BLOCK 4,096: 1,024 masked), %d programs of 31 rows each (the last 1 row), a runtime row loop, rstd loaded a row, dx stored in bf16, dW accumulated in registers and stored as one fp32 partial row a program, num_warps=8; rel. error %%.2e" % grid[0] % err)

    def fp8g():
        M, K, G = 2048, 7168, 128
        x = (torch.randn((M, K), device=dev) * 3).to(torch.bfloat16)
        q = torch.empty((M, K), device=dev, dtype=torch.float8_e4m3fn)
        sc = torch.empty((K // G, M), device=dev, dtype=torch.float32)
        grid = (M * K // G,)
        args = (x, q, sc, M, K // G, 1e-10, 448.0)
        h = t12_fp8_group_quant_colmajor[grid](*args, GROUP=G, num_warps=1)
        torch.cuda.synchronize()
        deq = q.float().view(M, K // G, G) * sc.t()[:, :, None]
        save(out, launches, "t12_fp8_group_quant_colmajor", h, "t12_fp8_group_quant_colmajor",
             ("X", "Qo", "Sc", "M", "groups_per_row", "eps", "fp8_max"), args, {"GROUP": G}, grid,
             "per-token-group fp8 e4m3 quantisation (1 x 128 groups, vLLM per_token_group_quant_fp8 column-major scales): bf16 [2,048, 7,168], 114,688 one-warp programs of 128 values (256 bytes in, 128 fp8 bytes out), the fp32 scale stored at [group column, row] of a [56, 2,048] array (one lane, 8,192 bytes between a row's groups), num_warps=1; rel. error of the dequantised values %.2e" % rel(deq.view(M, K), x.float()))

    def fp8mm():
        M, N, K, BS = 1000, 1536, 2048, 128
        a32 = torch.randn((M, K), device=dev)
        b32 = torch.randn((N, K), device=dev) * 0.05
        a_s = (a32.view(M, K // BS, BS).abs().amax(-1) / 448.0).clamp(min=1e-10)
        aq = (a32.view(M, K // BS, BS) / a_s[:, :, None]).clamp(-448, 448).to(torch.float8_e4m3fn).view(M, K)
        b_s = (b32.view(N // BS, BS, K // BS, BS).abs().amax((1, 3)) / 448.0).clamp(min=1e-10)
        bq = (b32.view(N // BS, BS, K // BS, BS) / b_s[:, None, :, None]).clamp(-448, 448).to(torch.float8_e4m3fn).view(N, K)
        a_s = a_s.contiguous()
        b_s = b_s.contiguous()
        c = torch.empty((M, N), device=dev, dtype=torch.bfloat16)
        grid = (triton.cdiv(M, 64) * triton.cdiv(N, 128),)
        args = (aq, bq, c, a_s, b_s, M, N, K, K // BS)
        h = t12_fp8_block_scaled_mm[grid](*args, BLOCK_M=64, BLOCK_N=128, BLOCK_K=128, GROUP_M=8, SCALE_N=BS,
                                          num_warps=4, num_stages=3)
        torch.cuda.synchronize()
        ad = aq.float().view(M, K // BS, BS) * a_s[:, :, None]
        bd = bq.float().view(N // BS, BS, K // BS, BS) * b_s[:, None, :, None]
        ref = ad.view(M, K) @ bd.view(N, K).t()
        save(out, launches, "t12_fp8_block_scaled_mm", h, "t12_fp8_block_scaled_mm",
             ("A", "B", "C", "As", "Bs", "M", "N", "K", "ks_groups"), args,
             {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 128, "GROUP_M": 8, "SCALE_N": BS}, grid,
             "w8a8 block-scaled fp8 GEMM (DeepSeek-V3 / vLLM style): A fp8 e4m3 [1,000, 2,048] with per-token-group fp32 scales [1,000, 16], B fp8 [1,536, 2,048] (K-major, read as [128, 128] column tiles) with 128 x 128 block scales [12, 16], two scale loads a K step, 64 x 128 x 128 tiles in grouped order (GROUP_M 8), rows wrapped by %% M (the last M block 40 rows), bf16 out masked, num_warps=4, num_stages=3; rel. error %.2e" % rel(c, ref))

    def topp():
        R, V = 256, 32000
        probs = torch.softmax(torch.randn((R, V), device=dev) * 3, dim=1)
        ps, _ = torch.sort(probs, dim=1, descending=True)
        ps = ps.contiguous()
        tk = torch.randint(20, 3000, (R,), device=dev, dtype=torch.int32)
        tp = (torch.rand((R,), device=dev) * 0.6 + 0.3).to(torch.float32)
        o = torch.empty_like(ps)
        args = (ps, tk, tp, o, V)
        h = t12_topk_topp_mask[(R,)](*args, BLOCK=4096, num_warps=8)
        torch.cuda.synchronize()
        cs = torch.cumsum(ps.double(), 1)
        keep = ((cs - ps.double()) < tp[:, None].double()) & (torch.arange(V, device=dev)[None, :] < tk[:, None])
        ref = torch.where(keep, ps, torch.zeros_like(ps))
        ndiff = int(((o != 0) != keep).sum().item())
        save(out, launches, "t12_topk_topp_mask", h, "t12_topk_topp_mask", ("P", "TopK", "TopP", "Out", "V"), args,
             {"BLOCK": 4096}, (R,),
             "top-k / top-p sampling filter over 256 rows of 32,000 fp32 probabilities sorted in descending order: per-row k (20..2,999) and p (0.3..0.9) loaded, a running prefix sum in 8 chunks of 4,096 (the last 3,328 valid) by tl.cumsum plus a carried tl.sum, kept entries written, the rest zeroed, num_warps=8; rel. error %%.2e, %d kept flags differ from a float64 cumsum" % ndiff % rel(o, ref))

    def segscan():
        R, L = 2048, 2000
        xv = torch.randn((R, L), device=dev, dtype=torch.float32)
        fl = (torch.rand((R, L), device=dev) < 0.02).to(torch.int8)
        fl[:, 0] = 1
        y = torch.empty_like(xv)
        args = (xv, fl, y, L)
        h = t12_segmented_cumsum[(R,)](*args, BLOCK=2048, num_warps=8)
        torch.cuda.synchronize()
        idx = torch.arange(L, device=dev)[None, :].expand(R, L)
        start = torch.cummax(torch.where(fl != 0, idx, torch.zeros_like(idx)), dim=1).values
        cs = torch.cumsum(xv.double(), 1)
        before = torch.where(start > 0, torch.gather(cs, 1, (start - 1).clamp(min=0)), torch.zeros_like(cs))
        save(out, launches, "t12_segmented_cumsum", h, "t12_segmented_cumsum", ("Xv", "Fl", "Y", "L"), args,
             {"BLOCK": 2048}, (R,),
             "segmented inclusive prefix sum over 2,048 fp32 rows of 2,000 (packed sequences: int8 segment-start flags, about 2%% set, column 0 always), tl.associative_scan over (value, flag) pairs with a where-combine, BLOCK 2,048 (48 masked), num_warps=8; rel. error %.2e" % rel(y, cs - before))

    def poi():
        N, C, HW = 30, 192, 729
        x = torch.randn((N, C, 27, 27), device=dev, dtype=torch.float16)
        bias = torch.randn((C,), device=dev, dtype=torch.float16)
        gate = torch.randn((N, C), device=dev, dtype=torch.float16)
        o = torch.empty_like(x)
        xnumel = N * C * HW
        grid = (triton.cdiv(xnumel, 1024),)
        args = (x, bias, gate, o, xnumel)
        h = t12_poi_fused_add_mul_sigmoid_0[grid](*args, XBLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ref = (x.float() + bias.float()[None, :, None, None]) * torch.sigmoid(gate.float())[:, :, None, None]
        save(out, launches, "t12_poi_fused_add_mul_sigmoid_0", h, "t12_poi_fused_add_mul_sigmoid_0",
             ("in_ptr0", "in_ptr1", "in_ptr2", "out_ptr0", "xnumel"), args, {"XBLOCK": 1024}, grid,
             "torch-inductor-style pointwise kernel (squeeze-excite scaling): fp16 NCHW [30, 192, 27, 27] (4,199,040 elements, XBLOCK 1,024, the last block 640), bias[c] and sigmoid(gate[n, c]) broadcast by x // 729 %% 192 and x // 139,968 with eviction_policy evict_last, num_warps=4; rel. error %.2e" % rel(o, ref))

    def welford():
        N, C, HW = 64, 256, 784
        x = torch.randn((N, C, 28, 28), device=dev, dtype=torch.float16) * 2 + 0.5
        xnumel = N * C
        mean = torch.empty((xnumel,), device=dev, dtype=torch.float32)
        var = torch.empty((xnumel,), device=dev, dtype=torch.float32)
        grid = (triton.cdiv(xnumel, 8),)
        args = (x, mean, var, xnumel, HW)
        h = t12_red_fused_var_mean_1[grid](*args, XBLOCK=8, RBLOCK=512, num_warps=8)
        torch.cuda.synchronize()
        xf = x.float().view(xnumel, HW)
        err = max(rel(mean, xf.mean(1)), rel(var, xf.var(1, unbiased=False)))
        save(out, launches, "t12_red_fused_var_mean_1", h, "t12_red_fused_var_mean_1",
             ("in_ptr0", "out_ptr0", "out_ptr1", "xnumel", "rnumel"), args, {"XBLOCK": 8, "RBLOCK": 512}, grid,
             "torch-inductor-style looped reduction (var_mean over H, W): fp16 NCHW [64, 256, 28, 28], xnumel 16,384 rows of rnumel 784 (1,568-byte rows), [8, 512] chunks (the second 272 valid) with evict_first loads and an elementwise Welford update, then tl.reduce over a (mean, m2, weight) tuple, mean and variance stored, num_warps=8; rel. error %.2e" % err)

    def vembed():
        T, D, VS, VE = 4096, 2560, 16000, 32000
        ids = torch.randint(0, 32000, (T,), device=dev, dtype=torch.int64)
        table = torch.randn((VE - VS, D), device=dev, dtype=torch.bfloat16)
        o = torch.empty((T, D), device=dev, dtype=torch.bfloat16)
        grid = (triton.cdiv(T, 16), triton.cdiv(D, 1024))
        args = (ids, table, o, T, D, VS, VE)
        h = t12_vocab_parallel_embed[grid](*args, BLOCK_T=16, BLOCK_D=1024, num_warps=4)
        torch.cuda.synchronize()
        own = (ids >= VS) & (ids < VE)
        ref = torch.where(own[:, None], table[(ids - VS).clamp(0, VE - VS - 1)], torch.zeros_like(o))
        save(out, launches, "t12_vocab_parallel_embed", h, "t12_vocab_parallel_embed",
             ("Ids", "Table", "Out", "T", "D", "vocab_start", "vocab_end"), args, {"BLOCK_T": 16, "BLOCK_D": 1024}, grid,
             "Megatron-style vocabulary-parallel embedding (rank 1 of 2: vocabulary 16,000..31,999): 4,096 random int64 token ids loaded, bf16 shard [16,000, 2,560] (5,120-byte rows), rows of ids outside the shard (about half) not read and stored as zeros (data-dependent load mask), [16, 1,024] tiles on a 2-D grid (the last column block 512), num_warps=4; rel. error %.2e" % rel(o, ref))

    def dwconv():
        N, H, W, C = 16, 56, 56, 144
        x = torch.randn((N, H, W, C), device=dev, dtype=torch.float16)
        wt = torch.randn((3, 3, C), device=dev, dtype=torch.float16) * 0.3
        b = torch.randn((C,), device=dev, dtype=torch.float16)
        y = torch.empty_like(x)
        grid = (N * H, triton.cdiv(W, 16), triton.cdiv(C, 64))
        args = (x, wt, b, y, H, W, C)
        h = t12_dwconv3x3_nhwc[grid](*args, BLOCK_W=16, BLOCK_C=64, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.nn.functional.conv2d(x.permute(0, 3, 1, 2).float(), wt.permute(2, 0, 1)[:, None].float(), b.float(),
                                         padding=1, groups=C).permute(0, 2, 3, 1)
        save(out, launches, "t12_dwconv3x3_nhwc", h, "t12_dwconv3x3_nhwc", ("X", "Wt", "Bias", "Y", "H", "W", "C"), args,
             {"BLOCK_W": 16, "BLOCK_C": 64}, grid,
             "depthwise 3 x 3 convolution, stride 1, padding 1 (MobileNetV2 style), NHWC fp16 [16, 56, 56, 144] (288-byte pixels): [16 pixels, 64 channels] tiles on a 3-D grid (896 image rows, 4 pixel runs (the last 8 wide), 3 channel runs (the last 16 channels)), nine shifted masked loads (borders by masks) and nine [64] weight loads, num_warps=4; rel. error %.2e" % rel(y, ref))

    def copyblk():
        NB, BS, HK, D, P = 2048, 16, 8, 128, 512
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device=dev))
        kc = torch.randn((NB, BS, HK, D), device=dev, dtype=torch.float16)
        vc = torch.randn((NB, BS, HK, D), device=dev, dtype=torch.float16)
        perm = torch.randperm(NB, device=dev)
        mp = torch.stack([perm[:P], perm[P:2 * P]], dim=1).contiguous()
        k0, v0 = kc.clone(), vc.clone()
        args = (kc, vc, mp, NB * BS)
        h = t12_copy_blocks_tdesc[(P,)](*args, ROW=HK * D, BS=BS, BLOCK_R=64, num_warps=4)
        torch.cuda.synchronize()
        k0[mp[:, 1]] = k0[mp[:, 0]]
        v0[mp[:, 1]] = v0[mp[:, 0]]
        err = max(rel(kc, k0), rel(vc, v0))
        save(out, launches, "t12_copy_blocks_tdesc", h, "t12_copy_blocks_tdesc", ("KC", "VC", "Map", "num_rows"), args,
             {"ROW": HK * D, "BS": BS, "BLOCK_R": 64}, (P,),
             "vLLM copy_blocks (copy-on-write of paged KV blocks) through device-side tensor descriptors (tl.make_tensor_descriptor, global scratch from triton.set_allocator): fp16 K and V caches [2,048 blocks, 16, 8, 128] viewed as [32,768, 1,024], 512 (src, dst) int64 pairs loaded (distinct random blocks), 16 [16, 64] descriptor loads and stores a cache a pair, num_warps=4; rel. error %.2e" % err)

    def nf4():
        NW, KW, BSZ = 4000, 4100, 64
        n = NW * KW
        nbytes = n // 2
        nblk = n // BSZ
        code = torch.tensor([-1.0, -0.6962, -0.5251, -0.3949, -0.2844, -0.1848, -0.0911, 0.0,
                             0.0796, 0.1609, 0.2461, 0.3379, 0.4407, 0.5626, 0.7230, 1.0], device=dev)
        code2 = torch.linspace(-1, 1, 256, device=dev) * 0.05
        packed = torch.randint(0, 256, (nbytes,), device=dev, dtype=torch.uint8)
        absq = torch.randint(0, 256, (nblk,), device=dev, dtype=torch.uint8)
        absmax2 = torch.rand((triton.cdiv(nblk, 256),), device=dev) + 0.5
        offset = 0.06
        o = torch.empty((n,), device=dev, dtype=torch.float16)
        grid = (triton.cdiv(nbytes, 1024),)
        args = (packed, absq, code2, absmax2, code, o, nbytes, offset)
        h = t12_nf4_dequant[grid](*args, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        pk = packed.long()
        bi = torch.arange(nbytes, device=dev) // 32
        am = code2[absq.long()[bi]] * absmax2[bi // 256] + offset
        ref = torch.stack([code[pk >> 4] * am, code[pk & 15] * am], dim=1).reshape(-1)
        save(out, launches, "t12_nf4_dequant", h, "t12_nf4_dequant",
             ("Packed", "AbsQ", "Code2", "Absmax2", "Code", "Out", "nbytes", "offset"), args, {"BLOCK": 1024}, grid,
             "bitsandbytes / unsloth NF4 dequantisation with double-quantised absmax: 16,400,000 4-bit weights (4,000 x 4,100) packed two a byte, 1,024 bytes a program (8,008 programs, the last 832 bytes), a uint8 absmax code per 64 values looked up in a 256-entry fp32 table (loaded index), times an fp32 scale per 256 blocks plus an offset, each nibble looked up in a 16-entry table (loaded index), the pairs interleaved by tl.join / tl.reshape into 2,048 fp16 a program, num_warps=4; rel. error %.2e" % rel(o, ref))

    for lid, f in (("t12_attn_fwd_causal_bp", attn), ("t12_paged_decode_gqa", paged), ("t12_rope_neox_qk_inplace", rope),
                   ("t12_rmsnorm_bwd_rows", rms_bwd), ("t12_fp8_group_quant_colmajor", fp8g),
                   ("t12_fp8_block_scaled_mm", fp8mm), ("t12_topk_topp_mask", topp), ("t12_segmented_cumsum", segscan),
                   ("t12_poi_fused_add_mul_sigmoid_0", poi), ("t12_red_fused_var_mean_1", welford),
                   ("t12_vocab_parallel_embed", vembed), ("t12_dwconv3x3_nhwc", dwconv),
                   ("t12_copy_blocks_tdesc", copyblk), ("t12_nf4_dequant", nf4)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-32s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
