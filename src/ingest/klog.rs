//! CVO (klog) log parsing: an optional CRI/`--timestamps` RFC3339 prefix, the klog header
//! `Lmmdd hh:mm:ss.uuuuuu tid file:line] msg` (no year), and continuation lines without a
//! header, which belong to the record before them. Invalid UTF-8 is replaced, not fatal.

use crate::model::log_records::Appender;
use crate::model::{
    CvoLog, PartialTime, Provenance, RecordTime, RecordsBuilder, TimeCode, parse_rfc3339,
};
use crate::vocab::wants::LogFile;
use std::io::BufRead;

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

/// The two ASCII digits at `b[i..i + 2]` as a number, `None` when either is not one (stamps
/// are read on every line: fixed widths, no loop).
fn two_digits(b: &[u8], i: usize) -> Option<u32> {
    let (hi, lo) = (*b.get(i)?, *b.get(i + 1)?);
    (hi.is_ascii_digit() && lo.is_ascii_digit())
        .then(|| u32::from(hi - b'0') * 10 + u32::from(lo - b'0'))
}

/// What a fraction of a second of so many digits is multiplied by to make nanoseconds.
const SCALE: [u32; 10] = [
    1_000_000_000,
    100_000_000,
    10_000_000,
    1_000_000,
    100_000,
    10_000,
    1_000,
    100,
    10,
    1,
];

/// A byte in each of a word's eight bytes.
const ONES: u64 = 0x0101_0101_0101_0101;

/// Eight bytes read little-endian (the first byte lowest) with each digit's byte made its
/// value 0-9, and how many digits lead.
fn digit_word(word: u64) -> (u64, usize) {
    // Any byte that is not a digit becomes 10 or more.
    let t = word ^ (ONES * u64::from(b'0'));
    // The high bit of each byte that is not a digit. A carry out of a byte only reaches
    // bytes after it, and the bytes before the first one that is not a digit carry nothing:
    // so that first one is marked right, and it is the only one counted.
    let marks = (t.wrapping_add(ONES * 0x76) | t) & (ONES * 0x80);
    (t, (marks.trailing_zeros() / 8) as usize)
}

/// How many ASCII digits `b` starts with.
fn digits(b: &[u8]) -> usize {
    let mut n = 0;
    while let Some(word) = b[n..].first_chunk::<8>() {
        let (_, d) = digit_word(u64::from_le_bytes(*word));
        n += d;
        if d < 8 {
            return n;
        }
    }
    n + b[n..].iter().take_while(|c| c.is_ascii_digit()).count()
}

/// How many spaces `b` starts with (a klog header pads its thread id with them).
fn spaces(b: &[u8]) -> usize {
    let mut n = 0;
    while let Some(word) = b[n..].first_chunk::<8>() {
        let t = u64::from_le_bytes(*word) ^ (ONES * u64::from(b' '));
        if t != 0 {
            return n + (t.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + b[n..].iter().take_while(|&&c| c == b' ').count()
}

/// The number the leading ASCII digits of eight bytes (read little-endian, the first byte
/// lowest) make, and how many there are.
fn leading_digits(word: u64) -> (u32, usize) {
    let (t, digits) = digit_word(word);
    if digits == 0 {
        return (0, 0);
    }
    // The digits moved to the top bytes (zeros, leading, below them), then combined in pairs,
    // fours and eights.
    let mut x = t << (8 * (8 - digits));
    x = (x.wrapping_mul(10) + (x >> 8)) & 0x00ff_00ff_00ff_00ff;
    x = (x.wrapping_mul(100) + (x >> 16)) & 0x0000_ffff_0000_ffff;
    x = (x.wrapping_mul(10_000) + (x >> 32)) & 0xffff_ffff;
    (x as u32, digits)
}

/// The nanoseconds the leading ASCII digits of `b` make as a fraction of a second, at most 9
/// of them, and how many digits there are.
///
/// Eight bytes are read as one word when there are eight: every digit of a stamp's fraction
/// is read on every line.
fn fraction(b: &[u8]) -> (u32, usize) {
    let (n, digits) = match b.first_chunk::<8>() {
        Some(word) => match leading_digits(u64::from_le_bytes(*word)) {
            (n, 8) => match b.get(8) {
                Some(&d) if d.is_ascii_digit() => (n * 10 + u32::from(d - b'0'), 9),
                _ => (n, 8),
            },
            short => short,
        },
        None => {
            let (mut n, mut i) = (0u32, 0);
            while i < 9
                && let Some(&d) = b.get(i)
                && d.is_ascii_digit()
            {
                n = n * 10 + u32::from(d - b'0');
                i += 1;
            }
            (n, i)
        }
    };
    (n * SCALE[digits], digits)
}

/// Parses a klog header at the start of `s` (after any prefix was removed).
pub fn parse_header(s: &str) -> Option<KlogHeader<'_>> {
    header(s, &mut None)?.ok()
}

/// Whether `s` starts with a klog header whose timestamp is impossible (month 13, 25:61:61).
pub fn has_invalid_stamp(s: &str) -> bool {
    matches!(header(s, &mut None), Some(Err(())))
}

/// A klog header's `Lmmdd hh:mm:ss.` and its month, day, hour, minute and second.
type KlogSecond = ([u8; 15], [u32; 5]);

/// A klog header at the start of `s`: `None` when there is none, `Err` when it has the
/// header's shape but an impossible timestamp. `recent` is the last possible `Lmmdd
/// hh:mm:ss.` read in full: the same one is not read again.
fn header<'s>(s: &'s str, recent: &mut Option<KlogSecond>) -> Option<Result<KlogHeader<'s>, ()>> {
    let b = s.as_bytes();
    if b.len() < 22 || !matches!(b[0], b'I' | b'W' | b'E' | b'F') {
        return None;
    }
    let head: &[u8; 15] = b[..15].try_into().ok()?;
    let [month, day, h, m, sec] = match recent {
        Some((k, v)) if k == head => *v,
        _ => {
            let month = two_digits(b, 1)?;
            let day = two_digits(b, 3)?;
            if b[5] != b' ' || b[8] != b':' || b[11] != b':' || b[14] != b'.' {
                return None;
            }
            let v = [
                month,
                day,
                two_digits(b, 6)?,
                two_digits(b, 9)?,
                two_digits(b, 12)?,
            ];
            // Whether a stamp is possible does not depend on its fraction.
            if PartialTime::new(v[0], v[1], v[2], v[3], v[4], 0).is_some() {
                *recent = Some((*head, v));
            }
            v
        }
    };
    // The fraction: its first 9 digits make the nanoseconds, any more are passed over.
    let (nanos, frac_digits) = fraction(&b[15..]);
    if frac_digits == 0 {
        return None;
    }
    let mut i = 15 + frac_digits;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    // Thread id: spaces then digits, then one space.
    let pad = spaces(&b[i..]);
    if pad == 0 {
        return None;
    }
    let tid = i + pad;
    let tid_digits = digits(&b[tid..]);
    if tid_digits == 0 || tid + tid_digits == b.len() || b[tid + tid_digits] != b' ' {
        return None;
    }
    let after = &s[tid + tid_digits + 1..];
    // The first `] `, else a `]` that ends the line.
    let a = after.as_bytes();
    let close = memchr::memchr_iter(b']', a)
        .find(|&i| a.get(i + 1) == Some(&b' '))
        .or_else(|| after.ends_with(']').then(|| after.len() - 1))?;
    let location = &after[..close];
    let message = after.get(close + 2..).unwrap_or("");
    let Some(stamp) = PartialTime::new(month, day, h, m, sec, nanos) else {
        return Some(Err(()));
    };
    Some(Ok(KlogHeader {
        level: b[0] as char,
        stamp,
        location,
        message,
    }))
}

