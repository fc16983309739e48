//! The page's text sections: findings (a summary table and one card per finding with its
//! evidence, fix, references and a link to the rule's page), episodes (with milestones) and
//! the rules (what was skipped and why, and each reported rule's page embedded in a
//! `<details>`).

use super::Scope;
use super::text::{Text, code_spans};
use crate::output::paths::Bases;
use crate::rules::{ConfidenceLevel, Finding, Report, RuleMeta};
use crate::timeline::{Episode, EpisodeKind, Timeline, fmt_short, human_duration};
use maud::{Markup, PreEscaped, html};

/// A finding's evidence, each path relative to its input's must-gather root, as the terminal
/// shows it (the header names each input's root once).
fn evidence(f: &Finding, bases: &Bases<'_>) -> Markup {
    html! {
        ul class="ev" {
            @for e in &f.evidence {
                @let shown = bases.short(e);
                @let loc = match e.line {
                    Some(l) => format!("{shown}:{l}"),
                    None => shown,
                };
                li {
                    code class="path" { (Text(&loc)) }
                    @if let Some(l) = &e.label {
                        " " span class="muted" { "(" (Text(l)) ")" }
                    }
                    br;
                    code { (Text(&e.text)) }
                }
            }
        }
    }
}

/// A reference: a link when it is a web address (nothing else may become an `href`).
fn link(url: &str) -> Markup {
    html! {
        @if url.starts_with("https://") || url.starts_with("http://") {
            a href=(Text(url)) rel="noreferrer noopener" { (Text(url)) }
        } @else {
            (Text(url))
        }
    }
}

fn card(n: usize, f: &Finding, scope: Scope<'_>, bases: &Bases<'_>) -> Markup {
    let sev = f.severity.as_str();
    html! {
        article class={ "finding sev-" (sev) } id=(scope.id(&format!("f-{n}"))) data-code=(Text(&f.code))
            data-severity=(sev) {
            h3 {
                span class={ "sev sev-" (sev) } { (sev) }
                " " code { (Text(&f.code)) }
                " " (Text(&f.name))
                " " span class="muted" { "on" }
                " " code { (Text(&f.object.display())) }
            }
            p class="msg" { (code_spans(&f.message)) }
            dl {
                @if let Some(at) = f.at {
                    dt { "When" } dd { (Text(&fmt_short(&at))) " UTC" }
                }
                @if let Some(c) = &f.confidence {
                    @let level = match c.level {
                        ConfidenceLevel::Low => "low",
                        ConfidenceLevel::Medium => "medium",
                        ConfidenceLevel::High => "high",
                    };
                    dt { "Confidence" } dd { (level) " (" (Text(&c.basis.join(", "))) ")" }
                }
                @if !f.help.is_empty() {
                    dt { "Fix" } dd { (code_spans(&f.help)) }
                }
                @if !f.evidence.is_empty() {
                    dt { "Evidence" } dd { (evidence(f, bases)) }
                }
                @if !f.details.is_empty() {
                    dt { "Details" }
                    dd {
                        @for (i, (k, v)) in f.details.iter().enumerate() {
                            @if i > 0 { "; " }
                            (Text(k)) ": " code { (Text(&v.to_string())) }
                        }
                    }
                }
                @if !f.references.is_empty() {
                    dt { "References" }
                    dd {
                        @for (i, r) in f.references.iter().enumerate() {
                            @if i > 0 { br; }
                            (link(r))
                        }
                    }
                }
                dt { "Rule" }
                dd {
                    a href={ "#rule-" (Text(&f.code)) } {
                        "what " (Text(&f.code)) " means and how to fix it"
                    }
                }
            }
        }
        "\n"
    }
}

