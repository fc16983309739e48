//! Expectations a scenario can assert on the resulting ClusterVersion (history, conditions by
//! type, desired, generations) and the readable list of mismatches.

use crate::model::{ClusterVersion, HistoryEntry, Time, fmt_k8s, parse_rfc3339};
use crate::reconciler::model::capabilities::CapabilitiesStatus;
use crate::reconciler::model::preconditions::CheckResult;
use crate::reconciler::worker::state::WorkerState;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::reconciler::model::events::double_option;

/// What to assert. Absent parts are not checked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct Expect {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired: Option<ExpectRelease>,
    /// The whole history, newest first (length is checked; absent fields are not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<Vec<ExpectHistory>>,
    /// Conditions compared by type; `reason` and `message` default to "".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<ExpectCondition>,
    /// Condition types that must be absent.
    #[serde(skip_serializing_if = "Vec::is_empty", alias = "absent_conditions")]
    pub absent_conditions: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none", alias = "observed_generation")]
    pub observed_generation: Option<i64>,
    /// metadata.generation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    /// status.versionHash.
    #[serde(skip_serializing_if = "Option::is_none", alias = "version_hash")]
    pub version_hash: Option<String>,
    /// `status.capabilities` (4.11+; the model keeps it beside the ClusterVersion object).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<ExpectCapabilities>,
    /// The sync worker as the CVO's unit tests inspect it (`worker.work.State`,
    /// `worker.Status()`), not part of the ClusterVersion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worker: Option<ExpectWorker>,
    /// The last computed precondition run (a `cluster:` scenario), by check name: `passed`,
    /// or the failure's `reason`, `message` and `blocking` (absent fields are not checked).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub preconditions: BTreeMap<String, ExpectPrecondition>,
    /// `status.availableUpdates`, the whole list in order; each entry's absent fields are not
    /// checked.
    #[serde(skip_serializing_if = "Option::is_none", alias = "available_updates")]
    pub available_updates: Option<Vec<serde_json::Value>>,
    /// `status.conditionalUpdates`, the whole list in order: `release`, `riskNames`, `risks`
    /// (`name`, `message`, `url`, `matchingRules`, `conditions`) and `conditions`; absent
    /// fields are not checked, lists are compared whole, a condition's
    /// `lastTransitionTime` only when given.
    #[serde(skip_serializing_if = "Option::is_none", alias = "conditional_updates")]
    pub conditional_updates: Option<Vec<serde_json::Value>>,
    /// `status.conditionalUpdateRisks` (4.22+), as `conditionalUpdates[].risks`.
    #[serde(
        skip_serializing_if = "Option::is_none",
        alias = "conditional_update_risks"
    )]
    pub conditional_update_risks: Option<Vec<serde_json::Value>>,
    /// The types of `status.conditions`, exactly, in their order.
    #[serde(skip_serializing_if = "Option::is_none", alias = "condition_order")]
    pub condition_order: Option<Vec<String>>,
}

/// One expected precondition result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ExpectPrecondition {
    /// `passed`.
    Passed(Passed),
    Failed(ExpectFailure),
}

/// The word `passed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Passed {
    Passed,
}

/// An expected precondition failure.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExpectFailure {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocking: Option<bool>,
}

/// Expected sync worker: the state of its work and its own status (which may hold a report
/// Operator.sync has not written yet).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExpectWorker {
    /// `Initializing`, `Updating`, `Reconciling`, or `none` (no work yet, or a fake worker).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<ExpectWorkerState>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reconciling: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completed: Option<u32>,
}

/// An expected state of the worker's work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExpectWorkerState {
    Initializing,
    Updating,
    Reconciling,
    /// No work yet, or a fake worker.
    #[serde(rename = "none")]
    NoWork,
}

impl ExpectWorkerState {
    fn as_str(&self) -> &'static str {
        crate::vocab::names::serde_name(self)
    }
}

/// What the run's sync worker looks like at the end, for [`ExpectWorker`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WorkerView {
    pub state: Option<WorkerState>,
    pub reconciling: bool,
    pub completed: u32,
}

/// An expected `status.desired.force`: a value, or `absent` (4.6+, where desired is a
/// `Release`, which has no such field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ExpectForce {
    Value(bool),
    Word(Absent),
}

