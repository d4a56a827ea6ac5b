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

use crate::analysis::model::SourceLocation;
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

/// Every source file that the accesses' `.loc` chains name: what a caller
/// should read and pass to [`apply`].
pub fn files_to_read(result: &CheckResult) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for k in &result.analysis.kernels {
        for a in &k.accesses {
            for f in frames(a.source.as_ref()) {
                out.insert(f.file.clone());
            }
        }
    }
    out
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
    // The first kernel with an access at each span (one pass, not one scan
    // of every access per diagnostic: files have tens of thousands of both).
    let mut kernel_at: crate::util::FastMap<Span, usize> = Default::default();
    for (k, kernel) in result.analysis.kernels.iter().enumerate() {
        for a in &kernel.accesses {
            kernel_at.entry(a.span).or_insert(k);
        }
    }
    let kernel_of = |d: &Diagnostic| -> Option<&str> {
        kernel_at
            .get(&d.span())
            .map(|&k| result.analysis.kernels[k].name.as_str())
    };
    let mut keep = vec![true; result.diagnostics.len()];
    for (i, d) in result.diagnostics.iter().enumerate() {
        if d.code == UNUSED_SUPPRESSION.code {
            continue;
        }
        if let Some(k) = kernel_of(d) {
            let demangled = result
                .analysis
                .kernels
                .iter()
                .find(|x| x.name == k)
                .map(|x| x.demangled.as_str())
                .unwrap_or(k);
            if config.kernel_allows(k, demangled).any(|c| c == d.code) {
                keep[i] = false;
                continue;
            }
        }
        let loc = result.cuda_locations.get(i).and_then(|l| l.as_ref());
        'frames: for f in frames(loc) {
            let Some(cs) = parsed.get(f.file.as_str()) else {
                continue;
            };
            for c in cs {
                if !(c.line == f.line || (c.alone && c.line + 1 == f.line)) {
                    continue;
                }
                for r in &c.rules {
                    if find_rule(r).is_some_and(|rule| rule.code == d.code) {
                        used.insert((f.file.clone(), c.line, r.clone()));
                        keep[i] = false;
                        break 'frames;
                    }
                }
            }
        }
    }
    let allowed = keep.iter().filter(|k| !**k).count();
    let mut it = keep.iter();
    result.diagnostics.retain(|_| *it.next().unwrap_or(&true));
    let mut it = keep.iter();
    result
        .cuda_locations
        .retain(|_| *it.next().unwrap_or(&true));

    // Unused comments, judged where this PTX has code for the covered line.
    let level = config.level_of(UNUSED_SUPPRESSION.code, UNUSED_SUPPRESSION.default_level);
    let Some(severity) = level.severity() else {
        return allowed;
    };
    let mut has_code: BTreeSet<(&str, u32)> = BTreeSet::new();
    for k in &result.analysis.kernels {
        for a in &k.accesses {
            for f in frames(a.source.as_ref()) {
                has_code.insert((f.file.as_str(), f.line));
            }
        }
    }
    let mut extra = Vec::new();
    for (name, cs) in &parsed {
        for c in cs {
            let covers = |l: u32| has_code.contains(&(*name, l));
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
                extra.push((
                    d,
                    Some(SourceLocation {
                        file: name.to_string(),
                        line: c.line,
                        column: c.column,
                        inlined_at: None,
                    }),
                ));
            }
        }
    }
    if !extra.is_empty() {
        let mut all: Vec<(Diagnostic, Option<SourceLocation>)> = result
            .diagnostics
            .drain(..)
            .zip(result.cuda_locations.drain(..))
            .chain(extra)
            .collect();
        all.sort_by_key(|(d, _)| (d.span().start, d.code));
        (result.diagnostics, result.cuda_locations) = all.into_iter().unzip();
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
