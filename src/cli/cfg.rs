//! `warpscope cfg`.
use std::process::ExitCode;

/// Arguments of `warpscope cfg`.
#[derive(clap::Args, Debug)]
pub struct CfgArgs {
    /// PTX file.
    pub file: std::path::PathBuf,
}

pub fn run(_a: CfgArgs) -> ExitCode {
    ExitCode::SUCCESS
}
