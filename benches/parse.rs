//! Parse throughput, single thread: `cargo bench --bench parse [-- DIR...]`.
//!
//! Reads every `*.ptx` under the given directories (default: the big corpus in
//! `.corpus/`, built by `scripts/build-corpus.sh`, else `tests/corpus/`) into
//! memory, then parses all of them on one thread, several rounds, and reports
//! the median MB/s over the whole corpus and over its largest file. No IO is
//! timed.

mod common;

use common::collect;
use std::path::{Path, PathBuf};

/// The same allocator as the `warpscope` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::time::Instant;

/// CPU time of this thread, in seconds.
fn thread_cpu() -> f64 {
    common::cpu_seconds(libc::CLOCK_THREAD_CPUTIME_ID)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` does not, and
    // then this only checks that the benchmark builds.
    if !std::env::args().any(|a| a == "--bench") {
        println!("parse benchmark: run it with `cargo bench --bench parse`");
        return;
    }
    // As the binary does (src/main.rs): keep freed pages for reuse (1 s).
    // SAFETY: sets one integer option of the allocator.
    unsafe { libmimalloc_sys::mi_option_set(15, 1000) };
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dirs: Vec<PathBuf> = if args.is_empty() {
        let big = root.join(".corpus");
        vec![if big.is_dir() {
            big
        } else {
            root.join("tests/corpus")
        }]
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    let mut files = Vec::new();
    for d in &dirs {
        collect(d, &mut files);
    }
    files.sort();
    let texts: Vec<String> = files
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect();
    let total: usize = texts.iter().map(String::len).sum();
    let largest = texts
        .iter()
        .max_by_key(|t| t.len())
        .cloned()
        .unwrap_or_default();
    println!(
        "corpus: {} files, {:.1} MB, from {:?}",
        texts.len(),
        total as f64 / 1e6,
        dirs
    );

    let rounds = if total > 100_000_000 { 3 } else { 7 };
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    let mut stmts = 0usize;
    for _ in 0..rounds {
        let (t, c) = (Instant::now(), thread_cpu());
        stmts = 0;
        for s in &texts {
            let (m, d) = warpscope::syntax::parse(s);
            stmts += m
                .functions
                .iter()
                .filter_map(|f| f.body.as_ref())
                .map(|b| b.statements.len())
                .sum::<usize>();
            std::hint::black_box((&m, &d));
        }
        wall.push(total as f64 / 1e6 / t.elapsed().as_secs_f64());
        cpu.push(total as f64 / 1e6 / (thread_cpu() - c));
    }
    println!(
        "parse, whole corpus, 1 thread: {:.0} MB/s wall, {:.0} MB/s per CPU-second (medians of {rounds}; {} statements)",
        median(wall),
        median(cpu),
        stmts
    );

    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    for _ in 0..rounds {
        let (t, c) = (Instant::now(), thread_cpu());
        let r = warpscope::syntax::parse(&largest);
        std::hint::black_box(&r);
        wall.push(largest.len() as f64 / 1e6 / t.elapsed().as_secs_f64());
        cpu.push(largest.len() as f64 / 1e6 / (thread_cpu() - c));
    }
    println!(
        "parse, largest file ({:.1} MB), 1 thread: {:.0} MB/s wall, {:.0} MB/s per CPU-second (medians of {rounds})",
        largest.len() as f64 / 1e6,
        median(wall),
        median(cpu)
    );
}
