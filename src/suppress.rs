//! Suppressions: allowing a finding where the code is.
//!
//! A finding of `warpscope check` sits on a PTX instruction, but people read
//! and review the CUDA or Python source that the instruction's `.loc` names.
//! A comment there allows rules for that source line:
//!
//! ```text
//! out[i * 32] = v;  // warpscope: allow(uncoalesced-access)
//! # warpscope: allow(uncoalesced-access, W103)
//! tl.store(out_ptr + offs * STRIDE, x, mask=mask)
//! ```
//!
//! # Rules
//!
//! - The marker is `warpscope: allow(RULES)` inside a `//` (CUDA, C++) or `#`
//!   (Python, Triton) comment; `RULES` are rule names or codes separated by
//!   commas.
//! - A comment applies to its own line, and, when the comment is alone on its
//!   line, to the next line (so a long statement can carry it above).
//! - A finding is allowed when any frame of its `.loc` chain (the line itself,
//!   then each `inlined_at` call site out to the kernel) carries a comment that
//!   names its rule: a finding inside a helper can be allowed at the helper's
//!   line or where the kernel calls it.
//! - Per kernel, `[[kernel]] allow = [...]` in `warpscope.toml` allows rules for
//!   every finding of the kernels its `match` glob names.
//! - Only findings with a `.loc` can be allowed by comments, and only when
//!   the source file could be read (the caller reads it: the library does no
//!   IO); front-end errors cannot be allowed this way (use `[lints]`).
//!
//! # Unused suppressions
//!
//! A comment that allows nothing is reported as `unused-suppression`
//! ([`crate::lints::unused_suppression`]), as ruff's `RUF100` reports unused
//! `noqa`, so that stale comments do not hide the next real finding. A comment
//! is judged only where this PTX has code for the line it covers (a memory
//! access whose `.loc` chain passes through it): the same source is often
//! compiled into several PTX files, and a line one of them does not contain
//! says nothing about the comment. A rule name that is not a rule is reported
//! the same way. The finding is placed on the comment's line
//! (`--locations source`) and, in the PTX, on the `.file` directive that names
//! the source.

use crate::analysis::model::{KernelAnalysis, SourceLocation};
use crate::config::Config;
use crate::diagnostic::Diagnostic;
use crate::lints::{find_rule, unused_suppression::UNUSED_SUPPRESSION, CheckResult};
use crate::source::{SourceFile, Span};
use std::collections::{BTreeMap, BTreeSet};

const MARKER: &str = "warpscope: allow(";

/// One `warpscope: allow(...)` comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// 1-based line of the comment.
    pub line: u32,
    /// 1-based column of the marker.
    pub column: u32,
    /// Rule names or codes as written.
    pub rules: Vec<String>,
    /// True when nothing but the comment is on the line (it then also
    /// covers the next line).
    pub alone: bool,
}

/// The suppression comments of a source text.
pub fn comments(text: &str) -> Vec<Comment> {
    let mut out = Vec::new();
    // Most sources have none: one search of the whole text, instead of a
    // searcher built for every line.
    if !text.contains(MARKER) {
        return out;
    }
    for (i, line) in text.lines().enumerate() {
        let Some(at) = line.find(MARKER) else {
            continue;
        };
        let before = &line[..at];
        let opener = match (before.rfind("//"), before.rfind('#')) {
            (Some(a), Some(b)) => a.max(b),
            (Some(a), None) => a,
            (None, Some(b)) => b,
            (None, None) => continue,
        };
        let rest = &line[at + MARKER.len()..];
        let Some(close) = rest.find(')') else {
            continue;
        };
        let rules = rest[..close]
            .split(',')
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string)
            .collect();
        out.push(Comment {
            line: i as u32 + 1,
            column: at as u32 + 1,
            rules,
            alone: line[..opener].trim().is_empty(),
        });
    }
    out
}

