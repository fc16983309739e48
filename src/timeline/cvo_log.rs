//! Events, sync passes and container instances from CVO logs. Each log file is read in file
//! order (klog times are not monotonic within a file); a start-up banner starts a new
//! instance; a pass runs from its start line to `Result of work` or a sync failure.
//!
//! Most records only extend the state: a manifest line counts into the open pass, and any
//! record moves the instance's end. Those are folded into runs as the records are read (as
//! coded, on the pool, segment by segment), and a run is applied at once, so the scan applies
//! a few steps per pass, not every line; only the records a run keeps (its first, its latest,
//! its first manifest line) and those with other facts are read in full.
//!
//! The files: this one holds the scan's state and what each step does to it; `steps` folds
//! the records into those steps, window by window; `tests` checks the folded scan against
//! one that applies every record on its own.

use super::catalogue::{Fact, classify, text::PreconditionCheck};
use super::model::*;
use crate::bundle::Bundle;
use crate::model::{CvoLog, LogRecord, Time};
use rayon::prelude::*;
use steps::{FACT_CACHE, Known, ReadRun, Step, Windows};

mod steps;
#[cfg(test)]
mod tests;

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
    // A steady year's passes are megabytes (16 k of them, 8 MB): no room doubled past them,
    // and sorted without a scratch copy.
    scan.passes.shrink_to_fit();
    super::merge::sort_in_place(&mut scan.passes, |a, b| {
        (a.start, &a.pod, a.previous_log).cmp(&(b.start, &b.pod, b.previous_log))
    });
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
    // In place (no second vector of the passes beside the first).
    scan.passes.dedup_by(|p, last| {
        if !(last.pod == p.pod
            && last.start == p.start
            && last.target == p.target
            && last.attempt == p.attempt)
        {
            return false;
        }
        let mut evidence = std::mem::take(&mut last.evidence);
        if progress(p) > progress(last) {
            std::mem::swap(last, p);
        }
        evidence.append(&mut last.evidence);
        evidence.dedup();
        last.evidence = evidence;
        true
    });
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
                        check: PreconditionCheck::logged(name, reason.as_deref(), message),
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
