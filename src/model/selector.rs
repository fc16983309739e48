//! The vocabulary a MachineConfigPool's spec shares with the machine-config objects: label
//! selectors (which pool a node belongs to) and the pool's rendered configuration reference.
//! A leaf: it imports no sibling, so the pool (`cluster`) and the machine-config objects
//! (`mco`) both read it without importing each other.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::vocab::de_null_default;

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
