//! What a document says a fact is about: one Kubernetes-style object reference,
//! `{kind, namespace, name}`, shared by the report's findings and the timeline's events (which
//! name their subjects `clusteroperator/<name>` internally and are written with this shape).

use serde::Serialize;

/// What a finding or an event is about.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ObjectRef {
    pub kind: String,
    /// Empty for cluster-scoped objects.
    pub namespace: String,
    pub name: String,
}

impl ObjectRef {
    pub fn new(kind: &str, namespace: &str, name: &str) -> Self {
        ObjectRef {
            kind: kind.to_string(),
            namespace: namespace.to_string(),
            name: name.to_string(),
        }
    }
    /// `clusterversion/version`, `pod/openshift-cluster-version/cvo-x`.
    pub fn display(&self) -> String {
        let kind = self.kind.to_ascii_lowercase();
        if self.namespace.is_empty() {
            format!("{kind}/{}", self.name)
        } else {
            format!("{kind}/{}/{}", self.namespace, self.name)
        }
    }
}

impl ObjectRef {
    /// The object a timeline subject names: `clusterversion/<n>`, `clusteroperator/<n>`,
    /// `node/<n>`, `machineconfigpool/<n>`, `cvo-pod/<n>` (a Pod in
    /// `openshift-cluster-version`); `test` names the e2e test or JUnit case an event is about
    /// (a `TestCase`), `job` the Prow job (a `ProwJob`). Anything else keeps the subject as a
    /// name of kind `Subject`.
    pub fn of_subject(subject: &str, test: Option<&str>, job: Option<&str>) -> ObjectRef {
        let (prefix, name) = subject.split_once('/').unwrap_or((subject, ""));
        match prefix {
            "clusterversion" => ObjectRef::new("ClusterVersion", "", name),
            "clusteroperator" => ObjectRef::new("ClusterOperator", "", name),
            "node" => ObjectRef::new("Node", "", name),
            "machineconfigpool" => ObjectRef::new("MachineConfigPool", "", name),
            "cvo-pod" => ObjectRef::new("Pod", "openshift-cluster-version", name),
            "e2e" | "junit" => match test {
                Some(t) => ObjectRef::new("TestCase", "", t),
                None => ObjectRef::new("TestRun", "", "e2e"),
            },
            "prow" => ObjectRef::new("ProwJob", "", job.unwrap_or("")),
            _ => ObjectRef::new("Subject", "", subject),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_name_the_objects_findings_name() {
        let o = ObjectRef::of_subject("cvo-pod/cvo-1", None, None);
        assert_eq!(o.display(), "pod/openshift-cluster-version/cvo-1");
        let o = ObjectRef::of_subject("clusteroperator/dns", None, None);
        assert_eq!(
            (o.kind.as_str(), o.name.as_str()),
            ("ClusterOperator", "dns")
        );
        let o = ObjectRef::of_subject("e2e", Some("[sig-x] y"), None);
        assert_eq!(
            (o.kind.as_str(), o.name.as_str()),
            ("TestCase", "[sig-x] y")
        );
        let o = ObjectRef::of_subject("prow", None, Some("periodic-x"));
        assert_eq!(o.display(), "prowjob/periodic-x");
    }
}
