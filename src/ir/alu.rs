//! Arithmetic instructions as the IR names them: [`Alu`] (an [`AluOp`] and its
//! type [`Ty`]) and [`decode`], which reads a PTX-style opcode and its
//! modifiers into one. This is the vocabulary of [`super::OpKind::Alu`]; what
//! an instruction *does* to abstract values (its transfer function) lives in
//! the analysis (`analysis::transfer`, which re-exports these names), so the
//! IR does not depend on the analysis.
//!
//! Integer instructions are [`AluOp`]'s own variants. Floating-point
//! instructions on `f32` and `f64` whose result the PTX ISA defines exactly
//! (IEEE 754 arithmetic with a rounding mode, conversions, comparisons) are
//! [`AluOp::Float`]: a [`FloatOp`] and its [`FMode`] (rounding, `.ftz`,
//! `.sat`). Approximate instructions (`div.approx`, `div.full`,
//! `rcp.approx`, `sqrt.approx`, `rsqrt`, `ex2`, `lg2`, `sin`, `cos`,
//! `tanh`), whose results the ISA gives only within an error bound, and the
//! 16-bit and packed float types (`f16`, `bf16`, `f16x2`, `tf32`, the 8-bit
//! formats, `f32x2`) are not decoded: their destinations are unknown. A
//! float `mov`, `selp` and the ordered `setp` comparisons (`eq`…`ge` without
//! `.ftz`) keep the integer variants ([`AluOp::Mov`], [`AluOp::Selp`],
//! [`AluOp::Setp`] with a float [`Ty`]): they move bits or compare values
//! without rounding.

/// An integer type: width and signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ty {
    /// Bits (8, 16, 32, 64).
    pub bits: u32,
    /// `.sN`.
    pub signed: bool,
    /// `.fN` / `.bf16` … (not modelled).
    pub float: bool,
}

impl Ty {
    /// Parses a type modifier (`u32`, `s64`, `b16`, `f32`, `pred`…).
    pub fn parse(m: &str) -> Option<Ty> {
        let (k, n) = m.split_at(1.min(m.len()));
        let bits = n.parse::<u32>().ok();
        match (k, bits) {
            ("u", Some(b)) | ("b", Some(b)) if matches!(b, 8 | 16 | 32 | 64 | 128) => Some(Ty {
                bits: b,
                signed: false,
                float: false,
            }),
            ("s", Some(b)) if matches!(b, 8 | 16 | 32 | 64) => Some(Ty {
                bits: b,
                signed: true,
                float: false,
            }),
            ("f", Some(b)) if matches!(b, 16 | 32 | 64) => Some(Ty {
                bits: b,
                signed: true,
                float: true,
            }),
            _ => match m {
                "bf16" | "e4m3" | "e5m2" => Some(Ty {
                    bits: 16,
                    signed: true,
                    float: true,
                }),
                "f16x2" | "bf16x2" | "tf32" => Some(Ty {
                    bits: 32,
                    signed: true,
                    float: true,
                }),
                "e4m3x2" | "e5m2x2" => Some(Ty {
                    bits: 16,
                    signed: true,
                    float: true,
                }),
                _ => None,
            },
        }
    }
    /// Reads a stored value as this type (wraps to the width, sign- or zero-extends).
    pub fn read(self, v: i64) -> i64 {
        match self.bits {
            b if b >= 64 => v,
            b => {
                let sh = 64 - b;
                if self.signed {
                    (v << sh) >> sh
                } else {
                    ((v as u64) << sh >> sh) as i64
                }
            }
        }
    }
}

/// Comparison of `setp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `eq`
    Eq,
    /// `ne`
    Ne,
    /// `lt` / `lo`
    Lt,
    /// `le` / `ls`
    Le,
    /// `gt` / `hi`
    Gt,
    /// `ge` / `hs`
    Ge,
}

