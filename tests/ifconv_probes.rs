//! ptxas's if-conversion, as `analysis::ifconvert` models it, against the
//! SASS ptxas emitted for the probes of `tests/hw/ifconv` (compiled on the
//! CPU by `tests/hw/ifconv/regen.sh`; the rule and the probes are in its
//! README).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use warpscope::ir::OpKind;

/// Per probe kernel, per access `j`: whether ptxas predicated it (every
/// SASS instruction the line table gives it carries a `@P` guard).
type Sass = BTreeMap<String, BTreeMap<u32, bool>>;

fn sass(excerpts: &str) -> Sass {
    let mut out = Sass::new();
    let mut cur: Option<String> = None;
    for line in excerpts.lines().skip(1) {
        if !line.starts_with(' ') {
            let name = line.split(':').next().unwrap_or("").to_string();
            out.entry(name.clone()).or_default();
            cur = Some(name);
            continue;
        }
        let (Some(k), Some((at, instr))) = (&cur, line.trim().split_once(": ")) else {
            continue;
        };
        let Some(j) = at.strip_prefix('a').and_then(|j| j.parse::<u32>().ok()) else {
            continue;
        };
        let pred = instr.starts_with('@');
        let e = out.get_mut(k).expect("kernel").entry(j).or_insert(true);
        *e &= pred;
    }
    out
}

/// The model's agreement with ptxas on the probes of `ptx` read back in
/// `excerpts`, access by access, disagreements allowed only where `known`
/// lists them (`probe|a<j>|reason`); panics with the differences.
fn check_probes(ptx: &str, excerpts: &str, known_file: &str, what: &str, only_guarded: bool) {
    let dir = "tests/hw/ifconv";
    // The large generated modules are committed gzipped (`blocks.ptx.gz`).
    let text = common::read_measurement(&format!("{dir}/{ptx}"));
    let excerpts = std::fs::read_to_string(format!("{dir}/{excerpts}")).expect("excerpts");
    let known: BTreeMap<String, String> = std::fs::read_to_string(format!("{dir}/{known_file}"))
        .expect("known list")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.splitn(3, '|');
            let (probe, access, reason) = (f.next()?, f.next()?, f.next()?);
            Some((
                format!("{}|{}", probe.trim(), access.trim()),
                reason.trim().to_string(),
            ))
        })
        .collect();
    let sass = sass(&excerpts);
    let funcs = warpscope::pipeline::lower_text(&text);
    let mut failures = Vec::new();
    let mut seen_known = BTreeSet::new();
    let (mut agree, mut listed, mut total) = (0, 0, 0);
    let mut table = String::new();
    for f in &funcs {
        // Loops are read off the SASS by hand (README): ptxas unrolls them.
        if f.name.starts_with("loop") {
            continue;
        }
        let Some(ptxas) = sass.get(f.name) else {
            failures.push(format!("{}: not in {what}", f.name));
            continue;
        };
        // On the function as ptxas compiles it (its merged accesses), as
        // the launch simulation asks.
        let compiled = warpscope::analysis::driver::as_compiled(f, &Default::default());
        let predicated = warpscope::analysis::ifconvert::predicated_accesses(&compiled);
        for id in f.op_ids() {
            if !matches!(f.op(id).kind, OpKind::Mem { .. }) {
                continue;
            }
            let Some(line) = f.loc_chain(id).next().map(|l| l.line) else {
                continue;
            };
            let j = line % 1000;
            // Only accesses of guarded blocks (the outer code's are 998,
            // the epilogue's 999) that ptxas kept.
            if j >= 500 {
                continue;
            }
            let Some(&theirs) = ptxas.get(&j) else {
                continue;
            };
            // Accesses outside the guarded blocks (the probes' outer
            // loads) are not the question.
            if only_guarded && !guarded_block_access(f, id) {
                continue;
            }
            let mine = predicated.contains(&id.0);
            let key = format!("{}|a{j}", f.name);
            total += 1;
            let word = |p: bool| if p { "predicated" } else { "branch" };
            table.push_str(&format!(
                "{:28} a{j}: ptxas {:10} model {}\n",
                f.name,
                word(theirs),
                word(mine)
            ));
            match (mine == theirs, known.get(&key)) {
                (true, None) => agree += 1,
                (true, Some(_)) => {
                    seen_known.insert(key.clone());
                    failures.push(format!("{key}: agrees now, remove it from {known_file}"));
                }
                (false, Some(_)) => {
                    seen_known.insert(key.clone());
                    listed += 1;
                }
                (false, None) => failures.push(format!(
                    "{key}: ptxas {} it, the model {}",
                    word(theirs),
                    word(mine)
                )),
            }
        }
    }
    for k in known.keys() {
        if !seen_known.contains(k) {
            failures.push(format!("{k}: listed but not a probe access"));
        }
    }
    println!("{table}");
    println!("tests/hw/ifconv {what}: {agree}/{total} accesses agree ({listed} listed)");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Whether access `id` is inside a block a forward conditional branch
