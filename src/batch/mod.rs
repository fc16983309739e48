//! `mglint batch`: many inputs (paths and URLs), each analysed as its own bundle, in
//! parallel on a rayon pool, one JSON Lines row per cluster of each input (`mglint/batch/v2`,
//! see [`Row`]; an input holding several clusters has a row for each, as `analyze` reports
//! them, and one that holds clusters it cannot tell apart is an error row) written in input
//! order, and a summary. `--shard K/N` keeps the inputs whose stable hash
//! falls in shard K (see [`Shard::contains`]); `--resume` skips inputs that already have a
//! row in the output file and appends. One bad input is an error row, never the end of the
//! batch; a panic while analysing an input is caught and becomes an error row too. A cluster
//! whose input had files that could not be read is an error row too, as `analyze` exits 2 on
//! it, unless [`BatchOptions::partial`] accepts the incomplete answer. Rows are JSON Lines,
//! or with [`RowFormat::Text`] a line for people each ([`Row::render_text`]).
//!
//! ```no_run
//! use mglint::batch::{BatchOptions, run_to};
//! let inputs = vec!["jobs/1".to_string(), "gs://bucket/logs/job/2".to_string()];
//! let mut out = Vec::new();
//! let run = run_to(&inputs, &BatchOptions::default(), &Default::default(), &mut out).unwrap();
//! eprint!("{}", run.summary.render());
//! ```

mod list;
mod row;
mod sink;
mod summary;
mod text;

pub use list::{Shard, fnv1a, parse_list, select};
pub use row::{
    CodeCount as RowCodeCount, KindCount, Outcome, Row, SCHEMA, SeverityCounts, UpdateRow,
};
pub use sink::{Previous, read_previous};
pub use summary::{BatchSummary, CodeCount, SummaryBuilder, TOP_CODES};

