//! `wmma.load` / `wmma.store`: the requests ptxas makes of a warp-wide
//! matrix fragment access, as ordinary per-lane accesses and `ldmatrix`
//! requests the rest of the analysis already costs.
//!
//! # What ptxas does with them (`tests/hw/wmma/`, measured on an H200)
//!
//! `wmma.load.{a,b,c}` and `wmma.store.d` name a whole tile (16 x 16,
//! 32 x 8, 8 x 32 for `f16`/`bf16`/`s8`/`u8`; 16 x 8 / 8 x 16 for `tf32`;
//! 8 x 4 / 4 x 8 / 8 x 8 for `f64`) at `[p]` with a leading dimension
//! `stride` (elements between the starts of consecutive rows of a
//! `.row` tile, of columns of a `.col` tile). The PTX ISA leaves the
//! fragment's layout in registers unspecified; ptxas gives each lane the
//! elements of the `mma.sync` operand layouts (`g = lane / 4`, `t = lane %
//! 4`) and loads them with these instructions (all 25 launches of
//! `tests/hw/wmma/` match the SASS and the measured requests):
//!
//! * **16-bit elements** (`f16`, `bf16`, `f16` accumulators), either
//!   layout: the tile, seen in memory order (rows of a `.row` tile, columns
//!   of a `.col` one), is cut into blocks of 8 memory rows x 16 bytes; each
//!   block is one 32-bit request, lane `l` reading row `l / 4` at byte
//!   `4 (l % 4)` (a transposed layout is fixed in registers by `MOVM`).
//!   With a `.shared` address the `a`/`b` operands are `ldmatrix` instead
//!   (`LDSM.16.M88` / `.MT88`, `.x4` for four blocks, `.x2` for two): lanes
//!   `8k .. 8k + 7` give the row addresses of block `k`.
//! * **8-bit elements** (`s8`, `u8`): in the operand's natural layout (`a`
//!   row-major, `b` column-major) as 16-bit ones (blocks of 8 rows x 16
//!   bytes; `ldmatrix` `.x2`/`.x4` from `.shared`); in the other layout one
//!   byte request per element: for each block of the natural layout and
//!   each byte `b` of a lane's word, lane `l` reads memory row
//!   `4 (l % 4) + b`, byte `l / 4` (`LDG.E.U8` / `LDS.U8`).
//! * **32-bit accumulators** (`f32`, `s32`) in blocks of 8 x 8: in the
//!   natural layout (row-major; column-major for `m8n32k16`, which ptxas
//!   computes transposed) one 64-bit request per block, lane `l` reading
//!   row `l / 4` at byte `8 (l % 4)`; in the other layout two 32-bit
//!   requests, memory rows `2 (l % 4) + h` at byte `4 (l / 4)`.
//! * **`tf32`** operands in blocks of 8 rows x 4 elements: one 32-bit
//!   request a block, lane `l` at row `l / 4`, byte `4 (l % 4)` in the
//!   natural layout, at memory row `l % 4`, byte `4 (l / 4)` in the other.
//! * **`f64`** (`m8n8k4`): `a`/`b` one 64-bit request (row `l / 4`, byte
//!   `8 (l % 4)`, or memory row `l % 4`, byte `8 (l / 4)` transposed);
//!   accumulators one 128-bit request (byte `16 (l % 4)`), or two 64-bit
//!   ones transposed (memory rows `2 (l % 4) + h`, byte `8 (l / 4)`).
//!
//! Without a state space the address is generic (`bf16`, `tf32` and `f64`
//! always are: `mma.h` passes them generic pointers) and the requests are
//! generic per-lane loads and stores, never `ldmatrix`.
//!
//! # The lowering
//!
//! Like an inlined call ([`super::calls`]): the `wmma` op becomes a branch
//! to ops appended at the end of the function (registered as an
//! [`InlineSite`] so that the code layout keeps them in place), which
//! compute each request's per-lane address from `%laneid`, the base and
//! the stride, one memory op per request (with the `wmma` instruction's
//! span, `.loc` and mnemonic), and branch back. The analysis then sees
//! exact lane addresses: a run-time stride stays symbolic like any other.
//! The load's fragment registers are spread over its requests.
//!
//! # Limits
//!
//! Sub-byte types (`s4`, `u4`, `b1`) stay unmodelled (no access). The
//! requests' order and which blocks one `ldmatrix` groups are ptxas's
//! choice; the cost of each block does not depend on them. Whether ptxas
//! merges the requests of neighbouring `wmma` instructions is not modelled.

