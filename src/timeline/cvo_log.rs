//! Events, sync passes and container instances from CVO logs. Each log file is read in file
//! order (klog times are not monotonic within a file); a start-up banner starts a new
//! instance; a pass runs from its start line to `Result of work` or a sync failure.

use super::catalogue::{Fact, ManifestLine, classify, manifest_line};
use super::model::*;
use crate::bundle::Bundle;
use crate::model::{CvoLog, LogRecord, Time};
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
    let pod = if log.pod.is_empty() {
        "unknown"
    } else {
        log.pod.as_str()
    };
    let subject = format!("cvo-pod/{pod}");
    let mut st = State {
        pass: None,
        pass_last: None,
        inst: None,
        last_desired: None,
        last_sync_payload: None,
        precreated: 0,
        last_merge: None,
    };
    // The record that last moved the open instance's end: its evidence is built when the
    // instance closes, not for every record.
    let mut end_rec: Option<LogRecord<'_>> = None;
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
        shared,
        threads: rayon::current_num_threads(),
    };
    // Reused from window to window where they can be.
    let mut window: Vec<LogRecord<'_>> = Vec::with_capacity(CLASSIFY_WINDOW);
    let mut own: Vec<Option<Fact>> = Vec::new();
    let mut todo: Vec<usize> = Vec::new();
    let mut manifests: Vec<Option<ManifestLine<'_>>> = Vec::new();
    while windows.next(&mut window, &mut manifests) {
        let own_message = |r: &LogRecord<'_>| r.message_id as usize >= shared;
        todo.clear();
        todo.extend(
            (0..window.len())
                .filter(|&k| manifests[k].is_none() && classified_here(shared, &window[k])),
        );
        todo.par_iter()
            .with_min_len(64)
            .map(|&k| classify(window[k].message))
            .collect_into_vec(&mut own);
        let mut next_own = todo.iter().zip(&own).peekable();
        for (k, rec) in window.iter().enumerate() {
            let Some(t) = rec.time else { continue };
            let fact: Option<Found<'_>> = if own_message(rec) {
                match manifests.get(k).copied().flatten() {
                    Some(m) => Some(Found::Manifest(m)),
                    None => next_own
                        .next_if(|(at, _)| **at == k)
                        .and_then(|(_, f)| f.as_ref())
                        .map(Found::Fact),
                }
            } else {
                shared_facts
                    .get(rec.message_id as usize)
                    .and_then(Option::as_ref)
                    .map(Found::Fact)
            };
            let ev = || evidence(log, rec);
            let build = match fact {
                Some(Found::Fact(Fact::Event(EventKind::PodStart { build }, _))) => Some(build),
                _ => None,
            };
            if build.is_some() || st.inst.is_none() {
                settle_end(&mut st, log, end_rec.take());
                close_instance(&mut st, scan);
                st.inst = Some(Instance {
                    pod: pod.to_string(),
                    previous_log: log.is_previous(),
                    build: build.cloned(),
                    start: t,
                    end: t,
                    leader: None,
                    shutdown: None,
                    first_pass: None,
                    start_evidence: ev(),
                    end_evidence: ev(),
                    leader_evidence: None,
                });
            }
            if let Some(inst) = st.inst.as_mut()
                && t >= inst.end
            {
                inst.end = t;
                end_rec = Some(*rec);
            }
            if st.pass.as_ref().is_some_and(|p| p.end.is_none()) {
                st.pass_last = Some(st.pass_last.map_or(t, |l| l.max(t)));
            }
            let fact = match fact {
                None => continue,
                Some(Found::Manifest((done, name, index, total))) => {
                    manifest(&mut st, t, done, name, index, total, &subject, &ev, out);
                    continue;
                }
                Some(Found::Fact(f)) => f,
            };
            let (mut kind, mut msg) = match fact {
                Fact::Manifest {
                    done,
                    name,
                    index,
                    total,
                } => {
                    manifest(&mut st, t, *done, name, *index, *total, &subject, &ev, out);
                    continue;
                }
                Fact::Precreated => {
                    st.precreated += 1;
                    continue;
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
                    continue;
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
                    close_pass(&mut st, scan);
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
                        continue;
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
                    if let Some(p) = open_legacy_pass(&mut st) {
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
                    if let Some(p) = open_legacy_pass(&mut st) {
                        *target = p.target.clone();
                        msg = format!("loading payload for {}", p.target);
                    }
                }
                EventKind::PayloadLoaded { version, image } => {
                    if let Some(p) = open_legacy_pass(&mut st) {
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
                        continue;
                    }
                }
                EventKind::DesiredUpdateSeen { .. } => {
                    if st.last_desired.as_ref() == Some(&kind) {
                        continue;
                    }
                    st.last_desired = Some(kind.clone());
                }
                EventKind::SyncPayload { .. } => {
                    if st.last_sync_payload.as_ref() == Some(&kind) {
                        continue;
                    }
                    st.last_sync_payload = Some(kind.clone());
                }
                _ => {}
            }
            out.push(TimelineEvent {
                time: t,
                source: EventSource::CvoLog,
                subject: subject.clone(),
                kind,
                message: msg,
                evidence: vec![ev()],
            });
        }
    }
    settle_end(&mut st, log, end_rec);
    close_instance(&mut st, scan);
}

