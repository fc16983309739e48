//! Reading a log in blocks: a stream cut into line-aligned blocks ([`parse_blocks`]), each
//! parsed on the pool ([`parse_block`], its UTF-8 checked a stretch at a time by [`Checked`])
//! into a [`Chunk`], and the chunks stitched back in order ([`Stitch`]).

use super::lines::{Chunk, Heads, LineParser};
use super::{MAX_LINE_BYTES, read_line_capped};
use crate::model::RecordsBuilder;
use crate::model::log_records::{Appender, PartSeed};
use std::io::BufRead;

/// How many blocks of one log may be read and not yet joined (parsed or not) before the
/// reader stops reading and helps parse them (at least; two per thread with more threads).
pub(super) const MAX_BLOCKS_IN_FLIGHT: usize = 4;

/// The room a block buffer is allocated with: more than it holds (a block and the start of
/// the next line carried over, 4 MiB and a little), and more than 32 MiB on purpose.
///
/// glibc maps a block this large on its own, and when one it mapped is freed it raises the
/// size it maps blocks of their own from to that block's size, unless the block was over 32
/// MiB. The blocks of a 4 MiB buffer, freed after the log, raised it to 4.2 MB, and every
/// smaller block allocated afterwards (the timeline's vectors as they double) came from
/// heaps glibc keeps after they are freed: the steady year's peak RSS was 6 MB higher. The
/// room never written is never touched, so it costs address space, not memory.
const BLOCK_RESERVE: usize = 33 << 20;