/// What the suppressions read of a file's kernels, kept when the kernels'
/// analyses are dropped ([`crate::lints::check_file_with`]): each kernel's
/// names (for `[[kernel]] allow`), and the source lines that have code (a
/// memory access whose `.loc` chain passes through them), by file.
#[derive(Clone, Debug, Default)]
pub struct Sites {
    /// Mangled and demangled name of each kernel, by its index in the file.
    kernels: Vec<(String, String)>,
    /// Lines with code, by source file name.
    lines: BTreeMap<String, BTreeSet<u32>>,
}

impl Sites {
    /// The sites of one kernel.
    pub fn of_kernel(k: &KernelAnalysis) -> Sites {
        let mut lines: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
        for a in &k.accesses {
            for f in frames(a.source.as_ref()) {
                match lines.get_mut(f.file.as_str()) {
                    Some(l) => {
                        l.insert(f.line);
                    }
                    None => {
                        lines.insert(f.file.clone(), BTreeSet::from([f.line]));
                    }
                }
            }
        }
        Sites {
            kernels: vec![(k.name.clone(), k.demangled.clone())],
            lines,
        }
    }

    /// Adds the next kernels' sites.
    pub fn merge(&mut self, other: Sites) {
        self.kernels.extend(other.kernels);
        for (file, lines) in other.lines {
            self.lines.entry(file).or_default().extend(lines);
        }
    }

    fn has_code(&self, file: &str, line: u32) -> bool {
        self.lines.get(file).is_some_and(|l| l.contains(&line))
    }
}

/// Every source file that the accesses' `.loc` chains name: what a caller
/// should read and pass to [`apply`].
pub fn files_to_read(result: &CheckResult) -> BTreeSet<String> {
    result.sites.lines.keys().cloned().collect()
}

/// The frames of a `.loc` chain: the location, then each call site.
fn frames(loc: Option<&SourceLocation>) -> impl Iterator<Item = &SourceLocation> {
    std::iter::successors(loc, |l| l.inlined_at.as_deref())
}

