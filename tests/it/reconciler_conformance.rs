//! Conformance of the reference reconciler with the vectors of cvo-reference §10 (TV-01 … TV-15;
//! TV-04 and TV-14 are not in the spec, TV-08 is represented by its pruning inputs; TV-09 to
//! TV-15 are in reconciler_conformance_status.rs). Symbolic times (`T*` existing, `N*` now)
//! are concrete instants here; the values asserted are the vectors' own.

use crate::reconciler_support;

use mglint::model::{ClusterVersionStatus, HistoryEntry, Time};
use mglint::reconciler::model::history::{
    MergeInput, merge_equal_versions, merge_operator_history, prune,
};
use mglint::reconciler::model::input::{LoadStatus, WorkerStatus};
use mglint::reconciler::{PruneVariant, RunOptions, Semantics, run};
use reconciler_support::*;

#[test]
fn tv01_merge_equal_versions() {
    let cases = [
        (
            ("test:1", "0.0.1"),
            ("test:1", "0.0.1"),
            true,
            ("test:1", "0.0.1"),
        ),
        (
            ("test:1", ""),
            ("test:1", "0.0.1"),
            true,
            ("test:1", "0.0.1"),
        ),
        (
            ("test:1", "0.0.1"),
            ("test:1", ""),
            true,
            ("test:1", "0.0.1"),
        ),
        (
            ("test:1", "0.0.1"),
            ("", "0.0.1"),
            false,
            ("test:1", "0.0.1"),
        ),
        (
            ("test:1", "0.0.1"),
            ("test:2", "0.0.1"),
            false,
            ("test:1", "0.0.1"),
        ),
        (
            ("test:1", "0.0.1"),
            ("test:1", "0.0.2"),
            false,
            ("test:1", "0.0.1"),
        ),
        (
            ("", "0.0.1"),
            ("test:9", "0.0.1"),
            true,
            ("test:9", "0.0.1"),
        ),
    ];
    for ((ci, cv), (di, dv), same, (ai, av)) in cases {
        let mut current = HistoryEntry {
            image: ci.into(),
            version: cv.into(),
            ..Default::default()
        };
        assert_eq!(
            merge_equal_versions(&mut current, &rel(dv, di)),
            same,
            "{ci}/{cv} vs {di}/{dv}"
        );
        assert_eq!((current.image.as_str(), current.version.as_str()), (ai, av));
    }
}

fn tv02_worker(completed: u32, done: u32, total: u32, reconciling: bool) -> WorkerStatus {
    let mut actual = rel("1.0.0-abc", "image/image:1");
    if completed > 0 {
        actual.url = "https://example.com/v1.0.0-abc".into();
        actual.channels = vec!["channel-a".into(), "channel-b".into(), "channel-c".into()];
    }
    let message =
        r#"Payload loaded version="1.0.0-abc" image="image/image:1" architecture="amd64""#;
    WorkerStatus {
        generation: 1,
        actual,
        reconciling,
        completed,
        done,
        total,
        version_hash: if completed > 0 {
            "DL-FFQ2Uem8=".into()
        } else {
            String::new()
        },
        load: LoadStatus {
            step: Some(mglint::model::LoadStep::PayloadLoaded),
            message: message.into(),
            ..Default::default()
        },
        ..Default::default()
    }
}

#[test]
fn tv02_install_complete_then_steady_reconcile() {
    let sem = Semantics::fixed();
    let op = rel("1.0.0-abc", "image/image:1");
    let mut s = ClusterVersionStatus {
        conditions: vec![
            cond(
                "ImplicitlyEnabledCapabilities",
                "False",
                "AsExpected",
                "Capabilities match configured spec",
            ),
            cond("Available", "False", "", ""),
            cond(
                "Failing",
                "True",
                "NoDesiredImage",
                "No configured operator version, unable to update cluster",
            ),
            cond(
                "Progressing",
                "True",
                "NoDesiredImage",
                "Unable to apply <unknown>: an unknown error has occurred: NoDesiredImage",
            ),
            cond("RetrievedUpdates", "False", "", ""),
        ],
        ..Default::default()
    };
    sync(
        &mut s,
        &sem,
        &op,
        &tv02_worker(0, 0, 0, false),
        t("10:01:00"),
    );
    assert_eq!(s.observed_generation, Some(1));
    assert_eq!(s.desired, rel("1.0.0-abc", "image/image:1"));
    assert_eq!(
        s.history,
        vec![entry(
            "Partial",
            "1.0.0-abc",
            "image/image:1",
            "10:01:00",
            None
        )]
    );
    assert_cond(
        &s,
        "ImplicitlyEnabledCapabilities",
        "False",
        "AsExpected",
        "Capabilities match configured spec",
    );
    assert_cond(&s, "Available", "False", "", "");
    assert_cond(&s, "Failing", "False", "", "");
    assert_cond(&s, "Progressing", "True", "", "Working towards 1.0.0-abc");
    assert_cond(&s, "RetrievedUpdates", "False", "", "");
    let loaded = r#"Payload loaded version="1.0.0-abc" image="image/image:1" architecture="amd64""#;
    assert_cond(&s, "ReleaseAccepted", "True", "PayloadLoaded", loaded);

    sync(
        &mut s,
        &sem,
        &op,
        &tv02_worker(1, 3, 3, true),
        t("10:02:00"),
    );
    assert_eq!(s.desired.url, "https://example.com/v1.0.0-abc");
    assert_eq!(s.desired.channels, ["channel-a", "channel-b", "channel-c"]);
    assert_eq!(s.version_hash, "DL-FFQ2Uem8=");
    assert_eq!(
        s.history,
        vec![entry(
            "Completed",
            "1.0.0-abc",
            "image/image:1",
            "10:01:00",
            Some("10:02:00")
        )]
    );
    assert_cond(&s, "Available", "True", "", "Done applying 1.0.0-abc");
    assert_cond(
        &s,
        "Progressing",
        "False",
        "",
        "Cluster version is 1.0.0-abc",
    );

    let before = s.clone();
    sync(
        &mut s,
        &sem,
        &op,
        &tv02_worker(2, 3, 3, true),
        t("10:05:00"),
    );
    assert_eq!(
        s, before,
        "a further completed pass must not change the status (no API write)"
    );
}

