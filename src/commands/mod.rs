//! One module per verb. Each turns its arguments into library calls: settings resolved once
//! ([`mglint::app::Settings::resolve`]), inputs loaded through the one entry point
//! ([`mglint::app::load`]), every text written through the run's output hygiene. [`Ui`]
//! carries the global `--color` and `--quiet`; [`pick_format`] infers a format from `-o`.

/// `eprintln!` for everything mglint says on standard error: control characters that came
/// from the input (a cluster ID, an object or file name) are shown escaped
/// ([`mglint::vocab::text::show_controls`]), so a hostile dump cannot restyle the terminal.
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("{}", crate::commands::for_stderr(&format!($($arg)*)))
    };
}

mod analyze;
mod batch;
mod fetch;
mod meta;
mod recommend;
mod reconcile;
mod replay;
mod risks;
mod rules;
mod status;
mod summary;
mod timeline;

use crate::cli::{ByExtension, Command, InputArgs, RemoteArgs, RisksSourceArgs, RuleArgs};
use mglint::app::{self, Overrides, Run, Settings};
use mglint::output::{ColorChoice, RenderOptions};
use mglint::redact::{Redactor, SharedRedactor};
use mglint::remote::FetchOptions;
use mglint::risks::catalogue::Catalogue;
use mglint::vocab::text::JsonLayout;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// With `--redact`, the redactor of what mglint says on standard error: the run's once it is
/// loaded, so that a value gets the same placeholder on standard error as in every output.
static STDERR_REDACTOR: Mutex<Option<SharedRedactor>> = Mutex::new(None);

/// `text` as it may go to standard error: secrets masked, identifying values redacted under
/// `--redact`, control characters shown escaped.
pub fn for_stderr(text: &str) -> String {
    let shared = STDERR_REDACTOR
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    let text = match shared {
        Some(r) => r.lock().unwrap_or_else(PoisonError::into_inner).apply(text),
        None => mglint::redact::scrub_secrets(text),
    };
    mglint::vocab::text::show_controls(&text).into_owned()
}

/// The redactor standard error goes through under `--redact` (made on first use).
fn stderr_redactor() -> SharedRedactor {
    STDERR_REDACTOR
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(|| Arc::new(Mutex::new(Redactor::new(Vec::new()))))
        .clone()
}

/// The global flags every verb honours.
#[derive(Debug, Clone, Copy)]
pub struct Ui {
    pub color: ColorChoice,
    /// Nothing on standard output, no notes: errors and the exit code only.
    pub quiet: bool,
}

impl Ui {
    pub fn new(color: ColorChoice, quiet: bool) -> Self {
        Ui { color, quiet }
    }

    /// A remark on standard error, unless `--quiet`.
    pub fn note(&self, msg: &str) {
        if !self.quiet {
            say!("note: {msg}");
        }
    }

    /// How the human view is rendered for standard output.
    pub fn stdout_options(&self) -> RenderOptions {
        RenderOptions::for_stdout(self.color)
    }
}

/// The format to write: `--format` when given, else the one `-o PATH`'s extension names, else
/// `default` for standard output; an extension that names no format is a usage error.
pub fn pick_format<F: ByExtension>(
    explicit: Option<F>,
    path: Option<&Path>,
    default: F,
) -> Result<F, CliError> {
    if let Some(f) = explicit {
        return Ok(f);
    }
    let Some(p) = path.filter(|p| !app::is_stdout(p)) else {
        return Ok(default);
    };
    F::from_path(p).ok_or_else(|| {
        CliError::Usage(format!(
            "cannot tell the format of `{}` from its extension; name it with --format, or use \
             one of {}",
            p.display(),
            F::extensions()
        ))
    })
}

/// Refuses, before any work, outputs that would overwrite an input (or a file inside one),
/// name one file twice, or block (a FIFO): exit 2 with the reason.
fn guard_outputs(inputs: &[String], outputs: &[Option<&Path>]) -> Result<(), CliError> {
    let inputs: Vec<PathBuf> = inputs
        .iter()
        .filter(|i| !i.contains("://") && i.as_str() != "-")
        .map(PathBuf::from)
        .collect();
    let outs: Vec<&Path> = outputs.iter().flatten().copied().collect();
    app::check_destinations(&outs, &inputs)?;
    let mut named = OUTPUTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for o in outs.iter().filter(|o| !app::is_stdout(o)) {
        if !named.iter().any(|(p, _)| p == o) {
            named.push((o.to_path_buf(), false));
        }
    }
    Ok(())
}

