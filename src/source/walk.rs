//! Walking directories and streaming archives (tar, zip, gzip/xz/zstd data, nested archives)
//! and streams (stdin, FIFOs) into [`VFile`]s, with size caps and per-entry diagnostics.
//!
//! Known layouts (must-gather, `oc adm inspect`, Prow, Insights) are classified by path. A file
//! outside them (a folder of `oc get -o yaml` files, a zip of such files) is sniffed from its
//! first bytes: kept when it is something mglint reads, counted as skipped otherwise.

use super::ledger::{Count, final_kind};
use super::sniff::{self, Capped, Magic, peek, peek_any};
use super::{
    Collected, Content, LayoutSeen, ListSink, ReadError, Sink, SourceError, SourceOptions, VFile,
    normalise,
};
use crate::bundle::{InputKind, NotReadReason};
use crate::model::Severity;
use crate::vocab::FileKind;
use crate::vocab::kind::{Location, SniffMode};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::io::{BufReader, Read};
use std::path::Path;
use std::sync::Arc;

/// How many bytes of a file are looked at to tell what it is.
pub(super) const SNIFF_HEAD: usize = 16 << 10;

/// Path components that belong to a must-gather's own layout: files under them that the path
/// rules do not want are not needed, so they are never sniffed.
const LAYOUT_DIRS: &[&str] = &[
    "cluster-scoped-resources",
    "namespaces",
    "host_service_logs",
];

/// Finds the files the analysis needs in one input. `Err` means the input itself cannot be
/// used at all (missing, unreadable); everything else becomes a diagnostic.
pub fn collect(input: &str, opts: &SourceOptions) -> Result<Collected, SourceError> {
    collect_as(input, input, opts)
}

/// Like [`collect`], but names the input `display` in provenance and summaries (e.g. the URL
/// a cached CI job was fetched from). `-` is standard input.
pub fn collect_as(
    input: &str,
    display: &str,
    opts: &SourceOptions,
) -> Result<Collected, SourceError> {
    let mut sink = ListSink::default();
    let mut out = collect_into(input, display, opts, &mut sink)?;
    out.files = sink.into_files();
    Ok(out)
}

/// Like [`collect_as`], handing each file to `sink` as it is found (in a deterministic
/// order) instead of keeping it: the returned [`Collected`] has no files.
pub fn collect_into(
    input: &str,
    display: &str,
    opts: &SourceOptions,
    sink: &mut dyn Sink,
) -> Result<Collected, SourceError> {
    let unreadable = |reason: ReadError| SourceError::Unreadable {
        input: input.to_string(),
        reason,
    };
    if input == "-" {
        use std::io::IsTerminal;
        let stdin = std::io::stdin();
        if stdin.is_terminal() {
            return Err(SourceError::StdinIsTerminal);
        }
        let display = if display == "-" { "stdin" } else { display };
        let r: Box<dyn Read + Send> = Box::new(stdin);
        let out = collect_top(r, None, "", display, opts, sink).map_err(unreadable)?;
        return recognised(out, input);
    }
    let path = Path::new(input);
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => SourceError::NotFound {
            input: input.to_string(),
        },
        _ => unreadable(ReadError::io(&e)),
    })?;
    let mut out = if meta.is_dir() {
        let mut w = Walker::new(display, InputKind::Directory, opts, sink);
        w.walk_dir(path);
        w.finish()
    } else if meta.is_file() || is_fifo(&meta) {
        // A FIFO is `/dev/stdin` from a pipe or a process substitution (`<(…)`): a stream.
        let disk = meta.is_file().then_some(path);
        let f = std::fs::File::open(path).map_err(|e| unreadable(ReadError::io(&e)))?;
        let r: Box<dyn Read + Send> = Box::new(BufReader::with_capacity(1 << 16, f));
        let out = collect_top(r, disk, &input.replace('\\', "/"), display, opts, sink)
            .map_err(unreadable)?;
        recognised(out, input)?
    } else {
        return Err(SourceError::NotRegular {
            input: input.to_string(),
        });
    };
    out.info.modified = meta
        .modified()
        .ok()
        .map(|m| crate::model::Time::from(chrono::DateTime::<chrono::Utc>::from(m)));
    Ok(out)
}