/// The word `absent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Absent {
    Absent,
}

/// Expected `status.capabilities`; each list is compared in order when given.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExpectCapabilities {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExpectRelease {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channels: Option<Vec<String>>,
    /// `status.desired.force` (present in 4.1-4.5, where desired is an `Update`; `absent`
    /// from 4.6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub force: Option<ExpectForce>,
}

/// One history entry; times are RFC3339 strings, `completionTime: null` asserts null.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct ExpectHistory {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// `startedTime: null` asserts a zero (unset) start time.
    #[serde(
        deserialize_with = "double_option",
        skip_serializing_if = "Option::is_none",
        alias = "started_time"
    )]
    pub started_time: Option<Option<String>>,
    #[serde(
        deserialize_with = "double_option",
        skip_serializing_if = "Option::is_none",
        alias = "completion_time"
    )]
    pub completion_time: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none", alias = "accepted_risks")]
    pub accepted_risks: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct ExpectCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub reason: String,
    pub message: String,
    #[serde(
        skip_serializing_if = "Option::is_none",
        alias = "last_transition_time"
    )]
    pub last_transition_time: Option<String>,
}

/// One field where the result differs from the expectation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// A path such as `status.history[1].completionTime` or `status.conditions[Failing].reason`.
    pub field: String,
    pub expected: String,
    pub actual: String,
}

fn time_str(t: Option<Time>) -> String {
    t.map(|t| fmt_k8s(&t)).unwrap_or_else(|| "null".into())
}

/// Normalises an expected time to the API's second precision (unparsable text stays as is).
fn norm_time(s: &str) -> String {
    parse_rfc3339(s)
        .map(|t| fmt_k8s(&t))
        .unwrap_or_else(|| s.to_string())
}

struct Diff(Vec<Mismatch>);

impl Diff {
    fn check(&mut self, field: String, expected: &str, actual: &str) {
        if expected != actual {
            self.0.push(Mismatch {
                field,
                expected: expected.into(),
                actual: actual.into(),
            });
        }
    }
}

fn check_entry(d: &mut Diff, i: usize, e: &ExpectHistory, a: &HistoryEntry) {
    let f = |name: &str| format!("status.history[{i}].{name}");
    if let Some(v) = &e.state {
        d.check(f("state"), v, &a.state);
    }
    if let Some(v) = &e.version {
        d.check(f("version"), v, &a.version);
    }
    if let Some(v) = &e.image {
        d.check(f("image"), v, &a.image);
    }
    if let Some(v) = &e.started_time {
        let exp = v.as_deref().map(norm_time).unwrap_or_else(|| "null".into());
        d.check(f("startedTime"), &exp, &time_str(a.started_time));
    }
    if let Some(v) = &e.completion_time {
        let exp = v.as_deref().map(norm_time).unwrap_or_else(|| "null".into());
        d.check(f("completionTime"), &exp, &time_str(a.completion_time));
    }
    if let Some(v) = e.verified {
        d.check(f("verified"), &v.to_string(), &a.verified.to_string());
    }
    if let Some(v) = &e.accepted_risks {
        d.check(f("acceptedRisks"), v, &a.accepted_risks);
    }
}

fn show(e: &HistoryEntry) -> String {
    format!("{} {}", e.state, e.label())
}