/// The files named with `-o` in this run, each with whether it was written, so that a run
/// ending with exit 2 can name every one it did not write ([`unwritten`]): a CI step then
/// knows which artifact is missing, and why, instead of finding out from a later step.
static OUTPUTS: std::sync::Mutex<Vec<(PathBuf, bool)>> = std::sync::Mutex::new(Vec::new());

/// Notes that `path` (a file named with `-o`) was written whole.
fn mark_written(path: Option<&Path>) {
    let Some(path) = path else { return };
    let mut named = OUTPUTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match named.iter_mut().find(|(p, _)| p == path) {
        Some(entry) => entry.1 = true,
        None if !app::is_stdout(path) => named.push((path.to_path_buf(), true)),
        None => {}
    }
}

/// The files named with `-o` that were not written (in the order they were named).
pub fn unwritten() -> Vec<PathBuf> {
    OUTPUTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .iter()
        .filter(|(_, written)| !written)
        .map(|(p, _)| p.clone())
        .collect()
}

/// Ends a run that exits 2: names on stderr each file named with `-o` that was not written.
pub fn name_unwritten() {
    for p in unwritten() {
        say!("error: `{}` was not written", p.display());
    }
}

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
pub fn run(command: Command, ui: &Ui) -> Result<u8, CliError> {
    match command {
        Command::Analyze(a) => analyze::run(a, ui),
        Command::Summary(a) => summary::run(a, ui),
        Command::Timeline(a) => timeline::run(a, ui),
        Command::Reconcile(a) => reconcile::run(a, ui),
        Command::Replay(a) => replay::run(a, ui),
        Command::Rules(a) => rules::list(a, ui),
        Command::Explain(a) => rules::explain(a, ui),
        Command::Batch(a) => batch::run(a, ui),
        Command::Fetch(a) => fetch::run(a, ui),
        Command::Status(a) => status::run(a, ui),
        Command::Recommend(a) => recommend::run(a, ui),
        Command::Risks(a) => risks::run(a, ui),
        Command::Completions(a) => meta::completions(a, ui),
        Command::Man(a) => meta::man(a, ui),
    }
}

/// The fetch options the remote flags give.
fn fetch_options(a: &RemoteArgs) -> FetchOptions {
    let mut o = FetchOptions {
        endpoint: a.gcs_endpoint.clone(),
        offline: a.offline,
        timeout: Duration::from_secs(a.timeout.max(1)),
        retries: a.retries,
        max_object_bytes: a.max_object_bytes.0,
        job_timeout: Duration::from_secs(a.job_timeout.max(1)),
        max_job_bytes: a.max_job_bytes.0,
        max_listed_objects: usize::try_from(a.max_listed_objects).unwrap_or(usize::MAX),
        with_must_gather: a.with_must_gather,
        whole_archives: a.whole_archives,
        ..FetchOptions::default()
    };
    if let Some(d) = &a.cache_dir {
        o.cache_dir = d.clone();
    }
    o
}

/// The settings of a verb that reads inputs: `mglint.toml` (or `--config`) under the flags.
fn settings(input: &InputArgs, rules: Option<&RuleArgs>, ui: &Ui) -> Result<Settings, CliError> {
    settings_with_risks(input, rules, None, ui)
}

