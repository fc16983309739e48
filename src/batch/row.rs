//! One batch row: what one input gave (`mglint/batch/v2`), built from its bundle, timeline
//! and report, or an error row when the input could not be analysed. Rows hold only values
//! derived from the data, never wall-clock times, so a batch is byte-identical at any thread
//! count.

use crate::bundle::{Bundle, InputKind};
use crate::model::Time;
use crate::rules::{Report, Severity};
use crate::timeline::{EpisodeKind, MilestoneKind, Timeline};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The schema tag of every row.
pub use crate::vocab::schema::BATCH_ROW as SCHEMA;

/// How an input ended, as `mglint analyze` would exit on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Analysed; no finding at or above the fail level (exit 0).
    Ok,
    /// Analysed; a finding at or above the fail level (exit 1).
    Findings,
    /// Not analysed: missing, unreadable, nothing recognisable, download failed, or an
    /// archive whose stream is truncated or corrupt (exit 2).
    Error,
}

impl Outcome {
    /// The name it serializes as.
    pub fn as_str(self) -> &'static str {
        crate::vocab::names::serde_name(&self)
    }
}

/// Findings by severity (all findings, whatever the fail level), named as the report's
/// `summary` names them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeverityCounts {
    pub errors: usize,
    pub warnings: usize,
    pub info: usize,
}

/// How many findings one rule gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeCount {
    pub code: String,
    pub count: usize,
}

/// How many episodes of one kind the timeline holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindCount {
    pub kind: String,
    pub count: usize,
}

/// A map of counts as a list of pairs, in key order (a warehouse types a list of structs
/// once; an object whose keys vary per row it cannot).
fn counts<T>(m: BTreeMap<String, usize>, pair: impl Fn(String, usize) -> T) -> Vec<T> {
    m.into_iter().map(|(k, n)| pair(k, n)).collect()
}

/// One update episode of the timeline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UpdateRow {
    pub from: String,
    pub to: String,
    pub start: Time,
    /// `null` while the update was still going at the end of the data.
    pub end: Option<Time>,
    /// `end - start` in whole seconds (rounded down); `null` when open.
    pub duration_seconds: Option<i64>,
    /// `completed`, `abandoned` (left for another target), `open` or `ended` (an end
    /// without a completion milestone).
    pub state: String,
}

/// One JSON Lines row of `mglint batch`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// Position of the input in the list the batch was given (before sharding).
    pub index: usize,
    /// The input as given (path or URL).
    pub input: String,
    /// The cluster its ClusterVersion names (all `null` for an error row or no
    /// ClusterVersion).
    pub cluster: crate::bundle::ClusterIdentity,
    pub outcome: Outcome,
    /// Which cluster of the input the row is (from 0, in the order `analyze` reports them):
    /// an input holding several clusters (two must-gathers, a HyperShift management cluster
    /// and its hosted clusters) has one row per cluster, each with the same `index`.
    #[serde(default)]
    pub cluster_index: usize,
    /// How many clusters the input held (its rows): 1 for an error row.
    #[serde(default = "one")]
    pub clusters: usize,
    /// What the input held: `must-gather`, `ci-job`, `archive`, `file` or `directory`.
    pub kind: Option<String>,
    /// Prow job name and build id (`prowjob.json`), when present.
    pub job: Option<String>,
    pub build_id: Option<String>,
    /// Prow's result (`SUCCESS`, `FAILURE`…), when present.
    pub job_result: Option<String>,
    /// The update's versions: the Prow job's from/to tags, else the first update episode's
    /// `from` and the last one's `to`.
    pub from: Option<String>,
    pub to: Option<String>,
    /// `status.desired.version` of the newest ClusterVersion.
    pub version: Option<String>,
    /// When the data was collected (or the latest time seen in it).
    pub collected_at: Option<Time>,
    /// Finding codes with their counts (all severities), by code.
    pub codes: Vec<CodeCount>,
    pub summary: SeverityCounts,
    /// Update episodes, oldest first.
    pub updates: Vec<UpdateRow>,
    /// Every episode kind of the timeline with its count (`install`, `update`, `stall`…),
    /// by kind.
    pub episodes: Vec<KindCount>,
    pub files_read: u64,
    /// Bytes received over the network to fetch a CI job URL input in this run (listing
    /// and objects; for a must-gather archive read by range requests, the parts fetched),
    /// the same on each of the input's rows; 0 when it came from the cache; `null` for a
    /// local input or a plain URL.
    #[serde(default)]
    pub fetched_bytes: Option<u64>,
    /// Why the input could not be analysed, and files that could not be read.
    pub errors: Vec<String>,
}

impl Row {
    /// An error row: the input could not be analysed.
    pub fn error(index: usize, input: &str, errors: Vec<String>) -> Row {
        Row {
            schema: SCHEMA.to_string(),
            index,
            input: input.to_string(),
            cluster: Default::default(),
            outcome: Outcome::Error,
            cluster_index: 0,
            clusters: 1,
            kind: None,
            job: None,
            build_id: None,
            job_result: None,
            from: None,
            to: None,
            version: None,
            collected_at: None,
            codes: Vec::new(),
            summary: SeverityCounts::default(),
            updates: Vec::new(),
            episodes: Vec::new(),
            files_read: 0,
            fetched_bytes: None,
            errors,
        }
    }

