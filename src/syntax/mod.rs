//! The PTX front end: a recovering nom parser producing a span-carrying
//! syntax tree ([`ast`]) and diagnostics.

pub mod ast;
pub mod opcodes;
mod parser;
pub mod stats;

pub use parser::{parse, parse_file};