/// `.lo`, `.hi`, `.wide` of `mul`/`mad`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MulMode {
    /// Low half.
    Lo,
    /// High half.
    Hi,
    /// Double width.
    Wide,
}

/// The instructions the analysis models: integer ones, and the float ones
/// of [`AluOp::Float`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluOp {
    /// `mov`, `cvta` (identity on values).
    Mov,
    /// `add`
    Add,
    /// `sub`
    Sub,
    /// `mul`, `mul24`
    Mul(MulMode),
    /// `mad`, `mad24`
    Mad(MulMode),
    /// `shl`
    Shl,
    /// `shr`
    Shr,
    /// `and`
    And,
    /// `or`
    Or,
    /// `xor`
    Xor,
    /// `not`
    Not,
    /// `neg`
    Neg,
    /// `abs`
    Abs,
    /// `min`
    Min,
    /// `max`
    Max,
    /// `div`
    Div,
    /// `rem`
    Rem,
    /// `selp`
    Selp,
    /// `slct`: `c >= 0 ? a : b` (integer `c`)
    Slct,
    /// `cvt` from `src` to the instruction type.
    Cvt(Ty),
    /// `setp` with an optional `.and/.or/.xor` combination.
    Setp(Cmp, Option<AluOp2>),
    /// `bfe`
    Bfe,
    /// `bfi`: `a` inserted into `b` at bit `c`, `d` bits long.
    Bfi,
    /// `prmt` with its mode.
    Prmt(PrmtMode),
    /// `shf.l` / `shf.r`, `.clamp` or `.wrap`.
    Shf {
        /// `.l`
        left: bool,
        /// `.clamp`
        clamp: bool,
    },
    /// `lop3` (the truth table is the fourth operand).
    Lop3,
    /// `brev`
    Brev,
    /// `popc`
    Popc,
    /// `clz`
    Clz,
    /// `bfind`, `.shiftamt`.
    Bfind(bool),
    /// `bmsk`, `.clamp`.
    Bmsk(bool),
    /// `szext`, `.clamp`.
    Szext(bool),
    /// `mov.bN d, {p0, p1, …}`: the parts (low first) are the sources, each of
    /// the given width in bits.
    Pack(u8),
    /// `mov.bN {d0, d1}, s`: part `.0` (low first) of the given width `.1`;
    /// the second destination receives part `.0 + 1`.
    Unpack(u8, u8),
    /// `shfl.sync` (a lane permutation).
    Shfl(ShflMode),
    /// `vote`, `activemask`, `redux.sync`, `match.sync`, `elect.sync`.
    Warp(WarpOp),
    /// `mapa`: the address of the same shared variable in another CTA of the cluster.
    Mapa,
    /// An IEEE floating-point instruction on `f32`/`f64` (see the module doc).
    Float(FloatOp, FMode),
}

/// A floating-point instruction the analysis evaluates exactly. The
/// instruction's [`Alu::ty`] is the destination type (`f32`/`f64`; for
/// [`FloatOp::Cvt`] possibly an integer), except for [`FloatOp::Cmp`] and
/// [`FloatOp::Testp`], whose type is the operands'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatOp {
    /// `add`
    Add,
    /// `sub`
    Sub,
    /// `mul`
    Mul,
    /// `fma`, `mad.rnd` (one rounding of `a * b + c`).
    Fma,
    /// `neg`
    Neg,
    /// `abs`
    Abs,
    /// `min`, with `.NaN` (`true`: a NaN operand gives NaN).
    Min(bool),
    /// `max`, with `.NaN`.
    Max(bool),
    /// `div.rnd` (IEEE division; `div.approx`/`div.full` are not decoded).
    Div,
    /// `rcp.rnd` (IEEE `1 / a`).
    Rcp,
    /// `sqrt.rnd` (IEEE square root).
    Sqrt,
    /// `copysign`: the second operand with the first one's sign.
    Copysign,
    /// `cvt` from `src` to the instruction type: integer to float, float to
    /// integer (the rounding is an integer rounding, `.rni` …: `integral`),
    /// float to float (`integral`: `cvt.rni.f32.f32`, rounding to an integral
    /// value in the float format).
    Cvt {
        /// The source type.
        src: Ty,
        /// `.rni/.rzi/.rmi/.rpi`.
        integral: bool,
    },
    /// `setp` with a comparison [`AluOp::Setp`] does not carry (unordered,
    /// `num`, `nan`, or any comparison with `.ftz`), and its `.and/.or/.xor`.
    Cmp(FCmp, Option<AluOp2>),
    /// `testp`.
    Testp(TestOp),
}

