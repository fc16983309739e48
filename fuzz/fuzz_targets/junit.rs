//! Fuzzes the JUnit XML parser (with ANSI stripping).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mglint::model::Provenance;

fuzz_target!(|data: &[u8]| {
    let prov = Provenance::detached("fuzz", "junit.xml");
    let _ = mglint::ingest::junit::parse_junit(data, &prov);
});
