//! `oc adm upgrade status`, offline: the update assessment oc computes from a cluster's
//! ClusterVersion, ClusterOperators, MachineConfigPools, MachineConfigs, Nodes and alerts,
//! computed here from typed objects at a chosen "now", and rendered as oc's own text (byte
//! for byte), a versioned JSON document (`mglint/status/v2`) or Markdown for a support case.
//!
//! This module owns the inputs ([`StatusInputs`], built from typed objects or a
//! [`Bundle`]), the choice of "now" ([`choose_now`]), the typed [`Assessment`] and its
//! errors. The rules live in submodules: [`controlplane`] (operators, versions, estimates),
//! [`nodes`] (node and pool assessment) and `mco` (a node's state as the MCO sees it), [`insights`] (Update Health, alerts);
//! the renderers in `text`, `json` and `markdown`; Go's duration and tabwriter behaviour
//! that the text depends on in `godur` and `tabwriter`.

pub mod controlplane;
mod godur;
pub mod gosort;
pub mod insights;
mod json;
mod markdown;
mod mask;
mod mco;
pub mod nodes;
mod selector;
pub(crate) mod tabwriter;
mod text;

use crate::bundle::Bundle;
use crate::model::*;

pub use controlplane::{
    ControlPlane, ControlPlaneState, OperatorCounts, TargetVersion, UpdatingOperator,
};
pub use godur::Dur;
pub use insights::{ImpactLevel, ImpactType, Insight, InsightKind, InsightResource, ScopeType};
pub use json::{SCHEMA, render_json, to_json_value};
pub use markdown::render_markdown;
pub use nodes::{NodeAssessment, NodePhase, NodeState, NodesOverview, PoolAssessment, PoolState};
pub use text::{render_text, since as insight_since};

/// Added to the latest condition transition when "now" is taken from the data, as oc does
/// for its examples (so that rounding is exercised).
pub const NOW_SKEW_NANOS: i64 = 368_975;

/// Which section `--details` expands (its values derived for the CLI; each variant's doc
/// comment is its help there).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
pub enum Details {
    /// No section
    #[default]
    None,
    /// Every section
    All,
    /// Every node, not only the first ten of a pool
    Nodes,
    /// Description, reference and resources of each Update Health insight
    Health,
    /// The updating cluster operators with their Progressing messages
    Operators,
}

impl Details {
    /// Whether the `what` section is expanded (oc's `enabledDetailed`).
    pub fn shows(self, what: Details) -> bool {
        self == Details::All || self == what
    }
}

/// Where "now" came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NowSource {
    /// Given by the caller (`--now`).
    Override,
    /// The input's collection time (a must-gather `timestamp` file).
    CollectionTime,
    /// The latest `lastTransitionTime` among the ClusterVersion's and ClusterOperators'
    /// conditions, plus 368975 ns (what oc does for its examples).
    LatestCondition,
}

impl NowSource {
    /// How the source is described to users.
    pub fn describe(self) -> &'static str {
        match self {
            NowSource::Override => "given with --now",
            NowSource::CollectionTime => "collection time",
            NowSource::LatestCondition => "latest condition transition + 368975 ns",
        }
    }
}

/// The instant the assessment is made at, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Now {
    pub time: Time,
    pub source: NowSource,
}

/// The latest condition transition of the ClusterVersion and ClusterOperators plus
/// [`NOW_SKEW_NANOS`], folded in oc's order (a transition only counts when it is later than
/// the "now" found so far, skew included). `None` when no condition has a time.
pub fn latest_condition_now<'a>(
    cv: Option<&ClusterVersion>,
    operators: impl IntoIterator<Item = &'a ClusterOperator>,
) -> Option<Time> {
    let skew = chrono::TimeDelta::nanoseconds(NOW_SKEW_NANOS);
    let mut now: Option<Time> = None;
    let mut see = |t: Option<Time>| {
        if let Some(t) = t
            && now.is_none_or(|n| t > n)
        {
            now = Some(t.checked_add_signed(skew).unwrap_or(t));
        }
    };
    for c in cv.iter().flat_map(|cv| &cv.status.conditions) {
        see(c.last_transition_time);
    }
    for co in operators {
        for c in &co.status.conditions {
            see(c.last_transition_time);
        }
    }
    now
}

/// "now": the override, else the collection time, else [`latest_condition_now`].
pub fn choose_now<'a>(
    override_: Option<Time>,
    collection_time: Option<Time>,
    cv: Option<&ClusterVersion>,
    operators: impl IntoIterator<Item = &'a ClusterOperator>,
) -> Option<Now> {
    if let Some(time) = override_ {
        return Some(Now {
            time,
            source: NowSource::Override,
        });
    }
    if let Some(time) = collection_time {
        return Some(Now {
            time,
            source: NowSource::CollectionTime,
        });
    }
    latest_condition_now(cv, operators).map(|time| Now {
        time,
        source: NowSource::LatestCondition,
    })
}

