//! The self-contained HTML report: one file with inline CSS, inline SVG and a small inline
//! script (zoom, lane filtering, hover details), readable with JavaScript disabled and making
//! no network request (its Content-Security-Policy forbids every fetch and allows only its
//! own script, by hash). It shows a header (cluster, versions, collection time, inputs), the
//! upgrade timeline chart (one lane per component, UTC axis, idle gaps folded), the findings
//! with evidence and each rule's page, and the episodes. The page is written with `maud`
//! templates: every input string reaches it through maud's escaping (`text::Text`); only the
//! constant stylesheet and script and pulldown-cmark's rendering of the rule pages are spliced
//! unescaped.
//!
//! ```no_run
//! let run = mglint::app::load(&["must-gather.tar.gz".into()], &Default::default()).unwrap();
//! let a = run.analysis();
//! let meta = mglint::output::html::HtmlMeta::from_bundle(&a.bundle, a.plan());
//! let page = mglint::output::html::render_html(a.report(), a.timeline(), a.stretches(), &meta);
//! std::fs::write("report.html", page).unwrap();
//! ```

mod assets;
mod chart;
mod intervals;
mod lane_model;
mod lanes;
mod lanes_cv;
mod lanes_cvo;
mod lanes_more;
mod scale;
mod sections;
mod text;

use crate::bundle::Bundle;
use crate::model::Time;
use crate::rules::Report;
use crate::timeline::{ConditionStretches, Timeline, fmt_short};
use crate::vocab::text::plural;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use text::Text;

/// The id namespace of one cluster's part of a page: no prefix for a page of one cluster,
/// `c2-` for the second of several, so ids and in-page links never collide; `heading` names
/// the cluster when the page holds several.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Scope<'a> {
    prefix: &'a str,
    heading: Option<&'a str>,
    /// A later cluster of the page: the SVG patterns the first defined serve it too.
    later: bool,
}

impl Scope<'_> {
    /// The page-wide id of `name`.
    pub(crate) fn id(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// An in-page link to `name`.
    pub(crate) fn href(&self, name: &str) -> String {
        format!("#{}{name}", self.prefix)
    }
}

/// One input as shown in the header.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HtmlInput {
    pub name: String,
    /// `must-gather`, `ci-job`, `archive`, `file`, `directory`.
    pub kind: String,
    pub files_read: u64,
}

/// What the header says about the data: cluster, versions, collection time and inputs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HtmlMeta {
    pub cluster_id: Option<String>,
    pub channel: Option<String>,
    /// The most recent Completed history entry.
    pub running_version: Option<String>,
    /// `status.desired`.
    pub desired_version: Option<String>,
    /// `spec.desiredUpdate`, when set.
    pub requested_version: Option<String>,
    pub collected_at: Option<Time>,
    pub inputs: Vec<HtmlInput>,
    /// Files that could not be read, or only in part.
    pub unreadable_files: usize,
    /// What `mglint recommend` knows: the offered updates and what stands in the way.
    pub updates: Option<sections::UpdatesView>,
    /// Without a ClusterVersion (a component must-gather): the nodes, pools and operators the
    /// dump holds, as `oc get` lists them.
    pub objects: Option<crate::summary::ObjectTables>,
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

impl HtmlMeta {
    /// The header facts of an ingested bundle, with oc's recommend plan of it (the
    /// analysis's, [`crate::app::Analysis::plan`]) for the updates section.
    pub fn from_bundle(bundle: &Bundle, plan: Option<&crate::recommend::Plan>) -> HtmlMeta {
        let cv = bundle.cluster_version();
        HtmlMeta {
            cluster_id: cv.and_then(|c| non_empty(&c.spec.cluster_id)),
            channel: cv.and_then(|c| non_empty(&c.spec.channel)),
            running_version: cv
                .and_then(|c| c.last_completed())
                .and_then(|(_, h)| non_empty(h.label())),
            desired_version: cv.and_then(|c| non_empty(c.status.desired.label())),
            requested_version: cv
                .and_then(|c| c.spec.desired_update.as_ref())
                .and_then(|u| non_empty(u.label())),
            collected_at: bundle.collection_time(),
            inputs: bundle
                .inputs
                .iter()
                .map(|i| HtmlInput {
                    name: i.name.clone(),
                    kind: i.kind_label(),
                    files_read: i.files_read,
                })
                .collect(),
            unreadable_files: bundle.diagnostics.len(),
            updates: plan.map(sections::UpdatesView::of),
            objects: crate::summary::objects_without_cluster_version(bundle),
        }
    }
}

