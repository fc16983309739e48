//! The ingestion pipeline: the inputs are walked one after another on one thread while the
//! files found are parsed on the others. Archive entries that are logs are parsed straight
//! from the archive stream as it is decompressed; other entries are handed over as bytes, with
//! at most [`MAX_BYTES_IN_FLIGHT`] of them waiting (the walker helps parse when more are), so
//! memory is bounded by the records and a few entries, never by the archive. Files on disk
//! that are read whole count their size against the same bound. Results are put
//! back in the order the files were found, so the output does not depend on the thread count.

use super::FileResult;
use super::kinds::{self, Reading};
use crate::source::{self, Collected, Content, ReadError, Sink, SourceError, SourceOptions, VFile};
use crate::vocab::kind::Location;
use crate::vocab::{FileKind, FileTable, Provenance};
use std::collections::HashSet;
use std::io::{BufReader, Read};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// How many bytes of archive entries (or of files on disk read whole) may wait to be parsed
/// before the walker stops reading and helps parse.
pub const MAX_BYTES_IN_FLIGHT: u64 = 64 << 20;

/// What the pipeline produced: each input's collection (layout, diagnostics) or why it could
/// not be opened, and the parse results of the files, in the order they were found.
pub(super) struct Output {
    pub inputs: Vec<Result<Collected, SourceError>>,
    pub files: Vec<FileResult>,
}

/// Walks `inputs` in order, registering each file found in `table` and parsing it.
pub(super) fn run(
    inputs: &[(String, String)],
    opts: &SourceOptions,
    table: &mut FileTable,
) -> Output {
    let results: Mutex<Vec<(u32, FileResult)>> = Mutex::new(Vec::new());
    let in_flight = AtomicU64::new(0);
    let mut collected = Vec::with_capacity(inputs.len());
    let mut dropped = HashSet::new();
    rayon::scope(|scope| {
        let mut sink = ParseSink {
            table,
            scope,
            opts,
            results: &results,
            in_flight: &in_flight,
            dropped: HashSet::new(),
        };
        for (path, name) in inputs {
            collected.push(source::collect_into(path, name, opts, &mut sink));
        }
        dropped = std::mem::take(&mut sink.dropped);
    });
    let mut files = results.into_inner().unwrap_or_else(|p| p.into_inner());
    files.sort_by_key(|(id, _)| *id);
    Output {
        inputs: collected,
        files: files
            .into_iter()
            .filter(|(id, _)| !dropped.contains(id))
            .map(|(_, r)| r)
            .collect(),
    }
}

/// Registers and parses the files a walk finds (see the module docs).
struct ParseSink<'a, 'scope> {
    table: &'a mut FileTable,
    scope: &'a rayon::Scope<'scope>,
    opts: &'scope SourceOptions,
    results: &'scope Mutex<Vec<(u32, FileResult)>>,
    in_flight: &'scope AtomicU64,
    dropped: HashSet<u32>,
}

impl ParseSink<'_, '_> {
    fn push(results: &Mutex<Vec<(u32, FileResult)>>, id: u32, r: FileResult) {
        results
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((id, r));
    }

    /// Waits, running queued parses on this thread, while too many bytes wait to be parsed.
    fn throttle(&self) {
        super::help_pool_while(|| self.in_flight.load(Ordering::Acquire) > MAX_BYTES_IN_FLIGHT);
    }
}

impl Sink for ParseSink<'_, '_> {
    fn file(&mut self, f: VFile) -> usize {
        let file = self
            .table
            .register_at(f.input.clone(), f.path.clone(), f.kind, f.at.clone());
        let id = file.id().0;
        // What parsing will hold at once: entry bytes already read, or the size of a file on
        // disk that is read whole. Logs and interval files stream and count nothing; so a
        // handful of huge files on disk are read one after another, not one per thread.
        let streamed =
            matches!(f.content, Content::Disk(_)) && kinds::reading(f.kind) != Reading::Whole;
        let bytes = if streamed {
            0
        } else {
            f.stored_len().min(self.opts.max_file_bytes)
        };
        self.throttle();
        self.in_flight.fetch_add(bytes, Ordering::AcqRel);
        let (opts, results, in_flight) = (self.opts, self.results, self.in_flight);
        self.scope.spawn(move |_| {
            let r = kinds::parse(f, &file, opts);
            in_flight.fetch_sub(bytes, Ordering::AcqRel);
            Self::push(results, id, r);
        });
        id as usize
    }

    fn streams(&self, kind: FileKind) -> bool {
        kinds::reading(kind) == Reading::ArchiveStream
    }

    fn stream(
        &mut self,
        input: Arc<str>,
        path: Arc<str>,
        kind: FileKind,
        at: Location,
        r: &mut dyn Read,
    ) -> (usize, Result<(), ReadError>) {
        let file = self.table.register_at(input, path, kind, at.clone());
        let id = file.id().0;
        let prov = Provenance::file(&file);
        let mut tracked = Tracked {
            inner: r,
            error: None,
        };
        let r = source::decompressed(
            Box::new(BufReader::with_capacity(1 << 18, &mut tracked)),
            self.opts,
        );
        let result = kinds::parse_stream(kind, r, &at, prov, self.opts);
        Self::push(self.results, id, result);
        let read = match tracked.error {
            Some(e) => Err(ReadError::io(&e)),
            None => Ok(()),
        };
        (id as usize, read)
    }

    fn drop_slot(&mut self, slot: usize) {
        self.dropped.insert(slot as u32);
    }
}

/// A reader that remembers the first error of the stream under it: an archive entry's read
/// error means the archive cannot go on, whatever the parser made of it.
struct Tracked<'r> {
    inner: &'r mut dyn Read,
    error: Option<std::io::Error>,
}

impl Read for Tracked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self.inner.read(buf) {
            Err(e) if e.kind() != std::io::ErrorKind::Interrupted => {
                let copy = std::io::Error::new(e.kind(), e.to_string());
                self.error.get_or_insert(e);
                Err(copy)
            }
            r => r,
        }
    }
}
