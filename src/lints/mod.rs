//! The lint catalogue: what `warpscope check` reports about a kernel's memory
//! accesses, and the registry that names every rule.
//!
//! # Shape of a lint
//!
//! Each lint lives in its own file under `src/lints/`. The file declares the
//! lint's metadata with [`declare_lint!`](crate::declare_lint): a stable code
//! (`W101`), a kebab-case name (`uncoalesced-access`), a default [`Level`], and
//! a doc comment. **The doc comment is the user-facing explanation**: the macro
//! captures its `#[doc]` attributes, so `warpscope explain`, `warpscope rules`,
//! the SARIF rule help and the language server's hover all print the same text
//! that rustdoc shows. The file also defines one pure function,
//! `check(&LintContext) -> Vec<Finding>`, over the analysis result types of
//! [`crate::analysis::model`]: lints never look at the syntax tree, so they are
//! testable with hand-built [`Access`] values. They do not read an access's
//! `unknown_cause` either: [`check_file_parts`] and [`check_file_with`]
//! without kept kernels, what `check` runs, do not compute it
//! ([`Options::unknown_causes`](crate::analysis::Options::unknown_causes)).
//!
//! # Adding a lint
//!
//! 1. Copy the smallest lint file (`local_memory_access.rs`), pick the next
//!    free `W1xx` code and a kebab-case name that says what is found.
//! 2. Write the doc comment with the sections `## What it finds`,
//!    `## Why it costs`, `## Example`, `## How to fix it`, `## Known limits`.
//! 3. Write `check`, returning one [`Finding`] per offending access.
//! 4. Add the lint to [`LINTS`] below.
//! 5. Add `tests/fixtures/lints/<name>/fires.ptx` and `quiet.ptx`; run
//!    `INSTA_UPDATE=always cargo test --test lints` and read the new snapshots.
//!
//! The meta-tests in `tests/lints.rs` check that every rule is documented with
//! those sections, has both fixtures, and that codes and names are unique.
//!
//! # Levels
//!
//! A rule's level is its default, overridden by `warpscope.toml` (`[lints]`),
//! then by `-A`/`-W`/`-D` on the command line; `-D warnings` (`-A warnings`)
//! finally turns every remaining `warn` into `deny` (`allow`). `allow` drops the finding, `warn` makes a
//! warning, `deny` an error (exit code 1). Front-end diagnostics (syntax and
//! semantic errors, `E0xxx`) are rules too and can be configured the same way.

use crate::analysis::model::{Access, AccessOp, Analysis, KernelAnalysis, Pattern, Space};
use crate::config::{Config, Thresholds};
use crate::diagnostic::{Diagnostic, FrontEndCode, Severity};
use crate::source::{SourceFile, Span};
use std::sync::OnceLock;

pub mod bulk_copy_alignment;
pub mod data_dependent_access;
pub mod expect_tx_mismatch;
mod findings;
pub mod local_memory_access;
pub mod misaligned_access;
pub mod narrow_access;
pub mod shared_bank_conflict;
pub mod uncoalesced_access;
pub mod uniform_store;
pub mod unswizzled_tensor_operand;
pub mod unused_suppression;

pub use findings::Findings;

/// Declares a lint's metadata. The doc comment written above the `static`
/// becomes both its rustdoc and its `explain` text.
///
/// ```ignore
/// declare_lint! {
///     /// ## What it finds
///     /// ...
///     pub static MY_LINT = { code: "W199", name: "my-lint", level: Warn };
/// }
/// ```
#[macro_export]
macro_rules! declare_lint {
    (
        $(#[doc = $doc:literal])+
        $vis:vis static $ident:ident = { code: $code:literal, name: $name:literal, level: $level:ident $(,)? };
    ) => {
        $(#[doc = $doc])+
        $vis static $ident: $crate::lints::LintMeta = $crate::lints::LintMeta {
            code: $code,
            name: $name,
            default_level: $crate::lints::Level::$level,
            doc: concat!($($doc, "\n"),+),
        };
    };
}

/// What a rule does with its findings.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Not reported.
    Allow,
    /// Reported as a warning.
    Warn,
    /// Reported as an error: `check` exits with 1.
    Deny,
}

impl Level {
    /// Lower-case name, as written in `warpscope.toml`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
        }
    }
    /// The severity of a reported finding, `None` for `allow`.
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Allow => None,
            Level::Warn => Some(Severity::Warning),
            Level::Deny => Some(Severity::Error),
        }
    }
}

