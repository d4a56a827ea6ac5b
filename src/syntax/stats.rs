//! Counts over a parsed module, for `warpscope parse --stats` and the corpus
//! snapshot.

use super::ast::{
    Body, FunctionKind, InitKind, InitValue, Item, ItemKind, Module, Operand, OperandKind,
    SectionEntry, Statement, StmtKind, VarDecl,
};
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
    /// Bytes of the syntax tree: its nodes and the vectors and boxes they
    /// own, at their capacity (what was asked of the allocator, without its
    /// rounding); the text it borrows is not counted. 0 for SASS listings.
    pub tree_bytes: u64,
}

impl ParseStats {
    /// Counts one file.
    pub fn of_module(bytes: usize, module: &Module<'_>, diagnostics: usize) -> ParseStats {
        let mut s = ParseStats {
            files: 1,
            bytes: bytes as u64,
            diagnostics: diagnostics as u64,
            tree_bytes: tree_bytes(module) as u64,
            ..Default::default()
        };
        for f in &module.functions {
            match (f.kind, &f.body) {
                (FunctionKind::Entry, Some(_)) => s.kernels += 1,
                _ => s.functions += 1,
            }
            if let Some(body) = &f.body {
                s.add_body_counts(body);
            }
        }
        s
    }

    /// Adds the statements, instructions and tree bytes of a body (of a
    /// module from [`super::parse_lazy_with`], whose [`ParseStats::of_module`]
    /// counted its functions without their statements).
    pub fn add_body(&mut self, body: &Body<'_>) {
        self.add_body_counts(body);
        self.tree_bytes += body_bytes(body) as u64;
    }

    fn add_body_counts(&mut self, body: &Body<'_>) {
        self.statements += body.statements.len() as u64;
        for st in &body.statements {
            if let StmtKind::Instruction(ins) = &st.kind {
                self.instructions += 1;
                let op = ins.opcode();
                if !opcodes::is_known(op) {
                    *self.unknown_instructions.entry(op.to_string()).or_default() += 1;
                }
            }
        }
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
        self.tree_bytes += o.tree_bytes;
        for (k, v) in &o.unknown_instructions {
            *self.unknown_instructions.entry(k.clone()).or_default() += v;
        }
    }

    /// Unknown instructions in total.
    pub fn unknown_total(&self) -> u64 {
        self.unknown_instructions.values().sum()
    }
}

/// The bytes a module's tree holds (see [`ParseStats::tree_bytes`]).
pub fn tree_bytes(m: &Module<'_>) -> usize {
    use std::mem::size_of;
    let mut n = size_of::<Module<'_>>() + m.items.capacity() * size_of::<Item<'_>>();
    for item in &m.items {
        n += match &item.kind {
            ItemKind::Target(t) => t.capacity() * size_of::<super::ast::Ident<'_>>(),
            ItemKind::Section(s) => {
                s.entries.capacity() * size_of::<SectionEntry<'_>>()
                    + s.entries
                        .iter()
                        .map(|e| match e {
                            SectionEntry::Data { values, .. } => init_list(values),
                            SectionEntry::Label(_) => 0,
                        })
                        .sum::<usize>()
            }
            ItemKind::Var(v) => var_bytes(v),
            _ => 0,
        };
    }
    n += m.functions.capacity() * size_of::<super::ast::Function<'_>>();
    for f in &m.functions {
        n += f.linkage.capacity() * size_of::<super::ast::Linkage>()
            + f.returns.capacity() * size_of::<VarDecl<'_>>()
            + f.params.capacity() * size_of::<VarDecl<'_>>()
            + f.returns
                .iter()
                .chain(&f.params)
                .map(var_bytes)
                .sum::<usize>()
            + f.directives.capacity() * size_of::<super::ast::FuncDirective<'_>>()
            + f.directives
                .iter()
                .map(|d| d.values.capacity() * size_of::<u64>())
                .sum::<usize>();
        if let Some(body) = &f.body {
            n += body_bytes(body);
        }
    }
    n
}

/// The bytes a body's statements hold (part of [`tree_bytes`]).
pub fn body_bytes(body: &Body<'_>) -> usize {
    body.statements.capacity() * std::mem::size_of::<Statement<'_>>()
        + body.statements.iter().map(stmt_bytes).sum::<usize>()
}

fn stmt_bytes(st: &Statement<'_>) -> usize {
    use std::mem::size_of;
    match &st.kind {
        StmtKind::Instruction(ins) => {
            ins.guard
                .as_ref()
                .map_or(0, |_| size_of::<super::ast::Guard<'_>>())
                + operands_bytes(&ins.operands)
        }
        StmtKind::Var(v) => size_of::<VarDecl<'_>>() + var_bytes(v),
        StmtKind::Loc(l) => l
            .function_name
            .as_ref()
            .map_or(0, |_| size_of::<super::ast::Ident<'_>>()),
        StmtKind::BranchTargets { targets, .. } | StmtKind::CallTargets { targets, .. } => {
            targets.len() * size_of::<super::ast::Ident<'_>>()
        }
        StmtKind::CallPrototype(p) => {
            size_of::<super::ast::Prototype<'_>>()
                + (p.returns.capacity() + p.params.capacity()) * size_of::<VarDecl<'_>>()
                + p.returns
                    .iter()
                    .chain(&p.params)
                    .map(var_bytes)
                    .sum::<usize>()
        }
        _ => 0,
    }
}

fn operands_bytes(ops: &[Operand<'_>]) -> usize {
    std::mem::size_of_val(ops) + ops.iter().map(operand_heap).sum::<usize>()
}

fn operand_heap(o: &Operand<'_>) -> usize {
    let one = std::mem::size_of::<Operand<'_>>();
    match &o.kind {
        OperandKind::Address { base: Some(b), .. } => one + operand_heap(b),
        OperandKind::AddressList(v) | OperandKind::Vector(v) | OperandKind::List(v) => {
            operands_bytes(v)
        }
        OperandKind::Not(b) | OperandKind::Offset { base: b, .. } => one + operand_heap(b),
        OperandKind::PredPair(p) => operands_bytes(&p[..]),
        _ => 0,
    }
}

fn var_bytes(v: &VarDecl<'_>) -> usize {
    use std::mem::size_of;
    v.linkage.capacity() * size_of::<super::ast::Linkage>()
        + v.declarators.capacity() * size_of::<super::ast::Declarator<'_>>()
        + v.declarators
            .iter()
            .map(|d| {
                d.dims.capacity() * size_of::<Option<u64>>() + d.init.as_ref().map_or(0, init_heap)
            })
            .sum::<usize>()
}

#[allow(clippy::ptr_arg)] // the capacity counts
fn init_list(values: &Vec<InitValue<'_>>) -> usize {
    // `&Vec`, not a slice: the capacity counts.
    values.capacity() * std::mem::size_of::<InitValue<'_>>()
        + values.iter().map(init_heap).sum::<usize>()
}

fn init_heap(v: &InitValue<'_>) -> usize {
    let one = std::mem::size_of::<InitValue<'_>>();
    match &v.kind {
        InitKind::List(l) => init_list(l),
        InitKind::Mask { value, .. } | InitKind::Field { value, .. } => one + init_heap(value),
        _ => 0,
    }
}
