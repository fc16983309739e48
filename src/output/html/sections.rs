//! The page's text sections: findings (a summary table and one card per finding with its
//! evidence, fix, references and a link to the rule's page), episodes (with milestones) and
//! the rules (what was skipped and why, and each reported rule's page embedded in a
//! `<details>`).

use super::escape::{code_spans, esc};
use crate::rules::{ConfidenceLevel, Finding, Report};
use crate::timeline::{Episode, EpisodeKind, Timeline, fmt_short, human_duration};
use std::fmt::Write;

fn evidence(out: &mut String, f: &Finding) {
    out.push_str("<ul class=\"ev\">");
    for e in &f.evidence {
        let loc = match e.line {
            Some(l) => format!("{}:{l}", e.path),
            None => e.path.clone(),
        };
        let label = e
            .label
            .as_deref()
            .map(|l| format!(" <span class=\"muted\">({})</span>", esc(l)))
            .unwrap_or_default();
        let _ = write!(
            out,
            "<li><code class=\"path\">{}</code>{label}<br><code>{}</code></li>",
            esc(&loc),
            esc(&e.text)
        );
    }
    out.push_str("</ul>");
}

fn link(url: &str) -> String {
    if url.starts_with("https://") || url.starts_with("http://") {
        format!(
            "<a href=\"{}\" rel=\"noreferrer noopener\">{}</a>",
            esc(url),
            esc(url)
        )
    } else {
        esc(url)
    }
}

fn card(out: &mut String, n: usize, f: &Finding) {
    let sev = f.severity.as_str();
    let _ = write!(
        out,
        "<article class=\"finding sev-{sev}\" id=\"f-{n}\" data-code=\"{}\" data-severity=\"{sev}\"><h3><span class=\"sev sev-{sev}\">{sev}</span> <code>{}</code> {} <span class=\"muted\">on</span> <code>{}</code></h3><p class=\"msg\">{}</p><dl>",
        esc(f.code),
        esc(f.code),
        esc(f.name),
        esc(&f.object.display()),
        code_spans(&f.message)
    );
    if let Some(at) = f.at {
        let _ = write!(out, "<dt>When</dt><dd>{} UTC</dd>", esc(&fmt_short(&at)));
    }
    if let Some(c) = &f.confidence {
        let level = match c.level {
            ConfidenceLevel::Low => "low",
            ConfidenceLevel::Medium => "medium",
            ConfidenceLevel::High => "high",
        };
        let _ = write!(
            out,
            "<dt>Confidence</dt><dd>{level} ({})</dd>",
            esc(&c.basis.join(", "))
        );
    }
    if !f.help.is_empty() {
        let _ = write!(out, "<dt>Fix</dt><dd>{}</dd>", code_spans(&f.help));
    }
    if !f.evidence.is_empty() {
        out.push_str("<dt>Evidence</dt><dd>");
        evidence(out, f);
        out.push_str("</dd>");
    }
    if !f.details.is_empty() {
        let items: Vec<String> = f
            .details
            .iter()
            .map(|(k, v)| format!("{}: <code>{}</code>", esc(k), esc(&v.to_string())))
            .collect();
        let _ = write!(out, "<dt>Details</dt><dd>{}</dd>", items.join("; "));
    }
    if !f.references.is_empty() {
        let refs: Vec<String> = f.references.iter().map(|r| link(r)).collect();
        let _ = write!(out, "<dt>References</dt><dd>{}</dd>", refs.join("<br>"));
    }
    let _ = writeln!(
        out,
        "<dt>Rule</dt><dd><a href=\"#rule-{}\">what {} means and how to fix it</a></dd></dl></article>",
        esc(f.code),
        esc(f.code)
    );
}

pub fn findings(out: &mut String, report: &Report) {
    let _ = writeln!(
        out,
        "<section id=\"findings\"><h2>Findings <span class=\"muted\">({})</span></h2>",
        report.findings.len()
    );
    if report.findings.is_empty() {
        out.push_str("<p>No findings.</p></section>\n");
        return;
    }
    out.push_str("<table class=\"list\"><thead><tr><th>Severity</th><th>Code</th><th>Object</th><th>When (UTC)</th><th>Finding</th></tr></thead><tbody>\n");
    for (i, f) in report.findings.iter().enumerate() {
        let sev = f.severity.as_str();
        let _ = writeln!(
            out,
            "<tr><td><span class=\"sev sev-{sev}\">{sev}</span></td><td><a href=\"#f-{}\"><code>{}</code></a></td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            i + 1,
            esc(f.code),
            esc(&f.object.display()),
            f.at.map(|t| esc(&fmt_short(&t))).unwrap_or_default(),
            code_spans(&f.message)
        );
    }
    out.push_str("</tbody></table>\n");
    for (i, f) in report.findings.iter().enumerate() {
        card(out, i + 1, f);
    }
    out.push_str("</section>\n");
}

