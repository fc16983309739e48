//! CV008 `history-adjacent-duplicate`: two adjacent history entries with the same version and
//! the same image; the CVO merges those into one entry, so a second one was written by
//! something else (the CVO's own debug guard panics on it).

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cv_ref, history_evidence};

declare_rule! {
    HistoryAdjacentDuplicate: "CV008" "history-adjacent-duplicate" {
        severity: Warning,
        family: ClusterVersion,
        summary: "two adjacent history entries have the same version and image",
        needs: &[&[Input::ClusterVersion]],
        help: "find who wrote the ClusterVersion status; the CVO merges a repeated release into the existing entry",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status_history.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    for (i, w) in cv.status.history.windows(2).enumerate() {
        let (a, b) = (&w[0], &w[1]);
        if a.version != b.version || a.image != b.image || a.image.is_empty() {
            continue;
        }
        let mut f = cx.finding(
            &META,
            cv_ref(cv),
            format!(
                "history[{i}] and history[{}] both name `{}` with the same image",
                i + 1,
                a.label()
            ),
        );
        f.evidence
            .push(history_evidence(cx, cv, i, "image", &a.image));
        f.evidence.push(
            history_evidence(cx, cv, i + 1, "image", &b.image).with_label("same release again"),
        );
        f.at = a.started_time;
        out.push(f);
    }
}
