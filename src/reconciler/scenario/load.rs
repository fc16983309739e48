//! Reading a scenario from YAML ([`load_scenario`]): the top-level keys, each event by its
//! kind, and the checks the types cannot make (an event's fields that contradict each other,
//! events that need or conflict with the `cluster:` block), each refusal naming the event's
//! index and time.

use super::expect::Expect;
use super::{Event, EventKind, Scenario, ScenarioCapabilities, Source, TimedEvent};
use crate::model::{
    ClusterVersionSpec, ClusterVersionStatus, Release, Time, fmt_k8s, parse_rfc3339,
};
use crate::reconciler::model::cluster::ClusterState;
use crate::reconciler::model::events::{LoadOutcome, LoadStep};
use crate::reconciler::model::semantics::{Flavour, PruneVariant};
use crate::vocab::names::from_serde_name;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    #[serde(default)]
    description: String,
    #[serde(default)]
    flavour: Option<Flavour>,
    #[serde(default)]
    cvo_version: Option<String>,
    #[serde(default)]
    history_fix: Option<bool>,
    #[serde(default)]
    prune: Option<PruneVariant>,
    #[serde(default)]
    max_history: Option<usize>,
    #[serde(default)]
    operator_release: Release,
    #[serde(default)]
    initial_generation: Option<i64>,
    #[serde(default)]
    initial_spec: Option<ClusterVersionSpec>,
    #[serde(default)]
    initial_status: Option<ClusterVersionStatus>,
    #[serde(default)]
    events: Vec<yaml_serde::Value>,
    #[serde(default)]
    expect: Option<Expect>,
    #[serde(default)]
    capabilities: Option<ScenarioCapabilities>,
    #[serde(default)]
    feature_gates: Vec<String>,
    #[serde(default)]
    source: Option<Source>,
    #[serde(default)]
    status_notifier: Option<bool>,
    #[serde(default)]
    worker_initialized: bool,
    #[serde(default)]
    cluster: Option<ClusterState>,
}

fn parse_event(i: usize, v: yaml_serde::Value) -> Result<TimedEvent, String> {
    let yaml_serde::Value::Mapping(map) = v else {
        return Err(format!(
            "event {i}: expected a mapping with `at` and one event kind"
        ));
    };
    let mut at = None;
    let mut kinds = Vec::new();
    for (k, v) in map {
        let Some(k) = k.as_str().map(str::to_string) else {
            return Err(format!("event {i}: keys must be strings"));
        };
        if k == "at" {
            let s = v
                .as_str()
                .ok_or_else(|| format!("event {i}: `at` must be an RFC3339 string"))?;
            at = Some(
                parse_rfc3339(s)
                    .ok_or_else(|| format!("event {i}: `at` is not an RFC3339 time: `{s}`"))?,
            );
        } else {
            kinds.push((k, v));
        }
    }
    let at = at.ok_or_else(|| format!("event {i}: missing `at`"))?;
    if kinds.len() != 1 {
        let names: Vec<String> = kinds.iter().map(|(k, _)| format!("`{k}`")).collect();
        return Err(format!(
            "event {i} at {}: needs exactly one event kind, found [{}]",
            fmt_k8s(&at),
            names.join(", ")
        ));
    }
    let (kind, v) = kinds.remove(0);
    let ctx = |e: yaml_serde::Error| format!("event {i} at {} (`{kind}`): {e}", fmt_k8s(&at));
    let empty = |v: &yaml_serde::Value| v.is_null() || v.as_mapping().is_some_and(|m| m.is_empty());
    let Some(k) = from_serde_name::<EventKind>(&kind) else {
        let known: Vec<&str> = EventKind::ALL.iter().map(|k| k.name()).collect();
        return Err(format!(
            "event {i} at {}: unknown event kind `{kind}`; expected one of {}",
            fmt_k8s(&at),
            known.join(", ")
        ));
    };
    let event = match k {
        EventKind::PodStart => Event::PodStart(yaml_serde::from_value(v).map_err(ctx)?),
        EventKind::SpecChange => Event::SpecChange(yaml_serde::from_value(v).map_err(ctx)?),
        EventKind::LoadOutcome => Event::LoadOutcome(yaml_serde::from_value(v).map_err(ctx)?),
        EventKind::PassProgress => Event::PassProgress(yaml_serde::from_value(v).map_err(ctx)?),
        EventKind::PassResult => Event::PassResult(yaml_serde::from_value(v).map_err(ctx)?),
        EventKind::Tick if empty(&v) => Event::Tick,
        EventKind::Tick => {
            return Err(format!(
                "event {i} at {}: `tick` takes no fields, write `tick: {{}}`",
                fmt_k8s(&at)
            ));
        }
        EventKind::SyncFailedRepeatedly => {
            Event::SyncFailedRepeatedly(yaml_serde::from_value(v).map_err(ctx)?)
        }
        EventKind::AvailableUpdates => {
            Event::AvailableUpdates(yaml_serde::from_value(v).map_err(ctx)?)
        }
        EventKind::Upgradeable if v.is_null() => Event::Upgradeable(None),
        EventKind::Upgradeable => Event::Upgradeable(Some(yaml_serde::from_value(v).map_err(ctx)?)),
        EventKind::UpgradeableConditions => {
            Event::UpgradeableConditions(yaml_serde::from_value(v).map_err(ctx)?)
        }
        EventKind::UpgradeableChecks => {
            Event::UpgradeableChecks(yaml_serde::from_value(v).map_err(ctx)?)
        }
        EventKind::WorkerStatus => {
            Event::WorkerStatus(Box::new(yaml_serde::from_value(v).map_err(ctx)?))
        }
        EventKind::ClusterChange => Event::ClusterChange(yaml_serde::from_value(v).map_err(ctx)?),
    };
    check_event(i, &at, &event)?;
    Ok(TimedEvent { at, event })
}

