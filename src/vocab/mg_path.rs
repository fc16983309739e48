//! The must-gather path layout, parsed once: where a dump keeps a cluster-scoped resource, a
//! namespaced resource, a pod object and a container log (current, previous or rotated), and
//! the two other names a CVO log goes by (HyperShift's flat `core/pods/logs/` and
//! gather-extra's `artifacts/pods/`). Kind detection (`vocab::kind`) and what known-issue
//! rules ask for (`vocab::wants`) read paths through [`MgPath::parse`] and [`cvo_log`] when
//! the walker classifies a file, once; what they find travels with the file as a typed
//! `vocab::kind::Location`, and no later stage splits the path again.

/// One segment-typed must-gather path. Anything before the last `cluster-scoped-resources/`
/// or `namespaces/` (the image directory, the must-gather directory) is ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MgPath<'a> {
    /// `cluster-scoped-resources/<group>/<plural>/<name>.yaml` or `…/<group>/<plural>.yaml`.
    Cluster(Resource<'a>),
    /// `namespaces/<ns>/<group>/<plural>/<name>.yaml` or `namespaces/<ns>/<group>/<plural>.yaml`.
    Namespaced {
        namespace: &'a str,
        resource: Resource<'a>,
    },
    /// A pod's own object: `namespaces/<ns>/pods/<pod>/<pod>.yaml`.
    Pod { namespace: &'a str, pod: &'a str },
    /// A container log: `namespaces/<ns>/pods/<pod>/<container>/<container>/logs/<file>`.
    ContainerLog(ContainerLog<'a>),
    /// Under `cluster-scoped-resources/` or `namespaces/`, in none of the shapes above.
    Other,
}

/// A resource file: one object (`item`) or a list of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resource<'a> {
    /// The API group directory (`core`, `config.openshift.io`).
    pub group: &'a str,
    /// The plural resource name (`clusteroperators`); for a list file, its name without the
    /// extension.
    pub plural: &'a str,
    /// The object's file name (`etcd.yaml`) when the file holds one object; `None` for a list.
    pub item: Option<&'a str>,
    /// The last segment as written (`etcd.yaml`, `clusteroperators.yaml`).
    pub file: &'a str,
}

/// Where a container log lives and which of its files this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContainerLog<'a> {
    pub namespace: &'a str,
    pub pod: &'a str,
    pub container: &'a str,
    pub file: LogFile,
}

/// Which of a container's log files a path is (and, in a known-issue rule's `files:`, which
/// ones it reads).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum LogFile {
    /// `current.log` (the running container).
    Current,
    /// `previous.log` (the container instance before the last restart).
    Previous,
    /// `rotated/<n>.log.<stamp>[.gz]` (an older part kubelet rotated out).
    Rotated,
}

impl LogFile {
    /// The name rule files use (`files: [current, previous, rotated]`), serde's.
    pub fn name(self) -> &'static str {
        crate::vocab::names::serde_name(&self)
    }

    /// What follows a container's `logs/`: `current.log`, `previous.log` (their `.insecure`
    /// forms, gzip-compressed or not), or a kubelet-rotated `rotated/<n>.log.<stamp>[.gz]`.
    fn parse(after_logs: &[&str]) -> Option<LogFile> {
        match after_logs {
            [file] => match file.strip_suffix(".gz").unwrap_or(file) {
                "current.log" | "current.insecure.log" => Some(LogFile::Current),
                "previous.log" | "previous.insecure.log" => Some(LogFile::Previous),
                _ => None,
            },
            ["rotated", file] => is_rotated_log(file).then_some(LogFile::Rotated),
            _ => None,
        }
    }
}

/// A kubelet-rotated container log: `<n>.log.<YYYYMMDD-HHMMSS>`, possibly gzip-compressed.
fn is_rotated_log(file: &str) -> bool {
    let f = file.strip_suffix(".gz").unwrap_or(file);
    let Some((n, stamp)) = f.split_once(".log.") else {
        return false;
    };
    let (day, time) = stamp.split_once('-').unwrap_or(("", ""));
    !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
        && day.len() == 8
        && time.len() == 6
        && day.bytes().chain(time.bytes()).all(|b| b.is_ascii_digit())
}

