//! Scenario runs of the reference reconciler: every fixture's own expectations, scenarios built
//! in Rust (pruning, verification failures, slow operators), and the rendered outputs.

use crate::reconciler_support;

use mglint::model::{ClusterVersion, Release};
use mglint::reconciler::scenario::{
    DesiredUpdate, LoadOutcome, LoadStep, PassProgress, PassResult, PodStart, SpecChange, TaskError,
};
use mglint::reconciler::{
    Event, Flavour, Outcome, PruneVariant, RunOptions, Scenario, TimedEvent, load_scenario,
    render_json, render_mismatches, render_trace, render_yaml, run,
};
use reconciler_support::*;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/scenarios")
}

#[test]
fn every_fixture_scenario_meets_its_expectations() {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "{names:?}");
    for name in names {
        let s = fixture(&name);
        assert!(s.expect.is_some(), "{name} has no expectations");
        assert!(!s.description.is_empty(), "{name} has no description");
        let out = run(&s, &RunOptions::default());
        assert!(
            out.expect_mismatches.is_empty(),
            "{name}:\n{}",
            render_mismatches(&out.expect_mismatches)
        );
        let again = run(
            &load_scenario(&s.to_yaml().unwrap()).unwrap(),
            &RunOptions::default(),
        );
        assert_eq!(again, out, "{name}: a written-back scenario runs the same");
    }
}

#[test]
fn rendered_cluster_version_reads_back_and_is_deterministic() {
    let out = run(&fixture(SEED1), &RunOptions::default());
    let yaml = render_yaml(&out.cluster_version).unwrap();
    assert!(yaml.starts_with("apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\n  generation: 4\n"), "{yaml}");
    let back: ClusterVersion = yaml_serde::from_str(&yaml).unwrap();
    assert_eq!(back, out.cluster_version);
    let json = render_json(&out.cluster_version).unwrap();
    let back: ClusterVersion = serde_json::from_str(&json).unwrap();
    assert_eq!(back, out.cluster_version);
    assert!(json.contains("\"completionTime\": \"2020-04-09T18:55:16Z\""));
    assert_eq!(
        render_yaml(&run(&fixture(SEED1), &RunOptions::default()).cluster_version).unwrap(),
        yaml
    );
}

#[test]
fn trace_and_mismatches_render_readably() {
    let out = run(&fixture(SEED1), &RunOptions::default());
    let text = render_trace(&out.trace);
    assert!(
        text.contains("[11] 2020-04-09T18:27:49Z  spec_change desired_update=4.3.11"),
        "{text}"
    );
    assert!(
        text.contains("    worker: 4.3.11, Updating, attempt 4; applied: none\n"),
        "{text}"
    );
    assert!(
        text.contains("    loading: 4.3.11 (checks failing; the worker applies nothing)\n"),
        "{text}"
    );
    assert!(text.contains("    status.history[0]: (new entry) -> Partial 4.3.11 started 2020-04-09T18:27:49Z completed null\n"));
    assert!(text.contains("    status.history[1].completionTime: null -> 2020-04-09T18:55:16Z\n"));

    let fixed = run(&fixture(SEED1), &opts(Some(Flavour::Fixed), None));
    let diff = render_mismatches(&fixed.expect_mismatches);
    assert!(
        diff.contains("  status.history[0].startedTime\n    expected: 2020-04-09T18:55:16Z\n    actual:   2020-04-09T17:35:48Z\n"),
        "{diff}"
    );
    assert!(diff.contains("  status.conditions[ReleaseAccepted]\n    expected: absent\n    actual:   status True\n"), "{diff}");
    assert_eq!(render_mismatches(&[]), "all expectations met\n");
}

fn image(v: &str) -> String {
    format!("quay.io/openshift-release-dev/ocp-release:{v}-x86_64")
}

fn ev(t: &str, event: Event) -> TimedEvent {
    TimedEvent { at: at(t), event }
}

