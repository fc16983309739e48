//! Events, sync passes and container instances from CVO logs. Each log file is read in file
//! order (klog times are not monotonic within a file); a start-up banner starts a new
//! instance; a pass runs from its start line to `Result of work` or a sync failure.
//!
//! Most records only extend the state: a manifest line counts into the open pass, and any
//! record moves the instance's end. Those are folded into runs as the records are read (as
//! coded, on the pool, segment by segment), and a run is applied at once, so the scan applies
//! a few steps per pass, not every line; only the records a run keeps (its first, its latest,
//! its first manifest line) and those with other facts are read in full.

use super::catalogue::{Fact, ManifestLine, classify, manifest_line};
use super::model::*;
use crate::bundle::Bundle;
use crate::model::log_records::{Coded, Iter, Messages};
use crate::model::{CvoLog, LogRecord, Time, TimeCode};
use rayon::prelude::*;

/// What the CVO logs yield besides events.
#[derive(Debug, Default)]
pub struct LogScan {
    pub passes: Vec<Pass>,
    pub instances: Vec<Instance>,
    /// The fixed CVO's load-pipeline results, by time.
    pub loads: Vec<LoadRecord>,
    /// History merges where the release or `completed` changed, by time.
    pub merges: Vec<HistoryMergeRecord>,
}

/// Scans every CVO log, appending events to `out`.
pub fn extract(bundle: &Bundle, out: &mut Vec<TimelineEvent>) -> LogScan {
    let mut scan = LogScan::default();
    for log in &bundle.cvo_logs {
        scan_log(log, out, &mut scan);
    }
    scan.passes
        .sort_by(|a, b| (a.start, &a.pod, a.previous_log).cmp(&(b.start, &b.pod, b.previous_log)));
    scan.instances
        .sort_by(|a, b| (a.start, &a.pod, a.previous_log).cmp(&(b.start, &b.pod, b.previous_log)));
    scan.loads
        .sort_by(|a, b| (a.time, &a.evidence).cmp(&(b.time, &b.evidence)));
    scan.merges
        .sort_by(|a, b| (a.time, &a.evidence).cmp(&(b.time, &b.evidence)));
    scan.merges
        .dedup_by(|b, a| a.time == b.time && a.merge == b.merge);
    dedupe(&mut scan);
    scan
}

/// How far a copy of a pass got (the same pass read from two dumps of one log).
fn progress(p: &Pass) -> (bool, bool, u32, Option<Time>) {
    (
        p.ok.is_some(),
        p.sync_error.is_some(),
        p.manifests_done + p.manifests_started,
        p.end,
    )
}

/// The same container's log in two must-gathers (an earlier dump is a prefix of the later
/// one) gives each pass and instance twice: keep one, the furthest along.
fn dedupe(scan: &mut LogScan) {
    let mut passes: Vec<Pass> = Vec::with_capacity(scan.passes.len());
    for p in scan.passes.drain(..) {
        if let Some(last) = passes.last_mut()
            && last.pod == p.pod
            && last.start == p.start
            && last.target == p.target
            && last.attempt == p.attempt
        {
            let mut evidence = std::mem::take(&mut last.evidence);
            if progress(&p) > progress(last) {
                *last = p;
            }
            evidence.append(&mut last.evidence);
            evidence.dedup();
            last.evidence = evidence;
            continue;
        }
        passes.push(p);
    }
    scan.passes = passes;
    let mut instances: Vec<Instance> = Vec::with_capacity(scan.instances.len());
    for i in scan.instances.drain(..) {
        // A log without the start banner that begins where the same container's log ended
        // continues it: kubelet rotated the file (`logs/rotated/0.log.<time>` then
        // `current.log`). Without a banner there is no evidence of a restart.
        let continues = |last: &Instance| {
            last.pod == i.pod
                && last.previous_log == i.previous_log
                && i.build.is_none()
                && i.start >= last.end
        };
        if let Some(last) = instances.last_mut()
            && ((last.pod == i.pod && last.start == i.start) || continues(last))
        {
            last.previous_log |= i.previous_log;
            if i.end > last.end {
                last.end = i.end;
                last.end_evidence = i.end_evidence;
            }
            last.leader = min_opt(last.leader, i.leader);
            last.shutdown = min_opt(last.shutdown, i.shutdown);
            last.first_pass = min_opt(last.first_pass, i.first_pass);
            if last.leader_evidence.is_none() {
                last.leader_evidence = i.leader_evidence;
            }
            continue;
        }
        instances.push(i);
    }
    scan.instances = instances;
}

