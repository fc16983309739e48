//! The vocabulary every layer shares, and which depends on nothing of mglint above it: file
//! kinds and content sniffing ([`kind`]), the file table and provenance ([`files`]), the one
//! [`Time`] type with its one JSON serialization ([`time`]), locating a field or a value in a
//! file's text ([`locate`]), document schema identifiers ([`schema`]) and small text helpers
//! ([`text`]).

pub mod files;
pub mod kind;
pub mod locate;
pub mod schema;
pub mod text;
pub mod time;

pub use files::{FileEntry, FileId, FileRef, FileTable, Provenance};
pub use kind::FileKind;
pub use time::Time;
