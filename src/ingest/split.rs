//! One walk, several clusters: what a [`Gathered`] walk tells of the clusters it holds
//! ([`Facts`], which `app::clusters` groups), and the walk cut into one bundle per cluster
//! ([`Gathered::split`]) without reading anything again. Each file parsed moves to the
//! cluster whose part holds it, renamed when its part is an input of its own (a folder of a
//! directory: `<dir>/<folder>`, paths relative to the folder); each part's counts and
//! diagnostics are those its own walk gives (`source::Collected::part`).

use super::kinds::Parsed;
use super::{FileResult, Gathered, IngestError, assemble};
use crate::bundle::{Bundle, InputKind};
use crate::model::{Objects, Provenance, Time};
use crate::source::{Collected, Part};
use crate::vocab::kind::Location;
use crate::vocab::{FileRef, FileTable};
use std::collections::HashMap;
use std::sync::Arc;

/// What tells the clusters of a walk apart.
#[derive(Debug, Default)]
pub struct Facts {
    /// Each input that could be opened.
    pub inputs: Vec<InputFacts>,
    /// Every ClusterVersion snapshot as a bundle keeps them (one per snapshot, oldest first):
    /// its file and `spec.clusterID`.
    pub cluster_versions: Vec<(FileRef, String)>,
    /// The file of every CVO log, with the hosted control plane namespace it sits in
    /// (HyperShift's flat layout, `vocab::kind::CvoLogAt::namespace`).
    pub cvo_logs: Vec<(FileRef, Option<String>)>,
    /// Every HyperShift HostedControlPlane and HostedCluster read, in path order.
    pub hosted: Vec<HostedFact>,
}

/// What a HyperShift HostedControlPlane or HostedCluster says of itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostedFact {
    pub file: FileRef,
    /// A HostedControlPlane (else a HostedCluster).
    pub control_plane: bool,
    /// Its own `metadata.namespace` and `metadata.name`.
    pub namespace: String,
    pub name: String,
    /// Its hosted cluster's `spec.clusterID` (empty when it names none).
    pub cluster_id: String,
    /// The namespace its file sits in (`namespaces/<ns>/hypershift.openshift.io/…`), as the
    /// walker classified the path.
    pub path_namespace: Option<String>,
}

/// One input of a walk.
#[derive(Debug)]
pub struct InputFacts {
    pub name: String,
    pub kind: InputKind,
    /// Must-gather roots inside it (paths relative to the input).
    pub must_gather_roots: Vec<String>,
    /// Prow job roots inside it (see [`crate::bundle::InputInfo::ci_roots`]).
    pub ci_roots: Vec<String>,
    /// How many of its files were looked at, and how many parsed.
    pub files_seen: u64,
    pub parsed: usize,
}

impl Gathered {
    /// What tells the clusters of this walk apart.
    pub fn facts(&self) -> Facts {
        let mut versions = Objects::default();
        let mut cvo_logs = Vec::new();
        let mut hosted = Vec::new();
        let mut parsed: HashMap<&str, usize> = HashMap::new();
        for r in &self.files {
            *parsed.entry(r.prov.file.input()).or_default() += 1;
            let at = self.table.entry(&r.prov.file).map(|e| &e.at);
            if let Some(o) = r.parsed.objects() {
                versions
                    .cluster_versions
                    .extend(o.cluster_versions.iter().cloned());
                let planes = o
                    .hosted_control_planes
                    .iter()
                    .map(|h| (true, &h.prov, &h.value.metadata, &h.value.spec.cluster_id));
                let clusters = o
                    .hosted_clusters
                    .iter()
                    .map(|h| (false, &h.prov, &h.value.metadata, &h.value.spec.cluster_id));
                let path_namespace = match at {
                    Some(Location::Resource(r)) => r.namespace.clone(),
                    _ => None,
                };
                hosted.extend(planes.chain(clusters).map(|(cp, prov, m, id)| HostedFact {
                    file: prov.file.clone(),
                    control_plane: cp,
                    namespace: m.namespace.clone(),
                    name: m.name.clone(),
                    cluster_id: id.trim().to_string(),
                    path_namespace: path_namespace.clone(),
                }));
            }
            if let Parsed::CvoLog(l) = &r.parsed {
                let ns = match at {
                    Some(Location::CvoLog(c)) => c.namespace.clone(),
                    _ => None,
                };
                cvo_logs.push((l.prov.file.clone(), ns));
            }
        }
        // The snapshots a bundle keeps, in its order.
        versions.dedup();
        Facts {
            inputs: self
                .inputs
                .iter()
                .filter_map(|c| c.as_ref().ok())
                .map(|c| InputFacts {
                    name: c.info.name.clone(),
                    kind: c.info.kind,
                    must_gather_roots: c.info.must_gather_roots.clone(),
                    ci_roots: c.info.ci_roots.clone(),
                    files_seen: c.info.files_seen,
                    parsed: parsed.get(c.info.name.as_str()).copied().unwrap_or(0),
                })
                .collect(),
            cluster_versions: versions
                .cluster_versions
                .into_iter()
                .map(|cv| (cv.prov.file, cv.value.spec.cluster_id))
                .collect(),
            cvo_logs,
            hosted,
        }
    }

