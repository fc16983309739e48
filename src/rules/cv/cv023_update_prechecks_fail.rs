//! CV023 `update-prechecks-fail`: with no update running, the checks `oc adm upgrade
//! recommend` makes before the next update find issues (Failing, critical or other
//! update-relevant alerts), which `oc adm upgrade recommend --version V` would stop on.
//! The facts are `recommend`'s precheck; when the CVO evaluates alerts as risks (the
//! `ClusterUpdateAcceptRisks` gate, 4.22+), the alert risks of `status.conditionalUpdateRisks`
//! that apply and are not in `spec.desiredUpdate.acceptRisks`.

use crate::rules::engine::{Context, Fact, Input, Phase};
use crate::rules::model::*;
use crate::rules::util::cv_ref;

declare_rule! {
    UpdatePrechecksFail: "CV023" "update-prechecks-fail" {
        severity: Info,
        family: ClusterVersion,
        summary: "the checks oc makes before an update find issues (Failing, critical or update-relevant alerts) the next update would meet",
        needs: &[&[Input::ClusterVersion]],
        facts: &[Fact::Recommendation],
        help: "resolve each issue before updating, or name it in `oc adm upgrade recommend --version <target> --accept <names>` once understood",
        references: &[
                "https://github.com/openshift/oc/blob/master/pkg/cli/admin/upgrade/recommend/alerts.go",
                "https://docs.openshift.com/container-platform/4.16/updating/preparing_for_updates/updating-cluster-prepare.html",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    if cx.phase() != Phase::Settled {
        return;
    }
    let (Some(cv), Some(plan)) = (cx.bundle.cluster_version(), cx.recommendation()) else {
        return;
    };
    let mut issues: Vec<String> = Vec::new();
    if let Some(c) = plan.failing.as_ref().filter(|c| c.status != "False") {
        issues.push(format!("Failing={} (`{}`)", c.status, c.reason));
    }
    if plan.cvo_evaluates_risks {
        // The CVO evaluates alerts as risks (`ClusterUpdateAcceptRisks`): oc checks none
        // itself; the alert risks that apply and the administrator did not accept are what
        // stops the next update.
        for r in cv
            .status
            .conditional_update_risks
            .iter()
            .filter(|r| r.is_alert() && r.may_apply() && !plan.accepted_risks.contains(&r.name))
        {
            let reason = r
                .conditions
                .iter()
                .find(|c| c.type_ == "Applies")
                .map_or("", |c| c.reason.as_str());
            issues.push(format!(
                "`{}` (alert risk the CVO evaluates, {reason})",
                r.name
            ));
        }
    } else if let Ok(checks) = &plan.precheck {
        for c in checks.iter().filter(|c| c.status != "True") {
            let kind = c.type_.split('/').nth(1).unwrap_or("");
            issues.push(format!("`{}` ({kind}, {})", c.accept_as, c.reason));
        }
    } else if plan.alerts_read {
        issues.push("the alerts could not be read".to_string());
    }
    if issues.is_empty() {
        return;
    }
    let msg = format!(
        "before the next update, oc's checks would stop on {}: {}",
        if issues.len() == 1 {
            "one issue"
        } else {
            "these issues"
        },
        issues.join(", ")
    );
    let mut f = cx.finding(&META, cv_ref(cv), msg);
    if let Some((i, c)) = crate::rules::util::cond(&cv.status.conditions, "Failing")
        .filter(|(_, c)| c.status != "False")
    {
        f.evidence.push(crate::rules::util::cond_evidence(
            cx,
            cv,
            &cv.metadata.name,
            i,
            c,
            "message",
        ));
    }
    out.push(f);
}