/// A lint's metadata, built by [`declare_lint!`](crate::declare_lint).
#[derive(Debug)]
pub struct LintMeta {
    /// Stable code, such as `W101`.
    pub code: &'static str,
    /// Stable kebab-case name, such as `uncoalesced-access`.
    pub name: &'static str,
    /// Level when nothing configures it.
    pub default_level: Level,
    /// The doc comment, one `#[doc]` attribute per line (not yet dedented;
    /// use [`explain`] for the text shown to users).
    pub doc: &'static str,
}

/// What a lint sees: one analysed kernel of one file, and the thresholds.
pub struct LintContext<'a> {
    /// The PTX file (for the instruction text under an access's span).
    pub file: &'a SourceFile,
    /// The kernel's analysis.
    pub kernel: &'a KernelAnalysis,
    /// Configurable thresholds.
    pub thresholds: &'a Thresholds,
    /// The memory model the figures were computed for.
    pub arch: crate::analysis::model::Arch,
}

/// One thing a lint found, before levels are applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// Index of the access in [`KernelAnalysis::accesses`].
    pub access: usize,
    /// One-line message.
    pub message: String,
    /// Text of the primary label (on the instruction).
    pub label: String,
    /// Further labelled spans in the PTX (for example the other accesses of a group).
    pub secondary: Vec<(Span, String)>,
    /// `note:` lines.
    pub notes: Vec<String>,
    /// A concrete fix.
    pub help: Option<String>,
}

/// The check function of a lint.
pub type CheckFn = fn(&LintContext<'_>) -> Vec<Finding>;

/// A lint: its metadata and its check.
pub struct Lint {
    /// Metadata (code, name, level, doc).
    pub meta: &'static LintMeta,
    /// The check.
    pub check: CheckFn,
}

/// Rules of the registry that are not per-kernel checks: found elsewhere
/// ([`crate::suppress`]) but documented, configured and explained like lints.
pub static OTHER_LINT_RULES: &[&LintMeta] = &[&unused_suppression::UNUSED_SUPPRESSION];

/// Every lint, in code order. The one registry.
pub static LINTS: &[Lint] = &[
    Lint {
        meta: &uncoalesced_access::UNCOALESCED_ACCESS,
        check: uncoalesced_access::check,
    },
    Lint {
        meta: &misaligned_access::MISALIGNED_ACCESS,
        check: misaligned_access::check,
    },
    Lint {
        meta: &narrow_access::NARROW_ACCESS,
        check: narrow_access::check,
    },
    Lint {
        meta: &data_dependent_access::DATA_DEPENDENT_ACCESS,
        check: data_dependent_access::check,
    },
    Lint {
        meta: &local_memory_access::LOCAL_MEMORY_ACCESS,
        check: local_memory_access::check,
    },
    Lint {
        meta: &uniform_store::UNIFORM_STORE,
        check: uniform_store::check,
    },
    Lint {
        meta: &shared_bank_conflict::SHARED_BANK_CONFLICT,
        check: shared_bank_conflict::check,
    },
    Lint {
        meta: &bulk_copy_alignment::BULK_COPY_ALIGNMENT,
        check: bulk_copy_alignment::check,
    },
    Lint {
        meta: &expect_tx_mismatch::EXPECT_TX_MISMATCH,
        check: expect_tx_mismatch::check,
    },
    Lint {
        meta: &unswizzled_tensor_operand::UNSWIZZLED_TENSOR_OPERAND,
        check: unswizzled_tensor_operand::check,
    },
];

/// Where a rule comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RuleKind {
    /// A syntax or semantic error of the front end (`E0xxx`).
    FrontEnd,
    /// A memory-access lint (`W1xx`).
    Lint,
}

