//! The control plane part of the assessment: which platform operators run the target
//! version, their health, the versions the update goes between, how long it has run, the
//! completion estimate learnt from the previous update, and the insights about the
//! ClusterVersion and unhealthy operators.

use super::godur::{Dur, HOUR, MINUTE, SECOND};
use super::insights::{ImpactLevel, ImpactType, Insight, InsightKind, InsightResource, ScopeType};
use crate::model::*;

const CV_REFERENCE: &str = "https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDegraded.md";
const CO_DOWN_REFERENCE: &str = "https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDown.md";
const HISTORY_REFERENCE: &str = "https://docs.openshift.com/container-platform/latest/updating/troubleshooting_updates/gathering-data-cluster-update.html#gathering-clusterversion-history-cli_troubleshooting_updates";

/// Unavailable operators warn after 5 minutes and are errors after 20; degraded after 5 and 40.
const UNAVAILABLE_WARNING: i64 = 5 * MINUTE;
const UNAVAILABLE_ERROR: i64 = 20 * MINUTE;
const DEGRADED_WARNING: i64 = 5 * MINUTE;
const DEGRADED_ERROR: i64 = 40 * MINUTE;

/// The control plane's assessment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum ControlPlaneState {
    Progressing,
    /// Behind the estimate, by less than 10 minutes.
    ProgressingSlow,
    Completed,
    /// Behind the estimate by more than 10 minutes.
    Stalled,
}

impl ControlPlaneState {
    /// The text oc prints.
    pub fn as_str(self) -> &'static str {
        match self {
            ControlPlaneState::Progressing => "Progressing",
            ControlPlaneState::ProgressingSlow => "Progressing - Slow",
            ControlPlaneState::Completed => "Completed",
            ControlPlaneState::Stalled => "Stalled",
        }
    }
}

/// A platform operator that is not at the target version and reports Progressing=True.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdatingOperator {
    pub name: String,
    /// When Progressing turned True.
    pub since: Option<Time>,
    pub reason: String,
    pub message: String,
}

/// Counts over the platform operators (those with an `include.release.openshift.io/` or
/// `exclude.release.openshift.io/` annotation).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OperatorCounts {
    pub total: usize,
    /// Available is not True (missing and Unknown count).
    pub unavailable: usize,
    /// Available but Degraded=True.
    pub degraded: usize,
    /// At the target version, whatever their conditions.
    pub updated: usize,
    /// Not at the target version, Progressing=False.
    pub waiting: usize,
    pub updating: Vec<UpdatingOperator>,
}

impl OperatorCounts {
    /// `N Healthy[, N Unavailable][, N Available but degraded]`.
    pub fn health_summary(&self) -> String {
        let healthy = self.total as i64 - self.unavailable as i64 - self.degraded as i64;
        let mut s = format!("{healthy} Healthy");
        if self.unavailable > 0 {
            s.push_str(&format!(", {} Unavailable", self.unavailable));
        }
        if self.degraded > 0 {
            s.push_str(&format!(", {} Available but degraded", self.degraded));
        }
        s
    }
}

/// The versions an update goes between, from the ClusterVersion history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetVersion {
    /// The newest history entry's version (`unknown` without history).
    pub target: String,
    /// The one before it (`unknown` when there is none).
    pub previous: String,
    /// The history has one entry: the cluster is being installed.
    pub is_install: bool,
    /// The previous update never completed.
    pub previous_partial: bool,
    /// Same version, another image: a migration to a multi-architecture payload.
    pub multi_arch: bool,
}

impl std::fmt::Display for TargetVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_install {
            write!(f, "{} (a new install)", self.target)
        } else if self.previous_partial {
            write!(f, "{} (from incomplete {})", self.target, self.previous)
        } else if self.multi_arch {
            write!(f, "{} to Multi-Architecture", self.target)
        } else {
            write!(f, "{} (from {})", self.target, self.previous)
        }
    }
}

