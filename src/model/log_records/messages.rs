//! The distinct message texts of a log ([`Messages`]) and the table that numbers them
//! ([`MessageTable`]): a text seen before gets its id again, looked up in [`Index`].

use super::index::Index;

/// Messages past this many are stored once per record instead of being looked up (a log of
/// all-distinct messages must not grow a table as large as itself). 256 Ki: the index then
/// takes about 4 MB, and the generated 4 GB dump's log (422 k distinct messages in 2.5 M
/// records) stores far fewer texts twice than with 128 Ki (peak 310-330 -> 252-258 MB, for
/// about 10 % more time on that log, whose lookups miss a larger index).
pub(super) const SHARED_MAX: usize = 1 << 18;

/// The distinct messages of a log, stored end to end in chunks: a message costs its text and
/// 12 bytes, where a shared string of its own took about 50 more (and an allocation). A chunk
/// is never grown once allocated (a large buffer doubling would copy itself and leave the old
/// copy behind in the allocator); chunks double from 4 KiB up to `CHUNK_MAX`, and a longer
/// message has a chunk of its own.
#[derive(Debug, Clone, Default)]
pub struct Messages {
    pub(super) chunks: Vec<String>,
    pub(super) spans: Vec<Span>,
}

/// Where a message is: its chunk, and its bytes in it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Span {
    pub(super) chunk: u32,
    pub(super) start: u32,
    pub(super) len: u32,
}

/// The largest chunk [`Messages`] allocates for messages that fit in one.
pub(super) const CHUNK_MAX: usize = 1 << 20;

impl Messages {
    /// How many messages.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Message `id`, `None` past the last one.
    pub fn get(&self, id: usize) -> Option<&str> {
        self.text(*self.spans.get(id)?)
    }

    /// Where message `id` is, `None` past the last one.
    pub(super) fn span(&self, id: u32) -> Option<Span> {
        self.spans.get(id as usize).copied()
    }

    /// The first byte of the text at `s` (`None` for an empty one).
    pub(super) fn first_byte(&self, s: Span) -> Option<u8> {
        if s.len == 0 {
            return None;
        }
        let c = self.chunks.get(s.chunk as usize)?;
        c.as_bytes().get(s.start as usize).copied()
    }

    /// The text at `s`.
    pub(super) fn text(&self, s: Span) -> Option<&str> {
        let start = s.start as usize;
        self.chunks
            .get(s.chunk as usize)?
            .get(start..start + s.len as usize)
    }

    /// The messages, by id.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.get(i).unwrap_or_default())
    }

    /// The bytes of all the texts.
    pub(super) fn text_bytes(&self) -> usize {
        self.chunks.iter().map(String::len).sum()
    }

    /// The length of message `id` (0 for an id it does not hold).
    pub(super) fn len_of(&self, id: u32) -> usize {
        self.spans.get(id as usize).map_or(0, |s| s.len as usize)
    }

    /// Adds `text` as the next message (a text over 4 GiB is cut at a character boundary).
    pub(super) fn push(&mut self, text: &str) {
        let mut cut = text.len().min(u32::MAX as usize);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let text = &text[..cut];
        let fits = self
            .chunks
            .last()
            .is_some_and(|c| c.capacity() - c.len() >= text.len());
        if !fits {
            let next = self
                .chunks
                .last()
                .map_or(4096, |c| (c.capacity() * 2).min(CHUNK_MAX));
            self.chunks
                .push(String::with_capacity(next.max(text.len())));
        }
        let chunk = self.chunks.len() - 1;
        let c = &mut self.chunks[chunk];
        self.spans.push(Span {
            chunk: chunk as u32,
            start: c.len() as u32,
            len: text.len() as u32,
        });
        c.push_str(text);
    }

    pub(super) fn shrink_to_fit(&mut self) {
        if let Some(last) = self.chunks.last_mut() {
            last.shrink_to_fit();
        }
        self.chunks.shrink_to_fit();
        self.spans.shrink_to_fit();
    }
}

