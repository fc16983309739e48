//! Turns what the user named (a directory, an archive, a single file) into a list of virtual
//! files the analysis needs. Archives are streamed in memory and never extracted to disk;
//! formats are sniffed from content; must-gather roots and CI layouts are found by content.

mod ahead;
mod error;
pub mod gzip;
mod ledger;
pub mod sniff;
pub mod tar;
mod walk;
mod zip;
mod zipstream;

pub use error::{ReadError, SourceError};

use crate::bundle::{InputInfo, InputKind};
use crate::model::{Diagnostic, Provenance, Severity};
use crate::vocab::FileKind;
use crate::vocab::kind::{Location, SniffMode};
use crate::vocab::wants::Wants;
use sniff::Magic;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::sync::Arc;

pub use walk::{collect, collect_as, collect_bytes, collect_into};

/// Limits that keep hostile or huge inputs from exhausting memory.
#[derive(Debug, Clone)]
pub struct SourceOptions {
    /// Largest single file (after decompression) that is read into memory.
    pub max_file_bytes: u64,
    /// Largest total number of bytes decompressed from one archive stream.
    pub max_archive_bytes: u64,
    /// How deep archives may be nested inside archives.
    pub max_nesting: u32,
    /// What a file is from its first bytes, for files whose path says nothing. The source
    /// layer does not know the formats: ingestion provides this (see
    /// `ingest::sniff::sniff_content`); by default such files are not read.
    pub sniff: fn(&[u8], SniffMode) -> Option<FileKind>,
    /// What known-issue rules ask to be read beyond mglint's own needs (nothing by default).
    pub wants: Arc<Wants>,
}

/// One cluster's part of an input, when the inputs hold several clusters (see
/// [`Collected::part`]): the files under one of `keep` and under none of `drop`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Part {
    /// The input, as the user named it.
    pub input: String,
    /// Paths inside the input whose files are the part's (every file when empty).
    pub keep: Vec<String>,
    /// Paths inside the input whose files are not (another cluster's, nested in this one).
    pub drop: Vec<String>,
    /// The part is an input of its own: a folder of a directory (`keep` names it, alone),
    /// shown as `<input>/<folder>` with paths relative to the folder. An archive's part keeps
    /// the archive's name and paths.
    pub own_input: bool,
}

impl Part {
    /// Whether the entry at `path` (inside the input) is in this part.
    pub fn holds(&self, path: &str) -> bool {
        let under = |dir: &String| crate::vocab::files::is_under(path, dir);
        (self.keep.is_empty() || self.keep.iter().any(under)) && !self.drop.iter().any(under)
    }

    /// The input name and path the file at `path` of `input` has in this part: its own when
    /// the part is a folder made an input of its own (`<input>/<folder>`, and the path
    /// inside the folder).
    pub fn name_of(&self, input: &str, path: &str) -> (String, String) {
        match (self.own_input, self.keep.first()) {
            (true, Some(dir)) => {
                let dir = dir.trim_end_matches('/');
                let inner = path
                    .strip_prefix(dir)
                    .map_or(path, |r| r.trim_start_matches('/'));
                (
                    crate::vocab::files::join_path(input, dir),
                    inner.to_string(),
                )
            }
            _ => (input.to_string(), path.to_string()),
        }
    }
}

impl SourceOptions {
    /// The kind of the file at `path` (relative to the input) with what its path says of it,
    /// or `None` when nothing reads it: the path rules ([`crate::vocab::kind::classify`]),
    /// then what rules want. The walker calls this once per file.
    pub fn classify(&self, path: &str) -> Option<(FileKind, Location)> {
        crate::vocab::kind::classify(path).or_else(|| self.wants.classify(path))
    }
}

fn sniff_nothing(_: &[u8], _: SniffMode) -> Option<FileKind> {
    None
}

impl Default for SourceOptions {
    fn default() -> Self {
        SourceOptions {
            max_file_bytes: 2 << 30,
            max_archive_bytes: 64 << 30,
            max_nesting: 3,
            sniff: sniff_nothing,
            wants: Arc::default(),
        }
    }
}

/// Where a virtual file's bytes are.
#[derive(Debug)]
pub enum Content {
    /// A file on disk, read (and decompressed if sniffed so) when parsed.
    Disk(PathBuf),
    /// Bytes already read from an archive stream (still possibly compressed).
    Mem(Vec<u8>),
}

/// One file the analysis needs.
#[derive(Debug)]
pub struct VFile {
    pub input: Arc<str>,
    pub path: Arc<str>,
    pub kind: FileKind,
    /// What the path says of the file, classified once by the walker (`located`).
    pub at: Location,
    pub content: Content,
}

