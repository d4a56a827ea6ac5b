//! Floating-point SASS instructions the lowering evaluates exactly: the
//! IEEE 754 binary32 arithmetic (`FADD`, `FMUL`, `FFMA`, their `32I`
//! forms), conversions (`I2F`, `I2FP`, `F2I`, `FRND`), `FSEL`, `FMNMX`, and
//! `MUFU.RCP` and `FCHK` inside ptxas's integer and `f32` divisions (below). Each becomes the
//! [`AluOp::Float`] op whose PTX instruction ptxas compiles to it
//! (`add/mul/fma.rnd.f32`, `cvt`, `selp`, `min/max`), which
//! `analysis::float` evaluates lane by lane when the operands are known.
//!
//! # Operands
//!
//! `-x` and `|x|` on a float operand are `neg.f32`/`abs.f32` (sign-bit
//! operations, exact). nvdisasm prints a float instruction's immediate as a
//! decimal number (`0.5`, `1`, `-1`, `1.4426950216293334961`, `+INF`): an
//! integer immediate of a float operand is that number as an `f32` (not a
//! bit pattern), a decimal one is parsed and rounded to `f32` (nvdisasm
//! prints enough digits to identify the `f32`), `QNAN` is not evaluated.
//!
//! # Modifiers
//!
//! `.FTZ` (flush `f32` subnormal inputs and results), `.SAT` (clamp to
//! `[0, 1]`), `.RN/.RZ/.RM/.RP` (rounding; `.RN` when none) as in PTX.
//! Any other modifier (`FMUL.D2`, `.M4`, `.NAN`…) leaves the instruction
//! opaque. Conversions read their types from the modifiers: `I2F` converts
//! from `.S32` (default), `.U32`, `.S16/.U16/.S8/.U8` to `.F32`; `I2FP.F32`
//! the same; `F2I` from `.F32` to `.S32` (default), `.U32`, `.S16/.U16/.S8/.U8`
//! with `.TRUNC` (`rzi`), `.FLOOR` (`rmi`), `.CEIL` (`rpi`) or none (`rni`);
//! `FRND` rounds to an integral `f32` the same way. 64-bit and 16-bit float
//! formats (`.F64`, `.F16`), 64-bit integers and the packed `HADD2`/`HFMA2`
//! forms stay opaque (a 64-bit value's halves need not follow the
//! lowering's pair convention).
//!
//! # `MUFU.RCP` in an integer division
//!
//! ptxas divides by a run-time 32-bit value with a float reciprocal
//! estimate refined in integers:
//!
//! ```text
//! I2F.U32.RP R0, d            ; f = d rounded up to f32
//! MUFU.RCP   R0, R0           ; r ≈ 1/f
//! IADD3      R2, R0, 0xffffffe, RZ   ; bits(r) + 2^28 − 2: r·2^32 less 2 ulp
//! F2I.FTZ.U32.TRUNC.NTZ R3, R2       ; q0 ≤ 2^32/d
//! IMAD R5, -R3, d, RZ ; MOV R2, RZ ; IMAD.HI.U32 R3, R3, R5, R2  ; Newton
//! IMAD.HI.U32 q, R3, n, RZ ; r = n − q·d ; two conditional corrections
//! ```
//!
//! `MUFU.RCP` is approximate (its result is within an ulp of `1/f`, not
//! bit-specified), so in general it is opaque. But the sequence gives the
//! exact quotient for any estimate within that bound (that is what ptxas
//! relies on: the `−2 ulp` makes `q0` an underestimate, the Newton step and
//! the two corrections make up the rest), and the correctly rounded
//! reciprocal is within it. So a `MUFU.RCP` whose source was written (in
//! listing order) by an `I2F` rounding up (`.RP`, which ptxas emits only
//! for this idiom) is lowered to `rcp.rn.f32`: the intermediate estimate may
//! differ from the hardware's in its last bits, the quotient and remainder
//! the sequence produces do not.
//!
//! # `FCHK` and `MUFU.RCP` in an `f32` division
//!
//! ptxas compiles `div.rn.f32 q, a, b` (CUDA's `a / b`) to a fast path and
//! a call of a slow-path subroutine (`__internal_…_div_rn_noftz_f32_slowpath`,
//! no memory access) taken when `FCHK` says so
//! (`tests/hw/blind/raw/sass.tgz`, `rmsnorm_f32` at 0x09d0; the same from
//! `ptxas -arch=sm_90` on `div.rn.f32`):
//!
//! ```text
//! MUFU.RCP R8, b            ; r ≈ 1/b
//! FFMA R5, -b, R8, 1        ; e = 1 − b·r
//! FFMA R5, R8, R5, R8       ; r' = r + r·e
//! FCHK P0, a, b             ; P0: the fast path may be inexact
//! FFMA R4, a, R5, RZ        ; q0 = a·r'
//! FFMA R6, -b, R4, a        ; rem = a − b·q0 (exact)
//! FFMA R4, R5, R6, R4       ; q = q0 + r'·rem (correctly rounded)
//! @!P0 BRA done  ;  MOV R4, ret ; CALL slowpath ; IMAD.MOV R4, RZ, RZ, R0
//! ```
//!
//! Both paths give the correctly rounded quotient, and the branch is over
//! code without memory accesses, so a model of `FCHK` that sends more
//! inputs to the slow path than the hardware does changes no figure. The
//! hardware's rule is not documented; the lowering's `FCHK` is true unless
//! `b`'s exponent is in `[-125, 125]`, `a`'s in `[-100, 127]` and their
//! difference in `[-100, 125]` (every NaN, infinity, zero and subnormal
//! goes to the slow path), where the fast path is exact for any
//! reciprocal estimate within an ulp: the test
//! `the_f32_division_fast_path_is_exact_where_fchk_is_false` checks it on
//! three million operand pairs (the estimate correctly rounded and an ulp
//! either side). A `MUFU.RCP` whose source is the divisor of an `FCHK`
//! within the next 16 instructions (none writing the divisor, no branch
//! between) is then `rcp.rn.f32`, like the integer division's: the
//! quotient the fast path computes is exact. The slow path's own
//! `MUFU.RCP` stays opaque (its quotient unknown).

