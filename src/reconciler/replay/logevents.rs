//! Events from the CVO log: pod starts (each container instance, from the moment it leads, on
//! the release its Pod object runs, else the release being applied then) and the results of
//! its sync passes (successes, task errors, and legacy passes that stopped at the payload
//! checks, replayed as "the apply loop woke up").

use super::cx::Completion;
use super::cx::{Cx, LOAD, PASS, POD, sec};
use super::field::{HistoryField, StatusField};
use super::requests::{Req, active_at, loaded};
use super::timing::{self, CompletionTiming};
use crate::model::{Release, Time, fmt_k8s};
use crate::reconciler::scenario::{Event, PassResult, PodStart};
use crate::timeline::{Pass, same_release};
use chrono::Duration;

/// The Completed entry a successful non-Reconciling pass completed: the entry of its release
/// that was `history[0]` when the pass ended.
fn completed_by(cx: &Cx<'_>, p: &Pass, end: Time) -> Option<Completion> {
    cx.completions.iter().copied().find(|c| {
        let h = &cx.hist[c.index];
        let successor = c.index.checked_sub(1).and_then(|j| cx.hist[j].started_time);
        same_release(&p.target, &h.version, &h.image)
            && h.started_time
                .is_none_or(|s| sec(s) <= end + Duration::seconds(1))
            && successor.is_none_or(|s| sec(s) > end)
    })
}

/// The image of a CVO pod's operator container, from its Pod object.
fn pod_image(cx: &Cx<'_>, pod: &str) -> Option<String> {
    let p = cx
        .bundle
        .objects
        .cvo_pods
        .iter()
        .find(|p| p.metadata.name == pod)?;
    let c = p
        .spec
        .containers
        .iter()
        .find(|c| c.name == "cluster-version-operator")
        .or(p.spec.containers.first())?;
    (!c.image.is_empty()).then(|| c.image.clone())
}

/// The release being applied at `t`: the last request accepted by then, else the install.
fn running_at(
    reqs: &[Req],
    install: Option<&(Time, Release)>,
    t: Time,
) -> Option<(String, String)> {
    let accepted = reqs.iter().rev().find(|r| {
        r.at <= t
            && (r.first_failure.is_none() && r.hist.is_some()
                || r.accepted_later && r.outcomes.last().is_some_and(|o| sec(o.at) <= t))
    });
    match accepted {
        Some(r) => Some((r.update.version.clone(), r.update.image.clone())),
        None => install.map(|(_, r)| (r.version.clone(), r.image.clone())),
    }
}

/// A version for an image, from history or the requests.
fn version_of(cx: &Cx<'_>, reqs: &[Req], image: &str) -> String {
    cx.hist
        .iter()
        .find(|h| h.image == image && !h.version.is_empty())
        .map(|h| h.version.clone())
        .or_else(|| {
            reqs.iter()
                .find(|r| r.update.image == image && !r.update.version.is_empty())
                .map(|r| r.update.version.clone())
        })
        .unwrap_or_default()
}

/// A `pod_start` per CVO container instance that led after the install began.
pub fn pods(cx: &mut Cx<'_>, install: Option<&(Time, Release)>, reqs: &[Req]) {
    // The timeline is borrowed for the whole derivation, not from `cx`: read in place.
    let timeline = cx.timeline;
    for inst in &timeline.instances {
        let t = sec(inst.leading_from().unwrap_or(inst.start));
        if install.is_some_and(|(s, _)| t <= *s) {
            continue;
        }
        let (version, image, basis) = match pod_image(cx, &inst.pod) {
            Some(img) => (version_of(cx, reqs, &img), img, "its Pod object's image"),
            None => match running_at(reqs, install, t) {
                Some((v, i)) => (v, i, "assumed: the release being applied then"),
                None => continue,
            },
        };
        let mut pod = PodStart {
            version: version.clone(),
            image: image.clone(),
            ..Default::default()
        };
        if let Some(p) = cx.facts.payload(&image) {
            pod.hash = p.hash.clone();
            pod.architecture = p.architecture.clone();
        }
        cx.push(t, POD, Event::PodStart(pod));
        let label = if version.is_empty() { &image } else { &version };
        cx.note(format!(
            "seen: CVO pod `{}` leads from {} on `{label}` ({basis})",
            inst.pod,
            fmt_k8s(&t)
        ));
        // A restarted worker loads the requested target again and gets the same answer.
        let Some(r) = active_at(reqs, t).filter(|r| r.update.image != image) else {
            continue;
        };
        if let Some(o) = r.outcome_at(t) {
            let load = o.load.clone();
            cx.push(t, LOAD, Event::LoadOutcome(load));
        } else if r.outcomes.is_empty() && r.hist.is_some() {
            let load = loaded(cx, r);
            cx.push(t, LOAD, Event::LoadOutcome(load));
        }
    }
}

/// Room left for the events the derivation adds after the passes' (a handful).
const LATER_EVENTS: usize = 64;

