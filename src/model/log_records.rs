//! A CVO log's records, held compactly: a year of steady reconcile passes is tens of millions
//! of klog lines, almost all of them the same few hundred manifest messages again. Each
//! distinct message is stored once ([`LogRecords::messages`]); each record is a few
//! delta-coded bytes (level, message id, line, offset, length and time, each against the
//! record before), about 10 bytes where a plain struct took 88. Records are read in file order
//! through [`LogRecords::iter`], which decodes them as [`LogRecord`] views.
//!
//! [`RecordsBuilder`] writes them: the last record stays open (continuation lines still grow
//! its message and length) until the next one is pushed or the builder is finished.

use crate::vocab::time::{PartialTime, Time};
use index::Index;

mod index;

/// One klog record of a CVO log (a header line plus its continuation lines), as read back.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogRecord<'a> {
    /// UTC time, resolved after ingestion (`None` while only a year-less stamp is known, and
    /// when it could not be resolved).
    pub time: Option<Time>,
    /// `I`, `W`, `E` or `F`.
    pub level: char,
    /// The message text; continuation lines are joined with `\n`.
    pub message: &'a str,
    /// The message's index in [`LogRecords::messages`]: records with the same id have the
    /// same text (below [`LogRecords::shared`], one id per distinct text).
    pub message_id: u32,
    /// 1-based line number of the header line.
    pub line: u32,
    /// Byte offset of the header line in the file.
    pub offset: u64,
    /// Byte length of the record (header plus continuations).
    pub len: u32,
}

/// When a record happened, as stored: absolute, or a klog stamp without a year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordTime {
    Absolute(Time),
    Partial(PartialTime),
}

/// A record's time as it is stored: nanoseconds since the Unix epoch, or for a klog stamp
/// without a year its month, day and nanoseconds since midnight. A parser that reads the
/// time's digits itself hands it over in this form, and no calendar type is built per line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeCode {
    code: i128,
    partial: bool,
}

impl TimeCode {
    /// An absolute time `nanos` nanoseconds after the Unix epoch (negative before it).
    pub fn unix_nanos(nanos: i128) -> Self {
        TimeCode {
            code: nanos,
            partial: false,
        }
    }

    /// The code of the absolute time `t`.
    pub fn absolute(t: Time) -> Self {
        RecordTime::Absolute(t).into()
    }

    /// The absolute time, `None` for a partial stamp.
    pub fn time(self) -> Option<Time> {
        match self.decode(&mut None) {
            RecordTime::Absolute(t) => Some(t),
            RecordTime::Partial(_) => None,
        }
    }

    /// The time back as a [`RecordTime`] (`days` holds the date of the last one decoded).
    fn decode(self, days: &mut DayCache) -> RecordTime {
        decode_time(self.code, self.partial, days)
    }
}

impl From<RecordTime> for TimeCode {
    fn from(t: RecordTime) -> Self {
        TimeCode {
            code: time_code(&t),
            partial: matches!(t, RecordTime::Partial(_)),
        }
    }
}

/// The delta-coded records of one log and their distinct messages.
#[derive(Debug, Clone, Default)]
pub struct LogRecords {
    segments: Vec<Segment>,
    messages: Messages,
    count: usize,
    /// Records whose time is only a year-less stamp.
    partial: usize,
}

/// Records coded one after another from a fresh start (a block parsed on its own), with how
/// the message ids coded in it map to the log's.
#[derive(Debug, Clone, Default)]
struct Segment {
    data: Vec<u8>,
    count: usize,
    /// The log's message id of each id coded here (`None`: the same ids).
    remap: Option<Vec<u32>>,
    /// The earliest and latest absolute time coded here ([`time_code`]s), so a log's span
    /// is known without decoding its records.
    span: Option<(i128, i128)>,
    /// The lines before the first record's line as coded (a block numbers its lines from its
    /// own start; the join says where it starts).
    line_base: u32,
}

/// Messages past this many are stored once per record instead of being looked up (a log of
/// all-distinct messages must not grow a table as large as itself). 256 Ki: the index then
/// takes about 4 MB, and the generated 4 GB dump's log (422 k distinct messages in 2.5 M
/// records) stores far fewer texts twice than with 128 Ki (peak 310-330 -> 252-258 MB, for
/// about 10 % more time on that log, whose lookups miss a larger index).
const SHARED_MAX: usize = 1 << 18;

/// One record in full, while it is written or re-coded.
#[derive(Debug, Clone, Copy)]
struct Raw {
    time: TimeCode,
    level: u8,
    /// The message's id.
    message: u32,
    line: u32,
    offset: u64,
    len: u32,
}

/// What each record is coded against: the record before it, and which message followed
/// each message the last time (a reconcile pass logs its manifests in the same order as the
/// pass before, so the next message is mostly the one predicted).
#[derive(Debug, Clone)]
struct Prev {
    line: u32,
    end: u64,
    time: i128,
    /// The previous record's message id (`u32::MAX` before the first record).
    id: u32,
    /// The previous record's length minus its message's: the header's width, mostly the
    /// same from one record to the next.
    overhead: i64,
    /// For each id below [`SHARED_MAX`], the id of the record that followed it last.
    next: Vec<u32>,
}

impl Default for Prev {
    fn default() -> Self {
        Prev {
            line: 0,
            end: 0,
            time: 0,
            id: u32::MAX,
            overhead: 0,
            next: Vec::new(),
        }
    }
}

impl Prev {
    fn predicted_id(&self) -> Option<u32> {
        self.next
            .get(self.id as usize)
            .copied()
            .filter(|&n| n != u32::MAX)
    }

    fn advance(&mut self, r: &Raw, id: u32, time: i128, msg_len: usize) {
        let prev = self.id as usize;
        if prev < SHARED_MAX {
            if self.next.len() <= prev {
                self.next.resize(prev + 1, u32::MAX);
            }
            self.next[prev] = id;
        }
        self.line = r.line;
        self.end = r.offset.wrapping_add(u64::from(r.len));
        self.time = time;
        self.id = id;
        self.overhead = i64::from(r.len) - msg_len as i64;
    }
}

const LEVELS: [char; 4] = ['I', 'W', 'E', 'F'];
const PARTIAL: u8 = 1 << 2;
/// The message is the one predicted ([`Prev::predicted_id`]): no id follows.
const ID_SAME: u8 = 1 << 3;
/// The line is the one after the previous record's: no line delta follows.
const LINE_NEXT: u8 = 1 << 4;
/// The record starts where the previous one ended: no offset delta follows.
const CONTIGUOUS: u8 = 1 << 5;
/// The header is as wide as the previous record's: no length follows.
const LEN_SAME: u8 = 1 << 6;
const NANOS: i128 = 1_000_000_000;

fn level_code(c: char) -> u8 {
    LEVELS.iter().position(|l| *l == c).unwrap_or(0) as u8
}

/// The time as one number: nanoseconds since the epoch, or for a partial stamp its month,
/// day and nanoseconds since midnight (told apart by the record's flag).
fn time_code(t: &RecordTime) -> i128 {
    match t {
        RecordTime::Absolute(t) => {
            let d = t.inner();
            i128::from(d.timestamp()) * NANOS + i128::from(d.timestamp_subsec_nanos())
        }
        RecordTime::Partial(p) => {
            (i128::from(p.month) * 32 + i128::from(p.day)) * 100_000 * NANOS + i128::from(p.nanos)
        }
    }
}

