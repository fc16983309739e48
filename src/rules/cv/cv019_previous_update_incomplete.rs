//! CV019 `previous-update-incomplete`: an update is in progress while the one before it never
//! completed (history[0] and history[1] both Partial): the cluster is a mix of releases.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cv_ref, history_evidence};

declare_rule! {
    PreviousUpdateIncomplete: "CV019" "previous-update-incomplete" {
        severity: Info,
        family: ClusterVersion,
        summary: "an update started before the previous one completed",
        needs: &[&[Input::ClusterVersion]],
        help: "expect operators and nodes at three releases until this update completes; compare against the last Completed release",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status_history.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let hist = &cv.status.history;
    let (Some(h0), Some(h1)) = (hist.first(), hist.get(1)) else {
        return;
    };
    if !h0.is_partial() || !h1.is_partial() {
        return;
    }
    let last = cv
        .last_completed()
        .map_or_else(|| "none".to_string(), |(_, h)| format!("`{}`", h.label()));
    let mut f = cx.finding(
        &META,
        cv_ref(cv),
        format!(
            "the update to `{}` started while the previous update to `{}` never completed; last completed release: {last}",
            h0.label(),
            h1.label()
        ),
    );
    f.evidence.push(
        history_evidence(cx, cv, 1, "state", "Partial")
            .with_label("previous update, never completed"),
    );
    f.at = h0.started_time;
    out.push(f);
}
