//! Serde types for the OpenShift/Kubernetes objects mglint reads: ClusterVersion,
//! ClusterOperator, Node, MachineConfigPool, Event and Pod. Only fields used by the analysis.

use crate::vocab::time::{Time, k8s};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub(super) use crate::vocab::de_null_default;

/// `metadata` of any object.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ObjectMeta {
    #[serde(deserialize_with = "de_null_default")]
    pub name: String,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub namespace: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub uid: String,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub resource_version: String,
    #[serde(with = "k8s", skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<Time>,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub annotations: BTreeMap<String, String>,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub labels: BTreeMap<String, String>,
}

/// A field of one condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ConditionField {
    Status,
    Reason,
    Message,
    LastTransitionTime,
}

/// One field of the condition of a type (`conditions[Failing].message`): what a piece of
/// evidence read, when it read a condition rather than a line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConditionRef {
    /// The condition's type (`Failing`).
    pub type_: String,
    pub field: ConditionField,
}

/// A status condition (ClusterOperatorStatusCondition / NodeCondition / MCP condition).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Condition {
    #[serde(rename = "type", deserialize_with = "de_null_default")]
    pub type_: String,
    #[serde(deserialize_with = "de_null_default")]
    pub status: String,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub reason: String,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub message: String,
    #[serde(with = "k8s")]
    pub last_transition_time: Option<Time>,
}

impl Condition {
    pub fn is_true(&self) -> bool {
        self.status == "True"
    }
    pub fn is_false(&self) -> bool {
        self.status == "False"
    }
}

/// Finds a condition by type.
pub fn find_condition<'a>(conds: &'a [Condition], type_: &str) -> Option<&'a Condition> {
    conds.iter().find(|c| c.type_ == type_)
}

/// A release as every document pairs its names: a version and an image, either possibly
/// empty (a `Release`, a history entry, a timeline event's fields, a CVO message's). The one
/// place that says how such a pair is labelled and compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReleaseName<'a> {
    pub version: &'a str,
    pub image: &'a str,
}

impl<'a> ReleaseName<'a> {
    pub fn new(version: &'a str, image: &'a str) -> Self {
        ReleaseName { version, image }
    }

    /// `version` when set, else `image` (how the CVO names a release in its messages).
    pub fn label(self) -> &'a str {
        if self.version.is_empty() {
            self.image
        } else {
            self.version
        }
    }

    /// Whether `other` names the same release: the same image, or the same non-empty
    /// version (an empty name matches nothing).
    pub fn same_as(self, other: ReleaseName<'_>) -> bool {
        (!self.image.is_empty() && self.image == other.image)
            || (!self.version.is_empty() && self.version == other.version)
    }

    /// Whether `label` (a version or an image, as the CVO prints one) names this release.
    pub fn is_named_by(self, label: &str) -> bool {
        !label.is_empty() && (label == self.version || label == self.image)
    }
}

/// A release reference (`Update` in spec, `Release` in status).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Release {
    #[serde(deserialize_with = "de_null_default")]
    pub version: String,
    #[serde(deserialize_with = "de_null_default")]
    pub image: String,
    #[serde(
        deserialize_with = "crate::yaml::bool11::de_opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub force: Option<bool>,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub url: String,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub channels: Vec<String>,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub architecture: String,
    /// The risks the administrator accepts (`spec.desiredUpdate.acceptRisks`, 4.22+ with the
    /// `ClusterUpdateAcceptRisks` gate); a desired update may hold only these.
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub accept_risks: Vec<AcceptRisk>,
}

/// One entry of `spec.desiredUpdate.acceptRisks`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default)]
pub struct AcceptRisk {
    #[serde(deserialize_with = "de_null_default")]
    pub name: String,
}

