//! UH003 `update-failing`: the ClusterVersion's `Failing` condition is True or Unknown (or
//! missing): the CVO cannot apply the release. During an update oc lists it at warning
//! ("failing to proceed with the update"); the causes (degraded operators, nodes) carry
//! their own UH findings. When the cluster is not updating, Failing=True means the CVO
//! cannot reconcile the running release, which oc does not show: mglint reports it as a
//! warning of its own. A legacy CVO blocked on a target's preconditions is CV002's.

use super::{cluster_version_target, report};
use crate::rules::cv::blocked::legacy_blocked;
use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::rules::util::operators_in;
use crate::status::InsightKind;

declare_rule! {
    UpdateFailing: "UH003" "update-failing" {
        severity: Warning,
        family: UpdateHealth,
        summary: "ClusterVersion Failing is not False: the CVO cannot apply the release, as oc's Update Health says",
        needs: &[&[Input::ClusterVersion], &[Input::ClusterOperators]],
        facts: &[Fact::UpdateHealth],
        help: "fix the cause named in the message; for operators, start from their Degraded and Available conditions",
        references: &[
            "https://github.com/openshift/oc/blob/master/pkg/cli/admin/upgrade/status/controlplane.go",
            "https://github.com/openshift/cluster-version-operator/blob/master/docs/user/reconciliation.md",
        ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    if legacy_blocked(cx).is_some() {
        return; // CV002 reports this with the stall.
    }
    let mut found = Vec::new();
    report(
        cx,
        &META,
        InsightKind::ClusterVersionFailing,
        &mut found,
        |_| cluster_version_target(cx, Some("Failing"), None),
    );
    let cv = cx.bundle.cluster_version();
    let failing = cv.and_then(|cv| cv.condition("Failing"));
    let updating = cx.update_health().is_some_and(|a| a.updating);
    for mut f in found {
        if let Some(c) = failing {
            let operators = operators_in(&c.message);
            if !operators.is_empty() {
                f.details.insert("operators", operators);
            }
            f.details.insert("reason", c.reason.clone());
            if !updating && c.is_true() {
                f.severity = Severity::Warning;
                let running = cv
                    .and_then(|cv| cv.status.history.first())
                    .map(|h| h.label())
                    .unwrap_or_default();
                f.message = format!(
                    "ClusterVersion is Failing=True while reconciling `{running}` (`{}`): {}",
                    c.reason,
                    one_line(&c.message, 200)
                );
            }
        }
        out.push(f);
    }
}