/// What the lines before left to reuse: a log writes hundreds of lines a second, whose stamps
/// differ in their fraction alone.
#[derive(Default)]
struct Recent {
    /// The last `YYYY-MM-DD` read and its day number since the Unix epoch.
    day: Option<([u8; 10], i64)>,
    /// The last `YYYY-MM-DDTHH:MM:SS.` read in full at the start of a time prefix, and its
    /// seconds since the Unix epoch.
    second: Option<([u8; 20], i64)>,
    /// The last possible klog `Lmmdd hh:mm:ss.` read in full.
    klog: Option<KlogSecond>,
}

/// Parses the common `YYYY-MM-DDTHH:MM:SS[.fraction]Z` form quickly, as nanoseconds since the
/// Unix epoch, from its digits (no calendar type per line); anything else (offsets, odd
/// widths) goes through the general RFC3339 parser. `recent` holds the day and second of the
/// lines before.
fn fast_utc_in(s: &str, recent: &mut Recent) -> Option<TimeCode> {
    let b = s.as_bytes();
    if b.len() < 20
        || b[b.len() - 1] != b'Z'
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return parse_rfc3339(s).map(TimeCode::absolute);
    }
    let (h, mi, se) = (two_digits(b, 11)?, two_digits(b, 14)?, two_digits(b, 17)?);
    let mut nanos = 0u32;
    if b[19] == b'.' {
        let frac = &b[20..b.len() - 1];
        let (n, digits) = fraction(frac);
        if digits == 0 || digits != frac.len() {
            return parse_rfc3339(s).map(TimeCode::absolute);
        }
        nanos = n;
    } else if b.len() != 20 {
        return parse_rfc3339(s).map(TimeCode::absolute);
    }
    if h > 23 || mi > 59 || se > 60 {
        return None;
    }
    if se == 60 {
        // A leap second: the general parser's reading of it.
        return parse_rfc3339(s).map(TimeCode::absolute);
    }
    let ymd = &b[..10];
    let day = match recent.day {
        Some((d, day)) if d == ymd => day,
        _ => {
            let y = two_digits(b, 0)? * 100 + two_digits(b, 2)?;
            let date =
                chrono::NaiveDate::from_ymd_opt(y as i32, two_digits(b, 5)?, two_digits(b, 8)?)?;
            // 719 163 days from 1 January of year 1 to 1 January 1970.
            let day = i64::from(chrono::Datelike::num_days_from_ce(&date)) - 719_163;
            recent.day = Some((ymd.try_into().ok()?, day));
            day
        }
    };
    let secs = day * 86_400 + i64::from(h * 3600 + mi * 60 + se);
    if b[19] == b'.' {
        recent.second = Some((b[..20].try_into().ok()?, secs));
    }
    Some(TimeCode::unix_nanos(
        i128::from(secs) * 1_000_000_000 + i128::from(nanos),
    ))
}

/// Splits an RFC3339 prefix (`oc logs --timestamps` / CRI) off a line, with an optional
/// CRI `stdout F ` stream tag after it.
pub fn split_time_prefix(line: &str) -> (Option<crate::model::Time>, &str) {
    let (t, rest) = split_time_prefix_in(line, &mut Recent::default());
    (t.and_then(TimeCode::time), rest)
}

/// [`split_time_prefix`] for one line of many, with the day of the lines before.
/// As a record's time code.
fn split_time_prefix_in<'l>(line: &'l str, recent: &mut Recent) -> (Option<TimeCode>, &'l str) {
    let b = line.as_bytes();
    let (t, sp) = match same_second(b, recent) {
        Some(hit) => hit,
        None => {
            if !(b.len() > 20 && b[0].is_ascii_digit() && b[4] == b'-' && b[10] == b'T') {
                return (None, line);
            }
            let Some(sp) = memchr::memchr(b' ', b) else {
                return (None, line);
            };
            let Some(t) = fast_utc_in(&line[..sp], recent) else {
                return (None, line);
            };
            (t, sp)
        }
    };
    let mut rest = &line[sp + 1..];
    if rest.starts_with("std") {
        for tag in ["stdout F ", "stderr F ", "stdout P ", "stderr P "] {
            if let Some(r) = rest.strip_prefix(tag) {
                rest = r;
                break;
            }
        }
    }
    (Some(t), rest)
}

