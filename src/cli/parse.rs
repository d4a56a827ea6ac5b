//! `warpscope parse`.
use std::process::ExitCode;

/// Arguments of `warpscope parse`.
#[derive(clap::Args, Debug)]
pub struct ParseArgs {
    /// PTX files or directories.
    pub paths: Vec<std::path::PathBuf>,
}

pub fn run(_a: ParseArgs) -> ExitCode {
    ExitCode::SUCCESS
}
