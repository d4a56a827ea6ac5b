#!/usr/bin/env python3
"""Per-category tally of a blind16 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind16.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
copy-engine and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind16/tally.py tests/hw/blind16/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("rendering, geometry, point clouds", ["gs_tile_raster", "hashgrid_encode", "ball_query", "furthest_point_sampling",
                                           "dcn_im2col_bilinear", "mc_classify_edges"]),
    ("sparse, hashing, compaction", ["spconv_gather_mma", "hash_join_probe", "radix_partition_warp_agg", "nonzero_compact",
                                     "scatter_amax_i64"]),
    ("sequences and recurrences", ["ctc_alpha_shared", "lstm_pointwise_gates", "smith_waterman_antidiag", "cumsum_outer_dim"]),
    ("crypto, spectral, stencil, norm, elementwise", ["chacha20_xor_uint4", "stockham_fft_bulk", "instnorm_cluster_dsmem",
                                                       "bf16_gelu_vec4_misaligned", "jacobi2d_cpasync"]),
    ("Triton GEMM and attention", ["t16_linear_bias_gelu", "t16_blocksparse_attn_fwd", "t16_int8_gemm_rowscale"]),
    ("Triton row kernels", ["t16_varlen_softmax", "t16_reduce2d_keepdims", "t16_rmsnorm_np2", "t16_kv_append_gqa",
                            "t16_topk_sort", "t16_cumsum_rows", "t16_rotary_bf16"]),
]
snap = open(sys.argv[1]).read()
sec = {
    "rows": snap.split("## Per access, launch simulated")[1].split("## Kernel totals")[0],
    "totals": snap.split("## Kernel totals")[1].split("## Copy-engine traffic")[0],
    "copy": snap.split("## Copy-engine traffic")[1].split("## Per access, static analysis without the grid")[0],
    "static": snap.split("## Per access, static analysis without the grid")[1],
}
def cat_of(launch):
    for name, ls in CATS:
        if launch.split("@")[0] in ls:
            return name
    return "?"
names = [c for c, _ in CATS] + ["all"]
t = {n: {k: [0, 0] for k in sec} for n in names}
for k, s in sec.items():
    for l in s.splitlines():
        if not l.startswith("| ") or l.startswith("| launch") or l.startswith("| ---"):
            continue
        cells = [c.strip() for c in l.strip().strip("|").split("|")]
        verdict = cells[-1]
        if verdict.startswith("never"):
            continue
        ok = verdict == "yes"
        for n in (cat_of(cells[0]), "all"):
            t[n][k][0] += ok
            t[n][k][1] += 1
print("| category | rows | kernel totals | copy-engine | static |")
print("| --- | --- | --- | --- | --- |")
for n in names:
    print("| %s | %d/%d | %d/%d | %d/%d | %d/%d |" % ((n,) + tuple(t[n]["rows"]) + tuple(t[n]["totals"]) + tuple(t[n]["copy"])
                                              + tuple(t[n]["static"])))