#[test]
fn tv02_as_a_scenario_starts_from_no_desired_image() {
    let s = fixture("tv02-install-complete-reconcile.yaml");
    let first = run(
        &until(s.clone(), "2021-06-01T10:01:00Z"),
        &RunOptions::default(),
    );
    let st = &first.cluster_version.status;
    assert_cond(
        st,
        "Failing",
        "True",
        "NoDesiredImage",
        "No configured operator version, unable to update cluster",
    );
    let out = run(&s, &RunOptions::default());
    assert!(
        out.expect_mismatches.is_empty(),
        "{:?}",
        out.expect_mismatches
    );
    assert!(
        out.trace[3].changes.is_empty(),
        "the reconcile pass at N3 changes nothing: {:?}",
        out.trace[3].changes
    );
}

fn tv03_run(sem: &Semantics) -> Vec<HistoryEntry> {
    let a = rel("4.1.18", "img@a");
    let b = rel("4.1.20", "img@b");
    let steps = [
        ("02:57:34", &a, false, false),
        ("03:13:16", &a, true, false),
        ("03:20:00", &a, true, false),
        ("03:42:31", &b, false, true),
        ("03:43:16", &a, false, false),
        ("03:43:31", &a, true, false),
    ];
    let mut s = ClusterVersionStatus::default();
    for (now, desired, completed, verified) in steps {
        let input = MergeInput {
            verified,
            now: t(now),
            completed,
            accepted_risks: None,
            local: false,
        };
        merge_operator_history(&mut s, desired, input, sem);
    }
    s.history
}

fn rows(h: &[HistoryEntry]) -> Vec<(String, String, String, String, bool)> {
    let f = |x: Option<Time>| {
        x.map(|x| x.format("%H:%M:%S").to_string())
            .unwrap_or_default()
    };
    h.iter()
        .map(|e| {
            (
                e.state.clone(),
                e.version.clone(),
                f(e.started_time),
                f(e.completion_time),
                e.verified,
            )
        })
        .collect()
}

fn row(
    state: &str,
    v: &str,
    start: &str,
    end: &str,
    verified: bool,
) -> (String, String, String, String, bool) {
    (state.into(), v.into(), start.into(), end.into(), verified)
}

#[test]
fn tv03_merge_history_with_and_without_the_1756461_fix() {
    let fixed = tv03_run(&Semantics::legacy());
    assert_eq!(
        rows(&fixed),
        [
            row("Completed", "4.1.18", "03:43:16", "03:43:31", false),
            row("Partial", "4.1.20", "03:42:31", "03:43:16", true),
            row("Completed", "4.1.18", "02:57:34", "03:13:16", false),
        ]
    );
    let legacy = tv03_run(&Semantics {
        history_fix: false,
        ..Semantics::legacy()
    });
    assert_eq!(
        rows(&legacy),
        [
            row("Completed", "4.1.18", "03:43:16", "03:43:31", false),
            row("Partial", "4.1.20", "03:42:31", "03:43:16", true),
            row("Completed", "4.1.18", "02:57:34", "03:42:31", false),
        ]
    );
}

