//! Decompresses a file to nothing with the decoders mglint itself uses (same crates, same
//! backends, same buffer sizes), and prints the decompressed size: the reference
//! `bench/run.sh` measures archive reading against.
//!
//! `cargo run --release --example inflate -- FILE`

use std::io::{BufReader, Read};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: inflate FILE");
        std::process::exit(2);
    };
    let f = std::fs::File::open(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let mut r = BufReader::with_capacity(1 << 16, f);
    let mut head = [0u8; 512];
    let n = r.read(&mut head).unwrap_or(0);
    let magic = mglint::source::sniff::sniff(&head[..n]);
    let whole = std::io::Cursor::new(head[..n].to_vec()).chain(r);
    let mut d = match mglint::source::sniff::decoder(magic, whole, 2 << 30) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    // In the calls mglint's inflating thread makes (`source::ahead`).
    let mut buf = vec![0u8; mglint::source::gzip::CALL];
    let mut total = 0u64;
    loop {
        match d.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => total += k as u64,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
        }
    }
    eprintln!("inflater: {}", mglint::source::gzip::INFLATER);
    println!("{total}");
}
