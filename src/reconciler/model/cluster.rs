//! What the CVO reads beside its ClusterVersion when it computes Upgradeable and runs its
//! payload preconditions: the ClusterOperators' conditions and the admin-gates / admin-acks
//! config maps, as a scenario's `cluster:` block states them and `cluster_change` events
//! change them (docs/scenario-format.md).

use super::events::double_option;
use crate::model::{Condition, Time};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A ClusterOperator as the CVO's listers see it: its name and status conditions.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClusterOperatorState {
    pub name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

impl ClusterOperatorState {
    /// The condition of `type_`, if the operator reports it.
    pub fn condition(&self, type_: &str) -> Option<&Condition> {
        self.conditions.iter().find(|c| c.type_ == type_)
    }
}

/// An alert as the CVO's alert getter reads it from in-cluster monitoring (4.22+): its
/// labels (`alertname`, `severity`, `namespace`, `openShiftUpdatePrecheck`, ...), annotations
/// (`summary`, `description`, `message`, `runbook_url`), state (`firing`, `pending`) and
/// `activeAt`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct AlertState {
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    pub state: String,
    #[serde(
        with = "crate::vocab::time::k8s",
        skip_serializing_if = "Option::is_none",
        alias = "active_at"
    )]
    pub active_at: Option<Time>,
}

/// A config map's `.data`; `None` when the config map does not exist.
pub type ConfigMapData = Option<BTreeMap<String, String>>;

fn empty_map() -> ConfigMapData {
    Some(BTreeMap::new())
}

fn is_empty_map(d: &ConfigMapData) -> bool {
    d.as_ref().is_some_and(|m| m.is_empty())
}

fn is_true(b: &bool) -> bool {
    *b
}

/// The scenario's `cluster:` block. Its presence makes the model compute Upgradeable from it
/// (unless `compute_upgradeable: false`) and run the CVO's payload preconditions itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClusterState {
    /// `false`: Upgradeable stays scripted (the initial status, `upgradeable` events) while
    /// the preconditions are still computed.
    #[serde(skip_serializing_if = "is_true")]
    pub compute_upgradeable: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cluster_operators: Vec<ClusterOperatorState>,
    /// `openshift-config-managed/admin-gates` `.data` (`null`: the config map is missing).
    #[serde(skip_serializing_if = "is_empty_map")]
    pub admin_gates: ConfigMapData,
    /// `openshift-config/admin-acks` `.data` (`null`: the config map is missing).
    #[serde(skip_serializing_if = "is_empty_map")]
    pub admin_acks: ConfigMapData,
    /// The alerts in-cluster monitoring reports (4.22+: with `ClusterUpdateAcceptRisks` the
    /// CVO turns firing ones into risks of every update).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alerts: Vec<AlertState>,
    /// Risks a further source reports for every update (as `pkg/risk/mock` does in the CVO's
    /// tests), merged like the alerts' while accept risks is reconciled.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub risks: Vec<crate::model::ConditionalUpdateRisk>,
}

impl Default for ClusterState {
    fn default() -> Self {
        ClusterState {
            compute_upgradeable: true,
            cluster_operators: Vec::new(),
            admin_gates: empty_map(),
            admin_acks: empty_map(),
            alerts: Vec::new(),
            risks: Vec::new(),
        }
    }
}

impl ClusterState {
    /// The ClusterOperator called `name`.
    pub fn operator(&self, name: &str) -> Option<&ClusterOperatorState> {
        self.cluster_operators.iter().find(|o| o.name == name)
    }

    /// Applies a change; `true` when an admin config map changed (the CVO's informers then
    /// recompute Upgradeable at once, 4.8+).
    pub fn apply(&mut self, c: &ClusterChange) -> bool {
        for op in &c.cluster_operators {
            match self
                .cluster_operators
                .iter_mut()
                .find(|o| o.name == op.name)
            {
                Some(o) => *o = op.clone(),
                None => self.cluster_operators.push(op.clone()),
            }
        }
        self.cluster_operators
            .retain(|o| !c.deleted_operators.contains(&o.name));
        let mut admin = false;
        if let Some(g) = &c.admin_gates {
            admin |= *g != self.admin_gates;
            self.admin_gates = g.clone();
        }
        if let Some(a) = &c.admin_acks {
            admin |= *a != self.admin_acks;
            self.admin_acks = a.clone();
        }
        if let Some(a) = &c.alerts {
            self.alerts = a.clone();
        }
        admin
    }
}

/// A `cluster_change` event: operators replaced by name (added when new) or deleted, and
/// admin config maps replaced (`null` deletes one). Absent fields are unchanged.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClusterChange {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cluster_operators: Vec<ClusterOperatorState>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deleted_operators: Vec<String>,
    #[serde(
        deserialize_with = "double_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub admin_gates: Option<ConfigMapData>,
    #[serde(
        deserialize_with = "double_option",
        skip_serializing_if = "Option::is_none"
    )]
    pub admin_acks: Option<ConfigMapData>,
    /// The alerts now reported (replacing the list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alerts: Option<Vec<AlertState>>,
}
