//! MC005 `node-cordoned`: a Node is unschedulable while the machine-config daemon is not
//! updating it (state not Working, no drain requested): cordoned by hand or left behind.

use super::node_ref;
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;

declare_rule! {
    NodeCordoned: "MC005" "node-cordoned" {
        severity: Info,
        family: MachineConfig,
        summary: "a Node is cordoned while no machine-config update is draining it",
        needs: &[&[Input::Nodes]],
        help: "uncordon the node (`oc adm uncordon <node>`) if nobody is working on it",
        references: &[
                "https://github.com/openshift/machine-config-operator/blob/master/docs/MachineConfigDaemon.md",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    for node in &cx.bundle.objects.nodes {
        if !node.spec.unschedulable {
            continue;
        }
        let state = node.mco_annotation("state").unwrap_or("");
        let draining = node
            .mco_annotation("desiredDrain")
            .is_some_and(|d| d.starts_with("drain-"));
        if state == "Working" || draining {
            continue;
        }
        let name = &node.metadata.name;
        let how = if state.is_empty() {
            String::new()
        } else {
            format!(" (machine-config state `{state}`)")
        };
        let mut f = cx.finding(
            &META,
            node_ref(name),
            format!("node `{name}` is cordoned but no machine-config update is draining it{how}"),
        );
        f.evidence.push(cx.field(
            node,
            Some(name),
            "spec.unschedulable",
            "unschedulable: true",
        ));
        f.at = None;
        out.push(f);
    }
}
