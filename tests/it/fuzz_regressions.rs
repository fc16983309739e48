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

#[test]
fn klog_blocks_impossible_day_at_a_block_boundary() {
    // `klog_blocks`: a header whose day is 93 (`I0893`) began a block of 128 bytes. The line
    // parser skips it and the line after it; the block parse made the record before run over
    // both (its length), and a block beginning after it took the skipped line as that record's
    // continuation (its message).
    use mglint::vocab::mg_path::LogFile;
    let data = input("klog-blocks-impossible-day.log");
    let prov = Provenance::detached("fuzz", "current.log");
    let (seq, note) =
        mglint::ingest::klog::parse_cvo_log(&data, prov.clone(), "cvo".into(), LogFile::Current);
    assert!(note.is_some_and(|n| n.contains("1 line with an invalid timestamp")));
    let records = |log: &mglint::model::CvoLog| -> Vec<(u32, u64, u32, String)> {
        log.records
            .iter()
            .map(|r| (r.line, r.offset, r.len, r.message.to_string()))
            .collect()
    };
    let want = records(&seq);
    // The record before the impossible header is its own line alone.
    let before = want.iter().find(|r| r.0 == 16).unwrap();
    assert_eq!((before.2, before.3.contains("skipped")), (127, false));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for block in [64, 128, 256, 1 << 20] {
            let par = pool.install(|| {
                mglint::ingest::klog::parse_cvo_log_in_blocks(
                    &data,
                    block,
                    prov.clone(),
                    "cvo".into(),
                )
            });
            assert_eq!(
                records(&par),
                want,
                "blocks of {block} on {threads} threads"
            );
        }
    }
}
