//! RC003 `deviates-from-every-flavour`: a ClusterVersion field that no modelled CVO (fixed or
//! legacy, history fix on or off) would have written, given what the dump and its logs show.

use super::status_evidence;
use crate::reconciler::replay::Deviation;
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::cv_ref;

declare_rule! {
    DeviatesFromEveryFlavour: "RC003" "deviates-from-every-flavour" {
        severity: Warning,
        family: Reconciler,
        summary: "a ClusterVersion field that no modelled CVO would have written",
        needs: &[&[Input::ClusterVersion]],
        help: "find who else wrote the ClusterVersion status (a restore, a script, a hand edit) or attach the CVO log so the replay sees more",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status.go",
            ],
    }
}

fn shown(v: &Option<String>) -> String {
    match v {
        None => "nothing".to_string(),
        Some(s) if s.is_empty() => "\"\"".to_string(),
        Some(s) => format!("`{}`", one_line(s, 200)),
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let r = cx.replay();
    let Some(c) = r
        .comparison
        .as_ref()
        .filter(|c| c.verdict.consistent.is_empty())
    else {
        return;
    };
    let Some(first) = c.runs.first() else { return };
    for d in first.core() {
        let all: Vec<(&str, &Deviation)> = c
            .runs
            .iter()
            .filter_map(|run| {
                run.core()
                    .find(|o| o.field == d.field && o.dump == d.dump)
                    .map(|o| (run.variant.writer(), o))
            })
            .collect();
        if all.len() != c.runs.len() {
            continue;
        }
        let mut models: Vec<String> = Vec::new();
        for (_, o) in &all {
            let m = shown(&o.model);
            if !models.contains(&m) {
                models.push(m);
            }
        }
        let msg = format!(
            "`{}` is {} in the dump, which no modelled CVO writes here (fixed or legacy, history fix on or off): the model gives {}; {}",
            d.field,
            shown(&d.dump),
            models.join(" or "),
            c.verdict.summary
        );
        let mut f = cx.finding(&META, cv_ref(cv), msg);
        let fallback = d.dump.as_deref().unwrap_or("");
        f.evidence.push(
            status_evidence(cx, cv, &d.field, fallback).with_label("no modelled CVO writes this"),
        );
        f.confidence = Some(Confidence {
            level: ConfidenceLevel::Medium,
            basis: vec!["reference-model".into()],
        });
        f.details.insert("field", d.field.to_string());
        f.details.insert(
            "dump",
            Detail::field_value(d.dump.as_deref().unwrap_or_default()),
        );
        f.details.insert(
            "model",
            Detail::field_value(d.model.as_deref().unwrap_or_default()),
        );
        out.push(f);
    }
}
