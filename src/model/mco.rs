//! Machine-config objects read beside pools and nodes: MachineConfig (the release it was
//! rendered for), label selectors (which pool a node belongs to), the pool's rendered
//! configuration reference, and the machine-config-operator Deployment (its operator image).

use super::cluster::{ObjectMeta, PodSpec};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The annotation on a (rendered) MachineConfig naming the OpenShift release it belongs to.
pub const RELEASE_IMAGE_VERSION_ANNOTATION: &str =
    "machineconfiguration.openshift.io/release-image-version";

fn de_null_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// A MachineConfig; only its metadata is needed (name and annotations).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct MachineConfig {
    pub metadata: ObjectMeta,
}

impl MachineConfig {
    /// The `release-image-version` annotation, when set and not empty.
    pub fn release_image_version(&self) -> Option<&str> {
        self.metadata
            .annotations
            .get(RELEASE_IMAGE_VERSION_ANNOTATION)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }
}

/// One `matchExpressions` entry of a label selector.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct LabelSelectorRequirement {
    #[serde(deserialize_with = "de_null_default")]
    pub key: String,
    /// `In`, `NotIn`, `Exists` or `DoesNotExist`.
    #[serde(deserialize_with = "de_null_default")]
    pub operator: String,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub values: Vec<String>,
}

/// A Kubernetes label selector (`matchLabels` and `matchExpressions`, ANDed).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LabelSelector {
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub match_labels: BTreeMap<String, String>,
    #[serde(
        deserialize_with = "de_null_default",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

/// A pool's `spec.configuration`: the rendered MachineConfig its nodes should run.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct PoolConfiguration {
    #[serde(deserialize_with = "de_null_default")]
    pub name: String,
}

/// `spec.template` of a Deployment.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct PodTemplate {
    pub spec: PodSpec,
}

/// `spec` of a Deployment.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct DeploymentSpec {
    pub template: PodTemplate,
}

/// A Deployment (kept for `openshift-machine-config-operator/machine-config-operator`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct Deployment {
    pub metadata: ObjectMeta,
    pub spec: DeploymentSpec,
}

impl Deployment {
    /// The image of the container named `name`.
    pub fn container_image(&self, name: &str) -> Option<&str> {
        self.spec
            .template
            .spec
            .containers
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.image.as_str())
    }
}