/// One entry of the rule registry: a lint or a front-end diagnostic.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Rule {
    /// Stable code.
    pub code: &'static str,
    /// Stable kebab-case name.
    pub name: &'static str,
    /// Level when nothing configures it.
    pub default_level: Level,
    /// Lint or front end.
    pub kind: RuleKind,
    /// The first sentence of the explanation.
    pub summary: &'static str,
    /// The whole explanation (Markdown).
    pub explanation: &'static str,
}

struct Texts {
    explanations: Vec<String>,
    summaries: Vec<String>,
}

fn texts() -> &'static Texts {
    static TEXTS: OnceLock<Texts> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let mut explanations = Vec::new();
        for lint in LINTS {
            explanations.push(dedent_doc(lint.meta.doc));
        }
        for meta in OTHER_LINT_RULES {
            explanations.push(dedent_doc(meta.doc));
        }
        for fe in FrontEndCode::ALL {
            explanations.push(fe.explain().to_string());
        }
        let summaries = explanations.iter().map(|e| summary_of(e)).collect();
        Texts {
            explanations,
            summaries,
        }
    })
}

/// Strips the one leading space rustdoc keeps on each `///` line.
fn dedent_doc(raw: &str) -> String {
    let mut out = String::new();
    for line in raw.lines() {
        out.push_str(line.strip_prefix(' ').unwrap_or(line));
        out.push('\n');
    }
    out.trim().to_string() + "\n"
}

/// The first sentence of the first paragraph that is not a heading.
fn summary_of(text: &str) -> String {
    let para: Vec<&str> = text
        .split("\n\n")
        .map(str::trim)
        .find(|p| !p.is_empty() && !p.starts_with('#'))
        .unwrap_or("")
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .collect();
    let joined = para.join(" ");
    match joined.find(". ") {
        Some(i) => joined[..=i].to_string(),
        None => joined,
    }
}

/// Every rule: the lints in code order, the other lint rules, then the
/// front-end codes.
pub fn rules() -> impl Iterator<Item = Rule> {
    let t = texts();
    let lints = LINTS.iter().enumerate().map(move |(i, l)| Rule {
        code: l.meta.code,
        name: l.meta.name,
        default_level: l.meta.default_level,
        kind: RuleKind::Lint,
        summary: &t.summaries[i],
        explanation: &t.explanations[i],
    });
    let other = OTHER_LINT_RULES.iter().enumerate().map(move |(j, m)| {
        let i = LINTS.len() + j;
        Rule {
            code: m.code,
            name: m.name,
            default_level: m.default_level,
            kind: RuleKind::Lint,
            summary: &t.summaries[i],
            explanation: &t.explanations[i],
        }
    });
    let fe = FrontEndCode::ALL.iter().enumerate().map(move |(j, c)| {
        let i = LINTS.len() + OTHER_LINT_RULES.len() + j;
        Rule {
            code: c.code(),
            name: c.name(),
            default_level: Level::Deny,
            kind: RuleKind::FrontEnd,
            summary: &t.summaries[i],
            explanation: &t.explanations[i],
        }
    });
    lints.chain(other).chain(fe)
}

/// The rule with this code or name (codes are matched case-insensitively).
pub fn find_rule(code_or_name: &str) -> Option<Rule> {
    let q = code_or_name.trim();
    rules().find(|r| r.code.eq_ignore_ascii_case(q) || r.name == q)
}

/// The explanation of a rule, by code or name.
pub fn explain(code_or_name: &str) -> Option<&'static str> {
    find_rule(code_or_name).map(|r| r.explanation)
}