use crate::app::{RunError, Settings};
use crate::ingest::IngestError;
use crate::redact::Redactor;
use crate::remote::{Fetcher, GcsLocation, is_remote};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sink::Ordered;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Why a batch could not run (exit 2); one bad input is never this, it is an error row.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error("cannot start worker threads: {0}")]
    Threads(String),
    #[error("cannot read `{path}`: {source}")]
    Read {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot open `{path}`: {source}")]
    Open {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot cut the torn last line of `{path}`: {source}")]
    Truncate {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write rows: {0}")]
    Write(#[source] std::io::Error),
}

/// How to run a batch.
#[derive(Debug, Clone, Default)]
pub struct BatchOptions {
    /// What every input is analysed with: rules, limits, remote fetching (one [`Fetcher`]
    /// serves the whole batch), redaction, and `threads` (the batch's worker pool; `None`
    /// means all cores, or `RAYON_NUM_THREADS`).
    pub settings: Settings,
    pub shard: Option<Shard>,
    /// Draw a progress bar on standard error (indicatif hides it when that is not a terminal).
    pub progress: bool,
    /// With `redact`: the placeholder mapping to use (shared with standard error); a new
    /// one when `None`.
    pub redactor: Option<crate::redact::SharedRedactor>,
    /// Accept an incomplete answer (`--partial`): a cluster whose input had files that
    /// could not be read keeps its outcome (the files named in its `errors`); without it
    /// its outcome is `error`, as `analyze` exits 2 on it.
    pub partial: bool,
    /// How rows are written.
    pub format: RowFormat,
    /// With [`RowFormat::Text`]: the width to wrap lines at (`None`: lines whole).
    pub width: Option<usize>,
}

/// How a batch writes its rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RowFormat {
    /// One `mglint/batch/v2` JSON Lines row per cluster (what `--resume` reads back).
    #[default]
    Json,
    /// A line for people per cluster, then its errors ([`Row::render_text`]).
    Text,
}

/// What a batch did.
#[derive(Debug, Clone)]
pub struct BatchRun {
    /// Inputs in this shard (all inputs without `--shard`).
    pub selected: usize,
    /// Selected inputs skipped because they already had a row (`--resume`).
    pub skipped: usize,
    /// Rows made by this run (written unless the output stopped early); the rows themselves
    /// are not kept, so that a batch's memory does not grow with its length.
    pub rows: usize,
    /// Of these, rows whose outcome is an error, and rows with findings.
    pub error_rows: usize,
    pub finding_rows: usize,
    /// Over the selected inputs: the earlier rows that were kept plus this run's rows.
    pub summary: BatchSummary,
    /// Output stopped early because the reader went away (closed pipe).
    pub truncated: bool,
    /// Inputs of this run holding clusters that could not be told apart (each an error
    /// row), in input order.
    pub unsplit: Vec<String>,
}

/// A URL input on this machine: its local path, the objects that could not be downloaded,
/// and the bytes fetched (for a CI job).
type Fetched = (String, Vec<crate::remote::FailedObject>, Option<u64>);

/// Everything the workers share.
struct Ctx<'a> {
    opts: &'a BatchOptions,
    /// With `redact`: one placeholder mapping for every row of the batch.
    redactor: Option<crate::redact::SharedRedactor>,
    /// Built on first use; `Err` holds why no client could be made.
    fetcher: std::sync::OnceLock<Result<Fetcher, String>>,
    /// One lock per job location, so that repeated URLs are fetched once, not concurrently.
    fetch_locks: Mutex<HashMap<String, Arc<Mutex<()>>>>,
    /// Inputs holding clusters that could not be told apart, with their index.
    unsplit: Mutex<Vec<(usize, String)>>,
}

impl Ctx<'_> {
    fn fetcher(&self) -> Result<&Fetcher, String> {
        self.fetcher
            .get_or_init(|| {
                Fetcher::new(self.opts.settings.remote.clone()).map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Runs `f` holding the lock of `key`; the lock is forgotten once no other worker holds
    /// or waits for it, so that the locks kept do not grow with the batch.
    fn locked<T>(&self, key: &str, f: impl FnOnce() -> T) -> T {
        let lock = {
            let mut m = self
                .fetch_locks
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            m.entry(key.to_string()).or_default().clone()
        };
        let out = {
            let _held = lock.lock().unwrap_or_else(PoisonError::into_inner);
            f()
        };
        let mut m = self
            .fetch_locks
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        // The map's and this worker's: nobody else has it.
        if Arc::strong_count(&lock) == 2 {
            m.remove(key);
        }
        out
    }

    /// The local directory of a URL input, fetched into the cache when needed, with the
    /// objects of a job that could not be downloaded.
    fn fetch(&self, url: &str) -> Result<Fetched, String> {
        if GcsLocation::parse(url).is_err() && crate::remote::is_http_url(url) {
            // A link to one archive or file; the download is renamed into place whole, so
            // two rows naming it at once cannot see half a file.
            return self.locked(url, || {
                let opts = self.fetcher()?.options().clone();
                crate::remote::fetch_url(url, &opts)
                    .map(|p| (p.to_string_lossy().to_string(), Vec::new(), None))
                    .map_err(|e| e.to_string())
            });
        }
        let key = GcsLocation::parse(url).map_err(|e| e.to_string())?.gs_url();
        let r = self.locked(&key, || {
            self.fetcher()?.fetch(url).map_err(|e| e.to_string())
        })?;
        Ok((
            r.local_dir.to_string_lossy().to_string(),
            r.failed,
            Some(r.fetched),
        ))
    }

    /// The rows of one input: one per cluster it holds (in the order `analyze` reports
    /// them), or one error row.
    fn analyse(&self, index: usize, input: &str) -> Vec<Row> {
        let (local, lost, fetched_bytes) = if is_remote(input) {
            match self.fetch(input) {
                Ok(fetched) => fetched,
                Err(e) => return vec![Row::error(index, input, vec![e])],
            }
        } else {
            (input.to_string(), Vec::new(), None)
        };
        let named = [(local, input.to_string())];
        let mut run = match crate::app::load_named(&named, &self.opts.settings, Vec::new()) {
            Ok(r) => r,
            Err(RunError::Ingest(IngestError::NothingFound(reasons))) if !reasons.is_empty() => {
                let mut errors = vec!["nothing recognisable found".to_string()];
                errors.extend(reasons);
                return vec![Row::error(index, input, errors)];
            }
            Err(e) => return vec![Row::error(index, input, vec![e.to_string()])],
        };
        run.add_failed_downloads(input, &lost);
        let clusters = run.analyses().len();
        if !run.unsplit.is_empty() {
            self.unsplit
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push((index, input.to_string()));
        }
        run.analyses()
            .iter()
            .enumerate()
            .map(|(i, a)| {
                if let Some(r) = &self.redactor {
                    r.lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .learn_names(crate::app::identifying_names(&a.bundle));
                }
                let mut row = Row::analysed(index, input, &a.bundle, a.timeline(), a.report());
                row.cluster_index = i;
                row.clusters = clusters;
                row.fetched_bytes = fetched_bytes;
                // Clusters that could not be told apart were analysed as one: the row's
                // answer mixes them, so it is not an answer.
                if !run.unsplit.is_empty() {
                    row.errors.extend(run.unsplit.iter().cloned());
                    row.outcome = Outcome::Error;
                }
                // Files that could not be read (each in `errors`): incomplete, which only
                // `--partial` accepts, as for `analyze`.
                if !self.opts.partial && !crate::bundle::unread_files(&a.bundle).is_empty() {
                    row.outcome = Outcome::Error;
                }
                row
            })
            .collect()
    }

    /// A row as one JSON line (or its text, [`RowFormat::Text`]), through the same output
    /// hygiene as every other output.
    fn line(&self, row: &Row) -> String {
        if self.opts.format == RowFormat::Text {
            let text = row.render_text();
            let text = match self.opts.width {
                Some(w) => crate::output::term::wrap_lines(&text, w),
                None => text,
            };
            return self.scrub(&text);
        }
        // Controls JSON would write raw (DEL, C1, bidi) as escapes: `vocab::escape::to_json`.
        let line = match crate::vocab::escape::to_json(row, false) {
            Ok(l) => l,
            Err(e) => {
                let r = Row::error(
                    row.index,
                    &row.input,
                    vec![format!("cannot serialize the row: {e}")],
                );
                serde_json::to_string(&r).unwrap_or_default()
            }
        };
        self.scrub(&line) + "\n"
    }

    /// `text` with identifying values redacted (`--redact`), else with secrets masked.
    fn scrub(&self, text: &str) -> String {
        match &self.redactor {
            Some(r) => r.lock().unwrap_or_else(PoisonError::into_inner).apply(text),
            None => crate::redact::scrub_secrets(text),
        }
    }

    /// [`Ctx::analyse`], with a panic turned into an error row.
    fn rows(&self, index: usize, input: &str) -> Vec<Row> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.analyse(index, input)))
            .unwrap_or_else(|p| {
                let what = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                vec![Row::error(
                    index,
                    input,
                    vec![format!("internal error while analysing the input: {what}")],
                )]
            })
    }
}

