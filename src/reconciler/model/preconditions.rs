//! The CVO's payload preconditions computed from the ClusterVersion and the cluster
//! (`pkg/payload/precondition/clusterversion`): Rollback (4.14+), GiantHop (4.19+),
//! ClusterVersionUpgradeable (4.3+), EtcdRecentBackup (4.8-4.14) and
//! ClusterVersionRecommendedUpdate (4.12+), each as its CVO version words it, run in the
//! CVO's order on a target's version; the failures go to `summarize_preconditions`.

use super::cluster::ClusterState;
use super::errors::PreconditionFailure;
use super::upgradeable::{
    current_version, effective_minor, has_unmanaged_override, minor_version_upgrade,
    overrides_message,
};
use crate::model::{ClusterVersion, find_condition};
use crate::vocab::semver::{self as gosemver, Version};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// What the precondition checks read: the ClusterVersion as the CVO's lister holds it (the
/// status before this sync writes it) and the ClusterOperators.
#[derive(Debug, Clone, Copy)]
pub struct PreconditionInput<'a> {
    pub cv: &'a ClusterVersion,
    pub cluster: &'a ClusterState,
}

/// One check of a precondition run: its name and its failure, if it failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckResult {
    pub name: String,
    pub failure: Option<PreconditionFailure>,
}

fn fail(name: &str, reason: &str, message: String, blocking: bool) -> Option<PreconditionFailure> {
    Some(PreconditionFailure {
        name: name.into(),
        reason: reason.into(),
        message,
        blocking,
    })
}

const UPGRADEABLE: &str = "ClusterVersionUpgradeable";
const ETCD: &str = "EtcdRecentBackup";
const RECOMMENDED: &str = "ClusterVersionRecommendedUpdate";
const ROLLBACK: &str = "ClusterVersionRollback";
const GIANT_HOP: &str = "ClusterVersionGiantHop";

/// The current target and the requested version parsed as semantic versions, or the
/// failure a 4.14+ check reports (the current one unparsable is a warning, since only an
/// update can fix it).
fn versions(
    name: &str,
    cv: &ClusterVersion,
    desired: &str,
) -> Result<(Version, Version), Option<PreconditionFailure>> {
    let current = gosemver::parse(&cv.status.desired.version)
        .map_err(|e| fail(name, "InvalidCurrentVersion", e, false))?;
    let target =
        gosemver::parse(desired).map_err(|e| fail(name, "InvalidDesiredVersion", e, true))?;
    Ok((current, target))
}

/// `Upgradeable.Run`.
fn upgradeable(
    inp: PreconditionInput<'_>,
    desired: &str,
    minor: u32,
) -> Option<PreconditionFailure> {
    let cv = inp.cv;
    let up = find_condition(&cv.status.conditions, "Upgradeable")?;
    if up.status != "False" {
        return None;
    }
    let blocked_by_up = || fail(UPGRADEABLE, &up.reason, up.message.clone(), true);
    let overrides = || match has_unmanaged_override(cv) {
        true => fail(
            UPGRADEABLE,
            "ClusterVersionOverridesSet",
            overrides_message(minor).into(),
            true,
        ),
        false => None,
    };
    if minor >= 17 {
        let (current, target) = match versions(UPGRADEABLE, cv, desired) {
            Ok(v) => v,
            Err(f) => return f,
        };
        let patch_only = target.major == current.major && target.minor == current.minor;
        if target.precedence(&current) != Ordering::Greater || patch_only {
            if minor >= 22 {
                return retarget_warning(cv, &current, &target, patch_only, minor);
            }
            if let Some(f) = overrides() {
                return Some(f);
            }
            if minor >= 19
                && patch_only
                && let Some(from) = minor_update_from(cv, &current)
            {
                return fail(
                    UPGRADEABLE,
                    "MinorVersionClusterUpdateInProgress",
                    format!(
                        "Retarget to {target} while a minor level update from {from} to {current} is in progress"
                    ),
                    false,
                );
            }
            return None;
        }
        return blocked_by_up();
    }
    let history = &cv.status.history;
    if history.is_empty() {
        return None;
    }
    let desired_minor = effective_minor(desired);
    if minor <= 5 {
        // Before 4.6 the current version is history[0]'s, the target itself once a legacy
        // worker has pushed it.
        return match effective_minor(&history[0].version) == desired_minor {
            true => None,
            false => blocked_by_up(),
        };
    }
    let current_minor = effective_minor(current_version(history));
    let same_level = match minor {
        0..=14 => current_minor == desired_minor,
        _ => !minor_version_upgrade(current_minor, desired_minor),
    };
    match same_level {
        true => overrides(),
        false => blocked_by_up(),
    }
}

