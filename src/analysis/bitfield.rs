//! The exact one-lane semantics of PTX's bit-manipulation instructions, as
//! compilers emit them in address arithmetic.
//!
//! # What is here
//!
//! Pure functions from operand values (canonical 64-bit integers, see
//! `transfer::Ty::read`) to the result: `bfi` (bit-field insert), `prmt` (byte
//! permute, every mode), `shf` (funnel shifts, `.wrap` and `.clamp`), `lop3`
//! (any truth table), `brev`, `popc`, `clz`, `bfind`, `bmsk`, `szext`, and the
//! packing and unpacking `mov` (`mov.b64 %rd, {%r1, %r2}` and back). Each
//! follows the pseudo-code of its section in the PTX ISA ("Integer Arithmetic
//! Instructions" and "Logic and Shift Instructions"); the section is named on
//! the function.
//!
//! # How they are used
//!
//! `transfer::eval_scalar` calls them lane by lane, so when every operand is
//! exact per lane the result is exact per lane (`x[blockIdx.x * 16 +
//! (threadIdx.x & 15)]` compiles to `bfi.b32 %r, %ctaid, %lane, 4, 28`, whose
//! exact evaluation needs only the lane part once the uniform part is peeled
//! off by `transfer`). The launch simulation (`totals`) calls the same
//! functions, so both levels agree by construction. `prmt` with a constant
//! selector also has a known-bits form ([`prmt_known`], byte by byte, for
//! `bounds`), built on the same selector tables ([`prmt_selectors`]).
//!
//! # Soundness and limits
//!
//! Every function is total: shift amounts and positions are masked or clamped
//! as the ISA says, no operation can overflow or panic. Widths other than 32
//! and 64 bits are rejected by the decoder, not here.

/// The bits of a `bits`-wide value (zero-extended).
fn unsigned(v: i64, bits: u32) -> u64 {
    if bits >= 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << bits) - 1)
    }
}

/// `bfi.bN f, a, b, c, d` (PTX ISA "bfi"): inserts the low `len` bits of `a`
/// into `b` at bit `pos`; `pos` and `len` are read modulo 256, bits beyond the
/// msb are dropped, a zero length gives `b`.
pub fn bfi(a: i64, b: i64, pos: i64, len: i64, bits: u32) -> i64 {
    let pos = (pos & 0xff) as u32;
    let len = (len & 0xff) as u32;
    let mut f = unsigned(b, bits);
    let a = unsigned(a, bits);
    let mut i = 0;
    while i < len && pos + i < bits {
        let bit = (a >> i) & 1;
        f = (f & !(1u64 << (pos + i))) | (bit << (pos + i));
        i += 1;
    }
    f as i64
}

pub use crate::ir::alu::PrmtMode;

use super::domain::KnownBits;

/// `prmt.b32{.mode} d, a, b, c` (PTX ISA "prmt"): picks four bytes of the
/// eight bytes `{b, a}` (a is bytes 0..3, b is bytes 4..7). Without a mode
/// each nibble of `c` selects one byte (bit 3: replicate the byte's sign
/// bit); with a mode, `c[1:0]` selects one of the mode's fixed patterns.
pub fn prmt(a: i64, b: i64, c: i64, mode: PrmtMode) -> i64 {
    let src = unsigned(a, 32) | (unsigned(b, 32) << 32);
    let byte = |k: u64| (src >> (8 * (k & 7))) & 0xff;
    let mut d = 0u64;
    for (i, (s, sign)) in prmt_selectors(c, mode).into_iter().enumerate() {
        let mut v = byte(s);
        if sign {
            v = if v & 0x80 != 0 { 0xff } else { 0 };
        }
        d |= v << (8 * i);
    }
    d as i64
}

