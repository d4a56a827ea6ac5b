//! `warpscope report`: the per-kernel memory report of PTX files.
//!
//! A thin layer: read each input, [`warpscope::analyze`] it, add it
//! to a [`Report`] and print the report in the chosen format on stdout.
//! Exit status: 0 when every file was read (front-end diagnostics are part of
//! the report, not a failure), 2 when an input could not be read.

use super::common::{expand_paths, read_inputs, LaunchArgs};
use std::io::Write;
use std::process::ExitCode;
use warpscope::analysis::Options;
use warpscope::report::{render_json, render_markdown, render_text, Report};

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

/// Arguments of `warpscope report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// PTX files, directories (searched for *.ptx) or `-` for stdin.
    #[arg(required = true)]
    pub paths: Vec<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Launch facts and analysis options.
    #[command(flatten)]
    pub launch: LaunchArgs,
}

/// The analysis options the command line asks for.
pub fn options(launch: &LaunchArgs) -> Options {
    let defaults = Options::default();
    Options {
        arch: launch.arch.map_or(defaults.arch, |a| a.model),
        launch: launch.launch(),
        kernels: Vec::new(),
        kernel_filter: launch.kernel.clone(),
        pointer_align: launch.pointer_align.unwrap_or(defaults.pointer_align),
    }
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
    let opts = options(&args.launch);
    let mut report = Report::new();
    let sm = args.launch.arch.and_then(|x| x.sm);
    for path in &paths {
        let mut notes = Vec::new();
        let read = read_inputs(path, sm, &mut notes);
        for n in notes {
            eprintln!("note: {n}");
        }
        let inputs = match read {
            Ok(i) => i,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        for input in inputs {
            let analysis = warpscope::analyze(&input.file, &opts);
            report.add(&input.file, &analysis);
        }
    }
    let out = match args.format {
        ReportFormat::Text => render_text(&report),
        ReportFormat::Markdown => render_markdown(&report),
        ReportFormat::Json => render_json(&report),
    };
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        // A closed pipe (`warpscope report ... | head`) is not an error.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: writing the report: {e}");
            ExitCode::from(2)
        }
        _ => ExitCode::SUCCESS,
    }
}
