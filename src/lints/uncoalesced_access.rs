//! `uncoalesced-access` (W101).

use super::{fmt_num, fmt_ratio, is_global_like, op_word, standard_notes, Finding, LintContext};
use crate::analysis::model::{Access, Pattern};

crate::declare_lint! {
    /// ## What it finds
    ///
    /// Global accesses whose warp touches more sectors per request than an
    /// ideal access, by more than a configurable factor.
    ///
    /// Precisely: global-memory accesses whose warp touches more 32-byte sectors per
    /// request than an ideal access of the same width, by more than the
    /// configured factor (`[thresholds] uncoalesced-factor`, default 1.5):
    /// lanes that are a fixed stride apart (a column of a row-major matrix, one
    /// field of an array of structs), a stride given by a kernel parameter, or
    /// lanes at irregular addresses. Data-dependent addresses (gathers) are
    /// reported by `data-dependent-access` instead, unless even their best case
    /// exceeds the factor.
    ///
    /// ## Why it costs
    ///
    /// On Volta and later a warp's load or store is one request; the memory
    /// system serves it in 32-byte sectors of 128-byte L1 lines. 32 lanes
    /// reading consecutive floats touch 4 sectors. 32 lanes reading floats 128
    /// bytes apart touch 32 sectors for the same 128 useful bytes: 8 times the
    /// traffic between L1 and L2 (and DRAM), and 32 L1 lines instead of 1.
    ///
    /// ## Example
    ///
    /// ```cuda
    /// // lane i reads in[i * n]: a column of a row-major matrix
    /// out[blockIdx.x * n + threadIdx.x] = in[threadIdx.x * n + blockIdx.x];
    /// ```
    ///
    /// ```text
    /// warning[W101]: uncoalesced load: lanes 4096 bytes apart;
    ///   32 sectors per request where 4 would do: 8x the traffic
    ///   = note: lane address: 4096*lane + in + 4*ctaid.x
    /// ```
    ///
    /// ## How to fix it
    ///
    /// Make consecutive lanes (consecutive `threadIdx.x`) touch consecutive
    /// addresses. For a matrix, swap the roles of the indices, or load a tile
    /// with coalesced rows into shared memory and read it transposed from
    /// there. For an array of structs read one field at a time, store that
    /// field in its own array (structure of arrays), or load whole structs
    /// with vector loads.
    ///
    /// ## Known limits
    ///
    /// The figures are per request, averaged over the warps of the launch the
    /// analysis assumed (`--block`, `[[kernel]]` in `warpscope.toml`). A
    /// stride that depends on a kernel parameter is only known when the
    /// parameter's value is given (`--param`); until then the figure assumes
    /// the lanes it separates are at least a line apart (the two rows of a
    /// 16 x 16 block at a run-time pitch: two runs of 64 bytes). Accesses
    /// whose lane addresses the analysis could not resolve (pattern
    /// `unknown`) are not reported.
    /// Sectors are counted per request, as Nsight Compute's `L2 Theoretical
    /// Sectors Global` counts them: sectors an earlier access already brought
    /// into L1 may in fact be served without L2 traffic.
    pub static UNCOALESCED_ACCESS = { code: "W101", name: "uncoalesced-access", level: Warn };
}

/// Reports accesses whose sectors per request exceed the ideal by more than the factor.
pub fn check(cx: &LintContext<'_>) -> Vec<Finding> {
    let factor = cx.thresholds.uncoalesced_factor;
    let mut out = Vec::new();
    for (i, a) in cx.kernel.accesses.iter().enumerate() {
        if !is_global_like(a) {
            continue;
        }
        let p = &a.per_request;
        if p.ideal_sectors <= 0.0 {
            continue;
        }
        let limit = factor * p.ideal_sectors;
        let fires = match a.pattern {
            Pattern::Strided | Pattern::Irregular => p.sectors > limit,
            // Not resolving an address is the analysis's limit, not a finding.
            Pattern::Unknown => false,
            // A gather is uncoalesced for sure only when even its best case is.
            Pattern::Random => p.sectors_min > limit,
            Pattern::Coalesced | Pattern::Broadcast | Pattern::Misaligned => false,
        };
        if !fires {
            continue;
        }
        let shown = if a.pattern == Pattern::Random {
            p.sectors_min
        } else {
            p.sectors
        };
        out.push(Finding {
            access: i,
            message: format!(
                "uncoalesced {}: {}; {} sectors per request where {} would do: {} the traffic",
                op_word(a.op),
                describe_pattern(a),
                fmt_num(shown),
                fmt_num(p.ideal_sectors),
                fmt_ratio(shown, p.ideal_sectors),
            ),
            label: format!(
                "{} sectors, {} L1 lines per request",
                fmt_num(p.sectors),
                fmt_num(p.l1_lines)
            ),
            secondary: Vec::new(),
            notes: standard_notes(a),
            help: Some(help(a)),
        });
    }
    out
}

