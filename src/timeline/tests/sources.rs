//! Extraction from each source kind, merging across sources, and ordering.

use super::*;
use crate::timeline::{EventKind, EventSource, Subject, build};

fn kinds_for(tl: &crate::timeline::Timeline, subject: Subject) -> Vec<&str> {
    tl.events_for(&subject).map(|e| e.kind.name()).collect()
}

#[test]
fn cluster_version_history_conditions_and_snapshot() {
    let tl = build(&seed1());
    let cv: Vec<_> = tl
        .events_for(&Subject::cluster_version())
        .filter(|e| e.source == EventSource::ClusterVersion)
        .collect();
    let started: Vec<_> = cv
        .iter()
        .filter(|e| matches!(e.kind, EventKind::HistoryStarted { .. }))
        .map(|e| fmt_k8s(&e.time))
        .collect();
    // Entries present in both snapshots are one event each, with two pieces of evidence.
    assert_eq!(
        started,
        vec![
            "2020-04-09T17:35:48Z",
            "2020-04-09T18:27:49Z",
            "2020-04-09T18:55:16Z"
        ]
    );
    let install = cv
        .iter()
        .find(|e| matches!(e.kind, EventKind::HistoryStarted { .. }))
        .unwrap();
    assert_eq!(install.evidence.len(), 2);
    let abandoned: Vec<_> = cv
        .iter()
        .filter(|e| matches!(e.kind, EventKind::HistoryAbandoned { .. }))
        .collect();
    assert_eq!(abandoned.len(), 1);
    assert_eq!(fmt_k8s(&abandoned[0].time), "2020-04-09T18:55:16Z");
    let progressing: Vec<_> = cv
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ConditionTransition {
                condition, status, ..
            } if condition == "Progressing" => Some((fmt_k8s(&e.time), status.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(
        progressing,
        vec![
            ("2020-04-09T18:27:49Z".to_string(), "True"),
            ("2020-04-09T18:55:34Z".to_string(), "False")
        ]
    );
    let snap: Vec<_> = cv
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Snapshot { .. }))
        .collect();
    assert_eq!(snap.len(), 2, "one snapshot event per ClusterVersion file");
    assert!(
        cv.iter().any(
            |e| matches!(&e.kind, EventKind::DesiredUpdateSeen { image, .. } if image == IMG_10)
        )
    );
}

#[test]
fn operators_nodes_and_pools_yield_condition_transitions() {
    let mut b = Bundle::default();
    b.objects.cluster_operators.push(sourced(
        serde_json::from_value(json!({"metadata": {"name": "kube-apiserver"}, "status": {
            "conditions": [
                {"type": "Upgradeable", "status": "False", "reason": "DefaultSecurityContextConstraints_Mutated", "lastTransitionTime": "2020-04-09T18:12:01Z"},
                {"type": "Progressing", "status": "False", "lastTransitionTime": "2020-04-09T17:58:00Z"}],
            "versions": [{"name": "operator", "version": "4.3.10"}, {"name": "kube-apiserver", "version": "1.16.2"}]}}))
        .unwrap(),
        "cluster-scoped-resources/config.openshift.io/clusteroperators/kube-apiserver.yaml",
    ));
    b.objects.nodes.push(sourced(
        serde_json::from_value(json!({"metadata": {"name": "master-1", "annotations": {"machine.openshift.io/machine": "openshift-machine-api/ci-master-1"}},
            "status": {"conditions": [
                {"type": "MemoryPressure", "status": "False", "lastTransitionTime": "2019-09-27T21:20:00Z"},
                {"type": "Ready", "status": "True", "lastTransitionTime": "2019-09-27T22:09:55Z"}]}}))
        .unwrap(),
        "nodes.json",
    ));
    b.objects.pools.push(sourced(
        serde_json::from_value(json!({"metadata": {"name": "worker"}, "status": {"conditions": [
            {"type": "Updating", "status": "True", "lastTransitionTime": "2019-09-27T22:10:00Z"},
            {"type": "RenderDegraded", "status": "False", "lastTransitionTime": "2019-09-27T21:10:00Z"}]}}))
        .unwrap(),
        "machineconfigpools.json",
    ));
    let tl = build(&b);
    assert_eq!(
        kinds_for(&tl, Subject::ClusterOperator("kube-apiserver".into())),
        vec![
            "condition-transition",
            "operator-version",
            "condition-transition"
        ]
    );
    let ov = tl.first_of("operator-version").unwrap();
    assert_eq!(
        fmt_k8s(&ov.time),
        "2020-04-09T17:58:00Z",
        "placed at the Progressing=False transition"
    );
    let node: Vec<_> = tl.events_for(&Subject::Node("master-1".into())).collect();
    assert_eq!(node.len(), 1, "only Ready transitions are kept for nodes");
    assert!(node[0].message.contains("ci-master-1"));
    assert_eq!(
        kinds_for(&tl, Subject::MachineConfigPool("worker".into())),
        vec!["condition-transition"]
    );
}

