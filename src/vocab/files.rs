//! The file table and provenance. Every file mglint reads gets one entry in the bundle's
//! [`FileTable`]: its id, the input it came from, its path inside that input, its kind and
//! size, a line index built on first use, and its text while something still needs it (the
//! resource files that evidence points into). A [`Provenance`] is a file reference plus a
//! line and a byte span: objects and records never carry text of their own.

use super::kind::{FileKind, Location};
use serde::{Serialize, Serializer};
use std::sync::{Arc, OnceLock};

/// The index of a file in its bundle's [`FileTable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

impl FileId {
    /// The id of a file that is not (yet) in any table: one a source reported a problem
    /// with before it was registered.
    pub const DETACHED: FileId = FileId(u32::MAX);
}

/// What identifies a file: its table id, the input the user named and the path inside it.
/// Compared and ordered by input and path (ids depend on the order files were registered).
#[derive(Debug)]
pub struct FileMeta {
    pub id: FileId,
    /// The input as the user named it (a path or URL).
    pub input: Arc<str>,
    /// The path of the file inside that input ('/'-separated; empty when the input is the
    /// file).
    pub path: Arc<str>,
}

/// `input/path`: the input alone when the path is empty (the input is the file), the path
/// alone when the input is (a file outside every input).
pub fn join_path(input: &str, path: &str) -> String {
    if path.is_empty() {
        input.to_string()
    } else if input.is_empty() {
        path.to_string()
    } else {
        format!("{}/{}", input.trim_end_matches('/'), path)
    }
}

/// Whether `path` lies inside the folder `dir` (both relative to one input; a trailing `/`
/// on `dir` is allowed): `a/b/c` is inside `a/b`, `a/bc` is not, nor is `a/b` itself.
pub fn is_under(path: &str, dir: &str) -> bool {
    path.strip_prefix(dir.trim_end_matches('/'))
        .is_some_and(|r| r.starts_with('/'))
}

/// A cheap, shared handle to a file's identity.
#[derive(Debug, Clone)]
pub struct FileRef(Arc<FileMeta>);

impl FileRef {
    /// A file outside any table (see [`FileId::DETACHED`]).
    pub fn detached(input: &str, path: &str) -> Self {
        FileRef(Arc::new(FileMeta {
            id: FileId::DETACHED,
            input: Arc::from(input),
            path: Arc::from(path),
        }))
    }

    pub fn id(&self) -> FileId {
        self.0.id
    }

    pub fn input(&self) -> &str {
        &self.0.input
    }

    pub fn path(&self) -> &str {
        &self.0.path
    }

    /// `input/path` (or just the input when the input is the file itself).
    pub fn display_path(&self) -> String {
        join_path(self.input(), self.path())
    }

    fn key(&self) -> (&str, &str) {
        (self.input(), self.path())
    }
}

impl PartialEq for FileRef {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.key() == other.key()
    }
}

impl Eq for FileRef {}

impl PartialOrd for FileRef {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for FileRef {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl std::hash::Hash for FileRef {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h);
    }
}

/// The origin of one object or record: a file, and where in it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Provenance {
    pub file: FileRef,
    /// 1-based line number, when known.
    pub line: Option<u32>,
    /// Byte span `[start, end)` inside the file, when known.
    pub span: Option<(u64, u64)>,
}

impl Provenance {
    /// A provenance for a whole file.
    pub fn file(file: &FileRef) -> Self {
        Provenance {
            file: file.clone(),
            line: None,
            span: None,
        }
    }

    /// A whole file outside any table (see [`FileRef::detached`]).
    pub fn detached(input: &str, path: &str) -> Self {
        Provenance::file(&FileRef::detached(input, path))
    }

    /// The same file, at a given line and byte span.
    pub fn at(&self, line: u32, start: u64, end: u64) -> Self {
        Provenance {
            file: self.file.clone(),
            line: Some(line),
            span: Some((start, end)),
        }
    }

