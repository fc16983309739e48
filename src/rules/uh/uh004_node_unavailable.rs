//! UH004 `node-unavailable`: a node oc calls seriously unavailable while it is not being
//! updated: NotReady for 5 minutes, disk pressure or network unavailable for one (a cordon
//! alone, or the machine-config daemon at work, is not serious). oc's level: warning.

use super::{node_target, report};
use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::rules::util::cond_evidence;
use crate::status::InsightKind;

declare_rule! {
    NodeUnavailable: "UH004" "node-unavailable" {
        severity: Warning,
        family: UpdateHealth,
        summary: "a Node has been unavailable (NotReady for 5 minutes, disk pressure, network) while not updating, as oc's Update Health says",
        needs: &[&[Input::ClusterVersion], &[Input::ClusterOperators], &[Input::Nodes], &[Input::MachineConfigPools]],
        facts: &[Fact::UpdateHealth],
        help: "check the node's kubelet journal and conditions; an update cannot drain or reboot it into the new release until it is back",
        references: &[
            "https://github.com/openshift/oc/blob/master/pkg/cli/admin/upgrade/status/workerpool.go",
            "https://kubernetes.io/docs/reference/node/node-status/#condition",
        ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    report(cx, &META, InsightKind::NodeUnavailable, out, |res| {
        node_target(cx, res, |n| {
            let bad = n.status.conditions.iter().enumerate().find(|(_, c)| {
                matches!(
                    (c.type_.as_str(), c.status.as_str()),
                    ("Ready", s) if s != "True"
                ) || (matches!(c.type_.as_str(), "DiskPressure" | "NetworkUnavailable")
                    && c.status != "False")
            })?;
            Some(cond_evidence(
                cx,
                n,
                &n.metadata.name,
                bad.0,
                bad.1,
                "status",
            ))
        })
    });
}
