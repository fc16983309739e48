//! The gzip inflater: ISA-L's (the system's libisal) in a build with the `isal` feature, about
//! twice as fast on one core, else zlib-rs's raw inflater (driven through flate2's
//! `Decompress`) with the gzip framing read in `zlib_gzip` and the CRC computed by
//! `crc32fast` (10 % less time than zlib-rs's own gzip decoding, whose CRC cost about that).
//! Both read streams of one or more members (`pigz`, concatenated files) and check each member's CRC and length; both report a
//! stream that ends early as truncated (`UnexpectedEof`) and bad data as corrupt
//! (`InvalidData`), so the messages a user sees do not depend on the build. They differ in
//! one thing on damaged data: ISA-L (through isal-rs) may give out fewer of the bytes before
//! the damage (`isal_stream`'s `read`).

use std::io::Read;

/// Which inflater [`decoder`] uses in this build (the bench prints it).
pub const INFLATER: &str = if cfg!(feature = "isal") {
    "ISA-L (libisal)"
} else {
    "zlib-rs (raw inflate; gzip framing and CRC by mglint)"
};

/// The size of the calls in which a stream is best inflated ahead of its reader
/// (`source::ahead`): ISA-L's binding drops what the call that meets damage inflated, so its
/// calls are no larger than the walker's own 64 KiB reads; zlib-rs gives out every byte
/// before damage whatever the calls, and inflates a large call faster.
pub const CALL: usize = if cfg!(feature = "isal") {
    1 << 16
} else {
    1 << 20
};

/// The inflater of a gzip stream read from `r`.
#[cfg(not(feature = "isal"))]
pub fn decoder<'a, R: Read + 'a>(r: R) -> Box<dyn Read + 'a> {
    Box::new(zlib_gzip::Gzip::new(r))
}

/// The inflater of a gzip stream read from `r`.
#[cfg(feature = "isal")]
pub fn decoder<'a, R: Read + 'a>(r: R) -> Box<dyn Read + 'a> {
    Box::new(isal_stream::Gzip::new(r))
}

#[cfg(not(feature = "isal"))]
mod zlib_gzip;

#[cfg(feature = "isal")]
mod isal_stream {
    use std::io::{self, Read};

    /// The compressed input, noting when it has ended.
    struct Input<R> {
        r: R,
        ended: bool,
    }

