//! A resourcewatch repository's history (openshift/origin `pkg/resourcewatch`): the tool
//! commits every observed change of a watched object as one file in a must-gather layout,
//! one commit per add, update or delete, with the observation time as the author date. The
//! working tree is read as any directory is; this module reads the history of the objects the
//! timeline follows through time (the ClusterVersion and the ClusterOperators) in-process
//! with [`super::git`] (never by running `git`: the input's own configuration could run its
//! programs), oldest commit first, and keeps each snapshot's conditions.
//!
//! The history is the line of first parents from `HEAD` (resourcewatch writes a linear
//! history); a merge's changes are those against its first parent, and commits reached only
//! through a second parent are not read. Each commit's changes are the files ending `.yaml`
//! or `.json` directly in the two followed directories, added, modified or deleted against
//! the first parent (against nothing for the oldest commit read).
//!
//! Confined and bounded (see [`Limits`]): `.git` must be a real directory of the input
//! (a gitfile, a symbolic link, `commondir` or alternates are refused); at most
//! [`MAX_COMMITS`] snapshots, each at most [`MAX_SNAPSHOT_BYTES`]; at most
//! [`MAX_COMMITS_WALKED`] commits, [`MAX_TREE_ENTRIES`] entries looked at in a tree (only
//! along the followed paths), subjects cut at [`MAX_SUBJECT_BYTES`], [`MAX_INFLATED_BYTES`]
//! inflated in all and [`DEADLINE`] for the whole read. What is past a bound is said in a
//! diagnostic, not read; the snapshots before it are kept.

use super::git::fs::GitDir;
use super::git::odb::{Budget, Odb};
use super::git::refs::{self, Head};
use super::git::{GitError, Kind, Oid, object};
use crate::model::{ClusterOperator, ClusterVersion, Condition, Snapshot, SnapshotKind, Time};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::ControlFlow;
use std::path::Path;
use std::time::Duration;

/// The followed directories, in the order git lists their files (by path).
const FOLLOWED: [(&str, SnapshotKind); 2] = [
    (
        "cluster-scoped-resources/config.openshift.io/clusteroperators",
        SnapshotKind::ClusterOperator,
    ),
    (
        "cluster-scoped-resources/config.openshift.io/clusterversions",
        SnapshotKind::ClusterVersion,
    ),
];

/// The most snapshots read from one repository (the public 3-node example has 1,021 of these
/// two kinds in 14,206 commits).
pub const MAX_COMMITS: usize = 200_000;

/// The largest snapshot read (a ClusterVersion with its managed fields is about 30 KB), and
/// the largest object inflated whole.
pub const MAX_SNAPSHOT_BYTES: u64 = 8 << 20;

/// The most commits walked from `HEAD`.
pub const MAX_COMMITS_WALKED: usize = 1_000_000;

/// The most entries looked at in one tree (a followed directory holds one file per object:
/// tens of ClusterOperators).
pub const MAX_TREE_ENTRIES: usize = 10_000;

/// The most bytes of a commit subject kept.
pub const MAX_SUBJECT_BYTES: usize = 1 << 10;

/// The most bytes inflated from one repository (the public example needs a few hundred MB at
/// most).
pub const MAX_INFLATED_BYTES: u64 = 2 << 30;

/// How long the whole history read may take.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// The bytes of a commit read: its headers (a signature is a few KB) and its subject.
const COMMIT_PREFIX: usize = 64 << 10;
/// The bytes of a tree read: enough for [`MAX_TREE_ENTRIES`] entries of ordinary names.
const TREE_PREFIX: usize = MAX_TREE_ENTRIES * 128;
/// The most tree lookups remembered between commits.
const MAX_FOUND: usize = 4_096;
/// The most problems with single objects said (the rest are counted).
const MAX_NOTES: usize = 20;

/// The bounds of one history read ([`Limits::default`] holds the constants above).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_snapshots: usize,
    pub max_commits_walked: usize,
    pub max_tree_entries: usize,
    pub max_subject_bytes: usize,
    pub max_object_bytes: u64,
    pub max_inflated_bytes: u64,
    pub deadline: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_snapshots: MAX_COMMITS,
            max_commits_walked: MAX_COMMITS_WALKED,
            max_tree_entries: MAX_TREE_ENTRIES,
            max_subject_bytes: MAX_SUBJECT_BYTES,
            max_object_bytes: MAX_SNAPSHOT_BYTES,
            max_inflated_bytes: MAX_INFLATED_BYTES,
            deadline: DEADLINE,
        }
    }
}

