//! `warpscope report`: the per-kernel memory report of PTX files.
//!
//! A thin layer: per input, the configuration in force (the same
//! [`warpscope::config::Resolver`] as `check`, so `warpscope.toml`'s launch
//! facts apply here too), Triton metadata beside the PTX as launch facts,
//! then [`warpscope::pipeline::analyze_each`], each kernel's report made in
//! the worker that analysed it (its analysis dropped there), rendered by a
//! [`ReportEmitter`] and printed as soon as the file and those before it are
//! done ([`super::stream`]).
//! Exit status: 0 when every file was read (front-end diagnostics are part of
//! the report, not a failure), 2 when an input or a configuration could not
//! be read.

use super::common::{expand_paths, input_dir, inputs_of, triton_metadata, ConfigArgs, LaunchArgs};
use super::progress::Progress;
use super::ExitCode;
use std::io::Write;
use warpscope::analysis::Options;
use warpscope::config::{ResolveError, Resolver};
use warpscope::report::{DiagnosticLine, FileReport, KernelReport, ReportEmitter};

/// Output format of `warpscope report`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReportFormat {
    /// Aligned columns.
    #[default]
    Text,
    /// GitHub-flavoured Markdown tables.
    Markdown,
    /// The report as JSON (layout version 1).
    Json,
}

impl From<ReportFormat> for warpscope::report::ReportFormat {
    fn from(f: ReportFormat) -> Self {
        match f {
            ReportFormat::Text => warpscope::report::ReportFormat::Text,
            ReportFormat::Markdown => warpscope::report::ReportFormat::Markdown,
            ReportFormat::Json => warpscope::report::ReportFormat::Json,
        }
    }
}

/// Arguments of `warpscope report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// PTX files, SASS listings, binaries (cubin, fatbin, .so, executable) or
    /// directories (searched for *.ptx, *.sass, *.cubin, *.fatbin); `-` for stdin.
    #[arg(required = true)]
    pub paths: Vec<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
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

enum Stop {
    Input(String),
    Output(std::io::Error),
}

/// Runs `warpscope report`.
pub fn run(args: ReportArgs) -> ExitCode {
    let paths = match expand_paths(&args.paths) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut resolver = Resolver::new(args.config.source(), args.launch.overrides());
    let mut emitter = ReportEmitter::new(args.format.into());
    let progress = Progress::new(paths.len(), args.quiet);
    let mut stdout = std::io::stdout().lock();
    let mut input_failed = false;
    let outcome = super::stream::ordered(
        &paths,
        |path| -> Result<Options, Stop> {
            let mut options = match resolver.for_dir(&input_dir(path)) {
                Ok(r) => r.config.options,
                Err(ResolveError::File(e)) => return Err(Stop::Input(e.to_string())),
                Err(ResolveError::Override(e)) => return Err(Stop::Input(e)),
            };
            if let Some(meta) = triton_metadata(path) {
                meta.apply(&mut options, args.launch.arch.is_none());
            }
            Ok(options)
        },
        |path, options| {
            let mut done = Vec::new();
            for input in inputs_of(path, args.launch.arch.and_then(|x| x.sm))? {
                // Each kernel's report is made in the worker that analysed
                // it, and its analysis dropped there: the file's analyses
                // are never all alive (1.1 GB on the largest cuBLAS file).
                let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let file = &input.file;
                    let (kernels, diagnostics) =
                        warpscope::pipeline::analyze_each(file, &options, |k| {
                            KernelReport::new(&k)
                        });
                    FileReport {
                        path: file.name().to_string(),
                        diagnostics: diagnostics
                            .iter()
                            .map(|d| DiagnosticLine::new(file, d))
                            .collect(),
                        kernels,
                    }
                }))
                .map_err(|_| format!("internal error while analysing {}", input.display))?;
                done.push(report);
            }
            Ok::<_, String>(done)
        },
        |path, done| {
            // An input that cannot be read is reported and the others still
            // analysed; the exit code is 2.
            let done = match done {
                Ok(d) => d,
                Err(e) => {
                    progress.suspend(|| eprintln!("error: {e}"));
                    input_failed = true;
                    progress.inc(&path.display().to_string());
                    return Ok(());
                }
            };
            for report in done {
                let text = emitter.file_report(report);
                progress
                    .suspend(|| {
                        stdout
                            .write_all(text.as_bytes())
                            .and_then(|()| stdout.flush())
                    })
                    .map_err(Stop::Output)?;
            }
            progress.inc(&path.display().to_string());
            Ok(())
        },
    );
    progress.finish();
    let result = match outcome {
        Ok(()) => {
            let text = emitter.finish();
            stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
        }
        Err(Stop::Input(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
        Err(Stop::Output(e)) => Err(e),
    };
    match result {
        // A closed pipe (`warpscope report ... | head`) is not an error.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: writing the report: {e}");
            ExitCode::from(2)
        }
        _ if input_failed => ExitCode::from(2),
        _ => ExitCode::SUCCESS,
    }
}