fn describe_pattern(a: &Access) -> String {
    match (a.pattern, a.stride_bytes) {
        (Pattern::Strided, Some(s)) => format!("lanes {} bytes apart", s.unsigned_abs()),
        (Pattern::Strided, None) => "lanes a run-time stride apart (its value is not known)".into(),
        (Pattern::Irregular, _) => "lanes at irregular addresses".into(),
        (Pattern::Random, _) => "data-dependent addresses".into(),
        _ => "lane addresses the analysis could not resolve".into(),
    }
}

fn help(a: &Access) -> String {
    let elem = super::bytes_per_lane(a) as u64;
    match (a.pattern, a.stride_bytes) {
        (Pattern::Strided, Some(s)) if s.unsigned_abs() <= 64 && elem > 0 && s.unsigned_abs() % elem == 0 => format!(
            "lanes read one {elem}-byte field of {}-byte records: store that field in its own array \
             (structure of arrays) so consecutive lanes read consecutive elements, or load whole records \
             with vector loads",
            s.unsigned_abs()
        ),
        (Pattern::Strided, _) => "make consecutive threads touch consecutive addresses: swap the index roles so \
             threadIdx.x drives the fastest-varying (contiguous) dimension, or stage the tile through shared \
             memory (load rows coalesced, transpose in shared memory, write rows coalesced)"
            .into(),
        _ => "reorder the data or the thread-to-element mapping so that each warp's lanes fall into as few \
             128-byte lines as possible"
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::model::{AccessOp, Space};
    use crate::lints::testing::{access, kernel, run};

    const TEXT: &str = "ld.global.f32 %f1, [%rd4];\nst.global.f32 [%rd5], %f1;\n";

    fn strided(stride: i64, sectors: f64) -> Access {
        let mut a = access(
            TEXT,
            "ld.global.f32 %f1, [%rd4];",
            AccessOp::Load,
            Space::Global,
            32,
            Pattern::Strided,
        );
        a.stride_bytes = Some(stride);
        a.lane_pattern = format!("base + {stride}*i");
        a.per_request.sectors = sectors;
        a.per_request.sectors_min = sectors;
        a.per_request.sectors_max = sectors;
        a.per_request.l1_lines = sectors.min(32.0);
        a
    }

    #[test]
    fn column_access_names_stride_and_cost() {
        let k = kernel(vec![strided(128, 32.0)]);
        let f = run(check, TEXT, &k);
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].message,
            "uncoalesced load: lanes 128 bytes apart; 32 sectors per request where 4 would do: 8x the traffic"
        );
        assert_eq!(f[0].notes[0], "lane address: base + 128*i");
        assert!(f[0].help.as_ref().unwrap().contains("shared memory"));
    }

    #[test]
    fn small_stride_suggests_structure_of_arrays() {
        let k = kernel(vec![strided(16, 16.0)]);
        let f = run(check, TEXT, &k);
        assert!(f[0].help.as_ref().unwrap().contains("structure of arrays"));
    }

    #[test]
    fn below_factor_is_quiet() {
        // 8-byte stride over 4-byte elements: 8 sectors vs 4 = 2x > 1.5 fires; 6 sectors (1.5x) does not.
        assert_eq!(run(check, TEXT, &kernel(vec![strided(8, 8.0)])).len(), 1);
        assert!(run(check, TEXT, &kernel(vec![strided(8, 6.0)])).is_empty());
    }

    #[test]
    fn coalesced_shared_unresolved_and_gathers_with_good_best_case_are_quiet() {
        let ok = access(
            TEXT,
            "ld.global.f32 %f1, [%rd4];",
            AccessOp::Load,
            Space::Global,
            32,
            Pattern::Coalesced,
        );
        let mut shared = strided(128, 32.0);
        shared.space = Space::Shared;
        let mut gather = strided(0, 28.0);
        gather.pattern = Pattern::Random;
        gather.per_request.sectors_min = 4.0;
        gather.per_request.sectors_max = 32.0;
        let mut unresolved = strided(0, 32.0);
        unresolved.pattern = Pattern::Unknown;
        unresolved.stride_bytes = None;
        assert!(run(check, TEXT, &kernel(vec![ok, shared, gather, unresolved])).is_empty());
    }
}
