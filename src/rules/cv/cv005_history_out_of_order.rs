//! CV005 `history-out-of-order`: `status.history` is newest first, so startedTime must not
//! increase with the index (a few seconds of slack for clock skew between leaders).

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cv_ref, history_evidence};

declare_rule! {
    HistoryOutOfOrder: "CV005" "history-out-of-order" {
        severity: Warning,
        family: ClusterVersion,
        summary: "a history entry started before the entry after it (history must be newest first)",
        needs: &[&[Input::ClusterVersion]],
        help: "find who wrote the ClusterVersion status (a restore from backup, a hand edit, another controller); the CVO only prepends",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status_history.go",
                "https://github.com/openshift/api/blob/master/config/v1/types_cluster_version.go",
            ],
    }
}

/// Clock skew between CVO leaders that is tolerated.
const SLACK_SECS: i64 = 5;

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    for (i, w) in cv.status.history.windows(2).enumerate() {
        let (Some(newer), Some(older)) = (w[0].started_time, w[1].started_time) else {
            continue;
        };
        if newer + chrono::Duration::seconds(SLACK_SECS) >= older {
            continue;
        }
        let mut f = cx.finding(
            &META,
            cv_ref(cv),
            format!(
                "history[{i}] (`{}`) started at {}, before history[{}] (`{}`) at {}; entries must be newest first",
                w[0].label(),
                fmt_short(&newer),
                i + 1,
                w[1].label(),
                fmt_short(&older)
            ),
        );
        f.evidence.push(history_evidence(
            cx,
            cv,
            i,
            "startedTime",
            &fmt_short(&newer),
        ));
        f.evidence.push(
            history_evidence(cx, cv, i + 1, "startedTime", &fmt_short(&older))
                .with_label("started later"),
        );
        f.at = Some(older);
        out.push(f);
    }
}
