#!/usr/bin/env python3
"""Write tests/hw/blind19/known.txt: every row of the blind19 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind19.snap, or
agreement_before.snap.txt) that is `NO` or `KNOWN`, with its measured reason
from the tables below (README.md groups them by cause). Copied from
tests/hw/blind18/known_reasons.py (same table reading and output); the reasons
are this batch's, each read off the SASS rows of measured_sass*.json.gz, the
PTX and `warpscope report`'s notes. Each reason of a simulated or static row
ends with the row's figures as the snapshot gives them (model / measured).
Fails to list a row (prints it under `missing`) when no reason is written for it.

These tables are the blind comparison's (the model of main at 2306b14).

  python3 tests/hw/blind19/known_reasons.py tests/hw/blind19/agreement_before.snap.txt tests/hw/blind19/known.txt
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
LANES = ("[lanes of loops and guards on loaded data, and addresses from sorted offsets] per-request figures: the access "
         "runs inside a loop or guard on loaded data, where the model's sampled trips run every lane with an "
         "independent random address (`random`, 32 lines and 32 sectors a request); %s")
MURMUR = LANES % ("the trip count len / 4 differs per lane (string lengths 0..47 from loaded offsets): ptxas unrolls the "
                  "block loop by 4 (`LDG.E.U8.CONSTANT` 0x0250..0x0350) with a remainder loop (0x06a0..0x06d0), and a "
                  "request carries 16.0 lanes on average; and the strings of adjacent lanes are adjacent in memory "
                  "(the offsets are a prefix sum, 23.5 bytes a string), so 16 lanes touch 6.2 lines and 14.5 sectors")
SWITCH = ("[no reconvergence at a join of divergent paths] the tail `switch (len & 3)` falls through case 3 -> 2 -> 1 "
          "(PTX: a chain of `setp`/`bra` to $L__BB1_12 / $L__BB1_13 that the case-3 block also falls into); ptxas "
          "puts `BSSY`/`BSYNC` before each case label, so the lanes arriving by the branch and by the fall-through "
          "run each load once together: one `LDG.E.U8.CONSTANT` a warp at 86 / 87 / 88 (0x0910 / 0x0950 / 0x0990, "
          "8.0 / 16.0 / 24.0 lanes, 6,249 / 6,250 / 6,250 requests); the model issues a join block once for each "
          "incoming path (6,250 / 12,500 / 18,750 requests). Per request, the same loaded-offset gap as lines 78 / 79 "
          "(`random` 32 lines where 8..24 lanes of adjacent strings touch 4.8..6.6)")
RANK = LANES % ("the loop over the words before p in its superblock has 0..15 trips per lane (p random): ptxas unrolls "
                "it with if-converted copies, 125,000 of the 593,744 requests have no active lane (`LDG.E.CONSTANT` "
                "0x0330..0x0360, 31,250 each) and the others carry 16.0 lanes at 16.0 lines (one line a lane: the "
                "addresses are random), 12.6 lines a request in all")
JP_ADJ = LANES % ("only the uncoloured lanes (70 percent) scan, and each stops at its first larger uncoloured neighbour: "
                  "6.26 lanes a request; `adj[k]` of adjacent vertices are adjacent CSR segments, so those lanes touch "
                  "4.06 lines, 5.90 sectors (`LDG.E.CONSTANT` 0x0250)")
JP_COL = LANES % ("6.26 lanes a request (the uncoloured lanes still scanning), each at a random `color[u]`: 6.25 lines "
                  "(0x0270)")
JP_W = LANES % ("only the lanes whose neighbour is uncoloured read its weight: 4.81 lanes, 4.80 lines a request (0x02e0)")
ST = LANES % ("1..8 off-diagonal entries per row: ptxas unrolls the loop by 4 with a remainder, 9.6 lanes a request on "
              "average; `val[k]` / `col[k]` of adjacent rows are adjacent CSR segments (16 lanes in 6.3 lines, "
              "0x02c0 / 0x02f0) and `x[col[k]]` is random (15.8 lines for 16 lanes, `LDG.E` 0x0310): 6.41 lines, 9.19 "
              "sectors a request over the three")
ZB = LANES % ("the bounding-box scan of each lane's triangle has its own trip counts and the edge tests pass for few "
              "lanes: the `REDG.E.MIN.STRONG.GPU` copies (0x0670..0x0c70, ptxas unrolls the x loop) carry 2.0..4.5 "
              "lanes a request, one line and sector a lane (4.16 in all)")
SKIN = ("[vector merge of shared scalars at a loaded, aligned index] `M = mats + ((ids >> 8 j) & 127) * 12`: the row "
        "start is a multiple of 48 bytes in a 16-byte-aligned shared array, so ptxas merges M[0..3], M[4..7] and M[8..11] "
        "into three `LDS.128` a bone (0x0290..0x05e0, 12 a thread, 9,375 requests each: 37,500 a line) at 9.96 "
        "wavefronts (random bones: 32 lanes x 16 bytes over 128 rows); the model keeps 16 scalar `ld.shared.f32` a line "
        "(150,000 requests at 6.04 wavefronts). The alignment of a data-dependent index times a constant pitch "
        "(& 127 then * 48) is provable")
BITAP = ("[table values: a 4-letter alphabet] `tab[(word >> 8 b) & 255]`: the text holds only A, C, G, T, so a warp reads "
         "at most 4 distinct entries (65, 67, 71, 84: banks 1, 3, 7, 20) and every `LDS` (0x02c0..0x05b0) is one "
         "wavefront; the model draws the loaded byte uniformly over 256 entries (3.16 wavefronts). Inherent in the data")
BUDGET = ("[launch simulation budget: scaled blocks] the simulation ran %s and scaled: %s")
DECONV = BUDGET % ("303 of 2,048 blocks", "the taps skipped at the top and bottom output rows (oy = 0, 127: "
                   "`iy < 0 || iy >= IH`, warp-uniform) fall in 64 of the 2,048 blocks, which the strata under-represent: "
                   "2,080,756 load requests modelled for 2,080,768 (the 260,096 of each of the 8 `LDG.E.CONSTANT` "
                   "copies 0x0730..0x09b0); per request the figures agree (1.125 lines, 1.875 sectors)")
SPILL = ("[ptxas register spills] `STL` / `LDL.LU` rows with no PTX access: ptxas spills registers of the Triton "
         "kernel (%s); the PTX has no local access for the model to count. Only ptxas's register allocation (or the "
         "SASS) shows them")
BUCKET_SPILL = SPILL % "bucketize: one `STL` 0x0770 and one `LDL.LU` 0x3f80 at line 94, 3,908 requests each, 8 x fp32 x, lo, hi of [1,024] a thread live across the 11 unrolled steps"
DW_SPILL = SPILL % ("the [64, 128] fp32 accumulator (64 registers a thread) and 5 shifted tiles: 94 `STL` / `LDL.LU` "
                    "instructions over lines 186..196, 123,328 requests in all (1,504 a copy)")
WGMMA = ("[line attribution of HGMMA] the four `wgmma.mma_async` (m64n64k16, K = 64) are at the `tl.dot` line 39 in the "
         "PTX, where the model counts them (3,328 = 4 x 832); ptxas's line table gives three `HGMMA.64x64x16.F32` line 39 "
         "(0x0e90, 0x0f40, 0x0f90: 2,496) and the last one (0x1130) standard.py:263 (832); the per-request wavefronts "
         "(8) agree (as blind12 .. blind18)")
LOOP_TOT = "[loop on loaded data] no totals: a loop exits on loaded data, so the accesses inside it are not counted (%s)"

R = {}
def put(launch, lines, opspace, reason):
    for l in lines:
        R[(launch, l, opspace)] = reason
put("murmur3_string_column", ["blind19.cu:78", "blind19.cu:79"], "ld global", MURMUR)
put("murmur3_string_column", ["blind19.cu:86", "blind19.cu:87", "blind19.cu:88"], "ld global", SWITCH)
put("rank1_bitvector", ["blind19.cu:135"], "ld global", RANK)
put("jones_plassmann_round", ["blind19.cu:184"], "ld global", JP_ADJ)
put("jones_plassmann_round", ["blind19.cu:185"], "ld global", JP_COL)
put("jones_plassmann_round", ["blind19.cu:187"], "ld global", JP_W)
put("sptrsv_level_csr", ["blind19.cu:204"], "ld global", ST)
put("zbuffer_tri_atomicmin", ["blind19.cu:230"], "red global", ZB)
put("skinning_lbs4", ["blind19.cu:254", "blind19.cu:255", "blind19.cu:256"], "ld shared", SKIN)
put("bitap_count_chunks", ["blind19.cu:162"], "ld shared", BITAP)
put("deconv2d_s2k4", ["blind19.cu:412"], "ld global", DECONV)
put("t19_bucketize_binsearch", ["blind19_triton.py:94"], "ld local", BUCKET_SPILL)
put("t19_bucketize_binsearch", ["blind19_triton.py:94"], "st local", BUCKET_SPILL)
for l in ("186", "193", "194", "195", "196"):
    for o in ("ld local", "st local"):
        put("t19_dilated_dwconv1d", ["blind19_triton.py:" + l], o, DW_SPILL)
put("t19_cdist_dot", ["standard.py:263", "blind19_triton.py:39"], "wgmma shared", WGMMA)

T = {
 "murmur3_string_column": LOOP_TOT % "the 4-byte blocks of a string between loaded offsets",
 "minhash_sig64": LOOP_TOT % "the shingles of a document between loaded offsets",
 "rank1_bitvector": LOOP_TOT % "the words before a loaded query position in its superblock",
 "jones_plassmann_round": LOOP_TOT % "the neighbours between loaded row pointers, with a break on loaded weights",
 "sptrsv_level_csr": LOOP_TOT % "the entries of a loaded level row between loaded row pointers",
 "zbuffer_tri_atomicmin": LOOP_TOT % "the bounding box of a loaded triangle",
 "deconv2d_s2k4": DECONV + "; load sectors 3,900,978 / 3,901,440",
 "gemm_batched_6x5x7": BUDGET % ("8,621 of 23,438 blocks", "load sectors 6,124,866 / 6,125,000 (requests equal; the "
                                 "A rows of a warp straddle batches at offsets that repeat every 15 blocks (lcm(128, 30) = "
                                 "1,920 threads), which the sample does not weigh exactly; the per-row figures agree)"),
 "t19_bucketize_binsearch": ("[requests with no active lane] loads 375,024 / 343,772 requests: the search over 1,023 "
                             "boundaries ends after 10 halvings, so the 11th unrolled step's boundary loads are masked "
                             "for every lane (`LDG.E` 0x4c30..0x51d0, 8 x 3,908 = 31,264 requests with no lane); the "
                             "kernel-level request counter leaves such warp instructions out (31,396 in all), the model "
                             "counts them (it leaves out 144, in the ragged last program) since lo < hi depends on "
                             "loaded boundaries; sectors 7,116,076 / 5,433,756 are the model's independent-lane estimate "
                             "of the search's gathers, inside its bounds 1,031,258..8,781,331 (the row itself agrees)"),
}
C = {}
# static rows (no grid): the reason the static figures differ where the simulation with the launch agrees
WHY = {
 "minhash_sig64": "`if (threadIdx.x < 64)` is if-converted, so all 8 warps of a 256-thread block issue the coefficient loads and stores and 6 do so with no lane (0.25 lines a request); that needs the block shape",
 "jones_plassmann_round": "the active lanes of the store (coloured vertices copy) and of the row-pointer loads (uncoloured ones scan) come from the loaded colours",
 "zbuffer_tri_atomicmin": "the ragged last block (20,000 = 156 x 128 + 32) needs ntri",
 "ray_sphere_nearest": "`if (threadIdx.x < nsph)` with nsph = 96 of 128 threads: the fourth warp issues the if-converted sphere load and store with no lane; that needs nsph",
 "census5x5_u8": "the clamped halo (min / max against W - 1, H - 1) and the ragged last blocks (1,000 = 31 x 32 + 8, 700 = 87 x 8 + 4) need W, H",
 "binomial_option_crr": "the guard `t <= n` of the backward induction runs n = steps - 1 .. 0 from the parameter steps (255)",
 "yolo_decode_head": "the channel-plane stride H W (10,816 bytes) needs H and W",
 "deconv2d_s2k4": "the input plane stride and the edge taps need Cin, IH, IW",
 "mg_restrict_fw27": "the fine grid's row and plane pitches (nf = 2 nc - 1 = 193) and the injected boundary need nc",
 "euler1d_muscl_rusanov": "the clamped cells max(f - 1, 0), min(f + 2, n - 1) need n",
 "gemm_batched_6x5x7": "the batch strides (42 / 35 / 30 floats) are parameters",
 "t19_cdist_dot": "the ragged M and N (1,000 = 15 x 64 + 40, 777 = 12 x 64 + 9) and Y's row pitch N need M and N; the static rows also miss the HGMMA line split",
 "t19_nll_loss2d": "the plane size HW (9,409) and C need the parameters, and the ragged last program total",
 "t19_max_unpool2d": "the ragged last program of a plane (3,136 = 3 x 1,024 + 64) needs L",
 "t19_kl_div_rows_chunked": "the reduction scratch's active lanes need the block shape",
 "t19_mse_partial_atomic": "the reduction scratch's active lanes need the block shape",
 "t19_dilated_dwconv1d": "the channel mask (96 of 128) needs C",
}
STATIC = {
 ("deconv2d_s2k4", "blind19.cu:412", "ld global"): "[static only] " + WHY["deconv2d_s2k4"],
}
def figs(r, sim):
    if not r[4] and not r[5]:
        return ""
    if sim:
        return " [model / measured: requests %s, lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7], r[8])
    return " [model / measured: lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7])

out = ["# tests/hw/blind19: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
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
