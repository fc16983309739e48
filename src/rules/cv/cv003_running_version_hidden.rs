//! CV003 `running-version-hidden`: `status.desired` and `history[0]` name a target that was
//! never applied, and nothing outside `status.history` says which release actually runs. The
//! finding names the running release and where that was found (history, the Available
//! message, ClusterOperator versions, the CVO pod's image).

use super::blocked::legacy_blocked;
use crate::rules::engine::{Context, Input, field_evidence};
use crate::rules::model::*;
use crate::rules::util::{cond, cond_evidence, cv_ref, history_evidence};

declare_rule! {
    RunningVersionHidden: "CV003" "running-version-hidden" {
        severity: Warning,
        family: ClusterVersion,
        summary: "status names a target release that is not running, and only status.history says which release is",
        needs: &[&[Input::ClusterVersion]],
        help: "read the running release from the most recent Completed history entry (or the CVO pod's image), not from `status.desired` or `oc get clusterversion`",
        references: &[
                "https://bugzilla.redhat.com/show_bug.cgi?id=1822752",
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(b) = legacy_blocked(cx) else { return };
    let cv = b.cv;
    let target = b.target.label();
    let mut f = cx.finding(&META, cv_ref(cv), String::new());
    f.evidence.push(
        cx.field(
            cv,
            Some(&cv.metadata.name),
            "status.desired.version",
            target,
        )
        .with_label("status.desired names the target"),
    );
    f.evidence.push(
        history_evidence(cx, cv, 0, "state", "Partial").with_label("history[0]: target, Partial"),
    );
    let mut sources: Vec<String> = Vec::new();
    let running = b
        .source
        .map(|(i, h)| (i, h.label().to_string(), h.version.clone(), h.image.clone()));
    if let Some((i, label, _, _)) = &running {
        sources.push(format!("history[{i}]"));
        f.evidence.push(
            history_evidence(cx, cv, *i, "version", label)
                .with_label("most recent Completed entry"),
        );
    }
    let (running_label, running_version, running_image) = match &running {
        Some((_, l, v, i)) => (l.clone(), v.clone(), i.clone()),
        None => (String::new(), String::new(), String::new()),
    };
    if let Some((i, c)) = cond(&cv.status.conditions, "Available").filter(|(_, c)| c.is_true())
        && let Some(x) = crate::timeline::text::done_applying(&c.message)
        && (x == running_version || x == running_image || running_label.is_empty())
    {
        sources.push("the Available message".to_string());
        f.evidence
            .push(cond_evidence(cx, cv, &cv.metadata.name, i, c, "message"));
    }
    if !running_version.is_empty() {
        let cos = cx.bundle.cluster_operators();
        let at: Vec<_> = cos
            .iter()
            .filter(|co| co.operator_version() == Some(running_version.as_str()))
            .collect();
        if !at.is_empty() {
            sources.push(format!("{} of {} ClusterOperators", at.len(), cos.len()));
            if let Some(co) = at.first() {
                let i = co
                    .status
                    .versions
                    .iter()
                    .position(|x| x.name == "operator")
                    .unwrap_or(0);
                f.evidence.push(
                    field_evidence(
                        &cx.bundle.files,
                        co,
                        Some(&co.metadata.name),
                        &format!("status.versions[{i}].version"),
                        &running_version,
                    )
                    .with_label("operators report the running release"),
                );
            }
        }
    }
    if !running_image.is_empty() {
        for pod in &cx.bundle.objects.cvo_pods {
            if let Some(i) = pod
                .spec
                .containers
                .iter()
                .position(|c| c.image == running_image)
            {
                sources.push("the CVO pod's image".to_string());
                f.evidence.push(
                    field_evidence(
                        &cx.bundle.files,
                        pod,
                        Some(&pod.metadata.name),
                        &format!("spec.containers[{i}].image"),
                        &running_image,
                    )
                    .with_label("the CVO runs this image"),
                );
                break;
            }
        }
    }
    let mut msg = format!(
        "`status.desired` and history[0] name `{target}`, which was never applied ({})",
        if b.reason.is_empty() {
            "it fails before any manifest".to_string()
        } else {
            format!("`{}`", b.reason)
        }
    );
    if running_label.is_empty() {
        msg.push_str("; no Completed history entry says which release runs");
    } else {
        msg.push_str(&format!(
            "; the cluster still runs `{running_label}` (found in {})",
            sources.join(", ")
        ));
        f.details.insert("running", running_label.clone());
    }
    f.details.insert("desired", target.to_string());
    f.details.insert("found_in", sources.join("; "));
    f.at = b.target.started_time;
    f.message = msg;
    out.push(f);
}
