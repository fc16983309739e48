//! UH005 `node-degraded`: the machine-config daemon marked a node Degraded or
//! Unreconcilable (its `machineconfiguration.openshift.io/state` annotation): the node
//! cannot reach its desired config, so the pool cannot finish. oc's level: error. The node
//! records no time for the annotation, so the finding has none unless the data says.

use super::{node_target, report};
use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::status::InsightKind;

declare_rule! {
    NodeDegraded: "UH005" "node-degraded" {
        severity: Error,
        family: UpdateHealth,
        summary: "the machine-config daemon marked a Node Degraded or Unreconcilable, as oc's Update Health says",
        needs: &[&[Input::ClusterVersion], &[Input::ClusterOperators], &[Input::Nodes], &[Input::MachineConfigPools]],
        facts: &[Fact::UpdateHealth],
        help: "read the `machineconfiguration.openshift.io/reason` annotation and the machine-config-daemon log on that node",
        references: &[
            "https://github.com/openshift/oc/blob/master/pkg/cli/admin/upgrade/status/workerpool.go",
            "https://docs.openshift.com/container-platform/latest/post_installation_configuration/machine-configuration-tasks.html",
        ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    report(cx, &META, InsightKind::NodeDegraded, out, |res| {
        node_target(cx, res, |n| {
            let state = n.mco_annotation("state")?;
            Some(cx.field(
                n,
                Some(&n.metadata.name),
                "metadata.annotations.machineconfiguration.openshift.io/state",
                state,
            ))
        })
    });
}