/// The day (since the Unix epoch) of the last absolute time decoded, and its date: the
/// records of one day build their date once.
type DayCache = Option<(i64, chrono::NaiveDate)>;

fn decode_time(code: i128, partial: bool, days: &mut DayCache) -> RecordTime {
    if partial {
        let md = code / (100_000 * NANOS);
        RecordTime::Partial(PartialTime {
            month: (md / 32) as u8,
            day: (md % 32) as u8,
            nanos: (code % (100_000 * NANOS)) as u64,
        })
    } else {
        // A time before 2262 fits in i64 nanoseconds: divided as i64, which the compiler does
        // by multiplying, not by a 128-bit division call (later times take the i128 way).
        let (secs, nanos) = match i64::try_from(code) {
            Ok(c) => (
                c.div_euclid(NANOS as i64),
                c.rem_euclid(NANOS as i64) as u32,
            ),
            Err(_) => (code.div_euclid(NANOS) as i64, code.rem_euclid(NANOS) as u32),
        };
        let (day, second) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
        if let Some((d, date)) = *days
            && d == day
            && let Some(time) =
                chrono::NaiveTime::from_num_seconds_from_midnight_opt(second as u32, nanos)
        {
            // What `from_unix` builds: that day's date and the time within it.
            return RecordTime::Absolute(Time::from(date.and_time(time).and_utc()));
        }
        let t = Time::from_unix(secs, nanos);
        if let Some(t) = t {
            *days = Some((day, t.inner().date_naive()));
        }
        RecordTime::Absolute(t.unwrap_or(Time::MIN_UTC))
    }
}

/// Appends `v` as a varint: 7 bits a byte, lowest first, the high bit set on all but the
/// last. In 64-bit arithmetic once it fits (every value but a far-off time fits from the
/// start).
fn put(out: &mut Vec<u8>, v: u128) {
    let mut v = v;
    while v > u128::from(u64::MAX) {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    let mut v = v as u64;
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Writes `v` as [`put`] does into `out` (room for ten bytes), giving the bytes written.
fn put_u64(out: &mut [u8], v: u64) -> usize {
    let mut v = v;
    let mut n = 0;
    while v >= 0x80 {
        out[n] = (v as u8) | 0x80;
        v >>= 7;
        n += 1;
    }
    out[n] = v as u8;
    n + 1
}

/// Reads a varint [`put`] wrote at `at`, and moves past it: its first nine bytes (63 bits)
/// in 64-bit arithmetic.
fn get(data: &[u8], at: &mut usize) -> u128 {
    let mut low = 0u64;
    let mut shift = 0;
    while shift < 63 {
        let Some(&b) = data.get(*at) else {
            return u128::from(low);
        };
        *at += 1;
        low |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return u128::from(low);
        }
        shift += 7;
    }
    let mut v = u128::from(low);
    while let Some(&b) = data.get(*at) {
        *at += 1;
        if shift < 128 {
            v |= u128::from(b & 0x7f) << shift;
        }
        if b & 0x80 == 0 {
            break;
        }
        shift += 7;
    }
    v
}

fn zigzag(v: i128) -> u128 {
    ((v << 1) ^ (v >> 127)) as u128
}

fn unzigzag(v: u128) -> i128 {
    ((v >> 1) as i128) ^ -((v & 1) as i128)
}

/// The distinct messages of a log, stored end to end in chunks: a message costs its text and
/// 12 bytes, where a shared string of its own took about 50 more (and an allocation). A chunk
/// is never grown once allocated (a large buffer doubling would copy itself and leave the old
/// copy behind in the allocator); chunks double from 4 KiB up to `CHUNK_MAX`, and a longer
/// message has a chunk of its own.
#[derive(Debug, Clone, Default)]
pub struct Messages {
    chunks: Vec<String>,
    spans: Vec<Span>,
}

/// Where a message is: its chunk, and its bytes in it.
#[derive(Debug, Clone, Copy)]
struct Span {
    chunk: u32,
    start: u32,
    len: u32,
}

/// The largest chunk [`Messages`] allocates for messages that fit in one.
const CHUNK_MAX: usize = 1 << 20;

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
    fn span(&self, id: u32) -> Option<Span> {
        self.spans.get(id as usize).copied()
    }

    /// The first byte of the text at `s` (`None` for an empty one).
    fn first_byte(&self, s: Span) -> Option<u8> {
        if s.len == 0 {
            return None;
        }
        let c = self.chunks.get(s.chunk as usize)?;
        c.as_bytes().get(s.start as usize).copied()
    }

    /// The text at `s`.
    fn text(&self, s: Span) -> Option<&str> {
        let start = s.start as usize;
        self.chunks
            .get(s.chunk as usize)?
            .get(start..start + s.len as usize)
    }

    /// The messages, by id.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.get(i).unwrap_or_default())
    }

    /// The length of message `id` (0 for an id it does not hold).
    fn len_of(&self, id: u32) -> usize {
        self.spans.get(id as usize).map_or(0, |s| s.len as usize)
    }

    /// Adds `text` as the next message (a text over 4 GiB is cut at a character boundary).
    fn push(&mut self, text: &str) {
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

    fn shrink_to_fit(&mut self) {
        if let Some(last) = self.chunks.last_mut() {
            last.shrink_to_fit();
        }
        self.chunks.shrink_to_fit();
        self.spans.shrink_to_fit();
    }
}

/// Messages and the ids they were given: a text seen before gets its id again while the
/// table is below [`SHARED_MAX`]; past it, each new message is stored with an id of its own.
#[derive(Debug, Default)]
struct MessageTable {
    messages: Messages,
    index: Index,
    hasher: TextHasher,
    /// Once the index is full (it takes no more texts), one bit per [`Self::held_bit`] of the
    /// hashes it holds: a text whose bit is clear is not in it, and its lookup skips the
    /// index (whose probes miss the cache). A log of mostly distinct messages looks up every
    /// new one past [`SHARED_MAX`]; nearly all are new. Empty until then.
    held: Vec<u64>,
}

/// The hasher of message texts: one random seed for the whole process, so a hash computed
/// while a block is parsed (in its own table) is the one the log's table would compute.
#[derive(Debug, Clone)]
struct TextHasher(foldhash::fast::RandomState);

impl Default for TextHasher {
    fn default() -> Self {
        static SHARED: std::sync::OnceLock<foldhash::fast::RandomState> =
            std::sync::OnceLock::new();
        TextHasher(SHARED.get_or_init(Default::default).clone())
    }
}

impl TextHasher {
    fn hash(&self, text: &str) -> u64 {
        std::hash::BuildHasher::hash_one(&self.0, text)
    }

    /// The hash of message `id`, whose text is `text`: `hashes[id]` when it was kept.
    fn hash_kept(&self, hashes: &[u64], id: usize, text: &str) -> u64 {
        match hashes.get(id) {
            Some(&hash) => hash,
            None => self.hash(text),
        }
    }
}