/// The source byte (0..7 of `{b, a}`, `a` low) of each result byte `d.b0
/// .. d.b3` of `prmt` with selector `c`, and whether it is replaced by
/// copies of its top bit (the generic mode's sign bit, selector bit 3).
pub fn prmt_selectors(c: i64, mode: PrmtMode) -> [(u64, bool); 4] {
    let c = unsigned(c, 32);
    let plain = |s: [u64; 4]| s.map(|k| (k, false));
    match mode {
        PrmtMode::Generic => std::array::from_fn(|i| {
            let s = (c >> (4 * i)) & 0xf;
            (s & 7, s & 8 != 0)
        }),
        // Tables of the ISA, listed as d.b3 d.b2 d.b1 d.b0; stored b0 first.
        PrmtMode::F4e => plain(match c & 3 {
            0 => [0, 1, 2, 3],
            1 => [1, 2, 3, 4],
            2 => [2, 3, 4, 5],
            _ => [3, 4, 5, 6],
        }),
        PrmtMode::B4e => plain(match c & 3 {
            0 => [0, 7, 6, 5],
            1 => [1, 0, 7, 6],
            2 => [2, 1, 0, 7],
            _ => [3, 2, 1, 0],
        }),
        PrmtMode::Rc8 => {
            let k = c & 3;
            plain([k, k, k, k])
        }
        PrmtMode::Ecl => plain(match c & 3 {
            0 => [0, 1, 2, 3],
            1 => [1, 1, 2, 3],
            2 => [2, 2, 2, 3],
            _ => [3, 3, 3, 3],
        }),
        PrmtMode::Ecr => plain(match c & 3 {
            0 => [0, 0, 0, 0],
            1 => [0, 1, 1, 1],
            2 => [0, 1, 2, 2],
            _ => [0, 1, 2, 3],
        }),
        PrmtMode::Rc16 => plain(match c & 1 {
            0 => [0, 1, 0, 1],
            _ => [2, 3, 2, 3],
        }),
    }
}

/// The known bits of `prmt` with the constant selector `c` from those of
/// its 32-bit operands (their low 32 bits): each result byte is a source
/// byte's bits, or eight copies of its top bit; the bits above 32 are 0
/// (the `.b32` result read unsigned).
pub fn prmt_known(a: KnownBits, b: KnownBits, c: i64, mode: PrmtMode) -> KnownBits {
    let zero = (a.zero & 0xffff_ffff) | (b.zero << 32);
    let one = (a.one & 0xffff_ffff) | (b.one << 32);
    let mut k = KnownBits {
        zero: !0xffff_ffffu64,
        one: 0,
    };
    for (i, (s, sign)) in prmt_selectors(c, mode).into_iter().enumerate() {
        let sh = 8 * s;
        let (mut z, mut o) = ((zero >> sh) & 0xff, (one >> sh) & 0xff);
        if sign {
            z = if z & 0x80 != 0 { 0xff } else { 0 };
            o = if o & 0x80 != 0 { 0xff } else { 0 };
        }
        k.zero |= z << (8 * i);
        k.one |= o << (8 * i);
    }
    k
}

/// `shf.{l,r}.{wrap,clamp}.b32 d, a, b, c` (PTX ISA "shf"): shifts the 64-bit
/// value `{b, a}` (b high) left or right by `c` (masked to 5 bits with
/// `.wrap`, clamped to 32 with `.clamp`) and keeps the high (left) or low
/// (right) 32 bits.
pub fn shf(a: i64, b: i64, c: i64, left: bool, clamp: bool) -> i64 {
    let c = unsigned(c, 32);
    let n = if clamp { c.min(32) } else { c & 31 } as u32;
    let v = unsigned(a, 32) | (unsigned(b, 32) << 32);
    let r = if left {
        (v << n) >> 32
    } else {
        (v >> n) & 0xffff_ffff
    };
    // `v << 32` keeps a in the high half: n = 32 gives a (left) or b (right).
    (r & 0xffff_ffff) as i64
}

/// `lop3.bN d, a, b, c, immLut` (PTX ISA "lop3"): bit `i` of `d` is bit
/// `4·a_i + 2·b_i + c_i` of the truth table (`F(0xF0, 0xCC, 0xAA) = immLut`).
pub fn lop3(a: i64, b: i64, c: i64, lut: i64, bits: u32) -> i64 {
    let (a, b, c) = (a as u64, b as u64, c as u64);
    let mut d = 0u64;
    for k in 0..8u32 {
        if (lut >> k) & 1 == 0 {
            continue;
        }
        let pa = if k & 4 != 0 { a } else { !a };
        let pb = if k & 2 != 0 { b } else { !b };
        let pc = if k & 1 != 0 { c } else { !c };
        d |= pa & pb & pc;
    }
    unsigned(d as i64, bits) as i64
}