fn min_opt(a: Option<Time>, b: Option<Time>) -> Option<Time> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

struct State {
    pass: Option<Pass>,
    /// The time of the last record seen while the open pass had not ended.
    pass_last: Option<Time>,
    inst: Option<Instance>,
    last_desired: Option<EventKind>,
    last_sync_payload: Option<EventKind>,
    /// `Precreated resource` lines seen in the open pass.
    precreated: u32,
    /// The last history merge kept from this log.
    last_merge: Option<super::catalogue::HistoryMerge>,
}

fn evidence(log: &CvoLog, rec: &LogRecord<'_>) -> Evidence {
    let prov = log
        .prov
        .at(rec.line, rec.offset, rec.offset + u64::from(rec.len));
    // The message as logged (its first line); file and line are in the provenance.
    Evidence::new(prov, rec.message.lines().next().unwrap_or(""))
}

fn close_pass(st: &mut State, scan: &mut LogScan) {
    if let Some(mut p) = st.pass.take() {
        if p.end.is_none() {
            p.end = st.pass_last.map(|l| l.max(p.start));
        }
        scan.passes.push(p);
    }
    st.pass_last = None;
}

fn close_instance(st: &mut State, scan: &mut LogScan) {
    close_pass(st, scan);
    if let Some(i) = st.inst.take() {
        scan.instances.push(i);
    }
    st.last_desired = None;
    st.last_sync_payload = None;
}

fn scan_log(log: &CvoLog, out: &mut Vec<TimelineEvent>, scan: &mut LogScan) {
    let mut sc = Scanner::new(log);
    // Classifying messages is most of the work and depends on the text alone: each of the
    // first distinct messages is classified once, on the pool (a reconcile pass repeats a
    // few thousand); a message past them (a log of many distinct messages) is classified
    // with its window of records, so the facts held stay bounded.
    let recs = &log.records;
    let shared = recs.shared().min(FACT_CACHE);
    let messages = recs.messages();
    let shared_facts: Vec<Option<Fact>> = (0..shared)
        .into_par_iter()
        .with_min_len(64)
        .map(|id| classify(messages.get(id).unwrap_or_default()))
        .collect();
    let mut windows = Windows {
        segments: recs.segments().collect(),
        next: 0,
        serial: None,
        ready: std::collections::VecDeque::new(),
        known: Known {
            messages,
            shared,
            facts: &shared_facts,
        },
        threads: rayon::current_num_threads(),
        window: Vec::new(),
    };
    let mut steps: Vec<Step<'_>> = Vec::new();
    while windows.next(&mut steps) {
        for step in steps.drain(..) {
            match step {
                Step::Run(run) => sc.run(&run, scan, out),
                Step::Record(t, rec, said) => sc.record(t, &rec, said.fact(), scan, out),
            }
        }
    }
    settle_end(&mut sc.st, log, sc.end_rec.take());
    close_instance(&mut sc.st, scan);
}

/// One log's scan: what its records have built so far.
struct Scanner<'a> {
    log: &'a CvoLog,
    pod: &'a str,
    subject: Subject,
    st: State,
    /// The record that last moved the open instance's end: its evidence is built when the
    /// instance closes, not for every record.
    end_rec: Option<LogRecord<'a>>,
}

impl<'a> Scanner<'a> {
    fn new(log: &'a CvoLog) -> Self {
        let pod = if log.pod.is_empty() {
            "unknown"
        } else {
            log.pod.as_str()
        };
        Scanner {
            log,
            pod,
            subject: Subject::CvoPod(pod.into()),
            st: State {
                pass: None,
                pass_last: None,
                inst: None,
                last_desired: None,
                last_sync_payload: None,
                precreated: 0,
                last_merge: None,
            },
            end_rec: None,
        }
    }

