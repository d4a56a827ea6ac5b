#!/usr/bin/env python3
"""Per-category tally of a blind10 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind10.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
copy-engine and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind10/tally.py tests/hw/blind10/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("data processing", ["base64_decode", "utf8_validate", "rle_decode", "dict_decode_rand", "dict_decode_sorted"]),
    ("camera / image pipelines", ["bayer_rggb_bilinear", "integral_rows_u8", "integral_cols_u32", "gauss9_row",
                                  "gauss9_col", "warp_affine_rot30", "warp_affine_down2", "lut3_apply_u8c4"]),
    ("crypto", ["aes128_ttable", "sha256_blocks"]),
    ("scientific", ["spmv_dia5", "spmv_dia7", "fem_hex8_apply", "edge_flux_atomic"]),
    ("CUB", ["cub_warp_transpose5", "cub_scatter_striped8", "cub_scatter_striped7"]),
    ("deep learning", ["winograd_f23_input", "avgpool3s2_c64", "avgpool3s2_c40", "bn_stats_nchw", "swa_softmax_w256",
                       "swa_softmax_w100", "argmax_vocab"]),
    ("Hopper", ["bulk_mcast_gemv", "tma2d_mcast_gemv4", "tma2d_reduce_add"]),
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
    return "Triton" if launch.startswith("t10_") else "?"
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
