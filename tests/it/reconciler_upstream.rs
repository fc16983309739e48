//! Conformance vectors ported from the CVO's own unit tests (`pkg/cvo/status_test.go`,
//! `cvo_test.go`, `cvo_scenarios_test.go`, `sync_worker_test.go` on release-4.3, 4.10, 4.13,
//! 4.16 and main, `lib/validation/validation_test.go`, the precondition, available-updates and
//! status tables on release-4.22, `pkg/risk` on main) and a few derived from the code they test: every scenario in
//! `fixtures/scenarios/upstream/` names its source and must meet its upstream expectation. The
//! table test reports every failing vector by name.

use mglint::reconciler::{Event, RunOptions, Scenario, load_scenario, render_mismatches, run};
use std::collections::BTreeSet;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/scenarios/upstream")
}

/// Every vector, by file name.
fn vectors() -> Vec<(String, Scenario)> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("fixtures/scenarios/upstream exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(dir().join(&n)).expect("readable vector");
            let s = load_scenario(&text).unwrap_or_else(|e| panic!("{n}: {e}"));
            (n, s)
        })
        .collect()
}

const BRANCHES: [(&str, &str); 12] = [
    ("release-4.2", "38f67ee876e24828dba0d926515aedc966f95cc6"),
    ("release-4.3", "b033473ff86183a5389b720ada21b6cb955e9405"),
    ("release-4.4", "9515b232c706cdd2a842a381bba5cbd6497aaf9c"),
    ("release-4.5", "7f24cf21a88839664470ec4fbf6409151348fd62"),
    ("release-4.6", "cdeec80996d740e0613d426f9607cbea2fca9f53"),
    ("release-4.10", "33e65325a5780906244c2b36031e6e14d812d8b2"),
    ("release-4.11", "8966b291a649d3a262d1b714aef02c6d9d3ff402"),
    ("release-4.12", "da2578c6dd81e83d331daacb357c4f1cc60bf234"),
    ("release-4.13", "8b3acaebb7de946e86d20bfdf637e7caaaeb1fb3"),
    ("release-4.14", "a1bf930103a77b25e99130644504c3fecdcc4c67"),
    ("release-4.16", "be820285dcf7b0ca4a712192ccb47fd0c843ea02"),
    ("release-4.22", "9b55234a27cfd62921270073f2464ec294132b2d"),
];
const MAIN: &str = "6e719331fb5863141397f35b1f47bed42148a6dd";

