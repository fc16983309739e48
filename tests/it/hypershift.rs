//! A HyperShift management cluster's must-gather holding two hosted clusters (the layout
//! `hypershift dump cluster --dump-guest-cluster` writes, fixture written from
//! openshift/hypershift's dump code): the management cluster and each hosted cluster are
//! analysed apart; a hosted cluster gets its guest dump (`hostedcluster-<name>/`) and its
//! control plane namespace (the HostedControlPlane and the hosted CVO's flat pod logs), and the
//! management cluster neither.

use crate::common;
use mglint::rules::Report;

const MG: &str = "must-gather/hypershift-mgmt-two-hosted";
const MGMT: &str = "9e4b2d71-5c3a-4f08-8d6e-1a7f0c2b9d53";
const ALPHA: &str = "3c1e6f4a-8f7d-4d1b-9d55-2f0a6c7b1a01";
const BETA: &str = "b7d2a9e0-41c6-4f3e-8a1b-6c5d0e9f2a47";

fn codes(r: &Report) -> Vec<&str> {
    r.findings.iter().map(|f| &*f.code).collect()
}

#[test]
fn each_hosted_cluster_is_analysed_on_its_own_with_its_cvo_log() {
    let input = common::fixture(MG).to_string_lossy().into_owned();
    let run = common::load(std::slice::from_ref(&input), &[]);
    let by_id = |id: &str| {
        run.analyses()
            .iter()
            .find(|a| a.report().cluster.id.as_deref() == Some(id))
            .unwrap_or_else(|| panic!("no analysis of {id}: {:?}", run.warnings))
    };
    assert_eq!(run.analyses().len(), 3, "{:?}", run.warnings);
    assert!(
        run.warnings
            .iter()
            .any(|w| w.contains("3 different clusters"))
    );

    // The management cluster: its own 4.15.3, no hosted object, no hosted CVO log.
    let mgmt = by_id(MGMT);
    assert_eq!(mgmt.report().cluster.to.as_deref(), Some("4.15.3"));
    assert!(
        mgmt.bundle.cvo_logs.is_empty(),
        "{:?}",
        mgmt.bundle.cvo_logs.len()
    );
    assert!(
        mgmt.bundle
            .objects
            .cluster_operators
            .iter()
            .all(|co| co.operator_version() == Some("4.15.3")),
        "a hosted cluster's operators leaked into the management cluster"
    );
    assert!(
        !codes(mgmt.report()).contains(&"CO003"),
        "{:?}",
        codes(mgmt.report())
    );

    // alpha: updated 4.14.10 → 4.14.12 and healthy, from its own CVO log.
    let alpha = by_id(ALPHA);
    assert_eq!(alpha.report().cluster.from.as_deref(), Some("4.14.10"));
    assert_eq!(alpha.report().cluster.to.as_deref(), Some("4.14.12"));
    assert_eq!(alpha.bundle.cvo_logs.len(), 1);
    assert_eq!(
        alpha.bundle.cvo_logs[0].pod,
        "cluster-version-operator-7c9d8f6b54-x2k8p"
    );
    assert_eq!(
        alpha.bundle.cvo_logs[0].file,
        mglint::vocab::wants::LogFile::Current
    );
    // The flat log's lines have no year: it is taken from the dump's collection time.
    let span = alpha.bundle.cvo_logs[0].span().expect("times");
    assert_eq!(mglint::vocab::time::fmt_ms(&span.0)[..10], *"2024-02-20");
    assert_eq!(
        alpha.report().summary.errors,
        0,
        "{:?}",
        codes(alpha.report())
    );
    assert_eq!(
        alpha.report().summary.warnings,
        0,
        "{:?}",
        codes(alpha.report())
    );

    // beta: mid-update, waiting on network, one CVO restart (its -previous log): the restart
    // is reported, nothing else above info, and the reference model agrees with its status.
    let beta = by_id(BETA);
    let mut pods: Vec<(String, bool)> = beta
        .bundle
        .cvo_logs
        .iter()
        .map(|l| (l.pod.clone(), l.is_previous()))
        .collect();
    pods.sort();
    assert_eq!(
        pods,
        [
            (
                "cluster-version-operator-5b8c7d9f4d-m9z3c".to_string(),
                false
            ),
            (
                "cluster-version-operator-5b8c7d9f4d-m9z3c".to_string(),
                true
            )
        ]
    );
    let c = codes(beta.report());
    assert!(c.contains(&"LOG001"), "{c:?}");
    // The restarted CVO's pod runs in the hosted control plane namespace.
    let restart = beta
        .report()
        .findings
        .iter()
        .find(|f| f.code == "LOG001")
        .unwrap();
    assert_eq!(
        restart.object.display(),
        "pod/clusters-beta/cluster-version-operator-5b8c7d9f4d-m9z3c"
    );
    assert!(!c.contains(&"RC003"), "{c:?}");
    assert_eq!(beta.report().summary.errors, 0, "{c:?}");
}

