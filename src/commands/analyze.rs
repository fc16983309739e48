//! `mglint analyze`: the main job. Writes the report in one or several formats (each `-o`
//! path's format from `FORMAT=`, else `--format`, else its extension); exits 1 when a finding
//! reaches `--fail-on` (unless `--exit-zero`), 2 when an input (or, without `--partial`, a
//! file inside one) could not be read: the reports are still written, incomplete and saying
//! so, and JUnit fails `[mglint] inputs can be read`.

use super::{CliError, Ui, emit, finish, load, pick_format, settings_with_risks};
use crate::cli::AnalyzeArgs;
use mglint::app::{RunError, write_text};
use mglint::ingest::IngestError;
use mglint::output::{Format, RenderOptions, html, render_clusters};
use std::path::PathBuf;

pub fn run(a: AnalyzeArgs, ui: &Ui) -> Result<u8, CliError> {
    let outs = outputs(&a)?;
    let paths: Vec<Option<&std::path::Path>> = outs.iter().map(|(_, p)| p.as_deref()).collect();
    super::guard_outputs(&a.input.inputs, &paths)?;
    let s = settings_with_risks(&a.input, Some(&a.rules), Some(&a.risks), ui)?;
    if !ui.quiet {
        super::warn_rule_files(&s);
    }
    let run = match load(&a.input, &s, ui) {
        Ok(run) => run,
        Err(CliError::Run(e)) => {
            reports_for_unreadable(&outs, &e, &s, ui)?;
            return Err(CliError::Run(e));
        }
        Err(e) => return Err(e),
    };
    let unread = super::note_unread(&run, ui);
    // One report per cluster (inputs of different clusters are never mixed), each with its
    // timeline and header for HTML.
    let labels: Vec<String> = run
        .analyses()
        .iter()
        .map(|an| super::cluster_label(&an.bundle))
        .collect();
    let html_wanted = outs.iter().any(|(f, _)| *f == Format::Html);
    let metas: Vec<html::HtmlMeta> = run
        .analyses()
        .iter()
        .map(|an| {
            if html_wanted {
                html::HtmlMeta::from_bundle(&an.bundle, an.plan())
            } else {
                html::HtmlMeta::default()
            }
        })
        .collect();
    let pages: Vec<html::ClusterPage<'_>> = run
        .analyses()
        .iter()
        .zip(&labels)
        .zip(&metas)
        .map(|((an, label), meta)| html::ClusterPage {
            label,
            report: an.report(),
            timeline: an.timeline(),
            // The condition stretches only the HTML chart draws.
            stretches: if html_wanted {
                an.stretches()
            } else {
                mglint::timeline::ConditionStretches::NONE
            },
            meta,
        })
        .collect();
    // Every output that can be written is written; each that cannot is named (exit 2).
    let mut failed = 0;
    let mut write = |text: &str, path: Option<&std::path::Path>| {
        if let Err(e) = emit(&run, text, path, ui) {
            say!("error: {e}");
            failed += 1;
        }
    };
    for (format, path) in outs {
        let mut opts = if path.as_deref().is_none_or(mglint::app::is_stdout) {
            ui.stdout_options()
        } else {
            RenderOptions::default()
        };
        opts.max_bytes = a.max_bytes;
        if format == Format::Sarif && pages.len() > MAX_SARIF_RUNS {
            if let Some(p) = path.as_deref().filter(|p| !mglint::app::is_stdout(p)) {
                // GitHub refuses a file of more than 20 runs: one file per cluster, named.
                let names: Vec<PathBuf> = (0..pages.len()).map(|i| numbered(p, i)).collect();
                super::guard_outputs(
                    &a.input.inputs,
                    &names.iter().map(|n| Some(n.as_path())).collect::<Vec<_>>(),
                )?;
                for (c, name) in pages.iter().zip(&names) {
                    write(
                        &mglint::output::render_sarif_cluster(c.label, c.report),
                        Some(name),
                    );
                }
                ui.note(&format!(
                    "{} clusters: GitHub takes at most {MAX_SARIF_RUNS} runs per SARIF file, so each cluster has its own: {} … {}",
                    pages.len(),
                    names[0].display(),
                    names[names.len() - 1].display()
                ));
                continue;
            }
            say!(
                "warning: {} clusters in one SARIF document: GitHub code scanning refuses more than {MAX_SARIF_RUNS} runs per file (give -o sarif=PATH for one file per cluster)",
                pages.len()
            );
        }
        let text = render_clusters(&pages, format, &opts);
        write(&text, path.as_deref());
    }
    let worst = pages
        .iter()
        .map(|p| p.report.exit_code())
        .max()
        .unwrap_or(0);
    let code = if a.exit_zero { 0 } else { worst };
    drop(pages);
    let code = finish(run, code);
    let code = super::partial_exit(code, unread, a.partial);
    Ok(if failed > 0 { 2 } else { code })
}

/// The most runs GitHub code scanning takes in one SARIF file.
const MAX_SARIF_RUNS: usize = 20;

/// `report.sarif` as `report.1.sarif`, `report.2.sarif`, … (one file per cluster).
fn numbered(p: &std::path::Path, i: usize) -> PathBuf {
    let stem = p
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let name = match p.extension() {
        Some(ext) => format!("{stem}.{}.{}", i + 1, ext.to_string_lossy()),
        None => format!("{stem}.{}", i + 1),
    };
    p.with_file_name(name)
}

/// When nothing could be read: every machine-read output (JSON, JUnit, SARIF, Markdown) is
/// still written, from a report in which every selected rule is skipped with the reason, so a
/// CI dashboard keeps every rule's test and shows why none ran (JUnit's inputs case fails,
/// SARIF says `executionSuccessful: false`) instead of a missing file. The human view and
/// HTML are not written: the error on stderr is the human answer.
fn reports_for_unreadable(
    outs: &[(Format, Option<PathBuf>)],
    e: &RunError,
    s: &mglint::app::Settings,
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
    let mut report = mglint::rules::not_run(&s.selection, &s.known, "no input could be read");
    report.input_errors = reasons;
    for (format, path) in outs {
        if matches!(format, Format::Human | Format::Html) || (path.is_none() && ui.quiet) {
            continue;
        }
        let text = mglint::output::render(&report, *format, &RenderOptions::default());
        write_text(&mglint::redact::scrub_secrets(&text), path.as_deref())?;
        super::mark_written(path.as_deref());
    }
    Ok(())
}

/// `--output` values: `FORMAT=PATH`, or a bare `PATH` in the `--format` format or the one
/// its extension names.
fn outputs(a: &AnalyzeArgs) -> Result<Vec<(Format, Option<PathBuf>)>, CliError> {
    if a.output.is_empty() {
        return Ok(vec![(a.format.unwrap_or(Format::Human), None)]);
    }
    a.output
        .iter()
        .map(|o| {
            if let Some((f, p)) = o.split_once('=')
                && let Some(format) = Format::parse(f)
            {
                return Ok((format, Some(PathBuf::from(p))));
            }
            let path = PathBuf::from(o);
            let format = pick_format(a.format, Some(&path), Format::Human)?;
            Ok((format, Some(path)))
        })
        .collect()
}
