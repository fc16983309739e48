//! Episodes from history, events and passes: the install (with an evidence bound on when it
//! really finished), updates A→B with their milestones, and cancels and rollbacks A→B→A.
//! CVO-side episodes (stalls, restarts, unmanaged spans) are in `episodes_cvo`.

use super::merge::SAME_MOMENT;
use super::model::*;
use crate::model::{ReleaseName, Time};
use chrono::Duration;
// foldhash, not SipHash: the index puts every pass's start in a map (hashing it was most of
// building the index on a steady year), and its order never reaches the output.
use foldhash::{HashMap, HashMapExt};

/// Everything episodes are derived from.
pub struct Inputs<'a> {
    pub events: &'a [TimelineEvent],
    pub passes: &'a [Pass],
    pub instances: &'a [Instance],
    pub history: &'a [HistoryRecord],
    pub bundle: &'a crate::bundle::Bundle,
}

/// `12m`, `1h05m`, `40s`.
pub fn human_duration(d: Duration) -> String {
    let s = d.num_seconds().max(0);
    if s < 60 {
        format!("{s}s")
    } else if s < 3600 {
        let (m, r) = (s / 60, s % 60);
        if r == 0 {
            format!("{m}m")
        } else {
            format!("{m}m{r:02}s")
        }
    } else {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    }
}

fn t(x: &Time) -> String {
    fmt_short(x)
}

/// How long after the worker's `Sync succeeded` line the status sync may record completion.
const LOG_TO_STATUS: Duration = Duration::minutes(2);

/// The release whose manifests were last being applied at or before `at`: the target of
/// the latest pass started by then that touched manifests.
pub fn running_release_at(passes: &[Pass], at: Time) -> Option<&Pass> {
    passes
        .iter()
        .filter(|p| p.start <= at && p.touched_manifests())
        .max_by_key(|p| p.start)
}

/// What was being reconciled over `[start, end)`: the target of any pass in the span that
/// touched manifests (the latest), else what was applied before the span; `None` when no
/// pass covers the span at all.
pub fn reconciled_during(passes: &[Pass], start: Time, end: Option<Time>) -> Option<String> {
    // A pass logged just before the (second-granular) history time belongs to the span; one
    // started at its very end belongs to what comes next.
    let within =
        |p: &&Pass| p.start >= start - SAME_MOMENT && end.is_none_or(|e| p.start < e - SAME_MOMENT);
    let in_span: Vec<&Pass> = passes.iter().filter(within).collect();
    if let Some(p) = in_span
        .iter()
        .filter(|p| p.touched_manifests())
        .max_by_key(|p| p.start)
    {
        return Some(p.target.clone());
    }
    if in_span.is_empty() {
        return None;
    }
    running_release_at(passes, start).map(|p| p.target.clone())
}

/// Whether one CVO log instance ran from `from` (give or take the API's second) to `to`.
fn log_covers(inp: &Inputs<'_>, from: Time, to: Time) -> bool {
    inp.instances
        .iter()
        .any(|i| i.start <= from + SAME_MOMENT && i.end >= to)
}

/// Events of one kind (by predicate) inside `[from, to]`, in order. The events are sorted by
/// time: the window is found by binary search, so a long history costs the window, not
/// every event, per episode.
fn find(
    events: &[TimelineEvent],
    from: Time,
    to: Option<Time>,
    pred: impl Fn(&TimelineEvent) -> bool,
) -> impl Iterator<Item = &TimelineEvent> {
    let first = events.partition_point(|e| e.time < from);
    events[first..]
        .iter()
        .take_while(move |e| to.is_none_or(|to| e.time <= to))
        .filter(move |e| pred(e))
}

/// What an update episode looks up in the events, keyed by the release an event names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    /// Events that mention a release by image, by version, or as a pass target.
    MentionImage,
    MentionVersion,
    MentionTarget,
    /// `PayloadLoaded` by image, or by version when it has no image.
    LoadedImage,
    LoadedVersion,
    /// `HistoryCompleted` by image, or by version when it has no image.
    CompletedImage,
    CompletedVersion,
}

