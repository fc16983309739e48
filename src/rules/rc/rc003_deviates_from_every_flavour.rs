//! RC003 `deviates-from-every-flavour`: ClusterVersion fields that no modelled CVO (fixed or
//! legacy, history fix on or off, any CVO generation) would have written, given what the dump
//! and its logs show. One finding per ClusterVersion, its deviations in field order. It is a
//! warning only when evidence besides the object backs a deviation (a CVO log that dates the
//! status sync, or that runs up to the dump); from the object alone it is info, low
//! confidence: a hand-assembled or edited object, or a dump without its CVO log, looks the same.

use super::{replay_evidence, status_evidence};
use crate::reconciler::replay::{Basis, Comparison, Deviation, StatusField, VariantRun};
use crate::rules::engine::{Context, Fact, Input};
use crate::rules::model::*;
use crate::rules::util::cv_ref;
use std::collections::HashMap;

declare_rule! {
    DeviatesFromEveryFlavour: "RC003" "deviates-from-every-flavour" {
        severity: Warning,
        family: Reconciler,
        summary: "ClusterVersion fields that no modelled CVO would have written",
        needs: &[&[Input::ClusterVersion]],
        facts: &[Fact::Replay],
        help: "check the listed fields against the CVO log; if it agrees with the model, find who else wrote the status (a restore, a script, a hand edit)",
        references: &[
                "https://github.com/openshift/cluster-version-operator/blob/master/pkg/cvo/status.go",
            ],
    }
}

/// The deviations in the message; the rest are in the evidence and details.
const IN_MESSAGE: usize = 3;
/// The deviations given evidence of their own.
const WITH_EVIDENCE: usize = 20;

fn shown(v: &Option<String>) -> String {
    match v {
        None => "nothing".to_string(),
        Some(s) if s.is_empty() => "\"\"".to_string(),
        Some(s) => format!("`{}`", one_line(s, 200)),
    }
}

/// One field every run deviates on, with what each modelled CVO gives.
struct Unexplained<'a> {
    deviation: &'a Deviation,
    models: Vec<String>,
}

/// Every run the replay made: the four settings and each generation's.
fn all_runs(c: &Comparison) -> impl Iterator<Item = &VariantRun> {
    c.runs
        .iter()
        .chain(c.generations.iter().flat_map(|g| g.runs.iter()))
}

/// The fields where every run deviates from the same dump value, in field order. Each run's
/// deviations are indexed once, so a long history is linear, not one scan per field and run.
fn unexplained(c: &Comparison) -> Vec<Unexplained<'_>> {
    let Some(first) = c.runs.first() else {
        return Vec::new();
    };
    let index: Vec<HashMap<(&StatusField, &Option<String>), &Deviation>> = all_runs(c)
        .map(|run| {
            let mut m = HashMap::new();
            for d in run.core() {
                m.entry((&d.field, &d.dump)).or_insert(d);
            }
            m
        })
        .collect();
    let mut out: Vec<Unexplained<'_>> = first
        .core()
        .filter_map(|d| {
            let mut models: Vec<String> = Vec::new();
            for run in &index {
                let o = run.get(&(&d.field, &d.dump))?;
                let m = shown(&o.model);
                if !models.contains(&m) {
                    models.push(m);
                }
            }
            Some(Unexplained {
                deviation: d,
                models,
            })
        })
        .collect();
    out.sort_by(|a, b| a.deviation.field.cmp(&b.deviation.field));
    out
}

