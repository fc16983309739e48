//! When a Completed history entry really completed. A completionTime equal to the next
//! entry's startedTime may have been overwritten by a CVO without the Bug 1756461 fix, so it is
//! checked against evidence that does not come from that field: the Available condition's
//! transition (the first completion of any release), CVO log passes that ended without errors
//! outside Reconciling, CI monitor lines (`Progressing` → False `Cluster version is X`,
//! `UpgradeComplete`), and, as an upper bound only, the timeline's install bound.

use super::cx::{Cx, Inference, sec};
use super::timing::{self, CompletionWrite};
use crate::model::{ConditionField, Time, fmt_k8s};
use crate::timeline::{EventKind, EventSource, Evidence};
use chrono::Duration;

/// How a completion time was settled.
pub enum Resolved {
    /// The field is not in doubt.
    Claimed,
    /// The field equals the next entry's start and nothing else dates the completion.
    Unverifiable,
    /// Other evidence dates it.
    Inferred(Inference),
}

/// The completion time to replay for `status.history[i]`, and how it was settled.
pub fn resolve(cx: &Cx<'_>, i: usize, claimed: Time) -> (Time, Resolved) {
    let e = &cx.hist[i];
    let successor = i.checked_sub(1).and_then(|j| cx.hist[j].started_time);
    let suspect = successor.is_some_and(|s| (claimed - s).num_seconds().abs() <= 1);
    let Some(start) = e.started_time.filter(|_| suspect) else {
        return (claimed, Resolved::Claimed);
    };
    let field = super::field::StatusField::History(i, super::field::HistoryField::CompletionTime);
    let window = |t: Time| t >= start && t < claimed - Duration::seconds(1);
    let mut found: Vec<(Time, String, Vec<Evidence>)> = Vec::new();
    // Available turns True with the first completion of any release, and stays True.
    let oldest_completed = !cx.hist[i + 1..].iter().any(|h| h.is_completed());
    if oldest_completed
        && let Some(a) = cx.cond("Available").filter(|a| a.is_true())
        && let Some(t) = a.last_transition_time.filter(|t| window(*t))
    {
        let text = format!("Available True since {}: {}", fmt_k8s(&t), a.message);
        found.push((
            t,
            "`Available` turned True then".into(),
            cx.cv_ev("Available", ConditionField::LastTransitionTime, &text),
        ));
    }
    for p in &cx.timeline.passes {
        if p.ok == Some(true)
            && p.state != "Reconciling"
            && p.targets(&e.version, &e.image)
            && let Some(end) = p.end.filter(|t| window(*t))
        {
            // The status sync after the pass writes the completion (see `timing`).
            let write = timing::completion_write(cx.timeline, end, &e.version, &e.image);
            let mut ev: Vec<Evidence> = p.evidence.last().cloned().into_iter().collect();
            let basis = match &write {
                CompletionWrite::Logged { at, evidence } => {
                    ev.push(evidence.clone());
                    format!(
                        "the CVO log: its pass ended at {} and the status sync at {} recorded the completion",
                        fmt_k8s(&sec(end)),
                        fmt_k8s(&sec(*at))
                    )
                }
                CompletionWrite::Unlogged => format!(
                    "a CVO log pass for it ended without errors then; the next status sync records it within {}s",
                    timing::STATUS_INTERVAL.num_seconds()
                ),
            };
            found.push((timing::write_time(end, &write), basis, ev));
        }
    }
    let done_msg = format!("Cluster version is {}", e.label());
    for ev in &cx.timeline.events {
        if ev.source == EventSource::ClusterVersion || !window(ev.time) {
            continue;
        }
        let hit = match &ev.kind {
            EventKind::ConditionTransition {
                condition, status, ..
            } => condition == "Progressing" && status == "False" && ev.message.contains(&done_msg),
            EventKind::UpgradeComplete { version, .. } => {
                !version.is_empty() && *version == e.version
            }
            _ => false,
        };
        if hit {
            let basis = format!("{} saw it complete", ev.source.name());
            found.push((ev.time, basis, ev.evidence.clone()));
        }
    }
    found.sort_by_key(|f| f.0);
    if let Some((t, basis, evidence)) = found.into_iter().next() {
        let inf = Inference {
            field,
            value: t,
            claimed: Some(claimed),
            basis,
            evidence,
        };
        return (t, Resolved::Inferred(inf));
    }
    if i + 1 == cx.hist.len()
        && let Some(b) = cx.timeline.install_finished_before()
        && window(b.before)
    {
        let inf = Inference {
            field,
            value: b.before,
            claimed: Some(claimed),
            basis: "it had finished by then at the latest (timeline bound)".into(),
            evidence: b.evidence.clone(),
        };
        return (b.before, Resolved::Inferred(inf));
    }
    (claimed, Resolved::Unverifiable)
}
