//! The risk sources of `pkg/risk` and what the CVO makes of them: firing alerts become risks
//! (`pkg/risk/alert`, 4.22+); the Upgradeable sources (`pkg/risk/{updating,overrides,deletion,
//! adminack,upgradeable}`, 4.23+) report always-applying risks on the minor and major updates;
//! and 4.23+'s risk-based `Upgradeable` condition. Their answers merge into the conditional
//! updates in [`super::risks`].

use super::cluster::{AlertState, ClusterState};
use super::conditions::{remove_condition, set_condition};
use super::risks::{APPLIES, EVAL_FAILED, MULTIPLE, SourceRisks, valid_reason};
use crate::model::{ClusterVersion, Condition, ConditionalUpdateRisk, Time, find_condition};
use crate::vocab::semver::{self as gosemver, Version};
use std::collections::BTreeMap;

const RUNBOOK_NOT_FOUND: &str =
    "https://github.com/openshift/runbooks/tree/master/alerts?runbook=notfound";

/// `alertsToRisks` (pkg/risk/alert, 4.22+): firing alerts of the classes oc's precheck knows
/// become risks named by the alert, sorted by name; repeated alerts of a name are joined.
pub fn alerts_to_risks(alerts: &[AlertState]) -> Vec<ConditionalUpdateRisk> {
    let mut risks: BTreeMap<String, ConditionalUpdateRisk> = BTreeMap::new();
    for a in alerts {
        let label = |k: &str| a.labels.get(k).map(String::as_str).unwrap_or("");
        let ann = |k: &str| a.annotations.get(k).map(String::as_str).unwrap_or("");
        let name = label("alertname");
        if name.is_empty() || a.state == "pending" {
            continue;
        }
        let mut summary = match ann("summary") {
            "" => name.to_string(),
            s => s.to_string(),
        };
        if !summary.ends_with('.') {
            summary.push('.');
        }
        let description = match (ann("message"), ann("description")) {
            (m, d) if !m.is_empty() && !d.is_empty() => {
                format!(" The alert description is: {d} | {m}")
            }
            ("", "") => " The alert has no description.".to_string(),
            (m, "") => format!(" The alert description is: {m}"),
            (_, d) => format!(" The alert description is: {d}"),
        };
        let (runbook, url) = match ann("runbook_url") {
            "" => (
                "<alert does not have a runbook_url annotation>".to_string(),
                RUNBOOK_NOT_FOUND.to_string(),
            ),
            r => (r.to_string(), r.to_string()),
        };
        let mut details = format!("{summary}{description} {runbook}");
        let severity = label("severity");
        let pdb = || {
            format!(
                "Namespace={}, PodDisruptionBudget={}. ",
                label("namespace"),
                label("poddisruptionbudget")
            )
        };
        let impact = if severity == "critical" {
            if name == "PodDisruptionBudgetLimit" {
                details = format!("{}{details}", pdb());
            }
            "suggesting significant cluster issues worth investigating"
        } else if name == "PodDisruptionBudgetAtLimit" {
            details = format!("{}{details}", pdb());
            "which might slow node drains"
        } else if matches!(
            name,
            "KubeContainerWaiting"
                | "KubeletHealthState"
                | "KubeNodeNotReady"
                | "KubeNodeReadinessFlapping"
                | "KubeNodeUnreachable"
                | "VirtHandlerDaemonSetRolloutFailing"
                | "VMCannotBeEvicted"
        ) {
            "which may slow workload redistribution during rolling node updates"
        } else if label("openShiftUpdatePrecheck") == "true" {
            "suggesting issues worth investigating before updating the cluster"
        } else {
            continue;
        };
        let new = Condition {
            type_: APPLIES.into(),
            status: "True".into(),
            reason: format!("Alert:{}", a.state),
            message: format!("{severity} alert {name} {}, {impact}. {details}", a.state),
            last_transition_time: a.active_at,
        };
        match risks.get_mut(name) {
            None => {
                risks.insert(
                    name.to_string(),
                    ConditionalUpdateRisk {
                        name: name.to_string(),
                        message: summary,
                        url,
                        matching_rules: vec![serde_json::json!({"type": "Always"})],
                        conditions: vec![new],
                    },
                );
            }
            Some(r) => {
                if let Some(c) = r.conditions.iter_mut().find(|c| c.type_ == APPLIES) {
                    c.message = format!("{}; {}", c.message, new.message);
                    if let (Some(old), Some(t)) = (c.last_transition_time, new.last_transition_time)
                        && old > t
                    {
                        c.last_transition_time = Some(t);
                    }
                }
            }
        }
    }
    risks.into_values().collect()
}

