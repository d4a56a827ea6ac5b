#!/usr/bin/env python3
"""Write tests/hw/blind10/known.txt: every row of the blind10 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind10.snap) that is `NO` or
`KNOWN`, with its measured reason from the tables below (README.md groups
them by cause). Copied from tests/hw/blind9/known_reasons.py (same table
reading and output); the reasons are this batch's. Fails to list a row
(prints it under `missing`) when no reason is written for it.

  python3 tests/hw/blind10/known_reasons.py tests/snapshots/hw_agreement__hw_agreement_blind10.snap tests/hw/blind10/known.txt
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
HGMMA = ("line attribution: ncu spreads the HGMMA instructions of the loop over the lines around it (%s); warpscope keys "
         "every `wgmma.mma_async` at the line of its `tl.dot` (%s); the wavefronts per request and the sums agree")
DKDV = HGMMA % ("16,384 at line 50, 49,152 at 53, 81,920 at 56, 65,536 at 57, 49,152 at 59",
                "65,536 each at 53, 56, 57, 59: 262,144 both")
DQ = HGMMA % ("16,384 at line 82, 65,536 at 84, 32,768 at 85, 65,536 at 87, 16,384 at 89",
              "65,536 each at 86, 89, 91 (86 and 91 have no measured wgmma row): 196,608 both")
B64 = ("addresses on loaded data, narrower than their type: `dec[q.x]` (and .y, .z, .w) index the 256-byte shared table at "
       "the loaded text bytes; the model takes a loaded byte as any of 0..255 (64 words, two per bank: 1.999 wavefronts "
       "expected); the text is base64 (bytes 43..122, words 10..30, all in different banks): 1.000 wavefront a request "
       "measured (`LDS.U8`, 62,500 requests both)")
UTF8 = ("lanes on loaded data: the continuation bytes past the 16-byte chunk are read one byte at a time only when a "
        "sequence straddles the chunk end (the loaded lead bytes decide); ptxas branches around the 6 `LDG.E.U8` copies "
        "(1.6 .. 6.4 lanes a request), so a warp with no straddling lane issues nothing: 38,312 requests of 2.23 lines and "
        "3.05 sectors measured; the model counts every lane that may straddle: 46,878 requests (6 a warp) of 5 lines and "
        "17 sectors")
RLE = ("trip count on loaded data: the binary search over the loaded run ends exits on loaded data (`lo < hi`, PTX line "
       "1448), so the simulation steps over it after the trip it ran: no request count; on that trip (the first) every "
       "lane reads `run_ends[(nruns - 1) / 2]` (1 line, 1 sector, a broadcast); over the 2,375,000 measured requests the "
       "lanes of a warp part in the last steps: 1.036 lines and 1.096 sectors a request")
AES = ("vector merging by ptxas: the round keys `rk[4r + 2]`, `rk[4r + 3]` (lines 304, 305) are one `LDS.64` at line 304 "
       "in the loop, as modelled (rounds 2..9: 8 a warp); ptxas peels the first round, whose keys `rk[4..7]` have a "
       "constant 16-byte-aligned address (`[UR8+0x1010]`), and merges all four into one `LDS.128` listed at line 302; "
       "the model merges pairs there too (an `LDS.64` at 302 and one at 304): 703,125 requests at 304 modelled (45 a "
       "warp), 687,500 measured (44); line 302 has 45 a warp both (36 table reads + 8 `LDS.64` + the `LDS.128`). The "
       "table reads' wavefronts agree (3.15)")
EDGE = ("line attribution: the two `atomicAdd` of lines 427 and 428 are consecutive `REDG`s (0x1a0, 0x1b0) after the "
        "`FADD R13, -R15, -RZ` of `-flux` (line 428, which takes line 428's call-site row); ncu lists both `REDG`s at 427 "
        "(185,626 requests), the model keys the second at 428 (92,813 each); per request 31.98 lines and 32 sectors both, "
        "the kernel totals agree")
AVGSAMPLE = ("request count, sampled grid: the simulation runs a sample of the 784 / 490 blocks and scales it; the "
             "border output rows (`oy == 0`: `y = -1` skipped by whole warps) recur every 24.5 blocks, which the sample "
             "misses in part: %s. With a grid of 98 blocks (4 whole images, every block simulated) the CLI gives 756 / "
             "784 requests a copy, the measured 6,048 / 6,272 divided by 8: the model is exact when it runs every block")
SWA = ("request count, ptxas unrolls a loop whose trip count differs by lane: `for (j = lo + lane; j <= i; j += 32)` runs "
       "ceil((i - lo + 1 - lane) / 32) trips in each lane; ptxas unrolls it by 4 with a remainder (a 4-copy body, then "
       "2 and 1 copies), and the lanes with another trip count run other copies: a warp whose lanes take 4 and 3 trips "
       "issues 4 + 2 + 1 = 7 requests, where the PTX loop (and the model) has 4. %s")
ARGMAX = ("request count, ptxas's code for a short loop over shared results: the 7 trips of `for (k = 1; k < 8; ++k) if "
          "(wv[k] > best || (wv[k] == best && wi[k] < bi))` by thread 0; the PTX loads `wv[k]` once a trip and `wi[k]` in "
          "both arms of the `||` (2 copies a trip); ptxas loads `wv[0..7]` as two `LDS.128` from constant addresses (as "
          "modelled: the loads across blocks, `merge`) and keeps both `wi[k]` copies behind branches (each warp runs one: "
          "e.g. 33 + 31 = 64 at +0x24): 9 requests a block measured (576); the model predicates both `wi` copies of each "
          "trip (the arm not taken with no lane): 2 + 14 = 16 a block (1,024); 1 wavefront a request both")
GN196 = ("line attribution: the last `ld.shared.b32 [global_smem]` (the reduction result read back) has `.loc 1 0 30` "
         "(line 0); the model keys it at the line before (197: no measured row there), ncu lists its `LDS [UR6]` at 196 "
         "(1,024 requests, 1 wavefront)")
SCMAX = ("lanes on loaded data through shared memory: Triton lowers a float `tl.atomic_max` to two integer atomics, "
         "`atom.max.s32` for the lanes whose value is >= 0 and `atom.min.u32` for the others (8 + 8 copies), the guard "
         "the mask and the loaded value's sign, and its layout conversion passes the mask and the values through shared "
         "memory (`STS.U16` / `LDS.U8`); measured 16.0 lanes, 15.94 lines and 15.98 sectors a request (the sign halves "
         "the warp), 125,002 requests (the last program's warps with no valid lane issue nothing in 14 of the 16 "
         "copies); the model, with the guard unknown, counts every warp with all 32 lanes: 125,056 requests, 32 lines")
SAMPLED = ("kernel totals, sectors, sampled grid: %s; the simulation runs a sample of the blocks and scales it; the "
           "requests and every per-line row match")
R = {
 ("base64_decode","blind10.cu:47","ld shared"): B64,
 ("base64_decode","blind10.cu:48","ld shared"): B64,
 ("base64_decode","blind10.cu:49","ld shared"): B64,
 ("base64_decode","blind10.cu:50","ld shared"): B64,
 ("utf8_validate","blind10.cu:81","ld global"): UTF8,
 ("rle_decode","blind10.cu:100","ld global"): RLE,
 ("aes128_ttable","blind10.cu:304","ld shared"): AES,
 ("edge_flux_atomic","blind10.cu:427","red global"): EDGE,
 ("avgpool3s2_c64","blind10.cu:541","ld global"): AVGSAMPLE % "55,986 requests modelled, 55,776 measured (3 of the 9 copies skipped by the 224 warps of `oy == 0`); per request 3.953 lines and 15.812 sectors modelled, 3.952 and 15.810 measured",
 ("avgpool3s2_c40","blind10.cu:541","ld global"): AVGSAMPLE % "34,970 requests modelled, 34,928 measured; per request 8.633 lines and 19.329 sectors modelled, 8.631 and 19.324 measured",
 ("swa_softmax_w256","blind10.cu:609","ld global"): SWA % "Window 256: every lane of a row i >= 255 takes 8 trips (both 8), the rows i < 255 split: 15,488 requests modelled, 15,736 measured (3,776 x 4 + 190 x 2 + 252); 1.897 / 4.785 lines / sectors modelled, 1.883 / 4.724 measured",
 ("swa_softmax_w256","blind10.cu:613","ld global"): SWA % "Window 256 (the second pass, the same loop): 15,488 requests modelled, 15,736 measured",
 ("swa_softmax_w100","blind10.cu:609","ld global"): SWA % "Window 100: lanes 0..3 take 4 trips, the others 3, in every row: 8,000 requests modelled (4 a warp), 13,887 measured (1,952 x 4 of 4 lanes + 2,016 x 2 + 2,047: 7 a warp); 1.730 / 3.981 lines / sectors modelled, 1.408 / 2.664 measured",
 ("swa_softmax_w100","blind10.cu:613","ld global"): SWA % "Window 100 (the second pass, the same loop): 8,000 requests modelled, 13,887 measured",
 ("argmax_vocab","blind10.cu:650","ld shared"): ARGMAX,
 ("t10_attn_bwd_dkdv","blind10_triton.py:50","wgmma shared"): DKDV,
 ("t10_attn_bwd_dkdv","blind10_triton.py:53","wgmma shared"): DKDV,
 ("t10_attn_bwd_dkdv","blind10_triton.py:56","wgmma shared"): DKDV + " (line 56's 81,920 are 16,384 of the S tile's first k-step, 8 wavefronts, and 65,536 of dV's, 4: 4.8 a request)",
 ("t10_attn_bwd_dkdv","blind10_triton.py:59","wgmma shared"): DKDV,
 ("t10_attn_bwd_dq","blind10_triton.py:82","wgmma shared"): DQ,
 ("t10_attn_bwd_dq","blind10_triton.py:84","wgmma shared"): DQ,
 ("t10_attn_bwd_dq","blind10_triton.py:85","wgmma shared"): DQ,
 ("t10_attn_bwd_dq","blind10_triton.py:87","wgmma shared"): DQ,
 ("t10_attn_bwd_dq","blind10_triton.py:89","wgmma shared"): DQ,
 ("t10_groupnorm_nhwc","blind10_triton.py:196","ld shared"): GN196,
 ("t10_scatter_max","blind10_triton.py:223","atom global"): SCMAX,
}
T = {
 "utf8_validate": "kernel totals, lanes on loaded data (blind10.cu:81): 54,691 load requests and 921,872 sectors modelled, 46,125 and 241,707 measured: the straddling continuation-byte loads, branched around by warps with no straddling lane",
 "rle_decode": "no totals: the binary search exits on loaded data (PTX line 1448) and is stepped over",
 "warp_affine_rot30": SAMPLED % "the rotated gathers' lines change from block to block: 2,380,247 load sectors modelled, 2,379,940 measured (0.013%; 2,378,934 blind, before the residue-class sampling)",
 "spmv_dia5": "kernel totals, load requests: the diagonal offsets are loaded (`offsets[d]`, warp-uniform but unknown to the model); at the two ends (offsets -1,000 and +1,000) 31 warps each have every lane's column out of range: their `data` and `x` loads issue with no lane, which the per-instruction counters count (125,000 requests a line both) and the kernel's `l1tex__t_requests` does not (calibration `pred_row_v4_n0`: 1,024 lane-less requests, 0 in the kernel metric): 375,000 load requests modelled, 374,876 measured (124 = 62 warps x 2 loads); sectors 1,232,911 within the bounds 225,000..1,350,000 (1,174,498 measured)",
 "spmv_dia7": "kernel totals, load requests: as spmv_dia5 (loaded offsets; at -333 and +333 10 warps each have no lane in range): 328,125 load requests modelled, 328,085 measured (40 = 20 warps x 2 loads)",
 "avgpool3s2_c64": "kernel totals, request count, sampled grid (blind10.cu:541): 55,986 load requests modelled, 55,776 measured; the 98-block grid (every block simulated) gives the measured count / 8",
 "avgpool3s2_c40": "kernel totals, request count, sampled grid (blind10.cu:541): 34,970 load requests modelled, 34,928 measured",
 "swa_softmax_w256": "kernel totals, request count: ptxas's 4-way unrolling of the window loops (lines 609, 613) with trip counts that differ by lane: 48,200 load requests modelled, 48,696 measured",
 "swa_softmax_w100": "kernel totals, request count: ptxas's 4-way unrolling of the window loops (lines 609, 613) with trip counts that differ by lane: 24,180 load requests modelled, 35,954 measured",
 "t10_scatter_max": "kernel totals, atomics: the sign-split float `atomic_max` (blind10_triton.py:223): 125,056 atomic requests and 4,001,792 sectors modelled, 125,002 and 1,998,385 measured (16 lanes a request)",
 "t10_swiglu_bwd": SAMPLED % "11,000-byte rows (the up half 5,500 bytes in) at several alignments: 1,518,399 load and 1,012,240 store sectors modelled (1,518,499 and 1,012,280 blind, before the residue-class sampling), 1,518,336 and 1,012,224 measured",
}
C = {
 "bulk_mcast_gemv": "copy-engine bytes of a multicast bulk copy: each of the 1,024 `cp.async.bulk...multicast::cluster` copies 8,192 bytes into both CTAs of the cluster (ctaMask 3); `l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld` counts the bytes at each destination SM: 16,777,216 measured = 1,024 x 8,192 x 2; the model gives the copy's size once (8,388,608). (tma2d_mcast_gemv4's 2-D copies, mask 0xF, measure 4,096 x 4,096 x 4 = 67,108,864 the same way; their box is not in the PTX)",
}
WHY = {
 "rle_decode": "the run index `lo` comes from the binary search over loaded run ends: without the launch the lanes' indices are unknown",
 "bayer_rggb_bilinear": "the clamped 4 x 4 window `min(max(2 y + dy, 0), h - 1)` and the pitch need the launch: without them the lanes' addresses are unknown",
 "integral_rows_u8": "the row of 1,000 bytes (the last 128-byte chunk 104 bytes: 13 lanes) needs the width",
 "integral_cols_u32": "the 1,000 columns (the last warp 8 lanes) need the width",
 "gauss9_row": "the 4-thread halo on each side (`tid < 4`, `tid >= 124`: 4 lanes of one warp), the clamped borders and the 1,000-float rows need the block and the sizes",
 "gauss9_col": "the clamped halo rows and the 1,000 columns need the launch",
 "warp_affine_rot30": "the source coordinates come from the f32 affine map parameters and the clamped borders: without them the lanes' addresses are unknown; the stores' last warp of a 1,200-pixel row needs the width",
 "warp_affine_down2": "the source coordinates come from the f32 affine map parameters: without them the lanes' addresses are unknown",
 "aes128_ttable": "the round-key fill `if (threadIdx.x < 44)` (44 lanes of 256: 0.25 lines a request over the 8 warps) needs the block",
 "sha256_blocks": "the constant fill `if (threadIdx.x < 64)` (2 warps of 4) needs the block",
 "fem_hex8_apply": "the element-matrix fill `if (threadIdx.x < 64)` (2 warps of 4) needs the block",
 "winograd_f23_input": "the zero-padded border loads (`y`, `x` in range) need H and W, and the stores into `V[16][64][784]` (784 tiles a channel: a partial warp) need the sizes",
 "avgpool3s2_c64": "the border conditions (`y`, `x` in range) need H, W, OH, OW",
 "avgpool3s2_c40": "the border conditions and the 80-byte pixels' lanes need H, W, OH, OW and C8",
 "bn_stats_nchw": "the 784-float planes (plane starts 64-byte aligned: 3.5 sectors) need HW, and the shared tree reduction `if (tid < s)` needs the block",
 "swa_softmax_w256": "the row's write pass loads `row[j]` only inside the window (`j >= lo && j <= i`) and needs T and the window",
 "swa_softmax_w100": "the row's write pass loads `row[j]` only inside the window (`j >= lo && j <= i`) and needs T and the window",
 "bulk_mcast_gemv": "the shared array `red` sits after the 16 KiB `buf` and the mbarrier (offset 0x4008): without the module's layout the static figure averages thread 0's `LDS.64` / `LDS.128` over the array's alignments (1.333 wavefronts); the simulation, with the layout, gives 1",
 "t10_attn_bwd_dkdv": "the masked last block (N = 1,000: 40 of 64 rows) needs N",
 "t10_attn_bwd_dq": "the masked last block (N = 1,000: 40 of 64 rows) needs N",
 "t10_bn_stats_nchw": "Triton's reduction scratch (one-lane and partial-warp shared accesses), the last block of 1,024 (64 of 3,136 valid) and the one-lane result stores need the launch and HW",
 "t10_alibi_softmax": "Triton's reduction scratch (tl.max / tl.sum: one-lane and partial-warp shared accesses) needs the launch",
 "t10_groupnorm_nhwc": "Triton's reduction scratch and the masked last tile (4 of 128 pixels) need the launch and HW",
 "t10_tril_pack": "the row-dependent masks (columns 0..i of row i = program_id) and the packed row starts need the grid",
 "t10_swiglu_bwd": "the rows' alignment (11,000-byte rows, the up half 5,500 bytes in: 5,500 mod 128 = 124) needs the row stride and the program ids",
}
STATIC = {
 ("argmax_vocab","blind10.cu:650","ld shared"): "static only: " + "without the block the lanes of thread 0's loop (`threadIdx.x == 0`) are not known: the two `LDS.128` of `wv[0..7]` count as 16-byte broadcasts of a whole warp (2 wavefronts), 1.125 wavefronts a request over the line without the grid; thread 0 alone reads them (1 wavefront), 1.000 measured; the simulation with the launch gives 1.000 (its request count differs for the `wi` copies: the simulated row)",
 ("swa_softmax_w100","blind10.cu:609","ld global"): "static only: without the launch the static analysis has no trip count per lane, so it keeps the rolled PTX loop's lanes together where ptxas's unrolled code (`analysis::unroll`, tests/hw/unroll_probes) splits the lanes of different trip counts into its 4-copy loop and 2- and 1-copy remainder blocks (`for (j = lo + lane; j <= i; j += 32)`, 4 or 3 trips a lane): 1.969 lines and 4.875 sectors per request without the grid, 1.408 and 2.664 measured; the simulation with the launch matches",
 ("swa_softmax_w100","blind10.cu:613","ld global"): "static only: without the launch the static analysis has no trip count per lane, so it keeps the rolled PTX loop's lanes together where ptxas's unrolled code (`analysis::unroll`, tests/hw/unroll_probes) splits the lanes of different trip counts into its 4-copy loop and 2- and 1-copy remainder blocks (the same loop's second pass, 4 or 3 trips a lane): 1.969 lines and 4.875 sectors per request without the grid, 1.408 and 2.664 measured; the simulation with the launch matches",
 ("avgpool3s2_c64","blind10.cu:541","ld global"): "static only: " + "the border conditions need H, W, OH, OW: 4 lines and 16 sectors without the grid, 3.952 and 15.810 measured (the simulated row differs only by the sampled grid)",
 ("avgpool3s2_c40","blind10.cu:541","ld global"): "static only: " + "the border conditions and the 80-byte pixels need the launch: 32 lines (addresses unknown) without the grid, 8.631 measured (the simulated row differs only by the sampled grid)",
}

out = ["# tests/hw/blind10: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
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