    /// The same file, at a line only.
    pub fn at_line(&self, line: Option<u32>) -> Self {
        Provenance {
            file: self.file.clone(),
            line,
            span: None,
        }
    }

    /// Whether two provenances name the same file.
    pub fn same_file(&self, other: &Provenance) -> bool {
        self.file == other.file
    }

    /// `input/path` (see [`FileRef::display_path`]).
    pub fn display_path(&self) -> String {
        self.file.display_path()
    }
}

impl std::fmt::Display for Provenance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}", self.display_path(), l),
            None => write!(f, "{}", self.display_path()),
        }
    }
}

impl Serialize for Provenance {
    /// `{"input": …, "path": …, "line": …, "span": […]}` (line and span when known).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("input", self.file.input())?;
        m.serialize_entry("path", self.file.path())?;
        if let Some(l) = self.line {
            m.serialize_entry("line", &l)?;
        }
        if let Some(sp) = self.span {
            m.serialize_entry("span", &sp)?;
        }
        m.end()
    }
}

/// A file's text, shared (the file table's, and every evidence snippet that points into it):
/// the buffer the file was read into, kept as it is. Made into an `Arc<str>` it was copied,
/// and the freed buffer of a large file (an 11 MB `events.yaml`) raised the C allocator's
/// threshold for mapping blocks of their own to its size, so that everything smaller was
/// carved from heaps it keeps: tens of megabytes held after they were freed.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileText(Arc<String>);

impl FileText {
    /// Whether two texts are the same buffer (not only equal).
    pub fn same(&self, other: &FileText) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The address of the buffer, a key for work done once per text.
    pub fn key(&self) -> usize {
        self.0.as_ptr() as usize
    }
}

impl std::ops::Deref for FileText {
    type Target = str;
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl AsRef<str> for FileText {
    fn as_ref(&self) -> &str {
        self
    }
}

impl std::borrow::Borrow<str> for FileText {
    fn borrow(&self) -> &str {
        self
    }
}

impl std::fmt::Debug for FileText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.0.as_str(), f)
    }
}

impl std::fmt::Display for FileText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl From<String> for FileText {
    fn from(s: String) -> Self {
        FileText(Arc::new(s))
    }
}

impl From<&str> for FileText {
    fn from(s: &str) -> Self {
        FileText(Arc::new(s.to_string()))
    }
}

/// Byte offsets of line starts in a text, for turning offsets into line numbers: the start
/// of every [`LineIndex::STRIDE`]th line, the lines between counted in the text when asked
/// (an index of every line of an 11 MB `events.yaml` was 4 MB, held for the whole run).
#[derive(Debug)]
pub struct LineIndex {
    /// `starts[k]`: where line `k * STRIDE + 1` starts.
    starts: Vec<usize>,
}

impl LineIndex {
    /// Lines between two recorded starts: a lookup counts at most this many newlines.
    pub const STRIDE: usize = 32;

    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            memchr::memchr_iter(b'\n', text.as_bytes())
                .skip(Self::STRIDE - 1)
                .step_by(Self::STRIDE)
                .map(|i| i + 1),
        );
        LineIndex { starts }
    }

    /// The 1-based line holding byte `offset` of `text` (the text the index was made of).
    pub fn line_of(&self, text: &str, offset: usize) -> u32 {
        // The last recorded start at or before `offset` (the first is 0), then the newlines
        // between it and `offset`.
        let k = self.starts.partition_point(|&s| s <= offset).max(1) - 1;
        let to = offset.min(text.len());
        let from = self.starts.get(k).copied().unwrap_or(0).min(to);
        let within = memchr::memchr_iter(b'\n', &text.as_bytes()[from..to]).count();
        u32::try_from(k * Self::STRIDE + within + 1).unwrap_or(u32::MAX)
    }

    /// The byte offset where 1-based `line` of `text` starts.
    pub fn start_of(&self, text: &str, line: u32) -> Option<usize> {
        let i = (line as usize).checked_sub(1)?;
        let mut at = *self.starts.get(i / Self::STRIDE)?;
        for _ in 0..i % Self::STRIDE {
            at += memchr::memchr(b'\n', text.as_bytes().get(at..)?)? + 1;
        }
        Some(at)
    }
}

