//! Fuzzes the archive reader (tar, gzip, xz, nesting) with small caps.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mglint::source::{SourceOptions, collect_bytes};

fuzz_target!(|data: &[u8]| {
    let opts = SourceOptions {
        max_file_bytes: 1 << 20,
        max_archive_bytes: 8 << 20,
        max_nesting: 2,
        ..SourceOptions::default()
    };
    let c = collect_bytes("fuzz.tar", data.to_vec(), &opts);
    for f in c.files {
        let _ = f.load(&opts);
    }
});
