//! `expect-tx-mismatch` (W109).

use super::{Finding, LintContext};

crate::declare_lint! {
    /// ## What it finds
    ///
    /// An mbarrier whose expected transaction bytes (`mbarrier.expect_tx`,
    /// `mbarrier.arrive.expect_tx`) differ from the bytes of the bulk copies
    /// that complete on it.
    ///
    /// Precisely: for each `expect_tx` with a constant byte count, the bulk
    /// copies with a constant size that signal the same mbarrier operand
    /// (`mbarrier::complete_tx::bytes`, the same register or variable and
    /// offset) after it and before the next `expect_tx` on that mbarrier, in
    /// PTX order; when every such copy's size is known and their sum is not
    /// the expected count, the first copy is reported.
    ///
    /// ## Why it costs
    ///
    /// The phase of the mbarrier completes when the bytes it expects have
    /// arrived. Expecting more bytes than the copies deliver leaves every
    /// thread waiting on the barrier forever (the kernel hangs); expecting
    /// fewer lets the phase complete while a copy is still writing, and the
    /// consumers read stale shared memory.
    ///
    /// ## Example
    ///
    /// ```cuda
    /// // two 4 KB tiles, but the barrier expects one
    /// cuda::device::barrier_arrive_tx(bar, 1, 4096);
    /// cp_async_bulk(a_tile, a, 4096, bar);
    /// cp_async_bulk(b_tile, b, 4096, bar);
    /// ```
    ///
    /// ```text
    /// warning[W109]: the mbarrier `bar` expects 4096 bytes, but its
    ///   copies deliver 8192
    /// ```
    ///
    /// ## How to fix it
    ///
    /// Make the expected count the sum of the bytes of every copy that
    /// completes on the barrier in that phase (`sizeof` of each tile, or the
    /// tensor map's box size for tensor copies).
    ///
    /// ## Known limits
    ///
    /// Copies and `expect_tx` are matched by their mbarrier operand as
    /// written, in PTX order, not along control-flow paths: copies issued in
    /// a loop, or on another path, are not added up, and a barrier reached
    /// through two different registers is two barriers. Tensor copies have
    /// no size in the PTX: a phase that includes one is not checked.
    pub static EXPECT_TX_MISMATCH = { code: "W109", name: "expect-tx-mismatch", level: Warn };
}

/// Reports mbarriers whose expected bytes differ from their copies' bytes.
pub fn check(cx: &LintContext<'_>) -> Vec<Finding> {
    let k = cx.kernel;
    let mut out = Vec::new();
    for (t, tx) in k.expect_tx.iter().enumerate() {
        let (Some(bar), Some(expected)) = (&tx.mbarrier, tx.bytes) else {
            continue;
        };
        let end = k.expect_tx[t + 1..]
            .iter()
            .find(|n| n.mbarrier.as_ref() == Some(bar))
            .map(|n| n.span.start)
            .unwrap_or(u32::MAX);
        let copies: Vec<usize> = k
            .accesses
            .iter()
            .enumerate()
            .filter(|(_, a)| {
                a.span.start > tx.span.start
                    && a.span.start < end
                    && a.bulk
                        .as_ref()
                        .is_some_and(|b| b.mbarrier.as_ref() == Some(bar))
            })
            .map(|(i, _)| i)
            .collect();
        let Some(&first) = copies.first() else {
            continue;
        };
        let sizes: Option<Vec<u64>> = copies
            .iter()
            .map(|&i| k.accesses[i].bulk.as_ref().and_then(|b| b.bytes))
            .collect();
        let Some(sizes) = sizes else { continue };
        let delivered: u64 = sizes.iter().sum();
        if delivered == expected {
            continue;
        }
        let consequence = if delivered < expected {
            "the phase never completes: the threads waiting on it hang"
        } else {
            "the phase completes before every copy has landed: readers may see stale shared memory"
        };
        out.push(Finding {
            access: first,
            message: format!(
                "the mbarrier `{bar}` expects {expected} bytes, but its copies deliver {delivered}"
            ),
            label: format!(
                "{} cop{} of {} bytes complete on `{bar}`",
                copies.len(),
                if copies.len() == 1 { "y" } else { "ies" },
                sizes
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(" + ")
            ),
            secondary: vec![(tx.span, format!("expects {expected} bytes"))],
            notes: vec![consequence.to_string()],
            help: Some(format!(
                "expect the sum of the copies' bytes ({delivered}), or issue the copies the count assumes"
            )),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::model::{AccessOp, BulkFacts, ExpectTx, MemKind, Pattern, Space};
    use crate::lints::testing::{access, kernel, run};
    use crate::source::{LineCol, Span};

    const TEXT: &str = "mbarrier.arrive.expect_tx.shared.b64 %rd9, [bar], 4096;\ncp.async.bulk A;\ncp.async.bulk B;\n";

    fn copy(line: &str, bytes: u64) -> crate::analysis::model::Access {
        let mut a = access(
            TEXT,
            line,
            AccessOp::Load,
            Space::Global,
            8,
            Pattern::Broadcast,
        );
        a.kind = MemKind::BulkCopy;
        a.bulk = Some(BulkFacts {
            bytes: Some(bytes),
            mbarrier: Some("bar".into()),
            ..Default::default()
        });
        a
    }

    fn with_tx(expected: u64) -> crate::analysis::model::KernelAnalysis {
        let mut k = kernel(vec![
            copy("cp.async.bulk A;", 4096),
            copy("cp.async.bulk B;", 4096),
        ]);
        k.expect_tx.push(ExpectTx {
            span: Span::new(0, 10),
            ptx: LineCol { line: 1, column: 1 },
            mbarrier: Some("bar".into()),
            bytes: Some(expected),
        });
        k
    }

    #[test]
    fn two_copies_against_one_expected_tile_fire() {
        let f = run(check, TEXT, &with_tx(4096));
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].message,
            "the mbarrier `bar` expects 4096 bytes, but its copies deliver 8192"
        );
        assert_eq!(f[0].access, 0);
    }

    #[test]
    fn matching_counts_are_quiet() {
        assert!(run(check, TEXT, &with_tx(8192)).is_empty());
    }
}
