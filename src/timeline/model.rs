//! The timeline's data types: events, evidence, CVO sync passes, merged history, episodes and
//! their milestones. Everything here is `Serialize` with stable, deliberate field names (the
//! `mglint/v1` timeline JSON is built from these types).

use crate::model::{Provenance, Time};
use serde::{Serialize, Serializer};

/// Serializes a time as RFC3339 UTC, with as many fraction digits as it carries.
pub(crate) fn ser_time<S: Serializer>(t: &Time, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&fmt_rfc3339(t))
}

/// Serializes an optional time (see [`ser_time`]).
pub(crate) fn ser_opt_time<S: Serializer>(t: &Option<Time>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_str(&fmt_rfc3339(t)),
        None => s.serialize_none(),
    }
}

/// RFC3339 UTC with `Z`, fraction digits only when the time has them.
pub fn fmt_rfc3339(t: &Time) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
}

/// Where a piece of evidence was read: a file (and line) plus the text that was there.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Evidence {
    pub prov: Provenance,
    /// The line or field as read (shortened to one line).
    pub text: String,
}

impl Evidence {
    /// Evidence with its text cut to the first line and at most 300 bytes.
    pub fn new(prov: Provenance, text: &str) -> Self {
        Evidence {
            prov,
            text: short(text, 300),
        }
    }
}

/// First line of `s`, cut at `max` bytes on a char boundary (with `…` when cut).
pub fn short(s: &str, max: usize) -> String {
    let first = s.lines().next().unwrap_or("");
    let more = s.contains('\n');
    if first.len() <= max && !more {
        return first.to_string();
    }
    let mut end = first.len().min(max);
    while !first.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &first[..end])
}

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
    /// Short name as used on the command line and in the table.
    pub fn name(self) -> &'static str {
        match self {
            EventSource::ClusterVersion => "cluster-version",
            EventSource::ClusterOperator => "cluster-operator",
            EventSource::Node => "node",
            EventSource::MachineConfigPool => "machine-config-pool",
            EventSource::Pod => "pod",
            EventSource::KubeEvent => "kube-event",
            EventSource::CvoLog => "cvo-log",
            EventSource::Interval => "interval",
            EventSource::TestLog => "test-log",
            EventSource::Junit => "junit",
            EventSource::Prow => "prow",
        }
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
    ContainerState { state: String, restarts: i64 },
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
    PayloadRejected { step: String },
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
        #[serde(skip_serializing_if = "Option::is_none")]
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

    /// The identity of the fact, for merging the same fact read from two files. Facts that
    /// different sources word differently use a key without the source-specific details.
    pub fn fact_key(&self) -> String {
        let img_or = |image: &str, version: &str| {
            if image.is_empty() {
                version.to_string()
            } else {
                image.to_string()
            }
        };
        match self {
            EventKind::ConditionTransition {
                condition, status, ..
            } => {
                format!("cond/{condition}/{status}")
            }
            EventKind::PayloadRetrieve { version, image } => {
                format!("retrieve/{}", img_or(image, version))
            }
            EventKind::PayloadVerify { version, image } => {
                format!("verify/{}", img_or(image, version))
            }
            EventKind::PayloadLoaded { version, image } => {
                format!("loaded/{}", img_or(image, version))
            }
            EventKind::PreconditionFailed { name, .. } => format!("precondition/{name}"),
            EventKind::PreconditionWarning { name } => format!("precondition-warn/{name}"),
            EventKind::UpgradeStarted { .. } => "upgrade-started".into(),
            EventKind::UpgradeComplete { .. } => "upgrade-complete".into(),
            EventKind::UpgradeRollback { .. } => "upgrade-rollback".into(),
            EventKind::UpgradeFailed { .. } => "upgrade-failed".into(),
            EventKind::NodeLifecycle { phase } => format!("node/{phase}"),
            EventKind::LeaderAcquired => "leader".into(),
            EventKind::PayloadRejected { step } => format!("rejected/{step}"),
            other => format!("{other:?}"),
        }
    }
}

