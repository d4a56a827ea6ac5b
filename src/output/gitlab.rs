//! `gitlab`: a GitLab Code Quality report (a JSON array of issues with
//! `description`, `check_name`, `fingerprint`, `severity`, and
//! `location.path` / `location.lines.begin`).

use super::{fingerprints, place, FileReport, RenderOptions};
use crate::diagnostic::Severity;
use serde::Serialize;

#[derive(Serialize)]
pub(super) struct Issue {
    description: String,
    check_name: &'static str,
    fingerprint: String,
    severity: &'static str,
    location: Location,
}

#[derive(Serialize)]
struct Location {
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: u32,
    end: u32,
}

/// The issues of one file.
pub(super) fn issues(r: &FileReport<'_>, opts: &RenderOptions) -> Vec<Issue> {
    let mut issues = Vec::new();
    {
        let fps = fingerprints(r.file.name(), r.file, &r.result.diagnostics);
        for ((i, d), fingerprint) in r.result.diagnostics.iter().enumerate().zip(fps) {
            let at = place(r, i, opts);
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
                    path: at.path,
                    lines: Lines {
                        begin: at.start.line,
                        end: at.end.line,
                    },
                },
            });
        }
    }
    issues
}

/// The report: every file's issues.
pub(super) fn finish(issues: Vec<Issue>) -> String {
    let mut s = serde_json::to_string_pretty(&issues).unwrap_or_else(|_| "[]".into());
    s.push('\n');
    s
}