    /// The row of an analysed input.
    pub fn analysed(
        index: usize,
        input: &str,
        bundle: &Bundle,
        timeline: &Timeline,
        report: &Report,
    ) -> Row {
        let mut row = Row::error(index, input, Vec::new());
        row.outcome = if report.failed() {
            Outcome::Findings
        } else {
            Outcome::Ok
        };
        row.kind = bundle.inputs.first().map(|i| kind_name(i.kind).to_string());
        row.files_read = bundle.inputs.iter().map(|i| i.files_read).sum();
        let nonempty = |s: &str| Some(s.to_string()).filter(|s| !s.is_empty());
        if let Some(p) = &bundle.prow {
            row.job = nonempty(&p.job);
            row.build_id = nonempty(&p.build_id);
            row.job_result = nonempty(&p.result);
            row.from = nonempty(&p.from_tag);
            row.to = nonempty(&p.to_tag);
        }
        row.version = bundle
            .cluster_version()
            .and_then(|cv| nonempty(&cv.status.desired.version));
        row.collected_at = report.collected_at;
        row.cluster = bundle.identity();
        let mut codes: BTreeMap<String, usize> = BTreeMap::new();
        for f in &report.findings {
            *codes.entry(f.code.to_string()).or_default() += 1;
            match f.severity {
                Severity::Error => row.summary.errors += 1,
                Severity::Warning => row.summary.warnings += 1,
                Severity::Info => row.summary.info += 1,
            }
        }
        row.codes = counts(codes, |code, count| CodeCount { code, count });
        let mut episodes: BTreeMap<String, usize> = BTreeMap::new();
        for e in &timeline.episodes {
            let tag = crate::vocab::names::serde_name(&e.tag());
            *episodes.entry(tag.to_string()).or_default() += 1;
            if let EpisodeKind::Update { from, to } = &e.kind {
                let state = if e.milestone(MilestoneKind::Completed).is_some() {
                    "completed"
                } else if e.milestone(MilestoneKind::Abandoned).is_some() {
                    "abandoned"
                } else if e.end.is_none() {
                    "open"
                } else {
                    "ended"
                };
                row.updates.push(UpdateRow {
                    from: from.clone(),
                    to: to.clone(),
                    start: e.start,
                    end: e.end,
                    duration_seconds: e.end.map(|end| (end - e.start).num_seconds()),
                    state: state.to_string(),
                });
            }
        }
        row.episodes = counts(episodes, |kind, count| KindCount { kind, count });
        if row.from.is_none() {
            row.from = row
                .updates
                .first()
                .map(|u| u.from.clone())
                .filter(|s| !s.is_empty());
        }
        if row.to.is_none() {
            row.to = row
                .updates
                .last()
                .map(|u| u.to.clone())
                .filter(|s| !s.is_empty());
        }
        row.errors.extend(bundle.input_errors.iter().cloned());
        for d in bundle
            .diagnostics
            .iter()
            .filter(|d| d.level == Severity::Error)
        {
            row.errors.push(format!("{}: {}", d.prov, d.reason));
        }
        if !bundle.input_errors.is_empty() || damaged_archive(bundle) {
            row.outcome = Outcome::Error;
        }
        row
    }
}

/// The cluster count of a row written before rows had one.
fn one() -> usize {
    1
}

fn kind_name(k: InputKind) -> &'static str {
    match k {
        InputKind::MustGather => "must-gather",
        InputKind::CiJob => "ci-job",
        InputKind::Archive => "archive",
        InputKind::File => "file",
        InputKind::Directory => "directory",
    }
}

/// Whether an archive input's stream broke off (truncated or corrupt compressed data or tar):
/// everything after the break is lost, so what was analysed is an arbitrary prefix.
fn damaged_archive(bundle: &Bundle) -> bool {
    let archive = bundle.inputs.iter().any(|i| i.kind == InputKind::Archive);
    archive
        && bundle.diagnostics.iter().any(|d| {
            d.level == Severity::Error
                && (d.reason.starts_with("truncated")
                    || d.reason.starts_with("cannot read tar archive")
                    || d.reason.contains("corrupt"))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_row_serializes_with_schema_and_nulls() {
        let r = Row::error(
            3,
            "/no/such",
            vec!["`/no/such`: no such file or directory".into()],
        );
        let line = serde_json::to_string(&r).unwrap();
        assert!(
            line.starts_with(
                r#"{"schema":"mglint/batch/v2","index":3,"input":"/no/such","cluster":{"id":null,"from":null,"to":null},"outcome":"error""#
            ),
            "{line}"
        );
        let back: Row = serde_json::from_str(&line).unwrap();
        assert_eq!(back, r);
    }
}