/// `brev.bN` (PTX ISA "brev"): bit reversal within the width.
pub fn brev(a: i64, bits: u32) -> i64 {
    let v = unsigned(a, bits).reverse_bits();
    (v >> (64 - bits.clamp(1, 64))) as i64
}

/// `popc.bN` (PTX ISA "popc"): the number of one bits.
pub fn popc(a: i64, bits: u32) -> i64 {
    unsigned(a, bits).count_ones() as i64
}

/// `clz.bN` (PTX ISA "clz"): leading zeros within the width (the width for 0).
pub fn clz(a: i64, bits: u32) -> i64 {
    let v = unsigned(a, bits);
    (v.leading_zeros() - (64 - bits.clamp(1, 64))) as i64
}

/// `bfind{.shiftamt}.{u,s}N` (PTX ISA "bfind"): the bit position of the most
/// significant non-sign bit, `0xffffffff` when there is none; `.shiftamt`
/// gives the left shift that moves it to the msb instead.
pub fn bfind(a: i64, bits: u32, signed: bool, shiftamt: bool) -> i64 {
    let mut v = unsigned(a, bits);
    let msb = bits.clamp(1, 64) - 1;
    if signed && (v >> msb) & 1 == 1 {
        v = unsigned(!v as i64, bits);
    }
    if v == 0 {
        return 0xffff_ffff;
    }
    let pos = 63 - v.leading_zeros();
    if shiftamt {
        (msb - pos) as i64
    } else {
        pos as i64
    }
}

/// `bmsk.{clamp,wrap}.b32 d, a, b` (PTX ISA "bmsk"): a mask of `b` one bits
/// starting at bit `a`.
pub fn bmsk(a: i64, b: i64, clamp: bool) -> i64 {
    let (a, b) = (unsigned(a, 32), unsigned(b, 32));
    let (a1, b1) = (a & 31, b & 31);
    let mut mask0: u32 = u32::MAX << a1;
    let sum = a1 + b1;
    let mut overflow = sum >= 32;
    if clamp {
        if a >= 32 {
            overflow = true;
            mask0 = 0;
        }
        if b >= 32 {
            overflow = true;
        }
    }
    let mask1: u32 = if overflow {
        0
    } else if b1 == 0 {
        u32::MAX
    } else {
        u32::MAX << sum
    };
    (mask0 & !mask1) as i64
}

/// `szext.{clamp,wrap}.{u,s}32 d, a, b` (PTX ISA "szext"): the low `b` bits of
/// `a`, zero- or sign-extended to 32 bits.
pub fn szext(a: i64, b: i64, signed: bool, clamp: bool) -> i64 {
    let (a, b) = (unsigned(a, 32) as u32, unsigned(b, 32));
    let b1 = (b & 31) as u32;
    let too_large = b >= 32 && clamp;
    let mask: u32 = if too_large { 0 } else { u32::MAX << b1 };
    let sign = if b1 == 0 || too_large || !signed {
        false
    } else {
        (a >> ((b1 - 1) & 31)) & 1 == 1
    };
    let d = (a & !mask) | if sign { mask } else { 0 };
    if signed {
        d as i32 as i64
    } else {
        d as i64
    }
}

/// `mov.bN d, {p0, p1, …}`: the parts, low first, each `part_bits` wide.
pub fn pack(parts: &[i64], part_bits: u32) -> i64 {
    let mut d = 0u64;
    for (k, p) in parts.iter().enumerate() {
        let sh = k as u32 * part_bits;
        if sh < 64 {
            d |= unsigned(*p, part_bits) << sh;
        }
    }
    d as i64
}