/// Analyses one input into its rows, one per cluster (`index` is its position in the batch
/// list).
pub fn analyze_one(index: usize, input: &str, opts: &BatchOptions) -> Vec<Row> {
    Ctx::new(opts).rows(index, input)
}

impl<'a> Ctx<'a> {
    fn new(opts: &'a BatchOptions) -> Self {
        Ctx {
            opts,
            redactor: opts.settings.redact.then(|| {
                opts.redactor
                    .clone()
                    .unwrap_or_else(|| std::sync::Arc::new(Mutex::new(Redactor::new(Vec::new()))))
            }),
            fetcher: Default::default(),
            fetch_locks: Default::default(),
            unsplit: Default::default(),
        }
    }
}

/// Runs a batch over `inputs`, writing one row per selected input not in `done` to `out`, in
/// input order. `Err` only when no thread pool could be made or `out` failed (a closed pipe
/// is not an error: the run stops and says so in [`BatchRun::truncated`]).
pub fn run_to(
    inputs: &[String],
    opts: &BatchOptions,
    previous: &Previous,
    out: &mut (dyn Write + Send),
) -> Result<BatchRun, BatchError> {
    let selected = select(inputs, opts.shard);
    let todo: Vec<&(usize, String)> = selected
        .iter()
        .filter(|(_, i)| !previous.inputs.contains(i))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.settings.threads.unwrap_or(0))
        .thread_name(|i| format!("mglint-batch-{i}"))
        .build()
        .map_err(|e| BatchError::Threads(e.to_string()))?;
    let ctx = Ctx::new(opts);
    let bar = progress_bar(opts.progress, todo.len());
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let errors = AtomicUsize::new(0);
    // Counts, not rows: a batch of any length holds a few numbers per input.
    let made = Mutex::new((SummaryBuilder::default(), 0usize, 0usize));
    let sink = Mutex::new(Ordered::new(out));
    // One worker loop per pool thread, taking inputs in list order, so rows complete roughly
    // in order and the sink holds few. `broadcast` (not `spawn`) so that no thread can pick
    // up a second worker loop while it waits inside an input's nested parallel work.
    pool.broadcast(|_| {
        while !stop.load(Ordering::Relaxed) {
            let pos = next.fetch_add(1, Ordering::Relaxed);
            let Some((index, input)) = todo.get(pos) else {
                break;
            };
            let these = ctx.rows(*index, input);
            let line: String = these.iter().map(|r| ctx.line(r)).collect();
            let failed = these.iter().filter(|r| r.outcome == Outcome::Error).count();
            errors.fetch_add(failed, Ordering::Relaxed);
            {
                let mut sink = sink.lock().unwrap_or_else(PoisonError::into_inner);
                sink.push(pos, line);
                if sink.failed.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            {
                let mut made = made.lock().unwrap_or_else(PoisonError::into_inner);
                made.0.add_input(&these);
                made.1 += these.len();
                made.2 += these
                    .iter()
                    .filter(|r| r.outcome == Outcome::Findings)
                    .count();
            }
            bar.inc(1);
            let n = errors.load(Ordering::Relaxed);
            if n > 0 {
                bar.set_message(format!("{n} errors"));
            }
        }
    });
    bar.finish_and_clear();
    let failed = sink
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .failed;
    let truncated = match failed {
        Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => true,
        Some(e) => return Err(BatchError::Write(e)),
        None => false,
    };
    let (mut summary, rows, finding_rows) =
        made.into_inner().unwrap_or_else(PoisonError::into_inner);
    let wanted: HashSet<&str> = selected.iter().map(|(_, i)| i.as_str()).collect();
    summary.add_grouped(
        previous
            .rows
            .iter()
            .filter(|r| wanted.contains(r.input.as_str())),
    );
    let mut unsplit = ctx
        .unsplit
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    unsplit.sort();
    Ok(BatchRun {
        unsplit: unsplit.into_iter().map(|(_, i)| i).collect(),
        selected: selected.len(),
        skipped: selected.len() - todo.len(),
        rows,
        error_rows: errors.into_inner(),
        finding_rows,
        summary: summary.finish(),
        truncated,
    })
}

