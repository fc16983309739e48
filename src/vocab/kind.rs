//! File kinds, and deciding from a file's path alone whether the analysis needs it and which
//! parser reads it (must-gather, `oc adm inspect` and Prow layouts). Content sniffing, for
//! paths that say nothing, is ingestion's (it knows the formats).

use super::mg_path::{MgPath, Resource, cvo_log, segments};
use serde::Serialize;

/// The parser a file goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// A Kubernetes object, list or aggregate (YAML or JSON).
    Resource,
    /// A CVO container log.
    CvoLog,
    /// An origin monitor interval file.
    Intervals,
    /// A CI test or build log with monitor and e2e lines.
    TestLog,
    /// A JUnit XML report.
    Junit,
    /// A must-gather `timestamp` file.
    Timestamp,
    /// A must-gather image `version` file.
    GatherVersion,
    /// `prowjob.json`, `started.json` or `finished.json`.
    ProwMeta,
    /// An archive inside the input (e.g. `gather-must-gather/artifacts/must-gather.tar`).
    NestedArchive,
    /// A container log other than the CVO's, read only when a known-issue rule asks for it
    /// (see `vocab::wants`).
    PodLog,
}

impl FileKind {
    /// Stable name used in summaries and JSON.
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Resource => "resource",
            FileKind::CvoLog => "cvo-log",
            FileKind::Intervals => "intervals",
            FileKind::TestLog => "test-log",
            FileKind::Junit => "junit",
            FileKind::Timestamp => "timestamp",
            FileKind::GatherVersion => "gather-version",
            FileKind::ProwMeta => "prow-meta",
            FileKind::NestedArchive => "nested-archive",
            FileKind::PodLog => "pod-log",
        }
    }
}

/// How strictly content sniffing judges a file whose path says nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SniffMode {
    /// The user named the file (or piped it in): any klog log is taken for a CVO log.
    Named,
    /// Found in a directory or archive with no known layout: only what is clearly one of
    /// mglint's inputs is read (a klog log must show the CVO's own source files).
    Loose,
}

/// Namespaces whose `core/events.yaml` the timeline reads.
const EVENT_NAMESPACES: &[&str] = &[
    "openshift-cluster-version",
    "openshift-machine-config-operator",
    "default",
];

/// gather-extra (and older CI) object dumps the analysis reads.
const CI_OBJECT_FILES: &[&str] = &[
    "clusterversion.json",
    "clusteroperators.json",
    "nodes.json",
    "events.json",
    "machineconfigpools.json",
    "machineconfigs.json",
];

/// Classifies a `/`-separated path relative to an input root. `None` means "not needed".
pub fn classify_path(path: &str) -> Option<FileKind> {
    let parts = segments(path);
    let name = *parts.last()?;
    let lower = name.to_ascii_lowercase();

    if name == "timestamp" {
        return Some(FileKind::Timestamp);
    }
    if matches!(name, "prowjob.json" | "started.json" | "finished.json") {
        return Some(FileKind::ProwMeta);
    }
    if parts.len() >= 2 && parts[parts.len() - 2..] == ["monitoring", "alerts.json"] {
        // A must-gather's alerts (the Prometheus alerts or rules API response).
        return Some(FileKind::Resource);
    }
    if cvo_log(&parts).is_some() {
        return Some(FileKind::CvoLog);
    }
    if let Some(p) = MgPath::parse(&parts) {
        let wanted = match p {
            MgPath::Cluster(r) => cluster_resource_wanted(r),
            MgPath::Namespaced {
                namespace,
                resource,
            } => namespaced_resource_wanted(namespace, resource),
            MgPath::Pod { namespace, .. } => namespace == "openshift-cluster-version",
            MgPath::ContainerLog(_) | MgPath::Other => false,
        };
        return (wanted && is_yaml_or_json(&lower)).then_some(FileKind::Resource);
    }
    if let Some(kind) = insights_path(&parts) {
        return Some(kind);
    }
    if let [.., "gather-extra", "artifacts", "pods", _] = parts.as_slice() {
        // gather-extra's other pod logs.
        return None;
    }
    let bare = lower.trim_end_matches(".gz");
    if parts.contains(&"artifacts") && CI_OBJECT_FILES.contains(&bare) {
        // gather-extra/artifacts/*.json and the older artifacts/<target>/*.json.
        return Some(FileKind::Resource);
    }
    if (bare.starts_with("e2e-events_")
        || bare.starts_with("e2e-timelines_")
        || bare.starts_with("e2e-intervals_"))
        && bare.ends_with(".json")
    {
        return Some(FileKind::Intervals);
    }
    if bare.ends_with(".xml") && (bare.starts_with("junit") || parts.contains(&"junit")) {
        return Some(FileKind::Junit);
    }
    if (name == "test.log" && parts.contains(&"container-logs"))
        || (name == "build-log.txt" && parts.len() >= 2)
    {
        return Some(FileKind::TestLog);
    }
    if name == "version" && parts.len() >= 2 {
        return Some(FileKind::GatherVersion);
    }
    if is_archive_name(&lower)
        && (parts.contains(&"artifacts")
            || parts.contains(&"insights-data")
            || lower.contains("must-gather")
            || lower.starts_with("insights-"))
    {
        return Some(FileKind::NestedArchive);
    }
    None
}

