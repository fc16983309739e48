//! The folded scan against the scan that applies every record on its own.

use super::super::catalogue::manifest_line;
use super::steps::{FACT_CACHE, ReadRun, SEGMENT_MAX};
use super::*;
use crate::ingest::klog::{parse_cvo_log, parse_cvo_log_in_blocks};
use crate::model::Provenance;
use crate::vocab::wants::LogFile;

/// The scan applying every record on its own, in file order (no runs folded): what the
/// folded scan must leave.
fn scan_one_by_one(log: &CvoLog) -> (Vec<TimelineEvent>, LogScan) {
    let (mut out, mut scan) = (Vec::new(), LogScan::default());
    let mut sc = Scanner::new(log);
    for rec in &log.records {
        let Some(t) = rec.time else { continue };
        let mut one = ReadRun::default();
        if let Some(m) = manifest_line(rec.message) {
            one.add(t, rec, Some(m));
            sc.run(&one, &mut scan, &mut out);
            continue;
        }
        match classify(rec.message) {
            None => {
                one.add(t, rec, None);
                sc.run(&one, &mut scan, &mut out);
            }
            Some(f) => sc.record(t, &rec, &f, &mut scan, &mut out),
        }
    }
    settle_end(&mut sc.st, log, sc.end_rec.take());
    close_instance(&mut sc.st, &mut scan);
    (out, scan)
}

fn folded(log: &CvoLog) -> (Vec<TimelineEvent>, LogScan) {
    let (mut out, mut scan) = (Vec::new(), LogScan::default());
    scan_log(log, &mut out, &mut scan);
    (out, scan)
}

/// A log of restarts, passes (some failing, some cut short by a new pass), manifest lines
/// (many repeated, more than the cached facts distinct), noise, continuation lines, lines
/// without a year (no time until resolved), and times that repeat and go backwards.
fn random_log(lines: usize, seed: u64) -> Vec<u8> {
    let mut rnd = crate::vocab::testing::xorshift(seed);
    let mut out = Vec::new();
    let mut secs: i64 = 0;
    let mut i = 0;
    while i < lines {
        // Mostly forward, at one-second resolution so times repeat; now and then back.
        secs += rnd(3) as i64;
        if rnd(50) == 0 {
            secs -= rnd(20) as i64;
        }
        let s = secs.max(0);
        let (h, m, sec) = (s / 3600 % 24, s / 60 % 60, s % 60);
        let day = 1 + s / 86_400 % 28;
        let msg = match rnd(100) {
            0 => "ClusterVersionOperator v1.0.0-4.6.42".to_string(),
            1 => "successfully acquired lease openshift-cluster-version/version".to_string(),
            2..=5 => format!(
                "Running sync 4.6.{} (force=false) on generation 1 in state Reconciling at attempt {}",
                rnd(3),
                rnd(2)
            ),
            6..=8 => "Result of work: []".to_string(),
            9 => "Result of work: [Cluster operator etcd is degraded]".to_string(),
            10 => "unable to synchronize image (waiting 59.03s): Precondition \"ClusterVersionUpgradeable\" failed because of \"X\": no".to_string(),
            11 => format!("Precreated resource clusteroperator \"co-{}\" (1 of 30)", rnd(5)),
            12 => "Shutting down ClusterVersionOperator".to_string(),
            13 => "Loading payload".to_string(),
            14..=20 => format!("Synced {} items", rnd(10)),
            // Manifest lines: a few hundred repeated names, and names of their own.
            _ => {
                let name = if rnd(4) == 0 {
                    format!("configmap \"ns/own-{i}\"")
                } else {
                    format!("configmap \"ns/cm-{}\"", rnd(300))
                };
                let verb = if rnd(2) == 0 {
                    "Running sync for"
                } else {
                    "Done syncing for"
                };
                format!("{verb} {name} ({} of 680)", rnd(680))
            }
        };
        let header = format!("I06{day:02} {h:02}:{m:02}:{sec:02}.000000       1 x.go:1] {msg}\n");
        if rnd(40) == 0 {
            out.extend_from_slice(header.as_bytes());
        } else {
            out.extend_from_slice(
                format!(
                    "2021-06-{day:02}T{h:02}:{m:02}:{sec:02}.{:09}Z {header}",
                    rnd(3)
                )
                .as_bytes(),
            );
        }
        if rnd(30) == 0 {
            out.extend_from_slice(b"  continued\n");
        }
        i += 1;
    }
    out
}

