//! `mglint batch` with URL inputs served by the loopback GCS look-alike (tests/remote_support):
//! a fetched job gives the same row as the same artifacts on disk, a repeated URL is fetched
//! once, a URL with nothing behind it is an error row, and `--offline` reruns from the cache.

#[allow(dead_code)]
use crate::remote_support;

use remote_support::server::Server;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const MODERN: &str = "logs/periodic-ci-openshift-release-master-ci-4.14-upgrade-from-stable-4.14-e2e-aws-ovn-upgrade/1720455310926909440";
const ROLLBACK: &str = "logs/release-openshift-origin-installer-e2e-aws-upgrade-rollback-4.3/15";

fn fixture(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
        .to_string_lossy()
        .to_string()
}

fn batch(
    server: &Server,
    cache: &Path,
    out: &Path,
    extra: &[&str],
    inputs: &[String],
) -> Vec<Value> {
    let o = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args([
            "batch",
            "-j",
            "2",
            "--gcs-endpoint",
            &server.endpoint,
            "--timeout",
            "20",
            "--cache-dir",
        ])
        .arg(cache)
        .arg("--output")
        .arg(out)
        .args(extra)
        .args(inputs)
        .output()
        .unwrap();
    // Exit 1: the list holds one job that does not exist (an `error` row).
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A row without the fields that name the input.
fn content(row: &Value) -> Value {
    let mut r = row.clone();
    let m = r.as_object_mut().unwrap();
    m.remove("index");
    m.remove("input");
    m.remove("fetched_bytes");
    r
}

#[test]
fn batch_fetches_urls_and_rows_match_the_same_jobs_on_disk() {
    let server = Server::start(3);
    server.put_dir(
        "test-platform-results",
        MODERN,
        Path::new(&fixture("ci/modern-upgrade-4.14")),
    );
    server.put_dir(
        "origin-ci-test",
        ROLLBACK,
        Path::new(&fixture("ci/seed2-rollback-4.3")),
    );
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let inputs = vec![
        format!("https://prow.ci.openshift.org/view/gs/test-platform-results/{MODERN}"),
        fixture("ci/modern-upgrade-4.14"),
        format!("gs://origin-ci-test/{ROLLBACK}"),
        fixture("ci/seed2-rollback-4.3"),
        "gs://origin-ci-test/logs/no-such-job/1".to_string(),
        format!("https://storage.googleapis.com/test-platform-results/{MODERN}/"),
    ];
    let rows = batch(
        &server,
        &cache,
        &tmp.path().join("rows.jsonl"),
        &[],
        &inputs,
    );
    assert_eq!(rows.len(), 6);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r["input"], inputs[i].as_str());
    }
    assert_eq!(
        rows[0]["job"],
        "periodic-ci-openshift-release-master-ci-4.14-upgrade-from-stable-4.14-e2e-aws-ovn-upgrade"
    );
    assert_eq!(rows[0]["outcome"], "findings");
    // The bytes fetched for a URL input (listing and objects); none for a local input.
    assert!(
        rows[0]["fetched_bytes"].as_u64().is_some_and(|b| b > 0),
        "{}",
        rows[0]
    );
    assert_eq!(rows[1]["fetched_bytes"], Value::Null);
    assert_eq!(
        content(&rows[0]),
        content(&rows[1]),
        "fetched job differs from the job on disk"
    );
    assert_eq!(rows[2]["build_id"], "15");
    assert_eq!(
        content(&rows[2]),
        content(&rows[3]),
        "fetched job differs from the job on disk"
    );
    assert_eq!(rows[4]["outcome"], "error");
    assert!(
        rows[4]["errors"].to_string().contains("no-such-job"),
        "{}",
        rows[4]
    );
    // The same job by another URL form: the cache answers, the row is the same.
    assert_eq!(content(&rows[5]), content(&rows[0]));
    // Two URLs for one job, analysed at the same time: its objects are downloaded once.
    assert_eq!(
        server.requests_for(&format!("/test-platform-results/{MODERN}/finished.json")),
        1
    );

    // Offline: the cache alone gives the same rows; the server sees no request.
    let before = server.requests();
    let offline = batch(
        &server,
        &cache,
        &tmp.path().join("offline.jsonl"),
        &["--offline"],
        &inputs,
    );
    assert_eq!(server.requests(), before);
    for i in [0, 1, 2, 3, 5] {
        assert_eq!(content(&offline[i]), content(&rows[i]), "row {i}");
    }
    // From the cache, nothing is fetched.
    assert_eq!(offline[0]["fetched_bytes"], 0);
    assert_eq!(offline[4]["outcome"], "error");
}