/// Runs a batch into the file `path`: truncated first, or with `resume` kept, with the
/// selected inputs that already have a row skipped and new rows appended.
pub fn run_file(
    inputs: &[String],
    opts: &BatchOptions,
    path: &Path,
    resume: bool,
) -> Result<BatchRun, BatchError> {
    // Opened (and locked) before anything is read or cut: a second batch on the same file
    // is refused instead of writing the same rows again.
    let open_err = |source| BatchError::Open {
        path: path.to_path_buf(),
        source,
    };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .read(true)
        .write(true)
        .truncate(false)
        .open(path)
        .map_err(open_err)?;
    match f.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(open_err(std::io::Error::new(
                std::io::ErrorKind::WouldBlock,
                "another mglint batch is writing it (the file is locked)",
            )));
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(open_err(e)),
    }
    let previous = if resume {
        read_previous(path)?
    } else {
        if f.metadata().is_ok_and(|m| m.is_file()) {
            f.set_len(0).map_err(open_err)?;
        }
        Previous::default()
    };
    {
        use std::io::Seek;
        f.seek(std::io::SeekFrom::End(0)).map_err(open_err)?;
    }
    if previous.unterminated {
        use std::io::Write;
        f.write_all(b"\n").map_err(open_err)?;
    }
    run_to(inputs, opts, &previous, &mut f)
}

fn progress_bar(show: bool, len: usize) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{wide_bar}] {pos}/{len} inputs, {rate}, eta {eta} {msg}",
    ) {
        let rate = |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.1}/s", s.per_sec());
        };
        bar.set_style(style.with_key("rate", rate).progress_chars("=> "));
    }
    bar
}
