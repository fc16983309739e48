//! CV015 `cluster-version-failing`: ClusterVersion Failing=True, with its cause (reason,
//! message and the ClusterOperators it names); Failing=Unknown (slow operators, 4.16+) at a
//! lower severity. The legacy blocked-target signature is left to CV002.

use super::blocked::legacy_blocked;
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cond, cond_evidence, cv_ref, operators_in};

declare_rule! {
    ClusterVersionFailing: "CV015" "cluster-version-failing" {
        severity: Error,
        family: ClusterVersion,
        summary: "ClusterVersion Failing=True (or Unknown for slow operators), with its cause",
        needs: &[&[Input::ClusterVersion]],
        help: "fix the cause named in the message; for operators, start from their Degraded and Available conditions",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status.go",
                "https://github.com/openshift/api/blob/master/config/v1/types_cluster_version.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let Some((i, c)) = cond(&cv.status.conditions, "Failing") else {
        return;
    };
    let severity = match c.status.as_str() {
        "True" => Severity::Error,
        "Unknown" if !c.reason.is_empty() => Severity::Warning,
        _ => return,
    };
    if severity == Severity::Error && legacy_blocked(cx).is_some() {
        return; // CV002 reports this with the stall.
    }
    let what = match cv.status.history.first() {
        Some(h) if h.is_partial() => format!(" during the update to `{}`", h.label()),
        Some(h) => format!(" while reconciling `{}`", h.label()),
        None => String::new(),
    };
    let reason = if c.reason.is_empty() {
        String::new()
    } else {
        format!(" (`{}`)", c.reason)
    };
    let msg = format!(
        "ClusterVersion is Failing={}{what}{reason}: {}",
        c.status,
        one_line(&c.message, 200)
    );
    let operators = operators_in(&c.message);
    let mut f = cx.finding(&META, cv_ref(cv), String::new());
    f.severity = severity;
    f.evidence
        .push(cond_evidence(cx, cv, &cv.metadata.name, i, c, "message"));
    if !operators.is_empty() {
        f.details.insert("operators", operators.clone());
    }
    f.message = msg;
    f.at = c.last_transition_time;
    f.details.insert("reason", c.reason.clone());
    out.push(f);
}
