#!/usr/bin/env python3
"""Write tests/hw/blind14/known.txt: every row of the blind14 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind14.snap) that is `NO` or
`KNOWN`, with its measured reason from the tables below (README.md groups
them by cause). Copied from tests/hw/blind13/known_reasons.py (same table
reading and output); the reasons are this batch's, read off the SASS
(raw/sass.tgz) and the per-instruction counters (measured_sass.json.gz).
Each reason of a simulated or static row ends with the row's figures as the
snapshot gives them (model / measured). Fails to list a row (prints it under
`missing`) when no reason is written for it.

  python3 tests/hw/blind14/known_reasons.py tests/snapshots/hw_agreement__hw_agreement_blind14.snap tests/hw/blind14/known.txt
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
WHERE = ("ptxas turns the select of two loads into a predicated load: `out = c ? va : vb` is, in the PTX, two "
         "unconditional `ld.global.nc.f32` and a `selp` on the loaded uint8 condition; ptxas loads b unconditionally and "
         "a under the condition (`@P0 LDG.E.CONSTANT` at 0x03c0, 0x0720, 0x0a60, 0x0db0, one a trip of the unrolled 4), "
         "so a warp's a-load runs with the lanes whose loaded `cond` is non-zero: 16.1 lanes a request measured (the "
         "0 / 1 mask, 153,580 of 307,200 lanes), a sector each (the permuted view's 12,800-byte lane stride); the launch "
         "simulation runs the a-load under the select's predicate (`memops::select_guard`, tests/hw/ifconv stop 33: "
         "15.9 lanes a request, as measured), the static analysis costs the PTX's unconditional load, 32 lanes and 32 "
         "sectors")
CATD = ("by-value struct indexed by blockIdx.y through a local copy: nvcc copies `CatMeta3` into a 64-byte local depot "
        "(`st.local` x 8, SASS `STL.64` x 8) and reads `nElements`, `dimSize`, `offset` and `input` at `[depot + 4 * "
        "%ctaid.y]` (`ld.local`, SASS `LDL`); the model joins the three inputs' values into one opaque uniform value "
        "(`depot_value`: constant only when they are equal), so the loop bound, the column division and the source "
        "pointer are unknown: no totals (a branch on the loaded bound, PTX line 699), the store's address `unknown`; "
        "and the source pointer, read from local memory, is used by a generic `ld.f32` (no `cvta.to.global`): the "
        "model lists it as `ld generic`, ncu as `ld global` (SASS `LD.E`, 4,532 requests, 4.0 sectors)")
LOCAL = ("local memory of the by-value struct's copy (`STL.64` / `LDL` of `CatMeta3`'s depot: 1,536 requests each, "
         "one a warp), which the agreement does not compare (the model's local figures describe the bytes touched, "
         "not L1 traffic); the cause of the kernel's other rows: " + CATD)
THRUST = ("request count, ptxas kept the branch the model if-converts: the partial tile's two guarded blocks "
          "`if (i < n) { t = table[i % 1000]; out[i] = 0.5 * t + i; }` are forward `@%p bra` over a global load, "
          "`cvt.f64.f32`, `cvt.rn.f64.s64`, `fma.rn.f64` and an 8-byte store; the `ifconvert` rule (a global load, "
          "another guarded block after it) predicates the first, so the model counts all 8 warps of the last block "
          "(5 with no lane); ptxas branches (`BSSY B0`, `@P0 BRA` at 0x0380 over `LDG.E.CONSTANT`, `I2F.F64.S64`, "
          "`F2F.F64.F32`, `DFMA`, `STG.E.64`), so only the 3 warps with one of the 67 items issue them: 3 requests "
          "measured (the model's 8 include 5 without sectors, so its per-request means are lower too)")
SPMM_LD = ("addresses and lanes on loaded data: the staging `if (k < end) { scol[t] = colind[k]; sval[t] = val[k]; }` "
           "runs over the row's loaded extent (rows of 0..99 entries starting at any alignment, chunks of 64) and ptxas "
           "predicates it (`@!P0 LDG` / `@!P0 STS` at 0x0180..0x0240: the block's second warp issues them with no "
           "lane when the chunk holds 32 entries or fewer): 18.3 lanes, 1.31 lines and 2.95 sectors a request measured "
           "(10,972 requests); the model takes a full warp at an unknown alignment (1.969 lines, 4.875 sectors) and, "
           "for the shared stores, 1 wavefront, where 0.759 is measured (the lane-less requests)")
SPMM_LDS = ("ptxas unrolls a loop on a loaded bound and merges its broadcast reads: `for (j = 0; j < cnt; ++j) acc += "
            "sval[j] * B[scol[j] * 64 + t]` (cnt = min(64, end - k0), loaded) is unrolled (by 16, then 8 and 4 for the rest) with "
            "`LDS.128` reads of 4 `scol` / 4 `sval` entries at a uniform address (0x03f0..0x0e20): 2 wavefronts a "
            "request measured (a 16-byte broadcast), 207,076 requests; the model keeps the 4-byte `ld.shared` of each "
            "trip (1 wavefront, bounds 0..1) and counts no requests inside the loop")
SOFTB = ("request count from a sample of blocks: the scalar tail `for (t = nvec * 4 + tid; t < size; ...)` runs only "
         "in the even rows (rows of 2,050 floats are 8,200 bytes, so odd rows start 8 bytes past 16-byte alignment: "
         "shift 2, size 2,052, no tail; even rows: 2 tail floats, one request) and the head only in the odd rows; the "
         "launch simulation runs 731 of the 1,000 blocks (its budget, `warpscope report` prints it) and scales: 497 "
         "or 503 requests estimated, 500 measured; the per-request figures agree")
R = {
 ("aten_where_offsetcalc", "blind14.cu:70", "ld global"): WHERE,
 ("aten_cat3_dim1", "blind14.cu:123", "st local"): LOCAL,
 ("aten_cat3_dim1", "blind14.cu:126", "ld local"): LOCAL,
 ("aten_cat3_dim1", "blind14.cu:127", "ld local"): LOCAL,
 ("aten_cat3_dim1", "blind14.cu:128", "ld local"): LOCAL,
 ("aten_cat3_dim1", "blind14.cu:129", "ld local"): LOCAL,
 ("aten_cat3_dim1", "blind14.cu:133", "ld global"): CATD,
 ("aten_cat3_dim1", "blind14.cu:134", "st global"): CATD,
 ("thrust_counting_transform", "blind14.cu:320", "ld global"): THRUST,
 ("thrust_counting_transform", "blind14.cu:321", "st global"): THRUST,
 ("csr_spmm_shared_rows", "blind14.cu:380", "ld global"): SPMM_LD,
 ("csr_spmm_shared_rows", "blind14.cu:380", "st shared"): SPMM_LD,
 ("csr_spmm_shared_rows", "blind14.cu:381", "ld global"): SPMM_LD,
 ("csr_spmm_shared_rows", "blind14.cu:381", "st shared"): SPMM_LD,
 ("csr_spmm_shared_rows", "blind14.cu:386", "ld shared"): SPMM_LDS,
 ("aten_softmax_block_ilp", "blind14.cu:460", "ld global"): SOFTB,
 ("aten_softmax_block_ilp", "blind14.cu:468", "ld global"): SOFTB,
 ("aten_softmax_block_ilp", "blind14.cu:471", "ld global"): SOFTB,
 ("aten_softmax_block_ilp", "blind14.cu:471", "st global"): SOFTB,
 ("aten_softmax_block_ilp", "blind14.cu:481", "ld global"): SOFTB,
 ("aten_softmax_block_ilp", "blind14.cu:481", "st global"): SOFTB,
}
LOOP = "no totals: a loop exits on loaded data, so the accesses inside it are not counted (%s)"
T = {
 "aten_where_offsetcalc": ("load sectors, the predicated a-load (" + WHERE + "): 355,200 load sectors modelled, 201,580 "
                           "measured; requests and stores agree"),
 "aten_cat3_dim1": "no totals: " + CATD,
 "aten_embedding_bwd_sorted": LOOP % "the run loop between loaded run offsets",
 "faiss_warp_select_k32": LOOP % "the insertion loop `while (want)` over a ballot of the loaded candidates below the queue's last",
 "csr_spmm_shared_rows": LOOP % "the chunk loop and the inner loop between loaded row pointers",
 "aten_softmax_block_ilp": ("kernel totals estimated from a sample of blocks: " + SOFTB + " (795,051 load and 265,017 "
                            "store sectors estimated, 795,000 and 265,000 measured)"),
}
C = {}
WHY = {
 "aten_vec4_sigmoid": "the scalar fallback runs only in the last, partial tile (65 of 512 elements: 1,000,001 = 1,953 x 512 + 65), which needs N and the grid",
 "nms_bitmask": "the last row and column blocks hold 40 of 64 boxes (1,000 = 15 x 64 + 40) and the diagonal blocks start the pair loop at threadIdx.x + 1: n and blockIdx",
 "cub_reduce_evenshare": "the last block's partial tile (2,000,003 - 1,953 x 1,024 = 131 ints by guarded scalars) needs n and the grid",
 "cub_reduce_single_tile": "the 245 partials (the last warp 21 lanes) need n",
 "faiss_warp_select_k32": "rows of 1,000 floats (the last chunk of 32 holds 8) need len",
 "aten_reduce_outer_2d": "the ragged last column block (500 float2 columns in 16 x 32 threads) needs cols and the grid",
 "grid_sample_bilinear": "the output index `((n * C + c) * Ho + h) * Wo + w`, with h, w and n from `index % Wo`, `index / Wo % Ho` and `index / (Ho * Wo)`, divides by the parameters Ho and Wo: unknown without them",
 "pixel_shuffle_r2": "the ragged x edge (80 output columns over 3 x 32 threads) needs Win and the grid",
 "aten_softmax_block_ilp": "the row's alignment (row x 8,200 bytes: shift 0 or 2) and the head / tail sizes need cols and blockIdx",
 "thrust_counting_transform": "`table[i % 1000]` with a 64-bit i (`rem.s64` by a constant: the static domain gives `unknown` without the grid's range of i) and the 67-item tail need n and the grid",
 "roi_align_fwd": "the corner addresses come from the loaded roi through float arithmetic; without the launch the static analysis gives them `unknown` (1..32, no prediction), the simulation `random` with bounds, which holds",
}
STATIC = {
 ("aten_where_offsetcalc", "blind14.cu:70", "ld global"): "static only, besides the predicated load (" + WHERE + "): without the launch the OffsetCalculator's IntDivider magic numbers and byte strides (struct fields) are unknown, so the address is `unknown`",
 ("aten_where_offsetcalc", "blind14.cu:71", "ld global"): "static only: without the launch the OffsetCalculator's IntDivider magic numbers and byte strides (struct fields at bytes 4..63 of the by-value parameter) are unknown, so the broadcast input's address is `unknown` (1..32, no prediction); with them the simulation gives 1 line, 4 sectors, as measured",
 ("cub_reduce_evenshare", "blind14.cu:257", "ld shared"): "static only: the block reduction's second level `if (threadIdx.x < 8) t = sh[threadIdx.x]` (8-byte reads) is predicated by ptxas, so all 8 warps of the block issue it and only warp 0 has lanes (8 lanes, 1 wavefront): 0.125 wavefronts a request; without the block shape the static analysis costs a warp with lanes (2 wavefronts); the simulation gives 0.125",
 ("cub_reduce_single_tile", "blind14.cu:257", "ld shared"): "static only: the block reduction's second level `if (threadIdx.x < 8) t = sh[threadIdx.x]` (8-byte reads) is predicated by ptxas, so all 8 warps of the block issue it and only warp 0 has lanes (8 lanes, 1 wavefront): 0.125 wavefronts a request; without the block shape the static analysis costs a warp with lanes (2 wavefronts); the simulation gives 0.125",
 ("aten_softmax_block_ilp", "blind14.cu:454", "ld global"): "static only: the alignment head `if (shift > 0 && tid >= shift && tid < 4)` (shift from the row's address) is predicated by ptxas (`@!P1 LDG` at 0x01b0: all 8 warps issue it, lanes 2 and 3 of warp 0 in the odd rows only: 0.062 lines a request); without cols and blockIdx the static analysis costs a full warp at an unknown alignment; the simulation matches",
 ("aten_softmax_block_ilp", "blind14.cu:463", "ld global"): "static only: the alignment head `if (shift > 0 && tid >= shift && tid < 4)` (shift from the row's address) is predicated by ptxas (`@!P1 LDG` at 0x1910: all 8 warps issue it, lanes 2 and 3 of warp 0 in the odd rows only: 0.062 lines a request); without cols and blockIdx the static analysis costs a full warp at an unknown alignment; the simulation matches",
}
for k in list(R):
    if k[0] == "aten_softmax_block_ilp":
        STATIC[k] = ("static only: the scalar tail (2 floats, one request, in the even rows) needs cols and blockIdx (the rows' "
                     "alignment); without them a full warp at an unknown alignment is costed (the simulated row differs "
                     "only by its sampled request count)")
    if k[0] == "thrust_counting_transform":
        STATIC[k] = (THRUST + "; and, static only, " + WHY["thrust_counting_transform"])
    if k[0] == "csr_spmm_shared_rows":
        STATIC[k] = R[k] + " (the static row differs for the same reason)"
    if k[0] == "aten_cat3_dim1":
        STATIC[k] = R[k] + " (the static row differs for the same reason)"

def figs(r, sim):
    if sim:
        return " [model / measured: requests %s, lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7], r[8])
    return " [model / measured: lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7])

out = ["# tests/hw/blind14: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
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
    if key in STATIC: reason = STATIC[key] + figs(r, False)
    elif key in R: reason = R[key] + " (the static row differs for the same reason)" + figs(r, False)
    elif r[0] in WHY:
        reason = "static only: %s: %s lines and %s per request without the grid, %s and %s measured; the simulation with the launch matches" % (WHY[r[0]], r[4] or "-", r[6] or "-", r[5] or "-", r[7] or "-")
    else: miss.append(("static",) + key); continue
    out.append("%s@static|%s|%s|%s|%s" % (r[0], r[1], op, space, reason))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print("missing:", miss)
