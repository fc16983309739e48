//! The upgrade timeline: one sorted stream of UTC events from every ingested source (resource
//! status and a resourcewatch repository's history of it, Kubernetes events, CVO logs, CI intervals, test logs, JUnit, Prow), the same fact
//! from two sources merged into one event with two pieces of evidence, the CVO's sync passes,
//! and derived episodes (install, update A→B, cancel, rollback, stall, CVO restart,
//! unmanaged span). Rules and the reconciler's replay read it; `render` prints it.
//!
//! ```no_run
//! # let bundle = mglint::bundle::Bundle::default();
//! let tl = mglint::timeline::build(&bundle);
//! for e in tl.episodes_of(mglint::timeline::EpisodeTag::Stall) {
//!     println!("{}", e.summary);
//! }
//! ```

mod catalogue;
mod ci;
mod cluster;
mod cvo_log;
mod episode;
mod episodes;
mod episodes_cvo;
mod events;
mod evidence;
mod history;
mod locate;
mod mask;
mod merge;
mod model;
mod pass;
mod render;
mod stretches;
mod subject;

pub use catalogue::{Fact, HistoryMerge, LoadFact, classify, text};
pub use episodes::human_duration;
pub use merge::SAME_MOMENT;
pub use model::*;
pub use render::{Filter, render_json, render_table};
pub use stretches::{ConditionStretches, Stretch, condition_stretches};

use crate::bundle::Bundle;
use crate::model::Time;
use serde::Serialize;

/// Everything the timeline knows, in order.
#[derive(Debug, Clone, Serialize)]
pub struct Timeline {
    /// All events, merged and in the total order (time, source rank, subject, message).
    pub events: Vec<TimelineEvent>,
    /// Derived episodes, by start time.
    pub episodes: Vec<Episode>,
    /// CVO sync passes from the logs, by start time.
    pub passes: Vec<Pass>,
    /// CVO container instances seen in the logs, by start time.
    pub instances: Vec<Instance>,
    /// `status.history` merged across snapshots, oldest first.
    pub history: Vec<HistoryRecord>,
    /// The fixed CVO's load-pipeline results from the logs (precondition errors, payloads
    /// loaded with hash and architecture), by time.
    #[serde(skip)]
    pub loads: Vec<LoadRecord>,
    /// The CVO's status syncs that merged into `history[0]`, from the logs: only the lines
    /// where the release or `completed` changed (the line repeats on every sync), by time.
    #[serde(skip)]
    pub history_merges: Vec<HistoryMergeRecord>,
    /// The moment the data describes (collection time, else the latest time seen).
    pub reference: Option<Time>,
    /// Input files that could not be read and may hold what the timeline is built from
    /// (the ClusterVersion, operators, pools, nodes): events they held are missing.
    pub unread: Vec<crate::bundle::Unread>,
    /// The cluster the timeline is of.
    pub cluster: crate::bundle::ClusterIdentity,
    /// CI monitor intervals with both ends, for the chart.
    #[serde(skip)]
    pub monitor: MonitorSpans,
    /// The namespace the CVO's pod runs in (see [`Bundle::cvo_namespace`]): events about a
    /// [`Subject::CvoPod`] are written as a Pod there, as findings name it.
    #[serde(skip)]
    pub cvo_namespace: String,
}

/// Builds the timeline of one bundle. Never fails: what cannot be placed in time is left out.
pub fn build(bundle: &Bundle) -> Timeline {
    let mut raw = Vec::new();

    cluster::extract(bundle, &mut raw);
    history::extract(bundle, &mut raw);
    // The Events and the CVO logs are read side by side (the logs' scan is mostly one
    // thread's), their events kept in this order.
    let (mut from_events, mut from_logs) = (Vec::new(), Vec::new());
    let ((), scan) = rayon::join(
        || events::extract(bundle, &mut from_events),
        || cvo_log::extract(bundle, &mut from_logs),
    );
    let mut from_ci = Vec::new();
    ci::extract(bundle, &mut from_ci);
    // One vector of the events in this order, as long as they are: the CVO logs' events of
    // a steady year are megabytes, and appending to a vector that doubles left up to twice
    // that, beside the emptied vectors' own memory, held until the timeline was built.
    let events = merge::merge(merge::concat(vec![raw, from_events, from_logs, from_ci]));
    let history = cluster::merged_history(bundle);
    let inp = episodes::Inputs {
        events: &events,
        passes: &scan.passes,
        instances: &scan.instances,
        history: &history,
        bundle,
    };
    let bound = episodes::install_bound(&inp);
    let mut eps = Vec::new();
    episodes::install(&inp, bound, &mut eps);
    episodes::updates(&inp, &mut eps);
    episodes::cancels_and_rollbacks(&inp, &mut eps);
    episodes_cvo::stalls(&inp, &mut eps);
    episodes_cvo::restarts(&inp, &mut eps);
    episodes_cvo::unmanaged(&inp, &mut eps);
    eps.sort_by(|a, b| {
        (a.start, a.tag(), a.end, &a.summary).cmp(&(b.start, b.tag(), b.end, &b.summary))
    });

    let mut timeline = Timeline {
        events,
        episodes: eps,
        passes: scan.passes,
        instances: scan.instances,
        loads: scan.loads,
        history_merges: scan.merges,
        history,
        reference: bundle.reference_time(),
        unread: crate::bundle::unread_files(bundle),
        cluster: bundle.identity(),
        monitor: ci::monitor_spans(bundle),
        cvo_namespace: bundle.cvo_namespace(),
    };
    // Secrets are masked where they enter the timeline, so no view can unmask them.
    timeline.mask_secrets();
    timeline
}

