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

/// A small deterministic PRNG (SplitMix64) for the generated must-gather.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// A size spread as a real must-gather's files are: most small, a few large (a log-uniform
    /// draw between `lo` and `hi`).
    fn size(&mut self, lo: u64, hi: u64) -> usize {
        let (a, b) = ((lo.max(1) as f64).ln(), (hi.max(2) as f64).ln());
        let u = self.below(1 << 20) as f64 / f64::from(1u32 << 20);
        (a + (b - a) * u).exp() as usize
    }
}

/// The image folder of the generated must-gather.
pub const MG_ROOT: &str = "must-gather.local.7315526460393937421/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-1c6bd2b1e5c7a8d9f0e1d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d5e4f3a2b";

/// Text of about `n` bytes made of `line` repeated with a counter (file bodies that are not
/// read, but must look like the real ones).
fn filler(n: usize, line: &dyn Fn(usize) -> String) -> String {
    let mut s = String::with_capacity(n + 200);
    let mut i = 0;
    while s.len() < n {
        s.push_str(&line(i));
        i += 1;
    }
    s
}

/// A CVO log of about `n` bytes: the start of an update to [`TO`], an operator it waits on,
/// then reconcile passes until it completes.
fn mg_cvo_log(n: usize) -> String {
    let mut s = CVO_LOG.lines().take(3).collect::<Vec<_>>().join("\n");
    s.push('\n');
    let mut i = 0usize;
    while s.len() < n {
        let (m, sec) = (11 + (i / 3600) % 40, i % 60);
        s.push_str(&format!(
            "I0625 {:02}:{:02}:{sec:02}.{:06}       1 sync_worker.go:765] Running sync for deployment \"openshift-workload-{:03}/app\" ({} of 860)\n",
            10 + m / 60,
            m % 60,
            i % 1_000_000,
            i % 40,
            i % 860 + 1
        ));
        i += 1;
    }
    s.push_str(CVO_LOG.lines().nth(3).unwrap_or(""));
    s.push('\n');
    s.push_str(CVO_LOG.lines().nth(4).unwrap_or(""));
    s.push('\n');
    s
}