/// Floating-point comparisons of `setp` (PTX ISA, "Floating Point
/// Comparisons"): ordered (false when an operand is NaN), unordered (true
/// when an operand is NaN), `num` (neither is NaN), `nan` (either is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FCmp {
    /// An ordered comparison.
    Ordered(Cmp),
    /// An unordered comparison (`equ`, `neu`, `ltu`, `leu`, `gtu`, `geu`).
    Unordered(Cmp),
    /// `num`
    Num,
    /// `nan`
    Nan,
}

/// The property `testp` tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestOp {
    /// `.finite`
    Finite,
    /// `.infinite`
    Infinite,
    /// `.number`
    Number,
    /// `.notanumber`
    NotANumber,
    /// `.normal`
    Normal,
    /// `.subnormal`
    Subnormal,
}

/// An IEEE 754 rounding direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// `.rn` / `.rni`: to nearest, ties to even.
    Nearest,
    /// `.rz` / `.rzi`: toward zero.
    Zero,
    /// `.rm` / `.rmi`: toward negative infinity.
    Down,
    /// `.rp` / `.rpi`: toward positive infinity.
    Up,
}

/// The modifiers of a floating-point instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FMode {
    /// The rounding (`.rn` when the instruction names none).
    pub round: Round,
    /// `.ftz`: `f32` subnormal inputs and results are flushed to zero of
    /// the same sign.
    pub ftz: bool,
    /// `.sat`: the result is clamped to `[0.0, 1.0]`, NaN to `+0.0`.
    pub sat: bool,
    /// `add`/`sub`/`mul` without a rounding modifier: the PTX ISA lets the
    /// code generator fuse such a `mul` with such an `add` or `sub` into one
    /// `fma`.
    pub unmarked: bool,
    /// An unmarked `add`/`sub` one of whose operands may come from an
    /// unmarked `mul` (set by lowering): ptxas may fuse the pair, so the
    /// result is either of two values, evaluated only where they agree.
    pub fusable: bool,
    /// Which operands of a `fusable` add may come from such a `mul` (bit
    /// `i`: operand `i`).
    pub fused_operands: u8,
}

impl FMode {
    /// Round to nearest, no other modifier.
    pub const NEAREST: FMode = FMode {
        round: Round::Nearest,
        ftz: false,
        sat: false,
        unmarked: false,
        fusable: false,
        fused_operands: 0,
    };
}

/// The mode of `prmt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrmtMode {
    /// No mode: four selector nibbles with sign replication.
    Generic,
    /// `.f4e` forward 4 extract.
    F4e,
    /// `.b4e` backward 4 extract.
    B4e,
    /// `.rc8` replicate 8.
    Rc8,
    /// `.ecl` edge clamp left.
    Ecl,
    /// `.ecr` edge clamp right.
    Ecr,
    /// `.rc16` replicate 16.
    Rc16,
}

/// The mode of `shfl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    /// `.up`: from `lane - b`.
    Up,
    /// `.down`: from `lane + b`.
    Down,
    /// `.bfly`: from `lane ^ b`.
    Bfly,
    /// `.idx`: from lane `b`.
    Idx,
}

