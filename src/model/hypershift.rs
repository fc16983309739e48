//! HyperShift's control plane objects, read only to tell a management cluster's dump apart
//! from its hosted clusters by what the objects say (not where their files sit): a
//! HostedControlPlane names its own namespace (the hosted control plane namespace, where the
//! hosted CVO's pod and logs are) and its hosted cluster's `spec.clusterID`; a HostedCluster
//! names the same cluster ID from the management side.

use super::ObjectMeta;
use serde::Deserialize;

/// The part of a HyperShift object's `spec` that identifies its hosted cluster.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct HostedSpec {
    /// The hosted cluster's ID (its ClusterVersion's `spec.clusterID`).
    #[serde(rename = "clusterID", deserialize_with = "super::de_null_default")]
    pub cluster_id: String,
}

/// A `hypershift.openshift.io` HostedControlPlane: it lives in its hosted cluster's control
/// plane namespace.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct HostedControlPlane {
    pub metadata: ObjectMeta,
    pub spec: HostedSpec,
}

/// A `hypershift.openshift.io` HostedCluster (in the management cluster's `clusters`-like
/// namespace).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct HostedCluster {
    pub metadata: ObjectMeta,
    pub spec: HostedSpec,
}
