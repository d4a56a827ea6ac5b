//! Every production of `grammar/ptx.ebnf`, exercised by name with examples the
//! parser must accept (no error diagnostic) and reject (at least one error).
//! A meta-test checks that the table and the grammar name the same productions.

use warpscope::diagnostic::Severity;

const HEADER: &str = ".version 8.5\n.target sm_90\n.address_size 64\n";

/// Where an example is placed before parsing.
#[derive(Clone, Copy)]
enum Ctx {
    /// The whole file, as is.
    File,
    /// After `.version`/`.target`/`.address_size`.
    Module,
    /// Inside a kernel body that declares %r0-8, %p0-2, %rd0-3, %f0-3.
    Body,
    /// As the second operand of `mov.b32 %r1, _;`.
    Operand,
}

fn wrap(ctx: Ctx, text: &str) -> String {
    match ctx {
        Ctx::File => text.to_string(),
        Ctx::Module => format!("{HEADER}{text}\n"),
        Ctx::Body => format!(
            "{HEADER}.visible .entry k(.param .u64 p)\n{{\n.reg .b32 %r<9>;\n.reg .pred %p<3>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<4>;\n{text}\n}}\n"
        ),
        Ctx::Operand => wrap(Ctx::Body, &format!("mov.b32 %r1, {text};")),
    }
}

fn errors(src: &str) -> Vec<String> {
    let (_, diags) = warpscope::syntax::parse(src);
    diags
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.message)
        .collect()
}

