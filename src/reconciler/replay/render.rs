//! What `mglint replay` prints: the verdict, each setting's deviations from the dump, and the
//! derivation notes (text); the same as versioned JSON (`mglint/replay/v1`); and the
//! derived scenario as YAML with its notes as comments.

use super::{Deviation, ReplayResult, Variant};
use crate::model::fmt_k8s;
use serde_json::{Value, json};

/// The human report.
pub fn render_text(r: &ReplayResult) -> String {
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
        s.push_str(&comment(&format!("Verdict: {}", v.summary)));
    }
    for n in &r.derived.notes {
        s.push_str(&comment(n));
    }
    s.push_str(&body);
    Ok(s)
}

/// `text` as YAML comment lines. Text from the dump (condition reasons in `seen:` notes) may
/// hold characters YAML reads as line breaks (CR, NEL, U+2028, U+2029) or rejects (ESC and
/// other controls): those are written escaped (`\r`, `\u{85}`), so a comment can neither end
/// early and turn the rest into scenario keys nor make the file unreadable.
pub fn comment(text: &str) -> String {
    let mut out = String::new();
    for line in text.split('\n') {
        out.push_str("# ");
        for c in line.chars() {
            match c {
                '\r' => out.push_str("\\r"),
                '\t' => out.push(' '),
                c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                    out.push_str(&format!("\\u{{{:x}}}", c as u32));
                }
                c => out.push(c),
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod comment_tests {
    use super::comment;

    #[test]
    fn hostile_text_stays_inside_its_comment() {
        for hostile in [
            "seen: `Bad\rmax_history: 1\r#` at 3 of 5",
            "a\u{85}max_history: 1",
            "a\u{2028}max_history: 1\u{2029}b",
            "\u{1b}]0;title\u{7}\u{1b}[2J",
            "two\nlines: 1",
        ] {
            let yaml = format!("{}flavour: legacy\n", comment(hostile));
            let v: serde_json::Value =
                crate::yaml::from_str(&yaml).unwrap_or_else(|e| panic!("{hostile:?}: {e}\n{yaml}"));
            assert_eq!(
                v,
                serde_json::json!({"flavour": "legacy"}),
                "{hostile:?}\n{yaml}"
            );
        }
        assert_eq!(comment("a\rb"), "# a\\rb\n");
    }
}
