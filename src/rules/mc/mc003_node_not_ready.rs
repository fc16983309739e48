//! MC003 `node-not-ready`: a Node's Ready condition is False or Unknown (the kubelet stopped
//! posting status).

use super::node_ref;
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cond, cond_evidence};

declare_rule! {
    NodeNotReady: "MC003" "node-not-ready" {
        severity: Error,
        family: MachineConfig,
        summary: "a Node is not Ready",
        needs: &[&[Input::Nodes]],
        help: "check the node's kubelet journal and, during an update, whether it is rebooting into the new configuration",
        references: &["https://kubernetes.io/docs/reference/node/node-status/#condition"],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    for node in &cx.bundle.objects.nodes {
        let name = &node.metadata.name;
        let Some((i, c)) = cond(&node.status.conditions, "Ready") else {
            continue;
        };
        if c.is_true() {
            continue;
        }
        let since = c
            .last_transition_time
            .map_or_else(String::new, |t| format!(" since {}", fmt_short(&t)));
        let mut msg = format!("node `{name}` is Ready={}{since}", c.status);
        if !c.reason.is_empty() {
            msg.push_str(&format!(" (`{}`)", c.reason));
        }
        if !c.message.is_empty() {
            msg.push_str(&format!(": {}", one_line(&c.message, 200)));
        }
        let mut f = cx.finding(&META, node_ref(name), msg);
        f.evidence
            .push(cond_evidence(cx, node, name, i, c, "status"));
        f.at = c.last_transition_time;
        out.push(f);
    }
}
