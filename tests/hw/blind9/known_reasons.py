#!/usr/bin/env python3
"""Write tests/hw/blind9/known.txt: every row of the blind9 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind9.snap) that is `NO` or
`KNOWN`, with its measured reason from the tables below (README.md groups
them by cause). Copied from tests/hw/blind8/known_reasons.py (same table
reading and output); the reasons are this batch's. Fails to list a row
(prints it under `missing`) when no reason is written for it.

  python3 tests/hw/blind9/known_reasons.py tests/snapshots/hw_agreement__hw_agreement_blind9.snap tests/hw/blind9/known.txt
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
STEP = ("trip count on loaded data: %s exits on loaded data (PTX line %s), so the simulation steps over it after the trip "
        "it ran up to that exit: its accesses have no request count and that trip's per-request figures; measured: %s")
F32 = ("request count, branch on loaded data (stop 26: the harness now passes the f32 parameters `vs` = 0.01 and "
       "`trunc` = 0.03 as numbers; blind, it passed their bit patterns as integers: %s): %s; the measured "
       "rows hold only the lanes inside the truncation band of the loaded depth, which only the data decides")
Q3K = ("request count, if-conversion of an if/else diamond: `is < 8 ? scales[is] & 0xf : scales[is - 8] >> 4` is, in the "
       "PTX, `@%p1 bra A; bra.uni B; A: ld.u8 [+8]; bra.uni J; B: ld.u8; J:` (the taken arm first); ptxas predicates both "
       "arms (`@P0 LDG.E.U8` / `@!P0 LDG.E.U8`), so every warp issues both loads and one of them with no lane (each warp is "
       "uniform: warp 0 has is < 8, warp 1 not): 80,000 requests of 16 lanes on average measured (40,000 a copy), the model "
       "follows the branch: 40,000 of 32 lanes; the sectors agree (47,500 both). `ifconvert::diamond` expects the "
       "then-side to fall through from the branch and does not recognise this layout")
GAT_LANE = ("lanes on loaded data: `if (lane < deg)` with `deg = min(row_ptr[v + 1] - row_ptr[v], 32)` loaded (degrees "
            "0..16): the warps of nodes with no in-edge (15,634 of 262,144) skip the block and the others have deg lanes "
            "(8.51 on average); the model counts every warp with all 32 lanes: %s")
GAT_H = ("trip count on loaded data: the aggregation loop `for (k = 0; k < deg; k += 2)` exits on the loaded degree "
         "(PTX line 1721), so the row has no request count and the simulated trip's figures; in it `h[uu * 16 + f]` takes "
         "`uu = __shfl_sync(u, k + half)`: 2 source lanes, so the 16 lanes of each half-warp share one loaded index and "
         "read one 64-byte row: 2 lines and 4 sectors modelled on the simulated trip (after the batch: the lanes that "
         "read one source lane share its value, `crosslane`; blind, 32 random lines), 1.889 lines and 3.778 sectors a "
         "request measured (30.2 lanes: the odd last edge masked)")
BVH = ("trip count on loaded data: the traversal loop pops node indices loaded from the tree (and pushed to the local "
       "stack) and exits when the stack is empty (PTX line 2370); the simulated trip is the first, where every lane "
       "reads the root (broadcast: 1 line, 1 sector); over the 381,048 measured requests (25.0 lanes) the lanes are at "
       "different nodes: 17.44 lines and 18.59 sectors a request")
STR = ("trip count on loaded data and addresses from loaded offsets: the byte loop between `offsets[i]` and `offsets[i + 1]` "
       "(PTX line 7582) is stepped over; on the simulated trip the model takes `chars[k]` at 32 unknown offsets as 32 "
       "random lines (32 sectors); the offsets are a prefix sum of lengths 0..40, so a warp's 32 strings are consecutive "
       "bytes: 5.0 lines and 12.92 sectors a request measured (15.6 lanes: ptxas unrolls the loop by 4, "
       "`LDG.E.U8` at k .. k + 3, with the lanes whose strings ended predicated off)")
PAGED_LINE = ("line attribution: the 8 `ld.shared.b16` of the block loop's preheader (q's layout conversion for "
              "`k * q[None, :]`, hoisted out of the loop; the PTX marks them `.loc 1 0 22`, line 0) are keyed by "
              "warpscope at the line before, blind9_triton.py:43 (8 a warp, 32,768); ncu puts 1 of the 8 SASS `LDS.U16` at "
              "line 43, 6 at line 48 and 1 at standard.py:43 (4,096 + 24,576 + 4,096 = 32,768); 1 wavefront a request "
              "both: %s")
PAGED_KV = ("trip count on loaded data: the block loop runs to `cdiv(seq_len, 16)` with `seq_len` loaded (PTX line 693) "
            "and is stepped over; the simulated trip loads a whole [16, 128] fp16 tile (4 lines, 16 sectors a request), "
            "the measured requests include the masked tokens of each sequence's last block (`toks < seq_len`): 31.80 "
            "lanes, 3.975 lines and 15.898 sectors a request (553,216 requests)")
TSDF_STATIC = ("data-dependent predication: the voxel is read and written only inside the truncation band (`dmm == 0` "
               "and `sdf < -trunc` on the loaded depth): 15.3 lanes a request measured, 3.52 sectors; without the data "
               "(and without vs / trunc) the model takes every lane of a full warp row: 4 sectors")
HIST = ("addresses on loaded data, skewed: the bin `H + bx * 64 + by` is computed from the loaded x, y (y uniform cubed: "
        "the low bins crowded), which the model takes as 32 different random lines (31.99 lines and sectors a request); "
        "measured 27.35 lines and 29.89 sectors (lanes of a warp collide in the crowded bins). Requests 31,260 modelled, "
        "31,251 measured: ptxas branches around each of the 7 first masked `ATOMG` copies (`BSSY; @P BRA; ATOMG; BSYNC`, "
        "as for blind7's `t7_splitk_atomic` 132) and ends the lanes before the 8th (`@P0 EXIT`), so a warp with no active "
        "lane issues nothing; the model predicates the 7 (a lane-less request for such a warp) and exits before the 8th: "
        "9 lane-less requests more in the masked last program (28 modelled there, 19 measured)")
KV_TAIL = ("request count, a guard on loaded data at the tail exit: `@%p1 st.global.v4` of V is the kernel's last op, "
           "which ptxas turns into `@!P0 EXIT` + an unguarded `STG.E.128` (the model's rule, `memops::guard_off_issues`); "
           "the guard `slot >= 0` is on the loaded slot (a program is one token, 5% of the slots are -1 padding): the "
           "684 warps of the 171 padding tokens exit before the store (11,316 requests measured), the simulation does not "
           "know the guard and counts every warp (12,000, an upper bound); 16 sectors a request both")
TOPK_SINK = ("request count, a load sunk below the tail exit: the last `ld.shared.b32` (PTX line 817) feeds only the "
             "final `@%p3 st.global`, which ptxas turns into `@!P0 EXIT` + STG (the model does so for the store: 3,751 "
             "requests both); ptxas also moves the LDS after the EXIT, so only the warp that stores (16 lanes) issues "
             "it: 3,751 requests measured, 15,004 (every warp) modelled; 1 wavefront a request both")
HGMMA = ("line attribution: ncu spreads the HGMMA instructions of the loop over the lines around it (%s); warpscope keys "
         "every `wgmma.mma_async` at the `tl.dot` line (%s); the wavefronts per request (8) match, the sums agree")

R = {
 ("dequant_q3_K","blind9.cu:114","ld global"): Q3K,
 ("gat_edge_softmax_agg","blind9.cu:245","ld global"): GAT_LANE % "cols[beg + lane]: 246,510 requests of 1.235 lines and 1.939 sectors measured, 262,144 of 1.969 and 4.875 modelled",
 ("gat_edge_softmax_agg","blind9.cu:246","ld global"): GAT_LANE % "el[u] (random, 8.51 lines) and er[v] (broadcast, 1 line), 2 x 246,510 requests and 4.753 lines / 4.755 sectors a request measured, 2 x 262,144 and 16.5 modelled (32 random lines and 1)",
 ("gat_edge_softmax_agg","blind9.cu:263","ld global"): GAT_H,
 ("bvh_point_query","blind9.cu:344","ld global"): BVH,
 ("tsdf_integrate","blind9.cu:493","ld global"): F32 % ("8,024 depth gathers modelled, 50,436 measured (29.9 lanes, 2.72 lines and 8.80 sectors a request)", "49,859 requests of 2.70 lines and 8.72 sectors: the lanes whose `dmm == 0` / `sdf < -trunc` on loaded depth is unknown count on every path"),
 ("tsdf_integrate","blind9.cu:499","ld global"): F32 % ("8,024 voxel loads modelled, 50,095 measured (15.3 lanes, 1 line and 3.52 sectors a request)", "49,859 requests of 3.79 sectors: the band test on the loaded depth is not known, so every lane that may be in it counts"),
 ("tsdf_integrate","blind9.cu:502","st global"): F32 % ("8,024 voxel stores modelled, 50,095 measured (15.3 lanes, 1 line and 3.52 sectors a request)", "49,859 requests of 3.79 sectors: the band test on the loaded depth is not known, so every lane that may be in it counts"),
 ("strings_lower","blind9.cu:785","ld global"): STR,
 ("strings_lower","blind9.cu:786","st global"): STR,
 ("t9_paged_attn_decode","standard.py:43","ld shared"): PAGED_LINE % "4,096 requests measured here, none modelled",
 ("t9_paged_attn_decode","blind9_triton.py:43","ld shared"): PAGED_LINE % "32,768 modelled here, 4,096 measured",
 ("t9_paged_attn_decode","blind9_triton.py:48","ld shared"): PAGED_LINE % "24,576 requests measured here, none modelled",
 ("t9_paged_attn_decode","blind9_triton.py:49","ld global"): PAGED_KV,
 ("t9_paged_attn_decode","blind9_triton.py:56","ld global"): PAGED_KV,
 ("t9_hist2d","blind9_triton.py:96","atom global"): HIST,
 ("t9_kv_cache_scatter","blind9_triton.py:112","st global"): KV_TAIL,
 ("t9_topk_gating","blind9_triton.py:132","ld shared"): TOPK_SINK,
 ("t9_w4a16_matmul","blind9_triton.py:144","wgmma shared"): HGMMA % ("16,384 requests measured at line 144, 16,384 at 146", "blind9_triton.py:151: 32,768"),
 ("t9_w4a16_matmul","blind9_triton.py:146","wgmma shared"): HGMMA % ("16,384 requests measured at line 144, 16,384 at 146", "blind9_triton.py:151: 32,768"),
 ("t9_conv2d_nhwc_igemm","blind9_triton.py:209","wgmma shared"): HGMMA % ("392 at line 209, 6,272 at 211, 7,056 at 213, 392 at 214", "blind9_triton.py:213: 14,112"),
 ("t9_conv2d_nhwc_igemm","blind9_triton.py:211","wgmma shared"): HGMMA % ("392 at line 209, 6,272 at 211, 7,056 at 213, 392 at 214", "blind9_triton.py:213: 14,112"),
 ("t9_conv2d_nhwc_igemm","blind9_triton.py:213","wgmma shared"): HGMMA % ("392 at line 209, 6,272 at 211, 7,056 at 213, 392 at 214", "blind9_triton.py:213: 14,112"),
 ("t9_conv2d_nhwc_igemm","blind9_triton.py:214","wgmma shared"): HGMMA % ("392 at line 209, 6,272 at 211, 7,056 at 213, 392 at 214", "blind9_triton.py:213: 14,112"),
}
T = {
 "gat_edge_softmax_agg": "no totals: the aggregation loop runs to the loaded degree (PTX line 1721) and is stepped over",
 "bvh_point_query": "no totals: the traversal loop pops loaded node indices until the stack is empty (PTX line 2370) and is stepped over",
 "tsdf_integrate": "kernel totals, branch on loaded data (blind, with the f32 parameters passed as bit patterns: 16,048 load and 8,024 store requests): 99,718 load and 49,859 store requests modelled (a sample of 50 of the 64 blocks, each standing at its cell's mean; every block simulated: 100,872 and 50,436), 100,531 and 50,095 measured: the lanes whose `dmm == 0` / band test on the loaded depth is unknown count on every path",
 "strings_lower": "no totals: the byte loop runs between loaded offsets (PTX line 7582) and is stepped over",
 "t9_paged_attn_decode": "no totals: the block loop runs to the loaded sequence length (PTX line 693) and is stepped over",
 "t9_kv_cache_scatter": "kernel totals, request count: the V store after `@!P0 EXIT` on the loaded slot (blind9_triton.py:112): 24,000 store requests and 384,000 sectors modelled, 22,632 and 362,112 measured (the 684 warps of padding tokens exit)",
}
C = {
}
WHY = {
 "iq4nl_matvec_k4096": "the table fill `if (threadIdx.y == 0 && threadIdx.x < 16)` (one warp of 4, 16 lanes: 0.25 wavefronts a request over the 4 warps) needs the block",
 "iq4nl_matvec_k4032": "the table fill needs the block, and `xb[...]` over 126 blocks a row (the last trip 30 lanes: 31.5 lines) needs nb",
 "l2dist_tile": "the edge query tile (`q0 + row < nq`, nq = 1,000 = 31 x 32 + 8) needs nq",
 "resize_nearest_u8c4": "the source column `floor(x * sw / dw)` needs the sizes (float scale): without them the lanes' addresses are unknown",
 "box3x3_u8": "the halo loads by edge threads (`tx == 0`, `tx == 31`, `ty == 0`, `ty == 7`: one lane a warp or 32 lanes of one warp) and the clamped indices need the block, the image size and the pitch",
 "median3x3_u8": "the clamped indices `min(max(x + dx, 0), w - 1)` and the pitch need the launch",
 "depth_bilateral_u16": "the clamped indices and the pitch need the launch",
 "tsdf_integrate": "the projected pixel needs vs and the camera (and the depth's pitch)",
 "lbm_d3q19_soa": "the neighbour `((x - cx[q]) & 63)` needs the block (64 x 4: x = threadIdx.x) and the `__constant__` velocity tables: without them the lanes' addresses are unknown",
 "lbm_d3q19_aos": "the neighbour `((x - cx[q]) & 63)` needs the block (64 x 4) and the `__constant__` velocity tables: without them the lanes' addresses are unknown",
 "cg_memcpy_smooth_c2048": "the clamped shared reads `row[max(i - 1, 0)]`, `row[min(i + 1, cols - 1)]` need cols: no wavefront figure without it",
 "cg_memcpy_smooth_c4000": "the clamped shared reads need cols, and the row of 4,000 floats (16,000 bytes: its last `cp.async` 30 lanes) needs cols",
 "vol_u8_grad_p100": "the row and slice pitches (100 / 10,000) and the edge blocks (nx = 100) need the launch",
 "vol_u8_grad_p128": "the row and slice pitches (128 / 12,800) and the edge blocks (nx = 100) need the launch",
 "bitunpack_w13": "the bit offset `i * w` needs w (13): without it the word index per lane is unknown",
 "t9_paged_attn_decode": "Triton's reduction scratch (tl.sum / tl.max: one-lane and partial-warp shared accesses) needs the launch",
 "t9_rmsnorm_quant_i8": "Triton's reduction scratch and the row masked by N (4,000 of 4,096) need the launch",
 "t9_flip_rows": "the row masked by N (1,000 of 1,024) needs N",
 "t9_kv_cache_scatter": "the guard `slot >= 0` on the loaded slot (5% padding)",
 "t9_topk_gating": "the stores of 16 rows a program by 16 lanes of warp 0 (the other 3 warps issue them with no lane: 0.25 lines a request over the 4) need the launch: without it the stores at stride 2 look like full warps",
 "t9_w4a16_matmul": "the M edge (500 rows: the last tile masked) and the predicated scale copy need M and the launch",
 "t9_ssm_scan": "the y store of 64 channels by 2 of the 4 warps (the reduction's layout; the other 2 issue it with no lane: 0.5 lines and 2 sectors a request over the 4) needs the launch",
 "t9_maxpool2d_nchw": "the stride-2 columns and the border masks need H, W, OH, OW",
 "t9_conv2d_nhwc_igemm": "the border masks of the 3 x 3 taps (`ih`, `iw` in range) need H and W",
}
STATIC = {
 ("tsdf_integrate","blind9.cu:493","ld global"): "static only: the projected pixel `(525 px / pz + 320, 525 py / pz + 240)` needs vs and the grid: without them the lanes' addresses are unknown (32 lines modelled, 2.72 measured)",
 ("tsdf_integrate","blind9.cu:499","ld global"): "static: " + TSDF_STATIC,
 ("tsdf_integrate","blind9.cu:502","st global"): "static: " + TSDF_STATIC,
}

out = ["# tests/hw/blind9: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
       "# The simulated rows first, then the kernel totals, the copy-engine rows, then the static (no grid) rows (launch@static). README.md groups them by cause."]
miss = []
for r in rows(sec_sim):
    key = (r[0], r[1], r[2])
    op, space = r[2].split(" ", 1)
    if key not in R: miss.append(key); continue
    out.append("%s|%s|%s|%s|%s" % (r[0], r[1], op, space, R[key]))
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
    elif key in R: reason = R[key] + " (the static row differs for the same reason)"
    elif r[0] in WHY:
        reason = "static only: %s: %s lines and %s per request without the grid, %s and %s measured; the simulation with the launch matches" % (WHY[r[0]], r[4] or "-", r[6] or "-", r[5] or "-", r[7] or "-")
    else: miss.append(("static",) + key); continue
    out.append("%s@static|%s|%s|%s|%s" % (r[0], r[1], op, space, reason))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print("missing:", miss)
