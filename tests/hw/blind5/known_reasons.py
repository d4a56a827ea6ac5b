#!/usr/bin/env python3
"""Write tests/hw/blind5/known.txt: every row of the blind5 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind5.snap) that is `NO` or
`KNOWN`, with its measured reason from the tables below (README.md groups
them by cause). Fails to list a row (prints it under `missing`) when no
reason is written for it.

  python3 tests/hw/blind5/known_reasons.py tests/snapshots/hw_agreement__hw_agreement_blind5.snap tests/hw/blind5/known.txt
"""
import re, sys
snap = open(sys.argv[1]).read()
sec_sim = snap.split("## Per access, launch simulated")[1].split("## Kernel totals")[0]
sec_tot = snap.split("## Kernel totals")[1].split("## Copy-engine traffic")[0]
sec_sta = snap.split("## Per access, static analysis without the grid")[1]
def rows(sec):
    for l in sec.splitlines():
        if l.startswith("|") and re.search(r"\| (NO|KNOWN)[ :(]", l):
            yield [c.strip() for c in l.strip().strip("|").split("|")]
# cause texts (README.md groups them)
LDGSTS_TRITON = "sectors/lines/wavefronts, right request count: the 16-byte cp.async of a Triton pipelined tile costs less on the H100 than the LDGSTS rule gives for the same lane layout (measured per SASS instruction: 8.0 wavefronts in the prologue copies, 7.0 and 6.86 in the steady-state ones; the rule gives 8), the same unexplained effect as tests/hw tt_matmul_ampere line 46 (cost/async_copy.rs limits)"
R = {
 ("cutlass_gemm_ms3","blind5.cu:105","cp.async global,shared"): "request count, ptxas transformation: ptxas predicates the guarded `if (nk < ktiles) load_stage(...)` (8 LDGSTS.E.BYPASS.LTC128B.128 under !P) so every warp issues the copies in the last G_ST - 1 = 2 main-loop iterations too: 10 issues per copy and warp (10,240 requests) where the model, keeping the branch, has 8 (8,192); sectors 18.75 and 9.47 wavefronts per request follow from the mix",
 ("cutlass_gemm_ms3","blind5.cu:106","cp.async global,shared"): "request count, ptxas transformation: as line 105 (B tile): 10,240 requests measured for the model's 8,192, the last two main-loop iterations' copies predicated instead of branched around",
 ("fa2_fwd_tile","blind5.cu:161","cp.async global,shared"): "sectors/lines/wavefronts, right request count: 16-byte .cg copies of 128-byte rows into a tile padded to 144-byte rows, rows past seq zero-filled (src-size 0, the plain form under a predicate): lines and sectors match (3.906, 23.438), the shared side measures 10.348 wavefronts per request where the .cg class rule gives 10.500 (per SASS copy: 10.500 where every lane reads, 10.094 and 10.297 for the copies with zero-filled rows, whose clamped sources share chunks)",
 ("fa2_fwd_tile","blind5.cu:168","cp.async global,shared"): "sectors/lines/wavefronts, right request count: as line 161 (K tile): 10.449 wavefronts measured, 10.500 modelled; lines and sectors match",
 ("fa2_fwd_tile","blind5.cu:169","cp.async global,shared"): "sectors/lines/wavefronts, right request count: as line 161 (V tile): 10.449 wavefronts measured, 10.500 modelled; lines and sectors match",
 ("nccl_ring_copy","blind5.cu:386","ld global"): "not counted: the bounded wait `while (flags[r] < s && polls < 100000)` branches on a volatile load of the flag another block writes, a loop whose exit depends on loaded data: the simulation steps over it, so its load has no request count (the H100 counts depend on the blocks' timing); the copy after it is counted and matches",
 ("cp_async_8b_c999","blind5.cu:503","cp.async global,shared"): "request count, ptxas transformation: ptxas unrolls `for (c2 = t; c2 * 2 < cols; c2 += 64)` by 4 with a remainder (LDGSTS.E.64.ZFILL: 4 x 8,000 + 3 x 2,000): 38,000 requests for the 32,000 of the rolled loop (7 or 8 trips); per request the figures follow the different mix",
 ("cp_async_8b_c999","blind5.cu:509","ld shared"): "request count, ptxas transformation: the read-back loop is unrolled as line 503 (LDS.64: 38,000 measured, 32,000 modelled)",
 ("cp_async_8b_c999","blind5.cu:510","st global"): "request count, ptxas transformation: the st.global.cs loop is unrolled as line 503 (STG.E.EF: 38,000 measured, 32,000 modelled)",
 ("cp_async_cg16_gather","blind5.cu:534","ld shared"): "request count, ptxas transformation: `uint4 v = s[k & 1][t]` uses only v.x and v.w: ptxas loads the two words (LDS [R13], LDS [R13+0xc], 4 wavefronts each) instead of one LDS.128: 1,000 requests for the model's 500 (PTX ld.shared.v4)",
 ("cp_async_cg16_gather","blind5.cu:535","ld shared"): "request count, ptxas transformation: as line 534 (the unrolled loop's ld.shared.v4 of which only .x and .w are used: two LDS each, 7,000 measured, 3,500 modelled)",
 ("wgmma_swz64_st","blind5.cu:775","wgmma shared"): "line attribution: of the two HGMMA.64x32x16 of the unrolled k loop ncu puts the first at line 775 (the `for`), 2,048 requests, the second at 781; warpscope puts both at line 781 (4,096); 6 wavefronts each as modelled",
 ("wgmma_swz64_st","blind5.cu:781","wgmma shared"): "line attribution: as line 775 (2,048 of the 4,096 modelled requests measured at line 775), 6.000 wavefronts per request as modelled",
 ("half8_fill_tail","blind5.cu:860","st global"): "request count, if-conversion: ptxas predicates the `if (i + 8 <= n)` uint4 store (@!P0 STG.E.128), so the 5 warps past the end issue it with no lane: 3,912 requests for the model's 3,907",
 ("t5_matmul_s3","blind5_triton.py:53","st global"): "request count: the masked fp16 store of the 1,000 x 1,000 C edge tiles: 32,704 requests measured for 32,768 (64 of the 64 x 8 warps' STG.E.U16 not issued in edge tiles), lines and sectors per request within 0.004",
 ("t5_matmul_s4","blind5_triton.py:53","st global"): "request count: as t5_matmul_s3 line 53 (32,704 measured, 32,768 modelled)",
 ("t5_flash_attn_causal","blind5_triton.py:82","wgmma shared"): "line attribution: ncu puts 3 of the kernel's HGMMA (the P.V product, 26,112 requests) at line 82 (the q load), where the PTX .loc puts them at line 93",
 ("t5_flash_attn_causal","blind5_triton.py:86","wgmma shared"): "line attribution and request count: ncu has 2 HGMMA (17,408 requests) at line 86, 3 at line 82 and 3 at line 93; warpscope 34,816 at line 86 and 34,816 at line 93",
 ("t5_flash_attn_causal","blind5_triton.py:93","wgmma shared"): "line attribution and request count: as line 86 (26,112 measured of mixed 8- and 4-wavefront HGMMA, 6.667 per request; 34,816 at 4.000 modelled)",
 ("t5_moe_gather_mm","blind5_triton.py:153","cp.async global,shared"): "sectors/lines, right request count: the simulation names the loaded token id (lanes of one row share it, `totals::tagged`) and gives four distinct 128-byte rows per request (4.000 lines, 16.000 sectors), the figure for distinct valid tokens; measured 2.370 lines and 9.481 sectors: the padded entries zero-fill (984 of 1,152 output rows are valid, line 158) and the rest of the difference depends on the token data, which the PTX does not determine; wavefronts as measured",
 ("t5_moe_gather_mm","blind5_triton.py:153","wgmma shared"): "line attribution: ncu puts one of the four HGMMA per k step (4,608 requests) at line 153, one at line 156, two at line 155; warpscope all at line 155",
 ("t5_moe_gather_mm","blind5_triton.py:155","wgmma shared"): "line attribution: as line 153 (9,216 measured at line 155 of the model's 18,432), 8 wavefronts per request as modelled",
 ("t5_moe_gather_mm","blind5_triton.py:156","wgmma shared"): "line attribution: as line 153 (4,608 HGMMA requests measured at line 156)",
 ("t5_moe_gather_mm","blind5_triton.py:158","st global"): "request count and sectors: the output rows are scattered by the loaded token id, which the simulation names (`totals::tagged`: 4.000 lines and 16.000 sectors for four distinct rows per request, where 3.690 and 14.76 are measured with the padding rows masked off), and ptxas branches around the last of the four 16-byte stores for padding rows (984 of 1,152 issued): 4,440 requests for 4,608",
 ("t5_int8_matmul","blind5_triton.py:173","cp.async global,shared"): LDGSTS_TRITON.replace("8.0 wavefronts in the prologue copies, 7.0 and 6.86 in the steady-state ones; the rule gives 8", "8.0 and 7.8 wavefronts in the prologue copies, 7.0 and 6.86 in the steady-state ones, 7.125 on average; the rule gives 8"),
}
T = {
 "fa2_fwd_tile": "kernel totals, sectors: global load sectors 3,168,000 modelled, 2,376,000 measured (l1tex__t_sectors_pipe_lsu_mem_global_op_ld): the per-line cp.async rows match (23.438 sectors per request), so the kernel-level load metric counts the zero-filled .cg copies' rows (src-size 0 past seq) differently from the per-instruction source counters; requests and stores match",
 "q4k_matvec": "kernel totals, request count, ptxas transformation: nvcc evaluates both branches of get_scale_min_k4 (PTX lines 269/270 and 272/273 load the same bytes q[j + 4], q[j]) and ptxas reuses the first load of each address (6 LDG.E.U8 per block for the PTX's 10): 528,000 load requests measured for 720,000 (lines 269/270 have no SASS); every measured line matches",
 "nccl_ring_copy": "no totals: the bounded flag wait (line 386) is a loop whose exit depends on loaded data, which the simulation steps over without counting its load",
 "cp_async_8b_c999": "kernel totals, request count: the unrolled loops of lines 503-510 (38,000 requests measured, 32,000 modelled, each)",
 "red_atom_widths": "kernel totals, sectors: red sectors 384,375 modelled, 412,500 measured (l1tex__t_sectors_pipe_lsu_mem_global_op_red); every per-line red row matches its source-counter sectors, so the kernel-level metric counts one of the seven widths (red.add.f64, red.add.noftz.bf16x2 or red.global.add.v4.f32) differently from the source counters: 28,125 = 9 x 3,125 more",
 "t5_flash_attn_causal": "kernel totals, request count: the pipelined causal loop's copies (lines 85, 92): 75,256 load requests modelled for 73,440",
 "t5_moe_gather_mm": "kernel totals, sectors and request count: the gathered A rows and scattered C rows (lines 153, 158) of padded and repeated token ids, which the PTX does not determine, and the stores ptxas branches around",
}
out = ["# tests/hw/blind5: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
       "# The simulated rows first, then the kernel totals, then the static (no grid) rows (launch@static). README.md groups them by cause."]