/// One thing that happened, at one instant, with the files that say so.
#[derive(Debug, Clone, Serialize)]
pub struct TimelineEvent {
    #[serde(serialize_with = "ser_time")]
    pub time: Time,
    pub source: EventSource,
    /// What it is about: `clusterversion/version`, `clusteroperator/<name>`, `node/<name>`,
    /// `machineconfigpool/<name>`, `cvo-pod/<name>`, `e2e`, `prow`.
    pub subject: String,
    #[serde(flatten)]
    pub kind: EventKind,
    /// One line saying what happened.
    pub message: String,
    /// Every file and line where this fact was read (two or more after merging).
    pub evidence: Vec<Evidence>,
}

impl TimelineEvent {
    pub fn new(
        time: Time,
        source: EventSource,
        subject: impl Into<String>,
        kind: EventKind,
        message: impl Into<String>,
        evidence: Evidence,
    ) -> Self {
        TimelineEvent {
            time,
            source,
            subject: subject.into(),
            kind,
            message: message.into(),
            evidence: vec![evidence],
        }
    }
}

/// How a sync pass started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PassStyle {
    /// `Running sync <target> (force=…) on generation N in state S at attempt A` (≤4.8):
    /// the target is the *requested* release, loaded inside the pass.
    RunningSync,
    /// `apply: <version> on generation N in state S at attempt A` (4.9+): the target is the
    /// *loaded* payload's release.
    Apply,
}

/// One precondition failure seen in the CVO log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PreconditionFailure {
    #[serde(serialize_with = "ser_time")]
    pub time: Time,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub message: String,
    pub evidence: Evidence,
}

/// One CVO sync pass, from its start line to `Result of work` (or the failure, or the next
/// pass, or the end of the log).
#[derive(Debug, Clone, Serialize)]
pub struct Pass {
    /// The CVO pod whose log this is, and whether it was the previous container instance.
    pub pod: String,
    pub previous_log: bool,
    #[serde(serialize_with = "ser_time")]
    pub start: Time,
    #[serde(serialize_with = "ser_opt_time")]
    pub end: Option<Time>,
    pub style: PassStyle,
    /// The release named on the start line (version, or image when the version is empty).
    pub target: String,
    pub force: Option<bool>,
    pub generation: Option<i64>,
    /// `Initializing`, `Updating` or `Reconciling`.
    pub state: String,
    pub attempt: u32,
    /// Distinct manifests with a `Done syncing for` line, and the highest `i` of `(i of n)`.
    pub manifests_done: u32,
    pub manifests_started: u32,
    pub max_index: u32,
    pub total: Option<u32>,
    #[serde(serialize_with = "ser_opt_time")]
    pub first_manifest: Option<Time>,
    #[serde(serialize_with = "ser_opt_time")]
    pub last_manifest: Option<Time>,
    /// `Payload loaded from …` inside the pass (legacy loads happen in the pass).
    #[serde(serialize_with = "ser_opt_time")]
    pub payload_loaded: Option<Time>,
    /// `Some(true)` for `Result of work: []`, `Some(false)` with errors, `None` when the pass
    /// never reached the task graph (for example a failed payload load).
    pub ok: Option<bool>,
    pub errors: Vec<String>,
    pub precondition_failures: Vec<PreconditionFailure>,
    /// `unable to synchronize image (waiting …): <summary>` after the pass.
    pub sync_error: Option<String>,
    /// The start line (and the result line when seen).
    pub evidence: Vec<Evidence>,
}

impl Pass {
    /// Whether the pass reconciled (or at least started on) any manifest.
    pub fn touched_manifests(&self) -> bool {
        self.manifests_started > 0 || self.manifests_done > 0
    }

    /// A pass that never got to its manifests and failed before them: payload load,
    /// verification or preconditions.
    pub fn stuck_before_manifests(&self) -> bool {
        !self.touched_manifests()
            && self.ok.is_none()
            && (!self.precondition_failures.is_empty() || self.sync_error.is_some())
    }

    /// Whether this pass's target names the given release (by version or image).
    pub fn targets(&self, version: &str, image: &str) -> bool {
        same_release(&self.target, version, image)
    }
}

