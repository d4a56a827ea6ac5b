//! When ptxas branches around a guarded load instead of predicating it
//! (`memops::guard_off_issues`: a warp whose guard is off in every lane
//! then issues nothing), against ptxas's SASS of the 277 probes of
//! `tests/hw/ifconv/guarded_loads.py` (`guarded_loads.ptx`, nvcc 13.5 `-O3`
//! for sm_90a; `guarded_loads.txt`, the table `regen.sh` writes from the
//! SASS: `pred` or `branch` per kernel).

use std::collections::BTreeMap;
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
    for f in &funcs {
        let ptxas_pred = want[f.name];
        let issues: Vec<bool> = f
            .ops
            .iter()
            .enumerate()
            .filter(|(_, o)| {
                o.guard.is_some()
                    && matches!(&o.kind, OpKind::Mem { info, .. }
                        if info.op == warpscope::analysis::model::AccessOp::Load)
            })
            .map(|(i, _)| warpscope::analysis::memops::guard_off_issues(f, i))
            .collect();
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
    // Both outcomes occur, under each kind of guard.
    assert!(pred > 0 && branch > 0);
}