    /// Opens an instance at `rec` when none is open (the log's first record) or when a
    /// start-up banner (`build`) starts a new one, closing the one before.
    fn open_instance(
        &mut self,
        t: Time,
        rec: &LogRecord<'a>,
        build: Option<&String>,
        scan: &mut LogScan,
    ) {
        if build.is_none() && self.st.inst.is_some() {
            return;
        }
        settle_end(&mut self.st, self.log, self.end_rec.take());
        close_instance(&mut self.st, scan);
        self.st.inst = Some(Instance {
            pod: self.pod.to_string(),
            previous_log: self.log.is_previous(),
            build: build.cloned(),
            start: t,
            end: t,
            leader: None,
            shutdown: None,
            first_pass: None,
            start_evidence: evidence(self.log, rec),
            end_evidence: evidence(self.log, rec),
            leader_evidence: None,
        });
    }

    /// Moves the open instance's end, and the open pass's last time, to `t` (the time of
    /// `rec`) when it is not earlier.
    fn extend(&mut self, t: Time, rec: &LogRecord<'a>) {
        if let Some(inst) = self.st.inst.as_mut()
            && t >= inst.end
        {
            inst.end = t;
            self.end_rec = Some(*rec);
        }
        if self.st.pass.as_ref().is_some_and(|p| p.end.is_none()) {
            self.st.pass_last = Some(self.st.pass_last.map_or(t, |l| l.max(t)));
        }
    }

    /// Applies a run of records that only extend the state: what they would do one by one.
    fn run(&mut self, run: &ReadRun<'a>, scan: &mut LogScan, out: &mut Vec<TimelineEvent>) {
        let (Some((first_t, first)), Some((t, latest))) = (run.first, run.latest) else {
            return;
        };
        self.open_instance(first_t, &first, None, scan);
        // The run's latest time is the last it moves the end to, and its last record with
        // that time the last to move it (a record moves it when not earlier).
        self.extend(t, &latest);
        self.manifests(run, out);
    }

    /// Counts a run's manifest lines into the open pass, and gives the pass's first manifest
    /// line its event.
    fn manifests(&mut self, run: &ReadRun<'_>, out: &mut Vec<TimelineEvent>) {
        let Some((t, rec, name, index, total)) = run.first_manifest else {
            return;
        };
        let Some(p) = self.st.pass.as_mut() else {
            return;
        };
        if p.ok.is_some() {
            return;
        }
        let first = !p.touched_manifests();
        p.manifests_done += run.done;
        p.max_index = p.max_index.max(run.max_index);
        p.manifests_started += run.started;
        p.total = Some(run.total);
        p.first_manifest.get_or_insert(t);
        let last = run.last_manifest.unwrap_or(t);
        p.last_manifest = Some(p.last_manifest.map_or(last, |l| l.max(last)));
        if first {
            out.push(TimelineEvent::new(
                t,
                EventSource::CvoLog,
                self.subject.clone(),
                EventKind::FirstManifest {
                    target: p.target.clone(),
                    manifest: name.to_string(),
                    index,
                    total,
                },
                format!(
                    "first manifest of the {} pass: {name} ({index} of {total})",
                    p.target
                ),
                evidence(self.log, &rec),
            ));
        }
    }

