//! What known-issue rules ask ingestion to read beyond mglint's own needs: extra object kinds
//! (by the resource path names of a must-gather: `<group>/<plural>`), events of more
//! namespaces, and pod logs by namespace, pod and container globs. The rules layer derives a
//! [`Wants`] from the loaded rules; the source layer asks it about paths that
//! [`classify_path`](super::kind::classify_path) does not want. Empty (the default), it
//! wants nothing, and classification is exactly `classify_path`'s.

use super::glob::Glob;
use super::kind::{FileKind, Location, ResourceAt};
pub use super::mg_path::LogFile;
use super::mg_path::{ContainerLog, MgPath, Resource, segments};
use std::collections::{BTreeMap, BTreeSet};

/// An object kind a rule reads, by where a must-gather keeps it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ResourceWant {
    /// The API group directory (`policy`, `core`, `security.openshift.io`); `None`: any.
    pub group: Option<String>,
    /// The plural resource name (`poddisruptionbudgets`).
    pub plural: String,
}

/// Which files of a container's logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LogFiles {
    pub current: bool,
    pub previous: bool,
    pub rotated: bool,
}

impl LogFiles {
    /// Every file.
    pub const ALL: LogFiles = LogFiles {
        current: true,
        previous: true,
        rotated: true,
    };

    /// The files listed.
    pub fn of(files: &[LogFile]) -> LogFiles {
        LogFiles {
            current: files.contains(&LogFile::Current),
            previous: files.contains(&LogFile::Previous),
            rotated: files.contains(&LogFile::Rotated),
        }
    }
}

/// Container logs a rule reads.
#[derive(Debug, Clone)]
pub struct LogWant {
    pub namespace: Glob,
    pub pod: Glob,
    pub container: Glob,
    pub files: LogFiles,
    /// Substrings one of which every line the rule's regex matches holds; `None`: none is
    /// known, and every line is kept.
    pub literals: Option<Vec<String>>,
}

impl LogFile {
    /// Whether `files` includes this one.
    pub fn wanted_by(self, files: LogFiles) -> bool {
        match self {
            LogFile::Current => files.current,
            LogFile::Previous => files.previous,
            LogFile::Rotated => files.rotated,
        }
    }
}

/// Everything the loaded rules ask for beyond mglint's own needs.
#[derive(Debug, Clone, Default)]
pub struct Wants {
    pub resources: BTreeSet<ResourceWant>,
    /// Namespaces whose `core/events.yaml` is read too.
    pub event_namespaces: Vec<Glob>,
    pub pod_logs: Vec<LogWant>,
    /// Kinds (`PodDisruptionBudget`) whose objects are kept whole, as JSON, for rules.
    pub kinds: BTreeSet<String>,
    /// For each object matcher, by the resource it reads: the keys an object must hold for
    /// the matcher to match it (from its field tests; empty: no such key is known). A file
    /// read only for rules, whose text holds every key of none of its resource's matchers,
    /// cannot give any rule an object, and is not parsed ([`Wants::worth_parsing`]).
    pub resource_keys: BTreeMap<ResourceWant, Vec<Vec<String>>>,
}

impl Wants {
    /// True when the rules ask for nothing extra.
    pub fn is_empty(&self) -> bool {
        self.resources.is_empty()
            && self.event_namespaces.is_empty()
            && self.pod_logs.is_empty()
            && self.kinds.is_empty()
    }

    /// Whether some rule reads pod logs.
    pub fn wants_pod_logs(&self) -> bool {
        !self.pod_logs.is_empty()
    }

