//! The timeline's data types: events, and the time formatting they share (their evidence is
//! in `evidence`, their subject in `subject`, passes and history in `pass`, episodes in
//! `episode`, all re-exported here). Everything is
//! `Serialize` with stable, deliberate field names: the timeline JSON (`mglint/timeline/v2`) is built
//! from these types.

use crate::model::Time;
use crate::vocab::object::ObjectRef;
pub use crate::vocab::text::one_line;
use serde::Serialize;
use std::collections::BTreeMap;

pub use crate::vocab::time::{fmt_k8s, fmt_ms, fmt_short};

pub use super::episode::*;
pub use super::evidence::Evidence;
pub use super::pass::*;
pub use super::subject::Subject;

/// Which kind of input an event was read from. The declaration order is the merge rank:
/// at equal times, resource status comes first, then events, logs and CI records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventSource {
    ClusterVersion,
    ClusterOperator,
    Node,
    MachineConfigPool,
    /// The CVO pod objects (`openshift-cluster-version` pods).
    Pod,
    KubeEvent,
    CvoLog,
    Interval,
    TestLog,
    Junit,
    Prow,
}

impl EventSource {
    /// Short name as used on the command line and in the table (serde's).
    pub fn name(self) -> &'static str {
        crate::vocab::names::serde_name(&self)
    }

    /// Parses a source name (also accepts a few short aliases: `cv`, `co`, `mcp`, `event`, `log`).
    pub fn parse(s: &str) -> Option<Self> {
        let all = [
            EventSource::ClusterVersion,
            EventSource::ClusterOperator,
            EventSource::Node,
            EventSource::MachineConfigPool,
            EventSource::Pod,
            EventSource::KubeEvent,
            EventSource::CvoLog,
            EventSource::Interval,
            EventSource::TestLog,
            EventSource::Junit,
            EventSource::Prow,
        ];
        let s = s.trim().to_ascii_lowercase();
        let alias = match s.as_str() {
            "cv" | "clusterversion" => Some(EventSource::ClusterVersion),
            "co" | "clusteroperator" => Some(EventSource::ClusterOperator),
            "mcp" | "pool" => Some(EventSource::MachineConfigPool),
            "event" | "events" => Some(EventSource::KubeEvent),
            "log" | "cvo" => Some(EventSource::CvoLog),
            "intervals" => Some(EventSource::Interval),
            "monitor" => Some(EventSource::TestLog),
            _ => None,
        };
        alias.or_else(|| all.into_iter().find(|k| k.name() == s))
    }
}

