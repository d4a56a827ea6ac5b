//! Facts of the PTX instruction set that several layers need: the special
//! registers and which opcodes write their first operand.
//!
//! One table each, used by semantic analysis (is a `%name` declared or
//! special?), by lowering to the IR (what a special register means for a
//! warp) and by the language server (which operand is a destination).
//! PTX ISA 8.x, chapter 10 ("Special Registers").

use crate::ir::Special;

/// How a special register behaves across the lanes of a warp.
#[derive(Clone, Copy, Debug)]
pub enum Lanes {
    /// A thread index or launch dimension with a component (`.x`, `.y`, `.z`).
    Dim(fn(u8) -> Special),
    /// A lane-exact value (`%laneid`, `%lanemask_*`).
    Exact(Special),
    /// The same in every lane of a warp, but unknown to the analysis.
    Uniform,
    /// Possibly different in every lane, unknown.
    Varying,
}

/// One special register of the ISA.
#[derive(Clone, Copy, Debug)]
pub struct SpecialRegister {
    /// The name without component (`%tid`).
    pub name: &'static str,
    /// What it is across a warp.
    pub lanes: Lanes,
}

const fn sreg(name: &'static str, lanes: Lanes) -> SpecialRegister {
    SpecialRegister { name, lanes }
}

/// Every special register with a fixed name (the indexed families `%pm0..7`,
/// `%pm0_64..%pm7_64` and `%envreg0..31` are matched by [`special_register`]).
pub const SPECIAL_REGISTERS: &[SpecialRegister] = &[
    sreg("%tid", Lanes::Dim(Special::Tid)),
    sreg("%ntid", Lanes::Dim(Special::Ntid)),
    sreg("%ctaid", Lanes::Dim(Special::Ctaid)),
    sreg("%nctaid", Lanes::Dim(Special::Nctaid)),
    sreg("%laneid", Lanes::Exact(Special::LaneId)),
    sreg("%lanemask_lt", Lanes::Exact(Special::LaneMask(0))),
    sreg("%lanemask_le", Lanes::Exact(Special::LaneMask(1))),
    sreg("%lanemask_eq", Lanes::Exact(Special::LaneMask(2))),
    sreg("%lanemask_ge", Lanes::Exact(Special::LaneMask(3))),
    sreg("%lanemask_gt", Lanes::Exact(Special::LaneMask(4))),
    sreg("%warpid", Lanes::Uniform),
    sreg("%nwarpid", Lanes::Uniform),
    sreg("%smid", Lanes::Uniform),
    sreg("%nsmid", Lanes::Uniform),
    sreg("%gridid", Lanes::Uniform),
    sreg("%clock", Lanes::Uniform),
    sreg("%clock_hi", Lanes::Uniform),
    sreg("%clock64", Lanes::Uniform),
    sreg("%globaltimer", Lanes::Uniform),
    sreg("%globaltimer_lo", Lanes::Uniform),
    sreg("%globaltimer_hi", Lanes::Uniform),
    sreg("%total_smem_size", Lanes::Uniform),
    sreg("%aggr_smem_size", Lanes::Uniform),
    sreg("%dynamic_smem_size", Lanes::Uniform),
    sreg("%reserved_smem_offset_begin", Lanes::Uniform),
    sreg("%reserved_smem_offset_end", Lanes::Uniform),
    sreg("%reserved_smem_offset_cap", Lanes::Uniform),
    sreg("%reserved_smem_offset_0", Lanes::Uniform),
    sreg("%reserved_smem_offset_1", Lanes::Uniform),
    sreg("%is_explicit_cluster", Lanes::Uniform),
    sreg("%clusterid", Lanes::Uniform),
    sreg("%nclusterid", Lanes::Uniform),
    sreg("%cluster_ctaid", Lanes::Uniform),
    sreg("%cluster_nctaid", Lanes::Uniform),
    sreg("%cluster_ctarank", Lanes::Exact(Special::ClusterCtaRank)),
    sreg("%cluster_nctarank", Lanes::Uniform),
    sreg("%current_graph_exec", Lanes::Uniform),
];

/// The two letters after `%` of every special register name (the fixed
/// names of [`SPECIAL_REGISTERS`] and the indexed families), a filter
/// [`special_register`] applies first.
const SPECIAL_PREFIXES: [[u8; 2]; SPECIAL_REGISTERS.len() + 2] = {
    // `%pm0`..`%pm7`, `%pm0_64`.., `%envreg0`..: see `special_register`
    let mut all = [[b'p', b'm']; SPECIAL_REGISTERS.len() + 2];
    all[1] = [b'e', b'n'];
    let mut i = 0;
    while i < SPECIAL_REGISTERS.len() {
        let n = SPECIAL_REGISTERS[i].name.as_bytes();
        all[i + 2] = [n[1], n[2]];
        i += 1;
    }
    all
};

