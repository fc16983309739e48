//! Bad input never aborts ingestion: each case becomes a diagnostic naming the file and the
//! reason, and everything else in the same input is still read.

use crate::common;

use mglint::ingest::{IngestOptions, ingest};
use mglint::model::{Severity, fmt_k8s};
use std::path::Path;

const IMG: &str = "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0123456789abcdef";
const CV: &str = r#"apiVersion: config.openshift.io/v1
kind: ClusterVersion
metadata:
  name: version
  generation: 2
spec:
  channel: stable-4.14
  clusterID: 5c5cd3f5-5f1e-4f56-9c1b-0b4c3c6f2b9a
status:
  desired:
    version: 4.14.8
    image: quay.io/openshift-release-dev/ocp-release@sha256:aaaa
  history:
  - state: Completed
    startedTime: "2024-01-10T10:00:00Z"
    completionTime: "2024-01-10T10:40:00Z"
    version: 4.14.8
    image: quay.io/openshift-release-dev/ocp-release@sha256:aaaa
    verified: false
  conditions:
  - type: Available
    status: "True"
    message: Done applying 4.14.8
    lastTransitionTime: "2024-01-10T10:40:00Z"
"#;

fn write(root: &Path, rel: &str, data: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, data).unwrap();
}

/// A minimal must-gather with a good ClusterVersion and timestamp.
fn must_gather(root: &Path) -> String {
    let base = format!("must-gather.local.5123456789012345678/{IMG}");
    write(
        root,
        &format!(
            "{base}/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml"
        ),
        CV.as_bytes(),
    );
    write(
        root,
        &format!("{base}/timestamp"),
        b"2024-01-10 12:00:00.1 +0000 UTC m=+0.01\n2024-01-10 12:05:00.1 +0000 UTC m=+300.01\n",
    );
    base
}

fn cvo_log_path(base: &str, file: &str) -> String {
    format!(
        "{base}/namespaces/openshift-cluster-version/pods/cluster-version-operator-6d4f7b-x2x/cluster-version-operator/cluster-version-operator/logs/{file}"
    )
}

fn run(input: &Path) -> mglint::bundle::Bundle {
    ingest(
        &[input.to_str().unwrap().to_string()],
        &IngestOptions::default(),
    )
    .unwrap()
}

fn assert_good_parts(b: &mglint::bundle::Bundle) {
    let cv = b
        .cluster_version()
        .expect("the good ClusterVersion is still read");
    assert_eq!(cv.status.history[0].version, "4.14.8");
    assert_eq!(
        fmt_k8s(&b.collection_time().unwrap()),
        "2024-01-10T12:05:00Z"
    );
}

#[test]
fn unparsable_yaml_is_a_diagnostic_with_location() {
    let d = tempfile::tempdir().unwrap();
    let base = must_gather(d.path());
    write(d.path(), &format!("{base}/cluster-scoped-resources/config.openshift.io/clusteroperators/etcd.yaml"), b"apiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata:\n  name: etcd\nstatus:\n  conditions: [ {type: Available\n");
    let b = run(d.path());
    assert_good_parts(&b);
    let diag = b
        .diagnostics
        .iter()
        .find(|d| d.prov.file.path().ends_with("clusteroperators/etcd.yaml"))
        .expect("diagnostic");
    assert_eq!(diag.level, Severity::Error);
    assert!(diag.reason.starts_with("invalid YAML"), "{}", diag.reason);
    assert!(diag.prov.line.is_some());
}

