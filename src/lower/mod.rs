//! Front ends' lowering into the warp IR ([`crate::ir`]).
//!
//! [`ptx`] lowers a PTX function (syntax tree + semantic tables) to an
//! [`ir::Function`](crate::ir::Function). A second front end (SASS) would
//! live beside it and produce the same IR; everything after this seam
//! (CFG, analysis, cost model, lints, reports) is front-end neutral.

mod module;
mod names;
pub mod ptx;
pub mod sass;

/// Demangles a C++ name with `cpp_demangle` (the name itself when it is not mangled).
pub fn demangle(name: &str) -> String {
    cpp_demangle::Symbol::new(name)
        .ok()
        .and_then(|s| s.demangle(&cpp_demangle::DemangleOptions::default()).ok())
        .unwrap_or_else(|| name.to_string())
}
