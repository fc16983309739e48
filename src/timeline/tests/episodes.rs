//! Episodes: install, update, cancel, rollback, stall, CVO restart and unmanaged spans.

use super::*;
use crate::timeline::{EpisodeKind, EpisodeTag, MilestoneKind, StallCause, build};

fn ms(e: &crate::timeline::Episode, k: MilestoneKind) -> Option<String> {
    e.milestone(k).map(|m| fmt_ms(&m.time))
}

#[test]
fn seed1_update_requested_then_cancelled_back_to_the_running_release() {
    let tl = build(&seed1());
    let ups: Vec<_> = tl.episodes_of(EpisodeTag::Update).collect();
    assert_eq!(ups.len(), 2);
    let to11 = ups[0];
    assert_eq!(
        to11.kind,
        EpisodeKind::Update {
            from: "4.3.10".into(),
            to: "4.3.11".into()
        }
    );
    assert_eq!(
        ms(to11, MilestoneKind::Requested).as_deref(),
        Some("2020-04-09T18:27:49.000Z")
    );
    assert_eq!(
        ms(to11, MilestoneKind::FirstSeen).as_deref(),
        Some("2020-04-09T18:27:47.543Z")
    );
    assert_eq!(ms(to11, MilestoneKind::Accepted), None);
    assert_eq!(ms(to11, MilestoneKind::FirstManifest), None);
    assert_eq!(
        ms(to11, MilestoneKind::Abandoned).as_deref(),
        Some("2020-04-09T18:55:16.000Z")
    );
    assert_eq!(
        to11.running_release.as_deref(),
        Some("4.3.10"),
        "status.desired said 4.3.11, the CVO reconciled 4.3.10"
    );
    assert!(
        to11.summary.contains("never shows the target accepted"),
        "{}",
        to11.summary
    );

    let back = ups[1];
    assert_eq!(
        back.kind,
        EpisodeKind::Update {
            from: "4.3.11".into(),
            to: "4.3.10".into()
        }
    );
    assert_eq!(fmt_k8s(&back.start), "2020-04-09T18:55:16Z");
    assert_eq!(
        ms(back, MilestoneKind::Accepted).as_deref(),
        Some("2020-04-09T18:55:16.300Z")
    );
    assert_eq!(
        ms(back, MilestoneKind::FirstManifest).as_deref(),
        Some("2020-04-09T18:55:16.400Z")
    );
    assert_eq!(
        ms(back, MilestoneKind::Completed).as_deref(),
        Some("2020-04-09T18:55:34.000Z")
    );
    assert!(
        back.milestone(MilestoneKind::Completed)
            .unwrap()
            .evidence
            .len()
            >= 2,
        "history and `Sync succeeded` log line"
    );

    let cancel = tl
        .episodes_of(EpisodeTag::Cancel)
        .next()
        .expect("cancel episode");
    assert_eq!(
        cancel.kind,
        EpisodeKind::Cancel {
            from: "4.3.10".into(),
            to: "4.3.11".into()
        }
    );
    assert_eq!(fmt_k8s(&cancel.start), "2020-04-09T18:27:49Z");
    assert_eq!(
        cancel.end.map(|e| fmt_k8s(&e)).as_deref(),
        Some("2020-04-09T18:55:34Z")
    );
    assert_eq!(cancel.running_release.as_deref(), Some("4.3.10"));
    assert!(tl.episodes_of(EpisodeTag::Rollback).next().is_none());
}

