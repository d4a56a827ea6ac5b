//! `gitlab`: a GitLab Code Quality report (a JSON array of issues with
//! `description`, `check_name`, `fingerprint`, `severity`, and
//! `location.path` / `location.lines.begin`).

use super::{fingerprints, place, FileReport, RenderOptions};
use crate::diagnostic::Severity;
use serde::Serialize;

#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'a str,
    fingerprint: String,
    severity: &'a str,
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

pub(super) fn render(reports: &[FileReport<'_>], opts: &RenderOptions) -> String {
    let mut issues = Vec::new();
    for r in reports {
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
    let mut s = serde_json::to_string_pretty(&issues).unwrap_or_else(|_| "[]".into());
    s.push('\n');
    s
}
