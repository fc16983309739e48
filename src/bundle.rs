//! The index of everything ingested from the inputs of one run: typed objects and records,
//! each with provenance, plus the files that could not be read and why.

use crate::model::*;
use crate::vocab::FileTable;
use serde::Serialize;
use std::collections::BTreeMap;

/// What kind of input a user named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputKind {
    /// A must-gather (or `oc adm inspect`) directory.
    MustGather,
    /// A Prow CI job artifacts directory.
    CiJob,
    /// An archive (tar, zip, tar.gz, tar.xz, tar.zst, gzip, xz or zstd data), a file or a
    /// stream.
    Archive,
    /// A single file.
    File,
    /// A directory with none of the known layouts, read file by file.
    Directory,
}

/// One input as named by the user, and what was found in it.
#[derive(Debug, Clone, Serialize)]
pub struct InputInfo {
    pub name: String,
    pub kind: InputKind,
    /// Must-gather roots found inside (paths relative to the input).
    pub must_gather_roots: Vec<String>,
    /// Whether a CI job layout was found inside.
    pub ci_job: bool,
    /// Files looked at, and files read and parsed.
    pub files_seen: u64,
    pub files_read: u64,
    /// Files outside any known layout whose content is nothing mglint reads.
    pub files_skipped: u64,
    pub bytes_read: u64,
    /// Modification time of the input itself: the last resort for the year of year-less
    /// log lines when nothing inside the input has an absolute time.
    #[serde(skip)]
    pub modified: Option<Time>,
}

/// The parsed content of one or more inputs.
#[derive(Debug, Clone, Default)]
pub struct Bundle {
    pub inputs: Vec<InputInfo>,
    /// Every file read, with its text while evidence may point into it.
    pub files: FileTable,
    /// Collection times from `timestamp` files (start and end of each gather).
    pub collection_times: Vec<Sourced<Time>>,
    /// Must-gather image `version` files (`openshift/must-gather` + version).
    pub gather_versions: Vec<Sourced<String>>,
    /// Kubernetes and OpenShift objects, by kind (one per key, the freshest copy).
    pub objects: Objects,
    pub cvo_logs: Vec<CvoLog>,
    /// Other container logs, only those a known-issue rule asks for.
    pub pod_logs: Vec<PodLog>,
    pub intervals: Vec<Interval>,
    pub text_lines: Vec<TextLine>,
    pub junit: Vec<JunitCase>,
    pub prow: Option<ProwJob>,
    /// Files that could not be read, or only in part.
    pub diagnostics: Vec<Diagnostic>,
    /// Inputs that could not be opened at all (missing path, unreadable).
    pub input_errors: Vec<String>,
    /// Files parsed, by kind (e.g. `cvo-log` → 2).
    pub sources_by_kind: BTreeMap<String, u64>,
}

impl Bundle {
    /// The newest ClusterVersion snapshot (by collection order: the last one read).
    pub fn cluster_version(&self) -> Option<&Sourced<ClusterVersion>> {
        self.objects.cluster_versions.last()
    }

    /// ClusterOperators, deduplicated by name.
    pub fn cluster_operators(&self) -> &[Sourced<ClusterOperator>] {
        &self.objects.cluster_operators
    }

    /// CVO log records across all CVO log files, by time.
    pub fn cvo_log(&self) -> &[CvoLog] {
        &self.cvo_logs
    }

    /// The collection time: the latest `timestamp` line, else the latest time seen in logs.
    pub fn collection_time(&self) -> Option<Time> {
        self.collection_times.iter().map(|t| t.value).max()
    }

    /// The moment the data describes: collection time, else the latest time in any source.
    pub fn reference_time(&self) -> Option<Time> {
        if let Some(t) = self.collection_time() {
            return Some(t);
        }
        let mut best: Option<Time> = None;
        let mut see = |t: Option<Time>| {
            if let Some(t) = t {
                best = Some(best.map_or(t, |b| b.max(t)));
            }
        };
        for cv in &self.objects.cluster_versions {
            for c in &cv.status.conditions {
                see(c.last_transition_time);
            }
            for h in &cv.status.history {
                see(h.started_time);
                see(h.completion_time);
            }
        }
        for co in &self.objects.cluster_operators {
            for c in &co.status.conditions {
                see(c.last_transition_time);
            }
        }
        for log in &self.cvo_logs {
            see(log.span().map(|s| s.1));
        }
        for i in &self.intervals {
            see(i.to.or(i.from));
        }
        for l in &self.text_lines {
            see(l.time);
        }
        if let Some(p) = &self.prow {
            see(p.completion);
        }
        best
    }

    /// True when no recognisable object or record was found.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
            && self.cvo_logs.is_empty()
            && self.intervals.is_empty()
            && self.text_lines.is_empty()
            && self.junit.is_empty()
            && self.prow.is_none()
            && self.collection_times.is_empty()
    }
}