/// Asserts two lists are the same, naming the first element that differs (the lists are
/// long).
fn same_list<T: std::fmt::Debug>(a: &[T], b: &[T], what: &str) {
    let show = |x: &T| format!("{x:?}");
    if let Some(i) = (0..a.len().min(b.len())).find(|&i| show(&a[i]) != show(&b[i])) {
        panic!("{what}: #{i} differs:\n{}\n{}", show(&a[i]), show(&b[i]));
    }
    assert_eq!(a.len(), b.len(), "{what}: lengths");
}

fn same(log: &CvoLog, what: &str) {
    let ((events, scan), (events_1, scan_1)) = (folded(log), scan_one_by_one(log));
    assert!(
        scan_1.passes.len() > 10 && scan_1.instances.len() > 2,
        "{what}"
    );
    same_list(&events, &events_1, &format!("{what}, events"));
    same_list(&scan.passes, &scan_1.passes, &format!("{what}, passes"));
    same_list(
        &scan.instances,
        &scan_1.instances,
        &format!("{what}, instances"),
    );
}

/// Runs folded as the log is read leave what applying each record leaves: one segment
/// read on one thread and (more than the most read beside others) on two, and many
/// segments read side by side.
#[test]
fn folded_scan_matches_record_by_record() {
    let prov = || Provenance::detached("in", "current.log");
    let data = random_log(80_000, 0x9e37_79b9_7f4a_7c15);
    let whole = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current).0;
    assert!(whole.records.len() > SEGMENT_MAX);
    assert!(
        whole.records.shared() > FACT_CACHE,
        "own messages read with records"
    );
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    one.install(|| same(&whole, "one segment, one thread"));
    two.install(|| same(&whole, "one long segment, two threads"));
    let blocks = two.install(|| parse_cvo_log_in_blocks(&data, 64 << 10, prov(), "cvo".into()));
    assert!(blocks.records.segments().len() > 20);
    two.install(|| same(&blocks, "many segments, two threads"));
    // The folded scan is the same whichever way the log was read.
    let (a, b) = (
        two.install(|| folded(&blocks)),
        one.install(|| folded(&whole)),
    );
    same_list(&a.0, &b.0, "blocks against whole, events");
    same_list(&a.1.passes, &b.1.passes, "blocks against whole, passes");
    same_list(
        &a.1.instances,
        &b.1.instances,
        "blocks against whole, instances",
    );
}

/// `passes` reconcile passes of `manifests` manifests each, as the CVO logs them with
/// `--timestamps`: every pass the same lines, 3 minutes after the pass before, its manifests
/// 4 ms apart (`jitter`: each time a nanosecond or two off that, as a clock's are).
fn steady_log(passes: u64, manifests: u64, jitter: bool) -> Vec<u8> {
    let base = crate::vocab::time::parse_rfc3339("2021-06-01T00:00:00Z").unwrap();
    let mut out = Vec::new();
    let mut line = |nanos: u64, file: &str, msg: &str| {
        let nanos = nanos + if jitter { nanos / 7 % 3 } else { 0 };
        let t = base
            .checked_add_signed(chrono::TimeDelta::nanoseconds(nanos as i64))
            .unwrap()
            .inner();
        let (cri, klog) = (
            t.format("%Y-%m-%dT%H:%M:%S%.9fZ"),
            t.format("%m%d %H:%M:%S%.6f"),
        );
        out.extend_from_slice(format!("{cri} I{klog}       1 {file}] {msg}\n").as_bytes());
    };
    for p in 0..passes {
        let start = p * 180_000_000_000;
        line(
            start,
            "sync_worker.go:515",
            "Running sync 4.6.42 (force=false) on generation 1 in state Reconciling at attempt 0",
        );
        for i in 1..=manifests {
            let t = start + i * 4_000_000;
            let name = format!("configmap \"openshift-dns/dns-{i}\" ({i} of {manifests})");
            line(t, "sync_worker.go:752", &format!("Running sync for {name}"));
            line(
                t + 2_000_000,
                "sync_worker.go:764",
                &format!("Done syncing for {name}"),
            );
        }
        line(
            start + (manifests + 1) * 4_000_000,
            "task_graph.go:555",
            "Result of work: []",
        );
    }
    out
}