/// The result of checking one file.
#[derive(Clone, Debug)]
pub struct CheckResult {
    /// The analysis the lints ran over (its kernels are empty when
    /// [`check_file_with`] was asked not to keep them).
    pub analysis: Analysis,
    /// Front-end diagnostics and lint findings, levels applied (`allow`ed
    /// ones removed), sorted by position, each with the CUDA source
    /// location (from `.loc`) of its access and the kernel that found it.
    pub findings: Findings,
    /// What the suppressions read of the kernels' accesses.
    pub sites: crate::suppress::Sites,
}

impl CheckResult {
    /// True when a diagnostic has error severity.
    pub fn has_errors(&self) -> bool {
        self.findings.has_errors()
    }
}

/// Analyses a file and runs every lint that is not `allow`ed.
pub fn check_file(file: &SourceFile, config: &Config) -> CheckResult {
    check_file_with(file, config, true)
}

/// [`check_file`] that lints each kernel as soon as its analysis is done,
/// in the worker that analysed it, and keeps the kernel's analysis only
/// when `keep_kernels` is true: the findings (compact, [`Findings`]) and
/// the suppressions' [`Sites`](crate::suppress::Sites) are all that is left
/// of a kernel otherwise, so the file's kernels are never all alive at once
/// (on the largest cuBLAS module they are 1.1 GB: BENCHMARKS.md, "Stop 19").
pub fn check_file_with(file: &SourceFile, config: &Config, keep_kernels: bool) -> CheckResult {
    let opts = if keep_kernels {
        std::borrow::Cow::Borrowed(&config.options)
    } else {
        std::borrow::Cow::Owned(lint_only(&config.options))
    };
    let (kernels, diagnostics) = crate::pipeline::analyze_each(file, &opts, |k| {
        let linted = lint_kernel(file, &k, config);
        (linted, keep_kernels.then_some(k))
    });
    assemble(diagnostics, kernels, config)
}

/// The options of an analysis whose kernels are linted and dropped: no
/// lint reads an access's [`unknown_cause`](crate::analysis::model::Access::unknown_cause),
/// so it is not computed (the figures and every other field are the same).
fn lint_only(options: &crate::analysis::Options) -> crate::analysis::Options {
    crate::analysis::Options {
        unknown_causes: false,
        ..options.clone()
    }
}

/// Runs the lints over an analysis that was already computed, and applies
/// levels to it and to the analysis's front-end diagnostics.
pub fn lint_analysis(file: &SourceFile, analysis: Analysis, config: &Config) -> CheckResult {
    let Analysis {
        kernels,
        diagnostics,
    } = analysis;
    let kernels = kernels
        .into_iter()
        .map(|k| (lint_kernel(file, &k, config), Some(k)))
        .collect();
    assemble(diagnostics, kernels, config)
}

/// One kernel's findings (kernel index not yet known) and sites.
type Linted = (Findings, crate::suppress::Sites);

fn lint_kernel(file: &SourceFile, kernel: &KernelAnalysis, config: &Config) -> Linted {
    let mut out = Findings::new();
    let cx = LintContext {
        file,
        kernel,
        thresholds: &config.thresholds,
        arch: config.options.arch,
    };
    for lint in LINTS {
        let level = config.level_of(lint.meta.code, lint.meta.default_level);
        let Some(severity) = level.severity() else {
            continue;
        };
        for f in (lint.check)(&cx) {
            let Some(access) = kernel.accesses.get(f.access) else {
                continue;
            };
            out.push(
                &finding_to_diagnostic(lint.meta, severity, access, f),
                access.source.as_ref(),
                Some(0),
            );
        }
    }
    (out, crate::suppress::Sites::of_kernel(kernel))
}

/// The file's result: front-end diagnostics with levels applied, then each
/// kernel's findings in kernel order, sorted by position.
fn assemble(
    diagnostics: Vec<Diagnostic>,
    kernels: Vec<(Linted, Option<KernelAnalysis>)>,
    config: &Config,
) -> CheckResult {
    let mut findings = Findings::new();
    for d in &diagnostics {
        push_front_end(&mut findings, d, config);
    }
    let mut sites = crate::suppress::Sites::default();
    let mut kept = Vec::new();
    for (k, ((f, s), analysis)) in kernels.into_iter().enumerate() {
        findings.append_kernel(f, k as u32);
        sites.merge(s);
        kept.extend(analysis);
    }
    findings.sort();
    CheckResult {
        analysis: Analysis {
            kernels: kept,
            diagnostics,
        },
        findings,
        sites,
    }
}

