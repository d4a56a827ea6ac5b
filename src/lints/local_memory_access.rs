//! `local-memory-access` (W105).

use super::{op_word, Finding, LintContext};
use crate::analysis::model::{AccessOp, Space};

crate::declare_lint! {
    /// ## What it finds
    ///
    /// Loads and stores to local memory: register spills and per-thread arrays.
    ///
    /// Precisely: `ld.local` and `st.local`, which PTX uses for register
    /// spills and for per-thread arrays the compiler could not keep in
    /// registers. A kernel gets one finding for all of its local accesses,
    /// at the first of them, with the counts of loads and stores,
    /// the next three labelled and the rest counted (`warpscope report`
    /// lists every access): a kernel that spills does so in many places.
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

/// Secondary labels shown after the first access of a kernel's group.
const SHOWN: usize = 3;

/// Reports a kernel's accesses to the local state space as one finding: at
/// its first local access, with the next few labelled and the counts in the
/// message. A kernel that spills does so in many places (an unrolled loop
/// over a per-thread array gives one access per element); one finding per
/// access buried the others (657,664 of them in one 60 MB cuBLAS module,
/// BENCHMARKS.md, stop 27), and `warpscope report` lists each access.
pub fn check(cx: &LintContext<'_>) -> Vec<Finding> {
    let local: Vec<usize> = cx
        .kernel
        .accesses
        .iter()
        .enumerate()
        .filter(|(_, a)| a.space == Space::Local)
        .map(|(i, _)| i)
        .collect();
    let Some(&first) = local.first() else {
        return Vec::new();
    };
    let a = &cx.kernel.accesses[first];
    let n = local.len();
    let loads = local
        .iter()
        .filter(|&&i| cx.kernel.accesses[i].op == AccessOp::Load)
        .count();
    let message = if n == 1 {
        let dir = if a.op == AccessOp::Load { "from" } else { "to" };
        format!(
            "{} {dir} local memory: a register spill or a per-thread array placed in device memory",
            op_word(a.op)
        )
    } else {
        // PTX has no local atomics: the others are stores.
        let count = |k: usize, w: &str| format!("{k} {w}{}", if k == 1 { "" } else { "s" });
        format!(
            "{n} accesses to local memory in this kernel ({}, {}): register spills or \
             per-thread arrays placed in device memory",
            count(loads, "load"),
            count(n - loads, "store")
        )
    };
    let label = match n {
        1 => format!("`{}`", a.instruction),
        _ => format!("`{}`: the first of {n}", a.instruction),
    };
    let secondary = local
        .iter()
        .skip(1)
        .take(SHOWN)
        .map(|&i| {
            let b = &cx.kernel.accesses[i];
            (b.span, format!("`{}`", b.instruction))
        })
        .collect();
    let mut notes = vec![
        "local memory has the latency of global memory: each access goes through L1 and L2".into(),
    ];
    if n > SHOWN + 1 {
        notes.push(format!(
            "{} more local accesses in this kernel are not shown (`warpscope report` lists each)",
            n - SHOWN - 1
        ));
    }
    vec![Finding {
        access: first,
        message,
        label,
        secondary,
        notes,
        help: Some(
            "index per-thread arrays only with compile-time constants (unroll the loops that index them) so they \
             stay in registers, or reduce register pressure (__launch_bounds__, fewer live values)"
                .into(),
        ),
    }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::model::Pattern;
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

    #[test]
    fn one_finding_per_kernel_with_counts() {
        let lines: Vec<String> = (0..6)
            .map(|k| match k % 2 {
                0 => format!("st.local.f32 [%rd{k}], %f1;"),
                _ => format!("ld.local.f32 %f{k}, [%rd{k}];"),
            })
            .collect();
        let text = lines.join("\n") + "\n";
        let accesses = lines
            .iter()
            .enumerate()
            .map(|(k, l)| {
                let op = if k % 2 == 0 {
                    AccessOp::Store
                } else {
                    AccessOp::Load
                };
                access(&text, l, op, Space::Local, 32, Pattern::Coalesced)
            })
            .collect();
        let f = run(check, &text, &kernel(accesses));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].access, 0);
        assert!(f[0]
            .message
            .starts_with("6 accesses to local memory in this kernel (3 loads, 3 stores)"));
        assert_eq!(f[0].secondary.len(), SHOWN);
        assert!(f[0]
            .notes
            .iter()
            .any(|n| n.starts_with("2 more local accesses")));
    }
}
