#!/usr/bin/env python3
"""Per-category tally of a blind21 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind21.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
copy-engine and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind21/tally.py tests/hw/blind21/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("compression and time series", ["lz77_match_window", "gorilla_dod_decode", "byte_unshuffle4",
                                     "bitplane_ballot_transpose"]),
    ("low-bit optimizers and weight formats", ["adam8bit_blockwise_update", "nf4_dequant_double_quant",
                                               "gptq_gidx_gemv", "lion_update_vec4"]),
    ("sequence models", ["alibi_swa_scores", "rwkv4_wkv_forward", "causal_conv1d_cpasync_zfill"]),
    ("bioinformatics, vision, CFD", ["pairhmm_forward_warp", "hog_cell_histogram", "lucas_kanade_5x5",
                                     "weno5_face_x"]),
    ("sorting, sparse algebra, text, Hopper paths", ["samplesort_bucket_count", "bpe_merge_rank_probe",
                                                     "spgemm_row_count_hash", "bulk_gather_pool_rows",
                                                     "ldmatrix_swizzle_hgemm"]),
    ("Triton scans, matmuls and atomics", ["t21_selective_scan_fwd", "t21_splitk_matmul_atomic_bias",
                                           "t21_blocksparse_mm_lut", "t21_hist_u8_tlhist",
                                           "t21_segment_matmul_offsets"]),
    ("Triton norms, sampling, sorting and losses", ["t21_rmsnorm_bwd_lock_dw", "t21_dropout_rand_strided",
                                                    "t21_ce_label_smooth_chunks", "t21_median_sort_rows",
                                                    "t21_gumbel_max_sample"]),
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
