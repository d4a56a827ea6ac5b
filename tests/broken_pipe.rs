//! A reader that goes away is a normal end of the output: `warpscope rules |
//! head` must neither panic nor fail. Each command runs with its standard
//! output on a pipe whose read end is already closed, so its first write
//! meets `EPIPE` (Rust ignores `SIGPIPE`, so the write returns `BrokenPipe`).

use std::os::fd::FromRawFd;
use std::process::{Command, Stdio};

/// Runs warpscope with stdout on a pipe closed for reading; (status, stderr).
fn closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let mut fds = [0i32; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: closes the read end we own; the write end goes to the child.
    unsafe { libc::close(fds[0]) };
    // SAFETY: fds[1] is an open descriptor owned by nothing else.
    let write_end = unsafe { std::fs::File::from_raw_fd(fds[1]) };
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::from(write_end))
        .stderr(Stdio::piped())
        .output()
        .expect("run warpscope");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_command_ends_normally_on_a_closed_pipe() {
    let ptx = "tests/fixtures/analysis/calls.ptx";
    let cases: &[&[&str]] = &[
        &["rules"],
        &["rules", "--format", "json"],
        &["explain", "W101"],
        &["parse", "--stats", ptx],
        &["cfg", ptx],
        &["report", "--block", "128", "--grid", "2", ptx],
        &["report", "--format", "json", ptx],
        &["check", ptx],
        &["diff", ptx, ptx],
        &["--help"],
    ];
    for args in cases {
        let (code, stderr) = closed_pipe(args);
        assert!(
            !stderr.contains("panicked"),
            "warpscope {args:?} panicked on a closed pipe:\n{stderr}"
        );
        assert!(
            !stderr.contains("error: writing"),
            "warpscope {args:?} reported the closed pipe as an error:\n{stderr}"
        );
        // `check` exits 1 when it finds something, as it does on a terminal.
        let expected = if args[0] == "check" { [0, 1] } else { [0, 0] };
        assert!(
            code.is_some_and(|c| expected.contains(&c)),
            "warpscope {args:?} exited {code:?} on a closed pipe:\n{stderr}"
        );
    }
}
