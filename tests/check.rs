//! `warpscope check`, `explain` and `rules` end to end: the binary run on
//! fixtures, its output and exit code snapshotted.

use std::io::Write;
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

fn warpscope(args: &[&str]) -> Run {
    warpscope_stdin(args, None)
}

fn warpscope_stdin(args: &[&str], stdin: Option<&str>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run warpscope");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn snap(name: &str, text: &str) {
    insta::with_settings!({snapshot_path => "fixtures/check/snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, text);
    });
}

const SYNTAX: &str = "tests/fixtures/check/syntax_error.ptx";

#[test]
fn rules_lists_every_rule() {
    let r = warpscope(&["rules"]);
    assert_eq!(r.code, 0);
    for name in [
        "uncoalesced-access",
        "misaligned-access",
        "narrow-access",
        "data-dependent-access",
        "local-memory-access",
        "uniform-store",
        "syntax-error",
    ] {
        assert!(r.stdout.contains(name), "{name} missing:\n{}", r.stdout);
    }
    snap("rules", &r.snapshot());
    let j = warpscope(&["rules", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&j.stdout).unwrap();
    assert!(v
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["code"] == "W101" && r["default_level"] == "warn"));
}

#[test]
fn explain_prints_the_doc_comment_by_code_or_name() {
    let by_code = warpscope(&["explain", "W101"]);
    let by_name = warpscope(&["explain", "uncoalesced-access"]);
    assert_eq!(by_code.code, 0);
    assert_eq!(by_code.stdout, by_name.stdout);
    assert!(by_code.stdout.contains("## How to fix it"));
    snap("explain-W101", &by_code.snapshot());
    let fe = warpscope(&["explain", "E0001"]);
    assert!(fe.stdout.contains("syntax-error"), "{}", fe.stdout);
}

