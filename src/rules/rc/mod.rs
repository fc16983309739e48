//! RC rules: the dump checked against the reference reconciler. Each rule replays the bundle
//! (`reconciler::replay`: a scenario derived from history, conditions, the CVO log and CI
//! evidence, run in the fixed and legacy flavours with the Bug 1756461 history fix on and off)
//! and reports one kind of difference between the dump and the model.

pub mod rc001_completion_time_differs_from_model;
pub mod rc002_consistent_only_with_legacy;
pub mod rc003_deviates_from_every_flavour;

use crate::model::{ClusterVersion, Sourced};
use crate::rules::engine::Context;
use crate::rules::model::EvidenceItem;
use crate::rules::util::anchor;
use crate::timeline::Evidence;

/// Evidence at a field named as the replay names it (relative to `status`:
/// `history[1].completionTime`, `conditions[Failing].reason`, `desired.version`).
pub(crate) fn status_evidence(
    cx: &Context<'_>,
    cv: &Sourced<ClusterVersion>,
    field: &str,
    fallback: &str,
) -> EvidenceItem {
    let path = match field
        .strip_prefix("conditions[")
        .and_then(|r| r.split_once(']'))
    {
        Some((t, rest)) => match cv.status.conditions.iter().position(|c| c.type_ == t) {
            Some(i) => format!("status.conditions[{i}]{rest}"),
            None => "status.conditions".to_string(),
        },
        None => format!("status.{field}"),
    };
    cx.field(cv, anchor(&cv.metadata.name), &path, fallback)
}

/// Evidence from the replay: a log or CI line as read, or, for what the replay read from the
/// ClusterVersion's conditions, the condition's field in the file.
pub(crate) fn replay_evidence(
    cx: &Context<'_>,
    cv: &Sourced<ClusterVersion>,
    ev: &Evidence,
) -> EvidenceItem {
    let same_file = ev.prov.same_file(&cv.prov);
    if !same_file || ev.prov.line.is_some() {
        return cx.from_timeline(ev);
    }
    let field = match ev.text.split_whitespace().next() {
        Some("Available") => "conditions[Available].lastTransitionTime",
        Some("Failing") => "conditions[Failing].message",
        Some("ReleaseAccepted") => "conditions[ReleaseAccepted].message",
        _ => return cx.from_timeline(ev),
    };
    status_evidence(cx, cv, field, &ev.text)
}
