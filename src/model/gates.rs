//! The cluster's `FeatureGate` (`featuregates.config.openshift.io/cluster`): which feature
//! gates are on for each release version (`status.featureGates[]`, one entry per version the
//! cluster has run or is going to). Read so that `recommend` and the reference reconciler know
//! whether the CVO evaluates update risks itself (`ClusterUpdateAcceptRisks`, 4.22+), as oc's
//! `alertsEvaluatedByCVO` and the CVO's `shouldReconcileAcceptRisks` ask.

use super::cluster::ObjectMeta;
use serde::{Deserialize, Serialize};

/// The gate under which the CVO evaluates risks (alerts among them), writes
/// `status.conditionalUpdateRisks` and honours `spec.desiredUpdate.acceptRisks`.
pub const ACCEPT_RISKS_GATE: &str = "ClusterUpdateAcceptRisks";

/// `config.openshift.io/v1` FeatureGate (only `cluster` exists).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct FeatureGate {
    pub metadata: ObjectMeta,
    pub spec: FeatureGateSpec,
    pub status: FeatureGateStatus,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FeatureGateSpec {
    /// `TechPreviewNoUpgrade`, `DevPreviewNoUpgrade`, `CustomNoUpgrade`, or empty (Default).
    pub feature_set: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FeatureGateStatus {
    /// One entry per release version.
    #[serde(deserialize_with = "super::cluster::de_null_default")]
    pub feature_gates: Vec<VersionedGates>,
}

/// The gates of one release version.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct VersionedGates {
    #[serde(deserialize_with = "super::cluster::de_null_default")]
    pub version: String,
    #[serde(deserialize_with = "super::cluster::de_null_default")]
    pub enabled: Vec<GateName>,
    #[serde(deserialize_with = "super::cluster::de_null_default")]
    pub disabled: Vec<GateName>,
}

/// `{name: ...}` in a gate list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default)]
pub struct GateName {
    #[serde(deserialize_with = "super::cluster::de_null_default")]
    pub name: String,
}

impl FeatureGate {
    /// Whether `gate` is listed as enabled for release `version` (an entry for another
    /// version, or a gate listed only as disabled, is not enabled).
    pub fn enabled_for(&self, version: &str, gate: &str) -> bool {
        self.status
            .feature_gates
            .iter()
            .filter(|v| v.version == version)
            .any(|v| v.enabled.iter().any(|g| g.name == gate))
    }

    /// The gates enabled for release `version`, in the object's order.
    pub fn enabled(&self, version: &str) -> Vec<&str> {
        self.status
            .feature_gates
            .iter()
            .filter(|v| v.version == version)
            .flat_map(|v| v.enabled.iter().map(|g| g.name.as_str()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gate_is_on_only_for_the_version_that_lists_it_as_enabled() {
        let fg: FeatureGate = serde_json::from_value(serde_json::json!({
            "apiVersion": "config.openshift.io/v1", "kind": "FeatureGate",
            "metadata": {"name": "cluster"},
            "spec": {"featureSet": "TechPreviewNoUpgrade"},
            "status": {"featureGates": [
                {"version": "5.0.0-ec.2", "enabled": [{"name": "ClusterUpdateAcceptRisks"}], "disabled": null},
                {"version": "5.0.0-ec.1", "disabled": [{"name": "ClusterUpdateAcceptRisks"}]}
            ]}
        }))
        .unwrap();
        assert!(fg.enabled_for("5.0.0-ec.2", ACCEPT_RISKS_GATE));
        assert!(!fg.enabled_for("5.0.0-ec.1", ACCEPT_RISKS_GATE));
        assert!(!fg.enabled_for("5.0.0-ec.3", ACCEPT_RISKS_GATE));
        assert_eq!(fg.enabled("5.0.0-ec.2"), vec![ACCEPT_RISKS_GATE]);
    }
}
