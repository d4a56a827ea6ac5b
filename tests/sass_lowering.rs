//! SASS lowering rules found missing by the held-out SASS comparison
//! (`tests/sass_hw_blind.rs`): each fixture is a few instructions in the
//! forms ptxas and Triton emit in the held-out listings
//! (`tests/hw/blind*/raw/sass.tgz`), where a guard or an address depends on
//! the rule; the expected figures are derived from the ISA semantics (a
//! one-warp block, lanes active or not) and the disagreements they closed
//! are in `tests/snapshots/sass_hw_blind__sass_blind_summary.snap`.

use warpscope::analysis::{LaunchConfig, Options, ParamKey};
use warpscope::source::SourceFile;

/// The listing around `body` (sm_90, one kernel `k`).
fn listing(header: &str, body: &str) -> SourceFile {
    let text = format!(
        "{header}\n\n\t.section\t.text.k,\"ax\",@progbits\n        .global         k\n        .other          k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\nk:\n.text.k:\n{body}"
    );
    SourceFile::from_text("k.nvdisasm.sass", text)
}

/// The one global access's (requests, sectors per request) for a 32-thread
/// block, one block, parameter 0 a pointer at `1 << 32` and parameter 1 `n`.
fn figures(file: &SourceFile, n: i64) -> (Option<u64>, f64) {
    figures_at(file, n, 0x100)
}

/// [`figures`] of the access at `offset`.
fn figures_at(file: &SourceFile, n: i64, offset: u32) -> (Option<u64>, f64) {
    let opts = Options {
        launch: LaunchConfig {
            block: Some([32, 1, 1]),
            grid: Some([1, 1, 1]),
            params: vec![
                (ParamKey::Index(0), (1i64 << 32).into()),
                (ParamKey::Index(1), n.into()),
            ],
        },
        ..Options::default()
    };
    let a = warpscope::analyze(file, &opts);
    assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics);
    let k = &a.kernels[0];
    let g: Vec<_> = k
        .accesses
        .iter()
        .filter(|x| x.sass_offset == Some(offset))
        .collect();
    assert_eq!(g.len(), 1, "one access at {offset:#x}");
    (g[0].requests, g[0].per_request.sectors)
}

const SM90: &str = "\t.target\tsm_90";

/// `LDG` at 0x100 of `R2.64` (param 0 plus 4 bytes a lane) under `guard`.
fn load_under(guard: &str) -> String {
    format!(
        "        /*00e0*/                   LDC.64 R2, c[0x0][0x210] ;\n        /*00f0*/                   IMAD.WIDE R2, R0, 0x4, R2 ;\n        /*0100*/              {guard} LDG.E R4, desc[UR4][R2.64] ;\n        /*0110*/                   EXIT ;\n"
    )
}

/// `P2R` saves a predicate into a register bit and `ISETP.NE` restores it
/// after the predicate was reused (blind8's `blelloch_nopad`): lanes 0–15
/// load, 64 bytes in 2 sectors. Before the rule, `P2R` was opaque and the
/// guard unknown (no request count).
#[test]
fn p2r_saved_predicate_is_restored() {
    let body = format!(
        "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   ISETP.GE.AND P3, PT, R0, 0x10, PT ;\n        /*0020*/                   P2R R5, PR, RZ, 0x8 ;\n        /*0030*/                   ISETP.NE.AND P3, PT, R0, RZ, PT ;\n        /*0040*/                   ISETP.NE.AND P3, PT, R5, RZ, PT ;\n{}",
        load_under("@!P3")
    );
    assert_eq!(figures(&listing(SM90, &body), 0), (Some(1), 2.0));
    // R2P sets P0 from bit 0 (lane < 16 again, through the register).
    let body = format!(
        "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   ISETP.LT.AND P1, PT, R0, 0x10, PT ;\n        /*0020*/                   P2R R5, PR, RZ, 0x2 ;\n        /*0030*/                   SHF.R.U32.HI R5, RZ, 0x1, R5 ;\n        /*0040*/                   R2P PR, R5, 0x1 ;\n{}",
        load_under("@P0")
    );
    assert_eq!(figures(&listing(SM90, &body), 0), (Some(1), 2.0));
}

/// `FSETP` on a float parameter decides a branch (blind3's
/// `gemm_tc_epilogue`: `beta != 0`): with `n` the bits of 0.5 the lanes
/// load, with 0.0 they do not.
#[test]
fn fsetp_compares_float_values() {
    let body = format!(
        "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   ULDC UR5, c[0x0][0x218] ;\n        /*0020*/                   FSETP.NEU.AND P0, PT, RZ, UR5, PT ;\n{}",
        load_under("@P0")
    );
    let f = listing(SM90, &body);
    assert_eq!(figures(&f, 0.5f32.to_bits() as i64).0, Some(1));
    assert_eq!(figures(&f, 0).0, Some(0));
}

/// Triton's listings have no `.target`: the architecture comes from
/// `.headerflags` (sm_90's parameter base 0x210). Without it the
/// parameters were read at sm_70's base and the pointer was unknown.
#[test]
fn architecture_from_headerflags_places_the_parameters() {
    let header = "\t.headerflags\t@\"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_ACCELERATORS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n\t.elftype\t@\"ET_EXEC\"";
    let body = format!(
        "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   ISETP.GE.AND P0, PT, R0, c[0x0][0x218], PT ;\n{}",
        load_under("@!P0")
    );
    // n = 8: lanes 0-7 load 32 bytes, one sector.
    assert_eq!(figures(&listing(header, &body), 8), (Some(1), 1.0));
}