/// Adds a front-end diagnostic with its configured level (`allow`ed ones
/// are left out).
fn push_front_end(findings: &mut Findings, d: &Diagnostic, config: &Config) {
    // Notes stay notes unless their code is configured.
    if d.severity == Severity::Note && !config.levels.contains_key(d.code) {
        findings.push(d, None, None);
        return;
    }
    let level = config.level_of(d.code, default_level_of(d));
    if let Some(severity) = level.severity() {
        let mut d = d.clone();
        d.severity = severity;
        findings.push(&d, None, None);
    }
}

/// One part of a file's check result from [`check_file_parts`].
#[derive(Debug, Default)]
pub struct CheckPart {
    /// The source files the module's `.file` directives name (in the first
    /// part only, before any finding).
    pub files: Vec<String>,
    /// The diagnostics of the next stretch of the file, as
    /// [`CheckResult::findings`] holds them there: levels applied, sorted
    /// by position, each kernel numbered in the file.
    pub findings: Findings,
    /// The suppressions' sites of the kernels done since the last part.
    pub sites: crate::suppress::Sites,
}

/// [`check_file_with`] without keeping the kernels, handing the result to
/// `part` in parts, in order, as soon as the functions before each
/// stretch of the file are done ([`crate::pipeline::analyze_settled`]):
/// the findings of the file's beginning can be printed while the rest is
/// analysed, and are not held until the file's end. The parts' findings
/// put end to end, and their sites merged, are [`check_file_with`]'s
/// (`tests/one_function.rs`): each part holds the diagnostics whose
/// position is in its stretch, and a stable sort by position restricted to
/// a stretch is the whole sort's restriction.
pub fn check_file_parts(
    file: &SourceFile,
    config: &Config,
    mut part: impl FnMut(CheckPart) + Send,
) {
    // Each kernel's findings not yet handed over, by kernel index.
    let mut pending: Vec<(u32, Findings)> = Vec::new();
    let mut count = 0u32;
    crate::pipeline::analyze_settled(
        file,
        &lint_only(&config.options),
        |k| lint_kernel(file, &k, config),
        |stretch| {
            let mut findings = Findings::new();
            for d in &stretch.diagnostics {
                push_front_end(&mut findings, d, config);
            }
            let mut sites = crate::suppress::Sites::default();
            for (f, s) in stretch.kernels {
                pending.push((count, f));
                count += 1;
                sites.merge(s);
            }
            for (k, f) in &mut pending {
                findings.append_kernel(f.split_below(stretch.limit), *k);
            }
            pending.retain(|(_, f)| !f.is_empty());
            findings.sort();
            part(CheckPart {
                files: stretch.files,
                findings,
                sites,
            });
        },
    );
}

fn default_level_of(d: &Diagnostic) -> Level {
    match d.severity {
        Severity::Error => Level::Deny,
        Severity::Warning | Severity::Note => Level::Warn,
    }
}

fn finding_to_diagnostic(
    meta: &LintMeta,
    severity: Severity,
    access: &Access,
    f: Finding,
) -> Diagnostic {
    let mut d =
        Diagnostic::new(meta.code, meta.name, severity, access.span, f.message).with_label(f.label);
    for (span, msg) in f.secondary {
        d = d.with_secondary(span, msg);
    }
    d.notes = f.notes;
    d.help = f.help;
    d
}

// ---- helpers shared by the lints ------------------------------------------

/// `load`, `store` or `atomic`.
pub(crate) fn op_word(op: AccessOp) -> &'static str {
    op.as_str()
}