/// `mov.bN {p0, p1, …}, s`: part `k` (low first), `part_bits` wide.
pub fn unpack(s: i64, part: u32, part_bits: u32) -> i64 {
    let sh = part * part_bits;
    if sh >= 64 {
        return 0;
    }
    unsigned(((s as u64) >> sh) as i64, part_bits) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `prmt_known` holds for every pair of operand values its facts allow
    /// (exhaustively over a few free bits, sign bits of bytes included),
    /// for selectors of every mode, the generic one with sign copies.
    #[test]
    fn prmt_known_bits_are_sound() {
        let fact = |free: u64, base: u64| KnownBits {
            zero: !free & !base,
            one: base & !free,
        };
        let facts = [
            fact(0x0000_0081, 0x1234_5600),
            fact(0x0000_8f00, 0x8000_0001),
            fact(0x8100_0000, 0x007f_ff00),
            fact(0x0000_0000, 0xdead_beef),
            fact(0x0080_0003, 0x0000_0000),
        ];
        let members = |k: KnownBits| -> Vec<i64> {
            let free = !(k.zero | k.one);
            let mut out = Vec::new();
            let mut s = 0u64;
            loop {
                out.push((k.one | s) as i64);
                s = s.wrapping_sub(free) & free;
                if s == 0 {
                    break out;
                }
            }
        };
        let modes = [
            PrmtMode::Generic,
            PrmtMode::F4e,
            PrmtMode::B4e,
            PrmtMode::Rc8,
            PrmtMode::Ecl,
            PrmtMode::Ecr,
            PrmtMode::Rc16,
        ];
        let selectors = [
            0x3210, 0x7654, 0x0123, 0x8888, 0xba98, 0x4c1f, 0x1111, 0xf0e5, 1, 2, 3,
        ];
        for &a in &facts {
            for &b in &facts {
                for &c in &selectors {
                    for mode in modes {
                        let k = prmt_known(a, b, c, mode);
                        assert_eq!(k.zero & k.one, 0);
                        for &x in &members(a) {
                            for &y in &members(b) {
                                let v = prmt(x, y, c, mode);
                                assert!(k.contains(v), "prmt {x:#x} {y:#x} {c:#x} {mode:?}");
                            }
                        }
                    }
                }
            }
        }
        // The digit's byte copied to bytes 0 and 2, the rest from the zero
        // operand: only its free bits vary, twice.
        let digit = fact(0xf, 0);
        let zero = KnownBits::constant(0);
        let k = prmt_known(digit, zero, 0x4040, PrmtMode::Generic);
        assert_eq!(k.unknown_mask(), 0xf000f);
        // Sign copies of a byte whose top bit is known 0: zero.
        assert_eq!(prmt_known(digit, zero, 0x8888, PrmtMode::Generic), zero);
    }

    #[test]
    fn bit_field_insert() {
        // bfi.b32 %r4, %ctaid, %lane, 4, 28: ctaid * 16 + lane (the kernel of issue 10)
        assert_eq!(bfi(5, 7, 4, 28, 32), 5 * 16 + 7);
        // the field is cut at the msb, and the length at 255
        assert_eq!(bfi(-1, 0, 28, 8, 32), 0xf000_0000);
        assert_eq!(bfi(0x3, 0xff, 2, 0, 32), 0xff, "length 0 gives b");
        assert_eq!(bfi(0x3, 0xff, 40, 4, 32), 0xff, "position beyond the msb");
        assert_eq!(bfi(0, 0xff, 2, 2, 32), 0xf3);
        assert_eq!(bfi(1, 0, 63, 1, 64), i64::MIN);
    }

    #[test]
    fn byte_permute_every_mode() {
        let a = 0x4433_2211i64;
        let b = 0x8877_6655i64;
        // generic: selectors 0x3210 give a, 0x7654 give b, 0x0123 reverse a
        assert_eq!(prmt(a, b, 0x3210, PrmtMode::Generic), a);
        assert_eq!(prmt(a, b, 0x7654, PrmtMode::Generic), b);
        assert_eq!(prmt(a, b, 0x0123, PrmtMode::Generic), 0x1122_3344);
        // sign replication: byte 7 (0x88) has its msb set, byte 0 (0x11) not;
        // nibbles from the low end select d.b0 .. d.b3
        assert_eq!(prmt(a, b, 0x08f0, PrmtMode::Generic), 0x1100_ff11);
        assert_eq!(prmt(a, b, 1, PrmtMode::F4e), 0x5544_3322);
        assert_eq!(prmt(a, b, 0, PrmtMode::B4e), 0x6677_8811);
        assert_eq!(prmt(a, b, 2, PrmtMode::Rc8), 0x3333_3333);
        assert_eq!(prmt(a, b, 1, PrmtMode::Ecl), 0x4433_2222);
        assert_eq!(prmt(a, b, 2, PrmtMode::Ecr), 0x3333_2211);
        assert_eq!(prmt(a, b, 1, PrmtMode::Rc16), 0x4433_4433);
    }

    #[test]
    fn funnel_shifts() {
        let (lo, hi) = (0x8000_0001i64, 0x0000_0003i64);
        assert_eq!(shf(lo, hi, 1, true, false), 0x7);
        assert_eq!(shf(lo, hi, 1, false, false), 0xc000_0000);
        // wrap masks the amount, clamp caps it at 32
        assert_eq!(shf(lo, hi, 33, true, false), 0x7);
        assert_eq!(shf(lo, hi, 33, true, true), lo);
        assert_eq!(shf(lo, hi, 40, false, true), hi);
        // a rotate: shf.l.wrap with a == b
        assert_eq!(shf(0x8000_0001, 0x8000_0001, 4, true, false), 0x18);
    }

    #[test]
    fn three_input_logic() {
        let (ta, tb, tc) = (0xF0, 0xCC, 0xAA);
        for lut in [0x00, 0x80, 0x96, 0xe8, 0xf8, 0x6a, 0xca] {
            assert_eq!(
                lop3(ta, tb, tc, lut, 32),
                lut,
                "the table is its own witness"
            );
        }
        // (a & b) | c = 0xEA
        assert_eq!(lop3(0b1100, 0b1010, 0b0001, 0xEA, 32), 0b1001);
        assert_eq!(lop3(0, 0, 0, 0xff, 32), 0xffff_ffff);
    }

    #[test]
    fn counting_and_reversal() {
        assert_eq!(brev(1, 32), 0x8000_0000);
        assert_eq!(brev(0x8000_0000, 32), 1);
        assert_eq!(brev(1, 64), i64::MIN);
        assert_eq!(popc(-1, 32), 32);
        assert_eq!(popc(0xf0f0, 64), 8);
        assert_eq!(clz(1, 32), 31);
        assert_eq!(clz(0, 32), 32);
        assert_eq!(clz(-1, 64), 0);
        assert_eq!(bfind(0x10, 32, false, false), 4);
        assert_eq!(bfind(0x10, 32, false, true), 27);
        assert_eq!(bfind(0, 32, false, false), 0xffff_ffff);
        assert_eq!(bfind(-1, 32, true, false), 0xffff_ffff);
        assert_eq!(bfind(-2, 32, true, false), 0);
    }

    #[test]
    fn masks_and_extensions() {
        assert_eq!(bmsk(1, 2, false), 0x6, "the ISA's example");
        assert_eq!(bmsk(0, 0, false), 0);
        assert_eq!(
            bmsk(4, 28, false),
            0xffff_fff0u32 as i64,
            "sum 32 overflows"
        );
        assert_eq!(bmsk(33, 1, true), 0);
        assert_eq!(bmsk(33, 1, false), 0x2, "wrap reads 33 as 1");
        assert_eq!(szext(0xffff_ffff, 0, false, false), 0, "the ISA's example");
        assert_eq!(szext(0xff, 4, false, true), 0xf);
        assert_eq!(szext(0x8, 4, true, true), -8);
        assert_eq!(szext(0x12345, 40, false, true), 0x12345);
        assert_eq!(
            pack(&[0x1234_5678, 0x9abc_def0u32 as i64], 32),
            0x9abc_def0_1234_5678u64 as i64
        );
        assert_eq!(unpack(0x9abc_def0_1234_5678u64 as i64, 1, 32), 0x9abc_def0);
        assert_eq!(unpack(0x9abc_def0_1234_5678u64 as i64, 0, 32), 0x1234_5678);
        assert_eq!(pack(&[0x11, 0x22, 0x33, 0x44], 8), 0x4433_2211);
    }
}