#[test]
fn explain_unknown_rule_is_a_usage_error() {
    let r = warpscope(&["explain", "no-such-lint"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("unknown rule `no-such-lint`"),
        "{}",
        r.stderr
    );
}

#[test]
fn missing_path_is_an_io_error() {
    let r = warpscope(&["check", "tests/fixtures/check/nope.ptx"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .starts_with("error: tests/fixtures/check/nope.ptx: no such file"),
        "{}",
        r.stderr
    );
}

#[test]
fn unknown_lint_on_the_command_line_is_a_usage_error() {
    let r = warpscope(&["check", "--no-config", "-D", "uncoalesced", SYNTAX]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("unknown lint `uncoalesced`"),
        "{}",
        r.stderr
    );
}

#[test]
fn config_error_points_at_the_key() {
    let r = warpscope(&[
        "check",
        "--color",
        "never",
        "tests/fixtures/check/bad-config/k.ptx",
    ]);
    assert_eq!(r.code, 2, "{}", r.snapshot());
    assert!(r.stderr.contains("unknown field `blok`"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("tests/fixtures/check/bad-config/warpscope.toml:9:1"),
        "{}",
        r.stderr
    );
    snap("config-error", &r.snapshot());
}

#[test]
fn pyproject_tool_table_is_read_and_checked() {
    let r = warpscope(&[
        "check",
        "--color",
        "never",
        "tests/fixtures/check/bad-pyproject/k.ptx",
    ]);
    assert_eq!(r.code, 2, "{}", r.snapshot());
    assert!(
        r.stderr.contains("bad-pyproject/pyproject.toml:5:17"),
        "{}",
        r.stderr
    );
    snap("pyproject-error", &r.snapshot());
}

#[test]
fn explicit_config_and_no_config() {
    let r = warpscope(&[
        "check",
        "--config",
        "tests/fixtures/check/bad-config/warpscope.toml",
        SYNTAX,
    ]);
    assert_eq!(r.code, 2);
    let r = warpscope(&[
        "check",
        "--no-config",
        "tests/fixtures/check/bad-config/k.ptx",
    ]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
}

#[test]
fn syntax_error_fails_with_a_located_diagnostic() {
    let r = warpscope(&["check", "--color", "never", SYNTAX]);
    assert_eq!(r.code, 1, "{}", r.snapshot());
    assert!(r.stdout.contains("[E0001]"), "{}", r.stdout);
    snap("syntax-error-full", &r.snapshot());
}

#[test]
fn exit_zero_and_allow_change_the_exit_code() {
    assert_eq!(warpscope(&["check", "--exit-zero", SYNTAX]).code, 0);
    let allowed = warpscope(&["check", "-A", "syntax-error", SYNTAX]);
    assert_eq!(allowed.code, 0, "{}", allowed.snapshot());
    assert!(!allowed.stdout.contains("E0001"));
}

#[test]
fn every_format_on_a_syntax_error() {
    for f in ["concise", "json", "sarif", "github", "gitlab"] {
        let r = warpscope(&["check", "--no-config", "--format", f, SYNTAX]);
        assert_eq!(r.code, 1, "{f}: {}", r.snapshot());
        if matches!(f, "json" | "sarif" | "gitlab") {
            serde_json::from_str::<serde_json::Value>(&r.stdout)
                .unwrap_or_else(|e| panic!("{f} is not JSON: {e}"));
        }
        snap(&format!("syntax-error-{f}"), &r.snapshot());
    }
}

#[test]
fn directories_are_searched_recursively_in_a_stable_order() {
    let r = warpscope(&[
        "check",
        "--no-config",
        "--format",
        "concise",
        "tests/fixtures/check/tree",
    ]);
    assert_eq!(r.code, 1, "{}", r.snapshot());
    let files: Vec<&str> = r
        .stdout
        .lines()
        .map(|l| l.split(':').next().unwrap())
        .collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted);
    assert!(files.contains(&"tests/fixtures/check/tree/sub/a.ptx"));
    assert!(!r.stdout.contains("notes.txt"));
    snap("tree-concise", &r.snapshot());
}

#[test]
fn stdin_is_read_for_dash() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/check/syntax_error.ptx"
    ))
    .unwrap();
    let r = warpscope_stdin(
        &["check", "--no-config", "--format", "concise", "-"],
        Some(&text),
    );
    assert_eq!(r.code, 1, "{}", r.snapshot());
    assert!(r.stdout.starts_with("<stdin>:"), "{}", r.stdout);
}

#[test]
fn color_always_and_never() {
    let always = warpscope(&["check", "--no-config", "--color", "always", SYNTAX]);
    assert!(always.stdout.contains("\x1b["), "{}", always.stdout);
    let never = warpscope(&["check", "--no-config", "--color", "never", SYNTAX]);
    assert!(!never.stdout.contains('\x1b'));
    // auto: stdout is a pipe here, so no colour.
    let auto = warpscope(&["check", "--no-config", SYNTAX]);
    assert!(!auto.stdout.contains('\x1b'));
}

#[test]
fn bad_option_value_is_a_usage_error() {
    let r = warpscope(&["check", "--format", "xml", SYNTAX]);
    assert_eq!(r.code, 2);
    let r = warpscope(&["check", "--pointer-align", "3", SYNTAX]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("power of two"), "{}", r.stderr);
}

#[test]
fn deny_warnings_fails_on_a_warning() {
    let f = "tests/fixtures/lints/uniform-store/fires.ptx";
    assert_eq!(warpscope(&["check", "--no-config", f]).code, 0);
    assert_eq!(
        warpscope(&["check", "--no-config", "-D", "warnings", f]).code,
        1
    );
    assert_eq!(
        warpscope(&["check", "--no-config", "-D", "uniform-store", f]).code,
        1
    );
    assert_eq!(
        warpscope(&["check", "--no-config", "-D", "warnings", "-A", "W106", f]).code,
        0
    );
    let r = warpscope(&[
        "check",
        "--no-config",
        "--format",
        "concise",
        "-D",
        "warnings",
        f,
    ]);
    assert!(r.stdout.contains(": error[W106] "), "{}", r.stdout);
    let r = warpscope(&[
        "check",
        "--no-config",
        "--format",
        "concise",
        "-A",
        "warnings",
        f,
    ]);
    assert!(r.stdout.is_empty() && r.code == 0, "{}", r.snapshot());
    // -A warnings leaves errors alone.
    assert_eq!(
        warpscope(&["check", "--no-config", "-A", "warnings", SYNTAX]).code,
        1
    );
}

