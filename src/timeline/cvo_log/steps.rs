//! The records of a CVO log as the scan applies them ([`Step`]s): stretches that only extend
//! the state folded into runs ([`Run`]) as the records are read, as coded, window by window
//! ([`Windows`]), and the records with other facts read in full.

use super::super::catalogue::{Fact, ManifestLine, classify, manifest_line};
use crate::model::log_records::{Coded, Iter, Messages};
use crate::model::{LogRecord, Time, TimeCode};
use rayon::prelude::*;

/// A stretch of records that only extend the state (no fact, or a manifest line), folded in
/// the order read: applying it leaves what applying its records one by one would. Records
/// without a time count for nothing and are not in it. Read with times as codes and records
/// as coded ([`CodedRun`]), then applied with them read ([`ReadRun`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Run<'a, T, R> {
    /// The first record: it opens an instance when none is open.
    pub(super) first: Option<(T, R)>,
    /// The latest time, and the last record with it (the last to move an instance's end).
    pub(super) latest: Option<(T, R)>,
    /// `Done syncing` and `Running sync` lines.
    pub(super) done: u32,
    pub(super) started: u32,
    /// The highest index of the `Done syncing` lines (0 without one).
    pub(super) max_index: u32,
    /// The last manifest line's total.
    pub(super) total: u32,
    /// The first manifest line: its time, record, manifest, index and total.
    pub(super) first_manifest: Option<(T, R, &'a str, u32, u32)>,
    /// The latest time of a manifest line.
    pub(super) last_manifest: Option<T>,
}

pub(super) type CodedRun<'a> = Run<'a, i128, Coded>;
pub(super) type ReadRun<'a> = Run<'a, Time, LogRecord<'a>>;

impl<T, R> Default for Run<'_, T, R> {
    fn default() -> Self {
        Run {
            first: None,
            latest: None,
            done: 0,
            started: 0,
            max_index: 0,
            total: 0,
            first_manifest: None,
            last_manifest: None,
        }
    }
}

impl<'a, T: Copy + Ord, R: Copy> Run<'a, T, R> {
    pub(super) fn add(&mut self, t: T, rec: R, manifest: Option<ManifestLine<'a>>) {
        self.first.get_or_insert((t, rec));
        if self.latest.as_ref().is_none_or(|(l, _)| t >= *l) {
            self.latest = Some((t, rec));
        }
        if let Some((done, name, index, total)) = manifest {
            if done {
                self.done += 1;
                self.max_index = self.max_index.max(index);
            } else {
                self.started += 1;
            }
            self.total = total;
            self.first_manifest
                .get_or_insert((t, rec, name, index, total));
            self.last_manifest = Some(self.last_manifest.map_or(t, |l| l.max(t)));
        }
    }
}

impl<'a> CodedRun<'a> {
    /// The run with its few records read in full (`it` reads the log's records).
    fn read(&self, it: &mut Iter<'a>) -> ReadRun<'a> {
        // A code's time, as a record read in full has it.
        let time = |code: i128| TimeCode::unix_nanos(code).time().unwrap_or(Time::MIN_UTC);
        let mut pair = |(t, c): (i128, Coded)| (time(t), it.full(c));
        ReadRun {
            first: self.first.map(&mut pair),
            latest: self.latest.map(&mut pair),
            done: self.done,
            started: self.started,
            max_index: self.max_index,
            total: self.total,
            first_manifest: self.first_manifest.map(|(t, c, name, index, total)| {
                let (t, rec) = pair((t, c));
                (t, rec, name, index, total)
            }),
            last_manifest: self.last_manifest.map(time),
        }
    }
}

/// What the scan applies, in file order: a run of records that only extend the state, or a
/// record whose fact may change it (with its time).
pub(super) enum Step<'a> {
    Run(ReadRun<'a>),
    Record(Time, LogRecord<'a>, Said<'a>),
}

/// A record's fact: cached for its message, or read with the record.
pub(super) enum Said<'a> {
    Shared(&'a Fact),
    Own(Box<Fact>),
}

impl Said<'_> {
    pub(super) fn fact(&self) -> &Fact {
        match self {
            Said::Shared(f) => f,
            Said::Own(f) => f,
        }
    }
}

/// What a message past the cached ones says, read with its record: a manifest line read in
/// place (the bulk of a pass: nothing is allocated for it), or its fact.
pub(super) enum Own<'a> {
    Manifest(ManifestLine<'a>),
    Fact(Option<Fact>),
}

pub(super) fn read_own(message: &str) -> Own<'_> {
    match manifest_line(message) {
        Some(m) => Own::Manifest(m),
        None => Own::Fact(classify(message)),
    }
}

/// A log's messages as the scan reads them: their texts, and the facts of the first
/// `shared` of them (one id per distinct text), classified once.
#[derive(Clone, Copy)]
pub(super) struct Known<'a> {
    pub(super) messages: &'a Messages,
    pub(super) shared: usize,
    pub(super) facts: &'a [Option<Fact>],
}

impl Known<'_> {
    /// Whether `c` counts for the scan (it has a time) and its message is past the cached
    /// ones: it is read with its record.
    fn own_timed(&self, c: &Coded) -> bool {
        c.nanos().is_some() && c.message_id() as usize >= self.shared
    }
}