/// Compares a ClusterVersion (and the capabilities status kept beside it) with the
/// expectation; empty when everything matches.
pub fn compare(
    expect: &Expect,
    cv: &ClusterVersion,
    caps: &CapabilitiesStatus,
    worker: &WorkerView,
    checks: Option<&[CheckResult]>,
) -> Vec<Mismatch> {
    let mut d = Diff(Vec::new());
    compare_preconditions(&mut d, &expect.preconditions, checks);
    if let Some(w) = &expect.worker {
        if let Some(v) = w.state {
            let actual = worker
                .state
                .map_or(ExpectWorkerState::NoWork.as_str(), |s| s.as_str());
            d.check("worker.state".into(), v.as_str(), actual);
        }
        if let Some(v) = w.reconciling {
            d.check(
                "worker.status.reconciling".into(),
                &v.to_string(),
                &worker.reconciling.to_string(),
            );
        }
        if let Some(v) = w.completed {
            d.check(
                "worker.status.completed".into(),
                &v.to_string(),
                &worker.completed.to_string(),
            );
        }
    }
    if let Some(c) = &expect.capabilities {
        if let Some(v) = &c.enabled {
            d.check(
                "status.capabilities.enabledCapabilities".into(),
                &v.join(", "),
                &caps.enabled.join(", "),
            );
        }
        if let Some(v) = &c.known {
            d.check(
                "status.capabilities.knownCapabilities".into(),
                &v.join(", "),
                &caps.known.join(", "),
            );
        }
    }
    if let Some(g) = expect.generation {
        d.check(
            "metadata.generation".into(),
            &g.to_string(),
            &cv.metadata.generation.unwrap_or(0).to_string(),
        );
    }
    if let Some(g) = expect.observed_generation {
        let actual = cv
            .status
            .observed_generation
            .map(|g| g.to_string())
            .unwrap_or_else(|| "null".into());
        d.check("status.observedGeneration".into(), &g.to_string(), &actual);
    }
    if let Some(h) = &expect.version_hash {
        d.check("status.versionHash".into(), h, &cv.status.version_hash);
    }
    if let Some(r) = &expect.desired {
        let a = &cv.status.desired;
        if let Some(v) = &r.version {
            d.check("status.desired.version".into(), v, &a.version);
        }
        if let Some(v) = &r.image {
            d.check("status.desired.image".into(), v, &a.image);
        }
        if let Some(v) = &r.url {
            d.check("status.desired.url".into(), v, &a.url);
        }
        if let Some(v) = &r.channels {
            d.check(
                "status.desired.channels".into(),
                &v.join(", "),
                &a.channels.join(", "),
            );
        }
        if let Some(v) = r.force {
            let show = |f: Option<bool>| f.map_or("absent".to_string(), |f| f.to_string());
            let expected = match v {
                ExpectForce::Value(b) => Some(b),
                ExpectForce::Word(Absent::Absent) => None,
            };
            d.check(
                "status.desired.force".into(),
                &show(expected),
                &show(a.force),
            );
        }
    }
    if let Some(h) = &expect.history {
        let actual = &cv.status.history;
        for (i, e) in h.iter().enumerate() {
            match actual.get(i) {
                Some(a) => check_entry(&mut d, i, e, a),
                None => d.check(format!("status.history[{i}]"), "an entry", "no entry"),
            }
        }
        for (i, a) in actual.iter().enumerate().skip(h.len()) {
            d.check(format!("status.history[{i}]"), "no entry", &show(a));
        }
    }
    for c in &expect.conditions {
        let f = |name: &str| format!("status.conditions[{}].{name}", c.type_);
        let Some(a) = cv.condition(&c.type_) else {
            d.check(
                format!("status.conditions[{}]", c.type_),
                &format!("status {}", c.status),
                "absent",
            );
            continue;
        };
        d.check(f("status"), &c.status, &a.status);
        d.check(f("reason"), &c.reason, &a.reason);
        d.check(f("message"), &c.message, &a.message);
        if let Some(t) = &c.last_transition_time {
            d.check(
                f("lastTransitionTime"),
                &norm_time(t),
                &time_str(a.last_transition_time),
            );
        }
    }
    let lists = [
        (
            "availableUpdates",
            &expect.available_updates,
            serde_json::to_value(&cv.status.available_updates),
        ),
        (
            "conditionalUpdates",
            &expect.conditional_updates,
            serde_json::to_value(&cv.status.conditional_updates),
        ),
        (
            "conditionalUpdateRisks",
            &expect.conditional_update_risks,
            serde_json::to_value(&cv.status.conditional_update_risks),
        ),
    ];
    for (name, e, a) in lists {
        if let Some(e) = e {
            let a = a.unwrap_or(serde_json::Value::Null);
            subset(
                &mut d,
                &format!("status.{name}"),
                &serde_json::Value::Array(e.clone()),
                &a,
            );
        }
    }
    if let Some(order) = &expect.condition_order {
        let actual: Vec<&str> = cv
            .status
            .conditions
            .iter()
            .map(|c| c.type_.as_str())
            .collect();
        d.check(
            "status.conditions (order)".into(),
            &order.join(", "),
            &actual.join(", "),
        );
    }
    for t in &expect.absent_conditions {
        if let Some(a) = cv.condition(t) {
            d.check(
                format!("status.conditions[{t}]"),
                "absent",
                &format!("status {}", a.status),
            );
        }
    }
    d.0
}

