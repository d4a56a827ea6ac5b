//! `shared-bank-conflict` (W107).

use super::{bytes_per_lane, fmt_num, fmt_ratio, lane_note, op_word, Finding, LintContext};
use crate::analysis::model::{Access, MemKind, Space};

crate::declare_lint! {
    /// ## What it finds
    ///
    /// Shared-memory accesses whose lanes collide on the same bank, so that
    /// one request needs several wavefronts.
    ///
    /// Precisely: `ld.shared`, `st.shared`, shared atomics, `ldmatrix`,
    /// `stmatrix` and the shared-memory destination of `cp.async`, whose
    /// bank-conflict wavefronts per request, as the analysis counts them,
    /// exceed the ideal for the access width (one wavefront per 128 bytes the
    /// active lanes move: 1 for 4-byte accesses, 2 for 8-byte, 4 for 16-byte;
    /// one per 8x16-byte matrix for `ldmatrix`/`stmatrix`).
    ///
    /// ## Why it costs
    ///
    /// Shared memory has 32 banks of 4 bytes. A request is served in one
    /// wavefront when the lanes touch at most one distinct 4-byte word per
    /// bank (lanes reading the same word share it). Lanes 128 bytes apart all
    /// fall into the same bank: the request is split into 32 wavefronts and
    /// takes 32 times as long, stalling every warp waiting on it.
    ///
    /// ## Example
    ///
    /// ```cuda
    /// __shared__ float tile[32][32];
    /// tile[threadIdx.y][threadIdx.x] = in[...];
    /// __syncthreads();
    /// out[...] = tile[threadIdx.x][threadIdx.y];   // a column: 32-way conflict
    /// ```
    ///
    /// ```text
    /// warning[W107]: 32-way bank conflict: 32 wavefronts per request where 1
    ///   would do: lanes 128 bytes apart share a bank
    /// ```
    ///
    /// ## How to fix it
    ///
    /// Pad the array so that a row's stride is not a multiple of 128 bytes
    /// (`__shared__ float tile[32][33]`), or swizzle the column index (XOR it
    /// with the row) so that lanes walking a column land in different banks.
    /// For 8- and 16-byte elements, make consecutive lanes read consecutive
    /// elements. For `ldmatrix`/`stmatrix` on a row-major tile whose rows are
    /// 128 bytes (64 `half` values), pad each row by 16 bytes or XOR the
    /// 16-byte chunk index with `row % 8` (the 128-byte swizzle).
    ///
    /// ## Known limits
    ///
    /// Wavefronts are only counted when the analysis resolves every lane's
    /// address (affine in the lane index, or simulated with the launch's grid
    /// and parameters); other shared accesses are not reported. The count
    /// follows the bank model of Volta and later (32 banks of 4 bytes); it is
    /// what Nsight Compute reports as `L1 Wavefronts Shared` per request.
    pub static SHARED_BANK_CONFLICT = { code: "W107", name: "shared-bank-conflict", level: Warn };
}

/// Wavefronts a conflict-free request of this width needs.
fn ideal_wavefronts(a: &Access) -> f64 {
    if let Some(m) = &a.matrix {
        return crate::analysis::cost::matrix::ideal_wavefronts(m) as f64;
    }
    // A `wgmma` operand's wavefronts are its bytes / 128 spread over the
    // warpgroup (`cost::tensor_operand`): already conflict-free.
    if a.kind == MemKind::TensorOperand {
        return a.shared_wavefronts.unwrap_or(1.0).max(1.0);
    }
    let lanes = a.per_request.active_lanes.unwrap_or(32.0).max(1.0);
    (lanes * bytes_per_lane(a) as f64 / 128.0).ceil().max(1.0)
}

