//! Control-flow graphs of real PTX: snapshots of `warpscope cfg`'s text form
//! for the CFG fixtures, the hand-written corpus and the example kernels, and
//! structural invariants checked on every PTX file of the repository.

use std::path::{Path, PathBuf};
use warpscope::cfg::{BlockId, Cfg, EdgeKind};
use warpscope::lower::ptx::lower_standalone;
use warpscope::source::SourceFile;
use warpscope::syntax::ast::{StmtId, StmtKind};

mod common;

/// The text form of every function with a body, as `warpscope cfg` prints it.
fn render(file: &SourceFile) -> String {
    let (module, diags) = warpscope::syntax::parse(file.text());
    assert!(
        diags.is_empty(),
        "{}: unexpected parse diagnostics: {diags:#?}",
        file.name()
    );
    let mut out = String::new();
    for f in module.functions.iter().filter(|f| f.body.is_some()) {
        if !out.is_empty() {
            out.push('\n');
        }
        let ir = lower_standalone(f);
        out.push_str(&Cfg::build(&ir).render_text(&ir, file));
    }
    out
}

fn snapshot_dir(prefix: &str, dir: &str, name_prefix: &str) {
    let files: Vec<PathBuf> = common::ptx_files(dir)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(name_prefix))
        })
        .collect();
    assert!(!files.is_empty(), "no PTX under {dir}");
    for path in files {
        let file = common::load(&path);
        let stem = path
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .replace('.', "_");
        insta::with_settings!({ description => file.name().to_string(), omit_expression => true }, {
            insta::assert_snapshot!(format!("{prefix}__{stem}"), render(&file));
        });
    }
}

#[test]
fn cfg_fixtures() {
    snapshot_dir("fixture", "tests/fixtures/sema", "cfg_");
}

#[test]
fn cfg_handwritten_corpus() {
    snapshot_dir("handwritten", "tests/corpus/handwritten", "");
}

#[test]
fn cfg_example_kernels() {
    snapshot_dir("example", "examples/kernels", "");
}

/// Structural invariants, on every PTX file in the repository (invalid ones
/// included: building a CFG must never panic).
#[test]
fn cfg_invariants_hold_on_every_file() {
    let mut files = common::ptx_files("tests");
    files.extend(common::ptx_files("examples"));
    let mut functions = 0;
    for path in &files {
        let file = common::load(path);
        let (module, _) = warpscope::syntax::parse(file.text());
        for f in &module.functions {
            let ir = lower_standalone(f);
            let cfg = Cfg::build(&ir);
            functions += 1;
            check_invariants(&cfg, f, &ir, file.name());
        }
    }
    assert!(functions > 100, "only {functions} functions found");
}

