#!/usr/bin/env python3
"""Write tests/hw/blind12/known.txt: every row of the blind12 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind12.snap) that is `NO` or
`KNOWN`, with its measured reason from the tables below (README.md groups
them by cause). Adapted from tests/hw/blind11/known_reasons.py (same table
reading and output); the reasons are this batch's, established from the PTX
(`triton/*.ptx`), the SASS (`raw/sass.tgz`) and ncu's per-instruction rows
(`measured_sass_triton.json.gz`). Each reason of a simulated or static row ends
with the row's figures as the snapshot gives them (model / measured). Lists a
row it has no reason for under `missing` (and leaves it out of known.txt, so
that the test fails on it).

  python3 tests/hw/blind12/known_reasons.py tests/snapshots/hw_agreement__hw_agreement_blind12.snap tests/hw/blind12/known.txt
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

F = "blind12_triton.py:"
# cause texts (README.md groups them)
HGMMA_ATTN = ("HGMMA line attribution: ptxas's `HGMMA` instructions carry other source lines than the PTX `wgmma` they "
              "come from (ncu: 2 at standard.py:263, 1 at line 62, 7 at line 64, 2 at line 73, 36,864 + 18,432 + "
              "129,024 + 36,864 = 221,184 warp-level instructions); the model puts its wgmma at lines 64 and 73 "
              "(147,456 + 73,728 = 221,184): the sum agrees, 8 wavefronts a request on both sides")
HGMMA_MM = ("QGMMA line attribution: ptxas's `QGMMA.64x128x32` instructions carry line 211 (1 instruction, 12,288) and "
            "213 (3, 36,864); the model puts all of the PTX `wgmma` at line 213 (49,152): the sum agrees, 12 "
            "wavefronts a request on both sides")
TAILLBL = ("request count, the tail exit behind a label: the last guarded `@%p85 st.global.v4` is followed by "
           "`$L__BB0_1: // %common.ret` (the early return's join) and `ret`; `memops::before_exit` stops at a label, so the "
           "model predicates the store in every warp (16,384); ptxas puts it after `@!P3 EXIT` (SASS 0x5400/0x5410, the 7 "
           "stores before it stay predicated): the 8 warps of the last query block whose 16 rows (112..127) are past "
           "S = 1,000 skip it, 32 x 8 = 256 requests fewer (1,792 for that instruction, 16,128 in all); per request 3.968 lines")
TAILMM = ("request count at the tail exit, in a sampled grid: ptxas puts the last of the 8 `STG.E.128` after `@!P1 EXIT` "
          "(SASS 0x37e0); it covers rows 56..63 of the 64-row tile, all past M = 1,000 in the 12 programs of the last "
          "M block (40 rows), so 12 x 4 = 48 warps skip it (720 of 768 requests, 6,096 in all); the model applies the "
          "tail exit too, but estimates the grid from 160 of its 192 programs (`warpscope report`: \"totals estimated "
          "from 160 of 192 blocks (simulation budget)\"; the grouped program order scatters the last M block's 12 "
          "programs): 32 warps skip it (736), and the two partial stores before it get 30.67 lanes for 30.00 measured")
CONSTF115 = ("a store guarded by a constant-false predicate: the output's two `st.global.v4` a thread are `@%p1` (tid < 64) "
             "and `mov.pred %p44, 0; @%p44 st.global.v4`; ptxas deletes the second, which makes the first the kernel's tail "
             "store, placed after `@P5 EXIT` (SASS 0x2bd0/0x2be0): only the 2 warps with lanes issue it (512 requests of "
             "4 lines); the model keeps the `@%p1` store predicated in all 4 warps (1,024 requests of 2 lines: the same "
             "2,048 lines) and the deleted one below the exit")
STSM115 = ("no wavefront figure in the simulation: the `stmatrix` address after the decode loop uses registers "
           "(`%r477`..`%r479`) set in the loop's preheader and in its zero-trip edge; after a loop that exits on loaded "
           "data the simulation does not know them (pattern `random`, `wf not modelled`); the static analysis gives 4 "
           "wavefronts (irregular), as measured; not investigated further")
PAGED_LOC = ("trip count and lanes on loaded data: the decode loop runs to the loaded sequence length (200..2,000) and "
             "its last trip is masked by `n < cur_len`: the model steps over the loop on loaded data (no request count) "
             "and takes full-lane requests; measured 29.32 active lanes a request, lane-less requests of the last trip "
             "counted (0.917 lines a request, the same 0.917 of the model's figure as at lines 104 and 110)")
PAGED_KV = ("addresses and lanes on loaded data: K and V rows gathered at the loaded token locations (random 16-token "
            "pages, 2,048-byte token stride) by `cp.async` (`LDGSTS.E.BYPASS.128`), the last trip masked by `n < cur_len`; "
            "the model takes the loaded rows as random (4 lines, 16 sectors) and steps over the loop (no request "
            "count); measured 3.665 lines, 14.65 sectors: 0.917 of the model's 4 lines, as the token locations' lines at line 103 (the masked token slots of the last trip)")
REDIF = ("ptxas's if-conversion, split: the cross-warp step of `tl.reduce` over the 3-tuple reads the scratch by three "
         "`@%p7 ld.shared.b32` (guard tid < 16: warp 0 only); ptxas predicates the first (`@!P2 LDS R0`, SASS 0x3680: "
         "all 8 warps, 16,384 requests) and branches around the other two (`@P2 BRA 0x36c0; LDS; LDS`: warp 0 only, "
         "2,048 each): 118,784 requests, 0.879 wavefronts a request; the model predicates all three (147,456, 0.708)")
SPILL = ("ptxas register spill, not in the PTX: ptxas spills registers of the nine-tap loop to the stack (two "
         "`LDL.LU` at lines 354 and 356, 43,008 requests each, and two `STL` at line 356, 86,016 requests); the PTX has "
         "no local access (a SASS front-end cause)")
TMAP = ("tensor descriptors built on the device: `tl.make_tensor_descriptor` writes a 128-byte tensormap in shared "
        "memory by Triton's `@%p1 st.shared` (zeroing, tid < 32) and 13 `@%p2 tensormap.replace.tile.*` (tid == 0), "
        "then `tensormap.cp_fenceproxy` to global scratch; the model (stop 30) counts the zeroing store in each of the "
        "4 warps and the 13 replaces in warp 0 (8,704 requests; 28,672 in the blind run, where a bug of main at "
        "d48f7bf let the guarded-store rule take the replaces); ptxas predicates the zeroing and one replace "
        "(2,048 each: `@!P0 STS`, `@!P1 STS`), branches around the other replaces, lowered to one-lane "
        "read-modify-writes (13 `STS`/`STS.64` and 11 `LDS` of warp 0 only, 512 each), and copies the tensormap out "
        "by `LDS` + `ATOMG.E.EXCH`: 10,752 `STS` requests of 0.714 wavefronts and 5,632 `LDS` (at line 371, "
        "7,168 at 372) that the PTX does not have (no row)")
TMASTG = ("request count of the last TMA store, a tail exit through a barrier: the model counts 512 for the last "
          "`@%p66 cp.async.bulk.tensor` store (line 377: one warp a program, 31,232 in all) because "
          "`memops::before_exit` skips `cp.async.bulk.commit_group`, `cp.async.bulk.wait_group.read 0` and `bar.sync 0`, "
          "which the PTX front end lowers to `OpKind::Nop` (no destination), and takes the store for the op that ends "
          "the kernel (`guard_off_issues`: the warps whose guard is off issue nothing); ptxas keeps it as `@UP1 "
          "UTMASTG.2D` (SASS 0x6930: a uniform predicate from `VOTEU.ANY` of `elect` and tid < 32) before "
          "`UTMACMDFLUSH; DEPBAR; BAR.SYNC; EXIT`, issued by all 4 warps like the 15 stores before it (2,048 each, as "
          "modelled for them): 32,768")
NF4MERGE = ("ptxas merges identical loads: Triton emits eight `@%p1 ld.global.b8` of the same address `[%rd2]` (the "
            "absmax code `AbsQ + offs // 32` of a thread's 8 bytes, all in one 32-byte block) and ptxas keeps one "
            "(`@!P0 LDG.E.U8`: 32,032 requests, 1 line); the model counts eight (256,256 requests; the same 1 line each)")
NF4LOOK = ("addresses on loaded data: `Code2 + aq` at the loaded uint8 absmax codes (256-entry fp32 table; each warp's "
           "lanes share 8 codes) and the second-level scale; the model takes the loaded index as random over the "
           "table (4.44 lines, 10.7 sectors; bounds 1..16.5), measured 3.13 lines, 4.09 sectors (row within bounds)")
R = {
 ("t12_attn_fwd_causal_bp", "standard.py:263", "wgmma shared"): HGMMA_ATTN,
 ("t12_attn_fwd_causal_bp", F + "62", "wgmma shared"): HGMMA_ATTN,
 ("t12_attn_fwd_causal_bp", F + "64", "wgmma shared"): HGMMA_ATTN,
 ("t12_attn_fwd_causal_bp", F + "73", "wgmma shared"): HGMMA_ATTN,
 ("t12_attn_fwd_causal_bp", F + "80", "st global"): TAILLBL,
 ("t12_paged_decode_gqa", F + "103", "ld global"): PAGED_LOC,
 ("t12_paged_decode_gqa", F + "104", "cp.async global,shared"): PAGED_KV,
 ("t12_paged_decode_gqa", F + "110", "cp.async global,shared"): PAGED_KV,
 ("t12_paged_decode_gqa", F + "115", "st global"): CONSTF115,
 ("t12_paged_decode_gqa", F + "115", "stmatrix shared"): STSM115,
 ("t12_fp8_block_scaled_mm", F + "211", "wgmma shared"): HGMMA_MM,
 ("t12_fp8_block_scaled_mm", F + "213", "wgmma shared"): HGMMA_MM,
 ("t12_fp8_block_scaled_mm", F + "219", "st global"): TAILMM,
 ("t12_red_fused_var_mean_1", F + "312", "ld shared"): REDIF,
 ("t12_dwconv3x3_nhwc", F + "354", "ld local"): SPILL,
 ("t12_dwconv3x3_nhwc", F + "356", "ld local"): SPILL,
 ("t12_dwconv3x3_nhwc", F + "356", "st local"): SPILL,
 ("t12_copy_blocks_tdesc", F + "371", "ld shared"): TMAP,
 ("t12_copy_blocks_tdesc", F + "371", "st shared"): TMAP,
 ("t12_copy_blocks_tdesc", F + "372", "ld shared"): TMAP,
 ("t12_copy_blocks_tdesc", F + "372", "st shared"): TMAP,
 ("t12_copy_blocks_tdesc", F + "377", "bulk global,shared"): TMASTG,
 ("t12_nf4_dequant", F + "391", "ld global"): NF4MERGE,
 ("t12_nf4_dequant", F + "392", "ld global"): NF4LOOK,
}
T = {
 "t12_paged_decode_gqa": "no totals: a loop exits on loaded data (the decode loop to the loaded sequence length), so the accesses inside it are not counted",
 "t12_fp8_block_scaled_mm": "kernel totals, stores, sampled grid: the totals are estimated from 160 of the 192 programs, which count 8 programs' worth of the last M block for 12 (row 219: 32 warps skip the tail store for 48; the two partial stores' lanes): 6,048 store requests modelled, 6,000 measured (96,768 / 96,000 sectors)",
 "t12_poi_fused_add_mul_sigmoid_0": "kernel totals, load sectors, sampled grid: the totals are estimated from 2,094 of the 4,101 programs (`warpscope report`); each of the 16 `evict_last` broadcast loads (`LDG.E.EL.U16`, lines 269, 270) gets 16,734 sectors for 16,740 measured: 530,184 modelled, 530,280 measured (96 fewer, 0.02%); requests and every per-instruction row agree to the table's precision",
 "t12_vocab_parallel_embed": "kernel totals on loaded data: the embedding rows are read under a mask from the loaded ids (rows outside the rank's shard not read); warps whose 16 tokens are all outside the shard issue lane-less requests, which the per-instruction counters count (49,152 at line 331, as modelled) and the kernel's `l1tex__t_requests` does not: 45,426 load requests measured for 73,728 (sectors: 811,008 modelled, bounds 679,936..1,466,368; 358,176 measured, below the bounds, which count every listed request's sectors)",
 "t12_dwconv3x3_nhwc": "kernel totals, lane-less requests in a sampled grid: the nine border-masked tile loads issue requests with no lane in warps whose lanes are all masked (the padding rows above and below the image, the last pixel and channel runs), which the kernel counter does not count (817,152 per instruction on both sides, 772,704 in the kernel counter); the model estimates the totals from 998 of the 10,752 programs (`warpscope report`): 771,838 load requests (866 fewer), 5,277,256 sectors for 5,282,208; which programs the estimate misses: not investigated",
 "t12_nf4_dequant": "kernel totals: the merged absmax-code loads (row 391: 224,224 requests fewer measured = 1,313,312 - 1,089,088 exactly) and the table lookups at loaded codes (row 392: 10.7 sectors a request modelled, 4.09 measured) account for the load requests and sectors (7,024,946 modelled, 3,411,050 measured)",
}
C = {}
# static rows that differ only without the grid (the simulated row matches), by (launch, line, op)
STATIC = {
 ("t12_attn_fwd_causal_bp", F + "59", "ld global"): "the q tile of the last query block (104 of 128 rows: S = 1,000) needs S",
 ("t12_attn_fwd_causal_bp", F + "63", "cp.async global,shared"): "the K tiles' last key block (40 of 64 columns) needs S, and the static analysis gives no shared wavefront figure for `cp.async` without the launch",
 ("t12_attn_fwd_causal_bp", F + "72", "cp.async global,shared"): "the V tiles' last key block (40 of 64 rows) needs S, and the static analysis gives no shared wavefront figure for `cp.async` without the launch",
 ("t12_rmsnorm_bwd_rows", F + "153", "ld global"): "the masked tail of the row (N = 3,072 of BLOCK 4,096: 3 lines where 4) needs N",
 ("t12_rmsnorm_bwd_rows", F + "156", "ld global"): "the masked tail of the row (N = 3,072 of BLOCK 4,096) needs N",
 ("t12_rmsnorm_bwd_rows", F + "157", "ld global"): "the masked tail of the row (N = 3,072 of BLOCK 4,096) needs N",
 ("t12_rmsnorm_bwd_rows", F + "163", "st global"): "the masked tail of the row (N = 3,072 of BLOCK 4,096) needs N",
 ("t12_fp8_block_scaled_mm", F + "209", "cp.async global,shared"): "the A rows wrapped by `% M` (a runtime parameter) are unknown without M",
 ("t12_fp8_block_scaled_mm", F + "210", "cp.async global,shared"): "the B columns wrapped by `% N` (a runtime parameter) are unknown without N",
 ("t12_fp8_block_scaled_mm", F + "211", "ld global"): "the A scale rows wrapped by `% M` are unknown without M",
 ("t12_fp8_block_scaled_mm", F + "212", "ld global"): "the B scale index `(offs_bn % N) // 128` is unknown without N",
 ("t12_topk_topp_mask", F + "233", "ld global"): "the last chunk (3,328 of 4,096: V = 32,000) needs V",
 ("t12_topk_topp_mask", F + "236", "st global"): "the last chunk (3,328 of 4,096: V = 32,000) needs V",
 ("t12_segmented_cumsum", F + "252", "ld global"): "the 8,000-byte rows (L = 2,000: 48 of 2,048 columns masked, rows not 128-byte aligned) need L",
 ("t12_segmented_cumsum", F + "255", "ld shared"): "the 48 masked columns (L = 2,000) need L",
 ("t12_segmented_cumsum", F + "255", "st global"): "the 8,000-byte rows (L = 2,000) need L",
 ("t12_poi_fused_add_mul_sigmoid_0", F + "269", "ld global"): "the broadcast index `x // 729 % 192` of a signed program-id-dependent value (`mul.hi` division by a non-power-of-2) is unknown without the grid",
 ("t12_poi_fused_add_mul_sigmoid_0", F + "270", "ld global"): "the broadcast index `x // 729 % 192 + 192 * (x // 139,968)` is unknown without the grid",
 ("t12_red_fused_var_mean_1", F + "303", "ld global"): "the 1,568-byte rows (rnumel 784: the second [8, 512] chunk 272 valid) need rnumel",
 ("t12_red_fused_var_mean_1", F + "313", "st global"): "the reduced mean stored by one lane a row (lane-less requests in the other warps: 0.125 lines a request) needs the launch",
 ("t12_vocab_parallel_embed", F + "331", "ld global"): "the rows read under the loaded ids' mask and the last column block (512 of 1,024: D = 2,560) need the data and D",
 ("t12_vocab_parallel_embed", F + "332", "st global"): "the last column block (512 of 1,024: D = 2,560) needs D",
 ("t12_dwconv3x3_nhwc", F + "354", "ld global"): "the border masks, the last pixel run (8 of 16: W = 56) and channel run (16 of 64: C = 144) need H, W, C",
 ("t12_dwconv3x3_nhwc", F + "355", "ld global"): "the last channel run (16 of 64: C = 144) needs C",
 ("t12_dwconv3x3_nhwc", F + "357", "ld global"): "the last channel run (16 of 64: C = 144) needs C",
 ("t12_dwconv3x3_nhwc", F + "360", "st global"): "the last pixel run (8 of 16) and channel run (16 of 64) need W, C",
 ("t12_nf4_dequant", F + "391", "ld global"): "(also) the block index `offs // 32` of a signed value: Triton's floor division corrects the sign from the program id's bit 21 (`bfe.s32`, `shr.s32`), unknown without the grid (32 lines)",
}
SCRATCH = "Triton's reduction scratch (one-lane and partial-warp shared accesses of `tl.max` / `tl.sum` / `tl.reduce`) needs the launch"
for k in ("t12_paged_decode_gqa", "t12_rmsnorm_bwd_rows", "t12_topk_topp_mask"):
    for line in ("standard.py:191", "standard.py:293"):
        for op in ("ld shared", "st shared"):
            STATIC[(k, line, op)] = SCRATCH
for op in ("ld shared", "st shared"):
    STATIC[("t12_red_fused_var_mean_1", F + "312", op)] = SCRATCH
STATIC[("t12_attn_fwd_causal_bp", F + "80", "st global")] = "the last query block's rows (104 of 128) need S"
STATIC[("t12_fp8_block_scaled_mm", F + "219", "st global")] = "the last M block's rows (40 of 64: M = 1,000) need M"
STATIC[("t12_paged_decode_gqa", F + "96", "ld global")] = ("the kept `ld.global.v4` of the q tile is guarded by the "
    "group's 4 heads (16 of 32 lanes), which the static analysis takes as every lane (4 lines for 2); the blind run's "
    "static row matched only by averaging it with the deleted load's lane-less requests")

def figs(r, sim):
    if sim:
        return " [model / measured: requests %s, lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7], r[8])
    return " [model / measured: lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7])

out = ["# tests/hw/blind12: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
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
    if key in R and key in STATIC:
        reason = "static: %s; the simulated row differs too: %s" % (STATIC[key], R[key]) + figs(r, False)
    elif key in R:
        reason = R[key] + " (the static row differs for the same reason)" + figs(r, False)
    elif key in STATIC:
        reason = "static only: %s: %s lines and %s per request without the grid, %s and %s measured; the simulation with the launch matches" % (STATIC[key], r[4] or "-", r[6] or "-", r[5] or "-", r[7] or "-")
    else: miss.append(("static",) + key); continue
    out.append("%s@static|%s|%s|%s|%s" % (r[0], r[1], op, space, reason))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print("missing:", miss)