/// The special register called `name` (without its component), if any.
pub fn special_register(name: &str) -> Option<SpecialRegister> {
    // Most operands are ordinary registers (`%r12`, `%rd3`, `%f1`): reject
    // them by their first two letters before comparing names.
    let b = name.as_bytes();
    let key = match b {
        [b'%', x, y, ..] => [*x, *y],
        _ => return None,
    };
    if !SPECIAL_PREFIXES.contains(&key) {
        return None;
    }
    if let Some(r) = SPECIAL_REGISTERS.iter().find(|r| r.name == name) {
        return Some(*r);
    }
    let indexed = |prefix: &str, suffix: &str, max: u32| {
        name.strip_prefix(prefix)
            .and_then(|r| r.strip_suffix(suffix))
            .filter(|d| {
                !d.is_empty()
                    && d.bytes().all(|b| b.is_ascii_digit())
                    && (d.len() == 1 || !d.starts_with('0'))
            })
            .and_then(|d| d.parse::<u32>().ok())
            .is_some_and(|n| n <= max)
    };
    let known = indexed("%pm", "", 7) || indexed("%pm", "_64", 7) || indexed("%envreg", "", 31);
    known.then_some(SpecialRegister {
        name: "%pm/%envreg",
        lanes: Lanes::Uniform,
    })
}

/// True for the special registers of the PTX ISA (the name without its
/// component: `%tid` for `%tid.x`).
pub fn is_special_register(name: &str) -> bool {
    special_register(name).is_some()
}

/// What a special register operand (`name`, optional component `x`/`y`/`z`)
/// means for the analysis; `None` when `name` is not a special register.
pub fn special_value(name: &str, component: Option<&str>) -> Option<Special> {
    let d = match component {
        Some("y") => 1,
        Some("z") => 2,
        _ => 0,
    };
    Some(match special_register(name)?.lanes {
        Lanes::Dim(f) => f(d),
        Lanes::Exact(s) => s,
        Lanes::Uniform => Special::OtherUniform,
        Lanes::Varying => Special::Other,
    })
}

/// True when the instruction (its whole mnemonic, `ld.global.u32`, or just
/// its opcode) writes its first operand (false for stores, reductions,
/// branches, returns, barriers, fences, prefetches, copies and surface
/// stores, whose operands are all read). `call` writes its return list when
/// it has one; a barrier reduction (`bar.red.popc.u32 d, 0, p`,
/// `barrier.cta.red.or.pred`) writes its result ([`is_barrier_reduction`]).
pub fn writes_first_operand(mnemonic: &str) -> bool {
    let opcode = &mnemonic[..mnemonic.find('.').unwrap_or(mnemonic.len())];
    if matches!(opcode, "bar" | "barrier") {
        return is_barrier_reduction(mnemonic);
    }
    !matches!(
        opcode,
        "st" | "red"
            | "bra"
            | "brx"
            | "ret"
            | "exit"
            | "trap"
            | "bar"
            | "barrier"
            | "membar"
            | "fence"
            | "prefetch"
            | "prefetchu"
            | "cp"
            | "stmatrix"
            | "sust"
            | "sured"
    )
}

/// `bar.red` / `barrier.red` (`__syncthreads_count`, `_and`, `_or`): a
/// barrier whose result combines a predicate of every thread of the block
/// (a population count, an `and`, an `or`).
pub fn is_barrier_reduction(mnemonic: &str) -> bool {
    let mut parts = mnemonic.split('.');
    matches!(parts.next(), Some("bar" | "barrier")) && parts.any(|m| m == "red")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_register_is_special_and_lowers() {
        for r in SPECIAL_REGISTERS {
            assert!(is_special_register(r.name), "{}", r.name);
            assert!(special_value(r.name, Some("x")).is_some(), "{}", r.name);
        }
        for r in ["%pm0", "%pm7_64", "%envreg31"] {
            assert_eq!(special_value(r, None), Some(Special::OtherUniform), "{r}");
        }
        for r in [
            "%pm8",
            "%envreg32",
            "%envreg01",
            "%r1",
            "%rd12",
            "%p3",
            "%",
            "%t",
            "%clock_lo",
        ] {
            assert!(!is_special_register(r), "{r}");
        }
    }

    #[test]
    fn components_select_the_dimension() {
        assert_eq!(special_value("%tid", Some("y")), Some(Special::Tid(1)));
        assert_eq!(
            special_value("%nctaid", Some("z")),
            Some(Special::Nctaid(2))
        );
        assert_eq!(special_value("%laneid", None), Some(Special::LaneId));
        // Known to sema and, since one table serves both, to lowering.
        assert_eq!(
            special_value("%clock_hi", None),
            Some(Special::OtherUniform)
        );
        assert_eq!(
            special_value("%reserved_smem_offset_begin", None),
            Some(Special::OtherUniform)
        );
    }

    #[test]
    fn stores_and_branches_do_not_write_their_first_operand() {
        for op in ["st", "red", "bra", "ret", "bar"] {
            assert!(!writes_first_operand(op), "{op}");
        }
        for op in ["ld", "atom", "add", "mov", "setp"] {
            assert!(writes_first_operand(op), "{op}");
        }
        for m in [
            "bar.red.popc.u32",
            "bar.red.or.pred",
            "barrier.red.and.pred",
            "barrier.cta.red.popc.u32",
        ] {
            assert!(writes_first_operand(m), "{m}");
            assert!(is_barrier_reduction(m), "{m}");
        }
        for m in ["bar.sync", "barrier.sync.aligned", "bar.arrive"] {
            assert!(!writes_first_operand(m), "{m}");
            assert!(!is_barrier_reduction(m), "{m}");
        }
        assert!(!is_barrier_reduction("red.shared.add.u32"));
    }
}
