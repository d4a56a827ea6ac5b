//! Coverage: how many memory accesses got each pattern, and why the
//! `unknown` ones stayed unknown.
//!
//! # Why an access is unknown
//!
//! An access is `unknown` when its lane addresses could not be resolved
//! (the dataflow's value is `Varying` without data, or a range with no
//! loaded data in it), when no warp reaches it under the launch facts
//! (`never executed`), or when it is a tensor-core operand read through a
//! matrix descriptor (no lane addresses at all). For the unresolved ones,
//! [`UnknownCause`] names what the address **depends on** that the domain
//! cannot follow, found on the SSA form without re-running the dataflow:
//! each SSA value gets the set of *source kinds* it is computed from
//! (transitively, through operands and phi arguments; the guard of a guarded
//! write is control, not data, and is left out):
//!
//! - a call the front end did not follow (its results are unknown);
//! - an instruction the lowering does not model (`OpKind::Other`:
//!   approximate float instructions, 16-bit float arithmetic, texture
//!   results, …), with its mnemonic;
//! - a special register the analysis does not model (`%clock`, `%smid`…
//!   are uniform and fine; this is the possibly lane-varying rest);
//! - a phi at a loop header (a loop-carried value whose lane part changes
//!   from one iteration to the next, which the join cannot express);
//! - a phi at another join (two lane patterns merged);
//! - a loaded value;
//! - a division by a value not known before the launch: `div`/`rem` by a
//!   register, or `mul.hi` with no immediate operand (the magic-number
//!   division of CUTLASS's and cuDNN's `FastDivmod`, whose multiplier and
//!   shift are kernel parameters).
//!
//! The cause reported is the first of these kinds, in that order, found in
//! the address's backward slice; with none of them the address is made of
//! modelled arithmetic that the domain cannot express exactly
//! (`Arithmetic`: a product of two lane-varying values, a float
//! instruction on a value known only symbolically, …). The sets are computed once per kernel over the strongly
//! connected components of the SSA operand graph (Tarjan, petgraph), in
//! reverse topological order, so the cost is linear in the SSA values.
//!
//! # Soundness and limits
//!
//! The cause is a dependence, not a proof of blame: an address that depends
//! on a followed-but-harmless loop phi *and* on an unmodelled instruction is
//! blamed on the instruction. It is a guide to what to model next, and to
//! what a user can change; the figures of the access do not depend on it.
//!
//! # The tally
//!
//! [`Coverage`] counts accesses by space and pattern, and the unknown ones
//! by cause, over any number of kernels and files: what `warpscope check
//! --coverage` prints for a corpus.

use super::model::{Access, KernelAnalysis, Pattern};
use crate::cfg::Cfg;
use crate::ir::alu::{AluOp, MulMode};
use crate::ir::ssa::{Ssa, ValueDef, ValueId};
use crate::ir::{Function, OpId, OpKind, Special, Src};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// Why an access's pattern is `unknown`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnknownCause {
    /// No warp reaches the instruction under the launch facts.
    NeverExecuted,
    /// A `wgmma` operand: read by the tensor cores through a matrix
    /// descriptor, with no lane addresses.
    TensorOperand,
    /// The address depends on the results of a call that was not followed.
    Call,
    /// The address depends on an instruction the analysis does not model.
    Opcode(String),
    /// The address depends on a special register the analysis does not model.
    SpecialRegister,
    /// The address depends on a value carried around a loop whose lane part
    /// changes between iterations.
    LoopCarried,
    /// The address depends on two lane patterns merged at a branch join.
    Join,
    /// The address depends on a loaded value.
    LoadedValue,
    /// The lanes differ within known bounds, not from loaded data.
    InRange,
    /// A lane-varying value divided by a value not known before the launch
    /// (`div`/`rem` by a register, a `mul.hi` by a run-time magic number).
    RuntimeDivision,
    /// Modelled arithmetic the domain cannot express exactly (a product of
    /// two lane-varying values, …).
    Arithmetic,
}

