//! Which results of a body's loads are used: a backward closure over its
//! registers from the instructions that have an effect.
//!
//! ptxas deletes a load whose value nothing uses, and narrows a vector load
//! to the elements that are used (`tests/hw/deadload/README.md`; the rule is
//! `analysis::memops::dead_load` and `narrowed_load`). This is the fact it
//! needs, found at the register level: a register is *needed* when an
//! instruction with an effect reads it (a store's data or address, a
//! branch's or any op's guard, an atomic, a call's operands, a barrier, a
//! shuffle, every instruction this pass does not know to be pure), or when
//! a pure instruction (integer, bit, float and conversion arithmetic, `mov`,
//! `setp`, `selp`, a non-volatile `ld`) that writes a needed register reads
//! it. Registers, not values: one needed definition of a register makes
//! every definition of it needed, which can only keep more loads (never
//! deletes a used one).

use crate::syntax::ast::{Operand, OperandKind};

/// The instructions of one body, as reads and writes of register ids.
#[derive(Default)]
pub(super) struct Liveness {
    /// Registers read by instructions with an effect.
    roots: Vec<u32>,
    /// Per pure instruction: the range of its reads in `reads`.
    spans: Vec<(u32, u32)>,
    /// The reads of the pure instructions.
    reads: Vec<u32>,
    /// (register written, pure instruction) pairs.
    writes: Vec<(u32, u32)>,
}

impl Liveness {
    /// Records one instruction: `pure` when it has no effect besides its
    /// destinations (which `writes` lists); `reads` are every register it
    /// reads, its guard included (for an instruction with an effect, every
    /// register operand, destinations included: an accumulator is read too).
    pub(super) fn instruction(
        &mut self,
        pure: bool,
        reads: impl IntoIterator<Item = u32>,
        writes: impl IntoIterator<Item = u32>,
    ) {
        if !pure {
            self.roots.extend(reads);
            return;
        }
        let p = self.spans.len() as u32;
        let start = self.reads.len() as u32;
        self.reads.extend(reads);
        self.spans.push((start, self.reads.len() as u32));
        self.writes.extend(writes.into_iter().map(|r| (r, p)));
    }

    /// The needed registers, indexed by register id (`nregs` of them).
    pub(super) fn needed(mut self, nregs: usize) -> Vec<bool> {
        let mut needed = vec![false; nregs];
        self.writes.sort_unstable();
        let mut live = vec![false; self.spans.len()];
        let mut work = std::mem::take(&mut self.roots);
        while let Some(r) = work.pop() {
            let Some(slot) = needed.get_mut(r as usize) else {
                continue;
            };
            if *slot {
                continue;
            }
            *slot = true;
            let from = self.writes.partition_point(|&(w, _)| w < r);
            for &(w, p) in &self.writes[from..] {
                if w != r {
                    break;
                }
                if std::mem::replace(&mut live[p as usize], true) {
                    continue;
                }
                let (s, e) = self.spans[p as usize];
                work.extend_from_slice(&self.reads[s as usize..e as usize]);
            }
        }
        needed
    }
}

/// The register names operand `o` mentions: registers and symbols (a
/// register named without `%`, as inline asm's scoped `.reg .b32 t;`,
/// parses as a symbol; symbols that name no register find no id).
pub(super) fn names<'src>(o: &Operand<'src>, out: &mut Vec<&'src str>) {
    match &o.kind {
        OperandKind::Reg { name, .. } | OperandKind::Symbol(name) => out.push(name),
        OperandKind::Address { base: Some(b), .. } => names(b, out),
        OperandKind::Offset { base, .. } | OperandKind::Not(base) => names(base, out),
        OperandKind::AddressList(v) | OperandKind::Vector(v) | OperandKind::List(v) => {
            v.iter().for_each(|x| names(x, out))
        }
        OperandKind::PredPair(pair) => pair.iter().for_each(|x| names(x, out)),
        _ => {}
    }
}

/// Whether an instruction has no effect besides writing its destinations:
/// the arithmetic ptxas may delete when its result is unused, and plain
/// loads that are not `.volatile` or `.mmio` (probed:
/// `tests/hw/deadload/probes.txt`, where ptxas deletes unused `.relaxed`,
/// `.acquire`, `.nc` and cached loads alike and keeps `.volatile` ones).
pub(super) fn pure(opcode: &str, mnemonic: &str) -> bool {
    match opcode {
        "ld" | "ldu" => !mnemonic.contains(".volatile") && !mnemonic.contains(".mmio"),
        "add" | "sub" | "mul" | "mad" | "mul24" | "mad24" | "sad" | "div" | "rem" | "abs"
        | "neg" | "min" | "max" | "popc" | "clz" | "bfind" | "fns" | "brev" | "bfe" | "bfi"
        | "szext" | "bmsk" | "dp4a" | "dp2a" | "and" | "or" | "xor" | "not" | "cnot" | "lop3"
        | "shf" | "shl" | "shr" | "prmt" | "mov" | "cvt" | "cvta" | "setp" | "set" | "selp"
        | "slct" | "fma" | "rcp" | "sqrt" | "rsqrt" | "sin" | "cos" | "lg2" | "ex2" | "tanh"
        | "copysign" | "testp" | "addc" | "subc" | "madc" | "isspacep" | "mapa" => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closure_follows_pure_chains_from_effects() {
        // r0 = ld; r1 = r0 + 1; st r1      (r0, r1 needed)
        // r2 = ld; r3 = r2 * 2             (nothing needed)
        // r4 = ld; setp p5 = r4; @p5 bra   (r4, r5 needed)
        let mut l = Liveness::default();
        l.instruction(true, [9], [0]);
        l.instruction(true, [0], [1]);
        l.instruction(false, [1, 9], []);
        l.instruction(true, [9], [2]);
        l.instruction(true, [2], [3]);
        l.instruction(true, [9], [4]);
        l.instruction(true, [4], [5]);
        l.instruction(false, [5], []);
        let n = l.needed(10);
        assert_eq!(
            n,
            vec![true, true, false, false, true, true, false, false, false, true]
        );
    }

    #[test]
    fn every_definition_of_a_needed_register_is_kept() {
        // r0 = 0; r0 = ld (guarded by p1); st r0: both definitions live,
        // and the guard.
        let mut l = Liveness::default();
        l.instruction(true, [], [0]);
        l.instruction(true, [2, 1], [0]);
        l.instruction(false, [0, 3], []);
        let n = l.needed(4);
        assert_eq!(n, vec![true, true, true, true]);
    }

    #[test]
    fn volatile_loads_have_an_effect() {
        assert!(pure("ld", "ld.global.nc.v4.f32"));
        assert!(pure("ld", "ld.acquire.gpu.global.u32"));
        assert!(!pure("ld", "ld.volatile.shared.u32"));
        assert!(!pure("ld", "ld.mmio.relaxed.sys.global.u32"));
        assert!(!pure("st", "st.global.u32"));
        assert!(!pure("shfl", "shfl.sync.bfly.b32"));
    }
}
