//! Fetching only the members of an uncompressed tar archive (a CI job's `must-gather.tar`)
//! that the analysis reads, by HTTP range requests. The archive is walked header by header
//! with the source layer's own tar reader ([`crate::source::tar::TarReader`]) over a
//! [`RangeReader`] that asks for a small window at each header and skips the data of every
//! member the path rules do not want without fetching it. The local copy is a valid tar
//! holding the wanted members, each with its header blocks exactly as in the archive (PAX
//! and GNU long names included), so ingestion reads it as it reads the whole archive.
//!
//! The whole archive is downloaded instead when the server answers a range request with the
//! whole object (200), when the archive is not an uncompressed tar, when its headers cannot
//! be read (a checksum, a field, a size running past the end), when one member's headers are
//! larger than [`MAX_HEADER_BYTES`], or when the server's answers do not agree with each
//! other. Every request goes through the job's [`Budget`] (bytes and deadline) with the
//! usual retries; the walk only moves forward, and after [`max_requests`] requests the rest
//! of the archive is asked for in one, so a hostile archive costs at most its own size.

use super::RemoteError;
use super::http::{Budget, Http, RangeAnswer, local_error};
use crate::source::sniff::{self, Magic};
use crate::source::tar::{Entry, TarReader};
use reqwest::Url;
use reqwest::blocking::Response;
use std::io::{self, Read, Write};
use std::path::Path;

/// Bytes asked for at the archive's first header: a GNU long name or a PAX record makes a
/// member's header three blocks.
pub const WINDOW: u64 = 3 * 512;

// The bounds of the part asked for at a header. It is the size of the header blocks of the
// member before (a member's own header is the best guess at the next one's: an archive of
// long names has them all long), doubled while a region of small members runs on (a part
// read to its end without a skip: directories, small manifests), up to twice that; a skip
// past a part's end (a member larger than the part) starts again from the header's size.
// Measured with the walk simulated on the generated archives of `tests/it/remote_ranged.rs`
// (the 4 MB one, 349 members, 10.1 % of the bytes wanted, most headers 1.5 KiB) and of
// `benches/batch_remote.rs` (200 MB, 2,109 members, 9.3 % wanted): a fixed 4 KiB window
// fetched 26.4 % and 11.7 % in 187 and 1,272 requests; 2 KiB 24.7 % and 11.2 % (328,
// 2,072); this, 24.2 % and 10.9 % (279, 2,001); the header's size alone 22.1 % and 10.8 %
// in a request per member; windows doubling to 16 KiB 26.7 % and 11.5 % (130, 1,286):
// a region of small members ends in a large one, whose data the last part overshoots into.
/// The smallest part asked for at a header: one block.
pub const MIN_WINDOW: u64 = 512;
/// The largest part asked for at a header (twice the largest header size that counts).
pub const MAX_WINDOW: u64 = 16 << 10;

/// The most bytes of header blocks (PAX records, GNU long names) kept for one member.
pub const MAX_HEADER_BYTES: usize = 1 << 20;

/// The most range requests for an archive of `total` bytes before the rest of it is asked
/// for in one: one per 32 KiB of archive, and at least 1,024.
pub fn max_requests(total: u64) -> u64 {
    (1024 + total / (32 << 10)).min(1 << 20)
}

/// How one archive was fetched.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ArchiveFetch {
    /// Its path inside the job directory.
    pub path: String,
    /// The archive's size.
    pub size: u64,
    /// Bytes received for it.
    pub fetched: u64,
    /// Requests made for it.
    pub requests: u64,
    /// Members (entries other than extension headers) it holds; 0 when read whole.
    pub members: u64,
    /// Members kept in the local copy; 0 when read whole.
    pub kept: u64,
    /// Why it was downloaded whole; `None` when only the members the analysis reads were.
    pub whole: Option<String>,
}

/// Why the walk stopped.
enum Stop {
    /// The archive is downloaded whole instead, for this reason.
    Whole(String),
    /// The object fails, as a download that failed.
    Fail(RemoteError),
}