/// What happened. Variants with data carry the parsed fields; the human text is in
/// [`TimelineEvent::message`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum EventKind {
    /// A `status.history` entry's `startedTime`.
    HistoryStarted { version: String, image: String },
    /// A Completed `status.history` entry's `completionTime`.
    HistoryCompleted { version: String, image: String },
    /// A Partial entry's `completionTime`: the update was left for another target.
    HistoryAbandoned { version: String, image: String },
    /// A condition changed (lastTransitionTime, monitor line or interval).
    ConditionTransition {
        condition: String,
        status: String,
        #[serde(skip_serializing_if = "String::is_empty")]
        reason: String,
    },
    /// `spec.desiredUpdate` as seen in a snapshot, or `Desired version from spec is …` in the log.
    DesiredUpdateSeen {
        version: String,
        image: String,
        force: bool,
    },
    /// A ClusterVersion snapshot at collection time: what `status.desired` said and whether the
    /// spec generation had been observed.
    Snapshot {
        desired: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        generation: Option<i64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        observed_generation: Option<i64>,
    },
    /// A ClusterOperator's `versions[name=operator]` (as of the dump).
    OperatorVersion { version: String },
    /// A CVO container started (log banner `ClusterVersionOperator …`).
    PodStart { build: String },
    /// A CVO container start or termination from the Pod object.
    ContainerState {
        state: ContainerPhase,
        restarts: i64,
    },
    /// `Starting ClusterVersionOperator with minimum reconcile period …`.
    ReconcilePeriod { period: String },
    /// The CVO shut down (`Shutting down …`, `Graceful shutdown complete …`).
    Shutdown,
    /// The CVO acquired the leader lease.
    LeaderAcquired,
    /// Start of one sync pass (`Running sync …` ≤4.8, `apply: …` 4.9+).
    PassStart {
        target: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        generation: Option<i64>,
        state: String,
        attempt: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        force: Option<bool>,
    },
    /// End of one sync pass (`Result of work: …`).
    PassResult {
        target: String,
        ok: bool,
        errors: Vec<String>,
    },
    /// The first manifest a pass worked on (`Running sync for … (i of n)`).
    FirstManifest {
        target: String,
        manifest: String,
        index: u32,
        total: u32,
    },
    /// `RetrievePayload` event.
    PayloadRetrieve { version: String, image: String },
    /// `VerifyPayload` event.
    PayloadVerify { version: String, image: String },
    /// `Loading payload` (log) or `LoadPayload` event.
    PayloadLoading { target: String },
    /// `Payload loaded from …` (log) or `PayloadLoaded` event: the target was accepted.
    PayloadLoaded { version: String, image: String },
    /// The load pipeline rejected the target (retrieval, load, version check).
    PayloadRejected { step: crate::model::LoadStep },
    /// A precondition failed (`Precondition "X" failed: …`, `PreconditionBlock` event…).
    PreconditionFailed {
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// A precondition failure that did not block (forced or a warning).
    PreconditionWarning { name: String },
    /// `PreconditionsPassed` event.
    PreconditionsPassed,
    /// `syncPayload: <target> (force=…)` (4.9+), logged when the target changes.
    SyncPayload { target: String, force: bool },
    /// `unable to synchronize image (waiting …): …`: a pass failed.
    SyncFailed { wait: String },
    /// `Work changed, transitioning from S to Updating`.
    WorkChanged { from_state: String },
    /// `Sync succeeded, transitioning from S to Reconciling`.
    SyncSucceeded { from_state: String },
    /// `must add a new history entry …` / `initialize new history …`.
    HistoryPush { version: String, image: String },
    /// CI: the upgrade test started an upgrade (interval or event `UpgradeStarted`).
    UpgradeStarted { version: String, image: String },
    /// CI: `UpgradeComplete` (or `Completed upgrade to …`).
    UpgradeComplete { version: String, image: String },
    /// CI: `UpgradeRollback`.
    UpgradeRollback { version: String, image: String },
    /// CI: `UpgradeFailed`.
    UpgradeFailed { version: String, image: String },
    /// A node lifecycle step (drain, reboot, OS update, not ready…).
    NodeLifecycle { phase: String },
    /// Any other Kubernetes event kept for context.
    KubeEvent {
        reason: String,
        event_type: String,
        count: i64,
    },
    /// Any other monitor line about the cluster version, an operator or a node.
    Monitor { level: String },
    /// The first line the e2e framework wrote (the test started).
    E2eOutputStart,
    /// `Waiting up to … for all (but N) nodes to be schedulable`.
    E2eWaitingForNodes { timeout: String },
    /// An e2e test interval started.
    TestStart { test: String },
    /// An e2e test interval ended.
    TestEnd { test: String, status: String },
    /// A JUnit test result (placed at the job's end: JUnit has durations, not start times).
    JunitResult {
        test: String,
        status: String,
        /// The case's duration in whole seconds (JUnit's `time`, rounded).
        #[serde(
            rename = "duration_seconds",
            skip_serializing_if = "Option::is_none",
            serialize_with = "whole_seconds"
        )]
        duration_secs: Option<f64>,
    },
    /// The Prow job started.
    ProwStart { job: String },
    /// The Prow job finished.
    ProwEnd {
        job: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        passed: Option<bool>,
        result: String,
    },
}

