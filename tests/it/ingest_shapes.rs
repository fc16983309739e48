//! The shapes support cases arrive in besides a clean must-gather: a folder of `oc get -o
//! yaml` files (YAML and JSON Lists, indented lists, a leading `---`), standard input and
//! process substitution, rotated and compressed CVO logs, and hostile zip and zstd data.

use crate::common;

use mglint::ingest::{IngestOptions, ingest};
use mglint::model::Severity;
use mglint::source::SourceOptions;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn seed_dir() -> std::path::PathBuf {
    common::fixture("must-gather/seed1-blocked")
}

/// The seed's ClusterVersion and ClusterOperators as plain YAML texts.
fn seed_objects() -> (String, Vec<String>) {
    let root = common::dir_files(&seed_dir(), "");
    let cv = root
        .iter()
        .find(|(p, _)| p.ends_with("clusterversions/version.yaml"))
        .map(|(_, b)| String::from_utf8(b.clone()).unwrap())
        .expect("seed ClusterVersion");
    let cos: Vec<String> = root
        .iter()
        .filter(|(p, _)| p.contains("/clusteroperators/"))
        .map(|(_, b)| String::from_utf8(b.clone()).unwrap())
        .collect();
    assert!(cos.len() >= 3, "seed has {} ClusterOperators", cos.len());
    (cv, cos)
}

