//! The scenario format: settings, the starting ClusterVersion, a list of timed events and
//! optional expectations, as plain Rust types that can be built programmatically, loaded from
//! YAML ([`load_scenario`], in `load.rs`) and written back ([`Scenario::to_yaml`]). Documented
//! in docs/scenario-format.md. The expectations and their comparison with a run's result are
//! in [`expect`]; the event payloads are the model's ([`crate::reconciler::model::events`]),
//! re-exported here as the format's vocabulary.

pub mod expect;
mod load;

pub use crate::reconciler::model::events::*;
pub use load::{ScenarioError, load_scenario};

use crate::model::{ClusterVersionSpec, ClusterVersionStatus, Release, Time, fmt_k8s};
use crate::reconciler::model::capabilities::{CapabilitiesStatus, CapabilitySpec};
use crate::reconciler::model::cluster::{ClusterChange, ClusterState};
use crate::reconciler::model::semantics::{Flavour, PruneVariant};
use crate::vocab::names::serde_name;
use expect::Expect;
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

/// A scenario: how the CVO is configured, where the ClusterVersion starts, and what happens.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scenario {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    pub flavour: Flavour,
    /// CVO version whose wording is modelled, `4.N` (defaults per flavour).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cvo_version: Option<String>,
    /// `false` reproduces Bug 1756461 (defaults to `true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_fix: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prune: Option<PruneVariant>,
    /// Maximum history length (defaults to the prune variant's 50 or 100).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_history: Option<usize>,
    /// The CVO pod's own release before any `pod_start`.
    pub operator_release: Release,
    pub initial_generation: i64,
    pub initial_spec: ClusterVersionSpec,
    pub initial_status: ClusterVersionStatus,
    pub events: Vec<TimedEvent>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
    /// Capabilities (4.11+): `spec.capabilities`, `status.capabilities` before the first
    /// event and the CVO's always-enabled capabilities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<ScenarioCapabilities>,
    /// CVO feature gates that are on (`ReconciliationIssuesCondition`, `UnknownVersion`,
    /// `ClusterUpdateAcceptRisks`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub feature_gates: Vec<String>,
    /// Where the scenario comes from (a conformance vector ported from a CVO unit test).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// `false`: the worker's reports queue no Operator.sync, as in the CVO's unit tests that
    /// call Operator.sync by hand (defaults to `true`, a running CVO; see [`Scenario::notifies`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_notifier: Option<bool>,
    /// `true`: the worker counts as initialised from the start, as the 4.14+ CVO unit tests
    /// force with `worker.initializedFunc` (the first sync hands the spec target to the fresh
    /// worker, as before 4.14).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub worker_initialized: bool,
    /// What the CVO reads beside its ClusterVersion (ClusterOperators, admin config maps);
    /// given, the model computes Upgradeable and runs the payload preconditions itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<ClusterState>,
}

/// The upstream origin of a conformance vector.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Source {
    /// `openshift/cluster-version-operator` unless said otherwise.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub repo: String,
    /// The file of the test (or of the code a derived vector reads), e.g. `pkg/cvo/cvo_test.go`.
    pub file: String,
    /// The Go test, e.g. `TestOperator_sync`.
    pub test: String,
    /// The subtest name or the step of a multi-step test.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub subtest: String,
    pub branch: String,
    /// The commit of `branch` the vector was read from (40 hex digits).
    pub commit: String,
    /// `real` (the model's own worker reaches the expectation), `fake` (the test's fake worker
    /// status is replayed with `worker_status`) or `derived` (from the code, no test asserts it).
    pub worker: String,
    /// What differs from the upstream test and why.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// The capability settings of a scenario.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScenarioCapabilities {
    /// `spec.capabilities` before the first event.
    #[serde(flatten)]
    pub spec: CapabilitySpec,
    /// `status.capabilities.enabledCapabilities` before the first event (what an earlier CVO
    /// enabled, which cannot be disabled again).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub enabled: Vec<String>,
    /// `status.capabilities.knownCapabilities` before the first event (informational).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub known: Vec<String>,
    /// Capabilities this CVO always enables (`--always-enable-capabilities`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub always_enabled: Vec<String>,
}

