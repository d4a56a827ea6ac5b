#!/usr/bin/env python3
"""Per-category tally of a blind17 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind17.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
copy-engine and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind17/tally.py tests/hw/blind17/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("physics, linear algebra, sequences", ["lj_force_nlist", "pcr_tridiag_shared", "cholesky_batched16", "dgemm_wmma_f64",
                                            "viterbi_decode", "levenshtein_local"]),
    ("imaging and volumes", ["haar_dwt2d", "warp_affine_u8c3", "raymarch_grid", "adaptive_avg_pool2d", "conv3d_direct",
                             "space_to_depth_nchw"]),
    ("binary networks, search, statistics", ["xnor_popc_gemm", "knn_topk8", "bucketize_bincount", "weighted_hist_f64",
                                             "bn_stats_nhwc"]),
    ("sparse, gather, bulk store", ["sddmm_csr_warp", "index_select_cols_half", "rowquant_bulk_store"]),
    ("Triton GEMM and dot", ["t17_matmul_swizzle2d", "t17_batched_dot3d", "t17_kmeans_assign"]),
    ("Triton row, gather and elementwise kernels", ["t17_nerf_cumprod", "t17_complex_mul_interleave", "t17_jagged_to_padded",
                                                    "t17_hash_embed_umulhi", "t17_suffix_sum_flip", "t17_xor_sum_rows",
                                                    "t17_erfinv_transposed"]),
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
