//! The PTX front end: a recovering nom parser producing a span-carrying
//! syntax tree ([`ast`]) and diagnostics.

pub mod ast;
mod parser;

pub use parser::parse;
