//! `local-memory-access` (W105).

use super::{op_word, Finding, LintContext};
use crate::analysis::model::Space;

crate::declare_lint! {
    /// ## What it finds
    ///
    /// Loads and stores to local memory: register spills and per-thread arrays.
    ///
    /// Precisely: `ld.local` and `st.local`, which PTX uses for register
    /// spills and for per-thread arrays the compiler could not keep in
    /// registers.
    ///
    /// ## Why it costs
    ///
    /// Local memory is private to a thread but lives in device memory: each
    /// access goes through L1 and, on a miss, L2 and DRAM, with the latency of
    /// a global access, where a register costs nothing. In a loop, a spilled
    /// value can dominate the kernel's memory traffic.
    ///
    /// ## Example
    ///
    /// ```cuda
    /// float acc[8];
    /// for (int k = 0; k < n; ++k) acc[k % 8] += x[k];   // index unknown at compile time
    /// ```
    ///
    /// ```text
    /// warning[W105]: load from local memory: a register spill or a
    ///   per-thread array placed in device memory
    /// ```
    ///
    /// ## How to fix it
    ///
    /// Index per-thread arrays only with compile-time constants (fully unroll
    /// the loops that index them, `#pragma unroll`) so they live in registers;
    /// reduce register pressure (`__launch_bounds__`, fewer live values) when
    /// `ptxas -v` reports spill stores; move large per-thread scratch to
    /// shared memory.
    ///
    /// ## Known limits
    ///
    /// PTX shows the local arrays the front end (nvcc, Triton) created; spills
    /// that `ptxas` adds later when it allocates registers are not in the PTX
    /// and cannot be seen here. Accesses through generic pointers into a local
    /// array are reported only when the analysis proves the space.
    pub static LOCAL_MEMORY_ACCESS = { code: "W105", name: "local-memory-access", level: Warn };
}

/// Reports every access to the local state space.
pub fn check(cx: &LintContext<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, a) in cx.kernel.accesses.iter().enumerate() {
        if a.space != Space::Local {
            continue;
        }
        let dir = if a.op == crate::analysis::model::AccessOp::Load {
            "from"
        } else {
            "to"
        };
        out.push(Finding {
            access: i,
            message: format!(
                "{} {dir} local memory: a register spill or a per-thread array placed in device memory",
                op_word(a.op)
            ),
            label: format!("`{}`", a.instruction),
            secondary: Vec::new(),
            notes: vec!["local memory has the latency of global memory: each access goes through L1 and L2".into()],
            help: Some(
                "index per-thread arrays only with compile-time constants (unroll the loops that index them) so they \
                 stay in registers, or reduce register pressure (__launch_bounds__, fewer live values)"
                    .into(),
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::model::{AccessOp, Pattern};
    use crate::lints::testing::{access, kernel, run};

    #[test]
    fn local_fires_global_is_quiet() {
        let text = "ld.local.f32 %f1, [%rd1];\n";
        let a = access(
            text,
            "ld.local.f32 %f1, [%rd1];",
            AccessOp::Load,
            Space::Local,
            32,
            Pattern::Coalesced,
        );
        let f = run(check, text, &kernel(vec![a.clone()]));
        assert_eq!(f.len(), 1);
        assert!(f[0].message.starts_with("load from local memory"));
        let mut g = a;
        g.space = Space::Global;
        assert!(run(check, text, &kernel(vec![g])).is_empty());
    }
}
