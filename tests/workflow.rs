//! The adoption workflow end to end, through the binary: configuration
//! shared by `check` and `report`, suppressions in the sources, baselines,
//! Triton cache folders, `diff`, and streaming over many files. Outputs are
//! snapshotted in `tests/fixtures/workflow/snapshots`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

impl Run {
    fn snapshot(&self) -> String {
        format!(
            "exit code: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn warpscope_in(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run warpscope");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn warpscope(args: &[&str]) -> Run {
    warpscope_in(root(), args)
}

fn snap(name: &str, text: &str) {
    insta::with_settings!({snapshot_path => "fixtures/workflow/snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, text);
    });
}

/// A fresh directory under the system's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("warpscope-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy(from: &str, to: &Path) {
    std::fs::copy(root().join(from), to).unwrap();
}

/// `[launch] block = [128]` in `warpscope.toml` applies to `report` as it
/// does to `check` (issue 10, item 8): one configuration call for both.
#[test]
fn report_applies_the_configuration_like_check() {
    let d = scratch("report-config");
    // Without its `.reqntid`, so that nothing but the configuration gives the block.
    let ptx = std::fs::read_to_string(root().join("tests/fixtures/check/render.ptx")).unwrap();
    assert!(ptx.contains(".reqntid 128, 1, 1\n"));
    std::fs::write(
        d.join("render.ptx"),
        ptx.replace(".reqntid 128, 1, 1\n", ""),
    )
    .unwrap();
    let with = |toml: Option<&str>| {
        match toml {
            Some(t) => std::fs::write(d.join("warpscope.toml"), t).unwrap(),
            None => {
                let _ = std::fs::remove_file(d.join("warpscope.toml"));
            }
        }
        let r = warpscope_in(&d, &["report", "--format", "json", "render.ptx"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        let c = warpscope_in(&d, &["check", "--format", "json", "render.ptx"]);
        let cv: serde_json::Value = serde_json::from_str(&c.stdout).unwrap();
        (
            v["files"][0]["kernels"][0]["launch"]["block"].clone(),
            cv["files"][0]["kernels"][0]["block"].clone(),
        )
    };
    let (report, check) = with(Some("[launch]\nblock = [128]\n"));
    assert_eq!(report, serde_json::json!([128, 1, 1]));
    assert_eq!(check, serde_json::json!([128, 1, 1]));
    // Without the file both fall back to the assumed 1-D block of 32.
    let (report, check) = with(None);
    assert_eq!(report, serde_json::json!([32, 1, 1]));
    assert_eq!(check, report);
    // An invalid configuration stops `report` too.
    std::fs::write(d.join("warpscope.toml"), "[launch]\nblok = 1\n").unwrap();
    let r = warpscope_in(&d, &["report", "render.ptx"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unknown field `blok`"), "{}", r.stderr);
    let r = warpscope_in(&d, &["report", "--no-config", "render.ptx"]);
    assert_eq!(r.code, 0, "--no-config ignores it: {}", r.stderr);
    std::fs::remove_dir_all(&d).unwrap();
}

/// Suppression comments in the CUDA source: on the line, on the line above,
/// unused ones reported (W190), unknown rule names reported.
#[test]
fn suppressions_in_the_cuda_source() {
    let d = scratch("suppress");
    copy("tests/fixtures/check/render.ptx", &d.join("render.ptx"));
    let cuda = std::fs::read_to_string(root().join("tests/fixtures/check/render.cu")).unwrap();
    let run = |cu: &str| {
        std::fs::write(d.join("render.cu"), cu).unwrap();
        warpscope_in(
            &d,
            &["check", "--no-config", "--format", "concise", "render.ptx"],
        )
    };
    let plain = run(&cuda);
    assert!(plain.stdout.contains("[W101]"), "{}", plain.stdout);
    // On the line.
    let on_line = cuda.replace(
        "float v = in[i * 32];",
        "float v = in[i * 32];  // warpscope: allow(uncoalesced-access)",
    );
    // On the line above, by code, with a rule that has nothing to allow and a name that is no rule.
    let above = cuda.replace(
        "    float v = in[i * 32];",
        "    // warpscope: allow(W101, narrow-access, not-a-rule)\n    float v = in[i * 32];",
    );
    let on_line_run = run(&on_line);
    assert!(
        !on_line_run.stdout.contains("[W101]"),
        "{}",
        on_line_run.stdout
    );
    let above_run = run(&above);
    assert!(!above_run.stdout.contains("[W101]"), "{}", above_run.stdout);
    assert!(above_run
        .stdout
        .contains("[W190] unused suppression: no `narrow-access` finding here"));
    assert!(above_run
        .stdout
        .contains("[W190] unused suppression: `not-a-rule` is not a rule"));
    // With --locations source, the unused suppression is placed on its comment.
    std::fs::write(d.join("render.cu"), &above).unwrap();
    let at_source = warpscope_in(
        &d,
        &[
            "check",
            "--no-config",
            "--format",
            "concise",
            "--locations",
            "source",
            "render.ptx",
        ],
    );
    snap(
        "suppressions",
        &format!(
            "## plain\n{}\n## on the line\n{}\n## above, with unused rules\n{}\n## above, --locations source\n{}",
            plain.snapshot(),
            on_line_run.snapshot(),
            above_run.snapshot(),
            at_source.snapshot()
        ),
    );
    // Per kernel in warpscope.toml.
    std::fs::write(d.join("render.cu"), &cuda).unwrap();
    std::fs::write(
        d.join("warpscope.toml"),
        "[[kernel]]\nmatch = \"*render*\"\nallow = [\"uncoalesced-access\"]\n",
    )
    .unwrap();
    let per_kernel = warpscope_in(&d, &["check", "--format", "concise", "render.ptx"]);
    assert!(
        !per_kernel.stdout.contains("[W101]"),
        "{}",
        per_kernel.stdout
    );
    assert!(
        per_kernel.stdout.contains("[W104]"),
        "other rules stay: {}",
        per_kernel.stdout
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// `--write-baseline` then `--baseline`: only new findings are reported and
/// fail the run; unrelated lines added above do not make old findings new.
#[test]
fn baseline_reports_only_new_findings() {
    let d = scratch("baseline");
    let ptx = std::fs::read_to_string(root().join("tests/fixtures/check/render.ptx")).unwrap();
    std::fs::write(d.join("k.ptx"), &ptx).unwrap();
    let w = warpscope_in(
        &d,
        &[
            "check",
            "--no-config",
            "-D",
            "warnings",
            "--write-baseline",
            "base.json",
            "k.ptx",
        ],
    );
    assert_eq!(w.code, 0, "{}", w.stderr);
    assert_eq!(w.stdout, "");
    let base: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("base.json")).unwrap()).unwrap();
    let recorded = base["findings"].as_array().unwrap().len();
    assert!(recorded >= 2, "{base}");
    // Same findings, lines moved by a comment block at the top.
    let moved = ptx.replacen("\n", "\n// regenerated\n// by a newer compiler\n", 1);
    std::fs::write(d.join("k.ptx"), &moved).unwrap();
    let again = warpscope_in(
        &d,
        &[
            "check",
            "--no-config",
            "-D",
            "warnings",
            "--baseline",
            "base.json",
            "k.ptx",
        ],
    );
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    assert_eq!(again.stdout, "");
    assert_eq!(
        again.stderr,
        format!("{recorded} findings in the baseline not shown\n")
    );
    // A new uncoalesced access: reported, exit 1. (A copy of the same
    // load would not be one: ptxas reuses the bytes of the first,
    // `analysis::merge`, so the copy reads 256 bytes further.)
    let worse = moved.clone();
    let line = worse
        .lines()
        .find(|l| l.trim_start().starts_with("ld.global"))
        .expect("a global load")
        .to_string();
    let shifted = line.replacen("];", "+256];", 1);
    assert_ne!(shifted, line);
    let worse = worse.replacen(&line, &format!("{line}\n{shifted}"), 1);
    std::fs::write(d.join("k.ptx"), &worse).unwrap();
    let new = warpscope_in(
        &d,
        &[
            "check",
            "--no-config",
            "-D",
            "warnings",
            "--format",
            "concise",
            "--baseline",
            "base.json",
            "k.ptx",
        ],
    );
    assert_eq!(new.code, 1, "{}{}", new.stdout, new.stderr);
    assert_eq!(new.stdout.lines().count(), 1, "{}", new.stdout);
    let bad = warpscope_in(&d, &["check", "--baseline", "k.ptx", "k.ptx"]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("not a warpscope baseline"),
        "{}",
        bad.stderr
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// A Triton cache folder: each kernel's `.json` metadata gives its block
/// (`num_warps` x 32), and `.loc` points at the Python lines.
#[test]
fn triton_cache_folders_give_launch_facts() {
    let r = warpscope(&[
        "check",
        "--no-config",
        "--format",
        "json",
        "tests/fixtures/triton/cache",
    ]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let blocks: Vec<(String, serde_json::Value, bool)> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["kernels"].as_array().unwrap().clone())
        .map(|k| {
            (
                k["name"].as_str().unwrap().to_string(),
                k["block"].clone(),
                k["block_assumed"].as_bool().unwrap(),
            )
        })
        .collect();
    // strided_copy.json: num_warps 2; vector_add.json: num_warps 4.
    let mut blocks = blocks;
    blocks.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        blocks,
        vec![
            (
                "strided_copy".to_string(),
                serde_json::json!([64, 1, 1]),
                false
            ),
            (
                "vector_add".to_string(),
                serde_json::json!([128, 1, 1]),
                false
            ),
        ]
    );
    // Every finding is placed on a line of the Python source (the `.file`
    // path is absolute, from where the fixtures were generated: only its end
    // is the same on every machine).
    let concise = warpscope(&[
        "check",
        "--no-config",
        "--format",
        "concise",
        "--locations",
        "source",
        "tests/fixtures/triton/cache",
    ]);
    // Only the path's end is machine-independent: the generating checkout's
    // prefix is stripped only when the tests run from that very directory.
    for line in concise.stdout.lines() {
        let (path, _) = line.split_once(".py:").expect(line);
        assert!(path.ends_with("tests/fixtures/triton/kernels"), "{line}");
    }
}

/// `diff` of two versions (tests/fixtures/diff/README.md): the read that
/// became a column read is worse, exit 1; the same through JSON reports.
#[test]
fn diff_finds_the_regression() {
    let old = "tests/fixtures/diff/old";
    let new = "tests/fixtures/diff/new";
    let text = warpscope(&["diff", "--no-config", old, new]);
    assert_eq!(text.code, 1, "{}", text.snapshot());
    let md = warpscope(&["diff", "--no-config", "--format", "markdown", old, new]);
    let files = warpscope(&[
        "diff",
        "--no-config",
        "tests/fixtures/diff/old/render.ptx",
        "tests/fixtures/diff/new/render.ptx",
    ]);
    assert_eq!(files.code, 1);
    let same = warpscope(&["diff", "--no-config", old, old]);
    assert_eq!(same.code, 0);
    // 4 -> 32 sectors is +700%: below a 1000% threshold it is only changed.
    let lax = warpscope(&["diff", "--no-config", "--threshold", "4000", old, new]);
    assert_eq!(lax.code, 0, "{}", lax.stdout);
    assert!(
        lax.stdout
            .contains("changed render.ptx: render_kernel render.cu:4"),
        "{}",
        lax.stdout
    );
    // JSON reports (check's and report's layouts) give the same changes.
    let d = scratch("diff");
    for (side, dir) in [("old", old), ("new", new)] {
        let c = warpscope(&[
            "check",
            "--no-config",
            "--format",
            "json",
            "--exit-zero",
            dir,
        ]);
        std::fs::write(d.join(format!("{side}-check.json")), &c.stdout).unwrap();
        let r = warpscope(&["report", "--no-config", "--format", "json", dir]);
        std::fs::write(d.join(format!("{side}-report.json")), &r.stdout).unwrap();
    }
    let from_check = warpscope_in(
        &d,
        &[
            "diff",
            "--format",
            "json",
            "old-check.json",
            "new-check.json",
        ],
    );
    let from_report = warpscope_in(
        &d,
        &[
            "diff",
            "--format",
            "json",
            "old-report.json",
            "new-report.json",
        ],
    );
    let changes = |r: &Run| {
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        v["changes"].clone()
    };
    assert_eq!(from_check.code, 1);
    assert_eq!(changes(&from_check)[0]["location"], "render.cu:4");
    assert_eq!(changes(&from_check), changes(&from_report));
    let mixed = warpscope_in(
        &d,
        &["diff", "old-check.json", root().join(old).to_str().unwrap()],
    );
    assert_eq!(mixed.code, 2);
    snap(
        "diff",
        &format!(
            "## text\n{}\n## markdown\n{}\n## same\n{}",
            text.snapshot(),
            md.snapshot(),
            same.snapshot()
        ),
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// Two Triton caches: the hash folders differ, so files pair by name (no
/// file is reported added or removed).
#[test]
fn diff_pairs_triton_cache_entries_by_name() {
    let r = warpscope(&[
        "diff",
        "--no-config",
        "tests/fixtures/triton/old/cache",
        "tests/fixtures/triton/new/cache",
    ]);
    assert!(r.code == 0 || r.code == 1, "{}", r.snapshot());
    assert!(r.stdout.starts_with("warpscope diff: "), "{}", r.stdout);
    assert!(
        !r.stdout.contains("added file") && !r.stdout.contains("removed file"),
        "{}",
        r.stdout
    );
    for line in r
        .stdout
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("summary") && !l.starts_with("no access"))
    {
        assert!(line.contains("scale.ptx: scale scale.py:"), "{line}");
    }
}

/// Many files: results in input order, every format well-formed, no
/// progress bar when stderr is not a terminal.
#[test]
fn many_files_stream_in_order() {
    let d = scratch("stream");
    let ptx = std::fs::read_to_string(root().join("tests/fixtures/check/render.ptx")).unwrap();
    let n = 40;
    for i in 0..n {
        std::fs::write(d.join(format!("k{i:03}.ptx")), &ptx).unwrap();
    }
    let concise = warpscope_in(&d, &["check", "--no-config", "--format", "concise", "."]);
    assert_eq!(concise.stderr, "", "no progress bar off a terminal");
    let files: Vec<&str> = concise
        .stdout
        .lines()
        .map(|l| l.split(':').next().unwrap())
        .collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted);
    assert_eq!(
        sorted
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        n
    );
    for format in ["json", "sarif", "gitlab"] {
        let r = warpscope_in(&d, &["check", "--no-config", "--format", format, "."]);
        let v: serde_json::Value = serde_json::from_str(&r.stdout)
            .unwrap_or_else(|e| panic!("{format}: {e}\n{}", r.stdout));
        let count = match format {
            "json" => v["files"].as_array().unwrap().len(),
            "sarif" => {
                v["runs"][0]["results"].as_array().unwrap().len()
                    / (concise.stdout.lines().count() / n)
            }
            _ => v.as_array().unwrap().len() / (concise.stdout.lines().count() / n),
        };
        assert_eq!(count, n, "{format}");
    }
    let report = warpscope_in(&d, &["report", "--no-config", "--format", "json", "."]);
    let v: serde_json::Value = serde_json::from_str(&report.stdout).unwrap();
    assert_eq!(v["files"].as_array().unwrap().len(), n);
    assert_eq!(v["files"][n - 1]["path"], format!("./k{:03}.ptx", n - 1));
    std::fs::remove_dir_all(&d).unwrap();
}

/// On a terminal (stderr a pseudo-terminal) the progress bar is drawn and
/// cleared; `--quiet` draws nothing.
#[test]
fn progress_bar_only_on_a_terminal_and_not_when_quiet() {
    use std::io::Read;
    use std::os::fd::FromRawFd;
    let d = scratch("progress");
    let ptx = std::fs::read_to_string(root().join("tests/fixtures/check/render.ptx")).unwrap();
    for i in 0..6 {
        std::fs::write(d.join(format!("k{i}.ptx")), &ptx).unwrap();
    }
    let on_terminal = |quiet: bool| -> (String, String) {
        let (mut master, mut slave) = (0, 0);
        // SAFETY: openpty writes two descriptors into the given integers.
        let r = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(r, 0, "openpty");
        // SAFETY: both descriptors were just opened and are owned here.
        let (master, slave) = unsafe {
            (
                std::fs::File::from_raw_fd(master),
                std::fs::File::from_raw_fd(slave),
            )
        };
        let mut args = vec!["check", "--no-config", "--format", "concise", "."];
        if quiet {
            args.push("--quiet");
        }
        let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
            .current_dir(&d)
            .args(&args)
            .stdin(Stdio::null())
            .stderr(slave)
            .output()
            .unwrap();
        // The child has exited: everything it drew is in the master's buffer.
        let mut buf = vec![0u8; 1 << 16];
        // SAFETY: plain fcntl on an owned descriptor.
        unsafe {
            use std::os::fd::AsRawFd;
            let fd = master.as_raw_fd();
            libc::fcntl(
                fd,
                libc::F_SETFL,
                libc::fcntl(fd, libc::F_GETFL) | libc::O_NONBLOCK,
            );
        }
        let mut master = master;
        let n = master.read(&mut buf).unwrap_or(0);
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&buf[..n]).into_owned(),
        )
    };
    let (stdout, drawn) = on_terminal(false);
    assert_eq!(stdout.lines().count(), 12, "{stdout}");
    assert!(drawn.contains("/6 files"), "{drawn:?}");
    let (quiet_stdout, quiet_drawn) = on_terminal(true);
    assert_eq!(quiet_stdout, stdout);
    assert_eq!(quiet_drawn, "");
    std::fs::remove_dir_all(&d).unwrap();
}
