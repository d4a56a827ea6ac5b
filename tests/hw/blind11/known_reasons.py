#!/usr/bin/env python3
"""Write tests/hw/blind11/known.txt: every row of the blind11 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind11.snap) that is `NO` or
`KNOWN`, with its measured reason from the tables below (README.md groups
them by cause). Copied from tests/hw/blind10/known_reasons.py (same table
reading and output); the reasons are this batch's. Each reason of a simulated
or static row ends with the row's figures as the snapshot gives them (model /
measured). Fails to list a row (prints it under `missing`) when no reason is
written for it.

  python3 tests/hw/blind11/known_reasons.py tests/snapshots/hw_agreement__hw_agreement_blind11.snap tests/hw/blind11/known.txt
"""
import re, sys
snap = open(sys.argv[1]).read()
sec_sim = snap.split("## Per access, launch simulated")[1].split("## Kernel totals")[0]
sec_tot = snap.split("## Kernel totals")[1].split("## Copy-engine traffic")[0]
sec_copy = snap.split("## Copy-engine traffic")[1].split("## Per access, static analysis without the grid")[0]
sec_sta = snap.split("## Per access, static analysis without the grid")[1]
def rows(sec):
    for l in sec.splitlines():
        if l.startswith("|") and re.search(r"\| (NO|KNOWN)[ :(|]", l + " "):
            yield [c.strip() for c in l.strip().strip("|").split("|")]

# cause texts (README.md groups them)
PR = ("lanes and addresses on loaded data: `for (k = b + lane; k < e; k += 32)` between the loaded CSR bounds of the "
      "warp's vertex (in-degrees 0..23, mean 11.5: fewer than 32 lanes take a trip); the simulation does not know the "
      "bounds and runs the trip with every lane")
PR58 = PR + "; `contrib[col[k]]` gathers at the loaded sources (random sources: the model takes 32 lines; ~12 lanes measured)"
SSSP = ("lanes on loaded data: only the vertices with a finite loaded distance (`dist[u] != INF`, 10%) go on; the model "
        "keeps every lane (the exit's guard is a loaded value)")
SSSPE = ("addresses and trip counts on loaded data: the out-edge loop runs between loaded CSR bounds of the ~10% of "
         "vertices with a finite distance (3.2 active lanes a request), `col[k]`, `wt[k]` at consecutive edges of "
         "neighbouring vertices (2.06 lines a request) and `atomicMin` (`REDG.E.MIN.S32`, 5 unrolled copies) at the "
         "loaded destinations; the model takes unknown addresses as 32 lines and counts no requests inside the loop")
TRI = ("addresses and trip counts on loaded data: the two-pointer merge of two sorted neighbour lists (`col[i]`, "
       "`col[j]` between loaded bounds, data-dependent steps); the model takes the loaded indices as random (32 lines) "
       "and counts no requests inside the loop")
TRIRED = ("lanes on loaded data: the warp's `u64 atomicAdd` (`REDG.E.ADD.64`) is guarded by `c != 0` (the warp's "
          "triangle count, loaded data): 74 of 19,014 warps count no triangle and branch around it; the model "
          "issues it in every warp")
SPILL = ("ptxas register spill, not in the PTX: under `__launch_bounds__(128)` ptxas spills one register to an 8-byte "
         "stack frame (`STL [R1]` at 0x0070 before the loop, `LDL.LU [R1]` at 0x0b40 after it), one request a warp "
         "(8,192 each); the PTX has no local access (a SASS-front-end cause)")
SPH = ("addresses on loaded data: the 27 neighbour cells of the particle's cell (computed from its loaded position, "
       "particles sorted by cell, so a warp's lanes share few cells: 1.10 lines a request); the model takes the "
       "loaded-position cell as random (32 lines); 212,394 requests (the clamped cells at the box skipped by whole "
       "warps) for 221,184 modelled")
SPH203 = ("addresses and trip counts on loaded data: `pos[j]` for j between the loaded cell bounds (particles sorted by "
          "cell: 2.8 lines a request); the model takes them as random and counts only the first trip")
GB = ("addresses on loaded data: `atomicCAS` on the hash slot of the loaded key (3,000 skewed keys into 8,192 slots, "
      "no collisions): more lanes share a hot key's slot than the model's uniform random slot (30.14 lines modelled, "
      "29.97 measured)")
BITMAP = ("request count, ptxas kept the branch: `if (i < n)` around the two loads (PTX `@%p5 bra $L__BB10_2` over "
          "straight-line code with two `ld.global.nc`); `ifconvert::if_convertible` predicts if-conversion "
          "(long-latency loads with an overlapping access, cost within IF_CONVERT_MAX), so the 4 warps of the last "
          "block with no row (62,504 = 7,813 x 8 warps; 62,500 warps hold rows) would issue lane-less requests; ptxas "
          "emits `BSSY B0; @P2 BRA` around both `LDG.E.CONSTANT` (the block ends in the ballot's `VOTE.ANY`), so "
          "those warps issue nothing: 62,500 measured; per-request figures agree")