/// `ir`: the lowered function: its ops are one per statement of the body,
/// then those a `wmma.load`/`wmma.store` expands into (`lower::ptx::wmma`).
fn check_invariants(
    cfg: &Cfg,
    f: &warpscope::syntax::ast::Function<'_>,
    ir: &warpscope::ir::Function<'_>,
    name: &str,
) {
    let ctx = format!("{name}: {}", f.name.text);
    let n_body = f.body.as_ref().map_or(0, |b| b.statements.len()) as u32;
    let n_stmts = ir.ops.len() as u32;
    assert!(n_stmts >= n_body, "{ctx}: fewer ops than statements");
    // Blocks partition the ops, in order.
    let mut next = 0;
    for b in cfg.blocks() {
        assert_eq!(b.stmts.start, next, "{ctx}: blocks not contiguous");
        assert!(
            b.stmts.end > b.stmts.start || n_stmts == 0,
            "{ctx}: empty block"
        );
        next = b.stmts.end;
    }
    assert_eq!(next, n_stmts, "{ctx}: blocks do not cover the body");
    // Graph and adjacency lists agree; node i is BlockId(i).
    assert_eq!(cfg.graph.node_count(), cfg.blocks().len());
    let edges: usize = cfg.block_ids().map(|b| cfg.successors(b).count()).sum();
    assert_eq!(cfg.graph.edge_count(), edges, "{ctx}");
    for (i, w) in cfg.graph.node_weights().enumerate() {
        assert_eq!(w.0 as usize, i);
    }
    // RPO: reachable blocks once each, entry first, successors after their
    // block except along back or irreducible edges.
    let rpo = cfg.reverse_post_order();
    assert_eq!(rpo.first(), Some(&cfg.entry()));
    let mut pos = vec![usize::MAX; cfg.blocks().len()];
    for (i, b) in rpo.iter().enumerate() {
        assert_eq!(pos[b.index()], usize::MAX, "{ctx}: {b} twice in RPO");
        pos[b.index()] = i;
    }
    for b in cfg.block_ids() {
        assert_eq!(
            cfg.is_reachable(b),
            pos[b.index()] != usize::MAX,
            "{ctx}: {b}"
        );
        if !cfg.is_reachable(b) {
            continue;
        }
        for (s, k) in cfg.successors(b) {
            assert!(cfg.is_reachable(s));
            if pos[s.index()] <= pos[b.index()] {
                let irreducible = cfg.irreducible_edges().contains(&(b, s));
                assert!(
                    cfg.is_back_edge(b, s) || irreducible,
                    "{ctx}: {b}->{s} retreats but is no back edge"
                );
            }
            assert!(cfg.predecessors(s).any(|(p, pk)| p == b && pk == k));
            if matches!(k, EdgeKind::Fallthrough | EdgeKind::NotTaken) {
                assert_eq!(s.0, b.0 + 1, "{ctx}: {k:?} edge must go to the next block");
            }
        }
        // The immediate dominator strictly dominates; the entry has none.
        match cfg.idom(b) {
            None => assert_eq!(b, cfg.entry()),
            Some(d) => {
                assert!(cfg.dominates(d, b) && d != b);
                assert!(cfg.dominates(cfg.entry(), b));
            }
        }
    }
    // Every jump/taken/indexed target begins with a label (a statement's,
    // or the one an expansion starts with), or is the return point after
    // an expanded instruction (the op before it branches past the body).
    let body = f.body.as_ref();
    for b in cfg.block_ids() {
        for (s, k) in cfg.successors(b) {
            if matches!(k, EdgeKind::Jump | EdgeKind::Taken | EdgeKind::Indexed) {
                let body = body.unwrap();
                let label = |id: u32| {
                    if id < n_body {
                        matches!(body.stmt(StmtId(id)).kind, StmtKind::Label(_))
                    } else {
                        ir.ops[id as usize].form == warpscope::ir::Form::Label
                    }
                };
                let first = cfg.block(s).op_ids().next().map_or(0, |id| id.0);
                let return_point = first > 0
                    && matches!(ir.ops[first as usize - 1].kind,
                        warpscope::ir::OpKind::Branch { target: Some(t), .. } if t.0 >= n_body);
                let has_label = cfg.block(s).op_ids().any(|id| label(id.0)) || return_point;
                assert!(
                    has_label,
                    "{ctx}: {b}->{s} ({k:?}) targets a block without label"
                );
            }
        }
    }
    // Loops: the header dominates the body, latches are in the body and
    // branch back to the header, nesting is consistent.
    for (i, l) in cfg.loops().iter().enumerate() {
        assert!(l.body.contains(&l.header));
        for &m in &l.body {
            assert!(
                cfg.dominates(l.header, m),
                "{ctx}: loop {i} header does not dominate {m}"
            );
        }
        for &latch in &l.latches {
            assert!(l.body.contains(&latch));
            assert!(cfg.is_back_edge(latch, l.header));
        }
        match l.parent {
            None => assert_eq!(l.depth, 1),
            Some(p) => {
                let parent = &cfg.loops()[p.index()];
                assert!(p.index() < i && parent.depth + 1 == l.depth);
                assert!(l.body.iter().all(|b| parent.body.contains(b)));
            }
        }
    }
    for b in cfg.block_ids() {
        if let Some(l) = cfg.loop_of(b) {
            assert!(cfg.loops()[l.index()].body.contains(&b));
            assert!(cfg.in_cycle(b));
        }
    }
    let _ = BlockId(0);
}