/// The events update episodes look for, indexed once per timeline by the release they name
/// and by kind. Every lookup is an exact match, as the predicates it replaces were, so an
/// episode costs its own matches: a long history whose entries share their times used to
/// scan every event of that moment once per entry (quadratic).
struct Index<'e> {
    events: &'e [TimelineEvent],
    by: HashMap<Key, HashMap<&'e str, Vec<usize>>>,
    sync_succeeded: Vec<usize>,
    upgrade_started: Vec<usize>,
    upgrade_complete: Vec<usize>,
}

impl<'e> Index<'e> {
    fn new(events: &'e [TimelineEvent]) -> Self {
        let mut ix = Index {
            events,
            by: HashMap::new(),
            sync_succeeded: Vec::new(),
            upgrade_started: Vec::new(),
            upgrade_complete: Vec::new(),
        };
        for (i, e) in events.iter().enumerate() {
            let mut put = |k: Key, s: &'e str, skip_empty: bool| {
                if !skip_empty || !s.is_empty() {
                    ix.by.entry(k).or_default().entry(s).or_default().push(i);
                }
            };
            match &e.kind {
                EventKind::DesiredUpdateSeen { version, image, .. }
                    if e.source != EventSource::ClusterVersion =>
                {
                    put(Key::MentionImage, image, true);
                    put(Key::MentionVersion, version, true);
                }
                EventKind::PassStart { target, .. }
                | EventKind::SyncPayload { target, .. }
                | EventKind::PayloadLoading { target } => put(Key::MentionTarget, target, true),
                EventKind::HistoryPush { version, image }
                | EventKind::PayloadRetrieve { version, image }
                | EventKind::PayloadVerify { version, image }
                | EventKind::UpgradeStarted { version, image } => {
                    put(Key::MentionImage, image, true);
                    put(Key::MentionVersion, version, true);
                }
                EventKind::PayloadLoaded { version, image } if image.is_empty() => {
                    put(Key::LoadedVersion, version, false)
                }
                EventKind::PayloadLoaded { image, .. } => put(Key::LoadedImage, image, true),
                EventKind::HistoryCompleted { version, image } if image.is_empty() => {
                    put(Key::CompletedVersion, version, false)
                }
                EventKind::HistoryCompleted { image, .. } => put(Key::CompletedImage, image, true),
                _ => {}
            }
            match &e.kind {
                EventKind::SyncSucceeded { .. } => ix.sync_succeeded.push(i),
                EventKind::UpgradeStarted { .. } => ix.upgrade_started.push(i),
                EventKind::UpgradeComplete { .. } => ix.upgrade_complete.push(i),
                _ => {}
            }
        }
        ix
    }

    fn list(&self, k: Key, s: &str) -> &[usize] {
        self.by
            .get(&k)
            .and_then(|m| m.get(s))
            .map_or(&[], Vec::as_slice)
    }

    /// The events of `lists` inside `[from, to]`, in order, each once.
    fn within(&self, lists: &[&[usize]], from: Time, to: Option<Time>) -> Vec<&'e TimelineEvent> {
        let mut idx: Vec<usize> = Vec::new();
        for l in lists {
            let first = l.partition_point(|i| self.events[*i].time < from);
            idx.extend(
                l[first..]
                    .iter()
                    .take_while(|i| to.is_none_or(|to| self.events[**i].time <= to)),
            );
        }
        idx.sort_unstable();
        idx.dedup();
        idx.into_iter().map(|i| &self.events[i]).collect()
    }
}

fn milestone(kind: MilestoneKind, time: Time, evidence: Vec<Evidence>) -> Milestone {
    Milestone {
        kind,
        time,
        evidence,
    }
}