/// A single file that is nothing mglint reads is an error (an archive never is: its
/// diagnostics say what was wrong inside).
fn recognised(out: Collected, input: &str) -> Result<Collected, SourceError> {
    if out.found == 0 && out.info.kind == InputKind::File {
        return Err(SourceError::NotRecognised {
            input: input.to_string(),
        });
    }
    Ok(out)
}

#[cfg(unix)]
fn is_fifo(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    meta.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_meta: &std::fs::Metadata) -> bool {
    false
}

/// Reads one file or stream the user named: an archive, compressed data, or a single file.
/// `disk` is its path when it is a regular file (read again when parsed, and seekable for zip);
/// a stream is held in memory, bounded by `--max-file-bytes`.
fn collect_top(
    r: Box<dyn Read + Send>,
    disk: Option<&Path>,
    name: &str,
    display: &str,
    opts: &SourceOptions,
    sink: &mut dyn Sink,
) -> Result<Collected, ReadError> {
    let (head, r) = peek_any(r, SNIFF_HEAD)?;
    let mut magic = sniff::sniff(&head);
    if magic == Magic::Plain && disk.is_some_and(sniff::is_zip_by_end) {
        // A self-extracting zip: a program first, the archive after it.
        magic = Magic::Zip;
    }
    if !magic.is_archive()
        && let Some(what) = sniff::unsupported(&head)
    {
        return Err(ReadError::UnsupportedFormat(what));
    }
    let file_name = name.rsplit('/').next().unwrap_or("").to_string();
    if magic.is_archive() {
        let mut w = Walker::new(display, InputKind::Archive, opts, sink);
        if magic == Magic::Zip {
            match disk {
                Some(p) => {
                    let f = std::fs::File::open(p).map_err(|e| ReadError::io(&e))?;
                    w.read_zip(BufReader::new(f), "", 0);
                }
                None => w.read_zip_in_stream(Box::new(r), "", 0, opts.max_file_bytes)?,
            }
        } else {
            w.read_stream(Stream::Owned(Box::new(r)), magic, "", &file_name, 0);
        }
        return Ok(w.finish());
    }
    let mut out = Collected::new(display, InputKind::File);
    out.count(display, Count::SeenOnly);
    let class = opts
        .classify(name)
        .filter(|(k, _)| *k != FileKind::NestedArchive)
        .or_else(|| {
            let kind = (opts.sniff)(&head, SniffMode::Named)?;
            Some((kind, Location::sniffed(kind, display)))
        });
    if let Some((kind, at)) = class {
        let content = match disk {
            Some(p) => Content::Disk(p.to_path_buf()),
            None => Content::Mem(sniff::read_capped(r, opts.max_file_bytes)?),
        };
        sink.file(VFile {
            input: Arc::from(display),
            path: Arc::from(""),
            kind,
            at: super::located(display, "", at),
            content,
        });
        out.found += 1;
    } else {
        out.count(display, Count::NotRead(NotReadReason::UnknownFormat));
    }
    Ok(out)
}

/// Reads an archive (or compressed file) held in memory, as if it were a file named `name`.
/// Used by the fuzzer.
pub fn collect_bytes(name: &str, data: Vec<u8>, opts: &SourceOptions) -> Collected {
    let mut sink = ListSink::default();
    let mut w = Walker::new(name, InputKind::Archive, opts, &mut sink);
    let head_len = data.len().min(SNIFF_HEAD);
    let magic = sniff::sniff(&data[..head_len]);
    if magic == Magic::Zip {
        w.read_zip(std::io::Cursor::new(data), "", 0);
    } else {
        w.read_stream(
            Stream::Owned(Box::new(std::io::Cursor::new(data))),
            magic,
            "",
            name,
            0,
        );
    }
    let mut out = w.finish();
    out.files = sink.into_files();
    out
}