/// 4.22+ (6f8f98454, 07c1bb84b): with Upgradeable=False, a patch retarget (or a move that is
/// not forward) is never blocked: overrides make it a warning, and so does a patch retarget
/// while a minor or major update is in progress (`majorOrMinorUpdateFrom`).
fn retarget_warning(
    cv: &ClusterVersion,
    current: &Version,
    target: &Version,
    patch_only: bool,
    minor: u32,
) -> Option<PreconditionFailure> {
    if has_unmanaged_override(cv) {
        return fail(
            UPGRADEABLE,
            "ClusterVersionOverridesSet",
            format!(
                "Retarget from {current} to {target} is not blocked by ClusterVersionOverridesSet. But the cluster-version operator is not managing these resources; they are currently the responsibility of the agent that set the overrides: {}",
                overrides_message(minor)
            ),
            false,
        );
    }
    let (from, kind) = major_or_minor_update_from(cv, current)?;
    if !patch_only {
        return None;
    }
    fail(
        UPGRADEABLE,
        &format!("{kind}VersionClusterUpdateInProgress"),
        format!(
            "Retarget to {target} while a {} version update from {from} to {current} is in progress",
            kind.to_lowercase()
        ),
        false,
    )
}

/// `majorOrMinorUpdateFrom` (4.22+): the last completed version and `Major` or `Minor` while
/// such an update to `current` is in progress.
fn major_or_minor_update_from(
    cv: &ClusterVersion,
    current: &Version,
) -> Option<(String, &'static str)> {
    let completed = current_version(&cv.status.history);
    if completed.is_empty() {
        return None;
    }
    let v = gosemver::parse(completed).ok()?;
    let progressing = find_condition(&cv.status.conditions, "Progressing")?;
    if progressing.status != "True" {
        return None;
    }
    if v.major < current.major {
        Some((completed.to_string(), "Major"))
    } else if v.major == current.major && v.minor < current.minor {
        Some((completed.to_string(), "Minor"))
    } else {
        None
    }
}

/// `minorUpdateFrom` (4.19+): the last completed version while a minor update to `current`
/// is in progress.
fn minor_update_from(cv: &ClusterVersion, current: &Version) -> Option<String> {
    let completed = current_version(&cv.status.history);
    let v = gosemver::parse(completed).ok()?;
    let progressing = find_condition(&cv.status.conditions, "Progressing")?;
    (progressing.status == "True" && v.major == current.major && v.minor < current.minor)
        .then(|| completed.to_string())
}

/// `RecentEtcdBackup.Run` (4.8-4.14): a minor update needs etcd's RecentBackup=True.
fn etcd_backup(inp: PreconditionInput<'_>, desired: &str) -> Option<PreconditionFailure> {
    let current = current_version(&inp.cv.status.history);
    if !minor_version_upgrade(effective_minor(current), effective_minor(desired)) {
        return None;
    }
    let (reason, detail) = match inp.cluster.operator("etcd") {
        None => (
            "UnableToGetEtcdOperator".to_string(),
            "Unable to get etcd operator, err=clusteroperator.config.openshift.io \"etcd\" not found.".to_string(),
        ),
        Some(etcd) => match etcd.condition("RecentBackup") {
            None => (
                "EtcdRecentBackupNotSet".into(),
                "etcd backup condition is not set.".into(),
            ),
            Some(c) if c.status != "True" => (c.reason.clone(), c.message.clone()),
            Some(_) => return None,
        },
    };
    if reason.is_empty() {
        return None;
    }
    let message = match detail.is_empty() {
        true => String::new(),
        false => format!("RecentBackup: {detail}"),
    };
    fail(ETCD, &reason, message, true)
}