/// A scenario built in Rust: install 4.1.0, then twelve z-stream updates, each loaded, started
/// and completed, with history capped at 10.
fn many_updates(prune: PruneVariant, versions: &[&str]) -> Scenario {
    let mut events = vec![
        ev(
            "2020-01-01T00:00:00Z",
            Event::PodStart(PodStart {
                version: "4.1.0".into(),
                image: image("4.1.0"),
                ..Default::default()
            }),
        ),
        ev(
            "2020-01-01T00:30:00Z",
            Event::PassResult(PassResult {
                ok: Some(true),
                ..Default::default()
            }),
        ),
    ];
    for (i, v) in versions.iter().enumerate() {
        let h = |m: u32| format!("2020-01-{:02}T{:02}:00:00Z", 2 + i, m);
        let load = LoadOutcome {
            image: image(v),
            version: v.to_string(),
            ..LoadOutcome::loaded()
        };
        let update = DesiredUpdate {
            version: v.to_string(),
            image: image(v),
            force: false,
            accept_risks: Vec::new(),
        };
        events.push(ev(&h(1), Event::LoadOutcome(load)));
        events.push(ev(
            &h(1),
            Event::SpecChange(SpecChange {
                desired_update: Some(Some(update)),
                ..Default::default()
            }),
        ));
        events.push(ev(
            &h(2),
            Event::PassProgress(PassProgress {
                done: 100,
                total: 400,
            }),
        ));
        if !v.ends_with(".9") {
            events.push(ev(
                &h(3),
                Event::PassResult(PassResult {
                    ok: Some(true),
                    ..Default::default()
                }),
            ));
        }
    }
    Scenario {
        description: "built in Rust".into(),
        flavour: Flavour::Legacy,
        cvo_version: Some("4.6".into()),
        prune: Some(prune),
        max_history: Some(10),
        operator_release: Release {
            version: "4.1.0".into(),
            image: image("4.1.0"),
            ..Default::default()
        },
        events,
        ..Default::default()
    }
}

fn history_versions(out: &Outcome) -> Vec<String> {
    out.cluster_version
        .status
        .history
        .iter()
        .map(|e| format!("{}{}", e.version, if e.is_partial() { "P" } else { "" }))
        .collect()
}

#[test]
fn pruning_variants_with_a_history_of_ten() {
    let vs = [
        "4.1.1", "4.1.2", "4.1.3", "4.1.4", "4.1.5", "4.1.6", "4.1.7", "4.1.8", "4.1.9", "4.1.10",
        "4.1.11", "4.1.12",
    ];
    let keep = run(
        &many_updates(PruneVariant::KeepRecentCompleted50, &vs),
        &RunOptions::default(),
    );
    assert_eq!(
        history_versions(&keep),
        [
            "4.1.12", "4.1.11", "4.1.10", "4.1.9P", "4.1.8", "4.1.7", "4.1.6", "4.1.5", "4.1.4",
            "4.1.3"
        ]
    );
    let retain = run(
        &many_updates(PruneVariant::RetainInitial50, &vs),
        &RunOptions::default(),
    );
    assert_eq!(
        history_versions(&retain),
        [
            "4.1.12", "4.1.11", "4.1.10", "4.1.9P", "4.1.8", "4.1.7", "4.1.6", "4.1.5", "4.1.4",
            "4.1.0"
        ]
    );
    let weighted = run(
        &many_updates(PruneVariant::Weighted100, &vs),
        &RunOptions::default(),
    );
    assert_eq!(
        history_versions(&weighted),
        [
            "4.1.12", "4.1.11", "4.1.10", "4.1.9P", "4.1.8", "4.1.7", "4.1.6", "4.1.5", "4.1.4",
            "4.1.0"
        ]
    );
    let pruned: Vec<&String> = weighted
        .trace
        .iter()
        .flat_map(|s| s.notes.iter())
        .filter(|n| n.starts_with("Pruning"))
        .collect();
    assert_eq!(pruned.len(), 3);
    assert_eq!(
        pruned[0],
        "Pruning an older update of less importance version 4.1.1 at index 9 with rank -9.090000."
    );
    assert!(!keep.trace.is_empty() && keep.cluster_version.status.history.len() == 10);
}