impl UnknownCause {
    /// A short name for tables (`opcode not modelled`, `call`, …).
    pub fn category(&self) -> &'static str {
        match self {
            UnknownCause::NeverExecuted => "never executed",
            UnknownCause::TensorOperand => "tensor-core operand",
            UnknownCause::Call => "call not followed",
            UnknownCause::Opcode(_) => "opcode not modelled",
            UnknownCause::SpecialRegister => "special register",
            UnknownCause::LoopCarried => "loop-carried value",
            UnknownCause::Join => "branch join",
            UnknownCause::LoadedValue => "loaded value",
            UnknownCause::InRange => "lane-varying within bounds",
            UnknownCause::RuntimeDivision => "division by a run-time value",
            UnknownCause::Arithmetic => "arithmetic not expressible",
        }
    }
}

/// In JSON: the category, and the opcode after a colon
/// (`"opcode not modelled: sqrt.rn.f32"`).
impl Serialize for UnknownCause {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            UnknownCause::Opcode(m) => s.serialize_str(&format!("{}: {m}", self.category())),
            _ => s.serialize_str(self.category()),
        }
    }
}

impl fmt::Display for UnknownCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnknownCause::NeverExecuted => f.write_str("no warp reaches it under the launch facts"),
            UnknownCause::TensorOperand => {
                f.write_str("read by the tensor cores through a matrix descriptor")
            }
            UnknownCause::Call => {
                f.write_str("the address depends on a call that was not followed")
            }
            UnknownCause::Opcode(m) => {
                write!(
                    f,
                    "the address depends on `{m}`, which the analysis does not model"
                )
            }
            UnknownCause::SpecialRegister => {
                f.write_str("the address depends on a special register the analysis does not model")
            }
            UnknownCause::LoopCarried => f.write_str(
                "the address depends on a loop-carried value whose lanes change between iterations",
            ),
            UnknownCause::Join => f.write_str(
                "the address depends on different lane patterns merged at a branch join",
            ),
            UnknownCause::LoadedValue => f.write_str("the address depends on a loaded value"),
            UnknownCause::InRange => {
                f.write_str("the lanes differ within known bounds (not from loaded data)")
            }
            UnknownCause::RuntimeDivision => f.write_str(
                "the address divides a lane-varying index by a value not known before the launch \
                 (a run-time divisor or magic number; `--param` values resolve it)",
            ),
            UnknownCause::Arithmetic => f.write_str(
                "the address is computed by arithmetic the domain cannot express exactly",
            ),
        }
    }
}

/// Source kinds, as bits, in the order of blame.
const CALL: u8 = 1;
const OPCODE: u8 = 2;
const SPECIAL: u8 = 4;
const LOOP: u8 = 8;
const JOIN: u8 = 16;
const LOAD: u8 = 32;
const DIV: u8 = 64;

/// The source kinds of every SSA value of a function (see the module
/// essay), with one unmodelled op per value to name.
pub(crate) struct Dependences {
    kinds: Vec<u8>,
    opcode: Vec<Option<OpId>>,
}

