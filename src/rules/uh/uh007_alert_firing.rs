//! UH007 `alert-firing`: a firing alert of warning or critical severity that started during
//! the update, or one known to affect updates (`PodDisruptionBudgetAtLimit`,
//! `PodDisruptionBudgetLimit`) whenever it started. oc's level: the alert's severity
//! (critical is an error).

use super::report;
use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::status::InsightKind;

declare_rule! {
    AlertFiring: "UH007" "alert-firing" {
        severity: Warning,
        family: UpdateHealth,
        summary: "an alert fired during the update (or one known to affect updates fires), as oc's Update Health says",
        needs: &[&[Input::ClusterVersion], &[Input::ClusterOperators], &[Input::Alerts]],
        facts: &[Fact::UpdateHealth],
        help: "follow the alert's runbook; a PodDisruptionBudget at its limit blocks node drains",
        references: &[
            "https://github.com/openshift/oc/blob/master/pkg/cli/admin/upgrade/status/alerts.go",
            "https://github.com/openshift/runbooks/tree/master/alerts",
        ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    report(cx, &META, InsightKind::Alert, out, |res| {
        let object = ObjectRef::new("Alert", &res.namespace, &res.name);
        let evidence = cx
            .bundle
            .objects
            .alerts
            .iter()
            .find(|doc| doc.alerts.iter().any(|a| a.label("alertname") == res.name))
            .map(|doc| {
                cx.field(doc, None, "data.alerts", &format!("\"{}\"", res.name))
                    .with_label("firing")
            })
            .into_iter()
            .collect();
        (object, evidence)
    });
}
