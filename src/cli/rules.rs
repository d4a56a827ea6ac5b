//! `warpscope rules`: list every rule with its code, name, level and summary.

use super::common::{emit, fail};
use super::ExitCode;
use std::fmt::Write as _;
use warpscope::lints::rules;

/// Output of `warpscope rules`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum RulesFormat {
    /// An aligned table.
    #[default]
    Text,
    /// A JSON array of rules.
    Json,
}

/// Arguments of `warpscope rules`.
#[derive(clap::Args, Debug)]
pub struct RulesArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: RulesFormat,
}

/// Runs `warpscope rules`.
pub fn run(a: RulesArgs) -> ExitCode {
    match a.format {
        RulesFormat::Text => {
            let all: Vec<_> = rules().collect();
            let w = all.iter().map(|r| r.name.len()).max().unwrap_or(0);
            let mut out = String::new();
            for r in all {
                let _ = writeln!(
                    out,
                    "{:<6} {:<w$}  {:<5}  {}",
                    r.code,
                    r.name,
                    r.default_level.as_str(),
                    r.summary
                );
            }
            emit(&out)
        }
        RulesFormat::Json => {
            let all: Vec<_> = rules().collect();
            match serde_json::to_string_pretty(&all) {
                Ok(s) => emit(&format!("{s}\n")),
                Err(e) => fail(e),
            }
        }
    }
}
