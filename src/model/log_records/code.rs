//! The byte coding of one record, against what the records before it predict ([`Prev`]), and
//! its time as one number ([`time_code`], [`decode_time`]).
//!
//! A record is coded in one of two forms, told apart by its first byte's high bit. A record
//! that repeats its place in the pass before (the message predicted, on the next line, right
//! after the previous record, with a header as wide, at the same level and with the same kind
//! of time) and whose time is within 64 ns of the one predicted is one byte: [`COMPACT`] and
//! the zigzagged difference. A steady pass costs a byte a line, its clock's jitter included.
//! Any other record is a flags byte (the level in the low two bits, then [`PARTIAL`] to
//! [`LEN_SAME`]), the varints of the fields not predicted, in the order of the bits, and the
//! time's difference from the one predicted, always.

use super::messages::SHARED_MAX;
use super::{RecordTime, TimeCode};
use crate::vocab::time::{PartialTime, Time};

/// One record in full, while it is written or re-coded.
#[derive(Debug, Clone, Copy)]
pub(super) struct Raw {
    pub(super) time: TimeCode,
    pub(super) level: u8,
    /// The message's id.
    pub(super) message: u32,
    pub(super) line: u32,
    pub(super) offset: u64,
    pub(super) len: u32,
}

/// What each record is coded against: the record before it, and which message followed
/// each message the last time and how long after it (a reconcile pass logs its manifests in
/// the same order as the pass before, mostly as far apart, so the next message is mostly the
/// one predicted and its time mostly the one predicted, to the nanosecond or nearly).
#[derive(Debug, Clone)]
pub(super) struct Prev {
    pub(super) line: u32,
    pub(super) end: u64,
    pub(super) time: i128,
    /// The previous record's message id (`u32::MAX` before the first record).
    pub(super) id: u32,
    /// The previous record's length minus its message's: the header's width, mostly the
    /// same from one record to the next.
    pub(super) overhead: i64,
    /// The previous record's level code and whether its time was partial (`0`, `false`
    /// before the first record): a [`COMPACT`] record has the same.
    pub(super) level: u8,
    pub(super) partial: bool,
    /// For each id below [`SHARED_MAX`], the id of the record that followed it last.
    pub(super) next: Vec<u32>,
    /// For each id below [`AFTER_MAX`], how much later (in the time's code) the record that
    /// followed it last came (0 when that did not fit 64 bits).
    pub(super) after: Vec<i64>,
}

/// The predictions of a [`Prev`] (which message follows which, how long after), as a part of
/// a log ended with them: later parts of the same log start from them ([`super::PartSeed`]),
/// so that their first pass is predicted too.
#[derive(Debug, Clone, Default)]
pub(super) struct Predictions {
    pub(super) next: Vec<u32>,
    pub(super) after: Vec<i64>,
}

impl Default for Prev {
    fn default() -> Self {
        Prev {
            line: 0,
            end: 0,
            time: 0,
            id: u32::MAX,
            overhead: 0,
            level: 0,
            partial: false,
            next: Vec::new(),
            after: Vec::new(),
        }
    }
}

impl Prev {
    /// Predicts from `seed` from now on (a seeded segment's start).
    pub(super) fn predict_from(&mut self, seed: &Predictions) {
        self.next.clone_from(&seed.next);
        self.after.clone_from(&seed.after);
    }

    pub(super) fn predicted_id(&self) -> Option<u32> {
        self.next
            .get(self.id as usize)
            .copied()
            .filter(|&n| n != u32::MAX)
    }

    /// The time a record is coded against: for the message predicted ([`ID_SAME`] or
    /// [`COMPACT`]), the previous record's time plus how long that message took to follow it
    /// last time; for another, the previous record's time.
    #[inline(always)]
    pub(super) fn time_base(&self, id_same: bool) -> i128 {
        let after = match id_same {
            true => self.after.get(self.id as usize).copied().unwrap_or(0),
            false => 0,
        };
        self.time.wrapping_add(i128::from(after))
    }

