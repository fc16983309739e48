//! Confined access to a repository's `.git` directory: `.git` must be a real directory (not a
//! symbolic link, not a gitfile), repositories that borrow objects or refs from elsewhere
//! (`commondir`, `objects/info/alternates`, `objects/info/http-alternates`) are refused, and
//! every path under it is walked component by component with `symlink_metadata`, so only real
//! directories are entered and only regular files are opened: a symbolic link, FIFO, socket or
//! device is refused by type before it is opened (opening a FIFO would block). The search
//! never goes above the directory it was given.

use super::GitError;
use std::fs::{File, Metadata};
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

/// The files that would make git read another repository's objects or refs.
const BORROWING: [&str; 3] = [
    "commondir",
    "objects/info/alternates",
    "objects/info/http-alternates",
];

/// A repository's `.git` directory, checked to be a real directory inside the input.
#[derive(Debug)]
pub struct GitDir {
    root: PathBuf,
}

/// What a file of this type is called in a message, `None` for a regular file.
fn not_regular(m: &Metadata) -> Option<&'static str> {
    let t = m.file_type();
    Some(if t.is_file() {
        return None;
    } else if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    })
}

impl GitDir {
    /// The `.git` directory of the work tree `work`, refused when it is anything but a real
    /// directory or when it borrows from another repository.
    pub fn open(work: &Path) -> Result<GitDir, GitError> {
        let root = work.join(".git");
        let m = std::fs::symlink_metadata(&root).map_err(|source| GitError::Io {
            path: ".git".into(),
            source,
        })?;
        let t = m.file_type();
        if t.is_symlink() {
            return Err(GitError::Refused(
                "`.git` is a symbolic link (it would read another repository)".into(),
            ));
        }
        if t.is_file() {
            return Err(GitError::Refused(
                "`.git` is a file (a gitfile naming another repository)".into(),
            ));
        }
        if !t.is_dir() {
            return Err(GitError::NotRegular {
                path: ".git".into(),
                what: not_regular(&m).unwrap_or("not a directory"),
            });
        }
        let dir = GitDir { root };
        for b in BORROWING {
            if dir.exists(b) {
                return Err(GitError::Refused(format!(
                    "`.git/{b}` is present (it would read another repository's objects)"
                )));
            }
        }
        Ok(dir)
    }

    /// Whether anything (of any type) is at `rel`; nothing is followed.
    fn exists(&self, rel: &str) -> bool {
        std::fs::symlink_metadata(self.root.join(rel)).is_ok()
    }

    /// The path of `rel` under `.git` after checking each directory on the way is a real
    /// directory; `Ok(None)` when something on the way is absent.
    fn walk(&self, rel: &str) -> Result<Option<PathBuf>, GitError> {
        let mut path = self.root.clone();
        let parts: Vec<&str> = rel.split('/').collect();
        for (i, part) in parts.iter().enumerate() {
            if part.is_empty() || *part == "." || *part == ".." || part.contains('\0') {
                return Err(GitError::BadFile {
                    path: format!(".git/{rel}"),
                    why: "not a plain relative path".into(),
                });
            }
            path.push(part);
            if i + 1 == parts.len() {
                break;
            }
            match std::fs::symlink_metadata(&path) {
                Ok(m) if m.file_type().is_dir() => {}
                Ok(m) => {
                    return Err(GitError::NotRegular {
                        path: format!(".git/{}", parts[..=i].join("/")),
                        what: not_regular(&m).unwrap_or("not a directory"),
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                Err(source) => return Err(io(rel, source)),
            }
        }
        Ok(Some(path))
    }

    /// The regular file at `rel` under `.git`, opened, and its length; `Ok(None)` when absent.
    /// Anything else at that path is refused by type before it is opened.
    pub fn open_file(&self, rel: &str) -> Result<Option<(File, u64)>, GitError> {
        let Some(path) = self.walk(rel)? else {
            return Ok(None);
        };
        let m = match std::fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(io(rel, source)),
        };
        if let Some(what) = not_regular(&m) {
            return Err(GitError::NotRegular {
                path: format!(".git/{rel}"),
                what,
            });
        }
        let f = File::open(&path).map_err(|source| io(rel, source))?;
        // The file opened is the one checked (not swapped for another in between).
        let now = f.metadata().map_err(|source| io(rel, source))?;
        if now.dev() != m.dev() || now.ino() != m.ino() || !now.file_type().is_file() {
            return Err(GitError::BadFile {
                path: format!(".git/{rel}"),
                why: "it changed while it was opened".into(),
            });
        }
        Ok(Some((f, now.len())))
    }

    /// The bytes of the regular file at `rel` under `.git`, at most `cap` of them (a longer
    /// file is refused); `Ok(None)` when absent.
    pub fn read(&self, rel: &str, cap: u64) -> Result<Option<Vec<u8>>, GitError> {
        let Some((f, len)) = self.open_file(rel)? else {
            return Ok(None);
        };
        let too_big = || GitError::BadFile {
            path: format!(".git/{rel}"),
            why: format!("it is over the {cap}-byte bound"),
        };
        if len > cap {
            return Err(too_big());
        }
        let mut out = Vec::with_capacity(len as usize);
        f.take(cap + 1)
            .read_to_end(&mut out)
            .map_err(|source| io(rel, source))?;
        if out.len() as u64 > cap {
            return Err(too_big());
        }
        Ok(Some(out))
    }

    /// The names in the real directory at `rel` under `.git`, sorted, at most `cap` of them;
    /// empty when it is absent.
    pub fn list(&self, rel: &str, cap: usize) -> Result<Vec<String>, GitError> {
        let Some(path) = self.walk(rel)? else {
            return Ok(Vec::new());
        };
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_dir() => {}
            Ok(m) => {
                return Err(GitError::NotRegular {
                    path: format!(".git/{rel}"),
                    what: not_regular(&m).unwrap_or("not a directory"),
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => return Err(io(rel, source)),
        }
        let mut out = Vec::new();
        for e in std::fs::read_dir(&path).map_err(|source| io(rel, source))? {
            let e = e.map_err(|source| io(rel, source))?;
            if let Some(name) = e.file_name().to_str() {
                out.push(name.to_string());
            }
            if out.len() > cap {
                return Err(GitError::BadFile {
                    path: format!(".git/{rel}"),
                    why: format!("it holds more than {cap} entries"),
                });
            }
        }
        out.sort();
        Ok(out)
    }
}

fn io(rel: &str, source: std::io::Error) -> GitError {
    GitError::Io {
        path: format!(".git/{rel}"),
        source,
    }
}