/// The path's `/`-separated segments, without empty ones and a leading `./`.
pub fn segments(path: &str) -> Vec<&str> {
    path.trim_start_matches("./")
        .split('/')
        .filter(|p| !p.is_empty())
        .collect()
}

/// The must-gather root a path lies under: the segments before its first
/// `cluster-scoped-resources/` or `namespaces/` directory (something must follow the marker).
///
/// An Insights archive's `conditional/namespaces/<namespace>/pods/…` (the pod logs its
/// conditional gatherers keep) is no must-gather: `conditional/` is no root.
pub fn root<'a, 'p>(parts: &'p [&'a str]) -> Option<&'p [&'a str]> {
    let i = parts
        .iter()
        .position(|p| *p == "cluster-scoped-resources" || *p == "namespaces")?;
    if i > 0 && parts[i] == "namespaces" && parts[i - 1] == "conditional" {
        return None;
    }
    (i + 1 < parts.len()).then(|| &parts[..i])
}

impl<'a> MgPath<'a> {
    /// Parses the segments of a path; `None` when it is under neither
    /// `cluster-scoped-resources/` nor `namespaces/`. A path holding both is read by the
    /// cluster-scoped one.
    pub fn parse(parts: &[&'a str]) -> Option<MgPath<'a>> {
        if let Some(i) = parts.iter().rposition(|p| *p == "cluster-scoped-resources") {
            return Some(match Resource::parse(&parts[i + 1..]) {
                Some(r) => MgPath::Cluster(r),
                None => MgPath::Other,
            });
        }
        let i = parts.iter().rposition(|p| *p == "namespaces")?;
        let Some((&namespace, rest)) = parts[i + 1..].split_first() else {
            return Some(MgPath::Other);
        };
        Some(match rest {
            ["pods", pod, c1, c2, "logs", after @ ..] if c1 == c2 => match LogFile::parse(after) {
                Some(file) => MgPath::ContainerLog(ContainerLog {
                    namespace,
                    pod,
                    container: c1,
                    file,
                }),
                None => MgPath::Other,
            },
            ["pods", pod, file] if file.strip_suffix(".yaml") == Some(pod) => {
                MgPath::Pod { namespace, pod }
            }
            _ => match Resource::parse(rest) {
                Some(resource) => MgPath::Namespaced {
                    namespace,
                    resource,
                },
                None => MgPath::Other,
            },
        })
    }
}

impl<'a> Resource<'a> {
    /// `<group>/<plural>/<file>` or `<group>/<file>`.
    fn parse(rest: &[&'a str]) -> Option<Resource<'a>> {
        match *rest {
            [group, plural, file] => Some(Resource {
                group,
                plural,
                item: Some(file),
                file,
            }),
            [group, file] => Some(Resource {
                group,
                plural: file.rsplit_once('.').map_or(file, |(stem, _)| stem),
                item: None,
                file,
            }),
            _ => None,
        }
    }
}

/// Which CVO container log a file is: its pod and its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CvoLogId<'a> {
    /// The pod name; empty when the path does not say.
    pub pod: &'a str,
    pub file: LogFile,
}

const CVO_NAMESPACE: &str = "openshift-cluster-version";
const CVO_CONTAINER: &str = "cluster-version-operator";

/// A CVO container log, by where a dump keeps one: a must-gather's
/// `namespaces/openshift-cluster-version/pods/cluster-version-operator-…/cluster-version-operator/cluster-version-operator/logs/…`,
/// HyperShift's flat `core/pods/logs/cluster-version-operator-…-cluster-version-operator[-previous].log`
/// (in any namespace: the hosted control plane's), or gather-extra's
/// `gather-extra/artifacts/pods/openshift-cluster-version_<pod>_cluster-version-operator[_previous].log[.gz]`.
pub fn cvo_log<'a>(parts: &[&'a str]) -> Option<CvoLogId<'a>> {
    // A hosted cluster's control plane namespace can be an input of its own (its
    // `namespaces/<ns>/` split from a management cluster's dump): the flat layout is
    // recognised without the `namespaces/<ns>/` above it.
    if let [.., "core", "pods", "logs", file] = *parts {
        return hypershift_cvo_log(file);
    }
    match MgPath::parse(parts) {
        Some(MgPath::ContainerLog(c))
            if c.namespace == CVO_NAMESPACE
                && c.container == CVO_CONTAINER
                && c.pod.starts_with(CVO_CONTAINER) =>
        {
            return Some(CvoLogId {
                pod: c.pod,
                file: c.file,
            });
        }
        _ => {}
    }
    let i = parts.iter().rposition(|p| *p == "gather-extra")?;
    match parts[i + 1..] {
        ["artifacts", "pods", file] => {
            gather_extra_cvo_log(file).filter(|id| id.pod.starts_with(CVO_CONTAINER))
        }
        _ => None,
    }
}

