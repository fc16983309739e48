//! Creating the files and directories mglint writes (reports, man pages, fetched jobs, the
//! remote cache) so that nothing already in the target directory is written through.
//!
//! - A file is written to a temporary file with a random name, created exclusively
//!   (`O_EXCL`, so a planted file or link at any name is never opened) in the destination's
//!   directory, then renamed over the destination. A rename replaces a symbolic link at the
//!   destination instead of writing through it, and a reader sees the old file or the whole
//!   new one, never a part. The file gets the usual `0666` less the umask (not the `0600`
//!   of a temporary file).
//! - Directories under a destination are made one by one with `create_dir`; one that
//!   exists must be a real directory: a symbolic link (to anywhere) is refused, never
//!   followed out of the destination.

use std::fs::Permissions;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

/// The name every temporary file starts with (the rest is random).
pub const TEMP_PREFIX: &str = ".mglint-";

/// A new empty temporary file in `dir`, created exclusively with a random name; removed
/// when dropped unless persisted.
pub fn temp_in(dir: &Path) -> io::Result<tempfile::NamedTempFile> {
    tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(".tmp")
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(dir)
}

/// Renames a complete temporary file over `dest` (replacing a link there, never following it).
pub fn persist(tmp: tempfile::NamedTempFile, dest: &Path) -> io::Result<()> {
    tmp.persist(dest).map(drop).map_err(|e| e.error)
}

/// The directory a destination file is created in (`.` for a bare name).
pub fn parent_dir(dest: &Path) -> &Path {
    match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Writes `bytes` to `dest` whole or not at all: a temporary file in its directory, synced,
/// then renamed into place.
pub fn write_replace(dest: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut tmp = temp_in(parent_dir(dest))?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    persist(tmp, dest)
}

/// Creates the directories of `rel` below `root` (which the user named, and must exist),
/// one at a time, and gives `root/rel`. A component that exists must be a directory and not
/// a symbolic link; `rel` must be plain names (no `..`, no root).
pub fn create_dirs_under(root: &Path, rel: &Path) -> io::Result<PathBuf> {
    let mut at = root.to_path_buf();
    for c in rel.components() {
        let Component::Normal(name) = c else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("`{}` is not a plain relative path", rel.display()),
            ));
        };
        at.push(name);
        match std::fs::create_dir(&at) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                let m = std::fs::symlink_metadata(&at)?;
                if !m.is_dir() {
                    return Err(io::Error::other(format!(
                        "`{}` exists and is not a directory (a symbolic link or a file), \
                         which is never followed; remove it",
                        at.display()
                    )));
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_at_the_destination_is_replaced_and_its_target_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.txt");
        std::fs::write(&outside, "keep\n").unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        let dest = out.join("report.json");
        std::os::unix::fs::symlink(&outside, &dest).unwrap();
        write_replace(&dest, b"{}\n").unwrap();
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep\n");
        assert!(!std::fs::symlink_metadata(&dest).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "{}\n");
        // The usual permissions (0666 less the umask, as `File::create` gives), not a
        // temporary file's 0600.
        let plain = out.join("plain");
        std::fs::File::create(&plain).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dest), mode(&plain));
        std::fs::remove_file(&plain).unwrap();
        let names: Vec<_> = std::fs::read_dir(&out).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
    }

    #[test]
    fn a_linked_directory_is_refused_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("a")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("a/b")).unwrap();
        let e = create_dirs_under(&root, Path::new("a/b/c")).unwrap_err();
        assert!(
            e.to_string().contains("a/b` exists and is not a directory"),
            "{e}"
        );
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
        let made = create_dirs_under(&root, Path::new("a/x/y")).unwrap();
        assert!(made.is_dir() && made.ends_with("a/x/y"));
        assert!(create_dirs_under(&root, Path::new("a/../../e")).is_err());
    }
}