/// `SGXT.U32` keeps the low bits, `SGXT` sign-extends them, and
/// `VIADDMNMX` is min/max of a sum (Triton's lane-index arithmetic).
#[test]
fn sgxt_and_viaddmnmx() {
    // R6 = tid & 1 (SGXT.U32 of 1 bit): the even lanes load.
    let body = format!(
        "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   SGXT.U32 R6, R0, 0x1 ;\n        /*0020*/                   ISETP.NE.AND P0, PT, R6, RZ, PT ;\n{}",
        load_under("@!P0")
    );
    // 16 lanes at a stride of 8 bytes: 128 bytes, 4 sectors.
    assert_eq!(figures(&listing(SM90, &body), 0), (Some(1), 4.0));
    // SGXT of 1 bit: bit 0 set gives -1 (odd lanes), so `>= 0` keeps the
    // even lanes.
    let body = format!(
        "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   SGXT R6, R0, 0x1 ;\n        /*0020*/                   ISETP.GE.AND P0, PT, R6, RZ, PT ;\n{}",
        load_under("@P0")
    );
    assert_eq!(figures(&listing(SM90, &body), 0), (Some(1), 4.0));
    // min(tid + 2, R8 = 7) < 7: lanes 0-4, 20 bytes in one sector.
    let body = format!(
        "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   MOV R8, 0x7 ;\n        /*0020*/                   VIADDMNMX R6, R0, 0x2, R8, PT ;\n        /*0030*/                   ISETP.LT.AND P0, PT, R6, 0x7, PT ;\n{}",
        load_under("@P0")
    );
    assert_eq!(figures(&listing(SM90, &body), 0), (Some(1), 1.0));
    // max(tid - 1, 0) == 0: lanes 0 and 1, 8 bytes in one sector.
    let body = format!(
        "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   VIADDMNMX R6, R0, 0xffffffff, RZ, !PT ;\n        /*0020*/                   ISETP.EQ.AND P0, PT, R6, RZ, PT ;\n{}",
        load_under("@P0")
    );
    assert_eq!(figures(&listing(SM90, &body), 0), (Some(1), 1.0));
}

/// The high word of a 64-bit sum (`IADD3.X` after `IADD3` with a carry
/// out) is the sum's value shifted right by 32: ptxas tests it to pick a
/// 32-bit division (blind4's `moe_align_block`: `n + ntid - 1` fits).
#[test]
fn carry_high_word_of_a_64_bit_sum() {
    let body = format!(
        "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   LDC.64 R6, c[0x0][0x218] ;\n        /*0020*/                   IADD3 R9, P1, R6, -0x1, RZ ;\n        /*0030*/                   IADD3.X R10, R7, -0x1, RZ, P1, !PT ;\n        /*0040*/                   ISETP.NE.U32.AND P0, PT, R10, RZ, PT ;\n{}",
        load_under("@!P0")
    );
    let f = listing(SM90, &body);
    // n - 1 = 7 fits in 32 bits: every lane loads, 128 bytes, 4 sectors.
    assert_eq!(figures(&f, 8), (Some(1), 4.0));
    // n - 1 = 2^32 does not: no lane loads.
    assert_eq!(figures(&f, (1i64 << 32) + 1).0, Some(0));
}

/// ptxas's unsigned division by a run-time value (Triton's
/// `t5_matmul_s3` divides the program id so; `src/lower/sass/float.rs`):
/// lanes with `tid < 100 / n` load 4 bytes each (the `LDG` at 0x150).
/// Expected: 100/7 = 14 lanes, 56 bytes in 2 sectors; 100/13 = 7 lanes, 1
/// sector; 100/3 = 33, all 32 lanes, 4 sectors. Before the rule the
/// reciprocal estimate (`I2F.U32.RP`, `MUFU.RCP`, `F2I`) was opaque and
/// `IMAD.HI.U32`'s addend was read as one register instead of the pair
/// `R9:R8`: the guard was unknown (no request count).
#[test]
fn division_by_a_run_time_value() {
    let body = "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   LDC R5, c[0x0][0x218] ;\n        /*0020*/                   I2F.U32.RP R6, R5 ;\n        /*0030*/                   MUFU.RCP R6, R6 ;\n        /*0040*/                   IADD3 R8, R6, 0xffffffe, RZ ;\n        /*0050*/                   F2I.FTZ.U32.TRUNC.NTZ R9, R8 ;\n        /*0060*/                   IMAD.MOV R10, RZ, RZ, -R9 ;\n        /*0070*/                   IMAD R11, R10, R5, RZ ;\n        /*0080*/                   MOV R8, RZ ;\n        /*0090*/                   IMAD.HI.U32 R9, R9, R11, R8 ;\n        /*00a0*/                   IMAD.HI.U32 R9, R9, 0x64, RZ ;\n        /*00b0*/                   IMAD.MOV R12, RZ, RZ, -R9 ;\n        /*00c0*/                   IMAD R12, R5, R12, 0x64 ;\n        /*00d0*/                   ISETP.GE.U32.AND P0, PT, R12, R5, PT ;\n        /*00e0*/               @P0 IADD3 R12, R12, -R5, RZ ;\n        /*00f0*/               @P0 VIADD R9, R9, 0x1 ;\n        /*0100*/                   ISETP.GE.U32.AND P1, PT, R12, R5, PT ;\n        /*0110*/               @P1 VIADD R9, R9, 0x1 ;\n        /*0120*/                   ISETP.GE.U32.AND P2, PT, R0, R9, PT ;\n        /*0130*/                   LDC.64 R2, c[0x0][0x210] ;\n        /*0140*/                   IMAD.WIDE R2, R0, 0x4, R2 ;\n        /*0150*/              @!P2 LDG.E R4, desc[UR4][R2.64] ;\n        /*0160*/                   EXIT ;\n";
    let file = listing(SM90, body);
    assert_eq!(figures_at(&file, 7, 0x150), (Some(1), 2.0));
    assert_eq!(figures_at(&file, 13, 0x150), (Some(1), 1.0));
    assert_eq!(figures_at(&file, 3, 0x150), (Some(1), 4.0));
}

