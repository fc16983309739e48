//! Fuzzes mglint's own tar reader directly: headers, PAX records, GNU long names and sparse
//! headers, then every entry's data, with no decompression or classification in the way.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mglint::source::tar::TarReader;
use std::io::Read;

fuzz_target!(|data: &[u8]| {
    let mut t = TarReader::new(data);
    let mut sink = Vec::new();
    // Every entry is at least one block, so the loop ends; the bound only keeps runs short.
    for _ in 0..10_000 {
        match t.next_entry() {
            Ok(Some(_)) => {
                sink.clear();
                let _ = t.data().take(1 << 20).read_to_end(&mut sink);
            }
            Ok(None) | Err(_) => break,
        }
    }
});