/// `MajorAndMinorUpdates`: the versions a major or minor beyond `current` (unparsable ones
/// too).
fn major_and_minor(current: &Version, versions: &[String]) -> Vec<String> {
    versions
        .iter()
        .filter(|v| match gosemver::parse(v) {
            Err(_) => true,
            Ok(t) => {
                t.major > current.major || (t.major == current.major && t.minor > current.minor)
            }
        })
        .cloned()
        .collect()
}

fn docs(v: &Version, page: &str) -> String {
    format!(
        "https://docs.redhat.com/en/documentation/openshift_container_platform/{}.{}/html/{page}",
        v.major, v.minor
    )
}

const DOCS_ROOT: &str = "https://docs.redhat.com/en/documentation/openshift_container_platform/";
const CO_CONDITIONS: &str = "updating_clusters/understanding-openshift-updates-1#understanding_clusteroperator_conditiontypes_understanding-openshift-updates";

fn always_risk(name: String, message: String, url: String) -> ConditionalUpdateRisk {
    ConditionalUpdateRisk {
        name,
        message,
        url,
        matching_rules: vec![serde_json::json!({"type": "Always"})],
        conditions: Vec::new(),
    }
}

/// blang/semver's parse error texts for the common cases (`Version string empty`, ...), as
/// the sources wrap them.
fn parse_version(v: &str) -> Result<Version, String> {
    gosemver::parse(v)
}

/// The zero version a failed parse leaves (blang/semver's `Version{}`).
fn zero() -> Version {
    Version {
        major: 0,
        minor: 0,
        patch: 0,
        pre: Vec::new(),
        build: Vec::new(),
    }
}

/// A source of one always-applying risk judged against the current target `desired`: the
/// risk `name` with `message` and a docs link to `page` of the target's version, or, when
/// `desired` is not SemVer, no risk and the parse failure (the updating and overrides
/// sources).
fn target_source(
    desired: &str,
    versions: &[String],
    name: &str,
    message: &str,
    page: &str,
) -> SourceRisks {
    match parse_version(desired) {
        Err(e) => source(
            Vec::new(),
            None,
            versions,
            Some(format!(
                "failed to parse current target {} to SemVer: {e}",
                crate::vocab::text::go_quote(desired)
            )),
        ),
        Ok(v) => source(
            vec![always_risk(name.into(), message.into(), docs(&v, page))],
            Some(&v),
            versions,
            None,
        ),
    }
}

/// One Upgradeable source's answer: its risks on `versions` a major or minor beyond `base`.
fn source(
    risks: Vec<ConditionalUpdateRisk>,
    base: Option<&Version>,
    versions: &[String],
    error: Option<String>,
) -> SourceRisks {
    let targets = base
        .map(|b| major_and_minor(b, versions))
        .unwrap_or_default();
    let versions = match targets.is_empty() {
        true => BTreeMap::new(),
        false => risks
            .iter()
            .map(|r| (r.name.clone(), targets.clone()))
            .collect(),
    };
    SourceRisks {
        risks,
        versions,
        errors: error.into_iter().collect(),
    }
}

