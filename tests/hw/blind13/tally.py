#!/usr/bin/env python3
"""Per-category tally of a blind13 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind13.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
copy-engine and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind13/tally.py tests/hw/blind13/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("GEMM and attention", ["cutlass_gemm_cpasync_swz", "flash_fwd_cpasync", "wgmma_linear_tile", "paged_kv_decode"]),
    ("Hopper async copies", ["tma_ws_pipeline_colsum", "bulk_copy_1d_affine"]),
    ("quantised / int8 mat-vecs", ["q4_0_matvec", "q8_0_matvec_dp4a", "int8_gemv_dp4a"]),
    ("reductions and scans", ["radix_hist_upfront", "segmented_sum_warp", "rmsnorm_warp_rows", "cg_tile16_scan_u16"]),
    ("stencil, transpose, gather", ["stencil7_3d_halo", "transpose_pad33", "embedding_bag_sum"]),
    ("elementwise", ["half2_axpby_tail", "float4_scale_unaligned"]),
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
