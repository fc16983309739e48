//! The chart's lane model, built from the timeline and the report: one lane per thing that
//! changes over time (ClusterVersion history, episodes and conditions; the CVO's pods, sync
//! passes, preconditions and reconciliation; each ClusterOperator, pool and node; CI), each
//! with bars (spans) and marks (instants). ClusterVersion lanes are built here, the CVO's in
//! `lanes_cvo`, the others in `lanes_more` and `intervals`. Nothing here knows about pixels.

use super::intervals::{self, CiInterval};
use super::lanes_cvo;
use super::lanes_more;
use crate::model::Time;
use crate::rules::Report;
use crate::timeline::{
    EpisodeKind, EpisodeTag, EventKind, EventSource, Evidence, MilestoneKind, Timeline,
    TimelineEvent, fmt_short, human_duration,
};
use std::collections::BTreeMap;

/// A family of lanes, in display order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    Findings,
    ClusterVersion,
    Cvo,
    Operators,
    Machines,
    Ci,
}

impl Group {
    pub const ALL: [Group; 6] = [
        Group::Findings,
        Group::ClusterVersion,
        Group::Cvo,
        Group::Operators,
        Group::Machines,
        Group::Ci,
    ];
    /// The `data-group` value.
    pub fn key(self) -> &'static str {
        match self {
            Group::Findings => "findings",
            Group::ClusterVersion => "cv",
            Group::Cvo => "cvo",
            Group::Operators => "co",
            Group::Machines => "mc",
            Group::Ci => "ci",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Group::Findings => "Findings",
            Group::ClusterVersion => "ClusterVersion",
            Group::Cvo => "Cluster Version Operator",
            Group::Operators => "ClusterOperators",
            Group::Machines => "MachineConfigPools and nodes",
            Group::Ci => "CI",
        }
    }
}

/// How an instant is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Glyph {
    Diamond,
    Cross,
    Tick,
    Dot,
}

/// A span on a lane.
#[derive(Debug, Clone)]
pub struct Bar {
    pub start: Time,
    pub end: Time,
    /// Still going at the end of the data.
    pub open: bool,
    /// CSS class (colour and pattern).
    pub class: &'static str,
    pub track: usize,
    pub label: String,
    /// Hover text (plain; escaped when written).
    pub tip: String,
    /// Extra `data-*` attributes.
    pub data: Vec<(&'static str, String)>,
}

/// An instant on a lane.
#[derive(Debug, Clone)]
pub struct Mark {
    pub time: Time,
    pub class: &'static str,
    pub glyph: Glyph,
    pub tip: String,
    /// An in-page link (`#f-3`).
    pub link: Option<String>,
    pub data: Vec<(&'static str, String)>,
    /// A short text written under the mark (on the lane's second track), left of it when
    /// `note_left`.
    pub note: String,
    pub note_left: bool,
}

impl Mark {
    pub fn new(time: Time, class: &'static str, glyph: Glyph, tip: String) -> Mark {
        Mark {
            time,
            class,
            glyph,
            tip,
            link: None,
            data: Vec::new(),
            note: String::new(),
            note_left: false,
        }
    }
    pub fn what(mut self, what: impl Into<String>) -> Mark {
        self.data.push(("what", what.into()));
        self
    }
}

/// One row of the chart.
#[derive(Debug, Clone)]
pub struct Lane {
    pub group: Group,
    /// Stable identifier (`co/authentication`), the `data-lane` value.
    pub key: String,
    pub label: String,
    pub tracks: usize,
    /// Height of one track, in pixels (bars with labels need 14).
    pub track_h: f64,
    pub bars: Vec<Bar>,
    pub marks: Vec<Mark>,
}

impl Lane {
    pub fn new(group: Group, key: impl Into<String>, label: impl Into<String>) -> Lane {
        Lane {
            group,
            key: key.into(),
            label: label.into(),
            tracks: 1,
            track_h: 14.0,
            bars: Vec::new(),
            marks: Vec::new(),
        }
    }
    /// Nothing happens on it: folded away.
    pub fn is_quiet(&self) -> bool {
        self.bars.is_empty() && self.marks.is_empty()
    }
}

/// Everything the chart draws.
#[derive(Debug, Clone)]
pub struct Chart {
    pub lanes: Vec<Lane>,
    pub start: Time,
    pub end: Time,
    /// Collection time (a vertical line), when known.
    pub reference: Option<Time>,
}

/// `18:27:49` style time for labels (seconds).
pub fn hms(t: &Time) -> String {
    t.format("%H:%M:%S").to_string()
}

/// `start → end (duration)` for tips; `end of data` for open spans.
pub fn span_text(start: &Time, end: &Time, open: bool) -> String {
    let to = if open {
        format!("{} (end of data)", fmt_short(end))
    } else {
        fmt_short(end)
    };
    format!(
        "{} → {to} ({})",
        fmt_short(start),
        human_duration(*end - *start)
    )
}

/// `path:line` of the first piece of evidence.
pub fn where_(ev: &[Evidence]) -> String {
    ev.first().map_or_else(String::new, |e| e.prov.to_string())
}

/// The standard `data-start`/`data-end` pair.
pub fn se(start: &Time, end: &Time) -> Vec<(&'static str, String)> {
    vec![("start", fmt_short(start)), ("end", fmt_short(end))]
}

/// Assigns bars to at most `max` tracks so overlapping bars do not cover each other; returns
/// the number of tracks used.
pub fn pack(bars: &mut [Bar], max: usize) -> usize {
    bars.sort_by_key(|b| (b.start, b.end));
    let mut ends: Vec<Time> = Vec::new();
    for b in bars.iter_mut() {
        let free = ends.iter().position(|e| *e <= b.start);
        let track = match free {
            Some(i) => i,
            None if ends.len() < max.max(1) => {
                ends.push(b.start);
                ends.len() - 1
            }
            None => (0..ends.len()).min_by_key(|&i| ends[i]).unwrap_or(0),
        };
        ends[track] = ends[track].max(b.end);
        b.track = track;
    }
    ends.len().max(1)
}

/// Condition transitions by subject and condition, in time order.
pub type CondIndex<'a> = BTreeMap<(&'a str, &'a str), Vec<&'a TimelineEvent>>;

/// With `skip_intervals`, transitions read from CI intervals are left out (the intervals
/// themselves are drawn, with both ends).
pub fn cond_index(tl: &Timeline, skip_intervals: bool) -> CondIndex<'_> {
    let mut idx: CondIndex<'_> = BTreeMap::new();
    for e in &tl.events {
        if skip_intervals && e.source == EventSource::Interval {
            continue;
        }
        if let EventKind::ConditionTransition { condition, .. } = &e.kind {
            idx.entry((e.subject.as_str(), condition.as_str()))
                .or_default()
                .push(e);
        }
    }
    idx
}

/// One stretch in which a condition had one status.
pub struct CondSpan<'a> {
    pub start: Time,
    pub end: Time,
    pub open: bool,
    pub status: &'a str,
    pub reason: &'a str,
    pub event: &'a TimelineEvent,
}

