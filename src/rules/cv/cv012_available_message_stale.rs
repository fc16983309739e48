//! CV012 `available-message-stale`: `Available=True` says `Done applying X`, where X must be
//! the most recent Completed history entry (version, or image when the message predates the
//! version backfill).

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cond, cond_evidence, cv_ref, history_evidence};

declare_rule! {
    AvailableMessageStale: "CV012" "available-message-stale" {
        severity: Warning,
        family: ClusterVersion,
        summary: "Available=True names a release other than the most recent Completed history entry",
        needs: &[&[Input::ClusterVersion]],
        help: "trust history for what was last applied; find who wrote the status or why the CVO has not synced it",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let Some((ci, c)) = cond(&cv.status.conditions, "Available").filter(|(_, c)| c.is_true())
    else {
        return;
    };
    let done = crate::timeline::text::done_applying(&c.message).map(str::trim);
    let last = cv.last_completed();
    let msg = match (done, last) {
        (None, _) => format!(
            "Available=True has message `{}`, not `Done applying <release>`",
            c.message
        ),
        (Some(x), None) => {
            format!("Available=True says `Done applying {x}` but no history entry is Completed")
        }
        (Some(x), Some((_, h))) if x == h.version || x == h.image || x == h.label() => return,
        (Some(x), Some((i, h))) => {
            format!(
                "Available=True says `Done applying {x}` but the most recent Completed entry, history[{i}], is `{}`",
                h.label()
            )
        }
    };
    let mut f = cx.finding(&META, cv_ref(cv), msg);
    f.evidence
        .push(cond_evidence(cx, cv, &cv.metadata.name, ci, c, "message"));
    if let Some((i, h)) = last {
        f.evidence.push(
            history_evidence(cx, cv, i, "version", h.label())
                .with_label("most recent Completed entry"),
        );
    }
    f.at = c.last_transition_time;
    out.push(f);
}