    /// The kind of a file that `classify_path` does not want but a rule does, with what its
    /// path says of it.
    pub fn classify(&self, path: &str) -> Option<(FileKind, Location)> {
        if self.is_empty() {
            return None;
        }
        let lower = path.to_ascii_lowercase();
        let yaml_or_json = [".yaml", ".yml", ".json"]
            .iter()
            .any(|e| lower.ends_with(e));
        let parts = segments(path);
        let resource = |r: Resource<'_>| {
            self.resources
                .iter()
                .any(|w| w.plural == r.plural && w.group.as_deref().is_none_or(|g| g == r.group))
        };
        let at = |namespace: Option<&str>, r: Resource<'_>| {
            Some((
                FileKind::Resource,
                Location::mg_resource(namespace, r, true),
            ))
        };
        match MgPath::parse(&parts)? {
            MgPath::ContainerLog(log) => self
                .wants_log(&log)
                .then(|| (FileKind::PodLog, Location::ContainerLog(log.into()))),
            _ if !yaml_or_json => None,
            MgPath::Cluster(r) if resource(r) => at(None, r),
            MgPath::Namespaced {
                namespace,
                resource: r,
            } if r.group == "core" && r.file == "events.yaml" => {
                if self.event_namespaces.iter().any(|g| g.matches(namespace)) || resource(r) {
                    at(Some(namespace), r)
                } else {
                    None
                }
            }
            // `core/pods/<name>.yaml` is never read for a rule.
            MgPath::Namespaced {
                namespace,
                resource: r,
            } if !(r.item.is_some() && r.plural == "pods") && resource(r) => at(Some(namespace), r),
            _ => None,
        }
    }

    /// Whether a rule reads this container log.
    pub fn wants_log(&self, p: &ContainerLog<'_>) -> bool {
        self.pod_logs.iter().any(|w| {
            p.file.wanted_by(w.files)
                && w.namespace.matches(p.namespace)
                && w.pod.matches(p.pod)
                && w.container.matches(p.container)
        })
    }

    /// Whether a file read only because a rule's resource names it can give a rule an object:
    /// its text holds every key of at least one matcher of that resource (or some matcher
    /// names no key). A path of no wanted resource is always worth parsing.
    pub fn worth_parsing(&self, at: &ResourceAt, text: &str) -> bool {
        if self.resource_keys.is_empty() {
            return true;
        }
        let Some((group, plural)) = &at.resource else {
            return true;
        };
        let mut sets = self
            .resource_keys
            .iter()
            .filter(|(w, _)| w.plural == *plural && w.group.as_deref().is_none_or(|g| g == group))
            .flat_map(|(_, sets)| sets)
            .peekable();
        if sets.peek().is_none() {
            return true;
        }
        sets.any(|keys| keys.iter().all(|k| text.contains(k.as_str())))
    }

    /// The literals whose lines the rules reading this container log can match: `None` when
    /// one of them names none (every line is kept).
    pub fn log_literals(&self, p: &ContainerLog<'_>) -> Option<Vec<String>> {
        let mut out: Vec<String> = Vec::new();
        for w in self.pod_logs.iter().filter(|w| {
            p.file.wanted_by(w.files)
                && w.namespace.matches(p.namespace)
                && w.pod.matches(p.pod)
                && w.container.matches(p.container)
        }) {
            for l in w.literals.as_ref()? {
                if !out.contains(l) {
                    out.push(l.clone());
                }
            }
        }
        Some(out)
    }

    /// Whether objects of `kind` are kept whole for rules.
    pub fn keeps(&self, kind: &str) -> bool {
        self.kinds.contains(kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wants() -> Wants {
        let mut w = Wants::default();
        w.resources.insert(ResourceWant {
            group: Some("policy".into()),
            plural: "poddisruptionbudgets".into(),
        });
        w.resources.insert(ResourceWant {
            group: None,
            plural: "securitycontextconstraints".into(),
        });
        w.event_namespaces
            .push(Glob::new("openshift-etcd").unwrap());
        w.pod_logs.push(LogWant {
            namespace: Glob::new("openshift-etcd").unwrap(),
            pod: Glob::new("etcd-*").unwrap(),
            container: Glob::new("etcd").unwrap(),
            files: LogFiles {
                current: true,
                ..LogFiles::default()
            },
            literals: None,
        });
        w
    }

    #[test]
    fn a_file_without_a_matchers_keys_is_not_worth_parsing() {
        let mut w = wants();
        let pdb = ResourceWant {
            group: Some("policy".into()),
            plural: "poddisruptionbudgets".into(),
        };
        let at = |group: &str, plural: &str| ResourceAt {
            resource: Some((group.into(), plural.into())),
            ..ResourceAt::default()
        };
        let path = &at("policy", "poddisruptionbudgets");
        assert!(
            w.worth_parsing(path, "kind: PodDisruptionBudget"),
            "no keys known"
        );
        w.resource_keys.insert(
            pdb.clone(),
            vec![vec!["disruptionsAllowed".into(), "expectedPods".into()]],
        );
        assert!(!w.worth_parsing(path, "status:\n  disruptionsAllowed: 0\n"));
        assert!(w.worth_parsing(path, "status: {disruptionsAllowed: 0, expectedPods: 1}"));
        assert!(
            w.worth_parsing(&at("apps", "deployments"), ""),
            "another resource"
        );
        // A second matcher of the resource that names no key reads every file.
        w.resource_keys.get_mut(&pdb).unwrap().push(Vec::new());
        assert!(w.worth_parsing(path, "status: {}"));
    }

    #[test]
    fn nothing_wanted_classifies_nothing() {
        let w = Wants::default();
        assert!(w.is_empty());
        assert_eq!(
            w.classify("mg/namespaces/a/policy/poddisruptionbudgets.yaml"),
            None
        );
    }

    #[test]
    fn resources_events_and_logs_by_path() {
        let w = wants();
        let mg = "must-gather.local.1/quay-io-x";
        for p in [
            "namespaces/openshift-etcd/policy/poddisruptionbudgets.yaml",
            "namespaces/openshift-etcd/policy/poddisruptionbudgets/etcd-guard-pdb.yaml",
            "cluster-scoped-resources/security.openshift.io/securitycontextconstraints/restricted.yaml",
            "namespaces/openshift-etcd/core/events.yaml",
        ] {
            assert_eq!(
                w.classify(&format!("{mg}/{p}")).map(|(k, _)| k),
                Some(FileKind::Resource),
                "{p}"
            );
        }
        for p in [
            "namespaces/openshift-etcd/apps/deployments.yaml",
            "namespaces/openshift-apiserver/core/events.yaml",
            "namespaces/x/other.io/poddisruptionbudgets.yaml",
        ] {
            assert_eq!(w.classify(&format!("{mg}/{p}")), None, "{p}");
        }
        let log = format!("{mg}/namespaces/openshift-etcd/pods/etcd-m0/etcd/etcd/logs/current.log");
        let Some((FileKind::PodLog, Location::ContainerLog(at))) = w.classify(&log) else {
            panic!("{:?}", w.classify(&log))
        };
        assert_eq!(
            (&*at.namespace, &*at.pod, &*at.container, at.file),
            ("openshift-etcd", "etcd-m0", "etcd", LogFile::Current)
        );
        let prev = log.replace("current.log", "previous.log");
        assert_eq!(w.classify(&prev), None, "previous not asked for");
        let other = log.replace("/etcd/etcd/", "/etcdctl/etcdctl/");
        assert_eq!(w.classify(&other), None);
    }
}
