//! `mglint analyze`: the main job. Writes the report in one or several formats (each `-o`
//! path's format from `FORMAT=`, else `--format`, else its extension); exits 1 when a finding
//! reaches `--fail-on` (unless `--exit-zero`), 2 when an input could not be read, in which
//! case the JUnit outputs are still written, failing `[mglint] inputs can be read`.

use super::{CliError, Ui, emit, finish, load, pick_format, settings};
use crate::cli::{AnalyzeArgs, AnalyzeFormat};
use mglint::app::{RunError, write_text};
use mglint::ingest::IngestError;
use mglint::output::{RenderOptions, html, junit};
use mglint::rules::Report;
use std::path::PathBuf;

pub fn run(a: AnalyzeArgs, ui: &Ui) -> Result<u8, CliError> {
    let outs = outputs(&a)?;
    let s = settings(&a.input, Some(&a.rules))?;
    let run = match load(&a.input, &s, ui) {
        Ok(run) => run,
        Err(CliError::Run(e)) => {
            junit_for_unreadable(&outs, &e, s.selection.fail_on, ui)?;
            return Err(CliError::Run(e));
        }
        Err(e) => return Err(e),
    };
    let analysis = run.analysis();
    let report = analysis.report();
    for (format, path) in outs {
        let text = match format {
            AnalyzeFormat::Html => {
                let meta = html::HtmlMeta::from_bundle(&analysis.bundle);
                html::render_html(report, analysis.timeline(), &meta)
            }
            AnalyzeFormat::Junit => junit::render_with_input_errors(report, run.input_errors()),
            format => {
                let opts = if path.is_none() {
                    ui.stdout_options()
                } else {
                    RenderOptions::default()
                };
                mglint::output::render(report, format.into(), &opts)
            }
        };
        emit(&run, &text, path.as_deref(), ui)?;
    }
    let code = if a.exit_zero { 0 } else { report.exit_code() };
    Ok(finish(&run, code))
}

/// When nothing could be read: every JUnit output still gets a document, whose inputs case
/// fails with the reasons, so a CI dashboard shows why instead of a missing file.
fn junit_for_unreadable(
    outs: &[(AnalyzeFormat, Option<PathBuf>)],
    e: &RunError,
    fail_on: mglint::rules::Severity,
    ui: &Ui,
) -> Result<(), CliError> {
    let reasons: Vec<String> = match e {
        RunError::Inputs(r) | RunError::Ingest(IngestError::NothingFound(r)) => r.clone(),
        other => vec![other.to_string()],
    };
    let reasons = if reasons.is_empty() {
        vec![e.to_string()]
    } else {
        reasons
    };
    let report = Report {
        fail_on,
        ..Report::empty()
    };
    for (format, path) in outs {
        if *format != AnalyzeFormat::Junit || (path.is_none() && ui.quiet) {
            continue;
        }
        let xml = junit::render_with_input_errors(&report, &reasons);
        write_text(&mglint::redact::scrub_secrets(&xml), path.as_deref())?;
    }
    Ok(())
}

/// `--output` values: `FORMAT=PATH`, or a bare `PATH` in the `--format` format or the one
/// its extension names.
fn outputs(a: &AnalyzeArgs) -> Result<Vec<(AnalyzeFormat, Option<PathBuf>)>, CliError> {
    if a.output.is_empty() {
        return Ok(vec![(a.format.unwrap_or(AnalyzeFormat::Human), None)]);
    }
    a.output
        .iter()
        .map(|o| {
            if let Some((f, p)) = o.split_once('=')
                && let Some(format) = AnalyzeFormat::parse(f)
            {
                return Ok((format, Some(PathBuf::from(p))));
            }
            let path = PathBuf::from(o);
            let format = pick_format(a.format, Some(&path), AnalyzeFormat::Human)?;
            Ok((format, Some(path)))
        })
        .collect()
}