#[test]
fn seed1_stall_no_manifest_of_the_running_release_until_the_return() {
    let tl = build(&seed1());
    let stalls: Vec<_> = tl.episodes_of(EpisodeTag::Stall).collect();
    assert_eq!(
        stalls.len(),
        1,
        "the snapshot signature is covered by the log-derived stall"
    );
    let s = stalls[0];
    let EpisodeKind::Stall { cause, detail } = &s.kind else {
        panic!()
    };
    assert_eq!(*cause, StallCause::PreconditionFailed);
    assert!(detail.contains("ClusterVersionUpgradeable"));
    assert_eq!(fmt_ms(&s.start), "2020-04-09T18:27:47.543Z");
    assert_eq!(
        s.end.map(|e| fmt_ms(&e)).as_deref(),
        Some("2020-04-09T18:55:16.210Z")
    );
    assert_eq!(s.running_release.as_deref(), Some("4.3.10"));
    assert_eq!(s.target_release.as_deref(), Some("4.3.11"));
    // The claim itself, through the query API.
    let (from, to) = (t("2020-04-09T18:27:49Z"), t("2020-04-09T18:55:16Z"));
    assert_eq!(tl.manifests_applied("4.3.10", from, to).count(), 0);
    assert_eq!(
        tl.manifests_applied("4.3.10", t("2020-04-09T18:00:00Z"), from)
            .count(),
        1
    );
    assert_eq!(
        tl.manifests_applied("4.3.10", to, t("2020-04-09T19:00:00Z"))
            .count(),
        1,
        "the return pass names 4.3.10 by image"
    );
    assert_eq!(
        tl.running_release_at(t("2020-04-09T18:40:00Z")).as_deref(),
        Some("4.3.10")
    );
    let spans = tl.unmanaged_spans();
    assert_eq!(spans.len(), 1);
    let stuck: Vec<_> = tl
        .passes()
        .iter()
        .filter(|p| p.stuck_before_manifests())
        .map(|p| p.attempt)
        .collect();
    assert_eq!(stuck, vec![0, 4]);
}

#[test]
fn seed1_install_completed_from_history() {
    let tl = build(&seed1());
    let install = tl.install().unwrap();
    assert_eq!(
        install.kind,
        EpisodeKind::Install {
            version: "4.3.10".into()
        }
    );
    assert_eq!(fmt_k8s(&install.start), "2020-04-09T17:35:48Z");
    assert_eq!(
        install.end.map(|e| fmt_k8s(&e)).as_deref(),
        Some("2020-04-09T18:00:34Z")
    );
    let bound = tl.install_finished_before().unwrap();
    assert!(!bound.contradicts_claim());
}

#[test]
fn seed2_install_finished_before_the_e2e_test_waited_for_nodes() {
    let tl = build(&seed2());
    let bound = tl.install_finished_before().expect("bound");
    assert_eq!(fmt_ms(&bound.before), "2019-09-27T21:42:28.080Z");
    assert_eq!(
        bound.claimed.map(|c| fmt_k8s(&c)).as_deref(),
        Some("2019-09-27T21:45:59Z")
    );
    assert!(bound.contradicts_claim());
    assert!(bound.evidence[0].text.contains("nodes to be schedulable"));
    assert_eq!(bound.evidence[0].prov.line, Some(3));
    let install = tl.install().unwrap();
    assert_eq!(
        install.end.map(|e| fmt_ms(&e)).as_deref(),
        Some("2019-09-27T21:42:28.080Z")
    );
    assert_eq!(
        ms(install, MilestoneKind::ClaimedCompleted).as_deref(),
        Some("2019-09-27T21:45:59.000Z")
    );
    assert!(
        install
            .summary
            .contains("history claims completion at 2019-09-27T21:45:59Z"),
        "{}",
        install.summary
    );
    let up = tl.episodes_of(EpisodeTag::Update).next().unwrap();
    assert_eq!(
        ms(up, MilestoneKind::Completed).as_deref(),
        Some("2019-09-27T22:29:06.000Z")
    );
    assert_eq!(
        ms(up, MilestoneKind::CiCompleted).as_deref(),
        Some("2019-09-27T22:29:12.396Z")
    );
}

