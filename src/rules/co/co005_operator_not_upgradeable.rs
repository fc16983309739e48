//! CO005 `operator-not-upgradeable`: a ClusterOperator reports Upgradeable=False, which makes
//! the CVO refuse minor updates (and, on 4.3, any update).

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{co_ref, cond, cond_evidence, minor_of, pending_target};

declare_rule! {
    OperatorNotUpgradeable: "CO005" "operator-not-upgradeable" {
        severity: Info,
        family: ClusterOperator,
        summary: "a ClusterOperator is Upgradeable=False (minor updates will be refused; a warning while a requested one is not accepted yet)",
        needs: &[&[Input::ClusterOperators]],
        help: "fix what the message names before requesting a minor update",
        references: &[
                "https://github.com/openshift/api/blob/master/config/v1/types_cluster_operator.go",
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/upgradeable.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    // A requested minor update the CVO has not accepted yet makes this a warning: once an
    // update is accepted (or forced), Upgradeable only speaks of the next one.
    let minor_requested = pending_target(cx).is_some_and(
        |p| matches!((minor_of(&p.running), minor_of(&p.target)), (Some(a), Some(b)) if b > a),
    );
    for co in cx.bundle.cluster_operators() {
        let Some((i, c)) = cond(&co.status.conditions, "Upgradeable").filter(|(_, c)| c.is_false())
        else {
            continue;
        };
        let reason = if c.reason.is_empty() {
            String::new()
        } else {
            format!(" (`{}`)", c.reason)
        };
        let mut f = cx.finding(
            &META,
            co_ref(co),
            format!(
                "`{}` is Upgradeable=False{reason}: {}",
                co.metadata.name,
                one_line(&c.message, 200)
            ),
        );
        if minor_requested {
            f.severity = Severity::Warning;
            f.message
                .push_str("; a minor update is requested and not accepted yet");
        }
        f.evidence
            .push(cond_evidence(cx, co, &co.metadata.name, i, c, "message"));
        f.at = c.last_transition_time;
        f.details.insert("reason", c.reason.clone());
        out.push(f);
    }
}