/// The Upgradeable risk sources of 4.23+ (`pkg/risk/{updating,overrides,deletion,adminack,
/// upgradeable}`, aggregated in that order). `cv` is the ClusterVersion as the CVO's lister
/// holds it (before this sync); `current` is the CVO's own release version. Resource
/// deletions have no input and report none.
pub fn upgradeable_sources(
    cv: &ClusterVersion,
    cluster: &ClusterState,
    current: &str,
    versions: &[String],
) -> SourceRisks {
    let mut all = SourceRisks::default();
    let desired = &cv.status.desired.version;
    // ClusterVersionUpdating
    if find_condition(&cv.status.conditions, "Progressing").is_some_and(|c| c.status == "True") {
        all.add(target_source(
            desired,
            versions,
            "ClusterVersionUpdating",
            "An update is already in progress and the details are in the Progressing condition.",
            CO_CONDITIONS,
        ));
    }
    // ClusterVersionOverrides
    if super::upgradeable::has_unmanaged_override(cv) {
        all.add(target_source(
            desired,
            versions,
            "ClusterVersionOverrides",
            "Disabling ownership via cluster version overrides prevents updates between minor or major versions. Please remove overrides before requesting a minor or major version update.",
            "config_apis/clusterversion-config-openshift-io-v1#spec-8",
        ));
    }
    let cur = parse_version(current);
    // ResourceDeletionInProgress: no deletions are modelled; only a bad version shows.
    if let Err(e) = &cur {
        all.add(source(
            vec![always_risk(
                "ResourceDeletionInProgressUnknown".into(),
                format!("Failed to parse cluster version to check resource deletion: {e}"),
                DOCS_ROOT.into(),
            )],
            Some(&zero()),
            versions,
            Some(e.clone()),
        ));
    }
    // AdminAck
    all.add(admin_ack_source(cluster, &cur, versions));
    // ClusterOperatorUpgradeable
    match &cur {
        Err(e) => all.add(source(
            vec![always_risk(
                "ClusterOperatorUpgradeableUnknown".into(),
                format!("Failed to parse cluster version to check Upgradeable conditions: {e}"),
                DOCS_ROOT.into(),
            )],
            Some(&zero()),
            versions,
            Some(e.clone()),
        )),
        Ok(v) => {
            let mut risks: Vec<ConditionalUpdateRisk> = cluster
                .cluster_operators
                .iter()
                .filter_map(|o| {
                    let c = o.condition("Upgradeable").filter(|c| c.status == "False")?;
                    Some(always_risk(
                        format!("ClusterOperatorUpgradeable-{}", o.name),
                        c.message.clone(),
                        docs(v, CO_CONDITIONS),
                    ))
                })
                .collect();
            risks.sort_by(|a, b| a.name.cmp(&b.name));
            if !risks.is_empty() {
                all.add(source(risks, Some(v), versions, None));
            }
        }
    }
    all
}

/// The gate regexp of pkg/risk/adminack: `^ack-([4-5][.][0-9]{1,})-[^-]`; the captured
/// `4.N`.
fn admin_gate_version(gate: &str) -> Option<&str> {
    let b = gate.as_bytes();
    let digits = b
        .get(6..)
        .map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count());
    let ok = gate.starts_with("ack-")
        && matches!(b.get(4), Some(b'4' | b'5'))
        && b.get(5) == Some(&b'.')
        && digits > 0
        && b.get(6 + digits) == Some(&b'-')
        && b.get(7 + digits).is_some_and(|c| *c != b'-');
    ok.then(|| &gate[4..6 + digits])
}