pub fn findings(report: &Report, scope: Scope<'_>) -> Markup {
    let bases = Bases::of(report);
    html! {
        section id=(scope.id("findings")) {
            h2 { "Findings " span class="muted" { "(" (report.findings.len()) ")" } }
            "\n"
            @if report.findings.is_empty() {
                p { "No findings." }
            } @else {
                div class="tablewrap" tabindex="0" role="region" aria-label="Findings table" {
                table class="list" {
                    thead {
                        tr {
                            th { "Severity" } th { "Code" } th { "Object" } th { "When (UTC)" }
                            th { "Finding" }
                        }
                    }
                    tbody {
                        "\n"
                        @for (i, f) in report.findings.iter().enumerate() {
                            @let sev = f.severity.as_str();
                            tr {
                                td class="nw" { span class={ "sev sev-" (sev) } { (sev) } }
                                td class="nw" { a href=(scope.href(&format!("f-{}", i + 1))) { code { (Text(&f.code)) } } }
                                td { code { (Text(&f.object.display())) } }
                                td class="nw" {
                                    @if let Some(t) = f.at { (Text(&fmt_short(&t))) }
                                }
                                td { (code_spans(&f.message)) }
                            }
                            "\n"
                        }
                    }
                }
                }
                "\n"
                @for (i, f) in report.findings.iter().enumerate() {
                    (card(i + 1, f, scope, &bases))
                }
            }
        }
        "\n"
    }
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

/// An episode's milestones and, for an install, the moment it had finished before.
fn milestones(e: &Episode) -> Markup {
    html! {
        details {
            summary { "milestones" }
            ul class="ev" {
                @for m in &e.milestones {
                    @let kind = serde_json::to_value(m.kind)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default();
                    @let place = m
                        .evidence
                        .first()
                        .map(|ev| ev.prov.to_string())
                        .unwrap_or_default();
                    li data-milestone=(Text(&kind)) {
                        b { (Text(&kind)) }
                        " " (Text(&fmt_short(&m.time)))
                        " " code class="path" { (Text(&place)) }
                    }
                }
                @if let Some(b) = &e.finished_before {
                    li data-milestone="bound" {
                        b { "finished before" }
                        " " (Text(&fmt_short(&b.before)))
                        @if let Some(c) = b.claimed {
                            (Text(&format!("; history claims {}", fmt_short(&c))))
                        }
                    }
                }
            }
        }
    }
}

fn episode_row(e: &Episode, end_of_data: Option<crate::model::Time>) -> Markup {
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
    let start = fmt_short(&e.start);
    html! {
        tr data-episode=(Text(&kind)) data-start=(Text(&start))
            data-end=(Text(&e.end.map(|t| fmt_short(&t)).unwrap_or_default())) {
            td {
                span class="nw" { (Text(&kind)) } " "
                button type="button" class="js-only" data-show-start=(Text(&start))
                    data-show-end=(Text(&fmt_short(&show_end))) title="show on the chart" { "chart" }
            }
            td { (Text(&what)) }
            td { (Text(&start)) }
            td { (Text(&end)) }
            td class="nw" { (Text(&took)) }
            td { (Text(e.running_release.as_deref().unwrap_or(""))) }
            td {
                (code_spans(&e.summary))
                @if !e.milestones.is_empty() || e.finished_before.is_some() {
                    (milestones(e))
                }
            }
        }
        "\n"
    }
}

pub fn episodes(tl: &Timeline, scope: Scope<'_>) -> Markup {
    html! {
        section id=(scope.id("episodes")) {
            h2 { "Episodes " span class="muted" { "(" (tl.episodes.len()) ")" } }
            "\n"
            @if tl.episodes.is_empty() {
                p { "No install, update, stall or restart could be placed in time." }
            } @else {
                div class="tablewrap" tabindex="0" role="region" aria-label="Episodes table" {
                table class="list" {
                    thead {
                        tr {
                            th { "Episode" } th { "Releases" } th { "Start (UTC)" }
                            th { "End (UTC)" } th { "Took" } th { "Running release" }
                            th { "Summary" }
                        }
                    }
                    tbody {
                        "\n"
                        @for e in &tl.episodes { (episode_row(e, tl.reference)) }
                    }
                }
                }
            }
        }
        "\n"
    }
}

/// The "Updates" section's facts, from `recommend`'s plan: the channel, the issues oc's
/// checks find before an update, and every offered target with whether it is recommended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UpdatesView {
    pub current: String,
    pub channel: String,
    pub issues: Vec<String>,
    pub precheck_error: Option<String>,
    /// Per minor (`4.16`), highest first, its targets.
    pub minors: Vec<(String, Vec<UpdateRow>)>,
}

