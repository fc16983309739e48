//! The seed bugs run through the reference reconciler: Bug 1756461 under both settings of the
//! history fix, the first seed's blocked 4.3.10 -> 4.3.11 and return under both flavours, the
//! second seed's CI rollback, and a fixed-flavour run checked against a real ClusterVersion.

use crate::reconciler_support;

use mglint::model::{ClusterVersion, fmt_k8s};
use mglint::reconciler::{Flavour, RunOptions, render_mismatches, run};
use reconciler_support::*;
use std::path::PathBuf;

#[test]
fn seed_1756461_fix_off_gives_the_reported_bad_rows() {
    let out = run(
        &fixture("seed-1756461-4.1.18-4.1.20-4.1.18.yaml"),
        &RunOptions::default(),
    );
    assert!(
        out.expect_mismatches.is_empty(),
        "{}",
        render_mismatches(&out.expect_mismatches)
    );
    assert_eq!(
        rows(&out.cluster_version.status.history),
        [
            "2019-10-14T03:43:16Z|2019-10-14T03:43:31Z|Completed|4.1.18",
            "2019-10-14T03:42:31Z|2019-10-14T03:43:16Z|Partial|4.1.20",
            "2019-10-14T02:57:34Z|2019-10-14T03:42:31Z|Completed|4.1.18",
        ]
    );
}

#[test]
fn seed_1756461_fix_on_keeps_the_install_completion_time() {
    let out = run(
        &fixture("seed-1756461-4.1.18-4.1.20-4.1.18.yaml"),
        &opts(None, Some(true)),
    );
    assert!(out.semantics.history_fix);
    let h = rows(&out.cluster_version.status.history);
    assert_eq!(
        h[0],
        "2019-10-14T03:43:16Z|2019-10-14T03:43:31Z|Completed|4.1.18"
    );
    assert_eq!(
        h[1],
        "2019-10-14T03:42:31Z|2019-10-14T03:43:16Z|Partial|4.1.20"
    );
    assert_eq!(
        h[2],
        "2019-10-14T02:57:34Z|2019-10-14T03:13:16Z|Completed|4.1.18"
    );
    assert_eq!(
        out.expect_mismatches.len(),
        1,
        "only the clobbered time differs from the fix-off expectation"
    );
    assert_eq!(
        out.expect_mismatches[0].field,
        "status.history[2].completionTime"
    );
}

#[test]
fn seed_1822752_legacy_is_stuck_on_the_rejected_target() {
    let blocked = run(
        &until(fixture(SEED1), "2020-04-09T18:55:16Z"),
        &RunOptions::default(),
    );
    let cv = &blocked.cluster_version;
    assert_eq!(blocked.semantics.flavour, Flavour::Legacy);
    assert_eq!(
        (
            cv.status.desired.version.as_str(),
            cv.status.desired.image.as_str()
        ),
        ("4.3.11", V4311)
    );
    let h0 = &cv.status.history[0];
    assert_eq!(
        (
            h0.state.as_str(),
            h0.version.as_str(),
            h0.completion_time,
            h0.verified
        ),
        ("Partial", "4.3.11", None, true)
    );
    assert_eq!(h0.started_time, Some(at("2020-04-09T18:27:49Z")));
    assert_eq!(
        outcome_cond(&blocked, "Failing"),
        ("True", "UpgradePreconditionCheckFailed", PRECONDITION)
    );
    assert_eq!(
        outcome_cond(&blocked, "Progressing"),
        (
            "True",
            "UpgradePreconditionCheckFailed",
            "Unable to apply 4.3.11: it may not be safe to apply this update"
        )
    );
    assert_eq!(
        outcome_cond(&blocked, "Available"),
        ("True", "", "Done applying 4.3.10")
    );
    assert_eq!(
        cv.condition("Failing").unwrap().last_transition_time,
        Some(at("2020-04-09T18:28:19Z"))
    );
    assert_eq!(
        cv.condition("Progressing").unwrap().last_transition_time,
        Some(at("2020-04-09T18:27:49Z"))
    );
    assert!(cv.condition("ReleaseAccepted").is_none());
    assert_eq!(cv.status.observed_generation, Some(3));

    let after_change = blocked
        .trace
        .iter()
        .filter(|s| s.at >= at("2020-04-09T18:27:49Z"))
        .collect::<Vec<_>>();
    assert!(
        after_change.len() >= 8,
        "the blocked period has passes in it"
    );
    for s in &after_change {
        assert_eq!(
            s.applied, None,
            "no manifests may be applied while legacy checks fail: {s:?}"
        );
    }
    let retry = blocked
        .trace
        .iter()
        .find(|s| s.at == at("2020-04-09T18:40:26Z"))
        .unwrap();
    assert_eq!(
        (retry.state.map(|s| s.as_str()), retry.attempt),
        (Some("Updating"), Some(4)),
        "as the 4.3 log shows"
    );
    assert!(
        blocked
            .trace
            .iter()
            .filter(|s| s.at < at("2020-04-09T18:27:49Z"))
            .any(|s| s.applied.as_deref() == Some("4.3.10"))
    );
}

