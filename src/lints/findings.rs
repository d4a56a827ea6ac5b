//! A file's diagnostics in a compact form: what `check` holds between the
//! lints and the output.
//!
//! A large file has hundreds of thousands of findings (668,799 on the
//! largest cuBLAS module, 646,746 of them `local-memory-access`), and most
//! of their text is shared: a rule's message, its notes and help differ
//! among a few variants. As owned [`Diagnostic`]s they cost about 710 bytes
//! each (BENCHMARKS.md, "Stop 18"). [`Findings`] keeps one fixed-size entry
//! per diagnostic (its primary span, rule, severity, the kernel it came
//! from) and interns every text, every list of notes and every `.loc`
//! chain once per file; [`Findings::get`] rebuilds the exact
//! [`Diagnostic`] when an output format renders it, one at a time.
//!
//! The round trip is exact: a diagnostic whose labels are one primary label
//! keeps it inline, any other shape keeps its labels as a list.

use crate::analysis::model::SourceLocation;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::source::Span;
use crate::util::FastMap;
use std::hash::Hash;

/// No value (an index field that is absent).
const NONE: u32 = u32::MAX;

/// Values stored once, by index.
#[derive(Clone, Debug)]
struct Pool<T: Eq + Hash + Clone> {
    items: Vec<T>,
    index: FastMap<T, u32>,
}

impl<T: Eq + Hash + Clone> Default for Pool<T> {
    fn default() -> Self {
        Pool {
            items: Vec::new(),
            index: FastMap::default(),
        }
    }
}

impl<T: Eq + Hash + Clone> Pool<T> {
    fn intern(&mut self, v: T) -> u32 {
        if let Some(&i) = self.index.get(&v) {
            return i;
        }
        let i = self.items.len() as u32;
        self.items.push(v.clone());
        self.index.insert(v, i);
        i
    }
}

impl Pool<Box<str>> {
    fn intern_str(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        self.intern(s.into())
    }
}

/// One diagnostic: 40 bytes, its texts by index.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The primary span ([`Diagnostic::span`]): the sort key.
    span: Span,
    message: u32,
    /// The primary label's text, when the labels are that one label.
    label: u32,
    /// Index into `label_lists` when the labels are not one primary label.
    labels: u32,
    /// Index into `note_lists`.
    notes: u32,
    help: u32,
    /// Index into `locations`.
    location: u32,
    /// The kernel (index in the file) whose analysis found it.
    kernel: u32,
    /// Index into `rules`.
    rule: u16,
    severity: Severity,
}

/// A file's diagnostics, each with the CUDA source location of its access
/// (from `.loc`) and the kernel it came from, stored compactly (see the
/// module documentation). Indices are positions in the file's order.
#[derive(Clone, Debug, Default)]
pub struct Findings {
    entries: Vec<Entry>,
    rules: Vec<(&'static str, &'static str)>,
    texts: Pool<Box<str>>,
    note_lists: Pool<Box<[u32]>>,
    label_lists: Vec<Box<[(Span, u32, bool)]>>,
    locations: Pool<SourceLocation>,
}

impl Findings {
    /// No findings.
    pub fn new() -> Findings {
        Findings::default()
    }

