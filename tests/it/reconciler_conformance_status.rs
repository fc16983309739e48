//! Conformance of the reference reconciler with cvo-reference §10 TV-09 to TV-15: Failing and
//! Progressing from the sync worker's failures (4.16+ semantics), invalid specs, operator
//! misconfiguration and repeated sync failures, worker-report filtering and CO error condensing.

use crate::reconciler_support;

use mglint::model::{ClusterVersion, ClusterVersionStatus, HistoryEntry, Release, Time};
use mglint::reconciler::model::errors::{
    Effect, Failure, UpdateError, condense_cluster_operators, operator_message,
};
use mglint::reconciler::model::input::{LoadStatus, WorkerStatus};
use mglint::reconciler::model::status::{sync_failing_status, validate};
use mglint::reconciler::worker::state::{ReportBase, filter_report};
use mglint::reconciler::{RunOptions, Semantics, run};
use reconciler_support::*;
use std::collections::BTreeMap;

struct Tv09 {
    failure: Failure,
    actual: &'static str,
    co: &'static [(&'static str, i64)],
}

fn tv09_status(case: &Tv09, reconciling: bool, history: bool) -> ClusterVersionStatus {
    let now = t("12:00:00");
    let co: BTreeMap<String, Time> = case
        .co
        .iter()
        .map(|(n, m)| (n.to_string(), now - chrono::Duration::minutes(*m)))
        .collect();
    let mut s = ClusterVersionStatus::default();
    if history {
        s.history = vec![entry(
            "Completed",
            "1.2.2",
            "img@old",
            "08:00:00",
            Some("09:00:00"),
        )];
    }
    let w = WorkerStatus {
        actual: rel(case.actual, ""),
        reconciling,
        failure: Some(case.failure.clone()),
        ..Default::default()
    };
    sync_with(
        &mut s,
        &Semantics::fixed(),
        &rel("", "img@op"),
        &w,
        now,
        &[],
        &co,
    );
    s
}

fn multiple(message: &str, nested: Vec<UpdateError>) -> Failure {
    Failure::Update(UpdateError {
        effect: Effect::Fail,
        reason: "MultipleErrors".into(),
        message: message.into(),
        nested,
        ..Default::default()
    })
}