/// The control plane section.
#[derive(Debug, Clone, PartialEq)]
pub struct ControlPlane {
    pub state: ControlPlaneState,
    pub target: TargetVersion,
    /// The desired version operators are compared with (`status.desired.version`).
    pub desired_version: String,
    /// Updated platform operators, in percent.
    pub completion: f64,
    /// When the update completed (the history's completion time), else "now"; `None`
    /// without history.
    pub completed_at: Option<Time>,
    /// From the update's start to `completed_at`: to the minute above 10 minutes, else to
    /// the second.
    pub duration: Dur,
    /// Expected total duration, truncated to minutes (zero when completed).
    pub estimated_duration: Dur,
    /// Expected time left; negative when behind (zero when completed).
    pub estimated_remaining: Dur,
    pub operators: OperatorCounts,
    pub multi_arch_migration: bool,
}

impl ControlPlane {
    /// Every platform operator is at the target version.
    pub fn is_completed(&self) -> bool {
        self.operators.updated == self.operators.total
    }
}

/// Whether the two newest history entries name the same version with different images.
pub fn is_multi_arch_migration(history: &[HistoryEntry]) -> bool {
    history.len() > 1
        && history[0].version == history[1].version
        && history[0].image != history[1].image
}

fn resource(kind: &str, name: &str) -> InsightResource {
    InsightResource {
        group: "config.openshift.io".to_string(),
        kind: kind.to_string(),
        namespace: String::new(),
        name: name.to_string(),
    }
}

fn control_plane_insight(
    kind: InsightKind,
    started_at: Option<Time>,
    res: InsightResource,
    (level, impact): (ImpactLevel, ImpactType),
    summary: String,
    description: String,
    reference: &str,
) -> Insight {
    Insight {
        kind,
        started_at,
        scope: ScopeType::ControlPlane,
        resources: vec![res],
        level,
        impact,
        summary,
        description,
        reference: reference.to_string(),
    }
}

/// Whether `at` is more than `after` past `since` (a missing time is the zero time).
fn past(at: Time, since: Option<Time>, after: i64) -> bool {
    match since {
        Some(s) => Dur::between(s, at) > Dur(after),
        None => true,
    }
}

/// Insights about an operator that has been unavailable or degraded for a while.
fn operator_insights(
    name: &str,
    available: Option<&Condition>,
    degraded: Option<&Condition>,
    at: Time,
) -> Vec<Insight> {
    let mut out = Vec::new();
    let or_no_message = |m: &str| {
        if m.is_empty() {
            "<no message>".to_string()
        } else {
            m.to_string()
        }
    };
    if let Some(a) = available.filter(|a| a.is_false())
        && past(at, a.last_transition_time, UNAVAILABLE_WARNING)
    {
        let level = if past(at, a.last_transition_time, UNAVAILABLE_ERROR) {
            ImpactLevel::Error
        } else {
            ImpactLevel::Warning
        };
        out.push(control_plane_insight(
            InsightKind::OperatorUnavailable,
            a.last_transition_time,
            resource("ClusterOperator", name),
            (level, ImpactType::ApiAvailability),
            format!("Cluster Operator {name} is unavailable ({})", a.reason),
            or_no_message(&a.message),
            CO_DOWN_REFERENCE,
        ));
    }
    if let Some(d) = degraded.filter(|d| d.is_true())
        && past(at, d.last_transition_time, DEGRADED_WARNING)
    {
        let level = if past(at, d.last_transition_time, DEGRADED_ERROR) {
            ImpactLevel::Error
        } else {
            ImpactLevel::Warning
        };
        out.push(control_plane_insight(
            InsightKind::OperatorDegraded,
            d.last_transition_time,
            resource("ClusterOperator", name),
            (level, ImpactType::ApiAvailability),
            format!("Cluster Operator {name} is degraded ({})", d.reason),
            or_no_message(&d.message),
            CV_REFERENCE,
        ));
    }
    out
}