#[test]
fn kube_event_and_its_log_mirror_merge_into_one_fact() {
    let mut b = Bundle::default();
    let ev: Event = serde_json::from_value(json!({
        "metadata": {"name": "version.16", "namespace": "openshift-cluster-version"},
        "involvedObject": {"kind": "ClusterVersion", "name": "version", "namespace": "openshift-cluster-version"},
        "reason": "PayloadLoaded", "type": "Normal",
        "message": "payload loaded version=\"4.6.1\" image=\"quay.io/x@sha256:1\"",
        "firstTimestamp": "2020-11-01T10:00:01Z", "lastTimestamp": "2020-11-01T10:00:01Z", "count": 1}))
    .unwrap();
    b.objects.events.push(sourced(
        ev,
        "namespaces/openshift-cluster-version/core/events.yaml",
    ));
    let lease: Event = serde_json::from_value(json!({
        "metadata": {"name": "version.1"}, "involvedObject": {"kind": "ConfigMap", "name": "version", "namespace": "openshift-cluster-version"},
        "reason": "LeaderElection", "type": "Normal", "message": "cluster-version-operator-abc_0f1 became leader", "firstTimestamp": "2020-11-01T09:59:00Z"}))
    .unwrap();
    b.objects.events.push(sourced(
        lease,
        "namespaces/openshift-cluster-version/core/events.yaml",
    ));
    let unrelated: Event = serde_json::from_value(json!({
        "metadata": {"name": "x"}, "involvedObject": {"kind": "Pod", "name": "etcd-0", "namespace": "openshift-etcd"},
        "reason": "Pulled", "type": "Normal", "message": "pulled", "firstTimestamp": "2020-11-01T09:59:00Z"}))
    .unwrap();
    b.objects.events.push(sourced(unrelated, "events.json"));
    b.cvo_logs.push(log(
        "cvo-abc",
        false,
        "2020-11-01",
        "10:00:00.400000 I sync_worker.go:600] Payload loaded from quay.io/x@sha256:1 with hash h=",
    ));
    let tl = build(&b);
    let loaded: Vec<_> = tl
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::PayloadLoaded { .. }))
        .collect();
    assert_eq!(loaded.len(), 1);
    assert_eq!(loaded[0].evidence.len(), 2);
    assert_eq!(
        loaded[0].source,
        EventSource::CvoLog,
        "the earlier reading wins"
    );
    let lead = tl.first_of("leader-acquired").unwrap();
    assert_eq!(
        lead.subject,
        Subject::CvoPod("cluster-version-operator-abc".into())
    );
    assert!(
        !tl.events
            .iter()
            .any(|e| e.subject.name().is_some_and(|n| n.contains("etcd-0")))
    );
}

#[test]
fn cvo_pod_status_gives_container_restarts() {
    let mut b = Bundle::default();
    b.objects.cvo_pods.push(sourced(
        serde_json::from_value(json!({"metadata": {"name": "cluster-version-operator-1", "namespace": "openshift-cluster-version"},
            "status": {"containerStatuses": [{"name": "cluster-version-operator", "restartCount": 1,
                "state": {"running": {"startedAt": "2021-08-03T09:28:09Z"}},
                "lastState": {"terminated": {"startedAt": "2021-08-03T09:20:35Z", "finishedAt": "2021-08-03T09:28:08Z", "reason": "Completed", "exitCode": 0}}}]}}))
        .unwrap(),
        "namespaces/openshift-cluster-version/pods/cluster-version-operator-1/cluster-version-operator-1.yaml",
    ));
    let tl = build(&b);
    let states: Vec<_> = tl
        .events_for(&Subject::CvoPod("cluster-version-operator-1".into()))
        .map(|e| match &e.kind {
            EventKind::ContainerState { state, .. } => {
                format!("{} {}", fmt_k8s(&e.time), state.as_str())
            }
            _ => String::new(),
        })
        .collect();
    assert_eq!(
        states,
        vec![
            "2021-08-03T09:20:35Z started",
            "2021-08-03T09:28:08Z terminated",
            "2021-08-03T09:28:09Z running"
        ]
    );
    let restart = tl
        .episodes_of(crate::timeline::EpisodeTag::CvoRestart)
        .next()
        .unwrap();
    assert_eq!(fmt_k8s(&restart.start), "2021-08-03T09:28:08Z");
    assert_eq!(
        restart.end.map(|e| fmt_k8s(&e)),
        Some("2021-08-03T09:28:09Z".into())
    );
}

