//! Writing a finished text where the user asked: a file, or standard output (a reader that
//! goes away, `mglint … | head`, is not an error). Nothing is ever written elsewhere.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A text could not be written.
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
}

/// Writes `text` to `dest`, or to standard output when `dest` is `None`.
pub fn write_text(text: &str, dest: Option<&Path>) -> Result<(), OutputError> {
    match dest {
        Some(p) => std::fs::write(p, text).map_err(|source| OutputError::File {
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
