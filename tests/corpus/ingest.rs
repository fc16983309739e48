//! Ingestion of the two real must-gathers in ../shared/corpus, as `.tar.xz` and unpacked:
//! the right version, history, collection time, CVO logs, and zero unread files.

use crate::common;
use std::path::Path;

use mglint::ingest::{IngestOptions, ingest};
use mglint::model::fmt_k8s;

struct Expect {
    archive: &'static str,
    version: &'static str,
    started: &'static str,
    completed: &'static str,
    collected: &'static str,
    operators: usize,
    logs: usize,
}

const AWS: Expect = Expect {
    archive: "must-gather-aws.tar.xz",
    version: "4.8.0-0.nightly-2021-07-31-065602",
    started: "2021-08-03T09:14:59Z",
    completed: "2021-08-03T09:45:28Z",
    collected: "2021-08-03T10:14:13Z",
    operators: 31,
    logs: 2,
};

const METAL: Expect = Expect {
    archive: "must-gather-metal.tar.xz",
    version: "4.9.0-0.nightly-2021-09-10-170926",
    started: "",
    completed: "",
    collected: "2021-09-14T14:44:22Z",
    operators: 32,
    logs: 3,
};

fn check(input: &str, e: &Expect) {
    let b = ingest(&[input.to_string()], &IngestOptions::default()).unwrap();
    assert!(
        b.diagnostics.is_empty(),
        "unread files: {:?}",
        b.diagnostics
    );
    let cv = b.cluster_version().expect("cluster version");
    assert_eq!(cv.status.history.len(), 1);
    let h = &cv.status.history[0];
    assert_eq!(h.version, e.version);
    assert_eq!(h.state, "Completed");
    if !e.started.is_empty() {
        assert_eq!(fmt_k8s(&h.started_time.unwrap()), e.started);
        assert_eq!(fmt_k8s(&h.completion_time.unwrap()), e.completed);
    }
    assert_eq!(fmt_k8s(&b.collection_time().unwrap()), e.collected);
    assert_eq!(b.objects.cluster_operators.len(), e.operators);
    assert_eq!(b.cvo_logs.len(), e.logs);
    assert_eq!(b.objects.nodes.len(), 6);
    assert_eq!(b.objects.pools.len(), 2);
    // Every CVO log record got a UTC time.
    for l in &b.cvo_logs {
        assert!(l.records.iter().all(|r| r.time.is_some()), "{}", l.prov);
    }
    assert_eq!(b.inputs[0].must_gather_roots.len(), 1);
}

pub fn real_must_gathers_as_archives(c: &Path) {
    for e in [&AWS, &METAL] {
        check(c.join("must-gathers").join(e.archive).to_str().unwrap(), e);
    }
}

pub fn real_must_gathers_unpacked(c: &Path) {
    for e in [&AWS, &METAL] {
        let dir = tempfile::tempdir().unwrap();
        common::unpack_tar_xz(&c.join("must-gathers").join(e.archive), dir.path());
        check(dir.path().to_str().unwrap(), e);
    }
}

pub fn aws_previous_log_is_the_container_before_the_restart(c: &Path) {
    let b = ingest(
        &[c.join("must-gathers/must-gather-aws.tar.xz")
            .to_str()
            .unwrap()
            .to_string()],
        &IngestOptions::default(),
    )
    .unwrap();
    let prev = b
        .cvo_logs
        .iter()
        .find(|l| l.previous)
        .expect("previous.log");
    let cur = b
        .cvo_logs
        .iter()
        .find(|l| !l.previous)
        .expect("current.log");
    let (p0, p1) = prev.span().unwrap();
    let (c0, _) = cur.span().unwrap();
    assert_eq!(fmt_k8s(&p0), "2021-08-03T09:20:35Z");
    assert!(p1 <= c0, "previous ends {p1} before current starts {c0}");
    assert_eq!(prev.lines, 3433);
    // Continuation lines (Trace blocks, multi-line messages) were folded into records.
    assert!(prev.records.len() < 3433);
    assert!(
        prev.records[0]
            .message
            .starts_with("ClusterVersionOperator ")
    );
}

