//! What is asked of one log's records ([`LogRecords`]) as a whole: counts, spans, the
//! records in file order or only the matching ones, and resolving year-less stamps.

use super::code::widen;
use super::messages::{Messages, SHARED_MAX};
use super::read::{Iter, Matching, SegReader};
use super::write::Writer;
use super::{LogRecord, LogRecords, RecordTime, TimeCode};
use crate::vocab::time::{PartialTime, Time};

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
            let mut w = Writer {
                prev: seg.start(),
                ..Writer::default()
            };
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
