//! Ingestion: parse every file the sources found and classified, in parallel (rayon), each
//! by its input kind's reader (`kinds`: one module per kind, one registry), and merge the
//! results into one [`Bundle`] in a deterministic order. A file that cannot be read becomes a
//! diagnostic naming the file and the reason; it never aborts the run.

pub mod git;
pub mod intervals;
pub mod junit;
mod kinds;
pub mod klog;
mod pipeline;
pub mod prow;
pub mod resources;
pub mod resourcewatch;
pub mod sniff;
mod split;
pub mod stanza;
pub mod textlog;

use crate::bundle::{Bundle, InputInfo};
use crate::model::*;
use crate::source::{self, SourceOptions};
use crate::vocab::{FileKind, FileRef, FileTable};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

pub use split::{Facts, HostedFact, InputFacts};

/// Settings for ingestion.
#[derive(Debug, Clone, Default)]
pub struct IngestOptions {
    pub source: SourceOptions,
}

/// Why nothing could be analysed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum IngestError {
    /// No input was given.
    #[error("no input given")]
    NoInputs,
    /// Inputs were given but none held anything mglint recognises.
    #[error("nothing recognisable found{}", .0.iter().map(|r| format!("\n  {r}")).collect::<String>())]
    NothingFound(Vec<String>),
}

/// Why a file could not be read as its format (it becomes an error diagnostic naming the
/// file; the rest of the input is read).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("invalid JSON at line {line} column {column}: {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("invalid XML near byte {pos}: {message}")]
    Xml { pos: u64, message: String },
    /// Well-formed, but not the shape the format has.
    #[error("{0}")]
    Shape(&'static str),
    /// The bytes could not be read (a size cap, a decoder error).
    #[error("{0}")]
    Read(String),
}

impl ParseError {
    /// A serde_json error, with the position it reports.
    pub fn json(e: &serde_json::Error) -> Self {
        let text = e.to_string();
        let message = match text.find(" at line ") {
            Some(i) => text[..i].to_string(),
            None => text,
        };
        ParseError::Json {
            line: e.line(),
            column: e.column(),
            message,
        }
    }
}

/// What reading one file gave.
struct FileResult {
    /// The kind it was read as.
    kind: FileKind,
    prov: Provenance,
    bytes: u64,
    parsed: kinds::Parsed,
    diags: Vec<Diagnostic>,
    /// The text, kept in the file table for evidence (resource files).
    text: Option<crate::vocab::files::FileText>,
}

/// Ingests the inputs into one bundle. Inputs that cannot be opened are recorded in
/// `bundle.input_errors`; `Err` only when nothing recognisable was found at all.
pub fn ingest(inputs: &[String], opts: &IngestOptions) -> Result<Bundle, IngestError> {
    let named: Vec<(String, String)> = inputs.iter().map(|i| (i.clone(), i.clone())).collect();
    ingest_named(&named, opts)
}

/// Like [`ingest`], with each input given as `(local path, name to show)`.
pub fn ingest_named(
    inputs: &[(String, String)],
    opts: &IngestOptions,
) -> Result<Bundle, IngestError> {
    gather(inputs, opts)?.into_bundle()
}

/// Walks and parses the inputs once: what becomes one bundle ([`Gathered::into_bundle`]), or
/// one per cluster when the inputs hold several ([`Gathered::split`]).
pub fn gather(inputs: &[(String, String)], opts: &IngestOptions) -> Result<Gathered, IngestError> {
    if inputs.is_empty() {
        return Err(IngestError::NoInputs);
    }
    let source_opts = SourceOptions {
        sniff: sniff::sniff_content,
        ..opts.source.clone()
    };
    let mut table = FileTable::default();
    let out = pipeline::run(inputs, &source_opts, &mut table);
    Ok(Gathered {
        named: inputs.to_vec(),
        table,
        inputs: out.inputs,
        files: out.files,
    })
}

