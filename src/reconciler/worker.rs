//! The sync worker: its work (target, state, attempt, completed passes), the loaded payload,
//! the target being loaded, the load pipeline as scripted outcomes (fixed: inside Update;
//! legacy: at the start of every pass) and the status-report filter (cvo-reference §5, §6).

use super::errors::{Failure, UpdateError, default_effect, go_quote, operator_message};
use super::errors::{is_operator_reason, summarize_task_errors};
use super::load::{Evaluated, arch_or_default, evaluate, payload_loaded_message};
use super::scenario::{LoadOutcome, LoadStep, PassProgress, PassResult};
use super::semantics::{Flavour, Semantics};
use super::status::{LoadStatus, WorkerStatus, version_string};
use crate::model::{HistoryEntry, Release, Time};
use serde::Serialize;
use std::collections::BTreeMap;

/// The worker's state (cvo-reference §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum WorkerState {
    Initializing,
    Updating,
    Reconciling,
}

impl WorkerState {
    pub fn as_str(&self) -> &'static str {
        match self {
            WorkerState::Initializing => "Initializing",
            WorkerState::Updating => "Updating",
            WorkerState::Reconciling => "Reconciling",
        }
    }
}

/// The work the apply loop runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Work {
    /// The target release (image, version as requested, force).
    pub target: Release,
    pub generation: i64,
    pub state: WorkerState,
    pub attempt: u32,
    pub completed: u32,
}

/// A loaded payload.
#[derive(Debug, Clone, PartialEq)]
pub struct Payload {
    pub release: Release,
    pub verified: bool,
    pub local: bool,
    pub hash: String,
    pub architecture: String,
}

/// A target going through the load pipeline (fixed), or whose checks run at the start of each
/// pass (legacy), with the scripted outcome once known.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub target: Release,
    pub outcome: Option<LoadOutcome>,
}

/// What the worker reads from its surroundings for one event.
pub struct Ctx<'a> {
    pub sem: &'a Semantics,
    /// The CVO pod's own release and its payload hash.
    pub operator: &'a Release,
    pub operator_hash: &'a str,
    pub now: Time,
    pub notes: &'a mut Vec<String>,
    pub co_started: &'a mut BTreeMap<String, Time>,
    /// Outcomes scripted ahead of time, by image.
    pub scripts: &'a BTreeMap<String, LoadOutcome>,
}

impl Ctx<'_> {
    fn note(&mut self, s: String) {
        self.notes.push(s);
    }
}

/// The sync worker.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Worker {
    pub work: Option<Work>,
    pub payload: Option<Payload>,
    pub candidate: Option<Candidate>,
    pub status: WorkerStatus,
}

/// Whether the status-report filter forwarded a report and bumped LastProgress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportDecision {
    pub forwarded: bool,
    pub progress: bool,
}

fn fraction(s: &WorkerStatus) -> f32 {
    match s.total {
        0 => 0.0,
        t => s.done as f32 / t as f32,
    }
}

/// The statusWrapper rules (cvo-reference §5.7): drops a failure-free report for the same
/// image with a lower fraction after a failed one; sets LastProgress; inherits generation 0.
pub fn filter_report(prev: &WorkerStatus, next: &mut WorkerStatus, now: Time) -> ReportDecision {
    if next.generation == 0 {
        next.generation = prev.generation;
    }
    let same_image = next.actual.image == prev.actual.image;
    if next.failure.is_none()
        && prev.failure.is_some()
        && same_image
        && fraction(next) < fraction(prev)
    {
        return ReportDecision {
            forwarded: false,
            progress: false,
        };
    }
    let progress = fraction(next) > fraction(prev)
        || next.completed > prev.completed
        || (next.failure.is_none() && !same_image);
    next.last_progress = if progress {
        Some(now)
    } else {
        prev.last_progress
    };
    ReportDecision {
        forwarded: true,
        progress,
    }
}

fn same_target(a: &Release, b: &Release) -> bool {
    a.image == b.image && a.force.unwrap_or(false) == b.force.unwrap_or(false)
}

/// The initial state for the worker's first work (cvo-reference §5.1 step 4).
pub fn initial_state(history: &[HistoryEntry], desired: &Release) -> WorkerState {
    if !history.iter().any(HistoryEntry::is_completed) {
        WorkerState::Initializing
    } else if history[0].is_completed() && history[0].image == desired.image {
        WorkerState::Reconciling
    } else {
        WorkerState::Updating
    }
}

fn in_progress(o: &LoadOutcome) -> bool {
    o.step == LoadStep::RetrievePayload && o.failure == Some(false)
}