/// A warp-wide vote or reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpOp {
    /// `vote.ballot`: the mask of lanes whose predicate is true.
    Ballot,
    /// `vote.any`
    Any,
    /// `vote.all`
    All,
    /// `vote.uni`
    Uni,
    /// `activemask`
    ActiveMask,
    /// `redux.sync` with its operation.
    Redux(ReduxOp),
    /// `match.any.sync`
    MatchAny,
    /// `match.all.sync`
    MatchAll,
    /// `elect.sync d|p, membermask`: the lowest active lane of `membermask`
    /// is the leader; `d` is its lane number in every lane, `p` true in the
    /// leader only.
    Elect,
}

/// The operation of `redux.sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduxOp {
    /// `.add`
    Add,
    /// `.min`
    Min,
    /// `.max`
    Max,
    /// `.and`
    And,
    /// `.or`
    Or,
    /// `.xor`
    Xor,
}

/// The mode of a `shfl` from its modifiers.
pub fn shfl_mode(mods: &[&str]) -> Option<ShflMode> {
    mods.iter().find_map(|m| match *m {
        "up" => Some(ShflMode::Up),
        "down" => Some(ShflMode::Down),
        "bfly" => Some(ShflMode::Bfly),
        "idx" => Some(ShflMode::Idx),
        _ => None,
    })
}

/// The vote or reduction of `opcode` with its modifiers.
pub fn warp_op(opcode: &str, mods: &[&str]) -> Option<WarpOp> {
    Some(match opcode {
        "activemask" => WarpOp::ActiveMask,
        "elect" => WarpOp::Elect,
        "vote" => mods.iter().find_map(|m| match *m {
            "ballot" => Some(WarpOp::Ballot),
            "any" => Some(WarpOp::Any),
            "all" => Some(WarpOp::All),
            "uni" => Some(WarpOp::Uni),
            _ => None,
        })?,
        "redux" => WarpOp::Redux(mods.iter().find_map(|m| {
            Some(match *m {
                "add" => ReduxOp::Add,
                "min" => ReduxOp::Min,
                "max" => ReduxOp::Max,
                "and" => ReduxOp::And,
                "or" => ReduxOp::Or,
                "xor" => ReduxOp::Xor,
                _ => return None,
            })
        })?),
        "match" => {
            if mods.contains(&"all") {
                WarpOp::MatchAll
            } else {
                WarpOp::MatchAny
            }
        }
        _ => return None,
    })
}

/// Boolean combination of `setp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluOp2 {
    /// `.and`
    And,
    /// `.or`
    Or,
    /// `.xor`
    Xor,
}

/// A decoded integer instruction: the operation and its (destination) type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alu {
    /// Operation.
    pub op: AluOp,
    /// Type (for `setp`, the operands' type; for `cvt`, the destination).
    pub ty: Ty,
}

/// The rounding modifier among `mods`: `(rounding, integral)`.
fn rounding(mods: &[&str]) -> Option<(Round, bool)> {
    mods.iter().find_map(|m| {
        Some(match *m {
            "rn" => (Round::Nearest, false),
            "rz" => (Round::Zero, false),
            "rm" => (Round::Down, false),
            "rp" => (Round::Up, false),
            "rni" => (Round::Nearest, true),
            "rzi" => (Round::Zero, true),
            "rmi" => (Round::Down, true),
            "rpi" => (Round::Up, true),
            _ => return None,
        })
    })
}

/// An `f32`/`f64` type name (the float types the analysis evaluates).
fn ieee_ty(m: &str) -> Option<Ty> {
    matches!(m, "f32" | "f64").then(|| Ty::parse(m)).flatten()
}

/// A floating-point type name the analysis does not evaluate (16-bit,
/// packed, `tf32`, the 8-bit formats).
fn other_float_ty(m: &str) -> bool {
    !matches!(m, "f32" | "f64")
        && (Ty::parse(m).is_some_and(|t| t.float)
            || m.starts_with("f32x")
            || m.starts_with("f64x")
            || m.starts_with("e2m")
            || m.starts_with("e3m")
            || m.starts_with("ue"))
}