use super::{alu, alu_op, Lowerer};
use crate::ir::alu::{AluOp, AluOp2, Cmp, FMode, FloatOp, Round, Ty};
use crate::ir::{OpKind, Reg, Src};
use crate::sass::ast::{Instruction, Operand, OperandKind};
use crate::source::Span;

const F32: Ty = Ty {
    bits: 32,
    signed: true,
    float: true,
};

/// An integer type modifier (`S32`, `U16`…) of a conversion.
fn int_ty(m: &str) -> Option<Ty> {
    let (signed, bits) = match m {
        "S32" => (true, 32),
        "U32" => (false, 32),
        "S16" => (true, 16),
        "U16" => (false, 16),
        "S8" => (true, 8),
        "U8" => (false, 8),
        _ => return None,
    };
    Some(Ty {
        bits,
        signed,
        float: false,
    })
}

/// The `f32` bit pattern (canonical: sign-extended) of a float
/// instruction's immediate, as nvdisasm prints it.
pub(super) fn f32_immediate(o: &Operand<'_>) -> Option<i64> {
    let x: f32 = match &o.kind {
        OperandKind::Int(v) => *v as f32,
        OperandKind::Float(t) => match t.text.trim_start_matches('+') {
            "INF" => f32::INFINITY,
            "-INF" => f32::NEG_INFINITY,
            s if s.contains("NAN") => return None,
            s => s.parse::<f32>().ok()?,
        },
        _ => return None,
    };
    let x = if o.negated { -x } else { x };
    let x = if o.absolute { x.abs() } else { x };
    Some(i64::from(x.to_bits() as i32))
}

