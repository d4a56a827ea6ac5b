//! The warp IR as the PTX front end produces it: source locations with their
//! full inline chain, memory operations, branch targets.

use warpscope::ir::{AccessOp, Form, MemKind, OpKind, Space};
use warpscope::source::SourceFile;

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("tests/fixtures/ir/{name}")).expect("fixture")
}

/// `file:line:column` of each level, innermost first.
fn chain(loc: &warpscope::SourceLocation) -> Vec<String> {
    let mut out = vec![format!("{}:{}:{}", loc.file, loc.line, loc.column)];
    let mut at = loc.inlined_at.as_deref();
    while let Some(l) = at {
        out.push(format!("{}:{}:{}", l.file, l.line, l.column));
        at = l.inlined_at.as_deref();
    }
    out
}

#[test]
fn a_three_level_inline_chain_is_kept_whole() {
    let text = fixture("inline_chain.ptx");
    // In the IR: the load's location is the header line, inlined into the
    // project helper, inlined into the kernel's line 7.
    let funcs = warpscope::pipeline::lower_text(&text);
    let f = &funcs[0];
    let load = f
        .op_ids()
        .find(|&id| matches!(&f.op(id).kind, OpKind::Mem { info, .. } if info.op == AccessOp::Load))
        .expect("a load");
    let levels: Vec<(u32, u32, u32)> = f
        .loc_chain(load)
        .map(|l| (l.file, l.line, l.column))
        .collect();
    assert_eq!(levels, vec![(3, 40, 13), (2, 12, 9), (1, 7, 5)]);
    // In the analysis results, with file names.
    let file = SourceFile::from_text("inline_chain.ptx", text.clone());
    let a = warpscope::analyze(&file, &Default::default());
    let accesses = &a.kernels[0].accesses;
    assert_eq!(
        chain(accesses[0].source.as_ref().expect("a location")),
        [
            "vendor_header.h:40:13",
            "project_helper.cuh:12:9",
            "kernel.cu:7:5"
        ]
    );
    // The store after `.loc 1 8 5` is the kernel's own line.
    assert_eq!(
        chain(accesses[1].source.as_ref().expect("a location")),
        ["kernel.cu:8:5"]
    );
}