/// `CALL.REL.NOINC` to a subroutine of the listing is inlined (as
/// blind10's `swa_softmax` calls `$__internal_0_$__cuda_sm20_rcp_rn_f32_slowpath`):
/// the callee sets `R9 = 2n` and returns; lanes with `tid < 2n` load 4
/// bytes each at 0x60. Expected: n = 4, 8 lanes, 32 bytes in 1 sector;
/// n = 8, 16 lanes, 2 sectors. Before the rule the call was not followed
/// and the launch not simulated (no request count).
#[test]
fn calls_to_subroutines_are_inlined() {
    let body = "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   MOV R10, 0x30 ;\n        /*0020*/                   CALL.REL.NOINC `($__internal_f) ;\n        /*0030*/                   ISETP.GE.AND P0, PT, R0, R9, PT ;\n        /*0040*/                   LDC.64 R2, c[0x0][0x210] ;\n        /*0050*/                   IMAD.WIDE R2, R0, 0x4, R2 ;\n        /*0060*/              @!P0 LDG.E R4, desc[UR4][R2.64] ;\n        /*0070*/                   EXIT ;\n.L_x_0:\n        /*0080*/                   BRA `(.L_x_0);\n        .weak           $__internal_f\n        .type           $__internal_f,@function\n        .size           $__internal_f,(.L_x_1 - $__internal_f)\n$__internal_f:\n        /*0090*/                   LDC R9, c[0x0][0x218] ;\n        /*00a0*/                   IMAD.SHL.U32 R9, R9, 0x2, RZ ;\n        /*00b0*/                   RET.REL.NODEC R10 `(k) ;\n.L_x_1:\n";
    let file = listing(SM90, body);
    assert_eq!(figures_at(&file, 4, 0x60), (Some(1), 1.0));
    assert_eq!(figures_at(&file, 8, 0x60), (Some(1), 2.0));
}

/// `FSETP` reads an integer immediate as the float nvdisasm prints
/// (`FSETP.GT.AND P0, PT, R1, 15, PT`: 15.0, not the bits 0xf) and a
/// negated operand as `neg.f32` (`src/lower/sass/float.rs`): with
/// `R1 = float(tid)` (`I2FP.F32.U32`), lanes 0–15 load (64 bytes, 2
/// sectors); with `-R1 < -7.5`, lanes 8–31 (96 bytes, 3 sectors).
#[test]
fn float_immediates_and_negation() {
    let body = |setp: &str| {
        format!(
            "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   I2FP.F32.U32 R1, R0 ;\n        /*0020*/                   {setp} ;\n{}",
            load_under("@!P0")
        )
    };
    let f = listing(SM90, &body("FSETP.GT.AND P0, PT, R1, 15, PT"));
    assert_eq!(figures(&f, 0), (Some(1), 2.0));
    let f = listing(SM90, &body("FSETP.GT.AND P0, PT, -R1, -7.5, PT"));
    assert_eq!(figures(&f, 0), (Some(1), 3.0));
}

/// The requests and sectors per request of the access at `offset` for a
/// 32-thread block, one block, the parameters `params` (index, value).
fn figures_with(file: &SourceFile, params: &[(usize, i64)], offset: u32) -> (Option<u64>, f64) {
    let opts = Options {
        launch: LaunchConfig {
            block: Some([32, 1, 1]),
            grid: Some([1, 1, 1]),
            params: params
                .iter()
                .map(|&(k, v)| (ParamKey::Index(k), v.into()))
                .collect(),
        },
        ..Options::default()
    };
    let a = warpscope::analyze(file, &opts);
    assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics);
    let k = &a.kernels[0];
    let g: Vec<_> = k
        .accesses
        .iter()
        .filter(|x| x.sass_offset == Some(offset))
        .collect();
    assert_eq!(g.len(), 1, "one access at {offset:#x}");
    (g[0].requests, g[0].per_request.sectors)
}

/// A `.X` op may write the register its carry's low half went to
/// (Triton's `t7_bf16_matmul_w4s4`: `IADD3 R106, P1, R0, UR4, RZ` /
/// `IMAD.X R106, RZ, RZ, UR5, P1`): it is still the high word of that
/// sum. Lanes load when `n + 1` fits in 32 bits. Expected: n = 8, every
/// lane, 4 sectors; n = 2^32 − 1, no lane. Before the rule the link was
/// dropped as the `.X` op's destination was written, the high word was
/// opaque and the launch not simulated.
#[test]
fn carry_high_word_written_over_its_low_word() {
    let body = format!(
        "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   LDC.64 R6, c[0x0][0x218] ;\n        /*0020*/                   IADD3 R9, P1, R6, 0x1, RZ ;\n        /*0030*/                   IMAD.X R9, RZ, RZ, R7, P1 ;\n        /*0040*/                   ISETP.NE.U32.AND P0, PT, R9, RZ, PT ;\n{}",
        load_under("@!P0")
    );
    let f = listing(SM90, &body);
    assert_eq!(figures(&f, 8), (Some(1), 4.0));
    assert_eq!(figures(&f, (1i64 << 32) - 1).0, Some(0));
}

/// Parameters inferred from constant-bank reads skip the ABI's padding
/// before an 8-byte parameter: `int a` at 0x218, then a 64-bit `n` at
/// 0x220 is parameter 2 (not 3, as when the 4 bytes at 0x21c counted as
/// a parameter no instruction reads; blind10's `integral_rows_u8` and
/// `spmv_dia5`). Lanes with `tid < n` load. Expected: n = 8, 8 lanes, 32
/// bytes, 1 sector.
#[test]
fn parameter_padding_before_an_8_byte_parameter() {
    let body = "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   LDC R5, c[0x0][0x218] ;\n        /*0020*/                   LDC.64 R6, c[0x0][0x220] ;\n        /*0030*/                   IADD3 R0, R0, R5, RZ ;\n        /*0040*/                   ISETP.GE.U32.AND P0, PT, R0, R6, PT ;\n        /*0050*/                   ISETP.GE.U32.AND.EX P0, PT, RZ, R7, PT, P0 ;\n        /*0060*/                   LDC.64 R2, c[0x0][0x210] ;\n        /*0070*/                   IMAD.WIDE R2, R0, 0x4, R2 ;\n        /*0080*/              @!P0 LDG.E R4, desc[UR4][R2.64] ;\n        /*0090*/                   EXIT ;\n";
    let f = listing(SM90, body);
    assert_eq!(
        figures_with(&f, &[(0, 1i64 << 32), (1, 0), (2, 8)], 0x80),
        (Some(1), 1.0)
    );
}

