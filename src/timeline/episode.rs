//! Derived episodes (install, update, cancel, rollback, stall, CVO restart, unmanaged), their
//! milestones, evidence bounds and spans.

use super::evidence::Evidence;
use crate::model::Time;
use serde::Serialize;

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
    pub time: Time,
    pub evidence: Vec<Evidence>,
}

/// Evidence that something had finished by `before` (e.g. the e2e test was already waiting
/// for nodes), compared with what history claims.
#[derive(Debug, Clone, Serialize)]
pub struct Bound {
    pub before: Time,
    /// What `status.history` claims, when it claims something.
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
    pub start: Time,
    /// `None` while open (still going at the end of the data).
    pub end: Option<Time>,
    /// The release whose manifests were actually being reconciled, as far as the evidence
    /// shows (may differ from `status.desired`); `None` when no log covers the span.
    pub running_release: Option<String>,
    /// The release the CVO was asked to move to, if any.
    pub target_release: Option<String>,
    pub summary: String,
    /// Where `summary`'s first `; ` clause starts (its headline, what a chart names the
    /// episode by, is what comes before); `None` when it has none. Not written: the summary
    /// holds it.
    #[serde(skip)]
    pub headline_len: Option<usize>,
    pub milestones: Vec<Milestone>,
    /// The bound on the end, when other evidence limits it (install only, for now).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_before: Option<Bound>,
    pub evidence: Vec<Evidence>,
}

impl Episode {
    /// The summary's headline, before its first `; ` clause.
    pub fn headline(&self) -> &str {
        self.headline_len
            .and_then(|n| self.summary.get(..n))
            .unwrap_or(&self.summary)
    }
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
    pub start: Time,
    pub end: Option<Time>,
    pub reason: String,
}