MP = ("addresses and trip count on loaded data: the bounded binary search of the cross diagonal (`a[mid]`, "
      "`b[diag - 1 - mid]`) exits on loaded data and is stepped over after its first trip (no request count); "
      "the lanes' `mid` after the first trip depends on the loaded values")
MP305 = ("addresses on loaded data: the merge steps read `a[i]`, `b[j]` at indices the loaded binary search gave; the "
         "model takes them as unknown (32 lines); the lanes' positions are near-consecutive (4.9 lines, 16.5 sectors)")
SYRK = ("request count, sampled 2-D grid with a staircase exit: blocks with `blockIdx.x > blockIdx.y` return at "
        "once (528 of the 32 x 32 blocks work); the simulation runs a sample and groups the unsampled blocks with "
        "their nearest sampled neighbour in linear block order, which a staircase (one change point a grid row, 64 "
        "in all) defeats: 707 working blocks estimated (361,984 = 707 x 512 requests) for 528 (270,336 = 528 x 512); "
        "the per-request figures agree")
CCL = ("lanes on loaded data: the neighbour loads run only for foreground pixels (`lab[p] >= 0`, 60%); the model "
       "keeps every lane in range")
CCLRED = ("addresses on loaded data: `atomicMin(&next[l], m)` at the loaded label `l` of the changed pixels (labels "
          "start as pixel indices: near the pixel, not random), and only where `m < l` (loaded data); the model takes "
          "the address as random (31.25 lines) and every foreground lane active")
CCLRED2 = ("lanes on loaded data: `atomicMin(&next[p], m)` only where a smaller neighbour label was found (`m < l`, "
           "loaded data); the model counts every in-range lane")
CCLOR = ("lanes on loaded data: the warp's `atomicOr(changed, 1)` runs only when the ballot of changed pixels is "
         "non-zero (3,999 of 32,000 warps measured; loaded labels); the model issues it in every warp")
TMAPF = ("request count, ptxas's if-conversion of a taken-arm-first if-then: `if (kt + 2 < ntiles)` around the "
         "`cp.async.bulk.prefetch.tensor` is laid out as `@%p4 bra $L__BB23_6; bra.uni $L__BB23_7; $L__BB23_6: "
         "shl; prefetch; $L__BB23_7:` (the guarded block is the branch target, the fall-through jumps over it); "
         "ptxas predicates it on a uniform predicate (`@!UP0 UTMAPF.L2.2D`), so the last two trips issue it with no "
         "lane (2,048 requests, 1,920 thread instructions measured); `ifconvert` only recognises a block skipped by "
         "a forward `@p bra` (and diamonds), so the model branches around it: 1,920")
GATHER = ("shared wavefronts not modelled: `tl.gather` along a row is lowered to a layout conversion through shared "
          "memory and an `ld.shared` at the loaded int32 indices (a random permutation of each row of 512: 3.39 "
          "wavefronts a request measured); the model gives no wavefront figure for this access (`wf not modelled`, "
          "bounds 1..32)")
