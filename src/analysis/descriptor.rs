//! `wgmma` shared-memory matrix descriptors, decoded from the PTX that
//! builds them.
//!
//! # Domain
//!
//! A descriptor is a 64-bit value (PTX ISA, "Matrix Descriptor Format"):
//!
//! | bits  | field |
//! | ----- | ----- |
//! | 0–13  | start address, `(addr & 0x3FFFF) >> 4` |
//! | 16–29 | leading dimension byte offset `>> 4` |
//! | 32–45 | stride dimension byte offset `>> 4` |
//! | 49–51 | matrix base offset |
//! | 62–63 | swizzle: 0 none, 1 128-byte, 2 64-byte, 3 32-byte |
//!
//! Triton and CUTLASS build it from constants and the shared-memory address
//! of the tile: `or` of a constant with the shifted, masked address, or a
//! `mov.b64 {lo, hi}` of two 32-bit halves. The decoder evaluates the
//! descriptor register's definition chain with a **known-bits** domain (for
//! each bit: known 0, known 1, or unknown), following only registers with a
//! single definition (so the value is the same wherever it is used).
//!
//! # Transfer rules
//!
//! Immediates are fully known; `mov`/`cvta` copy; `cvt` from an unsigned
//! narrower type zero-extends (known-0 upper bits); `and`/`or` are exact on
//! known bits (a known 0 in either operand of `and` gives a known 0, a
//! known 1 in either operand of `or` a known 1); `shl`/`shr` by a constant
//! shift the knowledge and know the bits shifted in; `add` of two known
//! values is their sum; `add` of a constant below 2^14 (an offset of the
//! start address field) keeps the knowledge of bits 14 and up: the start
//! field holds a shared-memory address `>> 4`, below 2^14 for every valid
//! address (228 KB of shared memory per SM), so the sum does not carry
//! into the offsets. Everything else is unknown.
//!
//! # Limits
//!
//! A descriptor loaded from memory, passed through a call, or redefined in
//! a loop is not decoded (its fields are `None`).

use super::model::MatrixDescriptor;
use super::transfer::AluOp;
use crate::ir::{Function as Lowered, OpKind, Src};

/// Known bits of a 64-bit value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownBits {
    /// Bit set: the bit is known.
    pub known: u64,
    /// The known bits' values (0 where unknown).
    pub value: u64,
}

impl KnownBits {
    const UNKNOWN: KnownBits = KnownBits { known: 0, value: 0 };
    fn exact(v: u64) -> KnownBits {
        KnownBits {
            known: u64::MAX,
            value: v,
        }
    }
    /// The field `[lo, lo + len)` when every bit of it is known.
    pub fn field(&self, lo: u32, len: u32) -> Option<u64> {
        let mask = if len >= 64 {
            u64::MAX
        } else {
            ((1u64 << len) - 1) << lo
        };
        (self.known & mask == mask).then_some((self.value & mask) >> lo)
    }
    fn width(self, bits: u32) -> KnownBits {
        if bits >= 64 {
            return self;
        }
        let m = (1u64 << bits) - 1;
        KnownBits {
            known: (self.known & m) | !m,
            value: self.value & m,
        }
    }
}

const DEPTH: u32 = 24;

fn eval(low: &Lowered<'_>, s: &Src, depth: u32) -> KnownBits {
    if depth == 0 {
        return KnownBits::UNKNOWN;
    }
    match s {
        Src::Imm(v) => KnownBits::exact(*v as u64),
        Src::Reg(r, off) => {
            let v = reg(low, *r, depth - 1);
            if *off == 0 {
                v
            } else {
                add(v, KnownBits::exact(*off as u64))
            }
        }
        _ => KnownBits::UNKNOWN,
    }
}

fn add(a: KnownBits, b: KnownBits) -> KnownBits {
    if a.known == u64::MAX && b.known == u64::MAX {
        return KnownBits::exact(a.value.wrapping_add(b.value));
    }
    let (x, c) = if b.known == u64::MAX {
        (a, b.value)
    } else if a.known == u64::MAX {
        (b, a.value)
    } else {
        return KnownBits::UNKNOWN;
    };
    if c < (1 << 14) {
        // An offset of the start address field: no carry into bit 14.
        let low = (1u64 << 14) - 1;
        KnownBits {
            known: x.known & !low,
            value: x.value & !low,
        }
    } else {
        KnownBits::UNKNOWN
    }
}

