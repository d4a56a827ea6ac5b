//! `misaligned-access` (W102).

use super::{fmt_num, fmt_ratio, is_global_like, op_word, standard_notes, Finding, LintContext};
use crate::analysis::model::Pattern;

crate::declare_lint! {
    /// ## What it finds
    ///
    /// Contiguous global accesses that start off the 32-byte sector grid.
    ///
    /// Precisely: global-memory accesses whose lanes are contiguous, but whose warp's
    /// range does not start on the 32-byte sector grid, so that it touches one
    /// sector (and often one 128-byte L1 line) more than the ideal.
    ///
    /// ## Why it costs
    ///
    /// 32 lanes reading 32 consecutive floats need 128 bytes: 4 sectors and one
    /// L1 line when the first address is a multiple of 128. Shifted by one
    /// float, the same 128 bytes straddle 5 sectors and 2 lines: 25% more
    /// traffic for the same useful bytes, on every request.
    ///
    /// ## Example
    ///
    /// ```cuda
    /// // a stencil's neighbour: in[i + 1] is off the grid by 4 bytes
    /// out[i] = in[i - 1] + in[i] + in[i + 1];
    /// ```
    ///
    /// ```text
    /// warning[W102]: misaligned load: contiguous lanes off the 32-byte
    ///   sector grid; 5 sectors per request where 4 would do: 1.2x the traffic
    ///   = note: lane address: (4*lane + 4) + in + 512*ctaid.x
    /// ```
    ///
    /// ## How to fix it
    ///
    /// Align the data the warp starts on: pad each row to a multiple of 128
    /// bytes (`cudaMallocPitch`), shift the index space so that each warp
    /// starts at a multiple of 32 elements, or, for stencils, load the aligned
    /// tile plus its halo into shared memory once and read neighbours from
    /// there. If the offset is an artefact of an alignment the analysis could
    /// not see, say so: `--pointer-align` or `pointer-align` in
    /// `warpscope.toml`.
    ///
    /// ## Known limits
    ///
    /// Alignment is derived from the assumed alignment of pointer parameters
    /// (256 bytes by default, what `cudaMalloc` returns) and the constant
    /// offsets in the address; a pointer that is offset at run time by an
    /// unknown amount is reported as `unknown`, not misaligned.
    pub static MISALIGNED_ACCESS = { code: "W102", name: "misaligned-access", level: Warn };
}

/// Reports contiguous accesses that touch more sectors than the ideal.
pub fn check(cx: &LintContext<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, a) in cx.kernel.accesses.iter().enumerate() {
        let p = &a.per_request;
        if !is_global_like(a) || a.pattern != Pattern::Misaligned || p.sectors <= p.ideal_sectors {
            continue;
        }
        out.push(Finding {
            access: i,
            message: format!(
                "misaligned {}: contiguous lanes off the 32-byte sector grid; {} sectors per request where {} would do: {} the traffic",
                op_word(a.op),
                fmt_num(p.sectors),
                fmt_num(p.ideal_sectors),
                fmt_ratio(p.sectors, p.ideal_sectors),
            ),
            label: format!("{} sectors, {} L1 lines per request", fmt_num(p.sectors), fmt_num(p.l1_lines)),
            secondary: Vec::new(),
            notes: standard_notes(a),
            help: Some(
                "start each warp on a 128-byte boundary: pad rows to a multiple of 128 bytes (cudaMallocPitch) \
                 or shift the index so warps begin at a multiple of 32 elements; for stencils, load the aligned \
                 tile and its halo into shared memory once"
                    .into(),
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::model::{AccessOp, Space};
    use crate::lints::testing::{access, kernel, run};

    const TEXT: &str = "ld.global.f32 %f1, [%rd4+4];\n";

    #[test]
    fn off_grid_fires_and_aligned_is_quiet() {
        let mut a = access(
            TEXT,
            "ld.global.f32 %f1, [%rd4+4];",
            AccessOp::Load,
            Space::Global,
            32,
            Pattern::Misaligned,
        );
        a.per_request.sectors = 5.0;
        a.per_request.l1_lines = 2.0;
        let f = run(check, TEXT, &kernel(vec![a.clone()]));
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .contains("5 sectors per request where 4 would do"),
            "{}",
            f[0].message
        );
        a.pattern = Pattern::Coalesced;
        a.per_request.sectors = 4.0;
        assert!(run(check, TEXT, &kernel(vec![a])).is_empty());
    }
}
