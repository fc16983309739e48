//! Update Health: the insight model (level, impact, scope, resources, reference), insights
//! from firing alerts, and how oc filters and orders them (incomplete ones dropped; most
//! severe first, then most recent; "Update is proceeding well" when nothing is left).

use super::godur::Dur;
use crate::model::{Alert, Time};

/// How bad an insight is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ImpactLevel {
    Info,
    Warning,
    Error,
    Critical,
}

impl ImpactLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            ImpactLevel::Info => "Info",
            ImpactLevel::Warning => "Warning",
            ImpactLevel::Error => "Error",
            ImpactLevel::Critical => "Critical",
        }
    }
}

/// What an insight affects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ImpactType {
    None,
    Unknown,
    ApiAvailability,
    ClusterCapacity,
    ApplicationAvailability,
    ApplicationOutage,
    DataLoss,
    UpdateSpeed,
    UpdateStalled,
}

impl ImpactType {
    pub fn as_str(self) -> &'static str {
        match self {
            ImpactType::None => "None",
            ImpactType::Unknown => "Unknown",
            ImpactType::ApiAvailability => "API Availability",
            ImpactType::ClusterCapacity => "Cluster Capacity",
            ImpactType::ApplicationAvailability => "Application Availability",
            ImpactType::ApplicationOutage => "Application Outage",
            ImpactType::DataLoss => "Data Loss",
            ImpactType::UpdateSpeed => "Update Speed",
            ImpactType::UpdateStalled => "Update Stalled",
        }
    }
}

/// Which part of the cluster an insight is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScopeType {
    ControlPlane,
    WorkerPool,
    Cluster,
}

/// A resource an insight names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InsightResource {
    /// API group (`""` for the core group).
    pub group: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
}

impl InsightResource {
    /// `kinds.group` as oc prints it (`clusteroperators.config.openshift.io`, `nodes`).
    pub fn kind_label(&self) -> String {
        let plural = format!("{}s", self.kind.to_lowercase());
        if self.group.is_empty() {
            plural
        } else {
            format!("{plural}.{}", self.group)
        }
    }
    /// `namespace/name`, or `name`.
    pub fn namespaced_name(&self) -> String {
        if self.namespace.is_empty() {
            self.name.clone()
        } else {
            format!("{}/{}", self.namespace, self.name)
        }
    }
}

/// Which of oc's checks made an insight. oc does not print it; `analyze` keys its
/// Update Health rules (`UH`) on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum InsightKind {
    /// A ClusterOperator Available=False for over 5 minutes (error after 20).
    OperatorUnavailable,
    /// A ClusterOperator Degraded=True for over 5 minutes (error after 40).
    OperatorDegraded,
    /// The ClusterVersion's `Failing` condition is not False, or missing.
    ClusterVersionFailing,
    /// A node unavailable (NotReady, unschedulable, ...) while not updating, for 5 minutes.
    NodeUnavailable,
    /// The machine-config daemon marked a node Degraded or Unreconcilable.
    NodeDegraded,
    /// A paused pool holds back outdated nodes.
    PoolPaused,
    /// The update was started while the previous one was still in progress.
    PreviousUpdateIncomplete,
    /// A firing alert that started during the update or is known to affect updates.
    Alert,
    /// "Update is proceeding well": no other insight.
    ProceedingWell,
}

/// One Update Health insight.
#[derive(Debug, Clone, PartialEq)]
pub struct Insight {
    /// The check that made it.
    pub kind: InsightKind,
    /// When the condition started; `None` when it cannot be told.
    pub started_at: Option<Time>,
    pub scope: ScopeType,
    pub resources: Vec<InsightResource>,
    pub level: ImpactLevel,
    pub impact: ImpactType,
    pub summary: String,
    pub description: String,
    /// A link to documentation or a runbook.
    pub reference: String,
}

impl Insight {
    /// oc drops insights without a summary, description or reference.
    fn is_complete(&self) -> bool {
        !self.summary.is_empty() && !self.description.is_empty() && !self.reference.is_empty()
    }
}

/// Alerts that matter even when they fired before the update started.
const ALLOWED_ALERTS: &[&str] = &["PodDisruptionBudgetLimit", "PodDisruptionBudgetAtLimit"];

fn alert_level(severity: &str) -> ImpactLevel {
    match severity {
        "warning" => ImpactLevel::Warning,
        "critical" => ImpactLevel::Critical,
        _ => ImpactLevel::Info,
    }
}

