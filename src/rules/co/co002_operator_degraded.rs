//! CO002 `operator-degraded`: a ClusterOperator reports Degraded=True. During an update the
//! CVO waits up to 40 minutes for it, then reports Failing.

use super::{condition_finding, update_context};
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::cond;

declare_rule! {
    OperatorDegraded: "CO002" "operator-degraded" {
        severity: Error,
        family: ClusterOperator,
        summary: "a ClusterOperator is Degraded",
        needs: &[&[Input::ClusterOperators]],
        help: "follow the reason (e.g. `NodeController_MasterNodesReady` points at nodes) into the operator's namespace and its operands",
        references: &[
                "https://github.com/openshift/api/blob/master/config/v1/types_cluster_operator.go",
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/sync_worker.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let ctx = update_context(cx);
    for co in cx.bundle.cluster_operators() {
        let Some((i, c)) = cond(&co.status.conditions, "Degraded").filter(|(_, c)| c.is_true())
        else {
            continue;
        };
        out.push(condition_finding(cx, &META, co, (i, c), "Degraded", &ctx));
    }
}
