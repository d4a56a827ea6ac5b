//! Calls to `.func` bodies are followed: inlined at lowering, once per call
//! site, with the callee's spans and `.loc` chains; recursion, depth and
//! size capped with a typed caveat; indirect calls stay unknown.

use warpscope::analysis::{Caveat, LaunchConfig, Options};
use warpscope::ir::{CallLimit, OpKind, MAX_INLINE_DEPTH};
use warpscope::source::SourceFile;

fn calls_fixture() -> String {
    std::fs::read_to_string("tests/fixtures/analysis/calls.ptx").expect("fixture")
}

fn opts() -> Options {
    Options {
        launch: LaunchConfig {
            block: Some([128, 1, 1]),
            grid: Some([2, 1, 1]),
            params: vec![],
        },
        ..Options::default()
    }
}

fn call_limits(a: &warpscope::analysis::KernelAnalysis) -> Vec<CallLimit> {
    a.caveats
        .iter()
        .filter_map(|c| match c {
            Caveat::CallNotFollowed { limit, .. } => Some(*limit),
            _ => None,
        })
        .collect()
}

#[test]
fn callee_accesses_are_reported_at_the_callee_once_per_call_site() {
    let text = calls_fixture();
    let file = SourceFile::from_text("calls.ptx", text.clone());
    let a = warpscope::analyze(&file, &opts());
    let k = |n: &str| a.kernels.iter().find(|k| k.name == n).expect(n);
    // The load inside `get` (calls.cu line 2), at its own PTX line.
    let get_load = text
        .lines()
        .position(|l| l.contains("ld.global.f32"))
        .expect("get's load") as u32
        + 1;
    // copy_call: get's load and put's store, both coalesced (index = tid).
    let copy = k("copy_call");
    assert_eq!(copy.accesses.len(), 2);
    assert!(copy.caveats.is_empty(), "{:?}", copy.caveats);
    let load = copy
        .accesses
        .iter()
        .find(|x| x.ptx.line == get_load)
        .expect("the callee's load, at the callee's line");
    assert_eq!(load.per_request.sectors, 4.0);
    assert!(
        load.lane_pattern.contains("copy_call_param_1"),
        "{}",
        load.lane_pattern
    );
    // The span points into get's body, and the .loc chain runs from the
    // callee's line to the kernel's call site (calls.cu:2 inlined at :11).
    let body = &text[load.span.start as usize..load.span.end as usize];
    assert!(body.starts_with("ld.global.f32"), "{body}");
    let src = load.source.as_ref().expect("a location");
    assert_eq!(
        (src.line, src.inlined_at.as_ref().map(|l| l.line)),
        (2, Some(11))
    );
    // nested: twice calls get twice (index 2*i and 2*i + 32): two instances
    // of the same load, 8-byte stride each (2 floats per lane).
    let nested = k("nested");
    let loads: Vec<_> = nested
        .accesses
        .iter()
        .filter(|x| x.ptx.line == get_load)
        .collect();
    assert_eq!(loads.len(), 2);
    assert!(loads.iter().all(|x| x.stride_bytes == Some(8)));
    assert_ne!(loads[0].lane_pattern, loads[1].lane_pattern);
    // The chain has three levels: get, inlined in twice, inlined in nested.
    let src = loads[0].source.as_ref().expect("a location");
    let depth = std::iter::successors(Some(src), |l| l.inlined_at.as_deref()).count();
    assert_eq!(depth, 3);
}

#[test]
fn recursion_and_indirect_calls_are_not_followed_with_a_caveat() {
    let file = SourceFile::from_text("calls.ptx", calls_fixture());
    let a = warpscope::analyze(&file, &opts());
    let k = |n: &str| a.kernels.iter().find(|k| k.name == n).expect(n);
    assert_eq!(call_limits(k("recursive")), [CallLimit::Recursive]);
    assert_eq!(call_limits(k("indirect")), [CallLimit::Indirect]);
    assert!(call_limits(k("in_loop")).is_empty());
    // In the IR: fib inlined once, its own two calls left as calls.
    let funcs = warpscope::pipeline::lower_text(file.text());
    let rec = funcs
        .iter()
        .find(|f| f.name == "recursive")
        .expect("kernel");
    assert_eq!(rec.inlined.len(), 1);
    assert_eq!(rec.inlined[0].callee, "_Z3fibi");
    let calls: Vec<_> = rec
        .ops
        .iter()
        .filter_map(|o| match &o.kind {
            OpKind::Call { call, dsts } => Some((call, dsts)),
            _ => None,
        })
        .collect();
    assert_eq!(calls.len(), 2);
    for (c, dsts) in calls {
        assert_eq!(c.callee, "_Z3fibi");
        assert_eq!(c.limit, CallLimit::Recursive);
        assert_eq!(c.args.len(), 1);
        assert_eq!(dsts.len(), 1, "the retval0 slot the caller reads");
    }
}

