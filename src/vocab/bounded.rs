//! Reading the small files a user names beside the inputs (settings, rule files, scenarios,
//! input lists, resume files): only regular files, and only up to a stated size. A FIFO, a
//! socket or a device is refused by name before it is opened (opening a FIFO blocks until a
//! writer comes; `/dev/zero` never ends), and a file over its bound is refused without being
//! read whole. `/dev/null` reads as the empty file it is. Errors are `io::Error`s, so callers name the file as for any read error.

use std::io::Read;
use std::path::Path;

/// The bound on a settings file (`mglint.toml`, `--config`).
pub const SETTINGS_BYTES: u64 = 1 << 20;
/// The bound on one known-issue rule file.
pub const RULE_FILE_BYTES: u64 = 4 << 20;
/// The bound on a scenario file and on a `--from` input list.
pub const SCENARIO_BYTES: u64 = 64 << 20;
/// The bound on a `batch --resume` rows file.
pub const ROWS_BYTES: u64 = 1 << 30;

/// The bytes of `path`, a regular file of at most `cap` bytes.
pub fn read(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    use std::os::unix::fs::FileTypeExt;
    let m = std::fs::metadata(path)?;
    let t = m.file_type();
    let what = if t.is_fifo() {
        Some("a FIFO")
    } else if t.is_socket() {
        Some("a socket")
    } else if (t.is_char_device() || t.is_block_device())
        && std::fs::canonicalize(path).is_ok_and(|p| p == Path::new("/dev/null"))
    {
        // The empty file every shell knows: nothing to read, nothing that blocks.
        return Ok(Vec::new());
    } else if t.is_char_device() || t.is_block_device() {
        Some("a device")
    } else if t.is_dir() {
        Some("a directory")
    } else {
        None
    };
    if let Some(what) = what {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("it is {what}, not a regular file"),
        ));
    }
    let too_big = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("it is over the {cap}-byte bound for this kind of file"),
        )
    };
    if m.len() > cap {
        return Err(too_big());
    }
    let mut out = Vec::with_capacity(m.len() as usize);
    std::fs::File::open(path)?
        .take(cap + 1)
        .read_to_end(&mut out)?;
    if out.len() as u64 > cap {
        return Err(too_big());
    }
    Ok(out)
}

/// [`read`] as UTF-8 text.
pub fn read_to_string(path: &Path, cap: u64) -> std::io::Result<String> {
    String::from_utf8(read(path, cap)?).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "it is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_fifos_and_big_files_are_refused_by_name() {
        let e = read(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(e.to_string(), "it is a device, not a regular file");
        assert_eq!(read(Path::new("/dev/null"), 1).unwrap(), Vec::<u8>::new());
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("f");
        assert!(crate::vocab::testing::mkfifo(&fifo));
        assert_eq!(
            read(&fifo, 10).unwrap_err().to_string(),
            "it is a FIFO, not a regular file"
        );
        let big = dir.path().join("big");
        std::fs::write(&big, vec![b'#'; 11]).unwrap();
        assert!(
            read(&big, 10)
                .unwrap_err()
                .to_string()
                .contains("10-byte bound")
        );
        assert_eq!(read(&big, 11).unwrap().len(), 11);
        std::fs::write(&big, [b'a', 0xff]).unwrap();
        assert!(
            read_to_string(&big, 10)
                .unwrap_err()
                .to_string()
                .contains("not UTF-8")
        );
        assert_eq!(
            read(&dir.path().join("none"), 1).unwrap_err().kind(),
            std::io::ErrorKind::NotFound
        );
    }
}
