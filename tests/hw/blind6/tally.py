#!/usr/bin/env python3
"""Per-category tally of a blind6 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind6.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind6/tally.py tests/hw/blind6/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("PyTorch ATen", ["index_select_rand", "index_select_sorted", "embedding_bwd_sorted", "embedding_bwd_rand",
                      "scatter_add_dim0", "gather_dim1", "vec4_axpby", "reduce_inner_vec", "upsample_bilinear",
                      "im2col_k3s2", "transpose_tile33"]),
    ("llama.cpp / ggml", ["mmvq_q8_0", "rms_norm_f32", "rope_norm", "rope_neox_partial", "mmq_q8_0_tile"]),
    ("vLLM / FlashInfer", ["reshape_and_cache", "decode_paged_warp", "topp_scan_v32000", "topp_scan_t32003"]),
    ("Megatron / apex", ["causal_softmax_768", "multi_tensor_scale", "bias_gelu"]),
    ("classic HPC", ["stencil2d_box9", "stencil3d_zmarch", "spmv_ell_pad", "spmv_csr_warp", "lookback_scan",
                     "bitonic_kv2048", "hist_u8bins"]),
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
    return "Triton" if launch.startswith("t6_") else "?"
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
