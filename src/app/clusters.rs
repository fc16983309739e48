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
use crate::ingest::{Facts, HostedFact};
use crate::source::Part;
use crate::vocab::files::{is_under, join_path};
use std::collections::{BTreeMap, BTreeSet};

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
    for (_, name) in named {
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
            // Each hosted cluster's control plane namespace, by the part it joins, from
            // what the control plane objects say (the same for a directory and its archive).
            let claims: Vec<(&str, Option<String>)> = parts
                .iter()
                .filter_map(|(part, id)| {
                    let (outer, inner) = part.rsplit_once('/')?;
                    let hc = inner.strip_prefix("hostedcluster-")?;
                    let ns = control_plane(facts, name, outer, hc, id)
                        .map(|ns| join_path(outer, &format!("namespaces/{ns}")));
                    Some((part.as_str(), ns))
                })
                .collect();
            // A namespace two hosted clusters claim is neither's (and not the management
            // cluster's either): `control_plane_warnings` names it.
            let mut claimed: BTreeMap<&str, usize> = BTreeMap::new();
            for (_, ns) in &claims {
                if let Some(ns) = ns {
                    *claimed.entry(ns.as_str()).or_default() += 1;
                }
            }
            let mut contested: Vec<String> = claimed
                .iter()
                .filter(|(_, n)| **n > 1)
                .map(|(ns, _)| ns.to_string())
                .collect();
            let planes: BTreeMap<&str, String> = claims
                .iter()
                .filter_map(|(part, ns)| {
                    let ns = ns.as_ref().filter(|ns| !contested.contains(ns))?;
                    Some((*part, ns.clone()))
                })
                .collect();
            // Every other namespace a HostedControlPlane names or sits in is a hosted
            // control plane's all the same: never the management cluster's.
            let outers: BTreeSet<&str> = parts
                .iter()
                .filter_map(|(part, _)| Some(part.rsplit_once('/')?.0))
                .filter(|outer| claims.iter().any(|(p, _)| is_under(p, outer)))
                .collect();
            for outer in outers {
                for (h, by_path) in control_planes(facts, name, outer) {
                    for ns in [Some(h.namespace.as_str()), by_path].into_iter().flatten() {
                        let ns = join_path(outer, &format!("namespaces/{ns}"));
                        if !ns.ends_with('/')
                            && !planes.values().any(|p| *p == ns)
                            && !contested.contains(&ns)
                        {
                            contested.push(ns);
                        }
                    }
                }
            }
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
                    .chain(contested.iter().map(String::as_str))
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

/// The HostedControlPlanes under must-gather root `outer` of input `input`, with the
/// namespace their path puts them in (`<outer>/namespaces/<ns>/hypershift.openshift.io/…`).
fn control_planes<'a>(
    facts: &'a Facts,
    input: &'a str,
    outer: &'a str,
) -> impl Iterator<Item = (&'a HostedFact, Option<&'a str>)> {
    facts
        .hosted
        .iter()
        .filter(move |h| {
            h.control_plane && h.file.input() == input && is_under(h.file.path(), outer)
        })
        .map(move |h| {
            let by_path = h
                .path_namespace
                .as_deref()
                .filter(|ns| is_under(h.file.path(), &namespace_dir(outer, ns)));
            (h, by_path)
        })
}

/// Namespace `ns`'s folder in the must-gather rooted at `outer`.
fn namespace_dir(outer: &str, ns: &str) -> String {
    format!("{outer}/namespaces/{ns}")
}