/// A file's line index with the text it indexes (see [`FileEntry::lines`]).
#[derive(Debug, Clone, Copy)]
pub struct Lines<'a> {
    index: &'a LineIndex,
    text: &'a str,
}

impl Lines<'_> {
    /// The 1-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> u32 {
        self.index.line_of(self.text, offset)
    }

    /// The byte offset where 1-based `line` starts.
    pub fn start_of(&self, line: u32) -> Option<usize> {
        self.index.start_of(self.text, line)
    }
}

/// One file of the table.
#[derive(Debug)]
pub struct FileEntry {
    pub file: FileRef,
    pub kind: FileKind,
    /// What the file's path says of it, as the walker classified it.
    pub at: Location,
    /// Bytes read (after decompression).
    pub size: u64,
    /// The file's text, kept for files that evidence may point into (resources).
    text: Option<FileText>,
    lines: OnceLock<LineIndex>,
}

impl FileEntry {
    pub fn text(&self) -> Option<&FileText> {
        self.text.as_ref()
    }

    /// The line index of the kept text, built on first use.
    pub fn lines(&self) -> Option<Lines<'_>> {
        let text = self.text.as_ref()?;
        Some(Lines {
            index: self.lines.get_or_init(|| LineIndex::new(text)),
            text,
        })
    }
}

/// Every file a bundle read, by id.
#[derive(Debug, Default)]
pub struct FileTable {
    entries: Vec<FileEntry>,
}

impl Clone for FileTable {
    fn clone(&self) -> Self {
        FileTable {
            entries: self
                .entries
                .iter()
                .map(|e| FileEntry {
                    file: e.file.clone(),
                    kind: e.kind,
                    at: e.at.clone(),
                    size: e.size,
                    text: e.text.clone(),
                    lines: OnceLock::new(),
                })
                .collect(),
        }
    }
}

impl FileTable {
    /// Adds a file whose path says nothing beyond its kind and returns its reference.
    pub fn register(&mut self, input: Arc<str>, path: Arc<str>, kind: FileKind) -> FileRef {
        self.register_at(input, path, kind, Location::Plain)
    }

    /// Adds a file with its location and returns its reference.
    pub fn register_at(
        &mut self,
        input: Arc<str>,
        path: Arc<str>,
        kind: FileKind,
        at: Location,
    ) -> FileRef {
        let id = FileId(u32::try_from(self.entries.len()).unwrap_or(u32::MAX - 1));
        let file = FileRef(Arc::new(FileMeta { id, input, path }));
        self.entries.push(FileEntry {
            file: file.clone(),
            kind,
            at,
            size: 0,
            text: None,
            lines: OnceLock::new(),
        });
        file
    }

    /// Records what was read of a registered file: its size and, when evidence may point
    /// into it, its text.
    pub fn set_read(&mut self, id: FileId, size: u64, text: Option<FileText>) {
        if let Some(e) = self.entries.get_mut(id.0 as usize) {
            e.size = size;
            e.text = text;
        }
    }

    pub fn get(&self, id: FileId) -> Option<&FileEntry> {
        self.entries.get(id.0 as usize)
    }

    /// The kept text of a file.
    pub fn text(&self, file: &FileRef) -> Option<&FileText> {
        self.get(file.id())
            .filter(|e| e.file == *file)
            .and_then(FileEntry::text)
    }

    /// The entry of a file (by id, checked against its identity).
    pub fn entry(&self, file: &FileRef) -> Option<&FileEntry> {
        self.get(file.id()).filter(|e| e.file == *file)
    }

