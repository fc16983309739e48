//! CV021 `cluster-version-invalid`: Invalid=True; the CVO ignores the invalid spec fields
//! (a desiredUpdate it cannot resolve is treated as no update at all).

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cond, cond_evidence, cv_ref};

declare_rule! {
    ClusterVersionInvalid: "CV021" "cluster-version-invalid" {
        severity: Error,
        family: ClusterVersion,
        summary: "the ClusterVersion spec is invalid (Invalid=True) and its invalid fields are ignored",
        needs: &[&[Input::ClusterVersion]],
        help: "correct the field named in the message (e.g. request a version from availableUpdates, or give an image)",
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
    let Some((i, c)) = cond(&cv.status.conditions, "Invalid").filter(|(_, c)| c.is_true()) else {
        return;
    };
    let detail = c
        .message
        .lines()
        .map(|l| l.trim().trim_start_matches("* "))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    let mut f = cx.finding(
        &META,
        cv_ref(cv),
        format!("the ClusterVersion is invalid: {}", one_line(&detail, 240)),
    );
    f.evidence
        .push(cond_evidence(cx, cv, &cv.metadata.name, i, c, "message"));
    f.at = c.last_transition_time;
    out.push(f);
}
