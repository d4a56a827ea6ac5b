//! Regression diff: how the memory behaviour of kernels changed between two
//! versions (`warpscope diff OLD NEW`).
//!
//! # What is compared
//!
//! Each version is reduced to [`AccessFacts`]: per memory access, the kernel,
//! where it is (the `.loc` chain with file names only, such as
//! `kernels.cu:42` or `helper.cuh:7@kernels.cu:42`, or `ptx:LINE` without
//! `.loc`), the operation and space, and the per-request figures (32-byte
//! sectors, 128-byte L1 lines, the ideal sectors, shared wavefronts) and
//! pattern. Accesses with the same (kernel, location, operation, space) form
//! one group (a line often compiles to several instructions, and unrolling
//! changes how many): a group's figures are the means over its accesses, so
//! a different unroll factor alone is no change; its pattern is the worst of
//! its accesses'.
//!
//! Facts come from an analysis ([`facts_of_analysis`]) or from JSON that
//! warpscope wrote ([`facts_of_json`]): `check --format json`, `report
//! --format json`, or the Python module's `analyze`.
//!
//! # What counts as worse
//!
//! A group got **worse** when its sectors, L1 lines or shared wavefronts per
//! request grew by more than the threshold (a fraction: 0.1 is 10%), or it is
//! new and costs more than the threshold above its ideal; **better** when
//! they shrank by more than it, or it is gone; **changed** when only the
//! pattern or a smaller amount moved. Entries are sorted worst first: by the
//! relative growth of sectors (then lines, then wavefronts), largest first.

use crate::analysis::model::{Analysis, Pattern};
use crate::report::CudaLine;
use serde::Serialize;
use std::collections::BTreeMap;

/// One memory access, reduced to what the diff compares.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AccessFacts {
    /// Kernel (demangled name).
    pub kernel: String,
    /// Where: the `.loc` chain with file names only, or `ptx:LINE`.
    pub location: String,
    /// `load`, `store` or `atomic`.
    pub op: String,
    /// Memory space.
    pub space: String,
    /// Mnemonic.
    pub instruction: String,
    /// Lane pattern.
    pub pattern: String,
    /// 32-byte sectors per request.
    pub sectors: f64,
    /// 128-byte L1 lines per request.
    pub l1_lines: f64,
    /// Ideal sectors per request.
    pub ideal_sectors: f64,
    /// Shared-memory wavefronts per request, when resolved.
    pub shared_wavefronts: Option<f64>,
}

/// The facts of every access of an analysis.
pub fn facts_of_analysis(analysis: &Analysis) -> Vec<AccessFacts> {
    let mut out = Vec::new();
    for k in &analysis.kernels {
        for a in &k.accesses {
            out.push(AccessFacts {
                kernel: k.demangled.clone(),
                location: match &a.source {
                    Some(loc) => CudaLine::new(loc).to_string(),
                    None => format!("ptx:{}", a.ptx.line),
                },
                op: a.op.as_str().to_string(),
                space: a.space.as_str().to_string(),
                instruction: a.instruction.clone(),
                pattern: a.pattern.as_str().to_string(),
                sectors: a.per_request.sectors,
                l1_lines: a.per_request.l1_lines,
                ideal_sectors: a.per_request.ideal_sectors,
                shared_wavefronts: a.shared_wavefronts,
            });
        }
    }
    out
}

