//! LOG003 `past-reconcile-stall`: the CVO log shows a span, now over, in which the CVO
//! reconciled no manifest because every pass for a target failed before reaching one (the
//! legacy behaviour of Bug 1822752); the running release was unmanaged meanwhile.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::duration;
use crate::timeline::EpisodeTag;

declare_rule! {
    PastReconcileStall: "LOG003" "past-reconcile-stall" {
        severity: Warning,
        family: CvoLog,
        summary: "the CVO log shows a past span in which nothing was reconciled while a target was retried",
        needs: &[&[Input::CvoLog]],
        help: "check for drift that happened while unmanaged (manifests changed by hand are not put back until the next pass)",
        references: &[
                "https://bugzilla.redhat.com/show_bug.cgi?id=1822752",
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/sync_worker.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let tl = cx.timeline;
    for s in tl.episodes_of(EpisodeTag::Stall) {
        let Some(end) = s.end else { continue };
        if !tl.passes().iter().any(|p| s.contains(p.start)) {
            continue;
        }
        let target = s.target_release.clone().unwrap_or_default();
        let running = s
            .running_release
            .as_deref()
            .map_or_else(String::new, |r| format!(" of `{r}`"));
        let pod = tl
            .passes()
            .iter()
            .find(|p| p.start >= s.start)
            .map(|p| p.pod.clone())
            .unwrap_or_default();
        let mut f = cx.finding(
            &META,
            ObjectRef::new("Pod", &cx.bundle.cvo_namespace(), &pod),
            format!(
                "the CVO reconciled no manifest{running} for {} ({} to {}) while it retried `{target}`",
                duration(s.start, end),
                fmt_short(&s.start),
                fmt_short(&end)
            ),
        );
        for e in &s.evidence {
            f.evidence.push(cx.from_timeline(e));
        }
        f.at = Some(s.start);
        f.details
            .insert("unmanaged_for_seconds", Detail::seconds(s.start, end));
        out.push(f);
    }
}