/// A pointer parameter read with `LDC.64` stays one 8-byte parameter when
/// its high register is next written as part of a pair or merged into, or
/// read by the high half of a 64-bit bitwise operation: `CS2R R6, SRZ`
/// zeroes R6:R7 (blind12's `t12_rmsnorm_bwd_rows`),
/// `SYNCS.ARRIVE.TRANS64` writes a 64-bit token (blind7's
/// `barrier_tile_copy`), `PRMT R7, R8, 0x7632, R7` keeps bytes of the dead
/// word (Triton's `td_transpose_batched`), and two `LOP3.LUT`s of one truth
/// table mask each word (blind8's `hash_insert_cas64`). Parameters `p`
/// (0x210), `q` (0x218), `n` (0x220, index 2); lanes with `tid < n` load
/// `p[tid]`. Expected: n = 8, 8 lanes, 32 bytes, 1 sector. Before the
/// rules the read of R7 made `q` two 4-byte parameters and `n` index 3 (no
/// value: not simulated).
#[test]
fn pointer_high_word_reused_not_split() {
    for after in [
        &["CS2R R6, SRZ", "IADD3 R9, R7, 0x1, RZ"][..],
        &[
            "SYNCS.ARRIVE.TRANS64.A1T0 R6, [UR5], RZ",
            "IADD3 R9, R7, 0x1, RZ",
        ][..],
        &["PRMT R7, R8, 0x7632, R7"][..],
        &[
            "LOP3.LUT R10, R0, R6, RZ, 0xc0, !PT",
            "LOP3.LUT R11, R0, R7, RZ, 0xc0, !PT",
        ][..],
    ] {
        let mut v = vec![
            "S2R R0, SR_TID.X",
            "LDC.64 R6, c[0x0][0x218]",
            "IMAD.WIDE R12, R0, 0x4, R6",
            "STG.E desc[UR4][R12.64], R0",
        ];
        v.extend(after);
        v.extend([
            "LDC R5, c[0x0][0x220]",
            "ISETP.GE.AND P0, PT, R0, R5, PT",
            "LDC.64 R2, c[0x0][0x210]",
            "IMAD.WIDE R2, R0, 0x4, R2",
            "@!P0 LDG.E R4, desc[UR4][R2.64]",
            "EXIT",
        ]);
        let (body, ldg) = numbered(&v);
        let f = listing(SM90, &body);
        assert_eq!(
            figures_with(&f, &[(0, 1i64 << 32), (1, 2i64 << 32), (2, 8)], ldg),
            (Some(1), 1.0),
            "{after:?}"
        );
    }
}

/// A pointer read as two 4-byte halves is one 8-byte parameter when only
/// high-word instructions read its high half until the register is
/// written again, the write found after the instruction's predicate
/// outputs (`LOP3.LUT P2, R6, …` writes R6: blind6's
/// `aten_reduce_inner_vec`). Parameters `p` (0x210) and `n` (0x218, index
/// 1); lanes with `tid < n` load `p[tid]`. Expected: n = 8, 8 lanes, 1
/// sector. Before the rule the `LOP3`'s R6 counted as a read, `p` was two
/// parameters and `n` index 2 (no value: not simulated).
#[test]
fn pointer_halves_high_register_written_after_a_predicate_output() {
    let (body, ldg) = numbered(&[
        "S2R R0, SR_TID.X",
        "ULDC UR6, c[0x0][0x210]",
        "LDC R6, c[0x0][0x214]",
        "LEA R2, P1, R0, UR6, 0x2",
        "LEA.HI.X R3, R0, R6, RZ, 0x2, P1",
        "LOP3.LUT P2, R6, R0, 0x3, RZ, 0xc0, !PT",
        "IADD3 R7, R6, 0x1, RZ",
        "LDC R5, c[0x0][0x218]",
        "ISETP.GE.AND P0, PT, R0, R5, PT",
        "@!P0 LDG.E R4, desc[UR4][R2.64]",
        "EXIT",
    ]);
    let f = listing(SM90, &body);
    assert_eq!(
        figures_with(&f, &[(0, 1i64 << 32), (1, 8)], ldg),
        (Some(1), 1.0)
    );
}

/// ptxas's `f32` division (`src/lower/sass/float.rs`, "`FCHK`"): `100 /
/// float(n)` by the fast path, `FCHK` false for these operands, the slow
/// path (here a stand-in writing 0) skipped; lanes with `tid <
/// trunc(100 / n)` load. Expected: n = 8, 12 lanes, 48 bytes in 2
/// sectors; n = 3, all 32 lanes, 4 sectors; n = 0 (a zero divisor: `FCHK`
/// true), the stand-in's 0, no lane. Before the rule `FCHK` was opaque (and
/// clobbered its first source), `MUFU.RCP` opaque, the branch not known.
#[test]
fn f32_division_fast_path() {
    let body = "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   LDC R5, c[0x0][0x218] ;\n        /*0020*/                   I2FP.F32.S32 R6, R5 ;\n        /*0030*/                   MOV R7, 0x42c80000 ;\n        /*0040*/                   MUFU.RCP R8, R6 ;\n        /*0050*/                   FFMA R9, -R6, R8, 1 ;\n        /*0060*/                   FFMA R9, R8, R9, R8 ;\n        /*0070*/                   FCHK P0, R7, R6 ;\n        /*0080*/                   FFMA R10, R7, R9, RZ ;\n        /*0090*/                   FFMA R11, -R6, R10, R7 ;\n        /*00a0*/                   FFMA R10, R9, R11, R10 ;\n        /*00b0*/              @!P0 BRA `(.L_x_0) ;\n        /*00c0*/                   MOV R10, RZ ;\n.L_x_0:\n        /*00d0*/                   F2I.TRUNC.NTZ R12, R10 ;\n        /*00e0*/                   ISETP.GE.AND P2, PT, R0, R12, PT ;\n        /*00f0*/                   LDC.64 R2, c[0x0][0x210] ;\n        /*0100*/                   IMAD.WIDE R2, R0, 0x4, R2 ;\n        /*0110*/              @!P2 LDG.E R4, desc[UR4][R2.64] ;\n        /*0120*/                   EXIT ;\n";
    let f = listing(SM90, body);
    assert_eq!(figures_at(&f, 8, 0x110), (Some(1), 2.0));
    assert_eq!(figures_at(&f, 3, 0x110), (Some(1), 4.0));
    assert_eq!(figures_at(&f, 0, 0x110).0, Some(0));
}

