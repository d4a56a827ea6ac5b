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

/// `mi_option_allow_thp` in mimalloc v3's `mi_option_e` (not named by the
/// `libmimalloc-sys` bindings either).
const MI_OPTION_ALLOW_THP: libmimalloc_sys::mi_option_t = 43;

/// `PR_SET_THP_DISABLE` of `<linux/prctl.h>`.
#[cfg(target_os = "linux")]
const PR_SET_THP_DISABLE: std::ffi::c_int = 41;

#[cfg(target_os = "linux")]
extern "C" {
    fn prctl(option: std::ffi::c_int, ...) -> std::ffi::c_int;
}

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
    // No transparent huge pages: mimalloc asks for them on its arenas
    // (`madvise`), and a huge page is 2 MB zeroed and resident on the first
    // touch of any of its bytes. On ten cuBLAS files `check`'s peak RSS
    // was 37% lower without them (mean 113 -> 71 MB) for the same CPU time
    // within the noise (BENCHMARKS.md, "Stop 19"). The first arena was mapped before `main`,
    // so the process-wide switch, which covers existing mappings, is what
    // turns them off; the option keeps mimalloc from asking again.
    // SAFETY: `prctl` with an integer option and integer arguments; it
    // changes no memory of this process. The option is one integer.
    #[cfg(target_os = "linux")]
    unsafe {
        let (on, zero): (std::ffi::c_ulong, std::ffi::c_ulong) = (1, 0);
        prctl(PR_SET_THP_DISABLE, on, zero, zero, zero);
        libmimalloc_sys::mi_option_set(MI_OPTION_ALLOW_THP, 0);
    }
    warpscope::cli::main().into()
}
