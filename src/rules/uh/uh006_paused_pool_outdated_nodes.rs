//! UH006 `paused-pool-outdated-nodes`: a paused MachineConfigPool holds outdated nodes
//! during an update; they will not be updated until it is unpaused. oc's level: warning.

use super::report;
use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::status::InsightKind;

declare_rule! {
    PausedPoolOutdatedNodes: "UH006" "paused-pool-outdated-nodes" {
        severity: Warning,
        family: UpdateHealth,
        summary: "a paused MachineConfigPool holds back outdated nodes, as oc's Update Health says",
        needs: &[&[Input::ClusterVersion], &[Input::ClusterOperators], &[Input::MachineConfigPools]],
        facts: &[Fact::UpdateHealth],
        help: "unpause the pool (`oc patch mcp <name> --type merge -p '{\"spec\":{\"paused\":false}}'`) when the maintenance window allows",
        references: &[
            "https://github.com/openshift/oc/blob/master/pkg/cli/admin/upgrade/status/workerpool.go",
            "https://docs.openshift.com/container-platform/latest/updating/updating_a_cluster/eus-eus-update.html",
        ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    report(cx, &META, InsightKind::PoolPaused, out, |res| {
        let object = ObjectRef::new("MachineConfigPool", "", &res.name);
        let evidence = cx
            .bundle
            .objects
            .pools
            .iter()
            .filter(|p| p.metadata.name == res.name)
            .map(|p| {
                cx.field(p, Some(&p.metadata.name), "spec.paused", "paused: true")
                    .with_label("paused")
            })
            .take(1)
            .collect();
        (object, evidence)
    });
}
