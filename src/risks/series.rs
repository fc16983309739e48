//! The metric series a dump can give, synthesized from its objects as the in-cluster
//! exporters would report them at the time of the dump (docs/risks.md has the table). A
//! metric is *derived* only when the objects it comes from are in the dump; then its series
//! are all the cluster would have. Every other metric is missing, and a query that reads it
//! cannot be evaluated offline. Each series carries the file of the object behind it.

use super::promql::{Metrics, Sample};
use crate::bundle::Bundle;
use crate::model::Sourced;
use crate::vocab::wants::{ResourceWant, Wants};
use serde_json::Value;

/// The kinds read whole for the series (fields the typed model does not keep).
const RAW_KINDS: &[&str] = &["ClusterVersion", "Infrastructure", "FeatureGate"];

/// The cluster-scoped resources read for the series beyond what the analysis reads.
const RESOURCES: &[(&str, &str)] = &[("config.openshift.io", "featuregates")];

/// Asks ingestion for the objects the series come from.
pub fn add_wants(w: &mut Wants) {
    for (group, plural) in RESOURCES {
        w.resources.insert(ResourceWant {
            group: Some(group.to_string()),
            plural: plural.to_string(),
        });
    }
    w.kinds.extend(RAW_KINDS.iter().map(|k| k.to_string()));
}

/// Every metric mglint derives, for docs and `--explain`: (name, labels, source).
pub const DERIVED: &[(&str, &str, &str)] = &[
    (
        "cluster_version",
        "type (initial, current, completed, updating), version, image",
        "ClusterVersion `status.history` (initial: the oldest entry; completed: the newest Completed one; updating: the newest when Partial) and `status.desired` (current)",
    ),
    (
        "cluster_infrastructure_provider",
        "type, region",
        "Infrastructure `cluster`: `status.platformStatus.type` (else `status.platform`), the region of the platform's status",
    ),
    (
        "cluster_operator_conditions",
        "name, condition, reason",
        "every ClusterOperator's conditions and the ClusterVersion's (`name=\"version\"`): 1 True, 0 False, -1 otherwise",
    ),
    (
        "cluster_operator_up",
        "name, version",
        "every ClusterOperator: 1 when Available is True, else 0; version: its `operator` version",
    ),
    (
        "cluster_version_capability",
        "name",
        "ClusterVersion `status.capabilities`: 1 for each enabled capability, 0 for each known one not enabled",
    ),
    (
        "cluster_feature_set",
        "name",
        "FeatureGate `cluster` `spec.featureSet` (empty for the default set)",
    ),
    (
        "kube_node_labels",
        "node, label_<label> for every label (names sanitized as kube-state-metrics does)",
        "every Node's `metadata.labels`",
    ),
    (
        "kube_node_role",
        "node, role",
        "every Node's `node-role.kubernetes.io/<role>` labels",
    ),
    (
        "mcd_update_state",
        "node, config",
        "every Node with the `machineconfiguration.openshift.io/currentConfig` annotation (config: that annotation)",
    ),
];

/// Whether a selector reads a fact that holds for the cluster's life (or nearly), so that its
/// series at the dump were the same when an earlier update ran: the install version
/// (`cluster_version{type="initial"}`), the platform, the feature set, the capabilities (never
/// disabled once enabled), the nodes' labels and roles (OS, architecture), and which
/// ClusterOperators exist (a `cluster_operator_conditions` or `cluster_operator_up` selector
/// matching on `name` alone: a query reading a condition's value matches on `condition`).
/// Everything else (a condition, a node's update state, the current version) is the cluster's
/// state at the dump.
pub fn stable(metric: &str, equal: &[(String, String)]) -> bool {
    let only = |allowed: &[&str]| equal.iter().all(|(k, _)| allowed.contains(&k.as_str()));
    match metric {
        "cluster_infrastructure_provider"
        | "cluster_feature_set"
        | "cluster_version_capability"
        | "kube_node_labels"
        | "kube_node_role" => true,
        "cluster_version" => equal.iter().any(|(k, v)| k == "type" && v == "initial"),
        "cluster_operator_conditions" | "cluster_operator_up" => only(&["_id", "name"]),
        _ => false,
    }
}

