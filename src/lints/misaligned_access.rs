//! `misaligned-access` (W102).

use super::{
    fmt_num, fmt_ratio, ideal_lines, is_contiguous, is_global_like, op_word, standard_notes,
    Finding, LintContext,
};
use crate::analysis::model::{Arch, Pattern};

crate::declare_lint! {
    /// ## What it finds
    ///
    /// Contiguous global accesses that start off the 32-byte sector grid or
    /// straddle a 128-byte line boundary.
    ///
    /// Precisely: global-memory accesses whose lanes are contiguous, but
    /// whose warp's range touches more 32-byte sectors than the ideal, or the
    /// ideal number of sectors spread over more 128-byte L1 lines than the
    /// ideal (Volta and later; on Pascal only the sectors count).
    ///
    /// ## Why it costs
    ///
    /// 32 lanes reading 32 consecutive floats need 128 bytes: 4 sectors and one
    /// L1 line when the first address is a multiple of 128. Shifted by one
    /// float, the same 128 bytes straddle 5 sectors and 2 lines: 25% more
    /// traffic for the same useful bytes, on every request. Shifted by a whole
    /// sector (32 bytes), they still need 4 sectors but 2 lines: every request
    /// costs two L1 tag lookups (`L1 Tag Requests Global` in Nsight Compute)
    /// instead of one.
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
    /// offsets in the address; when the base is known only modulo a smaller
    /// power of two, the figures are the mean over the possible alignments
    /// (a caveat says so). A pointer offset at run time by an unknown amount
    /// is not reported, nor is a line count that is a mean over the values of
    /// an unknown kernel parameter (give it with `--param`).
    pub static MISALIGNED_ACCESS = { code: "W102", name: "misaligned-access", level: Warn };
}

/// Reports contiguous accesses that touch more sectors, or more L1 lines,
/// than the ideal.
pub fn check(cx: &LintContext<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, a) in cx.kernel.accesses.iter().enumerate() {
        let p = &a.per_request;
        if !is_global_like(a) || !is_contiguous(a.pattern) {
            continue;
        }
        // The analysis calls an access misaligned when it knows the offset.
        let extra_sectors = a.pattern == Pattern::Misaligned && p.sectors > p.ideal_sectors + 0.05;
        // Extra lines alone count only when the figures are exact (the
        // sectors are the ideal, with no spread): otherwise they are a mean
        // over offsets the analysis does not know, such as an unknown
        // parameter in the address.
        let lines = ideal_lines(a);
        let exact = (p.sectors_max - p.sectors_min).abs() < 0.05
            && (p.sectors - p.ideal_sectors).abs() < 0.05
            && (p.l1_lines - p.l1_lines.round()).abs() < 0.05;
        let extra_lines = cx.arch == Arch::Sm70 && exact && p.l1_lines >= lines + 0.95;
        let message = if extra_sectors {
            format!(
                "misaligned {}: contiguous lanes off the 32-byte sector grid; {} sectors per request where {} would do: {} the traffic",
                op_word(a.op),
                fmt_num(p.sectors),
                fmt_num(p.ideal_sectors),
                fmt_ratio(p.sectors, p.ideal_sectors),
            )
        } else if extra_lines {
            format!(
                "misaligned {}: contiguous lanes straddle a 128-byte line boundary; {} L1 lines per request where {} would do ({} sectors, as ideal)",
                op_word(a.op),
                fmt_num(p.l1_lines),
                fmt_num(lines),
                fmt_num(p.sectors),
            )
        } else {
            continue;
        };
        out.push(Finding {
            access: i,
            message,
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
        a.per_request.l1_lines = 1.0;
        assert!(run(check, TEXT, &kernel(vec![a])).is_empty());
    }

    #[test]
    fn mean_line_counts_over_unknown_offsets_are_quiet() {
        let mut a = access(
            TEXT,
            "ld.global.f32 %f1, [%rd4+4];",
            AccessOp::Load,
            Space::Global,
            32,
            Pattern::Coalesced,
        );
        a.per_request.l1_lines = 1.75;
        assert!(run(check, TEXT, &kernel(vec![a.clone()])).is_empty());
        // 2 lines, but sectors spread over 4..5 (an unknown offset): quiet.
        a.per_request.l1_lines = 2.0;
        a.per_request.sectors = 4.9;
        a.per_request.sectors_max = 5.0;
        assert!(run(check, TEXT, &kernel(vec![a.clone()])).is_empty());
        a.per_request.sectors_max = 4.0;
        // Extra sectors on a `coalesced` access are a mean too: quiet.
        a.per_request.l1_lines = 1.0;
        a.per_request.sectors = 4.9;
        assert!(run(check, TEXT, &kernel(vec![a])).is_empty());
    }

    #[test]
    fn sector_aligned_but_line_straddling_fires() {
        let mut a = access(
            TEXT,
            "ld.global.f32 %f1, [%rd4+4];",
            AccessOp::Load,
            Space::Global,
            32,
            Pattern::Coalesced,
        );
        a.per_request.l1_lines = 2.0;
        let f = run(check, TEXT, &kernel(vec![a]));
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].message,
            "misaligned load: contiguous lanes straddle a 128-byte line boundary; 2 L1 lines per request where 1 would do (4 sectors, as ideal)"
        );
    }
}