fn check_event(i: usize, at: &Time, e: &Event) -> Result<(), String> {
    let bad = |m: &str| Err(format!("event {i} at {}: {m}", fmt_k8s(at)));
    match e {
        Event::PassResult(r) if r.ok == Some(true) && !r.errors.is_empty() => {
            bad("`pass_result` has `ok: true` and `errors`")
        }
        Event::PassResult(r) if r.timed_out && (r.ok == Some(true) || !r.errors.is_empty()) => {
            bad("`pass_result` with `timed_out: true` has no `ok` or `errors`")
        }
        Event::PassResult(r) if !r.timed_out && r.ok != Some(true) && r.errors.is_empty() => {
            bad("`pass_result` needs `ok: true`, `errors` or `timed_out: true`")
        }
        Event::PassResult(r)
            if r.errors.iter().any(|e| {
                e.reason.is_empty()
                    && e.effect.is_none()
                    && (e.message.is_empty() || !e.name.is_empty())
            }) =>
        {
            bad(
                "a pass error without a `reason` or `effect` is a plain error: it needs a `message` and has no `name`",
            )
        }
        Event::LoadOutcome(o)
            if o.step == LoadStep::PreconditionChecks
                && o.failure != Some(false)
                && o.preconditions.is_empty() =>
        {
            bad("a failed `PreconditionChecks` needs `preconditions`")
        }
        Event::LoadOutcome(o)
            if matches!(o.step, LoadStep::RetrievePayload | LoadStep::LoadPayload)
                && o.failure != Some(false)
                && o.message.is_empty() =>
        {
            bad("a failed `RetrievePayload` or `LoadPayload` needs a `message`")
        }
        Event::LoadOutcome(o)
            if o.step == LoadStep::VerifyPayloadVersion
                && o.failure != Some(false)
                && o.message.is_empty()
                && o.version.is_empty() =>
        {
            bad("a failed `VerifyPayloadVersion` needs the payload's `version` or a `message`")
        }
        Event::LoadOutcome(o) if !o.preconditions.is_empty() && !reaches_preconditions(o) => bad(
            "`preconditions` are checked once the payload has loaded; this outcome stops before them (use `step: PreconditionChecks` or `PayloadLoaded`)",
        ),
        _ => Ok(()),
    }
}

/// Whether a load outcome gets as far as the precondition step: a loaded payload, or a
/// signature failure that `force` waives.
fn reaches_preconditions(o: &LoadOutcome) -> bool {
    let failure = o.failure.unwrap_or(o.step != LoadStep::PayloadLoaded);
    match o.step {
        LoadStep::PayloadLoaded | LoadStep::PreconditionChecks => true,
        LoadStep::RetrievePayload | LoadStep::VerifyPayload => {
            failure && o.reason == "ImageVerificationFailed"
        }
        LoadStep::LoadPayload | LoadStep::VerifyPayloadVersion => !failure,
    }
}

