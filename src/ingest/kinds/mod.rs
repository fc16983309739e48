//! The input kinds: one module per [`FileKind`], each a [`Reader`] (how its files are read,
//! what parsing one gives, how that merges into the [`Bundle`], whether the bundle holds any,
//! how its content is told when the path says nothing), and one registry (`registry!` at
//! the end of this file) that lists them. Dispatch is a `match` on the kind the registry
//! generates: static, one arm per kind, no allocation and no dynamic call per file.
//!
//! Adding an input kind: its file here implementing [`Reader`], its line in the registry, and
//! (outside ingestion, which cannot name it first) its `FileKind` variant with the path rule
//! that picks its files (`vocab::kind`) and the `Bundle` field that holds its records.

use super::FileResult;
use crate::bundle::Bundle;
use crate::model::{Cause, Diagnostic, Objects, Provenance, Severity};
use crate::source::{ReadError, SourceOptions, VFile};
use crate::vocab::encoding::{self, Encoding};
use crate::vocab::kind::{Location, SniffMode};
use crate::vocab::{FileKind, FileRef};
use std::io::BufRead;

/// How a kind's files are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Loaded whole, bounded by `--max-file-bytes`; an archive entry waits as bytes.
    Whole,
    /// Read as a stream and never held whole; an archive entry still waits as bytes.
    Stream,
    /// Read as a stream, and an archive entry is parsed straight from the archive as it is
    /// decompressed ([`Reader::read_stream`]).
    ArchiveStream,
}

/// What a content test says of a file whose path said nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sniff {
    /// Not this kind's content: the next kind is asked.
    No,
    /// This kind.
    Is,
    /// This kind's format, but not a file mglint reads (a klog log found loose that is not
    /// the CVO's, JSON that is nothing known): no later kind is asked.
    Refuse,
}

/// The first bytes of a file, as the content tests read them.
pub(crate) struct Head<'a> {
    /// The text, decoded, without a byte order mark or leading white space.
    pub text: &'a str,
    /// Whether it opens like JSON (`{` or `[`).
    pub json: bool,
    /// The first line.
    pub first: &'a str,
    /// The first line that is neither blank nor a `#` comment.
    pub first_data: &'a str,
    pub mode: SniffMode,
}

/// One input kind (see the module docs). Every method but [`Reader::read`],
/// [`Reader::merge`] and [`Reader::provenances`] has a default: read whole, no objects, never
/// present, never sniffed.
pub(crate) trait Reader {
    /// What parsing one file gives.
    type Out;
    /// How its files are read.
    const READING: Reading = Reading::Whole;

    /// Reads one file (`f.at` says what its path says; the path is never split again).
    /// `None` when it gave nothing: why is in `cx`'s diagnostics, when it is a problem.
    fn read(f: VFile, cx: &mut FileCx<'_>) -> Option<Self::Out>;

    /// Reads an archive entry from the archive's stream ([`Reading::ArchiveStream`] only).
    fn read_stream(
        _r: Box<dyn BufRead + '_>,
        _at: &Location,
        _cx: &mut FileCx<'_>,
    ) -> Option<Self::Out> {
        None
    }

    /// Merges one file's records into the bundle, in the order the files were found.
    fn merge(out: Self::Out, prov: &Provenance, b: &mut Bundle);

    /// Every provenance in what one file gave, to change (a file moved to another cluster's
    /// bundle under another name: `Gathered::split`).
    fn provenances(out: &mut Self::Out, set: &mut dyn FnMut(&mut Provenance));

    /// The objects one file gave, when it gives objects (read to tell clusters apart).
    fn objects(_out: &Self::Out) -> Option<&Objects> {
        None
    }

    /// Whether the bundle holds something of this kind that counts as recognisable input.
    fn present(_b: &Bundle) -> bool {
        false
    }

    /// The content test, first pass (the registry's order is the order of the tests).
    fn sniff(_h: &Head<'_>) -> Sniff {
        Sniff::No
    }

    /// The content test, second pass: weaker evidence, asked only when no kind took the
    /// file in the first (a log whose first lines are noise).
    fn sniff_further(_h: &Head<'_>) -> Sniff {
        Sniff::No
    }
}

/// What a [`Reader`] reports into while it reads one file.
pub(crate) struct FileCx<'o> {
    /// The kind the file is read as (a reader that finds another kind's content says so).
    pub kind: FileKind,
    pub prov: Provenance,
    pub opts: &'o SourceOptions,
    /// Bytes read (of the decompressed content).
    pub bytes: u64,
    pub diags: Vec<Diagnostic>,
    /// The text, kept in the file table for evidence (resource files).
    pub text: Option<crate::vocab::files::FileText>,
}