#[test]
fn intervals_of_every_kind() {
    // Through ingest, as a run reads them: v1 string forms (the keys and annotations are split
    // off by `ingest::stanza`) beside structured v3 items.
    let file = br#"{"items":[
      {"level":"Info","source":"KubeEvent","locator":{"type":"ClusterVersion","keys":{"clusterversion":"cluster"}},
       "message":{"reason":"UpgradeStarted","humanMessage":"version/4.14.1 image/quay.io/x"},
       "from":"2023-07-17T22:00:00Z","to":null},
      {"level":"Info","locator":"clusterversion/cluster","message":"reason/UpgradeComplete version/4.14.1 image/quay.io/x",
       "from":"2023-07-17T23:30:00Z","to":null},
      {"level":"Warning","locator":"clusteroperator/etcd",
       "message":"condition/Degraded status/True reason/EtcdMembersDegraded changed: 1 of 3 members are available",
       "from":"2023-07-17T22:30:00Z","to":"2023-07-17T22:31:00Z"},
      {"level":"Info","locator":"node/worker-a",
       "message":"constructed/node-lifecycle-constructor reason/NodeUpdate phase/Drain roles/worker drained node",
       "from":"2023-07-17T22:58:52Z","to":"2023-07-17T23:00:24Z"},
      {"level":"Info","locator":{"type":"E2ETest","keys":{"e2e-test":"[sig-x] works"}},"message":{"humanMessage":""},
       "from":"2023-07-17T22:05:00Z","to":"2023-07-17T22:06:00Z"},
      {"level":"Info","locator":"ns/x pod/y","message":"reason/Created created",
       "from":"2023-07-17T22:05:00Z","to":null}
    ]}"#;
    let b = Bundle {
        intervals: crate::ingest::intervals::parse_intervals(
            file,
            &prov("e2e-events_20230717-221300.json"),
        )
        .unwrap(),
        ..Default::default()
    };
    let tl = build(&b);
    let names: Vec<_> = tl
        .events
        .iter()
        .map(|e| (e.subject.clone(), e.kind.name()))
        .collect();
    assert_eq!(
        names,
        vec![
            (Subject::cluster_version(), "upgrade-started"),
            (Subject::E2e, "test-start"),
            (Subject::E2e, "test-end"),
            (
                Subject::ClusterOperator("etcd".into()),
                "condition-transition"
            ),
            (Subject::Node("worker-a".into()), "node-lifecycle"),
            (Subject::cluster_version(), "upgrade-complete"),
        ]
    );
    let ci = tl
        .episodes_of(crate::timeline::EpisodeTag::Update)
        .next()
        .unwrap();
    assert_eq!(
        ci.end.map(|e| fmt_k8s(&e)),
        Some("2023-07-17T23:30:00Z".into()),
        "CI-only update from the upgrade events"
    );
    // The chart's spans keep both ends and leave the e2e-test and pod intervals out; the
    // window still reaches the latest end of any interval.
    let spans: Vec<_> = tl
        .monitor
        .spans
        .iter()
        .map(|s| {
            (
                s.locator.as_str(),
                s.reason.as_str(),
                s.message.as_str(),
                s.to.map(|t| fmt_k8s(&t)),
            )
        })
        .collect();
    assert_eq!(
        spans,
        vec![
            (
                "clusterversion/cluster",
                "UpgradeStarted",
                "version/4.14.1 image/quay.io/x",
                None
            ),
            ("clusterversion/cluster", "UpgradeComplete", "", None),
            (
                "clusteroperator/etcd",
                "EtcdMembersDegraded",
                "1 of 3 members are available",
                Some("2023-07-17T22:31:00Z".into())
            ),
            (
                "node/worker-a",
                "NodeUpdate",
                "drained node",
                Some("2023-07-17T23:00:24Z".into())
            ),
        ]
    );
    assert!(tl.monitor.any);
    assert_eq!(
        tl.monitor.end.map(|t| fmt_k8s(&t)),
        Some("2023-07-17T23:30:00Z".into())
    );
}