impl<'src> Lowerer<'_, 'src> {
    /// A float operand: an immediate as an `f32`, a register or constant
    /// with its `-`/`|…|` applied as `neg.f32`/`abs.f32`.
    pub(super) fn fsrc(&mut self, o: &Operand<'src>, span: Span, mn: &'src str) -> Src {
        if matches!(o.kind, OperandKind::Int(_) | OperandKind::Float(_)) {
            return f32_immediate(o).map_or(Src::Unknown, Src::Imm);
        }
        let plain = Operand {
            negated: false,
            absolute: false,
            ..o.clone()
        };
        if o.inverted {
            return Src::Unknown;
        }
        let mut s = self.src(&plain, span, mn);
        for (on, op) in [(o.absolute, FloatOp::Abs), (o.negated, FloatOp::Neg)] {
            if on {
                let t = self.temp();
                self.push_alu(
                    alu(AluOp::Float(op, FMode::NEAREST), F32),
                    t,
                    vec![s],
                    span,
                    mn,
                );
                s = Src::Reg(t, 0);
            }
        }
        s
    }

    fn fsrcs_at(
        &mut self,
        ins: &Instruction<'src>,
        at: std::ops::Range<usize>,
        span: Span,
        mn: &'src str,
    ) -> Option<Vec<Src>> {
        at.map(|i| ins.operands.get(i).map(|o| self.fsrc(o, span, mn)))
            .collect()
    }

    /// The float instructions of the module documentation; `None` leaves
    /// the instruction to the caller (opaque).
    pub(super) fn float_instruction(
        &mut self,
        ins: &Instruction<'src>,
        opc: &str,
        mods: &[&str],
        span: Span,
        mn: &'src str,
    ) -> Option<OpKind> {
        let mut m = FMode::NEAREST;
        // Modifiers every form accepts; the rest are the form's own.
        let mut rest: Vec<&str> = Vec::new();
        for &x in mods {
            match x {
                "FTZ" => m.ftz = true,
                "SAT" => m.sat = true,
                "RN" => m.round = Round::Nearest,
                "RZ" | "TRUNC" => m.round = Round::Zero,
                "RM" | "FLOOR" => m.round = Round::Down,
                "RP" | "CEIL" => m.round = Round::Up,
                "NTZ" => {}
                _ => rest.push(x),
            }
        }
        let ops = &ins.operands;
        match opc {
            "FADD" | "FADD32I" | "FMUL" | "FMUL32I" | "FFMA" | "FFMA32I" => {
                if !rest.is_empty() || ops.len() < 3 {
                    return None;
                }
                let (op, n) = match opc.trim_end_matches("32I") {
                    "FADD" => (FloatOp::Add, 2),
                    "FMUL" => (FloatOp::Mul, 2),
                    _ => (FloatOp::Fma, 3),
                };
                let srcs = self.fsrcs_at(ins, 1..1 + n, span, mn)?;
                let d = self.dst(ops.first())?;
                Some(alu_op(alu(AluOp::Float(op, m), F32), d, srcs))
            }
            // `FSEL Rd, a, b, P`: `selp`; `FMNMX Rd, a, b, PT|!PT`: min or
            // max (IEEE minNum/maxNum: a NaN operand gives the other).
            "FSEL" | "FMNMX" => {
                let plain = FMode { ftz: false, ..m };
                if !rest.is_empty() || plain != FMode::NEAREST || (m.ftz && opc == "FSEL") {
                    return None;
                }
                let mut srcs = self.fsrcs_at(ins, 1..3, span, mn)?;
                let p = ops.get(3)?;
                if opc == "FSEL" {
                    srcs.push(self.src(p, span, mn));
                    let d = self.dst(ops.first())?;
                    return Some(alu_op(alu(AluOp::Selp, F32), d, srcs));
                }
                // Only a constant selector (PT: min, !PT: max).
                if p.reg().is_none_or(|r| r.index.is_some()) {
                    return None;
                }
                let op = if p.not {
                    FloatOp::Max(false)
                } else {
                    FloatOp::Min(false)
                };
                let d = self.dst(ops.first())?;
                Some(alu_op(alu(AluOp::Float(op, m), F32), d, srcs))
            }
            "I2F" | "I2FP" => {
                let mut src = Ty {
                    bits: 32,
                    signed: true,
                    float: false,
                };
                for x in rest {
                    match x {
                        "F32" => {}
                        x => src = int_ty(x)?,
                    }
                }
                let s = self.src(ops.get(1)?, span, mn);
                let d = self.dst(ops.first())?;
                let op = FloatOp::Cvt {
                    src,
                    integral: false,
                };
                Some(alu_op(alu(AluOp::Float(op, m), F32), d, vec![s]))
            }
            "F2I" | "FRND" => {
                let mut dst = if opc == "F2I" {
                    Ty {
                        bits: 32,
                        signed: true,
                        float: false,
                    }
                } else {
                    F32
                };
                for x in rest {
                    match x {
                        "F32" => {}
                        x if opc == "F2I" => dst = int_ty(x)?,
                        _ => return None,
                    }
                }
                let s = self.fsrc(ops.get(1)?, span, mn);
                let d = self.dst(ops.first())?;
                let op = FloatOp::Cvt {
                    src: F32,
                    integral: true,
                };
                Some(alu_op(alu(AluOp::Float(op, m), dst), d, vec![s]))
            }
            "MUFU" => {
                if rest != ["RCP"] || m != FMode::NEAREST {
                    return None;
                }
                let src = ops.get(1)?;
                let r = src.reg().filter(|r| r.index.is_some())?;
                let sr: Reg = self.reg_of(r, 0)?;
                if !(self.i2f_rp.contains(&sr) || self.checked_divisor(ins))
                    || src.negated
                    || src.absolute
                {
                    return None;
                }
                let s = Src::Reg(sr, 0);
                let d = self.dst(ops.first())?;
                Some(alu_op(alu(AluOp::Float(FloatOp::Rcp, m), F32), d, vec![s]))
            }
            "FCHK" if rest.is_empty() && m == FMode::NEAREST => self.fchk(ins, span, mn),
            _ => None,
        }
    }
}

