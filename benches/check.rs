//! End-to-end `check` throughput: `cargo bench --bench check [-- PATH...]`.
//!
//! For every `*.ptx` file under the given paths (files or folders; default:
//! `$WARPSCOPE_CORPUS/libs`, else the big corpus in `.corpus/`, else
//! `tests/corpus/`), reads it (not timed), then runs the library's `check`
//! on it ([`warpscope::lints::check_file`] with the default configuration:
//! parse, name resolution, lowering, the analysis of every kernel, the
//! lints) and drops the result before the next file, as `warpscope check`
//! does. Kernels of one file are analysed in parallel (rayon), so the cost
//! is taken in CPU time of the whole process (`CLOCK_PROCESS_CPUTIME_ID`);
//! on the shared development machine wall time says more about the other
//! sessions than about this code. Reports:
//! - the whole input's rate, MB per CPU-second (and wall);
//! - the slowest file's rate among files of at least [`MIN_FILE`] bytes
//!   (smaller ones are dominated by timer resolution and fixed costs) and
//!   the five slowest;
//! - the process's peak RSS (`getrusage`), which includes this harness.
//!
//! `--limit N` stops after N files (in path order).

mod common;

use common::collect;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The same allocator as the `warpscope` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Files smaller than this are left out of the per-file minimum.
const MIN_FILE: usize = 100_000;

/// CPU time of the whole process (every thread), in seconds.
fn process_cpu() -> f64 {
    common::cpu_seconds(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// Peak resident set of this process, in MB.
fn peak_rss_mb() -> f64 {
    // SAFETY: getrusage fills the zeroed struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    ru.ru_maxrss as f64 / 1024.0
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` does not, and
    // then this only checks that the benchmark builds.
    if !std::env::args().any(|a| a == "--bench") {
        println!("check benchmark: run it with `cargo bench --bench check`");
        return;
    }
    // As the binary does (src/main.rs): keep freed pages for reuse (1 s).
    // SAFETY: sets one integer option of the allocator.
    unsafe { libmimalloc_sys::mi_option_set(15, 1000) };
    let mut limit = usize::MAX;
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--limit" {
            limit = args.next().and_then(|n| n.parse().ok()).unwrap_or(limit);
        } else if !a.starts_with("--") {
            paths.push(PathBuf::from(a));
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if paths.is_empty() {
        let env = std::env::var_os("WARPSCOPE_CORPUS").map(|c| PathBuf::from(c).join("libs"));
        let big = root.join(".corpus");
        paths.push(match env {
            Some(c) if c.is_dir() => c,
            _ if big.is_dir() => big,
            _ => root.join("tests/corpus"),
        });
    }
    let mut files = Vec::new();
    for p in &paths {
        collect(p, &mut files);
    }
    files.sort();
    files.truncate(limit);
    let config = warpscope::config::Config::default();
    let mut total_bytes = 0usize;
    let mut total_cpu = 0.0;
    let mut total_wall = 0.0;
    let mut per_file: Vec<(f64, usize, f64, PathBuf)> = Vec::new();
    let mut diagnostics = 0usize;
    for p in &files {
        let Ok(bytes) = std::fs::read(p) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        drop(bytes);
        let len = text.len();
        let file = warpscope::SourceFile::from_text(p.display().to_string(), text);
        let (t, c) = (Instant::now(), process_cpu());
        let r = warpscope::lints::check_file(&file, &config);
        diagnostics += r.findings.len();
        drop(std::hint::black_box(r));
        let (cpu, wall) = (process_cpu() - c, t.elapsed().as_secs_f64());
        drop(file);
        total_bytes += len;
        total_cpu += cpu;
        total_wall += wall;
        let rate = len as f64 / 1e6 / cpu.max(1e-9);
        per_file.push((rate, len, cpu, p.clone()));
    }
    println!(
        "check: {} files, {:.1} MB, from {:?}; {diagnostics} diagnostics",
        per_file.len(),
        total_bytes as f64 / 1e6,
        paths
    );
    println!(
        "check, whole input: {:.1} MB/s per CPU-second ({:.2} CPU-s), {:.1} MB/s wall ({:.2} s)",
        total_bytes as f64 / 1e6 / total_cpu.max(1e-9),
        total_cpu,
        total_bytes as f64 / 1e6 / total_wall.max(1e-9),
        total_wall
    );
    let mut big: Vec<_> = per_file.iter().filter(|f| f.1 >= MIN_FILE).collect();
    big.sort_by(|a, b| a.0.total_cmp(&b.0));
    match big.first() {
        Some(f) => println!(
            "check, slowest file of at least {} KB: {:.2} MB/s per CPU-second ({}, {:.2} MB, {:.2} CPU-s)",
            MIN_FILE / 1000,
            f.0,
            f.3.display(),
            f.1 as f64 / 1e6,
            f.2
        ),
        None => println!("check: no file of at least {} KB", MIN_FILE / 1000),
    }
    for f in big.iter().take(5) {
        println!(
            "  {:8.2} MB/s  {:7.2} MB  {:7.2} CPU-s  {}",
            f.0,
            f.1 as f64 / 1e6,
            f.2,
            f.3.display()
        );
    }
    println!("peak RSS of the benchmark process: {:.0} MB", peak_rss_mb());
}
