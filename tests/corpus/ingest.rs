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
    cluster_id: &'static str,
}

const AWS: Expect = Expect {
    archive: "must-gather-aws.tar.xz",
    version: "4.8.0-0.nightly-2021-07-31-065602",
    started: "2021-08-03T09:14:59Z",
    completed: "2021-08-03T09:45:28Z",
    collected: "2021-08-03T10:14:13Z",
    operators: 31,
    logs: 2,
    cluster_id: "96eb6c40-16e8-4718-ade6-5d7c6f05e120",
};

const METAL: Expect = Expect {
    archive: "must-gather-metal.tar.xz",
    version: "4.9.0-0.nightly-2021-09-10-170926",
    started: "",
    completed: "",
    collected: "2021-09-14T14:44:22Z",
    operators: 32,
    logs: 3,
    cluster_id: "1d754610-c657-4a11-ad51-733c3196dc6c",
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
    assert_eq!(
        b.cluster_version().map(|cv| cv.spec.cluster_id.as_str()),
        Some(e.cluster_id)
    );
    assert_eq!(b.cvo_logs.len(), e.logs);
    assert_eq!(b.objects.nodes.len(), 6);
    assert_eq!(b.objects.pools.len(), 2);
    // Every CVO log record got a UTC time.
    for l in &b.cvo_logs {
        assert!(l.records.iter().all(|r| r.time.is_some()), "{}", l.prov);
    }
    assert_eq!(b.inputs[0].must_gather_roots.len(), 1);
    // Every file is accounted for: read, or not read for a reason (here: no rule needs most
    // of a real must-gather).
    let i = &b.inputs[0];
    assert_eq!(
        i.files_seen,
        i.files_read + i.archives_opened + i.not_read.total(),
        "{input}: {i:?}"
    );
    assert!(
        i.not_read.not_needed.count > 3000,
        "{input}: {:?}",
        i.not_read
    );
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
        .find(|l| l.is_previous())
        .expect("previous.log");
    let cur = b
        .cvo_logs
        .iter()
        .find(|l| l.file == mglint::vocab::wants::LogFile::Current)
        .expect("current.log");
    let (p0, p1) = prev.span().unwrap();
    let (c0, _) = cur.span().unwrap();
    assert_eq!(fmt_k8s(&p0), "2021-08-03T09:20:35Z");
    assert!(p1 <= c0, "previous ends {p1} before current starts {c0}");
    assert_eq!(prev.lines, 3433);
    // Continuation lines (Trace blocks, multi-line messages) were folded into records.
    assert!(prev.records.len() < 3433);
    assert!(
        prev.records
            .iter()
            .next()
            .unwrap()
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
                .all(|d| d.level != mglint::model::Severity::Error),
            "{file}: {:?}",
            b.diagnostics
        );
        assert!(ok(&b), "{file}: unexpected content");
    }
}

/// What `summary` and `analyze` say about a run, without the input names (which differ
/// between a directory and its files named one by one).
fn verdicts(inputs: &[String]) -> (serde_json::Value, Vec<(String, String, String)>) {
    let run = common::load(inputs, &[]);
    let a = run.analysis();
    let mut summary = serde_json::from_str::<serde_json::Value>(&mglint::summary::render_json(
        &mglint::summary::summarize(&a.bundle),
        mglint::vocab::text::JsonLayout::Pretty,
    ))
    .unwrap();
    summary.as_object_mut().unwrap().remove("inputs");
    let findings = a
        .report()
        .findings
        .iter()
        .map(|f| {
            (
                f.code.to_string(),
                f.message.clone(),
                format!("{:?}", f.object),
            )
        })
        .collect();
    (summary, findings)
}

