//! `status.history`: merging the worker's release into `history[0]` or pushing a new entry
//! (with and without the Bug 1756461 fix), the sticky `verified` flag, acceptedRisks and the
//! three pruning variants (cvo-reference §4).

use super::semantics::{PruneVariant, Semantics};
use crate::model::{ClusterVersionStatus, HistoryEntry, Release, Time};

/// Merges `desired` into `current` when they name the same release, filling a missing version
/// or image; `false` means a new entry is needed (cvo-reference §4.1).
pub fn merge_equal_versions(current: &mut HistoryEntry, desired: &Release) -> bool {
    if !desired.image.is_empty() && desired.image == current.image {
        if desired.version.is_empty() {
            return true;
        }
        if current.version.is_empty() || desired.version == current.version {
            current.version = desired.version.clone();
            return true;
        }
    }
    if !desired.version.is_empty()
        && desired.version == current.version
        && (current.image.is_empty() || desired.image == current.image)
    {
        current.image = desired.image.clone();
        return true;
    }
    false
}

/// The inputs of one history merge besides the release itself.
#[derive(Debug, Clone, Copy)]
pub struct MergeInput<'a> {
    pub verified: bool,
    pub now: Time,
    /// The worker reports at least one fully successful pass for this release.
    pub completed: bool,
    /// acceptedRisks text (`None` where the CVO does not populate the field).
    pub accepted_risks: Option<&'a str>,
    /// The payload is the CVO's own image (acceptedRisks then left alone on merge).
    pub local: bool,
}

/// What pruning removed, for the trace (the CVO logs it at V(2)).
#[derive(Debug, Clone, PartialEq)]
pub struct Pruned {
    pub index: usize,
    pub version: String,
    pub reason: String,
    pub rank: Option<f64>,
}

impl Pruned {
    pub fn describe(&self) -> String {
        match self.rank {
            Some(rank) => format!(
                "Pruning {} version {} at index {} with rank {rank:.6}.",
                self.reason, self.version, self.index
            ),
            None => format!(
                "Pruning {} version {} at index {}.",
                self.reason, self.version, self.index
            ),
        }
    }
}

/// `mergeOperatorHistory` (cvo-reference §4.2): merge or push, mark verified, prune, and set
/// `status.desired`. Does nothing (not even desired) when the release has no image.
pub fn merge_operator_history(
    status: &mut ClusterVersionStatus,
    desired: &Release,
    input: MergeInput<'_>,
    sem: &Semantics,
) -> Option<Pruned> {
    if desired.image.is_empty() {
        return None;
    }
    let risks = input.accepted_risks.unwrap_or_default().to_string();
    let history = &mut status.history;
    if history.is_empty() {
        history.push(HistoryEntry {
            state: "Partial".into(),
            started_time: Some(input.now),
            version: desired.version.clone(),
            image: desired.image.clone(),
            accepted_risks: risks.clone(),
            ..Default::default()
        });
    }
    let last = &mut history[0];
    if last.state.is_empty() {
        last.state = "Partial".into();
    }
    if merge_equal_versions(last, desired) {
        if input.completed {
            last.state = "Completed".into();
            if last.completion_time.is_none() {
                last.completion_time = Some(input.now);
            }
        }
        if !input.local && input.accepted_risks.is_some() {
            last.accepted_risks = risks;
        }
    } else {
        if !sem.history_fix || last.completion_time.is_none() {
            last.completion_time = Some(input.now);
        }
        let (state, completion_time) = match input.completed {
            true => ("Completed", Some(input.now)),
            false => ("Partial", None),
        };
        history.insert(
            0,
            HistoryEntry {
                state: state.into(),
                started_time: Some(input.now),
                completion_time,
                version: desired.version.clone(),
                image: desired.image.clone(),
                verified: false,
                accepted_risks: risks,
            },
        );
    }
    if input.verified {
        history[0].verified = true;
    }
    let pruned = prune(history, sem.prune, sem.max_history);
    status.desired = desired.clone();
    pruned
}

/// Applies one pruning step of `variant` when history is longer than `max` (cvo-reference §4.5).
pub fn prune(history: &mut Vec<HistoryEntry>, variant: PruneVariant, max: usize) -> Option<Pruned> {
    if history.len() <= max || max == 0 {
        return None;
    }
    match variant {
        PruneVariant::KeepRecentCompleted50 => {
            let recent = history.iter().position(HistoryEntry::is_completed);
            let dropped = Pruned {
                index: max,
                version: history[max].version.clone(),
                reason: "the oldest entry".into(),
                rank: None,
            };
            if let Some(i) = recent.filter(|i| *i >= max) {
                history[max - 1] = history[i].clone();
            }
            history.truncate(max);
            Some(dropped)
        }
        PruneVariant::RetainInitial50 => {
            if history[max].is_completed() {
                let removed = history.remove(max - 1);
                history.truncate(max);
                Some(Pruned {
                    index: max - 1,
                    version: removed.version,
                    reason: "the entry before the initial completed entry".into(),
                    rank: None,
                })
            } else {
                let dropped = Pruned {
                    index: max,
                    version: history[max].version.clone(),
                    reason: "the oldest entry".into(),
                    rank: None,
                };
                history.truncate(max);
                Some(dropped)
            }
        }
        PruneVariant::Weighted100 => prune_weighted(history, max),
    }
}

