//! `data-dependent-access` (W104).

use super::{fmt_num, is_global_like, standard_notes, Finding, LintContext};
use crate::analysis::model::{AccessOp, Pattern};

crate::declare_lint! {
    /// ## What it finds
    ///
    /// Global accesses whose address depends on loaded data: gathers and
    /// scatters.
    ///
    /// Precisely: global-memory accesses whose address depends on data loaded from memory:
    /// gathers (`out[i] = in[idx[i]]`), scatters (`out[idx[i]] = v`) and
    /// atomics through an index (`atomicAdd(&hist[bin[i]], 1)`). The analysis
    /// cannot know where the lanes land, so it gives the range of sectors per
    /// request, from every lane hitting one sector to every lane in its own
    /// sector, and the expected value for uniformly random indices.
    ///
    /// ## Why it costs
    ///
    /// A warp whose 32 indices are scattered over memory touches up to 32
    /// sectors and 32 L1 lines for 128 useful bytes: 8 times the traffic of a
    /// coalesced access. Measured on an H100 (the seeds' `indirect` kernel,
    /// 10,000 floats): the gather `p[idx[i]]` touched 9,887 sectors with a
    /// random permutation, where the 40,000 bytes fit in 1,250.
    ///
    /// ## Example
    ///
    /// ```cuda
    /// out[i] = p[idx[i]];   // idx is a permutation
    /// ```
    ///
    /// ```text
    /// warning[W104]: gather: the load's address depends on loaded data;
    ///   1 to 32 sectors per request where 4 would do
    /// ```
    ///
    /// ## How to fix it
    ///
    /// Keep the indices as ordered as the algorithm allows (sort the index
    /// array, or bucket the work so that a warp's indices fall into few
    /// 128-byte lines); for read-only data, read it through the read-only
    /// path (`const __restrict__`, `__ldg`); for histograms, accumulate in
    /// shared memory first and write the totals once. If the indices are known
    /// to be ordered, allow this lint for the kernel.
    ///
    /// ## Known limits
    ///
    /// The figures assume nothing about the index data; the expected value
    /// assumes uniformly random indices over a range much larger than a warp
    /// touches. Addresses computed from a value loaded once per block (a
    /// pointer table, a uniform offset) are not data-dependent per lane and
    /// are not reported.
    pub static DATA_DEPENDENT_ACCESS = { code: "W104", name: "data-dependent-access", level: Warn };
}

/// Reports global accesses with the `random` (data-dependent) pattern.
pub fn check(cx: &LintContext<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, a) in cx.kernel.accesses.iter().enumerate() {
        if !is_global_like(a) || a.pattern != Pattern::Random {
            continue;
        }
        let p = &a.per_request;
        let (kind, what) = match a.op {
            AccessOp::Load => ("gather", "load"),
            AccessOp::Store => ("scatter", "store"),
            AccessOp::Atomic => ("scattered atomic", "atomic"),
        };
        out.push(Finding {
            access: i,
            message: format!(
                "{kind}: the {what}'s address depends on loaded data; {} to {} sectors per request where {} would do",
                fmt_num(p.sectors_min),
                fmt_num(p.sectors_max),
                fmt_num(p.ideal_sectors)
            ),
            label: format!("expected {} sectors per request for random indices", fmt_num(p.sectors)),
            secondary: Vec::new(),
            notes: standard_notes(a),
            help: Some(match a.op {
                AccessOp::Atomic => "accumulate per block in shared memory (or per warp with shuffles) and issue one global \
                                     atomic per bin per block"
                    .into(),
                _ => "keep each warp's indices within few 128-byte lines (sort or bucket the index array); read \
                      read-only data through `const __restrict__` / `__ldg`"
                    .into(),
            }),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::model::Space;
    use crate::lints::testing::{access, kernel, run};

    const TEXT: &str = "ld.global.f32 %f1, [%rd9];\n";

    #[test]
    fn gathers_fire_with_range_and_affine_is_quiet() {
        let mut a = access(
            TEXT,
            "ld.global.f32 %f1, [%rd9];",
            AccessOp::Load,
            Space::Global,
            32,
            Pattern::Random,
        );
        a.per_request.sectors = 28.3;
        a.per_request.sectors_max = 32.0;
        let f = run(check, TEXT, &kernel(vec![a.clone()]));
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].message,
            "gather: the load's address depends on loaded data; 4 to 32 sectors per request where 4 would do"
        );
        a.pattern = Pattern::Coalesced;
        assert!(run(check, TEXT, &kernel(vec![a])).is_empty());
    }
}
