//! Integer instructions as the IR names them: [`Alu`] (an [`AluOp`] and its
//! type [`Ty`]) and [`decode`], which reads a PTX-style opcode and its
//! modifiers into one. This is the vocabulary of [`super::OpKind::Alu`]; what
//! an instruction *does* to abstract values (its transfer function) lives in
//! the analysis (`analysis::transfer`, which re-exports these names), so the
//! IR does not depend on the analysis.

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// The integer instructions the analysis models.
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
    /// `vote`, `activemask`, `redux.sync`, `match.sync`.
    Warp(WarpOp),
    /// `mapa`: the address of the same shared variable in another CTA of the cluster.
    Mapa,
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

/// Decodes an opcode and its modifiers; `None` for anything not modelled.
pub fn decode(opcode: &str, mods: &[&str]) -> Option<Alu> {
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
        "vote" | "activemask" | "redux" | "match" => AluOp::Warp(warp_op(opcode, mods)?),
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
    // A float `mov` or `selp` moves bits, as the integer ones do; every
    // other float operation is not modelled.
    if ty.float && !matches!(op, AluOp::Mov | AluOp::Selp) {
        return None;
    }
    Some(Alu { op, ty })
}
