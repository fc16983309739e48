//! CV020 `release-not-accepted`: a 4.11+ CVO did not accept the requested target
//! (ReleaseAccepted=False: retrieval, load, version check or preconditions). Unlike the legacy
//! stall (CV002) the running release is still reconciled; this says which target and why.

use crate::model::LoadStep;
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cond, cond_evidence, cv_ref};

declare_rule! {
    ReleaseNotAccepted: "CV020" "release-not-accepted" {
        severity: Warning,
        family: ClusterVersion,
        summary: "the CVO did not accept the requested target release (ReleaseAccepted=False)",
        needs: &[&[Input::ClusterVersion]],
        help: "fix the cause in the ReleaseAccepted message, or clear the request with `oc adm upgrade --clear`",
        references: &[
                "https://bugzilla.redhat.com/show_bug.cgi?id=1822752",
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/updatepayload.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let Some((i, c)) = cond(&cv.status.conditions, "ReleaseAccepted").filter(|(_, c)| c.is_false())
    else {
        return;
    };
    let running = cv
        .status
        .history
        .first()
        .map(|h| h.label().to_string())
        .unwrap_or_default();
    let target = cv
        .spec
        .desired_update
        .as_ref()
        .map(|d| d.label().to_string())
        .unwrap_or_default();
    // The condition's reason is the load step that failed (`model::LoadStep`'s spelling).
    let why = match crate::vocab::names::from_serde_name(&c.reason) {
        Some(LoadStep::PreconditionChecks) => "preconditions failed",
        Some(LoadStep::RetrievePayload) => "the payload could not be retrieved or verified",
        Some(LoadStep::LoadPayload) => "the payload could not be loaded",
        Some(LoadStep::VerifyPayloadVersion) => "the payload version does not match",
        Some(LoadStep::PayloadLoaded | LoadStep::VerifyPayload) | None => "it was rejected",
    };
    let mut msg = format!(
        "the CVO did not accept `{}`: {why} (`{}`)",
        if target.is_empty() {
            "the target"
        } else {
            &target
        },
        c.reason
    );
    if let Some(p) = crate::timeline::text::first_precondition(&c.message) {
        msg.push_str(&format!(", precondition `{}`", p.name));
        if let Some(r) = p.reason {
            msg.push_str(&format!(" (`{r}`)"));
        }
    }
    let reconciling =
        cx.timeline.passes().iter().rfind(|p| {
            p.touched_manifests() && c.last_transition_time.is_none_or(|t| p.start >= t)
        });
    if !running.is_empty() {
        msg.push_str(&format!("; `{running}` is still reconciled"));
    }
    let mut f = cx.finding(&META, cv_ref(cv), msg);
    f.evidence
        .push(cond_evidence(cx, cv, &cv.metadata.name, i, c, "message"));
    if let Some(p) = reconciling
        && let Some(e) = p.evidence.first()
    {
        f.evidence.push(
            cx.from_timeline(e)
                .with_label("still reconciling the running release"),
        );
    }
    f.at = c.last_transition_time;
    f.details.insert("reason", c.reason.clone());
    if !target.is_empty() {
        f.details.insert("target", target);
    }
    out.push(f);
}
