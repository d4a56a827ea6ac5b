//! `warpscope check`: lint PTX files and report findings.
//!
//! Files are checked in parallel and printed in input order as soon as each
//! one and those before it are done ([`super::stream`]); each file's
//! findings are dropped once printed. Within a file, each kernel is linted
//! in the worker that analysed it, as soon as its analysis is done, and its
//! analysis dropped there (kept only for `--format json`, which prints it;
//! `--coverage` tallies it there instead of linting). In the formats that
//! print finding by finding, without a baseline and when no source of the
//! file has a suppression comment, a file's findings are printed a stretch
//! at a time as its functions are done ([`warpscope::lints::check_file_parts`],
//! the same bytes as the whole file's); otherwise what a file holds until
//! it is printed is its compact findings ([`warpscope::lints::Findings`])
//! and what the suppressions read. Per file: configuration
//! ([`warpscope::config::Resolver`]), Triton metadata beside the PTX as
//! launch facts, the lints, the sources `.loc` names (for snippets and
//! suppression comments), suppressions, then the baseline.
//!
//! Exit codes: 0 when no finding reaches error level, 1 when one does, 2 for
//! usage, IO, configuration or internal errors (each with a message on stderr;
//! an input that cannot be read is reported and the other inputs are still
//! checked).

use super::common::{
    expand_paths, fail, input_dir, inputs_of, read_sources, triton_metadata, ConfigArgs, Input,
    LaunchArgs,
};
use super::progress::Progress;
use super::stream::Message;
use super::ExitCode;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use warpscope::analysis::coverage::Coverage;
use warpscope::config::{Config, ConfigError, ResolveError, Resolver};
use warpscope::lints::{check_file_with, CheckResult, Level};
use warpscope::output::{
    render_config_error, Baseline, Emitter, FileReport, Format, Locations, RenderOptions,
};
use warpscope::source::SourceFile;

/// When to colour the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// When writing to a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream that is (or not) a terminal.
    pub fn enabled(self, is_terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}

/// Arguments of `warpscope check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// PTX files, SASS listings (*.sass: `cuobjdump -sass`/`nvdisasm` output),
    /// binaries (cubin, fatbin, object, .so, executable: their embedded PTX,
    /// and their SASS through nvdisasm when it is on PATH), directories
    /// (searched recursively for *.ptx, *.sass, *.cubin, *.fatbin), or `-`.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Where concise, sarif, github and gitlab place a finding: at the PTX
    /// instruction, or at its CUDA source line from `.loc` (paths under the
    /// current directory made relative).
    #[arg(long, value_enum, default_value_t, value_name = "WHERE")]
    pub locations: Locations,
    /// Colour the output.
    #[arg(long, value_enum, default_value_t, value_name = "WHEN")]
    pub color: ColorChoice,
    /// Set a lint to `allow` (by name or code; repeatable); `-A warnings` silences every warning.
    #[arg(short = 'A', long = "allow", value_name = "LINT")]
    pub allow: Vec<String>,
    /// Set a lint to `warn` (by name or code; repeatable).
    #[arg(short = 'W', long = "warn", value_name = "LINT")]
    pub warn: Vec<String>,
    /// Set a lint to `deny` (by name or code; repeatable); `-D warnings` turns every warning into an error.
    #[arg(short = 'D', long = "deny", value_name = "LINT")]
    pub deny: Vec<String>,
    /// Exit with 0 even when a finding reaches error level.
    #[arg(long)]
    pub exit_zero: bool,
    /// Report only findings that are not in this baseline file (written by
    /// `--write-baseline`); exit 1 only for new errors.
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,
    /// Record every current finding in this file as the baseline, print
    /// nothing else and exit 0.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Print a coverage table instead of the findings: how many memory
    /// accesses got each pattern per space, and why the `unknown` ones are
    /// unknown (`--format json`: the same as JSON).
    #[arg(long, conflicts_with_all = ["write_baseline", "baseline"])]
    pub coverage: bool,
    /// No progress bar (it is only shown on a terminal, for more than one file).
    #[arg(short, long)]
    pub quiet: bool,
    /// Configuration file options.
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Launch facts and analysis options.
    #[command(flatten)]
    pub launch: LaunchArgs,
}