/// The CSP source hash of a script: base64 of its SHA-256 (`script-src 'sha256-…'`), so the
/// browser runs that script and nothing else, even markup that slipped past escaping.
pub fn csp_hash(script: &str) -> String {
    use base64::Engine;
    use sha2::Digest;
    base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(script.as_bytes()))
}

/// The Content-Security-Policy: nothing may be fetched; only this page's script may run.
fn csp() -> String {
    let hash = csp_hash(assets::JS);
    format!(
        "default-src 'none'; script-src 'sha256-{hash}'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
    )
}

fn meta_row(name: &str, value: Option<&str>) -> Markup {
    html! {
        @if let Some(v) = value {
            tr { th { (name) } td { code { (Text(v)) } } }
        }
    }
}

/// One input in the header: name, kind and how many files were read.
/// One input of the header, with the root its evidence paths are shown under (named once
/// here, as the terminal names it once per input).
fn input_item(name: &str, kind: &str, files_read: u64, root: &str) -> Markup {
    html! {
        li {
            code { (Text(name)) }
            " (" (Text(kind)) ", "
            (plural(usize::try_from(files_read).unwrap_or(usize::MAX), "file read", "files read"))
            ")"
            @if !root.is_empty() {
                "; evidence paths below are relative to " code class="path" { (Text(root)) }
            }
        }
    }
}

