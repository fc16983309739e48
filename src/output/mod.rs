//! Report emitters, one file per format, all built from the same [`Report`]: human (an
//! overview, then each finding with the evidence lines it points into, then the counts), JSON
//! (`mglint/report/v2`), JUnit XML for Prow, Markdown for support cases, and SARIF 2.1.0.
//! Output is deterministic: the same report gives byte-identical text. [`term`] decides colour
//! and width for a terminal; [`paths`] shows evidence paths relative to each input's root.

mod human;
mod json;
pub mod junit;
pub mod markdown;
pub mod page;
pub mod paths;
mod sarif;
pub mod term;

pub mod html;

pub use term::ColorChoice;

use crate::rules::Report;

/// An output format of `analyze`: the one list (`--format`, `-o FORMAT=PATH` and the `-o`
/// extensions all read it). Adding a format is its module and a variant here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Format {
    /// Readable diagnostics with the evidence lines (also `text`, as the other commands say)
    #[value(alias = "text")]
    Human,
    /// The versioned `mglint/report/v2` report
    Json,
    /// JUnit XML for Prow, TestGrid and Sippy
    Junit,
    /// Markdown for a support case or bug
    Markdown,
    /// SARIF 2.1.0
    Sarif,
    /// One self-contained HTML page with the upgrade timeline chart
    Html,
}

impl Format {
    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Human => "txt",
            Format::Json | Format::Sarif => "json",
            Format::Junit => "xml",
            Format::Markdown => "md",
            Format::Html => "html",
        }
    }

    /// A format by name (any case), as in `--output junit=PATH`.
    pub fn parse(s: &str) -> Option<Format> {
        <Format as clap::ValueEnum>::from_str(s, true).ok()
    }

    /// The format a file name selects (`report.sarif.json` is SARIF), `None` when its
    /// extension names none.
    pub fn from_path(path: &std::path::Path) -> Option<Format> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        if name.ends_with(".sarif.json") {
            return Some(Format::Sarif);
        }
        let ext = name.rsplit_once('.')?.1;
        BY_EXTENSION
            .iter()
            .find(|(e, _)| *e == ext)
            .map(|(_, f)| *f)
    }

    /// The extensions [`Format::from_path`] knows, each format's first, for an error message
    /// (`.txt, .json, .xml (JUnit), .md, .sarif, .html`).
    pub fn extensions() -> String {
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for (ext, f) in BY_EXTENSION {
            if !seen.contains(f) {
                seen.push(*f);
                let note = if *f == Format::Junit { " (JUnit)" } else { "" };
                out.push(format!(".{ext}{note}"));
            }
        }
        out.join(", ")
    }
}

/// The file extensions that select a format, each format's usual one first (besides
/// `.sarif.json`, which is SARIF whatever `.json` says).
const BY_EXTENSION: &[(&str, Format)] = &[
    ("txt", Format::Human),
    ("text", Format::Human),
    ("json", Format::Json),
    ("xml", Format::Junit),
    ("md", Format::Markdown),
    ("markdown", Format::Markdown),
    ("sarif", Format::Sarif),
    ("html", Format::Html),
    ("htm", Format::Html),
];

/// One cluster of a run as every emitter takes it: its label (the cluster ID, else its
/// inputs), report, timeline, the timeline's condition stretches and the HTML header's facts.
pub struct ClusterPage<'a> {
    pub label: &'a str,
    pub report: &'a Report,
    pub timeline: &'a crate::timeline::Timeline,
    pub stretches: &'a crate::timeline::ConditionStretches,
    pub meta: &'a html::HtmlMeta,
}

/// How to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    /// ANSI colour in the human view.
    pub color: bool,
    /// Line width of the human view.
    pub width: usize,
    /// The most bytes a Markdown report may hold (0: no cap); see
    /// [`markdown::render_capped`].
    pub max_bytes: usize,
}

