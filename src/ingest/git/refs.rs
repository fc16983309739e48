//! `HEAD` to a commit id, read by this code alone: `HEAD` holds an id (a detached head) or
//! `ref: refs/...`, a ref is a loose file under `.git/refs/` or a line of `packed-refs`. Ref
//! names are checked to be plain relative paths under `refs/` before any file is looked up,
//! and every file is read through [`GitDir`] (confined, by type, bounded).

use super::fs::GitDir;
use super::{GitError, Oid};

/// The largest `HEAD` or loose ref file read.
const REF_BYTES: u64 = 4 << 10;
/// The largest `packed-refs` read.
const PACKED_REFS_BYTES: u64 = 64 << 20;
/// How many symbolic refs are followed from `HEAD` before giving up.
const MAX_SYMREF_DEPTH: usize = 5;

/// What `HEAD` resolves to: a commit id, or the name of a branch without commits.
#[derive(Debug, PartialEq, Eq)]
pub enum Head {
    Commit(Oid),
    Unborn(String),
}

/// The commit `HEAD` names.
pub fn head(dir: &GitDir) -> Result<Head, GitError> {
    let Some(mut text) = dir.read("HEAD", REF_BYTES)? else {
        return Err(GitError::BadFile {
            path: ".git/HEAD".into(),
            why: "it is missing".into(),
        });
    };
    let mut name = "HEAD".to_string();
    for _ in 0..=MAX_SYMREF_DEPTH {
        match parse(&text, &name)? {
            Value::Id(oid) => return Ok(Head::Commit(oid)),
            Value::Ref(target) => {
                check_name(&target)?;
                name = target;
                text = match dir.read(&name, REF_BYTES)? {
                    Some(t) => t,
                    None => match packed(dir, &name)? {
                        Some(oid) => return Ok(Head::Commit(oid)),
                        None => return Ok(Head::Unborn(name)),
                    },
                };
            }
        }
    }
    Err(GitError::BadFile {
        path: format!(".git/{name}"),
        why: format!("more than {MAX_SYMREF_DEPTH} symbolic refs in a row"),
    })
}

enum Value {
    Id(Oid),
    Ref(String),
}

/// A ref file's content: an id or `ref: <name>`.
fn parse(text: &[u8], name: &str) -> Result<Value, GitError> {
    let t = text.trim_ascii();
    if let Some(target) = t.strip_prefix(b"ref:") {
        let target = std::str::from_utf8(target.trim_ascii()).map_err(|_| bad(name))?;
        return Ok(Value::Ref(target.to_string()));
    }
    oid(t, name).map(Value::Id)
}

fn oid(hex: &[u8], name: &str) -> Result<Oid, GitError> {
    if hex.len() == 64 && hex.iter().all(u8::is_ascii_hexdigit) {
        return Err(GitError::Sha256);
    }
    Oid::from_hex(hex).ok_or_else(|| bad(name))
}

fn bad(name: &str) -> GitError {
    GitError::BadFile {
        path: format!(".git/{name}"),
        why: "it holds neither an object id nor `ref: <name>`".into(),
    }
}

/// A ref name git would write: under `refs/`, plain components of printable characters.
fn check_name(name: &str) -> Result<(), GitError> {
    let ok = name.starts_with("refs/")
        && name.len() <= 1024
        && name.split('/').all(|c| {
            !c.is_empty()
                && c != "."
                && c != ".."
                && c.bytes()
                    .all(|b| b.is_ascii_graphic() && !b"\\:?*[~^".contains(&b))
        });
    if ok {
        Ok(())
    } else {
        Err(GitError::BadFile {
            path: ".git/HEAD".into(),
            why: format!(
                "it names `{}`, not a ref under `refs/`",
                crate::vocab::text::one_line(name, 200)
            ),
        })
    }
}

/// The id `packed-refs` gives `name`, if any.
fn packed(dir: &GitDir, name: &str) -> Result<Option<Oid>, GitError> {
    let Some(text) = dir.read("packed-refs", PACKED_REFS_BYTES)? else {
        return Ok(None);
    };
    for line in text.split(|&b| b == b'\n') {
        if line.starts_with(b"#") || line.starts_with(b"^") {
            continue;
        }
        let Some(sp) = line.iter().position(|&b| b == b' ') else {
            continue;
        };
        if line[sp + 1..].trim_ascii_end() == name.as_bytes() {
            return oid(&line[..sp], "packed-refs").map(Some);
        }
    }
    Ok(None)
}
