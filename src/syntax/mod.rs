//! The PTX front end: a recovering nom parser producing a span-carrying
//! syntax tree ([`ast`]) and diagnostics.

pub mod ast;
pub mod opcodes;
mod parser;
pub mod stats;

pub use parser::{
    parse, parse_body, parse_body_checked, parse_file, parse_file_lazy, parse_file_lazy_with,
    parse_file_skeleton, parse_lazy, parse_lazy_with, parse_skeleton,
};
