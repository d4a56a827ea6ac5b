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

fn main() -> std::process::ExitCode {
    // Keep freed memory instead of returning it to the OS after 10 ms: each
    // file's syntax tree is freed and the next one's allocated moments
    // later, and re-faulting those pages cost a third of the parse time on
    // large corpora (BENCHMARKS.md). The process is short-lived (or, as a
    // language server, re-parses the same documents).
    // SAFETY: sets one integer option; mimalloc reads it on later purges.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
    warpscope::cli::main().into()
}
