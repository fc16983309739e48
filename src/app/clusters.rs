//! Never mixing clusters: the inputs of a run grouped by the cluster they come from (the
//! ClusterVersion's `spec.clusterID`). Inputs without a cluster ID (a lone CVO log, a CI
//! directory without gather-extra) join the cluster when there is only one; when there are
//! several, each such input is analysed on its own rather than guessed into one.
//!
//! A must-gather root inside another (a HyperShift management cluster's dump holding
//! `hostedcluster-<name>/`, each hosted cluster's own `oc adm inspect`) is a cluster of its
//! own: the outer cluster's part leaves it out, and a hosted cluster also takes its control
//! plane namespace (`namespaces/<ns>/`, where the HostedControlPlane `<name>` and the hosted
//! CVO's pod and logs are), which the management cluster's part leaves out too.
//!
//! A Prow job's root (its `prowjob.json`, its `artifacts/<step>/`) marks a cluster too: a
//! directory holding a must-gather of one cluster and a CI job of another is split into the
//! two; a job whose must-gather is its own (the same cluster ID) stays one.
//!
//! The groups are decided from what the one walk of the inputs found ([`Facts`]) and given
//! as [`Part`]s of the inputs, which `ingest::Gathered::split` cuts that walk into: nothing
//! is read twice.

use crate::bundle::InputKind;
use crate::ingest::Facts;
use crate::source::Part;
use crate::vocab::files::{is_under, join_path};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The inputs of one cluster: the parts of the inputs its files are in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The cluster ID, `None` for an input that says none.
    pub cluster_id: Option<String>,
    /// The names the group's inputs are shown by (a folder of a directory made an input of
    /// its own is `<dir>/<folder>`).
    pub names: Vec<String>,
    /// Which files of the run are this cluster's.
    pub parts: Vec<Part>,
}

/// Where a ClusterVersion came from: its input's name and the must-gather root inside it
/// that holds it, or (outside every root) `\0` and the file's own path, so two loose files
/// of two clusters are two origins that no root can separate.
type Origin = (String, String);

/// Whether an origin is a must-gather root (a folder the input can be split at).
fn is_root(origin_part: &str) -> bool {
    !origin_part.starts_with('\0')
}

/// Whether input `name` can be split at its must-gathers: every ClusterVersion in it sits in
/// a must-gather root (a directory is split into its roots' folders, an archive into the
/// entries under each).
fn splittable(facts: &Facts, ids: &BTreeMap<Origin, String>, name: &str) -> bool {
    facts.inputs.iter().any(|i| i.name == name)
        && ids
            .keys()
            .filter(|(input, _)| input == name)
            .all(|(_, root)| is_root(root))
}

/// The cluster ID each origin's ClusterVersion names (the newest snapshot's, per origin).
fn ids_by_origin(facts: &Facts) -> BTreeMap<Origin, String> {
    // Must-gather roots and Prow job roots: a job's own must-gather is inside its root, and
    // the innermost root holding a ClusterVersion is its origin.
    let roots: BTreeMap<&str, Vec<&String>> = facts
        .inputs
        .iter()
        .map(|i| {
            let all = i.must_gather_roots.iter().chain(&i.ci_roots).collect();
            (i.name.as_str(), all)
        })
        .collect();
    let mut out = BTreeMap::new();
    // Oldest first: the newest snapshot of an origin wins.
    for (file, id) in &facts.cluster_versions {
        let id = id.trim();
        if id.is_empty() {
            continue;
        }
        let input = file.input();
        let path = file.path();
        let root = roots
            .get(input)
            .and_then(|rs| {
                rs.iter()
                    .filter(|r| !r.is_empty() && is_under(path, r))
                    .max_by_key(|r| r.len())
            })
            .map(|r| r.to_string())
            .unwrap_or_else(|| format!("\0{path}"));
        out.insert((input.to_string(), root), id.to_string());
    }
    out
}