/// The float comparison of a `setp`/`set` modifier.
fn fcmp(m: &str) -> Option<FCmp> {
    Some(match m {
        "eq" => FCmp::Ordered(Cmp::Eq),
        "ne" => FCmp::Ordered(Cmp::Ne),
        "lt" => FCmp::Ordered(Cmp::Lt),
        "le" => FCmp::Ordered(Cmp::Le),
        "gt" => FCmp::Ordered(Cmp::Gt),
        "ge" => FCmp::Ordered(Cmp::Ge),
        "equ" => FCmp::Unordered(Cmp::Eq),
        "neu" => FCmp::Unordered(Cmp::Ne),
        "ltu" => FCmp::Unordered(Cmp::Lt),
        "leu" => FCmp::Unordered(Cmp::Le),
        "gtu" => FCmp::Unordered(Cmp::Gt),
        "geu" => FCmp::Unordered(Cmp::Ge),
        "num" => FCmp::Num,
        "nan" => FCmp::Nan,
        _ => return None,
    })
}

/// Decodes a floating-point instruction (`Some(None)`: a float instruction
/// that is not evaluated; `None`: not a float instruction).
fn decode_float(opcode: &str, mods: &[&str]) -> Option<Option<Alu>> {
    if mods.iter().any(|m| other_float_ty(m)) {
        return Some(None);
    }
    let floats: Vec<Ty> = mods.iter().filter_map(|m| ieee_ty(m)).collect();
    let first = *floats.first()?;
    let round = rounding(mods);
    let ftz = mods.contains(&"ftz");
    let sat = mods.contains(&"sat");
    // Every modifier must be one this decoder knows (rounding, `.ftz`,
    // `.sat`, the type): anything else (`.approx`, `.full`, `.xorsign`,
    // `.relu`, `.oob`, …) is not evaluated.
    let known = |extra: &[&str]| {
        mods.iter().all(|m| {
            ieee_ty(m).is_some()
                || matches!(*m, "ftz" | "sat")
                || rounding(&[m]).is_some_and(|(_, i)| !i)
                || extra.contains(m)
        })
    };
    let mode = |round: Option<(Round, bool)>| FMode {
        round: round.map_or(Round::Nearest, |r| r.0),
        ftz,
        sat,
        unmarked: round.is_none(),
        fusable: false,
        fused_operands: 0,
    };
    let arith = |op: FloatOp, needs_round: bool| {
        let ok = known(&[]) && !(needs_round && round.is_none()) && floats.len() == 1;
        ok.then_some(Alu {
            op: AluOp::Float(op, mode(round)),
            ty: first,
        })
    };
    let alu = match opcode {
        "add" => arith(FloatOp::Add, false),
        "sub" => arith(FloatOp::Sub, false),
        "mul" => arith(FloatOp::Mul, false),
        // `mad.f32` without a rounding modifier is the sm_1x truncating
        // form: not evaluated.
        "fma" | "mad" => arith(FloatOp::Fma, true),
        "div" => arith(FloatOp::Div, true),
        "rcp" => arith(FloatOp::Rcp, true),
        "sqrt" => arith(FloatOp::Sqrt, true),
        "neg" | "abs" | "copysign" if round.is_none() && !sat => arith(
            match opcode {
                "neg" => FloatOp::Neg,
                "abs" => FloatOp::Abs,
                _ => FloatOp::Copysign,
            },
            false,
        ),
        "min" | "max" if round.is_none() && !sat && known(&["NaN"]) && floats.len() == 1 => {
            let nan = mods.contains(&"NaN");
            Some(Alu {
                op: AluOp::Float(
                    if opcode == "min" {
                        FloatOp::Min(nan)
                    } else {
                        FloatOp::Max(nan)
                    },
                    mode(None),
                ),
                ty: first,
            })
        }
        "testp" => {
            let t = mods.iter().find_map(|m| {
                Some(match *m {
                    "finite" => TestOp::Finite,
                    "infinite" => TestOp::Infinite,
                    "number" => TestOp::Number,
                    "notanumber" => TestOp::NotANumber,
                    "normal" => TestOp::Normal,
                    "subnormal" => TestOp::Subnormal,
                    _ => return None,
                })
            });
            t.map(|t| Alu {
                op: AluOp::Float(FloatOp::Testp(t), FMode::NEAREST),
                ty: first,
            })
        }
        "setp" => {
            let cmp = mods.iter().find_map(|m| fcmp(m))?;
            let comb = mods.iter().find_map(|m| match *m {
                "and" => Some(AluOp2::And),
                "or" => Some(AluOp2::Or),
                "xor" => Some(AluOp2::Xor),
                _ => None,
            });
            match cmp {
                // Ordered comparisons without `.ftz` stay `AluOp::Setp`.
                FCmp::Ordered(_) if !ftz => return None,
                _ => Some(Alu {
                    op: AluOp::Float(FloatOp::Cmp(cmp, comb), mode(None)),
                    ty: first,
                }),
            }
        }
        "cvt" => {
            // `cvt.frnd.dtype.atype`: the first type is the destination.
            let tys: Vec<Ty> = mods.iter().filter_map(|m| Ty::parse(m)).collect();
            let (&dst, &src) = (tys.first()?, tys.get(1)?);
            if !dst.float && !src.float {
                return None;
            }
            let integral = round.is_some_and(|r| r.1);
            let ok = mods.iter().all(|m| {
                Ty::parse(m).is_some() || matches!(*m, "ftz" | "sat") || rounding(&[m]).is_some()
            });
            // The ISA requires a rounding modifier for every conversion
            // that can be inexact: float to integer (an integral one),
            // integer to float and f64 to f32 (a float one); f32 to f64
            // and a same-size float conversion take none (or, between
            // floats of one size, an integral one).
            let need = match (dst.float, src.float) {
                (false, true) => round.is_some_and(|r| r.1),
                (true, false) => round.is_some_and(|r| !r.1),
                _ if dst.bits < src.bits => round.is_some_and(|r| !r.1),
                _ if dst.bits > src.bits => round.is_none(),
                _ => round.is_none_or(|r| r.1),
            };
            (ok && need).then_some(Alu {
                op: AluOp::Float(FloatOp::Cvt { src, integral }, mode(round)),
                ty: dst,
            })
        }
        _ => return None,
    };
    Some(alu)
}

