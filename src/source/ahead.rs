//! Decompression ahead of the reader: a compressed stream read on a thread of its own into a
//! bounded queue of buffers, so that inflating an archive overlaps with parsing what came out
//! of it (the tar headers, the entries read and parsed on the walking thread). A `.tar.gz`
//! then costs about its decompression, not its decompression plus its parsing.
//!
//! The reader gives out exactly the bytes the decoder gave out, in order, then the decoder's
//! own error or end: what is read through it is what reading the decoder directly would give.
//! At most [`BUFFERS`] buffers of [`BUF`] bytes exist at a time (they go back to the thread
//! once read), and dropping the reader stops the thread after the buffer it is filling.

use std::io::{self, Read};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, sync_channel};
use std::sync::{Arc, Mutex};

use super::ReadError;

/// The size of one buffer of decompressed bytes.
const BUF: usize = 1 << 20;
/// The most one call to the decoder is asked for (the gzip inflater's best, see
/// [`super::gzip::CALL`]; at most a buffer).
const CALL: usize = if super::gzip::CALL < BUF {
    super::gzip::CALL
} else {
    BUF
};
/// How many buffers exist at a time: filled ones waiting in the queue, the one the reader is
/// reading and the one the thread is filling.
const BUFFERS: usize = 4;

/// What the decompressing thread sends: bytes, then the end or an error.
enum Msg {
    Data(Vec<u8>),
    End,
    Failed(io::Error),
}

/// The reading end; see the module documentation.
pub struct Ahead {
    /// Filled buffers and the end (`None` when no thread could be started).
    rx: Option<Receiver<Msg>>,
    /// Read buffers go back to the thread to be filled again.
    back: Option<SyncSender<Vec<u8>>>,
    /// The buffer being read, and how far.
    cur: Vec<u8>,
    pos: usize,
    /// The stream has ended or failed (later reads give 0).
    done: bool,
}

impl Ahead {
    /// Decompresses `input` on a thread of its own, through the decoder `make` makes there
    /// (a decoder need not be able to move between threads; its input must). When no thread
    /// can be started, the decoder is made and read on the caller's thread instead.
    pub fn start<R, F>(input: R, make: F) -> Result<Box<dyn Read>, ReadError>
    where
        R: Read + Send + 'static,
        F: FnOnce(R) -> Result<Box<dyn Read>, ReadError> + Send + 'static,
    {
        let (tx, rx) = sync_channel::<Msg>(BUFFERS);
        let (back, spare) = sync_channel::<Vec<u8>>(BUFFERS);
        // The input goes to the thread through a slot, to be taken back if the thread cannot
        // be started (the closure that would own it is then dropped unrun).
        let slot = Arc::new(Mutex::new(Some((input, make))));
        let theirs = slot.clone();
        let spawned = std::thread::Builder::new()
            .name("mglint-inflate".into())
            .spawn(move || {
                let taken = theirs.lock().ok().and_then(|mut s| s.take());
                drop(theirs);
                let Some((input, make)) = taken else { return };
                match make(input) {
                    Ok(d) => fill(d, &tx, &spare),
                    Err(e) => {
                        let _ = tx.send(Msg::Failed(io::Error::other(e.to_string())));
                    }
                }
            });
        let mut ahead = Ahead {
            rx: None,
            back: None,
            cur: Vec::new(),
            pos: 0,
            done: false,
        };
        match spawned {
            // Detached: once the reader is dropped, the thread's next send fails and it
            // returns, after at most one more buffer (never blocked on a reader that is gone).
            Ok(_) => {
                ahead.rx = Some(rx);
                ahead.back = Some(back);
                Ok(Box::new(ahead))
            }
            Err(_) => match slot.lock().ok().and_then(|mut s| s.take()) {
                Some((input, make)) => make(input),
                // Not reached: a thread not started cannot have taken the input. Should it
                // be, the reader says the stream stopped.
                None => Ok(Box::new(ahead)),
            },
        }
    }
}

/// The thread's loop: fills buffers from `d` and sends them, until the end, an error, or the
/// reader is gone.
fn fill<R: Read>(mut d: R, tx: &SyncSender<Msg>, spare: &Receiver<Vec<u8>>) {
    let mut made = 0;
    loop {
        // A buffer the reader gave back, else a new one while fewer than BUFFERS exist, else
        // wait for one to come back.
        let mut buf = match spare.try_recv() {
            Ok(b) => b,
            Err(TryRecvError::Empty) if made < BUFFERS => {
                made += 1;
                Vec::with_capacity(BUF)
            }
            Err(TryRecvError::Empty) => match spare.recv() {
                Ok(b) => b,
                Err(_) => return,
            },
            Err(TryRecvError::Disconnected) => return,
        };
        buf.resize(BUF, 0);
        // Fill the buffer (several reads: decoders give out a block at a time), stopping at
        // the end or an error; bytes read before an error are sent before it.
        let mut n = 0;
        let mut last = None;
        while n < BUF {
            // Calls the gzip inflater's size: no larger than the walker's own 64 KiB reads
            // for a decoder that drops the output of the call meeting damage (ISA-L's
            // binding, `source::gzip`), larger for zlib-rs, which drops nothing.
            let upto = (n + CALL).min(BUF);
            match d.read(&mut buf[n..upto]) {
                Ok(0) => {
                    last = Some(Msg::End);
                    break;
                }
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    last = Some(Msg::Failed(e));
                    break;
                }
            }
        }
        buf.truncate(n);
        if n > 0 && tx.send(Msg::Data(buf)).is_err() {
            return;
        }
        if let Some(m) = last {
            let _ = tx.send(m);
            return;
        }
    }
}

