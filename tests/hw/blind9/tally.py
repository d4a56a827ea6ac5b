#!/usr/bin/env python3
"""Per-category tally of a blind9 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind9.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
copy-engine and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind9/tally.py tests/hw/blind9/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("llama.cpp / ggml quantisation types", ["dequant_q5_0", "iq4nl_matvec_k4096", "iq4nl_matvec_k4032", "dequant_q3_K"]),
    ("vLLM serving", ["copy_blocks", "moe_topk_softmax", "merge_attn_states"]),
    ("graph, vector search", ["gat_edge_softmax_agg", "pq_adc_scan", "l2dist_tile", "bvh_point_query"]),
    ("OpenCV / NPP images, depth processing", ["bgr2gray_u8c3", "resize_nearest_u8c4", "box3x3_u8", "nv12_to_rgba",
                                               "median3x3_u8", "depth_bilateral_u16", "tsdf_integrate"]),
    ("simulation, RNG, FFT", ["lbm_d3q19_soa", "lbm_d3q19_aos", "particles_aos28", "xorwow_normal4", "fft1024_nopad",
                              "fft1024_pad"]),
    ("tensor cores, async copies", ["igemm_s8_mma_k32", "cg_memcpy_smooth_c2048", "cg_memcpy_smooth_c4000"]),
    ("data processing", ["vol_u8_grad_p100", "vol_u8_grad_p128", "bitunpack_w5", "bitunpack_w13", "strings_lower"]),
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
    return "Triton" if launch.startswith("t9_") else "?"
names = [c for c, _ in CATS] + ["Triton", "all"]
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