/// [`settings`] for a verb that reads the published update risks: `--risks DIR` (else the
/// settings file's `risks-dir`) is read here, once, and each of its edge files that could
/// not be read is named in a warning.
fn settings_with_risks(
    input: &InputArgs,
    rules: Option<&RuleArgs>,
    risks: Option<&RisksSourceArgs>,
    ui: &Ui,
) -> Result<Settings, CliError> {
    let cwd =
        std::env::current_dir().map_err(|e| CliError::Failed(format!("current directory: {e}")))?;
    let mut o = Overrides {
        limits: Some(app::Limits {
            max_file_bytes: input.max_file_bytes.0,
            max_archive_bytes: input.max_archive_bytes.0,
        }),
        remote: Some(fetch_options(&input.remote)),
        threads: input.threads,
        redact: input.redact,
        inputs: input
            .inputs
            .iter()
            .filter(|i| !i.contains("://") && i.as_str() != "-")
            .map(PathBuf::from)
            .collect(),
        ..Overrides::default()
    };
    if let Some(r) = rules {
        o.no_config = r.no_config;
        o.config = r.config.clone();
        o.select = r.select.clone();
        o.ignore = r.ignore.clone();
        o.fail_on = r.fail_on;
        o.known_rules = true;
        o.rule_dirs = r.known.rules.clone();
        o.no_bundled_rules = r.known.no_bundled_rules;
    }
    if let Some(r) = risks {
        o.published_risks = true;
        o.risks = r.risks.clone();
    }
    let s = Settings::resolve(&cwd, o)?;
    if s.redact {
        stderr_redactor();
    }
    warn_risk_files(&s);
    if let Some(n) = s.config_note() {
        ui.note(&n);
    }
    Ok(s)
}

/// The published update risks of a run: its `--risks` checkout, else the bundled snapshot.
fn risks_catalogue(s: &Settings) -> Result<&Catalogue, CliError> {
    match &s.catalogue {
        Some(c) => Ok(c),
        None => Catalogue::bundled_shared().map_err(|e| CliError::Failed(e.to_string())),
    }
}

/// Names on stderr each input file that could not be read (every kind the rules and the
/// timeline read may be in it), with what it seems to hold and why, so that a conclusion
/// drawn without it is never taken for a complete one. Returns how many there were.
fn note_unread(run: &Run, ui: &Ui) -> usize {
    let mut n = 0;
    for an in run.analyses() {
        for u in mglint::bundle::unread_files(&an.bundle) {
            n += 1;
            ui.note(&mglint::vocab::text::show_controls(&format!(
                "could not read {}",
                u.describe()
            )));
        }
    }
    n
}

/// The exit code of a verb whose answer lacks `unread` files: `code`, or 2 (with the reason
/// on stderr) unless `--partial` accepts an incomplete answer.
fn partial_exit(code: u8, unread: usize, partial: bool) -> u8 {
    if unread == 0 || partial {
        return code;
    }
    say!(
        "error: {} could not be read (named above), so the answer is incomplete: pass --partial to accept it",
        mglint::vocab::text::plural(unread, "input file", "input files")
    );
    code.max(2)
}

/// The settings of a verb that lists or explains rules: the config file and the
/// known-issue rule sources, nothing about inputs.
fn rule_settings(
    config: Option<&Path>,
    known: &crate::cli::KnownArgs,
) -> Result<Settings, CliError> {
    let cwd =
        std::env::current_dir().map_err(|e| CliError::Failed(format!("current directory: {e}")))?;
    let o = Overrides {
        config: config.map(Path::to_path_buf),
        known_rules: true,
        rule_dirs: known.rules.clone(),
        no_bundled_rules: known.no_bundled_rules,
        ..Overrides::default()
    };
    Ok(Settings::resolve(&cwd, o)?)
}

/// Published-risk files of a `--risks` checkout that could not be read: each on standard
/// error (the others are judged).
fn warn_risk_files(s: &Settings) {
    for p in &s.risk_file_problems {
        say!("warning: {p}");
    }
}

/// Known-issue rule files that could not be loaded: each on standard error (the run goes on;
/// `IN003` reports them in the results too).
fn warn_rule_files(s: &Settings) {
    for p in &s.known.problems {
        say!("warning: {}", p.one_line());
    }
}

/// Starts the worker pool and loads the inputs.
fn load(input: &InputArgs, settings: &Settings, ui: &Ui) -> Result<Run, CliError> {
    app::init_threads(settings.threads)?;
    let mut run = app::load(&input.inputs, settings)?;
    if settings.redact {
        run.share_redactor(stderr_redactor());
    }
    for n in &run.notes {
        ui.note(n);
    }
    for w in &run.warnings {
        say!("warning: {w}");
    }
    Ok(run)
}

