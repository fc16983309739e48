//! Fuzzes the monitor / e2e text-line parser.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mglint::model::Provenance;

fuzz_target!(|data: &[u8]| {
    let prov = Provenance::detached("fuzz", "test.log");
    let _ = mglint::ingest::textlog::parse_text_log(data, &prov);
});
