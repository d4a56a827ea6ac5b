//! Launch facts: the block shape, the grid, parameter values, and the warps of
//! a block.
//!
//! # Where facts come from
//!
//! For each kernel, in decreasing priority: the first per-kernel entry of
//! `Options::kernels` whose glob matches the mangled or demangled name, then
//! `Options::launch` (the command line), then the kernel's own `.reqntid`
//! (a requirement: the launch must use it) and `.maxntid` (an upper bound that
//! nvcc writes for `__launch_bounds__`: used when nothing else is known, with
//! a caveat). `.maxntid` bounds the thread count only: when the kernel tests
//! a dimension of `%ntid` for equality with one constant (`if (blockDim.y !=
//! 6) return;`), the shape takes the tested values within that count
//! (`.maxntid 192` and `%ntid.y == 6` give 32×6×1), with its own caveat. Without any of them the block is *assumed* 1-D with a size that
//! is a multiple of 32 (`KernelAnalysis::block_assumed`).
//!
//! The block shape is validated here, once: [`resolve`] returns a
//! [`BlockShape`], either `Known` (every dimension at least 1; directive
//! values clamped to 1..=1024) or `Assumed1D`; nothing after it re-derives or
//! clamps the shape.
//!
//! Parameters are given by index or by PTX name (the full name, or the part
//! after `_param_`).
//!
//! # Warps and warp classes
//!
//! Lanes map to threads x-fastest, as the hardware does: thread `t = 32·w + l`
//! of warp `w` has `tid = (t mod X, (t / X) mod Y, t / (X·Y))`. A 16×16 block
//! puts two rows in a warp. Warps whose lane offsets `tid(l) - tid(0)` and
//! existing-lane masks are equal form one [`WarpClass`]; the dataflow runs once
//! per class, with `%tid` = `TidBase` + offsets, where `TidBase` is a uniform
//! symbol known modulo the gcd of the class's warp bases (or exactly, for a
//! class of one warp). A block of at most 1024 threads has at most 32 warps, so
//! at most 32 classes; a 1-D block whose size is a multiple of 32 has one.

use super::domain::{Cong, Lanes, WARP};
use super::model::{Caveat, KernelAnalysis, LaunchConfig, Options, ParamKey, ParamValue};
use crate::ir::Function;

/// The block shape of a launch, validated once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockShape {
    /// Given by an option, the configuration or a directive; every
    /// dimension is at least 1.
    Known([u32; 3]),
    /// Nothing gave it: a 1-D block whose size is a multiple of 32.
    Assumed1D,
}

impl BlockShape {
    /// A known shape from raw dimensions: each clamped to 1..=1024.
    pub fn known(dims: [u64; 3]) -> BlockShape {
        BlockShape::Known(dims.map(|d| d.clamp(1, 1024) as u32))
    }

    /// The dimensions reported for the block (`[32, 1, 1]` when assumed).
    pub fn dims(self) -> [u32; 3] {
        match self {
            BlockShape::Known(d) => d,
            BlockShape::Assumed1D => [32, 1, 1],
        }
    }

    /// True when no launch fact gave the shape.
    pub fn is_assumed(self) -> bool {
        self == BlockShape::Assumed1D
    }

    /// `%ntid` per dimension: known, or (assumed) unknown in x and 1 in y, z.
    pub fn ntid(self) -> [Option<i64>; 3] {
        match self {
            BlockShape::Known(d) => d.map(|d| Some(d as i64)),
            BlockShape::Assumed1D => [None, Some(1), Some(1)],
        }
    }
}

/// Resolved launch facts of one kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// Block shape.
    pub block: BlockShape,
    /// Grid, when given.
    pub grid: Option<[u32; 3]>,
    /// Parameter values by index.
    pub params: Vec<Option<i64>>,
    /// Values of fields of by-value (struct) parameters: (parameter index,
    /// byte offset, value), given as `--param INDEX+OFFSET=VALUE` or
    /// `NAME+OFFSET=VALUE`; the value read by an `ld.param` at that offset.
    pub fields: Vec<(u16, i64, i64)>,
    /// What was assumed.
    pub caveats: Vec<Caveat>,
}