/// Decodes an opcode and its modifiers; `None` for anything not modelled.
pub fn decode(opcode: &str, mods: &[&str]) -> Option<Alu> {
    if !matches!(opcode, "mov" | "selp" | "cvta") {
        // A float instruction: evaluated when `decode_float` knows it; an
        // ordered `setp` without `.ftz` goes on below.
        if let Some(f) = decode_float(opcode, mods) {
            return f;
        }
    }
    let tys: Vec<Ty> = mods.iter().filter_map(|m| Ty::parse(m)).collect();
    let pred = mods.contains(&"pred");
    let ty = tys.first().copied().unwrap_or(Ty {
        bits: 64,
        signed: false,
        float: false,
    });
    let mode = if mods.contains(&"wide") {
        MulMode::Wide
    } else if mods.contains(&"hi") {
        MulMode::Hi
    } else {
        MulMode::Lo
    };
    let op = match opcode {
        "mov" | "cvta" => AluOp::Mov,
        "add" => AluOp::Add,
        "sub" => AluOp::Sub,
        "mul" | "mul24" => AluOp::Mul(mode),
        "mad" | "mad24" => AluOp::Mad(mode),
        "shl" => AluOp::Shl,
        "shr" => AluOp::Shr,
        "and" => AluOp::And,
        "or" => AluOp::Or,
        "xor" => AluOp::Xor,
        "not" => AluOp::Not,
        "neg" => AluOp::Neg,
        "abs" => AluOp::Abs,
        "min" => AluOp::Min,
        "max" => AluOp::Max,
        "div" => AluOp::Div,
        "rem" => AluOp::Rem,
        "selp" => AluOp::Selp,
        "slct" if !mods.contains(&"f32") => AluOp::Slct,
        "bfe" => AluOp::Bfe,
        "bfi" => AluOp::Bfi,
        "prmt" => AluOp::Prmt(
            mods.iter()
                .find_map(|m| {
                    Some(match *m {
                        "f4e" => PrmtMode::F4e,
                        "b4e" => PrmtMode::B4e,
                        "rc8" => PrmtMode::Rc8,
                        "ecl" => PrmtMode::Ecl,
                        "ecr" => PrmtMode::Ecr,
                        "rc16" => PrmtMode::Rc16,
                        _ => return None,
                    })
                })
                .unwrap_or(PrmtMode::Generic),
        ),
        "shf" => AluOp::Shf {
            left: mods.contains(&"l"),
            clamp: mods.contains(&"clamp"),
        },
        // `lop3.or`/`lop3.and` also write a predicate: not modelled.
        "lop3" if !mods.iter().any(|m| matches!(*m, "or" | "and")) => AluOp::Lop3,
        "brev" => AluOp::Brev,
        "popc" => AluOp::Popc,
        "clz" => AluOp::Clz,
        "bfind" => AluOp::Bfind(mods.contains(&"shiftamt")),
        "bmsk" => AluOp::Bmsk(mods.contains(&"clamp")),
        "szext" => AluOp::Szext(mods.contains(&"clamp")),
        "shfl" => AluOp::Shfl(shfl_mode(mods)?),
        "vote" | "activemask" | "redux" | "match" | "elect" => AluOp::Warp(warp_op(opcode, mods)?),
        "mapa" => AluOp::Mapa,
        "cvt" => {
            let src = *tys.get(1)?;
            AluOp::Cvt(src)
        }
        "setp" => {
            let cmp = mods.iter().find_map(|m| {
                Some(match *m {
                    "eq" => Cmp::Eq,
                    "ne" => Cmp::Ne,
                    "lt" | "lo" => Cmp::Lt,
                    "le" | "ls" => Cmp::Le,
                    "gt" | "hi" => Cmp::Gt,
                    "ge" | "hs" => Cmp::Ge,
                    _ => return None,
                })
            })?;
            let comb = mods.iter().find_map(|m| match *m {
                "and" => Some(AluOp2::And),
                "or" => Some(AluOp2::Or),
                "xor" => Some(AluOp2::Xor),
                _ => None,
            });
            // `lo/ls/hi/hs` force an unsigned comparison.
            let unsigned = mods.iter().any(|m| matches!(*m, "lo" | "ls" | "hi" | "hs"));
            let mut t = ty;
            if unsigned {
                t.signed = false;
            }
            return Some(Alu {
                op: AluOp::Setp(cmp, comb),
                ty: t,
            });
        }
        _ => return None,
    };
    if pred && !matches!(op, AluOp::Selp) {
        // and/or/xor/not/mov on predicates are handled by the caller.
        return Some(Alu {
            op,
            ty: Ty {
                bits: 1,
                signed: false,
                float: false,
            },
        });
    }
    // A float `mov` or `selp` moves bits, as the integer ones do; the float
    // instructions `decode_float` knows were decoded above, and the others
    // (approximate ones, 16-bit types) are not modelled.
    if ty.float && !matches!(op, AluOp::Mov | AluOp::Selp) {
        return None;
    }
    Some(Alu { op, ty })
}