/// A time prefix in the second of the last one read in full: that `YYYY-MM-DDTHH:MM:SS.`, 1
/// to 9 digits, `Z` and a space. Its time and where the space is, as reading it in full gives
/// them (no space comes earlier: the rest are digits and separators).
#[inline]
fn same_second(b: &[u8], recent: &Recent) -> Option<(TimeCode, usize)> {
    let (key, secs) = recent.second.as_ref()?;
    let head: &[u8; 20] = b.get(..20)?.try_into().ok()?;
    if head != key {
        return None;
    }
    let (n, digits) = fraction(&b[20..]);
    if digits == 0 || b.get(20 + digits) != Some(&b'Z') || b.get(21 + digits) != Some(&b' ') {
        return None;
    }
    let nanos = i128::from(*secs) * 1_000_000_000 + i128::from(n);
    Some((TimeCode::unix_nanos(nanos), 21 + digits))
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
/// The stream is read in blocks of [`BLOCK_BYTES`] cut at line boundaries; with more than one
/// thread each block is parsed on the pool while the next is read (at most a few blocks in
/// flight), and each parsed block is joined to the log as soon as those before it are, so
/// memory is bounded by the blocks in flight and the compact records, never the file. The
/// result is the same as a line-by-line parse.
pub fn parse_cvo_log_stream(
    r: &mut dyn BufRead,
    prov: Provenance,
    pod: String,
    file: LogFile,
) -> (CvoLog, Option<String>) {
    let s = if rayon::current_num_threads() > 1 {
        parse_blocks(r, BLOCK_BYTES)
    } else {
        let mut s = Stitch::default();
        s.add(parse_chunk(r, 0, false));
        s
    };
    finish(s, prov, pod, file)
}

/// Parses a CVO log held in memory in blocks of `block_bytes` on the current pool, as
/// [`parse_cvo_log_stream`] does with [`BLOCK_BYTES`]: a log of many segments, for tests of
/// what reads them.
#[cfg(test)]
pub(crate) fn parse_cvo_log_in_blocks(
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

/// How many blocks of one log may be read and not yet joined (parsed or not) before the
/// reader stops reading and helps parse them (at least; two per thread with more threads).
const MAX_BLOCKS_IN_FLIGHT: usize = 4;

/// Reads `r` in line-aligned blocks, parses them on the pool and joins them in order.
///
/// A block is joined by the thread that parsed it, or one that parsed a later block, as soon
/// as the blocks before it are: never by the reader unless it parsed one (helping the pool
/// while too many blocks are in flight). The reader is often an archive's decompressor, the
/// one part that cannot be shared, and joining a log of many distinct messages (each looked
/// up in the log's table) took it a third of its time while the other thread waited.
fn parse_blocks(r: &mut dyn BufRead, block_bytes: usize) -> Stitch {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Mutex, TryLockError};
    // Enough blocks that every thread has one to parse while the reader (often an archive's
    // decompressor) reads the next: 16 MiB with two threads and the default block size.
    let in_flight_max = (rayon::current_num_threads() * 2).max(MAX_BLOCKS_IN_FLIGHT);
    let done: Mutex<std::collections::BTreeMap<usize, Chunk>> = Mutex::default();
    let most_waiting = AtomicUsize::new(0);
    // Parsed blocks' buffers, reused for the next blocks read (no fresh pages per block).
    let free: Mutex<Vec<Vec<u8>>> = Mutex::default();
    // The log so far and the next block to join; `joined` mirrors that index.
    let joiner: Mutex<(Stitch, usize)> = Mutex::new((Stitch::default(), 0));
    let joined = AtomicUsize::new(0);
    // Joins every parsed block whose predecessors are joined, unless another thread is
    // joining: that one looks again after letting go, so a block parsed meanwhile is not
    // left waiting.
    let drain = || {
        loop {
            let mut j = match joiner.try_lock() {
                Ok(j) => j,
                Err(TryLockError::Poisoned(p)) => p.into_inner(),
                Err(TryLockError::WouldBlock) => return,
            };
            let (stitch, next) = &mut *j;
            loop {
                let c = done
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .remove(&*next);
                let Some(c) = c else { break };
                stitch.add(c);
                *next += 1;
                joined.store(*next, Ordering::Release);
            }
            drop(j);
            let next = joined.load(Ordering::Acquire);
            if !done
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .contains_key(&next)
            {
                return;
            }
        }
    };
    let mut tail: Option<Chunk> = None;
    // On this thread (the reader need not be `Send`); the blocks go to the pool.
    rayon::in_place_scope(|s| {
        let mut offset_base = 0u64;
        let mut carry: Vec<u8> = Vec::new();
        let mut index = 0usize;
        loop {
            let mut block = free
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .pop()
                .unwrap_or_default();
            block.clear();
            block.append(&mut carry);
            let read_error = fill_block(r, &mut block, block_bytes);
            let at_end = read_error.is_some() || block.len() < block_bytes;
            let cut = if at_end {
                block.len()
            } else {
                match memchr::memrchr(b'\n', &block) {
                    Some(i) => i + 1,
                    None => {
                        // A line longer than a block: the rest is parsed line by line.
                        let mut rest = std::io::Read::chain(std::io::Cursor::new(block), &mut *r);
                        let mut c = parse_chunk(&mut rest, offset_base, index > 0);
                        c.read_error = c.read_error.or(read_error);
                        tail = Some(c);
                        break;
                    }
                }
            };
            carry = block.split_off(cut);
            // Lines are numbered from the block's start; the join adds the lines before.
            let (ob, first) = (offset_base, index == 0);
            offset_base += block.len() as u64;
            if block.is_empty() && !first {
                if read_error.is_some() {
                    tail = Some(Chunk::empty(offset_base, read_error));
                }
                break;
            }
            // Bounded by the blocks not joined yet, parsed or not: a block parsed ahead of one
            // still waiting (in this thread's queue, or behind another file's long job on the
            // other thread) waits to be joined, so counting only the blocks being parsed let
            // parsed blocks pile up. Wait, helping the pool, while too many are.
            super::help_pool_while(|| index - joined.load(Ordering::Acquire) >= in_flight_max);
            let (done, free, most_waiting, drain) = (&done, &free, &most_waiting, &drain);
            let i = index;
            s.spawn(move |_| {
                let mut c = parse_block(&block, ob, !first);
                c.read_error = c.read_error.or(read_error);
                free.lock().unwrap_or_else(|p| p.into_inner()).push(block);
                {
                    let mut waiting = done.lock().unwrap_or_else(|p| p.into_inner());
                    waiting.insert(i, c);
                    most_waiting.fetch_max(waiting.len(), Ordering::Relaxed);
                }
                drain();
            });
            index += 1;
            if at_end {
                break;
            }
        }
    });
    // Every block is parsed and has been offered to the join.
    drain();
    debug_assert!(
        done.lock().is_ok_and(|d| d.is_empty()),
        "a parsed block was not joined"
    );
    let (mut stitch, _) = joiner.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(t) = tail {
        stitch.add(t);
    }
    stitch.most_waiting = most_waiting.into_inner();
    stitch
}

/// Appends up to `want` bytes from `r` to `block` (which may hold a carried-over start).
/// Returns the read error that ended the stream, if one did.
///
/// Read with `read_to_end`, not through `fill_buf`: a buffered reader with nothing buffered
/// reads a request larger than its buffer straight into `block`, so a file's bytes are copied
/// once (from the page cache), not twice.
fn fill_block(r: &mut dyn BufRead, block: &mut Vec<u8>, want: usize) -> Option<String> {
    let need = want.saturating_sub(block.len());
    block.reserve(need);
    let mut limited = std::io::Read::take(r, need as u64);
    std::io::Read::read_to_end(&mut limited, block)
        .err()
        .map(|e| crate::source::sniff::describe_io(&e))
}

/// What parsing one block (or a whole log) gave, its lines numbered from its own start.
struct Chunk {
    records: RecordsBuilder,
    /// Continuation lines before the first header (only collected for chunks after the
    /// first), as many as can still reach the record before the chunk: once they add up to
    /// [`MAX_LINE_BYTES`] that record's message cannot take more ([`RecordsBuilder::continue_message`]),
    /// and the rest are only counted (`leading_more`: those that are not blank). A block of a
    /// log with no klog line is all leading lines.
    leading: Vec<String>,
    /// The bytes the kept leading lines would add to a message (each with its newline).
    leading_bytes: usize,
    /// Leading lines past those kept that are not blank.
    leading_more: u64,
    unparsed: u64,
    lines: u64,
    end_offset: u64,
    invalid_utf8_line: Option<u64>,
    long_line: Option<u64>,
    read_error: Option<String>,
    /// Lines with a klog header whose timestamp is impossible, and the first of them.
    bad_stamps: u64,
    first_bad_stamp: Option<u64>,
    /// Lines read as repeats of a line before ([`LineParser::repeated`]).
    #[cfg(test)]
    repeats: u64,
}

impl Chunk {
    /// Nothing read, `offset` bytes in, ended by `read_error`.
    fn empty(offset: u64, read_error: Option<String>) -> Self {
        Chunk {
            records: RecordsBuilder::default(),
            leading: Vec::new(),
            leading_bytes: 0,
            leading_more: 0,
            unparsed: 0,
            lines: 0,
            end_offset: offset,
            invalid_utf8_line: None,
            long_line: None,
            read_error,
            bad_stamps: 0,
            first_bad_stamp: None,
            #[cfg(test)]
            repeats: 0,
        }
    }
}

/// Parses lines read from `r` (a whole log, or a block that is not valid UTF-8), numbering
/// them from 1.
fn parse_chunk(r: &mut dyn BufRead, offset_base: u64, collect_leading: bool) -> Chunk {
    let mut p = LineParser::new(offset_base, collect_leading);
    let mut buf = Vec::with_capacity(512);
    loop {
        let n = match read_line_capped(r, &mut buf, MAX_LINE_BYTES) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => {
                p.c.read_error = Some(crate::source::sniff::describe_io(&e));
                break;
            }
        };
        p.line(&buf, None, n);
    }
    p.finish()
}

/// Parses a block held in memory: the same as [`parse_chunk`] over it, but its lines are
/// read in place rather than copied, and a line that repeats a line before it (the bulk of
/// a reconcile pass) is read as such ([`LineParser::repeated`]): neither its header nor its
/// UTF-8 is checked again. The other lines' UTF-8 is checked a stretch of lines at a time
/// ([`Checked`]), not line by line.
fn parse_block(block: &[u8], offset_base: u64, collect_leading: bool) -> Chunk {
    let mut p = LineParser::new(offset_base, collect_leading);
    p.heads = Some(Heads::default());
    let mut checked = Checked::default();
    let mut start = 0;
    while start < block.len() {
        if let Some(n) = p.repeated(&block[start..]) {
            start += n;
            continue;
        }
        let (end, n) = match memchr::memchr(b'\n', &block[start..]) {
            Some(i) => (start + i, i + 1),
            None => (block.len(), block.len() - start),
        };
        // As read_line_capped keeps it: at most MAX_LINE_BYTES of the line.
        let kept = end.min(start + MAX_LINE_BYTES);
        let text = checked.text(block, start, kept);
        p.line(&block[start..kept], text, n);
        start += n;
    }
    p.finish()
}

/// A stretch of a block's lines known to be valid UTF-8, as text.
#[derive(Default)]
struct Checked<'b> {
    start: usize,
    text: &'b str,
    /// How far the next stretch reaches past the line that starts it.
    reach: usize,
}