/// How many bits [`MessageTable::held`] has (256 KiB: it stays in the cache, and a full
/// index sets about one bit in eight).
const HELD_BITS: usize = 1 << 21;

/// How many look-ups [`MessageTable::find_batch`] has under way at once.
const BATCH: usize = 32;

impl MessageTable {
    /// The table of messages already numbered (id = index), `hashes` the hashes of the first
    /// ones (the others are computed).
    fn numbered(messages: Messages, hashes: &[u64]) -> Self {
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
    fn held_bit(hash: u64) -> (usize, u64) {
        let bit = ((hash >> 32).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - 21)) as usize;
        (bit / 64, 1 << (bit % 64))
    }

    /// Whether the index may hold `hash` (always, until it is full).
    fn may_hold(&self, hash: u64) -> bool {
        if self.held.is_empty() {
            return true;
        }
        let (word, bit) = Self::held_bit(hash);
        self.held[word] & bit != 0
    }

    /// Builds [`Self::held`] when the index has just become full.
    #[inline]
    fn hold_when_full(&mut self) {
        if self.held.is_empty() && self.messages.len() >= SHARED_MAX {
            self.hold();
        }
    }

    #[cold]
    fn hold(&mut self) {
        self.held = vec![0; HELD_BITS / 64];
        for tag in self.index.tags() {
            let (word, bit) = Self::held_bit(tag);
            self.held[word] |= bit;
        }
    }

    /// The id `text` (whose hash is `hash`) has in the index.
    fn find(&self, hash: u64, text: &str) -> Option<u32> {
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
    fn find_batch(&self, hashes: &[u64], texts: &[&str], out: &mut Vec<u32>) {
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
    fn intern(&mut self, text: &str) -> u32 {
        let hash = self.hasher.hash(text);
        self.intern_hashed(text, hash).0
    }

    /// The id of `text`, whose hash is `hash`, and whether it was added (it is new).
    fn intern_hashed(&mut self, text: &str, hash: u64) -> (u32, bool) {
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
    fn intern_part(&mut self, messages: &Messages, hashes: &[u64]) -> Vec<u32> {
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
    fn add_new(&mut self, text: &str, hash: u64) -> u32 {
        let id = u32::try_from(self.messages.len()).unwrap_or(u32::MAX);
        self.messages.push(text);
        if self.messages.len() <= SHARED_MAX {
            self.index.insert(hash, id);
        }
        id
    }
}

impl LogRecords {
    /// How many records.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The distinct messages, by id.
    pub fn messages(&self) -> &Messages {
        &self.messages
    }

    /// Message ids below this each name a distinct text (any number of records share one):
    /// what depends on the text alone can be worked out once per id. From here on (a log of
    /// very many distinct messages) a text may have more than one id.
    pub fn shared(&self) -> usize {
        self.messages.len().min(SHARED_MAX)
    }

    /// Whether some record's time is still a year-less stamp.
    pub fn has_partial(&self) -> bool {
        self.partial > 0
    }

    /// The bytes the coded records take (not counting the messages).
    pub fn coded_bytes(&self) -> usize {
        self.segments.iter().map(|s| s.data.len()).sum()
    }

    /// The records in file order, one iterator per segment (a segment decodes on its own, so
    /// segments can be decoded on several threads).
    pub fn segments(&self) -> impl ExactSizeIterator<Item = Iter<'_>> + '_ {
        self.segments.iter().enumerate().map(move |(i, seg)| Iter {
            records: self,
            seg: i,
            end: i + 1,
            reader: SegReader::new(seg, &self.messages),
        })
    }

    /// The records in file order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            records: self,
            seg: 0,
            end: self.segments.len(),
            reader: self
                .segments
                .first()
                .map(|s| SegReader::new(s, &self.messages))
                .unwrap_or_default(),
        }
    }

    /// The records whose message id is marked in `marked` (indexed by id, as
    /// [`Self::messages`] numbers them), in file order: the others are passed over without
    /// their time being decoded or their record built.
    pub fn matching<'a>(&'a self, marked: &'a [bool]) -> Matching<'a> {
        Matching {
            all: self.iter(),
            marked,
        }
    }

    /// How many records have a message `pred` holds for: each distinct message is tested
    /// once, and the records are counted by id (segments on the pool, no time decoded); a
    /// log none of whose messages match is not read at all.
    pub fn count_where(&self, pred: impl Fn(&str) -> bool) -> usize {
        use rayon::prelude::*;
        let hits: Vec<bool> = self.messages.iter().map(pred).collect();
        if !hits.contains(&true) {
            return 0;
        }
        self.segments
            .par_iter()
            .map(|seg| {
                let mut r = SegReader::new(seg, &self.messages);
                let mut n = 0;
                while let Some(raw) = r.next() {
                    n += usize::from(hits.get(r.global(raw.message) as usize) == Some(&true));
                }
                n
            })
            .sum()
    }

    /// The earliest and latest record times (records without a time left out), known
    /// without decoding the records.
    pub fn span(&self) -> Option<(Time, Time)> {
        let (lo, hi) = self
            .segments
            .iter()
            .fold(None, |acc, s| widen(acc, s.span))?;
        let time = |code| TimeCode::unix_nanos(code).time().unwrap_or(Time::MIN_UTC);
        Some((time(lo), time(hi)))
    }

    /// Resolves each year-less stamp with `resolve` (records it cannot place keep no time).
    pub fn resolve(&mut self, resolve: impl Fn(PartialTime) -> Option<Time>) {
        if self.partial == 0 {
            return;
        }
        let mut partial = 0;
        for seg in &mut self.segments {
            let mut w = Writer::default();
            w.prev.line = seg.line_base;
            w.data.reserve(seg.data.len());
            let mut r = SegReader::new(seg, &self.messages);
            while let Some(mut raw) = r.next() {
                if raw.time.partial
                    && let RecordTime::Partial(p) = raw.time.decode(&mut None)
                {
                    match resolve(p) {
                        Some(t) => raw.time = RecordTime::Absolute(t).into(),
                        None => partial += 1,
                    }
                }
                let msg_len = self.messages.len_of(r.global(raw.message));
                w.code(&raw, msg_len);
            }
            w.data.shrink_to_fit();
            seg.data = w.data;
            seg.span = w.span;
        }
        self.partial = partial;
    }
}

impl<'a> IntoIterator for &'a LogRecords {
    type Item = LogRecord<'a>;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// Decodes one segment's records, with the ids coded in it.
#[derive(Debug, Clone)]
struct SegReader<'a> {
    data: &'a [u8],
    at: usize,
    prev: Prev,
    left: usize,
    messages: &'a Messages,
    remap: Option<&'a [u32]>,
    days: DayCache,
}

/// The messages of a log that has none.
static NO_MESSAGES: Messages = Messages {
    chunks: Vec::new(),
    spans: Vec::new(),
};

impl Default for SegReader<'_> {
    fn default() -> Self {
        SegReader {
            data: &[],
            at: 0,
            prev: Prev::default(),
            left: 0,
            messages: &NO_MESSAGES,
            remap: None,
            days: None,
        }
    }
}

impl<'a> SegReader<'a> {
    fn new(seg: &'a Segment, messages: &'a Messages) -> Self {
        SegReader {
            data: &seg.data,
            at: 0,
            prev: Prev {
                line: seg.line_base,
                ..Prev::default()
            },
            left: seg.count,
            messages,
            remap: seg.remap.as_deref(),
            days: None,
        }
    }

