//! Text encodings at the source: the one place where a file's bytes become UTF-8 for parsing.
//!
//! What clusters and `oc` write is UTF-8, with or without a byte order mark. What customers
//! send is sometimes what Windows wrote: `oc get clusterversion -o yaml > cv.yaml` in
//! PowerShell 5 saves UTF-16 (little-endian) with a byte order mark, and `Out-File
//! -Encoding BigEndianUnicode` the big-endian form. Both are read, as `oc` (through Go's
//! `k8s.io/apimachinery` YAML reader, which transcodes UTF-16 with a BOM) reads them.
//! Anything else that is clearly not UTF-8 text (UTF-32, UTF-16 without a byte order mark)
//! is refused with the reason, never read as garbage.
//!
//! Decoded text replaces the file's bytes: spans and columns of a transcoded file count
//! bytes of its UTF-8 text (lines are the same lines).

use std::borrow::Cow;
use std::io::{BufRead, Read};

/// How a text file was stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 without a byte order mark (what clusters and `oc` write).
    Utf8,
    /// UTF-8 with a byte order mark (`EF BB BF`).
    Utf8Bom,
    /// UTF-16 little-endian with a byte order mark (`FF FE`): PowerShell 5's `>`.
    Utf16Le,
    /// UTF-16 big-endian with a byte order mark (`FE FF`).
    Utf16Be,
}

impl Encoding {
    /// The encoding a file's first bytes announce with a byte order mark (UTF-8 without one).
    pub fn of(head: &[u8]) -> Encoding {
        // UTF-32 LE also starts `FF FE`: told apart (and refused) by [`check`].
        if head.starts_with(UTF8_BOM) {
            Encoding::Utf8Bom
        } else if head.starts_with(b"\xff\xfe") {
            Encoding::Utf16Le
        } else if head.starts_with(b"\xfe\xff") {
            Encoding::Utf16Be
        } else {
            Encoding::Utf8
        }
    }

    /// Bytes of the byte order mark.
    pub fn bom_len(self) -> usize {
        match self {
            Encoding::Utf8 => 0,
            Encoding::Utf8Bom => 3,
            Encoding::Utf16Le | Encoding::Utf16Be => 2,
        }
    }

    /// Whether the file had a byte order mark (Go's `encoding/json` refuses one).
    pub fn has_bom(self) -> bool {
        self != Encoding::Utf8
    }

    /// The character Go's `encoding/json` reports for this file's first byte when it refuses
    /// the byte order mark (`invalid character 'ï' looking for beginning of value`).
    pub fn go_json_first_char(self) -> Option<char> {
        match self {
            Encoding::Utf8 => None,
            Encoding::Utf8Bom => Some('ï'),
            Encoding::Utf16Le => Some('ÿ'),
            Encoding::Utf16Be => Some('þ'),
        }
    }
}

/// The UTF-8 byte order mark.
pub const UTF8_BOM: &[u8] = b"\xef\xbb\xbf";

/// Why a file's bytes are not text mglint reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodingError {
    /// A UTF-32 byte order mark.
    #[error("file is UTF-32 ({0}); save it as UTF-8 (or UTF-16 with a byte order mark)")]
    Utf32(&'static str),
    /// NUL bytes at every other position and no byte order mark.
    #[error(
        "file looks like UTF-16 without a byte order mark; save it as UTF-8 (or UTF-16 with a byte order mark)"
    )]
    Utf16NoBom,
    /// An odd number of bytes after a UTF-16 byte order mark.
    #[error("UTF-16 file ends in the middle of a character (odd length {0} bytes)")]
    OddLength(usize),
}

/// Refuses what is clearly not text in an encoding mglint reads, from the first bytes.
pub fn check(head: &[u8]) -> Result<Encoding, EncodingError> {
    if head.starts_with(b"\xff\xfe\x00\x00") {
        return Err(EncodingError::Utf32("little-endian byte order mark"));
    }
    if head.starts_with(b"\x00\x00\xfe\xff") {
        return Err(EncodingError::Utf32("big-endian byte order mark"));
    }
    let enc = Encoding::of(head);
    if enc == Encoding::Utf8 && looks_like_bomless_utf16(head) {
        return Err(EncodingError::Utf16NoBom);
    }
    Ok(enc)
}