/// The evidence bound on the end of the install: the earliest moment something shows the
/// cluster was already installed (the e2e suite running, the CI upgrade starting, Available
/// `Done applying <install>`), with what history claims.
pub fn install_bound(inp: &Inputs<'_>) -> Option<Bound> {
    let install = inp.history.first()?;
    let mut hits: Vec<(Time, Evidence)> = Vec::new();
    for e in inp.events {
        let hit = match &e.kind {
            EventKind::E2eOutputStart | EventKind::E2eWaitingForNodes { .. } => true,
            EventKind::UpgradeStarted { .. } => true,
            // Available only turns True once an install or update has completed, so any
            // Available=True transition bounds the install's end.
            EventKind::ConditionTransition {
                condition, status, ..
            } => {
                e.source == EventSource::ClusterVersion
                    && condition == "Available"
                    && status == "True"
            }
            _ => false,
        };
        if hit && install.started.is_none_or(|s| e.time >= s) {
            for ev in &e.evidence {
                hits.push((e.time, ev.clone()));
            }
        }
    }
    hits.sort();
    let before = hits.first()?.0;
    Some(Bound {
        before,
        claimed: install.completion.filter(|_| install.state == "Completed"),
        evidence: hits.into_iter().map(|h| h.1).collect(),
    })
}

/// The install episode.
pub fn install(inp: &Inputs<'_>, bound: Option<Bound>, out: &mut Vec<Episode>) {
    let init_passes: Vec<&Pass> = inp
        .passes
        .iter()
        .filter(|p| p.state == "Initializing")
        .collect();
    let hist = inp.history.first().filter(|_| inp.history.len() < 50);
    let log_done = inp.events.iter().find(|e| {
        matches!(&e.kind, EventKind::SyncSucceeded { from_state } if from_state == "Initializing")
    });
    let (version, start, mut evidence) = match (hist, init_passes.first()) {
        (Some(h), _) if h.started.is_some() => {
            (h.label().to_string(), h.started, h.evidence.clone())
        }
        (_, Some(p)) => (p.target.clone(), Some(p.start), p.evidence.clone()),
        _ => return,
    };
    let Some(start) = start else { return };
    let mut milestones = vec![milestone(MilestoneKind::Requested, start, evidence.clone())];
    let claimed = hist.and_then(|h| h.completion.filter(|_| h.state == "Completed"));
    let hist_ev = hist.map(|h| h.evidence.clone()).unwrap_or_default();
    let contradicted = bound.as_ref().is_some_and(|b| b.contradicts_claim());
    let mut summary = format!("install of {version} started {}", t(&start));
    let mut head = None;
    // History's completionTime is written by the status sync that follows the worker's
    // `Sync succeeded` line (seconds later); it is the completion unless evidence contradicts it.
    let end_at = match (claimed, log_done) {
        (Some(c), _) if !contradicted => {
            let mut ev = hist_ev.clone();
            if let Some(d) = log_done.filter(|d| (c - d.time).abs() <= LOG_TO_STATUS) {
                ev.extend(d.evidence.iter().cloned());
            }
            Some((c, ev))
        }
        (_, Some(d)) if bound.as_ref().is_none_or(|b| d.time <= b.before) => {
            Some((d.time, d.evidence.clone()))
        }
        _ => None,
    };
    let mut end = None;
    if let Some((at, ev)) = end_at {
        end = Some(at);
        milestones.push(milestone(MilestoneKind::Completed, at, ev));
        summary.push_str(&format!(
            ", completed {} (took {})",
            t(&at),
            human_duration(at - start)
        ));
    }
    if let Some(c) = claimed.filter(|_| contradicted) {
        milestones.push(milestone(
            MilestoneKind::ClaimedCompleted,
            c,
            hist_ev.clone(),
        ));
    }
    if let Some(b) = &bound {
        milestones.push(milestone(
            MilestoneKind::FinishedBefore,
            b.before,
            b.evidence.clone(),
        ));
        if contradicted {
            if end.is_none_or(|e| e > b.before) {
                end = Some(b.before);
            }
            let first = b
                .evidence
                .first()
                .map_or(String::new(), |e| format!(" (`{}` at {})", e.text, e.prov));
            head.get_or_insert(summary.len());
            summary.push_str(&format!(
                "; history claims completion at {} but it had finished before {}{first}",
                b.claimed.map_or("?".into(), |c| t(&c)),
                t(&b.before)
            ));
        }
    }
    if end.is_none() {
        summary.push_str(", not completed in the data");
    }
    milestones.sort_by_key(|m| (m.time, m.kind));
    evidence.dedup();
    out.push(Episode {
        kind: EpisodeKind::Install {
            version: version.clone(),
        },
        start,
        end,
        running_release: Some(version),
        target_release: None,
        headline_len: head,
        summary,
        milestones,
        finished_before: bound,
        evidence,
    });
}