/// The stretches of one condition: each transition lasts until the next one with another
/// status (or the end of the data).
pub fn cond_spans<'a>(events: &[&'a TimelineEvent], end: Time) -> Vec<CondSpan<'a>> {
    let mut out: Vec<CondSpan<'a>> = Vec::new();
    for e in events {
        let EventKind::ConditionTransition { status, reason, .. } = &e.kind else {
            continue;
        };
        if let Some(last) = out.last_mut() {
            if last.status == status.as_str() {
                continue;
            }
            last.end = e.time;
            last.open = false;
        }
        out.push(CondSpan {
            start: e.time,
            end: end.max(e.time),
            open: true,
            status,
            reason,
            event: e,
        });
    }
    out
}

/// A bar for a condition stretch.
pub fn cond_bar(
    subject: &str,
    cond: &str,
    s: &CondSpan<'_>,
    class: &'static str,
    track: usize,
) -> Bar {
    let reason = if s.reason.is_empty() {
        String::new()
    } else {
        format!(" ({})", s.reason)
    };
    let tip = format!(
        "{subject} {cond}={}{reason}\n{}\n{}\n{}",
        s.status,
        span_text(&s.start, &s.end, s.open),
        s.event.message,
        where_(&s.event.evidence)
    );
    let mut data = se(&s.start, &s.end);
    data.push(("cond", format!("{cond}={}", s.status)));
    Bar {
        start: s.start,
        end: s.end,
        open: s.open,
        class,
        track,
        label: format!("{cond}={}{reason}", s.status),
        tip,
        data,
    }
}

/// The last moment anything is known about: collection time or the latest time seen.
fn window_end(tl: &Timeline, report: &Report, ivs: &[CiInterval]) -> Option<Time> {
    let mut end = tl.reference;
    let mut see = |t: Option<Time>| {
        if let Some(t) = t {
            end = Some(end.map_or(t, |e| e.max(t)));
        }
    };
    see(tl.events.last().map(|e| e.time));
    for p in &tl.passes {
        see(p.end.or(Some(p.start)));
    }
    for i in &tl.instances {
        see(Some(i.end));
    }
    for h in &tl.history {
        see(h.started);
        see(h.completion);
    }
    for e in &tl.episodes {
        see(e.end.or(Some(e.start)));
    }
    for f in &report.findings {
        see(f.at);
    }
    for i in ivs {
        see(i.to.or(Some(i.from)));
    }
    end
}