/// `@!PT` reads a predicate made false before the first instruction, so
/// a use on a path that did not pass the first use (blind5's
/// `cp_async_8b_c301`) still has it. Lanes 16–31 jump over the first
/// `@!PT LDS` to the second; the `LDG` at 0x100 is then issued by the
/// warp with every lane. Expected: 1 request, 4 sectors. Before the rule
/// the predicate was written at the first use only and the second guard
/// was not known on the jump's path (no request count).
#[test]
fn never_true_guard_on_every_path() {
    let body = format!(
        "        /*0000*/                   S2R R0, SR_TID.X ;\n        /*0010*/                   ISETP.GE.AND P1, PT, R0, 0x10, PT ;\n        /*0020*/               @P1 BRA `(.L_x_0) ;\n        /*0030*/              @!PT LDS RZ, [RZ] ;\n.L_x_0:\n        /*0040*/              @!PT LDS RZ, [RZ] ;\n{}",
        load_under("")
    );
    let f = listing(SM90, &body);
    assert_eq!(figures(&f, 8), (Some(1), 4.0));
}

/// A listing body of `instrs` numbered from 0x0 by 0x10 (a label is a line
/// ending in `:`), and the offset of its `LDG`.
fn numbered(instrs: &[&str]) -> (String, u32) {
    let mut body = String::new();
    let (mut off, mut ldg) = (0u32, 0u32);
    for i in instrs {
        if i.ends_with(':') {
            body.push_str(&format!("{i}\n"));
            continue;
        }
        if i.contains("LDG") {
            ldg = off;
        }
        body.push_str(&format!("        /*{off:04x}*/                   {i} ;\n"));
        off += 0x10;
    }
    (body, ldg)
}

/// `p[tid]` (parameter 0) under `guard`, then `EXIT`.
const LOAD: [&str; 3] = [
    "LDC.64 R2, c[0x0][0x210]",
    "IMAD.WIDE R2, R0, 0x4, R2",
    "LDG.E R4, desc[UR4][R2.64]",
];

fn with_load(before: &[&str], guard: &str) -> (String, u32) {
    let ldg = format!("{guard} {}", LOAD[2]);
    let mut v: Vec<&str> = before.to_vec();
    v.extend([LOAD[0], LOAD[1], ldg.as_str(), "EXIT"]);
    numbered(&v)
}

/// `IMAD.WIDE[.U32] Rd, a, b, Rc` adds the register pair `Rc+1:Rc` and
/// writes the pair `Rd+1:Rd`, whose high word carries (blind6's
/// `t6_matmul_persistent_flat`: `UMOV UR4, URZ` / `UIMAD.WIDE.U32 UR4,
/// UR5, UR6, UR4`, ptxas's division's `q0 + mul.hi(q0, e)` in UR5).
/// Expected, n = 8: R9 = n, lanes `tid < n` load, 32 bytes, 1 sector;
/// with the low word 0xffffffff, every lane but 0 carries into R9 (`R9 !=
/// n`: lanes 1–31, bytes 4–127, 4 sectors); with `R8:R9 = 0`, `R9 =
/// (tid · 2^30) >> 32 = tid >> 2 < 4`: lanes 0–15, 2 sectors. A pair
/// from a uniform carry chain (`UIADD3 … UP0` / `UIADD3.X … UP0`, blind8's
/// `rmsnorm_bwd_bf16`) has the high word 1 (`p = 2^32`) and is the
/// address `p + 16 + 4·tid`: every lane loads, 5 sectors. Before the rule
/// the high words were opaque (no request count) and the uniform carry
/// was not linked.
#[test]
fn imad_wide_adds_a_register_pair() {
    let f = |before: &[&str], guard: &str| {
        let (b, at) = with_load(before, guard);
        figures_at(&listing(SM90, &b), 8, at)
    };
    let common = ["S2R R0, SR_TID.X", "LDC R5, c[0x0][0x218]"];
    let mut v = common.to_vec();
    v.extend([
        "MOV R8, RZ",
        "MOV R9, R5",
        "IMAD.WIDE.U32 R8, R0, 0x1, R8",
        "ISETP.GE.AND P0, PT, R0, R9, PT",
    ]);
    assert_eq!(f(&v, "@!P0"), (Some(1), 1.0));
    let mut v = common.to_vec();
    v.extend([
        "MOV R8, 0xffffffff",
        "MOV R9, R5",
        "IMAD.WIDE.U32 R8, R0, 0x1, R8",
        "ISETP.NE.AND P0, PT, R9, R5, PT",
    ]);
    assert_eq!(f(&v, "@P0"), (Some(1), 4.0));
    let mut v = common.to_vec();
    v.extend([
        "MOV R6, 0x40000000",
        "MOV R8, RZ",
        "MOV R9, RZ",
        "IMAD.WIDE.U32 R8, R0, R6, R8",
        "ISETP.GE.U32.AND P0, PT, R9, 0x4, PT",
    ]);
    assert_eq!(f(&v, "@!P0"), (Some(1), 2.0));
    let (b, at) = numbered(&[
        "S2R R0, SR_TID.X",
        "ULDC.64 UR10, c[0x0][0x210]",
        "UIADD3 UR10, UP0, UR10, 0x10, URZ",
        "UIADD3.X UR11, URZ, UR11, URZ, UP0, !UPT",
        "IMAD.U32 R10, RZ, RZ, UR10",
        "MOV R11, UR11",
        "ISETP.NE.AND P0, PT, R11, 0x1, PT",
        "IMAD.WIDE R10, R0, 0x4, R10",
        "@!P0 LDG.E R4, desc[UR4][R10.64]",
        "EXIT",
    ]);
    assert_eq!(figures_at(&listing(SM90, &b), 8, at), (Some(1), 5.0));
}