/// One episode per history entry over its predecessor.
pub fn updates(inp: &Inputs<'_>, out: &mut Vec<Episode>) {
    let ix = Index::new(inp.events);
    for w in inp.history.windows(2) {
        let (prev, cur) = (&w[0], &w[1]);
        let Some(start) = cur.started else { continue };
        out.push(update_episode(inp, &ix, prev, cur, start));
    }
    if inp.history.len() < 2 {
        ci_only_updates(inp, out);
    }
}

fn update_episode(
    inp: &Inputs<'_>,
    ix: &Index<'_>,
    prev: &HistoryRecord,
    cur: &HistoryRecord,
    start: Time,
) -> Episode {
    let (v, img) = (cur.version.as_str(), cur.image.as_str());
    let end = cur.completion;
    let lookback = prev.started.map_or(start - Duration::hours(1), |p| {
        p.max(start - Duration::hours(1))
    });
    let mut ms = vec![milestone(
        MilestoneKind::Requested,
        start,
        cur.evidence.clone(),
    )];
    let mentions = [
        ix.list(Key::MentionImage, img),
        ix.list(Key::MentionVersion, v),
        ix.list(Key::MentionTarget, v),
        ix.list(Key::MentionTarget, img),
    ];
    if let Some(e) = ix
        .within(&mentions, lookback, Some(start + Duration::minutes(5)))
        .first()
        && e.time < start
    {
        ms.push(milestone(
            MilestoneKind::FirstSeen,
            e.time,
            e.evidence.clone(),
        ));
    }
    // Log-derived milestones count only when a CVO log already ran at the request; a pod
    // that started mid-update reloads and reapplies, which says nothing about the first time.
    let covered_from_start = |to: Time| log_covers(inp, start, to);
    let loaded = [
        ix.list(Key::LoadedImage, img),
        ix.list(Key::LoadedVersion, v),
    ];
    let accepted = ix
        .within(&loaded, lookback, end)
        .into_iter()
        .find(|e| e.source != EventSource::CvoLog || covered_from_start(e.time));
    if let Some(e) = accepted {
        ms.push(milestone(
            MilestoneKind::Accepted,
            e.time,
            e.evidence.clone(),
        ));
    }
    let first_manifest = inp
        .passes
        .iter()
        .filter(|p| p.targets(v, img) && p.start >= lookback && end.is_none_or(|e| p.start <= e))
        .filter_map(|p| p.first_manifest.map(|t| (t, p)))
        .filter(|(t, _)| covered_from_start(*t))
        .min_by_key(|(t, _)| *t);
    if let Some((t0, p)) = first_manifest {
        ms.push(milestone(
            MilestoneKind::FirstManifest,
            t0,
            p.evidence.iter().take(1).cloned().collect(),
        ));
    }
    if let Some(e) = ix
        .within(
            &[&ix.upgrade_started],
            start - Duration::minutes(30),
            Some(start + Duration::minutes(10)),
        )
        .first()
    {
        ms.push(milestone(
            MilestoneKind::CiStarted,
            e.time,
            e.evidence.clone(),
        ));
    }
    let ci_to = end.map(|e| e + Duration::minutes(30));
    if let Some(e) = ix.within(&[&ix.upgrade_complete], start, ci_to).first() {
        ms.push(milestone(
            MilestoneKind::CiCompleted,
            e.time,
            e.evidence.clone(),
        ));
    }
    let mut head = None;
    let mut summary = format!(
        "update from {} to {} requested {}",
        prev.label(),
        cur.label(),
        t(&start)
    );
    match (cur.state.as_str(), end) {
        ("Completed", Some(e)) => {
            let mut ev = cur.evidence.clone();
            // What else says this release completed then: the sync success and this entry's
            // completion (not every entry that completed in the same seconds, which would make
            // a long history with shared times quadratic).
            let about = [
                ix.sync_succeeded.as_slice(),
                ix.list(Key::CompletedImage, img),
                ix.list(Key::CompletedVersion, v),
            ];
            let window = Duration::seconds(5);
            for x in ix
                .within(&about, e - window, Some(e + window))
                .into_iter()
                .take(8)
            {
                ev.extend(x.evidence.iter().cloned());
            }
            ev.dedup();
            ms.push(milestone(MilestoneKind::Completed, e, ev));
            summary.push_str(&format!(
                ", completed {} after {}",
                t(&e),
                human_duration(e - start)
            ));
        }
        (_, Some(e)) => {
            ms.push(milestone(MilestoneKind::Abandoned, e, cur.evidence.clone()));
            summary.push_str(&format!(
                ", abandoned {} after {}",
                t(&e),
                human_duration(e - start)
            ));
        }
        (_, None) => summary.push_str(", still in progress at the end of the data"),
    }
    let late_logs = inp
        .instances
        .first()
        .filter(|i| i.start > start + SAME_MOMENT && end.is_none_or(|e| i.start < e));
    if let Some(i) = late_logs {
        head.get_or_insert(summary.len());
        summary.push_str(&format!(
            "; the CVO log starts only at {}, after the update began",
            t(&i.start)
        ));
    } else if accepted.is_none()
        && first_manifest.is_none()
        && inp.passes.iter().any(|p| p.targets(v, img))
    {
        head.get_or_insert(summary.len());
        summary.push_str("; the CVO log never shows the target accepted or applied");
    }
    let running = reconciled_during(inp.passes, start, end).map(|r| relabel(&r, inp.history));
    if let Some(r) = &running
        && r != cur.label()
    {
        head.get_or_insert(summary.len());
        summary.push_str(&format!("; {r} was what the CVO actually reconciled"));
    }
    ms.sort_by_key(|m| (m.time, m.kind));
    Episode {
        kind: EpisodeKind::Update {
            from: prev.label().to_string(),
            to: cur.label().to_string(),
        },
        start,
        end,
        running_release: running,
        target_release: Some(cur.label().to_string()),
        headline_len: head,
        summary,
        milestones: ms,
        finished_before: None,
        evidence: cur.evidence.clone(),
    }
}