/// skips: the `.loc` convention puts the probes' outer accesses on lines
/// ending in 998, but the first loads of some probes are outer accesses
/// with a low number (`blocks.py`'s `pre`), which no branch guards.
fn guarded_block_access(f: &warpscope::ir::Function<'_>, id: warpscope::ir::OpId) -> bool {
    f.op_ids().any(|b| {
        let op = f.op(b);
        match op.kind {
            OpKind::Branch {
                target: Some(t), ..
            } => op.guard.is_some() && b.0 < id.0 && id.0 < t.0,
            _ => false,
        }
    })
}

#[test]
fn ptxas_ifconv_probes() {
    check_probes(
        "probes.ptx",
        "excerpts.txt",
        "known.txt",
        "probes.ptx",
        false,
    );
}

/// The stop-32 probes (`blocks.py`): blocks of parallel address chains,
/// cp.async, loads, stores, in straight-line code and in a loop.
#[test]
fn ptxas_block_probes() {
    check_probes(
        "blocks.ptx",
        "blocks.txt",
        "blocks_known.txt",
        "blocks.ptx",
        true,
    );
}

/// How ptxas compiled one access of a `guarded_ops` probe: `P` predicated
/// (every SASS instruction of it carries a `@P` guard: a warp whose guard
/// is off issues it with no lane), `E` after a predicated `EXIT` (such a
/// warp has left), `B` neither (branched around, or unguarded and issued
/// by every warp).
fn sass_issue(excerpts: &str) -> BTreeMap<String, BTreeMap<u32, char>> {
    let mut out: BTreeMap<String, BTreeMap<u32, char>> = BTreeMap::new();
    let mut cur: Option<String> = None;
    let mut exited = false;
    for line in excerpts.lines().skip(1) {
        if !line.starts_with(' ') {
            let name = line.split(':').next().unwrap_or("").to_string();
            out.entry(name.clone()).or_default();
            cur = Some(name);
            exited = false;
            continue;
        }
        let Some(k) = &cur else { continue };
        let (at, instr) = line.trim().split_once(": ").unwrap_or(("", ""));
        if at == "exit" && instr.starts_with('@') {
            exited = true;
            continue;
        }
        let Some(j) = at.strip_prefix('a').and_then(|j| j.parse::<u32>().ok()) else {
            continue;
        };
        let class = if instr.starts_with('@') {
            'P'
        } else if exited {
            'E'
        } else {
            'B'
        };
        out.get_mut(k).expect("kernel").insert(j, class);
    }
    out
}

