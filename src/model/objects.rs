//! The kind-keyed object store: every Kubernetes/OpenShift object kind mglint reads is
//! declared once here (a [`Kind`] impl next to its type, plus one line of `objects!`), and
//! parsing by `kind`, the kind a path or an object's shape implies, merging, de-duplication
//! (one object per key, the freshest), presence and counts iterate over the kinds uniformly.
//! Adding a kind: its type and `Kind` impl in `model/`, a line below, and (for must-gathers)
//! its place in `vocab::kind::classify`.

use super::*;
use crate::vocab::{Provenance, Time};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// An object kind the analysis reads.
pub trait Kind: DeserializeOwned + Sized {
    /// The Kubernetes `kind` (`ClusterVersion`).
    const KIND: &'static str;
    /// Names a path part may use for this kind (`clusterversions`, `clusterversion`).
    const PATH_NAMES: &'static [&'static str];

    /// What identifies one object: a second copy with the same key (from another file or
    /// dump) is the same object, and the freshest copy is kept. `None`: every copy is kept.
    fn key(&self) -> Option<String>;

    /// How recent the copy is (latest condition transition, creation…).
    fn freshness(&self) -> Option<Time>;

    /// Whether the analysis keeps this object (e.g. only the CVO's pods).
    fn wanted(&self) -> bool {
        true
    }

    /// Whether an object without `kind` (Insights archives) is of this kind by its fields.
    fn has_shape(_v: &Value) -> bool {
        false
    }

    /// Puts the kept copies in their final order (path order by default).
    fn order(_v: &mut Vec<Sourced<Self>>) {}
}

/// The latest condition transition among `conds`.
pub fn condition_freshness(conds: &[Condition]) -> Option<Time> {
    conds.iter().filter_map(|c| c.last_transition_time).max()
}

/// `to.append(from)`, moving `from`'s vector whole when `to` is empty (see
/// [`Objects::append`]).
fn append_moving<T>(to: &mut Vec<T>, from: &mut Vec<T>) {
    if to.is_empty() {
        std::mem::swap(to, from);
        // The room the vector grew into and did not fill, handed back in place.
        to.shrink_to_fit();
    } else {
        to.append(from);
    }
}

/// Keeps one object per key: the freshest (ties: the first in path order).
fn dedup<T: Kind>(v: Vec<Sourced<T>>) -> Vec<Sourced<T>> {
    let mut best: BTreeMap<String, usize> = BTreeMap::new();
    let mut unkeyed: Vec<usize> = Vec::new();
    for (i, o) in v.iter().enumerate() {
        let Some(k) = o.value.key() else {
            unkeyed.push(i);
            continue;
        };
        match best.get(&k) {
            Some(&j) if v[j].value.freshness() >= o.value.freshness() => {}
            _ => {
                best.insert(k, i);
            }
        }
    }
    let keep: BTreeSet<usize> = best.into_values().chain(unkeyed).collect();
    let mut out: Vec<Sourced<T>> = v
        .into_iter()
        .enumerate()
        .filter(|(i, _)| keep.contains(i))
        .map(|(_, o)| o)
        .collect();
    T::order(&mut out);
    out
}

/// Why an object could not be read as its kind.
#[derive(Debug, thiserror::Error)]
#[error("not a valid {kind}: {source}")]
pub struct KindError {
    pub kind: &'static str,
    #[source]
    pub source: serde_json::Error,
}