/// The facts per file of a JSON document warpscope wrote: `check --format
/// json` and `report --format json` (`{"files": [{"path", "kernels"}]}`), or
/// one analysis (`{"kernels": [...]}`, the Python module's `analyze`, path
/// `""`). Errors say what is missing.
pub fn facts_of_json(text: &str) -> Result<Vec<(String, Vec<AccessFacts>)>, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let files: Vec<(String, &serde_json::Value)> = if let Some(files) = v["files"].as_array() {
        files
            .iter()
            .map(|f| (f["path"].as_str().unwrap_or("").to_string(), f))
            .collect()
    } else if v["kernels"].is_array() {
        vec![(String::new(), &v)]
    } else {
        return Err("neither `files` nor `kernels`: not a warpscope JSON report".into());
    };
    let mut out = Vec::new();
    for (path, f) in files {
        let mut facts = Vec::new();
        for (ki, k) in f["kernels"].as_array().into_iter().flatten().enumerate() {
            let kernel = k["demangled"]
                .as_str()
                .or(k["name"].as_str())
                .ok_or_else(|| format!("{path}: kernel {ki} has no name"))?;
            for (ai, a) in k["accesses"].as_array().into_iter().flatten().enumerate() {
                let num = |keys: &[&str]| -> Option<f64> {
                    keys.iter().find_map(|key| {
                        a.get("per_request")
                            .and_then(|p| p.get(*key))
                            .and_then(|x| x.as_f64())
                            .or_else(|| a.get(*key).and_then(|x| x.as_f64()))
                    })
                };
                let missing = |what: &str| format!("{path}: {kernel}: access {ai} has no `{what}`");
                let location = match a.get("source").or_else(|| a.get("cuda")) {
                    Some(loc) if loc.is_object() => json_location(loc),
                    _ => {
                        let line = a["ptx"]["line"]
                            .as_u64()
                            .or(a["ptx_line"].as_u64())
                            .ok_or_else(|| missing("ptx line"))?;
                        format!("ptx:{line}")
                    }
                };
                let s = |key: &str| {
                    a[key]
                        .as_str()
                        .map(str::to_string)
                        .ok_or_else(|| missing(key))
                };
                facts.push(AccessFacts {
                    kernel: kernel.to_string(),
                    location,
                    op: s("op")?,
                    space: s("space")?,
                    instruction: s("instruction")?,
                    pattern: s("pattern")?,
                    sectors: num(&["sectors"]).ok_or_else(|| missing("sectors"))?,
                    l1_lines: num(&["l1_lines"]).ok_or_else(|| missing("l1_lines"))?,
                    ideal_sectors: num(&["ideal_sectors"])
                        .ok_or_else(|| missing("ideal_sectors"))?,
                    shared_wavefronts: a["shared_wavefronts"].as_f64(),
                });
            }
        }
        out.push((path, facts));
    }
    Ok(out)
}

/// `file:line` with file names only, then `@caller:line` per inlining level
/// (as [`CudaLine`] prints it).
fn json_location(loc: &serde_json::Value) -> String {
    let mut parts = Vec::new();
    let mut cur = Some(loc);
    while let Some(l) = cur.filter(|l| l.is_object()) {
        let file = l["file"].as_str().unwrap_or("?");
        let file = file.rsplit(['/', '\\']).next().unwrap_or(file);
        parts.push(format!("{file}:{}", l["line"].as_u64().unwrap_or(0)));
        cur = l.get("inlined_at");
    }
    parts.join("@")
}

/// The figures of one group of accesses.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupFigures {
    /// Accesses in the group.
    pub accesses: usize,
    /// Mnemonics (distinct, sorted).
    pub instructions: Vec<String>,
    /// Worst pattern.
    pub pattern: String,
    /// Mean sectors per request.
    pub sectors: f64,
    /// Mean L1 lines per request.
    pub l1_lines: f64,
    /// Mean ideal sectors per request.
    pub ideal_sectors: f64,
    /// Mean shared wavefronts per request, when every access has them.
    pub shared_wavefronts: Option<f64>,
}

/// How a group changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Grew by more than the threshold (or new and costly).
    Worse,
    /// Moved, but not past the threshold either way.
    Changed,
    /// Shrank by more than the threshold (or gone).
    Better,
}