/// Messages and the ids they were given: a text seen before gets its id again while the
/// table is below [`SHARED_MAX`]; past it, each new message is stored with an id of its own.
#[derive(Debug, Clone, Default)]
pub(super) struct MessageTable {
    pub(super) messages: Messages,
    pub(super) index: Index,
    pub(super) hasher: TextHasher,
    /// Once the index is full (it takes no more texts), one bit per [`Self::held_bit`] of the
    /// hashes it holds: a text whose bit is clear is not in it, and its lookup skips the
    /// index (whose probes miss the cache). A log of mostly distinct messages looks up every
    /// new one past [`SHARED_MAX`]; nearly all are new. Empty until then.
    pub(super) held: Vec<u64>,
}

/// The hasher of message texts: one random seed for the whole process, so a hash computed
/// while a block is parsed (in its own table) is the one the log's table would compute.
#[derive(Debug, Clone)]
pub(super) struct TextHasher(foldhash::fast::RandomState);

impl Default for TextHasher {
    fn default() -> Self {
        static SHARED: std::sync::OnceLock<foldhash::fast::RandomState> =
            std::sync::OnceLock::new();
        TextHasher(SHARED.get_or_init(Default::default).clone())
    }
}

impl TextHasher {
    pub(super) fn hash(&self, text: &str) -> u64 {
        std::hash::BuildHasher::hash_one(&self.0, text)
    }

    /// The hash of message `id`, whose text is `text`: `hashes[id]` when it was kept.
    pub(super) fn hash_kept(&self, hashes: &[u64], id: usize, text: &str) -> u64 {
        match hashes.get(id) {
            Some(&hash) => hash,
            None => self.hash(text),
        }
    }
}

/// How many bits [`MessageTable::held`] has (256 KiB: it stays in the cache, and a full
/// index sets about one bit in eight).
pub(super) const HELD_BITS: usize = 1 << 21;

/// How many look-ups [`MessageTable::find_batch`] has under way at once.
pub(super) const BATCH: usize = 32;

impl MessageTable {
    /// The table of messages already numbered (id = index), `hashes` the hashes of the first
    /// ones (the others are computed).
    pub(super) fn numbered(messages: Messages, hashes: &[u64]) -> Self {
        let mut t = MessageTable {
            messages,
            ..MessageTable::default()
        };
        for id in 0..t.messages.len().min(SHARED_MAX) {
            let text = t.messages.get(id).unwrap_or_default();
            let hash = t.hasher.hash_kept(hashes, id, text);
            if t.find(hash, text).is_none() {
                t.index.insert(hash, id as u32);
            }
        }
        t
    }

