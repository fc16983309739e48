//! The gzip inflater: ISA-L's (the system's libisal) in a build with the `isal` feature, about
//! twice as fast on one core, else zlib-rs's through flate2. Both read streams of one or more
//! members (`pigz`, concatenated files) and check each member's CRC and length; both report a
//! stream that ends early as truncated (`UnexpectedEof`) and bad data as corrupt
//! (`InvalidData`), so the messages a user sees do not depend on the build. They differ in
//! one thing on damaged data: ISA-L (through isal-rs) may give out fewer of the bytes before
//! the damage (`isal_stream`'s `read`).

use std::io::Read;

/// Which inflater [`decoder`] uses in this build (the bench prints it).
pub const INFLATER: &str = if cfg!(feature = "isal") {
    "ISA-L (libisal)"
} else {
    "zlib-rs"
};

/// The inflater of a gzip stream read from `r`.
#[cfg(not(feature = "isal"))]
pub fn decoder<'a, R: Read + 'a>(r: R) -> Box<dyn Read + 'a> {
    Box::new(flate2::read::MultiGzDecoder::new(r))
}

/// The inflater of a gzip stream read from `r`.
#[cfg(feature = "isal")]
pub fn decoder<'a, R: Read + 'a>(r: R) -> Box<dyn Read + 'a> {
    Box::new(isal_stream::Gzip::new(r))
}

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