    /// Applies a record whose fact may change the state.
    fn record(
        &mut self,
        t: Time,
        rec: &LogRecord<'a>,
        fact: &Fact,
        scan: &mut LogScan,
        out: &mut Vec<TimelineEvent>,
    ) {
        let build = match fact {
            Fact::Event(EventKind::PodStart { build }, _) => Some(build),
            _ => None,
        };
        self.open_instance(t, rec, build, scan);
        self.extend(t, rec);
        if let Fact::Manifest {
            done,
            name,
            index,
            total,
        } = fact
        {
            let mut one = ReadRun::default();
            one.add(t, *rec, Some((*done, name, *index, *total)));
            self.manifests(&one, out);
            return;
        }
        let log = self.log;
        let pod = self.pod;
        let st = &mut self.st;
        let ev = || evidence(log, rec);
        let (mut kind, mut msg) = match fact {
            Fact::Manifest { .. } => return,
            Fact::Precreated => {
                st.precreated += 1;
                return;
            }
            Fact::HistoryMerge(m) => {
                if st.last_merge.as_ref() != Some(m) {
                    st.last_merge = Some(m.clone());
                    scan.merges.push(HistoryMergeRecord {
                        time: t,
                        merge: m.clone(),
                        evidence: ev(),
                    });
                }
                return;
            }
            Fact::Event(k, m) => (k.clone(), m.clone()),
            Fact::Load(k, m, load) => {
                scan.loads.push(LoadRecord {
                    time: t,
                    fact: load.clone(),
                    evidence: ev(),
                });
                (k.clone(), m.clone())
            }
        };
        match &mut kind {
            EventKind::PassStart {
                target,
                generation,
                state,
                attempt,
                force,
            } => {
                close_pass(st, scan);
                st.precreated = 0;
                if let Some(inst) = st.inst.as_mut() {
                    inst.first_pass.get_or_insert(t);
                }
                st.pass = Some(Pass {
                    pod: pod.to_string(),
                    previous_log: log.is_previous(),
                    start: t,
                    end: None,
                    style: if force.is_some() {
                        PassStyle::RunningSync
                    } else {
                        PassStyle::Apply
                    },
                    target: target.clone(),
                    force: *force,
                    generation: *generation,
                    state: state.clone(),
                    attempt: *attempt,
                    manifests_done: 0,
                    manifests_started: 0,
                    max_index: 0,
                    total: None,
                    first_manifest: None,
                    last_manifest: None,
                    payload_loaded: None,
                    ok: None,
                    errors: Vec::new(),
                    precondition_failures: Vec::new(),
                    sync_error: None,
                    evidence: vec![ev()],
                });
                st.pass_last = Some(t);
            }
            EventKind::PassResult { target, ok, errors } => {
                if st.precreated > 0
                    && st
                        .pass
                        .as_ref()
                        .is_some_and(|p| p.ok.is_none() && !p.touched_manifests())
                {
                    // The result of the ClusterOperator pre-creation graph; the pass goes on.
                    st.precreated = 0;
                    return;
                }
                if let Some(p) = st.pass.as_mut().filter(|p| p.ok.is_none()) {
                    *target = p.target.clone();
                    p.ok = Some(*ok);
                    p.errors = errors.clone();
                    p.end = Some(t.max(p.start));
                    p.evidence.push(ev());
                    let total = p.total.map_or("?".to_string(), |n| n.to_string());
                    msg = if *ok {
                        format!(
                            "pass for {} finished: {} of {total} manifests done, no errors",
                            p.target, p.manifests_done
                        )
                    } else {
                        format!(
                            "pass for {} finished: {} of {total} manifests done, {} error(s): {}",
                            p.target,
                            p.manifests_done,
                            errors.len(),
                            errors.join("; ")
                        )
                    };
                }
            }
            EventKind::SyncFailed { .. } => {
                if let Some(p) = st.pass.as_mut().filter(|p| p.sync_error.is_none()) {
                    p.sync_error = Some(
                        rec.message
                            .split_once("): ")
                            .map_or(rec.message.to_string(), |(_, s)| s.to_string()),
                    );
                    if p.end.is_none() {
                        p.end = Some(t.max(p.start));
                    }
                    p.evidence.push(ev());
                }
            }
            EventKind::PreconditionFailed { name, reason } => {
                if let Some(p) = open_legacy_pass(st) {
                    let message = rec
                        .message
                        .split_once(": ")
                        .map_or("", |(_, m)| m)
                        .to_string();
                    p.precondition_failures.push(PreconditionFailure {
                        time: t,
                        name: name.clone(),
                        reason: reason.clone(),
                        message,
                        evidence: ev(),
                    });
                }
            }
            EventKind::PayloadLoading { target } => {
                if let Some(p) = open_legacy_pass(st) {
                    *target = p.target.clone();
                    msg = format!("loading payload for {}", p.target);
                }
            }
            EventKind::PayloadLoaded { version, image } => {
                if let Some(p) = open_legacy_pass(st) {
                    p.payload_loaded.get_or_insert(t);
                    if p.target != *image {
                        *version = p.target.clone();
                    }
                }
            }
            EventKind::LeaderAcquired => {
                if let Some(inst) = st.inst.as_mut().filter(|i| i.leader.is_none()) {
                    inst.leader = Some(t);
                    inst.leader_evidence = Some(ev());
                }
            }
            EventKind::Shutdown => {
                let first = st.inst.as_mut().is_some_and(|i| i.shutdown.is_none());
                if let Some(inst) = st.inst.as_mut() {
                    inst.shutdown.get_or_insert(t);
                }
                if !first {
                    return;
                }
            }
            EventKind::DesiredUpdateSeen { .. } => {
                if st.last_desired.as_ref() == Some(&kind) {
                    return;
                }
                st.last_desired = Some(kind.clone());
            }
            EventKind::SyncPayload { .. } => {
                if st.last_sync_payload.as_ref() == Some(&kind) {
                    return;
                }
                st.last_sync_payload = Some(kind.clone());
            }
            _ => {}
        }
        out.push(TimelineEvent {
            time: t,
            source: EventSource::CvoLog,
            subject: self.subject.clone(),
            kind,
            message: msg,
            evidence: vec![ev()],
        });
    }
}