/// ASCII text stored as UTF-16 without a byte order mark: a NUL at every even (or every
/// odd) position of the first bytes, and none at the others. UTF-8 text never holds NUL.
fn looks_like_bomless_utf16(head: &[u8]) -> bool {
    let n = head.len().min(64) & !1;
    if n < 8 {
        return false;
    }
    let (mut even, mut odd) = (0, 0);
    for (i, b) in head[..n].iter().enumerate() {
        if *b == 0 {
            if i % 2 == 0 {
                even += 1;
            } else {
                odd += 1;
            }
        }
    }
    let pairs = n / 2;
    (even == pairs && odd == 0) || (odd == pairs && even == 0)
}

/// A whole file's bytes as UTF-8 without a byte order mark, and how they were stored.
/// Unpaired UTF-16 surrogates become U+FFFD (as Go's `unicode/utf16.Decode` makes them).
pub fn decode(mut data: Vec<u8>) -> Result<(Vec<u8>, Encoding), EncodingError> {
    let enc = check(&data)?;
    match enc {
        Encoding::Utf8 => Ok((data, enc)),
        Encoding::Utf8Bom => {
            data.drain(..UTF8_BOM.len());
            Ok((data, enc))
        }
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let body = &data[2..];
            if !body.len().is_multiple_of(2) {
                return Err(EncodingError::OddLength(data.len()));
            }
            Ok((utf16_to_utf8(body, enc == Encoding::Utf16Be), enc))
        }
    }
}

/// A file's bytes without a leading UTF-8 byte order mark, the rest untouched (for formats
/// that name their own encoding, as XML does).
pub fn strip_utf8_bom(mut data: Vec<u8>) -> (Vec<u8>, Encoding) {
    if data.starts_with(UTF8_BOM) {
        data.drain(..UTF8_BOM.len());
        return (data, Encoding::Utf8Bom);
    }
    (data, Encoding::Utf8)
}

/// The first bytes of a file as UTF-8 for sniffing what it is (a trailing half character of
/// a UTF-16 head is dropped; nothing is refused here).
pub fn decode_head(head: &[u8]) -> Cow<'_, [u8]> {
    match Encoding::of(head) {
        Encoding::Utf8 => Cow::Borrowed(head),
        Encoding::Utf8Bom => Cow::Borrowed(&head[3..]),
        e @ (Encoding::Utf16Le | Encoding::Utf16Be) => {
            let body = &head[2..];
            Cow::Owned(utf16_to_utf8(
                &body[..body.len() & !1],
                e == Encoding::Utf16Be,
            ))
        }
    }
}

fn utf16_to_utf8(body: &[u8], big_endian: bool) -> Vec<u8> {
    let units = body.chunks_exact(2).map(|c| {
        if big_endian {
            u16::from_be_bytes([c[0], c[1]])
        } else {
            u16::from_le_bytes([c[0], c[1]])
        }
    });
    let mut out = String::with_capacity(body.len() / 2 + body.len() / 8);
    for c in char::decode_utf16(units) {
        out.push(c.unwrap_or(char::REPLACEMENT_CHARACTER));
    }
    out.into_bytes()
}

/// A stream as UTF-8 without a byte order mark: a UTF-8 mark is skipped, UTF-16 with a mark
/// transcoded as it is read (logs are never held whole). `Err` for what [`check`] refuses.
pub fn decode_stream<'a>(
    mut r: Box<dyn BufRead + 'a>,
) -> Result<Box<dyn BufRead + 'a>, EncodingError> {
    let head = r.fill_buf().map(|b| b.to_vec()).unwrap_or_default();
    let enc = check(&head)?;
    match enc {
        Encoding::Utf8 => Ok(r),
        Encoding::Utf8Bom => {
            r.consume(3);
            Ok(r)
        }
        Encoding::Utf16Le | Encoding::Utf16Be => {
            r.consume(2);
            Ok(Box::new(std::io::BufReader::with_capacity(
                1 << 16,
                Utf16Reader {
                    inner: r,
                    big_endian: enc == Encoding::Utf16Be,
                    pending: Vec::new(),
                    high: None,
                    odd: None,
                },
            )))
        }
    }
}

/// Transcodes a UTF-16 stream (after its byte order mark) to UTF-8 as it is read.
struct Utf16Reader<R> {
    inner: R,
    big_endian: bool,
    /// UTF-8 bytes decoded and not yet handed out.
    pending: Vec<u8>,
    /// A high surrogate waiting for its low half.
    high: Option<u16>,
    /// A byte waiting for the other half of its code unit.
    odd: Option<u8>,
}

impl<R: BufRead> Utf16Reader<R> {
    fn unit(&self, a: u8, b: u8) -> u16 {
        if self.big_endian {
            u16::from_be_bytes([a, b])
        } else {
            u16::from_le_bytes([a, b])
        }
    }