impl Read for Ahead {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        while self.pos == self.cur.len() {
            if self.done {
                return Ok(0);
            }
            let msg = match &self.rx {
                Some(rx) => rx.recv().ok(),
                None => None,
            };
            let used = std::mem::take(&mut self.cur);
            self.pos = 0;
            // The thread may be gone already (after its last message): a failed send back
            // is of no matter.
            if let Some(back) = self.back.as_ref().filter(|_| used.capacity() > 0) {
                let _ = back.try_send(used);
            }
            match msg {
                Some(Msg::Data(b)) => self.cur = b,
                Some(Msg::End) => self.done = true,
                Some(Msg::Failed(e)) => {
                    self.done = true;
                    return Err(e);
                }
                // The thread ended without saying how (it panicked), or never started.
                None => {
                    self.done = true;
                    return Err(io::Error::other("decompression stopped unexpectedly"));
                }
            }
        }
        let n = out.len().min(self.cur.len() - self.pos);
        out[..n].copy_from_slice(&self.cur[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::sniff::{self, Magic, describe_io};
    use std::io::Write;

    /// Text like a log's, compressed with gzip: several buffers' worth once inflated.
    fn gz_log(lines: usize) -> (Vec<u8>, Vec<u8>) {
        let text: Vec<u8> = (0..lines)
            .flat_map(|i| {
                format!(
                    "I1203 10:00:{:02}.000000 1 sync_worker.go:{i}] line {i}\n",
                    i % 60
                )
                .into_bytes()
            })
            .collect();
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&text).unwrap();
        (text, enc.finish().unwrap())
    }

    fn gunzip_ahead(gz: Vec<u8>) -> Box<dyn Read> {
        Ahead::start(std::io::Cursor::new(gz), |r| {
            sniff::decoder(Magic::Gzip, r, 128 << 20)
        })
        .unwrap()
    }

    /// Read in odd sizes, the bytes are those the decoder gives, in order.
    #[test]
    fn the_bytes_are_the_decoders_in_order() {
        let (text, gz) = gz_log(200_000);
        assert!(text.len() > BUF * BUFFERS * 2, "{}", text.len());
        let mut r = gunzip_ahead(gz);
        let mut out = Vec::new();
        let mut buf = vec![0u8; 7919];
        loop {
            match r.read(&mut buf).unwrap() {
                0 => break,
                n => out.extend_from_slice(&buf[..n]),
            }
        }
        assert!(out == text, "{} bytes of {}", out.len(), text.len());
        // The end stays the end.
        assert_eq!(r.read(&mut buf).unwrap(), 0);
    }

    /// A truncated stream and a bad checksum come out as the decoder's own errors, after
    /// the bytes it gave before them, as reading the decoder directly gives them.
    #[test]
    fn errors_come_after_the_bytes_before_them_and_say_the_same() {
        let (text, gz) = gz_log(50_000);
        let mut crc = gz.clone();
        let at = crc.len() - 8;
        crc[at] ^= 0xff;
        for bad in [gz[..gz.len() / 2].to_vec(), crc] {
            // The decoder read directly in calls of the size the thread makes (the walker's
            // own 64 KiB): ISA-L's binding drops the output of the call that meets damage,
            // so the bytes given before an error depend on the call size.
            let direct = {
                let mut d = sniff::decoder(Magic::Gzip, std::io::Cursor::new(bad.clone()), 1 << 30)
                    .unwrap();
                let mut out = Vec::new();
                let mut call = vec![0u8; CALL];
                let e = loop {
                    match d.read(&mut call) {
                        Ok(0) => panic!("damaged input read to its end"),
                        Ok(k) => out.extend_from_slice(&call[..k]),
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => break e,
                    }
                };
                (out.len(), describe_io(&e))
            };
            let mut r = gunzip_ahead(bad);
            let mut out = Vec::new();
            let e = r.read_to_end(&mut out).unwrap_err();
            assert!(text.starts_with(&out));
            assert_eq!((out.len(), describe_io(&e)), direct);
            assert_eq!(
                r.read(&mut [0u8; 16]).unwrap(),
                0,
                "an error ends the stream"
            );
        }
    }

    /// Counts the compressed bytes the thread has read.
    struct Counted(
        std::io::Cursor<Vec<u8>>,
        Arc<std::sync::atomic::AtomicUsize>,
    );
    impl Read for Counted {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1.fetch_add(n, std::sync::atomic::Ordering::SeqCst);
            Ok(n)
        }
    }

    /// A reader dropped after its first bytes stops the thread: it reads no further than the
    /// few buffers the queue holds, not the rest of the stream.
    #[test]
    fn dropping_the_reader_early_stops_the_thread() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let (_, gz) = gz_log(1_000_000);
        let len = gz.len();
        let read = Arc::new(AtomicUsize::new(0));
        let counted = Counted(std::io::Cursor::new(gz), read.clone());
        let mut r = Ahead::start(counted, |r| sniff::decoder(Magic::Gzip, r, 1 << 30)).unwrap();
        let mut buf = [0u8; 100];
        r.read_exact(&mut buf).unwrap();
        assert!(buf.starts_with(b"I1203 10:00:00.000000 1 sync_worker.go:0] line 0\n"));
        drop(r);
        // Wait until the thread has stopped reading (the count stays put), then compare.
        let mut last = usize::MAX;
        for _ in 0..100 {
            std::thread::sleep(std::time::Duration::from_millis(20));
            let now = read.load(Ordering::SeqCst);
            if now == last {
                break;
            }
            last = now;
        }
        assert!(last < len / 4, "{last} of {len} compressed bytes read");
    }
}
