//! When what the sync worker reports reaches the ClusterVersion: the status-sync timing. A
//! pass that applied every manifest ends with `Result of work: []` and `Sync succeeded,
//! transitioning from S to Reconciling`; its last report (`consistentReporter.Complete`:
//! `Completed` + 1, `Reconciling`) only goes to the worker's status channel. The status that
//! records it (`history[0]` `Completed`, its `completionTime`, `Done applying`) is written by
//! the next `Operator.sync`, whose `syncStatus` takes `now` for the time. What runs that sync
//! (CVO `pkg/cvo/cvo.go`, `pkg/cvo/sync_worker.go`, `pkg/start/start.go`, the same from
//! release-4.1 to main):
//!
//! - `runThrottledStatusNotifier(statusInterval = 15 s, bucket 2)` turns worker reports into
//!   queued syncs, at most one per 15 s once the bucket is spent (only edges, a change of
//!   generation, image, `Reconciling` or failure, skip the wait, and an edge still queues
//!   behind the report the notifier is waiting on). So the completion is usually written
//!   within [`STATUS_INTERVAL`] of `Sync succeeded`: the must-gathers of healthy 4.8 clusters
//!   show `Sync succeeded` at 15:14:09.320 and the merge at 15:14:20.350, on the 15 s beat of
//!   the status syncs before it.
//! - The ClusterVersion informer's resync (`minResyncPeriod` 2 min, `resyncPeriod` ×[1, 2))
//!   queues a sync at least every [`RESYNC_MAX`], whatever the notifier does.
//! - The sync that wrote it logs `merge into existing history completed=true` (V(5) up to
//!   4.7, V(2) from 4.8): where the dump has that log line it dates the write exactly (a
//!   write that lost a conflict is retried by a later sync, so it is a lower bound).

use super::field::StatusField;
use crate::model::{Time, fmt_k8s};
use crate::timeline::{Evidence, Timeline, same_release};
use chrono::Duration;

/// How often the status notifier lets a worker report trigger a status sync.
pub const STATUS_INTERVAL: Duration = Duration::seconds(15);
/// The longest the ClusterVersion informer waits between resyncs (2 min × [1, 2)).
pub const RESYNC_MAX: Duration = Duration::minutes(4);
/// The API server stores whole seconds; a log line's fraction may cross one.
const ROUNDING: Duration = Duration::seconds(1);

/// When the status sync that recorded a completed pass ran, as far as the evidence shows.
#[derive(Debug, Clone, PartialEq)]
pub enum CompletionWrite {
    /// The CVO log shows that sync: its first `merge into existing history completed=true`
    /// for the release after the pass ended.
    Logged { at: Time, evidence: Evidence },
    /// No such line: some time after the pass ended, within [`RESYNC_MAX`].
    Unlogged,
}

/// How a completionTime written in history fits the pass that completed the release.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fit {
    /// It is the time of the status sync the log shows.
    Logged,
    /// Within [`STATUS_INTERVAL`] of the pass's end: the notifier's next status sync.
    NextSync,
    /// Within [`RESYNC_MAX`] of the pass's end (or of the logged sync): a later status sync.
    Resync,
    /// Before the pass ended, or later than any status sync would have recorded it.
    Outside,
}

impl Fit {
    /// How the written time relates to the pass, in a few words.
    pub fn describe(&self) -> &'static str {
        match self {
            Fit::Logged => "the time of that status sync",
            Fit::NextSync => {
                "within the 15 s the status notifier takes to run the next status sync"
            }
            Fit::Resync => "within the 4 minutes of the informer resync: a later status sync",
            Fit::Outside => "not what any status sync after that pass writes",
        }
    }

    /// Whether the written time is what a CVO writes for that pass.
    pub fn fits(&self) -> bool {
        *self != Fit::Outside
    }
}

/// How one Completed entry's completionTime relates to the CVO log pass that completed it.
#[derive(Debug, Clone, PartialEq)]
pub struct CompletionTiming {
    /// `history[i].completionTime`.
    pub field: StatusField,
    /// What the dump says.
    pub claimed: Time,
    /// When the pass ended (`Result of work: []`).
    pub pass_end: Time,
    pub write: CompletionWrite,
    pub fit: Fit,
    /// The pass's result line.
    pub evidence: Vec<Evidence>,
}