#[test]
fn invalid_utf8_in_a_log_is_replaced_and_reported() {
    let d = tempfile::tempdir().unwrap();
    let base = must_gather(d.path());
    let mut log = b"2024-01-10T11:00:00.000000001Z I0110 11:00:00.000000       1 start.go:21] ClusterVersionOperator 4.14.8\n".to_vec();
    log.extend_from_slice(b"2024-01-10T11:00:01.000000001Z I0110 11:00:01.000000       1 cvo.go:1] bad \xc3\x28 byte\n");
    write(d.path(), &cvo_log_path(&base, "current.log"), &log);
    let b = run(d.path());
    assert_good_parts(&b);
    assert_eq!(b.cvo_logs[0].records.len(), 2);
    let diag = b
        .diagnostics
        .iter()
        .find(|d| d.prov.file.path().ends_with("current.log"))
        .expect("diagnostic");
    assert!(
        diag.reason.contains("invalid UTF-8 from line 2"),
        "{}",
        diag.reason
    );
    assert_eq!(diag.level, Severity::Warning);
}

#[test]
fn empty_previous_log_is_read_without_complaint() {
    let d = tempfile::tempdir().unwrap();
    let base = must_gather(d.path());
    write(d.path(), &cvo_log_path(&base, "previous.log"), b"");
    let b = run(d.path());
    assert_good_parts(&b);
    assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
    assert_eq!(b.cvo_logs.len(), 1);
    assert!(b.cvo_logs[0].is_previous() && b.cvo_logs[0].records.is_empty());
}

#[test]
fn klog_year_is_inferred_across_new_year() {
    let d = tempfile::tempdir().unwrap();
    let base = format!("must-gather.local.1/{IMG}");
    write(
        d.path(),
        &format!("{base}/timestamp"),
        b"2021-01-01 00:30:00.0 +0000 UTC m=+0.01\n",
    );
    // Raw `oc logs` output: no CRI prefix, so the year must be inferred.
    write(
        d.path(),
        &cvo_log_path(&base, "current.log"),
        b"I1231 23:59:58.100000       1 sync_worker.go:1] Running sync 4.6.9 (force=false) on generation 2 in state Reconciling at attempt 0\nI0101 00:00:02.200000       1 task_graph.go:1] Result of work: []\n",
    );
    let b = run(d.path());
    let r: Vec<_> = b.cvo_logs[0].records.iter().collect();
    assert_eq!(fmt_k8s(&r[0].time.unwrap()), "2020-12-31T23:59:58Z");
    assert_eq!(fmt_k8s(&r[1].time.unwrap()), "2021-01-01T00:00:02Z");
}

fn good_entries() -> Vec<(String, Vec<u8>)> {
    let base = format!("must-gather.local.5123456789012345678/{IMG}");
    vec![
        (
            format!(
                "{base}/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml"
            ),
            CV.as_bytes().to_vec(),
        ),
        (
            format!("{base}/timestamp"),
            b"2024-01-10 12:00:00.1 +0000 UTC m=+0.01\n2024-01-10 12:05:00.1 +0000 UTC m=+300.01\n"
                .to_vec(),
        ),
    ]
}

#[test]
fn truncated_gzip_archive_keeps_entries_before_the_cut() {
    let d = tempfile::tempdir().unwrap();
    let mut files = good_entries();
    // A large, poorly compressible file after the good ones, so the cut falls inside it.
    let filler: Vec<u8> = (0..400_000u32)
        .flat_map(|i| i.wrapping_mul(2654435761).to_le_bytes())
        .collect();
    files.push((format!("must-gather.local.5123456789012345678/{IMG}/namespaces/openshift-cluster-version/core/pods.yaml"), filler));
    let mut gz = common::gzip(&common::tar_files(&files));
    gz.truncate(gz.len() - gz.len() / 4);
    let archive = d.path().join("must-gather.tar.gz");
    std::fs::write(&archive, gz).unwrap();
    let b = run(&archive);
    assert_good_parts(&b);
    let diag = b
        .diagnostics
        .iter()
        .find(|d| d.level == Severity::Error)
        .expect("truncation diagnostic");
    assert!(diag.reason.contains("truncated"), "{}", diag.reason);
}