/// True for accesses whose cost is counted in L2 sectors (global memory, or
/// generic addresses that may be global).
pub(crate) fn is_global_like(a: &Access) -> bool {
    matches!(a.space, Space::Global | Space::Generic)
}

/// A figure as people write it: `4`, `4.5`, `28.3`.
pub(crate) fn fmt_num(x: f64) -> String {
    if !x.is_finite() {
        return "?".into();
    }
    if (x - x.round()).abs() < 0.05 {
        format!("{}", x.round() as i64)
    } else {
        format!("{x:.1}")
    }
}

/// Bytes per lane.
pub(crate) fn bytes_per_lane(a: &Access) -> u32 {
    a.bits.div_ceil(8)
}

/// The ideal number of 128-byte L1 lines for this access: the ideal sectors,
/// four to a line.
pub(crate) fn ideal_lines(a: &Access) -> f64 {
    (a.per_request.ideal_sectors / 4.0).ceil().max(1.0)
}

/// The standard notes: lane address pattern and the per-request figures
/// against the ideal, then the analysis's caveats.
pub(crate) fn standard_notes(a: &Access) -> Vec<String> {
    let p = &a.per_request;
    let mut notes = Vec::new();
    if !a.lane_pattern.is_empty() {
        notes.push(lane_note(a));
    }
    let sectors = if (p.sectors_max - p.sectors_min).abs() < 0.05 {
        count(p.sectors, "sector")
    } else {
        format!(
            "{} to {} sectors (expected {})",
            fmt_num(p.sectors_min),
            fmt_num(p.sectors_max),
            fmt_num(p.sectors)
        )
    };
    let lanes = match p.active_lanes {
        Some(n) if (n - 32.0).abs() > 0.05 => format!(", {} active lanes", fmt_num(n)),
        _ => String::new(),
    };
    notes.push(format!(
        "per request: {sectors} and {}{lanes}; ideal: {} and {}",
        count(p.l1_lines, "L1 line"),
        count(p.ideal_sectors, "sector"),
        count(ideal_lines(a), "line"),
    ));
    for c in &a.caveats {
        notes.push(format!("caveat: {c}"));
    }
    notes
}

