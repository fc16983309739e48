//! Reading CVO texts back into scenario inputs: precondition summaries (`Precondition "X"
//! failed because of "R": M`, `Multiple precondition checks failed:`), the ReleaseAccepted
//! and legacy Failing messages of a rejected target, Progressing progress messages, and the
//! task errors of `Result of work` (cvo-reference §3.3, §3.5, §3.6, §6.2, §8).

use crate::reconciler::errors::PreconditionFailure;
use crate::reconciler::scenario::{LoadOutcome, LoadStep, TaskError};
use regex::Regex;
use std::sync::LazyLock;

fn re(s: &str) -> Regex {
    Regex::new(s).expect("static regex")
}

static RE_ONE_PRECONDITION: LazyLock<Regex> =
    LazyLock::new(|| re(r#"(?s)^Precondition "([^"]+)" failed because of "([^"]*)": (.*)$"#));
static RE_LOAD_MESSAGE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?s)^(Preconditions failed for payload loaded|Retrieving payload failed|Loading payload failed|Verifying payload failed) version="((?:[^"\\]|\\.)*)" image="((?:[^"\\]|\\.)*)"(?:: | failure=)(.*)$"#,
    )
});
static RE_N_OF_M: LazyLock<Regex> =
    LazyLock::new(|| re(r"^Working towards (.+?): (\d+) of (\d+) done \(\d+% complete\)"));
static RE_PERCENT: LazyLock<Regex> =
    LazyLock::new(|| re(r"^Working towards (.+?): (\d+)% complete"));
static RE_CO_SINGLE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^Cluster operator (\S+) (is still updating|is not available|is degraded|is updating versions|does not declare expected versions|is reporting a failure: .*|has not yet reported success)$",
    )
});
static RE_CO_PLURAL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^Cluster operators (.+?) (are not available|are degraded|are updating versions|do not declare expected versions)$",
    )
});
static RE_SOME_UPDATING: LazyLock<Regex> =
    LazyLock::new(|| re(r"^Some cluster operators are still updating: (.+)$"));
static RE_COULD_NOT_UPDATE: LazyLock<Regex> =
    LazyLock::new(|| re(r#"^Could not update \S+ "[^"]*" \(\d+ of \d+\)(?:: (.*))?$"#));

/// Undoes Go's `%q` for the strings the CVO quotes.
fn unquote(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(o) => out.push(o),
            None => out.push('\\'),
        }
    }
    out
}

/// The failed checks in a precondition summary, or `None` when the text is not one.
pub fn precondition_summary(text: &str, blocking: bool) -> Option<Vec<PreconditionFailure>> {
    let text = text.trim();
    let text = text
        .strip_prefix("Forced through blocking failures: ")
        .unwrap_or(text);
    let items: Vec<&str> = match text.strip_prefix("Multiple precondition checks failed:") {
        Some(rest) => rest
            .split("\n* ")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.strip_prefix("* ").unwrap_or(s))
            .collect(),
        None => vec![text],
    };
    let mut out = Vec::new();
    for item in items {
        let c = RE_ONE_PRECONDITION.captures(item)?;
        out.push(PreconditionFailure {
            name: c[1].to_string(),
            reason: c[2].to_string(),
            message: c[3].trim_end().to_string(),
            blocking,
        });
    }
    (!out.is_empty()).then_some(out)
}