impl Dependences {
    /// Computes the kinds of every value of `ssa`.
    pub(crate) fn build(ir: &Function<'_>, cfg: &Cfg, ssa: &Ssa) -> Dependences {
        use petgraph::graph::DiGraph;
        let n = ssa.values().len();
        let mut own = vec![0u8; n];
        let mut opcode: Vec<Option<OpId>> = vec![None; n];
        let mut g: DiGraph<(), ()> = DiGraph::with_capacity(n, n);
        for _ in 0..n {
            g.add_node(());
        }
        for (i, v) in ssa.values().iter().enumerate() {
            let vid = ValueId(i as u32);
            match v.def {
                ValueDef::Entry => {}
                ValueDef::Op { op, merges } => {
                    let o = &ir.ops[op.0 as usize];
                    own[i] = match &o.kind {
                        OpKind::Call { .. } => CALL,
                        OpKind::Other { .. } => {
                            opcode[i] = Some(op);
                            OPCODE
                        }
                        OpKind::Mem { .. } => LOAD,
                        OpKind::Alu { alu, srcs, .. } if runtime_division(alu.op, srcs) => DIV,
                        OpKind::Alu { srcs, .. } | OpKind::PredLogic { srcs, .. }
                            if srcs
                                .iter()
                                .any(|s| matches!(s, Src::Special(Special::Other))) =>
                        {
                            SPECIAL
                        }
                        _ => 0,
                    };
                    let guard = o.guard.map(|(r, _)| r);
                    let mut skipped_guard = false;
                    for &(r, u) in ssa.uses(op) {
                        // The guard is read first: control, not data.
                        if Some(r) == guard && !skipped_guard {
                            skipped_guard = true;
                            continue;
                        }
                        g.add_edge(vid.into_node(), u.into_node(), ());
                    }
                    if let Some(m) = merges {
                        g.add_edge(vid.into_node(), m.into_node(), ());
                    }
                }
                ValueDef::Phi(p) => {
                    let block = ssa.phi(p).block;
                    let header = cfg
                        .loop_of(block)
                        .is_some_and(|l| cfg.loop_(l).header == block);
                    own[i] = if header { LOOP } else { JOIN };
                    for a in ssa.phi_args(p) {
                        g.add_edge(vid.into_node(), a.value.into_node(), ());
                    }
                }
            }
        }
        // Postorder of the SCCs: operands before their users.
        let mut kinds = own;
        for scc in petgraph::algo::tarjan_scc(&g) {
            let mut k = 0u8;
            let mut name = None;
            for &node in &scc {
                k |= kinds[node.index()];
                name = name.or(opcode[node.index()]);
                for o in g.neighbors(node) {
                    k |= kinds[o.index()];
                    name = name.or(opcode[o.index()]);
                }
            }
            for &node in &scc {
                kinds[node.index()] = k;
                opcode[node.index()] = name;
            }
        }
        Dependences { kinds, opcode }
    }

    /// The cause of an unresolved address whose value is `v`.
    pub(crate) fn cause(&self, ir: &Function<'_>, v: ValueId) -> UnknownCause {
        let k = self.kinds[v.index()];
        if k & CALL != 0 {
            UnknownCause::Call
        } else if k & OPCODE != 0 {
            let name = self.opcode[v.index()]
                .and_then(|op| ir.mnemonics.get(op.0 as usize))
                .map(|m| m.to_string())
                .unwrap_or_default();
            UnknownCause::Opcode(name)
        } else if k & SPECIAL != 0 {
            UnknownCause::SpecialRegister
        } else if k & LOOP != 0 {
            UnknownCause::LoopCarried
        } else if k & JOIN != 0 {
            UnknownCause::Join
        } else if k & LOAD != 0 {
            UnknownCause::LoadedValue
        } else if k & DIV != 0 {
            UnknownCause::RuntimeDivision
        } else {
            UnknownCause::Arithmetic
        }
    }
}

/// A division whose divisor is not an immediate: `div`/`rem` by a register,
/// or a `mul.hi`/`mad.hi` (the multiply of a magic-number division) with no
/// immediate factor.
fn runtime_division(op: AluOp, srcs: &[Src]) -> bool {
    let imm = |s: Option<&Src>| matches!(s, Some(Src::Imm(_)));
    match op {
        AluOp::Div | AluOp::Rem => !imm(srcs.get(1)),
        AluOp::Mul(MulMode::Hi) | AluOp::Mad(MulMode::Hi) => {
            !imm(srcs.first()) && !imm(srcs.get(1))
        }
        _ => false,
    }
}

/// A `ValueId` as a petgraph node index.
trait IntoNode {
    fn into_node(self) -> petgraph::graph::NodeIndex;
}

impl IntoNode for ValueId {
    fn into_node(self) -> petgraph::graph::NodeIndex {
        petgraph::graph::NodeIndex::new(self.index())
    }
}

