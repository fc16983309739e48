//! The self-contained HTML report: one file with inline CSS, inline SVG and a small inline
//! script (zoom, lane filtering, hover details), readable with JavaScript disabled and making
//! no network request (its Content-Security-Policy forbids every fetch and allows only its
//! own script, by hash). It shows a header (cluster, versions, collection time, inputs), the
//! upgrade timeline chart (one lane per component, UTC axis, idle gaps folded), the findings
//! with evidence and each rule's page, and the episodes. Every input string is escaped.
//!
//! ```no_run
//! let run = mglint::app::load(&["must-gather.tar.gz".into()], &Default::default()).unwrap();
//! let a = run.analysis();
//! let meta = mglint::output::html::HtmlMeta::from_bundle(&a.bundle);
//! let page = mglint::output::html::render_html(a.report(), a.timeline(), &meta);
//! std::fs::write("report.html", page).unwrap();
//! ```

mod assets;
mod chart;
mod escape;
mod intervals;
mod lanes;
mod lanes_cv;
mod lanes_cvo;
mod lanes_more;
mod scale;
mod sections;

pub use escape::esc;
pub use intervals::CiInterval;

use crate::bundle::{Bundle, InputKind};
use crate::model::Time;
use crate::rules::Report;
use crate::timeline::{Timeline, fmt_short};
use crate::vocab::text::plural;
use std::fmt::Write;

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
    /// CI monitor intervals with both ends (the timeline keeps only their starts).
    pub intervals: Vec<CiInterval>,
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

impl HtmlMeta {
    /// The header facts of an ingested bundle.
    pub fn from_bundle(bundle: &Bundle) -> HtmlMeta {
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
                    kind: match i.kind {
                        InputKind::MustGather => "must-gather",
                        InputKind::CiJob => "ci-job",
                        InputKind::Archive => "archive",
                        InputKind::File => "file",
                        InputKind::Directory => "directory",
                    }
                    .to_string(),
                    files_read: i.files_read,
                })
                .collect(),
            unreadable_files: bundle.diagnostics.len(),
            intervals: bundle
                .intervals
                .iter()
                .filter_map(CiInterval::from_interval)
                .collect(),
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

fn meta_row(out: &mut String, name: &str, value: Option<&str>) {
    if let Some(v) = value {
        let _ = write!(
            out,
            "<tr><th>{name}</th><td><code>{}</code></td></tr>",
            esc(v)
        );
    }
}

