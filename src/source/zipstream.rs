//! Zips that arrive as a stream (an entry of a tar or another zip, `x.zip.gz`, a pipe): a
//! small one is held in memory and read through its central directory like a zip on disk
//! (`source::zip`); one larger than [`HOLD`] is read as it streams, entry by entry from its
//! local headers, so memory stays bounded whatever its size (a 700 MB zip inside a tar.gz
//! was held whole: 726 MB).
//!
//! Streaming reads what the local headers say: stored entries by their size, deflated ones
//! to the end of their deflate stream (so entries whose sizes follow the data, in a data
//! descriptor, as Java and `zip -` write them, are read too), zip64 sizes from the extra
//! field, and each entry's CRC-32 checked. What cannot be streamed is said by name: an
//! encrypted entry or another method is skipped when its size is known, and a stored entry
//! whose size follows its data ends the read (nothing says where its data end).

use super::ReadError;
use super::sniff::{self, Capped};
use super::walk::{EntryType, Walker};
use crate::model::Severity;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read};

/// Zips in a stream up to this size are held and read by their central directory; larger
/// ones are streamed. The same 64 MiB as the ingest pipeline's bound on entries waiting to
/// be parsed.
pub const HOLD: u64 = 64 << 20;

const LOCAL: u32 = 0x0403_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const END: u32 = 0x0605_4b50;
const END64: u32 = 0x0606_4b50;
const DESCRIPTOR: u32 = 0x0807_4b50;

/// One local file header, as far as streaming needs it.
struct Local {
    flags: u16,
    method: u16,
    crc: u32,
    compressed: u64,
    size: u64,
    name: String,
    zip64: bool,
}

impl Local {
    fn descriptor(&self) -> bool {
        self.flags & 0x08 != 0
    }
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

fn u64_at(b: &[u8], i: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(a)
}

/// Reads the next record's signature; `None` at the end of the stream.
fn signature(r: &mut impl Read) -> std::io::Result<Option<u32>> {
    let mut sig = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match r.read(&mut sig[got..])? {
            0 if got == 0 => return Ok(None),
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => got += n,
        }
    }
    Ok(Some(u32::from_le_bytes(sig)))
}

/// The rest of a local header, after its signature.
fn local_header(r: &mut impl Read) -> std::io::Result<Local> {
    let mut fixed = [0u8; 26];
    r.read_exact(&mut fixed)?;
    let (name_len, extra_len) = (
        usize::from(u16_at(&fixed, 22)),
        usize::from(u16_at(&fixed, 24)),
    );
    let mut name = vec![0u8; name_len];
    r.read_exact(&mut name)?;
    let mut extra = vec![0u8; extra_len];
    r.read_exact(&mut extra)?;
    let mut h = Local {
        flags: u16_at(&fixed, 2),
        method: u16_at(&fixed, 4),
        crc: u32_at(&fixed, 10),
        compressed: u64::from(u32_at(&fixed, 14)),
        size: u64::from(u32_at(&fixed, 18)),
        name: String::from_utf8_lossy(&name).into_owned(),
        zip64: false,
    };
    // The zip64 extra field: the sizes that are 0xFFFFFFFF in the header, in this order.
    let mut i = 0;
    while i + 4 <= extra.len() {
        let (id, len) = (u16_at(&extra, i), usize::from(u16_at(&extra, i + 2)));
        let body = extra.get(i + 4..i + 4 + len).unwrap_or(&[]);
        if id == 1 {
            h.zip64 = true;
            let mut at = 0;
            if h.size == 0xFFFF_FFFF && body.len() >= at + 8 {
                h.size = u64_at(body, at);
                at += 8;
            }
            if h.compressed == 0xFFFF_FFFF && body.len() >= at + 8 {
                h.compressed = u64_at(body, at);
            }
        }
        i += 4 + len;
    }
    Ok(h)
}

/// Counts the bytes read through it and their CRC-32.
struct Checked<R> {
    inner: R,
    crc: flate2::Crc,
}

impl<R: Read> Read for Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
}

impl Walker<'_, '_> {
    /// Reads a zip that arrives as a stream: held and read by its central directory when it
    /// is at most [`HOLD`] bytes (and fits in `room`, what the chain of zips held around it
    /// leaves of `--max-file-bytes`), streamed from its local headers otherwise.
    pub(super) fn read_zip_in_stream(
        &mut self,
        mut r: Box<dyn Read + '_>,
        prefix: &str,
        depth: u32,
        room: u64,
    ) -> Result<(), ReadError> {
        let hold = HOLD.min(room);
        let mut head = Vec::new();
        (&mut r)
            .take(hold.saturating_add(1))
            .read_to_end(&mut head)
            .map_err(|e| ReadError::io(&e))?;
        if head.len() as u64 <= hold {
            let held = head.len() as u64;
            self.zips_held += held;
            self.read_zip(std::io::Cursor::new(head), prefix, depth);
            self.zips_held -= held;
            return Ok(());
        }
        let here = prefix.trim_end_matches("::").to_string();
        if self.too_deep(&here, depth) {
            return Ok(());
        }
        let chained = std::io::Cursor::new(head).chain(r);
        self.stream_zip(BufReader::with_capacity(1 << 16, chained), prefix, depth);
        Ok(())
    }

