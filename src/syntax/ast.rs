//! The PTX syntax tree.
//!
//! The tree borrows every name and token from the source text (`&'src str`), and
//! every node carries the byte [`Span`] it was parsed from. A module keeps its
//! functions in an arena addressed by [`FunctionId`]; a function body is a flat
//! list of [`Statement`]s in source order, with nested `{ }` scopes kept as
//! [`StmtKind::ScopeOpen`]/[`StmtKind::ScopeClose`] markers (statements are
//! addressed by [`StmtId`], their index in the body).
//!
//! An instruction keeps its whole mnemonic (`ld.global.nc.v4.f32`) as one
//! token: [`Instruction::opcode`] and [`Instruction::modifiers`] split it
//! without allocating. Instructions the analysis does not understand
//! (`wgmma`, `cp.async.bulk.tensor`, …) are parsed the same way, so their
//! opcode and operands are always intact.
//!
//! Size: the tree is most of the front end's memory, so its common nodes
//! are kept small (tested in `node_sizes`): a [`Statement`] is 56 bytes, an
//! [`Operand`] 32. Register and symbol operands hold their name as text only
//! (the name starts the operand, so [`Operand::name`] gives its span), a
//! register's component is a [`Component`] byte, operand lists are boxed
//! slices allocated once at their length, and what most statements lack is
//! boxed (a guard, a `.loc`'s `function_name`, a `.callprototype`, a
//! declaration). `parse --stats` prints the tree's bytes
//! ([`super::stats::tree_bytes`]): 5.7x the text on cuBLAS's PTX. Names as
//! source offsets instead of `&str` (half of an operand, a third of a
//! statement) are what would take it to 3x.

use crate::source::Span;

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);
        impl $name {
            /// The index into its arena.
            pub fn index(self) -> usize { self.0 as usize }
        }
    };
}

id_type!(
    /// Index of a function in [`Module::functions`].
    FunctionId
);
id_type!(
    /// Index of a statement in [`Body::statements`].
    StmtId
);

/// A name or token and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ident<'src> {
    /// The text.
    pub text: &'src str,
    /// Where.
    pub span: Span,
}

/// A parsed PTX module.
#[derive(Clone, Debug, Default)]
pub struct Module<'src> {
    /// Top-level items in source order.
    pub items: Vec<Item<'src>>,
    /// `.entry` and `.func` definitions and declarations (arena).
    pub functions: Vec<Function<'src>>,
}

impl<'src> Module<'src> {
    /// The function with this id.
    pub fn function(&self, id: FunctionId) -> &Function<'src> {
        &self.functions[id.index()]
    }
    /// Ids of every function, in source order.
    pub fn function_ids(&self) -> impl Iterator<Item = FunctionId> + '_ {
        (0..self.functions.len() as u32).map(FunctionId)
    }
    /// `.version`, if present.
    pub fn version(&self) -> Option<(u32, u32)> {
        self.items.iter().find_map(|i| match i.kind {
            ItemKind::Version { major, minor } => Some((major, minor)),
            _ => None,
        })
    }
    /// The `.target` list, if present.
    pub fn targets(&self) -> &[Ident<'src>] {
        self.items
            .iter()
            .find_map(|i| match &i.kind {
                ItemKind::Target(t) => Some(t.as_slice()),
                _ => None,
            })
            .unwrap_or(&[])
    }
    /// `.address_size`, 64 when absent.
    pub fn address_size(&self) -> u32 {
        self.items
            .iter()
            .find_map(|i| match i.kind {
                ItemKind::AddressSize(n) => Some(n),
                _ => None,
            })
            .unwrap_or(64)
    }
    /// `.file` entries.
    pub fn files(&self) -> impl Iterator<Item = &FileDecl<'src>> {
        self.items.iter().filter_map(|i| match &i.kind {
            ItemKind::File(f) => Some(f),
            _ => None,
        })
    }
    /// Module-level variables.
    pub fn globals(&self) -> impl Iterator<Item = &VarDecl<'src>> {
        self.items.iter().filter_map(|i| match &i.kind {
            ItemKind::Var(v) => Some(v),
            _ => None,
        })
    }
}

/// A top-level item.
#[derive(Clone, Debug)]
pub struct Item<'src> {
    /// Where (the whole item).
    pub span: Span,
    /// What.
    pub kind: ItemKind<'src>,
}

