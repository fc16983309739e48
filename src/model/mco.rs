//! Machine-config objects read beside pools and nodes: MachineConfig (the release it was
//! rendered for) and the machine-config-operator Deployment (its operator image). The pool's
//! own vocabulary (label selectors, the rendered configuration reference) is in
//! [`super::selector`], which the pool's spec reads without depending on this module.

use super::cluster::{ObjectMeta, PodSpec};
use serde::{Deserialize, Serialize};

/// The annotation on a (rendered) MachineConfig naming the OpenShift release it belongs to.
pub const RELEASE_IMAGE_VERSION_ANNOTATION: &str =
    "machineconfiguration.openshift.io/release-image-version";

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
