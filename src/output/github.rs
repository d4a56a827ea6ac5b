//! `github`: GitHub Actions workflow commands, one annotation per finding:
//! `::warning file=F,line=L,col=C,endLine=L,endColumn=C,title=T::message`.
//!
//! Escaping follows the runner's rules: in the message (data) `%`, `\r` and
//! `\n` become `%25`, `%0D`, `%0A`; in property values `:` and `,` also
//! become `%3A` and `%2C`.

use super::{long_message, place, FileReport, RenderOptions};
use crate::diagnostic::Severity;

/// Escapes the message part of a workflow command.
pub(crate) fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value of a workflow command.
pub(crate) fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub(super) fn render_file(r: &FileReport<'_>, opts: &RenderOptions) -> String {
    let mut out = String::new();
    {
        for (i, d) in r.result.findings.iter().enumerate() {
            let at = place(r, i, opts);
            let command = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Note => "notice",
            };
            let cuda = r.result.findings.location(i);
            out.push_str(&format!(
                "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
                escape_property(&at.path),
                at.start.line,
                at.start.column,
                at.end.line,
                at.end.column,
                escape_property(&format!("{} {}", d.code, d.name)),
                escape_data(&long_message(&d, cuda)),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_runner() {
        assert_eq!(escape_data("100% a\r\nb:c,d"), "100%25 a%0D%0Ab:c,d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
