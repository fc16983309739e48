//! The tar reader: ustar, GNU and PAX archives read as a stream, one 512-byte header at a
//! time, with a bound on everything an archive can make it hold.
//!
//! What a header says is honoured the way GNU tar and the `tar` crate do (a PAX `size` or
//! `path` record overrides the ustar field of the entry it describes; a GNU long-name entry
//! names the next entry; the GNU sparse header's extension blocks are skipped), but nothing is
//! read whole: PAX records are parsed as they stream, only the values mglint uses are kept,
//! and a path longer than [`MAX_NAME_BYTES`] is reported on its entry (which is skipped)
//! instead of being held. A PAX record of gigabytes costs the time to read past it, not the
//! memory; the entries after it are read.

use std::io::{self, Read};

/// A tar block: headers and the padding of entry data.
const BLOCK: u64 = 512;

/// The longest path taken from a PAX `path` record or a GNU long-name entry. Longer names are
/// not held: the entry is reported and skipped, and the archive goes on.
pub const MAX_NAME_BYTES: u64 = 64 << 10;

/// The longest PAX key looked at; a longer key is not one mglint uses, so it is skipped.
const MAX_KEY_BYTES: usize = 64;

/// What an entry is, as far as mglint cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A regular file (`0`, NUL, `7`).
    File,
    /// A directory (`5`).
    Dir,
    /// Links, devices, FIFOs, sparse files and anything else: never read.
    Other,
}

/// One entry's header, with its extensions applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The raw path bytes (PAX `path`, else a GNU long name, else ustar prefix and name).
    pub path: Vec<u8>,
    pub kind: Kind,
    /// The bytes of data the archive holds for the entry.
    pub size: u64,
    /// Why the entry cannot be used although the archive goes on (a name over the bound).
    pub unusable: Option<String>,
}

