#!/usr/bin/env python3
"""Write tests/hw/blind8/known.txt: every row of the blind8 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind8.snap) that is `NO` or
`KNOWN`, with its measured reason from the tables below (README.md groups
them by cause). Copied from tests/hw/blind7/known_reasons.py (same table
reading and output); the reasons are this batch's. Fails to list a row
(prints it under `missing`) when no reason is written for it.

  python3 tests/hw/blind8/known_reasons.py tests/snapshots/hw_agreement__hw_agreement_blind8.snap tests/hw/blind8/known.txt
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
        "it ran up to that exit: its accesses have no request count and that trip's per-request figures, with every lane "
        "that may still be in the loop taking part (the model's 32 lanes); the measured requests hold only the lanes still "
        "in it, which only the data decides; measured: %s")
RMS_LINE = ("line attribution: `__bfloat1622float2(p[j])` / `__floats2bfloat162_rn` are inlined from cuda_bf16.hpp "
            "(%s); warpscope keys every load and store at the innermost `.loc` (cuda_bf16.hpp), ncu puts one of ptxas's "
            "4 copies of the unrolled column loop (a quarter of the requests) at the caller's line (blind8.cu:131-133 and 144-147) and the others at "
            "cuda_bf16.hpp, where it has rows of its own, so the inlined_at fallback does not apply: %s")
RMS_ZERO = ("request count, zero-lane requests of an unrolled loop: `for (c = tid; c < cols; c += 256) sdg[c] = 0` (%s): "
            "ptxas unrolls it (29 STS at this line, 20 executed) and issues some of the copies with every lane "
            "predicated off, so each warp issues 4 requests more than it has trips; the wavefronts agree (%s both), the requests do not (%s measured, %s modelled; 0.8 wavefronts per "
            "request measured, 1.0 modelled)")
FP8 = ("request count, ptxas transformation: the row loop `for (j = lane; j < 250; j += 32)` (8 trips for lanes 0..25, "
       "7 for 26..31) is unrolled by 4 by ptxas with the lanes of different trip counts on separate paths: 60,000 "
       "requests measured (15 a row, 16.7 lanes each), 44,000 modelled (11 a row); the line's sectors agree in total "
       "(%s) so the per-request figures differ only by the request count")
HASH_ATOM_LINE = ("line attribution and simulation stepped over: ptxas unrolls the probe loop (15 more `ATOMG.E.CAS.64` "
                  "copies, 118,899 requests at 3.8 lanes) and ncu puts those at the caller's line 206, the first at "
                  "device_atomic_functions.hpp:236; the loop exits on the CAS result, so the row has no request count, and the "
                  "trip the simulation ran has every lane at a random slot (32 sectors a request), where the measured "
                  "requests hold only the lanes still probing (3.8)")
HASH_DEV = ("simulation stepped over: the probe loop exits on the CAS result (PTX line 3995); its first ATOMG.E.CAS.64 "
            "(31,570 requests, 31.7 lanes, 31.7 sectors each: one request a warp although 64-bit and at random slots) is "
            "not counted")
HASH_ST = ("request count, branches on loaded data followed both ways: `slots[h].y = i` of the probe loop's winner. NVVM "
           "unrolls the probe loop 16 times in the PTX, each copy with its own exit to the winner's block after the loop; the "
           "simulation steps over the loop and follows each of the 16 exits on loaded data both ways, so the store is counted "
           "once per exit, 16 times a warp (500,000: an upper bound, as the report's note says); on the H100 each warp "
           "reaches it once, all 32 lanes together (31,250 requests of one STG.E.64); per request 31.998 lines and 32 sectors "
           "both")
HIT = ("request count, branch on loaded data inside a stepped-over loop: the hit's load `slots[h].y` under `if (s == k)`: "
       "%s")
NEWLINE = ("request count, branch on loaded data: `if (!m) continue` on the ballot of the loaded bytes; 30,983 of the 262,144 "
           "warp-rounds hold a newline (random bytes, 1 in 256); the model counts every round and every lane (%s)")
HGMMA = ("line attribution: ncu spreads the HGMMA instructions of the loop over the lines around it (%s); the wavefronts per "
         "request match where the counts do")
SAMPLE = ("sectors, sampled grid: %s; the simulation runs the edge blocks and a sample of the others, scaled (not inspected)")
SHAT = ("request count, warp split after a data-dependent loop: the grid-stride loop's body holds two CAS loops that exit "
        "per lane on data (ptxas's `ATOMS.CAST.SPIN.64` emulation of the 64-bit shared add, and the float-max CAS loop); "
        "the SASS has BSSY/BSYNC around both, yet the warp's lanes reach %s in groups: %s")

WSPEC = ("simulation stopped, lowering: `bar.arrive %%r159, 160` (inline asm, the named barrier's id in a register: the loop "
         "counter, 2 on entry) is lowered as an instruction that writes its first operand (`lower::ptx`'s generic arm takes "
         "the first operand as a destination without asking `isa::writes_first_operand`, which lists `bar`), so the "
         "counter becomes unknown and the producer loop's branch `setp.lt.s32 %%p15, %%r159, %%r19` (PTX line 6853) stops "
         "the simulation: 'a value that is not known'. With the id written as a constant the simulation runs and its "
         "totals are the measured ones (32,000 load requests of 16 sectors, 2,000 stores of 4). Measured here: %s")

R = {
 ("rmsnorm_bwd_c4096","blind8.cu:122","st shared"): RMS_ZERO % ("cols = 4,096: 16 trips", "33,792", "42,240 = 160 a block", "33,792 = 128 a block"),
 ("rmsnorm_bwd_c4100","blind8.cu:122","st shared"): RMS_ZERO % ("cols = 4,100: 16 or 17 trips", "34,056", "42,504", "34,056"),
 ("rmsnorm_bwd_c4096","blind8.cu:144","ld global"): RMS_LINE % ("dy2[j], second loop", "32,000 requests measured here, none modelled"),
 ("rmsnorm_bwd_c4096","blind8.cu:145","ld global"): RMS_LINE % ("x2[j], second loop", "32,000 requests measured here, none modelled"),
 ("rmsnorm_bwd_c4096","blind8.cu:146","ld global"): RMS_LINE % ("w2[j], second loop", "32,000 requests measured here, none modelled"),
 ("rmsnorm_bwd_c4096","blind8.cu:147","st global"): RMS_LINE % ("dx2[j]", "32,000 requests measured here, none modelled"),
 ("rmsnorm_bwd_c4096","cuda_bf16.hpp:254","st global"): RMS_LINE % ("the bf16x2 store", "128,000 modelled here, 96,000 measured; the sum matches: 128,000 = 96,000 + 32,000 at line 147; 4 sectors a request both"),
 ("rmsnorm_bwd_c4096","cuda_bf16.hpp:266","ld global"): RMS_LINE % ("the bf16x2 loads of both loops", "768,000 modelled here, 672,000 measured; the sum matches: 768,000 = 672,000 + 3 x 32,000 at lines 144-146; 4 sectors a request both"),
 ("rmsnorm_bwd_c4100","blind8.cu:131","ld global"): RMS_LINE % ("dy2[j], first loop: the 9th trip of threads 0 and 1 (2,050 pairs)", "2,000 requests measured here (2 lanes), none modelled"),
 ("rmsnorm_bwd_c4100","blind8.cu:132","ld global"): RMS_LINE % ("x2[j], first loop, the 9th trip of threads 0 and 1", "2,000 requests measured here, none modelled"),
 ("rmsnorm_bwd_c4100","blind8.cu:133","ld global"): RMS_LINE % ("w2[j], first loop, the 9th trip of threads 0 and 1", "2,000 requests measured here, none modelled"),
 ("rmsnorm_bwd_c4100","blind8.cu:144","ld global"): RMS_LINE % ("dy2[j], second loop", "34,000 requests measured here, none modelled"),
 ("rmsnorm_bwd_c4100","blind8.cu:145","ld global"): RMS_LINE % ("x2[j], second loop", "34,000 requests measured here, none modelled"),
 ("rmsnorm_bwd_c4100","blind8.cu:146","ld global"): RMS_LINE % ("w2[j], second loop", "34,000 requests measured here, none modelled"),
 ("rmsnorm_bwd_c4100","blind8.cu:147","st global"): RMS_LINE % ("dx2[j]", "34,000 requests measured here, none modelled"),
 ("rmsnorm_bwd_c4100","cuda_bf16.hpp:254","st global"): RMS_LINE % ("the bf16x2 store", "130,000 modelled here, 96,000 measured; the sum matches: 130,000 = 96,000 + 34,000 at line 147; rows of 8,200 bytes, 4.782 sectors a request modelled, 4.844 measured here (the mix of the split copies)"),
 ("rmsnorm_bwd_c4100","cuda_bf16.hpp:266","ld global"): RMS_LINE % ("the bf16x2 loads of both loops", "780,000 modelled here, 672,000 measured; the sum matches: 780,000 = 672,000 + 3 x 2,000 + 3 x 34,000 at lines 131-133 and 144-146; 4.547 sectors a request modelled, 4.604 measured here"),
 ("fp8_rowquant_e4m3","blind8.cu:167","ld global"): FP8 % "500,000",
 ("fp8_rowquant_e4m3","blind8.cu:174","ld global"): FP8 % "500,000",
 ("fp8_rowquant_e4m3","blind8.cu:176","st global"): FP8 % "170,000 measured, 170,016 modelled",
 ("hash_insert_cas64","blind8.cu:206","atom global"): HASH_ATOM_LINE,
 ("hash_insert_cas64","device_atomic_functions.hpp:236","atom global"): HASH_DEV,
 ("hash_insert_cas64","blind8.cu:208","st global"): HASH_ST,
 ("hash_find","blind8.cu:225","ld global"): STEP % ("the probe loop `for (probe ...) { s = slots[h].x; if (s == k) break; if (s == EMPTY) break; }`", "4326", "267,446 requests of the 16 unrolled LDG.E.64 copies, 7.1 lanes each"),
 ("hash_find","blind8.cu:227","ld global"): HIT % "NVVM unrolls the probe loop 16 times in the PTX, each copy's `s == k` exit branching to the hit block after the loop; followed both ways, the hit load is counted once per exit: 500,000 modelled (16 a warp, 32 lanes at random slots: 32 sectors, an upper bound); measured 95,390 requests (3.05 a warp: the hits of a warp leave the loop at different probes; 5.24 lanes, 5.24 sectors each); the 500,000 hits' sectors agree (499,997 measured)",
 ("hash_find_cg4","blind8.cu:255","ld global"): STEP % ("the window loop (exit on `__all_sync(done)` of the ballots of loaded keys)", "4805", "263,053 requests of the 4 unrolled LDG.E.64 copies, 12.9 lanes each"),
 ("hash_find_cg4","blind8.cu:263","ld global"): STEP % ("the window loop, which holds the hit's `if (r == __ffs(mb) - 1) out[q] = slots[slot].y` (its four unrolled copies laid out above the loop's header `$L__BB6_4`, each reached by a `bra.uni` up the layout and jumping back down to its window's join),", "4805", "the 8 keys of a warp hit in different windows: 167,282 requests (1.34 a warp, 2.99 lanes and 2.99 sectors each; the model's trip: 32 lanes, 32 sectors)"),
 ("hash_find_cg4","blind8.cu:263","st global"): STEP % ("the window loop, which holds the hit's `out[q]` store (laid out above the loop's header),", "4805", "167,282 requests, 1.755 sectors each (the model's trip: 2.000)"),
 ("hash_find_cg4","blind8.cu:266","st global"): STEP % ("the window loop", "4805", "the miss's `out[q] = -1`, 248,251 requests of 4 unrolled STG.E.64 copies, 2.0 lanes each"),
 ("bfs_expand_thread","blind8.cu:298","ld global"): STEP % ("the edge loop between the loaded `row_ptr[v]` and `row_ptr[v + 1]`", "5013", "37,772 requests of `cols[e]` (13.9 lanes)"),
 ("bfs_expand_thread","blind8.cu:299","atom global"): STEP % ("the edge loop", "5013", "55,021 ATOMG.E.CAS / ATOMG.E.ADD requests of ptxas's unrolled copies, keyed here by ncu"),
 ("bfs_expand_thread","blind8.cu:299","st global"): STEP % ("the edge loop", "5013", "31,300 queue stores (7.2 lanes)"),
 ("bfs_expand_thread","device_atomic_functions.hpp:202","atom global"): STEP % ("the edge loop", "5013", "14,051 ATOMG.E.CAS requests (14.3 lanes) of the first copy"),
 ("bfs_expand_warp","blind8.cu:317","ld global"): STEP % ("the warp's edge loop between loaded `row_ptr` bounds", "5285", "61,560 requests (8.5 lanes)"),
 ("bfs_expand_warp","blind8.cu:324","st global"): STEP % ("the warp's edge loop", "5285", "61,560 requests (3.7 lanes) of the winners' queue stores"),
 ("bfs_expand_warp","device_atomic_functions.hpp:107","atom global"): STEP % ("the warp's edge loop", "5285", "53,332 one-lane queue appends (atomicAdd of the ballot's popc)"),
 ("bfs_expand_warp","device_atomic_functions.hpp:202","atom global"): STEP % ("the warp's edge loop", "5285", "61,560 ATOMG.E.CAS visits (8.5 lanes)"),
 ("sell_spmv_c32","blind8.cu:346","ld global"): "request count, a load sunk past a branch on loaded data: ptxas loads `slice_len[s]` first and moves `slice_ptr[s]` into the `len >= 1` branch of the slice loop (SASS: LDG of the length, `ISETP.GE P0, R2, 1`, `@!P0 BRA`, then the LDG of the offset); the last slice (rows 100,000..100,002) has length 0, so its warp skips the second load: 3,126 + 3,125 = 6,251 requests measured, 6,252 modelled (both loads in every warp)",
 ("sell_spmv_c32","blind8.cu:350","ld global"): STEP % ("the slice loop `for (k = 0; k < len; ++k)` with the loaded `slice_len[s]`", "5683", "247,425 requests of vals, cols and x (15 unrolled LDG copies)"),
 ("flag_release_acquire","blind8.cu:373","ld global"): STEP % ("the `ld.acquire.gpu` poll `if (f) break`", "5828", "917 polls by thread 0 (LDG.E.STRONG.GPU; the count depends on timing)"),
 ("atomic_fmax_argmax","blind8.cu:482","atom global"): STEP % ("the CAS loop `while (old < x)` on the returned value", "6439", "51,546 ATOMG.E.CAS requests, 5.2 lanes each"),
 ("atomic_fmax_argmax","blind8.cu:487","red global"): "request count, 64-bit red at random addresses: the argmax `atomicMax(barg + b, u64)` (REDG.E.MAX.64) runs once a warp after the CAS loop's BSYNC (1,000,000 thread executions), but ncu counts 101,531 requests (3.25 a warp, 9.8 lanes and 9.8 lines each; 997,432 tag requests, 999,362 sectors): the L1 splits a 64-bit reduction whose 32 lanes hit 32 different lines; the model counts 31,250 requests of 31.9 lines. The 64-bit CAS of hash_insert_cas64 at random slots is one request a warp (31.7 lanes) and the contiguous REDG.E.ADD.64 of shared_atomics_u64:513 one a warp: not probed which 64-bit reductions split",
 ("shared_atomics_u64","blind8.cu:501","ld global"): SHAT % ("the next iteration's `words[i]` load", "150,015 requests of 14.0 lanes measured (2.3 a warp and iteration) and 1,119,336 sectors (3.8 lines, 7.5 sectors a request: each group fetches its own), 65,536 requests of 32 lanes and 262,144 sectors modelled"),
 ("shared_atomics_u64","blind8.cu:502","atom shared"): "request count, ptxas's CAS emulation of the 64-bit shared add: `atom.shared.add.u64` is an `LDS.64` + `ATOMS.CAST.SPIN.64` loop, retried by the lanes whose CAS failed (same bin or same bank group): 315,767 requests measured (9.3 lanes, 3.318 wavefronts each: 1,047,612), 65,536 modelled at 12.339 (the single random-bin atomic: 808,650 wavefronts); the warp also reaches it split (line 501)",
 ("shared_atomics_u64","blind8.cu:502","ld shared"): "no PTX access: the `LDS.64` of ptxas's CAS loop for the 64-bit shared add (the old value for `ATOMS.CAST.SPIN.64`): 315,767 requests, 2.770 wavefronts each, measured; PTX has only the `atom.shared.add.u64`",
 ("shared_atomics_u64","blind8.cu:505","ld shared"): SHAT % ("`int old = *a` of the float-max loop", "147,053 requests of 14.3 lanes measured (1.496 wavefronts each), 65,536 of 32 lanes at 2.000 modelled"),
 ("shared_atomics_u64","blind8.cu:508","atom shared"): STEP % ("the CAS loop `while (old < f)`", "6619", "20,865 ATOMS.CAS requests, 8.6 lanes, 3.5 wavefronts each"),
 ("shared_atomics_u64","blind8.cu:513","red global"): "line attribution: `atomicAdd(hist + k, sh[k])` of u64 (REDG.E.ADD.64, 4 unrolled copies, 8,448 requests, 8 sectors each) is measured at blind8.cu:513; warpscope keys its `red.global.add.u64` at device_atomic_functions.hpp, where ncu has no row (the loop's first copy, line 514's shared read, matches)",
 ("warpspec_namedbar","blind8.cu:531","ld global"): WSPEC % "32,000 LDG.E.128 requests, 16 sectors each",
 ("warpspec_namedbar","blind8.cu:531","st shared"): WSPEC % "32,000 STS.128 requests, 4 wavefronts each",
 ("warpspec_namedbar","blind8.cu:540","ld shared"): WSPEC % "the consumers' `buf[b][c]`, 32,000 LDS.128 requests, 4 wavefronts each",
 ("warpspec_namedbar","blind8.cu:544","st global"): WSPEC % "the consumers' 2,000 result stores, 4 sectors each",
 ("newline_index","blind8.cu:621","st global"): NEWLINE % "the compacted `pos[...] = i` of the newline lanes: 30,983 requests of 1.06 lanes and 1.008 sectors measured, 262,144 of 32 lanes at random positions (32 sectors) modelled",
 ("newline_index","device_atomic_functions.hpp:107","atom global"): NEWLINE % "lane 0's `atomicAdd(count, popc(m))`: 30,983 requests measured, 262,144 modelled; 1 sector each both",
 ("t8_attn_varlen","standard.py:263","wgmma shared"): HGMMA % "31,232 HGMMA requests at standard.py:263, the `tl.dot` of the key loop, which runs between the loaded `cu_seqlens` bounds and is stepped over: none modelled",
 ("t8_attn_varlen","blind8_triton.py:82","wgmma shared"): HGMMA % "31,232 HGMMA requests measured at line 82, none modelled at this line (the key loop's `tl.dot` rows are at lines 84 and 92)",
 ("t8_attn_varlen","blind8_triton.py:84","wgmma shared"): STEP % ("the key loop `for n0 in range(0, L, BLOCK_N)` with `L` from the loaded cu_seqlens", "847", "31,232 HGMMA requests at line 84"),
 ("t8_attn_varlen","blind8_triton.py:92","wgmma shared"): HGMMA % "156,160 HGMMA requests at line 92, 6.400 wavefronts a request measured; the model's `tl.dot(p, v)` of the key loop (no request count: its trip count is data-dependent) has 4.000 a request on the trip it simulated",
 ("t8_attn_varlen","blind8_triton.py:82","cp.async global,shared"): STEP % ("the key loop (loaded bounds)", "847", "141,312 LDGSTS.E.BYPASS.128 requests of K (13.19 sectors each: the masked key tails of each sequence's last tile); the model counts the software pipeline's prologue copy ahead of the loop (16,384 requests, 16 sectors) and gives the loop's copy the figures of the trip it simulated (a full tile: 16 sectors)"),
 ("t8_attn_varlen","blind8_triton.py:90","cp.async global,shared"): STEP % ("the key loop (loaded bounds)", "847", "141,312 LDGSTS.E.BYPASS.128 requests of V (13.19 sectors each); the model counts the prologue copy (16,384 requests) and gives the loop's copy the figures of its simulated trip (16 sectors)"),
 ("t8_attn_varlen","blind8_triton.py:95","st global"): "request count, mask on loaded data: the output store under `offs_m < L` (L from the loaded cu_seqlens): 14,048 STG.E.128 requests measured (16.6 lanes, 8.294 sectors each), 16,384 modelled (every warp of every program, 16 sectors; bounds 0..16 hold): warps whose rows all lie past a short sequence's end issue no request (not traced in the SASS)",
 ("t8_bmm_tf32","blind8_triton.py:175","wgmma shared"): HGMMA % "20,480 HGMMA requests at line 175 and 20,480 at 177, 8 wavefronts each; the model keys all 40,960 at 177",
 ("t8_bmm_tf32","blind8_triton.py:177","wgmma shared"): HGMMA % "the model keys 40,960 HGMMA requests at line 177, ncu 20,480 here and 20,480 at line 175; 8 wavefronts each both",
 ("t8_jagged_sum","blind8_triton.py:192","ld global"): STEP % ("the row loop `for r0 in range(start, end, BLOCK_R)` with the loaded int64 offsets", "245", "310,656 LDG.E requests (20.0 lanes, 2.5 sectors each)"),
 ("t8_lut_gather","blind8_triton.py:217","ld shared"): "wavefronts not modelled: `tl.gather` of the 256-entry table is an LDS of `table + 4 * idx` with `idx` loaded (random int32 in 0..255): 3.152 wavefronts per request measured (31,264 requests both), the expected conflicts of 32 random words among 256 (as blind7's histogram ATOMS, 3.155); the model gives no figure for a shared access whose lanes' words are loaded (bounds 1..31.99 hold)",
}
T = {
 "fp8_rowquant_e4m3": "kernel totals, request count: the row loop unrolled by ptxas with split lanes (lines 167, 174, 176): 120,000 load and 64,000 store requests measured, 88,000 and 48,000 modelled; sectors match (1,000,000 and 174,000)",
 "hash_insert_cas64": "no totals: the probe loop exits on the CAS result (PTX line 3995) and is stepped over",
 "hash_find": "no totals: the probe loop exits on loaded keys (PTX line 4326) and is stepped over",
 "hash_find_cg4": "no totals: the window loop exits on ballots of loaded keys (PTX line 4805, its back edge) and is stepped over",
 "bfs_expand_thread": "no totals: the edge loop runs between loaded row_ptr bounds (PTX line 5013) and is stepped over",
 "bfs_expand_warp": "no totals: the edge loop runs between loaded row_ptr bounds (PTX line 5285) and is stepped over",
 "sell_spmv_c32": "no totals: the slice loop runs to the loaded slice length (PTX line 5683) and is stepped over",
 "flag_release_acquire": "no totals: the ld.acquire poll exits on the loaded flag (PTX line 5828) and is stepped over",
 "atomic_fmax_argmax": "no totals: the CAS loop exits on the returned value (PTX line 6439) and is stepped over",
 "shared_atomics_u64": "no totals: the float-max CAS loop exits on the returned value (PTX line 6619) and is stepped over",
 "warpspec_namedbar": "no totals: the simulation stopped at PTX line 6853: `bar.arrive %r159, 160` is lowered as writing its register operand, the loop counter, which becomes unknown (with a constant id the totals are the measured 32,000 load requests / 512,000 sectors and 2,000 store requests / 8,000 sectors)",
 "newline_index": "kernel totals, branch on loaded data: `if (!m) continue` on the ballot of loaded bytes; 30,983 atom requests and 31,200 store sectors measured, 262,144 requests and 8,388,577 store sectors modelled (every round, every lane); the load rows match",
 "t8_attn_varlen": "no totals: the key loop runs to the loaded sequence length (PTX line 847) and is stepped over",
 "t8_jagged_sum": "no totals: the row loop runs between loaded offsets (PTX line 245) and is stepped over",
}
C = {
}
WHY = {
 "rmsnorm_bwd_c4100": "the rows of 4,100 bf16 (8,200 bytes) shift the alignment of each row; without rows and the grid the mix of offsets is unknown",
 "st_async_peer": "the received counter read and its store by thread 0 only (`if (threadIdx.x == 0)`): without the block its lanes are unknown",
 "shared_atomics_u64": "`if (threadIdx.x < 64) smax[...] = 0`: without the block its lanes are unknown",
 "morton_gather": "the source index `(yy << log2w) + xx` needs log2w (10): without it the lanes' addresses are unknown",
 "memcpy_co3": "the word path's head and the pointers' offsets (3 bytes) need the pointers and n: without them the word loads look misaligned",
 "zaxpy_dot": "the block's warp sums `ws[k]` read by thread 0 only: without the block its lanes are unknown",
 "blelloch_nopad": "the tree levels' `if (tid < d)` and the block sum by thread 0 need the block size (512): without it the active lanes are unknown",
 "t8_layernorm_fwd": "Triton's reduction scratch (tl.sum), the row masked by N (5,000 of 3 x 2,048) and the one-lane mean/rstd stores: without the launch the active lanes are unknown",
 "t8_attn_varlen": "the query rows masked by the loaded sequence length: without the launch (and the data) the active lanes are unknown",
 "t8_causal_conv1d": "the row tails masked by L (2,000 of 2 x 1,024) need L",
 "t8_colsum_axis0": "the column tail (1,000 of 16 x 64) and row tail (3,000 of 94 x 32) masks need M and N",
 "t8_bmm_tf32": "the masked M, N and K edges (300, 200, 500) need the sizes; the static copy has no shared wavefront figure",
 "t8_jagged_sum": "the column tail (200 of 2 x 128) needs D",
 "t8_fp8_rowquant": "Triton's reduction scratch (tl.max) and the row masked by N (1,000 of 1,024): without the launch the active lanes are unknown",
}
STATIC = {
 ("fp8_rowquant_e4m3","blind8.cu:167","ld global"): "static only: without the launch the static analysis has no trip count per lane, so it keeps the rolled PTX loop's lanes together where ptxas's unrolled code (`analysis::unroll`, tests/hw/unroll_probes) splits the lanes of different trip counts into its 4-copy loop and 2- and 1-copy remainder blocks (NVVM's 4-copy body unrolled again, 8 or 7 trips a lane): 4.100 lines and 13.400 sectors per request without the grid, 2.833 and 8.333 measured; the simulation with the launch matches",
 ("fp8_rowquant_e4m3","blind8.cu:174","ld global"): "static only: without the launch the static analysis has no trip count per lane, so it keeps the rolled PTX loop's lanes together where ptxas's unrolled code (`analysis::unroll`, tests/hw/unroll_probes) splits the lanes of different trip counts into its 4-copy loop and 2- and 1-copy remainder blocks (NVVM's 4-copy body unrolled again, 8 or 7 trips a lane): 4.100 lines and 13.400 sectors per request without the grid, 2.833 and 8.333 measured; the simulation with the launch matches",
 ("fp8_rowquant_e4m3","blind8.cu:176","st global"): "static only: without the launch the static analysis has no trip count per lane, so it keeps the rolled PTX loop's lanes together where ptxas's unrolled code (`analysis::unroll`, tests/hw/unroll_probes) splits the lanes of different trip counts into its 4-copy loop and 2- and 1-copy remainder blocks (NVVM's 4-copy body unrolled again, 8 or 7 trips a lane): 1.775 lines and 4.100 sectors per request without the grid, 1.458 and 2.833 measured; the simulation with the launch matches",
 ("st_async_peer","blind8.cu:452","st global,shared"): "static only: `st.async.shared::cluster...v4.f32` into the peer CTA's shared memory (SASS STAS.128, `mapa.shared::cluster.u32` of rank `%cluster_ctarank ^ 1`): ncu keys it `st global,shared` with no sectors and 0 wavefronts; without the launch the static analysis has no wavefront figure for another CTA's shared memory (`memops`: the target CTA is not known there); the simulation, which places the rank in the 32-bit cluster window, gives the measured 0",
}

out = ["# tests/hw/blind8: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
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