/// `RecommendedUpdate.Run` (4.12+): a warning unless the target is a recommended update.
fn recommended(inp: PreconditionInput<'_>, desired: &str) -> Option<PreconditionFailure> {
    let cv = inp.cv;
    let from = &cv.status.desired.version;
    let warn = |reason: &str, message: String| fail(RECOMMENDED, reason, message, false);
    if cv
        .status
        .available_updates
        .iter()
        .any(|u| u.version == desired)
    {
        return None;
    }
    if let Some(cu) = cv
        .status
        .conditional_updates
        .iter()
        .find(|c| c.release.version == desired)
    {
        return match cu.conditions.iter().find(|c| c.type_ == "Recommended") {
            Some(c) if c.status == "True" => None,
            Some(c) if c.status == "False" => warn(
                &c.reason,
                format!(
                    "Update from {from} to {desired} is not recommended:\n\n{}",
                    c.message
                ),
            ),
            Some(c) => warn(
                &c.reason,
                format!(
                    "Update from {from} to {desired} is {}={}: {}: {}",
                    c.type_, c.status, c.reason, c.message
                ),
            ),
            None => warn(
                "UnknownConditionType",
                format!(
                    "Update from {from} to {desired} has a status.conditionalUpdates entry, but no Recommended condition."
                ),
            ),
        };
    }
    if cv.spec.channel.is_empty() {
        return warn(
            "NoChannel",
            format!(
                "Configured channel is unset, so the recommended status of updating from {from} to {desired} is unknown."
            ),
        );
    }
    let message = match find_condition(&cv.status.conditions, "RetrievedUpdates") {
        None => format!(
            "No RetrievedUpdates, so the recommended status of updating from {from} to {desired} is unknown."
        ),
        Some(r) if r.status == "True" => format!(
            "RetrievedUpdates={} ({}), so the update from {from} to {desired} is probably neither recommended nor supported.",
            r.status, r.reason
        ),
        Some(r) => format!(
            "RetrievedUpdates={} ({}), so the recommended status of updating from {from} to {desired} is unknown.",
            r.status, r.reason
        ),
    };
    warn("UnknownUpdate", message)
}

/// `Rollback.Run` (4.14+): a lower target must be the previous version, within a z-stream.
fn rollback(inp: PreconditionInput<'_>, desired: &str) -> Option<PreconditionFailure> {
    let cv = inp.cv;
    let (current, target) = match versions(ROLLBACK, cv, desired) {
        Ok(v) => v,
        Err(f) => return f,
    };
    if target.precedence(&current) != Ordering::Less {
        return None;
    }
    let low = |message: String| fail(ROLLBACK, "LowDesiredVersion", message, true);
    let current_text = current.to_string();
    let previous = cv
        .status
        .history
        .iter()
        .find(|h| h.version != current_text || h.image != cv.status.desired.image)
        .and_then(|h| {
            gosemver::parse(&h.version)
                .ok()
                .map(|v| (v, h.image.clone()))
        });
    let Some((previous, image)) = previous else {
        return low(format!(
            "{target} is less than the current target {current}, and the cluster has no previous Semantic Version"
        ));
    };
    if target.precedence(&previous) != Ordering::Equal {
        return low(format!(
            "{target} is less than the current target {current}, and the only supported rollback is to the cluster's previous version {previous} ({image})"
        ));
    }
    if previous.major == current.major && previous.minor == current.minor {
        return None;
    }
    low(format!(
        "{target} is less than the current target {current} and matches the cluster's previous version, but rollbacks that change major or minor versions are not recommended"
    ))
}

