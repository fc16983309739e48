//! CV014 `failing-reason-unknown`: Failing=True with a reason the CVO does not produce (or
//! Failing=Unknown with a reason other than SlowClusterOperator): written by something else,
//! or a CVO newer than this catalogue.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cond, cond_evidence, cv_ref};

declare_rule! {
    FailingReasonUnknown: "CV014" "failing-reason-unknown" {
        severity: Info,
        family: ClusterVersion,
        summary: "Failing has a reason the CVO is not known to set",
        needs: &[&[Input::ClusterVersion]],
        help: "check whether something other than the CVO writes ClusterVersion conditions",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status.go",
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/payload/task.go",
            ],
    }
}

/// Reasons the CVO sets on Failing=True (singular and plural forms).
const KNOWN: &[&str] = &[
    "",
    "MultipleErrors",
    "UpgradePreconditionCheckFailed",
    "NoDesiredImage",
    "ImageVerificationFailed",
    "ClusterOperatorDegraded",
    "ClusterOperatorsDegraded",
    "ClusterOperatorNotAvailable",
    "ClusterOperatorsNotAvailable",
    "ClusterOperatorNoVersions",
    "ClusterOperatorsNoVersions",
    "ClusterOperatorUpdating",
    "ClusterOperatorsUpdating",
    "WorkloadNotAvailable",
    "WorkloadNotProgressing",
];

fn known(reason: &str) -> bool {
    KNOWN.contains(&reason) || reason.starts_with("UpdatePayload")
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let Some((i, c)) = cond(&cv.status.conditions, "Failing") else {
        return;
    };
    let bad = match c.status.as_str() {
        "True" => !known(&c.reason),
        "Unknown" => c.reason != "SlowClusterOperator",
        _ => false,
    };
    if !bad {
        return;
    }
    let mut f = cx.finding(
        &META,
        cv_ref(cv),
        format!(
            "Failing={} has reason `{}`, which the CVO is not known to set",
            c.status, c.reason
        ),
    );
    f.evidence
        .push(cond_evidence(cx, cv, &cv.metadata.name, i, c, "reason"));
    f.at = c.last_transition_time;
    out.push(f);
}
