//! UH008 `previous-update-incomplete`: the update was started while the previous one was
//! still in progress (`status.history[1]` is Partial): operators and nodes may be at three
//! releases until it completes. oc's level: warning.

use super::{cluster_version_target, report};
use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::status::InsightKind;

declare_rule! {
    PreviousUpdateIncomplete: "UH008" "previous-update-incomplete" {
        severity: Warning,
        family: UpdateHealth,
        summary: "an update started before the previous one completed, as oc's Update Health says",
        needs: &[&[Input::ClusterVersion], &[Input::ClusterOperators]],
        facts: &[Fact::UpdateHealth],
        help: "expect operators and nodes at three releases until this update completes; compare against the last Completed release",
        references: &[
            "https://github.com/openshift/oc/blob/master/pkg/cli/admin/upgrade/status/controlplane.go",
            "https://docs.openshift.com/container-platform/latest/updating/troubleshooting_updates/gathering-data-cluster-update.html",
        ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    report(
        cx,
        &META,
        InsightKind::PreviousUpdateIncomplete,
        out,
        |_| cluster_version_target(cx, None, Some(1)),
    );
}
