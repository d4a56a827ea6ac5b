//! SSA form of the warp IR (`src/ir/ssa.rs`).
//!
//! - Snapshots of the SSA of small kernels (diamond, nested loops and a loop
//!   at the entry, guarded definitions, an irreducible cycle with an
//!   unreachable block), reviewed by hand.
//! - Every function of `tests/corpus/` and `tests/hw/kernels.ptx`: the SSA
//!   invariants ([`Ssa::verify`]: each use dominated by its definition, phi
//!   arguments by the end of their predecessor, one definition per value,
//!   every read and write of the IR mapped), and, independently of the
//!   construction, that each use sees exactly the definitions that reach it:
//!   the set of op writes (and the entry) a use's value stands for, through
//!   phis and guarded merges, equals the reaching definitions of that
//!   register at that op, computed by a classical dataflow over the CFG.

use std::collections::HashMap;
use std::path::Path;
use warpscope::analysis::dataflow::Focus;
use warpscope::cfg::{BlockId, Cfg};
use warpscope::ir::ssa::{op_writes, Ssa, ValueDef, ValueId};
use warpscope::ir::{Function, OpId, Reg};

mod common;

fn render(path: &str) -> String {
    let file = common::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(path));
    let (module, diags) = warpscope::syntax::parse(file.text());
    assert!(diags.is_empty(), "{path}: {diags:#?}");
    let (_, sema) = warpscope::sema::check_module(&module);
    assert!(sema.is_empty(), "{path}: {sema:#?}");
    let mut out = String::new();
    for f in warpscope::pipeline::lower_module(&module) {
        let cfg = Cfg::build(&f);
        let ssa = Ssa::build(&f, &cfg);
        let errs = ssa.verify(&f, &cfg);
        assert!(errs.is_empty(), "{path} {}: {errs:#?}", f.name);
        check_reaching(&f, &cfg, &ssa);
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&ssa.render_text(&f, &cfg, &file));
    }
    out
}

#[test]
fn snapshots_of_small_kernels() {
    for name in ["diamond", "loops", "guarded", "irreducible"] {
        let text = render(&format!("tests/fixtures/ssa/{name}.ptx"));
        insta::assert_snapshot!(format!("ssa_{name}"), text);
    }
}

/// Bit sets over the definition sites of one register.
type Bits = Vec<u64>;

fn set(b: &mut Bits, i: usize) {
    b[i / 64] |= 1 << (i % 64);
}

fn union(into: &mut Bits, from: &Bits) -> bool {
    let mut changed = false;
    for (a, b) in into.iter_mut().zip(from) {
        let n = *a | b;
        changed |= n != *a;
        *a = n;
    }
    changed
}