#[test]
fn every_upstream_vector_meets_its_upstream_expectation() {
    let all = vectors();
    assert!(all.len() >= 40, "only {} vectors", all.len());
    let mut failures = Vec::new();
    for (name, s) in &all {
        let out = run(s, &RunOptions::default());
        if !out.expect_mismatches.is_empty() {
            failures.push(format!(
                "{name}:\n{}",
                render_mismatches(&out.expect_mismatches)
            ));
        }
        let again = run(
            &load_scenario(&s.to_yaml().expect("writable")).expect("readable"),
            &RunOptions::default(),
        );
        if again != out {
            failures.push(format!("{name}: a written-back scenario runs differently"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} vectors fail:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

#[test]
fn every_vector_names_its_source_test_branch_and_commit() {
    for (name, s) in vectors() {
        let src = s
            .source
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: no `source`"));
        assert!(!s.description.is_empty(), "{name}: no description");
        assert!(s.expect.is_some(), "{name}: no expectations");
        assert!(!src.test.is_empty() && !src.file.is_empty(), "{name}");
        assert!(
            src.commit.len() == 40 && src.commit.bytes().all(|b| b.is_ascii_hexdigit()),
            "{name}: commit `{}`",
            src.commit
        );
        let known = BRANCHES
            .iter()
            .find(|(b, _)| *b == src.branch)
            .map(|(_, c)| *c)
            .or((src.branch == "main").then_some(MAIN));
        match known {
            Some(c) => assert_eq!(src.commit, c, "{name}: commit of {}", src.branch),
            None => panic!("{name}: unexpected branch `{}`", src.branch),
        }
        assert!(
            ["real", "fake", "derived"].contains(&src.worker.as_str()),
            "{name}: worker `{}`",
            src.worker
        );
        let fake = s
            .events
            .iter()
            .any(|e| matches!(e.event, Event::WorkerStatus(_)));
        assert_eq!(
            fake,
            src.worker == "fake",
            "{name}: `worker_status` iff fake"
        );
        if src.worker != "derived" {
            assert!(src.file.ends_with("_test.go"), "{name}: a test file");
        }
        if src.worker == "fake" {
            assert!(!src.note.is_empty() || !src.subtest.is_empty(), "{name}");
        }
    }
}

#[test]
fn vectors_cover_the_branches_and_test_files_of_the_issue() {
    let all = vectors();
    let branches: BTreeSet<&str> = all
        .iter()
        .filter_map(|(_, s)| s.source.as_ref())
        .map(|s| s.branch.as_str())
        .collect();
    for b in [
        "release-4.3",
        "release-4.10",
        "release-4.13",
        "release-4.16",
        "main",
    ] {
        assert!(branches.contains(b), "no vector from {b}");
    }
    let files: BTreeSet<&str> = all
        .iter()
        .filter_map(|(_, s)| s.source.as_ref())
        .map(|s| s.file.rsplit('/').next().unwrap_or_default())
        .collect();
    for f in [
        "status_test.go",
        "cvo_test.go",
        "cvo_scenarios_test.go",
        "sync_worker_test.go",
    ] {
        assert!(files.contains(f), "no vector from {f}");
    }
    let from_tests = all
        .iter()
        .filter(|(_, s)| s.source.as_ref().is_some_and(|s| s.worker != "derived"))
        .count();
    assert!(
        from_tests >= 40,
        "only {from_tests} vectors from upstream tests"
    );
}

/// The vectors that prove each gap of the issue closed.
const GAPS: [(&str, &[&str]); 7] = [
    (
        "1: restart with a pending target before 4.14",
        &[
            "r413-upgrade-unverified-payload-step1.yaml",
            "r410-upgrade-unverified-payload-step1.yaml",
            "r413-reset-payload-load-status-step1.yaml",
        ],
    ),
    (
        "2: first sync after a restart, 4.14+",
        &[
            "r416-upgrade-payload-still-initializing.yaml",
            "main-upgrade-payload-still-initializing.yaml",
            "r416-upgrade-payload-still-initializing-requeued.yaml",
        ],
    ),
    (
        "3: version gates before 4.6 and 4.12",
        &[
            "r43-operator-sync-report-partial-retrieved-version.yaml",
            "r43-operator-sync-report-partial-retrieved-version-real.yaml",
            "r410-operator-sync-report-partial-retrieved-version.yaml",
            "r43-upgrade-precondition-failing.yaml",
            "r43-startup-no-desired-image.yaml",
            "r42-precondition-summary-unknown.yaml",
            "r43-workload-summary-unknown.yaml",
            "r44-workload-summary-named.yaml",
            "r44-workload-summary-nameless.yaml",
            "r44-workload-not-available-nameless.yaml",
            "r411-no-versions-reason-unknown.yaml",
            "r412-no-versions-summary-named.yaml",
            "r412-no-versions-summary-nameless.yaml",
        ],
    ),
    (
        "4: force toggle and same-image request keep the load status",
        &[
            "r416-force-toggle-keeps-architecture.yaml",
            "r416-reset-payload-load-status-step2.yaml",
        ],
    ),
    (
        "5: report-only error pass",
        &[
            "r416-report-only-errors-keep-partial.yaml",
            "r416-report-only-errors-then-clean-pass.yaml",
        ],
    ),
    (
        "6: strictly more than 10/20/40 minutes and one hour",
        &[
            "r43-progress-window-exactly-10-minutes.yaml",
            "r45-progress-window-exactly-20-minutes.yaml",
            "r46-progress-window-exactly-40-minutes.yaml",
            "r43-progress-window-10-minutes-and-a-second.yaml",
            "r43-exactly-one-hour-into-the-update.yaml",
        ],
    ),
    (
        "7: format additions",
        &[
            "r43-operator-sync-error-during-image-sync.yaml",
            "r43-operator-sync-invalid-image-reports-image-error.yaml",
            "r43-operator-sync-reconciling-multiple-completions.yaml",
            "r43-operator-sync-reconciling-multiple-completions-real.yaml",
            "r413-init-implicitly-enabled-caps.yaml",
            "r416-upgrade-failed-payload-load-with-caps-changes.yaml",
            "r416-reconciliation-issues-happy.yaml",
            "r416-reconciliation-issues-unhappy.yaml",
            "r416-unknown-version-keeps-reconciliation-issues.yaml",
            "r43-desired-force-forced-update.yaml",
        ],
    ),
];

/// Reference reconciler round three, items 9 and 10: Upgradeable and the preconditions
/// computed from what the CVO reads (a `cluster:` block), each test file of the CVO that pins
/// them.
const COMPUTED: [(&str, &[&str]); 5] = [
    (
        "9: Upgradeable from overrides, ClusterOperators and admin gates (cvo_test.go TestOperator_upgradeableSync)",
        &[
            "r413-upgradeable-sync-operators-and-overrides.yaml",
            "r413-upgradeable-sync-admin-ack-two-of-three.yaml",
            "r413-upgradeable-sync-admin-ack-and-gate-without-value.yaml",
            "r413-upgradeable-sync-admin-gates-not-found.yaml",
            "r43-upgradeable-sync-operators-and-overrides.yaml",
        ],
    ),
    (
        "10: ClusterVersionUpgradeable passes a z-stream (upgradeable_test.go TestUpgradeableRun)",
        &[
            "r413-precondition-upgradeable-move-z-false.yaml",
            "r413-precondition-upgradeable-move-y-false.yaml",
            "r413-upgradeable-false-z-stream-accepted.yaml",
            "r413-upgradeable-false-y-stream-rejected.yaml",
        ],
    ),
    (
        "10: RecommendedUpdate from conditionalUpdates (recommendedupdate_test.go TestRecommendedUpdate)",
        &[
            "r413-precondition-recommended-update-false.yaml",
            "r413-precondition-recommended-update-unknown.yaml",
            "r413-precondition-recommended-update-retrieved-true.yaml",
        ],
    ),
    (
        "10: EtcdRecentBackup (etcdbackup.go, derived)",
        &[
            "r413-precondition-etcd-backup-no-etcd-operator.yaml",
            "r413-precondition-etcd-backup-in-progress.yaml",
            "r413-precondition-etcd-backup-z-stream.yaml",
        ],
    ),
    (
        "10: Rollback (rollback.go, derived)",
        &[
            "r416-precondition-rollback-not-previous.yaml",
            "r416-precondition-rollback-across-minor.yaml",
        ],
    ),
];

/// Runs every named vector of each item and names the first that is missing, fails `check`
/// or misses its expectation.
fn assert_items_pass(items: &[(&str, &[&str])], check: impl Fn(&Scenario) -> Result<(), String>) {
    let all = vectors();
    for (item, names) in items {
        for n in *names {
            let Some((_, s)) = all.iter().find(|(name, _)| name == n) else {
                panic!("{item}: vector {n} is missing");
            };
            if let Err(e) = check(s) {
                panic!("{item}: {n}: {e}");
            }
            let out = run(s, &RunOptions::default());
            assert!(
                out.expect_mismatches.is_empty(),
                "{item}: {n}\n{}",
                render_mismatches(&out.expect_mismatches)
            );
        }
    }
}

#[test]
fn computed_upgradeable_and_preconditions_have_exact_vectors() {
    assert_items_pass(&COMPUTED, |s| match s.cluster {
        Some(_) => Ok(()),
        None => Err("computes nothing (no `cluster:` block)".into()),
    });
}

#[test]
fn a_computed_vector_fails_when_its_input_changes() {
    // The y-stream vector, with the operator upgradeable again: the update is accepted, so
    // the vector's expectation (rejected at PreconditionChecks) no longer holds.
    let all = vectors();
    let (_, s) = all
        .iter()
        .find(|(n, _)| n == "r413-upgradeable-false-y-stream-rejected.yaml")
        .expect("vector");
    let mut s = s.clone();
    let cluster = s.cluster.as_mut().expect("cluster block");
    cluster.cluster_operators[0].conditions[0].status = "True".into();
    let out = run(&s, &RunOptions::default());
    let fields: Vec<&str> = out
        .expect_mismatches
        .iter()
        .map(|m| m.field.as_str())
        .collect();
    assert!(
        fields.contains(&"preconditions[ClusterVersionUpgradeable]")
            && fields.contains(&"status.conditions[Upgradeable]"),
        "{fields:?}"
    );
}

#[test]
fn every_gap_of_the_issue_has_passing_vectors() {
    assert_items_pass(&GAPS, |_| Ok(()));
}

/// Issue #56 items 3 and 4: every upstream table after 4.21 that the vectors port, by family,
/// and the CVO version each behaviour needs: run as the version before it, a family's vectors
/// fail (so they pin the new behaviour, not one the older model already had). `None`: a table
/// whose behaviour is older and which the scenario format could not state before.
const AFTER_421: [(&str, usize, Option<&str>); 15] = [
    ("r422-precondition-upgradeable-", 22, Some("4.21")),
    ("r422-precondition-giant-hop-", 6, Some("4.21")),
    ("r422-evaluate-conditional-update-", 8, Some("4.21")),
    ("r422-evaluate-conditional-updates-", 1, Some("4.21")),
    ("r422-risk-names-", 5, Some("4.21")),
    ("r422-conditional-update-risks-", 1, Some("4.21")),
    ("r422-upgradeable-sync-", 19, Some("4.21")),
    ("r422-validate-", 4, Some("4.21")),
    ("main-risk-admin-ack-", 11, Some("4.22")),
    ("main-risk-cluster-operator-upgradeable", 1, Some("4.22")),
    ("main-risk-overrides-", 2, Some("4.22")),
    ("main-risk-updating-", 2, Some("4.22")),
    ("main-operator-sync-new-available-updates", 3, None),
    ("main-available-updates-sync-", 2, None),
    ("r422-alert-risk-", 2, Some("4.21")),
];

#[test]
fn upstream_tables_after_4_21_are_ported_and_need_their_cvo_version() {
    let all = vectors();
    for (prefix, count, older) in AFTER_421 {
        let family: Vec<&(String, Scenario)> =
            all.iter().filter(|(n, _)| n.starts_with(prefix)).collect();
        assert_eq!(family.len(), count, "{prefix}*");
        let mut failing_as_older = 0;
        for (name, s) in &family {
            let out = run(s, &RunOptions::default());
            assert!(
                out.expect_mismatches.is_empty(),
                "{name}:\n{}",
                render_mismatches(&out.expect_mismatches)
            );
            let Some(older) = older else { continue };
            let mut old = s.clone();
            old.cvo_version = Some(older.into());
            if !run(&old, &RunOptions::default())
                .expect_mismatches
                .is_empty()
            {
                failing_as_older += 1;
            }
        }
        // Cases whose answer did not change (an update that passes on every version) pass as
        // the older CVO too; each family has some that do not.
        if let Some(older) = older {
            assert!(
                failing_as_older > 0,
                "{prefix}*: every vector passes as CVO {older}"
            );
        }
    }
}