/// A pass event per CVO log pass with a result.
pub fn passes(cx: &mut Cx<'_>, reqs: &[Req]) {
    let floor = cx.events.iter().map(|e| e.0).min();
    let (mut ok, mut failed, mut stuck, mut skipped, mut cut) = (0, 0, 0, 0, 0);
    let mut retimed = 0;
    // Read in place (a steady year's passes, with their evidence, are megabytes).
    let timeline = cx.timeline;
    // At most one event a pass, and a few more after them (inputs, the last pass's state,
    // generations, the final tick): room for them at once, not a doubled vector.
    cx.events.reserve(timeline.passes.len() + LATER_EVENTS);
    for p in &timeline.passes {
        if floor.is_some_and(|f| sec(p.start) < f) {
            continue;
        }
        let end = sec(p.end.unwrap_or(p.start));
        match p.ok {
            Some(true) => {
                if p.state != "Reconciling"
                    && let Some(c) = completed_by(cx, p, end)
                {
                    let h = &cx.hist[c.index];
                    let pass_end = p.end.unwrap_or(p.start);
                    let write =
                        timing::completion_write(cx.timeline, pass_end, &h.version, &h.image);
                    let claimed = h.completion_time.unwrap_or(c.at);
                    // The completion the derivation replays (history's, or what other
                    // evidence dated) is checked against this pass and its status sync.
                    let fit = timing::fit(c.at, pass_end, &write);
                    let t = CompletionTiming {
                        field: StatusField::History(c.index, HistoryField::CompletionTime),
                        claimed,
                        pass_end,
                        write: write.clone(),
                        fit,
                        evidence: p.evidence.last().cloned().into_iter().collect(),
                    };
                    cx.note(format!(
                        "seen: `{}` completed by the pass that ended at {} ({}); `status.history[{}].completionTime` is {}: {}",
                        h.label(),
                        crate::model::fmt_ms(&pass_end),
                        match &write {
                            timing::CompletionWrite::Logged { at, .. } => format!(
                                "the status sync at {} recorded it",
                                crate::model::fmt_ms(at)
                            ),
                            timing::CompletionWrite::Unlogged => "no status sync logged".into(),
                        },
                        c.index,
                        fmt_k8s(&claimed),
                        fit.describe()
                    ));
                    cx.timings.push(t);
                    if fit.fits() {
                        // History's completion is this pass's, written by its status sync.
                        continue;
                    }
                    // The log dates the completion: the model records it at that status sync,
                    // not when history says.
                    let when = sec(timing::write_time(pass_end, &write));
                    if let Some(e) = cx.events.get_mut(c.event) {
                        e.0 = when;
                    }
                    retimed += 1;
                    continue;
                }
                ok += 1;
                let r = PassResult {
                    ok: Some(true),
                    total: p.total,
                    done: p.total,
                    ..Default::default()
                };
                cx.push(end, PASS, Event::PassResult(r));
            }
            Some(false) => {
                let mut errors: Vec<_> = p
                    .errors
                    .iter()
                    .flat_map(|e| super::parse::task_errors(e))
                    .collect();
                if errors.is_empty() {
                    errors = p
                        .sync_error
                        .as_deref()
                        .map(super::parse::task_errors)
                        .unwrap_or_default();
                }
                if errors.is_empty() {
                    cut += 1;
                    continue;
                }
                failed += 1;
                let done = (p.manifests_done > 0).then_some(p.manifests_done);
                let r = PassResult {
                    errors,
                    done: done.filter(|_| p.total.is_some()),
                    total: p.total,
                    ..Default::default()
                };
                cx.push(end, PASS, Event::PassResult(r));
            }
            None if p.stuck_before_manifests() => {
                let first = active_at(reqs, p.start).and_then(|r| r.first_failure);
                if first.is_some_and(|f| end <= f) {
                    skipped += 1;
                    continue;
                }
                stuck += 1;
                let r = PassResult {
                    ok: Some(true),
                    ..Default::default()
                };
                cx.push(end, PASS, Event::PassResult(r));
            }
            None => cut += 1,
        }
    }
    if ok + failed + stuck + skipped + cut == 0 {
        cx.note(
            "not visible: the CVO's sync passes (no CVO log); only status changes are replayed"
                .into(),
        );
        return;
    }
    cx.note(format!(
        "seen: {ok} CVO log pass(es) without errors and {failed} with errors replayed as `pass_result` (completions come from history)"
    ));
    if retimed > 0 {
        cx.note(format!(
            "seen: {retimed} completion(s) the CVO log dates differently from history; they are replayed when the log's status sync recorded them"
        ));
    }
    if stuck + skipped > 0 {
        cx.note(format!(
            "inferred: {stuck} pass(es) that stopped at the payload checks are replayed as `pass_result: {{ok: true}}` \
             (a fixed CVO would have reconciled the running release then; a legacy one retries the checks); \
             {skipped} first attempt(s) are the load results themselves"
        ));
    }
    if cut > 0 {
        cx.note(format!(
            "not visible: how {cut} pass(es) ended (cut by the end of the log or a restart)"
        ));
    }
}