use super::{Ctx, Out};
use crate::ir::alu::{Alu, AluOp, MulMode, Ty};
use crate::ir::{
    AccessOp, Form, InlineSite, MatrixFacts, MemKind, MemOp, Op, OpId, OpKind, Reg, Space, Special,
    Src,
};

/// Which operand a `wmma.load`/`wmma.store` moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Operand {
    A,
    B,
    /// `c` (load) or `d` (store): an accumulator.
    Acc,
}

/// One `wmma.load`/`wmma.store`, as the lowering of its statement found it.
#[derive(Clone, Debug)]
pub(super) struct Wmma {
    store: bool,
    operand: Operand,
    /// `.row` (else `.col`).
    row: bool,
    /// `m`, `n`, `k`.
    shape: (u32, u32, u32),
    /// Bits of one element in memory.
    elem_bits: u32,
    /// `tf32` (32-bit elements of an `a`/`b` operand).
    tf32: bool,
    space: Space,
    base: Src,
    stride: Option<Src>,
    /// The fragment registers a load writes.
    regs: Vec<Reg>,
    elem_type: Option<&'static str>,
}

/// The `wmma.load`/`wmma.store` of an instruction (modifiers after the
/// opcode, its operands); `None` for the other `wmma` instructions and for
/// sub-byte types.
pub(super) fn of_instruction<'src>(
    cx: &mut Ctx<'_, 'src>,
    mods: &[&str],
    ops: &[crate::syntax::ast::Operand<'src>],
) -> Option<Wmma> {
    let store = mods.first() == Some(&"store");
    let (data, addr) = if store {
        (ops.get(1)?, ops.first()?)
    } else {
        (ops.first()?, ops.get(1)?)
    };
    let addr = cx.src(addr);
    let stride = ops.get(2).map(|o| cx.src(o));
    let regs = if store { Vec::new() } else { cx.dsts(data) };
    parse(mods, addr, stride, regs)
}

/// Reads a `wmma.load`/`wmma.store` from its modifiers and lowered
/// operands.
fn parse(mods: &[&str], addr: Src, stride: Option<Src>, regs: Vec<Reg>) -> Option<Wmma> {
    let store = match mods.first() {
        Some(&"load") => false,
        Some(&"store") => true,
        _ => return None,
    };
    let operand = match mods.get(1) {
        Some(&"a") if !store => Operand::A,
        Some(&"b") if !store => Operand::B,
        Some(&"c") if !store => Operand::Acc,
        Some(&"d") if store => Operand::Acc,
        _ => return None,
    };
    let row = mods.contains(&"row");
    if !row && !mods.contains(&"col") {
        return None;
    }
    // The shapes of the PTX ISA's `wmma.load`/`wmma.store` (sub-byte ones
    // excepted): anything else is not expanded (nor grows the expansion).
    let shape = mods.iter().find_map(|m| parse_shape(m))?;
    if !matches!(
        shape,
        (16, 16, 16) | (32, 8, 16) | (8, 32, 16) | (16, 16, 8) | (8, 8, 4)
    ) {
        return None;
    }
    let ty = *mods.last()?;
    let (elem_bits, elem_type) = match ty {
        "f16" => (16, "f16"),
        "bf16" => (16, "bf16"),
        "tf32" => (32, "tf32"),
        "f32" => (32, "f32"),
        "s32" => (32, "s32"),
        "f64" => (64, "f64"),
        "s8" => (8, "s8"),
        "u8" => (8, "u8"),
        _ => return None,
    };
    let space = if mods.iter().any(|m| m.starts_with("shared")) {
        Space::Shared
    } else if mods.contains(&"global") {
        Space::Global
    } else {
        Space::Generic
    };
    Some(Wmma {
        store,
        operand,
        row,
        shape,
        elem_bits,
        tf32: ty == "tf32",
        space,
        base: addr,
        stride,
        regs,
        elem_type: Some(elem_type),
    })
}

/// `m16n16k16` → (16, 16, 16).
fn parse_shape(m: &str) -> Option<(u32, u32, u32)> {
    let rest = m.strip_prefix('m')?;
    let (mm, rest) = rest.split_once('n')?;
    let (nn, kk) = rest.split_once('k')?;
    Some((mm.parse().ok()?, nn.parse().ok()?, kk.parse().ok()?))
}

