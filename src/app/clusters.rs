//! Never mixing clusters: the inputs of a run grouped by the cluster they come from (the
//! ClusterVersion's `spec.clusterID`). Inputs without a cluster ID (a lone CVO log, a CI
//! directory without gather-extra) join the cluster when there is only one; when there are
//! several, each such input is analysed on its own rather than guessed into one.

use crate::bundle::Bundle;
use std::collections::BTreeMap;

/// The inputs of one cluster, as `(local path, name to show)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The cluster ID, `None` for an input that says none.
    pub cluster_id: Option<String>,
    pub inputs: Vec<(String, String)>,
}

/// The cluster ID each input's ClusterVersion names (the newest snapshot's, per input).
fn ids_by_input(bundle: &Bundle) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    // Oldest first: the newest snapshot of an input wins.
    for cv in &bundle.objects.cluster_versions {
        let id = cv.spec.cluster_id.trim();
        if !id.is_empty() {
            out.insert(cv.prov.file.input().to_string(), id.to_string());
        }
    }
    out
}

/// The groups when the inputs hold more than one cluster, `None` when they hold one (or
/// none: nothing to keep apart).
pub fn groups(bundle: &Bundle, named: &[(String, String)]) -> Option<Vec<Group>> {
    let ids = ids_by_input(bundle);
    let distinct: std::collections::BTreeSet<&String> = ids.values().collect();
    if distinct.len() < 2 {
        return None;
    }
    let mut groups: Vec<Group> = Vec::new();
    for (path, name) in named {
        let id = ids.get(name).cloned();
        let existing = id.as_ref().and_then(|id| {
            groups
                .iter_mut()
                .find(|g| g.cluster_id.as_ref() == Some(id))
        });
        match existing {
            Some(g) => g.inputs.push((path.clone(), name.clone())),
            None => groups.push(Group {
                cluster_id: id,
                inputs: vec![(path.clone(), name.clone())],
            }),
        }
    }
    Some(groups)
}

/// The warning that says which inputs were kept apart.
pub fn warning(groups: &[Group]) -> String {
    let parts: Vec<String> = groups
        .iter()
        .map(|g| {
            let names: Vec<&str> = g.inputs.iter().map(|(_, n)| n.as_str()).collect();
            match &g.cluster_id {
                Some(id) => format!("cluster {id}: {}", names.join(", ")),
                None => format!("no cluster ID: {}", names.join(", ")),
            }
        })
        .collect();
    format!(
        "the inputs hold {} different clusters; each is analysed on its own ({})",
        groups.len(),
        parts.join("; ")
    )
}
