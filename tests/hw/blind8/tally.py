#!/usr/bin/env python3
"""Per-category tally of a blind8 agreement table (the snapshot
tests/snapshots/hw_agreement__hw_agreement_blind8.snap, or
agreement_before.snap.txt): rows matched / rows of the simulated, kernel-total
copy-engine and static tables for each category of README.md. A row counts as matched
when its verdict is `yes`.

  python3 tests/hw/blind8/tally.py tests/hw/blind8/agreement_before.snap.txt
"""
import re, sys
CATS = [
    ("PyTorch / apex style, fp8", ["bdr_h8_aligned", "bdr_h8_off2", "rmsnorm_bwd_c4096", "rmsnorm_bwd_c4100",
                                   "fp8_rowquant_e4m3", "fp8_dequant_e5m2"]),
    ("data structures, graph, sparse", ["hash_insert_cas64", "hash_find", "hash_find_cg4", "bloom_set",
                                        "bfs_expand_thread", "bfs_expand_warp", "pointer_jump3", "sell_spmv_c32"]),
    ("hand-written memory paths", ["flag_release_acquire", "cache_ops_mix", "cache_ops_mix_off8", "prefetch_l2_stream",
                                   "st_async_peer", "atomic_fmax_argmax", "shared_atomics_u64", "warpspec_namedbar"]),
    ("classics", ["redblack_gs_red", "redblack_gs_black", "morton_gather", "memcpy_aligned16", "memcpy_co3",
                  "memcpy_mis1", "newline_index", "zaxpy_dot", "blelloch_nopad", "mat4_aos_xform"]),
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
    return "Triton" if launch.startswith("t8_") else "?"
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