#[test]
fn seed_1822752_legacy_return_gives_the_seeds_three_entries() {
    let out = run(&fixture(SEED1), &RunOptions::default());
    assert!(
        out.expect_mismatches.is_empty(),
        "{}",
        render_mismatches(&out.expect_mismatches)
    );
    assert_eq!(
        rows(&out.cluster_version.status.history),
        [
            "2020-04-09T18:55:16Z|2020-04-09T18:55:34Z|Completed|4.3.10",
            "2020-04-09T18:27:49Z|2020-04-09T18:55:16Z|Partial|4.3.11",
            "2020-04-09T17:35:48Z|2020-04-09T18:00:34Z|Completed|4.3.10",
        ]
    );
    assert_eq!(
        out.cluster_version.status.desired.force,
        Some(false),
        "4.3 writes an `Update` with force"
    );
}

#[test]
fn seed_1822752_fixed_keeps_reconciling_the_running_release() {
    let fixed = opts(Some(Flavour::Fixed), None);
    let blocked = run(&until(fixture(SEED1), "2020-04-09T18:55:16Z"), &fixed);
    assert_eq!(blocked.semantics.flavour, Flavour::Fixed);
    assert!(
        !blocked.notes.is_empty(),
        "the 4.3 cvo_version cannot be fixed; a note says what was modelled"
    );
    let cv = &blocked.cluster_version;
    assert_eq!(
        rows(&cv.status.history),
        ["2020-04-09T17:35:48Z|2020-04-09T18:00:34Z|Completed|4.3.10"]
    );
    assert_eq!(cv.status.desired.image, V4310);
    let rejected = format!(
        "Preconditions failed for payload loaded version=\"4.3.11\" image=\"{V4311}\": {PRECONDITION}"
    );
    assert_eq!(
        outcome_cond(&blocked, "ReleaseAccepted"),
        ("False", "PreconditionChecks", rejected.as_str())
    );
    assert_eq!(
        outcome_cond(&blocked, "Progressing"),
        ("False", "", "Cluster version is 4.3.10")
    );
    assert_eq!(outcome_cond(&blocked, "Failing"), ("False", "", ""));
    assert_eq!(
        outcome_cond(&blocked, "Available"),
        ("True", "", "Done applying 4.3.10")
    );
    assert_eq!(
        cv.status.observed_generation,
        Some(3),
        "caught up at the next pass"
    );
    let passes: Vec<_> = blocked
        .trace
        .iter()
        .filter(|s| s.event.starts_with("pass_"))
        .collect();
    assert!(passes.len() >= 12);
    for s in passes {
        assert_eq!(
            s.applied.as_deref(),
            Some("4.3.10"),
            "4.3.10 is reconciled throughout: {s:?}"
        );
    }

    let out = run(&fixture(SEED1), &fixed);
    assert_eq!(
        rows(&out.cluster_version.status.history),
        rows(&cv.status.history),
        "history unchanged by the return"
    );
    let reset = format!("Payload loaded version=\"4.3.10\" image=\"{V4310}\"");
    assert_eq!(
        outcome_cond(&out, "ReleaseAccepted"),
        ("True", "PayloadLoaded", reset.as_str())
    );
    let fields: Vec<&str> = out
        .expect_mismatches
        .iter()
        .map(|m| m.field.as_str())
        .collect();
    assert!(
        fields.contains(&"status.history[1]"),
        "the legacy expectations do not hold for fixed: {fields:?}"
    );
}

