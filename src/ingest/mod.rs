//! Ingestion: classify every file the sources found, parse the needed ones in parallel
//! (rayon), and merge the results into one [`Bundle`] in a deterministic order. A file that
//! cannot be read becomes a diagnostic naming the file and the reason; it never aborts the run.

pub mod git;
pub mod intervals;
pub mod junit;
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
use crate::source::ReadError;
use crate::source::{self, SourceOptions, VFile};
use crate::vocab::encoding;
use crate::vocab::kind::{ContainerLogAt, Location, ResourceAt, SniffMode};
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

/// What parsing one file produced.
enum Parsed {
    Objects(Objects),
    CvoLog(CvoLog),
    Intervals(Vec<Interval>),
    Text(Vec<TextLine>),
    Junit(Vec<JunitCase>),
    Timestamps(Vec<Sourced<Time>>),
    GatherVersion(Sourced<String>),
    Prow(String, Vec<u8>),
    PodLog(PodLog),
    Nothing,
}

struct FileResult {
    kind: FileKind,
    prov: Provenance,
    bytes: u64,
    parsed: Parsed,
    diags: Vec<Diagnostic>,
    /// The text, kept in the file table for evidence (resource files).
    text: Option<Arc<str>>,
}

impl FileResult {
    /// A file that could not be read at all: one error diagnostic with the reason.
    fn failed(
        kind: FileKind,
        prov: Provenance,
        mut diags: Vec<Diagnostic>,
        reason: impl ToString,
    ) -> Self {
        diags.push(diag(&prov, Severity::Error, None, None, reason.to_string()));
        FileResult {
            kind,
            prov,
            bytes: 0,
            parsed: Parsed::Nothing,
            diags,
            text: None,
        }
    }
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
    if bundle.is_empty() {
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

/// The largest resource text kept for evidence when the file gave no object.
const KEEP_FAILED_TEXT_BYTES: usize = 1 << 20;

fn parse_file(f: VFile, file: FileRef, opts: &SourceOptions) -> FileResult {
    let prov = Provenance::file(&file);
    let kind = f.kind;
    let path = f.path.to_string();
    let input = f.input.clone();
    let at = f.at.clone();
    let mut diags = Vec::new();
    let name_for_id = if path.is_empty() {
        input.to_string()
    } else {
        path.clone()
    };
    // Logs are parsed as streams; everything else is small and read whole.
    if matches!(kind, FileKind::CvoLog | FileKind::TestLog) {
        return match f.open(opts).map(encoding::decode_stream) {
            Ok(Ok(r)) => parse_log(kind, r, prov, &at),
            Ok(Err(e)) => FileResult::failed(kind, prov, diags, e),
            Err(e) => FileResult::failed(kind, prov, diags, e),
        };
    }
    // Interval files can be hundreds of MB: streamed into records, never held whole.
    if kind == FileKind::Intervals {
        return read_intervals(f, prov, diags, opts);
    }
    // Container logs are streamed too, keeping only the lines a rule can match.
    if kind == FileKind::PodLog
        && let Location::ContainerLog(p) = &at
    {
        return read_pod_log(f, prov, diags, opts, p);
    }
    let decoded = f.load(opts).map(|d| match kind {
        // XML says its own encoding: `junit` reads UTF-16 with or without a mark itself.
        FileKind::Junit => Ok(encoding::strip_utf8_bom(d)),
        _ => encoding::decode(d),
    });
    let (data, enc) = match decoded {
        Ok(Ok(d)) => d,
        Ok(Err(e)) => return FileResult::failed(kind, prov, diags, e),
        Err(e) => return FileResult::failed(kind, prov, diags, e),
    };
    // Content before name: a file named `version` that holds an object rather than a
    // must-gather's version marker (the older Insights layout's `config/version` found
    // outside that layout, a `version` saved by hand) is read as the object it is.
    let kind = if kind == FileKind::GatherVersion
        && data
            .split(|b| *b == b'\n')
            .next()
            .is_none_or(|l| memchr::memmem::find(l, b"must-gather").is_none())
        && sniff::sniff_content(&data[..data.len().min(16 << 10)], SniffMode::Named)
            == Some(FileKind::Resource)
    {
        FileKind::Resource
    } else {
        kind
    };
    let bytes = data.len() as u64;
    let mut kept = None;
    // A `version` file read as an object: its path names no kind.
    let no_place = ResourceAt::default();
    let place = match &at {
        Location::Resource(r) => r,
        _ => &no_place,
    };
    let parsed = match kind {
        FileKind::Resource => {
            // The bytes become the text without a second copy living through the parse.
            let text: Arc<str> = match String::from_utf8(data) {
                Ok(t) => Arc::from(t),
                Err(e) => {
                    diags.push(diag(
                        &prov,
                        Severity::Warning,
                        None,
                        None,
                        format!(
                            "invalid UTF-8 at byte {} (replaced with U+FFFD)",
                            e.utf8_error().valid_up_to()
                        ),
                    ));
                    Arc::from(String::from_utf8_lossy(e.as_bytes()).as_ref())
                }
            };
            // Go's `encoding/json`, which oc reads alerts with, refuses a byte order mark.
            if let Some(e) = crate::model::alerts_go::bom_error(enc)
                && text.trim_start().starts_with('{')
                && resources::go_alerts(&text, &name_for_id).is_some()
            {
                diags.push(Diagnostic {
                    cause: Cause::alerts(e.to_string()),
                    ..diag(
                        &prov,
                        Severity::Error,
                        None,
                        None,
                        format!("not a valid alerts response: {e}"),
                    )
                });
                return FileResult {
                    kind,
                    prov,
                    bytes,
                    parsed: Parsed::Objects(Objects::default()),
                    diags,
                    text: Some(text),
                };
            }
            // A file read only for known-issue rules whose text lacks the keys of every rule
            // that reads it can give none of them an object: not parsed, not kept.
            // (The cheap test first: with no rule naming keys it answers at once.)
            if place.for_rules && place.object.is_none() && !opts.wants.worth_parsing(place, &text)
            {
                return FileResult {
                    kind,
                    prov,
                    bytes,
                    parsed: Parsed::Objects(Objects::default()),
                    diags,
                    text: None,
                };
            }
            let (objs, errs) = resources::parse_resources_at(
                &text,
                &name_for_id,
                place.object,
                &prov,
                &opts.wants,
            );
            for e in errs {
                diags.push(Diagnostic {
                    cause: e.cause,
                    ..diag(&prov, e.level, e.line, e.column, e.reason)
                });
            }
            // Kept for evidence snippets: a large file that gave nothing (a zeroed or corrupt
            // file) is not held for the rest of the run; its diagnostic has line and column.
            if !objs.is_empty() || text.len() <= KEEP_FAILED_TEXT_BYTES {
                kept = Some(text);
            }
            Parsed::Objects(objs)
        }
        // Streamed above.
        FileKind::Intervals | FileKind::CvoLog | FileKind::TestLog => Parsed::Nothing,
        FileKind::Junit => match junit::parse_junit(&data, &prov) {
            Ok(j) => {
                for n in j.notes {
                    diags.push(diag(&prov, Severity::Warning, None, None, n));
                }
                Parsed::Junit(j.cases)
            }
            Err(e) => {
                diags.push(diag(&prov, Severity::Error, None, None, e.to_string()));
                Parsed::Nothing
            }
        },
        FileKind::Timestamp => {
            let text = String::from_utf8_lossy(&data);
            let mut times = Vec::new();
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                match parse_go_time(line).or_else(|| parse_rfc3339(line)) {
                    Some(t) => times.push(Sourced {
                        value: t,
                        prov: prov.at_line(Some(i as u32 + 1)),
                    }),
                    None => diags.push(diag(
                        &prov,
                        Severity::Warning,
                        Some(i as u32 + 1),
                        None,
                        format!(
                            "not a timestamp: `{}`",
                            line.chars().take(80).collect::<String>()
                        ),
                    )),
                }
            }
            Parsed::Timestamps(times)
        }
        FileKind::GatherVersion => {
            let text = String::from_utf8_lossy(&data);
            let mut lines = text.lines();
            match (lines.next(), lines.next()) {
                (Some(l1), Some(l2)) if l1.contains("must-gather") => {
                    Parsed::GatherVersion(Sourced {
                        value: l2.trim().to_string(),
                        prov: prov.clone(),
                    })
                }
                _ => Parsed::Nothing,
            }
        }
        FileKind::ProwMeta => Parsed::Prow(
            name_for_id.rsplit('/').next().unwrap_or("").to_string(),
            data,
        ),
        FileKind::NestedArchive => Parsed::Nothing,
        // Streamed above; a path that is no container log's gives nothing.
        FileKind::PodLog => Parsed::Nothing,
    };
    FileResult {
        kind,
        prov,
        bytes,
        parsed,
        diags,
        text: kept,
    }
}

/// Streams a container log a known-issue rule asked for, line by line, keeping the lines
/// the rules reading it can match ([`LineSelector`]), bounded by `--max-file-bytes`.
fn read_pod_log(
    f: VFile,
    prov: Provenance,
    diags: Vec<Diagnostic>,
    opts: &SourceOptions,
    p: &ContainerLogAt,
) -> FileResult {
    let kind = FileKind::PodLog;
    let literals = opts.wants.log_literals(&p.borrowed());
    let r = match f.open(opts).map(encoding::decode_stream) {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => return FileResult::failed(kind, prov, diags, e),
        Err(e) => return FileResult::failed(kind, prov, diags, e),
    };
    // One byte past the cap tells a file at the cap from a larger one; a line never holds more.
    let mut r = std::io::Read::take(r, opts.max_file_bytes.saturating_add(1));
    let mut sel = LineSelector::new(literals.as_deref());
    let (mut buf, mut bytes) = (Vec::new(), 0u64);
    loop {
        buf.clear();
        match std::io::BufRead::read_until(&mut r, b'\n', &mut buf) {
            Ok(0) => break,
            Ok(n) => bytes += n as u64,
            Err(e) => return FileResult::failed(kind, prov, diags, ReadError::io(&e)),
        }
        if bytes > opts.max_file_bytes {
            let e = ReadError::TooLarge {
                cap: opts.max_file_bytes,
                flag: "--max-file-bytes",
            };
            return FileResult::failed(kind, prov, diags, e);
        }
        sel.push(&buf);
    }
    FileResult {
        kind,
        parsed: Parsed::PodLog(PodLog {
            prov: prov.clone(),
            namespace: p.namespace.clone(),
            pod: p.pod.clone(),
            container: p.container.clone(),
            file: p.file,
            lines: sel.finish(),
        }),
        prov,
        bytes,
        diags,
        text: None,
    }
}

/// Parses a CVO log or a CI test log from a stream (a file, or an archive entry as it is
/// read).
fn parse_log(
    kind: FileKind,
    mut r: Box<dyn std::io::BufRead + '_>,
    prov: Provenance,
    at: &Location,
) -> FileResult {
    let mut diags = Vec::new();
    if kind == FileKind::CvoLog {
        // Every CVO log is classified with its pod and file (by path, else by name).
        let (pod, file) = match at {
            Location::CvoLog(c) => (c.pod.clone(), c.file),
            _ => (String::new(), crate::vocab::mg_path::LogFile::Current),
        };
        // Parsed in line-aligned blocks on the pool while the next block is read.
        let (log, note) = klog::parse_cvo_log_stream(&mut r, prov.clone(), pod, file);
        if let Some(n) = note {
            diags.push(diag(&prov, Severity::Warning, None, None, n));
        }
        if log.records.is_empty() && log.lines > 0 {
            diags.push(diag(
                &prov,
                Severity::Warning,
                None,
                None,
                "no klog lines found in CVO log".to_string(),
            ));
        }
        FileResult {
            kind,
            prov,
            bytes: log.bytes,
            parsed: Parsed::CvoLog(log),
            diags,
            text: None,
        }
    } else {
        let (lines, bytes, err) = textlog::parse_text_log_stream(&mut r, &prov);
        if let Some(e) = err {
            diags.push(diag(&prov, Severity::Warning, None, None, e));
        }
        FileResult {
            kind,
            prov,
            bytes,
            parsed: Parsed::Text(lines),
            diags,
            text: None,
        }
    }
}

/// Streams an interval file (decompressed when it is gzip, xz or zstd data) into records,
/// bounded by `--max-file-bytes` like a file read whole.
fn read_intervals(
    f: VFile,
    prov: Provenance,
    mut diags: Vec<Diagnostic>,
    opts: &SourceOptions,
) -> FileResult {
    let kind = f.kind;
    let cap = opts.max_file_bytes;
    if f.stored_len() > cap {
        let e = source::ReadError::TooLarge {
            cap,
            flag: "--max-file-bytes",
        };
        return FileResult::failed(kind, prov, diags, e);
    }
    let r = match f.open(opts).map(encoding::decode_stream) {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => return FileResult::failed(kind, prov, diags, e),
        Err(e) => return FileResult::failed(kind, prov, diags, e),
    };
    let mut counted = Counted {
        inner: source::sniff::Capped {
            inner: r,
            left: cap,
            cap,
            what: "file",
            flag: "--max-file-bytes",
        },
        bytes: 0,
    };
    // The JSON reader takes one byte per call: a buffer in front keeps those calls cheap
    // (static, not through the decoder and the cap).
    let buffered = std::io::BufReader::with_capacity(1 << 16, &mut counted);
    let parsed = match intervals::read_intervals(buffered, &prov) {
        Ok(v) => Parsed::Intervals(v),
        Err(e) => {
            diags.push(diag(&prov, Severity::Error, None, None, e.to_string()));
            Parsed::Nothing
        }
    };
    FileResult {
        kind,
        prov,
        bytes: counted.bytes,
        parsed,
        diags,
        text: None,
    }
}

/// A reader that counts the bytes read through it.
struct Counted<R> {
    inner: R,
    bytes: u64,
}

impl<R: std::io::Read> std::io::Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

fn merge(bundle: &mut Bundle, results: Vec<FileResult>, input_index: &BTreeMap<Arc<str>, usize>) {
    let mut prow = ProwJob::default();
    let mut have_prow = false;
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
        if !(had_error && matches!(r.parsed, Parsed::Nothing)) {
            *bundle
                .sources_by_kind
                .entry(r.kind.name().to_string())
                .or_default() += 1;
        }
        match r.parsed {
            Parsed::Objects(mut o) => bundle.objects.append(&mut o),
            Parsed::CvoLog(l) => bundle.cvo_logs.push(l),
            // The first file's records are moved, not copied (they can be many).
            Parsed::Intervals(v) if bundle.intervals.is_empty() => bundle.intervals = v,
            Parsed::PodLog(l) => bundle.pod_logs.push(l),
            Parsed::Intervals(v) => bundle.intervals.extend(v),
            Parsed::Text(v) => bundle.text_lines.extend(v),
            Parsed::Junit(v) => bundle.junit.extend(v),
            Parsed::Timestamps(v) => bundle.collection_times.extend(v),
            Parsed::GatherVersion(v) => bundle.gather_versions.push(v),
            Parsed::Prow(name, data) => {
                match prow::merge(&mut prow, &name, &data, r.prov.clone()) {
                    Ok(()) => have_prow = true,
                    Err(e) => bundle.diagnostics.push(diag(
                        &r.prov,
                        Severity::Error,
                        None,
                        None,
                        e.to_string(),
                    )),
                }
            }
            Parsed::Nothing => {}
        }
    }
    if have_prow {
        bundle.prow = Some(prow);
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
        if let Stamp::Partial(p) = l.stamp {
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
