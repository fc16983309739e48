//! Turning the CVO texts the timeline's catalogue reads (precondition summaries, the
//! ReleaseAccepted and legacy Failing messages of a rejected target, Progressing progress,
//! the task errors of `Result of work`) into scenario inputs (cvo-reference §3.3, §3.5, §3.6,
//! §6.2, §8). No CVO wording is matched here: see `crate::timeline::text`.

use crate::reconciler::model::errors::PreconditionFailure;
use crate::reconciler::scenario::{LoadOutcome, LoadStep, TaskError};
use crate::timeline::text::{self, TaskText};

/// The failed checks in a precondition summary, or `None` when the text is not one (every
/// check must name its reason and message, as status and the load pipeline write them).
pub fn precondition_summary(text: &str, blocking: bool) -> Option<Vec<PreconditionFailure>> {
    let checks = text::preconditions(text);
    if checks.is_empty() {
        return None;
    }
    checks
        .iter()
        .map(|c| PreconditionFailure::from_check(c, blocking))
        .collect()
}

/// A rejected target named in a ReleaseAccepted=False message: `(version, image, outcome)`.
pub fn release_accepted_rejection(message: &str) -> Option<(String, String, LoadOutcome)> {
    let m = text::load_message(message)?;
    let mut o = LoadOutcome::loaded();
    o.version = m.version.clone();
    o.failure = Some(true);
    o.step = m.step;
    match m.step {
        LoadStep::PayloadLoaded | LoadStep::VerifyPayload => return None,
        LoadStep::PreconditionChecks => {
            o.preconditions = precondition_summary(&m.rest, true)?;
        }
        LoadStep::RetrievePayload => {
            o.reason = retrieval_reason(&m.rest).into();
            o.message = m.rest;
        }
        LoadStep::LoadPayload | LoadStep::VerifyPayloadVersion => o.message = m.rest,
    }
    Some((m.version, m.image, o))
}

fn retrieval_reason(message: &str) -> &'static str {
    match message.starts_with("The update cannot be verified") {
        true => "ImageVerificationFailed",
        false => "UpdatePayloadRetrievalFailed",
    }
}

/// The outcome a legacy CVO's Failing condition reports for a target whose checks fail
/// (reasons `UpgradePreconditionCheckFailed`, `ImageVerificationFailed`,
/// `UpdatePayloadRetrievalFailed`); `None` for task failures.
pub fn legacy_failing_rejection(reason: &str, message: &str) -> Option<LoadOutcome> {
    let mut o = LoadOutcome::loaded();
    o.failure = Some(true);
    match reason {
        "UpgradePreconditionCheckFailed" => {
            o.step = LoadStep::PreconditionChecks;
            o.preconditions = precondition_summary(message, true)?;
        }
        "ImageVerificationFailed" | "UpdatePayloadRetrievalFailed" => {
            o.step = LoadStep::RetrievePayload;
            o.reason = reason.to_string();
            o.message = message.to_string();
        }
        _ => return None,
    }
    Some(o)
}

/// `(done, total)` from a Progressing `Working towards X: …` message (`N of M done` from 4.7,
/// `P% complete` before, read as P of 100).
pub fn progress(message: &str) -> Option<(u32, u32)> {
    text::progress(message).map(|p| (p.done, p.total))
}

fn co_error(reason: &str, name: &str) -> TaskError {
    TaskError {
        reason: reason.to_string(),
        name: name.to_string(),
        message: String::new(),
        effect: None,
    }
}

