//! What `mglint replay` prints: the verdict, each setting's deviations from the dump, and the
//! derivation notes (text); the same as versioned JSON (`mglint/replay/v1`); and the
//! derived scenario as YAML with its notes as comments.

use super::{Deviation, ReplayResult, Variant};
use crate::model::fmt_k8s;
use serde_json::{Value, json};

/// The human report.
pub fn render_text(r: &ReplayResult) -> String {
    // Text from the input reaches a terminal: its control characters are shown escaped.
    crate::vocab::text::show_controls(&render_text_unescaped(r)).into_owned()
}

fn render_text_unescaped(r: &ReplayResult) -> String {
    let mut s = String::new();
    let inputs = if r.inputs.is_empty() {
        "the inputs".to_string()
    } else {
        r.inputs.join(", ")
    };
    s.push_str(&format!("replay of {inputs}\n"));
    match &r.comparison {
        None => s.push_str("verdict: no ClusterVersion to compare with\n"),
        Some(c) => {
            s.push_str(&format!("verdict: {}\n", c.verdict.summary));
            for run in &c.runs {
                let core: Vec<&Deviation> = run.core().collect();
                let timing = run.deviations.len() - core.len();
                let modelled = run
                    .cvo_version
                    .as_deref()
                    .map(|v| format!(", modelled as CVO {v}"))
                    .unwrap_or_default();
                let head = match core.len() {
                    0 => "consistent".to_string(),
                    1 => "1 deviation".to_string(),
                    n => format!("{n} deviations"),
                };
                s.push_str(&format!("\n{} ({head}{modelled})\n", run.variant.label()));
                for d in &core {
                    s.push_str(&format!("  {}\n", d.describe(&run.variant)));
                }
                if timing > 0 {
                    s.push_str(&format!(
                        "  ({timing} condition transition time(s) differ; not used for the verdict)\n"
                    ));
                }
            }
        }
    }
    let sc = &r.derived.scenario;
    s.push_str(&format!(
        "\nderived scenario: {} events from {} (write it with -o, re-run it with `mglint reconcile`)\n",
        sc.events.len(),
        match (sc.events.first(), sc.events.last()) {
            (Some(a), Some(b)) => format!("{} to {}", fmt_k8s(&a.at), fmt_k8s(&b.at)),
            _ => "nothing".to_string(),
        }
    ));
    for n in &r.derived.notes {
        s.push_str(&format!("  {n}\n"));
    }
    s
}

fn variant_json(v: &Variant) -> Value {
    json!({"flavour": v.flavour.as_str(), "history_fix": v.history_fix})
}

/// The `mglint/replay/v1` replay report.
pub fn render_json(r: &ReplayResult) -> String {
    let verdict = r.comparison.as_ref().map(|c| {
        let v = &c.verdict;
        json!({
            "summary": v.summary,
            "consistent": v.consistent.iter().map(variant_json).collect::<Vec<_>>(),
            "flavour": v.flavour.map(|f| f.as_str()),
            "history_fix": v.history_fix,
            "closest": variant_json(&v.closest),
        })
    });
    let runs: Vec<Value> = r
        .comparison
        .iter()
        .flat_map(|c| c.runs.iter())
        .map(|run| {
            let devs: Vec<Value> = run
                .deviations
                .iter()
                .map(|d| {
                    json!({
                        "field": d.field,
                        "dump": d.dump,
                        "model": d.model,
                        "timing": d.timing,
                        "message": d.describe(&run.variant),
                    })
                })
                .collect();
            json!({
                "flavour": run.variant.flavour.as_str(),
                "history_fix": run.variant.history_fix,
                "cvo_version": run.cvo_version,
                "consistent": run.consistent(),
                "deviations": devs,
            })
        })
        .collect();
    let doc = json!({
        "schema": crate::vocab::schema::REPLAY,
        "kind": "replay",
        "inputs": r.inputs,
        "verdict": verdict,
        "runs": runs,
        "scenario": {
            "events": r.derived.scenario.events.len(),
            "flavour": r.derived.scenario.flavour.as_str(),
            "history_fix": r.derived.scenario.history_fix,
            "cvo_version": r.derived.scenario.cvo_version,
        },
        "notes": r.derived.notes,
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

/// The derived scenario as YAML, its notes and the verdict as leading comments.
pub fn scenario_yaml(r: &ReplayResult) -> Result<String, crate::reconciler::ScenarioError> {
    let body = r.derived.scenario.to_yaml()?;
    let mut s = String::from(
        "# Derived by `mglint replay`; edit it and re-run it with `mglint reconcile`\n",
    );
    s.push_str("# (for example `--flavour fixed`: what a fixed CVO would have done here).\n");
    if let Some(v) = r.verdict() {
        s.push_str(&format!("# Verdict: {}\n", v.summary));
    }
    for n in &r.derived.notes {
        for line in n.lines() {
            s.push_str(&format!("# {line}\n"));
        }
    }
    s.push_str(&body);
    Ok(s)
}