fn header(report: &Report, tl: &Timeline, meta: &HtmlMeta, scope: Scope<'_>) -> Markup {
    let s = &report.summary;
    let (class, verdict) = if report.failed() {
        ("fail", "fails")
    } else {
        ("pass", "passes")
    };
    let collected = meta.collected_at.or(report.collected_at);
    // The inputs as the bundle names them, else as the report does.
    let inputs: Vec<(&str, &str, u64)> = if meta.inputs.is_empty() {
        report
            .inputs
            .iter()
            .map(|i| (i.name.as_str(), i.kind_label(), i.files_read))
            .collect()
    } else {
        meta.inputs
            .iter()
            .map(|i| (i.name.as_str(), i.kind.as_str(), i.files_read))
            .collect()
    };
    let older = tl.history.len().saturating_sub(8);
    let bases = crate::output::paths::Bases::of(report);
    let root_of = |name: &str| -> String {
        report
            .inputs
            .iter()
            .find(|i| i.name == name)
            .map(|i| bases.base(i))
            .filter(|b| !b.is_empty())
            .map(|b| crate::vocab::files::join_path(name, b))
            .unwrap_or_default()
    };
    html! {
        header {
            @match scope.heading {
                Some(h) => h2 class="cluster-title" { (Text(h)) },
                None => h1 { "mglint report" },
            }
            p class={ "verdict " (class) } id=(scope.id("verdict")) {
                (plural(s.errors, "error", "errors")) ", "
                (plural(s.warnings, "warning", "warnings")) ", "
                (s.info) " info: " (verdict) " at "
                code { "--fail-on " (report.fail_on) }
            }
            table class="meta" id=(scope.id("meta")) {
                (meta_row("Cluster ID", meta.cluster_id.as_deref()))
                (meta_row("Running version", meta.running_version.as_deref()))
                (meta_row("status.desired", meta.desired_version.as_deref()))
                (meta_row("spec.desiredUpdate", meta.requested_version.as_deref()))
                (meta_row("Channel", meta.channel.as_deref()))
                @if !tl.history.is_empty() {
                    tr {
                        th { "History" }
                        td {
                            ul {
                                @for h in tl.history.iter().rev().take(8) {
                                    @let span = match (h.started, h.completion) {
                                        (Some(a), Some(b)) => {
                                            format!("{} → {}", fmt_short(&a), fmt_short(&b))
                                        }
                                        (Some(a), None) => format!("{} → …", fmt_short(&a)),
                                        _ => String::new(),
                                    };
                                    li {
                                        code { (Text(h.label())) }
                                        " " (Text(&h.state)) " "
                                        span class="muted" { (Text(&span)) }
                                    }
                                }
                                @if older > 0 {
                                    li class="muted" { "and " (older) " older" }
                                }
                            }
                        }
                    }
                }
                @if let Some(t) = collected {
                    tr { th { "Collected" } td { (Text(&fmt_short(&t))) " UTC" } }
                }
                @if !inputs.is_empty() {
                    tr {
                        th { "Inputs" }
                        td {
                            ul {
                                @for (name, kind, files_read) in &inputs {
                                    (input_item(name, kind, *files_read, &root_of(name)))
                                }
                            }
                        }
                    }
                }
                @if !report.absent.is_empty() {
                    tr {
                        th { "Missing" }
                        td {
                            ul {
                                @for a in &report.absent {
                                    li {
                                        (Text(&a.headline())) ": "
                                        (plural(a.rules.len(), "rule", "rules")) " could not run"
                                    }
                                }
                            }
                        }
                    }
                }
                @if meta.unreadable_files > 0 {
                    tr {
                        th { "Unreadable files" }
                        td { (meta.unreadable_files) " (see the IN findings)" }
                    }
                }
            }
            nav aria-label=(scope.heading.map_or("sections".to_string(), |h| format!("sections of {h}"))) {
                a href=(scope.href("timeline")) { "Timeline" }
                a href=(scope.href("findings")) { "Findings (" (report.findings.len()) ")" }
                a href=(scope.href("episodes")) { "Episodes (" (tl.episodes.len()) ")" }
                a href=(scope.href("rules")) { "Rules" }
            }
        }
        "\n"
    }
}

/// The timeline section: the chart, or a sentence when nothing could be placed in time.
fn timeline_section(
    report: &Report,
    timeline: &Timeline,
    stretches: &ConditionStretches,
    scope: Scope<'_>,
) -> Markup {
    let chart = lanes::build(timeline, stretches, report).map(|mut c| {
        // Marks link to their finding's card, in this cluster's id namespace.
        for m in c.lanes.iter_mut().flat_map(|l| l.marks.iter_mut()) {
            if let Some(h) = &mut m.link
                && let Some(name) = h.strip_prefix('#')
            {
                *h = scope.href(name);
            }
        }
        c
    });
    html! {
        section id=(scope.id("timeline")) {
            h2 { "Timeline" }
            "\n"
            @if !scope.later {
                (assets::defs())
            }
            @match chart {
                Some(chart) => {
                    p class="muted" {
                        "Times in UTC. Hover a bar or mark for details; diamonds are findings (click to jump). Long idle stretches are folded (≈)."
                    }
                    "\n"
                    (chart::render(&chart, scope))
                }
                None => {
                    p { "Nothing in the input could be placed in time." }
                    "\n"
                }
            }
        }
        "\n"
    }
}

/// Renders the report, its timeline (with its condition stretches,
/// [`crate::timeline::condition_stretches`]) and the header facts as one self-contained HTML
/// page. Deterministic: the same inputs give byte-identical output.
pub fn render_html(
    report: &Report,
    timeline: &Timeline,
    stretches: &ConditionStretches,
    bundle_meta: &HtmlMeta,
) -> String {
    let title = bundle_meta
        .cluster_id
        .as_deref()
        .map(|c| format!("cluster {c}"))
        .or_else(|| bundle_meta.inputs.first().map(|i| i.name.clone()))
        .or_else(|| report.inputs.first().map(|i| i.name.clone()))
        .unwrap_or_else(|| "no input".into());
    let body = html! {
        (cluster_part(report, timeline, stretches, bundle_meta, Scope::default()))
    };
    page(&title, report, body)
}