pub fn corpus_single_files_in_every_shape(c: &Path) {
    type Check = fn(&mglint::bundle::Bundle) -> bool;
    let cases: &[(&str, Check)] = &[
        (
            "cv_4.7.16_insights-archive_json_upgradeable-false.json",
            |b| b.objects.cluster_versions.len() == 1,
        ),
        (
            "cv_4.14.1_conditionalUpdates-all-recommended_list.yaml",
            |b| b.objects.cluster_versions.len() == 1,
        ),
        (
            "co-list_4.8-nightly_must-gather-aggregate_leading-doc-separator.yaml",
            |b| b.objects.cluster_operators.len() == 31,
        ),
        ("co-list_4.14.1-upgrade_etcd-kas-degraded.yaml", |b| {
            b.objects.cluster_operators.len() == 33
        }),
        ("co_4.7.16_etcd_insights-archive.json", |b| {
            b.objects.cluster_operators.len() == 1
        }),
        (
            "mcp-list_4.14.1_workers-updating-multiple-pools.yaml",
            |b| b.objects.pools.len() == 3,
        ),
        ("mcp_master_insights-archive.json", |b| {
            b.objects.pools.len() == 1
        }),
        ("node-list_4.14.1-upgrade_degraded.yaml", |b| {
            !b.objects.nodes.is_empty()
        }),
        ("node_master-0_insights-archive.json", |b| {
            b.objects.nodes.len() == 1
        }),
        (
            "events_openshift-cluster-version_4.8-nightly_must-gather.yaml",
            |b| b.objects.events.len() > 10,
        ),
        (
            "events_openshift-machine-api_insights-archive_compact.json",
            |b| !b.objects.events.is_empty(),
        ),
        (
            "cvo-log_4.9-nightly_metal_install_current_first4000lines.log",
            |b| b.cvo_logs.len() == 1 && b.cvo_logs[0].records.len() > 3000,
        ),
        (
            "intervals_origin_v1-string-locator_node-drain_expected.json",
            |b| !b.intervals.is_empty(),
        ),
        (
            "intervals_origin_v2-tempStructured_node-drain_expected.json",
            |b| !b.intervals.is_empty(),
        ),
        (
            "intervals_origin_v3-duplicate-keys_node-drain_startingEvents.json",
            |b| !b.intervals.is_empty(),
        ),
        (
            "intervals_origin_v3-duplicate-keys_pod-lifecycle_render-test.json",
            |b| !b.intervals.is_empty(),
        ),
        (
            "intervals_origin_v4-structured-only_etcdlog_excerpt.json",
            |b| b.intervals.len() == 3,
        ),
        (
            "junit_upgrade_origin-ci_2023-01_with-ANSI-escapes.xml",
            |b| b.junit.len() >= 56,
        ),
        (
            "junit_openshift-tests_4.16_serial-excerpt_opct-testdata.xml",
            |b| !b.junit.is_empty(),
        ),
        (
            "junit_ci-operator_junit_operator_step-graph_with-failure.xml",
            |b| !b.junit.is_empty(),
        ),
        ("must-gather_timestamp_file.txt", |b| {
            b.collection_times.len() == 6
        }),
    ];
    for (file, ok) in cases {
        let p = c.join(file);
        let b = ingest(
            &[p.to_str().unwrap().to_string()],
            &IngestOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            b.diagnostics
                .iter()
                .all(|d| d.level != mglint::model::DiagLevel::Error),
            "{file}: {:?}",
            b.diagnostics
        );
        assert!(ok(&b), "{file}: unexpected content");
    }
}

/// The tests of this module.
pub const TESTS: &[crate::CorpusTest] = &[
    (
        "real_must_gathers_as_archives",
        real_must_gathers_as_archives,
    ),
    ("real_must_gathers_unpacked", real_must_gathers_unpacked),
    (
        "aws_previous_log_is_the_container_before_the_restart",
        aws_previous_log_is_the_container_before_the_restart,
    ),
    (
        "corpus_single_files_in_every_shape",
        corpus_single_files_in_every_shape,
    ),
];
