//! The precheck oc runs before recommending an update: the firing alerts, each classified
//! into a condition (critical, PodDisruptionBudget, image pull, node, update-precheck label,
//! virtualization), and one "as expected" condition for each kind that had none. The texts,
//! the order and the numbering are oc's (`recommend/alerts.go`).

use crate::model::Alert;

/// One precheck condition, as oc prints it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Check {
    /// `recommended/CriticalAlerts/ClusterOperatorDown/0`, `recommended/NodeAlerts`, ….
    #[serde(rename = "type")]
    pub type_: String,
    /// `True` (no cause for concern), `False` (a firing alert), `Unknown` (no data).
    pub status: String,
    pub reason: String,
    pub message: String,
    /// The name `--accept` takes for it (the alert's name); empty for a `True` condition.
    pub accept_as: String,
}

/// What the precheck could read.
#[derive(Debug, Clone, PartialEq)]
pub enum AlertData {
    /// The alerts of the input.
    Alerts(Vec<Alert>),
    /// The input holds no alerts: the precheck cannot run (as oc's cannot when it cannot
    /// fetch them).
    Absent,
    /// oc's mock mode found no alerts file (or an empty one) at this path.
    MockNoData(String),
    /// The alerts could not be read (the text follows "Failed to check for at least some
    /// preconditions: ").
    Failed(String),
}

/// Why the precheck could not run on an input without alerts.
pub const ABSENT: &str = "no alerts in the input (a must-gather keeps them under monitoring/; `oc adm inspect-alerts` writes them)";

/// The conditions of the precheck, or the error that stopped it.
pub fn run(data: &AlertData) -> Result<Vec<Check>, String> {
    match data {
        AlertData::Failed(e) => Err(e.clone()),
        AlertData::Absent => Err(ABSENT.into()),
        AlertData::MockNoData(path) => Ok(vec![Check {
            type_: "recommended/Alert".into(),
            status: "Unknown".into(),
            reason: "NoTestData".into(),
            message: format!(
                "This --mock-clusterversion run did not have alert data available at {path}"
            ),
            accept_as: "AlertNoTestData".into(),
        }]),
        AlertData::Alerts(alerts) => Ok(classify(alerts)),
    }
}

const NODE_ALERTS: &[&str] = &[
    "KubeletHealthState",
    "KubeNodeNotReady",
    "KubeNodeReadinessFlapping",
    "KubeNodeUnreachable",
];

/// Each alert that is not pending and has a name, first matching kind wins; then the kinds
/// no alert was found for, as expected.
fn classify(alerts: &[Alert]) -> Vec<Check> {
    let mut out = Vec::new();
    let (mut critical, mut pdb, mut pull, mut nodes, mut precheck) =
        (false, false, false, false, false);
    for a in alerts {
        let name = a.label("alertname");
        if name.is_empty() || a.state == "pending" {
            continue;
        }
        let mut summary = a.annotation("summary").to_string();
        if summary.is_empty() {
            summary = name.to_string();
        }
        if !summary.ends_with('.') {
            summary.push('.');
        }
        let (description, message) = (a.annotation("description"), a.annotation("message"));
        let description = match (description.is_empty(), message.is_empty()) {
            (false, false) => format!(" The alert description is: {description} | {message}"),
            (false, true) => format!(" The alert description is: {description}"),
            (true, false) => format!(" The alert description is: {message}"),
            (true, true) => " The alert has no description.".to_string(),
        };
        let runbook = match a.annotation("runbook_url") {
            "" => "<alert does not have a runbook_url annotation>",
            r => r,
        };
        let mut details = format!("{summary}{description} {runbook}");
        let pdb_details = |d: &str| {
            format!(
                "Namespace={}, PodDisruptionBudget={}. {d}",
                a.label("namespace"),
                a.label("poddisruptionbudget")
            )
        };
        let severity = a.label("severity");
        let (category, text) = if severity == "critical" {
            critical = true;
            if name == "PodDisruptionBudgetLimit" {
                pdb = true;
                details = pdb_details(&details);
            }
            (
                "CriticalAlerts",
                "suggesting significant cluster issues worth investigating.",
            )
        } else if name == "PodDisruptionBudgetAtLimit" {
            pdb = true;
            details = pdb_details(&details);
            ("PodDisruptionBudgetAlerts", "which might slow node drains.")
        } else if name == "KubeContainerWaiting" {
            pull = true;
            (
                "PodImagePullAlerts",
                "which may slow workload redistribution during rolling node updates.",
            )
        } else if NODE_ALERTS.contains(&name) {
            nodes = true;
            (
                "NodeAlerts",
                "which may slow workload redistribution during rolling node updates.",
            )
        } else if a.label("openShiftUpdatePrecheck") == "true" {
            precheck = true;
            (
                "UpdatePrecheckAlerts",
                "suggesting issues worth investigating before updating the cluster.",
            )
        } else if matches!(
            name,
            "VirtHandlerDaemonSetRolloutFailing" | "VMCannotBeEvicted"
        ) {
            (
                "VirtAlerts",
                "which may slow workload redistribution during rolling node updates.",
            )
        } else {
            continue;
        };
        out.push(Check {
            type_: format!("recommended/{category}/{name}/{}", out.len()),
            status: "False".into(),
            reason: format!("Alert:{}", a.state),
            message: format!("{severity} alert {name} {}, {text} {details}", a.state),
            accept_as: name.to_string(),
        });
    }
    let happy = [
        (critical, "CriticalAlerts", "No critical alerts firing."),
        (
            pdb,
            "PodDisruptionBudgetAlerts",
            "No PodDisruptionBudget alerts firing.",
        ),
        (
            pull,
            "PodImagePullAlerts",
            "No Pod container image pull alerts firing.",
        ),
        (nodes, "NodeAlerts", "No Node alerts firing."),
        (
            precheck,
            "UpdatePrecheckAlerts",
            "No alerts with the openShiftUpdatePrecheck label true are firing.",
        ),
    ];
    for (seen, category, message) in happy {
        if !seen {
            out.push(Check {
                type_: format!("recommended/{category}"),
                status: "True".into(),
                reason: "AsExpected".into(),
                message: message.into(),
                accept_as: String::new(),
            });
        }
    }
    out
}