fn config_fail(e: &ConfigError, color: ColorChoice) -> ExitCode {
    // Show the file relative to the current directory when it is below it.
    let mut e = e.clone();
    if let Ok(cwd) = std::env::current_dir() {
        if let Ok(rel) = e.path.strip_prefix(&cwd) {
            e.path = rel.to_path_buf();
        }
    }
    eprint!(
        "{}",
        render_config_error(&e, color.enabled(std::io::stderr().is_terminal()))
    );
    ExitCode::from(2)
}

/// One checked input, or a part of one, ready to print.
enum Checked {
    /// Its findings, whole.
    Findings {
        file: Arc<SourceFile>,
        result: Box<CheckResult>,
        sources: BTreeMap<String, String>,
    },
    /// A stretch of its findings, printed as it comes (the stretches of an
    /// input come in order, `first` with the first).
    Part {
        file: Arc<SourceFile>,
        result: Box<CheckResult>,
        sources: Arc<BTreeMap<String, String>>,
        first: bool,
    },
    /// `--coverage`: its tally.
    Coverage(Coverage),
}

/// How an input's findings are printed ([`check_input`]).
enum Printing {
    /// In parts as the file is analysed, with the sources its `.file`
    /// directives name (none of them has a suppression comment).
    Parts(Arc<BTreeMap<String, String>>),
    /// Whole, at the end: comment suppressions judge a file's findings
    /// together (and `unused-suppression` needs all of them), so do the
    /// baseline and the formats that number or fingerprint them.
    Whole(Box<CheckResult>),
}

/// Checks one input and hands what is to print to `out` (parts of its
/// findings while it is analysed, when they can be printed so: plain
/// findings in a format that prints finding by finding, no baseline, no
/// suppression comment in its sources; else the whole result at the end).
fn check_input(
    a: &CheckArgs,
    path: &std::path::Path,
    config: &Config,
    input: Input,
    in_parts: bool,
    out: &(dyn Fn(Checked) + Sync),
) {
    if a.coverage {
        let (tallies, _) = warpscope::pipeline::analyze_each(&input.file, &config.options, |k| {
            let mut c = Coverage::default();
            c.add_kernel(&k);
            c
        });
        let mut cov = Coverage {
            files: 1,
            ..Coverage::default()
        };
        for c in &tallies {
            cov.merge(c);
        }
        return out(Checked::Coverage(cov));
    }
    let file = Arc::new(input.file);
    let whole = |mut result: CheckResult| {
        let mut names = warpscope::suppress::files_to_read(&result);
        names.extend(result.findings.locations().map(|l| l.file.clone()));
        let sources = read_sources(path, &names);
        warpscope::suppress::apply(&file, &mut result, &sources, config);
        out(Checked::Findings {
            file: file.clone(),
            result: Box::new(result),
            sources,
        })
    };
    // Only `--format json` reads the kernels' accesses once they are
    // linted: otherwise each kernel is linted in the worker that analysed
    // it and its analysis dropped there, so that the file's kernels are
    // never all alive (on the largest cuBLAS file they are 1.1 GB:
    // BENCHMARKS.md, "Stop 18").
    if a.format == Format::Json {
        return whole(check_file_with(&file, config, true));
    }
    let in_parts = in_parts && !warpscope::sass::is_sass_file(&file);
    let mut printing = None;
    let mut kernel_sites = warpscope::suppress::Sites::default();
    let mut read = BTreeSet::new();
    // Sources read after the first part (a `.loc` file number that no
    // `.file` names): the only ones whose suppression comments are not
    // known to be absent.
    let mut later: BTreeMap<String, String> = BTreeMap::new();
    let mut first = true;
    warpscope::lints::check_file_parts(&file, config, |part| {
        let printing = printing.get_or_insert_with(|| {
            let sources = if in_parts {
                read_sources(path, &part.files)
            } else {
                BTreeMap::new()
            };
            if in_parts
                && sources
                    .values()
                    .all(|t| warpscope::suppress::comments(t).is_empty())
            {
                read.extend(part.files.iter().cloned());
                Printing::Parts(Arc::new(sources))
            } else {
                Printing::Whole(Box::new(CheckResult {
                    analysis: warpscope::Analysis {
                        kernels: Vec::new(),
                        diagnostics: Vec::new(),
                    },
                    findings: Default::default(),
                    sites: Default::default(),
                }))
            }
        });
        match printing {
            Printing::Whole(r) => {
                r.findings.append(part.findings);
                r.sites.merge(part.sites);
            }
            Printing::Parts(sources) => {
                // A `.loc` file number that no `.file` names is shown as
                // `#N`; the whole path reads it too, for its snippets.
                for name in part.findings.locations().map(|l| &l.file) {
                    if read.insert(name.clone()) {
                        let more = read_sources(path, [name]);
                        if !more.is_empty() {
                            later.extend(more.clone());
                            Arc::make_mut(sources).extend(more);
                        }
                    }
                }
                kernel_sites.merge(part.sites);
                let mut result = CheckResult {
                    analysis: warpscope::Analysis {
                        kernels: Vec::new(),
                        diagnostics: Vec::new(),
                    },
                    findings: part.findings,
                    sites: std::mem::take(&mut kernel_sites),
                };
                // The first part's sources have no comment (checked
                // above): this applies `[[kernel]] allow`, and the comments
                // of sources read since, without scanning every source again
                // for each part.
                warpscope::suppress::apply(&file, &mut result, &later, config);
                kernel_sites = std::mem::take(&mut result.sites);
                if first || !result.findings.is_empty() {
                    out(Checked::Part {
                        file: file.clone(),
                        result: Box::new(result),
                        sources: sources.clone(),
                        first,
                    });
                    first = false;
                }
            }
        }
    });
    if let Some(Printing::Whole(result)) = printing {
        whole(*result);
    }
}