/// `SHF.L.U64.HI`, `SHF.R.U64.HI`, `SHF.R.S64.HI`: the high word of the
/// 64-bit `{hi, lo}` shifted. With `lo = tid << 28` (32 bits: `tid mod
/// 16` in the top nibble) `{0, lo} << 4` has high word `tid & 15`, `< 8`
/// in lanes 0–7 and 16–23 (2 sectors); `{tid, 0} >> 1` has high word
/// `tid >> 1`, `< 8` in lanes 0–15 (2 sectors); `{-tid, 0} >> 1`
/// (arithmetic) has `-tid >> 1 >= -4` in lanes 0–8 (36 bytes, 2 sectors),
/// and `< 8` logically in lane 0 only (1 sector). Before the rule these
/// were opaque (no request count).
#[test]
fn shf_64_bit_high_words() {
    let f = |mid: &[&str], guard: &str| {
        let mut v = vec!["S2R R0, SR_TID.X", "IMAD.MOV R7, RZ, RZ, -R0"];
        v.extend(mid);
        let (b, at) = with_load(&v, guard);
        figures_at(&listing(SM90, &b), 0, at)
    };
    let l = [
        "IMAD.SHL.U32 R6, R0, 0x10000000, RZ",
        "SHF.L.U64.HI R9, R6, 0x4, RZ",
        "ISETP.GE.U32.AND P0, PT, R9, 0x8, PT",
    ];
    assert_eq!(f(&l, "@!P0"), (Some(1), 2.0));
    let r = [
        "SHF.R.U64.HI R9, RZ, 0x1, R0",
        "ISETP.GE.U32.AND P0, PT, R9, 0x8, PT",
    ];
    assert_eq!(f(&r, "@!P0"), (Some(1), 2.0));
    let rs = [
        "SHF.R.S64.HI R9, RZ, 0x1, R7",
        "ISETP.GE.AND P0, PT, R9, -0x4, PT",
    ];
    assert_eq!(f(&rs, "@P0"), (Some(1), 2.0));
    let ru = [
        "SHF.R.U64.HI R9, RZ, 0x1, R7",
        "ISETP.GE.U32.AND P0, PT, R9, 0x8, PT",
    ];
    assert_eq!(f(&ru, "@!P0"), (Some(1), 1.0));
}

/// `ISETP.*.EX` compares its low half's words as 64-bit values, as they
/// were when the low half read them: `tid >= n` for a 64-bit `n` with the
/// low word's register written in between (Triton's `t7_matmul_block_ptr`
/// reads a low half a hundred instructions on). Expected: n = 8, lanes
/// 0–7 load (1 sector); n = 2^32 + 4, every lane (4 sectors). Before the
/// rule the low word was read after its register was written (0 here:
/// every lane loaded for n = 8).
#[test]
fn isetp_ex_compares_64_bit_pairs() {
    let (b, at) = with_load(
        &[
            "S2R R0, SR_TID.X",
            "LDC.64 R6, c[0x0][0x218]",
            "MOV R5, R0",
            "ISETP.GE.U32.AND P0, PT, R5, R6, PT",
            "MOV R5, RZ",
            "ISETP.GE.AND.EX P0, PT, RZ, R7, PT, P0",
        ],
        "@!P0",
    );
    let f = listing(SM90, &b);
    assert_eq!(figures_at(&f, 8, at), (Some(1), 1.0));
    assert_eq!(figures_at(&f, (1i64 << 32) + 4, at), (Some(1), 4.0));
}

/// `MATCH.ANY Rd, Ra`: the mask of the lanes whose `Ra` equals this
/// lane's (blind7's `cg_tile16_labeled`). With the key `tid >> 3`, lanes
/// 0–7 get 0xff: they load 32 bytes, 1 sector. Before the rule `MATCH`
/// was opaque (no request count).
#[test]
fn match_any_lane_mask() {
    let (b, at) = with_load(
        &[
            "S2R R0, SR_TID.X",
            "SHF.R.U32.HI R5, RZ, 0x3, R0",
            "MATCH.ANY R6, R5",
            "ISETP.EQ.AND P0, PT, R6, 0xff, PT",
        ],
        "@P0",
    );
    assert_eq!(figures_at(&listing(SM90, &b), 0, at), (Some(1), 1.0));
}

/// Triton's packed flags: `LOP3.LUT` with a constant on a register no
/// instruction wrote before (blind7's `t7_matmul_block_ptr`: `LOP3.LUT
/// R0, R0, 0xf7ffffff, RZ, 0xc0, !PT`, then bits set and tested one by
/// one) reads zero at the entry. Bit 0 set where `tid < 8`: lanes 0–7
/// load, 1 sector. Before the rule the register was read unwritten (no
/// request count).
#[test]
fn packed_flags_on_a_register_never_written() {
    let (b, at) = with_load(
        &[
            "S2R R0, SR_TID.X",
            "LOP3.LUT R3, R3, 0xfffffffe, RZ, 0xc0, !PT",
            "ISETP.LT.AND P1, PT, R0, 0x8, PT",
            "@P1 LOP3.LUT R3, R3, 0x1, RZ, 0xfc, !PT",
            "LOP3.LUT P0, RZ, R3, 0x1, RZ, 0xc0, !PT",
        ],
        "@P0",
    );
    assert_eq!(figures_at(&listing(SM90, &b), 0, at), (Some(1), 1.0));
}

