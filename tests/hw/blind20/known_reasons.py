#!/usr/bin/env python3
"""Write tests/hw/blind20/known.txt: every row of the blind20 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind20.snap, or
agreement_before.snap.txt) that is `NO` or `KNOWN`, with its measured reason
from the tables below (README.md groups them by cause). Copied from
tests/hw/blind19/known_reasons.py (same table reading and output); the reasons
are this batch's, each read off the SASS rows of measured_sass*.json.gz, the
PTX and `warpscope report`'s notes. Each reason of a simulated or static row
ends with the row's figures as the snapshot gives them (model / measured).
Fails to list a row (prints it under `missing`) when no reason is written for it.

These tables are the blind comparison's (the model of main at 04c58bb).

  python3 tests/hw/blind20/known_reasons.py tests/hw/blind20/agreement_before.snap.txt tests/hw/blind20/known.txt
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
PWM = GUARD % ("`if (m)` with m = __ballot_sync(score > 14): only 1,480 of 62,500 warps hold a hit (the text is random "
               "DNA with 1,485 planted motifs), and in each one lane (the leader's `ATOMG.E.ADD` 0x0b60, the hit's "
               "`STG.E` 0x0c60: 1.00 lane, 1 line a request)")
ZONE = GUARD % ("the block-uniform zone-map test `z.y < lo || z.x > hi` on the loaded (min, max) of the segment: 736 of "
                "2,048 segments can hold a key in [10,000, 25,000], so 5,888 warps run the scan (the model: all 16,384)")
ZONE104 = ZONE + "; inside, `amount[row]` is guarded per lane by the key test (31.85 lanes: 1.997 lines a request)"
ZONE113 = ZONE + "; `atomicAdd(&s_cnt, c)` is `REDUX.SUM` + one lane's `ATOMS.ADD` (0x0850), 5,886 requests (2 warps found no match)"
BGMV = GUARD % ("`if (a < 0)` on the token's loaded adapter id is warp-uniform: 1,640 of 8,192 warps (20 percent, -1) store "
                "16 zeros (0x12b0) and return, the other 6,552 load x and A and store the result (0x1270); the model "
                "runs both paths for every warp (8,192 requests on each)")
DICT141 = GUARD % ("the flush `if (v) atomicAdd(&hist[b], v)` skips bins the block did not see: the codes are skewed "
                   "(1,000 u^3) so high bins are often empty, 21.86 lanes a request and 3 of 65,536 warp requests "
                   "skipped whole (`REDG.E.ADD` 0x0970, 3.903 sectors)")
SPEC = GUARD % ("`wv = n < K ? max(p_t - p_d, 0) : p_t` with n the number of accepted drafts (from loaded probabilities): "
                "ptxas if-converts the warp-uniform choice, so the `p_draft` loads (`@!P1 LDG.E.CONSTANT` 0x05c0.. and "
                "in the scan loop) issue in every warp with no lane where all 4 drafts were accepted (15.3 percent of "
                "requests): 0.925 lines a request, the model 1.000")
ORP = ("[a lane predicate OR'ed with a loaded one loses its known lanes] `if ((threadIdx.x & 31) == 0 && c)` / "
       "`if (threadIdx.x == 0 && s_cnt)` compile to `or.pred` of a lane test and a test of loaded data, then `@p bra`; "
       "the launch simulation takes the whole predicate as unknown in every lane, so lanes whose lane test already "
       "decides the way (31 of 32, or 255 of 256) count on the guarded path too (checked on a two-line probe: "
       "`(tid & 31) == 0 && a[i]` gives 32 lanes). %s")
Z112 = ORP % ("Here `atomicAdd(&s_sum, acc)` (u64, shared) is costed for 32 lanes at one word, the emulation's "
              "compare-and-swap twice that: 64 wavefronts; the GPU runs it for lane 0 alone: `LDS.64` 0x0750 (1 "
              "wavefront) and `ATOMS.CAST.SPIN.64` 0x0780 (2), and the loop repeats while the 8 warps of the block "
              "race on the word: 23,781 passes for 5,886 warps (4.04 a warp, the model counts one pass). The request "
              "count also has the zone-map guard (group 1)")
ZRED = ORP % ("Here the block's flush `atomicAdd(total, s_sum)` / `atomicAdd(count, s_cnt)` under `threadIdx.x == 0 && "
              "s_cnt` is counted for all 8 warps of a block (16,384 requests); the GPU issues it from warp 0 only, "
              "and only in the 736 blocks the zone map lets through (`REDG.E.ADD.64` 0x09b0, `REDG.E.ADD` 0x09c0: "
              "736 requests, 1 lane)")
CASLD = ("[64-bit shared atomicAdd: the emulation's load] the `LDS.64` 0x0750 that reads the old value of the "
         "compare-and-swap loop of `atom.shared.add.u64` has no PTX access of its own (the model's caveat "
         "EmulatedSharedAtomic says so): 23,781 requests, one a pass of the retry loop")
MERGE = ("[shared loads merged across a guard on loaded data] the model merges `ld.shared.u32 [s_cnt]` (PTX 1155, line "
         "116) with `ld.shared.u64 [s_sum]` (PTX 1161, line 117) into one `LDS.128` (2 wavefronts a request, line "
         "117 left with no request), but the second load is in the block `if (threadIdx.x == 0 && s_cnt)` that "
         "branches on the first one's value; ptxas keeps them apart: `LDS` 0x08b0 (all warps of the passing blocks, 1 "
         "wavefront) and `LDS.64` 0x08f0 (warp 0 of those blocks, 736 requests, 1 wavefront)")
Z116 = MERGE + "; the request count also has the zone-map guard (group 1)"
ATOMS_RAND = ("[shared atomics at loaded addresses: no wavefront estimate] `atomicAdd(&sh[c], popc(peers))` by the "
              "leader of each `__match_any_sync` group (`ATOMS.ADD` 0x02a0.., 28.45 lanes a request, one a distinct "
              "code) at a loaded code in [0, 1,000): the model gives the native form's bounds (0..32) but no "
              "expected wavefronts for a native shared atomic at a random address; the GPU's 3.16 a request is the "
              "expected largest number of distinct words in one bank (as the aggregated `ATOMS.POPC.INC` form is "
              "already estimated, blind `histogram_bytes`)")
PRED = ("[ptxas's choice between predication and a branch] %s")
UP = PRED % ("`if (j > 0) { vs = v[..]; fs = vs * (vs > 0 ? q[j - 1][i] : q[j][i]); }` is a real branch in the SASS "
             "(`@!P1 BRA` 0x0470 around `LDG.E.CONSTANT` 0x04c0 and 0x0580), so the 32 warps of row 0 skip both loads "
             "(32,736 requests), while the similar `if (j + 1 < NY)` block is if-converted (`@!P0 LDG` 0x0240 / "
             "0x03f0: 32,768 requests, 32 with no lane); the model if-converts both (32,768 for line 256 / 257)")
UP257 = UP + (". Per request, line 257's address is a per-lane select between two coalesced rows on the sign of the "
               "loaded v (`SEL` 0x0540): the model takes it as `random` (20.65 lines, bounds 1..32), the GPU touches "
               "1.031 lines (only the warp at column 600 splits)")
EMA = PRED % ("the 16 masked stores of a thread are predicated `STG.E`, but ptxas ends the kernel with `@P6 EXIT` "
              "(0x0ec0) and an unguarded last `STG.E` (0x0ed0), so the 53 warps whose lanes all fail the last store's "
              "mask (the tails of the short tensors) skip it: 2,595 requests there, 2,648 for the others (42,315 in "
              "all); the model keeps every store predicated (42,368). Per request the figures lie in the model's "
              "bounds (the tensors' addresses come from loaded pointers, so the model's figures are for unknown "
              "alignment: 1.969 lines, measured 0.988)")
TOPK = PRED % ("the cross-warp step of `tl.argmax` (Triton's reduction scratch) reads a value and an index a warp, "
               "`@p ld.shared` twice under one predicate in the PTX; ptxas branches around the pair (`LDS` 0x0900 / "
               "0x0910 .. 0x41a0 / 0x41b0: 4,096 requests each, warp 0's 4 lanes) instead of predicating them in all "
               "4 warps, as it does for `tl.max`'s single load (line 191: 16,384 requests, matched): 184,320 "
               "requests at 1.000 wavefront, the model 380,928 at 0.484")
ATTR = ("[line attribution of inlined atomics] ptxas's line table gives %s; the model puts every copy at the call "
        "line, where its per-request figures agree")
KMER = ATTR % ("3 of the 16 `REDG.E.ADD` copies of the unrolled k-mer loop (0x0770, 0x1830, 0x1850: 46,884 requests) "
               "device_atomic_functions.hpp:112 (the `atomicAdd` body) and 13 (203,164) line 45: 250,048 in all, as modelled")
VIS = ATTR % ("35 of the 49 `REDG.E.ADD.F32x2` (the float2 `atomicAdd`) sm_90_rt.hpp:214 (218,750 requests) and 14 "
              "(87,500) line 282: 306,250 in all, as modelled")
KV = ("[a loop-invariant shared load after ptxas's unroll] `float4 qv = qs[lane]` in the token loop (which breaks at "
      "s >= seqlen) is in the loop in the PTX; ptxas unrolls the loop by 2 and issues one `LDS.128` (0x0360) for both "
      "copies (no shared store between): 64,000 requests, one every second trip; the model issues it every trip "
      "(128,000). The per-request wavefronts (4) agree")
EMB = ("[an unrolled loop's predicated-off copy] ptxas unrolls the bag loop (int64 bounds from loaded offsets) by 4 "
       "and adds a single-trip copy guarded `@!P0` (0x01a0 / 0x0230 / 0x0240) that no lane ever runs: 39,004 "
       "requests (once a warp with a non-empty bag) with no lane and no sectors at line 44, which lowers the line's "
       "average to 0.954 lines, 3.815 sectors; the model's trips carry 32 lanes (1.000, 4.000)")
ISING = ("[table values: spins +-1] `boltz[(de + 4) >> 1]` with de = s nb from loaded int8 spins: the spins are +1 or "
         "-1, so the index takes 5 values in 5 consecutive words (5 banks) and every `LDS` (0x0540) is one wavefront; "
         "the model knows only that the bytes are int8 and draws the index over their product's range (3.545). "
         "Inherent in the data")
BUDGET = "[launch simulation budget: scaled blocks] %s"
NOTOT = "[loop on loaded data] no totals: a loop exits on loaded data, so the accesses inside it are not counted (%s)"

R = {}
def put(launch, lines, opspace, reason):
    for l in lines:
        R[(launch, l, opspace)] = reason
put("kmer_countmin_2bit", ["blind20.cu:45", "device_atomic_functions.hpp:112"], "red global", KMER)
put("pwm_scan_both_strands", ["blind20.cu:81"], "st global", PWM)
put("pwm_scan_both_strands", ["device_atomic_functions.hpp:107"], "atom global", PWM)
put("zonemap_filter_sum", ["blind20.cu:97"], "st shared", ZONE)
put("zonemap_filter_sum", ["blind20.cu:103"], "ld global", ZONE)
put("zonemap_filter_sum", ["blind20.cu:104"], "ld global", ZONE104)
put("zonemap_filter_sum", ["blind20.cu:112"], "atom shared", Z112)
put("zonemap_filter_sum", ["blind20.cu:112"], "ld shared", CASLD)
put("zonemap_filter_sum", ["blind20.cu:113"], "atom shared", ZONE113)
put("zonemap_filter_sum", ["blind20.cu:116"], "ld shared", Z116)
put("zonemap_filter_sum", ["blind20.cu:117"], "ld shared", MERGE)
put("zonemap_filter_sum", ["device_atomic_functions.hpp:112", "device_atomic_functions.hpp:226"], "red global", ZRED)
put("dict_code_hist_match_any", ["blind20.cu:136"], "atom shared", ATOMS_RAND)
put("dict_code_hist_match_any", ["blind20.cu:141"], "red global", DICT141)
put("upwind_flux_2d", ["blind20.cu:256"], "ld global", UP)
put("upwind_flux_2d", ["blind20.cu:257"], "ld global", UP257)
put("vis_gridding_w7", ["blind20.cu:282", "sm_90_rt.hpp:214"], "red global", VIS)
put("bgmv_lora_shrink", ["blind20.cu:301", "blind20.cu:307", "blind20.cu:314", "blind20.cu:321"], "ld global", BGMV)
put("bgmv_lora_shrink", ["blind20.cu:301", "blind20.cu:321"], "st global", BGMV)
put("spec_decode_accept", ["blind20.cu:378", "blind20.cu:388"], "ld global", SPEC)
put("int8_kv_dequant_scores", ["blind20.cu:420"], "ld shared", KV)
put("ising_checkerboard", ["blind20.cu:511"], "ld shared", ISING)
put("t20_embedding_bag_offsets", ["blind20_triton.py:44"], "ld global", EMB)
put("t20_multi_tensor_ema", ["blind20_triton.py:105"], "st global", EMA)
put("t20_topk_iterative_max", ["standard.py:181"], "ld shared", TOPK)

T = {
 "pwm_scan_both_strands": PWM + "; stores 125,000 / 63,980 requests, atomics 62,500 / 1,480",
 "zonemap_filter_sum": ZONE + "; and the flush's atomics: " + ZRED,
 "dict_code_hist_match_any": DICT141 + "; red requests 65,536 / 65,533, sectors 256,000 / 255,777",
 "polyphase_resample_147_160": BUDGET % ("the simulation ran 1,589 of 7,178 blocks and scaled: load sectors 12,143,698 / "
                                         "12,143,730 (the guards ix - k >= 0 of the first outputs sit in block 0); "
                                         "requests equal, every row agrees"),
 "bgmv_lora_shrink": BGMV + "; loads 1,122,304 / 899,264, stores 16,384 / 8,192",
 "spec_decode_accept": NOTOT % "the scan over the vocabulary breaks at the first chunk past the loaded threshold",
 "t20_embedding_bag_offsets": NOTOT % "the entries of a bag between loaded int64 offsets",
 "t20_multi_tensor_ema": ("[requests with no active lane] loads 97,976 / 96,890 and stores 42,368 / 41,825 requests: "
                          "the chunks at the tails of short tensors issue loads and stores with every lane masked "
                          "(1,086 and 490 warp requests); the kernel-level request counter leaves them out, the model "
                          "counts them (and 53 last stores that ptxas skips by `@P6 EXIT`, group 3); load sectors "
                          "426,328 / 347,800 are for unknown alignment of the loaded tensor pointers, inside the "
                          "model's bounds 13,240..648,760"),
}
C = {}
# static rows (no grid): the reason the static figures differ where the simulation with the launch agrees
WHY = {
 "pwm_scan_both_strands": "`if (threadIdx.x < 64)` is if-converted, so all 8 warps of a 256-thread block issue the matrix load and store and 6 do so with no lane (0.25 lines a request); that needs the block shape",
 "zonemap_filter_sum": "`if (threadIdx.x == 0)` (the shared accumulators' reset) is if-converted in all 8 warps of a 256-thread block, 7 with no lane; that needs the block shape",
 "dict_code_hist_match_any": "the flush loop `b < ncodes` covers 1,000 bins with 256 threads (the last warp of the fourth trip ragged): that needs ncodes",
 "biquad_cascade_channels": "the ragged last block (6,000 = 46 x 128 + 112) needs C",
 "polyphase_resample_147_160": "without the grid the output index o has no range, and the addresses from t / 147 (the magic-number division) stay unresolved (`unknown`: no prediction); with the launch every row agrees",
 "latlon_laplacian_wrap": "the row pitch (nlon = 720: 2,880 bytes, every other row 64 bytes off a line), the wrap-around `i + 1 == nlon` / `i == 0` and the ragged blocks (720 = 22 x 32 + 16, 361 = 45 x 8 + 1) need nlat and nlon",
 "dlrm_dot_interact": "`if (threadIdx.x < 64)` (the dense copy) with 128-thread blocks: warps 2 and 3 issue the if-converted store with no lane; that needs the block shape (and the 1,660-byte output rows' alignment per sample)",
 "spec_decode_accept": "the accepted tokens' store `lane < n` has n from loaded probabilities (1.41 lanes a request) and the draft-row loads are if-converted on n < K (group 1)",
 "int8_kv_dequant_scores": "`if (threadIdx.x < 32)` (q staged as float4) with 128-thread blocks: warps 1..3 issue the if-converted load and store with no lane (1 line, 1 wavefront a request on average); that needs the block shape",
 "bootstrap_mean_shared": "the xorshift32 streams are seeded from the global thread index; without the grid the model has no lane values for them and gives no expected wavefronts (the simulation, with the launch, runs the streams and agrees: 3.506)",
 "point_in_polygon_shared": "`if (threadIdx.x < nv)` with nv = 100 of 256 threads: the polygon staging is if-converted: warps 4..7 issue it with no lane and warp 3 with 4 lanes (0.875 lines a request); that needs nv and the block shape",
 "ising_checkerboard": "the table staging `threadIdx.x < 5 && threadIdx.y == 0` needs the 32 x 8 block shape; the site index x = 2 x2 + ((y + colour) & 1) and the periodic neighbours need colour and L (`unknown` without them)",
 "mc_asian_philox": "thread 0 sums the 8 warp partials with two `LDS.128` (0x0f30, 0x0f40) at one address: 1 wavefront each for its one lane; the static estimate, without the block, gives 2 (the simulated row, with the launch, agrees)",
 "t20_linrec_assoc_scan": "the ragged row (1,000 of a [1,024] block) and the 4,000-byte row pitch need L",
 "t20_softmax_dim1_ncl": "the channel mask (80 of 128 rows), the ragged last column block and the 12,000-byte channel pitch need C and L",
 "t20_multi_tensor_ema": "the tensors' addresses come from loaded pointers (unknown alignment: 1.969 lines) and the masked tails from the loaded sizes",
 "t20_t5_relpos_bias": "the bucket of k - q depends on the tile's q and k offsets (program ids) and on a logarithm; without the grid the gather is `unknown`",
 "t20_swin_shift_window_partition": "the wrapped source rows (y, x mod 56) and the 384-byte pixel pitch need Hh, Ww and C",
 "t20_box_iou_pairwise": "the ragged N and M (3,000 = 46 x 64 + 56, 2,000 = 31 x 64 + 16) need the parameters",
 "t20_topk_iterative_max": "the reduction scratch's active lanes need the block shape, and the row's ragged tail (1,000 of 1,024) V; the scalar stores of the 8 rounds (`tl.store` of a scalar: one lane of 4 warps, 0.25 / 0.276 lines a request) need the block shape too",
}
STATIC = {
 ("zonemap_filter_sum", "blind20.cu:97", "st shared"): "[static only] " + WHY["zonemap_filter_sum"] + " (1.5 wavefronts a request without the grid: the u64 and u32 stores of 8 warps counted as full; 0.125 measured, one lane in one warp of 8)",
 ("dict_code_hist_match_any", "blind20.cu:141", "red global"): "[static only] " + WHY["dict_code_hist_match_any"] + "; and " + DICT141,
}
def figs(r, sim):
    if not r[4] and not r[5]:
        return ""
    if sim:
        return " [model / measured: requests %s, lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7], r[8])
    return " [model / measured: lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7])

out = ["# tests/hw/blind20: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
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
