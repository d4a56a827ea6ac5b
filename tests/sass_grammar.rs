//! Every production of `grammar/sass.ebnf`, exercised by name with examples
//! the SASS parser must accept (no diagnostic) and reject (a diagnostic).
//! A meta-test checks that the table and the grammar name the same
//! productions.

#[derive(Clone, Copy)]
enum Ctx {
    /// The whole listing, as is.
    File,
    /// A line inside a cuobjdump function block.
    Line,
    /// An instruction after `/*0000*/`, `;` appended.
    Instr,
    /// The second operand of `MOV R0, _ ;`.
    Operand,
}

fn wrap(ctx: Ctx, text: &str) -> String {
    let head = "\tcode for sm_90\n\t\tFunction : k\n";
    match ctx {
        Ctx::File => text.to_string(),
        Ctx::Line => format!("{head}{text}\n"),
        Ctx::Instr => format!("{head}        /*0000*/ {text} ;\n"),
        Ctx::Operand => format!("{head}        /*0000*/ MOV R0, {text} ;\n"),
    }
}

fn diagnostics(src: &str) -> usize {
    warpscope::sass::parse(src).1.len()
}

struct Case {
    production: &'static str,
    ctx: Ctx,
    accept: &'static [&'static str],
    reject: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case { production: "listing", ctx: Ctx::File, accept: &["", "\n\n", "\tcode for sm_90\r\n\t\tFunction : k\r\n        /*0000*/ EXIT ;\r\n"], reject: &["garbage\n"] },
    Case { production: "line", ctx: Ctx::Line, accept: &["", "   ", "// c"], reject: &["what is this"] },
    Case { production: "newline", ctx: Ctx::File, accept: &["\tcode for sm_90\r\n\n"], reject: &["\tcode for sm_90\r\nx\r\n"] },
    Case { production: "comment_line", ctx: Ctx::Line, accept: &["//--------------------- .text.k --------------------------", "//----- nvinfo : EIATTR_KPARAM_INFO", "//"], reject: &["/ not a comment"] },
    Case { production: "line_info", ctx: Ctx::Line, accept: &["//## File \"/tmp/k.cu\", line 12", "//## File \"k.cu\", line 39 inlined at \"k.cu\", line 44", "//## File \".nv_debug_ptx_txt\", line 79", "//## File \"a.cu\", line 3, column 7"], reject: &["//## File k.cu, line 12", "//## File \"k.cu\", line twelve", "//## File \"k.cu\", line 1 inlined"] },
    Case { production: "string", ctx: Ctx::Line, accept: &["//## File \"with spaces/and-dashes.cu\", line 1"], reject: &["//## File \"unterminated, line 1"] },
    Case { production: "instruction_line", ctx: Ctx::Line, accept: &["        /*0120*/               @P0 LDG.E R2, desc[UR4][R2.64] ;", "/*0010*/ NOP;"], reject: &["/*0120*/ LDG.E R2, [R2.64]", "/*0120*/ ;"] },
    Case { production: "offset", ctx: Ctx::Line, accept: &["/*0000*/ EXIT ;", "/*1f0a0*/ EXIT ;"], reject: &["/*00g0*/ EXIT ;", "/*0000 EXIT ;"] },
    Case { production: "encoding", ctx: Ctx::Line, accept: &["/*0000*/ EXIT ; /* 0x000000000000794d */"], reject: &["/*0000*/ EXIT ; /* 0xzz */", "/*0000*/ EXIT ; trailing"] },
    Case { production: "encoding_line", ctx: Ctx::Line, accept: &["/*0000*/ EXIT ; /* 0x000000000000794d */\n                /* 0x000fea0003800000 */"], reject: &["/*0000*/ EXIT ;\n /* 0x000fea0003800000 */ extra"] },
    Case { production: "guard", ctx: Ctx::Instr, accept: &["@P0 EXIT", "@!PT LDS RZ, [RZ]", "@UP1 UTMALDG.2D [UR8], [UR4]", "@!UPT EXIT"], reject: &["@R0 EXIT", "@ EXIT", "@P9 EXIT"] },
    Case { production: "mnemonic", ctx: Ctx::Instr, accept: &["HMMA.16816.F32.BF16 R24, R20, R2, R24", "STTM.16dp64bit.x2 tmem[UR6+0x20], R4"], reject: &["hmma R0"] },
    Case { production: "opcode", ctx: Ctx::Instr, accept: &["UTCATOMSWS.AND URZ, UR4", "I2FP.F32.S32 R0, R1"], reject: &["3ADD R0"] },
    Case { production: "modifier", ctx: Ctx::Instr, accept: &["LDSM.16.MT88.4 R12, [R3+0x200]"], reject: &["LDG.E.# R0, [R2]"] },
    Case { production: "operand_list", ctx: Ctx::Instr, accept: &["BRX R2 -0x160", "CALL.REL.NOINC R2 0x0", "IADD3 R0, R1, R2, RZ"], reject: &["IADD3 R0, , R2", "IADD3 R0,"] },
    Case { production: "annotation", ctx: Ctx::Instr, accept: &["BRX R2 -0x160 (*\"BRANCH_TARGETS .L_x_10,.L_x_1\"*)", "STL [R1], R20 (*\"SpillRefill\"*)"], reject: &["STL [R1], R20 (*\"never closed\""] },
    Case { production: "operand", ctx: Ctx::Operand, accept: &["-R2", "!P0", "~R3", "|R4|", "-|R5|", "R6.reuse", "|R7|.reuse"], reject: &["|R4", "-"] },
    Case { production: "prefix", ctx: Ctx::Operand, accept: &["-|R5|", "!PT"], reject: &["!!"] },
    Case { production: "atom", ctx: Ctx::Operand, accept: &["R1", "0x1f", "1.5", "c[0x0][0x210]", "[R2]", "gdesc[UR4]", "`(.L_x_0)", "32@lo(sym)", "{1,2}", "TEX_HEADER_DIMENSION"], reject: &["%r1", "#1"] },
    Case { production: "register", ctx: Ctx::Operand, accept: &["R255", "UR63", "P6", "UP6", "B15", "SB5", "SR_TID.X"], reject: &["R256"] },
    Case { production: "gpr", ctx: Ctx::Operand, accept: &["R0", "RZ", "R2.64"], reject: &["R999"] },
    Case { production: "uniform", ctx: Ctx::Operand, accept: &["UR4", "URZ"], reject: &["UR300"] },
    Case { production: "predicate", ctx: Ctx::Instr, accept: &["@P0 EXIT", "@PT EXIT"], reject: &["@P8 EXIT"] },
    Case { production: "uniform_pred", ctx: Ctx::Instr, accept: &["@UP0 EXIT", "@UPT EXIT"], reject: &["@UP8 EXIT"] },
    Case { production: "barrier", ctx: Ctx::Instr, accept: &["BSYNC B0", "BMOV.32.CLEAR RZ, B15"], reject: &["BSYNC B0,"] },
    Case { production: "scoreboard", ctx: Ctx::Instr, accept: &["DEPBAR.LE SB0, 0x36"], reject: &["DEPBAR.LE SB0 0x36,"] },
    Case { production: "special", ctx: Ctx::Instr, accept: &["S2R R0, SR_TID.X", "S2UR UR4, SR_CgaCtaId", "CS2R R4, SRZ", "S2R.32 R2, SR_CLOCKHI"], reject: &["S2R R0, SR_TID."] },
    Case { production: "integer", ctx: Ctx::Operand, accept: &["0x7fffffff", "-0x160", "12", "+3", "0xffffffffffffffff"], reject: &["0x1ffffffffffffffff", "99999999999999999999"] },
    Case { production: "float", ctx: Ctx::Operand, accept: &["1.80143985094819840000e+16", "-0.5", "+INF", "-QNAN", "1e+10"], reject: &["1.5.5"] },
    Case { production: "name", ctx: Ctx::Operand, accept: &["2D", "1D_ARRAY", "gsb0", "$x"], reject: &["2D$!"] },
    Case { production: "const_bank", ctx: Ctx::Operand, accept: &["c[0x0][0x210]", "c[0x3][R2+0x10]", "cx[UR4][R0]", "c[0x0][RZ]"], reject: &["c[0x0]", "c[R1+R2][0x0]", "c[0x0][0x10"] },
    Case { production: "memory", ctx: Ctx::Operand, accept: &["desc[UR4][R2.64+0x10]", "[R1+0x4]", "[R8+UR4+0x80]", "[UR6+0x10000]", "[R6.64+-0x4]"], reject: &["desc[UR4]", "desc[0x1][R2]", "[]", "[R2 R3]"] },
    Case { production: "descriptor", ctx: Ctx::Operand, accept: &["gdesc[UR4].tnspB", "tmem[UR6+0x20]", "idesc[UR35]"], reject: &["tmem[", "gdesc[%r]"] },
    Case { production: "address", ctx: Ctx::Operand, accept: &["[R2.64+UR4+0x10]", "[-0x10]", "[R0.X4+UR4]"], reject: &["[R2.64+]", "[+]"] },
    Case { production: "address_term", ctx: Ctx::Operand, accept: &["[R2.U32+UR4]", "[0x10]"], reject: &["[Q2]"] },
    Case { production: "label_ref", ctx: Ctx::Instr, accept: &["BRA `(.L_x_0)", "CALL.REL.NOINC `($calls$sum3)", "BSSY B0, `(.L_x_3)"], reject: &["BRA `.L_x_0", "BRA `()", "BRA `(.L_x_0"] },
    Case { production: "relocation", ctx: Ctx::Operand, accept: &["32@lo(sym)", "32@hi(sym+0x10)", "fn@srel"], reject: &["32@lo(sym"] },
    Case { production: "brace_list", ctx: Ctx::Instr, accept: &["DEPBAR {5,4,3,2,1,0}", "DEPBAR {}"], reject: &["DEPBAR {5,4", "DEPBAR {{{{{{{{{{1}}}}}}}}}}"] },
    Case { production: "directive_line", ctx: Ctx::File, accept: &["\t.section\t.text.k,\"ax\",@progbits\n\t.other\tk,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n\t.target\tsm_90\n\t.sectioninfo\t@\"SHI_REGISTERS=10\"\n"], reject: &["\t.bogus 1\n", "\t.target\n"] },
    Case { production: "directive_name", ctx: Ctx::File, accept: &["\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n\t.elftype\t@\"ET_EXEC\"\n"], reject: &["\t.entry k\n"] },
    Case { production: "data_line", ctx: Ctx::Line, accept: &["/*0004*/ \t.word\t0x00000003", "/*0030*/    .string \"ptxas\"", "/*0068*/ .word index@(.nv.constant0.k)"], reject: &["/*0004*/ .b32 3"] },
    Case { production: "label_line", ctx: Ctx::Line, accept: &[".L_x_12:", "_Z1kPf:", "$k$callee:", ".text.k:"], reject: &["a b:", ".L@x:"] },
    Case { production: "label_name", ctx: Ctx::Line, accept: &["$__internal_0_$__cuda_sm3x_div_rn_noftz_f32_slowpath:"], reject: &["lab#el:"] },
    Case { production: "header_line", ctx: Ctx::File, accept: &["\nFatbin elf code:\n================\narch = sm_90\ncode version = [1,8]\nhost = linux\ncompile_size = 64bit\n\n\tcode for sm_90\n\t\tFunction : k\n\t\t..........\n", "\nFatbin elf code:\n================\narch = sm_90\ncode version = [1,8]\nhost = linux\ncompile_size = 64bit\ncompressed\n\n\tcode for sm_90\n\t\tFunction : k\n"], reject: &["\t\tFunction :\n", "colour = blue\n"] },
    Case { production: "fatbin_header", ctx: Ctx::File, accept: &["Fatbin ptx code:\n.version 9.0\nanything at all\nFatbin elf code:\n"], reject: &["Fatbin lisp code:\n"] },
    Case { production: "header_key", ctx: Ctx::File, accept: &["identifier = indirect.cu\nproducer = <unknown>\n"], reject: &["colour = blue\n"] },
    Case { production: "arch", ctx: Ctx::File, accept: &["\tcode for sm_100a\n", "\t.target\tsm_120\n"], reject: &["\t.target\n"] },
    Case { production: "symbol", ctx: Ctx::File, accept: &["\t\tFunction : _Z8indirectIdEvPT_PKim\n"], reject: &["\t\tFunction : \n"] },
    Case { production: "tool_message", ctx: Ctx::File, accept: &["nvdisasm warning : Dataflow analysis disabled due to previous warnings\n"], reject: &["nvdisasm says hi\n"] },
    Case { production: "hex_digits", ctx: Ctx::Line, accept: &["/*00aF*/ EXIT ;"], reject: &["/*00aG*/ EXIT ;"] },
    Case { production: "dec_number", ctx: Ctx::Operand, accept: &["R12"], reject: &["R012"] },
];