impl ScenarioCapabilities {
    /// `status.capabilities` before the first event.
    pub fn status(&self) -> CapabilitiesStatus {
        CapabilitiesStatus {
            enabled: self.enabled.clone(),
            known: self.known.clone(),
        }
    }
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            description: String::new(),
            flavour: Flavour::Fixed,
            cvo_version: None,
            history_fix: None,
            prune: None,
            max_history: None,
            operator_release: Release::default(),
            initial_generation: 1,
            initial_spec: ClusterVersionSpec::default(),
            initial_status: ClusterVersionStatus::default(),
            events: Vec::new(),
            expect: None,
            capabilities: None,
            feature_gates: Vec::new(),
            source: None,
            status_notifier: None,
            worker_initialized: false,
            cluster: None,
        }
    }
}

/// One event at an instant (time only ever comes from here).
#[derive(Debug, Clone, PartialEq)]
pub struct TimedEvent {
    pub at: Time,
    pub event: Event,
}

/// What happens (cvo-reference §11). Every event is followed by an Operator.sync.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The CVO pod (re)starts on its own release; the worker starts from scratch.
    PodStart(PodStart),
    /// The spec changes; metadata.generation is bumped.
    SpecChange(SpecChange),
    /// The result of loading the target being loaded (retrieve, verify, load, preconditions).
    LoadOutcome(LoadOutcome),
    /// The apply loop reports progress of its pass.
    PassProgress(PassProgress),
    /// The apply loop's pass ends.
    PassResult(PassResult),
    /// Time passes; time-dependent conditions are recomputed.
    Tick,
    /// Operator.sync failed 15 times in a row (`syncFailingStatus`).
    SyncFailedRepeatedly(SyncFailed),
    /// The update service answered: availableUpdates and RetrievedUpdates=True.
    AvailableUpdates(AvailableUpdates),
    /// The Upgradeable condition is set (`Some`) or removed (`None`); either way every other
    /// `Upgradeable*` condition no check reports any more is removed (`upgradeable.go`
    /// `NeedsUpdate`).
    Upgradeable(Option<UpgradeableChange>),
    /// The whole set of `Upgradeable*` conditions the CVO computed (sorted by type upstream):
    /// each is set, every other `Upgradeable*` condition removed.
    UpgradeableConditions(Vec<UpgradeableCondition>),
    /// The failing upgradeability checks: the set is computed as the scenario's CVO version
    /// computes it (one check: its reason and message on `Upgradeable`; several: each
    /// check's condition and `Upgradeable` `MultipleReasons`), then applied as above.
    UpgradeableChecks(Vec<UpgradeableCondition>),
    /// A unit test's fake worker reports this status from now on.
    WorkerStatus(Box<FakeStatus>),
    /// ClusterOperators or the admin config maps change (the scenario's `cluster:` block).
    ClusterChange(ClusterChange),
}

impl Event {
    /// The event's kind (its key in the YAML format).
    pub fn kind(&self) -> EventKind {
        match self {
            Event::PodStart(_) => EventKind::PodStart,
            Event::SpecChange(_) => EventKind::SpecChange,
            Event::LoadOutcome(_) => EventKind::LoadOutcome,
            Event::PassProgress(_) => EventKind::PassProgress,
            Event::PassResult(_) => EventKind::PassResult,
            Event::Tick => EventKind::Tick,
            Event::SyncFailedRepeatedly(_) => EventKind::SyncFailedRepeatedly,
            Event::AvailableUpdates(_) => EventKind::AvailableUpdates,
            Event::Upgradeable(_) => EventKind::Upgradeable,
            Event::UpgradeableConditions(_) => EventKind::UpgradeableConditions,
            Event::UpgradeableChecks(_) => EventKind::UpgradeableChecks,
            Event::WorkerStatus(_) => EventKind::WorkerStatus,
            Event::ClusterChange(_) => EventKind::ClusterChange,
        }
    }
}

