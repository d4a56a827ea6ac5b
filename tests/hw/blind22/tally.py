#!/usr/bin/env python3
"""Per-category tally of a blind22 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind22.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
copy-engine and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind22/tally.py tests/hw/blind22/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("graphs and column stores", ["bfs_bottomup_bitmap", "kcore_peel_round", "late_materialize_gather",
                                  "parquet_dict_bitpack7", "bitmap_semi_join_probe", "like_prefix_filter"]),
    ("image codecs and vision", ["yuyv422_to_i444", "jpeg_dequant_zigzag_idct", "lut16_tonemap_u16",
                                 "label_bbox_shared_atomics"]),
    ("physics, hashing, dense algebra", ["pbd_distance_jacobi", "xxh32_rows100", "trsm_batched_lower8",
                                         "householder_apply_colmajor"]),
    ("ML formats and serving", ["mxfp4_dequant_e8m0", "lora_sgmv_expand", "ctc_greedy_decode"]),
    ("Hopper memory paths", ["ldmatrix_trans_hgemm_nn", "cpasync4_stencil_zfill", "cpasync_mbar_rowsumsq"]),
    ("Triton matmuls, attention, gathers", ["t22_matmul_pipe_w8s3", "t22_gqa_decode_splitkv", "t22_conv2d_igemm_nchw",
                                            "t22_gather_scatter_rows", "t22_rowwise_adagrad_sparse"]),
    ("Triton norms, scans, quantization", ["t22_layernorm_fwd_stats", "t22_cummax_argmax_scan", "t22_int8_group_quant",
                                           "t22_masked_logsumexp", "t22_rope_interleaved_split"]),
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
