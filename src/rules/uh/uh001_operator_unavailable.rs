//! UH001 `operator-unavailable`: a ClusterOperator has been Available=False long enough for
//! oc's Update Health to list it: a warning after 5 minutes, an error after 20.

use super::{operator_target, report};
use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::status::InsightKind;

declare_rule! {
    OperatorUnavailable: "UH001" "operator-unavailable" {
        severity: Error,
        family: UpdateHealth,
        summary: "a ClusterOperator has been Available=False for over 5 minutes (error after 20), as oc's Update Health says",
        needs: &[&[Input::ClusterVersion], &[Input::ClusterOperators]],
        facts: &[Fact::UpdateHealth],
        help: "inspect the operator's namespace (pods, events, operator log) starting from the reason and message",
        references: &[
            "https://github.com/openshift/oc/blob/master/pkg/cli/admin/upgrade/status/controlplane.go",
            "https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/ClusterOperatorDown.md",
        ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    report(cx, &META, InsightKind::OperatorUnavailable, out, |res| {
        operator_target(cx, res, "Available")
    });
}
