//! Nodes and machine config pools: which pool a node belongs to, each node's update state
//! from its machine-config annotations and conditions (the MCO's view: done, unavailable,
//! degraded, draining), its phase and estimate, the pool's summary, and the insights about
//! unavailable or degraded nodes and paused pools.

use super::StatusError;
use super::insights::{ImpactLevel, ImpactType, Insight, InsightKind, InsightResource, ScopeType};
use super::mco::{Availability, annotation, is_draining};
use super::selector::Selector;
use crate::model::*;
use std::collections::BTreeMap;

const MCO_REFERENCE: &str = "https://docs.openshift.com/container-platform/latest/post_installation_configuration/machine-configuration-tasks.html#understanding-the-machine-config-operator";
const PAUSED_REFERENCE: &str = "https://docs.openshift.com/container-platform/latest/support/troubleshooting/troubleshooting-operator-issues.html#troubleshooting-disabling-autoreboot-mco_troubleshooting-operator-issues";

/// Where a node is in its update (ordered as oc sorts them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum NodePhase {
    Draining,
    Updating,
    Rebooting,
    Paused,
    Pending,
    Updated,
}

impl NodePhase {
    /// The name it serializes as.
    pub fn as_str(self) -> &'static str {
        crate::vocab::names::serde_name(&self)
    }
}

/// A node's assessment (ordered as oc sorts them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum NodeState {
    Degraded,
    Unavailable,
    Progressing,
    Excluded,
    Outdated,
    Completed,
}

impl NodeState {
    /// The name it serializes as.
    pub fn as_str(self) -> &'static str {
        crate::vocab::names::serde_name(&self)
    }
}

/// One node of a pool.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeAssessment {
    pub name: String,
    pub state: NodeState,
    pub phase: NodePhase,
    /// The release of the node's current MachineConfig (`""` when unknown).
    pub version: String,
    /// oc's estimate column: `-`, `?`, `+5m` or `+10m`.
    pub estimate: String,
    /// Why the node is unavailable or degraded (its name replaced by `<node>`).
    pub message: String,
    pub unavailable: bool,
    pub degraded: bool,
    pub updating: bool,
    pub updated: bool,
}

/// Node counts of a pool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NodesOverview {
    pub total: usize,
    pub available: usize,
    pub progressing: usize,
    pub outdated: usize,
    pub draining: usize,
    pub excluded: usize,
    pub degraded: usize,
}

/// A pool's assessment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum PoolState {
    Completed,
    Pending,
    Degraded,
    Excluded,
    Progressing,
}

impl PoolState {
    /// The name it serializes as.
    pub fn as_str(self) -> &'static str {
        crate::vocab::names::serde_name(&self)
    }
}

/// A machine config pool and its nodes (sorted as oc shows them).
#[derive(Debug, Clone, PartialEq)]
pub struct PoolAssessment {
    pub name: String,
    pub state: PoolState,
    /// Updated nodes, in percent (NaN for an empty pool).
    pub completion: f64,
    pub overview: NodesOverview,
    pub nodes: Vec<NodeAssessment>,
}

/// Groups nodes by pool name: a node belongs to `master` when that pool selects it, else to
/// the first custom pool (in input order) that does, else to `worker`. Nodes no pool selects
/// are left out.
pub fn nodes_per_pool<'a>(
    pools: &[MachineConfigPool],
    nodes: &'a [Node],
) -> Result<BTreeMap<String, Vec<&'a Node>>, StatusError> {
    let mut master = Selector::Nothing;
    let mut worker = Selector::Nothing;
    let mut custom = Vec::new();
    for p in pools {
        let s = Selector::from_label_selector(p.spec.node_selector.as_ref()).map_err(|reason| {
            StatusError::BadSelector {
                pool: p.metadata.name.clone(),
                reason,
            }
        })?;
        match p.metadata.name.as_str() {
            "master" => master = s,
            "worker" => worker = s,
            name => custom.push((name, s)),
        }
    }
    let mut out: BTreeMap<String, Vec<&Node>> = BTreeMap::new();
    for n in nodes {
        let labels = &n.metadata.labels;
        let pool = if master.matches(labels) {
            Some("master")
        } else if let Some((name, _)) = custom.iter().find(|(_, s)| s.matches(labels)) {
            Some(*name)
        } else if worker.matches(labels) {
            Some("worker")
        } else {
            None
        };
        if let Some(pool) = pool {
            out.entry(pool.to_string()).or_default().push(n);
        }
    }
    Ok(out)
}

