//! The `warpscope` command line: a thin layer over the library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
