//! CV004 `return-to-source-blocked`: an update is blocked before it was applied and the source
//! release is not among `availableUpdates`, so `oc adm upgrade --to <source>` does not bring
//! the cluster back. Gives the supported way back for the CVO generation, with the exact
//! source image from history.

use super::blocked::legacy_blocked;
use crate::model::{ClusterVersion, Sourced};
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cond, cond_evidence, cv_ref, fixed_cvo, history_evidence, same};

declare_rule! {
    ReturnToSourceBlocked: "CV004" "return-to-source-blocked" {
        severity: Warning,
        family: ClusterVersion,
        summary: "an update is blocked before applying and the source release is not an available update, so `oc adm upgrade --to <source>` is refused",
        needs: &[&[Input::ClusterVersion]],
        help: "return with the source image from history (see the message), or fix the blocker and let the update proceed",
        references: &[
                "https://bugzilla.redhat.com/show_bug.cgi?id=1822752",
                "https://github.com/openshift/oc/blob/master/pkg/cli/admin/upgrade/upgrade.go",
            ],
    }
}

fn available_list(cv: &ClusterVersion) -> String {
    let names: Vec<String> = cv
        .status
        .available_updates
        .iter()
        .map(|r| format!("`{}`", r.label()))
        .collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    if let Some(b) = legacy_blocked(cx) {
        let Some((si, src)) = b.source else { return };
        let cv = b.cv;
        if cv
            .status
            .available_updates
            .iter()
            .any(|r| same(r, &src.version, &src.image))
            || src.image.is_empty()
        {
            return;
        }
        let cmd = format!(
            "oc adm upgrade --to-image {} --allow-explicit-upgrade --allow-upgrade-with-warnings",
            src.image
        );
        let mut f = cx.finding(&META, cv_ref(cv), String::new());
        f.message = format!(
            "the update to `{}` is blocked before it was applied and the source `{}` is not among `availableUpdates` ({}), so `oc adm upgrade --to {}` is refused; return with `{cmd}`",
            b.target.label(),
            src.label(),
            available_list(cv),
            src.label()
        );
        f.help = format!(
            "run `{cmd}` (the source image from history[{si}]), or fix the blocker and let the update proceed"
        );
        f.evidence.push(
            history_evidence(cx, cv, si, "image", &src.image)
                .with_label("the source release image"),
        );
        push_available(cx, cv, &mut f);
        if let Some((i, c)) = b.progressing {
            f.evidence.push(
                cond_evidence(cx, cv, &cv.metadata.name, i, c, "message")
                    .with_label("`oc adm upgrade` refuses while Progressing=True"),
            );
        }
        f.at = b.target.started_time;
        f.details.insert("source_image", src.image.clone());
        f.details.insert("way_back", cmd);
        f.details.insert("cvo_generation", "legacy");
        out.push(f);
        return;
    }
    // Fixed CVO (4.11+): a rejected target leaves history and `status.desired` alone.
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    if !fixed_cvo(cv) {
        return;
    }
    let Some((ri, ra)) =
        cond(&cv.status.conditions, "ReleaseAccepted").filter(|(_, c)| c.is_false())
    else {
        return;
    };
    let Some(h0) = cv.status.history.first() else {
        return;
    };
    if cv
        .status
        .available_updates
        .iter()
        .any(|r| same(r, &h0.version, &h0.image))
    {
        return;
    }
    let target = crate::timeline::text::load_message(&ra.message)
        .map(|m| {
            crate::model::ReleaseName::new(&m.version, &m.image)
                .label()
                .to_string()
        })
        .or_else(|| {
            cv.spec
                .desired_update
                .as_ref()
                .map(|d| d.label().to_string())
        })
        .unwrap_or_default();
    let cmd = "oc adm upgrade --clear".to_string();
    let mut f = cx.finding(&META, cv_ref(cv), String::new());
    f.severity = Severity::Info;
    f.message = format!(
        "the update to `{target}` was not accepted (`{}`) and the running `{}` is not among `availableUpdates` ({}), so `oc adm upgrade --to {}` only reports the cluster is already there and leaves the request in place; clear it with `{cmd}`",
        ra.reason,
        h0.label(),
        available_list(cv),
        h0.label()
    );
    f.help = format!("run `{cmd}` (or set `spec.desiredUpdate` back to the running release)");
    f.evidence
        .push(cond_evidence(cx, cv, &cv.metadata.name, ri, ra, "message"));
    f.evidence.push(
        cx.field(cv, Some(&cv.metadata.name), "spec.desiredUpdate", &target)
            .with_label("the request still names the target"),
    );
    push_available(cx, cv, &mut f);
    f.at = ra.last_transition_time;
    f.details.insert("way_back", cmd);
    f.details.insert("cvo_generation", "fixed");
    out.push(f);
}

fn push_available(cx: &Context<'_>, cv: &Sourced<ClusterVersion>, f: &mut Finding) {
    let first = cv
        .status
        .available_updates
        .first()
        .map_or("availableUpdates", |r| r.label());
    f.evidence.push(
        cx.field(
            cv,
            Some(&cv.metadata.name),
            "status.availableUpdates",
            first,
        )
        .with_label("the source is not listed here"),
    );
}