/// The tally's category for an `unknown` access that carries no cause (an
/// access built by hand, or an address that is not a register).
pub const UNATTRIBUTED: &str = "no cause recorded";

/// Counts of accesses by space and pattern, and of unknown ones by cause.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Coverage {
    /// Files counted.
    pub files: u64,
    /// Kernels counted.
    pub kernels: u64,
    /// Accesses by space, then pattern.
    pub patterns: BTreeMap<String, BTreeMap<String, u64>>,
    /// Unknown accesses by space, then cause category.
    pub unknown: BTreeMap<String, BTreeMap<String, u64>>,
    /// Unmodelled opcodes that unknown addresses depend on, with counts.
    pub opcodes: BTreeMap<String, u64>,
}

impl Coverage {
    /// Adds one kernel's accesses.
    pub fn add_kernel(&mut self, k: &KernelAnalysis) {
        self.kernels += 1;
        for a in &k.accesses {
            self.add_access(a);
        }
    }

    /// Adds one access.
    pub fn add_access(&mut self, a: &Access) {
        let space = a.space.as_str().to_string();
        *self
            .patterns
            .entry(space.clone())
            .or_default()
            .entry(a.pattern.as_str().to_string())
            .or_default() += 1;
        if a.pattern == Pattern::Unknown {
            if let Some(UnknownCause::Opcode(m)) = &a.unknown_cause {
                *self.opcodes.entry(m.clone()).or_default() += 1;
            }
            let category = a
                .unknown_cause
                .as_ref()
                .map_or(UNATTRIBUTED, UnknownCause::category);
            *self
                .unknown
                .entry(space)
                .or_default()
                .entry(category.to_string())
                .or_default() += 1;
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, o: &Coverage) {
        self.files += o.files;
        self.kernels += o.kernels;
        for (s, m) in &o.patterns {
            let e = self.patterns.entry(s.clone()).or_default();
            for (p, n) in m {
                *e.entry(p.clone()).or_default() += n;
            }
        }
        for (s, m) in &o.unknown {
            let e = self.unknown.entry(s.clone()).or_default();
            for (p, n) in m {
                *e.entry(p.clone()).or_default() += n;
            }
        }
        for (p, n) in &o.opcodes {
            *self.opcodes.entry(p.clone()).or_default() += n;
        }
    }

    /// Accesses in `space`.
    pub fn total(&self, space: &str) -> u64 {
        self.patterns.get(space).map_or(0, |m| m.values().sum())
    }

    /// Unknown accesses in `space`.
    pub fn unknown_in(&self, space: &str) -> u64 {
        self.patterns
            .get(space)
            .and_then(|m| m.get("unknown"))
            .copied()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::model::Space;
    use crate::analysis::Options;
    use crate::pipeline::analyze;

    fn causes(body: &str) -> Vec<Option<UnknownCause>> {
        let text = format!(
            ".version 8.5\n.target sm_90\n.address_size 64\n\
             .visible .entry k(.param .u64 k_p, .param .u32 k_n)\n.maxntid 128, 1, 1\n{{\n\
             .reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<4>;\n\
             ld.param.u64 %rd1, [k_p];\nld.param.u32 %r9, [k_n];\n\
             cvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n{body}\nret;\n}}\n"
        );
        // Nothing uses the loads' results: `.volatile` keeps them (ptxas
        // deletes unused plain loads, `memops::load_use`).
        let text = text.replace("ld.global.", "ld.volatile.global.");
        let file = crate::source::SourceFile::new("t.ptx", text).unwrap();
        let a = analyze(&file, &Options::default());
        a.kernels[0]
            .accesses
            .iter()
            .map(|x| x.unknown_cause.clone())
            .collect()
    }

    #[test]
    fn unresolved_addresses_name_what_they_depend_on() {
        // tid / n, n unknown: a run-time divisor
        let c = causes(
            "div.u32 %r2, %r1, %r9;\nmul.wide.s32 %rd3, %r2, 4;\nadd.s64 %rd4, %rd2, %rd3;\n\
             ld.global.u32 %r3, [%rd4];",
        );
        assert_eq!(c, vec![Some(UnknownCause::RuntimeDivision)]);
        // FastDivmod: (tid * magic) >> 32 >> shift, magic and shift parameters
        let c = causes(
            "mul.hi.u32 %r2, %r1, %r9;\nshr.u32 %r3, %r2, %r9;\nmul.wide.u32 %rd3, %r3, 4;\n\
             add.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r5, [%rd4];",
        );
        assert_eq!(c, vec![Some(UnknownCause::RuntimeDivision)]);
        // tid << n, n unknown: arithmetic the domain cannot express, no division
        let c = causes(
            "shl.b32 %r2, %r1, %r9;\nmul.wide.u32 %rd3, %r2, 4;\nadd.s64 %rd4, %rd2, %rd3;\n\
             ld.global.u32 %r5, [%rd4];",
        );
        assert_eq!(c, vec![Some(UnknownCause::Arithmetic)]);
        // an index whose lane part doubles every iteration
        let c = causes(
            "mov.u32 %r2, %r1;\nmov.u32 %r4, 0;\nLOOP:\nmul.wide.u32 %rd3, %r2, 4;\n\
             add.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r3, [%rd4];\nshl.b32 %r2, %r2, 1;\n\
             add.s32 %r4, %r4, 1;\nsetp.lt.u32 %p1, %r4, %r9;\n@%p1 bra LOOP;",
        );
        assert_eq!(c, vec![Some(UnknownCause::LoopCarried)]);
        // an index made with an approximate float instruction
        let c = causes(
            "cvt.rn.f32.u32 %f1, %r1;\nsqrt.approx.f32 %f2, %f1;\ncvt.rzi.s32.f32 %r2, %f2;\n\
             mul.wide.s32 %rd3, %r2, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r3, [%rd4];",
        );
        assert!(
            matches!(&c[..], [Some(UnknownCause::Opcode(m))] if m.starts_with("sqrt.approx")),
            "{c:?}"
        );
        // the IEEE square root of exact lanes is exact: resolved, no cause
        let c = causes(
            "cvt.rn.f32.u32 %f1, %r1;\nsqrt.rn.f32 %f2, %f1;\ncvt.rzi.s32.f32 %r2, %f2;\n\
             mul.wide.s32 %rd3, %r2, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r3, [%rd4];",
        );
        assert_eq!(c, vec![None]);
        // on a value the domain knows only symbolically (tid + n), float
        // instructions are modelled arithmetic it cannot express
        let c = causes(
            "add.s32 %r4, %r1, %r9;\ncvt.rn.f32.u32 %f1, %r4;\nsqrt.rn.f32 %f2, %f1;\n\
             cvt.rzi.s32.f32 %r2, %f2;\nmul.wide.s32 %rd3, %r2, 4;\nadd.s64 %rd4, %rd2, %rd3;\n\
             ld.global.u32 %r3, [%rd4];",
        );
        assert_eq!(c, vec![Some(UnknownCause::Arithmetic)]);
        // a coalesced access has no cause
        let c = causes(
            "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r3, [%rd4];",
        );
        assert_eq!(c, vec![None]);
    }

    #[test]
    fn tallies_count_patterns_and_causes() {
        let mut t = Coverage::default();
        let a = Access {
            space: Space::Global,
            pattern: Pattern::Unknown,
            unknown_cause: Some(UnknownCause::Opcode("sqrt.rn.f32".into())),
            ..Default::default()
        };
        let b = Access {
            space: Space::Global,
            pattern: Pattern::Coalesced,
            ..Default::default()
        };
        t.add_access(&a);
        t.add_access(&b);
        let mut u = Coverage::default();
        u.merge(&t);
        u.merge(&t);
        assert_eq!(u.total("global"), 4);
        assert_eq!(u.unknown_in("global"), 2);
        assert_eq!(u.unknown["global"]["opcode not modelled"], 2);
        assert_eq!(u.opcodes["sqrt.rn.f32"], 2);
    }
}