/// A 4.8-style install: a previous container instance, a restart, leadership gap, then the
/// Initializing passes completing.
fn install_with_restart() -> Bundle {
    let mut b = Bundle::default();
    let pod = "cluster-version-operator-849b4dcf9c-dl6zb";
    b.cvo_logs.push(log(
        pod,
        true,
        "2021-08-03",
        "09:20:35.492196 I start.go:21] ClusterVersionOperator 4.8.0-202107291502.p0.git.ea6e779
09:24:41.741119 I leaderelection.go:253] successfully acquired lease openshift-cluster-version/version
09:24:41.744279 I sync_worker.go:541] Running sync 4.8.0-0.nightly-2021-07-31-065602 (force=false) on generation 1 in state Initializing at attempt 0
09:24:42.287624 I sync_worker.go:651] Payload loaded from registry.ci.openshift.org/ocp/release@sha256:b8ef with hash 32sO01NRezI=
09:24:43.000000 I sync_worker.go:752] Running sync for namespace \"openshift-cluster-version\" (1 of 676)
09:27:32.702175 I task_graph.go:555] Result of work: [Cluster operator kube-apiserver is not available]
09:28:08.159034 I cvo.go:407] Shutting down ClusterVersionOperator
09:28:08.160693 I start.go:26] Graceful shutdown complete for ClusterVersionOperator 4.8.0-202107291502.p0.git.ea6e779.",
    ));
    b.cvo_logs.push(log(
        pod,
        false,
        "2021-08-03",
        "09:28:09.024765 I start.go:21] ClusterVersionOperator 4.8.0-202107291502.p0.git.ea6e779
09:31:43.208565 I leaderelection.go:253] successfully acquired lease openshift-cluster-version/version
09:31:43.209596 I sync_worker.go:541] Running sync 4.8.0-0.nightly-2021-07-31-065602 (force=false) on generation 1 in state Initializing at attempt 0
09:31:44.000000 I sync_worker.go:752] Running sync for namespace \"openshift-cluster-version\" (1 of 676)
09:31:44.100000 I sync_worker.go:764] Done syncing for namespace \"openshift-cluster-version\" (1 of 676)
09:45:27.617037 I task_graph.go:555] Result of work: []
09:45:27.617069 I sync_worker.go:358] Sync succeeded, transitioning from Initializing to Reconciling",
    ));
    b.objects.cluster_versions.push(cv(
        json!({"metadata": {"name": "version"}, "status": {"desired": {"version": "4.8.0-0.nightly-2021-07-31-065602"},
          "conditions": [{"type": "Available", "status": "True", "lastTransitionTime": "2021-08-03T09:45:28Z", "message": "Done applying 4.8.0-0.nightly-2021-07-31-065602"}],
          "history": [{"state": "Completed", "startedTime": "2021-08-03T09:14:59Z", "completionTime": "2021-08-03T09:45:28Z",
                       "version": "4.8.0-0.nightly-2021-07-31-065602", "image": "registry.ci.openshift.org/ocp/release@sha256:b8ef"}]}}),
        "cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml",
    ));
    b
}

#[test]
fn install_end_is_history_completion_confirmed_by_the_log() {
    let tl = build(&install_with_restart());
    let install = tl.install().unwrap();
    assert_eq!(fmt_k8s(&install.start), "2021-08-03T09:14:59Z");
    assert_eq!(
        install.end.map(|e| fmt_k8s(&e)).as_deref(),
        Some("2021-08-03T09:45:28Z"),
        "history's completion, confirmed by the log"
    );
    let done = install.milestone(MilestoneKind::Completed).unwrap();
    assert_eq!(
        done.evidence.len(),
        2,
        "log line and history entry agree within a second"
    );
    assert!(install.milestone(MilestoneKind::ClaimedCompleted).is_none());
}

#[test]
fn install_end_comes_from_the_log_when_history_has_none() {
    let mut b = install_with_restart();
    b.objects.cluster_versions[0].value.status.history[0].completion_time = None;
    b.objects.cluster_versions[0].value.status.history[0].state = "Partial".into();
    b.objects.cluster_versions[0]
        .value
        .status
        .conditions
        .clear();
    let tl = build(&b);
    let install = tl.install().unwrap();
    assert_eq!(
        install.end.map(|e| fmt_ms(&e)).as_deref(),
        Some("2021-08-03T09:45:27.617Z")
    );
}

