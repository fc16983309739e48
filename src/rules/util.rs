//! Small helpers shared by rules: OpenShift version numbers, object references, condition
//! lookups with their index (for evidence paths), the CVO generation (legacy or fixed), and
//! the precondition and ClusterOperator names inside CVO messages (read by the timeline's
//! catalogue).

use super::engine::Context;
use super::model::{EvidenceItem, ObjectRef};
use crate::model::{ClusterOperator, ClusterVersion, Condition, Sourced, Time};
use crate::timeline::text;

/// `4.3.0-0.ci-2019-09-27-182824` → `(4, 3, 0)`; `None` when it does not start with numbers.
pub fn version_triple(v: &str) -> Option<(u64, u64, u64)> {
    let core = v.trim_start_matches('v').split(['-', '+']).next()?;
    let mut it = core.split('.');
    let major = it.next()?.parse().ok()?;
    let minor = it.next()?.parse().ok()?;
    let patch = it.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    Some((major, minor, patch))
}

/// `(major, minor)` of a version string.
pub fn minor_of(v: &str) -> Option<(u64, u64)> {
    version_triple(v).map(|(a, b, _)| (a, b))
}

/// The ClusterVersion as a finding object.
pub fn cv_ref(cv: &ClusterVersion) -> ObjectRef {
    let name = if cv.metadata.name.is_empty() {
        "version"
    } else {
        &cv.metadata.name
    };
    ObjectRef::new("ClusterVersion", "", name)
}

/// A ClusterOperator as a finding object.
pub fn co_ref(co: &ClusterOperator) -> ObjectRef {
    ObjectRef::new("ClusterOperator", "", &co.metadata.name)
}

/// A condition by type, with its index in the list.
pub fn cond<'a>(conds: &'a [Condition], type_: &str) -> Option<(usize, &'a Condition)> {
    conds.iter().enumerate().find(|(_, c)| c.type_ == type_)
}

/// The name an object is found by in its file (`None` for a nameless object).
pub fn anchor(name: &str) -> Option<&str> {
    (!name.is_empty()).then_some(name)
}

/// Evidence at `status.conditions[i].<field>` of any object.
pub fn cond_evidence<T>(
    cx: &Context<'_>,
    obj: &Sourced<T>,
    name: &str,
    i: usize,
    c: &Condition,
    field: &str,
) -> EvidenceItem {
    let fallback = match field {
        "message" => c.message.as_str(),
        "reason" => c.reason.as_str(),
        _ => c.type_.as_str(),
    };
    let fallback = fallback.lines().next().unwrap_or("");
    cx.field(
        obj,
        anchor(name),
        &format!("status.conditions[{i}].{field}"),
        fallback,
    )
    .with_label(format!("{} {}", c.type_, c.status))
}

/// Evidence at `status.history[i].<field>` of the ClusterVersion.
pub fn history_evidence(
    cx: &Context<'_>,
    cv: &Sourced<ClusterVersion>,
    i: usize,
    field: &str,
    fallback: &str,
) -> EvidenceItem {
    cx.field(
        cv,
        anchor(&cv.metadata.name),
        &format!("status.history[{i}].{field}"),
        fallback,
    )
}

/// Whether the CVO that wrote this ClusterVersion has the 4.11+ payload-acceptance design
/// (`ReleaseAccepted`, keeps reconciling while a target is rejected).
pub fn fixed_cvo(cv: &ClusterVersion) -> bool {
    if cv.condition("ReleaseAccepted").is_some() {
        return true;
    }
    let running = cv
        .last_completed()
        .map(|(_, h)| h.version.as_str())
        .unwrap_or("");
    minor_of(running).is_some_and(|m| m >= (4, 11))
}

pub use super::pending::{PendingTarget, same};

/// The requested target when it has not been accepted (see [`super::pending::pending_target`]).
pub fn pending_target(cx: &Context<'_>) -> Option<PendingTarget> {
    super::pending::pending_target(cx.bundle, cx.timeline)
}

pub use text::operators_in;

/// `12m`, `1h05m`, `40s`.
pub fn duration(from: Time, to: Time) -> String {
    crate::timeline::human_duration(to - from)
}

/// Backticked, comma-joined names.
pub fn ticked(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(
            version_triple("4.3.0-0.ci-2019-09-27-182824"),
            Some((4, 3, 0))
        );
        assert_eq!(version_triple("4.14.0-rc.3"), Some((4, 14, 0)));
        assert_eq!(minor_of("4.19.0-okd-scos.16"), Some((4, 19)));
        assert_eq!(version_triple("quay.io/x@sha256:1"), None);
    }

    #[test]
    fn names_in_messages() {
        let m = r#"Precondition "ClusterVersionUpgradeable" failed because of "DefaultSecurityContextConstraints_Mutated": Cluster operator kube-apiserver cannot be upgraded: x"#;
        let c = text::first_precondition(m).unwrap();
        assert_eq!(
            (c.name.as_str(), c.reason.as_deref()),
            (
                "ClusterVersionUpgradeable",
                Some("DefaultSecurityContextConstraints_Mutated")
            )
        );
        assert_eq!(operators_in(m), vec!["kube-apiserver"]);
        assert_eq!(
            operators_in("Cluster operators etcd, kube-apiserver are degraded"),
            vec!["etcd", "kube-apiserver"]
        );
    }
}