/// A bit field of the lane number times a factor: `((lane >> shift) & mask) * mul`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Field {
    shift: u8,
    mask: u8,
    mul: i64,
}

const fn field(shift: u8, mask: u8, mul: i64) -> Field {
    Field { shift, mask, mul }
}

/// Where a lane's request falls: memory row and byte within it, each a sum
/// of lane fields plus a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Piece {
    row: Vec<Field>,
    row_add: i64,
    byte: Vec<Field>,
    byte_add: i64,
    /// Bits a lane moves (a plain access), or the `ldmatrix` matrices
    /// and whether transposed.
    form: PieceForm,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PieceForm {
    Lanes(u32),
    Ldsm { matrices: u32, trans: bool },
}

/// Lane `l`: row `l / 4`, byte `bytes * (l % 4)`.
fn by_quads(bytes: i64) -> (Vec<Field>, Vec<Field>) {
    (vec![field(2, 7, 1)], vec![field(0, 3, bytes)])
}

/// Lane `l`: memory row `rows * (l % 4)`, byte `bytes * (l / 4)`.
fn transposed(rows: i64, bytes: i64) -> (Vec<Field>, Vec<Field>) {
    (vec![field(0, 3, rows)], vec![field(2, 7, bytes)])
}

impl Wmma {
    /// The tile's dimensions (rows, columns) as the PTX ISA names them.
    fn dims(&self) -> (u32, u32) {
        let (m, n, k) = self.shape;
        match self.operand {
            Operand::A => (m, k),
            Operand::B => (k, n),
            Operand::Acc => (m, n),
        }
    }

    /// Whether the memory layout is the one in which a lane's elements lie
    /// together (the operand's natural layout).
    fn natural(&self) -> bool {
        match self.operand {
            Operand::A => self.row,
            Operand::B => !self.row,
            // m8n32k16 is computed transposed: its accumulator's natural
            // layout is column-major (measured: `g_h8x32_cr_f32c`).
            Operand::Acc if self.shape.0 == 8 && self.shape.1 == 32 => !self.row,
            Operand::Acc => self.row,
        }
    }

    /// (rows, elements a row) of the tile in memory order.
    fn memory_dims(&self) -> (u32, u32) {
        let (r, c) = self.dims();
        if self.row {
            (r, c)
        } else {
            (c, r)
        }
    }

    /// (rows, elements a row) of the tile in the natural layout.
    fn natural_dims(&self) -> (u32, u32) {
        let (r, c) = self.memory_dims();
        if self.natural() {
            (r, c)
        } else {
            (c, r)
        }
    }

    /// The leading dimension when the instruction gives none: the tile
    /// stored densely.
    fn dense_stride(&self) -> i64 {
        i64::from(self.memory_dims().1)
    }

