//! Zip archives (what Windows users and the customer portal send): read through their central
//! directory, so they need a seekable reader; a zip inside another archive or on a pipe is
//! buffered first (bounded by `--max-file-bytes`). Entries go through the same per-entry rules
//! as tar entries: safe paths, the per-file and per-archive caps, nesting, sniffing.

use super::sniff::{self, Capped};
use super::walk::{EntryType, Walker};
use crate::model::DiagLevel;
use std::collections::HashSet;
use std::io::{Read, Seek};

impl Walker<'_, '_> {
    /// Reads every entry of a zip archive. A bad entry (encrypted, an unsupported method, a
    /// CRC error, truncated data) is a diagnostic and the next entry is read.
    pub(super) fn read_zip<R: Read + Seek>(&mut self, r: R, prefix: &str, depth: u32) {
        let here = prefix.trim_end_matches("::").to_string();
        if self.too_deep(&here, depth) {
            return;
        }
        let mut zip = match ::zip::ZipArchive::new(r) {
            Ok(z) => z,
            Err(e) => {
                return self.diag(
                    &here,
                    DiagLevel::Error,
                    format!("cannot read zip archive: {}", describe(&e)),
                );
            }
        };
        let mut names = HashSet::new();
        // The whole archive's decompressed bytes are bounded like a tar stream's.
        let mut left = self.opts.max_archive_bytes;
        for i in 0..zip.len() {
            let name = match zip.name_for_index(i) {
                Some(Ok(n)) => n.to_string(),
                _ => String::new(),
            };
            let mut file = match zip.by_index(i) {
                Ok(f) => f,
                Err(e) => {
                    let full = format!("{prefix}{}", super::normalise(&name));
                    self.diag(
                        &full,
                        DiagLevel::Warning,
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
