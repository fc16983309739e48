//! Fuzzes resource YAML/JSON parsing (objects, lists, aggregates, Insights JSON).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mglint::model::Provenance;

fuzz_target!(|data: &[u8]| {
    let prov = Provenance::detached("fuzz", "version.yaml");
    let text = String::from_utf8_lossy(data);
    let _ = mglint::ingest::resources::parse_resources(
        &text,
        "cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml",
        &prov,
    );
});
