//! The CVO's Upgradeable family of conditions (`pkg/cvo/upgradeable.go`): the checks it runs
//! on what it reads (spec.overrides, the admin-gates and admin-acks config maps, the
//! ClusterOperators' Upgradeable, an update in progress), the set of conditions it builds from
//! the failing ones, when it recomputes them, and how the set reaches the ClusterVersion
//! (`NeedsUpdate`), for each CVO version that changed them.

use super::cluster::ClusterState;
use super::conditions::set_condition;
use super::events::UpgradeableCondition;
use super::semantics::Semantics;
use crate::model::{ClusterVersion, Condition, HistoryEntry, Time, find_condition};
use crate::vocab::text::go_quote;
use std::collections::BTreeMap;

/// `upgradeable.NeedsUpdate`: every condition of the computed set is set (in its order), and
/// every `Upgradeable*` condition the set does not hold any more is removed.
pub fn apply_upgradeable(conds: &mut Vec<Condition>, set: &[UpgradeableCondition], now: Time) {
    for c in set {
        let status = if c.status.is_empty() {
            "False"
        } else {
            &c.status
        };
        set_condition(conds, &c.type_, status, &c.reason, &c.message, now);
    }
    conds.retain(|c| !c.type_.starts_with("Upgradeable") || set.iter().any(|s| s.type_ == c.type_));
}

/// `setUpgradeableConditions`: the set the CVO computes from its failing checks. None: no
/// condition (so `Upgradeable` is removed); one: `Upgradeable=False` with its reason and
/// message; several: each check's condition and `Upgradeable=False` `MultipleReasons`, whose
/// message changed in 4.5 and 4.8; sorted by type.
pub fn upgradeable_from_checks(
    checks: &[UpgradeableCondition],
    minor: u32,
) -> Vec<UpgradeableCondition> {
    let failed = |c: &UpgradeableCondition| UpgradeableCondition {
        status: if c.status.is_empty() {
            "False".into()
        } else {
            c.status.clone()
        },
        ..c.clone()
    };
    let mut set: Vec<UpgradeableCondition> = match checks {
        [] => Vec::new(),
        [one] => vec![UpgradeableCondition {
            type_: "Upgradeable".into(),
            status: "False".into(),
            reason: one.reason.clone(),
            message: one.message.clone(),
        }],
        many => {
            let reasons: Vec<&str> = many.iter().map(|c| c.reason.as_str()).collect();
            let message = match minor {
                0..=4 => format!(
                    "Cluster cannot be upgraded for multiple reasons: {}",
                    reasons.join(",")
                ),
                5..=7 => format!(
                    "Cluster cannot be upgraded between minor versions for multiple reasons: {}",
                    reasons.join(",")
                ),
                _ => {
                    let msgs: Vec<&str> = many.iter().map(|c| c.message.as_str()).collect();
                    format!(
                        "Cluster should not be upgraded between {} for multiple reasons: {}\n* {}",
                        guarded_updates(minor),
                        reasons.join(","),
                        msgs.join("\n* ")
                    )
                }
            };
            let mut v: Vec<UpgradeableCondition> = many.iter().map(failed).collect();
            v.push(UpgradeableCondition {
                type_: "Upgradeable".into(),
                status: "False".into(),
                reason: "MultipleReasons".into(),
                message,
            });
            v
        }
    };
    set.sort_by(|a, b| a.type_.cmp(&b.type_));
    set
}

/// `GetCurrentVersion`: the newest Completed entry's version, else the oldest entry's (the
/// installed one), else empty.
pub fn current_version(history: &[HistoryEntry]) -> &str {
    match history.iter().find(|h| h.state == "Completed") {
        Some(h) => &h.version,
        None => history.last().map_or("", |h| h.version.as_str()),
    }
}

/// `GetEffectiveMinor`: the second dot-separated part, or empty.
pub fn effective_minor(version: &str) -> &str {
    let mut parts = version.split('.');
    match (parts.next(), parts.next()) {
        (Some(_), Some(m)) => m,
        _ => "",
    }
}

/// `minorVersionUpgrade`: both minors are numbers and the desired one is greater.
pub fn minor_version_upgrade(current: &str, desired: &str) -> bool {
    match (current.parse::<i64>(), desired.parse::<i64>()) {
        (Ok(c), Ok(d)) => d > c,
        _ => false,
    }
}

/// Whether `spec.overrides` holds an unmanaged component.
pub fn has_unmanaged_override(cv: &ClusterVersion) -> bool {
    cv.spec.overrides.iter().any(|o| {
        o.get("unmanaged")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(false)
    })
}

/// The overrides message of the Upgradeable check and precondition (to 4.21).
pub const OVERRIDES_MESSAGE: &str = "Disabling ownership via cluster version overrides prevents upgrades. Please remove overrides before continuing.";

