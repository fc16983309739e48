//! One module per verb. Each turns its arguments into library calls: settings resolved once
//! ([`mglint::app::Settings::resolve`]), inputs loaded through the one entry point
//! ([`mglint::app::load`]), every text written through the run's output hygiene.

mod analyze;
mod batch;
mod fetch;
mod reconcile;
mod replay;
mod rules;
mod status;
mod summary;
mod timeline;

use crate::cli::{Command, InputArgs, RemoteArgs, RuleArgs};
use mglint::app::{self, Overrides, Run, Settings};
use mglint::remote::FetchOptions;
use std::path::Path;
use std::time::Duration;

/// Why a command failed before it could report anything (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Settings(#[from] app::SettingsError),
    #[error(transparent)]
    Run(#[from] app::RunError),
    #[error(transparent)]
    Output(#[from] app::OutputError),
    #[error(transparent)]
    Threads(#[from] app::ThreadError),
    #[error("{0}")]
    Failed(String),
}

/// Runs one verb; the exit code on success (0 or 1), `Err` for exit 2.
pub fn run(command: Command) -> Result<u8, CliError> {
    match command {
        Command::Analyze(a) => analyze::run(a),
        Command::Summary(a) => summary::run(a),
        Command::Timeline(a) => timeline::run(a),
        Command::Reconcile(a) => reconcile::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Rules(a) => rules::list(a),
        Command::Explain(a) => rules::explain(a),
        Command::Batch(a) => batch::run(a),
        Command::Fetch(a) => fetch::run(a),
        Command::Status(a) => status::run(a),
    }
}

/// The fetch options the remote flags give.
fn fetch_options(a: &RemoteArgs) -> FetchOptions {
    let mut o = FetchOptions {
        endpoint: a.gcs_endpoint.clone(),
        offline: a.offline,
        timeout: Duration::from_secs(a.timeout.max(1)),
        retries: a.retries,
        max_object_bytes: a.max_object_bytes,
        with_must_gather: a.with_must_gather,
        ..FetchOptions::default()
    };
    if let Some(d) = &a.cache_dir {
        o.cache_dir = d.clone();
    }
    o
}

/// The settings of a verb that reads inputs: `mglint.toml` (or `--config`) under the flags.
fn settings(input: &InputArgs, rules: Option<&RuleArgs>) -> Result<Settings, CliError> {
    let cwd =
        std::env::current_dir().map_err(|e| CliError::Failed(format!("current directory: {e}")))?;
    let mut o = Overrides {
        limits: Some(app::Limits {
            max_file_bytes: input.max_file_bytes,
            max_archive_bytes: input.max_archive_bytes,
        }),
        remote: Some(fetch_options(&input.remote)),
        threads: input.threads,
        redact: input.redact,
        ..Overrides::default()
    };
    if let Some(r) = rules {
        o.config = r.config.clone();
        o.select = r.select.clone();
        o.ignore = r.ignore.clone();
        o.fail_on = r.fail_on.map(Into::into);
    }
    Ok(Settings::resolve(&cwd, o)?)
}

/// Starts the worker pool and loads the inputs.
fn load(input: &InputArgs, settings: &Settings) -> Result<Run, CliError> {
    app::init_threads(settings.threads)?;
    let run = app::load(&input.inputs, settings)?;
    for n in &run.notes {
        eprintln!("note: {n}");
    }
    for w in &run.warnings {
        eprintln!("warning: {w}");
    }
    Ok(run)
}

/// Writes a text of the run (secrets masked, redacted when asked) to `path` or stdout.
fn emit(run: &Run, text: &str, path: Option<&Path>) -> Result<(), CliError> {
    Ok(app::write_text(&run.finish(text), path)?)
}

/// Reports inputs that could not be opened; they make the exit code 2.
fn finish(run: &Run, code: u8) -> u8 {
    for e in run.input_errors() {
        eprintln!("error: {e}");
    }
    run.exit_code(code)
}
