#!/usr/bin/env python3
"""Per-category tally of a blind12 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind12.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total,
copy-engine and static tables for each category of README.md. A row counts as
matched when its verdict is `yes` (`KNOWN` and `NO` are mismatches; the
never-true-guard rows are left out). Adapted from tests/hw/blind11/tally.py.

  python3 tests/hw/blind12/tally.py tests/hw/blind12/agreement_before.snap.txt
"""
import sys
CATS = [
    ("attention", ["t12_attn_fwd_causal_bp", "t12_paged_decode_gqa"]),
    ("GEMM / quantisation", ["t12_fp8_group_quant_colmajor", "t12_fp8_block_scaled_mm", "t12_nf4_dequant"]),
    ("norms / reductions / scans", ["t12_rmsnorm_bwd_rows", "t12_topk_topp_mask", "t12_segmented_cumsum",
                                    "t12_red_fused_var_mean_1"]),
    ("pointwise / gathers / copies", ["t12_rope_neox_qk_inplace", "t12_poi_fused_add_mul_sigmoid_0",
                                      "t12_vocab_parallel_embed", "t12_dwconv3x3_nhwc", "t12_copy_blocks_tdesc"]),
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
t = {n: {k: [0, 0] for k in sec} for n in names + ["?"]}
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
if any(v[1] for v in t["?"].values()):
    sys.exit("launches of no category: " + str(t["?"]))
print("| category | rows | kernel totals | copy-engine | static |")
print("| --- | --- | --- | --- | --- |")
for n in names:
    print("| %s | %d/%d | %d/%d | %d/%d | %d/%d |" % ((n,) + tuple(t[n]["rows"]) + tuple(t[n]["totals"]) + tuple(t[n]["copy"])
                                              + tuple(t[n]["static"])))