/// Checks every use in reachable code against reaching definitions; returns
/// the number of uses checked.
fn check_reaching(f: &Function<'_>, cfg: &Cfg, ssa: &Ssa) -> usize {
    // Definition sites per register: 0 is the function's start, then each
    // writing op in op order.
    let mut sites: HashMap<Reg, Vec<OpId>> = HashMap::new();
    // Writes of each register per block: (op, guarded), in op order.
    let mut block_defs: HashMap<(BlockId, Reg), Vec<(OpId, bool)>> = HashMap::new();
    // Uses per register: (block, op, value).
    let mut uses: HashMap<Reg, Vec<(BlockId, OpId, ValueId)>> = HashMap::new();
    for b in cfg.block_ids().filter(|&b| cfg.is_reachable(b)) {
        for id in cfg.block(b).op_ids() {
            for &(r, v) in ssa.uses(id) {
                uses.entry(r).or_default().push((b, id, v));
            }
            let op = f.op(id);
            let mut written = Vec::new();
            op_writes(op, |r| {
                if !written.contains(&r) {
                    written.push(r)
                }
            });
            for r in written {
                sites.entry(r).or_default().push(id);
                block_defs
                    .entry((b, r))
                    .or_default()
                    .push((id, op.guard.is_some()));
            }
        }
    }
    let nb = cfg.blocks().len();
    let mut checked = 0;
    for (&r, reg_uses) in &uses {
        let empty = Vec::new();
        let reg_sites = sites.get(&r).unwrap_or(&empty);
        let site_of = |op: OpId| 1 + reg_sites.binary_search(&op).expect("a site");
        let words = (reg_sites.len() + 1).div_ceil(64);
        let transfer = |b: BlockId, set_in: &Bits, upto: Option<OpId>| -> Bits {
            let mut s = set_in.clone();
            for &(op, guarded) in block_defs.get(&(b, r)).unwrap_or(&Vec::new()) {
                if upto.is_some_and(|u| op >= u) {
                    break;
                }
                if !guarded {
                    s.iter_mut().for_each(|w| *w = 0);
                }
                set(&mut s, site_of(op));
            }
            s
        };
        let mut ins: Vec<Bits> = vec![vec![0; words]; nb];
        let mut outs: Vec<Bits> = vec![vec![0; words]; nb];
        set(&mut ins[cfg.entry().index()], 0);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in cfg.reverse_post_order() {
                let mut i = ins[b.index()].clone();
                for (p, _) in cfg.predecessors(b) {
                    if cfg.is_reachable(p) {
                        union(&mut i, &outs[p.index()]);
                    }
                }
                ins[b.index()] = i;
                let o = transfer(b, &ins[b.index()], None);
                if o != outs[b.index()] {
                    outs[b.index()] = o;
                    changed = true;
                }
            }
        }
        for &(b, op, v) in reg_uses {
            let want = transfer(b, &ins[b.index()], Some(op));
            // The definitions `v` stands for.
            let mut got: Bits = vec![0; words];
            let mut seen = std::collections::HashSet::new();
            let mut work = vec![v];
            while let Some(x) = work.pop() {
                if !seen.insert(x) {
                    continue;
                }
                match ssa.value(x).def {
                    ValueDef::Entry => set(&mut got, 0),
                    ValueDef::Op { op, merges } => {
                        set(&mut got, site_of(op));
                        work.extend(merges);
                    }
                    ValueDef::Phi(p) => work.extend(ssa.phi_args(p).iter().map(|a| a.value)),
                }
            }
            assert_eq!(
                got, want,
                "{}: use of {} at op {} ({v}) stands for other definitions than reach it",
                f.name, f.regs[r as usize], op.0
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_corpus_function_is_valid_ssa() {
    let mut files = common::ptx_files("tests/corpus");
    files.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hw/kernels.ptx"));
    let (mut functions, mut values, mut phis, mut uses, mut sliced) = (0, 0, 0, 0, 0);
    for path in &files {
        let file = common::load(path);
        for f in warpscope::pipeline::lower_text(file.text()) {
            if f.body_span.is_none() {
                continue;
            }
            let cfg = Cfg::build(&f);
            let ssa = Ssa::build(&f, &cfg);
            let errs = ssa.verify(&f, &cfg);
            assert!(
                errs.is_empty(),
                "{} {}: {} violations, first: {:#?}",
                path.display(),
                f.name,
                errs.len(),
                &errs[..errs.len().min(10)]
            );
            uses += check_reaching(&f, &cfg, &ssa);
            // The address slice holds every address and guard it starts
            // from, and is closed under operands.
            let slice = ssa.address_slice(&f);
            for id in f.op_ids() {
                if let warpscope::ir::OpKind::Mem { info, .. } = &f.op(id).kind {
                    if let warpscope::ir::Src::Reg(r, _) = info.addr {
                        let v = ssa.use_of(id, r).expect("the address is a use");
                        assert!(slice.contains(v), "{}: address at op {}", f.name, id.0);
                    }
                }
                if let Some((g, _)) = f.op(id).guard {
                    if f.op(id).is_terminator()
                        || matches!(f.op(id).kind, warpscope::ir::OpKind::Mem { .. })
                    {
                        assert!(slice.contains(ssa.use_of(id, g).expect("the guard is a use")));
                    }
                }
            }
            for v in slice.values() {
                assert!(ssa.operands(v).all(|o| slice.contains(o)));
            }
            // The slice of some memory ops (the per-warp runs') is part of
            // the whole one and keeps their addresses and every branch's
            // and exit's guard.
            assert_eq!(ssa.address_slice_of(&f, |_| true), slice);
            let odd = |id: warpscope::ir::OpId| id.0 % 2 == 1;
            let part = ssa.address_slice_of(&f, odd);
            assert!(part.values().all(|v| slice.contains(v)));
            for id in f.op_ids() {
                let op = f.op(id);
                if let (warpscope::ir::OpKind::Mem { info, .. }, true) = (&op.kind, odd(id)) {
                    if let warpscope::ir::Src::Reg(r, _) = info.addr {
                        assert!(part.contains(ssa.use_of(id, r).expect("the address is a use")));
                    }
                }
                if let (Some((g, _)), true) = (op.guard, op.is_terminator()) {
                    assert!(part.contains(ssa.use_of(id, g).expect("the guard is a use")));
                }
            }
            // The per-warp runs' focus on those ops: every block holding
            // one and, with each block, its predecessors; the slice keeps
            // the guards of the branches and exits of those blocks only.
            let is_odd_mem = |i: usize| {
                i % 2 == 1 && matches!(f.op(OpId(i as u32)).kind, warpscope::ir::OpKind::Mem { .. })
            };
            let focus = Focus::on_ops(&cfg, is_odd_mem);
            for id in f.op_ids() {
                if is_odd_mem(id.index()) {
                    assert!(focus.applies(&cfg, id.0));
                }
            }
            for b in cfg.block_ids().filter(|&b| focus.applies_to(b)) {
                for (p, _) in cfg.predecessors(b) {
                    assert!(focus.applies_to(p), "{}: a predecessor left out", f.name);
                }
            }
            let focused = ssa.address_slice_where(&f, odd, |id| focus.applies(&cfg, id.0));
            assert!(focused.values().all(|v| part.contains(v)));
            for id in f.op_ids() {
                let op = f.op(id);
                if let (Some((g, _)), true) = (op.guard, op.is_terminator()) {
                    let u = ssa.use_of(id, g).expect("the guard is a use");
                    if focus.applies(&cfg, id.0) {
                        assert!(focused.contains(u));
                    }
                }
            }
            sliced += slice.len();
            functions += 1;
            values += ssa.values().len();
            phis += ssa.phis().len();
        }
    }
    // The corpus has loops and joins: a construction that placed no phi, or
    // checked nothing, would be wrong.
    assert!(functions > 100, "{functions} functions");
    assert!(
        phis > 100 && values > 10 * phis,
        "{values} values, {phis} phis"
    );
    assert!(uses > values / 2, "{uses} uses checked");
    // Much of a kernel is data (loaded and stored values, floating point):
    // the slice leaves it out, and keeps the address arithmetic.
    assert!(
        sliced > 0 && sliced < values,
        "{sliced} of {values} values sliced"
    );
    eprintln!("{functions} functions, {values} values, {phis} phis, {uses} uses checked, {sliced} values in address slices");
}

#[test]
fn address_slice_follows_addresses_guards_and_branches() {
    let text = std::fs::read_to_string("tests/fixtures/ssa/guarded.ptx").expect("fixture");
    let funcs = warpscope::pipeline::lower_text(&text);
    let f = &funcs[0];
    let cfg = Cfg::build(f);
    let ssa = Ssa::build(f, &cfg);
    let slice = ssa.address_slice(f);
    let regs = slice.registers(&ssa, f.regs.len());
    let named = |n: &str| {
        let r = f.regs.iter().position(|x| *x == n).expect(n);
        regs[r]
    };
    // The address chain, the guards, what the address is computed from
    // (both guarded writes of %r2, so %r9's undefined entry value too).
    for r in ["%rd1", "%rd2", "%rd3", "%r1", "%r2", "%r9", "%p1", "%p2"] {
        assert!(named(r), "{r} flows into an address or guard");
    }
    // The load's result flows into nothing.
    assert!(!named("%r3"), "%r3 is only loaded");
    // Every value of the slice is computed only from values of the slice.
    for v in slice.values() {
        for o in ssa.operands(v) {
            assert!(slice.contains(o));
        }
    }
    let empty = ssa.slice([]);
    assert!(empty.is_empty());
}

#[test]
fn warpscope_cfg_ssa_prints_the_library_rendering() {
    let path = "tests/fixtures/ssa/diamond.ptx";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["cfg", "--ssa", path])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run warpscope");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), render(path));
}