impl EventKind {
    /// The kebab-case name of the variant (as in JSON `kind`).
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::HistoryStarted { .. } => "history-started",
            EventKind::HistoryCompleted { .. } => "history-completed",
            EventKind::HistoryAbandoned { .. } => "history-abandoned",
            EventKind::ConditionTransition { .. } => "condition-transition",
            EventKind::DesiredUpdateSeen { .. } => "desired-update-seen",
            EventKind::Snapshot { .. } => "snapshot",
            EventKind::OperatorVersion { .. } => "operator-version",
            EventKind::PodStart { .. } => "pod-start",
            EventKind::ContainerState { .. } => "container-state",
            EventKind::ReconcilePeriod { .. } => "reconcile-period",
            EventKind::Shutdown => "shutdown",
            EventKind::LeaderAcquired => "leader-acquired",
            EventKind::PassStart { .. } => "pass-start",
            EventKind::PassResult { .. } => "pass-result",
            EventKind::FirstManifest { .. } => "first-manifest",
            EventKind::PayloadRetrieve { .. } => "payload-retrieve",
            EventKind::PayloadVerify { .. } => "payload-verify",
            EventKind::PayloadLoading { .. } => "payload-loading",
            EventKind::PayloadLoaded { .. } => "payload-loaded",
            EventKind::PayloadRejected { .. } => "payload-rejected",
            EventKind::PreconditionFailed { .. } => "precondition-failed",
            EventKind::PreconditionWarning { .. } => "precondition-warning",
            EventKind::PreconditionsPassed => "preconditions-passed",
            EventKind::SyncPayload { .. } => "sync-payload",
            EventKind::SyncFailed { .. } => "sync-failed",
            EventKind::WorkChanged { .. } => "work-changed",
            EventKind::SyncSucceeded { .. } => "sync-succeeded",
            EventKind::HistoryPush { .. } => "history-push",
            EventKind::UpgradeStarted { .. } => "upgrade-started",
            EventKind::UpgradeComplete { .. } => "upgrade-complete",
            EventKind::UpgradeRollback { .. } => "upgrade-rollback",
            EventKind::UpgradeFailed { .. } => "upgrade-failed",
            EventKind::NodeLifecycle { .. } => "node-lifecycle",
            EventKind::KubeEvent { .. } => "kube-event",
            EventKind::Monitor { .. } => "monitor",
            EventKind::E2eOutputStart => "e2e-output-start",
            EventKind::E2eWaitingForNodes { .. } => "e2e-waiting-for-nodes",
            EventKind::TestStart { .. } => "test-start",
            EventKind::TestEnd { .. } => "test-end",
            EventKind::JunitResult { .. } => "junit-result",
            EventKind::ProwStart { .. } => "prow-start",
            EventKind::ProwEnd { .. } => "prow-end",
        }
    }

    /// Writes the identity of the fact, for merging the same fact read from two files, to
    /// `out`. Facts that different sources word differently use a key without the
    /// source-specific details.
    pub fn write_fact_key(&self, out: &mut String) {
        use std::fmt::Write;
        fn img_or<'a>(image: &'a str, version: &'a str) -> &'a str {
            if image.is_empty() { version } else { image }
        }
        let _ = match self {
            EventKind::ConditionTransition {
                condition, status, ..
            } => write!(out, "cond/{condition}/{status}"),
            EventKind::PayloadRetrieve { version, image } => {
                write!(out, "retrieve/{}", img_or(image, version))
            }
            EventKind::PayloadVerify { version, image } => {
                write!(out, "verify/{}", img_or(image, version))
            }
            EventKind::PayloadLoaded { version, image } => {
                write!(out, "loaded/{}", img_or(image, version))
            }
            EventKind::PreconditionFailed { name, .. } => write!(out, "precondition/{name}"),
            EventKind::PreconditionWarning { name } => write!(out, "precondition-warn/{name}"),
            EventKind::UpgradeStarted { .. } => out.write_str("upgrade-started"),
            EventKind::UpgradeComplete { .. } => out.write_str("upgrade-complete"),
            EventKind::UpgradeRollback { .. } => out.write_str("upgrade-rollback"),
            EventKind::UpgradeFailed { .. } => out.write_str("upgrade-failed"),
            EventKind::NodeLifecycle { phase } => write!(out, "node/{phase}"),
            EventKind::LeaderAcquired => out.write_str("leader"),
            EventKind::PayloadRejected { step } => write!(out, "rejected/{}", step.as_str()),
            // The three kinds of every sync pass (most of a long log's events): their fields,
            // each string after its length, after a NUL no other key starts with. Equal
            // exactly when the fields are, as their `Debug` texts are.
            EventKind::PassStart {
                target,
                generation,
                state,
                attempt,
                force,
            } => write!(
                out,
                "\0S{}:{target}{}:{state}{attempt};{generation:?};{force:?}",
                target.len(),
                state.len()
            ),
            EventKind::PassResult { target, ok, errors } => {
                let _ = write!(out, "\0R{}:{target}{ok};{};", target.len(), errors.len());
                errors
                    .iter()
                    .try_for_each(|e| write!(out, "{}:{e}", e.len()))
            }
            EventKind::FirstManifest {
                target,
                manifest,
                index,
                total,
            } => write!(
                out,
                "\0F{}:{target}{}:{manifest}{index};{total}",
                target.len(),
                manifest.len()
            ),
            other => write!(out, "{other:?}"),
        };
    }
}