fn ingest_one(p: &Path) -> mglint::bundle::Bundle {
    ingest(
        &[p.to_str().unwrap().to_string()],
        &IngestOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `oc get co -o yaml` writes a `List` whose items are indented under `items:` or not,
/// `oc get -o json` a JSON List; people add a `---` first line or a comment. All of them read
/// from a directory whose names say nothing give the same objects as the files one by one.
#[test]
fn loose_directory_of_list_files() {
    let (cv, cos) = seed_objects();
    let items: Vec<serde_json::Value> = cos
        .iter()
        .map(|t| {
            serde_json::to_value(yaml_serde::from_str::<serde_json::Value>(t).unwrap()).unwrap()
        })
        .collect();
    let indent = |t: &str| {
        t.trim_start_matches("---\n")
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i == 0 {
                    format!("  - {l}")
                } else {
                    format!("    {l}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let yaml_list_indented = format!(
        "apiVersion: v1\nitems:\n{}\nkind: List\nmetadata:\n  resourceVersion: \"\"\n",
        cos.iter().map(|t| indent(t)).collect::<Vec<_>>().join("\n")
    );
    let json_list = serde_json::to_string_pretty(&serde_json::json!({
        "apiVersion": "v1", "kind": "List", "items": items, "metadata": {"resourceVersion": ""}
    }))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let files = [
        ("case-02745123-cv.yaml", format!("---\n{cv}")),
        ("case-02745123-co.yaml", yaml_list_indented),
        ("co.json", json_list),
        (
            "notes.txt",
            "customer says the update is stuck since Monday\n".to_string(),
        ),
        (
            "package.json",
            "{\"name\": \"not-kubernetes\"}\n".to_string(),
        ),
    ];
    for (name, text) in &files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let b = ingest_one(dir.path());
    assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
    assert_eq!(b.objects.cluster_versions.len(), 1);
    // The YAML List and the JSON List hold the same operators: merged to one copy each.
    assert_eq!(b.objects.cluster_operators.len(), cos.len());
    let info = &b.inputs[0];
    assert_eq!(info.files_seen, 5);
    assert_eq!(info.files_read, 3, "{info:?}");
    assert_eq!(info.files_skipped, 2, "{info:?}");
    // One by one: the same objects.
    let one_by_one: Vec<String> = files[..3]
        .iter()
        .map(|(n, _)| dir.path().join(n).to_str().unwrap().to_string())
        .collect();
    let b2 = ingest(&one_by_one, &IngestOptions::default()).unwrap();
    assert_eq!(b2.objects.cluster_versions.len(), 1);
    assert_eq!(b2.objects.cluster_operators.len(), cos.len());
    // summary shows what was skipped
    let out = common::mglint(&["summary", dir.path().to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("not read, unknown format: 2 (notes.txt, package.json)"),
        "{text}"
    );
}

/// Findings of `analyze --format json`, with the input's name taken out.
fn findings(json: &[u8], name: &str) -> serde_json::Value {
    let text = String::from_utf8_lossy(json).replace(name, "INPUT");
    let v: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    v["findings"].clone()
}

/// `cat must-gather.tar.gz | mglint analyze -` gives the report `mglint analyze
/// must-gather.tar.gz` gives; so does a process substitution (`<(…)`, a FIFO).
#[test]
fn stdin_and_process_substitution_read_like_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let tgz = tmp.path().join("must-gather.tar.gz");
    std::fs::write(&tgz, common::gzip(&common::tar_dir(&seed_dir(), ""))).unwrap();
    let path = tgz.to_str().unwrap();
    let direct = common::mglint(&["analyze", "--format", "json", path]);
    assert_eq!(direct.status.code(), Some(1), "{direct:?}");
    let want = findings(&direct.stdout, path);
    assert!(want.as_array().is_some_and(|a| !a.is_empty()));

    let mut child = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(["analyze", "--format", "json", "-"])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let bytes = std::fs::read(&tgz).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&bytes));
    let piped = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert_eq!(piped.status.code(), Some(1), "{piped:?}");
    assert_eq!(findings(&piped.stdout, "stdin"), want);

    #[cfg(unix)]
    {
        let script = format!("exec \"$0\" analyze --format json <(cat '{path}')",);
        let subst = Command::new("bash")
            .args(["-c", &script, env!("CARGO_BIN_EXE_mglint")])
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert_eq!(subst.status.code(), Some(1), "{subst:?}");
        let v: serde_json::Value = serde_json::from_slice(&subst.stdout).unwrap();
        let fd_name = v["inputs"][0]["name"]
            .as_str()
            .unwrap_or("/dev/fd/63")
            .to_string();
        assert_eq!(findings(&subst.stdout, &fd_name), want);
    }
}

/// Empty standard input is an error naming `-`, not a hang. (A terminal on standard input is
/// refused before anything is read; a test cannot give the binary one.)
#[test]
fn nothing_on_stdin_is_an_error_not_a_hang() {
    let out = Command::new(env!("CARGO_BIN_EXE_mglint"))
        .args(["summary", "-"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`-`: not a must-gather"), "{err}");
}

/// kubelet rotates a container's log into `logs/rotated/<n>.log.<time>[.gz]`; the rotated
/// part and `current.log` together are one container: the same records and one CVO instance,
/// as if the log had never been rotated.
#[test]
fn rotated_compressed_cvo_log_continues_current() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    std::fs::create_dir_all(&whole).unwrap();
    common::copy_tree(&seed_dir(), &whole);
    let logs = common::dir_files(&whole, "")
        .into_iter()
        .find(|(p, _)| p.ends_with("logs/current.log"))
        .map(|(p, _)| whole.join(p))
        .unwrap();
    let want = ingest_one(&whole);
    let want_records: usize = want.cvo_logs.iter().map(|l| l.records.len()).sum();

    let rotated = tmp.path().join("rotated");
    std::fs::create_dir_all(&rotated).unwrap();
    common::copy_tree(&seed_dir(), &rotated);
    let rel = logs.strip_prefix(&whole).unwrap();
    let current = rotated.join(rel);
    let text = std::fs::read_to_string(&current).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let (a, b) = lines.split_at(lines.len() / 2);
    let dir = current.parent().unwrap().join("rotated");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("0.log.20191014-031000.gz"),
        common::gzip(format!("{}\n", a.join("\n")).as_bytes()),
    )
    .unwrap();
    std::fs::write(&current, format!("{}\n", b.join("\n"))).unwrap();
    let got = ingest_one(&rotated);
    assert!(got.diagnostics.is_empty(), "{:?}", got.diagnostics);
    let got_records: usize = got.cvo_logs.iter().map(|l| l.records.len()).sum();
    assert_eq!(got_records, want_records);
    let instances = |b: &mglint::bundle::Bundle| {
        mglint::timeline::build(b)
            .instances
            .iter()
            .map(|i| (i.pod.clone(), i.start, i.end))
            .collect::<Vec<_>>()
    };
    assert_eq!(instances(&got), instances(&want));
}

const CV: &str = "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nstatus:\n  history:\n  - state: Completed\n    version: 4.14.8\n    image: quay.io/openshift-release-dev/ocp-release@sha256:aaaa\n    startedTime: \"2024-01-10T10:00:00Z\"\n    completionTime: \"2024-01-10T10:40:00Z\"\n";
const CV_PATH: &str =
    "mg/img/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml";

fn small_caps() -> IngestOptions {
    IngestOptions {
        source: SourceOptions {
            max_file_bytes: 1 << 20,
            max_archive_bytes: 8 << 20,
            ..SourceOptions::default()
        },
    }
}

fn ingest_with(p: &Path, opts: &IngestOptions) -> mglint::bundle::Bundle {
    ingest(&[p.to_str().unwrap().to_string()], opts).unwrap_or_else(|e| panic!("{e}"))
}

/// Zip bombs (one entry, and many entries adding up), `..` and absolute entry names, and a
/// truncated zip: each a diagnostic naming the entry or archive; the good ClusterVersion is
/// read; nothing is written.
#[test]
fn hostile_zips() {
    let tmp = tempfile::tempdir().unwrap();
    let zeros = vec![b' '; 16 << 20];
    let node = |i: usize| format!("mg/img/cluster-scoped-resources/core/nodes/bomb-{i}.yaml");
    type Case<'a> = (&'a str, Vec<(String, Vec<u8>)>, &'a str);
    let cases: Vec<Case> = vec![
        (
            "one-entry-bomb.zip",
            vec![(CV_PATH.into(), CV.into()), (node(0), zeros.clone())],
            "cap",
        ),
        (
            "many-entry-bomb.zip",
            std::iter::once((CV_PATH.to_string(), CV.as_bytes().to_vec()))
                .chain((0..12).map(|i| (node(i), vec![b' '; 900 << 10])))
                .collect(),
            "--max-archive-bytes",
        ),
        (
            "dotdot.zip",
            vec![
                (CV_PATH.into(), CV.into()),
                (
                    format!("../../../../tmp/{}", node(1)),
                    b"kind: Node\n".to_vec(),
                ),
                (format!("/etc/{}", node(2)), b"kind: Node\n".to_vec()),
            ],
            "",
        ),
    ];
    for (name, files, want) in cases {
        let p = tmp.path().join(name);
        std::fs::write(&p, common::zip_files(&files)).unwrap();
        let b = ingest_with(&p, &small_caps());
        assert_eq!(
            b.objects.cluster_versions.len(),
            1,
            "{name}: {:?}",
            b.diagnostics
        );
        if want.is_empty() {
            // `..` and `/` are dropped from names: the entries stay inside the archive.
            assert!(
                b.files
                    .iter()
                    .all(|f| !f.file.path().contains("..") && !f.file.path().starts_with('/')),
                "{name}"
            );
        } else {
            assert!(
                b.diagnostics.iter().any(|d| d.reason.contains(want)),
                "{name}: {:?}",
                b.diagnostics
            );
        }
    }
    // Truncated: the central directory is gone.
    let good = common::zip_files(&[(CV_PATH.into(), CV.into())]);
    let p = tmp.path().join("truncated.zip");
    std::fs::write(&p, &good[..good.len() - 30]).unwrap();
    let out = common::mglint(&["summary", p.to_str().unwrap()]);
    let err =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(err.contains("truncated.zip"), "{err}");
    assert!(err.contains("zip"), "{err}");
    let mut left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            "dotdot.zip",
            "many-entry-bomb.zip",
            "one-entry-bomb.zip",
            "truncated.zip"
        ]
    );
}

