//! A realistic upgrade-job tree for the remote-fetch tests: the files the analysis reads
//! (Prow metadata, gather-extra JSON, the CVO log, JUnit, intervals), neighbours it does not
//! read, a gzip object without a `.gz` suffix, a must-gather archive and another archive.

use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Write;
use std::path::Path;

pub const BUCKET: &str = "test-platform-results";
pub const JOB: &str = "logs/periodic-ci-openshift-release-master-ci-4.14-upgrade-from-stable-4.13-e2e-aws-ovn-upgrade/1805903485718925312";
pub const T: &str = "artifacts/e2e-aws-ovn-upgrade";
pub const TO: &str = "4.14.0-0.ci-2024-06-25-101010";

pub fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

pub fn tar_gz(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::default()));
    for (name, data) in entries {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(1719313000);
        b.append_data(&mut h, name, *data).unwrap();
    }
    b.into_inner().unwrap().finish().unwrap()
}

pub fn put(dir: &Path, rel: &str, data: &[u8]) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, data).unwrap();
}

pub fn cluster_version_json() -> String {
    let image = format!("registry.ci.openshift.org/ocp/release:{TO}");
    serde_json::json!({"apiVersion": "v1", "kind": "List", "items": [{
        "apiVersion": "config.openshift.io/v1", "kind": "ClusterVersion",
        "metadata": {"name": "version", "generation": 3},
        "spec": {"clusterID": "5f1c2d4e-0000-4000-8000-000000000001", "desiredUpdate": {"version": TO, "image": image, "force": true}},
        "status": {
            "desired": {"version": TO, "image": image},
            "history": [
                {"state": "Completed", "version": TO, "image": image, "startedTime": "2024-06-25T10:40:12Z", "completionTime": "2024-06-25T11:52:40Z", "verified": false},
                {"state": "Completed", "version": "4.13.0", "image": "quay.io/openshift-release-dev/ocp-release@sha256:74b2", "startedTime": "2024-06-25T10:02:00Z", "completionTime": "2024-06-25T10:31:00Z", "verified": false}
            ],
            "observedGeneration": 3,
            "conditions": [
                {"type": "Available", "status": "True", "lastTransitionTime": "2024-06-25T10:31:00Z", "message": format!("Done applying {TO}")},
                {"type": "Failing", "status": "False", "lastTransitionTime": "2024-06-25T11:05:10Z"},
                {"type": "Progressing", "status": "False", "lastTransitionTime": "2024-06-25T11:52:40Z", "message": format!("Cluster version is {TO}")}
            ]
        }
    }]})
    .to_string()
}

pub fn cluster_operators_json() -> String {
    let co = |name: &str, degraded: &str| {
        serde_json::json!({"apiVersion": "config.openshift.io/v1", "kind": "ClusterOperator", "metadata": {"name": name},
            "status": {"conditions": [
                {"type": "Available", "status": "True", "lastTransitionTime": "2024-06-25T10:20:00Z"},
                {"type": "Degraded", "status": degraded, "lastTransitionTime": "2024-06-25T11:01:00Z", "reason": "AsExpected"},
                {"type": "Progressing", "status": "False", "lastTransitionTime": "2024-06-25T11:40:00Z"}],
              "versions": [{"name": "operator", "version": TO}]}})
    };
    serde_json::json!({"apiVersion": "v1", "kind": "List",
        "items": [co("etcd", "False"), co("kube-apiserver", "False"), co("machine-config", "True")]})
    .to_string()
}

pub fn events_json() -> String {
    let ev = |name: &str, reason: &str, at: &str, msg: &str| {
        serde_json::json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": name, "namespace": "openshift-cluster-version"},
            "involvedObject": {"kind": "ClusterVersion", "name": "version", "namespace": "openshift-cluster-version"},
            "reason": reason, "message": msg, "type": "Normal", "count": 1,
            "source": {"component": "openshift-cluster-version"}, "firstTimestamp": at, "lastTimestamp": at})
    };
    serde_json::json!({"apiVersion": "v1", "kind": "List", "items": [
        ev("version.17dc1", "RetrievePayload", "2024-06-25T10:40:12Z", &format!("Retrieving and verifying payload version=\"{TO}\"")),
        ev("version.17dc2", "PayloadLoaded", "2024-06-25T10:40:20Z", &format!("Payload loaded version=\"{TO}\"")),
    ]})
    .to_string()
}

pub const CVO_LOG: &str = "I0625 10:40:12.345678       1 cvo.go:596] Desired version from spec is v1.Update{Architecture:\"\", Version:\"4.14.0-0.ci-2024-06-25-101010\", Force:true}
I0625 10:40:12.400000       1 sync_worker.go:541] Running sync 4.14.0-0.ci-2024-06-25-101010 (force=true) on generation 3 in state Updating at attempt 0
I0625 10:52:01.000000       1 sync_worker.go:765] Running sync for clusteroperator \"etcd\" (123 of 860)
E0625 10:55:00.000000       1 task.go:112] error running apply for clusteroperator \"etcd\" (123 of 860): Cluster operator etcd is updating versions
I0625 11:52:40.100000       1 status.go:185] Synchronizing status errs=field.ErrorList(nil) status=&cvo.SyncWorkerStatus{Generation:3, Failure:error(nil), Done:860, Total:860, Completed:1, Reconciling:true}
";

pub const JUNIT: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="openshift-tests-upgrade" tests="2" failures="1">
  <testcase name="[sig-cluster-lifecycle] Cluster version operator acknowledges upgrade" time="12"/>
  <testcase name="[sig-cluster-lifecycle] cluster upgrade should complete in a reasonable time" time="4300"><failure message="upgrade took too long">took 72m</failure></testcase>
</testsuite>
"#;

