#!/usr/bin/env python3
"""Write tests/hw/blind21/known.txt: every row of the blind21 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind21.snap, or
agreement_before.snap.txt) that is `NO` or `KNOWN`, with its measured reason
from the tables below (README.md groups them by cause). Copied from
tests/hw/blind20/known_reasons.py (same table reading and output); the reasons
are this batch's, each read off the SASS rows of measured_sass*.json.gz, the
PTX and `warpscope report`'s notes. Each reason of a simulated or static row
ends with the row's figures as the snapshot gives them (model / measured).
Where the cause is not established, the reason says so.
Fails to list a row (prints it under `missing`) when no reason is written for it.

These tables are the blind comparison's (the model of main at d38ce2e).

  python3 tests/hw/blind21/known_reasons.py tests/hw/blind21/agreement_before.snap.txt tests/hw/blind21/known.txt
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
GOR = GUARD % ("the fifth prefix code '1111' needs a second two-word peek (`LDG.E.CONSTANT` 0x0370 / 0x0380 and "
               "0x0680 / 0x0690 after ptxas's unroll by 2: 9,199 and 9,225 requests, 1.34 lanes a request), issued only "
               "by warps where some lane reads that code; the first peek (0x0210 / 0x0220, 0x04f0 / 0x0500) runs in "
               "every trip: 19,375 requests each. The model counts the second peek in every warp and trip (155,000 = "
               "625 warps x 62 x 4; measured 114,348). Per request the addresses are bit positions advanced by loaded "
               "codes, `random` for the model (32 lines, bounds 0.5..32); measured 9.5 lines for the first peek, 1.3 "
               "for the second, inside the bounds")
RMS = GUARD % ("`if first == 0` on the loaded count word: only the first writer of each of the 32 groups runs "
               "`tl.atomic_xchg(cnt, 1)` (`ATOMG.E.EXCH` 0x0b40: 32 requests), the other 4,064 programs add the loaded "
               "partial row (`LDG.E` 0x0c70..0x0ca0: 32,512 requests each, 256 fewer than the model's 32,768); the "
               "model runs both ways in every program")
CE = GUARD % ("`if lab == ignore` on the row's loaded label: 10 percent of the rows are ignore_index (-100) and skip "
              "the target gather (`LDG.E.U16` 0x1b70: 14,840 requests, the model 16,384 = 2,048 rows x 8 warps)")
SEG = GUARD % ("`if r0 >= end: return` on the type's loaded end offset: 216 of the 376 programs have rows (13,607 "
               "rows in 8 segments), the others return before any access (the model: all 376)")
SEG198 = SEG + (". Per request, the x tile's mask `rm < end` (loaded end) makes the copies' src-size unknown, so the "
                "model costs every lane as reading (8 lines, 16 sectors); measured 5.25 / 10.50 because the last two "
                "stages of the software pipeline (0x0ef0 / 0x0f00, 0x1100 / 0x1110) are issued with the ignore-src "
                "predicate `!PT` (src-size 0 in every lane): 0 sectors, 4 wavefronts each, while the 8 in-range copies "
                "touch 7.82..7.93 lines")
BUDGET = ("[launch simulation budget: scaled blocks] the launch simulation ran %s and scaled the rest; the blocks it "
          "ran are not representative of %s")
ALIBI = BUDGET % ("366 of the 8,000 blocks (`warpscope report`: \"totals estimated from 366 of 8000 blocks\")",
                  "the ragged first 32 blocks of each head, where `if (j >= 0)` skips keys before the sequence start "
                  "(whole warps skip at i < 96 - 32 r: 3,072 warp rounds, so 124,928 requests per `LDG.E.128` "
                  "0x0500.., 31.75 lanes; the model 124,740 at 31.42 lanes). Every non-ragged row agrees")
RWKV = BUDGET % ("18 of the 63 blocks", "the warps' alignments: c = idx % C with C = 1,000 starts a warp at a "
                 "multiple of 8 floats that cycles with the warp index (and wraps where a warp straddles two batch "
                 "rows), so most warps span two 128-byte lines: `w[c]`, `u[c]` (`LDG` 0x0290, 0x02e0, 500 requests) "
                 "touch 1.768 lines a request, the model's sampled blocks 1.633; sectors agree (4.000)")
SPLITK80 = BUDGET % ("382 of the 1,024 blocks", "the ragged last row tile (M = 1,000: 40 of 64 rows): "
                     "`ATOMG.E.ADD.F32x4` 0x2230 / 0x2330 / 0x2400 run 3,840 requests each, the model 3,837; every "
                     "other figure agrees")
ATTR = ("[line attribution of inlined code] ptxas's line table gives %s; the model puts every copy at one line, where "
        "its per-request figures agree")
GPTQ = ATTR % ("2 of the 8 unrolled `__ldg(g_idx + k)` (`LDG.E.CONSTANT` 0x0370 / 0x0380: 352,256 requests) line 251 "
               "and 6 (0x0500, 0x0780, 0x08e0, 0x0960, 0x0bc0, 0x0cd0: 1,056,768) sm_32_intrinsics.hpp:112; the model "
               "1 at line 251 (176,128) and 7 at the header (1,232,896): 1,408,896 in all, as measured")
SPLITK77 = ATTR % ("1 of the 4 `HGMMA.64x64x16` of a K step (0x10b0: 65,536 requests) line 75 and 3 (196,608) line 77; "
                   "the model puts all 4 (262,144, 8 wavefronts each, as measured) at line 77")
PRED = ("[ptxas's choice between predication and a branch] %s")
GUM = PRED % ("the cross-warp step of `tl.argmax` (Triton's reduction scratch) reads a value and an index a warp, "
              "`@p ld.shared` twice under one predicate in the PTX; ptxas branches around the pair (`LDS` 0x8400 / "
              "0x8410: 65,536 requests each, warp 0's 4 lanes) instead of predicating them in all 4 warps, as it "
              "does for the final read (0x85a0: 262,144 requests): 393,216 requests at 1.000 wavefront, the model "
              "786,432 at 0.500 (as blind20's `t20_topk_iterative_max`)")
LOOP = ("[loop on loaded data: the per-request figures are those of the first trips] the loop's exit depends on "
        "loaded data, so the simulation gives no request count and takes the per-request figures from the trips it "
        "ran up to the exit, counting lanes whose exit is not known as taking part: %s")
PHMM = LOOP % ("the anti-diagonal sweep `s < hl + 31` (hl loaded): the model's figures are those of the 16,384 "
               "requests it ran up to the exit (its report: 1, 2, 3 and 4 lanes for four of the load's five PTX copies, "
               "1 sector); over the whole sweep "
               "(2,343,230 requests, ptxas's unroll by 4: `@!P0 LDG.E.U8` 0x0540 .. 0x0b30 at 25.3 lanes) the 32 "
               "descending bytes of a 160-byte haplotype row cross a sector boundary in most requests: 1.16 lines, "
               "1.65 sectors, above the model's upper bound 1.20")
SPG593 = LOOP % ("the lanes walk B's row `f = b0 + lane .. b1` (0..16 entries, loaded bounds): 5.41 lanes a request "
                 "on the GPU (`LDG` 0x0330: 565,771 requests), the model's sampled trips 32 lanes (1.969 lines, 4.875 "
                 "sectors; measured 1.437 / 1.874)")
SPGDIV = ("[a warp-uniform outer loop issued in pieces] `aci[e]`, `brp[k]`, `brp[k + 1]` are warp-uniform in the "
          "source (e runs a0 .. a1 of the warp's row), and the SASS brackets the inner loop with `BSSY B1` (0x02c0) / "
          "`BSYNC B1` (0x0500); yet the GPU issues each outer trip's loads (`LDG` 0x0260, 0x0280, 0x0290) in 2.13 "
          "requests on average: 831,001 requests carry 12,494,432 active lanes = 32 x 390,451 trips, 15.04 lanes a "
          "request, and lanes of one request sit at different trips (1.025 lines, 1.097 sectors for a uniform "
          "address). The mechanism that lets the lanes run the trips apart is not established here; the model "
          "takes the loads as broadcasts of one warp (1 line, upper bound 1.00); requests are data-dependent "
          "(the inner loop exits on loaded bounds)")
EMU = ("[emulated shared float atomicAdd: the compare-and-swap loop] `atomicAdd(float *shared)` is `LDS` + "
       "`ATOMS.CAST.SPIN` in a retry loop; lanes that hit one word succeed one a pass, so a warp repeats the loop "
       "as often as its most crowded word: %s. The model counts one pass a warp (its note says so) and draws the "
       "lanes uniformly over the range (7.08 wavefronts); the GPU's passes cost 2.000 wavefronts each")
HOG = EMU % ("the 8 x 8 cell's pixels vote into 9 bins of 4 cells (36 words) with spatially correlated angles: "
             "`ATOMS.CAST.SPIN` 0x0930 (b0) 467,797 requests = 7.22 passes a warp, 0x09c0 (b1) 368,926 = 5.69, "
             "12.2 lanes a pass; the model 64,800 requests")
HOGLD = ("[emulated shared atomicAdd: the emulation's load] the `LDS` (0x0910, 0x09a0) that reads the old value "
         "in each pass of the compare-and-swap loop has no PTX access of its own (the model's caveat "
         "EmulatedSharedAtomic says so): 467,797 and 368,926 requests, 1.39 / 1.41 wavefronts")
SPGCAS = ("[native shared atomicCAS at loaded addresses inside a data-dependent loop] `atomicCAS(&tab[warp][h], -1, "
          "j)` at h = (j * 107) & 255 with j a loaded column: `ATOMS.CAS` 0x03b0 (565,771 requests, 5.41 lanes: the "
          "lanes still walking B's row) and the probe retry 0x04a0 (225,447, 2.22 lanes); 2.56 wavefronts a "
          "request measured, the model 7.09 for 32 lanes drawn uniformly over the warp's 256 words (the lanes "
          "counted as active in the sampled trips, as for line 593); the probing loop's retries are data")
BIN = ("[binary-search levels: addresses from a tree level, not the whole table] the 8-step search "
       "`c1[lo1 + st]` (st = 128 .. 1, lo1 built from loaded comparisons) reads at step k one of 2^k words: "
       "measured 1.000, 2.000, 2.000, 3.995, 7.09, 6.45, 5.64, 4.66, 3.73 wavefronts along the unrolled steps "
       "(`LDS` 0x3260 .. 0x5de0), 4.727 on average; the model draws every step's index uniformly over the "
       "256 words (5.211, bounds 0.72..17.70)")
BIN185 = ("[table values: codes of the data] `c1[lo1 + 1]` / `c1[lo1]` after the search, lo1 the requantized code of "
          "the lane's element: the codes follow the data's distribution (the bitsandbytes dynamic map, dense near "
          "0), 3.01 wavefronts a request (`@!P0 LDS` 0x3af0 / 0x3b20 ..); the model draws them uniformly over the 256 "
          "words (3.146). Inherent in the data")
LOCK = ("[spin lock on loaded data] %s")
CPASYNC = ("[cp.async src-size per lane] `bytes = (t >= 0 && t < L) ? 16 : 0` (a `selp` on a lane-known predicate) is "
           "the copy's src-size, and `src = xr + (bytes ? t : 0)`; the model's note says the src-size is not known "
           "per lane, so every lane is costed as reading (25.15 sectors, 11.75 shared wavefronts), while the "
           "zero-filling lanes at the sequence's start and end read nothing: `LDGSTS.E.BYPASS.128` 0x0300, 25.8 "
           "lanes, 4.050 lines (as modelled), 23.625 sectors, 3.400 wavefronts. Why the model's shared side is 11.75 "
           "wavefronts (a 16-byte coalesced destination) is not established here")
BSP94 = ("[software-pipelined cp.async: zero-fill copies and uniform values read back from shared memory] the LUT "
         "entry is copied by one lane (`@!P0 LDGSTS.E` 0x02e0 / 0x0700 / 0x0e60, 0.25 lanes a request, warp 0 "
         "only) into shared memory; the pipeline's copies past the block row's last entry have src-size 0 "
         "(0.212 lines a request for 0.25 lanes in the loop). The model's wavefronts (0.167) and requests "
         "(1,024 + data) differ; in-loop requests are data (the loop on loaded row pointers)")
BSP95 = ("[software-pipelined cp.async: zero-fill copies] A's block copies in the loop (`LDGSTS.E.BYPASS.128` "
         "0x0c70, guard `!P1`: the pipeline's prefetch of the next entry, src-size 0 past the last) touch 3.696 "
         "lines, 14.785 sectors a request (the zero-filled prefetches read nothing); the model's 4.000 / 16.000 "
         "come from its sampled trips; requests are data (the loop on loaded row pointers)")
BSP96 = ("[a value loaded from shared memory at a uniform address is taken as per-lane] in the loop the block's "
         "column kb is read back from shared memory (`ld.shared.b32 [global_smem+10240]`, `LDS` 0x0b50: one word, "
         "1 wavefront) where the pipeline staged it; the model takes the loaded value as different in every lane, "
         "so B's rows `(kb * 32 + r) * N` become `random` (18.0 lines, 24.0 sectors; bounds 8.5..24), where the "
         "same copies before the loop, from the global load of the LUT, are modelled as 4 lines like the GPU's "
         "(3.718 lines, 14.871 sectors: coalesced 512-byte rows, the zero-filled prefetches reading nothing)")
BULK = ("[bulk copy: no wavefronts predicted against a measured 0] the `UBLKCP.S.G` (cp.async.bulk) issues: ncu "
        "counts its executions (80,200 in the unrolled copies 0x1090 .. 0x1ad0) with no lines, sectors or "
        "wavefronts; the model's figures agree on lines and sectors (0) but it gives no wavefront figure ('wf not "
        "modelled'), and the row compares per-request figures alone (the copy loop runs len times, len loaded)")
BPE = ("[simulation gives up: divergence nested deeper than 4,096 regions] the probe loop `for (probe = 0; probe <= "
       "mask; ++probe)` with mask = 262,143 (a parameter) breaks on loaded keys; the launch simulation nests a "
       "divergent region per trip and stops at 4,096 (`warpscope report`: \"totals: unavailable (divergence nested "
       "deeper than 4096 regions (PTX line 7394))\"), so no row of the kernel is counted, not even the loads before "
       "the loop and the store after it. The GPU: `LDG` 0x0140 / 0x0150 (word[i], word[i + 1]) 93,750 requests, "
       "the keys `LDG.E.64` 0x02a0 274,592 requests at 10.9 lanes (2.93 probes a warp), ranks 0x0390 176,513, the "
       "store 0x03e0 93,750; the static rows (per request) agree but for line 559")
BPE559 = ("[guards on loaded data] `tok[i]`, `tok[i + 1]` are read only where `word[i] == word[i + 1]` (loaded): 26.77 "
          "lanes a request (`LDG` 0x01e0 / 0x0200); the static analysis counts 32 lanes (1.5 lines, 4.5 sectors; "
          "measured 1.418 / 4.418)")
NOTOT = "[loop on loaded data] no totals: a loop exits on loaded data, so the accesses inside it are not counted (%s)"

R = {}
def put(launch, lines, opspace, reason):
    for l in lines:
        R[(launch, l, opspace)] = reason
put("gorilla_dod_decode", ["blind21.cu:61"], "ld global", GOR)
put("adam8bit_blockwise_update", ["blind21.cu:182"], "ld shared", BIN)
put("adam8bit_blockwise_update", ["blind21.cu:185"], "ld shared", BIN185)
put("gptq_gidx_gemv", ["blind21.cu:251", "sm_32_intrinsics.hpp:112"], "ld global", GPTQ)
put("alibi_swa_scores", ["blind21.cu:295"], "ld global", ALIBI)
put("alibi_swa_scores", ["blind21.cu:299"], "ld shared", ALIBI + "; the broadcast `LDS.128` of q (0x0490 ..) is 2 "
    "wavefronts with lanes in both half-warps, 1 with lanes in one (1.992 measured, the model 1.986)")
put("rwkv4_wkv_forward", ["blind21.cu:318"], "ld global", RWKV)
put("causal_conv1d_cpasync_zfill", ["blind21.cu:353"], "cp.async global,shared", CPASYNC)
put("pairhmm_forward_warp", ["blind21.cu:401"], "ld global", PHMM)
put("hog_cell_histogram", ["blind21.cu:438", "blind21.cu:439"], "atom shared", HOG)
put("hog_cell_histogram", ["blind21.cu:438", "blind21.cu:439"], "ld shared", HOGLD)
put("bpe_merge_rank_probe", ["blind21.cu:558", "blind21.cu:559", "blind21.cu:562", "blind21.cu:563"], "ld global", BPE)
put("bpe_merge_rank_probe", ["blind21.cu:568"], "st global", BPE)
put("spgemm_row_count_hash", ["blind21.cu:590", "blind21.cu:591"], "ld global", SPGDIV)
put("spgemm_row_count_hash", ["blind21.cu:593"], "ld global", SPG593)
put("spgemm_row_count_hash", ["device_atomic_functions.hpp:202"], "atom shared", SPGCAS)
put("bulk_gather_pool_rows", ["blind21.cu:664"], "bulk global,shared", BULK)
put("t21_splitk_matmul_atomic_bias", ["blind21_triton.py:75", "blind21_triton.py:77"], "wgmma shared", SPLITK77)
put("t21_splitk_matmul_atomic_bias", ["blind21_triton.py:80"], "atom global", SPLITK80)
put("t21_blocksparse_mm_lut", ["blind21_triton.py:94"], "cp.async global,shared", BSP94)
put("t21_blocksparse_mm_lut", ["blind21_triton.py:95"], "cp.async global,shared", BSP95)
put("t21_blocksparse_mm_lut", ["blind21_triton.py:96"], "cp.async global,shared", BSP96)
put("t21_rmsnorm_bwd_lock_dw", ["blind21_triton.py:135"], "atom global", RMS)
put("t21_rmsnorm_bwd_lock_dw", ["blind21_triton.py:137"], "ld global", RMS)
put("t21_ce_label_smooth_chunks", ["blind21_triton.py:177"], "ld global", CE)
put("t21_segment_matmul_offsets", ["blind21_triton.py:198"], "cp.async global,shared", SEG198)
put("t21_segment_matmul_offsets", ["blind21_triton.py:199"], "cp.async global,shared", SEG)
put("t21_segment_matmul_offsets", ["blind21_triton.py:200"], "wgmma shared", SEG)
put("t21_segment_matmul_offsets", ["blind21_triton.py:201"], "ldmatrix shared", SEG)
put("t21_segment_matmul_offsets", ["blind21_triton.py:201"], "st shared", SEG)
put("t21_segment_matmul_offsets", ["blind21_triton.py:201"], "st global", SEG)
put("t21_gumbel_max_sample", ["standard.py:181"], "ld shared", GUM)

T = {
 "lz77_match_window": NOTOT % "the match loop stops at the first differing byte",
 "gorilla_dod_decode": GOR + "; loads 156,875 / 116,223 requests, sectors 4,969,992 / 2,446,890 (inside the bounds 1,367,500..6,250,000)",
 "alibi_swa_scores": ALIBI + "; load sectors 31,510,856 / 31,887,616",
 "causal_conv1d_cpasync_zfill": CPASYNC + "; load sectors 2,387,968 / 1,622,016 (requests and stores agree)",
 "pairhmm_forward_warp": NOTOT % "the sweep runs hl + 31 steps, hl loaded",
 "bpe_merge_rank_probe": BPE,
 "spgemm_row_count_hash": NOTOT % "the lanes walk B's rows between loaded row pointers",
 "bulk_gather_pool_rows": NOTOT % "the bag's loaded length bounds the copy and sum loops",
 "t21_splitk_matmul_atomic_bias": SPLITK80 + "; loads 526,268 / 526,336 requests, atomics 31,991 / 32,000",
 "t21_blocksparse_mm_lut": NOTOT % "a block row's entries between two loaded row pointers",
 "t21_rmsnorm_bwd_lock_dw": NOTOT % "the spin lock `while tl.atomic_cas(lk, 0, 1) == 1` exits on the loaded lock word",
 "t21_ce_label_smooth_chunks": CE + "; load requests 3,250,176 / 3,248,632 (1,544 = 16,384 - 14,840), sectors 9,481,984 / 9,480,440 inside the bounds",
 "t21_segment_matmul_offsets": SEG + "; loads 45,120 / 23,644, stores 12,032 / 6,805 requests; sectors also for the pipeline's zero-filled copies (line 198)",
 "t21_median_sort_rows": ("[requests with no active lane] loads 163,840 / 114,180 requests: the row loads are masked by "
                          "the loaded length (`c < n`, 1..512), and warps whose lanes all fail still issue the "
                          "`@!P LDG.E` (32,768 requests each of 0x01b0 .. 0x01e0 per instruction, as modelled: the "
                          "simulated row agrees); the kernel-level request counter leaves those requests out, the "
                          "model counts them; load sectors 1,603,968 / 1,089,943 inside the bounds 40,960..2,138,112"),
}
C = {}
# static rows (no grid): the reason the static figures differ where the simulation with the launch agrees
WHY = {
 "nf4_dequant_double_quant": "`if (threadIdx.x < 16)` (the NF4 levels' staging) is if-converted: all 8 warps of a 256-thread block issue the `@!P0 STS` (0x0160) and 7 do so with no lane (0.125 wavefronts a request); that needs the block shape",
 "alibi_swa_scores": "`if (j >= 0)` with j = i - 127 + 32 r + lane leaves lanes out in the first 127 queries of each head; that needs the grid (blockIdx.x) and S",
 "rwkv4_wkv_forward": "c = idx % C and b = idx / C need C (1,000): without it the addresses stay `unknown`",
 "causal_conv1d_cpasync_zfill": "the zero-fill predicate `t >= 0 && t < L`, the early return `t >= L` of the ragged last chunk (2,000 = 3 x 512 + 464) and the row pitch need L",
 "hog_cell_histogram": "the row pitch y * W and the clamps min(x + 1, W - 1) / max(x - 1, 0) need W and H (`unknown` without them)",
 "lucas_kanade_5x5": "the 22 x 22 tiles' clamped loads, their row pitch and the ragged frame (1,242 x 375) need W and H (`unknown` without them)",
 "lion_update_vec4": "the tail `if (i < n)` with i = 4 (n / 4) + t leaves 3 lanes in one warp (1 sector a request); that needs n",
 "ldmatrix_swizzle_hgemm": "without the launch the cp.async's shared destination (16-byte chunks XOR-swizzled by (row >> 1) & 3 of the thread index) gets no wavefront figure ('wf not modelled'); the simulated row, with the block shape, gives 8.000 as measured",
 "t21_selective_scan_fwd": "the output column of 64 channels at a 1,024-byte stride (L = 256) is stored by 16 of 32 lanes (`@P0 STG.E` 0x1500: Triton's layout spreads 64 values over 128 threads); that needs L and the block shape (16 lines measured, 32 static)",
 "t21_splitk_matmul_atomic_bias": "the ragged last row tile (M = 1,000: 40 of 64 rows) needs M; the wgmma row: see the line attribution (ptxas's line table puts 1 of the 4 HGMMA at line 75)",
 "t21_blocksparse_mm_lut": "the LUT copy's single lane and the B rows' pitch need the block shape and N; in the loop kb is read back from shared memory (group: uniform values from shared memory)",
 "t21_rmsnorm_bwd_lock_dw": "the ragged row (N = 1,000 of a [1,024] block), the 4,000-byte row pitch and the reduction scratch's active lanes (8 warps: `@p st.shared` / `ld.shared` by one lane a warp) need N and the block shape",
 "t21_dropout_rand_strided": "the strided view (8,192-byte rows, 400 bytes in) and the ragged tiles (M = 3,000, N = 1,500) need sx, M and N",
 "t21_ce_label_smooth_chunks": "the reduction scratch's active lanes (`@p st.shared` / `ld.shared` of `tl.max` / `tl.sum` across 8 warps) need the block shape",
 "t21_segment_matmul_offsets": "the x tile's mask rm < end (end loaded), the type's W offset (program id) and the tiles past the segment need the grid and the loaded offsets",
 "t21_median_sort_rows": "the row loads are masked by the loaded length (c < n, 1..512: 2.11 lines a request); the reduction scratch's active lanes need the block shape",
 "t21_gumbel_max_sample": "the ragged last chunk (V = 32,000 = 15 x 2,048 + 1,280) needs V; the reduction scratch's active lanes need the block shape",
}
STATIC = {
 ("bpe_merge_rank_probe", "blind21.cu:559", "ld global"): BPE559,
 ("alibi_swa_scores", "blind21.cu:295", "ld global"): "[static only] " + WHY["alibi_swa_scores"] + " (32 lines a request without the grid, 31.746 measured)",
 ("rwkv4_wkv_forward", "blind21.cu:318", "ld global"): "[static only] " + WHY["rwkv4_wkv_forward"] + " (the simulated row differs by the simulation budget, group 3)",
 ("t21_segment_matmul_offsets", "blind21_triton.py:199", "cp.async global,shared"): "[static only] without the grid the K loop's pipeline predicate is not resolved, so the static figures count the 4 epilogue copies of W (0x0f20 .., `!PT`: src-size 0, no sectors) as reading (4 lines; measured 2.667 = 8 copies of 4 lines and 4 of 0); the simulation with the launch gives 2.667 as measured (its row differs only in requests, group 1)",
 ("t21_segment_matmul_offsets", "blind21_triton.py:201", "st global"): "[static only] " + WHY["t21_segment_matmul_offsets"] + " (the store's mask rm < end: 3.951 lines a request measured, 4 static)",
 ("t21_rmsnorm_bwd_lock_dw", "blind21_triton.py:130", "st shared"): "[static only] the spin lock's `tl.atomic_cas` result is broadcast through shared memory by one lane of one warp (`@P0 STS` 0x0a10: 0.125 wavefronts a request over the 8 warps); that needs the block shape",
 ("t21_blocksparse_mm_lut", "blind21_triton.py:94", "cp.async global,shared"): "[static only] the LUT entry's copy is issued by one lane of warp 0 (`@!P0 LDGSTS.E`: 0.25 lanes, 0.25 wavefronts a request over 4 warps); without the block shape the static analysis counts the lane in every warp (1 line, 32 wavefronts); the in-loop copies also zero-fill past the last entry (0.217 lines)",
}
def figs(r, sim):
    if not r[4] and not r[5]:
        return ""
    if sim:
        return " [model / measured: requests %s, lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7], r[8])
    return " [model / measured: lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7])

out = ["# tests/hw/blind21: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
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