/// An 8-byte parameter whose high word is a multiplicand of a plain
/// `IMAD` with a register addend while its low word is one of an
/// `IMAD.WIDE.U32` (a 64-bit multiply, blind5's `idx64_colgather`: `long
/// long ld`) is one
/// parameter, not two 4-byte ones: `n` at 0x220 is parameter 2. Expected:
/// n = 8, lanes 0–7 load, 1 sector. Before the rule `ld` counted as two
/// parameters, `n` as parameter 3 (not given: no request count).
#[test]
fn eight_byte_parameter_read_by_a_64_bit_multiply() {
    let (b, at) = with_load(
        &[
            "S2R R0, SR_TID.X",
            "ULDC.64 UR4, c[0x0][0x218]",
            "LDC R8, c[0x0][0x220]",
            "SHF.R.S32.HI R7, RZ, 0x1f, R0",
            "IMAD R9, R7, UR4, RZ",
            "IMAD.WIDE.U32 R10, R0, UR4, RZ",
            "IMAD R9, R0, UR5, R9",
            "IADD3 R11, R11, R9, RZ",
            "ISETP.GE.AND P0, PT, R0, R8, PT",
        ],
        "@!P0",
    );
    let f = listing(SM90, &b);
    assert_eq!(
        figures_with(&f, &[(0, 1i64 << 32), (1, 3), (2, 8)], at),
        (Some(1), 1.0)
    );
}

/// A `__grid_constant__ CUtensorMap` parameter named by its address
/// (`c[0x0][0x198]`, the parameter space's generic address on sm_90, plus
/// 0x30: the map at the 64-byte-aligned 0x240; blind5's
/// `tma2d_swz128_pipe`) is one 128-byte parameter: `out` at 0x2c0 is
/// parameter 1, `n` at 0x2c8 parameter 2. Expected: n = 8, lanes 0–7
/// store, 1 sector. Before the rule the bytes before 0x2c0 counted as 22
/// parameters (no request count).
#[test]
fn tensor_map_parameter_by_address() {
    let (b, at) = numbered(&[
        "S2R R0, SR_TID.X",
        "ULDC.64 UR8, c[0x0][0x198]",
        "UIADD3 UR12, UP0, UR8, 0x30, URZ",
        "UIADD3.X UR13, URZ, UR9, URZ, UP0, !UPT",
        "LDC R5, c[0x0][0x2c8]",
        "ISETP.GE.AND P0, PT, R0, R5, PT",
        "LDC.64 R2, c[0x0][0x2c0]",
        "IMAD.WIDE R2, R0, 0x4, R2",
        "@!P0 LDG.E R4, desc[UR4][R2.64]",
        "EXIT",
    ]);
    let f = listing(SM90, &b);
    assert_eq!(
        figures_with(&f, &[(1, 1i64 << 32), (2, 8)], at),
        (Some(1), 1.0)
    );
}

/// `ISETP.EX` after a low half that names the words in the other order
/// with the mirrored comparison (blind13's `bulk_copy_1d_affine`:
/// `ISETP.LT.U32.AND P0, PT, R4, UR7, PT` / `ISETP.GT.AND.EX P0, PT, R2,
/// RZ, PT, P0`, i.e. `{R2, UR7} > {0, R4}`): `n > tid` for a 64-bit `n`.
/// Expected: n = 8, lanes 0–7 load, 1 sector. Read in the low half's
/// order it was `tid > n`: lanes 9–31, 3 sectors.
#[test]
fn isetp_ex_with_mirrored_operands() {
    let (b, at) = with_load(
        &[
            "S2R R0, SR_TID.X",
            "LDC.64 R6, c[0x0][0x218]",
            "ISETP.LT.U32.AND P0, PT, R0, R6, PT",
            "ISETP.GT.AND.EX P0, PT, R7, RZ, PT, P0",
        ],
        "@P0",
    );
    assert_eq!(figures_at(&listing(SM90, &b), 8, at), (Some(1), 1.0));
}

/// `LEA.HI` with a carry-out is a low-half add whose high word a `.X` op
/// reads (blind13's `bulk_copy_1d_affine` rounds a signed 64-bit division
/// by 2^14 so: `ULEA.HI UR7, UP0, UR7, UR6, URZ, 0xe` adds the sign's
/// bias). Here `x = n + 15` for `n = -16` (x = -1): `q = (x + 15) >> 4 =
/// 0`, so every lane loads (4 sectors). Before the rule the `.X` took the
/// first add's carry (`x >> 32`: all ones) and `q` was -1 (no lane).
#[test]
fn lea_hi_carry_out() {
    let (b, at) = with_load(
        &[
            "S2R R0, SR_TID.X",
            "ULDC.64 UR8, c[0x0][0x218]",
            "UIADD3 UR6, UP0, UR8, 0xf, URZ",
            "UIADD3.X UR15, URZ, UR9, URZ, UP0, !UPT",
            "USHF.R.S32.HI UR7, URZ, 0x1f, UR15",
            "ULEA.HI UR7, UP0, UR7, UR6, URZ, 0x4",
            "UIADD3.X UR15, URZ, UR15, URZ, UP0, !UPT",
            "USHF.R.S64 UR7, UR7, 0x4, UR15",
            "ISETP.NE.AND P0, PT, RZ, UR7, PT",
        ],
        "@!P0",
    );
    assert_eq!(figures_at(&listing(SM90, &b), -16, at), (Some(1), 4.0));
}