/// One cluster of a page: its header, chart, findings, episodes, updates and rules.
fn cluster_part(
    report: &Report,
    timeline: &Timeline,
    stretches: &ConditionStretches,
    meta: &HtmlMeta,
    scope: Scope<'_>,
) -> Markup {
    html! {
        (header(report, timeline, meta, scope))
        main {
            "\n"
            (timeline_section(report, timeline, stretches, scope))
            (sections::findings(report, scope))
            (sections::episodes(timeline, scope))
            (sections::objects(meta.objects.as_ref(), scope))
            (sections::updates(meta.updates.as_ref(), scope))
            (sections::published_risks(report, scope))
            (sections::rules(report, scope))
        }
        "\n"
    }
}

pub use super::ClusterPage;

/// Several clusters as one self-contained page: a table of contents (each cluster with its
/// verdict), then a section per cluster with its own header, chart and findings, ids
/// namespaced per cluster (`c1-findings`, `c2-f-3`) so links and the script stay apart.
pub fn render_html_clusters(clusters: &[ClusterPage<'_>]) -> String {
    let [first, ..] = clusters else {
        return String::new();
    };
    if let [one] = clusters {
        return render_html(one.report, one.timeline, one.stretches, one.meta);
    }
    let prefixes: Vec<String> = (1..=clusters.len()).map(|i| format!("c{i}-")).collect();
    let headings: Vec<String> = clusters
        .iter()
        .enumerate()
        .map(|(i, c)| format!("Cluster {} of {}: {}", i + 1, clusters.len(), c.label))
        .collect();
    let body = html! {
        header {
            h1 { "mglint report: " (clusters.len()) " clusters" }
            nav class="toc" aria-label="clusters" {
                ol {
                    @for (i, c) in clusters.iter().enumerate() {
                        @let s = &c.report.summary;
                        li {
                            a href={ "#c" (i + 1) } { (Text(c.label)) }
                            " · " (plural(s.errors, "error", "errors")) ", "
                            (plural(s.warnings, "warning", "warnings")) ": "
                            (if c.report.failed() { "fails" } else { "passes" })
                        }
                    }
                }
            }
        }
        "\n"
        @for (i, c) in clusters.iter().enumerate() {
            section class="cluster" id={ "c" (i + 1) } data-cluster {
                "\n"
                (cluster_part(c.report, c.timeline, c.stretches, c.meta, Scope {
                    prefix: &prefixes[i],
                    heading: Some(&headings[i]),
                    later: i > 0,
                }))
            }
            "\n"
        }
    };
    page(&format!("{} clusters", clusters.len()), first.report, body)
}

/// The page around `body`: head (CSP, stylesheet), footer, tooltip and script.
fn page(title: &str, report: &Report, body: Markup) -> String {
    let page = html! {
        (DOCTYPE) "\n"
        html lang="en" {
            "\n"
            head {
                "\n"
                meta charset="utf-8"; "\n"
                meta http-equiv="Content-Security-Policy" content=(csp()); "\n"
                meta name="viewport" content="width=device-width, initial-scale=1"; "\n"
                meta name="generator" content={ (report.tool.name) " " (report.tool.version) }; "\n"
                title { "mglint report: " (Text(title)) } "\n"
                // The stylesheet and the script are compile-time constants (their hash is the CSP's).
                style { (PreEscaped(assets::CSS)) } "\n"
            }
            "\n"
            body {
                "\n"
                (body)
                footer {
                    (report.tool.name) " " (report.tool.version) " · schema " (report.schema)
                    " · a self-contained page: no external resources"
                }
                "\n"
                div id="tip" role="tooltip" {}
                "\n"
                script { (PreEscaped(assets::JS)) }
                "\n"
            }
            "\n"
        }
        "\n"
    };
    page.into_string()
}

#[cfg(test)]
mod tests;