/// A pass target as a history label (the log names by-image targets by their image).
pub fn relabel(target: &str, history: &[HistoryRecord]) -> String {
    history
        .iter()
        .rev()
        .find(|h| same_release(target, &h.version, &h.image))
        .map_or_else(|| target.to_string(), |h| h.label().to_string())
}

/// Updates seen only in CI events (no history to anchor them).
fn ci_only_updates(inp: &Inputs<'_>, out: &mut Vec<Episode>) {
    let starts: Vec<&TimelineEvent> = inp
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::UpgradeStarted { .. }))
        .collect();
    for (i, s) in starts.iter().enumerate() {
        let EventKind::UpgradeStarted { version, image } = &s.kind else {
            continue;
        };
        let to = ReleaseName::new(version, image).label().to_string();
        let next_start = starts.get(i + 1).map(|n| n.time);
        let finish = find(inp.events, s.time, next_start, |e| {
            matches!(
                e.kind,
                EventKind::UpgradeComplete { .. } | EventKind::UpgradeFailed { .. }
            )
        })
        .next();
        let mut ms = vec![milestone(
            MilestoneKind::CiStarted,
            s.time,
            s.evidence.clone(),
        )];
        let mut summary = format!("update to {to} started by CI {}", t(&s.time));
        if let Some(f) = finish {
            ms.push(milestone(
                MilestoneKind::CiCompleted,
                f.time,
                f.evidence.clone(),
            ));
            summary.push_str(&format!(", {} {}", f.kind.name(), t(&f.time)));
        }
        out.push(Episode {
            kind: EpisodeKind::Update {
                from: String::new(),
                to: to.clone(),
            },
            start: s.time,
            end: finish.map(|f| f.time),
            running_release: reconciled_during(inp.passes, s.time, finish.map(|f| f.time)),
            target_release: Some(to),
            headline_len: None,
            summary,
            milestones: ms,
            finished_before: None,
            evidence: s.evidence.clone(),
        });
    }
}

