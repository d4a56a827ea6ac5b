//! The `warpscope` command line: argument parsing and dispatch, one file per
//! subcommand. All IO of the command line happens here and in [`crate::lsp`].
//!
//! The command line lives in the library (feature `cli`, on by default) so
//! that two front doors share it: the `warpscope` binary (`src/main.rs`) and
//! the Python package's `warpscope` console script, which calls [`run`] with
//! `sys.argv` through the extension module. Everything else in the library
//! prints nothing; this module is the layer that does.

use clap::{Parser, Subcommand};
use std::ffi::OsString;

/// warpscope: how each warp of your PTX kernels touches memory.
#[derive(Parser, Debug)]
#[command(name = "warpscope", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse PTX files and report statistics and syntax diagnostics.
    Parse(parse::ParseArgs),
    /// Print the control-flow graph of each function.
    Cfg(cfg::CfgArgs),
    /// Lint PTX files: report uncoalesced, misaligned and other costly memory accesses.
    Check(check::CheckArgs),
    /// Print the documentation of a rule, by code or name.
    Explain(explain::ExplainArgs),
    /// List every rule with its code, name, default level and summary.
    Rules(rules::RulesArgs),
    /// Print each kernel's memory accesses with their cost, the launch's totals and a summary.
    Report(report::ReportArgs),
    /// Compare two versions (PTX files, directories or JSON reports): which accesses got worse or better.
    Diff(diff::DiffArgs),
    /// Run the language server (LSP over stdin/stdout) for editors.
    Lsp(lsp::LspArgs),
}

/// A process exit status. `std::process::ExitCode` cannot be read back as a
/// number, and the Python entry point must hand one to `sys.exit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExitCode(pub u8);

impl ExitCode {
    /// Exit status 0.
    pub const SUCCESS: ExitCode = ExitCode(0);

    /// The status `code`.
    pub fn from(code: u8) -> ExitCode {
        ExitCode(code)
    }
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(c: ExitCode) -> std::process::ExitCode {
        std::process::ExitCode::from(c.0)
    }
}

/// Runs the command line with these arguments (the first is the program
/// name, as in `std::env::args_os`) and returns the exit status: usage
/// errors print clap's message and give 2, `--help` and `--version` print and
/// give 0.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    match cli.command {
        Command::Parse(a) => parse::run(a),
        Command::Cfg(a) => cfg::run(a),
        Command::Check(a) => check::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Rules(a) => rules::run(a),
        Command::Report(a) => report::run(a),
        Command::Diff(a) => diff::run(a),
        Command::Lsp(a) => lsp::run(a),
    }
}

/// Entry point of the binary: [`run`] over the process's arguments.
pub fn main() -> ExitCode {
    run(std::env::args_os())
}

mod binary_input;
mod cfg;
mod check;
pub mod common;
mod diff;
mod explain;
mod lsp;
mod parse;
mod progress;
mod report;
mod rules;
mod stream;
