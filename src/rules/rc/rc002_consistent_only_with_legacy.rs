//! RC002 `consistent-only-with-legacy`: the ClusterVersion matches only the legacy (4.1-4.10)
//! CVO model, and shows its stall on a rejected target: a target whose checks failed was
//! pushed to history (and made `status.desired`), which a fixed CVO never does.

use super::{replay_evidence, status_evidence};
use crate::model::fmt_k8s;
use crate::reconciler::Flavour;
use crate::reconciler::replay::{HistoryField, ReleaseField, StatusField};
use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::rules::util::cv_ref;

declare_rule! {
    ConsistentOnlyWithLegacy: "RC002" "consistent-only-with-legacy" {
        severity: Warning,
        family: Reconciler,
        summary: "status is consistent only with the legacy (4.1-4.10) CVO: a rejected target stalled it",
        needs: &[&[Input::ClusterVersion]],
        facts: &[Fact::Replay],
        help: "move to a CVO with the Bug 1822752 fix (4.10.z/4.11+); until then, return to the running release by image",
        references: &[
                "https://bugzilla.redhat.com/show_bug.cgi?id=1822752",
                "https://github.com/openshift/cluster-version-operator/pull/683",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let Some(r) = cx.replay() else { return };
    let Some(v) = r.verdict().filter(|v| v.flavour == Some(Flavour::Legacy)) else {
        return;
    };
    let hist = &cv.status.history;
    for rej in &r.derived.rejections {
        let Some(i) = rej.history_index.filter(|_| !rej.accepted_later) else {
            continue;
        };
        let Some(h) = hist.get(i) else { continue };
        let running = hist[i + 1..]
            .iter()
            .find(|h| h.is_completed())
            .map(|h| h.label().to_string());
        let desired = cv.status.desired.image == rej.image;
        let mut msg = format!(
            "the ClusterVersion is consistent only with the legacy (4.1-4.10) CVO: `{}` failed its checks ({}) from {}, yet history[{i}] holds it as {}",
            rej.label(),
            rej.what,
            fmt_k8s(&rej.at),
            h.state
        );
        if desired {
            msg.push_str(" and `status.desired` names it");
        }
        match &running {
            Some(run) => msg.push_str(&format!(
                "; a fixed CVO would have written no entry for it and kept reconciling `{run}` with `ReleaseAccepted=False`"
            )),
            None => msg.push_str("; a fixed CVO would have written no entry for it (`ReleaseAccepted=False`)"),
        }
        let mut f = cx.finding(&META, cv_ref(cv), msg);
        f.at = Some(rej.at);
        let field = StatusField::History(i, HistoryField::Version);
        f.evidence.push(
            status_evidence(cx, cv, &field, &h.version)
                .with_label("the rejected target in history"),
        );
        if desired {
            f.evidence.push(
                status_evidence(
                    cx,
                    cv,
                    &StatusField::Desired(ReleaseField::Version),
                    &cv.status.desired.version,
                )
                .with_label("status.desired is the target"),
            );
        }
        for ev in rej.evidence.iter().take(2) {
            f.evidence
                .push(replay_evidence(cx, cv, ev).with_label("the checks failed"));
        }
        f.confidence = Some(Confidence {
            level: ConfidenceLevel::High,
            basis: vec!["reference-model".into()],
        });
        f.details.insert("target", rej.label().to_string());
        f.details.insert("verdict", v.summary.clone());
        if let Some(run) = running {
            f.details.insert("running", run);
        }
        out.push(f);
    }
}