/// The stream of an archive or compressed file, for [`Walker::read_stream`].
pub(super) enum Stream<'a> {
    /// Read where it is (an entry of an enclosing archive).
    Borrowed(Box<dyn Read + 'a>),
    /// A stream of its own (a file, standard input): compressed data is decompressed on a
    /// thread of its own when there are two threads or more ([`super::ahead`]).
    Owned(Box<dyn Read + Send>),
}

/// What an archive entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EntryType {
    File,
    Dir,
    /// A link, device or other special entry: never read.
    Other,
}

/// An entry could not be read; the diagnostic is recorded. A tar stream stops there (its
/// position is lost), a zip archive goes on with the next entry.
pub(super) struct EntryFailed;

/// Collects the files of one input: its layout, its files, its diagnostics.
pub(super) struct Walker<'o, 's> {
    pub(super) input: Arc<str>,
    pub(super) opts: &'o SourceOptions,
    /// Where the files found go.
    sink: &'s mut dyn Sink,
    pub(super) out: Collected,
    pub(super) seen: LayoutSeen,
    /// Files kept because their content was recognised, not their path (with their slots):
    /// dropped at the end when they turn out to be inside a known layout (archive order is
    /// arbitrary).
    sniffed: Vec<(Arc<str>, usize)>,
    /// Archive entries sniffed and found to be nothing mglint reads: counted at the end,
    /// when those inside a known layout are known not to count.
    skipped: Vec<Arc<str>>,
    /// The sink slot of each archive entry, so that a duplicate drops its earlier copy in
    /// one step.
    slots: HashMap<String, usize>,
    /// Bytes of the zip archives held in memory along the current nesting chain (a zip inside
    /// another archive must be seekable): the chain together stays within
    /// `--max-file-bytes`, not each level (nested stored zips multiplied it).
    pub(super) zips_held: u64,
}

impl<'o, 's> Walker<'o, 's> {
    pub(super) fn new(
        display: &str,
        kind: InputKind,
        opts: &'o SourceOptions,
        sink: &'s mut dyn Sink,
    ) -> Self {
        Walker {
            input: Arc::from(display),
            opts,
            sink,
            out: Collected::new(display, kind),
            seen: LayoutSeen::default(),
            sniffed: Vec::new(),
            skipped: Vec::new(),
            slots: HashMap::new(),
            zips_held: 0,
        }
    }

    /// Hands a file to the sink.
    fn deliver(&mut self, f: VFile) -> usize {
        self.out.found += 1;
        self.sink.file(f)
    }

    /// A file of `kind` that could not be read: an error whose cause names the kind.
    fn unreadable(&mut self, path: &str, kind: FileKind, reason: impl ToString) {
        self.diag(path, Severity::Error, reason);
        if let Some(d) = self.out.diagnostics.last_mut() {
            d.cause.file = Some(kind);
        }
    }

    pub(super) fn diag(&mut self, path: &str, level: Severity, reason: impl ToString) {
        let input = self.input.clone();
        self.out.diag(&input, path, level, reason);
    }

    /// Whether a file that no path rule wants may be sniffed: it is outside every known
    /// layout seen so far (a must-gather, with what sits beside its image directory; a CI job).
    fn loose(&self, path: &str) -> bool {
        !self.seen.ci
            && !path
                .split('/')
                .any(|p| LAYOUT_DIRS.contains(&p) || p == "gather-extra")
            && !under_root(&self.seen.roots, path)
    }

