//! LOG002 `sync-failing-repeatedly`: consecutive CVO sync passes for the same release ended
//! with the same error (`Result of work` with errors): three while Reconciling, five while
//! Updating. Install passes (Initializing) are left out: operators failing while they come
//! up for the first time is normal.

use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::timeline::Pass;

declare_rule! {
    SyncFailingRepeatedly: "LOG002" "sync-failing-repeatedly" {
        severity: Warning,
        family: CvoLog,
        summary: "consecutive CVO sync passes failed with the same error",
        needs: &[&[Input::CvoLog]],
        help: "fix the manifest or operator named in the error; the CVO retries it on every pass",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/sync_worker.go",
            ],
    }
}

/// Runs at least this long are reported (Reconciling, Updating).
const MIN_RUN_RECONCILING: usize = 3;
const MIN_RUN_UPDATING: usize = 5;

fn first_error(p: &Pass) -> Option<&str> {
    (p.ok == Some(false) && p.state != "Initializing")
        .then(|| p.errors.first().map_or("", String::as_str))
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let passes = cx.timeline.passes();
    let mut i = 0;
    while i < passes.len() {
        let Some(err) = first_error(&passes[i]) else {
            i += 1;
            continue;
        };
        let mut j = i;
        while j + 1 < passes.len()
            && first_error(&passes[j + 1]) == Some(err)
            && passes[j + 1].target == passes[i].target
            && passes[j + 1].pod == passes[i].pod
            && passes[j + 1].state == passes[i].state
        {
            j += 1;
        }
        let run = &passes[i..=j];
        let min = if passes[i].state == "Reconciling" {
            MIN_RUN_RECONCILING
        } else {
            MIN_RUN_UPDATING
        };
        if run.len() >= min {
            let (a, b) = (&run[0], &run[run.len() - 1]);
            let mut f = cx.finding(
                &META,
                ObjectRef::new("Pod", &cx.bundle.cvo_namespace(), &a.pod),
                format!(
                    "{} consecutive sync passes of `{}` ({}) failed from {} to {}: {}",
                    run.len(),
                    a.target,
                    a.state,
                    fmt_short(&a.start),
                    fmt_short(&b.start),
                    one_line(err, 240)
                ),
            );
            for p in [a, b] {
                if let Some(e) = p.evidence.last() {
                    f.evidence.push(cx.from_timeline(e));
                }
            }
            f.at = Some(a.start);
            f.details.insert("passes", run.len());
            out.push(f);
        }
        i = j + 1;
    }
}
