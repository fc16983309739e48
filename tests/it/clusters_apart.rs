//! Clusters kept apart inside one input: a directory or an archive holding must-gathers of two
//! clusters is split by must-gather and analysed as two (with a warning saying so), and two
//! clusters whose
//! ClusterVersion status is identical are never merged into one snapshot.

use crate::common;

/// The files of fixture must-gathers `names`, paths relative to the fixtures' folders (so
/// their `must-gather.local.*` folders sit side by side).
fn must_gather_files(names: &[&str]) -> Vec<(String, Vec<u8>)> {
    names
        .iter()
        .flat_map(|f| common::dir_files(&common::fixture(&format!("must-gather/{f}")), ""))
        .collect()
}

/// The report of fixture must-gather `f` analysed on its own.
fn report_alone(f: &str) -> mglint::rules::Report {
    let input = common::fixture(&format!("must-gather/{f}"));
    common::report(&[input.to_string_lossy().into_owned()], &[])
}

#[test]
fn a_directory_of_two_clusters_must_gathers_is_analysed_apart_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["seed1-blocked", "fixed-cvo-rejected-4.14"] {
        common::copy_tree(&common::fixture(&format!("must-gather/{f}")), dir.path());
    }
    let input = dir.path().to_str().unwrap().to_string();
    let run = common::load(std::slice::from_ref(&input), &[]);
    assert_eq!(run.analyses().len(), 2, "{:?}", run.warnings);
    assert!(
        run.warnings
            .iter()
            .any(|w| w.contains("2 different clusters")),
        "{:?}",
        run.warnings
    );
    // Each analysis is the one its must-gather gives alone.
    for (a, f) in run
        .analyses()
        .iter()
        .zip(["fixed-cvo-rejected-4.14", "seed1-blocked"])
    {
        let alone = report_alone(f);
        let codes = |r: &mglint::rules::Report| {
            r.findings
                .iter()
                .map(|f| f.code.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(codes(a.report()), codes(&alone), "{f}");
        assert_eq!(
            a.report().cluster.id,
            alone.cluster.id,
            "{f}: the cluster of its own must-gather"
        );
    }
    // The command line says so and writes one JSON line per cluster.
    let o = common::mglint(&["analyze", "--format", "json", "--exit-zero", &input]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("2 different clusters"), "{err}");
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 2);
}

