//! `warpscope diff OLD NEW`: which memory accesses got worse or better
//! between two versions ([`warpscope::diff`]).
//!
//! OLD and NEW are both PTX files, both directories (their PTX files paired
//! by relative path, then by file name, so two Triton caches whose hash
//! folders differ still pair), or both JSON reports that warpscope wrote.
//! PTX is analysed with the configuration in force and Triton metadata, as
//! `report` does.
//!
//! Exit codes: 0 when nothing got worse by more than the threshold, 1 when
//! something did, 2 for usage or IO errors.

use super::common::{
    expand_paths, fail, input_dir, inputs_of, triton_metadata, ConfigArgs, LaunchArgs,
};
use super::ExitCode;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use warpscope::config::Resolver;
use warpscope::diff::{facts_of_analysis, facts_of_json, AccessFacts, Diff};

/// Output format of `warpscope diff`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiffFormat {
    /// One line per change.
    #[default]
    Text,
    /// A Markdown table, for a pull-request comment.
    Markdown,
    /// JSON (layout version 1).
    Json,
}

/// Arguments of `warpscope diff`.
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The old version: a PTX file, a directory, or a JSON report.
    pub old: PathBuf,
    /// The new version, of the same kind.
    pub new: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: DiffFormat,
    /// Percent growth of sectors, L1 lines or shared wavefronts per request
    /// above which an access counts as worse (exit code 1).
    #[arg(long, value_name = "PERCENT", default_value_t = 10.0)]
    pub threshold: f64,
    /// Configuration file options (for PTX inputs).
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Launch facts and analysis options (for PTX inputs).
    #[command(flatten)]
    pub launch: LaunchArgs,
}

/// One side of the comparison: facts per file key.
type Side = BTreeMap<String, Vec<AccessFacts>>;

fn is_json(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "json")
}

/// Reads one side: a JSON report, a PTX file, or a directory of PTX files
/// (keys: paths relative to the directory).
fn load(path: &Path, resolver: &mut Resolver, a: &DiffArgs) -> Result<Side, String> {
    if is_json(path) {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let files = facts_of_json(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut side = Side::new();
        for (p, facts) in files {
            side.entry(p).or_default().extend(facts);
        }
        return Ok(side);
    }
    let files = expand_paths(&[path.to_path_buf()])?;
    let mut side = Side::new();
    for f in files {
        let key = if path.is_dir() {
            f.strip_prefix(path).unwrap_or(&f).display().to_string()
        } else {
            String::new()
        };
        let mut options = resolver
            .for_dir(&input_dir(&f))
            .map_err(|e| e.to_string())?
            .config
            .options;
        if let Some(meta) = triton_metadata(&f) {
            meta.apply(&mut options, a.launch.arch.is_none());
        }
        let mut facts = Vec::new();
        for input in inputs_of(&f, a.launch.arch.and_then(|x| x.sm))? {
            facts.extend(facts_of_analysis(&warpscope::analyze(
                &input.file,
                &options,
            )));
        }
        side.insert(key, facts);
    }
    Ok(side)
}

fn file_name(key: &str) -> &str {
    key.rsplit(['/', '\\']).next().unwrap_or(key)
}

/// Pairs files: same key, then same file name when unique on both sides.
fn pair(mut old: Side, mut new: Side, diff: &mut Diff) {
    let common: Vec<String> = old
        .keys()
        .filter(|k| new.contains_key(*k))
        .cloned()
        .collect();
    let mut pairs: Vec<(String, Vec<AccessFacts>, Vec<AccessFacts>)> = Vec::new();
    for k in common {
        let (o, n) = (
            old.remove(&k).unwrap_or_default(),
            new.remove(&k).unwrap_or_default(),
        );
        pairs.push((k, o, n));
    }
    let unique =
        |side: &Side, name: &str| side.keys().filter(|k| file_name(k) == name).count() == 1;
    let olds: Vec<String> = old.keys().cloned().collect();
    for k in olds {
        let name = file_name(&k).to_string();
        if !unique(&old, &name) || !unique(&new, &name) {
            continue;
        }
        let Some(nk) = new.keys().find(|x| file_name(x) == name).cloned() else {
            continue;
        };
        let (o, n) = (
            old.remove(&k).unwrap_or_default(),
            new.remove(&nk).unwrap_or_default(),
        );
        pairs.push((name, o, n));
    }
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    for (k, o, n) in pairs {
        diff.add_file(&k, &o, &n);
    }
    for (k, facts) in old {
        diff.removed_files.push(k.clone());
        diff.add_file(&k, &facts, &[]);
    }
    for (k, facts) in new {
        diff.added_files.push(k.clone());
        diff.add_file(&k, &[], &facts);
    }
}

/// Runs `warpscope diff`.
pub fn run(a: DiffArgs) -> ExitCode {
    if !(a.threshold.is_finite() && a.threshold >= 0.0) {
        return fail(format!(
            "--threshold must be a percentage of at least 0, got {}",
            a.threshold
        ));
    }
    if is_json(&a.old) != is_json(&a.new) || a.old.is_dir() != a.new.is_dir() {
        return fail("OLD and NEW must be of the same kind: two PTX files, two directories or two JSON reports");
    }
    let mut resolver = Resolver::new(a.config.source(), a.launch.overrides());
    let old = match load(&a.old, &mut resolver, &a) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let new = match load(&a.new, &mut resolver, &a) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let mut diff = Diff::new(
        &a.old.display().to_string(),
        &a.new.display().to_string(),
        a.threshold / 100.0,
    );
    pair(old, new, &mut diff);
    let text = match a.format {
        DiffFormat::Text => warpscope::diff::render_text(&diff),
        DiffFormat::Markdown => warpscope::diff::render_markdown(&diff),
        DiffFormat::Json => warpscope::diff::render_json(&diff),
    };
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return fail(format!("writing the diff: {e}"));
        }
    }
    if diff.worse() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