/// The warpgroup MMAs read their shared-memory operands as the PTX
/// `wgmma.mma_async` does (`cost::tensor_operand`: (bytes of A when A is
/// read through a descriptor + bytes of B) / 128 / 4 wavefronts a request,
/// one request a warp). Expected, for a 128-thread block (one warpgroup,
/// 4 requests each): `HGMMA.64x64x16.F32` with A and B through
/// `gdesc[UR12]` (f16: 2,048 + 2,048 bytes) 8; with A in registers
/// (`R88`, 2,048 bytes of B) 4; `HGMMA.64x128x16.F32.BF16` 12;
/// `QGMMA.64x128x32.F32.E4M3.E4M3` (2,048 + 4,096) 12; `IGMMA.64x64x32.S8.S8`
/// 8; `HGMMA.64x64x8.F32.TF32` (2,048 + 2,048) 8 — the figures measured on
/// the H100 for the same PTX shapes (`tests/hw/blind*/known.txt`, the
/// "HGMMA" rows: 12 and 8 a request for Triton's 64x128x16 and 64x64x16,
/// 4 with A in registers).
#[test]
fn gmma_operands_are_tensor_reads() {
    let body = [
        "HGMMA.64x64x16.F32 R24, gdesc[UR12], RZ, !UPT",
        "HGMMA.64x64x16.F32 R56, R88, gdesc[UR8].tnspB, R56",
        "HGMMA.64x128x16.F32.BF16 R24, gdesc[UR12], R24",
        "QGMMA.64x128x32.F32.E4M3.E4M3 R24, gdesc[UR12], R24",
        "IGMMA.64x64x32.S8.S8 R24, gdesc[UR12], R24",
        "HGMMA.64x64x8.F32.TF32 R24, gdesc[UR12], R24, gsb0",
        "EXIT",
    ];
    let text: String = body
        .iter()
        .enumerate()
        .map(|(k, i)| format!("        /*{:04x}*/                   {i} ;\n", k * 16))
        .collect();
    let file = listing(SM90, &text);
    let opts = Options {
        launch: LaunchConfig {
            block: Some([128, 1, 1]),
            grid: Some([1, 1, 1]),
            params: Vec::new(),
        },
        ..Options::default()
    };
    let a = warpscope::analyze(&file, &opts);
    assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics);
    let got: Vec<(Option<u32>, Option<u64>, Option<f64>)> = a.kernels[0]
        .accesses
        .iter()
        .map(|x| (x.sass_offset, x.requests, x.shared_wavefronts))
        .collect();
    let want = [8.0, 4.0, 12.0, 12.0, 8.0, 8.0];
    assert_eq!(got.len(), want.len(), "{got:?}");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(*g, (Some(16 * k as u32), Some(4), Some(w)), "{got:?}");
    }
}

/// `@!P0 BRA P1, target` branches where the guard *and* the predicate
/// operand hold: ptxas folds a loop's two exit tests into it (blind5's
/// `ln_bwd_fused`: `r < r0 + rows_per_block && r < rows`). Here a
/// do-while of at most 8 trips (`P0`: the trip count reached 8) that also
/// stops at `n` (`P1`: `r < n`), one load a trip. Expected: n = 3, 3
/// requests; n = 20, 8. Before the rule the operand was dropped and the
/// loop always ran 8 trips.
#[test]
fn branch_with_a_predicate_operand_needs_both() {
    let (body, ldg) = numbered(&[
        "S2R R0, SR_TID.X",
        "LDC.64 R2, c[0x0][0x210]",
        "IMAD.WIDE R2, R0, 0x4, R2",
        "MOV R8, RZ",
        ".L_x_0:",
        "LDG.E R4, desc[UR4][R2.64]",
        "IADD3 R8, R8, 0x1, RZ",
        "ULDC UR5, c[0x0][0x218]",
        "ISETP.GE.AND P0, PT, R8, 0x8, PT",
        "ISETP.LT.AND P1, PT, R8, UR5, PT",
        "@!P0 BRA P1, `(.L_x_0)",
        "EXIT",
    ]);
    let f = listing(SM90, &body);
    let with_n = |n: i64| figures_with(&f, &[(0, 1i64 << 32), (1, n)], ldg).0;
    assert_eq!(with_n(3), Some(3));
    assert_eq!(with_n(20), Some(8));
}

/// CUB's radix-rank counters in SASS (blind7's `cub_hist_sort`,
/// block_radix_rank.cuh:473): the digit of a loaded byte picks a 16-bit
/// counter at `4 * tid + 2 * ((d & 8) >> 3)`: `BMSK R15, RZ, 0x4` (0xf),
/// `LOP3.LUT R16, R15, 0xf8, R24, 0x80` (`d & 8`), `LEA.HI R16, R16, R7,
/// RZ, 0x1e` (`R7 + (R16 >> 2)`). The data moves bit 1 only, within each
/// lane's own 4-byte word: every lane its own bank, one wavefront (the
/// H100 measures 1.000). Before the rules `BMSK` was opaque and `LEA.HI`'s
/// funnel shift lost the bounds: the address was data over 2^32 bytes,
/// 3.51 wavefronts.
#[test]
fn digit_counter_offsets_keep_their_bounds() {
    let (body, _) = numbered(&[
        "S2R R14, SR_TID.X",
        "LDC.64 R4, c[0x0][0x210]",
        "IMAD.WIDE R4, R14, 0x1, R4",
        "LDG.E.U8 R24, desc[UR8][R4.64]",
        "BMSK R15, RZ, 0x4",
        "LOP3.LUT R16, R15, 0xf8, R24, 0x80, !PT",
        "IMAD R7, R14, 0x4, RZ",
        "LEA.HI R16, R16, R7, RZ, 0x1e",
        "LDS.U16 R17, [R16]",
        "EXIT",
    ]);
    let f = listing(SM90, &body);
    let a = warpscope::analyze(&f, &Options::default());
    assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics);
    let lds = a.kernels[0]
        .accesses
        .iter()
        .find(|x| x.sass_offset == Some(0x80))
        .expect("the LDS at 0x80");
    assert_eq!(lds.shared_wavefronts, Some(1.0), "{}", lds.lane_pattern);
}
