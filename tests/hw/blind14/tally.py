#!/usr/bin/env python3
"""Per-category tally of a blind14 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind14.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
copy-engine and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind14/tally.py tests/hw/blind14/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("ATen elementwise and indexing", ["aten_where_offsetcalc", "aten_vec4_sigmoid", "aten_vec4_sigmoid_off4", "aten_cat3_dim1", "aten_embedding_bwd_sorted"]),
    ("vision ops", ["roi_align_fwd", "nms_bitmask", "grid_sample_bilinear", "pixel_shuffle_r2"]),
    ("CUB, Thrust, Faiss", ["cub_reduce_evenshare", "cub_reduce_single_tile", "thrust_counting_transform", "faiss_warp_select_k32"]),
    ("sparse and signal", ["csr_spmm_shared_rows", "fir_sliding_window"]),
    ("softmax and reductions", ["aten_softmax_block_ilp", "aten_softmax_warp_h", "aten_reduce_outer_2d"]),
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
