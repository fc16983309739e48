//! Worker failures: update errors with their effect, the Progressing summaries by reason,
//! condensing of ClusterOperator wait errors, the end-of-pass aggregation and the precondition
//! summary (cvo-reference §3.6, §6.2).

use super::semantics::Semantics;
use serde::{Deserialize, Serialize};

/// How an update error affects Failing and Progressing (cvo-reference §3.4).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Effect {
    /// No effect set (treated like an unknown effect: not suppressed).
    #[default]
    #[serde(rename = "")]
    Unset,
    Report,
    None,
    Fail,
    FailAfterInterval,
}

impl Effect {
    /// Strength when condensing: Fail > FailAfterInterval > None > Report.
    fn strength(&self) -> u8 {
        match self {
            Effect::Fail => 4,
            Effect::FailAfterInterval => 3,
            Effect::None => 2,
            Effect::Report => 1,
            Effect::Unset => 0,
        }
    }

    /// The effect's name, as serde spells it (`""` when unset).
    pub fn as_str(&self) -> &'static str {
        crate::vocab::names::serde_name(self)
    }
}

/// An `UpdateError`: reason, message, effect, the object name(s) and nested errors.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct UpdateError {
    pub reason: String,
    pub message: String,
    pub effect: Effect,
    pub name: String,
    pub names: Vec<String>,
    pub nested: Vec<UpdateError>,
    /// A plain Go error, not an `UpdateError`: no reason, no effect (only `message` counts).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub plain: bool,
}

impl UpdateError {
    pub fn new(reason: &str, message: &str) -> UpdateError {
        UpdateError {
            reason: reason.into(),
            message: message.into(),
            ..Default::default()
        }
    }

    /// A plain error with this text.
    pub fn plain(message: &str) -> UpdateError {
        UpdateError {
            message: message.into(),
            plain: true,
            ..Default::default()
        }
    }

    /// The worker failure this error is: a plain error stays plain.
    pub fn into_failure(self) -> Failure {
        match self.plain {
            true => Failure::Generic(self.message),
            false => Failure::Update(self),
        }
    }
}

/// A worker failure: an `UpdateError` or a plain error text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Failure {
    Generic(String),
    Update(UpdateError),
}

impl Failure {
    /// The error text (Failing's message).
    pub fn text(&self) -> &str {
        match self {
            Failure::Generic(t) => t,
            Failure::Update(u) => &u.message,
        }
    }
    /// The reason (empty for a plain error).
    pub fn reason(&self) -> &str {
        match self {
            Failure::Generic(_) => "",
            Failure::Update(u) => &u.reason,
        }
    }
}

const CO_REASONS: [(&str, &str); 4] = [
    ("ClusterOperatorNoVersions", "ClusterOperatorsNoVersions"),
    (
        "ClusterOperatorNotAvailable",
        "ClusterOperatorsNotAvailable",
    ),
    ("ClusterOperatorDegraded", "ClusterOperatorsDegraded"),
    ("ClusterOperatorUpdating", "ClusterOperatorsUpdating"),
];

/// Whether `reason` is a (singular or plural) ClusterOperator wait reason.
pub fn is_operator_reason(reason: &str) -> bool {
    CO_REASONS.iter().any(|(s, p)| *s == reason || *p == reason)
}

/// Whether `reason` is a ClusterOperator degraded reason.
pub fn is_degraded_reason(reason: &str) -> bool {
    matches!(
        reason,
        "ClusterOperatorDegraded" | "ClusterOperatorsDegraded"
    )
}

/// The effect a ClusterOperator wait error has by default (4.7+); `Fail` for anything else.
/// While installing a degraded operator is `Report` (4.12+; earlier CVOs raise no error for
/// it at all, see [`Semantics::report_effect`]).
pub fn default_effect(reason: &str, initializing: bool) -> Effect {
    match reason {
        r if is_degraded_reason(r) && initializing => Effect::Report,
        r if is_degraded_reason(r) => Effect::FailAfterInterval,
        "ClusterOperatorUpdating" | "ClusterOperatorsUpdating" => Effect::None,
        _ => Effect::Fail,
    }
}

/// The singular message of a ClusterOperator wait error, when the CVO has a template for it.
pub fn operator_message(reason: &str, name: &str, sem: &Semantics) -> Option<String> {
    let m = if sem.effect_based_progress() {
        match reason {
            "ClusterOperatorNoVersions" if sem.no_versions_reason() => {
                format!("Cluster operator {name} does not declare expected versions")
            }
            "ClusterOperatorNotAvailable" => format!("Cluster operator {name} is not available"),
            "ClusterOperatorDegraded" => format!("Cluster operator {name} is degraded"),
            "ClusterOperatorUpdating" => format!("Cluster operator {name} is updating versions"),
            _ => return None,
        }
    } else {
        match reason {
            "ClusterOperatorNotAvailable" => format!("Cluster operator {name} is still updating"),
            _ => return None,
        }
    };
    Some(m)
}

