//! UH002 `operator-degraded`: a ClusterOperator has been Degraded=True long enough for oc's
//! Update Health to list it: a warning after 5 minutes, an error after 40 (the CVO itself
//! waits up to 40 minutes for a degraded operator before it reports Failing).

use super::{operator_target, report};
use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::status::InsightKind;

declare_rule! {
    OperatorDegraded: "UH002" "operator-degraded" {
        severity: Error,
        family: UpdateHealth,
        summary: "a ClusterOperator has been Degraded=True for over 5 minutes (error after 40), as oc's Update Health says",
        needs: &[&[Input::ClusterVersion], &[Input::ClusterOperators]],
        facts: &[Fact::UpdateHealth],
        help: "follow the reason (e.g. `NodeController_MasterNodesReady` points at nodes) into the operator's namespace and its operands",
        references: &[
            "https://github.com/openshift/oc/blob/master/pkg/cli/admin/upgrade/status/controlplane.go",
            "https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDegraded.md",
        ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    report(cx, &META, InsightKind::OperatorDegraded, out, |res| {
        operator_target(cx, res, "Degraded")
    });
}
