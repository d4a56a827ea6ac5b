#!/usr/bin/env python3
"""Write tests/hw/blind18/known.txt: every row of the blind18 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind18.snap, or
agreement_before.snap.txt) that is `NO` or `KNOWN`, with its measured reason
from the tables below (README.md groups them by cause). Copied from
tests/hw/blind17/known_reasons.py (same table reading and output); the reasons
are this batch's, each read off the SASS rows of measured_sass*.json.gz, the
PTX and `warpscope report`'s notes. Each reason of a simulated or static row
ends with the row's figures as the snapshot gives them (model / measured).
Fails to list a row (prints it under `missing`) when no reason is written for it.

These tables are the blind comparison's (the model of main at fb9d814).

  python3 tests/hw/blind18/known_reasons.py tests/hw/blind18/agreement_before.snap.txt tests/hw/blind18/known.txt
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
ZERO_LANE = ("[requests counted for an access no lane reaches] requests: the staging loop `for (q = tid; q < 256; q += 128)` "
             "(two trips for every thread) is unrolled by nvcc with a trip-count-mod-4 prologue; its third copy (PTX 1835 / 1849, "
             "`cp.async.cg.shared.global`) is skipped by every lane (`setp.eq.s32 %p11, %r21, 2; @%p11 bra $L__BB5_17`, "
             "%r21 = 2), and the model reports it with 0.00 lanes yet 2,880 requests each: 18,048 = 2 x 384 + 6 x 2,880 where the "
             "GPU runs 12,288 = 2 x 384 + 4 x 2,880 (`LDGSTS.E.BYPASS.128` 0x04c0 / 0x04d0 / 0x1320 / 0x13b0 / 0x14a0 / 0x1550); "
             "per instruction the figures agree (A 8 lines, 24 sectors, 15 wavefronts; B 4, 16, 7), so the row's means differ "
             "only through the phantom requests")
VMERGE = ("[vector merge of unaligned shared scalars] the row pass `s += cs[x][k] * tile[y][k]` (k = 0..7) is eight "
          "`ld.shared.f32` of `tile[y][k]` ([8][9] floats: a 36-byte row pitch, so `tile[y]` is only 4-byte aligned) and of "
          "`cs[x][k]` (a 32-byte pitch); the model merges both groups into 128-bit accesses (PTX 2626 / 2629 / 2640 / 2641: "
          "4 requests a warp, 2 + 8 wavefronts); ptxas merges only `cs` (`LDS.128` 0x0b90 / 0x0be0, 8 wavefronts) and keeps "
          "eight scalar `LDS` of `tile` (0x0b80.., 1 wavefront each): 10 requests a warp, 187,500 in all, 2.4 wavefronts a "
          "request. A merged group must start at a 16-byte-aligned address: y * 36 is not")
SAME_ADDR = ("[one value a loaded address] per-request figures: `x[colind[k] * 4 + c]`, where the 16 lanes of a half-warp load "
             "`colind[k]` at one address (k = beg + lane / 16), so they share one block column: the gather touches two "
             "16-byte pieces a request (measured 1.61..1.82 lines and sectors, `LDG.E.CONSTANT` 0x0310 / 0x1060..0x10b0); "
             "the model draws the loaded column independently for each lane (`random`, 8 lines, 8 sectors). Lanes that "
             "load the same address must get the same value")
HALF_LANES = ("[active lanes on loaded data] per-request figures: `val[k * 16 + e]`, two 64-byte blocks a request; rows with "
              "an odd block count run their last trip with one half-warp (25.8 / 29.2 lanes a request measured, 1.31 / "
              "1.42 lines, 3.23 / 3.65 sectors at 0x02e0 / 0x0fc0..); the model's sampled trips run full warps (1.5 lines, "
              "4 sectors). Inherent in the loaded row pointers")
TPMV_UNROLL = ("[ptxas unroll with a per-lane trip count] requests: the loop `j <= i` runs i + 1 trips per lane (lanes differ "
               "by one); ptxas unrolls it by 16 (`LDG.E.CONSTANT` 0x0530.. : 16 x 4,031) with remainder loops by 4 and 1 "
               "that the lanes reach at their own j (63 and 189 requests, 15.9 lanes, up to 8.1 lines): 65,441 measured, "
               "64,685 modelled")
TPMV_LINE = ("[line attribution of an inlined intrinsic] `__ldg(&x[j])`: of ptxas's 16 unrolled copies, 4 keep line 44 "
             "(`LDG.E.CONSTANT` 0x04e0 / 0x0520 / 0x0600 / 0x06e0: 16,313 requests with the remainders) and 12 are attributed "
             "to sm_32_intrinsics.hpp:134, the body of `__ldg` (0x0730.., 49,128 requests); the model counts all 64,685 at "
             "line 44, the PTX's `.loc`; the same ptxas unroll as line 43 makes up the rest")
FFT = ("[simulation stopped on a computed float branch taken as 'not known'] not counted: the launch simulation stops at "
       "PTX line 4382 (`abs.f32 %f41, %f39; setp.ltu.f32 %p28, %f41, 0f47CE4780; @%p28 bra`), sincosf's test for the "
       "Payne-Hanek slow path on 2 ang of stage ns = 4, with \"a branch depends on a value that is not known\"; %f39 = "
       "`add.f32 %f17, %f17` and %f17 = (float)(ty % 4) * -2 pi / 16 (`cvt.rn.f32.s32`, two `mul.f32`), computed from "
       "%tid.y and constants, and the two identical tests before it (%p8 on %f17 * 0, %p18 on %f17, PTX 4106 / 4238) were "
       "decided; between them lie the slow paths' loops (`ld.global.nc.u32` of `__cudart_i2opi_f`, `st.local` / "
       "`ld.local`); not traced further. Every access of the kernel goes uncounted (the static rows agree except the "
       "ragged last block)")
BUDGET = ("[launch simulation budget: scaled blocks] the simulation ran %s and scaled: %s")
WGMMA = ("[line attribution of HGMMA] the four `wgmma.mma_async` of a K step are at the `tl.dot` line 45 in the PTX, where "
         "the model counts them (4,992 = 4 x 1,248); ptxas's line table gives three `HGMMA.64x128x16.F32` line 45 "
         "(0x1240, 0x13b0, 0x13c0: 3,744) and one line 44 (0x1380, the W load line); the per-request wavefronts (12) agree")
CSE = ("[ptxas merges loads of one address] requests: `tl.load(Scales + row * 64 + k // 64)` gives each thread 16 "
       "elements that fall in two groups of 64; the PTX has 16 `ld.global.b32` from two address registers (8 x [%rd3], "
       "8 x [%rd4], PTX 192..252, no store between), which the model counts (16 a warp: 262,144); ptxas keeps one load a "
       "distinct address (`LDG.E` 0x0320 / 0x0330: 2 a warp, 32,768). Loads of the same address with no intervening "
       "store or barrier should count once")
LOOP_TOT = "[loop on loaded data] no totals: a loop exits on loaded data, so the accesses inside it are not counted (%s)"

R = {}
def put(launch, lines, opspace, reason):
    for l in lines:
        R[(launch, l, opspace)] = reason
put("bsr_spmv_4x4", ["blind18.cu:22"], "ld global", HALF_LANES)
put("bsr_spmv_4x4", ["blind18.cu:23"], "ld global", SAME_ADDR)
put("tpmv_packed_lower", ["blind18.cu:43"], "ld global", TPMV_UNROLL)
put("tpmv_packed_lower", ["blind18.cu:44", "sm_32_intrinsics.hpp:134"], "ld global", TPMV_LINE)
put("tf32_mma_gemm", ["blind18.cu:123"], "cp.async global,shared", ZERO_LANE)
put("dct8x8_jpeg", ["blind18.cu:205"], "ld shared", VMERGE)
for l, o in (("blind18.cu:331", "ld global"), ("blind18.cu:331", "st shared"), ("blind18.cu:338", "ld shared"),
             ("blind18.cu:350", "st shared"), ("blind18.cu:354", "ld shared"), ("blind18.cu:354", "st global")):
    put("fft64_radix4_cols", [l], o, FFT)
TR = BUDGET % ("2,956 of its 3,969 blocks", "the grid is 63 x 63 and the 1,953 blocks with by > bx return at once, so the "
               "extrapolation misjudges the working blocks and the ragged edge ones: 63,520 / 64,512 requests modelled for "
               "62,496 / 63,504 measured, per-request figures mixed accordingly (1.476 / 1.500 lines at line 438)")
for l, o in (("blind18.cu:432", "ld global"), ("blind18.cu:432", "st shared"), ("blind18.cu:438", "ld shared"),
             ("blind18.cu:438", "st global"), ("blind18.cu:441", "ld shared"), ("blind18.cu:441", "st global")):
    put("transpose_inplace_sq", [l], o, TR)
put("t18_linear_abt", ["blind18_triton.py:44", "blind18_triton.py:45"], "wgmma shared", WGMMA)
put("t18_codebook_dequant_gather", ["blind18_triton.py:100"], "ld global", CSE)

NOLANE = ("the kernel-level request counter leaves out warp instructions with no active lane, which the model counts")
T = {
 "bsr_spmv_4x4": LOOP_TOT % "the blocks of a row between the loaded row pointers",
 "tpmv_packed_lower": "[ptxas unroll with a per-lane trip count] loads 129,370 / 130,882 requests: " + TPMV_UNROLL,
 "laswp_colmajor": ("[requests with no active lane] loads 4,800 / 4,200 requests: ptxas if-converts `if (p != k)` "
                    "(`@P1 LDG.E` 0x0550..), so the 12 trips with ipiv[k] = k (k % 5 == 4) issue the loads and stores with "
                    "every lane off; " + NOLANE + " (2 x 12 x 25 = 600 each way); the sectors (78,272 / 84,800 loads) are "
                    "the model's estimate for a guard on a loaded pivot, inside its bounds 1,600..206,400"),
 "tf32_mma_gemm": ("[cp.async sectors: source and kernel-level counters differ] load requests agree (12,288: the totals "
                   "leave out the phantom copies of the row); sectors 245,760 modelled, which is the source counters' "
                   "per-instruction sum (the A copies `LDGSTS.E.BYPASS.128` 24 sectors a request, 8 rows of 64 aligned bytes; "
                   "the B copies 16), while the kernel-level l1tex__t_sectors counter gives 221,184 (18 a request on average, "
                   "as if the A copies were 20); not traced further"),
 "stereo_sad_disparity": BUDGET % ("68 of 1,200 blocks", "load sectors 142,726 / 143,196 (requests equal): the clamped "
                                   "edge tiles are under-represented"),
 "resize_bicubic_nchw": BUDGET % ("1,445 of 11,628 blocks", "load sectors 5,507,544 / 5,508,000 (requests equal)"),
 "fft64_radix4_cols": FFT,
 "transpose_inplace_sq": TR,
 "kron_2d": BUDGET % ("5,514 of 8,700 blocks", "load sectors 450,936 / 450,940 (requests equal)"),
 "roll2d_nchw": BUDGET % ("3,640 of 5,850 blocks", "load sectors 253,437 / 253,440 (requests equal)"),
 "t18_ell_spmv": ("[loaded columns] loads 75,018 / 74,745 requests: the x gather is masked by `c >= 0` (the loaded -1 "
                  "padding) and " + NOLANE + " (273); sectors 2,000,524 / 1,151,519: the model draws the loaded columns "
                  "independently (`random`, 32 lines a request) where they form a band (row +- 500: 8.8 lines, 15.0 sectors "
                  "measured); the measured sum is inside the model's bounds 412,513..2,013,025"),
 "t18_resize_bilinear_nhwc": ("[not traced further] load sectors 981,992 / 982,080 (88 of 982,080; requests and every "
                              "row's figures agree to 0.001): the corners come from float source coordinates "
                              "`(o + 0.5) s - 0.5` truncated to int, so a rounding difference or the extrapolation of "
                              "sampled programs moves a few gathers"),
 "t18_codebook_dequant_gather": "[ptxas merges loads of one address] loads 294,912 / 65,536 requests, 425,984 / 196,608 sectors: " + CSE,
}
C = {}
# static rows (no grid): the reason the static figures differ where the simulation with the launch agrees
WHY = {
 "bsr_spmv_4x4": "the half-warp of the odd last trip is loaded data (the row pointers)",
 "gbmv_band": "the band storage's 24-byte lane stride (lda = kl + ku + 1 = 6) needs kl and ku (`unknown` without them)",
 "laswp_colmajor": "the 4,000-byte lane stride needs lda, and the guard p != k (12 of 64 trips off, issued with no lane) needs the loaded pivots",
 "floyd_warshall_phase3": "the ragged last tiles (1,000 = 31 x 32 + 8) need n and the grid",
 "tf32_mma_gemm": "the static row takes 6 wavefronts for the B copy's first instance where the simulation (and the GPU) give 7",
 "stereo_sad_disparity": "the clamped tile loads (min / max against W - 1, H - 1) need W, H and the block position",
 "resize_bicubic_nchw": "the source taps come from float parameters (the scales) and the clamps from IH, IW; the ragged 520 = 16 x 32 + 8 columns need OW",
 "fft64_radix4_cols": "the ragged last block (8 of 32 columns) needs W",
 "jfa_step": "the in-bounds tests of the k-offset candidates need W, H and k",
 "life_bitpacked": "the 200-byte rows (50 words) and the wrapped neighbours need WW and H, and the ragged 18-word last block",
 "transpose_inplace_sq": "the ragged last tiles (2,000 = 62 x 32 + 16) need n",
 "kron_2d": "the A and B indices r / p, c / q, r % p, c % q need m, n, p, q",
 "roll2d_nchw": "the wrapped source index needs H, W and the shifts",
 "t18_linear_abt": "the 768-byte rows (K = 384) and the ragged M (777 = 12 x 64 + 9) need the strides and M; the static rows also miss the HGMMA line split",
 "t18_resize_bilinear_nhwc": "the corner gathers come from the float scales and H, W, OW",
 "t18_fir_cols_static_range": "the 4,000-byte rows and the ragged last column block (40 of 64) need C, and the edge rows R",
 "t18_bcast_muladd3d": "the broadcast indices x % J, x / J % I need I and J (257, 300)",
 "t18_fused_add_rmsnorm": "the 2,000-byte rows and the mask (1,000 of 1,024) need D, and the reduction scratch's active lanes the block shape",
 "t18_block_ptr_stencil5": "the boundary checks and the 6,000-byte row pitch need R, C and the strides",
 "t18_interp_linear_1d": "the source indices come from the float scale and Lin, Lout",
}
STATIC = {
 ("bsr_spmv_4x4", "blind18.cu:22", "ld global"): "[static only] " + HALF_LANES,
 ("dct8x8_jpeg", "blind18.cu:205", "ld shared"): VMERGE,
 ("tf32_mma_gemm", "blind18.cu:123", "cp.async global,shared"): "[static only] " + WHY["tf32_mma_gemm"],
 ("tpmv_packed_lower", "sm_32_intrinsics.hpp:134", "ld global"): TPMV_LINE,
 ("t18_linear_abt", "blind18_triton.py:44", "wgmma shared"): WGMMA,
}
for k in (("fft64_radix4_cols", "blind18.cu:331", "ld global"), ("fft64_radix4_cols", "blind18.cu:354", "st global"),
          ("transpose_inplace_sq", "blind18.cu:432", "ld global"), ("transpose_inplace_sq", "blind18.cu:441", "st global")):
    STATIC[k] = "[static only] " + WHY[k[0]]
def figs(r, sim):
    if not r[4] and not r[5]:
        return ""
    if sim:
        return " [model / measured: requests %s, lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7], r[8])
    return " [model / measured: lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7])

out = ["# tests/hw/blind18: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
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
