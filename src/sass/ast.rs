//! The SASS listing tree.
//!
//! A [`Listing`] is what one `cuobjdump -sass` or `nvdisasm` run printed: the
//! functions it disassembled, each with its instructions in address order,
//! its labels, and the source-line information that preceded them. Every
//! token borrows from the listing's text and every node carries its byte
//! [`Span`], like the PTX tree (`crate::syntax::ast`).
//!
//! An instruction keeps its mnemonic as one token (`LDG.E.128.CONSTANT`);
//! [`Instruction::opcode`] and [`Instruction::modifiers`] split it. Operands
//! are structured ([`Operand`]): registers of every file (`R2`, `UR4`, `P0`,
//! `UP1`, `B0`, `SR_TID.X`), immediates, constant-bank operands
//! (`c[0x0][0x210]`), memory operands (`desc[UR4][R2.64+0x10]`), label
//! references (`` `(.L_x_0) ``), relocations (`32@lo(sym)`) and keywords.

use crate::source::Span;

/// A token and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tok<'src> {
    /// The text.
    pub text: &'src str,
    /// Where.
    pub span: Span,
}

/// Which tool printed the listing (told by its layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Flavor {
    /// `cuobjdump -sass`: `Function : name` headers, no labels.
    Cuobjdump,
    /// `nvdisasm`: ELF sections, symbols and labels.
    Nvdisasm,
    /// Nothing told (an empty file or bare instructions).
    #[default]
    Unknown,
}

/// A parsed SASS listing.
#[derive(Clone, Debug, Default)]
pub struct Listing<'src> {
    /// Who printed it.
    pub flavor: Flavor,
    /// The functions, in listing order.
    pub functions: Vec<Function<'src>>,
    /// Lines that could not be parsed (each has a diagnostic).
    pub errors: Vec<Span>,
    /// Number of lines of the listing.
    pub lines: u32,
}

/// Where an instruction's CUDA (or PTX) source line is, from `//## File`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineInfo<'src> {
    /// The file name, without quotes.
    pub file: Tok<'src>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, when given.
    pub column: Option<u32>,
    /// `inlined at "file", line N` (outermost last), when given.
    pub inlined_at: Vec<(Tok<'src>, u32)>,
}

/// One disassembled function (a `.text.<name>` section or a cuobjdump
/// `Function :` block).
#[derive(Clone, Debug)]
pub struct Function<'src> {
    /// The (mangled) name.
    pub name: Tok<'src>,
    /// A kernel (`STO_CUDA_ENTRY`, or every cuobjdump function), rather than
    /// a device function.
    pub entry: bool,
    /// The architecture the code is for (`sm_90`), from `.target` or
    /// `code for sm_90`.
    pub arch: Option<Tok<'src>>,
    /// Where the function's header starts and its last instruction ends.
    pub span: Span,
    /// Instructions in address order.
    pub instructions: Vec<Instruction<'src>>,
    /// Labels: name and the index of the instruction they precede
    /// (`instructions.len()` for a label after the last one).
    pub labels: Vec<(Tok<'src>, usize)>,
    /// `.size` / `.sectioninfo @"SHI_REGISTERS=N"` registers, when printed.
    pub registers: Option<u32>,
    /// Constant-bank facts of the function's `.nv.info.<name>` section when
    /// the listing printed it (nvdisasm without `-c`).
    pub nv_info: NvInfo,
}

/// Facts of a function's `.nv.info.<name>` section (EIATTR records).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NvInfo {
    /// `EIATTR_PARAM_CBANK`: where the parameters start in constant bank 0.
    pub param_base: Option<u32>,
    /// `EIATTR_PARAM_CBANK`: their total size.
    pub param_size: Option<u32>,
    /// `EIATTR_KPARAM_INFO`: (ordinal, offset from the base, size in bytes).
    pub params: Vec<(u16, u16, u16)>,
}

impl<'src> Function<'src> {
    /// The index of the instruction a label names.
    pub fn label_target(&self, name: &str) -> Option<usize> {
        self.labels
            .iter()
            .find(|(l, _)| l.text == name)
            .map(|&(_, i)| i)
    }
    /// The index of the instruction at a byte offset of the function.
    pub fn at_offset(&self, offset: u32) -> Option<usize> {
        self.instructions
            .binary_search_by_key(&offset, |i| i.offset)
            .ok()
    }
    /// The architecture number (`90` for `sm_90a`), when known.
    pub fn sm(&self) -> Option<u32> {
        self.arch.and_then(|a| sm_number(a.text))
    }
}

