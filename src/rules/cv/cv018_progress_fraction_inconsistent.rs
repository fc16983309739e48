//! CV018 `progress-fraction-inconsistent`: `Working towards X: N of M done (P% complete)`
//! requires N ≤ M and P = floor(100·N/M) (4.7+ wording).

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cond, cond_evidence, cv_ref};

declare_rule! {
    ProgressFractionInconsistent: "CV018" "progress-fraction-inconsistent" {
        severity: Info,
        family: ClusterVersion,
        summary: "the `N of M done (P% complete)` progress text does not add up",
        needs: &[&[Input::ClusterVersion]],
        help: "do not estimate progress from this message; check who wrote the status",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status.go",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let Some((i, c)) = cond(&cv.status.conditions, "Progressing") else {
        return;
    };
    let Some(m) = crate::timeline::text::progress(&c.message).filter(|m| m.counted) else {
        return;
    };
    let (n, total, p) = (u64::from(m.done), u64::from(m.total), u64::from(m.percent));
    let want = (100 * n).checked_div(total);
    let problem = if n > total {
        format!("{n} of {total} done: more manifests done than exist")
    } else if want != Some(p) {
        format!(
            "{n} of {total} done is {}% but the message says {p}%",
            want.unwrap_or(0)
        )
    } else {
        return;
    };
    let mut f = cx.finding(
        &META,
        cv_ref(cv),
        format!("Progressing progress text does not add up: {problem}"),
    );
    f.evidence
        .push(cond_evidence(cx, cv, &cv.metadata.name, i, c, "message"));
    f.at = c.last_transition_time;
    out.push(f);
}