/// A file's location made whole once its input and full path are known: the object kind its
/// name implies (a resource: the kind of items that name none), and for a CVO log the hosted
/// control plane namespace it sits in (HyperShift's flat layout, read from the input's name
/// joined with the path, as a namespace can be an input of its own).
pub(crate) fn located(input: &str, path: &str, at: Location) -> Location {
    let name = if path.is_empty() { input } else { path };
    match at {
        Location::Resource(mut r) => {
            r.object = crate::model::Objects::kind_of_path(name);
            Location::Resource(r)
        }
        Location::CvoLog(mut c) => {
            let whole = crate::vocab::files::join_path(input, path);
            c.namespace = crate::vocab::mg_path::flat_log_namespace(&whole).map(str::to_string);
            Location::CvoLog(c)
        }
        other => other,
    }
}

impl VFile {
    /// The size of the stored bytes (compressed size for compressed data).
    pub fn stored_len(&self) -> u64 {
        match &self.content {
            Content::Disk(p) => std::fs::metadata(p).map(|m| m.len()).unwrap_or(0),
            Content::Mem(b) => b.len() as u64,
        }
    }

    /// Opens the file as a stream, decompressing gzip, xz or zstd data whatever the file is called,
    /// bounded by `max_file_bytes` of output. Large logs are parsed from this, never copied.
    pub fn open(self, opts: &SourceOptions) -> Result<Box<dyn BufRead>, ReadError> {
        let raw: Box<dyn BufRead> = match self.content {
            Content::Mem(b) => Box::new(std::io::Cursor::new(b)),
            Content::Disk(p) => {
                let f = std::fs::File::open(&p).map_err(|e| ReadError::io(&e))?;
                Box::new(BufReader::with_capacity(1 << 18, f))
            }
        };
        decompressed(raw, opts)
    }
    /// Reads the bytes, decompressing gzip, xz or zstd data whatever the file is called.
    pub fn load(self, opts: &SourceOptions) -> Result<Vec<u8>, ReadError> {
        let raw = match self.content {
            Content::Mem(b) => b,
            Content::Disk(p) => {
                let f = std::fs::File::open(&p).map_err(|e| ReadError::io(&e))?;
                let len = f.metadata().map_or(0, |m| m.len());
                sniff::read_capped_sized(f, opts.max_file_bytes, len)?
            }
        };
        sniff::decompress_if_needed(raw, opts.max_file_bytes).map(|(b, _)| b)
    }
}

/// Where the files of an input go as they are found, in a deterministic order (directory name
/// order, archive order). Ingestion parses them while the walk goes on; [`collect`] keeps them
/// in a list.
pub trait Sink {
    /// A file found (on disk, or its bytes read from an archive). Returns its slot.
    fn file(&mut self, f: VFile) -> usize;
    /// Whether a file of `kind` is parsed straight from its archive entry's stream (then
    /// [`Sink::stream`] is called instead of reading the entry into memory).
    fn streams(&self, _kind: FileKind) -> bool {
        false
    }
    /// An archive entry of a kind the sink [`streams`](Sink::streams), to consume now from its
    /// stream. `Err` when reading the stream failed (the archive cannot go on); the slot still
    /// holds what was read before. By default the entry is read into memory and handed to
    /// [`Sink::file`].
    fn stream(
        &mut self,
        input: Arc<str>,
        path: Arc<str>,
        kind: FileKind,
        at: Location,
        r: &mut dyn std::io::Read,
    ) -> (usize, Result<(), ReadError>) {
        let (bytes, read) = match sniff::read_capped(r, u64::MAX) {
            Ok(b) => (b, Ok(())),
            Err(e) => (Vec::new(), Err(e)),
        };
        let slot = self.file(VFile {
            input,
            path,
            kind,
            at,
            content: Content::Mem(bytes),
        });
        (slot, read)
    }
    /// A slot's file no longer counts: a later duplicate replaced it, or it was sniffed and
    /// turned out to be inside a known layout.
    fn drop_slot(&mut self, slot: usize);
}

/// A [`Sink`] that keeps the files in a list (their archive bytes in memory).
#[derive(Default)]
struct ListSink {
    files: Vec<VFile>,
    dropped: std::collections::HashSet<usize>,
}

impl Sink for ListSink {
    fn file(&mut self, f: VFile) -> usize {
        self.files.push(f);
        self.files.len() - 1
    }

    fn drop_slot(&mut self, slot: usize) {
        if let Some(f) = self.files.get_mut(slot) {
            f.content = Content::Mem(Vec::new());
        }
        self.dropped.insert(slot);
    }
}

impl ListSink {
    fn into_files(self) -> Vec<VFile> {
        let dropped = self.dropped;
        self.files
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !dropped.contains(i))
            .map(|(_, f)| f)
            .collect()
    }
}