/// A pass event.
pub enum Pass<'a> {
    Progress(&'a PassProgress),
    Result(&'a PassResult),
}

impl Worker {
    pub fn initialized(&self) -> bool {
        self.work.is_some()
    }

    /// Forwards an apply-loop report through the filter, keeping the load fields.
    fn report(&mut self, cx: &mut Ctx<'_>, mut next: WorkerStatus) {
        next.load = self.status.load.clone();
        next.implicitly_enabled = self.status.implicitly_enabled.clone();
        if next.generation != 0 && next.generation < self.status.generation {
            cx.note(format!(
                "Received a Generation({}) lower than previously known Generation({}), this is most probably an internal error",
                next.generation, self.status.generation
            ));
        }
        match filter_report(&self.status, &mut next, cx.now).forwarded {
            true => self.status = next,
            false => cx.note("Dropping status report from earlier in sync loop".into()),
        }
    }

    /// A report for the current work and payload, starting from the last one.
    fn base_report(&self) -> WorkerStatus {
        let mut s = WorkerStatus {
            done: self.status.done,
            total: self.status.total,
            ..Default::default()
        };
        if let Some(w) = &self.work {
            s.generation = w.generation;
            s.completed = w.completed;
            s.reconciling = w.state == WorkerState::Reconciling;
            s.initial = w.state == WorkerState::Initializing;
        }
        if let Some(p) = &self.payload {
            s.actual = p.release.clone();
            s.actual.force = self.work.as_ref().and_then(|w| w.target.force);
            s.verified = p.verified;
            s.version_hash = p.hash.clone();
        }
        s
    }

    fn start_pass_report(&mut self, cx: &mut Ctx<'_>) {
        let next = WorkerStatus {
            done: 0,
            total: 0,
            ..self.base_report()
        };
        self.report(cx, next);
    }

    fn local_payload(cx: &Ctx<'_>) -> Payload {
        Payload {
            release: Release {
                architecture: String::new(),
                force: None,
                ..cx.operator.clone()
            },
            verified: false,
            local: true,
            hash: cx.operator_hash.to_string(),
            architecture: arch_or_default("", cx.operator),
        }
    }

    fn set_loaded_status(&mut self, cx: &Ctx<'_>, target: &Release, risks: String, reset: bool) {
        let Some(p) = &self.payload else { return };
        let message = match reset {
            true => format!(
                "Payload loaded version={} image={}",
                go_quote(&p.release.version),
                go_quote(&p.release.image)
            ),
            false => payload_loaded_message(
                &p.release.version,
                &p.release.image,
                &p.architecture,
                cx.sem,
            ),
        };
        self.status.load = LoadStatus {
            step: "PayloadLoaded".into(),
            message,
            failure: false,
            update: target.clone(),
            accepted_risks: risks,
            local: p.local,
        };
    }

    /// The first Operator.sync after a pod start: `target` (the CVO's own release, or before
    /// 4.14 a spec target with the same image) is loaded locally.
    pub fn init(
        &mut self,
        cx: &mut Ctx<'_>,
        generation: i64,
        history: &[HistoryEntry],
        target: &Release,
    ) {
        let target = Release {
            url: String::new(),
            channels: Vec::new(),
            architecture: String::new(),
            ..target.clone()
        };
        let state = initial_state(history, &target);
        self.payload = Some(Worker::local_payload(cx));
        self.work = Some(Work {
            target: target.clone(),
            generation,
            state,
            attempt: 0,
            completed: 0,
        });
        self.candidate = None;
        self.set_loaded_status(cx, &target, String::new(), false);
        cx.co_started.clear();
        cx.note(format!(
            "worker starts on {} in state {}",
            version_string(&target),
            state.as_str()
        ));
        self.start_pass_report(cx);
    }

    /// Replaces the work (`calculateNextFrom`): Updating unless Initializing, attempt 0.
    fn change_work(&mut self, cx: &mut Ctx<'_>, target: &Release) {
        let Some(w) = self.work.as_mut() else { return };
        let from = w.state;
        if from != WorkerState::Initializing {
            w.state = WorkerState::Updating;
            cx.note(format!(
                "Work changed, transitioning from {} to Updating",
                from.as_str()
            ));
        }
        w.target = target.clone();
        w.attempt = 0;
        w.completed = 0;
        cx.co_started.clear();
    }

    /// Accepts a target whose payload is loaded; the apply loop starts a pass on it.
    fn accept(&mut self, cx: &mut Ctx<'_>, target: &Release, payload: Option<Payload>) {
        if let Some(p) = payload {
            self.payload = Some(p);
        }
        self.candidate = None;
        self.change_work(cx, target);
        self.start_pass_report(cx);
    }

    /// `SyncWorker.Update`: called by every Operator.sync with the desired release.
    pub fn update(&mut self, cx: &mut Ctx<'_>, generation: i64, desired: &Release) {
        let Some(work) = self.work.as_mut() else {
            return;
        };
        work.generation = generation;
        if same_target(&work.target, desired) {
            if cx.sem.flavour == Flavour::Fixed {
                self.candidate = None;
                if self.status.load.update.image != desired.image {
                    cx.note("Resetting payload status to currently loaded payload.".into());
                    self.set_loaded_status(cx, desired, String::new(), true);
                }
            }
            return;
        }
        if work.state == WorkerState::Initializing && work.target.image != desired.image {
            let (old, new) = (version_string(&work.target), version_string(desired));
            cx.note(format!(
                "Ignoring detected version change from {old} to {new} during payload initialization"
            ));
            return;
        }
        match cx.sem.flavour {
            Flavour::Fixed => self.update_fixed(cx, desired),
            Flavour::Legacy => self.update_legacy(cx, desired),
        }
    }

    fn update_fixed(&mut self, cx: &mut Ctx<'_>, desired: &Release) {
        let loaded = self
            .payload
            .as_ref()
            .map(|p| p.release.image.clone())
            .unwrap_or_default();
        if desired.image == loaded {
            self.accept(cx, desired, None);
            self.set_loaded_status(cx, desired, String::new(), true);
            return;
        }
        if desired.image == cx.operator.image {
            let p = Worker::local_payload(cx);
            self.accept(cx, desired, Some(p));
            self.set_loaded_status(cx, desired, String::new(), false);
            return;
        }
        if !self
            .candidate
            .as_ref()
            .is_some_and(|c| same_target(&c.target, desired))
        {
            let outcome = cx.scripts.get(&desired.image).cloned();
            self.candidate = Some(Candidate {
                target: desired.clone(),
                outcome,
            });
        }
        let outcome = self.candidate.as_ref().and_then(|c| c.outcome.clone());
        let evaluated = outcome.map(|o| evaluate(&o, desired, cx.sem, cx.operator));
        match evaluated {
            None | Some(Evaluated::InProgress) => {
                let message = format!(
                    "Retrieving and verifying payload version={} image={}",
                    go_quote(&desired.version),
                    go_quote(&desired.image)
                );
                self.status.load = LoadStatus {
                    step: "RetrievePayload".into(),
                    message,
                    update: desired.clone(),
                    ..Default::default()
                };
            }
            Some(Evaluated::Accepted { payload, risks }) => {
                self.accept(cx, desired, Some(payload));
                self.set_loaded_status(cx, desired, risks, false);
            }
            Some(Evaluated::Rejected(r)) => {
                self.status.load = LoadStatus {
                    step: r.step.into(),
                    message: r.load_message,
                    failure: true,
                    update: desired.clone(),
                    ..Default::default()
                };
            }
        }
    }

    fn update_legacy(&mut self, cx: &mut Ctx<'_>, desired: &Release) {
        let loaded = self
            .payload
            .as_ref()
            .map(|p| p.release.image.clone())
            .unwrap_or_default();
        if desired.image != loaded && desired.image == cx.operator.image {
            self.payload = Some(Worker::local_payload(cx));
            self.accept(cx, desired, None);
        } else if desired.image == loaded {
            self.accept(cx, desired, None);
        } else {
            self.change_work(cx, desired);
            let outcome = cx.scripts.get(&desired.image).cloned();
            self.candidate = Some(Candidate {
                target: desired.clone(),
                outcome,
            });
            // The pass starts by retrieving the target: Actual is the target as requested.
            let mut next = self.base_report();
            next.actual = desired.clone();
            next.verified = false;
            next.step = "RetrievePayload".into();
            next.done = 0;
            next.total = 0;
            self.report(cx, next);
            // Checks scripted ahead of time run at once, as the first thing of this pass.
            if self.candidate.as_ref().is_some_and(|c| c.outcome.is_some()) {
                self.legacy_checks(cx);
            }
        }
        self.status.load.update = desired.clone();
        self.status.load.local = desired.image == cx.operator.image;
    }

    /// Records a scripted load outcome for the target being loaded. Legacy resolves the checks
    /// of the running pass at once; fixed evaluates it in the next Update.
    pub fn load_outcome(&mut self, cx: &mut Ctx<'_>, outcome: &LoadOutcome) {
        let for_candidate = self
            .candidate
            .as_ref()
            .is_some_and(|c| outcome.image.is_empty() || c.target.image == outcome.image);
        if !outcome.image.is_empty() && !for_candidate {
            return;
        }
        let Some(c) = self.candidate.as_mut() else {
            cx.note("load outcome ignored: no payload is being loaded".into());
            return;
        };
        c.outcome = Some(outcome.clone());
        if cx.sem.flavour == Flavour::Legacy {
            self.legacy_checks(cx);
        }
    }

    /// Runs the legacy checks of the target at the start of a pass; `true` when the payload
    /// loaded and the pass goes on to apply it.
    fn legacy_checks(&mut self, cx: &mut Ctx<'_>) -> bool {
        let Some(c) = self.candidate.clone() else {
            return true;
        };
        let Some(o) = &c.outcome else { return false };
        match evaluate(o, &c.target, cx.sem, cx.operator) {
            Evaluated::InProgress => false,
            Evaluated::Accepted { payload, risks } => {
                self.payload = Some(payload);
                self.candidate = None;
                self.status.load.accepted_risks = risks;
                let next = self.base_report();
                self.report(cx, next);
                true
            }
            Evaluated::Rejected(r) => {
                let mut next = self.base_report();
                next.actual = Release {
                    version: r.version,
                    ..c.target.clone()
                };
                next.verified = r.verified;
                next.failure = Some(Failure::Update(r.error));
                next.completed = 0;
                if let Some(w) = self.work.as_mut() {
                    w.completed = 0;
                    w.attempt = w.attempt.saturating_add(1);
                }
                self.report(cx, next);
                false
            }
        }
    }

    /// A pass event; returns the release whose manifests the pass applied, if any.
    pub fn pass(&mut self, cx: &mut Ctx<'_>, pass: Pass<'_>) -> Option<String> {
        if self.work.is_none() {
            cx.note("pass ignored: the worker has no work".into());
            return None;
        }
        if cx.sem.flavour == Flavour::Legacy {
            if let Some(c) = &self.candidate {
                if c.outcome.as_ref().is_none_or(in_progress) {
                    let t = version_string(&c.target);
                    cx.note(format!("pass ignored: {t} is still being retrieved and verified (script a `load_outcome`)"));
                    return None;
                }
                if !self.legacy_checks(cx) {
                    cx.note("the pass stopped at the payload checks; no manifests applied".into());
                    return None;
                }
            }
        }
        let applied = self.payload.as_ref().map(|p| version_string(&p.release));
        match pass {
            Pass::Progress(p) => {
                let next = WorkerStatus {
                    done: p.done,
                    total: p.total,
                    ..self.base_report()
                };
                self.report(cx, next);
            }
            Pass::Result(r) => self.pass_result(cx, r),
        }
        applied
    }

    fn pass_result(&mut self, cx: &mut Ctx<'_>, r: &PassResult) {
        let sem = cx.sem;
        let Some(work) = self.work.as_mut() else {
            return;
        };
        let initializing = work.state == WorkerState::Initializing;
        let errs: Vec<UpdateError> = r
            .errors
            .iter()
            .map(|e| {
                let message = match e.message.is_empty() {
                    false => e.message.clone(),
                    true => operator_message(&e.reason, &e.name, sem)
                        .unwrap_or_else(|| e.reason.clone()),
                };
                let effect = e
                    .effect
                    .unwrap_or_else(|| default_effect(&e.reason, initializing));
                UpdateError {
                    reason: e.reason.clone(),
                    message,
                    effect,
                    name: e.name.clone(),
                    ..Default::default()
                }
            })
            .collect();
        let report_only = sem.effect_based_progress()
            && !errs.is_empty()
            && errs
                .iter()
                .all(|e| e.effect == super::errors::Effect::Report);
        let total = r.total.unwrap_or(self.status.total);
        if errs.is_empty() || report_only {
            work.completed = work.completed.saturating_add(1);
            let from = work.state;
            work.state = WorkerState::Reconciling;
            work.attempt = if sem.attempt_resets_on_success() {
                0
            } else {
                work.attempt.saturating_add(1)
            };
            if from != WorkerState::Reconciling {
                cx.note(format!(
                    "Sync succeeded, transitioning from {} to Reconciling",
                    from.as_str()
                ));
            }
            cx.co_started.clear();
            let mut next = self.base_report();
            next.total = total;
            next.done = r.done.unwrap_or(total);
            next.failure = summarize_task_errors(errs, sem).map(Failure::Update);
            self.report(cx, next);
        } else {
            if work.attempt == 0 {
                cx.co_started.clear();
            }
            for e in errs
                .iter()
                .filter(|e| is_operator_reason(&e.reason) && !e.name.is_empty())
            {
                cx.co_started.entry(e.name.clone()).or_insert(cx.now);
            }
            work.completed = 0;
            work.attempt = work.attempt.saturating_add(1);
            let mut next = self.base_report();
            next.total = total;
            next.done = r.done.unwrap_or(self.status.done);
            next.failure = summarize_task_errors(errs, sem).map(Failure::Update);
            self.report(cx, next);
        }
    }
}
