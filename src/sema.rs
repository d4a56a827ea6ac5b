//! Symbol tables and name resolution.

use crate::syntax::ast::{Body, Ident, StmtId, StmtKind};
use std::collections::HashMap;

/// Index of a lexical scope in a [`Scopes`] tree: 0 is the function body,
/// every `{ … }` block inside it opens a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ScopeId(pub u32);

impl ScopeId {
    /// The function body's scope.
    pub const ROOT: ScopeId = ScopeId(0);
    /// The index into the scope arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The nested `{ }` scopes of one function body and the labels each defines.
///
/// Labels are scoped like registers: a label defined inside a `{ }` block is
/// visible in that block and the blocks nested in it, not outside. This is
/// what lets inline PTX from CUDA (`asm("{ … L: … bra L; }")`), inlined
/// several times into one function, reuse its label names. Labels may be used
/// before they are defined (forward branches), so a label is visible in its
/// whole scope, not only after its definition. `.branchtargets` and
/// `.callprototype` names are labels of the same namespace.
#[derive(Clone, Debug, Default)]
pub struct Scopes<'src> {
    /// Scope of each statement (a `{`/`}` marker belongs to the outer scope).
    stmt_scope: Vec<ScopeId>,
    /// Parent of each scope (`None` for the root).
    parent: Vec<Option<ScopeId>>,
    /// Labels by scope and name: the first definition.
    labels: HashMap<(ScopeId, &'src str), StmtId>,
    /// Labels defined twice in one scope: (first, second).
    duplicates: Vec<(StmtId, StmtId)>,
}

impl<'src> Scopes<'src> {
    /// Builds the scope tree of a body. Unbalanced `}` markers are ignored
    /// (the parser reports them); unclosed `{` end with the body.
    pub fn build(body: &Body<'src>) -> Scopes<'src> {
        let mut s = Scopes {
            parent: vec![None],
            ..Scopes::default()
        };
        let mut stack = vec![ScopeId::ROOT];
        for (id, stmt) in body.iter() {
            let cur = *stack.last().unwrap_or(&ScopeId::ROOT);
            s.stmt_scope.push(cur);
            match &stmt.kind {
                StmtKind::ScopeOpen => {
                    let new = ScopeId(s.parent.len() as u32);
                    s.parent.push(Some(cur));
                    stack.push(new);
                }
                StmtKind::ScopeClose => {
                    if stack.len() > 1 {
                        stack.pop();
                        // The `}` belongs to the scope it closes' parent.
                        let outer = *stack.last().unwrap_or(&ScopeId::ROOT);
                        s.stmt_scope[id.index()] = outer;
                    }
                }
                _ => {
                    if let Some(name) = label_name(&stmt.kind) {
                        match s.labels.entry((cur, name.text)) {
                            std::collections::hash_map::Entry::Occupied(e) => {
                                s.duplicates.push((*e.get(), id))
                            }
                            std::collections::hash_map::Entry::Vacant(e) => {
                                e.insert(id);
                            }
                        }
                    }
                }
            }
        }
        s
    }

    /// The scope a statement belongs to (the root for an out-of-range id).
    pub fn scope_of(&self, stmt: StmtId) -> ScopeId {
        self.stmt_scope
            .get(stmt.index())
            .copied()
            .unwrap_or(ScopeId::ROOT)
    }

    /// The enclosing scope, `None` for the root.
    pub fn parent(&self, scope: ScopeId) -> Option<ScopeId> {
        self.parent.get(scope.index()).copied().flatten()
    }

    /// Number of scopes (at least 1).
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Always false: the root scope exists.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The scope and its ancestors, innermost first.
    pub fn chain(&self, scope: ScopeId) -> impl Iterator<Item = ScopeId> + '_ {
        std::iter::successors(Some(scope), move |s| self.parent(*s))
    }

    /// The label (or `.branchtargets`/`.callprototype` statement) called
    /// `name` as seen from statement `from`.
    pub fn resolve_label(&self, from: StmtId, name: &str) -> Option<StmtId> {
        self.chain(self.scope_of(from))
            .find_map(|s| self.labels.get(&(s, name)).copied())
    }

    /// Labels defined twice in one scope: (first definition, second).
    pub fn duplicate_labels(&self) -> &[(StmtId, StmtId)] {
        &self.duplicates
    }
}

/// The name a statement defines in the label namespace, if any.
pub fn label_name<'a, 'src>(kind: &'a StmtKind<'src>) -> Option<&'a Ident<'src>> {
    match kind {
        StmtKind::Label(n) => Some(n),
        StmtKind::BranchTargets { name, .. } | StmtKind::CallPrototype { name, .. } => Some(name),
        _ => None,
    }
}
