#!/usr/bin/env python3
"""Write tests/hw/blind16/known.txt: every row of the blind16 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind16.snap, or
agreement_before.snap.txt) that is `NO` or `KNOWN`, with its measured reason
from the tables below (README.md groups them by cause). Copied from
tests/hw/blind13/known_reasons.py (same table reading and output); the reasons
are this batch's, each read off the SASS rows of measured_sass*.json.gz, the
PTX and `warpscope report`'s notes. Each reason of a simulated or static row
ends with the row's figures as the snapshot gives them (model / measured).
Fails to list a row (prints it under `missing`) when no reason is written for it.

  python3 tests/hw/blind16/known_reasons.py tests/hw/blind16/agreement_before.snap.txt tests/hw/blind16/known.txt
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
BARPOPC = ("[barrier reduction] launch not simulated: `__syncthreads_count(done)` is `bar.red.popc.u32 %r36, 0, %p1` "
           "(PTX line 134) and the batch loop breaks on `%r36 == 256` (`@%p6 bra`, PTX line 138); the model has no value "
           "for a barrier reduction's result, so the launch simulation stops at that branch (\"a branch depends on a value "
           "that is not known\") and no access of the kernel is counted; measured: 1,536 warps, 2,756 batch rounds "
           "(`LDG` of the ids 0x04a0), 431,968 shared reads of a blended gaussian (`LDS.64` 0x06d0, `LDS.128` 0x06e0)")
EXIT_SP = ("[guard on loaded data followed both ways] request count: `if (base >= n_k) return` with n_k = counts[k] loaded "
           "(2,000..7,999 pairs an offset): the model follows the early exit both ways (`warpscope report`: 46,875 warp "
           "executions of branches on loaded data followed both ways, requests an upper bound) and counts all 3,456 "
           "blocks (13,824 warps); on the GPU only the ceil(n_k / 64) blocks of each offset pass it: 2,112 blocks, 8,448 "
           "warps (`LDGSTS.E.BYPASS.128` x 3, 6 `LDSM`, the output-row `LDG` and 16 `REDG.E.ADD.F32` a warp); "
           "the per-request figures of the static row agree")
EXIT_SP_CP = (EXIT_SP + "; in addition the gathered A rows' sectors: the model draws the 32 lanes independently from the "
              "loaded range (`random`, 20.03 sectors a request, 18.667 in the row) where each 4 lanes share one 64-byte-aligned "
              "row (address feat + 64 x loaded row + 16 x (lane % 4)): measured 23.9 sectors a request for the two A copies, "
              "24.0 for the weight copy (which the model gives: 24.00), 15 wavefronts each")
EXIT_CTC = ("[guard on loaded data followed both ways] request count: `if (s < S && (s & 1))` (the label reads) and `if (s < S)` "
            "(the t = 0 alpha store) with S = 2 L + 1 from the loaded target length (L 10..50, S 21..101): the model counts "
            "every warp of the 32 blocks (128 requests, lanes followed both ways), the GPU only the warps with a lane "
            "s < S (72 of 128: `LDG.E.CONSTANT` 0x02e0 / `@P3` 0x02f0 and `STG.E` 0x0570 at 72 requests); per-request "
            "figures are those of partial warps (e.g. 928 lanes in 72 requests for the label load)")
BOTHWAYS = ("[branch on shared data followed both ways] request count: in the argmax tree `if (o > dists[tid] || (o == "
            "dists[tid] && oi < dists_i[tid]))` the values come from shared memory (written with computed distances), "
            "so the model follows both ways: it counts the tie path's `ld.shared.u32 [%r4]` (dists_i[tid]) for every "
            "active warp step and reaches the join block (the two `st.shared` of lines 201 / 202) on both paths, 2 per "
            "warp step (163,200 = 2 x 81,600); measured: the tie read never executes (`LDS R2, [R12]` at 0x0d50 .. 0x1850: "
            "0 requests; no ties) and the stores execute once per warp step that has a lane with a larger value "
            "(78,307 of 81,600 warp steps: `STS` 0x0da0 .. 0x18b0); 81,600 = 16 blocks x 255 iterations x 20 warp "
            "steps (8 + 4 + 2 + 1 + 5)")
LANES_BQ = ("[active lanes on loaded data] per-request figures: the row's stores run inside the scan loop whose exit "
            "depends on loaded data (`cnt < nsample`, PTX line 1137) and under `d2 < radius2` (distance to a loaded "
            "point): only the lanes whose centroid found a point in this trip store (1.07 lanes a request measured: "
            "`STG.E` 32 lines for a full warp at the 128-byte row stride); the model's per-request figures are those "
            "of a full warp (`strided`, 32 lines), compared as figures because the row is inside a loop on loaded data")
LANES_HJ = ("[active lanes on loaded data] per-request figures: the probe loop exits on loaded data (a key or EMPTY found, "
            "PTX line 5730); the first probe (`LDG` 0x01a0: 31,250 requests, 32 lanes, 31.98 lines) agrees, the later trips "
            "(`LDG` 0x02f0: 380,267 requests, 3.8 lanes a request) have only the lanes still probing; the model's sampled "
            "trips take every lane (31.985 lines a request, `random`), compared as figures inside a loop on loaded data")
BREAK_HJ = ("[divergent loop exit block] request count: `v = table_vals[h]` is on the break path of the probe loop "
            "(PTX `$L__BB11_5`, after the loop); the model runs it once a warp (31,250) after the lanes leave the loop; "
            "ptxas keeps it inside the loop (`LDG.E.CONSTANT` 0x0390), executed once per trip at which some lane hits: "
            "113,648 requests for 500,130 hits (3.6 a warp); per-request figures agree in the bounds (4.40 lines, 4.4 lanes)")
LANES_MC = ("[active lanes on loaded data] per-request figures: `for (e = 0; e < nv; ++e) acc += tri_table[cube * 16 + e]` "
            "with nv from the `__constant__` table at the data-dependent cube index: only the voxels crossing the "
            "surface (35,921 of 857,375) read, a few lanes a request (3.4 lines, 3.45 sectors, many lanes sharing a "
            "row); the model's sampled trips take 32 independent random lanes (32 lines), compared as figures inside "
            "a loop on loaded data")
LANES_CTC_LP = ("[active lanes on loaded data] per-request figures: the label gather `log_probs[(t B + b) V + lab]` inside the "
                "t loop to the loaded input length: the lanes are the states s < S (S from the loaded target length) and "
                "their labels are loaded values within one 256-byte row (V = 64 floats), so a request touches 1..2 lines "
                "(1.97 measured, 26.3 lanes); the model has no range for the loaded label (`random`, 16 lines expected)")
LANES_CTC_ST = ("[active lanes on loaded data] per-request figures: the alpha store `log_alpha[(b T + t) 101 + s]` for s < S "
                "(S from the loaded target length) in the t loop to the loaded input length: 26.3 lanes a request "
                "(1.793 lines, 4.164 sectors measured); the model's sampled trips take full warps at the 404-byte row "
                "pitch (2.0 lines, 5 sectors)")
NOWF = ("[missing wavefronts in a sampled remainder loop] shared wavefronts: the row's PTX copies are the 4-way "
        "unrolled loop and its remainder loop (nvcc unrolled the anti-diagonal loop / the target copy loop by 4), both "
        "inside loops on loaded data; `warpscope report` gives each access of the unrolled body 1.0 wavefront a "
        "request, but the remainder loop's accesses (PTX 4595..4628 for the diagonal loop) have a sample and no "
        "wavefront figure, so the row's mean is 0.8 (0.2 for the copy loop's store); measured 1.000 for every `LDS` / "
        "`STS` of the row")
REDUX = ("[warp-aggregated shared atomic] wavefronts: `atomicMax(&best_s, best)` on one shared address; ptxas "
         "aggregates the warp first (`REDUX.MAX.S32 UR12, R9` at 0x1bb0) and one lane issues `@P0 ATOMS.MAX.S32` "
         "(0x1c30: 2,048 requests, 2,048 lanes, 1 wavefront each); the model costs a 32-lane same-address atomic, "
         "32 wavefronts")
IFCONV = ("[ptxas predicates a guarded block] request count: `if (tid == 0) { for (w < 8) t += warp_part[w]; block_sum[.] = t; }` "
          "is a forward branch over the unrolled sum (two `ld.shared.v4` after the merge and one `st.shared`); the model "
          "branches around it (512 blocks x 1 warp = 512 executions, 2 reads each); ptxas predicates it (`@!P0 LDS.128` "
          "x 2, `@!P0 STS`: 0x0330 / 0x0340 / 0x03f0 and 0x0700 / 0x0710 / 0x0850), so all 8 warps of a block issue them, "
          "7 with no lane: 4,096 requests an instruction, 512 wavefronts (0.125 a request)")
ZFILL = ("[cp.async zero-fill wavefronts] shared wavefronts: Triton's masked `cp.async` (src-size 0 for masked lanes, "
         "and the software pipeline's last two stages issued with the stage predicate false) still writes 16 zero bytes "
         "a lane to shared memory; measured 8 wavefronts for a loaded request and 4 for a zero-filled one (e.g. "
         "`LDGSTS.E.BYPASS.128` 0x0be0 in t16_linear_bias_gelu: 16,384 requests, 14 of 16 K trips loaded, 122,880 "
         "wavefronts = 7.5 a request); the lines and sectors agree (the model leaves the zero-filled lanes out of them), "
         "but it gives every request the loaded request's 8 wavefronts")
WGMMA = ("[line attribution of HGMMA] the `wgmma.mma_async` of the `tl.dot` are at the dot's line in the PTX, where the "
         "model counts them; ptxas's line table gives the `HGMMA` instructions the lines of neighbouring PTX (the tile "
         "loads, the softmax's `tl.max` inlined from standard.py:263), so ncu lists wgmma rows at lines with no PTX "
         "wgmma (the per-request wavefronts are those of the model where its row and ncu's coincide)")
UNIFORM = ("[warp-uniform loaded index taken as random] per-request figures: the K / V tile rows are `kb * 64 + arange`, "
           "kb = tl.load(LayoutIdx + e) one loaded value for the whole program (a uniform address); the model treats "
           "the loaded index as per-lane random (32 lines a request, no shared wavefronts modelled) where every request "
           "is 4 lines / 16 sectors of contiguous 128-byte rows at an unknown row (`LDGSTS.E.BYPASS.128` 0x2d00: 5,152 "
           "requests, 16,512 lines: the 1,024 prefetches past the last listed block predicated off, 3.2 lines a "
           "request; 4.0 wavefronts each)")
PIPE = ("[pipelined prefetch in a loop on loaded data] per-request figures: Triton's software pipeline loads the next "
        "iteration's block index `kb` one trip ahead; the loop runs to the loaded CSR bounds, and its last prefetch is "
        "issued with the predicate false (`@!P3 LDG.E` 0x2340: 5,152 requests, 4,128 with lanes), so the row averages "
        "0.834 lines a request (with the prologue's 1,024); the model's sampled trips all have lanes (1.000)")
STBRANCH = ("[ptxas branches around one predicated store] request count: the 8 masked stores a thread (`cols < n`, n = the "
            "loaded sequence length) are predicated `st.global` in the PTX, all 8 counted for every warp (22,400); ptxas "
            "keeps 7 predicated (`@!P STG.E`, 2,800 requests each, lanes from the loaded lengths) and puts the last one "
            "behind a branch (`STG.E` 0x0e40: 221 requests, the warps with a lane at element 896..1,023)")
R = {}
def put(launch, lines, opspace, reason):
    for l in lines:
        R[(launch, l, opspace)] = reason
put("gs_tile_raster", ["blind16.cu:45", "blind16.cu:55", "blind16.cu:57", "blind16.cu:58", "blind16.cu:77",
                       "blind16.cu:78", "blind16.cu:79"], "ld global", BARPOPC)
put("gs_tile_raster", ["blind16.cu:56", "blind16.cu:57", "blind16.cu:58"], "st shared", BARPOPC)
put("gs_tile_raster", ["blind16.cu:63", "blind16.cu:65", "blind16.cu:75"], "ld shared", BARPOPC)
put("gs_tile_raster", ["blind16.cu:85", "blind16.cu:86", "blind16.cu:87", "blind16.cu:88"], "st global", BARPOPC)
put("spconv_gather_mma", ["blind16.cu:270"], "cp.async global,shared", EXIT_SP_CP)
put("spconv_gather_mma", ["blind16.cu:291", "blind16.cu:333"], "ld global", EXIT_SP)
put("spconv_gather_mma", ["blind16.cu:311", "blind16.cu:317"], "ldmatrix shared", EXIT_SP)
put("spconv_gather_mma", ["blind16.cu:337", "blind16.cu:338"], "red global", EXIT_SP)
put("ctc_alpha_shared", ["blind16.cu:371", "blind16.cu:372"], "ld global", EXIT_CTC)
put("ctc_alpha_shared", ["blind16.cu:378"], "st global", EXIT_CTC)
put("ctc_alpha_shared", ["blind16.cu:386"], "ld global", LANES_CTC_LP)
put("ctc_alpha_shared", ["blind16.cu:388"], "st global", LANES_CTC_ST)
put("furthest_point_sampling", ["blind16.cu:200"], "ld shared", BOTHWAYS)
put("furthest_point_sampling", ["blind16.cu:201", "blind16.cu:202"], "st shared", BOTHWAYS)
put("ball_query", ["blind16.cu:154", "blind16.cu:155"], "st global", LANES_BQ)
put("hash_join_probe", ["blind16.cu:588"], "ld global", LANES_HJ)
put("hash_join_probe", ["blind16.cu:590"], "ld global", BREAK_HJ)
put("mc_classify_edges", ["blind16.cu:467"], "ld global", LANES_MC)
put("smith_waterman_antidiag", ["blind16.cu:486", "blind16.cu:504"], "st shared", NOWF)
put("smith_waterman_antidiag", ["blind16.cu:497", "blind16.cu:498", "blind16.cu:499"], "ld shared", NOWF)
put("smith_waterman_antidiag", ["blind16.cu:507"], "atom shared", REDUX)
put("instnorm_cluster_dsmem", ["blind16.cu:766", "blind16.cu:785"], "ld shared", IFCONV)
put("instnorm_cluster_dsmem", ["blind16.cu:767", "blind16.cu:786"], "st shared", IFCONV)
put("t16_linear_bias_gelu", ["blind16_triton.py:40", "blind16_triton.py:42"], "cp.async global,shared", ZFILL)
put("t16_int8_gemm_rowscale", ["blind16_triton.py:112", "blind16_triton.py:113"], "cp.async global,shared", ZFILL)
put("t16_linear_bias_gelu", ["blind16_triton.py:40", "blind16_triton.py:42"], "wgmma shared", WGMMA)
put("t16_int8_gemm_rowscale", ["blind16_triton.py:112"], "wgmma shared", WGMMA)
put("t16_blocksparse_attn_fwd", ["standard.py:263", "blind16_triton.py:83", "blind16_triton.py:84"], "wgmma shared", WGMMA)
put("t16_blocksparse_attn_fwd", ["blind16_triton.py:86", "blind16_triton.py:93"], "cp.async global,shared", UNIFORM)
put("t16_blocksparse_attn_fwd", ["blind16_triton.py:84"], "ld global", PIPE)
put("t16_varlen_softmax", ["blind16_triton.py:64"], "st global", STBRANCH)

LOOP = "[loop on loaded data] no totals: a loop exits on loaded data, so the accesses inside it are not counted (%s)"
T = {
 "gs_tile_raster": "[barrier reduction] no totals: the launch simulation stops at the branch on `__syncthreads_count` (bar.red.popc, PTX line 138)",
 "ball_query": LOOP % "the point scan until nsample hits, `cnt < nsample`",
 "ctc_alpha_shared": LOOP % "the time loop to the loaded input length",
 "mc_classify_edges": LOOP % "the triangle-table loop to the vertex count read from the constant table at the data-dependent cube index",
 "smith_waterman_antidiag": LOOP % "the anti-diagonal loop to m + n, the loaded lengths, and the target copy loop to n",
 "hash_join_probe": LOOP % "the probe sequence to the key or EMPTY",
 "t16_blocksparse_attn_fwd": LOOP % "the key-block loop between the loaded CSR bounds",
 "spconv_gather_mma": ("[guard on loaded data followed both ways] the early exit `base >= counts[k]` is followed both ways: "
                       "13,824 warps counted, 8,448 ran; loads 110,592 / 72,660 requests, reductions 221,184 / 134,368 "
                       "(every per-warp count scales by 8,448 / 13,824; the sectors lie in the bounds)"),
 "t16_varlen_softmax": ("[lanes masked by loaded lengths] the masked loads and stores of a sequence have lanes only up to its "
                        "loaded length: the kernel-level L1 request counters count only requests with an active lane "
                        "(loads 17,388, stores 11,788) while the model counts every issued masked instruction (28,000 and "
                        "22,400, the per-instruction counts: ncu's source view has 28,000 load requests); the sectors lie in "
                        "the bounds"),
}
C = {}
# static rows: reasons of the rows whose launch facts the static analysis does not have (the simulated row agrees)
WHY = {
 "ball_query": None,
 "bf16_gelu_vec4_misaligned": "the 2-element head (`tid < head`, head from the base's 4-byte misalignment, a launch fact) and the 3-element tail at element 2,999,998 need the pointer's alignment and n",
 "ctc_alpha_shared": "the t = 0 reads of state 0 and 1 (`s == 0`, `s == 1`: one lane of warp 0, the other 3 warps issuing the predicated loads with none) need the block shape, and the `s < S` lanes the loaded lengths",
 "cumsum_outer_dim": "the 1,000-float rows of the [16][500][1,000] tensor (4,000-byte pitch, a 1,000-column last warp of 8 lanes) need Bn",
 "furthest_point_sampling": "`if (tid == 0) idxs[j] = old` is predicated for all 16 warps (`@!P0 STG.E`, one lane in 16 warps: 0.0625 lines a request) and needs the block shape",
 "gs_tile_raster": "the blended gaussian's conic (`LDS.128` of one shared address) takes 2 wavefronts when both half-warps have active lanes and 1 when one half has finished (`done`, data-dependent: 1.797 a request measured); the model's 2.0 is that of a full warp",
 "instnorm_cluster_dsmem": "the peer CTA's block sums read through `cluster.map_shared_rank` (a generic `LD.E` of distributed shared memory, ncu row `global,shared` with no sectors or wavefronts) have no wavefront figure without the launch (the simulated rows agree), and the `tid == 0` block is the simulated rows' if-conversion",
 "jacobi2d_cpasync": "the tile's rows and halo (`e / 40`, `e % 40` against nx, ny; the sweeps' `e / 38`, `e % 38`; the ragged last tiles of the 1,000 x 1,000 grid) need blockIdx and the parameters",
 "lstm_pointwise_gates": "the (batch, unit) of a thread by `idx / H`, `idx % H` with H a parameter: the gate rows' alignment and the unit's position need H",
 "mc_classify_edges": "the voxel's (x, y, z) by division by nx - 1 and (nx - 1)(ny - 1), parameters, needs them",
 "nonzero_compact": "the output slot comes from the block base (an atomicAdd's result) and the warp counts scanned in shared memory: unknown without the launch; the 16-byte (row, col) pairs are written at consecutive slots by the nonzero lanes (5.29 sectors a request)",
 "smith_waterman_antidiag": "`if (threadIdx.x == 0) best_s = 0` (predicated for all 4 warps) needs the block shape, the query byte `i <= m ? query[...] : 0` the loaded length m",
 "spconv_gather_mma": None,
 "stockham_fft_bulk": "the Stockham store index `(tid - k) * 2 + k`, k = tid & (Ns - 1) with Ns the stage's loop variable: without the stages' values the shared pattern is unknown (the simulation, stage by stage, agrees: 2.8 wavefronts)",
 "t16_blocksparse_attn_fwd": None,
 "t16_cumsum_rows": "the 300-column rows (1,200-byte pitch, the [512] block masked to 300) need C",
 "t16_int8_gemm_rowscale": "the K loop's trip count (the pipeline's two predicated-off stages: 14 of 16 trips with lanes) and the last M block (104 rows) need K and M",
 "t16_kv_append_gqa": "the token mask `t < NTOK` (7 of the 8 rows of the pointer block) needs NTOK",
 "t16_linear_bias_gelu": "the K loop's trip count (the pipeline's two predicated-off stages: 14 of 16 trips with lanes) needs K",
 "t16_reduce2d_keepdims": "the 777-column rows (3,108-byte pitch) and the last column chunk (9 columns) need C",
 "t16_rmsnorm_np2": "the width 3,000 (the [4,096] block's mask, the 6,000-byte pitch) needs N, and the reduction scratch's one active warp of 8 the block shape",
 "t16_rotary_bf16": "the head mask `hh < 12` of the second head block (program_id(1) = 1: 4 of 8 heads) needs the grid",
 "t16_topk_sort": "which lanes hold the first 16 sorted values (4 lanes of warp 0 with num_warps = 4; ptxas branches the other warps around the store) needs the block shape",
 "t16_varlen_softmax": "the reductions' shared scratch (`tl.max` / `tl.sum`, one warp of 4 with lanes: 0.625 wavefronts a request) needs the block shape, and the masked loads and stores the loaded lengths",
}
STATIC = {}
# static rows whose key has a simulated reason above but whose static figures differ for another (or a further) cause
STA = {
 ("gs_tile_raster", "blind16.cu:65", "ld shared"): "[active lanes on loaded data] " + WHY["gs_tile_raster"],
 ("spconv_gather_mma", "blind16.cu:270", "cp.async global,shared"):
     ("[warp-uniform row taken as random lanes] the gathered A rows: the model draws the 32 lanes independently from the loaded "
      "range (`random`) where each 4 lanes share one 64-byte-aligned row (feat + 64 x loaded row + 16 x (lane % 4)): "
      "23.9 sectors a request measured for the A copies and 24.0 for the weight copy (the model's 24.00 for that one), "
      "15 wavefronts a request each; without the launch the model's zero-fill lanes (`base + r < n_k`) also lower its "
      "wavefront figure"),
 ("t16_blocksparse_attn_fwd", "blind16_triton.py:86", "cp.async global,shared"):
     ("[pipelined prefetch in a loop on loaded data] without the launch the tile copy is `coalesced` (4 lines, 16 sectors a "
      "request: right for a loaded request), but the pipeline's last prefetch of each program is predicated off (1,024 of "
      "5,152 loop requests with no lane: 3.2 lines a request; the row 3.337 with the prologue), and the shared side is 4 "
      "wavefronts a request (zero-filled or not) where the model gives 6"),
 ("t16_linear_bias_gelu", "blind16_triton.py:40", "cp.async global,shared"):
     ("[static only] the K loop's trip count (the pipeline's last two stages predicated off: 14 of 16 trips with lanes, "
      "6.944 lines a request) needs K; and " + ZFILL),
 ("t16_varlen_softmax", "blind16_triton.py:64", "st global"): "[static only] " + "the masked stores' lanes (`cols < n`, n a loaded length) need the data",
}
for (a, l, o), v in list(STA.items()):
    if a == "t16_blocksparse_attn_fwd": STA[(a, "blind16_triton.py:93", o)] = v
    if a == "t16_linear_bias_gelu":
        STA[(a, "blind16_triton.py:42", o)] = v
        STA[("t16_int8_gemm_rowscale", "blind16_triton.py:112", o)] = v.replace("needs K", "needs K (and the last M block, 104 rows, M)")
        STA[("t16_int8_gemm_rowscale", "blind16_triton.py:113", o)] = v
STATIC.update(STA)
def figs(r, sim):
    if not r[4] and not r[5]:
        return ""
    if sim:
        return " [model / measured: requests %s, lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7], r[8])
    return " [model / measured: lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7])

out = ["# tests/hw/blind16: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
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