/// How far a stretch checked for UTF-8 reaches at first, and at most: a line read in full
/// among repeated ones is checked about alone, and a block of lines read in full in stretches
/// that double up to 64 KiB (as fast as checking the whole block at once).
const CHECKED_FIRST: usize = 256;
const CHECKED_MAX: usize = 64 << 10;

impl<'b> Checked<'b> {
    /// `block[start..end]` (a line, `start` where one starts) as text, when it is valid
    /// UTF-8. A line past the stretch checked starts a new one, which ends where a line
    /// does (a newline is never inside a character) or at the first invalid byte.
    fn text(&mut self, block: &'b [u8], start: usize, end: usize) -> Option<&'b str> {
        let within = |c: &Self| start >= c.start && end <= c.start + c.text.len();
        if !within(self) {
            // Right after the stretch before: the lines are read in full one after another.
            self.reach = match start == self.start + self.text.len() {
                true => (self.reach * 2).clamp(CHECKED_FIRST, CHECKED_MAX),
                false => CHECKED_FIRST,
            };
            let stop = (end + self.reach).min(block.len());
            let stop = match memchr::memrchr(b'\n', &block[end..stop]) {
                Some(i) => end + i + 1,
                None => stop,
            };
            let bytes = &block[start..stop];
            self.start = start;
            self.text = match std::str::from_utf8(bytes) {
                Ok(t) => t,
                Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default(),
            };
            if !within(self) {
                return None;
            }
        }
        self.text.get(start - self.start..end - self.start)
    }
}

/// The state of parsing one chunk's lines in order.
struct LineParser {
    c: Chunk,
    offset: u64,
    collect_leading: bool,
    /// After a header with an impossible timestamp, until the next good header.
    in_bad: bool,
    recent: Recent,
    /// The heads of the messages read, when lines that repeat one are read as such (a
    /// block read in place; the line-by-line reference reads every header).
    heads: Option<Heads>,
}

/// The bytes each message's header had between its klog stamp and the message (`       1
/// sync_worker.go:752] `), by message id, as last read whole.
///
/// A reconcile pass logs the lines of the pass before again, with new times: a line whose
/// message is the one predicted ([`RecordsBuilder::predicted`]) and whose bytes after its
/// stamps are that message's head, its text and a newline parses as the line it repeats did,
/// so its header is not read again ([`LineParser::repeated`]).
#[derive(Default)]
struct Heads {
    bytes: Vec<u8>,
    /// By message id: where its head is in `bytes` and how long it is.
    at: Vec<Option<(u32, u32)>>,
}

/// The most head bytes kept for one block: past them a message's head is not updated (its
/// lines are then read in full). A block of 4 MiB of steady passes holds a few thousand
/// messages' heads of about 30 bytes.
const HEADS_MAX_BYTES: usize = 256 << 10;

impl Heads {
    fn get(&self, id: u32) -> Option<&[u8]> {
        let (at, len) = (*self.at.get(id as usize)?)?;
        self.bytes.get(at as usize..at as usize + len as usize)
    }

    /// Keeps `head` as message `id`'s.
    fn note(&mut self, id: u32, head: &[u8]) {
        if self.get(id) == Some(head) || self.bytes.len() + head.len() > HEADS_MAX_BYTES {
            return;
        }
        let i = id as usize;
        if self.at.len() <= i {
            self.at.resize(i + 1, None);
        }
        self.at[i] = Some((self.bytes.len() as u32, head.len() as u32));
        self.bytes.extend_from_slice(head);
    }
}

impl LineParser {
    fn new(offset_base: u64, collect_leading: bool) -> Self {
        LineParser {
            c: Chunk::empty(offset_base, None),
            offset: offset_base,
            collect_leading,
            in_bad: false,
            recent: Recent::default(),
            heads: None,
        }
    }

    /// Reads the line at the start of `b` (the rest of a block) when it repeats the
    /// predicted message's head and text after stamps in the seconds of the last ones read
    /// (see [`Heads`]): what [`LineParser::line`] does with it, without reading its header
    /// or checking its UTF-8 (its bytes are those of text read before). The bytes it had with
    /// its newline; `None` when it must be read in full.
    fn repeated(&mut self, b: &[u8]) -> Option<usize> {
        let id = self.c.records.predicted()?;
        let head = self.heads.as_ref()?.get(id)?;
        let message = self.c.records.message(id)?.as_bytes();
        // The time prefix, as `split_time_prefix_in` reads one in a second read before; a
        // line that starts with a level has none.
        let (abs, at) = match b.first() {
            Some(b'I' | b'W' | b'E' | b'F') => (None, 0),
            _ => {
                let (t, space) = same_second(b, &self.recent)?;
                (Some(t), space + 1)
            }
        };
        // The klog stamp, as `header` reads one in a second read before.
        let rest = b.get(at..)?;
        let (second, v) = self.recent.klog.as_ref()?;
        if rest.get(..15)? != second.as_slice() {
            return None;
        }
        let stamp = 15 + digits(&rest[15..]);
        // Then the head, the message and the newline, byte for byte.
        let tail = &rest[stamp..];
        let body = head.len() + message.len();
        if stamp == 15
            || tail.get(..head.len())? != head
            || tail.get(head.len()..body)? != message
            || tail.get(body) != Some(&b'\n')
        {
            return None;
        }
        // `header` reads no shorter line, and a longer one is cut.
        let n = at + stamp + body + 1;
        if stamp + body < 22 || n > MAX_LINE_BYTES + 1 {
            return None;
        }
        let level = char::from(rest[0]);
        let time = match abs {
            Some(t) => t,
            None => {
                let (nanos, _) = fraction(&rest[15..]);
                RecordTime::Partial(PartialTime::new(v[0], v[1], v[2], v[3], v[4], nanos)?).into()
            }
        };
        let line_start = self.offset;
        self.offset += n as u64;
        self.c.lines += 1;
        self.in_bad = false;
        let lineno = self.c.lines.min(u64::from(u32::MAX)) as u32;
        self.c
            .records
            .push_known(time, level, id, lineno, line_start, n as u32);
        #[cfg(test)]
        {
            self.c.repeats += 1;
        }
        Some(n)
    }

    /// One line: `kept` is what was kept of it (without the newline; `text` is the same
    /// when known to be valid UTF-8), `n` the bytes it had with its newline.
    fn line(&mut self, kept: &[u8], text: Option<&str>, n: usize) {
        // Not cut short: all of it but its newline was kept.
        let whole = kept.len() + 1 >= n;
        let c = &mut self.c;
        let line_start = self.offset;
        self.offset += n as u64;
        c.lines += 1;
        let lineno = c.lines;
        if n > MAX_LINE_BYTES + 1 {
            c.long_line.get_or_insert(lineno);
        }
        let text = match text {
            Some(t) => std::borrow::Cow::Borrowed(t.strip_suffix('\r').unwrap_or(t)),
            None => {
                let raw = kept.strip_suffix(b"\r").unwrap_or(kept);
                match std::str::from_utf8(raw) {
                    Ok(t) => std::borrow::Cow::Borrowed(t),
                    Err(_) => {
                        c.invalid_utf8_line.get_or_insert(lineno);
                        String::from_utf8_lossy(raw)
                    }
                }
            }
        };
        // A line read whole and valid: its head can be matched byte for byte.
        let whole = whole && matches!(text, std::borrow::Cow::Borrowed(_));
        let (abs, rest) = split_time_prefix_in(&text, &mut self.recent);
        let parsed = header(rest, &mut self.recent.klog);
        if let Some(Ok(h)) = parsed {
            self.in_bad = false;
            let time = match abs {
                Some(t) => t,
                None => RecordTime::Partial(h.stamp).into(),
            };
            let known = c.records.message_count();
            c.records.push(
                time,
                h.level,
                h.message,
                lineno.min(u32::MAX as u64) as u32,
                line_start,
                n.min(u32::MAX as usize) as u32,
            );
            // A message read before (a log whose messages are all new has nothing to
            // repeat): the bytes between the stamp (its fraction and any digits after it)
            // and the message, the end of the line, are its head.
            if let Some(heads) = self.heads.as_mut().filter(|_| whole)
                && let Some(id) = c.records.open_id().filter(|&id| (id as usize) < known)
            {
                let b = rest.as_bytes();
                let stamp = 15 + digits(&b[15..]);
                heads.note(id, &b[stamp..b.len() - h.message.len()]);
            }
        } else if parsed.is_some() {
            // Not a continuation of the record before: a record that cannot be placed (its
            // own continuation lines go with it).
            c.bad_stamps += 1;
            c.first_bad_stamp.get_or_insert(lineno);
            self.in_bad = true;
        } else if self.in_bad {
        } else if c.records.has_open() {
            // Continuations of one record are bounded too.
            c.records.continue_message(rest, MAX_LINE_BYTES);
            c.records.extend_open_to(self.offset);
        } else if self.collect_leading {
            if c.leading_bytes < MAX_LINE_BYTES {
                if !rest.is_empty() {
                    c.leading_bytes += rest.len() + 1;
                }
                c.leading.push(rest.to_string());
            } else if !rest.trim().is_empty() {
                c.leading_more += 1;
            }
        } else if !rest.trim().is_empty() {
            c.unparsed += 1;
        }
    }