impl Release {
    /// Whether it names a release (a version or an image): a desired update holding only
    /// `acceptRisks` (or only an architecture) asks for no new release.
    pub fn names_release(&self) -> bool {
        !self.version.is_empty() || !self.image.is_empty()
    }
    /// Whether the administrator accepted the risk `name`.
    pub fn accepts(&self, name: &str) -> bool {
        self.accept_risks.iter().any(|r| r.name == name)
    }
    /// Its version and image.
    pub fn name(&self) -> ReleaseName<'_> {
        ReleaseName::new(&self.version, &self.image)
    }
    /// `version` when set, else `image` (how the CVO names a release in messages).
    pub fn label(&self) -> &str {
        self.name().label()
    }
}

/// One `status.history` entry.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HistoryEntry {
    #[serde(deserialize_with = "de_null_default")]
    pub state: String,
    #[serde(with = "k8s")]
    pub started_time: Option<Time>,
    #[serde(with = "k8s")]
    pub completion_time: Option<Time>,
    #[serde(deserialize_with = "de_null_default")]
    pub version: String,
    #[serde(deserialize_with = "de_null_default")]
    pub image: String,
    #[serde(deserialize_with = "de_null_default")]
    pub verified: bool,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub accepted_risks: String,
}

impl HistoryEntry {
    pub fn is_completed(&self) -> bool {
        self.state == "Completed"
    }
    pub fn is_partial(&self) -> bool {
        self.state == "Partial"
    }
    /// Its version and image.
    pub fn name(&self) -> ReleaseName<'_> {
        ReleaseName::new(&self.version, &self.image)
    }
    /// `version` when set, else `image`.
    pub fn label(&self) -> &str {
        self.name().label()
    }
}

/// `spec` of a ClusterVersion.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClusterVersionSpec {
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub channel: String,
    #[serde(
        rename = "clusterID",
        deserialize_with = "de_null_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub cluster_id: String,
    pub desired_update: Option<Release>,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub upstream: String,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub overrides: Vec<serde_json::Value>,
}

/// A conditional update (4.10+).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ConditionalUpdate {
    pub release: Release,
    /// The risks that apply to this target (`name`, `message`, `url`, `matchingRules` and,
    /// 4.22+, their evaluation).
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub risks: Vec<ConditionalUpdateRisk>,
    /// The names of the risks that apply to this target (4.22+, sorted, de-duplicated; the
    /// risks themselves are in `status.conditionalUpdateRisks`).
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub risk_names: Vec<String>,
    #[serde(deserialize_with = "de_null_default")]
    pub conditions: Vec<Condition>,
}

/// One risk of a conditional update.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ConditionalUpdateRisk {
    #[serde(deserialize_with = "de_null_default")]
    pub name: String,
    #[serde(deserialize_with = "de_null_default")]
    pub message: String,
    #[serde(deserialize_with = "de_null_default")]
    pub url: String,
    /// `matchingRules` (the update service's cluster conditions: `{type: Always}`,
    /// `{type: PromQL, promql: {promql: ...}}`), kept as written.
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub matching_rules: Vec<serde_json::Value>,
    /// Its evaluation (4.22+): one `Applies` condition, `True`/`Match` (or `Alert:firing` for
    /// an alert the CVO turned into a risk), `False`/`NotMatch`, or `Unknown`.
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub conditions: Vec<Condition>,
}

impl ConditionalUpdateRisk {
    /// Whether the risk applies or may apply (its `Applies` condition is not `False`), as oc
    /// counts a risk for `--version`.
    pub fn may_apply(&self) -> bool {
        self.conditions
            .iter()
            .any(|c| c.type_ == "Applies" && c.status != "False")
    }
    /// Whether the CVO made the risk from a firing alert (`Applies` reason `Alert:<state>`).
    pub fn is_alert(&self) -> bool {
        self.conditions
            .iter()
            .any(|c| c.type_ == "Applies" && c.reason.starts_with("Alert:"))
    }
}