fn header(out: &mut String, report: &Report, tl: &Timeline, meta: &HtmlMeta) {
    let s = &report.summary;
    let (class, verdict) = if report.failed() {
        ("fail", "fails")
    } else {
        ("pass", "passes")
    };
    let _ = write!(
        out,
        "<header><h1>mglint report</h1><p class=\"verdict {class}\" id=\"verdict\">{}, {}, {} info: {verdict} at <code>--fail-on {}</code></p><table class=\"meta\" id=\"meta\">",
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        s.info,
        report.fail_on
    );
    meta_row(out, "Cluster ID", meta.cluster_id.as_deref());
    meta_row(out, "Running version", meta.running_version.as_deref());
    meta_row(out, "status.desired", meta.desired_version.as_deref());
    meta_row(out, "spec.desiredUpdate", meta.requested_version.as_deref());
    meta_row(out, "Channel", meta.channel.as_deref());
    if !tl.history.is_empty() {
        let rows: Vec<String> = tl
            .history
            .iter()
            .rev()
            .take(8)
            .map(|h| {
                let span = match (h.started, h.completion) {
                    (Some(a), Some(b)) => format!("{} → {}", fmt_short(&a), fmt_short(&b)),
                    (Some(a), None) => format!("{} → …", fmt_short(&a)),
                    _ => String::new(),
                };
                format!(
                    "<li><code>{}</code> {} <span class=\"muted\">{}</span></li>",
                    esc(h.label()),
                    esc(&h.state),
                    esc(&span)
                )
            })
            .collect();
        let more = tl.history.len().saturating_sub(8);
        let more = if more > 0 {
            format!("<li class=\"muted\">and {more} older</li>")
        } else {
            String::new()
        };
        let _ = write!(
            out,
            "<tr><th>History</th><td><ul>{}{more}</ul></td></tr>",
            rows.join("")
        );
    }
    let collected = meta.collected_at.or(report.collected_at);
    if let Some(t) = collected {
        let _ = write!(
            out,
            "<tr><th>Collected</th><td>{} UTC</td></tr>",
            esc(&fmt_short(&t))
        );
    }
    let inputs: Vec<String> = if meta.inputs.is_empty() {
        report
            .inputs
            .iter()
            .map(|i| {
                format!(
                    "<li><code>{}</code> ({}, {})</li>",
                    esc(&i.name),
                    esc(&i.kind),
                    plural(
                        usize::try_from(i.files_read).unwrap_or(usize::MAX),
                        "file read",
                        "files read"
                    )
                )
            })
            .collect()
    } else {
        meta.inputs
            .iter()
            .map(|i| {
                format!(
                    "<li><code>{}</code> ({}, {})</li>",
                    esc(&i.name),
                    esc(&i.kind),
                    plural(
                        usize::try_from(i.files_read).unwrap_or(usize::MAX),
                        "file read",
                        "files read"
                    )
                )
            })
            .collect()
    };
    if !inputs.is_empty() {
        let _ = write!(
            out,
            "<tr><th>Inputs</th><td><ul>{}</ul></td></tr>",
            inputs.join("")
        );
    }
    if meta.unreadable_files > 0 {
        let _ = write!(
            out,
            "<tr><th>Unreadable files</th><td>{} (see the IN findings)</td></tr>",
            meta.unreadable_files
        );
    }
    let _ = writeln!(
        out,
        "</table><nav><a href=\"#timeline\">Timeline</a><a href=\"#findings\">Findings ({})</a><a href=\"#episodes\">Episodes ({})</a><a href=\"#rules\">Rules</a></nav></header>",
        report.findings.len(),
        tl.episodes.len()
    );
}

/// Renders the report, its timeline and the header facts as one self-contained HTML page.
/// Deterministic: the same inputs give byte-identical output.
pub fn render_html(report: &Report, timeline: &Timeline, bundle_meta: &HtmlMeta) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let title = bundle_meta
        .cluster_id
        .as_deref()
        .map(|c| format!("cluster {c}"))
        .or_else(|| bundle_meta.inputs.first().map(|i| i.name.clone()))
        .or_else(|| report.inputs.first().map(|i| i.name.clone()))
        .unwrap_or_else(|| "no input".into());
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"generator\" content=\"{} {}\">\n<title>mglint report: {}</title>\n<style>{}</style>\n</head>\n<body>",
        csp(),
        report.tool.name,
        report.tool.version,
        esc(&title),
        assets::CSS
    );
    header(&mut out, report, timeline, bundle_meta);
    out.push_str("<main>\n<section id=\"timeline\"><h2>Timeline</h2>\n");
    out.push_str(assets::DEFS);
    match lanes::build(timeline, report, &bundle_meta.intervals) {
        Some(chart) => {
            out.push_str("<p class=\"muted\">Times in UTC. Hover a bar or mark for details; diamonds are findings (click to jump). Long idle stretches are folded (≈).</p>\n");
            chart::render(&mut out, &chart);
        }
        None => out.push_str("<p>Nothing in the input could be placed in time.</p>\n"),
    }
    out.push_str("</section>\n");
    sections::findings(&mut out, report);
    sections::episodes(&mut out, timeline);
    sections::rules(&mut out, report);
    let _ = writeln!(
        out,
        "</main>\n<footer>{} {} · schema {} · a self-contained page: no external resources</footer>\n<div id=\"tip\" role=\"tooltip\"></div>\n<script>{}</script>\n</body>\n</html>",
        report.tool.name,
        report.tool.version,
        report.schema,
        assets::JS
    );
    out
}

#[cfg(test)]
mod tests;