struct Case {
    production: &'static str,
    ctx: Ctx,
    accept: &'static [&'static str],
    reject: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case { production: "ws", ctx: Ctx::Body, accept: &["add.s32\t%r1,\r\n%r2 , 1 ;", "add.s32 %r1, /* c */ %r2, 1;"], reject: &["add.s32 %r1, %r2, 1; /* never closed"] },
    Case { production: "comment", ctx: Ctx::Module, accept: &["// line\n/* block\n over lines */"], reject: &["/* unterminated"] },
    Case { production: "module", ctx: Ctx::File, accept: &["", ".version 8.5\n.target sm_90\n.address_size 64\n.global .u32 x;"], reject: &[".version 8.5\n}"] },
    Case { production: "module_item", ctx: Ctx::Module, accept: &[".global .u32 x;", ".extern .func f();"], reject: &["mov.u32 %r1, 1;", "#include <x>"] },
    Case { production: "version_dir", ctx: Ctx::File, accept: &[".version 9.0\n.target sm_90"], reject: &[".version 9\n.target sm_90", ".version nine"] },
    Case { production: "target_dir", ctx: Ctx::File, accept: &[".version 8.5\n.target sm_90a, texmode_independent, debug"], reject: &[".version 8.5\n.target sm_90,"] },
    Case { production: "address_size_dir", ctx: Ctx::Module, accept: &[".address_size 32"], reject: &[".address_size sixty"] },
    Case { production: "file_dir", ctx: Ctx::Module, accept: &[".file 1 \"a.cu\"", ".file 2 \"/x/b.cu\", 1700000000, 4096"], reject: &[".file \"a.cu\"", ".file 1 \"a.cu"] },
    Case { production: "section_dir", ctx: Ctx::Module, accept: &[".section .debug_abbrev { .b8 1, 17, 1 }", ".section .debug_info\n{\n$L__info:\n.b32 .debug_abbrev\n.b64 $L__func_begin0+4\n}"], reject: &[".section .debug_info { .b8 1"] },
    Case { production: "section_entry", ctx: Ctx::Module, accept: &[".section .debug_loc { $L__a: .b32 $L__b-$L__a }"], reject: &[".section .debug_loc { .b128 1 }", ".section .debug_loc { lbl }"] },
    Case { production: "alias_dir", ctx: Ctx::Module, accept: &[".func f() { ret; }\n.alias g, f;"], reject: &[".alias g f;", ".alias g, f"] },
    Case { production: "pragma_dir", ctx: Ctx::Module, accept: &[".pragma \"nounroll\";"], reject: &[".pragma nounroll;"] },
    Case { production: "linkage", ctx: Ctx::Module, accept: &[".extern .shared .align 16 .b8 smem[];", ".weak .func f() { ret; }", ".common .global .u32 c;", ".visible .global .u32 v;"], reject: &[".extern .bogus x;"] },
    Case { production: "var_decl", ctx: Ctx::Module, accept: &[".global .align 8 .u64 a, b[2];", ".const .v4 .f32 c;"], reject: &[".global .u32 ;", ".global .u32 x"] },
    Case { production: "state_space", ctx: Ctx::Body, accept: &[".reg .b32 r;", ".local .u8 l[16];", ".shared .u32 s;", ".param .b32 pp;"], reject: &[".regs .b32 r;"] },
    Case { production: "var_attr", ctx: Ctx::Module, accept: &[".global .attribute(.managed) .align 4 .v2 .u32 m;", ".global .texref t;"], reject: &[".global .align .u32 x;"] },
    Case { production: "declarator", ctx: Ctx::Body, accept: &[".reg .b32 %q<4>;", ".local .u32 a[2][3];", ".local .u32 z = 5;"], reject: &[".reg .b32 %q<>;", ".local .u32 a[;"] },
    Case { production: "init_value", ctx: Ctx::Module, accept: &[".global .u32 x[3] = {1, -2, 0x3};", ".global .u64 p = generic(x)+4;", ".global .u8 m[2] = {0xff(x), 0xff00(x)};", ".global .samplerref s = { addr_mode_0 = clamp_to_edge, filter_mode = linear };", ".global .u32 t[2][2] = {{1, 2}, {3, 4}};"], reject: &[".global .u32 x = ;", ".global .u32 x[2] = {1, 2;"] },
    Case { production: "function", ctx: Ctx::Module, accept: &[".visible .entry k() { ret; }", ".func (.param .b32 r) f(.param .b32 a) { ret; }", ".extern .func g(.param .b64 a);"], reject: &[".entry () { ret; }", ".entry k() ret;"] },
    Case { production: "param_list", ctx: Ctx::Module, accept: &[".entry k(.param .u64 .ptr .global .align 16 p, .param .align 8 .b8 s[24]) { ret; }"], reject: &[".entry k(.param .u64 p .param .u64 q) { ret; }"] },
    Case { production: "param_decl", ctx: Ctx::Module, accept: &[".func f(.reg .b32 a) { ret; }"], reject: &[".entry k(.u64 p) { ret; }"] },
    Case { production: "func_directive", ctx: Ctx::Module, accept: &[".entry k() .maxntid 256, 1, 1 .minnctapersm 4 .maxnreg 64 { ret; }", ".entry k() .reqntid 128 .reqnctapercluster 2, 1, 1 .explicitcluster .maxclusterrank 8 { ret; }", ".func f() .noreturn { trap; }", ".entry k() .pragma \"nounroll\"; { ret; }"], reject: &[".entry k() .maxntid 256, { ret; }"] },
    Case { production: "body", ctx: Ctx::Module, accept: &[".entry k() { { .reg .b32 a; } { } ret; }"], reject: &[".entry k() { ret;"] },
    Case { production: "statement", ctx: Ctx::Body, accept: &["L1: @%p1 bra L1;"], reject: &["123;"] },
    Case { production: "label", ctx: Ctx::Body, accept: &["$L__BB0_1:\nret;", "L: ret;"], reject: &["1L: ret;"] },
    Case { production: "var_decl_stmt", ctx: Ctx::Body, accept: &[".extern .shared .align 16 .b8 dyn[];", ".shared .align 4 .b8 s[128];"], reject: &[".extern .b8 x;"] },
    Case { production: "loc_dir", ctx: Ctx::Body, accept: &[".loc 1 22 5", ".loc 1 22 5, function_name $L__info_string0, inlined_at 1 10 3", ".loc 2 7 0, function_name $L__info_string1+12"], reject: &[".loc 1 22", ".loc 1 22 5, inlined_at 1 2"] },
    Case { production: "branchtargets", ctx: Ctx::Body, accept: &["ts: .branchtargets A, B;\nA: ret;\nB: ret;"], reject: &["ts: .branchtargets ;"] },
    Case { production: "callprototype", ctx: Ctx::Body, accept: &["pt: .callprototype (.param .b32 _) _ (.param .b64 _);", "pt2: .callprototype _ ();"], reject: &["pt: .callprototype (.param .b32 _) (.param .b64 _);"] },
    Case { production: "calltargets", ctx: Ctx::Body, accept: &["ct: .calltargets f, g;"], reject: &["ct: .calltargets f g;", ".maxnreg 32;"] },
    Case { production: "instruction", ctx: Ctx::Body, accept: &["ret;", "add.s32 %r1, %r2, 1;", "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%f1, %f2, %f3, %f0}, %rd1, %rd2, 1, 1, 1, 1, 1;"], reject: &["add.s32 %r1 %r2;", "add.s32 %r1, %r2,;"] },
    Case { production: "guard", ctx: Ctx::Body, accept: &["@%p1 ret;", "@!%p1 ret;", "@ !%p2 bra.uni L;\nL: ret;"], reject: &["@ ret;", "@!1 ret;"] },
    Case { production: "mnemonic", ctx: Ctx::Body, accept: &["cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd2], 16, [%rd3];", "ld.global.L2::128B.v4.f32 {%f0, %f1, %f2, %f3}, [%rd1];"], reject: &["add..s32 %r1, %r2, 1;", ".add %r1;"] },
    Case { production: "operand", ctx: Ctx::Body, accept: &["setp.lt.s32 %p1|%p2, %r1, 4;", "and.pred %p1, %p2, !%p1;"], reject: &["setp.lt.s32 %p1|, %r1, 4;"] },
    Case { production: "operand_atom", ctx: Ctx::Body, accept: &["st.global.v4.u32 [%rd1], {%r1, %r2, _, %r3};", "mov.u64 %rd1, sym+8;", "mov.u32 %r1, %tid.x;"], reject: &["mov.u32 %r1, #;"] },
    Case { production: "register", ctx: Ctx::Operand, accept: &["%r1", "%envreg3", "%clock64"], reject: &["%", "%%r1"] },
    Case { production: "component", ctx: Ctx::Body, accept: &["mov.u32 %r1, %ctaid.y;", "vadd.s32.u32.s32.sat %r1, %r2.h0, %r3.b3, %r4;"], reject: &["vadd.s32.u32.s32 %r1, %r2.b7, %r3, %r4;"] },
    Case { production: "address", ctx: Ctx::Body, accept: &["ld.global.u32 %r1, [%rd1];", "ld.global.u32 %r1, [%rd1+8];", "ld.global.u32 %r1, [%rd1+-8];", "ld.const.u32 %r1, [tbl+4];", "ld.local.u32 %r1, [100];", "tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, s, {%f1, %f2}];"], reject: &["ld.global.u32 %r1, [%rd1-8];", "ld.global.u32 %r1, [%rd1+];", "ld.global.u32 %r1, [%rd1;"] },
    Case { production: "vector_operand", ctx: Ctx::Operand, accept: &["{%r1, %r2}", "{_, %r2}"], reject: &["{%r1, %r2", "{%r1 %r2}"] },
    Case { production: "paren_list", ctx: Ctx::Body, accept: &["call.uni (%r1), f, (%r2, %r3);", "call.uni f, ();", "call (%r1), %rd1, (%r2), pt;"], reject: &["call.uni (%r1, f;"] },
    Case { production: "identifier", ctx: Ctx::Module, accept: &[".global .u32 $x_1, _y, a$b;"], reject: &[".global .u32 1x;"] },
    Case { production: "dot_word", ctx: Ctx::Module, accept: &[".global .b8 x;"], reject: &[". global .b8 x;"] },
    Case { production: "string", ctx: Ctx::Module, accept: &[".file 1 \"dir/with spaces/a.cu\""], reject: &[".file 1 \"no closing quote\n"] },
    Case { production: "integer", ctx: Ctx::Operand, accept: &["0", "42", "-7", "0x1F", "0XffU", "0b101", "017", "18446744073709551615U"], reject: &["0x", "12abc", "0b2", "99999999999999999999999"] },
    Case { production: "float_literal", ctx: Ctx::Operand, accept: &["0f3F800000", "0F00000000", "0d3FF0000000000000", "0D0000000000000000", "-0fBF800000", "1.5", "2.5e-3", "1e10"], reject: &["0f3F8", "0d3FF0"] },
    Case { production: "const_expr", ctx: Ctx::Operand, accept: &["(4*8+2)", "(1 << 4) | 3", "-(7 % 4)", "~0", "(10 > 3) ? 1 : 0", "(.s64) -1"], reject: &["(1 +)", "(1 / 0)", "(1 ? 2)"] },
    Case { production: "cond_expr", ctx: Ctx::Operand, accept: &["1 ? 2 : 3", "(0 ? 2 : 3)"], reject: &["1 ? 2 3"] },
    Case { production: "binary_expr", ctx: Ctx::Operand, accept: &["1 + 2 * 3 - 4 / 2 % 3", "1 || 0 && 1 | 2 ^ 3 & 1 == 1 != 0 < 2 > 1 <= 3 >= 0 << 1 >> 1"], reject: &["1 + * 2"] },
    Case { production: "binary_op", ctx: Ctx::Operand, accept: &["(6 ^ 3)", "(6 & 3)", "(6 <= 3)"], reject: &["(6 ** 3)", "(6 =< 3)"] },
    Case { production: "unary_expr", ctx: Ctx::Operand, accept: &["-(1)", "~(0x0F)", "!0", "(.u64) 5"], reject: &["~", "(.f32) 1"] },
    Case { production: "digits", ctx: Ctx::File, accept: &[".version 10.12"], reject: &[".version 8.x"] },
];