/// The namespace a log in HyperShift's flat layout sits in, read from its whole path (the
/// input's name joined with the path inside it, as a hosted control plane's namespace can be
/// an input of its own): `…namespaces/<ns>/core/pods/logs/<file>`.
pub fn flat_log_namespace(whole: &str) -> Option<&str> {
    let (before, _) = whole.rsplit_once("/core/pods/logs/")?;
    let (_, ns) = before.rsplit_once("namespaces/")?;
    (!ns.contains('/')).then_some(ns)
}

/// A CVO log by its file name alone, for a log the user named: gather-extra's name gives the
/// pod; otherwise the pod is unknown and a name holding `previous` is the previous container's.
pub fn cvo_log_by_name(file: &str) -> CvoLogId<'_> {
    gather_extra_cvo_log(file).unwrap_or(CvoLogId {
        pod: "",
        file: if file.contains("previous") {
            LogFile::Previous
        } else {
            LogFile::Current
        },
    })
}

/// The pod and file of a HyperShift CVO log file name
/// (`cluster-version-operator-<rs>-<pod>-cluster-version-operator[-previous].log`); `None`
/// for another container's log (`-bootstrap`, `-prepare-payload`).
pub fn hypershift_cvo_log(file: &str) -> Option<CvoLogId<'_>> {
    let stem = file.strip_suffix(".log")?;
    let (stem, file) = match stem.strip_suffix("-previous") {
        Some(s) => (s, LogFile::Previous),
        None => (stem, LogFile::Current),
    };
    let pod = stem.strip_suffix("-cluster-version-operator")?;
    pod.starts_with("cluster-version-operator-")
        .then_some(CvoLogId { pod, file })
}