    fn push_char(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.pending
            .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }

    fn push_unit(&mut self, u: u16) {
        match (self.high.take(), u) {
            (Some(h), 0xDC00..=0xDFFF) => {
                let c = 0x10000 + ((u32::from(h) - 0xD800) << 10) + (u32::from(u) - 0xDC00);
                self.push_char(char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER));
            }
            (h, _) => {
                if h.is_some() {
                    self.push_char(char::REPLACEMENT_CHARACTER);
                }
                match u {
                    0xD800..=0xDBFF => self.high = Some(u),
                    0xDC00..=0xDFFF => self.push_char(char::REPLACEMENT_CHARACTER),
                    _ => self.push_char(char::from_u32(u.into()).unwrap_or('\u{fffd}')),
                }
            }
        }
    }

    /// Decodes the next chunk of the stream into `pending`; `false` at its end.
    fn refill(&mut self) -> std::io::Result<bool> {
        let chunk = self.inner.fill_buf()?.to_vec();
        if chunk.is_empty() {
            if self.high.take().is_some() || self.odd.take().is_some() {
                self.push_char(char::REPLACEMENT_CHARACTER);
                return Ok(true);
            }
            return Ok(false);
        }
        self.inner.consume(chunk.len());
        let mut bytes = chunk.as_slice();
        if let Some(a) = self.odd.take() {
            let u = self.unit(a, bytes[0]);
            self.push_unit(u);
            bytes = &bytes[1..];
        }
        let mut pairs = bytes.chunks_exact(2);
        for p in pairs.by_ref() {
            let u = self.unit(p[0], p[1]);
            self.push_unit(u);
        }
        self.odd = pairs.remainder().first().copied();
        Ok(true)
    }
}

impl<R: BufRead> Read for Utf16Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pending.is_empty() {
            if !self.refill()? {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What PowerShell 5's `>` writes: a BOM, then UTF-16 LE code units.
    fn utf16le(text: &str) -> Vec<u8> {
        let mut out = vec![0xff, 0xfe];
        for u in text.encode_utf16() {
            out.extend_from_slice(&u.to_le_bytes());
        }
        out
    }

    fn utf16be(text: &str) -> Vec<u8> {
        let mut out = vec![0xfe, 0xff];
        for u in text.encode_utf16() {
            out.extend_from_slice(&u.to_be_bytes());
        }
        out
    }

    const CV: &str = "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version # café 🚀\n";

    #[test]
    fn every_bom_decodes_to_the_same_text() {
        for (bytes, enc) in [
            (CV.as_bytes().to_vec(), Encoding::Utf8),
            ([UTF8_BOM, CV.as_bytes()].concat(), Encoding::Utf8Bom),
            (utf16le(CV), Encoding::Utf16Le),
            (utf16be(CV), Encoding::Utf16Be),
        ] {
            let (text, got) = decode(bytes.clone()).unwrap();
            assert_eq!(got, enc);
            assert_eq!(String::from_utf8(text).unwrap(), CV);
            // Streamed in tiny reads (odd chunk boundaries split code units and pairs).
            let r: Box<dyn BufRead> = Box::new(std::io::BufReader::with_capacity(
                3,
                std::io::Cursor::new(bytes),
            ));
            let mut s = String::new();
            decode_stream(r).unwrap().read_to_string(&mut s).unwrap();
            assert_eq!(s, CV);
        }
    }

    #[test]
    fn other_encodings_are_refused_with_the_reason() {
        let mut bomless = utf16le(CV);
        bomless.drain(..2);
        assert_eq!(decode(bomless), Err(EncodingError::Utf16NoBom));
        assert!(matches!(
            decode(b"\xff\xfe\x00\x00a\x00\x00\x00".to_vec()),
            Err(EncodingError::Utf32(_))
        ));
        let mut odd = utf16le(CV);
        odd.push(b'x');
        assert!(matches!(decode(odd), Err(EncodingError::OddLength(_))));
        // A lone surrogate is U+FFFD, as Go's utf16.Decode makes it.
        let lone = [0xff, 0xfe, 0x00, 0xd8, b'a', 0];
        assert_eq!(decode(lone.to_vec()).unwrap().0, "\u{fffd}a".as_bytes());
    }

    #[test]
    fn heads_decode_for_sniffing() {
        let b = utf16le(CV);
        let head = decode_head(&b[..41]);
        assert!(CV.as_bytes().starts_with(&head));
        assert_eq!(&*decode_head(b"kind: Node"), b"kind: Node");
    }
}