    fn finish(mut self) -> Chunk {
        self.c.end_offset = self.offset;
        self.c
    }
}

/// A log joined from its chunks in order.
#[derive(Default)]
struct Stitch {
    /// The records of the chunks before the last one with records.
    done: Appender,
    /// That last chunk's records, and the lines before that chunk: its last record is still
    /// open (the next chunk's leading continuation lines belong to it).
    pending: Option<(RecordsBuilder, u32)>,
    chunks: usize,
    unparsed: u64,
    lines: u64,
    bytes: u64,
    invalid_utf8_line: Option<u64>,
    long_line: Option<u64>,
    read_error: Option<String>,
    bad_stamps: u64,
    first_bad_stamp: Option<u64>,
    /// The most parsed blocks that waited at once to be joined (what bounds the memory of
    /// a log parsed in parallel).
    most_waiting: usize,
}

impl Stitch {
    /// Joins the next chunk, whose lines are numbered from its own start: its leading
    /// continuation lines go to the last record so far, which then runs to the chunk's first
    /// record.
    fn add(&mut self, c: Chunk) {
        self.chunks += 1;
        for rest in &c.leading {
            match self.pending.as_mut().filter(|(r, _)| r.has_open()) {
                Some((r, _)) => r.continue_message(rest, MAX_LINE_BYTES),
                None if !rest.trim().is_empty() => self.unparsed += 1,
                None => {}
            }
        }
        // The lines past those kept: beyond what the open record's message can take, or
        // lines of no record.
        if !self.pending.as_ref().is_some_and(|(r, _)| r.has_open()) {
            self.unparsed += c.leading_more;
        }
        let base = self.lines;
        if let Some(first) = c.records.first_offset() {
            if let Some((mut p, lines_before)) = self.pending.take() {
                p.extend_open_to(first);
                self.done.push_built(p, lines_before);
            }
            self.pending = Some((c.records, base.min(u64::from(u32::MAX)) as u32));
        }
        let at = |l: Option<u64>| l.map(|l| l + base);
        self.unparsed += c.unparsed;
        self.lines += c.lines;
        self.bytes = self.bytes.max(c.end_offset);
        self.invalid_utf8_line = self.invalid_utf8_line.or(at(c.invalid_utf8_line));
        self.long_line = self.long_line.or(at(c.long_line));
        self.read_error = self.read_error.take().or(c.read_error);
        self.bad_stamps += c.bad_stamps;
        self.first_bad_stamp = self.first_bad_stamp.or(at(c.first_bad_stamp));
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::testing::xorshift;

    fn prov() -> Provenance {
        Provenance::detached("in", "current.log")
    }

    #[test]
    fn header_parses_with_padding_and_file_line() {
        let h = parse_header("I0409 18:26:05.631324       1 sync_worker.go:634] Done syncing for clusteroperator \"service-ca\" (388 of 498)").unwrap();
        assert_eq!(h.level, 'I');
        assert_eq!(h.source_file(), "sync_worker.go");
        assert_eq!(
            h.message,
            "Done syncing for clusteroperator \"service-ca\" (388 of 498)"
        );
        assert_eq!(
            h.stamp,
            PartialTime::new(4, 9, 18, 26, 5, 631_324_000).unwrap()
        );
        assert!(parse_header("Trace[1234]: ---\"Objects listed\" 1000ms").is_none());
        assert!(parse_header("I1399 18:26:05.631324       1 x.go:1] bad month").is_none());
    }

    #[test]
    fn lines_with_an_impossible_timestamp_are_counted_not_glued_on() {
        let log = "I0409 18:26:05.631324       1 sync_worker.go:634] first\n\
I1309 18:26:05.631324       1 sync_worker.go:634] month 13\n\
2021-08-03T09:31:44.000000000Z E0409 25:61:61.000000       1 task.go:81] 25:61:61\n\
  a continuation\n\
I0409 18:26:06.000000       1 sync_worker.go:634] last\n";
        let (l, note) = parse_cvo_log(log.as_bytes(), prov(), "cvo".into(), LogFile::Current);
        assert_eq!(l.records.len(), 2);
        // The continuation belongs to the skipped record, not to the one before it.
        assert_eq!(l.records.iter().next().unwrap().message, "first");
        assert_eq!(
            note.as_deref(),
            Some("2 lines with an invalid timestamp (first at line 2); skipped")
        );
        assert!(has_invalid_stamp(
            "W0232 10:00:00.000000       1 x.go:1] day 32"
        ));
        assert!(!has_invalid_stamp("Trace[1234]: ---"));
    }

    #[test]
    fn cri_prefix_continuations_and_crlf() {
        let log = "2021-08-03T09:31:43.209596123Z I0803 09:31:43.209596       1 sync_worker.go:541] Running sync 4.8.0 (force=false) on generation 1 in state Initializing at attempt 0\r\n\
2021-08-03T09:31:44.000000000Z E0803 09:31:44.000000       1 task.go:81] Multiple errors are preventing progress:\n\
2021-08-03T09:31:44.000000001Z * Cluster operator etcd is degraded\n";
        let (l, note) = parse_cvo_log(log.as_bytes(), prov(), "cvo".into(), LogFile::Current);
        assert!(note.is_none());
        assert_eq!(l.records.len(), 2);
        assert_eq!(
            l.records.iter().next().unwrap().message,
            "Running sync 4.8.0 (force=false) on generation 1 in state Initializing at attempt 0"
        );
        assert!(l.records.iter().next().unwrap().time.is_some());
        assert_eq!(
            l.records.iter().nth(1).unwrap().message,
            "Multiple errors are preventing progress:\n* Cluster operator etcd is degraded"
        );
        assert_eq!(l.records.iter().nth(1).unwrap().line, 2);
        assert_eq!(l.lines, 3);
    }

    #[test]
    fn invalid_utf8_is_replaced_and_reported() {
        let mut data = b"I0409 18:26:05.631324       1 a.go:1] ok\n".to_vec();
        data.extend_from_slice(b"I0409 18:26:06.000000       1 a.go:1] bad \xff\xfe bytes\n");
        let (l, note) = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current);
        assert_eq!(l.records.len(), 2);
        assert!(
            l.records
                .iter()
                .nth(1)
                .unwrap()
                .message
                .contains('\u{fffd}')
        );
        assert_eq!(
            note.as_deref(),
            Some("invalid UTF-8 from line 2 on (replaced with U+FFFD)")
        );
    }

