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
        let why: Vec<&str> = t.candidate.why.iter().map(|w| why_text(*w)).collect();
        let _ = writeln!(
            s,
            "\n{} -> {} ({})",
            t.candidate.from,
            t.candidate.version,
            why.join(", ")
        );
        if t.blocked {
            s.push_str("  blocked: the update is removed from the graph for every cluster\n");
        }
        if t.risks.is_empty() {
            s.push_str("  no published risk on this edge\n");
        }
        for verdict in [Verdict::Applies, Verdict::Unknown, Verdict::DoesNotApply] {
            for r in t.risks.iter().filter(|r| r.judged.verdict == verdict) {
                let _ = writeln!(s, "  {:<15} {}", verdict.as_str(), r.name);
                if let Some(c) = r.cvo {
                    if c.disagrees {
                        let _ = writeln!(
                            s,
                            "      DISAGREES with the CVO, which says {}",
                            c.verdict.as_str()
                        );
                    } else {
                        let _ = writeln!(s, "      the CVO says {}", c.verdict.as_str());
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
                        "      cannot be evaluated offline: the dump does not give {}",
                        m.join(", ")
                    );
                } else if let Some(reason) = &r.judged.reason {
                    let _ = writeln!(s, "      cannot be evaluated: {reason}");
                }
                let msg = r.message.split_whitespace().collect::<Vec<_>>().join(" ");
                let _ = writeln!(s, "      {msg}");
                if !r.url.is_empty() {
                    let _ = writeln!(s, "      {}", r.url);
                }
                for ev in &r.judged.evidence {
                    let _ = writeln!(s, "      evidence: {ev}");
                }
            }
        }
    }
    s
}