#[test]
fn monitor_lines_merge_with_status_conditions_and_info_lines_are_recognised() {
    let tl = build(&seed2());
    let prog_false = tl
        .events
        .iter()
        .find(|e| matches!(&e.kind, EventKind::ConditionTransition { condition, status, .. } if condition == "Progressing" && status == "False"))
        .unwrap();
    assert_eq!(prog_false.source, EventSource::ClusterVersion);
    assert_eq!(
        prog_false.evidence.len(),
        2,
        "status condition and monitor line are one fact"
    );
    let failing: Vec<_> = tl
        .events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::ConditionTransition { condition, .. } if condition == "Failing"))
        .collect();
    assert_eq!(
        failing.len(),
        2,
        "Failing True (monitor only) and Failing False (both)"
    );
    assert_eq!(
        failing[0].kind,
        EventKind::ConditionTransition {
            condition: "Failing".into(),
            status: "True".into(),
            reason: "ClusterOperatorNotAvailable".into()
        }
    );
    assert_eq!(failing[1].evidence.len(), 2);
    let wait = tl.first_of("e2e-waiting-for-nodes").unwrap();
    assert_eq!(fmt_ms(&wait.time), "2019-09-27T21:42:28.080Z");
    assert!(tl.first_of("e2e-output-start").is_some());
    assert!(tl.first_of("upgrade-complete").is_some());
}

#[test]
fn junit_and_prow_are_placed_at_the_job_end() {
    let mut b = Bundle {
        prow: Some(ProwJob {
            job: "release-openshift-origin-installer-e2e-aws-upgrade".into(),
            start: Some(t("2019-09-27T21:00:00Z")),
            completion: Some(t("2019-09-27T23:00:00Z")),
            passed: Some(false),
            result: "FAILURE".into(),
            prov: vec![prov("started.json"), prov("finished.json")],
            ..Default::default()
        }),
        ..Default::default()
    };
    let case = |name: &str, status: JunitStatus| JunitCase {
        suite: "Cluster upgrade".into(),
        classname: String::new(),
        name: name.into(),
        time_secs: Some(2564.0),
        status,
        message: String::new(),
        prov: prov("junit_upgrade_1.xml"),
    };
    b.junit = vec![
        case(
            "[sig-cluster-lifecycle] Cluster completes upgrade",
            JunitStatus::Passed,
        ),
        case("[sig-storage] something", JunitStatus::Passed),
        case("Operator upgrade machine-config", JunitStatus::Failed),
    ];
    let tl = build(&b);
    let names: Vec<_> = tl.events.iter().map(|e| e.kind.name()).collect();
    assert_eq!(
        names,
        vec!["prow-start", "junit-result", "junit-result", "prow-end"]
    );
    assert!(tl.events[1].message.starts_with("failed after 2564s"));
    assert!(tl.events[3].message.contains("FAILURE"));
}

#[test]
fn ordering_across_a_year_boundary_follows_resolved_times() {
    let mut b = Bundle::default();
    // Records are resolved by ingest; file order here puts January first.
    b.cvo_logs.push(log(
        "cvo-y",
        false,
        "2021-01-01",
        "00:00:01.000000 I sync_worker.go:1] Running sync 4.6.9 (force=false) on generation 1 in state Reconciling at attempt 1
2020-12-31 23:59:59.000000 I sync_worker.go:1] Running sync 4.6.9 (force=false) on generation 1 in state Reconciling at attempt 0",
    ));
    b.objects.cluster_versions.push(cv(
        json!({"status": {"conditions": [{"type": "Failing", "status": "False", "lastTransitionTime": "2021-01-01T00:00:00Z"}]}}),
        "cv.yaml",
    ));
    let tl = build(&b);
    let order: Vec<_> = tl.events.iter().map(|e| fmt_k8s(&e.time)).collect();
    assert_eq!(
        order,
        vec![
            "2020-12-31T23:59:59Z",
            "2021-01-01T00:00:00Z",
            "2021-01-01T00:00:01Z"
        ]
    );
    let attempts: Vec<u32> = tl.passes().iter().map(|p| p.attempt).collect();
    assert_eq!(attempts, vec![0, 1]);
}

#[test]
fn building_twice_gives_the_same_timeline() {
    let a = crate::timeline::render_json(
        &build(&seed1()),
        &Default::default(),
        crate::vocab::text::JsonLayout::Pretty,
    );
    let b = crate::timeline::render_json(
        &build(&seed1()),
        &Default::default(),
        crate::vocab::text::JsonLayout::Pretty,
    );
    assert_eq!(a, b);
}