    /// The requests, in order.
    fn pieces(&self) -> Vec<Piece> {
        let e = self.elem_bits;
        let mut out = Vec::new();
        let mut push = |fields: (Vec<Field>, Vec<Field>), row_add, byte_add, form| {
            out.push(Piece {
                row: fields.0,
                row_add,
                byte: fields.1,
                byte_add,
                form,
            })
        };
        let matrix_operand = self.operand != Operand::Acc;
        match e {
            16 | 8 if e == 16 || self.natural() => {
                // Blocks of 8 memory rows x 16 bytes.
                let (mr, mc) = self.memory_dims();
                let ni = i64::from(mr / 8);
                let nj = i64::from(mc * e / 8 / 16);
                let blocks = ni * nj;
                if self.space == Space::Shared && matrix_operand && blocks > 0 {
                    let c = if blocks % 4 == 0 {
                        4
                    } else if blocks % 2 == 0 {
                        2
                    } else {
                        1
                    };
                    let trans = !self.natural();
                    let mut b0 = 0;
                    while b0 < blocks {
                        // Lanes 8q .. 8q + 7 give block b0 + q's rows
                        // (blocks counted down the rows first).
                        let q_bits = (c - 1) as u8;
                        let (row, byte, row_add, byte_add) = if c <= ni {
                            (
                                vec![field(0, 7, 1), field(3, q_bits, 8)],
                                vec![],
                                8 * (b0 % ni),
                                16 * (b0 / ni),
                            )
                        } else {
                            let lg = ni.trailing_zeros() as u8;
                            (
                                vec![field(0, 7, 1), field(3, (ni - 1) as u8, 8)],
                                vec![field(3 + lg, (c / ni - 1) as u8, 16)],
                                0,
                                16 * (b0 / ni),
                            )
                        };
                        push(
                            (row, byte),
                            row_add,
                            byte_add,
                            PieceForm::Ldsm {
                                matrices: c as u32,
                                trans,
                            },
                        );
                        b0 += c;
                    }
                } else {
                    for j in 0..nj {
                        for i in 0..ni {
                            push(by_quads(4), 8 * i, 16 * j, PieceForm::Lanes(32));
                        }
                    }
                }
            }
            8 => {
                // A byte request per element: the natural layout's blocks
                // of 8 rows x 16 bytes, seen transposed.
                let (nr, nc) = self.natural_dims();
                for j in 0..i64::from(nc / 16) {
                    for i in 0..i64::from(nr / 8) {
                        for b in 0..4 {
                            push(transposed(4, 1), b + 16 * j, 8 * i, PieceForm::Lanes(8));
                        }
                    }
                }
            }
            32 if self.tf32 => {
                let (nr, nc) = self.natural_dims();
                for j in 0..i64::from(nc / 4) {
                    for i in 0..i64::from(nr / 8) {
                        if self.natural() {
                            push(by_quads(4), 8 * i, 16 * j, PieceForm::Lanes(32));
                        } else {
                            push(transposed(1, 4), 4 * j, 32 * i, PieceForm::Lanes(32));
                        }
                    }
                }
            }
            32 | 64 => {
                let (nr, nc) = self.natural_dims();
                let eb = i64::from(e / 8);
                // f64 a/b: one column of pairs is a single element a lane.
                let per_lane = if e == 64 && matrix_operand { 1 } else { 2 };
                let block_cols = 4 * per_lane;
                for j in 0..i64::from(nc) / block_cols {
                    for i in 0..i64::from(nr / 8) {
                        if self.natural() {
                            push(
                                by_quads(eb * per_lane),
                                8 * i,
                                eb * block_cols * j,
                                PieceForm::Lanes(e * per_lane as u32),
                            );
                        } else {
                            for h in 0..per_lane {
                                push(
                                    transposed(per_lane, eb),
                                    h + block_cols * j,
                                    8 * eb * i,
                                    PieceForm::Lanes(e),
                                );
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }
}

/// The `wmma` ops found while lowering, expanded at the end.
pub(super) type Pending = Vec<(usize, Wmma)>;

/// Registers of the address arithmetic (shared by every expansion: each
/// defines them before it reads them).
struct Scratch {
    term: Reg,
    row: Reg,
    byte: Reg,
    ld: Reg,
    off: Reg,
    addr: Reg,
}

fn alu(op: AluOp, bits: u32, signed: bool, dst: Reg, srcs: Vec<Src>) -> OpKind {
    OpKind::Alu {
        alu: Alu {
            op,
            ty: Ty {
                bits,
                signed,
                float: false,
            },
        },
        dst,
        dst2: None,
        srcs,
    }
}

/// Appends each `wmma` access's requests to `out` (see the module doc).
pub(super) fn expand<'src>(out: &mut Out<'src>, pending: Pending) {
    if pending.is_empty() {
        return;
    }
    let fresh = |out: &mut Out<'src>, name: &'static str| {
        let r = out.names.len() as Reg;
        out.names.push(name);
        r
    };
    let s = Scratch {
        term: fresh(out, "%wmma_term"),
        row: fresh(out, "%wmma_row"),
        byte: fresh(out, "%wmma_byte"),
        ld: fresh(out, "%wmma_ld"),
        off: fresh(out, "%wmma_off"),
        addr: fresh(out, "%wmma_addr"),
    };
    for (at, w) in pending {
        let pieces = w.pieces();
        if pieces.is_empty() {
            continue;
        }
        let span = out.spans[at];
        let loc = out.locs[at];
        let mnemonic = out.mnemonics[at];
        // Nothing may fall through into the appended code.
        let ends = out
            .ops
            .iter()
            .rev()
            .find(|o| o.form == Form::Instruction)
            .is_some_and(|o| o.guard.is_none() && o.is_terminator());
        if !ends {
            let last = out.spans.last().copied().unwrap_or(span);
            out.push(instr(OpKind::Exit), last, "", None);
        }
        let entry = out.ops.len();
        out.push(
            Op {
                guard: None,
                kind: OpKind::Nop,
                form: Form::Label,
            },
            span,
            "",
            loc,
        );
        let mut emit = |out: &mut Out<'src>, kind| out.push(instr(kind), span, "", loc);
        // Bytes between rows.
        let eb = i64::from(w.elem_bits / 8);
        let ld = match w.stride.clone() {
            Some(Src::Imm(v)) => Src::Imm(v.wrapping_mul(eb)),
            Some(st) => {
                emit(
                    out,
                    alu(
                        AluOp::Mul(MulMode::Lo),
                        32,
                        true,
                        s.ld,
                        vec![st, Src::Imm(eb)],
                    ),
                );
                Src::Reg(s.ld, 0)
            }
            None => Src::Imm(w.dense_stride() * eb),
        };
        let regs_per_piece =
            (!w.store && w.regs.len() % pieces.len() == 0).then(|| w.regs.len() / pieces.len());
        for (k, p) in pieces.iter().enumerate() {
            sum_of_fields(out, &mut emit, &s, s.row, &p.row, p.row_add);
            sum_of_fields(out, &mut emit, &s, s.byte, &p.byte, p.byte_add);
            emit(
                out,
                alu(
                    AluOp::Mul(MulMode::Wide),
                    32,
                    true,
                    s.off,
                    vec![Src::Reg(s.row, 0), ld.clone()],
                ),
            );
            emit(
                out,
                alu(
                    AluOp::Add,
                    64,
                    true,
                    s.addr,
                    vec![w.base.clone(), Src::Reg(s.off, 0)],
                ),
            );
            emit(
                out,
                alu(
                    AluOp::Add,
                    64,
                    true,
                    s.addr,
                    vec![Src::Reg(s.addr, 0), Src::Reg(s.byte, 0)],
                ),
            );
            let op = if w.store {
                AccessOp::Store
            } else {
                AccessOp::Load
            };
            let addr = Src::Reg(s.addr, 0);
            let mut info = match p.form {
                PieceForm::Lanes(bits) => {
                    let (eb, v) = if bits > 64 {
                        (32, bits / 32)
                    } else {
                        (bits, 1)
                    };
                    MemOp::plain(op, MemKind::Plain, w.space, (eb, v), addr, w.store)
                }
                PieceForm::Ldsm { matrices, trans } => {
                    let mut m =
                        MemOp::plain(op, MemKind::MatrixLoad, w.space, (128, 1), addr, false);
                    m.ext_mut().matrix = Some(MatrixFacts {
                        shape: "m8n8".to_string(),
                        matrices,
                        rows_per_matrix: 8,
                        row_bytes: 16,
                        trans,
                    });
                    m
                }
            };
            info.elem_type = w.elem_type;
            info.elem_float = !matches!(w.elem_type, Some("s8" | "u8" | "s32"));
            info.elem_signed = matches!(w.elem_type, Some("s8" | "s32"));
            let dsts = match regs_per_piece {
                Some(n) => w.regs[k * n..(k + 1) * n].to_vec(),
                None if k == 0 && !w.store => w.regs.clone(),
                None => Vec::new(),
            };
            out.push(instr(OpKind::Mem { info, dsts }), span, mnemonic, loc);
        }
        out.push(
            instr(OpKind::Branch {
                target: Some(OpId(at as u32 + 1)),
                indexed: Vec::new(),
                uniform: true,
            }),
            span,
            "",
            loc,
        );
        out.ops[at].kind = OpKind::Branch {
            target: Some(OpId(entry as u32)),
            indexed: Vec::new(),
            uniform: true,
        };
        out.inlined.push(InlineSite {
            call: OpId(at as u32),
            callee: mnemonic.to_string(),
            ops: entry as u32..out.ops.len() as u32,
            body_start: OpId(entry as u32),
            depth: 1,
        });
    }
}

fn instr(kind: OpKind) -> Op {
    Op {
        guard: None,
        kind,
        form: Form::Instruction,
    }
}

/// `dst = add + Σ ((%laneid >> shift) & mask) * mul`.
fn sum_of_fields<'src>(
    out: &mut Out<'src>,
    emit: &mut impl FnMut(&mut Out<'src>, OpKind),
    s: &Scratch,
    dst: Reg,
    fields: &[Field],
    add: i64,
) {
    emit(out, alu(AluOp::Mov, 32, false, dst, vec![Src::Imm(add)]));
    for f in fields {
        let lane = Src::Special(Special::LaneId);
        emit(
            out,
            alu(
                AluOp::Shr,
                32,
                false,
                s.term,
                vec![lane, Src::Imm(f.shift.into())],
            ),
        );
        emit(
            out,
            alu(
                AluOp::And,
                32,
                false,
                s.term,
                vec![Src::Reg(s.term, 0), Src::Imm(f.mask.into())],
            ),
        );
        emit(
            out,
            alu(
                AluOp::Mul(MulMode::Lo),
                32,
                false,
                s.term,
                vec![Src::Reg(s.term, 0), Src::Imm(f.mul)],
            ),
        );
        emit(
            out,
            alu(
                AluOp::Add,
                32,
                false,
                dst,
                vec![Src::Reg(dst, 0), Src::Reg(s.term, 0)],
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(mods: &str) -> Wmma {
        let m: Vec<&str> = mods.split('.').collect();
        parse(&m, Src::Imm(0), Some(Src::Imm(16)), vec![0; 8]).unwrap()
    }

    /// Request counts and widths against the SASS of `tests/hw/wmma/`
    /// (`measured_sass.json.gz`: the opcodes ptxas emitted for each).
    /// A shape the PTX ISA does not have is not expanded (a fuzzed
    /// `m65536n65536k65536` would otherwise ask for millions of requests).
    #[test]
    fn shapes_outside_the_isa_are_not_expanded() {
        let m: Vec<&str> = "load.a.sync.aligned.row.m65536n65536k65536.global.f16"
            .split('.')
            .collect();
        assert!(parse(&m, Src::Imm(0), None, vec![]).is_none());
        let m: Vec<&str> = "load.a.sync.aligned.row.m8n8k32.global.s4"
            .split('.')
            .collect();
        assert!(parse(&m, Src::Imm(0), None, vec![]).is_none());
    }

    #[test]
    fn requests_per_instruction_match_the_sass() {
        let count = |mods: &str| {
            let p = w(mods).pieces();
            let forms: Vec<PieceForm> = p.iter().map(|p| p.form).collect();
            (p.len(), forms[0])
        };
        let lanes = PieceForm::Lanes;
        // g_h16_rr_f32r: four LDG.E a and b, four LDG.E.64 c
        assert_eq!(
            count("load.a.sync.aligned.row.m16n16k16.global.f16"),
            (4, lanes(32))
        );
        assert_eq!(
            count("load.b.sync.aligned.row.m16n16k16.global.f16"),
            (4, lanes(32))
        );
        assert_eq!(
            count("load.c.sync.aligned.row.m16n16k16.global.f32"),
            (4, lanes(64))
        );
        // g_h16_cc_f32c: eight 32-bit loads and stores of a column-major f32 tile
        assert_eq!(
            count("load.c.sync.aligned.col.m16n16k16.global.f32"),
            (8, lanes(32))
        );
        assert_eq!(
            count("store.d.sync.aligned.col.m16n16k16.global.f32"),
            (8, lanes(32))
        );
        // g_h8x32_cr_f32c: the m8n32 accumulator is natural column-major
        assert_eq!(
            count("load.c.sync.aligned.col.m8n32k16.global.f32"),
            (4, lanes(64))
        );
        assert_eq!(
            count("load.a.sync.aligned.col.m8n32k16.global.f16"),
            (2, lanes(32))
        );
        assert_eq!(
            count("load.b.sync.aligned.row.m8n32k16.global.f16"),
            (8, lanes(32))
        );
        // g_u8_32x8_cr_s32c: 16 + 4 LDG.E.U8
        assert_eq!(
            count("load.a.sync.aligned.col.m32n8k16.global.u8"),
            (16, lanes(8))
        );
        assert_eq!(
            count("load.b.sync.aligned.row.m32n8k16.global.u8"),
            (4, lanes(8))
        );
        // g_s8_rc_s32r: two LDG.E each
        assert_eq!(
            count("load.a.sync.aligned.row.m16n16k16.global.s8"),
            (2, lanes(32))
        );
        // g_f64_*: LD.E.64 a/b, LD.E.128 or two LD.E.64 c
        assert_eq!(count("load.a.sync.aligned.row.m8n8k4.f64"), (1, lanes(64)));
        assert_eq!(count("load.b.sync.aligned.row.m8n8k4.f64"), (1, lanes(64)));
        assert_eq!(count("load.c.sync.aligned.row.m8n8k4.f64"), (1, lanes(128)));
        assert_eq!(count("store.d.sync.aligned.col.m8n8k4.f64"), (2, lanes(64)));
        // g_tf32_*: four LD.E a and b
        assert_eq!(
            count("load.a.sync.aligned.row.m16n16k8.tf32"),
            (4, lanes(32))
        );
        assert_eq!(
            count("load.b.sync.aligned.col.m16n16k8.tf32"),
            (4, lanes(32))
        );
        // s_*: LDSM.16.M88.4 / MT88.4, .x2 for 8-bit and m32n8's b
        let ldsm = |matrices, trans| PieceForm::Ldsm { matrices, trans };
        assert_eq!(
            count("load.a.sync.aligned.row.m16n16k16.shared.f16"),
            (1, ldsm(4, false))
        );
        assert_eq!(
            count("load.b.sync.aligned.row.m16n16k16.shared.f16"),
            (1, ldsm(4, true))
        );
        assert_eq!(
            count("load.a.sync.aligned.col.m32n8k16.shared.f16"),
            (2, ldsm(4, true))
        );
        assert_eq!(
            count("load.b.sync.aligned.row.m32n8k16.shared.f16"),
            (1, ldsm(2, true))
        );
        assert_eq!(
            count("load.a.sync.aligned.row.m16n16k16.shared.s8"),
            (1, ldsm(2, false))
        );
        // s_u8_rr_s32c_p0: b row-major u8 from shared is eight LDS.U8
        assert_eq!(
            count("load.b.sync.aligned.row.m16n16k16.shared.u8"),
            (8, lanes(8))
        );
        // the accumulator through shared memory: STS.64, or STS x 8
        assert_eq!(
            count("store.d.sync.aligned.row.m16n16k16.shared.f32"),
            (4, lanes(64))
        );
        assert_eq!(
            count("store.d.sync.aligned.row.m16n16k16.shared.f16"),
            (4, lanes(32))
        );
    }

    /// Lane `l`'s byte offset of each request, for a stride of 16 elements.
    fn offsets(mods: &str) -> Vec<Vec<i64>> {
        let w = w(mods);
        let ld = 16 * i64::from(w.elem_bits / 8);
        let eval = |fs: &[Field], add: i64, l: i64| {
            add + fs
                .iter()
                .map(|f| ((l >> f.shift) & i64::from(f.mask)) * f.mul)
                .sum::<i64>()
        };
        w.pieces()
            .iter()
            .map(|p| {
                (0..32)
                    .map(|l| eval(&p.row, p.row_add, l) * ld + eval(&p.byte, p.byte_add, l))
                    .collect()
            })
            .collect()
    }

    /// Every byte of the tile is read exactly once (16-bit a row-major: the
    /// four 32-bit requests cover the 16 x 16 halves).
    #[test]
    fn requests_tile_the_matrix() {
        for (mods, bytes_per_lane) in [
            ("load.a.sync.aligned.row.m16n16k16.global.f16", 4),
            ("load.b.sync.aligned.col.m16n16k16.global.f16", 4),
            ("load.c.sync.aligned.col.m16n16k16.global.f32", 4),
            ("load.c.sync.aligned.row.m16n16k16.global.f32", 8),
            ("load.a.sync.aligned.col.m16n16k16.global.u8", 1),
            ("load.a.sync.aligned.col.m16n16k8.tf32", 4),
        ] {
            let mut seen = vec![0u32; 16 * 16 * 4];
            for req in offsets(mods) {
                for o in req {
                    for b in 0..bytes_per_lane {
                        seen[(o + b) as usize] += 1;
                    }
                }
            }
            let w = w(mods);
            let (r, c) = w.dims();
            let bytes = (r * c * w.elem_bits / 8) as usize;
            // the tile, 16 elements a memory row
            let (mr, mc) = w.memory_dims();
            let eb = (w.elem_bits / 8) as usize;
            let mut want = vec![0u32; 16 * 16 * 4];
            for row in 0..mr as usize {
                for byte in 0..mc as usize * eb {
                    want[row * 16 * eb + byte] = 1;
                }
            }
            assert_eq!(seen, want, "{mods}: {bytes} bytes");
        }
    }
}