#[test]
fn tv05_cancel_in_flight_update_then_progress() {
    let s = fixture("tv05-cancel-in-flight-update.yaml");
    let step1 = run(
        &until(s.clone(), "2021-06-01T10:25:00Z"),
        &RunOptions::default(),
    );
    let st = &step1.cluster_version.status;
    assert_eq!(st.desired, rel("4.0.1", "image/image:v4.0.1"));
    assert_eq!(
        st.history,
        vec![
            entry("Partial", "4.0.1", "image/image:v4.0.1", "10:20:00", None),
            entry(
                "Partial",
                "4.0.2",
                "image/image:v4.0.2",
                "10:00:00",
                Some("10:20:00")
            ),
            entry(
                "Completed",
                "4.0.1",
                "image/image:v4.0.1",
                "09:00:00",
                Some("09:30:00")
            ),
        ]
    );
    assert_cond(st, "Progressing", "True", "", "Working towards 4.0.1");
    assert_cond(st, "Failing", "False", "", "");
    assert_cond(st, "Available", "False", "", "");
    let out = run(&s, &RunOptions::default());
    assert!(
        out.expect_mismatches.is_empty(),
        "{:?}",
        out.expect_mismatches
    );
    assert_eq!(
        out.cluster_version.status.history, st.history,
        "history unchanged at N2"
    );
}

#[test]
fn tv06_backfill_from_operator_release_message_uses_the_image() {
    let sem = Semantics::fixed();
    let op = rel("4.0.1", "image/image:v4.0.1");
    let mut s = ClusterVersionStatus {
        desired: op.clone(),
        history: vec![
            entry(
                "Partial",
                "4.0.2",
                "image/image:v4.0.2",
                "08:00:00",
                Some("08:10:00"),
            ),
            entry(
                "Completed",
                "4.0.1",
                "image/image:v4.0.1",
                "07:00:00",
                Some("07:30:00"),
            ),
        ],
        ..Default::default()
    };
    let w = WorkerStatus {
        actual: rel("", "image/image:v4.0.1"),
        ..Default::default()
    };
    sync(&mut s, &sem, &op, &w, t("09:00:00"));
    assert_eq!(s.desired, op);
    assert_eq!(
        s.history,
        vec![
            entry("Partial", "4.0.1", "image/image:v4.0.1", "09:00:00", None),
            entry(
                "Partial",
                "4.0.2",
                "image/image:v4.0.2",
                "08:00:00",
                Some("08:10:00")
            ),
            entry(
                "Completed",
                "4.0.1",
                "image/image:v4.0.1",
                "07:00:00",
                Some("07:30:00")
            ),
        ]
    );
    assert_cond(
        &s,
        "ImplicitlyEnabledCapabilities",
        "False",
        "AsExpected",
        "Capabilities match configured spec",
    );
    assert_cond(&s, "Available", "False", "", "");
    assert_cond(&s, "Failing", "False", "", "");
    assert_cond(
        &s,
        "Progressing",
        "True",
        "",
        "Working towards image/image:v4.0.1",
    );
    assert_cond(&s, "RetrievedUpdates", "False", "", "");
}

#[test]
fn tv07_unknown_version_filled_in_by_merging() {
    let sem = Semantics::fixed();
    let op = rel("", "image/image:v4.0.1");
    let mut s = ClusterVersionStatus::default();
    let w1 = WorkerStatus {
        actual: rel("", "image/image:v4.0.1"),
        ..Default::default()
    };
    sync(&mut s, &sem, &op, &w1, t("10:00:00"));
    assert_eq!(s.desired, rel("", "image/image:v4.0.1"));
    assert_eq!(
        s.history,
        vec![entry("Partial", "", "image/image:v4.0.1", "10:00:00", None)]
    );
    assert_cond(
        &s,
        "Progressing",
        "True",
        "",
        "Working towards image/image:v4.0.1",
    );
    assert_cond(&s, "Available", "False", "", "");
    assert_cond(&s, "Failing", "False", "", "");
    let w2 = WorkerStatus {
        actual: rel("0.0.1-abc", "image/image:v4.0.1"),
        version_hash: "xyz".into(),
        ..Default::default()
    };
    sync(&mut s, &sem, &op, &w2, t("10:01:00"));
    assert_eq!(s.desired, rel("0.0.1-abc", "image/image:v4.0.1"));
    assert_eq!(s.version_hash, "xyz");
    assert_eq!(
        s.history,
        vec![entry(
            "Partial",
            "0.0.1-abc",
            "image/image:v4.0.1",
            "10:00:00",
            None
        )],
        "merged, not pushed"
    );
    assert_cond(&s, "Progressing", "True", "", "Working towards 0.0.1-abc");
}

fn versions(spec: &[(&str, &str)]) -> Vec<HistoryEntry> {
    spec.iter()
        .map(|(s, v)| HistoryEntry {
            state: (*s).into(),
            version: (*v).into(),
            ..Default::default()
        })
        .collect()
}