/// Whether a JSON value is what an absent field means (null, "", [] or {}).
fn emptyish(v: &serde_json::Value) -> bool {
    use serde_json::Value;
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

fn scalar(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The expected value is contained in the actual one: objects by the expected keys (an
/// absent key is empty), lists whole and in order, scalars by text; a `lastTransitionTime` is
/// compared as a time.
fn subset(d: &mut Diff, path: &str, e: &serde_json::Value, a: &serde_json::Value) {
    use serde_json::Value;
    static NULL: Value = Value::Null;
    match e {
        Value::Object(eo) => {
            for (k, ev) in eo {
                let av = a.get(k.as_str()).unwrap_or(&NULL);
                subset(d, &format!("{path}.{k}"), ev, av);
            }
        }
        Value::Array(ea) => {
            let empty = Vec::new();
            let aa = a.as_array().unwrap_or(&empty);
            if !emptyish(a) && a.as_array().is_none() {
                d.check(path.into(), "a list", &a.to_string());
                return;
            }
            for (i, ev) in ea.iter().enumerate() {
                match aa.get(i) {
                    Some(av) => subset(d, &format!("{path}[{i}]"), ev, av),
                    None => d.check(format!("{path}[{i}]"), &ev.to_string(), "no entry"),
                }
            }
            for (i, av) in aa.iter().enumerate().skip(ea.len()) {
                d.check(format!("{path}[{i}]"), "no entry", &av.to_string());
            }
        }
        _ if path.ends_with("lastTransitionTime") => {
            d.check(path.into(), &norm_time(&scalar(e)), &scalar(a));
        }
        _ => {
            if !(emptyish(e) && emptyish(a)) {
                d.check(path.into(), &scalar(e), &scalar(a));
            }
        }
    }
}

fn compare_preconditions(
    d: &mut Diff,
    expect: &BTreeMap<String, ExpectPrecondition>,
    checks: Option<&[CheckResult]>,
) {
    for (name, e) in expect {
        let field = |f: &str| format!("preconditions[{name}]{f}");
        let Some(result) = checks.and_then(|c| c.iter().find(|r| &r.name == name)) else {
            let why = match checks {
                None => "no computed precondition run",
                Some(_) => "not run by this CVO version",
            };
            d.check(field(""), "a result", why);
            continue;
        };
        match (e, &result.failure) {
            (ExpectPrecondition::Passed(_), None) => {}
            (ExpectPrecondition::Passed(_), Some(f)) => d.check(
                field(""),
                "passed",
                &format!("failed: {}: {}", f.reason, f.message),
            ),
            (ExpectPrecondition::Failed(_), None) => d.check(field(""), "failed", "passed"),
            (ExpectPrecondition::Failed(x), Some(f)) => {
                if let Some(r) = &x.reason {
                    d.check(field(".reason"), r, &f.reason);
                }
                if let Some(m) = &x.message {
                    d.check(field(".message"), m, &f.message);
                }
                if let Some(b) = x.blocking {
                    d.check(field(".blocking"), &b.to_string(), &f.blocking.to_string());
                }
            }
        }
    }
}

/// Renders mismatches as a readable diff: one block per field with expected and actual.
pub fn render_mismatches(ms: &[Mismatch]) -> String {
    if ms.is_empty() {
        return "all expectations met\n".into();
    }
    let mut out = format!(
        "{} expectation mismatch{}:\n",
        ms.len(),
        if ms.len() == 1 { "" } else { "es" }
    );
    for m in ms {
        out.push_str(&format!(
            "  {}\n    expected: {}\n    actual:   {}\n",
            m.field,
            quote_multi(&m.expected),
            quote_multi(&m.actual)
        ));
    }
    out
}

fn quote_multi(s: &str) -> String {
    if s.contains('\n') {
        format!("{s:?}")
    } else {
        s.to_string()
    }
}
