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