/// Reads `r` in line-aligned blocks, parses them on the pool and joins them in order.
///
/// A block is joined by the thread that parsed it, or one that parsed a later block, as soon
/// as the blocks before it are: never by the reader unless it parsed one (helping the pool
/// while too many blocks are in flight). The reader is often an archive's decompressor, the
/// one part that cannot be shared, and joining a log of many distinct messages (each looked
/// up in the log's table) took it a third of its time while the other thread waited.
pub(super) fn parse_blocks(r: &mut dyn BufRead, block_bytes: usize) -> Stitch {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Mutex, TryLockError};
    // Enough blocks that every thread has one to parse while the reader (often an archive's
    // decompressor) reads the next: 16 MiB with two threads and the default block size. On
    // one thread, where nothing parses beside the reader, each block as soon as it is read.
    let in_flight_max = match rayon::current_num_threads() {
        1 => 1,
        n => (n * 2).max(MAX_BLOCKS_IN_FLIGHT),
    };
    let done: Mutex<std::collections::BTreeMap<usize, Chunk>> = Mutex::default();
    let most_waiting = AtomicUsize::new(0);
    // Parsed blocks' buffers, reused for the next blocks read (no fresh pages per block).
    let free: Mutex<Vec<Vec<u8>>> = Mutex::default();
    // The log so far and the next block to join; `joined` mirrors that index.
    let joiner: Mutex<(Stitch, usize)> = Mutex::new((Stitch::default(), 0));
    let joined = AtomicUsize::new(0);
    // What the first block ends with, once it is parsed (`None` inside when it is no seed):
    // the blocks read once it is joined start from it, so that their first pass is predicted
    // (see [`RecordsBuilder::seed`]). Those are the blocks from `in_flight_max` on: one is
    // read only when fewer are in flight, so the first has been joined (and its seed set
    // before). The few before it are parsed as they were, without waiting for the first: on
    // a log of distinct messages, whose first block is no seed, that wait held the reader.
    let seed: std::sync::OnceLock<Option<PartSeed>> = std::sync::OnceLock::new();
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
                .unwrap_or_else(|| Vec::with_capacity(BLOCK_RESERVE.max(block_bytes)));
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
            crate::ingest::help_pool_while(|| {
                index - joined.load(Ordering::Acquire) >= in_flight_max
            });
            let (done, free, most_waiting, drain) = (&done, &free, &most_waiting, &drain);
            let seed = &seed;
            let i = index;
            s.spawn(move |_| {
                let from = seed
                    .get()
                    .and_then(Option::as_ref)
                    .filter(|_| i >= in_flight_max);
                let mut c = parse_block(&block, ob, !first, from);
                if first {
                    let _ = seed.set(c.records.seed());
                }
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
pub(super) fn fill_block(r: &mut dyn BufRead, block: &mut Vec<u8>, want: usize) -> Option<String> {
    let need = want.saturating_sub(block.len());
    block.reserve(need);
    let mut limited = std::io::Read::take(r, need as u64);
    std::io::Read::read_to_end(&mut limited, block)
        .err()
        .map(|e| crate::source::sniff::describe_io(&e))
}

/// Parses lines read from `r` (a whole log, or a block that is not valid UTF-8), numbering
/// them from 1.
pub(super) fn parse_chunk(r: &mut dyn BufRead, offset_base: u64, collect_leading: bool) -> Chunk {
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
pub(super) fn parse_block(
    block: &[u8],
    offset_base: u64,
    collect_leading: bool,
    seed: Option<&PartSeed>,
) -> Chunk {
    let mut p = LineParser::new(offset_base, collect_leading);
    if let Some(seed) = seed {
        p.c.records = RecordsBuilder::seeded(seed);
    }
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
pub(super) struct Checked<'b> {
    pub(super) start: usize,
    pub(super) text: &'b str,
    /// How far the next stretch reaches past the line that starts it.
    pub(super) reach: usize,
}

/// How far a stretch checked for UTF-8 reaches at first, and at most: a line read in full
/// among repeated ones is checked about alone, and a block of lines read in full in stretches
/// that double up to 64 KiB (as fast as checking the whole block at once).
pub(super) const CHECKED_FIRST: usize = 256;
pub(super) const CHECKED_MAX: usize = 64 << 10;

impl<'b> Checked<'b> {
    /// `block[start..end]` (a line, `start` where one starts) as text, when it is valid
    /// UTF-8. A line past the stretch checked starts a new one, which ends where a line
    /// does (a newline is never inside a character) or at the first invalid byte.
    pub(super) fn text(&mut self, block: &'b [u8], start: usize, end: usize) -> Option<&'b str> {
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

/// A log joined from its chunks in order.
#[derive(Default)]
pub(super) struct Stitch {
    /// The records of the chunks before the last one with records.
    pub(super) done: Appender,
    /// That last chunk's records, and the lines before that chunk: its last record is still
    /// open (the next chunk's leading continuation lines belong to it).
    pub(super) pending: Option<(RecordsBuilder, u32)>,
    pub(super) chunks: usize,
    pub(super) unparsed: u64,
    pub(super) lines: u64,
    pub(super) bytes: u64,
    pub(super) invalid_utf8_line: Option<u64>,
    pub(super) long_line: Option<u64>,
    pub(super) read_error: Option<String>,
    pub(super) bad_stamps: u64,
    pub(super) first_bad_stamp: Option<u64>,
    /// The most parsed blocks that waited at once to be joined (what bounds the memory of
    /// a log parsed in parallel).
    pub(super) most_waiting: usize,
    /// The chunks so far end skipping lines after a header whose timestamp is impossible, as
    /// the line parser does until the next good header.
    pub(super) in_bad: bool,
}

impl Stitch {
    /// Joins the next chunk, whose lines are numbered from its own start: its leading
    /// continuation lines go to the last record so far, which then runs to their end (the
    /// chunk's first line with a header), as the line parser reads them; after a header whose
    /// timestamp is impossible they are skipped instead, as it skips them.
    pub(super) fn add(&mut self, c: Chunk) {
        self.chunks += 1;
        if !self.in_bad {
            for rest in &c.leading {
                match self.pending.as_mut().filter(|(r, _)| r.has_open()) {
                    Some((r, _)) => r.continue_message(rest, MAX_LINE_BYTES),
                    None if !rest.trim().is_empty() => self.unparsed += 1,
                    None => {}
                }
            }
            // The lines past those kept: beyond what the open record's message can take, or
            // lines of no record.
            match self.pending.as_mut().filter(|(r, _)| r.has_open()) {
                Some((r, _)) => r.extend_open_to(c.leading_end()),
                None => self.unparsed += c.leading_more,
            }
        }
        if c.first_header.is_some() {
            self.in_bad = c.ends_bad;
        }
        let base = self.lines;
        if c.records.first_offset().is_some() {
            if let Some((p, lines_before)) = self.pending.take() {
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