/// Instructions under their own guard (`@%p atom`, `@%p st`) and the loads
/// before a kernel's final guarded op, as `memops::guard_off_issues` and
/// `memops::sunk_below_exit` model them, against the SASS ptxas emitted for
/// `tests/hw/ifconv/guarded_ops.ptx` (`guarded_ops.txt`, written by
/// `regen.sh`).
#[test]
fn ptxas_guarded_ops_probes() {
    use warpscope::analysis::memops;
    let dir = "tests/hw/ifconv";
    let text = std::fs::read_to_string(format!("{dir}/guarded_ops.ptx")).expect("guarded_ops.ptx");
    let excerpts =
        std::fs::read_to_string(format!("{dir}/guarded_ops.txt")).expect("guarded_ops.txt");
    let sass = sass_issue(&excerpts);
    let funcs = warpscope::pipeline::lower_text(&text);
    assert_eq!(
        funcs.len(),
        sass.len(),
        "a probe missing from guarded_ops.txt"
    );
    let mut failures = Vec::new();
    let mut counts = BTreeMap::new();
    for f in &funcs {
        let ptxas = sass.get(f.name).expect("probe in guarded_ops.txt");
        // On the function as ptxas compiles it (its merged accesses), as
        // the launch simulation asks.
        let compiled = warpscope::analysis::driver::as_compiled(f, &Default::default());
        let predicated = warpscope::analysis::ifconvert::predicated_accesses(&compiled);
        for id in f.op_ids() {
            if !matches!(f.op(id).kind, OpKind::Mem { .. }) {
                continue;
            }
            let Some(j) = f.loc_chain(id).next().map(|l| l.line % 1000) else {
                continue;
            };
            let Some(&theirs) = ptxas.get(&j) else {
                continue;
            };
            let i = id.index();
            let guarded = f.op(id).guard.is_some();
            let mine = if memops::after_tail_exit(f, i) {
                'E'
            } else if guarded && memops::guard_off_issues(f, i) {
                'P'
            } else if !guarded && predicated.contains(&id.0) {
                // In a block a branch skips, which ptxas if-converts.
                'P'
            } else {
                'B'
            };
            *counts.entry(mine == theirs).or_insert(0) += 1;
            if mine != theirs {
                failures.push(format!("{}|a{j}: ptxas {theirs}, the model {mine}", f.name));
            }
        }
    }
    println!(
        "tests/hw/ifconv/guarded_ops: {}/{} accesses agree",
        counts.get(&true).unwrap_or(&0),
        counts.values().sum::<i32>()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A guarded store at a kernel's end with a line-table label, the join of
/// an early return, or a `bra.uni` to that join between it and `ret`
/// (`tests/hw/ifconv/exit_joins.ptx`): ptxas puts it after an `@P EXIT`
/// (an unguarded `STG`), so a warp whose lanes are all off issues nothing;
/// a guarded store with another store after it stays predicated (`@P
/// STG`). The model's `guard_off_issues` must say the same for every
/// guarded store, in order (`exit_joins.txt`, written by `regen.sh`).
#[test]
fn exit_joins() {
    let dir = "tests/hw/ifconv";
    let text = std::fs::read_to_string(format!("{dir}/exit_joins.ptx")).expect("probes");
    let sass = std::fs::read_to_string(format!("{dir}/exit_joins.txt")).expect("sass");
    // per kernel, per STG in order: predicated (issued by every warp)
    let mut theirs: BTreeMap<String, Vec<bool>> = BTreeMap::new();
    let mut cur = String::new();
    for line in sass.lines() {
        if let Some(rest) = line.strip_prefix("//") {
            if let Some(name) = rest.split(".text.").nth(1) {
                cur = name.split_whitespace().next().unwrap_or("").to_string();
            }
            continue;
        }
        if line.contains("STG") {
            let instr = line.split("*/").nth(1).unwrap_or("").trim();
            theirs
                .entry(cur.clone())
                .or_default()
                .push(instr.starts_with('@'));
        }
    }
    let funcs = warpscope::pipeline::lower_text(&text);
    assert_eq!(funcs.len(), 3);
    for f in &funcs {
        let mine: Vec<bool> = f
            .op_ids()
            .filter(|&id| matches!(f.op(id).kind, OpKind::Mem { .. }) && f.op(id).guard.is_some())
            .map(|id| warpscope::analysis::memops::guard_off_issues(f, id.index()))
            .collect();
        assert_eq!(
            Some(&mine),
            theirs.get(f.name),
            "{}: the model's guarded stores (issued with no lane?) against ptxas's",
            f.name
        );
    }
}

/// The stop-33 probes (`convert.py`): blocks with conversions, FP64
/// arithmetic and MUFU instructions, the Thrust partial tile alone and in
/// an if/else arm, runs of blocks in if/else arms.
#[test]
fn ptxas_convert_probes() {
    check_probes(
        "convert.ptx",
        "convert.txt",
        "convert_known.txt",
        "convert.ptx",
        true,
    );
}

/// The stop-33 select probes (`selects.py`): of two loads a `selp` picks
/// between, ptxas issues the second under the predicate that selects it
/// (`@P0 LDG`); `memops::select_guard` against `selects.txt`, load by load
/// (the condition's own load and the store are never guarded). Listed in
/// `selects_known.txt`: what the rule does not take (`slct`, a predicate
/// computed after the loads).
#[test]
fn ptxas_select_probes() {
    let dir = "tests/hw/ifconv";
    let text = std::fs::read_to_string(format!("{dir}/selects.ptx")).expect("selects.ptx");
    let excerpts = std::fs::read_to_string(format!("{dir}/selects.txt")).expect("selects.txt");
    let known: BTreeSet<String> = std::fs::read_to_string(format!("{dir}/selects_known.txt"))
        .expect("selects_known.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.split('|');
            Some(format!("{}|{}", f.next()?.trim(), f.next()?.trim()))
        })
        .collect();
    let sass = sass(&excerpts);
    let funcs = warpscope::pipeline::lower_text(&text);
    let (mut agree, mut total, mut listed) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut seen = BTreeSet::new();
    for f in &funcs {
        let ptxas = sass.get(f.name).expect("probe in selects.txt");
        for id in f.op_ids() {
            if !matches!(f.op(id).kind, OpKind::Mem { .. }) {
                continue;
            }
            let Some(j) = f.loc_chain(id).next().map(|l| l.line % 1000) else {
                continue;
            };
            let Some(&theirs) = ptxas.get(&j) else {
                continue;
            };
            let mine = warpscope::analysis::memops::select_guard(f, id.index()).is_some();
            total += 1;
            let key = format!("{}|a{j}", f.name);
            match (mine == theirs, known.contains(&key)) {
                (true, false) => agree += 1,
                (true, true) => failures.push(format!("{key}: agrees now, remove it")),
                (false, true) => {
                    listed += 1;
                    seen.insert(key);
                }
                (false, false) => failures.push(format!(
                    "{key}: ptxas {}, the model {}",
                    if theirs {
                        "predicated"
                    } else {
                        "unconditional"
                    },
                    if mine { "predicated" } else { "unconditional" }
                )),
            }
        }
    }
    for k in known.difference(&seen) {
        failures.push(format!("{k}: listed but agrees or is no probe access"));
    }
    println!(
        "tests/hw/ifconv selects.ptx: {agree}/{total} loads and stores agree ({listed} listed)"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