fn glob_matches(glob: &str, names: &[&str]) -> bool {
    match globset::Glob::new(glob) {
        Ok(g) => {
            let m = g.compile_matcher();
            names.iter().any(|n| m.is_match(n))
        }
        Err(_) => names.contains(&glob),
    }
}

/// True when a kernel name matches a glob (mangled or demangled name, or the
/// demangled name without its parameter list).
pub fn kernel_matches(glob: &str, name: &str, demangled: &str) -> bool {
    let short = short_name(demangled);
    glob_matches(glob, &[name, demangled, short])
}

/// `stride_f32<2>` for `void stride_f32<2>(float const*, float*, int)`: the
/// demangled name without return type and parameter list.
pub fn short_name(demangled: &str) -> &str {
    let mut depth = 0i32;
    let mut start = 0;
    for (i, ch) in demangled.char_indices() {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            ' ' if depth == 0 => start = i + 1,
            '(' if depth == 0 => return &demangled[start..i],
            _ => {}
        }
    }
    &demangled[start..]
}

/// Resolves the launch facts of a kernel.
pub fn resolve(func: &Function<'_>, opts: &Options) -> Launch {
    let (name, demangled) = (func.name, func.demangled.as_str());
    let per_kernel: Option<&LaunchConfig> = opts
        .kernels
        .iter()
        .find(|(g, _)| kernel_matches(g, name, demangled))
        .map(|(_, c)| c);
    let mut caveats = Vec::new();
    let block = if let Some(b) = per_kernel.and_then(|c| c.block).or(opts.launch.block) {
        BlockShape::Known(b.map(|d| d.max(1)))
    } else if let Some(b) = func.launch.reqntid {
        BlockShape::known(b)
    } else if let Some(b) = func.launch.maxntid {
        let block = BlockShape::known(b);
        let b = block.dims();
        match shape_from_tests(b, ntid_tests(func)) {
            Some(dims) if dims != b => {
                caveats.push(Caveat::BlockFromTests { dims, maxntid: b });
                BlockShape::Known(dims)
            }
            _ => {
                caveats.push(Caveat::BlockFromMaxntid { dims: b });
                block
            }
        }
    } else {
        caveats.push(Caveat::BlockAssumed1D);
        BlockShape::Assumed1D
    };
    let grid = per_kernel
        .and_then(|c| c.grid)
        .or(opts.launch.grid)
        .map(|g| g.map(|d| d.max(1)));
    let mut params = vec![None; func.params.len()];
    let mut fields: Vec<(u16, i64, i64)> = Vec::new();
    let names = func.param_names();
    let index_of = |n: &str| {
        n.parse::<usize>().ok().or_else(|| {
            names.iter().position(|p| {
                *p == n
                    || p.rsplit_once("_param_")
                        .map(|(_, s)| s == n)
                        .unwrap_or(false)
            })
        })
    };
    let mut ignored = Vec::new();
    let mut apply = |list: &[(ParamKey, ParamValue)]| {
        for (k, v) in list {
            let (idx, offset) = match k {
                ParamKey::Index(i) => (Some(*i), 0),
                ParamKey::Name(n) => match field_key(n) {
                    Some((base, off)) => (index_of(base), off),
                    None => (index_of(n), 0),
                },
            };
            let Some(i) = idx.filter(|&i| i < params.len()) else {
                continue;
            };
            // A field's type is the `ld.param`'s, not the parameter's (an
            // `.align 8 .b8 p[24]` array): fields take integers only.
            let ty = if offset == 0 { func.params[i].ty } else { None };
            let Some(bits) = v
                .bits_for(ty)
                .filter(|_| offset == 0 || matches!(v, ParamValue::Int(_)))
            else {
                ignored.push(Caveat::ParamValueIgnored {
                    param: if offset == 0 {
                        names.get(i).copied().unwrap_or("?").to_string()
                    } else {
                        format!("{}+{offset}", names.get(i).copied().unwrap_or("?"))
                    },
                    value: v.to_string(),
                    ty: ty.unwrap_or("field").to_string(),
                });
                continue;
            };
            if offset == 0 {
                // Offset 0 is the parameter's own value (`ld.param` of it
                // reads `params`, never `fields`).
                params[i] = Some(bits);
            } else {
                fields.retain(|&(p, o, _)| (p as usize, o) != (i, offset));
                fields.push((i as u16, offset, bits));
            }
        }
    };
    apply(&opts.launch.params);
    if let Some(c) = per_kernel {
        apply(&c.params);
    }
    caveats.extend(ignored);
    Launch {
        block,
        grid,
        params,
        fields,
        caveats,
    }
}