fn minor_of(v: &str) -> &str {
    v.split('.').nth(1).unwrap_or("")
}

fn micro_of(v: &str) -> &str {
    v.split('.').nth(2).unwrap_or("")
}

fn older_completed(h: &[HistoryEntry], i: usize) -> Option<usize> {
    (i + 1..h.len()).find(|&j| h[j].is_completed())
}

fn newer_completed(h: &[HistoryEntry], i: usize) -> Option<usize> {
    (0..i).rev().find(|&j| h[j].is_completed())
}

/// The rank of entry `i` and the reason that would be logged if it were pruned.
fn weighted_rank(h: &[HistoryEntry], i: usize, max: usize) -> (f64, &'static str) {
    let most_recent_completed = h.iter().position(HistoryEntry::is_completed);
    let mut reason = "an older update of less importance";
    let mut rank = 0.0;
    let partial = !h[i].is_completed();
    let neighbours = || Some((older_completed(h, i)?, newer_completed(h, i)?));
    if i == max || i <= 4 || Some(i) == most_recent_completed {
        rank = 1000.0;
    } else if !partial
        && (i == 0
            || older_completed(h, i)
                .is_none_or(|j| minor_of(&h[j].version) != minor_of(&h[i].version))
            || newer_completed(h, i)
                .is_none_or(|j| minor_of(&h[j].version) != minor_of(&h[i].version)))
    {
        rank += 30.0;
        reason = "the first or last completed minor update";
    } else if partial
        && neighbours().is_some_and(|(o, n)| minor_of(&h[o].version) != minor_of(&h[n].version))
    {
        rank += 20.0;
        reason = "a partial update within a minor transition";
    } else if partial
        && neighbours().is_some_and(|(o, n)| {
            minor_of(&h[o].version) != minor_of(&h[n].version)
                || micro_of(&h[o].version) != micro_of(&h[n].version)
        })
    {
        rank -= 20.0;
        reason = "a partial update within a z-stream transition";
    }
    rank += -1.01 * i as f64;
    (rank, reason)
}

fn prune_weighted(history: &mut Vec<HistoryEntry>, max: usize) -> Option<Pruned> {
    let mut lowest: Option<(usize, f64, &'static str)> = None;
    for i in 0..history.len() {
        let (rank, reason) = weighted_rank(history, i, max);
        if lowest.is_none_or(|(_, r, _)| rank < r) {
            lowest = Some((i, rank, reason));
        }
    }
    let (idx, rank, reason) = lowest?;
    let pruned = Pruned {
        index: idx,
        version: history[idx].version.clone(),
        reason: reason.into(),
        rank: Some(rank),
    };
    if idx == max {
        history.truncate(max);
    } else {
        history.remove(idx);
    }
    Some(pruned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(spec: &[(&str, &str)]) -> Vec<HistoryEntry> {
        spec.iter()
            .map(|(s, v)| HistoryEntry {
                state: (*s).into(),
                version: (*v).into(),
                ..Default::default()
            })
            .collect()
    }

    #[test]
    fn keep_recent_completed_copies_it_into_the_last_slot() {
        let mut h = entries(&[
            ("Partial", "4.1.5"),
            ("Partial", "4.1.4"),
            ("Partial", "4.1.3"),
            ("Completed", "4.1.2"),
        ]);
        prune(&mut h, PruneVariant::KeepRecentCompleted50, 3);
        let v: Vec<&str> = h.iter().map(|e| e.version.as_str()).collect();
        assert_eq!(v, ["4.1.5", "4.1.4", "4.1.2"]);
    }

    #[test]
    fn retain_initial_drops_the_entry_before_the_install() {
        let mut h = entries(&[
            ("Completed", "4.9.3"),
            ("Completed", "4.9.2"),
            ("Partial", "4.9.1"),
            ("Completed", "4.8.0"),
        ]);
        prune(&mut h, PruneVariant::RetainInitial50, 3);
        let v: Vec<&str> = h.iter().map(|e| e.version.as_str()).collect();
        assert_eq!(v, ["4.9.3", "4.9.2", "4.8.0"]);
        let mut h = entries(&[
            ("Completed", "4.9.3"),
            ("Completed", "4.9.2"),
            ("Partial", "4.9.1"),
            ("Partial", "4.8.0"),
        ]);
        prune(&mut h, PruneVariant::RetainInitial50, 3);
        assert_eq!(h.last().map(|e| e.version.as_str()), Some("4.9.1"));
    }
}
