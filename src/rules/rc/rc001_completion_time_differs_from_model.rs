//! RC001 `completion-time-differs-from-model`: a Completed history entry's completionTime is
//! not what a correct CVO (fixed flavour, history fix on) would have written, given when the
//! release really completed by other evidence (Available's transition, the CVO log, CI).

use super::{replay_evidence, status_evidence};
use crate::model::fmt_k8s;
use crate::reconciler::replay::{HistoryField, StatusField, Variant};
use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::rules::util::cv_ref;

declare_rule! {
    CompletionTimeDiffersFromModel: "RC001" "completion-time-differs-from-model" {
        severity: Warning,
        family: Reconciler,
        summary: "a history completionTime differs from what a correct CVO would have written",
        needs: &[&[Input::ClusterVersion]],
        facts: &[Fact::Replay],
        help: "take the completion from the evidence named here, not from the history entry",
        references: &[
                "https://bugzilla.redhat.com/show_bug.cgi?id=1756461",
                "https://github.com/openshift/cluster-version-operator/pull/247",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let Some(r) = cx.replay() else { return };
    let correct = Variant::ALL[0];
    let Some(run) = r.run_of(correct) else { return };
    for d in run.core() {
        let StatusField::History(i, HistoryField::CompletionTime) = d.field else {
            continue;
        };
        let Some(h) = cv.status.history.get(i).filter(|h| h.is_completed()) else {
            continue;
        };
        let Some(inf) = r.derived.inferences.iter().find(|inf| inf.field == d.field) else {
            continue;
        };
        let (Some(dump), Some(model)) = (&d.dump, &d.model) else {
            continue;
        };
        let verdict = r.verdict().map(|v| v.summary.clone()).unwrap_or_default();
        let msg = format!(
            "history[{i}] (`{}`, Completed) says it completed at {dump}; a correct CVO (history fix on) would have written {model} ({}); the dump is {verdict}",
            h.label(),
            inf.basis
        );
        let mut f = cx.finding(&META, cv_ref(cv), msg);
        f.at = Some(inf.value);
        f.evidence
            .push(status_evidence(cx, cv, &d.field, dump).with_label("completion as written"));
        for ev in &inf.evidence {
            f.evidence
                .push(replay_evidence(cx, cv, ev).with_label("when it really completed"));
        }
        if let Some(s) = i.checked_sub(1).and_then(|j| cv.status.history.get(j)) {
            let started = s.started_time.map(|t| fmt_k8s(&t)).unwrap_or_default();
            let field = StatusField::History(i - 1, HistoryField::StartedTime);
            f.evidence.push(
                status_evidence(cx, cv, &field, &started)
                    .with_label("the next update started then"),
            );
        }
        f.confidence = Some(Confidence {
            level: ConfidenceLevel::High,
            basis: vec!["reference-model".into(), inf.basis.clone()],
        });
        f.details.insert("entry", h.label().to_string());
        f.details.insert("written", Detail::field_value(dump));
        f.details.insert("model", Detail::field_value(model));
        f.details.insert("verdict", verdict);
        out.push(f);
    }
}
