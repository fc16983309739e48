//! What the CVO logs and history say about work: sync passes, precondition failures, CVO
//! container instances, and `status.history` merged across snapshots.

use super::catalogue::text::PreconditionCheck;
use super::evidence::Evidence;
use crate::model::{ReleaseName, Time};
use serde::Serialize;

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

/// One precondition failure seen in the CVO log: the failed check (the one type the catalogue
/// reads from any text) at a time, with its line. Written flat, `{time, name, reason, message,
/// evidence}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PreconditionFailure {
    pub time: Time,
    #[serde(flatten)]
    pub check: PreconditionCheck,
    /// The log line (written as a one-item list: evidence is a list in every document).
    #[serde(serialize_with = "one_item_list")]
    pub evidence: Evidence,
}

/// One piece of evidence written as a list of one.
fn one_item_list<S: serde::Serializer>(e: &Evidence, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(std::slice::from_ref(e), s)
}

/// One CVO sync pass, from its start line to `Result of work` (or the failure, or the next
/// pass, or the end of the log).
#[derive(Debug, Clone, Serialize)]
pub struct Pass {
    /// The CVO pod whose log this is, and whether it was the previous container instance.
    pub pod: String,
    pub previous_log: bool,
    pub start: Time,
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
    pub first_manifest: Option<Time>,
    pub last_manifest: Option<Time>,
    /// `Payload loaded from …` inside the pass (legacy loads happen in the pass).
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
    ReleaseName::new(version, image).is_named_by(label)
}

/// One `status.history` entry merged across every ClusterVersion snapshot, oldest first.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryRecord {
    pub version: String,
    pub image: String,
    /// The state in the newest snapshot that has this entry.
    pub state: String,
    pub started: Option<Time>,
    pub completion: Option<Time>,
    pub verified: bool,
    /// Every distinct completionTime seen for this entry across snapshots, oldest snapshot
    /// first (more than one value means the time was rewritten).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub completion_rewrites: Vec<String>,
    pub evidence: Vec<Evidence>,
}

impl HistoryRecord {
    /// Its version and image.
    pub fn name(&self) -> ReleaseName<'_> {
        ReleaseName::new(&self.version, &self.image)
    }
    /// `version` when set, else `image`.
    pub fn label(&self) -> &str {
        self.name().label()
    }
    /// Whether this entry and `other` name the same release (same image, or same non-empty
    /// version).
    pub fn same_release_as(&self, other: &HistoryRecord) -> bool {
        self.name().same_as(other.name())
    }
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
    pub start: Time,
    pub end: Time,
    /// `successfully acquired lease …`.
    pub leader: Option<Time>,
    /// The first shutdown line.
    pub shutdown: Option<Time>,
    /// The first sync pass start.
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

/// One load-pipeline result from a CVO log (see [`crate::timeline::LoadFact`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LoadRecord {
    pub time: Time,
    pub fact: super::catalogue::LoadFact,
    pub evidence: Evidence,
}

/// A `merge into existing history completed=… desired=…` line where what it says changed
/// from the previous one in the same log: the status sync that first merged a release, and
/// the one that first found it completed (and wrote `history[0].completionTime`).
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryMergeRecord {
    pub time: Time,
    pub merge: super::catalogue::HistoryMerge,
    pub evidence: Evidence,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Provenance;

    #[test]
    fn a_logged_precondition_failure_is_written_flat_as_before() {
        let f = PreconditionFailure {
            time: crate::vocab::time::parse_rfc3339("2020-04-09T18:28:19Z").unwrap(),
            check: PreconditionCheck::logged(
                "ClusterVersionUpgradeable",
                Some("AdminAckRequired"),
                "Kubernetes 1.22 removes APIs".into(),
            ),
            evidence: Evidence::new(Provenance::detached("mg", "current.log"), "line"),
        };
        let text = serde_json::to_string(&f).unwrap();
        assert!(
            text.starts_with(
                r#"{"time":"2020-04-09T18:28:19.000Z","name":"ClusterVersionUpgradeable","reason":"AdminAckRequired","message":"Kubernetes 1.22 removes APIs","evidence":[{"#
            ),
            "{text}"
        );
        // Without a reason the key is left out, and an empty message is still written.
        let bare = PreconditionFailure {
            check: PreconditionCheck::logged("EtcdRecentBackup", None, String::new()),
            ..f
        };
        let json = serde_json::to_value(&bare).unwrap();
        assert!(json.get("reason").is_none());
        assert_eq!(json["message"], "");
    }
}