    impl<R: Read> Read for Input<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.r.read(buf)?;
            if n == 0 && !buf.is_empty() {
                self.ended = true;
            }
            Ok(n)
        }
    }

    /// ISA-L's gzip decoder, its errors told apart as the zlib-rs path tells them: the
    /// input running out inside a member is a truncated stream, a decoding error a corrupt
    /// one.
    pub struct Gzip<R: Read> {
        d: isal::read::GzipDecoder<Input<R>>,
    }

    impl<R: Read> Gzip<R> {
        pub fn new(r: R) -> Self {
            Gzip {
                d: isal::read::GzipDecoder::new(Input { r, ended: false }),
            }
        }
    }

    impl<R: Read> Read for Gzip<R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            // isal-rs drops what a call wrote when the call meets an error (a bad trailer, a
            // broken block). Once the last compressed bytes are taken in, the stream's end
            // is near: the rest is read a tar block at a time, so a bad trailer after a tar's
            // end costs at most its padding. (A byte at a time would lose nothing, but each
            // call shifts isal-rs's 16 KiB input buffer.) The call in which the input ends
            // can still lose its output (docs/development.md, `--features isal`).
            let buf = if self.d.get_ref().ended {
                let n = buf.len().min(TAIL);
                &mut buf[..n]
            } else {
                buf
            };
            self.d.read(buf).map_err(|e| {
                let ended = self.d.get_ref().ended;
                match e
                    .get_ref()
                    .and_then(|i| i.downcast_ref::<isal::error::Error>())
                {
                    // The input ran out inside a member: ISA-L asked for more and made no
                    // progress (its no-progress guard), or said so.
                    Some(isal::error::Error::Other(_)) if ended => truncated(),
                    Some(isal::error::Error::DecompressionError(isal::DecompCode::EndInput)) => {
                        truncated()
                    }
                    Some(isal::error::Error::DecompressionError(code)) => corrupt(code),
                    Some(isal::error::Error::Io(_)) | None => e,
                    Some(other) => {
                        io::Error::new(io::ErrorKind::InvalidData, format!("gzip: {other}"))
                    }
                }
            })
        }
    }

    /// The most a call reads once the compressed input has ended: one tar block.
    const TAIL: usize = 512;

    /// Bad data, said as flate2 (the zlib-rs build) says it, so that a message does not
    /// depend on the build.
    fn corrupt(code: &isal::DecompCode) -> io::Error {
        use isal::DecompCode::*;
        let what = match code {
            InvalidBlock | InvalidSymbol | InvalidLoopBack => "corrupt deflate stream",
            IncorrectChecksum => "corrupt gzip stream does not have a matching checksum",
            InvalidWrapper | UnsupportedMethod => "invalid gzip header",
            other => return io::Error::new(io::ErrorKind::InvalidData, format!("gzip: {other:?}")),
        };
        io::Error::new(io::ErrorKind::InvalidData, what)
    }

    fn truncated() -> io::Error {
        io::Error::new(io::ErrorKind::UnexpectedEof, "gzip stream ends early")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::sniff::describe_io;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(data).unwrap();
        enc.finish().unwrap()
    }

    fn inflate(data: &[u8]) -> std::io::Result<Vec<u8>> {
        let mut out = Vec::new();
        decoder(data).read_to_end(&mut out)?;
        Ok(out)
    }

    /// Text like a log's: compressible, but not a run of one byte.
    fn text(n: usize) -> Vec<u8> {
        (0..n)
            .map(|i| {
                format!(
                    "I1203 10:{:02}:{:02}.000000 1 sync_worker.go:{i}] line {i}\n",
                    i % 60,
                    i % 59
                )
            })
            .collect::<String>()
            .into_bytes()
    }

    /// Reads `r` in calls of `call` bytes: the bytes given out, and the error that ended
    /// them (its kind, and its words as a user sees them), if any.
    #[cfg(not(feature = "isal"))]
    fn read_all(mut r: impl Read, call: usize) -> (Vec<u8>, Option<(std::io::ErrorKind, String)>) {
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

    /// zlib-rs's own gzip decoding ends as flate2's `MultiGzDecoder` (the default build's
    /// inflater before) ended, with the same error kind and words, on good streams and on
    /// every kind of damage; it gives out the same bytes, and before damage at least those
    /// flate2 gave (which dropped the failing call's), the same whatever the call size.
    #[cfg(not(feature = "isal"))]
    #[test]
    fn the_same_bytes_and_errors_as_flate2s_reader() {
        let (a, b) = (text(60_000), text(7_000));
        let one = gz(&a);
        let mut two = one.clone();
        two.extend(gz(&b));
        // A header with a name, a comment, an extra field and a header CRC.
        let mut named = Vec::new();
        let mut enc = flate2::GzBuilder::new()
            .filename("current.log")
            .comment("a comment")
            .extra(vec![7u8; 40])
            .write(&mut named, flate2::Compression::best());
        enc.write_all(&b).unwrap();
        enc.finish().unwrap();
        let mut cases: Vec<(String, Vec<u8>)> = vec![
            ("one member".into(), one.clone()),
            ("two members".into(), two.clone()),
            ("a named member".into(), named.clone()),
            ("empty".into(), Vec::new()),
        ];
        for cut in [
            1,
            2,
            5,
            9,
            10,
            11,
            200,
            one.len() / 3,
            one.len() - 8,
            one.len() - 1,
        ] {
            cases.push((format!("cut at {cut}"), one[..cut].to_vec()));
        }
        for cut in [one.len() + 3, one.len() + 12, two.len() - 2] {
            cases.push((format!("second member cut at {cut}"), two[..cut].to_vec()));
        }
        for (what, at) in [("crc", 8), ("length", 3)] {
            let mut bad = two.clone();
            let at = one.len() - at;
            bad[at] ^= 0x5a;
            cases.push((format!("bad {what}"), bad));
        }
        for at in [10, 11, 40, 500, one.len() / 2, one.len() - 20] {
            let mut bad = one.clone();
            bad[at] ^= 0xff;
            cases.push((format!("byte {at} flipped"), bad));
        }
        for (what, at, v) in [("magic", 1, 0x8c), ("method", 2, 7), ("flags", 3, 0xe0)] {
            let mut bad = one.clone();
            bad[at] = v;
            cases.push((format!("bad {what}"), bad));
        }
        let mut hcrc = named.clone();
        hcrc[3] |= 2; // FHCRC with no CRC there: the next bytes read as one, wrongly
        cases.push(("a header CRC that does not match".into(), hcrc));
        // The same header with its CRC-16 (the low half of the CRC-32 of the bytes before it).
        let head = 10 + 2 + 40 + "current.log\0".len() + "a comment\0".len();
        let mut good = named[..head].to_vec();
        good[3] |= 2;
        let crc16 = (crc32fast::hash(&good) & 0xffff) as u16;
        good.extend(crc16.to_le_bytes());
        good.extend(&named[head..]);
        cases.push(("a header CRC that matches".into(), good.clone()));
        // Cut inside each header field, in the data and in the trailer.
        for cut in [
            3,
            4,
            8,
            11,
            12,
            30,
            52,
            60,
            70,
            head + 1,
            head + 2,
            head + 40,
        ] {
            cases.push((format!("named member cut at {cut}"), good[..cut].to_vec()));
        }
        cases.push((
            "named member cut in its trailer".into(),
            good[..good.len() - 3].to_vec(),
        ));
        // Damage anywhere: every 29th byte of the header-CRC member flipped in turn.
        for at in (0..good.len()).step_by(29) {
            let mut bad = good.clone();
            bad[at] ^= 0x21;
            cases.push((format!("byte {at} of the header-CRC member flipped"), bad));
        }
        // A good member, then a second whose method is wrong.
        let mut second = two.clone();
        second[one.len() + 2] = 9;
        cases.push(("a second member with a bad method".into(), second));
        for tail in [1, 2, 5, 9, 10, 11, 600] {
            let mut padded = one.clone();
            padded.extend(std::iter::repeat_n(0u8, tail));
            cases.push((format!("{tail} zero bytes after the member"), padded));
            let mut junk = one.clone();
            junk.extend((0..tail).map(|i| (i * 37 + 11) as u8));
            cases.push((format!("{tail} junk bytes after the member"), junk));
        }
        for (what, data) in &cases {
            let mut first: Option<Vec<u8>> = None;
            for call in [1 << 20, 1 << 16, 7919, 1] {
                if call == 1 && data.len() > 5_000 && !what.starts_with("cut") {
                    continue;
                }
                let theirs = read_all(flate2::read::MultiGzDecoder::new(&data[..]), call);
                let ours = read_all(decoder(&data[..]), call);
                assert_eq!(ours.1, theirs.1, "{what}, calls of {call}");
                let same = match ours.1 {
                    None => ours.0 == theirs.0,
                    Some(_) => ours.0.starts_with(&theirs.0),
                };
                assert!(
                    same,
                    "{what}, calls of {call}: {} bytes against {}",
                    ours.0.len(),
                    theirs.0.len()
                );
                match &first {
                    None => first = Some(ours.0),
                    Some(f) => assert!(*f == ours.0, "{what}: calls of {call} give other bytes"),
                }
            }
        }
    }

    #[test]
    fn members_concatenated_read_as_one_stream() {
        let (a, b) = (text(20_000), text(3_000));
        let mut both = gz(&a);
        both.extend(gz(&b));
        let out = inflate(&both).unwrap();
        assert_eq!(out.len(), a.len() + b.len());
        assert!(out.starts_with(&a) && out.ends_with(&b));
    }

    /// Every byte before a bad trailer is given out before the error with zlib-rs, as a tar
    /// reader that stops at the archive's end needs (`archive_safety` reads such an archive
    /// whole); ISA-L through isal-rs loses at most the output of the call that meets it.
    #[test]
    fn the_data_before_a_bad_trailer_is_all_given_out() {
        let data = text(50_000);
        let mut gz = gz(&data);
        let at = gz.len() - 8;
        gz[at] ^= 0xff;
        let mut d = decoder(&gz[..]);
        let mut out = Vec::new();
        let mut buf = vec![0u8; 1 << 16];
        let err = loop {
            match d.read(&mut buf) {
                Ok(0) => panic!("a bad CRC read as a good stream"),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => break e,
            }
        };
        assert!(describe_io(&err).starts_with("corrupt data"), "{err}");
        assert!(data.starts_with(&out));
        if cfg!(feature = "isal") {
            // isal-rs drops the output of the call that meets the error: at most one call's.
            assert!(
                data.len() - out.len() <= buf.len(),
                "{} of {}",
                out.len(),
                data.len()
            );
        } else {
            assert_eq!(out.len(), data.len());
        }
    }

    #[test]
    fn an_early_end_is_truncation_and_bad_bytes_are_corruption() {
        let whole = gz(&text(20_000));
        let said = |data: &[u8]| describe_io(&inflate(data).unwrap_err());
        for cut in [whole.len() / 2, whole.len() - 4, 15] {
            let e = said(&whole[..cut]);
            assert!(e.starts_with("truncated data"), "cut at {cut}: {e}");
        }
        // A wrong CRC in the trailer, and a broken block.
        let mut crc = whole.clone();
        let at = crc.len() - 8;
        crc[at] ^= 0xff;
        let mut block = whole.clone();
        block[10] = 0xff;
        // The same words from either inflater.
        for (bad, says) in [
            (
                crc,
                "corrupt data: corrupt gzip stream does not have a matching checksum",
            ),
            (block, "corrupt data: corrupt deflate stream"),
        ] {
            assert_eq!(said(&bad), says);
        }
    }
}