fn install_then_update(flavour: Flavour, load: LoadOutcome, errors: Vec<TaskError>) -> Scenario {
    let target = image("4.16.3");
    let mut events = vec![
        ev(
            "2024-07-01T08:00:00Z",
            Event::PodStart(PodStart {
                version: "4.16.2".into(),
                image: image("4.16.2"),
                ..Default::default()
            }),
        ),
        ev(
            "2024-07-01T08:40:00Z",
            Event::PassResult(PassResult {
                ok: Some(true),
                ..Default::default()
            }),
        ),
        ev(
            "2024-07-01T09:00:00Z",
            Event::SpecChange(SpecChange {
                desired_update: Some(Some(DesiredUpdate {
                    version: "4.16.3".into(),
                    image: target,
                    force: false,
                    accept_risks: Vec::new(),
                })),
                ..Default::default()
            }),
        ),
        ev("2024-07-01T09:00:20Z", Event::LoadOutcome(load)),
    ];
    if !errors.is_empty() {
        events.push(ev(
            "2024-07-01T09:20:00Z",
            Event::PassResult(PassResult {
                errors,
                ..Default::default()
            }),
        ));
        events.push(ev("2024-07-01T09:51:00Z", Event::Tick));
    }
    Scenario {
        description: "built in Rust".into(),
        flavour,
        operator_release: Release {
            version: "4.16.2".into(),
            image: image("4.16.2"),
            ..Default::default()
        },
        events,
        ..Default::default()
    }
}

#[test]
fn verification_failure_in_both_flavours() {
    let load = LoadOutcome {
        step: LoadStep::RetrievePayload,
        reason: "ImageVerificationFailed".into(),
        message: "The update cannot be verified: unable to verify sha256:… against keyrings: verifier-public-key-redhat".into(),
        ..LoadOutcome::loaded()
    };
    let fixed = run(
        &install_then_update(Flavour::Fixed, load.clone(), vec![]),
        &RunOptions::default(),
    );
    let msg = format!(
        "Retrieving payload failed version=\"4.16.3\" image=\"{}\" failure={}",
        image("4.16.3"),
        load.message
    );
    assert_eq!(
        outcome_cond(&fixed, "ReleaseAccepted"),
        ("False", "RetrievePayload", msg.as_str())
    );
    assert_eq!(
        outcome_cond(&fixed, "Progressing"),
        ("False", "", "Cluster version is 4.16.2")
    );
    assert_eq!(fixed.cluster_version.status.history.len(), 1);

    let legacy = run(
        &install_then_update(Flavour::Legacy, load.clone(), vec![]),
        &RunOptions::default(),
    );
    assert_eq!(
        outcome_cond(&legacy, "Failing"),
        ("True", "ImageVerificationFailed", load.message.as_str())
    );
    assert_eq!(
        outcome_cond(&legacy, "Progressing"),
        (
            "True",
            "ImageVerificationFailed",
            "Unable to apply 4.16.3: the image may not be safe to use"
        )
    );
    let h0 = &legacy.cluster_version.status.history[0];
    assert_eq!(
        (h0.state.as_str(), h0.version.as_str(), h0.verified),
        ("Partial", "4.16.3", false)
    );
}

#[test]
fn slow_operator_turns_failing_unknown_after_thirty_minutes() {
    let errors = vec![TaskError {
        reason: "ClusterOperatorUpdating".into(),
        name: "network".into(),
        ..Default::default()
    }];
    let out = run(
        &install_then_update(Flavour::Fixed, LoadOutcome::loaded(), errors),
        &RunOptions::default(),
    );
    let at_error = out
        .trace
        .iter()
        .find(|s| s.at == at("2024-07-01T09:20:00Z"))
        .unwrap();
    let progressing = at_error
        .changes
        .iter()
        .find(|c| c.field == "status.conditions[Progressing]")
        .unwrap();
    assert_eq!(
        progressing.after,
        "True/ClusterOperatorUpdating \"Working towards 4.16.3: waiting on network\""
    );
    assert!(
        !at_error
            .changes
            .iter()
            .any(|c| c.field == "status.conditions[Failing]"),
        "still progressing at first"
    );
    let slow = "waiting on network over 30 minutes which is longer than expected";
    assert_eq!(
        outcome_cond(&out, "Failing"),
        ("Unknown", "SlowClusterOperator", slow)
    );
    let want = format!("Working towards 4.16.3: {slow}");
    assert_eq!(
        outcome_cond(&out, "Progressing"),
        ("True", "ClusterOperatorUpdating", want.as_str())
    );
    assert_eq!(
        out.cluster_version
            .condition("Failing")
            .unwrap()
            .last_transition_time,
        Some(at("2024-07-01T09:51:00Z"))
    );
}