    /// Ends the input: layout facts into the info, sniffed files inside a layout dropped.
    pub(super) fn finish(mut self) -> Collected {
        for (path, slot) in std::mem::take(&mut self.sniffed) {
            if !self.loose(&path) {
                self.sink.drop_slot(slot);
                self.out.found -= 1;
                self.out
                    .count(&path, Count::NotRead(NotReadReason::NotNeeded));
            }
        }
        let skipped = std::mem::take(&mut self.skipped);
        for p in &skipped {
            if self.loose(p) {
                self.out.count(p, Count::Skipped);
                self.out
                    .count(p, Count::NotRead(NotReadReason::UnknownFormat));
            } else {
                self.out.count(p, Count::NotRead(NotReadReason::NotNeeded));
            }
        }
        self.out.info.must_gather_roots = self.seen.roots.iter().cloned().collect();
        self.out.info.ci_job = self.seen.ci;
        self.out.info.ci_roots = self.seen.ci_roots.iter().cloned().collect();
        self.out.info.insights_roots = self.seen.insights_roots.iter().cloned().collect();
        self.out.info.kind = final_kind(self.out.info.kind, &self.seen);
        self.out.settle_ledger();
        self.out
    }

    /// Walks a directory in name order, never following links. Files no path rule wants are
    /// sniffed afterwards, once the whole layout is known.
    pub(super) fn walk_dir(&mut self, root: &Path) {
        let mut unclaimed = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(dir) = stack.pop() {
            let rel_dir = rel(root, &dir);
            let rd = match std::fs::read_dir(&dir) {
                Ok(rd) => rd,
                Err(e) => {
                    self.diag(
                        &rel_dir,
                        Severity::Warning,
                        format!("cannot read directory: {}", sniff::describe_io(&e)),
                    );
                    continue;
                }
            };
            let mut entries: Vec<_> = rd.filter_map(Result::ok).collect();
            entries.sort_by_key(|e| e.file_name());
            // Push subdirectories in reverse so they are visited in name order.
            let mut subdirs = Vec::new();
            for e in entries {
                let p = e.path();
                let relp = rel(root, &p);
                let Ok(ft) = e.file_type() else { continue };
                if ft.is_symlink() {
                    // Never follow links: they can point outside the input or form loops.
                    if self.opts.classify(&relp).is_some() {
                        self.diag(&relp, Severity::Warning, "symbolic link not followed");
                    }
                    self.out.count(&relp, Count::SeenOnly);
                    self.out
                        .count(&relp, Count::NotRead(NotReadReason::NotRegular));
                    continue;
                }
                if ft.is_dir() {
                    subdirs.push(p);
                    continue;
                }
                self.out.count(&relp, Count::Seen);
                self.seen.see(&relp);
                let class = self.opts.classify(&relp);
                if !ft.is_file() {
                    if class.is_some() {
                        self.diag(
                            &relp,
                            Severity::Warning,
                            "not a regular file (FIFO, socket or device); skipped",
                        );
                    }
                    self.out
                        .count(&relp, Count::NotRead(NotReadReason::NotRegular));
                    continue;
                }
                match class {
                    None => unclaimed.push((relp, p)),
                    Some((FileKind::NestedArchive, _)) => self.nested_file(&p, &relp),
                    Some((kind, at)) => {
                        let f = VFile {
                            input: self.input.clone(),
                            path: Arc::from(relp.as_str()),
                            kind,
                            at: super::located(&self.input, &relp, at),
                            content: Content::Disk(p),
                        };
                        self.deliver(f);
                    }
                }
            }
            stack.extend(subdirs.into_iter().rev());
        }
        for (relp, p) in unclaimed {
            if self.loose(&relp) {
                self.sniff_file(&p, &relp);
            } else {
                self.out
                    .count(&relp, Count::NotRead(NotReadReason::NotNeeded));
            }
        }
    }