/// Insights from alerts: firing (not pending) alerts of warning or critical severity that
/// started during the update, or that are known to affect updates.
pub fn alert_insights(alerts: &[Alert], update_started: Time) -> Vec<Insight> {
    let mut out = Vec::new();
    for alert in alerts {
        let name = alert.label("alertname");
        if name.is_empty() {
            continue;
        }
        let during_update = alert.active_at.is_some_and(|a| update_started < a);
        let known = ALLOWED_ALERTS.contains(&name);
        let mut description = match (known, during_update) {
            (true, true) => "Alert known to affect updates started firing during the update.",
            (true, false) => {
                "Alert known to affect updates has been firing since before the update started."
            }
            (false, true) => "Alert started firing during the update.",
            (false, false) => continue,
        }
        .to_string();
        if alert.state == "pending" {
            continue;
        }
        let level = alert_level(alert.label("severity"));
        if level < ImpactLevel::Warning {
            continue;
        }
        let runbook = match alert.annotation("runbook_url") {
            "" => "<alert does not have a runbook_url annotation>",
            r => r,
        };
        match (alert.annotation("description"), alert.annotation("message")) {
            ("", "") => description.push_str(" The alert has no description."),
            (d, "") => description.push_str(&format!(" The alert description is: {d}")),
            ("", m) => description.push_str(&format!(" The alert description is: {m}")),
            (d, m) => description.push_str(&format!(" The alert description is: {d} | {m}")),
        }
        let summary = match alert.annotation("summary") {
            "" => name,
            s => s,
        };
        out.push(Insight {
            kind: InsightKind::Alert,
            started_at: alert.active_at,
            scope: ScopeType::Cluster,
            resources: vec![InsightResource {
                group: "config.openshift.io".to_string(),
                kind: "Alert".to_string(),
                namespace: alert.label("namespace").to_string(),
                name: name.to_string(),
            }],
            level,
            impact: ImpactType::Unknown,
            summary: format!("Alert is firing: {summary}"),
            description,
            reference: runbook.to_string(),
        });
    }
    out
}

/// Keeps the complete insights, most severe first and, within a level, most recent first
/// (unknown start times last; ties ordered as Go's sort orders them). With none left, the single
/// "Update is proceeding well" insight, and `false`.
pub fn assess_health(insights: Vec<Insight>, updating_for: Dur, now: Time) -> (Vec<Insight>, bool) {
    let mut kept: Vec<Insight> = insights.into_iter().filter(Insight::is_complete).collect();
    if kept.is_empty() {
        let started = now
            .checked_sub_signed(chrono::TimeDelta::nanoseconds(updating_for.nanos()))
            .unwrap_or(now);
        let ok = Insight {
            kind: InsightKind::ProceedingWell,
            started_at: Some(started),
            scope: ScopeType::Cluster,
            resources: Vec::new(),
            level: ImpactLevel::Info,
            impact: ImpactType::None,
            summary: "Update is proceeding well".to_string(),
            description: String::new(),
            reference: String::new(),
        };
        return (vec![ok], false);
    }
    // As oc: `sort.Slice` by start time, latest first (unstable: Go's pdqsort reorders ties
    // beyond 12 elements), then `sort.SliceStable` by level. `None` is Go's zero time, the
    // earliest.
    super::gosort::slice(&mut kept, |a, b| a.started_at > b.started_at);
    super::gosort::slice_stable(&mut kept, |a, b| a.level > b.level);
    (kept, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_rfc3339;

    fn alert(name: &str, severity: &str, state: &str, active: &str) -> Alert {
        let mut a = Alert {
            state: state.to_string(),
            active_at: parse_rfc3339(active),
            ..Default::default()
        };
        a.labels.insert("alertname".into(), name.into());
        a.labels.insert("severity".into(), severity.into());
        a
    }

    #[test]
    fn alerts_before_the_update_only_when_known_to_affect_updates() {
        let start = parse_rfc3339("2024-01-01T10:00:00Z").unwrap();
        let alerts = [
            alert("Old", "warning", "firing", "2024-01-01T09:00:00Z"),
            alert(
                "PodDisruptionBudgetAtLimit",
                "warning",
                "firing",
                "2024-01-01T09:00:00Z",
            ),
            alert("New", "critical", "firing", "2024-01-01T10:30:00Z"),
            alert("Pending", "critical", "pending", "2024-01-01T10:30:00Z"),
            alert("Info", "info", "firing", "2024-01-01T10:30:00Z"),
        ];
        let got = alert_insights(&alerts, start);
        let names: Vec<_> = got.iter().map(|i| i.resources[0].name.as_str()).collect();
        assert_eq!(names, ["PodDisruptionBudgetAtLimit", "New"]);
        assert_eq!(got[1].level, ImpactLevel::Critical);
        assert_eq!(
            got[1].description,
            "Alert started firing during the update. The alert has no description."
        );
        assert_eq!(
            got[1].reference,
            "<alert does not have a runbook_url annotation>"
        );
    }
}
