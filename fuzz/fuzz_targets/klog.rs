//! Fuzzes the CVO (klog) log parser and year resolution.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mglint::model::{Provenance, YearInference, parse_rfc3339};
use mglint::vocab::mg_path::LogFile;

fuzz_target!(|data: &[u8]| {
    let prov = Provenance::detached("fuzz", "current.log");
    let (mut log, _) =
        mglint::ingest::klog::parse_cvo_log(data, prov, "cvo".into(), LogFile::Current);
    mglint::ingest::klog::resolve_times(
        &mut log,
        &YearInference::new(parse_rfc3339("2020-01-01T00:00:00Z")),
    );
    let _ = log.span();
});