/// kube-state-metrics' label name for a Kubernetes label (`node.openshift.io/os_id` →
/// `label_node_openshift_io_os_id`).
fn sanitize(label: &str) -> String {
    let mut s = String::from("label_");
    s.extend(label.chars().map(|c| {
        if c.is_ascii_alphanumeric() || c == '_' {
            c
        } else {
            '_'
        }
    }));
    s
}

fn str_at<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    let mut cur = v;
    for p in path {
        match cur.get(p) {
            Some(x) => cur = x,
            None => return "",
        }
    }
    cur.as_str().unwrap_or("")
}

/// The object named `cluster` of `kind` (the last copy read).
fn cluster_singleton<'a>(b: &'a Bundle, kind: &'a str) -> Option<&'a Sourced<Value>> {
    b.objects.raw.iter().rfind(|o| {
        o.value.get("kind").and_then(Value::as_str) == Some(kind)
            && str_at(&o.value, &["metadata", "name"]) == "cluster"
    })
}

/// The series a bundle gives.
pub fn from_bundle(b: &Bundle) -> Metrics {
    let mut m = Metrics::default();
    cluster_version(b, &mut m);
    if let Some(o) = cluster_singleton(b, "Infrastructure") {
        let f = o.prov.display_path();
        let st = &o.value["status"];
        let mut ty = str_at(st, &["platformStatus", "type"]);
        if ty.is_empty() {
            ty = str_at(st, &["platform"]);
        }
        let region = st
            .get("platformStatus")
            .and_then(Value::as_object)
            .and_then(|ps| ps.values().find_map(|p| p.get("region")?.as_str()))
            .unwrap_or("");
        m.push(Sample::new(
            "cluster_infrastructure_provider",
            &[("type", ty), ("region", region)],
            1.0,
            &f,
        ));
    }
    operators(b, &mut m);
    nodes(b, &mut m);
    if let Some(o) = cluster_singleton(b, "FeatureGate") {
        let set = str_at(&o.value, &["spec", "featureSet"]);
        m.push(Sample::new(
            "cluster_feature_set",
            &[("name", set)],
            1.0,
            &o.prov.display_path(),
        ));
    }
    m
}

fn cluster_version(b: &Bundle, m: &mut Metrics) {
    let Some(cv) = b.cluster_version() else {
        return;
    };
    let f = cv.prov.display_path();
    let st = &cv.value.status;
    let secs = |t: Option<crate::vocab::Time>| t.map_or(0.0, |t| t.timestamp() as f64);
    m.derive("cluster_version");
    let mut push = |ty: &str, version: &str, image: &str, value: f64| {
        m.push(Sample::new(
            "cluster_version",
            &[("type", ty), ("version", version), ("image", image)],
            value,
            &f,
        ));
    };
    if let Some(h) = st.history.last() {
        push("initial", &h.version, &h.image, secs(h.completion_time));
    }
    if let Some(h) = st.history.iter().find(|h| h.is_completed()) {
        push("completed", &h.version, &h.image, secs(h.completion_time));
    }
    if let Some(h) = st.history.first().filter(|h| !h.is_completed()) {
        push("updating", &h.version, &h.image, secs(h.started_time));
    }
    if !st.desired.version.is_empty() || !st.desired.image.is_empty() {
        let started = st.history.first().and_then(|h| h.started_time);
        push(
            "current",
            &st.desired.version,
            &st.desired.image,
            secs(started),
        );
    }
    // The CVO reports its own conditions as `cluster_operator_conditions{name="version"}`;
    // the metric is derived only with the ClusterOperators (see `operators`).
    if !b.cluster_operators().is_empty() {
        for c in &st.conditions {
            m.push(condition_sample("version", c, &f));
        }
    }
    // Capabilities: the typed model does not keep them; the whole object does.
    let caps = b
        .objects
        .raw
        .iter()
        .rfind(|o| {
            o.prov.same_file(&cv.prov)
                && o.value.get("kind").and_then(Value::as_str) == Some("ClusterVersion")
        })
        .and_then(|o| o.value.get("status")?.get("capabilities"));
    if let Some(caps) = caps {
        let list = |k: &str| -> Vec<&str> {
            caps.get(k)
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default()
        };
        let enabled = list("enabledCapabilities");
        let mut known = list("knownCapabilities");
        for e in &enabled {
            if !known.contains(e) {
                known.push(e);
            }
        }
        m.derive("cluster_version_capability");
        for k in known {
            let v = if enabled.contains(&k) { 1.0 } else { 0.0 };
            m.push(Sample::new(
                "cluster_version_capability",
                &[("name", k)],
                v,
                &f,
            ));
        }
    }
}