#[test]
fn accepted_examples_parse_without_errors() {
    for c in CASES {
        for ex in c.accept {
            let src = wrap(c.ctx, ex);
            let errs = errors(&src);
            assert!(
                errs.is_empty(),
                "{}: `{ex}` should be accepted, got {errs:?}",
                c.production
            );
        }
    }
}

#[test]
fn rejected_examples_are_diagnosed() {
    for c in CASES {
        assert!(
            !c.reject.is_empty(),
            "{} has no rejected example",
            c.production
        );
        for ex in c.reject {
            let src = wrap(c.ctx, ex);
            assert!(
                !errors(&src).is_empty(),
                "{}: `{ex}` should be rejected",
                c.production
            );
        }
    }
}

#[test]
fn every_grammar_production_is_tested() {
    let ebnf =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar/ptx.ebnf")).unwrap();
    let mut in_grammar: Vec<&str> = ebnf
        .lines()
        .filter_map(|l| l.split_once("::=").map(|(name, _)| name.trim()))
        .filter(|n| !n.is_empty() && !n.contains(' '))
        .collect();
    let mut tested: Vec<&str> = CASES.iter().map(|c| c.production).collect();
    in_grammar.sort();
    tested.sort();
    assert_eq!(
        in_grammar, tested,
        "grammar/ptx.ebnf and tests/grammar.rs must name the same productions"
    );
}