#[test]
fn status_names_the_hosted_cluster_it_speaks_of() {
    let input = common::fixture(MG).to_string_lossy().into_owned();
    let o = common::mglint(&["status", &input]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout).unwrap();
    let heads: Vec<&str> = out.lines().filter(|l| l.starts_with("Cluster ")).collect();
    assert_eq!(
        heads,
        [
            format!("Cluster 1 of 3: {MGMT}").as_str(),
            format!("Cluster 2 of 3: hosted cluster alpha ({ALPHA})").as_str(),
            format!("Cluster 3 of 3: hosted cluster beta ({BETA})").as_str(),
        ]
    );
    // beta is updating (oc's words), alpha and the management cluster are not.
    let beta = out.split("hosted cluster beta").nth(1).unwrap();
    assert!(
        beta.contains("Target Version:  4.14.12 (from 4.14.10)"),
        "{beta}"
    );
    assert!(beta.contains("Updating:        network"), "{beta}");
    let alpha = out
        .split("hosted cluster alpha")
        .nth(1)
        .unwrap()
        .split("hosted cluster beta")
        .next()
        .unwrap();
    assert!(alpha.contains("The cluster is not updating."), "{alpha}");
}

#[test]
fn an_archive_of_the_dump_keeps_the_hosted_clusters_apart_too() {
    // The same dump as a tar.gz: it cannot be listed as a directory, so each hosted cluster's
    // control plane namespace is found by its CVO log; the management cluster gets none.
    let files = common::dir_files(&common::fixture(MG), "");
    let tmp = tempfile::tempdir().unwrap();
    let archive = tmp.path().join("hypershift-dump.tar.gz");
    std::fs::write(&archive, common::gzip(&common::tar_files(&files))).unwrap();
    let input = archive.to_str().unwrap().to_string();
    let run = common::load(std::slice::from_ref(&input), &[]);
    assert_eq!(run.analyses().len(), 3, "{:?}", run.warnings);
    for a in run.analyses() {
        let id = a.report().cluster.id.clone().unwrap_or_default();
        let pods: Vec<&str> = a.bundle.cvo_logs.iter().map(|l| l.pod.as_str()).collect();
        match id.as_str() {
            MGMT => assert!(pods.is_empty(), "{pods:?}"),
            ALPHA => assert_eq!(pods, ["cluster-version-operator-7c9d8f6b54-x2k8p"]),
            BETA => assert_eq!(pods.len(), 2, "{pods:?}"),
            other => panic!("unexpected cluster {other}"),
        }
        assert_eq!(
            a.report().summary.errors,
            0,
            "{id}: {:?}",
            codes(a.report())
        );
    }
}

#[test]
fn the_directory_and_its_archive_read_the_same_files_for_each_cluster() {
    // Cut from one walk, each cluster reads the same files whether the dump is a directory
    // (where a hosted cluster's control plane namespace is an input of its own) or an
    // archive: the same files read, objects, CVO logs and findings.
    let dir = common::fixture(MG);
    let files = common::dir_files(&dir, "");
    let tmp = tempfile::tempdir().unwrap();
    let archive = tmp.path().join("hypershift-dump.tar.gz");
    std::fs::write(&archive, common::gzip(&common::tar_files(&files))).unwrap();
    let per_cluster = |input: &std::path::Path| {
        let run = common::load(&[input.to_string_lossy().into_owned()], &[]);
        let mut out: Vec<(String, u64, usize, usize, usize, Vec<String>)> = run
            .analyses()
            .iter()
            .map(|a| {
                let b = &a.bundle;
                (
                    a.report().cluster.id.clone().unwrap_or_default(),
                    b.inputs.iter().map(|i| i.files_read).sum(),
                    b.objects.events.len() + b.objects.cvo_pods.len(),
                    b.objects.cluster_operators.len(),
                    b.cvo_logs.len(),
                    codes(a.report()).iter().map(|c| c.to_string()).collect(),
                )
            })
            .collect();
        out.sort();
        out
    };
    let from_dir = per_cluster(&dir);
    assert_eq!(from_dir.len(), 3);
    assert_eq!(from_dir, per_cluster(&archive));
}

