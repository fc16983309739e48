//! What `mglint risks` shows: the evaluation of one cluster as the versioned
//! `mglint/risks/v1` JSON document (docs/schemas/risks.schema.json) and as text.

use super::catalogue::Catalogue;
use super::verdict::{Evaluation, RiskOutcome, TargetOutcome, Verdict, Why};
use crate::bundle::ClusterIdentity;
use crate::vocab::text::JsonLayout;
use serde::Serialize;
use std::fmt::Write;

/// The schema id of the document.
pub const SCHEMA: &str = crate::vocab::schema::RISKS;

#[derive(Serialize)]
struct Doc<'a> {
    schema: &'static str,
    cluster: &'a ClusterIdentity,
    catalogue: CatalogueDoc<'a>,
    running: Option<&'a str>,
    /// The metrics the dump gives (every other one is missing).
    derived: Vec<&'a str>,
    targets: Vec<TargetDoc<'a>>,
}

#[derive(Serialize)]
struct CatalogueDoc<'a> {
    source: &'a str,
    commit: &'a str,
    risks: usize,
    edges: usize,
}

#[derive(Serialize)]
struct TargetDoc<'a> {
    version: &'a str,
    from: &'a str,
    why: &'a [Why],
    blocked: bool,
    risks: Vec<RiskDoc<'a>>,
}

#[derive(Serialize)]
struct RiskDoc<'a> {
    name: &'a str,
    verdict: Verdict,
    url: &'a str,
    message: &'a str,
    missing: &'a [String],
    evidence: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cvo: Option<CvoDoc>,
}

#[derive(Serialize)]
struct CvoDoc {
    verdict: Verdict,
    /// Whether mglint's verdict is the CVO's; absent when either is unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    agrees: Option<bool>,
}

fn risk_doc(r: &RiskOutcome) -> RiskDoc<'_> {
    RiskDoc {
        name: &r.name,
        verdict: r.judged.verdict,
        url: &r.url,
        message: &r.message,
        missing: &r.judged.missing,
        evidence: &r.judged.evidence,
        reason: r.judged.reason.as_deref(),
        cvo: r.cvo.map(|c| CvoDoc {
            verdict: c.verdict,
            agrees: (c.verdict != Verdict::Unknown && r.judged.verdict != Verdict::Unknown)
                .then_some(!c.disagrees),
        }),
    }
}

fn target_doc(t: &TargetOutcome) -> TargetDoc<'_> {
    TargetDoc {
        version: &t.candidate.version,
        from: &t.candidate.from,
        why: &t.candidate.why,
        blocked: t.blocked,
        risks: t.risks.iter().map(risk_doc).collect(),
    }
}

/// The `mglint/risks/v1` document.
pub fn render_json(
    cluster: &ClusterIdentity,
    cat: &Catalogue,
    derived: &[&str],
    e: &Evaluation,
    layout: JsonLayout,
) -> String {
    let doc = Doc {
        schema: SCHEMA,
        cluster,
        catalogue: CatalogueDoc {
            source: &cat.source,
            commit: &cat.commit,
            risks: cat.risks.len(),
            edges: cat.edges.len(),
        },
        running: e.running.as_deref(),
        derived: derived.to_vec(),
        targets: e.targets.iter().map(target_doc).collect(),
    };
    layout.document(&doc)
}

fn why_text(w: Why) -> &'static str {
    match w {
        Why::Taken => "taken",
        Why::Requested => "requested",
        Why::Offered => "offered",
        Why::Conditional => "conditional",
        Why::Asked => "asked",
    }
}

/// The text view: per target, the risks that apply, then those that cannot be evaluated,
/// then those that do not apply.
pub fn render_text(cat: &Catalogue, e: &Evaluation) -> String {
    let mut s = String::new();
    let commit: String = cat.commit.chars().take(12).collect();
    let _ = writeln!(
        s,
        "Published update risks: {} risks on {} edges (cincinnati-graph-data {})",
        cat.risks.len(),
        cat.edges.len(),
        if commit.is_empty() {
            "at an unknown commit"
        } else {
            &commit
        }
    );
    let _ = writeln!(
        s,
        "Running version: {}",
        e.running.as_deref().unwrap_or("unknown")
    );
    if e.targets.is_empty() {
        s.push_str("\nNo candidate update: the dump names none (give one with --to)\n");
    }
    for t in &e.targets {
        target_block(&mut s, t, "");
    }
    s
}

