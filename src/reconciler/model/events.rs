//! The payloads of the scenario events (pod start, spec change, load outcome, pass progress
//! and result, sync failures, available updates, Upgradeable, and the fake worker status of
//! the CVO's own unit tests), as plain Rust types with their YAML spelling.

use super::capabilities::CapabilitySpec;
use super::errors::{Effect, PreconditionFailure};
use crate::model::Release;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// The release a CVO pod runs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PodStart {
    pub version: String,
    pub image: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub url: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub channels: Vec<String>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub architecture: String,
    /// The payload's manifest hash (status.versionHash).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub hash: String,
}

impl PodStart {
    pub fn release(&self) -> Release {
        Release {
            version: self.version.clone(),
            image: self.image.clone(),
            url: self.url.clone(),
            channels: self.channels.clone(),
            architecture: self.architecture.clone(),
            ..Default::default()
        }
    }
}

/// A requested update (`spec.desiredUpdate`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DesiredUpdate {
    pub version: String,
    pub image: String,
    pub force: bool,
    /// `acceptRisks` (4.22+): the names of the risks the administrator accepts. A desired
    /// update may hold only these (no version or image), which asks for no new release.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accept_risks: Vec<String>,
}

impl DesiredUpdate {
    pub fn release(&self) -> Release {
        Release {
            version: self.version.clone(),
            image: self.image.clone(),
            force: Some(self.force),
            accept_risks: self
                .accept_risks
                .iter()
                .map(|n| crate::model::AcceptRisk { name: n.clone() })
                .collect(),
            ..Default::default()
        }
    }
}

/// `Option<Option<T>>` that tells an explicit `null` (`Some(None)`) from an absent field.
pub(in crate::reconciler) fn double_option<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// A spec change. Absent fields are unchanged; `desired_update: null` clears the target.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SpecChange {
    #[serde(
        deserialize_with = "double_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub desired_update: Option<Option<DesiredUpdate>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream: Option<String>,
    /// The new `spec.clusterID`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_id: Option<String>,
    /// The new metadata.generation (defaults to the old one + 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    /// The new `spec.capabilities` (4.11+).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<CapabilitySpec>,
    /// The new `spec.overrides` (`{kind, group, namespace, name, unmanaged}` each).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overrides: Option<Vec<serde_json::Value>>,
}

/// The load pipeline's steps, the one type the timeline shares.
pub use crate::model::LoadStep;

/// The scripted result of loading the current target. It stays in force for that target
/// (re-checks give the same answer) until another `load_outcome` or a new target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadOutcome {
    /// Scripts the outcome for this image ahead of time (kept across pod restarts) instead of
    /// for the target being loaded now; a later request for it then resolves in the same sync.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub image: String,
    pub step: LoadStep,
    /// Defaults to `step != PayloadLoaded`. `RetrievePayload` without failure means "still
    /// retrieving"; other steps without failure mean the payload loaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<bool>,
    /// UpdateError reason (RetrievePayload: `UpdatePayloadRetrievalFailed` by default, or
    /// `ImageVerificationFailed`, which `force` waives).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Failure text for RetrievePayload, LoadPayload and VerifyPayloadVersion.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// The version the payload declares (fills a by-image request).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// Signature verified (default: the image is by digest and retrieval succeeded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hash: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub architecture: String,
    /// Release metadata of the payload (status.desired url and channels).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub url: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub channels: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preconditions: Vec<PreconditionFailure>,
    /// Capabilities the payload's manifests need that are not enabled
    /// (`GetImplicitlyEnabledCapabilities`; 4.11+).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub implicitly_enabled: Vec<String>,
    /// Which text a forced `ImageVerificationFailed` leaves in acceptedRisks (4.12+).
    #[serde(default, skip_serializing_if = "VerificationRisk::is_wrapped")]
    pub verification_risk: VerificationRisk,
}

/// The acceptedRisks text of a forced update whose signature could not be verified.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VerificationRisk {
    /// Production's retriever (4.11+): `Target release version=… image=… cannot be verified,
    /// but continuing anyway because the update was forced: {verifier error}`.
    #[default]
    Wrapped,
    /// The error handed back as it is, `message` (`The update cannot be verified: …`), as the
    /// fake retriever of the CVO's cvo_scenarios_test.go does.
    Raw,
}

impl VerificationRisk {
    fn is_wrapped(&self) -> bool {
        *self == VerificationRisk::Wrapped
    }
}

