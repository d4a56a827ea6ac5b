#!/usr/bin/env python3
"""Triton kernels of the fifteenth held-out batch (tests/hw/blind15), the launch
and save code copied from tests/hw/blind12/blind12_triton.py; kernels in the
styles of real projects that the earlier Triton batches do not have (our own
code, nothing copied): the Triton tutorials' persistent matmul through
device-side tensor descriptors with a split epilogue; vLLM's fused_moe GEMM
over sorted token ids, per-block expert ids and padded blocks (routed weights
multiplied in); Megatron / TransformerEngine-style MoE permute (one token row
scattered to its top-k destinations through a loaded row map, capacity drops
as -1) and unpermute (top-k rows gathered at loaded indices and summed with
their probabilities); moe_align-style expert counting by tl.histogram and a
per-block tl.sort of packed (expert, slot) keys; a fused bias + dropout +
residual with tl.rand4x (four blocks a Philox call, the keep mask stored);
Liger's cross entropy forward and backward with the gradient written in place
over the logits (label smoothing, z-loss, ignore_index rows); a channels-last
causal conv1d with initial conv states and SiLU (Mamba / FLA style); Mamba2's
chunked state passing; FLA's varlen chunk-local cumsum (block pointers over a
loaded chunk index table) and gated chunk_fwd_h (block pointers, tl.dot, one
state stored a chunk); an int4 weight-only GEMV unpacked by shifts; Unsloth's
GeGLU (tanh) backward in place; SGLang / vLLM merge_attn_states (two partial
outputs merged by their LSEs, head size 80 padded to 128). Each runs once; the
script is run under ncu with `-k regex:^t15_`
(tests/hw/blind15/measure_blind15.sh). Writes OUT/ID.{ptx,cubin,json} and
OUT/triton_launches.json (PTX paths named tests/hw/blind15/triton/ID.ptx). A
kernel that fails to compile or run is reported and left out.

  python3 tests/hw/blind15/blind15_triton.py OUT
"""
import json
import os
import sys
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def t15_matmul_tma_persistent(A, B, C, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                              BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
    # Triton tutorial style persistent matmul on Hopper: device-side tensor descriptors for A
    # [M, K], B [N, K] and C [M, N], one program an SM striding over the tiles in grouped
    # order, the epilogue split into two half-width TMA stores
    a_d = tl.make_tensor_descriptor(A, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_d = tl.make_tensor_descriptor(B, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
    c_d = tl.make_tensor_descriptor(C, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N // 2])
    start = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_m * num_n
    in_group = GROUP_M * num_n
    for tile in tl.range(start, num_tiles, NUM_SMS):
        gid = tile // in_group
        first_m = gid * GROUP_M
        gsize = tl.minimum(num_m - first_m, GROUP_M)
        pid_m = first_m + (tile % gsize)
        pid_n = (tile % in_group) // gsize
        om = pid_m * BLOCK_M
        on = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_d.load([om, ki * BLOCK_K])
            b = b_d.load([on, ki * BLOCK_K])
            acc = tl.dot(a, b.T, acc)
        acc = tl.reshape(acc, (BLOCK_M, 2, BLOCK_N // 2))
        acc = tl.permute(acc, (0, 2, 1))
        c0, c1 = tl.split(acc)
        c_d.store([om, on], c0.to(tl.float16))
        c_d.store([om, on + BLOCK_N // 2], c1.to(tl.float16))


@triton.jit
def t15_fused_moe(A, B, C, TopkW, SortedIds, ExpertIds, NumPost, N, K, EM, num_valid,
                  stride_am, stride_be, stride_bn, stride_cm,
                  TOP_K: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    # vLLM fused_moe style: the (token, k) slots sorted by expert and padded to BLOCK_M
    # (padding slots hold num_valid), one expert id per block of BLOCK_M sorted slots,
    # A rows gathered at slot // TOP_K, B the expert's [N, K] weight, routed weight
    # multiplied in, C rows scattered at the slot
    pid = tl.program_id(0)
    num_m = tl.cdiv(EM, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * num_n
    gid = pid // in_group
    first_m = gid * GROUP_M
    gsize = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % in_group) % gsize)
    pid_n = (pid % in_group) // gsize
    num_post = tl.load(NumPost)
    if pid_m * BLOCK_M >= num_post:
        return
    offs_tid = pid_m * BLOCK_M + tl.arange(0, BLOCK_M).to(tl.int64)
    offs_token = tl.load(SortedIds + offs_tid)
    token_mask = offs_token < num_valid
    e = tl.load(ExpertIds + pid_m).to(tl.int64)
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N).to(tl.int64)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + (offs_token[:, None] // TOP_K * stride_am + offs_k[None, :])
    b_ptrs = B + e * stride_be + (offs_k[:, None] + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=token_mask[:, None] & (offs_k[None, :] < K - k * BLOCK_K), other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    w = tl.load(TopkW + offs_token, mask=token_mask, other=0)
    acc = acc * w[:, None]
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = C + stride_cm * offs_token[:, None] + offs_cn[None, :]
    tl.store(c_ptrs, acc.to(tl.bfloat16), mask=token_mask[:, None] & (offs_cn[None, :] < N))


@triton.jit
def t15_moe_permute_scatter(X, RowMap, Probs, Out, PermProbs, H, TOP_K: tl.constexpr, BLOCK_H: tl.constexpr):
    # Megatron / TransformerEngine style MoE permute: one program a token, its hidden row
    # read once a chunk and stored at each of its TOP_K destination rows (row map loaded;
    # -1 where the expert's capacity dropped the slot), the routing probabilities permuted
    t = tl.program_id(0)
    for hs in range(0, H, BLOCK_H):
        h = hs + tl.arange(0, BLOCK_H)
        m = h < H
        x = tl.load(X + t.to(tl.int64) * H + h, mask=m)
        for k in tl.static_range(TOP_K):
            dst = tl.load(RowMap + t * TOP_K + k)
            if dst >= 0:
                tl.store(Out + dst.to(tl.int64) * H + h, x, mask=m)
    for k in tl.static_range(TOP_K):
        dst = tl.load(RowMap + t * TOP_K + k)
        if dst >= 0:
            tl.store(PermProbs + dst, tl.load(Probs + t * TOP_K + k))


@triton.jit
def t15_moe_unpermute_reduce(Y, RowMap, Probs, Out, H, TOP_K: tl.constexpr, BLOCK_H: tl.constexpr):
    # MoE unpermute: the expert outputs of a token's TOP_K slots gathered at the loaded row
    # map (dropped slots, -1, masked off) and summed with their probabilities; 2-D grid
    t = tl.program_id(0)
    ph = tl.program_id(1)
    h = ph * BLOCK_H + tl.arange(0, BLOCK_H)
    m = h < H
    acc = tl.zeros([BLOCK_H], dtype=tl.float32)
    for k in tl.static_range(TOP_K):
        src = tl.load(RowMap + t * TOP_K + k)
        p = tl.load(Probs + t * TOP_K + k)
        valid = src >= 0
        y = tl.load(Y + tl.where(valid, src, 0).to(tl.int64) * H + h, mask=m & valid, other=0.0)
        acc += y.to(tl.float32) * p
    tl.store(Out + t.to(tl.int64) * H + h, acc.to(tl.bfloat16), mask=m)


@triton.jit
def t15_moe_expert_hist(TopkIds, Counts, numel, E: tl.constexpr, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    # moe_align_block_size, first step: tokens per expert; a block of top-k expert ids
    # binned by tl.histogram (masked slots sent to bin E, not added), added to the
    # global counts by a vector atomic
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < numel
    ids = tl.load(TopkIds + offs, mask=m, other=E)
    hist = tl.histogram(ids, NBINS)
    bins = tl.arange(0, NBINS)
    tl.atomic_add(Counts + bins, hist, mask=bins < E, sem="relaxed")


@triton.jit
def t15_moe_block_sort(TopkIds, SortedSlot, SortedExp, numel, BLOCK: tl.constexpr):
    # moe_align by sorting: a block of slots sorted by expert with tl.sort over packed
    # int32 keys (expert << 16 | local slot; masked slots get expert 127 and sort last),
    # the slot ids and expert ids unpacked and stored in sorted order
    pid = tl.program_id(0)
    loc = tl.arange(0, BLOCK)
    offs = pid * BLOCK + loc
    m = offs < numel
    e = tl.load(TopkIds + offs, mask=m, other=127)
    key = e * 65536 + loc
    s = tl.sort(key, 0)
    tl.store(SortedSlot + offs, pid * BLOCK + (s & 65535), mask=m)
    tl.store(SortedExp + offs, s >> 16, mask=m)


@triton.jit
def _bda_part(X, Bias, Res, Y, Msk, idx, n, N, p, r):
    m = idx < n
    x = tl.load(X + idx, mask=m, other=0.0).to(tl.float32)
    b = tl.load(Bias + idx % N, mask=m, other=0.0).to(tl.float32)
    res = tl.load(Res + idx, mask=m, other=0.0).to(tl.float32)
    keep = r > p
    y = tl.where(keep, (x + b) / (1.0 - p), 0.0) + res
    tl.store(Y + idx, y.to(tl.bfloat16), mask=m)
    tl.store(Msk + idx, keep.to(tl.int8), mask=m)


@triton.jit
def t15_bias_dropout_add_rand4x(X, Bias, Res, Y, Msk, n, N, p, seed, BLOCK: tl.constexpr):
    # fused bias + dropout + residual (Megatron / apex style) with one Philox call for four
    # blocks (tl.rand4x): a program covers 4 * BLOCK elements, the keep mask stored as int8
    pid = tl.program_id(0)
    ctr = pid * BLOCK + tl.arange(0, BLOCK)
    r0, r1, r2, r3 = tl.rand4x(seed, ctr)
    base = pid * 4 * BLOCK + tl.arange(0, BLOCK)
    _bda_part(X, Bias, Res, Y, Msk, base, n, N, p, r0)
    _bda_part(X, Bias, Res, Y, Msk, base + BLOCK, n, N, p, r1)
    _bda_part(X, Bias, Res, Y, Msk, base + 2 * BLOCK, n, N, p, r2)
    _bda_part(X, Bias, Res, Y, Msk, base + 3 * BLOCK, n, N, p, r3)


@triton.jit
def t15_liger_ce_inplace(X, stride_x, Y, Loss, Z, NumNonIgnore, V, ignore_index, label_smoothing,
                         lse_square_scale, BLOCK: tl.constexpr):
    # Liger-style cross entropy: one program a row of bf16 logits, online max / sum over the
    # vocabulary in chunks, then the gradient written in place over the logits (label
    # smoothing, z-loss, mean over the loaded count of non-ignored rows); ignored rows zeroed
    row = tl.program_id(0).to(tl.int64)
    X += row * stride_x
    y = tl.load(Y + row)
    if y == ignore_index:
        for i in range(0, V, BLOCK):
            o = i + tl.arange(0, BLOCK)
            tl.store(X + o, 0.0, mask=o < V)
        return
    n_non_ignore = tl.load(NumNonIgnore).to(tl.float32)
    x_y = tl.load(X + y).to(tl.float32)
    eps = label_smoothing / V
    m = float("-inf")
    d = 0.0
    scaled_x_sum = 0.0
    for i in range(0, V, BLOCK):
        o = i + tl.arange(0, BLOCK)
        x = tl.load(X + o, mask=o < V, other=float("-inf")).to(tl.float32)
        if label_smoothing > 0:
            scaled_x_sum += tl.sum(tl.where(o < V, -eps * x, 0.0))
        m_new = tl.maximum(m, tl.max(x, 0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new))
        m = m_new
    lse = m + tl.log(d)
    for i in range(0, V, BLOCK):
        o = i + tl.arange(0, BLOCK)
        x = tl.load(X + o, mask=o < V, other=float("-inf")).to(tl.float32)
        sm = tl.exp(x - lse)
        g = sm * (1.0 + 2.0 * lse_square_scale * lse) - eps
        g = tl.where(o == y, g - (1.0 - label_smoothing), g)
        tl.store(X + o, (g / n_non_ignore).to(tl.bfloat16), mask=o < V)
    loss = lse - x_y
    if label_smoothing > 0:
        loss = loss * (1.0 - label_smoothing) + scaled_x_sum + label_smoothing * lse
    z = lse_square_scale * lse * lse
    tl.store(Loss + row, (loss + z) / n_non_ignore)
    tl.store(Z + row, z / n_non_ignore)


@triton.jit
def t15_causal_conv1d_cl(X, W, Bias, InitState, Y, L, D, stride_xb, stride_xl,
                         KW: tl.constexpr, BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    # Mamba / FLA style causal depthwise conv1d over channels-last [B, L, D] bf16 with
    # width KW: the KW shifted [BLOCK_L, BLOCK_D] tiles, positions before 0 read from the
    # initial conv state [B, D, KW - 1] (a 6-byte column stride), bias, SiLU; 3-D grid
    b = tl.program_id(0)
    pl = tl.program_id(1)
    pd = tl.program_id(2)
    l = pl * BLOCK_L + tl.arange(0, BLOCK_L)
    d = pd * BLOCK_D + tl.arange(0, BLOCK_D)
    dm = d < D
    lm = l < L
    acc = tl.zeros([BLOCK_L, BLOCK_D], dtype=tl.float32) + tl.load(Bias + d, mask=dm, other=0.0).to(tl.float32)[None, :]
    for j in tl.static_range(KW):
        ll = l - (KW - 1) + j
        w = tl.load(W + d * KW + j, mask=dm, other=0.0).to(tl.float32)
        x = tl.load(X + b * stride_xb + ll[:, None] * stride_xl + d[None, :],
                    mask=((ll >= 0) & lm)[:, None] & dm[None, :], other=0.0).to(tl.float32)
        s = tl.load(InitState + b * D * (KW - 1) + d[None, :] * (KW - 1) + (ll[:, None] + (KW - 1)),
                    mask=(ll < 0)[:, None] & dm[None, :], other=0.0).to(tl.float32)
        acc += (x + s) * w[None, :]
    y = acc * tl.sigmoid(acc)
    tl.store(Y + b * stride_xb + l[:, None] * stride_xl + d[None, :], y.to(tl.bfloat16), mask=lm[:, None] & dm[None, :])


@triton.jit
def t15_mamba2_state_passing(States, Out, DAlast, Final, Init, nchunks, dim,
                             stride_sb, stride_sc, stride_sh, stride_db, stride_dh,
                             BLOCK: tl.constexpr):
    # Mamba2 chunked SSD, state passing: for each (batch, head, run of the flattened
    # [headdim * dstate] state) a sequential loop over the chunks; out[:, c] is the state
    # entering chunk c, the last one goes to the final state
    pm = tl.program_id(0)
    b = tl.program_id(1)
    h = tl.program_id(2)
    nh = tl.num_programs(2)
    offs = pm * BLOCK + tl.arange(0, BLOCK)
    m = offs < dim
    sp = States + b * stride_sb + h * stride_sh + offs
    op = Out + b * stride_sb + h * stride_sh + offs
    dp = DAlast + b * stride_db + h * stride_dh
    s = tl.load(Init + (b * nh + h) * dim + offs, mask=m, other=0.0)
    tl.store(op, s, mask=m)
    op += stride_sc
    for c in range(nchunks):
        new = tl.load(sp, mask=m, other=0.0)
        da = tl.load(dp + c)
        s = tl.exp(da) * s + new
        if c < nchunks - 1:
            tl.store(op, s, mask=m)
        else:
            tl.store(Final + (b * nh + h) * dim + offs, s, mask=m)
        sp += stride_sc
        op += stride_sc


@triton.jit
def t15_fla_chunk_local_cumsum(S, O, CuSeqlens, ChunkIndices, H: tl.constexpr, BT: tl.constexpr):
    # FLA chunk_local_cumsum, varlen: a program per (chunk of a sequence, head), the
    # (sequence, chunk) pair from a loaded chunk-index table, the sequence's bounds from
    # cu_seqlens, [BT] block pointers over the head's column of [T, H] (stride H)
    i_t = tl.program_id(0)
    i_h = tl.program_id(1)
    i_n = tl.load(ChunkIndices + i_t * 2).to(tl.int32)
    i_t = tl.load(ChunkIndices + i_t * 2 + 1).to(tl.int32)
    bos = tl.load(CuSeqlens + i_n).to(tl.int32)
    eos = tl.load(CuSeqlens + i_n + 1).to(tl.int32)
    T = eos - bos
    p_s = tl.make_block_ptr(S + bos * H + i_h, (T,), (H,), (i_t * BT,), (BT,), (0,))
    p_o = tl.make_block_ptr(O + bos * H + i_h, (T,), (H,), (i_t * BT,), (BT,), (0,))
    b_s = tl.load(p_s, boundary_check=(0,)).to(tl.float32)
    b_o = tl.cumsum(b_s, axis=0)
    tl.store(p_o, b_o, boundary_check=(0,))


@triton.jit
def t15_fla_chunk_fwd_h(K, V, G, Hs, HT, T, NT, HQ: tl.constexpr, KD: tl.constexpr, VD: tl.constexpr,
                        BT: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr):
    # FLA chunk_fwd_h (gated, scalar decay per token and head): the [BK, BV] state carried
    # over the chunks, stored a chunk (bf16), decayed by the chunk's last gate, plus k^T
    # (v * decay) by tl.dot; K and V [B, T, HQ, D] read by block pointers (K transposed),
    # the gates [B, T, HQ] by a block pointer and a scalar load; the final state in fp32
    i_k = tl.program_id(0)
    i_v = tl.program_id(1)
    i_bh = tl.program_id(2)
    i_b = i_bh // HQ
    i_h = i_bh % HQ
    b_h = tl.zeros([BK, BV], dtype=tl.float32)
    for i_t in range(NT):
        p_h = tl.make_block_ptr(Hs + ((i_b * NT + i_t) * HQ + i_h) * KD * VD, (KD, VD), (VD, 1),
                                (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        tl.store(p_h, b_h.to(tl.bfloat16), boundary_check=(0, 1))
        p_k = tl.make_block_ptr(K + (i_b * T * HQ + i_h) * KD, (KD, T), (1, HQ * KD), (i_k * BK, i_t * BT),
                                (BK, BT), (0, 1))
        p_v = tl.make_block_ptr(V + (i_b * T * HQ + i_h) * VD, (T, VD), (HQ * VD, 1), (i_t * BT, i_v * BV),
                                (BT, BV), (1, 0))
        p_g = tl.make_block_ptr(G + i_b * T * HQ + i_h, (T,), (HQ,), (i_t * BT,), (BT,), (0,))
        last = tl.minimum((i_t + 1) * BT, T) - 1
        b_g_last = tl.load(G + (i_b * T + last) * HQ + i_h)
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_v = tl.load(p_v, boundary_check=(0, 1))
        b_g = tl.load(p_g, boundary_check=(0,))
        b_v = (b_v * tl.exp(b_g_last - b_g)[:, None]).to(b_v.dtype)
        b_h *= tl.exp(b_g_last)
        b_h += tl.dot(b_k, b_v)
    p_ht = tl.make_block_ptr(HT + i_bh * KD * VD, (KD, VD), (VD, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
    tl.store(p_ht, b_h, boundary_check=(0, 1))


@triton.jit
def t15_w4a16_gemv_shift(X, Wq, Scales, Zeros, Y, N, K, stride_wn, stride_sn,
                         BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP: tl.constexpr):
    # int4 weight-only GEMV (decode, one token): eight 4-bit weights packed along K in an
    # int32, unpacked by shifts over a broadcast third axis, fp16 scale and zero per
    # (row, group of 128), fp16 activations, fp32 dot by tl.sum; BLOCK_K = GROUP
    pn = tl.program_id(0)
    n = pn * BLOCK_N + tl.arange(0, BLOCK_N)
    nm = n < N
    shifts = tl.arange(0, 8) * 4
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kp = k0 // 8 + tl.arange(0, BLOCK_K // 8)
        w = tl.load(Wq + n[:, None] * stride_wn + kp[None, :], mask=nm[:, None], other=0)
        q = (w[:, :, None] >> shifts[None, None, :]) & 0xF
        q = tl.reshape(q, [BLOCK_N, BLOCK_K])
        g = k0 // GROUP
        s = tl.load(Scales + n * stride_sn + g, mask=nm, other=0.0).to(tl.float32)
        z = tl.load(Zeros + n * stride_sn + g, mask=nm, other=0.0).to(tl.float32)
        x = tl.load(X + k0 + tl.arange(0, BLOCK_K)).to(tl.float32)
        wf = (q.to(tl.float32) - z[:, None]) * s[:, None]
        acc += tl.sum(wf * x[None, :], 1)
    tl.store(Y + n, acc.to(tl.float16), mask=nm)


@triton.jit
def t15_geglu_tanh_bwd_inplace(DW, E, G, n, BLOCK: tl.constexpr):
    # Unsloth-style GeGLU (tanh approximation) backward in place: reads dY, e (gate
    # pre-activation) and g (up), writes h = gelu(e) * g over dY, de over e and dg over g
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    dw = tl.load(DW + offs, mask=m, other=0.0).to(tl.float32)
    e = tl.load(E + offs, mask=m, other=0.0).to(tl.float32)
    g = tl.load(G + offs, mask=m, other=0.0).to(tl.float32)
    s = 0.7978845608028654
    a = s * e * (1.0 + 0.044715 * e * e)
    t = 2.0 * tl.sigmoid(2.0 * a) - 1.0
    f = 0.5 * e * (1.0 + t)
    h = f * g
    df = dw * g
    dg = dw * f
    de = df * (0.5 * (1.0 + t) + 0.5 * e * (1.0 - t * t) * s * (1.0 + 3.0 * 0.044715 * e * e))
    tl.store(DW + offs, h.to(tl.bfloat16), mask=m)
    tl.store(E + offs, de.to(tl.bfloat16), mask=m)
    tl.store(G + offs, dg.to(tl.bfloat16), mask=m)


@triton.jit
def t15_merge_attn_states(Out, OutLse, PO, PLse, SO, SLse, num_tokens,
                          HEAD: tl.constexpr, PADDED: tl.constexpr):
    # SGLang / vLLM merge_attn_states: a prefix and a suffix partial attention output of
    # one (token, head) merged by their log-sum-exps (LSE layout [H, T]), head size 80
    # padded to 128 lanes; one-warp programs on a (token, head) grid
    t = tl.program_id(0)
    h = tl.program_id(1)
    nh = tl.num_programs(1)
    p_lse = tl.load(PLse + h * num_tokens + t)
    s_lse = tl.load(SLse + h * num_tokens + t)
    p_lse = tl.where(p_lse == float("inf"), float("-inf"), p_lse)
    s_lse = tl.where(s_lse == float("inf"), float("-inf"), s_lse)
    mx = tl.maximum(p_lse, s_lse)
    p_se = tl.exp(p_lse - mx)
    s_se = tl.exp(s_lse - mx)
    out_se = p_se + s_se
    tl.store(OutLse + h * num_tokens + t, tl.log(out_se) + mx)
    d = tl.arange(0, PADDED)
    dm = d < HEAD
    base = (t.to(tl.int64) * nh + h) * HEAD
    po = tl.load(PO + base + d, mask=dm, other=0.0).to(tl.float32)
    so = tl.load(SO + base + d, mask=dm, other=0.0).to(tl.float32)
    o = po * (p_se / out_se) + so * (s_se / out_se)
    tl.store(Out + base + d, o.to(tl.bfloat16), mask=dm)


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
        "id": lid, "order": len(launches), "module": "blind15_triton/" + lid, "kernel": fn,
        "ptx": "tests/hw/blind15/triton/%s.ptx" % lid,
        "grid": list(grid) + [1] * (3 - len(grid)), "block": [32 * nw, 1, 1] if nw else None,
        "num_warps": nw, "num_stages": mdd.get("num_stages"), "shared_bytes": mdd.get("shared"),
        "args": [dict(name=n, **describe(a)) for n, a in zip(names, args)],
        "constexprs": constexprs, "note": note})


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(15015)
    dev = "cuda"
    launches = []
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device=dev))

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

    def tma_mm():
        M, N, K, NSM = 1900, 2304, 1536, 132
        a = torch.randn((M, K), device=dev, dtype=torch.float16)
        b = torch.randn((N, K), device=dev, dtype=torch.float16)
        c = torch.empty((M, N), device=dev, dtype=torch.float16)
        tiles = triton.cdiv(M, 128) * triton.cdiv(N, 128)
        grid = (min(NSM, tiles),)
        args = (a, b, c, M, N, K)
        h = t15_matmul_tma_persistent[grid](*args, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, NUM_SMS=NSM,
                                            num_warps=8, num_stages=3)
        torch.cuda.synchronize()
        ref = a.float() @ b.float().t()
        save(out, launches, "t15_matmul_tma_persistent", h, "t15_matmul_tma_persistent",
             ("A", "B", "C", "M", "N", "K"), args,
             {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "NUM_SMS": NSM}, grid,
             "Triton-tutorial persistent matmul through device-side tensor descriptors (tl.make_tensor_descriptor, global scratch from triton.set_allocator): fp16 A [1,900, 1,536], B [2,304, 1,536] (K-major), C [1,900, 2,304]; 128 x 128 x 64 tiles, 270 tiles (15 x 18, the last M block 108 rows, clipped by the descriptor) in grouped order (GROUP_M 8) over 132 persistent programs (tl.range stride 132), the epilogue as two [128, 64] TMA stores after reshape / permute / split, num_warps=8, num_stages=3; rel. error %.2e" % rel(c, ref))

    def fused_moe():
        T, E, TOPK, N, K, BM = 333, 8, 2, 1408, 1024, 64
        a = torch.randn((T, K), device=dev, dtype=torch.bfloat16)
        b = torch.randn((E, N, K), device=dev, dtype=torch.bfloat16) * 0.05
        logits = torch.randn((T, E), device=dev)
        tw, tid = torch.topk(torch.softmax(logits, -1), TOPK, dim=-1)
        tw = tw.float().contiguous()
        flat = tid.reshape(-1)
        numel = T * TOPK
        em = numel + E * (BM - 1)
        sorted_ids = torch.full((em,), numel, device=dev, dtype=torch.int32)
        expert_ids = torch.zeros((triton.cdiv(em, BM),), device=dev, dtype=torch.int32)
        pos = 0
        for e in range(E):
            slots = (flat == e).nonzero().flatten().to(torch.int32)
            cnt = slots.numel()
            sorted_ids[pos:pos + cnt] = slots
            nb = triton.cdiv(cnt, BM)
            expert_ids[pos // BM:pos // BM + nb] = e
            pos += nb * BM
        num_post = torch.tensor([pos], device=dev, dtype=torch.int32)
        c = torch.zeros((numel, N), device=dev, dtype=torch.bfloat16)
        grid = (triton.cdiv(em, BM) * triton.cdiv(N, 64),)
        args = (a, b, c, tw, sorted_ids, expert_ids, num_post, N, K, em, numel, a.stride(0), b.stride(0), b.stride(1),
                c.stride(0))
        h = t15_fused_moe[grid](*args, TOP_K=TOPK, BLOCK_M=BM, BLOCK_N=64, BLOCK_K=64, GROUP_M=8, num_warps=4,
                                num_stages=3)
        torch.cuda.synchronize()
        ref = torch.einsum("sk,snk->sn", a.float()[torch.arange(numel, device=dev) // TOPK], b.float()[flat]) \
            * tw.reshape(-1)[:, None]
        save(out, launches, "t15_fused_moe", h, "t15_fused_moe",
             ("A", "B", "C", "TopkW", "SortedIds", "ExpertIds", "NumPost", "N", "K", "EM", "num_valid", "stride_am",
              "stride_be", "stride_bn", "stride_cm"), args,
             {"TOP_K": TOPK, "BLOCK_M": BM, "BLOCK_N": 64, "BLOCK_K": 64, "GROUP_M": 8}, grid,
             "vLLM fused_moe style GEMM: 333 tokens, 8 experts, top-2 (random router), bf16 A [333, 1,024], B [8, 1,408, 1,024], C [666, 1,408]; the 666 slots sorted by expert and padded to blocks of 64 (padding slots = 666), %d sorted slots in use of EM = 1,170 (programs past the loaded count return), one loaded expert id a block, A rows gathered at slot // 2, routed weights multiplied in, C rows stored at the slot; 64 x 64 x 64 tiles in grouped order (GROUP_M 8), B columns wrapped by %% N, num_warps=4, num_stages=3; rel. error %.2e" % (pos, rel(c, ref)))

    def routing(T, E, TOPK, cap):
        logits = torch.randn((T, E), device=dev)
        probs, eid = torch.topk(torch.softmax(logits, -1), TOPK, dim=-1)
        flat = eid.reshape(-1)
        key = flat * (T * TOPK) + torch.arange(T * TOPK, device=dev)
        order = torch.argsort(key)
        se = flat[order]
        first = torch.searchsorted(se, torch.arange(E, device=dev))
        rank = torch.arange(T * TOPK, device=dev) - first[se]
        keep_sorted = rank < cap
        dst_sorted = torch.cumsum(keep_sorted.long(), 0) - 1
        rowmap = torch.full((T * TOPK,), -1, device=dev, dtype=torch.int64)
        rowmap[order] = torch.where(keep_sorted, dst_sorted, torch.full_like(dst_sorted, -1))
        return probs.float().contiguous(), rowmap.to(torch.int32).view(T, TOPK).contiguous(), int(keep_sorted.sum())

    def permute():
        T, E, TOPK, H = 4096, 32, 4, 2880
        cap = int(1.05 * T * TOPK / E)
        probs, rowmap, nout = routing(T, E, TOPK, cap)
        x = torch.randn((T, H), device=dev, dtype=torch.bfloat16)
        o = torch.zeros((nout, H), device=dev, dtype=torch.bfloat16)
        pp = torch.zeros((nout,), device=dev, dtype=torch.float32)
        args = (x, rowmap, probs, o, pp, H)
        h = t15_moe_permute_scatter[(T,)](*args, TOP_K=TOPK, BLOCK_H=1024, num_warps=4)
        torch.cuda.synchronize()
        rm = rowmap.reshape(-1).long()
        kept = rm >= 0
        ref = torch.zeros_like(o)
        ref[rm[kept]] = x[(torch.arange(T * TOPK, device=dev) // TOPK)[kept]]
        refp = torch.zeros_like(pp)
        refp[rm[kept]] = probs.reshape(-1)[kept]
        err = max(rel(o, ref), rel(pp, refp))
        save(out, launches, "t15_moe_permute_scatter", h, "t15_moe_permute_scatter",
             ("X", "RowMap", "Probs", "Out", "PermProbs", "H"), args, {"TOP_K": TOPK, "BLOCK_H": 1024}, (T,),
             "Megatron / TransformerEngine style MoE permute: 4,096 tokens of bf16 hidden 2,880 (5,760-byte rows; chunks of 1,024, the last 832), 32 experts, top-4, capacity %d slots an expert (%s of 16,384 slots kept, the rest -1 in the loaded int32 row map [4,096, 4]), each token row read once a chunk and stored at its kept destination rows (sorted by expert, then token), the fp32 probabilities permuted, one program a token, num_warps=4; rel. error %.2e" % (cap, format(nout, ","), err))

    def unpermute():
        T, E, TOPK, H = 4096, 32, 4, 2880
        cap = int(1.05 * T * TOPK / E)
        probs, rowmap, nout = routing(T, E, TOPK, cap)
        y = torch.randn((nout, H), device=dev, dtype=torch.bfloat16)
        o = torch.empty((T, H), device=dev, dtype=torch.bfloat16)
        grid = (T, triton.cdiv(H, 512))
        args = (y, rowmap, probs, o, H)
        h = t15_moe_unpermute_reduce[grid](*args, TOP_K=TOPK, BLOCK_H=512, num_warps=2)
        torch.cuda.synchronize()
        rm = rowmap.long()
        gy = y.float()[rm.clamp(min=0)] * (rm >= 0).float()[:, :, None]
        ref = (gy * probs[:, :, None]).sum(1)
        save(out, launches, "t15_moe_unpermute_reduce", h, "t15_moe_unpermute_reduce",
             ("Y", "RowMap", "Probs", "Out", "H"), args, {"TOP_K": TOPK, "BLOCK_H": 512}, grid,
             "MoE unpermute and reduce: bf16 expert outputs [%s, 2,880] (the kept slots of a routing like the permute's: 4,096 tokens, 32 experts, top-4, capacity %d), for each token its 4 rows gathered at the loaded int32 row map (dropped slots, -1, masked off by the loaded value) times their fp32 probabilities and summed; grid (4,096, 6) of [512] chunks (the last 320), num_warps=2; rel. error %%.2e" % (format(nout, ","), cap) % rel(o, ref))

    def hist():
        T, E, TOPK = 16000, 64, 6
        logits = torch.randn((T, E), device=dev)
        ids = torch.topk(logits, TOPK, dim=-1).indices.to(torch.int32).reshape(-1).contiguous()
        cnt = torch.zeros((E,), device=dev, dtype=torch.int32)
        numel = T * TOPK
        grid = (triton.cdiv(numel, 1024),)
        args = (ids, cnt, numel)
        h = t15_moe_expert_hist[grid](*args, E=E, NBINS=2 * E, BLOCK=1024, num_warps=4)
        torch.cuda.synchronize()
        ref = torch.bincount(ids.long(), minlength=E)
        ndiff = int((cnt.long() != ref).sum().item())
        save(out, launches, "t15_moe_expert_hist", h, "t15_moe_expert_hist", ("TopkIds", "Counts", "numel"), args,
             {"E": E, "NBINS": 2 * E, "BLOCK": 1024}, grid,
             "moe_align style expert counts: 96,000 int32 top-6 expert ids of 16,000 tokens over 64 experts, blocks of 1,024 (94 programs, the last 768 valid; masked slots to bin 64) binned by tl.histogram into 128 bins, the first 64 added to the global int32 counts by one masked vector atomic_add (relaxed), num_warps=4; %d of 64 counts differ from torch.bincount" % ndiff)

    def bsort():
        T, E, TOPK = 16000, 64, 6
        logits = torch.randn((T, E), device=dev)
        ids = torch.topk(logits, TOPK, dim=-1).indices.to(torch.int32).reshape(-1).contiguous()
        numel = T * TOPK
        ss = torch.empty_like(ids)
        se = torch.empty_like(ids)
        grid = (triton.cdiv(numel, 2048),)
        args = (ids, ss, se, numel)
        h = t15_moe_block_sort[grid](*args, BLOCK=2048, num_warps=8)
        torch.cuda.synchronize()
        pad = torch.full((grid[0] * 2048,), 127, device=dev, dtype=torch.int64)
        pad[:numel] = ids.long()
        key = (pad * 65536 + torch.arange(2048, device=dev).repeat(grid[0])).view(grid[0], 2048)
        sk = torch.sort(key, dim=1).values
        refs = (torch.arange(grid[0], device=dev)[:, None] * 2048 + (sk & 65535)).reshape(-1)[:numel]
        refe = (sk >> 16).reshape(-1)[:numel]
        ndiff = int(((ss.long() != refs) | (se.long() != refe)).sum().item())
        save(out, launches, "t15_moe_block_sort", h, "t15_moe_block_sort", ("TopkIds", "SortedSlot", "SortedExp", "numel"),
             args, {"BLOCK": 2048}, grid,
             "moe_align by sorting: 96,000 int32 top-6 expert ids (16,000 tokens, 64 experts) in blocks of 2,048 (47 programs, the last 1,792 valid), each block's packed int32 keys (expert << 16 | local slot; masked slots expert 127) sorted by tl.sort, slot ids and expert ids unpacked and stored, num_warps=8; %d of 96,000 entries differ from torch.sort" % ndiff)

    def dropout():
        R, N, p, seed, B = 4000, 3000, 0.1, 1234, 1024
        n = R * N
        x = torch.randn((R, N), device=dev, dtype=torch.bfloat16)
        bias = torch.randn((N,), device=dev, dtype=torch.bfloat16)
        res = torch.randn((R, N), device=dev, dtype=torch.bfloat16)
        y = torch.empty_like(x)
        msk = torch.empty((R, N), device=dev, dtype=torch.int8)
        grid = (triton.cdiv(n, 4 * B),)
        args = (x, bias, res, y, msk, n, N, p, seed)
        h = t15_bias_dropout_add_rand4x[grid](*args, BLOCK=B, num_warps=4)
        torch.cuda.synchronize()
        keep = msk.bool()
        ref = torch.where(keep, (x.float() + bias.float()[None, :]) / (1 - p), torch.zeros_like(x.float())) + res.float()
        frac = keep.float().mean().item()
        save(out, launches, "t15_bias_dropout_add_rand4x", h, "t15_bias_dropout_add_rand4x",
             ("X", "Bias", "Res", "Y", "Msk", "n", "N", "p", "seed"), args, {"BLOCK": B}, grid,
             "fused bias + dropout + residual (Megatron / apex style): bf16 [4,000, 3,000] (12,000,000 elements), bias [3,000] at idx %% 3,000, p = 0.1, one tl.rand4x Philox call for four [1,024] blocks, 4,096 elements a program (2,930 programs, the last 2,816 valid), y in bf16 and the keep mask in int8 stored, num_warps=4; kept fraction %.4f, rel. error (given the stored mask) %.2e" % (frac, rel(y, ref)))

    def liger_ce():
        R, V, ls, zs, ign = 1024, 32064, 0.1, 1e-4, -100
        x = torch.randn((R, V), device=dev, dtype=torch.bfloat16) * 2
        lab = torch.randint(0, V, (R,), device=dev, dtype=torch.int64)
        lab[torch.rand((R,), device=dev) < 0.1] = ign
        nni = (lab != ign).sum().to(torch.int32).reshape(1)
        x0 = x.float().clone()
        loss = torch.zeros((R,), device=dev, dtype=torch.float32)
        zl = torch.zeros((R,), device=dev, dtype=torch.float32)
        args = (x, x.stride(0), lab, loss, zl, nni, V, ign, ls, zs)
        h = t15_liger_ce_inplace[(R,)](*args, BLOCK=16384, num_warps=16)
        torch.cuda.synchronize()
        xr = x0.clone().requires_grad_()
        valid = lab != ign
        lse = torch.logsumexp(xr, -1)
        lt = torch.nn.functional.cross_entropy(xr, lab, ignore_index=ign, label_smoothing=ls, reduction="none")
        tot = ((lt + zs * lse * lse) * valid.float()).sum() / nni.float()
        tot.backward()
        err = max(rel(loss.sum().reshape(1), tot.detach().reshape(1)), rel(x, xr.grad))
        print("liger ce: loss rel %.2e, grad rel %.2e" % (rel(loss.sum().reshape(1), tot.detach().reshape(1)),
                                                          rel(x, xr.grad)))
        save(out, launches, "t15_liger_ce_inplace", h, "t15_liger_ce_inplace",
             ("X", "stride_x", "Y", "Loss", "Z", "NumNonIgnore", "V", "ignore_index", "label_smoothing",
              "lse_square_scale"), args, {"BLOCK": 16384}, (R,),
             "Liger-style cross entropy forward + backward in place: bf16 logits [1,024, 32,064] (64,128-byte rows; two chunks of 16,384, the second 15,680 valid), int64 labels with %d ignore_index (-100) rows (zeroed, early return), an online max / sum pass, then the gradient (label smoothing 0.1, z-loss 1e-4, divided by the loaded non-ignored count) stored over the logits, per-row loss and z-loss stored, num_warps=16; rel. error %%.2e" % int((~valid).sum().item()) % err)

    def conv1d():
        B, L, D, KW = 4, 2000, 3328, 4
        x = torch.randn((B, L, D), device=dev, dtype=torch.bfloat16)
        w = torch.randn((D, KW), device=dev, dtype=torch.bfloat16) * 0.5
        bias = torch.randn((D,), device=dev, dtype=torch.bfloat16) * 0.1
        st = torch.randn((B, D, KW - 1), device=dev, dtype=torch.bfloat16)
        y = torch.empty_like(x)
        grid = (B, triton.cdiv(L, 64), triton.cdiv(D, 128))
        args = (x, w, bias, st, y, L, D, x.stride(0), x.stride(1))
        h = t15_causal_conv1d_cl[grid](*args, KW=KW, BLOCK_L=64, BLOCK_D=128, num_warps=4)
        torch.cuda.synchronize()
        xx = torch.cat([st.float(), x.float().transpose(1, 2)], dim=2)
        ref = torch.nn.functional.conv1d(xx, w.float()[:, None, :], bias.float(), groups=D).transpose(1, 2)
        ref = ref * torch.sigmoid(ref)
        save(out, launches, "t15_causal_conv1d_cl", h, "t15_causal_conv1d_cl",
             ("X", "W", "Bias", "InitState", "Y", "L", "D", "stride_xb", "stride_xl"), args,
             {"KW": KW, "BLOCK_L": 64, "BLOCK_D": 128}, grid,
             "Mamba / FLA style causal depthwise conv1d, channels-last bf16 [4, 2,000, 3,328] (6,656-byte rows), width 4, weights [3,328, 4], initial conv states [4, 3,328, 3] read for positions before 0 (6-byte column stride; the first L block only), bias and SiLU; [64, 128] tiles on a grid (4, 32, 26) (the last L block 16 rows), four shifted masked loads, num_warps=4; rel. error %.2e" % rel(y, ref))

    def ssd_state():
        B, C, H, P, NST, BLK = 2, 32, 24, 80, 128, 4096
        dim = P * NST
        states = torch.randn((B, C, H, dim), device=dev, dtype=torch.float32)
        dal = -torch.rand((B, H, C), device=dev, dtype=torch.float32) * 2
        init = torch.randn((B, H, dim), device=dev, dtype=torch.float32)
        o = torch.empty_like(states)
        fin = torch.empty_like(init)
        grid = (triton.cdiv(dim, BLK), B, H)
        args = (states, o, dal, fin, init, C, dim, states.stride(0), states.stride(1), states.stride(2), dal.stride(0),
                dal.stride(1))
        h = t15_mamba2_state_passing[grid](*args, BLOCK=BLK, num_warps=4)
        torch.cuda.synchronize()
        s = init.clone()
        ref = torch.empty_like(states)
        for c in range(C):
            ref[:, c] = s
            s = torch.exp(dal[:, :, c])[:, :, None] * s + states[:, c]
        err = max(rel(o, ref), rel(fin, s))
        save(out, launches, "t15_mamba2_state_passing", h, "t15_mamba2_state_passing",
             ("States", "Out", "DAlast", "Final", "Init", "nchunks", "dim", "stride_sb", "stride_sc", "stride_sh",
              "stride_db", "stride_dh"), args, {"BLOCK": BLK}, grid,
             "Mamba2 chunked SSD state passing: fp32 chunk states [2, 32 chunks, 24 heads, 80 x 128 = 10,240] (40,960-byte rows), the chunks' last dA cumsum [2, 24, 32] loaded a step, initial states loaded, out[:, c] the state entering chunk c, the last to the final state [2, 24, 10,240]; [4,096] runs (the third 2,048 valid) on a grid (3, 2, 24), a sequential loop over 32 chunks with a store branch, num_warps=4; rel. error %.2e" % err)

    def fla_cumsum():
        H, BT = 16, 64
        lens = torch.randint(100, 3001, (12,), device="cpu").tolist()
        cu = [0]
        for l in lens:
            cu.append(cu[-1] + l)
        Tt = cu[-1]
        idx = []
        for i, l in enumerate(lens):
            for c in range(triton.cdiv(l, BT)):
                idx += [i, c]
        ci = torch.tensor(idx, device=dev, dtype=torch.int32)
        cus = torch.tensor(cu, device=dev, dtype=torch.int32)
        s = torch.randn((1, Tt, H), device=dev, dtype=torch.float32)
        o = torch.empty_like(s)
        nt = len(idx) // 2
        grid = (nt, H)
        args = (s, o, cus, ci)
        h = t15_fla_chunk_local_cumsum[grid](*args, H=H, BT=BT, num_warps=2)
        torch.cuda.synchronize()
        ref = torch.empty_like(s)
        for i, l in enumerate(lens):
            for c in range(triton.cdiv(l, BT)):
                a0 = cu[i] + c * BT
                a1 = min(a0 + BT, cu[i + 1])
                ref[0, a0:a1] = torch.cumsum(s[0, a0:a1].double(), 0).float()
        save(out, launches, "t15_fla_chunk_local_cumsum", h, "t15_fla_chunk_local_cumsum",
             ("S", "O", "CuSeqlens", "ChunkIndices"), args, {"H": H, "BT": BT}, grid,
             "FLA chunk_local_cumsum, varlen: 12 packed sequences of random lengths %s (T = %d) of fp32 gates [1, T, 16] (64-byte token stride), %d chunks of 64 from a loaded int32 (sequence, chunk) table, bounds from the loaded cu_seqlens, [64] block pointers over one head's column with boundary checks (ragged last chunks), tl.cumsum, grid (%d, 16), num_warps=2; rel. error %%.2e" % (lens, Tt, nt, nt) % rel(o, ref))

    def fla_h():
        B, T, HQ, KD, VD, BT = 2, 2000, 8, 128, 128, 64
        NT = triton.cdiv(T, BT)
        k = torch.randn((B, T, HQ, KD), device=dev, dtype=torch.bfloat16) * 0.1
        v = torch.randn((B, T, HQ, VD), device=dev, dtype=torch.bfloat16)
        graw = -torch.rand((B, T, HQ), device=dev) * 0.05
        gp = torch.nn.functional.pad(graw, (0, 0, 0, NT * BT - T)).view(B, NT, BT, HQ)
        g = torch.cumsum(gp, 2).view(B, NT * BT, HQ)[:, :T].contiguous()
        hs = torch.empty((B, NT, HQ, KD, VD), device=dev, dtype=torch.bfloat16)
        ht = torch.empty((B, HQ, KD, VD), device=dev, dtype=torch.float32)
        grid = (KD // 64, VD // 64, B * HQ)
        args = (k, v, g, hs, ht, T, NT)
        h = t15_fla_chunk_fwd_h[grid](*args, HQ=HQ, KD=KD, VD=VD, BT=BT, BK=64, BV=64, num_warps=4, num_stages=2)
        torch.cuda.synchronize()
        st = torch.zeros((B, HQ, KD, VD), device=dev)
        ref = torch.empty((B, NT, HQ, KD, VD), device=dev)
        for c in range(NT):
            ref[:, c] = st
            a0, a1 = c * BT, min((c + 1) * BT, T)
            gl = g[:, a1 - 1]
            kc = k[:, a0:a1].float()
            vc = (v[:, a0:a1].float() * torch.exp(gl[:, None, :] - g[:, a0:a1])[..., None]).to(torch.bfloat16).float()
            st = st * torch.exp(gl)[:, :, None, None] + torch.einsum("bthk,bthv->bhkv", kc, vc)
        err = max(rel(hs, ref), rel(ht, st))
        save(out, launches, "t15_fla_chunk_fwd_h", h, "t15_fla_chunk_fwd_h",
             ("K", "V", "G", "Hs", "HT", "T", "NT"), args,
             {"HQ": HQ, "KD": KD, "VD": VD, "BT": BT, "BK": 64, "BV": 64}, grid,
             "FLA chunk_fwd_h with a scalar gate per token and head (GLA / Mamba2 style): bf16 K, V [2, 2,000, 8, 128] (2,048-byte token stride), fp32 chunk-local gate cumsums [2, 2,000, 8]; a [64, 64] state tile a program on a grid (2, 2, 16), 32 chunks of 64 (the last 16 rows, by boundary checks): the state stored a chunk in bf16 [2, 32, 8, 128, 128], K^T [64, 64] and V [64, 64] block-pointer loads, the gates by a block pointer and a scalar load, tl.dot, the final state in fp32, num_warps=4, num_stages=2; rel. error %.2e" % err)

    def gemv():
        N, K, G = 13824, 5120, 128
        x = torch.randn((K,), device=dev, dtype=torch.float16)
        q = torch.randint(0, 16, (N, K), device=dev, dtype=torch.int32)
        sh = (torch.arange(8, device=dev, dtype=torch.int32) * 4)
        wq = (q.view(N, K // 8, 8) << sh).sum(-1).to(torch.int32).contiguous()
        sc = (torch.rand((N, K // G), device=dev) * 0.02 + 0.005).to(torch.float16)
        zr = (torch.rand((N, K // G), device=dev) * 4 + 6).to(torch.float16)
        y = torch.empty((N,), device=dev, dtype=torch.float16)
        grid = (triton.cdiv(N, 64),)
        args = (x, wq, sc, zr, y, N, K, wq.stride(0), sc.stride(0))
        h = t15_w4a16_gemv_shift[grid](*args, BLOCK_N=64, BLOCK_K=128, GROUP=G, num_warps=4, num_stages=3)
        torch.cuda.synchronize()
        wf = (q.float() - zr.float().repeat_interleave(G, 1)) * sc.float().repeat_interleave(G, 1)
        ref = wf @ x.float()
        save(out, launches, "t15_w4a16_gemv_shift", h, "t15_w4a16_gemv_shift",
             ("X", "Wq", "Scales", "Zeros", "Y", "N", "K", "stride_wn", "stride_sn"), args,
             {"BLOCK_N": 64, "BLOCK_K": 128, "GROUP": G}, grid,
             "int4 weight-only GEMV (decode): fp16 x [5,120], int32-packed 4-bit weights [13,824, 640] (2,560-byte rows, eight nibbles along K a word), fp16 scales and zeros [13,824, 40] per group of 128, [64, 16] packed tiles unpacked by shifts to [64, 128], 216 programs of 64 rows looping over 40 K steps, tl.sum, num_warps=4, num_stages=3; rel. error %.2e" % rel(y, ref))

    def geglu():
        R, F, B = 2001, 8960, 1024
        n = R * F
        dw = torch.randn((R, F), device=dev, dtype=torch.bfloat16)
        e = torch.randn((R, F), device=dev, dtype=torch.bfloat16)
        g = torch.randn((R, F), device=dev, dtype=torch.bfloat16)
        er = e.float().clone().requires_grad_()
        gr = g.float().clone().requires_grad_()
        hh = torch.nn.functional.gelu(er, approximate="tanh") * gr
        hh.backward(dw.float())
        grid = (triton.cdiv(n, B),)
        args = (dw, e, g, n)
        h = t15_geglu_tanh_bwd_inplace[grid](*args, BLOCK=B, num_warps=4)
        torch.cuda.synchronize()
        err = max(rel(dw, hh.detach()), rel(e, er.grad), rel(g, gr.grad))
        save(out, launches, "t15_geglu_tanh_bwd_inplace", h, "t15_geglu_tanh_bwd_inplace",
             ("DW", "E", "G", "n"), args, {"BLOCK": B}, grid,
             "Unsloth-style GeGLU (tanh) backward in place: bf16 dY, e, g [2,001, 8,960] (17,928,960 elements), 1,024 a program (17,509 programs, the last 768 valid), h over dY, de over e, dg over g, num_warps=4; rel. error %.2e" % err)

    def merge():
        T, H, D = 4096, 32, 80
        po = torch.randn((T, H, D), device=dev, dtype=torch.bfloat16)
        so = torch.randn((T, H, D), device=dev, dtype=torch.bfloat16)
        pl = torch.randn((H, T), device=dev, dtype=torch.float32) * 3
        sl = torch.randn((H, T), device=dev, dtype=torch.float32) * 3
        sl[:, :16] = float("inf")
        o = torch.empty_like(po)
        ol = torch.empty_like(pl)
        args = (o, ol, po, pl, so, sl, T)
        h = t15_merge_attn_states[(T, H)](*args, HEAD=D, PADDED=128, num_warps=1)
        torch.cuda.synchronize()
        sl2 = torch.where(sl == float("inf"), torch.full_like(sl, float("-inf")), sl)
        lse = torch.logaddexp(pl, sl2)
        wp = torch.exp(pl - lse).t()[:, :, None]
        ws = torch.exp(sl2 - lse).t()[:, :, None]
        ref = po.float() * wp + so.float() * ws
        err = max(rel(o, ref), rel(ol, lse))
        save(out, launches, "t15_merge_attn_states", h, "t15_merge_attn_states",
             ("Out", "OutLse", "PO", "PLse", "SO", "SLse", "num_tokens"), args, {"HEAD": D, "PADDED": 128}, (T, H),
             "SGLang / vLLM merge_attn_states: bf16 prefix and suffix outputs [4,096, 32, 80] (160-byte heads), fp32 LSEs [32, 4,096] (the first 16 suffix tokens +inf, taken as empty), merged output and LSE stored; one-warp programs on a (4,096, 32) grid, head 80 padded to 128 lanes, num_warps=1; rel. error %.2e" % err)

    for lid, f in (("t15_matmul_tma_persistent", tma_mm), ("t15_fused_moe", fused_moe),
                   ("t15_moe_permute_scatter", permute), ("t15_moe_unpermute_reduce", unpermute),
                   ("t15_moe_expert_hist", hist), ("t15_moe_block_sort", bsort),
                   ("t15_bias_dropout_add_rand4x", dropout), ("t15_liger_ce_inplace", liger_ce),
                   ("t15_causal_conv1d_cl", conv1d), ("t15_mamba2_state_passing", ssd_state),
                   ("t15_fla_chunk_local_cumsum", fla_cumsum), ("t15_fla_chunk_fwd_h", fla_h),
                   ("t15_w4a16_gemv_shift", gemv), ("t15_geglu_tanh_bwd_inplace", geglu),
                   ("t15_merge_attn_states", merge)):
        attempt(lid, f)

    with open(os.path.join(out, "triton_launches.json"), "w") as f:
        json.dump({"schema": "warpscope-hw-triton-launches/1", "triton_version": triton.__version__,
                   "torch_version": torch.__version__, "launches": launches}, f, indent=1)
    for l in launches:
        print("triton launch %-32s grid %s block %s shared %s  %s" % (l["id"], l["grid"], l["block"], l["shared_bytes"], l["note"]))


if __name__ == "__main__":
    main()