/// The kinds of top-level item.
#[derive(Clone, Debug)]
pub enum ItemKind<'src> {
    /// `.version 8.5`
    Version {
        /// Major version.
        major: u32,
        /// Minor version.
        minor: u32,
    },
    /// `.target sm_90a, debug`
    Target(Vec<Ident<'src>>),
    /// `.address_size 64`
    AddressSize(u32),
    /// `.file 1 "a.cu", 1700000000, 1234`
    File(FileDecl<'src>),
    /// `.section .debug_info { ... }`
    Section(Section<'src>),
    /// `.alias a, b;`
    Alias {
        /// The new name.
        alias: Ident<'src>,
        /// The function it names.
        target: Ident<'src>,
    },
    /// A module-level variable declaration.
    Var(VarDecl<'src>),
    /// A function definition or declaration.
    Function(FunctionId),
    /// `.pragma "...";`
    Pragma(Ident<'src>),
    /// A top-level statement that could not be parsed (a diagnostic says why).
    Error,
}

/// `.file N "name" [, timestamp, size]`
#[derive(Clone, Debug)]
pub struct FileDecl<'src> {
    /// File number used by `.loc`.
    pub index: u32,
    /// File name, without the quotes.
    pub name: Ident<'src>,
    /// Modification timestamp, if given.
    pub timestamp: Option<u64>,
    /// Size in bytes, if given.
    pub size: Option<u64>,
}

/// A `.section` (DWARF) block: kept structurally, not interpreted.
#[derive(Clone, Debug)]
pub struct Section<'src> {
    /// Section name, such as `.debug_info`.
    pub name: Ident<'src>,
    /// The entries: labels and `.bN` data lines.
    pub entries: Vec<SectionEntry<'src>>,
}

/// One line of a `.section` block.
#[derive(Clone, Debug)]
pub enum SectionEntry<'src> {
    /// `$L__info_string0:`
    Label(Ident<'src>),
    /// `.b8 1, 2, 3` / `.b32 $L__debug_abbrev0` / `.b64 sym+8`
    Data {
        /// `.b8`, `.b16`, `.b32` or `.b64`.
        width: Ident<'src>,
        /// The values.
        values: Vec<InitValue<'src>>,
    },
}

/// `.entry` or `.func`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    /// A kernel (`.entry`).
    Entry,
    /// A device function (`.func`).
    Func,
}

/// Linkage and visibility directives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    /// `.extern`
    Extern,
    /// `.visible`
    Visible,
    /// `.weak`
    Weak,
    /// `.common`
    Common,
}

/// A kernel or device function.
#[derive(Clone, Debug)]
pub struct Function<'src> {
    /// The whole definition or declaration.
    pub span: Span,
    /// `.entry` or `.func`.
    pub kind: FunctionKind,
    /// Linkage directives in front of it.
    pub linkage: Vec<Linkage>,
    /// The (mangled) name.
    pub name: Ident<'src>,
    /// Return parameters of a `.func`.
    pub returns: Vec<VarDecl<'src>>,
    /// Parameters.
    pub params: Vec<VarDecl<'src>>,
    /// Performance-tuning and other directives between the header and body.
    pub directives: Vec<FuncDirective<'src>>,
    /// The body, or `None` for a declaration.
    pub body: Option<Body<'src>>,
}

impl<'src> Function<'src> {
    /// Values of a directive such as `.reqntid` or `.maxntid`.
    pub fn directive(&self, name: &str) -> Option<&FuncDirective<'src>> {
        self.directives.iter().find(|d| d.name.text == name)
    }
}

/// `.maxntid 256, 1, 1` and the like; `.noreturn` has no values.
#[derive(Clone, Debug)]
pub struct FuncDirective<'src> {
    /// Directive, with its dot (`.maxntid`).
    pub name: Ident<'src>,
    /// Integer arguments.
    pub values: Vec<u64>,
    /// String argument of `.pragma`.
    pub text: Option<Ident<'src>>,
    /// Where.
    pub span: Span,
}

/// A function body: statements in source order.
#[derive(Clone, Debug, Default)]
pub struct Body<'src> {
    /// From `{` to `}`.
    pub span: Span,
    /// The statements.
    pub statements: Vec<Statement<'src>>,
}

impl<'src> Body<'src> {
    /// The statement with this id.
    pub fn stmt(&self, id: StmtId) -> &Statement<'src> {
        &self.statements[id.index()]
    }
    /// Ids and statements.
    pub fn iter(&self) -> impl Iterator<Item = (StmtId, &Statement<'src>)> {
        self.statements
            .iter()
            .enumerate()
            .map(|(i, s)| (StmtId(i as u32), s))
    }
}