R = {
 ("pagerank_pull_warp","blind11.cu:57","ld global"): PR,
 ("pagerank_pull_warp","blind11.cu:58","ld global"): PR58,
 ("sssp_relax_atomicmin","blind11.cu:75","ld global"): SSSP,
 ("sssp_relax_atomicmin","blind11.cu:76","ld global"): SSSP,
 ("sssp_relax_atomicmin","blind11.cu:78","ld global"): SSSPE,
 ("sssp_relax_atomicmin","blind11.cu:79","ld global"): SSSPE,
 ("sssp_relax_atomicmin","blind11.cu:80","red global"): SSSPE,
 ("triangle_count_merge","blind11.cu:99","ld global"): TRI,
 ("triangle_count_merge","blind11.cu:100","ld global"): TRI,
 ("triangle_count_merge","device_atomic_functions.hpp:226","red global"): TRIRED,
 ("sph_density_cells","blind11.cu:185","st local"): SPILL,
 ("sph_density_cells","blind11.cu:190","ld local"): SPILL,
 ("sph_density_cells","blind11.cu:200","ld global"): SPH,
 ("sph_density_cells","blind11.cu:201","ld global"): SPH,
 ("sph_density_cells","blind11.cu:203","ld global"): SPH203,
 ("groupby_hash_agg","device_atomic_functions.hpp:202","atom global"): GB,
 ("bitmap_filter_off0","blind11.cu:273","ld global"): BITMAP,
 ("bitmap_filter_off0","blind11.cu:275","ld global"): BITMAP,
 ("bitmap_filter_off5","blind11.cu:273","ld global"): BITMAP,
 ("bitmap_filter_off5","blind11.cu:275","ld global"): BITMAP,
 ("merge_path_merge","blind11.cu:297","ld global"): MP,
 ("merge_path_merge","blind11.cu:298","ld global"): MP,
 ("merge_path_merge","blind11.cu:305","ld global"): MP305,
 ("ccl_label_prop","blind11.cu:592","ld global"): CCL,
 ("ccl_label_prop","blind11.cu:593","ld global"): CCL,
 ("ccl_label_prop","blind11.cu:594","ld global"): CCL,
 ("ccl_label_prop","blind11.cu:595","ld global"): CCL,
 ("ccl_label_prop","blind11.cu:597","red global"): CCLRED,
 ("ccl_label_prop","blind11.cu:598","red global"): CCLRED2,
 ("ccl_label_prop","blind11.cu:604","red global"): CCLOR,
 ("tma2d_prefetch_rowsum","blind11.cu:635","bulk global"): TMAPF,
 ("t11_gather_rowperm","blind11_triton.py:92","ld shared"): GATHER,
}
for k in ("syrk_tile_pad", "syrk_tile_nopad"):
    for line, op in (("403","ld global"),("403","st shared"),("404","ld global"),("404","st shared"),
                     ("409","ld shared"),("411","ld shared"),("416","st global")):
        R[(k, "blind11.cu:" + line, op)] = SYRK
LOOP = "no totals: a loop exits on loaded data, so the accesses inside it are not counted (%s)"
T = {
 "pagerank_pull_warp": LOOP % "the in-edge loop between loaded CSR bounds",
 "sssp_relax_atomicmin": LOOP % "the out-edge loop between loaded CSR bounds",
 "triangle_count_merge": LOOP % "the two-pointer merge over loaded lists",
 "sph_density_cells": LOOP % "the neighbour loop between loaded cell bounds",
 "groupby_hash_agg": LOOP % "the hash probe loop, which stops at the loaded key's slot",
 "merge_path_merge": LOOP % "the binary search over the loaded inputs",
 "syrk_tile_pad": "kernel totals, request count: the sampled 2-D grid with a staircase exit (blocks above the diagonal return): 707 working blocks estimated for 528 (every load, store and shared figure scaled by 707 / 528)",
 "syrk_tile_nopad": "kernel totals, request count: the sampled 2-D grid with a staircase exit (blocks above the diagonal return): 707 working blocks estimated for 528",
 "ccl_label_prop": "kernel totals on loaded data: the foreground test `lab[p] >= 0`, the hooking condition `m < l` and the warp flag decide which loads and atomics run (60% foreground); 686,750 load sectors modelled (bounds 125,000..1,843,750), 661,505 measured; atomics 96,000 requests modelled, 67,977 measured",
 "t11_ce_fused_fwd_bwd": "kernel totals, lane-less requests on loaded data: the label logit `tl.load(logits + label, mask=label != -100)` is masked on the loaded label; the 31 ignored rows (every 17th) x 8 warps issue it with no lane, which the per-instruction counters count (4,096 both) and the kernel's `l1tex__t_requests` does not: 248 load requests and sectors fewer measured (1,032,968 for 1,033,216)",
 "t11_masked_mean_pool": "kernel totals on loaded data: the loaded int64 attention mask (random lengths 1..512) is the load mask of the hidden-state tiles: padding tokens are not read and whole warps of padding issue lane-less requests the kernel counters do not count; 202,752 load requests modelled, 152,808 measured (sectors 1,325,856 modelled within 153,600..1,726,464, 921,216 measured)",
}
C = {
 "bulk_s2s_pair": "copy-engine traffic of a shared-to-shared bulk copy: `cp.async.bulk.shared::cluster.shared::cta` (`UBLKCP.S.S`) moves the 8,192 bytes from this CTA's shared memory into the peer's; it is not a `tma_ld` (`smsp__sass_inst_executed_op_tma_ld` 0) and reads nothing from global memory (`l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld` 0); Nsight counts its bytes as distributed-shared TMA stores, `l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_tma_st` = 4,194,304 = 512 x 8,192; the harness counted it as a global-to-shared load (512 copies, 4,194,304 bytes; the simulation gives it no copy-engine sectors)",
}
WHY = {
 "fdtd_update_h": "the 1,000-float rows in 32 x 8 blocks (the last block column 8 lanes of 32 valid, `i >= nx - 1` and `j >= ny - 1` exits) need nx, ny and the pitch",
 "fdtd_update_e": "the 1,000-float rows in 32 x 8 blocks (row 0 / column 0 skipped, the last block column partial) and the pitch need the launch",
 "trsv_lower_warp64": "the guarded column loads below the diagonal (`j + lane > k`, `j + 32 + lane > k`: active lanes shrink with the column) need the loop counter's value per trip",
 "moe_permute_rows": "250 `float4` a 4,000-byte row by 256 threads (the last warp 26 lanes) needs the row length",
 "moe_unpermute_combine": "250 `float4` a 4,000-byte row (the last warp 26 lanes) needs the row length",
 "dilate5x5_u16": "the strided tile fill (432 u16 over 256 threads, clamped halo of 2, pitch 2,048 bytes) needs the block and the image size",
 "ccl_label_prop": "the 1,000-pixel rows in 32 x 8 blocks (the last block column 8 lanes) need w",
 "t11_softmax_bwd": "Triton's reduction scratch (one-lane and partial-warp shared accesses of `tl.sum`) needs the launch",
 "t11_ce_fused_fwd_bwd": "Triton's reduction scratch (`tl.max` / `tl.sum` over 8 warps: one-lane and partial-warp shared accesses) and the per-row scalar load and store (one lane of 256 active) need the launch",
 "t11_permute_bshd_bhsd": "the masked last sequence block (S = 1,000: 8 of 32 rows valid) needs S",
 "t11_beam_kv_reorder": "the last of 8 tiles (52 of 64 rows: S = 500) needs S",
 "t11_stft_frames": "the frame masks (400 of 512 columns, 200 samples of zero padding before the signal, frames 640 bytes apart) need the sizes and the program ids",
 "t11_bias_gelu_bwd": "the last column block (56 of 128 valid, N = 3,000) and the 6,000-byte rows' alignment need N",
 "t11_masked_mean_pool": "the data-dependent masks (the loaded attention mask) and Triton's reduction scratch need the launch and the data",
 "t11_matmul_ieee": "the masked edge tiles (500 = 7 x 64 + 52) need M, N",
}
STATIC = {
 ("cpasync_mbar_gather","blind11.cu:736","cp.async global,shared"): "static only: the 4-byte `cp.async.ca` gathers at loaded indices (`src + (idx & mask)`): the shared-side wavefronts of an LDGSTS depend on where the lanes' sources fall in their 16-byte chunks; without the launch the static figure is 1.000 wavefront, the simulation gives 3.545 (3.533 measured)",
 ("dsmem_st_async_ring","blind11.cu:780","st global,shared"): "static only: `st.async.shared::cluster` into the peer CTA (`STAS.128`): the static figure gives no wavefront figure for a remote shared store (`wf not modelled`); the simulation gives 0, as measured (no local shared wavefront)",
 ("t11_permute_bshd_bhsd","blind11_triton.py:77","ld global"): "static only: the masked last sequence block (S = 1,000: 8 of 32 rows valid) needs S: 4 lines and 16 sectors without the grid, 3.906 and 15.625 measured (the simulated row matches)",
}

