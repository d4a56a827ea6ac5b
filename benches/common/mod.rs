//! What the release-mode bench binaries share: the corpus walker and the
//! CPU clocks.

use std::path::{Path, PathBuf};

/// `p` itself when it is a file, else every `*.ptx` below it, recursively.
pub fn collect(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_file() {
        out.push(p.to_path_buf());
        return;
    }
    let Ok(rd) = std::fs::read_dir(p) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "ptx") {
            out.push(p);
        }
    }
}

/// CPU time of `clock` (`CLOCK_THREAD_CPUTIME_ID`: this thread;
/// `CLOCK_PROCESS_CPUTIME_ID`: every thread), in seconds.
pub fn cpu_seconds(clock: libc::clockid_t) -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into the valid pointer.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}
