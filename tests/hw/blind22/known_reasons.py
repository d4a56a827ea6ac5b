#!/usr/bin/env python3
"""Write tests/hw/blind22/known.txt: every row of the blind22 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind22.snap, or
agreement_before.snap.txt) that is `NO` or `KNOWN`, with its measured reason
from the tables below (README.md groups them by cause). Copied from
tests/hw/blind21/known_reasons.py (same table reading and output); the reasons
are this batch's, each read off the SASS rows of measured_sass*.json.gz, the
PTX and `warpscope report`'s notes. Each reason of a simulated or static row
ends with the row's figures as the snapshot gives them (model / measured).
Where the cause is not established, the reason says so.
Fails to list a row (prints it under `missing`) when no reason is written for it.

These tables are the blind comparison's (the model of main at 6a7d061).

  python3 tests/hw/blind22/known_reasons.py tests/hw/blind22/agreement_before.snap.txt tests/hw/blind22/known.txt
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

# cause texts (README.md groups them; the tag in brackets is the group)
GUARD = ("[guards on loaded data, both ways counted] the access is behind a branch on loaded data whose way the model "
         "cannot know, so every warp counts on every path (the request count is an upper bound; the per-request "
         "figures agree or lie in the bounds): %s")
LOCAL = ("[loaded indices with locality costed as uniform] the address comes from a loaded value (an index, an offset, "
         "an edge end) that the model cannot know, so it draws the lanes' addresses uniformly over the buffer "
         "(`random`, the bound's top); the data have locality that the hardware shows: %s")
LOOP = ("[loop on loaded data: the active lanes of later trips] the loop's trip count is loaded per lane, so the "
        "simulation gives no request count and takes the per-request figures from its first trips, where every "
        "lane runs; over the whole loop the lanes leave at their own trips: %s")
ATTR = ("[line attribution of ptxas's code] ptxas's line table gives %s; the sums over the lines agree")
SATOM = ("[same-address shared atomics serialize] %s")
TOTZ = ("[requests with no active lane left out of the kernel-level counters] %s")
NE = "[cause not established] %s"
R = {
 ("bfs_bottomup_bitmap", "blind22.cu:29", "ld global"): LOCAL % ("`ci[e]` walks the in-neighbour lists of 32 consecutive vertices, which lie next to each other in the CSR array (`LDG.E.CONSTANT` 0x01b0: 413,630 requests at 7.81 lanes, 4.71 lines, 7.31 sectors a request); also a loop on loaded data (the lanes leave at their own break)"),
 ("bfs_bottomup_bitmap", "blind22.cu:30", "ld global"): LOCAL % ("`frontier[u >> 5]` at uniform neighbours u: nearly one line a lane, but only 7.81 lanes a request run the loop's later trips (0x01e0: 7.76 lines, 7.80 sectors); the model takes 32 lanes (its first trips)"),
 ("kcore_peel_round", "blind22.cu:50", "st global"): GUARD % ("`removed[v] = 1` only where the loaded alive flag and degree say so: 5 of the 31,251 warps have no such vertex and skip the store (`STG.E.U8` 0x0230: 31,246 requests at 8.45 lanes)"),
 ("kcore_peel_round", "blind22.cu:51", "ld global"): LOOP % ("8.45 lanes a warp enter the loop (the removed vertices), 3.83 lanes in the first unrolled trips (0x0370) and 2.06 in the 4-way unrolled body (0x0480..0x04b0); `ci[e]` of consecutive vertices lies together: 2.05 lines a request for the model's `random` 23.3"),
 ("kcore_peel_round", "blind22.cu:51", "red global"): LOOP % ("the `atomicSub` on deg[ci[e]] (`REDG.E.ADD` 0x0550..0x0580 at line 51: 77,223 requests at 2.06 lanes, 2.06 lines) runs with the few lanes still in the loop; the model's first trips have 32 (random: 32 lines). Its other copies are at the header line (next row)"),
 ("kcore_peel_round", "device_atomic_functions.hpp:117", "red global"): ATTR % ("2 of the 5 `REDG.E.ADD` copies of `atomicSub` (0x03f0: 87,321 requests, 0x0530: 25,741) device_atomic_functions.hpp:117 and 3 (0x0550 / 0x0570 / 0x0580) line 51; the model puts the PTX `red` at line 51"),
 ("parquet_dict_bitpack7", "blind22.cu:85", "ld shared"): "[table values: indices of the data] `sd[v & 127]` with v the decoded 7-bit index: the data's indices are 0..99 (100 dictionary entries), so 100 of the 128 words are read (`LDS` 0x0270: 2.602 wavefronts a request); the model draws the index over the mask's 128 words (2.783). Inherent in the data",
 ("like_prefix_filter", "blind22.cu:134", "ld global"): LOCAL % ("`chars[b + k]` with b the loaded offset of the lane's string: consecutive strings (0..40 bytes, 20 on average) lie next to each other, so a request spans 4.26 lines, 10.59 sectors at 14.31 lanes (`LDG.E.U8` 0x0270: 229,541 requests; the loop stops at the first differing byte)"),
 ("jpeg_dequant_zigzag_idct", "blind22.cu:176", "st shared"): "[a loaded index into a small array] `zz[c_zigzag[t]] = t`: a byte store at an index loaded from the zigzag table; the model takes the index as `random` over the shared segment (1.999 wavefronts) where the array is 64 bytes (16 words, so no two lanes can meet in a bank on different words): `STS.U8` 0x0440 1.000 wavefront. Bounding the loaded index by the array's size would give 1",
 ("label_bbox_shared_atomics", "blind22.cu:224", "atom shared"): SATOM % ("`atomicMin(&sb[0][l], x)` with l the loaded label: 32 consecutive pixels share one or two labels (97-pixel patches), so the lanes hit one or two words; `ATOMS.MIN.S32` (0x0320 ..) costs 28.78 wavefronts a request at 31.88 lanes: same-address lanes are not merged, one wavefront a lane nearly. The model gives no wavefront figure for `atom.shared.min/max` ('wf not modelled'). Requests: 64,829 for the model's 65,472: warps whose 32 pixels are all background (-1) skip (guard on loaded data)"),
 ("label_bbox_shared_atomics", "blind22.cu:225", "atom shared"): SATOM % ("as line 224 (`ATOMS.MIN.S32 [R4+0x100]`: 28.78 wavefronts, 64,829 requests)"),
 ("label_bbox_shared_atomics", "blind22.cu:226", "atom shared"): SATOM % ("as line 224 (`ATOMS.MAX.S32 [R4+0x200]`: 28.78 wavefronts, 64,829 requests)"),
 ("label_bbox_shared_atomics", "blind22.cu:227", "atom shared"): SATOM % ("as line 224 (`ATOMS.MAX.S32 [R4+0x300]`: 28.78 wavefronts, 64,829 requests)"),
 ("label_bbox_shared_atomics", "blind22.cu:233", "ld shared"): GUARD % ("`if (sb[2][l] >= 0)` on a value read back from shared memory (labels the strip saw): 409 of the 512 warp requests run the merge (13.79 lanes a request; `LDS` 0x0a50)"),
 ("label_bbox_shared_atomics", "blind22.cu:234", "ld shared"): GUARD % ("as line 233 (`LDS` 0x0a70: 409 requests)"),
 ("label_bbox_shared_atomics", "blind22.cu:236", "ld shared"): GUARD % ("as line 233 (`LDS` 0x0a80: 409 requests)"),
 ("label_bbox_shared_atomics", "blind22.cu:233", "red global"): GUARD % ("the global merge runs for the labels a strip saw (13.79 of 64 lanes: `REDG.E.MIN` 0x0aa0, 409 requests, 2.27 lines, 7.21 sectors); the model counts every label in every block (4 lines, 16 sectors, 512 requests)"),
 ("label_bbox_shared_atomics", "blind22.cu:234", "red global"): GUARD % ("as line 233 (`REDG.E.MIN` 0x0ab0)"),
 ("label_bbox_shared_atomics", "blind22.cu:235", "red global"): GUARD % ("as line 233 (`REDG.E.MAX` 0x0ac0)"),
 ("label_bbox_shared_atomics", "blind22.cu:236", "red global"): GUARD % ("as line 233 (`REDG.E.MAX` 0x0ad0)"),
 ("pbd_distance_jacobi", "blind22.cu:256", "ld global"): GUARD % ("`if (len < 1e-9f || wsum <= 0.f) return` on the loaded positions: the 999 horizontal constraints of the pinned top row (both inverse masses 0) return, 31 warps, before `rest[e]` (`LDG.E.CONSTANT` 0x02d0: 62,407 requests, the model 62,438)"),
 ("pbd_distance_jacobi", "blind22.cu:257", "red global"): LOCAL % ("the constraint ends are loaded int2 in grid order (i, i + 1 or i + 1,000), so the lanes' float4 deltas are nearly contiguous: `REDG.E.ADD.F32` 0x0490 4.44 lines, 16.26 sectors a request (the model's `random`: 32 / 32); requests 62,407 / 62,438 as line 256 (guard on loaded data)"),
 ("pbd_distance_jacobi", "blind22.cu:258", "red global"): LOCAL % ("as line 257 (0x04a0: 4.44 lines, 16.26 sectors)"),
 ("pbd_distance_jacobi", "blind22.cu:259", "red global"): LOCAL % ("as line 257; also line attribution: ptxas's line table puts five of the eight `REDG.E.ADD.F32` (0x04b0 .. 0x04f0, lines 259..263 in the source) at line 259, so the row has 5 x 62,407 = 312,035 requests and lines 260..263 none"),
 ("pbd_distance_jacobi", "blind22.cu:264", "red global"): LOCAL % ("as line 257 (0x0500: 4.44 lines, 16.26 sectors)"),
 ("trsm_batched_lower8", "blind22.cu:322", "ld shared"): ATTR % ("ptxas merges the unrolled scalar `ld.shared.f32` of L's rows and diagonals (36 in the PTX) into 17 `LDS` / `LDS.64` / `LDS.128`; 13 are at line 322 (650,026 requests) and 4 at line 323 (200,008), the model's merge gives 12 and 5 (600,024 / 250,010; the sums agree, 850,034). Per request: each `LDS.128` (0x0bb0, 0x0cf0, ..: 8 of them) reads two 16-byte rows 288 bytes apart (two systems a warp) and costs 2.000 wavefronts measured, the `LDS` / `LDS.64` 1.000: 1.538 on average at line 322, the model 1.750"),
 ("trsm_batched_lower8", "blind22.cu:323", "ld shared"): ATTR % ("see line 322: 4 of the 17 merged loads (`LDS` 0x0880, 0x0a90, 0x0ce0, 0x0f90, 1.000 wavefront each) at line 323, the model 5"),
 ("lora_sgmv_expand", "blind22.cu:398", "ld global"): GUARD % ("`if (l < 0) return` on the segment's loaded adapter id: 3 of the 24 segments have none, so 21 x 16 blocks x 8 warps run the B loads (`LDG.E.CONSTANT` 0x0250 ..: 43,008 requests for 16 copies; the model 49,152)"),
 ("lora_sgmv_expand", "blind22.cu:399", "ld global"): GUARD % ("as line 398: `seg_start[s + 1]` after the early return (0x0110: 2,688 requests, the model 3,072)"),
 ("lora_sgmv_expand", "blind22.cu:400", "ld global"): GUARD % ("as line 398: `seg_start[s]` (0x0100: 2,688 requests, the model 3,072)"),
 ("ctc_greedy_decode", "blind22.cu:421", "ld global"): LOOP % ("the frame loop runs tlen[b] (100..300, loaded) trips per lane: over the loop 21.84 lanes a request (`LDG.E.CONSTANT` 0x02e0: 18,896 requests, 20.18 lines, 21.84 sectors at the 116-byte lane stride); the model's first trips have 32 lanes (29 lines, 32 sectors)"),
 ("ctc_greedy_decode", "blind22.cu:424", "ld global"): LOOP % ("as line 421 (the unrolled argmax loads 0x0400 ..: 21.84 lanes, 20.13 lines a request)"),
 ("ctc_greedy_decode", "blind22.cu:427", "st global"): LOOP % ("the label store at the lane's running count (`labels[b * T + cnt++]`, a 1,200-byte lane stride) runs in the frame loop with the lanes still in it and whose label changed: 20.36 lanes, lines and sectors a request (`@!P0 STG.E` 0x0e30: 18,896 requests); the model 32"),
 ("t22_matmul_pipe_w8s3", "blind22_triton.py:58", "cp.async global,shared"): TOTZ % ("A's 16-byte copies under the row mask rm < M (M = 1,999, the last row tile 79 of 128 rows): in the last tile's 12 programs copy 3 of the 4 is masked in all 8 warps and copy 2 in 4 (`LDGSTS.E.BYPASS.128` 0x0a40 / 0x0a80: 3.867 / 3.750 lines a request over all programs); per request 3.675 lines, 14.699 sectors measured, the model 3.735 / 14.939: the model costs the copies whose lanes read nothing differently (cause of the exact difference not established); wavefronts 4.006 / 4.000"),
 ("t22_matmul_pipe_w8s3", "blind22_triton.py:59", "wgmma shared"): ATTR % ("1 of the 4 `HGMMA.64x128x16` of a K step (0x1810: 49,152 requests) line 59, 1 (0x1720) line 62 and 2 (0x1840 / 0x1850) line 60; the model puts all 4 (196,608, 12 wavefronts each as measured) at line 60"),
 ("t22_matmul_pipe_w8s3", "blind22_triton.py:60", "wgmma shared"): ATTR % ("2 of the 4 `HGMMA` at line 60 (98,304 requests), see line 59"),
 ("t22_matmul_pipe_w8s3", "blind22_triton.py:62", "wgmma shared"): ATTR % ("1 of the 4 `HGMMA` (0x1720) at line 62, see line 59"),
 ("t22_matmul_pipe_w8s3", "blind22_triton.py:63", "st global"): TOTZ % ("the epilogue store under rm < M: 12,192 requests at the source level, the model 12,256 (64 more: its masked-out warps of the last row tile); per request 3.935 lines, 15.740 sectors measured, 3.978 / 15.914 modelled. Cause of the difference in requests not established"),
 ("t22_gqa_decode_splitkv", "blind22_triton.py:75", "ld shared"): ATTR % ("a shared load of the reduction scratch (`tl.sum` / `tl.max` across the 4 warps) at the kernel's line 75; the model puts the scratch accesses at standard.py"),
 ("t22_gqa_decode_splitkv", "blind22_triton.py:84", "ld shared"): ATTR % ("the reduction scratch's loads at line 84 (`tl.max(s, 0)`); the model puts them at standard.py"),
 ("t22_gqa_decode_splitkv", "blind22_triton.py:88", "ld shared"): ATTR % ("the reduction scratch's loads at line 88 (`LDS.U16` 0x0930 ..: 13,824 requests); the model puts them at standard.py"),
 ("t22_gqa_decode_splitkv", "blind22_triton.py:88", "ld global"): NE % ("the K rows [64, 128] fp16 are read by 8 unrolled `LDG.E.128` a trip (0x0b50 .. 0x1190: 105,088 requests each, 31.4..31.96 lanes under the n < end mask), each 512 contiguous bytes: 3.951 lines, 15.804 sectors a request; the model 3.985 lines but 11.987 sectors (3 sectors a line). The loop's bound is the loaded length (a loop on loaded data: no request count)"),
 ("t22_gqa_decode_splitkv", "blind22_triton.py:94", "ld global"): NE % ("the V rows, as the K rows of line 88 (`LDG.E.128` 0x1d50 ..: 3.951 lines, 15.804 sectors; the model 3.985 / 11.987)"),
 ("t22_conv2d_igemm_nchw", "blind22_triton.py:195", "cp.async global,shared"): NE % ("the weight tile's 16-byte copies (`LDGSTS.E.BYPASS.128`, 848 requests each): 8.0 wavefronts for three of the four copies of the prologue and loop, 4.0 for the fourth (0x0960: 3,392 wavefronts); 7.500 on average, the model 8.000. Lines and sectors agree (7.200, 14.4)"),
}
T = {
 "bfs_bottomup_bitmap": "[no totals by construction] the neighbour walk is a loop on loaded data (it breaks on the loaded frontier bit)",
 "kcore_peel_round": "[no totals by construction] the neighbour loop's bound rp[v + 1] is loaded",
 "like_prefix_filter": "[no totals by construction] the compare loop stops at the first differing loaded byte",
 "lora_sgmv_expand": "[no totals by construction] the token loop runs between loaded segment starts",
 "ctc_greedy_decode": "[no totals by construction] the frame loop runs the loaded frame count",
 "t22_gqa_decode_splitkv": "[no totals by construction] the key loop's end is the sequence's loaded length",
 "label_bbox_shared_atomics": GUARD % ("the global merge's atomics run for the labels a strip saw: 1,636 requests and 11,796 sectors (atom + red) for the model's 2,048 / 32,768; loads agree"),
 "pbd_distance_jacobi": LOCAL % ("load sectors 2,779,313 for the model's 4,745,250 (float4 positions at loaded, nearly contiguous ends), atomic sectors 8,116,624 for 15,984,000; requests 249,721 / 249,752 and 499,256 / 499,504 (the pinned row's early return, a guard on loaded data)"),
 "cpasync4_stencil_zfill": TOTZ % ("load requests 222,039 / sectors 960,167 measured (the kernel-level counters leave out copies in which every lane zero-fills), the model 222,027 / 960,126; stores agree. Which 12 requests differ is not established"),
 "t22_matmul_pipe_w8s3": TOTZ % ("load requests 388,608 = 393,216 - 4,608: the kernel-level counter leaves out the A copies masked in all lanes (12 a K step in each of the last row tile's 12 programs: 12 x 12 x 32), the model leaves out 1,536 (391,680; sectors 6,266,368 / 6,216,192); stores 12,000 / 12,192 (the 192 all-masked store requests of the last tile left out by the counter, counted by the model)"),
 "t22_conv2d_igemm_nchw": NE % ("requests agree (273,216 loads, 27,008 stores); sectors 1,837,168 / 1,836,344 loads, 79,984 / 80,164 stores (0.05%, 0.2%): the x gather's and y scatter's masked lanes at the ragged M tile, cause of the small difference not established"),
 "t22_masked_logsumexp": GUARD % ("the score loads are masked by the loaded key-padding mask: warps whose keys are all masked issue no request (150,592 measured, the model 196,608), and the others read 2.549 sectors a request (443,776 / 644,809 sectors)"),
}
C = {}
WHY = {
 "bfs_bottomup_bitmap": "`if (parent[v] >= 0) return` on the loaded parent leaves 22.4 lanes a warp for rp[v], rp[v + 1] and the parent store (as the simulation's bounds; static without the loaded data the lanes are all 32)",
 "kcore_peel_round": "the neighbour loop's lanes (a loop on loaded data, see the simulated row)",
 "parquet_dict_bitpack7": "`if (threadIdx.x < ndict)` (ndict = 100 dictionary entries staged by 256-thread blocks) needs ndict and the block shape",
 "bitmap_semi_join_probe": "the hit positions are stored at a base returned by the warp leader's `atomicAdd` and the lanes' popc rank: without the launch the address is `unknown`; the simulation matches (1.496 lines)",
 "like_prefix_filter": "`if (threadIdx.x < plen)` (plen = 4, the prefix's staging) needs plen",
 "cpasync4_stencil_zfill": "the staging loop's row / column split (i / 258), its zero-fill predicate (in the image) and the row pitch need the block shape, W and H (`unknown` without them)",
 "cpasync_mbar_rowsumsq": "thread 0's read of the four warp sums is merged by ptxas into one `LDS.128` by one lane (0x0a10: 1.000 wavefront); without the block shape the model counts the four loads as one request of 2.000 wavefronts",
 "t22_matmul_pipe_w8s3": "the ragged row tile (M = 1,999) needs M; the swizzled shared destination of the copies gets no wavefront figure without the block shape ('not modelled' or 1.765, 4.000 measured)",
 "t22_gqa_decode_splitkv": "Triton's reduction scratch (`tl.sum` / `tl.max` across 4 warps: `@p st.shared` / `ld.shared` by some lanes) needs the block shape",
 "t22_layernorm_fwd_stats": "the row's tail (N = 1,000 of a 1,024 block: the weight and bias loads c < N) needs N; the scalar mean / rstd stores by one lane and the reduction scratch need the block shape",
 "t22_cummax_argmax_scan": "the row's tail (N = 1,000 of a 1,024 block) needs N",
 "t22_conv2d_igemm_nchw": "the gather's and scatter's addresses (n, oh, ow from the row index by OH and OW; ih, iw by the stride and padding against H and W) need the parameters (`unknown` without them)",
 "t22_masked_logsumexp": "the reduction scratch needs the block shape; the score loads are masked by the loaded key-padding mask (a guard on loaded data)",
}
STATIC = {
 ("t22_matmul_pipe_w8s3", "blind22_triton.py:58", "cp.async global,shared"): "[static only] " + WHY["t22_matmul_pipe_w8s3"] + " (A's copies: 4 lines, 16 sectors without M, 3.675 / 14.699 measured)",
 ("t22_matmul_pipe_w8s3", "blind22_triton.py:59", "cp.async global,shared"): "[static only] B's copies are whole tiles, but without the launch the static figures give 4 lines, 16 sectors and no wavefront figure for the swizzled destination; measured 3.765 lines, 15.059 sectors, 4.000 wavefronts (the pipeline's epilogue copies, issued with an all-false predicate, lower the average); the simulated row agrees",
}
def figs(r, sim):
    if not r[4] and not r[5]:
        return ""
    if sim:
        return " [model / measured: requests %s, lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7], r[8])
    return " [model / measured: lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7])

out = ["# tests/hw/blind22: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
       "# The simulated rows first, then the kernel totals, the copy-engine rows, then the static (no grid) rows (launch@static). README.md groups them by cause (the tag in brackets)."]
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
    if key in STATIC: reason = STATIC[key] + figs(r, False)
    elif key in R: reason = R[key] + " (the static row differs for the same reason)" + figs(r, False)
    elif WHY.get(r[0]):
        reason = "[static only] %s: %s lines and %s per request without the grid, %s and %s measured; the simulation with the launch matches" % (WHY[r[0]], r[4] or "-", r[6] or "-", r[5] or "-", r[7] or "-")
    else: miss.append(("static",) + key); continue
    out.append("%s@static|%s|%s|%s|%s" % (r[0], r[1], op, space, reason))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print("missing:", miss)
