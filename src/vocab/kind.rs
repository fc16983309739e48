//! File kinds, and deciding from a file's path alone whether the analysis needs it and which
//! parser reads it (must-gather, `oc adm inspect` and Prow layouts), with what the path says
//! of the file ([`Location`]): the walker classifies each path once ([`classify`]) and the
//! location travels with the file to its parser and into the file table. Content sniffing,
//! for paths that say nothing, is ingestion's (it knows the formats).

use super::mg_path::{ContainerLog, CvoLogId, LogFile, MgPath, Resource, cvo_log, segments};
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
    /// Stable name used in summaries and JSON (serde's, from `rename_all`).
    pub fn name(self) -> &'static str {
        crate::vocab::names::serde_name(&self)
    }
}

/// What a file's path says of it beyond its kind, parsed once (by the walker, with the kind)
/// and carried with the file: in `source::VFile` to its parser, then in the file table
/// (`FileEntry::at`). No later stage splits the path again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Location {
    /// The path says nothing more (or the kind came from the content).
    #[default]
    Plain,
    /// A file of Kubernetes objects.
    Resource(ResourceAt),
    /// A CVO container log.
    CvoLog(CvoLogAt),
    /// A container log a known-issue rule reads.
    ContainerLog(ContainerLogAt),
}

/// Where a resource file sits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResourceAt {
    /// The object kind the path names (`…/clusteroperators/etcd.yaml`, `nodes.json`): the
    /// kind of items that name none. Set by the source layer, which knows the object kinds.
    pub object: Option<&'static str>,
    /// In a must-gather's layout: `<group>/<plural>` (a list file's plural is its stem).
    pub resource: Option<(String, String)>,
    /// The namespace of a namespaced resource in a must-gather's layout.
    pub namespace: Option<String>,
    /// Read only because a known-issue rule asks for it (`vocab::wants`).
    pub for_rules: bool,
}

/// Which CVO container log a file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CvoLogAt {
    /// The pod; empty when the path does not say.
    pub pod: String,
    pub file: LogFile,
    /// HyperShift's flat layout (`…namespaces/<ns>/core/pods/logs/<file>`): the hosted
    /// control plane's namespace the log sits in. Set by the source layer, from the path
    /// with its input's name.
    pub namespace: Option<String>,
}

impl From<CvoLogId<'_>> for CvoLogAt {
    fn from(id: CvoLogId<'_>) -> CvoLogAt {
        CvoLogAt {
            pod: id.pod.to_string(),
            file: id.file,
            namespace: None,
        }
    }
}

/// Which container log a file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContainerLogAt {
    pub namespace: String,
    pub pod: String,
    pub container: String,
    pub file: LogFile,
}

impl ContainerLogAt {
    /// The borrowed form path rules are written against.
    pub fn borrowed(&self) -> ContainerLog<'_> {
        ContainerLog {
            namespace: &self.namespace,
            pod: &self.pod,
            container: &self.container,
            file: self.file,
        }
    }
}

impl From<ContainerLog<'_>> for ContainerLogAt {
    fn from(c: ContainerLog<'_>) -> ContainerLogAt {
        ContainerLogAt {
            namespace: c.namespace.to_string(),
            pod: c.pod.to_string(),
            container: c.container.to_string(),
            file: c.file,
        }
    }
}

impl Location {
    /// A resource in a must-gather's layout.
    pub(super) fn mg_resource(namespace: Option<&str>, r: Resource<'_>, for_rules: bool) -> Self {
        Location::Resource(ResourceAt {
            object: None,
            resource: Some((r.group.to_string(), r.plural.to_string())),
            namespace: namespace.map(str::to_string),
            for_rules,
        })
    }