/// Why no assessment could be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatusError {
    /// No ClusterVersion in the input.
    NoClusterVersion,
    /// No ClusterVersion in a dump that holds other objects (a component must-gather): what
    /// the dump is and what it has.
    NoClusterVersionIn { dump: String, has: String },
    /// No ClusterOperator in the input.
    NoClusterOperators,
    /// The ClusterVersion has no `Progressing` condition.
    NoProgressing,
    /// A pool's node selector cannot be used.
    BadSelector { pool: String, reason: String },
    /// No time to assess at: no override, collection time or condition transition.
    NoTime,
}

impl std::fmt::Display for StatusError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StatusError::NoClusterVersion => {
                f.write_str("no `ClusterVersion` in the input: cluster version information is needed")
            }
            StatusError::NoClusterVersionIn { dump, has } => write!(
                f,
                "no `ClusterVersion` in the input: {dump} holds {has} but no `ClusterVersion` (a component must-gather, such as CNV, ODF or node-tuning, gathers none); cluster version information is needed"
            ),
            StatusError::NoClusterOperators => {
                f.write_str("no `ClusterOperator` in the input: cluster operator information is needed")
            }
            StatusError::NoProgressing => f.write_str(
                "no current `Progressing` condition on the `ClusterVersion`; see its status for more details",
            ),
            StatusError::BadSelector { pool, reason } => write!(
                f,
                "cannot use the node selector of machine config pool `{pool}`: {reason}"
            ),
            StatusError::NoTime => f.write_str(
                "no time to assess at: the input has no collection time and no condition transition; pass `--now`",
            ),
        }
    }
}

impl std::error::Error for StatusError {}

pub use crate::bundle::{Unread, unread_files};

/// Everything the assessment reads, as typed objects.
#[derive(Debug, Clone)]
pub struct StatusInputs {
    pub cluster_version: ClusterVersion,
    pub cluster_operators: Vec<ClusterOperator>,
    pub nodes: Vec<Node>,
    pub pools: Vec<MachineConfigPool>,
    pub machine_configs: Vec<MachineConfig>,
    /// `None` when no alerts data was available (oc then leaves alerts out of Update Health).
    pub alerts: Option<Vec<Alert>>,
    /// The machine-config-operator Deployment, for its operator image. When absent, the
    /// `operator-image` version of the `machine-config` operator is not compared.
    pub mco_deployment: Option<Deployment>,
    pub now: Now,
    /// Judge as oc's mock mode (`--mock-clusterversion`, what oc's examples and the oracle
    /// run) does where it departs from a live cluster: a NotReady node is compared with the
    /// wall clock, so every one counts as seriously unavailable; without the MCO Deployment
    /// `machine-config` is compared with an empty image and never counts as updated. Off by
    /// default: mglint judges at the data's "now" and skips the image comparison it cannot
    /// make. Tests turn it on to compare with oc byte for byte.
    pub oc_mock: bool,
}

impl StatusInputs {
    /// Takes the objects from a bundle: the newest ClusterVersion, every ClusterOperator,
    /// Node, pool and MachineConfig, the alerts of every alerts document (duplicates
    /// dropped), the MCO Deployment; "now" from `now_override`, else the collection time,
    /// else the latest condition transition.
    pub fn from_bundle(
        b: &Bundle,
        now_override: Option<Time>,
    ) -> Result<StatusInputs, StatusError> {
        let cv = b.cluster_version().ok_or_else(|| no_cluster_version(b))?;
        let operators: Vec<ClusterOperator> = b
            .cluster_operators()
            .iter()
            .map(|c| c.value.clone())
            .collect();
        let now = choose_now(
            now_override,
            b.collection_time(),
            Some(&cv.value),
            &operators,
        )
        .ok_or(StatusError::NoTime)?;
        let alerts = b.merged_alerts();
        Ok(StatusInputs {
            cluster_version: cv.value.clone(),
            cluster_operators: operators,
            nodes: b.objects.nodes.iter().map(|n| n.value.clone()).collect(),
            pools: b.objects.pools.iter().map(|p| p.value.clone()).collect(),
            machine_configs: b
                .objects
                .machine_configs
                .iter()
                .map(|m| m.value.clone())
                .collect(),
            alerts,
            mco_deployment: b.objects.mco_deployments.first().map(|d| d.value.clone()),
            now,
            oc_mock: false,
        })
    }
}

/// Why a bundle without a ClusterVersion cannot be assessed: what kind of dump it is and
/// which of the objects oc reads it has.
fn no_cluster_version(b: &Bundle) -> StatusError {
    let o = &b.objects;
    let has: Vec<String> = [
        (o.cluster_operators.len(), "`ClusterOperator`"),
        (o.nodes.len(), "`Node`"),
        (o.pools.len(), "`MachineConfigPool`"),
        (o.machine_configs.len(), "`MachineConfig`"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, k)| format!("{n} {k}{}", if *n == 1 { "" } else { "s" }))
    .collect();
    if has.is_empty() {
        return StatusError::NoClusterVersion;
    }
    let dump = match b.inputs.iter().find(|i| !i.must_gather_roots.is_empty()) {
        Some(i) => format!("`{}` is a must-gather that", i.name),
        None => "the input".to_string(),
    };
    let has = match has.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    StatusError::NoClusterVersionIn { dump, has }
}