/// A must-gather as `oc adm must-gather` packs it into a CI job's `must-gather.tar` (an
/// uncompressed tar with folder entries), of about `bytes` bytes: the ClusterVersion,
/// ClusterOperators (one Degraded), nodes, pools, rendered machine configs, the CVO's pod,
/// events and log, and many other namespaces with their lists, pods and container logs of
/// spread sizes, which the analysis does not read. The files the analysis reads are about a
/// tenth of the bytes. Deterministic: the same size gives the same bytes.
pub fn must_gather_tar(bytes: u64) -> Vec<u8> {
    let mut rng = Rng(bytes ^ 0x6d67_6c69_6e74);
    let mut b = tar::Builder::new(Vec::with_capacity(bytes as usize + (1 << 20)));
    let mut dirs: std::collections::BTreeSet<String> = Default::default();
    let mut file = |b: &mut tar::Builder<Vec<u8>>, rel: &str, data: &[u8]| {
        // Folder entries before their files, as tar writes a directory.
        let mut at = 0;
        while let Some(i) = rel[at..].find('/') {
            let d = &rel[..at + i + 1];
            if dirs.insert(d.to_string()) {
                let mut h = tar::Header::new_ustar();
                h.set_entry_type(tar::EntryType::Directory);
                h.set_size(0);
                h.set_mode(0o755);
                h.set_mtime(1719317400);
                b.append_data(&mut h, d, std::io::empty()).unwrap();
            }
            at += i + 1;
        }
        let mut h = tar::Header::new_ustar();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(1719317400);
        b.append_data(&mut h, rel, data).unwrap();
    };
    let r = MG_ROOT;
    let csr = format!("{r}/cluster-scoped-resources");
    file(
        &mut b,
        &format!("{r}/timestamp"),
        b"2024-06-25 12:20:01.123456789 +0000 UTC m=+0.2\n",
    );
    file(
        &mut b,
        &format!("{r}/version"),
        b"openshift/must-gather\n4.14.0\n",
    );
    let image = format!("registry.ci.openshift.org/ocp/release:{TO}");
    let cv = format!(
        "---\napiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\n  generation: 3\nspec:\n  clusterID: 5f1c2d4e-0000-4000-8000-000000000001\n  desiredUpdate:\n    force: true\n    image: {image}\n    version: {TO}\nstatus:\n  conditions:\n  - lastTransitionTime: \"2024-06-25T10:31:00Z\"\n    message: Done applying 4.13.0\n    status: \"True\"\n    type: Available\n  - lastTransitionTime: \"2024-06-25T11:05:10Z\"\n    message: Cluster operator machine-config is degraded\n    reason: ClusterOperatorDegraded\n    status: \"True\"\n    type: Failing\n  - lastTransitionTime: \"2024-06-25T10:40:12Z\"\n    message: 'Unable to apply {TO}: the cluster operator machine-config is degraded'\n    reason: ClusterOperatorDegraded\n    status: \"True\"\n    type: Progressing\n  desired:\n    image: {image}\n    version: {TO}\n  history:\n  - image: {image}\n    startedTime: \"2024-06-25T10:40:12Z\"\n    state: Partial\n    verified: false\n    version: {TO}\n  - completionTime: \"2024-06-25T10:31:00Z\"\n    image: quay.io/openshift-release-dev/ocp-release@sha256:74b2\n    startedTime: \"2024-06-25T10:02:00Z\"\n    state: Completed\n    verified: false\n    version: 4.13.0\n  observedGeneration: 3\n"
    );
    file(
        &mut b,
        &format!("{csr}/config.openshift.io/clusterversions/version.yaml"),
        cv.as_bytes(),
    );
    let operators = [
        "authentication",
        "cloud-credential",
        "console",
        "dns",
        "etcd",
        "image-registry",
        "ingress",
        "kube-apiserver",
        "kube-controller-manager",
        "kube-scheduler",
        "machine-api",
        "machine-config",
        "monitoring",
        "network",
        "openshift-apiserver",
        "service-ca",
        "storage",
    ];
    for co in operators {
        let degraded = co == "machine-config";
        let version = if degraded { "4.13.0" } else { TO };
        let y = format!(
            "---\napiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata:\n  name: {co}\nstatus:\n  conditions:\n  - lastTransitionTime: \"2024-06-25T10:20:00Z\"\n    status: \"True\"\n    type: Available\n  - lastTransitionTime: \"2024-06-25T11:01:00Z\"\n    message: {msg}\n    reason: {reason}\n    status: \"{d}\"\n    type: Degraded\n  - lastTransitionTime: \"2024-06-25T11:40:00Z\"\n    status: \"False\"\n    type: Progressing\n  versions:\n  - name: operator\n    version: {version}\n",
            msg = if degraded {
                "'Failed to resync 4.14.0 because: error during syncRequiredMachineConfigPools: pool master has not progressed to latest configuration'"
            } else {
                "All is well"
            },
            reason = if degraded {
                "RequiredPoolsFailed"
            } else {
                "AsExpected"
            },
            d = if degraded { "True" } else { "False" },
        );
        file(
            &mut b,
            &format!("{csr}/config.openshift.io/clusteroperators/{co}.yaml"),
            y.as_bytes(),
        );
    }
    // Cluster-scoped objects the analysis does not read.
    for kind in [
        "apiservers",
        "authentications",
        "consoles",
        "images",
        "networks",
        "oauths",
        "projects",
        "proxies",
        "schedulers",
    ] {
        let y = filler(rng.size(300, 3000), &|i| {
            format!("# {kind} {i}: spec and status fields of the cluster's {kind} object\n")
        });
        file(
            &mut b,
            &format!("{csr}/config.openshift.io/{kind}.yaml"),
            y.as_bytes(),
        );
    }
    let nodes = 6 + (bytes >> 24) as usize;
    for n in 0..nodes {
        let role = if n < 3 { "master" } else { "worker" };
        let name = format!("ip-10-0-{}-{}.ec2.internal", 128 + n / 250, n % 250);
        let y = format!(
            "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels:\n    node-role.kubernetes.io/{role}: \"\"\n  annotations:\n    machineconfiguration.openshift.io/currentConfig: rendered-{role}-1a2b\n    machineconfiguration.openshift.io/desiredConfig: rendered-{role}-1a2b\n    machineconfiguration.openshift.io/state: Done\nstatus:\n  conditions:\n  - lastTransitionTime: \"2024-06-25T10:25:00Z\"\n    reason: KubeletReady\n    status: \"True\"\n    type: Ready\n{}",
            filler(rng.size(2000, 9000), &|i| format!(
                "# image sha256:{i:064x}\n"
            ))
        );
        file(
            &mut b,
            &format!("{csr}/core/nodes/{name}.yaml"),
            y.as_bytes(),
        );
    }
    for pool in ["master", "worker"] {
        let y = format!(
            "---\napiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: {pool}\nspec:\n  paused: false\nstatus:\n  conditions:\n  - lastTransitionTime: \"2024-06-25T11:00:00Z\"\n    status: \"False\"\n    type: Updated\n  - lastTransitionTime: \"2024-06-25T11:00:00Z\"\n    status: \"True\"\n    type: Updating\n  machineCount: 3\n  updatedMachineCount: 1\n  readyMachineCount: 1\n  unavailableMachineCount: 1\n  degradedMachineCount: 0\n"
        );
        file(
            &mut b,
            &format!("{csr}/machineconfiguration.openshift.io/machineconfigpools/{pool}.yaml"),
            y.as_bytes(),
        );
        let mc = format!(
            "---\napiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: rendered-{pool}-1a2b\nspec:\n  config:\n    storage:\n      files:\n{}",
            filler((bytes / 100) as usize, &|i| format!(
                "      - path: /etc/kubernetes/static-pod-resources/file-{i}\n        contents:\n          source: data:,{}\n",
                "x".repeat(40)
            ))
        );
        file(
            &mut b,
            &format!(
                "{csr}/machineconfiguration.openshift.io/machineconfigs/rendered-{pool}-1a2b.yaml"
            ),
            mc.as_bytes(),
        );
    }
    for i in 0..(bytes >> 17).max(8) {
        let y = filler(rng.size(400, 2500), &|l| {
            format!("# persistent volume pvc-{i:04} line {l}\n")
        });
        file(
            &mut b,
            &format!("{csr}/core/persistentvolumes/pvc-{i:04}.yaml"),
            y.as_bytes(),
        );
    }
    // The CVO's namespace: its pod, events and log (about 6 % of the bytes).
    let cvo_ns = format!("{r}/namespaces/openshift-cluster-version");
    let pod = "cluster-version-operator-7d9f6c5b4-x2lqp";
    file(
        &mut b,
        &format!("{cvo_ns}/openshift-cluster-version.yaml"),
        b"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: openshift-cluster-version\n",
    );
    let events = format!(
        "---\napiVersion: v1\nitems:\n{}kind: EventList\n",
        (0..(bytes >> 15).max(20)).map(|i| format!("- apiVersion: v1\n  count: 1\n  firstTimestamp: \"2024-06-25T10:{:02}:{:02}Z\"\n  involvedObject:\n    kind: ClusterVersion\n    name: version\n    namespace: openshift-cluster-version\n  kind: Event\n  lastTimestamp: \"2024-06-25T10:{:02}:{:02}Z\"\n  message: 'Retrieving and verifying payload version=\"{TO}\"'\n  metadata:\n    name: version.{i:016x}\n    namespace: openshift-cluster-version\n  reason: RetrievePayload\n  source:\n    component: openshift-cluster-version\n  type: Normal\n", 40 + i % 20, i % 60, 40 + i % 20, i % 60)).collect::<String>()
    );
    file(
        &mut b,
        &format!("{cvo_ns}/core/events.yaml"),
        events.as_bytes(),
    );
    file(&mut b, &format!("{cvo_ns}/pods/{pod}/{pod}.yaml"), format!("---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: {pod}\n  namespace: openshift-cluster-version\nspec:\n  containers:\n  - name: cluster-version-operator\n    image: {image}\nstatus:\n  phase: Running\n  startTime: \"2024-06-25T10:02:00Z\"\n  containerStatuses:\n  - name: cluster-version-operator\n    image: {image}\n    restartCount: 0\n").as_bytes());
    file(
        &mut b,
        &format!(
            "{cvo_ns}/pods/{pod}/cluster-version-operator/cluster-version-operator/logs/current.log"
        ),
        mg_cvo_log((bytes / 16) as usize).as_bytes(),
    );
    // Everything else: other namespaces' lists, pods and container logs, most bytes of it.
    let mut ns_i = 0;
    while (b.get_ref().len() as u64) < bytes {
        let ns = format!("openshift-workload-{ns_i:03}");
        let d = format!("{r}/namespaces/{ns}");
        file(
            &mut b,
            &format!("{d}/{ns}.yaml"),
            format!("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: {ns}\n").as_bytes(),
        );
        // Most files of a namespace are short lists (`items: []` and a few objects).
        for list in [
            "core/configmaps",
            "core/endpoints",
            "core/persistentvolumeclaims",
            "core/pods",
            "core/replicationcontrollers",
            "core/secrets",
            "core/services",
            "apps/daemonsets",
            "apps/deployments",
            "apps/replicasets",
            "apps/statefulsets",
            "autoscaling/horizontalpodautoscalers",
            "batch/cronjobs",
            "batch/jobs",
            "build.openshift.io/buildconfigs",
            "build.openshift.io/builds",
            "image.openshift.io/imagestreams",
            "route.openshift.io/routes",
            "policy/poddisruptionbudgets",
            "monitoring.coreos.com/servicemonitors",
            "networking.k8s.io/networkpolicies",
        ] {
            let y = filler(rng.size(90, 2500), &|i| {
                format!(
                    "- apiVersion: v1\n  metadata:\n    name: {ns}-object-{i}\n    namespace: {ns}\n"
                )
            });
            file(&mut b, &format!("{d}/{list}.yaml"), y.as_bytes());
        }
        let ev = filler(rng.size(400, 40_000), &|i| {
            format!(
                "- apiVersion: v1\n  kind: Event\n  message: pulled image {i}\n  metadata:\n    namespace: {ns}\n"
            )
        });
        file(&mut b, &format!("{d}/core/events.yaml"), ev.as_bytes());
        // Container logs: most of the bytes, a few large ones among many small.
        for p in 0..1 + rng.below(3) {
            let pod = format!("{ns}-app-{p}-{:05x}", rng.below(1 << 20));
            file(
                &mut b,
                &format!("{d}/pods/{pod}/{pod}.yaml"),
                filler(rng.size(2500, 7000), &|i| {
                    format!("# pod {pod} status field {i}\n")
                })
                .as_bytes(),
            );
            for c in 0..1 + rng.below(2) {
                let logs = format!("{d}/pods/{pod}/app-{c}/app-{c}/logs");
                let log = |rng: &mut Rng, hi: u64| {
                    filler(rng.size(hi / 100, hi), &|i| {
                        format!(
                            "2024-06-25T10:{:02}:{:02}.{i:06}Z level=info msg=\"handled request\" path=/api/v1/items/{} status=200\n",
                            (i / 60) % 60,
                            i % 60,
                            i * 7919 % 100_000
                        )
                    })
                };
                file(
                    &mut b,
                    &format!("{logs}/current.log"),
                    log(&mut rng, bytes / 5).as_bytes(),
                );
                if rng.below(4) == 0 {
                    file(
                        &mut b,
                        &format!("{logs}/previous.log"),
                        log(&mut rng, bytes / 40).as_bytes(),
                    );
                }
            }
        }
        ns_i += 1;
    }
    b.into_inner().unwrap()
}