/// Fetches the members of the tar archive at `url` for which `wanted` (given the member's
/// path, normalised as ingestion normalises it) is true into a tar at `dest`, or the whole
/// archive when that cannot be done (see the module documentation).
#[allow(clippy::too_many_arguments)]
pub(super) fn fetch_members(
    http: &Http,
    url: &Url,
    (path, listed): (&str, Option<u64>),
    dest: &Path,
    cap: u64,
    budget: &Budget,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<ArchiveFetch, RemoteError> {
    let mut out = ArchiveFetch {
        path: path.to_string(),
        size: listed.unwrap_or(0),
        fetched: 0,
        requests: 1,
        members: 0,
        kept: 0,
        whole: None,
    };
    let whole = |out: &mut ArchiveFetch, why: String, spent: u64| {
        let n = http.download(url, dest, cap, budget)?;
        out.fetched = spent + n;
        out.requests += 1;
        out.size = n;
        out.members = 0;
        out.kept = 0;
        out.whole = Some(why);
        Ok(out.clone())
    };
    let (resp, len, total, etag) = match http.get_range(url, (0, WINDOW), None, budget)? {
        RangeAnswer::Whole(resp) => {
            let n = match http.save(url, resp, dest, cap, budget) {
                Ok(n) => n,
                Err(RemoteError::Network { .. } | RemoteError::Timeout { .. }) => {
                    out.requests += 1;
                    http.download(url, dest, cap, budget)?
                }
                Err(e) => return Err(e),
            };
            out.fetched = n;
            out.size = n;
            out.whole = Some("the server answered a range request with the whole object".into());
            return Ok(out);
        }
        RangeAnswer::Part {
            resp,
            len,
            total,
            etag,
        } => (resp, len, total, etag),
        RangeAnswer::Unusable(why) => return whole(&mut out, why, 0),
    };
    out.size = total;
    if total > cap {
        return Err(RemoteError::TooLarge {
            url: url.to_string(),
            cap,
        });
    }
    let mut reader = RangeReader {
        http,
        url,
        budget,
        total,
        pos: 0,
        body: Some(resp),
        body_end: len,
        until: 0,
        window: WINDOW,
        header_len: WINDOW,
        requests: 1,
        max_requests: max_requests(total),
        fetched: 0,
        resumes: 0,
        etag,
        record: None,
        record_full: false,
        failed: None,
        changed: None,
    };
    if listed.is_some_and(|l| l != total) {
        let spent = reader.drain();
        return whole(
            &mut out,
            "the listing and the server disagree on its size".into(),
            spent,
        );
    }
    let dir = crate::safe_fs::parent_dir(dest);
    let tmp = crate::safe_fs::temp_in(dir)
        .map_err(|e| local_error(dir, "cannot create a temporary file", e))?;
    let tmp_path = tmp.path().to_path_buf();
    let mut w = io::BufWriter::with_capacity(64 << 10, tmp);
    let walked = walk(&mut reader, &mut w, &tmp_path, wanted);
    out.requests = reader.requests;
    match walked {
        Ok((members, kept)) => {
            let tmp = w
                .into_inner()
                .map_err(|e| local_error(&tmp_path, "cannot write file", e.into_error()))?;
            tmp.as_file()
                .sync_all()
                .map_err(|e| local_error(&tmp_path, "cannot write file", e))?;
            crate::safe_fs::persist(tmp, dest)
                .map_err(|e| local_error(dest, "cannot rename into place", e))?;
            out.fetched = reader.fetched + reader.drain();
            out.members = members;
            out.kept = kept;
            Ok(out)
        }
        Err(Stop::Fail(e)) => Err(e),
        Err(Stop::Whole(why)) => {
            drop(w);
            let spent = reader.fetched + reader.drain();
            whole(&mut out, why, spent)
        }
    }
}

/// Walks the archive, writing the wanted members' header blocks, data and padding to `w`;
/// gives the members seen and kept.
fn walk(
    reader: &mut RangeReader<'_>,
    w: &mut dyn Write,
    w_path: &Path,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<(u64, u64), Stop> {
    const BLOCK: u64 = 512;
    let write = |w: &mut dyn Write, b: &[u8]| {
        w.write_all(b)
            .map_err(|e| Stop::Fail(local_error(w_path, "cannot write file", e)))
    };
    let mut tar = TarReader::new(reader);
    let (mut members, mut kept) = (0u64, 0u64);
    loop {
        tar.inner_mut().start_record();
        let next = tar.next_entry();
        let header = tar.inner_mut().take_record();
        let entry: Entry = match next {
            Ok(Some(e)) => e,
            Ok(None) => break,
            Err(e) => {
                return Err(tar
                    .inner_mut()
                    .stop(format!("its headers cannot be read: {e}")));
            }
        };
        let Some(header) = header else {
            return Err(Stop::Whole(format!(
                "a member's header blocks are over {MAX_HEADER_BYTES} bytes"
            )));
        };
        if members == 0 && sniff::sniff(&header) != Magic::Tar {
            return Err(Stop::Whole("it is not an uncompressed tar archive".into()));
        }
        members += 1;
        tar.inner_mut().header_len = (header.len() as u64).clamp(MIN_WINDOW, MAX_WINDOW / 2);
        let path = crate::source::normalise(&String::from_utf8_lossy(&entry.path));
        let keep = entry.unusable.is_none() && !path.is_empty() && wanted(&path);
        if keep {
            write(w, &header)?;
            let pad = (BLOCK - entry.size % BLOCK) % BLOCK;
            let r = tar.inner_mut();
            r.until = r
                .pos
                .saturating_add(entry.size)
                .saturating_add(pad)
                .saturating_add(r.header_len);
            let copied = io::copy(&mut tar.data(), &mut *w);
            match copied {
                Ok(n) if n == entry.size => {}
                Ok(_) => {
                    return Err(tar
                        .inner_mut()
                        .stop("a member's data ends before its size".into()));
                }
                Err(e) => {
                    let r = tar.inner_mut();
                    return Err(match r.failed.take() {
                        Some(f) => Stop::Fail(f),
                        None => Stop::Fail(local_error(w_path, "cannot write file", e)),
                    });
                }
            }
            write(w, &[0u8; BLOCK as usize][..pad as usize])?;
            kept += 1;
        }
        if let Err(e) = tar.skip_unread(|r, n| r.skip(n)) {
            return Err(tar
                .inner_mut()
                .stop(format!("its members cannot be skipped: {e}")));
        }
    }
    write(w, &[0u8; 2 * BLOCK as usize])?;
    Ok((members, kept))
}

/// A reader over an object fetched by range requests, one part at a time, that can skip
/// ahead without fetching what it skips.
struct RangeReader<'a> {
    http: &'a Http,
    url: &'a Url,
    budget: &'a Budget,
    /// The object's size.
    total: u64,
    /// The next byte handed out.
    pos: u64,
    /// The part being read: bytes `pos..body_end` of the object.
    body: Option<Response>,
    body_end: u64,
    /// Where the next part should reach at least (the end of a wanted member's data, its
    /// padding and a window), or 0.
    until: u64,
    /// The size of the next part asked for at a header, and of the last member's header
    /// blocks (see [`MIN_WINDOW`] and the note before it).
    window: u64,
    header_len: u64,
    requests: u64,
    max_requests: u64,
    /// Bytes received.
    fetched: u64,
    /// Parts reopened after their transfer broke off.
    resumes: u32,
    etag: Option<String>,
    /// The bytes read while recording (one member's header blocks).
    record: Option<Vec<u8>>,
    record_full: bool,
    /// Why the last read failed, when a request did.
    failed: Option<RemoteError>,
    /// Set when the server's answers stopped agreeing with the first one.
    changed: Option<String>,
}

impl RangeReader<'_> {
    fn start_record(&mut self) {
        self.record = Some(Vec::with_capacity(512));
        self.record_full = false;
    }

    /// The bytes recorded since [`RangeReader::start_record`]; `None` when over the bound.
    fn take_record(&mut self) -> Option<Vec<u8>> {
        let r = self.record.take();
        if self.record_full { None } else { r }
    }

    /// How the walk stops after the tar reader failed: the request's failure when one
    /// failed, else the archive is read whole for `why`.
    fn stop(&mut self, why: String) -> Stop {
        if let Some(changed) = self.changed.take() {
            return Stop::Whole(changed);
        }
        match self.failed.take() {
            Some(e) => Stop::Fail(e),
            None => Stop::Whole(why),
        }
    }

    fn fail(&mut self, e: RemoteError) -> io::Error {
        let err = io::Error::other(e.to_string());
        self.failed = Some(e);
        err
    }

    /// Asks for the next part, from `pos`.
    fn open(&mut self) -> io::Result<()> {
        self.body = None;
        let left = self.total - self.pos;
        let len = if self.requests >= self.max_requests {
            left
        } else {
            self.window
                .max(self.until.saturating_sub(self.pos))
                .min(left)
        };
        self.until = 0;
        self.requests += 1;
        match self
            .http
            .get_range(self.url, (self.pos, len), self.etag.as_deref(), self.budget)
        {
            Ok(RangeAnswer::Part {
                resp, len, total, ..
            }) if total == self.total => {
                self.body = Some(resp);
                self.body_end = self.pos + len;
                Ok(())
            }
            Ok(RangeAnswer::Unusable(why)) => {
                self.changed = Some(why.clone());
                Err(io::Error::other(why))
            }
            Ok(_) => {
                let why = "the server stopped answering range requests, or the object changed \
                           between two of them";
                self.changed = Some(why.to_string());
                Err(io::Error::other(why))
            }
            Err(e) => Err(self.fail(e)),
        }
    }

    /// Reads and drops `n` bytes.
    fn discard(&mut self, mut n: u64) -> io::Result<()> {
        let mut buf = [0u8; 16 << 10];
        while n > 0 {
            let k = buf.len().min(usize::try_from(n).unwrap_or(usize::MAX));
            let got = self.read(&mut buf[..k])?;
            if got == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            n -= got as u64;
        }
        Ok(())
    }

    /// Moves `n` bytes on: read through when they are in the part being read, else the
    /// part's rest is read (it was asked for) and the next part starts past them.
    fn skip(&mut self, n: u64) -> io::Result<()> {
        let target = self
            .pos
            .checked_add(n)
            .filter(|t| *t <= self.total)
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "a member runs past the end of the archive",
                )
            })?;
        if self.body.is_some() && target <= self.body_end {
            return self.discard(target - self.pos);
        }
        if self.body.is_some() {
            self.discard(self.body_end - self.pos)?;
        }
        // A member larger than the part: the next header starts a region afresh.
        self.window = self.header_len;
        self.body = None;
        self.pos = target;
        Ok(())
    }

    /// Reads what is left of the part being read (so that the connection can be used
    /// again); gives the bytes read. A failure here costs nothing but the connection.
    fn drain(&mut self) -> u64 {
        let before = self.fetched;
        if self.body.is_some() && self.pos < self.body_end {
            let _ = self.discard(self.body_end - self.pos);
        }
        self.body = None;
        self.fetched - before
    }
}