/// The cluster-scoped objects the analysis reads (lists only as `<plural>.yaml`).
fn cluster_resource_wanted(r: Resource<'_>) -> bool {
    let yaml_list = r.item.is_some() || r.file.ends_with(".yaml");
    match (r.group, r.plural, r.item) {
        (
            "config.openshift.io",
            "clusterversions" | "clusteroperators" | "infrastructures" | "dnses" | "featuregates",
            _,
        )
        | ("core", "nodes", _)
        | ("machineconfiguration.openshift.io", "machineconfigpools" | "machineconfigs", _) => {
            yaml_list
        }
        (
            "update.openshift.io",
            "updatestatuses"
            | "clusterversionprogressinsights"
            | "clusteroperatorprogressinsights"
            | "machineconfigpoolprogressinsights"
            | "nodeprogressinsights"
            | "healthinsights",
            Some(_),
        ) => true,
        ("update.openshift.io", _, None) => {
            r.file.ends_with("insights.yaml") || r.file == "updatestatuses.yaml"
        }
        _ => false,
    }
}

/// The namespaced objects the analysis reads.
fn namespaced_resource_wanted(ns: &str, r: Resource<'_>) -> bool {
    match (ns, r.group, r.plural, r.item) {
        (ns, "core", "events", _) | (ns, "events.k8s.io", "events", Some(_)) => {
            // Lists in `core/events.yaml`; one object per file in `oc adm inspect` and
            // HyperShift dumps (core/v1) and resourcewatch repositories (events.k8s.io/v1).
            EVENT_NAMESPACES.contains(&ns) && (r.item.is_some() || r.file == "events.yaml")
        }
        // HyperShift's control plane objects: which hosted cluster each control plane
        // namespace is (see `app::clusters`).
        (_, "hypershift.openshift.io", "hostedcontrolplanes" | "hostedclusters", Some(_)) => true,
        ("openshift-cluster-version", "core", "pods", item) => {
            item.is_some() || r.file == "pods.yaml"
        }
        ("openshift-machine-config-operator", "apps", "deployments", item) => {
            item.is_none_or(|f| f == "machine-config-operator.yaml")
                && (item.is_some() || r.file == "deployments.yaml")
        }
        _ => false,
    }
}

