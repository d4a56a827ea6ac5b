#!/usr/bin/env python3
"""Write tests/hw/blind15/known.txt: every row of the blind15 agreement table
(tests/snapshots/hw_agreement__hw_agreement_blind15.snap) that is `NO` or
`KNOWN`, with its measured reason from the tables below (README.md groups
them by cause). Adapted from tests/hw/blind12/known_reasons.py (same table
reading and output); the reasons are this batch's, established from the PTX
(`triton/*.ptx`), the SASS (`raw/sass.tgz`) and ncu's per-instruction rows
(`measured_sass_triton.json.gz`). Each reason of a simulated or static row ends
with the row's figures as the snapshot gives them (model / measured). Lists a
row it has no reason for under `missing` (and leaves it out of known.txt, so
that the test fails on it).

  python3 tests/hw/blind15/known_reasons.py tests/snapshots/hw_agreement__hw_agreement_blind15.snap tests/hw/blind15/known.txt
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

F = "blind15_triton.py:"
# cause texts (README.md groups them)
TMAP = ("tensor descriptors built on the device (as blind12's `t12_copy_blocks_tdesc`): `tl.make_tensor_descriptor` "
        "writes a 128-byte tensormap in shared memory by Triton's guarded `st.shared` (zeroing) and `tensormap.replace.tile.*` "
        "(tid == 0), then `tensormap.cp_fenceproxy` to global scratch; the model counts the PTX's shared stores "
        "(2,772 requests of 0.667 wavefronts a descriptor); ptxas predicates the zeroing and two or three replaces in "
        "all 8 warps (`@!P0 STS [R8], RZ`, `@!P4 STS`: 1,056 each), branches around the rest, lowered to one-lane "
        "read-modify-writes of the descriptor's words in warp 0 (`STS`/`STS.64` and `LDS`, 132 each: one a program), "
        "and copies the tensormap out by `LDS` + `ATOMG.E.EXCH` (the atom rows agree): `LDS` rows the PTX does not have "
        "(`no PTX access`) and `STS` rows of other counts and wavefronts")
HGMMA_TMA = ("HGMMA line attribution: ptxas's four `HGMMA.64x128x16` instructions a K step carry lines 63 (1: 51,840), "
             "64 (1: 51,840) and 66 (2: 103,680); the model puts all of the PTX `wgmma` at line 66 (207,360): the sum "
             "agrees, 12 wavefronts a request on both sides")
MOE_RET = ("request count, an early return on loaded data: programs whose sorted-slot block starts at or past the loaded "
           "`num_tokens_post_padded` (`tl.load(NumPost)`: 1,024 of EM = 1,170 slots, 16 of 19 M blocks) return at once; "
           "the model cannot decide the branch on the loaded value and counts all 418 programs (22 N blocks x 19), "
           "measured 352 (16 x 22): 0.842 of the model's requests")
MOE_GMMA = ("HGMMA line attribution and the early return on loaded data: ptxas's `HGMMA.64x64x16` carry lines 105 (1: "
            "22,528) and 107 (3: 67,584); the model puts the PTX `wgmma` at line 107 and counts all 418 programs "
            "(107,008) where 352 run (90,112 = 22,528 + 67,584: 0.842 of 107,008); 8 wavefronts a request on both sides")
MOE_A = ("addresses on loaded data and the early return: the A tile rows are gathered at the loaded sorted slots // 2 "
         "(`cp.async`, 64 rows of 128 bytes: tokens of one expert, sorted, neighbouring rows); the model takes the "
         "loaded rows as random (28.4 lines a request) and counts the 66 programs past the loaded padded count; "
         "measured 2.31 lines, 9.25 sectors")
MOE_B = ("the expert's weight tile at the loaded expert id (`e * stride_be`) with columns wrapped by `% N`; the model "
         "takes the loaded expert id's address as random (28.4 lines a request) and counts the 66 programs past the "
         "loaded padded count; measured 3.56 lines, 14.2 sectors (16 rows of a [64, 64] bf16 tile a request)")
MOE_W = ("addresses on loaded data and the early return: the routed weights at the loaded slot ids (fp32, sorted "
         "slots of one expert) and padding slots masked by `slot < num_valid`; the model takes the loaded index as "
         "random (8 lines) and counts the programs past the loaded count; measured 1.80 lines, 3.87 sectors")
MOE_C = ("addresses on loaded data and the early return: the C rows are stored at the loaded slot ids "
         "(`stride_cm * offs_token`, 2,816-byte rows) with padding slots masked off; the model takes the loaded rows "
         "as random (7.94 lines) and counts the programs past the loaded count; measured 2.97 lines, 11.9 sectors "
         "(the lanes of padding slots off), and fewer requests than the 5,632 of the epilogue's other rows: ptxas "
         "branches around the stores of the warps whose rows are all padding")
PERM_ROWS = ("request count, the 32 dropped slots (capacity drops, row map -1: 9, 9, 7 and 7 of the 4,096 "
             "tokens' four slots, the SASS rows): each slot's branch on the loaded destination row (`@%p3`, `%p5`, "
             "`%p7`, `%p9 bra` for `dst < 0`) is followed both ways (the lanes uncertain: request counts an upper "
             "bound), so the model issues every slot's row store in every trip of the H loop in every warp (4 slots x "
             "3 trips x 4 warps x 4,096 programs = 196,608); the hardware skips those of the dropped slots, 12 "
             "requests each: 384 fewer (49,044, 49,044, 49,068, 49,068 an instruction); 3.75 lines, 15 sectors a "
             "request on both sides")
PERM_PROB = ("request count, the 32 dropped slots (row map -1; the loaded `dst < 0` branches followed both ways): the "
             "model counts every slot's probability load and store, slots 1..3 in all 4 warps (16,384 each, the store "
             "lane-less outside warp 0), slot 4, behind ptxas's tail `@!P EXIT`, in warp 0 only (4,096): 53,248; the "
             "hardware skips them for the dropped slots, 4 requests each in slots 1..3 (9, 9, 7 dropped: 16,348, "
             "16,348, 16,356) and 1 in slot 4 (7 dropped: 4,089): 53,141")
DROP_LBL = ("request count, the tail exit behind a debug label: the last `@%p4 st.global.v2` (the keep mask of the "
            "fourth block) is followed by `$L__tmp43:` (a line-table label no branch names), `.loc` and `ret`; "
            "`memops::before_exit` stops at any label, so the model keeps the store predicated in every warp (46,880 "
            "with the other three mask stores); ptxas puts it after the exit (SASS 0x6cc0, the only unguarded "
            "`STG.E.64`): the 4 warps of the last program, whose fourth block is past n, skip it (11,716 for 11,720)")
LIG_BR = ("request count, a branch on a loaded label: `if y == ignore_index` (y loaded from the labels) sends the 93 "
          "ignored rows to the zeroing loop and the 931 others to the two passes; the model cannot decide the branch "
          "and counts both arms in all 1,024 programs (16 warps each); measured the zeroing stores in the 93 ignored "
          "rows only and the rest in the 931 others (0.909 of the model's requests)")
LIG_TAIL = ("the branch on the loaded label: the z-loss store is followed by `$L__BB0_4: // %common.ret` and `ret`; "
            "ptxas emits `@P0 STG` for the loss, then `@!P0 EXIT` and the z-loss `STG` (SASS 0x5540): only warp 0 of "
            "the 931 non-ignored rows issues it (931 requests of 1 line). Since stop 33 the model puts it after the "
            "exit too (`memops::before_exit` sees through the join label: 16,384 requests of 0.0625 lines before), "
            "so warp 0 of every program issues it: 1,024, as the ignored rows' early return is on the loaded label "
            "(blind12's cause 3, `t12_attn_fwd_causal_bp` 80, fixed the same way)")
SPILL_CONV = ("ptxas register spill, not in the PTX: ptxas spills registers of the four-tap [64, 128] tile loop to the "
              "stack (27 `STL` and 27 `LDL` in the SASS); the PTX has no local access (a SASS front-end cause, as "
              "blind12's `t12_dwconv3x3_nhwc`)")
SPILL_GEMV = ("ptxas register spill, not in the PTX: the [64, 16, 8] unpack of the packed int4 words (`>>` over a "
              "broadcast third axis) keeps more values live than the registers hold; ptxas spills (77 `STL` and 77 "
              "`LDL` in the SASS); the PTX has no local access (a SASS front-end cause)")
SSD_BR = ("ptxas's if-conversion, split: the state store `@%p st.global.v4` x 8 (one a 512-element repeat of the "
          "[4,096] run) inside `if c < nchunks - 1`; in the loop copy that stores, ptxas predicates seven (`@!P0`.. "
          "`@!P5 STG.E.128`) and branches around the eighth (`@P6 BRA 0xf80; STG.E.128 [R40.64], R32`, SASS 0x0e70 / "
          "0x0ea0): the warps of the third run (pm = 2: 2,048 of 4,096 valid, that repeat masked off) skip it, "
          "11,904 requests for 17,856 (48 programs x 4 warps x 31 trips fewer); the model predicates all eight")
FLA_CS = ("lanes and request count on loaded data: the chunk's row bound is `T = eos - bos` from the loaded "
          "cu_seqlens (the ragged last chunk of each of the 12 sequences); the model takes every lane of the block "
          "as active; and the store is the kernel's tail (`@!P0 EXIT; STG.E`, SASS 0x0460): warp 1 of the 6 last "
          "chunks with at most 32 rows issues nothing (96 requests fewer, 16 heads x 6)")
GEGLU_BR = ("ptxas branches around two guarded stores: the three `@%p1 st.global.v4` (h, de, dg) share the guard; "
            "ptxas emits `@P0 BRA 0x1420; STG.E.128; STG.E.128` for the first two and `@P0 EXIT; STG.E.128` for the "
            "third (SASS 0x13f0..0x1480): the one warp of the last program with no valid element (768 of 1,024) "
            "skips all three (70,035 each); the model takes the last for the kernel's tail (70,035, as measured) "
            "and predicates the other two (70,036)")
R = {
 ("t15_matmul_tma_persistent", F + "45", "ld shared"): TMAP,
 ("t15_matmul_tma_persistent", F + "45", "st shared"): TMAP,
 ("t15_matmul_tma_persistent", F + "46", "ld shared"): TMAP,
 ("t15_matmul_tma_persistent", F + "46", "st shared"): TMAP,
 ("t15_matmul_tma_persistent", F + "47", "ld shared"): TMAP,
 ("t15_matmul_tma_persistent", F + "47", "st shared"): TMAP,
 ("t15_matmul_tma_persistent", F + "63", "wgmma shared"): HGMMA_TMA,
 ("t15_matmul_tma_persistent", F + "64", "wgmma shared"): HGMMA_TMA,
 ("t15_matmul_tma_persistent", F + "66", "wgmma shared"): HGMMA_TMA,
 ("t15_fused_moe", F + "96", "ld global"): MOE_RET,
 ("t15_fused_moe", F + "98", "ld global"): MOE_RET,
 ("t15_fused_moe", F + "105", "cp.async global,shared"): MOE_A,
 ("t15_fused_moe", F + "105", "wgmma shared"): MOE_GMMA,
 ("t15_fused_moe", F + "106", "cp.async global,shared"): MOE_B,
 ("t15_fused_moe", F + "107", "wgmma shared"): MOE_GMMA,
 ("t15_fused_moe", F + "110", "ld global"): MOE_W,
 ("t15_fused_moe", F + "114", "ldmatrix shared"): MOE_RET,
 ("t15_fused_moe", F + "114", "st shared"): MOE_RET,
 ("t15_fused_moe", F + "114", "st global"): MOE_C,
 ("t15_bias_dropout_add_rand4x", F + "194", "st global"): DROP_LBL,
 ("t15_mamba2_state_passing", F + "305", "st global"): SSD_BR,
 ("t15_fla_chunk_local_cumsum", F + "328", "st global"): FLA_CS,
 ("t15_geglu_tanh_bwd_inplace", F + "408", "st global"): GEGLU_BR,
 ("t15_geglu_tanh_bwd_inplace", F + "409", "st global"): GEGLU_BR,
 ("t15_liger_ce_inplace", F + "252", "st global"): LIG_TAIL,
}
R[("t15_moe_permute_scatter", F + "130", "st global")] = PERM_ROWS
for op in ("ld global", "st global"):
    R[("t15_moe_permute_scatter", F + "134", op)] = PERM_PROB
for line in ("standard.py:191", "standard.py:293"):
    for op in ("ld shared", "st shared"):
        R[("t15_liger_ce_inplace", line, op)] = LIG_BR
for line in ("223", "225", "226", "233", "242", "246", "251"):
    for op in ("ld global", "st global"):
        R[("t15_liger_ce_inplace", F + line, op)] = LIG_BR
for line in ("standard.py:50", F + "268", F + "271", F + "272", F + "273", F + "275", F + "276"):
    for op in ("ld local", "st local"):
        R[("t15_causal_conv1d_cl", line, op)] = SPILL_CONV
for line in ("372", "373", "376", "378", "379", "382", "383", "384"):
    for op in ("ld local", "st local"):
        R[("t15_w4a16_gemv_shift", F + line, op)] = SPILL_GEMV
T = {
 "t15_fused_moe": "kernel totals on loaded data: the 66 programs past the loaded padded count return at once (the model counts all 418) and the A, weight and C rows are at loaded slot ids (random in the model): 230,736 load requests modelled, 163,394 measured; 6,888,640 load sectors, 2,401,938 measured (within the bounds); stores 6,688 / 3,740",
 "t15_moe_permute_scatter": "kernel totals, the 32 dropped slots (the simulated rows' reason: the loaded `dst < 0` branches followed both ways): 364,544 load requests modelled for 364,437 (107 probability loads), 212,992 store requests for 212,576 (384 row stores and the 32 probability stores of warp 0); sectors 1,052,672 / 1,052,565 loads (within the bounds 999,424..4,018,176), 2,965,504 / 2,959,712 stores (5,792 = 384 x 15 + 32)",
 "t15_moe_unpermute_reduce": "kernel totals, lane-less requests: the 60 dropped slots (row map -1) give gathers whose lanes are all masked off by the loaded value in 2 warps x 6 chunks each; the per-instruction counters count those requests (196,608 at line 150, as modelled), the kernel's `l1tex__t_requests` does not: 589,104 load requests measured for 589,824 (720 = 60 x 2 x 6); load sectors 3,538,944 modelled, 3,331,536 measured (within the bounds; the gathered rows at the loaded row map)",
 "t15_bias_dropout_add_rand4x": "kernel totals, load sectors: requests agree (468,750), sectors 7,702,632 modelled for 7,703,000 measured (368 fewer, 0.005%): the bias gathers at `idx % 3,000` (row 189: 4.885 lines a request, as measured to the table's precision); which instructions give the 368 sectors: not investigated",
 "t15_liger_ce_inplace": "kernel totals on loaded data: the branch on the loaded label (the simulated rows' reason): 307,200 load requests modelled for 280,788, stores 260,096 for 130,886",
 "t15_causal_conv1d_cl": "kernel totals, load requests: 520,188 modelled, 522,288 measured (2,100 more; sectors 7,144,056 / 7,146,048); every per-instruction global row agrees; the initial-state loads (row 274) are lane-less in 31 of the 32 L blocks, and which requests the kernel counter counts there is not established: not investigated",
 "t15_fla_chunk_local_cumsum": "kernel totals on loaded data: the chunk bounds from the loaded cu_seqlens (the simulated row 328's reason): the lane-less load and store requests of warp 1 in the 6 short last chunks (96 each) are not in the kernel counter; the model counts them, and every lane of the ragged chunks (sectors 385,920 / 379,792 loads, 343,040 / 336,912 stores)",
}
C = {}
STATIC = {
 ("t15_moe_permute_scatter", F + "126", "ld global"): "the hidden row's last chunk (832 of 1,024: H = 2,880) needs H",
 ("t15_moe_permute_scatter", F + "130", "st global"): "the hidden row's last chunk (832 of 1,024: H = 2,880) needs H",
 ("t15_moe_permute_scatter", F + "134", "st global"): "the probability is stored by one lane of one warp of each program (and only for kept slots, a loaded condition); measured 0.308 lines a request",
 ("t15_moe_unpermute_reduce", F + "150", "ld global"): "the last [512] chunk (320 valid: H = 2,880) needs H (and the dropped slots' masks are loaded)",
 ("t15_moe_unpermute_reduce", F + "152", "st global"): "the last [512] chunk (320 valid: H = 2,880) needs H",
 ("t15_bias_dropout_add_rand4x", F + "189", "ld global"): "the bias index `idx % N` of the runtime N = 3,000 is unknown without the launch",
 ("t15_causal_conv1d_cl", F + "272", "ld global"): "the masked taps before position 0 and the last L block (16 of 64 rows: L = 2,000) need L and the grid",
 ("t15_causal_conv1d_cl", F + "274", "ld global"): "the initial-state loads have lanes only in the first L block (positions before 0), which needs the grid",
 ("t15_causal_conv1d_cl", F + "278", "st global"): "the last L block (16 of 64 rows: L = 2,000) needs L",
 ("t15_mamba2_state_passing", F + "297", "ld global"): "the third [4,096] run (2,048 valid: dim = 10,240) needs dim",
 ("t15_mamba2_state_passing", F + "298", "st global"): "the third [4,096] run (2,048 valid: dim = 10,240) needs dim",
 ("t15_mamba2_state_passing", F + "301", "ld global"): "the third [4,096] run (2,048 valid: dim = 10,240) needs dim",
 ("t15_mamba2_state_passing", F + "305", "st global"): "the third [4,096] run (2,048 valid: dim = 10,240) needs dim",
 ("t15_mamba2_state_passing", F + "307", "st global"): "the third [4,096] run (2,048 valid: dim = 10,240) needs dim",
 ("t15_fla_chunk_local_cumsum", F + "326", "ld global"): "the ragged last chunks' rows (bounds from the loaded cu_seqlens) are unknown",
 ("t15_fla_chunk_local_cumsum", F + "328", "st global"): "the ragged last chunks' rows (bounds from the loaded cu_seqlens) are unknown",
 ("t15_fla_chunk_fwd_h", F + "354", "cp.async global,shared"): "the last gate of the chunk (`min((i_t + 1) * BT, T) - 1`, one lane a warp, pipelined by `cp.async`) needs T, and no shared wavefront figure without the launch",
 ("t15_fla_chunk_fwd_h", F + "355", "cp.async global,shared"): "the last chunk (16 of 64 rows: T = 2,000, by the block pointer's boundary check) needs T",
 ("t15_fla_chunk_fwd_h", F + "356", "cp.async global,shared"): "the last chunk (16 of 64 rows: T = 2,000) needs T",
 ("t15_fla_chunk_fwd_h", F + "357", "cp.async global,shared"): "the last chunk's gates (16 of 64: T = 2,000) need T",
}
SCRATCH = "Triton's reduction scratch (one-lane and partial-warp shared accesses of `tl.max` / `tl.sum`) needs the launch"
for line in ("standard.py:191", "standard.py:293"):
    for op in ("ld shared", "st shared"):
        STATIC[("t15_liger_ce_inplace", line, op)] = SCRATCH
for line, why in (("223", "the last chunk (15,680 of 16,384: V = 32,064) needs V"), ("233", None), ("242", None), ("246", None)):
    for op in ("ld global", "st global"):
        STATIC[("t15_liger_ce_inplace", F + line, op)] = "the last chunk (15,680 of 16,384: V = 32,064) needs V"
STATIC[("t15_liger_ce_inplace", F + "251", "st global")] = "the loss is stored by one lane (tid < 32 of 16 warps: 0.0625 lines a request measured) which the static analysis takes as a full request"
STATIC[("t15_fused_moe", F + "105", "cp.async global,shared")] = "the gathered rows at loaded slots are random without the data"
STATIC[("t15_fused_moe", F + "106", "cp.async global,shared")] = "the weight tile at the loaded expert id is unknown without the data"
for line in ("45", "46", "47"):
    STATIC[("t15_matmul_tma_persistent", F + line, "st shared")] = "the descriptor's guarded shared stores (tid == 0 / tid < 32) give one lane a warp without the launch"
def figs(r, sim):
    if sim:
        return " [model / measured: requests %s, lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7], r[8])
    return " [model / measured: lines/req %s / %s, sectors/req %s / %s]" % (r[4], r[5], r[6], r[7])

out = ["# tests/hw/blind15: rows warpscope disagrees on, with the measured reason (launch|file:line|op|space|reason).",
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
    if key in R and key in STATIC:
        reason = "static: %s; the simulated row differs too: %s" % (STATIC[key], R[key]) + figs(r, False)
    elif key in R:
        reason = R[key] + " (the static row differs for the same reason)" + figs(r, False)
    elif key in STATIC:
        reason = "static only: %s: %s lines and %s per request without the grid, %s and %s measured; the simulation with the launch matches" % (STATIC[key], r[4] or "-", r[6] or "-", r[5] or "-", r[7] or "-")
    else: miss.append(("static",) + key); continue
    out.append("%s@static|%s|%s|%s|%s" % (r[0], r[1], op, space, reason))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print("missing:", miss)