    /// What a file whose kind was sniffed from its content (its path said nothing) is, by
    /// its name (`name`: its path, or the input's name when the input is the file): a CVO
    /// log by gather-extra's name or a name holding `previous`.
    pub fn sniffed(kind: FileKind, name: &str) -> Location {
        match kind {
            FileKind::Resource => Location::Resource(ResourceAt::default()),
            FileKind::CvoLog => {
                let parts = segments(name);
                let id = cvo_log(&parts).unwrap_or_else(|| {
                    super::mg_path::cvo_log_by_name(parts.last().copied().unwrap_or(""))
                });
                Location::CvoLog(id.into())
            }
            _ => Location::Plain,
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
    classify(path).map(|(kind, _)| kind)
}

/// Classifies a `/`-separated path relative to an input root, with what the path says of the
/// file. `None` means "not needed".
pub fn classify(path: &str) -> Option<(FileKind, Location)> {
    let parts = segments(path);
    let name = *parts.last()?;
    let lower = name.to_ascii_lowercase();
    let resource = || {
        Some((
            FileKind::Resource,
            Location::Resource(ResourceAt::default()),
        ))
    };
    let plain = |kind| Some((kind, Location::Plain));

    if name == "timestamp" {
        return plain(FileKind::Timestamp);
    }
    if matches!(name, "prowjob.json" | "started.json" | "finished.json") {
        return plain(FileKind::ProwMeta);
    }
    if parts.len() >= 2 && parts[parts.len() - 2..] == ["monitoring", "alerts.json"] {
        // A must-gather's alerts (the Prometheus alerts or rules API response).
        return resource();
    }
    if let Some(id) = cvo_log(&parts) {
        return Some((FileKind::CvoLog, Location::CvoLog(id.into())));
    }
    if let Some(p) = MgPath::parse(&parts) {
        let at = match p {
            MgPath::Cluster(r) => {
                cluster_resource_wanted(r).then(|| Location::mg_resource(None, r, false))
            }
            MgPath::Namespaced {
                namespace,
                resource,
            } => namespaced_resource_wanted(namespace, resource)
                .then(|| Location::mg_resource(Some(namespace), resource, false)),
            MgPath::Pod { namespace, .. } => (namespace == "openshift-cluster-version")
                .then(|| Location::Resource(ResourceAt::default())),
            MgPath::ContainerLog(_) | MgPath::Other => None,
        };
        return at
            .filter(|_| is_yaml_or_json(&lower))
            .map(|at| (FileKind::Resource, at));
    }
    if insights_path(&parts) {
        return resource();
    }
    if let [.., "gather-extra", "artifacts", "pods", _] = parts.as_slice() {
        // gather-extra's other pod logs.
        return None;
    }
    let bare = lower.trim_end_matches(".gz");
    if parts.contains(&"artifacts") && CI_OBJECT_FILES.contains(&bare) {
        // gather-extra/artifacts/*.json and the older artifacts/<target>/*.json.
        return resource();
    }
    if (bare.starts_with("e2e-events_")
        || bare.starts_with("e2e-timelines_")
        || bare.starts_with("e2e-intervals_"))
        && bare.ends_with(".json")
    {
        return plain(FileKind::Intervals);
    }
    if bare.ends_with(".xml") && (bare.starts_with("junit") || parts.contains(&"junit")) {
        return plain(FileKind::Junit);
    }
    if (name == "test.log" && parts.contains(&"container-logs"))
        || (name == "build-log.txt" && parts.len() >= 2)
    {
        return plain(FileKind::TestLog);
    }
    if name == "version" && parts.len() >= 2 {
        return plain(FileKind::GatherVersion);
    }
    if is_archive_name(&lower)
        && (parts.contains(&"artifacts")
            || parts.contains(&"insights-data")
            || lower.contains("must-gather")
            || lower.starts_with("insights-"))
    {
        return plain(FileKind::NestedArchive);
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
fn insights_path(parts: &[&str]) -> bool {
    let Some(i) = parts.iter().rposition(|p| *p == "config" || *p == "events") else {
        return false;
    };
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
    wanted && insights
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

    /// What the path says travels typed: a resource's place, a CVO log's pod and file (by
    /// each of its three names, and by name alone when its content told the kind).
    #[test]
    fn locations_say_what_the_path_says() {
        let hcp = "mg/namespaces/clusters-a/hypershift.openshift.io/hostedcontrolplanes/a.yaml";
        assert_eq!(
            classify(hcp),
            Some((
                FileKind::Resource,
                Location::Resource(ResourceAt {
                    object: None,
                    resource: Some((
                        "hypershift.openshift.io".into(),
                        "hostedcontrolplanes".into()
                    )),
                    namespace: Some("clusters-a".into()),
                    for_rules: false,
                })
            ))
        );
        let cvo = |pod: &str, file| {
            Location::CvoLog(CvoLogAt {
                pod: pod.into(),
                file,
                namespace: None,
            })
        };
        let pod = "cluster-version-operator-7c9d8f6b54-x2k8p";
        for (path, want) in [
            (
                format!(
                    "ci/gather-extra/artifacts/pods/openshift-cluster-version_{pod}_cluster-version-operator_previous.log.gz"
                ),
                cvo(pod, LogFile::Previous),
            ),
            (
                format!(
                    "mg/namespaces/clusters-a/core/pods/logs/{pod}-cluster-version-operator.log"
                ),
                cvo(pod, LogFile::Current),
            ),
            (
                format!(
                    "mg/namespaces/openshift-cluster-version/pods/{pod}/cluster-version-operator/cluster-version-operator/logs/previous.log"
                ),
                cvo(pod, LogFile::Previous),
            ),
        ] {
            assert_eq!(classify(&path), Some((FileKind::CvoLog, want)), "{path}");
        }
        assert_eq!(
            Location::sniffed(FileKind::CvoLog, "saved/cvo-previous.log"),
            cvo("", LogFile::Previous)
        );
        assert_eq!(
            Location::sniffed(FileKind::Junit, "saved/x.xml"),
            Location::Plain
        );
        assert_eq!(
            crate::vocab::mg_path::flat_log_namespace(&format!(
                "dump/namespaces/clusters-a/core/pods/logs/{pod}-cluster-version-operator.log"
            )),
            Some("clusters-a")
        );
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
