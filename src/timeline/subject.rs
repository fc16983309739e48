//! What a timeline event is about, typed: the ClusterVersion, a ClusterOperator, a Node, a
//! MachineConfigPool, a CVO pod, another object a Kubernetes Event names, or a part of a CI
//! run (the e2e test run, the JUnit results, the Prow job). Events are built, merged, filtered
//! and drawn by this value; it becomes text (`clusteroperator/dns`) only at the output edge
//! (the timeline table, a chart's tooltip) and an `object` (`{kind, namespace, name}`) in JSON.
//!
//! Subjects order, compare and hash as their text does, so the timeline's total order is the
//! one the text spelling gives.

use crate::vocab::object::ObjectRef;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The CVO's own namespace, where a `CvoPod` is unless the timeline says otherwise
/// (a HyperShift hosted cluster's control plane namespace).
const CVO_NAMESPACE: &str = "openshift-cluster-version";

/// What a timeline event is about. Names are shared (`Arc<str>`): a CVO log's thousands of
/// events name one pod.
#[derive(Debug, Clone)]
pub enum Subject {
    ClusterVersion(Arc<str>),
    ClusterOperator(Arc<str>),
    Node(Arc<str>),
    MachineConfigPool(Arc<str>),
    /// A pod of the cluster-version operator.
    CvoPod(Arc<str>),
    /// Another object a Kubernetes Event is about: its kind in lower case, and its name.
    Other(Box<(String, String)>),
    /// The e2e test run (the test an event is about is in the event's kind).
    E2e,
    /// The JUnit results (the case is in the event's kind).
    Junit,
    /// The Prow job (its name is in the event's kind).
    Prow,
}

impl Subject {
    /// The ClusterVersion `version` (the only one a cluster has).
    pub fn cluster_version() -> Self {
        Subject::ClusterVersion("version".into())
    }

    /// The object of kind `kind` (any case: `ClusterOperator`, `clusteroperator`) named
    /// `name`: one of the kinds the timeline follows, else an `Other`.
    pub fn of_kind(kind: &str, name: &str) -> Self {
        let kind = kind.to_ascii_lowercase();
        match kind.as_str() {
            "clusterversion" => Subject::ClusterVersion(name.into()),
            "clusteroperator" => Subject::ClusterOperator(name.into()),
            "node" => Subject::Node(name.into()),
            "machineconfigpool" => Subject::MachineConfigPool(name.into()),
            _ => Subject::Other(Box::new((kind, name.to_string()))),
        }
    }

    /// The text before the `/`: `clusteroperator`, `cvo-pod`, an Event's kind, `e2e`.
    pub fn prefix(&self) -> &str {
        match self {
            Subject::ClusterVersion(_) => "clusterversion",
            Subject::ClusterOperator(_) => "clusteroperator",
            Subject::Node(_) => "node",
            Subject::MachineConfigPool(_) => "machineconfigpool",
            Subject::CvoPod(_) => "cvo-pod",
            Subject::Other(o) => &o.0,
            Subject::E2e => "e2e",
            Subject::Junit => "junit",
            Subject::Prow => "prow",
        }
    }

    /// The object's name (`None` for the parts of a CI run).
    pub fn name(&self) -> Option<&str> {
        match self {
            Subject::ClusterVersion(n)
            | Subject::ClusterOperator(n)
            | Subject::Node(n)
            | Subject::MachineConfigPool(n)
            | Subject::CvoPod(n) => Some(n),
            Subject::Other(o) => Some(&o.1),
            Subject::E2e | Subject::Junit | Subject::Prow => None,
        }
    }