/// The kinds of [`Event`]: their serde names are the event keys of the YAML format, read and
/// written from this one declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    PodStart,
    SpecChange,
    LoadOutcome,
    PassProgress,
    PassResult,
    Tick,
    SyncFailedRepeatedly,
    AvailableUpdates,
    Upgradeable,
    UpgradeableConditions,
    UpgradeableChecks,
    WorkerStatus,
    ClusterChange,
}

impl EventKind {
    /// Every kind, in the order the format documents them.
    pub const ALL: [EventKind; 13] = [
        EventKind::PodStart,
        EventKind::SpecChange,
        EventKind::LoadOutcome,
        EventKind::PassProgress,
        EventKind::PassResult,
        EventKind::Tick,
        EventKind::SyncFailedRepeatedly,
        EventKind::AvailableUpdates,
        EventKind::Upgradeable,
        EventKind::UpgradeableConditions,
        EventKind::UpgradeableChecks,
        EventKind::WorkerStatus,
        EventKind::ClusterChange,
    ];

    /// The event's key in the YAML format (`pod_start`).
    pub fn name(self) -> &'static str {
        serde_name(&self)
    }
}

impl Scenario {
    /// Whether the worker's status reports queue an Operator.sync (`StatusCh`), so the apply
    /// loop's first report on new work reaches the status at the instant the work was accepted
    /// (`status_notifier`, default `true`).
    pub fn notifies(&self) -> bool {
        self.status_notifier.unwrap_or(true)
    }

    /// Writes the scenario in the YAML format [`load_scenario`] reads.
    pub fn to_yaml(&self) -> Result<String, ScenarioError> {
        yaml_serde::to_string(self).map_err(|e| ScenarioError::Write(e.to_string()))
    }
}