    /// An archive found in a directory, streamed as a nested archive.
    fn nested_file(&mut self, p: &Path, relp: &str) {
        let f = match std::fs::File::open(p) {
            Ok(f) => f,
            Err(e) => {
                self.out
                    .count(relp, Count::NotRead(NotReadReason::Unreadable));
                return self.diag(relp, Severity::Error, sniff::describe_io(&e));
            }
        };
        self.out.count(relp, Count::Opened);
        match peek_any(BufReader::with_capacity(1 << 16, f), 512) {
            Ok((head, r)) => {
                let magic = sniff::sniff(&head);
                if magic == Magic::Zip || (magic == Magic::Plain && sniff::is_zip_by_end(p)) {
                    match std::fs::File::open(p) {
                        Ok(f) => self.read_zip(BufReader::new(f), &format!("{relp}::"), 1),
                        Err(e) => self.diag(relp, Severity::Error, sniff::describe_io(&e)),
                    }
                    return;
                }
                let fname = relp.rsplit('/').next().unwrap_or("").to_string();
                self.read_stream(
                    Stream::Owned(Box::new(r)),
                    magic,
                    &format!("{relp}::"),
                    &fname,
                    1,
                );
            }
            Err(e) => self.diag(relp, Severity::Error, e),
        }
    }

    /// A file in a directory with no known layout: read when its content is something
    /// mglint uses (an archive is opened), counted as skipped otherwise.
    fn sniff_file(&mut self, p: &Path, relp: &str) {
        let mut head = Vec::with_capacity(SNIFF_HEAD);
        let read =
            std::fs::File::open(p).and_then(|f| f.take(SNIFF_HEAD as u64).read_to_end(&mut head));
        if let Err(e) = read {
            self.out.count(relp, Count::Skipped);
            self.out
                .count(relp, Count::NotRead(NotReadReason::Unreadable));
            return self.diag(
                relp,
                Severity::Warning,
                format!("cannot read: {}", sniff::describe_io(&e)),
            );
        }
        if sniff::sniff(&head).is_archive() {
            return self.nested_file(p, relp);
        }
        match (self.opts.sniff)(&head, SniffMode::Loose) {
            Some(kind) => {
                let at = Location::sniffed(kind, relp);
                let f = VFile {
                    input: self.input.clone(),
                    path: Arc::from(relp),
                    kind,
                    at: super::located(&self.input, relp, at),
                    content: Content::Disk(p.to_path_buf()),
                };
                self.deliver(f);
            }
            None => {
                self.out.count(relp, Count::Skipped);
                self.out
                    .count(relp, Count::NotRead(NotReadReason::UnknownFormat));
            }
        }
    }

    /// Whether an archive at `here` is nested deeper than allowed (then diagnosed, skipped).
    pub(super) fn too_deep(&mut self, here: &str, depth: u32) -> bool {
        if depth <= self.opts.max_nesting {
            return false;
        }
        let n = self.opts.max_nesting;
        self.diag(
            here,
            Severity::Warning,
            format!("archive nested deeper than {n} levels; skipped"),
        );
        true
    }

