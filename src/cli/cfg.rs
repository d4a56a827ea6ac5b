//! `warpscope cfg`: prints the control-flow graph of each function.
//!
//! Exit codes: 0 printed, 1 no function matched `--kernel`, 2 the file could
//! not be read or the glob is invalid. Front-end diagnostics go to stderr and
//! do not change the exit code (the graph of what did parse is still printed).
use super::common::{fail, read_input};
use super::ExitCode;
use warpscope::cfg::Cfg;
use warpscope::diagnostic::Diagnostic;
use warpscope::ir::ssa::Ssa;
use warpscope::source::SourceFile;

/// Output format of `warpscope cfg`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CfgFormat {
    /// One paragraph per block, then the loops.
    #[default]
    Text,
    /// Graphviz `digraph`s (pipe into `dot -Tsvg`).
    Dot,
}

/// Arguments of `warpscope cfg`.
#[derive(clap::Args, Debug)]
pub struct CfgArgs {
    /// PTX file or SASS listing (`cuobjdump -sass`/`nvdisasm` output; `-`
    /// for stdin).
    pub file: std::path::PathBuf,
    /// Only functions whose mangled or demangled name matches this glob.
    #[arg(long, value_name = "GLOB")]
    pub kernel: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CfgFormat::Text)]
    pub format: CfgFormat,
    /// Print the SSA form instead: each block's phis and each instruction's
    /// values written and read (`v7:%r1`, a guarded write with the value it
    /// merges with).
    #[arg(long, conflicts_with = "format")]
    pub ssa: bool,
}

/// A `--kernel` glob, matched against the mangled name, the demangled name
/// and the demangled name without its parameter list.
pub struct NameFilter(Option<globset::GlobMatcher>);

impl NameFilter {
    /// Compiles the glob; `None` matches everything.
    pub fn new(glob: Option<&str>) -> Result<NameFilter, String> {
        match glob {
            None => Ok(NameFilter(None)),
            Some(g) => globset::GlobBuilder::new(g)
                .literal_separator(false)
                .build()
                .map(|g| NameFilter(Some(g.compile_matcher())))
                .map_err(|e| format!("invalid --kernel glob `{g}`: {e}")),
        }
    }

    /// True when `mangled` (or its demangled forms) matches.
    pub fn matches(&self, mangled: &str) -> bool {
        let Some(m) = &self.0 else { return true };
        if m.is_match(mangled) {
            return true;
        }
        let Ok(sym) = cpp_demangle::Symbol::new(mangled) else {
            return false;
        };
        let full = sym.demangle(&cpp_demangle::DemangleOptions::default()).ok();
        let short = sym
            .demangle(
                &cpp_demangle::DemangleOptions::new()
                    .no_params()
                    .no_return_type(),
            )
            .ok();
        full.iter().chain(short.iter()).any(|d| m.is_match(d))
    }
}

pub fn run(a: CfgArgs) -> ExitCode {
    let filter = match NameFilter::new(a.kernel.as_deref()) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let input = match read_input(&a.file) {
        Ok(i) => i,
        Err(e) => return fail(e),
    };
    let file = &input.file;
    let mut out = String::new();
    let mut matched = 0;
    let mut render = |ir: &warpscope::ir::Function<'_>| {
        if matched > 0 && (a.format == CfgFormat::Text || a.ssa) {
            out.push('\n');
        }
        matched += 1;
        let cfg = Cfg::build(ir);
        out.push_str(&match a.format {
            _ if a.ssa => Ssa::build(ir, &cfg).render_text(ir, &cfg, file),
            CfgFormat::Text => cfg.render_text(ir, file),
            CfgFormat::Dot => cfg.render_dot(ir, file),
        });
    };
    if warpscope::sass::is_sass_file(file) {
        // A SASS listing: each function's graph over the warp IR its
        // lowering gives (the analysis's view of the listing).
        let (listing, diags) = warpscope::sass::parse_file(file);
        if !diags.is_empty() {
            eprint!("{}", render_diagnostics(file, &diags));
        }
        for f in &listing.functions {
            if f.instructions.is_empty() || !filter.matches(f.name.text) {
                continue;
            }
            render(&warpscope::lower::sass::lower(f));
        }
    } else {
        let (module, mut diags) = warpscope::syntax::parse(file.text());
        let (_, sema_diags) = warpscope::sema::check_module(&module);
        diags.extend(sema_diags);
        if !diags.is_empty() {
            eprint!("{}", render_diagnostics(file, &diags));
        }
        for f in &module.functions {
            if f.body.is_none() || !filter.matches(f.name.text) {
                continue;
            }
            render(&warpscope::lower::ptx::lower_standalone(f));
        }
    }
    if matched == 0 {
        match &a.kernel {
            Some(g) => eprintln!(
                "error: no function with a body in {} matches `{g}`",
                input.display
            ),
            None => eprintln!("error: {} defines no function with a body", input.display),
        }
        return ExitCode::from(1);
    }
    super::common::emit(&out)
}

/// Renders diagnostics rustc-style, without colour.
fn render_diagnostics(file: &SourceFile, diags: &[Diagnostic]) -> String {
    use codespan_reporting::files::SimpleFile;
    use codespan_reporting::term::{self, termcolor::NoColor};
    let files = SimpleFile::new(file.name(), file.text());
    let mut buf = NoColor::new(Vec::new());
    let config = term::Config::default();
    for d in diags {
        let _ = term::emit(&mut buf, &config, &files, &d.to_codespan(()));
    }
    String::from_utf8_lossy(&buf.into_inner()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::NameFilter;

    #[test]
    fn kernel_glob_matches_mangled_and_demangled_names() {
        let all = NameFilter::new(None).unwrap();
        assert!(all.matches("_Z6kernelPf"));
        let f = NameFilter::new(Some("kernel")).unwrap();
        assert!(f.matches("_Z6kernelPf"), "demangled without params");
        assert!(!f.matches("_Z7kernel2Pf"));
        let f = NameFilter::new(Some("kernel(float*)")).unwrap();
        assert!(f.matches("_Z6kernelPf"), "full demangled");
        let f = NameFilter::new(Some("_Z6*")).unwrap();
        assert!(f.matches("_Z6kernelPf"), "mangled");
        let f = NameFilter::new(Some("gemm<*>")).unwrap();
        assert!(f.matches("_Z4gemmILi128EEvPf"));
        assert!(NameFilter::new(Some("[")).is_err());
        assert!(NameFilter::new(Some("triton_*"))
            .unwrap()
            .matches("triton_poi_fused_0"));
    }
}