/// The image directory of the fixture's must-gather.
const IMAGE: &str = "must-gather.local.6120488173357904112/registry-redhat-io-multicluster-engine-must-gather-rhel9-sha256-c2ef3b7d728fe4c5af72a1745bc3f7ebf921585f8081f5eb35a020accbccd8c3";

/// The fixture's files with `change` applied (paths relative to the fixture), written as a
/// directory and as a tar.gz of the same files.
fn variant(
    tmp: &std::path::Path,
    change: impl Fn(&mut Vec<(String, Vec<u8>)>),
) -> [std::path::PathBuf; 2] {
    let mut files = common::dir_files(&common::fixture(MG), "");
    change(&mut files);
    let dir = tmp.join("dump");
    for (path, bytes) in &files {
        let at = dir.join(path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(at, bytes).unwrap();
    }
    let archive = tmp.join("dump.tar.gz");
    std::fs::write(&archive, common::gzip(&common::tar_files(&files))).unwrap();
    [dir, archive]
}

fn hcp(ns: &str, name: &str) -> String {
    format!("{IMAGE}/namespaces/{ns}/hypershift.openshift.io/hostedcontrolplanes/{name}.yaml")
}

/// Each cluster's CVO pods, by cluster ID, and the run's warnings.
fn pods_by_cluster(input: &std::path::Path) -> (Vec<(String, Vec<String>)>, Vec<String>) {
    let run = common::load(&[input.to_string_lossy().into_owned()], &[]);
    let mut out: Vec<(String, Vec<String>)> = run
        .analyses()
        .iter()
        .map(|a| {
            let mut pods: Vec<String> = a.bundle.cvo_logs.iter().map(|l| l.pod.clone()).collect();
            pods.sort();
            pods.dedup();
            (a.report().cluster.id.clone().unwrap_or_default(), pods)
        })
        .collect();
    out.sort();
    (out, run.warnings.clone())
}

const ALPHA_POD: &str = "cluster-version-operator-7c9d8f6b54-x2k8p";
const BETA_POD: &str = "cluster-version-operator-5b8c7d9f4d-m9z3c";

/// The split the fixture's own objects say: the management cluster no CVO log, each hosted
/// cluster its own.
fn right_split() -> Vec<(String, Vec<String>)> {
    let mut v = vec![
        (MGMT.to_string(), vec![]),
        (ALPHA.to_string(), vec![ALPHA_POD.to_string()]),
        (BETA.to_string(), vec![BETA_POD.to_string()]),
    ];
    v.sort();
    v
}

#[test]
fn a_misplaced_hosted_control_plane_does_not_swap_cvo_logs() {
    // alpha's HostedControlPlane (its own namespace `clusters-alpha`) moved under beta's
    // namespace: the split follows what it says, in both forms, with a warning.
    let tmp = tempfile::tempdir().unwrap();
    for input in variant(tmp.path(), |files| {
        for (p, _) in files.iter_mut() {
            if *p == hcp("clusters-alpha", "alpha") {
                *p = hcp("clusters-beta", "alpha");
            }
        }
    }) {
        let (split, warnings) = pods_by_cluster(&input);
        assert_eq!(split, right_split(), "{}", input.display());
        assert!(
            warnings.iter().any(|w| w.contains(
                "says its namespace is `clusters-alpha` but sits in `namespaces/clusters-beta/`"
            )),
            "{warnings:?}"
        );
    }
}

#[test]
fn a_duplicated_hosted_control_plane_keeps_its_cluster_and_is_named() {
    // alpha's HostedControlPlane also copied under beta's namespace.
    let tmp = tempfile::tempdir().unwrap();
    for input in variant(tmp.path(), |files| {
        let copy = files
            .iter()
            .find(|(p, _)| *p == hcp("clusters-alpha", "alpha"))
            .map(|(_, b)| (hcp("clusters-beta", "alpha"), b.clone()))
            .unwrap();
        files.push(copy);
    }) {
        let (split, warnings) = pods_by_cluster(&input);
        assert_eq!(split, right_split(), "{}", input.display());
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("HostedControlPlane `clusters-alpha/alpha` is in 2 files")),
            "{warnings:?}"
        );
    }
}