/// The task errors behind one error text of a pass (`Result of work`, a Failing message or
/// one `* ` line of `MultipleErrors`). ClusterOperator errors keep no message, so the model
/// words them as the modelled CVO version does. Context errors give nothing.
pub fn task_errors(t: &str) -> Vec<TaskError> {
    text::task_texts(t)
        .into_iter()
        .flat_map(|one| match text::task_text(one) {
            TaskText::Context => Vec::new(),
            TaskText::Operators {
                names,
                reason,
                keeps_message,
            } => names
                .iter()
                .map(|n| {
                    let mut e = co_error(reason, n);
                    if keeps_message {
                        e.message = one.to_string();
                    }
                    e
                })
                .collect(),
            TaskText::Payload { reason } => vec![TaskError {
                reason: reason.to_string(),
                name: String::new(),
                message: one.to_string(),
                effect: None,
            }],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCC: &str = "Cluster operator kube-apiserver cannot be upgraded: DefaultSecurityContextConstraintsUpgradeable: Default SecurityContextConstraints object(s) have mutated [privileged]";

    #[test]
    fn precondition_summaries_read_back() {
        let one = format!(
            "Precondition \"ClusterVersionUpgradeable\" failed because of \"DefaultSecurityContextConstraints_Mutated\": {SCC}"
        );
        let p = precondition_summary(&one, true).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(
            (
                p[0].name.as_str(),
                p[0].reason.as_str(),
                p[0].message.as_str()
            ),
            (
                "ClusterVersionUpgradeable",
                "DefaultSecurityContextConstraints_Mutated",
                SCC
            )
        );
        let many = "Multiple precondition checks failed:\n* Precondition \"ClusterVersionUpgradeable\" failed because of \"AdminAckRequired\": ack it\n* Precondition \"EtcdRecentBackup\" failed because of \"ControllerStarted\": RecentBackup: Backup pod phase: \"Running\"";
        let p = precondition_summary(many, false).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].name, "EtcdRecentBackup");
        assert_eq!(p[1].message, "RecentBackup: Backup pod phase: \"Running\"");
        assert!(!p[1].blocking);
        assert!(precondition_summary("Could not update deployment", true).is_none());
    }

    #[test]
    fn release_accepted_messages_read_back() {
        let m = format!(
            "Preconditions failed for payload loaded version=\"4.15.0\" image=\"quay.io/x@sha256:c2\": Precondition \"ClusterVersionUpgradeable\" failed because of \"AdminAckRequired\": {SCC}"
        );
        let (v, i, o) = release_accepted_rejection(&m).unwrap();
        assert_eq!((v.as_str(), i.as_str()), ("4.15.0", "quay.io/x@sha256:c2"));
        assert_eq!(o.step, LoadStep::PreconditionChecks);
        assert_eq!(o.preconditions[0].message, SCC);
        let r = "Retrieving payload failed version=\"\" image=\"quay.io/y@sha256:1\" failure=The update cannot be verified: no signature";
        let (v, _, o) = release_accepted_rejection(r).unwrap();
        assert_eq!(v, "");
        assert_eq!(
            (o.step, o.reason.as_str()),
            (LoadStep::RetrievePayload, "ImageVerificationFailed")
        );
        assert!(
            release_accepted_rejection("Payload loaded version=\"4.14.8\" image=\"x\"").is_none()
        );
    }

    #[test]
    fn progress_messages_read_back() {
        assert_eq!(
            progress("Working towards 4.14.1: 712 of 909 done (78% complete)"),
            Some((712, 909))
        );
        assert_eq!(
            progress("Working towards 4.3.0-0.nightly-2019-10-15-225018: 27% complete"),
            Some((27, 100))
        );
        assert_eq!(progress("Cluster version is 4.3.10"), None);
    }

    #[test]
    fn task_errors_read_back() {
        let e = task_errors("Cluster operator authentication is degraded");
        assert_eq!(
            (
                e[0].reason.as_str(),
                e[0].name.as_str(),
                e[0].message.as_str()
            ),
            ("ClusterOperatorDegraded", "authentication", "")
        );
        let e = task_errors("Cluster operator machine-config is still updating");
        assert_eq!(e[0].reason, "ClusterOperatorNotAvailable");
        let e = task_errors("Cluster operators etcd, kube-apiserver are updating versions");
        assert_eq!(e.len(), 2);
        assert_eq!(
            (e[1].reason.as_str(), e[1].name.as_str()),
            ("ClusterOperatorUpdating", "kube-apiserver")
        );
        let e = task_errors("Some cluster operators are still updating: authentication, console");
        assert_eq!(e.len(), 2);
        let e = task_errors(
            "Could not update deployment \"openshift-monitoring/cluster-monitoring-operator\" (260 of 433): the server is down or not responding",
        );
        assert_eq!(e[0].reason, "UpdatePayloadClusterDown");
        let m = "Multiple errors are preventing progress:\n* Could not update deployment \"a/b\" (1 of 2)\n* Cluster operator x is degraded";
        let e = task_errors(m);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].reason, "UpdatePayloadFailed");
        assert!(task_errors("update context deadline exceeded at 3 of 5").is_empty());
    }
}