    /// Why the inputs that could not be opened could not (each once, for the whole run).
    pub fn input_errors(&self) -> Vec<String> {
        self.inputs
            .iter()
            .filter_map(|c| c.as_ref().err())
            .map(ToString::to_string)
            .collect()
    }

    /// One bundle per group, each group the parts of the inputs one cluster's files are in
    /// (see [`Part`]); a file no part holds is in none. A group holding nothing
    /// recognisable is `Err`, with the reasons. Inputs that could not be opened are in no
    /// bundle: [`Gathered::input_errors`] says why.
    pub fn split(self, groups: &[Vec<Part>]) -> Vec<Result<Bundle, IngestError>> {
        let Gathered {
            named,
            table: walked,
            inputs,
            files,
        } = self;
        let collected: HashMap<&str, &Collected> = inputs
            .iter()
            .filter_map(|c| c.as_ref().ok())
            .map(|c| (c.info.name.as_str(), c))
            .collect();
        let local: HashMap<&str, &str> = named
            .iter()
            .map(|(path, name)| (name.as_str(), path.as_str()))
            .collect();
        // Every part's paths, by input (a diagnostic on none of them is the input's own).
        let mut keeps: HashMap<&str, Vec<String>> = HashMap::new();
        for p in groups.iter().flatten() {
            keeps
                .entry(p.input.as_str())
                .or_default()
                .extend(p.keep.iter().cloned());
        }
        let mut shares: Vec<Vec<(usize, FileResult)>> = groups.iter().map(|_| Vec::new()).collect();
        for r in files {
            let (input, path) = (r.prov.file.input(), r.prov.file.path());
            let home = groups.iter().enumerate().find_map(|(g, parts)| {
                parts
                    .iter()
                    .position(|p| p.input == input && p.holds(path))
                    .map(|i| (g, i))
            });
            if let Some((g, i)) = home {
                shares[g].push((i, r));
            }
        }
        groups
            .iter()
            .zip(shares)
            .map(|(parts, mut share)| {
                // Part by part, as walking each on its own would find them.
                share.sort_by_key(|(i, _)| *i);
                let mut table = FileTable::default();
                let results = share
                    .into_iter()
                    .map(|(i, mut r)| {
                        let (input, path) =
                            parts[i].name_of(r.prov.file.input(), r.prov.file.path());
                        let at = walked.entry(&r.prov.file).map(|e| e.at.clone());
                        let file = table.register_at(
                            Arc::from(input),
                            Arc::from(path),
                            r.kind,
                            at.unwrap_or_default(),
                        );
                        r.rehome(&file);
                        r
                    })
                    .collect();
                let mut history = Vec::new();
                let collections = parts
                    .iter()
                    .filter_map(|p| {
                        let c = collected.get(p.input.as_str())?;
                        let mut part =
                            c.part(p, keeps.get(p.input.as_str()).map_or(&[], Vec::as_slice));
                        let at = local.get(p.input.as_str()).copied().unwrap_or(&p.input);
                        let (at, _) = p.name_of(at, "");
                        if p.own_input {
                            part.info.modified = modified(&at);
                        }
                        history.push((at, part.info.name.clone()));
                        Some(Ok(part))
                    })
                    .collect();
                assemble(table, collections, results, &history)
            })
            .collect()
    }
}

/// A directory's modification time (the last resort for the year of year-less log lines).
fn modified(dir: &str) -> Option<Time> {
    let m = std::fs::metadata(dir).and_then(|m| m.modified()).ok()?;
    Some(Time::from(chrono::DateTime::<chrono::Utc>::from(m)))
}

impl FileResult {
    /// Points every provenance of this result that names its file at `file` instead.
    fn rehome(&mut self, file: &FileRef) {
        let old = self.prov.file.clone();
        let mut set = |p: &mut Provenance| {
            if p.file == old {
                p.file = file.clone();
            }
        };
        set(&mut self.prov);
        self.diags.iter_mut().for_each(|d| set(&mut d.prov));
        self.parsed.provenances(&mut set);
    }
}