fn condition_sample(name: &str, c: &crate::model::Condition, file: &str) -> Sample {
    let v = match c.status.as_str() {
        "True" => 1.0,
        "False" => 0.0,
        _ => -1.0,
    };
    Sample::new(
        "cluster_operator_conditions",
        &[
            ("name", name),
            ("condition", &c.type_),
            ("reason", &c.reason),
        ],
        v,
        file,
    )
}

fn operators(b: &Bundle, m: &mut Metrics) {
    let cos = b.cluster_operators();
    if cos.is_empty() {
        return;
    }
    m.derive("cluster_operator_conditions");
    m.derive("cluster_operator_up");
    for co in cos {
        let f = co.prov.display_path();
        let name = &co.value.metadata.name;
        for c in &co.value.status.conditions {
            m.push(condition_sample(name, c, &f));
        }
        let up = co
            .value
            .condition("Available")
            .is_some_and(|c| c.status == "True");
        m.push(Sample::new(
            "cluster_operator_up",
            &[
                ("name", name),
                ("version", co.value.operator_version().unwrap_or("")),
            ],
            if up { 1.0 } else { 0.0 },
            &f,
        ));
    }
}

fn nodes(b: &Bundle, m: &mut Metrics) {
    let nodes = &b.objects.nodes;
    if nodes.is_empty() {
        return;
    }
    m.derive("kube_node_labels");
    m.derive("kube_node_role");
    m.derive("mcd_update_state");
    for n in nodes {
        let f = n.prov.display_path();
        let name = n.value.metadata.name.as_str();
        let labels: Vec<(String, &str)> = n
            .value
            .metadata
            .labels
            .iter()
            .map(|(k, v)| (sanitize(k), v.as_str()))
            .collect();
        let mut pairs: Vec<(&str, &str)> = vec![("node", name)];
        pairs.extend(labels.iter().map(|(k, v)| (k.as_str(), *v)));
        m.push(Sample::new("kube_node_labels", &pairs, 1.0, &f));
        for k in n.value.metadata.labels.keys() {
            if let Some(role) = k.strip_prefix("node-role.kubernetes.io/") {
                m.push(Sample::new(
                    "kube_node_role",
                    &[("node", name), ("role", role)],
                    1.0,
                    &f,
                ));
            }
        }
        if let Some(cfg) = n.value.mco_annotation("currentConfig") {
            m.push(Sample::new(
                "mcd_update_state",
                &[("node", name), ("config", cfg)],
                1.0,
                &f,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_names_are_sanitized_as_kube_state_metrics_does() {
        assert_eq!(
            sanitize("node.openshift.io/os_id"),
            "label_node_openshift_io_os_id"
        );
        assert_eq!(sanitize("kubernetes.io/arch"), "label_kubernetes_io_arch");
    }
}