/// One offered target: version, whether recommended, the not-recommended reason, risk names.
pub type UpdateRow = (String, bool, String, Vec<String>);

impl UpdatesView {
    pub fn of(p: &crate::recommend::Plan) -> UpdatesView {
        UpdatesView {
            current: p.current.clone(),
            channel: p.channel.clone(),
            issues: crate::recommend::issues(p).into_iter().collect(),
            precheck_error: p.precheck.as_ref().err().cloned(),
            minors: p
                .minors
                .iter()
                .map(|m| {
                    let rows = m
                        .sorted
                        .iter()
                        .map(|t| {
                            let c = t.not_recommended();
                            (
                                t.release.version.clone(),
                                c.is_none(),
                                c.map(|c| c.reason).unwrap_or_default(),
                                t.risks.iter().map(|r| r.name.clone()).collect(),
                            )
                        })
                        .collect();
                    (format!("{}.{}", m.major, m.minor), rows)
                })
                .collect(),
        }
    }
}

/// Where the cluster can update to (as `mglint recommend`), every target listed.
pub fn updates(u: Option<&UpdatesView>, scope: Scope<'_>) -> Markup {
    let Some(u) = u else {
        return html! {};
    };
    html! {
        section id=(scope.id("updates")) {
            h2 { "Updates" }
            "\n"
            p {
                "Running " (Text(if u.current.is_empty() { "an unknown release" } else { &u.current }))
                @if u.channel.is_empty() { "; no channel is set, so no update is offered." }
                @else { " in channel " code { (Text(&u.channel)) } "." }
            }
            "\n"
            @if !u.issues.is_empty() {
                p { "Before an update, oc's checks find: " (Text(&u.issues.join(", "))) "." }
                "\n"
            }
            @if let Some(e) = &u.precheck_error {
                p class="muted" { "The alert precheck could not run: " (Text(e)) }
                "\n"
            }
            @if u.minors.is_empty() {
                p { "No updates are offered." }
            }
            @for (minor, rows) in &u.minors {
                h3 { "Updates to " (Text(minor)) }
                div class="tablewrap" tabindex="0" role="region" aria-label={ "Updates to " (Text(minor)) } {
                table class="list" {
                    thead { tr { th { "Version" } th { "Recommended" } th { "Reason" } th { "Risks" } } }
                    tbody {
                        @for (v, rec, reason, risks) in rows {
                            tr {
                                td { code { (Text(v)) } }
                                td { @if *rec { "yes" } @else { "no" } }
                                td { (Text(reason)) }
                                td { (Text(&risks.join(", "))) }
                            }
                        }
                    }
                }
                }
                "\n"
            }
        }
        "\n"
    }
}