type Cond3 = (&'static str, &'static str, &'static str);

#[rustfmt::skip]
fn tv09_cases() -> Vec<(Tv09, Cond3, Cond3, Option<Cond3>)> {
    let updating = |name: &'static str| Failure::Update(ue(Effect::None, "ClusterOperatorUpdating", "Cluster operator A is updating", name));
    let upd_unmodified = ("True", "ClusterOperatorUpdating", "Cluster operator A is updating");
    let slow_co = "waiting on co-timeout over 30 minutes which is longer than expected";
    let slow_mco = "waiting on machine-config over 90 minutes which is longer than expected";
    let not_available = |m| ue(Effect::Fail, "ClusterOperatorNotAvailable", m, "");
    let fail_interval = "Multiple errors are preventing progress:\n* Cluster operator A is not available\n* Cluster operator B is degraded";
    let fail_none = "Multiple errors are preventing progress:\n* Cluster operator A is not available\n* Cluster operator B is updating versions";
    let none_none = "Multiple errors are preventing progress:\n* Cluster operator A is updating versions\n* Cluster operator B is getting conscious";
    vec![
        // name: no error is covered by tv02 and tv10 (Failing False without a failure)
        (Tv09 { failure: Failure::Generic("error has happened".into()), actual: "", co: &[] },
         ("True", "", "error has happened"), ("True", "", "error has happened"), None),
        (Tv09 { failure: updating("co-not-timeout"), actual: "1.2.3", co: &[("co-not-timeout", 0)] },
         upd_unmodified, ("False", "", ""),
         Some(("True", "ClusterOperatorUpdating", "Working towards 1.2.3: waiting on co-not-timeout"))),
        (Tv09 { failure: updating("co-timeout"), actual: "1.2.3", co: &[("co-timeout", 60)] },
         upd_unmodified, ("Unknown", "SlowClusterOperator", slow_co),
         Some(("True", "ClusterOperatorUpdating", "Working towards 1.2.3: waiting on co-timeout over 30 minutes which is longer than expected"))),
        (Tv09 { failure: updating("machine-config"), actual: "1.2.3", co: &[("machine-config", 60)] },
         upd_unmodified, ("False", "", ""),
         Some(("True", "ClusterOperatorUpdating", "Working towards 1.2.3: waiting on machine-config"))),
        (Tv09 { failure: updating("machine-config"), actual: "1.2.3", co: &[("machine-config", 120)] },
         upd_unmodified, ("Unknown", "SlowClusterOperator", slow_mco),
         Some(("True", "ClusterOperatorUpdating", "Working towards 1.2.3: waiting on machine-config over 90 minutes which is longer than expected"))),
        (Tv09 { failure: Failure::Update(UpdateError {
                    nested: vec![not_available("Cluster operator A is not available"), not_available("Cluster operator B is not available")],
                    ..not_available("Cluster operators A, B are not available") }),
                actual: "", co: &[] },
         ("True", "ClusterOperatorNotAvailable", "Cluster operators A, B are not available"),
         ("True", "ClusterOperatorNotAvailable", "Cluster operators A, B are not available"), None),
        (Tv09 { failure: multiple(fail_interval, vec![
                    not_available("Cluster operator A is not available"),
                    ue(Effect::FailAfterInterval, "ClusterOperatorDegraded", "Cluster operator B is degraded", "")]),
                actual: "", co: &[] },
         ("True", "MultipleErrors", fail_interval), ("True", "MultipleErrors", fail_interval), None),
        (Tv09 { failure: multiple(fail_none, vec![
                    not_available("Cluster operator A is not available"),
                    ue(Effect::None, "ClusterOperatorUpdating", "Cluster operator B is updating versions", "")]),
                actual: "", co: &[] },
         ("True", "MultipleErrors", fail_none), ("True", "ClusterOperatorNotAvailable", "Cluster operator A is not available"), None),
        (Tv09 { failure: multiple(none_none, vec![
                    ue(Effect::None, "ClusterOperatorUpdating", "Cluster operator A is updating versions", ""),
                    ue(Effect::None, "NewUpdateEffectNoneReason", "Cluster operator B is getting conscious", "")]),
                actual: "", co: &[] },
         ("True", "MultipleErrors", none_none), ("False", "", ""),
         Some(("True", "MultipleErrors", "Unable to apply <unknown>: an unknown error has occurred: MultipleErrors"))),
    ]
}

#[test]
fn tv09_no_error_means_failing_false() {
    for (reconciling, history) in [(false, false), (true, true), (false, true)] {
        let case = Tv09 {
            failure: Failure::Generic(String::new()),
            actual: "1.2.3",
            co: &[],
        };
        let mut s = tv09_status(&case, reconciling, history);
        let w = WorkerStatus {
            actual: rel("1.2.3", ""),
            reconciling,
            ..Default::default()
        };
        sync(
            &mut s,
            &Semantics::fixed(),
            &rel("", "img@op"),
            &w,
            t("12:05:00"),
        );
        assert_cond(&s, "Failing", "False", "", "");
    }
}

/// "modified" applies when not reconciling and history is non-empty; every other combination
/// gets the unmodified Failing.
#[test]
fn tv09_failing_and_progressing_from_worker_failures() {
    for (case, unmodified, modified, progressing) in &tv09_cases() {
        for (reconciling, history) in [(false, false), (true, false), (true, true), (false, true)] {
            let s = tv09_status(case, reconciling, history);
            let want = if !reconciling && history {
                modified
            } else {
                unmodified
            };
            assert_cond(&s, "Failing", want.0, want.1, want.2);
            assert!(!s.conditions.iter().any(|c| c.type_ == "ImplicitlyEnabled"));
            if let (Some(p), false, true) = (progressing, reconciling, history) {
                assert_cond(&s, "Progressing", p.0, p.1, p.2);
            }
        }
    }
}

#[test]
fn tv09_stale_implicitly_enabled_condition_is_removed() {
    let case = Tv09 {
        failure: Failure::Generic("error has happened".into()),
        actual: "",
        co: &[],
    };
    let mut s = ClusterVersionStatus {
        conditions: vec![cond("ImplicitlyEnabled", "True", "", "")],
        ..Default::default()
    };
    let w = WorkerStatus {
        failure: Some(case.failure),
        ..Default::default()
    };
    // HEAD (and 4.19+, OCPBUGS-56114) removes the stale type; 4.16 leaves it alone.
    let mut kept = s.clone();
    sync(
        &mut s,
        &Semantics::new(mglint::reconciler::Flavour::Fixed, Some(19)),
        &rel("", "img@op"),
        &w,
        t("12:00:00"),
    );
    assert!(!s.conditions.iter().any(|c| c.type_ == "ImplicitlyEnabled"));
    sync(
        &mut kept,
        &Semantics::fixed(),
        &rel("", "img@op"),
        &w,
        t("12:00:00"),
    );
    assert!(
        kept.conditions
            .iter()
            .any(|c| c.type_ == "ImplicitlyEnabled")
    );
}

#[test]
fn tv10_error_while_reconciling_an_applied_release() {
    let sem = Semantics::fixed();
    let op = rel("1.0.0-abc", "image/image:1");
    let mut history = entry(
        "Completed",
        "1.0.0-abc",
        "image/image:1",
        "08:00:00",
        Some("08:30:00"),
    );
    history.verified = true;
    let mut s = ClusterVersionStatus {
        history: vec![history],
        conditions: vec![
            cond("Available", "True", "", "Done applying 1.0.0-abc"),
            cond("Failing", "False", "", ""),
            cond("Progressing", "False", "", "Cluster version is 1.0.0-abc"),
            cond("RetrievedUpdates", "False", "", ""),
            cond("ReleaseAccepted", "True", "PayloadLoaded", ""),
        ],
        ..Default::default()
    };
    let before_history = s.history.clone();
    let w = WorkerStatus {
        generation: 1,
        reconciling: true,
        done: 2,
        total: 3,
        verified: true,
        actual: op.clone(),
        failure: Some(Failure::Update(ue(
            Effect::Unset,
            "UpdatePayloadFailed",
            r#"Could not update test "file-yml" (3 of 3)"#,
            "",
        ))),
        ..Default::default()
    };
    sync(&mut s, &sem, &op, &w, t("09:00:00"));
    assert_eq!(s.history, before_history);
    assert_cond(&s, "Available", "True", "", "Done applying 1.0.0-abc");
    assert_cond(
        &s,
        "Failing",
        "True",
        "UpdatePayloadFailed",
        r#"Could not update test "file-yml" (3 of 3)"#,
    );
    assert_cond(
        &s,
        "Progressing",
        "False",
        "UpdatePayloadFailed",
        "Error while reconciling 1.0.0-abc: the update could not be applied",
    );
}

#[test]
fn tv11_parallel_errors_during_install() {
    let sem = Semantics::fixed();
    let op = rel("1.0.0-abc", "image/image:1");
    let mut s = ClusterVersionStatus {
        desired: op.clone(),
        ..Default::default()
    };
    let loaded = r#"Payload loaded version="1.0.0-abc" image="image/image:1" architecture="amd64""#;
    let failure = UpdateError {
        reason: "MultipleErrors".into(),
        message: "Multiple errors are preventing progress:\n* Failed to reconcile 10-a-file resource\n* Failed to reconcile 20-b-file resource".into(),
        nested: vec![
            ue(Effect::None, "", "Failed to reconcile 10-a-file resource", ""),
            ue(Effect::Fail, "", "Failed to reconcile 20-b-file resource", ""),
        ],
        ..Default::default()
    };
    let w = WorkerStatus {
        generation: 1,
        initial: true,
        done: 1,
        total: 3,
        actual: op.clone(),
        load: LoadStatus {
            step: Some(mglint::model::LoadStep::PayloadLoaded),
            message: loaded.into(),
            ..Default::default()
        },
        failure: Some(Failure::Update(failure)),
        ..Default::default()
    };
    sync(&mut s, &sem, &op, &w, t("09:00:00"));
    assert_eq!(
        s.history,
        vec![entry(
            "Partial",
            "1.0.0-abc",
            "image/image:1",
            "09:00:00",
            None
        )]
    );
    assert_cond(&s, "ReleaseAccepted", "True", "PayloadLoaded", loaded);
    assert_cond(&s, "Available", "False", "", "");
    assert_cond(
        &s,
        "Failing",
        "True",
        "",
        "Failed to reconcile 20-b-file resource",
    );
    assert_cond(
        &s,
        "Progressing",
        "True",
        "MultipleErrors",
        "Unable to apply 1.0.0-abc: an unknown error has occurred: MultipleErrors",
    );
    assert_cond(&s, "RetrievedUpdates", "False", "", "");
    assert_cond(
        &s,
        "ImplicitlyEnabledCapabilities",
        "False",
        "AsExpected",
        "Capabilities match configured spec",
    );
}

#[test]
fn tv12_invalid_spec_falls_back_to_the_operator_release() {
    let sem = Semantics::fixed();
    let op = rel("", "image/image:v4.0.1");
    let mut cv = ClusterVersion::default();
    cv.metadata.generation = Some(3);
    cv.spec.desired_update = Some(rel("4.0.4", ""));
    cv.status.available_updates = vec![rel("4.0.2", "test/image:1"), rel("4.0.3", "test/image:2")];
    cv.status.history = vec![entry(
        "Completed",
        "4.0.1",
        "image/image:v4.0.1",
        "08:00:00",
        Some("08:30:00"),
    )];
    let errs: Vec<String> = validate(&cv, &sem).into_iter().map(|e| e.message).collect();
    assert_eq!(
        errs,
        [
            r#"spec.desiredUpdate.version: Invalid value: "4.0.4": when image is empty the update must be an available update"#
        ]
    );
    let history = cv.status.history.clone();
    let w = WorkerStatus {
        generation: 2,
        reconciling: true,
        completed: 1,
        actual: rel("4.0.1", "image/image:v4.0.1"),
        ..Default::default()
    };
    sync_with(
        &mut cv.status,
        &sem,
        &op,
        &w,
        t("09:00:00"),
        &errs,
        &BTreeMap::new(),
    );
    let s = &cv.status;
    assert_eq!(s.observed_generation, Some(2));
    assert_eq!(s.desired, rel("4.0.1", "image/image:v4.0.1"));
    assert_eq!(s.history, history);
    assert_cond(
        s,
        "Invalid",
        "True",
        "InvalidClusterVersion",
        r#"The cluster version is invalid: spec.desiredUpdate.version: Invalid value: "4.0.4": when image is empty the update must be an available update"#,
    );
    assert_cond(s, "Available", "True", "", "Done applying 4.0.1");
    assert_cond(s, "Failing", "False", "", "");
    assert_cond(
        s,
        "Progressing",
        "False",
        "InvalidClusterVersion",
        "Stopped at 4.0.1: the cluster version is invalid",
    );
    assert_cond(s, "RetrievedUpdates", "False", "", "");
    assert_cond(
        s,
        "ImplicitlyEnabledCapabilities",
        "False",
        "AsExpected",
        "Capabilities match configured spec",
    );
}

#[test]
fn tv12_more_validation_messages() {
    // `ValidateClusterVersion` checks the desired update in a `switch`: the first failing
    // case is the only error.
    let sem = Semantics::fixed();
    let texts = |cv: &ClusterVersion| -> Vec<String> {
        validate(cv, &sem).into_iter().map(|e| e.message).collect()
    };
    let mut cv = ClusterVersion::default();
    cv.spec.desired_update = Some(rel("4.0", ""));
    cv.status.available_updates = vec![rel("4.0", "a"), rel("4.0", "b")];
    assert_eq!(
        texts(&cv),
        [
            r#"spec.desiredUpdate.version: Invalid value: "4.0": must be a semantic version (1.2.3[-...])"#,
        ]
    );
    cv.spec.desired_update = Some(rel("4.0.0", ""));
    cv.status.available_updates = vec![rel("4.0.0", "a"), rel("4.0.0", "b")];
    assert_eq!(
        texts(&cv),
        [
            r#"spec.desiredUpdate.version: Invalid value: "4.0.0": there are multiple possible payloads for this version, specify the exact image"#,
        ]
    );
    cv.spec.desired_update = Some(rel("4.0.1", ""));
    cv.status.available_updates.clear();
    cv.status.history = vec![entry(
        "Completed",
        "4.0.1",
        "x",
        "08:00:00",
        Some("08:30:00"),
    )];
    assert!(
        texts(&cv).is_empty(),
        "a version found in history passes validation"
    );
}

#[test]
fn tv13_no_desired_image() {
    let out = run(
        &fixture("tv13-no-desired-image.yaml"),
        &RunOptions::default(),
    );
    assert!(
        out.expect_mismatches.is_empty(),
        "{:?}",
        out.expect_mismatches
    );
    let json = mglint::reconciler::render_json(&out.cluster_version).unwrap();
    assert!(
        json.contains("\"history\": []"),
        "history is an empty list, not null:\n{json}"
    );
}

#[test]
fn tv13_sync_failing_status() {
    let sem = Semantics::fixed();
    let op = Release {
        url: "https://example.com/v4.0.1".into(),
        ..rel("4.0.1", "image/image:v4.0.1")
    };
    let mut s = ClusterVersionStatus {
        history: vec![HistoryEntry {
            state: String::new(),
            ..entry("", "4.0.1", "image/image:v4.0.1", "08:00:00", None)
        }],
        desired: op.clone(),
        conditions: vec![
            cond("Available", "False", "", ""),
            cond(
                "Failing",
                "True",
                "UpdatePayloadIntegrity",
                "unable to apply object",
            ),
            cond("Progressing", "True", "", "Working towards 4.0.1"),
            cond("RetrievedUpdates", "False", "", ""),
            cond(
                "ImplicitlyEnabledCapabilities",
                "False",
                "AsExpected",
                "Capabilities match configured spec",
            ),
        ],
        ..Default::default()
    };
    sync_failing_status(&mut s, &sem, &op, "bad", t("09:00:00"));
    assert_eq!(
        s.history,
        vec![entry(
            "Partial",
            "4.0.1",
            "image/image:v4.0.1",
            "08:00:00",
            None
        )]
    );
    assert_cond(&s, "Available", "False", "", "");
    assert_cond(&s, "Failing", "True", "", "bad");
    assert_cond(
        &s,
        "Progressing",
        "True",
        "",
        "Error ensuring the cluster version is up to date: bad",
    );
    assert_cond(&s, "RetrievedUpdates", "False", "", "");
    assert_cond(
        &s,
        "ImplicitlyEnabledCapabilities",
        "False",
        "AsExpected",
        "Capabilities match configured spec",
    );
}

fn ws(failure: Option<&str>, image: &str, done: u32, total: u32, completed: u32) -> WorkerStatus {
    WorkerStatus {
        failure: failure.map(|f| Failure::Generic(f.into())),
        actual: rel("", image),
        done,
        total,
        completed,
        ..Default::default()
    }
}

#[rustfmt::skip]
#[test]
fn tv15_status_wrapper_report_filter() {
    let now = t("10:00:00");
    // previous -> next : forwarded?, LastProgress bumped?
    let cases = [
        (ws(Some("a"), "testing", 10, 100, 0), ws(None, "testing", 0, 0, 0), false, false),
        (ws(Some("a"), "testing", 10, 100, 0), ws(None, "testing2", 0, 0, 0), true, true),
        (ws(Some("a"), "testing", 0, 0, 0), ws(None, "testing", 0, 0, 0), true, false),
        (ws(Some("a"), "testing", 10, 100, 0), ws(Some("a"), "testing", 0, 0, 0), true, false),
        (ws(Some("a"), "testing", 10, 100, 0), ws(Some("b"), "testing", 10, 100, 0), true, false),
        (ws(Some("a"), "testing", 10, 100, 0), ws(Some("b"), "testing", 20, 100, 0), true, true),
        (ws(None, "testing", 0, 0, 1), ws(None, "testing", 0, 0, 2), true, true),
        (ws(None, "testing-1", 0, 0, 1), ws(None, "testing-2", 0, 0, 1), true, true),
        (ws(None, "testing", 0, 0, 0), ws(None, "testing", 0, 0, 0), true, false),
        (WorkerStatus::default(), ws(None, "testing", 0, 0, 0), true, true),
    ];
    for (i, (prev, mut next, forwarded, progress)) in cases.into_iter().enumerate() {
        let d = filter_report(&ReportBase::of(&prev), &mut next, now);
        assert_eq!((d.forwarded, d.progress), (forwarded, progress), "case {i}");
        if forwarded {
            assert_eq!(next.last_progress.is_some(), progress, "case {i}: LastProgress");
        }
    }
    for (prev, next, result) in [(1, 0, 1), (1, 2, 2), (5, 2, 2)] {
        let p = WorkerStatus { generation: prev, ..Default::default() };
        let mut n = WorkerStatus { generation: next, ..Default::default() };
        filter_report(&ReportBase::of(&p), &mut n, now);
        assert_eq!(n.generation, result);
    }
}

fn co(name: &str, reason: &str, effect: Effect) -> UpdateError {
    let message = operator_message(reason, name, &Semantics::fixed()).unwrap();
    UpdateError {
        reason: reason.into(),
        effect,
        name: name.into(),
        message,
        ..Default::default()
    }
}

#[test]
fn tv15_condense_cluster_operators() {
    let out = condense_cluster_operators(vec![
        co("test-co-B", "ClusterOperatorUpdating", Effect::None),
        co("test-co-A", "ClusterOperatorUpdating", Effect::None),
    ]);
    assert_eq!(out.len(), 1);
    assert_eq!(
        (
            out[0].reason.as_str(),
            out[0].effect,
            out[0].name.as_str(),
            out[0].message.as_str()
        ),
        (
            "ClusterOperatorsUpdating",
            Effect::None,
            "test-co-A, test-co-B",
            "Cluster operators test-co-A, test-co-B are updating versions"
        )
    );
    assert_eq!(out[0].names, ["test-co-A", "test-co-B"]);

    let not_found = ue(
        Effect::Unset,
        "UpdatePayloadResourceNotFound",
        "resource may have been deleted",
        "",
    );
    let out = condense_cluster_operators(vec![
        co("test-co-B", "ClusterOperatorUpdating", Effect::None),
        co("test-co-A", "ClusterOperatorNotAvailable", Effect::Fail),
        not_found.clone(),
    ]);
    let reasons: Vec<&str> = out.iter().map(|e| e.reason.as_str()).collect();
    assert_eq!(
        reasons,
        [
            "UpdatePayloadResourceNotFound",
            "ClusterOperatorNotAvailable",
            "ClusterOperatorUpdating"
        ]
    );

    let out = condense_cluster_operators(vec![
        co("test-co-B", "ClusterOperatorDegraded", Effect::Fail),
        co("test-co-A", "ClusterOperatorDegraded", Effect::None),
        co(
            "test-co-C",
            "ClusterOperatorDegraded",
            Effect::FailAfterInterval,
        ),
    ]);
    assert_eq!(
        (out[0].effect, out[0].name.as_str()),
        (Effect::Fail, "test-co-A, test-co-B, test-co-C")
    );
    assert_eq!(
        out[0].message,
        "Cluster operators test-co-A, test-co-B, test-co-C are degraded"
    );

    let out = condense_cluster_operators(vec![
        co("test-co-A", "ClusterOperatorDegraded", Effect::None),
        co(
            "test-co-C",
            "ClusterOperatorDegraded",
            Effect::FailAfterInterval,
        ),
    ]);
    assert_eq!(
        (out[0].effect, out[0].name.as_str()),
        (Effect::FailAfterInterval, "test-co-A, test-co-C")
    );

    let c = co(
        "test-co-C",
        "ClusterOperatorDegraded",
        Effect::FailAfterInterval,
    );
    let out = condense_cluster_operators(vec![
        co("test-co-B", "ClusterOperatorUpdating", Effect::None),
        co("test-co-A", "ClusterOperatorUpdating", Effect::None),
        c.clone(),
    ]);
    assert_eq!(
        out[0], c,
        "a single degraded operator stays singular and unchanged"
    );
    assert_eq!(
        (out[1].reason.as_str(), out[1].name.as_str()),
        ("ClusterOperatorsUpdating", "test-co-A, test-co-B")
    );
}
