#!/usr/bin/env python3
"""Per-category tally of a blind20 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind20.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
copy-engine and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind20/tally.py tests/hw/blind20/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("genomics and column databases", ["kmer_countmin_2bit", "pwm_scan_both_strands", "zonemap_filter_sum",
                                       "dict_code_hist_match_any"]),
    ("audio, DSP, weather grids, radio astronomy", ["biquad_cascade_channels", "polyphase_resample_147_160",
                                                    "goertzel_bins", "latlon_laplacian_wrap", "upwind_flux_2d",
                                                    "vis_gridding_w7"]),
    ("ML serving, recommenders, statistics", ["bgmv_lora_shrink", "dlrm_dot_interact", "spec_decode_accept",
                                              "int8_kv_dequant_scores", "bootstrap_mean_shared"]),
    ("geometry, graphs, lattices, finance, imaging", ["point_in_polygon_shared", "boruvka_min_edge", "ising_checkerboard",
                                                      "mc_asian_philox", "clahe_interp_u8"]),
    ("Triton gathers, scans and pointer tables", ["t20_embedding_bag_offsets", "t20_linrec_assoc_scan",
                                                  "t20_multi_tensor_ema", "t20_t5_relpos_bias",
                                                  "t20_confusion_matrix_atomic"]),
    ("Triton layouts, reductions and pairwise tiles", ["t20_transpose_tltrans", "t20_softmax_dim1_ncl",
                                                       "t20_swin_shift_window_partition", "t20_box_iou_pairwise",
                                                       "t20_topk_iterative_max"]),
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
