//! Clusters kept apart inside one input: a directory or an archive holding must-gathers of two
//! clusters is split by must-gather and analysed as two (with a warning saying so), and two
//! clusters whose
//! ClusterVersion status is identical are never merged into one snapshot.

use crate::common;

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
        let alone = common::report(
            &[common::fixture(&format!("must-gather/{f}"))
                .to_string_lossy()
                .into_owned()],
            &[],
        );
        let codes =
            |r: &mglint::rules::Report| r.findings.iter().map(|f| f.code).collect::<Vec<_>>();
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
    let mut files = Vec::new();
    for f in ["seed1-blocked", "fixed-cvo-rejected-4.14"] {
        files.extend(common::dir_files(
            &common::fixture(&format!("must-gather/{f}")),
            "",
        ));
    }
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
        let alone = common::report(
            &[common::fixture(&format!("must-gather/{f}"))
                .to_string_lossy()
                .into_owned()],
            &[],
        );
        let a = run
            .analyses()
            .iter()
            .find(|a| a.report().cluster.id == alone.cluster.id)
            .unwrap_or_else(|| panic!("{f}: no analysis of its cluster"));
        let codes =
            |r: &mglint::rules::Report| r.findings.iter().map(|f| f.code).collect::<Vec<_>>();
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