/// A CI upgrade job whose ClusterVersion and CVO log are only in its `must-gather.tar` (about
/// `mg_bytes` bytes, [`must_gather_tar`]): Prow metadata, the build log, JUnit, no
/// gather-extra. Gives the archive's path in the job.
pub fn build_must_gather_job(dir: &Path, mg_bytes: u64) -> String {
    put(dir, "prowjob.json", prowjob_json().as_bytes());
    put(dir, "started.json", br#"{"timestamp":1719309480}"#);
    put(
        dir,
        "finished.json",
        br#"{"timestamp":1719318660,"passed":false,"result":"FAILURE","revision":"4f7d1"}"#,
    );
    put(
        dir,
        "build-log.txt",
        b"INFO[2024-06-25T09:58:03Z] ci-operator version v20240624\n",
    );
    put(
        dir,
        &format!("{T}/openshift-e2e-test/artifacts/junit/junit_e2e_20240625-101500.xml"),
        JUNIT.as_bytes(),
    );
    let mg = format!("{T}/gather-must-gather/artifacts/must-gather.tar");
    put(dir, &mg, &must_gather_tar(mg_bytes));
    put(
        dir,
        &format!("{T}/gather-must-gather/artifacts/event-filter.html"),
        b"<html></html>",
    );
    mg
}