#[test]
fn seed_ci_rollback_fix_off_moves_the_install_completion_to_the_update_start() {
    let s = fixture("seed-ci-rollback-4.3.yaml");
    let off = run(&s, &RunOptions::default());
    assert!(
        off.expect_mismatches.is_empty(),
        "{}",
        render_mismatches(&off.expect_mismatches)
    );
    assert_eq!(
        off.cluster_version.status.history[1].completion_time,
        Some(at("2019-09-27T21:45:59Z"))
    );
    let on = run(&s, &opts(None, Some(true)));
    assert_eq!(
        on.cluster_version.status.history[1].completion_time,
        Some(at("2019-09-27T21:41:52Z"))
    );
    assert_eq!(
        on.cluster_version.status.history[0].completion_time,
        Some(at("2019-09-27T22:29:06Z"))
    );
    // The monitor's Failing flaps: True 21:52:06, False 21:52:36, True 22:18:15, False 22:20:08, True 22:24:17.
    let failing: Vec<(String, String)> = off
        .trace
        .iter()
        .flat_map(|s| {
            s.changes
                .iter()
                .filter(|c| c.field == "status.conditions[Failing]")
                .map(|c| (fmt_k8s(&s.at), c.after.clone()))
        })
        .map(|(t, after)| {
            (
                t,
                after
                    .split(['/', ' '])
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect();
    let want = [
        ("2019-09-27T21:25:09Z", "False"),
        ("2019-09-27T21:52:06Z", "True"),
        ("2019-09-27T21:52:36Z", "False"),
        ("2019-09-27T22:18:15Z", "True"),
        ("2019-09-27T22:20:08Z", "False"),
        ("2019-09-27T22:24:17Z", "True"),
        ("2019-09-27T22:24:19Z", "False"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(failing, want);
}

#[test]
fn fixed_4_14_1_scenario_matches_the_real_cluster_version() {
    let out = run(
        &fixture("fixed-4.14.1-degraded-operators-wait-exceeded.yaml"),
        &RunOptions::default(),
    );
    assert!(
        out.expect_mismatches.is_empty(),
        "{}",
        render_mismatches(&out.expect_mismatches)
    );
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/cv_4.14.0-rc3-to-4.14.1_failing-etcd-kas-degraded.yaml");
    let Ok(text) = std::fs::read_to_string(&corpus) else {
        eprintln!(
            "skipping the corpus comparison: {} is absent",
            corpus.display()
        );
        return;
    };
    let real: ClusterVersion = yaml_serde::from_str(&text).unwrap();
    let model = &out.cluster_version;
    assert_eq!(model.status.history, real.status.history);
    assert_eq!(model.status.desired, real.status.desired);
    assert_eq!(
        (model.status.observed_generation, &model.status.version_hash),
        (real.status.observed_generation, &real.status.version_hash)
    );
    assert_eq!(model.metadata.generation, real.metadata.generation);
    for c in &real.status.conditions {
        assert_eq!(model.condition(&c.type_), Some(c), "condition {}", c.type_);
    }
    assert_eq!(model.status.conditions.len(), real.status.conditions.len());
}

#[test]
fn legacy_not_available_counts_as_progress_only_within_ten_minutes() {
    let mut s = fixture("seed-ci-rollback-4.3.yaml");
    // One pass that makes progress until 22:12:00 (no timeout in between) and fails at
    // 22:18:15: the failure is then within 10 minutes of the last progress.
    s.events
        .retain(|e| !matches!(&e.event, mglint::reconciler::Event::PassResult(r) if r.timed_out));
    for e in &mut s.events {
        if e.at == at("2019-09-27T22:05:40Z") {
            e.at = at("2019-09-27T22:12:00Z");
        }
    }
    s.expect = None;
    let out = run(&until(s, "2019-09-27T22:20:08Z"), &RunOptions::default());
    assert_eq!(outcome_cond(&out, "Failing"), ("False", "", ""));
    assert_eq!(
        outcome_cond(&out, "Progressing"),
        (
            "True",
            "ClusterOperatorNotAvailable",
            "Working towards 4.3.0-0.ci-2019-09-27-182824: 88% complete, waiting on machine-config"
        )
    );
}