/// Builds every lane (quiet ones included) and the time window.
pub fn build(tl: &Timeline, report: &Report, ivs: &[CiInterval]) -> Option<Chart> {
    let end = window_end(tl, report, ivs)?;
    let idx = cond_index(tl, !ivs.is_empty());
    let mut lanes = vec![Lane::new(Group::Findings, "findings", "findings")];
    cluster_version(tl, &idx, end, &mut lanes);
    lanes_cvo::cvo(tl, end, &mut lanes);
    lanes_more::operators(&idx, end, &mut lanes);
    lanes_more::machines(tl, &idx, end, &mut lanes);
    lanes_more::ci(tl, end, &mut lanes);
    intervals::add(ivs, end, &mut lanes);
    // Operators, pools and nodes by name; everything else as built.
    let mut order: Vec<(usize, Lane)> = lanes.into_iter().enumerate().collect();
    order.sort_by(|(i, a), (j, b)| {
        let by_name = |l: &Lane| matches!(l.group, Group::Operators | Group::Machines);
        let ka = if by_name(a) { a.key.as_str() } else { "" };
        let kb = if by_name(b) { b.key.as_str() } else { "" };
        (a.group, ka, i).cmp(&(b.group, kb, j))
    });
    let mut lanes: Vec<Lane> = order.into_iter().map(|(_, l)| l).collect();
    lanes_more::findings(report, &mut lanes);
    let start = lanes
        .iter()
        .flat_map(|l| {
            l.bars
                .iter()
                .map(|b| b.start)
                .chain(l.marks.iter().map(|m| m.time))
        })
        .min()?;
    Some(Chart {
        lanes,
        start: start.min(end),
        end,
        reference: tl.reference,
    })
}

fn history_lane(tl: &Timeline, end: Time) -> Lane {
    let mut lane = Lane::new(Group::ClusterVersion, "cv/history", "history");
    // Installs whose recorded completion is later than the evidence allows.
    let bounds: Vec<(String, Time, Time, &[Evidence])> = tl
        .episodes_of(EpisodeTag::Install)
        .filter_map(|e| {
            let b = e.finished_before.as_ref()?;
            let claimed = b.claimed.filter(|_| b.contradicts_claim())?;
            let EpisodeKind::Install { version } = &e.kind else {
                return None;
            };
            Some((version.clone(), b.before, claimed, b.evidence.as_slice()))
        })
        .collect();
    for h in &tl.history {
        let Some(start) = h.started.or(h.completion) else {
            continue;
        };
        let open = h.completion.is_none();
        let stop = h.completion.unwrap_or(end).max(start);
        let class = match h.state.as_str() {
            "Completed" => "hist-completed",
            "Partial" => "hist-partial",
            _ => "neutral",
        };
        let mut tip = format!(
            "{} {} ({}verified)\n{}\nimage {}",
            h.label(),
            h.state,
            if h.verified { "" } else { "not " },
            span_text(&start, &stop, open),
            h.image
        );
        if h.completion_rewrites.len() > 1 {
            tip.push_str(&format!(
                "\ncompletionTime rewritten across snapshots: {}",
                h.completion_rewrites.join(" → ")
            ));
        }
        tip.push('\n');
        tip.push_str(&where_(&h.evidence));
        let bound = bounds
            .iter()
            .find(|(v, _, claimed, _)| v == h.label() && h.completion == Some(*claimed));
        let mut data = se(&start, &stop);
        data.push(("version", h.label().to_string()));
        data.push(("state", h.state.clone()));
        match bound {
            Some((_, actual, claimed, ev)) if *actual > start && actual < claimed => {
                tip.push_str(&format!(
                    "\nactually finished before {} ({}); the recorded completion {} is {} later",
                    fmt_short(actual),
                    where_(ev),
                    fmt_short(claimed),
                    human_duration(*claimed - *actual)
                ));
                lane.bars.push(Bar {
                    start,
                    end: *actual,
                    open: false,
                    class,
                    track: 0,
                    label: format!("{} {}", h.label(), h.state),
                    tip: tip.clone(),
                    data,
                });
                lane.bars.push(Bar {
                    start: *actual,
                    end: *claimed,
                    open: false,
                    class: "claimed",
                    track: 0,
                    label: "recorded".into(),
                    tip: format!(
                        "history records completion at {}, but {} was already done before {}\n{}",
                        fmt_short(claimed),
                        h.label(),
                        fmt_short(actual),
                        where_(ev)
                    ),
                    data: vec![
                        ("actual", fmt_short(actual)),
                        ("recorded", fmt_short(claimed)),
                        ("version", h.label().to_string()),
                    ],
                });
                let tip = format!(
                    "actual completion of {}: before {}\n{}",
                    h.label(),
                    fmt_short(actual),
                    where_(ev)
                );
                let mut m = Mark::new(*actual, "m-good", Glyph::Dot, tip).what("actual-completion");
                m.note = format!("actual ≤ {}", hms(actual));
                m.note_left = true;
                lane.marks.push(m);
                let tip = format!(
                    "recorded completion of {}: {} (rewritten)",
                    h.label(),
                    fmt_short(claimed)
                );
                let mut m =
                    Mark::new(*claimed, "m-bad", Glyph::Cross, tip).what("recorded-completion");
                m.note = format!("recorded {}", hms(claimed));
                lane.marks.push(m);
                lane.tracks = 2;
            }
            _ => lane.bars.push(Bar {
                start,
                end: stop,
                open,
                class,
                track: 0,
                label: format!("{} {}", h.label(), h.state),
                tip,
                data,
            }),
        }
    }
    lane
}

