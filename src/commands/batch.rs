//! `mglint batch`: many inputs, one JSON Lines row each (or a line of text, `--format text`).
//! Exits 0 when every selected input was analysed, 1 when some could not be (an `error` row:
//! without `--partial`, also a cluster with files that could not be read) or, with
//! `--fail-on` given, when a row has findings at or above it, 2 when none could be or the
//! batch itself could not run.

use super::{CliError, Ui, fetch_options};
use crate::cli::{BatchArgs, BatchFormat};
use mglint::app::{self, Overrides, Settings};
use mglint::batch::{BatchOptions, RowFormat, parse_list, run_file, run_to};
use std::path::Path;

pub fn run(a: BatchArgs, ui: &Ui) -> Result<u8, CliError> {
    use std::io::IsTerminal;
    let format = row_format(a.format, a.output.as_deref());
    if a.resume && format == RowFormat::Text {
        return Err(CliError::Usage(
            "--resume reads the JSON rows of --output back: it cannot be used with --format text"
                .to_string(),
        ));
    }
    let cwd =
        std::env::current_dir().map_err(|e| CliError::Failed(format!("current directory: {e}")))?;
    let settings = Settings::resolve(
        &cwd,
        Overrides {
            config: a.rules.config.clone(),
            select: a.rules.select.clone(),
            ignore: a.rules.ignore.clone(),
            fail_on: a.rules.fail_on,
            limits: Some(app::Limits {
                max_file_bytes: a.max_file_bytes.0,
                max_archive_bytes: a.max_archive_bytes.0,
            }),
            remote: Some(fetch_options(&a.remote)),
            threads: a.threads,
            redact: a.redact,
            known_rules: true,
            rule_dirs: a.rules.known.rules.clone(),
            no_bundled_rules: a.rules.known.no_bundled_rules,
            no_config: a.rules.no_config,
            // CV025 judges the checkout's risks (`--risks`, else `risks-dir`), as `analyze`.
            published_risks: true,
            risks: a.risks.risks.clone(),
            inputs: a
                .inputs
                .iter()
                .filter(|i| !i.contains("://") && i.as_str() != "-")
                .map(std::path::PathBuf::from)
                .collect(),
        },
    )?;
    if let Some(n) = settings.config_note() {
        ui.note(&n);
    }
    super::warn_rule_files(&settings);
    super::warn_risk_files(&settings);
    let mut inputs = a.inputs.clone();
    if let Some(f) = &a.from {
        let text = if f.as_os_str() == "-" {
            std::io::read_to_string(std::io::stdin())
                .map_err(|e| CliError::Failed(format!("cannot read standard input: {e}")))?
        } else {
            mglint::vocab::bounded::read_to_string(f, mglint::vocab::bounded::SCENARIO_BYTES)
                .map_err(|e| CliError::Failed(format!("cannot read `{}`: {e}", f.display())))?
        };
        inputs.extend(parse_list(&text));
    }
    let mut named = inputs.clone();
    if let Some(f) = &a.from {
        named.push(f.to_string_lossy().into_owned());
    }
    super::guard_outputs(&named, &[a.output.as_deref()])?;
    if inputs.is_empty() {
        return Err(CliError::Usage(
            "no inputs: name them as arguments or in a file with `--from`".to_string(),
        ));
    }
    let opts = BatchOptions {
        settings,
        shard: a.shard,
        progress: !a.no_progress && !ui.quiet && std::io::stderr().is_terminal(),
        redactor: a.redact.then(super::stderr_redactor),
        partial: a.partial,
        format,
        // Text rows on standard output wrap to the terminal; a file keeps lines whole.
        width: a
            .output
            .is_none()
            .then(mglint::output::term::known_stdout_width)
            .flatten(),
    };
    let run = match &a.output {
        Some(p) => run_file(&inputs, &opts, p, a.resume),
        None if ui.quiet => run_to(&inputs, &opts, &Default::default(), &mut std::io::sink()),
        None => run_to(&inputs, &opts, &Default::default(), &mut std::io::stdout()),
    }
    .map_err(|e| CliError::Failed(e.to_string()))?;
    super::mark_written(a.output.as_deref());
    for i in &run.unsplit {
        say!(
            "warning: `{i}` holds clusters that cannot be told apart inside it: its row is an error (extract it and give each must-gather on its own)"
        );
    }
    if run.skipped > 0 {
        ui.note(&format!(
            "{} already had a row; skipped",
            mglint::vocab::text::plural(run.skipped, "input", "inputs")
        ));
    }
    if a.summary && !run.truncated && !ui.quiet {
        let table = run.summary.render();
        match a.output {
            Some(_) => app::write_text(&table, None)?,
            None => eprint!("{}", super::for_stderr(&table)),
        }
    }
    Ok(exit_code(
        run.rows,
        run.error_rows,
        run.finding_rows > 0 && a.rules.fail_on.is_some(),
    ))
}

/// The rows' format: `--format`, else text for a `-o` named `.txt` or `.text`, else JSON
/// Lines (whatever else `-o` is named: `rows.jsonl`, `rows.ndjson`, `rows`).
fn row_format(explicit: Option<BatchFormat>, output: Option<&Path>) -> RowFormat {
    let by_name = || {
        let ext = output?.extension()?.to_str()?.to_ascii_lowercase();
        matches!(ext.as_str(), "txt" | "text").then_some(BatchFormat::Text)
    };
    match explicit.or_else(by_name) {
        Some(BatchFormat::Text) => RowFormat::Text,
        Some(BatchFormat::Json) | None => RowFormat::Json,
    }
}

/// 2 when every analysed input errored, 1 when some did or a finding reached an explicit
/// `--fail-on`, else 0.
fn exit_code(analysed: usize, errors: usize, failed: bool) -> u8 {
    if analysed > 0 && errors == analysed {
        2
    } else if errors > 0 || failed {
        1
    } else {
        0
    }
}