/// The overrides message from 4.22 (d01b53a45: "between minor or major versions").
pub const OVERRIDES_MESSAGE_422: &str = "Disabling ownership via cluster version overrides prevents upgrades between minor or major versions. Please remove overrides before requesting a minor or major version update.";

/// The overrides message a CVO 4.`minor` writes.
pub fn overrides_message(minor: u32) -> &'static str {
    match minor {
        0..=21 => OVERRIDES_MESSAGE,
        _ => OVERRIDES_MESSAGE_422,
    }
}

/// What an update the Upgradeable checks guard is called: "minor versions" to 4.21, "minor or
/// major versions" from 4.22 (the 4 -> 5 hop).
fn guarded_updates(minor: u32) -> &'static str {
    match minor {
        0..=21 => "minor versions",
        _ => "minor or major versions",
    }
}

fn failing(type_: &str, reason: &str, message: String) -> UpgradeableCondition {
    UpgradeableCondition {
        type_: type_.into(),
        status: "False".into(),
        reason: reason.into(),
        message,
    }
}

/// `clusterVersionOverridesUpgradeable`.
fn overrides_check(cv: &ClusterVersion, minor: u32) -> Option<UpgradeableCondition> {
    has_unmanaged_override(cv).then(|| {
        failing(
            "UpgradeableClusterVersionOverrides",
            "ClusterVersionOverridesSet",
            overrides_message(minor).into(),
        )
    })
}

/// `clusterOperatorsUpgradeable`: the operators reporting Upgradeable=False (the lister's
/// order is a map's; the model lists them by name, as the upstream tests see them).
fn operators_check(cluster: &ClusterState, minor: u32) -> Option<UpgradeableCondition> {
    let mut notup: Vec<(&str, &Condition)> = cluster
        .cluster_operators
        .iter()
        .filter_map(|o| {
            o.condition("Upgradeable")
                .filter(|c| c.status == "False")
                .map(|c| (o.name.as_str(), c))
        })
        .collect();
    notup.sort_by(|a, b| a.0.cmp(b.0));
    let should_not = format!("should not be upgraded between {}", guarded_updates(minor));
    let verb = match minor {
        0..=4 => "cannot be upgraded",
        5..=7 => "cannot be upgraded between minor versions",
        _ => should_not.as_str(),
    };
    let (reason, message) = match notup.as_slice() {
        [] => return None,
        [(name, c)] => (
            c.reason.clone(),
            format!("Cluster operator {name} {verb}: {}", c.message),
        ),
        many => {
            let lines: Vec<String> = many
                .iter()
                .map(|(name, c)| {
                    format!(
                        "Cluster operator {name} {verb}: {}: {}",
                        c.reason, c.message
                    )
                })
                .collect();
            let head = match minor {
                0..=4 => "Multiple cluster operators cannot be upgradeable".to_string(),
                5..=7 => "Multiple cluster operators cannot be upgraded between minor versions"
                    .to_string(),
                _ => format!("Multiple cluster operators {should_not}"),
            };
            (
                "ClusterOperatorsNotUpgradeable".to_string(),
                format!("{head}:\n* {}", lines.join("\n* ")),
            )
        }
    };
    Some(failing("UpgradeableClusterOperators", &reason, message))
}

const ADMIN_ACK: &str = "UpgradeableAdminAckRequired";

/// `gateApplicableToCurrentVersion`: the gate name must match `^ack-[4-5][.]([0-9]{1,})-[^-]`;
/// it applies when its minor is the current version's.
fn gate_applies(gate: &str, current: &str, minor: u32) -> Result<bool, String> {
    let b = gate.as_bytes();
    let digits = b
        .get(6..)
        .map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count());
    let matched = gate.starts_with("ack-")
        && matches!(b.get(4), Some(b'4' | b'5'))
        && b.get(5) == Some(&b'.')
        && digits > 0
        && b.get(6 + digits) == Some(&b'-')
        && b.get(7 + digits).is_some_and(|c| *c != b'-');
    if !matched {
        return Err(format!(
            "admin-gates configmap gate name {gate} has invalid format; must comply with {}{}",
            go_quote("^ack-[4-5][.]([0-9]{1,})-[^-]"),
            // 4.22 dropped the trailing period (pkg/cvo/upgradeable.go at 9b55234a2).
            if minor >= 22 { "" } else { "." }
        ));
    }
    // The matched text is `ack-4.N-x`; its second `-`-separated part is `4.N`.
    let ack_version = &gate[4..6 + digits];
    Ok(effective_minor(ack_version) == effective_minor(current))
}