fn plural_message(reason: &str, names: &str) -> String {
    match reason {
        "ClusterOperatorNoVersions" => {
            format!("Cluster operators {names} do not declare expected versions")
        }
        "ClusterOperatorNotAvailable" => format!("Cluster operators {names} are not available"),
        "ClusterOperatorDegraded" => format!("Cluster operators {names} are degraded"),
        _ => format!("Cluster operators {names} are updating versions"),
    }
}

/// The Progressing summary for a reason (`SummaryForReason`, cvo-reference §3.6), with the
/// reasons each CVO version knows: `UpgradePreconditionCheckFailed` from 4.3, the workload
/// reasons from 4.4, `ClusterOperatorNoVersions` from 4.12; a reason the version does not
/// know gets the unknown-error text.
pub fn summary_for_reason(reason: &str, name: &str, sem: &Semantics) -> String {
    let new = sem.new_operator_summaries();
    let known = match reason {
        "UpgradePreconditionCheckFailed" => sem.preconditions(),
        "WorkloadNotAvailable" | "WorkloadNotProgressing" => sem.workload_summaries(),
        "ClusterOperatorNoVersions" => sem.no_versions_reason(),
        _ => true,
    };
    let named = !name.is_empty();
    let s = match reason {
        _ if !known => return unknown_error(reason, name, sem),
        "UpdatePayloadResourceNotFound" | "UpdatePayloadResourceConflict" => {
            "some resources could not be updated"
        }
        "UpdatePayloadClusterDown" => "the control plane is down or not responding",
        "UpdatePayloadClusterError" => "the control plane is reporting an internal error",
        "UpdatePayloadClusterOverloaded" => {
            "the control plane is overloaded and is not accepting updates"
        }
        "UpdatePayloadClusterUnauthorized" => "could not authenticate to the server",
        "UpdatePayloadRetrievalFailed" => "could not download the update",
        "UpdatePayloadResourceForbidden" => "the server is rejecting updates",
        "UpdatePayloadResourceTypeMissing" => "a required extension is not available to update",
        "UpdatePayloadResourceInvalid" => "some cluster configuration is invalid",
        "UpdatePayloadIntegrity" => "the contents of the update are invalid",
        "ImageVerificationFailed" => "the image may not be safe to use",
        "UpgradePreconditionCheckFailed" => "it may not be safe to apply this update",
        "ClusterOperatorDegraded" if !name.is_empty() => {
            return format!("the cluster operator {name} is degraded");
        }
        "ClusterOperatorDegraded" => "a cluster operator is degraded",
        "ClusterOperatorNotAvailable" if !name.is_empty() && new => {
            return format!("the cluster operator {name} is not available");
        }
        "ClusterOperatorNotAvailable" if !name.is_empty() => {
            return format!("the cluster operator {name} has not yet successfully rolled out");
        }
        "ClusterOperatorNotAvailable" if new => "a cluster operator is not available",
        "ClusterOperatorNotAvailable" => "a cluster operator has not yet rolled out",
        "ClusterOperatorsNotAvailable" if new => "some cluster operators are not available",
        "ClusterOperatorsNotAvailable" => "some cluster operators have not yet rolled out",
        "ClusterOperatorNoVersions" if named => {
            return format!("the cluster operator {name} does not declare expected versions");
        }
        "ClusterOperatorNoVersions" => "a cluster operator does not declare expected versions",
        "WorkloadNotAvailable" if named => {
            return format!("the workload {name} has not yet successfully rolled out");
        }
        "WorkloadNotAvailable" => "a workload has not yet rolled out",
        "WorkloadNotProgressing" if named => return format!("the workload {name} cannot roll out"),
        "WorkloadNotProgressing" => "a workload cannot roll out",
        r if r.starts_with("UpdatePayload") => "the update could not be applied",
        _ => return unknown_error(reason, name, sem),
    };
    s.to_string()
}

/// The summary of a reason the CVO has no text for.
fn unknown_error(reason: &str, name: &str, sem: &Semantics) -> String {
    if reason.starts_with("UpdatePayload") {
        return "the update could not be applied".into();
    }
    match (sem.unknown_error_names_reason(), name.is_empty()) {
        (false, _) => "an unknown error has occurred".into(),
        (true, false) => format!("{name} has an unknown error: {reason}"),
        (true, true) => format!("an unknown error has occurred: {reason}"),
    }
}

