//! Differential fuzzing of the default build's gzip reader (`source::gzip::decoder`: the gzip
//! framing read by mglint, the deflate data inflated by zlib-rs's raw inflater, the CRC by
//! crc32fast) against flate2's `MultiGzDecoder`, whose behaviour it promises to keep: the same
//! error kind and words as flate2 at the same point; on a good stream the same bytes; on a
//! damaged one at least the bytes flate2 gave first. And its own result does not depend on the
//! size of the reads, nor on the pieces the compressed input arrives in.
//!
//! The first input byte chooses: bit 0 whether the rest is the stream as it is (for the
//! committed seeds and libFuzzer's mutations of them) or the description of one to build
//! (members with names, comments, extra fields and header CRCs, then one kind of damage: cut,
//! a byte changed, bytes after the end); bits 1-2 the size of the reads; bits 3-4 the size of
//! the pieces the input is handed over in.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mglint::source::sniff::describe_io;
use std::io::{Read, Write};

/// What a reader gave: its bytes, and how it ended (an error's kind and its words as a user
/// sees them), reading `call` bytes at a time.
type Outcome = (Vec<u8>, Option<(std::io::ErrorKind, String)>);

fn read_all(mut r: impl Read, call: usize) -> Outcome {
    let mut out = Vec::new();
    let mut buf = vec![0u8; call];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => return (out, Some((e.kind(), describe_io(&e)))),
        }
    }
}

/// The compressed input handed over at most `piece` bytes a read.
struct Pieces<'a> {
    data: &'a [u8],
    piece: usize,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.piece).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Reads the fuzzer's bytes as the description of a stream.
struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    fn byte(&mut self) -> u8 {
        let Some((&b, rest)) = self.0.split_first() else {
            return 0;
        };
        self.0 = rest;
        b
    }

    fn u16(&mut self) -> usize {
        usize::from(self.byte()) << 8 | usize::from(self.byte())
    }

    fn take(&mut self, n: usize) -> &[u8] {
        let (a, b) = self.0.split_at(n.min(self.0.len()));
        self.0 = b;
        a
    }
}

/// One to three members of the description's text (repeated, so that the deflate data has
/// matches), each with its own header fields and level, then one kind of damage.
fn build(desc: &[u8]) -> Vec<u8> {
    let mut c = Cursor(desc);
    let members = 1 + usize::from(c.byte() % 3);
    let damage = c.byte();
    let at = c.u16();
    let value = c.byte();
    let mut out = Vec::new();
    for _ in 0..members {
        let fields = c.byte();
        let len = usize::from(c.byte());
        let text = c.take(len).to_vec();
        let repeat = 1 + usize::from(fields >> 5);
        let mut b = flate2::GzBuilder::new();
        if fields & 1 != 0 {
            b = b.filename("current.log");
        }
        if fields & 2 != 0 {
            b = b.comment("a comment");
        }
        if fields & 4 != 0 {
            b = b.extra(text.iter().take(60).copied().collect::<Vec<u8>>());
        }
        let level = flate2::Compression::new(u32::from(fields >> 3 & 3) * 3);
        let mut member = Vec::new();
        let mut enc = b.write(&mut member, level);
        for _ in 0..repeat {
            enc.write_all(&text).unwrap();
        }
        enc.finish().unwrap();
        if fields & 0x10 != 0 {
            add_header_crc(&mut member);
        }
        out.extend(member);
    }
    if out.is_empty() {
        return out;
    }
    let at = at % out.len();
    match damage % 5 {
        0 => {}
        1 => out.truncate(at),
        2 => out[at] ^= value | 1,
        3 => out.extend(c.take(usize::from(value % 24))),
        _ => out.extend(std::iter::repeat_n(0u8, usize::from(value % 24))),
    }
    out
}

/// Sets FHCRC on a member flate2 wrote and puts the header's CRC-16 after its header (the low
/// half of the CRC-32 of the header's bytes), as gzip does.
fn add_header_crc(member: &mut Vec<u8>) {
    let flags = member[3];
    let mut end = 10;
    if flags & 4 != 0 {
        let xlen = usize::from(member[10]) | usize::from(member[11]) << 8;
        end += 2 + xlen;
    }
    for flag in [8u8, 16] {
        if flags & flag != 0 {
            end += member[end..].iter().position(|&b| b == 0).unwrap() + 1;
        }
    }
    member[3] |= 2;
    let crc16 = (crc32fast::hash(&member[..end]) & 0xffff) as u16;
    member.splice(end..end, crc16.to_le_bytes());
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let stream = if choice & 1 == 0 {
        rest.to_vec()
    } else {
        build(rest)
    };
    let mut call = [1 << 16, 4096, 7, 1][usize::from(choice >> 1 & 3)];
    if call == 1 && stream.len() > 2_000 {
        call = 7;
    }
    let piece = [usize::MAX, 1, 13, 5000][usize::from(choice >> 3 & 3)];
    let input = || Pieces {
        data: &stream,
        piece,
    };
    let theirs = read_all(flate2::read::MultiGzDecoder::new(input()), call);
    let ours = read_all(mglint::source::gzip::decoder(input()), call);
    let how = format!("reads of {call}, input in pieces of {piece}");
    assert_eq!(ours.1, theirs.1, "how it ended, {how}");
    match ours.1 {
        None => assert!(ours.0 == theirs.0, "the bytes of a good stream, {how}"),
        Some(_) => assert!(
            ours.0.starts_with(&theirs.0),
            "{} bytes given out before the error against flate2's {}, {how}",
            ours.0.len(),
            theirs.0.len()
        ),
    }
    // The same whatever the sizes: against one large read of the whole input.
    let whole = read_all(
        mglint::source::gzip::decoder(&stream[..]),
        mglint::source::gzip::CALL,
    );
    assert!(ours == whole, "{how} against one read of the whole input");
});
