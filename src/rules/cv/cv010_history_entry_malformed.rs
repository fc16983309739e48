//! CV010 `history-entry-malformed`: a history entry without an image, with a state other than
//! Completed or Partial, or a Partial `history[0]` that already has a completionTime.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cv_ref, history_evidence};

declare_rule! {
    HistoryEntryMalformed: "CV010" "history-entry-malformed" {
        severity: Warning,
        family: ClusterVersion,
        summary: "a history entry has no image, an unknown state, or is Partial at index 0 with a completionTime",
        needs: &[&[Input::ClusterVersion]],
        help: "find who wrote the ClusterVersion status; the CVO always records the image and uses only Completed and Partial",
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
    for (i, h) in cv.status.history.iter().enumerate() {
        let mut problems = Vec::new();
        let mut ev = Vec::new();
        if h.image.is_empty() {
            problems.push("no image".to_string());
            ev.push(history_evidence(cx, cv, i, "version", h.label()));
        }
        if !matches!(h.state.as_str(), "Completed" | "Partial") {
            problems.push(if h.state.is_empty() {
                "no state".to_string()
            } else {
                format!("state `{}`", h.state)
            });
            ev.push(history_evidence(cx, cv, i, "state", &h.state));
        }
        if i == 0
            && h.is_partial()
            && let Some(c) = h.completion_time
        {
            problems.push(format!("Partial with completionTime {}", fmt_short(&c)));
            ev.push(history_evidence(
                cx,
                cv,
                i,
                "completionTime",
                &fmt_short(&c),
            ));
        }
        if problems.is_empty() {
            continue;
        }
        let mut f = cx.finding(
            &META,
            cv_ref(cv),
            format!("history[{i}] (`{}`) has {}", h.label(), problems.join(", ")),
        );
        f.evidence = ev;
        f.at = h.started_time;
        out.push(f);
    }
}
