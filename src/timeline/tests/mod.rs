//! Unit tests of the timeline on hand-built bundles: builders here, one file per theme.

mod catalogue;
mod episodes;
mod render;
mod sources;

use crate::bundle::Bundle;
use crate::model::*;
use serde_json::json;

pub fn prov(path: &str) -> Provenance {
    Provenance::detached("input", path)
}

pub fn t(s: &str) -> Time {
    parse_rfc3339(s).unwrap()
}

pub fn sourced<T>(value: T, path: &str) -> Sourced<T> {
    Sourced {
        value,
        prov: prov(path),
    }
}

pub fn cv(v: serde_json::Value, path: &str) -> Sourced<ClusterVersion> {
    sourced(serde_json::from_value(v).unwrap(), path)
}

/// A CVO log from lines `HH:MM:SS.ffffff L file.go:N] message`; lines starting with two
/// spaces continue the previous record. `date` is `YYYY-MM-DD`; a line may start with
/// `YYYY-MM-DD ` to change it.
pub fn log(pod: &str, previous: bool, date: &str, text: &str) -> CvoLog {
    let path = format!(
        "namespaces/openshift-cluster-version/pods/{pod}/cluster-version-operator/cluster-version-operator/logs/{}.log",
        if previous { "previous" } else { "current" }
    );
    let p = prov(&path);
    let mut records = RecordsBuilder::default();
    let mut date = date.to_string();
    let mut offset = 0u64;
    for (i, line) in text.lines().enumerate() {
        let len = line.len() as u64 + 1;
        if let Some(cont) = line.strip_prefix("  ") {
            records.continue_message(cont, usize::MAX);
            records.extend_open_to(offset + len);
            offset += len;
            continue;
        }
        let mut line = line.trim();
        if line.is_empty() {
            offset += len;
            continue;
        }
        if line.as_bytes().get(4) == Some(&b'-') {
            let (d, rest) = line.split_once(' ').unwrap();
            date = d.to_string();
            line = rest;
        }
        let (time, rest) = line.split_once(' ').unwrap();
        let (level, rest) = rest.split_once(' ').unwrap();
        let (_file, message) = rest.split_once("] ").unwrap();
        let when = t(&format!("{date}T{time}Z"));
        records.push(
            RecordTime::Absolute(when),
            level.chars().next().unwrap(),
            message,
            i as u32 + 1,
            offset,
            len as u32,
        );
        offset += len;
    }
    CvoLog {
        prov: p,
        pod: pod.to_string(),
        file: if previous {
            crate::vocab::wants::LogFile::Previous
        } else {
            crate::vocab::wants::LogFile::Current
        },
        records: records.finish(),
        lines: 0,
        bytes: offset,
        unparsed_lines: 0,
    }
}

pub fn text_line(time: &str, kind: TextLineKind, message: &str, line: u32) -> TextLine {
    let when = t(time);
    TextLine {
        time: Some(when),
        stamp: RecordTime::Absolute(when),
        kind,
        message: message.into(),
        prov: Provenance {
            line: Some(line),
            ..prov("artifacts/e2e/container-logs/test.log")
        },
    }
}

pub fn monitor(time: &str, level: char, locator: &str, message: &str, line: u32) -> TextLine {
    text_line(
        time,
        crate::ingest::textlog::monitor(level, locator.into(), None, message),
        message,
        line,
    )
}

pub fn collected(b: &mut Bundle, at: &str) {
    b.collection_times.push(Sourced {
        value: t(at),
        prov: prov("timestamp"),
    });
}

pub const IMG_10: &str = "registry.svc.ci.openshift.org/ocp/release@sha256:edb4364367cff4f751ffdc032bc830a469548f998127b523047a8dd518c472cd";
pub const IMG_11: &str = "quay.io/openshift-release-dev/ocp-release@sha256:ec07f30d2659d3e279b16055331fc9c3c0ba99f313e5026fddb5a7b2d54c6eb6";

fn hist(
    state: &str,
    started: &str,
    completed: Option<&str>,
    version: &str,
    image: &str,
) -> serde_json::Value {
    json!({"state": state, "startedTime": started, "completionTime": completed, "version": version, "image": image, "verified": false})
}

