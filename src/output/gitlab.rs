//! `gitlab`: a GitLab Code Quality report (a JSON array of issues with
//! `description`, `check_name`, `fingerprint`, `severity`, and
//! `location.path` / `location.lines.begin`).

use super::{fingerprints, range_of, FileReport};
use crate::diagnostic::Severity;
use serde::Serialize;

#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'a str,
    fingerprint: String,
    severity: &'a str,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: u32,
    end: u32,
}

pub(super) fn render(reports: &[FileReport<'_>]) -> String {
    let mut issues = Vec::new();
    for r in reports {
        let fps = fingerprints(r.file.name(), r.file, &r.result.diagnostics);
        for (d, fingerprint) in r.result.diagnostics.iter().zip(fps) {
            let (start, end) = range_of(r.file, d);
            issues.push(Issue {
                description: format!("{} [{}]: {}", d.code, d.name, d.message),
                check_name: d.name,
                fingerprint,
                severity: match d.severity {
                    Severity::Error => "major",
                    Severity::Warning => "minor",
                    Severity::Note => "info",
                },
                location: Location {
                    path: r.file.name(),
                    lines: Lines {
                        begin: start.line,
                        end: end.line,
                    },
                },
            });
        }
    }
    let mut s = serde_json::to_string_pretty(&issues).unwrap_or_else(|_| "[]".into());
    s.push('\n');
    s
}
