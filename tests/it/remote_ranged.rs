//! A must-gather archive read by range requests (tests/remote_support's server answers them
//! as GCS does): a CI job whose ClusterVersion and CVO log are only in its generated
//! `must-gather.tar` is analysed with about a quarter of the archive's bytes fetched, with
//! the same findings as when the archive is downloaded whole; a server that refuses ranges,
//! a compressed archive and archives with hostile headers are downloaded whole, in a bounded
//! number of requests, with the same answer.

use crate::remote_support;

use mglint::remote::{self, FetchOptions};
use mglint::vocab::kind::classify_path;
use remote_support::job::*;
use remote_support::server::{Behaviour, Server};
use serde_json::Value;
use std::io::Read;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The generated archive's size: a few MB, as the 200 MB case in small.
const MG_BYTES: u64 = 4 << 20;

fn options(server: &Server, cache: &Path) -> FetchOptions {
    remote_support::fetch_options(server, cache, Duration::from_secs(20))
}

fn job_url() -> String {
    format!("gs://{BUCKET}/{JOB}")
}

/// `mglint analyze URL --format json` against the server, with `extra` flags: the report
/// without the fields that describe the files read rather than the answer.
fn analyze(server: &Server, cache: &Path, extra: &[&str]) -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args([
            "analyze",
            "--format",
            "json",
            "--no-config",
            "--gcs-endpoint",
        ])
        .arg(&server.endpoint)
        .arg("--cache-dir")
        .arg(cache)
        .args(["--timeout", "20"])
        .args(extra)
        .arg(job_url())
        .output()
        .unwrap();
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let m = v.as_object_mut().unwrap();
    m.remove("inputs");
    m.remove("unread");
    v
}

/// The members of a tar, by path, with their data.
fn members(tar: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut a = tar::Archive::new(tar);
    a.entries()
        .unwrap()
        .map(|e| {
            let mut e = e.unwrap();
            let p = e.path().unwrap().to_string_lossy().to_string();
            let mut d = Vec::new();
            e.read_to_end(&mut d).unwrap();
            (p, d)
        })
        .collect()
}

