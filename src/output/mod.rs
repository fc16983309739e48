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

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Readable diagnostics with the evidence lines
    Human,
    /// The versioned `mglint/report/v2` report
    Json,
    /// JUnit XML (one test case per rule)
    Junit,
    /// Markdown for a support case or bug
    Markdown,
    /// SARIF 2.1.0
    Sarif,
}

impl Format {
    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Human => "txt",
            Format::Json | Format::Sarif => "json",
            Format::Junit => "xml",
            Format::Markdown => "md",
        }
    }
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

/// Renders a report in one format.
pub fn render(report: &Report, format: Format, opts: &RenderOptions) -> String {
    match format {
        Format::Human => human::render(report, opts),
        Format::Json => json::render(report),
        Format::Junit => junit::render(report),
        Format::Markdown => markdown::render_capped(report, opts.max_bytes),
        Format::Sarif => sarif::render(report),
    }
}

/// One cluster's SARIF in the category it has among several (for one file per cluster).
pub fn render_sarif_cluster(label: &str, report: &Report) -> String {
    sarif::render_cluster(label, report)
}

/// Renders the reports of several clusters in one output, each apart: a section per cluster
/// (human, Markdown), one `mglint/report/v2` document per line (JSON Lines),
/// one `<testsuite>` per cluster (JUnit), one run per cluster (SARIF). `label` names the
/// cluster (its ID, else its inputs). One report renders exactly as [`render`].
pub fn render_clusters(
    clusters: &[(String, &Report)],
    format: Format,
    opts: &RenderOptions,
) -> String {
    if let [(_, report)] = clusters {
        return render(report, format, opts);
    }
    match format {
        Format::Human | Format::Markdown => {
            let mut out = String::new();
            if format == Format::Markdown {
                out.push_str(&markdown::contents(clusters));
            }
            for (i, (label, report)) in clusters.iter().enumerate() {
                let head = markdown::cluster_heading(i, clusters.len(), label);
                if format == Format::Markdown {
                    out.push_str(&format!("# {}\n\n", markdown::escape_text(&head)));
                } else {
                    let rule = "=".repeat(head.chars().count().min(opts.width));
                    out.push_str(&format!("{rule}\n{head}\n{rule}\n\n"));
                }
                // The cap is the whole document's: each cluster gets its share.
                let share = RenderOptions {
                    max_bytes: opts.max_bytes / clusters.len(),
                    ..*opts
                };
                out.push_str(&render(report, format, &share));
                out.push('\n');
            }
            out
        }
        // JSON Lines: each cluster's report, whole and on one line, so `jq '.findings[]'`,
        // pandas and duckdb read one shape whatever the number of clusters.
        Format::Json => clusters
            .iter()
            .map(|(_, report)| crate::vocab::text::compact_json(&json::render(report)) + "\n")
            .collect(),
        Format::Junit => junit::render_clusters(clusters),
        Format::Sarif => sarif::render_clusters(clusters),
    }
}