/// `KEY+OFFSET` (a field of a by-value parameter, OFFSET in bytes, decimal
/// or `0x` hex): the key and the offset.
fn field_key(n: &str) -> Option<(&str, i64)> {
    let (base, off) = n.rsplit_once('+')?;
    let off = off.trim();
    let off = match off.strip_prefix("0x").or_else(|| off.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None => off.parse::<i64>().ok()?,
    };
    (off >= 0 && !base.trim().is_empty()).then_some((base.trim(), off))
}

/// The value each `%ntid` dimension is compared with for equality
/// (`setp.eq`/`setp.ne` with a constant), when the kernel tests it against
/// one value only: `if (blockDim.y != 6) return;` of a kernel whose
/// `__launch_bounds__(192)` gave only the thread count. The register read of
/// `%ntid` must have one definition (a `mov` or `cvt` of it).
fn ntid_tests(func: &Function<'_>) -> [Option<u32>; 3] {
    use crate::ir::alu::{AluOp, Cmp};
    use crate::ir::{OpKind, Special, Src};
    let mut defs: std::collections::HashMap<u32, (u32, Option<u8>)> = Default::default();
    for op in &func.ops {
        for d in op.kind.dsts() {
            let e = defs.entry(d).or_insert((0, None));
            e.0 += 1;
            if let OpKind::Alu { alu, srcs, .. } = &op.kind {
                if matches!(alu.op, AluOp::Mov | AluOp::Cvt(_)) {
                    if let [Src::Special(Special::Ntid(k))] = srcs.as_slice() {
                        e.1 = Some(*k);
                    }
                }
            }
        }
    }
    let dim_of = |s: &Src| match s {
        Src::Special(Special::Ntid(k)) => Some(*k),
        Src::Reg(r, 0) => match defs.get(r) {
            Some(&(1, Some(k))) => Some(k),
            _ => None,
        },
        _ => None,
    };
    let mut seen: [Option<Result<u32, ()>>; 3] = [None; 3];
    for op in &func.ops {
        let OpKind::Alu { alu, srcs, .. } = &op.kind else {
            continue;
        };
        if !matches!(alu.op, AluOp::Setp(Cmp::Eq | Cmp::Ne, _)) {
            continue;
        }
        let (d, c) = match srcs.as_slice() {
            [a, Src::Imm(c), ..] | [Src::Imm(c), a, ..] => match dim_of(a) {
                Some(d) => (d, *c),
                None => continue,
            },
            _ => continue,
        };
        let Some(slot) = seen.get_mut(d as usize) else {
            continue;
        };
        let c = if (1..=1024).contains(&c) {
            Ok(c as u32)
        } else {
            Err(())
        };
        *slot = match *slot {
            None => Some(c),
            Some(Ok(v)) if c == Ok(v) => Some(Ok(v)),
            _ => Some(Err(())),
        };
    }
    seen.map(|s| s.and_then(Result::ok))
}

/// A block shape within `.maxntid`'s thread count that agrees with the
/// kernel's tests of `%ntid`: tested dimensions take the tested value, an
/// untested `x` the rest of the thread count, untested `y`/`z` 1. `None`
/// when nothing is tested or the values do not fit.
fn shape_from_tests(maxntid: [u32; 3], tests: [Option<u32>; 3]) -> Option<[u32; 3]> {
    if tests.iter().all(Option::is_none) {
        return None;
    }
    let total: u32 = maxntid.iter().product();
    let y = tests[1].unwrap_or(1);
    let z = tests[2].unwrap_or(1);
    let x = match tests[0] {
        Some(x) => x,
        None if total.is_multiple_of(y * z) => total / (y * z),
        None => return None,
    };
    (x >= 1 && x * y * z <= total).then_some([x, y, z])
}