fn admin_ack_source(
    cluster: &ClusterState,
    cur: &Result<Version, String>,
    versions: &[String],
) -> SourceRisks {
    let unknown = |m: String, e: String, base: &Version| {
        source(
            vec![always_risk("AdminAckUnknown".into(), m, DOCS_ROOT.into())],
            Some(base),
            versions,
            Some(e),
        )
    };
    let v = match cur {
        Err(e) => {
            return unknown(
                format!("Failed to parse cluster version to check admin-acks: {e}"),
                e.clone(),
                &zero(),
            );
        }
        Ok(v) => v,
    };
    let Some(gates) = &cluster.admin_gates else {
        let e = "configmap \"admin-gates\" not found".to_string();
        return unknown(
            format!(
                "Failed to retrieve ConfigMap admin-gates from namespace openshift-config-managed: {e}"
            ),
            e,
            v,
        );
    };
    let Some(acks) = &cluster.admin_acks else {
        let e = "configmap \"admin-acks\" not found".to_string();
        return unknown(
            format!("Failed to retrieve ConfigMap admin-acks from namespace openshift-config: {e}"),
            e,
            v,
        );
    };
    let mut risks = Vec::new();
    for (gate, value) in gates {
        let name = format!("AdminAck-{gate}");
        let Some(ack_version) = admin_gate_version(gate) else {
            let e = format!(
                "admin-gates configmap gate name {gate} has invalid format; must comply with {}",
                crate::vocab::text::go_quote("^ack-([4-5][.][0-9]{1,})-[^-]")
            );
            risks.push(always_risk(
                name,
                format!(
                    "admin-gates configmap gate {} is invalid: {e}",
                    crate::vocab::text::go_quote(gate)
                ),
                DOCS_ROOT.into(),
            ));
            continue;
        };
        let applies = parse_version(&format!("{ack_version}.0"))
            .is_ok_and(|a| a.major == v.major && a.minor == v.minor);
        if !applies {
            continue;
        }
        if value.is_empty() {
            risks.push(always_risk(
                name,
                format!("admin-gates configmap gate {gate} must contain a non-empty value."),
                DOCS_ROOT.into(),
            ));
            continue;
        }
        let url = value
            .split(|c: char| c.is_ascii_whitespace())
            .find_map(|w| w.find("https://").map(|i| &w[i..]))
            .unwrap_or(DOCS_ROOT)
            .to_string();
        if acks.get(gate).map(String::as_str) != Some("true") {
            risks.push(always_risk(name, value.clone(), url));
        }
    }
    risks.sort_by(|a, b| a.name.cmp(&b.name));
    if risks.is_empty() {
        return SourceRisks::default();
    }
    source(risks, Some(v), versions, None)
}

/// `setUpgradeableCondition` (4.23+): the sub-conditions of the older checks removed, then
/// `Upgradeable` from the applying risks (all of the Upgradeable sources' risks apply: their
/// rule is `Always`), `Unknown`/`EvaluationFailed` on errors alone, or removed.
pub fn set_upgradeable_from_risks(conds: &mut Vec<Condition>, src: &SourceRisks, now: Time) {
    for t in [
        "UpgradeableAdminAckRequired",
        "UpgradeableDeletesInProgress",
        "UpgradeableClusterOperators",
        "UpgradeableClusterVersionOverrides",
        "UpgradeableUpgradeInProgress",
    ] {
        remove_condition(conds, t);
    }
    match src.risks.as_slice() {
        [] if !src.errors.is_empty() => set_condition(
            conds,
            "Upgradeable",
            "Unknown",
            EVAL_FAILED,
            &src.errors.join("\n"),
            now,
        ),
        [] => remove_condition(conds, "Upgradeable"),
        [one] => {
            let reason = match valid_reason(&one.name) {
                true => one.name.as_str(),
                false => "RiskNameNotCompatibleWithReasonProperty",
            };
            set_condition(conds, "Upgradeable", "False", reason, &one.message, now);
        }
        many => {
            let msgs: Vec<&str> = many.iter().map(|r| r.message.as_str()).collect();
            let message = format!(
                "Cluster should not be upgraded between minor or major versions for multiple reasons:\n* {}",
                msgs.join("\n* ")
            );
            set_condition(conds, "Upgradeable", "False", MULTIPLE, &message, now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alert(name: &str, severity: &str, state: &str) -> AlertState {
        AlertState {
            labels: [("alertname", name), ("severity", severity)]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            annotations: [
                ("summary", "Test summary"),
                ("description", "Test description."),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
            state: state.into(),
            active_at: None,
        }
    }

    #[test]
    fn alerts_become_risks_as_the_cvo_words_them() {
        let risks = alerts_to_risks(&[
            alert("TestAlert", "critical", "firing"),
            alert("Pending", "critical", "pending"),
            alert("Quiet", "warning", "firing"),
        ]);
        assert_eq!(risks.len(), 1);
        let r = &risks[0];
        assert_eq!(
            (r.name.as_str(), r.message.as_str(), r.url.as_str()),
            ("TestAlert", "Test summary.", RUNBOOK_NOT_FOUND)
        );
        assert_eq!(
            r.conditions[0].message,
            "critical alert TestAlert firing, suggesting significant cluster issues worth investigating. Test summary. The alert description is: Test description. <alert does not have a runbook_url annotation>"
        );
        assert_eq!(r.conditions[0].reason, "Alert:firing");
    }
}
