//! Content sniffing by magic bytes (never by name): a stream's head peeked at and given back, a
//! zip told by its end record; and bounded decompression.

use super::ReadError;
use std::io::{BufRead, Read, Seek, SeekFrom};

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

impl Magic {
    /// Compressed data or an archive (opened as a nested archive when found inside another).
    pub fn is_archive(self) -> bool {
        !matches!(self, Magic::Plain)
    }
}

/// Identifies compressed and archive formats from a file's first bytes (≥ 262 for tar).
pub fn sniff(head: &[u8]) -> Magic {
    if head.starts_with(&[0x1f, 0x8b]) {
        Magic::Gzip
    } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
        Magic::Xz
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) || is_zstd_skippable(head) {
        Magic::Zstd
    } else if head.starts_with(b"PK\x03\x04") {
        Magic::Zip
    } else if head.len() >= 262 && &head[257..262] == b"ustar" {
        Magic::Tar
    } else {
        Magic::Plain
    }
}

/// A zstd skippable frame (magic `0x184D2A50`..`0x184D2A5F`, little-endian): what `pzstd`
/// writes first (its frame index), so a zstd stream may start with one.
fn is_zstd_skippable(head: &[u8]) -> bool {
    head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18]
}

/// A compression or archive format mglint does not read, by its magic bytes: bzip2, 7z, lz4,
/// `.lzma` (LZMA-alone, `xz --format=lzma`) and v7 tar (the pre-POSIX tar header, without
/// the `ustar` magic, recognised by its checksum).
pub fn unsupported(head: &[u8]) -> Option<&'static str> {
    if head.len() >= 4 && head.starts_with(b"BZh") && (b'1'..=b'9').contains(&head[3]) {
        return Some("bzip2");
    }
    if head.starts_with(&[b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c]) {
        return Some("7z");
    }
    if head.starts_with(&[0x04, 0x22, 0x4d, 0x18]) || head.starts_with(&[0x02, 0x21, 0x4c, 0x18]) {
        return Some("lz4");
    }
    if is_lzma_alone(head) {
        return Some("lzma");
    }
    if is_v7_tar(head) {
        return Some("v7 tar (no ustar magic)");
    }
    None
}

/// An LZMA-alone header: the default properties byte (lc=3 lp=0 pb=2), a dictionary size
/// of 2^n or 2^n + 2^(n-1) from 4 KiB up, and an unknown (all ones) or plausible size.
fn is_lzma_alone(head: &[u8]) -> bool {
    if head.len() < 13 || head[0] != 0x5d {
        return false;
    }
    let dict = u32::from_le_bytes([head[1], head[2], head[3], head[4]]);
    let size = u64::from_le_bytes(head[5..13].try_into().unwrap_or([0; 8]));
    let low = dict & dict.wrapping_neg();
    let dict_ok = dict >= 1 << 12 && (dict == low || dict == low * 3);
    dict_ok && (size == u64::MAX || size < 1 << 40)
}

/// A tar header block without the ustar magic whose checksum (the sum of its bytes, the
/// checksum field counted as spaces) matches its octal checksum field.
fn is_v7_tar(head: &[u8]) -> bool {
    if head.len() < 512 || head[0] == 0 || &head[257..262] == b"ustar" {
        return false;
    }
    let field = &head[148..156];
    let digits: Vec<u8> = field
        .iter()
        .copied()
        .skip_while(|b| *b == b' ')
        .take_while(|b| (b'0'..=b'7').contains(b))
        .collect();
    if digits.is_empty() {
        return false;
    }
    let Ok(want) = u32::from_str_radix(std::str::from_utf8(&digits).unwrap_or(""), 8) else {
        return false;
    };
    let sum: u32 = head[..512]
        .iter()
        .enumerate()
        .map(|(i, b)| {
            if (148..156).contains(&i) {
                32
            } else {
                u32::from(*b)
            }
        })
        .sum();
    sum == want
}

/// The largest zstd window accepted, for a file bound of `max_file_bytes`: at least 128 MiB
/// (what every zstd level without `--long` uses, whatever the bound), at most 2 GiB (zstd's
/// `--long=31`, the reference decoder's limit on 64-bit machines), else the file bound: a
/// window is history the decoder keeps, and no history longer than one file is needed.
pub fn zstd_window_cap(max_file_bytes: u64) -> u64 {
    max_file_bytes.clamp(128 << 20, 2 << 30)
}