#[test]
fn two_hosted_control_planes_claiming_one_namespace_give_it_to_neither() {
    // beta's HostedControlPlane says it lives in `clusters-alpha` too: which hosted cluster
    // the CVO log there is cannot be told, so no cluster gets a CVO log it may not own, and
    // the run says why; the directory and the archive agree.
    let tmp = tempfile::tempdir().unwrap();
    let forms = variant(tmp.path(), |files| {
        for (p, b) in files.iter_mut() {
            if *p == hcp("clusters-beta", "beta") {
                let text = String::from_utf8(b.clone()).unwrap();
                *b = text
                    .replace(
                        "  namespace: clusters-beta\n",
                        "  namespace: clusters-alpha\n",
                    )
                    .into_bytes();
            }
        }
    });
    let mut splits = Vec::new();
    for input in &forms {
        let (split, warnings) = pods_by_cluster(input);
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("2 HostedControlPlanes claim the namespace `clusters-alpha`")),
            "{warnings:?}"
        );
        assert_eq!(split.len(), 3);
        for (id, pods) in &split {
            assert!(pods.is_empty(), "{id}: {pods:?}");
        }
        splits.push(split);
    }
    assert_eq!(splits[0], splits[1]);
}

/// The walker classifies each path once and the location travels with the file: the hosted
/// CVO logs carry their pod, file and control plane namespace, the HostedControlPlanes the
/// namespace their folder names, the ClusterVersion the kind its path names; each location is
/// what classifying the path alone says, made whole with the input's name.
#[test]
fn the_walker_hands_each_file_its_typed_location() {
    use mglint::vocab::FileKind;
    use mglint::vocab::kind::{Location, classify};
    use mglint::vocab::wants::LogFile;
    let input = common::fixture(MG).to_string_lossy().into_owned();
    let got = mglint::source::collect(&input, &mglint::source::SourceOptions::default()).unwrap();
    let mut hosted_logs = Vec::new();
    let mut planes = Vec::new();
    let mut versions = 0;
    for f in &got.files {
        let (kind, at) = classify(&f.path).unwrap_or_else(|| panic!("{}", f.path));
        assert_eq!(kind, f.kind, "{}", f.path);
        match (&f.at, at) {
            (Location::CvoLog(c), Location::CvoLog(by_path)) => {
                assert_eq!((&c.pod, c.file), (&by_path.pod, by_path.file));
                if let Some(ns) = &c.namespace {
                    hosted_logs.push((ns.clone(), c.pod.clone(), c.file));
                }
            }
            (Location::Resource(r), Location::Resource(by_path)) => {
                assert_eq!(
                    (&r.resource, &r.namespace, r.for_rules),
                    (&by_path.resource, &by_path.namespace, false),
                    "{}",
                    f.path
                );
                if f.path.contains("/hostedcontrolplanes/") {
                    planes.push(r.namespace.clone().unwrap_or_default());
                }
                if f.path.ends_with("/clusterversions/version.yaml") {
                    assert_eq!(r.object, Some("ClusterVersion"), "{}", f.path);
                    versions += 1;
                }
            }
            (mine, by_path) => assert_eq!(mine, &by_path, "{}", f.path),
        }
    }
    hosted_logs.sort();
    let pods: Vec<(&str, LogFile)> = hosted_logs
        .iter()
        .map(|(ns, pod, file)| {
            assert!(pod.starts_with("cluster-version-operator-"), "{pod}");
            (ns.as_str(), *file)
        })
        .collect();
    assert!(
        pods.contains(&("clusters-alpha", LogFile::Current)),
        "{pods:?}"
    );
    assert!(
        pods.contains(&("clusters-beta", LogFile::Previous)),
        "{pods:?}"
    );
    planes.sort();
    assert_eq!(planes, ["clusters-alpha", "clusters-beta"]);
    assert!(versions >= 1);
    assert!(got.files.iter().any(|f| f.kind == FileKind::CvoLog));
}