/// The first seed: 4.3.10 → 4.3.11 blocked by a precondition, then back to 4.3.10 by image.
/// Two snapshots (blocked, returned) and the 4.3.10 CVO's log.
pub fn seed1() -> Bundle {
    let mut b = Bundle::default();
    let blocked = cv(
        json!({"metadata": {"name": "version", "generation": 3},
        "spec": {"desiredUpdate": {"version": "4.3.11", "image": IMG_11, "force": false}},
        "status": {"desired": {"version": "4.3.11", "image": IMG_11}, "observedGeneration": 3,
          "conditions": [
            {"type": "Available", "status": "True", "lastTransitionTime": "2020-04-09T18:00:34Z", "message": "Done applying 4.3.10"},
            {"type": "Failing", "status": "True", "reason": "UpgradePreconditionCheckFailed", "lastTransitionTime": "2020-04-09T18:28:19Z",
             "message": "Precondition \"ClusterVersionUpgradeable\" failed because of \"DefaultSecurityContextConstraints_Mutated\": Cluster operator kube-apiserver cannot be upgraded"},
            {"type": "Progressing", "status": "True", "reason": "UpgradePreconditionCheckFailed", "lastTransitionTime": "2020-04-09T18:27:49Z",
             "message": "Unable to apply 4.3.11: it may not be safe to apply this update"}],
          "history": [hist("Partial", "2020-04-09T18:27:49Z", None, "4.3.11", IMG_11),
                      hist("Completed", "2020-04-09T17:35:48Z", Some("2020-04-09T18:00:34Z"), "4.3.10", IMG_10)]}}),
        "blocked/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml",
    );
    let returned = cv(
        json!({"metadata": {"name": "version", "generation": 4},
        "spec": {"desiredUpdate": {"version": "", "image": IMG_10, "force": false}},
        "status": {"desired": {"version": "4.3.10", "image": IMG_10}, "observedGeneration": 4,
          "conditions": [
            {"type": "Available", "status": "True", "lastTransitionTime": "2020-04-09T18:00:34Z", "message": "Done applying 4.3.10"},
            {"type": "Failing", "status": "False", "lastTransitionTime": "2020-04-09T18:55:16Z"},
            {"type": "Progressing", "status": "False", "lastTransitionTime": "2020-04-09T18:55:34Z", "message": "Cluster version is 4.3.10"}],
          "history": [hist("Completed", "2020-04-09T18:55:16Z", Some("2020-04-09T18:55:34Z"), "4.3.10", IMG_10),
                      hist("Partial", "2020-04-09T18:27:49Z", Some("2020-04-09T18:55:16Z"), "4.3.11", IMG_11),
                      hist("Completed", "2020-04-09T17:35:48Z", Some("2020-04-09T18:00:34Z"), "4.3.10", IMG_10)]}}),
        "returned/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml",
    );
    b.objects.cluster_versions = vec![blocked, returned];
    let log_text = format!(
        "17:38:45.549400 I start.go:19] ClusterVersionOperator v4.3.10-202003311428-dirty
17:38:50.100000 I leaderelection.go:242] successfully acquired lease openshift-cluster-version/version
18:25:00.000000 I sync_worker.go:471] Running sync 4.3.10 (force=false) on generation 2 in state Reconciling at attempt 0
18:25:00.100000 I sync_worker.go:634] Running sync for namespace \"openshift-cluster-version\" (1 of 498)
18:25:00.200000 I sync_worker.go:647] Done syncing for namespace \"openshift-cluster-version\" (1 of 498)
18:26:05.631324 I sync_worker.go:647] Done syncing for clusteroperator \"service-ca\" (388 of 498)
18:26:05.631425 I task_graph.go:611] Result of work: []
18:27:47.543958 I sync_worker.go:471] Running sync 4.3.11 (force=false) on generation 3 in state Updating at attempt 0
18:27:47.544000 I sync_worker.go:477] Loading payload
18:27:47.800000 I payload.go:210] Loading updatepayload from \"/etc/cvo/updatepayloads/0vmj3337PDbtCKhSPEWayQ\"
18:27:48.100000 E precondition.go:49] Precondition \"ClusterVersionUpgradeable\" failed: Cluster operator kube-apiserver cannot be upgraded: DefaultSecurityContextConstraintsUpgradeable: Default SecurityContextConstraints object(s) have mutated [privileged]
18:27:48.100100 E sync_worker.go:329] unable to synchronize image (waiting 21.1s): Precondition \"ClusterVersionUpgradeable\" failed because of \"DefaultSecurityContextConstraints_Mutated\": Cluster operator kube-apiserver cannot be upgraded
18:40:26.944180 I sync_worker.go:471] Running sync 4.3.11 (force=false) on generation 3 in state Updating at attempt 4
18:40:26.944219 I sync_worker.go:477] Loading payload
18:40:27.549821 E precondition.go:49] Precondition \"ClusterVersionUpgradeable\" failed: Cluster operator kube-apiserver cannot be upgraded: DefaultSecurityContextConstraintsUpgradeable: Default SecurityContextConstraints object(s) have mutated [privileged]
18:40:27.549900 E sync_worker.go:329] unable to synchronize image (waiting 2m50.9s): Precondition \"ClusterVersionUpgradeable\" failed
18:55:16.210000 I sync_worker.go:471] Running sync {IMG_10} (force=false) on generation 4 in state Updating at attempt 0
18:55:16.210100 I sync_worker.go:477] Loading payload
18:55:16.300000 I sync_worker.go:547] Payload loaded from {IMG_10} with hash vSLGMQhseGg=
18:55:16.400000 I sync_worker.go:634] Running sync for namespace \"openshift-cluster-version\" (1 of 498)
18:55:16.500000 I sync_worker.go:647] Done syncing for namespace \"openshift-cluster-version\" (1 of 498)
18:55:33.900000 I sync_worker.go:647] Done syncing for clusteroperator \"service-ca\" (498 of 498)
18:55:34.000000 I task_graph.go:611] Result of work: []
18:55:34.000100 I sync_worker.go:491] Sync succeeded, transitioning from Updating to Reconciling
"
    );
    b.cvo_logs.push(log(
        "cluster-version-operator-7bbc4c5dcc-w287k",
        false,
        "2020-04-09",
        &log_text,
    ));
    collected(&mut b, "2020-04-09T19:00:00Z");
    b
}