    /// The bit of `hash` in [`Self::held`]: its tag (the upper 32 bits the index keeps)
    /// mixed, so that it is not the tag's low bits that also place it in the index.
    pub(super) fn held_bit(hash: u64) -> (usize, u64) {
        let bit = ((hash >> 32).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - 21)) as usize;
        (bit / 64, 1 << (bit % 64))
    }

    /// Whether the index may hold `hash` (always, until it is full).
    pub(super) fn may_hold(&self, hash: u64) -> bool {
        if self.held.is_empty() {
            return true;
        }
        let (word, bit) = Self::held_bit(hash);
        self.held[word] & bit != 0
    }

    /// Builds [`Self::held`] when the index has just become full.
    #[inline]
    pub(super) fn hold_when_full(&mut self) {
        if self.held.is_empty() && self.messages.len() >= SHARED_MAX {
            self.hold();
        }
    }

    #[cold]
    pub(super) fn hold(&mut self) {
        self.held = vec![0; HELD_BITS / 64];
        for tag in self.index.tags() {
            let (word, bit) = Self::held_bit(tag);
            self.held[word] |= bit;
        }
    }

    /// The id `text` (whose hash is `hash`) has in the index.
    pub(super) fn find(&self, hash: u64, text: &str) -> Option<u32> {
        if !self.may_hold(hash) {
            return None;
        }
        self.index
            .candidates(hash)
            .find(|&id| self.messages.get(id as usize) == Some(text))
    }

    /// [`Self::find`] for each of up to [`BATCH`] `texts` (whose hashes are `hashes`),
    /// `u32::MAX` for one not found, appended to `out`.
    ///
    /// Each look-up's loads depend on each other (the slot, the id's span, the text), and in
    /// a large index each misses the cache. Each step is taken for all the texts before the
    /// next, in loops that do little but load, so that the misses of different texts overlap
    /// instead of following one another.
    pub(super) fn find_batch(&self, hashes: &[u64], texts: &[&str], out: &mut Vec<u32>) {
        let mut slots = [0u64; BATCH];
        for (slot, &hash) in slots.iter_mut().zip(hashes) {
            *slot = self.index.first_slot(hash);
        }
        let mut ids = [u32::MAX; BATCH];
        for ((id, &slot), &hash) in ids.iter_mut().zip(&slots).zip(hashes) {
            if self.may_hold(hash) {
                *id = self.index.candidates_from(hash, slot).unwrap_or(u32::MAX);
            }
        }
        let mut spans = [None; BATCH];
        for (span, &id) in spans.iter_mut().zip(&ids) {
            *span = self.messages.span(id);
        }
        // Each candidate's first byte: its text's first line loaded for the comparison.
        let mut firsts = [None; BATCH];
        for (first, span) in firsts.iter_mut().zip(spans) {
            *first = span.and_then(|s| self.messages.first_byte(s));
        }
        for ((((&id, span), first), &hash), &text) in
            ids.iter().zip(spans).zip(firsts).zip(hashes).zip(texts)
        {
            out.push(match span {
                None => u32::MAX,
                Some(s)
                    if first == text.as_bytes().first().copied()
                        && self.messages.text(s) == Some(text) =>
                {
                    id
                }
                // The first candidate was another text with the same tag.
                Some(_) => self.find(hash, text).unwrap_or(u32::MAX),
            });
        }
    }

    /// The id of `text`, adding it when it is new.
    pub(super) fn intern(&mut self, text: &str) -> u32 {
        let hash = self.hasher.hash(text);
        self.intern_hashed(text, hash).0
    }

    /// The id of `text`, whose hash is `hash`, and whether it was added (it is new).
    pub(super) fn intern_hashed(&mut self, text: &str, hash: u64) -> (u32, bool) {
        self.hold_when_full();
        if let Some(id) = self.find(hash, text) {
            return (id, false);
        }
        (self.add_new(text, hash), true)
    }

    /// The ids of a part's messages (`hashes` the hashes of the first ones), each added when
    /// new: the same ids as interning them one by one, in order.
    ///
    /// A part's messages below [`SHARED_MAX`] are distinct (its own table gave them), so a
    /// message added cannot be one looked up after it: [`BATCH`] at a time are looked up
    /// together ([`Self::find_batch`]), then the ones not found added in order. In a log of
    /// many distinct messages the join, which is serial, spent most of its time waiting on
    /// these look-ups one after another.
    pub(super) fn intern_part(&mut self, messages: &Messages, hashes: &[u64]) -> Vec<u32> {
        let n = messages.len();
        let distinct = n.min(SHARED_MAX);
        let mut ids = Vec::with_capacity(n);
        let mut texts = [""; BATCH];
        let mut batch_hashes = [0u64; BATCH];
        for start in (0..distinct).step_by(BATCH) {
            let k = BATCH.min(distinct - start);
            for j in 0..k {
                let text = messages.get(start + j).unwrap_or_default();
                texts[j] = text;
                batch_hashes[j] = self.hasher.hash_kept(hashes, start + j, text);
            }
            self.hold_when_full();
            self.find_batch(&batch_hashes[..k], &texts[..k], &mut ids);
            // The texts not found, added in order while their slots are still cached.
            for j in 0..k {
                if ids[start + j] == u32::MAX {
                    ids[start + j] = self.add_new(texts[j], batch_hashes[j]);
                }
            }
        }
        ids.extend((distinct..n).map(|id| self.intern(messages.get(id).unwrap_or_default())));
        ids
    }

    /// Adds `text` (whose hash is `hash`), known not to be in the index, and gives its id.
    /// (The filter of a full index is built before the next look-up, by its caller.)
    pub(super) fn add_new(&mut self, text: &str, hash: u64) -> u32 {
        let id = u32::try_from(self.messages.len()).unwrap_or(u32::MAX);
        self.messages.push(text);
        if self.messages.len() <= SHARED_MAX {
            self.index.insert(hash, id);
        }
        id
    }
}