/// Applies comment and per-kernel suppressions to a check result: removes
/// the allowed findings and adds one `unused-suppression` finding per comment
/// (and rule) that allowed nothing. `sources` holds the texts of the source
/// files that could be read, by the name `.loc` gives (see
/// [`files_to_read`]). Returns how many findings were allowed.
pub fn apply(
    file: &SourceFile,
    result: &mut CheckResult,
    sources: &BTreeMap<String, String>,
    config: &Config,
) -> usize {
    // Comments by (file, line they cover).
    let mut parsed: BTreeMap<&str, Vec<Comment>> = BTreeMap::new();
    for (name, text) in sources {
        let c = comments(text);
        if !c.is_empty() {
            parsed.insert(name.as_str(), c);
        }
    }
    // Uses per (file, comment line, rule as written).
    let mut used: BTreeSet<(String, u32, String)> = BTreeSet::new();
    let findings = &result.findings;
    let mut keep = vec![true; findings.len()];
    for (i, keep) in keep.iter_mut().enumerate() {
        let code = findings.code(i);
        if code == UNUSED_SUPPRESSION.code {
            continue;
        }
        // The kernel whose analysis found it.
        if let Some((name, demangled)) = findings
            .kernel(i)
            .and_then(|k| result.sites.kernels.get(k as usize))
        {
            if config.kernel_allows(name, demangled).any(|c| c == code) {
                *keep = false;
                continue;
            }
        }
        'frames: for f in frames(findings.location(i)) {
            let Some(cs) = parsed.get(f.file.as_str()) else {
                continue;
            };
            for c in cs {
                if !(c.line == f.line || (c.alone && c.line + 1 == f.line)) {
                    continue;
                }
                for r in &c.rules {
                    if find_rule(r).is_some_and(|rule| rule.code == code) {
                        used.insert((f.file.clone(), c.line, r.clone()));
                        *keep = false;
                        break 'frames;
                    }
                }
            }
        }
    }
    let allowed = keep.iter().filter(|k| !**k).count();
    result.findings.retain(&keep);

    // Unused comments, judged where this PTX has code for the covered line.
    let level = config.level_of(UNUSED_SUPPRESSION.code, UNUSED_SUPPRESSION.default_level);
    let Some(severity) = level.severity() else {
        return allowed;
    };
    let mut extra = 0;
    for (name, cs) in &parsed {
        for c in cs {
            let covers = |l: u32| result.sites.has_code(name, l);
            if !(covers(c.line) || (c.alone && covers(c.line + 1))) {
                continue;
            }
            for r in &c.rules {
                if used.contains(&(name.to_string(), c.line, r.clone())) {
                    continue;
                }
                let (message, note) = match find_rule(r) {
                    Some(rule) => (
                        format!("unused suppression: no `{}` finding here", rule.name),
                        if config.level_of(rule.code, rule.default_level)
                            == crate::lints::Level::Allow
                        {
                            format!(
                                "`{}` is allowed by the configuration, so it reports nothing",
                                rule.name
                            )
                        } else {
                            format!(
                                "no finding of `{}` has its `.loc` on {name}:{}{}",
                                rule.name,
                                c.line,
                                if c.alone {
                                    format!(" or {}", c.line + 1)
                                } else {
                                    String::new()
                                }
                            )
                        },
                    ),
                    None => (
                        format!("unused suppression: `{r}` is not a rule"),
                        "`warpscope rules` lists the rules".to_string(),
                    ),
                };
                let span = file_directive_span(file, name);
                let d = Diagnostic::new(
                    UNUSED_SUPPRESSION.code,
                    UNUSED_SUPPRESSION.name,
                    severity,
                    span,
                    message,
                )
                .with_label(format!("the `.file` of {name}"))
                .with_note(note)
                .with_help(format!(
                    "remove `{r}` from the comment at {name}:{}:{}",
                    c.line, c.column
                ));
                let at = SourceLocation {
                    file: name.to_string(),
                    line: c.line,
                    column: c.column,
                    inlined_at: None,
                };
                result.findings.push(&d, Some(&at), None);
                extra += 1;
            }
        }
    }
    if extra > 0 {
        result.findings.sort();
    }
    allowed
}

/// The span of the quoted file name in the `.file` directive that names
/// `name` (the start of the file when there is none).
fn file_directive_span(file: &SourceFile, name: &str) -> Span {
    let text = file.text();
    let quoted = format!("\"{name}\"");
    let mut from = 0;
    while let Some(i) = text[from..].find(".file") {
        let at = from + i;
        let line_end = text[at..].find('\n').map_or(text.len(), |e| at + e);
        if let Some(q) = text[at..line_end].find(&quoted) {
            let s = (at + q) as u32;
            return Span::new(s, s + quoted.len() as u32);
        }
        from = line_end;
    }
    Span::new(0, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_in_cuda_and_python() {
        let text = "a[i] = b; // warpscope: allow(uncoalesced-access, W103)\n    # warpscope: allow(narrow-access)\nx = '// warpscope: allow(nothing'\ny = 1 # no marker\nwarpscope: allow(W101)\n";
        let c = comments(text);
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(c[0].line, 1);
        assert_eq!(c[0].rules, vec!["uncoalesced-access", "W103"]);
        assert!(!c[0].alone);
        assert_eq!((c[1].line, c[1].column), (2, 7));
        assert!(c[1].alone);
    }

    #[test]
    fn directive_span_finds_the_quoted_name() {
        let f = SourceFile::from_text(
            "a.ptx",
            ".version 8.0\n.file 1 \"/x/k.py\"\n.file 2 \"/x/y.py\"\n",
        );
        let s = file_directive_span(&f, "/x/y.py");
        assert_eq!(f.slice(s), "\"/x/y.py\"");
        assert_eq!(file_directive_span(&f, "/nope"), Span::new(0, 0));
    }
}
