//! The sync worker's state: its work (target, state, attempt, completed passes, capabilities),
//! the loaded payload, the target being loaded, what it reads for one event ([`Ctx`]), and the
//! status it reports through the statusWrapper rules (cvo-reference §5, §5.7). The leaf of the
//! worker: `SyncWorker.Update`, the load pipeline and the apply loop's passes (the sibling
//! modules) change this state; it imports none of them.

use crate::model::{HistoryEntry, Release, Time};
use crate::reconciler::model::capabilities::Capabilities;
use crate::reconciler::model::events::LoadOutcome;
use crate::reconciler::model::input::{WorkerStatus, version_string};
use crate::reconciler::model::preconditions::{CheckResult, PreconditionInput};
use crate::reconciler::model::semantics::Semantics;
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
    /// The state's name, as serde spells it (`Reconciling`).
    pub fn as_str(&self) -> &'static str {
        crate::vocab::names::serde_name(self)
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
    pub caps: Capabilities,
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
/// pass (legacy), with the scripted outcome once known. A target that is the CVO's own image
/// is `local`: it loads from the pod's own manifests, without verification or preconditions.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub target: Release,
    pub outcome: Option<LoadOutcome>,
    pub local: bool,
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
    /// Capabilities the CVO always enables (`--always-enable-capabilities`).
    pub always_caps: &'a [String],
    /// What the computed precondition checks read, when the scenario computes them.
    pub pre: Option<PreconditionInput<'a>>,
    /// The results of the last computed precondition run.
    pub checks_run: &'a mut Option<Vec<CheckResult>>,
}

impl Ctx<'_> {
    pub(super) fn note(&mut self, s: String) {
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
    /// The status when the running pass started, as far as the statusWrapper compares every
    /// report of the pass with it.
    pub pass_base: Option<ReportBase>,
    /// The first report of the apply loop on new work, which Operator.sync sees only at the
    /// next sync (fixed flavour): `SyncWorker.Update` returns the status from before it, and
    /// the target's url and verification arrive with `SyncWorker.apply`'s report.
    pub pending: Option<WorkerStatus>,
}

/// Whether the status-report filter forwarded a report and bumped LastProgress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportDecision {
    pub forwarded: bool,
    pub progress: bool,
}

/// What the statusWrapper reads of the status a report is compared with: its generation,
/// image, whether it failed, and its progress. Kept for a pass instead of the whole status
/// (whose capability lists made a copy per pass the bulk of a steady year's replay).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReportBase {
    pub generation: i64,
    pub image: String,
    pub failed: bool,
    pub done: u32,
    pub total: u32,
    pub completed: u32,
}

impl ReportBase {
    pub fn of(s: &WorkerStatus) -> Self {
        ReportBase {
            generation: s.generation,
            image: s.actual.image.clone(),
            failed: s.failure.is_some(),
            done: s.done,
            total: s.total,
            completed: s.completed,
        }
    }
}

fn fraction(done: u32, total: u32) -> f32 {
    match total {
        0 => 0.0,
        t => done as f32 / t as f32,
    }
}

/// The statusWrapper rules (cvo-reference §5.7) against the status the pass started from:
/// drops a failure-free report for the same image with a lower fraction after a failed one;
/// sets LastProgress on progress and clears it otherwise (a report replaces the whole
/// status); inherits generation 0.
pub fn filter_report(prev: &ReportBase, next: &mut WorkerStatus, now: Time) -> ReportDecision {
    if next.generation == 0 {
        next.generation = prev.generation;
    }
    let same_image = next.actual.image == prev.image;
    let (before, after) = (
        fraction(prev.done, prev.total),
        fraction(next.done, next.total),
    );
    if next.failure.is_none() && prev.failed && same_image && after < before {
        return ReportDecision {
            forwarded: false,
            progress: false,
        };
    }
    let progress = after > before
        || next.completed > prev.completed
        || (next.failure.is_none() && !same_image);
    next.last_progress = progress.then_some(now);
    ReportDecision {
        forwarded: true,
        progress,
    }
}

/// `equalUpdate`: the worker's identity of a target is its image and force.
pub fn same_target(a: &Release, b: &Release) -> bool {
    a.image == b.image && a.force.unwrap_or(false) == b.force.unwrap_or(false)
}

