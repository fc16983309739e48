//! CV006 `history-open-entry`: only `history[0]` may have a null completionTime; an older entry
//! without one was never closed when the next update started.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cv_ref, history_evidence};

declare_rule! {
    HistoryOpenEntry: "CV006" "history-open-entry" {
        severity: Warning,
        family: ClusterVersion,
        summary: "a history entry other than the newest has no completionTime",
        needs: &[&[Input::ClusterVersion]],
        help: "find who wrote the ClusterVersion status; the CVO closes the previous entry whenever it pushes a new one",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status_history.go",
                "https://github.com/openshift/api/blob/master/config/v1/types_cluster_version.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    for (i, h) in cv.status.history.iter().enumerate().skip(1) {
        if h.completion_time.is_some() {
            continue;
        }
        let mut f = cx.finding(
            &META,
            cv_ref(cv),
            format!(
                "history[{i}] (`{}`, {}) has no completionTime although history[{}] (`{}`) is newer",
                h.label(),
                if h.state.is_empty() { "no state" } else { &h.state },
                i - 1,
                cv.status.history[i - 1].label()
            ),
        );
        f.evidence
            .push(history_evidence(cx, cv, i, "completionTime", "null"));
        f.at = h.started_time;
        out.push(f);
    }
}