/// The section `recommend --published-risks` adds after oc's output: the verdicts for the
/// targets it shows (`versions`), in its order; nothing of oc's is changed.
pub fn render_recommend_section(cat: &Catalogue, e: &Evaluation, versions: &[String]) -> String {
    let mut s = String::new();
    let commit: String = cat.commit.chars().take(12).collect();
    let _ = writeln!(
        s,
        "\nPublished update risks (mglint, not oc: cincinnati-graph-data {}, judged offline from the dump):",
        if commit.is_empty() {
            "at an unknown commit"
        } else {
            &commit
        }
    );
    let mut any = false;
    for v in versions {
        for t in e.targets.iter().filter(|t| &t.candidate.version == v) {
            if t.candidate.why.contains(&Why::Taken) && t.candidate.why.len() == 1 {
                continue;
            }
            any = true;
            target_block(&mut s, t, "  ");
        }
    }
    if !any {
        s.push_str("\n  no update shown to judge\n");
    }
    s
}

/// [`render_recommend_section`] for a Markdown document: a heading and the text in a fence
/// longer than any backtick run in it, controls shown.
pub fn recommend_section_markdown(text: &str) -> String {
    let text = crate::vocab::escape::show_controls(text.trim_start_matches('\n'));
    let fence = "`".repeat(crate::vocab::escape::longest_backtick_run(&text).max(2) + 1);
    format!("\n## Published update risks (mglint, not oc)\n\n{fence}text\n{text}{fence}\n")
}

/// One target's block: its edge, then the risks that apply, cannot be evaluated and do not
/// apply, each line led by `indent`.
fn target_block(s: &mut String, t: &TargetOutcome, indent: &str) {
    {
        let why: Vec<&str> = t.candidate.why.iter().map(|w| why_text(*w)).collect();
        let _ = writeln!(
            s,
            "\n{indent}{} -> {} ({})",
            t.candidate.from,
            t.candidate.version,
            why.join(", ")
        );
        if t.blocked {
            s.push_str(&format!(
                "{indent}  blocked: the update is removed from the graph for every cluster\n"
            ));
        }
        if t.risks.is_empty() {
            s.push_str(&format!("{indent}  no published risk on this edge\n"));
        }
        for verdict in [Verdict::Applies, Verdict::Unknown, Verdict::DoesNotApply] {
            for r in t.risks.iter().filter(|r| r.judged.verdict == verdict) {
                let _ = writeln!(s, "{indent}  {:<15} {}", verdict.as_str(), r.name);
                if let Some(c) = r.cvo {
                    if c.disagrees {
                        let _ = writeln!(
                            s,
                            "{indent}      DISAGREES with the CVO, which says {}",
                            c.verdict.as_str()
                        );
                    } else {
                        let _ = writeln!(s, "{indent}      the CVO says {}", c.verdict.as_str());
                    }
                }
                if verdict == Verdict::DoesNotApply {
                    continue;
                }
                if !r.judged.missing.is_empty() {
                    let m: Vec<String> =
                        r.judged.missing.iter().map(|m| format!("`{m}`")).collect();
                    let _ = writeln!(
                        s,
                        "{indent}      cannot be evaluated offline: the dump does not give {}",
                        m.join(", ")
                    );
                } else if let Some(reason) = &r.judged.reason {
                    let _ = writeln!(s, "{indent}      cannot be evaluated: {reason}");
                }
                let msg = r.message.split_whitespace().collect::<Vec<_>>().join(" ");
                let _ = writeln!(s, "{indent}      {msg}");
                if !r.url.is_empty() {
                    let _ = writeln!(s, "{indent}      {}", r.url);
                }
                for ev in &r.judged.evidence {
                    let _ = writeln!(s, "{indent}      evidence: {ev}");
                }
            }
        }
    }
}
