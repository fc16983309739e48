//! CI002 `update-recorded-late`: the CI job requested the update long before the CVO recorded
//! it in history (more than 10 minutes): slow payload retrieval or verification, or a target
//! rejected by preconditions for a while.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::duration;
use crate::timeline::EventKind;
use chrono::Duration;

declare_rule! {
    UpdateRecordedLate: "CI002" "update-recorded-late" {
        severity: Warning,
        family: Ci,
        summary: "the CVO recorded the update in history long after the CI job requested it",
        needs: &[&[Input::CiTestLog], &[Input::ClusterVersion]],
        help: "look at the CVO log between the request and the history entry (retrieval, verification, preconditions)",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/sync_worker.go",
            ],
    }
}

const LATE: i64 = 10;

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let tl = cx.timeline;
    for e in tl
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::UpgradeStarted { .. }))
    {
        // The first history entry started after the request (a second of slack).
        let Some(rec) = tl
            .history()
            .iter()
            .filter(|h| {
                h.started
                    .is_some_and(|s| s + Duration::seconds(1) >= e.time)
            })
            .min_by_key(|h| h.started)
        else {
            continue;
        };
        let Some(started) = rec.started else { continue };
        if started - e.time <= Duration::minutes(LATE) {
            continue;
        }
        let mut f = cx.finding(
            &META,
            ObjectRef::new("ClusterVersion", "", "version"),
            format!(
                "CI requested the update at {} but history records `{}` starting at {}, {} later",
                fmt_short(&e.time),
                rec.label(),
                fmt_short(&started),
                duration(e.time, started)
            ),
        );
        if let Some(ev) = e.evidence.first() {
            f.evidence
                .push(cx.from_timeline(ev).with_label("update requested"));
        }
        if let Some(ev) = rec.evidence.last() {
            f.evidence
                .push(cx.from_timeline(ev).with_label("history entry started"));
        }
        f.at = Some(e.time);
        out.push(f);
    }
}