impl Default for RenderOptions {
    /// No colour, 100 columns, Markdown capped at [`markdown::DEFAULT_MAX_BYTES`] (what
    /// tests and files get).
    fn default() -> Self {
        RenderOptions {
            color: false,
            width: 100,
            max_bytes: markdown::DEFAULT_MAX_BYTES,
        }
    }
}

/// Renders a report in one format. HTML from a report alone has no chart (its timeline is
/// not in the report): [`render_clusters`] draws it with the timeline.
pub fn render(report: &Report, format: Format, opts: &RenderOptions) -> String {
    match format {
        Format::Human => human::render(report, opts),
        Format::Json => json::render(report, crate::vocab::text::JsonLayout::Pretty),
        Format::Junit => junit::render(report),
        Format::Markdown => markdown::render_capped(report, opts.max_bytes),
        Format::Sarif => sarif::render(report),
        Format::Html => {
            let empty = crate::timeline::build(&crate::bundle::Bundle::default());
            html::render_html(
                report,
                &empty,
                &Default::default(),
                &html::HtmlMeta::default(),
            )
        }
    }
}

/// One cluster's SARIF in the category it has among several (for one file per cluster).
pub fn render_sarif_cluster(label: &str, report: &Report) -> String {
    sarif::render_cluster(label, report)
}

/// Renders the reports of several clusters in one output, each apart: a section per cluster
/// (human, Markdown, HTML), one `mglint/report/v2` document per line (JSON Lines),
/// one `<testsuite>` per cluster (JUnit), one run per cluster (SARIF). Each page's `label`
/// names its cluster (its ID, else its inputs). One report renders exactly as [`render`],
/// and HTML draws each page's timeline.
pub fn render_clusters(
    clusters: &[ClusterPage<'_>],
    format: Format,
    opts: &RenderOptions,
) -> String {
    if let [one] = clusters
        && format != Format::Html
    {
        return render(one.report, format, opts);
    }
    match format {
        // The cap is the whole document's, shared by need.
        Format::Markdown => markdown::render_clusters_capped(clusters, opts.max_bytes),
        Format::Human => {
            let mut out = String::new();
            for (i, page) in clusters.iter().enumerate() {
                let head = markdown::cluster_heading(i, clusters.len(), page.label);
                let rule = "=".repeat(head.chars().count().min(opts.width));
                out.push_str(&format!("{rule}\n{head}\n{rule}\n\n"));
                out.push_str(&render(page.report, format, opts));
                out.push('\n');
            }
            out
        }
        // JSON Lines: each cluster's report, whole and on one line, so `jq '.findings[]'`,
        // pandas and duckdb read one shape whatever the number of clusters.
        Format::Json => clusters
            .iter()
            .map(|p| json::render(p.report, crate::vocab::text::JsonLayout::Line) + "\n")
            .collect(),
        Format::Junit => junit::render_clusters(clusters),
        Format::Sarif => sarif::render_clusters(clusters),
        Format::Html => html::render_html_clusters(clusters),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;
    use std::path::Path;

    #[test]
    fn every_format_has_an_extension_and_each_extension_its_format() {
        for f in Format::value_variants() {
            assert!(
                BY_EXTENSION.iter().any(|(_, g)| g == f),
                "{f:?} has no extension"
            );
        }
        for (ext, f) in BY_EXTENSION {
            assert_eq!(Format::from_path(Path::new(&format!("r.{ext}"))), Some(*f));
            assert_eq!(
                Format::from_path(Path::new(&format!("R.{}", ext.to_uppercase()))),
                Some(*f)
            );
        }
        assert_eq!(
            Format::from_path(Path::new("out/report.sarif.json")),
            Some(Format::Sarif)
        );
        assert_eq!(Format::from_path(Path::new("report.pdf")), None);
        assert_eq!(Format::from_path(Path::new("report")), None);
        assert_eq!(
            Format::extensions(),
            ".txt, .json, .xml (JUnit), .md, .sarif, .html"
        );
    }
}