/// Biased exponents (`bits >> 23 & 0xff`) of an `f32` division `a / b`
/// for which ptxas's fast path (module documentation, "`FCHK`") gives the
/// correctly rounded quotient with any reciprocal estimate within an ulp:
/// `b` with an exponent in `[-125, 125]` (its reciprocal normal), `a` in
/// `[-100, 127]` (the remainder `a - b·q0` exact), their difference in
/// `[-100, 125]` (the quotient and `a·r` normal and finite).
const SAFE_B: (i64, i64) = (2, 252);
const SAFE_A: (i64, i64) = (27, 254);
const SAFE_DIFF: (i64, i64) = (-100, 125);

/// `FCHK`'s predicate as the lowering computes it: true unless both
/// exponents and their difference are in the ranges above.
#[cfg(test)]
fn fchk_model(a: f32, b: f32) -> bool {
    let e = |x: f32| i64::from((x.to_bits() >> 23) & 0xff);
    let (ea, eb) = (e(a), e(b));
    let inside = |v: i64, (lo, hi): (i64, i64)| v >= lo && v <= hi;
    !(inside(eb, SAFE_B) && inside(ea, SAFE_A) && inside(ea - eb, SAFE_DIFF))
}

impl<'src> Lowerer<'_, 'src> {
    /// True when `ins` (`MUFU.RCP Rd, b`) starts ptxas's `f32` division
    /// by `b`: an `FCHK P, a, b` follows within 16 instructions, with no
    /// instruction between them writing `b`.
    fn checked_divisor(&self, ins: &Instruction<'src>) -> bool {
        let Some(b) = ins.operands.get(1).and_then(|o| o.reg()) else {
            return false;
        };
        let same = |o: &Operand<'_>| {
            o.reg()
                .is_some_and(|r| r.file == b.file && r.index == b.index && r.index.is_some())
        };
        let Some(at) = self.func.at_offset(ins.offset) else {
            return false;
        };
        for next in self.func.instructions.iter().skip(at + 1).take(16) {
            let ops = &next.operands;
            if next.opcode() == "FCHK" {
                if ops
                    .get(2)
                    .is_some_and(|o| same(o) && !o.negated && !o.absolute)
                {
                    return true;
                }
            } else if ops.first().is_some_and(same)
                || next.opcode().starts_with("BR")
                || next.opcode() == "EXIT"
                || next.opcode() == "CALL"
            {
                return false;
            }
        }
        false
    }

    /// `FCHK Pd, a, b`: whether ptxas's `f32` division `a / b` must take
    /// its slow path. The hardware's exact rule is not documented; the
    /// lowering's `Pd` is true outside the exponent ranges in which the
    /// fast path is exact ([`SAFE_A`], [`SAFE_B`], [`SAFE_DIFF`]), a
    /// superset of the inputs the hardware sends to the slow path
    /// (module documentation, "`FCHK`").
    fn fchk(&mut self, ins: &Instruction<'src>, span: Span, mn: &'src str) -> Option<OpKind> {
        let ops = &ins.operands;
        let a = self.fsrc(ops.get(1)?, span, mn);
        let b = self.fsrc(ops.get(2)?, span, mn);
        let s32 = Ty {
            bits: 32,
            signed: true,
            float: false,
        };
        let exponent = |lw: &mut Self, x: Src| {
            let t = lw.temp();
            lw.push_alu(
                alu(AluOp::And, s32),
                t,
                vec![x, Src::Imm(0x7f80_0000)],
                span,
                mn,
            );
            let e = lw.temp();
            lw.push_alu(
                alu(AluOp::Shr, s32),
                e,
                vec![Src::Reg(t, 0), Src::Imm(23)],
                span,
                mn,
            );
            Src::Reg(e, 0)
        };
        let ea = exponent(self, a);
        let eb = exponent(self, b);
        let diff = self.temp();
        self.push_alu(
            alu(AluOp::Sub, s32),
            diff,
            vec![ea.clone(), eb.clone()],
            span,
            mn,
        );
        let mut inside: Option<Reg> = None;
        for (v, (lo, hi)) in [(eb, SAFE_B), (ea, SAFE_A), (Src::Reg(diff, 0), SAFE_DIFF)] {
            for (cmp, bound) in [(Cmp::Ge, lo), (Cmp::Le, hi)] {
                let p = self.temp();
                let (comb, mut srcs) = match inside {
                    Some(q) => (Some(AluOp2::And), vec![Src::Reg(q, 0)]),
                    None => (None, Vec::new()),
                };
                srcs.insert(0, Src::Imm(bound));
                srcs.insert(0, v.clone());
                self.push_alu(alu(AluOp::Setp(cmp, comb), s32), p, srcs, span, mn);
                inside = Some(p);
            }
        }
        let d = self.dst(ops.first())?;
        Some(OpKind::PredLogic {
            op: "not",
            dst: d,
            srcs: vec![Src::Reg(inside?, 0)],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::float::eval;

    /// ptxas's unsigned division (module documentation), its float steps
    /// evaluated as this lowering does (`I2F.U32.RP`, `rcp.rn.f32`,
    /// `F2I.FTZ.U32.TRUNC`), its integer steps as the ISA defines them
    /// (`IMAD.HI.U32` with a pair addend).
    fn ptxas_udiv(n: u32, d: u32) -> u32 {
        let u32t = Ty {
            bits: 32,
            signed: false,
            float: false,
        };
        let up = FMode {
            round: Round::Up,
            ..FMode::NEAREST
        };
        let trunc = FMode {
            round: Round::Zero,
            ftz: true,
            ..FMode::NEAREST
        };
        let cvt = |src| FloatOp::Cvt {
            src,
            integral: false,
        };
        let f = eval(cvt(u32t), up, F32, &[i64::from(d)]).expect("I2F");
        let r = eval(FloatOp::Rcp, FMode::NEAREST, F32, &[f]).expect("MUFU.RCP");
        let r = i64::from((r as u32).wrapping_add(0x0fff_fffe) as i32);
        let to_int = FloatOp::Cvt {
            src: F32,
            integral: true,
        };
        let q0 = eval(to_int, trunc, u32t, &[r]).expect("F2I") as u32;
        let e = q0.wrapping_neg().wrapping_mul(d);
        // IMAD.HI.U32 q, q0, e, pair(q0:0)
        let q1 = ((u64::from(q0) * u64::from(e)).wrapping_add(u64::from(q0) << 32) >> 32) as u32;
        let mut q = ((u64::from(q1) * u64::from(n)) >> 32) as u32;
        let mut rem = n.wrapping_sub(q.wrapping_mul(d));
        if rem >= d {
            rem -= d;
            q += 1;
        }
        if rem >= d {
            q += 1;
        }
        q
    }

    /// The sequence gives the exact quotient with the correctly rounded
    /// reciprocal, for every divisor below 2^16 and divisors spread over
    /// the 32-bit range, each with dividends at the edges (multiples of d
    /// and their neighbours, the largest values).
    #[test]
    fn ptxas_division_with_a_correctly_rounded_reciprocal_is_exact() {
        let mut divisors: Vec<u32> = (1..1 << 16).collect();
        let mut x: u32 = 0x9e37_79b9;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            divisors.push(x.max(1));
        }
        divisors.extend([u32::MAX, u32::MAX - 1, 1 << 31, (1 << 31) + 1, 0x8000_0001]);
        for &d in &divisors {
            let k = u32::MAX / d;
            for n in [
                0,
                1,
                d - 1,
                d,
                d.wrapping_add(1),
                k.wrapping_mul(d),
                k.wrapping_mul(d).wrapping_sub(1),
                u32::MAX,
                u32::MAX - 1,
                x,
                x.rotate_left(7),
            ] {
                assert_eq!(ptxas_udiv(n, d), n / d, "{n} / {d}");
            }
        }
    }

    #[test]
    fn immediates_are_decimal_floats() {
        use crate::sass::ast::Tok;
        use crate::source::Span;
        let op = |kind, negated| Operand {
            kind,
            negated,
            not: false,
            inverted: false,
            absolute: false,
            modifiers: Vec::new(),
            span: Span::new(0, 0),
        };
        let tok = |text| Tok {
            text,
            span: Span::new(0, 0),
        };
        assert_eq!(
            f32_immediate(&op(OperandKind::Int(1), false)),
            Some(0x3f80_0000)
        );
        assert_eq!(
            f32_immediate(&op(OperandKind::Int(16_777_216), false)),
            Some(0x4b80_0000)
        );
        assert_eq!(
            f32_immediate(&op(OperandKind::Float(tok("0.5")), true)),
            Some(i64::from(0xbf00_0000u32 as i32))
        );
        assert_eq!(
            f32_immediate(&op(OperandKind::Float(tok("1.4426950216293334961")), false)),
            Some(0x3fb8_aa3b)
        );
        assert_eq!(
            f32_immediate(&op(OperandKind::Float(tok("+INF")), false)),
            Some(0x7f80_0000)
        );
        assert_eq!(
            f32_immediate(&op(OperandKind::Float(tok("+QNAN")), false)),
            None
        );
    }

    /// ptxas's `f32` division fast path (module documentation, "`FCHK`")
    /// with the reciprocal estimate `r`, its FFMAs evaluated as this
    /// lowering does.
    fn fast_division(a: f32, b: f32, r: f32) -> f32 {
        let e = (-b).mul_add(r, 1.0);
        let r = r.mul_add(e, r);
        let q0 = a.mul_add(r, 0.0);
        let rem = (-b).mul_add(q0, a);
        r.mul_add(rem, q0)
    }

    /// Where `FCHK`'s model says the fast path suffices, the fast path
    /// gives the correctly rounded quotient `a / b` with the correctly
    /// rounded reciprocal (what the lowering evaluates) and with the
    /// estimates an ulp either side (the hardware's `MUFU.RCP` is within
    /// that bound): over random operands of every sign and exponent, and
    /// the exponents at the model's edges.
    #[test]
    fn the_f32_division_fast_path_is_exact_where_fchk_is_false() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut checked = 0u32;
        for k in 0..3_000_000u32 {
            let (u, v) = (next(), next());
            let (mut a, mut b) = (f32::from_bits(u as u32), f32::from_bits((u >> 32) as u32));
            if k % 3 == 0 {
                // Exponents at the model's edges.
                let ea = [27u32, 28, 127, 253, 254][(v % 5) as usize];
                let eb = [2u32, 3, 127, 251, 252][((v >> 8) % 5) as usize];
                a = f32::from_bits((a.to_bits() & 0x807f_ffff) | (ea << 23));
                b = f32::from_bits((b.to_bits() & 0x807f_ffff) | (eb << 23));
            }
            if fchk_model(a, b) {
                continue;
            }
            checked += 1;
            let rn = eval(
                FloatOp::Rcp,
                FMode::NEAREST,
                F32,
                &[i64::from(b.to_bits() as i32)],
            )
            .expect("rcp.rn") as u32;
            let want = (a / b).to_bits();
            for r in [rn, rn.wrapping_add(1), rn.wrapping_sub(1)] {
                let got = fast_division(a, b, f32::from_bits(r)).to_bits();
                assert_eq!(got, want, "{a:e} / {b:e} with the estimate {r:#x}");
            }
        }
        assert!(checked > 1_000_000, "{checked}");
    }
}