/// A chain of `n` functions, each calling the next, the last storing at
/// `tid`; the kernel calls the first.
fn chain_ptx(n: usize) -> String {
    let mut s = String::from(".version 8.5\n.target sm_90\n.address_size 64\n");
    for i in (0..n).rev() {
        s.push_str(&format!(
            ".func f{i}(.param .b64 f{i}_p)\n{{\n.reg .b64 %rd<3>;\n.reg .b32 %r<2>;\n\
             ld.param.u64 %rd1, [f{i}_p];\n"
        ));
        if i + 1 < n {
            s.push_str(&format!(
                "{{\n.param .b64 param0;\nst.param.b64 [param0+0], %rd1;\n\
                 call.uni f{}, (param0);\n}}\n",
                i + 1
            ));
        } else {
            s.push_str("mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd2, %rd1, %rd2;\nst.global.u32 [%rd2], %r1;\n");
        }
        s.push_str("ret;\n}\n");
    }
    s.push_str(
        ".visible .entry k(.param .u64 k_p)\n{\n.reg .b64 %rd<2>;\n\
         ld.param.u64 %rd1, [k_p];\ncvta.to.global.u64 %rd1, %rd1;\n\
         {\n.param .b64 param0;\nst.param.b64 [param0+0], %rd1;\ncall.uni f0, (param0);\n}\nret;\n}\n",
    );
    s
}

#[test]
fn calls_nest_up_to_the_depth_limit() {
    // Within the limit: the store at the bottom is reached with the
    // kernel's pointer and is coalesced.
    let file = SourceFile::from_text("chain.ptx", chain_ptx(MAX_INLINE_DEPTH));
    let a = warpscope::analyze(&file, &opts());
    let k = &a.kernels[0];
    assert!(k.caveats.is_empty(), "{:?}", k.caveats);
    assert_eq!(k.accesses.len(), 1);
    assert_eq!(k.accesses[0].per_request.sectors, 4.0);
    assert!(k.accesses[0].lane_pattern.contains("k_p"));
    // One more level: the deepest call is not followed.
    let file = SourceFile::from_text("chain.ptx", chain_ptx(MAX_INLINE_DEPTH + 1));
    let a = warpscope::analyze(&file, &opts());
    assert_eq!(call_limits(&a.kernels[0]), [CallLimit::Depth]);
    assert!(a.kernels[0].accesses.is_empty());
}

#[test]
fn exponential_call_trees_stop_at_the_size_limit() {
    // f_i calls f_{i+1} twice, 20 levels: 2^20 instances without a limit.
    let mut s = String::from(".version 8.5\n.target sm_90\n.address_size 64\n");
    let n = 20;
    for i in (0..n).rev() {
        s.push_str(&format!(
            ".func f{i}()\n{{\n.reg .b32 %r<4>;\nmov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, 1;\n"
        ));
        if i + 1 < n {
            s.push_str(&format!("call.uni f{};\ncall.uni f{};\n", i + 1, i + 1));
        }
        s.push_str("ret;\n}\n");
    }
    s.push_str(".visible .entry k()\n{\ncall.uni f0;\nret;\n}\n");
    let funcs = warpscope::pipeline::lower_text(&s);
    let k = funcs.iter().find(|f| f.name == "k").expect("kernel");
    assert!(
        k.ops.len() <= 5 + warpscope::ir::MAX_INLINED_OPS,
        "{}",
        k.ops.len()
    );
    assert!(
        k.ops.len() > warpscope::ir::MAX_INLINED_OPS / 2,
        "{}",
        k.ops.len()
    );
    assert!(k
        .ops
        .iter()
        .any(|o| matches!(&o.kind, OpKind::Call { call, .. } if call.limit == CallLimit::Size)));
    let file = SourceFile::from_text("tree.ptx", s.clone());
    let a = warpscope::analyze(&file, &opts());
    assert!(call_limits(&a.kernels[0]).contains(&CallLimit::Size));
}

#[test]
fn a_guarded_call_falls_through_when_off_and_results_flow_back() {
    // idx(i) returns 2*i; the kernel stores at p + 4*idx(tid) when tid < 16.
    let s = ".version 8.5\n.target sm_90\n.address_size 64\n\
        .func (.param .b32 r) idx(.param .b32 a)\n{\n.reg .b32 %r<3>;\n\
        ld.param.u32 %r1, [a];\nshl.b32 %r2, %r1, 1;\nst.param.b32 [r+0], %r2;\nret;\n}\n\
        .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .pred %q;\n\
        ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, %tid.x;\n\
        mov.u32 %r2, 0;\nsetp.lt.u32 %q, %r1, 16;\n\
        {\n.param .b32 param0;\nst.param.b32 [param0+0], %r1;\n.param .b32 retval0;\n\
        @%q call.uni (retval0), idx, (param0);\n@%q ld.param.b32 %r2, [retval0+0];\n}\n\
        mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r1;\nret;\n}\n";
    let file = SourceFile::from_text("guarded.ptx", s);
    let a = warpscope::analyze(&file, &opts());
    let k = &a.kernels[0];
    assert!(k.caveats.is_empty(), "{:?}", k.caveats);
    let st = &k.accesses[0];
    // Derived by hand: in warp 0 lanes 0..15 call and store at p + 8*lane
    // (128 bytes, 4 sectors) while lanes 16..31 skip the call and keep 0
    // (p, a sector already counted); warps 1..3 all store at p (1 sector).
    // The warp reconverges after the call: one request per warp, 8 in the
    // 2 blocks of 4 warps, (4 + 1 + 1 + 1) * 2 / 8 = 1.75 sectors each.
    assert_eq!(st.requests, Some(8));
    assert_eq!(st.per_request.active_lanes, Some(32.0));
    assert_eq!(st.per_request.sectors, 1.75);
}