impl Read for RangeReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos >= self.total || buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.body.is_none() || self.pos >= self.body_end {
                if self.body.is_some() {
                    // The part was read to its end: a region of small members.
                    self.window = (self.window * 2).min(self.header_len * 2);
                }
                self.open()?;
            }
            let want = buf
                .len()
                .min(usize::try_from(self.body_end - self.pos).unwrap_or(usize::MAX));
            let Some(body) = self.body.as_mut() else {
                continue;
            };
            let got = match body.read(&mut buf[..want]) {
                Ok(0) => Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "a part ended before its length",
                )),
                Ok(n) => Ok(n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => Err(e),
            };
            match got {
                Ok(n) => {
                    self.fetched += n as u64;
                    if !self.budget.take(n as u64) {
                        let e = self.budget.over(self.url);
                        return Err(self.fail(e));
                    }
                    if let Some(rec) = self.record.as_mut() {
                        if rec.len() + n <= MAX_HEADER_BYTES {
                            rec.extend_from_slice(&buf[..n]);
                        } else {
                            self.record_full = true;
                        }
                    }
                    self.pos += n as u64;
                    return Ok(n);
                }
                Err(e) => {
                    // The transfer broke off: the part is asked for again from here.
                    self.body = None;
                    self.resumes += 1;
                    if self.resumes > self.http.retries() || self.budget.remaining().is_zero() {
                        let e = RemoteError::Network {
                            url: self.url.to_string(),
                            reason: format!("transfer broke off: {e}"),
                            attempts: self.resumes,
                        };
                        return Err(self.fail(e));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_bound_grows_with_the_archive_and_is_capped() {
        assert_eq!(max_requests(0), 1024);
        assert_eq!(max_requests(200 << 20), 1024 + 6400);
        assert_eq!(max_requests(u64::MAX), 1 << 20);
    }
}