    /// The log's id of an id coded here.
    fn global(&self, local: u32) -> u32 {
        match self.remap {
            Some(m) => m.get(local as usize).copied().unwrap_or(u32::MAX),
            None => local,
        }
    }

    #[inline(always)]
    fn next(&mut self) -> Option<Raw> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let data = self.data;
        let flags = *data.get(self.at)?;
        self.at += 1;
        let id = match self.prev.predicted_id() {
            Some(id) if flags & ID_SAME != 0 => id,
            _ => get(data, &mut self.at) as u32,
        };
        let line = if flags & LINE_NEXT != 0 {
            self.prev.line.wrapping_add(1)
        } else {
            self.prev.line.wrapping_add(get(data, &mut self.at) as u32)
        };
        let offset = if flags & CONTIGUOUS != 0 {
            self.prev.end
        } else {
            self.prev.end.wrapping_add(get(data, &mut self.at) as u64)
        };
        let msg_len = self.messages.len_of(self.global(id));
        let len = if flags & LEN_SAME != 0 {
            (msg_len as i64 + self.prev.overhead) as u32
        } else {
            get(data, &mut self.at) as u32
        };
        let time = self
            .prev
            .time
            .wrapping_add(unzigzag(get(data, &mut self.at)));
        let raw = Raw {
            time: TimeCode {
                code: time,
                partial: flags & PARTIAL != 0,
            },
            level: flags & 3,
            message: id,
            line,
            offset,
            len,
        };
        self.prev.advance(&raw, id, time, msg_len);
        Some(raw)
    }
}

/// Decodes [`LogRecords`] in file order.
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    records: &'a LogRecords,
    seg: usize,
    /// The segment the iterator stops before.
    end: usize,
    reader: SegReader<'a>,
}

/// A record as coded, read without its time decoded or its message looked up: enough to
/// tell its message and order it by time ([`Iter::next_coded`]); [`Iter::full`] reads it in
/// full.
#[derive(Debug, Clone, Copy)]
pub struct Coded {
    raw: Raw,
    /// The log's id of its message.
    id: u32,
}

impl Coded {
    /// The message's index in [`LogRecords::messages`].
    pub fn message_id(&self) -> u32 {
        self.id
    }

    /// The time as nanoseconds since the Unix epoch (ordered as the times are), `None` while
    /// only a year-less stamp is known (the record's [`LogRecord::time`] is then `None`).
    pub fn nanos(&self) -> Option<i128> {
        (!self.raw.time.partial).then_some(self.raw.time.code)
    }
}

impl<'a> Iter<'a> {
    /// The next record as coded (its time not decoded, its message not looked up).
    #[inline]
    pub fn next_coded(&mut self) -> Option<Coded> {
        let records = self.records;
        let raw = loop {
            if let Some(raw) = self.reader.next() {
                break raw;
            }
            if self.seg + 1 >= self.end {
                return None;
            }
            self.seg += 1;
            let seg = records.segments.get(self.seg)?;
            self.reader = SegReader::new(seg, &records.messages);
        };
        let id = self.reader.global(raw.message);
        Some(Coded { raw, id })
    }

    /// A record [`Iter::next_coded`] gave (by this iterator or another of the same log), read
    /// in full: what [`Iterator::next`] would have given for it.
    pub fn full(&mut self, c: Coded) -> LogRecord<'a> {
        LogRecord {
            time: match c.raw.time.decode(&mut self.reader.days) {
                RecordTime::Absolute(t) => Some(t),
                RecordTime::Partial(_) => None,
            },
            level: LEVELS[usize::from(c.raw.level & 3)],
            message: self.records.messages.get(c.id as usize).unwrap_or_default(),
            message_id: c.id,
            line: c.raw.line,
            offset: c.raw.offset,
            len: c.raw.len,
        }
    }
}

impl<'a> Iterator for Iter<'a> {
    type Item = LogRecord<'a>;

    fn next(&mut self) -> Option<LogRecord<'a>> {
        let c = self.next_coded()?;
        Some(self.full(c))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.reader.left
            + self
                .records
                .segments
                .iter()
                .take(self.end)
                .skip(self.seg + 1)
                .map(|s| s.count)
                .sum::<usize>();
        (left, Some(left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// The records of a log whose message ids are marked, in file order (see
/// [`LogRecords::matching`]).
#[derive(Debug, Clone)]
pub struct Matching<'a> {
    all: Iter<'a>,
    marked: &'a [bool],
}

impl<'a> Iterator for Matching<'a> {
    type Item = LogRecord<'a>;

    fn next(&mut self) -> Option<LogRecord<'a>> {
        loop {
            let c = self.all.next_coded()?;
            if self.marked.get(c.id as usize) == Some(&true) {
                return Some(self.all.full(c));
            }
        }
    }
}

/// The span holding both `a` and `b`.
fn widen(a: Option<(i128, i128)>, b: Option<(i128, i128)>) -> Option<(i128, i128)> {
    match (a, b) {
        (Some((lo, hi)), Some((l, h))) => Some((lo.min(l), hi.max(h))),
        (x, None) | (None, x) => x,
    }
}

/// Codes records one after another.
#[derive(Debug, Default)]
struct Writer {
    data: Vec<u8>,
    prev: Prev,
    /// The earliest and latest absolute time coded.
    span: Option<(i128, i128)>,
}

impl Writer {
    /// Codes `r`, whose message is `msg_len` bytes long.
    fn code(&mut self, r: &Raw, msg_len: usize) {
        let id = r.message;
        let p = &self.prev;
        let id_same = p.predicted_id() == Some(id);
        let line_next = r.line == p.line.wrapping_add(1);
        let contiguous = r.offset == p.end;
        let len_same = i64::from(r.len) == msg_len as i64 + p.overhead;
        let mut flags = r.level & 3;
        for (on, bit) in [
            (r.time.partial, PARTIAL),
            (id_same, ID_SAME),
            (line_next, LINE_NEXT),
            (contiguous, CONTIGUOUS),
            (len_same, LEN_SAME),
        ] {
            if on {
                flags |= bit;
            }
        }
        // The record's bytes gathered on the stack and appended at once (one capacity check,
        // not one per byte); the same bytes [`put`] writes.
        let mut buf = [0u8; 1 + 5 * 10];
        buf[0] = flags;
        let mut n = 1;
        let mut add = |v: u64| n += put_u64(&mut buf[n..], v);
        if !id_same {
            add(u64::from(id));
        }
        if !line_next {
            add(u64::from(r.line.wrapping_sub(p.line)));
        }
        if !contiguous {
            add(r.offset.wrapping_sub(p.end));
        }
        if !len_same {
            add(u64::from(r.len));
        }
        let t = r.time.code;
        let delta = zigzag(t.wrapping_sub(p.time));
        match u64::try_from(delta) {
            Ok(d) => {
                add(d);
                self.data.extend_from_slice(&buf[..n]);
            }
            Err(_) => {
                self.data.extend_from_slice(&buf[..n]);
                put(&mut self.data, delta);
            }
        }
        if !r.time.partial {
            self.span = widen(self.span, Some((t, t)));
        }
        self.prev.advance(r, id, t, msg_len);
    }
}

/// Writes [`LogRecords`]: records are pushed in file order; the last one stays open for its
/// continuation lines until the next push or [`RecordsBuilder::finish`].
#[derive(Debug, Default)]
pub struct RecordsBuilder {
    w: Writer,
    table: MessageTable,
    count: usize,
    partial: usize,
    open: Option<Raw>,
    /// The open record's message while continuation lines grow it.
    open_text: Option<String>,
    first: Option<u64>,
    /// The hash of each message below [`SHARED_MAX`], by id: the join looks the messages up
    /// in the log's table without hashing them again (see [`Appender::push_built`]).
    hashes: Vec<u64>,
}

impl RecordsBuilder {
    /// Adds a record (closing the one before).
    pub fn push(
        &mut self,
        time: impl Into<TimeCode>,
        level: char,
        message: &str,
        line: u32,
        offset: u64,
        len: u32,
    ) {
        self.close();
        // A reconcile pass logs what the pass before logged, in the same order: the message
        // predicted (the one that followed the previous message last time) is tried first,
        // with one comparison instead of a hash and a probe. Below SHARED_MAX an id is the
        // only one with its text (this table is built by `intern` alone), so the id is the
        // one `intern` would give.
        let id = match self.w.prev.predicted_id() {
            Some(p)
                if (p as usize) < SHARED_MAX
                    && self.table.messages.get(p as usize) == Some(message) =>
            {
                p
            }
            _ => self.intern(message),
        };
        self.open_record(time.into(), level, id, line, offset, len);
    }

