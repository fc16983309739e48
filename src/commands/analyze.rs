//! `mglint analyze`: the main job. Writes the report in one or several formats; exits 1 when
//! a finding reaches `--fail-on` (unless `--exit-zero`), 2 when an input could not be read.

use super::{CliError, emit, finish, load, settings};
use crate::cli::{AnalyzeArgs, AnalyzeFormat};
use mglint::output::{RenderOptions, html};
use std::path::PathBuf;

pub fn run(a: AnalyzeArgs) -> Result<u8, CliError> {
    let outs = outputs(&a)?;
    let s = settings(&a.input, Some(&a.rules))?;
    let run = load(&a.input, &s)?;
    let analysis = run.analysis();
    let report = analysis.report();
    for (format, path) in outs {
        let text = match format {
            AnalyzeFormat::Html => {
                let meta = html::HtmlMeta::from_bundle(&analysis.bundle);
                html::render_html(report, analysis.timeline(), &meta)
            }
            format => {
                let opts = if path.is_none() {
                    RenderOptions::for_stdout()
                } else {
                    RenderOptions::default()
                };
                mglint::output::render(report, format.into(), &opts)
            }
        };
        emit(&run, &text, path.as_deref())?;
    }
    let code = if a.exit_zero { 0 } else { report.exit_code() };
    Ok(finish(&run, code))
}

/// `--output` values: `FORMAT=PATH` or a bare `PATH` in the `--format` format.
fn outputs(a: &AnalyzeArgs) -> Result<Vec<(AnalyzeFormat, Option<PathBuf>)>, CliError> {
    if a.output.is_empty() {
        return Ok(vec![(a.format, None)]);
    }
    Ok(a.output
        .iter()
        .map(|o| match o.split_once('=') {
            Some((f, p)) => match AnalyzeFormat::parse(f) {
                Some(format) => (format, Some(PathBuf::from(p))),
                None => (a.format, Some(PathBuf::from(o))),
            },
            None => (a.format, Some(PathBuf::from(o))),
        })
        .collect())
}