    #[test]
    fn year_boundary_resolution() {
        let data = b"I1231 23:59:59.500000       1 a.go:1] last of year\nI0101 00:00:00.250000       1 a.go:1] first of year\n";
        let (mut l, _) = parse_cvo_log(data, prov(), "cvo".into(), LogFile::Current);
        let yi =
            crate::model::YearInference::new(crate::model::parse_rfc3339("2021-01-01T01:00:00Z"));
        resolve_times(&mut l, &yi);
        let t0 = l.records.iter().next().unwrap().time.unwrap();
        let t1 = l.records.iter().nth(1).unwrap().time.unwrap();
        assert_eq!(crate::model::fmt_k8s(&t0), "2020-12-31T23:59:59Z");
        assert_eq!(crate::model::fmt_k8s(&t1), "2021-01-01T00:00:00Z");
        assert!(t0 < t1);
    }

    #[test]
    fn fast_utc_agrees_with_rfc3339() {
        let cases = [
            "2021-08-03T09:31:43.209596123Z",
            "2021-08-03T09:31:43Z",
            "2020-04-09T18:26:05.6Z",
            "2021-08-03T09:31:43+02:00",
            "2021-02-30T00:00:00Z",
            "2021-08-03T09:31:43.Z",
            "2021-08-03T23:59:59.999999999Z",
            "2021-08-04T00:00:00.000000001Z",
            "2021-08-04T00:00:00.1234567891Z",
            "2021-08-0xT00:00:00Z",
            "2021-08-04T24:00:00Z",
            "2016-12-31T23:59:60Z",
            "2021-08-04T23:60:00Z",
            "1969-12-31T23:59:59.5Z",
            "0001-01-01T00:00:00.000000001Z",
            "2020-02-29T12:00:00Z",
            "2021-02-29T12:00:00Z",
            "2400-02-29T12:00:00.25Z",
        ];
        for s in cases {
            assert_eq!(
                fast_utc_in(s, &mut Recent::default()),
                parse_rfc3339(s).map(TimeCode::absolute),
                "{s}"
            );
        }
        // One day cache across lines, as a log is read: the same answers in any order.
        let mut recent = Recent::default();
        for s in cases.iter().chain(cases.iter().rev()).chain(&cases) {
            assert_eq!(
                fast_utc_in(s, &mut recent),
                parse_rfc3339(s).map(TimeCode::absolute),
                "{s}"
            );
        }
    }

    #[test]
    fn over_long_line_is_cut_and_reported() {
        let mut data = b"I0409 18:26:05.631324       1 a.go:1] ".to_vec();
        data.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
        data.extend_from_slice(b"\nI0409 18:26:06.000000       1 a.go:1] next\n");
        let (l, note) = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current);
        assert_eq!(l.records.len(), 2);
        assert!(l.records.iter().next().unwrap().message.len() < MAX_LINE_BYTES);
        assert_eq!(l.records.iter().nth(1).unwrap().message, "next");
        assert!(note.unwrap().contains("line 1 is longer than"));
    }

    /// Everything a chunk holds, to compare two parses.
    fn chunk_facts(c: Chunk) -> String {
        let recs: Vec<String> = c
            .records
            .finish()
            .iter()
            .map(|r| {
                format!(
                    "{:?}",
                    (r.line, r.offset, r.len, r.message, r.time, r.level)
                )
            })
            .collect();
        format!(
            "{recs:?} {:?}",
            (
                &c.leading,
                c.leading_more,
                c.unparsed,
                c.lines,
                c.end_offset,
                c.invalid_utf8_line,
                c.long_line,
                c.bad_stamps,
                c.first_bad_stamp
            )
        )
    }

    #[test]
    fn a_block_read_in_place_parses_as_line_by_line() {
        let head = "2021-08-03T09:31:00.5Z I0803 09:31:00.000000       1 a.go:1] ";
        let mut valid = String::new();
        valid.push_str("  a continuation before the first header\n\n");
        valid.push_str(&format!("{head}crlf line\r\n"));
        valid.push_str("I1399 09:31:00.000000       1 a.go:1] impossible stamp\n");
        valid.push_str("  its continuation\n");
        valid.push_str(&format!("{head}multi-byte é ü\n  continued é\r\n"));
        // A line longer than kept, cut inside a two-byte character.
        valid.push_str(head);
        let pad = MAX_LINE_BYTES - head.len() - 1;
        valid.push_str(&"x".repeat(pad));
        valid.push_str("éé tail\n");
        valid.push_str(&format!("{head}last line without a newline"));
        let mut invalid = valid.clone().into_bytes();
        invalid.splice(10..10, [0xff, 0xfe]);
        for (name, data) in [
            ("valid", valid.as_bytes()),
            ("invalid", &invalid[..]),
            (
                "ends in a newline",
                &valid.as_bytes()[..valid.rfind('\n').unwrap() + 1],
            ),
            ("empty", &[][..]),
        ] {
            for leading in [false, true] {
                let by_line = parse_chunk(&mut std::io::Cursor::new(data), 1000, leading);
                let in_place = parse_block(data, 1000, leading);
                assert_eq!(chunk_facts(in_place), chunk_facts(by_line), "{name}");
            }
        }
    }

    /// A log of reconcile passes: most lines repeat a line of the pass before after their
    /// stamps, among lines that break a repeat in one place or another (a head or message
    /// one byte off, a stamp in a new second or with more digits, no time prefix, a stream
    /// tag, CRLF, continuation lines, an impossible stamp, invalid UTF-8, an empty message).
    fn passes_log(seed: u64) -> Vec<u8> {
        let mut r = xorshift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut messages: Vec<String> = (0..40)
            .map(|i| format!("Running sync for configmap \"ns/cm-{i}\" ({i} of 40)"))
            .collect();
        messages.extend(["", "a ] b] c", "é ü multi-byte", "]"].map(String::from));
        let heads = [
            "       1 sync_worker.go:752] ",
            "       1 sync_worker.go:764] ",
            "      12 task.go:81] ",
            " 1 a.go:1] ",
            "       1 a.go:1]",
            "       1 a.go ",
        ];
        let mut out = Vec::new();
        let mut nanos: u64 = 0;
        for _pass in 0..40 {
            for (i, m) in messages.iter().enumerate() {
                nanos += r(100_000_000);
                let (sec, frac) = (nanos / 1_000_000_000, nanos % 1_000_000_000);
                let (mm, ss) = (sec / 60 % 60, sec % 60);
                let prefix = match r(40) {
                    0 => String::new(),
                    1 => format!("2021-08-03T09:{mm:02}:{ss:02}.{:03}Z ", frac / 1_000_000),
                    2 => format!("2021-08-03T09:{mm:02}:{ss:02}.{frac:09}7Z "),
                    3 => format!("2021-08-03T09:{mm:02}:{ss:02}.{frac:09}Z stdout F "),
                    _ => format!("2021-08-03T09:{mm:02}:{ss:02}.{frac:09}Z "),
                };
                let level = match r(40) {
                    0 => "W",
                    1 => "E",
                    _ => "I",
                };
                let kfrac = match r(50) {
                    0 => String::new(),
                    1 => format!("{:09}", frac),
                    _ => format!("{:06}", frac / 1000),
                };
                let head = match r(30) {
                    0 => heads[r(heads.len() as u64) as usize],
                    _ => heads[i % 2],
                };
                let message = match r(40) {
                    0 => format!("{m}x"),
                    1 => m.chars().skip(1).collect(),
                    _ => m.clone(),
                };
                out.extend_from_slice(
                    format!("{prefix}{level}0803 09:{mm:02}:{ss:02}.{kfrac}{head}{message}")
                        .as_bytes(),
                );
                out.extend_from_slice(match r(60) {
                    0 => b"\r\n",
                    _ => b"\n",
                });
                match r(120) {
                    0 => out.extend_from_slice(b"  continued\n"),
                    1 => {
                        out.extend_from_slice(b"I1399 09:31:00.000000       1 a.go:1] impossible\n")
                    }
                    2 => out.extend_from_slice(b"  \xff not UTF-8\n"),
                    3 => out.extend_from_slice(b"\n"),
                    _ => {}
                }
            }
        }
        if r(2) == 0 {
            out.pop();
        }
        out
    }

