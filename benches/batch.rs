//! Batch benchmark: jobs per second of `mglint batch` (ingest, timeline, rules and one row per
//! job) over N job directories generated from the fixtures (the two CI jobs and the three
//! must-gathers in turn), with 1 and 2 worker threads. Prints a small table. Run with
//! `cargo bench --bench batch` (N from `MGLINT_BENCH_JOBS`, default 200; runs per thread count
//! from `MGLINT_BENCH_RUNS`, default 5). Not a test: nothing here asserts on time.

use mglint::batch::{BatchOptions, Previous, run_to};
use std::path::Path;
use std::time::{Duration, Instant};

const FIXTURES: [&str; 5] = [
    "ci/seed2-rollback-4.3",
    "ci/modern-upgrade-4.14",
    "must-gather/seed1-blocked",
    "must-gather/seed1-returned",
    "must-gather/fixed-cvo-rejected-4.14",
];

fn copy_tree(from: &Path, to: &Path) -> u64 {
    std::fs::create_dir_all(to).expect("create dir");
    let mut bytes = 0;
    for e in std::fs::read_dir(from).expect("read fixture dir").flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            bytes += copy_tree(&src, &dst);
        } else {
            bytes += std::fs::copy(&src, &dst).expect("copy fixture file");
        }
    }
    bytes
}

/// CPU seconds (user + system) this process has used so far, from `/proc/self/stat` (Linux;
/// 0 elsewhere). Ticks are USER_HZ, 100 on every Linux platform that matters.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the `(comm)`: state is field 3, utime 14, stime 15.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

/// The 1-minute load average (Linux), to judge how busy the machine was.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(default)
}

fn main() {
    let jobs = env_usize("MGLINT_BENCH_JOBS", 200);
    let runs = env_usize("MGLINT_BENCH_RUNS", 5);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut bytes = 0;
    let inputs: Vec<String> = (0..jobs)
        .map(|i| {
            let dir = tmp.path().join(format!("job-{i:04}"));
            bytes += copy_tree(&root.join(FIXTURES[i % FIXTURES.len()]), &dir);
            dir.to_string_lossy().to_string()
        })
        .collect();
    println!(
        "{jobs} job directories ({:.1} MB; copies of {} fixtures in turn), best and median of {runs} runs",
        bytes as f64 / 1e6,
        FIXTURES.len()
    );
    println!(
        "{} cores, load average {} before the runs",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load()
    );
    println!(
        "{:>7}  {:>10}  {:>10}  {:>9}  {:>7}  {:>13}",
        "threads", "best s", "median s", "jobs/s", "speedup", "cpu ms / job"
    );
    let mut base = None;
    let mut outputs: Vec<Vec<u8>> = Vec::new();
    for threads in [1, 2] {
        let opts = BatchOptions {
            settings: mglint::Settings {
                threads: Some(threads),
                ..Default::default()
            },
            ..BatchOptions::default()
        };
        let mut times: Vec<Duration> = Vec::new();
        let cpu0 = cpu_seconds();
        for _ in 0..runs {
            let mut out = Vec::new();
            let t = Instant::now();
            let run = run_to(&inputs, &opts, &Previous::default(), &mut out).expect("batch");
            times.push(t.elapsed());
            assert_eq!(run.rows, jobs);
            outputs.push(out);
        }
        let cpu_per_job = (cpu_seconds() - cpu0) / (runs * jobs) as f64 * 1e3;
        times.sort();
        let (best, median) = (times[0].as_secs_f64(), times[times.len() / 2].as_secs_f64());
        let rate = jobs as f64 / best;
        let speedup = rate / *base.get_or_insert(rate);
        println!(
            "{threads:>7}  {best:>10.3}  {median:>10.3}  {rate:>9.1}  {speedup:>6.2}x  {cpu_per_job:>13.1}"
        );
    }
    let same = outputs.windows(2).all(|w| w[0] == w[1]);
    println!(
        "rows byte-identical across all runs and thread counts: {same}; load average after: {}",
        load()
    );
}