#[test]
fn an_archive_of_two_clusters_must_gathers_is_analysed_apart() {
    // One tar.gz holding two must-gathers of two clusters: each cluster is read from its own
    // part of the archive, and each analysis is the one its must-gather gives alone.
    let files = must_gather_files(&["seed1-blocked", "fixed-cvo-rejected-4.14"]);
    let tmp = tempfile::tempdir().unwrap();
    let archive = tmp.path().join("two.tar.gz");
    std::fs::write(&archive, common::gzip(&common::tar_files(&files))).unwrap();
    let input = archive.to_str().unwrap().to_string();
    let run = common::load(std::slice::from_ref(&input), &[]);
    assert_eq!(run.analyses().len(), 2, "{:?}", run.warnings);
    assert!(
        run.warnings
            .iter()
            .all(|w| !w.contains("cannot be told apart")),
        "{:?}",
        run.warnings
    );
    for f in ["seed1-blocked", "fixed-cvo-rejected-4.14"] {
        let alone = report_alone(f);
        let a = run
            .analyses()
            .iter()
            .find(|a| a.report().cluster.id == alone.cluster.id)
            .unwrap_or_else(|| panic!("{f}: no analysis of its cluster"));
        let codes = |r: &mglint::rules::Report| {
            r.findings
                .iter()
                .map(|f| f.code.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(codes(a.report()), codes(&alone), "{f}");
        // Each part read alone: the same number of files as the must-gather on its own.
        assert_eq!(
            a.bundle.inputs[0].files_read, alone.inputs[0].files_read,
            "{f}"
        );
    }
}

#[test]
fn two_clusters_with_identical_status_are_two_snapshots_and_named_mixed() {
    let cv = std::fs::read_to_string(common::fixture("files/cv-healthy-4.14.yaml")).unwrap();
    let other = common::healthy_cv_of_cluster("0b7c3d2e-5f00-4a1b-9c8d-1234567890ab");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.yaml"), &cv).unwrap();
    std::fs::write(dir.path().join("b.yaml"), &other).unwrap();
    let input = dir.path().to_str().unwrap().to_string();
    let run = common::load(std::slice::from_ref(&input), &[]);
    let cvs = &run.analyses()[0].bundle.objects.cluster_versions;
    assert_eq!(
        cvs.len(),
        2,
        "identical status, different clusters: both kept"
    );
    // Loose files of two clusters in one input cannot be told apart: the run says so.
    assert!(
        run.warnings
            .iter()
            .any(|w| w.contains("cannot be told apart")),
        "{:?}",
        run.warnings
    );
}

/// A dump of three clusters in one tree: two must-gather folders, the second holding a
/// hosted cluster's dump, a link, and loose files beside them that belong to no cluster.
fn three_cluster_files() -> Vec<(String, Vec<u8>)> {
    let cv = |id: &str| common::healthy_cv_of_cluster(id).into_bytes();
    let cvs = "cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml";
    let log = "namespaces/openshift-cluster-version/pods/cluster-version-operator-1/cluster-version-operator/cluster-version-operator/logs/current.log";
    let line =
        b"I0305 10:14:05.000000       1 cvo.go:1] Starting ClusterVersionOperator\n".to_vec();
    let yaml = b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n".to_vec();
    let node = b"apiVersion: v1\nkind: Node\nmetadata:\n  name: stray\n".to_vec();
    let mut files = vec![
        ("README.md".to_string(), b"notes\n".to_vec()),
        (
            "mg.local.1/timestamp".to_string(),
            b"2024-03-05 10:20:00.000000000 +0000 UTC m=+0.1\n".to_vec(),
        ),
        ("mg.local.1/notes.bin".to_string(), vec![0, 1, 2, 3]),
        (
            format!("mg.local.1/quay-a/{cvs}"),
            cv("0a0a0a0a-0000-4000-8000-00000000000a"),
        ),
        (format!("mg.local.1/quay-a/{log}"), line.clone()),
        (
            "mg.local.1/quay-a/namespaces/other/core/configmaps.yaml".to_string(),
            yaml.clone(),
        ),
        (
            format!("mg.local.2/quay-b/{cvs}"),
            cv("0b0b0b0b-0000-4000-8000-00000000000b"),
        ),
        // Twice: an archive's later copy replaces the earlier, with a warning.
        (
            format!("mg.local.2/quay-b/{cvs}"),
            cv("0b0b0b0b-0000-4000-8000-00000000000b"),
        ),
        (
            "mg.local.2/quay-b/namespaces/x/core/configmaps.yaml".to_string(),
            yaml,
        ),
        (
            format!("mg.local.2/quay-b/hostedcluster-x/{cvs}"),
            cv("0c0c0c0c-0000-4000-8000-00000000000c"),
        ),
        (format!("mg.local.2/quay-b/hostedcluster-x/{log}"), line),
        ("stray.yaml".to_string(), node),
    ];
    files.sort();
    files
}

#[cfg(unix)]
fn symlink(at: &std::path::Path) {
    std::fs::create_dir_all(at.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink("version.yaml", at).unwrap();
}

fn write_files(root: &std::path::Path, files: &[(String, Vec<u8>)]) {
    for (p, data) in files {
        let at = root.join(p);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(at, data).unwrap();
    }
}

/// What a walk counts, without the name (which `part` gives) and the modification time.
fn counts(c: &mglint::source::Collected) -> (serde_json::Value, serde_json::Value) {
    let mut info = serde_json::to_value(&c.info).unwrap();
    info["name"] = serde_json::Value::Null;
    (info, serde_json::to_value(&c.diagnostics).unwrap())
}

#[test]
fn a_part_counts_what_walking_it_alone_counts() {
    // The oracle is the walker itself: each cluster's part of one walk (its counts, first
    // names per reason, layout and diagnostics) equals a walk of a tree or archive holding
    // that part's files alone.
    use mglint::source::{Part, SourceOptions, collect_as};
    let opts = SourceOptions {
        sniff: mglint::ingest::sniff::sniff_content,
        ..SourceOptions::default()
    };
    let files = three_cluster_files();
    let part = |keep: &str, drop: &[&str], own_input: bool| Part {
        input: "dump".to_string(),
        keep: vec![keep.to_string()],
        drop: drop.iter().map(|d| d.to_string()).collect(),
        own_input,
    };
    let hosted = "mg.local.2/quay-b/hostedcluster-x";
    let shapes: [(&str, &[&str]); 3] = [
        ("mg.local.1", &[]),
        ("mg.local.2/quay-b", &[hosted]),
        (hosted, &[]),
    ];
    let keeps: Vec<String> = shapes.iter().map(|(k, _)| k.to_string()).collect();

    // A directory: each part is a folder of its own.
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("dump");
    write_files(&tree, &files);
    // A link where a ClusterOperator would be: not followed, with a warning.
    let link = "quay-a/cluster-scoped-resources/config.openshift.io/clusteroperators/link.yaml";
    #[cfg(unix)]
    symlink(&tree.join("mg.local.1").join(link));
    let whole = collect_as(tree.to_str().unwrap(), "dump", &opts).unwrap();
    assert_eq!(whole.info.must_gather_roots.len(), 3, "{:?}", whole.info);
    for (keep, drop) in shapes {
        let p = part(keep, drop, true);
        let alone_dir = tmp.path().join(format!("alone-{}", keep.replace('/', "-")));
        let mine: Vec<(String, Vec<u8>)> = files
            .iter()
            .filter(|(path, _)| p.holds(path))
            .map(|(path, d)| (p.name_of("", path).1, d.clone()))
            .collect();
        write_files(&alone_dir, &mine);
        #[cfg(unix)]
        if keep == "mg.local.1" {
            symlink(&alone_dir.join(link));
        }
        let name = format!("dump/{keep}");
        let alone = collect_as(alone_dir.to_str().unwrap(), &name, &opts).unwrap();
        let cut = whole.part(&p, &keeps);
        assert_eq!(cut.info.name, name);
        assert_eq!(counts(&cut), counts(&alone), "{keep}");
        assert!(cut.info.files_seen > 0, "{keep}: {:?}", cut.info);
        #[cfg(unix)]
        if keep == "mg.local.1" {
            assert_eq!(cut.diagnostics.len(), 1, "{:?}", cut.diagnostics);
            assert_eq!(cut.diagnostics[0].prov.file.path(), link);
        }
    }

    // An archive: each part keeps the archive's name and paths.
    let archive = tmp.path().join("dump.tar.gz");
    std::fs::write(&archive, common::gzip(&common::tar_files(&files))).unwrap();
    let whole = collect_as(archive.to_str().unwrap(), "dump", &opts).unwrap();
    for (keep, drop) in shapes {
        let p = part(keep, drop, false);
        let mine: Vec<(String, Vec<u8>)> = files
            .iter()
            .filter(|(path, _)| p.holds(path))
            .cloned()
            .collect();
        let alone_archive = tmp.path().join("alone.tar.gz");
        std::fs::write(&alone_archive, common::gzip(&common::tar_files(&mine))).unwrap();
        let alone = collect_as(alone_archive.to_str().unwrap(), "dump", &opts).unwrap();
        let cut = whole.part(&p, &keeps);
        assert_eq!(cut.info.name, "dump");
        assert_eq!(counts(&cut), counts(&alone), "{keep}");
        let duplicates = usize::from(keep == "mg.local.2/quay-b");
        assert_eq!(
            cut.diagnostics.len(),
            duplicates,
            "{keep}: {:?}",
            cut.diagnostics
        );
        assert_eq!(
            cut.info.not_read.duplicate.count as usize, duplicates,
            "{keep}"
        );
    }
}

#[test]
fn three_clusters_in_one_tree_are_each_read_from_the_one_walk() {
    // Each cluster's analysis from the split walk holds what its own files hold: its
    // ClusterVersion, its CVO log, its files counted, and nothing of the others; the
    // loose files beside the must-gathers are no cluster's. As a directory and an archive.
    let files = three_cluster_files();
    let tmp = tempfile::tempdir().unwrap();
    let tree = tmp.path().join("dump");
    write_files(&tree, &files);
    let archive = tmp.path().join("dump.tar.gz");
    std::fs::write(&archive, common::gzip(&common::tar_files(&files))).unwrap();
    for (form, input) in [&tree, &archive].into_iter().enumerate() {
        let input = input.to_str().unwrap().to_string();
        let run = common::load(std::slice::from_ref(&input), &[]);
        assert_eq!(run.analyses().len(), 3, "{:?}", run.warnings);
        // Files looked at, in the directory and in the archive (where the duplicate entry
        // is one more).
        for (id, logs, seen) in [
            // The roots' top folders are not all distinct, so each part is a root: the
            // timestamp beside `quay-a` is no cluster's either.
            ("0a0a0a0a-0000-4000-8000-00000000000a", 1, [3, 3]),
            ("0b0b0b0b-0000-4000-8000-00000000000b", 0, [2, 3]),
            ("0c0c0c0c-0000-4000-8000-00000000000c", 1, [2, 2]),
        ] {
            let a = run
                .analyses()
                .iter()
                .find(|a| a.report().cluster.id.as_deref() == Some(id))
                .unwrap_or_else(|| panic!("{input}: no analysis of {id}"));
            let b = &a.bundle;
            assert_eq!(b.objects.cluster_versions.len(), 1, "{input} {id}");
            assert_eq!(b.cvo_logs.len(), logs, "{input} {id}");
            assert!(
                b.objects.nodes.is_empty(),
                "{input} {id}: a loose file joined"
            );
            let looked: u64 = b.inputs.iter().map(|i| i.files_seen).sum();
            assert_eq!(looked, seen[form], "{input} {id}: {:?}", b.inputs);
            let read: u64 = b.inputs.iter().map(|i| i.files_read).sum();
            assert_eq!(
                read as usize,
                b.sources_by_kind.values().sum::<u64>() as usize
            );
            // Every file the analysis names is one of its own.
            for cv in &b.objects.cluster_versions {
                assert!(b.files.entry(&cv.prov.file).is_some(), "{input} {id}");
            }
        }
    }
}

#[test]
fn an_input_that_cannot_be_read_does_not_stop_the_other_clusters() {
    // Two clusters and a path that does not exist, or an empty directory: both clusters are
    // analysed, and the run names the input that gave nothing (once, with the first).
    let dir = tempfile::tempdir().unwrap();
    for f in ["seed1-blocked", "fixed-cvo-rejected-4.14"] {
        common::copy_tree(&common::fixture(&format!("must-gather/{f}")), dir.path());
    }
    let empty = tempfile::tempdir().unwrap();
    let input = dir.path().to_str().unwrap().to_string();
    for (other, says) in [
        ("/nonexistent/mglint-input".to_string(), "no such file"),
        (
            empty.path().to_str().unwrap().to_string(),
            "no must-gather, CI artifacts, or known files found (0 files looked at)",
        ),
    ] {
        let run = common::load(&[input.clone(), other.clone()], &[]);
        assert_eq!(run.analyses().len(), 2, "{other}: {:?}", run.warnings);
        let errors: Vec<&String> = run
            .analyses()
            .iter()
            .flat_map(|a| &a.bundle.input_errors)
            .collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].contains(says) && errors[0].contains(&other),
            "{errors:?}"
        );
    }
}

#[test]
fn two_must_gathers_of_one_cluster_in_an_archive_are_both_read() {
    // seed1-blocked and seed1-returned are one cluster; with a second cluster beside them
    // in one archive, that cluster's analysis reads both must-gathers (as the directory
    // form does), not one of them twice.
    let files = must_gather_files(&["seed1-blocked", "seed1-returned", "fixed-cvo-rejected-4.14"]);
    let tmp = tempfile::tempdir().unwrap();
    let archive = tmp.path().join("three.tar.gz");
    std::fs::write(&archive, common::gzip(&common::tar_files(&files))).unwrap();
    let dir = tmp.path().join("three");
    write_files(&dir, &files);
    let read = |input: &std::path::Path| {
        let run = common::load(&[input.to_str().unwrap().to_string()], &[]);
        assert_eq!(run.analyses().len(), 2, "{:?}", run.warnings);
        let mut per: Vec<(String, u64, usize)> = run
            .analyses()
            .iter()
            .map(|a| {
                (
                    a.report().cluster.id.clone().unwrap_or_default(),
                    a.bundle.inputs.iter().map(|i| i.files_read).sum(),
                    a.bundle.cvo_logs.len(),
                )
            })
            .collect();
        per.sort();
        per
    };
    let from_archive = read(&archive);
    assert_eq!(from_archive, read(&dir));
    let seed1 = from_archive
        .iter()
        .find(|(id, ..)| id.starts_with("c42dd7e1"))
        .unwrap();
    let alone: u64 = ["seed1-blocked", "seed1-returned"]
        .iter()
        .map(|f| report_alone(f).inputs[0].files_read)
        .sum();
    assert_eq!(seed1.1, alone);
}