fn episode_what(e: &Episode) -> (String, String) {
    match &e.kind {
        EpisodeKind::Install { version } => ("install".into(), version.clone()),
        EpisodeKind::Update { from, to } => ("update".into(), format!("{from} → {to}")),
        EpisodeKind::Cancel { from, to } => ("cancel".into(), format!("{from} → {to} → {from}")),
        EpisodeKind::Rollback { from, to } => {
            ("rollback".into(), format!("{from} → {to} → {from}"))
        }
        EpisodeKind::Stall { .. } => (
            "stall".into(),
            format!(
                "{} not reconciled",
                e.running_release.as_deref().unwrap_or("running release")
            ),
        ),
        EpisodeKind::CvoRestart { pod, .. } => ("CVO restart".into(), pod.clone()),
        EpisodeKind::Unmanaged { .. } => ("unmanaged".into(), "no leading CVO".into()),
    }
}

pub fn episodes(out: &mut String, tl: &Timeline) {
    let _ = writeln!(
        out,
        "<section id=\"episodes\"><h2>Episodes <span class=\"muted\">({})</span></h2>",
        tl.episodes.len()
    );
    if tl.episodes.is_empty() {
        out.push_str(
            "<p>No install, update, stall or restart could be placed in time.</p></section>\n",
        );
        return;
    }
    out.push_str("<table class=\"list\"><thead><tr><th>Episode</th><th>Releases</th><th>Start (UTC)</th><th>End (UTC)</th><th>Took</th><th>Running release</th><th>Summary</th></tr></thead><tbody>\n");
    let end_of_data = tl.reference;
    for e in &tl.episodes {
        let (kind, what) = episode_what(e);
        let end = e
            .end
            .map_or_else(|| "still going".to_string(), |t| fmt_short(&t));
        let took = match e.end.or(end_of_data) {
            Some(t) if t >= e.start => {
                let d = human_duration(t - e.start);
                if e.end.is_some() {
                    d
                } else {
                    format!("≥ {d}")
                }
            }
            _ => String::new(),
        };
        let show_end = e.end.or(end_of_data).unwrap_or(e.start);
        let _ = write!(
            out,
            "<tr data-episode=\"{}\" data-start=\"{}\" data-end=\"{}\"><td>{} <button type=\"button\" class=\"js-only\" data-show-start=\"{}\" data-show-end=\"{}\" title=\"show on the chart\">chart</button></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}",
            esc(&kind),
            esc(&fmt_short(&e.start)),
            esc(&e.end.map(|t| fmt_short(&t)).unwrap_or_default()),
            esc(&kind),
            esc(&fmt_short(&e.start)),
            esc(&fmt_short(&show_end)),
            esc(&what),
            esc(&fmt_short(&e.start)),
            esc(&end),
            esc(&took),
            esc(e.running_release.as_deref().unwrap_or("")),
            code_spans(&e.summary)
        );
        if !e.milestones.is_empty() || e.finished_before.is_some() {
            out.push_str("<details><summary>milestones</summary><ul class=\"ev\">");
            for m in &e.milestones {
                let kind = serde_json::to_value(m.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                let place = m
                    .evidence
                    .first()
                    .map(|ev| ev.prov.to_string())
                    .unwrap_or_default();
                let _ = write!(
                    out,
                    "<li data-milestone=\"{}\"><b>{}</b> {} <code class=\"path\">{}</code></li>",
                    esc(&kind),
                    esc(&kind),
                    esc(&fmt_short(&m.time)),
                    esc(&place)
                );
            }
            if let Some(b) = &e.finished_before {
                let claim = b
                    .claimed
                    .map(|c| format!("; history claims {}", fmt_short(&c)))
                    .unwrap_or_default();
                let _ = write!(
                    out,
                    "<li data-milestone=\"bound\"><b>finished before</b> {}{}</li>",
                    esc(&fmt_short(&b.before)),
                    esc(&claim)
                );
            }
            out.push_str("</ul></details>");
        }
        out.push_str("</td></tr>\n");
    }
    out.push_str("</tbody></table></section>\n");
}

pub fn rules(out: &mut String, report: &Report) {
    let s = &report.summary;
    let _ = writeln!(
        out,
        "<section id=\"rules\"><h2>Rules</h2><p>{} ran, {} skipped.</p>",
        crate::vocab::text::plural(s.rules_ran, "rule", "rules"),
        s.rules_skipped
    );
    let skipped: Vec<_> = report.skipped().collect();
    if !skipped.is_empty() {
        out.push_str("<p>Not run (their inputs were absent):</p><ul>");
        for r in skipped {
            let _ = write!(
                out,
                "<li><code>{}</code> {}: {}</li>",
                esc(r.code),
                esc(r.name),
                esc(r.reason.as_deref().unwrap_or("skipped"))
            );
        }
        out.push_str("</ul>\n");
    }
    let mut codes: Vec<&str> = Vec::new();
    for f in &report.findings {
        if !codes.contains(&f.code) {
            codes.push(f.code);
        }
    }
    for code in codes {
        let Some(page) = crate::rules::explain(code) else {
            continue;
        };
        let name = report
            .findings
            .iter()
            .find(|f| f.code == code)
            .map_or("", |f| f.name);
        let _ = writeln!(
            out,
            "<details class=\"rule\" id=\"rule-{}\"><summary><code>{}</code> {}</summary>\n{}</details>",
            esc(code),
            esc(code),
            esc(name),
            crate::output::page::render_html(&page, 3)
        );
    }
    out.push_str("</section>\n");
}