/// The records of a log, window by window, each with its manifest lines read (see
/// [`manifest_of`]): with more than one thread, the next few segments (one per parsed block)
/// are decoded side by side on the pool, each a window; a segment of more than
/// [`SEGMENT_MAX`] records (a log parsed on one thread is one segment) is decoded here,
/// [`CLASSIFY_WINDOW`] records at a time.
struct Windows<'l> {
    segments: Vec<crate::model::log_records::Iter<'l>>,
    next: usize,
    serial: Option<crate::model::log_records::Iter<'l>>,
    ready: std::collections::VecDeque<Window<'l>>,
    shared: usize,
    threads: usize,
}

/// A window's records and, for each, its manifest line when it is one read in place.
type Window<'l> = (Vec<LogRecord<'l>>, Vec<Option<ManifestLine<'l>>>);

/// The most records a segment may have to be decoded whole beside others (80 bytes each
/// while held).
const SEGMENT_MAX: usize = 1 << 16;

/// A record's manifest line, read in place, when its message is past the cached ones (those
/// have their facts already) and it has a time: a manifest line is most of a pass, and
/// allocates nothing this way; the window's other messages of their own go to the pool.
fn manifest_of<'l>(shared: usize, r: &LogRecord<'l>) -> Option<ManifestLine<'l>> {
    classified_here(shared, r)
        .then(|| manifest_line(r.message))
        .flatten()
}

/// Whether a record's message is classified with its window (past the `shared` cached ids)
/// and the record counts for the timeline (it has a time).
fn classified_here(shared: usize, r: &LogRecord<'_>) -> bool {
    r.message_id as usize >= shared && r.time.is_some()
}

impl<'l> Windows<'l> {
    /// Puts the next window in `window` and `manifests`; `false` when there is none.
    fn next(
        &mut self,
        window: &mut Vec<LogRecord<'l>>,
        manifests: &mut Vec<Option<ManifestLine<'l>>>,
    ) -> bool {
        let shared = self.shared;
        loop {
            if let Some((w, m)) = self.ready.pop_front() {
                (*window, *manifests) = (w, m);
                return true;
            }
            if let Some(it) = self.serial.as_mut() {
                window.clear();
                window.extend(it.by_ref().take(CLASSIFY_WINDOW));
                if !window.is_empty() {
                    manifests.clear();
                    manifests.extend(window.iter().map(|r| manifest_of(shared, r)));
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
                let decoded: Vec<Window<'l>> = batch[..n]
                    .par_iter()
                    .map(|s| {
                        let records: Vec<LogRecord<'l>> = s.clone().collect();
                        let m = records.iter().map(|r| manifest_of(shared, r)).collect();
                        (records, m)
                    })
                    .collect();
                self.ready.extend(decoded);
            } else {
                self.serial = Some(first.clone());
                self.next += 1;
            }
        }
    }
}

/// What a record says: a fact classified on the pool (or cached for its message), or a
/// manifest line read in place (the bulk of a pass: nothing is allocated for it).
#[derive(Clone, Copy)]
enum Found<'a> {
    Fact(&'a Fact),
    Manifest(ManifestLine<'a>),
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

#[allow(clippy::too_many_arguments)]
fn manifest(
    st: &mut State,
    t: Time,
    done: bool,
    name: &str,
    index: u32,
    total: u32,
    subject: &str,
    ev: &dyn Fn() -> Evidence,
    out: &mut Vec<TimelineEvent>,
) {
    let Some(p) = st.pass.as_mut() else { return };
    if p.ok.is_some() {
        return;
    }
    let first = !p.touched_manifests();
    if done {
        p.manifests_done += 1;
        p.max_index = p.max_index.max(index);
    } else {
        p.manifests_started += 1;
    }
    p.total = Some(total);
    p.first_manifest.get_or_insert(t);
    p.last_manifest = Some(p.last_manifest.map_or(t, |l| l.max(t)));
    if first {
        out.push(TimelineEvent::new(
            t,
            EventSource::CvoLog,
            subject,
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
            ev(),
        ));
    }
}