#[test]
fn per_kernel_launch_entries_match_by_glob() {
    let f = "tests/fixtures/check/per-kernel/strided.ptx";
    // Without the parameter the stride is unknown and assumed costly ...
    let bare = warpscope(&["check", "--no-config", "--format", "concise", f]);
    assert!(bare.stdout.contains("[W101]"), "{}", bare.snapshot());
    // ... the discovered warpscope.toml gives `strided_*` the value 1 (its
    // other entry, for another kernel, must not apply), and the access is
    // coalesced.
    let configured = warpscope(&["check", "--format", "concise", f]);
    assert_eq!(configured.code, 0);
    assert!(configured.stdout.is_empty(), "{}", configured.snapshot());
    // The same from the command line, by index or by PTX name.
    for p in ["2=1", "strided_read_param_2=1"] {
        let cli = warpscope(&[
            "check",
            "--no-config",
            "--param",
            p,
            "--format",
            "concise",
            f,
        ]);
        assert!(cli.stdout.is_empty(), "{p}: {}", cli.snapshot());
    }
    let wide = warpscope(&[
        "check",
        "--no-config",
        "--param",
        "2=32",
        "--format",
        "concise",
        f,
    ]);
    assert!(
        wide.stdout.contains("lanes 128 bytes apart"),
        "{}",
        wide.snapshot()
    );
}

#[test]
fn many_files_in_parallel_keep_input_order() {
    let r = warpscope(&[
        "check",
        "--no-config",
        "--format",
        "concise",
        "tests/fixtures/lints/uniform-store/fires.ptx",
        "tests/fixtures/lints",
        "tests/fixtures/check/syntax_error.ptx",
    ]);
    let mut files: Vec<&str> = r
        .stdout
        .lines()
        .map(|l| l.split(':').next().unwrap())
        .collect();
    files.dedup();
    assert_eq!(
        files.first(),
        Some(&"tests/fixtures/lints/uniform-store/fires.ptx")
    );
    assert_eq!(files.last(), Some(&"tests/fixtures/check/syntax_error.ptx"));
    let middle = &files[1..files.len() - 1];
    let mut sorted = middle.to_vec();
    sorted.sort();
    assert_eq!(middle, &sorted[..], "directory contents in sorted order");
    // Same output on every run.
    let again = warpscope(&[
        "check",
        "--no-config",
        "--format",
        "concise",
        "tests/fixtures/lints/uniform-store/fires.ptx",
        "tests/fixtures/lints",
        "tests/fixtures/check/syntax_error.ptx",
    ]);
    assert_eq!(r.stdout, again.stdout);
}

#[test]
fn sarif_of_real_findings_validates() {
    let r = warpscope(&[
        "check",
        "--no-config",
        "--format",
        "sarif",
        "tests/fixtures/lints",
        SYNTAX,
    ]);
    assert_eq!(r.code, 1);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let text = include_str!("fixtures/check/sarif-schema-2.1.0.json");
    // The published schema's erratum, repaired as in tests/check_render.rs.
    let schema: serde_json::Value = serde_json::from_str(&text.replace(
        r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#,
        r#""^[a-zA-Z]{2}(-[a-zA-Z]{2})?$""#,
    ))
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&v)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(v["runs"][0]["results"].as_array().unwrap().len() > 5);
}

