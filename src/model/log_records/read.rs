//! Decoding a log's records in file order: one segment at a time ([`SegReader`]), as a whole
//! ([`Iter`]), or only the records of marked messages ([`Matching`]).

use super::code::{
    COMPACT, CONTIGUOUS, DayCache, ID_SAME, LEN_SAME, LEVELS, LINE_NEXT, PARTIAL, Predictions,
    Prev, Raw, get, unzigzag,
};
use super::messages::Messages;
use super::{LogRecord, RecordTime, TimeCode};
use super::{LogRecords, Segment};

/// Decodes one segment's records, with the ids coded in it.
#[derive(Debug, Clone)]
pub(super) struct SegReader<'a> {
    pub(super) data: &'a [u8],
    pub(super) at: usize,
    pub(super) prev: Prev,
    pub(super) left: usize,
    pub(super) messages: &'a Messages,
    pub(super) remap: Option<&'a [u32]>,
    pub(super) days: DayCache,
    /// The segment's seed, taken into `prev` when the first record is read: a reader is
    /// made for every segment at once (the scan's windows), and a copy of the predictions
    /// each (16 KB for a steady pass) came to 15 MB over a steady year's 900 segments.
    pub(super) seed: Option<&'a Predictions>,
}

/// The messages of a log that has none.
pub(super) static NO_MESSAGES: Messages = Messages {
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
            seed: None,
        }
    }
}

impl<'a> SegReader<'a> {
    pub(super) fn new(seg: &'a Segment, messages: &'a Messages) -> Self {
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
            seed: seg.seed.as_deref(),
        }
    }

    /// The log's id of an id coded here.
    pub(super) fn global(&self, local: u32) -> u32 {
        match self.remap {
            Some(m) => m.get(local as usize).copied().unwrap_or(u32::MAX),
            None => local,
        }
    }

    #[inline(always)]
    pub(super) fn next(&mut self) -> Option<Raw> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        if let Some(seed) = self.seed.take() {
            self.prev.predict_from(seed);
        }
        let data = self.data;
        let flags = *data.get(self.at)?;
        self.at += 1;
        if flags & COMPACT != 0 {
            // The record repeats its place in the pass before (see [`super::code`]).
            let id = self.prev.predicted_id()?;
            let msg_len = self.messages.len_of(self.global(id));
            let base = self.prev.time_base(true);
            let raw = Raw {
                time: TimeCode {
                    code: base.wrapping_add(unzigzag(u128::from(flags & !COMPACT))),
                    partial: self.prev.partial,
                },
                level: self.prev.level,
                message: id,
                line: self.prev.line.wrapping_add(1),
                offset: self.prev.end,
                len: (msg_len as i64 + self.prev.overhead) as u32,
            };
            self.prev.advance(&raw, id, raw.time.code, msg_len);
            return Some(raw);
        }
        let (id, id_same) = match self.prev.predicted_id() {
            Some(id) if flags & ID_SAME != 0 => (id, true),
            _ => (get(data, &mut self.at) as u32, false),
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
            .time_base(id_same)
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
    pub(super) records: &'a LogRecords,
    pub(super) seg: usize,
    /// The segment the iterator stops before.
    pub(super) end: usize,
    pub(super) reader: SegReader<'a>,
}

/// A record as coded, read without its time decoded or its message looked up: enough to
/// tell its message and order it by time ([`Iter::next_coded`]); [`Iter::full`] reads it in
/// full.
#[derive(Debug, Clone, Copy)]
pub struct Coded {
    pub(super) raw: Raw,
    /// The log's id of its message.
    pub(super) id: u32,
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
    pub(super) all: Iter<'a>,
    pub(super) marked: &'a [bool],
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
