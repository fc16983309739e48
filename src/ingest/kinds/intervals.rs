//! Origin monitor interval files (`e2e-events_*.json` and the like), streamed into records by
//! [`crate::ingest::intervals`], never held whole: they can be hundreds of MB.

use super::{FileCx, Head, Reader, Reading, Sniff};
use crate::bundle::Bundle;
use crate::ingest::intervals;
use crate::model::{Interval, Provenance, Severity};
use crate::source::{self, VFile};
use std::io::Read;

pub(crate) struct IntervalFiles;

impl Reader for IntervalFiles {
    type Out = Vec<Interval>;
    const READING: Reading = Reading::Stream;

    /// Decompressed when it is gzip, xz or zstd data, bounded by `--max-file-bytes` like a
    /// file read whole.
    fn read(f: VFile, cx: &mut FileCx<'_>) -> Option<Vec<Interval>> {
        let cap = cx.opts.max_file_bytes;
        if f.stored_len() > cap {
            return cx.fail(source::ReadError::TooLarge {
                cap,
                flag: "--max-file-bytes",
            });
        }
        let r = cx.open(f)?;
        let mut counted = Counted {
            inner: source::sniff::Capped {
                inner: r,
                left: cap,
                cap,
                what: "file",
                flag: "--max-file-bytes",
            },
            bytes: 0,
        };
        // The JSON reader takes one byte per call: a buffer in front keeps those calls cheap
        // (static, not through the decoder and the cap).
        let buffered = std::io::BufReader::with_capacity(1 << 16, &mut counted);
        let read = intervals::read_intervals(buffered, &cx.prov);
        cx.bytes = counted.bytes;
        match read {
            Ok(v) => Some(v),
            Err(e) => {
                cx.note(Severity::Error, None, e);
                None
            }
        }
    }

    fn merge(out: Vec<Interval>, _prov: &Provenance, b: &mut Bundle) {
        // The first file's records are moved, not copied (they can be many).
        if b.intervals.is_empty() {
            b.intervals = out;
        } else {
            b.intervals.extend(out);
        }
    }

    fn provenances(out: &mut Vec<Interval>, set: &mut dyn FnMut(&mut Provenance)) {
        out.iter_mut().for_each(|i| set(&mut i.prov));
    }

    fn present(b: &Bundle) -> bool {
        !b.intervals.is_empty()
    }

    /// JSON with a locator and a start or level.
    fn sniff(h: &Head<'_>) -> Sniff {
        let t = h.text;
        match h.json && t.contains("\"locator\"") && (t.contains("\"from\"") || t.contains("\"level\""))
        {
            true => Sniff::Is,
            false => Sniff::No,
        }
    }
}

/// A reader that counts the bytes read through it.
struct Counted<R> {
    inner: R,
    bytes: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}
