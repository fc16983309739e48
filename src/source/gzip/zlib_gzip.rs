//! The default build's gzip reader: the gzip framing (RFC 1952: each member's header and its
//! CRC-32 and length trailer) read here, the deflate data between inflated by zlib-rs's raw
//! inflater, and the CRC computed by `crc32fast`. zlib-rs's own gzip decoding took 10 % more
//! time, nearly all of it its CRC (measured on the 1 GB bench archive: 0.52 s against
//! 0.47 s, `igzip -dc` 0.36 s).
//!
//! Its errors are flate2's `MultiGzDecoder`'s (the default build's reader before), kinds and
//! words, met at the same bytes as zlib-rs met them: a header read field by field (a field
//! the input ends inside is a truncated stream), a magic, method or flag byte that is wrong
//! (a bad header, unless the stream ends before the ten fixed bytes: then truncated), a header
//! CRC, data CRC or length that does not match (a checksum error), bad deflate data (corrupt).
//! Before an error it gives out every byte inflated, whatever the size of the calls: large
//! calls cost nothing in what is given out, and zlib-rs inflates a 1 MiB call faster than
//! sixteen of 64 KiB (it copies its 32 KiB window once a call).

use flate2::{Decompress, FlushDecompress, Status};
use std::io::{self, Read};

/// The compressed input is read this much at a time.
const INPUT: usize = 128 << 10;
/// A gzip member's fixed header bytes.
const HEADER: u64 = 10;

/// The header flags (RFC 1952, 2.3.1).
const FHCRC: u8 = 2;
const FEXTRA: u8 = 4;
const FNAME: u8 = 8;
const FCOMMENT: u8 = 16;
const RESERVED: u8 = 0xe0;

pub struct Gzip<R> {
    r: R,
    d: Decompress,
    buf: Box<[u8]>,
    pos: usize,
    cap: usize,
    /// The input has ended.
    eof: bool,
    /// A member's header is next (at the start, and after each member's trailer).
    at_header: bool,
    /// The CRC and length of the member's bytes given out so far.
    crc: crc32fast::Hasher,
    len: u32,
    /// The stream has ended, or failed (then the error, given out once).
    state: State,
}

enum State {
    Running,
    /// An error met after bytes that were given out first.
    Failed(io::Error),
    Done,
}

/// Why a header or trailer could not be read.
enum Framing {
    /// The input ended inside it.
    Truncated,
    /// One of the fixed bytes that say what the stream is (magic, method, flags) is wrong,
    /// `read` bytes of the member in.
    Header { read: u64 },
    /// A CRC or the length does not match.
    Checksum,
    /// The input could not be read.
    Io(io::Error),
}

impl<R: Read> Gzip<R> {
    pub fn new(r: R) -> Self {
        Gzip {
            r,
            d: Decompress::new_with_window_bits(false, 15),
            buf: vec![0u8; INPUT].into_boxed_slice(),
            pos: 0,
            cap: 0,
            eof: false,
            at_header: true,
            crc: crc32fast::Hasher::new(),
            len: 0,
            state: State::Running,
        }
    }