/// `sm_90a` / `SM90` / `sm_100f` → 90 / 90 / 100.
pub fn sm_number(arch: &str) -> Option<u32> {
    let t = arch.trim().to_ascii_lowercase();
    let t = t.strip_prefix("sm_").or_else(|| t.strip_prefix("sm"))?;
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// The scheduling bits of a Volta-and-later instruction word: bits 105–127
/// of the 128-bit encoding (the high word's bits 41–63), as printed in the
/// encoding comments (`/* 0x000fe20000000800 */`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Control {
    /// Cycles to wait before issuing the next instruction (0–15).
    pub stall: u8,
    /// The yield hint bit.
    pub yield_flag: bool,
    /// Scoreboard set when the result is written (`None`: no scoreboard, 7).
    pub write_barrier: Option<u8>,
    /// Scoreboard set when the sources have been read (`None`: 7).
    pub read_barrier: Option<u8>,
    /// Scoreboards waited on before issuing (bit mask of 6).
    pub wait_mask: u8,
    /// Operand reuse cache flags (4 bits).
    pub reuse: u8,
}

impl Control {
    /// Decodes the high 64-bit word of a 128-bit instruction.
    pub fn from_high_word(hi: u64) -> Control {
        let c = hi >> 41;
        let bar = |v: u64| {
            let v = (v & 7) as u8;
            (v != 7).then_some(v)
        };
        Control {
            stall: (c & 0xf) as u8,
            yield_flag: (c >> 4) & 1 == 1,
            write_barrier: bar(c >> 5),
            read_barrier: bar(c >> 8),
            wait_mask: ((c >> 11) & 0x3f) as u8,
            reuse: ((c >> 17) & 0xf) as u8,
        }
    }
}

/// One SASS instruction.
#[derive(Clone, Debug)]
pub struct Instruction<'src> {
    /// The whole line's instruction text (predicate to `;`).
    pub span: Span,
    /// Byte offset in the function (`/*0120*/`).
    pub offset: u32,
    /// `/*0120*/`.
    pub offset_span: Span,
    /// `@P0` / `@!PT` / `@UP1`.
    pub guard: Option<Guard<'src>>,
    /// The mnemonic with its modifiers: `LDG.E.64`.
    pub mnemonic: Tok<'src>,
    /// The operands.
    pub operands: Vec<Operand<'src>>,
    /// Annotations nvdisasm prints after the operands: `(*"SpillRefill"*)`,
    /// `(*"BRANCH_TARGETS .L_x_1,.L_x_2"*)`.
    pub annotations: Vec<Tok<'src>>,
    /// The encoding words printed as `/* 0x… */` comments (low word first).
    pub encoding: Vec<u64>,
    /// The source line in effect (from the preceding `//## File` comments).
    pub line: Option<LineInfo<'src>>,
}

impl<'src> Instruction<'src> {
    /// The opcode: `LDG` for `LDG.E.64`.
    pub fn opcode(&self) -> &'src str {
        self.mnemonic.text.split('.').next().unwrap_or("")
    }
    /// The modifiers: `["E", "64"]` for `LDG.E.64`.
    pub fn modifiers(&self) -> impl Iterator<Item = &'src str> {
        self.mnemonic.text.split('.').skip(1)
    }
    /// True when the mnemonic has this modifier.
    pub fn has_modifier(&self, m: &str) -> bool {
        self.modifiers().any(|x| x == m)
    }
    /// The scheduling bits, when the 128-bit encoding was printed.
    pub fn control(&self) -> Option<Control> {
        (self.encoding.len() >= 2).then(|| Control::from_high_word(self.encoding[1]))
    }
    /// The `(*"BRANCH_TARGETS a,b"*)` label names, when printed.
    pub fn branch_targets(&self) -> Vec<&'src str> {
        self.annotations
            .iter()
            .filter_map(|a| a.text.strip_prefix("BRANCH_TARGETS "))
            .flat_map(|l| l.split(',').map(str::trim))
            .filter(|s| !s.is_empty())
            .collect()
    }
}

/// `@P0`, `@!P1`, `@!PT`, `@UP0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard<'src> {
    /// `!`.
    pub negated: bool,
    /// The predicate register.
    pub reg: Register<'src>,
    /// Where (`@` included).
    pub span: Span,
}

/// A register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum RegFile {
    /// `R0`…`R254`, `RZ`.
    R,
    /// Uniform `UR0`…`UR62`, `URZ`.
    Ur,
    /// Predicates `P0`…`P6`, `PT`.
    P,
    /// Uniform predicates `UP0`…`UP6`, `UPT`.
    Up,
    /// Convergence barriers `B0`…`B15`.
    B,
    /// Scoreboards `SB0`…`SB5` (in `DEPBAR`).
    Sb,
    /// Special registers `SR_TID.X`, `SR_LANEID`, `SRZ`.
    Sr,
}