#[test]
fn truncated_tar_is_reported() {
    let d = tempfile::tempdir().unwrap();
    let mut files = good_entries();
    files.push((format!("must-gather.local.5123456789012345678/{IMG}/cluster-scoped-resources/core/nodes/n1.yaml"), vec![b'#'; 50_000]));
    let mut tar = common::tar_files(&files);
    tar.truncate(tar.len() - 30_000);
    let archive = d.path().join("mg.tar");
    std::fs::write(&archive, tar).unwrap();
    let b = run(&archive);
    assert_good_parts(&b);
    assert!(
        b.diagnostics
            .iter()
            .any(|d| d.level == Severity::Error && d.reason.contains("truncated")),
        "{:?}",
        b.diagnostics
    );
}

#[test]
fn gzip_entry_without_suffix_in_ci_layout_is_sniffed() {
    let d = tempfile::tempdir().unwrap();
    let cv_json = serde_json::to_vec(&serde_json::json!({"kind": "List", "items": [mglint::yaml::from_str::<serde_json::Value>(CV).unwrap()]})).unwrap();
    write(
        d.path(),
        "artifacts/e2e-aws-ovn-upgrade/gather-extra/artifacts/clusterversion.json",
        &common::gzip(&cv_json),
    );
    write(d.path(), "prowjob.json", br#"{"spec":{"job":"periodic-ci-x-upgrade"},"status":{"build_id":"1700000000000000000","state":"success"}}"#);
    let b = run(d.path());
    assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
    assert_eq!(
        b.cluster_version().unwrap().status.history[0].version,
        "4.14.8"
    );
    assert_eq!(b.inputs[0].kind, mglint::bundle::InputKind::CiJob);
    assert_eq!(b.prow.as_ref().unwrap().build_id, "1700000000000000000");
}

#[test]
fn not_a_must_gather_exits_2_with_a_clear_message() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "notes/readme.txt", b"just some notes\n");
    let out = common::mglint(&["summary", d.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nothing recognisable found"), "{err}");
    assert!(
        err.contains("no must-gather, CI artifacts, or known files found"),
        "{err}"
    );
    let out = common::mglint(&["summary", "/definitely/not/here"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such file or directory"));
}

#[test]
fn a_missing_input_among_good_ones_still_analyses_the_rest_and_exits_2() {
    let d = tempfile::tempdir().unwrap();
    must_gather(d.path());
    let out = common::mglint(&[
        "summary",
        d.path().to_str().unwrap(),
        "/definitely/not/here",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("4.14.8"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/definitely/not/here"));
}

/// A file the walker could not read says its kind in its typed cause: a CVO log cut off
/// inside an archive is an unreadable CVO log, not a reason to be read again.
#[test]
fn an_archive_entry_cut_off_carries_its_kind() {
    let d = tempfile::tempdir().unwrap();
    let rel = "ci/gather-extra/artifacts/pods/openshift-cluster-version_cluster-version-operator-5d_cluster-version-operator.log";
    let log = d.path().join(rel);
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    let text: String = (0..20_000)
        .map(|i| {
            format!(
                "I0110 10:{:02}:{:02}.{i:06}       1 cvo.go:100] sync {i}\n",
                i / 600 % 60,
                i / 10 % 60
            )
        })
        .collect();
    std::fs::write(&log, text).unwrap();
    // Compressed, and cut in the middle of the log's data.
    let mut tar = common::gzip(&common::tar_dir(d.path(), ""));
    tar.truncate(tar.len() / 2);
    let got =
        mglint::source::collect_bytes("job.tar.gz", tar, &mglint::source::SourceOptions::default());
    let cut = got
        .diagnostics
        .iter()
        .find(|d| {
            d.prov
                .file
                .path()
                .ends_with("_cluster-version-operator.log")
        })
        .unwrap_or_else(|| panic!("{:?}", got.diagnostics));
    assert_eq!(cut.level, Severity::Error, "{cut:?}");
    assert_eq!(
        cut.cause.file,
        Some(mglint::vocab::FileKind::CvoLog),
        "{cut:?}"
    );
}
