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

#[cfg(test)]
mod tests {
    use super::*;

    /// The fuzz target's body (fuzz/fuzz_targets/git.rs) on pseudo-random inputs, some built
    /// from valid prefixes: no panic, whatever the bytes.
    #[test]
    fn the_parsers_take_arbitrary_bytes_without_panicking() {
        let mut next = crate::vocab::testing::xorshift_words(0x9e37_79b9_7f4a_7c15);
        let prefixes: [&[u8]; 4] = [
            b"tree ",
            b"100644 a\0",
            b"\xfftOc\0\0\0\x02",
            b"\x0a\x07\x91",
        ];
        for i in 0..20_000 {
            let len = (next() % 300) as usize;
            let mut data: Vec<u8> = prefixes[i % 4].to_vec();
            data.extend((0..len).map(|_| next() as u8));
            let _ = object::commit(&data, 64);
            for e in object::entries(&data) {
                if e.is_err() {
                    break;
                }
            }
            let _ = pack::entry_header(&data, next() % 100_000);
            let cut = (next() as usize) % (data.len() + 1);
            let _ = pack::apply_delta(&data[..cut], &data[cut..], 1 << 16);
            let _ = pack::delta_result_size(&data);
            if let Ok(i) = pack::Index::parse(data.clone()) {
                let _ = i.lookup(&Oid([data[0]; 20]));
            }
        }
    }

    #[test]
    fn ids_are_forty_hex_digits() {
        let hex = "0123456789abcdef0123456789ABCDEF01234567";
        assert_eq!(
            Oid::from_hex(hex.as_bytes()).unwrap().hex(),
            hex.to_lowercase()
        );
        assert!(Oid::from_hex(&hex.as_bytes()[1..]).is_none());
        assert!(Oid::from_hex("g123456789abcdef0123456789abcdef01234567".as_bytes()).is_none());
        assert!(Oid::from_hex("é123456789abcdef0123456789abcdef0123456".as_bytes()).is_none());
    }
}