/// One group whose figures differ between the versions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    /// File (as the inputs were paired).
    pub file: String,
    /// Kernel (demangled).
    pub kernel: String,
    /// Where (see [`AccessFacts::location`]).
    pub location: String,
    /// Operation.
    pub op: String,
    /// Space.
    pub space: String,
    /// Before (absent when the access is new).
    pub old: Option<GroupFigures>,
    /// After (absent when the access is gone).
    pub new: Option<GroupFigures>,
    /// The verdict.
    pub verdict: Verdict,
    /// Largest relative growth of sectors, L1 lines or wavefronts (negative
    /// when all shrank); for a new access, its excess over the ideal.
    pub growth: f64,
}

/// The comparison of two versions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diff {
    /// Layout version of the JSON form.
    pub version: u32,
    /// The old version as named on the command line.
    pub old: String,
    /// The new version.
    pub new: String,
    /// Growth above which a change is worse (0.1 = 10%).
    pub threshold: f64,
    /// Changes, worst first.
    pub changes: Vec<Change>,
    /// Files only in the old version.
    pub removed_files: Vec<String>,
    /// Files only in the new version.
    pub added_files: Vec<String>,
}

impl Diff {
    /// An empty comparison.
    pub fn new(old: &str, new: &str, threshold: f64) -> Diff {
        Diff {
            version: 1,
            old: old.to_string(),
            new: new.to_string(),
            threshold,
            changes: Vec::new(),
            removed_files: Vec::new(),
            added_files: Vec::new(),
        }
    }

    /// Compares one file's two versions and adds the changes.
    pub fn add_file(&mut self, file: &str, old: &[AccessFacts], new: &[AccessFacts]) {
        let (old, new) = (groups(old), groups(new));
        let keys: std::collections::BTreeSet<&Key> = old.keys().chain(new.keys()).collect();
        for key in keys {
            let (o, n) = (old.get(key), new.get(key));
            if let (Some(o), Some(n)) = (o, n) {
                if same(o, n) {
                    continue;
                }
            }
            let (verdict, growth) = judge(o, n, self.threshold);
            self.changes.push(Change {
                file: file.to_string(),
                kernel: key.0.clone(),
                location: key.1.clone(),
                op: key.2.clone(),
                space: key.3.clone(),
                old: o.cloned(),
                new: n.cloned(),
                verdict,
                growth,
            });
        }
        self.changes.sort_by(|a, b| {
            // Worse and changed: largest growth first; better: largest
            // improvement (most negative growth) first.
            let key = |c: &Change| {
                if c.verdict == Verdict::Better {
                    c.growth
                } else {
                    -c.growth
                }
            };
            a.verdict
                .cmp(&b.verdict)
                .then(key(a).total_cmp(&key(b)))
                .then_with(|| {
                    (&a.file, &a.kernel, &a.location).cmp(&(&b.file, &b.kernel, &b.location))
                })
        });
    }

    /// Number of changes judged worse.
    pub fn worse(&self) -> usize {
        self.changes
            .iter()
            .filter(|c| c.verdict == Verdict::Worse)
            .count()
    }

    /// Number of changes judged better.
    pub fn better(&self) -> usize {
        self.changes
            .iter()
            .filter(|c| c.verdict == Verdict::Better)
            .count()
    }
}

type Key = (String, String, String, String);

fn groups(facts: &[AccessFacts]) -> BTreeMap<Key, GroupFigures> {
    let mut acc: BTreeMap<Key, Vec<&AccessFacts>> = BTreeMap::new();
    for f in facts {
        acc.entry((
            f.kernel.clone(),
            f.location.clone(),
            f.op.clone(),
            f.space.clone(),
        ))
        .or_default()
        .push(f);
    }
    acc.into_iter()
        .map(|(k, v)| {
            let n = v.len() as f64;
            let mean = |g: fn(&AccessFacts) -> f64| round4(v.iter().map(|f| g(f)).sum::<f64>() / n);
            let mut instructions: Vec<String> = v.iter().map(|f| f.instruction.clone()).collect();
            instructions.sort();
            instructions.dedup();
            let pattern = v
                .iter()
                .map(|f| f.pattern.as_str())
                .max_by_key(|p| pattern_rank(p))
                .unwrap_or("unknown")
                .to_string();
            let wavefronts = v
                .iter()
                .map(|f| f.shared_wavefronts)
                .collect::<Option<Vec<f64>>>()
                .map(|w| round4(w.iter().sum::<f64>() / n));
            (
                k,
                GroupFigures {
                    accesses: v.len(),
                    instructions,
                    pattern,
                    sectors: mean(|f| f.sectors),
                    l1_lines: mean(|f| f.l1_lines),
                    ideal_sectors: mean(|f| f.ideal_sectors),
                    shared_wavefronts: wavefronts,
                },
            )
        })
        .collect()
}

