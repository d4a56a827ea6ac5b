//! Module-level facts for PTX lowering: variables, the `.file` table,
//! directive values, branch-target names, `.loc` inline chains, and how
//! many frames of each op's chain ptxas's line table holds.

use crate::ir::alu::Ty;
use crate::ir::{Loc, LocId, Space, Variable};
use crate::syntax::ast::{Function, Module, OperandKind, StateSpace};
use crate::util::FastMap as HashMap;

/// The variables one declaration declares (name, space, alignment).
pub(crate) fn variables<'a, 'src>(
    d: &'a crate::syntax::ast::VarDecl<'src>,
    space: Space,
) -> impl Iterator<Item = Variable<'src>> + 'a {
    let elem =
        d.ty.and_then(|t| Ty::parse(t.text))
            .map(|t| t.bits / 8)
            .unwrap_or(1);
    let align = d.align.unwrap_or(elem.max(1) * d.vector.max(1));
    let is_extern = d.linkage.contains(&crate::syntax::ast::Linkage::Extern);
    d.declarators.iter().map(move |decl| Variable {
        name: decl.name.text,
        space,
        align,
        size: decl.dims.iter().try_fold(
            u64::from(elem.max(1)) * u64::from(d.vector.max(1)),
            |acc, dim| dim.and_then(|n| acc.checked_mul(n)),
        ),
        is_extern,
        module_scope: false,
    })
}

/// Module-level variables (any space but `.param`/`.reg`), in order.
pub fn module_globals<'src>(module: &Module<'src>) -> Vec<Variable<'src>> {
    module
        .globals()
        .flat_map(|v| {
            let space = match v.space {
                StateSpace::Global => Space::Global,
                StateSpace::Shared => Space::Shared,
                StateSpace::Const => Space::Const,
                StateSpace::Local => Space::Local,
                _ => Space::Generic,
            };
            variables(v, space).map(|mut x| {
                x.module_scope = true;
                x
            })
        })
        .collect()
}

/// The module's `.file` table: index → name.
pub fn module_files<'src>(module: &Module<'src>) -> Vec<(u32, &'src str)> {
    module.files().map(|f| (f.index, f.name.text)).collect()
}

/// The branch-target name of an operand: `L`, or `L` in `L+0`.
pub(crate) fn symbol_name<'src>(op: &OperandKind<'src>) -> Option<&'src str> {
    match op {
        OperandKind::Symbol(name) => Some(name),
        OperandKind::Offset { base, .. } => symbol_name(&base.kind),
        _ => None,
    }
}

/// The values of a directive such as `.reqntid` (missing dimensions are 1).
pub(crate) fn dims(func: &Function<'_>, name: &str) -> Option<[u64; 3]> {
    func.directive(name)
        .filter(|x| !x.values.is_empty())
        .map(|x| std::array::from_fn(|i| x.values.get(i).copied().unwrap_or(1)))
}

/// Builds the `.loc` table: each `.loc … inlined_at f l c` is inlined into
/// the most recent location at file `f`, line `l`, column `c` (itself
/// possibly inlined elsewhere), so the chain reaches the kernel's own line
/// however deep the inlining. A call site never seen as a `.loc` of its own
/// gets an entry without caller.
///
/// The chains of an inlined callee's body start at `base` in the caller's
/// table, and the callee's outermost locations are inlined at `root`, the
/// call site's location: the chain then runs from the callee's line to the
/// kernel's own.
#[derive(Default)]
pub(crate) struct LocChains {
    pub(crate) locs: Vec<Loc>,
    at: HashMap<(u32, u32, u32), LocId>,
    base: u32,
    root: Option<LocId>,
}

impl LocChains {
    /// Chains whose ids start at `base`, outermost locations inlined at `root`.
    pub(crate) fn inlined(base: u32, root: Option<LocId>) -> LocChains {
        LocChains {
            base,
            root,
            ..LocChains::default()
        }
    }

    /// Adds a `.loc` line; returns its location.
    pub(crate) fn push(&mut self, l: &crate::syntax::ast::Loc<'_>) -> LocId {
        let inlined_at = l.inlined_at.map(|site| {
            *self.at.entry(site).or_insert_with(|| {
                self.locs.push(Loc {
                    file: site.0,
                    line: site.1,
                    column: site.2,
                    inlined_at: self.root,
                });
                LocId(self.base + self.locs.len() as u32 - 1)
            })
        });
        let inlined_at = inlined_at.or(self.root);
        let id = LocId(self.base + self.locs.len() as u32);
        self.locs.push(Loc {
            file: l.file,
            line: l.line,
            column: l.column,
            inlined_at,
        });
        self.at.insert((l.file, l.line, l.column), id);
        id
    }
}

/// Per op, how many frames of its `.loc` chain (innermost first) the line
/// table that ptxas writes holds at the op's code: a model of ptxas from the
/// PTX order (`tests/hw/line_attribution.md` has the evidence).
///
/// ptxas writes one line-table row per location it places and names a
/// row's call site by pointing at another row: the call site's `.loc`
/// (the most recent `.loc` at the `inlined_at` file, line and column, as
/// [`LocChains`] resolves it) gets a row of its own, at the same address,
/// the first time code inlined below it is placed; later code under the
/// same call-site `.loc` points at that row. So an instruction's rows are
/// its own location plus every call site on its chain, outermost first,
/// that had no row yet; a `.loc` that was an instruction's own location
/// does not count as a call-site row. An instruction whose location and
/// chain equal the last row's writes no row and shares the rows of the
/// code before it. Nsight Compute lists each instruction under every row
/// of its address.
///
/// Ops are taken in code-layout order (`layout_rank`, empty: op order);
/// every op that is not a `Nop` counts as placed code. Limits: ptxas
/// schedules, duplicates (unrolls) and folds code, so where the first code
/// under a call site is not the first in PTX order (an atomic's immediate
/// operand moved into a register ahead of it, a loop body copied), the
/// model gives more frames than ptxas writes, or fewer.
pub(crate) fn line_frames(
    ops: &[crate::ir::Op],
    locs: &[Option<LocId>],
    table: &[Loc],
    layout_rank: &[u32],
) -> Vec<u8> {
    let mut order: Vec<usize> = (0..ops.len()).collect();
    if !layout_rank.is_empty() {
        order.sort_by_key(|&i| layout_rank.get(i).copied().unwrap_or(u32::MAX));
    }
    let mut out = vec![1u8; ops.len()];
    let mut has_row: HashMap<LocId, ()> = HashMap::default();
    // The last row: (file, line, call site) and how many frames it wrote.
    let mut last: Option<(u32, u32, Option<LocId>)> = None;
    let mut last_frames = 1u8;
    for i in order {
        if matches!(ops[i].kind, crate::ir::OpKind::Nop) {
            continue;
        }
        let Some(loc) = locs.get(i).copied().flatten() else {
            continue;
        };
        let Some(l) = table.get(loc.0 as usize) else {
            continue;
        };
        let mut fresh = Vec::new();
        let mut at = l.inlined_at;
        while let Some(site) = at {
            if has_row.contains_key(&site) || fresh.len() >= table.len() {
                break;
            }
            fresh.push(site);
            at = table.get(site.0 as usize).and_then(|s| s.inlined_at);
        }
        let key = (l.file, l.line, l.inlined_at);
        if !fresh.is_empty() || last != Some(key) {
            last_frames = u8::try_from(fresh.len() + 1).unwrap_or(u8::MAX);
            has_row.extend(fresh.into_iter().map(|s| (s, ())));
            last = Some(key);
        }
        out[i] = last_frames;
    }
    out
}
