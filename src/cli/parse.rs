//! `warpscope parse`: run the front end (parser and name resolution) over PTX
//! files; print its diagnostics, or statistics with `--stats`.

use super::common::{expand_paths, fail, inputs_of};
use super::ExitCode;
use rayon::prelude::*;
use std::fmt::Write as _;
use warpscope::syntax::stats::ParseStats;

/// Arguments of `warpscope parse`.
#[derive(clap::Args, Debug)]
pub struct ParseArgs {
    /// PTX files, SASS listings (`cuobjdump -sass`/`nvdisasm` output), binaries
    /// (cubin, fatbin, object, .so, executable) or directories (searched
    /// recursively for *.ptx, *.sass, *.cubin, *.fatbin); `-` for stdin.
    #[arg(required = true)]
    pub paths: Vec<std::path::PathBuf>,
    /// Print statistics (files, MB, functions, statements, unknown instructions, diagnostics) instead of diagnostics.
    #[arg(long)]
    pub stats: bool,
    /// With --stats: print statistics as JSON.
    #[arg(long)]
    pub json: bool,
    /// Check syntax only (skip name resolution: undeclared registers, labels, symbols).
    #[arg(long)]
    pub syntax_only: bool,
    /// For binaries: which architecture's code (default: the newest in the file).
    #[arg(long, value_name = "sm_XX", value_parser = super::common::parse_arch_arg)]
    pub arch: Option<super::common::ArchArg>,
}

struct FileResult {
    stats: ParseStats,
    rendered: String,
}

pub fn run(a: ParseArgs) -> ExitCode {
    let files = match expand_paths(&a.paths) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let sm = a.arch.and_then(|x| x.sm);
    let results: Vec<Result<Vec<FileResult>, String>> = files
        .par_iter()
        .map(|p| {
            let inputs = inputs_of(p, sm)?;
            Ok(inputs.iter().map(|input| parse_one(input, &a)).collect())
        })
        .collect();
    let mut total = ParseStats::default();
    let mut failed = false;
    for r in results {
        match r {
            Ok(frs) => {
                for fr in frs {
                    total.add(&fr.stats);
                    match super::common::write_stdout(&fr.rendered) {
                        Ok(super::common::Written::All) => {}
                        Ok(super::common::Written::Closed) => return ExitCode::SUCCESS,
                        Err(e) => {
                            eprintln!("error: writing the output: {e}");
                            return ExitCode::from(2);
                        }
                    }
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                failed = true;
            }
        }
    }
    if a.stats {
        let mut out = String::new();
        if a.json {
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&total).unwrap_or_default()
            );
        } else {
            let _ = writeln!(out, "files:                {}", total.files);
            let _ = writeln!(
                out,
                "bytes:                {} ({:.2} MB)",
                total.bytes,
                total.bytes as f64 / 1e6
            );
            let _ = writeln!(out, "kernels:              {}", total.kernels);
            let _ = writeln!(out, "functions:            {}", total.functions);
            let _ = writeln!(out, "statements:           {}", total.statements);
            let _ = writeln!(out, "instructions:         {}", total.instructions);
            let _ = writeln!(out, "unknown instructions: {}", total.unknown_total());
            for (k, v) in &total.unknown_instructions {
                let _ = writeln!(out, "  {k}: {v}");
            }
            let _ = writeln!(out, "diagnostics:          {}", total.diagnostics);
            if total.tree_bytes > 0 {
                let _ = writeln!(
                    out,
                    "syntax tree:          {:.2} MB ({:.2}x the text)",
                    total.tree_bytes as f64 / 1e6,
                    total.tree_bytes as f64 / total.bytes.max(1) as f64
                );
            }
        }
        if super::common::emit(&out) != ExitCode::SUCCESS {
            return ExitCode::from(2);
        }
    }
    if failed {
        ExitCode::from(2)
    } else if total.diagnostics > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn parse_one(input: &super::common::Input, a: &ParseArgs) -> FileResult {
    let text = input.file.text();
    let (stats, diags) = if warpscope::sass::is_sass_file(&input.file) {
        let (listing, diags) = warpscope::sass::parse_file(&input.file);
        (
            warpscope::sass::stats(text.len(), &listing, diags.len()),
            diags,
        )
    } else {
        warpscope::front::parse_stats(&input.file, a.syntax_only)
    };
    let mut rendered = String::new();
    if !a.stats && !diags.is_empty() {
        rendered = warpscope::diagnostic::render_plain(&input.display, text, &diags);
    }
    FileResult { stats, rendered }
}