/// Patterns from best to worst.
fn pattern_rank(p: &str) -> u8 {
    const ORDER: [Pattern; 7] = [
        Pattern::Broadcast,
        Pattern::Coalesced,
        Pattern::Misaligned,
        Pattern::Strided,
        Pattern::Irregular,
        Pattern::Random,
        Pattern::Unknown,
    ];
    ORDER
        .iter()
        .position(|x| x.as_str() == p)
        .unwrap_or(ORDER.len()) as u8
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn same(a: &GroupFigures, b: &GroupFigures) -> bool {
    a.pattern == b.pattern
        && a.sectors == b.sectors
        && a.l1_lines == b.l1_lines
        && a.shared_wavefronts == b.shared_wavefronts
}

/// Relative growth from `old` to `new` (0 when both are 0).
fn growth(old: f64, new: f64) -> f64 {
    if old > 0.0 {
        (new - old) / old
    } else if new > 0.0 {
        f64::INFINITY
    } else {
        0.0
    }
}

fn judge(o: Option<&GroupFigures>, n: Option<&GroupFigures>, t: f64) -> (Verdict, f64) {
    match (o, n) {
        (Some(o), Some(n)) => {
            let mut g = vec![growth(o.sectors, n.sectors), growth(o.l1_lines, n.l1_lines)];
            if let (Some(a), Some(b)) = (o.shared_wavefronts, n.shared_wavefronts) {
                g.push(growth(a, b));
            }
            let max = g.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let min = g.iter().cloned().fold(f64::INFINITY, f64::min);
            if max > t {
                (Verdict::Worse, round4(max))
            } else if max <= 0.0 && min < -t {
                (Verdict::Better, round4(min))
            } else {
                (Verdict::Changed, round4(if max > 0.0 { max } else { min }))
            }
        }
        (None, Some(n)) => {
            let excess = growth(n.ideal_sectors, n.sectors);
            let v = if excess > t {
                Verdict::Worse
            } else {
                Verdict::Changed
            };
            (v, round4(excess))
        }
        (Some(_), None) => (Verdict::Better, -1.0),
        (None, None) => (Verdict::Changed, 0.0),
    }
}

// ---- rendering --------------------------------------------------------------

fn num(x: f64) -> String {
    if (x - x.round()).abs() < 0.005 {
        format!("{}", x.round() as i64)
    } else {
        format!("{x:.2}")
    }
}

fn pct(g: f64) -> String {
    if g.is_infinite() {
        "new cost".into()
    } else {
        format!("{:+.0}%", g * 100.0)
    }
}

/// What changed, in words: `sectors 4 -> 32, L1 lines 1 -> 8, coalesced -> strided`.
fn what(c: &Change) -> String {
    match (&c.old, &c.new) {
        (Some(o), Some(n)) => {
            let mut parts = Vec::new();
            if o.sectors != n.sectors {
                parts.push(format!("sectors {} -> {}", num(o.sectors), num(n.sectors)));
            }
            if o.l1_lines != n.l1_lines {
                parts.push(format!(
                    "L1 lines {} -> {}",
                    num(o.l1_lines),
                    num(n.l1_lines)
                ));
            }
            if o.shared_wavefronts != n.shared_wavefronts {
                let w = |x: Option<f64>| x.map(num).unwrap_or_else(|| "?".into());
                parts.push(format!(
                    "wavefronts {} -> {}",
                    w(o.shared_wavefronts),
                    w(n.shared_wavefronts)
                ));
            }
            if o.pattern != n.pattern {
                parts.push(format!("{} -> {}", o.pattern, n.pattern));
            }
            parts.join(", ")
        }
        (None, Some(n)) => format!(
            "new: {}, {} sectors (ideal {}), {} L1 lines",
            n.pattern,
            num(n.sectors),
            num(n.ideal_sectors),
            num(n.l1_lines)
        ),
        (Some(o), None) => format!("gone: was {}, {} sectors", o.pattern, num(o.sectors)),
        (None, None) => String::new(),
    }
}

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Worse => "worse",
        Verdict::Changed => "changed",
        Verdict::Better => "better",
    }
}

