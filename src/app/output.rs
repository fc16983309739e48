//! Writing a finished text where the user asked: a file, or standard output (`-`, or no
//! path; a reader that goes away, `mglint … | head`, is not an error). Nothing is ever
//! written elsewhere, and nothing the user did not name is overwritten:
//!
//! - [`check_destinations`] refuses, before any work, an output that is an input or inside
//!   one, the same file named twice, and a FIFO or socket (which would block with no reader);
//! - [`write_text`] writes a regular file through a temporary file with a random name,
//!   created exclusively in the same directory and renamed into place only when complete
//!   ([`crate::safe_fs`]): a failure (a full disk) leaves the old file or none, never a
//!   truncated report, and a symbolic link at the destination is replaced, never written
//!   through.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A text could not be written, or a destination was refused.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("cannot write `{path}`: {source}")]
    File {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write output: {0}")]
    Stdout(#[source] std::io::Error),
    #[error("refusing to write `{path}`: {reason}")]
    Refused { path: PathBuf, reason: String },
}

/// Whether `p` means standard output.
pub fn is_stdout(p: &Path) -> bool {
    p.as_os_str() == "-"
}

/// Where `p` is, absolute and with symbolic links resolved as far as it exists (an output
/// file usually does not exist yet: its directory is resolved and its name appended).
fn resolved(p: &Path) -> PathBuf {
    if let Ok(c) = std::fs::canonicalize(p) {
        return c;
    }
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    match (abs.parent(), abs.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir)
            .map(|d| d.join(name))
            .unwrap_or(abs.clone()),
        _ => abs,
    }
}

/// Refuses outputs that would destroy what the user did not name, or block: an output that
/// is one of `inputs` or lies inside an input directory, one named twice (however spelt), a
/// FIFO or a socket. Standard output (`-`) is always fine.
pub fn check_destinations(outputs: &[&Path], inputs: &[PathBuf]) -> Result<(), OutputError> {
    let inputs: Vec<PathBuf> = inputs
        .iter()
        .filter(|i| i.exists())
        .map(|i| resolved(i))
        .collect();
    let mut seen: Vec<(PathBuf, &Path)> = Vec::new();
    for &out in outputs {
        if is_stdout(out) {
            continue;
        }
        let refuse = |reason: String| OutputError::Refused {
            path: out.to_path_buf(),
            reason,
        };
        let at = resolved(out);
        if let Some(input) = inputs.iter().find(|i| **i == at) {
            return Err(refuse(format!(
                "it is an input (`{}`); name another file",
                input.display()
            )));
        }
        if let Some(input) = inputs.iter().find(|i| i.is_dir() && at.starts_with(i)) {
            return Err(refuse(format!(
                "it is inside the input `{}`, which must stay as it was collected; write outside it",
                input.display()
            )));
        }
        if let Some((_, first)) = seen.iter().find(|(p, _)| *p == at) {
            return Err(refuse(format!(
                "`{}` names the same file; each output needs its own",
                first.display()
            )));
        }
        if let Ok(m) = std::fs::metadata(out) {
            use std::os::unix::fs::FileTypeExt;
            let t = m.file_type();
            if t.is_fifo() || t.is_socket() {
                return Err(refuse(
                    "it is a FIFO or a socket, which would block until something reads it; write to a file, or to standard output (`-o -`) and pipe it".into(),
                ));
            }
            if t.is_dir() {
                return Err(refuse("it is a directory".into()));
            }
        }
        seen.push((at, out));
    }
    Ok(())
}

/// Writes `text` to `dest`, or to standard output when `dest` is `None` or `-`. A regular
/// file is replaced whole or not at all (temporary file, then rename); a device such as
/// `/dev/null` is written directly.
pub fn write_text(text: &str, dest: Option<&Path>) -> Result<(), OutputError> {
    match dest.filter(|p| !is_stdout(p)) {
        Some(p) => write_file(p, text.as_bytes()).map_err(|source| OutputError::File {
            path: p.to_path_buf(),
            source,
        }),
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(OutputError::Stdout(e)),
                _ => Ok(()),
            }
        }
    }
}

fn write_file(p: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::FileTypeExt;
    if let Ok(m) = std::fs::metadata(p) {
        let t = m.file_type();
        if t.is_fifo() || t.is_socket() {
            return Err(std::io::Error::other(
                "a FIFO or a socket would block until something reads it",
            ));
        }
        if t.is_char_device() || t.is_block_device() {
            return std::fs::OpenOptions::new()
                .write(true)
                .open(p)?
                .write_all(bytes);
        }
    }
    crate::safe_fs::write_replace(p, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_its_inside_and_a_name_twice_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("cv.yaml");
        std::fs::write(&input, "kind: ClusterVersion\n").unwrap();
        let mg = dir.path().join("mg");
        std::fs::create_dir_all(mg.join("sub")).unwrap();
        let inputs = vec![input.clone(), mg.clone()];
        let refused = |outs: &[&Path]| check_destinations(outs, &inputs).is_err();
        assert!(refused(&[&input]));
        // Spelt another way.
        assert!(refused(&[&dir.path().join("mg/../cv.yaml")]));
        assert!(refused(&[&mg.join("sub/report.json")]));
        let out = dir.path().join("report.json");
        assert!(refused(&[&out, &dir.path().join("./report.json")]));
        assert!(!refused(&[
            &out,
            &dir.path().join("report.sarif"),
            Path::new("-")
        ]));
        assert_eq!(
            std::fs::read_to_string(&input).unwrap(),
            "kind: ClusterVersion\n"
        );
    }

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_file_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        write_text("old\n", Some(&p)).unwrap();
        write_text("new\n", Some(&p)).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new\n");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
        // A directory that does not exist: an error naming the file, nothing left behind.
        let bad = dir.path().join("missing/r.json");
        assert!(write_text("x", Some(&bad)).is_err());
        // /dev/null is written directly (no rename over a device).
        write_text("x", Some(Path::new("/dev/null"))).unwrap();
    }

    #[test]
    fn a_planted_link_is_replaced_and_what_it_points_at_is_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        let victim = outside.join("victim.txt");
        std::fs::write(&victim, "precious\n").unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        let p = out.join("r.json");
        std::os::unix::fs::symlink(&victim, &p).unwrap();
        // Links at the names a temporary file used to get (and any other predictable one).
        for n in [
            format!(".r.json.mglint-{}.tmp", std::process::id()),
            ".mglint-.tmp".to_string(),
        ] {
            std::os::unix::fs::symlink(&victim, out.join(n)).unwrap();
        }
        write_text("report\n", Some(&p)).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
        assert!(!std::fs::symlink_metadata(&p).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "report\n");
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 1);
    }
}
