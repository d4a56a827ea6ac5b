//! Counts over a parsed module, for `warpscope parse --stats` and the corpus
//! snapshot.

use super::ast::{FunctionKind, Module, StmtKind};
use super::opcodes;
use std::collections::BTreeMap;

/// Counts of one or more parsed files.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ParseStats {
    /// Files parsed.
    pub files: u64,
    /// Bytes parsed.
    pub bytes: u64,
    /// `.entry` definitions.
    pub kernels: u64,
    /// `.func` definitions and all declarations.
    pub functions: u64,
    /// Statements in bodies (instructions, labels, declarations, directives).
    pub statements: u64,
    /// Instructions.
    pub instructions: u64,
    /// Instructions whose opcode is not in the PTX ISA table, by opcode.
    pub unknown_instructions: BTreeMap<String, u64>,
    /// Diagnostics.
    pub diagnostics: u64,
}

impl ParseStats {
    /// Counts one file.
    pub fn of_module(bytes: usize, module: &Module<'_>, diagnostics: usize) -> ParseStats {
        let mut s = ParseStats {
            files: 1,
            bytes: bytes as u64,
            diagnostics: diagnostics as u64,
            ..Default::default()
        };
        for f in &module.functions {
            match (f.kind, &f.body) {
                (FunctionKind::Entry, Some(_)) => s.kernels += 1,
                _ => s.functions += 1,
            }
            let Some(body) = &f.body else { continue };
            s.statements += body.statements.len() as u64;
            for st in &body.statements {
                if let StmtKind::Instruction(ins) = &st.kind {
                    s.instructions += 1;
                    let op = ins.opcode();
                    if !opcodes::is_known(op) {
                        *s.unknown_instructions.entry(op.to_string()).or_default() += 1;
                    }
                }
            }
        }
        s
    }

    /// Adds another file's counts.
    pub fn add(&mut self, o: &ParseStats) {
        self.files += o.files;
        self.bytes += o.bytes;
        self.kernels += o.kernels;
        self.functions += o.functions;
        self.statements += o.statements;
        self.instructions += o.instructions;
        self.diagnostics += o.diagnostics;
        for (k, v) in &o.unknown_instructions {
            *self.unknown_instructions.entry(k.clone()).or_default() += v;
        }
    }

    /// Unknown instructions in total.
    pub fn unknown_total(&self) -> u64 {
        self.unknown_instructions.values().sum()
    }
}
