//! CV022 `update-target-not-recommended`: the requested target is a conditional update the
//! update service does not recommend for this cluster (its risks apply, or could not be
//! evaluated; warning), the update that ran was accepted past risks (info), or, with nothing
//! requested, offered updates are not recommended (info). The facts are `recommend`'s (the
//! same targets, risks and conditions `oc adm upgrade recommend` shows). Replaces KI008.

use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::rules::util::{cv_ref, history_evidence, same};

declare_rule! {
    UpdateTargetNotRecommended: "CV022" "update-target-not-recommended" {
        severity: Warning,
        family: ClusterVersion,
        summary: "the requested update is not recommended for this cluster (a conditional update whose risks apply), or the update ran past accepted risks",
        needs: &[&[Input::ClusterVersion]],
        facts: &[Fact::Recommendation],
        help: "read each risk's message and link (`oc adm upgrade recommend --version <target>`); pick a recommended target, or accept the risks knowingly",
        references: &[
                "https://github.com/openshift/enhancements/blob/master/enhancements/update/targeted-update-edge-blocking.md",
                "https://github.com/openshift/oc/blob/master/pkg/cli/admin/upgrade/recommend/recommend.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let Some(plan) = cx.recommendation() else {
        return;
    };
    let running = &cv.status.desired;
    // A requested target that is not what runs: is it offered, and recommended?
    if let Some(req) = cv
        .spec
        .desired_update
        .as_ref()
        .filter(|d| d.names_release())
        .filter(|d| !same(d, &running.version, &running.image))
    {
        let target = plan
            .minors
            .iter()
            .flat_map(|m| &m.collected)
            .find(|t| same(req, &t.release.version, &t.release.image));
        if let Some(t) = target
            && let Some(c) = t.not_recommended()
        {
            // A risk the administrator accepted (`spec.desiredUpdate.acceptRisks`) is named as
            // accepted: a CVO that evaluates risks leaves it out of `Recommended`.
            let risks: Vec<String> = t
                .risks
                .iter()
                .map(|r| {
                    let accepted = if req.accepts(&r.name) {
                        "; accepted"
                    } else {
                        ""
                    };
                    format!(
                        "`{}` ({}{accepted})",
                        r.name,
                        r.message.lines().next().unwrap_or("")
                    )
                })
                .collect();
            let forced = if req.force == Some(true) {
                "; the request is forced, so nothing stops it"
            } else {
                ""
            };
            let msg = format!(
                "the requested update to `{}` is not recommended for this cluster (Recommended={}, `{}`): {} {}{forced}",
                t.release.version,
                c.status,
                c.reason,
                if risks.len() == 1 { "risk" } else { "risks" },
                risks.join(", ")
            );
            let mut f = cx.finding(&META, cv_ref(cv), msg);
            f.evidence.push(cx.field(
                cv,
                crate::rules::util::anchor(&cv.metadata.name),
                "spec.desiredUpdate",
                &req.version,
            ));
            if let Some(i) = cv
                .status
                .conditional_updates
                .iter()
                .position(|cu| same(req, &cu.release.version, &cu.release.image))
            {
                f.evidence.push(
                    cx.field(
                        cv,
                        crate::rules::util::anchor(&cv.metadata.name),
                        &format!("status.conditionalUpdates[{i}].release.version"),
                        &t.release.version,
                    )
                    .with_label(format!("{} {}", c.reason, c.status)),
                );
            }
            out.push(f);
            return;
        }
    }
    // The update that ran (or runs) was accepted past risks the CVO recorded.
    if let Some(h) = cv.status.history.first()
        && !h.accepted_risks.trim().is_empty()
    {
        let forced = if cv
            .spec
            .desired_update
            .as_ref()
            .is_some_and(|d| d.force == Some(true) && same(d, &h.version, &h.image))
        {
            " (forced)"
        } else {
            ""
        };
        let msg = format!(
            "the update to `{}` was accepted past risks{forced}: {}",
            h.label(),
            h.accepted_risks.trim()
        );
        let mut f = cx.finding(&META, cv_ref(cv), msg);
        f.severity = Severity::Info;
        f.at = h.started_time;
        f.evidence.push(history_evidence(
            cx,
            cv,
            0,
            "acceptedRisks",
            h.accepted_risks.lines().next().unwrap_or(""),
        ));
        out.push(f);
        return;
    }
    // Nothing requested: the offered targets that are not recommended, for whoever picks one.
    let not_recommended: Vec<String> = plan
        .minors
        .iter()
        .flat_map(|m| &m.sorted)
        .filter_map(|t| {
            t.not_recommended()
                .map(|c| format!("`{}` (`{}`)", t.release.version, c.reason))
        })
        .collect();
    if not_recommended.is_empty()
        || cv
            .spec
            .desired_update
            .as_ref()
            .is_some_and(|d| d.names_release() && !same(d, &running.version, &running.image))
    {
        return;
    }
    let shown: Vec<&str> = not_recommended.iter().take(5).map(String::as_str).collect();
    let more = not_recommended.len().saturating_sub(shown.len());
    let msg = format!(
        "{} of the offered updates {} not recommended for this cluster: {}{}; read the risks before choosing one (`oc adm upgrade recommend --version <target>`)",
        not_recommended.len(),
        if not_recommended.len() == 1 {
            "is"
        } else {
            "are"
        },
        shown.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    );
    let mut f = cx.finding(&META, cv_ref(cv), msg);
    f.severity = Severity::Info;
    if let Some(i) = cv.status.conditional_updates.iter().position(|cu| {
        cu.conditions
            .iter()
            .any(|c| c.type_ == "Recommended" && c.status != "True")
    }) {
        f.evidence.push(cx.field(
            cv,
            crate::rules::util::anchor(&cv.metadata.name),
            &format!("status.conditionalUpdates[{i}].release.version"),
            &cv.status.conditional_updates[i].release.version,
        ));
    }
    out.push(f);
}