/// Builds the steps of records read in order, as coded: a record's time is decoded and its
/// message looked up only when it is one the scan keeps (a fact's, or a run's first, latest
/// or first manifest line).
pub(super) struct Steps<'a> {
    steps: Vec<Step<'a>>,
    run: Option<CodedRun<'a>>,
    known: Known<'a>,
}

impl<'a> Steps<'a> {
    fn new(known: Known<'a>) -> Self {
        Steps {
            steps: Vec::new(),
            run: None,
            known,
        }
    }

    /// Adds `c` (read by `it`): its fact is the cached one for a message below `shared`, else
    /// `own(message)`'s (called only for a record with a time).
    fn add(&mut self, c: Coded, it: &mut Iter<'a>, own: impl FnOnce(&'a str) -> Own<'a>) {
        let Some(code) = c.nanos() else { return };
        let id = c.message_id() as usize;
        let said = if id < self.known.shared {
            match self.known.facts.get(id).and_then(Option::as_ref) {
                None => None,
                Some(Fact::Manifest {
                    done,
                    name,
                    index,
                    total,
                }) => {
                    let m = (*done, name.as_str(), *index, *total);
                    return self.run.get_or_insert_default().add(code, c, Some(m));
                }
                Some(f) => Some(Said::Shared(f)),
            }
        } else {
            match own(self.known.messages.get(id).unwrap_or_default()) {
                Own::Manifest(m) => return self.run.get_or_insert_default().add(code, c, Some(m)),
                Own::Fact(f) => f.map(|f| Said::Own(Box::new(f))),
            }
        };
        let Some(said) = said else {
            return self.run.get_or_insert_default().add(code, c, None);
        };
        self.flush(it);
        let rec = it.full(c);
        if let Some(t) = rec.time {
            self.steps.push(Step::Record(t, rec, said));
        }
    }

    /// Ends the open run.
    fn flush(&mut self, it: &mut Iter<'a>) {
        if let Some(r) = self.run.take() {
            self.steps.push(Step::Run(r.read(it)));
        }
    }

    fn finish(mut self, it: &mut Iter<'a>) -> Vec<Step<'a>> {
        self.flush(it);
        self.steps
    }
}

/// The steps of a log, window by window: with more than one thread, the next few segments
/// (one per parsed block) are read side by side on the pool, each a window; a segment of
/// more than [`SEGMENT_MAX`] records (a log parsed on one thread is one segment) is read
/// here, [`CLASSIFY_WINDOW`] records at a time, its messages of their own read on the pool.
pub(super) struct Windows<'a> {
    pub(super) segments: Vec<Iter<'a>>,
    pub(super) next: usize,
    pub(super) serial: Option<Iter<'a>>,
    pub(super) ready: std::collections::VecDeque<Vec<Step<'a>>>,
    pub(super) known: Known<'a>,
    pub(super) threads: usize,
    /// A serial window's records (reused).
    pub(super) window: Vec<Coded>,
}

/// The most records a segment may have to be read whole beside others.
pub(super) const SEGMENT_MAX: usize = 1 << 16;

impl<'a> Windows<'a> {
    /// Puts the next window's steps in `steps`; `false` when there is none.
    pub(super) fn next(&mut self, steps: &mut Vec<Step<'a>>) -> bool {
        let known = self.known;
        loop {
            if let Some(s) = self.ready.pop_front() {
                *steps = s;
                return true;
            }
            if let Some(it) = self.serial.as_mut() {
                self.window.clear();
                while self.window.len() < CLASSIFY_WINDOW
                    && let Some(c) = it.next_coded()
                {
                    self.window.push(c);
                }
                if !self.window.is_empty() {
                    let own: Vec<Own<'a>> = self
                        .window
                        .par_iter()
                        .with_min_len(64)
                        .filter(|c| known.own_timed(c))
                        .map(|c| {
                            read_own(
                                known
                                    .messages
                                    .get(c.message_id() as usize)
                                    .unwrap_or_default(),
                            )
                        })
                        .collect();
                    let mut own = own.into_iter();
                    let mut b = Steps::new(known);
                    for &c in &self.window {
                        b.add(c, it, |_| own.next().unwrap_or(Own::Fact(None)));
                    }
                    *steps = b.finish(it);
                    return true;
                }
                self.serial = None;
            }
            let Some(first) = self.segments.get(self.next) else {
                return false;
            };
            if self.threads > 1 && first.len() <= SEGMENT_MAX {
                let batch = &self.segments[self.next..];
                let n = batch
                    .iter()
                    .take(self.threads)
                    .take_while(|s| s.len() <= SEGMENT_MAX)
                    .count();
                self.next += n;
                let read: Vec<Vec<Step<'a>>> = batch[..n]
                    .par_iter()
                    .map(|s| {
                        let mut it = s.clone();
                        let mut b = Steps::new(known);
                        while let Some(c) = it.next_coded() {
                            b.add(c, &mut it, read_own);
                        }
                        b.finish(&mut it)
                    })
                    .collect();
                self.ready.extend(read);
            } else {
                self.serial = Some(first.clone());
                self.next += 1;
            }
        }
    }
}

/// How many distinct messages of a log have their facts kept (176 bytes each: under 3 MB).
pub(super) const FACT_CACHE: usize = 1 << 14;

/// How many records are classified on the pool at once.
pub(super) const CLASSIFY_WINDOW: usize = 1 << 13;