/// Whether `label` (a version or an image, as the CVO prints them) names the release
/// `version`/`image`.
pub fn same_release(label: &str, version: &str, image: &str) -> bool {
    !label.is_empty() && (label == version || label == image)
}

/// One `status.history` entry merged across every ClusterVersion snapshot, oldest first.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryRecord {
    pub version: String,
    pub image: String,
    /// The state in the newest snapshot that has this entry.
    pub state: String,
    #[serde(serialize_with = "ser_opt_time")]
    pub started: Option<Time>,
    #[serde(serialize_with = "ser_opt_time")]
    pub completion: Option<Time>,
    pub verified: bool,
    /// Every distinct completionTime seen for this entry across snapshots, oldest snapshot
    /// first (more than one value means the time was rewritten).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub completion_rewrites: Vec<String>,
    pub evidence: Vec<Evidence>,
}

impl HistoryRecord {
    /// `version` when set, else `image`.
    pub fn label(&self) -> &str {
        if self.version.is_empty() {
            &self.image
        } else {
            &self.version
        }
    }
    /// Whether this entry and `other` name the same release (same image, or same non-empty
    /// version).
    pub fn same_release_as(&self, other: &HistoryRecord) -> bool {
        (!self.image.is_empty() && self.image == other.image)
            || (!self.version.is_empty() && self.version == other.version)
    }
}

/// Why the CVO stalled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StallCause {
    /// One or more preconditions failed for the target.
    PreconditionFailed,
    /// The target's payload could not be retrieved or loaded.
    PayloadRetrieval,
    /// The target's signature could not be verified.
    PayloadVerification,
    /// Passes failed before any manifest and the log does not say why.
    Unknown,
}

/// The kind of a derived episode.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum EpisodeKind {
    /// The initial install (the oldest history entry, or `Initializing` passes).
    Install { version: String },
    /// An update from one release to another (one history entry over its predecessor).
    Update { from: String, to: String },
    /// A→B→A where B was never accepted or applied.
    Cancel { from: String, to: String },
    /// A→B→A where B was accepted or partly applied (or CI says rollback).
    Rollback { from: String, to: String },
    /// A span in which the CVO ran but reconciled no manifest of the running release.
    Stall { cause: StallCause, detail: String },
    /// A CVO container restart or pod replacement.
    CvoRestart {
        pod: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        previous_pod: Option<String>,
        cause: String,
    },
    /// A span in which no CVO instance held the leader lease, per the logs read.
    Unmanaged { cause: String },
}

/// [`EpisodeKind`] without its data, for queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EpisodeTag {
    Install,
    Update,
    Cancel,
    Rollback,
    Stall,
    CvoRestart,
    Unmanaged,
}

impl EpisodeKind {
    pub fn tag(&self) -> EpisodeTag {
        match self {
            EpisodeKind::Install { .. } => EpisodeTag::Install,
            EpisodeKind::Update { .. } => EpisodeTag::Update,
            EpisodeKind::Cancel { .. } => EpisodeTag::Cancel,
            EpisodeKind::Rollback { .. } => EpisodeTag::Rollback,
            EpisodeKind::Stall { .. } => EpisodeTag::Stall,
            EpisodeKind::CvoRestart { .. } => EpisodeTag::CvoRestart,
            EpisodeKind::Unmanaged { .. } => EpisodeTag::Unmanaged,
        }
    }
}

/// A named moment inside an episode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MilestoneKind {
    /// The update as recorded by the CVO (history startedTime), else the first evidence.
    Requested,
    /// The earliest evidence of the new target in logs, events or CI (may precede Requested).
    FirstSeen,
    /// The target's payload was loaded (accepted).
    Accepted,
    /// The first manifest of the target was applied.
    FirstManifest,
    /// The update or install completed.
    Completed,
    /// The update was left for another target (history completionTime of a Partial entry).
    Abandoned,
    /// What history claims as completion when other evidence contradicts it.
    ClaimedCompleted,
    /// An upper bound: it had finished by then (see [`Bound`]).
    FinishedBefore,
    /// CI: the upgrade test started the upgrade.
    CiStarted,
    /// CI: the upgrade test saw it complete.
    CiCompleted,
}

