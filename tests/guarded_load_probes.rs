//! When ptxas branches around a guarded load instead of predicating it
//! (`memops::guard_off_issues`: a warp whose guard is off in every lane
//! then issues nothing), and that it predicates guarded stores in the
//! middle of a kernel, against ptxas's SASS of the 325 probes of
//! `tests/hw/ifconv/guarded_loads.py` (`guarded_loads.ptx`, nvcc 13.5 `-O3`
//! for sm_90a; `guarded_loads.txt`, the table `regen.sh` writes from the
//! SASS: `pred` or `branch` per kernel).

use std::collections::BTreeMap;
use warpscope::analysis::memops;
use warpscope::analysis::model::AccessOp;
use warpscope::ir::OpKind;

#[test]
fn guarded_loads_are_predicated_or_branched_as_ptxas_does() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/hw/ifconv");
    let table = std::fs::read_to_string(format!("{dir}/guarded_loads.txt")).expect("table");
    let want: BTreeMap<&str, bool> = table
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            Some((w.next()?, w.next()? == "pred"))
        })
        .collect();
    let ptx = std::fs::read_to_string(format!("{dir}/guarded_loads.ptx")).expect("ptx");
    let funcs = warpscope::pipeline::lower_text(&ptx);
    assert_eq!(funcs.len(), want.len(), "one kernel per row");
    let mut wrong = Vec::new();
    let (mut pred, mut branch) = (0, 0);
    let mut stores = 0;
    for f in &funcs {
        let ptxas_pred = want[f.name];
        // The `s_*` probes ask about guarded stores in the middle of the
        // kernel (the one that ends it is the tail exit's, `guarded_ops`).
        let dir = if f.name.starts_with("s_") {
            AccessOp::Store
        } else {
            AccessOp::Load
        };
        let issues: Vec<bool> = f
            .ops
            .iter()
            .enumerate()
            .filter(|&(i, o)| {
                o.guard.is_some()
                    && matches!(&o.kind, OpKind::Mem { info, .. } if info.op == dir)
                    && !(dir == AccessOp::Store && memops::after_tail_exit(f, i))
            })
            .map(|(i, _)| memops::guard_off_issues(f, i))
            .collect();
        if dir == AccessOp::Store {
            stores += issues.len();
            if issues.is_empty() {
                // One store, the kernel's tail: nothing in the middle.
                continue;
            }
        }
        assert!(!issues.is_empty(), "{}: no guarded load", f.name);
        if issues.iter().any(|&x| x != ptxas_pred) {
            wrong.push(format!(
                "{}: ptxas {}, model {issues:?}",
                f.name,
                if ptxas_pred { "pred" } else { "branch" }
            ));
        }
        if ptxas_pred {
            pred += 1;
        } else {
            branch += 1;
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} probes differ:\n{}",
        wrong.len(),
        funcs.len(),
        wrong.join("\n")
    );
    // Both outcomes occur, and the store probes were asked.
    assert!(pred > 0 && branch > 0 && stores > 0);
}

/// An op under a predicate that is false by construction (Triton's
/// `mov.pred %p, 0` for tiles it knows are masked off) is deleted by
/// ptxas: no warp issues it, and the op before it may be the kernel's tail
/// (`tests/hw/blind12` `t12_paged_decode_gqa` lines 96 and 115: one
/// `LDG.E.128` and one `STG.E.128` a thread where the PTX has two, the
/// kept store after `@P5 EXIT`, `tests/hw/blind12/raw/sass.tgz`).
#[test]
fn ops_under_a_false_predicate_are_deleted() {
    let ptx = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b)
{
    .reg .pred %p<4>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [b];
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 64;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    add.s64 %rd5, %rd2, %rd3;
    mov.pred %p2, 0;
    mov.pred %p3, -1;
    mov.u32 %r2, 0;
    mov.u32 %r3, 0;
    @%p1 ld.global.v2.b32 {%r2, %r4}, [%rd4];
    @%p2 ld.global.v2.b32 {%r3, %r5}, [%rd4+512];
    @!%p3 ld.global.v2.b32 {%r6, %r7}, [%rd4+1024];
    @%p1 st.global.b32 [%rd5], %r2;
    @%p2 st.global.b32 [%rd5+512], %r3;
    ret;
}
"#;
    let funcs = warpscope::pipeline::lower_text(ptx);
    let f = &funcs[0];
    let mem: Vec<usize> = (0..f.ops.len())
        .filter(|&i| matches!(f.ops[i].kind, OpKind::Mem { .. }) && f.ops[i].guard.is_some())
        .collect();
    assert_eq!(mem.len(), 5);
    let issues: Vec<bool> = mem
        .iter()
        .map(|&i| memops::guard_off_issues(f, i))
        .collect();
    // The first load is predicated (a `.v2` load), the two under a false
    // guard are deleted, the first store is the tail (the store after it
    // is deleted), the last is deleted.
    assert_eq!(issues, vec![true, false, false, false, false]);
    assert!(memops::after_tail_exit(f, mem[3]));
}
