//! CV017 `conditions-incomplete`: after its first sync the CVO keeps Available, Failing,
//! Progressing and RetrievedUpdates on the ClusterVersion, each type once.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::cv_ref;

declare_rule! {
    ConditionsIncomplete: "CV017" "conditions-incomplete" {
        severity: Warning,
        family: ClusterVersion,
        summary: "a core ClusterVersion condition is missing, or a condition type appears twice",
        needs: &[&[Input::ClusterVersion]],
        help: "check whether the CVO is running and syncing status (its pod and log), and who else writes the ClusterVersion",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status.go",
            ],
    }
}

const CORE: &[&str] = &["Available", "Failing", "Progressing", "RetrievedUpdates"];

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    if cv.status.history.is_empty() {
        return; // Before the first sync nothing is expected.
    }
    let conds = &cv.status.conditions;
    let missing: Vec<&str> = CORE
        .iter()
        .copied()
        .filter(|t| !conds.iter().any(|c| c.type_ == *t))
        .collect();
    let mut dups: Vec<&str> = conds
        .iter()
        .enumerate()
        .filter(|(i, c)| conds[..*i].iter().any(|p| p.type_ == c.type_))
        .map(|(_, c)| c.type_.as_str())
        .collect();
    dups.dedup();
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!(
            "missing {}",
            missing
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !dups.is_empty() {
        parts.push(format!(
            "repeated {}",
            dups.iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if parts.is_empty() {
        return;
    }
    let mut f = cx.finding(
        &META,
        cv_ref(cv),
        format!("ClusterVersion conditions: {}", parts.join("; ")),
    );
    let first = conds.first().map_or("conditions", |c| c.type_.as_str());
    f.evidence
        .push(cx.field(cv, Some(&cv.metadata.name), "status.conditions", first));
    f.at = cv.status.history.first().and_then(|h| h.started_time);
    out.push(f);
}