/// Why the run stopped early.
enum Stop {
    Usage(String),
    Config(ConfigError),
    Output(std::io::Error),
}

/// Runs `warpscope check`.
pub fn run(a: CheckArgs) -> ExitCode {
    let paths = match expand_paths(&a.paths) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    if paths.is_empty() {
        return fail("no *.ptx files found in the given paths");
    }
    let baseline = match &a.baseline {
        Some(p) => match std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| Baseline::from_json(&t))
        {
            Ok(b) => Some(b),
            Err(e) => return fail(format!("{}: {e}", p.display())),
        },
        None => None,
    };
    let mut overrides = a.launch.overrides();
    for (names, level) in [
        (&a.allow, Level::Allow),
        (&a.warn, Level::Warn),
        (&a.deny, Level::Deny),
    ] {
        overrides
            .levels
            .extend(names.iter().map(|n| (n.clone(), level)));
    }
    let mut resolver = Resolver::new(a.config.source(), overrides);

    let color = a.color.enabled(std::io::stdout().is_terminal());
    let strip_prefix = std::env::current_dir().ok().map(|d| {
        let mut p = d.display().to_string();
        if !p.ends_with('/') {
            p.push('/');
        }
        p
    });
    let mut emitter = Emitter::new(
        a.format,
        RenderOptions {
            color,
            locations: a.locations,
            strip_prefix,
        },
    );
    let mut recorded = a.write_baseline.as_ref().map(|_| Baseline::new());
    let progress = Progress::new(paths.len(), a.quiet);
    let mut stdout = std::io::stdout().lock();
    let mut errors = false;
    let mut in_baseline = 0usize;
    let mut coverage = a.coverage.then(Coverage::default);
    let mut input_failed = false;

    let in_parts = emitter.prints_parts() && baseline.is_none() && recorded.is_none();
    let outcome = super::stream::ordered_parts(
        &paths,
        |path| std::fs::metadata(path).map_or(0, |m| m.len()),
        |path| -> Result<Config, Stop> {
            let mut config = match resolver.for_dir(&input_dir(path)) {
                Ok(r) => r.config,
                Err(ResolveError::File(e)) => return Err(Stop::Config(e)),
                Err(ResolveError::Override(e)) => return Err(Stop::Usage(e)),
            };
            if let Some(meta) = triton_metadata(path) {
                // Facts of the compiled kernel; `--arch` still wins.
                meta.apply(&mut config.options, a.launch.arch.is_none());
            }
            Ok(config)
        },
        |path, config, out| -> Result<(), String> {
            for input in inputs_of(path, a.launch.arch.and_then(|x| x.sm))? {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    check_input(&a, path, &config, input, in_parts, out)
                }))
                .map_err(|_| format!("internal error while checking {}", path.display()))?;
            }
            Ok(())
        },
        |path, message| -> Result<(), Stop> {
            let checked = match message {
                Message::Part(c) => c,
                Message::Done(Ok(())) => {
                    progress.inc(&path.display().to_string());
                    return Ok(());
                }
                // An input that cannot be read (too large, not readable) is
                // reported and the others are still checked; the exit code
                // is 2.
                Message::Done(Err(e)) => {
                    progress.suspend(|| eprintln!("error: {e}"));
                    input_failed = true;
                    progress.inc(&path.display().to_string());
                    return Ok(());
                }
            };
            let (file, mut result, sources, first) = match checked {
                Checked::Coverage(c) => {
                    if let Some(cov) = &mut coverage {
                        cov.merge(&c);
                    }
                    return Ok(());
                }
                Checked::Findings {
                    file,
                    result,
                    sources,
                } => (file, *result, Arc::new(sources), None),
                Checked::Part {
                    file,
                    result,
                    sources,
                    first,
                } => (file, *result, sources, Some(first)),
            };
            if let Some(b) = &baseline {
                in_baseline += b.filter(&file, &mut result);
            }
            let report = FileReport {
                file: &file,
                result: &result,
                sources: &sources,
            };
            if let Some(rec) = &mut recorded {
                rec.record(&report);
                return Ok(());
            }
            errors |= result.has_errors();
            // Written as it is rendered (a file's text may be several
            // times its size), through a buffer: stdout is line-buffered.
            progress
                .suspend(|| {
                    let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut stdout);
                    match first {
                        None => emitter.write_file(&report, &mut w)?,
                        Some(first) => emitter.write_part(&report, first, &mut w)?,
                    }
                    w.flush()?;
                    drop(w);
                    stdout.flush()
                })
                .map_err(Stop::Output)
        },
    );
    progress.finish();
    match outcome {
        Ok(()) => {}
        Err(Stop::Usage(e)) => return fail(e),
        Err(Stop::Config(e)) => return config_fail(&e, a.color),
        Err(Stop::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            return ExitCode::SUCCESS
        }
        Err(Stop::Output(e)) => return fail(format!("writing the output: {e}")),
    }
    if let Some(cov) = &coverage {
        let text = if a.format == Format::Json {
            serde_json::to_string_pretty(cov).unwrap_or_default() + "\n"
        } else {
            render_coverage(cov)
        };
        if let Err(e) = stdout
            .write_all(text.as_bytes())
            .and_then(|_| stdout.flush())
        {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                return fail(format!("writing the output: {e}"));
            }
        }
        return if input_failed {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    if let (Some(rec), Some(path)) = (&recorded, &a.write_baseline) {
        if let Err(e) = std::fs::write(path, rec.to_json()) {
            return fail(format!("{}: {e}", path.display()));
        }
        eprintln!(
            "wrote {} finding{} to the baseline {}",
            rec.len(),
            if rec.len() == 1 { "" } else { "s" },
            path.display()
        );
        return ExitCode::SUCCESS;
    }
    let written = {
        let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut stdout);
        emitter.write_finish(&mut w).and_then(|_| w.flush())
    };
    if let Err(e) = written.and_then(|_| stdout.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return fail(format!("writing the output: {e}"));
        }
    }
    if in_baseline > 0 && !a.quiet {
        eprintln!(
            "{in_baseline} finding{} in the baseline not shown",
            if in_baseline == 1 { "" } else { "s" }
        );
    }
    if input_failed {
        ExitCode::from(2)
    } else if errors && !a.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `1,234,567`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The coverage tally as text tables.
