//! Every cluster kept, in every verb and every format (issue #57): over each multi-cluster
//! input (the HyperShift dump, two must-gathers in one directory, a must-gather beside a CI
//! job of another cluster, 26 must-gathers of 26 clusters), `analyze`, `summary`,
//! `timeline`, `status`, `recommend` and `batch` find the same clusters, one document, row,
//! section or suite per cluster, with the same counts.

use crate::common;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const HYPERSHIFT: &str = "must-gather/hypershift-mgmt-two-hosted";
/// The cluster ID of `must-gather/seed1-blocked`.
const SEED1_ID: &str = "c42dd7e1-8f3b-4c9e-b2a6-5d71e0f4a913";

/// Copies the tree `from` into `to` (created), every `old` in a file's text made `new`.
fn copy_with(from: &Path, to: &Path, old: &str, new: &str) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_with(&e.path(), &dest, old, new);
        } else {
            let bytes = std::fs::read(e.path()).unwrap();
            let bytes = match String::from_utf8(bytes) {
                Ok(t) if !old.is_empty() => t.replace(old, new).into_bytes(),
                Ok(t) => t.into_bytes(),
                Err(e) => e.into_bytes(),
            };
            std::fs::write(&dest, bytes).unwrap();
        }
    }
}

/// A directory holding seed1-blocked's must-gather and modern-upgrade-4.14's CI job (two
/// clusters).
fn must_gather_and_job(root: &Path) -> PathBuf {
    let dir = root.join("mg-and-job");
    copy_with(&common::fixture("must-gather/seed1-blocked"), &dir, "", "");
    copy_with(
        &common::fixture("ci/modern-upgrade-4.14"),
        &dir.join("job"),
        "",
        "",
    );
    dir
}

/// A directory holding two must-gathers of two clusters.
fn two_must_gathers(root: &Path) -> PathBuf {
    let dir = root.join("two");
    for f in ["seed1-blocked", "fixed-cvo-rejected-4.14"] {
        copy_with(&common::fixture(&format!("must-gather/{f}")), &dir, "", "");
    }
    dir
}

/// A directory of `n` copies of seed1-blocked, each under `mg-NN/` with a cluster ID of
/// its own.
fn many_clusters(root: &Path, n: usize) -> PathBuf {
    let dir = root.join(format!("many-{n}"));
    for i in 0..n {
        let id = format!("{}{i:02}", &SEED1_ID[..SEED1_ID.len() - 2]);
        copy_with(
            &common::fixture("must-gather/seed1-blocked"),
            &dir.join(format!("mg-{i:02}")),
            SEED1_ID,
            &id,
        );
    }
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The JSON Lines documents `mglint <verb> --format json <input>` writes.
fn documents(verb: &str, input: &Path) -> Vec<Value> {
    let o = common::mglint(&[verb, "--format", "json", s(input)]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        o.status.code().is_some_and(|c| c < 2),
        "{verb}: {:?}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{verb}: {e}: {l}")))
        .collect()
}

fn ids(docs: &[Value]) -> Vec<String> {
    docs.iter()
        .map(|d| d["cluster"]["id"].as_str().unwrap_or("").to_string())
        .collect()
}

/// A text format of `analyze`.
fn analyze_as(format: &str, input: &Path) -> String {
    let o = common::mglint(&["analyze", "--exit-zero", "--format", format, s(input)]);
    String::from_utf8(o.stdout).unwrap()
}