/// The release a MachineConfig was rendered for, when it is known: its
/// `release-image-version` annotation, else a version from [`inferred_config_versions`].
fn config_version<'a>(
    mcs: &'a [MachineConfig],
    inferred: &'a BTreeMap<String, String>,
    name: &str,
) -> Option<&'a str> {
    let mc = mcs.iter().find(|m| m.metadata.name == name)?;
    mc.release_image_version()
        .or_else(|| inferred.get(name).map(String::as_str))
}

/// Releases of rendered MachineConfigs that carry no `release-image-version` annotation
/// (older MCOs did not write it) but whose release is certain: the newest history entry is
/// Completed and a pool whose `Updated` condition is True has the config as its
/// `spec.configuration`. oc has no such rule: it reports such nodes' version as unknown
/// and the pool as pending. Keyed by config name.
pub fn inferred_config_versions(
    cv: &ClusterVersion,
    pools: &[MachineConfigPool],
    mcs: &[MachineConfig],
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Some(current) = cv.status.history.first().filter(|h| h.is_completed()) else {
        return out;
    };
    for p in pools {
        let name = &p.spec.configuration.name;
        let updated = p.condition("Updated").is_some_and(Condition::is_true);
        let unannotated = mcs
            .iter()
            .any(|m| &m.metadata.name == name && m.release_image_version().is_none());
        if updated && unannotated && !current.version.is_empty() {
            out.insert(name.clone(), current.version.clone());
        }
    }
    out
}

fn phase_of(node: &Node, pool: &MachineConfigPool, updating: bool, updated: bool) -> NodePhase {
    if updating && is_draining(node, updating) {
        NodePhase::Draining
    } else if updating {
        match annotation(node, "state").unwrap_or("") {
            "Rebooting" => NodePhase::Rebooting,
            "Done" => NodePhase::Updated,
            _ => NodePhase::Updating,
        }
    } else if updated {
        NodePhase::Updated
    } else if pool.spec.paused {
        NodePhase::Paused
    } else {
        NodePhase::Pending
    }
}

fn node_insight(
    kind: InsightKind,
    pool: &MachineConfigPool,
    node: &str,
    (level, impact): (ImpactLevel, ImpactType),
    summary: String,
    description: String,
    started_at: Option<Time>,
) -> Insight {
    Insight {
        kind,
        started_at,
        scope: if pool.metadata.name == "master" {
            ScopeType::ControlPlane
        } else {
            ScopeType::WorkerPool
        },
        resources: vec![InsightResource {
            group: String::new(),
            kind: "Node".to_string(),
            namespace: String::new(),
            name: node.to_string(),
        }],
        level,
        impact,
        summary,
        description,
        reference: MCO_REFERENCE.to_string(),
    }
}

