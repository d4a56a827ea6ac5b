//! The `warpscope` command line: a thin layer over the library.

mod cli;
mod lsp;

/// The syntax tree is many small allocations; mimalloc serves them faster
/// than the system allocator and keeps freed pages for the next file.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
