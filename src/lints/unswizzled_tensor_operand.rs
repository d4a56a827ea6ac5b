//! `unswizzled-tensor-operand` (W110).

use super::{Finding, LintContext};

crate::declare_lint! {
    /// ## What it finds
    ///
    /// `wgmma` operands read from shared memory through a matrix descriptor
    /// whose swizzle mode is "none" (the interleaved layout), when the
    /// descriptor's fields are known from the PTX.
    ///
    /// ## Why it costs
    ///
    /// Without a swizzle, the tensor cores read the operand as 8x16-byte
    /// core matrices spread by the leading and stride byte offsets; the
    /// shared-memory tile then has to be written in that interleaved layout,
    /// which the copies that fill it (`cp.async`, TMA) write with bank
    /// conflicts or in many small pieces. A 32-, 64- or 128-byte swizzle lets
    /// a TMA copy write whole rows conflict-free and the tensor cores read
    /// them at full bandwidth; CUTLASS and Triton use the widest swizzle
    /// that the tile's contiguous dimension allows.
    ///
    /// ## Example
    ///
    /// ```text
    /// // descriptor bits 62-63 = 0: no swizzle
    /// or.b64 %rd20, %rd19, 4294967296;    // SBO 256 (bits 32-45 = 16), LBO 0
    /// wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {...}, %rd20, %rd21, p, 1, 1, 0, 0;
    /// ```
    ///
    /// ```text
    /// warning[W110]: wgmma operand a uses no swizzle: its shared-memory tile
    ///   is read as interleaved 8x16-byte core matrices
    /// ```
    ///
    /// ## How to fix it
    ///
    /// Store the tile with the 128-byte swizzle when its contiguous dimension
    /// spans 128 bytes (64 `half` values), 64-byte or 32-byte otherwise: set
    /// the tensor map's swizzle (`CU_TENSOR_MAP_SWIZZLE_128B`) and the
    /// descriptor's bits 62–63 to match (1 = 128B, 2 = 64B, 3 = 32B), with
    /// the shared buffer aligned to 1024 bytes.
    ///
    /// ## Known limits
    ///
    /// Only descriptors whose swizzle bits the analysis decodes (built from
    /// constants in registers defined once) are checked. A tile whose
    /// contiguous dimension is only 16 bytes has no swizzle to choose; the
    /// lint cannot see the tile's shape and reports it all the same.
    pub static UNSWIZZLED_TENSOR_OPERAND = { code: "W110", name: "unswizzled-tensor-operand", level: Warn };
}

/// Reports `wgmma` descriptors decoded with swizzle mode "none".
pub fn check(cx: &LintContext<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, a) in cx.kernel.accesses.iter().enumerate() {
        for d in &a.descriptors {
            if d.swizzle.as_deref() != Some("none") {
                continue;
            }
            let mut notes = Vec::new();
            if let (Some(l), Some(s)) = (d.leading_byte_offset, d.stride_byte_offset) {
                notes.push(format!(
                    "descriptor of operand {}: leading byte offset {l}, stride byte offset {s}, no swizzle",
                    d.operand
                ));
            }
            out.push(Finding {
                access: i,
                message: format!(
                    "wgmma operand {} uses no swizzle: its shared-memory tile is read as interleaved 8x16-byte core matrices",
                    d.operand
                ),
                label: format!("operand {}: swizzle none", d.operand),
                secondary: Vec::new(),
                notes,
                help: Some(
                    "store the tile with the widest swizzle its contiguous dimension allows (128-byte for 64 halves) \
                     and set the descriptor's bits 62-63 to match (1 = 128B, 2 = 64B, 3 = 32B)"
                        .into(),
                ),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::model::{AccessOp, MatrixDescriptor, MemKind, Pattern, Space};
    use crate::lints::testing::{access, kernel, run};

    const TEXT: &str =
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {}, %rd20, %rd21, p, 1, 1, 0, 0;\n";

    fn op(swizzle: Option<&str>) -> crate::analysis::model::Access {
        let mut a = access(
            TEXT,
            TEXT.trim_end(),
            AccessOp::Load,
            Space::Shared,
            0,
            Pattern::Unknown,
        );
        a.kind = MemKind::TensorOperand;
        a.descriptors = vec![MatrixDescriptor {
            operand: "a".into(),
            swizzle: swizzle.map(str::to_string),
            leading_byte_offset: Some(0),
            stride_byte_offset: Some(256),
            ..Default::default()
        }];
        a
    }

    #[test]
    fn no_swizzle_fires_and_swizzled_or_unknown_is_quiet() {
        let f = run(check, TEXT, &kernel(vec![op(Some("none"))]));
        assert_eq!(f.len(), 1);
        assert!(f[0].message.starts_with("wgmma operand a uses no swizzle"));
        assert!(run(check, TEXT, &kernel(vec![op(Some("128B")), op(None)])).is_empty());
    }
}
