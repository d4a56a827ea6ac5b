//! One-line descriptions of what an access carries beside its per-request
//! figures: the shared side of a `cp.async`, the matrices of an
//! `ldmatrix`/`stmatrix`, a bulk copy's bytes and a `wgmma` operand's
//! decoded descriptor, and why an `unknown` access is unknown. `warpscope report` prints them under the access table
//! and the language server's hover shows them as rows; both take the text
//! from here.

use crate::analysis::coverage::UnknownCause;
use crate::analysis::model::{Access, BulkFacts, MatrixDescriptor, MatrixFacts, MemKind};

fn num(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

fn matrix(m: &MatrixFacts, wavefronts: Option<f64>) -> String {
    let rows = m.rows_per_matrix * m.matrices;
    let ideal = crate::analysis::cost::matrix::ideal_wavefronts(m);
    let mut s = format!(
        "{} matrices ({} x{}{}): lanes 0-{} supply the row addresses, {} per matrix, {} bytes a row",
        m.matrices,
        m.shape,
        m.matrices,
        if m.trans { ", trans" } else { "" },
        rows.min(32) - 1,
        m.rows_per_matrix,
        m.row_bytes
    );
    if let Some(w) = wavefronts {
        s.push_str(&format!(
            "; {} wavefronts per request (ideal {ideal})",
            num(w)
        ));
    }
    s
}

fn bulk(b: &BulkFacts) -> String {
    let what = match (&b.reduction, b.tensor_dims) {
        (Some(r), Some(d)) => format!("{d}-D tensor reduction ({r})"),
        (Some(r), None) => format!("bulk reduction ({r})"),
        (None, Some(d)) => format!("{d}-D tensor copy"),
        (None, None) => "bulk copy".to_string(),
    };
    let bytes = match (b.bytes, b.tensor_dims) {
        (Some(n), _) => format!("{n} bytes per copy"),
        (None, Some(_)) => "bytes per copy: the tensor map's box (not in the PTX)".to_string(),
        (None, None) => "bytes per copy unknown".to_string(),
    };
    let mut s = format!("{what}, {} <- {}, {bytes}", b.destination, b.source);
    if let Some(m) = &b.mbarrier {
        s.push_str(&format!(", completes on mbarrier `{m}`"));
    } else if let Some(c) = &b.completion {
        s.push_str(&format!(", completion {c}"));
    }
    match (b.multicast, b.multicast_ctas) {
        (true, Some(n)) => s.push_str(&format!(", multicast to {n} CTAs of the cluster")),
        (true, None) => s.push_str(", multicast to the cluster"),
        _ => {}
    }
    s
}

/// A decoded `wgmma` descriptor in words.
pub fn descriptor(d: &MatrixDescriptor) -> String {
    let field = |v: Option<u32>| v.map(|x| format!("{x} B")).unwrap_or_else(|| "?".into());
    format!(
        "descriptor of operand {}: swizzle {}, leading byte offset {}, stride byte offset {}{}",
        d.operand,
        d.swizzle.as_deref().unwrap_or("?"),
        field(d.leading_byte_offset),
        field(d.stride_byte_offset),
        match d.base_offset {
            Some(0) | None => String::new(),
            Some(b) => format!(", base offset {b}"),
        }
    )
}

/// What `a` carries beside its per-request figures, one line each (empty
/// for a plain access).
pub fn access_details(a: &Access) -> Vec<String> {
    let mut out = Vec::new();
    if !a.kind.is_plain() && !matches!(a.kind, MemKind::Atomic | MemKind::Reduction) {
        out.push(format!("kind: {}", a.kind.as_str().replace('_', " ")));
    }
    if let Some(s) = &a.shared_side {
        out.push(format!(
            "shared side: {}{}, {} wavefronts per request (address {})",
            s.pattern.map(|p| p.as_str()).unwrap_or("unresolved"),
            s.stride_bytes
                .map(|b| format!(" (stride {b} B)"))
                .unwrap_or_default(),
            s.wavefronts.map(num).unwrap_or_else(|| "?".into()),
            s.lane_pattern
        ));
    }
    if let Some(m) = &a.matrix {
        out.push(matrix(m, a.shared_wavefronts));
    }
    if let Some(b) = &a.bulk {
        out.push(bulk(b));
    }
    out.extend(a.descriptors.iter().map(descriptor));
    if let Some(c) = &a.unknown_cause {
        if !matches!(c, UnknownCause::TensorOperand | UnknownCause::NeverExecuted) {
            out.push(format!("unknown: {c}"));
        }
    }
    if let (Some(off), Some(all)) = (a.predicated_off_requests, a.requests) {
        out.push(format!(
            "{off} of {all} requests run with the guard off in every lane (no sectors)"
        ));
    }
    out
}