/// oc's example sets put in a directory as they are (inputs and golden outputs side by
/// side, names that say nothing of a layout) give the summary and the findings of the same
/// files named one by one (`status` is compared with oc's golden output in `status::`).
pub fn oc_example_sets_in_a_directory_read_like_one_by_one(c: &Path) {
    let examples = crate::status::examples_dir(c);
    for set in crate::status::set_names() {
        let files: Vec<String> = crate::status::loose_files(&examples, set)
            .iter()
            .map(|p| p.to_string_lossy().to_string())
            .collect();
        let dir = crate::status::set_directory(c, set);
        let want = verdicts(&files);
        let got = verdicts(&[dir.path().to_string_lossy().to_string()]);
        assert_eq!(got.0, want.0, "{set}: summary differs");
        assert_eq!(got.1, want.1, "{set}: findings differ");
        let b = ingest(
            &[dir.path().to_string_lossy().to_string()],
            &IngestOptions::default(),
        )
        .unwrap();
        // The golden outputs are looked at and skipped; every input file is read.
        assert_eq!(b.inputs[0].files_read as usize, files.len(), "{set}");
        assert_eq!(b.inputs[0].files_skipped, 2, "{set}");
    }
}

/// An Insights operator archive laid out as the operator writes it (see
/// `tree_insights-operator-archive-sample.txt`), built here from the corpus's Insights
/// samples: the ClusterVersion (JSON without `kind`), ClusterOperators, a node (without
/// `kind`), a pool and events are found and the rules run.
pub fn insights_archive_from_the_corpus_layout(c: &Path) {
    let read = |f: &str| std::fs::read(c.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    let files = vec![
        (
            "config/version.json".to_string(),
            read("cv_4.7.16_insights-archive_json_upgradeable-false.json"),
        ),
        (
            "config/clusteroperator/etcd.json".to_string(),
            read("co_4.7.16_etcd_insights-archive.json"),
        ),
        (
            "config/clusteroperator/kube-apiserver.json".to_string(),
            read("co_4.7.16_kube-apiserver_insights-archive.json"),
        ),
        (
            "config/clusteroperator/machine-config.json".to_string(),
            read("co_4.7.16_machine-config_insights-archive.json"),
        ),
        (
            "config/machineconfigpools/master.json".to_string(),
            read("mcp_master_insights-archive.json"),
        ),
        (
            "config/node/master-0.imeixner20210707.lab.upshift.rdu2.redhat.com.json".to_string(),
            read("node_master-0_insights-archive.json"),
        ),
        (
            "config/node/logs/ip-10-0-135-228.us-east-2.compute.internal.log".to_string(),
            read("node-journal-log_kubenswrapper_insights-archive.log"),
        ),
        (
            "events/openshift-machine-api.json".to_string(),
            read("events_openshift-machine-api_insights-archive_compact.json"),
        ),
    ];
    let tmp = tempfile::tempdir().unwrap();
    let archive = tmp.path().join("insights-2021-07-08-101010.tar.gz");
    std::fs::write(&archive, common::gzip(&common::tar_files(&files))).unwrap();
    let inputs = vec![archive.to_string_lossy().to_string()];
    let b = ingest(&inputs, &IngestOptions::default()).unwrap();
    assert!(
        b.diagnostics
            .iter()
            .all(|d| d.level != mglint::model::Severity::Error),
        "{:?}",
        b.diagnostics
    );
    let cv = b
        .cluster_version()
        .expect("ClusterVersion from config/version.json");
    assert_eq!(cv.spec.cluster_id, "84ef291d-8f1b-4d28-ab34-cfddff941b84");
    assert_eq!(b.objects.cluster_operators.len(), 3);
    assert_eq!(b.objects.nodes.len(), 1);
    assert_eq!(b.objects.pools.len(), 1);
    // `events/openshift-machine-api.json` is read whole in the archive, as when given alone.
    let alone = ingest(
        &[
            c.join("events_openshift-machine-api_insights-archive_compact.json")
                .to_string_lossy()
                .to_string(),
        ],
        &IngestOptions::default(),
    )
    .unwrap();
    assert!(!alone.objects.events.is_empty());
    assert_eq!(b.objects.events.len(), alone.objects.events.len());
    let run = common::load(&inputs, &[]);
    let report = run.analysis().report();
    assert!(report.rules.len() > 20, "{} rules ran", report.rules.len());
    // The sample's Upgradeable=False is what a support engineer sees first.
    let inputs = mglint::status::StatusInputs::from_bundle(&b, None).expect("status inputs");
    let status = mglint::status::render_text(
        &mglint::status::assess(&inputs).expect("assess"),
        mglint::status::Details::None,
    );
    assert!(status.contains("not updating"), "{status}");
}

/// Two different real clusters in one run are analysed apart, each exactly as on its own,
/// with a warning naming both; the same must-gather given twice is one cluster.
pub fn two_clusters_are_never_mixed(c: &Path) {
    let aws = c
        .join("must-gathers/must-gather-aws.tar.xz")
        .to_string_lossy()
        .to_string();
    let metal = c
        .join("must-gathers/must-gather-metal.tar.xz")
        .to_string_lossy()
        .to_string();
    let run = common::load(&[aws.clone(), metal.clone()], &[]);
    assert_eq!(run.analyses().len(), 2);
    assert_eq!(run.warnings.len(), 1, "{:?}", run.warnings);
    let w = &run.warnings[0];
    assert!(w.contains(&aws) && w.contains(&metal), "{w}");
    assert!(
        w.contains(AWS.cluster_id) && w.contains(METAL.cluster_id),
        "{w}"
    );
    for (a, input) in run.analyses().iter().zip([&aws, &metal]) {
        assert_eq!(a.bundle.inputs.len(), 1);
        assert_eq!(&a.bundle.inputs[0].name, input);
        let alone = common::report(std::slice::from_ref(input), &[]);
        let codes = |r: &mglint::rules::Report| {
            r.findings
                .iter()
                .map(|f| (f.code.clone(), f.message.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(codes(a.report()), codes(&alone), "{input}");
        assert_eq!(a.bundle.objects.cvo_pods.len(), alone_pods(input));
    }
    // Each output keeps them apart: JSON entries, JUnit suites, SARIF runs, text sections.
    let out = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend([aws.as_str(), metal.as_str()]);
        let o = common::mglint(&all);
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("2 different clusters"),
            "{o:?}"
        );
        String::from_utf8(o.stdout).unwrap()
    };
    // JSON: one report per line (JSON Lines), each the single-cluster shape with its cluster.
    let lines = out(&["analyze", "--format", "json"]);
    let docs: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(docs.len(), 2, "{lines}");
    assert_eq!(docs[0]["cluster"]["id"], AWS.cluster_id);
    assert_eq!(docs[1]["cluster"]["id"], METAL.cluster_id);
    assert!(
        docs.iter()
            .all(|d| d["schema"] == "mglint/report/v2" && d["findings"].is_array())
    );
    let junit = out(&["analyze", "--format", "junit"]);
    assert_eq!(junit.matches("<testsuite ").count(), 2, "{junit}");
    assert!(junit.contains(&format!("name=\"mglint: {}\"", METAL.cluster_id)));
    let sarif: serde_json::Value =
        serde_json::from_str(&out(&["analyze", "--format", "sarif"])).unwrap();
    assert_eq!(sarif["runs"].as_array().map(Vec::len), Some(2));
    // GitHub refuses two runs of one category in one upload: each cluster has its own.
    assert_eq!(
        sarif["runs"][1]["automationDetails"]["id"],
        format!("mglint/analyze/{}/", METAL.cluster_id)
    );
    let summary = out(&["summary"]);
    assert!(
        summary.contains(&format!("Cluster 2 of 2: {}", METAL.cluster_id)),
        "{summary}"
    );
    assert_eq!(
        summary.matches("\nInputs\n").count() + usize::from(summary.starts_with("Inputs")),
        2
    );
    let status = out(&["status"]);
    assert_eq!(
        status.matches("The cluster is not updating.").count(),
        2,
        "{status}"
    );
    let replay = out(&["replay"]);
    assert!(replay.contains(&format!("Cluster 2 of 2: {}", METAL.cluster_id)));
    let twice = common::load(&[aws.clone(), aws.clone()], &[]);
    assert_eq!(twice.analyses().len(), 1);
    assert!(twice.warnings.is_empty());
}

fn alone_pods(input: &str) -> usize {
    ingest(&[input.to_string()], &IngestOptions::default())
        .unwrap()
        .objects
        .cvo_pods
        .len()
}

/// The tests of this module.
pub const TESTS: &[crate::CorpusTest] = &[
    ("two_clusters_are_never_mixed", two_clusters_are_never_mixed),
    (
        "oc_example_sets_in_a_directory_read_like_one_by_one",
        oc_example_sets_in_a_directory_read_like_one_by_one,
    ),
    (
        "insights_archive_from_the_corpus_layout",
        insights_archive_from_the_corpus_layout,
    ),
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
