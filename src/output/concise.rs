//! `concise`: one line per finding, `file:line:col: level[code] message`,
//! the shape editors' problem matchers expect.

use super::{place, FileReport, RenderOptions};
use crate::diagnostic::Severity;

pub(super) fn render_file(r: &FileReport<'_>, opts: &RenderOptions) -> String {
    let mut out = String::new();
    {
        for (i, d) in r.result.findings.iter().enumerate() {
            let at = place(r, i, opts);
            let level = d.severity.as_str();
            let level = if opts.color {
                let code = match d.severity {
                    Severity::Error => "1;31",
                    Severity::Warning => "1;33",
                    Severity::Note => "1;32",
                };
                format!("\x1b[{code}m{level}\x1b[0m")
            } else {
                level.to_string()
            };
            out.push_str(&format!(
                "{}:{}:{}: {}[{}] {}\n",
                at.path, at.start.line, at.start.column, level, d.code, d.message
            ));
        }
    }
    out
}
