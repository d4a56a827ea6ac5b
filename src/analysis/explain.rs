//! What the analysis knows about one register at one point of a kernel, for
//! editor hovers: the dataflow of the block's first warp class, probed just
//! before the op, described in words.

use super::domain::{self, Value};
use super::driver::prepare;
use super::figures::describe_poly;
use super::model::Options;
use crate::ir::{Function, OpId};
use serde::Serialize;

/// What the analysis knows about one register at one point of a kernel (for
/// editor hovers): see [`explain_register`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegisterFacts {
    /// `uniform`, `exact per lane`, `symbolic stride`, `data-dependent`,
    /// `unknown`, `predicate`, or `undefined` (no definition reaches).
    pub kind: &'static str,
    /// The value: lane `lane` (0..31), uniform symbols (`ctaid.x`,
    /// `tid0.x` = the warp's first thread index, parameters by PTX name,
    /// `uN` = an opaque uniform value).
    pub value: String,
    /// Per-lane values when the whole value is a known constant per lane.
    pub lanes: Option<Vec<i64>>,
    /// Lanes that may execute the statement (bit l = lane l), for the first
    /// warp class of the block.
    pub active: u32,
}

/// What the analysis knows about register `reg` (by name) just before op
/// `at` of the kernel `ir` (the launch facts of `opts` apply). `None` when
/// `reg` is not one of its registers or the op is never reached.
pub fn explain_register(
    ir: &Function<'_>,
    at: OpId,
    reg: &str,
    opts: &Options,
) -> Option<RegisterFacts> {
    let r = ir.regs.iter().position(|n| *n == reg)? as u32;
    let p = prepare(ir, opts, Some((at.0, r)));
    let (v, mask) = p.results.first()?.probe.clone()?;
    let describe = |poly: &domain::Poly| describe_poly(poly, &p.params);
    Some(match &v {
        Value::Undef => RegisterFacts {
            kind: "undefined",
            value: "no definition reaches".into(),
            lanes: None,
            active: mask,
        },
        Value::Poly(poly) => {
            let exact = poly.exact();
            let kind = if poly.is_uniform() {
                "uniform"
            } else if exact.is_some() || poly.split().1.exact().is_some() {
                "exact per lane"
            } else {
                "symbolic stride"
            };
            RegisterFacts {
                kind,
                value: describe(poly),
                lanes: exact.map(|l| l.to_vec()),
                active: mask,
            }
        }
        Value::Varying { data: true } => RegisterFacts {
            kind: "data-dependent",
            value: "depends on loaded data".into(),
            lanes: None,
            active: mask,
        },
        Value::Varying { data: false } => RegisterFacts {
            kind: "unknown",
            value: "varies across lanes in a way the analysis cannot express".into(),
            lanes: None,
            active: mask,
        },
        Value::Pred(pv) => RegisterFacts {
            kind: "predicate",
            value: match pv {
                domain::PredVal::Lanes(b) => format!("true in lanes {b:#010x}"),
                domain::PredVal::Partial { maybe, sure, .. } => {
                    format!("true in lanes {sure:#010x}, false outside {maybe:#010x}, unknown in between")
                }
                domain::PredVal::Unknown { uniform: true, .. } => {
                    "unknown, the same in every lane".into()
                }
                domain::PredVal::Unknown { data: true, .. } => "depends on loaded data".into(),
                domain::PredVal::Unknown { .. } => "unknown, may differ across lanes".into(),
            },
            lanes: None,
            active: mask,
        },
    })
}