    /// Reads every entry of a zip from its local headers, as it streams.
    fn stream_zip(&mut self, mut r: impl BufRead, prefix: &str, depth: u32) {
        let here = prefix.trim_end_matches("::").to_string();
        let mut names = HashSet::new();
        let mut left = self.opts.max_archive_bytes;
        loop {
            let sig = match signature(&mut r) {
                Ok(Some(s)) => s,
                Ok(None) => return,
                Err(e) => return self.stream_stop(&here, &sniff::describe_io(&e)),
            };
            match sig {
                LOCAL => {}
                CENTRAL | END | END64 => return,
                _ => {
                    return self.stream_stop(&here, "not a zip local header where one should be");
                }
            }
            let h = match local_header(&mut r) {
                Ok(h) => h,
                Err(e) => return self.stream_stop(&here, &sniff::describe_io(&e)),
            };
            let full = format!("{prefix}{}", super::normalise(&h.name));
            let unknown_end = h.descriptor() && h.compressed == 0;
            let refuse = if h.flags & 1 != 0 {
                Some("encrypted entry".to_string())
            } else if !matches!(h.method, 0 | 8) {
                Some(format!(
                    "compression method {} is not supported (only stored and deflate are)",
                    h.method
                ))
            } else if h.method == 0 && unknown_end && !h.name.ends_with('/') {
                Some(
                    "stored with its size after the data, so its end cannot be found in a stream"
                        .to_string(),
                )
            } else {
                None
            };
            if let Some(why) = refuse {
                if unknown_end {
                    self.diag(
                        &full,
                        Severity::Error,
                        format!(
                            "zip entry cannot be read: {why}; the rest of this zip was not read"
                        ),
                    );
                    return;
                }
                self.diag(
                    &full,
                    Severity::Warning,
                    format!("zip entry cannot be read: {why}; skipped"),
                );
                if let Err(e) =
                    std::io::copy(&mut (&mut r).take(h.compressed), &mut std::io::sink())
                {
                    return self.stream_stop(&here, &sniff::describe_io(&e));
                }
                continue;
            }
            let ty = if h.name.ends_with('/') {
                EntryType::Dir
            } else {
                EntryType::File
            };
            // The entry's bytes: stored by its size, deflate to the end of its stream.
            let limit = if unknown_end && h.method == 8 {
                u64::MAX
            } else {
                h.compressed
            };
            let mut raw = (&mut r).take(limit);
            let body: Box<dyn Read + '_> = if h.method == 8 {
                Box::new(flate2::bufread::DeflateDecoder::new(&mut raw))
            } else {
                Box::new(&mut raw)
            };
            let mut checked = Checked {
                inner: body,
                crc: flate2::Crc::new(),
            };
            let mut capped = Capped {
                inner: &mut checked,
                left,
                cap: self.opts.max_archive_bytes,
                what: "archive",
                flag: "--max-archive-bytes",
            };
            let failed = self
                .entry(&mut capped, &h.name, ty, h.size, prefix, depth, &mut names)
                .is_err();
            left = capped.left;
            if failed && left == 0 {
                return;
            }
            // What the entry's reader left: read through, so the next header is next.
            if let Err(e) = std::io::copy(&mut capped, &mut std::io::sink()) {
                return self.stream_stop(&full, &sniff::describe_io(&e));
            }
            left = capped.left;
            let crc = checked.crc.sum();
            drop(checked);
            if !unknown_end {
                // A deflate stream shorter than its stated size: skip to the stated end.
                let _ = std::io::copy(&mut raw, &mut std::io::sink());
            }
            let mut want = h.crc;
            if h.descriptor() {
                match self.descriptor_crc(&mut r, h.zip64) {
                    Ok(c) => want = c,
                    Err(e) => return self.stream_stop(&full, &sniff::describe_io(&e)),
                }
            }
            if !failed && ty == EntryType::File && crc != want {
                self.diag(
                    &full,
                    Severity::Error,
                    format!("zip entry fails its CRC-32 check (read {crc:08x}, stored {want:08x}): corrupt data"),
                );
            }
        }
    }

    /// Reads a data descriptor (its signature is optional) and gives its CRC-32.
    fn descriptor_crc(&mut self, r: &mut impl Read, zip64: bool) -> std::io::Result<u32> {
        let mut first = [0u8; 4];
        r.read_exact(&mut first)?;
        let crc = if u32::from_le_bytes(first) == DESCRIPTOR {
            let mut c = [0u8; 4];
            r.read_exact(&mut c)?;
            u32::from_le_bytes(c)
        } else {
            u32::from_le_bytes(first)
        };
        let sizes = if zip64 { 16 } else { 8 };
        std::io::copy(&mut r.take(sizes), &mut std::io::sink())?;
        Ok(crc)
    }

    /// The stream cannot be read further: one error on the zip, the entries before kept.
    fn stream_stop(&mut self, here: &str, why: &str) {
        self.diag(
            here,
            Severity::Error,
            format!("zip read as a stream stopped: {why}; entries after this point were not read"),
        );
    }
}
