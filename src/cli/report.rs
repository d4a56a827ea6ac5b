//! `warpscope report`: the per-kernel memory report of PTX files.
//!
//! A thin layer: per input, the configuration in force (the same
//! [`warpscope::config::Resolver`] as `check`, so `warpscope.toml`'s launch
//! facts apply here too), Triton metadata beside the PTX as launch facts,
//! then [`warpscope::pipeline::analyze_streamed`]: the file's diagnostics
//! first, then each kernel's report made and rendered
//! ([`KernelReport::render`]) in the worker that analysed it, its analysis
//! and report dropped there, and printed by a [`ReportEmitter`] as soon as
//! the kernels and files before it are done ([`super::stream`]): a large
//! file's rows are never all alive.
//! Exit status: 0 when every file was read (front-end diagnostics are part of
//! the report, not a failure), 2 when an input or a configuration could not
//! be read.

use super::common::{
    expand_paths, fail, input_dir, inputs_of, triton_metadata, ConfigArgs, LaunchArgs,
};
use super::progress::Progress;
use super::stream::Message;
use super::ExitCode;
use std::io::Write;
use warpscope::analysis::Options;
use warpscope::config::{ResolveError, Resolver};
use warpscope::pipeline::Streamed;
use warpscope::report::{DiagnosticLine, KernelReport, ReportEmitter};

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

/// What the work on one input hands over while it runs, in order.
enum Piece {
    /// The file's name and its diagnostics.
    Head(String, Vec<DiagnosticLine>),
    /// One kernel, rendered.
    Kernel(String),
    /// The file is done.
    End,
}

/// Runs `warpscope report`.
pub fn run(args: ReportArgs) -> ExitCode {
    let paths = match expand_paths(&args.paths) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let mut resolver = Resolver::new(args.config.source(), args.launch.overrides());
    let mut emitter = ReportEmitter::new(args.format.into());
    let progress = Progress::new(paths.len(), args.quiet);
    let mut stdout = std::io::stdout().lock();
    let mut input_failed = false;
    let format: warpscope::report::ReportFormat = args.format.into();
    let outcome = super::stream::ordered_parts(
        &paths,
        |path| std::fs::metadata(path).map_or(0, |m| m.len()),
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
        |path, options, part: &(dyn Fn(Piece) + Sync)| {
            for input in inputs_of(path, args.launch.arch.and_then(|x| x.sm))? {
                // Each kernel's report is made and rendered in the worker
                // that analysed it, its analysis and report dropped there,
                // and printed as soon as the kernels before it are: a
                // file's reports are never all alive (720 MB on the
                // largest cuBLAS file).
                let opened = std::sync::atomic::AtomicBool::new(false);
                let file = &input.file;
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    warpscope::pipeline::analyze_streamed(
                        file,
                        &options,
                        |k| KernelReport::new(&k).render(format),
                        |s| match s {
                            Streamed::Diagnostics(d) => {
                                opened.store(true, std::sync::atomic::Ordering::Relaxed);
                                part(Piece::Head(
                                    file.name().to_string(),
                                    d.iter().map(|d| DiagnosticLine::new(file, d)).collect(),
                                ));
                            }
                            Streamed::Kernel(text) => part(Piece::Kernel(text)),
                        },
                    );
                }));
                if opened.load(std::sync::atomic::Ordering::Relaxed) {
                    // Closed even after a panic, so that the output stays
                    // well formed.
                    part(Piece::End);
                }
                run.map_err(|_| format!("internal error while analysing {}", input.display))?;
            }
            Ok::<_, String>(())
        },
        |path, m| {
            let text = match m {
                Message::Part(Piece::Head(name, diagnostics)) => {
                    emitter.file_head(&name, &diagnostics)
                }
                Message::Part(Piece::Kernel(text)) => emitter.kernel(&text),
                Message::Part(Piece::End) => emitter.file_end(),
                Message::Done(done) => {
                    // An input that cannot be read is reported and the
                    // others still analysed; the exit code is 2.
                    if let Err(e) = done {
                        progress.suspend(|| eprintln!("error: {e}"));
                        input_failed = true;
                    }
                    progress.inc(&path.display().to_string());
                    return progress.suspend(|| stdout.flush()).map_err(Stop::Output);
                }
            };
            progress
                .suspend(|| stdout.write_all(text.as_bytes()))
                .map_err(Stop::Output)
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
        Err(Stop::Input(e)) => return fail(e),
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
