//! `bulk-copy-alignment` (W108).

use super::{Finding, LintContext};

crate::declare_lint! {
    /// ## What it finds
    ///
    /// Bulk copies (`cp.async.bulk`, `cp.reduce.async.bulk`,
    /// `cp.async.bulk.prefetch`) whose size or addresses break the 16-byte
    /// rules of the PTX ISA.
    ///
    /// Precisely: a `size` operand that is a constant and not a multiple of
    /// 16, or a shared- or global-memory address operand whose residue
    /// modulo 16 the analysis proves is not 0 (a variable's declared
    /// alignment, the 256-byte alignment of a `cudaMalloc` pointer, and the
    /// constant offsets added to them).
    ///
    /// ## Why it costs
    ///
    /// The copy engine moves 16-byte granules: the PTX ISA requires the size
    /// of a bulk copy to be a multiple of 16 and both addresses to be 16-byte
    /// aligned. A copy that breaks the rule is undefined behaviour: it may
    /// fault (`cudaErrorMisalignedAddress`), or copy the wrong bytes and
    /// leave the mbarrier waiting for bytes that never arrive, hanging the
    /// kernel.
    ///
    /// ## Example
    ///
    /// ```cuda
    /// __shared__ __align__(128) float tile[1024];
    /// // 1000 bytes (in a register), to tile + 2 floats: 8 bytes off the grid
    /// asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
    ///              " [%0], [%1], %2, [%3];"
    ///              :: "r"(smem(tile + 2)), "l"(src), "r"(1000), "r"(smem(&bar)));
    /// ```
    ///
    /// ```text
    /// warning[W108]: bulk copy of 1000 bytes: the size of a bulk copy must
    ///   be a multiple of 16
    /// ```
    ///
    /// ## How to fix it
    ///
    /// Round the copied size up to a multiple of 16 (pad the buffers), copy
    /// the tail with ordinary loads, and declare shared buffers
    /// `__align__(16)` (128 for tensor copies, 1024 for 128-byte swizzled
    /// ones); offset global pointers by multiples of 16 bytes.
    ///
    /// ## Known limits
    ///
    /// `ptxas` already rejects an immediate size that is not a multiple of
    /// 16; a size in a register (`mov.u32 %r5, 1000;`), and addresses, it
    /// does not check: those are what this lint adds. Only what the PTX
    /// proves is reported: a size held in a register with
    /// several definitions, or an address whose alignment depends on a
    /// parameter's value, is not checked. Tensor copies (`.tensor`) take
    /// their sizes from the tensor map, which is not in the PTX.
    pub static BULK_COPY_ALIGNMENT = { code: "W108", name: "bulk-copy-alignment", level: Warn };
}

/// Reports bulk copies with a size or an address that breaks the 16-byte rules.
pub fn check(cx: &LintContext<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, a) in cx.kernel.accesses.iter().enumerate() {
        let Some(b) = &a.bulk else { continue };
        let mut problems = Vec::new();
        if let Some(n) = b.bytes.filter(|n| n % 16 != 0) {
            problems.push(format!(
                "bulk copy of {n} bytes: the size of a bulk copy must be a multiple of 16"
            ));
        }
        for (role, r) in b.residues_16.iter().filter(|(_, r)| *r != 0) {
            problems.push(format!(
                "the {role} address of a bulk copy is {r} bytes past a 16-byte boundary: it must be 16-byte aligned"
            ));
        }
        if problems.is_empty() {
            continue;
        }
        let message = problems.remove(0);
        out.push(Finding {
            access: i,
            message,
            label: "breaks the 16-byte rules of bulk copies".into(),
            secondary: Vec::new(),
            notes: problems,
            help: Some(
                "copy a multiple of 16 bytes between 16-byte aligned addresses: pad the size, copy a tail \
                 with ordinary loads, declare the shared buffer `__align__(16)`"
                    .into(),
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::model::{AccessOp, BulkFacts, MemKind, Pattern, Space};
    use crate::lints::testing::{access, kernel, run};

    const TEXT: &str = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 1000, [%r2];\n";

    fn copy(bytes: Option<u64>, residues: Vec<(String, i64)>) -> crate::analysis::model::Access {
        let mut a = access(
            TEXT,
            TEXT.trim_end(),
            AccessOp::Load,
            Space::Global,
            8,
            Pattern::Broadcast,
        );
        a.kind = MemKind::BulkCopy;
        a.bulk = Some(BulkFacts {
            bytes,
            residues_16: residues,
            ..Default::default()
        });
        a
    }

    #[test]
    fn sizes_and_addresses_off_the_16_byte_grid_fire() {
        let f = run(
            check,
            TEXT,
            &kernel(vec![copy(Some(1000), vec![("destination".into(), 8)])]),
        );
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].message,
            "bulk copy of 1000 bytes: the size of a bulk copy must be a multiple of 16"
        );
        assert_eq!(f[0].notes.len(), 1);
    }

    #[test]
    fn aligned_or_unknown_copies_are_quiet() {
        let quiet = vec![
            copy(Some(1024), vec![("destination".into(), 0)]),
            copy(None, Vec::new()),
        ];
        assert!(run(check, TEXT, &kernel(quiet)).is_empty());
    }
}
