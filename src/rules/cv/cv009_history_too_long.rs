//! CV009 `history-too-long`: the CVO prunes history to 100 entries (4.12+) or 50 (4.1-4.11);
//! a longer list was not written by the CVO of this version.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cv_ref, history_evidence, minor_of};

declare_rule! {
    HistoryTooLong: "CV009" "history-too-long" {
        severity: Warning,
        family: ClusterVersion,
        summary: "status.history is longer than the CVO's pruning limit (100 on 4.12+, 50 before)",
        needs: &[&[Input::ClusterVersion]],
        help: "find who wrote the ClusterVersion status; the CVO prunes one entry per write past the limit",
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
    let newest = hist.iter().map(|h| h.version.as_str()).find_map(minor_of);
    let limit = if newest.is_some_and(|m| m >= (4, 12)) {
        100
    } else {
        50
    };
    if hist.len() <= limit {
        return;
    }
    let mut f = cx.finding(
        &META,
        cv_ref(cv),
        format!(
            "status.history has {} entries; the CVO of `{}` keeps at most {limit}",
            hist.len(),
            hist.first().map_or("", |h| h.label())
        ),
    );
    let last = &hist[limit];
    f.evidence.push(
        history_evidence(cx, cv, limit, "version", last.label())
            .with_label(format!("entry {}", limit + 1)),
    );
    f.at = hist.first().and_then(|h| h.started_time);
    f.details.insert("entries", hist.len());
    f.details.insert("limit", limit);
    out.push(f);
}
