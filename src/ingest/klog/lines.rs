//! Parsing one chunk's lines in order ([`LineParser`]): headers, continuation lines, bad
//! stamps, and a line that repeats one before (its message predicted, its head as kept in
//! [`Heads`]) read as such without reading its header again.

use super::MAX_LINE_BYTES;
use super::stamps::{Recent, digits, fraction, header, same_second, split_time_prefix_in};
use crate::model::RecordsBuilder;
use crate::model::{PartialTime, RecordTime};

/// The state of parsing one chunk's lines in order.
pub(super) struct LineParser {
    pub(super) c: Chunk,
    pub(super) offset: u64,
    pub(super) collect_leading: bool,
    /// After a header with an impossible timestamp, until the next good header.
    pub(super) in_bad: bool,
    pub(super) recent: Recent,
    /// The heads of the messages read, when lines that repeat one are read as such (a
    /// block read in place; the line-by-line reference reads every header).
    pub(super) heads: Option<Heads>,
}

/// The bytes each message's header had between its klog stamp and the message (`       1
/// sync_worker.go:752] `), by message id, as last read whole.
///
/// A reconcile pass logs the lines of the pass before again, with new times: a line whose
/// message is the one predicted ([`RecordsBuilder::predicted`](crate::model::RecordsBuilder::predicted)) and whose bytes after its
/// stamps are that message's head, its text and a newline parses as the line it repeats did,
/// so its header is not read again ([`LineParser::repeated`]).
#[derive(Default)]
pub(super) struct Heads {
    pub(super) bytes: Vec<u8>,
    /// By message id: where its head is in `bytes` and how long it is.
    pub(super) at: Vec<Option<(u32, u32)>>,
}

/// The most head bytes kept for one block: past them a message's head is not updated (its
/// lines are then read in full). A block of 4 MiB of steady passes holds a few thousand
/// messages' heads of about 30 bytes.
pub(super) const HEADS_MAX_BYTES: usize = 256 << 10;

impl Heads {
    pub(super) fn get(&self, id: u32) -> Option<&[u8]> {
        let (at, len) = (*self.at.get(id as usize)?)?;
        self.bytes.get(at as usize..at as usize + len as usize)
    }

    /// Keeps `head` as message `id`'s.
    pub(super) fn note(&mut self, id: u32, head: &[u8]) {
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
    pub(super) fn new(offset_base: u64, collect_leading: bool) -> Self {
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
    pub(super) fn repeated(&mut self, b: &[u8]) -> Option<usize> {
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
        self.c.stop_at(line_start);
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
    pub(super) fn line(&mut self, kept: &[u8], text: Option<&str>, n: usize) {
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
        if parsed.is_some() {
            c.stop_at(line_start);
        }
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

    pub(super) fn finish(mut self) -> Chunk {
        self.c.end_offset = self.offset;
        self.c.ends_bad = self.in_bad;
        self.c
    }
}

/// What parsing one block (or a whole log) gave, its lines numbered from its own start.
pub(super) struct Chunk {
    pub(super) records: RecordsBuilder,
    /// Continuation lines before the first header (only collected for chunks after the
    /// first), as many as can still reach the record before the chunk: once they add up to
    /// [`MAX_LINE_BYTES`] that record's message cannot take more ([`RecordsBuilder::continue_message`]),
    /// and the rest are only counted (`leading_more`: those that are not blank). A block of a
    /// log with no klog line is all leading lines.
    pub(super) leading: Vec<String>,
    /// The bytes the kept leading lines would add to a message (each with its newline).
    pub(super) leading_bytes: usize,
    /// Leading lines past those kept that are not blank.
    pub(super) leading_more: u64,
    /// The offset of the first line with a klog header (a record's, or one whose timestamp
    /// is impossible): where the leading lines end ([`Chunk::leading_end`]).
    pub(super) first_header: Option<u64>,
    /// The chunk ends skipping lines after a header whose timestamp is impossible (the lines
    /// before the next chunk's first header are skipped too).
    pub(super) ends_bad: bool,
    pub(super) unparsed: u64,
    pub(super) lines: u64,
    pub(super) end_offset: u64,
    pub(super) invalid_utf8_line: Option<u64>,
    pub(super) long_line: Option<u64>,
    pub(super) read_error: Option<String>,
    /// Lines with a klog header whose timestamp is impossible, and the first of them.
    pub(super) bad_stamps: u64,
    pub(super) first_bad_stamp: Option<u64>,
    /// Lines read as repeats of a line before ([`LineParser::repeated`]).
    #[cfg(test)]
    pub(super) repeats: u64,
}

impl Chunk {
    /// Nothing read, `offset` bytes in, ended by `read_error`.
    pub(super) fn empty(offset: u64, read_error: Option<String>) -> Self {
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
            first_header: None,
            ends_bad: false,
            #[cfg(test)]
            repeats: 0,
        }
    }

    /// Notes a line with a klog header at `offset`: the first one ends the leading lines.
    #[inline]
    fn stop_at(&mut self, offset: u64) {
        self.first_header.get_or_insert(offset);
    }

    /// Where the leading lines end: at the first line with a klog header, else at the
    /// chunk's end. The record open before the chunk runs to here.
    pub(super) fn leading_end(&self) -> u64 {
        self.first_header.unwrap_or(self.end_offset)
    }
}