/// The state Operator.sync suggests (cvo-reference §5.1 step 4): Initializing while history has
/// no Completed entry, Reconciling when `history[0]` is Completed for the image, else Updating.
pub fn initial_state(history: &[HistoryEntry], desired: &Release) -> WorkerState {
    if !history.iter().any(HistoryEntry::is_completed) {
        WorkerState::Initializing
    } else if history[0].is_completed() && history[0].image == desired.image {
        WorkerState::Reconciling
    } else {
        WorkerState::Updating
    }
}

impl Worker {
    /// The worker has accepted work at least once since the pod started.
    pub fn initialized(&self) -> bool {
        self.work.is_some()
    }

    /// Forwards an apply-loop report through the filter, keeping the load and capability
    /// fields.
    pub(super) fn report(&mut self, cx: &mut Ctx<'_>, mut next: WorkerStatus) {
        // Outside a pass, the status itself.
        let own;
        let base = match &self.pass_base {
            Some(b) => b,
            None => {
                own = ReportBase::of(&self.status);
                &own
            }
        };
        if next.generation != 0 && next.generation < base.generation {
            cx.note(format!(
                "Received a Generation({}) lower than previously known Generation({}), this is most probably an internal error",
                next.generation, base.generation
            ));
        }
        match filter_report(base, &mut next, cx.now).forwarded {
            // The report carries the load and capability status as they are (the filter does
            // not read them): moved over, as the report replaces the status.
            true => {
                let old = &mut self.status;
                next.load = std::mem::take(&mut old.load);
                next.implicitly_enabled = std::mem::take(&mut old.implicitly_enabled);
                next.capabilities = old.capabilities.take();
                self.status = next;
            }
            false => cx.note("Dropping status report from earlier in sync loop".into()),
        }
    }

    /// A report of the apply loop for the current work and payload. Like the CVO's
    /// consistentReporter it carries no completed count (only the end of a successful pass
    /// does) and the progress of the last report.
    pub(super) fn base_report(&self) -> WorkerStatus {
        let mut s = WorkerStatus {
            done: self.status.done,
            total: self.status.total,
            ..Default::default()
        };
        if let Some(w) = &self.work {
            s.generation = w.generation;
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

    /// Marks the start of a pass (if one is not running already).
    pub(super) fn begin_pass(&mut self) {
        if self.pass_base.is_none() {
            self.pass_base = Some(ReportBase::of(&self.status));
        }
    }

    /// Ends the running pass.
    pub(super) fn end_pass(&mut self) {
        self.pass_base = None;
    }

    /// New work accepted by `SyncWorker.Update` (fixed flavour): the apply loop's first report
    /// on it is made now but reaches the status a sync later; Update returns the status as it
    /// was, with the load and capability status it set (for a fresh worker, the target by
    /// version and image only).
    pub(super) fn start_pass_after_update(&mut self, cx: &mut Ctx<'_>) {
        let returned = self.status.clone();
        self.start_pass_report(cx);
        let report = std::mem::replace(&mut self.status, returned);
        self.pending = Some(report);
    }

    /// Delivers the apply loop's report that Operator.sync has not seen yet, if any.
    pub fn deliver_pending(&mut self) {
        if let Some(p) = self.pending.take() {
            self.status = p;
        }
    }

    /// A new pass starts on new work: its first report, at 0 of 0.
    pub(super) fn start_pass_report(&mut self, cx: &mut Ctx<'_>) {
        self.end_pass();
        self.begin_pass();
        let next = WorkerStatus {
            done: 0,
            total: 0,
            ..self.base_report()
        };
        self.report(cx, next);
    }

    /// Replaces the work (`calculateNextFrom`): Updating unless Initializing, attempt 0.
    pub(super) fn change_work(&mut self, cx: &mut Ctx<'_>, target: &Release, caps: Capabilities) {
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
        w.caps = caps;
        w.attempt = 0;
        w.completed = 0;
        cx.co_started.clear();
    }

    /// The label of the release the worker works on, for the trace.
    pub fn release_label(&self) -> Option<String> {
        let w = self.work.as_ref()?;
        Some(match self.status.actual.image.is_empty() {
            true => version_string(&w.target),
            false => version_string(&self.status.actual),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_that_is_no_progress_clears_last_progress() {
        let t = crate::model::parse_rfc3339("2020-01-01T00:00:00Z").unwrap();
        let prev = WorkerStatus {
            done: 5,
            total: 10,
            last_progress: Some(t),
            ..Default::default()
        };
        let mut next = WorkerStatus {
            done: 5,
            total: 10,
            ..Default::default()
        };
        assert!(filter_report(&ReportBase::of(&prev), &mut next, t).forwarded);
        assert_eq!(next.last_progress, None);
    }
}
