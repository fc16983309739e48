//! Writing a log's records: [`Writer`] codes them one after another, [`RecordsBuilder`] builds
//! one part's records and messages, and [`Appender`] joins parts read on their own.

use super::TimeCode;
use super::code::widen;
use super::code::{AFTER_MAX, Predictions};
use super::code::{
    COMPACT, COMPACT_TIME_MAX, CONTIGUOUS, ID_SAME, LEN_SAME, LINE_NEXT, PARTIAL, Prev, Raw,
    level_code, put, put_u64, zigzag,
};
use super::messages::{MessageTable, SHARED_MAX};
use super::{LogRecords, Segment};
use std::sync::Arc;

/// Codes records one after another.
#[derive(Debug, Default)]
pub(super) struct Writer {
    pub(super) data: Vec<u8>,
    pub(super) prev: Prev,
    /// The earliest and latest absolute time coded.
    pub(super) span: Option<(i128, i128)>,
}

impl Writer {
    /// Codes `r`, whose message is `msg_len` bytes long (the forms: see [`super::code`]).
    pub(super) fn code(&mut self, r: &Raw, msg_len: usize) {
        let id = r.message;
        let p = &self.prev;
        let id_same = p.predicted_id() == Some(id);
        let line_next = r.line == p.line.wrapping_add(1);
        let contiguous = r.offset == p.end;
        let len_same = i64::from(r.len) == msg_len as i64 + p.overhead;
        let t = r.time.code;
        let delta = zigzag(t.wrapping_sub(p.time_base(id_same)));
        let repeats = id_same
            & line_next
            & contiguous
            & len_same
            & (r.level == p.level)
            & (r.time.partial == p.partial);
        if repeats && delta <= COMPACT_TIME_MAX {
            self.data.push(COMPACT | delta as u8);
        } else {
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
            // The record's bytes gathered on the stack and appended at once (one capacity
            // check, not one per byte); the same bytes [`put`] writes.
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
    pub(super) w: Writer,
    pub(super) table: MessageTable,
    pub(super) count: usize,
    pub(super) partial: usize,
    pub(super) open: Option<Raw>,
    /// The open record's message while continuation lines grow it.
    pub(super) open_text: Option<String>,
    pub(super) first: Option<u64>,
    /// The hash of each message below [`SHARED_MAX`], by id: the join looks the messages up
    /// in the log's table without hashing them again (see [`Appender::push_built`]).
    pub(super) hashes: Vec<u64>,
    /// The predictions the first record is coded against ([`RecordsBuilder::seeded`]).
    pub(super) seed: Option<Arc<Predictions>>,
}

/// An earlier part of a log, to start later parts of the same log from
/// ([`RecordsBuilder::seed`]): its messages (a later part numbers them as it did, then its
/// own new ones) and the predictions it ended with. A block of a log parsed on its own
/// predicted nothing at its start, and its first pass cost about seven bytes a record instead
/// of one: a tenth of a steady year's records (4 MiB blocks of 17 passes each).
#[derive(Debug, Clone)]
pub struct PartSeed {
    table: MessageTable,
    hashes: Vec<u64>,
    predictions: Arc<Predictions>,
}

/// A part is a seed when its messages repeat at least this many times on average (a steady
/// pass's do; a log of mostly distinct messages' do not, and copying its table into every
/// later part would cost more than it saves) ...
const SEED_REPEATS: usize = 4;
/// ... and it has at most [`AFTER_MAX`] messages, of at most [`SEED_TEXT`] bytes in all
/// (every later part gets a copy: a steady pass's 1,400 messages are 140 KB, and a part of
/// a few huge messages that repeat short ones is no seed).
const SEED_MESSAGES: usize = AFTER_MAX;
const SEED_TEXT: usize = 512 << 10;

impl RecordsBuilder {
    /// What later parts of the same log can start from ([`RecordsBuilder::seeded`]): this
    /// part's messages and predictions as they stand (the open record not coded yet), when
    /// its messages repeat as a reconcile pass's do. `None` otherwise.
    pub fn seed(&self) -> Option<PartSeed> {
        let messages = self.table.messages.len();
        let repeats = messages > 0
            && messages <= SEED_MESSAGES
            && self.count >= messages.saturating_mul(SEED_REPEATS)
            && self.table.messages.text_bytes() <= SEED_TEXT;
        repeats.then(|| PartSeed {
            table: self.table.clone(),
            hashes: self.hashes.clone(),
            predictions: Arc::new(Predictions {
                next: self.w.prev.next.clone(),
                after: self.w.prev.after.clone(),
            }),
        })
    }

    /// A builder for a later part of the log `seed` was taken from: its messages are
    /// numbered as the seed's were, and its records predicted as the seed's part would have
    /// gone on to predict them. The records read back as with a fresh builder.
    pub fn seeded(seed: &PartSeed) -> Self {
        let mut b = RecordsBuilder {
            table: seed.table.clone(),
            hashes: seed.hashes.clone(),
            seed: Some(Arc::clone(&seed.predictions)),
            ..RecordsBuilder::default()
        };
        b.w.prev.predict_from(&seed.predictions);
        b
    }

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
    pub(super) fn open_record(
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
    pub(super) fn intern(&mut self, text: &str) -> u32 {
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
    pub(super) fn close(&mut self) {
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
                seed: self.seed,
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
    pub(super) segments: Vec<Segment>,
    pub(super) table: MessageTable,
    pub(super) count: usize,
    pub(super) partial: usize,
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
    pub(super) fn push_hashed(&mut self, mut later: LogRecords, hashes: &[u64], lines_before: u32) {
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