/// `clusterAdminAcksCompletedUpgradeable` (4.8+).
fn admin_acks_check(
    cv: &ClusterVersion,
    cluster: &ClusterState,
    minor: u32,
) -> Option<UpgradeableCondition> {
    let current = current_version(&cv.status.history);
    if current.is_empty() {
        return None;
    }
    let Some(gates) = &cluster.admin_gates else {
        return Some(failing(
            ADMIN_ACK,
            "UnableToAccessAdminGatesConfigMap",
            "admin-gates configmap not found.".into(),
        ));
    };
    let Some(acks) = &cluster.admin_acks else {
        return Some(failing(
            ADMIN_ACK,
            "UnableToAccessAdminAcksConfigMap",
            "admin-acks configmap not found.".into(),
        ));
    };
    let mut reasons: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (gate, value) in gates {
        let (reason, message) = match gate_applies(gate, current, minor) {
            Err(e) => ("AdminAckConfigMapGateNameError", e),
            Ok(false) => continue,
            Ok(true) if value.is_empty() => (
                "AdminAckConfigMapGateValueError",
                format!("admin-gates configmap gate {gate} must contain a non-empty value."),
            ),
            Ok(true) if acks.get(gate).map(String::as_str) != Some("true") => {
                ("AdminAckRequired", value.clone())
            }
            Ok(true) => continue,
        };
        reasons.entry(reason).or_default().push(message);
    }
    let mut messages: Vec<String> = reasons
        .values_mut()
        .map(|v| {
            v.sort();
            v.join(" ")
        })
        .collect();
    match reasons.len() {
        0 => None,
        1 => {
            let reason = reasons.keys().next().copied().unwrap_or_default();
            Some(failing(ADMIN_ACK, reason, messages.swap_remove(0)))
        }
        _ => {
            messages.sort();
            Some(failing(ADMIN_ACK, "MultipleReasons", messages.join(" ")))
        }
    }
}

/// `upgradeInProgressUpgradeable` (4.19+): a True condition while Progressing is True.
fn in_progress_check(cv: &ClusterVersion) -> Option<UpgradeableCondition> {
    find_condition(&cv.status.conditions, "Progressing")
        .filter(|c| c.status == "True")
        .map(|_| UpgradeableCondition {
            type_: "UpgradeableUpgradeInProgress".into(),
            status: "True".into(),
            reason: "UpdateInProgress".into(),
            message:
                "An update is already in progress and the details are in the Progressing condition"
                    .into(),
        })
}

/// The failing checks of `defaultUpgradeableChecks`, in the CVO's order: 4.3-4.7 operators
/// then overrides; 4.8+ overrides, admin acks, operators (then deletes in progress, which
/// the model has no input for), and from 4.19 an update in progress.
pub fn failing_checks(
    cv: &ClusterVersion,
    cluster: &ClusterState,
    minor: u32,
) -> Vec<UpgradeableCondition> {
    let checks = match minor {
        0..=2 => Vec::new(),
        3..=7 => vec![operators_check(cluster, minor), overrides_check(cv, minor)],
        _ => {
            let mut v = vec![
                overrides_check(cv, minor),
                admin_acks_check(cv, cluster, minor),
                operators_check(cluster, minor),
            ];
            if minor >= 19 {
                v.push(in_progress_check(cv));
            }
            v
        }
    };
    checks.into_iter().flatten().collect()
}

/// When the computed set was last built, and the set (`optr.upgradeable`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Computed {
    pub at: Option<Time>,
    pub set: Vec<UpgradeableCondition>,
}

impl Computed {
    /// `syncUpgradeable`'s throttle: 2 minutes since the last computation; from 4.12, 15
    /// seconds while ReleaseAccepted has been False for failing preconditions for under 2
    /// minutes. (4.3-4.10 wait a random 2-4 minutes; the model takes the lower bound.)
    fn due(&self, cv: &ClusterVersion, minor: u32, now: Time) -> bool {
        let Some(at) = self.at else { return true };
        let recent_precondition_failure = minor >= 12
            && find_condition(&cv.status.conditions, "ReleaseAccepted").is_some_and(|c| {
                c.reason == "PreconditionChecks"
                    && c.status == "False"
                    && c.last_transition_time
                        .is_some_and(|t| now < t + chrono::Duration::minutes(2))
            });
        let throttle = match recent_precondition_failure {
            true => chrono::Duration::seconds(15),
            false => chrono::Duration::minutes(2),
        };
        now >= at + throttle
    }

    /// The upgradeable loop at an Operator.sync: recompute from the ClusterVersion the CVO's
    /// lister holds when due (or at once when an admin config map changed, 4.8+). `true` when
    /// the set was recomputed; [`apply_upgradeable`] then writes it to the status.
    pub fn refresh(
        &mut self,
        cv: &ClusterVersion,
        cluster: &ClusterState,
        sem: &Semantics,
        now: Time,
        force: bool,
    ) -> bool {
        if sem.minor < 3 || !((force && sem.minor >= 8) || self.due(cv, sem.minor, now)) {
            return false;
        }
        let checks = failing_checks(cv, cluster, sem.minor);
        self.set = upgradeable_from_checks(&checks, sem.minor);
        self.at = Some(now);
        true
    }