/// The second seed: install whose completion history rewrote to the update's start.
pub fn seed2() -> Bundle {
    let mut b = Bundle::default();
    let from = "4.3.0-0.ci-2019-09-27-181735";
    let to = "4.3.0-0.ci-2019-09-27-182824";
    b.objects.cluster_versions.push(cv(
        json!({"metadata": {"name": "version", "generation": 2},
        "status": {"desired": {"version": to, "image": "registry.svc.ci.openshift.org/ocp/release:4.3.0-0.ci-2019-09-27-182824"},
          "observedGeneration": 2,
          "conditions": [
            {"type": "Failing", "status": "False", "lastTransitionTime": "2019-09-27T22:24:20Z"},
            {"type": "Progressing", "status": "False", "lastTransitionTime": "2019-09-27T22:29:06Z", "message": format!("Cluster version is {to}")}],
          "history": [
            hist("Completed", "2019-09-27T21:45:59Z", Some("2019-09-27T22:29:06Z"), to, "registry.svc.ci.openshift.org/ocp/release:4.3.0-0.ci-2019-09-27-182824"),
            hist("Completed", "2019-09-27T21:25:09Z", Some("2019-09-27T21:45:59Z"), from, "registry.svc.ci.openshift.org/ocp/release@sha256:d2462537f448853571cc914b334e7169c307767540aad25ebcf4106661953471")]}}),
        "must-gather/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml",
    ));
    b.text_lines = vec![
        text_line(
            "2019-09-27T21:42:28.080Z",
            TextLineKind::Info,
            "Waiting up to 30m0s for all (but 100) nodes to be schedulable",
            3,
        ),
        monitor(
            "2019-09-27T21:45:59.753Z",
            'W',
            "clusterversion/version",
            &format!("changed Progressing to True: Working towards {to}: 1% complete"),
            10,
        ),
        monitor(
            "2019-09-27T22:24:17.883Z",
            'E',
            "clusterversion/version",
            "changed Failing to True: ClusterOperatorNotAvailable: Cluster operator machine-config is still updating",
            40,
        ),
        monitor(
            "2019-09-27T22:24:20.369Z",
            'W',
            "clusterversion/version",
            "changed Failing to False",
            41,
        ),
        monitor(
            "2019-09-27T22:29:06.062Z",
            'W',
            "clusterversion/version",
            &format!("changed Progressing to False: Cluster version is {to}"),
            50,
        ),
        text_line(
            "2019-09-27T22:29:12.396Z",
            TextLineKind::Info,
            &format!("Completed upgrade to registry.svc.ci.openshift.org/ocp/release:{to}"),
            60,
        ),
    ];
    b
}