fn render_coverage(c: &Coverage) -> String {
    use std::fmt::Write as _;
    const PATTERNS: [&str; 7] = [
        "coalesced",
        "broadcast",
        "strided",
        "misaligned",
        "irregular",
        "random",
        "unknown",
    ];
    let mut out = String::new();
    let all: u64 = c.patterns.keys().map(|s| c.total(s)).sum();
    let _ = writeln!(
        out,
        "coverage: {} files, {} kernels, {} memory accesses\n",
        thousands(c.files),
        thousands(c.kernels),
        thousands(all)
    );
    let _ = write!(out, "{:<9} {:>10}", "space", "accesses");
    for p in PATTERNS {
        let _ = write!(out, " {p:>10}");
    }
    let _ = writeln!(out, " {:>9}", "unknown %");
    for (space, m) in &c.patterns {
        let total = c.total(space);
        let _ = write!(out, "{space:<9} {:>10}", thousands(total));
        for p in PATTERNS {
            let _ = write!(out, " {:>10}", thousands(m.get(p).copied().unwrap_or(0)));
        }
        let pct = 100.0 * c.unknown_in(space) as f64 / total.max(1) as f64;
        let _ = writeln!(out, " {pct:>8.1}%");
    }
    if c.unknown.is_empty() {
        return out;
    }
    let _ = writeln!(out, "\nunknown accesses by cause:");
    let mut causes: Vec<&String> = c.unknown.values().flat_map(|m| m.keys()).collect();
    causes.sort();
    causes.dedup();
    for cause in causes {
        let _ = write!(out, "  {cause:<28}");
        for (space, m) in &c.unknown {
            if let Some(n) = m.get(cause) {
                let _ = write!(out, " {space} {}", thousands(*n));
            }
        }
        let _ = writeln!(out);
    }
    if !c.opcodes.is_empty() {
        let _ = writeln!(
            out,
            "\nunmodelled instructions unknown addresses depend on:"
        );
        let mut ops: Vec<(&String, &u64)> = c.opcodes.iter().collect();
        ops.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (op, n) in ops.into_iter().take(12) {
            let _ = writeln!(out, "  {op:<28} {}", thousands(*n));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::ColorChoice;

    #[test]
    fn coverage_tables_show_patterns_and_causes() {
        use warpscope::analysis::coverage::{Coverage, UnknownCause};
        use warpscope::{Access, Pattern, Space};
        let mut c = Coverage {
            files: 1,
            ..Default::default()
        };
        for (pattern, cause) in [
            (Pattern::Coalesced, None),
            (Pattern::Unknown, Some(UnknownCause::Call)),
        ] {
            c.add_access(&Access {
                space: Space::Global,
                pattern,
                unknown_cause: cause,
                ..Default::default()
            });
        }
        let t = super::render_coverage(&c);
        assert!(
            t.starts_with("coverage: 1 files, 0 kernels, 2 memory accesses"),
            "{t}"
        );
        assert!(t.contains("global             2          1"), "{t}");
        assert!(t.contains("50.0%"), "{t}");
        assert!(t.contains("call not followed            global 1"), "{t}");
        assert_eq!(super::thousands(1234567), "1,234,567");
    }

    #[test]
    fn auto_colour_needs_a_terminal_and_no_no_color() {
        // The only test of this binary that touches NO_COLOR.
        std::env::remove_var("NO_COLOR");
        assert!(ColorChoice::Auto.enabled(true));
        assert!(!ColorChoice::Auto.enabled(false));
        std::env::set_var("NO_COLOR", "1");
        assert!(!ColorChoice::Auto.enabled(true));
        assert!(ColorChoice::Always.enabled(false));
        std::env::set_var("NO_COLOR", "");
        assert!(
            ColorChoice::Auto.enabled(true),
            "an empty NO_COLOR does not count"
        );
        std::env::remove_var("NO_COLOR");
        assert!(!ColorChoice::Never.enabled(true));
    }
}
