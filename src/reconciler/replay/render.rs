//! What `mglint replay` prints: the verdict, each setting's deviations from the dump, and the
//! derivation notes (text); the same as versioned JSON (`mglint/replay/v1`); and the
//! derived scenario as YAML with its notes as comments.

use super::{Deviation, ReplayResult, Variant, VariantRun};
use crate::model::fmt_k8s;
use crate::vocab::text::JsonLayout;
use serde_json::{Value, json};

/// The settings a generation was modelled with: `legacy, history fix off or on`.
fn settings(g: &super::GenerationRun) -> String {
    let mut flavours: Vec<&str> = Vec::new();
    let mut fixes: Vec<&str> = Vec::new();
    for r in &g.runs {
        let f = r.variant.flavour.as_str();
        let x = if r.variant.history_fix { "on" } else { "off" };
        if !flavours.contains(&f) {
            flavours.push(f);
        }
        if !fixes.contains(&x) {
            fixes.push(x);
        }
    }
    format!(
        "{}, history fix {}",
        flavours.join(" or "),
        fixes.join(" or ")
    )
}

/// `consistent` or `N deviations`.
fn head(run: &VariantRun) -> String {
    match run.core().count() {
        0 => "consistent".to_string(),
        1 => "1 deviation".to_string(),
        n => format!("{n} deviations"),
    }
}

