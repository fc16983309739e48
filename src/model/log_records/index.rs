//! The index of a log's message ids by their texts' hashes: open addressing over one `u64` a
//! slot, so that a join can look many texts up at once and their cache misses overlap.
//!
//! A slot holds the hash's upper 32 bits (its tag, which also places it) and the id (all ones:
//! empty); slots are probed linearly from the one the tag places, and the table doubles
//! before it is half full. An id whose slot's tag matches is only a candidate: the caller
//! compares texts. The index never holds a text twice because its callers look before they
//! insert.

/// The ids of message texts by hash (see the module doc).
#[derive(Debug, Clone, Default)]
pub(super) struct Index {
    slots: Vec<u64>,
    len: usize,
}

/// The upper half of a slot: the tag.
const TAG: u64 = 0xFFFF_FFFF_0000_0000;

/// An empty slot. Not 0: slots are filled with it by writing, so that their pages are
/// written before they are read. A zeroed allocation is mapped to the shared zero page until
/// written, and the first write after a probe read it costs a copy-on-write fault whose
/// flush interrupts the other threads (about 4 % of the 1 GB archive's run when it was 0).
/// No id is `u32::MAX` (ids are below the table's limit).
const EMPTY: u64 = u64::MAX;

/// The slots a new index starts with.
const FIRST_SLOTS: usize = 64;

impl Index {
    /// How many ids it holds.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The slot a hash is placed in (its probe starts there).
    fn home(&self, hash: u64) -> usize {
        (hash >> 32) as usize & (self.slots.len().wrapping_sub(1))
    }

    /// The slot `hash` would be placed in, as it holds now: one load, and no branch on what
    /// it holds, so that loads for many hashes in a row are all in flight at once (see
    /// [`Index::candidates_from`]).
    pub(super) fn first_slot(&self, hash: u64) -> u64 {
        if self.slots.is_empty() {
            return EMPTY;
        }
        self.slots[self.home(hash)]
    }

    /// The ids whose tag is `hash`'s, in probe order.
    pub(super) fn candidates(&self, hash: u64) -> Candidates<'_> {
        Candidates {
            slots: &self.slots,
            at: self.home(hash),
            tag: hash & TAG,
            left: self.slots.len(),
        }
    }

    /// The first candidate for `hash`, given the slot [`Index::first_slot`] read for it:
    /// without reading the table again when that slot settles it (empty, or the tag's).
    pub(super) fn candidates_from(&self, hash: u64, first: u64) -> Option<u32> {
        if first == EMPTY {
            None
        } else if first & TAG == hash & TAG {
            Some(first as u32)
        } else {
            self.candidates(hash).next()
        }
    }

    /// Adds `id` under `hash` (the caller has looked: no id with the same text is held).
    pub(super) fn insert(&mut self, hash: u64, id: u32) {
        debug_assert_ne!(id, u32::MAX, "an id the index cannot hold");
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        place(&mut self.slots, (hash & TAG) | u64::from(id));
        self.len += 1;
    }

    /// Doubles the slots, placing each id again by its tag.
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(FIRST_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; size]);
        for s in old.into_iter().filter(|&s| s != EMPTY) {
            place(&mut self.slots, s);
        }
    }

    /// The tags held (each a hash's upper 32 bits, in the upper half).
    pub(super) fn tags(&self) -> impl Iterator<Item = u64> + '_ {
        self.slots.iter().filter(|&&s| s != EMPTY).map(|&s| s & TAG)
    }
}

/// Puts slot value `s` in the first empty slot from the one its tag places it in (`slots` is
/// a power of two long and not full).
fn place(slots: &mut [u64], s: u64) {
    let mask = slots.len() - 1;
    let mut i = (s >> 32) as usize & mask;
    while slots[i] != EMPTY {
        i = (i + 1) & mask;
    }
    slots[i] = s;
}

/// The ids whose tag matches, from a hash's slot on to the first empty one.
pub(super) struct Candidates<'a> {
    slots: &'a [u64],
    at: usize,
    tag: u64,
    /// Slots not probed yet (a full table would otherwise be probed forever; it never is
    /// more than half full).
    left: usize,
}

impl Iterator for Candidates<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        while self.left > 0 {
            let s = *self.slots.get(self.at)?;
            if s == EMPTY {
                return None;
            }
            self.left -= 1;
            self.at = (self.at + 1) & (self.slots.len() - 1);
            if s & TAG == self.tag {
                return Some(s as u32);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_found_under_their_hash_across_growth_and_collisions() {
        let mut index = Index::default();
        // Hashes that share a home slot (same low tag bits) and some that share a whole tag.
        let hash = |i: u64| ((i % 7) << 32) | ((i / 7) << 48) | (i & 0xFF);
        for i in 0..1000u64 {
            index.insert(hash(i), i as u32);
        }
        // A hundred more whose whole tag is an earlier one's.
        for i in 1000..1100u64 {
            index.insert(hash(i - 1000) ^ 1, i as u32);
        }
        assert_eq!(index.len(), 1100);
        assert!(index.slots.len() >= 2200, "{}", index.slots.len());
        for i in 0..1000u64 {
            let all: Vec<u32> = index.candidates(hash(i)).collect();
            let mut want = vec![i as u32];
            if i < 100 {
                want.push(i as u32 + 1000);
            }
            let mut got = all.clone();
            got.sort_unstable();
            assert_eq!(got, want, "{i}");
            // Only ids whose tag is the same are candidates.
            let first = index.first_slot(hash(i));
            assert_eq!(
                index.candidates_from(hash(i), first),
                all.first().copied(),
                "{i}"
            );
        }
        // A tag never inserted has no candidates.
        assert_eq!(index.candidates(0xABCD_EF01 << 32).next(), None);
        assert_eq!(index.tags().count(), 1100);
    }

    #[test]
    fn an_empty_index_has_no_candidates() {
        let index = Index::default();
        assert_eq!(index.first_slot(42 << 32), EMPTY);
        assert_eq!(index.candidates(42 << 32).next(), None);
        assert_eq!(index.candidates_from(42 << 32, EMPTY), None);
    }
}
