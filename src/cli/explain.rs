//! `warpscope explain CODE|NAME`: print a rule's documentation.

use super::ExitCode;
use warpscope::lints::find_rule;

/// Arguments of `warpscope explain`.
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// A rule's code (`W101`) or name (`uncoalesced-access`).
    #[arg(value_name = "CODE|NAME")]
    pub rule: String,
}

/// Runs `warpscope explain`.
pub fn run(a: ExplainArgs) -> ExitCode {
    match find_rule(&a.rule) {
        Some(r) => {
            let mut out = format!(
                "# {} {} (default: {})\n\n{}",
                r.code,
                r.name,
                r.default_level.as_str(),
                r.explanation
            );
            if !out.ends_with('\n') {
                out.push('\n');
            }
            super::common::emit(&out)
        }
        None => {
            eprintln!(
                "error: unknown rule `{}` (`warpscope rules` lists them)",
                a.rule
            );
            ExitCode::from(2)
        }
    }
}