/// Why the archive cannot be read past some point.
#[derive(Debug, thiserror::Error)]
pub enum TarError {
    /// The reader under the archive failed (a decoder error, an I/O error).
    #[error("{}", super::sniff::describe_io(.0))]
    Io(#[from] io::Error),
    #[error("the archive ends inside the entry whose header is at byte {offset}")]
    Truncated { offset: u64 },
    #[error("the archive ends inside a header (at byte {offset})")]
    CutHeader { offset: u64 },
    #[error("header checksum mismatch at byte {offset}")]
    Checksum { offset: u64 },
    #[error("unreadable {field} field in the header at byte {offset}")]
    BadField { offset: u64, field: &'static str },
    #[error("malformed PAX extended header at byte {offset}: {why}")]
    BadPax { offset: u64, why: &'static str },
    #[error("extended headers at the end of the archive describe no entry")]
    Dangling,
}

/// What extension headers said about the next entry.
#[derive(Default)]
struct Pending {
    any: bool,
    path: Option<Vec<u8>>,
    long_name: Option<Vec<u8>>,
    size: Option<u64>,
    sparse: bool,
    unusable: Option<String>,
}

/// Reads a tar archive from `R` entry by entry; [`TarReader::data`] reads the current
/// entry's data, and the next call to [`TarReader::next_entry`] skips what is left of it.
pub struct TarReader<R> {
    inner: R,
    /// Bytes consumed from `inner`.
    pos: u64,
    /// Data bytes of the current entry not read yet, and the padding after them.
    left: u64,
    pad: u64,
    /// Where the current entry's header is.
    header_at: u64,
    /// Set when the data of the current entry ended early.
    cut: bool,
    /// Where skipped data is read to ([`SKIP_PIECE`] bytes once used).
    scratch: Vec<u8>,
}

/// How much skipped data is read at once: at least the 64 KiB buffer archives are read
/// through (`source::walk`).
const SKIP_PIECE: usize = 128 << 10;

impl<R: Read> TarReader<R> {
    pub fn new(inner: R) -> Self {
        TarReader {
            inner,
            pos: 0,
            left: 0,
            pad: 0,
            header_at: 0,
            cut: false,
            scratch: Vec::new(),
        }
    }

    /// The reader under the archive, positioned after the last block read.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// The reader under the archive (to look at, or to tell what comes next).
    pub fn inner_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Leaves the rest of the current entry and its padding unread: `skip` is asked to move
    /// the reader under the archive that many bytes on (a reader that can seek, such as
    /// ranged fetches, `remote::ranged`), instead of reading them.
    pub fn skip_unread(
        &mut self,
        skip: impl FnOnce(&mut R, u64) -> io::Result<()>,
    ) -> Result<(), TarError> {
        let n = self.left.saturating_add(self.pad);
        if n == 0 {
            return Ok(());
        }
        if self.cut {
            return Err(TarError::Truncated {
                offset: self.header_at,
            });
        }
        skip(&mut self.inner, n)?;
        self.pos = self.pos.saturating_add(n);
        self.left = 0;
        self.pad = 0;
        Ok(())
    }

    /// The next entry, after skipping what is left of the current one; `None` at the end of
    /// the archive (a zero block, or the end of the stream at a header boundary).
    pub fn next_entry(&mut self) -> Result<Option<Entry>, TarError> {
        self.skip_rest()?;
        let mut pending = Pending::default();
        loop {
            let offset = self.pos;
            let mut h = [0u8; BLOCK as usize];
            if !self.read_block(&mut h)? || h.iter().all(|b| *b == 0) {
                return if pending.any {
                    Err(TarError::Dangling)
                } else {
                    Ok(None)
                };
            }
            check_sum(&h, offset)?;
            let size = number(&h[124..136]).ok_or(TarError::BadField {
                offset,
                field: "size",
            })?;
            self.begin(offset, size);
            match h[156] {
                b'x' => {
                    pending.any = true;
                    self.read_pax(&mut pending, offset)?;
                    continue;
                }
                b'L' => {
                    pending.any = true;
                    let (name, whole) = self.read_name()?;
                    if !whole {
                        pending.unusable = Some(too_long("GNU long name", size));
                    }
                    pending.long_name = Some(name);
                    continue;
                }
                // A GNU long link name (links are never read) and a PAX global header (its
                // records describe no entry mglint uses) are skipped.
                b'K' | b'g' => {
                    self.skip_rest()?;
                    continue;
                }
                _ => {}
            }
            if h[156] == b'S' {
                // Old GNU sparse: more sparse maps follow in extension blocks.
                let mut extended = h[482] != 0;
                while extended {
                    let at = self.pos;
                    let mut ext = [0u8; BLOCK as usize];
                    if !self.read_block(&mut ext)? {
                        return Err(TarError::CutHeader { offset: at });
                    }
                    extended = ext[504] != 0;
                }
            }
            let size = pending.size.unwrap_or(size);
            self.begin(offset, size);
            let kind = match h[156] {
                _ if pending.sparse => Kind::Other,
                b'0' | 0 | b'7' => Kind::File,
                b'5' => Kind::Dir,
                _ => Kind::Other,
            };
            let path = match (pending.path, pending.long_name) {
                (Some(p), _) | (None, Some(p)) => p,
                (None, None) => ustar_path(&h),
            };
            return Ok(Some(Entry {
                path,
                kind,
                size,
                unusable: pending.unusable,
            }));
        }
    }

    /// The current entry's data. It ends early, without an error, when the archive does
    /// (the next [`TarReader::next_entry`] reports that), so what was there is still read.
    pub fn data(&mut self) -> Data<'_, R> {
        Data { tar: self }
    }

    /// Starts an entry of `size` data bytes whose header is at `offset`.
    fn begin(&mut self, offset: u64, size: u64) {
        self.header_at = offset;
        self.left = size;
        self.pad = (BLOCK - size % BLOCK) % BLOCK;
        self.cut = false;
    }

    /// Reads one whole block; `false` at the end of the stream before any byte of it.
    fn read_block(&mut self, buf: &mut [u8; BLOCK as usize]) -> Result<bool, TarError> {
        let start = self.pos;
        let mut got = 0;
        while got < buf.len() {
            match self.inner.read(&mut buf[got..]) {
                Ok(0) if got == 0 => return Ok(false),
                Ok(0) => return Err(TarError::CutHeader { offset: start }),
                Ok(n) => {
                    got += n;
                    self.pos += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(true)
    }

    /// Reads up to `buf.len()` bytes of the current entry's data; 0 at its end.
    fn read_data(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 || self.cut {
            return Ok(0);
        }
        let want = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = loop {
            match self.inner.read(&mut buf[..want]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                r => break r?,
            }
        };
        if n == 0 {
            self.cut = true;
        }
        self.left -= n as u64;
        self.pos += n as u64;
        Ok(n)
    }

    /// Skips the rest of the current entry and its padding.
    fn skip_rest(&mut self) -> Result<(), TarError> {
        let n = self.left;
        self.skip(n)?;
        // The padding is data of no entry.
        self.left = std::mem::take(&mut self.pad);
        let n = self.left;
        self.skip(n)
    }

    /// One byte of the current entry's data; `None` at its end.
    fn byte(&mut self) -> Result<Option<u8>, TarError> {
        let mut b = [0u8; 1];
        match self.read_data(&mut b)? {
            0 if self.cut => Err(TarError::Truncated {
                offset: self.header_at,
            }),
            0 => Ok(None),
            _ => Ok(Some(b[0])),
        }
    }

    /// Skips `n` bytes of the current entry's data.
    fn skip(&mut self, n: u64) -> Result<(), TarError> {
        if n == 0 {
            return Ok(());
        }
        // Read in pieces no smaller than the buffered reader an archive is read through, so
        // it hands a piece straight to the decompressor, which writes it here once: a
        // smaller piece is decompressed into that reader's buffer and copied out again,
        // most of a large archive's bytes (the logs mglint does not read).
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.resize(SKIP_PIECE, 0);
        let result = self.skip_with(&mut scratch, n);
        self.scratch = scratch;
        result
    }

    /// Skips `n` bytes, reading them into `scratch`.
    fn skip_with(&mut self, scratch: &mut [u8], mut left: u64) -> Result<(), TarError> {
        while left > 0 {
            let k = scratch
                .len()
                .min(usize::try_from(left).unwrap_or(usize::MAX));
            match self.read_data(&mut scratch[..k])? {
                0 => {
                    return Err(TarError::Truncated {
                        offset: self.header_at,
                    });
                }
                got => left -= got as u64,
            }
        }
        Ok(())
    }

    /// Reads at most `n` bytes of data, and skips the rest of those `n`; `true` when all were kept.
    fn take_capped(&mut self, n: u64, cap: u64) -> Result<(Vec<u8>, bool), TarError> {
        let keep = n.min(cap);
        let mut v = vec![0u8; usize::try_from(keep).unwrap_or(0)];
        let mut got = 0;
        while got < v.len() {
            match self.read_data(&mut v[got..])? {
                0 => {
                    return Err(TarError::Truncated {
                        offset: self.header_at,
                    });
                }
                k => got += k,
            }
        }
        self.skip(n - keep)?;
        Ok((v, keep == n))
    }

    /// A GNU long name: the entry's data up to its first NUL, at most [`MAX_NAME_BYTES`].
    fn read_name(&mut self) -> Result<(Vec<u8>, bool), TarError> {
        let n = self.left;
        let (mut name, whole) = self.take_capped(n, MAX_NAME_BYTES)?;
        if let Some(end) = name.iter().position(|b| *b == 0) {
            name.truncate(end);
        }
        self.skip_rest()?;
        Ok((name, whole))
    }

    /// Parses the PAX records of the current entry (`LEN KEY=VALUE\n`, LEN counting the whole
    /// record) as they stream, keeping only `path`, `size` and whether `GNU.sparse.*` is set.
    fn read_pax(&mut self, p: &mut Pending, offset: u64) -> Result<(), TarError> {
        let bad = |why| TarError::BadPax { offset, why };
        loop {
            // The record's length, in decimal, then a space. Zero blocks of padding after the
            // last record are not part of any record.
            let mut len: u64 = 0;
            let mut digits: u64 = 0;
            loop {
                match self.byte()? {
                    None | Some(0) if digits == 0 => {
                        self.skip_rest()?;
                        return Ok(());
                    }
                    None => return Err(bad("a record is cut short")),
                    Some(b' ') if digits > 0 => break,
                    Some(d @ b'0'..=b'9') if digits < 19 => {
                        len = len * 10 + u64::from(d - b'0');
                        digits += 1;
                    }
                    Some(_) => return Err(bad("a record length is not a number")),
                }
            }
            let mut rest = len
                .checked_sub(digits + 1)
                .filter(|r| *r >= 3 && *r <= self.left)
                .ok_or(bad("a record length does not match the record"))?;
            // The key, up to `=`.
            let mut key: Vec<u8> = Vec::new();
            loop {
                let b = self.byte()?.ok_or(bad("a record is cut short"))?;
                rest -= 1;
                if b == b'=' {
                    break;
                }
                if rest == 0 || b == b'\n' {
                    return Err(bad("a record has no `=`"));
                }
                if key.len() < MAX_KEY_BYTES {
                    key.push(b);
                }
            }
            // The value and its newline.
            let value_len = rest.checked_sub(1).ok_or(bad("a record has no newline"))?;
            match key.as_slice() {
                b"path" | b"size" => {
                    let (value, whole) = self.take_capped(value_len, MAX_NAME_BYTES)?;
                    if key == b"size" {
                        let size = std::str::from_utf8(&value)
                            .ok()
                            .filter(|_| whole)
                            .and_then(|s| s.parse::<u64>().ok())
                            .ok_or(bad("the size record is not a number"))?;
                        p.size = Some(size);
                    } else if whole {
                        p.path = Some(value);
                    } else {
                        p.unusable = Some(too_long("PAX path", value_len));
                        p.path = Some(value);
                    }
                }
                k => {
                    if k.starts_with(b"GNU.sparse.") {
                        p.sparse = true;
                    }
                    self.skip(value_len)?;
                }
            }
            if self.byte()? != Some(b'\n') {
                return Err(bad("a record does not end in a newline"));
            }
        }
    }
}

/// The current entry's data, as a reader.
pub struct Data<'a, R> {
    tar: &'a mut TarReader<R>,
}

impl<R: Read> Read for Data<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.tar.read_data(buf)
    }
}

fn too_long(what: &str, len: u64) -> String {
    format!("{what} of {len} bytes, longer than the {MAX_NAME_BYTES} byte bound; skipped")
}

/// The header checksum: the sum of its bytes with the checksum field read as spaces
/// (unsigned, as POSIX says, or signed, as some old tars wrote it).
fn check_sum(h: &[u8; BLOCK as usize], offset: u64) -> Result<(), TarError> {
    let want = number(&h[148..156]).ok_or(TarError::Checksum { offset })?;
    let field = |i: usize| (148..156).contains(&i);
    let unsigned: u64 = h
        .iter()
        .enumerate()
        .map(|(i, b)| if field(i) { 32 } else { u64::from(*b) })
        .sum();
    let signed: i64 = h
        .iter()
        .enumerate()
        .map(|(i, b)| if field(i) { 32 } else { i64::from(*b as i8) })
        .sum();
    if want == unsigned || i64::try_from(want).is_ok_and(|w| w == signed) {
        Ok(())
    } else {
        Err(TarError::Checksum { offset })
    }
}

/// A numeric header field: octal, NUL- or space-terminated (leading spaces allowed), or GNU
/// base-256 (high bit of the first byte set; negative values are refused).
fn number(field: &[u8]) -> Option<u64> {
    if field.first().is_some_and(|b| b & 0x80 != 0) {
        if field[0] & 0x40 != 0 {
            return None;
        }
        let mut n: u64 = u64::from(field[0] & 0x3f);
        for b in &field[1..] {
            n = n.checked_mul(256)?.checked_add(u64::from(*b))?;
        }
        return Some(n);
    }
    let s = field
        .iter()
        .skip_while(|b| **b == b' ')
        .take_while(|b| **b != 0 && **b != b' ');
    // An all-NUL or all-space field is 0 (some writers leave unused fields empty).
    let mut n: u64 = 0;
    for b in s {
        if !(b'0'..=b'7').contains(b) {
            return None;
        }
        n = n.checked_mul(8)?.checked_add(u64::from(b - b'0'))?;
    }
    Some(n)
}

/// The ustar name: `prefix/name` when the POSIX prefix field is used (the GNU format keeps
/// other fields there, so its prefix is never read).
fn ustar_path(h: &[u8; BLOCK as usize]) -> Vec<u8> {
    let cstr = |b: &[u8]| b[..b.iter().position(|c| *c == 0).unwrap_or(b.len())].to_vec();
    let name = cstr(&h[..100]);
    let posix = &h[257..263] == b"ustar\0";
    let prefix = if posix {
        cstr(&h[345..500])
    } else {
        Vec::new()
    };
    if prefix.is_empty() {
        name
    } else {
        let mut p = prefix;
        p.push(b'/');
        p.extend_from_slice(&name);
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ustar header for `name` (`prefix/name` split when over 100 bytes), `size` bytes of
    /// data declared, type `kind`, with a correct checksum.
    fn header(name: &[u8], kind: u8, size: u64) -> [u8; 512] {
        let mut h = [0u8; 512];
        let (prefix, name) = if name.len() > 100 {
            let cut = name[..name.len() - 1]
                .iter()
                .rposition(|c| *c == b'/')
                .unwrap();
            (&name[..cut], &name[cut + 1..])
        } else {
            (&b""[..], name)
        };
        h[..name.len()].copy_from_slice(name);
        h[345..345 + prefix.len()].copy_from_slice(prefix);
        h[100..107].copy_from_slice(b"0000644");
        h[124..135].copy_from_slice(format!("{size:011o}").as_bytes());
        h[156] = kind;
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
        seal(&mut h);
        h
    }

    fn seal(h: &mut [u8; 512]) {
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|b| u32::from(*b)).sum();
        h[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
    }

    fn push(out: &mut Vec<u8>, h: [u8; 512], data: &[u8]) {
        out.extend_from_slice(&h);
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }

    fn file(out: &mut Vec<u8>, name: &str, data: &[u8]) {
        push(out, header(name.as_bytes(), b'0', data.len() as u64), data);
    }

    /// PAX records, each `LEN key=value\n` with LEN counting itself.
    fn pax(records: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        for (k, v) in records {
            let body = 1 + k.len() + 1 + v.len() + 1;
            let mut len = body + 1;
            while format!("{len}").len() + body != len {
                len = format!("{len}").len() + body;
            }
            out.extend_from_slice(format!("{len} {k}=").as_bytes());
            out.extend_from_slice(v);
            out.push(b'\n');
        }
        out
    }

    /// Every entry as (path, kind, size, data), then how the archive ended.
    type Listing = (Vec<(String, Kind, u64, Vec<u8>)>, Option<String>);

    fn list(data: &[u8]) -> Listing {
        let mut t = TarReader::new(data);
        let mut v = Vec::new();
        loop {
            match t.next_entry() {
                Ok(Some(e)) => {
                    let mut body = Vec::new();
                    t.data().read_to_end(&mut body).unwrap();
                    let path = String::from_utf8_lossy(&e.path).into_owned();
                    let path = match e.unusable {
                        Some(why) => format!("{}… ({why})", &path[..20]),
                        None => path,
                    };
                    v.push((path, e.kind, e.size, body));
                }
                Ok(None) => return (v, None),
                Err(e) => return (v, Some(e.to_string())),
            }
        }
    }

    fn names(l: &Listing) -> Vec<&str> {
        l.0.iter().map(|e| e.0.as_str()).collect()
    }

    #[test]
    fn what_the_tar_crate_writes_reads_the_same() {
        // The `tar` crate as the writer: GNU long names for long paths, directories, links.
        let mut b = ::tar::Builder::new(Vec::new());
        let long = format!("mg/{}/version.yaml", "d".repeat(150));
        for (path, data) in [
            ("mg/timestamp", &b"2024-01-10 10:00:00"[..]),
            (long.as_str(), &b"kind: ClusterVersion\n"[..]),
            ("mg/empty", &b""[..]),
            ("mg/exact", &[b'x'; 512][..]),
        ] {
            let mut h = ::tar::Header::new_gnu();
            h.set_size(data.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            b.append_data(&mut h, path, data).unwrap();
        }
        let mut h = ::tar::Header::new_gnu();
        h.set_entry_type(::tar::EntryType::Directory);
        h.set_size(0);
        b.append_data(&mut h, "mg/dir/", &b""[..]).unwrap();
        let mut h = ::tar::Header::new_gnu();
        h.set_entry_type(::tar::EntryType::Symlink);
        h.set_size(0);
        b.append_link(&mut h, "mg/link", "/etc/passwd").unwrap();
        let data = b.into_inner().unwrap();
        let ours = list(&data);
        assert_eq!(ours.1, None);
        let mut theirs = Vec::new();
        for e in ::tar::Archive::new(&data[..]).entries().unwrap() {
            let mut e = e.unwrap();
            let t = e.header().entry_type();
            let kind = if t.is_file() {
                Kind::File
            } else if t.is_dir() {
                Kind::Dir
            } else {
                Kind::Other
            };
            let path = String::from_utf8_lossy(&e.path_bytes()).into_owned();
            let mut body = Vec::new();
            e.read_to_end(&mut body).unwrap();
            theirs.push((path, kind, e.size(), body));
        }
        assert_eq!(ours.0, theirs);
        assert_eq!(ours.0[1].0, long);
    }

    #[test]
    fn ustar_prefix_and_name_are_joined() {
        let long = format!("{}/{}", "p".repeat(120), "version.yaml");
        let mut a = Vec::new();
        file(&mut a, &long, b"x");
        assert_eq!(names(&list(&a)), [long.as_str()]);
    }

    #[test]
    fn pax_path_and_size_override_the_ustar_fields() {
        let big = vec![b'y'; 3000];
        let mut a = Vec::new();
        let recs = pax(&[
            ("mtime", b"1704880800.5"),
            ("path", b"mg/the-real-name.yaml"),
            ("size", b"3000"),
        ]);
        push(
            &mut a,
            header(b"PaxHeaders/x", b'x', recs.len() as u64),
            &recs,
        );
        // ustar size 0: only the PAX record says where the next header is.
        push(&mut a, header(b"short", b'0', 0), &big);
        file(&mut a, "mg/after", b"after");
        a.extend_from_slice(&[0u8; 1024]);
        let l = list(&a);
        assert_eq!(l.1, None);
        assert_eq!(names(&l), ["mg/the-real-name.yaml", "mg/after"]);
        assert_eq!(l.0[0].3, big);
        assert_eq!(l.0[1].3, b"after");
    }

    #[test]
    fn huge_extension_headers_are_streamed_and_the_archive_goes_on() {
        let mut a = Vec::new();
        // 8 MiB of a record mglint does not use, then an over-long path: neither is held.
        let comment = vec![b'c'; 8 << 20];
        let long_path = vec![b'p'; (MAX_NAME_BYTES + 10) as usize];
        let recs = pax(&[("comment", &comment), ("path", &long_path)]);
        push(
            &mut a,
            header(b"PaxHeaders/x", b'x', recs.len() as u64),
            &recs,
        );
        file(&mut a, "ignored", b"one");
        // A GNU long name over the bound.
        let name = vec![b'n'; (MAX_NAME_BYTES * 2) as usize];
        push(
            &mut a,
            header(b"././@LongLink", b'L', name.len() as u64),
            &name,
        );
        file(&mut a, "ignored", b"two");
        file(&mut a, "mg/after", b"after");
        let l = list(&a);
        assert_eq!(l.1, None);
        assert_eq!(
            names(&l),
            [
                "pppppppppppppppppppp… (PAX path of 65546 bytes, longer than the 65536 byte bound; skipped)",
                "nnnnnnnnnnnnnnnnnnnn… (GNU long name of 131072 bytes, longer than the 65536 byte bound; skipped)",
                "mg/after",
            ]
        );
        assert_eq!(l.0[0].3, b"one");
    }

    #[test]
    fn consecutive_pax_headers_merge_and_global_headers_are_skipped() {
        let mut a = Vec::new();
        let g = pax(&[("comment", b"git archive")]);
        push(
            &mut a,
            header(b"pax_global_header", b'g', g.len() as u64),
            &g,
        );
        let one = pax(&[("path", b"first")]);
        push(&mut a, header(b"x1", b'x', one.len() as u64), &one);
        let two = pax(&[("path", b"second")]);
        push(&mut a, header(b"x2", b'x', two.len() as u64), &two);
        file(&mut a, "ustar", b"data");
        assert_eq!(names(&list(&a)), ["second"]);
    }

    #[test]
    fn sparse_entries_are_skipped_with_their_extension_blocks() {
        let mut a = Vec::new();
        // Old GNU sparse: real size 1 TB, 1024 bytes stored, one extension block of maps.
        let mut h = header(b"mg/sparse.log", b'S', 1024);
        h[257..265].copy_from_slice(b"ustar  \0");
        // Base-256: 1 × 256^5.
        h[483] = 0x80;
        h[489] = 1;
        h[482] = 1;
        seal(&mut h);
        a.extend_from_slice(&h);
        let mut ext = [0u8; 512];
        ext[504] = 0;
        a.extend_from_slice(&ext);
        a.extend_from_slice(&[b's'; 1024]);
        // PAX sparse (GNU tar 1.0 format) is not read either.
        let recs = pax(&[
            ("GNU.sparse.major", b"1"),
            ("GNU.sparse.realsize", b"1099511627776"),
        ]);
        push(&mut a, header(b"x", b'x', recs.len() as u64), &recs);
        file(&mut a, "mg/GNUSparseFile.0/pax.log", b"map and data");
        file(&mut a, "mg/after", b"after");
        let l = list(&a);
        assert_eq!(l.1, None);
        let kinds: Vec<(&str, Kind, u64)> = l.0.iter().map(|e| (e.0.as_str(), e.1, e.2)).collect();
        assert_eq!(
            kinds,
            [
                ("mg/sparse.log", Kind::Other, 1024),
                ("mg/GNUSparseFile.0/pax.log", Kind::Other, 12),
                ("mg/after", Kind::File, 5),
            ]
        );
    }

    #[test]
    fn damage_stops_the_archive_with_a_reason() {
        let mut good = Vec::new();
        file(&mut good, "mg/a", &[b'a'; 700]);
        file(&mut good, "mg/b", b"b");
        // A cut inside the data: what was there is read, then the cut is reported.
        let l = list(&good[..900]);
        assert_eq!(l.0[0].3.len(), 388);
        assert_eq!(
            l.1.as_deref(),
            Some("the archive ends inside the entry whose header is at byte 0")
        );
        // A cut inside the second header.
        let l = list(&good[..1536 + 100]);
        assert_eq!(
            l.1.as_deref(),
            Some("the archive ends inside a header (at byte 1536)")
        );
        // A flipped byte in a header.
        let mut bad = good.clone();
        bad[1536 + 3] ^= 1;
        let l = list(&bad);
        assert_eq!(names(&l), ["mg/a"]);
        assert_eq!(
            l.1.as_deref(),
            Some("header checksum mismatch at byte 1536")
        );
        // A size that is not a number.
        let mut h = header(b"mg/c", b'0', 1);
        h[124..136].copy_from_slice(b"12345678z00\0");
        seal(&mut h);
        let l = list(&h);
        assert_eq!(
            l.1.as_deref(),
            Some("unreadable size field in the header at byte 0")
        );
        // PAX records that lie about their length, or a size that is not a number.
        for (recs, why) in [
            (
                &b"99 path=x\n"[..],
                "a record length does not match the record",
            ),
            (&b"x path=x\n"[..], "a record length is not a number"),
            (&b"12 size=1z4\n"[..], "the size record is not a number"),
            (&b"10 path=xy"[..], "a record does not end in a newline"),
        ] {
            let mut a = Vec::new();
            push(&mut a, header(b"x", b'x', recs.len() as u64), recs);
            file(&mut a, "mg/a", b"a");
            let l = list(&a);
            assert_eq!(
                l.1,
                Some(format!("malformed PAX extended header at byte 0: {why}")),
                "{}",
                String::from_utf8_lossy(recs)
            );
        }
        // Extension headers with nothing after them.
        let recs = pax(&[("path", b"x")]);
        let mut a = Vec::new();
        push(&mut a, header(b"x", b'x', recs.len() as u64), &recs);
        assert_eq!(
            list(&a).1.as_deref(),
            Some("extended headers at the end of the archive describe no entry")
        );
    }

    #[test]
    fn numbers_are_octal_or_base_256() {
        assert_eq!(number(b"00000001750\0"), Some(1000));
        assert_eq!(number(b"   1750 \0"), Some(1000));
        assert_eq!(number(b"\0\0\0\0"), Some(0));
        assert_eq!(
            number(&[0x80, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]),
            Some(1 << 32)
        );
        assert_eq!(number(&[0xff, 0xff, 0xff, 0xff]), None);
        assert_eq!(number(b"0000000009\0"), None);
    }
}
