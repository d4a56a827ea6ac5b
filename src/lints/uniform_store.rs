//! `uniform-store` (W106).

use super::{fmt_num, Finding, LintContext};
use crate::analysis::model::{AccessOp, Pattern, Space};

crate::declare_lint! {
    /// ## What it finds
    ///
    /// Stores where every active lane of a warp writes to the same address.
    ///
    /// Typically a reduction's result written by all threads instead of one.
    ///
    /// ## Why it costs
    ///
    /// Only one of the writes survives; which one is unspecified. The other
    /// lanes' stores still occupy the memory pipeline, and when the lanes'
    /// values differ the result is a race. Usually one lane was meant to store.
    ///
    /// ## Example
    ///
    /// ```cuda
    /// sum = warp_reduce(sum);
    /// out[blockIdx.x] = sum;          // all 32 lanes store
    /// ```
    ///
    /// ```text
    /// warning[W106]: all 32 active lanes store to the same address;
    ///   one write lands, 31 are wasted
    /// ```
    ///
    /// ## How to fix it
    ///
    /// Guard the store so one lane writes: `if (threadIdx.x % 32 == 0)` (or
    /// `threadIdx.x == 0` for a block result), after combining the lanes'
    /// values with a warp reduction (`__shfl_down_sync`,
    /// `__reduce_add_sync`). If every lane's value matters, use an atomic.
    ///
    /// ## Known limits
    ///
    /// Only stores whose address the analysis proves identical across lanes
    /// are reported. Without the launch's grid (`--grid`, `[launch] grid`) the
    /// analysis over-approximates the active lanes, so a store guarded by
    /// `if (threadIdx.x == 0)` would look uniform: the lint then reports only
    /// stores that no guard can have narrowed (no predicated instruction or
    /// branch before them in the kernel, and the store itself unpredicated).
    /// With the grid, the launch simulation counts the active lanes exactly
    /// and every uniform store with more than one active lane is reported.
    /// Local-memory stores are private to each lane and are never uniform.
    pub static UNIFORM_STORE = { code: "W106", name: "uniform-store", level: Warn };
}

/// Reports stores with the broadcast pattern and more than one active lane.
pub fn check(cx: &LintContext<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, a) in cx.kernel.accesses.iter().enumerate() {
        if a.op != AccessOp::Store
            || !a.kind.is_lsu_scalar()
            || a.pattern != Pattern::Broadcast
            || matches!(a.space, Space::Local | Space::Param)
        {
            continue;
        }
        let lanes = a.per_request.active_lanes.unwrap_or(32.0);
        if lanes <= 1.0 {
            continue;
        }
        // Without the launch simulation (`requests` unknown) the active lanes
        // are an over-approximation: only trust them for unguarded stores.
        if a.requests.is_none() && possibly_guarded(a) {
            continue;
        }
        let (all, wasted) = if a.per_request.active_lanes.is_some() {
            (
                format!("all {} active lanes", fmt_num(lanes)),
                format!("{} are wasted", fmt_num(lanes - 1.0)),
            )
        } else {
            (
                "all active lanes".to_string(),
                "the others are wasted".to_string(),
            )
        };
        out.push(Finding {
            access: i,
            message: format!("{all} store to the same address; one write lands, {wasted}"),
            label: "every lane stores here".into(),
            secondary: Vec::new(),
            notes: if a.lane_pattern.is_empty() { Vec::new() } else { vec![super::lane_note(a)] },
            help: Some(
                "let one lane store (`if (threadIdx.x % 32 == 0)`), after combining the lanes' values with a warp \
                 reduction (`__shfl_down_sync`); use an atomic if every lane's value matters"
                    .into(),
            ),
        });
    }
    out
}

/// True when a guard (`@%p` on any instruction, including a branch or the
/// store itself) stands between the kernel's start and the store, so that the
/// store may run in fewer lanes than the static analysis assumes.
fn possibly_guarded(a: &crate::analysis::model::Access) -> bool {
    a.facts.after_guard || a.facts.guard.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lints::testing::{access, kernel, run};

    #[test]
    fn broadcast_store_fires_guarded_and_loads_are_quiet() {
        let text = "st.global.f32 [%rd1], %f1;\n";
        let a = access(
            text,
            "st.global.f32 [%rd1], %f1;",
            AccessOp::Store,
            Space::Global,
            32,
            Pattern::Broadcast,
        );
        let f = run(check, text, &kernel(vec![a.clone()]));
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].message,
            "all 32 active lanes store to the same address; one write lands, 31 are wasted"
        );
        let mut one = a.clone();
        one.per_request.active_lanes = Some(1.0);
        let mut load = a;
        load.op = AccessOp::Load;
        assert!(run(check, text, &kernel(vec![one, load])).is_empty());
    }

    #[test]
    fn guarded_stores_need_the_simulation() {
        let text = "setp.ne.s32 %p1, %r1, 0;\n@%p1 bra $L1;\nst.global.f32 [%rd1], %f1;\n$L1:\n";
        let mut a = access(
            text,
            "st.global.f32 [%rd1], %f1;",
            AccessOp::Store,
            Space::Global,
            32,
            Pattern::Broadcast,
        );
        a.facts.after_guard = true;
        assert!(
            run(check, text, &kernel(vec![a.clone()])).is_empty(),
            "guarded, lanes over-approximated"
        );
        a.requests = Some(4);
        assert_eq!(
            run(check, text, &kernel(vec![a.clone()])).len(),
            1,
            "simulated: 32 lanes for sure"
        );
        a.per_request.active_lanes = Some(1.0);
        assert!(
            run(check, text, &kernel(vec![a])).is_empty(),
            "simulated: one lane"
        );
    }
}