/// Why a repository's history could not be read (in full).
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("the resourcewatch history is not read: {0}")]
    Refused(GitError),
    #[error("the resourcewatch history is read only up to commit {at}: {err}")]
    Stopped { at: String, err: GitError },
    #[error("the resourcewatch history is read from commit {at} on: {err}")]
    Cut { at: String, err: GitError },
    #[error("the resourcewatch history has more than {0} commits; the older ones are not read")]
    TooManyCommits(usize),
    #[error("the resourcewatch history has more than {0} snapshots; the rest is not read")]
    TooMany(usize),
    #[error(
        "tree `{path}` at commit {commit} has more than {bound} entries; the rest are not looked at"
    )]
    TreeCut {
        path: String,
        commit: String,
        bound: usize,
    },
    #[error("`{path}` at commit {commit} is not read: {err}")]
    Object {
        path: String,
        commit: String,
        err: GitError,
    },
    #[error("{0} more problems with single objects of the resourcewatch history")]
    More(usize),
}

/// Figures of one history read (for tests and diagnostics).
#[derive(Debug, Default, Clone, Copy)]
pub struct Stats {
    pub commits_walked: usize,
    pub tree_entries_examined: usize,
    pub bytes_inflated: u64,
}

/// A history read: the snapshots, oldest first, the problems met and its figures.
#[derive(Debug, Default)]
pub struct History {
    pub snapshots: Vec<Snapshot>,
    pub problems: Vec<HistoryError>,
    pub stats: Stats,
}

/// Whether `dir` is the top of a git work tree holding a must-gather-style tree (a
/// resourcewatch repository). Anything at `.git` counts (nothing is followed), so that a
/// `.git` that is refused is said.
pub fn is_repository(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(".git")).is_ok()
        && std::fs::symlink_metadata(dir.join("cluster-scoped-resources"))
            .is_ok_and(|m| m.file_type().is_dir())
}

/// The snapshots of the followed objects, oldest first, and the problems met on the way (the
/// snapshots before a problem are kept).
pub fn history(dir: &Path, input: &str) -> (Vec<Snapshot>, Vec<HistoryError>) {
    let h = read_history(dir, input, &Limits::default());
    (h.snapshots, h.problems)
}

/// [`history`] under the given bounds, with its figures.
pub fn read_history(dir: &Path, input: &str, limits: &Limits) -> History {
    let mut h = History::default();
    let odb = GitDir::open(dir).and_then(|g| {
        let head = refs::head(&g)?;
        let odb = Odb::open(
            g,
            Budget {
                max_object: limits.max_object_bytes,
                max_inflated: limits.max_inflated_bytes,
                deadline: limits.deadline,
            },
        )?;
        Ok((head, odb))
    });
    let (head, mut odb) = match odb {
        Ok(x) => x,
        Err(e) => {
            h.problems.push(HistoryError::Refused(e));
            return h;
        }
    };
    for e in std::mem::take(&mut odb.problems) {
        h.problems.push(HistoryError::Refused(e));
    }
    let Head::Commit(head) = head else {
        return h;
    };
    let mut r = Reader {
        odb,
        limits: *limits,
        input,
        h,
        notes: 0,
        found: HashMap::new(),
    };
    r.run(head);
    r.h.stats.bytes_inflated = r.odb.inflated();
    r.h
}

/// One commit of the line walked.
struct Walked {
    oid: Oid,
    tree: Oid,
    time: Option<Time>,
}

/// The state of a followed directory at the last commit read: its tree and its files.
#[derive(Default)]
struct Dir {
    tree: Option<Oid>,
    files: BTreeMap<Vec<u8>, Oid>,
}

struct Reader<'a> {
    odb: Odb,
    limits: Limits,
    input: &'a str,
    h: History,
    notes: usize,
    /// The entry found under a name in a tree (the followed paths' trees), kept between
    /// commits.
    found: HashMap<(Oid, &'static str), Option<Oid>>,
}