/// A→B→A triples in history: a rollback when B was accepted or applied (or CI says
/// rollback), a cancel otherwise.
pub fn cancels_and_rollbacks(inp: &Inputs<'_>, out: &mut Vec<Episode>) {
    for w in inp.history.windows(3) {
        let (a, b, c) = (&w[0], &w[1], &w[2]);
        if !c.same_release_as(a) || b.same_release_as(a) {
            continue;
        }
        let (Some(start), Some(back)) = (b.started, c.started) else {
            continue;
        };
        let end = c.completion.filter(|_| c.state == "Completed");
        let (bv, bi) = (b.version.as_str(), b.image.as_str());
        let applied = inp
            .passes
            .iter()
            .any(|p| p.targets(bv, bi) && p.touched_manifests());
        let loaded = find(inp.events, start - Duration::hours(1), Some(back), |e| {
            matches!(&e.kind, EventKind::PayloadLoaded { image, version } if ReleaseName::new(version, image).same_as(ReleaseName::new(bv, bi)))
        })
        .next()
        .is_some();
        let ci_rollback = find(inp.events, start, end, |e| {
            matches!(e.kind, EventKind::UpgradeRollback { .. })
        })
        .next();
        let rollback = applied || loaded || ci_rollback.is_some();
        let mut ms = vec![
            milestone(MilestoneKind::Requested, start, b.evidence.clone()),
            milestone(MilestoneKind::Abandoned, back, c.evidence.clone()),
        ];
        if let Some(e) = end {
            ms.push(milestone(MilestoneKind::Completed, e, c.evidence.clone()));
        }
        let checked = inp
            .passes
            .iter()
            .any(|p| p.start >= start && p.start <= back);
        let why = if rollback {
            format!("{} had been accepted or partly applied", b.label())
        } else if checked {
            format!("{} was never accepted nor applied", b.label())
        } else {
            format!(
                "no CVO log covers the attempt, so {} may have been partly applied",
                b.label()
            )
        };
        let mut summary = format!(
            "{} from {} to {}: requested {}, returned to {} at {}",
            if rollback { "rollback" } else { "cancel" },
            a.label(),
            b.label(),
            t(&start),
            c.label(),
            t(&back)
        );
        if let Some(e) = end {
            summary.push_str(&format!(", return completed {}", t(&e)));
        }
        let head = Some(summary.len());
        summary.push_str(&format!("; {why}"));
        let (from, to) = (a.label().to_string(), b.label().to_string());
        let mut evidence = b.evidence.clone();
        evidence.extend(c.evidence.iter().cloned());
        if let Some(r) = ci_rollback {
            evidence.extend(r.evidence.iter().cloned());
        }
        out.push(Episode {
            kind: if rollback {
                EpisodeKind::Rollback {
                    from,
                    to: to.clone(),
                }
            } else {
                EpisodeKind::Cancel {
                    from,
                    to: to.clone(),
                }
            },
            start,
            end,
            running_release: reconciled_during(inp.passes, start, Some(back))
                .map(|r| relabel(&r, inp.history)),
            target_release: Some(to),
            headline_len: head,
            summary,
            milestones: ms,
            finished_before: None,
            evidence,
        });
    }
}