/// Wraps a reader in the decoder its magic asks for (`Plain` and `Tar` pass through); zstd
/// frames may ask for a window of up to `zstd_window` bytes ([`zstd_window_cap`]).
pub fn decoder<'a, R: Read + 'a>(
    magic: Magic,
    r: R,
    zstd_window: u64,
) -> Result<Box<dyn Read + 'a>, ReadError> {
    match magic {
        Magic::Gzip => Ok(super::gzip::decoder(r)),
        Magic::Xz => Ok(Box::new(liblzma::read::XzDecoder::new_multi_decoder(r))),
        Magic::Zstd => Ok(Box::new(ZstdFrames::new(
            std::io::BufReader::new(r),
            zstd_window,
        ))),
        // Zip needs its central directory (at the end): see `source::zip`.
        Magic::Zip => Err(ReadError::Unsupported("zip")),
        Magic::Tar | Magic::Plain => Ok(Box::new(r)),
    }
}

/// A zstd stream of one or more frames (`zstd -T`, `pzstd` and concatenated files have
/// several), decoded frame by frame; skippable frames are passed over. Each frame's window is
/// bounded ([`zstd_window_cap`]), so a hostile header cannot ask for more memory; a frame
/// over it is refused with the window it asked for and the bound.
struct ZstdFrames<R: BufRead> {
    source: R,
    decoder: ruzstd::decoding::FrameDecoder,
    /// A frame is being decoded (its header was read).
    in_frame: bool,
    /// Frames started so far (an empty stream is an error, the end after a frame is not).
    frames: u64,
}

impl<R: BufRead> ZstdFrames<R> {
    fn new(source: R, max_window: u64) -> Self {
        let mut decoder = ruzstd::decoding::FrameDecoder::new();
        decoder.set_max_window_size(max_window);
        ZstdFrames {
            source,
            decoder,
            in_frame: false,
            frames: 0,
        }
    }

    /// Reads the next frame header, skipping skippable frames. `false` at the end of the
    /// stream.
    fn start_frame(&mut self, first: bool) -> std::io::Result<bool> {
        use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
        loop {
            if self.source.fill_buf()?.is_empty() {
                if first {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        "empty zstd stream",
                    ));
                }
                return Ok(false);
            }
            match self.decoder.init(&mut self.source) {
                Ok(()) => return Ok(true),
                Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame {
                    length,
                    ..
                })) => {
                    let want = u64::from(length);
                    let skipped =
                        std::io::copy(&mut (&mut self.source).take(want), &mut std::io::sink())?;
                    if skipped < want {
                        return Err(truncated_zstd());
                    }
                }
                Err(e) => return Err(zstd_error(e)),
            }
        }
    }
}

fn truncated_zstd() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::UnexpectedEof,
        "truncated zstd data (unexpected end of file)",
    )
}

fn zstd_error(e: ruzstd::decoding::errors::FrameDecoderError) -> std::io::Error {
    use ruzstd::decoding::errors::FrameDecoderError;
    let text = match e {
        FrameDecoderError::WindowSizeTooBig { requested, max } => format!(
            "zstd frame asks for a {requested}-byte window (made with `zstd --long`), over the \
             {max}-byte bound (raise --max-file-bytes; at most 2 GiB)"
        ),
        other => format!("zstd: {other}"),
    };
    std::io::Error::new(std::io::ErrorKind::InvalidData, text)
}

impl<R: BufRead> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use ruzstd::decoding::BlockDecodingStrategy;
        loop {
            if !self.in_frame {
                if !self.start_frame(self.frames == 0)? {
                    return Ok(0);
                }
                self.in_frame = true;
                self.frames += 1;
            }
            if self.decoder.can_collect() == 0 && !self.decoder.is_finished() {
                match self
                    .decoder
                    .decode_blocks(&mut self.source, BlockDecodingStrategy::UptoBlocks(1))
                {
                    Ok(_) => continue,
                    Err(e) => {
                        // A block that cannot be read because the input ended is truncation.
                        let text = e.to_string();
                        if text.contains("end of file")
                            || text.contains("UnexpectedEof")
                            || text.contains("fill whole buffer")
                        {
                            return Err(truncated_zstd());
                        }
                        return Err(zstd_error(e));
                    }
                }
            }
            let n = self.decoder.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            if self.decoder.is_finished() {
                self.in_frame = false;
            }
        }
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
            // Stay tripped: every later read fails too.
            self.left = 0;
            return Err(std::io::Error::other(format!(
                "{} decompresses to more than {} bytes (cap reached; raise {})",
                self.what, self.cap, self.flag
            )));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// Reads up to `n` bytes from the front of `r` and gives back a reader that still yields them.