miss = []
for r in rows(sec_sim):
    key = (r[0], r[1], r[2])
    op, space = r[2].split(" ", 1)
    if key not in R: miss.append(key); continue
    out.append("%s|%s|%s|%s|%s" % (r[0], r[1], op, space, R[key]))
for r in rows(sec_tot):
    if r[0] not in T: miss.append(("tot", r[0])); continue
    out.append("%s|totals|-|-|%s" % (r[0], T[r[0]]))
S = dict(R)
STATIC = {
 ("cutlass_gemm_ms3","blind5.cu:138","st global"): "static only: without the grid the M/N edge guards of the epilogue are unknown (8.000 lines; the simulation matches 7.875)",
 ("cutlass_gemm_ms3","blind5.cu:139","st global"): "static only: as line 138 (the simulation matches 7.811)",
 ("ln_bwd_fused","blind5.cu:351","ld global"): "static only: rows of 1,000 floats in a `c = tx; c < N; c += 32` loop: without N the last partial warp (8 of 32 lanes) and the row alignment (4,000-byte rows) are unknown; the simulation matches",
 ("ln_bwd_fused","blind5.cu:364","ld global"): "static only: as line 351 (the simulation matches)",
 ("ln_bwd_fused","blind5.cu:365","ld global"): "static only: as line 351 (the simulation matches)",
 ("ln_bwd_fused","blind5.cu:365","st global"): "static only: as line 351 (the simulation matches)",
 ("ln_bwd_fused","blind5.cu:370","st global"): "static only: as line 351 (the simulation matches)",
 ("ln_bwd_fused","blind5.cu:371","st global"): "static only: as line 351 (the simulation matches)",
 ("cub_radix_rank","blind5.cu:437","ld shared"): "static only: the raking scan's `t >= o ? tot[t - o] : 0` without the loop's trip values (the simulation matches)",
 ("cp_async_pipe4_ca4","blind5.cu:481","cp.async global,shared"): "static only: without n the zero-fill select (`i < n ? 4 : 0`, source in[0]) leaves the source unknown (32 lines); the simulation matches",
 ("tma2d_swz128_pipe","blind5.cu:638","ld shared"): "static only: the un-swizzled read `s[st][r * 32 + (((c >> 2) ^ (r & 7)) << 2 | (c & 3))]` in the `r = t >> 5; r < 32; r += 4` loop: without the loop's values the XOR is unknown (the simulation matches 1.000)",
 ("wgmma_swz64_st","blind5.cu:765","st shared"): "static only: the 64-byte-swizzled store `sa[r * 32 + ((c ^ ((r >> 1) & 3)) << 3)]` in a `k = t; k < 256; k += 128` loop: the XOR unknown without the loop's values (the simulation matches 4.000)",
 ("idx64_colgather","blind5.cu:848","ld global"): "static only: without cols = 1,000 the partial last column block is unknown (the simulation matches)",
 ("idx64_colgather","blind5.cu:848","st global"): "static only: as the load (the simulation matches 31.250)",
 ("half8_fill_tail","blind5.cu:862","st global"): "static only: the scalar tail loop `for (k = i; k < n; ++k)` without n: its lanes' trip counts are unknown (16.4 sectors modelled, 1.000 measured: one lane); the simulation matches",
 ("t5_matmul_s3","blind5_triton.py:47","cp.async global,shared"): "static only: the masked A copy without M (rows past 1,000 zero-filled); the simulation matches",
 ("t5_matmul_s4","blind5_triton.py:47","cp.async global,shared"): "static only: as t5_matmul_s3 line 47",
 ("t5_flash_attn_causal","blind5_triton.py:77","ld global"): "static only: the masked q load without N_CTX (last query tile of 1,000 rows); the simulation matches",
 ("t5_flash_attn_causal","blind5_triton.py:96","st global"): "static only: the masked output store without N_CTX; the simulation matches",
 ("t5_ln_bwd","standard.py:293","ld shared"): "static only: Triton's cross-warp reduction (tl.sum) scratch: without the launch the active warps of the reduction are unknown (0.625 measured; the simulation matches)",
 ("t5_ln_bwd","standard.py:293","st shared"): "static only: as the ld.shared of standard.py:293",
 ("t5_ln_bwd","blind5_triton.py:105","ld global"): "static only: the masked row loads without N (1,000 of BLOCK_N 1,024); the simulation matches",
 ("t5_ln_bwd","blind5_triton.py:123","st global"): "static only: the masked partial dgamma store without N; the simulation matches",
 ("t5_ln_bwd","blind5_triton.py:124","st global"): "static only: the masked partial dbeta store without N; the simulation matches",
 ("t5_softmax_tail","standard.py:191","ld shared"): "static only: Triton's cross-warp reduction (tl.max) scratch: without the launch the active warps are unknown (the simulation matches)",
 ("t5_softmax_tail","standard.py:191","st shared"): "static only: as the ld.shared of standard.py:191",
 ("t5_softmax_tail","standard.py:293","ld shared"): "static only: Triton's cross-warp reduction (tl.sum) scratch (the simulation matches)",
 ("t5_softmax_tail","standard.py:293","st shared"): "static only: as the ld.shared of standard.py:293",
 ("t5_softmax_tail","blind5_triton.py:132","ld global"): "static only: the masked row load without n_cols (1,000 of 1,024); the simulation matches",
 ("t5_softmax_tail","blind5_triton.py:135","st global"): "static only: the masked row store without n_cols; the simulation matches",
 ("t5_int8_matmul","blind5_triton.py:173","cp.async global,shared"): "static only for the lines and sectors (the masked A copy without M); the wavefronts differ as in the simulated row: " + R[("t5_int8_matmul","blind5_triton.py:173","cp.async global,shared")],
}

