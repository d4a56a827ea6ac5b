#!/usr/bin/env python3
"""Per-category tally of a blind15 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind15.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total,
copy-engine and static tables for each category of README.md. A row counts as
matched when its verdict is `yes` (`KNOWN` and `NO` are mismatches; the
never-true-guard rows are left out). Adapted from tests/hw/blind12/tally.py.

  python3 tests/hw/blind15/tally.py tests/hw/blind15/agreement_before.snap.txt
"""
import sys
CATS = [
    ("GEMM / GEMV", ["t15_matmul_tma_persistent", "t15_fused_moe", "t15_w4a16_gemv_shift"]),
    ("MoE routing / gathers", ["t15_moe_permute_scatter", "t15_moe_unpermute_reduce", "t15_moe_expert_hist",
                               "t15_moe_block_sort", "t15_merge_attn_states"]),
    ("losses / elementwise", ["t15_bias_dropout_add_rand4x", "t15_liger_ce_inplace", "t15_geglu_tanh_bwd_inplace"]),
    ("sequence models", ["t15_causal_conv1d_cl", "t15_mamba2_state_passing", "t15_fla_chunk_local_cumsum",
                         "t15_fla_chunk_fwd_h"]),
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