/// The published update risks on the cluster's last, requested and offered updates that
/// apply or cannot be evaluated (CV025's evaluation); nothing when there is none.
pub fn published_risks(report: &Report, scope: Scope<'_>) -> Markup {
    use crate::risks::exposure::{names, shown};
    use crate::risks::verdict::Verdict;
    if report.published_risks.is_empty() {
        return html! {};
    }
    let commit: String = report.published_risks_commit.chars().take(12).collect();
    let (rows, left) = shown(&report.published_risks);
    let list = |v: Vec<&str>| {
        html! {
            @if v.is_empty() { span class="muted" { "none" } }
            @for (i, n) in v.iter().enumerate() {
                @if i > 0 { ", " }
                code { (Text(n)) }
            }
        }
    };
    html! {
        section id=(scope.id("published-risks")) {
            h2 { "Published update risks" }
            "\n"
            p {
                "Red Hat's published update risks (cincinnati-graph-data"
                @if !commit.is_empty() { " " code { (Text(&commit)) } }
                ") judged offline from the dump, as it was when gathered; "
                code { "mglint risks" } " shows every verdict, and the metrics a risk that cannot be evaluated needs."
            }
            "\n"
            div class="tablewrap" tabindex="0" role="region" aria-label="Published update risks" {
            table class="list" {
                thead { tr { th { "Update" } th { "Stage" } th { "Applies" } th { "Cannot be evaluated" } } }
                tbody {
                    @for x in rows {
                        tr {
                            td class="nw" { code { (Text(&x.from)) } " → " code { (Text(&x.version)) } }
                            td class="nw" { (x.stage.short()) }
                            td { (list(names(x, Verdict::Applies))) }
                            td { (list(names(x, Verdict::Unknown))) }
                        }
                        "\n"
                    }
                }
            }
            }
            @if left > 0 {
                p class="muted" {
                    (crate::vocab::text::plural(left, "more offered update", "more offered updates"))
                    " not shown (" code { "mglint risks" } " lists them)."
                }
            }
        }
        "\n"
    }
}

pub fn rules(report: &Report, scope: Scope<'_>) -> Markup {
    let s = &report.summary;
    let skipped: Vec<_> = report.skipped().collect();
    let mut codes: Vec<&str> = Vec::new();
    for f in &report.findings {
        if !codes.contains(&&*f.code) {
            codes.push(&f.code);
        }
    }
    html! {
        section id=(scope.id("rules")) {
            h2 { "Rules" }
            p {
                (crate::vocab::text::plural(s.rules_ran, "rule", "rules")) " ran, "
                (s.rules_skipped) " skipped."
            }
            "\n"
            @if !skipped.is_empty() {
                p { "Not run (their inputs were absent):" }
                ul {
                    @for r in skipped {
                        li {
                            code { (Text(&r.code)) }
                            " " (Text(&r.name)) ": "
                            (Text(r.reason.as_deref().unwrap_or("skipped")))
                        }
                    }
                }
                "\n"
            }
            @for code in codes {
                @if let Some(page) = report
                    .rule(code)
                    .or_else(|| crate::rules::find(code))
                    .map(RuleMeta::render_page)
                {
                    @let name = report
                        .findings
                        .iter()
                        .find(|f| f.code == code)
                        .map_or("", |f| &f.name);
                    details class="rule" id=(scope.id(&format!("rule-{code}"))) {
                        summary { code { (Text(code)) } " " (Text(name)) }
                        "\n"
                        // pulldown-cmark's HTML of the rule page, raw HTML in it escaped.
                        (PreEscaped(crate::output::page::render_html(&page, 3)))
                    }
                    "\n"
                }
            }
        }
        "\n"
    }
}

/// Without a ClusterVersion (a component must-gather), what the dump holds: its nodes, pools
/// and operators as `oc get` lists them, so the page shows the objects, not only counts.
pub fn objects(tables: Option<&crate::summary::ObjectTables>, scope: Scope<'_>) -> Markup {
    let Some(t) = tables else {
        return html! {};
    };
    html! {
        section id=(scope.id("objects")) {
            h2 { "What the dump holds" }
            p class="muted" { "No ClusterVersion in the input: the objects it has, as oc get lists them." }
            @for (what, rows) in [("Nodes", &t.nodes), ("MachineConfigPools", &t.pools), ("ClusterOperators", &t.operators)] {
                @if let [head, body @ ..] = rows.as_slice() && !body.is_empty() {
                    h3 { (what) " " span class="muted" { "(" (body.len()) ")" } }
                    div class="tablewrap" tabindex="0" role="region" aria-label=(what) {
                        table class="list" {
                            thead { tr { @for h in head { th { (Text(h)) } } } }
                            tbody {
                                @for r in body {
                                    tr { @for (i, c) in r.iter().enumerate() {
                                        @if i == 0 { td { code { (Text(c)) } } } @else { td class="nw" { (Text(c)) } }
                                    } }
                                }
                            }
                        }
                    }
                    "\n"
                }
            }
        }
        "\n"
    }
}
