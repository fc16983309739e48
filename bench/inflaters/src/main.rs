//! Inflates one gzip file through one candidate inflater, to nothing, and prints the size
//! inflated: `inflaters BACKEND FILE`. `bench/inflaters.sh` builds it once per set of
//! features and times the candidates side by side on the same file.
//!
//! Streaming backends read the file 64 KiB at a time and hand out 64 KiB at a time, as
//! mglint reads an archive; whole-buffer backends (libdeflate, zune-inflate) read the file
//! whole and inflate it into one buffer the size its trailer gives (one member only).

use std::io::{BufReader, Read};

const BUF: usize = 1 << 16;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, backend, path] = &args[..] else {
        eprintln!("usage: inflaters BACKEND FILE\nbackends: {}", backends().join(" "));
        std::process::exit(2);
    };
    match run(backend, path) {
        Ok(n) => println!("{n}"),
        Err(e) => {
            eprintln!("{backend} {path}: {e}");
            std::process::exit(1);
        }
    }
}

type Res = Result<u64, Box<dyn std::error::Error>>;

/// The backends this build has.
fn backends() -> Vec<&'static str> {
    let mut v = vec!["flate2", "flate2-gzip"];
    if cfg!(any(feature = "isal-system", feature = "isal-static")) {
        v.push("isal");
    }
    if cfg!(feature = "libdeflate") {
        v.push("libdeflate");
    }
    if cfg!(feature = "zune") {
        v.push("zune");
    }
    if cfg!(feature = "rapidgzip") {
        v.extend(["rapidgzip1", "rapidgzip2"]);
    }
    v
}

fn run(backend: &str, path: &str) -> Res {
    let file = || std::fs::File::open(path).map(|f| BufReader::with_capacity(BUF, f));
    match backend {
        "flate2" => drain(flate2::read::MultiGzDecoder::new(file()?)),
        // The backend's own gzip decoding (header, CRC and length checked by zlib-rs or
        // zlib-ng as it inflates), driven through flate2's `Decompress`, 256 KiB at a time.
        "flate2-gzip" => own_gzip(std::fs::File::open(path)?),
        #[cfg(any(feature = "isal-system", feature = "isal-static"))]
        "isal" => drain(isal::read::GzipDecoder::new(file()?)),
        #[cfg(feature = "libdeflate")]
        "libdeflate" => {
            let data = std::fs::read(path)?;
            let mut out = vec![0u8; isize_of(&data)];
            let n = libdeflater::Decompressor::new().gzip_decompress(&data, &mut out)?;
            Ok(n as u64)
        }
        #[cfg(feature = "zune")]
        "zune" => {
            let data = std::fs::read(path)?;
            let opts = zune_inflate::DeflateOptions::default()
                .set_limit(isize_of(&data) + 1)
                .set_size_hint(isize_of(&data));
            let out = zune_inflate::DeflateDecoder::new_with_options(&data, opts)
                .decode_gzip()
                .map_err(|e| format!("{e:?}"))?;
            Ok(out.len() as u64)
        }
        #[cfg(feature = "rapidgzip")]
        "rapidgzip1" | "rapidgzip2" => {
            let threads = if backend == "rapidgzip1" { 1 } else { 2 };
            let d = rapidgzip_core::Decoder::builder()
                .decoder_threads(threads)
                .build()?;
            drain(d.open(path)?)
        }
        other => Err(format!("no backend {other} in this build ({})", backends().join(" ")).into()),
    }
}

/// The inflated size a single-member gzip file's trailer gives.
#[cfg(any(feature = "libdeflate", feature = "zune"))]
fn isize_of(data: &[u8]) -> usize {
    let t = &data[data.len().saturating_sub(4)..];
    u32::from_le_bytes(t.try_into().unwrap_or([0; 4])) as usize
}

fn own_gzip(mut f: std::fs::File) -> Res {
    use flate2::{Decompress, FlushDecompress, Status};
    let mut d = Decompress::new_gzip(15);
    let mut input = vec![0u8; 1 << 18];
    let mut out = vec![0u8; 1 << 18];
    let (mut start, mut end) = (0, 0);
    let mut total = 0u64;
    loop {
        if start == end {
            end = f.read(&mut input)?;
            start = 0;
            if end == 0 {
                return Err("gzip stream ends early".into());
            }
        }
        let (i0, o0) = (d.total_in(), d.total_out());
        let st = d.decompress(&input[start..end], &mut out, FlushDecompress::None)?;
        start += (d.total_in() - i0) as usize;
        total += d.total_out() - o0;
        if st == Status::StreamEnd {
            // One member: another may follow.
            if start == end {
                end = f.read(&mut input)?;
                start = 0;
                if end == 0 {
                    return Ok(total);
                }
            }
            d.reset(true);
            d = Decompress::new_gzip(15);
        }
    }
}

fn drain(mut r: impl Read) -> Res {
    let mut buf = vec![0u8; BUF];
    let mut total = 0u64;
    loop {
        match r.read(&mut buf)? {
            0 => return Ok(total),
            n => total += n as u64,
        }
    }
}
