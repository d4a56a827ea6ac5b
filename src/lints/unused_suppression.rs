//! `unused-suppression` (W190): a `warpscope: allow(...)` comment that
//! allows nothing. Found by [`crate::suppress::apply`], not by a check over
//! one kernel's accesses, so it is a rule of the registry without an entry
//! in [`super::LINTS`].

crate::declare_lint! {
    /// ## What it finds
    ///
    /// A `warpscope: allow(...)` comment in a CUDA or Python source that allows no finding.
    ///
    /// Precisely: the comment covers a line for which this PTX has memory
    /// accesses (through a `.loc` or an `inlined_at` call site), but none of
    /// them has a finding of the rule the comment names; or the name is not a
    /// rule at all. Lines this PTX has no code for are not judged: the same
    /// source is often compiled into several PTX files.
    ///
    /// ## Why it costs
    ///
    /// A stale suppression costs nothing at run time, but it hides the next
    /// real finding on that line: after a refactor makes the access coalesced,
    /// the comment stays, and when the line regresses nobody is told.
    ///
    /// ## Example
    ///
    /// ```cuda
    /// out[i] = in[i];  // warpscope: allow(uncoalesced-access)
    /// ```
    ///
    /// ```text
    /// warning[W190]: unused suppression: no `uncoalesced-access` finding here
    /// ```
    ///
    /// ## How to fix it
    ///
    /// Remove the rule from the comment (the whole comment when it was the
    /// only one). If the rule is allowed in the configuration, the comment
    /// is not needed either.
    ///
    /// ## Known limits
    ///
    /// Only sources that can be read are searched for comments (an absolute
    /// `.file` name, or one relative to the PTX file or the current
    /// directory). Per-kernel `allow` lists in `warpscope.toml` are not
    /// reported when unused.
    pub static UNUSED_SUPPRESSION = { code: "W190", name: "unused-suppression", level: Warn };
}
