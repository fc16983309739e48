//! One stable, deterministic order for all events, and the merging of one fact read from two
//! places (two snapshots, a status condition and a monitor line, an Event and its log
//! mirror) into one event with several pieces of evidence.

use super::model::*;
use chrono::Duration;
// foldhash, not SipHash: these are lookups over every event (hashing was a sixth of a
// log-heavy timeline), and their order never reaches the output.
use foldhash::{HashMap, HashMapExt, HashSet};

/// Two readings of the same fact at most this far apart are one event (clock skew between
/// sources, and second-granular API timestamps against millisecond log times).
pub const SAME_MOMENT: Duration = Duration::seconds(2);

/// The total order: time, then source rank, then subject, then message, then provenance.
pub fn sort(events: &mut [TimelineEvent]) {
    events.sort_by(|a, b| {
        (a.time, a.source, &a.subject, &a.message, &a.evidence).cmp(&(
            b.time,
            b.source,
            &b.subject,
            &b.message,
            &b.evidence,
        ))
    });
}

/// Sorts and merges. The kept event is the first in order (the earliest, then the highest
/// ranked source); the others add their evidence and fill in a missing reason.
pub fn merge(mut events: Vec<TimelineEvent>) -> Vec<TimelineEvent> {
    sort(&mut events);
    let mut kept: Vec<TimelineEvent> = Vec::with_capacity(events.len());
    // The evidence of each kept event that absorbed others, as a set: a burst of readings
    // of one fact (hundreds of same-second log lines) merges in linear time.
    let mut seen: HashMap<usize, HashSet<Evidence>> = HashMap::new();
    let mut last: HashMap<(String, String), usize> = HashMap::new();
    for e in events {
        // Payload and precondition facts are about the ClusterVersion whether the log (subject
        // `cvo-pod/…`) or an Event on the ClusterVersion reports them.
        let subject = match e.kind {
            EventKind::PayloadRetrieve { .. }
            | EventKind::PayloadVerify { .. }
            | EventKind::PayloadLoaded { .. }
            | EventKind::PayloadRejected { .. }
            | EventKind::PreconditionFailed { .. }
            | EventKind::PreconditionWarning { .. }
            | EventKind::LeaderAcquired => "clusterversion/version".to_string(),
            _ => e.subject.clone(),
        };
        let key = (subject, e.kind.fact_key());
        if let Some(&i) = last.get(&key) {
            let k = &mut kept[i];
            if e.time - k.time <= SAME_MOMENT {
                let set = seen
                    .entry(i)
                    .or_insert_with(|| k.evidence.iter().cloned().collect());
                if !e.evidence.iter().all(|x| set.contains(x)) {
                    absorb(k, e, set);
                    continue;
                }
            }
            if e.time - k.time <= SAME_MOMENT {
                // The very same reading twice (the same file given twice): drop it.
                continue;
            }
        }
        last.insert(key, kept.len());
        kept.push(e);
    }
    kept
}

fn absorb(k: &mut TimelineEvent, e: TimelineEvent, seen: &mut HashSet<Evidence>) {
    for ev in e.evidence {
        if seen.insert(ev.clone()) {
            k.evidence.push(ev);
        }
    }
    if let (
        EventKind::ConditionTransition { reason: kr, .. },
        EventKind::ConditionTransition { reason: er, .. },
    ) = (&mut k.kind, &e.kind)
        && kr.is_empty()
        && !er.is_empty()
    {
        *kr = er.clone();
    }
    // Prefer the more informative wording of the same text (e.g. a monitor line that adds
    // the condition's message to what the other source only names).
    if e.message.len() > k.message.len() && e.message.starts_with(&k.message) {
        k.message = e.message;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Provenance, parse_rfc3339};

    fn ev(
        t: &str,
        source: EventSource,
        path: &str,
        line: u32,
        kind: EventKind,
        msg: &str,
    ) -> TimelineEvent {
        let prov = Provenance::detached("in", path).at_line(Some(line));
        TimelineEvent::new(
            parse_rfc3339(t).unwrap(),
            source,
            "clusterversion/version",
            kind,
            msg,
            Evidence::new(prov, msg),
        )
    }

    fn cond(status: &str, reason: &str) -> EventKind {
        EventKind::ConditionTransition {
            condition: "Progressing".into(),
            status: status.into(),
            reason: reason.into(),
        }
    }

    #[test]
    fn condition_and_monitor_line_within_two_seconds_merge() {
        let a = ev(
            "2019-09-27T21:45:59Z",
            EventSource::ClusterVersion,
            "cv.yaml",
            10,
            cond("True", "x"),
            "`Progressing` → True",
        );
        let b = ev(
            "2019-09-27T21:45:59.753Z",
            EventSource::TestLog,
            "test.log",
            5,
            cond("True", ""),
            "`Progressing` → True: Working towards 4.3.0",
        );
        let merged = merge(vec![b, a]);
        assert_eq!(merged.len(), 1);
        assert_eq!(merged[0].source, EventSource::ClusterVersion);
        assert_eq!(merged[0].evidence.len(), 2);
        assert_eq!(merged[0].evidence[1].prov.file.path(), "test.log");
    }

    #[test]
    fn different_status_or_far_apart_stay_separate() {
        let a = ev(
            "2019-09-27T21:45:59Z",
            EventSource::ClusterVersion,
            "cv.yaml",
            10,
            cond("True", ""),
            "a",
        );
        let b = ev(
            "2019-09-27T21:46:02Z",
            EventSource::TestLog,
            "test.log",
            5,
            cond("True", ""),
            "b",
        );
        let c = ev(
            "2019-09-27T21:45:59Z",
            EventSource::TestLog,
            "test.log",
            6,
            cond("False", ""),
            "c",
        );
        assert_eq!(merge(vec![a, b, c]).len(), 3);
    }

    #[test]
    fn same_reading_twice_is_dropped_and_order_is_stable() {
        let a = ev(
            "2020-04-09T18:00:34Z",
            EventSource::ClusterVersion,
            "cv.yaml",
            10,
            cond("True", ""),
            "a",
        );
        let b = ev(
            "2020-04-09T18:00:33Z",
            EventSource::KubeEvent,
            "ev.yaml",
            3,
            EventKind::PreconditionsPassed,
            "p",
        );
        let once = merge(vec![a.clone(), b.clone(), a.clone()]);
        let again = merge(vec![a.clone(), a, b]);
        assert_eq!(once.len(), 2);
        assert_eq!(once[0].message, "p");
        let render = |v: &[TimelineEvent]| v.iter().map(|e| e.message.clone()).collect::<Vec<_>>();
        assert_eq!(render(&once), render(&again));
    }
}