#[test]
fn a_must_gather_tar_is_analysed_from_about_a_quarter_of_its_bytes_with_the_same_findings() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let mg = build_must_gather_job(&job, MG_BYTES);
    let tar_bytes = std::fs::read(job.join(&mg)).unwrap();
    let size = tar_bytes.len() as u64;
    // The scenario is the issue's: the members the analysis reads are about a tenth.
    let all = members(&tar_bytes);
    let wanted: Vec<&(String, Vec<u8>)> = all
        .iter()
        .filter(|(p, _)| classify_path(p).is_some())
        .collect();
    let wanted_bytes: u64 = wanted.iter().map(|(_, d)| d.len() as u64).sum();
    let share = wanted_bytes as f64 / size as f64;
    assert!((0.07..0.14).contains(&share), "wanted share {share:.3}");
    assert!(all.len() > 200, "{} members", all.len());

    let server = Server::start(1000);
    server.keep_alive();
    server.put_dir(BUCKET, JOB, &job);
    let r = remote::fetch(&job_url(), &options(&server, &tmp.path().join("a"))).unwrap();
    assert_eq!(r.archives.len(), 1, "{:?}", r.archives);
    let a = &r.archives[0];
    assert_eq!(
        (a.path.as_str(), a.size, a.whole.as_deref()),
        (mg.as_str(), size, None)
    );
    assert_eq!(a.members, all.len() as u64);
    assert_eq!(a.kept, wanted.len() as u64);
    eprintln!(
        "{} of {} members, {} of {size} bytes ({:.1} %), {} requests; wanted data {:.1} %",
        a.kept,
        a.members,
        a.fetched,
        a.fetched as f64 * 100.0 / size as f64,
        a.requests,
        share * 100.0
    );
    // Counted bytes, not time: the client's count is the server's. The target is a
    // quarter; with a tenth wanted this archive takes 24.2 % (parts the size of a member's
    // header blocks, 1.5 KiB here, doubling to 3 KiB over runs of small members: the headers
    // of 349 members cost 14 % beside the wanted 10 %; fixed 4 KiB windows took 26.4 %, see
    // `remote::ranged::MIN_WINDOW`). The bound here is the target, and fails on any regression.
    let others: u64 = r.bytes - a.fetched;
    assert_eq!(
        server.object_bytes(),
        r.bytes,
        "client and server count the same bytes"
    );
    assert!(
        a.fetched as f64 <= size as f64 * 0.25,
        "{} of {size} bytes fetched",
        a.fetched
    );
    assert!(others < 20_000, "{others}");
    assert!(r.fetched > r.bytes, "the listing counts too");
    // The requests are bounded: fewer than the members.
    assert!(a.requests < all.len() as u64, "{} requests", a.requests);
    assert_eq!(server.range_gets() as u64, a.requests);
    eprintln!(
        "{} of {} members, {} of {size} bytes ({:.1} %), {} requests; wanted data {:.1} %",
        a.kept,
        a.members,
        a.fetched,
        a.fetched as f64 * 100.0 / size as f64,
        a.requests,
        share * 100.0
    );
    // The local copy is a tar of exactly the wanted members, byte for byte.
    let local = std::fs::read(r.local_dir.join(&mg)).unwrap();
    let got = members(&local);
    let want: Vec<(String, Vec<u8>)> = wanted.into_iter().cloned().collect();
    assert_eq!(got, want);

    // A second fetch reuses the partial copy: no object is fetched again.
    let before = server.object_bytes();
    let again = remote::fetch(&job_url(), &options(&server, &tmp.path().join("a"))).unwrap();
    assert_eq!((again.downloaded, again.bytes), (0, 0));
    assert_eq!(server.object_bytes(), before);

    // `fetch --format json` says the same, in its published schema.
    let before = server.object_bytes();
    let out = tmp.path().join("fetched");
    let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args([
            "fetch",
            "--format",
            "json",
            "--timeout",
            "20",
            "--gcs-endpoint",
        ])
        .arg(&server.endpoint)
        .arg("-o")
        .arg(&out)
        .arg(job_url())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schemas/fetch.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    assert!(v.is_valid(&doc), "{doc}");
    assert_eq!(doc["object_bytes"], server.object_bytes() - before);
    assert!(doc["fetched_bytes"].as_u64() > doc["object_bytes"].as_u64());
    assert_eq!(doc["archives"][0]["kept"], a.kept);
    assert_eq!(doc["archives"][0]["whole"], Value::Null);

    // The analysis: the same answer from the members as from the whole archive.
    let before = server.object_bytes();
    let ranged = analyze(&server, &tmp.path().join("b"), &[]);
    let ranged_bytes = server.object_bytes() - before;
    let before = server.object_bytes();
    let whole = analyze(&server, &tmp.path().join("c"), &["--whole-archives"]);
    let whole_bytes = server.object_bytes() - before;
    assert!(
        ranged_bytes as f64 <= size as f64 * 0.25,
        "{ranged_bytes} of {size}"
    );
    assert!(whole_bytes > size, "{whole_bytes}");
    assert_eq!(ranged, whole);
    let findings = ranged["findings"].as_array().unwrap();
    assert!(
        findings
            .iter()
            .any(|f| f["code"].as_str().is_some_and(|c| !c.is_empty())),
        "the job has findings: {ranged}"
    );
    assert_eq!(ranged["cluster"]["to"], TO, "{}", ranged["cluster"]);
}

#[test]
fn ranges_refused_or_a_compressed_archive_fall_back_to_the_whole_download() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let mg = build_must_gather_job(&job, 1 << 20);
    let size = std::fs::metadata(job.join(&mg)).unwrap().len();
    let server = Server::start(1000);
    server.put_dir(BUCKET, JOB, &job);
    let with_ranges = analyze(&server, &tmp.path().join("a"), &[]);
    server.refuse_ranges();
    let r = remote::fetch(&job_url(), &options(&server, &tmp.path().join("b"))).unwrap();
    let a = &r.archives[0];
    assert_eq!(
        (a.fetched, a.requests, a.whole.as_deref()),
        (
            size,
            1,
            Some("the server answered a range request with the whole object")
        )
    );
    assert_eq!(
        std::fs::read(r.local_dir.join(&mg)).unwrap(),
        std::fs::read(job.join(&mg)).unwrap()
    );
    let refused = analyze(&server, &tmp.path().join("c"), &[]);
    assert_eq!(refused, with_ranges);

    // A gzip-compressed archive named `.tar`: its first part says so, and it comes whole.
    let server = Server::start(1000);
    let gz_job = tmp.path().join("gz");
    build_must_gather_job(&gz_job, 256 << 10);
    let plain = std::fs::read(gz_job.join(&mg)).unwrap();
    std::fs::write(gz_job.join(&mg), gz(&plain)).unwrap();
    server.put_dir(BUCKET, JOB, &gz_job);
    let r = remote::fetch(&job_url(), &options(&server, &tmp.path().join("d"))).unwrap();
    let a = &r.archives[0];
    assert!(a.whole.is_some(), "{a:?}");
    assert_eq!(r.failed, []);
}