/// The groups when the inputs hold more than one cluster, `None` when they hold one (or
/// none: nothing to keep apart). A directory that holds must-gathers of several clusters is
/// split into its must-gather roots' folders, each an input of its own joining its cluster's
/// group; an archive that does is split into the entries under each root. Inputs that could
/// not be opened or where nothing was read are in no group.
pub fn groups(facts: &Facts, named: &[(String, String)]) -> Option<Vec<Group>> {
    let ids = ids_by_origin(facts);
    let distinct: BTreeSet<&String> = ids.values().collect();
    if distinct.len() < 2 {
        return None;
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut add = |id: Option<String>, g: Group| {
        let existing = id.as_ref().and_then(|id| {
            groups
                .iter_mut()
                .find(|g| g.cluster_id.as_ref() == Some(id))
        });
        match existing {
            Some(e) => {
                for n in g.names {
                    if !e.names.contains(&n) {
                        e.names.push(n);
                    }
                }
                for p in g.parts {
                    // Two parts of one archive: one part keeping both.
                    match e
                        .parts
                        .iter_mut()
                        .find(|q| !p.own_input && !q.own_input && q.input == p.input)
                    {
                        Some(q) => {
                            q.keep.extend(p.keep);
                            q.drop.extend(p.drop);
                        }
                        None => e.parts.push(p),
                    }
                }
            }
            None => groups.push(Group {
                cluster_id: id,
                ..g
            }),
        }
    };
    for (path, name) in named {
        if !facts.inputs.iter().any(|i| i.name == *name && i.parsed > 0) {
            continue;
        }
        let here: Vec<(&String, &String)> = ids
            .iter()
            .filter(|((input, _), _)| input == name)
            .map(|((_, root), id)| (root, id))
            .collect();
        let clusters: BTreeSet<&String> = here.iter().map(|(_, id)| *id).collect();
        if clusters.len() > 1 && splittable(facts, &ids, name) {
            // One directory, several clusters: each must-gather on its own, from the top
            // folder that holds it (`must-gather.local.1/`, with its `timestamp`) when the
            // roots' top folders differ, else from the root itself.
            let top = |r: &str| r.split('/').next().unwrap_or(r).to_string();
            let tops: BTreeSet<String> = here.iter().map(|(r, _)| top(r)).collect();
            let distinct_tops = tops.len() == here.len();
            let parts: Vec<(String, &String)> = here
                .iter()
                .map(|(root, id)| {
                    let part = if distinct_tops {
                        top(root)
                    } else {
                        (*root).clone()
                    };
                    (part, *id)
                })
                .collect();
            let archive = facts
                .inputs
                .iter()
                .any(|i| i.name == *name && i.kind == InputKind::Archive);
            // Each hosted cluster's control plane namespace, by the part it joins.
            let planes: BTreeMap<&str, String> = parts
                .iter()
                .filter_map(|(part, _)| {
                    let (outer, inner) = part.rsplit_once('/')?;
                    let hc = inner.strip_prefix("hostedcluster-")?;
                    let ns = if archive {
                        logged_control_plane(facts, name, outer, hc)?
                    } else {
                        control_plane_namespace(Path::new(&join_path(path, outer)), hc)?
                    };
                    Some((part.as_str(), join_path(outer, &format!("namespaces/{ns}"))))
                })
                .collect();
            for (part, id) in &parts {
                let mine: Vec<&str> = std::iter::once(part.as_str())
                    .chain(planes.get(part.as_str()).map(String::as_str))
                    .collect();
                // What lies inside this part but belongs to another: nested roots and their
                // control plane namespaces.
                let inside = |p: &str| is_under(p, part);
                let others: Vec<String> = parts
                    .iter()
                    .map(|(other, _)| other.as_str())
                    .chain(planes.values().map(String::as_str))
                    .filter(|o| inside(o))
                    .map(str::to_string)
                    .collect();
                let g = if archive {
                    Group {
                        cluster_id: None,
                        names: vec![name.clone()],
                        parts: vec![Part {
                            input: name.clone(),
                            keep: mine.iter().map(|p| p.to_string()).collect(),
                            drop: others,
                            own_input: false,
                        }],
                    }
                } else {
                    Group {
                        cluster_id: None,
                        names: mine.iter().map(|p| join_path(name, p)).collect(),
                        parts: mine
                            .iter()
                            .map(|p| Part {
                                input: name.clone(),
                                keep: vec![p.to_string()],
                                drop: others.clone(),
                                own_input: true,
                            })
                            .collect(),
                    }
                };
                add(Some((*id).clone()), g);
            }
            continue;
        }
        let id = here.first().map(|(_, id)| (*id).clone());
        let g = Group {
            cluster_id: None,
            names: vec![name.clone()],
            parts: vec![Part {
                input: name.clone(),
                ..Part::default()
            }],
        };
        add(id, g);
    }
    // One input of several clusters that could not be split is still one group.
    (groups.len() > 1).then_some(groups)
}

/// The namespace of hosted cluster `hc`'s control plane in the must-gather root `root`: the
/// one holding `hypershift.openshift.io/hostedcontrolplanes/<hc>.yaml` (the HostedControlPlane
/// has the HostedCluster's name; its namespace is `<hc namespace>-<name>`, with dots made
/// dashes, so it is found, not rebuilt). `None` when none or several do.
fn control_plane_namespace(root: &Path, hc: &str) -> Option<String> {
    let file = format!("{hc}.yaml");
    let found: Vec<String> = std::fs::read_dir(root.join("namespaces"))
        .ok()?
        .flatten()
        .filter(|e| {
            e.path()
                .join("hypershift.openshift.io/hostedcontrolplanes")
                .join(&file)
                .is_file()
        })
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    match found.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// In an archive (whose tree cannot be listed here), hosted cluster `hc`'s control plane
/// namespace under must-gather root `outer`: the one whose name ends in `-<hc>` (dots made
/// dashes, as HyperShift names it) and holds a CVO log.
fn logged_control_plane(facts: &Facts, input: &str, outer: &str, hc: &str) -> Option<String> {
    let suffix = format!("-{}", hc.replace('.', "-"));
    let prefix = format!("{outer}/namespaces/");
    let found: BTreeSet<&str> = facts
        .cvo_logs
        .iter()
        .filter(|l| l.input() == input)
        .filter_map(|l| {
            let rest = l.path().strip_prefix(&prefix)?;
            let (ns, after) = rest.split_once('/')?;
            (after.starts_with("core/pods/logs/") && ns.ends_with(&suffix)).then_some(ns)
        })
        .collect();
    match found.len() {
        1 => found.into_iter().next().map(str::to_string),
        _ => None,
    }
}

/// Inputs that hold ClusterVersions of several clusters and could not be split (a
/// ClusterVersion outside any must-gather root): analysed as one, which the run warns about.
pub fn mixed_inputs(facts: &Facts) -> Vec<String> {
    let ids = ids_by_origin(facts);
    let mut by_input: BTreeMap<&str, BTreeSet<&String>> = BTreeMap::new();
    for ((input, _), id) in &ids {
        by_input.entry(input.as_str()).or_default().insert(id);
    }
    by_input
        .into_iter()
        .filter(|(name, set)| set.len() > 1 && !splittable(facts, &ids, name))
        .map(|(name, set)| {
            format!(
                "{name} holds ClusterVersions of {} clusters ({}) that cannot be told apart inside it; it is analysed as one (extract it and give each must-gather on its own)",
                set.len(),
                set.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
            )
        })
        .collect()
}

/// The warning that says which inputs were kept apart.
pub fn warning(groups: &[Group]) -> String {
    let parts: Vec<String> = groups
        .iter()
        .map(|g| {
            let names: Vec<&str> = g.names.iter().map(String::as_str).collect();
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