/// `4 sectors`, `1 sector`, `28.3 sectors`.
pub(crate) fn count(x: f64, what: &str) -> String {
    let n = fmt_num(x);
    if n == "1" {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The note that shows how each lane addresses memory, in the analysis's
/// notation (`lane` is the lane index 0..31 within the warp).
pub(crate) fn lane_note(a: &Access) -> String {
    format!("lane address: {}", a.lane_pattern)
}

/// `sectors / ideal` as `8x`, or `2.5x`.
pub(crate) fn fmt_ratio(sectors: f64, ideal: f64) -> String {
    if ideal <= 0.0 {
        return "?x".into();
    }
    format!("{}x", fmt_num(sectors / ideal))
}

/// True when a pattern describes contiguous lanes.
pub(crate) fn is_contiguous(p: Pattern) -> bool {
    matches!(p, Pattern::Coalesced | Pattern::Misaligned)
}

/// Test helpers: hand-built accesses for the lints' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::analysis::model::PerRequest;
    use crate::source::LineCol;

    /// A kernel over `text` whose accesses are given; spans found by searching
    /// `text` for each access's instruction line (`needle`).
    pub fn access(
        text: &str,
        needle: &str,
        op: AccessOp,
        space: Space,
        bits: u32,
        pattern: Pattern,
    ) -> Access {
        let start = text.find(needle).expect("needle in text") as u32;
        Access {
            span: Span::new(start, start + needle.len() as u32),
            ptx: LineCol { line: 1, column: 1 },
            instruction: needle.split_whitespace().next().unwrap_or("").to_string(),
            op,
            space,
            bits,
            pattern,
            per_request: PerRequest {
                l1_lines: 1.0,
                l1_lines_min: 1.0,
                l1_lines_max: 1.0,
                sectors: 4.0,
                ideal_sectors: 4.0,
                sectors_min: 4.0,
                sectors_max: 4.0,
                active_lanes: Some(32.0),
            },
            facts: facts_of(needle),
            ..Default::default()
        }
    }

    /// The operand facts the analysis would give the instruction `line`
    /// (vector count, element type, address operand): the fixture's stand-in
    /// for the lowering.
    pub fn facts_of(line: &str) -> crate::analysis::model::InstrFacts {
        let mnemonic = line.split_whitespace().next().unwrap_or("");
        let mods: Vec<&str> = mnemonic.split('.').skip(1).collect();
        let vector = mods
            .iter()
            .find_map(|m| m.strip_prefix('v').and_then(|n| n.parse().ok()))
            .unwrap_or(1);
        let element_type = mods.last().map(|m| m.to_string());
        let element_bits = element_type
            .as_deref()
            .and_then(|t| t[1..].parse().ok())
            .unwrap_or(32);
        let address = line.find('[').and_then(|open| {
            let close = open + line[open..].find(']')?;
            let inner = line[open + 1..close].trim();
            let (base, off) = match inner.find(['+', '-']) {
                Some(k) => {
                    let (b, o) = inner.split_at(k);
                    let v: i64 = o[1..].trim().parse().ok()?;
                    (b.trim(), if o.starts_with('-') { -v } else { v })
                }
                None => (inner, 0),
            };
            Some((base.to_string(), off))
        });
        crate::analysis::model::InstrFacts {
            vector,
            element_bits,
            element_type,
            address,
            guard: None,
            after_guard: false,
            label_region: 0,
        }
    }

    pub fn kernel(accesses: Vec<Access>) -> KernelAnalysis {
        KernelAnalysis {
            name: "k".into(),
            demangled: "k".into(),
            block: [128, 1, 1],
            block_assumed: false,
            grid: None,
            accesses,
            totals: None,
            totals_unavailable: None,
            caveats: Vec::new(),
            expect_tx: Vec::new(),
            span: Span::default(),
        }
    }

    pub fn run(check: CheckFn, text: &str, kernel: &KernelAnalysis) -> Vec<Finding> {
        let file = SourceFile::from_text("t.ptx", text);
        let thresholds = Thresholds::default();
        check(&LintContext {
            file: &file,
            kernel,
            thresholds: &thresholds,
            arch: crate::analysis::model::Arch::Sm70,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_is_first_sentence_after_heading() {
        assert_eq!(
            summary_of("## What it finds\n\nA thing. More.\n"),
            "A thing."
        );
        assert_eq!(summary_of("One line"), "One line");
    }

    #[test]
    fn explain_finds_by_code_and_name() {
        assert!(explain("W101").unwrap().contains("## What it finds"));
        assert_eq!(explain("w101"), explain("uncoalesced-access"));
        assert!(explain("syntax-error").is_some());
        assert!(explain("no-such-rule").is_none());
    }

    #[test]
    fn front_end_levels_apply_and_notes_stay_notes() {
        let file = SourceFile::from_text("a.ptx", "x");
        let mk = |sev| Diagnostic::new("E0001", "syntax-error", sev, Span::new(0, 1), "m");
        let analysis = Analysis {
            kernels: Vec::new(),
            diagnostics: vec![mk(Severity::Error), mk(Severity::Note)],
        };
        let mut c = Config {
            deny_warnings: true,
            ..Config::default()
        };
        let r = lint_analysis(&file, analysis.clone(), &c);
        let sev: Vec<_> = r.findings.iter().map(|d| d.severity).collect();
        assert_eq!(sev, vec![Severity::Error, Severity::Note]);
        c.set_level("syntax-error", Level::Allow).unwrap();
        assert!(lint_analysis(&file, analysis, &c).findings.is_empty());
    }

    #[test]
    fn numbers_print_like_people_write_them() {
        assert_eq!(fmt_num(4.0), "4");
        assert_eq!(fmt_num(28.26), "28.3");
        assert_eq!(fmt_ratio(32.0, 4.0), "8x");
        assert_eq!(fmt_ratio(6.0, 4.0), "1.5x");
    }
}
