use super::ast::Module;
use crate::diagnostic::Diagnostic;

/// Parses a PTX module. Never fails: returns the module and its diagnostics.
pub fn parse(src: &str) -> (Module<'_>, Vec<Diagnostic>) {
    let _ = src;
    (Module::default(), Vec::new())
}