    /// Refills the input buffer when it is empty; `false` when the input has ended.
    fn fill(&mut self) -> io::Result<bool> {
        if self.pos == self.cap && !self.eof {
            loop {
                match self.r.read(&mut self.buf) {
                    Ok(n) => {
                        self.pos = 0;
                        self.cap = n;
                        self.eof = n == 0;
                        break;
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(self.pos < self.cap)
    }

    /// The next input byte, added to `crc` when given one.
    fn byte(&mut self, crc: Option<&mut crc32fast::Hasher>) -> Result<u8, Framing> {
        match self.fill() {
            Ok(true) => {}
            Ok(false) => return Err(Framing::Truncated),
            Err(e) => return Err(Framing::Io(e)),
        }
        let b = self.buf[self.pos];
        self.pos += 1;
        if let Some(c) = crc {
            c.update(&[b]);
        }
        Ok(b)
    }

    /// `n` input bytes, little-endian (n ≤ 4), added to `crc` when given one.
    fn le(&mut self, n: usize, mut crc: Option<&mut crc32fast::Hasher>) -> Result<u32, Framing> {
        let mut v = 0u32;
        for i in 0..n {
            v |= u32::from(self.byte(crc.as_deref_mut())?) << (8 * i);
        }
        Ok(v)
    }

    /// Reads a member's header, as zlib reads it: field by field, each checked once read.
    fn header(&mut self) -> Result<(), Framing> {
        let mut crc = crc32fast::Hasher::new();
        let magic = self.le(2, Some(&mut crc))?;
        if magic != 0x8b1f {
            return Err(Framing::Header { read: 2 });
        }
        let method = self.byte(Some(&mut crc))?;
        let flags = self.byte(Some(&mut crc))?;
        if method != 8 || flags & RESERVED != 0 {
            return Err(Framing::Header { read: 4 });
        }
        // Modification time, extra flags, operating system.
        self.le(4, Some(&mut crc))?;
        self.le(2, Some(&mut crc))?;
        if flags & FEXTRA != 0 {
            let xlen = self.le(2, Some(&mut crc))?;
            for _ in 0..xlen {
                self.byte(Some(&mut crc))?;
            }
        }
        for flag in [FNAME, FCOMMENT] {
            if flags & flag != 0 {
                while self.byte(Some(&mut crc))? != 0 {}
            }
        }
        if flags & FHCRC != 0 {
            let want = crc.finalize() & 0xffff;
            if self.le(2, None)? != want {
                return Err(Framing::Checksum);
            }
        }
        Ok(())
    }

    /// Reads a member's trailer and checks the CRC and length of the bytes given out.
    fn trailer(&mut self) -> Result<(), Framing> {
        let crc = self.le(4, None)?;
        let len = self.le(4, None)?;
        let ours = std::mem::take(&mut self.crc).finalize();
        if crc != ours || len != self.len {
            return Err(Framing::Checksum);
        }
        Ok(())
    }

    /// Whether the member's ten fixed header bytes are all there: the `read` ones, those
    /// buffered, and as many more as the input has (read until there are enough).
    fn has_header_left(&mut self, read: u64) -> bool {
        let mut have = read + (self.cap - self.pos) as u64;
        let mut more = [0u8; HEADER as usize];
        while have < HEADER && !self.eof {
            match self.r.read(&mut more[..(HEADER - have) as usize]) {
                Ok(0) | Err(_) => break,
                Ok(n) => have += n as u64,
            }
        }
        have >= HEADER
    }

    /// The error a framing problem is, in flate2's words.
    fn error(&mut self, f: Framing) -> io::Error {
        match f {
            Framing::Truncated => incomplete(),
            // flate2 read a member's ten fixed header bytes before looking at them: a
            // stream that ends before them (a few bytes of padding after a member) was
            // truncated, not a bad header.
            Framing::Header { read } if !self.has_header_left(read) => {
                io::Error::from(io::ErrorKind::UnexpectedEof)
            }
            Framing::Header { .. } => {
                io::Error::new(io::ErrorKind::InvalidInput, "invalid gzip header")
            }
            Framing::Checksum => io::Error::new(
                io::ErrorKind::InvalidInput,
                "corrupt gzip stream does not have a matching checksum",
            ),
            Framing::Io(e) => e,
        }
    }

    /// Ends the stream with `e`, after the `n` bytes this call gives out, if any.
    fn fail(&mut self, n: usize, e: io::Error) -> io::Result<usize> {
        if n > 0 {
            self.state = State::Failed(e);
            Ok(n)
        } else {
            self.state = State::Done;
            Err(e)
        }
    }
}

fn incomplete() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "incomplete deflate stream")
}

impl<R: Read> Read for Gzip<R> {
    fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
        match std::mem::replace(&mut self.state, State::Running) {
            State::Running => {}
            State::Failed(e) => {
                self.state = State::Done;
                return Err(e);
            }
            State::Done => {
                self.state = State::Done;
                return Ok(0);
            }
        }
        if into.is_empty() {
            return Ok(0);
        }
        loop {
            if self.at_header {
                if let Err(f) = self.header() {
                    let e = self.error(f);
                    return self.fail(0, e);
                }
                self.at_header = false;
                self.d.reset(false);
                self.crc = crc32fast::Hasher::new();
                self.len = 0;
            }
            let more = match self.fill() {
                Ok(m) => m,
                Err(e) => return self.fail(0, e),
            };
            let (in0, out0) = (self.d.total_in(), self.d.total_out());
            let flush = if more {
                FlushDecompress::None
            } else {
                FlushDecompress::Finish
            };
            let ret = self
                .d
                .decompress(&self.buf[self.pos..self.cap], into, flush);
            self.pos += (self.d.total_in() - in0) as usize;
            let n = (self.d.total_out() - out0) as usize;
            self.crc.update(&into[..n]);
            self.len = self.len.wrapping_add(n as u32);
            match ret {
                Ok(Status::StreamEnd) => {
                    if let Err(f) = self.trailer() {
                        let e = self.error(f);
                        return self.fail(n, e);
                    }
                    // The member is whole: another may follow, else the stream ends here.
                    match self.fill() {
                        Ok(true) => self.at_header = true,
                        Ok(false) => self.state = State::Done,
                        Err(e) => return self.fail(n, e),
                    }
                    if n > 0 || matches!(self.state, State::Done) {
                        return Ok(n);
                    }
                }
                Ok(_) if n > 0 => return Ok(n),
                // No output yet: more input is needed, unless there is none.
                Ok(_) if more => {}
                Ok(_) => return self.fail(0, incomplete()),
                Err(_) => {
                    let e = io::Error::new(io::ErrorKind::InvalidInput, "corrupt deflate stream");
                    return self.fail(n, e);
                }
            }
        }
    }
}
