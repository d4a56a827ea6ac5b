#!/usr/bin/env python3
"""Write tests/hw/blind6/known.txt: every row of the blind6 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind6.snap) that is `NO` or
`KNOWN`, with its measured reason from the tables below (README.md groups
them by cause). Fails to list a row (prints it under `missing`) when no
reason is written for it.

  python3 tests/hw/blind6/known_reasons.py tests/snapshots/hw_agreement__hw_agreement_blind6.snap tests/hw/blind6/known.txt
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
SLOT = "request count, data-dependent branch: `if (slot < 0) return` on the loaded int64 slot_mapping entry (40 of the 2,048 tokens are padding, -1): the model does not know the loaded values and counts every token, 65,536 requests (32 a token), where the H100 issues 64,256; per request figures match"
DECODE = "simulation stepped over: the token loop `for (t = 0; t < len; ++t)` with len = min(seq_lens[seq], 512) loaded from memory exits on loaded data, so the simulation steps over it and counts one pass a warp (512 requests); the H100 runs 1..512 tokens a sequence (%s requests); per request figures match"
TOPP_ZERO = "request count, zero-lane requests: the scalar path's guarded loads/stores `i0 + e < d` in the last chunk of a row, where whole warps have no lane in range; ptxas predicates three of the four (`@!P LDG`, 384 zero-lane requests each, the fourth not issued), the model counts all four a warp: %s"
LOOKBACK_BR = "request count, data-dependent branch: `tile` is the block's dynamic tile id, the return value of an atomicAdd broadcast through shared memory; the model does not know that exactly one block gets tile 0 and counts both sides of `if (tile == 0)` in every block (977 requests each side; measured %s)"
HGMMA = "line attribution: ncu spreads the HGMMA instructions of the k loop over the lines around it (%s); the wavefronts per request match where the counts do"
BITONIC = "sectors/lines/wavefronts, right request count: the compare-exchange stores/loads under the data-dependent `if ((a > b) == asc)` (16.0 active lanes per request on average): 1.533 wavefronts per request measured; ptxas predicates the swap block (`@!P0 STS`/`LDS`, the SASS has no branch there) and the simulation, not knowing the loaded keys, runs it with every lane's predicate unknown and takes the expectation over the lanes that take part (`cost::participation_masks`): 1.674 modelled (1.682, the cost of the unpredicated `k[pos]`, `k[pos + stride]` loads with all 32 lanes, measured 1.682 there at line 786, where every lane was charged before the rule predicated this 8-unit block, and in the static rows); the swap predicate is correlated across the lanes of a warp (whole halves of a bitonic sequence swap or not), so the active subsets conflict less than independent lanes"
HIST = "sectors/lines/wavefronts, right request count: the flush `if (byte of c) atomicAdd(&bins[j * 4 + q], ...)` with c read from the per-warp 8-bit bins in shared memory: ATOMS.ADD on a 16-byte lane stride (4-way bank conflicts with all lanes), %s active lanes per request measured, %s wavefronts per request; the simulation, not knowing the shared value c, runs the predicated ATOMS with every lane whose byte is unknown at its address and takes the expectation over the lanes that take part, each with probability 1/2 (`cost::participation_masks`): %s wavefronts (3.353 exactly, the expected largest of 8 banks' Binomial(4, 1/2) lanes; 4.000 with every lane, as the static analysis gives, and before); the bounds 0..16 hold; the measured share of lanes that take part (0.58 and 0.18 at lines 835 and 845) is the data's, not the PTX's"
R = {
 ("reduce_inner_vec","blind6.cu:143","ld global"): "request count, ptxas transformation: ptxas unrolls the float4 body loop (`for (i = lane; i < body; i += 32)`, 7 or 8 trips a lane) by 8 and 4 with a remainder, and the lanes with 7 trips run the remainder path apart from the 8-trip lanes: 15 LDG.E.128 issues a warp (8 at 25.5 lanes, 3 + 4 at 6.5 lanes), 60,000 requests measured where the PTX loop gives 44,000; per request figures follow the mix (2.954 lines, 8.817 sectors measured)",
 ("mmvq_q8_0","blind6.cu:247","ld global"): "line attribution: the block_q8_1 `ds` load (`__low2float(y[kbx].ds)`, PTX ld.global.nc.u32) carries the `.loc` of cuda_fp16.h:5122 inlined at blind6.cu:247; warpscope keys it at the header line, ncu at line 247, so line 247 measures both loads (57,600 requests: the ds load, narrowed to LDG.E.U16, and x[kbx].d) and warpscope has the x.d load only (28,800); 2.750 lines and 8 sectors per request both",
 ("reshape_and_cache","blind6.cu:410","ld global"): SLOT,
 ("reshape_and_cache","blind6.cu:410","st global"): SLOT,
 ("reshape_and_cache","blind6.cu:411","ld global"): SLOT,
 ("reshape_and_cache","blind6.cu:411","st global"): SLOT + " (the lines too since the dataflow narrows the loaded slot by the `slot < 0` branch, so `slot % block_size` is 0..15: 8.000 lines both, 8.750 before)",
 ("decode_paged_warp","blind6.cu:432","ld global"): DECODE % "77,248",
 ("decode_paged_warp","blind6.cu:434","ld global"): DECODE % "154,296: LDG.E.64 of 256-byte rows",
 ("decode_paged_warp","blind6.cu:440","ld global"): DECODE % "154,296",
 ("topp_scan_v32000","blind6.cu:478","ld global"): TOPP_ZERO % "1,152 measured, 1,536 modelled (every one with no lane: 0 lines)",
 ("topp_scan_v32000","blind6.cu:503","st global"): TOPP_ZERO % "1,152 measured, 1,536 modelled (the stores, 0 lines)",
 ("topp_scan_t32003","blind6.cu:478","ld global"): TOPP_ZERO % "65,152 measured, 65,536 modelled (odd d: the scalar path every chunk), and the per-request figures follow the mix (4.792 lines and 16.211 sectors measured, 4.777 and 16.116 modelled)",
 ("topp_scan_t32003","blind6.cu:503","st global"): TOPP_ZERO % "65,152 measured, 65,536 modelled, the per-request figures following the mix (16.211 sectors measured, 16.116 modelled)",
 ("multi_tensor_scale","blind6.cu:585","ld global"): "simulation stopped: the TensorListMetadata<2> parameter is a struct passed by value that tests/hw_agreement.rs gives warpscope no value for (launches.json carries its size and pointer fields, not its bytes), so `n = tl.sizes[tensor_loc]` and the alignment test are unknown and the simulation stops at the first branch on them (PTX line 8341); the kernel's rows are not counted",
 ("multi_tensor_scale","blind6.cu:590","st global"): "simulation stopped: as line 585 (the struct parameter's sizes and addresses not given)",
 ("multi_tensor_scale","blind6.cu:598","ld global"): "simulation stopped: as line 585 (the struct parameter's sizes and addresses not given)",
 ("multi_tensor_scale","blind6.cu:603","st global"): "simulation stopped: as line 585 (the struct parameter's sizes and addresses not given)",
 ("spmv_csr_warp","blind6.cu:704","ld global"): "trip count on loaded data: the row loop `for (j = start + lane; j < end; j += 32)` with start and end loaded from row_ptr (and broadcast by shuffles) exits on loaded data, so its loads (val[j], col[j], x[col[j]]) have no request count; their per-request figures are those of the trip the simulation ran up to that exit with every lane that may still be in the loop taking part (12.302 lines and 15.208 sectors a request over the three loads, 32 lanes); measured 9.445 and 11.634 with the lanes still in the loop (rows shorter than a warp and the last partial trip), which only the data decides",
 ("lookback_scan","blind6.cu:742","st global"): LOOKBACK_BR % "1 at this line, in tile 0",
 ("lookback_scan","blind6.cu:743","st shared"): LOOKBACK_BR % "1 at this line, in tile 0",
 ("lookback_scan","blind6.cu:745","st global"): LOOKBACK_BR % "976 at this line, the other tiles",
 ("lookback_scan","blind6.cu:749","ld global"): "simulation stepped over: the lookback's poll loop `for (polls = 0; (w >> 32) == 0 && polls < 4096; ++polls) w = st[pred]` (and the predecessor loop around it, which breaks on a loaded flag) exits on loaded data, so the volatile status loads are not counted",
 ("lookback_scan","blind6.cu:753","st global"): LOOKBACK_BR % "976 at this line, the other tiles",
 ("lookback_scan","blind6.cu:754","st shared"): LOOKBACK_BR % "976 at this line, the other tiles",
 ("lookback_scan","blind6.cu:764","st global"): "request count, if-conversion: the four guarded output stores `if (base + e < n)`: ptxas predicates three (issued by every warp, 7,816 each) and branches around the fourth for the 3 warps of the last tile that hold no item (7,813): 31,261 requests measured, 31,264 modelled (all four in every warp); per request 3.999 lines and 15.994 sectors measured, 4.000 and 16.000 modelled",
 ("bitonic_kv2048","blind6.cu:788","st shared"): BITONIC,
 ("bitonic_kv2048","blind6.cu:789","st shared"): BITONIC,
 ("bitonic_kv2048","blind6.cu:790","ld shared"): BITONIC,
 ("bitonic_kv2048","blind6.cu:791","ld shared"): BITONIC,
 ("bitonic_kv2048","blind6.cu:791","st shared"): BITONIC,
 ("bitonic_kv2048","blind6.cu:792","st shared"): BITONIC,
 ("hist_u8bins","blind6.cu:835","atom shared"): HIST % ("18.7 of 32", "3.622", "3.335"),
 ("hist_u8bins","blind6.cu:845","atom shared"): HIST % ("5.76", "1.878", "3.335") + "; and the request count: 16,810 measured, 16,896 modelled (ptxas branches around the four ATOMS of a word whose bytes are all zero for every lane)",
 ("t6_matmul_persistent_flat","blind6_triton.py:95","wgmma shared"): HGMMA % "6,144 of the 24,576 HGMMA requests measured at line 95, the `for` of the flattened loop; warpscope puts all at line 113",
 ("t6_matmul_persistent_flat","blind6_triton.py:111","cp.async global,shared"): "sectors/lines/wavefronts, right request count: the A-tile copies with edge rows clamped to row 0 (`tl.where(offs_am < M, offs_am, 0)`, M = 1,500 in 128-row tiles): 11.813 sectors per request measured, 11.907 modelled (lines 2.924 and 4.000 wavefronts both); the 0.094-sector excess is the clamped rows' share, whose sectors the model counts at the expectation over the edge tile",
 ("t6_matmul_persistent_flat","blind6_triton.py:113","wgmma shared"): HGMMA % "18,432 of 24,576 at line 113, the rest at line 95",
 ("t6_grouped_linear_sched","blind6_triton.py:133","ld local"): "request count, ptxas transformation: ptxas spills registers of the pointer tiles (64-bit per-element pointers built from the loaded base `tl.load(A_ptrs + g).to(tl.pointer_type(...))`) to local memory: LDL at line 133, no PTX local access",
 ("t6_grouped_linear_sched","blind6_triton.py:133","st local"): "request count, ptxas transformation: register spills (STL at line 133, 408 requests each of 60 stores), no PTX local access",
 ("t6_grouped_linear_sched","blind6_triton.py:137","wgmma shared"): HGMMA % "a quarter of the HGMMA at line 137, the tl.load of the weight base",
 ("t6_grouped_linear_sched","blind6_triton.py:138","ld local"): "request count, ptxas transformation: register spills reloaded in the k loop (LDL at line 138, 1,632 requests each), no PTX local access",
 ("t6_grouped_linear_sched","blind6_triton.py:138","st local"): "request count, ptxas transformation: register spills in the k loop (STL at line 138), no PTX local access",
 ("t6_grouped_linear_sched","blind6_triton.py:140","wgmma shared"): HGMMA % "4,896 of the model's 6,528 measured at line 140, the rest at 137",
 ("t6_grouped_linear_sched","blind6_triton.py:141","st global"): "sectors/lines/wavefronts, right request count: the C store masked by `offs_m < m` with m loaded per group (M = 300, 64, 1,000, 17, 513, 128 in 64-row tiles): 0.931 lines and 1.862 sectors per request measured, 1.484 and 2.938 modelled (requests 26,064 measured, 26,112 modelled): the model does not know the loaded m and counts the rows past it as active (the bounds 0..3 hold)",
 ("t6_attn_bwd_dkdv","blind6_triton.py:163","wgmma shared"): HGMMA % "8,192 HGMMA requests at line 163, the dO load",
 ("t6_attn_bwd_dkdv","blind6_triton.py:165","wgmma shared"): HGMMA % "24,576 of 32,768 at line 165",
 ("t6_attn_bwd_dkdv","blind6_triton.py:168","wgmma shared"): HGMMA % "40,960 at line 168, a mix of 8- and 4-wavefront HGMMA, 4.800 per request; warpscope 32,768 at 4.000",
 ("t6_attn_bwd_dkdv","blind6_triton.py:171","wgmma shared"): HGMMA % "24,576 of 32,768 at line 171",
 ("t6_fp8_e5m2_matmul","blind6_triton.py:185","wgmma shared"): HGMMA % "QGMMA requests at line 185, the A load",
 ("t6_fp8_e5m2_matmul","blind6_triton.py:186","wgmma shared"): HGMMA % "QGMMA requests at line 186, the B load",
 ("t6_fp8_e5m2_matmul","blind6_triton.py:188","wgmma shared"): HGMMA % "4,096 of the model's 8,192 QGMMA requests at line 188, the rest at 185 and 186",
}
T = {
 "reduce_inner_vec": "kernel totals, request count: the unrolled, lane-split float4 loop of line 143 (66,000 load requests measured, 50,000 modelled); sectors match",
 "rope_norm": "kernel totals, load requests: the sin/cos argument reductions' slow path (Payne-Hanek: a 6-trip loop of `__cudart_i2opi_f` table loads and local-memory stores, PTX lines 2633 and 2762) runs under `|theta * pos| >= 105615` (`setp.ltu.f32 ... 0f47CE4780`, PTX line 2591) with pos loaded, so the simulation follows that branch both ways in every warp and counts 12 table loads in every warp that reaches them, which the H100 never issues: 98,304 load requests and 557,056 sectors measured (those of lines 295 and 297 only), 491,520 and 950,272 modelled; the stores match",
 "rope_neox_partial": "kernel totals, load requests: the sin/cos argument reductions' slow path (Payne-Hanek: a 6-trip loop of `__cudart_i2opi_f` table loads and local-memory stores, PTX lines 3165 and 3294) runs under `|theta * pos| >= 105615` (`setp.ltu.f32 ... 0f47CE4780`, PTX line 3122) with pos loaded, so the simulation follows that branch both ways in every warp and counts 12 table loads in every warp that reaches them, which the H100 never issues: 65,536 load requests and 180,224 sectors measured (those of lines 295 and 297 only), 262,144 and 376,832 modelled; the stores match",
 "reshape_and_cache": "kernel totals, request count: the 40 padding tokens' early return on a loaded slot (lines 410, 411): 144,896 load and 128,512 store requests measured, 147,456 and 131,072 modelled",
 "decode_paged_warp": "no totals: the token loop exits on a loaded length (PTX line 6163) and is stepped over",
 "multi_tensor_scale": "no totals: the struct parameter (TensorListMetadata<2>) is not given to warpscope, the simulation stops at PTX line 8341",
 "bias_gelu": "kernel totals, request count: the grid-stride loop (768,000 load and 768,000 store requests measured, 767,548 modelled each)",
 "stencil3d_zmarch": "kernel totals, request count: the guarded interior store of line 670 (51,968 measured, 51,908 modelled: one warp decided differently)",
 "spmv_ell_pad": "kernel totals, request count and sectors: `if (c >= 0)` on the loaded column skips the padding entries (112,004 load requests measured, 112,536 modelled) and the x[c] gather of random columns measures 1,091,465 sectors where the model takes the worst case, 1,500,000 (bounds 156,250..1,506,250 hold)",
 "spmv_csr_warp": "no totals: the row loop exits on loaded row_ptr bounds (PTX line 9622) and is stepped over",
 "lookback_scan": "no totals: the lookback's poll loop exits on loaded data (PTX line 9980) and is stepped over",
 "t6_cross_entropy_chunked": "kernel totals, request count: the label-logit gather masked by `label >= 0` (every 17th label -1): the model issues it for the 31 ignored rows' 8 warps (520,704 load requests modelled, 520,456 measured)",
 "t6_grouped_linear_sched": "kernel totals, request count and sectors: register spills (local memory, not in the PTX) and the rows past the loaded m (line 141): 155,424 load requests measured, 159,120 modelled",
}

out = ["# tests/hw/blind6: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
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
WHY = {
 "index_select_rand": "the source row `index[dst_index]` is a loaded value and the row length a parameter (100): without them the address is unknown (the worst case)",
 "index_select_sorted": "the source row `index[dst_index]` is a loaded value and the row length a parameter (37): without them the address is unknown (the worst case)",
 "embedding_bwd_rand": "without dim (100) the second pass of `d < dim` (36 of 64 lanes) and the rows' 400-byte alignment are unknown",
 "scatter_add_dim0": "the loaded, clamped int64 row index and cols (129) are unknown without the parameters",
 "vec4_axpby": "without n every block takes the vector path; the last block's scalar path (579 elements) with its idle lanes is unknown",
 "reduce_inner_vec": "without cols (1,001) the head (`lane < head`) and tail lanes and the rows' alignment are unknown",
 "upsample_bilinear": "the source indices `(int)(rw * (ow + 0.5f) - 0.5f)` are f32 arithmetic on rw = w1 / w2 and ow = index % w2 (w1, w2 parameters, 75 and 192): without them the float values, hence the address, are unknown (the worst case)",
 "rope_neox_partial": "without n_dims (96) the lanes that take the copy path `i0 >= n_dims` (lines 313, 314: 16 of a warp's 32) and the rotated pair's offset `x[ix + n_dims / 2]` (lines 319-321) are unknown: every lane counts as active",
 "im2col_k3s2": "the window bounds (`h < height && w < width`) and the divisions by width_col and height_col need the sizes",
 "transpose_tile33": "without rows and cols (1,000 x 777) the masked edge tiles are unknown",
 "mmq_q8_0_tile": "the row clamp `min(i, nrows - row0 - 1)` and the edge rows need nrows (1,800)",
 "topp_scan_v32000": "a store by one thread (`tid == 0`, `tid == 255`) that every warp issues, 7 of the 8 with no lane: without the block the zero-lane requests are unknown",
 "topp_scan_t32003": "a store by one thread (`tid == 0`, `tid == 255`) that every warp issues, 7 of the 8 with no lane: without the block the zero-lane requests are unknown",
 "causal_softmax_768": "the eight unrolled `if (element_index < local_seq)` loads of a causal row (row r has r + 1 elements) need the sequence length and the block's rows",
 "bias_gelu": "the bias index `i % hidden` needs hidden (3,000)",
 "stencil2d_box9": "the clamped halo indices `min(max(bx + lx - 1, 0), nx - 1)` need nx and ny",
 "stencil3d_zmarch": "the clamped indices need nx and ny, and the halo loads by the edge threads (`threadIdx.x == 0`, `== 31`, `threadIdx.y == 0`, `== 7`) need the block shape",
 "lookback_scan": "the warp-sum loop read by thread 0 only (`for (w = 0; w < 8; ++w) agg += warp_sums[w]`): without the block its lanes are unknown",
 "bitonic_kv2048": "the compare-exchange address `2 * tid - (tid & (stride - 1))` with the loop's stride unknown statically: no wavefront figure for it (`wf not modelled`)",
 "t6_rmsnorm_fwd": "Triton's reduction scratch (tl.sum), the row masked by N (3,000 of 4,096) and the one-lane rstd store: without the launch the active lanes and warps are unknown",
 "t6_cross_entropy_chunked": "Triton's reduction scratch (tl.max, tl.sum) and the one-lane scalar loads and stores: without the launch the active lanes and warps are unknown",
 "t6_grouped_linear_sched": "the weight rows masked by N and the loaded group size: without the launch the active rows are unknown",
 "t6_attn_bwd_dkdv": "the rows past N_CTX (1,000 of 16 x 64) are masked: without N_CTX the masked rows of the last block are unknown",
 "t6_fp8_e5m2_matmul": "the masked edge rows (M, N = 1,000 of 8 x 128) are unknown without the sizes, and the static analysis gives the copies' shared side 6 wavefronts where the simulation's 4 match",
}
STATIC = {
 ("reduce_inner_vec","blind6.cu:143","ld global"): "static only: without the launch the static analysis has no trip count per lane, so it keeps the rolled PTX loop's lanes together where ptxas's unrolled code (`analysis::unroll`, tests/hw/unroll_probes) splits the lanes of different trip counts into its 4-copy loop and 2- and 1-copy remainder blocks (NVVM's 4-copy float4 body unrolled again, 7 or 8 trips a lane): 4.875 lines and 16.500 sectors per request without the grid, 2.954 and 8.817 measured; the simulation with the launch matches",
 ("t6_matmul_persistent_flat","blind6_triton.py:111","cp.async global,shared"): "static only (and the simulated row's sectors): the clamped rows `tl.where(offs_am < M, offs_am, 0)` are unknown without M, so the source is `unknown` (32 lines, the worst case); 2.924 lines and 11.813 sectors measured",
}
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