    /// Moves past `r` (message `id`, time `time`, its message `msg_len` bytes long).
    ///
    /// Inlined: called out of line (as it was), the record was stored field by field for the
    /// call and read back sixteen bytes at a time to be returned, and each of those loads
    /// waited for the stores it spans (about a third of decoding a steady year's records).
    #[inline(always)]
    pub(super) fn advance(&mut self, r: &Raw, id: u32, time: i128, msg_len: usize) {
        let prev = self.id as usize;
        if prev < SHARED_MAX {
            if self.next.len() <= prev {
                self.next.resize(prev + 1, u32::MAX);
            }
            self.next[prev] = id;
            if prev < AFTER_MAX {
                if self.after.len() <= prev {
                    self.after.resize(prev + 1, 0);
                }
                self.after[prev] = i64::try_from(time.wrapping_sub(self.time)).unwrap_or(0);
            }
        }
        self.line = r.line;
        self.end = r.offset.wrapping_add(u64::from(r.len));
        self.time = time;
        self.id = id;
        self.overhead = i64::from(r.len) - msg_len as i64;
        self.level = r.level;
        self.partial = r.time.partial;
    }
}

/// The ids whose records' times are predicted ([`Prev::time_base`]): a reconcile pass logs a
/// few thousand distinct messages, and a log of very many (the 1 GB dump's) seldom repeats
/// an order, so its table (8 bytes an id, one in each block parsed) stays small.
pub(super) const AFTER_MAX: usize = 1 << 14;

pub(super) const LEVELS: [char; 4] = ['I', 'W', 'E', 'F'];
/// The record is one byte (see the module documentation).
pub(super) const COMPACT: u8 = 1 << 7;
/// The largest zigzagged time difference a [`COMPACT`] record holds.
pub(super) const COMPACT_TIME_MAX: u128 = 0x7f;
pub(super) const PARTIAL: u8 = 1 << 2;
/// The message is the one predicted ([`Prev::predicted_id`]): no id follows.
pub(super) const ID_SAME: u8 = 1 << 3;
/// The line is the one after the previous record's: no line delta follows.
pub(super) const LINE_NEXT: u8 = 1 << 4;
/// The record starts where the previous one ended: no offset delta follows.
pub(super) const CONTIGUOUS: u8 = 1 << 5;
/// The header is as wide as the previous record's: no length follows.
pub(super) const LEN_SAME: u8 = 1 << 6;
pub(super) const NANOS: i128 = 1_000_000_000;

pub(super) fn level_code(c: char) -> u8 {
    LEVELS.iter().position(|l| *l == c).unwrap_or(0) as u8
}

/// The time as one number: nanoseconds since the epoch, or for a partial stamp its month,
/// day and nanoseconds since midnight (told apart by the record's flag).
pub(super) fn time_code(t: &RecordTime) -> i128 {
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
pub(super) type DayCache = Option<(i64, chrono::NaiveDate)>;

pub(super) fn decode_time(code: i128, partial: bool, days: &mut DayCache) -> RecordTime {
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
pub(super) fn put(out: &mut Vec<u8>, v: u128) {
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
pub(super) fn put_u64(out: &mut [u8], v: u64) -> usize {
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
pub(super) fn get(data: &[u8], at: &mut usize) -> u128 {
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

pub(super) fn zigzag(v: i128) -> u128 {
    ((v << 1) ^ (v >> 127)) as u128
}

pub(super) fn unzigzag(v: u128) -> i128 {
    ((v >> 1) as i128) ^ -((v & 1) as i128)
}

/// The span holding both `a` and `b`.
pub(super) fn widen(a: Option<(i128, i128)>, b: Option<(i128, i128)>) -> Option<(i128, i128)> {
    match (a, b) {
        (Some((lo, hi)), Some((l, h))) => Some((lo.min(l), hi.max(h))),
        (x, None) | (None, x) => x,
    }
}