/// A year of steady passes costs the store about a byte a line, a nanosecond of jitter in
/// its times included (each line repeats its place in the pass before: message, line,
/// offset, length and time as predicted, the jitter in the same byte), and the scan gives every pass, its events and the
/// instance as applying each record on its own does.
#[test]
fn steady_passes_cost_about_a_byte_a_line_and_scan_as_one_by_one() {
    let prov = || Provenance::detached("in", "current.log");
    let (passes, manifests) = (400, 60);
    for (jitter, most) in [(false, 1.06), (true, 1.06)] {
        let data = steady_log(passes, manifests, jitter);
        let log = parse_cvo_log(&data, prov(), "cvo".into(), LogFile::Current).0;
        let lines = passes * (2 * manifests + 2);
        assert_eq!(log.records.len() as u64, lines);
        let per_line = log.records.coded_bytes() as f64 / lines as f64;
        assert!(per_line < most, "jitter {jitter}: {per_line} bytes a line");
        let (events, scan) = folded(&log);
        let (events_1, scan_1) = scan_one_by_one(&log);
        assert_eq!(scan.passes.len() as u64, passes);
        assert!(scan.passes.iter().all(|p| p.ok == Some(true)
            && p.manifests_done == manifests as u32
            && p.total == Some(manifests as u32)));
        let starts: Vec<i64> = scan
            .passes
            .iter()
            .map(|p| p.start.inner().timestamp())
            .collect();
        let first = starts[0];
        assert!(
            starts
                .iter()
                .enumerate()
                .all(|(i, &s)| s == first + 180 * i as i64)
        );
        same_list(&events, &events_1, "events");
        same_list(&scan.passes, &scan_1.passes, "passes");
        same_list(&scan.instances, &scan_1.instances, "instances");
    }
}

/// A steady log read in blocks costs about a byte a line too: the blocks read once the
/// first is joined (all but the first and, on two threads, the three after it) predict their
/// first pass from what the first block ended with (without that, each block's first pass
/// cost seven bytes a line: 1.39 bytes a line here). Its records read back as the whole log's, on one
/// thread and two, with container times and with klog stamps alone (year-less, resolved and
/// coded again after the parse), and the scan gives the same passes and events.
#[test]
fn a_steady_log_read_in_blocks_costs_a_byte_a_line_and_reads_as_the_whole_log() {
    let prov = || Provenance::detached("in", "current.log");
    let (passes, manifests) = (400, 60);
    let lines = passes * (2 * manifests + 2);
    let with_cri = steady_log(passes, manifests, true);
    // The same lines without the container's time: "2021-06-01T00:00:00.000000000Z ".
    let klog_only: Vec<u8> = with_cri
        .split_inclusive(|&b| b == b'\n')
        .flat_map(|l| l[31..].iter().copied())
        .collect();
    for (data, what, most) in [
        (&with_cri, "container times", 1.08),
        (&klog_only, "klog stamps", 1.08),
    ] {
        // Year-less stamps placed in the year of a reference time, as ingestion does.
        let yi = crate::vocab::time::YearInference::new(Some(
            crate::vocab::time::parse_rfc3339("2021-12-01T00:00:00Z").unwrap(),
        ));
        let resolved = |mut log: CvoLog| {
            log.records.resolve(|p| yi.resolve(p));
            assert!(!log.records.has_partial(), "{what}: stamps resolved");
            log
        };
        let whole = resolved(parse_cvo_log(data, prov(), "cvo".into(), LogFile::Current).0);
        assert_eq!(whole.records.len() as u64, lines, "{what}");
        let (events, scan) = folded(&whole);
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let blocks = resolved(
                pool.install(|| parse_cvo_log_in_blocks(data, 256 << 10, prov(), "cvo".into())),
            );
            assert!(blocks.records.segments().len() > 20, "{what}");
            let per_line = blocks.records.coded_bytes() as f64 / lines as f64;
            let most = most + if threads == 2 { 0.04 } else { 0.0 };
            assert!(
                per_line < most,
                "{what}, {threads} threads: {per_line} bytes a line"
            );
            assert!(
                blocks.records.iter().eq(whole.records.iter()),
                "{what}, {threads} threads: records"
            );
            let (events_b, scan_b) = pool.install(|| folded(&blocks));
            same_list(&events_b, &events, &format!("{what}: events"));
            same_list(&scan_b.passes, &scan.passes, &format!("{what}: passes"));
        }
    }
}