impl Timeline {
    /// Episodes of one kind, by start time.
    pub fn episodes_of(&self, tag: EpisodeTag) -> impl Iterator<Item = &Episode> {
        self.episodes.iter().filter(move |e| e.tag() == tag)
    }

    /// Events about one subject.
    pub fn events_for<'a>(
        &'a self,
        subject: &Subject,
    ) -> impl Iterator<Item = &'a TimelineEvent> + use<'a> {
        let subject = subject.clone();
        self.events.iter().filter(move |e| e.subject == subject)
    }

    /// Events within `[since, until]` (either end open).
    pub fn events_between(
        &self,
        since: Option<Time>,
        until: Option<Time>,
    ) -> impl Iterator<Item = &TimelineEvent> {
        self.events
            .iter()
            .filter(move |e| since.is_none_or(|s| e.time >= s) && until.is_none_or(|u| e.time <= u))
    }

    /// The first event of a kind (by variant name, e.g. `"pass-start"`).
    pub fn first_of(&self, kind: &str) -> Option<&TimelineEvent> {
        self.events.iter().find(|e| e.kind.name() == kind)
    }

    /// CVO sync passes, by start time.
    pub fn passes(&self) -> &[Pass] {
        &self.passes
    }

    /// CVO container instances, by start time.
    pub fn cvo_instances(&self) -> &[Instance] {
        &self.instances
    }

    /// `status.history` merged across snapshots, oldest first.
    pub fn history(&self) -> &[HistoryRecord] {
        &self.history
    }

    /// The install episode, if any.
    pub fn install(&self) -> Option<&Episode> {
        self.episodes_of(EpisodeTag::Install).next()
    }

    /// The evidence bound on when the install really finished, with what history claims
    /// (see [`Bound::contradicts_claim`]).
    pub fn install_finished_before(&self) -> Option<&Bound> {
        self.install().and_then(|e| e.finished_before.as_ref())
    }

    /// Whether a pass target (version or image, as the log prints it) names the release
    /// `label` (a version or image, as history names it).
    pub fn names_release(&self, target: &str, label: &str) -> bool {
        target == label
            || self
                .history
                .iter()
                .any(|h| h.label() == label && same_release(target, &h.version, &h.image))
    }

    /// The release whose manifests were last being applied at `at` (from the passes), named
    /// as history names it.
    pub fn running_release_at(&self, at: Time) -> Option<String> {
        episodes::running_release_at(&self.passes, at)
            .map(|p| episodes::relabel(&p.target, &self.history))
    }

    /// Passes for `release` that applied at least one manifest inside `[from, to]`.
    pub fn manifests_applied<'a>(
        &'a self,
        release: &'a str,
        from: Time,
        to: Time,
    ) -> impl Iterator<Item = &'a Pass> {
        self.passes.iter().filter(move |p| {
            self.names_release(&p.target, release)
                && p.first_manifest.is_some_and(|f| f <= to)
                && p.last_manifest.is_some_and(|l| l >= from)
        })
    }

    /// Spans in which the running release was not being reconciled: stalls and spans with no
    /// leading CVO, by start time.
    pub fn unmanaged_spans(&self) -> Vec<Span> {
        self.episodes
            .iter()
            .filter(|e| matches!(e.tag(), EpisodeTag::Stall | EpisodeTag::Unmanaged))
            .map(|e| Span {
                start: e.start,
                end: e.end,
                reason: e.summary.clone(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
