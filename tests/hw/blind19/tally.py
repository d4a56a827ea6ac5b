#!/usr/bin/env python3
"""Per-category tally of a blind19 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind19.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
copy-engine and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind19/tally.py tests/hw/blind19/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("hashing, text search, succinct data", ["keccak_f1600_rate136", "murmur3_string_column", "minhash_sig64",
                                             "rank1_bitvector", "bitap_count_chunks"]),
    ("graphs, sparse and batched algebra, finance, recommenders", ["jones_plassmann_round", "sptrsv_level_csr",
                                                                  "gemm_batched_6x5x7", "mf_sgd_warp", "binomial_option_crr"]),
    ("graphics, vision, detection", ["zbuffer_tri_atomicmin", "skinning_lbs4", "ray_sphere_nearest", "census5x5_u8",
                                     "yolo_decode_head", "deconv2d_s2k4"]),
    ("signals, multigrid, finite volumes, particles", ["istft_overlap_add", "mg_restrict_fw27", "euler1d_muscl_rusanov",
                                                       "pic_deposit_cic2d"]),
    ("Triton distances, losses and gathers", ["t19_cdist_dot", "t19_nll_loss2d", "t19_triplet_margin_rows",
                                              "t19_kl_div_rows_chunked", "t19_mse_partial_atomic"]),
    ("Triton scatters, search, reshaping, convolution", ["t19_max_unpool2d", "t19_dropout_bwd_bitmask",
                                                         "t19_bucketize_binsearch", "t19_patchify_vit", "t19_dilated_dwconv1d"]),
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