/// Condenses ClusterOperator errors sharing a reason into one plural error and orders the
/// result: other errors first (in input order), then reason groups alphabetically.
pub fn condense_cluster_operators(errs: Vec<UpdateError>) -> Vec<UpdateError> {
    let mut out = Vec::new();
    let mut groups: Vec<(String, Vec<UpdateError>)> = Vec::new();
    for e in errs {
        if CO_REASONS.iter().any(|(s, _)| *s == e.reason) {
            match groups.iter_mut().find(|(r, _)| *r == e.reason) {
                Some((_, g)) => g.push(e),
                None => groups.push((e.reason.clone(), vec![e])),
            }
        } else {
            out.push(e);
        }
    }
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    for (reason, mut group) in groups {
        if group.len() == 1 {
            out.extend(group.pop());
            continue;
        }
        let mut names: Vec<String> = group
            .iter()
            .filter(|e| !e.name.is_empty())
            .map(|e| e.name.clone())
            .collect();
        names.sort();
        // The combined effect starts at Report and only grows; an unset effect changes nothing.
        let effect = group.iter().map(|e| e.effect).fold(Effect::Report, |a, e| {
            match e.strength() > a.strength() {
                true => e,
                false => a,
            }
        });
        let plural = CO_REASONS
            .iter()
            .find(|(s, _)| *s == reason)
            .map(|(_, p)| *p)
            .unwrap_or("");
        let joined = names.join(", ");
        out.push(UpdateError {
            reason: plural.to_string(),
            message: plural_message(&reason, &joined),
            effect,
            name: joined,
            names,
            nested: group,
            plain: false,
        });
    }
    out
}

/// `newMultipleError`: nothing for no errors, the error itself for one, else the
/// `MultipleErrors` error.
pub fn new_multiple_error(mut errs: Vec<UpdateError>) -> Option<UpdateError> {
    match errs.len() {
        0 => None,
        1 => errs.pop(),
        _ => Some(multiple_errors(errs)),
    }
}

/// Builds the `MultipleErrors` error from several errors (messages sorted and de-duplicated).
pub fn multiple_errors(nested: Vec<UpdateError>) -> UpdateError {
    let mut msgs: Vec<&str> = nested.iter().map(|e| e.message.as_str()).collect();
    msgs.sort();
    msgs.dedup();
    let message = format!(
        "Multiple errors are preventing progress:\n* {}",
        msgs.join("\n* ")
    );
    UpdateError {
        reason: "MultipleErrors".into(),
        message,
        nested,
        ..Default::default()
    }
}

/// Aggregates the errors of one pass into the worker failure (`summarizeTaskGraphErrors`).
pub fn summarize_task_errors(errs: Vec<UpdateError>, sem: &Semantics) -> Option<UpdateError> {
    if sem.condenses_cluster_operators() {
        return new_multiple_error(condense_cluster_operators(errs));
    }
    summarize_legacy(errs)
}

fn is_not_available(e: &UpdateError) -> bool {
    !e.plain && e.reason == "ClusterOperatorNotAvailable"
}

/// 4.1-4.11: one error stays as it is; `ClusterOperatorNotAvailable` errors are hidden behind
/// more specific ones; when they are all there is, they become one
/// `ClusterOperatorsNotAvailable` (the strongest effect of None, Fail, FailAfterInterval).
fn summarize_legacy(mut errs: Vec<UpdateError>) -> Option<UpdateError> {
    if errs.len() <= 1 {
        return errs.pop();
    }
    let specific: Vec<UpdateError> = errs
        .iter()
        .filter(|e| !is_not_available(e))
        .cloned()
        .collect();
    if !specific.is_empty() {
        return new_multiple_error(specific);
    }
    let mut names: Vec<String> = errs
        .iter()
        .filter(|e| !e.name.is_empty())
        .map(|e| e.name.clone())
        .collect();
    if names.is_empty() {
        return new_multiple_error(errs);
    }
    names.sort();
    let effect = errs.iter().fold(Effect::None, |a, e| match (a, e.effect) {
        (_, Effect::Fail) | (Effect::Fail, _) => Effect::Fail,
        (_, Effect::FailAfterInterval) => Effect::FailAfterInterval,
        (a, _) => a,
    });
    let joined = names.join(", ");
    Some(UpdateError {
        reason: "ClusterOperatorsNotAvailable".into(),
        message: format!("Some cluster operators are still updating: {joined}"),
        effect,
        name: joined,
        names,
        nested: errs,
        plain: false,
    })
}

