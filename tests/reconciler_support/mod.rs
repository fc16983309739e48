//! Helpers shared by the reconciler conformance tests: concrete instants for symbolic times,
//! releases, history entries, conditions, one status sync, and fixture scenarios.

#![allow(dead_code)]

use mglint::model::{
    ClusterVersionStatus, Condition, HistoryEntry, Release, Time, fmt_k8s, parse_rfc3339,
};
use mglint::reconciler::model::errors::{Effect, UpdateError};
use mglint::reconciler::model::input::{SyncInput, WorkerStatus};
use mglint::reconciler::model::status::sync_status;
use mglint::reconciler::{Flavour, Outcome, RunOptions, Scenario, Semantics, load_scenario};
use std::collections::BTreeMap;
use std::path::PathBuf;

pub fn t(s: &str) -> Time {
    parse_rfc3339(&format!("2021-06-01T{s}Z")).unwrap()
}

pub fn rel(version: &str, image: &str) -> Release {
    Release {
        version: version.into(),
        image: image.into(),
        ..Default::default()
    }
}

pub fn entry(
    state: &str,
    version: &str,
    image: &str,
    started: &str,
    completed: Option<&str>,
) -> HistoryEntry {
    HistoryEntry {
        state: state.into(),
        version: version.into(),
        image: image.into(),
        started_time: Some(t(started)),
        completion_time: completed.map(t),
        ..Default::default()
    }
}

pub fn cond(type_: &str, status: &str, reason: &str, message: &str) -> Condition {
    Condition {
        type_: type_.into(),
        status: status.into(),
        reason: reason.into(),
        message: message.into(),
        last_transition_time: Some(t("00:00:00")),
    }
}

/// Asserts a condition by type: status, reason and message (empty when not given).
pub fn assert_cond(
    s: &ClusterVersionStatus,
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
) {
    let c = s
        .conditions
        .iter()
        .find(|c| c.type_ == type_)
        .unwrap_or_else(|| panic!("no {type_} condition"));
    assert_eq!(
        (c.status.as_str(), c.reason.as_str(), c.message.as_str()),
        (status, reason, message),
        "{type_}"
    );
}

pub fn sync(
    status: &mut ClusterVersionStatus,
    sem: &Semantics,
    op: &Release,
    w: &WorkerStatus,
    now: Time,
) {
    sync_with(status, sem, op, w, now, &[], &BTreeMap::new());
}

pub fn sync_with(
    status: &mut ClusterVersionStatus,
    sem: &Semantics,
    op: &Release,
    w: &WorkerStatus,
    now: Time,
    errs: &[String],
    co: &BTreeMap<String, Time>,
) {
    let input = SyncInput {
        sem,
        operator_release: op,
        worker: w,
        validation_errors: errs,
        update_service_current: None,
        co_update_started: co,
        now,
        risk_status: None,
        upgradeable_risks: None,
    };
    sync_status(status, &input);
}

pub fn fixture(name: &str) -> Scenario {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/scenarios")
        .join(name);
    load_scenario(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

/// The scenario cut just before the first event at or after `at`.
pub fn until(mut s: Scenario, at: &str) -> Scenario {
    let cut = parse_rfc3339(at).unwrap();
    s.events.retain(|e| e.at < cut);
    s.expect = None;
    s
}

/// An update error with an effect, reason, message and name.
pub fn ue(effect: Effect, reason: &str, message: &str, name: &str) -> UpdateError {
    UpdateError {
        effect,
        reason: reason.into(),
        message: message.into(),
        name: name.into(),
        ..Default::default()
    }
}

/// An RFC3339 instant.
pub fn at(s: &str) -> Time {
    parse_rfc3339(s).unwrap()
}

/// Run options.
pub fn opts(flavour: Option<Flavour>, history_fix: Option<bool>) -> RunOptions {
    RunOptions {
        flavour,
        history_fix,
        no_trace: false,
    }
}

/// A condition of a run's result: status, reason, message.
pub fn outcome_cond<'a>(out: &'a Outcome, type_: &str) -> (&'a str, &'a str, &'a str) {
    let c = out
        .cluster_version
        .condition(type_)
        .unwrap_or_else(|| panic!("no {type_}"));
    (c.status.as_str(), c.reason.as_str(), c.message.as_str())
}

/// History as `started|completed|state|version` rows.
pub fn rows(h: &[HistoryEntry]) -> Vec<String> {
    let f = |t: Option<Time>| t.map(|t| fmt_k8s(&t)).unwrap_or_default();
    h.iter()
        .map(|e| {
            format!(
                "{}|{}|{}|{}",
                f(e.started_time),
                f(e.completion_time),
                e.state,
                e.version
            )
        })
        .collect()
}

pub const SEED1: &str = "seed-1822752-blocked-4.3.11-then-return.yaml";
pub const V4310: &str = "registry.svc.ci.openshift.org/ocp/release@sha256:edb4364367cff4f751ffdc032bc830a469548f998127b523047a8dd518c472cd";
pub const V4311: &str = "quay.io/openshift-release-dev/ocp-release@sha256:ec07f30d2659d3e279b16055331fc9c3c0ba99f313e5026fddb5a7b2d54c6eb6";
pub const PRECONDITION: &str = "Precondition \"ClusterVersionUpgradeable\" failed because of \"DefaultSecurityContextConstraints_Mutated\": Cluster operator kube-apiserver cannot be upgraded: DefaultSecurityContextConstraintsUpgradeable: Default SecurityContextConstraints object(s) have mutated [privileged]";