/// Events that script what a `cluster:` block computes, or that need one.
fn check_cluster(i: usize, ev: &TimedEvent, cluster: Option<&ClusterState>) -> Result<(), String> {
    let computing = cluster.is_some_and(|c| c.compute_upgradeable);
    let scripted = matches!(
        ev.event,
        Event::Upgradeable(_) | Event::UpgradeableConditions(_) | Event::UpgradeableChecks(_)
    );
    let at = fmt_k8s(&ev.at);
    if scripted && computing {
        return Err(format!(
            "event {i} at {at}: `{}` scripts Upgradeable, which this scenario's `cluster:` block computes; drop the event or set `cluster: {{compute_upgradeable: false}}`",
            ev.event.kind().name()
        ));
    }
    if matches!(ev.event, Event::ClusterChange(_)) && cluster.is_none() {
        return Err(format!(
            "event {i} at {at}: `cluster_change` needs a top-level `cluster:` block (even `cluster: {{}}`)"
        ));
    }
    Ok(())
}

/// Why a scenario could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    /// Not YAML of the scenario's shape, or a top-level key out of range.
    #[error("invalid scenario: {0}")]
    Format(String),
    /// One event is wrong (the text names its index and time).
    #[error("{0}")]
    Event(String),
    #[error("cannot write scenario: {0}")]
    Write(String),
}

/// Parses a scenario from YAML. Errors name the event index and time, or the YAML location.
pub fn load_scenario(text: &str) -> Result<Scenario, ScenarioError> {
    // The same bounds as resource files, checked on the text before the YAML library builds
    // the scenario: nesting deeper than 128 levels is refused in one pass (a 100,000-deep flow
    // mapping used to take 56 s).
    if let Err(e) = crate::yaml::check_text(text) {
        let at = e.line.map_or_else(String::new, |l| format!(" at line {l}"));
        return Err(ScenarioError::Format(format!("{}{at}", e.message)));
    }
    // And what aliases expand to, with the same bound as resource files, measured without
    // building anything: 100,000 aliases of one large event used to take 2 GB and abort.
    if let Err(e) = crate::yaml::check_expansion(text) {
        let at = e.line.map_or_else(String::new, |l| format!(" at line {l}"));
        return Err(ScenarioError::Format(format!("{}{at}", e.message)));
    }
    let raw: RawScenario =
        yaml_serde::from_str(text).map_err(|e| ScenarioError::Format(e.to_string()))?;
    if let Some(v) = &raw.cvo_version
        && crate::reconciler::model::semantics::parse_cvo_minor(v).is_none()
    {
        return Err(ScenarioError::Format(format!(
            "`cvo_version` must look like \"4.3\", got `{v}`"
        )));
    }
    if raw.max_history == Some(0) {
        return Err(ScenarioError::Format(
            "`max_history` must be at least 1".into(),
        ));
    }
    let mut gates = crate::reconciler::model::semantics::FeatureGates::default();
    if let Some(g) = raw.feature_gates.iter().find(|g| !gates.enable(g)) {
        return Err(ScenarioError::Format(format!(
            "unknown feature gate `{g}`; expected ReconciliationIssuesCondition, UnknownVersion, ClusterUpdateAcceptRisks, CRDCompatibilityRequirementOperator or ClusterAPIMachineManagement"
        )));
    }
    let mut events = Vec::with_capacity(raw.events.len());
    for (i, v) in raw.events.into_iter().enumerate() {
        let ev = parse_event(i, v).map_err(ScenarioError::Event)?;
        check_cluster(i, &ev, raw.cluster.as_ref()).map_err(ScenarioError::Event)?;
        if let Some(prev) = events.last().map(|e: &TimedEvent| e.at)
            && ev.at < prev
        {
            return Err(ScenarioError::Event(format!(
                "event {i} at {} is earlier than the event before it ({}); events must be in time order",
                fmt_k8s(&ev.at),
                fmt_k8s(&prev)
            )));
        }
        events.push(ev);
    }
    Ok(Scenario {
        description: raw.description,
        flavour: raw.flavour.unwrap_or(Flavour::Fixed),
        cvo_version: raw.cvo_version,
        history_fix: raw.history_fix,
        prune: raw.prune,
        max_history: raw.max_history,
        operator_release: raw.operator_release,
        initial_generation: raw.initial_generation.unwrap_or(1),
        initial_spec: raw.initial_spec.unwrap_or_default(),
        initial_status: raw.initial_status.unwrap_or_default(),
        events,
        expect: raw.expect,
        capabilities: raw.capabilities,
        feature_gates: raw.feature_gates,
        source: raw.source,
        status_notifier: raw.status_notifier,
        worker_initialized: raw.worker_initialized,
        cluster: raw.cluster,
    })
}
