//! A dump that lacks a whole kind of input (a component must-gather with no ClusterVersion,
//! a must-gather without the CVO's logs) is analysed for what it holds, and every output
//! says up front what is missing and how many rules that kept from running.

use crate::common;

/// seed 1's must-gather without its ClusterVersion and CVO logs (what a component
/// must-gather, an `oc adm inspect` of operators, holds).
fn component_dump(dir: &std::path::Path) {
    common::copy_tree(&common::fixture("must-gather/seed1-blocked"), dir);
    for e in walk(dir) {
        let s = e.to_string_lossy();
        if s.contains("clusterversions")
            || (s.contains("cluster-version-operator") && s.ends_with(".log"))
        {
            let _ = std::fs::remove_file(&e);
        }
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_dump_without_a_cluster_version_is_analysed_and_says_what_it_lacks() {
    let dir = tempfile::tempdir().unwrap();
    component_dump(dir.path());
    let input = dir.path().to_str().unwrap();
    let o = common::mglint(&["analyze", input]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    let head: Vec<&str> = text.lines().take(6).collect();
    assert!(
        head.iter()
            .any(|l| l.starts_with("note: no ClusterVersion in the input: ")
                && l.ends_with("rules could not run")),
        "{text}"
    );
    assert!(
        head.iter()
            .any(|l| l.starts_with("note: no CVO log in the input")),
        "{text}"
    );
    // What it holds is still analysed: the operator that blocks updates.
    assert!(text.contains("clusteroperator/kube-apiserver"), "{text}");
    // JSON and Markdown say the same.
    let o = common::mglint(&["analyze", input, "--format", "json", "--exit-zero"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let absent = v["absent"].as_array().unwrap();
    assert_eq!(absent[0]["input"], "a ClusterVersion");
    assert!(
        absent[0]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "CV001")
    );
    let o = common::mglint(&["analyze", input, "--format", "markdown", "--exit-zero"]);
    let md = String::from_utf8(o.stdout).unwrap();
    assert!(
        md.contains("- **Missing:** no ClusterVersion in the input: "),
        "{md}"
    );
}

#[test]
fn a_complete_must_gather_names_nothing_it_does_not_need() {
    // A must-gather is no CI job: its missing JUnit and test logs are no news.
    let o = common::mglint(&[
        "analyze",
        "--format",
        "json",
        "--exit-zero",
        common::fixture("must-gather/fixed-cvo-rejected-4.14")
            .to_str()
            .unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for a in v["absent"].as_array().unwrap() {
        let what = a["input"].as_str().unwrap();
        assert!(
            !what.contains("JUnit")
                && !what.contains("CI test log")
                && !what.contains("ClusterVersion"),
            "{what}"
        );
    }
}

/// Every input's files: read, opened as archives, or not read for a reason, adding up.
fn assert_accounted(inputs: &[String]) -> Vec<mglint::bundle::InputInfo> {
    let run = mglint::app::load(inputs, &mglint::app::Settings::default())
        .unwrap_or_else(|e| panic!("{inputs:?}: {e}"));
    let mut all = Vec::new();
    for a in run.analyses() {
        for i in &a.bundle.inputs {
            assert_eq!(
                i.files_seen,
                i.files_read + i.archives_opened + i.not_read.total(),
                "{}: {i:?}",
                i.name
            );
            all.push(i.clone());
        }
    }
    all
}

#[test]
fn every_file_looked_at_is_read_or_not_read_for_a_reason() {
    let mut inputs: Vec<String> = ["must-gather", "ci", "files"]
        .iter()
        .flat_map(|d| std::fs::read_dir(common::fixture(d)).unwrap().flatten())
        .map(|e| e.path().to_string_lossy().into_owned())
        .collect();
    inputs.sort();
    for input in &inputs {
        assert_accounted(std::slice::from_ref(input));
    }
    // The hostile and broken inputs too, wherever they can be opened at all.
    let mut checked = 0;
    for e in std::fs::read_dir(common::fixture("bad")).unwrap().flatten() {
        let input = e.path().to_string_lossy().into_owned();
        let settings = mglint::app::Settings::default();
        let Ok(run) = mglint::app::load(std::slice::from_ref(&input), &settings) else {
            continue;
        };
        for a in run.analyses() {
            for i in &a.bundle.inputs {
                let sum = i.files_read + i.archives_opened + i.not_read.total();
                assert_eq!(i.files_seen, sum, "{input}: {i:?}");
            }
        }
        checked += 1;
    }
    assert!(checked > 5, "{checked}");
    // An archive of a must-gather, and a directory with a link, a FIFO, an unknown file and
    // a file no rule reads inside the must-gather.
    let dir = tempfile::tempdir().unwrap();
    let tar = dir.path().join("mg.tar.gz");
    std::fs::write(
        &tar,
        common::gzip(&common::tar_dir(
            &common::fixture("must-gather/seed1-blocked"),
            "mg",
        )),
    )
    .unwrap();
    let info = assert_accounted(&[tar.to_string_lossy().into_owned()]);
    assert!(info[0].not_read.not_needed.count >= 1, "{info:?}");
    let tree = dir.path().join("tree");
    std::fs::create_dir(&tree).unwrap();
    common::copy_tree(&common::fixture("must-gather/seed1-blocked"), &tree);
    std::fs::write(tree.join("notes.bin"), [0u8, 159, 146, 150, 7, 1]).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", tree.join("link")).unwrap();
    let fifo = common::mkfifo(&tree.join("pipe"));
    let info = assert_accounted(&[tree.to_string_lossy().into_owned()]);
    let n = &info[0].not_read;
    assert_eq!(n.unknown_format.first, ["notes.bin"], "{n:?}");
    assert!(n.not_regular.first.contains(&"link".to_string()), "{n:?}");
    if fifo {
        assert!(n.not_regular.first.contains(&"pipe".to_string()), "{n:?}");
    }
    // The summary says so, by reason, and never "0 not read" when some were not.
    let o = common::mglint(&["summary", tree.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("not read, unknown format: 1 (notes.bin)"),
        "{text}"
    );
    assert!(text.contains("not read, not a regular file: "), "{text}");
    let o = common::mglint(&["summary", tree.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["inputs"][0]["not_read"]["unknown_format"]["count"], 1);
}

/// A resourcewatch repository's tree (openshift/origin `pkg/resourcewatch`: one object per
/// file at the must-gather path, Events as events.k8s.io/v1), written from its public layout.
fn resourcewatch_tree(dir: &std::path::Path) {
    let cv = std::fs::read_to_string(common::fixture("files/cv-healthy-4.14.yaml")).unwrap();
    let files = [
        (
            "cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml",
            cv,
        ),
        (
            "namespaces/openshift-cluster-version/core/pods/cluster-version-operator-79cdd6dcf6-npqjw.yaml",
            r#"apiVersion: v1
kind: Pod
metadata:
  name: cluster-version-operator-79cdd6dcf6-npqjw
  namespace: openshift-cluster-version
  creationTimestamp: "2023-03-08T10:02:11Z"
spec:
  containers:
  - name: cluster-version-operator
    image: quay.io/openshift-release-dev/ocp-release@sha256:1111111111111111111111111111111111111111111111111111111111111111
status:
  phase: Running
  startTime: "2023-03-08T10:02:11Z"
  containerStatuses:
  - name: cluster-version-operator
    ready: true
    restartCount: 0
"#
            .to_string(),
        ),
        (
            "namespaces/openshift-cluster-version/events.k8s.io/events/version.174a6ee4d2b58340.yaml",
            r#"apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: version.174a6ee4d2b58340
  namespace: openshift-cluster-version
  uid: 5e0c1a9e-1d55-4b8e-9d57-0c2d3a9f8e11
  creationTimestamp: "2023-03-08T10:05:42Z"
regarding:
  kind: ClusterVersion
  name: version
  namespace: openshift-cluster-version
reason: RetrievePayload
note: 'Retrieving and verifying payload version="4.14.8" image="quay.io/openshift-release-dev/ocp-release@sha256:2222222222222222222222222222222222222222222222222222222222222222"'
type: Normal
eventTime: null
deprecatedSource:
  component: openshift-cluster-version-operator
deprecatedFirstTimestamp: "2023-03-08T10:05:42Z"
deprecatedLastTimestamp: "2023-03-08T10:05:42Z"
deprecatedCount: 1
reportingController: ""
"#
            .to_string(),
        ),
    ];
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

#[test]
fn a_resourcewatch_tree_gives_its_events_and_the_cvo_pod() {
    let dir = tempfile::tempdir().unwrap();
    resourcewatch_tree(dir.path());
    let input = dir.path().to_str().unwrap().to_string();
    let info = assert_accounted(std::slice::from_ref(&input));
    assert_eq!(info[0].files_read, 3, "{info:?}");
    let run = common::load(std::slice::from_ref(&input), &[]);
    let b = &run.analyses()[0].bundle;
    assert_eq!(b.objects.events.len(), 1);
    let e = &b.objects.events[0];
    assert_eq!(
        (e.involved_object.kind.as_str(), e.reason.as_str()),
        ("ClusterVersion", "RetrievePayload")
    );
    assert!(e.message.contains("4.14.8"), "{e:?}");
    assert!(e.first_seen().is_some());
    assert_eq!(b.objects.cvo_pods.len(), 1);
    // The event is on the timeline.
    let tl = run.analyses()[0].timeline();
    let from_file = |ev: &&mglint::timeline::TimelineEvent| {
        ev.evidence
            .iter()
            .any(|e| e.prov.file.path().contains("events.k8s.io/events/"))
    };
    assert!(tl.events.iter().any(|e| from_file(&e)), "{:?}", tl.events);
}
