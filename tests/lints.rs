//! The lint catalogue's meta-tests, and every lint run end to end on its
//! fixtures: `tests/fixtures/lints/<name>/fires.ptx` (must report the lint)
//! and `quiet.ptx` (must not).

use std::path::Path;
use std::process::Command;
use warpscope::lints::{explain, find_rule, rules, RuleKind, LINTS};

const SECTIONS: &[&str] = &[
    "## What it finds",
    "## Why it costs",
    "## Example",
    "## How to fix it",
    "## Known limits",
];

#[test]
fn every_lint_is_documented_with_every_section() {
    for lint in LINTS {
        let doc = explain(lint.meta.code).expect("explain by code");
        for s in SECTIONS {
            assert!(
                doc.contains(s),
                "{} lacks `{s}` in its doc comment",
                lint.meta.name
            );
        }
        assert!(
            doc.contains("```"),
            "{} has no example block",
            lint.meta.name
        );
        assert_eq!(
            explain(lint.meta.name),
            Some(doc),
            "{}: explain by name",
            lint.meta.name
        );
    }
}

#[test]
fn every_rule_has_a_summary_and_explanation() {
    for r in rules() {
        assert!(!r.summary.is_empty(), "{} has no summary", r.code);
        assert!(
            r.summary.len() < 400,
            "{}'s summary is not one line: {}",
            r.code,
            r.summary
        );
        assert!(
            !r.explanation.trim().is_empty(),
            "{} has no explanation",
            r.code
        );
    }
}

#[test]
fn codes_and_names_are_unique_and_well_formed() {
    let all: Vec<_> = rules().collect();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert_ne!(a.code, b.code, "duplicate code");
            assert_ne!(a.name, b.name, "duplicate name");
        }
        assert!(
            a.name.split('-').all(|w| !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())),
            "`{}` is not kebab-case",
            a.name
        );
        let prefix = if a.kind == RuleKind::Lint { 'W' } else { 'E' };
        assert!(
            a.code.starts_with(prefix) && a.code[1..].chars().all(|c| c.is_ascii_digit()),
            "bad code {}",
            a.code
        );
        assert_eq!(find_rule(a.code).map(|r| r.name), Some(a.name));
    }
}

#[test]
fn every_lint_has_both_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lints");
    for lint in LINTS {
        for f in ["fires.ptx", "quiet.ptx"] {
            let p = root.join(lint.meta.name).join(f);
            assert!(p.is_file(), "missing fixture {}", p.display());
        }
    }
    // ... and no fixture directory without a lint.
    for entry in std::fs::read_dir(&root).unwrap() {
        let entry = entry.unwrap();
        if !entry.file_type().unwrap().is_dir() || entry.file_name() == "snapshots" {
            continue;
        }
        let name = entry.file_name().into_string().unwrap();
        assert!(
            LINTS.iter().any(|l| l.meta.name == name),
            "fixture directory `{name}` names no lint"
        );
    }
}

/// Runs `check` on a fixture, with the fixture directory's own
/// `warpscope.toml` when it has one and no configuration otherwise (so that a
/// configuration above the repository cannot change the result).
fn check(rel: &str) -> (String, i32) {
    let dir = Path::new(rel).parent().unwrap().join("warpscope.toml");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config: Vec<String> = if root.join(&dir).is_file() {
        vec!["--config".into(), dir.display().to_string()]
    } else {
        vec!["--no-config".into()]
    };
    let out = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .current_dir(root)
        .arg("check")
        .args(&config)
        .args(["--color", "never", rel])
        .output()
        .expect("run warpscope");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (text, out.status.code().unwrap_or(-1))
}

/// Runs every lint's fixtures through the binary: `fires.ptx` must report
/// the lint, `quiet.ptx` must not; the full output is snapshotted.
#[test]
fn lint_fixtures_fire_and_stay_quiet() {
    let mut failures = Vec::new();
    for lint in LINTS {
        let code = format!("[{}]", lint.meta.code);
        for (fixture, expect) in [("fires", true), ("quiet", false)] {
            let rel = format!("tests/fixtures/lints/{}/{fixture}.ptx", lint.meta.name);
            let (text, status) = check(&rel);
            if text.contains(&code) != expect {
                failures.push(format!(
                    "{rel}: expected {} to {}\n{text}",
                    lint.meta.code,
                    if expect { "fire" } else { "stay quiet" }
                ));
            }
            insta::with_settings!({snapshot_path => "fixtures/lints/snapshots", prepend_module_to_snapshot => false}, {
                insta::assert_snapshot!(format!("{}-{fixture}", lint.meta.name), format!("exit code: {status}\n{text}"));
            });
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
