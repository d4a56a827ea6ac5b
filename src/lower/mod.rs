//! Front ends' lowering into the warp IR ([`crate::ir`]).
//!
//! [`ptx`] lowers a PTX function (syntax tree + semantic tables) to an
//! [`ir::Function`](crate::ir::Function). A second front end (SASS) would
//! live beside it and produce the same IR; everything after this seam
//! (CFG, analysis, cost model, lints, reports) is front-end neutral.

mod module;
mod names;
pub mod ptx;
pub mod sass;

/// Demangles a C++ name with `cpp_demangle` (the name itself when it is not mangled).
pub fn demangle(name: &str) -> String {
    cpp_demangle::Symbol::new(name)
        .ok()
        .and_then(|s| s.demangle(&cpp_demangle::DemangleOptions::default()).ok())
        .unwrap_or_else(|| name.to_string())
}

/// Marks the 64-bit integer parameters ([`crate::ir::Param::is_wide_integer`]) whose value reaches a memory address
/// through pointer arithmetic: `mov`/`cvta`, `add` or `sub` of an offset,
/// the addend of `mad.wide` (PTX: `x + (row * L + t) * 4` built with
/// `add.s64` and used by an inline-asm `cp.async`, which has no `cvta` and
/// no direct use; SASS: `LEA`/`IMAD.WIDE` on the pair a `LDC.64` of the
/// parameter wrote). The launch simulation gives such a parameter, when the
/// user does not, a synthetic base instead of leaving every address built
/// from it unknown (and an alignment test on it undecided).
///
/// A linear pass in code order, the last write of a register winning (a
/// guarded write counts as a write): a register's origin is the parameter
/// whose value it holds plus offsets; a definition by any other op clears it
/// (SASS reuses registers). A sum whose operands come from two origins is
/// nobody's pointer, where a variable's address (`Src::Var`) and a 64-bit
/// loaded value (a pointer read from memory) count as origins of their own:
/// a `size_t` offset added to a pointer parameter, to a shared window or to
/// a loaded pointer is not marked through that sum. The pass runs twice,
/// for pointers carried around a loop from below.
pub(crate) fn mark_pointer_flows(
    ops: &[crate::ir::Op],
    params: &[crate::ir::Param<'_>],
    pointer_params: &mut [bool],
) {
    use crate::ir::alu::AluOp;
    use crate::ir::{OpKind, Src};
    /// Two origins reach the register.
    const MIXED: u16 = u16::MAX;
    /// A pointer that is not a parameter's: a variable's address, a loaded
    /// 64-bit value.
    const OTHER: u16 = u16::MAX - 1;
    let wide = |p: u16| params.get(p as usize).is_some_and(|p| p.is_wide_integer());
    if !params.iter().any(|p| p.is_wide_integer()) {
        return;
    }
    let mut origin: crate::util::FastMap<u32, u16> = Default::default();
    for _ in 0..2 {
        for op in ops {
            match &op.kind {
                OpKind::LdParam {
                    dsts,
                    param: Some((p, 0)),
                    ..
                } if wide(*p) => {
                    if let Some(d) = dsts.first() {
                        origin.insert(*d, *p);
                    }
                    for d in dsts.iter().skip(1) {
                        origin.remove(d);
                    }
                }
                OpKind::Alu {
                    alu,
                    dst,
                    srcs,
                    dst2,
                } => {
                    if let Some(d2) = dst2 {
                        origin.remove(d2);
                    }
                    let carried: &[Src] = match alu.op {
                        AluOp::Mov | AluOp::Add => srcs,
                        AluOp::Sub => &srcs[..srcs.len().min(1)],
                        AluOp::Mad(_) => &srcs[srcs.len().min(2)..],
                        _ => &[],
                    };
                    let mut from = None;
                    for s in carried {
                        let o = match s {
                            Src::Reg(r, _) => origin.get(r).copied(),
                            Src::Var(..) => Some(OTHER),
                            _ => None,
                        };
                        if let Some(p) = o {
                            from = match from {
                                None => Some(p),
                                Some(q) if q == p => Some(p),
                                Some(_) => Some(MIXED),
                            };
                        }
                    }
                    match from {
                        Some(p) => {
                            origin.insert(*dst, p);
                        }
                        None => {
                            origin.remove(dst);
                        }
                    }
                }
                OpKind::Mem { info, dsts } => {
                    if let Src::Reg(r, _) = &info.addr {
                        if let Some(&p) = origin.get(r).filter(|p| **p < OTHER) {
                            if let Some(slot) = pointer_params.get_mut(p as usize) {
                                *slot = true;
                            }
                        }
                    }
                    // A 64-bit value read from memory may be a pointer of
                    // its own.
                    let loaded_pointer = info.elem_bits == 64 && info.vector == 1;
                    for d in dsts {
                        if loaded_pointer {
                            origin.insert(*d, OTHER);
                        } else {
                            origin.remove(d);
                        }
                    }
                }
                other => {
                    for d in other.dsts() {
                        origin.remove(&d);
                    }
                }
            }
        }
    }
}