/// The assessment of one cluster at one instant.
#[derive(Debug, Clone)]
pub struct Assessment {
    /// The cluster assessed.
    pub cluster: crate::bundle::ClusterIdentity,
    pub now: Now,
    /// oc's verdict: the ClusterVersion is Progressing, or a worker pool with nodes is not
    /// fully updated. When false, oc prints only "The cluster is not updating."
    pub updating: bool,
    /// When the current update started (the newest history entry, else Progressing's
    /// transition).
    pub started_at: Option<Time>,
    /// `now - started_at`, rounded to seconds.
    pub updating_for: Dur,
    pub control_plane: ControlPlane,
    /// The `master` pool and its nodes, when there is such a pool.
    pub control_plane_nodes: Option<PoolAssessment>,
    /// Every other pool, in input order.
    pub worker_pools: Vec<PoolAssessment>,
    /// Update Health: the complete insights, most severe and most recent first; when there
    /// is none, the single "Update is proceeding well" insight.
    pub insights: Vec<Insight>,
    /// Whether the insights are real ones, worth a detailed view (false for the single
    /// "Update is proceeding well" insight).
    pub health_has_insights: bool,
    /// Where the assessment departs from oc's rules, and why.
    pub notes: Vec<String>,
    /// Files the input holds that could not be read and may hold what the assessment
    /// needs: when not empty the assessment is partial (`--partial`).
    pub unread: Vec<Unread>,
}

/// Assesses the cluster at `inputs.now`.
pub fn assess(inputs: &StatusInputs) -> Result<Assessment, StatusError> {
    let cv = &inputs.cluster_version;
    let now = inputs.now.time;
    if inputs.cluster_operators.is_empty() {
        return Err(StatusError::NoClusterOperators);
    }
    let progressing = cv
        .condition("Progressing")
        .ok_or(StatusError::NoProgressing)?;
    let history = &cv.status.history;
    let multi_arch_in_progress =
        controlplane::is_multi_arch_migration(history) && progressing.is_true();

    let by_pool = nodes::nodes_per_pool(&inputs.pools, &inputs.nodes)?;
    let inferred = nodes::inferred_config_versions(cv, &inputs.pools, &inputs.machine_configs);
    let notes = inferred
        .iter()
        .map(|(mc, v)| {
            format!(
                "MachineConfig `{mc}` has no release-image-version annotation; taken to be {v} (its pool is Updated and the last update completed)"
            )
        })
        .collect();
    let mut gathered = Vec::new();
    let mut control_plane_nodes = None;
    let mut worker_pools = Vec::new();
    for pool in &inputs.pools {
        let pool_nodes = by_pool
            .get(pool.metadata.name.as_str())
            .map_or(&[][..], Vec::as_slice);
        let (assessed, node_insights) = nodes::assess_nodes(
            cv,
            pool,
            pool_nodes,
            &inputs.machine_configs,
            &inferred,
            multi_arch_in_progress,
            if inputs.oc_mock { Time::MAX_UTC } else { now },
        );
        gathered.extend(node_insights);
        let (pool_assessment, pool_insights) = nodes::assess_pool(pool, assessed);
        gathered.extend(pool_insights);
        if pool.metadata.name == "master" {
            control_plane_nodes = Some(pool_assessment);
        } else {
            worker_pools.push(pool_assessment);
        }
    }
    let worker_outdated = worker_pools
        .iter()
        .any(|p| p.overview.total > 0 && p.completion != 100.0);
    let updating = progressing.is_true() || worker_outdated;

    let started_at = history
        .first()
        .map_or(progressing.last_transition_time, |h| h.started_time);
    let updating_for = started_at
        .map_or(Dur::ZERO, |s| Dur::between(s, now))
        .round(godur::SECOND);

    if let Some(alerts) = &inputs.alerts {
        // Without a start time every alert counts as started during the update (oc's zero time).
        let since = started_at.unwrap_or(Time::MIN_UTC);
        gathered.extend(insights::alert_insights(alerts, since));
    }

    let mco_image = match &inputs.mco_deployment {
        Some(d) => Some(d.container_image("machine-config-operator").unwrap_or("")),
        None if inputs.oc_mock => Some(""),
        None => None,
    };
    let (control_plane, cp_insights) =
        controlplane::assess_control_plane(cv, &inputs.cluster_operators, mco_image, now);
    gathered.extend(cp_insights);

    let (insights, health_has_insights) = insights::assess_health(gathered, updating_for, now);
    let mut assessment = Assessment {
        cluster: crate::bundle::ClusterIdentity::of(cv),
        now: inputs.now,
        updating,
        started_at,
        updating_for,
        control_plane,
        control_plane_nodes,
        worker_pools,
        insights,
        health_has_insights,
        notes,
        unread: Vec::new(),
    };
    crate::vocab::secrets::Masked::mask_secrets(&mut assessment);
    Ok(assessment)
}