/// Writes a text of the run (secrets masked, redacted when asked) to `path`, or to standard
/// output unless `--quiet`.
fn emit(run: &Run, text: &str, path: Option<&Path>, ui: &Ui) -> Result<(), CliError> {
    if path.is_none_or(app::is_stdout) && ui.quiet {
        return Ok(());
    }
    app::write_text(&run.finish(text), path)?;
    mark_written(path);
    Ok(())
}

/// A text view for standard output, wrapped to the width `COLUMNS` or the terminal gives
/// ([`mglint::output::term::wrap_lines`]); a file, or a pipe without `COLUMNS`, gets its
/// lines whole.
fn for_terminal(text: String, path: Option<&Path>) -> String {
    match (
        path.is_none_or(app::is_stdout),
        mglint::output::term::known_stdout_width(),
    ) {
        (true, Some(w)) => mglint::output::term::wrap_lines(&text, w),
        _ => text,
    }
}

/// [`app::write_text`] for texts that belong to no run, honouring `--quiet` for stdout.
fn write_plain(text: &str, path: Option<&Path>, ui: &Ui) -> Result<(), CliError> {
    if path.is_none_or(app::is_stdout) && ui.quiet {
        return Ok(());
    }
    app::write_text(text, path)?;
    mark_written(path);
    Ok(())
}

/// Reports inputs that could not be opened; they make the exit code 2.
/// Ends a verb: names every input that could not be read and gives the exit code.
///
/// The run is not freed: the process exits next and the system takes its memory back whole,
/// where freeing a large dump's records, messages and evidence piece by piece took a tenth
/// of a second.
fn finish(run: Run, code: u8) -> u8 {
    for e in run.input_errors() {
        say!("error: {e}");
    }
    let code = run.exit_code(code);
    std::mem::forget(run);
    code
}

/// A text per cluster, joined: one cluster's text as it is; several under a heading each
/// (text), or as JSON Lines, each cluster's document whole on one line (JSON): every document
/// carries its `cluster`, so the shape is the same whatever the number of clusters.
pub(crate) fn per_cluster(
    run: &mglint::Run,
    json: bool,
    render: impl Fn(&mglint::app::Analysis, JsonLayout) -> String,
) -> String {
    let all = run.analyses();
    if let [one] = all {
        return render(one, JsonLayout::Pretty);
    }
    if json {
        return all
            .iter()
            .map(|an| render(an, JsonLayout::Line) + "\n")
            .collect();
    }
    let mut out = String::new();
    for (i, an) in all.iter().enumerate() {
        let head = format!(
            "Cluster {} of {}: {}",
            i + 1,
            all.len(),
            cluster_label(&an.bundle)
        );
        let rule = "=".repeat(head.chars().count());
        out.push_str(&format!(
            "{rule}\n{head}\n{rule}\n\n{}\n",
            render(an, JsonLayout::Pretty)
        ));
    }
    out
}

/// The JSON document of a cluster that could not be assessed: its schema, its cluster and
/// the reason (the `error` form each schema allows).
pub(crate) fn error_doc(
    schema: &str,
    b: &mglint::bundle::Bundle,
    error: &str,
    layout: JsonLayout,
) -> String {
    let doc = serde_json::json!({"schema": schema, "cluster": b.identity(), "error": error});
    layout.document(&doc)
}

/// How a cluster is named when a run has several: its ID (with the hosted cluster's name for
/// a HyperShift hosted cluster's dump, `hostedcluster-<name>/`), else its inputs; control
/// characters shown escaped (the ID is the dump's text). Markdown and HTML escape it further.
pub(crate) fn cluster_label(b: &mglint::bundle::Bundle) -> String {
    mglint::vocab::escape::one_line(&raw_cluster_label(b)).into_owned()
}

fn raw_cluster_label(b: &mglint::bundle::Bundle) -> String {
    let hosted = b.inputs.iter().find_map(|i| {
        let last = i.name.trim_end_matches('/').rsplit('/').next()?;
        last.strip_prefix("hostedcluster-")
    });
    match b.cluster_version().map(|cv| cv.spec.cluster_id.as_str()) {
        Some(id) if !id.is_empty() => match hosted {
            Some(name) => format!("hosted cluster {name} ({id})"),
            None => id.to_string(),
        },
        _ => b
            .inputs
            .iter()
            .map(|i| i.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    }
}
