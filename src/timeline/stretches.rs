//! Condition stretches: for each object's condition, the stretches of time in which it had
//! one status, from the timeline's condition transitions (each lasts until the next one with
//! another status; the last stays open). Computed once per analysis when a view draws them
//! (the HTML chart's condition bars), never re-derived by the view. Stretches index the
//! events of the timeline they were computed from, and are read with it.

use super::Timeline;
use super::model::{EventKind, EventSource, Subject, TimelineEvent};
use crate::model::Time;
use std::collections::BTreeMap;

/// One stretch in which a condition had one status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stretch {
    pub start: Time,
    /// When the next transition to another status came; `None` while it lasts.
    pub end: Option<Time>,
    /// The index in [`Timeline::events`] of the transition that started it.
    pub event: usize,
    /// The indices of the later transitions that set the same status again.
    pub repeats: Vec<usize>,
}

impl Stretch {
    /// The transition that started it.
    pub fn event<'t>(&self, tl: &'t Timeline) -> &'t TimelineEvent {
        &tl.events[self.event]
    }

    /// Every transition in it, the first one first.
    pub fn transitions<'t>(&self, tl: &'t Timeline) -> impl Iterator<Item = &'t TimelineEvent> {
        std::iter::once(&self.event)
            .chain(&self.repeats)
            .map(|i| &tl.events[*i])
    }

    /// The status and reason the transition set (empty when not a transition).
    pub fn status<'t>(&self, tl: &'t Timeline) -> (&'t str, &'t str) {
        match &self.event(tl).kind {
            EventKind::ConditionTransition { status, reason, .. } => (status, reason),
            _ => ("", ""),
        }
    }
}

/// Every condition's stretches, by subject and condition type.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConditionStretches {
    by: BTreeMap<(Subject, String), Vec<Stretch>>,
}

impl ConditionStretches {
    /// No stretches (what a view that draws none is given).
    pub const NONE: &'static ConditionStretches = &ConditionStretches {
        by: BTreeMap::new(),
    };

    /// The stretches of `subject`'s `condition`, in time order.
    pub fn of(&self, subject: &Subject, condition: &str) -> Option<&[Stretch]> {
        self.by
            .get(&(subject.clone(), condition.to_string()))
            .map(Vec::as_slice)
    }

    /// The subjects that have a condition, each once, in order.
    pub fn subjects(&self) -> impl Iterator<Item = &Subject> {
        let mut last: Option<&Subject> = None;
        self.by.keys().map(|(s, _)| s).filter(move |s| {
            let new = last != Some(*s);
            if new {
                last = Some(*s);
            }
            new
        })
    }
}

/// The condition stretches of `tl`. When CI intervals gave the conditions with both ends
/// (`tl.monitor.any`), transitions read from intervals are left out: the intervals themselves
/// are drawn.
pub fn condition_stretches(tl: &Timeline) -> ConditionStretches {
    let skip_intervals = tl.monitor.any;
    let mut by: BTreeMap<(Subject, String), Vec<Stretch>> = BTreeMap::new();
    for (i, e) in tl.events.iter().enumerate() {
        if skip_intervals && e.source == EventSource::Interval {
            continue;
        }
        let EventKind::ConditionTransition {
            condition, status, ..
        } = &e.kind
        else {
            continue;
        };
        let out = by
            .entry((e.subject.clone(), condition.clone()))
            .or_default();
        if let Some(last) = out.last_mut() {
            if last.status(tl).0 == status.as_str() {
                last.repeats.push(i); // the same status again: the stretch goes on
                continue;
            }
            last.end = Some(e.time);
        }
        out.push(Stretch {
            start: e.time,
            end: None,
            event: i,
            repeats: Vec::new(),
        });
    }
    ConditionStretches { by }
}
