//! The chart's lane model: one lane per thing that changes over time (ClusterVersion
//! history, episodes and conditions; the CVO's pods, sync passes, preconditions and
//! reconciliation; each ClusterOperator, pool and node; CI), each with bars (spans) and marks
//! (instants), and the helpers every lane builder shares. The vocabulary of `lanes` (which
//! assembles the chart) and of the builders it calls, `lanes_cv` (ClusterVersion),
//! `lanes_cvo` (the CVO), `lanes_more` (operators, pools, nodes, CI, findings) and
//! `intervals`: they all import from here and none from each other's parent, so there is no
//! import circle. Nothing here knows about pixels.

use crate::model::Time;
use crate::timeline::{
    ConditionStretches, Evidence, Subject, Timeline, TimelineEvent, fmt_short, human_duration,
};

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
    pub data: Data,
}

/// The `data-*` attributes of a bar or mark, which the page script, the tests and anyone
/// scraping the page read (`data-start`, `data-cond`…); written in this order when set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Data {
    pub start: Option<String>,
    pub end: Option<String>,
    /// Actual and recorded completion of a history entry whose recorded time is too late.
    pub actual: Option<String>,
    pub recorded: Option<String>,
    /// `Degraded=True`.
    pub cond: Option<String>,
    pub version: Option<String>,
    pub state: Option<String>,
    pub episode: Option<String>,
    pub release: Option<String>,
    /// What a mark stands for (`leader`, `precondition-failed NAME`…).
    pub what: Option<String>,
    pub count: Option<String>,
    /// A CI interval's reason.
    pub interval: Option<String>,
    /// A finding's rule code.
    pub code: Option<String>,
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
    pub data: Data,
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
            data: Data::default(),
            note: String::new(),
            note_left: false,
        }
    }
    pub fn what(mut self, what: impl Into<String>) -> Mark {
        self.data.what = Some(what.into());
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
    /// The track the marks sit on (default: the middle of the lane).
    pub marks_track: Option<usize>,
    /// A label that does not fit its bar is written beside it (lanes with few bars).
    pub outside_labels: bool,
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
            marks_track: None,
            outside_labels: false,
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

/// `path:line` of the first piece of evidence, for hover text: long paths keep their last
/// segments (`…/logs/current.log:8399`); the findings section shows them whole.
pub fn where_(ev: &[Evidence]) -> String {
    ev.first()
        .map_or_else(String::new, |e| tail_path(&e.prov.to_string(), 90))
}

/// The end of a `/`-separated path, whole segments only, about `max` bytes.
pub fn tail_path(path: &str, max: usize) -> String {
    if path.len() <= max {
        return path.to_string();
    }
    let mut start = path.len();
    for (i, _) in path
        .match_indices('/')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        if path.len() - i > max && start < path.len() {
            break;
        }
        start = i;
    }
    format!("…{}", &path[start..])
}

/// The standard `data-start`/`data-end` pair.
pub fn se(start: &Time, end: &Time) -> Data {
    Data {
        start: Some(fmt_short(start)),
        end: Some(fmt_short(end)),
        ..Data::default()
    }
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

/// One condition stretch as the chart draws it: open ones end at the chart's end.
pub struct CondSpan<'a> {
    pub start: Time,
    pub end: Time,
    pub open: bool,
    pub status: &'a str,
    pub reason: &'a str,
    pub event: &'a TimelineEvent,
}

/// The stretches of `subject`'s `cond` (computed once, [`crate::timeline::condition_stretches`]),
/// the open one ending at `end`.
pub fn cond_spans<'a>(
    tl: &'a Timeline,
    stretches: &'a ConditionStretches,
    subject: &Subject,
    cond: &str,
    end: Time,
) -> impl Iterator<Item = CondSpan<'a>> + 'a {
    stretches
        .of(subject, cond)
        .unwrap_or_default()
        .iter()
        .map(move |s| {
            let (status, reason) = s.status(tl);
            CondSpan {
                start: s.start,
                end: s.end.unwrap_or(end.max(s.start)),
                open: s.end.is_none(),
                status,
                reason,
                event: s.event(tl),
            }
        })
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
    data.cond = Some(format!("{cond}={}", s.status));
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
