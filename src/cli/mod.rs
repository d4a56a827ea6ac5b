//! Command-line parsing and dispatch. Each subcommand lives in its own file.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

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
    /// Run the language server (LSP over stdin/stdout) for editors.
    Lsp(lsp::LspArgs),
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Parse(a) => parse::run(a),
        Command::Cfg(a) => cfg::run(a),
        Command::Check(a) => check::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Rules(a) => rules::run(a),
        Command::Report(a) => report::run(a),
        Command::Lsp(a) => lsp::run(a),
    }
}

mod binary_input;
mod cfg;
mod check;
pub mod common;
mod explain;
mod lsp;
mod parse;
mod report;
mod rules;