/// The insight about the ClusterVersion's `Failing` condition, when it is missing or not False.
fn failing_insight(cv: &ClusterVersion, at: Time) -> Option<Insight> {
    let name = &cv.metadata.name;
    let res = resource("ClusterVersion", name);
    match cv.condition("Failing") {
        None => Some(control_plane_insight(
            InsightKind::ClusterVersionFailing,
            Some(at),
            res,
            (ImpactLevel::Warning, ImpactType::UpdateStalled),
            format!("Cluster Version {name} has no Failing condition"),
            "Current status of Cluster Version reconciliation is unclear.  See 'oc -n openshift-cluster-version logs -l k8s-app=cluster-version-operator --tail -1' to debug.".to_string(),
            CV_REFERENCE,
        )),
        Some(c) if c.is_false() => None,
        Some(c) => {
            let verb = if c.status == "Unknown" { "may be" } else { "is" };
            Some(control_plane_insight(
                InsightKind::ClusterVersionFailing,
                c.last_transition_time,
                res,
                (ImpactLevel::Warning, ImpactType::UpdateStalled),
                format!(
                    "Cluster Version {name} {verb} failing to proceed with the update ({})",
                    c.reason
                ),
                c.message.clone(),
                CV_REFERENCE,
            ))
        }
    }
}

/// Whether an operator is part of the release payload.
fn is_platform_operator(co: &ClusterOperator) -> bool {
    co.metadata.annotations.keys().any(|k| {
        k.starts_with("exclude.release.openshift.io/")
            || k.starts_with("include.release.openshift.io/")
    })
}

/// Whether an operator runs the target version. The `machine-config` operator also needs its
/// `operator-image` version to equal the MCO Deployment's image (a multi-arch migration keeps
/// the version number); without a Deployment that check is skipped.
fn is_updated(co: &ClusterOperator, target: &str, mco_image: Option<&str>) -> bool {
    if co.metadata.name == "machine-config"
        && let Some(image) = mco_image
        && co
            .status
            .versions
            .iter()
            .any(|v| v.name == "operator-image" && v.version != image)
    {
        return false;
    }
    co.status
        .versions
        .iter()
        .any(|v| v.name == "operator" && v.version == target)
}

/// The last condition of each type wins, as when oc walks the list.
fn last_condition<'a>(co: &'a ClusterOperator, type_: &str) -> Option<&'a Condition> {
    co.status.conditions.iter().rev().find(|c| c.type_ == type_)
}

