//! Report emitters, one file per format, all built from the same [`Report`]: human (an
//! overview, then each finding with the evidence lines it points into, then the counts), JSON
//! (`mglint/report/v1`), JUnit XML for Prow, Markdown for support cases, and SARIF 2.1.0.
//! Output is deterministic: the same report gives byte-identical text. [`term`] decides colour
//! and width for a terminal; [`paths`] shows evidence paths relative to each input's root.

mod human;
mod json;
pub mod junit;
mod markdown;
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
    /// The versioned `mglint/report/v1` report
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
}

impl Default for RenderOptions {
    /// No colour, 100 columns (what tests and files get).
    fn default() -> Self {
        RenderOptions {
            color: false,
            width: 100,
        }
    }
}

/// Renders a report in one format.
pub fn render(report: &Report, format: Format, opts: &RenderOptions) -> String {
    match format {
        Format::Human => human::render(report, opts),
        Format::Json => json::render(report),
        Format::Junit => junit::render(report),
        Format::Markdown => markdown::render(report),
        Format::Sarif => sarif::render(report),
    }
}