/// One precondition check's failure (cvo-reference §6.1).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PreconditionFailure {
    pub name: String,
    pub reason: String,
    pub message: String,
    /// `false` for a non-blocking warning (4.10+; earlier every failure blocks).
    #[serde(default = "yes")]
    pub blocking: bool,
}

fn yes() -> bool {
    true
}

impl PreconditionFailure {
    /// The model's failure for a check the catalogue read, `None` when the text left out its
    /// reason or message (status and the load pipeline always write both).
    pub fn from_check(
        c: &crate::timeline::text::PreconditionCheck,
        blocking: bool,
    ) -> Option<Self> {
        Some(PreconditionFailure {
            name: c.name.clone(),
            reason: c.reason.clone()?,
            message: c.message.clone()?,
            blocking,
        })
    }
}

/// The summary of failed preconditions, and whether it blocks (cvo-reference §6.2).
pub fn summarize_preconditions(fails: &[PreconditionFailure], sem: &Semantics) -> (String, bool) {
    let texts: Vec<String> = fails
        .iter()
        .map(|f| {
            format!(
                "Precondition {} failed because of {}: {}",
                go_quote(&f.name),
                go_quote(&f.reason),
                f.message
            )
        })
        .collect();
    let summary = match texts.len() {
        1 => texts[0].clone(),
        _ => format!(
            "Multiple precondition checks failed:\n* {}",
            texts.join("\n* ")
        ),
    };
    let blocking = !sem.nonblocking_preconditions() || fails.iter().any(|f| f.blocking);
    (summary, blocking)
}

/// Go's `%q` (one implementation for the whole crate).
pub use crate::vocab::text::go_quote;

#[cfg(test)]
mod tests {
    use super::*;

    fn co(name: &str, reason: &str, effect: Effect) -> UpdateError {
        let sem = Semantics::fixed();
        let message = operator_message(reason, name, &sem).unwrap_or_default();
        UpdateError {
            reason: reason.into(),
            message,
            effect,
            name: name.into(),
            ..Default::default()
        }
    }

    #[test]
    fn summaries_follow_the_version() {
        let old = Semantics::legacy();
        let new = Semantics::fixed();
        assert_eq!(
            summary_for_reason("ClusterOperatorNotAvailable", "dns", &new),
            "the cluster operator dns is not available"
        );
        assert_eq!(
            summary_for_reason("ClusterOperatorNotAvailable", "dns", &old),
            "the cluster operator dns has not yet successfully rolled out"
        );
        assert_eq!(
            summary_for_reason("MultipleErrors", "", &new),
            "an unknown error has occurred: MultipleErrors"
        );
        assert_eq!(
            summary_for_reason("MultipleErrors", "", &old),
            "an unknown error has occurred"
        );
        assert_eq!(
            summary_for_reason("UpdatePayloadFailed", "", &new),
            "the update could not be applied"
        );
    }

    #[test]
    fn condensing_picks_the_strongest_effect_and_sorts_names() {
        let out = condense_cluster_operators(vec![
            co("test-co-B", "ClusterOperatorDegraded", Effect::Fail),
            co("test-co-A", "ClusterOperatorDegraded", Effect::None),
            co(
                "test-co-C",
                "ClusterOperatorDegraded",
                Effect::FailAfterInterval,
            ),
        ]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].reason, "ClusterOperatorsDegraded");
        assert_eq!(out[0].effect, Effect::Fail);
        assert_eq!(
            out[0].message,
            "Cluster operators test-co-A, test-co-B, test-co-C are degraded"
        );
    }

    #[test]
    fn preconditions_summarize_and_block() {
        let f = PreconditionFailure {
            name: "ClusterVersionUpgradeable".into(),
            reason: "DefaultSecurityContextConstraints_Mutated".into(),
            message: "Cluster operator kube-apiserver cannot be upgraded".into(),
            blocking: false,
        };
        let (s, blocking) = summarize_preconditions(std::slice::from_ref(&f), &Semantics::legacy());
        assert_eq!(
            s,
            "Precondition \"ClusterVersionUpgradeable\" failed because of \"DefaultSecurityContextConstraints_Mutated\": Cluster operator kube-apiserver cannot be upgraded"
        );
        assert!(blocking, "every failure blocks before 4.10");
        assert!(!summarize_preconditions(&[f], &Semantics::fixed()).1);
    }
}
