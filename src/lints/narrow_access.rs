//! `narrow-access` (W103).

use super::{
    bytes_per_lane, is_contiguous, is_global_like, op_word, standard_notes, Finding, LintContext,
};
use crate::analysis::model::{Access, AccessOp, Space};
use std::collections::BTreeMap;

crate::declare_lint! {
    /// ## What it finds
    ///
    /// Accesses that move less data per instruction than they could: under 4
    /// bytes per lane, or adjacent scalar accesses that one vector access
    /// would serve.
    ///
    /// Precisely:
    ///
    /// * contiguous global accesses of fewer than 4 bytes per lane (`u8`,
    ///   `u16`, `f16`), where each warp request carries 32 or 64 bytes instead
    ///   of 128;
    /// * two or four scalar loads (or stores) of the same base register at
    ///   consecutive constant offsets, in straight-line code, that one vector
    ///   access (`.v2`, `.v4`) could replace.
    ///
    /// ## Why it costs
    ///
    /// Every warp instruction is one request through the load/store unit, and
    /// the number of requests, not only the bytes, limits throughput. A warp
    /// loading one byte per lane needs four times the requests of one loading
    /// four bytes per lane for the same data; two adjacent `ld.global.f32` of
    /// a `float2` issue two requests and touch each sector twice where one
    /// `ld.global.v2.f32` would do.
    ///
    /// ## Example
    ///
    /// ```cuda
    /// // each thread reads one byte
    /// out[i] = lut[in[i]];            // in is unsigned char*
    /// // two scalar loads of one float2
    /// float x = p[2 * i], y = p[2 * i + 1];
    /// ```
    ///
    /// ```text
    /// warning[W103]: 2 scalar loads of 4 bytes at consecutive offsets
    ///   from `%rd4` could be one 8-byte vector load
    /// ```
    ///
    /// ## How to fix it
    ///
    /// Have each thread handle 4 (or 16) bytes: read `uchar4`/`char4`/`short2`
    /// and unpack, or process several elements per thread. For adjacent
    /// fields, load the whole `float2`/`float4` (or `reinterpret_cast` the
    /// pointer to one) so the compiler emits `ld.global.v2`/`.v4`; the address
    /// must then be aligned to the vector's size.
    ///
    /// ## Known limits
    ///
    /// Adjacent scalar accesses are matched by their address operand
    /// (`[%rd4]`, `[%rd4+4]`: the same base register) and by lane strides that keep every lane's pair
    /// aligned to the vector size; accesses separated by a label are not
    /// grouped. Narrow accesses that are not contiguous are left to
    /// `uncoalesced-access`. Adjacent accesses that ptxas already merges
    /// into one vector access (it proves the alignment: a shared array's
    /// offset, `16*tid`) are not reported: the SASS has the vector access.
    pub static NARROW_ACCESS = { code: "W103", name: "narrow-access", level: Warn };
}

/// Reports narrow contiguous accesses and groups of scalar accesses that could be vectorised.
pub fn check(cx: &LintContext<'_>) -> Vec<Finding> {
    let mut out = vector_groups(cx);
    let grouped: Vec<usize> = out.iter().map(|f| f.access).collect();
    for (i, a) in cx.kernel.accesses.iter().enumerate() {
        let bytes = bytes_per_lane(a);
        if bytes == 0
            || bytes >= 4
            || a.op == AccessOp::Atomic
            || !is_global_like(a)
            || !is_contiguous(a.pattern)
            || grouped.contains(&i)
        {
            continue;
        }
        let per_thread = 4 / bytes;
        let hint = if bytes == 1 {
            "a `uchar4` or `char4`"
        } else {
            "a `short2`, `ushort2` or `half2`"
        };
        out.push(Finding {
            access: i,
            message: format!(
                "narrow {}: {} byte{} per lane; a warp request carries {} bytes where a 4-byte access per lane would carry 128",
                op_word(a.op),
                bytes,
                if bytes == 1 { "" } else { "s" },
                32 * bytes
            ),
            label: format!("{}-bit access per lane", a.bits),
            secondary: Vec::new(),
            notes: standard_notes(a),
            help: Some(format!(
                "have each thread handle {per_thread} consecutive elements with one 4-byte access: {} {} and unpacked in registers",
                hint,
                if a.op == AccessOp::Load { "loaded" } else { "packed and stored" }
            )),
        });
    }
    out.sort_by_key(|f| f.access);
    out
}

/// (op, space, bits, base register, straight-line region) of a scalar access.
type GroupKey<'a> = (u8, u8, u32, &'a str, u32);

