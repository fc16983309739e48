//! The vocabulary the derivation's parts share: its working state ([`Cx`]), the order of
//! events within one second, whole-second times, and what it concludes (inferences,
//! completions, rejected targets). `derive` drives the derivation and its parts
//! (`completion`, `requests`, `state`, `logevents`, `writer`) all import from here, so none
//! of them imports the module that calls it.

use super::logscan::LogFacts;
use super::timing::CompletionTiming;
use crate::bundle::Bundle;
use crate::model::{ClusterVersion, Condition, ConditionField, HistoryEntry, Time, find_condition};
use crate::reconciler::scenario::Event;
use crate::timeline::{EventKind, EventSource, Evidence, Timeline};
use chrono::{Duration, DurationRound};

/// A time concluded from other evidence than the ClusterVersion field that claims it.
#[derive(Debug, Clone, PartialEq)]
pub struct Inference {
    /// The field it stands for (`history[1].completionTime`).
    pub field: super::field::StatusField,
    pub value: Time,
    /// What the field says.
    pub claimed: Option<Time>,
    /// What the value rests on, in a few words.
    pub basis: String,
    pub evidence: Vec<Evidence>,
}

/// A Completed history entry as the replay completes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Completion {
    /// The entry's index in the dump's history.
    pub index: usize,
    /// When it completed (whole seconds): as written, or as other evidence dates it.
    pub at: Time,
    /// Its `pass_result` in [`Cx::events`].
    pub event: usize,
}

/// A requested target whose payload checks failed.
#[derive(Debug, Clone, PartialEq)]
pub struct RejectedTarget {
    pub version: String,
    pub image: String,
    /// The first failure seen.
    pub at: Time,
    /// What failed, e.g. `precondition ClusterVersionUpgradeable (AdminAckRequired)`.
    pub what: String,
    /// The target's index in the dump's history (newest first), if it has an entry.
    pub history_index: Option<usize>,
    /// Whether it was accepted later.
    pub accepted_later: bool,
    pub evidence: Vec<Evidence>,
}

impl RejectedTarget {
    pub fn label(&self) -> &str {
        if self.version.is_empty() {
            &self.image
        } else {
            &self.version
        }
    }
}

/// Event order within one second: pod starts, inputs, passes, spec changes, load results,
/// progress, then the final tick.
pub(super) const POD: u8 = 0;
pub(super) const INPUT: u8 = 1;
pub(super) const PASS: u8 = 2;
pub(super) const SPEC: u8 = 3;
pub(super) const LOAD: u8 = 4;
pub(super) const PROGRESS: u8 = 5;
pub(super) const TICK: u8 = 6;

/// Truncates to whole seconds, as the API server stores times.
pub(super) fn sec(t: Time) -> Time {
    Time::from(t.duration_trunc(Duration::seconds(1)).unwrap_or(*t))
}

/// The derivation's working state.
pub(super) struct Cx<'a> {
    pub bundle: &'a Bundle,
    pub timeline: &'a Timeline,
    pub cv: Option<&'a ClusterVersion>,
    /// `status.history`, newest first (as in the dump).
    pub hist: &'a [HistoryEntry],
    pub facts: LogFacts,
    pub events: Vec<(Time, u8, usize, Event)>,
    pub notes: Vec<String>,
    pub inferences: Vec<Inference>,
    pub rejections: Vec<RejectedTarget>,
    /// Each Completed history entry replayed: its dump index, resolved completion time and
    /// the index of its `pass_result` in `events` (a CVO log pass may re-date it).
    pub completions: Vec<Completion>,
    /// How each completion the CVO log shows relates to the status sync that wrote it.
    pub timings: Vec<CompletionTiming>,
    /// Where the ClusterVersion was read.
    pub cv_evidence: Option<crate::model::Provenance>,
    /// The oldest history entry when it is not the install (older entries were pruned): the
    /// replay starts from it as written.
    pub kept: Option<HistoryEntry>,
}

impl<'a> Cx<'a> {
    pub fn push(&mut self, at: Time, prio: u8, event: Event) {
        let n = self.events.len();
        self.events.push((sec(at), prio, n, event));
    }

    pub fn note(&mut self, s: String) {
        self.notes.push(s);
    }

    pub fn cond(&self, type_: &str) -> Option<&'a Condition> {
        self.cv
            .and_then(|c| find_condition(&c.status.conditions, type_))
    }

    /// Evidence pointing at a condition's field in the ClusterVersion file, with a short text.
    pub fn cv_ev(&self, type_: &str, field: ConditionField, text: &str) -> Vec<Evidence> {
        self.cv_evidence
            .iter()
            .map(|p| Evidence::of_condition(p.clone(), type_, field, text))
            .collect()
    }

    pub fn last_event_time(&self) -> Option<Time> {
        self.events.iter().map(|e| e.0).max()
    }
}

/// `DesiredUpdate` sightings in the CVO log (`Desired version from spec is …`), by time.
pub(super) fn log_sightings(tl: &Timeline) -> Vec<(Time, String, String, bool)> {
    tl.events
        .iter()
        .filter(|e| e.source == EventSource::CvoLog)
        .filter_map(|e| match &e.kind {
            EventKind::DesiredUpdateSeen {
                version,
                image,
                force,
            } => Some((e.time, version.clone(), image.clone(), *force)),
            _ => None,
        })
        .collect()
}