/// Assesses the control plane at `at`.
pub fn assess_control_plane(
    cv: &ClusterVersion,
    operators: &[ClusterOperator],
    mco_image: Option<&str>,
    at: Time,
) -> (ControlPlane, Vec<Insight>) {
    let target = cv.status.desired.version.as_str();
    let mut insights: Vec<Insight> = failing_insight(cv, at).into_iter().collect();
    let mut counts = OperatorCounts::default();
    let mut last_progress: Option<Time> = None;
    let mut mco_started: Option<Time> = None;
    for co in operators.iter().filter(|co| is_platform_operator(co)) {
        let updated = is_updated(co, target, mco_image);
        if updated {
            counts.updated += 1;
        }
        counts.total += 1;
        let available = last_condition(co, "Available");
        let degraded = last_condition(co, "Degraded");
        if let Some(p) = last_condition(co, "Progressing") {
            if let Some(t) = p.last_transition_time
                && last_progress.is_none_or(|l| t > l)
            {
                last_progress = Some(t);
            }
            if !updated && p.is_true() {
                counts.updating.push(UpdatingOperator {
                    name: co.metadata.name.clone(),
                    since: p.last_transition_time,
                    reason: p.reason.clone(),
                    message: p.message.clone(),
                });
                if co.metadata.name == "machine-config" {
                    mco_started = p.last_transition_time;
                }
            }
            if !updated && p.is_false() {
                counts.waiting += 1;
            }
        }
        if !available.is_some_and(Condition::is_true) {
            counts.unavailable += 1;
        } else if degraded.is_some_and(Condition::is_true) {
            counts.degraded += 1;
        }
        insights.extend(operator_insights(
            &co.metadata.name,
            available,
            degraded,
            at,
        ));
    }
    let completed = counts.updated == counts.total;
    let mut state = if completed {
        ControlPlaneState::Completed
    } else {
        ControlPlaneState::Progressing
    };
    // When machine-config is the last operator updating, its start is the last progress seen
    // (daemonset operators flip Progressing while nodes reboot).
    if mco_started.is_some() && counts.total - counts.updated == 1 {
        last_progress = mco_started;
    }

    let history = &cv.status.history;
    let mut updating_for = Dur::ZERO;
    let mut to_last_progress = Dur::ZERO;
    let mut completed_at = None;
    let mut duration = Dur::ZERO;
    if let Some(current) = history.first() {
        let started = current.started_time;
        let progressed_after_start = match (last_progress, started) {
            (Some(l), Some(s)) => l > s,
            (Some(_), None) => true,
            (None, _) => false,
        };
        let last = if progressed_after_start {
            last_progress.unwrap_or(at)
        } else {
            at
        };
        let since = |t: Time| started.map_or(Dur(i64::MAX), |s| Dur::between(s, t));
        to_last_progress = since(last);
        let end = if current.is_completed() {
            current.completion_time.unwrap_or(at)
        } else {
            at
        };
        completed_at = Some(end);
        updating_for = since(end);
        duration = if updating_for > Dur::minutes(10) {
            updating_for.round(MINUTE)
        } else {
            updating_for.round(SECOND)
        };
    }

    let (target_version, version_insight) = versions_from_history(cv, completed);
    insights.extend(version_insight);

    let co_completion = counts.updated as f64 / counts.total as f64;
    let mut estimated_remaining = Dur::ZERO;
    let mut estimated_duration = Dur::ZERO;
    if co_completion <= 1.0 && state != ControlPlaneState::Completed {
        let baseline = baseline_duration(history);
        estimated_remaining =
            estimate_completion(baseline, to_last_progress, updating_for, co_completion);
        estimated_duration =
            Dur(updating_for.0.saturating_add(estimated_remaining.0)).truncate(MINUTE);
        if estimated_remaining < Dur::minutes(-10) {
            state = ControlPlaneState::Stalled;
        } else if estimated_remaining < Dur::ZERO {
            state = ControlPlaneState::ProgressingSlow;
        }
    }
    let multi_arch = target_version.multi_arch;
    (
        ControlPlane {
            state,
            target: target_version,
            desired_version: target.to_string(),
            completion: co_completion * 100.0,
            completed_at,
            duration,
            estimated_duration,
            estimated_remaining,
            operators: counts,
            multi_arch_migration: multi_arch,
        },
        insights,
    )
}

/// How long the last completed update (not the current one, not the install) took; an hour
/// when there is none.
fn baseline_duration(history: &[HistoryEntry]) -> Dur {
    if history.len() < 3 {
        return Dur(HOUR);
    }
    history[1..history.len() - 1]
        .iter()
        .find(|h| h.is_completed())
        .map_or(Dur(HOUR), |h| match (h.started_time, h.completion_time) {
            (Some(s), Some(c)) => Dur::between(s, c),
            _ => Dur(HOUR),
        })
}