/// One statement of a body.
#[derive(Clone, Debug)]
pub struct Statement<'src> {
    /// Where.
    pub span: Span,
    /// What.
    pub kind: StmtKind<'src>,
}

/// The kinds of statement.
#[derive(Clone, Debug)]
pub enum StmtKind<'src> {
    /// `name:`
    Label(Ident<'src>),
    /// An instruction.
    Instruction(Instruction<'src>),
    /// A declaration (`.reg`, `.shared`, `.local`, `.param`, …). Boxed: it is
    /// rare in bodies and three times the size of the common statements.
    Var(Box<VarDecl<'src>>),
    /// `.loc file line column [, function_name f] [, inlined_at f l c]`
    Loc(Loc<'src>),
    /// `.pragma "...";`
    Pragma(Ident<'src>),
    /// `name: .branchtargets L1, L2;`
    BranchTargets {
        /// The table's name.
        name: Ident<'src>,
        /// Its labels.
        targets: Box<[Ident<'src>]>,
    },
    /// `name: .calltargets f, g;` (the possible callees of an indirect call)
    CallTargets {
        /// The table's name.
        name: Ident<'src>,
        /// Its functions.
        targets: Box<[Ident<'src>]>,
    },
    /// `name: .callprototype (.param .b32 _) _ (.param .b64 _);` (boxed:
    /// rare, and larger than an instruction).
    CallPrototype(Box<Prototype<'src>>),
    /// A directive kept by name only (not produced by the parser today;
    /// kept for forward compatibility of matches).
    Directive {
        /// The directive (with its dot).
        name: Ident<'src>,
    },
    /// `{`
    ScopeOpen,
    /// `}`
    ScopeClose,
    /// A statement that could not be parsed (a diagnostic says why).
    Error,
}

/// A `.callprototype`.
#[derive(Clone, Debug)]
pub struct Prototype<'src> {
    /// The prototype's name.
    pub name: Ident<'src>,
    /// Return parameters.
    pub returns: Vec<VarDecl<'src>>,
    /// Parameters.
    pub params: Vec<VarDecl<'src>>,
}

/// `.loc`
#[derive(Clone, Debug)]
pub struct Loc<'src> {
    /// `.file` number.
    pub file: u32,
    /// Source line.
    pub line: u32,
    /// Source column.
    pub column: u32,
    /// `function_name` label, if given (boxed: only inlined code has it).
    pub function_name: Option<Box<Ident<'src>>>,
    /// `inlined_at file line column`, if given.
    pub inlined_at: Option<(u32, u32, u32)>,
}

/// `@%p` or `@!%p`.
#[derive(Clone, Copy, Debug)]
pub struct Guard<'src> {
    /// `!` present.
    pub negated: bool,
    /// The predicate register's name; it ends the guard
    /// ([`Guard::pred_ident`] gives its span).
    pub pred: &'src str,
    /// From `@` to the end of the register.
    pub span: Span,
}

impl<'src> Guard<'src> {
    /// The predicate register with its span.
    pub fn pred_ident(&self) -> Ident<'src> {
        Ident {
            text: self.pred,
            span: Span::new(self.span.end - self.pred.len() as u32, self.span.end),
        }
    }
}

/// An instruction (40 bytes).
#[derive(Clone, Debug)]
pub struct Instruction<'src> {
    /// Guard predicate (boxed: most instructions have none).
    pub guard: Option<Box<Guard<'src>>>,
    /// The whole mnemonic, opcode and modifiers: `ld.global.nc.v4.f32`. It
    /// starts the statement, or follows the guard; no consumer needs its
    /// span, which is not kept.
    pub mnemonic: &'src str,
    /// Operands in order (allocated at their length).
    pub operands: Box<[Operand<'src>]>,
}

impl<'src> Instruction<'src> {
    /// The opcode: `ld` for `ld.global.u32`.
    pub fn opcode(&self) -> &'src str {
        let t = self.mnemonic;
        &t[..t.find('.').unwrap_or(t.len())]
    }
    /// The modifiers without their dots: `global`, `u32`.
    pub fn modifiers(&self) -> impl Iterator<Item = &'src str> + Clone {
        let t = self.mnemonic;
        let rest = t.find('.').map(|i| &t[i + 1..]).unwrap_or("");
        rest.split('.').filter(|s| !s.is_empty())
    }
    /// True when `m` (without dot) is one of the modifiers.
    pub fn has_modifier(&self, m: &str) -> bool {
        self.modifiers().any(|x| x == m)
    }
}

/// An operand (32 bytes). Names are kept as text; their spans follow from
/// the operand's ([`Operand::name`]).
#[derive(Clone, Debug)]
pub struct Operand<'src> {
    /// Where.
    pub span: Span,
    /// What.
    pub kind: OperandKind<'src>,
}