macro_rules! objects {
    ($( $(#[$doc:meta])* $field:ident : $ty:ty ),* $(,)?) => {
        /// Objects by kind, each with its provenance.
        #[derive(Debug, Clone, Default)]
        pub struct Objects {
            $( $(#[$doc])* pub $field: Vec<Sourced<$ty>>, )*
            /// Objects of the kinds known-issue rules read, whole (with `kind` set), in path
            /// order; empty unless a rule asks (see `vocab::wants`).
            pub raw: Vec<Sourced<Value>>,
        }

        impl Objects {
            /// Every kind read, by its `kind`.
            pub const KINDS: &'static [&'static str] = &[ $( <$ty as Kind>::KIND ),* ];

            /// Reads `value` as an object of `kind` and keeps it when the analysis wants it.
            /// `Ok(false)`: a kind mglint does not read.
            pub fn push(&mut self, kind: &str, value: Value, prov: Provenance) -> Result<bool, KindError> {
                $(
                    if kind == <$ty as Kind>::KIND {
                        let v: $ty = serde_json::from_value(value).map_err(|source| KindError {
                            kind: <$ty as Kind>::KIND,
                            source,
                        })?;
                        if v.wanted() {
                            self.$field.push(Sourced { value: v, prov });
                        }
                        return Ok(true);
                    }
                )*
                Ok(false)
            }

            /// The kind a path names (`…/clusteroperators/etcd.yaml`, `nodes.json`).
            pub fn kind_of_path(path: &str) -> Option<&'static str> {
                let parts: Vec<&str> = path
                    .split(['/', ':'])
                    .map(|p| p.trim_end_matches(".gz").trim_end_matches(".yaml").trim_end_matches(".yml").trim_end_matches(".json"))
                    .collect();
                $(
                    if <$ty as Kind>::PATH_NAMES.iter().any(|n| parts.contains(n)) {
                        return Some(<$ty as Kind>::KIND);
                    }
                )*
                None
            }

            /// The kind an object without `kind` has by its fields.
            pub fn kind_of_shape(v: &Value) -> Option<&'static str> {
                $(
                    if <$ty as Kind>::has_shape(v) {
                        return Some(<$ty as Kind>::KIND);
                    }
                )*
                None
            }

            /// Moves every object of `other` in (after this store's).
            ///
            /// Into a kind this store has none of, `other`'s vector is moved whole: no second
            /// vector of them is made while the first is still held (the Events of a year are
            /// megabytes), nor the first freed after.
            pub fn append(&mut self, other: &mut Objects) {
                $( append_moving(&mut self.$field, &mut other.$field); )*
                append_moving(&mut self.raw, &mut other.raw);
            }

            /// One object per key, the freshest; each kind in its order.
            pub fn dedup(&mut self) {
                $( self.$field = dedup(std::mem::take(&mut self.$field)); )*
            }

            /// True when no object of any kind was read.
            pub fn is_empty(&self) -> bool {
                true $( && self.$field.is_empty() )*
            }

            /// How many objects of `kind` were read.
            pub fn count(&self, kind: &str) -> usize {
                $( if kind == <$ty as Kind>::KIND { return self.$field.len(); } )*
                0
            }

            /// The provenance of every object, the raw ones too, to change (an object moved
            /// to another bundle under another name of its file).
            pub fn provenances_mut(&mut self) -> Vec<&mut Provenance> {
                let mut out = Vec::new();
                $( out.extend(self.$field.iter_mut().map(|o| &mut o.prov)); )*
                out.extend(self.raw.iter_mut().map(|o| &mut o.prov));
                out
            }

            /// The provenance of every object, by kind.
            pub fn provenances(&self) -> Vec<(&'static str, &Provenance)> {
                let mut out = Vec::new();
                $( out.extend(self.$field.iter().map(|o| (<$ty as Kind>::KIND, &o.prov))); )*
                out
            }
        }
    };
}

objects! {
    /// ClusterVersion snapshots (several when several dumps or sources were given), oldest
    /// first: the last one is the newest.
    cluster_versions: ClusterVersion,
    cluster_operators: ClusterOperator,
    nodes: Node,
    pools: MachineConfigPool,
    /// MachineConfigs (for the release each rendered config belongs to).
    machine_configs: MachineConfig,
    /// The `openshift-machine-config-operator/machine-config-operator` Deployment.
    mco_deployments: Deployment,
    /// Alerts documents (Prometheus alerts or rules API responses).
    alerts: Alerts,
    events: Event,
    /// Pods in `openshift-cluster-version` (the CVO pods).
    cvo_pods: Pod,
    /// The cluster's own update insights (UpdateStatus API, 4.18+ behind a feature gate).
    update_statuses: UpdateStatus,
    /// The `cluster` Infrastructure (identifying values for `--redact`).
    infrastructures: Infrastructure,
    /// The `cluster` DNS config (the base domain, for `--redact`).
    dnses: Dns,
    /// HyperShift HostedControlPlanes (every copy: two that contradict each other are
    /// reported, see `app::clusters`).
    hosted_control_planes: HostedControlPlane,
    /// HyperShift HostedClusters (every copy).
    hosted_clusters: HostedCluster,
    /// The `cluster` FeatureGate (which gates are on for each version).
    feature_gates: FeatureGate,
}

fn name_key(m: &ObjectMeta) -> Option<String> {
    Some(m.name.clone())
}

impl Kind for ClusterVersion {
    const KIND: &'static str = "ClusterVersion";
    const PATH_NAMES: &'static [&'static str] = &["clusterversions", "clusterversion"];

    /// Snapshots differ by cluster, status and resourceVersion: the same one read twice
    /// (gather-extra and must-gather) is one; different ones are all kept, and two clusters
    /// whose status happens to be the same are never one.
    fn key(&self) -> Option<String> {
        Some(format!(
            "{}\u{0}{}\u{0}{}",
            self.spec.cluster_id,
            serde_json::to_string(&self.status).unwrap_or_default(),
            self.metadata.resource_version
        ))
    }

    fn freshness(&self) -> Option<Time> {
        let h = self
            .status
            .history
            .iter()
            .flat_map(|h| [h.started_time, h.completion_time])
            .flatten()
            .max();
        condition_freshness(&self.status.conditions).max(h)
    }

    fn has_shape(v: &Value) -> bool {
        v.get("status").and_then(|s| s.get("history")).is_some()
            || v.pointer("/spec/clusterID").is_some()
    }

    fn order(v: &mut Vec<Sourced<Self>>) {
        v.sort_by_key(|cv| cv.value.freshness());
    }
}

