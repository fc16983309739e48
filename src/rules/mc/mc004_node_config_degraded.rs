//! MC004 `node-config-degraded`: the machine-config daemon marked a Node Degraded
//! (`machineconfiguration.openshift.io/state: Degraded`) with the reason in the annotation.

use super::node_ref;
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;

declare_rule! {
    NodeConfigDegraded: "MC004" "node-config-degraded" {
        severity: Error,
        family: MachineConfig,
        summary: "the machine-config daemon marked a Node Degraded",
        needs: &[&[Input::Nodes]],
        help: "read the `machineconfiguration.openshift.io/reason` annotation and the machine-config-daemon log on that node",
        references: &[
                "https://github.com/openshift/machine-config-operator/blob/master/docs/MachineConfigDaemon.md",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    for node in &cx.bundle.objects.nodes {
        if node.mco_annotation("state") != Some("Degraded") {
            continue;
        }
        let name = &node.metadata.name;
        let reason = node.mco_annotation("reason").unwrap_or("").trim();
        let mut msg = format!("node `{name}` is Degraded for the machine-config daemon");
        if !reason.is_empty() {
            msg.push_str(&format!(": {}", one_line(reason, 240)));
        }
        let desired = node.mco_annotation("desiredConfig").unwrap_or("");
        let current = node.mco_annotation("currentConfig").unwrap_or("");
        if !desired.is_empty() && desired != current {
            msg.push_str(&format!(" (at `{current}`, wants `{desired}`)"));
        }
        let mut f = cx.finding(&META, node_ref(name), msg);
        f.evidence.push(cx.field(
            node,
            Some(name),
            "metadata.annotations[\"machineconfiguration.openshift.io/state\"]",
            "machineconfiguration.openshift.io/state: Degraded",
        ));
        if !reason.is_empty() {
            f.evidence.push(cx.field(
                node,
                Some(name),
                "metadata.annotations[\"machineconfiguration.openshift.io/reason\"]",
                "machineconfiguration.openshift.io/reason",
            ));
        }
        f.at = node.condition("Ready").and_then(|c| c.last_transition_time);
        out.push(f);
    }
}
