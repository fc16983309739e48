//! Differential fuzzing of the CVO log's parse in blocks (`ingest::klog::blocks`: blocks
//! parsed side by side, each later one from the first one's predictions, joined in order):
//! a log parsed in blocks of 64 bytes to 8 KiB on one to four threads (the first input byte
//! chooses) has the records of the same log parsed line by line, before and after its years
//! are resolved.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mglint::model::{CvoLog, Provenance, Time, YearInference, parse_rfc3339};
use mglint::vocab::mg_path::LogFile;
use std::sync::OnceLock;

/// Pools of one to four threads, made once.
static POOLS: OnceLock<Vec<rayon::ThreadPool>> = OnceLock::new();

type Record = (Option<Time>, char, String, u32, u64, u32);

fn records(log: &CvoLog) -> Vec<Record> {
    log.records
        .iter()
        .map(|r| {
            (
                r.time,
                r.level,
                r.message.to_string(),
                r.line,
                r.offset,
                r.len,
            )
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, log)) = data.split_first() else {
        return;
    };
    let block = 64usize << (choice % 8);
    let pools = POOLS.get_or_init(|| {
        (1..=4)
            .map(|n| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .unwrap()
            })
            .collect()
    });
    let pool = &pools[usize::from(choice >> 3) % 4];
    let prov = Provenance::detached("fuzz", "current.log");
    let (mut seq, _) =
        mglint::ingest::klog::parse_cvo_log(log, prov.clone(), "cvo".into(), LogFile::Current);
    let mut par = pool
        .install(|| mglint::ingest::klog::parse_cvo_log_in_blocks(log, block, prov, "cvo".into()));
    assert_eq!(records(&seq), records(&par), "blocks of {block} bytes");
    let years = YearInference::new(parse_rfc3339("2020-01-01T00:00:00Z"));
    mglint::ingest::klog::resolve_times(&mut seq, &years);
    mglint::ingest::klog::resolve_times(&mut par, &years);
    assert_eq!(
        records(&seq),
        records(&par),
        "blocks of {block} bytes, years resolved"
    );
});
