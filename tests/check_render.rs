//! The renderers (`src/output/`) on a check result built by hand.
//!
//! The analysis below is HAND-BUILT test input for the renderers and the
//! lints, not output of the analyzer: it stands for what the address analysis
//! reports for `tests/fixtures/check/render.ptx` (a column read, lanes 128
//! bytes apart, and a gather). End-to-end output of the real analysis is
//! tested in `tests/lints.rs` and `tests/check.rs`.

use std::collections::BTreeMap;
use warpscope::analysis::model::*;
use warpscope::config::Config;
use warpscope::lints::{lint_analysis, CheckResult};
use warpscope::output::{render, FileReport, Format, Locations, RenderOptions};
use warpscope::source::{SourceFile, Span};

const PTX: &str = include_str!("fixtures/check/render.ptx");
const CUDA: &str = include_str!("fixtures/check/render.cu");

fn access_at(
    file: &SourceFile,
    needle: &str,
    op: AccessOp,
    pattern: Pattern,
    sectors: (f64, f64, f64),
) -> Access {
    let start = file.text().find(needle).expect("instruction in fixture") as u32;
    Access {
        unknown_cause: None,
        sass_offset: None,
        line_frames: 1,
        span: Span::new(start, start + needle.len() as u32),
        ptx: file.line_col(start),
        source: None,
        instruction: needle.split_whitespace().next().unwrap().to_string(),
        op,
        space: Space::Global,
        bits: 32,
        pattern,
        stride_bytes: None,
        lane_pattern: String::new(),
        per_request: PerRequest {
            l1_lines: sectors.0.min(32.0),
            l1_lines_min: sectors.0.min(32.0),
            l1_lines_max: sectors.0.min(32.0),
            sectors: sectors.0,
            ideal_sectors: 4.0,
            sectors_min: sectors.1,
            sectors_max: sectors.2,
            active_lanes: Some(32.0),
        },
        requests: None,
        shared_wavefronts: None,
        caveats: Vec::new(),
        kind: warpscope::analysis::model::MemKind::Plain,
        predicated_off_requests: None,
        empty_requests: None,
        shared_side: None,
        matrix: None,
        bulk: None,
        descriptors: Vec::new(),
        facts: Default::default(),
    }
}

fn hand_built(file: &SourceFile) -> Analysis {
    let mut column = access_at(
        file,
        "ld.global.f32 \t%f1, [%rd6];",
        AccessOp::Load,
        Pattern::Strided,
        (32.0, 32.0, 32.0),
    );
    column.stride_bytes = Some(128);
    column.lane_pattern = "in + 128*i".into();
    column.source = Some(SourceLocation {
        file: "render.cu".into(),
        line: 4,
        column: 15,
        ..Default::default()
    });
    let mut gather = access_at(
        file,
        "ld.global.f32 \t%f2, [%rd10];",
        AccessOp::Load,
        Pattern::Random,
        (28.3, 4.0, 32.0),
    );
    gather.lane_pattern = "p + 4*idx[i]".into();
    gather.source = Some(SourceLocation {
        file: "render.cu".into(),
        line: 5,
        column: 18,
        ..Default::default()
    });
    let name_at = file.text().find("render_kernel").unwrap() as u32;
    Analysis {
        kernels: vec![KernelAnalysis {
            name: "render_kernel".into(),
            demangled: "render_kernel".into(),
            block: [128, 1, 1],
            block_assumed: false,
            grid: None,
            accesses: vec![column, gather],
            totals: None,
            totals_unavailable: Some("no grid given".into()),
            caveats: Vec::new(),
            expect_tx: Vec::new(),
            span: Span::new(name_at, name_at + 13),
        }],
        diagnostics: Vec::new(),
    }
}

fn result() -> (SourceFile, CheckResult) {
    let file = SourceFile::from_text("tests/fixtures/check/render.ptx", PTX);
    let analysis = hand_built(&file);
    let r = lint_analysis(&file, analysis, &Config::default());
    (file, r)
}

fn rendered_with(format: Format, sources: &BTreeMap<String, String>) -> String {
    let (file, r) = result();
    render(
        format,
        &[FileReport {
            file: &file,
            result: &r,
            sources,
        }],
        RenderOptions {
            color: false,
            ..Default::default()
        },
    )
}

fn rendered(format: Format) -> String {
    let mut sources = BTreeMap::new();
    sources.insert("render.cu".to_string(), CUDA.to_string());
    rendered_with(format, &sources)
}