/// The fix for a conflict of this access, in its own terms.
fn help(a: &Access, stride: Option<i64>) -> String {
    match (a.kind, &a.matrix) {
        (MemKind::MatrixLoad | MemKind::MatrixStore, Some(_)) => {
            let rows = match stride {
                Some(s) if s > 0 => format!(" ({s}-byte rows: make them {} bytes)", s + 16),
                _ => String::new(),
            };
            format!(
                "the 8 row addresses of each matrix must fall in different banks: pad every row by 16 bytes{rows}, or XOR-swizzle the 16-byte chunk index with the row (`chunk ^ (row % 8)`, the 128-byte swizzle of CUTLASS and TMA)"
            )
        }
        (MemKind::AsyncCopy, _) => {
            "the copy's shared destinations collide on banks: pad the destination rows by 16 bytes, or XOR-swizzle the 16-byte chunk index with the row, so that the lanes of each 8-lane group write different banks"
                .into()
        }
        _ => "pad the shared array so a row is not a multiple of 128 bytes (`tile[32][33]` for a 32x32 float tile), or swizzle the column index (XOR it with the row)"
            .into(),
    }
}

/// Reports shared accesses with more wavefronts per request than the ideal.
pub fn check(cx: &LintContext<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, a) in cx.kernel.accesses.iter().enumerate() {
        let Some(w) = a.shared_wavefronts else {
            continue;
        };
        if a.space != Space::Shared && a.kind != MemKind::AsyncCopy {
            continue;
        }
        // A cp.async's bank figures are those of its shared destination.
        let stride = match &a.shared_side {
            Some(side) => side.stride_bytes,
            None => a.stride_bytes,
        };
        let ideal = ideal_wavefronts(a);
        // Averages over a launch may be fractional: report a clear excess only.
        if w < ideal + 0.5 {
            continue;
        }
        let ways = fmt_num(w / ideal);
        let why = match stride {
            Some(s) if s != 0 => format!(": lanes {} bytes apart share a bank", s.unsigned_abs()),
            _ => String::new(),
        };
        let mut notes = Vec::new();
        if !a.lane_pattern.is_empty() {
            notes.push(lane_note(a));
        }
        notes.push(format!(
            "per request: {} wavefronts against an ideal of {} (32 banks of 4 bytes)",
            fmt_num(w),
            fmt_num(ideal)
        ));
        // Caveats about L1 lines and L2 sectors do not concern banks.
        for c in a.caveats.iter().filter(|c| !c.is_about_lines_and_sectors()) {
            notes.push(format!("caveat: {c}"));
        }
        out.push(Finding {
            access: i,
            message: format!(
                "{ways}-way bank conflict: {} wavefronts per request where {} would do{why}",
                fmt_num(w),
                fmt_num(ideal)
            ),
            label: format!(
                "shared {}: {} the time of a conflict-free one",
                op_word(a.op),
                fmt_ratio(w, ideal)
            ),
            secondary: Vec::new(),
            notes,
            help: Some(help(a, stride)),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::model::{AccessOp, Pattern};
    use crate::lints::testing::{access, kernel, run};

    const TEXT: &str = "ld.shared.f32 %f2, [%r4];\n";

    fn shared(stride: i64, wavefronts: f64, bits: u32) -> Access {
        let mut a = access(
            TEXT,
            "ld.shared.f32 %f2, [%r4];",
            AccessOp::Load,
            Space::Shared,
            bits,
            Pattern::Strided,
        );
        a.stride_bytes = Some(stride);
        a.shared_wavefronts = Some(wavefronts);
        a
    }

    #[test]
    fn column_of_a_tile_is_32_way() {
        let f = run(check, TEXT, &kernel(vec![shared(128, 32.0, 32)]));
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].message,
            "32-way bank conflict: 32 wavefronts per request where 1 would do: lanes 128 bytes apart share a bank"
        );
    }

    #[test]
    fn padded_rows_and_wide_accesses_at_their_ideal_are_quiet() {
        // 132-byte rows: 1 wavefront; 16-byte lanes need 4 wavefronts anyway.
        let quiet = vec![shared(132, 1.0, 32), shared(16, 4.0, 128)];
        assert!(run(check, TEXT, &kernel(quiet)).is_empty());
        // ... but 16-byte lanes in 8 wavefronts are a 2-way conflict.
        let f = run(check, TEXT, &kernel(vec![shared(32, 8.0, 128)]));
        assert!(
            f[0].message.starts_with("2-way bank conflict"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn global_and_unresolved_are_quiet() {
        let mut g = shared(128, 32.0, 32);
        g.space = Space::Global;
        let mut u = shared(128, 32.0, 32);
        u.shared_wavefronts = None;
        assert!(run(check, TEXT, &kernel(vec![g, u])).is_empty());
    }
}
