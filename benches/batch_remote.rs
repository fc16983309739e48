//! Batch at scale against the loopback GCS look-alike (tests/remote_support): 1,000 generated
//! CI upgrade jobs served by the project's test server and analysed by `mglint batch` (the
//! release binary, `-j 2`, a fresh cache each run): jobs per second, bytes fetched per job
//! (the rows' `fetched_bytes`), peak RSS (GNU time), and their growth from 100 to 1,000 jobs;
//! then one job whose ClusterVersion and CVO log are only in a 200 MB generated
//! `must-gather.tar`: the bytes fetched by range requests as a share of the archive, against
//! downloading it whole. `cargo bench --bench batch_remote` (`MGLINT_BENCH_JOBS`, default
//! 1000; `MGLINT_BENCH_MG_MB`, default 200; 0 for none). Not a test: nothing asserts on time.

#[path = "../tests/remote_support/mod.rs"]
#[allow(dead_code)]
mod remote_support;

use remote_support::job::{BUCKET, JOB, build_job, build_must_gather_job};
use remote_support::server::Server;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `batch` over the first `n` jobs with a fresh cache: (seconds, peak KB, bytes fetched
/// per job, rows).
fn batch(server: &Server, tmp: &Path, n: usize) -> (f64, u64, f64, usize) {
    let list = tmp.join(format!("jobs-{n}.txt"));
    let urls: String = (0..n)
        .map(|i| format!("gs://{BUCKET}/{JOB}{i:04}\n"))
        .collect();
    std::fs::write(&list, urls).unwrap();
    let cache = tmp.join(format!("cache-{n}"));
    let rows = tmp.join(format!("rows-{n}.jsonl"));
    let time = tmp.join("time.txt");
    let t = Instant::now();
    let status = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%e %M")
        .arg("-o")
        .arg(&time)
        .arg(env!("CARGO_BIN_EXE_mglint"))
        .args([
            "batch",
            "-j",
            "2",
            "--no-progress",
            "--gcs-endpoint",
            &server.endpoint,
        ])
        .arg("--cache-dir")
        .arg(&cache)
        .arg("--output")
        .arg(&rows)
        .arg("--from")
        .arg(&list)
        .status()
        .expect("run mglint batch under GNU time");
    let secs = t.elapsed().as_secs_f64();
    assert!(
        matches!(status.code(), Some(0 | 1)),
        "batch failed: {status}"
    );
    let peak_kb: u64 = std::fs::read_to_string(&time)
        .unwrap_or_default()
        .lines()
        .last()
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0);
    let text = std::fs::read_to_string(&rows).unwrap();
    let mut bytes = 0u64;
    let mut count = 0;
    for l in text.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        bytes += v["fetched_bytes"].as_u64().unwrap_or(0);
        count += 1;
    }
    let _ = std::fs::remove_dir_all(&cache);
    (secs, peak_kb, bytes as f64 / n as f64, count)
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

fn main() {
    let jobs = env_u64("MGLINT_BENCH_JOBS", 1000) as usize;
    let mg_mb = env_u64("MGLINT_BENCH_MG_MB", 200);
    let tmp = tempfile::tempdir().expect("tempdir");
    let server = Server::start_for(1000, Duration::from_secs(6 * 3600), usize::MAX);
    server.keep_alive();
    // One realistic upgrade job (gather-extra with its ClusterVersion, the CVO log, JUnit,
    // intervals, a must-gather archive left deferred), served under `jobs` build ids.
    let job = tmp.path().join("job");
    build_job(&job, true);
    let mut files = Vec::new();
    let mut stack = vec![job.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(&job)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                files.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    let job_bytes: usize = files.iter().map(|(_, d)| d.len()).sum();
    for i in 0..jobs {
        for (rel, data) in &files {
            server.put(
                BUCKET,
                &format!("{JOB}{i:04}/{rel}"),
                data.clone(),
                remote_support::server::Behaviour::Normal,
            );
        }
    }
    println!(
        "{jobs} CI jobs served by the loopback GCS look-alike ({} objects, {job_bytes} bytes each); mglint batch -j 2, fresh cache",
        files.len()
    );
    println!(
        "{} cores, load average {} before the runs",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load()
    );
    println!(
        "{:>6}  {:>8}  {:>8}  {:>16}  {:>10}",
        "jobs", "seconds", "jobs/s", "bytes/job", "peak RSS"
    );
    let mut first: Option<(usize, f64, u64)> = None;
    for n in [jobs.min(100), jobs] {
        let (secs, kb, per_job, rows) = batch(&server, tmp.path(), n);
        assert_eq!(rows, n);
        println!(
            "{n:>6}  {secs:>8.2}  {:>8.1}  {per_job:>16.0}  {:>7} MB",
            n as f64 / secs,
            kb / 1024
        );
        match first {
            None => first = Some((n, secs, kb)),
            Some((n0, s0, kb0)) if n0 != n => println!(
                "growth {n0} -> {n} jobs ({:.0}x): time {:.2}x, peak RSS {:.2}x",
                n as f64 / n0 as f64,
                secs / s0,
                kb as f64 / kb0.max(1) as f64
            ),
            Some(_) => {}
        }
    }
    if mg_mb == 0 {
        return;
    }
    // The must-gather archive job: fetched by range requests against downloaded whole.
    let mg_job = tmp.path().join("mg-job");
    let mg = build_must_gather_job(&mg_job, mg_mb << 20);
    let size = std::fs::metadata(mg_job.join(&mg)).unwrap().len();
    let prefix = format!("{JOB}mg");
    server.put_dir(BUCKET, &prefix, &mg_job);
    let _ = std::fs::remove_dir_all(&mg_job);
    let url = format!("gs://{BUCKET}/{prefix}");
    let opts = |cache: &str, whole| mglint::remote::FetchOptions {
        endpoint: server.endpoint.clone(),
        cache_dir: tmp.path().join(cache),
        whole_archives: whole,
        ..Default::default()
    };
    let t = Instant::now();
    let r = mglint::remote::fetch(&url, &opts("mg-ranged", false)).expect("ranged fetch");
    let ranged_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let w = mglint::remote::fetch(&url, &opts("mg-whole", true)).expect("whole fetch");
    let whole_s = t.elapsed().as_secs_f64();
    let a = &r.archives[0];
    println!();
    println!(
        "must-gather.tar of {size} bytes ({} members): {} members fetched by range requests, {} bytes = {:.1} % of the tar in {} requests, {ranged_s:.2} s; whole: {} bytes, {whole_s:.2} s",
        a.members,
        a.kept,
        a.fetched,
        a.fetched as f64 * 100.0 / size as f64,
        a.requests,
        w.bytes
    );
    println!("load average after: {}", load());
}
