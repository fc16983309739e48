//! What a status sync reads: the sync worker's status snapshot ([`WorkerStatus`] with its
//! [`LoadStatus`]), the rest of the sync's input ([`SyncInput`], [`RiskStatus`]), and the two
//! release identities the worker and the status sync share (`versionStringFromRelease`,
//! `equalDigest`). A leaf: the worker writes these, the status sync and its parts read them.

use super::capabilities::CapabilitiesStatus;
use super::errors::Failure;
use super::risks::{RiskConditions, SourceRisks};
use super::semantics::Semantics;
use crate::model::{Release, Time};
use std::collections::BTreeMap;

/// The payload-load pipeline's report (`loadPayloadStatus`, cvo-reference §3.5).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoadStatus {
    /// The step the pipeline reached (`ReleaseAccepted`'s reason); `None` before the first load.
    pub step: Option<crate::model::LoadStep>,
    pub message: String,
    pub failure: bool,
    /// The target the report is about.
    pub update: Release,
    pub accepted_risks: String,
    pub local: bool,
}

/// The sync worker's status snapshot (`SyncWorkerStatus`, cvo-reference §2).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorkerStatus {
    pub generation: i64,
    /// The release being applied or reconciled.
    pub actual: Release,
    pub verified: bool,
    pub reconciling: bool,
    pub initial: bool,
    /// Consecutive fully successful passes for this work.
    pub completed: u32,
    pub done: u32,
    pub total: u32,
    pub failure: Option<Failure>,
    pub version_hash: String,
    pub last_progress: Option<Time>,
    /// Legacy apply-loop step; `RetrievePayload` while the target is being downloaded.
    pub step: String,
    pub load: LoadStatus,
    pub implicitly_enabled: Vec<String>,
    /// `status.capabilities` as the worker reports it (4.11+; `None` before it has work).
    pub capabilities: Option<CapabilitiesStatus>,
}

/// Everything a status sync reads besides the old status.
#[derive(Debug, Clone, Copy)]
pub struct SyncInput<'a> {
    pub sem: &'a Semantics,
    /// The CVO pod's own release.
    pub operator_release: &'a Release,
    pub worker: &'a WorkerStatus,
    /// Field errors from spec validation (`Invalid`).
    pub validation_errors: &'a [String],
    /// The update service's node for the running release (`availableUpdates.Current`).
    pub update_service_current: Option<&'a Release>,
    /// When this CVO process first saw each ClusterOperator updating.
    pub co_update_started: &'a BTreeMap<String, Time>,
    pub now: Time,
    /// Some while the CVO reconciles accepted risks (4.22+ with `ClusterUpdateAcceptRisks`):
    /// its cached, evaluated update service answer.
    pub risk_status: Option<RiskStatus<'a>>,
    /// 4.23+: the Upgradeable risk sources' answer (`setUpgradeableCondition`).
    pub upgradeable_risks: Option<&'a SourceRisks>,
}

/// The available-updates cache as `updateClusterVersionStatus` reads it with accept risks on.
#[derive(Debug, Clone, Copy, Default)]
pub struct RiskStatus<'a> {
    /// `None`: no answer cached yet (the status's conditional updates are used).
    pub updates: Option<&'a [Release]>,
    pub conditional: Option<&'a [crate::model::ConditionalUpdate]>,
    pub risk_conditions: Option<&'a RiskConditions>,
}

/// `versionStringFromRelease`: version, else image, else `<unknown>`.
pub fn version_string(r: &Release) -> String {
    if !r.version.is_empty() {
        r.version.clone()
    } else if !r.image.is_empty() {
        r.image.clone()
    } else {
        "<unknown>".into()
    }
}

/// `equalDigest`: the same pull-spec, or the same digest.
pub fn equal_digest(a: &str, b: &str) -> bool {
    let digest = |s: &str| {
        let mut parts = s.splitn(3, '@');
        match (parts.next(), parts.next(), parts.next()) {
            (Some(_), Some(d), None) => d.to_string(),
            _ => String::new(),
        }
    };
    a == b || (!digest(a).is_empty() && digest(a) == digest(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_compare_across_pull_specs() {
        assert!(equal_digest("a/b@sha256:1", "c/d@sha256:1"));
        assert!(equal_digest("a/b:tag", "a/b:tag"));
        assert!(!equal_digest("a/b:tag", "c/d:tag"));
        assert!(!equal_digest("a/b@sha256:1", "a/b@sha256:2"));
    }
}