/// A zstd bomb hits the cap; truncated zstd is reported as truncated; the rest is read.
#[test]
fn hostile_zstd() {
    let tmp = tempfile::tempdir().unwrap();
    let tar = common::tar_files(&[
        (CV_PATH.into(), CV.into()),
        (
            "mg/img/cluster-scoped-resources/core/nodes/bomb.yaml".into(),
            vec![b' '; 32 << 20],
        ),
    ]);
    let p = tmp.path().join("bomb.tar.zst");
    std::fs::write(&p, common::zstd(&tar)).unwrap();
    assert!(std::fs::metadata(&p).unwrap().len() < 1 << 20);
    let b = ingest_with(&p, &small_caps());
    assert_eq!(b.objects.cluster_versions.len(), 1);
    assert!(
        b.diagnostics
            .iter()
            .any(|d| d.reason.contains("cap") && d.prov.file.path().ends_with("bomb.yaml")),
        "{:?}",
        b.diagnostics
    );
    // Truncated in the middle of the bomb entry: the ClusterVersion before it is kept.
    let z = common::zstd(&tar);
    let p = tmp.path().join("truncated.tar.zst");
    std::fs::write(&p, &z[..z.len() * 2 / 3]).unwrap();
    let b = ingest_with(&p, &IngestOptions::default());
    assert_eq!(b.objects.cluster_versions.len(), 1);
    assert!(
        b.diagnostics
            .iter()
            .any(|d| d.level == Severity::Error && d.reason.contains("truncated")),
        "{:?}",
        b.diagnostics
    );
}

