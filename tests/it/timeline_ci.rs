//! CI jobs: the second seed (install finished before the e2e test waited for nodes, although
//! history claims the update's start) and a modern 4.14 upgrade job with interval files.

use mglint::model::{Time, fmt_k8s, fmt_ms, parse_rfc3339};
use mglint::timeline::{
    EpisodeKind, EpisodeTag, EventKind, EventSource, MilestoneKind, Subject, Timeline, build,
};
use std::path::Path;

fn timeline(name: &str) -> Timeline {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/ci")
        .join(name);
    let bundle = mglint::ingest::ingest(&[p.display().to_string()], &Default::default())
        .expect("fixture ingests");
    build(&bundle)
}

fn t(s: &str) -> Time {
    parse_rfc3339(s).unwrap()
}

#[test]
fn seed2_install_finished_before_the_e2e_test_waited_for_nodes() {
    let tl = timeline("seed2-rollback-4.3");
    let bound = tl
        .install_finished_before()
        .expect("an evidence bound on the install's end");
    assert_eq!(
        bound.claimed.map(|c| fmt_k8s(&c)).as_deref(),
        Some("2019-09-27T21:45:59Z")
    );
    assert!(bound.contradicts_claim());
    assert!(bound.before <= t("2019-09-27T21:42:28.080Z"));
    let waiting = bound
        .evidence
        .iter()
        .find(|e| e.text.contains("nodes to be schedulable"))
        .expect("the e2e line is part of the evidence");
    assert!(
        waiting
            .prov
            .file
            .path()
            .ends_with("container-logs/test.log")
    );
    assert!(waiting.prov.line.is_some());
    let wait = tl.first_of("e2e-waiting-for-nodes").unwrap();
    assert_eq!(fmt_ms(&wait.time), "2019-09-27T21:42:28.080Z");

    let install = tl.install().unwrap();
    assert_eq!(fmt_k8s(&install.start), "2019-09-27T21:25:09Z");
    assert!(install.end.is_some_and(|e| e <= wait.time));
    let claimed = install
        .milestone(MilestoneKind::ClaimedCompleted)
        .expect("history's claim is kept");
    assert_eq!(fmt_k8s(&claimed.time), "2019-09-27T21:45:59Z");
    assert!(
        install
            .summary
            .contains("history claims completion at 2019-09-27T21:45:59Z"),
        "{}",
        install.summary
    );
    // The chart names the episode by its headline, the summary before that clause.
    assert_eq!(
        install.headline(),
        format!(
            "install of {} started 2019-09-27T21:25:09Z",
            install_version(&install.kind)
        ),
    );
}

fn install_version(kind: &mglint::timeline::EpisodeKind) -> &str {
    match kind {
        mglint::timeline::EpisodeKind::Install { version } => version,
        other => panic!("not an install: {other:?}"),
    }
}

#[test]
fn seed2_update_and_monitor_lines_merge_with_status() {
    let tl = timeline("seed2-rollback-4.3");
    let up = tl.episodes_of(EpisodeTag::Update).next().expect("update");
    assert!(
        matches!(&up.kind, EpisodeKind::Update { to, .. } if to == "4.3.0-0.ci-2019-09-27-182824")
    );
    assert_eq!(fmt_k8s(&up.start), "2019-09-27T21:45:59Z");
    assert_eq!(
        up.end.map(|e| fmt_k8s(&e)).as_deref(),
        Some("2019-09-27T22:29:06Z")
    );
    assert!(up.milestone(MilestoneKind::CiCompleted).is_some());
    // The CVO log starts at 22:24:19 (a new pod): it cannot tell when the update was accepted.
    assert!(up.milestone(MilestoneKind::Accepted).is_none());
    assert!(
        up.summary.contains("CVO log starts only at"),
        "{}",
        up.summary
    );
    let done = tl
        .events_for(&Subject::cluster_version())
        .find(|e| matches!(&e.kind, EventKind::ConditionTransition { condition, status, .. } if condition == "Progressing" && status == "False"))
        .unwrap();
    assert_eq!(done.source, EventSource::ClusterVersion);
    assert!(
        done.evidence
            .iter()
            .any(|e| e.prov.file.path().ends_with("test.log")),
        "status condition and monitor line are one event"
    );
    // nodes.json Ready transitions and the monitor's `node is ready` are one event too.
    let ready = tl
        .events_for(&Subject::Node("ip-10-0-148-230.ec2.internal".into()))
        .find(|e| matches!(&e.kind, EventKind::ConditionTransition { condition, status, .. } if condition == "Ready" && status == "True"))
        .unwrap();
    assert_eq!(fmt_k8s(&ready.time), "2019-09-27T22:09:55Z");
    assert_eq!(ready.evidence.len(), 2);
    assert!(tl.first_of("prow-start").is_some() && tl.first_of("prow-end").is_some());
}

#[test]
fn modern_4_14_job_with_intervals() {
    let tl = timeline("modern-upgrade-4.14");
    let up = tl.episodes_of(EpisodeTag::Update).next().expect("update");
    assert_eq!(
        up.kind,
        EpisodeKind::Update {
            from: "4.14.0".into(),
            to: "4.14.1".into()
        }
    );
    let ci = up
        .milestone(MilestoneKind::CiStarted)
        .expect("UpgradeStarted interval");
    assert!(ci.time <= up.start);
    assert!(
        up.milestone(MilestoneKind::FirstSeen)
            .is_some_and(|m| m.time < up.start),
        "the RetrievePayload event precedes history"
    );
    let accepted = up
        .milestone(MilestoneKind::Accepted)
        .expect("PayloadLoaded event");
    assert!(
        accepted
            .evidence
            .iter()
            .any(|e| e.prov.file.path().ends_with("events.json"))
    );
    let done = up.milestone(MilestoneKind::Completed).unwrap();
    let ci_done = up
        .milestone(MilestoneKind::CiCompleted)
        .expect("UpgradeComplete interval");
    assert!(ci_done.time >= done.time);
    // Interval condition changes, node lifecycle, e2e tests and JUnit results are all placed.
    for kind in [
        "test-start",
        "test-end",
        "node-lifecycle",
        "junit-result",
        "upgrade-started",
        "upgrade-complete",
    ] {
        assert!(tl.first_of(kind).is_some(), "{kind}");
    }
    assert!(tl.events.iter().any(|e| e.source == EventSource::Interval
        && matches!(e.kind, EventKind::ConditionTransition { .. })));
    assert!(tl.episodes_of(EpisodeTag::Stall).next().is_none());
    let apply: Vec<_> = tl
        .passes()
        .iter()
        .map(|p| (p.state.as_str(), p.attempt))
        .collect();
    assert_eq!(apply.first(), Some(&("Updating", 0)));
}
