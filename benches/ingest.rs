//! Ingestion benchmark on the real must-gathers in ../shared/corpus (as `.tar.xz` and
//! unpacked). Prints wall time (best and median of several runs), files and bytes read.
//! Run with `cargo bench --bench ingest`. Not a test: nothing here asserts on time.

use mglint::ingest::{IngestOptions, ingest};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn unpack(archive: &Path, dest: &Path) {
    let f = std::fs::File::open(archive).expect("open archive");
    let mut a = tar::Archive::new(liblzma::read::XzDecoder::new(f));
    a.unpack(dest).expect("unpack");
}

fn du(p: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![p.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let m = e.metadata().unwrap();
            if m.is_dir() {
                stack.push(e.path());
            } else {
                total += m.len();
            }
        }
    }
    total
}

fn measure(label: &str, input: &str, runs: usize) {
    let mut times: Vec<Duration> = Vec::new();
    let mut read = (0, 0, 0);
    for _ in 0..runs {
        let t = Instant::now();
        let b = ingest(&[input.to_string()], &IngestOptions::default()).expect("ingest");
        times.push(t.elapsed());
        let i = &b.inputs[0];
        read = (i.files_seen, i.files_read, i.bytes_read);
    }
    times.sort();
    let best = times[0];
    let median = times[times.len() / 2];
    println!(
        "{label:<34} best {:>8.1} ms  median {:>8.1} ms  {:>5} files seen  {:>3} parsed  {:>6.1} MB parsed  {:>7.1} MB/s parsed",
        best.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e3,
        read.0,
        read.1,
        read.2 as f64 / 1e6,
        read.2 as f64 / 1e6 / best.as_secs_f64()
    );
}

fn main() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/must-gathers");
    if !corpus.is_dir() {
        println!("../shared/corpus/must-gathers not found; nothing to measure");
        return;
    }
    println!("threads: {}", rayon::current_num_threads());
    for name in ["must-gather-aws", "must-gather-metal"] {
        let archive = corpus.join(format!("{name}.tar.xz"));
        let tmp = tempfile::tempdir().expect("tempdir");
        unpack(&archive, tmp.path());
        println!(
            "{name}: {:.1} MB unpacked, {:.1} MB as .tar.xz",
            du(tmp.path()) as f64 / 1e6,
            std::fs::metadata(&archive).map(|m| m.len()).unwrap_or(0) as f64 / 1e6
        );
        measure(
            &format!("{name} (directory)"),
            tmp.path().to_str().unwrap(),
            15,
        );
        measure(&format!("{name} (.tar.xz)"), archive.to_str().unwrap(), 5);
    }
}