/// The Insights operator's archive (`insights-*.tar.gz`, also in must-gathers'
/// `insights-data/`): `config/version.json`, `config/clusteroperator/<name>.json`,
/// `config/node/<name>.json`, `config/machineconfigpools/<name>.json`,
/// `config/machineconfigs/<name>.json`, `config/alerts.json`, `config/featuregate.json`,
/// `config/infrastructure.json`, `events/<namespace>.json`; the older layout's `config/version`
/// and `config/clusteroperator/<name>` without `.json`.
fn insights_path(parts: &[&str]) -> Option<FileKind> {
    let i = parts
        .iter()
        .rposition(|p| *p == "config" || *p == "events")?;
    let rest = &parts[i..];
    // Older archives (before 4.5) name their records without an extension
    // (`config/version`, `config/clusteroperator/<name>`): the content is the same JSON.
    let json = |f: &str| f.ends_with(".json") || !f.contains('.');
    let wanted = match rest {
        [
            "config",
            "version.json" | "alerts.json" | "version" | "featuregate.json" | "infrastructure.json",
        ] => true,
        [
            "config",
            "clusteroperator" | "node" | "machineconfigpools" | "machineconfigs",
            f,
        ] => json(f),
        // The operator keeps the events of the namespaces of unhealthy operators only
        // (`events/<namespace>.json`, compacted): every one is read, not only the namespaces
        // a must-gather's events are read from.
        ["events", f] => json(f),
        _ => false,
    };
    // Only inside an Insights layout: `config/…` also names other things.
    let insights = i == 0
        || parts[..i]
            .iter()
            .any(|p| p.starts_with("insights") || p.contains("insights-data"));
    (wanted && insights).then_some(FileKind::Resource)
}

fn is_yaml_or_json(lower: &str) -> bool {
    lower.ends_with(".yaml") || lower.ends_with(".yml") || lower.ends_with(".json")
}

/// Whether a file name looks like an archive we can stream.
pub fn is_archive_name(lower: &str) -> bool {
    lower.ends_with(".tar")
        || lower.ends_with(".tar.gz")
        || lower.ends_with(".tgz")
        || lower.ends_with(".tar.xz")
        || lower.ends_with(".txz")
        || lower.ends_with(".tar.zst")
        || lower.ends_with(".tzst")
        || lower.ends_with(".zip")
}

#[cfg(test)]
mod tests {
    use super::*;

    const IMG: &str = "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-eede";

    #[test]
    fn hypershift_control_plane_cvo_logs() {
        let dir = "namespaces/clusters-alpha/core/pods/logs";
        let pod = "cluster-version-operator-7c9d8f6b54-x2k8p";
        for (file, cvo) in [
            (format!("{pod}-cluster-version-operator.log"), true),
            (format!("{pod}-cluster-version-operator-previous.log"), true),
            (format!("{pod}-prepare-payload.log"), false),
            (format!("{pod}-bootstrap.log"), false),
            ("operator-6d9f8b7c5-abcde-operator.log".to_string(), false),
        ] {
            let kind = classify_path(&format!("{dir}/{file}"));
            assert_eq!(kind == Some(FileKind::CvoLog), cvo, "{file}");
        }
    }