    /// The set in a trace note: `none failing` or `Type=Status Reason, …`.
    pub fn describe(&self) -> String {
        match self.set.is_empty() {
            true => "no check fails".into(),
            false => self
                .set
                .iter()
                .map(|c| format!("{}={} {}", c.type_, c.status, c.reason))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gate_names_follow_the_cvos_pattern() {
        assert_eq!(
            gate_applies("ack-4.8-kube-122-api-removals-in-4.9", "4.8.0", 21),
            Ok(true)
        );
        assert_eq!(
            gate_applies("ack-4.9-kube-122-api-removals-in-4.9", "4.8.0", 21),
            Ok(false)
        );
        assert_eq!(gate_applies("ack-5.12-x", "5.12.1", 21), Ok(true));
        for bad in [
            "ack-4.8--x",
            "ack-3.8-x",
            "ack-4.-x",
            "ack-4.8",
            "ack-4.8-",
            "nack-4.8-x",
        ] {
            let e = gate_applies(bad, "4.8.0", 21).unwrap_err();
            assert!(e.starts_with(&format!("admin-gates configmap gate name {bad} has invalid format; must comply with \"^ack-")), "{e}");
            // The text ends with the quoted pattern from 4.22, with a period before.
            assert!(e.ends_with("\"."), "{e}");
            let e22 = gate_applies(bad, "4.8.0", 22).unwrap_err();
            assert_eq!(format!("{e22}."), e);
        }
    }

    /// The 5.0.0-ec.2 cluster of oc's 5.0.0 example sets (TechPreviewNoUpgrade, an unmanaged
    /// override): its `Upgradeable` message as the 4.22+ CVO wrote it, and as 4.21 words it.
    #[test]
    fn upgradeable_says_minor_or_major_versions_from_4_22() {
        let cv: ClusterVersion = serde_json::from_value(serde_json::json!({
            "spec": {"overrides": [{"group": "config.openshift.io", "kind": "ClusterImagePolicy", "name": "openshift", "namespace": "", "unmanaged": true}]},
            "status": {"desired": {"version": "5.0.0-ec.2"}, "history": [{"state": "Completed", "version": "5.0.0-ec.2"}]}
        }))
        .unwrap();
        let cluster = ClusterState {
            cluster_operators: vec![super::super::cluster::ClusterOperatorState {
                name: "config-operator".into(),
                conditions: vec![Condition {
                    type_: "Upgradeable".into(),
                    status: "False".into(),
                    reason: "FeatureGates_RestrictedFeatureGates_TechPreviewNoUpgrade".into(),
                    message:
                        "FeatureGatesUpgradeable: \"TechPreviewNoUpgrade\" does not allow updates"
                            .into(),
                    last_transition_time: None,
                }],
            }],
            ..ClusterState::default()
        };
        let upgradeable = |minor: u32| {
            upgradeable_from_checks(&failing_checks(&cv, &cluster, minor), minor)
                .into_iter()
                .find(|c| c.type_ == "Upgradeable")
                .map(|c| (c.reason, c.message))
                .unwrap()
        };
        assert_eq!(
            upgradeable(100),
            (
                "MultipleReasons".to_string(),
                "Cluster should not be upgraded between minor or major versions for multiple reasons: ClusterVersionOverridesSet,FeatureGates_RestrictedFeatureGates_TechPreviewNoUpgrade\n* Disabling ownership via cluster version overrides prevents upgrades between minor or major versions. Please remove overrides before requesting a minor or major version update.\n* Cluster operator config-operator should not be upgraded between minor or major versions: FeatureGatesUpgradeable: \"TechPreviewNoUpgrade\" does not allow updates".to_string()
            )
        );
        assert_eq!(
            upgradeable(21).1,
            "Cluster should not be upgraded between minor versions for multiple reasons: ClusterVersionOverridesSet,FeatureGates_RestrictedFeatureGates_TechPreviewNoUpgrade\n* Disabling ownership via cluster version overrides prevents upgrades. Please remove overrides before continuing.\n* Cluster operator config-operator should not be upgraded between minor versions: FeatureGatesUpgradeable: \"TechPreviewNoUpgrade\" does not allow updates"
        );
    }

    #[test]
    fn versions_as_the_cvo_reads_them() {
        assert_eq!(effective_minor("4.13.0-rc.1"), "13");
        assert_eq!(effective_minor("4"), "");
        assert!(minor_version_upgrade("12", "13"));
        assert!(!minor_version_upgrade("13", "13") && !minor_version_upgrade("", "13"));
    }
}