/// What one walk of the inputs found and parsed, before it is merged into a bundle.
pub struct Gathered {
    /// The inputs, as `(local path, name to show)`.
    named: Vec<(String, String)>,
    /// Every file registered by the walk.
    table: FileTable,
    /// Each input's collection, or why it could not be opened.
    inputs: Vec<Result<source::Collected, source::SourceError>>,
    /// The parse results, in the order the files were found.
    files: Vec<FileResult>,
}

impl Gathered {
    /// Everything as one bundle. `Err` when nothing recognisable was found at all.
    pub fn into_bundle(self) -> Result<Bundle, IngestError> {
        assemble(self.table, self.inputs, self.files, &self.named)
    }
}

/// Merges what was collected and parsed into a bundle, reads the history of inputs that are
/// resourcewatch repositories (`history`: `(local path, name)`), and checks that something
/// recognisable was found.
fn assemble(
    files: FileTable,
    inputs: Vec<Result<source::Collected, source::SourceError>>,
    results: Vec<FileResult>,
    history_of: &[(String, String)],
) -> Result<Bundle, IngestError> {
    let mut bundle = Bundle {
        files,
        ..Bundle::default()
    };
    let mut input_index: BTreeMap<Arc<str>, usize> = BTreeMap::new();
    for c in inputs {
        match c {
            Ok(c) => {
                input_index.insert(Arc::from(c.info.name.as_str()), bundle.inputs.len());
                bundle.inputs.push(c.info);
                bundle.diagnostics.extend(collapse(c.diagnostics));
            }
            Err(e) => bundle.input_errors.push(e.to_string()),
        }
    }
    merge(&mut bundle, results, &input_index);
    history(&mut bundle, history_of);
    if !kinds::found_any(&bundle) {
        return Err(IngestError::NothingFound(nothing_found(&bundle)));
    }
    Ok(bundle)
}

/// Why an input gave nothing: `files_seen` files looked at, none recognisable.
pub fn nothing_in(input: &str, files_seen: u64) -> String {
    format!(
        "`{input}`: no must-gather, CI artifacts, or known files found ({files_seen} files looked at)"
    )
}

/// Why a bundle holds nothing: each input's reason, and each file that could not be read.
fn nothing_found(bundle: &Bundle) -> Vec<String> {
    let mut reasons = bundle.input_errors.clone();
    for i in &bundle.inputs {
        reasons.push(match i.must_gather_roots.first() {
            // A component must-gather (CNV, ODF, node-tuning) is a must-gather all the same.
            Some(root) => format!(
                "`{}`: a must-gather (rooted at `{}`) without any object mglint reads: no `ClusterVersion`, `ClusterOperator`, `Node`, `MachineConfigPool` or CVO log ({} files looked at); a component must-gather (CNV, ODF, node-tuning) gathers only its component's objects",
                i.name,
                if root.is_empty() { "." } else { root.as_str() },
                i.files_seen
            ),
            None => nothing_in(&i.name, i.files_seen),
        });
    }
    reasons.extend(
        bundle
            .diagnostics
            .iter()
            .map(|d| format!("{}: {}", d.prov, d.reason)),
    );
    reasons
}

/// The history of every input that is a resourcewatch repository (see [`resourcewatch`]).
fn history(bundle: &mut Bundle, inputs: &[(String, String)]) {
    for (path, name) in inputs {
        let dir = std::path::Path::new(path);
        if !dir.is_dir() || !resourcewatch::is_repository(dir) {
            continue;
        }
        let (snapshots, problems) = resourcewatch::history(dir, name);
        bundle.snapshots.extend(snapshots);
        for e in problems {
            bundle.diagnostics.push(Diagnostic {
                level: Severity::Warning,
                prov: Provenance::detached(name, ".git"),
                column: None,
                reason: e.to_string(),
                cause: Cause::default(),
            });
        }
    }
}

fn diag(
    prov: &Provenance,
    level: Severity,
    line: Option<u32>,
    column: Option<u32>,
    reason: String,
) -> Diagnostic {
    Diagnostic {
        level,
        prov: prov.at_line(line),
        column,
        reason,
        cause: Cause::default(),
    }
}

