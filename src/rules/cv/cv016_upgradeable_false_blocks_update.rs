//! CV016 `upgradeable-false-blocks-update`: ClusterVersion Upgradeable=False. When a minor
//! update is requested or in progress (or the precondition names it) the update is blocked;
//! otherwise minor updates will be refused until the cause is fixed.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cond, cond_evidence, cv_ref, minor_of};

declare_rule! {
    UpgradeableFalseBlocksUpdate: "CV016" "upgradeable-false-blocks-update" {
        severity: Warning,
        family: ClusterVersion,
        summary: "Upgradeable=False blocks the requested minor update (or will block the next one)",
        needs: &[&[Input::ClusterVersion]],
        help: "fix the cause in the Upgradeable message (often a ClusterOperator's Upgradeable=False) before a minor update",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/upgradeable.go",
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/payload/precondition/clusterversion/upgradeable.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let Some((i, c)) = cond(&cv.status.conditions, "Upgradeable").filter(|(_, c)| c.is_false())
    else {
        return;
    };
    let running = cv
        .last_completed()
        .map(|(_, h)| h.version.clone())
        .unwrap_or_default();
    let requested = cv
        .spec
        .desired_update
        .as_ref()
        .map(|d| d.version.clone())
        .filter(|v| !v.is_empty())
        .or_else(|| {
            cv.status
                .history
                .first()
                .filter(|h| h.is_partial())
                .map(|h| h.version.clone())
        })
        .unwrap_or_default();
    let minor_bump =
        matches!((minor_of(&running), minor_of(&requested)), (Some(a), Some(b)) if b > a);
    let precondition_names_it = cond(&cv.status.conditions, "Failing")
        .is_some_and(|(_, f)| f.is_true() && f.message.contains("\"ClusterVersionUpgradeable\""));
    let blocking =
        (minor_bump || precondition_names_it) && !requested.is_empty() && requested != running;
    let cause = one_line(&c.message, 200);
    let mut f = cx.finding(&META, cv_ref(cv), String::new());
    if blocking {
        f.message = format!(
            "Upgradeable=False (`{}`) blocks the update from `{running}` to `{requested}`: {cause}",
            c.reason
        );
        f.details.insert("target", requested);
    } else {
        f.severity = Severity::Info;
        f.message = format!(
            "Upgradeable=False (`{}`): minor updates from `{running}` will be refused: {cause}",
            c.reason
        );
    }
    f.evidence
        .push(cond_evidence(cx, cv, &cv.metadata.name, i, c, "message"));
    f.at = c.last_transition_time;
    f.details.insert("reason", c.reason.clone());
    out.push(f);
}