impl Reader<'_> {
    fn run(&mut self, head: Oid) {
        let line = self.walk(head);
        let mut dirs: [Dir; 2] = Default::default();
        for c in line.iter().rev() {
            if let Err(err) = self.commit(c, &mut dirs) {
                self.h.problems.push(HistoryError::Stopped {
                    at: short(&c.oid),
                    err,
                });
                return;
            }
            if self.h.snapshots.len() > self.limits.max_snapshots {
                self.h.snapshots.truncate(self.limits.max_snapshots);
                self.h
                    .problems
                    .push(HistoryError::TooMany(self.limits.max_snapshots));
                return;
            }
        }
    }

    /// The line of first parents from `head`, newest first, cut at a bound or a problem
    /// (said).
    fn walk(&mut self, head: Oid) -> Vec<Walked> {
        let mut line: Vec<Walked> = Vec::new();
        let mut seen = HashSet::new();
        let mut next = Some(head);
        while let Some(oid) = next {
            if line.len() == self.limits.max_commits_walked {
                self.h
                    .problems
                    .push(HistoryError::TooManyCommits(self.limits.max_commits_walked));
                break;
            }
            if !seen.insert(oid) {
                self.h.problems.push(HistoryError::Cut {
                    at: short(&oid),
                    err: corrupt(&oid, "its line of first parents comes back to it"),
                });
                break;
            }
            let c = match self.commit_of(&oid) {
                Ok(c) => c,
                Err(err) if err.is_fatal() => {
                    // The deadline or the inflation bound: nothing is left to read them with.
                    self.h.problems.push(HistoryError::Refused(err));
                    return Vec::new();
                }
                Err(err) => {
                    // The commits walked so far are read (the newest part of the history).
                    let at = line.last().map_or_else(|| short(&oid), |w| short(&w.oid));
                    self.h.problems.push(HistoryError::Cut { at, err });
                    break;
                }
            };
            self.h.stats.commits_walked += 1;
            line.push(Walked {
                oid,
                tree: c.tree,
                time: c.author_time.and_then(|s| Time::from_unix(s, 0)),
            });
            next = c.parent;
        }
        line
    }

    fn commit_of(&mut self, oid: &Oid) -> Result<object::Commit, GitError> {
        let o = self.odb.read(oid, Some(COMMIT_PREFIX))?;
        if o.kind != Kind::Commit {
            return Err(GitError::WrongKind {
                oid: *oid,
                found: o.kind.name(),
                wanted: "commit",
            });
        }
        object::commit(&o.data, self.limits.max_subject_bytes).map_err(|why| corrupt(oid, why))
    }

    /// The changes of commit `c` to the followed directories, as snapshots. An error is one
    /// that ends the read (a bound, the deadline, a tree on the followed paths unreadable).
    fn commit(&mut self, c: &Walked, dirs: &mut [Dir; 2]) -> Result<(), GitError> {
        let mut changed = Vec::new();
        for (i, (path, kind)) in FOLLOWED.iter().enumerate() {
            let tree = self.subtree(c, path)?;
            if tree == dirs[i].tree {
                continue;
            }
            let files = match tree {
                Some(t) => self.files(c, path, &t)?,
                None => BTreeMap::new(),
            };
            let old = std::mem::replace(&mut dirs[i], Dir { tree, files });
            let new = &dirs[i].files;
            // Every name of either side, in order: added or modified, or deleted.
            let mut names: Vec<&Vec<u8>> = old.files.keys().chain(new.keys()).collect();
            names.sort();
            names.dedup();
            for name in names {
                match (old.files.get(name), new.get(name)) {
                    (Some(a), Some(b)) if a == b => {}
                    (_, Some(b)) => changed.push((*path, *kind, name.clone(), Some(*b))),
                    (Some(_), None) => changed.push((*path, *kind, name.clone(), None)),
                    (None, None) => {}
                }
            }
        }
        if changed.is_empty() {
            return Ok(());
        }
        let Some(time) = c.time else {
            self.note(HistoryError::Object {
                path: "(the commit)".into(),
                commit: short(&c.oid),
                err: corrupt(&c.oid, "no author time"),
            });
            return Ok(());
        };
        let subject = self.commit_of(&c.oid)?.subject;
        for (dir, kind, name, blob) in changed {
            let name = String::from_utf8_lossy(&name).into_owned();
            let path = format!("{dir}/{name}");
            let mut snap = Snapshot {
                time,
                commit: short(&c.oid),
                subject: subject.clone(),
                input: self.input.to_string(),
                path: path.clone(),
                kind,
                name: name
                    .trim_end_matches(".yaml")
                    .trim_end_matches(".json")
                    .to_string(),
                conditions: Vec::new(),
                removed: blob.is_none(),
            };
            if let Some(blob) = blob {
                let text = match self.odb.read(&blob, None) {
                    Ok(o) if o.kind == Kind::Blob => String::from_utf8_lossy(&o.data).into_owned(),
                    Ok(o) => {
                        let err = GitError::WrongKind {
                            oid: blob,
                            found: o.kind.name(),
                            wanted: "blob",
                        };
                        self.note(HistoryError::Object {
                            path,
                            commit: short(&c.oid),
                            err,
                        });
                        continue;
                    }
                    Err(err) if err.is_fatal() => return Err(err),
                    Err(err) => {
                        self.note(HistoryError::Object {
                            path,
                            commit: short(&c.oid),
                            err,
                        });
                        continue;
                    }
                };
                let Some(conditions) = conditions_of(kind, &text) else {
                    continue;
                };
                snap.conditions = conditions;
            }
            self.h.snapshots.push(snap);
        }
        Ok(())
    }

    /// The tree at `path` in commit `c`'s tree, `None` when there is none.
    fn subtree(&mut self, c: &Walked, path: &'static str) -> Result<Option<Oid>, GitError> {
        let mut tree = c.tree;
        let mut walked = String::new();
        for part in path.split('/') {
            // Most commits change other files: the same tree as last time, the same answer.
            if let Some(&t) = self.found.get(&(tree, part)) {
                match t {
                    Some(t) => {
                        tree = t;
                        if !walked.is_empty() {
                            walked.push('/');
                        }
                        walked.push_str(part);
                        continue;
                    }
                    None => return Ok(None),
                }
            }
            let key = (tree, part);
            let mut found = None;
            self.scan_tree(c, &walked, &tree, |e| {
                if e.name != part.as_bytes() {
                    return ControlFlow::Continue(());
                }
                found = e.is_tree().then_some(e.oid);
                ControlFlow::Break(())
            })?;
            if self.found.len() >= MAX_FOUND {
                self.found.clear();
            }
            self.found.insert(key, found);
            let Some(t) = found else {
                return Ok(None);
            };
            tree = t;
            if !walked.is_empty() {
                walked.push('/');
            }
            walked.push_str(part);
        }
        Ok(Some(tree))
    }

    /// The files ending `.yaml` or `.json` in the followed directory `tree`.
    fn files(
        &mut self,
        c: &Walked,
        path: &str,
        tree: &Oid,
    ) -> Result<BTreeMap<Vec<u8>, Oid>, GitError> {
        let mut out = BTreeMap::new();
        self.scan_tree(c, path, tree, |e| {
            if e.is_file() && (e.name.ends_with(b".yaml") || e.name.ends_with(b".json")) {
                out.insert(e.name.to_vec(), e.oid);
            }
            ControlFlow::Continue(())
        })?;
        Ok(out)
    }

    /// Hands the entries of `tree` (the directory `path` of commit `c`) to `visit` in order,
    /// until it breaks or the tree's entry bound is reached (the cut said once per path); an
    /// entry that cannot be parsed makes the tree corrupt.
    fn scan_tree(
        &mut self,
        c: &Walked,
        path: &str,
        tree: &Oid,
        mut visit: impl FnMut(&object::Entry<'_>) -> ControlFlow<()>,
    ) -> Result<(), GitError> {
        let body = self.tree(tree)?;
        for (n, e) in object::entries(&body).enumerate() {
            if n == self.limits.max_tree_entries {
                self.cut(path, c);
                break;
            }
            self.h.stats.tree_entries_examined += 1;
            let e = e.map_err(|why| corrupt(tree, why))?;
            if visit(&e).is_break() {
                break;
            }
        }
        Ok(())
    }

    fn tree(&mut self, oid: &Oid) -> Result<Vec<u8>, GitError> {
        let o = self.odb.read(oid, Some(TREE_PREFIX))?;
        if o.kind != Kind::Tree {
            return Err(GitError::WrongKind {
                oid: *oid,
                found: o.kind.name(),
                wanted: "tree",
            });
        }
        Ok(o.data)
    }

    /// Says (once per path) that a tree had more entries than are looked at.
    fn cut(&mut self, path: &str, c: &Walked) {
        let path = if path.is_empty() { "." } else { path };
        if !self
            .h
            .problems
            .iter()
            .any(|p| matches!(p, HistoryError::TreeCut { path: q, .. } if q == path))
        {
            self.h.problems.push(HistoryError::TreeCut {
                path: path.to_string(),
                commit: short(&c.oid),
                bound: self.limits.max_tree_entries,
            });
        }
    }

    /// Says a problem with one object, up to [`MAX_NOTES`] of them (the rest counted).
    fn note(&mut self, e: HistoryError) {
        self.notes += 1;
        if self.notes <= MAX_NOTES {
            self.h.problems.push(e);
        } else if let Some(HistoryError::More(n)) = self.h.problems.last_mut() {
            *n += 1;
        } else {
            self.h.problems.push(HistoryError::More(1));
        }
    }
}

/// A commit id as the timeline shows it: 12 hex digits.
fn short(oid: &Oid) -> String {
    oid.hex()[..12].to_string()
}

/// Object `oid` is corrupt, and why.
fn corrupt(oid: &Oid, why: impl Into<String>) -> GitError {
    GitError::Corrupt {
        oid: oid.hex(),
        why: why.into(),
    }
}

/// The conditions of a snapshot's object, `None` when it does not parse as its kind.
fn conditions_of(kind: SnapshotKind, text: &str) -> Option<Vec<Condition>> {
    let value: serde_json::Value = crate::yaml::from_str(text).ok()?;
    match kind {
        SnapshotKind::ClusterVersion => serde_json::from_value::<ClusterVersion>(value)
            .ok()
            .map(|cv| cv.status.conditions),
        SnapshotKind::ClusterOperator => serde_json::from_value::<ClusterOperator>(value)
            .ok()
            .map(|co| co.status.conditions),
    }
}