    /// Number of diagnostics.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn text(&self, i: u32) -> &str {
        &self.texts.items[i as usize]
    }

    fn opt(&mut self, s: Option<&str>) -> u32 {
        s.map_or(NONE, |s| self.texts.intern_str(s))
    }

    /// Adds a diagnostic at the end, with the CUDA source location of its
    /// access and the index of the kernel that found it.
    pub fn push(&mut self, d: &Diagnostic, location: Option<&SourceLocation>, kernel: Option<u32>) {
        let rule = match self
            .rules
            .iter()
            .position(|&(c, n)| c == d.code && n == d.name)
        {
            Some(r) => r,
            None => {
                self.rules.push((d.code, d.name));
                self.rules.len() - 1
            }
        } as u16;
        let (label, labels) = match d.labels.as_slice() {
            [l] if l.primary => (self.texts.intern_str(&l.message), NONE),
            ls => {
                let list: Box<[(Span, u32, bool)]> = ls
                    .iter()
                    .map(|l| (l.span, self.texts.intern_str(&l.message), l.primary))
                    .collect();
                self.label_lists.push(list);
                (NONE, self.label_lists.len() as u32 - 1)
            }
        };
        let notes: Box<[u32]> = d.notes.iter().map(|n| self.texts.intern_str(n)).collect();
        let entry = Entry {
            span: d.span(),
            message: self.texts.intern_str(&d.message),
            label,
            labels,
            notes: self.note_lists.intern(notes),
            help: self.opt(d.help.as_deref()),
            location: location.map_or(NONE, |l| self.locations.intern(l.clone())),
            kernel: kernel.unwrap_or(NONE),
            rule,
            severity: d.severity,
        };
        self.entries.push(entry);
    }

    /// Diagnostic `i`, rebuilt.
    ///
    /// # Panics
    ///
    /// When `i` is not below [`Findings::len`].
    pub fn get(&self, i: usize) -> Diagnostic {
        let e = &self.entries[i];
        let (code, name) = self.rules[e.rule as usize];
        let labels = if e.labels == NONE {
            vec![Label {
                span: e.span,
                message: self.text(e.label).to_string(),
                primary: true,
            }]
        } else {
            self.label_lists[e.labels as usize]
                .iter()
                .map(|&(span, m, primary)| Label {
                    span,
                    message: self.text(m).to_string(),
                    primary,
                })
                .collect()
        };
        Diagnostic {
            code,
            name,
            severity: e.severity,
            message: self.text(e.message).to_string(),
            labels,
            notes: self.note_lists.items[e.notes as usize]
                .iter()
                .map(|&n| self.text(n).to_string())
                .collect(),
            help: (e.help != NONE).then(|| self.text(e.help).to_string()),
        }
    }

    /// Every diagnostic, rebuilt one at a time, in order.
    pub fn iter(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Every diagnostic, rebuilt.
    pub fn to_vec(&self) -> Vec<Diagnostic> {
        self.iter().collect()
    }

    /// The primary span of diagnostic `i`.
    pub fn span(&self, i: usize) -> Span {
        self.entries[i].span
    }

    /// The rule code of diagnostic `i`.
    pub fn code(&self, i: usize) -> &'static str {
        self.rules[self.entries[i].rule as usize].0
    }

    /// The severity of diagnostic `i`.
    pub fn severity(&self, i: usize) -> Severity {
        self.entries[i].severity
    }

    /// The message of diagnostic `i`.
    pub fn message(&self, i: usize) -> &str {
        self.text(self.entries[i].message)
    }

    /// The CUDA source location (`.loc`) of diagnostic `i`'s access.
    pub fn location(&self, i: usize) -> Option<&SourceLocation> {
        let l = self.entries.get(i)?.location;
        (l != NONE).then(|| &self.locations.items[l as usize])
    }

    /// Every distinct CUDA source location of the diagnostics.
    pub fn locations(&self) -> impl Iterator<Item = &SourceLocation> {
        self.locations.items.iter()
    }

    /// The kernel (its index in the file) whose analysis found diagnostic
    /// `i`; `None` for the front end's diagnostics and the suppressions'.
    pub fn kernel(&self, i: usize) -> Option<u32> {
        let k = self.entries[i].kernel;
        (k != NONE).then_some(k)
    }

    /// True when a diagnostic has error severity.
    pub fn has_errors(&self) -> bool {
        self.entries.iter().any(|e| e.severity == Severity::Error)
    }

    /// Moves `other`'s diagnostics to the end of these, as found by kernel
    /// `kernel` (the kernel each came with is replaced).
    pub fn append_kernel(&mut self, other: Findings, kernel: u32) {
        self.append_as(other, Some(kernel));
    }

    /// Moves `other`'s diagnostics to the end of these, each keeping the
    /// kernel it came with.
    pub fn append(&mut self, other: Findings) {
        self.append_as(other, None);
    }

    /// Moves the diagnostics whose position is below `limit` into a new
    /// [`Findings`] (in their order; the rest stay, in theirs).
    pub fn split_below(&mut self, limit: u32) -> Findings {
        let below = self.entries.iter().filter(|e| e.span.start < limit).count();
        if below == self.entries.len() {
            return std::mem::take(self);
        }
        if below == 0 {
            return Findings::new();
        }
        let (low, high): (Vec<Entry>, Vec<Entry>) = std::mem::take(&mut self.entries)
            .into_iter()
            .partition(|e| e.span.start < limit);
        self.entries = high;
        Findings {
            entries: low,
            ..self.clone_pools()
        }
    }

    /// These findings' shared texts, lists and locations, without entries.
    fn clone_pools(&self) -> Findings {
        Findings {
            entries: Vec::new(),
            rules: self.rules.clone(),
            texts: self.texts.clone(),
            note_lists: self.note_lists.clone(),
            label_lists: self.label_lists.clone(),
            locations: self.locations.clone(),
        }
    }

    fn append_as(&mut self, other: Findings, kernel: Option<u32>) {
        let rules: Vec<u16> = other
            .rules
            .iter()
            .map(|&(c, n)| {
                match self.rules.iter().position(|&r| r == (c, n)) {
                    Some(r) => r,
                    None => {
                        self.rules.push((c, n));
                        self.rules.len() - 1
                    }
                }
                .try_into()
                .unwrap_or(u16::MAX)
            })
            .collect();
        let texts: Vec<u32> = other
            .texts
            .items
            .iter()
            .map(|t| self.texts.intern_str(t))
            .collect();
        let t = |i: u32| if i == NONE { NONE } else { texts[i as usize] };
        let notes: Vec<u32> = other
            .note_lists
            .items
            .iter()
            .map(|l| self.note_lists.intern(l.iter().map(|&n| t(n)).collect()))
            .collect();
        let locations: Vec<u32> = other
            .locations
            .items
            .into_iter()
            .map(|l| self.locations.intern(l))
            .collect();
        let base = self.label_lists.len() as u32;
        self.label_lists.extend(
            other
                .label_lists
                .into_iter()
                .map(|l| l.iter().map(|&(s, m, p)| (s, t(m), p)).collect()),
        );
        self.entries.reserve(other.entries.len());
        for e in other.entries {
            self.entries.push(Entry {
                span: e.span,
                message: t(e.message),
                label: t(e.label),
                labels: if e.labels == NONE {
                    NONE
                } else {
                    base + e.labels
                },
                notes: notes[e.notes as usize],
                help: t(e.help),
                location: if e.location == NONE {
                    NONE
                } else {
                    locations[e.location as usize]
                },
                kernel: kernel.unwrap_or(e.kernel),
                rule: rules[e.rule as usize],
                severity: e.severity,
            });
        }
    }

    /// Sorts by position, then code; equal keys keep their order.
    pub fn sort(&mut self) {
        let rules = &self.rules;
        self.entries
            .sort_by_key(|e| (e.span.start, rules[e.rule as usize].0));
    }

    /// Keeps the diagnostics whose `keep` entry is true (missing entries
    /// keep theirs).
    pub fn retain(&mut self, keep: &[bool]) {
        let mut it = keep.iter();
        self.entries.retain(|_| *it.next().unwrap_or(&true));
    }

    /// Changes every CUDA source location (tests, path rewriting).
    pub fn map_locations(&mut self, mut f: impl FnMut(&mut SourceLocation)) {
        let mut items = std::mem::take(&mut self.locations.items);
        for l in &mut items {
            f(l);
        }
        // Rebuilt: locations that became equal are not merged (the entries
        // keep their indices), which only costs a little memory.
        self.locations.index = items
            .iter()
            .enumerate()
            .map(|(i, l)| (l.clone(), i as u32))
            .collect();
        self.locations.items = items;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(line: u32) -> SourceLocation {
        SourceLocation {
            file: "k.cu".into(),
            line,
            column: 3,
            inlined_at: Some(Box::new(SourceLocation {
                file: "main.cu".into(),
                line: 9,
                column: 0,
                inlined_at: None,
            })),
        }
    }

    #[test]
    fn diagnostics_round_trip_exactly() {
        let plain = Diagnostic::new(
            "E0001",
            "syntax-error",
            Severity::Error,
            Span::new(5, 9),
            "m",
        );
        let rich = Diagnostic::new(
            "W101",
            "uncoalesced-access",
            Severity::Warning,
            Span::new(1, 2),
            "x",
        )
        .with_label("`ld.global.f32`")
        .with_secondary(Span::new(3, 4), "other")
        .with_note("n1")
        .with_note("n2")
        .with_help("h");
        let mut no_primary = rich.clone();
        no_primary.labels.retain(|l| !l.primary);
        let mut f = Findings::new();
        f.push(&plain, None, None);
        f.push(&rich, Some(&loc(4)), Some(2));
        f.push(&rich, Some(&loc(4)), Some(2));
        f.push(&no_primary, Some(&loc(5)), None);
        assert_eq!(f.len(), 4);
        assert_eq!(f.get(0), plain);
        assert_eq!(f.get(1), rich);
        assert_eq!(f.get(2), rich);
        assert_eq!(f.get(3), no_primary);
        assert_eq!(f.location(1), Some(&loc(4)));
        assert_eq!(f.location(0), None);
        assert_eq!(f.kernel(1), Some(2));
        assert_eq!(f.locations().count(), 2, "equal chains are stored once");
        assert!(f.has_errors());

        // Appended as kernel 7 of another file's findings, then sorted.
        let mut all = Findings::new();
        all.push(&rich.clone().with_help("other help"), None, None);
        all.append_kernel(f, 7);
        assert_eq!(all.len(), 5);
        assert_eq!(all.get(2), rich);
        assert_eq!(all.kernel(1), Some(7));
        all.sort();
        let spans: Vec<u32> = (0..all.len()).map(|i| all.span(i).start).collect();
        assert_eq!(spans, vec![1, 1, 1, 3, 5]);
        assert_eq!(all.get(0).help.as_deref(), Some("other help"), "stable");
        assert_eq!(all.code(4), "E0001");
        all.retain(&[true, false, true, true, true]);
        assert_eq!(all.len(), 4);
        all.map_locations(|l| l.line += 1);
        assert_eq!(all.location(1).map(|l| l.line), Some(5));
    }
}
