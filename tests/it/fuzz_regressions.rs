//! Inputs the fuzzers found crashing, kept as regression tests: each must parse without a
//! panic (and give the result stated).

use mglint::model::Provenance;

fn input(name: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fuzz_regressions")
            .join(name),
    )
    .unwrap()
}

#[test]
fn textlog_time_field_with_multibyte_characters() {
    // `Jan 01 00:0ÿ…`: the time field held a multi-byte character; slicing the str panicked.
    let prov = Provenance::detached("fuzz", "test.log");
    let lines =
        mglint::ingest::textlog::parse_text_log(&input("textlog-multibyte-time.bin"), &prov);
    assert!(
        lines
            .iter()
            .all(|l| !l.message.is_empty() || l.kind == mglint::model::TextLineKind::Info)
    );
    assert!(
        mglint::ingest::textlog::parse_line("Jan 01 00:0\u{ff}:40.447 W clusterversion/version x")
            .is_none()
    );
    assert!(
        mglint::ingest::textlog::parse_line("Jan 01 0é:01:40.447 W clusterversion/version x")
            .is_none()
    );
}