impl LoadOutcome {
    /// A successful load.
    pub fn loaded() -> LoadOutcome {
        LoadOutcome {
            image: String::new(),
            step: LoadStep::PayloadLoaded,
            failure: None,
            reason: String::new(),
            message: String::new(),
            version: String::new(),
            verified: None,
            hash: String::new(),
            architecture: String::new(),
            url: String::new(),
            channels: Vec::new(),
            preconditions: Vec::new(),
            implicitly_enabled: Vec::new(),
            verification_risk: VerificationRisk::Wrapped,
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PassProgress {
    pub done: u32,
    pub total: u32,
}

/// One task error at the end of a pass. Without a `reason` it is a plain error (not an
/// `UpdateError`: no reason, no effect), as a failed download or an unexpected API error.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TaskError {
    pub reason: String,
    /// The object (for ClusterOperator reasons, the operator name).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Defaults to the CVO's template for ClusterOperator reasons, else the reason.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Defaults by reason: Updating None, Degraded FailAfterInterval, others Fail.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
}

/// The end of a pass: `ok: true`, or `errors`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PassResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<TaskError>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub done: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u32>,
    /// The pass hit its timeout or was cancelled: its only errors are context errors, which
    /// the CVO drops, so the status keeps the pass's progress without a failure while the
    /// pass counts as failed (attempt + 1, Completed 0).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SyncFailed {
    pub error: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AvailableUpdates {
    pub updates: Vec<Release>,
    /// The update service's node for the running release (`availableUpdates.Current`): its
    /// version, url and channels fill what the reported release lacks (4.6+).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current: Option<Release>,
    /// `status.conditionalUpdates` (4.10+), replaced when given. Given with `risks` or without
    /// `conditions` (or with `risk_matches`), the CVO evaluates them: each risk's `Applies`
    /// and each target's `Recommended` are computed, not taken from here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conditional_updates: Option<Vec<crate::model::ConditionalUpdate>>,
    /// The channel the answer is for (the cache's `Channel`; default: `spec.channel` now). The
    /// CVO writes a cached answer to the status only while it is the spec's channel
    /// (`availableUpdates.NeedsUpdate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// The RetrievedUpdates condition the retrieval set (default `True`, no reason); a known
    /// `False` reason without a message gets the CVO's message (`NoChannel`: "The update
    /// channel has not been configured.").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retrieved: Option<Retrieved>,
    /// How each risk's matching rules evaluate on the cluster: `true`, `false` or `{error:
    /// "..."}` (an `Always` rule needs no entry).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub risk_matches: BTreeMap<String, RiskMatch>,
}

impl AvailableUpdates {
    /// Whether the CVO evaluates the conditional updates (one carries risks or no conditions,
    /// or the scenario says how risks match) rather than the scenario scripting their
    /// conditions.
    pub fn evaluated(&self) -> bool {
        !self.risk_matches.is_empty()
            || self.conditional_updates.as_ref().is_some_and(|c| {
                c.iter()
                    .any(|u| !u.risks.is_empty() || u.conditions.is_empty())
            })
    }
}

/// A RetrievedUpdates outcome of the update service retrieval.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Retrieved {
    /// `True` or `False` (default `False` when a reason is given, else `True`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub status: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
}

impl Retrieved {
    /// The condition's status, reason and message, with the CVO's text for a known reason.
    pub fn condition(&self) -> (String, String, String) {
        let status = match (self.status.as_str(), self.reason.is_empty()) {
            ("", true) => "True",
            ("", false) => "False",
            (s, _) => s,
        };
        let message = match (self.message.is_empty(), self.reason.as_str()) {
            (false, _) => self.message.as_str(),
            (true, "NoUpstream") => "No updateService server has been set to retrieve updates.",
            (true, "NoArchitecture") => "Architecture has not been configured.",
            (true, "NoCurrentVersion") => {
                "The cluster version does not have a semantic version assigned and cannot calculate valid upgrades."
            }
            (true, "NoChannel") => "The update channel has not been configured.",
            (true, "InvalidCurrentVersion") => {
                "The current cluster version is not a valid semantic version and cannot be used to calculate upgrades."
            }
            (true, _) => "",
        };
        (status.into(), self.reason.clone(), message.into())
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UpgradeableChange {
    pub status: String,
    pub reason: String,
    pub message: String,
}

/// One Upgradeable-family condition (`Upgradeable`, `UpgradeableAdminAckRequired`, …) as
/// the CVO's checks produce it: `upgradeable_conditions` lists the whole set the CVO
/// computed, `upgradeable_checks` the failing checks it is computed from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UpgradeableCondition {
    #[serde(rename = "type")]
    pub type_: String,
    /// Default `False` (a check reports only what fails).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub status: String,
    pub reason: String,
    pub message: String,
}

/// A failure in a [`FakeStatus`]: an update error (with nested errors) or a plain error.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FakeFailure {
    /// A plain Go error (`fmt.Errorf`, `os.ErrNotExist`): only `message` counts.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub plain: bool,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nested: Vec<FakeFailure>,
}

/// The sync worker status a test's fake worker returns from every Update
/// (`fakeSyncRecorder` in the CVO's TestOperator_sync, or the status handed to
/// `updateClusterVersionStatus` in status_test.go). Once given, the worker is the fake one for
/// the rest of the scenario: pass and load events no longer change what it reports. Some
/// combinations (Completed > 0 with a failure) no real worker reports.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FakeStatus {
    pub actual: Release,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    pub verified: bool,
    pub reconciling: bool,
    pub initial: bool,
    pub completed: u32,
    pub done: u32,
    pub total: u32,
    /// 4.1-4.6 progress as a fraction (`Fraction`); sets done/total to per-mille.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fraction: Option<f32>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub step: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub version_hash: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<FakeFailure>,
    /// Seconds before the event the last progress was, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_progress_seconds_ago: Option<i64>,
    /// When this CVO first saw each ClusterOperator updating, in minutes before the event.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub co_update_started_minutes_ago: std::collections::BTreeMap<String, i64>,
    /// The load status (`ReleaseAccepted`): step, message, failure, target, acceptedRisks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<FakeLoad>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub implicitly_enabled: Vec<String>,
}

/// The load status of a [`FakeStatus`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FakeLoad {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<LoadStep>,
    pub message: String,
    pub failure: bool,
    pub update: Release,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub accepted_risks: String,
    pub local: bool,
}

/// How a risk's matching rules evaluate on the cluster (`conditionRegistry.Match`), as a
/// scenario states it: `true`, `false`, or `{error: "..."}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RiskMatch {
    Matches(bool),
    Failed { error: String },
}