/// Every verb and format over `input`, which holds `n` clusters: each finds the same
/// clusters, once each, with the same counts.
fn every_verb_keeps_every_cluster(input: &Path, n: usize) {
    let reports = documents("analyze", input);
    let clusters = ids(&reports);
    assert_eq!(clusters.len(), n, "{}", input.display());
    let distinct: BTreeSet<&String> = clusters.iter().collect();
    assert_eq!(distinct.len(), n, "{clusters:?}");
    let findings: Vec<usize> = reports
        .iter()
        .map(|r| r["findings"].as_array().unwrap().len())
        .collect();
    for verb in ["summary", "timeline", "status", "recommend"] {
        assert_eq!(ids(&documents(verb, input)), clusters, "{verb}");
    }
    // batch: a row per cluster, in the same order, with the report's findings.
    let o = common::mglint(&["batch", s(input)]);
    let rows: Vec<Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(ids(&rows), clusters, "batch");
    for (i, (row, n_findings)) in rows.iter().zip(&findings).enumerate() {
        assert_eq!(row["index"], 0);
        assert_eq!(row["cluster_index"], i);
        assert_eq!(row["clusters"], n);
        let sum: u64 = ["errors", "warnings", "info"]
            .iter()
            .map(|k| row["summary"][k].as_u64().unwrap())
            .sum();
        assert_eq!(sum as usize, *n_findings, "batch row {i}");
    }
    // The formats: one suite, run or section per cluster, each with its findings.
    let junit = analyze_as("junit", input);
    assert_eq!(junit.matches("<testsuite ").count(), n, "junit");
    let sarif: Value = serde_json::from_str(&analyze_as("sarif", input)).unwrap();
    let results: Vec<usize> = sarif["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["results"].as_array().map_or(0, Vec::len))
        .collect();
    assert_eq!(results, findings, "sarif");
    for (format, head) in [("markdown", "# Cluster "), ("human", "Cluster ")] {
        let text = analyze_as(format, input);
        for i in 1..=n {
            let h = format!("{head}{i} of {n}: ");
            assert_eq!(
                text.lines().filter(|l| l.starts_with(&h)).count(),
                1,
                "{format}: {h}"
            );
        }
    }
    let html = analyze_as("html", input);
    for i in 1..=n {
        assert!(html.contains(&format!("id=\"c{i}-")), "html: cluster {i}");
    }
}

#[test]
fn every_verb_and_format_keeps_every_cluster_of_a_hypershift_dump() {
    every_verb_keeps_every_cluster(&common::fixture(HYPERSHIFT), 3);
}

#[test]
fn every_verb_and_format_keeps_both_must_gathers_of_a_directory() {
    let tmp = tempfile::tempdir().unwrap();
    every_verb_keeps_every_cluster(&two_must_gathers(tmp.path()), 2);
}

#[test]
fn every_verb_and_format_keeps_a_must_gather_and_another_clusters_job_apart() {
    let tmp = tempfile::tempdir().unwrap();
    every_verb_keeps_every_cluster(&must_gather_and_job(tmp.path()), 2);
}

#[test]
fn every_verb_and_format_keeps_26_clusters() {
    if !common::heavy("every_verb_and_format_keeps_26_clusters") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    every_verb_keeps_every_cluster(&many_clusters(tmp.path(), 26), 26);
}

#[test]
fn a_must_gather_beside_another_clusters_ci_job_is_two_clusters() {
    // Each is analysed as it is alone: KI004 stays with the must-gather's cluster, the job
    // keeps its findings, and no RC003 comes from mixing the two.
    let tmp = tempfile::tempdir().unwrap();
    let dir = must_gather_and_job(tmp.path());
    let codes = |r: &mglint::rules::Report| {
        r.findings
            .iter()
            .map(|f| f.code.clone())
            .collect::<Vec<_>>()
    };
    let alone = [
        common::report(
            &[s(&common::fixture("must-gather/seed1-blocked")).to_string()],
            &[],
        ),
        common::report(
            &[s(&common::fixture("ci/modern-upgrade-4.14")).to_string()],
            &[],
        ),
    ];
    // The directory, and the same tree as a tar.gz.
    let archive = tmp.path().join("mg-and-job.tar.gz");
    let files = common::dir_files(&dir, "");
    std::fs::write(&archive, common::gzip(&common::tar_files(&files))).unwrap();
    for input in [&dir, &archive] {
        let run = common::load(&[s(input).to_string()], &[]);
        assert_eq!(run.analyses().len(), 2, "{:?}", run.warnings);
        assert!(
            run.warnings
                .iter()
                .all(|w| !w.contains("cannot be told apart")),
            "{:?}",
            run.warnings
        );
        for a in &alone {
            let mine = run
                .analyses()
                .iter()
                .find(|x| x.report().cluster.id == a.cluster.id)
                .unwrap_or_else(|| panic!("no analysis of {:?}", a.cluster.id));
            assert_eq!(codes(mine.report()), codes(a), "{}", input.display());
        }
    }
}

#[test]
fn a_ci_job_with_its_own_must_gather_stays_one_cluster() {
    let job = common::fixture("ci/seed2-rollback-4.3");
    let run = common::load(&[s(&job).to_string()], &[]);
    assert_eq!(run.analyses().len(), 1, "{:?}", run.warnings);
    assert!(run.warnings.is_empty(), "{:?}", run.warnings);
}

/// The rows of a JSON Lines file.
fn rows_of(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn batch_resumes_an_input_whose_rows_a_killed_run_left_short() {
    let tmp = tempfile::tempdir().unwrap();
    let hs = common::fixture(HYPERSHIFT);
    let two = two_must_gathers(tmp.path());
    let out = tmp.path().join("rows.jsonl");
    let o = common::mglint(&["batch", s(&hs), s(&two), "--output", s(&out)]);
    assert_eq!(o.status.code(), Some(0));
    let whole = std::fs::read_to_string(&out).unwrap();
    let rows = rows_of(&out);
    let keys: Vec<(u64, u64)> = rows
        .iter()
        .map(|r| {
            (
                r["index"].as_u64().unwrap(),
                r["cluster_index"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(keys, [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]);
    // A run killed after the HyperShift dump's first two rows: the input is not done, its
    // rows are cut and it is analysed again whole.
    let lines: Vec<&str> = whole.lines().collect();
    std::fs::write(&out, format!("{}\n{}\n", lines[0], lines[1])).unwrap();
    let o = common::mglint(&["batch", s(&hs), s(&two), "--output", s(&out), "--resume"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), whole);
    // And resumed again: every input done, nothing written.
    let o = common::mglint(&["batch", s(&hs), s(&two), "--output", s(&out), "--resume"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), whole);
}

#[test]
fn batch_says_when_an_input_holds_clusters_it_cannot_tell_apart() {
    // Loose ClusterVersions of two clusters in one folder: no root to split at.
    let tmp = tempfile::tempdir().unwrap();
    let loose = tmp.path().join("loose");
    std::fs::create_dir_all(&loose).unwrap();
    let cv = std::fs::read_to_string(common::fixture("files/cv-healthy-4.14.yaml")).unwrap();
    std::fs::write(loose.join("a.yaml"), cv).unwrap();
    std::fs::write(
        loose.join("b.yaml"),
        common::healthy_cv_of_cluster("0b7c3d2e-5f00-4a1b-9c8d-1234567890ab"),
    )
    .unwrap();
    let good = common::fixture("must-gather/fixed-cvo-rejected-4.14");
    let o = common::mglint(&["batch", s(&good), s(&loose)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cannot be told apart"), "{err}");
    assert_eq!(o.status.code(), Some(1), "{err}");
    let rows: Vec<Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["outcome"], "error");
    assert!(
        rows[1]["errors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e.as_str().unwrap().contains("cannot be told apart")),
        "{}",
        rows[1]
    );
}

/// The findings-table rows and finding sections of each cluster's section of a Markdown
/// document of several clusters.
fn markdown_sections(md: &str) -> Vec<(usize, usize)> {
    md.split("\n# Cluster ")
        .skip(1)
        .map(|sec| {
            let rows = sec
                .lines()
                .filter(|l| {
                    ["| error |", "| warning |", "| info |"]
                        .iter()
                        .any(|p| l.starts_with(p))
                })
                .count();
            let sections = sec.lines().filter(|l| l.starts_with("### ")).count();
            (rows, sections)
        })
        .collect()
}

#[test]
fn markdown_of_26_clusters_shares_the_cap_by_need() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = many_clusters(tmp.path(), 26);
    let md = |cap: usize| {
        let o = common::mglint(&[
            "analyze",
            "--exit-zero",
            "--format",
            "markdown",
            "--max-bytes",
            &cap.to_string(),
            s(&dir),
        ]);
        String::from_utf8(o.stdout).unwrap()
    };
    // Each cluster holds 7 findings. With the default cap the tables alone do not all fit:
    // every cluster still shows its table, cut evenly, and nearly the whole budget is used.
    let small = md(60_000);
    assert!(
        small.len() <= 60_000 && small.len() > 57_000,
        "{}",
        small.len()
    );
    let shown = markdown_sections(&small);
    assert_eq!(shown.len(), 26);
    let rows: Vec<usize> = shown.iter().map(|s| s.0).collect();
    let (min, max) = (rows.iter().min().unwrap(), rows.iter().max().unwrap());
    assert!(*min >= 3 && max - min <= 1, "{rows:?}");
    // With room for every table: every row of every cluster, sections (evidence) only with
    // what is left, and the budget used up to less than one section.
    let big = md(120_000);
    assert!(big.len() <= 120_000 && big.len() > 117_000, "{}", big.len());
    let shown = markdown_sections(&big);
    assert!(shown.iter().all(|s| s.0 == 7), "{shown:?}");
    let sections: usize = shown.iter().map(|s| s.1).sum();
    assert!(sections > 7, "{shown:?}");
    // Spread over the clusters in turn, not all to the first.
    let with_one = shown.iter().filter(|s| s.1 > 0).count();
    assert!(with_one > 7, "{shown:?}");
    assert!(
        big.contains("**Details of "),
        "the cut sections are counted"
    );
}

#[test]
fn timeline_json_names_a_hosted_cvo_pod_where_findings_do() {
    let input = common::fixture(HYPERSHIFT);
    let timelines = documents("timeline", &input);
    let reports = documents("analyze", &input);
    for (tl, report) in timelines.iter().zip(&reports) {
        let pods: BTreeSet<String> = tl["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["object"]["kind"] == "Pod")
            .map(|e| e["object"]["namespace"].as_str().unwrap().to_string())
            .collect();
        let named: BTreeSet<String> = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["object"]["kind"] == "Pod")
            .map(|f| f["object"]["namespace"].as_str().unwrap().to_string())
            .collect();
        let id = tl["cluster"]["id"].as_str().unwrap_or("");
        assert!(
            named.is_subset(&pods) || pods.is_empty(),
            "{id}: {pods:?} {named:?}"
        );
        assert!(
            !pods.contains("openshift-cluster-version"),
            "{id}: a hosted CVO pod named in the management namespace: {pods:?}"
        );
    }
    // beta's restart (LOG001) names its pod in clusters-beta, and so does its timeline.
    let beta = timelines
        .iter()
        .find(|t| t["cluster"]["id"] == "b7d2a9e0-41c6-4f3e-8a1b-6c5d0e9f2a47")
        .unwrap();
    assert!(
        beta["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["object"]["namespace"] == "clusters-beta")
    );
}

#[test]
fn a_must_gather_beside_another_clusters_insights_archive_is_two_clusters() {
    // An Insights archive's ClusterVersion (`config/version.json`, no `kind`) of another
    // cluster beside a must-gather: two clusters, the must-gather's analysis as alone.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("mg-and-insights");
    copy_with(&common::fixture("must-gather/seed1-blocked"), &dir, "", "");
    let config = dir.join("insights-2024-02-20/config");
    std::fs::create_dir_all(&config).unwrap();
    let other = "0b7c3d2e-5f00-4a1b-9c8d-1234567890ab";
    let version = serde_json::json!({
        "metadata": {"name": "version"},
        "spec": {"clusterID": other, "channel": "stable-4.14"},
        "status": {
            "desired": {"version": "4.14.12", "image": "quay.io/openshift-release-dev/ocp-release@sha256:aa"},
            "history": [{"state": "Completed", "version": "4.14.12", "image": "quay.io/openshift-release-dev/ocp-release@sha256:aa",
                         "startedTime": "2024-02-20T08:00:00Z", "completionTime": "2024-02-20T09:00:00Z", "verified": true}],
            "conditions": [{"type": "Available", "status": "True", "lastTransitionTime": "2024-02-20T09:00:00Z"}],
            "versions": []
        }
    });
    std::fs::write(config.join("version.json"), version.to_string()).unwrap();
    let run = common::load(&[s(&dir).to_string()], &[]);
    assert_eq!(run.analyses().len(), 2, "{:?}", run.warnings);
    assert!(run.unsplit.is_empty(), "{:?}", run.unsplit);
    let alone = common::report(
        &[s(&common::fixture("must-gather/seed1-blocked")).to_string()],
        &[],
    );
    let codes = |r: &mglint::rules::Report| {
        r.findings
            .iter()
            .map(|f| f.code.clone())
            .collect::<Vec<_>>()
    };
    let mg = run
        .analyses()
        .iter()
        .find(|a| a.report().cluster.id.as_deref() == Some(SEED1_ID))
        .unwrap();
    assert_eq!(codes(mg.report()), codes(&alone));
    let insights = run
        .analyses()
        .iter()
        .find(|a| a.report().cluster.id.as_deref() == Some(other))
        .unwrap();
    // Each named for what it is in the inputs list.
    assert_eq!(insights.report().inputs[0].kind_label(), "Insights archive");
    assert_eq!(mg.report().inputs[0].kind_label(), "must-gather");
}

/// The files of an Insights operator archive as the operator writes them (JSON objects
/// without `kind`, at the paths of `tree_insights-operator-archive-sample.txt`): the real
/// 4.7.16 archive's ClusterVersion, etcd operator and `openshift-machine-api` events from the
/// corpus and a `cluster-scoped-resources/` object, or without the corpus the 4.14 fixture's
/// ClusterVersion as JSON.
fn insights_files(root: &str) -> Vec<(String, Vec<u8>)> {
    let at = |rel: &str| format!("{root}/{rel}");
    match common::corpus() {
        Some(c) => [
            ("config/version.json", "cv_4.7.16_insights-archive_json_upgradeable-false.json"),
            ("config/clusteroperator/etcd.json", "co_4.7.16_etcd_insights-archive.json"),
            (
                "events/openshift-machine-api.json",
                "events_openshift-machine-api_insights-archive_compact.json",
            ),
        ]
        .iter()
        .map(|(rel, f)| (at(rel), std::fs::read(c.join(f)).unwrap()))
        // Newer archives keep some objects as a must-gather does: that folder is the
        // archive's own, no must-gather of its own.
        .chain([(
            at("cluster-scoped-resources/rbac.authorization.k8s.io/clusterroles/admin.json"),
            br#"{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"admin"},"rules":[]}"#.to_vec(),
        )])
        .collect(),
        None => {
            let cv: Value = mglint::yaml::from_str(
                &std::fs::read_to_string(common::fixture("files/cv-healthy-4.14.yaml")).unwrap(),
            )
            .unwrap();
            vec![(at("config/version.json"), serde_json::to_vec(&cv).unwrap())]
        }
    }
}

#[test]
fn an_insights_archive_is_named_so_in_every_inputs_list() {
    let tmp = tempfile::tempdir().unwrap();
    let root = "insights-2021-06-30-101010";
    let files = insights_files(root);
    // The archive as downloaded, and extracted into a directory.
    let archive = tmp.path().join(format!("{root}.tar.gz"));
    std::fs::write(&archive, common::gzip(&common::tar_files(&files))).unwrap();
    let extracted = tmp.path().join("extracted");
    for (rel, bytes) in &files {
        let p = extracted.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    for input in [s(&archive), s(&extracted)] {
        let out = |args: &[&str]| {
            let mut all = args.to_vec();
            all.insert(1, input);
            String::from_utf8(common::mglint(&all).stdout).unwrap()
        };
        let human = out(&["analyze", "--partial", "--color", "never"]);
        assert!(
            human.contains(&format!("input: {input} (Insights archive, ")),
            "{human}"
        );
        let md = out(&["analyze", "--partial", "--format", "markdown"]);
        assert!(md.contains("(Insights archive, "), "{md}");
        let html = out(&["analyze", "--partial", "--format", "html"]);
        assert!(html.contains("Insights archive"), "{input}: html");
        let summary = out(&["summary"]);
        assert!(summary.contains("(Insights archive; "), "{summary}");
        assert!(
            summary.contains(&format!("Insights archive root: {root}")),
            "{summary}"
        );
        // JSON keeps the kind (an archive, a directory) and names the root.
        let json: Value =
            serde_json::from_str(&out(&["analyze", "--partial", "--format", "json"])).unwrap();
        let i = &json["inputs"][0];
        assert_eq!(i["insights_roots"], serde_json::json!([root]), "{i}");
        assert!(i["kind"] == "archive" || i["kind"] == "directory", "{i}");
        let json: Value = serde_json::from_str(&out(&["summary", "--format", "json"])).unwrap();
        assert_eq!(
            json["inputs"][0]["insights_roots"],
            serde_json::json!([root])
        );
    }
    // A must-gather is still a must-gather, with no Insights root in its JSON.
    let json: Value = serde_json::from_str(
        &String::from_utf8(
            common::mglint(&[
                "summary",
                s(&common::fixture("must-gather/seed1-blocked")),
                "--format",
                "json",
            ])
            .stdout,
        )
        .unwrap(),
    )
    .unwrap();
    assert!(json["inputs"][0].get("insights_roots").is_none(), "{json}");
}