    /// Streams one archive (or compressed file) and collects the entries the analysis needs.
    /// `prefix` is prepended to entry paths (`outer.tar::` for nested archives).
    pub(super) fn read_stream<'a>(
        &mut self,
        r: Stream<'a>,
        magic: Magic,
        prefix: &str,
        file_name: &str,
        depth: u32,
    ) {
        let here = prefix.trim_end_matches("::").to_string();
        if self.too_deep(&here, depth) {
            return;
        }
        let window = sniff::zstd_window_cap(self.opts.max_file_bytes);
        let compressed = matches!(magic, Magic::Gzip | Magic::Xz | Magic::Zstd);
        let decoded = match r {
            // Decompressed ahead on a thread of its own (the decoder made there: ISA-L's
            // cannot move between threads), while this thread parses what comes out.
            Stream::Owned(r) if compressed && rayon::current_num_threads() > 1 => {
                super::ahead::Ahead::start(r, move |r| sniff::decoder(magic, r, window))
            }
            Stream::Owned(r) => sniff::decoder(magic, r, window),
            Stream::Borrowed(r) => sniff::decoder(magic, r, window),
        };
        let decoded = match decoded {
            Ok(d) => d,
            Err(e) => return self.diag(&here, Severity::Error, e),
        };
        let capped = Capped {
            inner: decoded,
            left: self.opts.max_archive_bytes,
            cap: self.opts.max_archive_bytes,
            what: "archive",
            flag: "--max-archive-bytes",
        };
        let br: Box<dyn Read + 'a> = Box::new(BufReader::with_capacity(1 << 16, capped));
        let (head, br) = match peek(br, SNIFF_HEAD) {
            Ok(h) => h,
            Err(e) => return self.diag(&here, Severity::Error, e),
        };
        let inner_magic = sniff::sniff(&head);
        if inner_magic == Magic::Plain
            && let Some(what) = sniff::unsupported(&head)
        {
            return self.diag(&here, Severity::Error, ReadError::UnsupportedFormat(what));
        }
        if inner_magic == Magic::Zip && magic != Magic::Plain {
            // A compressed zip (`x.zip.gz`): held when small, streamed when large.
            let room = self.opts.max_file_bytes.saturating_sub(self.zips_held);
            if let Err(e) = self.read_zip_in_stream(br, prefix, depth, room) {
                self.diag(&here, Severity::Error, e);
            }
            return;
        }
        if inner_magic != Magic::Tar {
            return self.single_compressed(br, &head, &here, file_name);
        }
        let mut archive = super::tar::TarReader::new(br);
        let mut names = HashSet::new();
        loop {
            let e = match archive.next_entry() {
                Ok(Some(e)) => e,
                Ok(None) => break,
                Err(e) => {
                    return self.diag(
                        &here,
                        Severity::Error,
                        format!(
                            "truncated or corrupt tar archive: {e}; entries after this point were not read"
                        ),
                    );
                }
            };
            let raw_path = String::from_utf8_lossy(&e.path).to_string();
            if let Some(why) = e.unusable {
                let shown: String = normalise(&raw_path).chars().take(120).collect();
                self.diag(
                    &format!("{prefix}{shown}…"),
                    Severity::Warning,
                    format!("archive entry name: {why}"),
                );
                continue;
            }
            let ty = match e.kind {
                super::tar::Kind::Dir => EntryType::Dir,
                super::tar::Kind::File => EntryType::File,
                super::tar::Kind::Other => EntryType::Other,
            };
            if self
                .entry(
                    &mut archive.data(),
                    &raw_path,
                    ty,
                    e.size,
                    prefix,
                    depth,
                    &mut names,
                )
                .is_err()
            {
                return;
            }
        }
        // The compressed stream goes on after the tar's end blocks: its checksum (gzip CRC,
        // xz index and padding) is only checked once it is read to its end.
        if magic != Magic::Plain {
            let mut rest = archive.into_inner();
            if let Err(e) = std::io::copy(&mut rest, &mut std::io::sink()) {
                self.diag(
                    &here,
                    Severity::Error,
                    format!(
                        "corrupt data after the end of the tar archive: {}",
                        sniff::describe_io(&e)
                    ),
                );
            }
        }
    }

    /// Compressed data that is not an archive (e.g. gather-extra `events.json` stored gzip
    /// without a suffix, a rotated `.log.gz`): one file, sniffed when its name says nothing.
    fn single_compressed(&mut self, br: Box<dyn Read + '_>, head: &[u8], here: &str, name: &str) {
        let inner_name = name
            .trim_end_matches(".gz")
            .trim_end_matches(".xz")
            .trim_end_matches(".zst")
            .to_string();
        self.out.count(here, Count::SeenOnly);
        let class = self
            .opts
            .classify(&format!("{here}/{inner_name}"))
            .or_else(|| self.opts.classify(&inner_name))
            .filter(|(k, _)| *k != FileKind::NestedArchive)
            .or_else(|| {
                let kind = (self.opts.sniff)(head, SniffMode::Named)?;
                let name = if here.is_empty() { &*self.input } else { here };
                Some((kind, Location::sniffed(kind, name)))
            });
        let Some((kind, at)) = class else {
            self.out.count(here, Count::Skipped);
            self.out
                .count(here, Count::NotRead(NotReadReason::UnknownFormat));
            return self.diag(
                here,
                Severity::Warning,
                "compressed data is neither an archive nor a known file",
            );
        };
        let at = super::located(&self.input, here, at);
        if self.sink.streams(kind) {
            let mut capped = Capped {
                inner: br,
                left: self.opts.max_file_bytes,
                cap: self.opts.max_file_bytes,
                what: "file",
                flag: "--max-file-bytes",
            };
            let (_, res) =
                self.sink
                    .stream(self.input.clone(), Arc::from(here), kind, at, &mut capped);
            self.out.found += 1;
            if let Err(e) = res {
                self.unreadable(here, kind, e);
            }
            return;
        }
        match sniff::read_capped(br, self.opts.max_file_bytes) {
            Ok(bytes) => {
                let f = VFile {
                    input: self.input.clone(),
                    path: Arc::from(here),
                    kind,
                    at,
                    content: Content::Mem(bytes),
                };
                self.deliver(f);
            }
            Err(e) => {
                self.out
                    .count(here, Count::NotRead(NotReadReason::Unreadable));
                self.unreadable(here, kind, e);
            }
        }
    }

    /// One archive entry (tar or zip): classified by path, sniffed when outside any known
    /// layout, opened when it is an archive itself, read into memory when needed.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn entry(
        &mut self,
        r: &mut dyn Read,
        raw_path: &str,
        ty: EntryType,
        size: u64,
        prefix: &str,
        depth: u32,
        names: &mut HashSet<String>,
    ) -> Result<(), EntryFailed> {
        let path = normalise(raw_path);
        let full = format!("{prefix}{path}");
        match ty {
            EntryType::Dir => return Ok(()),
            EntryType::Other => {
                if self.opts.classify(&path).is_some() {
                    self.diag(
                        &full,
                        Severity::Warning,
                        "archive entry is a link or special file; skipped",
                    );
                }
                self.out.count(&full, Count::SeenOnly);
                self.out
                    .count(&full, Count::NotRead(NotReadReason::NotRegular));
                return Ok(());
            }
            EntryType::File => {}
        }
        self.out.count(&full, Count::Seen);
        self.seen.see(&full);
        let mut r: Box<dyn Read + '_> = Box::new(r);
        let mut sniffed = false;
        let (kind, at) = match self.opts.classify(&path) {
            Some(class) => class,
            None if self.loose(&full) && size <= self.opts.max_file_bytes => {
                let (head, again) = match peek(r, SNIFF_HEAD) {
                    Ok(h) => h,
                    Err(e) => {
                        self.out
                            .count(&full, Count::NotRead(NotReadReason::Unreadable));
                        self.diag(&full, Severity::Error, e);
                        return Err(EntryFailed);
                    }
                };
                r = again;
                let kind = if sniff::sniff(&head).is_archive() {
                    Some(FileKind::NestedArchive)
                } else {
                    (self.opts.sniff)(&head, SniffMode::Loose)
                };
                match kind {
                    Some(k) => {
                        sniffed = true;
                        (k, Location::sniffed(k, &full))
                    }
                    None => {
                        self.skipped.push(Arc::from(full.as_str()));
                        return Ok(());
                    }
                }
            }
            None => {
                if self.loose(&full) {
                    self.out
                        .count(&full, Count::NotRead(NotReadReason::OverSizeCap));
                } else {
                    self.out
                        .count(&full, Count::NotRead(NotReadReason::NotNeeded));
                }
                return Ok(());
            }
        };
        if !names.insert(path.clone()) {
            self.diag(
                &full,
                Severity::Warning,
                "duplicate entry in archive; the later copy is used",
            );
            if let Some(i) = self.slots.remove(&full) {
                self.sink.drop_slot(i);
                self.out.found -= 1;
                self.out
                    .count(&full, Count::NotRead(NotReadReason::Duplicate));
            }
        }
        if size > self.opts.max_file_bytes {
            self.diag(
                &full,
                Severity::Warning,
                format!(
                    "entry is {size} bytes, more than the {} byte cap; skipped (raise --max-file-bytes)",
                    self.opts.max_file_bytes
                ),
            );
            self.out
                .count(&full, Count::NotRead(NotReadReason::OverSizeCap));
            return Ok(());
        }
        if kind == FileKind::NestedArchive {
            let (head, inner) = match peek(r, 512) {
                Ok(h) => h,
                Err(e) => {
                    self.out
                        .count(&full, Count::NotRead(NotReadReason::Unreadable));
                    self.diag(&full, Severity::Error, e);
                    return Err(EntryFailed);
                }
            };
            self.out.count(&full, Count::Opened);
            let magic = sniff::sniff(&head);
            if magic == Magic::Zip {
                // Held when small (what the chain of zips around it holds counts), streamed
                // from its local headers when large: memory stays bounded either way.
                let room = self.opts.max_file_bytes.saturating_sub(self.zips_held);
                if let Err(e) =
                    self.read_zip_in_stream(inner, &format!("{full}::"), depth + 1, room)
                {
                    self.out.count(&full, Count::Unopened);
                    self.out
                        .count(&full, Count::NotRead(NotReadReason::Unreadable));
                    self.diag(&full, Severity::Error, e);
                }
                return Ok(());
            }
            let fname = path.rsplit('/').next().unwrap_or("").to_string();
            self.read_stream(
                Stream::Borrowed(inner),
                magic,
                &format!("{full}::"),
                &fname,
                depth + 1,
            );
            return Ok(());
        }
        let path: Arc<str> = Arc::from(full.as_str());
        let at = super::located(&self.input, &full, at);
        if self.sink.streams(kind) {
            // Parsed while the archive is read: never held whole in memory.
            let (slot, res) = self
                .sink
                .stream(self.input.clone(), path.clone(), kind, at, &mut r);
            self.out.found += 1;
            if sniffed {
                self.sniffed.push((path, slot));
            }
            self.slots.insert(full.clone(), slot);
            return res.map_err(|e| {
                self.unreadable(&full, kind, e);
                EntryFailed
            });
        }
        match sniff::read_capped(r, self.opts.max_file_bytes) {
            Ok(bytes) => {
                let slot = self.deliver(VFile {
                    input: self.input.clone(),
                    path: path.clone(),
                    kind,
                    at,
                    content: Content::Mem(bytes),
                });
                if sniffed {
                    self.sniffed.push((path, slot));
                }
                self.slots.insert(full.clone(), slot);
                Ok(())
            }
            Err(e) => {
                self.out
                    .count(&full, Count::NotRead(NotReadReason::Unreadable));
                self.unreadable(&full, kind, e);
                Err(EntryFailed)
            }
        }
    }
}

/// Whether `path` belongs to one of the must-gathers: inside the directory that holds a root
/// (`must-gather.local.N/`, whose `timestamp` and `event-filter.html` sit beside the image
/// directory that is the root).
fn under_root(roots: &BTreeSet<String>, path: &str) -> bool {
    roots.iter().any(|r| {
        let holder = r.rsplit_once('/').map_or("", |(parent, _)| parent);
        holder.is_empty()
            || path
                .strip_prefix(holder)
                .is_some_and(|p| p.starts_with('/'))
    })
}

fn rel(root: &Path, p: &Path) -> String {
    let r = p.strip_prefix(root).unwrap_or(p);
    r.components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect::<Vec<_>>()
        .join("/")
}
