//! A map keyed by register names (`%r12`, `%rd3`, `%p1`), for the lowering's
//! per-body tables (the register each name is, how many instructions read
//! it).
//!
//! Nearly every register name is a short prefix and a decimal number (the
//! `%r<101>` ranges NVVM and ptxas declare). Such a name is split into its
//! prefix, packed into one integer, and its number, which indexes a vector
//! of that prefix: a lookup is a scan of the few prefixes seen so far and an
//! index, where hashing the name and comparing its bytes (`memcmp`) was
//! what the lowering spent on names (BENCHMARKS.md, stop 31). Every other
//! name (no number, a number with a leading zero, which names another
//! register than the number without it, a long prefix, a number beyond
//! [`MAX_INDEX`]) goes to a hash map. The two never hold the same name, so
//! the map behaves as one map from names to values.

use crate::util::FastMap as HashMap;

/// The largest number kept in a prefix's vector (a declared range beyond it
/// is unusual; its names go to the hash map).
const MAX_INDEX: u32 = 1 << 16;

/// A register name split as `prefix` (its bytes, `%` included, packed
/// little-endian: at most 8) and `number`.
fn split(name: &str) -> Option<(u64, u32)> {
    let b = name.as_bytes();
    let digits = b.iter().rev().take_while(|c| c.is_ascii_digit()).count();
    let (head, tail) = b.split_at(b.len() - digits);
    if head.is_empty() || head.len() > 8 || tail.is_empty() || tail.len() > 7 {
        return None;
    }
    if tail.len() > 1 && tail[0] == b'0' {
        return None;
    }
    let number = tail.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
    if number > MAX_INDEX {
        return None;
    }
    let mut packed = [0u8; 8];
    packed[..head.len()].copy_from_slice(head);
    Some((u64::from_le_bytes(packed), number))
}

/// A map from register names to `V`.
#[derive(Clone, Debug)]
pub(super) struct NameMap<'src, V> {
    /// Per prefix, the value of each number (`None`: absent).
    numbered: Vec<(u64, Vec<Option<V>>)>,
    /// The names that do not split.
    other: HashMap<&'src str, V>,
}

impl<V> Default for NameMap<'_, V> {
    fn default() -> Self {
        NameMap {
            numbered: Vec::new(),
            other: HashMap::default(),
        }
    }
}

impl<'src, V> NameMap<'src, V> {
    fn slot(&self, prefix: u64, number: u32) -> Option<&Option<V>> {
        let (_, vals) = self.numbered.iter().find(|(p, _)| *p == prefix)?;
        vals.get(number as usize)
    }

    fn slot_mut(&mut self, prefix: u64, number: u32) -> &mut Option<V> {
        let k = match self.numbered.iter().position(|(p, _)| *p == prefix) {
            Some(k) => k,
            None => {
                self.numbered.push((prefix, Vec::new()));
                self.numbered.len() - 1
            }
        };
        let vals = &mut self.numbered[k].1;
        let i = number as usize;
        if vals.len() <= i {
            vals.resize_with(i + 1, || None);
        }
        &mut vals[i]
    }

    /// The value of `name`.
    pub(super) fn get(&self, name: &str) -> Option<&V> {
        match split(name) {
            Some((p, n)) => self.slot(p, n)?.as_ref(),
            None => self.other.get(name),
        }
    }

    /// True when `name` has a value.
    pub(super) fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Sets the value of `name`; returns the one it replaces.
    pub(super) fn insert(&mut self, name: &'src str, v: V) -> Option<V> {
        match split(name) {
            Some((p, n)) => self.slot_mut(p, n).replace(v),
            None => self.other.insert(name, v),
        }
    }

    /// Removes the value of `name`; returns it.
    pub(super) fn remove(&mut self, name: &str) -> Option<V> {
        match split(name) {
            Some((p, n)) => match self.numbered.iter_mut().find(|(q, _)| *q == p) {
                Some((_, vals)) => vals.get_mut(n as usize).and_then(Option::take),
                None => None,
            },
            None => self.other.remove(name),
        }
    }

    /// The value of `name`, set to `make()` first when it has none.
    pub(super) fn get_or_insert_with(
        &mut self,
        name: &'src str,
        make: impl FnOnce() -> V,
    ) -> &mut V {
        match split(name) {
            Some((p, n)) => self.slot_mut(p, n).get_or_insert_with(make),
            None => self.other.entry(name).or_insert_with(make),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The map against a hash map of the same operations, on names that
    /// split and names that do not (leading zeros, no number, long
    /// prefixes, huge numbers, prefixes that are prefixes of each other).
    #[test]
    fn name_map_is_a_map_of_names() {
        let names = [
            "%r1",
            "%r01",
            "%r10",
            "%r0",
            "%r00",
            "%rd1",
            "%rd10",
            "%r",
            "%rd",
            "%p1",
            "%p",
            "q",
            "%longprefix12",
            "%abcdefg1",
            "%abcdefgh1",
            "%r99999999",
            "%r65536",
            "%r65537",
            "%f3",
            "%fd3",
            "%r2",
            "__cuda_local_var_1",
            "1",
            "",
        ];
        let mut m: NameMap<'_, u32> = NameMap::default();
        let mut h: HashMap<&str, u32> = HashMap::default();
        let mut x = 7u32;
        for step in 0..4000u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let name = names[(x >> 8) as usize % names.len()];
            match (x >> 4) % 4 {
                0 => assert_eq!(m.insert(name, step), h.insert(name, step), "{name}"),
                1 => assert_eq!(m.remove(name), h.remove(name), "{name}"),
                2 => {
                    let a = *m.get_or_insert_with(name, || step);
                    let b = *h.entry(name).or_insert(step);
                    assert_eq!(a, b, "{name}");
                }
                _ => {}
            }
            for n in names {
                assert_eq!(m.get(n), h.get(n), "{n}");
                assert_eq!(m.contains_key(n), h.contains_key(n), "{n}");
            }
        }
        assert_eq!(split("%r12"), split("%r12"));
        assert_ne!(split("%r12").map(|s| s.0), split("%rd12").map(|s| s.0));
        assert_eq!(split("%r012"), None);
        assert_eq!(split("%abcdefgh1"), None);
    }
}
