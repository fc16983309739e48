//! An in-process, confined and bounded reader of a git repository's objects, written for the
//! resourcewatch history (see [`super::resourcewatch`]). It never runs `git` and reads no git
//! configuration at all (no hooks, filters, signature programs, promisor fetches or remotes):
//! only `HEAD`, refs, `packed-refs`, loose objects and v2 pack indexes and packs, each checked by
//! type before it is opened ([`fs`]). A repository that would pull objects from elsewhere
//! (`commondir`, alternates, a gitfile or a symbolic link as `.git`) is refused, and a SHA-256
//! repository too. Object ids are taken as the repository names them: content is not hashed to
//! check them, so every walk here is bounded by counts as well (a forged parent loop ends).
//!
//! Submodules: [`fs`] (confined file access), [`refs`] (`HEAD` to a commit id), [`odb`]
//! (loose objects and packs, with a byte budget and a deadline), [`pack`] (index lookup, entry
//! headers, deltas) and [`object`] (commit and tree bodies).

pub mod fs;
pub mod object;
pub mod odb;
pub mod pack;
pub mod refs;

use std::fmt;

/// A SHA-1 object id.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Oid(pub [u8; 20]);

impl Oid {
    /// The id written as 40 hex digits, `None` for anything else.
    pub fn from_hex(hex: &[u8]) -> Option<Oid> {
        if hex.len() != 40 {
            return None;
        }
        let mut out = [0u8; 20];
        for (i, pair) in hex.chunks_exact(2).enumerate() {
            let d = |c: u8| (c as char).to_digit(16);
            out[i] = (d(pair[0])? * 16 + d(pair[1])?) as u8;
        }
        Some(Oid(out))
    }

    /// The id in 40 lowercase hex digits.
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Display for Oid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hex())
    }
}

impl fmt::Debug for Oid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Oid({})", self.hex())
    }
}

/// An object's kind, as loose objects and packs name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Commit,
    Tree,
    Blob,
    Tag,
}

impl Kind {
    /// The kind a loose object's header names.
    pub fn from_name(name: &[u8]) -> Option<Kind> {
        Some(match name {
            b"commit" => Kind::Commit,
            b"tree" => Kind::Tree,
            b"blob" => Kind::Blob,
            b"tag" => Kind::Tag,
            _ => return None,
        })
    }

    /// The kind's name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Commit => "commit",
            Kind::Tree => "tree",
            Kind::Blob => "blob",
            Kind::Tag => "tag",
        }
    }
}

/// Why reading a repository (or one object in it) failed.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// A path under `.git` is not a regular file or directory (refused before it is opened).
    #[error("`{path}` is {what}, not read")]
    NotRegular { path: String, what: &'static str },
    /// The repository would pull history in from outside the input.
    #[error("{0}")]
    Refused(String),
    #[error("the repository uses SHA-256 object ids, which are not read")]
    Sha256,
    #[error("cannot read `{path}`: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("object {0} is missing")]
    Missing(Oid),
    #[error("object {oid} is corrupt: {why}")]
    Corrupt { oid: String, why: String },
    #[error("`{path}` is corrupt: {why}")]
    BadFile { path: String, why: String },
    #[error("object {oid} is {size} bytes, over the {bound}-byte bound")]
    TooBig { oid: Oid, size: u64, bound: u64 },
    #[error("object {oid} is a {found}, not a {wanted}")]
    WrongKind {
        oid: Oid,
        found: &'static str,
        wanted: &'static str,
    },
    #[error("more than {0} bytes were inflated, the repository's bound")]
    Budget(u64),
    #[error("the {0} s deadline for reading the history passed")]
    Deadline(u64),
}

impl GitError {
    /// Whether the error ends the whole read (a bound or the deadline), not only one object.
    pub fn is_fatal(&self) -> bool {
        matches!(self, GitError::Budget(_) | GitError::Deadline(_))
    }
}