    /// Adds a record whose message is the text of `id`, a shared id (the only one with its
    /// text) this builder gave ([`RecordsBuilder::predicted`]): what
    /// [`RecordsBuilder::push`] with that text adds (it finds this id), without comparing or
    /// looking the text up.
    pub fn push_known(
        &mut self,
        time: impl Into<TimeCode>,
        level: char,
        id: u32,
        line: u32,
        offset: u64,
        len: u32,
    ) {
        debug_assert!((id as usize) < SHARED_MAX.min(self.table.messages.len()));
        self.close();
        self.open_record(time.into(), level, id, line, offset, len);
    }

    /// The message id [`RecordsBuilder::push`] tries first for the next record (the one that
    /// followed the open record's message the last time), when it is a shared id (the only
    /// one with its text) and the open record has no continuation lines. A hint: the caller
    /// compares its text.
    pub fn predicted(&self) -> Option<u32> {
        let prev = &self.w.prev;
        // What the previous record will be once the open one is closed.
        let before = match &self.open {
            None => prev.id,
            Some(_) if self.open_text.is_some() => return None,
            // Closing it makes it follow itself.
            Some(o) if o.message == prev.id => {
                return ((o.message as usize) < SHARED_MAX).then_some(o.message);
            }
            Some(o) => o.message,
        };
        prev.next
            .get(before as usize)
            .copied()
            .filter(|&n| (n as usize) < SHARED_MAX)
    }

    /// How many distinct messages this builder holds (a message added next gets this id).
    pub fn message_count(&self) -> usize {
        self.table.messages.len()
    }

    /// The text of message `id` of this builder.
    pub fn message(&self, id: u32) -> Option<&str> {
        self.table.messages.get(id as usize)
    }

    /// The open record's message id (before any continuation line changes it).
    pub fn open_id(&self) -> Option<u32> {
        self.open.as_ref().map(|o| o.message)
    }

    /// Opens the record pushed, the one before closed.
    fn open_record(
        &mut self,
        time: TimeCode,
        level: char,
        id: u32,
        line: u32,
        offset: u64,
        len: u32,
    ) {
        self.first.get_or_insert(offset);
        if time.partial {
            self.partial += 1;
        }
        self.count += 1;
        self.open = Some(Raw {
            time,
            level: level_code(level),
            message: id,
            line,
            offset,
            len,
        });
    }

    /// The id of `text` in this part's table, keeping the hash of a new one.
    fn intern(&mut self, text: &str) -> u32 {
        let hash = self.table.hasher.hash(text);
        let (id, new) = self.table.intern_hashed(text, hash);
        if new && self.hashes.len() == id as usize && self.hashes.len() < SHARED_MAX {
            self.hashes.push(hash);
        }
        id
    }

    /// Codes the open record.
    ///
    /// It is coded where it lies: a copy taken out of its `Option` is written in pieces
    /// that do not line up with the fields read back, and each read then waits.
    fn close(&mut self) {
        if let Some(t) = self.open_text.take() {
            let id = self.intern(&t);
            if let Some(r) = self.open.as_mut() {
                r.message = id;
            }
        }
        if let Some(r) = &self.open {
            self.w.code(r, self.table.messages.len_of(r.message));
            self.open = None;
        }
    }

    /// Whether a record is open (continuation lines have one to join).
    pub fn has_open(&self) -> bool {
        self.open.is_some()
    }

    /// Joins a continuation line to the open record's message, while the message is shorter
    /// than `max` bytes.
    pub fn continue_message(&mut self, rest: &str, max: usize) {
        let Some(open) = self.open.as_ref() else {
            return;
        };
        if rest.is_empty() {
            return;
        }
        let messages = &self.table.messages;
        let text = self.open_text.get_or_insert_with(|| {
            messages
                .get(open.message as usize)
                .map_or(String::new(), |m| m.to_string())
        });
        if text.len() < max {
            text.push('\n');
            text.push_str(rest);
        }
    }

    /// Makes the open record run to `end` (its continuation lines, or the next record).
    pub fn extend_open_to(&mut self, end: u64) {
        if let Some(open) = self.open.as_mut() {
            open.len = end.saturating_sub(open.offset).min(u64::from(u32::MAX)) as u32;
        }
    }

    /// The first record's offset.
    pub fn first_offset(&self) -> Option<u64> {
        self.first
    }

    /// The records, the open one closed.
    pub fn finish(mut self) -> LogRecords {
        self.close();
        self.w.data.shrink_to_fit();
        let mut messages = self.table.messages;
        messages.shrink_to_fit();
        let segments = if self.count == 0 {
            Vec::new()
        } else {
            vec![Segment {
                data: self.w.data,
                count: self.count,
                remap: None,
                span: self.w.span,
                line_base: 0,
            }]
        };
        LogRecords {
            segments,
            messages,
            count: self.count,
            partial: self.partial,
        }
    }
}

/// Joins the records of a log's parts, read on their own (blocks parsed in parallel), in
/// order into one: each part's coded bytes are kept as they are, its messages looked up in
/// the log's table once each.
#[derive(Debug, Default)]
pub struct Appender {
    segments: Vec<Segment>,
    table: MessageTable,
    count: usize,
    partial: usize,
}

impl Appender {
    /// Appends the next part, whose lines are numbered from `lines_before` + 1 on.
    pub fn push(&mut self, later: LogRecords, lines_before: u32) {
        self.push_hashed(later, &[], lines_before);
    }

    /// Appends the records `part` built, as [`Self::push`] does with them finished, using the
    /// hashes it kept of its messages.
    pub fn push_built(&mut self, mut part: RecordsBuilder, lines_before: u32) {
        let hashes = std::mem::take(&mut part.hashes);
        self.push_hashed(part.finish(), &hashes, lines_before);
    }