/// `GiantHop.Run` (4.19+): no major update, at most one minor at a time; from 4.22
/// (d544606e4) 4.y -> 5.0 is allowed and 4.y -> 5.y (y > 0) refused with "or to 5.0".
fn giant_hop(inp: PreconditionInput<'_>, desired: &str, minor: u32) -> Option<PreconditionFailure> {
    let (current, target) = match versions(GIANT_HOP, inp.cv, desired) {
        Ok(v) => v,
        Err(f) => return f,
    };
    if minor >= 22 && target.major == 5 && current.major == 4 {
        if target.minor == 0 {
            return None;
        }
        return fail(
            GIANT_HOP,
            "MajorVersionUpdate",
            format!(
                "{target} has a larger major version than the current target {current} ({} > {}), and only updates within the current major version or to 5.0 are supported.",
                target.major, current.major
            ),
            true,
        );
    }
    if target.major > current.major {
        return fail(
            GIANT_HOP,
            "MajorVersionUpdate",
            format!(
                "{target} has a larger major version than the current target {current} ({} > {}), and only updates within the current major version are supported.",
                target.major, current.major
            ),
            true,
        );
    }
    if target.minor > current.minor.saturating_add(1) {
        return fail(
            GIANT_HOP,
            "MultipleMinorVersionsUpdate",
            format!(
                "{target} is more than one minor version beyond the current target {current} ({}.{} > {}.({}+1)), and only updates within the current minor version or to the next minor version are supported.",
                target.major, target.minor, current.major, current.minor
            ),
            true,
        );
    }
    None
}

/// The checks a CVO version runs, in its order (`precondition.List` in pkg/cvo/cvo.go).
pub fn checks(minor: u32) -> &'static [&'static str] {
    match minor {
        0..=2 => &[],
        3..=7 => &[UPGRADEABLE],
        8..=11 => &[UPGRADEABLE, ETCD],
        12..=13 => &[UPGRADEABLE, ETCD, RECOMMENDED],
        14 => &[ROLLBACK, UPGRADEABLE, ETCD, RECOMMENDED],
        15..=18 => &[ROLLBACK, UPGRADEABLE, RECOMMENDED],
        _ => &[ROLLBACK, GIANT_HOP, UPGRADEABLE, RECOMMENDED],
    }
}