    #[test]
    fn lines_read_as_repeats_parse_as_when_read_in_full() {
        for seed in 1..=16 {
            let data = passes_log(seed);
            for leading in [false, true] {
                let by_line = parse_chunk(&mut std::io::Cursor::new(&data), 1000, leading);
                let in_place = parse_block(&data, 1000, leading);
                // Most lines are read as repeats (the test reads what it means to), though
                // about one in five breaks one.
                assert!(
                    in_place.repeats * 2 > in_place.lines,
                    "seed {seed}: {} of {} lines read as repeats",
                    in_place.repeats,
                    in_place.lines
                );
                assert_eq!(chunk_facts(in_place), chunk_facts(by_line), "seed {seed}");
            }
        }
        // In blocks on two threads, joined: the ids a block gave its repeats are its own.
        let data = passes_log(99);
        let (seq, _) = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current);
        let stitch = blocks_on_two_threads(&data, 8 << 10);
        assert!(stitch.chunks > 10, "{} chunks", stitch.chunks);
        let (par, _) = finish(stitch, prov(), "cvo".into(), LogFile::Current);
        same_records(&seq, &par, "8 KiB blocks");
    }

    #[test]
    fn runs_of_digits_and_spaces_are_counted_in_any_bytes() {
        let mut rand = xorshift(0x0bad_5eed_cafe_f00du64);
        for len in 0..=20 {
            for run in 0..=len {
                for stop in 0..=255u8 {
                    for (byte, count) in
                        [(None, digits as fn(&[u8]) -> usize), (Some(b' '), spaces)]
                    {
                        let mut b: Vec<u8> = (0..run)
                            .map(|_| byte.unwrap_or(b'0' + rand(10) as u8))
                            .collect();
                        if b.len() < len {
                            b.push(stop);
                        }
                        while b.len() < len {
                            b.push(rand(256) as u8);
                        }
                        let want = match byte {
                            None => b.iter().take_while(|c| c.is_ascii_digit()).count(),
                            Some(s) => b.iter().take_while(|&&c| c == s).count(),
                        };
                        assert_eq!(count(&b), want, "{b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn fraction_reads_the_nanoseconds_of_the_leading_digits_of_any_bytes() {
        let naive = |b: &[u8]| {
            let digits = b.iter().take(9).take_while(|d| d.is_ascii_digit()).count();
            let n = b[..digits]
                .iter()
                .fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
            (n * 10u32.pow(9 - digits as u32), digits)
        };
        let mut rand = xorshift(0x9e37_79b9_7f4a_7c15u64);
        // Every count of leading digits, followed by every byte, then anything.
        for len in 0..=12 {
            for digits in 0..=len.min(10) {
                for stop in 0..=255u8 {
                    let mut b: Vec<u8> = (0..digits).map(|_| b'0' + rand(10) as u8).collect();
                    if b.len() < len {
                        b.push(stop);
                    }
                    while b.len() < len {
                        b.push(rand(256) as u8);
                    }
                    assert_eq!(fraction(&b), naive(&b), "{b:?}");
                }
            }
        }
    }

    /// Lines of one second, of seconds, days and years apart, with fractions of every length,
    /// impossible times and odd shapes, read one after another: each stamp reads as it does
    /// on a line of its own (what the lines before left is only a shortcut).
    #[test]
    fn stamps_read_after_other_lines_read_as_on_their_own() {
        let mut rand = xorshift(0x1234_5678_9abc_def1u64);
        let pick = |r: u64, of: &[&'static str]| of[r as usize % of.len()];
        let digits = |n: u64, r: &mut dyn FnMut(u64) -> u64| -> String {
            (0..n).map(|_| char::from(b'0' + r(10) as u8)).collect()
        };
        let mut shared = Recent::default();
        let (mut day, mut second) = ("2021-06-01", "00:00:00");
        let mut klog = "I0601 00:00:00.";
        for _ in 0..200_000 {
            if rand(50) == 0 {
                day = pick(
                    rand(7),
                    &[
                        "2021-06-01",
                        "2021-06-02",
                        "2020-02-29",
                        "1969-12-31",
                        "2021-02-29",
                        "2021-13-01",
                        "2021-0x-01",
                    ],
                );
            }
            if rand(20) == 0 {
                second = pick(
                    rand(6),
                    &[
                        "00:00:00", "00:00:01", "23:59:59", "23:59:60", "24:00:00", "12:60:00",
                    ],
                );
            }
            if rand(30) == 0 {
                klog = pick(
                    rand(6),
                    &[
                        "I0601 00:00:00.",
                        "E0601 00:00:01.",
                        "I1301 00:00:00.",
                        "W0229 23:59:60.",
                        "I0601 24:00:00.",
                        "I0601 00:00:00:",
                    ],
                );
            }
            let frac = match rand(10) {
                0 => String::new(),
                1 => ".".into(),
                n => format!(".{}", digits(if n < 4 { rand(12) } else { 9 }, &mut rand)),
            };
            let zone = pick(
                rand(12),
                &["Z", "Z", "Z", "Z", "Z", "Z", "Z", "+00:00", "", "z"],
            );
            let gap = pick(
                rand(10),
                &[" ", " ", " ", " ", " ", " ", " ", "", "  ", "\t"],
            );
            let stream = pick(rand(4), &["", "", "stdout F ", "stderr P "]);
            let kfrac = digits(if rand(5) == 0 { rand(12) } else { 6 }, &mut rand);
            let tail = pick(
                rand(6),
                &[
                    "       1 sync_worker.go:752] Running sync",
                    "   1 a.go:1] x",
                    " 1 a.go:1]",
                    "1 a.go:1] no space",
                    "       1 a.go:1 no bracket",
                    "       12 task.go:81] ] twice] ",
                ],
            );
            let line = format!("{day}T{second}{frac}{zone}{gap}{stream}{klog}{kfrac}{tail}");
            let alone = split_time_prefix_in(&line, &mut Recent::default());
            let after = split_time_prefix_in(&line, &mut shared);
            assert_eq!(after, alone, "{line}");
            let rest = alone.1;
            assert_eq!(
                header(rest, &mut shared.klog),
                header(rest, &mut None),
                "{line}"
            );
        }
    }

    #[test]
    fn parallel_parse_matches_sequential() {
        let mut data = Vec::new();
        for i in 0..20_000u32 {
            data.extend_from_slice(format!("2021-08-03T09:31:{:02}.{:09}Z I0803 09:31:{:02}.000000       1 sync_worker.go:541] Running sync for configmap \"ns/cm-{i}\" ({i} of 20000)\n", i % 60, i, i % 60).as_bytes());
            if i % 7 == 0 {
                data.extend_from_slice(
                    format!(
                        "2021-08-03T09:31:{:02}.{:09}Z * continuation {i}\n",
                        i % 60,
                        i
                    )
                    .as_bytes(),
                );
            }
            // Far into the log (past the first blocks): what the note names by its line.
            if i == 15_000 {
                data.extend_from_slice(b"I1399 09:31:00.000000       1 a.go:1] impossible\n");
            }
            if i == 17_000 {
                data.extend_from_slice(b"  \xff not UTF-8\n");
            }
        }
        let (seq, seq_note) = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current);
        let seq_note = seq_note.unwrap();
        assert!(seq_note.contains("(first at line 17145)"), "{seq_note}");
        assert!(seq_note.contains("from line 19432 on"), "{seq_note}");
        // Blocks far smaller than the log, on two threads: many chunk boundaries, some
        // falling just before a continuation line.
        let stitch = blocks_on_two_threads(&data, 64 << 10);
        assert!(stitch.chunks > 20, "{} chunks", stitch.chunks);
        let (par, par_note) = finish(stitch, prov(), "cvo".into(), LogFile::Current);
        assert_eq!(par_note.as_deref(), Some(seq_note.as_str()));
        assert_eq!(
            (seq.lines, seq.bytes, seq.unparsed_lines),
            (par.lines, par.bytes, par.unparsed_lines)
        );
        same_records(&seq, &par, "64 KiB blocks");
    }

    /// Stretches of lines that are not klog lines, longer than a message can grow (a record
    /// followed by 7 MB of them, and a log that starts with them), parsed in blocks of
    /// 1.5 MiB: the same records, the open record's message cut where the line-by-line parse
    /// cuts it, and the same count of lines of no record. A block of such lines keeps only
    /// what can still reach a message.
    #[test]
    fn long_stretches_without_klog_lines_parse_in_blocks_as_line_by_line() {
        let stretch = |data: &mut Vec<u8>, n: usize| {
            for i in 0..n {
                match i % 7 {
                    0 => data.extend_from_slice(b"\n"),
                    1 => data.extend_from_slice(b"   \n"),
                    _ => data.extend_from_slice(
                        format!("{{\"level\":\"info\",\"msg\":\"line {i}\"}}\n").as_bytes(),
                    ),
                }
            }
        };
        let record = |data: &mut Vec<u8>, s: u32| {
            data.extend_from_slice(
                format!("I0601 00:00:{s:02}.000000       1 a.go:1] record {s}\n").as_bytes(),
            )
        };
        // Records first, so that the block the first stretch starts in ends before its
        // record's message is full: the next block's leading lines must fill it.
        let mut after_record = Vec::new();
        for _ in 0..28_000 {
            record(&mut after_record, 0);
        }
        record(&mut after_record, 1);
        stretch(&mut after_record, 300_000);
        record(&mut after_record, 2);
        let mut no_record_first = Vec::new();
        stretch(&mut no_record_first, 300_000);
        record(&mut no_record_first, 3);
        for (what, data) in [
            ("after a record", &after_record),
            ("before any record", &no_record_first),
        ] {
            assert!(data.len() > 6 * MAX_LINE_BYTES, "{what}");
            let (seq, _) = parse_cvo_log(data, prov(), "cvo".into(), LogFile::Current);
            // Blocks larger than a message can grow, as the 4 MiB ones are.
            let stitch = blocks_on_two_threads(data, MAX_LINE_BYTES * 3 / 2);
            assert!(stitch.chunks > 3, "{what}: {} chunks", stitch.chunks);
            let (par, _) = finish(stitch, prov(), "cvo".into(), LogFile::Current);
            assert_eq!(
                (seq.lines, seq.bytes, seq.unparsed_lines),
                (par.lines, par.bytes, par.unparsed_lines),
                "{what}"
            );
            same_records(&seq, &par, what);
        }
        let long = after_record_message(&after_record, 28_000);
        assert!(long.len() >= MAX_LINE_BYTES && long.len() < MAX_LINE_BYTES + 100);
        // One block of such lines, read as a chunk after the first.
        let at = memchr::memmem::find(&after_record, b"] record 1\n").unwrap();
        let block = &after_record[at + 11..];
        assert!(block.len() > 2 * MAX_LINE_BYTES);
        let c = parse_block(block, 0, true);
        let kept: usize = c
            .leading
            .iter()
            .filter(|l| !l.is_empty())
            .map(|l| l.len() + 1)
            .sum();
        assert!(kept < MAX_LINE_BYTES + 100, "{kept} bytes kept");
        assert!(c.leading_more > 10_000, "{} lines counted", c.leading_more);
    }

    /// Record `i`'s message of `data` parsed line by line.
    fn after_record_message(data: &[u8], i: usize) -> String {
        let (log, _) = parse_cvo_log(data, prov(), "cvo".into(), LogFile::Current);
        log.records.iter().nth(i).unwrap().message.to_string()
    }

    /// `data` parsed in blocks of `block_bytes` on a pool of two threads.
    fn blocks_on_two_threads(data: &[u8], block_bytes: usize) -> Stitch {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| parse_blocks(&mut std::io::Cursor::new(data), block_bytes))
    }

    /// Asserts a log parsed in blocks has the records of the log parsed line by line.
    fn same_records(seq: &CvoLog, par: &CvoLog, what: &str) {
        assert_eq!(par.records.len(), seq.records.len(), "{what}");
        for (a, b) in seq.records.iter().zip(par.records.iter()) {
            assert_eq!(
                (a.line, a.offset, a.len, a.message, a.time),
                (b.line, b.offset, b.len, b.message, b.time),
                "{what}"
            );
        }
    }

    /// One thread of two busy with a long job while a log is parsed: the reader parses the
    /// blocks itself, newest first from its own queue, and the blocks it parsed after the
    /// first must wait for it. They are bounded by the blocks not yet joined, not by the
    /// blocks not yet parsed (which let them pile up to dozens).
    #[test]
    fn parsed_blocks_waiting_to_be_joined_stay_bounded_while_the_other_thread_is_busy() {
        let mut data = Vec::new();
        for i in 0..40_000u32 {
            data.extend_from_slice(format!("2021-08-03T09:31:00.{i:09}Z I0803 09:31:00.000000       1 sync_worker.go:541] Running sync for configmap \"ns/cm-{i}\" ({i} of 40000)\n").as_bytes());
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let (stitch, slept) = pool.install(|| {
            let slept = std::sync::atomic::AtomicBool::new(false);
            let stitch = rayon::scope(|s| {
                s.spawn(|_| {
                    std::thread::sleep(std::time::Duration::from_millis(300));
                    slept.store(true, std::sync::atomic::Ordering::Release);
                });
                parse_blocks(&mut std::io::Cursor::new(&data), 16 << 10)
            });
            (stitch, slept.into_inner())
        });
        assert!(slept);
        assert!(stitch.chunks > 100, "{} chunks", stitch.chunks);
        assert!(
            stitch.most_waiting <= MAX_BLOCKS_IN_FLIGHT,
            "{} parsed blocks waited at once",
            stitch.most_waiting
        );
        let par = finish(stitch, prov(), "cvo".into(), LogFile::Current).0;
        let seq = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current).0;
        same_records(&seq, &par, "the other thread busy");
    }

    /// Blocks are joined by whichever thread parsed them (or a later one): with hundreds of
    /// small blocks on four threads, every block is joined, in order, in every round.
    #[test]
    fn blocks_joined_by_the_threads_that_parsed_them_are_all_joined_in_order() {
        let mut data = Vec::new();
        for i in 0..6_000u32 {
            data.extend_from_slice(format!("2021-08-03T09:{:02}:{:02}.{i:09}Z I0803 09:31:00.000000       1 sync_worker.go:541] Done syncing for configmap \"ns/cm-{}\" ({i} of 6000)\n", i / 60 % 60, i % 60, i % 700).as_bytes());
        }
        let seq = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current).0;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        for round in 0..8 {
            let stitch = pool.install(|| parse_blocks(&mut std::io::Cursor::new(&data), 2 << 10));
            assert!(stitch.chunks > 300, "{} chunks", stitch.chunks);
            let par = finish(stitch, prov(), "cvo".into(), LogFile::Current).0;
            same_records(&seq, &par, &format!("round {round}"));
        }
    }

    #[test]
    fn empty_log_has_no_records() {
        let (l, note) = parse_cvo_log(b"", prov(), "cvo".into(), LogFile::Previous);
        assert!(l.records.is_empty() && note.is_none());
        assert_eq!(l.lines, 0);
    }
}