fn describe(u: &Unexplained<'_>, basis: &Basis<'_>) -> String {
    let d = u.deviation;
    let mut s = format!(
        "`{}` is {}, the model gives {}",
        d.field,
        shown(&d.dump),
        u.models.join(" or ")
    );
    if let Basis::StatusSync(t) = basis {
        s.push_str(&format!(" ({})", t.basis()));
    }
    s
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let Some(cv) = cx.bundle.cluster_version() else {
        return;
    };
    let Some(r) = cx.replay() else { return };
    let Some(c) = r.comparison.as_ref() else {
        return;
    };
    if !c.verdict.consistent.is_empty() || !c.verdict.generations.is_empty() {
        return;
    }
    let found = unexplained(c);
    if found.is_empty() {
        return;
    }
    let bases: Vec<Basis<'_>> = found.iter().map(|u| r.basis_of(u.deviation)).collect();
    let corroborated = bases.iter().any(Basis::corroborated);
    let n = found.len();
    let mut listed: Vec<String> = found
        .iter()
        .zip(&bases)
        .take(IN_MESSAGE)
        .map(|(u, b)| describe(u, b))
        .collect();
    if n > IN_MESSAGE {
        listed.push(format!("and {} more", n - IN_MESSAGE));
    }
    let evidence_text = match (corroborated, r.live_log_until(), r.derived.log_until) {
        (true, _, _) => "the CVO log backs this".to_string(),
        (false, _, Some(_)) => {
            "from the ClusterVersion alone (the CVO log does not reach these writes); a hand-assembled or edited object looks the same".to_string()
        }
        (false, _, None) => {
            "from the ClusterVersion alone (no CVO log); a hand-assembled or edited object looks the same".to_string()
        }
    };
    let msg = format!(
        "{n} field{} no modelled CVO writes here (fixed or legacy, history fix on or off, every CVO generation): {}; {evidence_text}",
        if n == 1 { "" } else { "s" },
        listed.join("; ")
    );
    let mut f = cx.finding(&META, cv_ref(cv), msg);
    for (u, b) in found.iter().zip(&bases).take(WITH_EVIDENCE) {
        let d = u.deviation;
        let fallback = d.dump.as_deref().unwrap_or("");
        f.evidence.push(
            status_evidence(cx, cv, &d.field, fallback).with_label(format!(
                "`{}`: the model gives {}",
                d.field,
                u.models.join(" or ")
            )),
        );
        if let Basis::StatusSync(t) = b {
            for ev in &t.evidence {
                f.evidence
                    .push(replay_evidence(cx, cv, ev).with_label("the pass that completed it"));
            }
            if let crate::reconciler::replay::CompletionWrite::Logged { evidence, .. } = &t.write {
                f.evidence.push(
                    replay_evidence(cx, cv, evidence)
                        .with_label("the status sync that recorded it"),
                );
            }
        }
    }
    let mut basis = vec!["reference-model".to_string()];
    for b in &bases {
        let l = b.label().to_string();
        if !basis.contains(&l) {
            basis.push(l);
        }
    }
    let logged = bases.iter().any(|b| matches!(b, Basis::StatusSync(_)));
    f.confidence = Some(Confidence {
        level: match (logged, corroborated) {
            (true, _) => ConfidenceLevel::High,
            (false, true) => ConfidenceLevel::Medium,
            (false, false) => ConfidenceLevel::Low,
        },
        basis,
    });
    if !corroborated {
        f.severity = Severity::Info;
        if r.derived.log_until.is_none() {
            f.help = "attach the CVO log (the cluster-version-operator pod's logs, under `namespaces/openshift-cluster-version/pods/`) so the replay can date the status syncs; without it, check who else wrote the status (a restore, a script, a hand edit)".into();
        }
    }
    f.details.insert("count", n);
    f.details.insert(
        "fields",
        found
            .iter()
            .map(|u| u.deviation.field.to_string())
            .collect::<Vec<_>>(),
    );
    f.details.insert(
        "deviations",
        found
            .iter()
            .zip(&bases)
            .map(|(u, b)| describe(u, b))
            .collect::<Vec<_>>(),
    );
    f.details.insert("verdict", c.verdict.summary.clone());
    out.push(f);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ClusterVersion;
    use crate::reconciler::replay::{HistoryField, StatusField, Variant, Verdict};

    fn dev(field: StatusField, dump: &str, model: &str) -> Deviation {
        Deviation {
            field,
            dump: Some(dump.into()),
            model: Some(model.into()),
            timing: false,
        }
    }

    fn run(variant: Variant, deviations: Vec<Deviation>) -> VariantRun {
        VariantRun {
            variant,
            cvo_version: None,
            compared: 30,
            unknown: 0,
            deviations,
            cluster_version: ClusterVersion::default(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn only_fields_every_run_deviates_on_in_numeric_history_order() {
        let h = |i| StatusField::History(i, HistoryField::State);
        // The fixed run lists history[10] first, as the comparison walks from the oldest entry.
        let fixed = run(
            Variant::ALL[0],
            vec![
                dev(h(10), "Partial", "Completed"),
                dev(h(2), "Partial", "Completed"),
                dev(StatusField::ObservedGeneration, "3", "4"),
            ],
        );
        // Another setting writes observedGeneration as the dump has it, and history[2] the same
        // way differently: still unexplained, with both model values.
        let legacy = run(
            Variant::ALL[2],
            vec![
                dev(h(2), "Partial", "Failed"),
                dev(h(10), "Partial", "Completed"),
            ],
        );
        let c = Comparison {
            runs: vec![fixed, legacy],
            generations: Vec::new(),
            verdict: Verdict {
                consistent: Vec::new(),
                flavour: None,
                history_fix: None,
                closest: Variant::ALL[0],
                generations: Vec::new(),
                summary: String::new(),
            },
        };
        let found = unexplained(&c);
        let fields: Vec<String> = found
            .iter()
            .map(|u| u.deviation.field.to_string())
            .collect();
        assert_eq!(fields, ["history[2].state", "history[10].state"]);
        assert_eq!(found[0].models, ["`Completed`", "`Failed`"]);
        assert_eq!(
            describe(&found[0], &Basis::Object),
            "`history[2].state` is `Partial`, the model gives `Completed` or `Failed`"
        );
    }
}