/// A stretch of records that only extend the state (no fact, or a manifest line), folded in
/// the order read: applying it leaves what applying its records one by one would. Records
/// without a time count for nothing and are not in it. Read with times as codes and records
/// as coded ([`CodedRun`]), then applied with them read ([`ReadRun`]).
#[derive(Debug, Clone, Copy)]
struct Run<'a, T, R> {
    /// The first record: it opens an instance when none is open.
    first: Option<(T, R)>,
    /// The latest time, and the last record with it (the last to move an instance's end).
    latest: Option<(T, R)>,
    /// `Done syncing` and `Running sync` lines.
    done: u32,
    started: u32,
    /// The highest index of the `Done syncing` lines (0 without one).
    max_index: u32,
    /// The last manifest line's total.
    total: u32,
    /// The first manifest line: its time, record, manifest, index and total.
    first_manifest: Option<(T, R, &'a str, u32, u32)>,
    /// The latest time of a manifest line.
    last_manifest: Option<T>,
}

type CodedRun<'a> = Run<'a, i128, Coded>;
type ReadRun<'a> = Run<'a, Time, LogRecord<'a>>;

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
    fn add(&mut self, t: T, rec: R, manifest: Option<ManifestLine<'a>>) {
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
enum Step<'a> {
    Run(ReadRun<'a>),
    Record(Time, LogRecord<'a>, Said<'a>),
}

/// A record's fact: cached for its message, or read with the record.
enum Said<'a> {
    Shared(&'a Fact),
    Own(Box<Fact>),
}

impl Said<'_> {
    fn fact(&self) -> &Fact {
        match self {
            Said::Shared(f) => f,
            Said::Own(f) => f,
        }
    }
}

/// What a message past the cached ones says, read with its record: a manifest line read in
/// place (the bulk of a pass: nothing is allocated for it), or its fact.
enum Own<'a> {
    Manifest(ManifestLine<'a>),
    Fact(Option<Fact>),
}

fn read_own(message: &str) -> Own<'_> {
    match manifest_line(message) {
        Some(m) => Own::Manifest(m),
        None => Own::Fact(classify(message)),
    }
}

/// A log's messages as the scan reads them: their texts, and the facts of the first
/// `shared` of them (one id per distinct text), classified once.
#[derive(Clone, Copy)]
struct Known<'a> {
    messages: &'a Messages,
    shared: usize,
    facts: &'a [Option<Fact>],
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
struct Steps<'a> {
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
struct Windows<'a> {
    segments: Vec<Iter<'a>>,
    next: usize,
    serial: Option<Iter<'a>>,
    ready: std::collections::VecDeque<Vec<Step<'a>>>,
    known: Known<'a>,
    threads: usize,
    /// A serial window's records (reused).
    window: Vec<Coded>,
}