STATIC.update({
 ("cutlass_gemm_ms3","blind5.cu:105","cp.async global,shared"): "static only (and the simulated row's request count): the clamped row `ra < M ? ra : M - 1` is unknown without M, so the source is unknown (32 lines, the worst case of 1..32); 3.125 measured",
 ("cutlass_gemm_ms3","blind5.cu:106","cp.async global,shared"): "static only (and the simulated row's request count): the clamped row `rb < N ? rb : N - 1` is unknown without N (32 lines modelled, 3.200 measured)",
 ("fa2_fwd_tile","blind5.cu:161","cp.async global,shared"): "static only (and the simulated row's wavefronts): the clamped row `q0 + r < seq ? q0 + r : seq - 1` is unknown without seq (32 lines modelled, 3.906 measured)",
 ("fa2_fwd_tile","blind5.cu:168","cp.async global,shared"): "static only (and the simulated row's wavefronts): the clamped key row is unknown without seq (30.25 lines modelled, 3.906 measured)",
 ("fa2_fwd_tile","blind5.cu:169","cp.async global,shared"): "static only (and the simulated row's wavefronts): the clamped value row is unknown without seq (30.25 lines modelled, 3.906 measured)",
 ("cp_async_8b_c999","blind5.cu:503","cp.async global,shared"): "static only (and the simulated row's request count): without cols the partial last slot (src-size 4) and the unrolled loop's idle lanes are unknown (8 sectors modelled, 6.579 measured)",
 ("cp_async_8b_c999","blind5.cu:509","ld shared"): "static only (and the simulated row's request count): as line 503 (2.000 wavefronts modelled, 1.842 measured)",
 ("t5_flash_attn_causal","blind5_triton.py:85","cp.async global,shared"): "static only: the masked K copy without N_CTX (4 lines modelled, 3.229 measured); the static analysis has no wavefront figure for it",
 ("t5_flash_attn_causal","blind5_triton.py:92","cp.async global,shared"): "static only: the masked V copy without N_CTX (4 lines modelled, 3.229 measured)",
 ("t5_moe_gather_mm","blind5_triton.py:154","cp.async global,shared"): "static only: the B[expert] copy without the padded block count: 4 lines modelled, 2.667 measured (the simulation, which names the loaded expert id, matches)",
})
STATIC.update({
 ("nccl_ring_copy","blind5.cu:396","st global"): "static only: the flag store under `threadIdx.x == 0`, which every warp issues (the other warps with no lane): 1.000 line per request without the grid, 0.125 measured; the simulation matches",
 ("cp_async_pipe4_ca4","blind5.cu:473","cp.async global,shared"): "unresolved address: without n the zero-fill select leaves the source `unknown` with bounds 1.00..32.00 sectors, which contain any measurement and are no prediction; measured 1.000 line and 4.000 sectors per request (the simulation matches)",
 ("cp_async_ca16_double","blind5.cu:548","cp.async global,shared"): "unresolved address: the source is `unknown` without the grid, with bounds 1.00..32.00 sectors, which contain any measurement and are no prediction; measured 4.000 lines and 16.000 sectors per request (the simulation matches)",
 ("cp_async_ca16_double","blind5.cu:553","cp.async global,shared"): "unresolved address: as line 548; measured 3.899 lines and 15.594 sectors per request",
 ("red_atom_widths","blind5.cu:806","red global"): "unresolved address: the pattern is `unknown` without the grid, with bounds 1.00..32.00 sectors, which contain any measurement and are no prediction; measured 32.000 lines and 32.000 sectors per request (the simulation matches)",
})
for r in rows(sec_sta):
    key = (r[0], r[1], r[2])
    op, space = r[2].split(" ", 1)
    if key in STATIC: reason = STATIC[key]
    elif key in R: reason = R[key] + " (the static row differs for the same reason)"
    else: miss.append(("static",) + key); continue
    out.append("%s@static|%s|%s|%s|%s" % (r[0], r[1], op, space, reason))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print("missing:", miss)