def figs(r, sim):
    if sim:
        return " [model / measured: requests %s, lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7], r[8])
    return " [model / measured: lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7])

out = ["# tests/hw/blind11: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
       "# The simulated rows first, then the kernel totals, the copy-engine rows, then the static (no grid) rows (launch@static). README.md groups them by cause."]
miss = []
for r in rows(sec_sim):
    key = (r[0], r[1], r[2])
    op, space = r[2].split(" ", 1)
    if key not in R: miss.append(key); continue
    out.append("%s|%s|%s|%s|%s%s" % (r[0], r[1], op, space, R[key], figs(r, True)))
for r in rows(sec_tot):
    if r[0] not in T: miss.append(("tot", r[0])); continue
    out.append("%s|totals|-|-|%s" % (r[0], T[r[0]]))
for r in rows(sec_copy):
    if r[0] not in C: miss.append(("copy", r[0])); continue
    out.append("%s|copy-engine|-|-|%s" % (r[0], C[r[0]]))
for r in rows(sec_sta):
    key = (r[0], r[1], r[2])
    op, space = r[2].split(" ", 1)
    if key in STATIC: reason = STATIC[key]
    elif key in R: reason = R[key] + " (the static row differs for the same reason)" + figs(r, False)
    elif r[0] in WHY:
        reason = "static only: %s: %s lines and %s per request without the grid, %s and %s measured; the simulation with the launch matches" % (WHY[r[0]], r[4] or "-", r[6] or "-", r[5] or "-", r[7] or "-")
    else: miss.append(("static",) + key); continue
    out.append("%s@static|%s|%s|%s|%s" % (r[0], r[1], op, space, reason))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print("missing:", miss)