    #[test]
    fn must_gather_paths() {
        let cases = [
            (
                format!(
                    "{IMG}/cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml"
                ),
                Some(FileKind::Resource),
            ),
            (
                format!(
                    "{IMG}/cluster-scoped-resources/config.openshift.io/clusteroperators/etcd.yaml"
                ),
                Some(FileKind::Resource),
            ),
            (
                format!("{IMG}/cluster-scoped-resources/config.openshift.io/clusteroperators.yaml"),
                Some(FileKind::Resource),
            ),
            (
                format!(
                    "{IMG}/cluster-scoped-resources/config.openshift.io/infrastructures/cluster.yaml"
                ),
                Some(FileKind::Resource),
            ),
            (
                format!("{IMG}/cluster-scoped-resources/config.openshift.io/proxies.yaml"),
                None,
            ),
            (
                format!("{IMG}/cluster-scoped-resources/core/nodes/ip-10-0-1-1.yaml"),
                Some(FileKind::Resource),
            ),
            (
                format!("{IMG}/cluster-scoped-resources/core/persistentvolumes/pv.yaml"),
                None,
            ),
            (
                format!("{IMG}/namespaces/openshift-cluster-version/core/events.yaml"),
                Some(FileKind::Resource),
            ),
            (
                format!("{IMG}/namespaces/openshift-etcd/core/events.yaml"),
                None,
            ),
            (
                format!(
                    "{IMG}/namespaces/openshift-cluster-version/pods/cluster-version-operator-1/cluster-version-operator-1.yaml"
                ),
                Some(FileKind::Resource),
            ),
            (
                format!(
                    "{IMG}/namespaces/openshift-cluster-version/pods/cluster-version-operator-1/cluster-version-operator/cluster-version-operator/logs/previous.log"
                ),
                Some(FileKind::CvoLog),
            ),
            (
                format!("{IMG}/namespaces/openshift-etcd/pods/etcd-0/etcd/etcd/logs/current.log"),
                None,
            ),
            (format!("{IMG}/timestamp"), Some(FileKind::Timestamp)),
            (
                format!(
                    "{IMG}/cluster-scoped-resources/machineconfiguration.openshift.io/machineconfigs/rendered-master-1.yaml"
                ),
                Some(FileKind::Resource),
            ),
            (
                format!("{IMG}/namespaces/openshift-machine-config-operator/apps/deployments.yaml"),
                Some(FileKind::Resource),
            ),
            (
                format!("{IMG}/namespaces/openshift-monitoring/apps/deployments.yaml"),
                None,
            ),
            (
                format!("{IMG}/monitoring/alerts.json"),
                Some(FileKind::Resource),
            ),
            (format!("{IMG}/version"), Some(FileKind::GatherVersion)),
        ];
        for (p, want) in cases {
            assert_eq!(
                classify_path(&format!("must-gather.local.123/{p}")),
                want,
                "{p}"
            );
        }
    }

    #[test]
    fn ci_paths() {
        let t = "artifacts/e2e-aws-ovn-upgrade";
        assert_eq!(
            classify_path(&format!("{t}/gather-extra/artifacts/clusterversion.json")),
            Some(FileKind::Resource)
        );
        assert_eq!(
            classify_path(&format!("{t}/gather-extra/artifacts/events.json")),
            Some(FileKind::Resource)
        );
        assert_eq!(
            classify_path(&format!("{t}/gather-extra/artifacts/pods.json")),
            None
        );
        assert_eq!(
            classify_path(&format!(
                "{t}/gather-extra/artifacts/pods/openshift-cluster-version_cluster-version-operator-5d_cluster-version-operator.log"
            )),
            Some(FileKind::CvoLog)
        );
        assert_eq!(
            classify_path(&format!(
                "{t}/gather-extra/artifacts/pods/openshift-etcd_etcd-0_etcd.log"
            )),
            None
        );
        assert_eq!(
            classify_path(&format!(
                "{t}/openshift-e2e-test/artifacts/junit/e2e-events_20231103-143012.json"
            )),
            Some(FileKind::Intervals)
        );
        assert_eq!(
            classify_path(&format!(
                "{t}/openshift-e2e-test/artifacts/junit/junit_e2e_20231103-143012.xml"
            )),
            Some(FileKind::Junit)
        );
        assert_eq!(
            classify_path(&format!("{t}/openshift-e2e-test/build-log.txt")),
            Some(FileKind::TestLog)
        );
        assert_eq!(
            classify_path("artifacts/e2e-aws-upgrade/container-logs/test.log"),
            Some(FileKind::TestLog)
        );
        assert_eq!(
            classify_path("artifacts/e2e-aws-upgrade/nodes.json"),
            Some(FileKind::Resource)
        );
        assert_eq!(
            classify_path(&format!("{t}/gather-must-gather/artifacts/must-gather.tar")),
            Some(FileKind::NestedArchive)
        );
        assert_eq!(classify_path("prowjob.json"), Some(FileKind::ProwMeta));
        assert_eq!(classify_path("finished.json"), Some(FileKind::ProwMeta));
    }
}