/// The most records a segment may have to be read whole beside others.
const SEGMENT_MAX: usize = 1 << 16;

impl<'a> Windows<'a> {
    /// Puts the next window's steps in `steps`; `false` when there is none.
    fn next(&mut self, steps: &mut Vec<Step<'a>>) -> bool {
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
const FACT_CACHE: usize = 1 << 14;

/// How many records are classified on the pool at once.
const CLASSIFY_WINDOW: usize = 1 << 13;

/// Gives the open instance the evidence of the record that last moved its end.
fn settle_end(st: &mut State, log: &CvoLog, end_rec: Option<LogRecord<'_>>) {
    if let (Some(inst), Some(rec)) = (st.inst.as_mut(), end_rec) {
        inst.end_evidence = evidence(log, &rec);
    }
}

/// The open pass when it loads its own payload (≤4.8 `Running sync` passes); 4.9+ loads
/// happen outside the apply passes and concern another target.
fn open_legacy_pass(st: &mut State) -> Option<&mut Pass> {
    st.pass
        .as_mut()
        .filter(|p| p.style == PassStyle::RunningSync && p.ok.is_none() && !p.touched_manifests())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::klog::{parse_cvo_log, parse_cvo_log_in_blocks};
    use crate::model::Provenance;
    use crate::vocab::wants::LogFile;

    /// The scan applying every record on its own, in file order (no runs folded): what the
    /// folded scan must leave.
    fn scan_one_by_one(log: &CvoLog) -> (Vec<TimelineEvent>, LogScan) {
        let (mut out, mut scan) = (Vec::new(), LogScan::default());
        let mut sc = Scanner::new(log);
        for rec in &log.records {
            let Some(t) = rec.time else { continue };
            let mut one = ReadRun::default();
            if let Some(m) = manifest_line(rec.message) {
                one.add(t, rec, Some(m));
                sc.run(&one, &mut scan, &mut out);
                continue;
            }
            match classify(rec.message) {
                None => {
                    one.add(t, rec, None);
                    sc.run(&one, &mut scan, &mut out);
                }
                Some(f) => sc.record(t, &rec, &f, &mut scan, &mut out),
            }
        }
        settle_end(&mut sc.st, log, sc.end_rec.take());
        close_instance(&mut sc.st, &mut scan);
        (out, scan)
    }

    fn folded(log: &CvoLog) -> (Vec<TimelineEvent>, LogScan) {
        let (mut out, mut scan) = (Vec::new(), LogScan::default());
        scan_log(log, &mut out, &mut scan);
        (out, scan)
    }

    /// A log of restarts, passes (some failing, some cut short by a new pass), manifest lines
    /// (many repeated, more than the cached facts distinct), noise, continuation lines, lines
    /// without a year (no time until resolved), and times that repeat and go backwards.
    fn random_log(lines: usize, seed: u64) -> Vec<u8> {
        let mut x = seed;
        let mut rnd = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let mut out = Vec::new();
        let mut secs: i64 = 0;
        let mut i = 0;
        while i < lines {
            // Mostly forward, at one-second resolution so times repeat; now and then back.
            secs += rnd(3) as i64;
            if rnd(50) == 0 {
                secs -= rnd(20) as i64;
            }
            let s = secs.max(0);
            let (h, m, sec) = (s / 3600 % 24, s / 60 % 60, s % 60);
            let day = 1 + s / 86_400 % 28;
            let msg = match rnd(100) {
                0 => "ClusterVersionOperator v1.0.0-4.6.42".to_string(),
                1 => "successfully acquired lease openshift-cluster-version/version".to_string(),
                2..=5 => format!(
                    "Running sync 4.6.{} (force=false) on generation 1 in state Reconciling at attempt {}",
                    rnd(3),
                    rnd(2)
                ),
                6..=8 => "Result of work: []".to_string(),
                9 => "Result of work: [Cluster operator etcd is degraded]".to_string(),
                10 => "unable to synchronize image (waiting 59.03s): Precondition \"ClusterVersionUpgradeable\" failed because of \"X\": no".to_string(),
                11 => format!("Precreated resource clusteroperator \"co-{}\" (1 of 30)", rnd(5)),
                12 => "Shutting down ClusterVersionOperator".to_string(),
                13 => "Loading payload".to_string(),
                14..=20 => format!("Synced {} items", rnd(10)),
                // Manifest lines: a few hundred repeated names, and names of their own.
                _ => {
                    let name = if rnd(4) == 0 {
                        format!("configmap \"ns/own-{i}\"")
                    } else {
                        format!("configmap \"ns/cm-{}\"", rnd(300))
                    };
                    let verb = if rnd(2) == 0 {
                        "Running sync for"
                    } else {
                        "Done syncing for"
                    };
                    format!("{verb} {name} ({} of 680)", rnd(680))
                }
            };
            let header =
                format!("I06{day:02} {h:02}:{m:02}:{sec:02}.000000       1 x.go:1] {msg}\n");
            if rnd(40) == 0 {
                out.extend_from_slice(header.as_bytes());
            } else {
                out.extend_from_slice(
                    format!(
                        "2021-06-{day:02}T{h:02}:{m:02}:{sec:02}.{:09}Z {header}",
                        rnd(3)
                    )
                    .as_bytes(),
                );
            }
            if rnd(30) == 0 {
                out.extend_from_slice(b"  continued\n");
            }
            i += 1;
        }
        out
    }

    /// Asserts two lists are the same, naming the first element that differs (the lists are
    /// long).
    fn same_list<T: std::fmt::Debug>(a: &[T], b: &[T], what: &str) {
        let show = |x: &T| format!("{x:?}");
        if let Some(i) = (0..a.len().min(b.len())).find(|&i| show(&a[i]) != show(&b[i])) {
            panic!("{what}: #{i} differs:\n{}\n{}", show(&a[i]), show(&b[i]));
        }
        assert_eq!(a.len(), b.len(), "{what}: lengths");
    }

    fn same(log: &CvoLog, what: &str) {
        let ((events, scan), (events_1, scan_1)) = (folded(log), scan_one_by_one(log));
        assert!(
            scan_1.passes.len() > 10 && scan_1.instances.len() > 2,
            "{what}"
        );
        same_list(&events, &events_1, &format!("{what}, events"));
        same_list(&scan.passes, &scan_1.passes, &format!("{what}, passes"));
        same_list(
            &scan.instances,
            &scan_1.instances,
            &format!("{what}, instances"),
        );
    }

    /// Runs folded as the log is read leave what applying each record leaves: one segment
    /// read on one thread and (more than the most read beside others) on two, and many
    /// segments read side by side.
    #[test]
    fn folded_scan_matches_record_by_record() {
        let prov = || Provenance::detached("in", "current.log");
        let data = random_log(80_000, 0x9e37_79b9_7f4a_7c15);
        let whole = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current).0;
        assert!(whole.records.len() > SEGMENT_MAX);
        assert!(
            whole.records.shared() > FACT_CACHE,
            "own messages read with records"
        );
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let two = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        one.install(|| same(&whole, "one segment, one thread"));
        two.install(|| same(&whole, "one long segment, two threads"));
        let blocks = two.install(|| parse_cvo_log_in_blocks(&data, 64 << 10, prov(), "cvo".into()));
        assert!(blocks.records.segments().len() > 20);
        two.install(|| same(&blocks, "many segments, two threads"));
        // The folded scan is the same whichever way the log was read.
        let (a, b) = (
            two.install(|| folded(&blocks)),
            one.install(|| folded(&whole)),
        );
        same_list(&a.0, &b.0, "blocks against whole, events");
        same_list(&a.1.passes, &b.1.passes, "blocks against whole, passes");
        same_list(
            &a.1.instances,
            &b.1.instances,
            "blocks against whole, instances",
        );
    }
}