/// Estimated time left: from the time to the last observed progress scaled by how far along
/// that progress is in a typical update's timeline (when more than 5 minutes of progress were
/// seen), else from the baseline; 20% over when ahead, 1/1.2 of the overrun when behind.
fn estimate_completion(
    baseline: Dur,
    to_last_progress: Dur,
    updating_for: Dur,
    co_completion: f64,
) -> Dur {
    if co_completion >= 1.0 {
        return Dur::ZERO;
    }
    let timewise = timewise_complete(co_completion);
    let total_seconds =
        if co_completion > 0.0 && timewise > 0.0 && to_last_progress > Dur::minutes(5) {
            to_last_progress.seconds_f64() / timewise
        } else {
            baseline.seconds_f64()
        };
    let remaining = total_seconds - updating_for.seconds_f64();
    let overestimate = if remaining < 0.0 { 1.0 / 1.2 } else { 1.2 };
    // Whole seconds, toward zero (a float-to-integer conversion).
    let secs = (remaining * overestimate) as i64;
    let estimate = Dur(secs.saturating_mul(SECOND));
    if estimate > Dur::minutes(10) {
        estimate.round(MINUTE)
    } else {
        estimate.round(SECOND)
    }
}

/// The share of a typical update's duration that has passed when `co_completion` of the
/// operators are updated (97% of operators at 67% of the time): three fitted polynomials.
fn timewise_complete(co_completion: f64) -> f64 {
    let x = co_completion;
    let x2 = x * x;
    let x3 = x * x2;
    let x4 = x2 * x2;
    if co_completion < 0.25 {
        -0.03078788 + 2.62886 * x - 3.823954 * x2
    } else if co_completion < 0.9 {
        0.1851215 + 1.64994 * x - 4.676898 * x2 + 5.451824 * x3 - 2.125286 * x4
    } else {
        25053.32 - 107394.3 * x + 172527.2 * x2 - 123107.0 * x3 + 32921.81 * x4
    }
}

/// The target and previous versions, and the insight about a previous update that never
/// completed (while the control plane is not done).
fn versions_from_history(
    cv: &ClusterVersion,
    control_plane_completed: bool,
) -> (TargetVersion, Option<Insight>) {
    let history = &cv.status.history;
    let mut v = TargetVersion {
        target: history
            .first()
            .map_or("unknown", |h| h.version.as_str())
            .to_string(),
        previous: "unknown".to_string(),
        is_install: history.len() == 1,
        previous_partial: false,
        multi_arch: false,
    };
    if history.len() < 2 {
        return (v, None);
    }
    v.previous = history[1].version.clone();
    v.previous_partial = history[1].is_partial();
    v.multi_arch = is_multi_arch_migration(history);
    if control_plane_completed || !v.previous_partial {
        return (v, None);
    }
    let last_complete = history[2..]
        .iter()
        .find(|h| h.is_completed())
        .map_or("unknown", |h| h.version.as_str());
    let insight = control_plane_insight(
        InsightKind::PreviousUpdateIncomplete,
        history[0].started_time,
        resource("ClusterVersion", &cv.metadata.name),
        (ImpactLevel::Warning, ImpactType::None),
        format!(
            "Previous update to {} never completed, last complete update was {last_complete}",
            v.previous
        ),
        format!(
            "Current update to {} was initiated while the previous update to version {} was still in progress",
            v.target, v.previous
        ),
        HISTORY_REFERENCE,
    );
    (v, Some(insight))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_follow_the_baseline_without_progress() {
        // Nothing updated after 6 seconds of a 1h baseline: 1.2 × (3600 − 6) s, to the minute.
        let e = estimate_completion(Dur(HOUR), Dur(6 * SECOND), Dur(6 * SECOND), 0.0);
        assert_eq!(e, Dur(72 * MINUTE));
        assert_eq!(
            estimate_completion(Dur(HOUR), Dur::ZERO, Dur::ZERO, 1.0),
            Dur::ZERO
        );
    }

    #[test]
    fn health_summary_lists_only_non_zero_counts() {
        let c = OperatorCounts {
            total: 33,
            unavailable: 1,
            degraded: 4,
            ..Default::default()
        };
        assert_eq!(
            c.health_summary(),
            "28 Healthy, 1 Unavailable, 4 Available but degraded"
        );
        let c = OperatorCounts {
            total: 7,
            ..Default::default()
        };
        assert_eq!(c.health_summary(), "7 Healthy");
    }
}
