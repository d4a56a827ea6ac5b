//! Where `check`'s memory goes: `cargo bench --bench mem -- FILE...`.
//!
//! A counting global allocator (around mimalloc, the binary's allocator)
//! keeps the bytes live and their peak. For each file the bench runs the
//! stages of `warpscope check` one after the other on one thread and
//! prints, in MB and as a multiple of the file's size:
//! - `text`: the source as read;
//! - `tree`: the syntax tree and the parser's diagnostics (live after
//!   `syntax::parse_file`), and the parser's own peak above the text;
//! - `sema`: the symbol tables of `check_module_without_resolutions`;
//! - per kernel, in source order: the lowered IR (live after lowering), the
//!   analysis's peak above that, and what its result keeps; the largest of
//!   each is printed, with the sum of the results;
//! - `lint`: the findings added by `lints::lint_analysis`;
//! - `check`: the peak of the whole `lints::check_file` (the kernels in
//!   parallel, `RAYON_NUM_THREADS` threads) above the text, every kernel's
//!   analysis kept; then `lints::check_file_with(.., false)`, each kernel
//!   linted and its analysis dropped in its worker, what the binary's
//!   `check` holds of a file it prints whole (`sarif`, `gitlab`, a
//!   baseline, suppression comments); then `lints::check_file_parts`, the
//!   findings handed over a stretch at a time and dropped, as the binary's
//!   `check` prints them (the default); and the process's peak RSS.
//!
//! Live bytes are requested sizes (not mimalloc's size classes or pages),
//! so RSS is somewhat higher. `cargo test --all-targets` runs it without
//! `--bench`: it then only checks that it builds.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to mimalloc unchanged; the counters are
// only statistics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.alloc(l) };
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { mimalloc::MiMalloc.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Relaxed);
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.alloc_zeroed(l) };
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { mimalloc::MiMalloc.realloc(p, l, new) };
        if !q.is_null() {
            if new >= l.size() {
                let now = LIVE.fetch_add(new - l.size(), Relaxed) + (new - l.size());
                PEAK.fetch_max(now, Relaxed);
            } else {
                LIVE.fetch_sub(l.size() - new, Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn live() -> usize {
    LIVE.load(Relaxed)
}

/// Resets the peak to the live bytes and returns them.
fn reset_peak() -> usize {
    let l = live();
    PEAK.store(l, Relaxed);
    l
}

fn peak() -> usize {
    PEAK.load(Relaxed)
}

fn peak_rss_mb() -> f64 {
    // SAFETY: getrusage fills the zeroed struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    ru.ru_maxrss as f64 / 1024.0
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("mem benchmark: run it with `cargo bench --bench mem -- FILE...`");
        return;
    }
    let files: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let config = warpscope::config::Config::default();
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else {
            println!("{path}: cannot read");
            continue;
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        drop(bytes);
        let n = text.len();
        let mb = |b: usize| format!("{:8.1} MB {:6.2}x", b as f64 / 1e6, b as f64 / n as f64);
        println!("{path}: {:.2} MB", n as f64 / 1e6);
        let file = warpscope::SourceFile::from_text(path.clone(), text);
        let base = reset_peak();
        println!("  text+line index  {}", mb(base));
        stages(&file, &config, &mb);
        let base = reset_peak();
        let r = warpscope::lints::check_file(&file, &config);
        let held = live() - base;
        let p = peak() - base;
        drop(std::hint::black_box(r));
        println!("  check: peak {}  result kept {}", mb(p), mb(held));
        let base = reset_peak();
        let r = warpscope::lints::check_file_with(&file, &config, false);
        let held = live() - base;
        let p = peak() - base;
        drop(std::hint::black_box(r));
        println!(
            "  check, each kernel dropped once linted: peak {}  result kept {}",
            mb(p),
            mb(held)
        );
        let base = reset_peak();
        let mut parts = 0;
        warpscope::lints::check_file_parts(&file, &config, |p| {
            parts += 1;
            drop(std::hint::black_box(p));
        });
        println!(
            "  check in parts, each dropped as it comes (the binary's `check`): peak {}  ({parts} parts)",
            mb(peak() - base)
        );
        println!("  process peak RSS so far: {:.0} MB", peak_rss_mb());
    }
}

fn stages(
    file: &warpscope::SourceFile,
    config: &warpscope::config::Config,
    mb: &dyn Fn(usize) -> String,
) {
    use warpscope::lower::ptx;
    use warpscope::syntax::ast::FunctionKind;
    let b0 = reset_peak();
    let (module, diags) = warpscope::syntax::parse_file(file);
    let tree = live() - b0;
    println!(
        "  tree             {}  (parser peak {})",
        mb(tree),
        mb(peak() - b0)
    );
    let b1 = reset_peak();
    let (symbols, sema_diags) = warpscope::sema::check_module_without_resolutions(&module);
    println!(
        "  sema             {}  (peak {})",
        mb(live() - b1),
        mb(peak() - b1)
    );
    let b2 = reset_peak();
    let globals = ptx::module_globals(&module);
    let files = ptx::module_files(&module);
    let callees = ptx::Callees::new(&module);
    println!("  lowering context {}", mb(live() - b2));
    let (mut max_ir, mut max_an, mut kept, mut kernels) = (0, 0, 0, 0);
    let mut results = Vec::new();
    for id in module.function_ids() {
        let f = module.function(id);
        if f.kind != FunctionKind::Entry || f.body.is_none() {
            continue;
        }
        kernels += 1;
        let b = reset_peak();
        let ir = ptx::lower_in(
            f,
            Some(&callees),
            &globals,
            &files,
            symbols.function(id).scopes(),
        );
        let ir_bytes = live() - b;
        max_ir = max_ir.max(peak() - b);
        let b = reset_peak();
        let k = warpscope::analysis::analyze_function(file, &ir, &config.options);
        max_an = max_an.max(peak() - b);
        drop(ir);
        kept += live() + ir_bytes - b;
        results.push(k);
    }
    println!(
        "  {kernels} kernels: largest IR (lowering peak) {}",
        mb(max_ir)
    );
    println!("  largest analysis peak above its IR       {}", mb(max_an));
    println!("  results kept, all kernels               {}", mb(kept));
    let analysis = warpscope::Analysis {
        kernels: results,
        diagnostics: diags.into_iter().chain(sema_diags).collect(),
    };
    drop(symbols);
    let b3 = reset_peak();
    let r = warpscope::lints::lint_analysis(file, analysis, config);
    println!("  lint (findings)  {}", mb(live() - b3));
    drop(r);
    drop(module);
}
