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

/// The issues of one file, handed to `each` one at a time.
pub(super) fn for_each_issue(
    r: &FileReport<'_>,
    opts: &RenderOptions,
    mut each: impl FnMut(Issue) -> std::io::Result<()>,
) -> std::io::Result<()> {
    {
        let fps = fingerprints(r.file.name(), r.file, &r.result.findings);
        for ((i, d), fingerprint) in r.result.findings.iter().enumerate().zip(fps) {
            let at = place(r, i, opts);
            each(Issue {
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
            })?;
        }
    }
    Ok(())
}

/// The report without issues (the emitter writes them into its array).
pub(super) fn empty() -> String {
    "[]\n".to_string()
}
