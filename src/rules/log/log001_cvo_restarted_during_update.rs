//! LOG001 `cvo-restarted-during-update`: the CVO container restarted or its pod was replaced
//! while an update was in progress; progress timers reset and the new pod re-reads the state.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::timeline::{EpisodeKind, EpisodeTag};

declare_rule! {
    CvoRestartedDuringUpdate: "LOG001" "cvo-restarted-during-update" {
        severity: Warning,
        family: CvoLog,
        summary: "the CVO restarted while an update was in progress",
        needs: &[&[Input::CvoLog, Input::CvoPods]],
        help: "read the end of the previous container's log (`previous.log`) for why it stopped (OOM, lease lost, node drain)",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/sync_worker.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let tl = cx.timeline;
    for r in tl.episodes_of(EpisodeTag::CvoRestart) {
        let Some(update) = tl
            .episodes_of(EpisodeTag::Update)
            .find(|u| u.contains(r.start))
        else {
            continue;
        };
        let EpisodeKind::CvoRestart {
            pod,
            previous_pod,
            cause,
        } = &r.kind
        else {
            continue;
        };
        let to = update.target_release.clone().unwrap_or_default();
        let mut msg = format!("the CVO restarted during the update to `{to}`: {cause}");
        if let Some(p) = previous_pod {
            msg.push_str(&format!(" (`{p}` → `{pod}`)"));
        }
        if let Some(end) = r.end {
            msg.push_str(&format!(
                ", down from {} to {}",
                fmt_short(&r.start),
                fmt_short(&end)
            ));
        }
        let mut f = cx.finding(
            &META,
            ObjectRef::new("Pod", &cx.bundle.cvo_namespace(), pod),
            msg,
        );
        for e in &r.evidence {
            f.evidence.push(cx.from_timeline(e));
        }
        f.at = Some(r.start);
        f.details.insert("update_to", to);
        out.push(f);
    }
}