/// Serves a job of a `prowjob.json` and `tar` at the job-relative path `mg`.
fn serve_tar_job(server: &Server, mg: &str, tar: Vec<u8>) {
    server.put(
        BUCKET,
        &format!("{JOB}/prowjob.json"),
        prowjob_json().into_bytes(),
        Behaviour::Normal,
    );
    server.put(BUCKET, &format!("{JOB}/{mg}"), tar, Behaviour::Normal);
}

/// The tar header of one member named `name` claiming `size` (the size field as given).
fn raw_header(name: &str, size_field: &[u8; 12]) -> Vec<u8> {
    let mut h = [0u8; 512];
    h[..name.len()].copy_from_slice(name.as_bytes());
    h[100..108].copy_from_slice(b"0000644\0");
    h[124..136].copy_from_slice(size_field);
    h[156] = b'0';
    h[257..263].copy_from_slice(b"ustar\0");
    h[263..265].copy_from_slice(b"00");
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|b| u32::from(*b)).sum();
    h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
    h.to_vec()
}

#[test]
fn hostile_archive_headers_cost_a_bounded_number_of_requests() {
    let mg = format!("{T}/gather-must-gather/artifacts/must-gather.tar");
    let cv = format!(
        "{MG_ROOT}/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml"
    );
    let good = must_gather_tar(256 << 10);
    // A member claiming far more bytes than the archive holds; a size field of garbage; a
    // header whose checksum is wrong; each after a valid member, then the good archive.
    let mut huge = raw_header(&cv, b"77777777777\0");
    huge.extend_from_slice(&good);
    let mut garbage = raw_header(&cv, b"-1x\0\0\0\0\0\0\0\0\0");
    garbage.extend_from_slice(&good);
    let mut bad_sum = raw_header(&cv, b"00000000010\0");
    bad_sum[0] ^= 1;
    bad_sum.extend_from_slice(&good);
    for (what, data) in [
        ("huge size", huge),
        ("garbage size", garbage),
        ("bad checksum", bad_sum),
    ] {
        let server = Server::start(100);
        let tmp = tempfile::tempdir().unwrap();
        serve_tar_job(&server, &mg, data.clone());
        let r = remote::fetch(&job_url(), &options(&server, tmp.path())).unwrap();
        let a = &r.archives[0];
        assert!(a.whole.is_some(), "{what}: {a:?}");
        assert!(
            server.range_gets() <= 2,
            "{what}: {} range requests",
            server.range_gets()
        );
        assert_eq!(
            std::fs::read(r.local_dir.join(&mg)).unwrap(),
            data,
            "{what}: the whole archive, as served"
        );
    }
    // Many tiny members: the requests stay under the bound, the rest is asked for in one.
    let mut b = tar::Builder::new(Vec::new());
    for i in 0..1300 {
        let mut h = tar::Header::new_ustar();
        h.set_size(0);
        h.set_mode(0o644);
        b.append_data(
            &mut h,
            format!(
                "x/{i:05}/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/y/z/{}",
                "n".repeat(60)
            ),
            std::io::empty(),
        )
        .unwrap();
        let mut h = tar::Header::new_ustar();
        h.set_size(5000);
        h.set_mode(0o644);
        b.append_data(&mut h, format!("x/{i:05}.log"), &[b'x'; 5000][..])
            .unwrap();
    }
    let data = b.into_inner().unwrap();
    let server = Server::start(100);
    server.keep_alive();
    let tmp = tempfile::tempdir().unwrap();
    serve_tar_job(&server, &mg, data.clone());
    let r = remote::fetch(&job_url(), &options(&server, tmp.path())).unwrap();
    let a = &r.archives[0];
    let bound = remote::max_range_requests(data.len() as u64);
    assert_eq!(a.whole, None);
    assert_eq!(a.members, 2600);
    assert_eq!(
        a.requests,
        bound + 1,
        "the rest in one request after the bound"
    );
    assert_eq!(a.kept, 0);
}