impl<'src> Operand<'src> {
    /// The name of a [`OperandKind::Reg`] or [`OperandKind::Symbol`] operand
    /// with its span (a name starts its operand; a register's component is
    /// left out).
    pub fn name(&self) -> Option<Ident<'src>> {
        let text = match self.kind {
            OperandKind::Reg { name, .. } | OperandKind::Symbol(name) => name,
            _ => return None,
        };
        Some(Ident {
            text,
            span: Span::new(self.span.start, self.span.start + text.len() as u32),
        })
    }
}

/// The component of a special register (`%tid.x`) or a byte or half of a
/// register (`%r1.b0`, `%r1.h1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    /// `.x`
    X,
    /// `.y`
    Y,
    /// `.z`
    Z,
    /// `.w`
    W,
    /// `.r`
    R,
    /// `.g`
    G,
    /// `.b`
    B,
    /// `.a`
    A,
    /// `.b0`..`.b3`
    Byte(u8),
    /// `.h0`, `.h1`
    Half(u8),
}

impl Component {
    /// Parses the text after the dot.
    pub fn parse(s: &str) -> Option<Component> {
        Some(match s.as_bytes() {
            b"x" => Component::X,
            b"y" => Component::Y,
            b"z" => Component::Z,
            b"w" => Component::W,
            b"r" => Component::R,
            b"g" => Component::G,
            b"b" => Component::B,
            b"a" => Component::A,
            [b'b', d @ b'0'..=b'3'] => Component::Byte(d - b'0'),
            [b'h', d @ b'0'..=b'1'] => Component::Half(d - b'0'),
            _ => return None,
        })
    }
    /// The text after the dot.
    pub fn as_str(self) -> &'static str {
        match self {
            Component::X => "x",
            Component::Y => "y",
            Component::Z => "z",
            Component::W => "w",
            Component::R => "r",
            Component::G => "g",
            Component::B => "b",
            Component::A => "a",
            Component::Byte(n) => ["b0", "b1", "b2", "b3"][n as usize & 3],
            Component::Half(n) => ["h0", "h1"][n as usize & 1],
        }
    }
}

