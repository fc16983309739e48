//! CVO (klog) log parsing: an optional CRI/`--timestamps` RFC3339 prefix, the klog header
//! `Lmmdd hh:mm:ss.uuuuuu tid file:line] msg` (no year), and continuation lines without a
//! header, which belong to the record before them. Invalid UTF-8 is replaced, not fatal.
//!
//! The files: this one holds the entry points (a whole log, a stream, one line's header) and
//! the notes of a parsed log; `stamps` reads one line's stamps (the klog header and the
//! RFC3339 prefix) from their digits; `lines` parses a chunk's lines in order, reading a line
//! that repeats one before as such; `blocks` reads a stream in line-aligned blocks, parses
//! them on the pool and stitches them back in order.

use crate::model::{CvoLog, PartialTime, Provenance};
use crate::vocab::wants::LogFile;
use blocks::{Stitch, parse_blocks, parse_chunk};
use std::io::BufRead;

mod blocks;
mod lines;
mod stamps;
#[cfg(test)]
mod tests;

pub use stamps::{has_invalid_stamp, parse_header, split_time_prefix};

/// A parsed klog header.
#[derive(Debug, Clone, PartialEq)]
pub struct KlogHeader<'a> {
    pub level: char,
    pub stamp: PartialTime,
    /// `file:line`, as written before the `]`.
    pub location: &'a str,
    pub message: &'a str,
}

impl KlogHeader<'_> {
    /// The source file the line was logged from (the location without its line number).
    pub fn source_file(&self) -> &str {
        let loc = self.location;
        memchr::memrchr(b':', loc.as_bytes()).map_or(loc, |c| &loc[..c])
    }
}

/// Whether a line (possibly with a time prefix) starts with a klog header.
pub fn looks_like_klog(line: &str) -> bool {
    let (_, rest) = split_time_prefix(line);
    parse_header(rest).is_some()
}

/// Longest line kept whole; the rest of a longer line is skipped (and reported), so a
/// single-line gigabyte log cannot exhaust memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Reads one line (without the `\n`) into `buf`, keeping at most `cap` bytes of it.
/// Returns the number of bytes the line really had (plus one for a newline), 0 at the end.
pub fn read_line_capped(
    r: &mut dyn BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> std::io::Result<usize> {
    buf.clear();
    let mut total = 0usize;
    loop {
        let avail = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(total);
        }
        let (chunk, done) = match memchr::memchr(b'\n', avail) {
            Some(i) => (&avail[..i], Some(i + 1)),
            None => (avail, None),
        };
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(avail.len());
        total += used;
        r.consume(used);
        if done.is_some() {
            return Ok(total);
        }
    }
}

/// Parses a whole CVO log held in memory, line by line on this thread (the reference the
/// block-parallel [`parse_cvo_log_stream`] is tested against).
pub fn parse_cvo_log(
    data: &[u8],
    prov: Provenance,
    pod: String,
    file: LogFile,
) -> (CvoLog, Option<String>) {
    let mut cur = std::io::Cursor::new(data);
    let mut s = Stitch::default();
    s.add(parse_chunk(&mut cur, 0, false));
    finish(s, prov, pod, file)
}

/// Parses a CVO log from a stream. Returns the log and a note about problems (invalid UTF-8
/// replaced, over-long lines cut, a read error that ended the file early).
///
/// The stream is read in blocks of [`BLOCK_BYTES`] cut at line boundaries. With more than one
/// thread each block is parsed on the pool while the next is read (at most a few blocks in
/// flight); on one thread each is parsed as soon as it is read, which is still faster than
/// reading its lines one by one (the block parse reads a line that repeats one before it as
/// such, and checks UTF-8 a stretch at a time: a third less time on one core). Each parsed
/// block is joined to the log as soon as those before it are, so memory is bounded by the
/// blocks in flight and the compact records, never the file. The result is the same as a
/// line-by-line parse ([`parse_cvo_log`]).
pub fn parse_cvo_log_stream(
    r: &mut dyn BufRead,
    prov: Provenance,
    pod: String,
    file: LogFile,
) -> (CvoLog, Option<String>) {
    finish(parse_blocks(r, BLOCK_BYTES), prov, pod, file)
}

/// Parses a CVO log held in memory in blocks of `block_bytes` on the current pool, as
/// [`parse_cvo_log_stream`] does with [`BLOCK_BYTES`]: a log of many segments, for tests of
/// what reads them, and for the fuzzer that checks it against [`parse_cvo_log`].
pub fn parse_cvo_log_in_blocks(
    data: &[u8],
    block_bytes: usize,
    prov: Provenance,
    pod: String,
) -> CvoLog {
    let s = parse_blocks(&mut std::io::Cursor::new(data), block_bytes);
    finish(s, prov, pod, LogFile::Current).0
}

/// How much of a log is read and parsed as one unit when parsing in parallel.
pub const BLOCK_BYTES: usize = 4 << 20;

fn finish(s: Stitch, prov: Provenance, pod: String, file: LogFile) -> (CvoLog, Option<String>) {
    let mut done = s.done;
    if let Some((mut p, lines_before)) = s.pending {
        p.extend_open_to(s.bytes);
        done.push_built(p, lines_before);
    }
    let records = done.finish();
    let mut notes = Vec::new();
    if let Some(l) = s.invalid_utf8_line {
        notes.push(format!(
            "invalid UTF-8 from line {l} on (replaced with U+FFFD)"
        ));
    }
    if let Some(l) = s.long_line {
        notes.push(format!(
            "line {l} is longer than {MAX_LINE_BYTES} bytes (cut)"
        ));
    }
    if let Some(l) = s.first_bad_stamp {
        notes.push(format!(
            "{} line{} with an invalid timestamp (first at line {l}); skipped",
            s.bad_stamps,
            if s.bad_stamps == 1 { "" } else { "s" }
        ));
    }
    if let Some(e) = s.read_error {
        notes.push(format!("read stopped after line {}: {e}", s.lines));
    }
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    (
        CvoLog {
            prov,
            pod,
            file,
            records,
            lines: s.lines,
            bytes: s.bytes,
            unparsed_lines: s.unparsed,
        },
        note,
    )
}

/// Resolves partial stamps of klog headers using the CRI prefix of the same line when
/// present, else the year inference. Klog time is the event time; CRI time is used as is.
pub fn resolve_times(log: &mut CvoLog, yi: &crate::model::YearInference) {
    log.records.resolve(|p| yi.resolve(p));
}