/// A run's deviations, one a line, in field order (numeric history indexes), and how many
/// condition transition times differ.
fn deviations(s: &mut String, run: &VariantRun, indent: &str) {
    let mut core: Vec<&Deviation> = run.core().collect();
    core.sort_by(|a, b| a.field.cmp(&b.field));
    for d in &core {
        // One a line: a value from the dump (a multi-line message) shows its newlines `\x0a`.
        let line = d.describe(&run.variant);
        s.push_str(&format!(
            "{indent}{}\n",
            crate::vocab::escape::one_line(&line)
        ));
    }
    let timing = run.deviations.len() - core.len();
    if timing > 0 {
        s.push_str(&format!(
            "{indent}({timing} condition transition time(s) differ; not used for the verdict)\n"
        ));
    }
}

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
    s.push_str(&format!(
        "replay of {}\n",
        crate::vocab::escape::one_line(&inputs)
    ));
    if let Some(w) = &r.derived.writer {
        s.push_str(&format!("written by: CVO {} ({})\n", w.release, w.basis));
    }
    match &r.comparison {
        None => match &r.skipped {
            Some(why) => s.push_str(&format!("verdict: not replayed: {why}\n")),
            None => s.push_str("verdict: no ClusterVersion to compare with\n"),
        },
        Some(c) => {
            s.push_str(&format!("verdict: {}\n", c.verdict.summary));
            for run in &c.runs {
                let modelled = run
                    .cvo_version
                    .as_deref()
                    .map(|v| format!(", modelled as CVO {v}"))
                    .unwrap_or_default();
                s.push_str(&format!(
                    "\n{} ({}: {}{modelled})\n",
                    run.variant.label(),
                    head(run),
                    run.agreement()
                ));
                deviations(&mut s, run, "  ");
            }
            if !c.generations.is_empty() {
                s.push_str(
                    "\nCVO generations (could a CVO of this generation have written the dump?):\n",
                );
                for g in &c.generations {
                    let Some(best) = g.best() else { continue };
                    let settings = settings(g);
                    s.push_str(&format!(
                        "  {:<10} {}: {} ({settings}, as CVO {})\n",
                        g.generation.label,
                        if g.consistent() {
                            "consistent"
                        } else {
                            "deviates"
                        },
                        best.agreement(),
                        crate::reconciler::model::semantics::minor_label(g.minor)
                    ));
                    if !g.consistent() {
                        deviations(&mut s, best, "      ");
                    }
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
        s.push_str(&format!("  {}\n", crate::vocab::escape::one_line(n)));
    }
    s
}

fn variant_json(v: &Variant) -> Value {
    json!({"flavour": v.flavour.as_str(), "history_fix": v.history_fix})
}

/// The `mglint/replay/v1` replay report.
pub fn render_json(r: &ReplayResult, layout: JsonLayout) -> String {
    let verdict = r.comparison.as_ref().map(|c| {
        let v = &c.verdict;
        json!({
            "summary": v.summary,
            "consistent": v.consistent.iter().map(variant_json).collect::<Vec<_>>(),
            "flavour": v.flavour.map(|f| f.as_str()),
            "history_fix": v.history_fix,
            "closest": variant_json(&v.closest),
            "generations": v.generations,
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
                "fields": {"compared": run.compared, "agree": run.agree(), "unknown": run.unknown},
                "deviations": devs,
            })
        })
        .collect();
    let generations: Vec<Value> = r
        .comparison
        .iter()
        .flat_map(|c| c.generations.iter())
        .map(|g| {
            let best = g.best();
            json!({
                "generation": g.generation.label,
                "cvo_version": crate::reconciler::model::semantics::minor_label(g.minor),
                "consistent": g.consistent(),
                "settings": g.runs.iter().map(|r| variant_json(&r.variant)).collect::<Vec<_>>(),
                "best": best.map(|b| variant_json(&b.variant)),
                "fields": best.map(|b| json!({"compared": b.compared, "agree": b.agree(), "unknown": b.unknown})),
                "deviations": best.map(|b| b.core().map(|d| d.field.to_string()).collect::<Vec<_>>()).unwrap_or_default(),
            })
        })
        .collect();
    let mut doc = json!({
        "schema": crate::vocab::schema::REPLAY,
        "kind": "replay",
        "cluster": r.cluster,
        "inputs": r.inputs,
        "verdict": verdict,
        "runs": runs,
        "generations": generations,
        "writer": r.derived.writer.as_ref().map(|w| json!({"release": w.release, "cvo_version": crate::reconciler::model::semantics::minor_label(w.minor), "basis": w.basis})),
        "scenario": {
            "events": r.derived.scenario.events.len(),
            "flavour": r.derived.scenario.flavour.as_str(),
            "history_fix": r.derived.scenario.history_fix,
            "cvo_version": r.derived.scenario.cvo_version,
        },
        "notes": r.derived.notes,
    });
    if let Some(why) = &r.skipped {
        doc["skipped"] = json!(why);
    }
    layout.document(&doc)
}

/// The derived scenario as YAML, ready for `mglint reconcile`. Everything taken from the
/// dump (the verdict, the derivation notes with their condition reasons) goes into the
/// scenario's `description` and through the YAML serializer with the rest: only the two fixed
/// lines of the header are comments, so nothing in a dump can end a comment early and turn
/// into scenario keys (a CR, NEL or U+2028 is a line break to YAML).
pub fn scenario_yaml(r: &ReplayResult) -> Result<String, crate::reconciler::ScenarioError> {
    let mut notes: Vec<String> = Vec::new();
    if let Some(v) = r.verdict() {
        notes.push(format!("Verdict: {}", v.summary));
    }
    notes.extend(r.derived.notes.iter().cloned());
    scenario_document(&r.derived.scenario, &notes)
}

/// `scenario` with `notes` appended to its description, serialized, after the fixed header.
fn scenario_document(
    scenario: &crate::reconciler::Scenario,
    notes: &[String],
) -> Result<String, crate::reconciler::ScenarioError> {
    let mut s = scenario.clone();
    for n in notes {
        if !s.description.is_empty() {
            s.description.push('\n');
        }
        s.description.push_str(n);
    }
    let mut out = String::from(
        "# Derived by `mglint replay`; edit it and re-run it with `mglint reconcile`\n",
    );
    out.push_str("# (for example `--flavour fixed`: what a fixed CVO would have done here).\n");
    out.push_str(&s.to_yaml()?);
    Ok(out)
}

#[cfg(test)]
mod document_tests {
    use super::scenario_document;
    use crate::reconciler::{Scenario, load_scenario};

    #[test]
    fn hostile_notes_stay_in_the_description() {
        let base: Scenario = load_scenario(
            "flavour: legacy\noperator_release: {version: 4.3.11}\ninitial_generation: 1\ninitial_spec: {}\ninitial_status: {}\nevents: []\n",
        )
        .unwrap();
        for hostile in [
            "seen: `Bad\rmax_history: 1\r#` at 3 of 5",
            "a\u{85}max_history: 1",
            "a\u{2028}max_history: 1\u{2029}b",
            "\u{1b}]0;title\u{7}\u{1b}[2J",
            "two\nlines: 1\n# x\n---\nflavour: fixed",
            "'\"|>&*!%@` {}[]",
        ] {
            let notes = vec!["Verdict: legacy".to_string(), hostile.to_string()];
            let yaml = scenario_document(&base, &notes).unwrap();
            let back = load_scenario(&yaml).unwrap_or_else(|e| panic!("{hostile:?}: {e}\n{yaml}"));
            assert_eq!(
                back.description,
                format!("Verdict: legacy\n{hostile}"),
                "{hostile:?}\n{yaml}"
            );
            let mut same = back.clone();
            same.description.clear();
            assert_eq!(same, base, "{hostile:?}\n{yaml}");
        }
    }
}