impl Kind for ClusterOperator {
    const KIND: &'static str = "ClusterOperator";
    const PATH_NAMES: &'static [&'static str] = &["clusteroperators", "clusteroperator"];

    fn key(&self) -> Option<String> {
        name_key(&self.metadata)
    }

    fn freshness(&self) -> Option<Time> {
        condition_freshness(&self.status.conditions)
    }

    fn has_shape(v: &Value) -> bool {
        v.get("status").and_then(|s| s.get("versions")).is_some()
            || v.get("relatedObjects").is_some()
    }
}

impl Kind for HostedControlPlane {
    const KIND: &'static str = "HostedControlPlane";
    const PATH_NAMES: &'static [&'static str] = &["hostedcontrolplanes"];

    /// Every copy is kept: which namespace each claims is what tells hosted clusters apart.
    fn key(&self) -> Option<String> {
        None
    }

    fn freshness(&self) -> Option<Time> {
        None
    }
}

impl Kind for HostedCluster {
    const KIND: &'static str = "HostedCluster";
    const PATH_NAMES: &'static [&'static str] = &["hostedclusters"];

    fn key(&self) -> Option<String> {
        None
    }

    fn freshness(&self) -> Option<Time> {
        None
    }
}

impl Kind for Node {
    const KIND: &'static str = "Node";
    const PATH_NAMES: &'static [&'static str] = &["nodes"];

    fn key(&self) -> Option<String> {
        name_key(&self.metadata)
    }

    fn freshness(&self) -> Option<Time> {
        condition_freshness(&self.status.conditions)
    }

    fn has_shape(v: &Value) -> bool {
        v.get("status").and_then(|s| s.get("nodeInfo")).is_some()
    }
}

impl Kind for MachineConfigPool {
    const KIND: &'static str = "MachineConfigPool";
    const PATH_NAMES: &'static [&'static str] = &["machineconfigpools"];

    fn key(&self) -> Option<String> {
        name_key(&self.metadata)
    }

    fn freshness(&self) -> Option<Time> {
        condition_freshness(&self.status.conditions)
    }

    fn has_shape(v: &Value) -> bool {
        v.get("status")
            .and_then(|s| s.get("machineCount"))
            .is_some()
    }
}