#[test]
fn every_production_accepts_and_rejects_its_examples() {
    let mut bad = Vec::new();
    for c in CASES {
        for a in c.accept {
            let src = wrap(c.ctx, a);
            let (_, d) = warpscope::sass::parse(&src);
            if !d.is_empty() {
                bad.push(format!(
                    "{}: `{a}` rejected: {:?}",
                    c.production,
                    d.iter().map(|d| &d.message).collect::<Vec<_>>()
                ));
            }
        }
        for r in c.reject {
            let src = wrap(c.ctx, r);
            if diagnostics(&src) == 0 {
                bad.push(format!("{}: `{r}` accepted", c.production));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_table_covers_every_production_of_the_grammar() {
    let g = include_str!("../grammar/sass.ebnf");
    let mut in_grammar: Vec<&str> = g
        .lines()
        .filter_map(|l| {
            let (name, _) = l.split_once("::=")?;
            let name = name.trim();
            (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
                .then_some(name)
        })
        .collect();
    let mut in_table: Vec<&str> = CASES.iter().map(|c| c.production).collect();
    in_grammar.sort();
    in_table.sort();
    assert_eq!(in_grammar, in_table);
}

/// A malformed line is one diagnostic and the lines after it are read.
#[test]
fn one_diagnostic_per_bad_line_and_recovery() {
    let src = "\tcode for sm_90\n\t\tFunction : k\n        /*0000*/ LDG.E R2, [R2.64 ;\n        /*0010*/ what ;\n        /*0020*/ EXIT ;\n";
    let (l, d) = warpscope::sass::parse(src);
    assert_eq!(d.len(), 2, "{d:?}");
    assert_eq!(d[0].code, "E0010");
    assert_eq!(l.functions[0].instructions.len(), 1);
    assert_eq!(l.functions[0].instructions[0].opcode(), "EXIT");
    // The diagnostic points into its own line.
    let line2 = src.find("LDG").unwrap() as u32;
    assert!(d[0].span().start >= line2 && d[0].span().start < src.find("/*0010").unwrap() as u32);
}