fn snap(name: &str, text: &str) {
    insta::with_settings!({snapshot_path => "fixtures/check/snapshots", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn full_shows_ptx_cuda_source_notes_and_help() {
    let text = rendered(Format::Full);
    assert!(
        text.contains("render.cu:4:15"),
        "CUDA snippet header:\n{text}"
    );
    assert!(
        text.contains("float v = in[i * 32];"),
        "CUDA source line quoted:\n{text}"
    );
    assert!(text.contains("= note: lane address: in + 128*i"), "{text}");
    assert!(text.contains("= help: "), "{text}");
    snap("render-full", &text);
}

#[test]
fn full_names_an_unreadable_cuda_source_in_a_note() {
    let text = rendered_with(Format::Full, &BTreeMap::new());
    assert!(
        text.contains("= note: CUDA source: render.cu:4:15 (not readable here)"),
        "{text}"
    );
    assert!(!text.contains("float v = in[i * 32];"), "{text}");
}

#[test]
fn color_always_emits_ansi_and_never_does_not() {
    let (file, r) = result();
    let sources = BTreeMap::new();
    let reports = [FileReport {
        file: &file,
        result: &r,
        sources: &sources,
    }];
    assert!(render(
        Format::Full,
        &reports,
        RenderOptions {
            color: true,
            ..Default::default()
        }
    )
    .contains("\x1b["));
    assert!(render(
        Format::Concise,
        &reports,
        RenderOptions {
            color: true,
            ..Default::default()
        }
    )
    .contains("\x1b["));
    assert!(!render(
        Format::Full,
        &reports,
        RenderOptions {
            color: false,
            ..Default::default()
        }
    )
    .contains('\x1b'));
}

#[test]
fn concise_is_one_line_per_finding() {
    let text = rendered(Format::Concise);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("tests/fixtures/check/render.ptx:"),
        "{text}"
    );
    assert!(
        lines[0].contains(": warning[W101] uncoalesced load: lanes 128 bytes apart"),
        "{text}"
    );
    snap("render-concise", &text);
}

#[test]
fn json_follows_the_contract() {
    let text = rendered(Format::Json);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["version"], 1);
    let k = &v["files"][0]["kernels"][0];
    assert_eq!(k["name"], "render_kernel");
    let a = &k["accesses"][0];
    for key in [
        "ptx",
        "source",
        "instruction",
        "op",
        "space",
        "bits",
        "pattern",
        "stride_bytes",
        "per_request",
    ] {
        assert!(a.get(key).is_some(), "access lacks `{key}`: {a}");
    }
    for key in [
        "l1_lines",
        "sectors",
        "ideal_sectors",
        "sectors_min",
        "sectors_max",
        "active_lanes",
    ] {
        assert!(
            a["per_request"].get(key).is_some(),
            "per_request lacks `{key}`"
        );
    }
    assert!(k.get("totals").is_some());
    let d = &v["diagnostics"][0];
    for key in [
        "path", "line", "column", "code", "name", "severity", "message",
    ] {
        assert!(d.get(key).is_some(), "diagnostic lacks `{key}`: {d}");
    }
    snap("render-json", &text);
}

#[test]
fn github_annotations_escape_and_locate() {
    let text = rendered(Format::Github);
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("::warning file=tests/fixtures/check/render.ptx,line="),
        "{first}"
    );
    assert!(
        first.contains(",title=W101 uncoalesced-access::"),
        "{first}"
    );
    assert!(
        first.contains("%0Anote: lane address: in + 128*i"),
        "newlines escaped: {first}"
    );
    snap("render-github", &text);
}

#[test]
fn gitlab_code_quality_has_required_fields() {
    let text = rendered(Format::Gitlab);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let issues = v.as_array().unwrap();
    assert_eq!(issues.len(), 2);
    for i in issues {
        for key in ["description", "check_name", "fingerprint", "severity"] {
            assert!(i.get(key).is_some(), "issue lacks `{key}`");
        }
        assert!(i["location"]["path"].is_string());
        assert!(i["location"]["lines"]["begin"].is_u64());
    }
    assert_ne!(issues[0]["fingerprint"], issues[1]["fingerprint"]);
    snap("render-gitlab", &text);
}