/// A set of warps of the block whose lanes have the same thread-index offsets.
#[derive(Clone, Debug, PartialEq)]
pub struct WarpClass {
    /// `tid(l) - tid(0)` per dimension.
    pub offsets: [Lanes; 3],
    /// Congruence of `tid(0)` per dimension over the class's warps (exact for one warp).
    pub base: [Cong; 3],
    /// Least and greatest `tid(0)` per dimension over the class's warps.
    pub base_range: [(i64, i64); 3],
    /// Lanes that exist (a partial last warp has fewer).
    pub exists: u32,
    /// Warps of the block in this class.
    pub weight: u32,
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The one warp class of the kernel as ptxas sees it when nothing gives
/// the block shape: `tid.x = TidBase.x + l` with `TidBase.x ≡ 0 (mod 32)`
/// as in [`warp_classes`]' assumed block, but `%tid.y` and `%tid.z` of
/// unknown value (`TidBase.y`, `TidBase.z`, no congruence) instead of 0:
/// ptxas compiles without assuming a 1-D block, so `tile + 36 * tid.y` is
/// only 4-byte aligned to it (`merge`'s plan, `tests/hw/blind18`
/// `dct8x8_jpeg`). The lane offsets of y and z are zero: the alignment of
/// `c * tid.y` is that of `c` whether `tid.y` varies across the warp or not.
pub fn ptxas_view_class() -> WarpClass {
    let mut c = warp_classes(BlockShape::Assumed1D).remove(0);
    c.base[1] = Cong::TOP;
    c.base[2] = Cong::TOP;
    c.base_range[1] = (0, 1023);
    c.base_range[2] = (0, 63);
    c
}

/// The warp classes of a block (see the module essay). For an assumed block:
/// one class, `tid.x = TidBase.x + l` with `TidBase.x ≡ 0 (mod 32)`.
pub fn warp_classes(block: BlockShape) -> Vec<WarpClass> {
    let iota: Lanes = std::array::from_fn(|l| l as i64);
    let block = match block {
        BlockShape::Known(d) => d,
        BlockShape::Assumed1D => {
            return vec![WarpClass {
                offsets: [iota, [0; WARP], [0; WARP]],
                base: [Cong::modulo(32, 0), Cong::exact(0), Cong::exact(0)],
                // a block has at most 1,024 threads
                base_range: [(0, 1024 - WARP as i64), (0, 0), (0, 0)],
                exists: u32::MAX,
                weight: 1,
            }];
        }
    };
    let [bx, by, bz] = block.map(|d| d as u64);
    let n = bx.saturating_mul(by).saturating_mul(bz).min(1 << 20);
    let nwarps = n.div_ceil(WARP as u64);
    let mut classes: Vec<(WarpClass, Vec<[u64; 3]>)> = Vec::new();
    for w in 0..nwarps {
        let mut offs = [[0i64; WARP]; 3];
        let mut exists = 0u32;
        let tid = |t: u64| [t % bx, (t / bx) % by, t / (bx * by)];
        let base = tid(w * WARP as u64);
        for (l, _) in iota.iter().enumerate() {
            let t = w * WARP as u64 + l as u64;
            if t < n {
                exists |= 1 << l;
                let v = tid(t);
                for d in 0..3 {
                    offs[d][l] = v[d] as i64 - base[d] as i64;
                }
            }
        }
        match classes
            .iter_mut()
            .find(|(c, _)| c.offsets == offs && c.exists == exists)
        {
            Some((c, bases)) => {
                c.weight += 1;
                bases.push(base);
            }
            None => classes.push((
                WarpClass {
                    offsets: offs,
                    base: [Cong::TOP; 3],
                    base_range: [(0, 0); 3],
                    exists,
                    weight: 1,
                },
                vec![base],
            )),
        }
    }
    classes
        .into_iter()
        .map(|(mut c, bases)| {
            for d in 0..3 {
                let b0 = bases[0][d];
                let m = bases.iter().fold(0u64, |g, b| gcd(g, b[d].abs_diff(b0)));
                let lo = bases.iter().map(|b| b[d]).min().unwrap_or(b0);
                let hi = bases.iter().map(|b| b[d]).max().unwrap_or(b0);
                c.base_range[d] = (lo as i64, hi as i64);
                c.base[d] = if m == 0 {
                    Cong::exact(b0 as i64)
                } else {
                    Cong::modulo(m, b0 as i64)
                };
            }
            c
        })
        .collect()
}

/// One class per warp of a known block of at most `limit` warps (every base
/// thread index exact), for kernels whose addresses depend on which warp
/// runs; `None` for an assumed block or a larger one.
pub fn warp_classes_per_warp(block: BlockShape, limit: usize) -> Option<Vec<WarpClass>> {
    let BlockShape::Known(d) = block else {
        return None;
    };
    let [bx, by, bz] = d.map(|d| d as u64);
    let n = bx.saturating_mul(by).saturating_mul(bz);
    let nwarps = n.div_ceil(WARP as u64);
    if nwarps == 0 || nwarps > limit as u64 {
        return None;
    }
    let tid = |t: u64| [t % bx, (t / bx) % by, t / (bx * by)];
    Some(
        (0..nwarps)
            .map(|w| {
                let base = tid(w * WARP as u64);
                let mut offsets = [[0i64; WARP]; 3];
                let mut exists = 0u32;
                let first = w * WARP as u64;
                for (l, t) in (first..first + WARP as u64).enumerate() {
                    if t < n {
                        exists |= 1 << l;
                        let v = tid(t);
                        for k in 0..3 {
                            offsets[k][l] = v[k] as i64 - base[k] as i64;
                        }
                    }
                }
                WarpClass {
                    offsets,
                    base: base.map(|b| Cong::exact(b as i64)),
                    base_range: base.map(|b| (b as i64, b as i64)),
                    exists,
                    weight: 1,
                }
            })
            .collect(),
    )
}

/// Fills the launch fields of a kernel analysis.
pub fn describe(k: &mut KernelAnalysis, l: &Launch) {
    k.block = l.block.dims();
    k.block_assumed = l.block.is_assumed();
    k.grid = l.grid;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_dimensional_blocks_have_one_class() {
        let c = warp_classes(BlockShape::Known([256, 1, 1]));
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].weight, 8);
        assert_eq!(c[0].base[0], Cong::modulo(32, 0));
        assert_eq!(c[0].offsets[0][31], 31);
    }

    #[test]
    fn a_16x16_block_puts_two_rows_in_a_warp() {
        let c = warp_classes(BlockShape::Known([16, 16, 1]));
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].offsets[0][16], 0);
        assert_eq!(c[0].offsets[0][15], 15);
        assert_eq!(c[0].offsets[1][16], 1);
        assert_eq!(c[0].base[1], Cong::modulo(2, 0));
        assert_eq!(c[0].base[0], Cong::exact(0));
    }

    #[test]
    fn partial_and_irregular_warps_form_classes() {
        // 48 threads: warp 0 is x 0..31, warp 1 is x 32..47 (16 lanes).
        let c = warp_classes(BlockShape::Known([48, 1, 1]));
        assert_eq!(c.len(), 2);
        assert_eq!(c[1].exists, 0xffff);
        assert_eq!(c[1].base[0], Cong::exact(32));
        // 48x2: warp 1 is x 32..47 then x 0..15 of row 1.
        let c = warp_classes(BlockShape::Known([48, 2, 1]));
        assert_eq!(c.iter().map(|c| c.weight).sum::<u32>(), 3);
        let c = warp_classes(BlockShape::Known([8, 8, 4]));
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].offsets[1][8], 1);
        assert_eq!(c[0].weight, 8);
    }

    #[test]
    fn fields_of_a_by_value_parameter_are_given_by_byte_offset() {
        // struct { int pad[2]; int stride; } by value: a[tid * stride]
        let text = ".version 8.5\n.target sm_90\n.address_size 64\n\
            .visible .entry k(.param .align 4 .b8 k_param_0[12], .param .u64 k_param_1)\n\
            .maxntid 128, 1, 1\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<6>;\n\
            \tmov.b64 %rd1, k_param_0;\n\tld.param.u32 %r1, [%rd1+8];\n\
            \tld.param.u64 %rd2, [k_param_1];\n\tcvta.to.global.u64 %rd3, %rd2;\n\
            \tmov.u32 %r2, %tid.x;\n\tmul.lo.s32 %r3, %r2, %r1;\n\
            \tmul.wide.s32 %rd4, %r3, 4;\n\tadd.s64 %rd5, %rd3, %rd4;\n\
            \tld.global.f32 %r2, [%rd5];\n\tret;\n}\n";
        let f = &crate::pipeline::lower_text(text)[0];
        let mut o = Options::default();
        o.launch.params = vec![
            (
                ParamKey::Name("0+8".into()),
                crate::analysis::ParamValue::Int(4),
            ),
            (
                ParamKey::Name("k_param_0+0x4".into()),
                crate::analysis::ParamValue::Int(9),
            ),
        ];
        let l = resolve(f, &o);
        assert_eq!(l.params, vec![None, None]);
        assert_eq!(l.fields, vec![(0, 8, 4), (0, 4, 9)]);
        // the field's value reaches the address: a 16-byte stride
        let file = crate::source::SourceFile::new("t.ptx", text.to_string()).unwrap();
        let a = crate::analyze(&file, &o);
        assert_eq!(a.kernels[0].accesses[0].stride_bytes, Some(16));
        let a = crate::analyze(&file, &Options::default());
        assert_eq!(a.kernels[0].accesses[0].stride_bytes, None);
    }

    #[test]
    fn a_simulation_stopped_by_a_field_names_the_field() {
        // if (tid < params.n) a[tid], n at byte 8 of a by-value struct
        let text = ".version 8.5\n.target sm_90\n.address_size 64\n\
            .visible .entry k(.param .align 4 .b8 k_param_0[12], .param .u64 k_param_1)\n\
            .maxntid 128, 1, 1\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<6>;\n\
            \tmov.b64 %rd1, k_param_0;\n\tld.param.u32 %r1, [%rd1+8];\n\
            \tld.param.u64 %rd2, [k_param_1];\n\tcvta.to.global.u64 %rd3, %rd2;\n\
            \tmov.u32 %r2, %tid.x;\n\tsetp.ge.u32 %p1, %r2, %r1;\n\t@%p1 bra DONE;\n\
            \tmul.wide.s32 %rd4, %r2, 4;\n\tadd.s64 %rd5, %rd3, %rd4;\n\
            \tld.volatile.global.f32 %r3, [%rd5];\nDONE:\n\tret;\n}\n";
        let file = crate::source::SourceFile::new("t.ptx", text.to_string()).unwrap();
        let mut o = Options::default();
        o.launch.grid = Some([2, 1, 1]);
        let a = crate::analyze(&file, &o);
        let why = a.kernels[0].totals_unavailable.clone().unwrap_or_default();
        assert!(
            why.contains("k_param_0 fields at bytes 8 (--param 0+8=…)"),
            "{why}"
        );
        // given: 100 threads of each 128-thread block load, 13 sectors a block
        o.launch.params = vec![(
            ParamKey::Name("0+8".into()),
            crate::analysis::ParamValue::Int(100),
        )];
        let a = crate::analyze(&file, &o);
        assert!(a.kernels[0].totals.is_some());
        let t = a.kernels[0].totals.as_ref().unwrap();
        assert_eq!((t.load_requests, t.load_sectors), (8, 26));
    }

    /// `out[i] = alpha * x[i] + (beta == 0 ? 0 : beta * out[i])`, the
    /// epilogue of a GEMM: the branch on the `.f32` parameter `beta`
    /// (`setp.eq.f32` against the immediate `0f00000000`).
    const AXPBY: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
        .visible .entry axpby(.param .u64 axpby_param_0, .param .u64 axpby_param_1, \
        .param .f32 axpby_param_2, .param .f32 axpby_param_3, .param .u32 axpby_param_4)\n{\n\
        .reg .pred %p<3>;\n.reg .b32 %r<6>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<10>;\n\
        ld.param.u64 %rd1, [axpby_param_0];\nld.param.u64 %rd2, [axpby_param_1];\n\
        ld.param.f32 %f1, [axpby_param_2];\nld.param.f32 %f2, [axpby_param_3];\n\
        ld.param.u32 %r2, [axpby_param_4];\nmov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\n\
        mov.u32 %r5, %tid.x;\nmad.lo.s32 %r1, %r3, %r4, %r5;\nsetp.ge.s32 %p1, %r1, %r2;\n\
        @%p1 bra $DONE;\ncvta.to.global.u64 %rd3, %rd1;\ncvta.to.global.u64 %rd4, %rd2;\n\
        mul.wide.s32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd3, %rd5;\nld.global.f32 %f3, [%rd6];\n\
        mul.f32 %f4, %f3, %f1;\nadd.s64 %rd7, %rd4, %rd5;\nsetp.eq.f32 %p2, %f2, 0f00000000;\n\
        @%p2 bra $ZERO;\nld.global.f32 %f5, [%rd7];\nfma.rn.f32 %f4, %f5, %f2, %f4;\n\
        $ZERO:\nst.global.f32 [%rd7], %f4;\n$DONE:\nret;\n}\n";

    #[test]
    fn a_float_parameter_decides_a_float_compare() {
        use crate::analysis::{AccessOp, Pattern};
        let file = crate::source::SourceFile::new("t.ptx", AXPBY.to_string()).unwrap();
        let mut o = Options::default();
        o.launch.block = Some([256, 1, 1]);
        o.launch.grid = Some([4, 1, 1]);
        let n = (ParamKey::Index(4), ParamValue::Int(1000));
        // The second load (of `out`) and its execution count, per `beta`.
        let out_load = |beta: Option<ParamValue>| {
            let mut o = o.clone();
            o.launch.params = vec![n.clone()];
            o.launch
                .params
                .extend(beta.map(|b| (ParamKey::Name("3".into()), b)));
            let a = crate::analyze(&file, &o);
            let k = &a.kernels[0];
            let acc = k
                .accesses
                .iter()
                .filter(|a| a.op == AccessOp::Load)
                .nth(1)
                .cloned();
            (acc.unwrap(), k.caveats.clone())
        };
        // beta = 0 (an integer for a `.f32` parameter is that number): the
        // branch skips the load in every warp, but ptxas predicates it
        // (`@P0 LDG.E` under `FSETP.NEU P0, RZ, beta`, ptxas 13.5 sm_90:
        // the rule of `tests/hw/ifconv`), so each of the 32 warps issues it
        // with no lane. 1,000 threads are 32 warps, the last with 8 lanes:
        // 31 x 4 + 1 sectors of 4 bytes a lane when beta is not 0.
        let (zero, _) = out_load(Some(ParamValue::Int(0)));
        assert_eq!(zero.requests, Some(32));
        assert_eq!(zero.predicated_off_requests, Some(32));
        let (half, _) = out_load(Some(ParamValue::Float(0.5)));
        assert_eq!(half.requests, Some(32));
        assert_eq!(half.pattern, Pattern::Coalesced);
        assert_eq!(half.per_request.sectors, 125.0 / 32.0);
        // -0.0 == 0.0 under IEEE 754, although their bits differ.
        let (neg, _) = out_load(Some(ParamValue::Float(-0.0)));
        assert_eq!(neg.predicated_off_requests, Some(32));
        // beta not given: the simulation runs the short block in every warp
        // with its lanes uncertain; they are costed at their (known,
        // coalesced) addresses, with none of them as the lower bound.
        let (unknown, _) = out_load(None);
        assert_eq!(unknown.requests, Some(32));
        assert_eq!(unknown.pattern, Pattern::Coalesced);
        assert_eq!(unknown.per_request.sectors, 125.0 / 32.0);
        // A float for an integer parameter is not used, and said so.
        let mut o2 = o.clone();
        o2.launch.params = vec![(ParamKey::Index(4), ParamValue::Float(1000.5))];
        let a = crate::analyze(&file, &o2);
        let said = a.kernels[0]
            .caveats
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join("; ");
        assert!(
            said.contains(
                "--param axpby_param_4=1000.5 ignored: a .u32 parameter takes an integer"
            ),
            "{said}"
        );
    }

    #[test]
    fn launch_facts_come_from_config_then_options_then_directives() {
        let text = ".version 8.5\n.target sm_90\n.address_size 64\n\
            .visible .entry _Z1kPfi(.param .u64 _Z1kPfi_param_0, .param .u32 _Z1kPfi_param_1)\n\
            .maxntid 128, 1, 1\n{\n\tret;\n}\n";
        let f = &crate::pipeline::lower_text(text)[0];
        assert_eq!(f.demangled, "k(float*, int)");
        // .maxntid only: used, with a caveat
        let l = resolve(f, &Options::default());
        assert_eq!(l.block, BlockShape::Known([128, 1, 1]));
        assert_eq!(l.caveats.len(), 1);
        // the command line overrides the directive; parameters by name or suffix
        let mut o = Options::default();
        o.launch.block = Some([64, 1, 1]);
        o.launch.params = vec![(
            ParamKey::Name("_Z1kPfi_param_1".into()),
            crate::analysis::ParamValue::Int(7),
        )];
        let l = resolve(f, &o);
        assert_eq!(l.block, BlockShape::Known([64, 1, 1]));
        assert_eq!(l.params, vec![None, Some(7)]);
        // a per-kernel entry (glob on the demangled name) overrides both
        o.kernels = vec![(
            "k".into(),
            LaunchConfig {
                block: Some([32, 2, 1]),
                grid: Some([9, 1, 1]),
                params: vec![(
                    ParamKey::Name("1".into()),
                    crate::analysis::ParamValue::Int(3),
                )],
            },
        )];
        let l = resolve(f, &o);
        assert_eq!(
            (l.block, l.grid),
            (BlockShape::Known([32, 2, 1]), Some([9, 1, 1]))
        );
        assert_eq!(l.params, vec![None, Some(3)]);
        // .maxntid gives only the thread count; the kernel tests %ntid.y
        let tested = text.replace(".maxntid 128, 1, 1", ".maxntid 192").replace(
            "\tret;",
            "\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %ntid.y;\n\t\
                 setp.ne.s32 %p1, %r1, 6;\n\t@%p1 bra DONE;\nDONE:\n\tret;",
        );
        let f3 = &crate::pipeline::lower_text(&tested)[0];
        let l = resolve(f3, &Options::default());
        assert_eq!(l.block, BlockShape::Known([32, 6, 1]));
        assert_eq!(
            l.caveats,
            vec![Caveat::BlockFromTests {
                dims: [32, 6, 1],
                maxntid: [192, 1, 1]
            }]
        );
        // tests that disagree, or do not fit the thread count, are not used
        assert_eq!(
            shape_from_tests([192, 1, 1], [None, Some(6), None]),
            Some([32, 6, 1])
        );
        assert_eq!(shape_from_tests([192, 1, 1], [None, Some(7), None]), None);
        assert_eq!(shape_from_tests([128, 1, 1], [Some(256), None, None]), None);
        assert_eq!(shape_from_tests([128, 1, 1], [None; 3]), None);
        // no facts at all: an assumed 1-D block
        let bare = text.replace(".maxntid 128, 1, 1\n", "");
        let f2 = &crate::pipeline::lower_text(&bare)[0];
        let l = resolve(f2, &Options::default());
        assert_eq!(l.block, BlockShape::Assumed1D);
    }

    #[test]
    fn globs_match_mangled_and_demangled_names() {
        assert!(kernel_matches(
            "stride_f32*",
            "_Z10stride_f32ILi2EEvPKfPfi",
            "void stride_f32<2>(float const*, float*, int)"
        ));
        assert!(kernel_matches(
            "stride_f32<2>",
            "_Z10stride_f32ILi2EEvPKfPfi",
            "void stride_f32<2>(float const*, float*, int)"
        ));
        assert_eq!(
            short_name("void ns::k<int (*)(int)>(int)"),
            "ns::k<int (*)(int)>"
        );
        assert!(kernel_matches(
            "void stride_f32<2>*",
            "_Z10stride_f32ILi2EEvPKfPfi",
            "void stride_f32<2>(float const*, float*, int)"
        ));
        assert!(kernel_matches(
            "_Z10stride*",
            "_Z10stride_f32ILi2EEvPKfPfi",
            "x"
        ));
        assert!(kernel_matches("copy_f32", "copy_f32", "copy_f32"));
    }
}
