//! What a document says a fact is about: one Kubernetes-style object reference,
//! `{kind, namespace, name}`, shared by the report's findings and the timeline's events (whose
//! typed subjects, `timeline::Subject`, are written with this shape).

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