/// A moment in an episode with its evidence.
#[derive(Debug, Clone, Serialize)]
pub struct Milestone {
    pub kind: MilestoneKind,
    #[serde(serialize_with = "ser_time")]
    pub time: Time,
    pub evidence: Vec<Evidence>,
}

/// Evidence that something had finished by `before` (e.g. the e2e test was already waiting
/// for nodes), compared with what history claims.
#[derive(Debug, Clone, Serialize)]
pub struct Bound {
    #[serde(serialize_with = "ser_time")]
    pub before: Time,
    /// What `status.history` claims, when it claims something.
    #[serde(serialize_with = "ser_opt_time")]
    pub claimed: Option<Time>,
    /// The earliest evidence first.
    pub evidence: Vec<Evidence>,
}

impl Bound {
    /// Whether the claim is later than the bound allows (more than 1 s of slack for the
    /// API's second granularity).
    pub fn contradicts_claim(&self) -> bool {
        self.claimed
            .is_some_and(|c| c > self.before + chrono::Duration::seconds(1))
    }
}

/// A derived stretch of time with meaning (install, update, stall…).
#[derive(Debug, Clone, Serialize)]
pub struct Episode {
    #[serde(flatten)]
    pub kind: EpisodeKind,
    #[serde(serialize_with = "ser_time")]
    pub start: Time,
    /// `None` while open (still going at the end of the data).
    #[serde(serialize_with = "ser_opt_time")]
    pub end: Option<Time>,
    /// The release whose manifests were actually being reconciled, as far as the evidence
    /// shows (may differ from `status.desired`); `None` when no log covers the span.
    pub running_release: Option<String>,
    /// The release the CVO was asked to move to, if any.
    pub target_release: Option<String>,
    pub summary: String,
    pub milestones: Vec<Milestone>,
    /// The bound on the end, when other evidence limits it (install only, for now).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_before: Option<Bound>,
    pub evidence: Vec<Evidence>,
}

impl Episode {
    pub fn tag(&self) -> EpisodeTag {
        self.kind.tag()
    }
    /// The first milestone of a kind.
    pub fn milestone(&self, kind: MilestoneKind) -> Option<&Milestone> {
        self.milestones.iter().find(|m| m.kind == kind)
    }
    /// Whether `t` lies inside the episode (an open episode extends forever).
    pub fn contains(&self, t: Time) -> bool {
        t >= self.start && self.end.is_none_or(|e| t <= e)
    }
}

/// A stretch in which the running release was not being reconciled.
#[derive(Debug, Clone, Serialize)]
pub struct Span {
    #[serde(serialize_with = "ser_time")]
    pub start: Time,
    #[serde(serialize_with = "ser_opt_time")]
    pub end: Option<Time>,
    pub reason: String,
}

/// One CVO container instance as seen in one log file (a new start-up banner in the same
/// file starts a new instance).
#[derive(Debug, Clone, Serialize)]
pub struct Instance {
    pub pod: String,
    pub previous_log: bool,
    /// The banner's build string (`ClusterVersionOperator <build>`), when seen.
    pub build: Option<String>,
    /// The banner (or first record) and the last record.
    #[serde(serialize_with = "ser_time")]
    pub start: Time,
    #[serde(serialize_with = "ser_time")]
    pub end: Time,
    /// `successfully acquired lease …`.
    #[serde(serialize_with = "ser_opt_time")]
    pub leader: Option<Time>,
    /// The first shutdown line.
    #[serde(serialize_with = "ser_opt_time")]
    pub shutdown: Option<Time>,
    /// The first sync pass start.
    #[serde(serialize_with = "ser_opt_time")]
    pub first_pass: Option<Time>,
    pub start_evidence: Evidence,
    pub end_evidence: Evidence,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leader_evidence: Option<Evidence>,
}

impl Instance {
    /// When this instance started doing work: the lease, else its first pass.
    pub fn leading_from(&self) -> Option<Time> {
        self.leader.or(self.first_pass)
    }
}
