#!/usr/bin/env python3
"""Write tests/hw/blind13/known.txt: every row of the blind13 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind13.snap) that is `NO` or
`KNOWN`, with its measured reason from the tables below (README.md groups
them by cause). Copied from tests/hw/blind11/known_reasons.py (same table
reading and output); the reasons are this batch's. Each reason of a simulated
or static row ends with the row's figures as the snapshot gives them (model /
measured). Fails to list a row (prints it under `missing`) when no reason is
written for it.

  python3 tests/hw/blind13/known_reasons.py tests/snapshots/hw_agreement__hw_agreement_blind13.snap tests/hw/blind13/known.txt
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
GEMMCP = ("request count, ptxas's if-conversion of a large cp.async block: the main loop's `if (kt + 2 < KT) load_tile(...)` "
          "is a forward `@%p4 bra $L__BB0_9` over straight-line code of 54 PTX instructions with four "
          "`cp.async.cg ... 16` (their address arithmetic included), beyond `ifconvert`'s IF_CONVERT_MAX (20), so the model "
          "keeps the branch and counts the 14 trips of 16 with lanes (4 x 14,336 + the prologue's 8,192 = 65,536); "
          "ptxas predicates the four copies (`@!P0 LDGSTS.E.BYPASS.LTC128B.128` at "
          "0x1960, 0x19c0, 0x19d0, 0x19e0: 16,384 requests each, 458,752 of 524,288 thread instructions with a lane), so "
          "the last two trips issue them with no lane: 73,728 measured; the lines per request (5.333) and sectors (15.194) "
          "are the same totals over the lane-less requests too (lines 393,216 both)")
FLASH = ("line attribution of merged shared loads: the 64 `ld.shared.u32` of a key step (the half2 K and V rows, "
         "read by `__half22float2` inlined from cuda_fp16.h:5122) are merged by ptxas into 16 `LDS.128` (the model "
         "merges them too: the totals, 8,388,608 requests, and 2 wavefronts a request agree); ptxas's line table gives "
         "2 of the K-row `LDS.128` to blind13.cu:234, 2 of the V-row ones to blind13.cu:244 and 12 to "
         "cuda_fp16.h:5122, the model 1, 1 and 14 (524,288 requests for each `LDS.128`)")
WGMMA = ("line attribution of the HGMMAs: the four `wgmma.mma_async` of a K chunk are all at blind13.cu:427 in the PTX "
         "(16,384 warp instructions modelled there, 8 wavefronts each); ptxas's line table gives the first `HGMMA.64x64x16.F32` "
         "(0x0a70, after `WARPGROUP.ARRIVE`) the `wgmma.fence` line 412, the two middle ones 427 and the last (0x0c30, `gsb0`) "
         "line 399 (the accumulator loop): 4,096 / 8,192 / 4,096 measured, 8 wavefronts a request everywhere")
SEG = ("addresses, lanes and trip counts on loaded data: `for (i = b + lane; i < e; i += 32)` between the loaded "
       "segment offsets (lengths 0..299): each segment starts at a data-dependent alignment and its last trip is "
       "partial (2,994,869 elements in 124,141 requests: 24.1 lanes a request, 1.72 lines); the model takes a full "
       "warp at an unknown alignment (1.969 lines, sectors bounds 0..5) and counts no requests inside the loop")
STEN = ("request count, ptxas's if-conversion of the interior block: `if (i > 0 && i + 1 < nx && j > 0 && ... z + 1 < nz)` "
        "is a forward `@%p51 bra $L__BB11_18` over straight-line code of four `ld.shared.f32`, their sum, an `fma` and "
        "the `st.global.f32` (64-bit address arithmetic), no long-latency access (a global load or an atomic) and a cost "
        "over IF_CONVERT_SMALL (8 SASS instructions), so the model keeps the branch and counts only the warps with an interior "
        "lane (126,941 estimated; 127,008 exactly: 131,072 x (126 / 128)^2); ptxas unrolls the z loop by two and "
        "predicates the block (`@!P6 LDS` x 4, `@!P6 STG.E` at 0x0eb0..0x0f80, `@!P4` at 0x1130..0x1230), so every warp "
        "issues them, the edge rows and planes with no lane: 131,072 requests a line (524,288 for the four LDS)")
CGLD = ("request count, ptxas predicated a lone guarded load: `x = i < n ? v[i] : 0` is a forward `@%p1 bra $L__BB17_2` "
        "over one `ld.global.nc.u16` (and its `cvt`), which the model branches around (the rule of stop 30: a lone "
        "scalar global load is branched around), counting the 31,250 warps with a lane; ptxas predicates it "
        "(`@!P0 LDG.E.U16.CONSTANT` at 0x00e0), so the 6 warps of the last block with no element (3,907 x 8 = 31,256 "
        "warps) issue it with no lane: 31,256 measured; per-request figures agree")
R = {
 ("cutlass_gemm_cpasync_swz", "blind13.cu:45", "cp.async global,shared"): GEMMCP,
 ("flash_fwd_cpasync", "blind13.cu:234", "ld shared"): FLASH,
 ("flash_fwd_cpasync", "blind13.cu:244", "ld shared"): FLASH,
 ("flash_fwd_cpasync", "cuda_fp16.h:5122", "ld shared"): FLASH,
 ("wgmma_linear_tile", "blind13.cu:399", "wgmma shared"): WGMMA,
 ("wgmma_linear_tile", "blind13.cu:412", "wgmma shared"): WGMMA,
 ("wgmma_linear_tile", "blind13.cu:427", "wgmma shared"): WGMMA,
 ("segmented_sum_warp", "blind13.cu:619", "ld global"): SEG,
 ("stencil7_3d_halo", "blind13.cu:654", "ld shared"): STEN,
 ("stencil7_3d_halo", "blind13.cu:655", "st global"): STEN,
 ("cg_tile16_scan_u16", "blind13.cu:790", "ld global"): CGLD,
}
LOOP = "no totals: a loop exits on loaded data, so the accesses inside it are not counted (%s)"
T = {
 "paged_kv_decode": LOOP % "the token loop to the request's length from its loaded page count and last-page length",
 "segmented_sum_warp": LOOP % "the segment loop between loaded offsets",
 "embedding_bag_sum": LOOP % "the bag loop between loaded offsets",
 "stencil7_3d_halo": ("kernel totals estimated from a sample of the 3-D grid: the launch simulation runs a sample of the 512 blocks "
                      "(143 in `warpscope report` with the launch's sizes: its budget) and estimates the rest; the edge blocks (blockIdx.x 0 and 7 for the x halo, blockIdx.y 0 for "
                      "`j > 0`, blockIdx.z 0 and 3 for the z neighbours and the interior test) are not in proportion: 398,594 "
                      "load requests and 126,941 store requests estimated, 397,312 and 127,008 measured (exact counts of the "
                      "warps with a lane: e.g. 131,072 x (126 / 128)^2 stores); the per-request figures agree"),
}
C = {}
WHY = {
 "stencil7_3d_halo": "the edge tests of the blocks (`z0 > 0`, `i > 0` for the x halo at blockIdx.x 0, `j > 0`, the last plane) need blockIdx, and the rows of the y halo (`ty == 0`, `ty == 7`: one warp in 8 with lanes, the others issuing the predicated loads and stores with none) need the block shape",
 "half2_axpby_tail": "the 5-half tail (`r = n / 8 * 8 + tid < n`: 5 lanes of one warp, at half 8,388,600) needs n and the grid",
 "float4_scale_unaligned": "the scalar head (`tid < head`, head = 1 from the base's 12-byte misalignment, a launch fact) needs the pointer's alignment",
 "rmsnorm_warp_rows": "the 1,000-float rows (4,000 bytes: 31.25 trips of a warp, rows at 32-byte but not 128-byte alignment) need cols",
}
STATIC = {}

def figs(r, sim):
    if sim:
        return " [model / measured: requests %s, lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7], r[8])
    return " [model / measured: lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7])

out = ["# tests/hw/blind13: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
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