/// `raw`, decompressed when its first bytes say gzip, xz or zstd (whatever the file is
/// called), bounded by `max_file_bytes` of output.
pub fn decompressed<'a>(
    mut raw: Box<dyn BufRead + 'a>,
    opts: &SourceOptions,
) -> Result<Box<dyn BufRead + 'a>, ReadError> {
    let head = raw.fill_buf().map_err(|e| ReadError::io(&e))?;
    let magic = sniff::sniff(head);
    match magic {
        Magic::Gzip | Magic::Xz | Magic::Zstd => {
            let d = sniff::decoder(magic, raw, sniff::zstd_window_cap(opts.max_file_bytes))?;
            let capped = sniff::Capped {
                inner: d,
                left: opts.max_file_bytes,
                cap: opts.max_file_bytes,
                what: "file",
                flag: "--max-file-bytes",
            };
            Ok(Box::new(BufReader::with_capacity(1 << 18, capped)))
        }
        _ => Ok(raw),
    }
}

/// The files found in one input, and what could not be read.
#[derive(Debug)]
pub struct Collected {
    pub info: InputInfo,
    /// The files found ([`collect`]; empty when they went to a [`Sink`]).
    pub files: Vec<VFile>,
    /// How many files were found (kept in `files` or handed to a sink).
    pub found: u64,
    pub diagnostics: Vec<Diagnostic>,
    /// Each count of the walk with its path, kept while the input may be cut into parts
    /// (it holds two must-gather roots or more), in the order counted (see `ledger`).
    ledger: Vec<(Box<str>, ledger::Count)>,
}

impl Collected {
    fn new(name: &str, kind: InputKind) -> Self {
        Collected {
            info: InputInfo {
                name: name.to_string(),
                kind,
                must_gather_roots: Vec::new(),
                ci_job: false,
                ci_roots: Vec::new(),
                insights_roots: Vec::new(),
                files_seen: 0,
                files_read: 0,
                files_skipped: 0,
                archives_opened: 0,
                not_read: Default::default(),
                bytes_read: 0,
                modified: None,
            },
            files: Vec::new(),
            found: 0,
            diagnostics: Vec::new(),
            ledger: Vec::new(),
        }
    }

    fn diag(&mut self, input: &Arc<str>, path: &str, level: Severity, reason: impl ToString) {
        self.diagnostics.push(Diagnostic {
            level,
            prov: Provenance::detached(input, path),
            column: None,
            reason: reason.to_string(),
            cause: Default::default(),
        });
    }
}

/// Tracks must-gather roots, CI markers, and Prow job and Insights archive roots from the
/// paths seen.
#[derive(Default)]
struct LayoutSeen {
    roots: BTreeSet<String>,
    ci: bool,
    ci_roots: BTreeSet<String>,
    /// The Insights archive roots among `ci_roots`.
    insights_roots: BTreeSet<String>,
}

impl LayoutSeen {
    fn see(&mut self, path: &str) {
        let parts: Vec<&str> = path.split('/').collect();
        if let Some(root) = crate::vocab::mg_path::root(&parts) {
            self.roots.insert(root.join("/"));
        }
        let name = parts.last().copied().unwrap_or("");
        if name == "prowjob.json"
            || parts.contains(&"gather-extra")
            || parts.contains(&"container-logs")
            || (parts.contains(&"artifacts") && name == "build-log.txt")
        {
            self.ci = true;
        }
        if let Some(root) = ci_root(&parts) {
            self.ci_roots.insert(root.join("/"));
        } else if let Some(root) = insights_root(&parts) {
            self.ci_roots.insert(root.join("/"));
            self.insights_roots.insert(root.join("/"));
        }
    }
}

/// The root of the Insights archive a path is in: the folder holding its `config/version.json`
/// (the archive's ClusterVersion).
fn insights_root<'a, 'p>(parts: &'p [&'a str]) -> Option<&'p [&'a str]> {
    match parts {
        [dir @ .., "config", "version.json"] => Some(dir),
        _ => None,
    }
}

/// The root of the Prow job a path is in: the folder of a `prowjob.json`, or the folder
/// holding the `artifacts/` whose step folder is a `gather-extra` or an `e2e-*` step (a
/// must-gather a job gathered sits inside its job's root).
fn ci_root<'a, 'p>(parts: &'p [&'a str]) -> Option<&'p [&'a str]> {
    if let [dir @ .., "prowjob.json"] = parts {
        return Some(dir);
    }
    let step = |p: &&str| *p == "gather-extra" || p.starts_with("e2e-");
    let i = parts.iter().position(|p| *p == "artifacts")?;
    // The step folder, or the step's own `gather-extra`, right below `artifacts/`.
    let below = parts.get(i + 1..(i + 3).min(parts.len().saturating_sub(1)))?;
    below.iter().any(step).then(|| &parts[..i])
}

/// Normalises an archive entry path for display and classification (nothing is written).
pub(crate) fn normalise(path: &str) -> String {
    path.split(['/', '\\'])
        .filter(|p| !p.is_empty() && *p != "." && *p != "..")
        .collect::<Vec<_>>()
        .join("/")
}