impl Kind for Infrastructure {
    const KIND: &'static str = "Infrastructure";
    /// `infrastructures` in a must-gather, `infrastructure` in an Insights archive
    /// (`config/infrastructure.json`).
    const PATH_NAMES: &'static [&'static str] = &["infrastructures", "infrastructure"];

    fn key(&self) -> Option<String> {
        name_key(&self.metadata)
    }

    fn freshness(&self) -> Option<Time> {
        self.metadata.creation_timestamp
    }
}

impl Kind for FeatureGate {
    const KIND: &'static str = "FeatureGate";
    /// `featuregates` in a must-gather, `featuregate` in an Insights archive
    /// (`config/featuregate.json`).
    const PATH_NAMES: &'static [&'static str] = &["featuregates", "featuregate"];

    fn key(&self) -> Option<String> {
        name_key(&self.metadata)
    }

    fn freshness(&self) -> Option<Time> {
        self.metadata.creation_timestamp
    }
}

impl Kind for Dns {
    const KIND: &'static str = "DNS";
    const PATH_NAMES: &'static [&'static str] = &["dnses"];

    fn key(&self) -> Option<String> {
        name_key(&self.metadata)
    }

    fn freshness(&self) -> Option<Time> {
        self.metadata.creation_timestamp
    }
}

impl Kind for MachineConfig {
    const KIND: &'static str = "MachineConfig";
    const PATH_NAMES: &'static [&'static str] = &["machineconfigs"];

    fn key(&self) -> Option<String> {
        name_key(&self.metadata)
    }

    fn freshness(&self) -> Option<Time> {
        self.metadata.creation_timestamp
    }
}

impl Kind for Deployment {
    const KIND: &'static str = "Deployment";
    const PATH_NAMES: &'static [&'static str] = &["deployments"];

    fn key(&self) -> Option<String> {
        name_key(&self.metadata)
    }

    fn freshness(&self) -> Option<Time> {
        self.metadata.creation_timestamp
    }

    /// Only the machine-config-operator Deployment is read.
    fn wanted(&self) -> bool {
        self.metadata.name == "machine-config-operator"
            && (self.metadata.namespace.is_empty()
                || self.metadata.namespace == "openshift-machine-config-operator")
    }
}

impl Kind for Alerts {
    const KIND: &'static str = "Alerts";
    const PATH_NAMES: &'static [&'static str] = &[];

    /// Every alerts document is kept (they are not objects with names).
    fn key(&self) -> Option<String> {
        None
    }

    fn freshness(&self) -> Option<Time> {
        None
    }
}

impl Kind for UpdateStatus {
    const KIND: &'static str = "UpdateStatus";
    const PATH_NAMES: &'static [&'static str] = &["updatestatuses"];

    fn key(&self) -> Option<String> {
        Some(format!("{}/{}", self.kind, self.metadata.name))
    }

    fn freshness(&self) -> Option<Time> {
        self.metadata.creation_timestamp
    }
}

impl Kind for Event {
    const KIND: &'static str = "Event";
    const PATH_NAMES: &'static [&'static str] = &["events"];

    fn key(&self) -> Option<String> {
        Some(if self.metadata.uid.is_empty() {
            format!(
                "{}/{}/{}/{:?}/{}",
                self.metadata.namespace,
                self.metadata.name,
                self.reason,
                self.first_seen(),
                self.message
            )
        } else {
            self.metadata.uid.clone()
        })
    }

    fn freshness(&self) -> Option<Time> {
        self.last_seen()
    }

    fn has_shape(v: &Value) -> bool {
        v.get("involvedObject").is_some()
            || (v.get("reason").is_some() && v.get("lastTimestamp").is_some())
    }
}

impl Kind for Pod {
    const KIND: &'static str = "Pod";
    const PATH_NAMES: &'static [&'static str] = &["pods"];

    fn key(&self) -> Option<String> {
        name_key(&self.metadata)
    }

    fn freshness(&self) -> Option<Time> {
        self.status.start_time
    }

    /// Only the CVO's pods are read.
    fn wanted(&self) -> bool {
        self.metadata.name.starts_with("cluster-version-operator")
            && (self.metadata.namespace.is_empty()
                || self.metadata.namespace == "openshift-cluster-version")
    }
}
