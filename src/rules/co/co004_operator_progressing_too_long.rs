//! CO004 `operator-progressing-too-long`: a ClusterOperator has been Progressing=True for more
//! than 20 minutes (90 for machine-config, which rolls nodes), measured to the collection time.

use super::update_context;
use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::rules::util::{co_ref, cond, cond_evidence, duration};
use chrono::Duration;

declare_rule! {
    OperatorProgressingTooLong: "CO004" "operator-progressing-too-long" {
        severity: Info,
        family: ClusterOperator,
        summary: "a ClusterOperator has been Progressing for more than 20 minutes (90 for machine-config)",
        needs: &[&[Input::ClusterOperators]],
        facts: &[Fact::UpdateHealth],
        help: "look at what the operator waits for (its Progressing message, its operands' rollout, for machine-config the pools and nodes)",
        references: &[
                "https://github.com/openshift/api/blob/master/config/v1/types_cluster_operator.go",
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status.go",
            ],
    }
}

fn limit(name: &str) -> Duration {
    if name == "machine-config" {
        Duration::minutes(90)
    } else {
        Duration::minutes(20)
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    // The same "now" as oc's assessment; oc raises no Update Health insight for a slow
    // operator (it says "Progressing - Slow" of the control plane), so this is information.
    let Some(now) = cx.update_health().map(|a| a.now.time).or_else(|| cx.now()) else {
        return;
    };
    let ctx = update_context(cx);
    for co in cx.bundle.cluster_operators() {
        let Some((i, c)) = cond(&co.status.conditions, "Progressing").filter(|(_, c)| c.is_true())
        else {
            continue;
        };
        let Some(since) = c.last_transition_time else {
            continue;
        };
        let lim = limit(&co.metadata.name);
        if now - since <= lim {
            continue;
        }
        let mut f = cx.finding(
            &META,
            co_ref(co),
            format!(
                "`{}` has been Progressing for {} (since {}, limit {}){ctx}: {}",
                co.metadata.name,
                duration(since, now),
                fmt_short(&since),
                crate::timeline::human_duration(lim),
                one_line(&c.message, 200)
            ),
        );
        f.evidence
            .push(cond_evidence(cx, co, &co.metadata.name, i, c, "message"));
        f.at = Some(since);
        f.details
            .insert("progressing_for_seconds", Detail::seconds(since, now));
        out.push(f);
    }
}