impl<'o> FileCx<'o> {
    fn new(kind: FileKind, prov: Provenance, opts: &'o SourceOptions) -> Self {
        FileCx {
            kind,
            prov,
            opts,
            bytes: 0,
            diags: Vec::new(),
            text: None,
        }
    }

    /// A diagnostic of this file.
    pub fn note(&mut self, level: Severity, line: Option<u32>, reason: impl ToString) {
        let d = super::diag(&self.prov, level, line, None, reason.to_string());
        self.diags.push(d);
    }

    /// The file could not be read at all: an error with the reason, nothing read.
    pub fn fail<T>(&mut self, reason: impl ToString) -> Option<T> {
        self.note(Severity::Error, None, reason);
        self.bytes = 0;
        self.text = None;
        None
    }

    /// An error diagnostic with a typed cause.
    pub fn error_with(&mut self, cause: Cause, reason: String) {
        let d = super::diag(&self.prov, Severity::Error, None, None, reason);
        self.diags.push(Diagnostic { cause, ..d });
    }

    /// The file as a decoded stream (decompressed, its encoding made UTF-8), or `None` after
    /// [`FileCx::fail`].
    pub fn open(&mut self, f: VFile) -> Option<Box<dyn BufRead>> {
        match f.open(self.opts).map(encoding::decode_stream) {
            Ok(Ok(r)) => Some(r),
            Ok(Err(e)) => self.fail(e),
            Err(e) => self.fail(e),
        }
    }

    /// The file's bytes, decompressed and decoded to UTF-8 (`decode`; else only a UTF-8 byte
    /// order mark taken off), counted in [`FileCx::bytes`]; `None` after [`FileCx::fail`].
    pub fn load(&mut self, f: VFile, decode: bool) -> Option<(Vec<u8>, Encoding)> {
        let decoded = f.load(self.opts).map(|d| {
            if decode {
                encoding::decode(d)
            } else {
                Ok(encoding::strip_utf8_bom(d))
            }
        });
        match decoded {
            Ok(Ok((d, enc))) => {
                self.bytes = d.len() as u64;
                Some((d, enc))
            }
            Ok(Err(e)) => self.fail(e),
            Err(e) => self.fail(e),
        }
    }

    fn finish(self, parsed: Parsed) -> FileResult {
        FileResult {
            kind: self.kind,
            prov: self.prov,
            bytes: self.bytes,
            parsed,
            diags: self.diags,
            text: self.text,
        }
    }
}

/// Reads one file as its reader `R` does.
fn read<R: Reader>(
    f: VFile,
    file: &FileRef,
    opts: &SourceOptions,
    wrap: fn(R::Out) -> Parsed,
) -> FileResult {
    let mut cx = FileCx::new(f.kind, Provenance::file(file), opts);
    let out = R::read(f, &mut cx);
    cx.finish(out.map_or(Parsed::Nothing, wrap))
}

/// Reads an archive entry from the archive's stream as its reader `R` does.
fn read_stream<R: Reader>(
    kind: FileKind,
    r: Result<Box<dyn BufRead + '_>, ReadError>,
    at: &Location,
    prov: Provenance,
    opts: &SourceOptions,
    wrap: fn(R::Out) -> Parsed,
) -> FileResult {
    let mut cx = FileCx::new(kind, prov, opts);
    let out = match r {
        Ok(r) => R::read_stream(r, at, &mut cx),
        Err(e) => cx.fail(e),
    };
    cx.finish(out.map_or(Parsed::Nothing, wrap))
}

