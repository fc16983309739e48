//! The vocabulary every layer shares, and which depends on nothing of mglint above it: file
//! kinds and content sniffing ([`kind`]), the must-gather path layout ([`mg_path`]), the file table and provenance ([`files`]), the one
//! [`Time`] type with its one JSON serialization ([`time`]), the field-path syntax ([`field_path`]), locating a field or a
//! value in a file's text ([`locate`]), the object reference findings and events name ([`object`]), document schema identifiers ([`schema`]), secret masking ([`secrets`]), the one severity scale ([`severity`]), small text helpers
//! ([`text`]), the one escaping policy for text from the input ([`escape`]), text encodings at the source ([`encoding`]: UTF-8 with or without a BOM, UTF-16 with one), name globs ([`glob`]), an enum's names from its serde declaration ([`names`]), a `null` read as a default ([`de_null_default`]) and what known-issue rules ask ingestion to read
//! ([`wants`]).

pub mod bounded;
pub mod encoding;
pub mod escape;
pub mod field_path;
pub mod files;
pub mod glob;
pub mod go_print;
pub mod kind;
pub mod locate;
pub mod mg_path;
pub mod names;
pub mod object;
pub mod schema;
pub mod secrets;
pub mod semver;
pub mod severity;
pub mod text;
pub mod time;
pub mod wants;

pub use files::{FileEntry, FileId, FileRef, FileTable, Provenance};

/// Reads a `null` as the type's default, as Go's decoding leaves a nil list or map empty
/// (Kubernetes writes `null` for an empty one): for `#[serde(deserialize_with = ...)]`.
pub fn de_null_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + serde::Deserialize<'de>,
{
    use serde::Deserialize;
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}
pub use kind::FileKind;
pub use time::Time;

/// Helpers the unit tests of every layer share.
#[cfg(test)]
pub(crate) mod testing {
    /// A xorshift generator (13/7/17) from `seed`: a number below `n` per call (random test
    /// inputs that are the same on every run).
    pub fn xorshift(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut words = xorshift_words(seed);
        move |n| words() % n
    }

    /// The same generator's whole 64-bit words.
    pub fn xorshift_words(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// Makes a FIFO at `p` (a path of the test's own temporary directory) with the system's
    /// `mkfifo`: whether it was made.
    pub fn mkfifo(p: &std::path::Path) -> bool {
        std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .is_ok_and(|s| s.success())
    }
}