/// The same invariants on the library corpus (cuBLAS, cuDNN, … PTX built by
/// `scripts/build-corpus.sh`, not committed): run with
/// `WARPSCOPE_BIG_CORPUS=.corpus cargo test --release --test cfg -- --ignored`.
#[test]
#[ignore = "needs the local library corpus (scripts/build-corpus.sh)"]
fn cfg_invariants_hold_on_library_corpus() {
    let root = std::env::var("WARPSCOPE_BIG_CORPUS")
        .expect("set WARPSCOPE_BIG_CORPUS to the corpus directory");
    let files = common::ptx_files(&root);
    let (mut functions, mut blocks, mut loops, mut irreducible, mut max_depth) = (0, 0, 0, 0, 0);
    for path in &files {
        let file =
            SourceFile::new(path.display().to_string(), std::fs::read(path).unwrap()).unwrap();
        let (module, _) = warpscope::syntax::parse(file.text());
        for f in &module.functions {
            let ir = lower_standalone(f);
            let cfg = Cfg::build(&ir);
            check_invariants(&cfg, f, &ir, file.name());
            functions += 1;
            blocks += cfg.blocks().len();
            loops += cfg.loops().len();
            irreducible += usize::from(!cfg.irreducible_edges().is_empty());
            max_depth = max_depth.max(cfg.loops().iter().map(|l| l.depth).max().unwrap_or(0));
        }
    }
    eprintln!(
        "{} files, {functions} functions, {blocks} blocks, {loops} loops (max depth {max_depth}), {irreducible} irreducible functions",
        files.len()
    );
    assert!(functions > 0);
}

/// `warpscope cfg`: formats, `--kernel` and exit codes.
#[test]
fn cfg_command_line() {
    let bin = env!("CARGO_BIN_EXE_warpscope");
    let dir = env!("CARGO_MANIFEST_DIR");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(bin)
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, dot, _) = run(&[
        "cfg",
        "tests/fixtures/sema/cfg_nested_loops.ptx",
        "--format",
        "dot",
    ]);
    assert_eq!(code, Some(0));
    insta::assert_snapshot!("cli_dot_nested_loops", dot);
    let (code, text, _) = run(&["cfg", "tests/fixtures/sema/cfg_diamond.ptx"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        text,
        render(&common::load(
            &Path::new(dir).join("tests/fixtures/sema/cfg_diamond.ptx")
        ))
    );
    // --kernel matches the demangled name without parameters.
    let (code, text, _) = run(&[
        "cfg",
        "examples/kernels/fma/fma.ptx",
        "--kernel",
        "fma_split<*>",
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(
        text.lines().filter(|l| l.starts_with(".entry")).count(),
        1,
        "{text}"
    );
    assert!(text.starts_with(".entry _Z9fma_split"));
    let (code, _, err) = run(&[
        "cfg",
        "examples/kernels/fma/fma.ptx",
        "--kernel",
        "nothing*",
    ]);
    assert_eq!(code, Some(1));
    assert!(err.contains("matches `nothing*`"), "{err}");
    let (code, _, err) = run(&["cfg", "no/such/file.ptx"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no/such/file.ptx"), "{err}");
    // Front-end diagnostics go to stderr; the graph is still printed.
    let (code, text, err) = run(&["cfg", "tests/corpus/invalid/unknown_label.ptx"]);
    assert_eq!(code, Some(0));
    assert!(err.contains("E0103"), "{err}");
    assert!(text.starts_with(".entry unknown_label"));
    // A SASS listing: the graph of its lowering, the grid-stride loop of
    // each kernel (`@!P0 BRA` back to `.L_x_0`) found; no PTX diagnostics.
    let (code, text, err) = run(&["cfg", "tests/sass/fma.sm_120.nvdisasm-raw.sass"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with(".entry")).count(),
        3,
        "{text}"
    );
    assert!(text.contains("loop"), "{text}");
}