fn summary(d: &Diff) -> String {
    format!(
        "{} worse, {} better, {} changed (threshold {}%)",
        d.worse(),
        d.better(),
        d.changes.len() - d.worse() - d.better(),
        num(d.threshold * 100.0)
    )
}

/// Plain text: one line per change, worst first, then a summary.
pub fn render_text(d: &Diff) -> String {
    let mut out = format!("warpscope diff: {} -> {}\n", d.old, d.new);
    for f in &d.removed_files {
        out.push_str(&format!("removed file: {f}\n"));
    }
    for f in &d.added_files {
        out.push_str(&format!("added file: {f}\n"));
    }
    for c in &d.changes {
        let file = if c.file.is_empty() {
            String::new()
        } else {
            format!("{}: ", c.file)
        };
        out.push_str(&format!(
            "{:<7} {file}{} {} {} {}: {} ({})\n",
            verdict_word(c.verdict),
            c.kernel,
            c.location,
            c.op,
            c.space,
            what(c),
            pct(c.growth)
        ));
    }
    if d.changes.is_empty() {
        out.push_str("no access changed\n");
    }
    out.push_str(&format!("summary: {}\n", summary(d)));
    out
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// GitHub-flavoured Markdown, for a pull-request comment.
pub fn render_markdown(d: &Diff) -> String {
    let mut out = String::from("## warpscope: memory access changes\n\n");
    out.push_str(&format!(
        "`{}` → `{}`: **{}**\n\n",
        md_cell(&d.old),
        md_cell(&d.new),
        summary(d)
    ));
    for f in &d.removed_files {
        out.push_str(&format!("- removed file `{}`\n", md_cell(f)));
    }
    for f in &d.added_files {
        out.push_str(&format!("- added file `{}`\n", md_cell(f)));
    }
    if !(d.removed_files.is_empty() && d.added_files.is_empty()) {
        out.push('\n');
    }
    if d.changes.is_empty() {
        out.push_str("No access changed.\n");
        return out;
    }
    out.push_str("| | kernel | where | access | change | growth |\n");
    out.push_str("| --- | --- | --- | --- | --- | ---: |\n");
    for c in &d.changes {
        let mark = match c.verdict {
            Verdict::Worse => "🔴 worse",
            Verdict::Changed => "⚪ changed",
            Verdict::Better => "🟢 better",
        };
        let place = if c.file.is_empty() {
            format!("`{}`", md_cell(&c.location))
        } else {
            format!("`{}` `{}`", md_cell(&c.file), md_cell(&c.location))
        };
        out.push_str(&format!(
            "| {mark} | `{}` | {place} | {} {} | {} | {} |\n",
            md_cell(&c.kernel),
            c.op,
            c.space,
            md_cell(&what(c)),
            pct(c.growth)
        ));
    }
    out
}

/// The diff as pretty JSON (layout version 1; growth of a new access with no
/// ideal is `null`).
pub fn render_json(d: &Diff) -> String {
    let mut s =
        serde_json::to_string_pretty(d).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(loc: &str, pattern: &str, sectors: f64, lines: f64) -> AccessFacts {
        AccessFacts {
            kernel: "k".into(),
            location: loc.into(),
            op: "load".into(),
            space: "global".into(),
            instruction: "ld.global.f32".into(),
            pattern: pattern.into(),
            sectors,
            l1_lines: lines,
            ideal_sectors: 4.0,
            shared_wavefronts: None,
        }
    }

    #[test]
    fn worse_first_and_unroll_alone_is_no_change() {
        let old = vec![
            fact("k.cu:1", "coalesced", 4.0, 1.0),
            fact("k.cu:2", "coalesced", 4.0, 1.0),
            fact("k.cu:3", "strided", 32.0, 8.0),
            fact("k.cu:4", "coalesced", 4.0, 1.0),
        ];
        let new = vec![
            fact("k.cu:1", "coalesced", 4.0, 1.0),
            fact("k.cu:1", "coalesced", 4.0, 1.0), // unrolled twice: same means
            fact("k.cu:2", "strided", 8.0, 2.0),
            fact("k.cu:3", "coalesced", 4.0, 1.0),
            fact("k.cu:5", "strided", 16.0, 4.0),
        ];
        let mut d = Diff::new("a", "b", 0.1);
        d.add_file("", &old, &new);
        let got: Vec<(&str, Verdict, f64)> = d
            .changes
            .iter()
            .map(|c| (c.location.as_str(), c.verdict, c.growth))
            .collect();
        assert_eq!(
            got,
            vec![
                ("k.cu:5", Verdict::Worse, 3.0),   // new: 16 sectors, ideal 4
                ("k.cu:2", Verdict::Worse, 1.0),   // 4 -> 8 sectors
                ("k.cu:4", Verdict::Better, -1.0), // gone
                ("k.cu:3", Verdict::Better, -0.875),
            ]
        );
        assert_eq!((d.worse(), d.better()), (2, 2));
        let text = render_text(&d);
        assert!(text.contains("worse   k k.cu:2 load global: sectors 4 -> 8, L1 lines 1 -> 2, coalesced -> strided (+100%)"), "{text}");
        let md = render_markdown(&d);
        assert!(
            md.contains("| 🔴 worse | `k` | `k.cu:2` | load global |"),
            "{md}"
        );
        // Below the threshold: changed, not worse.
        let mut d = Diff::new("a", "b", 2.0);
        d.add_file("", &old[1..2], &new[2..3]);
        assert_eq!(d.changes[0].verdict, Verdict::Changed);
    }

    #[test]
    fn json_of_both_layouts_reads_the_same_facts() {
        let contract = r#"{"version": 1, "kernels": [{"name": "_Z1kv", "demangled": "k()", "accesses": [
            {"ptx": {"line": 9, "column": 5}, "source": {"file": "/a/k.cu", "line": 3, "column": 1, "inlined_at": null},
             "instruction": "ld.global.f32", "op": "load", "space": "global", "pattern": "strided",
             "per_request": {"sectors": 32.0, "l1_lines": 8.0, "ideal_sectors": 4.0}, "shared_wavefronts": null}]}]}"#;
        let report = r#"{"version": 1, "files": [{"path": "k.ptx", "kernels": [{"name": "_Z1kv", "demangled": "k()", "accesses": [
            {"ptx_line": 9, "cuda": {"file": "k.cu", "line": 3, "inlined_at": null},
             "instruction": "ld.global.f32", "op": "load", "space": "global", "pattern": "strided",
             "sectors": 32.0, "l1_lines": 8.0, "ideal_sectors": 4.0, "shared_wavefronts": null}]}]}]}"#;
        let a = facts_of_json(contract).unwrap();
        let b = facts_of_json(report).unwrap();
        assert_eq!(a[0].1, b[0].1);
        assert_eq!(a[0].1[0].location, "k.cu:3");
        assert_eq!(b[0].0, "k.ptx");
        assert!(facts_of_json("{\"x\": 1}").is_err());
        let bad = r#"{"kernels": [{"name": "k", "accesses": [{"op": "load"}]}]}"#;
        assert!(facts_of_json(bad).unwrap_err().contains("access 0"));
    }
}