/// Groups of scalar accesses at consecutive offsets from one base register.
fn vector_groups(cx: &LintContext<'_>) -> Vec<Finding> {
    let mut groups: BTreeMap<GroupKey<'_>, Vec<(i64, usize)>> = BTreeMap::new();
    for (i, a) in cx.kernel.accesses.iter().enumerate() {
        // Accesses ptxas already merges into a vector access
        // (`analysis::merge`) need no advice.
        if a.op == AccessOp::Atomic
            || !a.kind.is_lsu_scalar()
            || a.caveats.iter().any(|c| c.is_ptxas_merge())
            || a.facts.vector > 1
            || !(is_global_like(a) || a.space == Space::Shared)
            || !matches!(a.bits, 8 | 16 | 32 | 64)
        {
            continue;
        }
        let Some((base, off)) = &a.facts.address else {
            continue;
        };
        let key = (
            a.op as u8,
            a.space as u8,
            a.bits,
            base.as_str(),
            a.facts.label_region,
        );
        groups.entry(key).or_default().push((*off, i));
    }
    let mut out = Vec::new();
    for ((_, _, bits, base, _), mut members) in groups {
        members.sort();
        members.dedup_by_key(|m| m.0);
        let e = (bits / 8) as i64;
        let mut used = vec![false; members.len()];
        for n in [4usize, 2] {
            if e * n as i64 > 16 {
                continue;
            }
            let width = e * n as i64;
            for s in 0..members.len() {
                if used[s] || s + n > members.len() || members[s].0.rem_euclid(width) != 0 {
                    continue;
                }
                let run = &members[s..s + n];
                let consecutive = run.windows(2).all(|w| w[1].0 - w[0].0 == e);
                if !consecutive || used[s..s + n].iter().any(|&u| u) {
                    continue;
                }
                let accs: Vec<&Access> = run.iter().map(|&(_, i)| &cx.kernel.accesses[i]).collect();
                let aligned_lanes = accs
                    .iter()
                    .all(|a| a.stride_bytes.is_some_and(|st| st.rem_euclid(width) == 0));
                if !aligned_lanes {
                    continue;
                }
                used[s..s + n].iter_mut().for_each(|u| *u = true);
                let first = run.iter().map(|&(_, i)| i).min().unwrap_or(run[0].1);
                let a = &cx.kernel.accesses[first];
                let ty = a.facts.element_type.as_deref().unwrap_or("b32");
                let space = match a.space {
                    Space::Generic => "",
                    s => s.as_str(),
                };
                let opcode = if a.op == AccessOp::Store { "st" } else { "ld" };
                let mnemonic = if space.is_empty() {
                    format!("{opcode}.v{n}.{ty}")
                } else {
                    format!("{opcode}.{space}.v{n}.{ty}")
                };
                out.push(Finding {
                    access: first,
                    message: format!(
                        "{n} scalar {}s of {e} bytes at consecutive offsets from `{base}` could be one {width}-byte vector {}",
                        op_word(a.op),
                        op_word(a.op)
                    ),
                    label: format!("first of {n} adjacent {}s", op_word(a.op)),
                    secondary: run
                        .iter()
                        .filter(|&&(_, i)| i != first)
                        .map(|&(off, i)| (cx.kernel.accesses[i].span, format!("offset {off}")))
                        .collect(),
                    notes: standard_notes(a),
                    help: Some(format!(
                        "use one `{mnemonic}` (in CUDA: access a {}{n} or reinterpret_cast the pointer to one); \
                         the address must be aligned to {width} bytes",
                        cuda_vec_type(ty)
                    )),
                });
            }
        }
    }
    out
}

fn cuda_vec_type(ty: &str) -> &'static str {
    match ty {
        "f32" => "float",
        "f64" => "double",
        "s32" => "int",
        "u32" | "b32" => "uint",
        "s64" => "longlong",
        "u64" | "b64" => "ulonglong",
        "s16" => "short",
        "u16" | "b16" => "ushort",
        "s8" => "char",
        _ => "uchar",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::model::Pattern;
    use crate::lints::testing::{access, kernel, run};

    const PAIR: &str = "ld.global.f32 %f1, [%rd4];\nld.global.f32 %f2, [%rd4+4];\n";

    fn pair(text: &str) -> Vec<Access> {
        let mut v = Vec::new();
        for l in text.lines() {
            let mut a = access(text, l, AccessOp::Load, Space::Global, 32, Pattern::Strided);
            a.stride_bytes = Some(8);
            v.push(a);
        }
        v
    }

    #[test]
    fn adjacent_scalars_fire_once() {
        let f = run(check, PAIR, &kernel(pair(PAIR)));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].access, 0);
        assert!(
            f[0].message.starts_with("2 scalar loads of 4 bytes"),
            "{}",
            f[0].message
        );
        assert!(f[0].help.as_ref().unwrap().contains("ld.global.v2.f32"));
        assert_eq!(f[0].secondary.len(), 1);
    }

    #[test]
    fn a_label_between_or_misaligned_lanes_keep_quiet() {
        let text = "ld.global.f32 %f1, [%rd4];\n$L1:\nld.global.f32 %f2, [%rd4+4];\n";
        let accs: Vec<Access> = ["ld.global.f32 %f1, [%rd4];", "ld.global.f32 %f2, [%rd4+4];"]
            .iter()
            .enumerate()
            .map(|(k, l)| {
                let mut a = access(text, l, AccessOp::Load, Space::Global, 32, Pattern::Strided);
                a.stride_bytes = Some(8);
                // the label starts a new straight-line region
                a.facts.label_region = k as u32;
                a
            })
            .collect();
        let f = run(check, text, &kernel(accs.clone()));
        assert!(f.is_empty(), "{f:?}");
        // Without the label (the same region) the pair fires.
        let mut same = accs;
        same[1].facts.label_region = 0;
        assert_eq!(run(check, text, &kernel(same)).len(), 1);
        let mut accs = pair(PAIR);
        for a in &mut accs {
            a.stride_bytes = Some(12);
        }
        assert!(run(check, PAIR, &kernel(accs)).is_empty());
    }

    #[test]
    fn byte_per_lane_fires_and_word_is_quiet() {
        let text = "ld.global.u8 %rs1, [%rd4];\n";
        let a = access(
            text,
            "ld.global.u8 %rs1, [%rd4];",
            AccessOp::Load,
            Space::Global,
            8,
            Pattern::Coalesced,
        );
        let f = run(check, text, &kernel(vec![a.clone()]));
        assert_eq!(f.len(), 1);
        assert!(f[0].help.as_ref().unwrap().contains("uchar4"));
        let mut w = a;
        w.bits = 32;
        assert!(run(check, text, &kernel(vec![w])).is_empty());
    }
}
