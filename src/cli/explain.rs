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
            println!(
                "# {} {} (default: {})\n",
                r.code,
                r.name,
                r.default_level.as_str()
            );
            print!("{}", r.explanation);
            if !r.explanation.ends_with('\n') {
                println!();
            }
            ExitCode::SUCCESS
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
