//! CV024 `no-updates-offered`: the cluster is offered no update: no channel is set, the
//! update service could not be asked (RetrievedUpdates not True), or (with no update
//! running) the channel holds nothing newer. Not said during an install; the facts are
//! `recommend`'s. Replaces KI018.

use crate::rules::engine::{Context, Fact, Input, Phase};
use crate::rules::model::*;
use crate::rules::util::{anchor, cond, cond_evidence, cv_ref};

declare_rule! {
    NoUpdatesOffered: "CV024" "no-updates-offered" {
        severity: Info,
        family: ClusterVersion,
        summary: "the cluster is offered no update (no channel, the update service unreachable, or nothing newer in the channel)",
        needs: &[&[Input::ClusterVersion]],
        facts: &[Fact::Recommendation],
        help: "set a channel (`oc adm upgrade channel <channel>`), fix what the RetrievedUpdates message says, or wait for the channel to offer an update",
        references: &[
                "https://docs.openshift.com/container-platform/4.16/updating/understanding_updates/understanding-update-channels-release.html",
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/availableupdates.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let phase = cx.phase();
    if matches!(phase, Phase::Installing { .. }) {
        return;
    }
    let (Some(cv), Some(plan)) = (cx.bundle.cluster_version(), cx.recommendation()) else {
        return;
    };
    let current = if plan.current.is_empty() {
        "the running release".to_string()
    } else {
        format!("`{}`", plan.current)
    };
    let retrieved = cond(&cv.status.conditions, "RetrievedUpdates");
    let (msg, evidence) = if plan.channel.is_empty() {
        (
            format!("no update channel is set, so {current} is offered no update"),
            Some(cx.field(cv, anchor(&cv.metadata.name), "spec", "spec")),
        )
    } else if let Some((i, c)) = retrieved.filter(|(_, c)| c.status != "True") {
        (
            format!(
                "the update service could not be asked for updates from {current} in channel `{}` (RetrievedUpdates={}, `{}`): {}",
                plan.channel,
                c.status,
                c.reason,
                c.message.lines().next().unwrap_or("")
            ),
            Some(cond_evidence(cx, cv, &cv.metadata.name, i, c, "message")),
        )
    } else if plan.minors.is_empty() && retrieved.is_some() && phase == Phase::Settled {
        (
            format!("channel `{}` offers no update from {current}", plan.channel),
            Some(cx.field(cv, anchor(&cv.metadata.name), "spec.channel", &plan.channel)),
        )
    } else {
        return;
    };
    let mut f = cx.finding(&META, cv_ref(cv), msg);
    f.evidence.extend(evidence);
    out.push(f);
}