#[test]
fn cvo_restart_from_previous_log_and_the_leadership_gap() {
    let tl = build(&install_with_restart());
    let restarts: Vec<_> = tl.episodes_of(EpisodeTag::CvoRestart).collect();
    assert_eq!(restarts.len(), 1);
    let r = restarts[0];
    assert!(
        matches!(&r.kind, EpisodeKind::CvoRestart { cause, previous_pod: None, .. } if cause.contains("previous.log"))
    );
    assert_eq!(fmt_ms(&r.start), "2021-08-03T09:28:08.159Z");
    assert_eq!(
        r.end.map(|e| fmt_ms(&e)).as_deref(),
        Some("2021-08-03T09:28:09.024Z")
    );
    let gap: Vec<_> = tl.episodes_of(EpisodeTag::Unmanaged).collect();
    assert_eq!(gap.len(), 1);
    assert_eq!(fmt_ms(&gap[0].start), "2021-08-03T09:28:08.159Z");
    assert_eq!(
        gap[0].end.map(|e| fmt_ms(&e)).as_deref(),
        Some("2021-08-03T09:31:43.208Z")
    );
    assert_eq!(tl.cvo_instances().len(), 2);
    assert!(
        tl.episodes_of(EpisodeTag::Stall).next().is_none(),
        "failing install passes still applied manifests"
    );
}

/// A→B→A where B was partly applied: a rollback, not a cancel.
#[test]
fn rollback_when_the_abandoned_target_was_applied() {
    let mut b = Bundle::default();
    let h = |state: &str, s: &str, c: Option<&str>, v: &str| json!({"state": state, "startedTime": s, "completionTime": c, "version": v, "image": format!("quay.io/r:{v}")});
    b.objects.cluster_versions.push(cv(
        json!({"status": {"desired": {"version": "4.6.1"}, "history": [
            h("Completed", "2020-11-01T11:00:00Z", Some("2020-11-01T11:40:00Z"), "4.6.1"),
            h("Partial", "2020-11-01T10:00:00Z", Some("2020-11-01T11:00:00Z"), "4.6.2"),
            h("Completed", "2020-10-01T10:00:00Z", Some("2020-10-01T10:40:00Z"), "4.6.1")]}}),
        "cv.yaml",
    ));
    b.cvo_logs.push(log(
        "cvo-new",
        false,
        "2020-11-01",
        "09:50:00.000000 I start.go:21] ClusterVersionOperator 4.6.1
10:00:05.000000 I sync_worker.go:1] Running sync 4.6.2 (force=false) on generation 2 in state Updating at attempt 0
10:00:30.000000 I sync_worker.go:1] Payload loaded from quay.io/r:4.6.2 with hash a=
10:01:00.000000 I sync_worker.go:1] Running sync for namespace \"a\" (1 of 600)",
    ));
    let tl = build(&b);
    let rb = tl
        .episodes_of(EpisodeTag::Rollback)
        .next()
        .expect("rollback");
    assert_eq!(
        rb.kind,
        EpisodeKind::Rollback {
            from: "4.6.1".into(),
            to: "4.6.2".into()
        }
    );
    assert_eq!(
        rb.end.map(|e| fmt_k8s(&e)).as_deref(),
        Some("2020-11-01T11:40:00Z")
    );
    assert!(tl.episodes_of(EpisodeTag::Cancel).next().is_none());
    let up = tl.episodes_of(EpisodeTag::Update).next().unwrap();
    assert_eq!(
        ms(up, MilestoneKind::Accepted).as_deref(),
        Some("2020-11-01T10:00:30.000Z")
    );
    assert_eq!(
        ms(up, MilestoneKind::FirstManifest).as_deref(),
        Some("2020-11-01T10:01:00.000Z")
    );
    assert_eq!(up.running_release.as_deref(), Some("4.6.2"));
}

#[test]
fn snapshot_only_stall_from_the_legacy_signature() {
    let mut b = seed1();
    b.cvo_logs.clear();
    b.objects.cluster_versions.truncate(1);
    let tl = build(&b);
    let s = tl
        .episodes_of(EpisodeTag::Stall)
        .next()
        .expect("stall from the snapshot");
    assert_eq!(fmt_k8s(&s.start), "2020-04-09T18:27:49Z");
    assert_eq!(s.end, None, "still stuck at collection time");
    assert_eq!(s.running_release.as_deref(), Some("4.3.10"));
    let up = tl.episodes_of(EpisodeTag::Update).next().unwrap();
    assert_eq!(up.running_release, None, "no CVO log covers the update");
}

#[test]
fn empty_bundle_gives_an_empty_timeline() {
    let tl = build(&Bundle::default());
    assert!(tl.events.is_empty() && tl.episodes.is_empty() && tl.passes.is_empty());
    assert!(tl.install_finished_before().is_none());
}