pub fn intervals_json() -> String {
    let iv = |reason: &str, from: &str, to: &str| {
        serde_json::json!({"level": "Info", "display": true, "source": "ClusterVersion",
            "locator": {"type": "ClusterVersion", "keys": {"clusterversion": "cluster"}},
            "message": {"reason": reason, "cause": "", "humanMessage": format!("version/{TO}"), "annotations": {"reason": reason}},
            "from": from, "to": to})
    };
    serde_json::json!({"items": [
        iv("UpgradeStarted", "2024-06-25T10:40:12Z", "2024-06-25T10:40:12Z"),
        iv("UpgradeComplete", "2024-06-25T11:52:40Z", "2024-06-25T11:52:40Z"),
    ]})
    .to_string()
}

pub fn prowjob_json() -> String {
    serde_json::json!({"kind": "ProwJob", "apiVersion": "prow.k8s.io/v1",
        "metadata": {"annotations": {"release.openshift.io/from-tag": "4.13.0", "release.openshift.io/tag": TO}},
        "spec": {"type": "periodic", "job": "periodic-ci-openshift-release-master-ci-4.14-upgrade-from-stable-4.13-e2e-aws-ovn-upgrade",
            "pod_spec": {"containers": [{"args": ["--target=e2e-aws-ovn-upgrade"], "env": [
                {"name": "RELEASE_IMAGE_INITIAL", "value": "quay.io/openshift-release-dev/ocp-release@sha256:74b2"},
                {"name": "RELEASE_IMAGE_LATEST", "value": format!("registry.ci.openshift.org/ocp/release:{TO}")}]}]}},
        "status": {"state": "success", "build_id": "1805903485718925312", "startTime": "2024-06-25T09:58:00Z", "completionTime": "2024-06-25T12:31:00Z"}})
    .to_string()
}

/// Writes a realistic upgrade job (needed files, unneeded neighbours, a gzip object without
/// suffix, a must-gather archive and a non-must-gather archive) and returns how many files the
/// analysis needs besides the must-gather: prowjob, started and finished JSON, the CVO log,
/// clusteroperators, events, JUnit, e2e-events, the step build log (9), and clusterversion.
pub fn build_job(dir: &Path, gather_extra_cv: bool) -> usize {
    let ge = format!("{T}/gather-extra/artifacts");
    let junit = format!("{T}/openshift-e2e-test/artifacts/junit");
    put(dir, "prowjob.json", prowjob_json().as_bytes());
    put(
        dir,
        "started.json",
        br#"{"timestamp":1719309480,"repos":{"openshift/release":"master"}}"#,
    );
    put(
        dir,
        "finished.json",
        br#"{"timestamp":1719318660,"passed":true,"result":"SUCCESS","revision":"4f7d1"}"#,
    );
    put(
        dir,
        "build-log.txt",
        b"INFO[2024-06-25T09:58:03Z] ci-operator version v20240624\n",
    );
    put(dir, "podinfo.json", b"{}");
    if gather_extra_cv {
        put(
            dir,
            &format!("{ge}/clusterversion.json"),
            cluster_version_json().as_bytes(),
        );
    }
    put(
        dir,
        &format!("{ge}/clusteroperators.json"),
        cluster_operators_json().as_bytes(),
    );
    // Stored gzip-compressed without a .gz suffix, as the uploader does.
    put(
        dir,
        &format!("{ge}/events.json"),
        &gz(events_json().as_bytes()),
    );
    put(
        dir,
        &format!("{ge}/pods.json"),
        br#"{"apiVersion":"v1","kind":"List","items":[]}"#,
    );
    put(
        dir,
        &format!(
            "{ge}/pods/openshift-cluster-version_cluster-version-operator-7d9f6c5b4-x2lqp_cluster-version-operator.log"
        ),
        CVO_LOG.as_bytes(),
    );
    put(
        dir,
        &format!("{ge}/pods/openshift-etcd_etcd-ip-10-0-1-1_etcd.log"),
        b"{\"level\":\"info\"}\n",
    );
    put(
        dir,
        &format!("{ge}/nodes/ip-10-0-1-1/journal"),
        &gz(b"Jun 25 10:00:00 ip-10-0-1-1 kubenswrapper[1]: ok\n"),
    );
    put(
        dir,
        &format!("{ge}/metrics/prometheus.tar.gz"),
        &tar_gz(&[("prometheus/wal/00000001", b"wal")]),
    );
    put(
        dir,
        &format!("{junit}/junit_e2e_20240625-101500.xml"),
        JUNIT.as_bytes(),
    );
    put(
        dir,
        &format!("{junit}/e2e-events_20240625-101500.json"),
        intervals_json().as_bytes(),
    );
    put(
        dir,
        &format!("{T}/openshift-e2e-test/build-log.txt"),
        b"Jun 25 10:40:12.000 I clusterversion/version changed Progressing to True\n",
    );
    let mg = "must-gather.local.5209/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-9a1b";
    let cv_yaml = format!(
        "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nstatus:\n  history:\n  - state: Completed\n    version: {TO}\n    startedTime: \"2024-06-25T10:40:12Z\"\n    completionTime: \"2024-06-25T11:52:40Z\"\n"
    );
    put(
        dir,
        &format!("{T}/gather-must-gather/artifacts/must-gather.tar"),
        &tar_gz(&[
            (
                &format!(
                    "{mg}/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml"
                ),
                cv_yaml.as_bytes(),
            ),
            (
                &format!("{mg}/timestamp"),
                b"2024-06-25 12:20:01.123456789 +0000 UTC m=+0.2\n",
            ),
        ]),
    );
    put(
        dir,
        &format!("{T}/gather-must-gather/artifacts/event-filter.html"),
        b"<html></html>",
    );
    if gather_extra_cv { 10 } else { 9 }
}