    /// Every file, in registration order.
    pub fn iter(&self) -> impl Iterator<Item = &FileEntry> {
        self.entries.iter()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Drops the kept texts (after the last report that may cite them is rendered).
    pub fn release_texts(&mut self) {
        for e in &mut self.entries {
            e.text = None;
            e.lines = OnceLock::new();
        }
    }

    /// Appends another table's files (merging bundles), returning the new reference of
    /// each of its files by old id.
    pub fn absorb(&mut self, other: FileTable) -> Vec<FileRef> {
        let mut map = Vec::with_capacity(other.entries.len());
        for e in other.entries {
            let f = self.register_at(
                Arc::from(e.file.input()),
                Arc::from(e.file.path()),
                e.kind,
                e.at.clone(),
            );
            self.set_read(f.id(), e.size, e.text);
            map.push(f);
        }
        map
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_under_a_folder_only_past_a_slash() {
        assert!(is_under("a/b/c.yaml", "a/b"));
        assert!(is_under("a/b/c.yaml", "a/b/"));
        assert!(is_under("a/b/x.tar.gz::c.yaml", "a"));
        assert!(!is_under("a/bc/d.yaml", "a/b"));
        assert!(!is_under("a/b", "a/b"));
        assert!(!is_under("x/a/b/c", "a/b"));
    }

    #[test]
    fn registered_files_are_found_by_id_and_compared_by_name() {
        let mut t = FileTable::default();
        let a = t.register(Arc::from("in"), Arc::from("a.yaml"), FileKind::Resource);
        let b = t.register(Arc::from("in"), Arc::from("b.yaml"), FileKind::Resource);
        t.set_read(b.id(), 4, Some(FileText::from("x\ny\n")));
        assert!(t.text(&a).is_none());
        assert_eq!(t.text(&b).map(|s| s.as_ref()), Some("x\ny\n"));
        assert_eq!(
            t.entry(&b).and_then(|e| e.lines()).map(|l| l.line_of(2)),
            Some(2)
        );
        assert!(a < b);
        assert_eq!(FileRef::detached("in", "a.yaml"), a);
        assert_eq!(
            Provenance::file(&b).at_line(Some(2)).to_string(),
            "in/b.yaml:2"
        );
    }

    #[test]
    fn line_index_maps_offsets_to_lines() {
        let text = "ab\ncd\n\nef";
        let l = LineIndex::new(text);
        assert_eq!(l.line_of(text, 0), 1);
        assert_eq!(l.line_of(text, 2), 1);
        assert_eq!(l.line_of(text, 3), 2);
        assert_eq!(l.line_of(text, 6), 3);
        assert_eq!(l.line_of(text, 7), 4);
        assert_eq!(l.start_of(text, 4), Some(7));
        assert_eq!(l.start_of(text, 0), None);
    }

    /// The sparse index answers as an index of every line start did, at every offset and
    /// line of texts longer than its stride, with and without a final newline.
    #[test]
    fn a_sparse_line_index_answers_as_every_line_start_would() {
        let mut long = String::new();
        for i in 0..(3 * LineIndex::STRIDE + 5) {
            long.push_str(&"x".repeat(i % 7));
            long.push('\n');
            if i % 11 == 0 {
                long.push('\n');
            }
        }
        let cut = format!("{}tail", long.trim_end_matches('\n'));
        for text in ["", "\n", "a", "a\n\n", long.as_str(), cut.as_str()] {
            let mut every = vec![0];
            every.extend(text.match_indices('\n').map(|(i, _)| i + 1));
            let l = LineIndex::new(text);
            for offset in 0..text.len() + 3 {
                let want = every.partition_point(|&s| s <= offset) as u32;
                assert_eq!(l.line_of(text, offset), want, "{text:?} at {offset}");
            }
            for line in 0..every.len() as u32 + 3 {
                let want = (line as usize)
                    .checked_sub(1)
                    .and_then(|i| every.get(i).copied());
                assert_eq!(l.start_of(text, line), want, "{text:?} line {line}");
            }
        }
    }
}
