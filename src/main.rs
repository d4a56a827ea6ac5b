//! The `warpscope` command line: a thin layer over the library.

mod cli;
mod lsp;

fn main() -> std::process::ExitCode {
    cli::main()
}
