//! Content sniffing by magic bytes (never by name) and bounded decompression.

use super::ReadError;
use std::io::Read;

/// What the first bytes of a file say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Magic {
    Gzip,
    Xz,
    Zstd,
    Zip,
    Tar,
    Plain,
}

/// Identifies compressed and archive formats from a file's first bytes (≥ 262 for tar).
pub fn sniff(head: &[u8]) -> Magic {
    if head.starts_with(&[0x1f, 0x8b]) {
        Magic::Gzip
    } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
        Magic::Xz
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Magic::Zstd
    } else if head.starts_with(b"PK\x03\x04") {
        Magic::Zip
    } else if head.len() >= 262 && &head[257..262] == b"ustar" {
        Magic::Tar
    } else {
        Magic::Plain
    }
}

/// Wraps a reader in the decoder its magic asks for (`Plain` and `Tar` pass through).
pub fn decoder<'a, R: Read + 'a>(magic: Magic, r: R) -> Result<Box<dyn Read + 'a>, ReadError> {
    match magic {
        Magic::Gzip => Ok(Box::new(flate2::read::MultiGzDecoder::new(r))),
        Magic::Xz => Ok(Box::new(liblzma::read::XzDecoder::new_multi_decoder(r))),
        Magic::Zstd => Err(ReadError::Unsupported("zstd-compressed")),
        Magic::Zip => Err(ReadError::Unsupported("zip")),
        Magic::Tar | Magic::Plain => Ok(Box::new(r)),
    }
}

/// A reader that fails once more than `cap` bytes have passed through it.
pub struct Capped<R> {
    pub inner: R,
    pub left: u64,
    pub cap: u64,
    /// What is capped, for the message (`archive`, `file`).
    pub what: &'static str,
    /// The option that raises the cap.
    pub flag: &'static str,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            return Err(std::io::Error::other(format!(
                "{} decompresses to more than {} bytes (cap reached; raise {})",
                self.what, self.cap, self.flag
            )));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// Reads everything from `r` into memory, failing when more than `cap` bytes come out.
pub fn read_capped(mut r: impl Read, cap: u64) -> Result<Vec<u8>, ReadError> {
    let mut out = Vec::new();
    let n = (&mut r)
        .take(cap.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| ReadError::io(&e))?;
    if n as u64 > cap {
        return Err(ReadError::TooLarge {
            cap,
            flag: "--max-file-bytes",
        });
    }
    Ok(out)
}

/// Decompresses `data` if it is gzip or xz (by magic), bounded by `cap`.
pub fn decompress_if_needed(data: Vec<u8>, cap: u64) -> Result<(Vec<u8>, bool), ReadError> {
    match sniff(&data) {
        m @ (Magic::Gzip | Magic::Xz) => {
            let d = decoder(m, std::io::Cursor::new(data))?;
            Ok((read_capped(d, cap)?, true))
        }
        _ => Ok((data, false)),
    }
}

/// A short, user-facing description of an I/O error from a decoder or file.
pub fn describe_io(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::UnexpectedEof => "truncated data (unexpected end of file)".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        std::io::ErrorKind::InvalidData | std::io::ErrorKind::InvalidInput => {
            format!("corrupt data: {e}")
        }
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn sniffs_magic_bytes() {
        assert_eq!(sniff(&[0x1f, 0x8b, 8, 0]), Magic::Gzip);
        assert_eq!(sniff(&[0xfd, b'7', b'z', b'X', b'Z', 0, 0]), Magic::Xz);
        assert_eq!(sniff(b"PK\x03\x04rest"), Magic::Zip);
        let mut tar = vec![0u8; 512];
        tar[257..262].copy_from_slice(b"ustar");
        assert_eq!(sniff(&tar), Magic::Tar);
        assert_eq!(sniff(b"apiVersion: v1"), Magic::Plain);
    }

    #[test]
    fn gzip_round_trip_and_cap() {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&vec![b'a'; 10_000]).unwrap();
        let gz = enc.finish().unwrap();
        let (out, was) = decompress_if_needed(gz.clone(), 1 << 20).unwrap();
        assert!(was);
        assert_eq!(out.len(), 10_000);
        let err = decompress_if_needed(gz, 100).unwrap_err().to_string();
        assert!(err.contains("cap reached"), "{err}");
    }

    #[test]
    fn truncated_gzip_is_reported() {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&vec![b'x'; 100_000]).unwrap();
        let mut gz = enc.finish().unwrap();
        gz.truncate(gz.len() / 2);
        let err = decompress_if_needed(gz, 1 << 20).unwrap_err().to_string();
        assert!(err.contains("truncated"), "{err}");
    }
}