fn reg(low: &Lowered<'_>, r: u32, depth: u32) -> KnownBits {
    if let Some((lo, hi, half)) = low.single_defs.packs.get(&r) {
        let (lo, hi) = (
            eval(low, lo, depth).width(*half),
            eval(low, hi, depth).width(*half),
        );
        let m = if *half >= 64 {
            u64::MAX
        } else {
            (1u64 << half) - 1
        };
        return KnownBits {
            known: (lo.known & m) | (hi.known << half),
            value: (lo.value & m) | (hi.value << half),
        };
    }
    let Some(stmt) = low.single_defs.def.get(&r) else {
        return KnownBits::UNKNOWN;
    };
    let Some(op) = low.ops.get(stmt.index()) else {
        return KnownBits::UNKNOWN;
    };
    if op.guard.is_some() {
        return KnownBits::UNKNOWN;
    }
    let OpKind::Alu { alu, srcs, .. } = &op.kind else {
        return KnownBits::UNKNOWN;
    };
    let arg = |k: usize| {
        srcs.get(k)
            .map(|s| eval(low, s, depth))
            .unwrap_or(KnownBits::UNKNOWN)
    };
    let bits = alu.ty.bits.clamp(1, 64);
    let out = match alu.op {
        AluOp::Mov => arg(0),
        AluOp::Cvt(from) => {
            let a = arg(0);
            if !from.signed && from.bits < 64 {
                a.width(from.bits)
            } else {
                a
            }
        }
        AluOp::And => {
            let (a, b) = (arg(0), arg(1));
            let zero = (a.known & !a.value) | (b.known & !b.value);
            let known = (a.known & b.known) | zero;
            KnownBits {
                known,
                value: a.value & b.value & known,
            }
        }
        AluOp::Or => {
            let (a, b) = (arg(0), arg(1));
            let one = (a.known & a.value) | (b.known & b.value);
            let known = (a.known & b.known) | one;
            KnownBits {
                known,
                value: (a.value | b.value) & known,
            }
        }
        AluOp::Shl | AluOp::Shr => {
            let (a, n) = (arg(0).width(bits), arg(1));
            match n.field(0, 64) {
                Some(n) if n < bits as u64 && n < 64 => {
                    let n = n as u32;
                    if alu.op == AluOp::Shl {
                        KnownBits {
                            known: (a.known << n) | ((1u64 << n) - 1),
                            value: a.value << n,
                        }
                    } else if !alu.ty.signed {
                        let top = if bits >= 64 { 0 } else { u64::MAX << bits };
                        let m = if bits >= 64 {
                            u64::MAX
                        } else {
                            (1u64 << bits) - 1
                        };
                        let fill = !(m >> n) & m;
                        KnownBits {
                            known: ((a.known & m) >> n) | fill | top,
                            value: (a.value & m) >> n,
                        }
                    } else {
                        KnownBits::UNKNOWN
                    }
                }
                _ => KnownBits::UNKNOWN,
            }
        }
        AluOp::Add => add(arg(0), arg(1)),
        _ => KnownBits::UNKNOWN,
    };
    out.width(bits)
}

/// The known bits of a descriptor operand.
pub fn known_bits(low: &Lowered<'_>, s: &Src) -> KnownBits {
    eval(low, s, DEPTH)
}

/// Decodes the descriptor of operand `name` (`a` or `b`).
pub fn decode(low: &Lowered<'_>, s: &Src, name: &str) -> MatrixDescriptor {
    let k = known_bits(low, s);
    from_bits(k, name)
}

/// The fields of a descriptor with known bits `k`.
pub fn from_bits(k: KnownBits, name: &str) -> MatrixDescriptor {
    MatrixDescriptor {
        operand: name.to_string(),
        start_address: k.field(0, 14).map(|v| v << 4),
        leading_byte_offset: k.field(16, 14).map(|v| (v << 4) as u32),
        stride_byte_offset: k.field(32, 14).map(|v| (v << 4) as u32),
        base_offset: k.field(49, 3).map(|v| v as u32),
        swizzle: k.field(62, 2).map(|v| {
            match v {
                0 => "none",
                1 => "128B",
                2 => "64B",
                _ => "32B",
            }
            .to_string()
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_of_a_128_byte_swizzled_descriptor() {
        // LBO 16, SBO 1024, 128-byte swizzle, start address unknown.
        let v: u64 = (1 << 62) | ((1024 >> 4) << 32) | ((16 >> 4) << 16);
        let k = KnownBits {
            known: !((1u64 << 14) - 1),
            value: v,
        };
        let d = from_bits(k, "a");
        assert_eq!(d.swizzle.as_deref(), Some("128B"));
        assert_eq!(d.leading_byte_offset, Some(16));
        assert_eq!(d.stride_byte_offset, Some(1024));
        assert_eq!(d.base_offset, Some(0));
        assert_eq!(d.start_address, None);
    }

    #[test]
    fn start_field_offsets_keep_the_upper_fields() {
        let base = KnownBits {
            known: !((1u64 << 14) - 1),
            value: 2 << 62,
        };
        let moved = add(base, KnownBits::exact(2));
        assert_eq!(moved.field(62, 2), Some(2));
        assert_eq!(add(base, KnownBits::exact(1 << 20)), KnownBits::UNKNOWN);
    }
}