/// Hosted cluster `hc` (guest dump `<outer>/hostedcluster-<hc>/`, cluster ID `id`): the
/// namespace of its control plane, from what the objects say, never from where their files
/// sit: the namespace the HostedControlPlanes of its cluster ID name as their own (else, none
/// naming a cluster ID, those named `hc`), when they agree on one. A dump without any: the
/// namespace `<namespace>-<name>` of its HostedCluster (the same cluster ID, else `hc`), as
/// HyperShift names it, when it holds a CVO log. `None` when none can be told.
fn control_plane(facts: &Facts, input: &str, outer: &str, hc: &str, id: &str) -> Option<String> {
    let planes: Vec<&HostedFact> = control_planes(facts, input, outer)
        .map(|(h, _)| h)
        .collect();
    let mine: Vec<&&HostedFact> = {
        let by_id: Vec<&&HostedFact> = planes
            .iter()
            .filter(|h| !id.is_empty() && h.cluster_id == id)
            .collect();
        if by_id.is_empty() {
            planes
                .iter()
                .filter(|h| h.cluster_id.is_empty() && h.name == hc)
                .collect()
        } else {
            by_id
        }
    };
    let namespaces: BTreeSet<&str> = mine
        .iter()
        .map(|h| h.namespace.as_str())
        .filter(|ns| !ns.is_empty())
        .collect();
    if !mine.is_empty() {
        return match namespaces.len() {
            1 => namespaces.into_iter().next().map(str::to_string),
            _ => None,
        };
    }
    // No HostedControlPlane: the HostedCluster's namespace and name, when a CVO log is there.
    let clusters: Vec<&HostedFact> = facts
        .hosted
        .iter()
        .filter(|h| !h.control_plane && h.file.input() == input && is_under(h.file.path(), outer))
        .collect();
    let named: Vec<&&HostedFact> = {
        let by_id: Vec<&&HostedFact> = clusters
            .iter()
            .filter(|h| !id.is_empty() && h.cluster_id == id)
            .collect();
        if by_id.is_empty() {
            clusters.iter().filter(|h| h.name == hc).collect()
        } else {
            by_id
        }
    };
    let [one] = named.as_slice() else {
        return None;
    };
    let ns = format!("{}-{}", one.namespace, one.name.replace('.', "-"));
    let dir = namespace_dir(outer, &ns);
    facts
        .cvo_logs
        .iter()
        .any(|(l, in_ns)| {
            l.input() == input && in_ns.as_deref() == Some(ns.as_str()) && is_under(l.path(), &dir)
        })
        .then_some(ns)
}

/// What the HyperShift control plane objects of the inputs contradict each other on (each a
/// warning; the split then follows what the objects themselves say, and a namespace two
/// hosted clusters claim is given to neither): two HostedControlPlanes claiming one
/// namespace, a HostedControlPlane whose own namespace is not the one its path puts it in,
/// and one HostedControlPlane in two files.
pub fn control_plane_warnings(facts: &Facts) -> Vec<String> {
    let mut out = Vec::new();
    for i in &facts.inputs {
        let input = i.name.as_str();
        let mut by_ns: BTreeMap<(&str, &str), Vec<&HostedFact>> = BTreeMap::new();
        let mut by_key: BTreeMap<(&str, &str, &str), Vec<&HostedFact>> = BTreeMap::new();
        for root in &i.must_gather_roots {
            // Only the outermost roots: a hosted cluster's guest dump holds none.
            if i.must_gather_roots
                .iter()
                .any(|r| r != root && is_under(root, r))
            {
                continue;
            }
            for (h, by_path) in control_planes(facts, input, root) {
                let at = h.file.display_path();
                if let Some(p) = by_path.filter(|p| *p != h.namespace) {
                    out.push(format!(
                        "`{at}`: HostedControlPlane `{}` says its namespace is `{}` but sits in `namespaces/{p}/`; its hosted cluster's control plane is taken from what it says",
                        h.name, h.namespace
                    ));
                }
                by_ns
                    .entry((root.as_str(), h.namespace.as_str()))
                    .or_default()
                    .push(h);
                by_key
                    .entry((root.as_str(), h.namespace.as_str(), h.name.as_str()))
                    .or_default()
                    .push(h);
            }
        }
        for ((_, ns), hs) in &by_ns {
            let clusters: BTreeSet<(&str, &str)> = hs
                .iter()
                .map(|h| (h.name.as_str(), h.cluster_id.as_str()))
                .collect();
            if clusters.len() > 1 {
                let files: Vec<String> = hs
                    .iter()
                    .map(|h| format!("`{}`", h.file.display_path()))
                    .collect();
                out.push(format!(
                    "{} HostedControlPlanes claim the namespace `{ns}` ({}); it is given to no hosted cluster",
                    clusters.len(),
                    files.join(", ")
                ));
            }
        }
        for ((_, ns, name), hs) in &by_key {
            if hs.len() > 1 {
                let files: Vec<String> = hs
                    .iter()
                    .map(|h| format!("`{}`", h.file.display_path()))
                    .collect();
                out.push(format!(
                    "HostedControlPlane `{ns}/{name}` is in {} files ({}); they are read as one",
                    hs.len(),
                    files.join(", ")
                ));
            }
        }
    }
    out
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
