//! `warpscope lsp`: run the language server over stdin/stdout.
use super::ExitCode;

/// Arguments of `warpscope lsp`.
#[derive(clap::Args, Debug)]
pub struct LspArgs {
    /// Accepted for editors that pass it (VS Code's language client does);
    /// stdio is the only transport.
    #[arg(long)]
    pub stdio: bool,
}

/// Serves until the client sends `exit`.
pub fn run(_a: LspArgs) -> ExitCode {
    match crate::lsp::run_stdio() {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(e) => {
            eprintln!("warpscope lsp: {e}");
            ExitCode::from(2)
        }
    }
}
