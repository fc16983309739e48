//! Printing the timeline: a plain table (time, source, subject, what, with times relative to
//! the update being worked on) followed by the episodes, and the versioned JSON document
//! (`{"schema": "mglint/timeline/v2", "kind": "timeline", …}`). Both honour a [`Filter`].

use super::Timeline;
use super::episodes::human_duration;
use super::model::*;
use crate::model::Time;
use crate::vocab::text::JsonLayout;
use serde::Serialize;

/// What to show. Episodes are kept when they overlap `[since, until]`; events also have to
/// match the source and subject filters.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Filter {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<Time>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<Time>,
    /// Only these sources (empty: all).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub source: Vec<EventSource>,
    /// Only subjects equal to this, starting with it, or whose name part equals it
    /// (`kube-apiserver` matches `clusteroperator/kube-apiserver`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
}

impl Filter {
    /// Whether an event passes the filter.
    pub fn keeps(&self, e: &TimelineEvent) -> bool {
        self.since.is_none_or(|s| e.time >= s)
            && self.until.is_none_or(|u| e.time <= u)
            && (self.source.is_empty() || self.source.contains(&e.source))
            && self.subject.as_deref().is_none_or(|f| {
                // The user's filter is text: it is matched against the subject's spelling.
                let text = e.subject.to_string();
                text.starts_with(f) || text.split_once('/').is_some_and(|(_, n)| n == f)
            })
    }

    /// Whether an episode overlaps the time window.
    pub fn keeps_episode(&self, e: &Episode) -> bool {
        self.until.is_none_or(|u| e.start <= u)
            && self.since.is_none_or(|s| e.end.is_none_or(|end| end >= s))
    }
}

fn table_time(t: &Time) -> String {
    t.format("%Y-%m-%d %H:%M:%S%.3f").to_string()
}

/// The update-like episode an event falls in after its request, for relative times.
/// The update or install each row is placed after (`[+12m after update to X requested]`):
/// the one requested latest, more than a second before the row, that had not ended (with two
/// seconds' grace) by then. Rows come in time order, so one sweep answers them all: an
/// episode joins when its request is passed and, once ended before a row, is ended for every
/// later row (a per-row scan of every episode was quadratic on long histories).
struct Anchors<'t> {
    /// (request time, position in `episodes`) of every update and install, by request time.
    pending: Vec<(Time, usize)>,
    next: usize,
    /// Joined episodes, latest request (then latest position) on top.
    live: std::collections::BinaryHeap<(Time, usize)>,
    episodes: Vec<&'t Episode>,
}

impl<'t> Anchors<'t> {
    fn new(tl: &'t Timeline) -> Self {
        let episodes: Vec<(Time, &Episode)> = tl
            .episodes
            .iter()
            .filter(|e| matches!(e.tag(), EpisodeTag::Update | EpisodeTag::Install))
            .filter_map(|e| e.milestone(MilestoneKind::Requested).map(|m| (m.time, e)))
            .collect();
        let mut pending: Vec<(Time, usize)> = episodes
            .iter()
            .enumerate()
            .map(|(i, (r, _))| (*r, i))
            .collect();
        pending.sort();
        Anchors {
            pending,
            next: 0,
            live: std::collections::BinaryHeap::new(),
            episodes: episodes.into_iter().map(|(_, e)| e).collect(),
        }
    }

    /// The anchor of a row at `t`; `t` never decreases between calls.
    fn at(&mut self, t: Time) -> Option<(&'t Episode, Time)> {
        while let Some((r, i)) = self.pending.get(self.next)
            && t > *r + chrono::Duration::seconds(1)
        {
            self.live.push((*r, *i));
            self.next += 1;
        }
        while let Some((r, i)) = self.live.peek() {
            let e = self.episodes[*i];
            if e.end
                .is_none_or(|end| t <= end + chrono::Duration::seconds(2))
            {
                return Some((e, *r));
            }
            self.live.pop();
        }
        None
    }
}

fn episode_title(e: &Episode) -> String {
    match &e.kind {
        EpisodeKind::Install { version } => format!("install {version}"),
        EpisodeKind::Update { from, to } if from.is_empty() => format!("update to {to}"),
        EpisodeKind::Update { from, to } => format!("update {from} → {to}"),
        EpisodeKind::Cancel { from, to } => format!("cancel {from} → {to} → {from}"),
        EpisodeKind::Rollback { from, to } => format!("rollback {from} → {to} → {from}"),
        EpisodeKind::Stall { cause, .. } => {
            let c = serde_json::to_value(cause)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            format!("stall ({c})")
        }
        EpisodeKind::CvoRestart { pod, .. } => format!("cvo restart {pod}"),
        EpisodeKind::Unmanaged { .. } => "unmanaged".to_string(),
    }
}

