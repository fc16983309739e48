//! A CVO log's records, held compactly: a year of steady reconcile passes is tens of millions
//! of klog lines, almost all of them the same few hundred manifest messages again. Each
//! distinct message is stored once ([`LogRecords::messages`]); each record is a few
//! delta-coded bytes (level, message id, line, offset, length and time, each against the
//! record before), where a plain struct took 88. A record that repeats what the pass before
//! had at its place (the message that followed the previous one last time, about as long
//! after it, on the next line, right after it, with a header as wide) is one byte, which holds
//! its time's few nanoseconds of jitter: a steady reconcile pass costs a byte a line. A part
//! of a log coded on its own (a block parsed beside others) can start from the predictions
//! an earlier part ended with ([`PartSeed`]), so that its first pass is predicted too.
//! Records are read in file order through [`LogRecords::iter`], which decodes them as
//! [`LogRecord`] views.
//!
//! [`RecordsBuilder`] writes them: the last record stays open (continuation lines still grow
//! its message and length) until the next one is pushed or the builder is finished.

//!
//! The files: this one holds the record types read back ([`LogRecord`], [`RecordTime`],
//! [`TimeCode`]); [`LogRecords`], the records of one log, and its segments; `query` what is asked of them;
//! `code` the byte coding of one record; `messages` the distinct message texts and the table
//! that numbers them; `index` the hash index of that table; `read` the decoding iterators;
//! `write` the builders ([`RecordsBuilder`], [`Appender`]).

use crate::vocab::time::{PartialTime, Time};
use code::{DayCache, decode_time, time_code};

mod code;
mod index;
mod messages;
mod query;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub use messages::Messages;
pub use read::{Coded, Iter, Matching};
pub use write::{Appender, PartSeed, RecordsBuilder};

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
    pub(super) segments: Vec<Segment>,
    pub(super) messages: Messages,
    pub(super) count: usize,
    /// Records whose time is only a year-less stamp.
    pub(super) partial: usize,
}

/// Records coded one after another from a fresh start (a block parsed on its own), with how
/// the message ids coded in it map to the log's, and what its first records were predicted
/// from.
#[derive(Debug, Clone, Default)]
pub(super) struct Segment {
    pub(super) data: Vec<u8>,
    pub(super) count: usize,
    /// The log's message id of each id coded here (`None`: the same ids).
    pub(super) remap: Option<Vec<u32>>,
    /// The earliest and latest absolute time coded here ([`time_code`]s), so a log's span
    /// is known without decoding its records.
    pub(super) span: Option<(i128, i128)>,
    /// The lines before the first record's line as coded (a block numbers its lines from its
    /// own start; the join says where it starts).
    pub(super) line_base: u32,
    /// What the first records were predicted from: nothing, or the predictions an earlier
    /// part of the log ended with ([`PartSeed`]), shared by every part seeded from it.
    seed: Option<std::sync::Arc<code::Predictions>>,
}

impl Segment {
    /// The state its first record is coded against (by the writer and the reader alike).
    fn start(&self) -> code::Prev {
        let mut prev = code::Prev {
            line: self.line_base,
            ..code::Prev::default()
        };
        if let Some(seed) = &self.seed {
            prev.predict_from(seed);
        }
        prev
    }
}
