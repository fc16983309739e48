//! CO001 `operator-unavailable`: a ClusterOperator reports Available=False (or Unknown): the
//! component it manages is not serving. During an update this blocks the CVO.

use super::{condition_finding, update_context};
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::cond;

declare_rule! {
    OperatorUnavailable: "CO001" "operator-unavailable" {
        severity: Error,
        family: ClusterOperator,
        summary: "a ClusterOperator is not Available",
        needs: &[&[Input::ClusterOperators]],
        help: "inspect the operator's namespace (pods, events, operator log) starting from the reason and message",
        references: &[
                "https://github.com/openshift/api/blob/master/config/v1/types_cluster_operator.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let ctx = update_context(cx);
    for co in cx.bundle.cluster_operators() {
        let Some((i, c)) = cond(&co.status.conditions, "Available") else {
            continue;
        };
        if c.is_true() {
            continue;
        }
        out.push(condition_finding(
            cx,
            &META,
            co,
            (i, c),
            &format!("Available={}", c.status),
            &ctx,
        ));
    }
}