fn merge(bundle: &mut Bundle, results: Vec<FileResult>, input_index: &BTreeMap<Arc<str>, usize>) {
    for r in results {
        bundle.files.set_read(r.prov.file.id(), r.bytes, r.text);
        if let Some(&i) = input_index.get(r.prov.file.input()) {
            let info: &mut InputInfo = &mut bundle.inputs[i];
            info.files_read += 1;
            info.bytes_read += r.bytes;
        }
        let had_error = r.diags.iter().any(|d| d.level == Severity::Error);
        let file_kind = bundle.files.entry(&r.prov.file).map(|e| e.kind);
        bundle
            .diagnostics
            .extend(collapse(r.diags).into_iter().map(|mut d| {
                d.cause.file = d.cause.file.or(file_kind);
                d
            }));
        if !(had_error && matches!(r.parsed, kinds::Parsed::Nothing)) {
            *bundle
                .sources_by_kind
                .entry(r.kind.name().to_string())
                .or_default() += 1;
        }
        kinds::merge(r.parsed, &r.prov, bundle);
    }
    // One object per key (the same ClusterVersion from gather-extra and the must-gather is
    // one snapshot; a node in two dumps, the fresher copy).
    bundle.objects.dedup();
    // Years missing from klog and test-log lines are inferred here, once: from the collection
    // time or the latest absolute time inside the inputs, else from the inputs' modification
    // time (a raw `oc logs` file has nothing else).
    let has_partial = bundle.cvo_logs.iter().any(|l| l.records.has_partial())
        || bundle.text_lines.iter().any(|l| l.time.is_none());
    let reference = bundle.reference_time().or_else(|| {
        let m = bundle.inputs.iter().filter_map(|i| i.modified).max();
        if has_partial && m.is_some() {
            // A note on the times, not on the reading: every line was read (IN002, "a file
            // was read only in part", takes warnings; the summary lists notes too).
            for i in &bundle.inputs {
                bundle.diagnostics.push(Diagnostic {
                    level: Severity::Info,
                    prov: Provenance::detached(&i.name, ""),
                    column: None,
                    reason: "log lines have no year and nothing in the input has one; the year is taken from the file's modification time".to_string(),
                    cause: Cause::default(),
                });
            }
        }
        m
    });
    let yi = YearInference::new(reference);
    for log in &mut bundle.cvo_logs {
        klog::resolve_times(log, &yi);
    }
    for l in &mut bundle.text_lines {
        if let RecordTime::Partial(p) = l.stamp {
            l.time = yi.resolve(p);
        }
    }
    bundle
        .diagnostics
        .sort_by(|a, b| a.prov.cmp(&b.prov).then(a.reason.cmp(&b.reason)));
}

/// Waits while `busy` holds, running queued pool work on this thread meanwhile (so a bound
/// on work in flight never deadlocks, even with one thread).
fn help_pool_while(mut busy: impl FnMut() -> bool) {
    while busy() {
        if rayon::yield_now() != Some(rayon::Yield::Executed) {
            std::thread::yield_now();
        }
    }
}

/// One diagnostic per file, level and reason: repeats are folded into the first, with a
/// count (a file with 200k identical problems gives one line, not 200k).
fn collapse(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if diags.len() < 2 {
        return diags;
    }
    let mut at: HashMap<(FileRef, Severity, String), usize> = HashMap::new();
    let mut out: Vec<(Diagnostic, usize)> = Vec::new();
    for d in diags {
        let key = (d.prov.file.clone(), d.level, d.reason.clone());
        match at.get(&key) {
            Some(&i) => out[i].1 += 1,
            None => {
                at.insert(key, out.len());
                out.push((d, 1));
            }
        }
    }
    out.into_iter()
        .map(|(mut d, n)| {
            if n > 1 {
                d.reason = format!("{} ({n} times in this file)", d.reason);
            }
            d
        })
        .collect()
}