fn milestone_name(k: MilestoneKind) -> String {
    serde_json::to_value(k)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The human table: one line per event, then the episodes with their milestones.
pub fn render_table(tl: &Timeline, f: &Filter) -> String {
    // Text from the input reaches a terminal: its control characters are shown escaped.
    crate::vocab::text::show_controls(&render_table_unescaped(tl, f)).into_owned()
}

fn render_table_unescaped(tl: &Timeline, f: &Filter) -> String {
    let rows: Vec<&TimelineEvent> = tl.events.iter().filter(|e| f.keeps(e)).collect();
    // Each subject's spelling, written once here at the table.
    let subjects: Vec<String> = rows.iter().map(|e| e.subject.to_string()).collect();
    let subj_w = subjects
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(7)
        .clamp(7, 48);
    let mut s = String::new();
    s.push_str(&format!(
        "{:<23}  {:<19}  {:<subj_w$}  WHAT\n",
        "TIME (UTC)", "SOURCE", "SUBJECT"
    ));
    let mut anchors = Anchors::new(tl);
    for (e, subject) in rows.iter().zip(&subjects) {
        let mut what = one_line(&e.message, 200);
        if let Some((ep, req)) = anchors.at(e.time) {
            let label = match &ep.kind {
                EpisodeKind::Install { .. } => "install started".to_string(),
                EpisodeKind::Update { to, .. } => format!("update to {to} requested"),
                _ => String::new(),
            };
            what.push_str(&format!(
                "  [+{} after {label}]",
                human_duration(e.time - req)
            ));
        }
        if e.evidence.len() > 1 {
            what.push_str(&format!("  ({} sources)", e.evidence.len()));
        }
        s.push_str(&format!(
            "{:<23}  {:<19}  {:<subj_w$}  {what}\n",
            table_time(&e.time),
            e.source.name(),
            // A subject (an object's name) stays on its line: a newline is shown `\x0a`.
            crate::vocab::escape::one_line(subject)
        ));
    }
    if rows.is_empty() {
        s.push_str("(no events)\n");
    }
    let eps: Vec<&Episode> = tl.episodes.iter().filter(|e| f.keeps_episode(e)).collect();
    s.push_str("\nEPISODES\n");
    if eps.is_empty() {
        s.push_str("(none)\n");
    }
    for e in eps {
        let end = match e.end {
            Some(end) => format!("{} ({})", table_time(&end), human_duration(end - e.start)),
            None => "open".to_string(),
        };
        s.push_str(&format!(
            "{}: {} → {end}\n",
            episode_title(e),
            table_time(&e.start)
        ));
        if let Some(r) = &e.running_release {
            s.push_str(&format!("  running release: {r}\n"));
        }
        s.push_str(&format!("  {}\n", e.summary));
        for m in &e.milestones {
            let at = m
                .evidence
                .first()
                .map_or(String::new(), |ev| format!("  ({})", ev.prov));
            s.push_str(&format!(
                "  - {:<17} {}{at}\n",
                milestone_name(m.kind),
                table_time(&m.time)
            ));
        }
    }
    s
}

#[derive(Serialize)]
struct Doc<'a> {
    schema: &'static str,
    kind: &'static str,
    cluster: &'a crate::bundle::ClusterIdentity,
    reference: Option<Time>,
    filter: &'a Filter,
    events: Vec<InNamespace<'a>>,
    episodes: Vec<&'a Episode>,
    passes: Vec<&'a Pass>,
    history: &'a [HistoryRecord],
    /// Input files that could not be read: what they held is missing from the timeline.
    unread: &'a [crate::bundle::Unread],
}

/// An event written with its CVO pod in the cluster's CVO namespace (a hosted cluster's
/// control plane namespace).
struct InNamespace<'a>(&'a TimelineEvent, &'a str);

impl Serialize for InNamespace<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_in(self.1, s)
    }
}

/// The versioned JSON document (pretty-printed, deterministic).
pub fn render_json(tl: &Timeline, f: &Filter, layout: JsonLayout) -> String {
    let in_window = |start: Time, end: Option<Time>| {
        f.until.is_none_or(|u| start <= u) && f.since.is_none_or(|s| end.unwrap_or(start) >= s)
    };
    let doc = Doc {
        schema: crate::vocab::schema::TIMELINE,
        kind: "timeline",
        cluster: &tl.cluster,
        reference: tl.reference,
        filter: f,
        events: tl
            .events
            .iter()
            .filter(|e| f.keeps(e))
            .map(|e| InNamespace(e, &tl.cvo_namespace))
            .collect(),
        episodes: tl.episodes.iter().filter(|e| f.keeps_episode(e)).collect(),
        passes: tl
            .passes
            .iter()
            .filter(|p| in_window(p.start, p.end))
            .collect(),
        history: &tl.history,
        unread: &tl.unread,
    };
    layout.write(&doc).unwrap_or_else(|e| {
        format!(
            "{{\"schema\":\"{}\",\"error\":\"{e}\"}}",
            crate::vocab::schema::TIMELINE
        )
    })
}
