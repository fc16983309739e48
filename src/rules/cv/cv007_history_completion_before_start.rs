//! CV007 `history-completion-before-start`: a Completed entry needs a completionTime, and it
//! cannot be earlier than the entry's startedTime.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cv_ref, history_evidence};

declare_rule! {
    HistoryCompletionBeforeStart: "CV007" "history-completion-before-start" {
        severity: Warning,
        family: ClusterVersion,
        summary: "a Completed history entry has no completionTime, or one earlier than its startedTime",
        needs: &[&[Input::ClusterVersion]],
        help: "do not trust this entry's times; find who wrote the status (restore, hand edit, clock jump)",
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
        if !h.is_completed() {
            continue;
        }
        let (msg, at) = match (h.started_time, h.completion_time) {
            (_, None) => (
                format!(
                    "history[{i}] (`{}`) is Completed but has no completionTime",
                    h.label()
                ),
                h.started_time,
            ),
            (Some(s), Some(c)) if c < s => (
                format!(
                    "history[{i}] (`{}`) completed at {}, {} before it started at {}",
                    h.label(),
                    fmt_short(&c),
                    crate::rules::util::duration(c, s),
                    fmt_short(&s)
                ),
                Some(c),
            ),
            _ => continue,
        };
        let mut f = cx.finding(&META, cv_ref(cv), msg);
        let c = h
            .completion_time
            .map_or_else(|| "null".to_string(), |t| fmt_short(&t));
        f.evidence
            .push(history_evidence(cx, cv, i, "completionTime", &c));
        if let Some(s) = h.started_time {
            f.evidence
                .push(history_evidence(cx, cv, i, "startedTime", &fmt_short(&s)));
        }
        f.at = at;
        out.push(f);
    }
}