#[test]
fn memory_ops_are_first_class() {
    let text = ".version 8.5\n.target sm_90\n.address_size 64\n\
        .visible .entry k(.param .u64 p)\n{\n\
        .reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n\
        ld.param.u64 %rd1, [p];\n\
        ld.global.nc.L1::evict_last.v4.u32 {%r1, %r2, %r1, %r2}, [%rd1+16];\n\
        atom.global.add.u32 %r1, [%rd1], 1;\n\
        red.shared.add.u32 [%rd2], %r1;\n\
        st.global.cs.u8 [%rd1], %r2;\n\
        ret;\n}\n";
    let funcs = warpscope::pipeline::lower_text(text);
    let mems: Vec<_> = funcs[0]
        .ops
        .iter()
        .filter_map(|o| match &o.kind {
            OpKind::Mem { info, .. } => Some(info.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(mems.len(), 4);
    let v4 = &mems[0];
    assert_eq!(
        (v4.op, v4.kind, v4.space, v4.elem_bits, v4.vector, v4.bits),
        (AccessOp::Load, MemKind::Plain, Space::Global, 32, 4, 128)
    );
    assert!(v4.cache.non_coherent);
    assert_eq!(v4.cache.l1_eviction, Some(warpscope::ir::Eviction::Last));
    assert_eq!(
        (mems[1].op, mems[1].kind),
        (AccessOp::Atomic, MemKind::Atomic)
    );
    assert_eq!(
        (mems[2].op, mems[2].kind, mems[2].space, mems[2].no_result),
        (AccessOp::Atomic, MemKind::Reduction, Space::Shared, true)
    );
    assert_eq!(mems[3].cache.cache_op, Some(warpscope::ir::CacheOp::Cs));
    assert_eq!((mems[3].elem_bits, mems[3].bits), (8, 8));
}

#[test]
fn branches_name_their_target_ops() {
    let text = ".version 8.5\n.target sm_90\n.address_size 64\n\
        .visible .entry k()\n{\n\
        .reg .pred %p<2>;\n.reg .b32 %r<2>;\n\
        mov.u32 %r1, %tid.x;\n\
        setp.eq.u32 %p1, %r1, 0;\n\
        @%p1 bra DONE;\n\
        brx.idx %r1, TABLE;\n\
        TABLE: .branchtargets A, DONE, A;\n\
        A:\n\
        add.u32 %r1, %r1, 1;\n\
        DONE:\n\
        ret;\n}\n";
    let funcs = warpscope::pipeline::lower_text(text);
    let f = &funcs[0];
    let label = |name: &str| {
        f.labels
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(id, _)| *id)
            .expect("label")
    };
    let branches: Vec<_> = f
        .ops
        .iter()
        .filter_map(|o| match &o.kind {
            OpKind::Branch {
                target, indexed, ..
            } => Some((*target, indexed.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        branches,
        vec![
            (Some(label("DONE")), vec![]),
            (None, vec![label("A"), label("DONE"), label("A")])
        ]
    );
    assert_eq!(f.op(label("A")).form, Form::Label);
    assert_eq!(f.ops.len(), f.spans.len());
    assert_eq!(f.ops.len(), f.locs.len());
}

/// How many frames of its inline chain ptxas's line table holds at each
/// store (`lower::module::line_frames`, `tests/hw/line_attribution.md`):
/// the call sites get a row of their own the first time code inlined below
/// them is placed; a call site whose `.loc` was only an instruction's own
/// location gets one then; code at an unchanged location shares the rows
/// of the code before it.
#[test]
fn line_table_frames_follow_the_call_site_rows() {
    let text = r#"
.version 8.0
.target sm_90
.address_size 64
.file 1 "/tmp/k.cu"
.file 2 "/tmp/store.cuh"
.file 3 "/tmp/copy.cuh"
.shared .align 4 .b8 s[1024];
.visible .entry k()
{
	.reg .b32 %r<8>;
	.reg .f32 %f<2>;
	.loc	1 10 5
	mov.u32 	%r1, %tid.x;
	shl.b32 	%r2, %r1, 2;
	mov.u32 	%r3, s;
	add.s32 	%r4, %r3, %r2;
	mov.f32 	%f1, 0f3F800000;
	.loc	1 12 5
	.loc	2 20 7, function_name $L__info_string0, inlined_at 1 12 5
	.loc	3 60 3, function_name $L__info_string1, inlined_at 2 20 7
	st.shared.f32 	[%r4], %f1;
	st.shared.f32 	[%r4+4], %f1;
	.loc	2 20 7, function_name $L__info_string0, inlined_at 1 12 5
	add.s32 	%r5, %r4, 8;
	.loc	3 60 3, function_name $L__info_string1, inlined_at 2 20 7
	st.shared.f32 	[%r5], %f1;
	.loc	1 13 5
	add.s32 	%r6, %r4, 12;
	.loc	3 60 3, function_name $L__info_string1, inlined_at 2 20 7
	st.shared.f32 	[%r6], %f1;
	ret;
}
"#;
    let file = SourceFile::from_text("frames.ptx", text.to_string());
    let a = warpscope::analyze(&file, &Default::default());
    let stores: Vec<(Vec<String>, u32)> = a.kernels[0]
        .accesses
        .iter()
        .map(|a| (chain(a.source.as_ref().expect("source")), a.line_frames))
        .collect();
    let full = |l: &str| {
        vec![
            l.to_string(),
            "/tmp/store.cuh:20:7".into(),
            "/tmp/k.cu:12:5".into(),
        ]
    };
    assert_eq!(
        stores,
        vec![
            // a fresh run of `.loc`s: the store's line and both call sites
            (full("/tmp/copy.cuh:60:3"), 3),
            // the same location: no row of its own, those of the store before
            (full("/tmp/copy.cuh:60:3"), 3),
            // the call site's `.loc` was the `add`'s own location: it gets its
            // call-site row here (k.cu:12's row is there already)
            (full("/tmp/copy.cuh:60:3"), 2),
            // under the same call-site `.loc` again, after other code: the
            // store's own line only
            (full("/tmp/copy.cuh:60:3"), 1),
        ]
    );
}

/// A barrier named by a register reads it: `bar.arrive %r3, 64` (a loop's
/// named barrier, `tests/hw/blind8` `warpspec_namedbar`) leaves `%r3` as it
/// was, so an address built from it stays known. Lowering once treated the
/// first operand of every unmodelled instruction as written.
#[test]
fn a_named_barrier_reads_its_register() {
    let text = ".version 8.5\n.target sm_90\n.address_size 64\n\
        .visible .entry k(.param .u64 p)\n{\n\
        .reg .b64 %rd<5>;\n.reg .b32 %r<6>;\n\
        ld.param.u64 %rd1, [p];\n\
        cvta.to.global.u64 %rd2, %rd1;\n\
        mov.u32 %r1, %ctaid.x;\n\
        and.b32 %r3, %r1, 7;\n\
        bar.arrive %r3, 64;\n\
        mov.u32 %r2, %tid.x;\n\
        shl.b32 %r4, %r3, 5;\n\
        add.s32 %r5, %r4, %r2;\n\
        mul.wide.u32 %rd3, %r5, 4;\n\
        add.s64 %rd4, %rd2, %rd3;\n\
        st.global.f32 [%rd4], 0f00000000;\n\
        ret;\n}\n";
    let funcs = warpscope::pipeline::lower_text(text);
    assert!(!funcs[0].ops.iter().any(|o| match &o.kind {
        OpKind::Other { dsts, .. } => !dsts.is_empty(),
        _ => false,
    }));
    let file = SourceFile::from_text("bar.ptx", text);
    let a = warpscope::analyze(&file, &Default::default());
    let st = &a.kernels[0].accesses[0];
    assert_eq!(st.pattern, warpscope::analysis::Pattern::Coalesced);
    assert_eq!(st.per_request.sectors, 4.0);
}

#[test]
fn pointer_parameters_are_found_through_pointer_arithmetic() {
    let text = fixture("pointer_flow.ptx");
    let funcs = warpscope::pipeline::lower_text(&text);
    // x reaches the `cp.async` source through `mov` and a loop-carried
    // `add`; y and off reach the store only as their sum (neither is
    // known to be the pointer there); count reaches no address; z reaches
    // its store through a copy made below the use in code order (the second
    // pass); off2 and off3 are offsets added to a loaded pointer and to a
    // variable's address.
    assert_eq!(
        funcs[0].pointer_params,
        vec![true, false, false, false, true, false, false]
    );
}
