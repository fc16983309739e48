//! The "update blocked before it was applied" analysis shared by CV002, CV003 and CV004: the
//! legacy signature (`history[0]` Partial for a target that failed preconditions, payload
//! retrieval or verification, and was never applied) and the open stall in the timeline.

use crate::model::{ClusterVersion, Condition, HistoryEntry, Sourced};
use crate::rules::engine::Context;
use crate::rules::util::{cond, same};
use crate::timeline::{Episode, EpisodeTag, text};

/// Failing/Progressing reasons of a target rejected before any manifest (legacy CVO).
pub const BLOCK_REASONS: &[&str] = &[
    "UpgradePreconditionCheckFailed",
    "ImageVerificationFailed",
    "UpdatePayloadRetrievalFailed",
];

/// A target that the CVO is retrying without having applied any of it.
pub struct Blocked<'a> {
    pub cv: &'a Sourced<ClusterVersion>,
    /// `history[0]`, the target.
    pub target: &'a HistoryEntry,
    /// The most recent Completed entry (what actually runs), with its index.
    pub source: Option<(usize, &'a HistoryEntry)>,
    pub failing: Option<(usize, &'a Condition)>,
    pub progressing: Option<(usize, &'a Condition)>,
    /// The reason that shows the block (Failing's, else Progressing's).
    pub reason: String,
}

/// The open stall episode (still going at the end of the data) for `target`, if any.
pub fn open_stall<'a>(cx: &Context<'a>, target: Option<&str>) -> Option<&'a Episode> {
    cx.timeline
        .episodes_of(EpisodeTag::Stall)
        .filter(|e| e.end.is_none())
        .find(|e| target.is_none_or(|t| e.target_release.as_deref() == Some(t)))
}

/// Whether anything shows the target being applied (manifest progress, an operator at it).
fn applied(cx: &Context<'_>, h0: &HistoryEntry, progressing: Option<&Condition>) -> bool {
    // `Working towards V: N of M done`, N > 0: manifests of the target were applied.
    if progressing
        .and_then(|p| text::progress(&p.message))
        .is_some_and(|p| p.counted && p.done > 0)
    {
        return true;
    }
    if !h0.version.is_empty()
        && cx
            .bundle
            .objects
            .cluster_operators
            .iter()
            .any(|co| co.operator_version() == Some(h0.version.as_str()))
    {
        return true;
    }
    cx.timeline
        .passes()
        .iter()
        .any(|p| p.touched_manifests() && cx.timeline.names_release(&p.target, h0.label()))
}

/// The legacy blocked-target signature on the newest ClusterVersion, if present.
pub fn legacy_blocked<'a>(cx: &Context<'a>) -> Option<Blocked<'a>> {
    let cv = cx.bundle.cluster_version()?;
    let h0 = cv.status.history.first().filter(|h| h.is_partial())?;
    if !same(&cv.status.desired, &h0.version, &h0.image) {
        return None;
    }
    let conds = &cv.status.conditions;
    let failing = cond(conds, "Failing").filter(|(_, c)| c.is_true());
    let progressing = cond(conds, "Progressing").filter(|(_, c)| c.is_true());
    let reason = [failing, progressing]
        .into_iter()
        .flatten()
        .map(|(_, c)| c.reason.as_str())
        .find(|r| BLOCK_REASONS.contains(r))
        .map(str::to_string);
    let stalled = open_stall(cx, Some(h0.label())).is_some();
    let reason = match reason {
        Some(r) => r,
        None if stalled => String::new(),
        None => return None,
    };
    if applied(cx, h0, progressing.map(|(_, c)| c)) {
        return None;
    }
    Some(Blocked {
        cv,
        target: h0,
        source: cv
            .status
            .history
            .iter()
            .enumerate()
            .skip(1)
            .find(|(_, h)| h.is_completed()),
        failing,
        progressing,
        reason,
    })
}