fn episode_lane(tl: &Timeline, end: Time) -> Lane {
    let mut lane = Lane::new(Group::ClusterVersion, "cv/episodes", "episodes");
    for e in &tl.episodes {
        let (class, label) = match &e.kind {
            EpisodeKind::Install { version } => ("ep-install", format!("install {version}")),
            EpisodeKind::Update { from, to } => ("ep-update", format!("update {from} → {to}")),
            EpisodeKind::Cancel { from, to } => {
                ("ep-cancel", format!("cancel {from} → {to} → {from}"))
            }
            EpisodeKind::Rollback { from, to } => {
                ("ep-rollback", format!("rollback {from} → {to} → {from}"))
            }
            _ => continue,
        };
        let stop = e.end.unwrap_or(end).max(e.start);
        let mut tip = format!(
            "{label}\n{}\n{}",
            span_text(&e.start, &stop, e.end.is_none()),
            e.summary
        );
        for m in &e.milestones {
            tip.push_str(&format!("\n{:?}: {}", m.kind, fmt_short(&m.time)));
        }
        let mut data = se(&e.start, &stop);
        data.push(("episode", format!("{:?}", e.tag()).to_ascii_lowercase()));
        lane.bars.push(Bar {
            start: e.start,
            end: stop,
            open: e.end.is_none(),
            class,
            track: 0,
            label,
            tip,
            data,
        });
        for m in &e.milestones {
            if matches!(m.kind, MilestoneKind::Requested | MilestoneKind::Completed) {
                continue;
            }
            let tip = format!(
                "{:?} ({})\n{}\n{}",
                m.kind,
                e.summary.split(';').next().unwrap_or(""),
                fmt_short(&m.time),
                where_(&m.evidence)
            );
            lane.marks
                .push(Mark::new(m.time, "m-milestone", Glyph::Tick, tip));
        }
    }
    lane.tracks = pack(&mut lane.bars, 3);
    lane
}

/// Colour of a ClusterVersion condition's status.
fn cv_class(cond: &str, status: &str) -> &'static str {
    match (cond, status) {
        ("Available", "True") | ("ReleaseAccepted", "True") => "good",
        ("Available", "False") | ("ReleaseAccepted", "False") | ("Failing", "True") => "bad",
        ("Progressing", "True") => "prog",
        ("Upgradeable", "False") => "warn",
        (_, "True") | (_, "False") => "neutral",
        _ => "unknown",
    }
}

fn cluster_version(tl: &Timeline, idx: &CondIndex<'_>, end: Time, lanes: &mut Vec<Lane>) {
    lanes.push(history_lane(tl, end));
    lanes.push(episode_lane(tl, end));
    for cond in [
        "Available",
        "Progressing",
        "Failing",
        "ReleaseAccepted",
        "Upgradeable",
    ] {
        let mut lane = Lane::new(
            Group::ClusterVersion,
            format!("cv/{cond}"),
            cond.to_string(),
        );
        if let Some(evs) = idx.get(&("clusterversion/version", cond)) {
            for s in cond_spans(evs, end) {
                let class = cv_class(cond, s.status);
                lane.bars
                    .push(cond_bar("clusterversion", cond, &s, class, 0));
            }
        }
        lanes.push(lane);
    }
}
