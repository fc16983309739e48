//! CO003 `operator-not-at-target`: the ClusterVersion says the update completed, but a
//! ClusterOperator still reports another `operator` version.

use crate::rules::engine::{Context, Input, field_evidence};
use crate::rules::model::*;
use crate::rules::util::{co_ref, history_evidence};

declare_rule! {
    OperatorNotAtTarget: "CO003" "operator-not-at-target" {
        severity: Error,
        family: ClusterOperator,
        summary: "a ClusterOperator is not at the release the ClusterVersion says was completed",
        needs: &[&[Input::ClusterVersion], &[Input::ClusterOperators]],
        help: "check the operator's deployment and its Progressing message; the CVO should not have completed without it",
        references: &[
                "https://github.com/openshift/api/blob/master/config/v1/types_cluster_operator.go",
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/sync_worker.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let Some(h0) = cv
        .status
        .history
        .first()
        .filter(|h| h.is_completed() && !h.version.is_empty())
    else {
        return;
    };
    for co in cx.bundle.cluster_operators() {
        let Some(v) = co.operator_version() else {
            continue;
        };
        if v == h0.version || v.is_empty() {
            continue;
        }
        let done = h0
            .completion_time
            .map_or_else(String::new, |t| format!(" at {}", fmt_short(&t)));
        let mut f = cx.finding(
            &META,
            co_ref(co),
            format!(
                "`{}` reports version `{v}` but the update to `{}` completed{done}",
                co.metadata.name, h0.version
            ),
        );
        let i = co
            .status
            .versions
            .iter()
            .position(|x| x.name == "operator")
            .unwrap_or(0);
        f.evidence.push(
            field_evidence(
                &cx.bundle.files,
                co,
                Some(&co.metadata.name),
                &format!("status.versions[{i}].version"),
                v,
            )
            .with_label("operator version"),
        );
        f.evidence.push(
            history_evidence(cx, cv, 0, "version", &h0.version).with_label("completed release"),
        );
        f.at = h0.completion_time;
        f.details.insert("operator_version", v.to_string());
        f.details.insert("cluster_version", h0.version.clone());
        out.push(f);
    }
}