/// `RunAll` for a target of version `desired`: every check, in order, with its result.
pub fn run_all(inp: PreconditionInput<'_>, desired: &str, minor: u32) -> Vec<CheckResult> {
    checks(minor)
        .iter()
        .map(|&name| CheckResult {
            name: name.into(),
            failure: match name {
                UPGRADEABLE => upgradeable(inp, desired, minor),
                ETCD => etcd_backup(inp, desired),
                RECOMMENDED => recommended(inp, desired),
                ROLLBACK => rollback(inp, desired),
                _ => giant_hop(inp, desired, minor),
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    //! The 4.22+ precondition changes, from release-4.22's `gianthop.go` and
    //! `upgradeable.go` (and their tests' cases), against the 4.21 behaviour they replace.
    use super::*;

    /// A cluster at `current` (history: `completed` Completed, then `current` Partial when they
    /// differ), Upgradeable=False, optionally with an unmanaged override.
    fn cv(completed: &str, current: &str, overrides: bool) -> ClusterVersion {
        let mut history = vec![
            serde_json::json!({"state": "Completed", "version": completed, "image": "q/r@sha256:a"}),
        ];
        let progressing = completed != current;
        if progressing {
            history.insert(
                0,
                serde_json::json!({"state": "Partial", "version": current, "image": "q/r@sha256:b"}),
            );
        }
        let mut v = serde_json::json!({
            "spec": {"clusterID": "616592bf-3a39-4a5a-9eb6-38ce1165d0f9"},
            "status": {
                "desired": {"version": current, "image": "q/r@sha256:b"},
                "history": history,
                "conditions": [
                    {"type": "Upgradeable", "status": "False", "reason": "AdminAckRequired", "message": "ack needed"},
                    {"type": "Progressing", "status": if progressing { "True" } else { "False" }, "message": ""}
                ]
            }
        });
        if overrides {
            v["spec"]["overrides"] = serde_json::json!([{"kind": "Deployment", "group": "apps", "namespace": "x", "name": "y", "unmanaged": true}]);
        }
        serde_json::from_value(v).unwrap()
    }

    fn failure(
        cv: &ClusterVersion,
        name: &str,
        desired: &str,
        minor: u32,
    ) -> Option<PreconditionFailure> {
        let cluster = ClusterState::default();
        run_all(
            PreconditionInput {
                cv,
                cluster: &cluster,
            },
            desired,
            minor,
        )
        .into_iter()
        .find(|r| r.name == name)
        .and_then(|r| r.failure)
    }

    #[test]
    fn giant_hop_lets_4_y_go_to_5_0_from_4_22_and_names_5_0_when_it_refuses() {
        let c = cv("4.22.3", "4.22.3", false);
        assert_eq!(failure(&c, GIANT_HOP, "5.0.0", 22), None);
        let f = failure(&c, GIANT_HOP, "5.1.0", 22).unwrap();
        assert_eq!(
            (f.reason.as_str(), f.blocking),
            ("MajorVersionUpdate", true)
        );
        assert_eq!(
            f.message,
            "5.1.0 has a larger major version than the current target 4.22.3 (5 > 4), and only updates within the current major version or to 5.0 are supported."
        );
        // 4.21 refuses every major update, without "or to 5.0".
        let f = failure(&cv("4.21.3", "4.21.3", false), GIANT_HOP, "5.0.0", 21).unwrap();
        assert!(
            f.message
                .ends_with("only updates within the current major version are supported.")
        );
    }

    #[test]
    fn overrides_no_longer_block_a_patch_retarget_from_4_22() {
        let c = cv("4.22.3", "4.22.3", true);
        let f = failure(&c, UPGRADEABLE, "4.22.4", 22).unwrap();
        assert_eq!(
            (f.reason.as_str(), f.blocking),
            ("ClusterVersionOverridesSet", false)
        );
        assert_eq!(
            f.message,
            "Retarget from 4.22.3 to 4.22.4 is not blocked by ClusterVersionOverridesSet. But the cluster-version operator is not managing these resources; they are currently the responsibility of the agent that set the overrides: Disabling ownership via cluster version overrides prevents upgrades between minor or major versions. Please remove overrides before requesting a minor or major version update."
        );
        let f = failure(&cv("4.21.3", "4.21.3", true), UPGRADEABLE, "4.21.4", 21).unwrap();
        assert_eq!(
            (f.message.as_str(), f.blocking),
            (OVERRIDES_MESSAGE_OLD, true)
        );
    }

    const OVERRIDES_MESSAGE_OLD: &str = super::super::upgradeable::OVERRIDES_MESSAGE;

    #[test]
    fn a_retarget_during_a_major_update_is_the_non_blocking_major_reason() {
        let f = failure(&cv("4.22.5", "5.0.0", false), UPGRADEABLE, "5.0.1", 100).unwrap();
        assert_eq!(
            (f.reason.as_str(), f.message.as_str(), f.blocking),
            (
                "MajorVersionClusterUpdateInProgress",
                "Retarget to 5.0.1 while a major version update from 4.22.5 to 5.0.0 is in progress",
                false
            )
        );
        let f = failure(&cv("4.21.5", "4.22.0", false), UPGRADEABLE, "4.22.1", 22).unwrap();
        assert_eq!(
            (f.reason.as_str(), f.message.as_str()),
            (
                "MinorVersionClusterUpdateInProgress",
                "Retarget to 4.22.1 while a minor version update from 4.21.5 to 4.22.0 is in progress"
            )
        );
        // 4.21 words it "minor level" and has no major form.
        let f = failure(&cv("4.20.5", "4.21.0", false), UPGRADEABLE, "4.21.1", 21).unwrap();
        assert_eq!(
            f.message,
            "Retarget to 4.21.1 while a minor level update from 4.20.5 to 4.21.0 is in progress"
        );
    }
}