/// gather-extra's `openshift-cluster-version_<pod>_cluster-version-operator[_previous].log[.gz]`.
fn gather_extra_cvo_log(file: &str) -> Option<CvoLogId<'_>> {
    let stem = file
        .strip_suffix(".gz")
        .unwrap_or(file)
        .strip_suffix(".log")?;
    let rest = stem.strip_prefix("openshift-cluster-version_")?;
    let (rest, file) = match rest.strip_suffix("_previous") {
        Some(r) => (r, LogFile::Previous),
        None => (rest, LogFile::Current),
    };
    let pod = rest.strip_suffix("_cluster-version-operator")?;
    Some(CvoLogId { pod, file })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(p: &str) -> Option<MgPath<'_>> {
        MgPath::parse(&segments(p))
    }

    #[test]
    fn resources_pods_and_logs() {
        let mg = "must-gather.local.1/quay-io-x";
        let co = |item| Resource {
            group: "config.openshift.io",
            plural: "clusteroperators",
            item,
            file: item.unwrap_or("clusteroperators.yaml"),
        };
        assert_eq!(
            parse(&format!(
                "{mg}/cluster-scoped-resources/config.openshift.io/clusteroperators/etcd.yaml"
            )),
            Some(MgPath::Cluster(co(Some("etcd.yaml"))))
        );
        assert_eq!(
            parse(&format!(
                "./{mg}/cluster-scoped-resources/config.openshift.io/clusteroperators.yaml"
            )),
            Some(MgPath::Cluster(co(None)))
        );
        assert_eq!(
            parse(&format!("{mg}/namespaces/openshift-etcd/core/events.yaml")),
            Some(MgPath::Namespaced {
                namespace: "openshift-etcd",
                resource: Resource {
                    group: "core",
                    plural: "events",
                    item: None,
                    file: "events.yaml"
                }
            })
        );
        assert_eq!(
            parse(&format!("{mg}/namespaces/a/pods/p-1/p-1.yaml")),
            Some(MgPath::Pod {
                namespace: "a",
                pod: "p-1"
            })
        );
        let log = format!("{mg}/namespaces/a/pods/p-1/c/c/logs");
        for (tail, file) in [
            ("current.log", Some(LogFile::Current)),
            ("current.insecure.log", Some(LogFile::Current)),
            ("previous.log.gz", Some(LogFile::Previous)),
            ("rotated/0.log.20240101-000000.gz", Some(LogFile::Rotated)),
            ("rotated/0.log.2024-01-01", None),
            ("rotated/x.log", None),
            ("other.log", None),
        ] {
            let want = match file {
                Some(file) => MgPath::ContainerLog(ContainerLog {
                    namespace: "a",
                    pod: "p-1",
                    container: "c",
                    file,
                }),
                None => MgPath::Other,
            };
            assert_eq!(parse(&format!("{log}/{tail}")), Some(want), "{tail}");
        }
        assert_eq!(
            parse(&format!("{mg}/namespaces/a/pods/p-1/c/d/logs/current.log")),
            Some(MgPath::Other),
            "container directories differ"
        );
        assert_eq!(parse(&format!("{mg}/namespaces")), Some(MgPath::Other));
        let parts = segments("a/b/namespaces/x/core/events.yaml");
        assert_eq!(root(&parts), Some(&["a", "b"][..]));
        assert_eq!(
            root(&segments("a/b/namespaces")),
            None,
            "a file, not a directory"
        );
        assert_eq!(parse(&format!("{mg}/timestamp")), None);
    }

    #[test]
    fn cvo_logs_in_every_layout() {
        let pod = "cluster-version-operator-7c9d8f6b54-x2k8p";
        let id = |pod, file| Some(CvoLogId { pod, file });
        let cases = [
            (
                format!(
                    "mg/namespaces/openshift-cluster-version/pods/{pod}/cluster-version-operator/cluster-version-operator/logs/rotated/3.log.20240101-000000"
                ),
                id(pod, LogFile::Rotated),
            ),
            (
                format!(
                    "mg/namespaces/openshift-etcd/pods/{pod}/cluster-version-operator/cluster-version-operator/logs/current.log"
                ),
                None,
            ),
            (
                format!(
                    "namespaces/clusters-a/core/pods/logs/{pod}-cluster-version-operator-previous.log"
                ),
                id(pod, LogFile::Previous),
            ),
            (
                format!("namespaces/clusters-a/core/pods/logs/{pod}-prepare-payload.log"),
                None,
            ),
            (
                format!("core/pods/logs/{pod}-cluster-version-operator.log"),
                id(pod, LogFile::Current),
            ),
            (
                "t/gather-extra/artifacts/pods/openshift-cluster-version_cluster-version-operator-5d_cluster-version-operator_previous.log.gz"
                    .to_string(),
                id("cluster-version-operator-5d", LogFile::Previous),
            ),
            (
                "t/gather-extra/artifacts/pods/openshift-etcd_etcd-0_etcd.log".to_string(),
                None,
            ),
        ];
        for (p, want) in cases {
            assert_eq!(cvo_log(&segments(&p)), want, "{p}");
        }
        assert_eq!(
            cvo_log_by_name("cvo-previous.log"),
            CvoLogId {
                pod: "",
                file: LogFile::Previous
            }
        );
        assert_eq!(
            cvo_log_by_name(
                "openshift-cluster-version_cluster-version-operator-5d_cluster-version-operator.log"
            )
            .pod,
            "cluster-version-operator-5d"
        );
    }
}
