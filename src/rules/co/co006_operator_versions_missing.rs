//! CO006 `operator-versions-missing`: a ClusterOperator declares no `operator` version (or no
//! Available condition); the CVO waits on it with ClusterOperatorNoVersions.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::co_ref;

declare_rule! {
    OperatorVersionsMissing: "CO006" "operator-versions-missing" {
        severity: Info,
        family: ClusterOperator,
        summary: "a ClusterOperator reports no `operator` version or no Available condition",
        needs: &[&[Input::ClusterOperators]],
        help: "check that the operator is running and has written its status; the CVO cannot level it otherwise",
        references: &[
                "https://github.com/openshift/api/blob/master/config/v1/types_cluster_operator.go",
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/internal/operatorstatus.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    for co in cx.bundle.cluster_operators() {
        let no_version = co.operator_version().is_none_or(str::is_empty);
        let no_available = co.condition("Available").is_none();
        let what = match (no_version, no_available) {
            (true, true) => "no `operator` version and no Available condition",
            (true, false) => "no `operator` version",
            (false, true) => "no Available condition",
            (false, false) => continue,
        };
        let mut f = cx.finding(
            &META,
            co_ref(co),
            format!("`{}` reports {what}", co.metadata.name),
        );
        // An `operator` entry with an empty version is pointed at (`version: ""`), not the
        // object's `name:` line.
        let path = match co.status.versions.iter().position(|v| v.name == "operator") {
            Some(i) if no_version => format!("status.versions[{i}].version"),
            _ if no_version => "status.versions".to_string(),
            _ => "status.conditions".to_string(),
        };
        f.evidence
            .push(cx.field(co, Some(&co.metadata.name), &path, &co.metadata.name));
        // Information: oc's Update Health raises nothing for it (an operator coming up during
        // an install writes its versions last).
        f.message.push_str(&cx.phase().during());
        f.at = co
            .status
            .conditions
            .iter()
            .filter_map(|c| c.last_transition_time)
            .max();
        out.push(f);
    }
}