/// Assesses a pool's nodes, sorted by state, phase and name, with their insights.
pub fn assess_nodes(
    cv: &ClusterVersion,
    pool: &MachineConfigPool,
    nodes: &[&Node],
    mcs: &[MachineConfig],
    inferred: &BTreeMap<String, String>,
    multi_arch_in_progress: bool,
    now: Time,
) -> (Vec<NodeAssessment>, Vec<Insight>) {
    let latest = cv.status.history.first().map(|h| h.version.as_str());
    let is_latest = |v: Option<&str>| v.is_some() && v == latest;
    let mut out = Vec::new();
    let mut insights = Vec::new();
    for node in nodes {
        let name = node.metadata.name.as_str();
        let desired = annotation(node, "desiredConfig");
        let current = annotation(node, "currentConfig").unwrap_or("");
        let current_version = config_version(mcs, inferred, current);
        let desired_version = config_version(mcs, inferred, desired.unwrap_or(""));
        let availability = Availability::of(node, pool);
        let state = annotation(node, "state").unwrap_or("");
        let degraded = desired.is_some_and(|d| !d.is_empty())
            && matches!(state, "Degraded" | "Unreconcilable");
        let matched = current == desired.unwrap_or("");
        let desired_is_pool = desired.unwrap_or("") == pool.spec.configuration.name;
        let updated = is_latest(current_version)
            && (!multi_arch_in_progress || desired.is_none() || (matched && desired_is_pool));
        let updating = !updated
            && current_version.is_some()
            && is_latest(desired_version)
            && !matched
            && desired_is_pool;
        let phase = phase_of(node, pool, updating, updated);
        let (mut node_state, mut estimate) = match phase {
            NodePhase::Paused => (NodeState::Excluded, "-"),
            NodePhase::Pending => (NodeState::Outdated, "?"),
            NodePhase::Draining => (NodeState::Progressing, "+10m"),
            NodePhase::Updating | NodePhase::Rebooting => (NodeState::Progressing, "+5m"),
            NodePhase::Updated => (NodeState::Completed, "-"),
        };
        let settled = if updated { "-" } else { "?" };
        let (mut message, mut summary, mut description) =
            (String::new(), String::new(), String::new());
        if availability.unavailable && !updating {
            node_state = NodeState::Unavailable;
            message = availability.reason();
            summary = availability.summary(name);
            description = availability.description();
            estimate = settled;
        }
        if degraded {
            node_state = NodeState::Degraded;
            message = annotation(node, "reason").unwrap_or("").to_string();
            description = message.clone();
            estimate = settled;
        }
        if availability.serious(now) && !updating {
            insights.push(node_insight(
                InsightKind::NodeUnavailable,
                pool,
                name,
                (ImpactLevel::Warning, ImpactType::UpdateSpeed),
                summary,
                description.clone(),
                availability.since(),
            ));
        }
        if degraded {
            insights.push(node_insight(
                InsightKind::NodeDegraded,
                pool,
                name,
                (ImpactLevel::Error, ImpactType::UpdateStalled),
                format!("Node {name} is degraded"),
                description,
                None,
            ));
        }
        if name.len() >= 8 {
            message = message.replace(name, "<node>");
        }
        out.push(NodeAssessment {
            name: name.to_string(),
            state: node_state,
            phase,
            version: current_version.unwrap_or("").to_string(),
            estimate: estimate.to_string(),
            message,
            unavailable: availability.unavailable,
            degraded,
            updating,
            updated,
        });
    }
    out.sort_by(|a, b| {
        a.state
            .cmp(&b.state)
            .then(a.phase.cmp(&b.phase))
            .then_with(|| a.name.cmp(&b.name))
    });
    (out, insights)
}

/// Summarises a pool from its assessed nodes, with the insight about a paused pool that
/// leaves nodes outdated.
pub fn assess_pool(
    pool: &MachineConfigPool,
    nodes: Vec<NodeAssessment>,
) -> (PoolAssessment, Vec<Insight>) {
    let mut o = NodesOverview {
        total: nodes.len(),
        ..Default::default()
    };
    let (mut updated, mut pending) = (0usize, 0usize);
    for n in &nodes {
        if !n.unavailable {
            o.available += 1;
        }
        if n.degraded {
            o.degraded += 1;
        }
        match n.phase {
            NodePhase::Paused => {
                o.excluded += 1;
                o.outdated += 1;
            }
            NodePhase::Pending => {
                pending += 1;
                o.outdated += 1;
            }
            NodePhase::Draining | NodePhase::Updating | NodePhase::Rebooting => {
                if n.phase == NodePhase::Draining {
                    o.draining += 1;
                }
                o.outdated += 1;
                if !n.degraded {
                    o.progressing += 1;
                }
            }
            NodePhase::Updated => updated += 1,
        }
    }
    let state = if updated == nodes.len() {
        PoolState::Completed
    } else if pending == nodes.len() {
        PoolState::Pending
    } else if o.degraded > 0 {
        PoolState::Degraded
    } else if o.excluded > 0 {
        PoolState::Excluded
    } else {
        PoolState::Progressing
    };
    let mut insights = Vec::new();
    if o.excluded > 0 && pool.spec.paused {
        let name = &pool.metadata.name;
        insights.push(Insight {
            kind: InsightKind::PoolPaused,
            started_at: None,
            scope: ScopeType::WorkerPool,
            resources: vec![InsightResource {
                group: "machineconfiguration.openshift.io".to_string(),
                kind: "MachineConfigPool".to_string(),
                namespace: String::new(),
                name: name.clone(),
            }],
            level: ImpactLevel::Warning,
            impact: ImpactType::UpdateStalled,
            summary: format!("Outdated nodes in a paused pool '{name}' will not be updated"),
            description: "Pool is paused, which stops all changes to the nodes in the pool, including updates. The nodes will not be updated until the pool is unpaused by the administrator.".to_string(),
            reference: PAUSED_REFERENCE.to_string(),
        });
    }
    let completion = updated as f64 / nodes.len() as f64 * 100.0;
    (
        PoolAssessment {
            name: pool.metadata.name.clone(),
            state,
            completion,
            overview: o,
            nodes,
        },
        insights,
    )
}
