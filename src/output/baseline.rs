//! Baselines: adopting `warpscope check` on a code base that already has
//! findings.
//!
//! `check --write-baseline FILE` records the fingerprint of every current
//! finding; `check --baseline FILE` then reports (and fails on) only the
//! findings whose fingerprint is not in it. The fingerprint is the one SARIF
//! (`partialFingerprints`) and GitLab (`fingerprint`) get
//! ([`super::fingerprints`]): the rule, the PTX path, the text of the
//! instruction's line with whitespace collapsed, and its occurrence number
//! among equal lines, so a finding keeps its fingerprint when unrelated
//! lines are added or removed above it, and loses it when its own
//! instruction changes.
//!
//! The file is JSON, sorted, one entry per finding, so that it diffs well in
//! review:
//!
//! ```json
//! {"version": 1,
//!  "findings": [{"fingerprint": "9c0f…", "code": "W101", "path": "k.ptx",
//!                "line": 42, "message": "…"}]}
//! ```
//! Only `fingerprint` is matched; the rest is for the people reading it.

use super::{fingerprints, FileReport};
use crate::lints::CheckResult;
use crate::source::SourceFile;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// One recorded finding.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BaselineEntry {
    /// PTX path as shown.
    pub path: String,
    /// 1-based line when recorded (informative).
    pub line: u32,
    /// Rule code.
    pub code: String,
    /// The fingerprint that is matched.
    pub fingerprint: String,
    /// Message when recorded (informative).
    pub message: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaselineFile {
    version: u32,
    findings: Vec<BaselineEntry>,
}

/// A set of recorded findings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Baseline {
    entries: Vec<BaselineEntry>,
    known: BTreeSet<String>,
}

impl Baseline {
    /// An empty baseline.
    pub fn new() -> Baseline {
        Baseline::default()
    }

    /// Parses a baseline file's text.
    pub fn from_json(text: &str) -> Result<Baseline, String> {
        let f: BaselineFile =
            serde_json::from_str(text).map_err(|e| format!("not a warpscope baseline: {e}"))?;
        if f.version != 1 {
            return Err(format!(
                "baseline version {} (this warpscope reads 1)",
                f.version
            ));
        }
        let known = f.findings.iter().map(|e| e.fingerprint.clone()).collect();
        Ok(Baseline {
            entries: f.findings,
            known,
        })
    }

    /// The file's text: entries sorted by path, line and code.
    pub fn to_json(&self) -> String {
        let mut findings = self.entries.clone();
        findings.sort();
        let mut s = serde_json::to_string_pretty(&BaselineFile {
            version: 1,
            findings,
        })
        .unwrap_or_default();
        s.push('\n');
        s
    }

    /// Number of recorded findings.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Records every finding of a checked file.
    pub fn record(&mut self, r: &FileReport<'_>) {
        let findings = &r.result.findings;
        let fps = fingerprints(r.file.name(), r.file, findings);
        for (i, fp) in fps.into_iter().enumerate() {
            let (start, _) = super::span_range(r.file, findings.span(i));
            self.known.insert(fp.clone());
            self.entries.push(BaselineEntry {
                path: r.file.name().to_string(),
                line: start.line,
                code: findings.code(i).to_string(),
                fingerprint: fp,
                message: findings.message(i).to_string(),
            });
        }
    }

    /// Removes the findings that are in the baseline from a check result;
    /// returns how many were removed.
    pub fn filter(&self, file: &SourceFile, result: &mut CheckResult) -> usize {
        let fps = fingerprints(file.name(), file, &result.findings);
        let keep: Vec<bool> = fps.iter().map(|f| !self.known.contains(f)).collect();
        let removed = keep.iter().filter(|k| !**k).count();
        result.findings.retain(&keep);
        removed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::lints::check_file;
    use std::collections::BTreeMap;

    const PTX: &str = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<2>;\n.reg .f32 %f<2>;\nld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 128;\nadd.s64 %rd2, %rd1, %rd2;\nld.volatile.global.f32 %f1, [%rd2];\nret;\n}\n";

    fn checked(text: &str) -> (SourceFile, CheckResult) {
        let f = SourceFile::from_text("k.ptx", text);
        let r = check_file(&f, &Config::default());
        (f, r)
    }

    #[test]
    fn recorded_findings_are_filtered_even_after_lines_move() {
        let (f, r) = checked(PTX);
        assert!(!r.findings.is_empty(), "the fixture has a finding");
        let mut b = Baseline::new();
        let sources = BTreeMap::new();
        b.record(&FileReport {
            file: &f,
            result: &r,
            sources: &sources,
        });
        let b = Baseline::from_json(&b.to_json()).unwrap();
        assert_eq!(b.len(), r.findings.len());
        // Unrelated lines above: the same findings, at other line numbers.
        let moved = PTX.replace(".reg .f32 %f<2>;\n", ".reg .f32 %f<2>;\n// a comment\n\n");
        let (f2, mut r2) = checked(&moved);
        assert_eq!(b.filter(&f2, &mut r2), b.len());
        assert!(r2.findings.is_empty());
        // A changed instruction is a new finding.
        let changed = PTX.replace("[%rd2];", "[%rd2+4];");
        let (f3, mut r3) = checked(&changed);
        let n = r3.findings.len();
        assert_eq!(b.filter(&f3, &mut r3), 0);
        assert_eq!(r3.findings.len(), n);
    }

    #[test]
    fn bad_files_are_refused() {
        assert!(Baseline::from_json("{}").is_err());
        assert!(Baseline::from_json("{\"version\": 2, \"findings\": []}").is_err());
        assert!(Baseline::from_json("{\"version\": 1, \"findings\": []}")
            .unwrap()
            .is_empty());
    }
}
