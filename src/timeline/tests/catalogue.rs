//! The CVO log catalogue: one message in, one typed fact out.

use crate::timeline::catalogue::{go_update, split_errors};
use crate::timeline::{EventKind, Fact, classify};

fn kind(msg: &str) -> EventKind {
    match classify(msg) {
        Some(Fact::Event(k, _) | Fact::Load(k, _, _)) => k,
        other => panic!("`{msg}` classified as {other:?}"),
    }
}

#[test]
fn legacy_pass_start_carries_target_generation_state_and_attempt() {
    let k =
        kind("Running sync 4.3.11 (force=false) on generation 3 in state Updating at attempt 4");
    assert_eq!(
        k,
        EventKind::PassStart {
            target: "4.3.11".into(),
            generation: Some(3),
            state: "Updating".into(),
            attempt: 4,
            force: Some(false)
        }
    );
}

#[test]
fn apply_pass_start_has_no_force() {
    let k = kind("apply: 4.16.1 on generation 7 in state Reconciling at attempt 0");
    assert_eq!(
        k,
        EventKind::PassStart {
            target: "4.16.1".into(),
            generation: Some(7),
            state: "Reconciling".into(),
            attempt: 0,
            force: None
        }
    );
}

#[test]
fn manifest_lines_are_not_confused_with_pass_starts() {
    let f = classify(r#"Running sync for clusteroperator "kube-apiserver" (102 of 853)"#);
    assert_eq!(
        f,
        Some(Fact::Manifest {
            done: false,
            name: r#"clusteroperator "kube-apiserver""#.into(),
            index: 102,
            total: 853
        })
    );
    let f = classify(
        r#"Done syncing for deployment "openshift-cluster-version/cluster-version-operator" (5 of 573)"#,
    );
    assert!(matches!(
        f,
        Some(Fact::Manifest {
            done: true,
            index: 5,
            total: 573,
            ..
        })
    ));
}

#[test]
fn result_of_work_splits_errors_in_both_forms() {
    assert_eq!(
        kind("Result of work: []"),
        EventKind::PassResult {
            target: String::new(),
            ok: true,
            errors: vec![]
        }
    );
    let k = kind(
        "Result of work: errs=[Cluster operator authentication is not available Cluster operator monitoring is not available]",
    );
    let EventKind::PassResult { ok, errors, .. } = k else {
        panic!()
    };
    assert!(!ok);
    assert_eq!(
        errors,
        vec![
            "Cluster operator authentication is not available",
            "Cluster operator monitoring is not available"
        ]
    );
    assert_eq!(
        split_errors("[something odd happened]"),
        vec!["something odd happened"]
    );
    // Three errors, the first of a wording the list does not name: three, not one.
    assert_eq!(
        split_errors(
            "[context deadline exceeded Cluster operator etcd is degraded Could not update deployment \"openshift-etcd-operator/etcd-operator\" (90 of 680)]"
        ),
        vec![
            "context deadline exceeded",
            "Cluster operator etcd is degraded",
            "Could not update deployment \"openshift-etcd-operator/etcd-operator\" (90 of 680)"
        ]
    );
}

#[test]
fn payload_and_precondition_lines() {
    assert_eq!(
        kind(
            "Payload loaded from registry.ci.openshift.org/ocp/release@sha256:b8ef with hash 32sO01NRezI="
        ),
        EventKind::PayloadLoaded {
            version: String::new(),
            image: "registry.ci.openshift.org/ocp/release@sha256:b8ef".into()
        }
    );
    assert_eq!(
        kind("Payload loaded from quay.io/x@sha256:1 with hash abc=, architecture amd64"),
        EventKind::PayloadLoaded {
            version: String::new(),
            image: "quay.io/x@sha256:1".into()
        }
    );
    assert_eq!(
        kind("Loading payload"),
        EventKind::PayloadLoading {
            target: String::new()
        }
    );
    assert_eq!(
        kind(
            r#"Precondition "ClusterVersionUpgradeable" failed: Cluster operator kube-apiserver cannot be upgraded"#
        ),
        EventKind::PreconditionFailed {
            name: "ClusterVersionUpgradeable".into(),
            reason: None
        }
    );
    assert_eq!(
        kind(
            r#"Precondition error (force false, block true): Precondition "ClusterVersionUpgradeable" failed because of "ClusterVersionOverridesSet": Disabling ownership"#
        ),
        EventKind::PreconditionFailed {
            name: "ClusterVersionUpgradeable".into(),
            reason: Some("ClusterVersionOverridesSet".into())
        }
    );
    assert_eq!(
        kind(
            r#"Precondition error (force true, block true): Forced through blocking failures: Precondition "EtcdRecentBackup" failed because of "X": y"#
        ),
        EventKind::PreconditionWarning {
            name: "EtcdRecentBackup".into()
        }
    );
    assert_eq!(
        kind(
            "loadUpdatedPayload syncPayload err=Preconditions failed for payload loaded version=\"4.11.1\""
        ),
        EventKind::PayloadRejected {
            step: crate::model::LoadStep::PreconditionChecks
        }
    );
    assert_eq!(
        kind("syncPayload: 4.11.1 (force=false)"),
        EventKind::SyncPayload {
            target: "4.11.1".into(),
            force: false
        }
    );
}

#[test]
fn sync_failure_plain_and_structured() {
    assert_eq!(
        kind("unable to synchronize image (waiting 2m50.9s): Precondition failed"),
        EventKind::SyncFailed {
            wait: "2m50.9s".into()
        }
    );
    let structured = r#""Unhandled Error" err="unable to synchronize image (waiting 21s): Could not update deployment \"a/b\" (5 of 9)" logger="UnhandledError""#;
    assert_eq!(
        kind(structured),
        EventKind::SyncFailed { wait: "21s".into() }
    );
}

#[test]
fn lifecycle_leadership_and_state_transitions() {
    assert_eq!(
        kind("ClusterVersionOperator v4.3.10-202003311428-dirty"),
        EventKind::PodStart {
            build: "v4.3.10-202003311428-dirty".into()
        }
    );
    assert_eq!(
        kind("successfully acquired lease openshift-cluster-version/version"),
        EventKind::LeaderAcquired
    );
    assert_eq!(
        kind(r#""Successfully acquired lease" lock="openshift-cluster-version/version""#),
        EventKind::LeaderAcquired
    );
    assert_eq!(
        kind("Shutting down ClusterVersionOperator"),
        EventKind::Shutdown
    );
    assert_eq!(
        kind("Work changed, transitioning from Reconciling to Updating"),
        EventKind::WorkChanged {
            from_state: "Reconciling".into()
        }
    );
    assert_eq!(
        kind("Sync succeeded, transitioning from Initializing to Reconciling"),
        EventKind::SyncSucceeded {
            from_state: "Initializing".into()
        }
    );
    assert_eq!(
        kind("Sync succeeded, reconciling"),
        EventKind::SyncSucceeded {
            from_state: String::new()
        }
    );
    assert_eq!(
        kind("Starting ClusterVersionOperator with minimum reconcile period 2m50.956499648s"),
        EventKind::ReconcilePeriod {
            period: "2m50.956499648s".into()
        }
    );
}

#[test]
fn history_push_and_desired_update_decode_go_dumps() {
    let k = kind(
        r#"must add a new history entry completed=false desired=v1.Update{Version:"4.3.11", Image:"quay.io/x@sha256:1", Force:false} != last=&v1.UpdateHistory{State:"Completed", Version:"4.3.10", Image:"quay.io/y"}"#,
    );
    assert_eq!(
        k,
        EventKind::HistoryPush {
            version: "4.3.11".into(),
            image: "quay.io/x@sha256:1".into()
        }
    );
    let k = kind(
        r#"Desired version from spec is v1.Update{Architecture:"", Version:"", Image:"quay.io/z@sha256:2", Force:true}"#,
    );
    assert_eq!(
        k,
        EventKind::DesiredUpdateSeen {
            version: String::new(),
            image: "quay.io/z@sha256:2".into(),
            force: true
        }
    );
    assert_eq!(
        go_update("v1.Update{Version:\"1\", Image:\"i\", Force:false}"),
        ("1".into(), "i".into(), false)
    );
}

#[test]
fn history_merges_say_whether_the_worker_had_completed_the_release() {
    // 4.8 (Azure must-gather of must-gather-clean): a v1.Release, then the entry before the merge.
    let azure = r#"merge into existing history completed=true desired=v1.Release{Version:"4.8.11", Image:"registry.ci.openshift.org/ocp/release@sha256:26f9da8c", URL:"https://access.redhat.com/errata/RHBA-2021:3429", Channels:[]string(nil)} last=&v1.UpdateHistory{State:"Partial", StartedTime:v1.Time{Time:time.Time{wall:0x0, ext:63767141278, loc:(*time.Location)(0x2ab2a20)}}, CompletionTime:(*v1.Time)(nil), Version:"4.8.11", Image:"registry.ci.openshift.org/ocp/release@sha256:26f9da8c", Verified:false}"#;
    let Some(Fact::HistoryMerge(m)) = classify(azure) else {
        panic!("{:?}", classify(azure))
    };
    assert!(m.completed);
    assert_eq!(
        (m.version.as_str(), m.image.as_str()),
        (
            "4.8.11",
            "registry.ci.openshift.org/ocp/release@sha256:26f9da8c"
        )
    );
    // ≤4.5: a v1.Update.
    let old = r#"merge into existing history completed=false desired=v1.Update{Version:"4.3.10", Image:"quay.io/y@sha256:2", Force:false} last=&v1.UpdateHistory{State:"Partial", Version:"4.3.10", Image:"quay.io/y@sha256:2"}"#;
    let Some(Fact::HistoryMerge(m)) = classify(old) else {
        panic!("{:?}", classify(old))
    };
    assert_eq!((m.completed, m.version.as_str()), (false, "4.3.10"));
}

#[test]
fn mirrored_events_map_to_the_same_kinds_as_event_objects() {
    let k = kind(
        r#"Event(v1.ObjectReference{Kind:"ClusterVersion", Namespace:"openshift-cluster-version", Name:"version"}): type: 'Normal' reason: 'PayloadLoaded' payload loaded version="4.6.1" image="quay.io/x@sha256:1""#,
    );
    assert_eq!(
        k,
        EventKind::PayloadLoaded {
            version: "4.6.1".into(),
            image: "quay.io/x@sha256:1".into()
        }
    );
    let k = kind(
        r#"Event(v1.ObjectReference{Kind:"ConfigMap"}): type: 'Normal' reason: 'LeaderElection' cvo-abc_123 became leader"#,
    );
    assert_eq!(k, EventKind::LeaderAcquired);
}

#[test]
fn unrelated_lines_are_ignored() {
    for msg in [
        "Using in-cluster configuration",
        "Desired version from operator is v1.Update{Version:\"4.8.0\"}",
        "Finished syncing cluster version \"openshift-cluster-version/version\" (438.176µs)",
        "",
        "Running sync",
    ] {
        assert!(classify(msg).is_none(), "{msg}");
    }
}