/// `status` of a ClusterVersion.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClusterVersionStatus {
    pub desired: Release,
    #[serde(deserialize_with = "de_null_default")]
    pub history: Vec<HistoryEntry>,
    #[serde(deserialize_with = "de_null_default")]
    pub conditions: Vec<Condition>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "String::is_empty"
    )]
    pub version_hash: String,
    /// `null` and `[]` are both kept as empty.
    #[serde(deserialize_with = "de_null_default")]
    pub available_updates: Vec<Release>,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub conditional_updates: Vec<ConditionalUpdate>,
    /// Every risk of any conditional update, once, sorted by name, with its evaluation (4.22+
    /// with the `ClusterUpdateAcceptRisks` gate).
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub conditional_update_risks: Vec<ConditionalUpdateRisk>,
}

/// The `ClusterVersion` singleton.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClusterVersion {
    #[serde(deserialize_with = "de_null_default")]
    pub api_version: String,
    #[serde(deserialize_with = "de_null_default")]
    pub kind: String,
    pub metadata: ObjectMeta,
    pub spec: ClusterVersionSpec,
    pub status: ClusterVersionStatus,
}

impl ClusterVersion {
    pub fn condition(&self, type_: &str) -> Option<&Condition> {
        find_condition(&self.status.conditions, type_)
    }
    /// The most recent Completed history entry (what the cluster last fully applied).
    pub fn last_completed(&self) -> Option<(usize, &HistoryEntry)> {
        self.status
            .history
            .iter()
            .enumerate()
            .find(|(_, h)| h.is_completed())
    }
}

/// One `status.versions` entry of a ClusterOperator.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct OperandVersion {
    #[serde(deserialize_with = "de_null_default")]
    pub name: String,
    #[serde(deserialize_with = "de_null_default")]
    pub version: String,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct ClusterOperatorStatus {
    #[serde(deserialize_with = "de_null_default")]
    pub conditions: Vec<Condition>,
    #[serde(deserialize_with = "de_null_default")]
    pub versions: Vec<OperandVersion>,
}

/// A ClusterOperator.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct ClusterOperator {
    pub metadata: ObjectMeta,
    pub status: ClusterOperatorStatus,
}

