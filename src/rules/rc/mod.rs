//! RC rules: the dump checked against the reference reconciler. Each rule replays the bundle
//! (`reconciler::replay`: a scenario derived from history, conditions, the CVO log and CI
//! evidence, run in the fixed and legacy flavours with the Bug 1756461 history fix on and off)
//! and reports one kind of difference between the dump and the model.

pub mod rc001_completion_time_differs_from_model;
pub mod rc002_consistent_only_with_legacy;
pub mod rc003_deviates_from_every_flavour;

use crate::model::{ClusterVersion, Sourced};
use crate::reconciler::replay::StatusField;
use crate::rules::engine::Context;
use crate::rules::model::EvidenceItem;
use crate::rules::util::anchor;
use crate::timeline::Evidence;

/// Evidence at a field the replay compared (`history[1].completionTime`,
/// `conditions[Failing].reason`, `desired.version`): its line in the dump's file.
pub(crate) fn status_evidence(
    cx: &Context<'_>,
    cv: &Sourced<ClusterVersion>,
    field: &StatusField,
    fallback: &str,
) -> EvidenceItem {
    let condition_path =
        |t: &str, rest: &str| match cv.status.conditions.iter().position(|c| c.type_ == t) {
            Some(i) => format!("status.conditions[{i}]{rest}"),
            None => "status.conditions".to_string(),
        };
    let path = match field {
        StatusField::Condition(t, f) => condition_path(t, &format!(".{f}")),
        StatusField::ConditionEntry(t) => condition_path(t, ""),
        StatusField::HistoryMissing => "status.history".to_string(),
        other => other.object_path(),
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
    match &ev.condition {
        Some(c) => status_evidence(
            cx,
            cv,
            &StatusField::Condition(c.type_.clone(), c.field),
            &ev.text,
        ),
        None => cx.from_timeline(ev),
    }
}
