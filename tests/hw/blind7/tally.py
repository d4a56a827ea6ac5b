#!/usr/bin/env python3
"""Per-category tally of a blind7 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind7.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind7/tally.py tests/hw/blind7/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("CUB / libcu++ / cooperative groups", ["cub_direct_reduce_tail", "cub_direct_reduce_off4", "cub_vec_scan",
                                            "cub_transpose_runmax", "cub_radix_sort_tile", "cub_hist_atomic",
                                            "cub_hist_sort", "cub_warp_rowstats", "pipe_thread_3stage",
                                            "barrier_tile_copy", "cg_row_normalize_c1000", "cg_row_normalize_c1001",
                                            "cg_labeled_rand", "cg_labeled_sorted"]),
    ("Hopper memory paths", ["dsmem_pair_shift", "dsmem_cluster_gather", "bulk_segments_2phase", "tma2d_swz64_rows",
                             "tma2d_swz128_roundtrip", "stmatrix_x4_x1t", "ldnc_rows_rand", "ldnc_rows_sorted",
                             "red_vec_half_sorted", "red_vec_half_rand", "atom_vec_f32"]),
    ("classics", ["spmm_csr_rowwarp", "seg_warp_reduce_sorted", "conv2d_const5x5", "conv3x3_const_divergent",
                  "transpose_f64_tile33", "half2_sum_hadd2", "perm_gather_rand", "perm_gather_sorted",
                  "perm_scatter_rand", "perm_scatter_sorted", "kmeans_assign8"]),
]
snap = open(sys.argv[1]).read()
sec = {
    "rows": snap.split("## Per access, launch simulated")[1].split("## Kernel totals")[0],
    "totals": snap.split("## Kernel totals")[1].split("## Copy-engine traffic")[0],
    "static": snap.split("## Per access, static analysis without the grid")[1],
}
def cat_of(launch):
    for name, ls in CATS:
        if launch.split("@")[0] in ls:
            return name
    return "Triton" if launch.startswith("t7_") else "?"
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
print("| category | rows | kernel totals | static |")
print("| --- | --- | --- | --- |")
for n in names:
    print("| %s | %d/%d | %d/%d | %d/%d |" % ((n,) + tuple(t[n]["rows"]) + tuple(t[n]["totals"]) + tuple(t[n]["static"])))
