//! Zip archives (what Windows users and the customer portal send): read through their central
//! directory, so they need a seekable reader; a zip inside another archive or on a pipe is
//! held in memory first when small and streamed from its local headers when large
//! (`source::zipstream`). Entries go through the same per-entry rules as tar entries: safe
//! paths, the per-file and per-archive caps, nesting, sniffing.
//!
//! The end record is found as a careful reader finds it: from the end, the last one whose
//! comment ends exactly at the end of the file, so a self-extracting zip (a program before
//! the archive) is a zip, and a fake end record hidden in the comment is not taken for the
//! real one (the comment is masked before the zip crate looks). Entries whose data overlap
//! another's (the shape of overlapping-entry zip bombs, where thousands of names share one
//! compressed body) are skipped by name.

use super::sniff::{self, Capped, EOCD_LEN, end_record};
use super::walk::{EntryType, Walker};
use crate::model::Severity;
use std::collections::HashSet;
use std::io::{Read, Seek, SeekFrom};

/// The fixed part of a local file header.
const LOCAL_HEADER_LEN: u64 = 30;

/// A reader that reads `[from, to)` as zeros: the zip comment, masked so that a fake end
/// record in it cannot be found.
struct Masked<R> {
    inner: R,
    from: u64,
    to: u64,
    pos: u64,
}

impl<R: Read> Read for Masked<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let (start, end) = (self.pos, self.pos + n as u64);
        let (lo, hi) = (start.max(self.from), end.min(self.to));
        if lo < hi {
            buf[(lo - start) as usize..(hi - start) as usize].fill(0);
        }
        self.pos = end;
        Ok(n)
    }
}

impl<R: Seek> Seek for Masked<R> {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        self.pos = self.inner.seek(to)?;
        Ok(self.pos)
    }
}

impl Walker<'_, '_> {
    /// Reads every entry of a zip archive. A bad entry (encrypted, an unsupported method, a
    /// CRC error, truncated data) is a diagnostic and the next entry is read.
    pub(super) fn read_zip<R: Read + Seek>(&mut self, r: R, prefix: &str, depth: u32) {
        let here = prefix.trim_end_matches("::").to_string();
        if self.too_deep(&here, depth) {
            return;
        }
        let mut r = r;
        let (from, to) = match end_record(&mut r) {
            Ok(Some((at, comment))) if comment > 0 => (at + EOCD_LEN, at + EOCD_LEN + comment),
            _ => (0, 0),
        };
        let r = Masked {
            inner: r,
            from,
            to,
            pos: 0,
        };
        let mut zip = match ::zip::ZipArchive::new(r) {
            Ok(z) => z,
            Err(e) => {
                return self.diag(
                    &here,
                    Severity::Error,
                    format!("cannot read zip archive: {}", describe(&e)),
                );
            }
        };
        let mut names = HashSet::new();
        let overlapping = overlapping_entries(&mut zip);
        // The whole archive's decompressed bytes are bounded like a tar stream's.
        let mut left = self.opts.max_archive_bytes;
        for i in 0..zip.len() {
            let name = match zip.name_for_index(i) {
                Some(Ok(n)) => n.to_string(),
                _ => String::new(),
            };
            if let Some(other) = overlapping.get(&i) {
                let full = format!("{prefix}{}", super::normalise(&name));
                self.diag(
                    &full,
                    Severity::Warning,
                    format!(
                        "zip entry's data overlaps entry `{}` (the shape of a zip bomb); skipped",
                        super::normalise(other)
                    ),
                );
                continue;
            }
            let mut file = match zip.by_index(i) {
                Ok(f) => f,
                Err(e) => {
                    let full = format!("{prefix}{}", super::normalise(&name));
                    self.diag(
                        &full,
                        Severity::Warning,
                        format!("zip entry cannot be read: {}; skipped", describe(&e)),
                    );
                    continue;
                }
            };
            let raw_path = file.name_raw().to_vec();
            let raw_path = String::from_utf8_lossy(&raw_path).to_string();
            let ty = if file.is_dir() {
                EntryType::Dir
            } else if file.is_symlink() || !file.is_file() {
                EntryType::Other
            } else {
                EntryType::File
            };
            let size = file.size();
            let mut capped = Capped {
                inner: &mut file,
                left,
                cap: self.opts.max_archive_bytes,
                what: "archive",
                flag: "--max-archive-bytes",
            };
            let failed = self
                .entry(&mut capped, &raw_path, ty, size, prefix, depth, &mut names)
                .is_err();
            left = capped.left;
            if failed && left == 0 {
                return;
            }
        }
    }
}

/// The entries whose data begin inside an earlier entry's data (by local header offset and
/// compressed size), each with the name of the entry it overlaps. The first entry of each
/// overlapping group is kept.
fn overlapping_entries<R: Read + Seek>(
    zip: &mut ::zip::ZipArchive<R>,
) -> std::collections::HashMap<usize, String> {
    let mut spans: Vec<(u64, u64, usize)> = (0..zip.len())
        .filter_map(|i| {
            let f = zip.by_index_raw(i).ok()?;
            let start = f.header_start();
            let end = start
                .saturating_add(LOCAL_HEADER_LEN)
                .saturating_add(f.compressed_size());
            Some((start, end, i))
        })
        .collect();
    spans.sort_unstable();
    let mut out = std::collections::HashMap::new();
    let mut reach: Option<(u64, usize)> = None;
    for (start, end, i) in spans {
        match reach {
            Some((until, owner)) if start < until => {
                let name = match zip.name_for_index(owner) {
                    Some(Ok(n)) => n.to_string(),
                    _ => String::new(),
                };
                out.insert(i, name);
                if end > until {
                    reach = Some((end, owner));
                }
            }
            _ => reach = Some((end, i)),
        }
    }
    out
}

/// A zip error for a person.
fn describe(e: &::zip::result::ZipError) -> String {
    use ::zip::result::ZipError;
    match e {
        ZipError::Io(io) => sniff::describe_io(io),
        ZipError::UnsupportedArchive(what) => format!("unsupported zip feature: {what}"),
        ZipError::InvalidArchive(what) => format!("corrupt zip archive: {what}"),
        ZipError::CompressionMethodNotSupported(m) => {
            format!("compression method {m} is not supported (only stored and deflate are)")
        }
        ZipError::InvalidPassword => "encrypted entry".to_string(),
        other => other.to_string(),
    }
}
