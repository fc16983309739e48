//! Events from a resourcewatch repository's history: each commit that changed a condition of
//! the ClusterVersion or a ClusterOperator (its status or reason) is a condition transition,
//! placed at the condition's `lastTransitionTime` when the snapshot gives one that is not
//! older than the previous snapshot, else at the observation (commit) time. A condition that
//! went True and back between two gathers, which the last snapshot cannot show, is in the
//! history. The same transition read from the working tree merges with it.

use super::cluster::{transition_kind, transition_message};
use super::model::*;
use crate::bundle::Bundle;
use crate::model::{Condition, Provenance, Snapshot, SnapshotKind};
use std::collections::BTreeMap;

/// Appends the history's condition transitions to `out`.
pub fn extract(bundle: &Bundle, out: &mut Vec<TimelineEvent>) {
    // The last conditions seen per object file, and when.
    let mut last: BTreeMap<(&str, &str), (&[Condition], crate::model::Time)> = BTreeMap::new();
    for s in &bundle.snapshots {
        let key = (s.input.as_str(), s.path.as_str());
        let before = last.get(&key).map(|(c, _)| *c).unwrap_or(&[]);
        let since = last.get(&key).map(|(_, t)| *t);
        if !s.removed {
            for c in &s.conditions {
                let old = before.iter().find(|b| b.type_ == c.type_);
                if old.is_some_and(|o| o.status == c.status && o.reason == c.reason) {
                    continue;
                }
                out.push(transition(s, c, since));
            }
        }
        last.insert(key, (&s.conditions, s.time));
    }
}

fn transition(s: &Snapshot, c: &Condition, since: Option<crate::model::Time>) -> TimelineEvent {
    let (source, subject) = match s.kind {
        SnapshotKind::ClusterVersion => (
            EventSource::ClusterVersion,
            Subject::ClusterVersion(s.name.as_str().into()),
        ),
        SnapshotKind::ClusterOperator => (
            EventSource::ClusterOperator,
            Subject::ClusterOperator(s.name.as_str().into()),
        ),
    };
    let time = c
        .last_transition_time
        .filter(|t| since.is_none_or(|p| *t >= p) && *t <= s.time)
        .unwrap_or(s.time);
    let prov = Provenance::detached(&s.input, &format!("{}@{}", s.path, s.commit));
    let text = format!(
        "{} {} {} (commit {}, {} at {})",
        c.type_,
        c.status,
        c.reason,
        s.commit,
        s.subject,
        fmt_short(&s.time)
    );
    TimelineEvent::new(
        time,
        source,
        subject,
        transition_kind(c),
        transition_message(c),
        Evidence::new(prov, &text),
    )
}