pub(super) fn peek<'a>(
    r: Box<dyn Read + 'a>,
    n: usize,
) -> Result<(Vec<u8>, Box<dyn Read + 'a>), ReadError> {
    let (head, again) = peek_any(r, n)?;
    Ok((head, Box::new(again)))
}

/// A reader whose first bytes were read, reading them again first.
pub(super) type Peeked<R> = std::io::Chain<std::io::Cursor<Vec<u8>>, R>;

/// [`peek`] of any reader, the reader given back of the same kind (a file's stays `Send`).
pub(super) fn peek_any<R: Read>(mut r: R, n: usize) -> Result<(Vec<u8>, Peeked<R>), ReadError> {
    let mut head = Vec::with_capacity(n.min(1 << 16));
    (&mut r)
        .take(n as u64)
        .read_to_end(&mut head)
        .map_err(|e| ReadError::io(&e))?;
    let again = std::io::Cursor::new(head.clone()).chain(r);
    Ok((head, again))
}

/// The fixed part of an end-of-central-directory record.
pub(super) const EOCD_LEN: u64 = 22;

/// Where the end record of the zip in `r` is: `(offset, comment length)` of the last
/// `PK\x05\x06` in the file's tail whose comment length takes it exactly to the end of the
/// file. `None` when there is none (not a zip, or one with junk after it).
pub(super) fn end_record<R: Read + Seek>(r: &mut R) -> std::io::Result<Option<(u64, u64)>> {
    let len = r.seek(SeekFrom::End(0))?;
    let tail_len = len.min(EOCD_LEN + u64::from(u16::MAX));
    r.seek(SeekFrom::Start(len - tail_len))?;
    let mut tail = Vec::with_capacity(tail_len as usize);
    r.by_ref().take(tail_len).read_to_end(&mut tail)?;
    r.seek(SeekFrom::Start(0))?;
    let base = len - tail.len() as u64;
    let found = memchr::memmem::rfind_iter(&tail, b"PK\x05\x06").find_map(|i| {
        let rec = tail.get(i..i + EOCD_LEN as usize)?;
        let comment = u64::from(u16::from_le_bytes([rec[20], rec[21]]));
        let at = base + i as u64;
        (at + EOCD_LEN + comment == len).then_some((at, comment))
    });
    Ok(found)
}

/// Whether the file at `path` is a zip by its end record (a self-extracting zip starts with
/// a program, not `PK\x03\x04`).
pub(super) fn is_zip_by_end(path: &std::path::Path) -> bool {
    std::fs::File::open(path)
        .and_then(|mut f| end_record(&mut f))
        .is_ok_and(|e| e.is_some())
}

/// Reads everything from `r` into memory, failing when more than `cap` bytes come out.
pub fn read_capped(r: impl Read, cap: u64) -> Result<Vec<u8>, ReadError> {
    read_capped_sized(r, cap, 0)
}

/// Like [`read_capped`], with room for `size_hint` bytes made first (a file's length): the
/// buffer is not grown by doubling, which holds up to twice the file while it copies.
pub fn read_capped_sized(mut r: impl Read, cap: u64, size_hint: u64) -> Result<Vec<u8>, ReadError> {
    let room = usize::try_from(size_hint.min(cap)).unwrap_or(0);
    let mut out = Vec::with_capacity(room.saturating_add(1));
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

/// Decompresses `data` if it is gzip, xz or zstd (by magic), bounded by `cap`.
pub fn decompress_if_needed(data: Vec<u8>, cap: u64) -> Result<(Vec<u8>, bool), ReadError> {
    match sniff(&data) {
        m @ (Magic::Gzip | Magic::Xz | Magic::Zstd) => {
            let d = decoder(m, std::io::Cursor::new(data), zstd_window_cap(cap))?;
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