    /// Appends `later`, `hashes` the hashes of its first messages.
    fn push_hashed(&mut self, mut later: LogRecords, hashes: &[u64], lines_before: u32) {
        if later.count == 0 {
            return;
        }
        for seg in &mut later.segments {
            seg.line_base = seg.line_base.wrapping_add(lines_before);
        }
        if self.segments.is_empty() {
            // The first part's ids are the log's.
            self.table = MessageTable::numbered(later.messages, hashes);
            self.segments = later.segments;
        } else {
            let table = self.table.intern_part(&later.messages, hashes);
            for seg in later.segments {
                let remap = match seg.remap {
                    None => table.clone(),
                    Some(r) => r
                        .iter()
                        .map(|&i| table.get(i as usize).copied().unwrap_or(u32::MAX))
                        .collect(),
                };
                self.segments.push(Segment {
                    remap: Some(remap),
                    ..seg
                });
            }
        }
        self.count += later.count;
        self.partial += later.partial;
    }

    /// The joined records.
    pub fn finish(self) -> LogRecords {
        let mut messages = self.table.messages;
        messages.shrink_to_fit();
        LogRecords {
            segments: self.segments,
            messages,
            count: self.count,
            partial: self.partial,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn abs(s: &str) -> RecordTime {
        RecordTime::Absolute(crate::vocab::time::parse_rfc3339(s).unwrap())
    }

    #[test]
    fn records_read_back_as_written() {
        let mut b = RecordsBuilder::default();
        b.push(
            abs("2021-08-03T09:31:43.209596123Z"),
            'I',
            "Running sync",
            1,
            0,
            40,
        );
        b.push(
            abs("2021-08-03T09:31:43.1Z"),
            'E',
            "Multiple errors",
            2,
            40,
            30,
        );
        b.continue_message("* etcd is degraded", 1 << 20);
        b.extend_open_to(120);
        let p = PartialTime::new(12, 31, 23, 59, 59, 500_000_000).unwrap();
        b.push(RecordTime::Partial(p), 'W', "Running sync", 9, 500, 12);
        b.push(
            abs("1969-12-31T23:59:59.5Z"),
            'F',
            "before the epoch",
            10,
            512,
            7,
        );
        let r = b.finish();
        assert_eq!(r.len(), 4);
        assert!(r.has_partial());
        let v: Vec<LogRecord<'_>> = r.iter().collect();
        assert_eq!(v[0].message, "Running sync");
        assert_eq!(v[0].message_id, v[2].message_id);
        assert_eq!(
            v[0].time.map(|t| crate::model::fmt_ms(&t)),
            Some(crate::model::fmt_ms(
                &crate::vocab::time::parse_rfc3339("2021-08-03T09:31:43.209596123Z").unwrap()
            ))
        );
        assert_eq!(
            (v[1].level, v[1].message, v[1].line, v[1].offset, v[1].len),
            ('E', "Multiple errors\n* etcd is degraded", 2, 40, 80)
        );
        assert_eq!(
            (v[2].time, v[2].level, v[2].line, v[2].offset),
            (None, 'W', 9, 500)
        );
        assert_eq!(
            v[3].time,
            crate::vocab::time::parse_rfc3339("1969-12-31T23:59:59.5Z")
        );
        let mut r = r;
        let yi = crate::model::YearInference::new(crate::vocab::time::parse_rfc3339(
            "2022-01-01T01:00:00Z",
        ));
        r.resolve(|p| yi.resolve(p));
        assert!(!r.has_partial());
        let t = r.iter().nth(2).and_then(|x| x.time).unwrap();
        assert_eq!(crate::model::fmt_k8s(&t), "2021-12-31T23:59:59Z");
    }

    /// The earliest and latest time, as a reading of every record finds them.
    fn span_by_reading(r: &LogRecords) -> Option<(Time, Time)> {
        let times: Vec<Time> = r.iter().filter_map(|x| x.time).collect();
        Some((*times.iter().min()?, *times.iter().max()?))
    }

    #[test]
    fn the_span_kept_while_coding_is_the_one_reading_finds() {
        // Out of order, a partial stamp that resolves outside the absolute times, and a time
        // before the epoch, over two appended parts.
        let part = |stamps: &[&str], partial: Option<PartialTime>| {
            let mut b = RecordsBuilder::default();
            for (i, s) in stamps.iter().enumerate() {
                b.push(abs(s), 'I', s, i as u32 + 1, i as u64 * 10, 10);
            }
            if let Some(p) = partial {
                b.push(RecordTime::Partial(p), 'W', "partial", 99, 990, 10);
            }
            b.finish()
        };
        let first = part(&["2021-08-03T09:31:43.5Z", "2021-08-03T09:31:40Z"], None);
        assert_eq!(first.span(), span_by_reading(&first));
        let only_partial = part(&[], PartialTime::new(1, 2, 3, 4, 5, 6));
        assert_eq!(
            (only_partial.span(), span_by_reading(&only_partial)),
            (None, None)
        );
        let mut all = Appender::default();
        all.push(first, 0);
        all.push(
            part(
                &["1969-12-31T23:59:59.5Z", "2021-08-03T09:31:41.000000001Z"],
                PartialTime::new(12, 31, 23, 59, 59, 0),
            ),
            0,
        );
        let mut r = all.finish();
        assert_eq!(r.span(), span_by_reading(&r));
        assert_eq!(
            r.span().map(|(lo, _)| crate::model::fmt_k8s(&lo)),
            Some("1969-12-31T23:59:59Z".to_string())
        );
        let yi = crate::model::YearInference::new(crate::vocab::time::parse_rfc3339(
            "2022-01-01T01:00:00Z",
        ));
        r.resolve(|p| yi.resolve(p));
        assert_eq!(r.span(), span_by_reading(&r));
        assert_eq!(
            r.span().map(|(_, hi)| crate::model::fmt_k8s(&hi)),
            Some("2021-12-31T23:59:59Z".to_string())
        );
    }

    #[test]
    fn appended_parts_share_one_message_table() {
        let part = |first: u32| {
            let mut b = RecordsBuilder::default();
            for i in 0..3 {
                let m = if i == 1 { "same" } else { "other" };
                let t = abs("2021-08-03T09:31:43Z");
                b.push(t, 'I', m, first + i, u64::from(first + i) * 10, 10);
            }
            b.finish()
        };
        let mut all = Appender::default();
        all.push(part(1), 0);
        all.push(LogRecords::default(), 3);
        // Numbered from its own start, joined after the 3 lines before it.
        all.push(part(1), 3);
        let mut r = all.finish();
        assert_eq!(r.len(), 6);
        assert_eq!(r.iter().len(), 6);
        assert_eq!(r.messages().len(), 2);
        let lines: Vec<u32> = r.iter().map(|x| x.line).collect();
        assert_eq!(lines, [1, 2, 3, 4, 5, 6]);
        let ids: Vec<u32> = r.iter().map(|x| x.message_id).collect();
        assert_eq!(ids[1], ids[4]);
        assert_eq!(r.iter().filter(|x| x.message == "same").count(), 2);
        r.resolve(|_| None);
        assert_eq!(r.iter().map(|x| x.line).collect::<Vec<_>>(), lines);
    }

    #[test]
    fn times_read_back_across_days_and_before_1970() {
        let times = [
            "1969-12-31T23:59:59.999999999Z",
            "1970-01-01T00:00:00Z",
            "1969-12-31T00:00:00.5Z",
            "2021-06-01T23:59:59.75Z",
            "2021-06-02T00:00:00Z",
            "2021-06-01T12:00:00Z",
            "2021-06-01T12:00:01.000000001Z",
            "2262-04-11T23:47:16.854775807Z",
            "2262-04-11T23:47:16.854775808Z",
            "9999-12-31T23:59:59.999999999Z",
        ];
        let mut b = RecordsBuilder::default();
        for (i, t) in times.iter().enumerate() {
            b.push(abs(t), 'I', "m", i as u32 + 1, i as u64 * 10, 10);
        }
        let got: Vec<Option<Time>> = b.finish().iter().map(|r| r.time).collect();
        let want: Vec<Option<Time>> = times
            .iter()
            .map(|t| crate::vocab::time::parse_rfc3339(t))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn past_the_shared_ids_a_text_of_the_full_index_gets_its_id_and_others_get_new_ones() {
        // Past SHARED_MAX the index takes no more texts and lookups go through its bit
        // filter first: a text it holds (some of them repeated often) still gets its id, a
        // new text or a repeat of one met past the limit gets an id of its own, as a plain
        // lookup in the full index gives.
        let mut table = MessageTable::default();
        let mut model: std::collections::HashMap<String, u32> = Default::default();
        let mut next = 0u32;
        let mut check = |table: &mut MessageTable, text: String| {
            let want = match model.get(&text) {
                Some(&id) => id,
                None => {
                    if (next as usize) < SHARED_MAX {
                        model.insert(text.clone(), next);
                    }
                    next += 1;
                    next - 1
                }
            };
            assert_eq!(table.intern(&text), want, "{text}");
        };
        for i in 0..SHARED_MAX as u32 + 50_000 {
            check(
                &mut table,
                format!("Running sync for configmap \"ns/cm-{i}\" ({i} of n)"),
            );
            if i % 7 == 0 {
                // A text of the full index, and (past the limit) one met past it.
                check(
                    &mut table,
                    format!(
                        "Running sync for configmap \"ns/cm-{}\" ({} of n)",
                        i / 3,
                        i / 3
                    ),
                );
            }
        }
        assert!(!table.held.is_empty());
        assert_eq!(table.messages.len(), next as usize);
        // The filter names every text of the index.
        assert_eq!(table.index.len(), SHARED_MAX);
        for tag in table.index.tags() {
            let (word, bit) = MessageTable::held_bit(tag);
            assert_ne!(table.held[word] & bit, 0);
        }
    }

    #[test]
    fn parts_joined_at_once_get_the_ids_interning_one_by_one_gives() {
        // Parts of new texts and repeats of earlier parts' (each part's texts distinct, as its
        // own table gives them), joined with and without their hashes, until the index is
        // full and past it: every id is the one interning each text in order gives.
        let mut rng = crate::vocab::testing::xorshift(0x5EED_1234);
        let mut one = MessageTable::default();
        let mut joined = MessageTable::default();
        let mut seen = 0u64;
        let mut parts = 0;
        while one.messages.len() < SHARED_MAX + 30_000 {
            let mut local = MessageTable::default();
            let mut hashes = Vec::new();
            for _ in 0..rng(6_000) + 1 {
                let k = if rng(3) == 0 {
                    rng(seen + 1)
                } else {
                    seen += 1;
                    seen
                };
                let text = format!("Running sync for configmap \"ns/cm-{k}\"");
                let hash = local.hasher.hash(&text);
                if local.intern_hashed(&text, hash).1 {
                    hashes.push(hash);
                }
            }
            let want: Vec<u32> = local.messages.iter().map(|t| one.intern(t)).collect();
            let hashes = if parts % 2 == 0 { &hashes[..] } else { &[] };
            assert_eq!(
                joined.intern_part(&local.messages, hashes),
                want,
                "part {parts}"
            );
            parts += 1;
        }
        assert!(!joined.held.is_empty());
        assert!(one.messages.iter().eq(joined.messages.iter()));
    }

    #[test]
    fn batched_look_ups_find_what_single_ones_find_when_tags_collide() {
        // Hashes made to collide: three tags for 300 texts, so that a text's first candidate
        // is mostly another text's.
        let fake = |text: &str| ((text.len() as u64 % 3) << 32) | text.len() as u64;
        let texts: Vec<String> = (0..300).map(|i| format!("message {i}")).collect();
        let mut table = MessageTable::default();
        for t in &texts[..200] {
            table.add_new(t, fake(t));
        }
        let probe: Vec<&str> = texts.iter().rev().map(String::as_str).collect();
        let hashes: Vec<u64> = probe.iter().map(|t| fake(t)).collect();
        let mut got = Vec::new();
        for (h, t) in hashes.chunks(BATCH).zip(probe.chunks(BATCH)) {
            table.find_batch(h, t, &mut got);
        }
        let want: Vec<u32> = (0..300u32)
            .rev()
            .map(|i| if i < 200 { i } else { u32::MAX })
            .collect();
        assert_eq!(got, want);
        let single: Vec<u32> = probe
            .iter()
            .zip(&hashes)
            .map(|(t, &h)| table.find(h, t).unwrap_or(u32::MAX))
            .collect();
        assert_eq!(single, want);
    }

    #[test]
    fn predicted_messages_get_the_ids_a_lookup_gives() {
        // Passes that mostly repeat, but skip, swap and add messages: whether a prediction
        // is right or wrong, a text has one id, the one it got first.
        let t = abs("2021-06-01T00:00:00Z");
        let mut b = RecordsBuilder::default();
        let mut texts = Vec::new();
        for pass in 0..50u32 {
            for m in 0..40u32 {
                let m = match (pass % 3, m) {
                    (1, 7) => continue,
                    (2, 3) => 4,
                    (2, 4) => 3,
                    (0, 39) => 100 + pass,
                    _ => m,
                };
                texts.push(format!(
                    "Running sync for configmap \"ns/cm-{m}\" ({m} of 40)"
                ));
            }
        }
        for (i, text) in texts.iter().enumerate() {
            b.push(t, 'I', text, i as u32 + 1, i as u64 * 100, 100);
        }
        let r = b.finish();
        let mut first: std::collections::HashMap<&str, u32> = Default::default();
        for rec in r.iter() {
            let id = *first.entry(rec.message).or_insert(rec.message_id);
            assert_eq!(rec.message_id, id, "{}", rec.message);
        }
        assert_eq!(r.messages().len(), first.len());
        assert_eq!(r.iter().map(|rec| rec.message).collect::<Vec<_>>(), texts);
    }

    #[test]
    fn steady_passes_cost_a_few_bytes_a_record() {
        // A thousand passes over the same 200 manifests, 2 ms apart, in 4 MiB-like parts.
        let base = crate::vocab::time::parse_rfc3339("2021-06-01T00:00:00Z").unwrap();
        let mut all = Appender::default();
        let (mut line, mut offset, mut n) = (0u32, 0u64, 0i64);
        for _part in 0..10 {
            let mut b = RecordsBuilder::default();
            for _pass in 0..100 {
                for m in 0..200 {
                    let msg = format!("Running sync for configmap \"ns/cm-{m}\" ({m} of 200)");
                    let len = 80 + msg.len() as u32;
                    let t = base
                        .checked_add_signed(chrono::TimeDelta::milliseconds(2 * n))
                        .unwrap();
                    line += 1;
                    n += 1;
                    b.push(RecordTime::Absolute(t), 'I', &msg, line, offset, len);
                    offset += u64::from(len);
                }
            }
            all.push(b.finish(), 0);
        }
        let r = all.finish();
        assert_eq!((r.len(), r.messages().len()), (200_000, 200));
        let per_record = r.coded_bytes() as f64 / r.len() as f64;
        assert!(per_record < 6.0, "{per_record} bytes a record");
        let last = r.iter().last().unwrap();
        assert_eq!(
            (last.line, last.message),
            (
                200_000,
                "Running sync for configmap \"ns/cm-199\" (199 of 200)"
            )
        );
        assert_eq!(last.offset + u64::from(last.len), offset);
    }

    /// The varint as one byte at a time in 128-bit arithmetic writes and reads it.
    fn put_by_byte(out: &mut Vec<u8>, mut v: u128) {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }

    #[test]
    fn varints_are_the_bytes_of_seven_bits_each_and_read_back() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut values: Vec<u128> = Vec::new();
        for bit in 0..128 {
            let p = 1u128 << bit;
            values.extend([p - 1, p, p + 1]);
        }
        values.push(u128::MAX);
        for _ in 0..10_000 {
            let (hi, lo) = (u128::from(rand()), u128::from(rand()));
            values.push(((hi << 64) | lo) >> (rand() % 128));
        }
        let (mut data, mut want) = (Vec::new(), Vec::new());
        for &v in &values {
            put(&mut data, v);
            put_by_byte(&mut want, v);
        }
        assert_eq!(data, want);
        // The stack writer the records use writes the same bytes for what fits 64 bits.
        let mut stacked = Vec::new();
        for &v in &values {
            match u64::try_from(v) {
                Ok(v) => {
                    let mut buf = [0u8; 10];
                    let n = put_u64(&mut buf, v);
                    stacked.extend_from_slice(&buf[..n]);
                }
                Err(_) => put(&mut stacked, v),
            }
        }
        assert_eq!(stacked, want);
        let mut at = 0;
        for &v in &values {
            assert_eq!(get(&data, &mut at), v);
        }
        assert_eq!(at, data.len());
        // A varint cut short reads what it has.
        let mut at = 0;
        assert_eq!(get(&[0xff, 0xff], &mut at), 0x3fff);
        assert_eq!(at, 2);
    }

    /// Arbitrary records (times back and forth, absolute and partial, gaps, continuation
    /// lines, long and non-ASCII messages), written in parts and joined, read back as written.
    #[test]
    fn arbitrary_records_round_trip_through_parts() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n.max(1)
        };
        let base = crate::vocab::time::parse_rfc3339("2021-06-01T00:00:00Z").unwrap();
        type Want = (Option<Time>, char, String, u32, u64, u32);
        let mut want: Vec<Want> = Vec::new();
        let mut all = Appender::default();
        let (mut line, mut offset) = (0u32, 0u64);
        for _part in 0..7 {
            // Each part numbers its lines from its own start, as a parsed block does.
            let lines_before = line;
            let mut b = RecordsBuilder::default();
            for _ in 0..rand(400) {
                line += 1 + rand(3) as u32;
                offset += rand(2) * rand(5000);
                let msg = match rand(4) {
                    0 => format!("Running sync for x{} (é {} of 9)", rand(20), rand(9)),
                    1 => "x".repeat(rand(3000) as usize),
                    _ => format!("m{}", rand(50)),
                };
                let (time, want_time) = if rand(5) == 0 {
                    let p = PartialTime::new(
                        1 + rand(12) as u32,
                        1 + rand(28) as u32,
                        23,
                        59,
                        60,
                        999_999_999,
                    )
                    .unwrap();
                    (RecordTime::Partial(p), None)
                } else {
                    let secs = rand(1 << 40) as i64 - (1 << 39);
                    let t = base
                        .checked_add_signed(chrono::TimeDelta::nanoseconds(secs))
                        .unwrap();
                    (RecordTime::Absolute(t), Some(t))
                };
                let level = ['I', 'W', 'E', 'F'][rand(4) as usize];
                let len = 30 + msg.len() as u32 + rand(3) as u32;
                b.push(time, level, &msg, line - lines_before, offset, len);
                let mut text = msg;
                let mut len = len;
                for _ in 0..rand(3) {
                    let cont = format!("* continuation {}", rand(9));
                    b.continue_message(&cont, 1 << 20);
                    text.push('\n');
                    text.push_str(&cont);
                    len += 40;
                    b.extend_open_to(offset + u64::from(len));
                }
                want.push((want_time, level, text, line, offset, len));
                offset += u64::from(len);
            }
            all.push(b.finish(), lines_before);
        }
        let r = all.finish();
        let got: Vec<Want> = r
            .iter()
            .map(|x| {
                (
                    x.time,
                    x.level,
                    x.message.to_string(),
                    x.line,
                    x.offset,
                    x.len,
                )
            })
            .collect();
        assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "record {i}");
        }
        for x in r.iter() {
            assert_eq!(r.messages().get(x.message_id as usize), Some(x.message));
        }
        assert_eq!(r.span(), span_by_reading(&r));
        assert!(r.span().is_some());
        for prefix in ["Running sync", "m1", "x"] {
            let by_reading = r.iter().filter(|x| x.message.starts_with(prefix)).count();
            assert!(by_reading > 0);
            assert_eq!(
                r.count_where(|m| m.starts_with(prefix)),
                by_reading,
                "{prefix}"
            );
        }
        assert_eq!(r.count_where(|m| m.starts_with("nothing")), 0);
        // Every third id marked: the marked records, each read back in full.
        let marked: Vec<bool> = (0..r.messages().len()).map(|i| i % 3 == 1).collect();
        let by_reading: Vec<LogRecord<'_>> =
            r.iter().filter(|x| marked[x.message_id as usize]).collect();
        assert!(by_reading.len() > 10);
        assert_eq!(r.matching(&marked).collect::<Vec<_>>(), by_reading);
        assert_eq!(r.matching(&[]).count(), 0);
        // Segment by segment, the same records: each iterator stops at its segment's end
        // and knows how many it holds.
        let segments: Vec<Iter<'_>> = r.segments().collect();
        assert!(segments.len() > 1, "{} segments", segments.len());
        let lens: Vec<usize> = segments.iter().map(ExactSizeIterator::len).collect();
        let parts: Vec<Vec<LogRecord<'_>>> = segments.into_iter().map(Iterator::collect).collect();
        assert_eq!(lens, parts.iter().map(Vec::len).collect::<Vec<_>>());
        assert_eq!(parts.concat(), r.iter().collect::<Vec<_>>());
    }
}
