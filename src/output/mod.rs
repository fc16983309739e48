//! Report emitters, one file per format, all built from the same [`Report`]: human (miette,
//! labels pointing into the YAML or log line), JSON (`mglint/report/v1`), JUnit XML for Prow,
//! Markdown for support cases, and SARIF 2.1.0. Output is deterministic: the same report
//! gives byte-identical text.

mod human;
mod json;
mod junit;
mod markdown;
mod sarif;
mod xml;

pub mod html;

use crate::rules::Report;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Readable diagnostics with the evidence lines
    Human,
    /// The versioned `mglint/report/v1` report
    Json,
    /// JUnit XML (one test case per rule and object)
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

impl RenderOptions {
    /// For standard output: colour only on a terminal and without `NO_COLOR`; the terminal's
    /// width from `COLUMNS` when set.
    pub fn for_stdout() -> Self {
        use std::io::IsTerminal;
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .filter(|w| *w >= 40)
            .unwrap_or(100);
        RenderOptions {
            color: !no_color && std::io::stdout().is_terminal(),
            width,
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