impl Serialize for TimedEvent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("at", &fmt_k8s(&self.at))?;
        let kind = self.event.kind().name();
        match &self.event {
            Event::PodStart(v) => m.serialize_entry(kind, v)?,
            Event::SpecChange(v) => m.serialize_entry(kind, v)?,
            Event::LoadOutcome(v) => m.serialize_entry(kind, v)?,
            Event::PassProgress(v) => m.serialize_entry(kind, v)?,
            Event::PassResult(v) => m.serialize_entry(kind, v)?,
            Event::Tick => m.serialize_entry(kind, &serde_json::Map::new())?,
            Event::SyncFailedRepeatedly(v) => m.serialize_entry(kind, v)?,
            Event::AvailableUpdates(v) => m.serialize_entry(kind, v)?,
            Event::Upgradeable(v) => m.serialize_entry(kind, v)?,
            Event::UpgradeableConditions(v) | Event::UpgradeableChecks(v) => {
                m.serialize_entry(kind, v)?
            }
            Event::WorkerStatus(v) => m.serialize_entry(kind, v)?,
            Event::ClusterChange(v) => m.serialize_entry(kind, v)?,
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"
flavour: legacy
history_fix: false
operator_release: {version: 4.1.18, image: "quay.io/openshift-release-dev/ocp-release@sha256:aa"}
events:
  - {at: "2019-10-14T02:57:34Z", pod_start: {version: 4.1.18, image: "quay.io/openshift-release-dev/ocp-release@sha256:aa"}}
  - {at: "2019-10-14T03:13:16Z", pass_result: {ok: true}}
  - {at: "2019-10-14T03:20:00Z", tick: {}}
  - {at: "2019-10-14T03:42:31Z", spec_change: {desired_update: {version: 4.1.20, image: "quay.io/x@sha256:bb"}}}
  - {at: "2019-10-14T03:43:16Z", spec_change: {desired_update: null}}
"#;

    #[test]
    fn deep_nesting_is_refused_at_the_resource_bound() {
        let deep = format!(
            "events:\n- {{at: 0, x: {}{}}}\n",
            "{a: ".repeat(100_000),
            "}".repeat(100_000)
        );
        let e = load_scenario(&deep).unwrap_err().to_string();
        assert!(e.contains("nested deeper than 128 levels"), "{e}");
        let ok = format!(
            "events:\n- {{at: 0, x: {}{}}}\n",
            "{a: ".repeat(100),
            "}".repeat(100)
        );
        assert!(
            !load_scenario(&ok)
                .unwrap_err()
                .to_string()
                .contains("nested")
        );
    }

    #[test]
    fn loads_and_round_trips() {
        let s = load_scenario(SMALL).unwrap();
        assert_eq!(s.flavour, Flavour::Legacy);
        assert_eq!(s.history_fix, Some(false));
        assert_eq!(s.events.len(), 5);
        assert!(matches!(
            &s.events[4].event,
            Event::SpecChange(SpecChange {
                desired_update: Some(None),
                ..
            })
        ));
        assert!(matches!(
            &s.events[3].event,
            Event::SpecChange(SpecChange {
                desired_update: Some(Some(_)),
                ..
            })
        ));
        let back = load_scenario(&s.to_yaml().unwrap()).unwrap();
        assert_eq!(back, s);
    }

    /// The example in issue 5, as written there.
    const ISSUE_EXAMPLE: &str = r#"
flavour: legacy           # or fixed
history_fix: true         # false reproduces Bug 1756461
prune: weighted_100       # or keep_recent_completed_50, retain_initial_50
operator_release: {version: 4.3.10, image: "registry.example/ocp/release@sha256:..."}
initial_status: {}        # optional: a ClusterVersion status to start from
events:                   # one kind per event; `at` is RFC3339 UTC
  - {at: "2020-04-09T17:35:48Z", pod_start: {version: 4.3.10, image: "..."}}
  - {at: "2020-04-09T17:59:00Z", pass_progress: {done: 498, total: 498}}
  - {at: "2020-04-09T18:00:34Z", pass_result: {ok: true}}
  - {at: "2020-04-09T18:27:49Z", spec_change: {desired_update: {version: 4.3.11, image: "...", force: false}}}
  - {at: "2020-04-09T18:28:19Z", load_outcome: {step: PreconditionChecks, failure: true, preconditions: [{name: ClusterVersionUpgradeable, reason: DefaultSecurityContextConstraints_Mutated, message: "...", blocking: true}]}}
  - {at: "2020-04-09T18:55:16Z", spec_change: {desired_update: {image: "registry.example/ocp/release@sha256:...", force: false}}}
  - {at: "2020-04-09T18:55:34Z", pass_result: {ok: true}}
  - {at: "2020-04-09T19:00:00Z", tick: {}}
expect: {}
"#;

    #[test]
    fn an_unknown_event_kind_names_every_kind() {
        let e = load_scenario("events:\n  - {at: \"2020-01-01T00:00:00Z\", pod_stop: {}}\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "event 0 at 2020-01-01T00:00:00Z: unknown event kind `pod_stop`; expected one of \
             pod_start, spec_change, load_outcome, pass_progress, pass_result, tick, \
             sync_failed_repeatedly, available_updates, upgradeable, upgradeable_conditions, \
             upgradeable_checks, worker_status, cluster_change"
        );
    }

    #[test]
    fn the_issue_example_parses() {
        let s = load_scenario(ISSUE_EXAMPLE).unwrap();
        assert_eq!(
            (s.flavour, s.prune),
            (Flavour::Legacy, Some(PruneVariant::Weighted100))
        );
        let kinds: Vec<&str> = s.events.iter().map(|e| e.event.kind().name()).collect();
        assert_eq!(
            kinds,
            [
                "pod_start",
                "pass_progress",
                "pass_result",
                "spec_change",
                "load_outcome",
                "spec_change",
                "pass_result",
                "tick"
            ]
        );
        assert!(matches!(&s.events[4].event, Event::LoadOutcome(o) if o.preconditions.len() == 1));
    }

    #[test]
    fn the_grown_format_parses_and_round_trips() {
        let text = r#"
cvo_version: "5.1"
feature_gates: [ReconciliationIssuesCondition]
capabilities: {baseline: None, additional: [baremetal], enabled: [Console], always_enabled: [Ingress]}
source: {file: pkg/cvo/cvo_test.go, test: TestOperator_sync, branch: main, commit: "6e719331fb5863141397f35b1f47bed42148a6dd", worker: fake}
events:
  - {at: "2020-01-01T00:00:00Z", pass_result: {errors: [{message: injected error}]}}
  - {at: "2020-01-01T00:01:00Z", pass_result: {timed_out: true}}
  - {at: "2020-01-01T00:02:00Z", spec_change: {capabilities: {baseline: vCurrent}}}
  - at: "2020-01-01T00:03:00Z"
    worker_status: {actual: {version: 1.2.3}, completed: 2, failure: {plain: true, message: x}, co_update_started_minutes_ago: {dns: 5}}
expect:
  desired: {force: false}
  versionHash: abc
  capabilities: {enabled: [Console]}
  history: [{startedTime: null}]
"#;
        let s = load_scenario(text).unwrap();
        assert_eq!(s.events.len(), 4);
        assert!(matches!(&s.events[3].event, Event::WorkerStatus(f) if f.completed == 2));
        assert_eq!(
            s.capabilities.as_ref().map(|c| c.spec.baseline.as_str()),
            Some("None")
        );
        let back = load_scenario(&s.to_yaml().unwrap()).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn the_update_service_answer_and_risk_expectations_parse_and_round_trip() {
        let text = r#"
cvo_version: "4.23"
feature_gates: [ClusterUpdateAcceptRisks, ClusterAPIMachineManagement]
cluster:
  alerts: [{labels: {alertname: A, severity: critical}, state: firing, activeAt: "2026-01-01T00:00:00Z"}]
  risks: [{name: M, message: m, url: "https://x", matchingRules: [{type: Always}]}]
events:
  - at: "2026-01-01T00:00:00Z"
    available_updates:
      channel: fast
      retrieved: {reason: NoChannel}
      updates: []
      conditional_updates: [{release: {version: 4.23.1, image: i}, risks: [{name: R, matchingRules: [{type: PromQL}]}]}]
      risk_matches: {R: {error: boom}, S: false}
  - {at: "2026-01-01T00:01:00Z", cluster_change: {alerts: []}}
expect:
  availableUpdates: [{version: 4.23.1}]
  conditionalUpdates: [{release: {version: 4.23.1}, riskNames: [R]}]
  conditionalUpdateRisks: [{name: R}]
  conditionOrder: [Available, Failing]
"#;
        let s = load_scenario(text).unwrap();
        let Event::AvailableUpdates(u) = &s.events[0].event else {
            panic!("not an answer")
        };
        assert!(u.evaluated());
        assert_eq!(
            u.retrieved.clone().unwrap_or_default().condition(),
            (
                "False".to_string(),
                "NoChannel".to_string(),
                "The update channel has not been configured.".to_string()
            )
        );
        assert_eq!(u.risk_matches.len(), 2);
        assert_eq!(s.cluster.as_ref().map(|c| c.alerts.len()), Some(1));
        let e = s.expect.as_ref().unwrap();
        assert_eq!(e.condition_order.as_ref().map(Vec::len), Some(2));
        let back = load_scenario(&s.to_yaml().unwrap()).unwrap();
        assert_eq!(back, s);
        let scripted = "events:\n  - {at: \"2026-01-01T00:00:00Z\", available_updates: {updates: [], conditional_updates: [{release: {version: 1.0.1}, conditions: [{type: Recommended, status: \"True\"}]}]}}\n";
        let s = load_scenario(scripted).unwrap();
        assert!(matches!(&s.events[0].event, Event::AvailableUpdates(u) if !u.evaluated()));
    }

    #[test]
    fn rejects_bad_events_with_their_index_and_time() {
        let two =
            "events:\n  - {at: \"2020-01-01T00:00:00Z\", tick: {}, pass_result: {ok: true}}\n";
        let e = load_scenario(two).unwrap_err().to_string();
        assert!(
            e.contains("event 0 at 2020-01-01T00:00:00Z") && e.contains("exactly one"),
            "{e}"
        );
        let unknown = "events:\n  - {at: \"2020-01-01T00:00:00Z\", reboot: {}}\n";
        assert!(
            load_scenario(unknown)
                .unwrap_err()
                .to_string()
                .contains("unknown event kind `reboot`")
        );
        let order = "events:\n  - {at: \"2020-01-01T00:01:00Z\", tick: {}}\n  - {at: \"2020-01-01T00:00:00Z\", tick: {}}\n";
        assert!(
            load_scenario(order)
                .unwrap_err()
                .to_string()
                .contains("time order")
        );
        let nameless =
            "events:\n  - {at: \"2020-01-01T00:00:00Z\", pass_result: {errors: [{name: dns}]}}\n";
        assert!(
            load_scenario(nameless)
                .unwrap_err()
                .to_string()
                .contains("plain error")
        );
        let both = "events:\n  - {at: \"2020-01-01T00:00:00Z\", pass_result: {ok: true, timed_out: true}}\n";
        assert!(
            load_scenario(both)
                .unwrap_err()
                .to_string()
                .contains("timed_out")
        );
        assert!(
            load_scenario("feature_gates: [Warp]\n")
                .unwrap_err()
                .to_string()
                .contains("`Warp`")
        );
        let typo = "events:\n  - {at: \"2020-01-01T00:00:00Z\", pass_result: {okay: true}}\n";
        assert!(
            load_scenario(typo)
                .unwrap_err()
                .to_string()
                .contains("event 0")
        );
        assert!(load_scenario("flavour: newest\n").is_err());
    }

    #[test]
    fn refuses_what_a_cluster_block_computes_or_never_runs() {
        let err = |t: &str| load_scenario(t).unwrap_err().to_string();
        let early = "events:\n  - {at: \"2020-01-01T00:00:00Z\", load_outcome: {step: LoadPayload, message: bad, preconditions: [{name: X, reason: R, message: m}]}}\n";
        assert!(err(early).contains("stops before them"), "{}", err(early));
        let loaded = "events:\n  - {at: \"2020-01-01T00:00:00Z\", load_outcome: {step: PayloadLoaded, preconditions: [{name: X, reason: R, message: m, blocking: false}]}}\n";
        assert!(load_scenario(loaded).is_ok());
        let scripted =
            "cluster: {}\nevents:\n  - {at: \"2020-01-01T00:00:00Z\", upgradeable: null}\n";
        assert!(
            err(scripted).contains("compute_upgradeable: false"),
            "{}",
            err(scripted)
        );
        let kept = "cluster: {compute_upgradeable: false}\nevents:\n  - {at: \"2020-01-01T00:00:00Z\", upgradeable: null}\n";
        assert!(load_scenario(kept).is_ok());
        let orphan =
            "events:\n  - {at: \"2020-01-01T00:00:00Z\", cluster_change: {admin_acks: null}}\n";
        assert!(
            err(orphan).contains("needs a top-level `cluster:`"),
            "{}",
            err(orphan)
        );
    }

    #[test]
    fn a_cluster_block_round_trips() {
        let text = "cluster:\n  compute_upgradeable: false\n  cluster_operators: [{name: etcd, conditions: [{type: RecentBackup, status: \"True\"}]}]\n  admin_gates: null\nevents:\n  - {at: \"2020-01-01T00:00:00Z\", cluster_change: {admin_acks: {ack-4.8-x: \"true\"}, admin_gates: null}}\n";
        let s = load_scenario(text).unwrap();
        let again = load_scenario(&s.to_yaml().unwrap()).unwrap();
        assert_eq!(s, again);
        let c = s.cluster.unwrap();
        assert!(
            !c.compute_upgradeable
                && c.admin_gates.is_none()
                && c.admin_acks == Some(Default::default())
        );
    }
}