/// The kinds of operand.
#[derive(Clone, Debug)]
pub enum OperandKind<'src> {
    /// `%r1`, or a special register with a component: `%tid.x`.
    Reg {
        /// Register name, `%tid` for `%tid.x`; it starts the operand.
        name: &'src str,
        /// Component after the dot.
        component: Option<Component>,
    },
    /// A name without `%`: a label, variable, parameter or function — or a
    /// register declared without `%` (inline-assembly style, `.reg .b32 f;`).
    /// Name resolution (`sema`) tells which. The name is the whole operand.
    Symbol(&'src str),
    /// An integer immediate (two's complement, 64 bits).
    Int(i64),
    /// A floating-point immediate (`0f…` widened to f64, `0d…`, decimal).
    Float(f64),
    /// `_`
    Sink,
    /// `[base + offset]`, `[base]`, `[100]`.
    Address {
        /// The register or symbol, if any.
        base: Option<Box<Operand<'src>>>,
        /// Constant byte offset.
        offset: i64,
    },
    /// `[a, b, {c, d}]` (texture and surface operands).
    AddressList(Box<[Operand<'src>]>),
    /// `{%r1, %r2, _}`
    Vector(Box<[Operand<'src>]>),
    /// `(a, b)`: call argument and return lists.
    List(Box<[Operand<'src>]>),
    /// `!%p`
    Not(Box<Operand<'src>>),
    /// `%p|%q` (two destination predicates of `setp`).
    PredPair(Box<[Operand<'src>; 2]>),
    /// `sym+4`, `%r1+8` outside brackets.
    Offset {
        /// The register or symbol.
        base: Box<Operand<'src>>,
        /// Constant offset.
        offset: i64,
    },
}

/// State spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StateSpace {
    /// `.reg`
    Reg,
    /// `.sreg` (special registers, never declared)
    Sreg,
    /// `.global`
    Global,
    /// `.shared` (with any `::cta`/`::cluster` qualifier)
    Shared,
    /// `.const`
    Const,
    /// `.local`
    Local,
    /// `.param`
    Param,
    /// `.tex`
    Tex,
}

impl StateSpace {
    /// Parses `global`, `shared::cta`, … (without the dot).
    pub fn from_modifier(m: &str) -> Option<StateSpace> {
        let base = m.split("::").next().unwrap_or(m);
        Some(match base {
            "reg" => StateSpace::Reg,
            "sreg" => StateSpace::Sreg,
            "global" => StateSpace::Global,
            "shared" => StateSpace::Shared,
            "const" => StateSpace::Const,
            "local" => StateSpace::Local,
            "param" => StateSpace::Param,
            "tex" => StateSpace::Tex,
            _ => return None,
        })
    }
}

/// A variable, register or parameter declaration. One declaration may name
/// several variables (`.reg .b32 %r<5>, %q;`), each a [`Declarator`].
#[derive(Clone, Debug)]
pub struct VarDecl<'src> {
    /// The whole declaration.
    pub span: Span,
    /// Linkage directives.
    pub linkage: Vec<Linkage>,
    /// The state space.
    pub space: StateSpace,
    /// `.align N`
    pub align: Option<u32>,
    /// `.v2`, `.v4`, `.v8`: vector width (1 for scalars).
    pub vector: u32,
    /// The element type token without its dot (`u32`, `b8`, `pred`, `texref`).
    pub ty: Option<Ident<'src>>,
    /// `.ptr` on a parameter, with its pointee space and alignment.
    pub ptr: Option<PtrAttr>,
    /// The declared names.
    pub declarators: Vec<Declarator<'src>>,
}

/// `.ptr .global .align 16` on a kernel parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PtrAttr {
    /// Pointee state space (generic when absent).
    pub space: Option<StateSpace>,
    /// Pointee alignment in bytes (absent means 4 per the ISA).
    pub align: Option<u32>,
}

/// One declared name.
#[derive(Clone, Debug)]
pub struct Declarator<'src> {
    /// The name (for a range `%r<100>`, the prefix `%r`).
    pub name: Ident<'src>,
    /// `<N>`: a range of N registers `%r0`..`%r{N-1}`.
    pub range: Option<u32>,
    /// Array dimensions; `None` for `[]`.
    pub dims: Vec<Option<u64>>,
    /// `= …`
    pub init: Option<InitValue<'src>>,
}

/// An initializer or section value.
#[derive(Clone, Debug)]
pub struct InitValue<'src> {
    /// Where.
    pub span: Span,
    /// What.
    pub kind: InitKind<'src>,
}

/// The kinds of initializer.
#[derive(Clone, Debug)]
pub enum InitKind<'src> {
    /// Integer.
    Int(i64),
    /// Floating-point.
    Float(f64),
    /// `sym`, `sym+4`, `generic(sym)+4`, `a-b`.
    Symbol {
        /// The symbol.
        name: Ident<'src>,
        /// Wrapped in `generic( )`.
        generic: bool,
        /// Constant offset.
        offset: i64,
        /// `- other` (label differences in DWARF sections).
        minus: Option<Ident<'src>>,
    },
    /// `{a, b, …}`
    List(Vec<InitValue<'src>>),
    /// `0xff00(sym)`: selected bytes of an address (PTX ISA §5.4.4).
    Mask {
        /// The byte mask.
        mask: i64,
        /// The address expression.
        value: Box<InitValue<'src>>,
    },
    /// `field = value` (sampler initializers).
    Field {
        /// The field.
        name: Ident<'src>,
        /// Its value.
        value: Box<InitValue<'src>>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes the tree's memory figures in BENCHMARKS.md ("Stop 18")
    /// rest on: a change that grows them shows up here.
    #[test]
    fn node_sizes() {
        assert_eq!(std::mem::size_of::<Operand<'_>>(), 32);
        assert_eq!(std::mem::size_of::<Guard<'_>>(), 32);
        assert_eq!(std::mem::size_of::<Instruction<'_>>(), 40);
        assert_eq!(std::mem::size_of::<Loc<'_>>(), 40);
        assert_eq!(std::mem::size_of::<Statement<'_>>(), 56);
    }

    #[test]
    fn components_round_trip() {
        for s in [
            "x", "y", "z", "w", "r", "g", "b", "a", "b0", "b1", "b2", "b3", "h0", "h1",
        ] {
            assert_eq!(Component::parse(s).map(Component::as_str), Some(s));
        }
        for s in ["", "q", "b4", "h2", "xy"] {
            assert_eq!(Component::parse(s), None);
        }
    }
}