impl CompletionTiming {
    /// What the completion time rests on, in a few words.
    pub fn basis(&self) -> String {
        let end = fmt_k8s(&self.pass_end);
        match &self.write {
            CompletionWrite::Logged { at, .. } => format!(
                "the CVO log: the pass ended at {end} and the status sync at {} recorded it (`merge into existing history completed=true`)",
                fmt_k8s(at)
            ),
            CompletionWrite::Unlogged => format!(
                "the CVO log: the pass ended at {end}; the next status sync records it, within {}s (at most {} minutes, the informer resync)",
                STATUS_INTERVAL.num_seconds(),
                RESYNC_MAX.num_minutes()
            ),
        }
    }
}

/// The status sync that recorded the completion of `version`/`image` by a pass that ended at
/// `pass_end`: the first logged merge of that release with `completed=true` after it (within
/// [`RESYNC_MAX`]).
pub fn completion_write(
    tl: &Timeline,
    pass_end: Time,
    version: &str,
    image: &str,
) -> CompletionWrite {
    let hit = tl.history_merges.iter().find(|m| {
        m.merge.completed
            && m.time >= pass_end - ROUNDING
            && m.time <= pass_end + RESYNC_MAX
            && (same_release(&m.merge.image, version, image)
                || same_release(&m.merge.version, version, image))
    });
    match hit {
        Some(m) => CompletionWrite::Logged {
            at: m.time,
            evidence: m.evidence.clone(),
        },
        None => CompletionWrite::Unlogged,
    }
}

/// How `claimed` (a completionTime, whole seconds) fits a pass that ended at `pass_end` and
/// the status sync that recorded it.
pub fn fit(claimed: Time, pass_end: Time, write: &CompletionWrite) -> Fit {
    let after = |t: Time, within: Duration| claimed >= t - ROUNDING && claimed <= t + within;
    match write {
        CompletionWrite::Logged { at, .. } if after(*at, ROUNDING) => Fit::Logged,
        CompletionWrite::Logged { at, .. } if after(*at, RESYNC_MAX) => Fit::Resync,
        CompletionWrite::Logged { .. } => Fit::Outside,
        CompletionWrite::Unlogged if after(pass_end, STATUS_INTERVAL + ROUNDING) => Fit::NextSync,
        CompletionWrite::Unlogged if after(pass_end, RESYNC_MAX) => Fit::Resync,
        CompletionWrite::Unlogged => Fit::Outside,
    }
}

/// When the model records a completion it has to place itself: at the logged status sync,
/// else at the pass's end (the next sync follows within [`STATUS_INTERVAL`]).
pub fn write_time(pass_end: Time, write: &CompletionWrite) -> Time {
    match write {
        CompletionWrite::Logged { at, .. } => *at,
        CompletionWrite::Unlogged => pass_end,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Provenance;
    use crate::model::parse_rfc3339;

    fn t(s: &str) -> Time {
        parse_rfc3339(s).unwrap()
    }

    #[test]
    fn the_next_status_sync_records_a_completion_seconds_after_sync_succeeded() {
        // The Azure 4.8.11 must-gather: `Sync succeeded` 15:14:09.320, merge 15:14:20.350.
        let end = t("2021-09-13T15:14:09.320Z");
        let logged = CompletionWrite::Logged {
            at: t("2021-09-13T15:14:20.350Z"),
            evidence: Evidence::new(Provenance::detached("test", "current.log"), "merge"),
        };
        assert_eq!(fit(t("2021-09-13T15:14:20Z"), end, &logged), Fit::Logged);
        assert_eq!(
            fit(t("2021-09-13T15:14:20Z"), end, &CompletionWrite::Unlogged),
            Fit::NextSync
        );
        // A later sync (a lost write) still fits; a time before the pass, or long after, does not.
        assert_eq!(fit(t("2021-09-13T15:16:00Z"), end, &logged), Fit::Resync);
        assert_eq!(fit(t("2021-09-13T15:14:05Z"), end, &logged), Fit::Outside);
        assert_eq!(
            fit(t("2021-09-13T15:20:00Z"), end, &CompletionWrite::Unlogged),
            Fit::Outside
        );
        assert_eq!(write_time(end, &logged), t("2021-09-13T15:14:20.350Z"));
        assert_eq!(write_time(end, &CompletionWrite::Unlogged), end);
    }
}