/// A register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Register<'src> {
    /// The file.
    pub file: RegFile,
    /// The number, `None` for the zero/true register (`RZ`, `URZ`, `PT`,
    /// `UPT`, `SRZ`) and for special registers.
    pub index: Option<u32>,
    /// The name as written (`R2`, `SR_TID.X`).
    pub name: Tok<'src>,
}

impl Register<'_> {
    /// `RZ`, `URZ`, `SRZ` (read as 0) or `PT`, `UPT` (read as true).
    pub fn is_constant(&self) -> bool {
        self.index.is_none() && self.file != RegFile::Sr || self.name.text == "SRZ"
    }
}

/// A term of an address: `R2.64`, `UR4`, `0x10`.
#[derive(Clone, Debug, PartialEq)]
pub enum AddrTerm<'src> {
    /// A register with its modifiers (`.64`, `.U32`, `.X4`).
    Reg(Register<'src>, Vec<Tok<'src>>),
    /// A signed immediate offset.
    Imm(i64),
}

/// `[R2.64+UR4+0x10]`: the terms of a bracketed address.
#[derive(Clone, Debug, PartialEq)]
pub struct Address<'src> {
    /// The terms, in order (`-0x10` is `Imm(-16)`).
    pub terms: Vec<AddrTerm<'src>>,
    /// Where (brackets included).
    pub span: Span,
}

impl<'src> Address<'src> {
    /// The sum of the immediate terms.
    pub fn offset(&self) -> i64 {
        self.terms
            .iter()
            .map(|t| match t {
                AddrTerm::Imm(v) => *v,
                _ => 0,
            })
            .fold(0i64, i64::wrapping_add)
    }
    /// The register terms with their modifiers.
    pub fn registers(&self) -> impl Iterator<Item = (&Register<'src>, &[Tok<'src>])> {
        self.terms.iter().filter_map(|t| match t {
            AddrTerm::Reg(r, m) => Some((r, m.as_slice())),
            _ => None,
        })
    }
}

/// What an operand is.
#[derive(Clone, Debug, PartialEq)]
pub enum OperandKind<'src> {
    /// A register.
    Reg(Register<'src>),
    /// An integer immediate (`0x1f`, `-0x160`, `3`).
    Int(i64),
    /// A floating-point immediate (`1.5`, `+INF`, `-QNAN`), as written.
    Float(Tok<'src>),
    /// `c[bank][address]`, `cx[UR4][R0]`: a constant-bank operand.
    ConstBank {
        /// The bank: an immediate or a register (`cx[...]`).
        bank: Box<Operand<'src>>,
        /// The address inside the bank.
        addr: Address<'src>,
    },
    /// `[address]`, optionally after `desc[UR4]`: a memory operand.
    Memory {
        /// The memory descriptor register (`desc[UR4]`), when present.
        desc: Option<Register<'src>>,
        /// The address.
        addr: Address<'src>,
    },
    /// `gdesc[UR4]`, `tmem[UR6+0x20]`, `idesc[UR5]`: a named descriptor.
    Descriptor {
        /// `gdesc`, `tmem`, `idesc`, …
        kind: Tok<'src>,
        /// The bracketed address.
        addr: Address<'src>,
    },
    /// `` `(.L_x_0) `` or `` `($kernel$callee) ``: a label or function.
    Label(Tok<'src>),
    /// `32@lo(sym)`, `32@hi(sym+0x10)`, `fn@srel`: a relocation.
    Relocation {
        /// The relocation text (`32@lo`).
        kind: Tok<'src>,
        /// The symbol expression inside the parentheses.
        symbol: Tok<'src>,
    },
    /// `{5,4,3}`: a brace list (DEPBAR).
    List(Vec<Operand<'src>>),
    /// A keyword or name: `2D`, `TEX_HEADER_DIMENSION`, `gsb0`, `SB0`.
    Name(Tok<'src>),
}

/// An operand with its prefix operators and suffix modifiers.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand<'src> {
    /// What it is.
    pub kind: OperandKind<'src>,
    /// `-x`.
    pub negated: bool,
    /// `!P0`.
    pub not: bool,
    /// `~R2`.
    pub inverted: bool,
    /// `|R2|`.
    pub absolute: bool,
    /// `.reuse`, `.64`, `.H1`, `.tnspB`, `.ROW` …
    pub modifiers: Vec<Tok<'src>>,
    /// Where.
    pub span: Span,
}

impl<'src> Operand<'src> {
    /// The register, when the operand is one.
    pub fn reg(&self) -> Option<&Register<'src>> {
        match &self.kind {
            OperandKind::Reg(r) => Some(r),
            _ => None,
        }
    }
    /// True when the operand has this modifier.
    pub fn has_modifier(&self, m: &str) -> bool {
        self.modifiers.iter().any(|t| t.text == m)
    }
}