/// What a CVO pod's container status says happened to a container: running since, or (its
/// last state) a previous container started or terminated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ContainerPhase {
    Running,
    Started,
    Terminated,
}

impl ContainerPhase {
    /// `running`, `started`, `terminated`.
    pub fn as_str(self) -> &'static str {
        crate::vocab::names::serde_name(&self)
    }
}

/// One thing that happened, at one instant, with the files that say so. Written with its
/// subject as an `object` (`{kind, namespace, name}`, as findings name theirs).
#[derive(Debug, Clone)]
pub struct TimelineEvent {
    pub time: Time,
    pub source: EventSource,
    /// What it is about.
    pub subject: Subject,
    pub kind: EventKind,
    /// One line saying what happened.
    pub message: String,
    /// Every file and line where this fact was read (two or more after merging).
    pub evidence: Vec<Evidence>,
}

impl TimelineEvent {
    /// What the event is about, as an object reference (see [`Subject::object`]), with a CVO
    /// pod in `cvo_namespace` (a HyperShift hosted cluster's control plane namespace; empty:
    /// `openshift-cluster-version`).
    pub fn object_in(&self, cvo_namespace: &str) -> ObjectRef {
        let (test, job) = match &self.kind {
            EventKind::TestStart { test }
            | EventKind::TestEnd { test, .. }
            | EventKind::JunitResult { test, .. } => (Some(test.as_str()), None),
            EventKind::ProwStart { job } | EventKind::ProwEnd { job, .. } => {
                (None, Some(job.as_str()))
            }
            _ => (None, None),
        };
        self.subject.object(test, job, cvo_namespace)
    }

    /// Writes the event with its CVO pod in `cvo_namespace` (see [`TimelineEvent::object_in`]).
    pub fn serialize_in<S: serde::Serializer>(
        &self,
        cvo_namespace: &str,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Written<'a> {
            time: &'a Time,
            source: EventSource,
            object: ObjectRef,
            #[serde(flatten)]
            kind: &'a EventKind,
            message: &'a str,
            evidence: &'a [Evidence],
        }
        Written {
            time: &self.time,
            source: self.source,
            object: self.object_in(cvo_namespace),
            kind: &self.kind,
            message: &self.message,
            evidence: &self.evidence,
        }
        .serialize(s)
    }

    pub fn new(
        time: Time,
        source: EventSource,
        subject: Subject,
        kind: EventKind,
        message: impl Into<String>,
        evidence: Evidence,
    ) -> Self {
        TimelineEvent {
            time,
            source,
            subject,
            kind,
            message: message.into(),
            evidence: vec![evidence],
        }
    }
}

impl Serialize for TimelineEvent {
    /// The event with its CVO pod in `openshift-cluster-version` (a timeline document
    /// writes it in the cluster's own CVO namespace).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.serialize_in("", s)
    }
}

/// A duration in seconds written as whole seconds (`*_seconds` is an integer in every document).
fn whole_seconds<S: serde::Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        // Rounded to the nearest second; JUnit durations are non-negative and far below i64.
        Some(x) => s.serialize_i64(x.round() as i64),
        None => s.serialize_none(),
    }
}

/// A CI monitor interval with both its ends, as the chart draws it (the events keep only a
/// condition interval's start). Pod, container and e2e-test intervals are not kept: there are
/// thousands in a real job and nothing draws them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonitorSpan {
    pub level: String,
    pub locator: String,
    pub keys: BTreeMap<String, String>,
    /// The interval's reason, else its `reason/` annotation.
    pub reason: String,
    /// `condition`, `status`, `phase`… from the annotations or the v1 message stanzas.
    pub annotations: BTreeMap<String, String>,
    /// The human message, without a leading `changed:`.
    pub message: String,
    pub from: Time,
    /// The end, when it is not before the start.
    pub to: Option<Time>,
    /// Where it was read.
    pub file: String,
}

/// The monitor intervals of a timeline: the drawable spans, and what every interval with a
/// start time contributes to the chart's window.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MonitorSpans {
    pub spans: Vec<MonitorSpan>,
    /// Whether any interval had a start time (the chart then draws conditions from the
    /// intervals instead of the interval events).
    pub any: bool,
    /// The latest end (or start, for an open interval) of any interval.
    pub end: Option<Time>,
}
