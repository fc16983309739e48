//! The dump's last pass when no CVO log shows it, read back from the conditions: a task
//! failure in `Failing=True` (with an earlier failure when Progressing says the 40-minute wait
//! was exceeded), and the progress of a running update from `Progressing=True` (`N of M done`,
//! `waiting on …`, `waiting up to 40 minutes on …`).

use super::cx::{Cx, PASS, PROGRESS, sec};
use super::parse::{progress, task_errors};
use super::requests::Req;
use crate::model::{Time, fmt_k8s};
use crate::reconciler::scenario::{Event, PassProgress, PassResult, TaskError};
use crate::timeline::text::{self, WaitKind};
use chrono::Duration;

/// Failing reasons that come from loading a target, not from a pass.
const LOAD_REASONS: [&str; 4] = [
    "UpgradePreconditionCheckFailed",
    "ImageVerificationFailed",
    "UpdatePayloadRetrievalFailed",
    "NoDesiredImage",
];

/// Whether a log pass ended at or after `t`.
fn covered(cx: &Cx<'_>, t: Time) -> bool {
    cx.timeline
        .passes
        .iter()
        .any(|p| p.ok.is_some() && p.end.is_some_and(|e| e >= t - Duration::seconds(1)))
}

/// The task errors behind a Failing condition.
fn failing_errors(reason: &str, message: &str) -> Vec<TaskError> {
    let mut errs = task_errors(message);
    if let [one] = errs.as_mut_slice()
        && one.reason == "UpdatePayloadFailed"
        && !reason.is_empty()
        && reason != "MultipleErrors"
    {
        one.reason = reason.to_string();
    }
    if errs.is_empty() {
        errs.push(TaskError {
            reason: reason.to_string(),
            message: message.to_string(),
            ..Default::default()
        });
    }
    errs
}

fn co_errors(names: &[String], reason: &str) -> Vec<TaskError> {
    names
        .iter()
        .map(|n| TaskError {
            reason: reason.to_string(),
            name: n.to_string(),
            ..Default::default()
        })
        .collect()
}

/// Adds the last pass the conditions imply, when the log does not show it.
pub fn last_pass(cx: &mut Cx<'_>, reqs: &[Req]) {
    let Some(head) = cx.hist.first() else { return };
    let start = reqs.last().map(|r| r.at).or(head.started_time.map(sec));
    let rejected = reqs
        .last()
        .is_some_and(|r| r.first_failure.is_some() && !r.accepted_later);
    let prog = cx.cond("Progressing").filter(|p| p.is_true());
    let done_total = prog.and_then(|p| progress(&p.message));
    if let Some(f) = cx
        .cond("Failing")
        .filter(|f| f.is_true() && !LOAD_REASONS.contains(&f.reason.as_str()))
        && let Some(tf) = f.last_transition_time
        && !covered(cx, tf)
        && !rejected
    {
        let errors = failing_errors(&f.reason, &f.message);
        let exceeded = prog.is_some_and(|p| p.message.contains("wait has exceeded 40 minutes"));
        let (done, total) = done_total.map_or((None, None), |(d, t)| (Some(d), Some(t)));
        let earlier = tf - Duration::minutes(41);
        if exceeded && start.is_none_or(|s| earlier >= s) {
            let r = PassResult {
                errors: errors.clone(),
                done,
                total,
                ..Default::default()
            };
            cx.push(earlier, PASS, Event::PassResult(r));
            cx.note(format!(
                "inferred: the same errors first at {} (Progressing says the 40-minute wait was exceeded)",
                fmt_k8s(&sec(earlier))
            ));
        }
        let r = PassResult {
            errors,
            done,
            total,
            ..Default::default()
        };
        cx.push(tf, PASS, Event::PassResult(r));
        cx.note(format!(
            "seen: a pass failed at {} (`Failing=True {}`; no CVO log shows it)",
            fmt_k8s(&sec(tf)),
            f.reason
        ));
        return;
    }
    if !head.is_partial() || cx.hist.len() < 2 || rejected {
        return;
    }
    let Some(p) = prog else { return };
    let Some(prog_text) = text::progress(&p.message) else {
        return;
    };
    let (done, total) = (prog_text.done, prog_text.total);
    let Some(mut at) = cx.last_event_time().max(p.last_transition_time) else {
        return;
    };
    if covered(cx, at) {
        return;
    }
    let wait = prog_text.wait.as_ref();
    // `waiting up to 40 minutes` (and, from 4.16, a plain `waiting on` that is not yet slow)
    // says this CVO first saw those operators updating less than 40 (30) minutes before its
    // last status write. That moment is not in the dump; the report that started the wait
    // is replayed at the dump's time, the one placement that keeps the window open.
    let window_open = wait.is_some_and(|w| w.kind != WaitKind::Slow);
    let reference = cx.bundle.collection_time().or(cx.timeline.reference);
    let mut placed = "";
    if window_open && let Some(r) = reference.map(sec).filter(|r| *r > at) {
        at = r;
        placed = " (the dump's time: the wait it shows had not run out by its last status write)";
    }
    let errors = match wait {
        Some(w) if w.kind == WaitKind::UpTo40Minutes => {
            co_errors(&w.names, "ClusterOperatorDegraded")
        }
        Some(w) => co_errors(&w.names, "ClusterOperatorUpdating"),
        None => Vec::new(),
    };
    let label = head.label().to_string();
    if errors.is_empty() {
        cx.push(
            at,
            PROGRESS,
            Event::PassProgress(PassProgress { done, total }),
        );
    } else {
        let r = PassResult {
            errors,
            done: Some(done),
            total: Some(total),
            ..Default::default()
        };
        cx.push(at, PROGRESS, Event::PassResult(r));
    }
    cx.note(format!(
        "seen: `{label}` at {done} of {total} as of the dump (Progressing: {}); replayed at {}{placed}",
        p.message,
        fmt_k8s(&sec(at))
    ));
}