/// The registry: one line per input kind, `FileKind variant => module::Reader type`. The
/// order is the order of the content tests ([`sniff`]).
macro_rules! registry {
    ($( $kind:ident => $module:ident :: $reader:ident ),* $(,)?) => {
        $( mod $module; )*

        /// What parsing one file gave, by kind.
        pub(crate) enum Parsed {
            $( $kind(<$module::$reader as Reader>::Out), )*
            /// Nothing (the file could not be read, or held nothing to keep).
            Nothing,
        }

        /// Reads one file as its kind's reader does.
        pub(super) fn parse(f: VFile, file: &FileRef, opts: &SourceOptions) -> FileResult {
            match f.kind {
                $( FileKind::$kind => read::<$module::$reader>(f, file, opts, Parsed::$kind), )*
            }
        }

        /// Reads an archive entry from the archive's stream (a kind read
        /// [`Reading::ArchiveStream`]).
        pub(super) fn parse_stream(
            kind: FileKind,
            r: Result<Box<dyn BufRead + '_>, ReadError>,
            at: &Location,
            prov: Provenance,
            opts: &SourceOptions,
        ) -> FileResult {
            match kind {
                $( FileKind::$kind => {
                    read_stream::<$module::$reader>(kind, r, at, prov, opts, Parsed::$kind)
                } )*
            }
        }

        /// How files of `kind` are read.
        pub(super) fn reading(kind: FileKind) -> Reading {
            match kind {
                $( FileKind::$kind => <$module::$reader as Reader>::READING, )*
            }
        }

        /// Merges one file's records into the bundle.
        pub(super) fn merge(parsed: Parsed, prov: &Provenance, b: &mut Bundle) {
            match parsed {
                $( Parsed::$kind(out) => <$module::$reader as Reader>::merge(out, prov, b), )*
                Parsed::Nothing => {}
            }
        }

        impl Parsed {
            /// Every provenance in it, to change (see [`Reader::provenances`]).
            pub(super) fn provenances(&mut self, set: &mut dyn FnMut(&mut Provenance)) {
                match self {
                    $( Parsed::$kind(out) => <$module::$reader as Reader>::provenances(out, set), )*
                    Parsed::Nothing => {}
                }
            }

            /// The objects in it, when it holds objects.
            pub(super) fn objects(&self) -> Option<&Objects> {
                match self {
                    $( Parsed::$kind(out) => <$module::$reader as Reader>::objects(out), )*
                    Parsed::Nothing => None,
                }
            }
        }

        /// Whether the bundle holds anything recognisable.
        pub(super) fn found_any(b: &Bundle) -> bool {
            false $( || <$module::$reader as Reader>::present(b) )*
        }

        /// The kind the content of a file says it is: each kind's test in the registry's
        /// order, then each kind's second test.
        pub(super) fn sniff(h: &Head<'_>) -> Option<FileKind> {
            $(
                match <$module::$reader as Reader>::sniff(h) {
                    Sniff::Is => return Some(FileKind::$kind),
                    Sniff::Refuse => return None,
                    Sniff::No => {}
                }
            )*
            $(
                match <$module::$reader as Reader>::sniff_further(h) {
                    Sniff::Is => return Some(FileKind::$kind),
                    Sniff::Refuse => return None,
                    Sniff::No => {}
                }
            )*
            None
        }
    };
}

registry! {
    Junit => junit::JunitReports,
    Intervals => intervals::IntervalFiles,
    ProwMeta => prow_meta::ProwMetadata,
    Resource => resource::ResourceFiles,
    CvoLog => cvo_log::CvoLogs,
    TestLog => test_log::TestLogs,
    Timestamp => timestamp::Timestamps,
    GatherVersion => gather_version::GatherVersions,
    PodLog => pod_log::PodLogs,
    NestedArchive => nested_archive::NestedArchives,
}