/// A rejected target named in a ReleaseAccepted=False message: `(version, image, outcome)`.
pub fn release_accepted_rejection(message: &str) -> Option<(String, String, LoadOutcome)> {
    let c = RE_LOAD_MESSAGE.captures(message.trim())?;
    let (version, image, rest) = (unquote(&c[2]), unquote(&c[3]), c[4].to_string());
    let mut o = LoadOutcome::loaded();
    o.version = version.clone();
    o.failure = Some(true);
    match &c[1] {
        "Preconditions failed for payload loaded" => {
            o.step = LoadStep::PreconditionChecks;
            o.preconditions = precondition_summary(&rest, true)?;
        }
        "Retrieving payload failed" => {
            o.step = LoadStep::RetrievePayload;
            o.reason = retrieval_reason(&rest).into();
            o.message = rest;
        }
        "Loading payload failed" => {
            o.step = LoadStep::LoadPayload;
            o.message = rest;
        }
        _ => {
            o.step = LoadStep::VerifyPayloadVersion;
            o.message = rest;
        }
    }
    Some((version, image, o))
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
    if let Some(c) = RE_N_OF_M.captures(message) {
        return Some((c[2].parse().ok()?, c[3].parse().ok()?));
    }
    let c = RE_PERCENT.captures(message)?;
    Some((c[2].parse().ok()?, 100))
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
pub fn task_errors(text: &str) -> Vec<TaskError> {
    let text = text.trim();
    if text.is_empty()
        || text.starts_with("update context deadline exceeded")
        || text.starts_with("update context canceled")
        || text == "context canceled"
    {
        return Vec::new();
    }
    if let Some(rest) = text.strip_prefix("Multiple errors are preventing progress:") {
        return rest
            .split("\n* ")
            .map(|s| s.trim().trim_start_matches("* "))
            .flat_map(task_errors)
            .collect();
    }
    if let Some(c) = RE_CO_SINGLE.captures(text) {
        let reason = match &c[2] {
            "is still updating" | "is not available" | "has not yet reported success" => {
                "ClusterOperatorNotAvailable"
            }
            "is updating versions" => "ClusterOperatorUpdating",
            "does not declare expected versions" => "ClusterOperatorNoVersions",
            _ => "ClusterOperatorDegraded",
        };
        let mut e = co_error(reason, &c[1]);
        if c[2].starts_with("is reporting a failure") || c[2].starts_with("has not yet") {
            e.message = text.to_string();
        }
        return vec![e];
    }
    let plural = |names: &str, reason: &str| -> Vec<TaskError> {
        names
            .split(", ")
            .filter(|n| !n.is_empty())
            .map(|n| co_error(reason, n))
            .collect()
    };
    if let Some(c) = RE_CO_PLURAL.captures(text) {
        let reason = match &c[2] {
            "are not available" => "ClusterOperatorNotAvailable",
            "are degraded" => "ClusterOperatorDegraded",
            "are updating versions" => "ClusterOperatorUpdating",
            _ => "ClusterOperatorNoVersions",
        };
        return plural(&c[1], reason);
    }
    if let Some(c) = RE_SOME_UPDATING.captures(text) {
        return plural(&c[1], "ClusterOperatorNotAvailable");
    }
    let reason = match RE_COULD_NOT_UPDATE.captures(text) {
        Some(c) => cause_reason(c.get(1).map_or("", |m| m.as_str())),
        None => "UpdatePayloadFailed",
    };
    vec![TaskError {
        reason: reason.to_string(),
        name: String::new(),
        message: text.to_string(),
        effect: None,
    }]
}

/// The UpdateError reason for a `Could not update …: {cause}` (cvo-reference §3.6).
fn cause_reason(cause: &str) -> &'static str {
    match cause {
        "resource may have been deleted" => "UpdatePayloadResourceNotFound",
        "someone else is updating this resource" => "UpdatePayloadResourceConflict",
        "the server is down or not responding" => "UpdatePayloadClusterDown",
        "the server is reporting an internal error" => "UpdatePayloadClusterError",
        "the object is invalid, possibly due to local cluster configuration" => {
            "UpdatePayloadResourceInvalid"
        }
        "could not authenticate to the server" => "UpdatePayloadClusterUnauthorized",
        "the server has forbidden updates to this resource" => "UpdatePayloadResourceForbidden",
        "the server is overloaded and is not accepting updates" => "UpdatePayloadClusterOverloaded",
        "the server does not recognize this resource, check extension API servers" => {
            "UpdatePayloadResourceTypeMissing"
        }
        _ => "UpdatePayloadFailed",
    }
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