    /// The bytes of the text spelling, without building it.
    fn bytes(&self) -> impl Iterator<Item = u8> + '_ {
        let name = self
            .name()
            .map(|n| b"/".iter().chain(n.as_bytes()).copied());
        self.prefix().bytes().chain(name.into_iter().flatten())
    }

    /// The length in bytes of the text spelling.
    pub fn text_len(&self) -> usize {
        self.prefix().len() + self.name().map_or(0, |n| n.len() + 1)
    }

    /// The object reference documents write: a CVO pod in `cvo_namespace` (empty:
    /// `openshift-cluster-version`), `test` the e2e test or JUnit case the event names (a
    /// `TestCase`), `job` the Prow job; another object keeps its text as a name of kind
    /// `Subject`.
    pub fn object(&self, test: Option<&str>, job: Option<&str>, cvo_namespace: &str) -> ObjectRef {
        match self {
            Subject::ClusterVersion(n) => ObjectRef::new("ClusterVersion", "", n),
            Subject::ClusterOperator(n) => ObjectRef::new("ClusterOperator", "", n),
            Subject::Node(n) => ObjectRef::new("Node", "", n),
            Subject::MachineConfigPool(n) => ObjectRef::new("MachineConfigPool", "", n),
            Subject::CvoPod(n) => {
                let ns = if cvo_namespace.is_empty() {
                    CVO_NAMESPACE
                } else {
                    cvo_namespace
                };
                ObjectRef::new("Pod", ns, n)
            }
            Subject::E2e | Subject::Junit => match test {
                Some(t) => ObjectRef::new("TestCase", "", t),
                None => ObjectRef::new("TestRun", "", "e2e"),
            },
            Subject::Prow => ObjectRef::new("ProwJob", "", job.unwrap_or("")),
            Subject::Other(_) => ObjectRef::new("Subject", "", &self.to_string()),
        }
    }
}

impl fmt::Display for Subject {
    /// `clusterversion/version`, `cvo-pod/<name>`, `e2e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.prefix())?;
        match self.name() {
            Some(n) => write!(f, "/{n}"),
            None => Ok(()),
        }
    }
}

impl Ord for Subject {
    /// The order of the text spelling.
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.prefix(), other.prefix());
        if a == b {
            // `e2e` before `e2e/…`, names in their order.
            return self.name().cmp(&other.name());
        }
        let n = a.len().min(b.len());
        if a.as_bytes()[..n] != b.as_bytes()[..n] {
            return a.cmp(b);
        }
        // One prefix starts the other (an Event's kind): the whole text decides.
        self.bytes().cmp(other.bytes())
    }
}

impl PartialOrd for Subject {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Subject {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Subject {}

impl Hash for Subject {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.bytes().for_each(|b| h.write_u8(b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(n: &str) -> Subject {
        Subject::Node(n.into())
    }

    #[test]
    fn subjects_are_written_as_the_objects_findings_name() {
        let pod = Subject::CvoPod("cvo-1".into());
        assert_eq!(pod.to_string(), "cvo-pod/cvo-1");
        assert_eq!(
            pod.object(None, None, "").display(),
            "pod/openshift-cluster-version/cvo-1"
        );
        assert_eq!(
            pod.object(None, None, "clusters-hc").display(),
            "pod/clusters-hc/cvo-1"
        );
        let co = Subject::of_kind("ClusterOperator", "dns");
        assert_eq!(co, Subject::ClusterOperator("dns".into()));
        assert_eq!(co.object(None, None, "").display(), "clusteroperator/dns");
        let t = Subject::E2e.object(Some("[sig-x] y"), None, "");
        assert_eq!(
            (t.kind.as_str(), t.name.as_str()),
            ("TestCase", "[sig-x] y")
        );
        assert_eq!(Subject::E2e.object(None, None, "").display(), "testrun/e2e");
        let job = Subject::Prow.object(None, Some("periodic-x"), "");
        assert_eq!(job.display(), "prowjob/periodic-x");
        let other = Subject::of_kind("Lease", "version");
        assert_eq!(other.to_string(), "lease/version");
        assert_eq!(
            other.object(None, None, "").display(),
            "subject/lease/version"
        );
    }

    #[test]
    fn subjects_order_and_compare_as_their_text() {
        let mut all = vec![
            Subject::Prow,
            node("b"),
            Subject::of_kind("nodeish", "a"),
            Subject::of_kind("e2e", "x"),
            Subject::E2e,
            Subject::Junit,
            node("a"),
            Subject::MachineConfigPool("worker".into()),
            Subject::CvoPod("cvo".into()),
            Subject::cluster_version(),
            Subject::ClusterOperator("zz".into()),
            Subject::of_kind("a/b", "c"),
            Subject::of_kind("a", "b/c"),
            Subject::of_kind("a", "b"),
        ];
        let mut texts: Vec<String> = all.iter().map(Subject::to_string).collect();
        all.sort();
        texts.sort();
        let sorted: Vec<String> = all.iter().map(Subject::to_string).collect();
        assert_eq!(sorted, texts);
        // The same text is the same subject, whatever the parts.
        assert_eq!(Subject::of_kind("a/b", "c"), Subject::of_kind("a", "b/c"));
        assert_ne!(node("a"), node("b"));
        for s in &all {
            assert_eq!(s.text_len(), s.to_string().len());
        }
    }
}
