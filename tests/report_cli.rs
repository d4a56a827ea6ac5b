//! `warpscope report` on the command line: the same report as the library,
//! in each format, and clear failures on bad input.

use std::process::Command;
use warpscope::analysis::{LaunchConfig, Options, ParamKey};
use warpscope::report::{render_json, render_markdown, render_text, Report};
use warpscope::source::SourceFile;

const INDIRECT: &str = "examples/kernels/indirect/indirect.ptx";

fn warpscope(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("run warpscope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The library's report of the indirect example under the seed's launch.
fn library_report() -> Report {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(INDIRECT);
    let file = SourceFile::new(INDIRECT, std::fs::read(path).unwrap()).unwrap();
    let opts = Options {
        launch: LaunchConfig {
            block: Some([128, 1, 1]),
            grid: Some([79, 1, 1]),
            params: vec![(ParamKey::Index(2), 10_000.into())],
        },
        kernel_filter: Some("*indirect<float>*".into()),
        ..Options::default()
    };
    Report::from_analysis(&file, &warpscope::analyze(&file, &opts))
}

#[test]
fn every_format_prints_the_library_report() {
    let report = library_report();
    assert_eq!(
        report.files[0].kernels.len(),
        1,
        "the glob picks indirect<float> by its demangled name"
    );
    let launch = [
        "--block",
        "128",
        "--grid",
        "79",
        "--param",
        "2=10000",
        "--kernel",
        "*indirect<float>*",
    ];
    for (format, expected) in [
        ("text", render_text(&report)),
        ("markdown", render_markdown(&report)),
        ("json", render_json(&report)),
    ] {
        let mut args = vec!["report", INDIRECT, "--format", format];
        args.extend(launch);
        let (code, stdout, stderr) = warpscope(&args);
        assert_eq!(code, 0, "{format}: {stderr}");
        assert_eq!(stdout, expected, "{format}");
    }
}

#[test]
fn text_is_the_default_format() {
    let (code, stdout, _) = warpscope(&["report", INDIRECT]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with(&format!("warpscope report: {INDIRECT}\n")),
        "{stdout}"
    );
}

#[test]
fn a_missing_file_is_named_and_exits_2() {
    let (code, stdout, stderr) = warpscope(&["report", "no/such.ptx"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(stderr.contains("no/such.ptx"), "{stderr}");
}

#[test]
fn a_bad_launch_option_is_a_usage_error() {
    let (code, _, stderr) = warpscope(&["report", INDIRECT, "--block", "0"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("at least 1"), "{stderr}");
}

#[test]
fn syntax_errors_are_reported_not_fatal() {
    let dir = std::env::temp_dir().join(format!("warpscope-report-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ptx");
    std::fs::write(
        &bad,
        ".version 8.0\n.target sm_90\n.visible .entry k() { ld.global.f32 %f1, [; }\n",
    )
    .unwrap();
    let (code, stdout, stderr) = warpscope(&["report", bad.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("error[E0"), "{stdout}");
}

/// `report --format json` carries a bulk copy's structured facts, as
/// `check --format json` does: the multicast fixture's first kernel copies
/// 8,192 bytes to the 2 CTAs of mask 3 (`tests/fixtures/analysis/bulk_multicast.ptx`).
#[test]
fn report_json_has_the_bulk_facts() {
    let (code, out, err) = warpscope(&[
        "report",
        "--format",
        "json",
        "--kernel",
        "mcast_bulk_mask3",
        "tests/fixtures/analysis/bulk_multicast.ptx",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let accesses = v["files"][0]["kernels"][0]["accesses"].as_array().unwrap();
    let bulk: Vec<_> = accesses.iter().filter_map(|a| a.get("bulk")).collect();
    assert_eq!(bulk.len(), 1, "{out}");
    assert_eq!(bulk[0]["bytes"], 8192);
    assert_eq!(bulk[0]["multicast_ctas"], 2);
}
