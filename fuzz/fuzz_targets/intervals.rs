//! Fuzzes the interval JSON parser (all schema generations).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mglint::model::Provenance;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let prov = Provenance::file(&Arc::from("fuzz"), &Arc::from("e2e-events_1.json"));
    let _ = mglint::ingest::intervals::parse_intervals(data, &prov);
});