/// `Test_pruneStatusHistory` of `pkg/cvo/status_test.go` on openshift/cluster-version-operator
/// release-4.5 (keep the most recent Completed entry) and release-4.6 / release-4.7 (the
/// entry at `max` replaces the one before it when it is Completed), each case of each branch
/// through the variant `PruneVariant::for_minor` gives that CVO generation.
#[rustfmt::skip]
#[test]
fn prune_status_history_per_release_branch() {
    let (c, p) = ("Completed", "Partial");
    let input = [(p, "0.0.10"), (p, "0.0.9"), (p, "0.0.8"), (c, "0.0.7"), (p, "0.0.6")];
    let v = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // (max, release-4.5 result, release-4.6/4.7 result), as the upstream tables give them.
    let cases: [(usize, Vec<String>, Vec<String>); 5] = [
        (2, v(&["0.0.10", "0.0.7"]), v(&["0.0.10", "0.0.9"])),
        (3, v(&["0.0.10", "0.0.9", "0.0.7"]), v(&["0.0.10", "0.0.9", "0.0.7"])),
        (4, v(&["0.0.10", "0.0.9", "0.0.8", "0.0.7"]), v(&["0.0.10", "0.0.9", "0.0.8", "0.0.7"])),
        (5, v(&["0.0.10", "0.0.9", "0.0.8", "0.0.7", "0.0.6"]), v(&["0.0.10", "0.0.9", "0.0.8", "0.0.7", "0.0.6"])),
        (6, v(&["0.0.10", "0.0.9", "0.0.8", "0.0.7", "0.0.6"]), v(&["0.0.10", "0.0.9", "0.0.8", "0.0.7", "0.0.6"])),
    ];
    for (minor, pick) in [(5u32, 0usize), (6, 1), (7, 1)] {
        let variant = PruneVariant::for_minor(minor);
        for (max, on45, on46) in &cases {
            let mut h = versions(&input);
            prune(&mut h, variant, *max);
            let got: Vec<String> = h.iter().map(|e| e.version.clone()).collect();
            let want = if pick == 0 { on45 } else { on46 };
            assert_eq!(&got, want, "4.{minor}, max {max}");
        }
    }
}

/// TV-08's inputs (the upstream Test_prune cases, max = 10) and the log lines cvo-reference §4.5
/// derives from them.
#[rustfmt::skip]
#[test]
fn tv08_weighted_pruning_removes_the_lowest_ranked_entry() {
    let (c, p) = ("Completed", "Partial");
    type Case<'a> = (&'a [(&'a str, &'a str)], usize, Option<&'a str>);
    let cases: [Case; 5] = [
        (&[(c, "4.6.3"), (c, "4.5.3"), (c, "4.4.3"), (c, "4.3.3"), (c, "4.3.2"), (c, "4.3.1"), (c, "4.2.1"), (p, "4.1.4"), (p, "4.1.3"), (p, "4.1.2"), (c, "4.1.1")],
         9, None),
        (&[(c, "4.5.3"), (c, "4.4.3"), (c, "4.4.3"), (c, "4.4.2"), (c, "4.1.10"), (c, "4.1.9"), (c, "4.1.4"), (p, "4.1.3"), (c, "4.1.2"), (p, "4.0.1"), (c, "4.0.1")],
         7, Some("Pruning a partial update within a z-stream transition version 4.1.3 at index 7 with rank -27.070000.")),
        (&[(c, "4.11.0"), (c, "4.10.0"), (c, "4.9.0"), (c, "4.8.0"), (c, "4.7.0"), (c, "4.6.0"), (c, "4.5.0"), (c, "4.4.0"), (c, "4.3.0"), (c, "4.2.0"), (c, "4.1.0")],
         9, Some("Pruning the first or last completed minor update version 4.2.0 at index 9 with rank 20.910000.")),
        (&[(c, "4.11.0"), (p, "4.10.0"), (c, "4.9.0"), (c, "4.8.0"), (c, "4.7.0"), (p, "4.6.0"), (c, "4.5.0"), (c, "4.4.0"), (c, "4.3.0"), (c, "4.2.0"), (c, "4.1.0")],
         5, None),
        (&[(c, "4.11.0"), (c, "4.10.0"), (c, "4.9.0"), (c, "4.8.0"), (c, "4.6.1"), (p, "4.6.1"), (c, "4.6.0"), (c, "4.4.0"), (p, "4.3.0"), (c, "4.2.0"), (c, "4.1.0")],
         5, None),
    ];
    for (input, removed, log) in cases {
        let mut h = versions(input);
        let mut want = h.clone();
        want.remove(removed);
        let pruned = prune(&mut h, PruneVariant::Weighted100, 10).unwrap();
        assert_eq!(h, want, "removed index {removed} of {input:?}");
        if let Some(log) = log {
            assert_eq!(pruned.describe(), log);
        }
    }
}
