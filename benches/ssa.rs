//! SSA construction cost: `cargo bench --bench ssa [-- FILE_OR_DIR...]`.
//!
//! Reads the given PTX files (default: the largest file of `tests/corpus/`
//! and `tests/hw/kernels.ptx`), lowers every function once, then times, on
//! one thread and in CPU time (the machine may be shared), over several
//! rounds: the CFG of every function, and the SSA form of every function
//! given its CFG (`Ssa::build`), and reports the medians with the ops,
//! values and phis built, nanoseconds per op, and the SSA time as a fraction
//! of the CFG's. Parsing and lowering are not timed. Then the same for
//! synthetic kernels of 1,000 to 50,000 diamonds in a loop (four registers
//! written on both arms of each), to show the cost per op stays flat as a
//! function grows.

mod common;

use common::collect;
use std::path::{Path, PathBuf};
use warpscope::cfg::Cfg;
use warpscope::ir::ssa::Ssa;

/// The same allocator as the `warpscope` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// CPU time of this thread, in seconds.
fn thread_cpu() -> f64 {
    common::cpu_seconds(libc::CLOCK_THREAD_CPUTIME_ID)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("ssa benchmark: run it with `cargo bench --bench ssa`");
        return;
    }
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let mut files = Vec::new();
    if args.is_empty() {
        let mut corpus = Vec::new();
        collect(Path::new("tests/corpus"), &mut corpus);
        let largest = corpus
            .into_iter()
            .max_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0));
        files.extend(largest);
        files.push(PathBuf::from("tests/hw/kernels.ptx"));
    } else {
        for a in &args {
            collect(Path::new(a), &mut files);
        }
    }
    let mut inputs: Vec<(String, String)> = Vec::new();
    for path in files {
        match std::fs::read_to_string(&path) {
            Ok(t) => inputs.push((path.display().to_string(), t)),
            Err(e) => eprintln!("{}: {e}", path.display()),
        }
    }
    if args.is_empty() {
        for n in [1_000, 10_000, 50_000] {
            inputs.push((format!("synthetic: {n} diamonds in a loop"), diamonds(n)));
        }
    }
    for (name, text) in inputs {
        let funcs: Vec<_> = warpscope::pipeline::lower_text(&text)
            .into_iter()
            .filter(|f| f.body_span.is_some())
            .collect();
        let ops: usize = funcs.iter().map(|f| f.ops.len()).sum();
        let cfgs: Vec<Cfg> = funcs.iter().map(Cfg::build).collect();
        let (mut values, mut phis) = (0, 0);
        for (f, c) in funcs.iter().zip(&cfgs) {
            let s = Ssa::build(f, c);
            values += s.values().len();
            phis += s.phis().len();
        }
        let rounds = 15;
        let (mut t_cfg, mut t_ssa) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            let t0 = thread_cpu();
            for f in &funcs {
                std::hint::black_box(Cfg::build(f));
            }
            let t1 = thread_cpu();
            for (f, c) in funcs.iter().zip(&cfgs) {
                std::hint::black_box(Ssa::build(f, c));
            }
            let t2 = thread_cpu();
            t_cfg.push(t1 - t0);
            t_ssa.push(t2 - t1);
        }
        let (c, s) = (median(t_cfg), median(t_ssa));
        println!(
            "{}: {:.1} KB, {} functions, {} ops, {} values, {} phis | CFG {:.2} ms | SSA {:.2} ms ({:.0} ns/op, {:.1} MB/s of PTX, {:.2}x the CFG)",
            name,
            text.len() as f64 / 1e3,
            funcs.len(),
            ops,
            values,
            phis,
            c * 1e3,
            s * 1e3,
            s * 1e9 / ops.max(1) as f64,
            text.len() as f64 / 1e6 / s,
            s / c
        );
    }
}

/// A kernel whose loop body is `n` diamonds, each writing `%r1..%r4` on both
/// arms and reading them after the join.
fn diamonds(n: usize) -> String {
    let mut s = String::from(
        ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\
         .reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n\
         ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmov.u32 %r5, 0;\nTOP:\n",
    );
    for i in 0..n {
        s.push_str(&format!(
            "setp.lt.u32 %p1, %r1, {i};\n@%p1 bra L{i};\n\
             add.s32 %r2, %r1, 1;\nadd.s32 %r3, %r2, 1;\nadd.s32 %r4, %r3, %r5;\nbra.uni J{i};\n\
             L{i}:\nadd.s32 %r2, %r1, 2;\nadd.s32 %r3, %r2, 2;\nadd.s32 %r4, %r3, %r1;\n\
             J{i}:\nadd.s32 %r1, %r2, %r4;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n\
             st.global.u32 [%rd3], %r3;\n"
        ));
    }
    s.push_str("add.s32 %r5, %r5, 1;\nsetp.lt.u32 %p1, %r5, 9;\n@%p1 bra TOP;\nret;\n}\n");
    s
}
