//! `warpscope check`: lint PTX files and report findings.
//!
//! Exit codes: 0 when no finding reaches error level, 1 when one does, 2 for
//! usage, IO, configuration or internal errors (each with a message on stderr).

use super::common::{expand_paths, read_inputs, Input, LaunchArgs};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use warpscope::config::{Config, ConfigError};
use warpscope::lints::{check_file, CheckResult, Level};
use warpscope::output::{
    render, render_config_error, FileReport, Format, Locations, RenderOptions,
};

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
    /// Use this configuration file instead of searching for warpscope.toml.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Ignore configuration files.
    #[arg(long)]
    pub no_config: bool,
    /// Launch facts and analysis options.
    #[command(flatten)]
    pub launch: LaunchArgs,
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
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

/// Runs `warpscope check`.
pub fn run(a: CheckArgs) -> ExitCode {
    let paths = match expand_paths(&a.paths) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    if paths.is_empty() {
        return fail("no *.ptx files found in the given paths");
    }
    let mut inputs: Vec<(PathBuf, Input)> = Vec::with_capacity(paths.len());
    let sm = a.launch.arch.and_then(|x| x.sm);
    for p in &paths {
        let mut notes = Vec::new();
        let read = read_inputs(p, sm, &mut notes);
        for n in notes {
            eprintln!("note: {n}");
        }
        match read {
            Ok(v) => inputs.extend(v.into_iter().map(|i| (p.clone(), i))),
            Err(e) => return fail(e),
        }
    }

    // One configuration per input, discovered from its directory upward.
    let explicit = match &a.config {
        Some(path) => match Config::from_file(path) {
            Ok(Some(c)) => Some(c),
            Ok(None) => return fail(format!("{}: no [tool.warpscope] table", path.display())),
            Err(e) => return config_fail(&e, a.color),
        },
        None => None,
    };
    let mut by_dir: HashMap<PathBuf, Config> = HashMap::new();
    let mut configs: Vec<Config> = Vec::with_capacity(inputs.len());
    for (path, _) in &inputs {
        let base = if let Some(c) = &explicit {
            c.clone()
        } else if a.no_config {
            Config::default()
        } else {
            let dir = input_dir(path);
            match by_dir.get(&dir) {
                Some(c) => c.clone(),
                None => match Config::discover(&dir) {
                    Ok(found) => {
                        let c = found.map(|(_, c)| c).unwrap_or_default();
                        by_dir.insert(dir, c.clone());
                        c
                    }
                    Err(e) => return config_fail(&e, a.color),
                },
            }
        };
        match apply_cli(base, &a) {
            Ok(c) => configs.push(c),
            Err(e) => return fail(e),
        }
    }

    // Analyse in parallel; collect in input order.
    let results: Vec<Result<CheckResult, String>> = inputs
        .par_iter()
        .zip(configs.par_iter())
        .map(|((_, input), config)| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                check_file(&input.file, config)
            }))
            .map_err(|_| format!("internal error while checking {}", input.display))
        })
        .collect();
    let mut checked = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Ok(r) => checked.push(r),
            Err(e) => return fail(e),
        }
    }

    let sources: Vec<BTreeMap<String, String>> = inputs
        .iter()
        .zip(&checked)
        .map(|((path, _), r)| read_cuda_sources(path, r))
        .collect();
    let reports: Vec<FileReport<'_>> = inputs
        .iter()
        .zip(&checked)
        .zip(&sources)
        .map(|(((_, input), result), sources)| FileReport {
            file: &input.file,
            result,
            sources,
        })
        .collect();
    let color = a.color.enabled(std::io::stdout().is_terminal());
    let strip_prefix = std::env::current_dir().ok().map(|d| {
        let mut p = d.display().to_string();
        if !p.ends_with('/') {
            p.push('/');
        }
        p
    });
    let opts = RenderOptions {
        color,
        locations: a.locations,
        strip_prefix,
    };
    let text = render(a.format, &reports, opts);
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush())
    {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return fail(format!("writing the output: {e}"));
        }
    }
    let errors = checked.iter().any(CheckResult::has_errors);
    if errors && !a.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The directory to search configuration from: the file's own, or the
/// current directory for stdin.
fn input_dir(path: &Path) -> PathBuf {
    if path.as_os_str() == "-" {
        return PathBuf::from(".");
    }
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Command-line options override the configuration file.
fn apply_cli(mut c: Config, a: &CheckArgs) -> Result<Config, String> {
    for (names, level) in [
        (&a.allow, Level::Allow),
        (&a.warn, Level::Warn),
        (&a.deny, Level::Deny),
    ] {
        for n in names {
            c.set_level(n, level)?;
        }
    }
    let l = &a.launch;
    if let Some(k) = &l.kernel {
        globset::Glob::new(k).map_err(|e| format!("--kernel: {e}"))?;
        c.options.kernel_filter = Some(k.clone());
    }
    let cli = l.launch();
    if cli.block.is_some() {
        c.options.launch.block = cli.block;
    }
    if cli.grid.is_some() {
        c.options.launch.grid = cli.grid;
    }
    c.options.launch.params.extend(cli.params);
    if let Some(arch) = l.arch {
        c.options.arch = arch.model;
    }
    if let Some(p) = l.pointer_align {
        if p == 0 || !p.is_power_of_two() {
            return Err(format!("--pointer-align must be a power of two, got {p}"));
        }
        c.options.pointer_align = p;
    }
    Ok(c)
}

/// Largest CUDA source quoted in snippets.
const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Reads a regular file of at most [`MAX_SOURCE_BYTES`]: a `.file` name is
/// input, and `/dev/zero` or a FIFO must not hang the check.
fn read_source(path: &Path) -> Option<Vec<u8>> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_SOURCE_BYTES {
        return None;
    }
    std::fs::read(path).ok()
}

/// Reads the CUDA files that the findings' `.loc` lines name: an absolute
/// name as is, a relative one next to the PTX file, then from the current
/// directory. Files that cannot be read are left out (the renderer names
/// them in a note instead of quoting them).
fn read_cuda_sources(ptx: &Path, r: &CheckResult) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for loc in r.cuda_locations.iter().flatten() {
        if out.contains_key(&loc.file) {
            continue;
        }
        let name = Path::new(&loc.file);
        let mut candidates = vec![];
        if name.is_absolute() {
            candidates.push(name.to_path_buf());
        } else {
            if ptx.as_os_str() != "-" {
                if let Some(dir) = ptx.parent() {
                    candidates.push(dir.join(name));
                }
            }
            candidates.push(name.to_path_buf());
        }
        if let Some(text) = candidates.iter().find_map(|c| read_source(c)) {
            out.insert(
                loc.file.clone(),
                String::from_utf8_lossy(&text).into_owned(),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::ColorChoice;

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