/// A 2 GB file of one line (sparse) in a loose directory is looked at, not read: counted as
/// skipped, and the ClusterVersion beside it is analyzed.
#[test]
fn two_gigabyte_one_line_file_in_a_loose_directory() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("cv.yaml"), CV).unwrap();
    let f = std::fs::File::create(dir.path().join("dump.bin")).unwrap();
    f.set_len(2 << 30).unwrap();
    let b = ingest_one(dir.path());
    assert_eq!(b.objects.cluster_versions.len(), 1);
    assert_eq!(b.inputs[0].files_skipped, 1);
    assert!(b.inputs[0].bytes_read < 1 << 20, "{:?}", b.inputs[0]);
}

/// UpdateStatus API objects in a must-gather (the singleton with nested insights, and a
/// standalone HealthInsight) are read: `summary` lists them, `status` shows them after oc's
/// own text.
#[test]
fn update_status_api_objects_are_shown() {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_tree(&seed_dir(), tmp.path());
    let root = common::dir_files(tmp.path(), "")
        .into_iter()
        .find(|(p, _)| p.ends_with("clusterversions/version.yaml"))
        .map(|(p, _)| {
            p.split("/cluster-scoped-resources/")
                .next()
                .unwrap()
                .to_string()
        })
        .unwrap();
    let dir = tmp
        .path()
        .join(&root)
        .join("cluster-scoped-resources/update.openshift.io");
    std::fs::create_dir_all(dir.join("updatestatuses")).unwrap();
    std::fs::create_dir_all(dir.join("healthinsights")).unwrap();
    std::fs::write(
        dir.join("updatestatuses/cluster.yaml"),
        "apiVersion: update.openshift.io/v1alpha1\nkind: UpdateStatus\nmetadata:\n  name: cluster\nstatus:\n  controlPlane:\n    informers:\n    - name: update-status-controller\n      insights:\n      - type: ClusterVersion\n        clusterVersion:\n          resource: {group: config.openshift.io, resource: clusterversions, name: version}\n          assessment: Progressing\n          versions: {previous: {version: 4.2.36}, target: {version: 4.3.10}}\n          completion: 97\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("healthinsights/etcd-degraded.yaml"),
        "apiVersion: update.openshift.io/v1alpha1\nkind: HealthInsight\nmetadata:\n  name: etcd-degraded\nstatus:\n  startedAt: \"2020-04-09T18:00:00Z\"\n  scope: {type: ControlPlane, resources: [{group: config.openshift.io, resource: clusteroperators, name: etcd}]}\n  impact: {level: Error, type: API Availability, summary: Cluster Operator etcd is degraded}\n  remediation: {reference: \"https://docs.openshift.com/\"}\n",
    )
    .unwrap();
    let input = tmp.path().to_str().unwrap();
    let b = ingest_one(tmp.path());
    assert_eq!(b.objects.update_statuses.len(), 2, "{:?}", b.diagnostics);
    let summary = common::mglint(&["summary", input]);
    let text = String::from_utf8_lossy(&summary.stdout);
    assert!(
        text.contains("Update insights the cluster reported (UpdateStatus API): 2")
            && text.contains("ClusterVersion version: Progressing 97% 4.2.36 \u{2192} 4.3.10")
            && text.contains("Error (API Availability): Cluster Operator etcd is degraded [clusteroperators.config.openshift.io/etcd]"),
        "{text}"
    );
    let status = common::mglint(&["status", input]);
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(
        text.contains("= Update insights the cluster reported (UpdateStatus API) =")
            && text.contains("Error (API Availability)"),
        "{status:?}"
    );
}
