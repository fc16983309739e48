//! Fuzzes the interval JSON parser (all schema generations).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mglint::model::Provenance;

fuzz_target!(|data: &[u8]| {
    let prov = Provenance::detached("fuzz", "e2e-events_1.json");
    let _ = mglint::ingest::intervals::parse_intervals(data, &prov);
});