/// The SARIF 2.1.0 schema as published (see `tests/fixtures/check/README.md`
/// for its source and licence), with one erratum repaired: its two `language`
/// patterns, `^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`, hold a stray `]`
/// that is not a valid ECMA-262 regular expression, so a strict validator
/// refuses to compile the schema. They are replaced by the pattern the
/// description asks for (`en` or `en-US`). warpscope never writes `language`.
fn sarif_schema() -> serde_json::Value {
    let text = include_str!("fixtures/check/sarif-schema-2.1.0.json");
    let broken = r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
    assert_eq!(
        text.matches(broken).count(),
        2,
        "the erratum this test repairs is no longer there"
    );
    serde_json::from_str(&text.replace(broken, r#""^[a-zA-Z]{2}(-[a-zA-Z]{2})?$""#)).unwrap()
}

#[test]
fn sarif_validates_against_the_2_1_0_schema() {
    let text = rendered(Format::Sarif);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::validator_for(&sarif_schema()).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&v)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "SARIF is not valid:\n{}",
        errors.join("\n")
    );
    let run = &v["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(rules.iter().any(|r| r["id"] == "W101"
        && r["help"]["text"]
            .as_str()
            .unwrap()
            .contains("## How to fix it")));
    let res = &run["results"][0];
    assert_eq!(res["ruleId"], "W101");
    assert_eq!(
        rules[res["ruleIndex"].as_u64().unwrap() as usize]["id"],
        "W101"
    );
    assert!(res["partialFingerprints"]["warpscope/v1"].is_string());
    snap("render-sarif", &text);
}

#[test]
fn sarif_schema_catches_a_broken_log() {
    // The validation above can fail: a log without `runs` is rejected.
    let validator = jsonschema::validator_for(&sarif_schema()).unwrap();
    assert!(!validator.is_valid(&serde_json::json!({"version": "2.1.0"})));
    assert!(!validator.is_valid(&serde_json::json!({"version": "2.1.0", "runs": [{"tool": {}}]})));
}

#[test]
fn allowed_lints_are_dropped_and_denied_become_errors() {
    let file = SourceFile::from_text("render.ptx", PTX);
    let mut c = Config::default();
    c.set_level("data-dependent-access", warpscope::lints::Level::Allow)
        .unwrap();
    c.set_level("W101", warpscope::lints::Level::Deny).unwrap();
    let r = lint_analysis(&file, hand_built(&file), &c);
    let codes: Vec<_> = r
        .findings
        .iter()
        .map(|d| (d.code, d.severity.as_str()))
        .collect();
    assert_eq!(codes, vec![("W101", "error")]);
    assert!(r.has_errors());
}

fn rendered_at_source(format: Format) -> String {
    let (file, r) = result();
    let sources = BTreeMap::new();
    let opts = RenderOptions {
        locations: Locations::Source,
        strip_prefix: Some("/src/".into()),
        ..Default::default()
    };
    render(
        format,
        &[FileReport {
            file: &file,
            result: &r,
            sources: &sources,
        }],
        opts,
    )
}

#[test]
fn locations_source_places_findings_on_the_cuda_line() {
    let concise = rendered_at_source(Format::Concise);
    assert!(
        concise.starts_with("render.cu:4:15: warning[W101] "),
        "{concise}"
    );
    let github = rendered_at_source(Format::Github);
    assert!(
        github.starts_with("::warning file=render.cu,line=4,col=15,endLine=4,endColumn=15,"),
        "{github}"
    );
    let gitlab: serde_json::Value =
        serde_json::from_str(&rendered_at_source(Format::Gitlab)).unwrap();
    assert_eq!(gitlab[0]["location"]["path"], "render.cu");
    assert_eq!(gitlab[0]["location"]["lines"]["begin"], 4);
    let sarif: serde_json::Value =
        serde_json::from_str(&rendered_at_source(Format::Sarif)).unwrap();
    let res = &sarif["runs"][0]["results"][0];
    assert_eq!(
        res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "render.cu"
    );
    assert_eq!(
        res["relatedLocations"][0]["message"]["text"],
        "PTX instruction"
    );
    let validator = jsonschema::validator_for(&sarif_schema()).unwrap();
    assert!(validator.is_valid(&sarif));
    // The fingerprint does not depend on where the finding is placed.
    let at_ptx: serde_json::Value = serde_json::from_str(&rendered(Format::Sarif)).unwrap();
    assert_eq!(
        res["partialFingerprints"],
        at_ptx["runs"][0]["results"][0]["partialFingerprints"]
    );
}

#[test]
fn locations_source_strips_the_checkout_prefix() {
    let (file, mut r) = result();
    r.findings
        .map_locations(|l| l.file = format!("/src/kernels/{}", l.file));
    let sources = BTreeMap::new();
    let opts = RenderOptions {
        locations: Locations::Source,
        strip_prefix: Some("/src/".into()),
        ..Default::default()
    };
    let text = render(
        Format::Concise,
        &[FileReport {
            file: &file,
            result: &r,
            sources: &sources,
        }],
        opts,
    );
    assert!(text.starts_with("kernels/render.cu:4:15: "), "{text}");
}
