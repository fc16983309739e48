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
///
/// A stable sort of the events' indices rather than of the events (`sort_in_place`): a
/// stable sort takes scratch space of up to half what it sorts, 8 MB of events on a steady
/// year's log at the moment its memory peaked.
pub fn sort(events: &mut [TimelineEvent]) {
    sort_in_place(events, |a, b| {
        (a.time, a.source, &a.subject, &a.message, &a.evidence).cmp(&(
            b.time,
            b.source,
            &b.subject,
            &b.message,
            &b.evidence,
        ))
    });
}

/// Sorts `v` as a stable `sort_by(cmp)` does, without its scratch copy of the elements (up
/// to half the slice): their indices (8 bytes each) are sorted, then the elements are moved
/// into that order where they lie, cycle by cycle. For the timeline's large vectors (its
/// events, a steady year's 16 k passes).
pub(super) fn sort_in_place<T>(v: &mut [T], cmp: impl Fn(&T, &T) -> std::cmp::Ordering) {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| cmp(&v[a], &v[b]));
    // Position `i` takes the element at `order[i]`; a position done is marked `usize::MAX`.
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != usize::MAX {
            let from = std::mem::replace(&mut order[at], usize::MAX);
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

/// Sorts and merges. The kept event is the first in order (the earliest, then the highest
/// ranked source); the others add their evidence and fill in a missing reason.
///
/// The events are merged where they lie (a kept event is moved down over the ones merged
/// away): a log-heavy timeline's events are megabytes, and a second vector of them was fresh
/// memory to fault in and fill on the one thread. Each fact's key is written into one
/// buffer, and only a new key is stored.
pub fn merge(mut events: Vec<TimelineEvent>) -> Vec<TimelineEvent> {
    sort(&mut events);
    // The evidence of each kept event that absorbed others, as a set: a burst of readings
    // of one fact (hundreds of same-second log lines) merges in linear time.
    let mut seen: HashMap<usize, HashSet<Evidence>> = HashMap::new();
    // The last kept event of each fact: its subject (its length first, so no subject runs
    // into the key after it) and fact key.
    let mut last: HashMap<String, usize> = HashMap::new();
    let mut key = String::new();
    let mut kept = 0;
    for i in 0..events.len() {
        key.clear();
        fact_of(&events[i], &mut key);
        let (before, rest) = events.split_at_mut(i);
        let e = &mut rest[0];
        match last.get_mut(key.as_str()) {
            Some(k) => {
                let same = &mut before[*k];
                if e.time - same.time <= SAME_MOMENT {
                    let set = seen
                        .entry(*k)
                        .or_insert_with(|| same.evidence.iter().cloned().collect());
                    // Merged into the kept reading, or dropped when it is the very same
                    // reading twice (the same file given twice).
                    if !e.evidence.iter().all(|x| set.contains(x)) {
                        absorb(same, e, set);
                    }
                    continue;
                }
                *k = kept;
            }
            None => {
                last.insert(key.clone(), kept);
            }
        }
        events.swap(kept, i);
        kept += 1;
    }
    events.truncate(kept);
    // The merged-away events' room is handed back (in place: nothing is copied).
    events.shrink_to_fit();
    events
}

/// The parts one after the other, in the largest part's vector: it grows to their length
/// (a large block is remapped, not copied) and the others are moved into it, so no second
/// vector of them all is held beside the parts (the CVO logs' events of a steady year are
/// megabytes), nor a large block freed, which would raise the C allocator's threshold for
/// mapping blocks of their own, and keep more of the heap from then on.
pub fn concat<T>(mut parts: Vec<Vec<T>>) -> Vec<T> {
    let Some(big) = (0..parts.len()).max_by_key(|&i| (parts[i].capacity(), std::cmp::Reverse(i)))
    else {
        return Vec::new();
    };
    let mut all = std::mem::take(&mut parts[big]);
    let (before, after) = parts.split_at_mut(big);
    let ahead: usize = before.iter().map(Vec::len).sum();
    let behind: usize = after.iter().map(Vec::len).sum();
    all.reserve_exact(ahead + behind);
    // Part by part (a drain says its length, so the tail is moved once a part, in place).
    let mut at = 0;
    for p in before {
        let n = p.len();
        all.splice(at..at, p.drain(..));
        at += n;
    }
    for p in after {
        all.append(p);
    }
    all
}

/// Writes what identifies `e`'s fact: the subject it is about and its kind's fact key.
fn fact_of(e: &TimelineEvent, key: &mut String) {
    use std::fmt::Write;
    // Payload and precondition facts are about the ClusterVersion whether the log (subject
    // `cvo-pod/…`) or an Event on the ClusterVersion reports them.
    let _ = match e.kind {
        EventKind::PayloadRetrieve { .. }
        | EventKind::PayloadVerify { .. }
        | EventKind::PayloadLoaded { .. }
        | EventKind::PayloadRejected { .. }
        | EventKind::PreconditionFailed { .. }
        | EventKind::PreconditionWarning { .. }
        | EventKind::LeaderAcquired => {
            let cv = Subject::cluster_version();
            write!(key, "{}:{cv}", cv.text_len())
        }
        _ => write!(key, "{}:{}", e.subject.text_len(), e.subject),
    };
    e.kind.write_fact_key(key);
}

fn absorb(k: &mut TimelineEvent, e: &mut TimelineEvent, seen: &mut HashSet<Evidence>) {
    for ev in std::mem::take(&mut e.evidence) {
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
        k.message = std::mem::take(&mut e.message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Provenance, parse_rfc3339};

    /// The parts come out one after the other in their order, whichever is the largest
    /// (the one the others are moved into), and empty parts change nothing.
    #[test]
    fn concat_keeps_the_parts_in_order_in_the_largest_ones_vector() {
        let numbered = |from: u32, n: u32, room: usize| {
            let mut v = Vec::with_capacity(room);
            v.extend(from..from + n);
            v
        };
        for big in 0..4 {
            let mut parts = Vec::new();
            let mut next = 0;
            for i in 0..4 {
                let n = [2, 0, 5, 3][i];
                parts.push(numbered(next, n, if i == big { 64 } else { n as usize }));
                next += n;
            }
            let ptr = parts[big].as_ptr();
            let all = concat(parts);
            assert_eq!(all, (0..next).collect::<Vec<_>>(), "largest part {big}");
            assert_eq!(all.as_ptr(), ptr, "moved into part {big}'s vector");
        }
        assert_eq!(concat::<u8>(Vec::new()), Vec::<u8>::new());
    }

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
            Subject::cluster_version(),
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

    /// The sort by indices leaves the order a stable sort of the events leaves, ties (events
    /// equal in every key, told apart by their kind) in the order given.
    /// The in-place sort orders as a stable `sort_by`: ties (a pass read from two dumps of one
    /// log) keep their order, whatever the length.
    #[test]
    fn the_in_place_sort_is_the_stable_sort() {
        let mut next = crate::vocab::testing::xorshift(0x2545_f491_4f6c_dd1d);
        for len in [0usize, 1, 2, 3, 7, 64, 1000, 5003] {
            // (key, original position): few distinct keys, so most have ties.
            let items: Vec<(u64, usize)> = (0..len).map(|i| (next(17), i)).collect();
            let mut stable = items.clone();
            stable.sort_by_key(|a| a.0);
            let mut ours = items;
            super::sort_in_place(&mut ours, |a, b| a.0.cmp(&b.0));
            assert_eq!(ours, stable, "length {len}");
        }
    }

    #[test]
    fn sorting_by_index_is_the_stable_sort() {
        let mut rnd = crate::vocab::testing::xorshift(0x2545_f491_4f6c_dd1d);
        let events: Vec<TimelineEvent> = (0..3000)
            .map(|i| {
                ev(
                    &format!("2019-09-27T21:45:{:02}Z", rnd(4)),
                    [EventSource::ClusterVersion, EventSource::TestLog][rnd(2) as usize],
                    ["a.yaml", "b.yaml"][rnd(2) as usize],
                    rnd(3) as u32,
                    cond(&format!("{i}"), ""),
                    ["x", "y"][rnd(2) as usize],
                )
            })
            .collect();
        let mut by_index = events.clone();
        sort(&mut by_index);
        let mut stable = events;
        stable.sort_by(|a, b| {
            (a.time, a.source, &a.subject, &a.message, &a.evidence).cmp(&(
                b.time,
                b.source,
                &b.subject,
                &b.message,
                &b.evidence,
            ))
        });
        let show = |v: &[TimelineEvent]| format!("{v:?}");
        assert_eq!(show(&by_index), show(&stable));
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

    /// Events merged away and dropped between kept ones: a later reading still finds the
    /// kept event of its fact where it was moved to, and nothing merged away is left.
    #[test]
    fn merged_and_dropped_events_leave_the_kept_ones_in_order() {
        let at = |t: &str, path: &str, line: u32, kind: EventKind, msg: &str| {
            ev(t, EventSource::TestLog, path, line, kind, msg)
        };
        let x = || cond("True", "");
        let y = || cond("False", "");
        let a = at("2020-04-09T18:00:00Z", "a.log", 1, x(), "x");
        let events = vec![
            a.clone(),
            // The same reading again: dropped.
            a.clone(),
            at("2020-04-09T18:00:00.5Z", "b.log", 1, y(), "y"),
            // The same fact from another file a second later: merged into the first.
            at("2020-04-09T18:00:01Z", "c.log", 7, x(), "x, with more"),
            // Far later: a new reading of the fact.
            at("2020-04-09T18:00:09Z", "d.log", 2, x(), "x again"),
            // Merged into that one, not the first.
            at("2020-04-09T18:00:10Z", "e.log", 3, x(), "x again"),
        ];
        let merged = merge(events);
        let files = |e: &TimelineEvent| {
            e.evidence
                .iter()
                .map(|v| v.prov.file.path().to_string())
                .collect::<Vec<_>>()
        };
        let got: Vec<(String, Vec<String>)> = merged
            .iter()
            .map(|e| (e.message.clone(), files(e)))
            .collect();
        let want = [
            ("x, with more", vec!["a.log", "c.log"]),
            ("y", vec!["b.log"]),
            ("x again", vec!["d.log", "e.log"]),
        ]
        .map(|(m, f)| (m.to_string(), f.into_iter().map(String::from).collect()));
        assert_eq!(got, want);
    }

    /// The pass kinds' keys are written field by field, not as their `Debug` text: two
    /// such kinds have the same key exactly when their `Debug` texts are the same, over
    /// field values that differ a little (an empty string, a digit moved from one string to
    /// the next, a quote, a missing number).
    #[test]
    fn pass_kinds_have_the_same_key_exactly_when_they_are_the_same_fact() {
        // `a` and `1:z` written one after the other without the first's length would read
        // as `a3:` and `z`.
        let texts = ["", "4.6.42", "4.6.4", "24.6.4", "\"q\"", "3:x", "a", "a3:"];
        let mut kinds = Vec::new();
        for t in texts {
            for s in ["", "Updating", "2", "3:x", "1:z", "z"] {
                for generation in [None, Some(-1), Some(12)] {
                    for force in [None, Some(false), Some(true)] {
                        for attempt in [0, 12] {
                            kinds.push(EventKind::PassStart {
                                target: t.into(),
                                generation,
                                state: s.into(),
                                attempt,
                                force,
                            });
                        }
                    }
                }
                for (index, total) in [(1, 23), (12, 3), (0, 0)] {
                    kinds.push(EventKind::FirstManifest {
                        target: t.into(),
                        manifest: s.into(),
                        index,
                        total,
                    });
                }
                for errors in [
                    vec![],
                    vec![s.to_string()],
                    vec![s.to_string(), t.to_string()],
                ] {
                    for ok in [false, true] {
                        kinds.push(EventKind::PassResult {
                            target: t.into(),
                            ok,
                            errors: errors.clone(),
                        });
                    }
                }
            }
        }
        let key = |k: &EventKind| {
            let mut s = String::new();
            k.write_fact_key(&mut s);
            s
        };
        let keys: Vec<String> = kinds.iter().map(key).collect();
        let texts: Vec<String> = kinds.iter().map(|k| format!("{k:?}")).collect();
        for i in 0..kinds.len() {
            for j in 0..kinds.len() {
                assert_eq!(
                    keys[i] == keys[j],
                    texts[i] == texts[j],
                    "{} / {}",
                    texts[i],
                    texts[j]
                );
            }
        }
        // Nor the key of another kind.
        let other = key(&EventKind::LeaderAcquired);
        assert!(keys.iter().all(|k| *k != other && k.starts_with('\0')));
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
