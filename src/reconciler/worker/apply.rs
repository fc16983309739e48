//! The apply loop's passes: progress reports, the end of a pass (success, failure, or success
//! with report-only errors), the legacy checks at the start of a pass, the attempt counter and
//! the ClusterOperator update timers (cvo-reference §5.2, §5.3).

use super::state::{Ctx, Worker, WorkerState};
use crate::reconciler::model::errors::{
    Effect, UpdateError, default_effect, is_degraded_reason, operator_message,
};
use crate::reconciler::model::errors::{is_operator_reason, summarize_task_errors};
use crate::reconciler::model::events::{PassProgress, PassResult};
use crate::reconciler::model::input::{WorkerStatus, version_string};
use crate::reconciler::model::semantics::{Flavour, Semantics};

/// A pass event.
pub enum Pass<'a> {
    Progress(&'a PassProgress),
    Result(&'a PassResult),
}

/// The update errors of a pass as the modelled CVO raises them: messages default to the CVO's
/// template, effects to the reason's; before 4.12 a degraded operator is tolerated while
/// installing (no error at all); an error without a reason is a plain error, unless it has an
/// effect (an UpdateError with an empty reason).
fn pass_errors(
    r: &PassResult,
    sem: &Semantics,
    initializing: bool,
    notes: &mut Vec<String>,
) -> Vec<UpdateError> {
    let mut errs = Vec::new();
    for e in &r.errors {
        if e.reason.is_empty() && e.effect.is_none() {
            errs.push(UpdateError::plain(&e.message));
            continue;
        }
        if e.reason.is_empty() {
            // An UpdateError without a reason: its effect still drives Failing and
            // Progressing, and its summary is the unknown-error text.
            errs.push(UpdateError {
                message: e.message.clone(),
                effect: e.effect.unwrap_or_default(),
                name: e.name.clone(),
                ..Default::default()
            });
            continue;
        }
        if initializing
            && !sem.report_effect()
            && e.effect.is_none()
            && is_degraded_reason(&e.reason)
        {
            notes.push(format!(
                "{} {}: degraded operators are tolerated while installing; no error",
                e.reason, e.name
            ));
            continue;
        }
        let message = match e.message.is_empty() {
            false => e.message.clone(),
            true => operator_message(&e.reason, &e.name, sem).unwrap_or_else(|| e.reason.clone()),
        };
        errs.push(UpdateError {
            reason: e.reason.clone(),
            message,
            effect: e
                .effect
                .unwrap_or_else(|| default_effect(&e.reason, initializing)),
            name: e.name.clone(),
            ..Default::default()
        });
    }
    errs
}

impl Worker {
    /// A pass event; returns the release whose manifests the pass applied, if any.
    pub fn pass(&mut self, cx: &mut Ctx<'_>, pass: Pass<'_>) -> Option<String> {
        if self.work.is_none() {
            cx.note("pass ignored: the worker has no work".into());
            return None;
        }
        self.begin_pass();
        if cx.sem.flavour == Flavour::Legacy && self.candidate.is_some() {
            if !self.legacy_candidate_ready() {
                let t = self
                    .candidate
                    .as_ref()
                    .map(|c| version_string(&c.target))
                    .unwrap_or_default();
                cx.note(format!(
                    "pass ignored: {t} is still being retrieved and verified (script a `load_outcome`)"
                ));
                return None;
            }
            if !self.legacy_checks(cx) {
                cx.note("the pass stopped at the payload checks; no manifests applied".into());
                return None;
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
            Pass::Result(r) => {
                self.pass_result(cx, r);
                self.end_pass();
            }
        }
        applied
    }

    fn pass_result(&mut self, cx: &mut Ctx<'_>, r: &PassResult) {
        let sem = cx.sem;
        let Some(from) = self.work.as_ref().map(|w| w.state) else {
            return;
        };
        if r.timed_out {
            self.fail_pass(cx, &[]);
            let mut next = self.base_report();
            next.total = r.total.unwrap_or(self.status.total);
            next.done = r.done.unwrap_or(self.status.done);
            self.report(cx, next);
            cx.note("the pass timed out: only context errors, no failure reported".into());
            return;
        }
        let errs = pass_errors(r, sem, from == WorkerState::Initializing, cx.notes);
        let report_only = sem.report_effect()
            && !errs.is_empty()
            && errs.iter().all(|e| !e.plain && e.effect == Effect::Report);
        let total = r.total.unwrap_or(self.status.total);
        if errs.is_empty() || report_only {
            self.complete_pass(cx, from);
            let mut next = self.base_report();
            next.total = total;
            next.done = r.done.unwrap_or(total);
            next.completed = self.work.as_ref().map_or(0, |w| w.completed);
            if !report_only {
                self.report(cx, next);
                return;
            }
            self.report(cx, next.clone());
            // The errors are reported after the completion, in a report that (like every
            // report but the completion) has no completed count and the pass's own state.
            next.completed = 0;
            next.reconciling = from == WorkerState::Reconciling;
            next.initial = from == WorkerState::Initializing;
            next.failure = summarize_task_errors(errs, sem).map(UpdateError::into_failure);
            self.report(cx, next);
            return;
        }
        self.fail_pass(cx, &errs);
        let mut next = self.base_report();
        next.total = total;
        next.done = r.done.unwrap_or(self.status.done);
        next.failure = summarize_task_errors(errs, sem).map(UpdateError::into_failure);
        self.report(cx, next);
    }

    /// A pass that failed: Completed back to 0, the attempt counter grows; the operators
    /// named by its errors start their update timers (reset at a first attempt).
    fn fail_pass(&mut self, cx: &mut Ctx<'_>, errs: &[UpdateError]) {
        let Some(work) = self.work.as_mut() else {
            return;
        };
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
    }

    /// A pass that succeeded: Completed grows, the state becomes Reconciling.
    fn complete_pass(&mut self, cx: &mut Ctx<'_>, from: WorkerState) {
        let resets = cx.sem.attempt_resets_on_success();
        let Some(work) = self.work.as_mut() else {
            return;
        };
        work.completed = work.completed.saturating_add(1);
        work.state = WorkerState::Reconciling;
        work.attempt = match resets {
            true => 0,
            false => work.attempt.saturating_add(1),
        };
        if from != WorkerState::Reconciling {
            cx.note(format!(
                "Sync succeeded, transitioning from {} to Reconciling",
                from.as_str()
            ));
        }
        cx.co_started.clear();
    }
}
