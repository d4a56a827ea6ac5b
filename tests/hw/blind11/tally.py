#!/usr/bin/env python3
"""Per-category tally of a blind11 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind11.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
copy-engine and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind11/tally.py tests/hw/blind11/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("graphs", ["pagerank_pull_warp", "sssp_relax_atomicmin", "triangle_count_merge"]),
    ("physics", ["fdtd_update_h", "fdtd_update_e", "particle_bin_count", "particle_bin_scatter", "sph_density_cells"]),
    ("column databases", ["groupby_hash_agg", "select_gather_sel5", "select_gather_sel60", "bitmap_filter_off0",
                          "bitmap_filter_off5", "merge_path_merge"]),
    ("linear algebra", ["batched_inv4x4_aos", "trsv_lower_warp64", "syrk_tile_pad", "syrk_tile_nopad"]),
    ("deep learning", ["moe_permute_rows", "moe_unpermute_combine", "awq_gemv_int4"]),
    ("images", ["dilate5x5_u16", "resize_area3_u8c3", "rgba_to_i420", "ccl_label_prop"]),
    ("Hopper", ["tma2d_prefetch_rowsum", "tma_swz128_ldsm", "cpasync_mbar_gather", "dsmem_st_async_ring",
                "bulk_s2s_pair"]),
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
    return "Triton" if launch.startswith("t11_") else "?"
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
