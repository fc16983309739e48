//! A resourcewatch repository's history (openshift/origin `pkg/resourcewatch`): the tool
//! commits every observed change of a watched object as one file in a must-gather layout,
//! one commit per add, update or delete, with the observation time as the author date. The
//! working tree is read as any directory is; this module reads the history of the objects the
//! timeline follows through time (the ClusterVersion and the ClusterOperators) with the `git`
//! command, oldest commit first (by topology: many commits share one second), and keeps each
//! snapshot's conditions.
//!
//! Bounded: at most [`MAX_COMMITS`] snapshots, each at most [`MAX_SNAPSHOT_BYTES`]; what is
//! past a bound is said in a diagnostic, not read.

use crate::model::{
    ClusterOperator, ClusterVersion, Condition, Snapshot, SnapshotKind, Time, parse_rfc3339,
};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// The paths whose history is read.
const FOLLOWED: [&str; 2] = [
    "cluster-scoped-resources/config.openshift.io/clusterversions",
    "cluster-scoped-resources/config.openshift.io/clusteroperators",
];

/// The most snapshots read from one repository (the public 3-node example has 1,021 of these
/// two kinds in 14,206 commits).
pub const MAX_COMMITS: usize = 200_000;

/// The largest snapshot read (a ClusterVersion with its managed fields is about 30 KB).
pub const MAX_SNAPSHOT_BYTES: u64 = 8 << 20;

/// Why a repository's history could not be read (in full).
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("cannot run `git` to read the resourcewatch history: {0}")]
    Git(std::io::Error),
    #[error("`git {0}` failed: {1}")]
    Failed(&'static str, String),
    #[error(
        "the resourcewatch history has more than {MAX_COMMITS} snapshots; the rest is not read"
    )]
    TooMany,
}

/// Whether `dir` is the top of a git work tree holding a must-gather-style tree (a
/// resourcewatch repository).
pub fn is_repository(dir: &Path) -> bool {
    dir.join(".git").exists() && dir.join("cluster-scoped-resources").is_dir()
}

/// The snapshots of the followed objects, oldest first, and a problem met on the way (the
/// snapshots before it are kept).
pub fn history(dir: &Path, input: &str) -> (Vec<Snapshot>, Option<HistoryError>) {
    let mut out = Vec::new();
    let err = read(dir, input, &mut out).err();
    (out, err)
}

/// One change listed by `git log`: the commit, its time and subject, the file and whether
/// the commit deleted it.
struct Change {
    commit: String,
    time: Time,
    subject: String,
    path: String,
    removed: bool,
}

fn git(dir: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg("-C")
        .arg(dir)
        .args(["-c", "core.quotepath=off"])
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null());
    c
}

fn read(dir: &Path, input: &str, out: &mut Vec<Snapshot>) -> Result<(), HistoryError> {
    let changes = log(dir)?;
    let too_many = changes.len() > MAX_COMMITS;
    let wanted: Vec<&Change> = changes.iter().take(MAX_COMMITS).collect();
    // The contents, in one `git cat-file --batch` (requests written from a thread, so that a
    // full pipe on either side never blocks the other).
    let mut child = git(dir)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(HistoryError::Git)?;
    let mut stdin = child.stdin.take().expect("piped");
    let requests: Vec<String> = wanted
        .iter()
        .filter(|c| !c.removed)
        .map(|c| format!("{}:{}\n", c.commit, c.path))
        .collect();
    let writer = std::thread::spawn(move || {
        for r in requests {
            if stdin.write_all(r.as_bytes()).is_err() {
                break;
            }
        }
    });
    let mut reader = BufReader::new(child.stdout.take().expect("piped"));
    for c in wanted {
        let kind = if c.path.starts_with(FOLLOWED[0]) {
            SnapshotKind::ClusterVersion
        } else {
            SnapshotKind::ClusterOperator
        };
        let name = c
            .path
            .rsplit('/')
            .next()
            .unwrap_or("")
            .trim_end_matches(".yaml")
            .trim_end_matches(".json")
            .to_string();
        let mut snap = Snapshot {
            time: c.time,
            commit: c.commit.chars().take(12).collect(),
            subject: c.subject.clone(),
            input: input.to_string(),
            path: c.path.clone(),
            kind,
            name,
            conditions: Vec::new(),
            removed: c.removed,
        };
        if !c.removed {
            let Some(text) = blob(&mut reader)? else {
                continue;
            };
            let Some(conditions) = conditions_of(kind, &text) else {
                continue;
            };
            snap.conditions = conditions;
        }
        out.push(snap);
    }
    drop(reader);
    let _ = writer.join();
    let _ = child.wait();
    if too_many {
        return Err(HistoryError::TooMany);
    }
    Ok(())
}

/// The changes to the followed paths, oldest first.
fn log(dir: &Path) -> Result<Vec<Change>, HistoryError> {
    let o = git(dir)
        .args([
            "log",
            "--reverse",
            "--no-renames",
            "--format=%x01%H%x00%aI%x00%s",
            "--name-status",
            "--",
        ])
        .args(FOLLOWED)
        .stderr(Stdio::piped())
        .output()
        .map_err(HistoryError::Git)?;
    if !o.status.success() {
        return Err(HistoryError::Failed(
            "log",
            crate::vocab::text::one_line(&String::from_utf8_lossy(&o.stderr), 200),
        ));
    }
    let text = String::from_utf8_lossy(&o.stdout);
    let mut out = Vec::new();
    for block in text.split('\u{1}').filter(|b| !b.trim().is_empty()) {
        let mut lines = block.lines();
        let head = lines.next().unwrap_or("");
        let mut f = head.splitn(3, '\0');
        let (Some(commit), Some(date), subject) = (f.next(), f.next(), f.next()) else {
            continue;
        };
        let Some(time) = parse_rfc3339(date) else {
            continue;
        };
        for l in lines {
            let Some((status, path)) = l.split_once('\t') else {
                continue;
            };
            let path = path.trim();
            if !(path.ends_with(".yaml") || path.ends_with(".json")) {
                continue;
            }
            out.push(Change {
                commit: commit.to_string(),
                time,
                subject: subject.unwrap_or("").to_string(),
                path: path.to_string(),
                removed: status.starts_with('D'),
            });
        }
    }
    Ok(out)
}

/// The next object of `git cat-file --batch`: `None` when git has no such object (or it is
/// over the size bound, skipped).
fn blob(r: &mut impl BufRead) -> Result<Option<String>, HistoryError> {
    let mut head = String::new();
    if r.read_line(&mut head).map_err(HistoryError::Git)? == 0 {
        return Err(HistoryError::Failed("cat-file", "ended early".into()));
    }
    let head = head.trim_end();
    if head.ends_with(" missing") || head.ends_with(" ambiguous") {
        return Ok(None);
    }
    let size: u64 = head
        .rsplit(' ')
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| HistoryError::Failed("cat-file", format!("unexpected header {head}")))?;
    let mut buf = Vec::new();
    let mut take = r.take(size + 1);
    if size > MAX_SNAPSHOT_BYTES {
        std::io::copy(&mut take, &mut std::io::sink()).map_err(HistoryError::Git)?;
        return Ok(None);
    }
    take.read_to_end(&mut buf).map_err(HistoryError::Git)?;
    buf.pop(); // the newline after the object
    Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
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
