//! The `warpscope` command line: a thin layer over the library, whose
//! `cli` module parses the arguments and runs the subcommands (the Python
//! package's console script calls the same function).

/// The syntax tree is many small allocations; mimalloc serves them faster
/// than the system allocator and keeps freed pages for the next file.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc's `mi_option_e` (v2 and v3 alike; the
/// `libmimalloc-sys` bindings name its neighbours 14 and 16 but not it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// How long freed memory is kept for reuse, in milliseconds.
const PURGE_DELAY_MS: std::ffi::c_long = 1000;

fn main() -> std::process::ExitCode {
    // Keep freed memory for a second before returning it to the OS, instead
    // of mimalloc's 10 ms: each file's syntax tree is freed and the next
    // one's allocated moments later, and re-faulting those pages cost a
    // third of the parse time on large corpora (BENCHMARKS.md). Not for
    // ever (-1, until stop 18): `check` frees a file's analysis (1.1 GB on
    // the largest cuBLAS file) and does not allocate as much again, and
    // kept pages held its peak RSS at 2.9-3.2 GB instead of 1.85 GB
    // (BENCHMARKS.md, "Stop 18"); `parse --stats` over the cuBLAS corpus
    // takes the same time with 1 s as with -1.
    // SAFETY: sets one integer option; mimalloc reads it on later purges.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
    warpscope::cli::main().into()
}