impl ClusterOperator {
    pub fn condition(&self, type_: &str) -> Option<&Condition> {
        find_condition(&self.status.conditions, type_)
    }
    /// The `operator` version (the OCP release the operator reports being at).
    pub fn operator_version(&self) -> Option<&str> {
        self.status
            .versions
            .iter()
            .find(|v| v.name == "operator")
            .map(|v| v.version.as_str())
    }
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct NodeSpec {
    #[serde(deserialize_with = "crate::yaml::bool11::de")]
    pub unschedulable: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NodeStatus {
    #[serde(deserialize_with = "de_null_default")]
    pub conditions: Vec<Condition>,
}

/// A Node (conditions and machine-config annotations).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct Node {
    pub metadata: ObjectMeta,
    pub spec: NodeSpec,
    pub status: NodeStatus,
}

impl Node {
    pub fn condition(&self, type_: &str) -> Option<&Condition> {
        find_condition(&self.status.conditions, type_)
    }
    /// A machine-config annotation (`machineconfiguration.openshift.io/<key>`).
    pub fn mco_annotation(&self, key: &str) -> Option<&str> {
        self.metadata
            .annotations
            .get(&format!("machineconfiguration.openshift.io/{key}"))
            .map(String::as_str)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct McpSpec {
    #[serde(deserialize_with = "crate::yaml::bool11::de")]
    pub paused: bool,
    /// The rendered MachineConfig the pool's nodes should run.
    #[serde(deserialize_with = "de_null_default")]
    pub configuration: super::selector::PoolConfiguration,
    /// Which nodes belong to the pool (`None`: no selector, matches no node).
    #[serde(rename = "nodeSelector", skip_serializing_if = "Option::is_none")]
    pub node_selector: Option<super::selector::LabelSelector>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct McpStatus {
    #[serde(deserialize_with = "de_null_default")]
    pub conditions: Vec<Condition>,
    pub machine_count: Option<i64>,
    pub updated_machine_count: Option<i64>,
    pub ready_machine_count: Option<i64>,
    pub unavailable_machine_count: Option<i64>,
    pub degraded_machine_count: Option<i64>,
}

/// A MachineConfigPool.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct MachineConfigPool {
    pub metadata: ObjectMeta,
    pub spec: McpSpec,
    pub status: McpStatus,
}

impl MachineConfigPool {
    pub fn condition(&self, type_: &str) -> Option<&Condition> {
        find_condition(&self.status.conditions, type_)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct ObjectReference {
    #[serde(deserialize_with = "de_null_default")]
    pub kind: String,
    #[serde(deserialize_with = "de_null_default")]
    pub namespace: String,
    #[serde(deserialize_with = "de_null_default")]
    pub name: String,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct EventSource {
    #[serde(deserialize_with = "de_null_default")]
    pub component: String,
    #[serde(deserialize_with = "de_null_default")]
    pub host: String,
}

/// A core/v1 Event (also the Insights compact form with a top-level `namespace`), or an
/// events.k8s.io/v1 Event (resourcewatch records those), whose fields carry the same facts
/// under other names (`regarding`, `note`, `deprecatedLastTimestamp`, …).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Event {
    pub metadata: ObjectMeta,
    #[serde(deserialize_with = "de_null_default")]
    pub namespace: String,
    #[serde(alias = "regarding")]
    pub involved_object: ObjectReference,
    #[serde(deserialize_with = "de_null_default")]
    pub reason: String,
    #[serde(alias = "note", deserialize_with = "de_null_default")]
    pub message: String,
    #[serde(rename = "type", deserialize_with = "de_null_default")]
    pub type_: String,
    #[serde(alias = "deprecatedCount")]
    pub count: Option<i64>,
    #[serde(alias = "deprecatedFirstTimestamp", with = "k8s")]
    pub first_timestamp: Option<Time>,
    #[serde(alias = "deprecatedLastTimestamp", with = "k8s")]
    pub last_timestamp: Option<Time>,
    #[serde(with = "k8s")]
    pub event_time: Option<Time>,
    #[serde(alias = "deprecatedSource")]
    pub source: EventSource,
    #[serde(alias = "reportingController", deserialize_with = "de_null_default")]
    pub reporting_component: String,
}

impl Event {
    /// The first time the event was seen (firstTimestamp, else eventTime, else lastTimestamp,
    /// else the object's creationTimestamp).
    pub fn first_seen(&self) -> Option<Time> {
        self.first_timestamp
            .or(self.event_time)
            .or(self.last_timestamp)
            .or(self.metadata.creation_timestamp)
    }
    /// The last time the event was seen.
    pub fn last_seen(&self) -> Option<Time> {
        self.last_timestamp
            .or(self.event_time)
            .or(self.first_timestamp)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct Container {
    #[serde(deserialize_with = "de_null_default")]
    pub name: String,
    #[serde(deserialize_with = "de_null_default")]
    pub image: String,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PodSpec {
    #[serde(deserialize_with = "de_null_default")]
    pub containers: Vec<Container>,
    #[serde(deserialize_with = "de_null_default")]
    pub node_name: String,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ContainerStatus {
    #[serde(deserialize_with = "de_null_default")]
    pub name: String,
    #[serde(deserialize_with = "de_null_default")]
    pub image: String,
    #[serde(rename = "imageID", deserialize_with = "de_null_default")]
    pub image_id: String,
    #[serde(deserialize_with = "de_null_default")]
    pub restart_count: i64,
    pub state: Option<serde_json::Value>,
    pub last_state: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PodStatus {
    #[serde(deserialize_with = "de_null_default")]
    pub phase: String,
    #[serde(with = "k8s")]
    pub start_time: Option<Time>,
    #[serde(deserialize_with = "de_null_default")]
    pub container_statuses: Vec<ContainerStatus>,
}

/// A Pod (used for the CVO pod: image, restarts, start time).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct Pod {
    pub metadata: ObjectMeta,
    pub spec: PodSpec,
    pub status: PodStatus,
}