#[test]
fn garbage_input_does_not_crash() {
    let mut junk = String::new();
    let mut x: u32 = 12345;
    for _ in 0..4000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let alphabet = b".%[]{};@,:+-0123456789abcdefglnrstuvxz \n\t";
        junk.push(alphabet[(x >> 16) as usize % alphabet.len()] as char);
    }
    for text in [
        junk.as_str(),
        "",
        ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k(\n{\n",
    ] {
        for f in ["full", "json", "sarif"] {
            let r = warpscope_stdin(&["check", "--no-config", "--format", f, "-"], Some(text));
            assert!(r.code == 0 || r.code == 1, "{f}: {}", r.snapshot());
        }
    }
}

#[test]
fn the_whole_corpus_checks_without_internal_errors() {
    let r = warpscope(&[
        "check",
        "--no-config",
        "--format",
        "concise",
        "tests/corpus",
        "examples/kernels",
    ]);
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    assert!(!r.stderr.contains("internal error"), "{}", r.stderr);
    assert!(r.stdout.lines().count() > 100);
}

#[test]
fn pyproject_levels_apply_and_warpscope_toml_wins() {
    let r = warpscope(&[
        "check",
        "--format",
        "concise",
        "tests/fixtures/check/good-pyproject/k.ptx",
    ]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
    assert!(r.stdout.is_empty(), "{}", r.snapshot());
    let r = warpscope(&[
        "check",
        "--format",
        "concise",
        "tests/fixtures/check/both-configs/k.ptx",
    ]);
    assert_eq!(r.code, 1, "{}", r.snapshot());
    assert!(r.stdout.contains("error[W106]"), "{}", r.snapshot());
    // The command line wins over both.
    let r = warpscope(&[
        "check",
        "-W",
        "uniform-store",
        "tests/fixtures/check/both-configs/k.ptx",
    ]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
}

#[test]
fn a_file_directive_naming_a_device_is_not_read() {
    let r = warpscope(&[
        "check",
        "--no-config",
        "--color",
        "never",
        "tests/fixtures/check/dev_zero_source.ptx",
    ]);
    assert_eq!(r.code, 0, "{}", r.snapshot());
    assert!(
        r.stdout
            .contains("CUDA source: /dev/zero:1:1 (not readable here)"),
        "{}",
        r.stdout
    );
}

#[test]
fn unreadable_config_files_are_usage_errors() {
    let r = warpscope(&[
        "check",
        "--config",
        "tests/fixtures/check/no-such.toml",
        SYNTAX,
    ]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with(
            "error: cannot use configuration file tests/fixtures/check/no-such.toml: "
        ),
        "{}",
        r.stderr
    );
    let r = warpscope(&["check", "--config", "tests/fixtures/check", SYNTAX]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
}

#[test]
fn an_unreadable_input_is_reported_and_the_others_still_checked() {
    // A sparse 5 GiB file (too large for 32-bit spans) between two real
    // ones: refused before it is read, reported, and the run goes on.
    let dir = std::env::temp_dir().join(format!("warpscope-cont-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let big = dir.join("b_big.ptx");
    std::fs::File::create(&big)
        .and_then(|f| f.set_len(5 << 30))
        .expect("sparse file");
    let small = "tests/fixtures/lints/uniform-store/fires.ptx";
    let big_s = big.display().to_string();
    for cmd in [
        &["check", "--no-config", "--format", "concise"][..],
        &["report", "--no-config"][..],
        &["check", "--no-config", "--coverage"][..],
    ] {
        let mut args = cmd.to_vec();
        args.extend([small, big_s.as_str(), small]);
        let r = warpscope(&args);
        assert_eq!(r.code, 2, "{cmd:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("larger than the 4 GiB"),
            "{cmd:?}: {}",
            r.stderr
        );
        assert!(!r.stdout.is_empty(), "{cmd:?}: the other files are lost");
    }
    let r = warpscope(&["check", "--no-config", "--coverage", small, &big_s, small]);
    assert!(r.stdout.starts_with("coverage: 2 files"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}
