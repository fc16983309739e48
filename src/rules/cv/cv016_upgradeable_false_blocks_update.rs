//! CV016 `upgradeable-false-blocks-update`: ClusterVersion Upgradeable=False. When a minor
//! update is requested or in progress (or the precondition names it) the update is blocked;
//! otherwise minor updates will be refused until the cause is fixed.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cond, cond_evidence, cv_ref, minor_of, pending_target};

declare_rule! {
    UpgradeableFalseBlocksUpdate: "CV016" "upgradeable-false-blocks-update" {
        severity: Warning,
        family: ClusterVersion,
        summary: "Upgradeable=False blocks a requested minor update the CVO has not accepted yet (else, information about the next one)",
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
    // Preconditions gate acceptance only: Upgradeable=False blocks a target the CVO has not
    // accepted yet, when it is a minor bump (or the precondition names it).
    let pending = pending_target(cx);
    let precondition_names_it = cond(&cv.status.conditions, "Failing").is_some_and(|(_, f)| {
        f.is_true()
            && crate::timeline::text::preconditions(&f.message)
                .iter()
                .any(|c| c.name == "ClusterVersionUpgradeable")
    });
    let blocking = pending.as_ref().filter(|p| {
        let minor_bump =
            matches!((minor_of(&p.running), minor_of(&p.target)), (Some(a), Some(b)) if b > a);
        minor_bump || precondition_names_it
    });
    let cause = one_line(&c.message, 200);
    let mut f = cx.finding(&META, cv_ref(cv), String::new());
    if let Some(p) = blocking {
        f.message = format!(
            "Upgradeable=False (`{}`) blocks the update from `{running}` to `{}`, not accepted yet ({}): {cause}",
            c.reason, p.target, p.why
        );
        f.details.insert("target", p.target.clone());
    } else {
        f.severity = Severity::Info;
        let accepted = match cv.status.history.first() {
            Some(h) if h.is_partial() && cx.phase() != crate::rules::Phase::Settled => {
                let how = if cv.spec.desired_update.as_ref().and_then(|d| d.force) == Some(true)
                    || !h.accepted_risks.is_empty()
                {
                    "forced"
                } else {
                    "accepted"
                };
                format!(
                    "the update to `{}` was {how}, so it blocks nothing now; ",
                    h.label()
                )
            }
            _ => String::new(),
        };
        let from = cv
            .status
            .history
            .first()
            .map_or(running.clone(), |h| h.version.clone());
        f.message = format!(
            "Upgradeable=False (`{}`): {accepted}minor updates from `{from}` will be refused: {cause}",
            c.reason
        );
    }
    f.evidence
        .push(cond_evidence(cx, cv, &cv.metadata.name, i, c, "message"));
    f.at = c.last_transition_time;
    f.details.insert("reason", c.reason.clone());
    out.push(f);
}
